#!/usr/bin/python3
"""wp_steps.py: the step-size axis of the work-precision bench
(tools/bench/bench_wp_steps.sh; doc/performance.md, "Work-precision: fixed
steps against error control").

  wp_steps.py fig SCENE YAML RUN.h5 SAMPLE
      one line of key=value figures for one simc run:
        cost      the steps' wall time (sum of /solver/wall_time, output
                  excluded) over the simulated time, s per simulated s
        steps     steps taken (error control: accepted substeps)
        rejected  substeps taken again (error control)
        error     the scene's error (below), sampled at the multiples of
                  SAMPLE s that the run recorded, so that a fixed-step run
                  recording every step and an error-controlled one recording
                  each interval are measured at the same times
        depth     the deepest contact over every step (max_penetration), m
      The scenes' errors are those of tools/bench/wp_report.py (settled:
      mean speed of the spheres, m/s; pile: deepest contact, m; stack and
      tower: how far the top box moved, m; slide: the stopping point's
      distance from v0^2 / (2 mu g), m; roll: the speed's distance from
      5/7 g sin(a) t, m/s) and, for MuJoCo's humanoid dropped (humanoid),
      the energy balance's error |B(T) - B(0)|, J, with B = total +
      dissipated - actuator (doc/output.md): a conservation law the step
      keeps only as well as it integrates.
  wp_steps.py report DIR
      the page (markdown on stdout) and one plot per scene into DIR, from
      DIR/raw/SCENE__CONFIG.txt (each: the command, then the figures line).
      An error-controlled run is "on or ahead of" the fixed steps' front
      when no fixed-step run is both cheaper and more accurate; a scene
      counts for error control when at least half of its error-controlled
      runs are.
"""
import glob
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wp_report  # noqa: E402  (the scenes' errors and their YAML reader)


def fig(scene, yaml, path, sample):
    import h5py
    import numpy as np
    with h5py.File(path, "r") as f:
        t = f["/time"][:]
        wall = f["/solver/wall_time"][:]
        span = float(t[-1] - t[0])
        cost = float(np.sum(wall[1:])) / span if span > 0 else math.nan
        if "/solver/substeps" in f:
            steps = int(np.sum(f["/solver/substeps"][1:]))
            rejected = int(np.sum(f["/solver/rejected_substeps"][1:]))
        else:
            steps, rejected = len(t) - 1, 0
        k = np.rint(t / sample)
        rows = np.nonzero((np.abs(t - k * sample) <= 1e-9 * max(sample, 1.0)) & (t > 0))[0]
        depth = float(f.attrs["max_penetration"])
        status = f.attrs["status"]
        status = status.decode() if isinstance(status, bytes) else str(status)
        if scene == "humanoid":
            b = f["/energy/total"][:] + f["/energy/dissipated"][:]
            if "/energy/actuator" in f:
                b = b - f["/energy/actuator"][:]
            err = abs(float(b[-1] - b[0]))
        elif scene == "pile":
            err = depth
        else:
            pos = f["/body/position"][:, 1:, :]
            quat = f["/body/orientation"][:, 1:, :]
            nb = pos.shape[1]
            v = f["/v"][:].reshape(len(t), nb, 6)
            if scene == "settled":
                err = float(np.mean(np.linalg.norm(v[rows, :, :3], axis=2)))
            else:
                states = [list(pos[-1, i]) + list(quat[-1, i]) + list(v[-1, i]) for i in range(nb)]
                err = wp_report.error_of(scene, {}, states, wp_report.scene_info(yaml))
    print(f"cost={cost:.6g} steps={steps} rejected={rejected} error={err:.6g} depth={depth:.6g} "
          f"samples={len(rows)} status={status.split(':')[0].replace(' ', '_')}")
    return 0


SCENES = [
    ("settled", "settled pile (216 spheres), 0.3 s", "mean resting speed (m/s)"),
    ("pile", "pile forming (216 spheres), 0.6 s", "deepest contact (m)"),
    ("stack", "stack 1:100:10000 kg, 1 s", "top box moved (m)"),
    ("tower", "10-box tower, 1 s", "top box moved (m)"),
    ("slide", "sliding box, 0.6 s", "stopping point error (m)"),
    ("roll", "rolling ball on 10 deg, 1 s", "speed error (m/s)"),
    ("humanoid", "MuJoCo's humanoid.xml dropped, 2 s", "energy balance error (J)"),
]


def report(d):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fmt = wp_report.fmt
    print("# Work-precision: fixed steps against error control")
    print()
    print("Made by `tools/bench/bench_wp_steps.sh` (in `make bench`); each run's figures are in")
    print("[wp_steps/raw/](wp_steps/raw/), its command on the first line.  simc's defaults on")
    print("each scene at a ladder of fixed steps δt and under error control (`--accuracy ε`, with")
    print("`time.step` the output interval, the longest substep and the step its near-rigid contacts")
    print("are regularized for: doc/step.md).  Cost: the steps' wall time")
    print("over the simulated time (s per simulated s; `/solver/wall_time`, output excluded),")
    print("runs one at a time.  Error: the scene's (tools/bench/wp_steps.py), sampled at the")
    print("same times in every run.  An error-controlled run is on or ahead of the fixed steps'")
    print("front when no fixed-step run is both cheaper and more accurate; a scene counts for")
    print("error control when at least half of its error-controlled runs are.")
    print()
    summary = []
    for scene, title, elabel in SCENES:
        runs = []
        for path in sorted(glob.glob(os.path.join(d, "raw", scene + "__*.txt"))):
            config = os.path.basename(path)[:-4].split("__")[1]
            f, _, failed, cmd = wp_report.read_run(path)
            c, e = f.get("cost", math.nan), f.get("error", math.nan)
            if failed or isinstance(c, str) or isinstance(e, str):
                c, e = math.nan, math.nan
            runs.append(dict(config=config, cost=c, err=e, f=f, failed=failed, cmd=cmd,
                             adaptive=config.startswith("acc")))
        if not runs:
            continue
        runs.sort(key=lambda r: (r["adaptive"], -float(r["config"].split("_")[2][1:]) if r["adaptive"] else 0,
                                 -float(r["config"].split("_")[1])))
        fixed = [r for r in runs if not r["adaptive"] and math.isfinite(r["cost"]) and math.isfinite(r["err"])]
        for r in runs:
            if r["adaptive"] and math.isfinite(r["cost"]) and math.isfinite(r["err"]):
                r["ahead"] = not any(x["cost"] <= r["cost"] and x["err"] < r["err"] or
                                     x["cost"] < r["cost"] and x["err"] <= r["err"] for x in fixed)
            else:
                r["ahead"] = None
        fig_, ax = plt.subplots(figsize=(7, 4.8))
        groups = [("fixed δt", [r for r in runs if not r["adaptive"]])]
        for H in sorted({r["config"].split("_")[2] for r in runs if r["adaptive"]}, key=lambda x: -float(x[1:])):
            groups.append((f"--accuracy ε, time.step {H[1:]} s", [r for r in runs if r["adaptive"] and r["config"].split("_")[2] == H]))
        for k, (lab, grp) in enumerate(groups):
            pts = [r for r in grp if math.isfinite(r["cost"]) and math.isfinite(r["err"])]
            if not pts:
                continue
            ax.plot([max(r["err"], 1e-16) for r in pts], [r["cost"] for r in pts], "o-" if k == 0 else "s--",
                    color=["tab:blue", "tab:red", "tab:orange", "tab:green"][k % 4], label=lab, lw=0.8, ms=4)
            for r in pts:
                ax.annotate(r["config"].split("_")[1], (max(r["err"], 1e-16), r["cost"]), fontsize=6,
                            xytext=(3, 2), textcoords="offset points")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(elabel)
        ax.set_ylabel("s per simulated s")
        ax.set_title(title)
        ax.legend(fontsize=7)
        fig_.tight_layout()
        fig_.savefig(os.path.join(d, scene + ".png"), dpi=110)
        plt.close(fig_)
        print(f"## {title}")
        print()
        print(f"![{title}](wp_steps/{scene}.png)")
        print()
        print(f"| run | cost (s / simulated s) | error: {elabel} | steps | rejected | deepest (m) | on or ahead of the fixed front |")
        print("|---|---|---|---|---|---|---|")
        for r in runs:
            f = r["f"]
            c = r["config"].split("_")
            name = f"ε = {c[1]}, time.step {c[2][1:]} s" if r["adaptive"] else f"δt = {c[1]} s"
            verdict = r["failed"] or ("" if r["ahead"] is None else ("yes" if r["ahead"] else "no"))
            print(f"| {name} | {fmt(r['cost'])} | {fmt(r['err'])} | {fmt(f.get('steps'), '.0f')} | "
                  f"{fmt(f.get('rejected'), '.0f')} | {fmt(f.get('depth'))} | {verdict} |")
        print()
        ad = [r for r in runs if r["adaptive"]]
        n_ahead = sum(1 for r in ad if r["ahead"])
        summary.append((title, n_ahead, len(ad), len(ad) > 0 and 2 * n_ahead >= len(ad)))
    print("## Summary")
    print()
    print("| scene | error-controlled runs on or ahead of the fixed front | counts |")
    print("|---|---|---|")
    for title, n, tot, ok in summary:
        print(f"| {title} | {n} of {tot} | {'yes' if ok else 'no'} |")
    print()
    print(f"Scenes where error control is on or ahead of fixed steps: "
          f"**{sum(1 for s in summary if s[3])} of {len(summary)}**.")
    return 0


def main(argv):
    if len(argv) == 6 and argv[1] == "fig":
        return fig(argv[2], argv[3], argv[4], float(argv[5]))
    if len(argv) == 3 and argv[1] == "report":
        return report(argv[2])
    print("usage: wp_steps.py fig SCENE YAML RUN.h5 SAMPLE | wp_steps.py report DIR", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
