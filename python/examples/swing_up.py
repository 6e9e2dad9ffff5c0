#!/usr/bin/python3
"""Swing a torque-limited pendulum up and balance it, the controller in
Python and the physics in simc (python/examples/pendulum.yaml).

At 100 Hz the controller reads the state and sets the motor's input:
energy pumping far from the top (the torque that raises the energy
E = 1/2 I w^2 + m g l (1 - cos q) towards the upright's 2 m g l, at most
2 N m), and a PD law within 0.4 rad of the top.  Prints when it is upright
and exits 0 when the pendulum stays within 0.05 rad of upright over the
last 2 s of the 10 s run.

    /usr/bin/python3 python/examples/swing_up.py [scene.yaml]
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import simc  # noqa: E402

M, L, G, UMAX = 1.0, 0.5, 9.81, 2.0
I = M * L * L + 1.0e-3  # about the pivot
E_TOP = 2 * M * G * L


def control(q, w):
    """the motor's torque for angle q (0 hanging, pi upright) and rate w"""
    err = math.remainder(q - math.pi, 2 * math.pi)
    if abs(err) < 0.4:
        return float(np.clip(-40.0 * err - 6.0 * w, -UMAX, UMAX))
    e = 0.5 * I * w * w + M * G * L * (1 - math.cos(q))
    # dE/dt = u w: push along w while short of the top's energy
    s = 1.0 if w >= 0 else -1.0
    if abs(w) < 1e-3:
        s = 1.0  # at rest at the bottom: any push starts the swing
    return float(np.clip(5.0 * (E_TOP - e) * s, -UMAX, UMAX))


def main():
    scene = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "pendulum.yaml")
    m = simc.load(scene)
    d = m.data()
    every = int(round(0.01 / m.timestep))  # 100 Hz
    steps = int(round(m.duration / m.timestep))
    up_at, worst_last = None, 0.0
    for k in range(0, steps, every):
        q, w = d.q[0], d.v[0]
        d.ctrl[0] = control(q, w)
        m.step(d, every)
        err = abs(math.remainder(d.q[0] - math.pi, 2 * math.pi))
        if up_at is None and err < 0.05:
            up_at = d.time
        if d.time >= m.duration - 2.0:
            worst_last = max(worst_last, err)
    print("upright (within 0.05 rad) first at t = %s s; largest error over the last 2 s %.3g rad"
          % ("%.2f" % up_at if up_at is not None else "never", worst_last))
    return 0 if up_at is not None and worst_last < 0.05 else 1


if __name__ == "__main__":
    sys.exit(main())
