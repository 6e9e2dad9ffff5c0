#!/usr/bin/env bash
# The work-precision bench's own tools (tools/bench/wp_scenes.sh, wp_simc.py,
# wp_report.py) on real simc runs and on planted peer figures:
# - simc's sliding box and rolling ball, as the bench runs them: the errors
#   wp_report.py computes must be small against their closed forms (stopping
#   point v0^2 / (2 mu g) within 1e-4 m, measured 3.3e-5; speed 5/7 g sin 10
#   deg t within 1e-5 m/s, measured 2.6e-6), and the floor ratio of the ball
#   cos 10 deg within 1e-3;
# - a planted peer whose box stopped 0.1 m past the closed-form point (in the
#   launch direction) must get an error of 0.1 m (1e-9), computed here from the
#   scene's own numbers; a peer cheaper and less accurate than simc is on the
#   Pareto front, one dearer and less accurate is not;
# - the ratio table: planted ms per step 2 (lagged), 4 (sap), 1 (QuickStep-20)
#   give lagged / QuickStep 0.5 (target 0.5: met) and lagged / sap 0.5.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh
d=$tmp/wp
mkdir -p "$d/raw"

for s in slide roll; do
  tools/bench/wp_scenes.sh "$s" 1e-3 >"$d/raw/$s.yaml"
  "$BIN/simc" "$d/raw/$s.yaml" -o "$tmp/$s.h5" --quiet 2>"$tmp/$s.err" ||
    { echo "FAIL wp_${s}_run"; cat "$tmp/$s.err"; }
  { echo "# simc $s"; $PY tools/bench/wp_simc.py "$tmp/$s.h5" --window 0; } >"$d/raw/${s}__simc__lagged_tol1e-6.txt"
done
ok wp_simc_fields "grep -q '^steps_per_second=.* ms_per_step=.* floor_ratio=' '$d/raw/roll__simc__lagged_tol1e-6.txt' &&
  [ \$(grep -c '^body 0 ' '$d/raw/slide__simc__lagged_tol1e-6.txt') = 1 ]"

# planted peers on the slide: simc's ms per step times 10 and over 10, the box
# 0.1 m and 0.05 m past the closed-form stopping point
$PY - "$d" <<'PY'
import math, os, re, sys
d = sys.argv[1]
text = open(os.path.join(d, "raw", "slide.yaml")).read()
q = [float(x) for x in re.search(r"initial: \{q: \[([^\]]*)\]", text).group(1).split(",")]
v = [float(x) for x in re.search(r"v: \[([^\]]*)\]", text).group(1).split(",")]
g = 9.81
mu = float(re.search(r"friction: ([0-9.]+)", text).group(1))
sp = math.hypot(v[0], v[1])
dist = sp * sp / (2 * mu * g)
ms = float(re.search(r"ms_per_step=([^ ]+)", open(os.path.join(d, "raw", "slide__simc__lagged_tol1e-6.txt")).read()).group(1))
for name, scale, off in (("dear", 10.0, 0.1), ("cheap", 0.1, 0.05)):
    x = q[0] + (dist + off) * v[0] / sp
    y = q[1] + (dist + off) * v[1] / sp
    with open(os.path.join(d, "raw", "slide__peer__%s.txt" % name), "w") as f:
        f.write("# planted\nsteps_per_second=1 ms_per_step=%.9g\n" % (ms * scale))
        f.write("body 0 %.17g %.17g 0.05 1 0 0 0 0 0 0 0 0 0\n" % (x, y))
with open(os.path.join(d, "raw", "ratios.txt"), "w") as f:
    f.write("# planted\n")
    for r in (1, 2, 3):
        f.write("pile216 2.0 lagged %d 2\npile216 2.0 sap %d 4\npile216 2.0 ode %d 1\n" % (r, r, r))
PY
$PY tools/bench/wp_report.py "$d" >"$tmp/wp.md" 2>"$tmp/report.err" || { echo "FAIL wp_report_runs"; cat "$tmp/report.err"; }
csv=$d/wp.csv
err_of() { awk -F, -v s="$1" -v e="$2" '$1 == s && $2 == e { print $5 }' "$csv"; }
echo "  slide error $(err_of slide simc) m, roll error $(err_of roll simc) m/s, planted $(err_of slide peer | tr '\n' ' ')"
ok wp_slide_closed_form "awk -v x='$(err_of slide simc)' 'BEGIN { exit !(x != \"\" && x >= 0 && x < 1e-4) }'"
ok wp_roll_closed_form "awk -v x='$(err_of roll simc)' 'BEGIN { exit !(x != \"\" && x >= 0 && x < 1e-5) }'"
ok wp_roll_floor_ratio "awk -F, '\$1 == \"roll\" && \$2 == \"simc\" { r = \$9 - cos(10 * atan2(0, -1) / 180); exit !(r < 1e-3 && r > -1e-3) }' '$csv'"
ok wp_planted_error "awk -F, '\$1 == \"slide\" && \$3 == \"dear\" { e = \$5 - 0.1; exit !(e < 1e-9 && e > -1e-9) }' '$csv'"
front() { grep -F "| $1 | $2 |" "$tmp/wp.md" | awk -F'|' '{ gsub(/ /, "", $9); print $9 }'; }
ok wp_front_cheap_peer "[ \"\$(front peer cheap)\" = yes ]"
ok wp_front_dear_peer "[ -z \"\$(front peer dear)\" ]"
ok wp_front_simc "[ \"\$(front simc lagged_tol1e-6 | head -1)\" = yes ]"
ok wp_ratio_table "grep -F '| 216 spheres forming, 2.0 s (median of 3) | 2 | 4 | 1 | 0.5 | 0.25 | >= 0.5 | yes | 0.5 |' '$tmp/wp.md' >/dev/null"
ok wp_plots "[ -s '$d/slide.png' ] && [ -s '$d/roll.png' ]"
