#!/usr/bin/env bash
# The contact solver's workspace of a long chain with joint limits: sized
# by the rows a step can have, one dof each, not as contacts of the whole
# chain (500 links asked for 8 GB, 1000 for 64 GB and failed).  Under a
# 2 GiB address space: the 1000-link chain prepares, and a 200-link chain
# with every limit active at once runs and holds them.  A chain of 200
# capsules lying on a floor: 400 contacts whose Jacobians span the chain's
# path to its root, whose pairs of columns within the chain's one tree are
# entries of A's block, not triplets of their own (7.97 GB asked for
# before, 113 MB allocated in all now).
set -u
cd "$(dirname "$0")/.." || exit 1
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

# chain N Q0: N links of 0.1 m, limits [-0.5, 0.5] on every joint, each
# started at Q0
chain() {
  printf 'simc: 1\nname: chain%d\ngravity: [0, 0, -9.81]\ntime: {step: 1.0e-3, duration: %s}\nbodies:\n' "$1" "$3"
  for ((i = 1; i <= $1; i++)); do
    parent=world; origin=""
    if [ "$i" -gt 1 ]; then parent="link$((i - 1))"; origin=", origin: {position: [0.1, 0, 0]}"; fi
    printf '  - name: link%d\n    parent: %s\n' "$i" "$parent"
    printf '    joint: {type: revolute, axis: [0, 1, 0]%s, limits: [-0.5, 0.5]}\n' "$origin"
    printf '    mass: 0.1\n    com: [0.05, 0, 0]\n    inertia: {ixx: 1.0e-5, iyy: 8.4e-5, izz: 8.4e-5}\n'
    printf '    initial: {q: [%s]}\n' "$2"
  done
}

chain 1000 0.0 0.002 >"$tmp/c1000.yaml"
limited "$BIN/simc" "$tmp/c1000.yaml" --check >"$tmp/o1" 2>&1; rc=$?
echo "  1000 links: peak RSS $(cat "$tmp/rss") KiB, $(cat "$tmp/ms") ms"
ok chain1000_prepares "[ $rc = 0 ] && grep -q 'ok: 1000 bodies' '$tmp/o1' || { cat '$tmp/o1'; false; }"

# every joint starts on its upper limit and gravity folds the chain on it:
# 200 limit rows active in one solve
chain 200 0.5 0.03 >"$tmp/c200.yaml"
limited "$BIN/simc" "$tmp/c200.yaml" -o "$tmp/c200.h5" -q >"$tmp/o2" 2>&1; rc=$?
echo "  200 links, 0.03 s: peak RSS $(cat "$tmp/rss") KiB, $(cat "$tmp/ms") ms"
/usr/bin/python3 - "$tmp/c200.h5" >"$tmp/chk" 2>&1 <<'PYEOF'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    q = f["/q"][...]
    lf = f["/joint/limit_force"][...]
    st = f.attrs["status"]
st = st.decode() if isinstance(st, bytes) else st
assert st == "complete", st
# the limits hold (to their compliance: 0.03 rad under the folding chain)
# and push back on it
assert q.max() < 0.55 and q.min() > 0.45, (q.min(), q.max())
assert (np.abs(lf[-1]) > 0).sum() >= 100, (np.abs(lf[-1]) > 0).sum()
print("ok")
PYEOF
ok chain200_limits_active "[ $rc = 0 ] && grep -qx ok '$tmp/chk' || { cat '$tmp/o2' '$tmp/chk'; false; }"

# capchain N: N capsules of 0.1 m (radius 0.02 m, 0.1 kg) on a free base,
# lying along x on a rigid floor, each pressed in by the 4.905e-6 m its
# 0.981 N compress at stiffness 1e5 N/m over its two end contacts, so the
# chain starts at rest
capchain() {
  printf 'simc: 1\nname: capchain%d\ngravity: [0, 0, -9.81]\ntime: {step: 1.0e-3, duration: 0.03}\n' "$1"
  printf 'contact: {defaults: {stiffness: 1.0e5, dissipation_time: 0.01, friction: 0.5}}\nbodies:\n'
  for ((i = 1; i <= $1; i++)); do
    if [ "$i" = 1 ]; then
      printf '  - name: link1\n    joint: {type: free}\n    initial: {q: [0, 0, 0.019995095, 1, 0, 0, 0]}\n'
    else
      printf '  - name: link%d\n    parent: link%d\n' "$i" "$((i - 1))"
      printf '    joint: {type: revolute, axis: [0, 1, 0], origin: {position: [0.1, 0, 0]}}\n'
    fi
    printf '    mass: 0.1\n    com: [0.05, 0, 0]\n    inertia: {ixx: 1.0e-5, iyy: 8.4e-5, izz: 8.4e-5}\n'
    printf '    geometry: [{shape: capsule, radius: 0.02, length: 0.1, pose: {position: [0.05, 0, 0], rpy: [0, 1.5707963267948966, 0]}}]\n'
  done
  printf 'static:\n  - {shape: plane, normal: [0, 0, 1], offset: 0.0, stiffness: rigid}\n'
}
capchain 200 >"$tmp/cap200.yaml"
limited "$BIN/simc" "$tmp/cap200.yaml" -o "$tmp/cap200.h5" -q >"$tmp/o3" 2>&1; rc=$?
echo "  200 capsules on a floor, 0.03 s: peak RSS $(cat "$tmp/rss") KiB, $(cat "$tmp/ms") ms"
/usr/bin/python3 - "$tmp/cap200.h5" >"$tmp/chk3" 2>&1 <<'PYEOF'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    st = f.attrs["status"]
    start, count = f["/contact/start"][...], f["/contact/count"][...]
    imp = f["/contact/impulse"][...]
    dt = f.attrs["time_step"]
st = st.decode() if isinstance(st, bytes) else st
assert st == "complete", st
s, c = int(start[-1]), int(count[-1])
# every capsule touches the floor at both ends
assert c == 400, c
# the floor carries the chain's weight, 200 x 0.1 kg x 9.81 m/s^2 =
# 196.2 N, to 1e-6 (the contact solver's relative tolerance), and each
# contact half of its own link's, 0.4905 N (no joint passes load along a
# chain lying flat), to 1e-4 of it; no friction at rest
fn = imp[s:s + c, 2] / dt
assert abs(fn.sum() - 196.2) < 1e-6 * 196.2, fn.sum()
assert np.abs(fn - 0.4905).max() < 1e-4 * 0.4905, np.abs(fn - 0.4905).max()
assert np.abs(imp[s:s + c, :2]).max() / dt < 1e-6, np.abs(imp[s:s + c, :2]).max() / dt
print("ok", fn.sum())
PYEOF
ok capchain200_floor_carries_weight "[ $rc = 0 ] && grep -q '^ok' '$tmp/chk3' || { cat '$tmp/o3' '$tmp/chk3'; false; }"
