#!/usr/bin/env bash
# Two runs in one page: `simc-view A.h5 B.h5 -o cmp.html` (doc/viewer.md).
#  - another model is refused (exit 1, no page) with a line naming what
#    differs: the body names of another scene, and the size of a shape (a
#    copy of B with its sphere's radius changed);
#  - the page carries both runs' energy curves: the second run's total,
#    kinetic and gravity energy equal its file's at the sampled rows (float32);
#  - in headless Chromium (test/viewer_compare.py): the ghost over the run,
#    each body where its own file puts it (pixels, 0.4 % of the height), the
#    plotted distance equal to the files' difference (1e-6 m) and the first
#    time it exceeds the tolerance (1 mm by default) the files' first row
#    beyond it.
# The runs: scenes/sphere_drop.yaml, and the same scene with the ball thrown
# sideways at 0.5 m/s (the same model, another start).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

viewer_deps h5py numpy websocket PIL || exit 1
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/A.h5" --duration 0.5 --quiet &&
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/B.h5" --duration 0.5 --quiet \
  --set 'bodies.ball.initial.v=[0.5,0,0,0,0,0]' &&
"$BIN/simc" scenes/default.yaml -o "$tmp/other.h5" --duration 0.05 --quiet ||
  { echo "FAIL simc_runs"; exit 1; }

"$PY" tools/simc-view "$tmp/A.h5" "$tmp/other.h5" -o "$tmp/no.html" >/dev/null 2>"$tmp/err"; rc=$?
ok compare_refuses_other_scene "[ $rc = 1 ] && [ ! -e '$tmp/no.html' ] &&
  grep -q '/model/body_names differ (A.h5: world, ball; other.h5: world, cylinder)' '$tmp/err'"
sed "s/^/  /" "$tmp/err"
"$PY" - "$tmp/B.h5" "$tmp/B2.h5" <<'PY'
import shutil, sys
import h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    f["model/geometry/size"][1, 0] = 0.12
PY
"$PY" tools/simc-view "$tmp/A.h5" "$tmp/B2.h5" -o "$tmp/no.html" >/dev/null 2>"$tmp/err"; rc=$?
ok compare_refuses_other_shape_size "[ $rc = 1 ] && [ ! -e '$tmp/no.html' ] &&
  grep -q '/model/geometry/size of shape 1 differs (A.h5: \[0.1, 0.0, 0.0\]; B2.h5: \[0.12, 0.0, 0.0\])' '$tmp/err'"
sed "s/^/  /" "$tmp/err"
"$PY" tools/simc-view "$tmp/A.h5" "$tmp/B.h5" --overlay "$tmp/B.h5" -o "$tmp/no.html" >/dev/null 2>&1; rc=$?
ok compare_refuses_two_second_runs "[ $rc = 2 ] && [ ! -e '$tmp/no.html' ]"

"$PY" tools/simc-view "$tmp/A.h5" "$tmp/B.h5" -o "$tmp/cmp.html" >/dev/null ||
  { echo "FAIL compare_page_written"; exit 1; }
"$PY" - "$tmp/cmp.html" "$tmp/B.h5" <<'PY'
import base64, json, re, sys
import h5py, numpy as np
txt = open(sys.argv[1], encoding="utf-8").read()
D = json.loads(re.search(r'id="simc-data">(.*?)</script>', txt, re.S).group(1))
E = D["compare"]["energy"]
f32 = lambda s: np.frombuffer(base64.b64decode(s), np.float32)
with h5py.File(sys.argv[2], "r") as f:
    t = f["time"][:]
    rows = np.abs(t[:, None] - f32(E["t"])[None, :]).argmin(axis=0)
    err = max(float(np.abs(f32(E[k]) - f["energy/" + k][:][rows].astype(np.float32)).max())
              for k in ("total", "kinetic", "gravity"))
    scale = float(np.abs(f["energy/total"][:]).max())
print("%s compare_page_has_second_runs_energy (%d samples; largest |page - file| %.2g J of %.3g J, "
      "tolerance 1e-6 of it)" % ("PASS" if err <= 1e-6 * scale and len(rows) > 10 else "FAIL",
                                len(rows), err, scale))
PY
# --tol: the ball leaves the other's path at 0.5 m/s, so it is first more
# than 10 mm away at the first row after 0.02 s
"$PY" tools/simc-view "$tmp/A.h5" "$tmp/B.h5" --tol 0.01 -o "$tmp/cmp10.html" >/dev/null &&
"$PY" - "$tmp/cmp10.html" "$tmp/A.h5" "$tmp/B.h5" <<'PY'
import json, re, sys
import h5py, numpy as np
txt = open(sys.argv[1], encoding="utf-8").read()
C = json.loads(re.search(r'id="simc-data">(.*?)</script>', txt, re.S).group(1))["compare"]
with h5py.File(sys.argv[2], "r") as a, h5py.File(sys.argv[3], "r") as b:
    d = np.linalg.norm(a["body/position"][:, 1] - b["body/position"][:, 1], axis=1)
    want = float(a["time"][np.nonzero(d > 0.01)[0][0]])
got = C["first"]["t"] if C["first"] else None
print("%s compare_tol_option (tolerance %g m; first exceeded at t = %s s, the files: %s s)"
      % ("PASS" if C["tol"] == 0.01 and got == want else "FAIL", C["tol"], got, want))
PY
timeout -k 5 200 "$PY" test/viewer_compare.py "$tmp" "$tmp/A.h5" "$tmp/B.h5" "$tmp/cmp.html"
[ $? = 124 ] && echo "FAIL compare_browser_time_limit (200 s)"
[ -n "${VIEWER_KEEP:-}" ] && cp "$tmp"/compare_*.png "$VIEWER_KEEP"/ 2>/dev/null
exit 0
