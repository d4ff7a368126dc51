#!/usr/bin/env python3
"""fronts.py SEED INDEX [--profile plain|hard] [--frames A:B] [--row R] [--scale S] [--json CLIP.json]

Each runner's true torso front, frame by frame, for clip INDEX of the set
render.py makes with SEED (`clip-NNN`, or `clip-sSEED-NNN` from --pick): to
tell a detector's front that is off from one that is right, and a limb or
a second runner from the torso. Nothing is drawn: the clip's scene is
rebuilt by render.py itself (`render_clip(scene_only=True)`), so its
runners move exactly as they did in the frames.

For frame i the instant is i / fps plus R / H x readout (row R's exposure
middle, the time base's rolling shutter), R by default the middle of the
torso's rows. The front is the column of the torso's foremost point (the
image's pixel columns, the gate at gate x W), divided by S (--scale 2 for
the detector's half-size work image of 640x480 frames). Without --frames,
the twelve frames either side of each crossing. --json checks the rebuilt
truth against the clip's own and exits 1 if they differ (a wrong seed,
index or profile).
"""
import argparse
import json
import math
import sys

import render


def frame_span(text):
    """--frames A:B, both whole frame numbers, A <= B."""
    try:
        first, last = (int(v) for v in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': expected A:B, two frame numbers")
    if first > last:
        raise argparse.ArgumentTypeError(f"'{text}': the first frame is after the last")
    return first, last


def main():
    ap = argparse.ArgumentParser(description="each runner's true torso front per frame")
    ap.add_argument("seed", type=int)
    ap.add_argument("index", type=int)
    ap.add_argument("--profile", choices=["plain", "hard"], default="plain")
    ap.add_argument("--frames", type=frame_span, default=None, help="A:B, both included")
    ap.add_argument("--row", type=float, default=None, help="source row whose instant is used")
    ap.add_argument("--scale", type=float, default=1.0, help="columns divided by this")
    ap.add_argument("--json", default=None, help="the clip's truth JSON, to check against")
    a = ap.parse_args()

    scene = render.render_clip((None, None, a.seed, a.index, a.profile, "run"), scene_only=True)
    fps, W, H = scene["fps"], scene["width"], scene["height"]
    runners, truth, scale = scene["runners"], scene["truth"], scene["scale"]
    if a.json:
        with open(a.json) as f:
            theirs = [c["crossingTimeNanos"] for c in json.load(f)["crossings"]]
        ours = [c["crossingTimeNanos"] for c in truth]
        if theirs != ours:
            sys.exit(f"fronts.py: {a.json} has crossings {theirs}, seed {a.seed} clip {a.index} "
                     f"({a.profile}) {ours}: not this clip")
    row = a.row if a.row is not None else scene["ground"] - 1.15 * scale
    lag = row / H * scene["readout"]
    print(f"{fps} fps, {W}x{H}, exposure {scene['exposure'] * 1e3:.3f} ms, readout {scene['readout'] * 1e3:.3f} ms, "
          f"gate column {scene['gate'] * W / a.scale:.3f} (gate {scene['gate']:.6f}), {scale:.2f} px/m, "
          f"instants of row {row:.0f} (+{lag * 1e3:.3f} ms), columns / {a.scale:g}")
    for k, (r, c) in enumerate(zip(runners, truth)):
        print(f"runner {k}: {c['direction']}, crosses at {c['crossingTimeNanos']} ns ({c['speedMps']} m/s); "
              f"starts {r.t0:.3f} s at {r.v0:.2f} m/s + {r.a:.2f} m/s^2, {r.shape} torso {r.depth:.3f} m deep, "
              f"lean {r.lean:.3f} rad, sleeves {r.sleeve}")
    if a.frames:
        spans = [a.frames]
    else:
        at = [math.floor(c["crossingTimeNanos"] / 1e9 * fps) for c in truth]
        spans = [(i - 12, i + 12) for i in at]
    for first, last in spans:
        for i in range(max(0, first), min(scene["frames"] - 1, last) + 1):
            t = i / fps + lag
            cells = [f"r{k} {r.torso_front(t) * scale / a.scale:9.3f} ({r.speed(t) * scale / a.scale:7.1f}/s)"
                     for k, r in enumerate(runners)]
            print(f"frame {i:4d} {int(round(t * 1e9)):11d} ns  " + "  ".join(cells))


if __name__ == "__main__":
    main()
