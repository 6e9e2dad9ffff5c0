#!/usr/bin/env bash
# A scene's models: (src/scene/models.c): test/mjcf/arm3.urdf and arm3.xml
# placed twice with prefixes at two poses.  References are the single-model
# runs: at q = 0 every body's world pose is the single run's moved by the
# entry's pose (1e-12); with poses that turn about z only (gravity unchanged)
# and arms far apart, each arm's q follows the single run's.  fixed_base
# changes the dofs as it should; a bad entry is an error located at its line
# (exit 1).  What a translation ignores reaches the output's root attribute
# `ignored`, and only then.  An MJCF's constraints are placed with it: a
# weld to the world, with or without a relpose, holds each copy's box where
# its entry puts it (within 1e-5 m over 0.5 s).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh
root=$(pwd)

"$BIN/simc" test/mjcf/arm3.urdf -o "$tmp/one.h5" --quiet --duration 0.5
# general rotations: poses at q = 0 (the scene sits next to copies of the models)
mkdir -p "$tmp/sub"
cp test/mjcf/arm3.urdf test/mjcf/arm3.xml "$tmp/sub/"
cat >"$tmp/tilted.yaml" <<'EOF'
simc: 1
time: {step: 0.001, duration: 0.001}
gravity: [0, 0, 0]
bodies:
  - {name: post, parent: world, joint: {type: fixed}, geometry: [{shape: sphere, radius: 0.05}]}
models:
  - {file: sub/arm3.urdf, prefix: left_, pose: {position: [0.3, 1, -0.2], rpy: [0.4, -0.7, 1.1]}}
  - {file: sub/arm3.xml, prefix: right_, pose: {position: [-2, -1, 0.5], quat: [0.5, 0.5, -0.5, 0.5]}}
EOF
"$BIN/simc" "$tmp/tilted.yaml" -o "$tmp/tilted.h5" --quiet
"$BIN/simc" test/mjcf/arm3.urdf -o "$tmp/one0.h5" --quiet --duration 0.001 --set gravity=[0,0,0]
ok poses_at_q0_moved_by_the_entry_pose "$PY - '$tmp/one0.h5' '$tmp/tilted.h5' <<'PY'
import sys, h5py, numpy as np
def rot(q):
    w, x, y, z = q
    return np.array([[1-2*(y*y+z*z), 2*(x*y-w*z), 2*(x*z+w*y)],
                     [2*(x*y+w*z), 1-2*(x*x+z*z), 2*(y*z-w*x)],
                     [2*(x*z-w*y), 2*(y*z+w*x), 1-2*(x*x+y*y)]])
def rpy(r, p, y):
    c, s = np.cos, np.sin
    Rx = np.array([[1, 0, 0], [0, c(r), -s(r)], [0, s(r), c(r)]])
    Ry = np.array([[c(p), 0, s(p)], [0, 1, 0], [-s(p), 0, c(p)]])
    Rz = np.array([[c(y), -s(y), 0], [s(y), c(y), 0], [0, 0, 1]])
    return Rz @ Ry @ Rx
a, b = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r')
na = [x.decode() for x in a['/model/body_names'][:]]
nb = [x.decode() for x in b['/model/body_names'][:]]
worst = 0
for pre, X, R in (('left_', np.array([0.3, 1, -0.2]), rpy(0.4, -0.7, 1.1)),
                  ('right_', np.array([-2, -1, 0.5]), rot([0.5, 0.5, -0.5, 0.5]))):
    for i, n in enumerate(na[1:], 1):
        if pre == 'right_' and n.startswith('j'):
            continue  # the MJCF arm's links sit at the joint anchors, as the URDF's
        j = nb.index(pre + n)
        p = X + R @ a['/body/position'][0, i]
        Rm = R @ rot(a['/body/orientation'][0, i])
        worst = max(worst, np.abs(p - b['/body/position'][0, j]).max(),
                    np.abs(Rm - rot(b['/body/orientation'][0, j])).max())
print('  worst pose difference at q = 0: %.2e' % worst)
sys.exit(0 if worst < 1e-12 else 1)
PY"
ok names_carry_prefixes "$PY - '$tmp/tilted.h5' <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
names = lambda k: [x.decode() for x in f[k][:]]
b, q = names('/model/body_names'), names('/model/q_names')
want = ['world', 'post'] + ['left_' + n for n in ('base', 'j1', 'l1', 'j2', 'l2', 'j3', 'l3')]
sys.exit(0 if b[:9] == want and 'right_l3' in b and q == ['left_j1.angle', 'left_j2.angle', 'left_j3.x',
                                                          'right_j1.angle', 'right_j2.angle', 'right_j3.x'] else 1)
PY"
# turned about z only and far apart: each arm moves as the single arm
cat >"$tmp/two.yaml" <<EOF
simc: 1
time: {step: 0.001, duration: 0.5}
models:
  - {file: $root/test/mjcf/arm3.urdf, prefix: left_, pose: {position: [0, 2, 0], rpy: [0, 0, 0.8]}}
  - {file: $root/test/mjcf/arm3.urdf, prefix: right_, pose: {position: [1, -2, 0.3], rpy: [0, 0, -2.5]}}
EOF
"$BIN/simc" "$tmp/two.yaml" -o "$tmp/two.h5" --quiet
ok trajectories_equal_the_single_run "$PY - '$tmp/one.h5' '$tmp/two.h5' <<'PY'
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r')
qa, qb = a['/q'][:], b['/q'][:]
d = max(np.abs(qb[:, :3] - qa).max(), np.abs(qb[:, 3:] - qa).max())
print('  rows %d, q range %.3f rad, worst difference %.2e' % (len(qa), np.ptp(qa[:, 0]) + np.ptp(qa[:, 1]), d))
sys.exit(0 if len(qa) == len(qb) == 501 and np.ptp(qa[:, 1]) > 0.1 and d < 1e-9 else 1)
PY"
# fixed_base: a URDF floats with false (7 + 3 q), an MJCF free joint becomes fixed with true
cat >"$tmp/ball.xml" <<'XML'
<mujoco model="ball">
  <worldbody>
    <body name="ball" pos="0 0 1"><freejoint name="free"/><geom size="0.1"/></body>
  </worldbody>
</mujoco>
XML
cat >"$tmp/bases.yaml" <<'EOF'
simc: 1
time: {step: 0.001, duration: 0.01}
models:
  - {file: sub/arm3.urdf, prefix: a_, fixed_base: false, pose: {position: [0, 0, 2]}}
  - {file: ball.xml, prefix: fixed_, fixed_base: true, pose: {position: [5, 0, 0]}}
  - {file: ball.xml, prefix: free_, pose: {position: [-5, 0, 0]}}
EOF
"$BIN/simc" "$tmp/bases.yaml" -o "$tmp/bases.h5" --quiet
ok fixed_base_sets_the_dofs "$PY - '$tmp/bases.h5' <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
q = [x.decode() for x in f['/model/q_names'][:]]
n = [x.decode() for x in f['/model/body_names'][:]]
p = f['/body/position']
fixed = p[:, n.index('fixed_ball')]
print('  q: %d (%s ... %s)' % (len(q), q[0], q[-1]))
ok = (len(q) == 7 + 3 + 7 and q[0].startswith('a_base_float.') and q[7] == 'a_j1.angle'
      and q[10].startswith('free_free.') and np.abs(fixed - [5, 0, 1]).max() < 1e-15
      and abs(p[-1, n.index('free_ball')][2] - p[0, n.index('free_ball')][2]) > 1e-4
      and np.abs(p[0, n.index('a_base')] - [0, 0, 2]).max() < 1e-15)
sys.exit(0 if ok else 1)
PY"
# errors, located at the scene's line of the entry (exit 1)
head -3 "$tmp/bases.yaml" >"$tmp/missing.yaml"
echo "  - {file: sub/nothere.urdf, prefix: x_}" >>"$tmp/missing.yaml"
expect missing_file "$tmp/missing.yaml" "missing.yaml:4:" "models[0].file" "nothere.urdf"
head -3 "$tmp/bases.yaml" >"$tmp/clash.yaml"
printf '  - {file: sub/arm3.urdf, prefix: l_}\n  - {file: sub/arm3.xml, prefix: l_}\n' >>"$tmp/clash.yaml"
expect clash_between_models "$tmp/clash.yaml" "clash.yaml:5:" "models[1]" "'l_base'" "models[0] (line 4)"
cat >"$tmp/clash2.yaml" <<'EOF'
simc: 1
time: {step: 0.001, duration: 0.01}
bodies:
  - {name: base, parent: world, joint: {type: fixed}}
models:
  - {file: sub/arm3.urdf}
EOF
expect clash_with_the_scene "$tmp/clash2.yaml" "clash2.yaml:6:" "models[0]" "'base'" "the scene (line 4)"
head -3 "$tmp/bases.yaml" >"$tmp/prefix.yaml"
echo "  - {file: sub/arm3.urdf, prefix: [a, b]}" >>"$tmp/prefix.yaml"
expect bad_prefix_type "$tmp/prefix.yaml" "prefix.yaml:4:" "models[0].prefix: expected a name prefix, got a list"
head -3 "$tmp/bases.yaml" >"$tmp/key.yaml"
echo "  - {file: sub/arm3.urdf, scale: 2}" >>"$tmp/key.yaml"
expect unknown_key "$tmp/key.yaml" "key.yaml:4:" "models[0].scale: unknown key"
head -3 "$tmp/bases.yaml" >"$tmp/notxml.yaml"
echo "  - {file: bases.yaml}" >>"$tmp/notxml.yaml"
expect not_a_model "$tmp/notxml.yaml" "notxml.yaml:4:" "not a model"
sed 's|range="-2 2"|range="2 -2"|' test/mjcf/arm3.xml >"$tmp/sub/bad.xml"
head -3 "$tmp/bases.yaml" >"$tmp/inner.yaml"
echo "  - {file: sub/bad.xml}" >>"$tmp/inner.yaml"
expect error_inside_the_model "$tmp/inner.yaml" "sub/bad.xml:13:52: element <joint name=\"j1\">: attribute range"
"$BIN/simc" "$tmp/tilted.yaml" --check >/dev/null 2>&1
ok check_accepts_models '[ $? = 0 ]'
# the output's scene re-loads alone (the models expanded, no models: key)
h5dump -a /scene_yaml "$tmp/tilted.h5" >/dev/null 2>&1
$PY -c "import h5py,sys; open(sys.argv[2],'w').write(h5py.File(sys.argv[1],'r').attrs['scene_yaml'])" "$tmp/tilted.h5" "$tmp/again.yaml"
"$BIN/simc" "$tmp/again.yaml" --check >/dev/null 2>&1
ok emitted_scene_reloads "[ \$? = 0 ] && ! grep -q '^models:' '$tmp/again.yaml'"

# what a translation ignored: a root attribute, absent when nothing was
# (arm26's muscles are not translated)
H=/usr/share/mujoco/model/tendon_arm/arm26.xml
"$BIN/simc" "$H" --allow-unsupported --duration 0.01 -o "$tmp/hum.h5" --quiet
ok ignored_listed "$PY - '$tmp/hum.h5' '$tmp/one.h5' <<'PY'
import sys, h5py
a, b = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r')
ig = a.attrs.get('ignored', '')
print('  ' + ig.replace('\n', '\n  ').rstrip())
sys.exit(0 if 'muscle (first at' in ig and 'arm26.xml:' in ig and 'ignored' not in b.attrs else 1)
PY"
cat >"$tmp/hum.yaml" <<EOF
simc: 1
time: {step: 0.001, duration: 0.002}
models:
  - {file: $H, prefix: h_, allow_unsupported: true, pose: {position: [0, 0, 1]}}
EOF
"$BIN/simc" "$tmp/hum.yaml" -o "$tmp/humy.h5" --quiet
ok ignored_from_a_models_entry "$PY - '$tmp/humy.h5' '$tmp/tilted.h5' <<'PY'
import sys, h5py
a, b = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r')
sys.exit(0 if 'muscle' in a.attrs.get('ignored', '') and 'ignored' not in b.attrs else 1)
PY"
# what a models: entry's translation approximated (MuJoCo's solref and
# solimp): the root attribute approximated; refused under --strict
cat >"$tmp/soft.yaml" <<EOF
simc: 1
time: {step: 0.001, duration: 0.002}
models:
  - {file: /usr/share/mujoco/model/humanoid/humanoid.xml, prefix: h_}
EOF
"$BIN/simc" "$tmp/soft.yaml" -o "$tmp/soft.h5" --quiet 2>/dev/null
ok approximated_from_a_models_entry "$PY - '$tmp/soft.h5' <<'PY'
import sys, h5py
a = h5py.File(sys.argv[1], 'r').attrs
sys.exit(0 if 'geom solref/solimp' in a.get('approximated', '') and 'ignored' not in a else 1)
PY"
out=$("$BIN/simc" "$tmp/soft.yaml" --check --strict 2>&1); rc=$?
ok strict_in_an_entry "[ $rc = 1 ] && grep -qF 'translates only approximately' <<<\"\$out\" && grep -qF 'humanoid.xml:' <<<\"\$out\""
sed -i 's/, allow_unsupported: true//' "$tmp/hum.yaml"
expect unsupported_refused_in_an_entry "$tmp/hum.yaml" "arm26.xml:" "--allow-unsupported"
ok simc_h5_validates "$PY - '$tmp/hum.h5' '$tmp/humy.h5' <<'PY'
import sys, h5py
sys.path.insert(0, 'tools')
import simc_h5
for p in sys.argv[1:]:
    with h5py.File(p, 'r') as f:
        simc_h5.check_file(f, p)
PY"
# A URDF's collision shapes collide (URDF has no masks): a free box from a
# URDF dropped from 0.5 m onto a scene's floor rests on it at half its height
# (0.05 m, to the contact's compliance) after 1 s, touching it.
cat >"$tmp/box.urdf" <<'EOF'
<?xml version="1.0"?>
<robot name="box">
  <link name="box">
    <inertial><mass value="1"/><inertia ixx="0.00167" iyy="0.00167" izz="0.00167" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </link>
</robot>
EOF
cat >"$tmp/floor.yaml" <<'EOF'
simc: 1
time: {step: 0.001, duration: 1.0}
static: [{shape: plane, normal: [0, 0, 1], offset: 0}]
models: [{file: box.urdf, fixed_base: false, pose: {position: [0, 0, 0.5]}}]
EOF
"$BIN/simc" "$tmp/floor.yaml" -o "$tmp/floor.h5" --quiet
ok urdf_box_rests_on_the_floor "$PY - '$tmp/floor.h5' <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
names = [x.decode() for x in f['/model/body_names'][:]]
z = f['/body/position'][-1, names.index('box'), 2]
print('  final z %.6f m' % z)
sys.exit(0 if abs(z - 0.05) < 1e-3 else 1)
PY"

# constraints: an MJCF's welds to the world (the anchor given in the world's
# frame; one with a relpose, its orientation given in the world's frame)
# and a connect of two of its bodies, the model placed twice: each welded
# box stays where its entry puts it (the world point and orientation moved
# with the entry's pose), each copy's names prefixed
cat >"$tmp/sub/welded.xml" <<'EOF'
<mujoco>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <body name="box" pos="0.5 0 1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
    <body name="arm" pos="0 0 1"><joint name="h" type="hinge" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02"/></body>
    <body name="tip" pos="0.3 0 1"><freejoint/><geom size="0.05"/></body>
    <body name="box3" pos="0 0.5 1" euler="20 0 0"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
  </worldbody>
  <equality>
    <weld body1="box" anchor="0.5 0 1"/>
    <weld body1="box3" anchor="0 0.5 1" relpose="0 0 0 0.984807753 -0.173648178 0 0"/>
    <connect body1="arm" body2="tip" anchor="0.3 0 0"/>
  </equality>
</mujoco>
EOF
cat >"$tmp/welded.yaml" <<'EOF'
simc: 1
time: {step: 0.001, duration: 0.5}
models:
  - {file: sub/welded.xml, prefix: p_, pose: {position: [1, 2, 0.5], rpy: [0.3, -0.2, 1.0]}}
  - {file: sub/welded.xml, prefix: q_, pose: {position: [-1, 0, 0], rpy: [0, 0, 0]}}
EOF
"$BIN/simc" "$tmp/welded.yaml" -o "$tmp/welded.h5" --quiet 2>/dev/null
ok constraints_placed "$PY - '$tmp/welded.h5' <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
names = [x.decode() for x in f['/model/body_names'][:]]
P = f['/body/position'][:]
y = f.attrs['scene_yaml']; y = y.decode() if isinstance(y, bytes) else y
O = f['/body/orientation'][:]
boxes = ('p_box', 'q_box', 'p_box3', 'q_box3')
moved = max(np.abs(P[:, names.index(b)] - P[0, names.index(b)]).max() for b in boxes)
turned = max(np.abs(O[:, names.index(b)] - O[0, names.index(b)]).max() for b in boxes)
tip = max(np.abs(P[:, names.index(b)] - P[0, names.index(b)]).max() for b in ('p_tip', 'q_tip'))
print('  welded boxes moved %.2g m and turned %.2g (quaternion) in 0.5 s; the connected tips fell %.2g m with their arms'
      % (moved, turned, tip))
sys.exit(0 if moved < 1e-5 and turned < 1e-5 and tip > 0.01 and 'p_constraint0' in y and 'q_constraint2' in y else 1)
PY"
