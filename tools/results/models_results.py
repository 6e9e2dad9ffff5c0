#!/usr/bin/python3
"""models_results.py --out DIR [--simc PATH] [--jobs N]

The contact models side by side: sap, similar, lagged (simc --solver newton
--set contact.model=M) and lcp (--solver lcp).  Writes DIR/models.csv
(one row per run), DIR/lift.png, DIR/threshold.png and DIR.md next to DIR
(the results page, e.g. results/models.md; the commands are listed in it).  Four experiments:

  lift     scenes/sphere_slide.yaml (solid sphere, r = 0.1 m, rigid ground,
           midpoint, dt = 1 ms) launched at v0 in {1, 3, 5} m/s with
           mu in {0.1, 0.2, 0.5}: the largest height above the resting
           height while it slides (before the slip speed v - r w reaches 0),
           the share of those steps without a contact, the roll onset
           against 2 v0 / (7 mu g) and the final speed against 5 v0 / 7;
  threshold scenes/box_incline_stick.yaml (incline 0.3 rad, implicit Euler)
           at mu = f tan(0.3), f in {0.9, 0.97, 0.99, 1.01, 1.03, 1.1}:
           the downhill acceleration fitted over 0.1-0.5 s against
           g (sin a - mu cos a)+;
  clutter  scenes/clutter8.yaml (1 s) and test/clutter64.yaml (0.3 s; no lcp:
           its dense LCP takes minutes): mean and max contact iterations
           per step and mean ms per step (/solver/wall_time).

Run with /usr/bin/python3 (python3-h5py python3-numpy python3-matplotlib)."""

import argparse
import concurrent.futures as cf
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
# simc_h5 is a user tool in tools/, this folder's parent
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import simc_h5  # noqa: E402

import numpy as np  # noqa: E402
import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MODELS = ("sap", "similar", "lagged", "lcp")
G = 9.81
ALPHA = 0.3
R = 0.1
STYLE = {"sap": ("C0", "o"), "similar": ("C2", "s"), "lagged": ("C1", "^"), "lcp": ("C3", "x")}


def model_args(m):
    return ["--solver", "lcp"] if m == "lcp" else ["--solver", "newton", "--set",
                                                   "contact.model=" + m]


class Runner:
    def __init__(self, simc, jobs):
        self.simc, self.jobs = simc, jobs
        self.tmp = tempfile.mkdtemp(prefix="simc_models_")
        self.n = 0

    def one(self, scene, args):
        self.n += 1
        out = os.path.join(self.tmp, "run%04d.h5" % self.n)
        cmd = [self.simc, scene, "-o", out, "--quiet"] + args
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.stderr.write("simc failed (%d): %s\n%s\n" % (p.returncode, " ".join(cmd), p.stderr))
        return out, p.returncode

    def many(self, jobs):
        with cf.ThreadPoolExecutor(self.jobs) as ex:
            return list(ex.map(lambda j: self.one(*j), jobs))

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def slide_metrics(h5, v0, mu):
    run = simc_h5.Run(h5)
    z, vx, wy = run.q[:, 2], run.v[:, 0], run.v[:, 4]
    slip = vx - R * wy
    cross = np.nonzero((slip[:-1] > 0) & (slip[1:] <= 1e-6))[0]
    if len(cross):
        i = int(cross[0])
        t_roll = run.t[i] + (run.t[i + 1] - run.t[i]) * slip[i] / (slip[i] - slip[i + 1])
        end = i + 1
    else:
        t_roll, end = float("nan"), len(z)
    zrest = z[-1]
    return dict(lift_m=float((z[:end] - zrest).max()),
                no_contact=float(np.mean(run.count[:end] == 0)),
                t_roll_s=float(t_roll), t_roll_ref_s=2 * v0 / (7 * mu * G),
                v_final=float(vx[-1]), v_final_ref=5 * v0 / 7,
                iterations=float(run.iterations[1:].mean()), status=run.attrs.get("status", ""))


def accel(h5):
    run = simc_h5.Run(h5)
    vs = run.v[:, 0] * math.cos(ALPHA) - run.v[:, 2] * math.sin(ALPHA)
    m = (run.t >= 0.1) & (run.t <= 0.5)
    return float(np.polyfit(run.t[m], vs[m], 1)[0]), float(np.mean(run.count[m] == 0))


def clutter_metrics(h5):
    run = simc_h5.Run(h5)
    its, wall = run.iterations[1:], run.wall_time[1:]
    return dict(mean_its=float(its.mean()), max_its=int(its.max()),
                ms_per_step=1e3 * float(wall.mean()), failures=int(np.count_nonzero(run.status[1:])),
                status=run.attrs.get("status", ""))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    ap.add_argument("--out", required=True)
    ap.add_argument("--simc", default=os.path.relpath(os.path.join(ROOT, os.environ.get("BIN", "bin"), "simc")))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    r = Runner(a.simc, a.jobs)
    rows = []
    try:
        # lift and slide-to-roll
        speeds, mus = (1.0, 3.0, 5.0), (0.1, 0.2, 0.5)
        jobs, keys = [], []
        for m in MODELS:
            for v0 in speeds:
                for mu in mus:
                    dur = 1.3 * 2 * v0 / (7 * mu * G) + 0.05
                    jobs.append((os.path.join(ROOT, "scenes/sphere_slide.yaml"), model_args(m) + [
                        "--set", "bodies.ball.initial.v=[%g,0,0,0,0,0]" % v0,
                        "--set", "contact.defaults.friction=%g" % mu, "--duration", "%.3f" % dur]))
                    keys.append((m, v0, mu))
        lift = {}
        for (m, v0, mu), (h5, rc) in zip(keys, r.many(jobs)):
            x = slide_metrics(h5, v0, mu) if rc == 0 else {}
            lift[(m, v0, mu)] = x
            rows.append(dict(experiment="lift", model=m, v0=v0, mu=mu, **x))
        # threshold
        fs = (0.9, 0.97, 0.99, 1.01, 1.03, 1.1)
        jobs, keys = [], []
        for m in MODELS:
            for f in fs:
                mu = f * math.tan(ALPHA)
                jobs.append((os.path.join(ROOT, "scenes/box_incline_stick.yaml"), model_args(m) + [
                    "--set", "contact.defaults.friction=%.10g" % mu, "--duration", "0.5"]))
                keys.append((m, f, mu))
        thr = {}
        for (m, f, mu), (h5, rc) in zip(keys, r.many(jobs)):
            acc, nc = accel(h5) if rc == 0 else (float("nan"), float("nan"))
            ref = max(0.0, G * (math.sin(ALPHA) - mu * math.cos(ALPHA)))
            thr[(m, f)] = (acc, ref, nc)
            rows.append(dict(experiment="threshold", model=m, mu=mu, f=f, accel=acc, accel_ref=ref,
                             no_contact=nc))
        # clutter: one run at a time (timing)
        clut = {}
        for name, path, dur, models in (("clutter8", "scenes/clutter8.yaml", 1.0, MODELS),
                                        ("clutter64", "test/clutter64.yaml", 0.3, MODELS[:3])):
            for m in models:
                h5, rc = r.one(os.path.join(ROOT, path), model_args(m) + [
                    "--duration", str(dur), "--set", "output.every=1"])
                x = clutter_metrics(h5) if rc == 0 else {}
                clut[(name, m)] = x
                rows.append(dict(experiment=name, model=m, **x))
    finally:
        r.close()

    keys = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    with open(os.path.join(a.out, "models.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)

    # figures
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.4), sharey=True)
    for ax, mu in zip(axes, mus):
        for m in MODELS:
            y = [max(lift[(m, v0, mu)].get("lift_m", float("nan")), 1e-9) for v0 in speeds]
            ax.plot(speeds, y, marker=STYLE[m][1], color=STYLE[m][0], label=m)
        ax.set_yscale("log")
        ax.axhline(1e-4, color="k", lw=0.6, ls=":")
        ax.set_title("μ = %g" % mu, fontsize=10)
        ax.set_xlabel("launch speed v0 (m/s)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("max lift while sliding (m, floor 1e-9)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "lift.png"), dpi=90)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for m in MODELS:
        ax.plot(fs, [thr[(m, f)][0] for f in fs], marker=STYLE[m][1], color=STYLE[m][0], ls="",
                label=m, mfc="none")
    ff = np.linspace(fs[0], fs[-1], 200)
    ax.plot(ff, [max(0, G * (math.sin(ALPHA) - f * math.tan(ALPHA) * math.cos(ALPHA))) for f in ff],
            "k-", lw=0.8, label="g (sin α − μ cos α)₊")
    ax.set_xlabel("μ / tan α")
    ax.set_ylabel("downhill acceleration (m/s²)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "threshold.png"), dpi=90)
    plt.close(fig)

    # page
    page = os.path.abspath(a.out).rstrip("/") + ".md"
    rel = os.path.basename(os.path.abspath(a.out).rstrip("/"))
    L = ["# Contact models: sap, similar, lagged and lcp", "",
         "Made by `/usr/bin/python3 tools/results/models_results.py --out %s` (the simc command lines "
         "are in the tool's docstring and below); raw numbers in [models.csv](%s/models.csv). "
         "sap, similar and lagged are `--solver newton --set contact.model=M`, lcp is "
         "`--solver lcp` (8-edge cone, Lemke). Analytic references: rigid Coulomb contact."
         % (os.path.relpath(a.out, ROOT), rel), ""]
    def worst(m, key):
        vals = [x[key] for (mm, _, _), x in lift.items() if mm == m and x and np.isfinite(x[key])]
        return max(vals) if vals else float("nan")

    def roll_err(m):
        e = [abs(x["t_roll_s"] - x["t_roll_ref_s"]) / x["t_roll_ref_s"]
             for (mm, _, _), x in lift.items() if mm == m and x]
        fin = [v for v in e if np.isfinite(v)]
        return (max(fin) if fin else float("nan")), len(e) - len(fin)

    L += ["Read off the tables below (speeds 1–5 m/s, μ 0.1–0.5):", ""]
    for m in MODELS:
        e, nroll = roll_err(m)
        L.append("- **%s**: largest lift while sliding %.2g m, largest share of sliding steps "
                 "without contact %.0f%%, largest roll-onset error %s%s." % (
                     m, worst(m, "lift_m"), 100 * worst(m, "no_contact"),
                     "%.2f%%" % (100 * e) if np.isfinite(e) else "-",
                     (", %d of 9 runs never rolled within the run" % nroll) if nroll else ""))
    L += ["", "lagged's onset error is largest at short slides (v0 = 1 m/s, μ = 0.5: "
          "58 ms): its first contact step has no friction (n0 = 0 when the sphere starts "
          "exactly touching), one step of 1 ms. The default is lagged for these numbers "
          "(README, \"Contact models\").", ""]
    L += ["## Lift of a sliding sphere and slide-to-roll", "",
          "`simc scenes/sphere_slide.yaml --set bodies.ball.initial.v=[v0,0,0,0,0,0] --set "
          "contact.defaults.friction=mu --duration 1.3*2v0/(7 mu g)+0.05` (rigid ground, "
          "midpoint, dt = 1 ms). Lift: largest height above the final (rolling) height before "
          "the slip speed v − r ω first reaches 0; off: share of those steps without a contact; "
          "roll: onset error against 2v0/(7μg); v∞: final speed error against 5v0/7.", "",
          "![lift](%s/lift.png)" % rel, "",
          "| v0 (m/s) | μ | " + " | ".join("%s lift (m) / off / roll / v∞" % m for m in MODELS) + " |",
          "|---|---|" + "---|" * len(MODELS)]
    for v0 in speeds:
        for mu in mus:
            cells = []
            for m in MODELS:
                x = lift[(m, v0, mu)]
                if not x:
                    cells.append("failed")
                    continue
                cells.append("%.2g / %.0f%% / %s / %+.3f%%" % (
                    x["lift_m"], 100 * x["no_contact"],
                    ("%+.2f%%" % (100 * (x["t_roll_s"] - x["t_roll_ref_s"]) / x["t_roll_ref_s"]))
                    if np.isfinite(x["t_roll_s"]) else "no roll",
                    100 * (x["v_final"] - x["v_final_ref"]) / x["v_final_ref"]))
            L.append("| %g | %g | %s |" % (v0, mu, " | ".join(cells)))
    L += ["", "## Incline threshold", "",
          "`simc scenes/box_incline_stick.yaml --set contact.defaults.friction=f*tan(0.3) "
          "--duration 0.5` (box on a 0.3 rad rigid incline, implicit Euler, k = 1e6 N/m): "
          "downhill acceleration fitted over 0.1–0.5 s (m/s²) against g (sin α − μ cos α)₊; "
          "off: share of steps without a contact.", "",
          "![threshold](%s/threshold.png)" % rel, "",
          "| μ / tan α | reference | " + " | ".join(MODELS) + " |",
          "|---|---|" + "---|" * len(MODELS)]
    for f in fs:
        ref = thr[(MODELS[0], f)][1]
        L.append("| %g | %.5f | %s |" % (f, ref, " | ".join(
            "%.5f (off %.0f%%)" % (thr[(m, f)][0], 100 * thr[(m, f)][2]) for m in MODELS)))
    L += ["", "## Cost on clutter", "",
          "`simc scenes/clutter8.yaml --duration 1 --set output.every=1` and "
          "`simc test/clutter64.yaml --duration 0.3 --set output.every=1`, one run at a time "
          "on a shared 2-core machine (ms/step to ±30 %): contact iterations per step (Newton "
          "iterations; Lemke pivots for lcp) and ms per step (the whole step).", "",
          "| scene | model | mean its | max its | ms/step | failed solves |", "|---|---|---|---|---|---|"]
    for (name, m), x in clut.items():
        if x:
            L.append("| %s | %s | %.2f | %d | %.3g | %d |" % (name, m, x["mean_its"], x["max_its"],
                                                          x["ms_per_step"], x["failures"]))
        else:
            L.append("| %s | %s | failed | | | |" % (name, m))
    with open(page, "w") as f:
        f.write("\n".join(L) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
