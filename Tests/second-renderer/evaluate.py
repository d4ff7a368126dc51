#!/usr/bin/env python3
"""Replays the second renderer's clips with `ts-gate replay` and prints the
detection error per mode and frame rate, and the share of timed crossings
whose error lies within one and two of the uncertainty they report.

  evaluate.py BIN CLIPDIR [--modes photo-finish,precision] [--jobs 2] [--verbose] [--out FILE] [--mjpeg Q]
  evaluate.py --compare A B        clips whose error moved by more than 0.1 ms

With --require-within MS and --require-timed F it is a check: it exits 1
unless every crossing timed lies within MS of the truth, at least a
fraction F of the true crossings is timed, and nothing false is reported
(a set of quiet scenes alone, no crossing to time, passes when nothing is).

Each clip is replayed with its truth's --gate, --exposure-ms and
--readout-ms. A true crossing matches the nearest report of the same
direction within 100 ms (each report once); an unmatched report, or any
report on a quiet clip, is a false trigger. Host-only dev tool.

With --mjpeg Q every clip is first encoded as a webcam would send it, an
MJPEG AVI of JPEGs at quality Q with 4:2:2 chroma (Tests/mjpeg/y4m-to-mjpeg.py,
cjpeg), cached in CLIPDIR/mjpeg-qQ/, and that AVI is replayed: `ts-gate
replay` decodes it through libv4lconvert, as the box decodes an MJPEG camera.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

ENCODER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mjpeg", "y4m-to-mjpeg.py")

WINDOW_NS = 100_000_000


def replay(binary, clip, meta, mode):
    cmd = [binary, "replay", clip, "--json", "--mode", mode, "--gate", str(meta["gate"]),
           "--exposure-ms", str(meta["exposure_ms"]), "--readout-ms", str(meta["readout_ms"])]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    reports = []
    for line in p.stdout.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if "crossingTimeNanos" in o:
            reports.append((int(o["crossingTimeNanos"]), o.get("direction"), float(o.get("uncertaintyMs", "nan"))))
    return reports, None


def judge(meta, reports):
    """[(truth index, error ms or None, reported uncertainty ms)], false triggers."""
    used = set()
    out = []
    for k, c in enumerate(meta["crossings"]):
        best, best_d = None, None
        for j, (t, d, _) in enumerate(reports):
            if j in used or d != c["direction"]:
                continue
            e = t - c["crossingTimeNanos"]
            if abs(e) <= WINDOW_NS and (best_d is None or abs(e) < abs(best_d)):
                best, best_d = j, e
        if best is None:
            out.append((k, None, None))
        else:
            used.add(best)
            out.append((k, best_d / 1e6, reports[best][2]))
    return out, len(reports) - len(used)


def describe(m):
    keys = ["style", "speed0", "accel", "shape", "depthM", "lean", "contrast", "sleeve", "pattern"]
    parts = [f"{k}={m[k]}" for k in keys if k in m]
    parts.append(f"exp={m['exposure_ms']:.2f} ro={m['readout_ms']:.2f} {m['width']}x{m['height']}")
    return " ".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?")
    ap.add_argument("clipdir", nargs="?")
    ap.add_argument("--modes", default="photo-finish,precision")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--out")
    ap.add_argument("--filter")
    ap.add_argument("--compare", nargs=2)
    ap.add_argument("--require-within", type=float)
    ap.add_argument("--require-timed", type=float, default=0.0)
    ap.add_argument("--mjpeg", type=int, metavar="Q", help="replay each clip as an MJPEG AVI at JPEG quality Q")
    a = ap.parse_args()
    if a.compare:
        return compare(*a.compare)
    metas = []
    for path in sorted(glob.glob(os.path.join(a.clipdir, "*.json"))):
        m = json.load(open(path))
        if a.filter and a.filter not in m["name"]:
            continue
        metas.append(m)
    modes = a.modes.split(",")
    jobs = [(m, mode) for m in metas for mode in modes]

    def clip_path(m):
        if a.mjpeg is None:
            return os.path.join(a.clipdir, m["name"] + ".y4m")
        return os.path.join(a.clipdir, f"mjpeg-q{a.mjpeg}", m["name"] + ".avi")

    if a.mjpeg is not None:
        os.makedirs(os.path.join(a.clipdir, f"mjpeg-q{a.mjpeg}"), exist_ok=True)

        def encode(m):
            out = clip_path(m)
            if not os.path.exists(out):  # the encoder writes a .part and renames it
                subprocess.run([sys.executable, ENCODER, os.path.join(a.clipdir, m["name"] + ".y4m"), out,
                                "--quality", str(a.mjpeg)], check=True)
        with ThreadPoolExecutor(a.jobs) as pool:
            list(pool.map(encode, metas))

    def run(job):
        m, mode = job
        reports, err = replay(a.binary, clip_path(m), m, mode)
        return m, mode, reports, err

    with ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(run, jobs))
    lines = []
    table = {}
    for m, mode, reports, err in results:
        key = (mode, m["fps"])
        t = table.setdefault(key, {"errors": [], "sigmas": [], "misses": 0, "false": 0, "clips": 0})
        t["clips"] += 1
        if reports is None:
            lines.append(f"{m['name']} {mode} {m['fps']}fps ERROR {err}")
            t["misses"] += len(m["crossings"])
            continue
        judged, false = judge(m, reports)
        t["false"] += false
        for k, e, u in judged:
            if e is None:
                t["misses"] += 1
            else:
                t["errors"].append(abs(e))
                t["sigmas"].append(u)
            shown = "MISS" if e is None else f"{e:+.3f} u {u:.3f}"
            lines.append(f"{m['name']}#{k} {mode} {m['fps']}fps {shown} | {describe(m)}")
        if false:
            lines.append(f"{m['name']} {mode} {m['fps']}fps FALSE x{false} | {describe(m)}")
    out = []
    if a.verbose:
        out += lines
        out.append("")
    out.append(f"{'mode':<13}{'fps':>4}{'n':>5}{'median':>9}{'p95':>9}{'max':>9}{'<=1ms':>7}{'misses':>8}{'false':>7}"
               f"{'<=u':>6}{'<=2u':>6}")
    for mode in modes:
        for fps in (30, 60, 120, 240):
            t = table.get((mode, fps))
            if not t:
                continue
            e = np.array(t["errors"]) if t["errors"] else np.array([np.nan])
            within = int(np.sum(e <= 1.0)) if t["errors"] else 0
            # The share of timed crossings within one and two of the
            # (one-sigma) uncertainty they report.
            u = np.array(t["sigmas"]) if t["sigmas"] else np.array([np.nan])
            cover = [f"{100 * np.mean(e <= m * u):.0f}%" if t["errors"] else "-" for m in (1, 2)]
            out.append(f"{mode:<13}{fps:>4}{len(t['errors']):>5}{np.median(e):>9.3f}{np.percentile(e, 95):>9.3f}"
                       f"{np.max(e):>9.3f}{within:>7}{t['misses']:>8}{t['false']:>7}{cover[0]:>6}{cover[1]:>6}")
    text = "\n".join(out)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n\n" + text + "\n")
    if a.require_within is not None:
        errors = [e for t in table.values() for e in t["errors"]]
        truths = sum(len(t["errors"]) + t["misses"] for t in table.values())
        false = sum(t["false"] for t in table.values())
        worst = max(errors) if errors else float("nan")
        # Nothing timed passes only where there was nothing to time.
        ok = (worst <= a.require_within if errors else truths == 0) \
            and len(errors) >= a.require_timed * truths and false == 0
        print(f"check: {len(errors)} of {truths} crossings timed, worst |error| {worst:.3f} ms "
              f"(limit {a.require_within} ms), {false} false: {'PASS' if ok else 'FAIL'}")
        return 0 if ok else 1


def compare(pa, pb):
    def load(p):
        d = {}
        for line in open(p):
            parts = line.split()
            if len(parts) >= 4 and "#" in parts[0]:
                d[(parts[0], parts[1])] = parts[3]
        return d
    a, b = load(pa), load(pb)
    for k in sorted(set(a) | set(b)):
        x, y = a.get(k, "-"), b.get(k, "-")
        try:
            moved = abs(float(x) - float(y)) > 0.1
        except ValueError:
            moved = x != y
        if moved:
            print(f"{k[0]:<16} {k[1]:<13} {x:>9} -> {y:>9}")


if __name__ == "__main__":
    sys.exit(main())
