#!/usr/bin/env bash
# wp_settled.sh SIMC N DIR: the work-precision bench's settled pile (YAML on
# stdout): N spheres formed by simc's defaults over 2.5 s (tools/bench/
# wp_scenes.sh pile), then placed at rest where that left them (velocities
# zeroed: the rest state every engine is asked to hold).  DIR: scratch.
set -u
simc=${1:?usage: wp_settled.sh SIMC N DIR}
n=${2:?usage: wp_settled.sh SIMC N DIR}
dir=${3:?usage: wp_settled.sh SIMC N DIR}
here=$(dirname "$0")
echo "wp_settled: forming the pile to settle (simc defaults, 2.5 s)..." >&2
"$here/wp_scenes.sh" pile 1e-3 "$n" >"$dir/form.yaml"
"$simc" "$dir/form.yaml" -o "$dir/form.h5" --force --duration 2.5 \
  --set output.every=100 --set output.contacts=false >/dev/null 2>&1 || exit 1
/usr/bin/python3 -c '
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    for p in f["/body/position"][-1, 1:, :]:
        print("%.9f %.9f %.9f" % tuple(p))' "$dir/form.h5" >"$dir/rest.txt" || exit 1
"$here/wp_scenes.sh" settled 1e-3 "$n" "$dir/rest.txt"
