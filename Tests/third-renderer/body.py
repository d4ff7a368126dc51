"""The third renderer's runner: anthropometry and sprint kinematics from
published tables (README.md, "The body model", says where each number comes
from; the comments here name the source beside the number).

Coordinates: world metres, x along the run (the runner faces d = +1 or -1),
u up from the ground. A point of the trunk is given in the trunk's own frame:
p across it (forwards positive), q along it (up from the hip joint centre).
Every function of time takes numpy arrays: each image row has its own
exposure instant, so its own pose. Host-only dev tool, numpy only; shares no
code or body model with GateSim or Tests/second-renderer.
"""
import math

import numpy as np

DEG = math.pi / 180
G = 9.81

# ------------------------------------------------------------------ anthropometry
# Segment lengths, joint centre to joint centre, and the mean stature of the
# sample they came from: de Leva (1996), "Adjustments to Zatsiorsky-Seluyanov's
# segment inertia parameters", J. Biomech. 29:1223-1230, Table 1 (mm).
DE_LEVA = {
    "male": dict(stature=1741.0, upper_arm=281.7, forearm=268.9, hand=86.2, thigh=422.2, shank=434.0, foot=258.1),
    "female": dict(stature=1735.0, upper_arm=275.1, forearm=264.3, hand=78.0, thigh=368.5, shank=432.3, foot=228.3),
}
# Heights as fractions of stature H: Winter (2009), "Biomechanics and Motor
# Control of Human Movement", 4th ed., Fig. 4.1 (after Drillis & Contini 1966).
ACROMION_H = 0.818   # shoulder (acromion) height
HIP_H = 0.530        # greater trochanter, taken as the hip joint's height standing
CHIN_H = 0.870       # chin; the head is 0.130 H from chin to vertex
ANKLE_H = 0.039      # ankle joint height
HEAD_LENGTH = 0.111  # glabella to back of the head, fraction of H (ANSUR 1988 mean head length ~195 mm / 1756 mm)
# The shoulder joint centre lies about 4 cm below the acromion at 1.74 m
# (de Leva 1996, the SJC he references the upper arm to; scaled with H).
SJC_BELOW_ACROMION = 0.040 / 1.741
# Chest depth (sagittal, at the nipples) as a fraction of stature: ANSUR 1988
# (Gordon et al. 1989, US Army) means, men about 242 mm at 1756 mm, women
# about 236 mm at 1629 mm. A runner's own depth varies about +-8% (one SD).
CHEST_DEPTH = {"male": 0.138, "female": 0.145}
# Side-view thickness of the limbs: circumference / pi of ANSUR 1988 means
# (metres, for a 1.75 m man; scaled with H, x0.92 for a woman): upper arm at
# the deltoid 0.33 m -> 0.105, at the elbow 0.26 -> 0.083; forearm 0.29 ->
# 0.092, wrist 0.175 -> 0.056; thigh 0.58 -> 0.185, knee 0.38 -> 0.12; calf
# 0.38 -> 0.12, ankle 0.225 -> 0.072.
LIMB_D = dict(upper_arm=(0.105, 0.083), forearm=(0.092, 0.056), hand=0.060,
              thigh=(0.185, 0.120), shank=(0.120, 0.072), foot=0.070)

# The trunk's side profile, hip joint centre to the top of the shoulders:
# (q as a fraction of the trunk length L = (0.818 - 0.530) H; front and back
# as fractions of the chest depth D, from the line hip joint - shoulder joint).
# The depths in it: chest depth 1.01 D at the nipples (q 0.70), waist
# (lumbar lordosis) 0.77 D, buttocks 0.86 D; the ratios are those of ANSUR
# 1988's chest, waist and buttock depths (about 242, 200-215 and 225-245 mm
# for men), a lean athlete's waist taken at the low end. The chest is carried
# ahead of the trunk line and the scapulae behind it about equally.
PROFILE_KNOTS = [  # q/L, front/D, back/D
    (-0.10, 0.28, -0.42),
    (-0.02, 0.36, -0.50),
    (0.10, 0.40, -0.46),
    (0.25, 0.41, -0.36),
    (0.40, 0.44, -0.40),
    (0.55, 0.50, -0.46),
    (0.70, 0.53, -0.48),
    (0.85, 0.48, -0.46),
    (0.95, 0.36, -0.38),
    (1.04, 0.16, -0.18),
    (1.08, 0.00, -0.05),
]
WAIST_Q = 0.12  # where the singlet meets the shorts (fraction of L)


def chaikin(points, rounds=3):
    """Corner cutting: a smooth polyline through the knots' hull (keeps ends)."""
    pts = np.asarray(points, float)
    for _ in range(rounds):
        a, b = pts[:-1], pts[1:]
        mid = np.empty((2 * len(a), pts.shape[1]))
        mid[0::2] = 0.75 * a + 0.25 * b
        mid[1::2] = 0.25 * a + 0.75 * b
        pts = np.vstack([pts[:1], mid, pts[-1:]])
    return pts


# ------------------------------------------------------------------ kinematics
# Per speed (m/s): the step rate (steps a second; a gait cycle, a "stride" of
# biomechanics, is two steps) and the joint ranges. Between knots, linear.
SPEEDS = np.array([3.0, 5.0, 7.0, 9.0, 10.0, 11.5])
# Step rate: Dorn, Schache & Pandy (2012), J. Exp. Biol. 215:1944-1956, about
# 2.8 Hz at 3.5 m/s to 4.1 Hz at 9 m/s; Weyand et al. (2000), J. Appl.
# Physiol. 89:1991-1999, rate rising with speed to ~4-4.5 Hz at top speed;
# Mann & Herman (1985), Int. J. Sport Biomech. 1:151-162, elite 200 m
# sprinters 4.5-5 steps/s at 10-11 m/s (the "4.5-5 a second").
STEP_HZ = np.array([2.8, 3.0, 3.35, 4.1, 4.5, 4.75])
# Shoulder (upper arm against the trunk's axis, forwards positive) peaks and
# elbow included angle at the front and back of the swing: Hinrichs (1987),
# J. Appl. Biomech. 3:242-263 (3.6-5.4 m/s: ~60-70 deg of shoulder range,
# mostly behind the trunk, elbow ~80-100 deg), Mann & Herman (1985) and
# Mann (2011), "The Mechanics of Sprinting and Hurdling" (at top speed the
# upper arm reaches ~60-65 deg ahead and ~60 deg behind, the elbow closes to
# ~70 deg in front, the hand at chin height, and opens to ~120-125 deg behind).
SHOULDER_FWD = np.array([25, 35, 45, 55, 60, 65]) * DEG
SHOULDER_BACK = np.array([-40, -45, -50, -55, -60, -60]) * DEG
ELBOW_FRONT = np.array([75, 75, 75, 72, 70, 70]) * DEG
ELBOW_BACK = np.array([95, 100, 110, 120, 125, 125]) * DEG
# Thigh angle from vertical (knee lift in front, extension at toe-off) and
# knee flexion (0 = straight): Novacheck (1998), Gait & Posture 7:77-95
# (running to sprinting: hip range widening, peak swing knee flexion ~90 deg
# at 3.2 m/s to ~105-130 deg sprinting), Mann & Herman (1985).
THIGH_FWD = np.array([30, 40, 50, 60, 65, 70]) * DEG
THIGH_BACK = np.array([-20, -22, -25, -25, -25, -25]) * DEG
KNEE_SWING = np.array([90, 100, 110, 120, 125, 130]) * DEG
KNEE_STANCE = np.array([20, 20, 25, 25, 25, 25]) * DEG
# Trunk forward lean at a steady speed: ~5 deg jogging to ~9-10 deg at top
# speed (Mann & Herman 1985; Novacheck 1998: the trunk leans further forward
# as speed rises). Acceleration leans it further: the whole body leans so the
# ground force passes through the centre of mass, tan(lean) = a / g (Kugler &
# Janshen 2010, J. Biomech. 43:343-348); the trunk is taken to follow.
LEAN_STEADY = np.array([5.5, 6.5, 7.5, 8.5, 9.0, 9.75]) * DEG
LEAN_WOBBLE = 2.0 * DEG  # trunk pitch swings ~+-2 deg each step (Novacheck 1998)
# Vertical oscillation of the pelvis, half peak-to-peak (m): ~3.5 cm jogging to
# ~2 cm sprinting (Cavagna et al. 1988, J. Physiol. 399:81-92: the vertical
# displacement per step falls as speed rises).
BOB = np.array([0.035, 0.030, 0.025, 0.020, 0.020, 0.020])
# Acceleration at speed v for a sprinter of top speed VMAX: the mono-
# exponential sprint v(t) = vmax (1 - exp(-t/tau)) (Furusawa, Hill & Parkinson
# 1927; tau ~1.2 s for trained sprinters, e.g. Chelly & Denis 2001) gives
# a = (vmax - v) / tau.
VMAX, TAU = 11.8, 1.2
# Horizontal speed dips in each braking phase and is regained in propulsion:
# about +-0.15 m/s at sprint speeds (Mero, Komi & Gregor 1992, Sports Med.
# 13:376-392). Off unless --surge: it is real, but it mixes the body's own
# wobble into the question of where its front is.
SURGE_MPS = 0.15


def by_speed(table, v):
    return np.interp(v, SPEEDS, table)


def accel_at(v, k):
    """k of a sprinter's full acceleration at speed v (k = 0: a flying run)."""
    return k * max(0.0, VMAX - v) / TAU


class Runner:
    """A runner whose speed at the crossing instant `tc` is `v_c`, changing at
    `a` m/s^2, facing `d`, with the near side's gait phase `phase_c` (0: the
    near arm at its most forward) at `tc`. x(t), phase(t) and the lean come
    from tables of 0.1 ms steps over [0, t_end], so the truth (bisection on
    the drawn torso) and the frames read the same motion."""

    def __init__(self, sex, stature, depth_k, d, v_c, a, tc, phase_c, gate_m, t_end, surge=False):
        self.sex, self.H, self.d = sex, stature, d
        L = DE_LEVA[sex]
        k = stature / (L["stature"] / 1000.0)
        self.upper_arm = L["upper_arm"] / 1000 * k
        self.forearm = L["forearm"] / 1000 * k
        self.hand = L["hand"] / 1000 * k
        self.thigh = L["thigh"] / 1000 * k
        self.shank = L["shank"] / 1000 * k
        self.foot = L["foot"] / 1000 * k
        w = stature / 1.75 * (0.92 if sex == "female" else 1.0)
        self.rad = {n: (tuple(x * w / 2 for x in v) if isinstance(v, tuple) else v * w / 2) for n, v in LIMB_D.items()}
        self.trunk = (ACROMION_H - HIP_H) * stature
        self.depth = CHEST_DEPTH[sex] * stature * depth_k
        prof = chaikin([(q * self.trunk, f * self.depth, b * self.depth) for q, f, b in PROFILE_KNOTS])
        self.prof_q, self.prof_f, self.prof_b = prof[:, 0], prof[:, 1], prof[:, 2]
        self.sjc_q = self.trunk - SJC_BELOW_ACROMION * stature
        self.sjc_p = -0.05 * self.depth
        self.hip_u0 = (self.thigh + self.shank + ANKLE_H * stature) * 0.97  # knees a little bent
        self.a = a
        self.lean_accel = math.atan2(a, G)
        # Tables: speed, position of the hip joint, gait phase.
        dt = 1e-4
        self.tt = np.arange(0.0, t_end + 0.05, dt)
        v = np.clip(v_c + a * (self.tt - tc), 0.8, None)
        f_cycle = by_speed(STEP_HZ, v) / 2
        ph = np.concatenate([[0.0], np.cumsum(0.5 * (f_cycle[1:] + f_cycle[:-1]) * dt)])
        ph += phase_c - np.interp(tc, self.tt, ph)
        if surge:  # slowest at mid-stance of each step
            v = v - SURGE_MPS * np.cos(4 * math.pi * ph)
        x = np.concatenate([[0.0], np.cumsum(0.5 * (v[1:] + v[:-1]) * dt)])
        self.vt, self.pt = v, ph
        # Place the runner so its torso front is at the gate at tc (the
        # bisection below then finds the exact instant).
        x0 = gate_m - d * self.front_offset(np.array(tc)) - d * np.interp(tc, self.tt, x)
        self.xt = x0 + d * x

    # --- motion
    def x(self, t):
        return np.interp(t, self.tt, self.xt)

    def speed(self, t):
        return np.interp(t, self.tt, self.vt)

    def phase(self, t):
        return np.interp(t, self.tt, self.pt)

    def lean(self, t):
        v, ph = self.speed(t), self.phase(t)
        return by_speed(LEAN_STEADY, v) + self.lean_accel + LEAN_WOBBLE * np.cos(4 * math.pi * ph)

    def front_offset(self, t):
        """How far the torso's foremost point is ahead of the hip joint (m):
        the largest of the drawn profile's vertices, turned by the lean."""
        lam = np.asarray(self.lean(t))[..., None]
        return np.max(self.prof_f * np.cos(lam) + self.prof_q * np.sin(lam), axis=-1)

    def torso_front(self, t):
        return self.x(t) + self.d * self.front_offset(t)

    def crossing(self, gate_m, lo, hi):
        f = lambda t: float((self.torso_front(np.array(t)) - gate_m) * self.d)
        if f(lo) > 0 or f(hi) < 0:
            return None
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
        return 0.5 * (lo + hi)

    # --- pose
    def pose(self, t):
        """Joint positions at times t (any shape): dict of (f, u) pairs,
        f forwards from the hip joint (metres, along the run when multiplied
        by d), u up from the ground; and the lean."""
        v, ph = self.speed(t), self.phase(t)
        lam = self.lean(t)
        hip_u = self.hip_u0 - by_speed(BOB, v) * np.cos(4 * math.pi * ph)
        sl, cl = np.sin(lam), np.cos(lam)

        def trunk_pt(p, q):
            return p * cl + q * sl, hip_u - p * sl + q * cl

        def along(origin, gamma, length):  # gamma: from straight down, forwards positive
            return origin[0] + np.sin(gamma) * length, origin[1] - np.cos(gamma) * length

        out = {"lean": lam, "hip": (np.zeros_like(hip_u), hip_u)}
        sh = trunk_pt(self.sjc_p, self.sjc_q)
        out["shoulder"] = sh
        for side, off in (("near", 0.0), ("far", 0.5)):
            c = np.cos(2 * math.pi * (ph + off))  # +1: arm at its front peak
            fwd, back = by_speed(SHOULDER_FWD, v), by_speed(SHOULDER_BACK, v)
            alpha = 0.5 * (fwd + back) + 0.5 * (fwd - back) * c
            # The elbow closes in front and opens behind, lagging the shoulder a little.
            c2 = np.cos(2 * math.pi * (ph + off - 0.04))
            ef, eb = by_speed(ELBOW_FRONT, v), by_speed(ELBOW_BACK, v)
            beta = 0.5 * (ef + eb) - 0.5 * (eb - ef) * c2
            g_upper = alpha - lam
            g_fore = g_upper + (math.pi - beta)
            elbow = along(sh, g_upper, self.upper_arm)
            wrist = along(elbow, g_fore, self.forearm)
            hand = along(wrist, g_fore + 10 * DEG, self.hand)
            out[side + "_arm"] = (elbow, wrist, hand)
            # The leg on the same side moves opposite to the arm.
            psi = ph + off + 0.5  # 0: thigh at its front peak
            tf, tb = by_speed(THIGH_FWD, v), by_speed(THIGH_BACK, v)
            theta = 0.5 * (tf + tb) + 0.5 * (tf - tb) * np.cos(2 * math.pi * psi)
            # Knee: flexed most in mid-swing (psi ~0.72, thigh moving forwards).
            s = np.mod(psi - 0.72 + 0.5, 1.0) - 0.5
            bump = np.where(np.abs(s) < 0.25, np.cos(2 * math.pi * s) ** 2, 0.0)
            ks, kw = by_speed(KNEE_STANCE, v), by_speed(KNEE_SWING, v)
            kappa = ks + (kw - ks) * bump
            hip = out["hip"]
            knee = along(hip, theta, self.thigh)
            g_shank = theta - kappa
            ankle = along(knee, g_shank, self.shank)
            plantar = 25 * DEG * bump
            g_foot = g_shank + math.pi / 2 - plantar
            heel = along(ankle, g_foot, -0.22 * self.foot)
            toe = along(ankle, g_foot, 0.78 * self.foot)
            out[side + "_leg"] = (knee, ankle, heel, toe)
        # Neck and head: along the trunk, tilted 5 deg further forwards.
        base = trunk_pt(-0.10 * self.depth, self.trunk)
        g_neck = math.pi - lam - 5 * DEG  # pointing up
        neck_top = along(base, g_neck, (CHIN_H - ACROMION_H) * self.H)
        head = along(neck_top, g_neck, 0.05 * self.H)  # the head's centre ~0.92 H, by the ears
        out["neck"] = (base, neck_top)
        out["head"] = (head[0] + 0.02, head[1])
        return out
