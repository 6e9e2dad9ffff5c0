#!/usr/bin/python3
"""The validation matrix: analytic contact cases x integrator configurations.

    tools/results/validate.py [--fast] [--jobs N] [--out DIR] [--simc BIN]
                      [--cases NAME,...] [--only KEY=VALUE,...] [--report FILE]
                      [--set KEY=VALUE ...]

Every case is a scene with a closed-form (or independently integrated)
reference; every configuration is one integrator scheme x contact model (or
the LCP) x contact stiffness x time step.  Each cell runs simc once and
compares the run with the reference: one or more checks, each a measured
value against a stated tolerance, and the cell passes when all pass.

  --fast          the subset `make test` runs: simc's defaults at 1 and 10 ms
                  over every case and stiffness, plus the cells listed in
                  FAST_EXTRA
  --cases a,b     only these cases (names as in CASES)
  --only k=v,...  only configurations whose fields match (scheme=midpoint,
                  model=lagged, stiffness=rigid, dt=0.001)
  --out DIR       where runs, results CSV and plots go (default out/validate)
  --report FILE   write the Markdown report (results/validation.md for make validate)
  --jobs N        runs in parallel (default: the number of CPUs)
  --verbose       print every cell's checks, not only the failed defaults
  --tap           one "PASS validate:..." or "FAIL validate:..." line per cell
  --set KEY=VALUE a scene key set in every run (repeatable; e.g. the accuracy
                  axis with contact.regularization_step=1e-3)
  --accuracy-axis instead of the matrix, simc's defaults under error control
                  (time.accuracy 1e-2 ... 1e-6, time.step 10 ms) over every case
                  and stiffness; --report writes the accuracy table (make
                  validate: results/validation_accuracy.md); exit status 0

Exit status 0 when every cell of simc's defaults passes, 1 otherwise, 2 on a
usage error.  The CSV (DIR/validation.csv) has one row per cell.

Needs numpy and h5py (Debian python3-numpy python3-h5py; matplotlib for the
plots): run it with /usr/bin/python3.
"""
import argparse
import concurrent.futures as cf
import csv
import math
import os
import subprocess
import sys
import time

import numpy as np

# simc_h5 is a user tool in tools/, this folder's parent
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import simc_h5  # noqa: E402

G = 9.81

# ---------------------------------------------------------------------------
# configurations

SCHEMES = ["explicit_euler", "symplectic_euler", "implicit_euler", "midpoint", "theta"]
THETA = 0.6  # the "general theta" column: theta_q = theta_v = theta_vq
MODELS = ["sap", "similar", "lagged", "lcp"]
STIFFNESSES = ["rigid", 1e6, 1e5]
STEPS = [1e-4, 1e-3, 1e-2]
DEFAULT = "default"  # scheme / model not written: simc's own default


class Config:
    def __init__(self, scheme, model, stiffness, dt, accuracy=None):
        self.scheme, self.model, self.stiffness, self.dt = scheme, model, stiffness, dt
        self.accuracy = accuracy  # None: fixed steps of dt; else error control, dt the longest

    def key(self):
        k = "%s/%s/%s/%g" % (self.scheme, self.model, self.stiffness, self.dt)
        return k if self.accuracy is None else k + "/acc%g" % self.accuracy

    def is_default(self):
        return self.scheme == DEFAULT and self.model == DEFAULT

    def k(self):
        """the bodies' stiffness (N/m), math.inf for rigid"""
        return math.inf if self.stiffness == "rigid" else float(self.stiffness)

    def fields(self):
        return {"scheme": self.scheme, "model": self.model, "stiffness": str(self.stiffness),
                "dt": "%g" % self.dt,
                "accuracy": "" if self.accuracy is None else "%g" % self.accuracy}


ACCURACIES = [1e-2, 1e-3, 1e-4, 1e-5, 1e-6]
ACCURACY_STEP = 1e-2  # the output interval and longest step of the accuracy axis


def accuracy_configs():
    return [Config(DEFAULT, DEFAULT, k, ACCURACY_STEP, acc)
            for k in STIFFNESSES for acc in ACCURACIES]


# cells outside simc's defaults that `make test` runs too: one per repair
# the matrix led to (case, scheme, model, stiffness, dt)
FAST_EXTRA = [
    ("frictionless_spin", "midpoint", "lagged", "rigid", 1e-3),   # relinearization
    ("frictionless_spin", "midpoint", "lcp", "rigid", 1e-3),
    ("tall_tips", "midpoint", "lcp", "rigid", 1e-2),              # mid-step Jacobian
    ("slide_cube_axis", "theta", "lagged", "rigid", 1e-2),        # contact theta
    ("slide_cube_axis", "midpoint", "lcp", "rigid", 1e-3),
    ("bounce", "midpoint", "sap", 1e5, 1e-3),                     # sap's midpoint law
    ("drop_sphere", "midpoint", "sap", "rigid", 1e-2),            # speculative margins
    ("stack_1_10000", "midpoint", "sap", "rigid", 1e-2),          # depth control
    ("bowling", "midpoint", "lagged", "rigid", 1e-2),             # matching at speed
    ("distance_pendulum", "symplectic_euler", "lcp", "rigid", 1e-3),  # constraint theta 1
    ("atwood", "midpoint", "lcp", "rigid", 1e-2),                 # tendon limits in the LCP
]


def all_configs():
    out = []
    for dt in STEPS:
        for k in STIFFNESSES:
            out.append(Config(DEFAULT, DEFAULT, k, dt))
            for s in SCHEMES:
                for mdl in MODELS:
                    out.append(Config(s, mdl, k, dt))
    return out


# ---------------------------------------------------------------------------
# scene text

def fmt(x):
    if isinstance(x, str):
        return x
    if isinstance(x, (list, tuple, np.ndarray)):
        return "[" + ", ".join(fmt(y) for y in x) + "]"
    if x == math.inf:
        return "rigid"
    return repr(float(x))


def quat_axis(axis, angle):
    a = np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    s = math.sin(angle / 2)
    return [math.cos(angle / 2), a[0] * s, a[1] * s, a[2] * s]


def quat_mul(p, q):
    w1, x1, y1, z1 = p
    w2, x2, y2, z2 = q
    return [w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2]


def rot(q):
    """rotation matrices (..., 3, 3) of unit quaternions (..., 4) w x y z"""
    q = np.asarray(q, float)
    w, x, y, z = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    r = np.empty(q.shape[:-1] + (3, 3))
    r[..., 0, 0] = 1 - 2 * (y * y + z * z)
    r[..., 0, 1] = 2 * (x * y - w * z)
    r[..., 0, 2] = 2 * (x * z + w * y)
    r[..., 1, 0] = 2 * (x * y + w * z)
    r[..., 1, 1] = 1 - 2 * (x * x + z * z)
    r[..., 1, 2] = 2 * (y * z - w * x)
    r[..., 2, 0] = 2 * (x * z - w * y)
    r[..., 2, 1] = 2 * (y * z + w * x)
    r[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return r


def body(name, mass, q, v=(0, 0, 0, 0, 0, 0), geoms=(), inertia="solid", com=None):
    lines = ["  - name: %s" % name, "    joint: {type: free}", "    mass: %s" % fmt(mass)]
    if com is not None:
        lines.append("    com: %s" % fmt(com))
    if inertia == "solid":
        lines.append("    inertia: solid")
    else:
        lines.append("    inertia: {%s}" % ", ".join("%s: %s" % (k, fmt(val))
                                                    for k, val in inertia.items()))
    lines.append("    initial: {q: %s, v: %s}" % (fmt(list(q)), fmt(list(v))))
    lines.append("    geometry:")
    for g in geoms:
        lines.append("      - {%s}" % g)
    return "\n".join(lines)


def scene(name, cfg, duration, bodies, static, friction, extra_contact=""):
    """The scene text of a case under a configuration: the bodies take the
    configuration's stiffness through contact.defaults, static shapes are rigid."""
    head = ["simc: 1", "name: %s" % name, "gravity: [0, 0, %s]" % fmt(-G),
            "time: {step: %s, duration: %s%s}"
            % (fmt(cfg.dt), fmt(duration),
               "" if cfg.accuracy is None else ", accuracy: %s" % fmt(cfg.accuracy))]
    if cfg.scheme == "theta":
        head.append("integrator: {scheme: theta, theta: {q: %s, v: %s, vq: %s}}"
                    % (THETA, THETA, THETA))
    elif cfg.scheme != DEFAULT:
        head.append("integrator: {scheme: %s}" % cfg.scheme)
    head.append("contact:")
    if cfg.model == "lcp":
        head.append("  solver: lcp")
    elif cfg.model != DEFAULT:
        head.append("  model: %s" % cfg.model)
    head.append("  defaults: {stiffness: %s, friction: %s}" % (fmt(cfg.k()), fmt(friction)))
    if extra_contact:
        head.append(extra_contact)
    head.append("bodies:")
    text = "\n".join(head) + "\n" + "\n".join(bodies) + "\nstatic:\n"
    text += "\n".join("  - {%s, stiffness: rigid}" % s for s in static) + "\n"
    text += "output: {every: 1, contacts: true}\n"
    return text


GROUND = "shape: plane, normal: [0, 0, 1], offset: 0.0"


def sink(cfg, load, points):
    """static deflection (m) of a body resting on `points` contact points of
    the configuration's stiffness (on a rigid plane) under `load` newtons:
    compliant cases start there, so that they test the resting contact and
    not a drop onto it"""
    k = cfg.k()
    return 0.0 if k == math.inf else load / (points * k)


def incline(alpha):
    return "shape: plane, normal: %s, offset: 0.0" % fmt([math.sin(alpha), 0, math.cos(alpha)])


def box_corners(size):
    h = np.asarray(size, float) / 2
    return np.array([[sx * h[0], sy * h[1], sz * h[2]]
                     for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])


# ---------------------------------------------------------------------------
# checks

class Check:
    """One measured value against its tolerance: passes when value <= tol
    (values are errors or magnitudes, >= 0)."""

    def __init__(self, name, value, tol, unit, what):
        self.name, self.value, self.tol, self.unit, self.what = name, value, tol, unit, what

    def ok(self):
        return self.value is not None and math.isfinite(self.value) and self.value <= self.tol

    def text(self):
        v = "n/a" if self.value is None else "%.3g" % self.value
        return "%s %s %s (tol %.3g)" % (self.name, v, self.unit, self.tol)


def body_com(run, b, com):
    """world centre of mass of body b (1-based; 0 = world) over the rows"""
    return run.body_pos[:, b] + np.einsum("nij,j->ni", rot(run.body_quat[:, b]), com)


def lowest_corner(run, b, size):
    """height of the lowest corner of box body b above z = 0, per row"""
    c = box_corners(size)
    p = run.body_pos[:, b][:, None, :] + np.einsum("nij,kj->nki", rot(run.body_quat[:, b]), c)
    return p[:, :, 2].min(axis=1)


def com_velocity(run, vadr, com):
    """world centre-of-mass velocity of a free body whose v starts at vadr
    (v = origin velocity, angular velocity, world axes) and whose quaternion
    sits at run.q[:, 3:7] of the same joint"""
    qadr = [i for i, n in enumerate(run.q_names) if n.endswith(".qw")][0]
    R = rot(run.q[:, qadr:qadr + 4])
    r = np.einsum("nij,j->ni", R, com)
    return run.v[:, vadr:vadr + 3] + np.cross(run.v[:, vadr + 3:vadr + 6], r)


def time_at(t, x, level):
    """first time x reaches level (linear interpolation), None if never"""
    idx = np.nonzero(x >= level)[0]
    if len(idx) == 0:
        return None
    i = idx[0]
    if i == 0:
        return t[0]
    return t[i - 1] + (level - x[i - 1]) / (x[i] - x[i - 1]) * (t[i] - t[i - 1])


def rk4(f, y0, t1, h):
    """classical RK4 from 0 to t1 with step h; returns the times and states"""
    n = int(round(t1 / h))
    y = np.array(y0, float)
    ts, ys = [0.0], [y.copy()]
    for i in range(n):
        t = i * h
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ts.append((i + 1) * h)
        ys.append(y.copy())
    return np.array(ts), np.array(ys)


# ---------------------------------------------------------------------------
# cases

class Case:
    name = ""
    group = ""
    reference = ""  # the reference and tolerances, one sentence (the report prints it)
    duration = 1.0

    def applicable(self, cfg):
        """None, or why the case's reference does not apply to cfg"""
        return None

    def scene(self, cfg):
        raise NotImplementedError

    def checks(self, run, cfg):
        raise NotImplementedError


class Slide(Case):
    """a box launched along flat ground: stops after v0^2 / (2 mu g)"""
    group = "sliding box"
    mu, v0 = 0.3, 2.0
    duration = 1.2

    def __init__(self, label, size, diagonal):
        self.size = size
        self.diagonal = diagonal
        self.name = "slide_%s_%s" % (label, "diag" if diagonal else "axis")
        d = self.v0 ** 2 / (2 * self.mu * G)
        self.d = d
        self.reference = ("box %s m, 1 kg, mu %g, launched at %g m/s %s: stops after "
                          "v0^2/(2 mu g) = %.4f m; checks: distance within 0.5 %%, lowest corner "
                          "never more than 0.1 mm above the ground, at rest (< 1 mm/s) at the end"
                          % ("x".join("%g" % s for s in size), self.mu, self.v0,
                             "along a diagonal" if diagonal else "along x", d))

    def scene(self, cfg):
        h = self.size[2] / 2 - sink(cfg, G, 4)
        v = [self.v0 / math.sqrt(2), self.v0 / math.sqrt(2), 0] if self.diagonal else [self.v0, 0, 0]
        b = body("box", 1.0, [0, 0, h, 1, 0, 0, 0], v + [0, 0, 0],
                 ["shape: box, size: %s" % fmt(self.size)])
        return scene(self.name, cfg, self.duration, [b], [GROUND], self.mu)

    def checks(self, run, cfg):
        p = run.body_pos[:, 1]
        dist = float(np.hypot(p[-1, 0] - p[0, 0], p[-1, 1] - p[0, 1]))
        lift = float(lowest_corner(run, 1, self.size).max())
        speed = float(np.linalg.norm(run.v[-1, :3]))
        return [Check("distance", abs(dist - self.d) / self.d, 5e-3, "rel",
                      "stopping distance %.5f m against %.5f m" % (dist, self.d)),
                Check("lift", max(lift, 0.0), 1e-4, "m", "lowest corner above the ground"),
                Check("rest", speed, 1e-3, "m/s", "speed at the end")]


class InclineBox(Case):
    """a box released on a 0.3 rad incline"""
    group = "box on an incline"
    alpha = 0.3
    size = (0.2, 0.2, 0.1)
    duration = 1.0

    def __init__(self, mu):
        self.mu = mu
        self.stick = math.tan(self.alpha) < mu
        self.name = "incline_%s" % ("stick" if self.stick else "slip")
        a = G * (math.sin(self.alpha) - mu * math.cos(self.alpha))
        self.a = a
        if self.stick:
            self.reference = ("box on a 0.3 rad incline, mu %g > tan 0.3: sticks; checks: moves "
                              "less than 1 mm along the slope in 1 s" % mu)
        else:
            self.reference = ("box on a 0.3 rad incline, mu %g < tan 0.3: slides at "
                              "a = g (sin a - mu cos a) = %.5f m/s^2; checks: distance after "
                              "1 s within 0.5 %% of a t^2 / 2" % (mu, a))

    def scene(self, cfg):
        return box_on_incline(self, cfg)

    def checks(self, run, cfg):
        s = np.array([math.cos(self.alpha), 0, -math.sin(self.alpha)])  # down the slope
        x = (run.body_pos[:, 1] - run.body_pos[0, 1]) @ s
        if self.stick:
            return [Check("creep", float(np.abs(x).max()), 1e-3, "m", "displacement along the slope")]
        ref = 0.5 * self.a * run.t[-1] ** 2
        return [Check("distance", abs(x[-1] - ref) / ref, 5e-3, "rel",
                      "%.5f m after %g s against %.5f m" % (x[-1], run.t[-1], ref))]


def box_on_incline(case, cfg):
    """a 1 kg box of case.size resting on case's incline (angle case.alpha,
    friction case.mu), sunk by its static deflection"""
    n = np.array([math.sin(case.alpha), 0, math.cos(case.alpha)])
    c = n * (case.size[2] / 2 - sink(cfg, G * math.cos(case.alpha), 4))
    b = body("box", 1.0, list(c) + quat_axis([0, 1, 0], case.alpha), geoms=[
        "shape: box, size: %s" % fmt(case.size)])
    return scene(case.name, cfg, case.duration, [b], [incline(case.alpha)], case.mu)


class TallIncline(Case):
    """a tall box (0.1 x 0.1 x 0.4 m) on an incline: tips about its lower edge
    when tan a > w / h and mu is large, slides upright when mu < w / h < tan a"""
    group = "tip or slide"
    size = (0.1, 0.1, 0.4)

    def __init__(self, tip):
        self.tip = tip
        w, h = self.size[0], self.size[2]
        if tip:
            self.mu, self.alpha = 0.9, math.atan(0.35)
            self.name = "tall_tips"
            self.duration = 0.7
            self._reference_tip()
            self.reference = ("tall box (w/h = 0.25) on an incline with tan a = 0.35, mu 0.9: tips "
                              "about its lower edge as a compound pendulum; checks: it turns 0.3 rad "
                              "within 10 %% of the RK4 reference's %.4f s, keeps its energy while "
                              "tipping within 1 %% of what the fall released (a sticking pivot does "
                              "no work), and the edge slips less than 2 mm" % self.t_ref)
        else:
            self.mu, self.alpha = 0.15, math.atan(0.2)
            self.name = "tall_slides"
            self.duration = 1.0
            self.a = G * (math.sin(self.alpha) - self.mu * math.cos(self.alpha))
            self.reference = ("tall box (w/h = 0.25) on an incline with tan a = 0.2, mu 0.15 < w/h: "
                              "slides upright at g (sin a - mu cos a) = %.5f m/s^2; checks: distance "
                              "after 1 s within 0.5 %% (on compliant contacts plus what its rocking "
                              "on the corner springs can add: mu g cos a t_r T / 2, t_r its rocking "
                              "period), tilt below 0.01 rad" % self.a)
        self.w, self.h = w, h

    def _reference_tip(self):
        w, h, a = self.size[0], self.size[2], self.alpha
        r = math.hypot(w / 2, h / 2)
        inertia = (w * w + h * h) / 12 + r * r  # about the edge, per kg
        # psi: angle of the edge -> centre line from the vertical, downhill positive
        psi0 = math.atan2(h / 2 * math.sin(a) - w / 2 * math.cos(a),
                          w / 2 * math.sin(a) + h / 2 * math.cos(a))

        def f(t, y):
            return np.array([y[1], G * r * math.sin(y[0]) / inertia])

        ts, ys = rk4(f, [psi0, 0.0], 1.0, 1e-4)
        # the edge must hold: contact force per kg F = a_com - g within the cone
        n = np.array([math.sin(a), math.cos(a)])  # (x, z) normal of the incline
        tang = np.array([math.cos(a), -math.sin(a)])
        psi, om = ys[:, 0], ys[:, 1]
        al = G * r * np.sin(psi) / inertia
        # com relative to the edge: r (sin psi, cos psi) in (x, z)
        acc = np.stack([r * (al * np.cos(psi) - om ** 2 * np.sin(psi)),
                        r * (-al * np.sin(psi) - om ** 2 * np.cos(psi))], axis=1)
        F = acc - np.array([0, -G])
        fn, ft = F @ n, F @ tang
        turn = 0.3
        i = np.nonzero(psi - psi0 >= turn)[0][0]
        assert np.all(fn[:i] > 0) and np.all(np.abs(ft[:i]) < self.mu * fn[:i]), \
            "tall_tips: the reference edge would slip or lift"
        self.turn = turn
        self.t_ref = float(np.interp(turn, psi[:i + 1] - psi0, ts[:i + 1]))
        self.edge = np.array([w / 2, 0, -h / 2])  # the downhill bottom edge, body frame

    def scene(self, cfg):
        return box_on_incline(self, cfg)

    def tilt(self, run):
        """rotation of the box about y from its start (rad, downhill positive)"""
        R = rot(run.body_quat[:, 1])
        z = R[:, :, 2]
        return np.arctan2(z[:, 0], z[:, 2]) - self.alpha

    def checks(self, run, cfg):
        tilt = self.tilt(run)
        if self.tip:
            t_hit = time_at(run.t, tilt, self.turn)
            err = math.inf if t_hit is None else abs(t_hit - self.t_ref) / self.t_ref
            # a sticking pivot does no work: kinetic + potential energy is
            # kept while the box tips; its change against the energy
            # released by the fall of the centre of mass so far
            e = run.energy["total"]
            upto = run.t <= (t_hit if t_hit is not None else run.t[-1])
            fall = G * (run.body_pos[0, 1, 2] - run.body_pos[upto, 1, 2].min())
            e_err = float(np.abs(e[upto] - e[0]).max()) / fall if fall > 0 else math.inf
            R = rot(run.body_quat[:, 1])
            e = run.body_pos[:, 1] + np.einsum("nij,j->ni", R, self.edge)
            upto = run.t <= (t_hit if t_hit is not None else run.t[-1])
            slip = float(np.linalg.norm(e[upto] - e[0], axis=1).max())
            return [Check("tip time", err, 1e-1, "rel",
                          "turned 0.3 rad at %s s against %.4f s"
                          % ("never" if t_hit is None else "%.4f" % t_hit, self.t_ref)),
                    Check("energy", e_err, 1e-2, "rel",
                          "largest change of kinetic + potential energy while tipping, over the "
                          "energy its fall released"),
                    Check("edge slip", slip, 2e-3, "m", "lower edge displacement while tipping")]
        s = np.array([math.cos(self.alpha), 0, -math.sin(self.alpha)])
        x = (run.body_pos[:, 1] - run.body_pos[0, 1]) @ s
        ref = 0.5 * self.a * run.t[-1] ** 2
        return [Check("distance", abs(x[-1] - ref) / ref, 5e-3 + self.rocking(cfg) / ref, "rel",
                      "%.5f m after %g s against %.5f m" % (x[-1], run.t[-1], ref)),
                Check("tilt", float(np.abs(tilt).max()), 1e-2, "rad", "largest tilt")]

    def rocking(self, cfg):
        """On compliant corners a tall box rocks before it slides: its base
        sticks for up to half its rocking period t_r = pi sqrt(I_edge / k_rot)
        (k_rot = sum k d^2 over the four corners), and the friction it lacks
        then moves it by at most mu g cos(a) t_r T / 2 more (m; 0 when rigid)"""
        k = cfg.k()
        if k == math.inf:
            return 0.0
        w, h = self.size[0], self.size[2]
        k_rot = 4 * k * (w / 2) ** 2
        t_r = math.pi * math.sqrt((w * w + h * h) / 3 / k_rot)
        return self.mu * G * math.cos(self.alpha) * t_r * self.duration / 2


class Roll(Case):
    """a sphere or a cylinder rolling down a 0.3 rad incline without slip"""
    group = "rolling"
    alpha, mu, r = 0.3, 0.5, 0.1
    duration = 1.0

    def __init__(self, shape):
        self.shape = shape
        self.name = "roll_%s" % shape
        f = 5.0 / 7.0 if shape == "sphere" else 2.0 / 3.0
        self.a = f * G * math.sin(self.alpha)
        self.reference = ("%s (r 0.1 m) on a 0.3 rad incline, mu 0.5: rolls at %s g sin a = "
                          "%.5f m/s^2; checks: distance after 1 s within 0.5 %%"
                          % (shape, "5/7" if shape == "sphere" else "2/3", self.a))

    def scene(self, cfg):
        n = np.array([math.sin(self.alpha), 0, math.cos(self.alpha)])
        c = n * (self.r - sink(cfg, G * math.cos(self.alpha), 1 if self.shape == "sphere" else 2))
        if self.shape == "sphere":
            g = "shape: sphere, radius: %s" % fmt(self.r)
        else:  # axis along y: the shape's z turned by roll = pi/2
            g = ("shape: cylinder, radius: %s, length: 0.2, pose: {rpy: [1.5707963267948966, 0, 0]}"
                 % fmt(self.r))
        b = body("ball", 1.0, list(c) + quat_axis([0, 1, 0], self.alpha), geoms=[g])
        return scene(self.name, cfg, self.duration, [b], [incline(self.alpha)], self.mu)

    def checks(self, run, cfg):
        s = np.array([math.cos(self.alpha), 0, -math.sin(self.alpha)])
        x = (run.body_pos[:, 1] - run.body_pos[0, 1]) @ s
        ref = 0.5 * self.a * run.t[-1] ** 2
        return [Check("distance", abs(x[-1] - ref) / ref, 5e-3, "rel",
                      "%.5f m after %g s against %.5f m" % (x[-1], run.t[-1], ref))]


class Bowling(Case):
    """a sphere launched without spin: slides, then rolls at 5/7 v0"""
    name = "bowling"
    group = "slide to roll"
    v0, mu, r = 3.0, 0.2, 0.1
    duration = 0.8

    def __init__(self):
        self.t_roll = 2 * self.v0 / (7 * self.mu * G)
        self.v_roll = 5 * self.v0 / 7
        self.reference = ("sphere (r 0.1 m) launched at 3 m/s without spin, mu 0.2: rolls from "
                          "2 v0/(7 mu g) = %.4f s at 5/7 v0 = %.5f m/s; checks: final speed within "
                          "0.5 %%, roll onset within 1 %% (+ one step), lift below 0.1 mm"
                          % (self.t_roll, self.v_roll))

    def scene(self, cfg):
        b = body("ball", 1.0, [0, 0, self.r - sink(cfg, G, 1), 1, 0, 0, 0], [self.v0, 0, 0, 0, 0, 0],
                 ["shape: sphere, radius: %s" % fmt(self.r)])
        return scene(self.name, cfg, self.duration, [b], [GROUND], self.mu)

    def checks(self, run, cfg):
        vx, wy = run.v[:, 0], run.v[:, 4]
        # velocity of the contact point, midway between the surfaces: on a
        # compliant ground the centre is z_c < r high and the point is
        # (z_c + r) / 2 below it (omega_y > 0 rolls forward)
        zc = run.body_pos[:, 1, 2]
        slip = vx - wy * 0.5 * (zc + self.r)
        idx = np.nonzero(np.abs(slip) < 1e-3)[0]
        t_on = run.t[idx[0]] if len(idx) else math.inf
        lift = float((run.body_pos[:, 1, 2] - self.r).max())
        return [Check("speed", abs(vx[-1] - self.v_roll) / self.v_roll, 5e-3, "rel",
                      "final speed %.5f m/s against %.5f" % (vx[-1], self.v_roll)),
                Check("onset", abs(t_on - self.t_roll), 1e-2 * self.t_roll + cfg.dt, "s",
                      "rolling from %.4f s against %.4f s" % (t_on, self.t_roll)),
                Check("lift", max(lift, 0.0), 1e-4, "m", "centre above its resting height")]


class FrictionlessSpin(Case):
    """a spinning body whose centre of mass is off its frame origin, resting
    on its spherical base on a frictionless floor: the floor pushes only
    vertically, so the horizontal centre-of-mass velocity must stay 0"""
    name = "frictionless_spin"
    group = "momentum"
    duration = 1.0
    com = np.array([0.01, 0.0, -0.015])
    inertia = {"ixx": 0.0004, "iyy": 0.0005, "izz": 0.0006}
    radius = 0.05
    q0 = quat_axis([1, 0, 0], 0.2)
    w0 = np.array([0.0, 0.0, 20.0])

    def __init__(self):
        self.reference = ("body of 1 kg on a sphere of radius 0.05 m centred at its frame origin, "
                          "centre of mass 0.018 m off it, tilted 0.2 rad and spinning at 20 rad/s "
                          "on a frictionless floor: the horizontal centre-of-mass velocity stays 0; "
                          "check: its largest value over 1 s below 1e-12 of the centre's speed "
                          "about the origin, |w x R s| = 0.21 m/s, under every scheme and step "
                          "(a free joint's coordinates are its centre of mass's, doc/step.md; "
                          "about the frame origin the drift was first order in the step, "
                          "1e-3 m/s at 10 ms)")

    def _scene(self, cfg, floor):
        c = rot(np.array(self.q0)) @ self.com
        v0 = -np.cross(self.w0, c)  # origin velocity that leaves the centre of mass at rest
        z = self.radius - (sink(cfg, G, 1) if floor else 0.0)
        b = body("body", 1.0, [0, 0, z] + list(self.q0), list(v0) + list(self.w0),
                 ["shape: sphere, radius: %s" % fmt(self.radius)], inertia=self.inertia,
                 com=list(self.com))
        g = GROUND if floor else GROUND.replace("offset: 0.0", "offset: -100.0")
        return scene(self.name, cfg, self.duration, [b], [g], 0.0)

    def scene(self, cfg):
        return self._scene(cfg, True)

    def companion(self, cfg):
        """the same body in free flight: its drift is the scheme's own"""
        return self._scene(cfg, False)

    def drift(self, run):
        vc = com_velocity(run, 0, self.com)
        return float(np.abs(vc[:, :2]).max())

    def checks(self, run, cfg, free=None):
        d = self.drift(run)
        ff = self.drift(free) if free is not None else 0.0
        tol = 1e-12 * float(np.linalg.norm(np.cross(self.w0, rot(np.array(self.q0)) @ self.com)))
        return [Check("momentum", d, tol, "m/s",
                      "largest horizontal centre-of-mass speed (free flight: %.3g m/s)" % ff)]


class FreeFlight(Case):
    """a tumbling box in free flight (no contact)"""
    name = "free_flight"
    group = "free flight"
    duration = 1.0
    size = (0.3, 0.2, 0.1)
    com = np.array([0.05, 0.02, -0.01])
    inertia = np.diag([0.0042, 0.0078, 0.0108])  # about the centre of mass, body axes
    w0 = np.array([0.5, 6.0, 0.4])               # near the intermediate axis: unstable
    vc0 = np.array([1.0, 0.0, 3.0])              # centre-of-mass velocity

    def __init__(self):
        self._reference()
        self.reference = ("box tumbling near its intermediate axis in gravity, centre of mass "
                          "off its frame origin; references: the parabola of the centre of mass, "
                          "energy, angular momentum, and the orientation from RK4 (h = 1e-4 s) "
                          "of Euler's equations; checks (what a second-order scheme keeps at 10 ms "
                          "and a first-order one does not at 1 ms): orientation error after 1 s "
                          "below 0.01 rad, energy drift below 1 % of the rotational energy, centre "
                          "of mass within 0.1 mm")

    def _reference(self):
        Ib = self.inertia
        Iinv = np.linalg.inv(Ib)

        def f(t, y):
            q, w = y[:4], y[4:]  # world angular velocity -> body
            R = rot(q)
            wb = R.T @ w
            dwb = Iinv @ (-np.cross(wb, Ib @ wb))
            dq = 0.5 * np.array(quat_mul(q, [0, wb[0], wb[1], wb[2]]))
            dw = R @ dwb  # d/dt (R wb) = R (wb x wb) + R dwb
            return np.concatenate([dq, dw])

        ts, ys = rk4(f, [1, 0, 0, 0] + list(self.w0), self.duration, 1e-4)
        self.ref_q = ys[-1, :4] / np.linalg.norm(ys[-1, :4])
        self.ke_rot = 0.5 * self.w0 @ Ib @ self.w0

    def scene(self, cfg):
        c0 = np.array([0.0, 0.0, 1.0])
        o = c0 - self.com
        v = self.vc0 - np.cross(self.w0, self.com)  # origin velocity
        I = self.inertia
        b = body("box", 1.0, list(o) + [1, 0, 0, 0], list(v) + list(self.w0),
                 ["shape: box, size: %s" % fmt(self.size)],
                 inertia={"ixx": I[0, 0], "iyy": I[1, 1], "izz": I[2, 2]}, com=list(self.com))
        return scene(self.name, cfg, self.duration, [b], [GROUND.replace("offset: 0.0", "offset: -100.0")],
                     0.5)

    def checks(self, run, cfg):
        c = body_com(run, 1, self.com)
        t = run.t
        ref = np.array([0, 0, 1.0]) + np.outer(t, self.vc0) + np.outer(0.5 * t * t, [0, 0, -G])
        com_err = float(np.linalg.norm(c - ref, axis=1).max())
        e = run.energy["total"]
        de = float(np.abs(e - e[0]).max()) / self.ke_rot
        qf = run.body_quat[-1, 1]
        ang = 2 * math.acos(min(1.0, abs(float(np.dot(qf, self.ref_q)))))
        return [Check("orientation", ang, 1e-2, "rad", "rotation between simc's and RK4's orientation at 1 s"),
                Check("energy", de, 1e-2, "rel", "largest energy change over the rotational energy"),
                Check("com", com_err, 1e-4, "m", "centre of mass off its parabola")]


class Drop(Case):
    """a body dropped on the ground: comes to rest at its static height, and
    never gains energy"""
    group = "drop"
    duration = 2.0

    def __init__(self, shape):
        self.shape = shape
        self.name = "drop_%s" % shape
        self.reference = ("%s (1 kg) dropped from 0.5 m: mechanical energy never above its start, "
                          "rests at its height minus the static deflection mg/k; checks: energy "
                          "gain below 1e-6 J, rest height within 0.1 %% of the bounding radius "
                          "(the near-rigid depth bound) + 1 %% of mg/k, at rest "
                          "(< 1 mm/s) after 2 s" % ("sphere (r 0.1 m)" if shape == "sphere"
                                                     else "cube (0.2 m) tilted 0.3 rad"))

    def scene(self, cfg):
        if self.shape == "sphere":
            b = body("body", 1.0, [0, 0, 0.5, 1, 0, 0, 0], geoms=["shape: sphere, radius: 0.1"])
        else:
            q = quat_mul(quat_axis([1, 0, 0], 0.3), quat_axis([0, 1, 0], 0.2))
            b = body("body", 1.0, [0, 0, 0.5] + q, geoms=["shape: box, size: [0.2, 0.2, 0.2]"])
        return scene(self.name, cfg, self.duration, [b], [GROUND], 0.5)

    def checks(self, run, cfg):
        e = run.energy["total"]
        gain = float((e - e[0]).max())
        k = cfg.k()
        if self.shape == "sphere":
            defl = 0.0 if k == math.inf else G / k
            z_ref = 0.1 - defl
        else:
            defl = 0.0 if k == math.inf else G / (4 * k)
            z_ref = 0.1 - defl
        z = run.body_pos[-1, 1, 2]
        speed = float(np.linalg.norm(run.v[-1, :3]))
        rb = 0.1 if self.shape == "sphere" else math.sqrt(3) * 0.1  # bounding radius
        return [Check("energy gain", max(gain, 0.0), 1e-6, "J", "largest rise of kinetic + potential energy"),
                Check("rest height", abs(z - z_ref), 1e-3 * rb + 0.01 * defl, "m",
                      "height %.7f m against %.7f m" % (z, z_ref)),
                Check("rest", speed, 1e-3, "m/s", "speed at the end")]


def first_apex(run):
    """the highest height of body 1 after its first contact ends (None when
    it never touches or never leaves).  A row's contacts are those of its
    sample time: under error control a rigid bounce can fall between two
    rows, so the first rise of the height marks the bounce as well."""
    z = run.body_pos[:, 1, 2]
    on = np.nonzero(run.count > 0)[0]
    if len(on):
        off = np.nonzero((run.count == 0) & (np.arange(len(z)) > on[0]))[0]
        if len(off):
            return float(z[off[0]:].max())
        return None
    rise = np.nonzero(np.diff(z) > 0)[0]
    if len(rise) and rise[0] > 0:
        return float(z[rise[0]:].max())
    return None


class Bounce(Case):
    """a sphere dropped on an undamped compliant contact bounces back to its
    drop height"""
    name = "bounce"
    group = "drop"
    duration = 0.6
    r, z0 = 0.1, 0.3

    def __init__(self):
        self.reference = ("sphere (r 0.1 m, 1 kg) dropped from 0.2 m onto an undamped compliant "
                          "contact (dissipation 0, dissipation_time 0): energy is kept, so it "
                          "bounces back to its drop height; check: the apex after the first bounce "
                          "within 2 % of 0.3 m, where the step resolves the contact's spring "
                          "(omega dt <= 1; rigid and unresolved contacts are inelastic)")

    def applicable(self, cfg):
        if cfg.k() == math.inf:
            return "a rigid contact is inelastic (it has no spring to return the energy)"
        # simc's Delassus estimate |W|_F / 3 of W = diag(3.5, 3.5, 1) /kg (1/m + r^2/I across)
        wdt = math.sqrt(cfg.k() * math.sqrt(2 * 3.5 ** 2 + 1) / 3) * cfg.dt
        if wdt > 1:
            return ("the step does not resolve the contact spring (omega dt = %.2g > 1): simc "
                    "writes it at theta = 1, inelastic, as a near-rigid contact" % wdt)
        return None

    def scene(self, cfg):
        b = body("ball", 1.0, [0, 0, self.z0, 1, 0, 0, 0], geoms=["shape: sphere, radius: 0.1"])
        t = scene(self.name, cfg, self.duration, [b], [GROUND], 0.5)
        return t.replace("  defaults: {stiffness:", "  defaults: {dissipation: 0, dissipation_time: 0, stiffness:")

    def checks(self, run, cfg):
        apex = first_apex(run)
        err = math.inf if apex is None else abs(apex - self.z0) / (self.z0 - self.r)
        return [Check("apex", err, 2e-2, "rel",
                      "apex %s m against %.3f m (error over the drop height)"
                      % ("none" if apex is None else "%.5f" % apex, self.z0))]


class Stack(Case):
    """boxes (0.2 m cubes) stacked on the ground, started at their static
    equilibrium: they must stand still"""
    group = "stacks"
    duration = 2.0
    h = 0.2

    def __init__(self, label, masses):
        self.masses = masses
        self.name = "stack_%s" % label
        self.reference = ("boxes of %s kg (bottom first) started at their static equilibrium "
                          "(each contact's share of the weight above over its stiffness): they stay; "
                          "checks: heights within 1 mm of the equilibrium, penetration beyond the "
                          "static deflection below 1 mm, horizontal drift below 0.1 mm"
                          % ":".join("%g" % m for m in masses))

    def equilibrium(self, k):
        """centre heights and the static deflection of each box's lower contact:
        ground pair stiffness k (the plane is rigid), box-box pairs k/2
        (springs in series), four corners per face sharing the weight above"""
        zs, defl = [], []
        for i in range(len(self.masses)):
            load = sum(self.masses[i:]) * G
            d = 0.0 if k == math.inf else load / (4 * (k if i == 0 else k / 2))
            zs.append(self.h / 2 - d if i == 0 else zs[-1] + self.h - d)
            defl.append(d)
        return zs, defl

    def applicable(self, cfg):
        _, defl = self.equilibrium(cfg.k())
        if max(defl) > 0.1 * self.h:
            return ("at k = %g N/m the static deflection under the load, %.3g m, is more than "
                    "10 %% of the box" % (cfg.k(), max(defl)))
        return None

    def scene(self, cfg):
        zs, _ = self.equilibrium(cfg.k())
        bs = []
        for i, (m, z) in enumerate(zip(self.masses, zs)):
            bs.append(body("box%d" % (i + 1), m, [0, 0, z, 1, 0, 0, 0],
                           geoms=["shape: box, size: [0.2, 0.2, 0.2]"]))
        return scene(self.name, cfg, self.duration, bs, [GROUND], 0.5)

    def checks(self, run, cfg):
        zs, defl = self.equilibrium(cfg.k())
        n = len(self.masses)
        dz = max(float(np.abs(run.body_pos[:, i + 1, 2] - zs[i]).max()) for i in range(n))
        dxy = max(float(np.hypot(run.body_pos[:, i + 1, 0], run.body_pos[:, i + 1, 1]).max())
                  for i in range(n))
        pen = float(run.penetration().max()) if len(run.gap) else 0.0
        return [Check("height", dz, 1e-3, "m", "largest height change from the equilibrium"),
                Check("penetration", max(pen - max(defl), 0.0), 1e-3, "m",
                      "deepest contact beyond the static deflection %.3g m" % max(defl)),
                Check("drift", dxy, 1e-4, "m", "largest horizontal displacement")]


class RodImpact(Case):
    """a rod (capsule, 0.5 m, 1 kg) tilted 30 degrees falls flat at 1 m/s onto
    its lower end: an inelastic impact"""
    group = "impact"
    L, phi, v, rad = 0.5, math.radians(30), 1.0, 0.01
    duration = 0.05

    def __init__(self, sticking):
        self.sticking = sticking
        self.mu = 1.0 if sticking else 0.0
        self.name = "rod_impact_%s" % ("stick" if sticking else "frictionless")
        self._reference()
        self.reference = ("capsule rod (0.5 m, 1 kg) at 30 deg falling at 1 m/s onto its lower "
                          "end, %s: post-impact angular velocity %.5f rad/s from the impulse-"
                          "momentum balance, then the motion after it integrated by RK4 to %.2f s; "
                          "checks: angular velocity at %.2f s within 1 %% plus what one step of "
                          "its angular acceleration changes (an impact inside a step is resolved "
                          "to the step)"
                          % ("mu 1 (the end sticks)" if self.sticking else "frictionless",
                             self.w_plus, self.duration, self.duration))

    def _reference(self):
        m, a, phi, v, rad = 1.0, self.L / 2, self.phi, self.v, self.rad
        I = self.I = m * self.L ** 2 / 12  # about the centre, perpendicular (given to simc)
        if self.sticking:
            # the bottom point P of the lower cap stops: angular momentum about
            # P is kept, |r_PC|^2 = a^2 + rad^2 + 2 rad a sin(phi); then the cap
            # rolls without slip: M(phi) = m (a^2 + rad^2 + 2 rad a sin phi) + I
            def mass(p):
                return m * (a * a + rad * rad + 2 * rad * a * math.sin(p)) + I

            def dmass(p):
                return 2 * m * rad * a * math.cos(p)
            w = m * a * v * math.cos(phi) / mass(phi)
        else:
            # a vertical impulse at P stops P's vertical velocity; then the cap
            # slides, x_com fixed: M(phi) = m a^2 cos^2 phi + I
            def mass(p):
                return m * a * a * math.cos(p) ** 2 + I

            def dmass(p):
                return -2 * m * a * a * math.cos(p) * math.sin(p)
            w = v * a * math.cos(phi) / I / (1 / m + (a * math.cos(phi)) ** 2 / I)
        self.w_plus = w

        # Lagrange: M phi'' + M'/2 phi'^2 + m g a cos phi = 0; omega_y = -phi'
        def f(t, y):
            p, dp = y
            return np.array([dp, -(0.5 * dmass(p) * dp * dp + m * G * a * math.cos(p)) / mass(p)])
        ts, ys = rk4(f, [phi, -w], self.duration, 1e-5)
        self.w_end = -ys[-1, 1]
        self.alpha_end = -f(0, ys[-1])[1]  # angular acceleration at the end
        if self.sticking:  # the contact force the rolling needs stays in the cone
            p, dp = ys[:, 0], ys[:, 1]
            ddp = np.array([f(0, y)[1] for y in ys])
            # centre of mass: x = -(rad + a sin p) p', z = a cos p p' (velocities)
            ax = -(a * np.cos(p) * dp * dp + (rad + a * np.sin(p)) * ddp)
            az = -a * np.sin(p) * dp * dp + a * np.cos(p) * ddp
            fz = m * (az + G)
            assert np.all(fz > 0) and np.all(np.abs(m * ax) < self.mu * fz), \
                "rod_impact_stick: the reference contact would slip or lift"

    def scene(self, cfg):
        a, phi = self.L / 2, self.phi
        q = quat_axis([0, 1, 0], math.pi / 2 - phi)  # capsule axis z -> (cos phi, 0, sin phi)
        # lower end (the sphere centre of the lower cap) at height rad: touching
        zc = self.rad + a * math.sin(phi)
        b = body("rod", 1.0, [0, 0, zc] + q, [0, 0, -self.v, 0, 0, 0],
                 ["shape: capsule, radius: %s, length: %s" % (fmt(self.rad), fmt(self.L))],
                 inertia={"ixx": self.I, "iyy": self.I, "izz": 1e-6})
        return scene(self.name, cfg, self.duration, [b], [GROUND], self.mu)

    def checks(self, run, cfg):
        w = run.v[-1, 4]  # about +y: the upper end turning down
        # an impact inside a step is resolved to the step: the motion after
        # it may start up to one step early or late
        tol = 1e-2 + abs(self.alpha_end) * cfg.dt / self.w_end
        return [Check("omega", abs(w - self.w_end) / self.w_end, tol, "rel",
                      "|omega| %.5f rad/s at %.2f s against %.5f (just after the impact: %.5f)"
                      % (w, run.t[-1], self.w_end, self.w_plus))]

def ellip_k(k):
    """the complete elliptic integral of the first kind K(k), by the AGM"""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    for _ in range(30):
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2 * a)


class RigidPendulum(Case):
    """a bob on a distance constraint, released horizontally: the rigid
    pendulum's half period"""
    name = "distance_pendulum"
    group = "constraints"
    duration = 1.2
    l = 0.5

    def __init__(self):
        self.half = 2 * math.sqrt(self.l / G) * ellip_k(math.sin(math.pi / 4))
        self.reference = ("1 kg bob held 0.5 m from a fixed point by a rigid distance constraint, "
                          "released at rest level with the point: its first stop on the far side "
                          "at half the period 2 sqrt(l/g) K(sin 45 deg) = %.6f s (the AGM); checks: "
                          "that time within 0.5 %% and the rod's length within 0.5 %% throughout "
                          "(simc's rigid rows drift at second order: 0.21 %% at 10 ms)"
                          % self.half)

    def applicable(self, cfg):
        if cfg.k() != math.inf:
            return "the case has no contact: the contact stiffness does not enter"
        return None

    def scene(self, cfg):
        b = body("bob", 1.0, [self.l, 0, 0, 1, 0, 0, 0],
                 geoms=["shape: sphere, radius: 0.02"],
                 inertia={"ixx": 1e-4, "iyy": 1e-4, "izz": 1e-4})
        t = scene(self.name, cfg, self.duration, [b],
                  [GROUND.replace("offset: 0.0", "offset: -100.0")], 0.5)
        return t + ("constraints:\n"
                    "  - {type: distance, a: {body: world}, b: {body: bob}}\n")

    def checks(self, run, cfg):
        p = run.body_pos[:, 1]
        length = float(np.abs(np.linalg.norm(p, axis=1) - self.l).max()) / self.l
        vz = run.v[:, 2]
        half = None
        for i in range(1, len(vz)):
            if vz[i - 1] > 0 >= vz[i]:
                half = float(run.t[i] - (run.t[i] - run.t[i - 1]) * vz[i] / (vz[i] - vz[i - 1]))
                break
        err = math.inf if half is None else abs(half - self.half) / self.half
        return [Check("half_period", err, 5e-3, "rel",
                      "first stop on the far side at %s s against %.6f s"
                      % ("none" if half is None else "%.6f" % half, self.half)),
                Check("length", length, 5e-3, "rel", "largest change of the rod's length")]


class Atwood(Case):
    """Atwood's machine: two masses on a cable (a spatial tendon at its
    length limit) over two fixed points"""
    name = "atwood"
    group = "constraints"
    duration = 0.5
    m1, m2 = 3.0, 1.0

    def __init__(self):
        self.a = G * (self.m1 - self.m2) / (self.m1 + self.m2)
        self.T = 2 * self.m1 * self.m2 * G / (self.m1 + self.m2)
        self.reference = ("3 kg and 1 kg on vertical slides, joined by an inextensible cable over "
                          "two fixed points (a spatial tendon with limits [null, 2.2 m]): "
                          "a = g (m1 - m2)/(m1 + m2) = %.4f m/s^2, tension 2 m1 m2 g/(m1 + m2) = "
                          "%.4f N; checks: the heavy mass's drop at 0.5 s within 0.1 %%, the mean "
                          "tension over the last half within 0.1 %%, the cable never over its "
                          "length by more than 1 mm" % (self.a, self.T))

    def applicable(self, cfg):
        if cfg.k() != math.inf:
            return "the case has no contact: the contact stiffness does not enter"
        return None

    def scene(self, cfg):
        t = scene(self.name, cfg, self.duration, [], [GROUND.replace("offset: 0.0", "offset: -100.0")],
                  0.5)
        bodies = ""
        for name, m, x in (("m1", self.m1, -0.1), ("m2", self.m2, 0.1)):
            bodies += ("  - name: %s\n    joint: {type: prismatic, axis: [0, 0, 1], "
                       "origin: {position: [%s, 0, 0]}}\n    mass: %s\n"
                       "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n" % (name, fmt(x), fmt(m)))
        t = t.replace("bodies:\n", "bodies:\n" + bodies, 1)
        return t + ("tendons:\n"
                    "  - {name: cable, type: spatial, limits: [null, 2.2], path: [{body: m1}, "
                    "{body: world, point: [-0.1, 0, 1]}, {body: world, point: [0.1, 0, 1]}, "
                    "{body: m2}]}\n")

    def checks(self, run, cfg):
        z1 = float(run.q[-1, 0])
        t = float(run.t[-1])
        drop = abs(z1 + 0.5 * self.a * t * t) / (0.5 * self.a * t * t)
        half = run.t >= 0.5 * t
        tension = float(-run.tendon_limit_force[half, 0].mean())
        over = float(max(0.0, (run.tendon_length[:, 0] - 2.2).max()))
        return [Check("drop", drop, 1e-3, "rel", "z1 %.6f m against %.6f m" % (z1, -0.5 * self.a * t * t)),
                Check("tension", abs(tension - self.T) / self.T, 1e-3, "rel",
                      "mean tension %.5f N against %.5f N" % (tension, self.T)),
                Check("stretch", over, 1e-3, "m", "the cable's largest length over 2.2 m")]


class RestitutionBounce(Case):
    """a sphere with restitution e dropped on a rigid floor bounces to e^2 h"""
    name = "restitution_bounce"
    group = "drop"
    duration = 1.2
    r, z0, e = 0.1, 1.1, 0.8

    def __init__(self):
        self.reference = ("sphere (r 0.1 m) with restitution 0.8 dropped from 1 m onto a rigid "
                          "floor: the apex after the first bounce at e^2 h = 0.64 m above the "
                          "contact; check: within 1 %% of h")

    def applicable(self, cfg):
        if cfg.k() != math.inf:
            return ("restitution applies to contacts the step does not resolve; a compliant one "
                    "keeps its spring-damper")
        return None

    def scene(self, cfg):
        b = body("ball", 1.0, [0, 0, self.z0, 1, 0, 0, 0],
                 geoms=["shape: sphere, radius: 0.1, restitution: %s" % fmt(self.e)])
        return scene(self.name, cfg, self.duration, [b], [GROUND], 0.5)

    def checks(self, run, cfg):
        apex = first_apex(run)
        h = self.z0 - self.r
        err = math.inf if apex is None else abs(apex - self.r - self.e ** 2 * h) / h
        return [Check("apex", err, 1e-2, "rel",
                      "apex %s m above the floor against %.4f m"
                      % ("none" if apex is None else "%.5f" % (apex - self.r), self.e ** 2 * h))]


class FrictionTorque(Case):
    """a sphere (r 0.1 m, 1 kg) on the floor with a torsional or rolling
    friction coefficient: its velocity v[index] falls at the closed-form
    rate after the contact's settling; the LCP refuses the keys"""
    group = "torsion and rolling"
    r, mu = 0.1, 0.5

    def applicable(self, cfg):
        if cfg.model == "lcp":
            return "the LCP's polyhedral cone has no %s edges (refused)" % self.edges
        return None

    def scene(self, cfg):
        b = body("ball", 1.0, [0, 0, self.r - sink(cfg, G, 1), 1, 0, 0, 0], self.v_init,
                 ["shape: sphere, radius: %s, %s: %s" % (fmt(self.r), self.key, fmt(self.coef))])
        return scene(self.name, cfg, self.duration, [b], [GROUND], self.mu)

    def checks(self, run, cfg):
        k = int(np.searchsorted(run.t, self.t0 - 1e-9))
        a = (run.v[k, self.index] - run.v[-1, self.index]) / (run.t[-1] - run.t[k])
        return [Check("deceleration", abs(a - self.rate) / self.rate, 1e-2, "rel",
                      "%.6f %s against %.6f" % (a, self.unit, self.rate))]


class TorsionalSpin(FrictionTorque):
    """spun about the normal on its contact point: only the torsional
    friction turns it down, I dw/dt = -mu_s m g"""
    name = "torsional_spin"
    duration, t0, index, unit = 0.3, 0.1, 5, "rad/s^2"
    key, coef, edges, w0 = "torsional_friction", 0.01, "torsional", 10.0
    v_init = [0, 0, 0, 0, 0, w0]

    def __init__(self):
        self.rate = self.coef * G / (0.4 * self.r ** 2)
        self.reference = ("sphere (r 0.1 m, 1 kg) spun at 10 rad/s about the normal, mu 0.5, "
                          "torsional_friction 0.01 m: decelerates at mu_s m g / I = %.4f rad/s^2 "
                          "(stop at %.4f s); check: the deceleration from 0.1 to 0.3 s within 1 %% (the "
                          "first steps are the contact's settling: lagged bounds a new contact's "
                          "friction by the impulse of its state)"
                          % (self.rate, self.w0 / self.rate))


class RollingResistance(FrictionTorque):
    """rolling: the rolling torque and the sliding friction share the
    contact's cone"""
    name = "rolling_resistance"
    duration, t0, index, unit = 1.0, 0.2, 0, "m/s^2"
    key, coef, edges, v0 = "rolling_friction", 0.002, "rolling", 1.0
    v_init = [v0, 0, 0, 0, v0 / 0.1, 0]

    def __init__(self):
        rho = 5 * self.coef / (7 * self.r * self.mu)
        self.rate = 5 * self.coef * G / (7 * self.r) / math.sqrt(1 + rho * rho)
        self.reference = ("sphere (r 0.1 m, 1 kg) rolling at 1 m/s, mu 0.5, rolling_friction "
                          "0.002 m: decelerates at 5 mu_r g / (7 r) / sqrt(1 + rho^2) = %.6f m/s^2, "
                          "rho = 5 mu_r / (7 r mu) the slip the shared cone needs; check: the "
                          "deceleration from 0.2 to 1 s within 1 %%" % self.rate)


CASES = ([Slide("flat", (0.2, 0.2, 0.1), False), Slide("flat", (0.2, 0.2, 0.1), True),
          Slide("cube", (0.2, 0.2, 0.2), False), Slide("cube", (0.2, 0.2, 0.2), True),
          Slide("tall", (0.1, 0.1, 0.25), False), Slide("tall", (0.1, 0.1, 0.25), True),
          InclineBox(0.5), InclineBox(0.2), TallIncline(True), TallIncline(False),
          Roll("sphere"), Roll("cylinder"), Bowling(), FrictionlessSpin(), FreeFlight(),
          Drop("sphere"), Drop("box"), Bounce(),
          Stack("equal", [1.0, 1.0, 1.0]), Stack("1_100", [1.0, 100.0]),
          Stack("1_10000", [1.0, 10000.0]),
          RodImpact(False), RodImpact(True),
          RigidPendulum(), Atwood(), RestitutionBounce(), TorsionalSpin(), RollingResistance()])


# ---------------------------------------------------------------------------
# running

def run_cell(simc, outdir, case, cfg, sets=()):
    why = case.applicable(cfg)
    if why:
        return {"case": case.name, "group": case.group, **cfg.fields(), "key": cfg.key(),
                "exit": "",
                "wall_s": "0", "passed": "na", "checks": "not applicable: " + why, "worst": ""}
    d = os.path.join(outdir, "runs", case.name)
    os.makedirs(d, exist_ok=True)
    tag = cfg.key().replace("/", "_")
    yml = os.path.join(d, tag + ".yaml")
    h5 = os.path.join(d, tag + ".h5")
    with open(yml, "w") as f:
        f.write(case.scene(cfg))
    t0 = time.time()
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    extra = [a for kv in sets for a in ("--set", kv)]
    try:
        p = subprocess.run([simc, yml, "-o", h5, "--quiet", "--force"] + extra, capture_output=True,
                           text=True, env=env)
    except OSError as e:
        return {"case": case.name, "group": case.group, **cfg.fields(), "key": cfg.key(),
                "exit": -1,
                "wall_s": "0", "passed": 0, "checks": "could not run %s: %s" % (simc, e),
                "worst": "inf"}
    wall = time.time() - t0
    row = {"case": case.name, "group": case.group, **cfg.fields(), "key": cfg.key(),
           "exit": p.returncode,
           "wall_s": "%.3f" % wall}
    if p.returncode != 0:
        msg = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
        row.update(passed=0, checks="run failed: " + msg, worst="inf")
        return row
    try:
        run = simc_h5.Run(h5)
        if hasattr(case, "companion"):
            cy, ch = yml[:-5] + "_companion.yaml", h5[:-3] + "_companion.h5"
            with open(cy, "w") as f:
                f.write(case.companion(cfg))
            pc = subprocess.run([simc, cy, "-o", ch, "--quiet", "--force"] + extra,
                                capture_output=True, text=True, env=env)
            free = simc_h5.Run(ch) if pc.returncode == 0 else None
            if not os.environ.get("SIMC_VALIDATE_KEEP"):
                os.remove(ch) if os.path.exists(ch) else None
            checks = case.checks(run, cfg, free)
        else:
            checks = case.checks(run, cfg)
        row["scheme_ran"] = run.attrs.get("scheme", "")
        row["model_ran"] = run.attrs.get("contact_model", "")
        row["iter_mean"] = "%.3g" % run.iterations[1:].mean() if len(run.iterations) > 1 else ""
        if cfg.accuracy is not None:
            n = run.attrs.get("substeps")
            row["substeps"] = "" if n is None else "%d" % n
    except Exception as e:  # a reader or reference failure is a failed cell, said so
        row.update(passed=0, checks="evaluation failed: %r" % e, worst="inf")
        return row
    finally:
        if not os.environ.get("SIMC_VALIDATE_KEEP"):
            try:
                os.remove(h5)
            except OSError:
                pass
    row["passed"] = int(all(c.ok() for c in checks))
    row["checks"] = "; ".join(c.text() for c in checks)
    row["worst"] = "%.3g" % max((c.value / c.tol if c.value is not None and c.tol > 0 else math.inf)
                                for c in checks)
    for c in checks:
        row["m_" + c.name.replace(" ", "_")] = "%.6g" % c.value if c.value is not None else ""
    return row


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default="out/validate")
    ap.add_argument("--simc", default="bin/simc")
    ap.add_argument("--cases", default="")
    ap.add_argument("--only", default="")
    ap.add_argument("--report", default="")
    ap.add_argument("--verbose", action="store_true", help="print every cell")
    ap.add_argument("--tap", action="store_true", help="a PASS or FAIL line per cell")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a scene key set in every run (repeatable)")
    ap.add_argument("--accuracy-axis", action="store_true",
                    help="simc's defaults under error control at ACCURACIES instead")
    a = ap.parse_args(argv)
    cases = CASES
    if a.cases:
        want = a.cases.split(",")
        unknown = [w for w in want if w not in [c.name for c in CASES]]
        if unknown:
            print("validate: unknown case(s) %s (known: %s)"
                  % (", ".join(unknown), ", ".join(c.name for c in CASES)), file=sys.stderr)
            return 2
        cases = [c for c in CASES if c.name in want]
    configs = all_configs()
    if a.accuracy_axis:
        configs = accuracy_configs()
    if a.fast:
        configs = [c for c in configs if c.is_default() and c.dt in (1e-3, 1e-2)]
    if a.only:
        for kv in a.only.split(","):
            k, _, v = kv.partition("=")
            configs = [c for c in configs if c.fields().get(k) == v]
    jobs = [(case, cfg) for case in cases for cfg in configs]
    if a.fast:
        names = {c.name: c for c in cases}
        jobs += [(names[n], Config(s, m, k, dt)) for n, s, m, k, dt in FAST_EXTRA if n in names]
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    rows = []
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(run_cell, a.simc, a.out, case, cfg, a.set) for case, cfg in jobs]
        for i, fu in enumerate(cf.as_completed(futs)):
            rows.append(fu.result())
            if sys.stderr.isatty():
                print("\r%d / %d cells" % (i + 1, len(futs)), end="", file=sys.stderr)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    wall = time.time() - t0
    order = {(c.name, g.key()): i for i, (c, g) in enumerate(jobs)}
    rows.sort(key=lambda r: order[(r["case"], r["key"])])
    fields = ["case", "group", "scheme", "model", "stiffness", "dt", "accuracy", "passed", "worst", "exit",
              "scheme_ran", "model_ran", "iter_mean", "substeps", "wall_s", "checks"]
    extra = sorted({k for r in rows for k in r if k.startswith("m_")})
    with open(os.path.join(a.out, "validation.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields + extra, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    live = [r for r in rows if r["passed"] != "na"]
    npass = sum(r["passed"] for r in live)
    dflt = [r for r in live if r["scheme"] == DEFAULT and r["model"] == DEFAULT
            and r["dt"] in ("0.001", "0.01") and not r["accuracy"]]
    dfail = [r for r in dflt if not r["passed"]]
    if a.accuracy_axis:
        print("validate: the accuracy axis, %d cells (%d not applicable), %d within their "
              "case's tolerance, %d not (%.0f s); a report, not a gate"
              % (len(rows), len(rows) - len(live), npass, len(live) - npass, wall))
    else:
        print("validate: %d cells (%d not applicable), %d passed, %d failed (%.0f s); simc's "
              "defaults at 1 and 10 ms: %d of %d passed"
              % (len(rows), len(rows) - len(live), npass, len(live) - npass, wall,
                 len(dflt) - len(dfail), len(dflt)))
    if a.tap:  # one PASS / FAIL line per applicable cell (test/run_tests.sh counts them)
        for r in live:
            print("%s validate:%s[%s/%s/%s/%s] %s" % ("PASS" if r["passed"] else "FAIL", r["case"],
                                                       r["scheme"], r["model"], r["stiffness"],
                                                       r["dt"], "" if r["passed"] else r["checks"]))
    for r in (rows if a.verbose else dfail):
        verdict = "n/a " if r["passed"] == "na" else "pass" if r["passed"] else "FAIL"
        print("  %s %s [%s %s k=%s dt=%s]: %s" % (verdict, r["case"],
                                                 r["scheme"], r["model"], r["stiffness"], r["dt"],
                                                 r["checks"]))
    if a.report:
        import shutil
        import validate_report
        command = " ".join(["tools/results/validate.py"] + argv)
        # the CSV beside the report: validation/validation.csv, validation/accuracy.csv
        # for validation_accuracy.md, validation/accuracy_X.csv for validation_accuracy_X.md
        stem = os.path.splitext(os.path.basename(a.report))[0]
        csv_name = (stem[len("validation_"):] if stem.startswith("validation_accuracy")
                    else "accuracy" if a.accuracy_axis else "validation") + ".csv"
        if a.accuracy_axis:
            validate_report.write_accuracy(a.report, rows, cases, ACCURACIES, ACCURACY_STEP,
                                           wall, command, csv_name, a.set)
        else:
            validate_report.write(a.report, rows, cases, a.out, wall, command)
        shutil.copy(os.path.join(a.out, "validation.csv"),
                    os.path.join(os.path.dirname(os.path.abspath(a.report)), "validation", csv_name))
    return 0 if not dfail else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
