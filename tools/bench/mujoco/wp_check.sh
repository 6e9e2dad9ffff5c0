#!/usr/bin/env bash
# wp_check.sh [--js]: checks of mjbench's work-precision fields (and of
# yaml2mjcf.awk's options) against closed-form answers, on small simc scenes
# written here (a temporary directory) and translated by yaml2mjcf.awk:
#   rest   a 2 kg box (0.2 m cube) resting on the floor, 2 s, window t > 0.5 s:
#          |floor_ratio - 1| < 1e-3, max_drop < 1e-3 m, max_speed < 1e-6 m/s
#   slide  the same box started at v0 = 2 m/s along x, mu = 0.5, 1 s:
#          final x within 1 % of v0^2 / (2 mu g), final speed < 1e-4 m/s
#   roll   a 1 kg sphere r = 0.05 on the floor, gravity tilted by 10 degrees
#          about y, mu = 0.5, 1 s: |v| within 1 % of 5/7 g sin(10 deg) t
#          (rolling without slipping), floor_ratio within 1e-3 of cos(10 deg)
# each with cone=elliptic and cone=pyramidal (solver Newton), then
#   clutter tools/gen_clutter.sh 64 1e-3 0.3 with solver=PGS iterations=100
#          and 1000, and Newton pyramidal / elliptic: each run must succeed
#          (no MuJoCo warning) and print every field; the figures are listed.
# --js also runs tools/bench/mujoco_js/mjbench.mjs (MuJoCo 3.3.8, WASM) on
# the same models (installs its node_modules with its run.sh when missing).
# Prints PASS/FAIL per check and exits nonzero on any FAIL.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
js=0
case "${1:-}" in --js) js=1 ;; "") ;; *) echo "usage: wp_check.sh [--js]" >&2; exit 2 ;; esac
make -s -C "$here" >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
engines="c"
if [ "$js" = 1 ]; then
  jsdir=$root/tools/bench/mujoco_js
  if ! command -v node >/dev/null 2>&1; then echo "wp_check: node is missing: no MuJoCo 3 (WASM) checks" >&2
  else
    if [ ! -f "$jsdir/node_modules/mujoco-js/package.json" ]; then  # run.sh installs it
      echo '<mujoco><worldbody/></mujoco>' > "$tmp/empty.xml"
      "$jsdir/run.sh" "$tmp/empty.xml" 1 >/dev/null 2>&1 || true
    fi
    if [ -f "$jsdir/node_modules/mujoco-js/package.json" ]; then engines="c js"
    else echo "wp_check: mujoco-js is not installed (npm ci failed?): no MuJoCo 3 (WASM) checks" >&2; fi
  fi
fi

bench() {  # engine model steps [options...]
  local e=$1; shift
  if [ "$e" = c ]; then "$root/bin/mjbench" "$@"; else node "$root/tools/bench/mujoco_js/mjbench.mjs" "$@"; fi
}

scene() {  # name "gx, gy, gz" "x, y, z" extra-initial geometry mass mu
  cat <<EOF
simc: 1
name: $1
gravity: [$2]
time: {step: 1.0e-3, duration: 2.0}
contact:
  defaults: {stiffness: rigid, friction: $7}
bodies:
  - name: body0
    joint: {type: free}
    mass: $6
    inertia: solid
    initial: {q: [$3, 1, 0, 0, 0]$4}
    geometry: [$5]
static:
  - {shape: plane, normal: [0, 0, 1], offset: 0, stiffness: rigid}
EOF
}
gx=$(awk 'BEGIN { printf "%.17g", 9.81 * sin(atan2(0, -1) / 18) }')
gz=$(awk 'BEGIN { printf "%.17g", -9.81 * cos(atan2(0, -1) / 18) }')
scene rest "0, 0, -9.81" "0, 0, 0.1" "" "{shape: box, size: [0.2, 0.2, 0.2]}" 2 0.5 > "$tmp/rest.yaml"
scene slide "0, 0, -9.81" "0, 0, 0.1" ", v: [2, 0, 0, 0, 0, 0]" "{shape: box, size: [0.2, 0.2, 0.2]}" 2 0.5 > "$tmp/slide.yaml"
scene roll "$gx, 0, $gz" "0, 0, 0.05" "" "{shape: sphere, radius: 0.05}" 1 0.5 > "$tmp/roll.yaml"

# judge NAME LINES AWK-CONDITION-PROGRAM: the summary's fields are f["name"],
# the first --states line is s[1..15]; the program sets ok and msg
judge() {
  local name=$1 out=$2 prog=$3
  if awk -v name="$name" "
    NR == 1 { for (i = 1; i <= NF; i++) { split(\$i, kv, \"=\"); f[kv[1]] = kv[2] } }
    NR == 2 { for (i = 1; i <= NF; i++) s[i] = \$i }
    END { ok = 1; msg = \"\"; $prog
          printf \"%s %s:%s\\n\", ok ? \"PASS\" : \"FAIL\", name, msg; exit !ok }" <<<"$out"; then :; else fails=$((fails + 1)); fi
}

for e in $engines; do
  for cone in elliptic pyramidal; do
    tag="$e $cone"
    for s in rest slide roll; do awk -v cone="$cone" -f "$here/yaml2mjcf.awk" "$tmp/$s.yaml" > "$tmp/$s.xml"; done
    out=$(bench "$e" "$tmp/rest.xml" 2000 --window 0.5 --states)
    judge "rest ($tag)" "$out" '
      r = f["floor_ratio"] - 1; if (r < 0) r = -r
      msg = sprintf(" floor_ratio=%s (|r-1| = %.3g) max_drop=%s max_speed=%s max_depth=%s window_steps=%s", f["floor_ratio"], r, f["max_drop"], f["max_speed"], f["max_depth"], f["window_steps"])
      ok = r < 1e-3 && f["max_drop"] + 0 < 1e-3 && f["max_speed"] + 0 < 1e-6 && f["window_steps"] == 1500'
    out=$(bench "$e" "$tmp/slide.xml" 1000 --states)
    judge "slide ($tag)" "$out" '
      x = 4 / (2 * 0.5 * 9.81); v = sqrt(s[10]^2 + s[11]^2 + s[12]^2)
      msg = sprintf(" x = %.6f m, v0^2/(2 mu g) = %.6f m (rel. %.2e), final |v| = %.2g", s[3], x, s[3] / x - 1, v)
      ok = (s[3] / x - 1)^2 < 1e-4 && v < 1e-4'
    out=$(bench "$e" "$tmp/roll.xml" 1000 --states)
    judge "roll ($tag)" "$out" '
      pi = atan2(0, -1); ve = 5 / 7 * 9.81 * sin(pi / 18); v = sqrt(s[10]^2 + s[11]^2 + s[12]^2); c = cos(pi / 18)
      msg = sprintf(" |v(1 s)| = %.6f, 5/7 g sin(10 deg) t = %.6f (rel. %.2e); floor_ratio = %s, cos(10 deg) = %.6f", v, ve, v / ve - 1, f["floor_ratio"], c)
      ok = (v / ve - 1)^2 < 1e-4 && (f["floor_ratio"] - c)^2 < 1e-6'
  done
  for opts in "solver=PGS iterations=100" "solver=PGS iterations=1000" "solver=Newton cone=pyramidal" "solver=Newton cone=elliptic"; do
    read -ra words <<<"$opts"; vargs=(); for o in "${words[@]}"; do vargs+=(-v "$o"); done
    "$root/tools/gen_clutter.sh" 64 1e-3 0.3 | awk -f "$here/yaml2mjcf.awk" "${vargs[@]}" > "$tmp/clutter.xml"
    rc=0; out=$(bench "$e" "$tmp/clutter.xml" 300) || rc=$?
    if [ "$rc" -ne 0 ]; then echo "FAIL clutter 64 ($e $opts): exit status $rc"; fails=$((fails + 1)); continue; fi
    judge "clutter 64, 0.3 s ($e $opts)" "$out" '
      n = split("steps_per_second mean_ncon mean_solver_iter energy_drift ms_per_step window_steps mean_speed max_speed max_depth floor_ratio max_drop", k, " ")
      for (i = 1; i <= n; i++) { if (!(k[i] in f)) { ok = 0; msg = msg " " k[i] ":missing" } else if (i != 4) msg = msg " " k[i] "=" f[k[i]] }'
  done
done
if [ "$fails" -ne 0 ]; then echo "wp_check: $fails FAIL"; exit 1; fi
echo "wp_check: all PASS"
