#!/usr/bin/env bash
# check.sh: the ODE clutter scene is the simc one.  For N = 27 (dt = 1 ms, 3 s):
# 27 bodies, 2.7 kg in total, the pile settles (kinetic energy < 0.05 J, against
# about 2.6 J of potential energy released) and no body ends more than 5 mm below
# the floor, with both steppers; and over the whole run, rest to rest, the floor's
# mean force is the weight (floor_ratio within 0.1 of 1: the walls carry a few per
# cent through friction; measured 0.964 QuickStep, 1.0015 dWorldStep).
# Needs bin/odebench (make -C tools/bench/ode); tools/bench/ode/wp_check.sh checks
# the other fields on scenes with known answers.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$root/tools/gen_clutter.sh" 27 0.001 3.0 > "$tmp/c27.yaml"
fail=0
for mode in quick direct; do
  line=$("$root/bin/odebench" "$tmp/c27.yaml" 3000 0.001 "$mode")
  echo "ode $mode: $line"
  awk -v l="$line" -v mode="$mode" 'BEGIN {
    n = split(l, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], a, "="); v[a[1]] = a[2] }
    ok = (v["bodies"] == 27) && (v["mass_kg"] + 0 > 2.6999 && v["mass_kg"] + 0 < 2.7001) &&
         (v["final_ke_J"] + 0 < 0.05) && (v["min_z_m"] + 0 > -0.005) && (v["window_steps"] == 3000) &&
         (v["floor_ratio"] + 0 > 0.9 && v["floor_ratio"] + 0 < 1.1)
    if (!ok) { printf "ode check FAILED (%s): want bodies=27 mass_kg=2.7 final_ke_J<0.05 min_z_m>-0.005 window_steps=3000 floor_ratio=1+-0.1\n", mode; exit 1 }
  }' || fail=1
done
[ "$fail" = 0 ] && echo "ode check: ok (27 bodies, 2.7 kg, settled, min_z > -5 mm, floor force = weight +- 10 %)"
exit "$fail"
