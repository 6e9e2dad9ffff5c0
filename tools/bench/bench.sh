#!/usr/bin/env bash
# make bench: time simc on the benchmark scenes and keep the table in
# results/bench.md (with the machine it ran on).  Figures come from simc's
# own summary line (wall time of the whole run including HDF5 output).
# BENCH_QUICK=1 shortens every run (for a smoke test of this script).
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
out=${BENCH_OUT:-results/bench.md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
quick=${BENCH_QUICK:-0}
mkdir -p "$(dirname "$out")"

run() {  # run SCENE.yaml EXTRA...: prints the summary line
  "$BIN/simc" "$1" -o "$tmp/out.h5" "${@:2}" 2>&1 >/dev/null | grep '^simc:' | tail -1
}

. tools/bench/bench_lib.sh

{
  echo "# simc benchmarks"
  echo
  echo "Made by \`make bench\` ($(git describe --always --dirty 2>/dev/null)) on $(date -u +%Y-%m-%d)."
  echo "Machine: $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
  echo "$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; wall times include writing the HDF5 output."
  echo
  echo "## N-link pendulum chain, 5 s at dt = 1 ms"
  echo
  echo "Relative energy drift = (E(T) - E(0)) / |E(0)| (no dampers, so any change is the scheme's)."
  echo
  echo "| N | scheme | steps/s | real-time factor | free-motion Newton its/step | relative energy drift | status |"
  echo "|---|---|---|---|---|---|---|"
} >"$out.tmp"

declare -A simc_sps
dur=5.0; [ "$quick" = 1 ] && dur=0.2
for n in 10 50 200; do
  for scheme in explicit_euler symplectic_euler implicit_euler midpoint; do
    tools/gen_chain.sh "$n" "$scheme" "$dur" 1.0e-3 >"$tmp/chain.yaml"
    line=$(run "$tmp/chain.yaml")
    read_summary "$line"
    if [ "$status" = failed ]; then
      status="diverged at t = $(sed -n 's/.*steps (t = \([0-9.e+-]*\) s).*/\1/p' <<<"$line") s"
      drift_override="-"
    else
      drift_override=""
    fi
    rtf=$(field "real-time factor" "$line")
    drift=$(sed -n 's/.*J (\([-+0-9.eE]*\) of |E0|).*/\1/p' <<<"$line")
    [ -n "$drift_override" ] && drift=$drift_override
    fits=$(/usr/bin/python3 - "$tmp/out.h5" 2>/dev/null <<'PY' || echo "-"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    print("%.2f" % np.mean(f["/solver/free_motion_iterations"][1:]))
PY
)
    sps=$(awk -v s="$steps" -v w="$wall" 'BEGIN { if (w > 0) printf "%.0f", s / w; else print "-" }')
    simc_sps["chain $n $scheme"]=$sps
    echo "| $n | $scheme | $sps | $rtf | $fits | $drift | ${status:-?} |" >>"$out.tmp"
    echo "chain $n $scheme: $sps steps/s, drift $drift ($status)" >&2
  done
done

{
  echo
  echo "## Clutter: N spheres and boxes dropped into a bin, newton (SAP) solver"
  echo
  echo "| N | dt (s) | simulated (s) | steps/s | mean contacts | Newton its median / mean / max | max penetration (m) | status |"
  echo "|---|---|---|---|---|---|---|---|"
} >>"$out.tmp"
for n in 8 64 216 512; do
  for dt in 1.0e-3 1.0e-2; do
    # keep each case to a bounded number of steps on a 2-core machine
    dur=1.0
    [ "$n" -ge 216 ] && [ "$dt" = 1.0e-3 ] && dur=0.3
    [ "$quick" = 1 ] && dur=$(awk -v d="$dt" 'BEGIN { print 5 * d }')
    tools/gen_clutter.sh "$n" "$dt" "$dur" >"$tmp/clutter.yaml"
    line=$(run "$tmp/clutter.yaml")
    read_summary "$line"
    sps=$(awk -v s="$steps" -v w="$wall" 'BEGIN { if (w > 0) printf "%.0f", s / w; else print "-" }')
    pen=$(field "max penetration" "$line")
    simc_sps["clutter $n $(awk -v d="$dt" 'BEGIN { printf "%g", d }')"]=$sps
    echo "| $n | $dt | $dur | $sps | $ncon | $med / $mean / $max | $pen | ${status:-?} |" >>"$out.tmp"
    echo "clutter $n dt $dt: $sps steps/s, $ncon contacts, its $med/$mean/$max ($status)" >&2
  done
done
{
  echo
  echo "## Actuated robots: servos, joint limits and contact (doc/actuation.md)"
  echo
  echo "scenes/gripper_lift.yaml (3 servos, 4 limits, a box lifted off a table) and"
  echo "tools/bench/arm7_push.yaml (7 servos with limits sweeping three boxes); Newton its"
  echo "over all steps (every step has its servo rows)."
  echo
  echo "| scene | solver | simulated (s) | steps/s | mean contacts | contact its median / mean / max | status |"
  echo "|---|---|---|---|---|---|---|"
} >>"$out.tmp"
for scene in scenes/gripper_lift.yaml tools/bench/arm7_push.yaml; do
  for solver in newton lcp; do
    dur=3.0; [ "$quick" = 1 ] && dur=0.01
    line=$(run "$scene" --duration "$dur" --solver "$solver")
    read_summary "$line"
    sps=$(awk -v s="$steps" -v w="$wall" 'BEGIN { if (w > 0) printf "%.0f", s / w; else print "-" }')
    echo "| $(basename "$scene" .yaml) | $solver | $dur | $sps | $ncon | $med / $mean / $max | ${status:-?} |" >>"$out.tmp"
    echo "$(basename "$scene" .yaml) $solver: $sps steps/s, its $med/$mean/$max ($status)" >&2
  done
done
# MuJoCo's own models (MJCF) in simc and in MuJoCo 2.2.2 on the same file
# (tools/bench/bench_mjcf.sh; also kept in results/mjcf.md)
echo "running the MJCF section (tools/bench/bench_mjcf.sh)..." >&2
BIN=$BIN BENCH_QUICK=$quick tools/bench/bench_mjcf.sh >"$tmp/mjcf.md"
{ echo; cat "$tmp/mjcf.md"; } >>"$out.tmp"
[ "$quick" != 1 ] && [ -s "$tmp/mjcf.md" ] && cp "$tmp/mjcf.md" "$(dirname "$out")/mjcf.md"

# Work-precision: every engine configuration's cost per step against a
# measured error on the same scenes, and the speed ratios against ODE
# (tools/bench/bench_wp.sh; kept in results/wp.md and results/wp/)
if [ "$quick" != 1 ]; then
  echo "running the work-precision section (tools/bench/bench_wp.sh)..." >&2
  if BIN=$BIN tools/bench/bench_wp.sh; then
    { echo; echo "## Work-precision"; echo
      echo "See [wp.md](wp.md) (tools/bench/bench_wp.sh): cost per step against a measured error for"
      echo "simc, ODE, MuJoCo 2.2.2 and MuJoCo 3.3.8 (WASM) on the same scenes, and the speed ratios."
      sed -n '/^## Speed against ODE/,/^## Who is on the front/p' results/wp.md | sed '$d' | sed 's/^## /### /'
      sed -n '/^## Who is on the front/,$p' results/wp.md | sed 's/^## /### /'; } >>"$out.tmp"
  fi
  # the step axis: fixed steps against error control on the same scenes and
  # MuJoCo's humanoid (tools/bench/bench_wp_steps.sh; results/wp_steps.md)
  echo "running the step axis of the work-precision section (tools/bench/bench_wp_steps.sh)..." >&2
  if BIN=$BIN tools/bench/bench_wp_steps.sh; then
    { echo; echo "### Fixed steps against error control"; echo
      echo "See [wp_steps.md](wp_steps.md) (tools/bench/bench_wp_steps.sh)."
      sed -n '/^## Summary/,$p' results/wp_steps.md | sed '1d'; } >>"$out.tmp"
  fi
fi

# Meshes: collision cost per hull pair and MuJoCo's mugs in a bin
# (tools/bench/bench_meshes.sh; also kept in results/meshes.md)
echo "running the meshes section (tools/bench/bench_meshes.sh)..." >&2
BIN=$BIN BENCH_QUICK=$quick tools/bench/bench_meshes.sh >"$tmp/meshes.md"
{ echo; cat "$tmp/meshes.md"; } >>"$out.tmp"
[ "$quick" != 1 ] && [ -s "$tmp/meshes.md" ] && cp "$tmp/meshes.md" "$(dirname "$out")/meshes.md"
{
  echo
  echo "### Newton iterations per step at dt = 1 ms (results/sap_iterations.md)"
  echo
  echo "contact.slip_curvature = 0 is the exact Newton Hessian throughout; the default (0.2 under the"
  echo "default lagged model) adds curvature along the slip of sliding contacts while the residual is"
  echo "above 1e-2.  Same answer"
  echo "to the solver tolerance; iteration statistics over all steps (contact-free ones count 0)."
  echo
  echo "| N | simulated (s) | slip_curvature | steps/s | mean contacts | Newton its median / mean / max | status |"
  echo "|---|---|---|---|---|---|---|"
} >>"$out.tmp"
for n in 64 216 1000; do
  dur=0.4; [ "$n" = 64 ] && dur=0.6
  [ "$quick" = 1 ] && dur=0.005
  tools/gen_clutter.sh "$n" 1.0e-3 "$dur" >"$tmp/clutter.yaml"
  for sc in 0 default; do
    set_sc=(); [ "$sc" = default ] || set_sc=(--set contact.slip_curvature=$sc)
    line=$(run "$tmp/clutter.yaml" "${set_sc[@]}")
    read_summary "$line"
    sps=$(awk -v s="$steps" -v w="$wall" 'BEGIN { if (w > 0) printf "%.1f", s / w; else print "-" }')
    echo "| $n | $dur | $sc | $sps | $ncon | $med / $mean / $max | ${status:-?} |" >>"$out.tmp"
    echo "clutter $n slip_curvature $sc: $sps steps/s, its $med/$mean/$max ($status)" >&2
  done
done
# MuJoCo on the same scenes (tools/bench/mujoco: the scenes converted from simc's
# own generators), when Debian's libmujoco-dev is installed
if [ "$quick" != 1 ] && dpkg -s libmujoco-dev >/dev/null 2>&1; then
  echo "running the MuJoCo reference (tools/bench/mujoco/run.sh)..." >&2
  if tools/bench/mujoco/run.sh >"$tmp/mj.md" 2>"$tmp/mj.err"; then
    {
      echo
      echo "## simc vs MuJoCo on the same scenes (same machine, same run)"
      echo
      echo "simc: chain under midpoint (second order, energy-conserving), clutter under implicit Euler"
      echo "with the SAP solver, HDF5 output of every (chain) or every 10th (clutter) step included."
      echo "MuJoCo: implicit integrator, Newton solver, elliptic cone, mj_step only (tables below)."
      echo "A ratio above 1 means simc is faster.  Large MuJoCo clutter runs are timed over their first"
      echo "part only (their 'window'), which flatters MuJoCo: contact-free steps are its cheapest."
      echo
      echo "| scene | N | dt (s) | simc steps/s | MuJoCo steps/s | simc / MuJoCo |"
      echo "|---|---|---|---|---|---|"
      while IFS='|' read -r _ kind n dt window mj _; do
        kind=$(xargs <<<"$kind"); n=$(xargs <<<"$n"); dt=$(xargs <<<"$dt"); mj=$(xargs <<<"$mj")
        case "$kind" in chain) key="chain $n midpoint";; clutter)
          key="clutter $n $(awk -v d="$dt" 'BEGIN { printf "%g", d }')";; *) continue;; esac
        sv=${simc_sps[$key]:-}
        [ -n "$sv" ] && [ "$sv" != - ] || continue
        ratio=$(awk -v a="$sv" -v b="$mj" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
        echo "| $kind | $n | $dt | $sv | $mj | $ratio |"
      done < <(grep -E '^\| (chain|clutter) ' "$tmp/mj.md")
      echo
      cat "$tmp/mj.md"
    } >>"$out.tmp"
  else
    { echo; echo "(MuJoCo reference failed: $(tail -1 "$tmp/mj.err"))"; } >>"$out.tmp"
  fi
elif [ "$quick" != 1 ]; then
  { echo; echo "(MuJoCo reference skipped: apt-get install libmujoco-dev to add it.)"; } >>"$out.tmp"
fi
# ODE 0.16 on the same clutter scenes (tools/bench/ode, when Debian's libode-dev
# is installed) with simc's iterations and memory beside it, and simc's
# cost-per-step scaling from N = 64 to 4096: tools/bench/bench_ode.sh.
if [ "$quick" != 1 ]; then
  BIN=$BIN tools/bench/bench_ode.sh >>"$out.tmp"
fi
# Memory: peak resident size (GNU time's "Maximum resident set size") of
# simc on clutter scenes of growing N, and the 2000-body pile against a
# stated limit.  Short windows keep the section to about a minute.
mem_run() {  # mem_run SCENE.yaml: prints "RSS_KiB|summary line"
  /usr/bin/time -v "$BIN/simc" "$1" -o "$tmp/mem.h5" --force 2>"$tmp/mem.err" >/dev/null
  echo "$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/mem.err")|$(grep '^simc:' "$tmp/mem.err" | tail -1)"
}
if [ -x /usr/bin/time ]; then
  echo "running the memory section..." >&2
  pile_limit_mib=${PILE_LIMIT_MIB:-128}
  {
    echo
    echo "## Memory: peak resident size on clutter (tools/gen_clutter.sh N 1e-3 T)"
    echo
    echo "Peak resident set size of the whole simc process (GNU time), HDF5 output included."
    echo "bytes/body = RSS / N; marginal bytes/body = the RSS increase over the previous row per"
    echo "added body (the part that grows with the scene)."
    echo
    echo "| N | window (s) | steps/s | mean contacts | peak RSS (MiB) | bytes/body | marginal bytes/body | status |"
    echo "|---|---|---|---|---|---|---|---|"
  } >>"$out.tmp"
  prev_n=0; prev_kib=0
  for n in 1000 2000 10000; do
    mdur=0.1; [ "$quick" = 1 ] && mdur=0.02
    tools/gen_clutter.sh "$n" 1.0e-3 "$mdur" >"$tmp/clutter.yaml"
    res=$(mem_run "$tmp/clutter.yaml"); kib=${res%%|*}; line=${res#*|}
    read_summary "$line"
    sps=$(awk -v s="$steps" -v w="$wall" 'BEGIN { if (w > 0) printf "%.1f", s / w; else print "-" }')
    marg="-"
    [ "$prev_n" -gt 0 ] && marg=$(awk -v a="$kib" -v b="$prev_kib" -v n="$n" -v p="$prev_n" \
      'BEGIN { printf "%.0f", 1024 * (a - b) / (n - p) }')
    printf '| %s | %s | %s | %s | %.0f | %.0f | %s | %s |\n' "$n" "$mdur" "$sps" "$ncon" \
      "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" \
      "$(awk -v k="$kib" -v n="$n" 'BEGIN { print 1024 * k / n }')" "$marg" "$status" >>"$out.tmp"
    echo "memory clutter $n: $kib KiB, $sps steps/s ($status)" >&2
    prev_n=$n; prev_kib=$kib
  done
  pdur=0.4; [ "$quick" = 1 ] && pdur=0.05
  tools/gen_clutter.sh 2000 1.0e-3 "$pdur" >"$tmp/clutter.yaml"
  res=$(mem_run "$tmp/clutter.yaml"); kib=${res%%|*}; line=${res#*|}
  read_summary "$line"
  verdict=$(awk -v k="$kib" -v l="$pile_limit_mib" 'BEGIN { print (k / 1024 <= l) ? "within" : "OVER" }')
  {
    echo
    printf 'The 2000-body pile (%s s, mean %s contacts, Newton iterations median %s, mean %s, max %s, %s):\n' \
      "$pdur" "$ncon" "$med" "$mean" "$max" "$status"
    printf 'peak RSS %.0f MiB, %s the stated limit of %s MiB.\n' \
      "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" "$verdict" "$pile_limit_mib"
  } >>"$out.tmp"
  echo "memory pile 2000: $kib KiB ($verdict $pile_limit_mib MiB)" >&2
fi

# The contact Hessian's factorizations side by side on the same problems
# (bin/sap_bench: a resting grid of cubes, one tree per body): dense LAPACK,
# CHOLMOD simplicial and supernodal, and the automatic choice (the block
# Cholesky of sap_block.c for these).
if [ "$quick" != 1 ] && [ -x "$BIN/sap_bench" ]; then
  echo "running the factorization comparison (bin/sap_bench)..." >&2
  {
    echo
    echo "## SAP solve per factorization of the Hessian (bin/sap_bench 64 216 512)"
    echo
    echo "One SAP solve of a resting grid of B cubes (~3 contacts per body, dt = 10 ms), each body"
    echo "one 6 x 6 tree of A; 'solve' is the mean over repeated solves (the symbolic analysis"
    echo "reused), nnz(L) the doubles the factor stores.  Load average: $(cut -d' ' -f1 /proc/loadavg)."
    echo
    echo '```'
    "$BIN/sap_bench" 64 216 512
    echo '```'
  } >>"$out.tmp"
fi

# contact islands on 1 and 2 threads, alternating in one run (ratios, load)
echo "running the threads section (tools/bench/bench_threads.sh)..." >&2
{ echo; BIN=$BIN BENCH_QUICK=$quick tools/bench/bench_threads.sh; } >>"$out.tmp"

# A 64-point sweep through GNU parallel, a Slurm array and ssh (Slurm and
# ssh on daemons started by tools/bench/bench_sweep.sh; they need root)
echo "running the sweep benchmark (tools/bench/bench_sweep.sh)..." >&2
BIN=$BIN BENCH_QUICK=$quick tools/bench/bench_sweep.sh >"$tmp/sweep.md" 2>"$tmp/sweep.err"
{ echo; cat "$tmp/sweep.md"; } >>"$out.tmp"
[ "$quick" != 1 ] && [ -s "$tmp/sweep.md" ] && cp "$tmp/sweep.md" "$(dirname "$out")/sweep.md"
# LCP baseline: failed steps, residuals and Lemke pivots per scene family.
# The dense O(n^2)-per-pivot baseline needs minutes per simulated second on
# the large clutters, so N >= 64 runs a shorter window (CLUTTER_DUR_LARGE).
# The full matrix takes hours on two cores: make bench runs the quick set,
# LCP_CHECK=full make bench the whole matrix (results/lcp.md has its tables).
lmode=${LCP_CHECK:-quick}
echo "running the LCP check (tools/bench/lcp_check.sh $lmode)..." >&2
{
  echo
  echo "## LCP baseline (--solver lcp): failed steps and Lemke pivots"
  echo
  echo "tools/bench/lcp_check.sh $lmode: every step recorded; a step fails when /solver/status != 0 or its"
  echo "residual (max(-w/s, -z/s, |w z|/s^2), s = max(|q|, |z|), in the scaled LCP) exceeds 1e-6."
  echo "Families: scenes/*.yaml; a 1 kg 0.2 m cube on a rigid incline (k = 1e6 N/m, tau_d = 0.01 s,"
  echo "1 s at 1 ms) over 5..40 deg x mu 0.1..0.9; tools/gen_clutter.sh N at dt = 1 and 10 ms"
  echo "(2 s for N <= 27, ${CLUTTER_DUR_LARGE:-0.3} s for N >= 64); suffix _dK = K cone edges."
  echo "Pivots count every attempt of a step (restarts included) plus the principal-pivoting"
  echo "factorizations (the warm start from the previous step's basis and the polish of end points);"
  echo "per step the largest island's count."
  echo
  CLUTTER_DUR_LARGE=${CLUTTER_DUR_LARGE:-0.3} LCP_CHECK_MD=1 BIN=$BIN \
    tools/bench/lcp_check.sh "$lmode" "$tmp/lcp" 2>"$tmp/lcp.err" || echo "(failures: see below)"
  grep -v '^$' "$tmp/lcp.err" | sed 's/^ */    /' | head -40
} >>"$out.tmp"

# replay viewer: the frame rate of a 216-body clutter page (tools/simc-view)
# in headless Chromium, measured by the page itself; target 30 frames/s
if command -v chromium >/dev/null && [ -f /usr/share/javascript/three/three.min.js ]; then
  echo "running the viewer frame rate (headless chromium)..." >&2
  tools/gen_clutter.sh 216 5e-3 0.5 >"$tmp/vclutter.yaml"
  "$BIN/simc" "$tmp/vclutter.yaml" -o "$tmp/vclutter.h5" --set output.every=1 --quiet &&
    /usr/bin/python3 tools/simc-view "$tmp/vclutter.h5" -o "$tmp/vclutter.html" >/dev/null &&
    timeout -k 5 180 /usr/bin/python3 test/viewer_browser.py --bench "$tmp" "" "" "" \
      "$tmp/vclutter.html" "" >"$tmp/view.txt" 2>&1
  vj=$(grep '^{' "$tmp/view.txt" | tail -1)
  {
    echo
    echo "## Replay viewer (tools/simc-view, headless Chromium)"
    echo
    if [ -n "$vj" ]; then
      /usr/bin/python3 - "$vj" <<'PY'
import json, os, sys
b = json.loads(sys.argv[1])
print("| page | size | load (navigation to ready) | window (canvas) | frames/s (5 s of play, contacts shown) | target | load average | GL |")
print("|---|---|---|---|---|---|---|---|")
p = b["profile"]
print("| clutter %d bodies, 101 frames | %.2f MB | %.2f s | %dx%d (%dx%d) | %.1f | %.0f: %s | %.1f on %d cores | %s |"
      % (b["nbodies"], b["size_mb"], b["load_s"], b["viewport"][0], b["viewport"][1],
         p["canvas"][0], p["canvas"][1], b["fps"], b["target_fps"],
         "met" if b["fps"] >= b["target_fps"] else "NOT met", b["loadavg"], os.cpu_count(),
         "software (SwiftShader)" if b.get("software_gl") else "hardware"))
print()
print("A frame, each part timed to completion: poses %.2f ms, contacts %.2f ms, slider/time/energy "
      "cursor %.2f ms (script), render %.1f ms (%d draw calls, %d triangles)."
      % (p["pose"], p["contacts"], p["ui"], p["render"], p["draw_calls"], p["triangles"]))
PY
    else
      echo "(viewer benchmark failed: $(tail -1 "$tmp/view.txt"))"
    fi
  } >>"$out.tmp"
fi

# the library's rollouts against the command line (results/rollout.md)
echo "running the rollout benchmark (tools/bench/bench_rollout.py)..." >&2
if [ "$quick" = 1 ]; then
  /usr/bin/python3 tools/bench/bench_rollout.py --simc "$BIN/simc" --quick --out "$tmp/rollout.md"
else
  /usr/bin/python3 tools/bench/bench_rollout.py --simc "$BIN/simc" --out results/rollout.md
fi
{
  echo
  echo "## The library from Python: rollouts"
  echo
  echo "Steps per second of simc.rollout on 1 and 2 threads beside the command line and"
  echo "a Python loop: [rollout.md](rollout.md) (tools/bench/bench_rollout.py)."
} >>"$out.tmp"

mv "$out.tmp" "$out"
cat "$out"
