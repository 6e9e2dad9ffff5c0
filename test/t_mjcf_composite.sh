#!/usr/bin/env bash
# MJCF <composite> (src/scene/mjcf_composite.c): what MuJoCo 2.2.2 refuses
# in a composite is refused at the composite's line with its reason (a rope
# or cloth whose body is not named after its origin element, a 3D grid,
# singleton counts first, a geom type other than sphere, capsule or
# ellipsoid, an unknown kind); a grid with a skin and a pin and a rope with
# twist and stretch joints run; placed twice by models: entries, each copy
# gets its entry's prefix (bodies, tendons, constraints).  test_mjcf compares the
# expansion of MuJoCo's samples with MuJoCo's.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

model() { # FILE HOST-BODY-NAME COMPOSITE-ELEMENT
  cat >"$1" <<EOF
<mujoco>
  <worldbody>
    <body name="$2" pos="0 0 1"><freejoint/>
$3
    </body>
  </worldbody>
</mujoco>
EOF
}

model "$tmp/rope.xml" "root" '      <composite type="rope" count="5 1 1" spacing="0.1"><geom type="capsule" size="0.01 0.02"/></composite>'
expect rope_root_name "$tmp/rope.xml" "rope.xml:4:7: element <composite>: B must be the beginning of root body name"
model "$tmp/range.xml" "B7" '      <composite type="rope" count="5 1 1" spacing="0.1"><geom type="capsule" size="0.01 0.02"/></composite>'
expect rope_root_range "$tmp/range.xml" "range.xml:4:7: element <composite>: Root body coordinate out of range"
model "$tmp/cloth.xml" "B1" '      <composite type="cloth" count="3 3 1" spacing="0.1"><geom size="0.01"/></composite>'
expect cloth_root_name "$tmp/cloth.xml" "cloth.xml:4:7: element <composite>: Root body name must contain X_Y coordinates"
model "$tmp/grid3.xml" "b" '      <composite type="grid" count="2 2 2" spacing="0.1"><geom size="0.01"/></composite>'
expect grid_3d "$tmp/grid3.xml" "grid3.xml:4:30: element <composite>: attribute count: Grid can only be 1D or 2D"
model "$tmp/single.xml" "b" '      <composite type="grid" count="1 3 1" spacing="0.1"><geom size="0.01"/></composite>'
expect singleton_first "$tmp/single.xml" "single.xml:4:30: element <composite>: attribute count: Singleton counts must come last"
model "$tmp/box.xml" "b" '      <composite type="particle" count="2 1 1" spacing="0.1"><geom type="box" size="0.01 0.01 0.01"/></composite>'
expect geom_type "$tmp/box.xml" "box.xml:4:68: element <geom>: attribute type: Composite geom type must be sphere, capsule or ellipsoid"
model "$tmp/kind.xml" "B0" '      <composite type="rope" count="3 1 1" spacing="0.1"><joint kind="bend"/><geom type="capsule" size="0.01 0.02"/></composite>'
expect unknown_kind "$tmp/kind.xml" "kind.xml:4:65: element <joint>: attribute kind: unknown kind 'bend' (expected main, twist or stretch)"

cat >"$tmp/ok.xml" <<'EOF'
<mujoco>
  <worldbody>
    <composite type="grid" count="3 3 1" spacing="0.1" offset="0 0 1">
      <skin rgba="1 0 0 1"/>
      <pin coord="0 0"/>
      <geom size="0.02"/>
    </composite>
    <body name="B0" pos="1 0 1">
      <composite type="rope" count="3 1 1" spacing="0.1" prefix="r">
        <joint kind="twist"/><joint kind="stretch"/>
        <geom type="capsule" size="0.01 0.02"/>
      </composite>
    </body>
  </worldbody>
</mujoco>
EOF
sed -i 's|<body name="B0" pos="1 0 1">|<body name="rB0" pos="1 0 1">|' "$tmp/ok.xml"
out=$("$BIN/simc" "$tmp/ok.xml" -o "$tmp/ok.h5" --duration 0.02 2>&1); rc=$?
ok translated "[ $rc = 0 ] && [ \"\$(status_of '$tmp/ok.h5')\" = complete ]"
echo "  $out" | tail -1
cat >"$tmp/two.yaml" <<EOF
simc: 1
name: two
time: {step: 0.002, duration: 0.02}
models:
  - {file: $tmp/ok.xml, prefix: a_}
  - {file: $tmp/ok.xml, prefix: b_, pose: {position: [0, 3, 0]}}
EOF
out=$("$BIN/simc" "$tmp/two.yaml" -o "$tmp/two.h5" --duration 0.02 2>&1); rc=$?
ok placed_twice "[ $rc = 0 ] && [ \"\$(status_of '$tmp/two.h5')\" = complete ]"
echo "  $out" | tail -1
