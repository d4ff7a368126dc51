#!/usr/bin/env python3
"""One frame of a Y4M clip as a grey PNG, to look at a clip: the frame
nearest the clip's first crossing, or frame N; the gate column dotted.

  frame.py CLIP.y4m OUT.png [--frame N] [--crop]   (--crop: 240 px around the gate)
"""
import argparse
import json
import os
import struct
import zlib


def png(w, h, rows):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("clip")
    ap.add_argument("out")
    ap.add_argument("--frame", type=int)
    ap.add_argument("--crop", action="store_true")
    a = ap.parse_args()
    meta = json.load(open(os.path.splitext(a.clip)[0] + ".json"))
    n = a.frame
    if n is None:
        n = round(meta["crossings"][0]["crossingTimeNanos"] / 1e9 * meta["fps"]) if meta["crossings"] else 0
    with open(a.clip, "rb") as f:
        header = f.readline().split()
        fields = {p[:1]: p[1:] for p in header[1:]}
        w, h = int(fields[b"W"]), int(fields[b"H"])
        chroma = 0 if fields.get(b"C", b"") == b"mono" else 2 * ((w + 1) // 2) * ((h + 1) // 2)
        for _ in range(n):
            f.readline()
            f.seek(w * h + chroma, 1)
        f.readline()
        luma = f.read(w * h)
    x0, x1 = 0, w
    if a.crop:
        g = int(meta["gate"] * w)
        x0, x1 = max(0, g - 120), min(w, g + 120)
    rows = [luma[y * w + x0:y * w + x1] for y in range(h)]
    # The gate column drawn dark-light dotted.
    g = int(meta["gate"] * w) - x0
    rows = [r[:g] + bytes([0 if (y // 4) % 2 else 255]) + r[g + 1:] if 0 <= g < len(r) else r for y, r in enumerate(rows)]
    open(a.out, "wb").write(png(x1 - x0, h, rows))
    print(f"frame {n} of {a.clip} -> {a.out}")


if __name__ == "__main__":
    main()
