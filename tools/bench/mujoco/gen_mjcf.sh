#!/usr/bin/env bash
# gen_mjcf.sh [-o OUT.xml] chain N DT | clutter N DT
# MuJoCo MJCF for the same scene that simc's generator (tools/gen_chain.sh,
# tools/gen_clutter.sh) produces with these arguments: the simc YAML is
# generated and converted by yaml2mjcf.awk, so masses, inertias, sizes and
# initial positions (including gen_clutter.sh's srand(12345) jitter) are the
# generator's own numbers.  MuJoCo 2.2.2 has no implicitfast: the integrator is
# "implicit" (override with MJ_INTEGRATOR=Euler|RK4); the friction cone is
# elliptic (simc's exact Coulomb cone); the solver is MuJoCo's default Newton.
# MJ_SOLVER=Newton|PGS|CG, MJ_CONE=elliptic|pyramidal, MJ_ITERATIONS=N and
# MJ_TOLERANCE=X override the solver options likewise (yaml2mjcf.awk's -v
# solver, cone, iterations, tolerance; unset = the defaults above and MuJoCo's).
# The chain enables energy computation (mjENBL_ENERGY) for the drift figure.
# Output: stdout, or OUT.xml with -o.  Trees deeper than 80 bodies (chain N >= 80)
# need -o: MuJoCo 2.2's XML parser caps nesting at 100, so the chain continues
# in OUT.xml.part1.xml, ... (included from OUT.xml, same directory).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tools=$(dirname "$(dirname "$here")")  # tools/, the scene generators
usage() { echo "usage: gen_mjcf.sh [-o OUT.xml] chain N DT | clutter N DT" >&2; exit 2; }
out=""
if [ "${1:-}" = "-o" ]; then [ $# -ge 2 ] || usage; out=$2; shift 2; fi
[ $# -eq 3 ] || usage
kind=$1; n=$2; dt=$3
integ=${MJ_INTEGRATOR:-implicit}
opts=(-v integrator="$integ" -v solver="${MJ_SOLVER:-}" -v cone="${MJ_CONE:-}"
      -v iterations="${MJ_ITERATIONS:-}" -v tolerance="${MJ_TOLERANCE:-}")
case $kind in
  chain)   gen() { "$tools/gen_chain.sh" "$n" midpoint 5.0 "$dt"; }; energy=1 ;;
  clutter) gen() { "$tools/gen_clutter.sh" "$n" "$dt" 1.0; }; energy=0 ;;
  *) usage ;;
esac
if [ -n "$out" ]; then
  rm -f "$out".part*.xml
  gen | awk -v energy="$energy" "${opts[@]}" -v parts="$out" -f "$here/yaml2mjcf.awk" > "$out"
else
  gen | awk -v energy="$energy" "${opts[@]}" -f "$here/yaml2mjcf.awk"
fi
