#!/usr/bin/env bash
# Errors in imported models name the model's own file and line, also those
# the scene loader finds after translation (the translated YAML is hidden):
# each planted error in an MJCF and a URDF file, checked for its file:line
# and the element, exit 1.  Models whose step does not divide 1 s run their
# default duration (a whole number of steps).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

# an inertia that no body has (1 > 0.1 + 0.1), found by the scene loader
cat >"$tmp/inertia.xml" <<'EOF'
<mujoco>
  <worldbody>
    <body name="b" pos="0 0 1">
      <freejoint/>
      <geom size="0.1"/>
    </body>
    <body name="c" pos="1 0 1">
      <joint type="hinge"/>
      <inertial pos="0 0 0" mass="1" diaginertia="1 0.1 0.1"/>
    </body>
  </worldbody>
</mujoco>
EOF
expect mjcf_inertia_at_its_line "$tmp/inertia.xml" "inertia.xml:9: element <inertial>" "triangle inequality"
cat >"$tmp/inertia.urdf" <<'EOF'
<?xml version="1.0"?>
<robot name="r">
  <link name="base"/>
  <joint name="j" type="revolute">
    <parent link="base"/>
    <child link="arm"/>
    <axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <link name="arm">
    <inertial>
      <mass value="1"/>
      <inertia ixx="1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
  </link>
</robot>
EOF
expect urdf_inertia_at_its_line "$tmp/inertia.urdf" "inertia.urdf:11: element <inertial>" "triangle inequality"

# a mesh file that is not there: the URDF's loader error at its <collision>
cat >"$tmp/mesh.urdf" <<'EOF'
<?xml version="1.0"?>
<robot name="r">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision>
      <geometry><mesh filename="no_such_part.stl"/></geometry>
    </collision>
  </link>
</robot>
EOF
expect urdf_missing_mesh_at_its_line "$tmp/mesh.urdf" "mesh.urdf:5: element <collision>" "no_such_part.stl"
cat >"$tmp/mesh.xml" <<'EOF'
<mujoco>
  <asset>
    <mesh name="part" file="no_such_part.stl"/>
  </asset>
  <worldbody>
    <body name="b"><freejoint/><geom type="mesh" mesh="part"/></body>
  </worldbody>
</mujoco>
EOF
expect mjcf_missing_mesh_at_its_line "$tmp/mesh.xml" "mesh.xml:" "no_such_part.stl"

# a name used twice: found by the loader among the translated bodies
cat >"$tmp/names.urdf" <<'EOF'
<?xml version="1.0"?>
<robot name="r">
  <link name="base"/>
  <joint name="arm" type="revolute">
    <parent link="base"/>
    <child link="arm"/>
    <axis xyz="0 0 1"/>
  </joint>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
</robot>
EOF
out=$("$BIN/simc" "$tmp/names.urdf" --check 2>&1); rc=$?
ok urdf_name_clash_located "[ $rc = 0 ] || grep -qE 'names.urdf:(4|9): element <(joint|link) name=\"arm\">' <<<\"\$out\""
echo "  rc $rc: $out" | head -2

# a step that does not divide 1 s: the default run is the whole steps past 1 s
cat >"$tmp/step.xml" <<'EOF'
<mujoco>
  <option timestep="0.003"/>
  <worldbody><body pos="0 0 1"><freejoint/><geom size="0.1"/></body></worldbody>
</mujoco>
EOF
"$BIN/simc" "$tmp/step.xml" -o "$tmp/step.h5" --quiet; rc=$?
ok default_duration_whole_steps "[ $rc = 0 ] && [ \"\$(rows_of '$tmp/step.h5')\" = 335 ]"

# a run that left part of the model out says so in its status, never a plain
# "complete"; a model of which nothing that moves is left is refused
cat >"$tmp/tendon.xml" <<'EOF'
<mujoco>
  <worldbody>
    <body name="a" pos="0 0 1"><joint name="j1" type="hinge"/><geom size="0.1"/></body>
    <body name="b" pos="1 0 1"><joint name="j2" type="hinge"/><geom size="0.1"/></body>
  </worldbody>
  <tendon><fixed name="t" frictionloss="0.1"><joint joint="j1" coef="1"/><joint joint="j2" coef="-1"/></fixed></tendon>
  <actuator><muscle name="m" joint="j1"/></actuator>
</mujoco>
EOF
"$BIN/simc" "$tmp/tendon.xml" --allow-unsupported --duration 0.01 -o "$tmp/tendon.h5" 2>"$tmp/tendon.err"; rc=$?
st=$(status_of "$tmp/tendon.h5")
ok omissions_in_status "[ $rc = 0 ] && [[ \"\$st\" == 'complete with omissions: muscle'* ]] && grep -q '^simc: complete with omissions: muscle' '$tmp/tendon.err'"
echo "  status: $st"
cat >"$tmp/composite.xml" <<'EOF'
<mujoco>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body name="ghost" pos="0 0 1"><geom type="hfield" hfield="h"/></body>
  </worldbody>
</mujoco>
EOF
out=$("$BIN/simc" "$tmp/composite.xml" --allow-unsupported --check 2>&1); rc=$?
ok nothing_left_moving_refused "[ $rc = 1 ] && grep -q 'nothing in the model moves' <<<\"\$out\" && grep -q 'composite.xml:4' <<<\"\$out\""
echo "  $out"

# a model in a directory whose name has a space: errors name the file as it
# is (not as a URI, "a%20b"), and its includes are found beside it
mkdir -p "$tmp/a b"
cp "$tmp/inertia.urdf" "$tmp/a b/my robot.urdf"
expect spaced_path_as_is "$tmp/a b/my robot.urdf" "a b/my robot.urdf:11: element <inertial>"
cp test/mjcf/arm.xml "$tmp/a b/arm.xml"
echo '<mujoco><include file="arm.xml"/></mujoco>' >"$tmp/a b/main model.xml"
"$BIN/simc" "$tmp/a b/main model.xml" --check >/dev/null 2>&1; rc=$?
ok include_beside_a_spaced_path "[ $rc = 0 ]"

# a name longer than the translation keeps (120 bytes) is an error at its
# element, not cut (a 150-byte joint name was cut, and the actuator naming it
# then failed with "unknown joint")
L=$(printf 'a%.0s' $(seq 150))
cat >"$tmp/long.urdf" <<EOF
<?xml version="1.0"?>
<robot name="r">
  <link name="$L">
    <inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
</robot>
EOF
expect urdf_long_name_located "$tmp/long.urdf" "long.urdf:3:9: element <link" "longer than 120 bytes"
printf '<mujoco><worldbody><body name="b">\n<joint name="%s"/><geom size="0.1"/></body></worldbody>\n<actuator><motor joint="%s"/></actuator></mujoco>\n' "$L" "$L" >"$tmp/long.xml"
expect mjcf_long_name_located "$tmp/long.xml" "long.xml:2:8: element <joint" "longer than 120 bytes"

# a misspelt attribute and an unknown element, in each format, at their line
cat >"$tmp/attr.xml" <<'EOF'
<mujoco>
  <worldbody>
    <body name="b">
      <joint name="j" dampin="1"/>
      <geom size="0.1"/>
    </body>
  </worldbody>
</mujoco>
EOF
expect mjcf_bad_attribute_at_its_line "$tmp/attr.xml" "attr.xml:4:23: element <joint name=\"j\">" "dampin"
sed 's/<geom size="0.1"\/>/<geom size="0.1"\/><gemo size="0.1"\/>/' "$tmp/attr.xml" | sed 's/ dampin="1"//' >"$tmp/elem.xml"
expect mjcf_unknown_element_at_its_line "$tmp/elem.xml" "elem.xml:5:25: element <gemo>"
# an attribute on a tag's second line: its own line and column
cat >"$tmp/ml.xml" <<'EOF'
<mujoco>
  <worldbody>
    <body name="b">
      <joint name="j" type="hinge"
             range="1 -1" limited="true"/>
      <geom size="0.1"/>
    </body>
  </worldbody>
</mujoco>
EOF
expect mjcf_attribute_on_a_later_line "$tmp/ml.xml" "ml.xml:5:14: element <joint name=\"j\">: attribute range: lower must be below upper"
cat >"$tmp/attr.urdf" <<'EOF'
<?xml version="1.0"?>
<robot name="r">
  <link name="base"/>
  <joint name="j" type="revolute">
    <parent link="base"/>
    <child link="arm"/>
    <axis xyz="0 0 1"/>
    <dynamics dampin="0.1"/>
  </joint>
  <link name="arm">
    <inertal><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertal>
  </link>
</robot>
EOF
expect urdf_bad_attribute_at_its_line "$tmp/attr.urdf" "attr.urdf:8:15: element <dynamics>" "dampin"
sed 's/ dampin="0.1"/ damping="0.1"/' "$tmp/attr.urdf" >"$tmp/elem.urdf"
expect urdf_unknown_element_at_its_line "$tmp/elem.urdf" "elem.urdf:11:5: element <inertal>"
