#!/usr/bin/env bash
# MJCF models in (src/scene/mjcf.c): a small arm (test/mjcf/arm.xml) runs
# with MuJoCo's names for bodies, joints and actuators; includes resolve
# relative to the including file; what changes the dynamics and is not
# translated is refused with its line unless --allow-unsupported; bad input
# is an error located in the XML file (file:line: element <...>: ...),
# never a crash, and the parser loads no external entity.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

"$BIN/simc" test/mjcf/arm.xml -o "$tmp/arm.h5" --quiet
ok arm_runs '[ "$(status_of "$tmp/arm.h5")" = complete ]'
ok arm_names "$PY - '$tmp/arm.h5' <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
names = lambda k: [x.decode() if isinstance(x, bytes) else x for x in f[k][:]]
ok = (names('/model/body_names') == ['world', 'shoulder', 'upper', 'elbow', 'lower'] and
      names('/model/q_names') == ['shoulder.angle', 'elbow.angle'] and
      names('/model/actuator_names') == ['m_shoulder', 'p_elbow'])
sys.exit(0 if ok else 1)
PY"

# an include, relative to the including file, brings the defaults
mkdir -p "$tmp/sub"
cat >"$tmp/sub/defaults.xml" <<'XML'
<mujoco>
  <default>
    <geom type="sphere" size="0.1"/>
  </default>
</mujoco>
XML
cat >"$tmp/inc.xml" <<'XML'
<mujoco model="inc">
  <include file="sub/defaults.xml"/>
  <worldbody>
    <body name="ball" pos="0 0 1">
      <freejoint/>
      <geom/>
    </body>
  </worldbody>
</mujoco>
XML
"$BIN/simc" "$tmp/inc.xml" -o "$tmp/inc.h5" --quiet --duration 0.01
ok include_relative "$PY - '$tmp/inc.h5' <<'PY'
import sys, h5py, math
f = h5py.File(sys.argv[1], 'r')
r = f['/model/geometry/size'][0][0]
sys.exit(0 if abs(r - 0.1) < 1e-15 else 1)
PY"

sed 's|range="-1.5 1.5"|range="1.5 -1.5"|' test/mjcf/arm.xml >"$tmp/bad_range.xml"
expect range_lower_above_upper "$tmp/bad_range.xml" "bad_range.xml:13:56: element <joint name=\"shoulder\">: attribute range: lower must be below upper"
printf '<mujoco>\n<worldbody>\n<body name="a">\n</worldbody></mujoco>\n' >"$tmp/malformed.xml"
expect malformed_xml "$tmp/malformed.xml" "malformed.xml:"
printf '<mujoco>\n  <include file="nothere.xml"/>\n</mujoco>\n' >"$tmp/missing_include.xml"
expect missing_include "$tmp/missing_include.xml" "missing_include.xml:2:12: element <include>: attribute file: cannot open" "nothere.xml"
printf '<mujoco>\n <worldbody>\n  <body name="leaf">\n   <joint type="hinge"/>\n  </body>\n </worldbody>\n</mujoco>\n' >"$tmp/massless.xml"
expect massless_moving_body "$tmp/massless.xml" 'massless.xml:3:3: element <body name="leaf">: a moving body needs mass'
printf '<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<mujoco model="&x;"><worldbody/></mujoco>\n' >"$tmp/xxe.xml"
expect external_entity_not_loaded "$tmp/xxe.xml" "xxe.xml:2:"
printf '<mujoco>\n <worldbody>\n  <body name="b"><joint type="screw"/><geom size="0.1"/></body>\n </worldbody>\n</mujoco>\n' >"$tmp/joint_type.xml"
expect unknown_joint_type "$tmp/joint_type.xml" "joint_type.xml:3:25: element <joint>: attribute type: unknown joint type 'screw'"
printf '<mujoco>\n <worldbody>\n  <body name="b"><geom size="0.1" class="nope"/></body>\n </worldbody>\n</mujoco>\n' >"$tmp/class.xml"
expect unknown_class "$tmp/class.xml" "class.xml:3:35: element <geom>: attribute class: unknown class 'nope'"
printf '<mujoco>\n <worldbody>\n  <body name="b"><geom size="0.1 x"/></body>\n </worldbody>\n</mujoco>\n' >"$tmp/number.xml"
expect malformed_number "$tmp/number.xml" "number.xml:3:24: element <geom>: attribute size: expected 1 to 3 numbers (got '0.1 x')"
printf '<mujoco>\n <include file="/dev/zero"/>\n</mujoco>\n' >"$tmp/zero.xml"
expect include_not_regular "$tmp/zero.xml" "zero.xml:2:11: element <include>: attribute file: cannot read '/dev/zero': not a regular file"
printf '<html><body/></html>\n' >"$tmp/page.xml"
expect unknown_root "$tmp/page.xml" "the root element is <html> (expected <mujoco>, an MJCF model, or <robot>, a URDF)"
# URDF: the arm runs with its names, fixed or floating; bad input located
"$BIN/simc" test/mjcf/arm3.urdf -o "$tmp/a3.h5" --quiet
ok urdf_arm_names "$PY - '$tmp/a3.h5' <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
names = lambda k: [x.decode() if isinstance(x, bytes) else x for x in f[k][:]]
sys.exit(0 if names('/model/body_names') == ['world', 'base', 'j1', 'l1', 'j2', 'l2', 'j3', 'l3']
         and names('/model/q_names') == ['j1.angle', 'j2.angle', 'j3.x'] else 1)
PY"
"$BIN/simc" test/mjcf/arm3.urdf --floating-base -o "$tmp/a3f.h5" --quiet
ok urdf_floating_base "[ \"\$(h5dump -H -d /q '$tmp/a3f.h5' | grep -o '( [0-9]*, 10 )' | head -1)\" != '' ]"
printf '<robot name="r">\n <link name="a"/>\n <joint name="j" type="revolute">\n  <parent link="nope"/>\n  <child link="a"/>\n </joint>\n</robot>\n' >"$tmp/parent.urdf"
expect urdf_unknown_parent "$tmp/parent.urdf" 'parent.urdf:4:11: element <parent>: attribute link: no link named'
printf '<robot name="r">\n <link name="a"/>\n <link name="b"/>\n</robot>\n' >"$tmp/roots.urdf"
expect urdf_two_roots "$tmp/roots.urdf" "expected one root link"
printf '<robot name="r">\n <link name="a">\n  <collision><geometry><mesh filename="package://arm/a.stl"/></geometry></collision>\n </link>\n</robot>\n' >"$tmp/pkg.urdf"
expect urdf_package_not_found "$tmp/pkg.urdf" "pkg.urdf:3:30: element <mesh>: attribute filename: package 'arm' not found (searched: no --model-path"
mkdir -p "$tmp/models/arm"
"$BIN/simc" "$tmp/pkg.urdf" --check --model-path "$tmp/models" >"$tmp/out" 2>&1
ok urdf_model_path_resolves "grep -qF '$tmp/models/arm/a.stl' '$tmp/out'"
# unsupported: refused with its kind and line, accepted with --allow-unsupported
cat >"$tmp/tendon.xml" <<'XML'
<mujoco>
  <worldbody>
    <body name="b" pos="0 0 1"><joint name="j" type="slide"/><geom size="0.1" condim="6"/></body>
  </worldbody>
  <tendon>
    <fixed name="t" frictionloss="0.1"><joint joint="j" coef="1"/></fixed>
  </tendon>
  <actuator><muscle name="m" joint="j"/></actuator>
</mujoco>
XML
expect unsupported_refused "$tmp/tendon.xml" "the model uses what simc does not translate: muscle (first at" "tendon.xml:8:" "--allow-unsupported"
# a tendon's frictionloss is its dry friction (/tendon/friction_force), and
# condim 6 the torsional and rolling friction of the geom's contacts
grep -v '<muscle' "$tmp/tendon.xml" >"$tmp/tfric.xml"
"$BIN/simc" "$tmp/tfric.xml" -o "$tmp/tfric.h5" --quiet --set time.duration=0.05 >"$tmp/out" 2>&1
ok tendon_frictionloss_translated "$PY -c \"
import h5py, sys
f = h5py.File('$tmp/tfric.h5', 'r')
sys.exit(0 if f.attrs['status'] == 'complete' and '/tendon/friction_force' in f else 1)\""
ok condim6_translated "$PY -c \"
import h5py, sys
y = h5py.File('$tmp/tfric.h5', 'r').attrs['scene_yaml']
sys.exit(0 if 'torsional_friction: 0.0050000000000000001' in y and 'rolling_friction: 0.0001' in y else 1)\""
"$BIN/simc" "$tmp/tendon.xml" --check --allow-unsupported >/dev/null 2>&1
ok unsupported_allowed '[ $? = 0 ]'
# bodies nested 200 deep (the bound) load: each level's room for its geoms
# is on the heap (on the stack, 100 levels overflowed it)
$PY -c "
n = 200
s = '<mujoco><worldbody>' + ''.join('<body name=\"b%d\"><joint/><geom size=\"0.1\"/>' % i for i in range(n))
open('$tmp/deep.xml', 'w').write(s + '</body>' * n + '</worldbody></mujoco>')"
"$BIN/simc" "$tmp/deep.xml" --check >/dev/null 2>&1
ok bodies_nested_200_deep '[ $? = 0 ]'
# MuJoCo's contact parameters: translated (doc/import.md), each kind listed
# once on stderr and in the root attribute approximated; refused with
# --strict; bad values located, also when they come from a class
cat >"$tmp/soft.xml" <<'XML'
<mujoco>
  <default><geom solref="0.01 0.8" solimp="0.9 0.95 0.002"/><default class="bad"><geom solref="0.02 0"/></default></default>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body name="b" pos="0 0 0.2"><freejoint/><geom size="0.1" margin="0.01"/></body>
    <body name="c" pos="0 0 0.2"><joint name="h" range="-1 1" solreflimit="0.01 1"/><geom size="0.1" pos="0.5 0 0"/></body>
  </worldbody>
</mujoco>
XML
out=$("$BIN/simc" "$tmp/soft.xml" --duration 0.05 -o "$tmp/soft.h5" 2>&1); rc=$?
ok contact_parameters_translated "[ $rc = 0 ] && [ \"\$(grep -c '^simc: approximated:' <<<\"\$out\")\" = 3 ] && grep -qF 'soft.xml:4:5: element <geom>' <<<\"\$out\" && [ \"\$(status_of '$tmp/soft.h5')\" = complete ]"
ok approximated_attribute "$PY - '$tmp/soft.h5' <<'PY'
import sys, h5py
a = h5py.File(sys.argv[1], 'r').attrs
ap, y = a.get('approximated', ''), a['scene_yaml']
print('  ' + ap.replace('\n', '\n  ').rstrip())
ok = ('geom solref/solimp' in ap and 'geom margin/gap' in ap and 'joint solreflimit/solimplimit' in ap and
      'ignored' not in a and 'stiffness: rigid' in y and 'radius: 0.11' in y and 'dissipation_time:' in y)
sys.exit(0 if ok else 1)
PY"
out=$("$BIN/simc" "$tmp/soft.xml" --check --strict 2>&1); rc=$?
ok strict_refuses "[ $rc = 1 ] && grep -qF 'the model uses what simc translates only approximately: geom solref/solimp' <<<\"\$out\" && grep -qF 'soft.xml:4:5: element <geom>' <<<\"\$out\" && grep -qF 'run without --strict' <<<\"\$out\""
sed -i 's|<geom size="0.1" pos="0.5 0 0"/>|<geom class="bad" size="0.1" pos="0.5 0 0"/>|' "$tmp/soft.xml"
expect solref_damping_ratio_zero "$tmp/soft.xml" "soft.xml:2:88: element <geom>: attribute solref: a time constant (0.02 > 0) needs a damping ratio > 0"
# contact filtering: contype / conaffinity and <exclude> are translated (a
# bad mask or body is located, at the <default> a mask comes from), an
# explicit <pair> is still refused
printf '<mujoco>\n <worldbody>\n  <body name="b"><freejoint/><geom size="0.1" contype="-1"/></body>\n </worldbody>\n</mujoco>\n' >"$tmp/mask_neg.xml"
expect mask_negative "$tmp/mask_neg.xml" "mask_neg.xml:3:47: element <geom>: attribute contype: must be >= 0 (got '-1')"
printf '<mujoco>\n <default><geom conaffinity="2.5"/></default>\n <worldbody>\n  <body name="b"><freejoint/><geom size="0.1"/></body>\n </worldbody>\n</mujoco>\n' >"$tmp/mask_class.xml"
expect mask_not_integer_in_class "$tmp/mask_class.xml" "mask_class.xml:2:17: element <geom>: attribute conaffinity: expected a non-negative integer bit mask (got '2.5')"
printf '<mujoco>\n <worldbody>\n  <body name="b"><freejoint/><geom size="0.1" contype="4294967296"/></body>\n </worldbody>\n</mujoco>\n' >"$tmp/mask_big.xml"
expect mask_above_32_bits "$tmp/mask_big.xml" "mask_big.xml:3:47: element <geom>: attribute contype: must be at most 4294967295"
cat >"$tmp/exclude.xml" <<'XML'
<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 1"/>
    <body name="b" pos="0 0 0.05"><joint name="j" type="slide" axis="0 0 1"/><geom name="g" size="0.1" contype="3" conaffinity="0"/></body>
  </worldbody>
  <contact>
    <exclude body1="b" body2="world"/>
  </contact>
</mujoco>
XML
"$BIN/simc" "$tmp/exclude.xml" -o "$tmp/exclude.h5" --quiet --duration 0.01
ok exclude_translated "$PY - '$tmp/exclude.h5' <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
y = f.attrs['scene_yaml']
y = y.decode() if isinstance(y, bytes) else y
ok = 'contype: 3' in y and 'conaffinity: 0' in y and 'exclude:\n- [b, world]' in y
# the sphere starts 0.05 deep in the floor, but the pair is excluded
ok = ok and int(f['/contact/count'][:].max()) == 0
sys.exit(0 if ok else 1)
PY"
sed 's|body2="world"|body2="j"|' "$tmp/exclude.xml" >"$tmp/exclude_link.xml"
expect exclude_names_a_body "$tmp/exclude_link.xml" "exclude_link.xml:7:24: element <exclude>: attribute body2: no body named 'j'"
sed 's|body2="world"|body2="b"|' "$tmp/exclude.xml" >"$tmp/exclude_self.xml"
expect exclude_self "$tmp/exclude_self.xml" "exclude_self.xml:7:24: element <exclude>: attribute body2: the same body as body1 ('b')"
sed 's|<exclude body1="b" body2="world"/>|<pair geom1="g" geom2="floor"/>|' "$tmp/exclude.xml" >"$tmp/pair.xml"
expect pair_refused "$tmp/pair.xml" "the model uses what simc does not translate: contact pair (first at" "pair.xml:7:"

# names as MuJoCo allows them (spaces, '/', quotes) are kept, quoted in the
# translation, through the output and the scene it records; a joint named
# like a body (separate namespaces in MuJoCo) is carried by "<joint>:joint"
cat >"$tmp/names.xml" <<'XML'
<mujoco model="names">
  <worldbody>
    <geom type="plane" size="2 2 0.1"/>
    <body name="two crates" pos="0 0 1">
      <joint name="arm/shoulder &quot;x&quot;" axis="0 1 0"/>
      <geom type="box" size="0.1 0.1 0.1"/>
      <body name="thigh" pos="0.3 0 0">
        <joint name="thigh" axis="0 1 0" stiffness="2"/>
        <geom type="sphere" size="0.05"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor name="drive: thigh" joint="thigh"/><motor joint="arm/shoulder &quot;x&quot;"/></actuator>
  <contact><exclude body1="two crates" body2="thigh"/></contact>
</mujoco>
XML
"$BIN/simc" "$tmp/names.xml" -o "$tmp/names.h5" --quiet --duration 0.01
ok names_kept "$PY - '$tmp/names.h5' '$tmp/re.yaml' <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
names = lambda k: [x.decode() if isinstance(x, bytes) else x for x in f[k][:]]
s = f.attrs['scene_yaml']
open(sys.argv[2], 'w').write(s.decode() if isinstance(s, bytes) else s)
ok = (names('/model/body_names') == ['world', 'arm/shoulder \"x\"', 'two crates', 'thigh:joint', 'thigh'] and
      names('/model/q_names') == ['arm/shoulder \"x\".angle', 'thigh:joint.angle'] and
      names('/model/actuator_names') == ['drive: thigh', 'actuator1'])
sys.exit(0 if ok else 1)
PY"
ok names_scene_reloads "'$BIN/simc' '$tmp/re.yaml' --check >/dev/null 2>&1"

# an attribute outside MuJoCo 2.2.2's schema is an error at its line, as in MuJoCo
sed 's|<joint name="thigh" axis="0 1 0" stiffness="2"/>|<joint name="thigh" axis="0 1 0" dampin="2"/>|' "$tmp/names.xml" >"$tmp/dampin.xml"
expect unknown_attribute "$tmp/dampin.xml" "dampin.xml:8:42: element <joint name=\"thigh\">: attribute dampin: unknown attribute"
sed 's|<geom type="sphere" size="0.05"/>|<geom type="sphere" size="0.05"/><frame/>|' "$tmp/names.xml" >"$tmp/frame.xml"
expect unknown_element "$tmp/frame.xml" "frame.xml:9:42: element <frame>: unknown element in <body>"
# a dynamics attribute simc does not translate is refused by name
sed 's|<mujoco model="names">|<mujoco model="names"><option impratio="2"/>|' "$tmp/names.xml" >"$tmp/imp.xml"
expect impratio_reported "$tmp/imp.xml" "option impratio (first at" "imp.xml:1:23: element <option>"
# the medium's density, viscosity and wind are the scene's fluid
sed 's|<mujoco model="names">|<mujoco model="names"><option density="1.2" viscosity="0.1" wind="1 0 -2"/>|' "$tmp/names.xml" >"$tmp/visc.xml"
"$BIN/simc" "$tmp/visc.xml" --duration 0.01 -o "$tmp/visc.h5" --quiet >/dev/null 2>&1
ok fluid_translated "h5dump -a /scene_yaml '$tmp/visc.h5' | grep -A3 '^ *fluid:\$' | tr '\\n' ' ' | tr -s ' ' | grep 'density: 1.2 viscosity: 0.10000000000000001 wind: \\[1, 0, -2\\]' >/dev/null"

# an <exclude> read before the bodies it names (here from an include that
# follows it) filters them: two overlapping spheres never touch; without it they do
mkdir -p "$tmp/ex"
cat >"$tmp/ex/bodies.xml" <<'XML'
<mujoco>
  <worldbody>
    <body name="a" pos="0 0 1"><freejoint/><geom size="0.1"/></body>
    <body name="b" pos="0 0 1.1"><freejoint/><geom size="0.1"/></body>
  </worldbody>
</mujoco>
XML
cat >"$tmp/ex/first.xml" <<'XML'
<mujoco>
  <option gravity="0 0 0"/>
  <contact><exclude body1="a" body2="b"/></contact>
  <include file="bodies.xml"/>
</mujoco>
XML
sed '/<contact>/d' "$tmp/ex/first.xml" >"$tmp/ex/none.xml"
"$BIN/simc" "$tmp/ex/first.xml" -o "$tmp/ex/first.h5" --quiet --duration 0.01
"$BIN/simc" "$tmp/ex/none.xml" -o "$tmp/ex/none.h5" --quiet --duration 0.01
ok exclude_before_bodies "$PY - '$tmp/ex/first.h5' '$tmp/ex/none.h5' <<'PY'
import sys, h5py
a, b = (int(h5py.File(p, 'r')['/contact/count'][:].max()) for p in sys.argv[1:3])
sys.exit(0 if a == 0 and b > 0 else 1)
PY"
