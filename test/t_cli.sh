#!/usr/bin/env bash
# The simc command line: options, exit codes, output file and status,
# determinism, interruption (doc/cli.md, doc/output.md).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
SIMC="$PWD/$BIN/simc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

"$SIMC" --version >"$tmp/v" 2>&1; rc=$?
ok version "[ $rc = 0 ] && grep -q '^simc ' '$tmp/v'"

"$SIMC" scenes/spring_damper.yaml --bogus >/dev/null 2>"$tmp/e"; rc=$?
ok unknown_option "[ $rc = 1 ] && grep -q \"unknown option '--bogus'\" '$tmp/e'"

"$SIMC" "$tmp/nope.yaml" >/dev/null 2>"$tmp/e"; rc=$?
ok missing_scene_exit3 "[ $rc = 3 ] && grep -q 'nope.yaml' '$tmp/e'"

"$SIMC" scenes/spring_damper.yaml --dt -1 >/dev/null 2>"$tmp/e"; rc=$?
ok bad_dt "[ $rc = 1 ] && grep -q -- '--dt' '$tmp/e'"

"$SIMC" scenes/spring_damper.yaml --solver magic >/dev/null 2>"$tmp/e"; rc=$?
ok bad_solver "[ $rc = 1 ] && grep -q 'expected newton or lcp' '$tmp/e'"

"$SIMC" scenes/spring_damper.yaml --set bodies.mass.mass=-2 >/dev/null 2>"$tmp/e"; rc=$?
ok bad_set_located "[ $rc = 1 ] && grep -q '^--set:1:' '$tmp/e'"

# a complete run: status, rows, units
"$SIMC" scenes/spring_damper.yaml -o "$tmp/a.h5" --duration 0.5 --quiet; rc=$?
ok run_complete "[ $rc = 0 ] && [ \"\$(status_of $tmp/a.h5)\" = complete ] && [ \"\$(rows_of $tmp/a.h5)\" = 501 ]"
ok units_on_q "h5dump -a /q/units '$tmp/a.h5' >/dev/null 2>&1"

# same inputs -> bit-identical datasets (wall_time aside)
"$SIMC" scenes/spring_damper.yaml -o "$tmp/b.h5" --duration 0.5 --quiet
ok deterministic "'$BIN/h5compare' '$tmp/a.h5' '$tmp/b.h5' --rtol 0 --atol 0 >/dev/null"

# output.every and --set on time
"$SIMC" scenes/spring_damper.yaml -o "$tmp/c.h5" --set time.duration=0.1 --set output.every=10 --quiet
ok output_every "[ \"\$(rows_of $tmp/c.h5)\" = 11 ]"

# default output name: <scene basename>.h5 in the current directory
(cd "$tmp" && "$SIMC" "$OLDPWD/scenes/spring_damper.yaml" --duration 0.01 --quiet)
ok default_output_name "[ -f '$tmp/spring_damper.h5' ]"

# an I/O error is exit 3
"$SIMC" scenes/spring_damper.yaml -o "$tmp/no/such/dir/x.h5" --duration 0.01 --quiet 2>"$tmp/e"; rc=$?
ok io_error_exit3 "[ $rc = 3 ] && grep -q 'no/such/dir' '$tmp/e'"

# divergence: explicit Euler on a stiff undamped spring -> exit 2, status failed
"$SIMC" scenes/spring_damper.yaml -o "$tmp/f.h5" --set integrator.scheme=explicit_euler \
  --set springs.0.stiffness=1e8 --set springs.0.damping=0 --dt 0.01 --duration 100 --quiet 2>"$tmp/e"; rc=$?
ok diverged_exit2 "[ $rc = 2 ] && grep -q 'non-finite' '$tmp/e'"
ok diverged_status "status_of '$tmp/f.h5' | grep -q '^failed: '"

# interruption: SIGINT mid-run leaves a valid file with status interrupted
"$SIMC" scenes/chain10.yaml -o "$tmp/i.h5" --duration 1000 --quiet &
pid=$!
sleep 1
# again every 0.5 s while it runs (at most 60 s): a slow start (sanitizers,
# a loaded machine) may not have installed the handler yet, and a background
# job of a script starts with SIGINT ignored
for _ in $(seq 120); do kill -INT $pid 2>/dev/null || break; sleep 0.5; done
wait $pid; rc=$?
rows=$(rows_of "$tmp/i.h5")
ok interrupted_exit "[ $rc = 130 ]"
ok interrupted_status "[ \"\$(status_of $tmp/i.h5)\" = interrupted ] && [ '${rows:-0}' -gt 10 ]"
ok interrupted_rows_consistent "[ \"\$(rows_of $tmp/i.h5 /q)\" = '${rows:-x}' ]"

# SIGTERM is an interruption too
"$SIMC" scenes/chain10.yaml -o "$tmp/t.h5" --duration 1000 --quiet &
pid=$!
sleep 1
kill -TERM $pid
wait $pid; rc=$?
ok sigterm_interrupted "[ $rc = 143 ] && [ \"\$(status_of $tmp/t.h5)\" = interrupted ] && [ \"\$(rows_of $tmp/t.h5 /v)\" = \"\$(rows_of $tmp/t.h5)\" ]"

# SIGKILL: no chance to close, yet the file reads as of its last flush,
# with status running and every dataset the same length
"$SIMC" scenes/chain10.yaml -o "$tmp/k.h5" --duration 1000 --quiet &
pid=$!
sleep 3
kill -KILL $pid
wait $pid 2>/dev/null
krows=$(rows_of "$tmp/k.h5")
ok sigkill_readable_running "[ \"\$(status_of $tmp/k.h5)\" = running ] && [ '${krows:-0}' -gt 10 ] && [ \"\$(rows_of $tmp/k.h5 /energy/total)\" = '$krows' ] && [ \"\$(rows_of $tmp/k.h5 /q)\" = '$krows' ]"
