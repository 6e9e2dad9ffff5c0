#!/usr/bin/env bash
# A joint's start outside its limits: given explicitly (initial.q, or --set)
# it is an error at that value; by default (q = 0 outside the limits) the
# joint starts on the nearer limit, said as a warning on stderr and in the
# output's warnings.  Without gravity an arm started there stays at rest:
# kinetic energy 0 throughout (thrown back from 0 onto 0.5 rad in one step it
# gained energy the scene never had).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

cat >"$tmp/arm.yaml" <<'EOF'
simc: 1
gravity: [0, 0, 0]
time: {step: 0.001, duration: 0.2}
bodies:
  - name: arm
    parent: world
    joint: {type: revolute, axis: [0, 1, 0], limits: [0.5, 1.0]}
    mass: 1
    com: [0.5, 0, 0]
    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}
EOF
"$BIN/simc" "$tmp/arm.yaml" -o "$tmp/arm.h5" 2>"$tmp/arm.err"; rc=$?
ok default_start_on_the_limit "[ $rc = 0 ] && grep -q 'starts at its limit 0.5 rad' '$tmp/arm.err' && $PY - '$tmp/arm.h5' <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
q0, ke = f['/q'][0, 0], np.abs(f['/energy/kinetic'][:]).max()
w = f.attrs.get('warnings', '')
w = w.decode() if isinstance(w, bytes) else w
print('  q0 %.17g rad, max kinetic energy %.3g J' % (q0, ke))
sys.exit(0 if q0 == 0.5 and ke < 1e-12 and 'starts at its limit' in w else 1)
PY"
cat >>"$tmp/arm.yaml" <<'EOF'
    initial: {q: [1.5]}
EOF
expect explicit_start_outside_refused "$tmp/arm.yaml" "arm.yaml:11:" "outside its limits [0.5, 1]"
out=$("$BIN/simc" "$tmp/arm.yaml" --set bodies.arm.initial.q=[0.2] --check 2>&1); rc=$?
ok set_start_outside_refused "[ $rc = 1 ] && grep -q 'starts at 0.2[0-9]*, outside its limits' <<<\"\$out\""
"$BIN/simc" "$tmp/arm.yaml" --set bodies.arm.initial.q=[1.0] --check >/dev/null 2>&1; rc=$?
ok start_on_a_limit_accepted "[ $rc = 0 ]"
