#!/usr/bin/env bash
# bench_threads.sh: contact islands on 1 and 2 threads (--threads), measured
# in the same run with the two settings alternating, on clutter 216 and 1000
# (tools/gen_clutter.sh N 1e-3 0.4).  Prints a markdown section: median
# steps/s (simc's own wall time of the step loop) and median user CPU (GNU
# time) per setting, their ratios, and the load average around every run
# (the machine may be shared: read the ratios with the load).
# REPS (default 3) runs per setting; BENCH_QUICK=1: 1 run of 0.05 s.
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tools/bench/bench_lib.sh
reps=${REPS:-3}; dur=0.4
[ "${BENCH_QUICK:-0}" = 1 ] && reps=1 && dur=0.05
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
load() { cut -d' ' -f1 /proc/loadavg; }

echo "## Contact islands on threads (--threads 1 vs 2)"
echo
echo "tools/bench/bench_threads.sh: tools/gen_clutter.sh N 1e-3 $dur, $reps runs per setting alternating"
echo "1, 2, 1, 2, ...; medians.  steps/s from simc's summary line, user CPU from GNU time"
echo "(all threads of the process).  OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-unset}; $(nproc) CPUs."
echo
echo "| N | threads | steps/s | user CPU (s) | wall (s) | mean contacts | load average (1 min) at each start |"
echo "|---|---|---|---|---|---|---|"
declare -A ratio_lines
for n in 216 1000; do
  tools/gen_clutter.sh "$n" 1e-3 "$dur" >"$tmp/c.yaml"
  for t in 1 2; do : >"$tmp/sps$t"; : >"$tmp/cpu$t"; : >"$tmp/wall$t"; : >"$tmp/load$t"; done
  for r in $(seq "$reps"); do
    for t in 1 2; do
      load >>"$tmp/load$t"
      /usr/bin/time -f "%U %e" -o "$tmp/time" "$BIN/simc" "$tmp/c.yaml" -o "$tmp/out.h5" \
        --threads "$t" --force 2>"$tmp/err" >/dev/null
      line=$(grep '^simc:' "$tmp/err" | tail -1)
      read_summary "$line"
      awk -v s="$steps" -v w="$wall" 'BEGIN { printf "%.2f\n", s / w }' >>"$tmp/sps$t"
      cut -d' ' -f1 "$tmp/time" >>"$tmp/cpu$t"
      cut -d' ' -f2 "$tmp/time" >>"$tmp/wall$t"
      echo "threads clutter $n, $t thread(s), run $r: $line" >&2
    done
  done
  for t in 1 2; do
    sps[$t]=$(median <"$tmp/sps$t"); cpu[$t]=$(median <"$tmp/cpu$t"); wl[$t]=$(median <"$tmp/wall$t")
    echo "| $n | $t | ${sps[$t]} | ${cpu[$t]} | ${wl[$t]} | $ncon | $(paste -sd' ' "$tmp/load$t") |"
  done
  ratio_lines[$n]=$(awk -v a="${sps[2]}" -v b="${sps[1]}" -v c="${cpu[2]}" -v d="${cpu[1]}" \
    'BEGIN { printf "steps/s x%.3f, user CPU x%.3f", a / b, c / d }')
done
# what 2 threads can gain on this machine now: one CPU-bound loop alone,
# then two at once (2 = two free cores, 1 = no spare core)
spin() { awk 'BEGIN { for (i = 0; i < 2e7; i++) x += i }'; }
s0=$(date +%s.%N); spin; s1=$(date +%s.%N); spin & spin; wait; s2=$(date +%s.%N)
capacity=$(awk -v a="$s0" -v b="$s1" -v c="$s2" 'BEGIN { printf "%.2f", 2 * (b - a) / (c - b) }')
echo
for n in 216 1000; do echo "- clutter $n, 2 threads / 1 thread: ${ratio_lines[$n]}"; done
echo "- parallel capacity: two CPU-bound loops at once ran x$capacity as fast as one alone"
echo "  (2.00 = two free cores; the steps/s ratio cannot exceed it)"
echo "- load average after the section: $(cut -d' ' -f1-3 /proc/loadavg)"
