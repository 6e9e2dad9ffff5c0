#!/usr/bin/python3
"""compare_report.py SCENE.yaml --out DIR [--duration T] [--set K=V]... [--q NAME]
                     [--runs LIST] [--simc PATH] [--discard-h5] [--quiet]

Runs SCENE once per entry of --runs (default newton,lcp): newton is the SAP
model (--solver newton --set contact.model=sap), sap, similar and lagged are
--solver newton with that contact.model, lcp is --solver lcp; --runs
sap,similar,lagged,lcp compares all four.  Writes DIR/<run>.h5, DIR/report.md
(a table with one row per run and PNG overlays: a chosen coordinate, energy,
penetration, slip, solver iterations) and DIR/summary.json, and prints the
table rows as JSON on stdout (one object per run, its name in "solver", for
aggregation).

Table columns, per solver:
  max |dq|      largest difference of any coordinate to the other solver's run
                over the common output times (m, rad or 1 per q_names);
  penetration   largest max(0, -gap) over all recorded contacts, m;
  slip          mean and max tangential speed after the step of the contacts
                that carry a normal impulse, m/s ("-" for a run written
                without contact rows, output.contacts: false; its
                penetration is then /contact/max_penetration);
  iterations    mean and max Newton iterations (newton) or Lemke pivots (lcp)
                per step;
  ms/step       mean of /solver/wall_time (the whole step: free motion,
                detection, contact solve) over the recorded steps;
  energy drift  (total + dissipated - actuator work) at the end minus at the
                start, J (the integrator's energy error; the actuator work,
                /energy/actuator, only in runs of models with actuators;
                contact energy still stored in a compliant contact at the
                end is counted as dissipated).

Run it with /usr/bin/python3 (python3-h5py python3-numpy python3-matplotlib)."""

import argparse
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/
# simc_h5.py: beside this script in tools/, or in ../share/simc when installed
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [_here, os.path.join(_here, "..", "share", "simc")]
import simc_h5  # noqa: E402

try:
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

SOLVERS = ("newton", "lcp")  # the default --runs
RUN_ARGS = {"newton": ["--solver", "newton", "--set", "contact.model=sap"],
            "sap": ["--solver", "newton", "--set", "contact.model=sap"],
            "similar": ["--solver", "newton", "--set", "contact.model=similar"],
            "lagged": ["--solver", "newton", "--set", "contact.model=lagged"],
            "lcp": ["--solver", "lcp"]}
STYLE = {"newton": dict(color="C0", ls="-"), "sap": dict(color="C0", ls="-"),
         "similar": dict(color="C2", ls="-."), "lagged": dict(color="C1", ls=":"),
         "lcp": dict(color="C3", ls="--")}
COLUMNS = [  # key, header, format
    ("max_dq", "max \\|Δq\\| to other", "%.3g"),
    ("max_penetration_m", "max penetration (m)", "%.3g"),
    ("mean_slip_mps", "mean slip (m/s)", "%.3g"),
    ("max_slip_mps", "max slip (m/s)", "%.3g"),
    ("mean_iterations", "mean its", "%.2f"),
    ("max_iterations", "max its", "%d"),
    ("ms_per_step", "ms/step", "%.3g"),
    ("energy_drift_J", "energy drift (J)", "%.3g"),
    ("mean_contacts", "mean contacts", "%.2f"),
    ("solver_failures", "failed solves", "%d"),
]


def default_simc():
    """Installed: the simc in this script's bin/; in the source tree: bin/simc
    (BIN overrides bin); else simc on PATH."""
    beside = os.path.join(_here, "simc")
    if os.access(beside, os.X_OK):
        return beside
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.relpath(os.path.join(here, "..", os.environ.get("BIN", "bin"), "simc"))
    if os.access(tree, os.X_OK):
        return tree
    from shutil import which
    return which("simc") or tree


def run_simc(simc, scene, out, solver, duration, sets):
    cmd = [simc, scene, "-o", out] + RUN_ARGS[solver] + ["--quiet"]
    if duration is not None:
        cmd += ["--duration", str(duration)]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return cmd, p.returncode, p.stderr.strip()


def q_difference(a, b):
    """max over coordinates and common times of |q_a - q_b|, and its coordinate."""
    n = min(len(a.t), len(b.t))
    if n == 0 or a.q_names != b.q_names:
        return float("nan"), ""
    if not np.allclose(a.t[:n], b.t[:n]):
        qb = np.column_stack([np.interp(a.t[:n], b.t, b.q[:, j]) for j in range(b.q.shape[1])])
    else:
        qb = b.q[:n]
    d = np.abs(a.q[:n] - qb)
    j = int(np.argmax(d.max(axis=0)))
    return float(d[:, j].max()), a.q_names[j]


def metrics(run, other, label=None):
    slips = run.active_slips()
    its = run.iterations[1:] if len(run.iterations) > 1 else run.iterations
    wall = run.wall_time[1:] if len(run.wall_time) > 1 else run.wall_time
    dq, dq_name = q_difference(run, other)
    bal = run.energy_balance()
    return {
        "scene": run.attrs.get("scene_name", ""),
        "solver": label or run.solver,
        "status": run.attrs.get("status", ""),
        "duration_s": float(run.t[-1]) if len(run.t) else 0.0,
        "time_step_s": float(run.attrs.get("time_step", float("nan"))),
        "max_dq": dq,
        "max_dq_coordinate": dq_name,
        "max_penetration_m": float(run.penetration().max()) if len(run.t) else 0.0,
        # no contact rows (output.contacts: false): the slip is not known
        "mean_slip_mps": (float(slips.mean()) if len(slips) else 0.0) if run.has_contact_rows
        else float("nan"),
        "max_slip_mps": (float(slips.max()) if len(slips) else 0.0) if run.has_contact_rows
        else float("nan"),
        "mean_iterations": float(its.mean()) if len(its) else 0.0,
        "max_iterations": int(its.max()) if len(its) else 0,
        "ms_per_step": 1e3 * float(wall.mean()) if len(wall) else 0.0,
        "energy_drift_J": float(bal[-1]) if len(bal) else 0.0,
        "E0_J": float(run.energy["total"][0]) if len(run.t) else 0.0,
        "mean_contacts": float(run.count[1:].mean()) if len(run.count) > 1 else 0.0,
        "solver_failures": int(np.count_nonzero(run.status[1:])),
        "failure_statuses": sorted(set(int(x) for x in run.status[1:] if x != 0)),
    }


def json_safe(rows):
    """rows with every non-finite float as None (null: JSON has no NaN)."""
    return [{k: (None if isinstance(v, float) and not np.isfinite(v) else v)
             for k, v in r.items()} for r in rows]


def fmt(v, f):
    if v is None or (isinstance(v, float) and not np.isfinite(v)):  # null in summary.json
        return "-"
    return f % v


def table(rows, with_scene=False):
    head = (["scene"] if with_scene else []) + ["solver"] + [h for _, h, _ in COLUMNS]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = ([r["scene"]] if with_scene else []) + [r["solver"]]
        cells += [fmt(r[k], f) for k, _, f in COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def pick_q(runs, name):
    """--q, else the non-quaternion coordinate on which the solvers differ most
    (ties, e.g. identical runs: the one that moves most)."""
    a, b = list(runs.values())[:2]
    if name:
        a.q_index(name)
        return name
    n = min(len(a.t), len(b.t))
    diff = np.abs(a.q[:n] - b.q[:n]).max(axis=0) if n else np.zeros(len(a.q_names))
    rng = np.ptp(a.q, axis=0) if len(a.t) else np.zeros(len(a.q_names))
    cand = [i for i, q in enumerate(a.q_names) if simc_h5.q_unit(q) != "1"] or \
        list(range(len(a.q_names)))
    return a.q_names[max(cand, key=lambda i: (diff[i], rng[i]))]


def figure(path, title, ylabel, series, logy=False):
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for label, t, y, style in series:
        ax.plot(t, y, lw=1.1, label=label, **style)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def figures(runs, out, qname):
    first = list(runs.values())[0]
    scene = first.attrs.get("scene_name", "")
    labels = list(runs)
    made = []

    def add(name, title, ylabel, fn, logy=False, suffix=""):
        series = [("%s%s" % (s, suffix), runs[s].t, fn(runs[s]), STYLE[s]) for s in labels]
        figure(os.path.join(out, name), "%s: %s" % (scene, title), ylabel, series, logy)
        made.append((name, title))

    i = first.q_index(qname)
    add("q.png", "coordinate %s" % qname, "%s (%s)" % (qname, simc_h5.q_unit(qname)),
        lambda r: r.q[:, i])
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for s in labels:
        r = runs[s]
        ax.plot(r.t, r.energy["total"], lw=1.1, label="%s: total" % s, **STYLE[s])
        bal = r.energy_balance() + (r.energy["total"][0] if len(r.t) else 0.0)
        ax.plot(r.t, bal, lw=1.1,
                label="%s: %s" % (s, r.balance_label()), alpha=0.6, color=STYLE[s]["color"],
                ls=STYLE[s]["ls"])
    ax.set_xlabel("time (s)")
    ax.set_ylabel("energy (J)")
    ax.set_title("%s: energy" % scene, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "energy.png"), dpi=90)
    plt.close(fig)
    made.append(("energy.png", "energy"))
    add("penetration.png", "largest penetration per step", "penetration (mm)",
        lambda r: 1e3 * r.penetration())
    add("slip.png", "largest slip of an active contact (log scale, floor 1e-12)",
        "slip speed (m/s)", lambda r: np.clip(r.max_slip(), 1e-12, None), logy=True)
    add("iterations.png", "contact solver iterations per step (Newton its / Lemke pivots)",
        "iterations (count)", lambda r: r.iterations.astype(float))
    return made


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scene")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--duration", type=float)
    ap.add_argument("--set", action="append", default=[], metavar="K=V")
    ap.add_argument("--q", help="coordinate for the trajectory overlay (default: the "
                    "non-quaternion coordinate that moves most)")
    ap.add_argument("--runs", default=",".join(SOLVERS),
                    help="comma-separated runs among %s (default newton,lcp)" % ",".join(RUN_ARGS))
    ap.add_argument("--simc", default=default_simc())
    ap.add_argument("--discard-h5", action="store_true", help="delete the two .h5 files")
    ap.add_argument("--quiet", action="store_true", help="no JSON on stdout")
    a = ap.parse_args(argv)
    if plt is None or simc_h5.h5py is None:
        print("compare_report.py: needs h5py, numpy and matplotlib: " + simc_h5.APT_LINE,
              file=sys.stderr)
        return 2
    labels = [x for x in a.runs.split(",") if x]
    bad = [x for x in labels if x not in RUN_ARGS]
    if bad or len(labels) < 2 or len(set(labels)) != len(labels):
        print("compare_report.py: --runs: expected two or more distinct names among %s (got '%s')"
              % (", ".join(RUN_ARGS), a.runs), file=sys.stderr)
        return 1
    os.makedirs(a.out, exist_ok=True)
    runs, cmds, notes = {}, {}, []
    for s in labels:
        h5 = os.path.join(a.out, s + ".h5")
        cmd, rc, err = run_simc(a.simc, a.scene, h5, s, a.duration, a.set)
        cmds[s] = cmd
        if rc != 0:
            notes.append("%s: simc exit %d: %s" % (s, rc, err.splitlines()[-1] if err else ""))
            if rc == 1 or not os.path.exists(h5):
                print("compare_report.py: %s" % notes[-1], file=sys.stderr)
                return 1
        try:
            runs[s] = simc_h5.Run(h5)
        except simc_h5.BadFile as e:  # one line naming the dataset
            print("compare_report.py: %s" % e, file=sys.stderr)
            return 1
    # max |dq| of each run to the next one (the last to the first)
    rows = [metrics(runs[s], runs[labels[(j + 1) % len(labels)]], s) for j, s in enumerate(labels)]
    qname = pick_q(runs, a.q)
    made = figures(runs, a.out, qname)
    scene = rows[0]["scene"]
    show = lambda c: " ".join(("'%s'" % x) if (" " in x or "[" in x) else x for x in c)  # noqa
    with open(os.path.join(a.out, "report.md"), "w") as f:
        names = {"newton": "newton (SAP)", "lcp": "lcp (Lemke)"}
        f.write("# %s: %s\n\n" % (" vs ".join(names.get(s, s) for s in labels), scene))
        f.write("Scene `%s`, %.4g s at dt = %.3g s, scheme %s.\n\n"
                % (a.scene, rows[0]["duration_s"], rows[0]["time_step_s"],
                   runs[labels[0]].attrs.get("scheme", "?")))
        f.write("Commands:\n\n")
        for s in labels:
            f.write("    %s\n" % show(cmds[s]))
        f.write("\n" + table(rows) + "\n\n")
        f.write("max |Δq| is to the next row's run (the last row's to the first), reached "
                "for the first row on coordinate `%s`. Initial energy E0 = %.4g J. "
                "Slip counts the contacts with a normal impulse; ms/step is the mean of "
                "/solver/wall_time. Status: %s.\n\n"
                % (rows[0]["max_dq_coordinate"], rows[0]["E0_J"],
                   ", ".join("%s %s" % (r["solver"], r["status"]) for r in rows)))
        for n in notes:
            f.write("Note: %s\n\n" % n)
        for name, title in made:
            f.write("![%s](%s)\n\n" % (title, name))
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(json_safe(rows), f, indent=1)
    if a.discard_h5:
        for s in labels:
            os.remove(os.path.join(a.out, s + ".h5"))
    if not a.quiet:
        print(json.dumps(json_safe(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
