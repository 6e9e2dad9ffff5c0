#!/usr/bin/env bash
# tools/simc-view on the mesh and ellipsoid shapes:
#  - a run of test/mesh_view.yaml (a cube mesh off its frame's origin on an
#    actuated slider, the same cube static, an L-shaped mesh, an
#    ellipsoid) and one of 21 bodies sharing one generated mesh of 12 274
#    vertices and 24 544 triangles (the triangles of MuJoCo's mug): every
#    tool reads them (simc-view, state_at.py, plot.py, h5summary.py);
#  - the 21-body page holds the mesh once and stays under 2.5 MB; a mesh
#    beyond the page's budget for mesh data is drawn as its hull, with a
#    note;
#  - malformed mesh data (a NaN vertex, faces out of range or of the wrong
#    type or shape, a missing dataset, /model/geometry/mesh out of range or
#    -1 for a mesh shape or absent, a gap in /model/meshes, an attribute of
#    the wrong kind, more vertices or faces than the caps of
#    tools/simc_h5.py) is refused by every tool with exit 1 and one line
#    naming the dataset, never a traceback; the files declaring more than
#    the caps are refused without being read (under 10 s, 400 MB);
#  - in headless Chromium (test/viewer_browser.py --mesh): each shape's
#    pixels against its projection through the page's camera (the meshes'
#    projected hulls, the L's own triangles, the ellipsoid's projected
#    ellipse), flat shading, the actuated body's colour, the instanced
#    drawing of the shared mesh, a hidden body, the overlay page.
# Bounded: the browser part is killed after 300 s.  VIEWER_KEEP=DIR keeps
# the screenshots (mesh_cube.png, mesh_ell.png, mesh_egg.png, mesh_blob.png).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
VIEW=tools/simc-view
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

viewer_deps h5py numpy websocket PIL matplotlib || exit 1

# ---- the runs ----
# 21 bodies, each a squashed sphere of 104 rings of 118 vertices (24 544
# triangles), in a 7 x 3 grid, turned each its own way; no gravity, apart
"$PY" - "$tmp" <<'PY'
import math, sys
tmp = sys.argv[1]
nu, nr = 118, 104
a, b, c = 0.05, 0.04, 0.03
with open(tmp + "/blob.obj", "w") as f:
    f.write("v 0 0 %r\n" % c)
    for i in range(1, nr + 1):
        th = math.pi * i / (nr + 1)
        for j in range(nu):
            ph = 2 * math.pi * j / nu
            f.write("v %.6f %.6f %.6f\n" % (a * math.sin(th) * math.cos(ph),
                                           b * math.sin(th) * math.sin(ph), c * math.cos(th)))
    f.write("v 0 0 %r\n" % -c)
    ring = lambda i, j: 2 + (i - 1) * nu + j % nu      # 1-based OBJ index
    last = 2 + nr * nu
    for j in range(nu):
        f.write("f 1 %d %d\n" % (ring(1, j), ring(1, j + 1)))
    for i in range(1, nr):
        for j in range(nu):
            f.write("f %d %d %d %d\n" % (ring(i, j), ring(i + 1, j), ring(i + 1, j + 1), ring(i, j + 1)))
    for j in range(nu):
        f.write("f %d %d %d\n" % (last, ring(nr, j + 1), ring(nr, j)))
with open(tmp + "/many.yaml", "w") as f:
    f.write("simc: 1\nname: many_meshes\ngravity: [0, 0, 0]\n"
            "time: {step: 1.0e-3, duration: 0.02}\noutput: {every: 10}\nbodies:\n")
    for k in range(21):
        x, y = 0.15 * (k % 7) - 0.45, 0.15 * (k // 7) - 0.15
        f.write("  - name: blob%d\n    joint: {type: free}\n    mass: 0.3\n    inertia: solid\n"
                "    initial: {q: [%g, %g, 0.1, 1, 0, 0, 0], v: [0, 0, 0, %g, %g, 0.5]}\n"
                "    geometry: [{shape: mesh, file: blob.obj, pose: {rpy: [%g, %g, %g]}}]\n"
                % (k, x, y, 0.3 * (k % 3), -0.2 * (k % 4), 0.3 * k, 0.1 * k, 0.2 * k))
PY
"$BIN/simc" test/mesh_view.yaml -o "$tmp/mesh.h5" --quiet &&
"$BIN/simc" "$tmp/many.yaml" -o "$tmp/many.h5" --quiet ||
  { echo "FAIL simc_runs"; exit 1; }

# ---- every tool reads them ----
for f in mesh many; do
  "$PY" "$VIEW" "$tmp/$f.h5" -o "$tmp/$f.html" >"$tmp/out" 2>"$tmp/err"; rc=$?
  ok "valid_${f}_simc-view" "[ $rc = 0 ] && [ ! -s '$tmp/err' ]"
  "$PY" tools/state_at.py "$tmp/$f.h5" -1 >"$tmp/out" 2>"$tmp/err"; rc=$?
  ok "valid_${f}_state_at" "[ $rc = 0 ] && [ \"\$(grep -v '^state_at: row' '$tmp/err')\" = '' ]"
  "$PY" tools/plot.py "$tmp/$f.h5" -o "$tmp/$f.png" >"$tmp/out" 2>"$tmp/err"; rc=$?
  ok "valid_${f}_plot.py" "[ $rc = 0 ] && [ ! -s '$tmp/err' ] && [ -s '$tmp/$f.png' ]"
  "$PY" tools/h5summary.py "$tmp/$f.h5" >"$tmp/out" 2>"$tmp/err"; rc=$?
  ok "valid_${f}_h5summary.py" "[ $rc = 0 ] && grep -q '^complete,' '$tmp/out' && [ ! -s '$tmp/err' ]"
done
size=$(stat -c %s "$tmp/many.html")
echo "  21 bodies sharing a mesh of 24 544 triangles: page $size bytes"
ok many_page_size "[ $size -lt 2500000 ]"
"$PY" "$VIEW" "$tmp/mesh.h5" --overlay "$tmp/mesh.h5" -o "$tmp/overlay.html" >/dev/null 2>"$tmp/err"
ok overlay_page "[ $? = 0 ] && [ ! -s '$tmp/err' ]"

# ---- the page's data: each mesh once, and the budget for mesh data ----
"$PY" - "$VIEW" "$tmp" <<'PY'
import base64, importlib.machinery, importlib.util, json, re, sys
import numpy as np
loader = importlib.machinery.SourceFileLoader("simc_view", sys.argv[1])
spec = importlib.util.spec_from_loader("simc_view", loader)
sv = importlib.util.module_from_spec(spec)
loader.exec_module(sv)
tmp = sys.argv[2]

def rep(name, ok, detail):
    print("%s %s (%s)" % ("PASS" if ok else "FAIL", name, detail))

def page(path):
    txt = open(path, encoding="utf-8").read()
    return json.loads(re.search(r'id="simc-data">(.*?)</script>', txt, re.S).group(1))

# the 21 shapes of the many page use one mesh, embedded once; its data
# decode to the file's vertices (float32) and faces
R = sv.read_run(tmp + "/many.h5")
D = page(tmp + "/many.html")
E = D["meshes"][0]
v = np.frombuffer(base64.b64decode(E["v"]), np.float32).reshape(-1, 3)
f = np.frombuffer(base64.b64decode(E["f"]), np.uint32 if E["wide"] else np.uint16).reshape(-1, 3)
M = R["meshes"][0]
rep("mesh_data_once_and_exact",
    len(D["meshes"]) == 1 and sum(G.get("mesh") == 0 for G in D["geoms"]) == 21 and
    np.array_equal(v, M["vertices"].astype(np.float32)) and np.array_equal(f, M["faces"]) and
    not E["wide"],
    "%d vertices, %d faces; %d + %d base64 characters in a page of %d bytes"
    % (len(v), len(f), len(E["v"]), len(E["f"]), len(open(tmp + "/many.html", "rb").read())))

# the budget: the cube fits, the L-shaped mesh does not but its hull does
R = sv.read_run(tmp + "/mesh.h5")
cost = lambda a, b: 12 * len(a) + 6 * len(b)
c0 = cost(R["meshes"][0]["vertices"], R["meshes"][0]["faces"])
h1 = cost(R["meshes"][1]["hull_vertices"], R["meshes"][1]["hull_faces"])
P, notes = sv.pack_meshes(R, c0 + h1)
rep("mesh_budget_hull_fallback",
    not P[0].get("hull") and P[1].get("hull") and P[1]["m"] == len(R["meshes"][1]["hull_faces"]) and
    len(notes) == 1 and "mesh 1" in notes[0] and "convex hull" in notes[0],
    "; ".join(notes))
P, notes = sv.pack_meshes(R, c0)
rep("mesh_budget_not_drawn", P[0] is not None and P[1] is None and "not drawn" in notes[0],
    "; ".join(notes))
PY

# ---- malformed mesh data ----
mkdir -p "$tmp/bad"
"$PY" - "$tmp/mesh.h5" "$tmp/bad" <<'PY' >"$tmp/bad/variants.tsv"
import shutil, sys
import h5py, numpy as np
src, out = sys.argv[1:]

def variant(name, expect, fn):
    p = "%s/%s.h5" % (out, name)
    shutil.copy(src, p)
    with h5py.File(p, "r+") as f:
        fn(f)
    print("%s.h5\t%s" % (name, expect))

def replace(f, name, data, **kw):
    del f[name]
    f.create_dataset(name, data=data, **kw)

def setv(name, index, value):
    def fn(f):
        a = f[name][()]
        a[index] = value
        replace(f, name, a)
    return fn

V, F = "model/meshes/0/vertices", "model/meshes/0/faces"
HV, HF = "model/meshes/1/hull_vertices", "model/meshes/1/hull_faces"
GM = "model/geometry/mesh"
with h5py.File(src, "r") as f:
    n = f[V].shape[0]
    h = f[HV].shape[0]
    shapes = [s.decode() for s in f["model/geometry/shape"][()]]
mrow, erow = shapes.index("mesh"), shapes.index("ellipsoid")
variant("nan_vertex", "/" + V, setv(V, (2, 1), np.nan))
variant("inf_hull_vertex", "/" + HV, setv(HV, (0, 0), np.inf))
variant("vertices_two_columns", "/" + V, lambda f: replace(f, V, f[V][:, :2]))
variant("vertices_strings", "/" + V, lambda f: replace(f, V, np.array([[b"a"] * 3] * n)))
variant("face_index_n", "/" + F, setv(F, (3, 1), n))
variant("face_index_negative", "/" + F, setv(F, (0, 0), -1))
variant("faces_float", "/" + F, lambda f: replace(f, F, f[F][()].astype(float)))
variant("faces_missing", "/" + F, lambda f: f.__delitem__(F))
variant("hull_face_index", "/" + HF, setv(HF, (1, 2), h))
variant("hull_more_vertices", "/model/meshes/0/hull_vertices",
        lambda f: replace(f, "model/meshes/0/hull_vertices", np.zeros((n + 1, 3))))
variant("geometry_mesh_K", "/" + GM, setv(GM, mrow, 2))
variant("geometry_mesh_minus1_for_mesh", "/" + GM, setv(GM, mrow, -1))
variant("geometry_mesh_minus2", "/" + GM, setv(GM, erow, -2))
variant("geometry_mesh_missing", "/" + GM, lambda f: f.__delitem__(GM))
variant("geometry_mesh_short", "/" + GM, lambda f: replace(f, GM, f[GM][:-1]))
variant("geometry_mesh_float", "/" + GM, lambda f: replace(f, GM, f[GM][()].astype(float)))
variant("meshes_gap", "/model/meshes/5", lambda f: f.move("model/meshes/1", "model/meshes/5"))
variant("mesh_is_dataset", "/model/meshes/1",
        lambda f: (f.__delitem__("model/meshes/1"), f.create_dataset("model/meshes/1", data=[1])))
variant("closed_string", "attribute closed of /model/meshes/0",
        lambda f: f["model/meshes/0"].attrs.__setitem__("closed", "yes"))
variant("centroid_two", "attribute centroid of /model/meshes/1",
        lambda f: f["model/meshes/1"].attrs.__setitem__("centroid", [0.0, 0.0]))

# more rows than the caps, declared (chunked, nothing written), in a file
# padded so that the declared bytes stay within 50 times its size
def declare(name, rows, dtype):
    def fn(f):
        del f[name]
        f.create_dataset(name, shape=(rows, 3), dtype=dtype, chunks=(4096, 3))
        f.create_dataset("model/meshes/0/pad", data=np.zeros(4 << 20, np.uint8))
    return fn
variant("vertices_over_cap", "/" + V, declare(V, 8_000_001, np.float32))
variant("faces_over_cap", "/" + F, declare(F, 16_000_001, np.int32))
PY

# refused TOOL FILE EXPECT RC: exit 1; stderr one line "TOOL: FILE: ..." holding
# EXPECT; no traceback (h5summary.py: its row's status is "unreadable: ...")
refused() {
  [ "$4" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && head -1 "$tmp/err" | grep -qF -- "$1: $2: " &&
    grep -qF -- "$3" "$tmp/err" && ! grep -q Traceback "$tmp/err" "$tmp/out" &&
    { [ "$1" != h5summary.py ] || grep -q '^"\?unreadable: ' "$tmp/out"; }
}
while IFS=$'\t' read -r name expect; do
  f=$tmp/bad/$name
  v=${name%.h5}
  for t in $H5_TOOLS; do
    limited $(tool $t "$f") >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
    if refused "$t" "$f" "$expect" "$rc"; then r=1; else r=0; fi
    case $v in
      *over_cap)
        ms=$(cat "$tmp/ms"); rss=$(tail -1 "$tmp/rss" 2>/dev/null)
        [ $t = simc-view ] && echo "  $v $t: $ms ms, ${rss:-?} KiB resident"
        [ "$ms" -lt 10000 ] && { [ -z "$rss" ] || [ "$rss" -lt 409600 ]; } || r=0 ;;
    esac
    ok "refuses_${v}_$t" "[ $r = 1 ]"
    [ $r = 1 ] || { echo "  (expected '$expect') exit $rc:"; cat "$tmp/err" "$tmp/out" | head -5; }
  done
done <"$tmp/bad/variants.tsv"
[ -e "$tmp/page.html" ] && echo "FAIL malformed_file_wrote_a_page" || echo "PASS malformed_file_wrote_no_page"

# ---- in the browser ----
timeout -k 5 300 "$PY" test/viewer_browser.py --mesh "$tmp" "$tmp/mesh.h5" "$tmp/mesh.html" \
  "$tmp/many.h5" "$tmp/many.html" "$tmp/overlay.html"
rc=$?
[ $rc = 124 ] && echo "FAIL browser_tests_time_limit (300 s)"
[ -n "${VIEWER_KEEP:-}" ] && cp "$tmp"/mesh_*.png "$VIEWER_KEEP"/ 2>/dev/null
exit 0
