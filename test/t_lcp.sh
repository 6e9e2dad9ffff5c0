#!/usr/bin/env bash
# The LCP baseline on plain scenes (tools/bench/lcp_check.sh quick: every step
# solved and verified), its size limit and its reaction to SIGINT mid-solve.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
SIMC="$PWD/$BIN/simc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

# 0 failed steps, every residual <= 1e-6 (relative to the data), on the
# 20 deg incline cube (mu = 0.45: it sticks) and clutter27 at 1 and 10 ms,
# 4 and 16 cone edges
BIN=$BIN JOBS=2 tools/bench/lcp_check.sh quick "$tmp/quick" >"$tmp/q.txt" 2>&1; rc=$?
sed 's/^/  /' "$tmp/q.txt"
ok lcp_quick_no_failed_steps "[ $rc = 0 ] && [ \$(grep -c '^[a-z]' '$tmp/q.txt') = 7 ]"
# the cube sticks: its centre moved less than 1 mm along the incline in 1 s
moved=$(/usr/bin/python3 - "$tmp/quick/incline_20_0.45_d4.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    q = f["/q"][:]
print("%.3g" % np.linalg.norm(q[-1, :3] - q[0, :3]))
PY
)
echo "  incline cube displacement over 1 s: ${moved:-?} m"
ok lcp_incline_sticks "[ -n '$moved' ] && awk -v m='$moved' 'BEGIN { exit !(m < 1e-3) }'"

# a grid of touching cubes (no deep overlap: a pile of coincident bodies is
# refused earlier as implausible penetration): 4 x 4 x 8 cubes give about
# 2000 contact points in one island (every cube touches its neighbours),
# more than the dense LCP's 512 MiB allow; a clear error at the first
# contact step, not an out-of-memory
grid() {  # NX NY NZ DURATION
  echo "simc: 1"; echo "name: grid$1x$2x$3"; echo "gravity: [0, 0, -9.81]"
  echo "time: {step: 1.0e-3, duration: $4}"; echo "integrator: {scheme: implicit_euler}"
  echo "contact:"; echo "  defaults: {stiffness: 1.0e5, dissipation_time: 0.01, friction: 0.5}"
  echo "bodies:"
  for i in $(seq 1 "$1"); do for j in $(seq 1 "$2"); do for k in $(seq 1 "$3"); do
    echo "  - {name: b${i}_${j}_$k, joint: {type: free}, mass: 0.1, inertia: solid,"
    awk -v i="$i" -v j="$j" -v k="$k" 'BEGIN { printf "     initial: {q: [%g, %g, %g, 1, 0, 0, 0]}, geometry: [{shape: box, size: [0.1, 0.1, 0.1]}]}\n", 0.1 * i, 0.1 * j, 0.1 * k - 0.05 }'
  done; done; done
  echo "static:"; echo "  - {shape: plane, normal: [0, 0, 1], offset: 0.0, stiffness: rigid}"
}
grid 4 4 8 0.01 >"$tmp/g128.yaml"
timeout 120 "$SIMC" "$tmp/g128.yaml" -o "$tmp/g128.h5" --solver lcp --quiet 2>"$tmp/e"; rc=$?
ok lcp_too_large_refused "[ $rc = 2 ] && grep -q 'the dense LCP of a contact island of [0-9]* contacts (128 trees, 768 velocities; 8 cone edges) would need [0-9]* MiB, more than its limit of 512 MiB (room for [0-9]* contacts per island); use --solver newton' '$tmp/e'"
ok lcp_too_large_status "status_of '$tmp/g128.h5' | grep -q '^failed: .*limit of 512 MiB'"
# the bound is contact.lcp.max_memory (MiB): a smaller one refuses the grid
# with fewer contacts per island and says which key sets it
timeout 120 "$SIMC" "$tmp/g128.yaml" -o "$tmp/g128m.h5" --solver lcp --quiet \
  --set contact.lcp.max_memory=64 2>"$tmp/e"; rc=$?
room=$(sed -n 's/.*limit of 64 MiB (room for \([0-9]*\) contacts per island).*/\1/p' "$tmp/e")
room512=$(status_of "$tmp/g128.h5" | sed -n 's/.*(room for \([0-9]*\) contacts per island).*/\1/p')
echo "  room per island: ${room:-?} contacts at 64 MiB, ${room512:-?} at 512 MiB"
ok lcp_max_memory_bound "[ $rc = 2 ] && [ -n '$room' ] && [ -n '$room512' ] && [ '$room' -lt '$room512' ] && grep -q 'or a larger contact.lcp.max_memory' '$tmp/e'"

# SIGINT while Lemke works on 3 x 3 x 2 touching cubes (about 300 contacts;
# each step takes seconds): the solve is cancelled, simc exits 130 with
# status "interrupted"
grid 3 3 2 0.1 >"$tmp/c20.yaml"
"$SIMC" "$tmp/c20.yaml" -o "$tmp/c20.h5" --solver lcp --quiet 2>"$tmp/e" &
pid=$!
# the handler is installed right after the output file is created
for _ in $(seq 1 300); do [ -e "$tmp/c20.h5" ] && break; sleep 0.1; done
sleep 1.5
kill -INT $pid
t0=$(date +%s.%N)
# a hang guard, not a timing target: without the cancel hook the current
# step (and Lemke's pivots) would run to its end
for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && kill -KILL $pid
wait $pid; rc=$?
lat=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
echo "  SIGINT latency during an LCP solve: $lat s"
ok lcp_sigint_cancels "[ $rc = 130 ] && [ \"\$(status_of '$tmp/c20.h5')\" = interrupted ]"

# Warm start (contact.lcp.warm_start): the three piles of test/lcp_piles.yaml
# with and without it.  Both runs verify every LCP solution (residual <=
# 1e-6 relative); where the contact LCP has several solutions (a box on four
# coplanar corners) they may end at different ones, so the trajectories agree
# to what the check allows, not bit for bit: measured 1.1e-8 in /q and 2.0e-6
# rad/s in /v (a box's rocking rate), asserted 1e-7 and 1e-5.  The warm
# start must save pivots: the pivot counts are exact, so the test asserts
# fewer than half of the cold run's (measured 751 against 14 922).
for ws in true false; do
  "$SIMC" test/lcp_piles.yaml -o "$tmp/piles_$ws.h5" --set contact.lcp.warm_start=$ws \
    --set output.every=1 --quiet 2>"$tmp/e_$ws"; echo $? >"$tmp/rc_$ws"
done
ok lcp_warm_both_complete "[ \$(cat '$tmp/rc_true') = 0 ] && [ \$(cat '$tmp/rc_false') = 0 ] && [ \"\$(status_of '$tmp/piles_true.h5')\" = complete ]"
ok lcp_warm_same_q "'$BIN/h5compare' '$tmp/piles_true.h5' '$tmp/piles_false.h5' --fields /q --rtol 0 --atol 1e-7 >/dev/null"
ok lcp_warm_same_v "'$BIN/h5compare' '$tmp/piles_true.h5' '$tmp/piles_false.h5' --fields /v --rtol 0 --atol 1e-5 >/dev/null"
piv=$(/usr/bin/python3 - "$tmp/piles_true.h5" "$tmp/piles_false.h5" <<'PY'
import sys, h5py
s = []
for p in sys.argv[1:]:
    with h5py.File(p, "r") as f:
        st = f["/solver/status"][:]
        s.append(int(f["/solver/iterations"][:].sum()) if (st == 0).all() else -1)
print(s[0], s[1])
PY
)
echo "  pivots with / without the warm start: $piv"
p_warm=${piv% *} p_cold=${piv#* }
ok lcp_warm_fewer_pivots "[ '$p_warm' -ge 0 ] && [ \$((2 * $p_warm)) -lt '$p_cold' ]"
