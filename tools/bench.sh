#!/usr/bin/env bash
# make bench: time simc on the benchmark scenes and keep the table in
# results/bench.md (with the machine it ran on).  Figures come from simc's
# own summary line (wall time of the whole run including HDF5 output).
# BENCH_QUICK=1 shortens every run (for a smoke test of this script).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
out=${BENCH_OUT:-results/bench.md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
quick=${BENCH_QUICK:-0}
mkdir -p "$(dirname "$out")"

field() {  # field NAME LINE: the number after NAME in simc's summary line
  sed -n "s/.*$1 \([-+0-9.eE]*\).*/\1/p" <<<"$2"
}

run() {  # run SCENE.yaml EXTRA...: prints the summary line
  "$BIN/simc" "$1" -o "$tmp/out.h5" "${@:2}" 2>&1 >/dev/null | grep '^simc:' | tail -1
}

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

dur=5.0; [ "$quick" = 1 ] && dur=0.2
for n in 10 50 200; do
  for scheme in explicit_euler symplectic_euler implicit_euler midpoint; do
    tools/gen_chain.sh "$n" "$scheme" "$dur" 1.0e-3 >"$tmp/chain.yaml"
    line=$(run "$tmp/chain.yaml")
    steps=$(sed -n 's/.*: \([0-9]*\) steps (t = .*/\1/p' <<<"$line")
    wall=$(field "s) in" "$line")
    status=$(sed -n 's/^simc: \([^:]*\):.*/\1/p' <<<"$line")
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
    steps=$(sed -n 's/.*: \([0-9]*\) steps (t = .*/\1/p' <<<"$line")
    wall=$(field "s) in" "$line")
    status=$(sed -n 's/^simc: \([^:]*\):.*/\1/p' <<<"$line")
    sps=$(awk -v s="$steps" -v w="$wall" 'BEGIN { if (w > 0) printf "%.0f", s / w; else print "-" }')
    ncon=$(field "mean contacts" "$line")
    med=$(field "iterations median" "$line")
    mean=$(sed -n 's/.*median [0-9]* mean \([0-9.]*\).*/\1/p' <<<"$line")
    max=$(sed -n 's/.*mean [0-9.]* max \([0-9]*\),.*/\1/p' <<<"$line")
    pen=$(field "max penetration" "$line")
    echo "| $n | $dt | $dur | $sps | $ncon | $med / $mean / $max | $pen | ${status:-?} |" >>"$out.tmp"
    echo "clutter $n dt $dt: $sps steps/s, $ncon contacts, its $med/$mean/$max ($status)" >&2
  done
done
mv "$out.tmp" "$out"
cat "$out"
