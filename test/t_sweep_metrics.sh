#!/usr/bin/env bash
# tools/sweep --metric: summary.csv columns computed from each output by a
# small grammar.  A friction sweep of scenes/box_slide.yaml: the final x of
# the box is its start plus the stopping distance v0^2 / (2 mu g) (Coulomb
# friction, no tipping; 2e-3 relative, the step's discretization), at() is
# the linear interpolation of the recorded rows (1e-12), max() of the
# kinetic energy is its initial value; an expression outside the grammar is
# refused before anything runs, and a column the file does not have leaves
# the cell empty.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

tools/sweep scenes/box_slide.yaml --out "$tmp/s" --simc "$BIN/simc" --list contact.defaults.friction=0.2,0.4 \
  --jobs 2 --metric "stop_x=final(/body/position, box.x)" --metric "peak=max(/energy/kinetic)" \
  --metric "x_half=at(/q, box.x, 0.5)" --metric "nope=final(/q, nobody.x)" \
  -- --duration 1 >/dev/null 2>&1
check() {
  $PY - "$tmp/s/summary.csv" <<'PY'
import sys, csv, h5py, numpy as np
rows = list(csv.DictReader(open(sys.argv[1])))
ok = len(rows) == 2
for r in rows:
    mu = float(r["contact.defaults.friction"])
    with h5py.File(r["output"], "r") as f:
        names = [n.decode() for n in f["model/q_names"][...]]
        q, v, t = f["q"][...], f["v"][...], f["time"][...]
        x0, v0 = q[0, names.index("box.x")], v[0, 0]
        want_stop = x0 + v0 * v0 / (2 * mu * 9.81)
        want_half = np.interp(0.5, t, q[:, names.index("box.x")])
        ke0 = f["energy/kinetic"][0]
    e1 = abs(float(r["stop_x"]) - want_stop) / abs(want_stop - x0)
    e2 = abs(float(r["x_half"]) - want_half)
    e3 = abs(float(r["peak"]) - ke0) / ke0
    print("  mu %.1f: stop_x %s (v0^2/(2 mu g): %.6f, rel %.2g), at() %.2g, peak %.2g, nope '%s'"
          % (mu, r["stop_x"], want_stop, e1, e2, e3, r["nope"]))
    ok &= e1 < 2e-3 and e2 < 1e-12 and e3 < 1e-12 and r["nope"] == ""
sys.exit(0 if ok else 1)
PY
}
ok sweep_metrics_values check

# plots/<column>.png for each summary figure and metric with a value (not
# the empty 'nope'), and what they draw is summary.csv's column against the
# swept friction (tools/sweep's summary_series, read back independently)
plots_check() {
  $PY - "$tmp/s" <<'PY'
import csv, importlib.machinery, importlib.util, os, sys
d = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("sweep_mod", "tools/sweep")
spec = importlib.util.spec_from_loader("sweep_mod", loader)
sw = importlib.util.module_from_spec(spec)
loader.exec_module(sw)
with open(os.path.join(d, "summary.csv")) as f:
    rd = csv.reader(f)
    header = next(rd)
    rows = list(rd)
cols = ["stop_x", "peak", "iter_mean", "max_penetration_m"]
series = sw.summary_series(header, rows, ["contact.defaults.friction"], cols + ["nope"])
ok = "nope" not in series and not os.path.exists(os.path.join(d, "plots", "nope.png"))
for c in cols:
    png = os.path.join(d, "plots", c + ".png")
    xkey, lines = series[c]
    want = sorted((float(r[header.index("contact.defaults.friction")]), float(r[header.index(c)]))
                  for r in rows)
    got = list(zip(lines[0][1], lines[0][2]))
    ok &= (os.path.getsize(png) > 5000 and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
           and xkey == "contact.defaults.friction" and len(lines) == 1 and got == want)
    print("  %s: %s against the friction %s" % (c, [y for _, y in got], [x for x, _ in got]))
sys.exit(0 if ok else 1)
PY
}
ok sweep_plots_per_metric plots_check
tools/sweep scenes/box_slide.yaml --out "$tmp/b" --list contact.defaults.friction=0.2 \
  --metric 'x=__import__("os").system("touch '"$tmp"'/PWNED")' >/dev/null 2>"$tmp/e1"; rc=$?
ok sweep_metric_grammar_only "[ $rc != 0 ] && [ ! -e '$tmp/PWNED' ] && [ ! -d '$tmp/b/runs' ] && grep -q 'expected final' '$tmp/e1'"
tools/sweep scenes/box_slide.yaml --out "$tmp/c" --list contact.defaults.friction=0.2 \
  --metric 'a=final(/q,0)' --metric 'a=max(/q,0)' >/dev/null 2>"$tmp/e2"; rc=$?
ok sweep_metric_names_unique "[ $rc != 0 ] && grep -q 'same name' '$tmp/e2'"
