#!/usr/bin/env bash
# tools/sweep --slurm with a hostile --out: every command it prints can be
# pasted into a shell and runs nothing but sbatch (a fake sbatch records its
# arguments here), the script's #SBATCH --output is quoted, and ranges with
# non-finite ends and absurd resources are refused.
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

out="$tmp/x \$(touch $tmp/PWNED) \`touch $tmp/PWNED2\`"
tools/sweep scenes/sphere_drop.yaml --out "$out" --list contact.defaults.friction=0.1,0.2 \
  --slurm >"$tmp/printed" 2>/dev/null
ok sweep_slurm_written "[ -f \"\$out/sweep.sbatch\" ]"
# paste every printed "sbatch ..." command into a shell whose sbatch only
# counts its arguments
sed -n 's/.*submit it with: //p' "$tmp/printed" >"$tmp/cmds"
paste_cmds() {
  bash -c "sbatch() { printf '%s\n' \"\$#\" >>'$tmp/argc'; }; . '$tmp/cmds'"
}
ok sweep_hint_runs_nothing_else "paste_cmds && [ ! -e '$tmp/PWNED' ] && [ ! -e '$tmp/PWNED2' ] && [ \"\$(cat '$tmp/argc')\" = 1 ]"
ok sweep_output_quoted "grep -q '^#SBATCH --output=\".*/logs/slurm-%A_%a.out\"\$' \"\$out/sweep.sbatch\""
tools/sweep scenes/sphere_drop.yaml --out "$tmp/y" --grid contact.defaults.friction=nan:1:3 --slurm 2>"$tmp/e1" >/dev/null
ok sweep_nan_range_refused "[ \$? != 0 ] && grep -q 'finite' '$tmp/e1'"
tools/sweep scenes/sphere_drop.yaml --out "$tmp/y" --grid contact.defaults.friction=0:inf:3 --slurm 2>/dev/null >/dev/null
ok sweep_inf_range_refused "[ \$? != 0 ]"
tools/sweep scenes/sphere_drop.yaml --out "$tmp/y" --list contact.defaults.friction=0.1 --slurm --cpus-per-task 1000000 2>/dev/null >/dev/null
ok sweep_cpus_out_of_range_refused "[ \$? != 0 ]"
tools/sweep scenes/sphere_drop.yaml --out "$tmp/q\"uote" --list contact.defaults.friction=0.1 --slurm 2>"$tmp/e2" >/dev/null
ok sweep_out_with_quote_refused "[ \$? != 0 ] && grep -q 'double quote' '$tmp/e2'"

# a 300-character value: the run is named by a hash (a file name has 255
# bytes), completes, and params.csv keeps the value
long=$(printf 'n%.0s' $(seq 300))
tools/sweep scenes/sphere_drop.yaml --out "$tmp/long" --list "name=$long" --jobs 1 -- --duration 0.01 >/dev/null 2>"$tmp/e3"; rc=$?
ok sweep_long_value_runs "[ $rc = 0 ] && grep -q ',complete,' '$tmp/long/summary.csv' && grep -q '$long' '$tmp/long/params.csv'"
# a corrupted output: --summarize gives its own reason, not an old log's
out1=$(ls "$tmp/long/runs/"*.h5 | head -1)
echo "stale reason" >"$tmp/long/logs/$(basename "$out1" .h5).log"
printf 'garbage' >"$out1"
tools/sweep scenes/sphere_drop.yaml --out "$tmp/long" --list "name=$long" --summarize -- --duration 0.01 >/dev/null 2>"$tmp/e4"
ok sweep_corrupt_output_reason "grep -q 'unreadable' '$tmp/e4' && ! grep -q 'stale reason' '$tmp/e4'"
