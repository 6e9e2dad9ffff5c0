#!/usr/bin/env bash
# run.sh: MuJoCo reference figures for simc's benchmark scenes, as a markdown
# table on stdout.  Builds bin/mjbench and bin/mjinfo (tools/bench/mujoco/Makefile),
# runs check.sh (does the MJCF match simc's scene?), then times mj_step on
#   chain   N = 10, 50, 200      dt = 1e-3, 5 s
#   clutter N = 8, 64, 216, 512  dt = 1e-3 and 1e-2, 1 s
# with MuJoCo's implicit integrator (2.2.2 has no implicitfast), the default
# Newton solver and the elliptic cone; each row also times a second integrator
# over the same window (chain: RK4, with its energy drift; clutter: Euler).  MuJoCo 2.2.2 factorizes dense nv x nv
# matrices (implicit integrator; Newton Hessian once the pile couples all
# bodies), so the large clutter cases are timed over the first part of the run
# only ("window" column) to keep the whole run under 2 minutes on 2 cores;
# FULL=1 times every case over its full duration (takes hours for N = 512).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
make -s -C "$here" >/dev/null
bench=$root/bin/mjbench
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# field NAME LINE: value of NAME=... in an mjbench line
field() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# run_case KIND N DT DURATION MAXSTEPS ALT: one table row; ALT (Euler, RK4 or
# -) is a second integrator timed over the same window.
run_case() {
  local kind=$1 n=$2 dt=$3 dur=$4 max=$5 alt=$6 steps window line rc note="" altcol="–"
  steps=$(awk -v d="$dur" -v h="$dt" 'BEGIN { printf "%d", d / h + 0.5 }')
  if [ "${FULL:-0}" != 1 ] && [ "$steps" -gt "$max" ]; then steps=$max; fi
  window=$(awk -v s="$steps" -v h="$dt" -v d="$dur" 'BEGIN { w = s * h; printf (w < d - 1e-12) ? "%g of %g s" : "%g s", w, d }')
  : > "$tmp/err"
  "$here/gen_mjcf.sh" -o "$tmp/m.xml" "$kind" "$n" "$dt"
  rc=0; line=$("$bench" "$tmp/m.xml" "$steps" 2>>"$tmp/err") || rc=$?
  if [ "$alt" != - ]; then
    MJ_INTEGRATOR=$alt "$here/gen_mjcf.sh" -o "$tmp/a.xml" "$kind" "$n" "$dt"
    local aline arc=0 adrift
    aline=$("$bench" "$tmp/a.xml" "$steps" 2>>"$tmp/err") || arc=$?
    [ "$arc" -eq 0 ] || rc=$arc
    altcol="$alt: $(field steps_per_second "$aline")"
    adrift=$(field energy_drift "$aline"); [ "$adrift" = nan ] || altcol="$altcol (drift $adrift)"
  fi
  [ "$rc" -eq 0 ] || note=" MuJoCo warnings: $(tr '\n' ' ' < "$tmp/err")"
  local drift; drift=$(field energy_drift "$line"); [ "$drift" = nan ] && drift="–"
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |%s\n' "$kind" "$n" "$dt" "$window" \
    "$(field steps_per_second "$line")" "$(field mean_ncon "$line")" \
    "$(field mean_solver_iter "$line")" "$drift" "$altcol" "$note"
}

echo "## MuJoCo reference ($(dpkg-query -W -f='libmujoco-dev ${Version}' libmujoco-dev 2>/dev/null || echo MuJoCo), $(uname -m), $(nproc) cores)"
echo
echo '```'
"$here/check.sh"
echo '```'
echo
echo "MuJoCo: integrator implicit, solver Newton, cone elliptic, default solref/solimp; mj_step timed"
echo "with CLOCK_MONOTONIC over the window; energy drift = (E_end - E_0)/|E_0| (chain only)."
echo
echo "| scene | N | dt [s] | window (simulated) | MuJoCo steps/s | mean contacts | mean solver iter | energy drift | other integrator, same window: steps/s |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in 10 50 200; do run_case chain "$n" 1e-3 5 5000 RK4; done
for dt in 1e-3 1e-2; do
  for n in 8 64 216 512; do
    case $n in 216) max=$([ "$dt" = 1e-3 ] && echo 300 || echo 100) ;; 512) max=30 ;; *) max=1000 ;; esac
    run_case clutter "$n" "$dt" 1 "$max" Euler
  done
done
