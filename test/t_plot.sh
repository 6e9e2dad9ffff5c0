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
