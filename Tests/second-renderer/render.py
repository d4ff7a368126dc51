#!/usr/bin/env python3
"""A second clip renderer for ts-gate's accuracy, written apart from GateSim.

It draws a side-view runner with numpy from the issue's time base alone and
shares no code or body model with the Swift renderer, so the detector is
measured on clips it was not tuned on.

Time base (issue 3, deliverable 3):
- frame i carries t_i = i / fps, the mid-exposure instant of its TOP row;
- row r is exposed around t_i + (r / H) x readout, and integrates the light
  of [t_row - E/2, t_row + E/2] (averaged over sub-samples here);
- pixel column k covers x in [k, k + 1); the gate line is at x = gate x W;
- the truth is the physical instant the foremost point of the TORSO (not
  head, arms or legs) reaches x = gate x W, found by bisection on the
  motion model; the rolling shutter changes what rows show, not the truth.

  render.py OUTDIR --count N --seed S [--profile plain|hard] [--quiet-count M] [--jobs K] [--torso-only]
  render.py OUTDIR --pick SEED:INDEX,... [--profile plain|hard]     chosen clips of any seeds

writes OUTDIR/clip-NNN.y4m + clip-NNN.json (and quiet-NNN.*: scenes that
must not trigger). `plain`: solid shirts at least 30 luma from the scene;
`hard`: shaded and striped shirts, shirts down to 12 luma from a textured
scene. --torso-only draws the torso alone (no head or limbs): the detector
should then agree with the truth to a small fraction of a millisecond,
which checks the time base and the truth. Host-only dev tool (numpy), not
part of any build.
"""
import argparse
import json
import math
import os
import sys
from multiprocessing import Pool

import numpy as np

PERSON_M = 1.8  # standing height the scale is set from


# ---------------------------------------------------------------- shapes
# Signed distances (pixels, negative inside) on a grid of pixel centres
# X (1, w) and Y (h, 1); shape parameters may be (h, 1) arrays: each row has
# its own exposure instant, so its own pose.

def sd_capsule(X, Y, ax, ay, bx, by, r):
    px, py = X - ax, Y - ay
    vx, vy = bx - ax, by - ay
    vv = vx * vx + vy * vy
    vv = np.where(vv == 0, 1e-9, vv)
    h = np.clip((px * vx + py * vy) / vv, 0.0, 1.0)
    dx, dy = px - vx * h, py - vy * h
    return np.sqrt(dx * dx + dy * dy) - r


def local(X, Y, cx, cy, ux, uy):
    """Coordinates of (X, Y) in a frame centred at c with axes u (depth) and
    v = u rotated a quarter turn (towards image-up)."""
    dx, dy = X - cx, Y - cy
    p = dx * ux + dy * uy
    q = dx * uy - dy * ux  # v = (uy, -ux): image y grows downwards
    return p, q


def sd_torso(shape, p, q, a, b, rc):
    """Torso in its own frame: half depth a (along p), half length b (q)."""
    if shape == "ellipse":
        # Distance approximation good near the edge (what coverage needs).
        k0 = np.sqrt((p / a) ** 2 + (q / b) ** 2)
        k1 = np.sqrt((p / (a * a)) ** 2 + (q / (b * b)) ** 2)
        return k0 * (k0 - 1.0) / np.maximum(k1, 1e-9)
    if shape == "box":
        dx = np.abs(p) - (a - rc)
        dy = np.abs(q) - (b - rc)
        out = np.sqrt(np.maximum(dx, 0) ** 2 + np.maximum(dy, 0) ** 2)
        return out + np.minimum(np.maximum(dx, dy), 0) - rc
    # capsule along q
    qq = np.clip(q, -(b - a), b - a)
    return np.sqrt(p * p + (q - qq) ** 2) - a


def torso_front_extent(shape, a, b, rc, lean):
    """How far the torso reaches ahead of its centre along the run (metres),
    leaning `lean` forward (top ahead)."""
    s, c = abs(math.sin(lean)), abs(math.cos(lean))
    if shape == "ellipse":
        return math.sqrt((a * c) ** 2 + (b * s) ** 2)
    if shape == "box":
        return (a - rc) * c + (b - rc) * s + rc
    return (b - a) * s + a


def cover(sd):
    return np.clip(0.5 - sd, 0.0, 1.0)


# ---------------------------------------------------------------- the runner

class Runner:
    """A runner facing `d` (+1: left to right). World x in metres along the
    run; image y in pixels. Pose from the distance run (stride phase)."""

    def __init__(self, rng, scale, ground_y, d, t_start, x0, v0, accel, vmax, profile, bg_at, far=False):
        self.s = scale
        self.ground = ground_y
        self.d = d
        self.t0, self.x0, self.v0, self.a, self.vmax = t_start, x0, v0, accel, vmax
        self.shape = rng.choice(["ellipse", "box", "capsule"])
        self.depth = rng.uniform(0.18, 0.32)
        self.length = rng.uniform(0.50, 0.60)
        self.rc = rng.uniform(0.03, 0.07)
        base_lean = rng.uniform(0.0, 0.30)
        self.lean = min(0.45, base_lean + (0.15 if accel > 0 else 0.0))
        self.head_r = rng.uniform(0.10, 0.12)
        self.neck_w = rng.uniform(0.06, 0.10)
        self.arm_w = rng.uniform(0.07, 0.10)
        self.leg_w = rng.uniform(0.10, 0.16)
        self.arm_amp = math.radians(rng.uniform(60, 80))
        self.leg_amp = math.radians(rng.uniform(35, 50))
        self.elbow = math.radians(rng.uniform(60, 100))
        self.stride = rng.uniform(1.6, 2.2)  # metres per full cycle (two steps)
        self.phase0 = rng.uniform(0, 2 * math.pi)
        self.bob = rng.uniform(0.01, 0.04)
        # Clothing. The torso's rows lie 0.85-1.45 m above the ground.
        bg = bg_at
        min_shirt = 30 if profile == "plain" else 12
        self.shirt = pick_luma(rng, bg, min_shirt)
        self.skin = pick_luma(rng, bg, 20 if profile == "plain" else 8)
        self.shorts = pick_luma(rng, bg, 15)
        self.hair = max(10.0, self.skin - rng.uniform(0, 60))
        p_sleeve = 1 / 3 if profile == "plain" else 0.5
        self.sleeve = rng.choice(["none", "short", "long"], p=[1 - p_sleeve, p_sleeve / 2, p_sleeve / 2])
        self.pattern = "solid"
        if profile == "hard":
            self.pattern = rng.choice(["solid", "shaded", "striped"])
        self.shade = rng.uniform(-25, 25)
        self.stripe = rng.uniform(0.06, 0.10)
        self.far = far
        self.contrast = self.shirt - bg

    # Motion: standing until t0, then v0 + a t up to vmax.
    def x(self, t):
        t = np.maximum(np.asarray(t, dtype=float) - self.t0, 0.0)
        if self.a <= 0:
            dist = self.v0 * t
        else:
            tc = max(0.0, (self.vmax - self.v0) / self.a)
            tt = np.minimum(t, tc)
            dist = self.v0 * tt + 0.5 * self.a * tt * tt + self.vmax * np.maximum(t - tc, 0.0)
        return self.x0 + self.d * dist

    def speed(self, t):
        t = max(0.0, t - self.t0)
        return min(self.vmax, self.v0 + self.a * t) if self.a > 0 else self.v0

    def torso_front(self, t):
        """World x of the torso's foremost point."""
        a, b = self.depth / 2, self.length / 2
        ahead = b * math.sin(self.lean) + torso_front_extent(self.shape, a, b, self.rc, self.lean)
        return self.x(t) + self.d * (0.02 + ahead)

    def crossing(self, gate_m):
        """The instant the torso front reaches gate_m (bisection)."""
        lo, hi = self.t0 - 5.0, self.t0 + 30.0
        f = lambda t: (self.torso_front(t) - gate_m) * self.d
        if f(lo) > 0 or f(hi) < 0:
            return None
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if f(mid) < 0:
                lo = mid
            else:
                hi = mid
        return 0.5 * (lo + hi)

    def parts(self, t, X, Y):
        """Painted parts at times t ((h,1) array): list of (rows, columns,
        coverage, luma), each part evaluated in its own box of the grid."""
        s, d = self.s, self.d
        gx0, gy0 = X[0, 0], Y[0, 0]
        h, w = Y.shape[0], X.shape[1]

        def box(lo_x, hi_x, lo_y, hi_y):
            x0 = int(max(0, math.floor(np.min(lo_x) - gx0 - 2)))
            x1 = int(min(w, math.ceil(np.max(hi_x) - gx0 + 3)))
            y0 = int(max(0, math.floor(np.min(lo_y) - gy0 - 2)))
            y1 = int(min(h, math.ceil(np.max(hi_y) - gy0 + 3)))
            return slice(y0, max(y0, y1)), slice(x0, max(x0, x1))

        def rows(v, ys):
            return v[ys] if isinstance(v, np.ndarray) and v.ndim == 2 and v.shape[0] == h else v

        def cap(ax, ay, bx, by, r):
            ys, xs = box(np.minimum(ax, bx) - r, np.maximum(ax, bx) + r, np.minimum(ay, by) - r, np.maximum(ay, by) + r)
            return ys, xs, cover(sd_capsule(X[:, xs], Y[ys], rows(ax, ys), rows(ay, ys), rows(bx, ys), rows(by, ys), r))

        def disc(cx, cy, r):
            ys, xs = box(cx - r, cx + r, cy - r, cy + r)
            cxr, cyr = rows(cx, ys), rows(cy, ys)
            return ys, xs, cover(np.sqrt((X[:, xs] - cxr) ** 2 + (Y[ys] - cyr) ** 2) - r)
        hipx = self.x(t) * s  # pixels
        dist = np.abs(self.x(t) - self.x0)
        ph = self.phase0 + 2 * math.pi * dist / self.stride
        moving = (np.asarray(t) > self.t0).astype(float)
        bob = self.bob * np.abs(np.sin(ph)) * moving
        hipy = self.ground - (0.90 + bob) * s
        lean = self.lean
        vx, vy = d * math.sin(lean), -math.cos(lean)      # up the torso, image coords
        ux, uy = d * math.cos(lean), math.sin(lean)       # forward across the torso
        a, b = self.depth / 2 * s, self.length / 2 * s
        cx = hipx + d * 0.02 * s + vx * b
        cy = hipy + vy * b
        out = []
        amp_arm = self.arm_amp * (0.4 + 0.6 * moving)
        amp_leg = self.leg_amp * (0.2 + 0.8 * moving)

        def limb_pts(jx, jy, ang, length):
            # ang: from straight down, positive swings forward.
            return jx + d * np.sin(ang) * length * s, jy + np.cos(ang) * length * s

        def leg(sign, dark):
            th = amp_leg * np.sin(ph + (0 if sign > 0 else math.pi))
            kx, ky = limb_pts(hipx, hipy, th, 0.45)
            knee = th - (0.3 + 0.9 * np.maximum(0, -np.sin(ph + (0 if sign > 0 else math.pi) + 0.8)))
            fx, fy = limb_pts(kx, ky, knee, 0.45)
            toe_x, toe_y = fx + d * 0.18 * s, fy
            w = self.leg_w * s / 2
            shorts = cap(hipx, hipy, hipx + (kx - hipx) * 0.35, hipy + (ky - hipy) * 0.35, w * 1.15)
            thigh = cap(hipx, hipy, kx, ky, w)
            shin = cap(kx, ky, fx, fy, w * 0.8)
            foot = cap(fx, fy, toe_x, toe_y, w * 0.5)
            k = 0.85 if dark else 1.0
            return [thigh + (self.skin * k,), shin + (self.skin * k,), foot + (40.0 * k,), shorts + (self.shorts * k,)]

        sh_x, sh_y = cx + vx * (b - 0.05 * s), cy + vy * (b - 0.05 * s)

        def arm(sign, dark):
            al = amp_arm * np.sin(ph + (math.pi if sign > 0 else 0))
            ex, ey = limb_pts(sh_x, sh_y, al + lean * 0.5, 0.30)
            hx, hy = limb_pts(ex, ey, al + lean * 0.5 + self.elbow, 0.28)
            w = self.arm_w * s / 2
            upper = cap(sh_x, sh_y, ex, ey, w)
            fore = cap(ex, ey, hx, hy, w * 0.85)
            k = 0.85 if dark else 1.0
            upper_l = self.shirt if self.sleeve != "none" else self.skin
            fore_l = self.shirt if self.sleeve == "long" else self.skin
            return [upper + (upper_l * k,), fore + (fore_l * k,)]

        out += arm(-1, True) + leg(-1, True)
        reach = b + a
        tys, txs = box(cx - reach, cx + reach, cy - reach, cy + reach)
        p, q = local(X[:, txs], Y[tys], rows(cx, tys), rows(cy, tys), ux, uy)
        torso = cover(sd_torso(self.shape, p, q, a, b, self.rc * s))
        if self.pattern == "shaded":
            luma = self.shirt + self.shade * np.clip(p / a, -1, 1)
        elif self.pattern == "striped":
            luma = self.shirt + 30 * np.sign(np.sin(2 * math.pi * q / (self.stripe * s)))
        else:
            luma = self.shirt
        # Neck and head, forward with the lean.
        nx0, ny0 = cx + vx * (b - 0.04 * s), cy + vy * (b - 0.04 * s)
        nx1, ny1 = cx + vx * (b + 0.10 * s) + d * 0.03 * s, cy + vy * (b + 0.10 * s)
        hr = self.head_r * s
        hx, hy = nx1 + vx * hr * 0.8 + d * 0.02 * s, ny1 + vy * hr * 0.8
        neck = cap(nx0, ny0, nx1, ny1, self.neck_w * s / 2)
        head = disc(hx, hy, hr)
        hys, hxs, hcov = head
        hair_sd = np.sqrt((X[:, hxs] - rows(hx, hys) + d * 0.3 * hr) ** 2 + (Y[hys] - rows(hy, hys) + 0.3 * hr) ** 2) - hr * 0.85
        hair = (hys, hxs, cover(hair_sd) * hcov)
        out += [neck + (self.skin,), head + (self.skin,), hair + (self.hair,), (tys, txs, torso, luma)]
        out += leg(1, False) + arm(1, False)
        if os.environ.get("TS_GATE_TORSO_ONLY"):
            # --torso-only: the torso alone, to check the truth against the detector.
            out = [(tys, txs, torso, luma)]
        return out

    def extent_px(self, t_lo, t_hi):
        xs = [self.x(t_lo) * self.s, self.x(t_hi) * self.s]
        reach = 1.2 * self.s
        return min(xs) - reach, max(xs) + reach, self.ground - 2.0 * self.s, self.ground + 0.05 * self.s


def pick_luma(rng, bg, minimum):
    for _ in range(1000):
        v = rng.uniform(20, 235)
        if abs(v - bg) >= minimum:
            return v
    return 20.0 if bg > 128 else 235.0


# ---------------------------------------------------------------- the scene

def background(rng, W, H, profile, ground_y, scale):
    y, x = np.mgrid[0:H, 0:W].astype(float)
    mean = rng.uniform(60, 190)
    bg = mean + rng.uniform(-25, 25) * (x / W - 0.5) + rng.uniform(-25, 25) * (y / H - 0.5)
    for _ in range(rng.integers(2, 6)):
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        r = rng.uniform(0.05, 0.3) * W
        bg += rng.uniform(-30, 30) * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * r * r))
    # Lane line on the track.
    ly = ground_y - rng.uniform(-0.02, 0.08) * scale
    bg += 60 * np.clip(1 - np.abs(y - ly) / (0.025 * scale), 0, 1)
    if rng.random() < 0.5:  # a pole, away from the gate
        px = rng.choice([rng.uniform(0.05, 0.3), rng.uniform(0.7, 0.95)]) * W
        bg += rng.uniform(-50, 50) * np.clip(1 - np.abs(x - px) / (0.03 * scale), 0, 1) * (y < ground_y)
    if profile == "hard":
        amp = rng.uniform(5, 15)
        g = rng.normal(0, 1, (H // 8 + 2, W // 8 + 2))
        tex = np.kron(g, np.ones((8, 8)))[:H, :W]
        k = np.ones(9) / 9
        tex = np.apply_along_axis(lambda r: np.convolve(r, k, "same"), 1, tex)
        tex = np.apply_along_axis(lambda c: np.convolve(c, k, "same"), 0, tex)
        bg += amp * tex / (tex.std() + 1e-9)
    return np.clip(bg, 5, 250)


def write_y4m(path, W, H, fps, mono, frames):
    cs = "Cmono" if mono else "C420jpeg"
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{W} H{H} F{fps}:1 Ip A1:1 {cs}\n".encode())
        chroma = None if mono else bytes([128]) * (2 * ((W + 1) // 2) * ((H + 1) // 2))
        for fr in frames:
            f.write(b"FRAME\n")
            f.write(fr.tobytes())
            if chroma:
                f.write(chroma)


# ---------------------------------------------------------------- one clip

def render_clip(job, scene_only=False):
    """Renders one clip; with `scene_only`, returns its scene instead
    (time base, gate, scale, runners and truth; `fronts.py`), no frame drawn."""
    outdir, name, seed, index, profile, kind = job
    rng = np.random.default_rng([seed, index, 1 if kind == "run" else 2])
    fps = [30, 60, 120, 240][index % 4]
    size = rng.choice(["640x480", "1280x720", "320x240"], p=[0.7, 0.2, 0.1])
    W, H = map(int, size.split("x"))
    if fps == 240 and W == 1280:
        W, H = 640, 480  # keep the files a sane size
    exposure = float(rng.uniform(0.5, 8.0)) / 1000
    exposure = min(exposure, 0.9 / fps)
    readout = 0.0 if rng.random() < 0.25 else float(rng.uniform(1, 15)) / 1000
    readout = min(readout, 0.95 / fps)
    noise = rng.uniform(1, 4)
    flicker = rng.uniform(0.02, 0.08) if rng.random() < 0.3 else 0.0
    flicker_phase = rng.uniform(0, 2 * math.pi)
    gate = float(rng.uniform(0.35, 0.65))
    person = rng.uniform(0.45, 0.85)
    scale = person * H / PERSON_M  # pixels per metre
    ground_y = H - rng.uniform(0.02, 0.08) * H
    view_m = W / scale
    gate_m = gate * W / scale
    mono = bool(index % 2)
    bg = background(rng, W, H, profile, ground_y, scale)
    torso_rows = slice(int(ground_y - 1.45 * scale), int(ground_y - 0.85 * scale))
    gcol = min(W - 1, int(gate * W))
    bg_at = float(bg[torso_rows, max(0, gcol - 2):gcol + 3].mean())

    runners = []
    truth = []
    info = {}
    quiet = kind != "run"
    if not quiet:
        d = 1 if rng.random() < 0.5 else -1
        style = rng.choice(["flying", "accelerating", "standing"], p=[0.5, 0.3, 0.2])
        pair = rng.random() < 0.125
        if style == "standing":
            v0, accel = 0.0, rng.uniform(3, 6)
            vmax = rng.uniform(6, 10)
            # Stands at least a quarter of the width from the gate, in view.
            back = rng.uniform(0.25, 0.4) * view_m
            x0 = gate_m - d * back
            t_start = rng.uniform(0.8, 1.2)
        else:
            if style == "accelerating":
                v0, accel, vmax = rng.uniform(0.5, 3), rng.uniform(2, 6), 12.0
            else:
                v0, accel = rng.uniform(2, 12), 0.0
                vmax = v0
            # Enters the view after 0.6 s + reaches the gate a while later.
            t_enter = rng.uniform(0.7, 1.0)
            x0 = (-1.3 if d > 0 else view_m + 1.3)
            t_start = t_enter
        r = Runner(rng, scale, ground_y, d, t_start, x0, v0, accel, vmax, profile, bg_at)
        runners.append(r)
        if pair:
            r2 = Runner(rng, scale, ground_y, d, t_start + 0.5, x0, v0, accel, vmax, profile, bg_at)
            runners.append(r2)
        for k, rr in enumerate(runners):
            tc = rr.crossing(gate_m)
            truth.append({"crossingTimeNanos": int(round(tc * 1e9)), "direction": "ltr" if d > 0 else "rtl",
                          "runner": k, "speedMps": round(rr.speed(tc), 3)})
        last = max(t["crossingTimeNanos"] for t in truth) / 1e9
        # Until the last runner is mostly out of view (or 0.8 s after the line).
        exit_t = last
        for dt in np.arange(0, 3, 0.02):
            xs = runners[-1].x(last + dt) * scale
            if xs < -0.3 * scale or xs > W + 0.3 * scale:
                break
            exit_t = last + dt
        duration = min(max(exit_t + 0.15, last + 0.35), last + 1.0)
        r0 = runners[0]
        info = {"style": str(style), "pair": bool(pair), "speed0": round(v0, 2), "accel": round(accel, 2),
                "shape": str(r0.shape), "depthM": round(r0.depth, 3), "lean": round(r0.lean, 3),
                "shirt": round(r0.shirt, 1), "skin": round(r0.skin, 1), "shorts": round(r0.shorts, 1), "bgAtGate": round(bg_at, 1),
                "contrast": round(r0.contrast, 1), "sleeve": str(r0.sleeve), "pattern": str(r0.pattern)}
    else:
        duration = 2.0
        info = {"style": kind}
    n = int(math.ceil(duration * fps))
    if scene_only:
        return {"fps": fps, "width": W, "height": H, "exposure": exposure, "readout": readout, "gate": gate,
                "scale": scale, "ground": ground_y, "frames": n, "runners": runners, "truth": truth}

    rows = np.arange(H, dtype=float)[:, None]
    Xall = np.arange(W, dtype=float)[None, :] + 0.5
    Yall = rows + 0.5
    frames = []
    for i in range(n):
        t_top = i / fps
        t_row = t_top + rows / H * readout  # (H,1)
        # Sub-samples across the exposure: the body moves < 0.5 px between.
        vmax_px = max([rr.vmax * scale for rr in runners] + [1.0])
        ns = 1 if not runners else int(min(32, max(4, math.ceil(vmax_px * exposure / 0.75))))
        acc = np.zeros((H, W))
        for k in range(ns):
            off = ((k + 0.5) / ns - 0.5) * exposure
            t = t_row + off
            img = bg.copy()
            for rr in runners:
                x_lo, x_hi, y_lo, y_hi = rr.extent_px(t_top + off, t_top + readout + off)
                x0i, x1i = max(0, int(x_lo)), min(W, int(x_hi) + 1)
                y0i, y1i = max(0, int(y_lo)), min(H, int(y_hi) + 1)
                if x1i <= x0i or y1i <= y0i:
                    continue
                X, Y = Xall[:, x0i:x1i], Yall[y0i:y1i]
                sub = img[y0i:y1i, x0i:x1i]
                for ys, xs, cov, luma in rr.parts(t[y0i:y1i], X, Y):
                    part = sub[ys, xs]
                    part += (luma - part) * cov
            if quiet:
                img = quiet_scene(kind, img, t, t_top, W, H, scale, ground_y, gate, bg, rng_seed=(seed, index))
            acc += img
        img = acc / ns
        if flicker:
            img = img * (1 + flicker * np.sin(2 * math.pi * 100 * t_row + flicker_phase))
        img = img + rng.normal(0, noise, (H, W))
        frames.append(np.clip(np.rint(img), 0, 255).astype(np.uint8))
    write_y4m(os.path.join(outdir, name + ".y4m"), W, H, fps, mono, frames)
    meta = {"name": name, "profile": profile, "fps": fps, "width": W, "height": H, "frames": n,
            "exposure_ms": round(exposure * 1000, 4), "readout_ms": round(readout * 1000, 4), "gate": round(gate, 6),
            "noise": round(noise, 2), "flicker": round(flicker, 3), "personFraction": round(person, 3),
            "pxPerM": round(scale, 2), "mono": mono, "crossings": truth}
    meta.update(info)
    with open(os.path.join(outdir, name + ".json"), "w") as f:
        json.dump(meta, f)
    return name


def quiet_scene(kind, img, t, t_top, W, H, scale, ground_y, gate, bg, rng_seed):
    """Must-not-trigger scenes, drawn over the background."""
    Y = np.arange(H, dtype=float)[:, None] + 0.5
    X = np.arange(W, dtype=float)[None, :] + 0.5
    if kind == "ball":
        r = 0.11 * scale
        x = (-r + (W + 2 * r) * (t - 0.7) / 1.0)  # crosses the whole view in 1 s
        cov = cover(np.sqrt((X - x) ** 2 + (Y - (ground_y - r)) ** 2) - r)
        return img * (1 - cov) + 230 * cov
    if kind == "bird":
        x = W + 20 - (t - 0.8) * 15 * scale
        cov = cover(np.sqrt(((X - x) / 2.0) ** 2 + (Y - 0.12 * H) ** 2) - 0.075 * scale)
        return img * (1 - cov) + 30 * cov
    if kind == "cloud":
        k = 1 - 0.25 * np.clip((t - 0.9) / 0.2, 0, 1)
        return img * k
    if kind == "bump":
        shift = 4 if 1.0 <= t_top < 1.02 or t_top >= 1.4 else 0
        return np.roll(img, shift, axis=1)
    if kind == "far":
        s = 0.15 * H / PERSON_M
        gy = 0.6 * H
        rng = np.random.default_rng(list(rng_seed))
        far = Runner(rng, s, gy, 1, 0.7, -1.0, 6.0, 0.0, 6.0, "plain", float(bg[int(gy - 0.9 * s), W // 2]))
        x_lo, x_hi, y_lo, y_hi = far.extent_px(t_top, t_top + 0.02)
        x0i, x1i = max(0, int(x_lo)), min(W, int(x_hi) + 1)
        y0i, y1i = max(0, int(y_lo)), min(H, int(y_hi) + 1)
        if x1i > x0i and y1i > y0i:
            img = img.copy()
            sub = img[y0i:y1i, x0i:x1i]
            for ys, xs, cov, luma in far.parts(t[y0i:y1i], X[:, x0i:x1i], Y[y0i:y1i]):
                part = sub[ys, xs]
                part += (luma - part) * cov
        return img
    return img


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--count", type=int, default=48)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", choices=["plain", "hard"], default="plain")
    ap.add_argument("--quiet-count", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", type=int, default=None, help="render clip index N only")
    ap.add_argument("--pick", default=None,
                    help="SEED:INDEX,...: these runner clips of other seeds (named clip-sSEED-INDEX)")
    ap.add_argument("--torso-only", action="store_true", help="the torso alone (checks the truth)")
    a = ap.parse_args()
    if a.torso_only:
        os.environ["TS_GATE_TORSO_ONLY"] = "1"  # the pool's workers inherit it
    os.makedirs(a.outdir, exist_ok=True)
    jobs = [(a.outdir, f"clip-{i:03d}", a.seed, i, a.profile, "run") for i in range(a.count)]
    kinds = ["ball", "bird", "cloud", "bump", "far"]
    jobs += [(a.outdir, f"quiet-{i:03d}-{kinds[i % 5]}", a.seed, i, a.profile, kinds[i % 5])
             for i in range(a.quiet_count)]
    if a.only is not None:
        jobs = [j for j in jobs if j[3] == a.only and j[5] == "run"]
    if a.pick:
        picks = [tuple(int(v) for v in p.split(":")) for p in a.pick.split(",")]
        jobs = [(a.outdir, f"clip-s{seed}-{index:03d}", seed, index, a.profile, "run") for seed, index in picks]
    with Pool(a.jobs) as pool:
        for name in pool.imap_unordered(render_clip, jobs):
            print("wrote", name, flush=True)


if __name__ == "__main__":
    main()
