#!/usr/bin/env bash
# The ODE 0.16 reference section of make bench, and simc's cost-per-step
# scaling on clutter; prints markdown on stdout, progress on stderr.
# tools/bench/bench.sh runs it; alone: tools/bench/bench_ode.sh >>results/bench.md.
#   BIN (default bin): where simc is (odebench is always the one make -C
#   tools/bench/ode builds, bin/odebench); SCALE_DUR (default 0.3): the simulated
#   window of the scaling runs; SCALE_NS (default "64 216 1000 4096");
#   INSTR=0 leaves out the instruction counts (tools/bench/bench_instr.sh, about
#   10 minutes under valgrind).
# simc runs the same scene over the same window back to back with ODE, so
# the ratios hold on a loaded machine; the load average is printed with
# them.  simc's steps/s is its summary line's (whole-run wall time,
# including HDF5 output every 10th step); its peak RSS is GNU time's.
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. tools/bench/bench_lib.sh
# simc_run SCENE.yaml: runs simc under GNU time; sets steps, wall, status,
# ncon, med, mean, max, rss_mib, cpu (user + sys, s)
simc_run() {
  /usr/bin/time -f "%M %U %S" -o "$tmp/time" "$BIN/simc" "$1" -o "$tmp/out.h5" --force \
    2>"$tmp/err" >/dev/null
  local line
  line=$(grep '^simc:' "$tmp/err" | tail -1)
  read_summary "$line"
  read -r rss_kib usr sys <"$tmp/time"
  rss_mib=$(awk -v k="$rss_kib" 'BEGIN { printf "%.1f", k / 1024 }')
  cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}
load() { cut -d' ' -f1 /proc/loadavg; }

if ! dpkg -s libode-dev >/dev/null 2>&1; then
  echo
  echo "(ODE 0.16 reference skipped: apt-get install libode-dev to add it.)"
elif ! { make -s -C tools/bench/ode >"$tmp/ode.err" 2>&1 && [ -x bin/odebench ] &&
          tools/bench/ode/check.sh >"$tmp/odecheck.txt" 2>&1; }; then
  echo
  echo "(ODE reference failed: $(tail -1 "$tmp/odecheck.txt" 2>/dev/null || tail -1 "$tmp/ode.err"))"
else
  echo "running the ODE reference (tools/bench/ode)..." >&2
  echo
  echo "## ODE 0.16 reference (same clutter scenes, same machine, same run)"
  echo
  echo "ODE: dContactApprox1 (pyramid friction, mu = 0.5), soft contact equivalent to k = 1e5 N/m,"
  echo "c = tau_d k with tau_d = 0.01 s (ERP = h k / (h k + c), CFM = 1 / (h k + c)); QuickStep 20"
  echo "iterations, or dWorldStep (Dantzig LCP; not run for N = 1000 or over 2 s: minutes per"
  echo "run); only the step loop is timed.  simc: implicit Euler, SAP to contact.tolerance 1e-6,"
  echo "its summary-line wall time (includes HDF5 output every 10th step), Newton iterations per"
  echo "step (the largest over the step's contact islands; contact-free steps count 0), peak RSS"
  echo "of the whole process.  Ratio above 1: simc faster.  The CPU columns compare user + system"
  echo "time of the whole processes (scene loading and output included), which a loaded machine"
  echo "disturbs less than the wall-time steps/s."
  echo "Scene check (tools/bench/ode/check.sh, N = 27): $(tail -1 "$tmp/odecheck.txt")"
  echo
  echo "| N | dt (s) | simulated (s) | simc steps/s | simc Newton its median / mean / max | simc RSS (MiB) | ODE QuickStep steps/s | ODE dWorldStep steps/s | mean contacts simc / Quick / Step | ODE RSS Quick / Step (MiB) | simc / Quick | simc / Step | CPU s simc / Quick / Step | CPU ratio simc / Quick, simc / Step | load avg |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  for case in "64 0.4 1" "216 0.4 1" "1000 0.4 0" "216 2.0 0"; do
    read -r n dur direct <<<"$case"
    nsteps=$(awk -v d="$dur" 'BEGIN { printf "%d", d / 1.0e-3 + 0.5 }')
    tools/gen_clutter.sh "$n" 1.0e-3 "$dur" >"$tmp/clutter.yaml"
    la=$(load)
    simc_run "$tmp/clutter.yaml"
    sps=$(awk -v s="$steps" -v w="$wall" 'BEGIN { if (w > 0) printf "%.1f", s / w; else print "-" }')
    ode_cpu() {  # ode_cpu STEPPER: odebench's output line; its CPU seconds in $tmp/ocpu
      /usr/bin/time -f "%U %S" -o "$tmp/otime" bin/odebench "$tmp/clutter.yaml" "$nsteps" 1.0e-3 "$1"
      awk '{ printf "%.2f", $1 + $2 }' "$tmp/otime" >"$tmp/ocpu"
    }
    oq=$(ode_cpu quick); qcpu=$(cat "$tmp/ocpu")
    od="-"; dcpu=""
    if [ "$direct" = 1 ]; then od=$(ode_cpu direct); dcpu=$(cat "$tmp/ocpu"); fi
    # CPU-time ratios (whole processes, scene loading included): steadier
    # than wall-time ones on a shared machine
    cq=$(awk -v a="$cpu" -v b="$qcpu" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print "-" }')
    cd_=$(awk -v a="$cpu" -v b="$dcpu" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", b / a; else print "-" }')
    get() { sed -n "s/.*$1=\([-+0-9.eE]*\).*/\1/p" <<<"$2"; }
    qs=$(get steps_per_second "$oq"); ds=$(get steps_per_second "$od"); ds=${ds:--}
    qc=$(get mean_ncon "$oq"); dc=$(get mean_ncon "$od"); dc=${dc:--}
    qm=$(awk -v k="$(get rss_kb "$oq")" 'BEGIN { printf "%.1f", k / 1024 }')
    dm=$(awk -v k="$(get rss_kb "$od")" 'BEGIN { if (k > 0) printf "%.1f", k / 1024; else print "-" }')
    rq=$(awk -v a="$sps" -v b="$qs" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
    rd=$(awk -v a="$sps" -v b="$ds" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
    echo "| $n | 1.0e-3 | $dur | $sps | $med / $mean / $max | $rss_mib | $qs | $ds | $ncon / $qc / $dc | $qm / $dm | $rq | $rd | $cpu / $qcpu / ${dcpu:--} | $cq, $cd_ | $la |"
    echo "ode clutter $n over $dur s: simc $sps (its $med/$mean/$max, $status), quick $qs, direct $ds steps/s" >&2
  done
  # the same comparison in instructions, which the machine's load does not move
  [ "${INSTR:-1}" = 1 ] && BIN=$BIN tools/bench/bench_instr.sh
fi

# Scaling: simc's cost per step on clutter of growing N over the same
# simulated window, and the exponent p of cost ~ N^p fitted by least squares
# on log cost against log N (CPU time, less sensitive to a loaded machine
# than wall time; both are shown).
sdur=${SCALE_DUR:-0.3}
ns=${SCALE_NS:-64 216 1000 4096}
echo "running the scaling runs (clutter $ns over $sdur s)..." >&2
echo
echo "### simc cost per step against N (tools/gen_clutter.sh N 1e-3 $sdur)"
echo
echo "| N | steps | mean contacts | Newton its median / mean / max | wall ms/step | CPU ms/step | peak RSS (MiB) | load avg |"
echo "|---|---|---|---|---|---|---|---|"
fit=""
for n in $ns; do
  tools/gen_clutter.sh "$n" 1.0e-3 "$sdur" >"$tmp/clutter.yaml"
  la=$(load)
  simc_run "$tmp/clutter.yaml"
  wms=$(awk -v s="$steps" -v w="$wall" 'BEGIN { if (s > 0) printf "%.3f", 1000 * w / s; else print "-" }')
  cms=$(awk -v s="$steps" -v c="$cpu" 'BEGIN { if (s > 0) printf "%.3f", 1000 * c / s; else print "-" }')
  echo "| $n | $steps | $ncon | $med / $mean / $max | $wms | $cms | $rss_mib | $la |"
  echo "scaling clutter $n: $cms CPU ms/step, $wms wall ms/step ($status)" >&2
  [ "$status" = complete ] && fit="$fit $n $cms $wms"
done
echo
awk -v d="$fit" 'BEGIN {
  k = split(d, a, " "); n = 0
  for (i = 1; i + 2 <= k; i += 3) { x[n] = log(a[i]); y[n] = log(a[i+1]); z[n] = log(a[i+2]); n++ }
  if (n < 2) { print "(too few complete runs for a fit)"; exit }
  for (i = 0; i < n; i++) { sx += x[i]; sy += y[i]; sz += z[i]; sxx += x[i] * x[i]; sxy += x[i] * y[i]; sxz += x[i] * z[i] }
  den = n * sxx - sx * sx
  p = (n * sxy - sx * sy) / den; q = (n * sxz - sx * sz) / den
  printf "Fitted exponent of the cost per step, cost ~ N^p over N = %s..%s: p = %.2f (CPU time), %.2f (wall time); the target is p <= 1.2.\n", a[1], a[k-2], p, q
}'
