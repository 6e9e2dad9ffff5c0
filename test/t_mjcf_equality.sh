#!/usr/bin/env bash
# MJCF <equality> (src/scene/mjcf.c): connect, weld and joint translated
# into simc's constraints and listed as approximated (MuJoCo's soft law
# held near-rigid; --strict refuses them); an inactive one left out, said
# in the translation's note; a tendon equality on an unknown tendon an
# error (test_mjcf translates tendon equality), distance refused as MuJoCo
# 2.2.2 refuses it; a weld's relpose as its points and quat (a scene's zero
# quat an error at its line); unknown bodies and joints,
# a ball joint coupled, a body constrained to itself and a short polycoef
# are errors at the element's line.  test_mjcf compares the motion with
# MuJoCo's (test_equality_connect, _weld, _joint).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

model() { # FILE EQUALITY-ELEMENTS: two hinged bodies a, b (joints ha, hb), a free box c, d on a ball joint bb
  cat >"$1" <<EOF
<mujoco>
  <worldbody>
    <body name="a" pos="0 0 1"><joint name="ha" type="hinge" axis="0 1 0"/><geom size="0.1"/>
      <body name="b" pos="0.3 0 0"><joint name="hb" type="hinge" axis="0 1 0"/><geom size="0.1"/></body>
    </body>
    <body name="c" pos="1 0 1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
    <body name="d" pos="2 0 1"><joint name="bb" type="ball"/><geom size="0.1" pos="0 0 -0.2"/></body>
  </worldbody>
  <equality>
$2
  </equality>
</mujoco>
EOF
}

model "$tmp/ok.xml" '    <connect body1="c" anchor="0.1 0.1 0.1"/>
    <weld body1="b" body2="c" solref="0.01 1"/>
    <joint joint1="hb" joint2="ha" polycoef="0 2 0 0 0" active="false"/>'
out=$("$BIN/simc" "$tmp/ok.xml" -o "$tmp/ok.h5" --duration 0.1 2>&1); rc=$?
ok translated_and_approximated "[ $rc = 0 ] && [ \"\$(status_of '$tmp/ok.h5')\" = complete ] && grep -qF 'simc: approximated: equality constraint (MuJoCo' <<<\"\$out\" && grep -qF 'ok.xml:10:5: element <connect>' <<<\"\$out\""
ok scene_has_constraints "$PY - '$tmp/ok.h5' <<'PY'
import sys, h5py
a = h5py.File(sys.argv[1], 'r').attrs
y = a['scene_yaml']; y = y.decode() if isinstance(y, bytes) else y
ap = a.get('approximated', ''); ap = ap.decode() if isinstance(ap, bytes) else ap
print('  approximated:', ap.strip())
good = (y.count('type: connect') == 1 and y.count('type: weld') == 1 and 'type: joint' not in y
        and 'equality constraint' in ap)
sys.exit(0 if good else 1)
PY"
out=$("$BIN/simc" "$tmp/ok.xml" --check --strict 2>&1); rc=$?
ok strict_refuses "[ $rc = 1 ] && grep -qF 'translates only approximately: equality constraint' <<<\"\$out\""

model "$tmp/tendon.xml" '    <tendon tendon1="t"/>'
expect unknown_tendon "$tmp/tendon.xml" "tendon.xml:10:13: element <tendon>: attribute tendon1: unknown tendon 't'"
model "$tmp/distance.xml" '    <distance geom1="g1" geom2="g2" distance="0.2"/>'
expect distance_refused "$tmp/distance.xml" "distance.xml:10:5: element <distance>: distance constraints were removed in MuJoCo 2.2.2"
model "$tmp/relpose.xml" '    <weld body1="b" body2="c" relpose="0.1 0 0 0 0 0 2"/>'
"$BIN/simc" "$tmp/relpose.xml" -o "$tmp/relpose.h5" --quiet --duration 0.01 2>/dev/null
ok relpose_translated "$PY - '$tmp/relpose.h5' <<'PY'
import sys, h5py
y = h5py.File(sys.argv[1], 'r').attrs['scene_yaml']; y = y.decode() if isinstance(y, bytes) else y
w = y[y.index('type: weld'):]
print('  ' + ' '.join(w.split()[:16]))
sys.exit(0 if 'point: [0.10000000000000001, 0, 0]' in w and 'quat: [0, -0, -0, -2]' in w else 1)
PY"
printf 'simc: 1\ntime: {step: 0.001, duration: 0.01}\nbodies:\n  - {name: a, parent: world, joint: {type: free}, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\nconstraints:\n  - {type: weld, a: {body: world}, b: {body: a}, quat: [0, 0, 0, 0]}\n' >"$tmp/zq.yaml"
expect weld_zero_quat "$tmp/zq.yaml" "zq.yaml:6:" "constraints[0].quat: a zero quaternion has no orientation"
model "$tmp/nobody.xml" '    <connect body1="a" body2="nobody" anchor="0 0 0"/>'
expect unknown_body "$tmp/nobody.xml" "nobody.xml:10:24: element <connect>: attribute body2: no body named 'nobody'"
model "$tmp/nojoint.xml" '    <joint joint1="ha" joint2="hz"/>'
expect unknown_joint "$tmp/nojoint.xml" "nojoint.xml:10:24: element <joint>: attribute joint2: unknown joint 'hz'"
model "$tmp/ball.xml" '    <joint joint1="bb" joint2="ha"/>'
expect ball_joint_coupled "$tmp/ball.xml" "ball.xml:10:12: element <joint>: attribute joint1: joint 'bb' is a ball joint (MuJoCo couples hinge and slide joints only)"
model "$tmp/self.xml" '    <weld body1="c" body2="c"/>'
expect same_body "$tmp/self.xml" "self.xml:10:21: element <weld>: attribute body2: the same body as body1 ('c')"
model "$tmp/poly.xml" '    <joint joint1="ha" polycoef="0 1"/>'
expect polycoef_five "$tmp/poly.xml" "poly.xml:10:24: element <joint>: attribute polycoef: expected 5 numbers"
model "$tmp/cls.xml" '    <connect class="nope" body1="a" anchor="0 0 0"/>'
expect unknown_class "$tmp/cls.xml" "cls.xml:10:14: element <connect>: attribute class: unknown class 'nope'"
