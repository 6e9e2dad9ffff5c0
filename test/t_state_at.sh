#!/usr/bin/env bash
# tools/state_at.py: a run restarted from row k of a recorded run (its /q and
# /v as --set arguments) must continue that run.  The double pendulum has no
# contacts and no quaternions: the continuation repeats the same arithmetic
# from the same state, so it must agree to round-off (asserted 1e-14; measured
# 0).  Clutter 8 from row 400 (20-21 contacts): the contact solver starts
# without the previous step's guess, so agreement is asserted to well inside
# the solver tolerance, 1e-9 m in /q and 1e-6 m/s in /v over 50 steps
# (measured 1e-16 m and 0: the quaternions are renormalized on load),
# without the stiction anchor; with it, to what the anchors' restart at 0
# costs (below).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

cmp_rows() { # a.h5 b.h5 row0 nrows qtol vtol [min_contacts]
  $PY - "$@" <<'PY'
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
k, n, qt, vt = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
dq = np.abs(a["q"][k:k + n] - b["q"][:n]).max()
dv = np.abs(a["v"][k:k + n] - b["v"][:n]).max()
nc = int(a["contact/count"][k:k + n].min()) if "contact" in a else 0
need = int(sys.argv[7]) if len(sys.argv) > 7 else 0
print("  rows %d..%d: max |dq| %.3g, |dv| %.3g, contacts >= %d" % (k, k + n - 1, dq, dv, nc))
sys.exit(0 if b["q"].shape[0] >= n and dq <= qt and dv <= vt and nc >= need else 1)
PY
}

"$BIN/simc" scenes/double_pendulum.yaml -o "$tmp/dp.h5" --duration 0.5 --set output.every=1 --quiet &&
  args=$($PY tools/state_at.py "$tmp/dp.h5" 200 2>"$tmp/dp.err") &&
  "$BIN/simc" scenes/double_pendulum.yaml $args -o "$tmp/dp2.h5" --duration 0.1 \
    --set output.every=1 --quiet
ok state_at_pendulum_continues "cmp_rows '$tmp/dp.h5' '$tmp/dp2.h5' 200 101 1e-14 1e-14"
ok state_at_says_time "grep -q 't = 0.2 s' '$tmp/dp.err'"

# (without the stiction anchor: the recorded state is q and v, and a
# sticking contact's anchor, its slip since it began to stick, is not in
# it: a restart begins every anchor at 0, doc/contact.md 4.6)
"$BIN/simc" scenes/clutter8.yaml -o "$tmp/cl.h5" --duration 0.45 --set output.every=1 --quiet \
  --set contact.stiction_anchor=0 &&
  args=$($PY tools/state_at.py "$tmp/cl.h5" 400 2>/dev/null) &&
  "$BIN/simc" scenes/clutter8.yaml $args -o "$tmp/cl2.h5" --duration 0.05 --set output.every=1 --quiet \
    --set contact.stiction_anchor=0
ok state_at_clutter_continues "cmp_rows '$tmp/cl.h5' '$tmp/cl2.h5' 400 51 1e-9 1e-6 20"
# with the anchor (the default): the restart's anchors begin at 0, so its
# first step lacks their pull-back: measured 5.2e-4 m/s in /v, 1.3e-6 m in
# /q after 50 steps; bounded at 2e-3 m/s and 1e-5 m
"$BIN/simc" scenes/clutter8.yaml -o "$tmp/ca.h5" --duration 0.45 --set output.every=1 --quiet &&
  args=$($PY tools/state_at.py "$tmp/ca.h5" 400 2>/dev/null) &&
  "$BIN/simc" scenes/clutter8.yaml $args -o "$tmp/ca2.h5" --duration 0.05 --set output.every=1 --quiet
ok state_at_clutter_continues_anchor_restarts "cmp_rows '$tmp/ca.h5' '$tmp/ca2.h5' 400 51 1e-5 2e-3 20"

# the last row by -1, and errors: a row out of range, a missing file
last=$($PY tools/state_at.py "$tmp/dp.h5" -1 2>"$tmp/last.err")
ok state_at_last_row "grep -q 'row 500, t = 0.5 s' '$tmp/last.err' && [ -n '$last' ]"
$PY tools/state_at.py "$tmp/dp.h5" 501 >/dev/null 2>"$tmp/bad.err"; rc=$?
ok state_at_bad_row "[ $rc = 1 ] && grep -q 'has rows 0..500, not 501' '$tmp/bad.err'"
$PY tools/state_at.py "$tmp/none.h5" 0 >/dev/null 2>"$tmp/none.err"; rc=$?
ok state_at_missing_file "[ $rc = 1 ] && grep -q 'cannot open' '$tmp/none.err'"

# simc --from RUN.h5[:ROW]: the continuation without the shell, bit for bit
# like state_at.py's; the source in the root attribute initial_state
"$BIN/simc" scenes/double_pendulum.yaml --from "$tmp/dp.h5:200" -o "$tmp/dp3.h5" --duration 0.1 \
  --set output.every=1 --quiet
ok from_pendulum_continues "cmp_rows '$tmp/dp.h5' '$tmp/dp3.h5' 200 101 1e-14 1e-14"
ok from_records_source "h5dump -a /initial_state '$tmp/dp3.h5' | grep -q 'dp.h5 row 200 (t = 0.2'"
# a free body whose centre of mass is off its frame: the file has the frame
# origin's coordinates, the step the centre's (doc/step.md); the
# continuation converts back and forth, which costs round-off only
# (asserted 1e-12 m and m/s over 200 steps of a tumbling body; a mix-up of
# the two conventions is 0.1 m / 2 m/s off)
cat >"$tmp/top.yaml" <<'EOF'
simc: 1
name: top
gravity: [0, 0, -9.81]
time: {step: 1.0e-3, duration: 0.4}
bodies:
  - name: top
    joint: {type: free}
    mass: 0.5
    com: [0.02, -0.03, 0.1]
    inertia: {ixx: 2.0e-3, iyy: 1.5e-3, izz: 1.0e-3}
    initial: {q: [0, 0, 1, 0.9, 0.3, 0.2, 0.1], v: [0.3, 0, 1, 3, -5, 20]}
EOF
"$BIN/simc" "$tmp/top.yaml" -o "$tmp/top.h5" --set output.every=1 --quiet
"$BIN/simc" "$tmp/top.yaml" --from "$tmp/top.h5:200" -o "$tmp/top2.h5" --duration 0.2 \
  --set output.every=1 --quiet
ok from_offset_centre_continues "cmp_rows '$tmp/top.h5' '$tmp/top2.h5' 200 201 1e-12 1e-12"
"$BIN/simc" scenes/double_pendulum.yaml --from "$tmp/dp.h5" -o "$tmp/dp4.h5" --duration 0.01 --quiet
ok from_default_last_row "h5dump -a /initial_state '$tmp/dp4.h5' | grep -q 'row 500 (t = 0.5'"
"$BIN/simc" scenes/sphere_drop.yaml --from "$tmp/dp.h5" -o "$tmp/x.h5" 2>"$tmp/f1.err"; rc=$?
ok from_other_scene_refused "[ $rc = 1 ] && grep -q 'not this scene' '$tmp/f1.err' && [ ! -e '$tmp/x.h5' ]"
"$BIN/simc" scenes/double_pendulum.yaml --from "$tmp/dp.h5:501" -o "$tmp/x.h5" 2>"$tmp/f2.err"; rc=$?
ok from_bad_row_refused "[ $rc = 1 ] && grep -q 'row 501 is not among its rows 0..500' '$tmp/f2.err'"

# a body name that reads as options: through --from nothing is split by a
# shell (the continuation matches, so gravity kept its sign); state_at.py,
# whose words a $(...) would split, refuses such a file and names --from
cat >"$tmp/evil.yaml" <<'YAML'
simc: 1
time: {step: 1.0e-3, duration: 0.05}
bodies:
  - name: "c.mass=1 --set gravity=[0,0,9.81] --set bodies.c"
    joint: {type: prismatic, axis: [0, 0, 1]}
    mass: 1
    inertia: {ixx: 1, iyy: 1, izz: 1}
YAML
"$BIN/simc" "$tmp/evil.yaml" -o "$tmp/e1.h5" --quiet --set output.every=1 &&
  "$BIN/simc" "$tmp/evil.yaml" --from "$tmp/e1.h5:10" -o "$tmp/e2.h5" --quiet --set output.every=1
ok from_hostile_name_falls "[ \$? = 0 ] && cmp_rows '$tmp/e1.h5' '$tmp/e2.h5' 10 41 1e-14 1e-14"
$PY tools/state_at.py "$tmp/e1.h5" 10 >"$tmp/sa.out" 2>"$tmp/sa.err"; rc=$?
ok state_at_refuses_splittable_name "[ $rc = 1 ] && [ ! -s '$tmp/sa.out' ] && grep -q -- '--from' '$tmp/sa.err'"

# --from a file whose /q, /v or /time rows are not this scene's (an edited
# file with the right names): refused before anything is read (wider rows
# overflowed the state, narrower ones mixed the file's state with the
# scene's); a FIFO is refused at once, not waited on
for shape in q_wide q_narrow v_wide time_2d; do
  $PY - "$tmp/dp.h5" "$tmp/$shape.h5" "$shape" <<'PY'
import sys, h5py, numpy as np, shutil
src, dst, how = sys.argv[1:]
shutil.copy(src, dst)
with h5py.File(dst, "r+") as f:
    name = {"q_wide": "q", "q_narrow": "q", "v_wide": "v", "time_2d": "time"}[how]
    a = f[name][:]
    del f[name]
    if how.endswith("wide"):
        a = np.hstack([a, np.full((a.shape[0], 64), 1e300)])
    elif how == "q_narrow":
        a = a[:, :1]
    else:
        a = np.stack([a, a], axis=1)
    f[name] = a
PY
  "$BIN/simc" scenes/double_pendulum.yaml --from "$tmp/$shape.h5" -o "$tmp/x_$shape.h5" 2>"$tmp/$shape.err"; rc=$?
  ok "from_${shape}_refused" "[ $rc = 1 ] && grep -q 'are not rows of this scene' '$tmp/$shape.err' && [ ! -e '$tmp/x_$shape.h5' ]"
done
mkfifo "$tmp/fifo"
timeout 10 "$BIN/simc" scenes/double_pendulum.yaml --from "$tmp/fifo" -o "$tmp/xf.h5" 2>"$tmp/fifo.err"; rc=$?
ok from_fifo_refused_at_once "[ $rc = 1 ] && grep -q 'not a regular file' '$tmp/fifo.err'"
timeout 10 "$BIN/h5compare" "$tmp/fifo" "$tmp/dp.h5" >/dev/null 2>"$tmp/fifo2.err"; rc=$?
ok h5compare_fifo_refused_at_once "[ $rc != 124 ] && [ $rc != 0 ] && grep -q 'not a regular file' '$tmp/fifo2.err'"

# --from a row whose quaternion an edit left far from unit norm: squares
# that overflow (1e200) or underflow (1e-170) are scaled first, so the start
# is the rotation the row names, (1, 1, 0, 0) / sqrt(2) to 1e-15, not zeros
# or an unnormalized quaternion; a quaternion of zeros is refused, located
# (the fuzz target fuzz_from found it accepted)
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/sd.h5" --duration 0.01 --set output.every=1 --quiet
for how in huge tiny zero; do
  $PY - "$tmp/sd.h5" "$tmp/sd_$how.h5" "$how" <<'PY'
import sys, shutil, h5py
src, dst, how = sys.argv[1:]
shutil.copy(src, dst)
with h5py.File(dst, "r+") as f:
    f["q"][-1, 3:7] = {"huge": [1e200, 1e200, 0, 0], "tiny": [1e-170, 1e-170, 0, 0], "zero": [0, 0, 0, 0]}[how]
PY
  "$BIN/simc" scenes/sphere_drop.yaml --from "$tmp/sd_$how.h5" -o "$tmp/sdo_$how.h5" --duration 0.001 \
    --set output.every=1 --quiet 2>"$tmp/sd_$how.err"
  echo $? >"$tmp/sd_$how.rc"
done
quat_ok() {
  $PY - "$1" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    qw = f["q"][0, 3:7]
want = np.array([1, 1, 0, 0]) / np.sqrt(2)
assert np.abs(qw - want).max() < 1e-15, qw
PY
}
ok from_huge_quaternion_normalized "[ \$(cat $tmp/sd_huge.rc) = 0 ] && quat_ok '$tmp/sdo_huge.h5'"
ok from_tiny_quaternion_normalized "[ \$(cat $tmp/sd_tiny.rc) = 0 ] && quat_ok '$tmp/sdo_tiny.h5'"
ok from_zero_quaternion_refused "[ \$(cat $tmp/sd_zero.rc) = 1 ] && grep -q 'sd_zero.h5: row 10 of /q: the quaternion of joint ball (positions 3..6) is zero' '$tmp/sd_zero.err' && [ ! -e '$tmp/sdo_zero.h5' ]"
