#!/usr/bin/env bash
# wp_check.sh [DIR]: odebench's work-precision fields against answers known in
# closed form, on one-body scenes written here (into DIR if given, else a
# temporary directory), dt = 1 ms, both steppers.  Needs bin/odebench
# (make -C tools/bench/ode; ODEBENCH=path runs another build).  Fails (exit 1)
# on a wrong answer.
#   rest   a 10 cm box of 2 kg on the floor, 1 s, window from 0.5 s:
#          |floor_ratio - 1| < 1e-3 (the floor carries the weight, which checks the
#          feedback's sign and body side) and max_speed < 1e-6 m/s; soft contact
#          (k = 1e5 N/m, tau_d = 0.01 s): max_depth within 1 % of m g / (4 k), ODE's
#          4 corner contacts being 4 springs k in parallel.  Rigid with QuickStep's
#          default 20 sweeps only max_speed < 0.02 m/s: ODE's box-plane test drops a
#          corner whose depth rounds below 0 and the box then falls for a step
#          (g h = 9.8 mm/s); with --iters 200 the 1e-6 bound holds.  Rigid: max_depth
#          < 1e-7 m (a soft contact, even at simc's default k = 1e6 N/m, sinks
#          m g / (4 k) = 4.9 um), QuickStep's 20 sweeps < 1e-4 m (the chatter's g h^2).
#   slide  a 10 cm box of 1 kg launched at v0 = 2 m/s along x, mu = 0.5, rigid,
#          0.6 s: it stops after d = v0^2 / (2 mu g) = 0.40775 m; |x - d| < 2.5e-3 m
#          (the first-order step alone gives -v0 h / 2 = -1 mm) and final |v| below
#          the rest case's bound (QuickStep: the same corner chatter).
#          Again with mu = 0.25 (d = 0.81549 m, 1 s; |x - d| < 2.5e-3 m), so that a
#          friction not read from the scene shows.
#          The same launch at 30 degrees is printed, not checked: the friction
#          pyramid (dContactApprox1) brakes x and y separately, so it stops short
#          and off heading.
#   roll   a ball r = 5 cm, 1 kg, mu = 0.5, gravity tilted by 10 degrees, rigid, 1 s:
#          |v| = 5/7 g sin(10 deg) t within 1e-3 relative, rolling without slip
#          (|w_y r - v_x| < 1e-6 m/s), floor_ratio = cos(10 deg) within 1e-6.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
bin=${ODEBENCH:-$root/bin/odebench}
[ -x "$bin" ] || { echo "wp_check: $bin is missing (make -C tools/bench/ode)" >&2; exit 1; }
if [ $# -ge 1 ]; then dir=$1; mkdir -p "$dir"; else dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT; fi

scene() {  # scene NAME GRAVITY DEFAULTS MASS INITIAL GEOMETRY > NAME.yaml
  cat >"$dir/$1.yaml" <<EOF
# $1: a one-body check scene of tools/bench/ode/wp_check.sh
simc: 1
name: $1
gravity: $2
time: {step: 1.0e-3, duration: 1.0}
contact:
  on_failure: warn
  defaults: $3
bodies:
  - name: body0
    joint: {type: free}
    mass: $4
    inertia: solid
    initial: $5
    geometry: [$6]
static:
  - {shape: plane, normal: [0, 0, 1], offset: 0.0, stiffness: rigid}
EOF
}
rigid="{stiffness: rigid, friction: 0.5}"
soft="{stiffness: 1.0e5, dissipation_time: 0.01, friction: 0.5}"
cube="{shape: box, size: [0.1, 0.1, 0.1]}"
tilt=$(awk 'BEGIN { a = 10 * atan2(0, -1) / 180; printf "[%.12f, 0, %.12f]", 9.81 * sin(a), -9.81 * cos(a) }')
scene rest_rigid "[0, 0, -9.81]" "$rigid" 2 "{q: [0, 0, 0.05, 1, 0, 0, 0]}" "$cube"
scene rest_soft "[0, 0, -9.81]" "$soft" 2 "{q: [0, 0, 0.05, 1, 0, 0, 0]}" "$cube"
scene slide_x "[0, 0, -9.81]" "$rigid" 1 "{q: [0, 0, 0.05, 1, 0, 0, 0], v: [2, 0, 0, 0, 0, 0]}" "$cube"
scene slide_x_mu025 "[0, 0, -9.81]" "{stiffness: rigid, friction: 0.25}" 1 \
  "{q: [0, 0, 0.05, 1, 0, 0, 0], v: [2, 0, 0, 0, 0, 0]}" "$cube"
scene slide_30 "[0, 0, -9.81]" "$rigid" 1 \
  "{q: [0, 0, 0.05, 1, 0, 0, 0], v: [1.732050807569, 1, 0, 0, 0, 0]}" "$cube"
scene roll "$tilt" "$rigid" 1 "{q: [0, 0, 0.05, 1, 0, 0, 0]}" "{shape: sphere, radius: 0.05}"

pass=0; failed=0
# check LABEL AWK-CONDITION-AND-REPORT SCENE STEPS STEPPER [OPTIONS]: runs odebench
# --states; the awk program sees the summary's fields as v["name"] and body 0's
# state as x y z qw qx qy qz vx vy vz wx wy wz; it prints its numbers and exits
# 1 on a wrong answer.
check() {
  local label=$1 prog=$2 sc=$3 n=$4 mode=$5; shift 5
  local out
  if ! out=$("$bin" "$dir/$sc.yaml" "$n" 1.0e-3 "$mode" --states "$@"); then
    echo "FAIL $label: odebench failed"; failed=$((failed + 1)); return
  fi
  if awk -v label="$label" "
    NR == 1 { for (i = 1; i <= NF; i++) { split(\$i, kv, \"=\"); v[kv[1]] = kv[2] + 0 } }
    NR == 2 { x = \$3; y = \$4; z = \$5; vx = \$10; vy = \$11; vz = \$12; wx = \$13; wy = \$14; wz = \$15 }
    END { ok = 1; $prog; printf \"%s %s\\n\", ok ? \"ok  \" : \"FAIL\", label; exit !ok }" <<<"$out"; then
    pass=$((pass + 1))
  else
    failed=$((failed + 1))
  fi
}
for mode in quick direct; do
  rest='r = v["floor_ratio"]; s = v["max_speed"]
        printf "  floor_ratio - 1 = %.3g, max_speed = %.3g m/s, max_depth = %.6g m\n", r - 1, s, v["max_depth"]
        if (!(r - 1 < 1e-3 && 1 - r < 1e-3) || !(s < SMAX) || !(v["max_depth"] < DMAX)) ok = 0'
  depth='d = v["max_depth"]; want = 2 * 9.81 / (4 * 1e5)
        printf "  max_depth / (m g / 4 k) - 1 = %.3g\n", d / want - 1
        if (!(d / want - 1 < 0.01 && 1 - d / want < 0.01)) ok = 0'
  smax=1e-6; [ "$mode" = quick ] && smax=0.02
  dmax=1e-7; [ "$mode" = quick ] && dmax=1e-4
  r=${rest//SMAX/$smax}
  check "rest rigid $mode" "${r//DMAX/$dmax}" rest_rigid 1000 "$mode" --window 0.5
  r=${rest//SMAX/1e-6}
  [ "$mode" = quick ] && check "rest rigid quick --iters 200" "${r//DMAX/1e-7}" rest_rigid 1000 quick --window 0.5 --iters 200
  check "rest soft $mode" "${r//DMAX/1}; $depth" rest_soft 1000 "$mode" --window 0.5
  slide='d = 4 / (2 * MU * 9.81); sp = sqrt(vx * vx + vy * vy + vz * vz)
        printf "  x = %.6f m, v0^2/(2 mu g) = %.6f m, error %.3g m (%.3g %%), final |v| = %.3g m/s\n", x, d, x - d, 100 * (x - d) / d, sp
        if (!(x - d < 2.5e-3 && d - x < 2.5e-3) || !(sp < SMAX)) ok = 0'
  slide=${slide//SMAX/$smax}
  check "slide x $mode" "${slide//MU/0.5}" slide_x 600 "$mode"
  check "slide x mu 0.25 $mode" "${slide//MU/0.25}" slide_x_mu025 1000 "$mode"
  check "slide 30 deg $mode (printed only)" 'd = 4 / (2 * 0.5 * 9.81); r = sqrt(x * x + y * y)
        printf "  travelled %.6f m (isotropic Coulomb %.6f m, %.3g %%), heading %.2f deg (launched at 30)\n", r, d, 100 * (r - d) / d, atan2(y, x) * 180 / atan2(0, -1)' \
    slide_30 600 "$mode"
  check "roll $mode" 'a = 10 * atan2(0, -1) / 180; want = 5 / 7 * 9.81 * sin(a) * 1.0; sp = sqrt(vx * vx + vy * vy + vz * vz)
        slip = wy * 0.05 - vx; r = v["floor_ratio"]
        printf "  |v| = %.9f m/s, 5/7 g sin(10 deg) t = %.9f, rel. error %.3g; slip %.3g m/s; floor_ratio - cos(10 deg) = %.3g\n", sp, want, sp / want - 1, slip, r - cos(a)
        if (!(sp / want - 1 < 1e-3 && 1 - sp / want < 1e-3) || !(slip < 1e-6 && -slip < 1e-6) || !(r - cos(a) < 1e-6 && cos(a) - r < 1e-6)) ok = 0' \
    roll 1000 "$mode"
done
echo "wp_check: $pass passed, $failed failed"
[ "$failed" = 0 ]
