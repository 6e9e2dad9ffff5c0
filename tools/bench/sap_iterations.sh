#!/usr/bin/env bash
# sap_iterations.sh [OUT.png]: where SAP's Newton iterations go on clutter 216
# and 1000 (tools/gen_clutter.sh N 1e-3 0.4), with the exact Newton Hessian
# (contact.slip_curvature=0) and with the default slip curvature.  Runs simc
# with --trace-solver, every step recorded, then tools/sap_trace.py: the plot
# goes to OUT.png (default results/sap_iterations.png), the table to stdout.
# About a minute on a 2-core machine.
set -eu
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
png=${1:-results/sap_iterations.png}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=(); labels=()
for n in 216 1000; do
  tools/gen_clutter.sh "$n" 1e-3 0.4 >"$tmp/c$n.yaml"
  for sc in 0 default; do
    set_sc=(); [ "$sc" = default ] || set_sc=(--set contact.slip_curvature=$sc)
    "$BIN/simc" "$tmp/c$n.yaml" -o "$tmp/c${n}_$sc.h5" --trace-solver --set output.every=1 \
      "${set_sc[@]}" --quiet
    runs+=("$tmp/c${n}_$sc.h5"); labels+=("N=$n sc=$sc")
  done
done
/usr/bin/python3 tools/sap_trace.py "${runs[@]}" --labels "$(IFS=,; echo "${labels[*]}")" -o "$png"
