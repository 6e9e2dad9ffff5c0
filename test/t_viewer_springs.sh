#!/usr/bin/env bash
# Everything a scene has is drawn: a linear spring's attachment points are in
# the file (/model/springs, doc/output.md) and the replay draws the spring
# between them, stretching with the run.
#  - /model/springs of scenes/default.yaml holds its one spring as the scene
#    says (world point (-2, 0, 0.1), the cylinder's origin, k = 10 N/m,
#    c = 0, rest 1.5 m), and the points mean what the file says they mean:
#    carried by /body/position and /body/orientation, their distance gives
#    /energy/spring = k (L - rest)^2 / 2 at every row (relative 1e-9);
#  - in headless Chromium the line's ends are where the file's points project,
#    at two times (test/viewer_springs.py, 1.5 px);
#  - a spring's body index beyond the bodies, or points of the wrong shape,
#    are refused with the dataset named;
#  - a joint at its limit is marked: scenes/pendulum_limit.yaml, when
#    /joint/limit_force of the nearest row is not 0, a magenta ball centred
#    on the joint's projected position (0.4 % of the image height) and the
#    joint named; when it is 0, neither (test/viewer_springs.py);
#  - a headless screenshot taken by Chromium itself (chromium --headless
#    --screenshot, 1280x720) has no hole: every pixel opaque, and the region
#    a hole of the energy plot's size (260x110) covered shows the floor
#    (its pixels vary: standard deviation over 10 levels).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

viewer_deps h5py numpy websocket PIL || exit 1
"$BIN/simc" scenes/default.yaml -o "$tmp/run.h5" --duration 1 --quiet &&
"$BIN/simc" scenes/pendulum_limit.yaml -o "$tmp/lim.h5" --quiet ||
  { echo "FAIL simc_runs"; exit 1; }
"$PY" - "$tmp/run.h5" <<'PY'
import sys
import h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    g = f.get("model/springs")
    if g is None:
        print("FAIL springs_in_model (no /model/springs)")
        sys.exit(0)
    got = (g["body"][:].tolist(), g["point_a"][:].tolist(), g["point_b"][:].tolist(),
           g["stiffness"][:].tolist(), g["damping"][:].tolist(), g["rest_length"][:].tolist())
    want = ([[0, 1]], [[-2.0, 0.0, 0.1]], [[0.0, 0.0, 0.0]], [10.0], [0.0], [1.5])
    print("%s springs_in_model (%s)" % ("PASS" if got == want else "FAIL", got))
    pos, quat = f["body/position"][:], f["body/orientation"][:]
    e = f["energy/spring"][:]
    k, rest = g["stiffness"][0], g["rest_length"][0]
    def world(b, p):
        if b == 0:
            return np.broadcast_to(p, (len(pos), 3))
        q = quat[:, b]
        w, u = q[:, :1], q[:, 1:]
        t = 2 * np.cross(u, p)
        return pos[:, b] + p + w * t + np.cross(u, t)
    a = world(g["body"][0, 0], g["point_a"][0])
    b = world(g["body"][0, 1], g["point_b"][0])
    L = np.linalg.norm(b - a, axis=1)
    want_e = 0.5 * k * (L - rest) ** 2
    err = np.abs(want_e - e).max() / np.abs(e).max()
    print("%s spring_points_give_spring_energy (relative error %.2g, tolerance 1e-9; length %.4f .. %.4f m)"
          % ("PASS" if err <= 1e-9 else "FAIL", err, L.min(), L.max()))
PY
# malformed spring data is refused with the dataset named (tools/simc_h5.py)
"$PY" - "$tmp/run.h5" "$tmp" <<'PY'
import shutil, sys
import h5py, numpy as np
src, d = sys.argv[1:3]
shutil.copy(src, d + "/bad_body.h5")
with h5py.File(d + "/bad_body.h5", "r+") as f:
    f["model/springs/body"][0, 1] = 7
shutil.copy(src, d + "/bad_point.h5")
with h5py.File(d + "/bad_point.h5", "r+") as f:
    del f["model/springs/point_a"]
    f["model/springs/point_a"] = np.zeros((1, 2))
PY
for v in body point; do
  "$PY" tools/simc-view "$tmp/bad_$v.h5" -o "$tmp/bad.html" >/dev/null 2>"$tmp/err"; rc=$?
  want=/model/springs/body; [ $v = point ] && want=/model/springs/point_a
  ok "springs_malformed_${v}_refused" "[ $rc = 1 ] && grep -q '$want' '$tmp/err' && [ ! -e '$tmp/bad.html' ]"
  sed 's/^/  /' "$tmp/err"
done
"$PY" tools/simc-view "$tmp/run.h5" -o "$tmp/run.html" >/dev/null &&
"$PY" tools/simc-view "$tmp/lim.h5" -o "$tmp/lim.html" >/dev/null || { echo "FAIL simc_view_page"; exit 1; }
timeout -k 5 200 "$PY" test/viewer_springs.py "$tmp" "$tmp/run.h5" "$tmp/run.html" "$tmp/lim.h5" "$tmp/lim.html"
[ $? = 124 ] && echo "FAIL spring_browser_time_limit (200 s)"

# Chromium's own headless screenshot of the page
prof=$(mktemp -d "$tmp/prof.XXXXXX")
sandbox=; [ "$(id -u)" = 0 ] && sandbox=--no-sandbox
timeout -k 5 120 chromium --headless $sandbox --user-data-dir="$prof" --hide-scrollbars \
  --window-size=1280,720 --screenshot="$tmp/cli.png" "file://$tmp/run.html" >/dev/null 2>&1
"$PY" - "$tmp/cli.png" <<'PY'
import sys
import numpy as np
from PIL import Image
try:
    im = Image.open(sys.argv[1])
except OSError as e:
    print("FAIL headless_screenshot_has_no_hole (no screenshot: %s)" % e)
    sys.exit(0)
a = np.asarray(im.convert("RGBA")).astype(int)
holes = int((a[:, :, 3] < 255).sum())
# where the hole was (x 1003..1263, y 488..598 for this page at 1280x720)
reg = a[488:598, 1003:1263, :3].reshape(-1, 3)
sd = float(reg.std(axis=0).max())
print("%s headless_screenshot_has_no_hole (%d transparent pixels; the lower right region's "
      "standard deviation %.1f levels, over 10 expected)" %
      ("PASS" if holes == 0 and sd > 10 else "FAIL", holes, sd))
PY
exit 0
