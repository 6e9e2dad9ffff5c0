#!/usr/bin/env bash
# tools/sweep: a 2x3 grid through GNU parallel (files, summary, the values
# reaching simc, checked against the analytic sliding speed on the incline),
# resume after deleting / corrupting outputs, the Slurm array script (and a
# task signalled as Slurm does), failing points and zipped --list keys, dry
# run, usage errors.
set -u
cd "$(dirname "$0")/.." || exit 1
BIN=${BIN:-bin}
PY=/usr/bin/python3
export SIMC="$PWD/$BIN/simc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh
nlines() { grep -c . "$1" 2>/dev/null || echo 0; }

D=$tmp/s1
t0=$(date +%s.%N)
tools/sweep scenes/box_incline_slip.yaml --out "$D" --jobs 2 \
  --grid integrator.scheme=implicit_euler,midpoint --grid contact.defaults.friction=0.1:0.5:3 \
  -- --duration 0.05 --set contact.model=sap >"$tmp/o1" 2>"$tmp/e1"; rc=$?
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "sweep 2x3 wall time: %.2f s\n", b - a }'
ok sweep_exit0 "[ $rc = 0 ]"
ok six_outputs "[ \$(ls '$D'/runs/*.h5 | wc -l) = 6 ]"
ok names "[ -f '$D/runs/0_integrator.scheme=implicit_euler_contact.defaults.friction=0.1.h5' ] && \
  [ -f '$D/runs/5_integrator.scheme=midpoint_contact.defaults.friction=0.5.h5' ]"
ok jobs_txt_six "[ \$(nlines '$D/jobs.txt') = 6 ]"
# parallel's job log (host ':' = this machine): one line per run, exit values 0
ok ran_by_parallel "[ \$(nlines '$D/joblog.txt') = 6 ] && [ \"\$(cut -f2,7 '$D/joblog.txt' | sort -u | tr '\t' ' ')\" = ': 0' ]"
# (contact.model=sap: the box starts at rest exactly touching, where the
# lagged model has no friction in its first step, n0 = 0, an O(dt) offset
# the reference below does not carry)
# summary rows: the product in order (first key slowest), every run complete,
# and what simc recorded (scene_yaml after overrides, scheme attribute) and
# did (the box's speed after T = 0.05 s against g (sin a - mu cos a) T, or 0
# when mu >= tan a) agree with the row's parameters
$PY - "$D" >"$tmp/chk" 2>&1 <<'EOF'
import csv, math, re, sys, h5py, numpy as np
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/summary.csv")))
assert len(rows) == 6, "rows %d" % len(rows)
want = [(s, m) for s in ("implicit_euler", "midpoint") for m in (0.1, 0.3, 0.5)]
par = list(csv.DictReader(open(d + "/params.csv")))
for i, (r, p, (s, m)) in enumerate(zip(rows, par, want)):
    assert int(r["index"]) == i and r["integrator.scheme"] == s, r
    assert r["contact.defaults.friction"] == repr(m), r["contact.defaults.friction"]
    assert p["integrator.scheme"] == s and p["contact.defaults.friction"] == repr(m) and p["output"] == r["output"]
    assert r["status"] == "complete" and r["exit_code"] == "0", r
    assert r["steps"] == "50" and abs(float(r["final_time_s"]) - 0.05) < 1e-12, r
    assert 0 <= float(r["max_penetration_m"]) < 1e-4 and 1 <= float(r["iter_mean"]) <= float(r["iter_max"]), r
    with h5py.File(r["output"], "r") as f:
        y = f.attrs["scene_yaml"]
        y = y.decode() if isinstance(y, bytes) else str(y)
        sch = re.findall(r"^\s*scheme: *(\S+)\s*$", y, re.M)
        fr = re.findall(r"^\s*friction: *(\S+)\s*$", y, re.M)
        assert sch == [s] and len(fr) == 1 and float(fr[0]) == m, (sch, fr)
        assert f.attrs["scheme"] == s, f.attrs["scheme"]
        speed = float(np.linalg.norm(f["v"][-1, :3]))
        # reference drift from the file itself, independently of h5summary
        E = f["energy/total"][...] + f["energy/dissipated"][...]
        drift = E[-1] - E[0]
        assert abs(float(r["energy_drift_J"]) - drift) <= 1e-5 * abs(drift) + 1e-15, (r, drift)
        rel = drift / abs(f["energy/total"][0])
        assert abs(float(r["energy_drift_rel"]) - rel) <= 1e-5 * abs(rel) + 1e-15, (r, rel)
    a = 0.3
    ref = max(0.0, 9.81 * (math.sin(a) - m * math.cos(a))) * 0.05
    assert abs(speed - ref) <= 0.05 * ref + 2e-4, (i, speed, ref)
print("ok")
EOF
ok summary_params_and_physics "grep -qx ok '$tmp/chk' || { cat '$tmp/chk'; false; }"

# resume: delete one output, mark another interrupted, truncate a third;
# only those three run again, the other three files are not touched
r1="$D/runs/1_integrator.scheme=implicit_euler_contact.defaults.friction=0.3.h5"
r3="$D/runs/3_integrator.scheme=midpoint_contact.defaults.friction=0.1.h5"
r4="$D/runs/4_integrator.scheme=midpoint_contact.defaults.friction=0.3.h5"
rm -f "$r1"
$PY -c "import h5py,sys; f=h5py.File(sys.argv[1],'r+'); f.attrs['status']='interrupted'; f.close()" "$r3"
head -c 2000 "$r4" >"$tmp/trunc" && cat "$tmp/trunc" >"$r4"
touch "$tmp/marker"
tools/sweep scenes/box_incline_slip.yaml --out "$D" --jobs 2 \
  --grid integrator.scheme=implicit_euler,midpoint --grid contact.defaults.friction=0.1:0.5:3 \
  -- --duration 0.05 --set contact.model=sap >/dev/null 2>"$tmp/e2"; rc=$?
ok resume_exit0 "[ $rc = 0 ] && grep -q '6 points, 3 complete, 3 to run' '$tmp/e2'"
ok resume_only_three "[ \"\$(cd '$D/runs' && find . -name '*.h5' -newer '$tmp/marker' | sort | tr '\n' ' ')\" = \
  './1_integrator.scheme=implicit_euler_contact.defaults.friction=0.3.h5 ./3_integrator.scheme=midpoint_contact.defaults.friction=0.1.h5 ./4_integrator.scheme=midpoint_contact.defaults.friction=0.3.h5 ' ]"
ok resume_joblog_three_more "[ \$(nlines '$D/joblog.txt') = 9 ]"
ok resume_all_complete "[ \$(grep -c ',complete,0,' '$D/summary.csv') = 6 ]"
# a rerun with everything complete runs nothing
tools/sweep scenes/box_incline_slip.yaml --out "$D" \
  --grid integrator.scheme=implicit_euler,midpoint --grid contact.defaults.friction=0.1:0.5:3 \
  -- --duration 0.05 --set contact.model=sap >/dev/null 2>"$tmp/e3"; rc=$?
ok rerun_nothing "[ $rc = 0 ] && grep -q '6 complete, 0 to run' '$tmp/e3' && [ \$(nlines '$D/joblog.txt') = 9 ]"
# different extra arguments make the same names stale: rerun, not skipped
tools/sweep scenes/box_incline_slip.yaml --out "$D" --dry-run \
  --grid integrator.scheme=implicit_euler,midpoint --grid contact.defaults.friction=0.1:0.5:3 \
  -- --duration 0.04 >"$tmp/o4" 2>"$tmp/e4"; rc=$?
ok stale_command_rerun "[ $rc = 0 ] && grep -q '0 complete, 6 to run' '$tmp/e4' && [ \$(nlines '$tmp/o4') = 6 ]"

# Slurm: array 0-5, task i's command is jobs.txt line i+1, and it runs
tools/sweep scenes/box_incline_slip.yaml --out "$D" --slurm \
  --grid integrator.scheme=implicit_euler,midpoint --grid contact.defaults.friction=0.1:0.5:3 \
  -- --duration 0.05 --set contact.model=sap >"$tmp/o5" 2>&1; rc=$?
ok slurm_array "[ $rc = 0 ] && grep -qx '#SBATCH --array=0-5' '$D/sweep.sbatch' && grep -q 'sbatch ' '$tmp/o5'"
same=1
for i in 0 1 2 3 4 5; do
  a=$(SLURM_ARRAY_TASK_ID=$i SWEEP_DRY_RUN=1 bash "$D/sweep.sbatch")
  b=$(sed -n "$((i + 1))p" "$D/jobs.txt")
  [ -n "$a" ] && [ "$a" = "$b" ] || { same=0; echo "  task $i: '$a' vs '$b'"; }
done
ok slurm_task_is_jobs_line "[ $same = 1 ]"
rm -f "$r1"
SLURM_ARRAY_TASK_ID=1 bash "$D/sweep.sbatch"; rc=$?
tools/sweep scenes/box_incline_slip.yaml --out "$D" --summarize \
  --grid integrator.scheme=implicit_euler,midpoint --grid contact.defaults.friction=0.1:0.5:3 \
  -- --duration 0.05 --set contact.model=sap >/dev/null 2>&1; rc2=$?
ok slurm_task_runs "[ $rc = 0 ] && [ $rc2 = 0 ] && [ \$(grep -c ',complete,' '$D/summary.csv') = 6 ] && [ \$(nlines '$D/joblog.txt') = 9 ]"

# a Slurm task signalled as Slurm signals it (SIGTERM to every process of the
# task) whose program takes 1 s to close its output: the task records its end
# only after the program exited (Slurm kills whatever is left of a task when
# its script ends), with exit 143 and signal 15
printf '%s\n' '#!/bin/bash' "trap 'sleep 1; date +%s.%N >\"\$0.closed\"; exit 143' TERM" \
  ': >"$0.started"' 'sleep 60 & wait $!' >"$tmp/slow_close"
chmod +x "$tmp/slow_close"
K=$tmp/sk
tools/sweep scenes/box_incline_slip.yaml --out "$K" --slurm --simc "$tmp/slow_close" --grid contact.defaults.friction=0.1 >/dev/null 2>&1
SLURM_ARRAY_TASK_ID=0 setsid bash "$K/sweep.sbatch" 2>"$tmp/ek" &
pk=$!
for _ in $(seq 100); do [ -e "$tmp/slow_close.started" ] && break; sleep 0.1; done
kill -TERM -- -"$pk"; wait "$pk"; rc=$?
rec=$(awk -F'\t' '{ printf "%s %s %.3f", $7, $8, $3 + $4 }' "$K/logs/slurm-task-0.joblog" 2>/dev/null)
ok slurm_task_records_after_program_exit "[ $rc = 143 ] && [ '${rec% *}' = '143 15' ] && [ -s '$tmp/slow_close.closed' ] && \
  awk -v a='${rec##* }' -v b=\"\$(cat '$tmp/slow_close.closed')\" 'BEGIN { exit !(a >= b) }' && \
  grep -qx 'sweep task 0: SIGTERM' '$tmp/ek'" || { echo "  rc $rc, record '$rec', closed $(cat "$tmp/slow_close.closed" 2>/dev/null)"; cat "$tmp/ek"; }

# failing points, with zipped --list keys: (scheme, stiffness) pairs x time.step
# point 1, 3, 5: time.step = -1 is rejected (exit 1, no output);
# point 2: explicit Euler on an undamped 1e8 N/m spring diverges (exit 2, status failed)
F=$tmp/s2
tools/sweep scenes/spring_damper.yaml --out "$F" \
  --list integrator.scheme=implicit_euler,explicit_euler,implicit_euler --list springs.0.stiffness=1e8,1e8,1e2 \
  --grid time.step=1e-2,-1 -- --set springs.0.damping=0 --duration 1 >/dev/null 2>"$tmp/e6"; rc=$?
ok fail_exit1 "[ $rc = 1 ]"
ok fail_listed "grep -q '4 of 6 points not complete' '$tmp/e6' && grep -q '^  1 runs/1_integrator.scheme=implicit_euler_springs.0.stiffness=1e8_time.step=-1.h5: status missing, exit 1' '$tmp/e6' \
  && grep -q '^  2 runs/2_.*status failed: .*exit 2' '$tmp/e6' && grep -q '^  3 runs/3_' '$tmp/e6' && grep -q '^  5 runs/5_' '$tmp/e6' \
  && ! grep -q '^  [04] ' '$tmp/e6'"
ok fail_reason_in_listing "grep '^  1 ' '$tmp/e6' | grep -q 'time.step'"
$PY - "$F/summary.csv" >"$tmp/chk2" 2>&1 <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r["index"], r["integrator.scheme"], r["springs.0.stiffness"], r["time.step"], r["status"].split(":")[0], r["exit_code"]) for r in rows]
want = [("0", "implicit_euler", "1e8", "1e-2", "complete", "0"), ("1", "implicit_euler", "1e8", "-1", "missing", "1"),
        ("2", "explicit_euler", "1e8", "1e-2", "failed", "2"), ("3", "explicit_euler", "1e8", "-1", "missing", "1"),
        ("4", "implicit_euler", "1e2", "1e-2", "complete", "0"), ("5", "implicit_euler", "1e2", "-1", "missing", "1")]
print("ok" if got == want else got)
EOF
ok fail_summary_codes_and_zip "grep -qx ok '$tmp/chk2' || { cat '$tmp/chk2'; false; }"

# --sshlogin goes to parallel (':' is this machine, no ssh needed)
S=$tmp/s4
tools/sweep scenes/box_incline_slip.yaml --out "$S" --sshlogin 2/: --grid contact.defaults.friction=0.1,0.5 \
  -- --duration 0.02 >/dev/null 2>&1; rc=$?
ok sshlogin_local "[ $rc = 0 ] && [ \$(grep -c ',complete,0,' '$S/summary.csv') = 2 ] && [ \$(nlines '$S/joblog.txt') = 2 ]"

# dry run: prints the job list, writes jobs.txt / params.csv, runs nothing
R=$tmp/s3
tools/sweep scenes/box_incline_slip.yaml --out "$R" --dry-run --grid time.step=1e-3:2e-3:3 >"$tmp/o7" 2>/dev/null; rc=$?
ok dry_run "[ $rc = 0 ] && cmp -s '$tmp/o7' '$R/jobs.txt' && [ \$(nlines '$R/jobs.txt') = 3 ] && \
  [ \"\$(cut -d, -f2 '$R/params.csv' | tr '\n' ' ')\" = 'time.step 0.001 0.0015 0.002 ' ] && [ -z \"\$(ls '$R/runs')\" ] && [ ! -e '$R/joblog.txt' ]"

# usage errors: exit 2 with a message
tools/sweep scenes/box_incline_slip.yaml --out "$R" --list a=1,2 --list b=1,2,3 2>"$tmp/e8"; rc=$?
ok list_lengths "[ $rc = 2 ] && grep -q 'equal lengths' '$tmp/e8'"
tools/sweep scenes/box_incline_slip.yaml --out "$R" --grid a=0:1:x 2>"$tmp/e8"; rc=$?
ok bad_range "[ $rc = 2 ] && grep -q 'a range is a:b:n' '$tmp/e8'"
tools/sweep scenes/box_incline_slip.yaml --out "$R" --grid a=1,2 -- -o x.h5 2>"$tmp/e8"; rc=$?
ok no_output_override "[ $rc = 2 ] && grep -q 'must not set the output' '$tmp/e8'"

# hostile values: a newline in a value, a key or the scene path would split a
# line of jobs.txt and run the rest as a shell command; refused (exit 2)
H=$tmp/s5
rm -f "$tmp/pwned"
tools/sweep scenes/box_incline_slip.yaml --out "$H" --list "name=a
touch $tmp/pwned" 2>"$tmp/e9"; rc=$?
ok newline_in_value "[ $rc = 2 ] && grep -q 'control character' '$tmp/e9' && [ ! -e '$tmp/pwned' ] && [ ! -e '$H/jobs.txt' ]"
cp scenes/box_incline_slip.yaml "$tmp/a
b.yaml"
tools/sweep "$tmp/a
b.yaml" --out "$H" --grid contact.defaults.friction=0.1 2>"$tmp/e9"; rc=$?
ok newline_in_scene_path "[ $rc = 2 ] && grep -q 'control character' '$tmp/e9' && [ ! -e '$H/jobs.txt' ]"
tools/sweep scenes/box_incline_slip.yaml --out "$H" --grid contact.defaults.friction=0.1 -- "--duration
0.1" 2>"$tmp/e9"; rc=$?
ok newline_in_extra_arg "[ $rc = 2 ] && grep -q 'control character' '$tmp/e9'"
# shell metacharacters are quoted, not run: the value reaches simc verbatim
tools/sweep scenes/box_incline_slip.yaml --out "$H" --dry-run --list "name=x;touch $tmp/pwned;\$(touch $tmp/pwned)" \
  >/dev/null 2>&1; rc=$?
bash -c "$(sed -n 1p "$H/jobs.txt")" >/dev/null 2>&1
ok metachars_quoted "[ $rc = 0 ] && [ ! -e '$tmp/pwned' ]"

# a rerun with a mistyped simc argument fails every point but keeps the
# complete outputs (written to .part, renamed only on success)
K=$tmp/s6
tools/sweep scenes/box_incline_slip.yaml --out "$K" --grid contact.defaults.friction=0.1,0.5 \
  -- --duration 0.02 >/dev/null 2>&1; rc=$?
mkdir -p "$tmp/keep" && cp "$K"/runs/*.h5 "$tmp/keep/"
tools/sweep scenes/box_incline_slip.yaml --out "$K" --grid contact.defaults.friction=0.1,0.5 \
  -- --duration 0.02 --duratoin 0.02 >/dev/null 2>"$tmp/e10"; rc2=$?
same=1; for f in "$tmp"/keep/*.h5; do cmp -s "$f" "$K/runs/$(basename "$f")" || same=0; done
ok mistyped_rerun_keeps_outputs "[ $rc = 0 ] && [ $rc2 = 1 ] && [ \$(ls '$tmp'/keep/*.h5 | wc -l) = 2 ] && [ $same = 1 ] \
  && grep -q '2 of 2 points not complete' '$tmp/e10' && [ \$(grep -c 'kept the complete output' '$K/summary.csv') = 2 ]"
# the correct command again: both outputs are still current, nothing runs
tools/sweep scenes/box_incline_slip.yaml --out "$K" --grid contact.defaults.friction=0.1,0.5 \
  -- --duration 0.02 >/dev/null 2>"$tmp/e11"; rc=$?
ok rerun_after_mistype_resumes "[ $rc = 0 ] && grep -q '2 points, 2 complete, 0 to run' '$tmp/e11'"

# resume follows the inputs, not only the command line: editing the scene, a
# command table or a mesh it reads reruns the points (a comment does not)
I=$tmp/s_inputs; mkdir -p "$tmp/in"
cp scenes/arm_torque.yaml scenes/arm_torque.csv test/meshes/cube.obj "$tmp/in/"
sed -i 's/^static:$/static:\n  - {shape: mesh, file: cube.obj, pose: {position: [2, 2, 0.5]}}/' "$tmp/in/arm_torque.yaml"
insweep() { tools/sweep "$tmp/in/arm_torque.yaml" --out "$I" --grid contact.defaults.friction=0.1,0.5 \
  -- --duration 0.01 >/dev/null 2>"$tmp/e_in"; }
insweep; rc=$?
insweep; rc2=$?
ok inputs_unchanged_resume "[ $rc = 0 ] && [ $rc2 = 0 ] && grep -q '2 points, 2 complete, 0 to run' '$tmp/e_in'"
echo '# only a comment' >>"$tmp/in/arm_torque.yaml"
insweep; rc=$?
ok inputs_comment_resume "[ $rc = 0 ] && grep -q '2 points, 2 complete, 0 to run' '$tmp/e_in'"
sed -i 's/^0.1,2.0,0.5$/0.1,2.5,0.5/' "$tmp/in/arm_torque.csv"
insweep; rc=$?
ok inputs_csv_reruns "[ $rc = 0 ] && grep -q '2 points, 0 complete, 2 to run' '$tmp/e_in' && \
  [ \$(grep -c 'complete but its inputs changed' '$tmp/e_in') = 2 ]"
insweep; rc=$?
ok inputs_csv_then_resume "[ $rc = 0 ] && grep -q '2 points, 2 complete, 0 to run' '$tmp/e_in' && \
  [ \$(grep -c ',complete,0,' '$I/summary.csv') = 2 ]"
sed -i 's/^v 1\(.*\)$/v 1.5\1/' "$tmp/in/cube.obj"
insweep; rc=$?
ok inputs_mesh_reruns "[ $rc = 0 ] && grep -q '2 points, 0 complete, 2 to run' '$tmp/e_in'"
sed -i 's/mass: 0.3$/mass: 0.4/' "$tmp/in/arm_torque.yaml"
insweep; rc=$?
ok inputs_scene_reruns "[ $rc = 0 ] && grep -q '2 points, 0 complete, 2 to run' '$tmp/e_in'"
# a --from file is an input too: a new start state reruns the points
"$SIMC" "$tmp/in/arm_torque.yaml" --duration 0.005 -q -o "$tmp/start.h5"
fsweep() { tools/sweep "$tmp/in/arm_torque.yaml" --out "$tmp/s_from" --grid contact.defaults.friction=0.1,0.5 \
  -- --duration 0.01 --from "$tmp/start.h5" >/dev/null 2>"$tmp/e_from"; }
fsweep; rc=$?
fsweep; rc2=$?
ok inputs_from_resume "[ $rc = 0 ] && [ $rc2 = 0 ] && grep -q '2 points, 2 complete, 0 to run' '$tmp/e_from'"
"$SIMC" "$tmp/in/arm_torque.yaml" --duration 0.006 -q --force -o "$tmp/start.h5"
fsweep; rc=$?
ok inputs_from_reruns "[ $rc = 0 ] && grep -q '2 points, 0 complete, 2 to run' '$tmp/e_from'"
d_now=$("$SIMC" "$tmp/in/arm_torque.yaml" --set contact.defaults.friction=0.1 --duration 0.01 --digest)
d_file=$($PY -c 'import h5py,sys; print(h5py.File(sys.argv[1],"r").attrs["input_digest"])' "$I"/runs/0_*.h5)
ok inputs_digest_recorded "[ \${#d_now} = 64 ] && [ '$d_now' = '$d_file' ]"

# an output directory that cannot be created: one line, exit 3, no traceback
: >"$tmp/plainfile"
tools/sweep scenes/box_incline_slip.yaml --out "$tmp/plainfile/sub" --grid contact.defaults.friction=0.1 \
  >/dev/null 2>"$tmp/e12"; rc=$?
ok out_not_creatable "[ $rc = 3 ] && [ \$(wc -l <'$tmp/e12') = 1 ] && grep -q '^sweep: cannot create or write the output directory' '$tmp/e12'"
tools/sweep scenes/box_incline_slip.yaml --out /proc/sweep-out --grid contact.defaults.friction=0.1 \
  >/dev/null 2>"$tmp/e12"; rc=$?
ok out_read_only "[ $rc = 3 ] && [ \$(wc -l <'$tmp/e12') = 1 ] && ! grep -q Traceback '$tmp/e12'"

# Slurm options: resources and site lines land in the script, in the places
# sbatch reads them (every #SBATCH line before the first command, the
# header's after the sweep's so that they win); misuse is a usage error
Z=$tmp/s7
printf '#!/bin/bash\nmodule load hdf5\n#SBATCH --partition=short\nexport SITE=1\n' >"$tmp/hdr"
tools/sweep scenes/box_incline_slip.yaml --out "$Z" --slurm --cpus-per-task 2 --mem 2G --time 1-02:30 \
  --slurm-header "$tmp/hdr" --grid contact.defaults.friction=0.1,0.5 >/dev/null 2>&1; rc=$?
grep -n '^#SBATCH\|^module\|^export\|^set -eu' "$Z/sweep.sbatch" | sed 's/^\([0-9]*\):/\1 /' >"$tmp/sb7"
$PY - "$tmp/sb7" >"$tmp/chk7" 2>&1 <<'PYEOF'
import sys
lines = [l.rstrip("\n").split(" ", 1) for l in open(sys.argv[1])]
text = [t for _, t in lines]
n = {t: int(k) for k, t in lines}
want = ["#SBATCH --cpus-per-task=2", "#SBATCH --mem=2G", "#SBATCH --time=1-02:30", "#SBATCH --partition=short"]
assert all(w in n for w in want), text
last_sbatch = max(n[t] for t in text if t.startswith("#SBATCH"))
assert last_sbatch == n["#SBATCH --partition=short"], text
assert last_sbatch < n["module load hdf5"] < n["export SITE=1"] < n["set -eu"], text
print("ok")
PYEOF
ok slurm_resources_and_header "[ $rc = 0 ] && grep -qx ok '$tmp/chk7' || { cat '$tmp/chk7'; false; }"
tools/sweep scenes/box_incline_slip.yaml --out "$Z" --mem 2G --grid a=1 2>"$tmp/e7"; rc=$?
ok mem_needs_slurm "[ $rc = 2 ] && grep -q -- '--mem applies only with --slurm' '$tmp/e7'"
tools/sweep scenes/box_incline_slip.yaml --out "$Z" --slurm --time 90min --grid a=1 2>"$tmp/e7"; rc=$?
ok bad_time "[ $rc = 2 ] && grep -q -- '--time 90min: expected minutes' '$tmp/e7'"
tools/sweep scenes/box_incline_slip.yaml --out "$Z" --slurm --mem 2GB --grid a=1 2>"$tmp/e7"; rc=$?
ok bad_mem "[ $rc = 2 ] && grep -q -- '--mem 2GB: expected a size' '$tmp/e7'"
tools/sweep scenes/box_incline_slip.yaml --out "$Z" --ssh 'ssh -p 2222' --grid a=1 2>"$tmp/e7"; rc=$?
ok ssh_needs_sshlogin "[ $rc = 2 ] && grep -q -- '--ssh applies only with --sshlogin' '$tmp/e7'"
# the BLAS kernel choice travels on the job line (a remote shell does not inherit it)
OPENBLAS_CORETYPE=Haswell tools/sweep scenes/box_incline_slip.yaml --out "$Z" --dry-run --grid a=1 >"$tmp/o7" 2>/dev/null
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE tools/sweep scenes/box_incline_slip.yaml --out "$Z" --dry-run --grid a=1 >"$tmp/o8" 2>/dev/null
ok coretype_on_job_line "grep -q '^OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_CORETYPE=Haswell ' '$tmp/o7' && \
  grep -q '^OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 /' '$tmp/o8'"
