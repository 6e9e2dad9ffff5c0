#!/usr/bin/env bash
# --threads / contact.threads: outputs bit-identical for 1, 2 and 3 threads
# on clutter scenes with many islands, under 1 and 2 OpenBLAS threads; a
# SIGINT during a threaded run; the option's errors.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
SIMC="$PWD/$BIN/simc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh
# same A B: every recorded dataset of the state, contacts and solver equal bit for bit
# (h5diff without tolerances compares values exactly; wall_time differs by nature)
same() {
  local ds
  for ds in /q /v /contact /energy /body /solver/iterations /solver/linesearch_evals \
            /solver/residual /solver/status /solver/free_motion_iterations; do
    h5diff "$1" "$2" "$ds" >/dev/null 2>&1 || { echo "  $ds differs: $1 $2"; return 1; }
  done
}

tools/gen_clutter.sh 216 1e-3 0.3 >"$tmp/c216.yaml"
for scene in c216 c64; do
  src=$tmp/$scene.yaml
  [ $scene = c64 ] && src=test/clutter64.yaml
  for ob in 1 2; do
    for t in 1 2 3; do
      OPENBLAS_NUM_THREADS=$ob "$SIMC" "$src" -o "$tmp/${scene}_ob${ob}_t$t.h5" --threads $t \
        --set output.every=1 --quiet 2>"$tmp/e"; rc=$?
      [ $rc = 0 ] || { echo "  $scene ob=$ob t=$t: exit $rc"; cat "$tmp/e"; }
    done
    for t in 2 3; do
      ok "identical_${scene}_openblas${ob}_threads$t" \
        "same '$tmp/${scene}_ob${ob}_t1.h5' '$tmp/${scene}_ob${ob}_t$t.h5'"
    done
  done
  ok "${scene}_complete" "[ \"\$(status_of $tmp/${scene}_ob1_t3.h5)\" = complete ]"
done
# the comparison covers real contact: hundreds of contacts per step on c216
ok c216_has_contacts "[ \"\$(h5dump -d /contact/count -s 300 -c 1 '$tmp/c216_ob1_t1.h5' | sed -n 's/.*(300): *//p')\" -gt 150 ]"

# auto: one thread per online CPU, same results
"$SIMC" test/clutter64.yaml -o "$tmp/auto.h5" --threads auto --set output.every=1 --quiet; rc=$?
ok threads_auto "[ $rc = 0 ] && same '$tmp/c64_ob1_t1.h5' '$tmp/auto.h5'"

# SIGINT during a threaded run: exit 130, status interrupted, every dataset
# the same length; the run ends within seconds of the first signal
"$SIMC" "$tmp/c216.yaml" -o "$tmp/i.h5" --threads 2 --duration 1000 --quiet &
pid=$!
sleep 2
t0=$(date +%s.%N)
for _ in $(seq 120); do kill -INT $pid 2>/dev/null || break; sleep 0.2; done
wait $pid; rc=$?
t1=$(date +%s.%N)
rows=$(rows_of "$tmp/i.h5")
el=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
echo "  interrupted after $rows rows, $el s after the first SIGINT"
ok threaded_interrupted_exit "[ $rc = 130 ]"
ok threaded_interrupted_status "[ \"\$(status_of $tmp/i.h5)\" = interrupted ] && [ '${rows:-0}' -gt 0 ]"
ok threaded_interrupted_rows "[ \"\$(rows_of $tmp/i.h5 /q)\" = '${rows:-x}' ] && [ \"\$(rows_of $tmp/i.h5 /v)\" = '${rows:-x}' ]"
ok threaded_interrupted_prompt "awk -v e='$el' 'BEGIN { exit !(e < 10) }'"

# errors: the option and the scene key
"$SIMC" test/clutter64.yaml -o "$tmp/x.h5" --threads 0 2>"$tmp/e"; rc=$?
ok bad_threads_zero "[ $rc = 1 ] && grep -q -- \"--threads: expected auto or a number of threads from 1 to 256, got '0'\" '$tmp/e'"
"$SIMC" test/clutter64.yaml -o "$tmp/x.h5" --threads two 2>"$tmp/e"; rc=$?
ok bad_threads_word "[ $rc = 1 ] && grep -q -- \"got 'two'\" '$tmp/e'"
sed 's/^  on_failure: warn$/  on_failure: warn\n  threads: many/' test/clutter64.yaml >"$tmp/bad.yaml"
line=$(grep -n 'threads: many' "$tmp/bad.yaml" | cut -d: -f1)
"$SIMC" "$tmp/bad.yaml" -o "$tmp/x.h5" 2>"$tmp/e"; rc=$?
ok bad_threads_key_located "[ $rc = 1 ] && grep -q \"bad.yaml:$line:12: contact.threads: expected auto or a number of threads (got 'many')\" '$tmp/e'"
