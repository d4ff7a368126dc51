#!/usr/bin/env python3
"""Encodes a YUV4MPEG2 clip as a webcam would send it: each frame a baseline
JPEG at quality Q with 4:2:2 chroma (cjpeg -quality Q -sample 2x1, Debian's
libjpeg-turbo-progs), written as an MJPEG AVI (RIFF 'AVI ', '00dc' chunks,
dwRate/dwScale from the clip's F<num>:<den>) or as a raw MJPEG stream
(JPEGs one after another). `ts-gate replay` reads both.

  y4m-to-mjpeg.py IN.y4m OUT.avi|OUT.mjpeg [--quality Q] [--format avi|mjpeg]

Only luma is carried over: each frame goes to cjpeg as grey RGB (R=G=B=Y),
which it turns back into Y with chroma at 128. JPEG codes luma apart from
chroma, so a frame's luma blocks, and what the detector sees after the
decode, are those of a coloured frame with the same luma. Standard library
only (no numpy), so tests can run it anywhere cjpeg is.
"""
import argparse
import os
import struct
import subprocess
import sys


def frames_of(path):
    """(width, height, fps_num, fps_den, iterator of luma planes)."""
    f = open(path, "rb")
    header = f.readline()
    if not header.startswith(b"YUV4MPEG2 "):
        sys.exit(f"y4m-to-mjpeg: {path}: not a YUV4MPEG2 clip")
    fields = {p[:1]: p[1:] for p in header.split()[1:]}
    w, h = int(fields[b"W"]), int(fields[b"H"])
    num, den = (int(x) for x in fields[b"F"].split(b":"))
    cs = fields.get(b"C", b"420").decode()
    cw, ch = (w + 1) // 2, (h + 1) // 2
    chroma = {"mono": 0, "444": 2 * w * h, "422": 2 * cw * h}.get(cs, 2 * cw * ch)

    def planes():
        while True:
            line = f.readline()
            if not line:
                return
            if not line.startswith(b"FRAME"):
                sys.exit(f"y4m-to-mjpeg: {path}: expected FRAME")
            luma = f.read(w * h)
            if len(luma) < w * h:
                sys.exit(f"y4m-to-mjpeg: {path}: truncated frame")
            f.seek(chroma, 1)
            yield luma
    return w, h, num, den, planes()


def encode(luma, w, h, quality):
    rgb = bytearray(3 * w * h)
    rgb[0::3] = luma
    rgb[1::3] = luma
    rgb[2::3] = luma
    p = subprocess.run(["cjpeg", "-quality", str(quality), "-sample", "2x1"],
                       input=b"P6\n%d %d\n255\n" % (w, h) + bytes(rgb), capture_output=True)
    if p.returncode != 0:
        sys.exit("y4m-to-mjpeg: cjpeg failed: " + p.stderr.decode(errors="replace"))
    return p.stdout


def chunk(fourcc, data):
    return fourcc + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def avi(jpegs, w, h, num, den):
    frames = len(jpegs)
    largest = max(len(j) for j in jpegs)
    us = round(1e6 * den / num)
    avih = struct.pack("<IIIIIIIIII4I", us, largest * num // den, 0, 0x10, frames, 0, 1, largest, w, h, 0, 0, 0, 0)
    strh = b"vids" + b"MJPG" + struct.pack("<IHHIIIIIIII4h", 0, 0, 0, 0, den, num, 0, frames, largest, 0xFFFFFFFF, 0,
                                           0, 0, w, h)
    strf = struct.pack("<IiiHH4sIiiII", 40, w, h, 1, 24, b"MJPG", w * h * 3, 0, 0, 0, 0)
    hdrl = b"hdrl" + chunk(b"avih", avih) + chunk(b"LIST", b"strl" + chunk(b"strh", strh) + chunk(b"strf", strf))
    movi = b"movi"
    index = b""
    for j in jpegs:
        index += b"00dc" + struct.pack("<III", 0x10, len(movi), len(j))
        movi += chunk(b"00dc", j)
    body = b"AVI " + chunk(b"LIST", hdrl) + chunk(b"LIST", movi) + chunk(b"idx1", index)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--quality", type=int, default=75)
    ap.add_argument("--format", choices=["avi", "mjpeg"])
    a = ap.parse_args()
    fmt = a.format or ("avi" if a.output.endswith(".avi") else "mjpeg")
    w, h, num, den, planes = frames_of(a.input)
    jpegs = [encode(luma, w, h, a.quality) for luma in planes]
    if not jpegs:
        sys.exit(f"y4m-to-mjpeg: {a.input}: no frames")
    data = avi(jpegs, w, h, num, den) if fmt == "avi" else b"".join(jpegs)
    tmp = a.output + ".part"
    with open(tmp, "wb") as f:
        f.write(data)

    os.replace(tmp, a.output)


if __name__ == "__main__":
    main()
