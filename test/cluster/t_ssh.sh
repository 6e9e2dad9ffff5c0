#!/usr/bin/env bash
# tools/sweep --sshlogin through a real sshd started here (Debian's
# openssh-server, a throwaway host key and user key, 127.0.0.1 on a free
# port, nothing read from /etc/ssh): every point runs through ssh (parallel's
# job log names the ssh host, sshd logs one public-key login per job), the
# outputs land in the shared directory, and summary.csv and every output's
# q and v equal those of the same sweep run locally, bit for bit.  A point
# with a bad --set value fails over ssh with simc's exit code.
# Prints "SKIP <reason>" and no PASS/FAIL line when sshd cannot run.
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${BIN:-bin}
PY=/usr/bin/python3
export SIMC="$PWD/$BIN/simc"
. test/cluster/lib.sh
cluster_test_begin ssh sshd_why_not
nlines() { grep -c . "$1" 2>/dev/null || echo 0; }

if ! sshd_start "$tmp/ssh" >"$tmp/start.log" 2>&1; then
  echo "FAIL sshd_start"; cat "$tmp/start.log"; exit 1
fi
cat "$tmp/start.log"
echo "sshd up in $(( $(date +%s) - t_start )) s ($SSH_HOST in $SSH_CFG)"
# a command over this ssh runs in a login session of its own
ok ssh_runs_remote_shell "[ \"\$(ssh -F '$SSH_CFG' '$SSH_HOST' 'echo \${SSH_CONNECTION%% *}')\" = 127.0.0.1 ]"

grid=(--grid integrator.scheme=implicit_euler,midpoint --grid contact.defaults.friction=0.1:0.5:3)
L=$tmp/local
S=$tmp/remote
tools/sweep scenes/box_incline_slip.yaml --out "$L" --jobs 2 "${grid[@]}" -- --duration 0.05 >/dev/null 2>"$tmp/el"; rcl=$?
n0=$(grep -c 'Accepted publickey' "$tmp/ssh/sshd.log")
tools/sweep scenes/box_incline_slip.yaml --out "$S" --sshlogin "2/$SSH_HOST" --ssh "ssh -F $SSH_CFG" \
  "${grid[@]}" -- --duration 0.05 >/dev/null 2>"$tmp/es"; rcs=$?
n1=$(grep -c 'Accepted publickey' "$tmp/ssh/sshd.log")
ok both_sweeps_exit0 "[ $rcl = 0 ] && [ $rcs = 0 ]" || cat "$tmp/el" "$tmp/es"
ok outputs_in_shared_dir "[ \$(ls '$S'/runs/*.h5 | wc -l) = 6 ] && [ -z \"\$(ls '$S'/runs/ | grep -v '\.h5$')\" ]"
# parallel's job log: six runs, on the ssh host, exit 0
ok joblog_host_is_ssh "[ \$(nlines '$S/joblog.txt') = 6 ] && [ \"\$(cat '$S/joblog.txt' | cut -f2,7 | sort -u | tr '\t' ' ')\" = '$SSH_HOST 0' ]"
ok one_ssh_login_per_job "[ \$(( $n1 - $n0 )) -ge 6 ]"
# summary.csv: the same rows but for the wall times and the output paths
$PY - "$L" "$S" >"$tmp/cmp" 2>&1 <<'EOF'
import csv, glob, os, sys, h5py
L, S = sys.argv[1:]
a = list(csv.DictReader(open(L + "/summary.csv")))
b = list(csv.DictReader(open(S + "/summary.csv")))
assert len(a) == len(b) == 6, (len(a), len(b))
skip = {"solver_wall_s", "run_wall_s", "output"}
for ra, rb in zip(a, b):
    assert list(ra) == list(rb)
    for k in ra:
        if k not in skip:
            assert ra[k] == rb[k], (k, ra[k], rb[k])
    assert ra["status"] == "complete" and ra["exit_code"] == "0", ra
    assert os.path.basename(ra["output"]) == os.path.basename(rb["output"]) and rb["output"].startswith(S + "/runs/")
    with h5py.File(ra["output"], "r") as fa, h5py.File(rb["output"], "r") as fb:
        assert fa["q"].shape == fb["q"].shape == (51, 7), fa["q"].shape
        for k in ("time", "q", "v"):
            assert fa[k][...].tobytes() == fb[k][...].tobytes(), (ra["index"], k)
print("ok")
EOF
ok summary_and_qv_match_local "grep -qx ok '$tmp/cmp'" || cat "$tmp/cmp"

# a bad value over ssh: the point fails with simc's exit code, the other runs
F=$tmp/fail
tools/sweep scenes/box_incline_slip.yaml --out "$F" --sshlogin "2/$SSH_HOST" --ssh "ssh -F $SSH_CFG" \
  --grid time.step=1e-3,-1 -- --duration 0.02 >/dev/null 2>"$tmp/ef"; rc=$?
ok bad_value_fails_over_ssh "[ $rc = 1 ] && grep -q '^  1 runs/1_time.step=-1.h5: status missing, exit 1; .*time.step' '$tmp/ef' && \
  [ \"\$(cut -d, -f1,3,4 '$F/summary.csv' | tr '\n' ' ')\" = 'index,status,exit_code 0,complete,0 1,missing,1 ' ]" || cat "$tmp/ef"

t_stop=$(date +%s)
pids=("${CLUSTER_PIDS[@]}")
cluster_stop_all
alive=0; for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
ok sshd_stopped "[ ${#pids[@]} = 1 ] && [ $alive = 0 ] && ! ssh -F '$SSH_CFG' -o ConnectTimeout=2 '$SSH_HOST' true 2>/dev/null"
echo "ssh test: $(( t_stop - t_start )) s with sshd up"
