#!/usr/bin/env bash
# URDF as ROS writes it (src/scene/urdf.c).  test/urdf/pendulum.urdf is a
# pendulum fixed through the world link, its pivot two massless frames away,
# with what urdfdom reads and simc skips (visual, gazebo, transmission, ...)
# and an XML declaration after a comment: its massless frames fold into the
# world and the bob (bodies world, swing, bob), the pivot's pose is the
# frames' composition (1e-12), and its angle follows the physical
# pendulum's equation I q'' = m g l sin(phi0 - q) - c q' (RK4 at 10 us;
# simc at 1 ms differs by 3.4e-6 rad over 1 s, tolerance 1e-4).  package://
# resolves through --model-path, ROS_PACKAGE_PATH (a package.xml's name, a
# folder's name) and a package.xml above the URDF, in that order; errors in
# what URDF defines are located at their line (exit 1).  A Collada mesh
# (assimp) is read in metres in the link's axes, against the numbers in the
# file, and a block with it as collision, free, rests on a floor (within
# 1 mm after 1 s).  The pendulum and dart-doc's KUKA KR5 against MuJoCo
# 2.2.2's reading of the same file: every body's pose and joint range;
# also DRC-Hubo (51 joints, package:// found upward), Atlas (27) and the
# Barrett WAM (7, tf names, its package herb_description by --model-path).
# A <mimic> is a joint coupling (test/urdf/gripper_mimic.urdf, in a scene
# with motors: q = m q_J + o within 1e-6 while the joints move); a mimic of
# an unknown joint, of itself, on or of a joint that is not revolute,
# continuous or prismatic is an error at the <mimic>.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh
root=$(pwd)
unset ROS_PACKAGE_PATH

# ---- the pendulum ----
"$BIN/simc" test/urdf/pendulum.urdf -o "$tmp/p.h5" --quiet --duration 1
ok pendulum_frames_folded "$PY - '$tmp/p.h5' <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
names = [x.decode() for x in f['/model/body_names'][:]]
pos = f['/body/position'][0]; quat = f['/body/orientation'][0]
# mount (0.1 0.2 1) yaw 0.5, then 0.5 up and roll 0.3, then roll -0.3
want_q = np.array([np.cos(0.25), 0, 0, np.sin(0.25)])
good = (names == ['world', 'swing', 'bob'] and np.abs(pos[1] - [0.1, 0.2, 1.5]).max() < 1e-12
        and np.abs(quat[1] - want_q).max() < 1e-12 and np.abs(pos[2] - pos[1]).max() < 1e-12)
print('  bodies', names, 'pivot', pos[1], quat[1])
sys.exit(0 if good else 1)
PY"
ok pendulum_closed_form "$PY - '$tmp/p.h5' <<'PY'
import sys, math, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
t = f['/time'][:]; q = f['/q'][:, 0]
I = 0.01 + 2 * 0.25; mgl = 2 * 9.81 * 0.5; c = 0.05; p0 = math.atan2(0.3, 0.4)
acc = lambda x, v: (mgl * math.sin(p0 - x) - c * v) / I
h = 1e-5; x = v = 0.0; ref = {0: 0.0}
for k in range(1, 100001):
    k1x, k1v = v, acc(x, v)
    k2x, k2v = v + h / 2 * k1v, acc(x + h / 2 * k1x, v + h / 2 * k1v)
    k3x, k3v = v + h / 2 * k2v, acc(x + h / 2 * k2x, v + h / 2 * k2v)
    k4x, k4v = v + h * k3v, acc(x + h * k3x, v + h * k3v)
    x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x); v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    if k % 100 == 0: ref[k // 100] = x
err = max(abs(ref[int(round(tt * 1000))] - qq) for tt, qq in zip(t, q))
print('  rows %d, q(1 s) %.6f, worst difference %.3g rad' % (len(t), q[-1], err))
sys.exit(0 if len(t) == 1001 and err < 1e-4 and q[-1] > 0.5 else 1)
PY"

# ---- the world link: --floating-base lets go what is fixed to it ----
cat >"$tmp/drop.urdf" <<'EOF'
<robot name="drop">
  <link name="world"/>
  <joint name="/anchor" type="fixed">
    <parent link="world"/>
    <child link="/box"/>
    <origin xyz="0 0 2"/>
  </joint>
  <link name="/box">
    <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><capsule radius="0.05" length="0.3"/></geometry></collision>
  </link>
</robot>
EOF
"$BIN/simc" "$tmp/drop.urdf" -o "$tmp/drop.h5" --quiet --duration 0.5 --floating-base
ok world_floating_falls "$PY - '$tmp/drop.h5' <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
names = [x.decode() for x in f['/model/body_names'][:]]
i = names.index('box'); z = f['/body/position'][:, i, 2]; t = f['/time'][:]
want = 2 - 0.5 * 9.81 * t[-1] ** 2
shape = f['/model/geometry/shape'][0].decode(); size = f['/model/geometry/size'][0]
print('  bodies', names, 'z(0.5 s) %.6f, free fall %.6f; shape %s %s' % (z[-1], want, shape, size[:2]))
sys.exit(0 if abs(z[0] - 2) < 1e-12 and abs(z[-1] - want) < 1e-3 and shape == 'capsule'
         and abs(size[0] - 0.05) < 1e-15 and abs(size[1] - 0.3) < 1e-15 else 1)
PY"
"$BIN/simc" "$tmp/drop.urdf" -o "$tmp/fixed.h5" --quiet --duration 0.2
ok world_fixed_stays "$PY - '$tmp/fixed.h5' <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
sys.exit(0 if f['/q'].shape[1] == 0 and abs(f['/body/position'][-1, 1, 2] - 2) < 1e-12 else 1)
PY"

# ---- package:// ----
mk_pkg() { # DIR NAME: a package in DIR whose package.xml names it NAME, with meshes/cube.obj
  mkdir -p "$1/meshes" && cp test/meshes/cube.obj "$1/meshes/"
  printf '<?xml version="1.0"?>\n<package format="2">\n  <name>%s</name>\n</package>\n' "$2" >"$1/package.xml"
}
mk_urdf() { # FILE PKG
  cat >"$1" <<EOF
<robot name="r">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><mesh filename="package://$2/meshes/cube.obj"/></geometry></collision>
  </link>
</robot>
EOF
}
mesh_of() { # URDF ARGS...: the mesh file simc read
  "$BIN/simc" "$@" -o "$tmp/m.h5" --quiet --duration 0.001 >/dev/null 2>&1 &&
    h5dump -a /model/meshes/0/file "$tmp/m.h5" | sed -n 's/.*(0): "\(.*\)"/\1/p'
}
mkdir -p "$tmp/ws/src/description_src" "$tmp/other/deep/er/my_meshes/meshes" "$tmp/mp/my_robot"
mk_pkg "$tmp/ws/src/description_src" my_robot
cp test/meshes/cube.obj "$tmp/other/deep/er/my_meshes/meshes/"
cp -r "$tmp/ws/src/description_src/meshes" "$tmp/mp/my_robot/"
mk_urdf "$tmp/r.urdf" my_robot
got=$(ROS_PACKAGE_PATH="$tmp/nothing:$tmp/ws" mesh_of "$tmp/r.urdf")
ok package_by_package_xml "[ '$got' = '$tmp/ws/src/description_src/meshes/cube.obj' ]"
got=$(ROS_PACKAGE_PATH="$tmp/ws" mesh_of "$tmp/r.urdf" --model-path "$tmp/mp")
ok package_model_path_first "[ '$got' = '$tmp/mp/my_robot/meshes/cube.obj' ]"
mk_urdf "$tmp/m.urdf" my_meshes
got=$(ROS_PACKAGE_PATH="$tmp/ws:$tmp/other" mesh_of "$tmp/m.urdf")
ok package_by_folder_name "[ '$got' = '$tmp/other/deep/er/my_meshes/meshes/cube.obj' ]"
mk_pkg "$tmp/up/desc" up_description
mkdir -p "$tmp/up/desc/urdf/robots"
mk_urdf "$tmp/up/desc/urdf/robots/u.urdf" up_description
got=$(mesh_of "$tmp/up/desc/urdf/robots/u.urdf")
ok package_upward "[ '$got' = '$tmp/up/desc/meshes/cube.obj' ]"
mk_urdf "$tmp/lost.urdf" lost_pkg
ROS_PACKAGE_PATH="$tmp/ws" expect package_not_found "$tmp/lost.urdf" \
  "lost.urdf:4:32: element <mesh>: attribute filename: package 'lost_pkg' not found" \
  "no --model-path; ROS_PACKAGE_PATH $tmp/ws; a package.xml naming it in $tmp and above"

# ---- <mimic>: a joint coupling ----
# test/urdf/gripper_mimic.urdf placed by a scene (prefix, pose) with a
# motor on each driving joint: the right finger mimics the left (-1, 0.1),
# the wrist the arm (2, 0), held by simc's near-rigid rows at dt 1 ms.
# Measured: fingers 1.8e-7 m while they slide, 1.1e-3 m as the left finger
# hits its limit at 0.65 m/s (about v dt: the limit and the coupling are
# springs of the same period), 8e-11 m at rest on it; wrist 2.1e-6 rad.
cat >"$tmp/grip.yaml" <<EOF
simc: 1
name: gripper_mimic_scene
time: {step: 0.001, duration: 1}
models:
  - {file: $root/test/urdf/gripper_mimic.urdf, prefix: g_, pose: {position: [1, 2, 0], rpy: [0, 0, 0.5]}}
actuators:
  - {name: squeeze, joint: g_left, type: motor, command: 0.5}
  - {name: swing, joint: g_arm, type: motor, command: 0.3}
EOF
"$BIN/simc" "$tmp/grip.yaml" -o "$tmp/grip.h5" --quiet --set 'bodies.g_right.initial.q=[0.1]'
ok mimic_holds "$PY - '$tmp/grip.h5' <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r')
n = [x.decode() for x in f['/model/q_names'][:]]; q = f['/q'][:]; t = f['/time'][:]
l, r, a, w = [q[:, n.index(k)] for k in ('g_left.x', 'g_right.x', 'g_arm.angle', 'g_wrist.angle')]
e = np.abs(r - (0.1 - l)); ew = np.abs(w - 2 * a)
hit = t[np.argmax(l >= 0.2 - 1e-9)]
slide, impact, rest = e[t < hit - 0.01].max(), e.max(), e[t > hit + 0.1].max()
print('  fingers: sliding %.2g m, at the limit (t = %.3f s) %.2g m, resting %.2g m; wrist %.2g rad (arm to %.3f rad)'
      % (slide, hit, impact, rest, ew.max(), a.max()))
sys.exit(0 if slide < 1e-6 and impact < 2e-3 and rest < 1e-9 and ew.max() < 1e-5 and a.max() > 0.1 else 1)
PY"

# ---- errors at the URDF's line ----
link='<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>'
two() { # FILE JOINT-BODY [LINK-B-BODY]: links a and b and a revolute joint j
  printf '<robot name="r">\n <link name="a">%s</link>\n <joint name="j" type="revolute">\n  <parent link="a"/>\n  <child link="b"/>\n  <limit lower="-1" upper="1" effort="1" velocity="1"/>%s\n </joint>\n <link name="b">%s</link>\n</robot>\n' \
    "$link" "$2" "${3-$link}" >"$1"
}
two "$tmp/typo.urdf" '' '<inertal><mass value="1"/></inertal>'
expect misspelt_inertial "$tmp/typo.urdf" "typo.urdf:8:17: element <inertal>: not a URDF element inside <link>"
two "$tmp/damp.urdf" '<dynamics dampin="0.5"/>'
expect misspelt_damping "$tmp/damp.urdf" "damp.urdf:6:66: element <dynamics>: attribute dampin: not a URDF attribute of <dynamics>"
two "$tmp/massless.urdf" '' ''
expect massless_moving_link "$tmp/massless.urdf" "massless.urdf:3:2: element <joint name=\"j\">: moves link 'b', but neither it nor any link below it has mass"
two "$tmp/negative.urdf" '' '<inertial><mass value="-1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>'
expect negative_mass "$tmp/negative.urdf" "negative.urdf:8:33: element <mass>: attribute value: must be >= 0"
two "$tmp/mimic.urdf" '<mimic joint="k" multiplier="2"/>'
expect mimic_unknown_joint "$tmp/mimic.urdf" "mimic.urdf:6:63: element <mimic>: attribute joint: no joint named 'k'"
two "$tmp/mimic_self.urdf" '<mimic joint="j"/>'
expect mimic_itself "$tmp/mimic_self.urdf" "mimic_self.urdf:6:63: element <mimic>: attribute joint: joint 'j' cannot mimic itself"
sed 's/type="revolute"/type="fixed"/' "$tmp/mimic.urdf" >"$tmp/mimic_fixed.urdf"
expect mimic_on_fixed "$tmp/mimic_fixed.urdf" "mimic_fixed.urdf:6:56: element <mimic>: joint 'j' is a fixed joint: only a revolute, continuous or prismatic joint mimics another"
two "$tmp/mimic_mult.urdf" '<mimic joint="k" multiplier="two"/>'
sed -i 's|</robot>| <joint name="k" type="floating"><parent link="a"/><child link="c"/></joint>\n <link name="c">'"$link"'</link>\n</robot>|' "$tmp/mimic_mult.urdf"
expect mimic_of_floating "$tmp/mimic_mult.urdf" "mimic_mult.urdf:6:63: element <mimic>: attribute joint: joint 'k' is a floating joint: only a revolute, continuous or prismatic joint is mimicked"
printf '<robot name="r">\n <link name="world">%s</link>\n</robot>\n' "$link" >"$tmp/wmass.urdf"
expect world_link_mass "$tmp/wmass.urdf" "wmass.urdf:2:2: element <link name=\"world\">: the link named world is simc's world"
printf '<!-- a comment -->\n<?xml version="1.0"?>\n<robot name="r">\n <link name="a">%s</link>\n <link name="b"><bad/></link>\n</robot>\n' "$link" >"$tmp/decl.urdf"
expect late_declaration_lines_kept "$tmp/decl.urdf" "decl.urdf:5:17: element <bad>: not a URDF element inside <link>"

# ---- meshes through assimp: Collada ----
# test/urdf/meshes/block.dae: a block 20 x 10 x 40 cm written in centimetres,
# z up, its node raised 20 cm; read in metres in the link's axes (the up
# axis not turned), the node's transform applied (assimp keeps floats: 1e-7)
cat >"$tmp/floor.yaml" <<EOF
simc: 1
name: floor
time: {step: 0.001, duration: 1}
static:
  - {shape: plane, normal: [0, 0, 1], offset: 0.0}
models:
  - {file: $root/test/urdf/block_dae.urdf, fixed_base: false, pose: {position: [0, 0, 0.05], rpy: [0, 0, 0.3]}}
EOF
"$BIN/simc" "$tmp/floor.yaml" -o "$tmp/floor.h5" --quiet
ok dae_mesh_read "$PY - '$tmp/floor.h5' <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r'); g = f['/model/meshes/0']; v = g['vertices'][:]
lo, hi = v.min(0), v.max(0)
print('  block.dae: %d vertices, %d faces, box %s .. %s m, volume %.9g m^3, closed %d'
      % (len(v), len(g['faces']), lo, hi, g.attrs['volume'], g.attrs['closed']))
sys.exit(0 if len(v) == 8 and len(g['faces']) == 12 and g.attrs['closed'] == 1
         and np.abs(lo - [-0.1, -0.05, 0]).max() < 1e-7 and np.abs(hi - [0.1, 0.05, 0.4]).max() < 1e-7
         and abs(g.attrs['volume'] - 0.008) < 1e-8 else 1)
PY"
ok dae_block_rests_on_floor "$PY - '$tmp/floor.h5' <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], 'r'); n = [x.decode() for x in f['/model/body_names'][:]]; i = n.index('block')
z = f['/body/position'][:, i, 2]; v = np.abs(f['/v'][-1]).max()
print('  z from %.3f to %.3g m (lowest %.3g), speed at 1 s %.2g' % (z[0], z[-1], z.min(), v))
sys.exit(0 if abs(z[0] - 0.05) < 1e-12 and abs(z[-1]) < 1e-3 and z.min() > -2e-3 and v < 1e-4 else 1)
PY"
printf '<robot name="r">\n <link name="a">%s\n  <collision><geometry><mesh filename="part.3mfx"/></geometry></collision>\n </link>\n</robot>\n' "$link" >"$tmp/fmt.urdf"
expect mesh_format_unknown "$tmp/fmt.urdf" "fmt.urdf:3: element <collision>" "unknown mesh format (expected .obj, .stl, or a format assimp reads such as .dae)"
printf '<COLLADA><library_geometries>' >"$tmp/broken.dae"
printf '<robot name="r">\n <link name="a">%s\n  <collision><geometry><mesh filename="broken.dae"/></geometry></collision>\n </link>\n</robot>\n' "$link" >"$tmp/broken.urdf"
expect dae_broken_located "$tmp/broken.urdf" "broken.urdf:3: element <collision>" "broken.dae" "assimp:"

# a shape on a fixed link of mass 0 (a bumper, a sensor's housing) is a
# shape of a massless body; joints in a loop are refused at a joint
printf '<robot name="r">\n <link name="a">%s</link>\n <joint name="f" type="fixed"><parent link="a"/><child link="s"/></joint>\n <link name="s"><inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial><collision><geometry><sphere radius="0.01"/></geometry></collision></link>\n</robot>\n' "$link" >"$tmp/m0.urdf"
ok massless_fixed_shape_loads "'$BIN/simc' '$tmp/m0.urdf' --check >/dev/null 2>&1"
printf '<robot name="r">\n <link name="r">%s</link>\n <link name="a">%s</link>\n <link name="b">%s</link>\n <joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>\n <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>\n</robot>\n' "$link" "$link" "$link" >"$tmp/loop.urdf"
expect joint_loop "$tmp/loop.urdf" "loop.urdf:6:2: element <joint name=\"j2\">: the joints form a loop through link 'a'"
printf '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n <xacro:property name="m" value="1"/>\n <link name="a">%s</link>\n</robot>\n' "$link" >"$tmp/t.urdf.xacro"
expect xacro_refused "$tmp/t.urdf.xacro" "t.urdf.xacro:2: element <property name=\"m\">: a xacro element: the file is a xacro template (expand it first"
printf '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n <link name="a">%s\n  <xacro:insert_block name="shape"/>\n </link>\n</robot>\n' "$link" >"$tmp/t2.urdf.xacro"
expect xacro_in_link_refused "$tmp/t2.urdf.xacro" "t2.urdf.xacro:3: element <insert_block name=\"shape\">: a xacro element"

# ---- against MuJoCo 2.2.2's own reading of the same URDF ----
# mujoco-compile writes MuJoCo's model of a URDF (its static links fused
# away, as simc folds them); each MuJoCo body's world pose at q = 0 and
# its joint's range against simc's body of that name and its joint (MuJoCo
# writes 6 significant digits: 1e-5).  MuJoCo's tinyxml2 refuses the
# declaration after a comment, and looks for meshes beside the file.
vs_mujoco() { # NAME URDF-AS-MUJOCO-READS-IT URDF-FOR-SIMC [SIMC-ARGS...]
  mujoco-compile "$2" "$tmp/$1_mj.xml" >"$tmp/$1_mj.log" 2>&1 &&
    "$BIN/simc" "$3" "${@:4}" -o "$tmp/$1.h5" --quiet --duration 0.001 2>"$tmp/$1.err" &&
    $PY - "$tmp/$1_mj.xml" "$tmp/$1.h5" <<'PY'
import sys, h5py, numpy as np, xml.etree.ElementTree as ET
def qmul(a, b):
    w1, x1, y1, z1 = a; w2, x2, y2, z2 = b
    return np.array([w1*w2 - x1*x2 - y1*y2 - z1*z2, w1*x2 + x1*w2 + y1*z2 - z1*y2,
                     w1*y2 - x1*z2 + y1*w2 + z1*x2, w1*z2 + x1*y2 - y1*x2 + z1*w2])
def rot(q, v):
    return qmul(qmul(q, np.r_[0, v]), q * [1, -1, -1, -1])[1:]
num = lambda e, a, d: np.array([float(x) for x in e.get(a, d).split()])
bodies = {}
def walk(e, p, q):
    for b in e.findall('body'):
        bp = p + rot(q, num(b, 'pos', '0 0 0')); bq = qmul(q, num(b, 'quat', '1 0 0 0'))
        bq /= np.linalg.norm(bq)
        i = b.find('inertial'); j = b.find('joint')
        bodies[b.get('name')] = (bp, bq, float(i.get('mass')) if i is not None else 0.0,
                                 num(j, 'range', 'nan nan') if j is not None else None)
        walk(b, bp, bq)
walk(ET.parse(sys.argv[1]).getroot().find('worldbody'), np.zeros(3), np.array([1.0, 0, 0, 0]))
f = h5py.File(sys.argv[2], 'r')
names = [x.decode() for x in f['/model/body_names'][:]]
P, Q = f['/body/position'][0], f['/body/orientation'][0]
jr = f['/model/joint_range'][:] if '/model/joint_range' in f else None
jn = [x.decode() for x in f['/model/joint_names'][:]]
worst = 0.0; nr = want_r = 0
for n, (p, q, m, r) in bodies.items():
    i = names.index(n[1:] if n.startswith('/') else n)  # tf's '/' dropped
    qs = Q[i] if np.dot(Q[i], q) >= 0 else -Q[i]
    worst = max(worst, np.abs(P[i] - p).max(), np.abs(qs - q).max())
    if r is not None and not np.isnan(r[0]):
        want_r += 1
        # the joint body above link n carries the joint
        k = jn.index(names[f['/model/body_parent'][i]])
        worst = max(worst, np.abs(jr[k] - r).max()); nr += 1
print('  %d MuJoCo bodies, %d joint ranges, worst pose/range difference %.2g' % (len(bodies), nr, worst))
sys.exit(0 if bodies and nr == want_r and worst < 1e-5 else 1)
PY
}
grep -v '^<?xml' test/urdf/pendulum.urdf >"$tmp/pend_mj.urdf"
ok pendulum_vs_mujoco "vs_mujoco pend '$tmp/pend_mj.urdf' test/urdf/pendulum.urdf"
kr5="/usr/share/doc/dart/data/urdf/KR5/KR5 sixx R650.urdf"
mkdir -p "$tmp/kr5" && cp "$kr5" "$tmp/kr5/kr5.urdf" && cp "$(dirname "$kr5")"/meshes/*.STL "$tmp/kr5/"
ok kr5_vs_mujoco "vs_mujoco kr5 '$tmp/kr5/kr5.urdf' '$kr5'"
hubo=/usr/share/doc/dart/data/urdf/drchubo/drchubo.urdf
mkdir -p "$tmp/hubo" && cp "$hubo" "$(dirname "$hubo")"/meshes/*.stl "$tmp/hubo/"
ok drchubo_vs_mujoco "vs_mujoco hubo '$tmp/hubo/drchubo.urdf' '$hubo'"
atlas=/usr/share/doc/dart/data/sdf/atlas/atlas_v3_no_head.urdf
ok atlas_vs_mujoco "vs_mujoco atlas '$atlas' '$atlas'"
wam=/usr/share/doc/dart/data/urdf/wam
mkdir -p "$tmp/wam" "$tmp/wam_mp" && cp "$wam/wam.urdf" "$wam"/meshes/wam/*.STL "$tmp/wam/"
ln -s "$wam" "$tmp/wam_mp/herb_description"
ok wam_vs_mujoco "vs_mujoco wam '$tmp/wam/wam.urdf' '$wam/wam.urdf' --model-path '$tmp/wam_mp'"
