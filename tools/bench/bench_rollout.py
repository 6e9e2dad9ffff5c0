#!/usr/bin/python3
"""Rollout throughput of the Python package against the command line.

For each scene, in one run (medians of --repeat alternated trials):
  cli        the command line over the same T steps (its summary line's
             steps and wall time: load and HDF5 output included)
  step(n)    m.step(d, T) from Python: one call, the library's loop
  loop       a Python loop setting d.ctrl and calling m.step(d) every step
  rollout N  simc.rollout(m, d, ctrl) with N rollouts of T steps, on 1 and
             on 2 threads (simc_rollout: the batch runs in the library)
in steps per second (rollouts x steps / wall time).  Writes a Markdown table
with the command that made it.

  /usr/bin/python3 tools/bench/bench_rollout.py --simc bin/simc --out results/rollout.md
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("SIMC_LIB", os.path.join(ROOT, "build", "release", "libsimc.so.0.1"))
import numpy as np  # noqa: E402

import simc  # noqa: E402

SCENES = [("test/gripper_hold.yaml", "two fingers on motors hold a box (3 bodies, 8 contacts)"),
          ("python/examples/pendulum.yaml", "a pendulum on a motor (1 dof, no contact)"),
          ("scenes/clutter8.yaml", "8 bodies dropped into a bin (48 dofs, contact)")]


def cli_rate(simc_bin, scene, tmp, duration):
    out = subprocess.run([simc_bin, scene, "-o", os.path.join(tmp, "cli.h5"),
                          "--set", "time.duration=%.17g" % duration],
                         capture_output=True, text=True, check=True).stderr
    line = [ln for ln in out.splitlines() if ln.startswith("simc:")][-1]
    steps = int(re.search(r": (\d+) steps \(t =", line).group(1))
    wall = float(re.search(r"in ([0-9.eE+-]+) s wall", line).group(1))
    return steps / wall


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--simc", default=os.path.join(ROOT, "bin", "simc"))
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "rollout.md"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rollouts", type=int, default=16)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--quick", action="store_true", help="a smoke run: 1 repeat, 4 rollouts of 50 steps")
    a = ap.parse_args()
    if a.quick:
        a.repeat, a.rollouts, a.steps = 1, 4, 50
    n, T = a.rollouts, a.steps
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for rel, what in SCENES:
            scene = os.path.join(ROOT, rel)
            m = simc.load(scene)
            d = m.data()
            rng = np.random.default_rng(1)
            ctrl = rng.uniform(-1.0, 3.0, size=(n, T, m.nu))
            rate = {k: [] for k in ("cli", "step", "loop", "r1", "r2")}
            for _ in range(a.repeat):
                rate["cli"].append(cli_rate(a.simc, scene, tmp, T * m.timestep))
                e = d.copy()
                rate["step"].append(T / timed(lambda: m.step(e, T)))

                def loop():
                    x = d.copy()
                    for t in range(T):
                        x.ctrl[:] = ctrl[0, t]
                        m.step(x)
                rate["loop"].append(T / timed(loop))
                rate["r1"].append(n * T / timed(lambda: simc.rollout(m, d, ctrl, threads=1)))
                rate["r2"].append(n * T / timed(lambda: simc.rollout(m, d, ctrl, threads=2)))
            med = {k: statistics.median(v) for k, v in rate.items()}
            rows.append((rel, what, m.nv, med))
            print("%s: cli %.0f, step(n) %.0f, loop %.0f, rollout 1 thread %.0f, 2 threads %.0f steps/s"
                  % (rel, med["cli"], med["step"], med["loop"], med["r1"], med["r2"]), file=sys.stderr)
    rev = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True,
                         text=True).stdout.strip()
    cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")), "?")
    with open(a.out, "w") as f:
        f.write("# Rollout throughput: the Python package against the command line\n\n")
        f.write("Made by `/usr/bin/python3 tools/bench/bench_rollout.py --simc bin/simc --out %s`"
                " (part of `make bench`) at %s on %s, %s, %d CPUs, load average %s.\n\n"
                % (a.out, rev, time.strftime("%Y-%m-%d", time.gmtime()), cpu,
                   os.cpu_count(), open("/proc/loadavg").read().split()[0]))
        f.write("Steps per second over the first %d steps of each scene from its initial state, "
                "medians of %d alternated trials.  *cli*: the command line over those steps (its load "
                "and HDF5 output included); *step(n)*: `m.step(d, %d)`, one call; "
                "*loop*: a Python loop setting `d.ctrl` and calling `m.step(d)` each step; *rollout*: "
                "`simc.rollout(m, d, ctrl)` with %d rollouts of %d steps (a control per actuator and "
                "step), on 1 and 2 threads.\n\n" % (T, a.repeat, T, n, T))
        f.write("| scene | nv | cli | step(n) | loop | rollout, 1 thread | rollout, 2 threads | "
                "2 threads / 1 |\n|---|---|---|---|---|---|---|---|\n")
        for rel, what, nv, r in rows:
            f.write("| `%s` (%s) | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f |\n"
                    % (rel, what, nv, r["cli"], r["step"], r["loop"], r["r1"], r["r2"], r["r2"] / r["r1"]))
        f.write("\n*loop* pays Python's cost every step (the control copy and the call through "
                "ctypes, under the GIL).  `simc.rollout` runs the whole batch in the library "
                "(`simc_rollout`): one call, the GIL released, each thread stepping a data object "
                "of its own whose contact solves stay on that thread.  *step(n)* runs with the "
                "model's own contact threads.\n")


if __name__ == "__main__":
    main()
