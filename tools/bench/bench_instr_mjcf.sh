#!/usr/bin/env bash
# Instructions per step of simc on MuJoCo's humanoids, counted by valgrind's
# callgrind (the same count for the same binary and inputs whatever else the
# machine runs, where wall-time ratios on a shared machine move by 20 %).
# Prints a markdown table on stdout, progress on stderr.
#   tools/bench/bench_instr_mjcf.sh [SIMC...]
# One column per simc binary given (default bin/simc), so that two builds
# can be set side by side: e.g. the last release's and this one's.
# Counted: sc_step (everything a step does, output writing aside) and, of
# it, the contact stage (sc_step_contacts), divided by the steps; the
# share of the whole process outside sc_step (the dynamic loader, the
# translation and the model, the output file); and
# MuJoCo 2.2.2's mj_step over as many steps (bin/mjbench, when built: make
# -C tools/bench/mujoco), its own scheme whatever simc's row; the
# models as shipped, symplectic Euler and the default scheme; humanoid.xml
# over 10 s, 22_humanoids.xml and humanoid100.xml over 2 s (INSTR_MODELS,
# "FILE:SECONDS ...", others); a run that fails counts the steps it took.
set -u
cd "$(dirname "$0")/../.."
models=/usr/share/mujoco/model
[ $# -eq 0 ] && set -- bin/simc
if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
  echo "(Instruction counts skipped: valgrind is not installed.)"
  exit 0
fi
[ -r "$models/humanoid/humanoid.xml" ] || { echo "(MuJoCo's models are missing: install libmujoco-samples)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# inclusive FILE FUNCTION: inclusive instructions of FUNCTION (0 when absent)
inclusive() {
  callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
    awk -v f=":$2 " 'index($0, f) { gsub(",", "", $1); print $1; found = 1; exit }
                     END { if (!found) print 0 }'
}

hdr="| model | scheme | steps | MuJoCo 2.2.2 mj_step (Mi) |"
sep="|---|---|---|---|"
for b in "$@"; do
  v=$("$b" --version 2>/dev/null | head -1)
  hdr="$hdr ${v:-$b}: step (Mi) | its contact stage (Mi) | outside the steps (%) |"
  sep="$sep---|---|---|"
done
echo "$hdr"
echo "$sep"
for spec in ${INSTR_MODELS:-humanoid/humanoid.xml:10 humanoid/22_humanoids.xml:2 humanoid100/humanoid100.xml:2}; do
  f=${spec%%:*}
  dur=${spec##*:}
  mj=-
  if [ -x bin/mjbench ]; then
    dt=$(sed -n 's/.*timestep="\([0-9.e-]*\)".*/\1/p' "$models/$f" | head -1)
    n=$(awk -v d="$dur" -v h="${dt:-0.002}" 'BEGIN { printf "%d", d / h + 0.5 }')
    echo "callgrind: MuJoCo $f" >&2
    valgrind --tool=callgrind --callgrind-out-file="$tmp/mj.out" bin/mjbench "$models/$f" "$n" \
      >/dev/null 2>&1 &&
      mj=$(awk -v a="$(inclusive "$tmp/mj.out" mj_step)" -v n="$n" 'BEGIN { printf "%.3f", a / n / 1048576 }')
  fi
  for scheme in symplectic_euler midpoint; do
    row=""
    steps=-
    for b in "$@"; do
      echo "callgrind: $b $f $scheme" >&2
      OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 valgrind --tool=callgrind \
        --callgrind-out-file="$tmp/cg.out" "$b" "$models/$f" -o "$tmp/o.h5" --force \
        --duration "$dur" --set output.every=100 --set integrator.scheme=$scheme \
        >/dev/null 2>"$tmp/err"
      steps=$(grep '^simc:' "$tmp/err" | tail -1 | sed -n 's/.*: \([0-9]*\) steps (t = .*/\1/p')
      st=$(inclusive "$tmp/cg.out" sc_step)
      ct=$(inclusive "$tmp/cg.out" sc_step_contacts)
      row="$row $(awk -v a="$st" -v n="$steps" 'BEGIN { if (n > 0) printf "%.3f", a / n / 1048576; else print "-" }') |"
      row="$row $(awk -v a="$ct" -v n="$steps" 'BEGIN { if (n > 0) printf "%.3f", a / n / 1048576; else print "-" }') |"
      tot=$(callgrind_annotate "$tmp/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
      row="$row $(awk -v a="$st" -v t="${tot:-0}" 'BEGIN { if (t > 0) printf "%.1f", 100 * (t - a) / t; else print "-" }') |"
    done
    echo "| $(basename "$f") | $scheme | ${steps:--} | $mj |$row"
  done
done
