#!/usr/bin/env bash
# MJCF joint margin: MuJoCo's limit acts on (distance to the limit) - margin,
# so its soft limit rests margin inside the range; simc's rigid limit sits
# there.  A 1 kg, 0.5 m arm on a hinge limited to +-30 degrees with margin
# 0.1 (radians, not converted under angle="degree", as MuJoCo reads it),
# falling onto its upper limit, rests at upper - margin = 0.423599 rad
# (asserted 1e-4; MuJoCo 2.2.2 on the same file, 5 s at 1 ms: 0.424258, its
# soft limit's sag of 6.6e-4 rad past the same point).  A margin that leaves
# no range is an error at the joint.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

cat >"$tmp/arm.xml" <<'EOF'
<mujoco>
  <compiler angle="degree"/>
  <option timestep="0.001"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="j" type="hinge" axis="0 1 0" limited="true" range="-30 30" margin="0.1" damping="0.5"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="1"/>
    </body>
  </worldbody>
</mujoco>
EOF
"$BIN/simc" "$tmp/arm.xml" --duration 5 -o "$tmp/arm.h5" --quiet; rc=$?
ok joint_margin_rest "[ $rc = 0 ] && $PY - '$tmp/arm.h5' <<'PY'
import sys, h5py, numpy as np
q = h5py.File(sys.argv[1], 'r')['/q'][-1, 0]
ref = np.radians(30) - 0.1
print('  q %.6f rad, upper - margin %.6f rad' % (q, ref))
sys.exit(0 if abs(q - ref) < 1e-4 else 1)
PY"
sed 's/margin="0.1"/margin="0.6"/' "$tmp/arm.xml" >"$tmp/wide.xml"
expect joint_margin_too_wide "$tmp/wide.xml" "wide.xml:6:79: element <joint name=\"j\">: attribute margin" "leaves nothing of the range"

# a model without a <worldbody> (an include file of defaults, DART's
# include_default.xml) is the empty world, as MuJoCo 2.2.2 loads it
echo '<mujoco><default><geom rgba="1 0 0 1"/></default></mujoco>' >"$tmp/empty.xml"
"$BIN/simc" "$tmp/empty.xml" --duration 0.01 -o "$tmp/empty.h5" --quiet; rc=$?
ok empty_model_runs "[ $rc = 0 ] && [ \"\$(status_of '$tmp/empty.h5')\" = complete ]"
