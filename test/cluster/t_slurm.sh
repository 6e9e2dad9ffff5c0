#!/usr/bin/env bash
# tools/sweep --slurm on a real single-node Slurm cluster started here
# (munged, slurmctld, slurmd from Debian's slurm-wlm and munge, configured in
# a temporary directory): the array script written by the sweep runs under
# sbatch, every task's state and exit code (scontrol, and the controller's
# jobcomp record) and output file are checked, --summarize reports the two
# points with a bad --set value as failed tasks and prints the sbatch
# --array line for them; after the value is corrected, resubmitting only
# those indices completes the sweep without touching the other outputs, and
# a resubmitted point's q and v equal those of the same command run here.
# Prints "SKIP <reason>" and no PASS/FAIL line when the daemons cannot run.
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${BIN:-bin}
PY=/usr/bin/python3
export SIMC="$PWD/$BIN/simc"
. test/cluster/lib.sh
cluster_test_begin slurm slurm_why_not

if ! slurm_start "$tmp/slurm" >"$tmp/start.log" 2>&1; then
  echo "FAIL slurm_start"; cat "$tmp/start.log"; exit 1
fi
echo "slurm up in $(( $(date +%s) - t_start )) s (node $SLURM_NODE, SLURM_CONF=$SLURM_CONF)"
# the node as configured: the machine's CPUs and memory
cpus=$(scontrol -o show node "$SLURM_NODE" | sed -n 's/.*CPUTot=\([0-9]*\).*/\1/p')
mem=$(scontrol -o show node "$SLURM_NODE" | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')
memtotal=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' /proc/meminfo)
ok node_real_cpus_and_memory "[ '$cpus' = $(getconf _NPROCESSORS_ONLN) ] && [ -n '$mem' ] && \
  [ \$(( ${mem:-0} - $memtotal )) -le 1 ] && [ \$(( $memtotal - ${mem:-0} )) -le 1 ]"

D=$tmp/sweep
cat >"$tmp/header" <<'EOF'
#!/bin/bash
# what a site adds: a job name, the partition, a module line and an export
#SBATCH --job-name=simc-sweep-test
#SBATCH --partition=simctest
export SWEEP_HEADER_MARK="header ran for task $SLURM_ARRAY_TASK_ID"
echo "$SWEEP_HEADER_MARK on $(hostname -s)"
EOF
grid_bad=(--grid contact.defaults.friction=0.1,0.5 --grid time.step=1e-3,-2e-3)
grid_good=(--grid contact.defaults.friction=0.1,0.5 --grid time.step=1e-3,2e-3)
tools/sweep scenes/box_incline_slip.yaml --out "$D" --slurm --mem 256M --time 5 --cpus-per-task 1 \
  --slurm-header "$tmp/header" "${grid_bad[@]}" -- --duration 0.05 >"$tmp/o1" 2>&1; rc=$?
ok sweep_writes_script "[ $rc = 0 ] && [ -x '$D/sweep.sbatch' ] && grep -qx '#SBATCH --array=0-3' '$D/sweep.sbatch'"

j1=$(sbatch --parsable "$D/sweep.sbatch" 2>"$tmp/sb1"); rc=$?
ok sbatch_accepts "[ $rc = 0 ] && [ -n '$j1' ]" || cat "$tmp/sb1"
slurm_wait_job "$j1" 120; rc=$?
ok array_done_within_120s "[ $rc = 0 ]"
slurm_task_states "$j1" >"$tmp/states1"
ok task_states "[ \"\$(tr '\n' ' ' <'$tmp/states1')\" = '0 COMPLETED 0:0 1 FAILED 1:0 2 COMPLETED 0:0 3 FAILED 1:0 ' ]" \
  || cat "$tmp/states1"
# the controller's completion record agrees (one line per task)
sed -n "s/.* JobState=\([A-Z]*\) .* ArrayJobId=$j1 ArrayTaskId=\([0-9]*\) .* ExitCode=\([0-9:]*\).*/\2 \1 \3/p" \
  "$tmp/slurm/jobcomp.txt" | sort -n >"$tmp/comp1"
ok jobcomp_record "cmp -s '$tmp/states1' '$tmp/comp1'" || cat "$tmp/comp1"
# resources and site lines reached the job
scontrol -o show job "$j1" | grep -m1 'ArrayTaskId=0 ' >"$tmp/job0"
ok resources "grep -q ' TimeLimit=00:05:00 ' '$tmp/job0' && grep -q ' MinMemoryNode=256M ' '$tmp/job0' && \
  grep -q 'CPUs/Task=1 ' '$tmp/job0' && grep -q ' JobName=simc-sweep-test ' '$tmp/job0' && grep -q ' Partition=simctest ' '$tmp/job0'"
hdr=1
for i in 0 1 2 3; do
  grep -qx "header ran for task $i on $SLURM_NODE" "$D/logs/slurm-${j1}_$i.out" || { hdr=0; echo "  task $i:"; cat "$D/logs/slurm-${j1}_$i.out"; }
done
ok header_lines_ran_in_each_task "[ $hdr = 1 ]"
ok outputs_of_good_points "[ \$(ls '$D'/runs/*.h5 | wc -l) = 2 ] && [ -f '$D/runs/0_contact.defaults.friction=0.1_time.step=1e-3.h5' ] \
  && [ -f '$D/runs/2_contact.defaults.friction=0.5_time.step=1e-3.h5' ]"
ok bad_value_in_log "grep -q 'time.step' '$D/logs/1_contact.defaults.friction=0.1_time.step=-2e-3.log' && \
  grep -q 'time.step' '$D/logs/3_contact.defaults.friction=0.5_time.step=-2e-3.log'"
ok task_records "[ \"\$(cat '$D'/logs/slurm-task-{0,1,2,3}.joblog | cut -f2,7 | tr '\t\n' '  ')\" = \
  '$SLURM_NODE 0 $SLURM_NODE 1 $SLURM_NODE 0 $SLURM_NODE 1 ' ]"

tools/sweep scenes/box_incline_slip.yaml --out "$D" --summarize "${grid_bad[@]}" -- --duration 0.05 >/dev/null 2>"$tmp/e2"; rc=$?
ok summarize_reports_failures "[ $rc = 1 ] && grep -q '2 of 4 points not complete' '$tmp/e2' && \
  grep -q '^  1 runs/1_.*status missing, exit 1; .*time.step' '$tmp/e2' && grep -q '^  3 runs/3_.*status missing, exit 1' '$tmp/e2' && \
  grep -qx 'sweep: resubmit only these points: sbatch --array=1,3 $D/sweep.sbatch' '$tmp/e2'"
ok summary_rows "[ \"\$(cut -d, -f1,4,5 '$D/summary.csv' | tr '\n' ' ')\" = \
  'index,status,exit_code 0,complete,0 1,missing,1 2,complete,0 3,missing,1 ' ]"

# the value corrected: the script is rewritten, points 0 and 2 stay complete
touch "$tmp/marker"
sleep 1
tools/sweep scenes/box_incline_slip.yaml --out "$D" --slurm --mem 256M --time 5 \
  --slurm-header "$tmp/header" "${grid_good[@]}" -- --duration 0.05 >"$tmp/o3" 2>&1; rc=$?
ok rewrite_lists_the_rest "[ $rc = 0 ] && grep -q '4 points, 2 complete, 2 to run' '$tmp/o3' && \
  grep -qx 'only the incomplete points: sbatch --array=1,3 $D/sweep.sbatch' '$tmp/o3'"
j2=$(sbatch --parsable --array=1,3 "$D/sweep.sbatch" 2>"$tmp/sb2"); rc=$?
ok resubmit_accepts "[ $rc = 0 ] && [ -n '$j2' ]" || cat "$tmp/sb2"
slurm_wait_job "$j2" 120; rc=$?
slurm_task_states "$j2" >"$tmp/states2"
ok resubmitted_tasks_complete "[ $rc = 0 ] && [ \"\$(tr '\n' ' ' <'$tmp/states2')\" = '1 COMPLETED 0:0 3 COMPLETED 0:0 ' ]" \
  || cat "$tmp/states2"
tools/sweep scenes/box_incline_slip.yaml --out "$D" --summarize "${grid_good[@]}" -- --duration 0.05 >/dev/null 2>"$tmp/e4"; rc=$?
ok sweep_complete "[ $rc = 0 ] && [ \"\$(cut -d, -f1,4,5 '$D/summary.csv' | tr '\n' ' ')\" = \
  'index,status,exit_code 0,complete,0 1,complete,0 2,complete,0 3,complete,0 ' ]"
ok first_outputs_untouched "[ -z \"\$(find '$D/runs' -name '[02]_*.h5' -newer '$tmp/marker')\" ] && \
  [ \$(find '$D/runs' -name '[13]_*.h5' -newer '$tmp/marker' | wc -l) = 2 ]"

# point 3 as run by Slurm against the same command run here: q and v bit for bit
"$SIMC" scenes/box_incline_slip.yaml -o "$tmp/direct3.h5" --duration 0.05 \
  --set contact.defaults.friction=0.5 --set time.step=2e-3 >/dev/null 2>&1
$PY - "$D/runs/3_contact.defaults.friction=0.5_time.step=2e-3.h5" "$tmp/direct3.h5" >"$tmp/cmp" 2>&1 <<'EOF'
import sys, h5py
with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
    assert a["q"].shape == b["q"].shape and a["q"].shape[0] == 26, a["q"].shape
    for k in ("time", "q", "v"):
        assert a[k][...].tobytes() == b[k][...].tobytes(), k
print("ok")
EOF
ok slurm_point_equals_direct_run "grep -qx ok '$tmp/cmp'" || cat "$tmp/cmp"

t_stop=$(date +%s)
pids=("${CLUSTER_PIDS[@]}")
cluster_stop_all
alive=0; for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
# three daemons, gone, and each removed its pid file on a clean exit
ok daemons_stopped "[ ${#pids[@]} = 3 ] && [ $alive = 0 ] && [ ! -e '$tmp/slurm/slurmctld.pid' ] && \
  [ ! -e '$tmp/slurm/slurmd.pid' ] && [ ! -e '$tmp/slurm/munged.pid' ]"
echo "slurm test: $(( t_stop - t_start )) s with the daemons up, stopped in $(( $(date +%s) - t_stop )) s"
