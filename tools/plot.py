#!/usr/bin/python3
"""plot.py FILE.h5 [-o OUT.png] [--what energy,q,contacts,iterations,bodies,actuators,residuals]
          [--q NAME,...] [--bodies NAME,...] [--overlay B.h5] [--title TEXT] [--dpi N]

PNG plots of a simc HDF5 trajectory: the energy log (kinetic, gravity, spring,
total, and the balance total + dissipated - actuator work vs time, the
actuator work itself when the model has actuators), chosen coordinates by
their q_names, the contact count and largest penetration, and the contact
solver's iterations (Newton iterations or Lemke pivots) per step, (bodies)
the height z of chosen body origins in the world from /body/position (files
of format_version 2 on; an older file's bodies panel says it has no poses),
and (actuators) the generalized force each actuator applied, from
/actuator/force, labelled by /model/actuator_names with its unit (N or N m);
the actuators panel is added to the default panels when the file has
actuators; (residuals) the contact solution's distance from exact Coulomb
friction per row, /solver/signorini, dissipation_gap and coulomb_residual
(J, log scale), beside the largest penetration.  A file written with output.contacts: false (no contact rows)
plots too: its penetration is /contact/max_penetration.  --overlay draws a
second run on the same axes (dashed), e.g. the same scene with --solver lcp;
the legend names each run by its `solver` attribute.

Run it with /usr/bin/python3 (Debian's python3-h5py python3-numpy
python3-matplotlib)."""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/
# simc_h5.py: beside this script in tools/, or in ../share/simc when installed
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [_here, os.path.join(_here, "..", "share", "simc")]
import simc_h5  # noqa: E402

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

WHAT = ("energy", "q", "contacts", "iterations", "bodies", "actuators", "residuals")
DEFAULT_WHAT = ("energy", "q", "contacts", "iterations")  # + actuators when a run has them
STYLES = ("-", "--")


def default_q(run, k=3):
    """The k coordinates that move most (quaternion components last)."""
    import numpy as np
    rng = np.ptp(run.q, axis=0) if len(run.t) else np.zeros(len(run.q_names))
    order = sorted(range(len(run.q_names)),
                   key=lambda i: (simc_h5.q_unit(run.q_names[i]) == "1", -rng[i]))
    return [run.q_names[i] for i in order[:k]]


def run_labels(runs):
    labels = [r.label for r in runs]
    if len(set(labels)) < len(labels):  # same solver twice: use the file names
        labels = ["%s (%s)" % (r.label, os.path.basename(r.path)) for r in runs]
    return labels


def panel_energy(ax, runs, labels):
    keys = ("kinetic", "gravity", "spring", "total")
    colors = {"kinetic": "C0", "gravity": "C1", "spring": "C2", "total": "k",
              "balance": "C3", "actuator": "C4"}
    for r, lab, ls in zip(runs, labels, STYLES):
        show = keys if len(runs) == 1 else ("total",)
        if len(runs) == 1 and "actuator" in r.energy:
            show = show + ("actuator",)
        for k in show:
            name = "actuator work" if k == "actuator" else k
            ax.plot(r.t, r.energy[k], ls, color=colors[k], lw=1.2,
                    label=name if len(runs) == 1 else "%s: %s" % (lab, name))
        # the balance: constant up to the integrator's error
        bal = r.energy_balance() + r.energy["total"][0] if len(r.t) else r.energy["total"]
        ax.plot(r.t, bal, ls, color=colors["balance"], lw=1.2,
                label=r.balance_label() if len(runs) == 1
                else "%s: %s" % (lab, r.balance_label()))
    ax.set_ylabel("energy (J)")
    ax.set_title("energy")


def panel_q(ax, runs, labels, names):
    units = sorted({simc_h5.q_unit(n) for n in names})
    for j, name in enumerate(names):
        for r, lab, ls in zip(runs, labels, STYLES):
            i = r.q_index(name)
            ax.plot(r.t, r.q[:, i], ls, color="C%d" % j, lw=1.2,
                    label=name if len(runs) == 1 else "%s: %s" % (lab, name))
    ax.set_ylabel("q (%s)" % ", ".join(units))
    ax.set_title("coordinates")


def panel_contacts(ax, runs, labels):
    ax2 = ax.twinx()
    for r, lab, ls in zip(runs, labels, STYLES):
        pre = "" if len(runs) == 1 else lab + ": "
        ax.step(r.t, r.count, ls, where="post", color="C0", lw=1.0, label=pre + "contacts")
        ax2.plot(r.t, r.penetration() * 1e3, ls, color="C3", lw=1.0,
                 label=pre + "max penetration")
    ax.set_ylabel("contacts (count)", color="C0")
    ax2.set_ylabel("max penetration (mm)", color="C3")
    ax.set_title("contacts")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="best")


def panel_bodies(ax, runs, labels, names):
    for r, lab, ls in zip(runs, labels, STYLES):
        note = r.poses_note()
        if note:
            print("plot.py: note: " + note, file=sys.stderr)
            ax.text(0.5, 0.5, "%s: no body poses (format_version %d)"
                    % (os.path.basename(r.path), r.format_version),
                    transform=ax.transAxes, ha="center", fontsize=8)
            continue
        for j, name in enumerate(names):
            b = r.body_names.index(name)
            ax.plot(r.t, r.body_pos[:, b, 2], ls, color="C%d" % j, lw=1.2,
                    label=name if len(runs) == 1 else "%s: %s" % (lab, name))
    ax.set_ylabel("body origin z (m)")
    ax.set_title("bodies")


def panel_actuators(ax, runs, labels):
    """The generalized force of every actuator (/actuator/force), labelled by
    /model/actuator_names and unit; forces in N on the left axis, torques in
    N m on a right-hand one when the model has both."""
    units = []
    for r in runs:
        for a in r.actuators():
            if a["force_unit"] not in units:
                units.append(a["force_unit"])
    axes = {units[0]: ax} if units else {}
    if len(units) > 1:
        axes[units[1]] = ax.twinx()
        for u in units[2:]:
            axes[u] = axes[units[1]]
    color = {}
    for r, lab, ls in zip(runs, labels, STYLES):
        if r.actuator_force is None:
            print("plot.py: note: %s has no actuators (no /actuator/force)" % r.path,
                  file=sys.stderr)
            ax.text(0.5, 0.5, "%s: no actuators" % os.path.basename(r.path),
                    transform=ax.transAxes, ha="center", fontsize=8)
            continue
        for j, a in enumerate(r.actuators()):
            c = color.setdefault(a["name"], "C%d" % (len(color) % 10))
            name = "%s (%s)" % (a["name"], a["force_unit"])
            axes[a["force_unit"]].plot(r.t, r.actuator_force[:, j], ls, color=c, lw=1.2,
                                       label=name if len(runs) == 1 else "%s: %s" % (lab, name))
    for k, u in enumerate(units[:2]):
        shared = [x for x in units[1:] if axes[x] is axes[u]] if k else [u]
        axes[u].set_ylabel("actuator force (%s)" % ", ".join(shared))
    ax.set_title("actuators: generalized force applied")
    hs, ls_ = [], []
    for a in dict.fromkeys(axes.values()):
        h, l = a.get_legend_handles_labels()
        hs += h
        ls_ += l
    if hs:
        ax.legend(hs, ls_, fontsize=7, loc="best")


def panel_residuals(ax, runs, labels):
    """the contact solution's distance from exact Coulomb friction per row
    (/solver/signorini, dissipation_gap, coulomb_residual; J, log scale),
    with the largest penetration (mm) on the right axis"""
    import numpy as np
    names = {"signorini": "Signorini |gn wn|", "dissipation_gap": "max. dissipation gap",
             "coulomb_residual": "De Saxce residual"}
    ax2 = ax.twinx()
    any_res = False
    for r, lab, ls in zip(runs, labels, STYLES):
        pre = "" if len(runs) == 1 else lab + ": "
        if r.residuals is not None:
            for k, c in zip(simc_h5.RESIDUALS, ("C0", "C1", "C2")):
                y = np.asarray(r.residuals[k], float)
                pos = y > 0
                if pos.any():
                    ax.plot(r.t[pos], y[pos], ls, color=c, lw=0.8, label=pre + names[k])
                    any_res = True
        ax2.plot(r.t, r.penetration() * 1e3, ls, color="C3", lw=0.8, label=pre + "max penetration")
    if any_res:
        ax.set_yscale("log")
    else:
        ax.text(0.5, 0.5, "no Coulomb residuals in %s (format_version < 4, or no contact)"
                % ", ".join(os.path.basename(r.path) for r in runs),
                transform=ax.transAxes, ha="center", va="center", fontsize=8)
    ax.set_ylabel("residual (J)")
    ax2.set_ylabel("max penetration (mm)", color="C3")
    ax.set_title("distance from Coulomb's law, and penetration")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="best")


def panel_iterations(ax, runs, labels):
    for r, lab, ls, c in zip(runs, labels, STYLES, ("C0", "C1")):
        name = "Lemke pivots" if r.solver == "lcp" else "Newton iterations"
        ax.plot(r.t[1:], r.iterations[1:], ls, color=c, lw=0.8, drawstyle="steps-post",
                label="%s (%s)" % (lab, name))
    ax.set_ylabel("iterations per step (count)")
    ax.set_title("contact solver")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("-o", "--output", help="PNG to write (default FILE.png)")
    ap.add_argument("--what", help="comma-separated panels: " + ",".join(WHAT) +
                    " (default %s, and actuators when a run has them)" % ",".join(DEFAULT_WHAT))
    ap.add_argument("--q", help="comma-separated q_names to plot (default: the 3 that move most)")
    ap.add_argument("--bodies", help="comma-separated body names for the bodies panel "
                    "(default: the first 3 that are not the world)")
    ap.add_argument("--overlay", help="a second simc file drawn dashed on the same axes")
    ap.add_argument("--title", help="figure title (default: scene name and files)")
    ap.add_argument("--dpi", type=int, default=100)
    a = ap.parse_args(argv)
    if plt is None or simc_h5.h5py is None:
        print("plot.py: needs h5py, numpy and matplotlib: " + simc_h5.APT_LINE, file=sys.stderr)
        return 2
    what = [w.strip() for w in (a.what if a.what is not None else ",".join(DEFAULT_WHAT)).split(",")
            if w.strip()]
    bad = [w for w in what if w not in WHAT]
    if bad or not what:
        print("plot.py: --what takes %s (got %s)" % (",".join(WHAT), a.what), file=sys.stderr)
        return 1
    try:
        runs = [simc_h5.Run(a.file)] + ([simc_h5.Run(a.overlay)] if a.overlay else [])
    except simc_h5.BadFile as e:  # one line naming the dataset
        print("plot.py: %s" % e, file=sys.stderr)
        return 1
    except (OSError, KeyError) as e:
        print("plot.py: cannot read: %s" % simc_h5._why(e), file=sys.stderr)
        return 1
    if a.what is None and any(r.actuator_force is not None for r in runs):
        what.append("actuators")
    names = [s.strip() for s in a.q.split(",")] if a.q else default_q(runs[0])
    for r in runs:
        for n in names:
            if n not in r.q_names:
                print("plot.py: %s has no coordinate %r (q_names: %s)"
                      % (r.path, n, ", ".join(r.q_names)), file=sys.stderr)
                return 1
    bodies = ([s.strip() for s in a.bodies.split(",")] if a.bodies
              else [n for n in runs[0].body_names[1:4]])
    for r in runs:
        for n in bodies:
            if n not in r.body_names:
                print("plot.py: %s has no body %r (bodies: %s)"
                      % (r.path, n, ", ".join(r.body_names)), file=sys.stderr)
                return 1
    labels = run_labels(runs)
    out = a.output or os.path.splitext(a.file)[0] + ".png"

    fig, axes = plt.subplots(len(what), 1, figsize=(8, 2.6 * len(what) + 0.6), sharex=True,
                             squeeze=False)
    axes = axes[:, 0]
    for ax, w in zip(axes, what):
        if w == "energy":
            panel_energy(ax, runs, labels)
        elif w == "q":
            panel_q(ax, runs, labels, names)
        elif w == "contacts":
            panel_contacts(ax, runs, labels)
        elif w == "iterations":
            panel_iterations(ax, runs, labels)
        elif w == "bodies":
            panel_bodies(ax, runs, labels, bodies)
        elif w == "actuators":
            panel_actuators(ax, runs, labels)
        elif w == "residuals":
            panel_residuals(ax, runs, labels)
        if w not in ("contacts", "actuators", "residuals") and ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7, loc="best")
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    title = a.title or "%s — %s" % (runs[0].attrs.get("scene_name", ""),
                                    " vs ".join(os.path.basename(r.path) for r in runs))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=a.dpi)
    plt.close(fig)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
