#!/usr/bin/env bash
# The instruction-count section of make bench: simc against ODE 0.16's
# QuickStep on the same clutter scenes, counted by valgrind's callgrind,
# which gives the same count for the same binary and inputs whatever else
# the machine runs (wall-time ratios on this shared 2-core machine move by
# 20 % between runs).  Prints markdown on stdout, progress on stderr.
# tools/bench/bench_ode.sh runs it when ODE and valgrind are there; alone:
#   tools/bench/bench_instr.sh >>results/bench.md
#   BIN (default bin): where simc is; odebench is bin/odebench (make -C
#   tools/bench/ode); INSTR_CASES (default "64:0.4 216:0.4 1000:0.4 216:2.0"): N:seconds.
# Counted: simc's sc_step (everything a step does, output writing aside),
# of it the contact stage's island solves (solve_islands), and the Newton
# iterations summed over the islands (calls of sc_sap_hessian_factor, one
# per iteration); ODE's dSpaceCollide + dWorldQuickStep (20 iterations) +
# dJointGroupEmpty, the loop odebench times.
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
  echo
  echo "(Instruction counts skipped: valgrind is not installed.)"
  exit 0
fi
if [ ! -x bin/odebench ]; then
  echo
  echo "(Instruction counts skipped: bin/odebench is missing; make -C tools/bench/ode builds it.)"
  exit 0
fi

# total_of FILE: the event total callgrind recorded
total_of() { sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$1" | head -1; }
# inclusive FILE FUNCTION: inclusive instructions of FUNCTION (0 when absent)
inclusive() {
  callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
    awk -v f=":$2 " 'index($0, f) { gsub(",", "", $1); print $1; found = 1; exit }
                     END { if (!found) print 0 }'
}
# calls FILE CALLER CALLEE: how often CALLER called CALLEE
calls() {
  callgrind_annotate --tree=calling "$1" 2>/dev/null |
    awk -v a=":$2 \\[" -v b=":$3 \\(" '
      /^ *[0-9,]+ .*\*  / { inside = ($0 ~ a) ; next }
      inside && $0 ~ b { s = $0; sub(/.*\(/, "", s); sub(/x\).*/, "", s); gsub(",", "", s); print s; found = 1; exit }
      END { if (!found) print 0 }'
}

echo
echo "## Instructions per step against ODE QuickStep (valgrind callgrind)"
echo
echo "Same scenes as the ODE table above (tools/gen_clutter.sh N 1e-3 T; ODE's equivalent soft"
echo "contact, 20 QuickStep iterations, pyramid friction).  Instruction counts do not depend on the"
echo "load of the machine, so these ratios are exact for this build and these libraries; they are"
echo "not times (the two programs retire instructions at different rates: compare the steps/s"
echo "table).  simc: sc_step, everything a step does but writing the output; of it the"
echo "contact stage's island solves and the rest (kinematics, collision, Jacobians, free motion,"
echo "Delassus estimate, energies); Newton iterations are the factorizations over all islands"
echo "(the summary's mean counts only each step's largest island).  ODE: collision"
echo "(dSpaceCollide) + dWorldQuickStep + dJointGroupEmpty.  Mi = 10^6 instructions."
echo
echo "| N | simulated (s) | simc Mi/step | of it the contact solve | of it the rest of the step | Newton iterations per step (all islands) | ODE QuickStep Mi/step | ODE / simc | ODE / simc's contact solve alone |"
echo "|---|---|---|---|---|---|---|---|---|"
for case in ${INSTR_CASES:-64:0.4 216:0.4 1000:0.4 216:2.0}; do
  n=${case%%:*}
  dur=${case#*:}
  nsteps=$(awk -v d="$dur" 'BEGIN { printf "%d", d / 1.0e-3 + 0.5 }')
  tools/gen_clutter.sh "$n" 1.0e-3 "$dur" >"$tmp/c.yaml"
  echo "callgrind: simc clutter $n over $dur s..." >&2
  valgrind --tool=callgrind --callgrind-out-file="$tmp/simc.cg" --toggle-collect=sc_step \
    "$BIN/simc" "$tmp/c.yaml" -o "$tmp/out.h5" --force >/dev/null 2>"$tmp/simc.err"
  echo "callgrind: ODE clutter $n over $dur s..." >&2
  valgrind --tool=callgrind --callgrind-out-file="$tmp/ode.cg" --toggle-collect='dSpaceCollide*' \
    --toggle-collect='dWorldQuickStep*' --toggle-collect='dJointGroupEmpty*' \
    bin/odebench "$tmp/c.yaml" "$nsteps" 1.0e-3 quick >/dev/null 2>"$tmp/ode.err"
  st=$(total_of "$tmp/simc.cg")
  sc=$(inclusive "$tmp/simc.cg" solve_islands)
  it=$(calls "$tmp/simc.cg" sc_sap_solve_from sc_sap_hessian_factor)
  ot=$(total_of "$tmp/ode.cg")
  if [ -z "$st" ] || [ -z "$ot" ] || [ "$st" = 0 ] || [ "$ot" = 0 ]; then
    echo "| $n | $dur | (failed: $(tail -1 "$tmp/simc.err") / $(tail -1 "$tmp/ode.err")) | | | | | | |"
    continue
  fi
  awk -v n="$n" -v d="$dur" -v s="$nsteps" -v st="$st" -v sc="$sc" -v it="$it" -v ot="$ot" 'BEGIN {
    r = 0
    if (sc > 0) r = ot / sc
    printf "| %d | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f |\n", n, d, st / s / 1e6,
      sc / s / 1e6, (st - sc) / s / 1e6, it / s, ot / s / 1e6, ot / st, r
  }'
  echo "callgrind clutter $n over $dur s: simc $st, ODE $ot instructions" >&2
done
