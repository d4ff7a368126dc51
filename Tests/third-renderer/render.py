#!/usr/bin/env python3
"""The third renderer: clips of a runner built from published anthropometry
and sprint kinematics (body.py), for ts-gate's accuracy, written apart from
GateSim and from Tests/second-renderer (no code or body model shared; only
the Y4M layout and the truth JSON's fields, so that
Tests/second-renderer/evaluate.py scores these clips unchanged).

Time base, the same convention as the second renderer's README ("The time
base"):
- frame i is stamped t_i = i / fps, the mid-exposure instant of its TOP row;
- row r is exposed around t_i + (r / H) x readout and integrates
  [t_row - E/2, t_row + E/2] (sub-samples at most half a pixel of the
  torso's motion apart);
- pixel column k covers x in [k, k + 1); the gate line is at x = gate x W;
- the truth is the instant the TORSO's foremost point (not an arm, the
  head or a leg) reaches x = gate x W, by bisection on the drawn torso's
  outline; the rolling shutter changes what rows show, not the truth.

  render.py OUTDIR [--count N] [--seed S] [--quiet-count M] [--jobs K] [--torso-only] [--surge] [--only I]

The sweep (clip index i): the near arm's gait phase at the crossing is
(i mod 8) / 8 of a cycle, the frame rate [30, 60, 120, 240][(i div 8) mod 4],
the speed band (i div 32) mod 3: 3-5.5, 6-9, 9.5-11.5 m/s; direction, body
(woman 1.62 m, man 1.75 m, man 1.90 m, chest depth +-8%), acceleration,
clothing, exposure, readout and camera from the seed. Quiet scenes
(quiet-NNN-KIND) must not trigger. Host-only dev tool (numpy).
"""
import argparse
import json
import math
import os
from multiprocessing import Pool

import numpy as np

from body import Runner, accel_at

BODIES = [("female", 1.62), ("male", 1.75), ("male", 1.90)]
BANDS = [(3.0, 5.5), (6.0, 9.0), (9.5, 11.5)]
FPS = [30, 60, 120, 240]


# ------------------------------------------------------------------ drawing
# Every shape is a signed distance (pixels, negative inside) evaluated on the
# pixel centres of its own box; coverage = clamp(0.5 - distance), the area of
# the pixel on the inside of a straight edge.

def coverage(sd):
    return np.clip(0.5 - sd, 0.0, 1.0)


def cone_sd(X, Y, ax, ay, bx, by, ra, rb):
    """A limb segment: the points within ra..rb (linearly along it) of AB."""
    ex, ey = bx - ax, by - ay
    ll = np.maximum(ex * ex + ey * ey, 1e-9)
    h = np.clip(((X - ax) * ex + (Y - ay) * ey) / ll, 0.0, 1.0)
    return np.hypot(X - ax - ex * h, Y - ay - ey * h) - (ra + (rb - ra) * h)


class Canvas:
    """One exposure sub-sample of a frame region: rows y0..y1 (their times
    differ), columns x0..x1, painted back to front."""

    def __init__(self, img, y0, y1, x0, x1):
        self.img, self.y0, self.y1, self.x0, self.x1 = img, y0, y1, x0, x1

    def box(self, xs, ys, pad):
        """Bounding box of the per-row point arrays xs, ys (+pad), clipped."""
        lo_x = min(float(np.min(v)) for v in xs) - pad - 1
        hi_x = max(float(np.max(v)) for v in xs) + pad + 2
        lo_y = min(float(np.min(v)) for v in ys) - pad - 1
        hi_y = max(float(np.max(v)) for v in ys) + pad + 2
        x0, x1 = max(self.x0, int(lo_x)), min(self.x1, int(math.ceil(hi_x)))
        y0, y1 = max(self.y0, int(lo_y)), min(self.y1, int(math.ceil(hi_y)))
        return (y0, y1, x0, x1) if x1 > x0 and y1 > y0 else None

    def paint(self, b, cov, luma):
        y0, y1, x0, x1 = b
        part = self.img[y0:y1, x0:x1]
        part += (luma - part) * cov

    def rows(self, v, b):
        """The rows of box b of a per-row (n, 1) array over y0..y1."""
        if isinstance(v, np.ndarray) and v.ndim == 2:
            return v[b[0] - self.y0:b[1] - self.y0]
        return v

    def grid(self, b):
        y0, y1, x0, x1 = b
        return np.arange(x0, x1, dtype=float)[None, :] + 0.5, np.arange(y0, y1, dtype=float)[:, None] + 0.5

    def limb(self, a, bpt, ra, rb, luma):
        bb = self.box([a[0], bpt[0]], [a[1], bpt[1]], max(ra, rb))
        if bb is None:
            return
        X, Y = self.grid(bb)
        r = lambda v: self.rows(v, bb)
        self.paint(bb, coverage(cone_sd(X, Y, r(a[0]), r(a[1]), r(bpt[0]), r(bpt[1]), ra, rb)), luma)

    def ellipse(self, c, rx, ry, luma):
        bb = self.box([c[0]], [c[1]], max(rx, ry))
        if bb is None:
            return
        X, Y = self.grid(bb)
        dx, dy = (X - self.rows(c[0], bb)) / rx, (Y - self.rows(c[1], bb)) / ry
        k0 = np.sqrt(dx * dx + dy * dy)
        k1 = np.sqrt((dx / rx) ** 2 + (dy / ry) ** 2)
        self.paint(bb, coverage(k0 * (k0 - 1) / np.maximum(k1, 1e-9)), luma)


class Camera:
    """World (x metres along the run, u metres up) to pixels."""

    def __init__(self, scale, ground_y):
        self.s, self.g = scale, ground_y

    def px(self, x, u):
        return x * self.s, self.g - u * self.s


def draw_runner(cv, cam, r, t, look, torso_only=False):
    """Paints runner r at per-row times t ((n,1) over the canvas rows)."""
    P = r.pose(t)
    s, d = cam.s, r.d
    hip_x = r.x(t)

    def pt(fu):
        return cam.px(hip_x + d * fu[0], fu[1])

    skin, shirt, shorts, shoe = look["skin"], look["shirt"], look["shorts"], look["shoe"]
    sleeve = look["sleeve"]
    ra = r.rad

    def arm(side, k):
        sh = pt(P["shoulder"])
        el, wr, ha = (pt(v) for v in P[side + "_arm"])
        ua = (ra["upper_arm"][0] * s, ra["upper_arm"][1] * s)
        fa = (ra["forearm"][0] * s, ra["forearm"][1] * s)
        upper_l = shirt if sleeve in ("tee", "long") else skin
        fore_l = shirt if sleeve == "long" else skin
        if sleeve == "tee":  # the sleeve ends half way down the upper arm
            mid = (0.5 * (sh[0] + el[0]), 0.5 * (sh[1] + el[1]))
            cv.limb(mid, el, 0.5 * (ua[0] + ua[1]), ua[1], skin * k)
            cv.limb(sh, mid, ua[0], 0.5 * (ua[0] + ua[1]) + 0.5, shirt * k)
        else:
            cv.limb(sh, el, ua[0], ua[1], upper_l * k)
        cv.limb(el, wr, fa[0], fa[1], fore_l * k)
        cv.limb(wr, ha, ra["hand"] * s, ra["hand"] * s * 0.9, skin * k)

    def leg(side, k):
        hp = pt(P["hip"])
        kn, an, he, to = (pt(v) for v in P[side + "_leg"])
        th = (ra["thigh"][0] * s, ra["thigh"][1] * s)
        sk = (ra["shank"][0] * s, ra["shank"][1] * s)
        cv.limb(hp, kn, th[0], th[1], skin * k)
        cv.limb(an, kn, sk[1], sk[0], skin * k)
        cv.limb(he, to, ra["foot"] * s * 0.9, ra["foot"] * s * 0.5, shoe * k)
        # Shorts: the top 30% of the thigh.
        m = (hp[0] + 0.3 * (kn[0] - hp[0]), hp[1] + 0.3 * (kn[1] - hp[1]))
        cv.limb(hp, m, th[0] * 1.08, th[0] * 1.05, shorts * k)

    def torso():
        lam = P["lean"]
        hx, hy = pt(P["hip"])
        reach = (r.trunk * 1.15 + r.depth) * s
        bb = cv.box([hx - reach, hx + reach], [hy - reach, hy + 0.15 * reach], 0)
        if bb is None:
            return
        X, Y = cv.grid(bb)
        rr = lambda v: cv.rows(v, bb)
        ex, eu = (X - rr(hx)) * d / s, (rr(hy) - Y) / s  # metres: forwards, up
        sl, cl = np.sin(rr(lam)), np.cos(rr(lam))
        p = ex * cl - eu * sl
        q = ex * sl + eu * cl
        Q, F, B = r.prof_q, r.prof_f, r.prof_b
        front, back = np.interp(q, Q, F), np.interp(q, Q, B)
        # Distance to the outline: the p-gap divided by the outline's slope
        # factor (exact on straight stretches, where coverage needs it).
        e = 2e-3
        sf = np.sqrt(1 + ((np.interp(q + e, Q, F) - np.interp(q - e, Q, F)) / (2 * e)) ** 2)
        sb = np.sqrt(1 + ((np.interp(q + e, Q, B) - np.interp(q - e, Q, B)) / (2 * e)) ** 2)
        sd = np.maximum.reduce([(p - front) / sf, (back - p) / sb, Q[0] - q, q - Q[-1]]) * s
        cov = coverage(sd)
        luma = np.where(q > 0.12 * r.trunk, shirt, shorts) if not torso_only else shirt
        cv.paint(bb, cov, luma)

    if torso_only:
        torso()
        return
    arm("far", 0.8)
    leg("far", 0.8)
    torso()
    nb, nt = pt(P["neck"][0]), pt(P["neck"][1])
    cv.limb(nb, nt, 0.055 * r.H / 1.75 * s, 0.05 * r.H / 1.75 * s, skin)
    hd = pt(P["head"])
    cv.ellipse(hd, 0.0555 * r.H * s, 0.065 * r.H * s, skin)
    cv.ellipse((hd[0] - d * 0.01 * s, hd[1] - 0.03 * s), 0.05 * r.H * s, 0.045 * r.H * s, look["hair"])
    leg("near", 1.0)
    arm("near", 1.0)


# ------------------------------------------------------------------ the scene

def background(rng, W, H, ground_y, scale):
    """A side view across a track: a wall or stand behind, the track in
    front of the runner's feet, lane lines, soft light."""
    y = np.arange(H, dtype=float)[:, None]
    x = np.arange(W, dtype=float)[None, :]
    wall = rng.uniform(50, 200)
    img = np.full((H, W), wall) + rng.uniform(-20, 20) * (x / W - 0.5) + rng.uniform(-15, 15) * (y / H - 0.5)
    for _ in range(3):  # low, wide swells of light
        kx, ky = rng.uniform(0.5, 2.5) * 2 * math.pi / W, rng.uniform(0.5, 2) * 2 * math.pi / H
        img += rng.uniform(3, 10) * np.cos(kx * x + rng.uniform(0, 6.3)) * np.cos(ky * y + rng.uniform(0, 6.3))
    horizon = ground_y - rng.uniform(0.25, 0.45) * scale  # where the track meets the wall
    track = rng.uniform(60, 130)
    img = np.where(y > horizon, track + 0.3 * (img - wall), img)
    for frac in (0.35, 0.8):  # lane lines, seen edge-on
        ly = horizon + frac * (H - horizon)
        img += 90 * np.clip(1 - np.abs(y - ly) / (0.012 * scale + 0.5), 0, 1)
    img += rng.normal(0, rng.uniform(0.5, 3), (H, W))  # fixed texture
    return np.clip(img, 8, 247)


def pick(rng, far_from, gap, lo=25, hi=230):
    for _ in range(200):
        v = rng.uniform(lo, hi)
        if all(abs(v - f) >= gap for f in far_from):
            return v
    return 20.0 if far_from[0] > 128 else 235.0


def write_y4m(path, W, H, fps, mono, frames):
    with open(path + ".part", "wb") as f:
        f.write(f"YUV4MPEG2 W{W} H{H} F{fps}:1 Ip A1:1 {'Cmono' if mono else 'C420jpeg'}\n".encode())
        chroma = b"" if mono else bytes([128]) * (2 * ((W + 1) // 2) * ((H + 1) // 2))
        for fr in frames:
            f.write(b"FRAME\n" + fr.tobytes() + chroma)
    os.replace(path + ".part", path)


def clip_plan(seed, i, kind):
    """Everything random about a clip, from (seed, i)."""
    rng = np.random.default_rng([seed, i, 3 if kind == "run" else 4])
    W, H = 640, 480
    plan = dict(W=W, H=H, fps=FPS[(i // 8) % 4], rng=rng)
    fps = plan["fps"]
    plan["exposure"] = min(rng.uniform(0.3, 4.0), 800 / fps) / 1000
    plan["readout"] = 0.0 if rng.random() < 1 / 3 else min(rng.uniform(3, 20), 900 / fps) / 1000
    plan["noise"] = rng.uniform(1.2, 3.0)
    plan["gate"] = rng.uniform(0.38, 0.62)
    plan["person"] = rng.uniform(0.55, 0.80)  # stature as a fraction of the frame height
    plan["ground"] = H * (1 - rng.uniform(0.03, 0.08))
    return plan


def render_clip(job):
    outdir, name, seed, i, kind, opts = job
    plan = clip_plan(seed, i, kind)
    rng = plan["rng"]
    W, H, fps = plan["W"], plan["H"], plan["fps"]
    sex, stature = BODIES[int(rng.integers(0, 3))]
    scale = plan["person"] * H / stature
    cam = Camera(scale, plan["ground"])
    bg = background(rng, W, H, plan["ground"], scale)
    gate_px = plan["gate"] * W
    gate_m = gate_px / scale
    view_m = W / scale
    meta = {}
    runners, truth, looks = [], [], []
    if kind == "run":
        phase = (i % 8) / 8
        band = BANDS[(i // 32) % 3]
        v_c = float(rng.uniform(*band))
        d = 1 if ((i % 8) + i // 8 + int(rng.integers(0, 2))) % 2 == 0 else -1
        k_acc = float(rng.choice([0.0, 0.0, 0.5, 1.0])) if v_c < 9.5 else 0.0
        a = accel_at(v_c, k_acc)
        depth_k = float(np.clip(rng.normal(1.0, 0.08), 0.85, 1.15))
        # Enters the view (hip 1.2 m outside it) after 0.7-0.9 s.
        t_enter = rng.uniform(0.7, 0.9)
        dist_m = (gate_m + 1.2) if d > 0 else (view_m - gate_m + 1.2)
        v_mean = max(0.8, v_c - 0.5 * a * dist_m / max(v_c, 0.8))
        tc = t_enter + dist_m / v_mean
        post = min(0.6, max(0.35, ((view_m - gate_m if d > 0 else gate_m) + 1.2) / max(v_c, 1.0)))
        t_end = tc + post
        r = Runner(sex, stature, depth_k, d, v_c, a, tc, phase, gate_m, t_end + 0.1, surge=opts["surge"])
        tcross = r.crossing(gate_m, tc - 0.3, tc + 0.3)
        runners.append(r)
        truth.append({"crossingTimeNanos": int(round(tcross * 1e9)), "direction": "ltr" if d > 0 else "rtl",
                      "speedMps": round(float(r.speed(tcross)), 3), "armPhase": round(float(r.phase(tcross)) % 1.0, 4)})
        bg_at = float(bg[int(plan["ground"] - 0.85 * stature * scale):int(plan["ground"] - 0.55 * stature * scale),
                         int(gate_px) - 3:int(gate_px) + 4].mean())
        skin = float(rng.uniform(45, 215))
        shirt = pick(rng, [bg_at], 30)
        sleeve = str(rng.choice(["singlet", "tee", "long"], p=[0.5, 0.3, 0.2]))
        look = dict(skin=pick(rng, [bg_at], 20, 45, 215) if abs(skin - bg_at) < 20 else skin, shirt=shirt,
                    shorts=pick(rng, [bg_at], 15), shoe=rng.uniform(20, 235), hair=rng.uniform(15, 90), sleeve=sleeve)
        looks = [look]
        n = int(math.ceil(t_end * fps))
        meta = {"speed0": round(v_c, 2), "accel": round(a, 2), "sex": sex, "stature": stature,
                "depthM": round(r.depth, 3), "lean": round(float(r.lean(np.array(tcross))), 3),
                "armPhase": truth[0]["armPhase"], "contrast": round(shirt - bg_at, 1),
                "skinContrast": round(look["skin"] - bg_at, 1), "sleeve": sleeve,
                "torsoOnly": bool(opts["torso_only"]), "surge": bool(opts["surge"])}
    else:
        n = int(2.0 * fps)
        meta = {"style": kind}
    torso_only = opts["torso_only"]
    rows = np.arange(H, dtype=float)[:, None]
    frames = []
    noise_rng = np.random.default_rng([seed, i, 5])
    for fi in range(n):
        t_top = fi / fps
        t_row = t_top + rows / H * plan["readout"]
        if runners:
            v_px = max(float(r.speed(np.array(t_top))) for r in runners) * scale
            ns = int(min(32, max(2, math.ceil(v_px * plan["exposure"] / 0.5))))
        else:
            ns = 1 if kind != "far" else 4
        acc = np.zeros((H, W))
        for k in range(ns):
            t = t_row + ((k + 0.5) / ns - 0.5) * plan["exposure"]
            img = bg.copy()
            for r, look in zip(runners, looks):
                xs = r.x(np.array([t[0, 0], t[-1, 0]])) * scale
                x0 = max(0, int(min(xs) - 1.3 * stature * scale * 0.75))
                x1 = min(W, int(max(xs) + 1.3 * stature * scale * 0.75))
                if x1 <= x0:
                    continue
                y0 = max(0, int(plan["ground"] - 1.15 * stature * scale))
                cv = Canvas(img, y0, H, x0, x1)
                draw_runner(cv, cam, r, t[y0:H], look, torso_only)
            if kind != "run":
                img = quiet(kind, img, t, t_top, W, H, cam, bg, seed, i)
            acc += img
        img = acc / ns
        img = img + noise_rng.normal(0, 1, (H, W)) * np.sqrt(plan["noise"] ** 2 + 0.015 * img)
        frames.append(np.clip(np.rint(img), 0, 255).astype(np.uint8))
    write_y4m(os.path.join(outdir, name + ".y4m"), W, H, fps, bool(i % 2), frames)
    meta.update({"name": name, "renderer": "third", "fps": fps, "width": W, "height": H, "frames": n,
                 "exposure_ms": round(plan["exposure"] * 1000, 4), "readout_ms": round(plan["readout"] * 1000, 4),
                 "gate": round(plan["gate"], 6), "pxPerM": round(scale, 2), "noise": round(plan["noise"], 2),
                 "crossings": truth})
    with open(os.path.join(outdir, name + ".json"), "w") as f:
        json.dump(meta, f)
    return name


def quiet(kind, img, t, t_top, W, H, cam, bg, seed, i):
    """Scenes with nothing to time."""
    X = np.arange(W, dtype=float)[None, :] + 0.5
    Y = np.arange(H, dtype=float)[:, None] + 0.5
    s = cam.s
    if kind == "ball":  # a ball rolled across at 6 m/s
        rad = 0.11 * s
        x = -rad + 6 * s * (t - 0.6)
        cov = coverage(np.hypot(X - x, Y - (cam.g - rad)) - rad)
        return img + (225 - img) * cov
    if kind == "light":  # the sun out of a cloud over 0.3 s
        return img * (1 + 0.3 * np.clip((t - 0.8) / 0.3, 0, 1))
    if kind == "bump":  # the tripod knocked: the view shifts 3 px and back
        return np.roll(img, 3 if 0.9 <= t_top < 1.1 else 0, axis=1)
    if kind == "far":  # a runner on a far lane, a fifth of the size, high in the frame
        far_cam = Camera(0.2 * s, cam.g - 0.45 * H)
        r = Runner("male", 1.75, 1.0, 1, 7.0, 0.0, 1.0, 0.3, 0.5 * W / far_cam.s, 2.1)
        look = dict(skin=pick(np.random.default_rng([seed, i]), [float(bg[int(far_cam.g) - 20, W // 2])], 30),
                    shirt=200.0, shorts=40.0, shoe=100.0, hair=40.0, sleeve="singlet")
        cv = Canvas(img, 0, H, 0, W)
        draw_runner(cv, far_cam, r, t, look)
        return img
    return img


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--count", type=int, default=96)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quiet-count", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None, help="comma-separated clip indices")
    ap.add_argument("--torso-only", action="store_true", help="the torso alone: checks the truth and the time base")
    ap.add_argument("--surge", action="store_true", help="the speed dips and recovers each step (body.SURGE_MPS)")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    opts = {"torso_only": a.torso_only, "surge": a.surge}
    jobs = [(a.outdir, f"clip-{i:03d}", a.seed, i, "run", opts) for i in range(a.count)]
    if a.only is not None:
        keep = {int(v) for v in a.only.split(",")}
        jobs = [j for j in jobs if j[3] in keep]
    kinds = ["ball", "light", "bump", "far"]
    jobs += [(a.outdir, f"quiet-{k:03d}-{kinds[k % 4]}", a.seed, 1000 + k, kinds[k % 4], opts)
             for k in range(a.quiet_count)]
    # A clip whose JSON exists is done (its Y4M is written first, by rename).
    jobs = [j for j in jobs if not os.path.exists(os.path.join(a.outdir, j[1] + ".json"))]
    # Slowest first, so the pool's two workers end together.
    jobs.sort(key=lambda j: -FPS[(j[3] // 8) % 4] if j[4] == "run" else 0)
    with Pool(a.jobs) as pool:
        for name in pool.imap_unordered(render_clip, jobs):
            print("wrote", name, flush=True)


if __name__ == "__main__":
    main()
