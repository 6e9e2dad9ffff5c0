#!/usr/bin/env bash
# Malformed simc outputs: test/make_bad_h5.py writes each variant of a valid
# file (wrong /body/position columns, /q with nq + 1 columns, negative,
# decreasing and out-of-range /contact/start, /time and every per-row
# dataset declaring 1e9 rows with nothing written, strings for numbers and
# numbers for names, missing /energy datasets, a truncated, an empty and a
# text file, ...).  simc-view, state_at.py, plot.py and h5summary.py must
# refuse every one with exit 1 and exactly one line on stderr, prefixed with
# the tool's name, holding the file and the dataset's name (or "cannot open"
# for a file that is not HDF5), never a Python traceback; h5summary.py's CSV
# row has the status "unreadable: <that line>".  Every call runs under a
# 2 GiB address-space limit (ulimit -v: reading a 1e9-row dataset would
# fail there with a MemoryError) and a 20 s timeout; the 1e9-row files must
# be refused within 10 s at under 400 MB resident (GNU time's %M, where
# /usr/bin/time is GNU time).  The variants the type rule accepts (integers
# or float32 where numbers are expected) and valid files (format_version 3
# with contacts, actuators and joint limits; clutter8; a run without
# contact rows; the gripper's file reduced to format_version 2 and 1) work
# with every tool, and simc_h5.Run reads a valid file's arrays as h5py does.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

if ! "$PY" -c 'import h5py, numpy, matplotlib' 2>/dev/null; then
  echo "FAIL python_modules ($PY lacks h5py/numpy/matplotlib; run:" \
       "sudo apt-get install -y python3-h5py python3-numpy python3-matplotlib)"
  exit 1
fi

"$BIN/simc" scenes/gripper_lift.yaml -o "$tmp/grip.h5" --duration 0.05 --quiet &&
"$BIN/simc" scenes/clutter8.yaml -o "$tmp/clutter.h5" --duration 0.05 --quiet &&
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/nc.h5" --duration 0.1 --set output.contacts=false \
  --quiet || { echo "FAIL simc_runs"; exit 1; }
# the gripper's file as format_version 2 (without what version 3 added) and 1
# (without the poses and shapes version 2 added)
"$PY" - "$tmp/grip.h5" "$tmp/v2.h5" "$tmp/v1.h5" <<'PY'
import shutil, sys, h5py
src, v2, v1 = sys.argv[1:]
shutil.copy(src, v2)
with h5py.File(v2, "r+") as f:
    for k in ("energy/damper", "energy/contact_normal", "energy/contact_friction",
              "energy/actuator", "energy/joint_limit", "contact/max_penetration",
              "contact/max_penetration_fraction", "solver/relinearizations", "actuator",
              "joint", "model/actuator_names", "model/actuators", "model/commands",
              "model/joint_range"):
        del f[k]
    f.attrs["format_version"] = 2
shutil.copy(v2, v1)
with h5py.File(v1, "r+") as f:
    for k in ("body", "model/geometry", "model/body_parent"):
        del f[k]
    f.attrs["format_version"] = 1
PY


# ---- the valid files: every tool works ----
for f in grip clutter nc v2; do
  for t in $H5_TOOLS; do
    limited $(tool $t "$tmp/$f.h5") >"$tmp/out" 2>"$tmp/err"; rc=$?
    case $t in
      state_at) ok "valid_${f}_$t" "[ $rc = 0 ] && [ \"\$(grep -v '^state_at: row' '$tmp/err')\" = '' ]" ;;
      h5summary.py) ok "valid_${f}_$t" "[ $rc = 0 ] && grep -q '^complete,' '$tmp/out' && [ ! -s '$tmp/err' ]" ;;
      *) ok "valid_${f}_$t" "[ $rc = 0 ] && [ ! -s '$tmp/err' ]" ;;
    esac
  done
done
# format_version 1: read by all but simc-view, which says why (no poses)
for t in state_at plot.py h5summary.py; do
  limited $(tool $t "$tmp/v1.h5") >"$tmp/out" 2>"$tmp/err"; rc=$?
  ok "valid_v1_$t" "[ $rc = 0 ] && ! grep -q Traceback '$tmp/err'"
done
limited $(tool simc-view "$tmp/v1.h5") >"$tmp/out" 2>"$tmp/err"; rc=$?
ok valid_v1_simc-view_refuses "[ $rc = 1 ] && [ \$(wc -l <'$tmp/err') = 1 ] &&
  grep -q 'format_version 1: it has no body poses' '$tmp/err'"

# simc_h5.Run's arrays are the file's, as h5py reads them
ok reader_reads_valid_files_as_h5py "$PY - '$tmp/grip.h5' '$tmp/clutter.h5' '$tmp/nc.h5' <<'PY'
import sys
import h5py, numpy as np
sys.path.insert(0, 'tools')
sys.dont_write_bytecode = True
import simc_h5
for p in sys.argv[1:]:
    r = simc_h5.Run(p)
    with h5py.File(p, 'r') as f:
        pairs = [(r.t, 'time'), (r.q, 'q'), (r.v, 'v'), (r.body_pos, 'body/position'),
                 (r.body_quat, 'body/orientation'), (r.count, 'contact/count'),
                 (r.iterations, 'solver/iterations'), (r.wall_time, 'solver/wall_time')]
        pairs += [(r.energy[k], 'energy/' + k) for k in r.energy]
        if r.has_contact_rows:
            pairs += [(r.start, 'contact/start'), (r.gap, 'contact/gap'),
                      (r.slip, 'contact/slip'), (r.impulse, 'contact/impulse')]
        if r.actuator_force is not None:
            pairs += [(r.actuator_force, 'actuator/force'), (r.actuator_command, 'actuator/command')]
        for a, n in pairs:
            b = f[n][()]
            if a.shape != b.shape or not np.array_equal(a, b) or (a.dtype.kind == 'f' and a.dtype != b.dtype):
                sys.exit('%s: %s differs' % (p, n))
        if r.q_names != [s.decode() if isinstance(s, bytes) else s for s in f['model/q_names'][()]]:
            sys.exit('%s: q_names differ' % p)
PY"

# ---- the variants ----
"$PY" test/make_bad_h5.py "$tmp/grip.h5" "$tmp/bad" >"$tmp/gen.out" 2>"$tmp/gen.err"
ok generator_runs "[ $? = 0 ] && [ ! -s '$tmp/gen.err' ] && [ \$(wc -l <'$tmp/bad/variants.tsv') -ge 25 ]"

# refused TOOL FILE EXPECT RC: exit 1; stderr exactly one line "TOOL: FILE: ..."
# holding EXPECT; no traceback
refused() {
  [ "$4" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && head -1 "$tmp/err" | grep -qF -- "$1: $2: " &&
    grep -qF -- "$3" "$tmp/err" && ! grep -q Traceback "$tmp/err" "$tmp/out"
}
# summary_unreadable: one CSV row whose status is "unreadable: " + the stderr line
summary_unreadable() {
  [ "$(wc -l <"$tmp/out")" = 1 ] && "$PY" - "$tmp/out" "$tmp/err" <<'PY'
import csv, sys
row = next(csv.reader(open(sys.argv[1])))
err = open(sys.argv[2]).read().rstrip("\n")
sys.exit(0 if row[0] == "unreadable: " + err[len("h5summary.py: "):] and row[1:-1] == [""] * 8
         else 1)
PY
}
# bounded: the run took under 10 s and (with GNU time) under 400 MB resident
bounded() {
  local ms rss
  ms=$(cat "$tmp/ms"); rss=$(tail -1 "$tmp/rss" 2>/dev/null)
  echo "  $1: $ms ms, ${rss:-?} KiB resident"
  [ "$ms" -lt 10000 ] && { [ -z "$rss" ] || [ "$rss" -lt 409600 ]; }
}

while IFS=$'\t' read -r name expect what; do
  f=$tmp/bad/$name
  v=${name%.h5}
  for t in $H5_TOOLS; do
    limited $(tool $t "$f") >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
    if [ "$expect" = ok ]; then
      ok "accepts_${v}_$t" "[ $rc = 0 ] && ! grep -q Traceback '$tmp/err'"
      continue
    fi
    if refused "$t" "$f" "$expect" "$rc"; then r=1; else r=0; fi
    if [ $t = h5summary.py ] && [ $r = 1 ]; then summary_unreadable || r=0; fi
    case $v in
      *1e9*) bounded "$v $t" || r=0 ;;
    esac
    ok "refuses_${v}_$t" "[ $r = 1 ]"
    [ $r = 1 ] || { echo "  ($what) exit $rc:"; cat "$tmp/err" "$tmp/out" | head -5; }
  done
done <"$tmp/bad/variants.tsv"

# an overlay that fails the check is refused like the run itself
limited "$PY" tools/simc-view "$tmp/grip.h5" --overlay "$tmp/bad/start_negative.h5" \
  -o "$tmp/ov.html" >"$tmp/out" 2>"$tmp/err"; rc=$?
ok refuses_bad_overlay "refused simc-view '$tmp/bad/start_negative.h5' /contact/start $rc && [ ! -e '$tmp/ov.html' ]"
# the limit on the bytes read: SIMC_H5_MAX_BYTES below the valid file's size
SIMC_H5_MAX_BYTES=10000 limited "$PY" tools/state_at.py "$tmp/grip.h5" 0 >"$tmp/out" 2>"$tmp/err"; rc=$?
ok max_bytes_limit "refused state_at '$tmp/grip.h5' 'too large to read' $rc && grep -q SIMC_H5_MAX_BYTES '$tmp/err'"
