#!/usr/bin/env bash
# Runs every test program (bin/test_*) and every shell test (test/t_*.sh),
# counts their PASS/FAIL lines and ends with "N passed, N failed".
# BIN (default bin) says where the binaries are; extra args filter test files.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
export BIN
pass=0; fail=0; failed_files=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
start=$(date +%s)
run_one() {  # name, command...
  local name=$1; shift
  local out="$log/$(basename "$name").out"
  "$@" >"$out" 2>&1
  local rc=$?
  local p f
  p=$(grep -c '^PASS ' "$out"); f=$(grep -c '^FAIL ' "$out")
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    # a crash or a non-zero exit without a FAIL line still counts as a failure
    echo "FAIL $name (exit $rc)" >>"$out"; f=$((f + 1))
  fi
  pass=$((pass + p)); fail=$((fail + f))
  if [ "$f" -gt 0 ]; then
    failed_files+=("$name")
    echo "--- $name: $p passed, $f failed"
    grep -v '^PASS ' "$out" | tail -40
  else
    echo "--- $name: $p passed"
  fi
}
for t in "$BIN"/test_*; do
  [ -x "$t" ] || continue
  case "$t" in *.d|*.o) continue;; esac
  if [ $# -gt 0 ]; then m=0; for f in "$@"; do case "$t" in *"$f"*) m=1;; esac; done; [ $m = 1 ] || continue; fi
  run_one "$t" "$t"
done
for t in test/t_*.sh; do
  [ -f "$t" ] || continue
  if [ $# -gt 0 ]; then m=0; for f in "$@"; do case "$t" in *"$f"*) m=1;; esac; done; [ $m = 1 ] || continue; fi
  run_one "$t" bash "$t"
done
echo "test time: $(( $(date +%s) - start )) s"
[ ${#failed_files[@]} -gt 0 ] && echo "failing: ${failed_files[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
