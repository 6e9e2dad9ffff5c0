#!/usr/bin/python3
"""wp_report.py DIR: the work-precision page (markdown on stdout, plots and
wp.csv into DIR) from the runs tools/bench/bench_wp.sh recorded in DIR/raw:
one file per scene, engine and configuration (its figures: a summary line of
key=value fields and the final state of each body), and each scene's YAML.

Each scene's error (doc/performance.md, "Work-precision"):
  settled   mean speed of the spheres over the run, m/s (at rest: 0)
  pile      deepest contact over the run, m
  stack*, tower*   |p_top(T) - p_top(0)|, m: how far the top box moved
  slide     |p(T) - p0 - d v0^2 / (2 mu g)|, m (d: the launch direction)
  roll      |v(T) - 5/7 g sin(a) T|, m/s
Cost: the mean wall time of a step over the window, ms.
"""
import glob
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SCENES = [
    ("settled", "settled pile, dt 1 ms", "mean resting speed (m/s)"),
    ("pile", "pile forming (0.6 s), dt 1 ms", "deepest contact (m)"),
    ("stack1", "stack 1:100:10000 kg, dt 1 ms", "top box moved (m)"),
    ("stack10", "stack 1:100:10000 kg, dt 10 ms", "top box moved (m)"),
    ("tower1", "10-box tower, dt 1 ms", "top box moved (m)"),
    ("tower10", "10-box tower, dt 10 ms", "top box moved (m)"),
    ("slide", "sliding box, dt 1 ms", "stopping point error (m)"),
    ("roll", "rolling ball on 10 deg, dt 1 ms", "speed error (m/s)"),
]
ENGINES = {"simc": "simc", "ode": "ODE 0.16", "mujoco": "MuJoCo 2.2.2", "wasm": "MuJoCo 3.3.8 (WASM)"}
COLORS = {"simc": "tab:blue", "ode": "tab:orange", "mujoco": "tab:green", "wasm": "tab:red"}


def scene_info(path):
    """duration, gravity, mu and the bodies' initial (q, v) from a scene YAML"""
    text = open(path).read()
    dur = float(re.search(r"duration:\s*([-+0-9.eE]+)", text).group(1))
    g = [float(x) for x in re.search(r"^gravity:\s*\[([^\]]*)\]", text, re.M).group(1).split(",")]
    mu = float(re.search(r"friction:\s*([-+0-9.eE]+)", text).group(1))
    bodies = []
    for m in re.finditer(r"initial:\s*\{q:\s*\[([^\]]*)\](?:,\s*v:\s*\[([^\]]*)\])?", text):
        q = [float(x) for x in m.group(1).split(",")]
        v = [float(x) for x in m.group(2).split(",")] if m.group(2) else [0.0] * 6
        bodies.append((q, v))
    return dur, g, mu, bodies


def read_run(path):
    """the summary fields, the bodies' final states and the failure, if any"""
    fields, states, failed, cmd = {}, [], None, ""
    for line in open(path):
        line = line.strip()
        if line.startswith("# ") and not cmd:
            cmd = line[2:]
        elif line.startswith("body "):
            states.append([float(x) for x in line.split()[2:]])
        elif line.startswith("failed"):
            failed = line
        elif "=" in line and not line.startswith("#"):
            for tok in line.split():
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    try:
                        fields[k] = float(v)
                    except ValueError:
                        fields[k] = v
    return fields, states, failed, cmd


def error_of(scene, fields, states, info):
    dur, g, mu, bodies = info
    gn = math.sqrt(sum(x * x for x in g))
    if scene == "settled":
        return fields.get("mean_speed", math.nan)
    if scene == "pile":
        return fields.get("max_depth", math.nan)
    if not states or len(states) != len(bodies):
        return math.nan
    if scene.startswith(("stack", "tower")):
        p0, p1 = bodies[-1][0][:3], states[-1][:3]
        return math.dist(p0, p1)
    if scene == "slide":
        (q, v), s = bodies[0], states[0]
        sp = math.hypot(v[0], v[1])
        d = sp * sp / (2 * mu * gn)
        exact = [q[0] + d * v[0] / sp, q[1] + d * v[1] / sp]
        return math.dist(exact, s[:2])
    if scene == "roll":
        gt = math.hypot(g[0], g[1])
        ve = 5.0 / 7.0 * gt * dur
        dirn = [g[0] / gt, g[1] / gt]
        s = states[0]
        return math.dist([ve * dirn[0], ve * dirn[1], 0.0], s[7:10])
    return math.nan


def top_box(scene, states, info):
    """stack and tower: the top box's sink (initial z - final z, m) and tilt
    (angle between its z axis and the world's, rad; it starts upright)"""
    bodies = info[3]
    if not scene.startswith(("stack", "tower")) or not states or len(states) != len(bodies):
        return math.nan, math.nan
    s = states[-1]
    qx, qy = s[4], s[5]
    return bodies[-1][0][2] - s[2], 2.0 * math.asin(min(1.0, math.sqrt(qx * qx + qy * qy)))


def pareto(points):
    """indices of the points no other point beats in both cost and error"""
    front = []
    for i, (c, e) in enumerate(points):
        if not (math.isfinite(c) and math.isfinite(e)):
            continue
        if not any(j != i and math.isfinite(c2) and math.isfinite(e2) and c2 <= c and e2 <= e and (c2 < c or e2 < e)
                   for j, (c2, e2) in enumerate(points)):
            front.append(i)
    return front


def fmt(x, spec=".3g"):
    return "-" if x is None or (isinstance(x, float) and not math.isfinite(x)) else format(x, spec)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return math.nan if n == 0 else (xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2]))


def ratios(d, rows):
    """the speed targets' table: simc (lagged, the default, and sap) against
    ODE QuickStep-20, from raw/ratios.txt (the piles forming) and from the
    matrix (the settled pile)"""
    path = os.path.join(d, "raw", "ratios.txt")
    table = []  # (case, lagged ms, sap ms, QuickStep-20 ms, target on simc / QuickStep steps/s)
    by = {(r["scene"], r["engine"], r["config"]): r["cost"] for r in rows}
    st = (by.get(("settled", "simc", "lagged_tol1e-6")), by.get(("settled", "simc", "sap_tol1e-6")),
          by.get(("settled", "ode", "quickstep_20")))
    if all(x is not None for x in st):
        table.append(("settled 216, 0.3 s (matrix above, one run)",) + st + (1.0,))
    head = ""
    if os.path.exists(path):
        runs = {}
        for line in open(path):
            if line.startswith("#"):
                head = line[2:].strip()
                continue
            f = line.split()
            if len(f) == 5:
                try:
                    runs.setdefault((f[0], f[1]), {}).setdefault(f[2], []).append(float(f[4]))
                except ValueError:
                    pass
        targets = {"pile216": 0.5, "pile1000": 0.2}
        for (case, dur), eng in sorted(runs.items(), key=lambda kv: int(kv[0][0][4:])):
            table.append((f"{case[4:]} spheres forming, {dur} s (median of {len(eng.get('ode', []))})",
                          median(eng.get("lagged", [])), median(eng.get("sap", [])), median(eng.get("ode", [])),
                          targets.get(case, math.nan)))
    if not table:
        return
    print("## Speed against ODE QuickStep-20 (the targets)")
    print()
    print("ms per step of the step alone (simc: /solver/wall_time; ODE: its timed step loop), dt 1 ms,")
    print("rigid contact.  simc / QuickStep is QuickStep's ms per step over simc's (steps/s ratio,")
    print("above 1: simc faster); target: the bound set on that ratio for the default model")
    print(f"(lagged); lagged / sap: the default model's cost per step over sap's (target <= 1).  {head}")
    print()
    print("| case | lagged ms/step | sap ms/step | QuickStep-20 ms/step | lagged / QuickStep (steps/s) | sap / QuickStep | target | met | lagged / sap (ms) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case, lg, sp, qs, tgt in table:
        r1, r2 = qs / lg, qs / sp
        met = "-" if not math.isfinite(tgt) else ("yes" if r1 >= tgt else "no")
        print(f"| {case} | {fmt(lg)} | {fmt(sp)} | {fmt(qs)} | {fmt(r1)} | {fmt(r2)} | >= {fmt(tgt)} | {met} | "
              f"{fmt(lg / sp)} |")
    print()


def main(argv):
    if len(argv) != 2:
        print("usage: wp_report.py DIR", file=sys.stderr)
        return 2
    d = argv[1]
    rows = []
    for scene, _, _ in SCENES:
        yaml = os.path.join(d, "raw", scene + ".yaml")
        if not os.path.exists(yaml):
            continue
        info = scene_info(yaml)
        for path in sorted(glob.glob(os.path.join(d, "raw", scene + "__*.txt"))):
            _, engine, config = os.path.basename(path)[:-4].split("__")
            fields, states, failed, cmd = read_run(path)
            err = math.nan if failed else error_of(scene, fields, states, info)
            cost = fields.get("ms_per_step", math.nan) if not failed else math.nan
            if isinstance(cost, str):
                cost = math.nan
            sink, tilt = (math.nan, math.nan) if failed else top_box(scene, states, info)
            rows.append(dict(scene=scene, engine=engine, config=config, cost=cost, err=err, f=fields,
                             failed=failed, cmd=cmd, sink=sink, tilt=tilt))
    with open(os.path.join(d, "wp.csv"), "w") as out:
        out.write("scene,engine,config,ms_per_step,error,mean_speed,max_speed,max_depth,floor_ratio,max_drop,failed,"
                  "top_sink,top_tilt\n")
        for r in rows:
            f = r["f"]
            out.write(",".join([r["scene"], r["engine"], r["config"], fmt(r["cost"], ".6g"), fmt(r["err"], ".6g")] +
                               [fmt(f.get(k, math.nan), ".6g") if not isinstance(f.get(k), str) else "-"
                                for k in ("mean_speed", "max_speed", "max_depth", "floor_ratio", "max_drop")] +
                               ["1" if r["failed"] else "0", fmt(r["sink"], ".6g"), fmt(r["tilt"], ".6g")]) + "\n")
    print("# Work-precision: cost per step against a measured error")
    print()
    print("Made by `tools/bench/bench_wp.sh` (in `make bench`); the figures of each run are in")
    print("[wp/raw/](wp/raw/) (first line: the command), all of them in [wp/wp.csv](wp/wp.csv).")
    print("Each plot: one marker per engine configuration, log-log, the Pareto front (no other")
    print("configuration both cheaper and more accurate) drawn; lower left is better.")
    print("Errors against known answers (doc/performance.md); cost = mean wall time of a step")
    print("(simc: /solver/wall_time, output excluded; peers: their step loop), runs one at a time.")
    print()
    summary = []
    for scene, title, elabel in SCENES:
        rs = [r for r in rows if r["scene"] == scene]
        if not rs:
            continue
        pts = [(r["cost"], r["err"]) for r in rs]
        front = set(pareto(pts))
        fig, ax = plt.subplots(figsize=(7, 4.8))
        for i, r in enumerate(rs):
            c, e = pts[i]
            if not (math.isfinite(c) and math.isfinite(e)):
                continue
            ax.scatter([max(e, 1e-16)], [c], color=COLORS.get(r["engine"], "k"),
                       marker="o" if i in front else "x", s=30)
            ax.annotate(r["config"].replace("_tol", " ").replace("quickstep_", "Q"), (max(e, 1e-16), c),
                        fontsize=6, xytext=(3, 2), textcoords="offset points")
        fr = sorted((pts[i] for i in front), key=lambda p: p[1])
        if fr:
            ax.plot([max(p[1], 1e-16) for p in fr], [p[0] for p in fr], "k--", lw=0.8)
        for e, lab in ENGINES.items():
            ax.scatter([], [], color=COLORS[e], label=lab)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(elabel)
        ax.set_ylabel("ms per step")
        ax.set_title(title + " (o: on the Pareto front)")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(d, scene + ".png"), dpi=110)
        plt.close(fig)
        print(f"## {title}")
        print()
        print(f"![{title}](wp/{scene}.png)")
        print()
        tb = scene.startswith(("stack", "tower"))
        print(f"| engine | configuration | ms/step | error: {elabel} | mean / max speed (m/s) | deepest (m) | floor force / weight | Pareto |"
              + (" top box sink (m) / tilt (rad) |" if tb else ""))
        print("|---|---|---|---|---|---|---|---|" + ("---|" if tb else ""))
        for i, r in enumerate(rs):
            f = r["f"]
            status = r["failed"] if r["failed"] else ("yes" if i in front else "")
            print(f"| {ENGINES.get(r['engine'], r['engine'])} | {r['config']} | {fmt(r['cost'])} | {fmt(r['err'])} | "
                  f"{fmt(f.get('mean_speed'))} / {fmt(f.get('max_speed'))} | {fmt(f.get('max_depth'))} | "
                  f"{fmt(f.get('floor_ratio'), '.4f')} | {status} |"
                  + (f" {fmt(r['sink'])} / {fmt(r['tilt'])} |" if tb else ""))
        print()
        simc_front = [rs[i] for i in front if rs[i]["engine"] == "simc"]
        peers_front = [rs[i] for i in front if rs[i]["engine"] != "simc"]
        summary.append((title, len(simc_front), [p["engine"] + " " + p["config"] for p in peers_front]))
    ratios(d, rows)
    print("## Who is on the front")
    print()
    print("| scene | simc configurations on the front | peer configurations on the front |")
    print("|---|---|---|")
    for title, ns, peers in summary:
        print(f"| {title} | {ns} | {', '.join(peers) if peers else 'none'} |")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
