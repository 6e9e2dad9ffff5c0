# Sourced by test/cluster/t_*.sh and tools/bench/bench.sh: a single-node Slurm
# cluster (munged, slurmctld, slurmd) and an sshd, started from Debian's
# packages in a directory of the caller's, on 127.0.0.1 only, with nothing
# read from /etc/slurm, /etc/munge or /etc/ssh.  Every wait is bounded; the
# caller's trap runs cluster_stop_all.
#
#   slurm_why_not            prints why a local Slurm cannot start here (status 0), or nothing (status 1)
#   slurm_start DIR          munged + slurmctld + slurmd; exports SLURM_CONF; sets SLURM_NODE
#   slurm_wait_job ID SECS   waits until job ID (all its array tasks) left the queue
#   slurm_task_states ID     "task state exitcode" lines from scontrol, sorted by task
#   sshd_why_not / sshd_start DIR   sets SSH_CFG (an ssh -F file) and SSH_HOST (its alias)
#   cluster_stop_all         cancels the jobs and stops every daemon started here
#   cluster_test_begin LABEL WHY_NOT   the common start of a test (below)

CLUSTER_PIDS=()          # daemons started here, stopped in reverse order
CLUSTER_SLURM_DIR=""

sbin() {  # the path of a daemon (in /usr/sbin, often not on a user's PATH)
  command -v "$1" 2>/dev/null || { [ -x "/usr/sbin/$1" ] && echo "/usr/sbin/$1"; }
}

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for SECS CMD...: run CMD every 0.2 s until it succeeds or SECS pass
wait_for() {
  local end=$(( $(date +%s) + $1 )); shift
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -ge "$end" ] && return 1
    sleep 0.2
  done
}

# start_bg LOG CMD...: start CMD in the background, remember its pid
start_bg() {
  local log=$1; shift
  "$@" >"$log" 2>&1 </dev/null &
  CLUSTER_PIDS+=($!)
}

slurm_why_not() {
  local c
  for c in munged slurmctld slurmd; do
    [ -n "$(sbin $c)" ] || { echo "$c is not installed (apt-get install slurm-wlm munge; make test-cluster installs them as root)"; return 0; }
  done
  for c in munge unmunge sbatch squeue scontrol sinfo scancel; do
    command -v $c >/dev/null || { echo "$c is not installed (apt-get install slurm-wlm munge)"; return 0; }
  done
  # slurmd starts each job as the submitting user (setuid, its groups, its
  # environment): as anyone but root it refuses to launch jobs
  [ "$(id -u)" = 0 ] || { echo "not root: slurmd must run as root to start jobs as the submitting user"; return 0; }
  return 1
}

slurm_start() {
  local d=$1 node cpuline ctld_port d_port
  CLUSTER_SLURM_DIR=$d
  mkdir -p "$d/state" "$d/spool" "$d/log"
  # munged refuses a key readable by others
  head -c 1024 /dev/urandom >"$d/munge.key" && chmod 600 "$d/munge.key"
  start_bg "$d/log/munged.out" "$(sbin munged)" --foreground --force --socket="$d/munge.socket" \
    --key-file="$d/munge.key" --pid-file="$d/munged.pid" --seed-file="$d/munged.seed" \
    --log-file="$d/log/munged.log"
  if ! wait_for 15 bash -c "munge -S '$d/munge.socket' -n | unmunge -S '$d/munge.socket'"; then
    echo "munged did not come up within 15 s:"; tail -5 "$d/log/munged.out"; return 1
  fi
  # the node as slurmd sees it: the short host name, the real CPU layout and memory
  cpuline=$("$(sbin slurmd)" -C | grep -m1 '^NodeName=')
  node=$(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' <<<"$cpuline")
  [ -n "$node" ] || { echo "slurmd -C printed no NodeName line"; return 1; }
  SLURM_NODE=$node
  ctld_port=$(free_port); d_port=$(free_port)
  while [ "$d_port" = "$ctld_port" ]; do d_port=$(free_port); done
  # batch_sched_delay=0: Slurm's default (3 s) lets one array task start per
  # 3 s on an otherwise idle node (21.7 s for 8 tasks of 0.2 s, against 7.3 s
  # without it); SLURM_SCHED_PARAMS="" keeps Slurm's defaults.
  # accounting_storage/none: sacct needs slurmdbd (and a MySQL server) for
  # array jobs; the controller's own record of every task (JobState,
  # ExitCode) is jobcomp/filetxt, and scontrol shows finished jobs for
  # MinJobAge seconds
  cat >"$d/slurm.conf" <<EOF
ClusterName=simctest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
PlugStackConfig=$d/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$d/jobcomp.txt
SchedulerType=sched/backfill
$(p=${SLURM_SCHED_PARAMS-batch_sched_delay=0,sched_min_interval=0}; [ -n "$p" ] && echo "SchedulerParameters=$p")
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
MpiDefault=none
ReturnToService=2
MinJobAge=900
KillWait=5
SlurmctldDebug=info
SlurmdDebug=info
$cpuline NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=simctest Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  : >"$d/plugstack.conf"
  export SLURM_CONF=$d/slurm.conf
  start_bg "$d/log/slurmctld.out" "$(sbin slurmctld)" -D -c -f "$d/slurm.conf"
  start_bg "$d/log/slurmd.out" "$(sbin slurmd)" -D -f "$d/slurm.conf"
  if ! wait_for 30 bash -c "sinfo -h -N -o %T | grep -qx idle"; then
    echo "the node did not become idle within 30 s:"
    tail -5 "$d/log/slurmctld.out" "$d/log/slurmd.out"; sinfo 2>&1 | tail -3; return 1
  fi
}

slurm_wait_job() {  # ID SECS
  wait_for "$2" bash -c "[ -z \"\$(squeue -h -j '$1' -o %i 2>/dev/null)\" ] && scontrol -o show job '$1' >/dev/null"
}

slurm_task_states() {  # ID: "task state exitcode", one line per array task
  scontrol -o show job "$1" | sed -n 's/.*ArrayTaskId=\([0-9]*\) .* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\).*/\1 \2 \3/p' | sort -n
}

sshd_why_not() {
  [ -n "$(sbin sshd)" ] || { echo "sshd is not installed (apt-get install openssh-server)"; return 0; }
  command -v ssh >/dev/null && command -v ssh-keygen >/dev/null ||
    { echo "ssh is not installed (apt-get install openssh-client)"; return 0; }
  # root's sshd separates privileges into this compiled-in directory
  if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
    mkdir -p -m 0755 /run/sshd 2>/dev/null || { echo "cannot create /run/sshd (sshd's privilege separation directory)"; return 0; }
  fi
  return 1
}

sshd_start() {
  local d=$1 port strict=yes p user
  mkdir -p "$d" && chmod 700 "$d"
  user=$(id -un)
  ssh-keygen -q -t ed25519 -N '' -C simc-test-host -f "$d/host_key" || return 1
  ssh-keygen -q -t ed25519 -N '' -C simc-test-user -f "$d/id" || return 1
  cp "$d/id.pub" "$d/authorized_keys" && chmod 600 "$d/authorized_keys"
  # StrictModes refuses an authorized_keys file below a group- or
  # world-writable directory (such as /tmp); keep it on when the path allows
  p=$d
  while [ "$p" != / ]; do
    if [ -n "$(find "$p" -maxdepth 0 -perm /022)" ]; then strict=no; echo "sshd: StrictModes no ($p is group- or world-writable)"; break; fi
    p=$(dirname "$p")
  done
  port=$(free_port)
  cat >"$d/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
StrictModes $strict
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
AllowUsers $user
PrintMotd no
MaxStartups 100
MaxSessions 100
LogLevel INFO
EOF
  echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/host_key.pub")" >"$d/known_hosts"
  SSH_HOST=simc-test-node
  SSH_CFG=$d/ssh_config
  cat >"$SSH_CFG" <<EOF
Host $SSH_HOST
  HostName 127.0.0.1
  Port $port
  User $user
  IdentityFile $d/id
  IdentitiesOnly yes
  UserKnownHostsFile $d/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 10
  LogLevel ERROR
EOF
  "$(sbin sshd)" -t -f "$d/sshd_config" || { echo "sshd -t rejected $d/sshd_config"; return 1; }
  start_bg "$d/sshd.log" "$(sbin sshd)" -D -e -f "$d/sshd_config"
  if ! wait_for 15 ssh -F "$SSH_CFG" "$SSH_HOST" true; then
    echo "ssh to 127.0.0.1:$port failed for 15 s:"; tail -5 "$d/sshd.log"
    ssh -F "$SSH_CFG" "$SSH_HOST" true 2>&1 | tail -3; return 1
  fi
}

cluster_stop_all() {
  local i pid ids
  if [ -n "$CLUSTER_SLURM_DIR" ] && [ -n "${SLURM_CONF:-}" ]; then
    ids=$(squeue -h -o %A 2>/dev/null | sort -u)
    [ -n "$ids" ] && scancel $ids 2>/dev/null
    [ -n "$ids" ] && wait_for 20 bash -c '[ -z "$(squeue -h 2>/dev/null)" ]'
    CLUSTER_SLURM_DIR=""  # squeue without a controller retries for 10 s
  fi
  for (( i = ${#CLUSTER_PIDS[@]} - 1; i >= 0; i-- )); do
    pid=${CLUSTER_PIDS[$i]}
    kill -TERM "$pid" 2>/dev/null || continue
    wait_for 10 bash -c "! kill -0 $pid" || kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  CLUSTER_PIDS=()
}

# cluster_test_begin LABEL WHY_NOT: the start every cluster test shares.
# Prints "SKIP LABEL: reason" and exits 0 when WHY_NOT (slurm_why_not or
# sshd_why_not) says the daemons cannot run here; otherwise sets tmp (a new
# directory under build/, removed at exit unless KEEP is set, after
# cluster_stop_all) and t_start, and defines ok NAME CHECK.
cluster_test_begin() {
  local why
  if why=$($2); then echo "SKIP $1: $why"; exit 0; fi
  mkdir -p build
  tmp=$(mktemp -d "$PWD/build/$1-test.XXXXXX")
  trap 'cluster_stop_all; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
  trap 'exit 130' INT TERM
  t_start=$(date +%s)
}
ok() { if eval "$2"; then echo "PASS $1"; else echo "FAIL $1"; echo "  check: $2"; return 1; fi; }
