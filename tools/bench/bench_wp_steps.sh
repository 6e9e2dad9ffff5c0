#!/usr/bin/env bash
# bench_wp_steps.sh: the work-precision bench's step axis (doc/performance.md,
# "Work-precision: fixed steps against error control"): simc's defaults on
# each scene at a ladder of fixed steps and under error control at a ladder
# of accuracies, cost per simulated second against the scene's error.  One
# file of figures per run under $OUT/raw (its first line the command), then
# results/wp_steps.md and its plots (tools/bench/wp_steps.py).  Runs one at a
# time, so that their timings compare.
#   BIN (default bin): where simc is; OUT (default results/wp_steps)
#   WPS_SCENES (default "settled pile stack tower slide roll humanoid")
#   WPS_STEPS: the fixed steps, s (default 1e-2 5e-3 2e-3 1e-3 5e-4 2.5e-4;
#     the humanoid 5e-3 2.5e-3 1e-3 5e-4 2.5e-4 1e-4, from its own 5 ms)
#   WPS_ACCURACIES (default "1e-1 1e-2 1e-3 1e-4 1e-5")
#   WPS_INTERVALS: error control's time.step (its output interval, longest
#     substep and the step its near-rigid contacts are regularized for),
#     s (default "1e-2 1e-3"; the humanoid its own 5 ms)
#   WPS_TIMEOUT (default 120): seconds a run may take; one that takes longer
#     is recorded as failed, with the reason
# The humanoid is /usr/share/mujoco/model/humanoid/humanoid.xml
# (libmujoco-samples), dropped for 2 s; left out when it is not installed.
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
OUT=${OUT:-results/wp_steps}
SCENES=${WPS_SCENES:-settled pile stack tower slide roll humanoid}
ACCS=${WPS_ACCURACIES:-1e-1 1e-2 1e-3 1e-4 1e-5}
LIMIT=${WPS_TIMEOUT:-120}
HUMANOID=/usr/share/mujoco/model/humanoid/humanoid.xml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT/raw"
log() { echo "bench_wp_steps: $*" >&2; }

# record SCENE CONFIG SAMPLE ARGS...: one simc run of $y and its figures
record() {
  local s=$1 c=$2 sample=$3; shift 3
  local f="$OUT/raw/${s}__${c}.txt"
  log "$s: $c"
  {
    echo "# $BIN/simc $(basename "$y") $* (figures: tools/bench/wp_steps.py fig $s $(basename "$y") RUN.h5 $sample)"
    timeout "$LIMIT" "$BIN/simc" "$y" -o "$tmp/run.h5" --force --quiet "$@" >/dev/null 2>"$tmp/err"
    local rc=$?
    if [ $rc -eq 124 ]; then
      # simc closes its file when stopped: how far the run got
      echo "failed: over ${LIMIT} s, at t = $(/usr/bin/python3 -c '
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    t = f["/time"][-1]
    n = int(f["/solver/substeps"][1:].sum()) if "/solver/substeps" in f else len(f["/time"]) - 1
    print("%.4g s, %d steps" % (t, n))' "$tmp/run.h5" 2>/dev/null || echo "?")"
    elif [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
      echo "failed rc=$rc $(tail -1 "$tmp/err")"
    else
      /usr/bin/python3 tools/bench/wp_steps.py fig "$s" "$y" "$tmp/run.h5" "$sample" ||
        echo "failed: no figures"
    fi
  } >"$f.tmp"
  mv "$f.tmp" "$f"
}

for s in $SCENES; do
  steps=${WPS_STEPS:-1e-2 5e-3 2e-3 1e-3 5e-4 2.5e-4}
  Hs=${WPS_INTERVALS:-1e-2 1e-3}
  y=$tmp/$s.yaml
  case $s in
    settled) tools/bench/wp_settled.sh "$BIN/simc" 216 "$tmp" >"$y" || { log "settled: forming failed"; continue; } ;;
    pile) tools/bench/wp_scenes.sh pile 1e-3 216 | sed 's/duration: 1.5/duration: 0.6/' >"$y" ;;
    stack|tower|slide|roll) tools/bench/wp_scenes.sh "$s" 1e-3 >"$y" ;;
    humanoid)
      if [ ! -f "$HUMANOID" ]; then log "no $HUMANOID (apt-get install libmujoco-samples): humanoid left out"; continue; fi
      y=$HUMANOID; Hs=5e-3
      steps=${WPS_STEPS:-5e-3 2.5e-3 1e-3 5e-4 2.5e-4 1e-4} ;;
    *) log "unknown scene $s"; continue ;;
  esac
  [ "$s" = humanoid ] || cp "$y" "$OUT/raw/$s.yaml"
  dur=()
  [ "$s" = humanoid ] && dur=(--duration 2)
  # the errors are sampled at the longest interval's multiples
  sample=$(echo $Hs | tr ' ' '\n' | sort -g | tail -1)
  for dt in $steps; do
    record "$s" "dt_$dt" "$sample" "${dur[@]}" --set time.step="$dt" --set output.every=1 --set output.contacts=false
  done
  for H in $Hs; do
    for a in $ACCS; do
      record "$s" "acc_${a}_H$H" "$sample" "${dur[@]}" --set time.step="$H" --accuracy "$a" --set output.contacts=false
    done
  done
done
/usr/bin/python3 tools/bench/wp_steps.py report "$OUT" >"$OUT.md.tmp" && mv "$OUT.md.tmp" "$OUT.md"
