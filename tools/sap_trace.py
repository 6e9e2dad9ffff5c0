#!/usr/bin/python3
"""sap_trace.py: where the Newton iterations of SAP go, from /solver/trace.

    /usr/bin/python3 tools/sap_trace.py RUN.h5 [RUN2.h5 ...] [--labels A,B,...]
                                        [-o OUT.png] [--md OUT.md]

Each RUN.h5 must come from `simc --trace-solver` (or output.solver_trace:
true).  Writes one PNG (per run, one column: iterations per step against
time; residual against iteration for the step with the most iterations and
for a median one; the step alpha by residual band; the contacts per region
along the worst step) and prints (or writes with --md) a Markdown table:
iterations per step (mean, median, max), the share of iterations in each
residual band with their median alpha and mean number of contacts that
changed region, and the share of iterations with alpha < 0.5.
"""
import argparse
import sys

import h5py
import numpy as np

BANDS = [(1e-1, np.inf), (1e-2, 1e-1), (1e-3, 1e-2), (1e-4, 1e-3), (0.0, 1e-4)]


def band_name(lo, hi):
    if np.isinf(hi):
        return "r >= %g" % lo
    if lo == 0.0:
        return "r < %g" % hi
    return "%g <= r < %g" % (lo, hi)


def load(path):
    with h5py.File(path, "r") as f:
        if "/solver/trace" not in f:
            sys.exit("%s: no /solver/trace (run simc with --trace-solver)" % path)
        t = {k: f["/solver/trace/" + k][:] for k in f["/solver/trace"]}
        t["frame_iterations"] = f["/solver/iterations"][:]
        t["frame_time"] = f["/time"][:]
        t["frame_count"] = f["/contact/count"][:]
        t["every"] = int(f.attrs["output_every"])
        t["dt"] = float(f.attrs["time_step"])
        t["scene"] = f.attrs["scene_name"]
    return t


def summary(t):
    it = t["frame_iterations"][1:]  # row 0 is the initial state
    it = it[t["frame_count"][1:] > 0]
    r, a, ch = t["residual"], t["alpha"], t["n_changed"]
    # the residual band of an iteration is the one of the iterate it starts from:
    # the previous row's residual (for iteration 1, the warm start's, not
    # recorded: those rows go to the first band)
    start = np.empty_like(r)
    start[1:] = r[:-1]
    first = t["iteration"] == 1
    start[first] = np.inf
    rows = []
    for lo, hi in BANDS:
        m = (start >= lo) & (start < hi)
        if lo == BANDS[0][0]:
            m |= first
        rows.append((band_name(lo, hi), m.mean() if len(m) else 0.0,
                     np.median(a[m]) if m.any() else float("nan"),
                     ch[m].mean() if m.any() else float("nan")))
    return {
        "steps": len(it), "mean": it.mean() if len(it) else 0.0,
        "median": float(np.median(it)) if len(it) else 0.0, "max": int(it.max()) if len(it) else 0,
        "iterations": len(r), "small_alpha": (a < 0.5).mean() if len(a) else 0.0,
        "bands": rows, "ls": t["ls_evals"].mean() if len(a) else 0.0,
    }


def markdown(labels, sums):
    out = ["| run | steps with contact | iterations mean / median / max | "
           "share with alpha < 0.5 | line-search evaluations per iteration |",
           "|---|---|---|---|---|"]
    for lab, s in zip(labels, sums):
        out.append("| %s | %d | %.1f / %.0f / %d | %.0f %% | %.1f |" % (
            lab, s["steps"], s["mean"], s["median"], s["max"], 100 * s["small_alpha"], s["ls"]))
    out.append("")
    out.append("Iterations by the relative residual r of the iterate they start from "
               "(share of all iterations; median alpha; mean number of contacts that "
               "changed region):")
    out.append("")
    out.append("| band | " + " | ".join(labels) + " |")
    out.append("|---|" + "---|" * len(labels))
    for b in range(len(BANDS)):
        cells = []
        for s in sums:
            name, share, amed, chm = s["bands"][b]
            cells.append("%.0f %%; alpha %.2f; %.1f changed" % (100 * share, amed, chm)
                         if share > 0 else "-")
        out.append("| %s | %s |" % (sums[0]["bands"][b][0], " | ".join(cells)))
    return "\n".join(out) + "\n"


def plot(labels, runs, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n = len(runs)
    fig, ax = plt.subplots(4, n, figsize=(5.2 * n, 14), squeeze=False)
    for j, (lab, t) in enumerate(zip(labels, runs)):
        fi = t["frame_iterations"]
        a = ax[0][j]
        a.plot(t["frame_time"], fi, lw=0.8)
        a.set_xlabel("t (s)")
        a.set_ylabel("Newton iterations per step")
        a.set_title(lab)
        # worst and a median step
        steps = t["step"]
        ust, counts = np.unique(steps, return_counts=True)
        worst = ust[np.argmax(counts)]
        med = ust[np.argsort(counts, kind="stable")[len(counts) // 2]]
        a = ax[1][j]
        for s, style in ((worst, "-"), (med, "--")):
            m = steps == s
            a.semilogy(t["iteration"][m], t["residual"][m], style, marker=".",
                       label="step %d (t = %.3f s)" % (s, s * t["dt"]))
        a.axhline(1e-6, color="gray", lw=0.5)
        a.set_xlabel("iteration")
        a.set_ylabel("relative residual after the iteration")
        a.legend(fontsize=8)
        a = ax[2][j]
        start = np.empty_like(t["residual"])
        start[1:] = t["residual"][:-1]
        later = t["iteration"] > 1  # the warm start's residual is not recorded
        a.loglog(start[later], t["alpha"][later], ".", ms=1.5, alpha=0.3)
        a.set_xlabel("relative residual at the start of the iteration")
        a.set_ylabel("line-search step alpha")
        a.set_ylim(1e-4, 2)
        a = ax[3][j]
        m = steps == worst
        x = t["iteration"][m]
        for key, name in (("n_stick", "sticking"), ("n_slide", "sliding"),
                          ("n_separated", "separated"), ("n_changed", "changed region")):
            a.plot(x, t[key][m], marker=".", label=name)
        a.set_xlabel("iteration (step %d)" % worst)
        a.set_ylabel("contacts")
        a.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=90)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--labels")
    ap.add_argument("-o", "--out", default="sap_trace.png")
    ap.add_argument("--md")
    args = ap.parse_args()
    labels = args.labels.split(",") if args.labels else args.runs
    if len(labels) != len(args.runs):
        sys.exit("--labels: %d labels for %d runs" % (len(labels), len(args.runs)))
    runs = [load(p) for p in args.runs]
    text = markdown(labels, [summary(t) for t in runs])
    if args.md:
        with open(args.md, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    plot(labels, runs, args.out)


if __name__ == "__main__":
    main()
