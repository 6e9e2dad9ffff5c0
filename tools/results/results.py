#!/usr/bin/python3
"""results.py TOPIC --out DIR [--jobs N]: one experiment of `make results`.

TOPIC is one of
  order       observed order of accuracy of the four schemes, without contact
              (spring_damper vs its exact solution) and with contact
              (spring_cylinder vs a dt = 1e-4 run of the same scheme)
  energy      the rolling cylinder's energy under midpoint, implicit and
              symplectic Euler (10 s)
  stiction    SAP's stiction creep on box_incline_stick vs sigma and dt,
              against the sigma dt g estimate
  threshold   box_incline_slip's downhill acceleration swept over mu, both
              solvers, against g (sin a - mu cos a)+
  clutter     time per step vs N for both solvers (tools/gen_clutter.sh)
  comparison  aggregate DIR/<scene>/summary.json files written by
              tools/compare_report.py into DIR/../comparison.md

Each topic writes DIR/<topic>.png, DIR/<topic>.csv and DIR/summary.md (the
figure, two lines of interpretation computed from the measured numbers, and
the command).  simc runs go to a temporary directory and are deleted; N
(default 2, or $JOBS) runs go in parallel, except for the timing topic
(clutter), which runs one at a time.  Use /usr/bin/python3."""

import argparse
import concurrent.futures as cf
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in tools/
# simc_h5 (and compare_report) are user tools in tools/, this folder's parent
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import simc_h5  # noqa: E402

import numpy as np  # noqa: E402
import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SIMC = os.path.join(ROOT, os.environ.get("BIN", "bin"), "simc")
G = 9.81
SCHEMES = ("explicit_euler", "symplectic_euler", "implicit_euler", "midpoint")
ALPHA = 0.3                                      # incline angle of the box scenes
DOWNHILL = np.array([math.cos(ALPHA), 0.0, -math.sin(ALPHA)])


class Runner:
    """Runs simc into a scratch directory, N at a time."""

    def __init__(self, jobs):
        self.jobs = jobs
        self.tmp = tempfile.mkdtemp(prefix="simc_results_")
        self.n = 0

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def one(self, scene, args, timeout=None):
        self.n += 1
        out = os.path.join(self.tmp, "run%04d.h5" % self.n)
        cmd = [SIMC, scene, "-o", out, "--quiet"] + list(args)
        if "lcp" not in args and not any(str(x).startswith("contact.model=") for x in args):
            # these pages study the SAP model ("newton"); the default model is lagged
            cmd += ["--set", "contact.model=sap"]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=timeout)
            rc, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            rc, err = "timeout", ""
        wall = time.time() - t0
        if rc not in (0, "timeout"):
            sys.stderr.write("simc failed (%s): %s\n%s\n" % (rc, " ".join(cmd), err))
        return {"h5": out, "rc": rc, "wall": wall, "cmd": cmd}

    def many(self, jobs, timeout=None, parallel=True):
        """jobs: list of (scene, args); returns results in order."""
        if not parallel or self.jobs <= 1:
            return [self.one(s, a, timeout) for s, a in jobs]
        with cf.ThreadPoolExecutor(self.jobs) as ex:
            return list(ex.map(lambda j: self.one(j[0], j[1], timeout), jobs))


def scene(name):
    return os.path.join(ROOT, "scenes", name + ".yaml")


def slope(h, e):
    h, e = np.asarray(h, float), np.asarray(e, float)
    ok = (e > 0) & np.isfinite(e)
    if ok.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(h[ok]), np.log(e[ok]), 1)[0])


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow([("%.6g" % x) if isinstance(x, float) else x for x in r])


def write_summary(out, topic, title, lines, command, extra=""):
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("## %s\n\n" % title)
        f.write("![%s](%s/%s.png)\n\n" % (title, topic, topic))
        for ln in lines:
            f.write(ln + "  \n")
        f.write("\nData: [`%s/%s.csv`](%s/%s.csv).%s Made by:\n\n    %s\n\n"
                % (topic, topic, topic, topic, (" " + extra) if extra else "", command))


def savefig(fig, out, topic):
    fig.tight_layout()
    fig.savefig(os.path.join(out, topic + ".png"), dpi=90)
    plt.close(fig)


# ---------------------------------------------------------------- a. order
def exact_damped(t, m=1.0, k=40.0, c=0.8, x0=0.1, v0=0.0):
    zeta = c / (2 * m)
    wd = math.sqrt(k / m - zeta * zeta)
    A, B = x0, (v0 + zeta * x0) / wd
    return np.exp(-zeta * t) * (A * np.cos(wd * t) + B * np.sin(wd * t))


def topic_order(r, out, command):
    dts_free = [1e-2, 5e-3, 2.5e-3, 1.25e-3, 6.25e-4]
    dts_con = [4e-3, 2e-3, 1e-3, 5e-4]
    con_set = ["--set", "contact.sigma=1e-6", "--set", "contact.tolerance=1e-8",
               "--duration", "2"]
    jobs = []
    for s in SCHEMES:
        for dt in dts_free:
            jobs.append((scene("spring_damper"), ["--set", "integrator.scheme=" + s,
                                                  "--dt", repr(dt)]))
        for dt in dts_con:
            jobs.append((scene("spring_cylinder"), ["--set", "integrator.scheme=" + s,
                                                    "--dt", repr(dt)] + con_set))
    # one reference for every scheme: midpoint at dt = 1e-4 (second order, so
    # its own error is far below the others' at the coarse steps)
    jobs.append((scene("spring_cylinder"), ["--set", "integrator.scheme=midpoint",
                                            "--dt", "1e-4"] + con_set))
    res = r.many(jobs)
    ref = simc_h5.Run(res[-1]["h5"])
    res = iter(res[:-1])
    rows, err = [], {}
    for s in SCHEMES:
        e = []
        for dt in dts_free:
            run = simc_h5.Run(next(res)["h5"])
            x = run.q[:, run.q_index("mass.x")]
            e.append(float(np.max(np.abs(x - exact_damped(run.t)))))
        err[("free", s)] = e
        runs = [simc_h5.Run(next(res)["h5"]) for _ in dts_con]
        i = ref.q_index("cylinder.x")
        e = []
        for run in runs:
            xr = np.interp(run.t, ref.t, ref.q[:, i])
            e.append(float(np.max(np.abs(run.q[:, i] - xr))))
        err[("contact", s)] = e
    slopes = {}
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    for ax, case, dts, ttl in (
            (axes[0], "free", dts_free, "spring_damper (no contact) vs exact x(t)"),
            (axes[1], "contact", dts_con,
             "spring_cylinder (rolling contact) vs midpoint at dt = 1e-4\n"
             "sigma = 1e-6, tolerance = 1e-8, 2 s")):
        for j, s in enumerate(SCHEMES):
            e = err[(case, s)]
            p = slope(dts, e)
            slopes[(case, s)] = p
            ax.loglog(dts, e, "o-", color="C%d" % j, label="%s (slope %.2f)" % (s, p))
            for dt, ee in zip(dts, e):
                rows.append([case, s, dt, ee, p])
        h = np.array([dts[0], dts[-1]])
        e0 = max(err[(case, s)][0] for s in SCHEMES)
        ax.loglog(h, e0 * (h / h[0]), "k:", lw=0.8, label="slope 1")
        ax.loglog(h, e0 * 0.05 * (h / h[0]) ** 2, "k--", lw=0.8, label="slope 2")
        ax.set_xlabel("time step dt (s)")
        ax.set_ylabel("max |x - x_ref| over the run (m)")
        ax.set_title(ttl, fontsize=9)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7)
    savefig(fig, out, "order")
    write_csv(os.path.join(out, "order.csv"), ["case", "scheme", "dt_s", "max_error_m",
                                               "fitted_slope"], rows)
    f = lambda c: ", ".join("%s %.2f" % (s, slopes[(c, s)]) for s in SCHEMES)  # noqa
    write_summary(out, "order", "a. Observed order of accuracy", [
        "Fitted log-log slopes without contact: %s (expected 1, 1, 1, 2)." % f("free"),
        "With rolling contact (σ = 1e-6): %s; error is max |x(t) − x_ref(t)| of the "
        "cylinder's x over 2 s against midpoint at dt = 1e-4." % f("contact")],
        command)
    return slopes


# ---------------------------------------------------------------- b. energy
def topic_energy(r, out, command):
    schemes = ("midpoint", "implicit_euler", "symplectic_euler")
    res = r.many([(scene("spring_cylinder"), ["--set", "integrator.scheme=" + s])
                  for s in schemes])
    runs = [simc_h5.Run(x["h5"]) for x in res]
    fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    rows = []
    t = runs[0].t
    stats = {}
    for j, (s, run) in enumerate(zip(schemes, runs)):
        E = run.energy["total"]
        bal = run.energy_balance()
        axes[0].plot(run.t, E, color="C%d" % j, lw=1.1, label=s)
        axes[1].plot(run.t, bal, color="C%d" % j, lw=1.1, label=s)
        stats[s] = (E[0], E[-1], float(np.ptp(E)), float(bal[-1]),
                    float(run.energy["dissipated"][-1]))
    for k in range(0, len(t), 10):
        rows.append([float(t[k])] + [float(run.energy["total"][k]) for run in runs]
                    + [float(run.energy_balance()[k]) for run in runs])
    axes[0].set_ylabel("kinetic + gravity + spring (J)")
    axes[0].set_title("spring_cylinder, 10 s at dt = 1e-3: mechanical energy", fontsize=10)
    axes[1].set_ylabel("(total + dissipated)(t) − (0) (J)")
    axes[1].set_title("energy balance error (contact work counted as dissipated)", fontsize=10)
    axes[1].set_xlabel("time (s)")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    savefig(fig, out, "energy")
    write_csv(os.path.join(out, "energy.csv"),
              ["time_s"] + ["E_%s_J" % s for s in schemes] + ["balance_%s_J" % s for s in schemes],
              rows)
    mid, ie, se = (stats[s] for s in schemes)
    write_summary(out, "energy", "b. Rolling cylinder energy by scheme", [
        "E(0) = %.4f J. After 10 s: midpoint %.4f J (peak-to-peak %.2g J), implicit Euler "
        "%.4f J, symplectic Euler %.4f J (peak-to-peak %.2g J)."
        % (mid[0], mid[1], mid[2], ie[1], se[1], se[2]),
        "Contact work (dissipated) at 10 s: midpoint %.2g J, implicit Euler %.2g J, symplectic "
        "Euler %.2g J: what the schemes lose or gain is the integrator's, not the rolling "
        "contact's." % (mid[4], ie[4], se[4])], command)


# ---------------------------------------------------------------- c. stiction
def topic_stiction(r, out, command):
    sigmas = [1e-4, 1e-3, 1e-2]
    dts = [5e-4, 1e-3, 2e-3, 4e-3]
    jobs = [(scene("box_incline_stick"), ["--set", "contact.sigma=%g" % s, "--dt", repr(dt)])
            for s in sigmas for dt in dts]
    res = r.many(jobs)
    rows = []
    k = 0
    fig, ax = plt.subplots(figsize=(6.5, 5))
    markers = {5e-4: "o", 1e-3: "s", 2e-3: "^", 4e-3: "D"}
    for j, s in enumerate(sigmas):
        for dt in dts:
            run = simc_h5.Run(res[k]["h5"])
            k += 1
            late = run.t > 0.1
            vdown = run.v[late, :3] @ DOWNHILL
            v = float(np.mean(vdown))
            est = s * dt * G
            rows.append([s, dt, v, float(np.max(np.abs(vdown))), est, v / est,
                         run.attrs.get("status", "")])
            ax.loglog(est, abs(v), markers[dt], color="C%d" % j, ms=7,
                      label="σ = %g, dt = %g" % (s, dt))
    e = np.array([x[4] for x in rows])
    h = np.array([e.min() / 2, e.max() * 2])
    ax.loglog(h, h, "k-", lw=0.8, label="v = σ dt g")
    ax.loglog(h, h * math.sin(ALPHA), "k--", lw=0.8, label="v = σ dt g sin α")
    ax.set_xlabel("estimate σ dt g (m/s)")
    ax.set_ylabel("mean downhill speed after 0.1 s (m/s)")
    ax.set_title("box_incline_stick (μ = 0.5, α = 0.3): SAP stiction creep", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=6, ncol=2)
    savefig(fig, out, "stiction")
    write_csv(os.path.join(out, "stiction.csv"),
              ["sigma", "dt_s", "mean_downhill_speed_mps", "max_downhill_speed_mps",
               "sigma_dt_g_mps", "ratio", "status"], rows)
    ratio = np.array([x[5] for x in rows])
    sl_s = slope([x[0] for x in rows if x[1] == 1e-3], [abs(x[2]) for x in rows if x[1] == 1e-3])
    sl_d = slope([x[1] for x in rows if x[0] == 1e-3], [abs(x[2]) for x in rows if x[0] == 1e-3])
    write_summary(out, "stiction", "c. SAP stiction creep vs σ and dt", [
        "The sticking box creeps downhill at %.3f–%.3f × σ dt g (log-log slope %.2f in σ at "
        "dt = 1e-3, %.2f in dt at σ = 1e-3): the regularized-friction slip is linear in both."
        % (ratio.min(), ratio.max(), sl_s, sl_d),
        "The factor is sin α · m w_i / 4 (load m g sin α = %.2f m g over four contacts, each "
        "creeping at σ w_i γ_t,i): it implies m w_i ≈ %.1f, near a corner's 1/m + rotational "
        "terms (≈ 3.1/m for this box)." % (math.sin(ALPHA), 4 * ratio.mean() / math.sin(ALPHA))],
        command)


# ---------------------------------------------------------------- d. threshold
def accel(run):
    """Least-squares slope of the downhill speed over 0.2 s <= t <= end."""
    late = run.t >= 0.2
    v = run.v[late, :3] @ DOWNHILL
    return float(np.polyfit(run.t[late], v, 1)[0])


def topic_threshold(r, out, command):
    mus = sorted(set([round(0.05 * i, 2) for i in range(1, 13)] + [0.29, 0.3, 0.31, 0.32]))
    jobs = [(scene("box_incline_slip"), ["--solver", s, "--set",
                                         "contact.defaults.friction=%g" % mu,
                                         "--set", "contact.lcp.directions=8"])
            for mu in mus for s in ("newton", "lcp")]
    # faceting: the same box (mu = 0.1) launched at 2 m/s on flat ground in
    # heading psi; the octagonal cone's edges are 45 degrees apart
    psis = [5.625 * i for i in range(9)]
    flat = ["--set", "static.0.normal=[0,0,1]", "--set", "bodies.box.initial.q=[0,0,0.05,1,0,0,0]",
            "--duration", "0.4"]
    for psi in psis:
        c, sn = 2 * math.cos(math.radians(psi)), 2 * math.sin(math.radians(psi))
        for s in ("newton", "lcp"):
            jobs.append((scene("box_incline_slip"), ["--solver", s] + flat + [
                "--set", "bodies.box.initial.v=[%.12g,%.12g,0,0,0,0]" % (c, sn)]))
    res = r.many(jobs)
    fres = res[2 * len(mus):]
    rows = []
    a = {"newton": [], "lcp": []}
    for k, mu in enumerate(mus):
        exact = max(0.0, G * (math.sin(ALPHA) - mu * math.cos(ALPHA)))
        for j, s in enumerate(("newton", "lcp")):
            run = simc_h5.Run(res[2 * k + j]["h5"])
            acc = accel(run)
            a[s].append(acc)
            rows.append([mu, s, acc, exact, acc - exact, run.attrs.get("status", "")])
    facet = {"newton": [], "lcp": []}
    mug = 0.1 * G
    for k, psi in enumerate(psis):
        u = np.array([math.cos(math.radians(psi)), math.sin(math.radians(psi)), 0.0])
        w = np.array([-u[1], u[0], 0.0])
        phi = psi - 45.0 * round(psi / 45.0)
        for j, s in enumerate(("newton", "lcp")):
            run = simc_h5.Run(fres[2 * k + j]["h5"])
            m = (run.t >= 0.02) & (run.t <= 0.3)
            along = -float(np.polyfit(run.t[m], run.v[m, :3] @ u, 1)[0])
            lat = float(np.polyfit(run.t[m], run.v[m, :3] @ w, 1)[0])
            facet[s].append((along / mug, lat / mug))
            rows.append(["flat psi=%g deg" % psi, s, -along, -mug, -along + mug,
                         run.attrs.get("status", "")])
    mm = np.linspace(min(mus), max(mus), 400)
    fig = plt.figure(figsize=(7, 9.5))
    axes = [fig.add_subplot(3, 1, 1)]
    axes.append(fig.add_subplot(3, 1, 2, sharex=axes[0]))
    axf = fig.add_subplot(3, 1, 3)
    axes[0].plot(mm, np.maximum(0, G * (np.sin(ALPHA) - mm * np.cos(ALPHA))), "k-", lw=1,
                 label="g (sin α − μ cos α)₊")
    axes[0].plot(mus, a["newton"], "o", color="C0", mfc="none", label="newton (SAP)")
    axes[0].plot(mus, a["lcp"], "x", color="C3", label="lcp (8 directions)")
    axes[0].axvline(math.tan(ALPHA), color="gray", ls=":", lw=0.8)
    axes[0].set_ylabel("downhill acceleration (m/s²)")
    axes[0].set_title("box_incline_slip, α = 0.3, μ swept (tan α = %.3f dotted)"
                      % math.tan(ALPHA), fontsize=10)
    ex = np.array([max(0.0, G * (math.sin(ALPHA) - m * math.cos(ALPHA))) for m in mus])
    axes[1].plot(mus, np.array(a["newton"]) - ex, "o-", color="C0", mfc="none", label="newton")
    axes[1].plot(mus, np.array(a["lcp"]) - ex, "x-", color="C3", label="lcp")
    axes[1].axvline(math.tan(ALPHA), color="gray", ls=":", lw=0.8)
    axes[1].set_ylabel("measured − analytic (m/s²)")
    axes[1].set_xlabel("friction coefficient μ")
    pp = np.linspace(0, 45, 200)
    ph = pp - 45.0 * np.round(pp / 45.0)
    axf.plot(pp, np.cos(np.radians(ph)), "k-", lw=0.8, label="octagon: cos φ (along)")
    axf.plot(pp, np.sin(np.radians(ph)), "k--", lw=0.8, label="octagon: sin φ (sideways)")
    for s, col, mk in (("newton", "C0", "o"), ("lcp", "C3", "x")):
        f = np.array(facet[s])
        axf.plot(psis, f[:, 0], mk, color=col, mfc="none", label="%s: along" % s)
        axf.plot(psis, f[:, 1], mk, color=col, alpha=0.5, mfc="none", ms=5,
                 label="%s: sideways" % s)
    axf.set_xlabel("sliding heading ψ on flat ground (degrees; φ = distance to the nearest "
                   "cone edge)")
    axf.set_ylabel("friction deceleration / (μ g)")
    axf.set_title("faceting: box launched at 2 m/s, μ = 0.1, fit over 0.02–0.3 s", fontsize=10)
    for ax in axes + [axf]:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    savefig(fig, out, "threshold")
    write_csv(os.path.join(out, "threshold.csv"),
              ["mu", "solver", "accel_mps2", "analytic_mps2", "error_mps2", "status"], rows)
    err = {s: np.abs(np.array(a[s]) - ex) for s in a}
    slide = np.array(mus) < math.tan(ALPHA)
    write_summary(out, "threshold", "d. Stick/slip threshold over μ", [
        "Largest |a − g(sin α − μ cos α)₊| over the sweep: newton %.3g m/s², lcp %.3g m/s² "
        "(sliding side: newton %.3g, lcp %.3g; sticking side: newton %.3g, lcp %.3g)."
        % (err["newton"].max(), err["lcp"].max(), err["newton"][slide].max(),
           err["lcp"][slide].max(), err["newton"][~slide].max(), err["lcp"][~slide].max()),
        "Both switch from sliding to sticking at tan α = %.3f (downhill is an edge of the LCP's "
        "octagon). Bottom: off the edges the LCP decelerates by %.3f μg at ψ = 22.5° and pushes "
        "sideways by up to %.3f μg; SAP stays at %.3f–%.3f μg along, |sideways| ≤ %.1e μg."
        % (math.tan(ALPHA), facet["lcp"][4][0], max(abs(x[1]) for x in facet["lcp"]),
           min(x[0] for x in facet["newton"]), max(x[0] for x in facet["newton"]),
           max(abs(x[1]) for x in facet["newton"]))], command)


# ---------------------------------------------------------------- e. clutter
def topic_clutter(r, out, command):
    ns = [8, 27, 64, 125]
    dur, dt, cap = 0.15, 1e-3, 150.0
    rows = []
    t = {"newton": [], "lcp": []}
    tc = {"newton": [], "lcp": []}
    for n in ns:
        y = os.path.join(r.tmp, "clutter%d.yaml" % n)
        with open(y, "w") as f:
            subprocess.run([os.path.join(ROOT, "tools", "gen_clutter.sh"), str(n), repr(dt),
                            repr(dur)], stdout=f, check=True)
        for s in ("newton", "lcp"):
            x = r.one(y, ["--solver", s, "--set", "output.every=1"], timeout=cap)
            if x["rc"] == "timeout" or not os.path.exists(x["h5"]):
                rows.append([n, s, 6 * n, "", "", "", "", "", "", "capped at %.0f s" % cap])
                t[s].append(np.nan)
                tc[s].append(np.nan)
                continue
            run = simc_h5.Run(x["h5"])
            w = run.wall_time[1:]
            c = run.count[1:]
            ms = 1e3 * float(w.mean())
            msc = 1e3 * float(w[c > 0].mean()) if (c > 0).any() else float("nan")
            t[s].append(ms)
            tc[s].append(msc)
            rows.append([n, s, 6 * n, ms, msc, float(c.mean()), int(c.max()),
                         float(run.iterations[1:].mean()), int(np.count_nonzero(run.status[1:])),
                         run.attrs.get("status", "")])
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for s, col in (("newton", "C0"), ("lcp", "C3")):
        ax.loglog(ns, t[s], "o-", color=col, label="%s: all steps" % s)
        ax.loglog(ns, tc[s], "s--", color=col, mfc="none", label="%s: steps with contacts" % s)
    ax.set_xlabel("number of bodies N (nv = 6N)")
    ax.set_ylabel("wall time per step (ms)")
    ax.set_title("clutter, dt = 1e-3, first %.2g s (bottom layer lands at ~0.09 s)" % dur,
                 fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    savefig(fig, out, "clutter")
    write_csv(os.path.join(out, "clutter.csv"),
              ["N", "solver", "nv", "ms_per_step", "ms_per_step_with_contacts", "mean_contacts",
               "max_contacts", "mean_iterations", "failed_solves", "status"], rows)
    sl = {s: slope(ns, t[s]) for s in t}
    lines = [
        "Mean step time grows like N^%.2f (newton) and N^%.2f (lcp) from N = 8 to 125: %s."
        % (sl["newton"], sl["lcp"], "; ".join("N = %d: newton %.3g ms, lcp %.3g ms"
                                              % (n, a, b) for n, a, b in
                                              zip(ns, t["newton"], t["lcp"]))),
        "Steps with contacts: %s. Runs one at a time on a shared 2-core machine; a run over "
        "%.0f s would be cut (none was, at this duration)."
        % ("; ".join("N = %d: newton %.3g ms, lcp %.3g ms" % (n, a, b)
                     for n, a, b in zip(ns, tc["newton"], tc["lcp"])), cap)]
    if any(x[-1].startswith("capped") for x in rows):
        lines[-1] = lines[-1].replace(" (none was, at this duration)", " (see the CSV)")
    write_summary(out, "clutter", "e. Clutter: time per step vs N", lines, command)


# ---------------------------------------------------------------- f. comparison
STATUS = {1: "iteration cap", 2: "line search failed", 3: "factorization failed",
          4: "Lemke ray termination", 5: "Lemke cycling", 6: "non-finite",
          7: "inaccurate end point", 8: "workspace too small"}
SCENES = ("sphere_drop", "box_incline_stick", "box_incline_slip", "ball_spin_bounce",
          "spring_cylinder", "box_stack", "clutter8")


def topic_comparison(out, command):
    import compare_report  # tools/compare_report.py (tools/ is on sys.path above)
    rows = []
    for sc in SCENES:
        p = os.path.join(out, sc, "summary.json")
        if os.path.exists(p):
            rows += json.load(open(p))
    by = {(x["scene"], x["solver"]): x for x in rows}
    write_csv(os.path.join(out, "comparison.csv"),
              ["scene", "solver"] + [k for k, _, _ in compare_report.COLUMNS],
              [[x["scene"], x["solver"]] + [x[k] for k, _, _ in compare_report.COLUMNS]
               for x in rows])
    g = lambda sc, s, k: by.get((sc, s), {}).get(k, [] if k == "failure_statuses"  # noqa
                                                  else float("nan"))
    md = ["# newton (SAP) vs lcp (Lemke) on the reference scenes", "",
          "Made by `%s` (tools/compare_report.py per scene; per-scene reports, overlays and "
          "JSON in [comparison/](comparison/)). Table columns are defined in "
          "tools/compare_report.py; max |Δq| is over every coordinate (m, rad or quaternion "
          "component) and common output times. ms/step comes from runs made two at a time on a "
          "shared 2-core machine; take it to ±30 %%." % command, "",
          compare_report.table(rows, with_scene=True), ""]
    md += ["Per-scene reports: " + ", ".join("[%s](comparison/%s/report.md)" % (s, s)
                                             for s in SCENES), ""]
    hover = hover_stats()
    p = os.path.join(os.path.dirname(out.rstrip("/")), "threshold", "threshold.csv")
    hover["sweep_err"] = max((abs(float(x["error_mps2"])) for x in csv.DictReader(open(p))
                              if x["solver"] == "newton" and not x["mu"].startswith("flat")),
                             default=float("nan")) if os.path.exists(p) else float("nan")
    md += ["## Where and why they differ", ""]
    md += discussion(g, hover, read_clutter(out))
    with open(os.path.join(os.path.dirname(out.rstrip("/")), "comparison.md"), "w") as f:
        f.write("\n".join(md) + "\n")


def hover_stats():
    """Measured on fresh runs of two reference scenes, for the discussion:
    box_incline_slip (mu = 0.1): the sliding box's height above the incline
    (centre distance minus the half height 0.05 m), its normal velocity and
    the share of steps without contacts, after 0.2 s;
    ball_spin_bounce: the gap and impulses of the first contact step that
    carries an impulse, and the slipping steps of the impact."""
    r = Runner(1)
    try:
        n = np.array([math.sin(ALPHA), 0.0, math.cos(ALPHA)])
        outp = {}
        for s in ("newton", "lcp"):
            run = simc_h5.Run(r.one(scene("box_incline_slip"), ["--solver", s])["h5"])
            late = run.t > 0.2
            h = run.q[late, :3] @ n - 0.05
            vt = run.v[late, :3] @ DOWNHILL
            vn = run.v[late, :3] @ n
            d = dict(mean_h=float(h.mean()), max_h=float(h.max()),
                     mean_vt=float(vt.mean()), max_vt=float(vt.max()), mean_vn=float(vn.mean()),
                     max_vn=float(vn.max()), ncon=float(run.count[late].mean()),
                     zero=float(np.mean(run.count[late] == 0)))
            run = simc_h5.Run(r.one(scene("ball_spin_bounce"), ["--solver", s])["h5"])
            act = run.active()
            idx = np.nonzero(act)[0]
            k0 = int(idx[0]) if len(idx) else 0
            d["ball_gap"] = float(run.gap[k0]) if len(idx) else float("nan")
            d["ball_imp"] = run.impulse[k0].tolist() if len(idx) else [0, 0, 0]
            d["ball_slipping"] = int(np.count_nonzero(run.slip[act] > 1e-3))
            d["ball_vx"] = float(run.v[-1, 0])
            outp[s] = d
        return outp
    finally:
        r.close()


def read_clutter(out):
    p = os.path.join(os.path.dirname(out.rstrip("/")), "clutter", "clutter.csv")
    if not os.path.exists(p):
        return {}
    return {(int(x["N"]), x["solver"]): x for x in csv.DictReader(open(p))}


def discussion(g, hv, clutter):
    L = []
    tg = {s: g("box_incline_stick", s, "mean_slip_mps") for s in ("newton", "lcp")}
    L.append("- **Stiction (box_incline_stick).** SAP's regularized friction lets the sticking "
             "box creep: mean contact slip %.3g m/s, %.2f × σδtg (σδtg = %.3g m/s at σ = 1e-3, "
             "dt = 1e-3; results/stiction shows it is linear in σ and in dt), so after 1 s the "
             "runs are %.3g m apart. Lemke's LCP sticks exactly: mean slip %.3g m/s (round-off)."
             % (tg["newton"], tg["newton"] / (1e-3 * 1e-3 * G), 1e-3 * 1e-3 * G,
                g("box_incline_stick", "newton", "max_dq"), tg["lcp"]))
    hn, hl = hv["newton"], hv["lcp"]
    L.append("- **Hover while sliding (box_incline_slip, μ = 0.1).** After 0.2 s the box slides "
             "at a mean %.2f m/s (up to %.2f) under both solvers, but under SAP it rides %.3g m "
             "above the incline on average (max %.3g m; normal velocity up to %.2g m/s) and has "
             "no contact in %.0f%% of those steps, while the LCP box stays at %.2g m (in contact "
             "on every step). This is the convex relaxation: at a sliding contact optimality "
             "gives vn = v̂_n + μ‖vt‖ instead of vn = v̂_n (μ‖vt‖ up to %.2f m/s here), so each "
             "contact step pushes the box off the plane and gravity brings it back. The downhill "
             "acceleration still agrees (within %.2g m/s² over the μ sweep of results/threshold; "
             "max |Δq| %.3g m here): to keep the height bounded the time-averaged normal impulse "
             "must still carry m g cos α, and the friction is μ times it."
             % (hn["mean_vt"], hn["max_vt"], hn["mean_h"], hn["max_h"], hn["max_vn"],
                100 * hn["zero"], hl["mean_h"], 0.1 * hn["max_vt"], hv["sweep_err"],
                g("box_incline_slip", "newton", "max_dq")))
    L.append("- **The same effect at an impact (ball_spin_bounce, μ = 2, back-spinning ball).** "
             "SAP's first impulse comes while the ball is still %.2g m above the plane (normal "
             "%.3g N·s, tangential %.3g N·s = μ × normal: sliding), and the ball slips on %d "
             "contact steps before it rolls; the LCP's first impulse is at gap %.2g m and the "
             "ball rolls from that step (%d slipping steps). The rolling speed afterwards differs "
             "by %.2g%% (%.4f vs %.4f m/s), the spin angle by %.3g rad (max |Δq|)."
             % (hn["ball_gap"], hn["ball_imp"][2], abs(hn["ball_imp"][1]), hn["ball_slipping"],
                hl["ball_gap"], hl["ball_slipping"],
                100 * abs(hn["ball_vx"] - hl["ball_vx"]) / abs(hl["ball_vx"]),
                hn["ball_vx"], hl["ball_vx"], g("ball_spin_bounce", "newton", "max_dq")))
    L.append("- **Polyhedral cone.** The LCP's 8-direction cone is an octagon with edges along "
             "the contact frame's axes and diagonals. Straight down the incline is an edge, so "
             "the μ sweep (results/threshold, top) matches g(sin α − μ cos α)₊ to 1e-7 m/s². On "
             "flat ground at other headings (results/threshold, bottom) the LCP's friction is "
             "cos φ·μg along the slip and sin φ·μg sideways (φ = angle to the nearest edge; "
             "0.924 μg at 22.5°), so the path curves towards an edge; SAP's round cone gives μg "
             "along at every heading.")
    sap_roll = g("spring_cylinder", "newton", "mean_slip_mps")
    lcp_roll = g("spring_cylinder", "lcp", "mean_slip_mps")
    if lcp_roll < 1e-12:
        roll = ("On the rolling cylinder SAP's regularized stiction creeps at a mean %.2g m/s "
                "(its trajectory drifts %.3g from the LCP's over the run) while the LCP rolls "
                "without slip (%.2g m/s, round-off)." % (sap_roll, g("spring_cylinder", "newton",
                                                                      "max_dq"), lcp_roll))
    else:
        roll = ("On the rolling cylinder SAP's mean slip is %.2g m/s and the LCP's %.2g m/s; an "
                "exact LCP stick would give 0, so the LCP's slip is a defect to look at."
                % (sap_roll, lcp_roll))
    L.append("- **Resting and rolling contact (sphere_drop, spring_cylinder, box_stack).** "
             "Without sliding both solve the same compliant normal problem: max |Δq| %.3g, %.3g "
             "and %.3g, the same penetration (%.3g vs %.3g m on box_stack). %s"
             % (g("sphere_drop", "newton", "max_dq"), g("spring_cylinder", "newton", "max_dq"),
                g("box_stack", "newton", "max_dq"), g("box_stack", "newton", "max_penetration_m"),
                g("box_stack", "lcp", "max_penetration_m"), roll))
    L.append("- **clutter8**: bodies hit bodies, so the small differences above grow and the "
             "runs separate (max |Δq| %.3g); both keep penetration at %.3g m. "
             "The LCP had %d unsuccessful solve(s) (solver status %s; on_failure: warn keeps "
             "going) and up to %d pivots per step; SAP had %d and at most %d Newton iterations."
             % (g("clutter8", "newton", "max_dq"), g("clutter8", "newton", "max_penetration_m"),
                g("clutter8", "lcp", "solver_failures"),
                ", ".join("%d = %s" % (c, STATUS.get(c, "?"))
                          for c in g("clutter8", "lcp", "failure_statuses")) or "-",
                g("clutter8", "lcp", "max_iterations"), g("clutter8", "newton", "solver_failures"),
                g("clutter8", "newton", "max_iterations")))
    cost = ("- **Cost.** SAP's warm-started Newton needs %.2g–%.2g iterations per step on these "
            "scenes, Lemke %.3g–%.3g pivots; the LCP's mean step takes %.1f–%.1f× SAP's (the "
            "smallest ratios on the one-contact scenes, where the step is mostly free motion)."
            % (min(g(s, "newton", "mean_iterations") for s in SCENES),
               max(g(s, "newton", "mean_iterations") for s in SCENES),
               min(g(s, "lcp", "mean_iterations") for s in SCENES),
               max(g(s, "lcp", "mean_iterations") for s in SCENES),
               min(g(s, "lcp", "ms_per_step") / g(s, "newton", "ms_per_step") for s in SCENES),
               max(g(s, "lcp", "ms_per_step") / g(s, "newton", "ms_per_step") for s in SCENES)))
    if (125, "newton") in clutter and clutter[(125, "lcp")]["ms_per_step"]:
        a, b = clutter[(125, "newton")], clutter[(125, "lcp")]
        ta, tb = float(a["ms_per_step_with_contacts"]), float(b["ms_per_step_with_contacts"])
        if ta <= tb:
            why = ("the LCP pays for the dense Delassus matrix J A^-1 J^T of all contacts and "
                   "its pivots, while SAP's Hessian is factored as a sparse matrix over the "
                   "contact graph (CHOLMOD)")
            lead = "In larger clutter (results/clutter) the gap widens"
        else:
            why = ("SAP factors its Newton Hessian every iteration, while the LCP's dense "
                   "Delassus matrix covers only the contacts")
            lead = "In larger clutter (results/clutter) that reverses"
        cost += (" %s: at N = 125 SAP takes %.3g ms per step with contacts vs %.3g ms for the "
                 "LCP, with %.2g vs %.3g mean iterations per step (about %s contacts): %s."
                 % (lead, ta, tb, float(a["mean_iterations"]), float(b["mean_iterations"]),
                    "%.0f" % float(a["mean_contacts"]), why))
    L.append(cost)
    return L


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("topic", choices=("order", "energy", "stiction", "threshold", "clutter",
                                      "comparison"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    command = "/usr/bin/python3 tools/results/results.py %s --out %s" % (a.topic, a.out)
    if a.topic == "comparison":
        topic_comparison(a.out, command)
        return 0
    r = Runner(a.jobs)
    try:
        {"order": topic_order, "energy": topic_energy, "stiction": topic_stiction,
         "threshold": topic_threshold, "clutter": topic_clutter}[a.topic](r, a.out, command)
    finally:
        r.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
