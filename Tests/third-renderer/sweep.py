#!/usr/bin/env python3
"""Tabulates a third-renderer sweep's errors by the near arm's gait phase at
the crossing and by speed: the file `evaluate.py --out FILE` wrote, beside
the clips' truth JSON.

  sweep.py OUTFILE CLIPDIR [--mode photo-finish|precision|both]

Signed errors (reported - truth): negative is early, the front taken ahead
of the torso's. `cm` is the median error times the speed: how far ahead of
(negative) or behind the torso's front the detector's front was.
Phase 0 is the near arm at its most forward (hand highest in front), 0.25
the upper arm passing the trunk on its way back (forearm across the chest),
0.5 the arm at its furthest back, 0.75 passing forwards again.
"""
import argparse
import glob
import json
import os

import numpy as np

BANDS = [(0, 5.75, "3-5.5"), (5.75, 9.25, "6-9"), (9.25, 99, "9.5-11.5")]
FPS = [30, 60, 120, 240]


def load(out, clipdir, modes):
    metas = {}
    for p in glob.glob(os.path.join(clipdir, "*.json")):
        m = json.load(open(p))
        metas[m["name"]] = m
    rows = []
    for line in open(out):
        parts = line.split()
        if len(parts) < 4 or "#" not in parts[0] or parts[1] not in modes:
            continue
        name, k = parts[0].split("#")
        m = metas.get(name)
        if m is None or not m.get("crossings"):
            continue
        c = m["crossings"][int(k)]
        e = None if parts[3] == "MISS" else float(parts[3])
        rows.append(dict(name=name, mode=parts[1], fps=m["fps"], v=c["speedMps"], phase=c["armPhase"],
                         sleeve=m.get("sleeve"), e=e))
    return rows


def cell(es, v=None):
    got = [e for e in es if e is not None]
    miss = len(es) - len(got)
    if not got:
        return f"{'-':>7}{'-':>7}{miss:>3}"
    med = float(np.median(got))
    worst = max(got, key=abs)
    return f"{med:>+7.2f}{worst:>+7.2f}{miss:>3}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("clipdir")
    ap.add_argument("--mode", default="photo-finish")
    a = ap.parse_args()
    modes = ["photo-finish", "precision"] if a.mode == "both" else [a.mode]
    rows = load(a.out, a.clipdir, modes)
    print(f"{len(rows)} crossings ({', '.join(modes)}); cells: median signed error, the largest |error| "
          "with its sign (ms), misses")
    print()
    print("near arm's phase x speed band (all frame rates)")
    head = "".join(f"{b[2]:>17}" for b in BANDS)
    print(f"{'phase':<8}{head}{'all':>17}{'cm':>7}")
    for ph in range(8):
        sel = [r for r in rows if round(r["phase"] * 8) % 8 == ph]
        cells = "".join(f"{cell([r['e'] for r in sel if lo <= r['v'] < hi]):>17}" for lo, hi, _ in BANDS)
        got = [(r["e"], r["v"]) for r in sel if r["e"] is not None]
        cm = np.median([e * v / 10 for e, v in got]) if got else float("nan")
        print(f"{ph / 8:<8.3f}{cells}{cell([r['e'] for r in sel]):>17}{cm:>+7.1f}")
    print()
    print("frame rate x speed band: p95 |error| (ms), misses / crossings")
    print(f"{'fps':<8}" + "".join(f"{b[2]:>17}" for b in BANDS) + f"{'all':>17}")
    for fps in FPS:
        line = f"{fps:<8}"
        for lo, hi, _ in [*BANDS, (0, 99, "all")]:
            sel = [r for r in rows if r["fps"] == fps and lo <= r["v"] < hi]
            got = [abs(r["e"]) for r in sel if r["e"] is not None]
            p95 = f"{np.percentile(got, 95):.2f}" if got else "-"
            line += f"{p95:>10}{len(sel) - len(got):>3}/{len(sel):<3}"
        print(line)
    print()
    print("sleeve: median signed error, largest |error|, misses")
    for sl in sorted({r["sleeve"] for r in rows if r["sleeve"]}):
        print(f"{sl:<8}{cell([r['e'] for r in rows if r['sleeve'] == sl]):>17}  n={sum(r['sleeve'] == sl for r in rows)}")


if __name__ == "__main__":
    main()
