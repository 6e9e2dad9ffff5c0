#!/usr/bin/env bash
# bench_mjcf.sh: MuJoCo's own models run by MuJoCo 2.2.2 and by simc on the
# same file, at the file's timestep (markdown on stdout).  MuJoCo: its
# defaults (Newton, pyramidal cone; tools/bench/mujoco/mjbench times the
# mj_step loop alone), and MuJoCo 3.x's WebAssembly build under node where
# npm can install it (tools/bench/mujoco_js; its figures are WASM).  simc:
# the model as shipped, with simc's defaults (its solref/solimp approximated
# as the run reports), once with its default scheme (the midpoint rule,
# second order, re-linearized) and once with symplectic Euler, the
# first-order scheme MuJoCo's own step is; recording every 100th step; simc's
# wall time is its stepping loop with the output it writes (the summary
# line's; loading excluded, as mjbench's).  Three rounds alternate the
# three runs; the medians are reported.  Peak memory by GNU time when
# installed.  Then the instructions per step (tools/bench/bench_instr_mjcf.sh;
# INSTR=0 leaves them out).
# BENCH_QUICK=1 shortens the runs.
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
quick=${BENCH_QUICK:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tools/bench/bench_lib.sh
models=/usr/share/mujoco/model
[ -r "$models/humanoid/humanoid.xml" ] || { echo "(MuJoCo's models are missing: install libmujoco-samples)"; exit 0; }
make -s -C tools/bench/mujoco >/dev/null 2>&1 || { echo "(libmujoco-dev is missing: no MuJoCo figures)"; exit 0; }
echo "## MuJoCo's models in simc and in MuJoCo 2.2.2"
echo
made_by tools/bench/bench_mjcf.sh
echo
echo "| model | dt (s) | steps asked | MuJoCo 2.2.2 steps/s | MuJoCo 3.x (WASM) steps/s | MuJoCo contacts, solver its | simc scheme | simc steps/s | simc contacts, Newton its median / mean | simc / MuJoCo 2.2.2 | simc max penetration (m) | simc status | simc peak RSS (MiB) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
# three rounds, MuJoCo and simc's two schemes alternated in each, so that
# a change of the machine's load reaches all of them; medians reported
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "-" }'; }
rounds=3; [ "$quick" = 1 ] && rounds=1
for f in humanoid/humanoid.xml humanoid/22_humanoids.xml humanoid100/humanoid100.xml; do
  p=$models/$f
  nstep=2000; [ "$quick" = 1 ] && nstep=20
  dt=$(sed -n 's/.*timestep="\([0-9.e-]*\)".*/\1/p' "$p" | head -1)
  [ -z "$dt" ] && dt=0.002
  dur=$(awk -v s="$nstep" -v h="$dt" 'BEGIN { printf "%.6g", s * h }')
  : >"$tmp/mj"
  for scheme in midpoint symplectic_euler; do : >"$tmp/sps_$scheme"; done
  for r in $(seq "$rounds"); do
    mj=$("$BIN/mjbench" "$p" "$nstep" 2>/dev/null | tail -1)
    sed -n 's/.*steps_per_second=\([0-9.]*\).*/\1/p' <<<"$mj" >>"$tmp/mj"
    for scheme in midpoint symplectic_euler; do
      run=("$BIN/simc" "$p" -o "$tmp/o.h5" --force --duration "$dur" \
           --set output.every=100 --set integrator.scheme=$scheme)
      if command -v /usr/bin/time >/dev/null; then
        line=$(/usr/bin/time -v "${run[@]}" 2>"$tmp/err" >/dev/null; grep '^simc:' "$tmp/err" | tail -1)
        awk '/Maximum resident set size/ { printf "%.0f", $NF / 1024 }' "$tmp/err" >"$tmp/rss_$scheme"
      else
        line=$("${run[@]}" 2>&1 >/dev/null | grep '^simc:' | tail -1)
        echo "-" >"$tmp/rss_$scheme"
      fi
      echo "$line" >"$tmp/line_$scheme"
      read_summary "$line" # steps: those simc completed
      awk -v s="$steps" -v w="$wall" 'BEGIN { if (w > 0) printf "%.0f\n", s / w }' >>"$tmp/sps_$scheme"
    done
  done
  mjs=$(median <"$tmp/mj")
  mjc=$(sed -n 's/.*mean_ncon=\([0-9.]*\).*/\1/p' <<<"$mj")
  mji=$(sed -n 's/.*mean_solver_iter=\([0-9.]*\).*/\1/p' <<<"$mj")
  wasm=$(tools/bench/mujoco_js/run.sh "$p" "$nstep" 2>/dev/null | tail -1)
  ws=$(sed -n 's/.*steps_per_second=\([0-9.]*\).*/\1/p' <<<"$wasm")
  wv=$(sed -n 's/.*mujoco_version=\([0-9.]*\).*/\1/p' <<<"$wasm")
  [ -n "$ws" ] && ws="${ws%.*} (${wv:-3.x})" || ws="-"
  for scheme in midpoint symplectic_euler; do
    line=$(cat "$tmp/line_$scheme")
    read_summary "$line"
    pen=$(field "max penetration" "$line")
    sps=$(median <"$tmp/sps_$scheme")
    rss=$(cat "$tmp/rss_$scheme")
    ratio=$(awk -v a="$sps" -v b="$mjs" 'BEGIN { if (b > 0 && a > 0) printf "%.2f", a / b; else print "-" }')
    echo "| $(basename "$f") | $dt | $nstep | ${mjs%.*} | $ws | $mjc, $mji | $scheme | $sps | $ncon, $med / $mean | $ratio | $pen | ${status:-?} | $rss |"
    echo "$(basename "$f") $scheme: simc $sps steps/s, MuJoCo ${mjs%.*}, WASM $ws ($status)" >&2
  done
done
# the same models in instructions per step, which the machine's load does
# not move (INSTR=0 leaves them out; about 10 minutes)
if [ "$quick" != 1 ] && [ "${INSTR:-1}" = 1 ] && command -v valgrind >/dev/null; then
  echo
  echo "Instructions per step (callgrind; \`tools/bench/bench_instr_mjcf.sh $BIN/simc\`):"
  echo
  tools/bench/bench_instr_mjcf.sh "$BIN/simc"
fi
