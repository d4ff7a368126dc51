#!/usr/bin/env python3
"""frame.py CLIP.y4m INDEX OUT.png: one frame's luma as a PNG (debugging aid)."""
import sys
import numpy as np
from PIL import Image
path, k, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "rb") as f:
    header = f.readline().decode().split()
    W = int(next(h[1:] for h in header if h[0] == "W")); H = int(next(h[1:] for h in header if h[0] == "H"))
    cs = next((h[1:] for h in header if h[0] == "C"), "420jpeg")
    size = W * H + (0 if cs == "mono" else 2 * ((W + 1) // 2) * ((H + 1) // 2))
    f.seek(0); f.readline()
    for i in range(k + 1):
        f.readline()
        data = f.read(size)
    img = np.frombuffer(data[:W * H], np.uint8).reshape(H, W)
    Image.fromarray(img).save(out)
