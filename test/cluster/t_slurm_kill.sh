#!/usr/bin/env bash
# Array tasks of a tools/sweep --slurm script killed under a real single-node
# Slurm (test/cluster/lib.sh): one by scancel (SIGTERM to every process of
# the task, SIGKILL after KillWait; scancel --signal=KILL does the same), one
# by SIGKILL to its simc alone, as the kernel's OOM killer does.  The
# controller shows them CANCELLED and FAILED; each task's record in
# logs/slurm-task-<i>.joblog holds exit 143 and signal 15 (137 and 9), and
# was written after simc closed its output; the cancelled point's .part is a
# valid file with status "interrupted" at a time between 0 and the duration,
# the killed point's a readable file with status "running" (README: a
# killed run).  --summarize lists both points
# as not complete and prints the sbatch --array line for exactly them;
# resubmitting it completes them at full duration without touching the
# point that completed.
# A Slurm time limit is not exercised: --time counts whole minutes (seconds
# round up) and slurmctld checks limits periodically, so a task of --time 1
# runs a minute or more, and the kill itself is the same
# SIGTERM/KillWait/SIGKILL sequence as scancel's.
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
echo "slurm up in $(( $(date +%s) - t_start )) s (node $SLURM_NODE)"

# point 0: 0.5 s of simulated time (well under a second of wall time);
# points 1 and 2: 1500 s, about 8 s of wall time each on an idle core (400 s
# took 2 s by now, and a run that ends before the cancel reaches it fails
# the test), long enough to be cancelled while running
D=$tmp/sweep
grid=(--grid time.duration=0.5,1500,1500.5)
tools/sweep scenes/box_incline_slip.yaml --out "$D" --slurm --mem 256M --time 5 "${grid[@]}" \
  -- --set output.every=100 >"$tmp/o1" 2>&1; rc=$?
ok sweep_writes_script "[ $rc = 0 ] && grep -qx '#SBATCH --array=0-2' '$D/sweep.sbatch'" || cat "$tmp/o1"
n0="0_time.duration=0.5"; n1="1_time.duration=1500"; n2="2_time.duration=1500.5"

j=$(sbatch --parsable "$D/sweep.sbatch" 2>"$tmp/sb1"); rc=$?
ok sbatch_accepts "[ $rc = 0 ] && [ -n '$j' ]" || cat "$tmp/sb1"
# both long points running and writing (their .part files exist), then a
# second more so the cancel lands in the middle of the run
running() { [ "$(squeue -h -j "$j" -t RUNNING -o %K | sort -n | tr '\n' ' ')" = "1 2 " ] &&
  [ -f "$D/runs/$n1.h5.part" ] && [ -f "$D/runs/$n2.h5.part" ]; }
wait_for 60 running; rc=$?
ok long_points_running "[ $rc = 0 ]" || squeue -j "$j"
sleep 1
scancel "${j}_1"
# the simc of point 2 (the only process run from that file, found by its
# path) killed as by the OOM killer
for p in $(pgrep -f -- "$D/runs/$n2.h5.part"); do
  [ "$(readlink "/proc/$p/exe")" = "$SIMC" ] && kill -KILL "$p"
done
slurm_wait_job "$j" 60; rc=$?
ok array_left_queue_within_60s "[ $rc = 0 ]"
slurm_task_states "$j" >"$tmp/states"
ok task_states "[ \"\$(tr '\n' ' ' <'$tmp/states')\" = '0 COMPLETED 0:0 1 CANCELLED 143:0 2 FAILED 137:0 ' ]" \
  || cat "$tmp/states"
# the records: exit 128 + signal, the signal, the point's command
ok joblog_of_cancelled_task "[ \"\$(cut -f2,7,8 '$D/logs/slurm-task-1.joblog')\" = \"\$(printf '%s\t143\t15' $SLURM_NODE)\" ] && \
  [ \"\$(cut -f9- '$D/logs/slurm-task-1.joblog')\" = \"\$(sed -n 2p '$D/jobs.txt')\" ]" \
  || cat "$D/logs/slurm-task-1.joblog"
ok joblog_of_killed_task "[ \"\$(cut -f2,7,8 '$D/logs/slurm-task-2.joblog')\" = \"\$(printf '%s\t137\t9' $SLURM_NODE)\" ] && \
  [ \"\$(cut -f9- '$D/logs/slurm-task-2.joblog')\" = \"\$(sed -n 3p '$D/jobs.txt')\" ]" \
  || cat "$D/logs/slurm-task-2.joblog"
# the task recorded its end only after simc had closed the file: the
# record's start + runtime is not before the .part's last modification
late=$(awk -F'\t' '{ printf "%.3f", $3 + $4 }' "$D/logs/slurm-task-1.joblog")
mt=$(stat -c %.3Y "$D/runs/$n1.h5.part")
ok record_after_simc_closed "awk -v a='$late' -v b='$mt' 'BEGIN { exit !(a >= b) }'" || echo "  record end $late, .part modified $mt"

# the partial outputs as simc left them
$PY - "$D/runs/$n1.h5.part" "$D/runs/$n2.h5.part" >"$tmp/part" 2>&1 <<'EOF'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    st = f.attrs["status"]
    st = st.decode() if isinstance(st, bytes) else str(st)
    t = f["time"][...]
    n = f["q"].shape[0]
    # frames every 100 steps of 1 ms: t = 0, 0.1, 0.2, ... s, q and v one row per frame
    assert st == "interrupted", st
    assert n >= 2 and f["v"].shape[0] == n and t.shape[0] == n, (n, t.shape)
    assert np.allclose(t, 0.1 * np.arange(n), rtol=0, atol=1e-9), t[:3]
    assert 0 < t[-1] < 1500, t[-1]
    assert np.all(np.isfinite(f["q"][...])), "q"
with h5py.File(sys.argv[2], "r") as f:
    st = f.attrs["status"]
    st = st.decode() if isinstance(st, bytes) else str(st)
    assert st == "running", st
print("ok")
EOF
ok partial_outputs "grep -qx ok '$tmp/part'" || cat "$tmp/part"
ok no_final_output_of_killed_points "[ ! -e '$D/runs/$n1.h5' ] && [ ! -e '$D/runs/$n2.h5' ] && [ -f '$D/runs/$n0.h5' ]"

tools/sweep scenes/box_incline_slip.yaml --out "$D" --summarize "${grid[@]}" -- --set output.every=100 >/dev/null 2>"$tmp/e2"; rc=$?
ok summarize_lists_killed_points "[ $rc = 1 ] && grep -q '^sweep: 2 of 3 points not complete:' '$tmp/e2' && \
  grep -qx '  1 runs/$n1.h5.part: status interrupted, exit signal 15' '$tmp/e2' && \
  grep -qx '  2 runs/$n2.h5.part: status running, exit signal 9' '$tmp/e2' && \
  grep -qx 'sweep: resubmit only these points: sbatch --array=1-2 $D/sweep.sbatch' '$tmp/e2'" || cat "$tmp/e2"
ok summary_rows "[ \"\$(cut -d, -f1,3,4 '$D/summary.csv' | tr '\n' ' ')\" = \
  'index,status,exit_code 0,complete,0 1,interrupted,signal 15 2,running,signal 9 ' ]" || cat "$D/summary.csv"

touch "$tmp/marker"
sleep 1
j2=$(sbatch --parsable --array=1-2 "$D/sweep.sbatch" 2>"$tmp/sb2"); rc=$?
ok resubmit_accepts "[ $rc = 0 ] && [ -n '$j2' ]" || cat "$tmp/sb2"
slurm_wait_job "$j2" 90; rc=$?
slurm_task_states "$j2" >"$tmp/states2"
ok resubmitted_tasks_complete "[ $rc = 0 ] && [ \"\$(tr '\n' ' ' <'$tmp/states2')\" = '1 COMPLETED 0:0 2 COMPLETED 0:0 ' ]" \
  || cat "$tmp/states2"
tools/sweep scenes/box_incline_slip.yaml --out "$D" --summarize "${grid[@]}" -- --set output.every=100 >/dev/null 2>"$tmp/e3"; rc=$?
ok sweep_complete "[ $rc = 0 ] && [ \"\$(cut -d, -f1,3,4,5 '$D/summary.csv' | tr '\n' ' ')\" = \
  'index,status,exit_code,final_time_s 0,complete,0,0.5 1,complete,0,1500 2,complete,0,1500.5 ' ]" \
  || { cat "$tmp/e3" "$D/summary.csv"; }
ok records_of_resubmitted_tasks "[ \"\$(cat '$D'/logs/slurm-task-{1,2}.joblog | cut -f7,8 | tr '\t\n' '  ')\" = '0 0 0 0 ' ]"
ok parts_renamed_point0_untouched "[ -z \"\$(ls '$D/runs' | grep '\\.part\$')\" ] && \
  [ -z \"\$(find '$D/runs' -name '0_*.h5' -newer '$tmp/marker')\" ] && \
  [ \$(find '$D/runs' -name '[12]_*.h5' -newer '$tmp/marker' | wc -l) = 2 ]"

echo "slurm kill test: $(( $(date +%s) - t_start )) s"
