#!/usr/bin/env bash
# check.sh: does the MJCF from gen_mjcf.sh describe simc's scene?  For each
# case, the expected figures are computed here with awk straight from simc's
# YAML (independently of yaml2mjcf.awk), and compared with what MuJoCo
# reports for the converted model after mj_forward (bin/mjinfo):
#   chain   : body count, total mass, inertia trace, initial gravitational
#             potential energy and centre-of-mass height (planar forward
#             kinematics of the revolute-about-y chain, in awk)
#   clutter : body and geom counts, total mass, potential energy (m g z of
#             each body origin = its centre), inertia trace (solid sphere
#             2/5 m r^2, solid box m (b^2 + c^2) / 12 per axis)
# Relative tolerance 1e-9 (YAML numbers are printed with >= 5 digits; MuJoCo
# reads them exactly; the residual is rounding).  Prints PASS/FAIL per case
# and exits nonzero on any FAIL.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
info=$root/bin/mjinfo
make -s -C "$here" >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0

expect_chain() {  # simc chain YAML on stdin -> expected figures
  awk 'function v(s, k,  t) { t = s; if (!match(t, k ": *\\[[^]]*\\]")) return ""; t = substr(t, RSTART, RLENGTH); sub(/.*\[/, "", t); sub(/\].*/, "", t); return t }
       function num(s, k,  t) { t = s; if (!match(t, k ": *[-0-9.eE+]+")) return 0; t = substr(t, RSTART, RLENGTH); sub(/.*: */, "", t); return t + 0 }
       /^gravity:/ { split(v($0, "gravity"), g, /, */) }
       /^  - name:/ { n++ }
       /^    joint:/ { if ($0 !~ /revolute/ || v($0, "axis") != "0, 1, 0") bad = 1
                       o = v($0, "position"); if (o == "") o = "0, 0, 0"; split(o, a, /, */); ox[n] = a[1]; oz[n] = a[3]; if (a[2] + 0 != 0) bad = 1 }
       /^    parent:/ { if (n > 1 && $2 != "link" n - 1) bad = 1 }
       /^    mass:/ { m[n] = $2 }
       /^    com:/ { split(v($0, "com"), a, /, */); cx[n] = a[1]; cz[n] = a[3] }
       /^    inertia:/ { tr += num($0, "ixx") + num($0, "iyy") + num($0, "izz") }
       /^    initial:/ { split(v($0, "q"), a, /, */); q[n] = a[1] }
       END {
         if (bad) { print "unsupported"; exit }
         # planar kinematics in the x-z plane: a rotation by th about +y maps
         # (x, z) to (x cos th + z sin th, -x sin th + z cos th)
         px = 0; pz = 0; th = 0; M = 0; pe = 0; mz = 0
         for (i = 1; i <= n; i++) {
           jx = px + ox[i] * cos(th) + oz[i] * sin(th); jz = pz - ox[i] * sin(th) + oz[i] * cos(th)
           th += q[i]; px = jx; pz = jz
           zc = pz - cx[i] * sin(th) + cz[i] * cos(th)
           M += m[i]; mz += m[i] * zc; pe -= m[i] * g[3] * zc
         }
         printf "nbody=%d total_mass=%.12g inertia_trace=%.12g potential=%.12g com_z=%.12g\n", n, M, tr, pe, mz / M
       }'
}

expect_clutter() {  # simc clutter YAML on stdin -> expected figures
  awk '/^gravity:/ { gsub(/[][,]/, " "); g = $4 }
       /^  - name:/ { n++ }
       /^    mass:/ { m = $2 }
       /^    initial:/ { gsub(/[][,]/, " "); z[n] = $5 }
       /^    geometry:/ { if ($0 ~ /sphere/) { r = $0; sub(/.*radius: */, "", r); sub(/[}\]].*/, "", r); tr += 3 * 0.4 * m * r * r }
                          else { s = $0; sub(/.*size: *\[/, "", s); sub(/\].*/, "", s); split(s, a, /, */)
                                 tr += m * (a[1] ^ 2 + a[2] ^ 2 + a[3] ^ 2) / 6 }
                          M += m; pe -= m * g * z[n]; ng++ }
       /^  - \{shape: plane/ { ng++ }
       END { printf "nbody=%d ngeom=%d total_mass=%.12g inertia_trace=%.12g potential=%.12g\n", n, ng, M, tr, pe }'
}

compare() {  # name, expected line, mjinfo line
  awk -v name="$1" -v exp_line="$2" -v got_line="$3" 'BEGIN {
    ne = split(exp_line, e, " "); ng = split(got_line, gl, " ")
    for (i = 1; i <= ng; i++) { split(gl[i], kv, "="); got[kv[1]] = kv[2] }
    ok = 1; msg = ""
    for (i = 1; i <= ne; i++) {
      split(e[i], kv, "="); k = kv[1]; x = kv[2] + 0
      if (!(k in got)) { ok = 0; msg = msg " " k ":missing"; continue }
      y = got[k] + 0; d = y - x; if (d < 0) d = -d; s = (x < 0 ? -x : x); if (s < 1e-300) s = 1
      if (d > 1e-9 * s) { ok = 0; msg = msg sprintf(" %s: expected %.12g, MuJoCo %.12g;", k, x, y) }
      else msg = msg sprintf(" %s=%.6g", k, y)
    }
    printf "%s %s:%s\n", ok ? "PASS" : "FAIL", name, msg
    exit ok ? 0 : 1 }'
}

for n in 1 10 50 200; do
  "$here/gen_mjcf.sh" -o "$tmp/chain$n.xml" chain "$n" 1e-3
  e=$("$root/tools/gen_chain.sh" "$n" midpoint 5.0 1e-3 | expect_chain)
  compare "chain N=$n" "$e" "$("$info" "$tmp/chain$n.xml")" || fails=$((fails + 1))
done
for n in 8 64 216 512; do
  "$here/gen_mjcf.sh" -o "$tmp/clutter$n.xml" clutter "$n" 1e-3
  e=$("$root/tools/gen_clutter.sh" "$n" 1e-3 1.0 | expect_clutter)
  compare "clutter N=$n" "$e" "$("$info" "$tmp/clutter$n.xml")" || fails=$((fails + 1))
done
[ "$fails" -eq 0 ] && echo "check: all PASS" || { echo "check: $fails FAIL"; exit 1; }
