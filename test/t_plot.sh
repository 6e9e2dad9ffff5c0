#!/usr/bin/env bash
# tools/plot.py and tools/compare_report.py on tiny simc runs: a valid PNG
# (signature, IHDR size, non-trivial file), the overlay and --what/--q
# options, bad arguments rejected; the compare report has one row per solver
# with numeric cells, and its JSON agrees with an independent reading of the
# HDF5 files (max penetration, mean iterations) and with the sliding box's
# analytic slip speed.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! "$PY" -c 'import h5py, numpy, matplotlib' 2>/dev/null; then
  echo "FAIL python_modules ($PY lacks h5py/numpy/matplotlib; run:" \
       "sudo apt-get install -y python3-h5py python3-numpy python3-matplotlib)"
  exit 1
fi

png_ok() {  # file min_bytes: PNG signature, IHDR chunk with sane width/height
  "$PY" - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
ok = (d[:8] == b"\x89PNG\r\n\x1a\n" and d[12:16] == b"IHDR" and len(d) >= int(sys.argv[2])
      and d[-8:-4] == b"IEND")
w, h = struct.unpack(">II", d[16:24]) if len(d) >= 24 else (0, 0)
sys.exit(0 if ok and 200 <= w <= 4000 and 200 <= h <= 6000 else 1)
PY
}

"$BIN/simc" scenes/box_incline_slip.yaml -o "$tmp/a.h5" --duration 0.05 --quiet &&
"$BIN/simc" scenes/box_incline_slip.yaml -o "$tmp/b.h5" --duration 0.05 --solver lcp --quiet ||
  { echo "FAIL simc_runs"; exit 1; }

if "$PY" tools/plot.py "$tmp/a.h5" -o "$tmp/a.png" >/dev/null 2>"$tmp/err" && png_ok "$tmp/a.png" 20000; then
  echo "PASS plot_png"
else
  echo "FAIL plot_png"; cat "$tmp/err"
fi

if "$PY" tools/plot.py "$tmp/a.h5" --overlay "$tmp/b.h5" --what energy,q --q box.x,box.z \
     -o "$tmp/ov.png" >/dev/null 2>"$tmp/err" && png_ok "$tmp/ov.png" 15000; then
  echo "PASS plot_overlay_png"
else
  echo "FAIL plot_overlay_png"; cat "$tmp/err"
fi

# the residuals panel: a PNG, and its curves are the file's own
# /solver/{signorini,dissipation_gap,coulomb_residual} (the positive rows,
# read here with h5py) and /contact/max_penetration in mm, bit for bit
if "$PY" tools/plot.py "$tmp/a.h5" --overlay "$tmp/b.h5" --what residuals -o "$tmp/res.png" \
     >/dev/null 2>"$tmp/err" && png_ok "$tmp/res.png" 10000; then
  echo "PASS plot_residuals_png"
else
  echo "FAIL plot_residuals_png"; cat "$tmp/err"
fi
"$PY" - "$tmp/a.h5" <<'PY'
import sys
sys.path.insert(0, "tools")
import h5py
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import plot, simc_h5
run = simc_h5.Run(sys.argv[1])
fig, ax = plt.subplots()
plot.panel_residuals(ax, [run], ["a"])
lines = {l.get_label(): l for l in ax.get_lines()}
ax2 = [a for a in fig.axes if a is not ax][0]
pen = ax2.get_lines()[0]
with h5py.File(sys.argv[1], "r") as f:
    t = f["time"][:]
    ok = True
    names = {"signorini": "Signorini |gn wn|", "dissipation_gap": "max. dissipation gap",
             "coulomb_residual": "De Saxce residual"}
    drawn = 0
    for k, lab in names.items():
        y = f["solver/" + k][:]
        pos = y > 0
        if pos.any():
            l = lines.get(lab)
            ok &= l is not None and np.array_equal(l.get_xdata(), t[pos]) and \
                np.array_equal(l.get_ydata(), y[pos])
            drawn += 1
    p = np.maximum(f["contact/max_penetration"][:], 0.0) * 1e3
    ok &= np.array_equal(pen.get_ydata(), p) and drawn >= 1
print("%s plot_residuals_are_the_files" % ("PASS" if ok else "FAIL"))
print("  %d residual curves and the penetration drawn from the file's values" % drawn)
PY

# default output name FILE.png
if "$PY" tools/plot.py "$tmp/b.h5" --what iterations >/dev/null 2>&1 && png_ok "$tmp/b.png" 5000; then
  echo "PASS plot_default_name"
else
  echo "FAIL plot_default_name"
fi

bad=0
"$PY" tools/plot.py "$tmp/a.h5" --q no.such -o "$tmp/x.png" >/dev/null 2>&1 && bad=1
"$PY" tools/plot.py "$tmp/a.h5" --what bogus -o "$tmp/x.png" >/dev/null 2>&1 && bad=1
"$PY" tools/plot.py "$tmp/missing.h5" -o "$tmp/x.png" >/dev/null 2>&1 && bad=1
[ -e "$tmp/x.png" ] && bad=1
if [ $bad = 0 ]; then echo "PASS plot_bad_arguments"; else echo "FAIL plot_bad_arguments"; fi

# compare report: 0.05 s of the sliding box
"$PY" tools/compare_report.py scenes/box_incline_slip.yaml --out "$tmp/cmp" --duration 0.05 \
  >"$tmp/json" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && "$PY" - "$tmp/cmp/report.md" <<'PY'
import re, sys
rows = {}
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) > 5 and cells[0] in ("newton", "lcp"):
        rows[cells[0]] = cells[1:]
ok = set(rows) == {"newton", "lcp"}
for cells in rows.values():
    ok = ok and len(cells) == 10 and all(re.fullmatch(r"-?[0-9.]+(e[-+][0-9]+)?", c) for c in cells)
sys.exit(0 if ok else 1)
PY
then
  echo "PASS compare_report_table"
else
  echo "FAIL compare_report_table (exit $rc)"; cat "$tmp/err"; cat "$tmp/cmp/report.md" 2>/dev/null
fi

n_png=$(for f in q energy penetration slip iterations; do png_ok "$tmp/cmp/$f.png" 5000 && echo ok; done | grep -c ok)
if [ "$n_png" = 5 ]; then echo "PASS compare_report_pngs"; else echo "FAIL compare_report_pngs ($n_png of 5)"; fi

# all four contact models: one row each, each run recorded with its model
"$PY" tools/compare_report.py scenes/box_incline_slip.yaml --out "$tmp/cmp4" --duration 0.05 \
  --runs sap,similar,lagged,lcp --quiet 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && "$PY" - "$tmp/cmp4" <<'PY'
import json, os, sys
import h5py
d = sys.argv[1]
rows = json.load(open(os.path.join(d, "summary.json")))
ok = [r["solver"] for r in rows] == ["sap", "similar", "lagged", "lcp"]
for r in rows:
    with h5py.File(os.path.join(d, r["solver"] + ".h5"), "r") as f:
        m, s = f.attrs["contact_model"], f.attrs["solver"]
        m = m.decode() if isinstance(m, bytes) else m
        s = s.decode() if isinstance(s, bytes) else s
        ok = ok and (s == "lcp" if r["solver"] == "lcp" else m == r["solver"] and s == "newton")
sys.exit(0 if ok else 1)
PY
then
  echo "PASS compare_report_four_models"
else
  echo "FAIL compare_report_four_models (exit $rc)"; cat "$tmp/err"
fi
"$PY" tools/compare_report.py scenes/box_incline_slip.yaml --out "$tmp/cmpx" --runs sap,bogus \
  >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q "^compare_report.py: --runs: expected two or more distinct names among newton, sap, similar, lagged, lcp (got 'sap,bogus')$" "$tmp/err" && [ ! -e "$tmp/cmpx" ]; then
  echo "PASS compare_report_bad_runs"
else
  echo "FAIL compare_report_bad_runs (exit $rc)"; cat "$tmp/err"
fi

# the JSON against h5py directly; slip against the analytic sliding speed
# v(t) = v0 + g (sin a - mu cos a) t (box starts at rest; a = 0.3, mu = 0.1)
if "$PY" - "$tmp/json" "$tmp/cmp" <<'PY'
import json, math, sys
import h5py, numpy as np
rows = {r["solver"]: r for r in json.loads(open(sys.argv[1]).read())}
ok = True
for s in ("newton", "lcp"):
    with h5py.File("%s/%s.h5" % (sys.argv[2], s), "r") as f:
        pen = max(0.0, float(-f["contact/gap"][:].min()))
        its = float(f["solver/iterations"][1:].mean())
        wall = float(f["solver/wall_time"][1:].mean()) * 1e3
        t = f["time"][:]
    r = rows[s]
    ok &= abs(r["max_penetration_m"] - pen) <= 1e-15 + 1e-12 * pen
    ok &= abs(r["mean_iterations"] - its) < 1e-12
    ok &= abs(r["ms_per_step"] - wall) < 1e-9
    ok &= r["solver"] == s and r["status"] == "complete"
    vmax = 9.81 * (math.sin(0.3) - 0.1 * math.cos(0.3)) * t[-1]
    # largest slip after a step is the speed at the end, within 5 %
    ok &= abs(r["max_slip_mps"] - vmax) < 0.05 * vmax
    if not ok:
        print("mismatch for", s, r, pen, its, wall, vmax)
ok &= rows["newton"]["max_dq"] == rows["lcp"]["max_dq"] and rows["newton"]["max_dq"] < 1e-3
sys.exit(0 if ok else 1)
PY
then
  echo "PASS compare_report_json"
else
  echo "FAIL compare_report_json"; cat "$tmp/json"
fi

# the bodies panel: from /body/position in a current file; a format_version 1
# file (poses removed) still plots, with a note naming what it lacks
if "$PY" tools/plot.py "$tmp/a.h5" --what bodies --bodies box -o "$tmp/bod.png" >/dev/null 2>"$tmp/err" &&
   png_ok "$tmp/bod.png" 5000; then
  echo "PASS plot_bodies_panel"
else
  echo "FAIL plot_bodies_panel"; cat "$tmp/err"
fi
"$PY" - "$tmp/a.h5" "$tmp/v1.h5" <<'PY'
import shutil, sys, h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    for k in ("body", "model/body_parent", "model/geometry"):
        del f[k]
    f.attrs["format_version"] = 1
PY
if "$PY" tools/plot.py "$tmp/v1.h5" --what energy,bodies -o "$tmp/v1.png" >/dev/null 2>"$tmp/err" &&
   png_ok "$tmp/v1.png" 5000 && grep -q 'note: .*v1.h5 is simc format_version 1: it has no body poses' "$tmp/err"; then
  echo "PASS plot_old_format_note"
else
  echo "FAIL plot_old_format_note"; cat "$tmp/err"
fi

# ---- actuators: scenes/gripper_lift.yaml (position servos on three
# prismatic joints) for 0.5 s: the fingers close on the box and squeeze it.
# The energy balance the tools print is total + dissipated - actuator work
# (/energy/actuator); simc's own summary line prints the same figure as its
# "energy balance error", computed in the run from the same sums, so the two
# must agree to the printing of simc's figure (3 significant digits: half a
# unit in the third digit) plus 1e-12 J of round-off in summing the stored
# parts.  "Small" is asserted against the work the servos put in (about
# 0.24 J here): below 1e-3 of it and below 1e-4 J (measured about 1e-5 J).
# Left out, the actuator work would show as a drift of all of it.
"$BIN/simc" scenes/gripper_lift.yaml -o "$tmp/grip.h5" --duration 0.5 2>"$tmp/grip.err" ||
  { echo "FAIL simc_gripper_run"; cat "$tmp/grip.err"; }
if "$PY" tools/h5summary.py "$tmp/grip.h5" >"$tmp/grip.csv" 2>"$tmp/err" &&
   "$PY" - "$tmp/grip.err" "$tmp/grip.csv" "$tmp/grip.h5" <<'PY'
import csv, math, re, sys
import h5py
m = re.search(r"energy balance error (\S+) J", open(sys.argv[1]).read())
row = next(csv.reader(open(sys.argv[2])))
drift = float(row[3])
with h5py.File(sys.argv[3], "r") as f:
    work = float(f["energy/actuator"][-1])
    e = f["energy/total"][:] + f["energy/dissipated"][:]
    without = float(e[-1] - e[0])
simc = float(m.group(1)) if m else math.nan
tol = 0.5 * 10 ** (math.floor(math.log10(abs(simc))) - 2) + 1e-12 if simc else 1e-12
ok = (m is not None and abs(drift - simc) <= tol and abs(drift) < 1e-3 * work and
      abs(drift) < 1e-4 and work > 0.1 and abs(without - work) < 1e-3 * work)
print("  h5summary energy_drift_J %.6g J, simc's energy balance error %s J (tolerance %.2g J); "
      "actuator work %.4g J; total + dissipated alone drifts %.4g J" %
      (drift, m.group(1) if m else "?", tol, work, without))
sys.exit(0 if ok else 1)
PY
then echo "PASS h5summary_energy_balance_with_actuators"
else echo "FAIL h5summary_energy_balance_with_actuators"; cat "$tmp/err" "$tmp/grip.err"; fi

# plot.py adds the actuators panel by itself when the file has actuators
# (5 panels: 8 x 13.6 in at 100 dpi), and not without (4 panels: 11.0 in)
png_height() { "$PY" -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print(struct.unpack(">II", d[16:24])[1])' "$1"; }
if "$PY" tools/plot.py "$tmp/grip.h5" -o "$tmp/grip.png" >/dev/null 2>"$tmp/err" &&
   png_ok "$tmp/grip.png" 20000 && [ "$(png_height "$tmp/grip.png")" = 1360 ] &&
   [ "$(png_height "$tmp/a.png")" = 1100 ]; then
  echo "PASS plot_actuators_panel_by_default"
else
  echo "FAIL plot_actuators_panel_by_default (heights $(png_height "$tmp/grip.png") and $(png_height "$tmp/a.png"))"
  cat "$tmp/err"
fi
# --what actuators on a file without actuators: a note, still a plot
if "$PY" tools/plot.py "$tmp/a.h5" --what energy,actuators -o "$tmp/noact.png" >/dev/null 2>"$tmp/err" &&
   png_ok "$tmp/noact.png" 5000 && grep -q 'note: .*a.h5 has no actuators' "$tmp/err"; then
  echo "PASS plot_actuators_panel_without_actuators"
else
  echo "FAIL plot_actuators_panel_without_actuators"; cat "$tmp/err"
fi

# the panel's content: a cart on a prismatic joint under a velocity servo
# (N; command m/s) and a pole on a revolute joint under a motor of gear 2
# (N m; command N m per gear): each line is its /actuator/force column,
# labelled by /model/actuator_names and unit, forces on the left axis and
# torques on a right-hand one
cat >"$tmp/cart.yaml" <<'Y'
simc: 1
name: cart
gravity: [0, 0, -9.81]
time: {step: 1.0e-3, duration: 0.2}
bodies:
  - name: cart
    joint: {type: prismatic, axis: [1, 0, 0]}
    mass: 1.0
    inertia: solid
    geometry:
      - {shape: box, size: [0.2, 0.1, 0.05]}
  - name: pole
    parent: cart
    joint: {type: revolute, axis: [0, 1, 0]}
    mass: 0.2
    com: [0, 0, 0.25]
    inertia: {ixx: 1.0e-3, iyy: 1.0e-3, izz: 1.0e-4}
    initial: {q: [0.1]}
    geometry:
      - {shape: capsule, radius: 0.01, length: 0.5, pose: {position: [0, 0, 0.25]}}
actuators:
  - {name: drive, joint: cart, type: velocity, kd: 20, command: speed}
  - {name: tilt, joint: pole, type: motor, gear: 2, command: 0.05}
commands:
  - {name: speed, time: [0, 0.1], value: [0, 0.5]}
Y
if "$BIN/simc" "$tmp/cart.yaml" -o "$tmp/cart.h5" --quiet 2>"$tmp/err" &&
   "$PY" - "$tmp/cart.h5" <<'PY'
import os, sys
sys.path.insert(0, "tools")
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import plot, simc_h5
r = simc_h5.Run(sys.argv[1])
info = [(a["name"], a["joint"], a["type"], a["force_unit"], a["command_unit"]) for a in r.actuators()]
want = [("drive", "cart", "velocity", "N", "m/s"), ("tilt", "pole", "motor", "N m", "N m / gear 2")]
fig, ax = plt.subplots()
plot.panel_actuators(ax, [r], ["newton"])
twin = [a for a in fig.axes if a is not ax]
lines = {l.get_label(): l.get_ydata() for a in fig.axes for l in a.get_lines()}
ok = (info == want and ax.get_ylabel() == "actuator force (N)" and len(twin) == 1 and
      twin[0].get_ylabel() == "actuator force (N m)" and set(lines) == {"drive (N)", "tilt (N m)"} and
      np.array_equal(lines["drive (N)"], r.actuator_force[:, 0]) and
      np.array_equal(lines["tilt (N m)"], r.actuator_force[:, 1]) and
      np.allclose(r.actuator_force[1:, 1], 0.1) and np.abs(r.actuator_force[1:, 0]).max() > 0)
if not ok:
    print(info, ax.get_ylabel(), [t.get_ylabel() for t in twin], sorted(lines))
sys.exit(0 if ok else 1)
PY
then echo "PASS plot_actuators_panel_units"
else echo "FAIL plot_actuators_panel_units"; cat "$tmp/err"; fi

# a file older than the actuators (no /energy/actuator, /actuator,
# /model/actuator_names): the tools read it as before, the balance without
# the actuator term
"$PY" - "$tmp/grip.h5" "$tmp/grip_old.h5" <<'PY'
import shutil, sys, h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    for k in ("energy/actuator", "actuator", "model/actuator_names"):
        del f[k]
PY
if "$PY" tools/h5summary.py "$tmp/grip_old.h5" >"$tmp/old.csv" 2>"$tmp/err" &&
   "$PY" tools/plot.py "$tmp/grip_old.h5" -o "$tmp/grip_old.png" >/dev/null 2>>"$tmp/err" &&
   png_ok "$tmp/grip_old.png" 20000 && [ "$(png_height "$tmp/grip_old.png")" = 1100 ] &&
   "$PY" - "$tmp/old.csv" "$tmp/grip.h5" <<'PY'
import csv, sys, h5py
row = next(csv.reader(open(sys.argv[1])))
with h5py.File(sys.argv[2], "r") as f:
    e = f["energy/total"][:] + f["energy/dissipated"][:]
sys.exit(0 if abs(float(row[3]) - (e[-1] - e[0])) <= 1e-6 * abs(e[-1] - e[0]) else 1)
PY
then echo "PASS tools_read_file_without_actuator_datasets"
else echo "FAIL tools_read_file_without_actuator_datasets"; cat "$tmp/err"; fi

# output.contacts: false (no /contact/start, no contact rows): simc_h5,
# plot.py, h5summary.py and compare_report.py read it; the penetration is
# /contact/max_penetration, the same figures as the run with contact rows
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/nc.h5" --duration 0.5 --set output.contacts=false --quiet &&
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/c.h5" --duration 0.5 --quiet ||
  echo "FAIL simc_runs_contacts_off"
if "$PY" tools/plot.py "$tmp/nc.h5" -o "$tmp/nc.png" >/dev/null 2>"$tmp/err" && png_ok "$tmp/nc.png" 20000 &&
   "$PY" tools/plot.py "$tmp/nc.h5" --overlay "$tmp/c.h5" --what contacts -o "$tmp/nc2.png" >/dev/null 2>>"$tmp/err" &&
   png_ok "$tmp/nc2.png" 5000; then
  echo "PASS plot_without_contact_rows"
else
  echo "FAIL plot_without_contact_rows"; cat "$tmp/err"
fi
if "$PY" tools/h5summary.py "$tmp/nc.h5" "$tmp/c.h5" >"$tmp/nc.csv" 2>"$tmp/err" &&
   "$PY" - "$tmp/nc.h5" "$tmp/c.h5" "$tmp/nc.csv" <<'PY'
import csv, sys
import numpy as np
sys.path.insert(0, "tools")
import simc_h5
a, b = simc_h5.Run(sys.argv[1]), simc_h5.Run(sys.argv[2])
rows = list(csv.reader(open(sys.argv[3])))
pen = np.asarray(a.max_penetration_row)
ok = (not a.has_contact_rows and b.has_contact_rows and pen.max() > 1e-4 and
      np.array_equal(a.penetration(), np.maximum(pen, 0)) and
      np.abs(a.penetration() - b.penetration()).max() <= 1e-15 and
      rows[0][5] == rows[1][5] and float(rows[0][5]) > 1e-4 and rows[0][3] == rows[1][3])
print("  max penetration %s m without contact rows, %s m with" % (rows[0][5], rows[1][5]))
sys.exit(0 if ok else 1)
PY
then echo "PASS summary_without_contact_rows"
else echo "FAIL summary_without_contact_rows"; cat "$tmp/err"; fi
"$PY" tools/compare_report.py scenes/sphere_drop.yaml --out "$tmp/cmpnc" --duration 0.5 \
  --set output.contacts=false --quiet 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && grep -q '^| newton | .* | - | - |' "$tmp/cmpnc/report.md" &&
   "$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if all(x["max_slip_mps"] is None and x["max_penetration_m"] > 1e-4 for x in r) else 1)' "$tmp/cmpnc/summary.json"; then
  echo "PASS compare_report_without_contact_rows"
else
  echo "FAIL compare_report_without_contact_rows (exit $rc)"; cat "$tmp/err"; cat "$tmp/cmpnc/report.md" 2>/dev/null
fi
