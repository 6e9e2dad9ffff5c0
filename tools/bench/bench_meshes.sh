#!/usr/bin/env bash
# bench_meshes.sh: the meshes section of make bench (markdown on stdout):
# collision per call with convex hulls of 8, 100 and 1000 vertices
# (bin/mesh_bench), and N of MuJoCo's mugs dropped into a bin
# (tools/gen_mugs.sh; Debian's libmujoco-samples) with the default contact
# model: steps/s, contacts, Newton iterations, penetration.
# BENCH_QUICK=1 shortens the runs (a smoke test).
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
quick=${BENCH_QUICK:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tools/bench/bench_lib.sh
run() { "$BIN/simc" "$1" -o "$tmp/out.h5" "${@:2}" 2>&1 >/dev/null | grep '^simc:' | tail -1; }

echo "## Meshes: convex hulls (doc/collision.md)"
echo
made_by tools/bench/bench_meshes.sh
echo
echo "Collision per call with hulls of 8, 100 and 1000 vertices (\`bin/mesh_bench\`: medians of"
echo "5 x 2000 random poses in shallow contact), support points found by walking the hull (as"
echo "shipped; hulls of at most 32 vertices are scanned) against scanning every vertex:"
echo
"$BIN/mesh_bench"
mug=/usr/share/mujoco/model/mug/mug.obj
[ -r "$mug" ] || { echo; echo "($mug is missing: install libmujoco-samples for the mug rows)"; exit 0; }
echo
echo "MuJoCo's mug (12 676 vertices, hull 1 873) dropped at random orientations into a bin"
echo "(\`tools/gen_mugs.sh N $mug T 1.0e-3 > m.yaml && $BIN/simc m.yaml\`), default contact model:"
echo
echo "| mugs | simulated (s) | steps/s | real-time factor | mean contacts | Newton its median / mean / max | max penetration (m) | status |"
echo "|---|---|---|---|---|---|---|---|"
for n in 21 100; do
  dur=3.0; [ "$n" = 100 ] && dur=1.5
  [ "$quick" = 1 ] && dur=0.01
  tools/gen_mugs.sh "$n" "$mug" "$dur" 1.0e-3 >"$tmp/mugs.yaml"
  line=$(run "$tmp/mugs.yaml")
  read_summary "$line"
  pen=$(field "max penetration" "$line")
  rtf=$(field "real-time factor" "$line")
  sps=$(awk -v s="$steps" -v w="$wall" 'BEGIN { if (w > 0) printf "%.0f", s / w; else print "-" }')
  echo "| $n | $dur | $sps | $rtf | $ncon | $med / $mean / $max | $pen | ${status:-?} |"
  echo "mugs $n: $sps steps/s, its $med/$mean/$max, penetration $pen ($status)" >&2
done
