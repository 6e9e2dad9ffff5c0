#!/usr/bin/env bash
# lcp_check.sh [quick|full] [OUTDIR]: run scene families under --solver lcp and
# count failed contact solves (/solver/status != 0) and Lemke pivots per family
# (tools/bench/lcp_check.py).  Every step is recorded (output.every = 1).
#
#   scenes   every scenes/*.yaml
#   incline  a 1 kg, 0.2 m cube on a rigid incline (k = 1e6 N/m, tau_d = 0.01 s,
#            implicit Euler, 1 s at 1 ms), angle 5..40 deg x mu 0.1..0.9
#   clutterN tools/gen_clutter.sh N at dt = 1 ms and 10 ms, 2 s
# each with contact.lcp.directions = 4, 8, 16.  `quick` runs a subset:
# the 20 deg cube at mu = 0.45, clutter27 for 0.25 s at 1 ms and 0.3 s at
# 10 ms, 4 and 16 edges.
# Exit status 1 when any step failed (status != 0 or residual > 1e-6).
# LCP_CHECK_MD=1: a markdown table.  Env: BIN (default bin), JOBS (2),
# RUN_TIMEOUT (s per run, default 1800; a run cut short counts as failed),
# DIRS (cone edges, "4 8 16"), CLUTTER (sizes, "8 27 64 125"; empty: none),
# CLUTTER_DUR (simulated s, 2.0), CLUTTER_DUR_LARGE (for N >= 64),
# DTS (clutter time steps, "1e-3 1e-2"), ONLY_CLUTTER=1 (skip the scenes and
# incline families).
set -u
mode=${1:-full}
out=${2:-$(mktemp -d /tmp/lcp_check.XXXXXX)}
BIN=${BIN:-bin}
JOBS=${JOBS:-2}
RUN_TIMEOUT=${RUN_TIMEOUT:-1800}
here=$(cd "$(dirname "$0")" && pwd)
tools=$(dirname "$here")  # the user tools (gen_clutter.sh)
mkdir -p "$out"
jobs="$out/jobs.txt"
: >"$jobs"

incline() { # angle_deg mu -> YAML
  awk -v a="$1" -v mu="$2" 'BEGIN {
    th = a * 3.14159265358979323846 / 180; s = sin(th); c = cos(th)
    print "simc: 1"; printf "name: incline_%s_%s\n", a, mu
    print "gravity: [0, 0, -9.81]"
    print "time: {step: 1.0e-3, duration: 1.0}"
    print "integrator: {scheme: implicit_euler}"
    printf "contact:\n  defaults: {stiffness: 1.0e6, dissipation_time: 0.01, friction: %s}\n", mu
    print "bodies:"
    print "  - name: box\n    joint: {type: free}\n    mass: 1.0\n    inertia: solid"
    printf "    initial: {q: [%.9f, 0, %.9f, %.9f, 0, %.9f, 0]}\n", 0.1 * s, 0.1 * c, cos(th / 2), sin(th / 2)
    print "    geometry:\n      - {shape: box, size: [0.2, 0.2, 0.2]}"
    print "static:"
    printf "  - {shape: plane, normal: [%.9f, 0, %.9f], offset: 0.0, stiffness: rigid}\n", s, c
  }'
}

# job line: family scene output [extra args]
add() { echo "$*" >>"$jobs"; }

if [ "$mode" = quick ]; then
  dirs="4 16"
  incline 20 0.45 >"$out/incline_20_0.45.yaml"
  "$tools/gen_clutter.sh" 27 1e-3 0.25 lcp >"$out/clutter27_1ms.yaml"
  "$tools/gen_clutter.sh" 27 1e-2 0.3 lcp >"$out/clutter27_10ms.yaml"
  for d in $dirs; do
    add incline_d$d "$out/incline_20_0.45.yaml" "$out/incline_20_0.45_d$d.h5" "--set contact.lcp.directions=$d"
    add clutter27_1ms_d$d "$out/clutter27_1ms.yaml" "$out/clutter27_1ms_d$d.h5" "--set contact.lcp.directions=$d"
    add clutter27_10ms_d$d "$out/clutter27_10ms.yaml" "$out/clutter27_10ms_d$d.h5" "--set contact.lcp.directions=$d"
  done
else
  dirs=${DIRS:-4 8 16}
  if [ "${ONLY_CLUTTER:-0}" != 1 ]; then
    for d in $dirs; do
      for s in "$here"/../../scenes/*.yaml; do
        b=$(basename "$s" .yaml)
        add scenes_d$d "$s" "$out/scene_${b}_d$d.h5" "--set contact.lcp.directions=$d"
      done
    done
    for a in 5 10 15 20 25 30 35 40; do
      for mu in $(seq 0.10 0.05 0.90); do
        incline "$a" "$mu" >"$out/incline_${a}_$mu.yaml"
        for d in $dirs; do
          add incline_d$d "$out/incline_${a}_$mu.yaml" "$out/incline_${a}_${mu}_d$d.h5" "--set contact.lcp.directions=$d"
        done
      done
    done
  fi
  for n in ${CLUTTER-8 27 64 125}; do
    dur=${CLUTTER_DUR:-2.0}
    [ "$n" -ge 64 ] && dur=${CLUTTER_DUR_LARGE:-$dur}
    for dt in ${DTS:-1e-3 1e-2}; do
      "$tools/gen_clutter.sh" "$n" "$dt" "$dur" lcp >"$out/clutter${n}_$dt.yaml"
      for d in $dirs; do
        add clutter${n}_dt${dt}_d$d "$out/clutter${n}_$dt.yaml" "$out/clutter${n}_${dt}_d$d.h5" "--set contact.lcp.directions=$d"
      done
    done
  done
fi

# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 sh -c 'timeout '"$RUN_TIMEOUT"' '"$BIN"'/simc "$2" -o "$3" --solver lcp --quiet \
  --set contact.on_failure=warn --set output.every=1 $4 $5 2>"$3.log" || true' sh <"$jobs"
args=()
while read -r fam _ h5 _; do args+=("$fam=$h5"); done <"$jobs"
md=; [ "${LCP_CHECK_MD:-0}" = 1 ] && md=--md
/usr/bin/python3 "$here/lcp_check.py" $md "${args[@]}"
