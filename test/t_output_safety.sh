#!/usr/bin/env bash
# The output file and its lock: nothing outside the output is ever written,
# and every name of one output takes one lock.
#  - OUT.lock that is a symbolic link (to the scene, to any file) or a hard
#    link is refused before anything is written: the target keeps its bytes;
#  - a second run through another name of a file being written (a symbolic
#    link to it) is refused as busy and the first run's file stays valid;
#  - an output with two names (a hard link) and a dangling link are refused;
#  - SIGHUP and SIGUSR1 end a run like SIGINT: exit 128 + signal, status
#    "interrupted", the rows so far kept, no lock left behind;
#  - --max-output takes one number format; bodies overlapping at the start
#    are named as such; tools/h5summary.py has --help.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
. test/shlib.sh
S=scenes/sphere_drop.yaml

# a lock file that is a link: its target is left alone
echo data >"$tmp/v"
ln -s "$tmp/v" "$tmp/o.h5.lock"
"$BIN/simc" $S -o "$tmp/o.h5" --quiet 2>"$tmp/e1"; rc=$?
ok lock_symlink_refused "[ $rc = 3 ] && grep -q 'symbolic link' '$tmp/e1'"
ok lock_symlink_target_intact "[ \"\$(cat '$tmp/v')\" = data ] && [ ! -e '$tmp/o.h5' ]"
rm -f "$tmp/o.h5.lock"
cp $S "$tmp/scene.yaml"
ln -s "$tmp/scene.yaml" "$tmp/p.h5.lock"
"$BIN/simc" "$tmp/scene.yaml" -o "$tmp/p.h5" --quiet 2>/dev/null; rc=$?
ok lock_symlink_to_scene_intact "[ $rc = 3 ] && cmp -s $S '$tmp/scene.yaml'"
ln "$tmp/v" "$tmp/h.h5.lock"
"$BIN/simc" $S -o "$tmp/h.h5" --quiet 2>"$tmp/e2"; rc=$?
ok lock_hardlink_refused "[ $rc = 3 ] && grep -q 'one link' '$tmp/e2' && [ \"\$(cat '$tmp/v')\" = data ]"

# two names of one output: the second run sees the first one's lock
"$BIN/simc" scenes/chain10.yaml -o "$tmp/a.h5" --duration 30 --quiet 2>/dev/null &
pid=$!
for _ in $(seq 100); do [ -e "$tmp/a.h5.lock" ] && break; sleep 0.05; done
ln -s "$tmp/a.h5" "$tmp/b.h5"
"$BIN/simc" $S -o "$tmp/b.h5" --quiet 2>"$tmp/e3"; rc=$?
ok second_name_busy "[ $rc = 3 ] && grep -q 'another simc run' '$tmp/e3'"
kill -INT $pid; wait $pid; rc1=$?
ok first_run_intact "[ $rc1 = 130 ] && [ \"\$(status_of '$tmp/a.h5')\" = interrupted ] && [ \"\$(rows_of '$tmp/a.h5')\" -gt 0 ]"

# an output with two names, and a dangling link
ln "$tmp/a.h5" "$tmp/c.h5"
"$BIN/simc" $S -o "$tmp/c.h5" --quiet 2>"$tmp/e4"; rc=$?
ok hardlinked_output_refused "[ $rc = 3 ] && grep -q 'hard links' '$tmp/e4' && [ \"\$(status_of '$tmp/a.h5')\" = interrupted ]"
ln -s "$tmp/missing/x.h5" "$tmp/d.h5"
"$BIN/simc" $S -o "$tmp/d.h5" --quiet 2>"$tmp/e5"; rc=$?
ok dangling_link_refused "[ $rc = 3 ] && grep -q 'missing file' '$tmp/e5'"

# SIGHUP (a dropped ssh session) and SIGUSR1 close the file valid
for sig in HUP USR1; do
  "$BIN/simc" scenes/chain10.yaml -o "$tmp/s$sig.h5" --duration 30 --quiet 2>/dev/null &
  pid=$!
  for _ in $(seq 100); do [ -e "$tmp/s$sig.h5.lock" ] && break; sleep 0.05; done
  sleep 0.3
  kill -$sig $pid; wait $pid; rc=$?
  want=$((128 + $(kill -l $sig)))
  ok "signal_${sig}_closes_valid" "[ $rc = $want ] && [ \"\$(status_of '$tmp/s$sig.h5')\" = interrupted ] && [ \"\$(rows_of '$tmp/s$sig.h5')\" -gt 0 ] && [ ! -e '$tmp/s$sig.h5.lock' ]"
done

# --max-output takes one number format: decimal, optional suffix k M G T
bad=0
for v in 0x10 1e3k 1e-300 -5 0.1 10MB ""; do
  "$BIN/simc" scenes/sphere_drop.yaml --check --max-output "$v" 2>/dev/null && bad=1
done
for v in 0 5000000 10M 1.5G 2T; do
  "$BIN/simc" scenes/sphere_drop.yaml --check --max-output "$v" 2>/dev/null || bad=1
done
ok max_output_one_format "[ $bad = 0 ]"

# bodies overlapping at the start are named as such, not "reduce time.step"
printf 'simc: 1\ntime: {step: 1.0e-3, duration: 0.01}\nbodies:\n  - name: a\n    joint: {type: free}\n    mass: 1\n    inertia: solid\n    initial: {q: [0, 0, 1, 1, 0, 0, 0]}\n    geometry:\n      - {shape: sphere, radius: 0.1}\n  - name: b\n    joint: {type: free}\n    mass: 1\n    inertia: solid\n    initial: {q: [0.01, 0, 1, 1, 0, 0, 0]}\n    geometry:\n      - {shape: sphere, radius: 0.1}\n' >"$tmp/overlap.yaml"
"$BIN/simc" "$tmp/overlap.yaml" -o "$tmp/ov.h5" --quiet 2>"$tmp/e6"; rc=$?
ok overlap_at_start_named "[ $rc = 2 ] && grep -q 'bodies a and b overlap by 0.19 m at the start' '$tmp/e6' && ! grep -q 'reduce time.step' '$tmp/e6'"

# tools/h5summary.py --help
/usr/bin/python3 tools/h5summary.py --help >"$tmp/help" 2>&1; rc=$?
ok h5summary_help "[ $rc = 0 ] && grep -q 'one CSV row per file' '$tmp/help' && ! grep -q '^missing,' '$tmp/help'"
/usr/bin/python3 tools/h5summary.py --bogus >/dev/null 2>"$tmp/e7"; rc=$?
ok h5summary_unknown_option "[ $rc = 1 ] && grep -q 'unknown option --bogus' '$tmp/e7'"
