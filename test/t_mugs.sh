#!/usr/bin/env bash
# 21 of MuJoCo's mugs (Debian libmujoco-samples: 12 676 vertices, 24 544
# triangles, colliding through its convex hull) dropped at random
# orientations into a bin (tools/gen_mugs.sh 21: 3 s at dt = 1 ms).  They
# fall, tumble and come to rest:
#  - penetration below 1 mm at every step (the run's own maximum);
#  - at rest: kinetic energy at the end below 1e-4 of the potential energy
#    the fall released, and over the last second every mug's frame within
#    7 cm of where it ends.  (Not exactly still: a mug lying on its side
#    rocks on the round side of its hull like a rolling pendulum, and a
#    rigid model has no rolling resistance; only the impacts at the hull's
#    facet edges take energy out, a fraction of order (facet angle)^2 per
#    edge.  Which mug is left rocking, and how widely, is a matter of the
#    pile's history, which any perturbation changes: measured, the most a
#    mug moved over the last second was 2.7 cm at dt = 1 ms, 2.3 cm at
#    0.8 ms, 0 at 1.25 ms, with 2e-4, 8e-11, 2e-10 J left; with a free
#    joint's coordinates at the frame origin instead of the centre of mass
#    (doc/step.md) 2.1 mm, 1.9 cm and 6.3 cm, with 5e-4 J at most.)
#  - every mug inside the bin, above the floor;
#  - the energy balance (E + dissipated) within 1e-3 of the energy released;
#  - Newton iterations: the median within 10 (a resting pile is cheap).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
MUG=${MUG:-/usr/share/mujoco/model/mug/mug.obj}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

if [ ! -r "$MUG" ]; then
  echo "FAIL mug_mesh_present"
  echo "  $MUG is missing: make test installs Debian's libmujoco-samples"
  exit 0
fi
tools/gen_mugs.sh 21 "$MUG" 3.0 1.0e-3 >"$tmp/mugs.yaml"
"$BIN/simc" "$tmp/mugs.yaml" -o "$tmp/mugs.h5" --quiet
ok mugs_run_complete '[ "$(status_of "$tmp/mugs.h5")" = complete ]'
$PY - "$tmp/mugs.h5" "$MUG" <<'PY'
import sys
import h5py
import numpy as np
f = h5py.File(sys.argv[1], "r")
def rep(name, good, detail):
    print("%s %s" % ("PASS" if good else "FAIL", name))
    print("  " + detail)
pen = float(f["contact/max_penetration"][:].max())
rep("mugs_penetration_below_1mm", pen < 1e-3, "deepest %.3g m over the run (recorded rows)" % pen)
ke = f["energy/kinetic"][:]
g = f["energy/gravity"][:]
drop = g[0] - g[-1]
t = f["time"][:]
nb = f["v"].shape[1] // 6
P = f["body/position"][:, -nb:, :]
last = t >= t[-1] - 1.0
wander = np.linalg.norm(P[last] - P[-1], axis=2).max()
rep("mugs_come_to_rest", ke[-1] < 1e-4 * drop and wander < 7e-2,
    "kinetic energy %.3g J at 3 s (%.3g J at most, %.3g J released); over the last second "
    "the frames move at most %.3g m" % (ke[-1], ke.max(), drop, wander))
p = P[-1]
inside = np.all(np.abs(p[:, :2]) < 0.35) and np.all(p[:, 2] > -1e-3)
rep("mugs_inside_the_bin", inside,
    "|x|, |y| at most %.3f m, z at least %.4f m" % (np.abs(p[:, :2]).max(), p[:, 2].min()))
tot = f["energy/total"][:] + f["energy/dissipated"][:]
bal = abs(tot[-1] - tot[0]) / drop
rep("mugs_energy_balance", bal < 1e-3, "|E + dissipated - E0| = %.3g of the energy released" % bal)
# the mesh is in the file once, as read and scaled, its hull with it
m = f["model/meshes"]
gm = f["model/geometry/mesh"][:]
shapes = [x.decode() if isinstance(x, bytes) else x for x in f["model/geometry/shape"][:]]
V = f["model/meshes/0/vertices"][:]
obj = np.array([[float(x) for x in l.split()[1:4]] for l in open(sys.argv[2]) if l.startswith("v ")])
H = f["model/meshes/0/hull_vertices"][:]
HF = f["model/meshes/0/hull_faces"][:]
rep("mugs_mesh_stored_once", len(m) == 1 and list(gm[[s == "mesh" for s in shapes]]) == [0] * 21
    and V.shape == obj.shape and np.array_equal(V, obj * 0.01) and len(H) > 3 and HF.max() < len(H),
    "%d mesh group(s) for %d mesh shapes; %d vertices = the file's x 0.01; hull %d vertices, %d triangles"
    % (len(m), shapes.count("mesh"), len(V), len(H), len(HF)))
it = f["solver/iterations"][:]
rep("mugs_newton_iterations", np.median(it) <= 10,
    "Newton iterations per step: median %g, mean %.2f, max %d" % (np.median(it), it.mean(), it.max()))
PY

# ---- the replay page (tools/simc-view) ----
# The page of the run: written without a word on stderr, its size reported,
# the mug's mesh embedded once (one entry in the page's meshes, drawn as
# itself, not as its hull) and used by all 21 mugs' shapes.  In headless
# Chromium (test/viewer_browser.py --mugs), at the run's end, the first,
# a middle and the last mug, each shown alone and flat red: the pixels it
# covers within 1.01 of the projected area of its convex hull and above
# the share its handle's hole leaves, and matching its own triangles
# rasterized through the same camera (intersection over union >= 0.97).
# Bounded: the browser part is killed after 300 s.  VIEWER_KEEP=DIR keeps
# the screenshots (mug_mug0.png, mug_mug10.png, mug_mug20.png).
viewer_deps h5py numpy websocket PIL || exit 0
"$PY" tools/simc-view "$tmp/mugs.h5" -o "$tmp/mugs.html" >"$tmp/view.out" 2>"$tmp/view.err"; rc=$?
ok mugs_page_written "[ $rc = 0 ] && [ ! -s '$tmp/view.err' ] && [ -s '$tmp/mugs.html' ]"
[ -s "$tmp/view.err" ] && head -5 "$tmp/view.err"
[ -s "$tmp/mugs.html" ] || exit 0
$PY - "$tmp/mugs.h5" "$tmp/mugs.html" <<'PY'
import json, os, re, sys
import h5py
f = h5py.File(sys.argv[1], "r")
nv, nf = len(f["model/meshes/0/vertices"]), len(f["model/meshes/0/faces"])
mugs = sum(1 for s, b in zip(f["model/geometry/shape"][:], f["model/geometry/body"][:])
           if s == b"mesh" and b >= 0)
txt = open(sys.argv[2], encoding="utf-8").read()
m = re.search(r'id="simc-data">(.*?)</script>', txt, re.S)
if not m:
    print("FAIL mugs_page_mesh_embedded_once")
    print("  no simc-data block in the page")
    sys.exit(0)
D = json.loads(m.group(1))
M = D["meshes"] or []
E = M[0] if len(M) == 1 else None
users = sum(1 for G in D["geoms"] if G.get("mesh") == 0 and G["body"] >= 0)
good = (E is not None and not E.get("hull") and E["n"] == nv and E["m"] == nf and
        users == mugs == 21 and all(G.get("mesh") in (None, -1, 0) for G in D["geoms"]))
print("%s mugs_page_mesh_embedded_once" % ("PASS" if good else "FAIL"))
print("  page %d bytes; %d mesh(es) embedded: %s; used by %d of the 21 mugs' shapes"
      % (os.path.getsize(sys.argv[2]), len(M),
         "%d vertices, %d triangles, %d + %d base64 characters" % (E["n"], E["m"], len(E["v"]), len(E["f"]))
         if E else "-", users))
PY
timeout -k 5 300 "$PY" test/viewer_browser.py --mugs "$tmp" "$tmp/mugs.h5" "$tmp/mugs.html" \
  >"$tmp/browser.out" 2>&1
rc=$?
cat "$tmp/browser.out"
if [ $rc = 124 ] || [ $rc = 137 ]; then
  echo "FAIL browser_tests_time_limit (300 s)"
elif [ $rc != 0 ] && ! grep -q '^FAIL ' "$tmp/browser.out"; then
  echo "FAIL mugs_browser_run (exit $rc)"
fi
[ -n "${VIEWER_KEEP:-}" ] && cp "$tmp"/mug_*.png "$VIEWER_KEEP"/ 2>/dev/null
exit 0
