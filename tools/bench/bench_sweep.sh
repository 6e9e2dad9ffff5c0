#!/usr/bin/env bash
# A sweep of 64 points (box_incline_slip, 0.05 s, friction 0.1..0.8) over the
# machine's cores by the three paths of tools/sweep: GNU parallel on this
# machine, a Slurm job array on a single-node cluster started here, and
# parallel --sshlogin through an sshd started here (test/cluster/lib.sh).
# Prints a markdown section: wall time of each path with 1 and 2 slots, the
# overhead per point against running the same simc commands directly, and
# the speed-up 1 -> 2 slots.  Slurm and ssh need root and Debian's slurm-wlm,
# munge, openssh-server (make test-cluster installs them); without them the
# section says so.  BENCH_QUICK=1: 8 points.
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${BIN:-bin}
export SIMC="$PWD/$BIN/simc"
. test/cluster/lib.sh
n=64; [ "${BENCH_QUICK:-0}" = 1 ] && n=8
mkdir -p build
tmp=$(mktemp -d "$PWD/build/bench-sweep.XXXXXX")
trap 'cluster_stop_all; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
scene=scenes/box_incline_slip.yaml
grid=(--grid "contact.defaults.friction=0.1:0.8:$n")
simc_args=(--duration 0.05)
now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
complete() { [ "$(grep -c ',complete,0,' "$1/summary.csv" 2>/dev/null)" = "$n" ]; }
log() { echo "sweep bench: $*" >&2; }

load0=$(cut -d' ' -f1 /proc/loadavg)
# simc directly, one point after the other: the reference cost of the points
tools/sweep "$scene" --out "$tmp/dry" --dry-run "${grid[@]}" -- "${simc_args[@]}" >/dev/null 2>&1
t0=$(now)
tail -n +2 "$tmp/dry/params.csv" | cut -d, -f2 | while read -r mu; do
  OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$SIMC" "$scene" -o "$tmp/direct.h5" "${simc_args[@]}" \
    --set "contact.defaults.friction=$mu" >/dev/null 2>&1 || echo "direct run failed: mu $mu" >&2
done
direct=$(sub "$t0" "$(now)")
log "direct $direct s"

declare -A wall ok
declare -a logins
run_parallel() {  # SLOTS
  local d=$tmp/par$1 t0
  t0=$(now)
  tools/sweep "$scene" --out "$d" --jobs "$1" "${grid[@]}" -- "${simc_args[@]}" >/dev/null 2>&1
  wall[parallel$1]=$(sub "$t0" "$(now)"); complete "$d" && ok[parallel$1]=1
  log "parallel --jobs $1: ${wall[parallel$1]} s"
}
run_parallel 1
run_parallel 2

slurm_note=""
if why=$(slurm_why_not); then
  slurm_note="Slurm not measured: $why."
elif t0=$(now); ! slurm_start "$tmp/slurm" >"$tmp/slurm.log" 2>&1; then
  slurm_note="Slurm not measured: the cluster did not start ($(tail -1 "$tmp/slurm.log"))."
else
  slurm_up=$(sub "$t0" "$(now)")
  for slots in 1 2; do
    d=$tmp/slurm$slots
    tools/sweep "$scene" --out "$d" --slurm "${grid[@]}" -- "${simc_args[@]}" >/dev/null 2>&1
    # one slot: the array throttled to one task at a time (%1)
    arr=0-$((n - 1)); [ "$slots" = 1 ] && arr="$arr%1"
    t0=$(now)
    j=$(sbatch --parsable --array="$arr" "$d/sweep.sbatch") && slurm_wait_job "$j" 900
    wall[slurm$slots]=$(sub "$t0" "$(now)")
    tools/sweep "$scene" --out "$d" --summarize "${grid[@]}" -- "${simc_args[@]}" >/dev/null 2>&1 && complete "$d" && ok[slurm$slots]=1
    log "slurm ${slots} slot(s): ${wall[slurm$slots]} s"
  done
  # the same array of n/4 points under Slurm's default scheduler parameters
  sed -i '/^SchedulerParameters=/d' "$SLURM_CONF" && scontrol reconfigure >/dev/null 2>&1
  sleep 2
  m=$((n / 4)); d=$tmp/slurmdef
  tools/sweep "$scene" --out "$d" --slurm --grid "contact.defaults.friction=0.1:0.8:$m" -- "${simc_args[@]}" >/dev/null 2>&1
  t0=$(now)
  j=$(sbatch --parsable "$d/sweep.sbatch") && slurm_wait_job "$j" 900 || wdef="(sbatch failed)"
  [ -n "${wdef:-}" ] || wdef=$(sub "$t0" "$(now)")
  log "slurm defaults, $m points, 2 slots: $wdef s"
  slurm_note="Slurm: single node, select/cons_tres, sched/backfill, SchedulerParameters=batch_sched_delay=0,sched_min_interval=0 (test/cluster/lib.sh); the cluster started in $slurm_up s (not counted). 1 slot = \`sbatch --array=0-$((n - 1))%1\`; wall time from sbatch until the last task left squeue (polled every 0.2 s). With Slurm's default SchedulerParameters (batch_sched_delay = 3 s) an array of $m of these points took $wdef s with 2 slots ($(awk -v w="$wdef" -v m="$m" 'BEGIN { printf "%.2f", w / m }') s per point): a site's scheduler settings, not simc, set the pace of short array tasks."
fi

ssh_note=""
if why=$(sshd_why_not); then
  ssh_note="ssh not measured: $why."
elif ! sshd_start "$tmp/ssh" >"$tmp/ssh.log" 2>&1; then
  ssh_note="ssh not measured: sshd did not start ($(tail -1 "$tmp/ssh.log"))."
else
  t0=$(now)
  for i in 1 2 3 4 5; do ssh -F "$SSH_CFG" "$SSH_HOST" true; done
  rtt=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", (b - a) / 5 }')
  t0=$(now)
  for i in 1 2 3 4 5; do bash -ic true >/dev/null 2>&1 </dev/null; done
  rc=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", (b - a) / 5 }')
  for slots in 1 2; do
    d=$tmp/ssh$slots
    l0=$(grep -c 'Accepted publickey' "$tmp/ssh/sshd.log")
    t0=$(now)
    tools/sweep "$scene" --out "$d" --sshlogin "$slots/$SSH_HOST" --ssh "ssh -F $SSH_CFG" "${grid[@]}" \
      -- "${simc_args[@]}" >/dev/null 2>&1
    wall[ssh$slots]=$(sub "$t0" "$(now)"); complete "$d" && ok[ssh$slots]=1
    logins[$slots]=$(( $(grep -c 'Accepted publickey' "$tmp/ssh/sshd.log") - l0 ))
    log "ssh ${slots} slot(s): ${wall[ssh$slots]} s"
  done
  ssh_note="ssh: parallel --sshlogin N/host to an sshd on 127.0.0.1; sshd logged ${logins[1]} and ${logins[2]} logins for the $n points with 1 and 2 slots. \`ssh host true\` takes $rtt s here (mean of 5), of which the user's login shell start-up (\`bash -ic true\`, which sshd's bash runs through ~/.bashrc) takes $rc s."
fi
cluster_stop_all

echo "## Sweep of $n points: GNU parallel, Slurm, ssh"
echo
echo "tools/sweep $scene ${grid[*]} -- ${simc_args[*]}: $n points on this machine's $(nproc) cores."
echo "simc run directly, one point after another: $direct s ($(awk -v d="$direct" -v n="$n" 'BEGIN { printf "%.3f", d / n }') s per point)."
echo "Overhead per point = (slots x wall - direct) / $n: core-seconds spent per point beyond simc itself."
echo "Load average (1 min) of the machine: $load0 at the start, $(cut -d' ' -f1 /proc/loadavg) at the end (above $(nproc), other processes shared the cores)."
echo
echo "| path | wall, 1 slot (s) | wall, 2 slots (s) | overhead/point, 1 slot (s) | overhead/point, 2 slots (s) | speed-up 1 -> 2 | all complete |"
echo "|---|---|---|---|---|---|---|"
for p in parallel slurm ssh; do
  w1=${wall[${p}1]:-}; w2=${wall[${p}2]:-}
  [ -n "$w1" ] || { echo "| $p | - | - | - | - | - | not run |"; continue; }
  awk -v p="$p" -v w1="$w1" -v w2="$w2" -v d="$direct" -v n="$n" -v c="$([ -n "${ok[${p}1]:-}" ] && [ -n "${ok[${p}2]:-}" ] && echo yes || echo NO)" \
    'BEGIN { printf "| %s | %.2f | %.2f | %.3f | %.3f | %.2f | %s |\n", p, w1, w2, (w1 - d) / n, (2 * w2 - d) / n, w1 / w2, c }'
done
echo
echo "$slurm_note"
echo
echo "$ssh_note"
