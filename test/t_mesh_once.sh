#!/usr/bin/env bash
# A mesh that many geoms of an MJCF model use is read (and hulled) once by
# the translator and once by the scene loader, not once per geom: 20 bodies
# of MuJoCo's mug (a 62 592-line OBJ) open the file 2 times (counted with
# strace; 21 before, and the check took 1.13 s instead of 0.15 s).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh
M=${MJ_MODELS:-/usr/share/mujoco/model}/mug/mug.obj
cp "$M" "$tmp/part.obj"
{ echo '<mujoco><asset><mesh name="m" file="part.obj"/></asset><worldbody>'
  for i in $(seq 20); do echo "<body pos=\"$i 0 1\"><freejoint/><geom type=\"mesh\" mesh=\"m\"/></body>"; done
  echo '</worldbody></mujoco>'; } >"$tmp/m20.xml"
# (LeakSanitizer cannot run under ptrace: off for this one run of a debug build)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
  strace -f -e trace=openat -o "$tmp/trace" "$BIN/simc" "$tmp/m20.xml" --check >/dev/null 2>&1; rc=$?
n=$(grep -c 'part.obj' "$tmp/trace")
ok mesh_read_once_per_file "[ $rc = 0 ] && [ $n = 2 ]"
echo "  part.obj opened $n times for 20 geoms"
