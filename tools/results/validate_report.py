"""The Markdown report (and plots) of tools/results/validate.py: the matrix summary,
simc's defaults cell by cell, the measured orders, and every failing cell
grouped by case and configuration."""
import collections
import math
import os

SCHEMES = ["explicit_euler", "symplectic_euler", "implicit_euler", "midpoint", "theta"]
MODELS = ["sap", "similar", "lagged", "lcp"]
SHORT = {"explicit_euler": "expl", "symplectic_euler": "sympl", "implicit_euler": "impl",
         "midpoint": "mid", "theta": "theta", "default": "default"}


def _f(x):
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _primary(r):
    """the first check's value (the case's main error) or None"""
    for part in r["checks"].split("; "):
        toks = part.split()
        for i, t in enumerate(toks):
            v = _f(t)
            if v is not None and i > 0:
                return v
    return None


def _orders(rows):
    """observed orders of the first check per (case, scheme, model) on rigid
    contacts: log10 of the error ratio between dt = 1 ms and 0.1 ms, and
    between 10 ms and 1 ms, where both errors are resolvable (> 1e-12)"""
    err = {}
    for r in rows:
        if r["passed"] == "na" or r["stiffness"] != "rigid":
            continue
        v = _primary(r)
        if v is not None:
            err[(r["case"], r["scheme"], r["model"], r["dt"])] = v
    out = {}
    for (case, sch, mdl, dt), e in err.items():
        if dt != "0.001":
            continue
        lo, hi = err.get((case, sch, mdl, "0.0001")), err.get((case, sch, mdl, "0.01"))
        o1 = math.log10(e / lo) if lo and lo > 1e-12 and e > 1e-12 else None
        o2 = math.log10(hi / e) if hi and hi > 1e-12 and e > 1e-12 else None
        out[(case, sch, mdl)] = (o1, o2)
    return out


def _plot(rows, cases, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap
    except ImportError:
        return []
    names = []
    stiff = ["rigid", "1000000.0", "100000.0"]
    steps = ["0.0001", "0.001", "0.01"]
    cols = [("default", "default")] + [(s, m) for s in SCHEMES for m in MODELS]
    idx = {(r["case"], r["scheme"], r["model"], r["stiffness"], r["dt"]): r for r in rows}
    fig, axes = plt.subplots(1, 3, figsize=(18, 0.32 * len(cases) + 2.2), sharey=True)
    cmap = ListedColormap(["#d62728", "#2ca02c", "#dddddd"])
    for ax, k in zip(axes, stiff):
        grid = []
        for c in cases:
            line = []
            for (s, m) in cols:
                for dt in steps:
                    r = idx.get((c.name, s, m, k, dt))
                    line.append(2 if r is None or r["passed"] == "na" else int(r["passed"]))
            grid.append(line)
        ax.imshow(grid, cmap=cmap, vmin=0, vmax=2, aspect="auto", interpolation="nearest")
        ax.set_xticks([3 * i + 1 for i in range(len(cols))])
        ax.set_xticklabels(["%s/%s" % (SHORT[s], m[:3]) for s, m in cols], rotation=90, fontsize=7)
        for i in range(1, len(cols)):
            ax.axvline(3 * i - 0.5, color="white", lw=1)
        ax.set_title("stiffness %s (each column group: dt 0.1, 1, 10 ms)"
                     % ("rigid" if k == "rigid" else "%g N/m" % float(k)), fontsize=9)
    axes[0].set_yticks(range(len(cases)))
    axes[0].set_yticklabels([c.name for c in cases], fontsize=8)
    fig.suptitle("validation matrix: green pass, red fail, grey not applicable", fontsize=10)
    fig.tight_layout()
    p = os.path.join(outdir, "validation_matrix.png")
    fig.savefig(p, dpi=90)
    plt.close(fig)
    names.append(p)
    # convergence of the cases with an order, default model per scheme
    show = ["free_flight", "frictionless_spin", "tall_tips", "roll_sphere", "slide_cube_axis"]
    fig, axes = plt.subplots(1, len(show), figsize=(4 * len(show), 3.4))
    for ax, cn in zip(axes, show):
        for s in SCHEMES + ["default"]:
            m = "default" if s == "default" else "lagged"
            pts = []
            for dt in steps:
                r = idx.get((cn, s, m, "rigid", dt))
                v = _primary(r) if r and r["passed"] != "na" else None
                if v is not None and v > 0:
                    pts.append((float(dt), v))
            if pts:
                ax.loglog(*zip(*pts), "o-" if s != "default" else "k--", label=SHORT[s], ms=3)
        ax.set_title(cn, fontsize=9)
        ax.set_xlabel("dt (s)")
        ax.grid(True, which="both", lw=0.3)
    axes[0].set_ylabel("first check's error")
    axes[-1].legend(fontsize=7)
    fig.tight_layout()
    p = os.path.join(outdir, "validation_orders.png")
    fig.savefig(p, dpi=90)
    plt.close(fig)
    names.append(p)
    return names


def write(path, rows, cases, outdir, wall, command):
    live = [r for r in rows if r["passed"] != "na"]
    npass = sum(r["passed"] for r in live)
    resdir = os.path.dirname(os.path.abspath(path))
    figdir = os.path.join(resdir, "validation")
    os.makedirs(figdir, exist_ok=True)
    figs = _plot(rows, cases, figdir)
    L = []
    L.append("# Validation matrix\n")
    L.append("Analytic contact cases against every integrator scheme, contact model (and the "
             "LCP), contact stiffness and time step.  Made by\n\n    %s\n" % command)
    L.append("(%d cells in %.0f s on this machine; `make validate`; the cells of simc's "
             "defaults at 1 and 10 ms also run in `make test` as `tools/results/validate.py --fast`).  "
             "Every cell's numbers are in `validation/validation.csv`.\n" % (len(rows), wall))
    dflt = [r for r in live if r["scheme"] == "default" and r["dt"] in ("0.001", "0.01")]
    L.append("**%d cells, %d not applicable, %d passed, %d failed; simc's defaults at 1 and "
             "10 ms: %d of %d passed.**\n"
             % (len(rows), len(rows) - len(live), npass, len(live) - npass,
                sum(r["passed"] for r in dflt), len(dflt)))
    L.append("Configurations: schemes explicit, symplectic and implicit Euler, midpoint, and "
             "theta = 0.6 (`integrator.scheme: theta`); contact models `sap`, `similar`, `lagged` "
             "and `--solver lcp` (8 cone edges); the bodies' stiffness `rigid`, 1e6 and 1e5 N/m "
             "on a rigid ground (box-box pairs half that, springs in series); time steps 0.1, 1 "
             "and 10 ms.  \"default\" is a scene that names neither scheme nor model, i.e. what "
             "simc chooses.  Compliant cases start at their static deflection (they test the "
             "resting contact, not a drop onto it).\n")
    for f in figs:
        L.append("![%s](validation/%s)\n" % (os.path.basename(f), os.path.basename(f)))

    # summary table
    cols = [("default", "default")] + [(s, m) for s in SCHEMES for m in MODELS]
    agg = collections.defaultdict(lambda: [0, 0])
    for r in live:
        a = agg[(r["case"], r["scheme"], r["model"])]
        a[0] += r["passed"]
        a[1] += 1
    L.append("## Cells passed per case and configuration\n")
    L.append("Each entry: passed / applicable cells over the 3 stiffnesses x 3 steps.\n")
    L.append("| case | " + " | ".join("%s %s" % (SHORT[s], m if m != "default" else "")
                                       for s, m in cols) + " |")
    L.append("|---" * (len(cols) + 1) + "|")
    for c in cases:
        cells = []
        for s, m in cols:
            p, n = agg[(c.name, s, m)]
            cells.append("%d/%d" % (p, n) if n else "-")
        L.append("| %s | %s |" % (c.name, " | ".join(cells)))
    L.append("")

    # defaults
    L.append("## simc's defaults, cell by cell\n")
    L.append("| case | stiffness | dt | passed | checks (value, tolerance) |")
    L.append("|---|---|---|---|---|")
    for r in rows:
        if r["scheme"] != "default":
            continue
        verdict = "n/a" if r["passed"] == "na" else ("yes" if r["passed"] else "**no**")
        L.append("| %s | %s | %s | %s | %s |" % (r["case"], r["stiffness"], r["dt"], verdict,
                                                 r["checks"]))
    L.append("")

    # orders
    orders = _orders(rows)
    L.append("## Observed orders (rigid contacts)\n")
    L.append("log10 of the first check's error ratio between dt = 1 and 0.1 ms / 10 and 1 ms "
             "(an error at round-off or a failed run gives none).\n")
    L.append("| case | " + " | ".join("%s %s" % (SHORT[s], m) for s in SCHEMES
                                       for m in ("lagged", "lcp")) + " |")
    L.append("|---" * (1 + 2 * len(SCHEMES)) + "|")
    for c in cases:
        cells = []
        for s in SCHEMES:
            for m in ("lagged", "lcp"):
                o = orders.get((c.name, s, m))
                cells.append(" / ".join("-" if x is None else "%.2f" % x for x in o) if o else "-")
        L.append("| %s | %s |" % (c.name, " | ".join(cells)))
    L.append("")

    # references
    L.append("## Cases, references and tolerances\n")
    for c in cases:
        L.append("- **%s** (%s): %s." % (c.name, c.group, c.reference))
    L.append("")

    # failures
    L.append("## Every failing cell\n")
    L.append("Grouped by case; the reasons are in the README's limitations.\n")
    by_case = collections.OrderedDict((c.name, []) for c in cases)
    for r in live:
        if not r["passed"]:
            by_case[r["case"]].append(r)
    for name, fl in by_case.items():
        if not fl:
            continue
        L.append("### %s (%d cells)\n" % (name, len(fl)))
        L.append("| scheme | model | stiffness | dt | checks |")
        L.append("|---|---|---|---|---|")
        for r in fl:
            L.append("| %s | %s | %s | %s | %s |" % (r["scheme"], r["model"], r["stiffness"],
                                                     r["dt"], r["checks"]))
        L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


def _unit(r):
    """the first check's unit (its third word: "name value unit (tol x)")"""
    toks = r["checks"].split("; ")[0].split()
    for i, t in enumerate(toks):
        if i > 0 and _f(t) is not None:
            return toks[i + 1] if i + 1 < len(toks) else ""
    return ""


def write_accuracy(path, rows, cases, accuracies, step, wall, command, csv_name="accuracy.csv",
                   sets=()):
    """results/validation_accuracy.md: simc's defaults under error control,
    each case's first check against the accuracy asked for"""
    os.makedirs(os.path.join(os.path.dirname(os.path.abspath(path)), "validation"),
                exist_ok=True)
    idx = {(r["case"], r["stiffness"], r["accuracy"]): r for r in rows}
    accs = ["%g" % a for a in accuracies]
    L = ["# Validation matrix: the accuracy axis%s\n" % ("".join(", " + kv for kv in sets)),
         "simc's defaults (scheme and contact model not written) under error control, "
         "`time: {accuracy: E, step: %g}`%s: the step is the output interval and, unless "
         "`contact.regularization_step` says otherwise, the longest substep and the step "
         "near-rigid contacts are regularized for (doc/contact.md, 5): the runs integrate "
         "that step's contact law, and its own error against rigid contact is in every "
         "rigid row.  Made by\n\n    %s\n" % (step, "".join(", `%s`" % kv for kv in sets), command),
         "(%d cells in %.0f s on this machine; `make validate`; every cell's numbers are in "
         "`validation/%s`).  Each entry: the case's first check (its main error, "
         "in the unit shown: rel = relative to the reference) and, in brackets, that error "
         "over the accuracy asked for; then the substeps the run took over its duration.  "
         "**Bold**: more than 10 times the accuracy.  A cell marked x failed the case's own "
         "tolerance (the matrix's, chosen for fixed steps; a loose accuracy is allowed to miss "
         "it).  The accuracy bounds each substep's error estimate (doc/step.md, \"Error "
         "control\"): what a case measures sums the errors of many substeps, or is a "
         "model's error that no step removes (compliant contacts against rigid references, "
         "below).\n" % (len(rows), wall, csv_name)]
    for k, title in (("rigid", "rigid contacts"), ("1000000.0", "stiffness 1e6 N/m"),
                     ("100000.0", "stiffness 1e5 N/m")):
        L.append("## %s\n" % title)
        L.append("| case | unit | " + " | ".join("accuracy %s" % a for a in accs) + " |")
        L.append("|---" * (2 + len(accs)) + "|")
        within = total = 0
        for c in cases:
            cells, unit, live = [], "", False
            for a in accs:
                r = idx.get((c.name, k, a))
                if r is None or r["passed"] == "na":
                    cells.append("n/a")
                    continue
                live = True
                v = _primary(r)
                unit = unit or _unit(r)
                if v is None:
                    cells.append("failed: " + r["checks"][:60])
                    total += 1
                    continue
                ratio = v / float(a)
                total += 1
                within += ratio <= 10
                txt = "%.2g (%.2g)" % (v, ratio)
                cells.append(("**%s**" % txt if ratio > 10 else txt) +
                             ("" if r["passed"] else " x") +
                             (", %s" % r.get("substeps") if r.get("substeps") else ""))
            if live:
                L.append("| %s | %s | %s |" % (c.name, unit, " | ".join(cells)))
        L.append("\n%d of %d cells within 10 times the accuracy.\n" % (within, total))
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")
