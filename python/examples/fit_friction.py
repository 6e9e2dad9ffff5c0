#!/usr/bin/python3
"""Recover a friction coefficient from a recorded slide by rollouts.

The record: the command line's run of scenes/box_slide.yaml with an
unknown friction (here 0.37, the truth the fit does not read), its box's x
over time in an HDF5 file.  The fit: rollouts of the same scene through
the library at trial frictions, the squared difference of x(t) at the
recorded times minimized by golden-section search over mu in [0.05, 1].
Exits 0 when the fitted mu is within 1 % of the truth.

    /usr/bin/python3 python/examples/fit_friction.py
"""
import math
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import simc  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCENE = os.path.join(ROOT, "scenes", "box_slide.yaml")
SIMC = os.environ.get("SIMC_BIN", os.path.join(ROOT, "bin", "simc"))
TRUE_MU = 0.37


def record(path):
    subprocess.run([SIMC, SCENE, "-o", path, "--quiet", "--set", "output.every=10",
                    "--set", "contact.defaults.friction=%r" % TRUE_MU], check=True)
    with h5py.File(path, "r") as f:
        return f["time"][:], f["q"][:, 0]


def rollout(mu, times):
    m = simc.load(SCENE, ["contact.defaults.friction=%r" % mu])
    d = m.data()
    xs = []
    for t in times:
        n = int(round((t - d.time) / m.timestep))
        if n:
            m.step(d, n)
        xs.append(d.q[0])
    return np.array(xs)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        times, x = record(os.path.join(tmp, "slide.h5"))
    cost = lambda mu: float(np.sum((rollout(mu, times) - x) ** 2))  # noqa: E731
    a, b = 0.05, 1.0
    r = (math.sqrt(5) - 1) / 2
    c, d = b - r * (b - a), a + r * (b - a)
    fc, fd = cost(c), cost(d)
    n = 2
    while b - a > 1e-5:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - r * (b - a)
            fc = cost(c)
        else:
            a, c, fc = c, d, fd
            d = a + r * (b - a)
            fd = cost(d)
        n += 1
    mu = (a + b) / 2
    err = abs(mu - TRUE_MU) / TRUE_MU
    print("fitted friction %.6f against %.2f (%.2g relative) from %d rollouts of %d samples"
          % (mu, TRUE_MU, err, n, len(times)))
    return 0 if err < 0.01 else 1


if __name__ == "__main__":
    sys.exit(main())
