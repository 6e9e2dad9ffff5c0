# yaml2mjcf.awk: convert a simc scene (the YAML subset that tools/gen_chain.sh
# and tools/gen_clutter.sh emit: one key per line, flow maps/lists inside a
# line) to MuJoCo MJCF on stdout.
#
# Conventions mapped (doc/scenes.md):
#   - simc joint frame J = parent frame * origin; the child body frame equals J
#     at q = 0  ->  MJCF <body pos/euler = origin> with the joint at the body
#     origin.  revolute -> hinge, prismatic -> slide, ball -> ball, free -> free
#     (free only with parent world and the default origin, so that simc's q and
#     MuJoCo's qpos are both the world pose), fixed -> no joint.  planar is not
#     supported.
#   - rpy = fixed-axis roll-pitch-yaw, R = Rz Ry Rx  ->  eulerseq "XYZ"
#     (upper case = extrinsic axes in MuJoCo).
#   - mass + com + inertia about the com in body axes -> <inertial>;
#     "inertia: solid" -> geoms at uniform density mass / (sum of volumes),
#     MuJoCo then computes mass, com and inertia from the geoms.
#   - box size = full edge lengths (MuJoCo: half sizes); capsule/cylinder
#     length = segment length (MuJoCo: half length).
#   - static plane {normal n, offset d}: free side n.p > d -> plane geom at
#     pos n*d with zaxis n.
#   - initial q -> the bodies' reference pose (MuJoCo qpos0; see open_body),
#     initial v (when nonzero) -> keyframe 0 qvel.
#   - friction mu -> geom friction (mu, 0.005, 0.0001), condim 3 (torsional
#     and rolling values unused).  Contact stiffness/dissipation are NOT mapped:
#     MuJoCo's solref/solimp model has no exact equivalent; its defaults are kept.
#
#   - gravity: [gx, gy, gz] -> <option gravity> (default 0 0 -9.81);
#     time: {step: H} -> timestep.
#   - free joint initial v = world-frame linear velocity of the body origin and
#     world-frame angular velocity -> keyframe qvel (MuJoCo: linear in the world
#     frame, angular in the body frame, so w is rotated by the inverse of the
#     initial orientation).
#
# Options (awk -v): cone=elliptic|pyramidal (default elliptic),
# integrator=implicit|implicitfast|Euler|RK4 (default implicit; implicitfast is
# MuJoCo 3 only), solver=Newton|PGS|CG
# (default Newton), iterations=N (<option iterations>, default: MuJoCo's, 100),
# tolerance=X (<option tolerance>, default: MuJoCo's, 1e-8; 0 disables the
# early exit), energy=1 to enable mjENBL_ENERGY in the model.

function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }

function fail(msg) { printf "yaml2mjcf: line %d: %s\n", NR, msg > "/dev/stderr"; err = 1; exit 1 }

# Value of `key` inside a flow map / line: text after "key:" up to the next
# comma or closing brace at bracket depth 0.  "" when absent.
function get(s, key,    i, c, d, out, start) {
  if (!match(s, "(^|[{, ])" key ":[ ]*")) return ""
  start = RSTART + RLENGTH; d = 0; out = ""
  for (i = start; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "[" || c == "{") d++
    else if (c == "]" || c == "}") { if (d == 0) break; d-- }
    else if (c == "," && d == 0) break
    out = out c
  }
  return trim(out)
}

# "[a, b, c]" -> "a b c"
function list(s) { gsub(/[\[\]]/, "", s); gsub(/[ \t]*,[ \t]*/, " ", s); return trim(s) }

function nwords(s,    a) { return split(s, a, " ") }

# Split a flow list of maps "[{...}, {...}]" into items[1..n]; returns n.
function split_maps(s, items,    i, c, d, n, cur) {
  n = 0; d = 0; cur = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "{") { d++; if (d == 1) { cur = "{"; continue } }
    if (c == "}") { d--; if (d == 0) { items[++n] = cur "}"; cur = ""; continue } }
    if (d >= 1) cur = cur c
  }
  return n
}

function volume(g,    shape, r, a, L) {
  shape = get(g, "shape")
  if (shape == "sphere") { r = get(g, "radius"); return 4.0 / 3.0 * PI * r * r * r }
  if (shape == "box") { split(list(get(g, "size")), a, " "); return a[1] * a[2] * a[3] }
  if (shape == "capsule") { r = get(g, "radius"); L = get(g, "length"); return PI * r * r * L + 4.0 / 3.0 * PI * r * r * r }
  if (shape == "cylinder") { r = get(g, "radius"); L = get(g, "length"); return PI * r * r * L }
  fail("unsupported shape '" shape "'")
}

function pose_attrs(p,    pos, rpy, s) {
  s = ""
  pos = get(p, "position"); rpy = get(p, "rpy")
  if (pos != "") s = s sprintf(" pos=\"%s\"", list(pos))
  if (rpy != "") s = s sprintf(" euler=\"%s\"", list(rpy))
  return s
}

function geom_xml(g, density, ind,    shape, a, s, mu) {
  shape = get(g, "shape")
  s = ind "<geom type=\"" shape "\""
  if (shape == "sphere") s = s sprintf(" size=\"%s\"", get(g, "radius"))
  else if (shape == "box") { split(list(get(g, "size")), a, " "); s = s sprintf(" size=\"%.12g %.12g %.12g\"", a[1] / 2, a[2] / 2, a[3] / 2) }
  else if (shape == "capsule" || shape == "cylinder") s = s sprintf(" size=\"%s %.12g\"", get(g, "radius"), get(g, "length") / 2)
  else fail("unsupported shape '" shape "'")
  if (get(g, "pose") != "") s = s pose_attrs(get(g, "pose"))
  mu = get(g, "friction"); if (mu != "") s = s sprintf(" friction=\"%s 0.005 0.0001\"", mu)
  if (density != "") s = s sprintf(" density=\"%.12g\"", density)
  return s "/>"
}

# Quaternions are (w, x, y, z) in QW..QZ (results of the helpers below).
function qmul(aw, ax, ay, az, bw, bx, by, bz) {
  QW = aw * bw - ax * bx - ay * by - az * bz
  QX = aw * bx + ax * bw + ay * bz - az * by
  QY = aw * by - ax * bz + ay * bw + az * bx
  QZ = aw * bz + ax * by - ay * bx + az * bw
}
function qaxis(x, y, z, ang,    n, s) {
  n = sqrt(x * x + y * y + z * z); s = sin(ang / 2)
  QW = cos(ang / 2); QX = s * x / n; QY = s * y / n; QZ = s * z / n
}
# fixed-axis roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll)
function qrpy(r, p, y,    w1, x1, y1, z1) {
  qaxis(0, 0, 1, y); w1 = QW; x1 = QX; y1 = QY; z1 = QZ
  qaxis(0, 1, 0, p); qmul(w1, x1, y1, z1, QW, QX, QY, QZ); w1 = QW; x1 = QX; y1 = QY; z1 = QZ
  qaxis(1, 0, 0, r); qmul(w1, x1, y1, z1, QW, QX, QY, QZ)
}
# rotate (x, y, z) by the unit quaternion (w, a, b, c) -> VX VY VZ
function qrot(w, a, b, c, x, y, z,    tx, ty, tz) {
  tx = 2 * (b * z - c * y); ty = 2 * (c * x - a * z); tz = 2 * (a * y - b * x)
  VX = x + w * tx + (b * tz - c * ty)
  VY = y + w * ty + (c * tx - a * tz)
  VZ = z + w * tz + (a * ty - b * tx)
}

# Opening part of body b: pose, joint, inertia, geoms.  The initial q of a
# revolute/prismatic/ball joint is folded into the body's reference pose
# (MuJoCo qpos0), so the model starts in simc's initial configuration without
# a keyframe (MuJoCo 2.2 caps the length of a keyframe attribute); MuJoCo's
# joint coordinate is then simc's minus its initial value, which changes
# nothing in the dynamics (no joint springs or limits in this subset).
function open_body(b, ind,    jt, ax, o, s, gi, ng, items, vol, dens, k, inr, a, pw, px, py, pz, r, q0) {
  jt = get(bjoint[b], "type"); o = get(bjoint[b], "origin")
  s = ind "<body name=\"" bname[b] "\""
  ax = get(bjoint[b], "axis"); ax = (ax == "") ? "0 0 1" : list(ax); split(ax, a, " ")
  qdim = (jt == "free") ? 7 : (jt == "ball") ? 4 : (jt == "fixed") ? 0 : 1
  vdim = (jt == "free") ? 6 : (jt == "ball") ? 3 : (jt == "fixed") ? 0 : 1
  if (bq[b] == "") bq[b] = (qdim == 7) ? "0 0 0 1 0 0 0" : (qdim == 4) ? "1 0 0 0" : (qdim == 1) ? "0" : ""
  if (bv[b] == "") { bv[b] = ""; for (k = 1; k <= vdim; k++) bv[b] = bv[b] " 0" }
  bv[b] = trim(bv[b])
  if (nwords(bq[b]) != qdim || nwords(bv[b]) != vdim) fail(bname[b] ": initial q/v has the wrong size")
  split(bq[b], q0, " ")
  if (jt == "free") {
    if (bparent[b] != "world" || o != "") fail(bname[b] ": free joint needs parent world and no origin")
    s = s sprintf(" pos=\"%s %s %s\" quat=\"%s %s %s %s\"", q0[1], q0[2], q0[3], q0[4], q0[5], q0[6], q0[7])
  } else {
    px = py = pz = 0
    if (get(o, "position") != "") { split(list(get(o, "position")), r, " "); px = r[1]; py = r[2]; pz = r[3] }
    r[1] = r[2] = r[3] = 0
    if (get(o, "rpy") != "") split(list(get(o, "rpy")), r, " ")
    qrpy(r[1], r[2], r[3]); pw = QW; r[1] = QX; r[2] = QY; r[3] = QZ
    if (jt == "revolute") { qaxis(a[1], a[2], a[3], q0[1]); qmul(pw, r[1], r[2], r[3], QW, QX, QY, QZ) }
    else if (jt == "ball") qmul(pw, r[1], r[2], r[3], q0[1], q0[2], q0[3], q0[4])
    else if (jt == "prismatic") {
      k = sqrt(a[1] ^ 2 + a[2] ^ 2 + a[3] ^ 2)
      qrot(pw, r[1], r[2], r[3], a[1] / k * q0[1], a[2] / k * q0[1], a[3] / k * q0[1])
      px += VX; py += VY; pz += VZ; QW = pw; QX = r[1]; QY = r[2]; QZ = r[3]
    } else { QW = pw; QX = r[1]; QY = r[2]; QZ = r[3] }
    if (px != 0 || py != 0 || pz != 0) s = s sprintf(" pos=\"%.12g %.12g %.12g\"", px, py, pz)
    if (QX != 0 || QY != 0 || QZ != 0) s = s sprintf(" quat=\"%.15g %.15g %.15g %.15g\"", QW, QX, QY, QZ)
  }
  print s ">" > out
  if (jt == "revolute") print ind "  <joint name=\"" bname[b] "\" type=\"hinge\" axis=\"" ax "\"/>" > out
  else if (jt == "prismatic") print ind "  <joint name=\"" bname[b] "\" type=\"slide\" axis=\"" ax "\"/>" > out
  else if (jt == "ball") print ind "  <joint name=\"" bname[b] "\" type=\"ball\"/>" > out
  else if (jt == "free") print ind "  <freejoint name=\"" bname[b] "\"/>" > out
  else if (jt != "fixed") fail(bname[b] ": unsupported joint type '" jt "'")
  ng = split_maps(bgeom[b], items)
  dens = ""
  if (binertia[b] == "solid") {
    vol = 0; for (gi = 1; gi <= ng; gi++) vol += volume(items[gi])
    if (vol <= 0) fail(bname[b] ": inertia solid without shapes")
    dens = bmass[b] / vol
  } else {
    inr = binertia[b]
    s = sprintf("%s  <inertial pos=\"%s\" mass=\"%s\"", ind, (bcom[b] == "") ? "0 0 0" : list(bcom[b]), bmass[b])
    if (get(inr, "ixy") + 0 == 0 && get(inr, "ixz") + 0 == 0 && get(inr, "iyz") + 0 == 0)
      s = s sprintf(" diaginertia=\"%s %s %s\"/>", get(inr, "ixx"), get(inr, "iyy"), get(inr, "izz"))
    else
      s = s sprintf(" fullinertia=\"%s %s %s %s %s %s\"/>", get(inr, "ixx"), get(inr, "iyy"), get(inr, "izz"),
                    get(inr, "ixy") + 0, get(inr, "ixz") + 0, get(inr, "iyz") + 0)
    print s > out
  }
  for (gi = 1; gi <= ng; gi++) {
    # with an explicit <inertial> the geoms only collide (mass 0)
    if (dens == "") { s = geom_xml(items[gi], "", ind "  "); sub(/\/>$/, " mass=\"0\"/>", s); print s > out }
    else print geom_xml(items[gi], dens, ind "  ") > out
  }
  if (jt == "free" && bv[b] ~ /[1-9]/) {
    # MuJoCo's free joint: angular velocity in the body frame -> R(q0)^T w
    split(bv[b], a, " "); qrot(q0[4], -q0[5], -q0[6], -q0[7], a[4], a[5], a[6])
    if (q0[5] != 0 || q0[6] != 0 || q0[7] != 0) bv[b] = sprintf("%s %s %s %.17g %.17g %.17g", a[1], a[2], a[3], VX, VY, VZ)
  }
  if (vdim > 0) { keyv = keyv " " bv[b]; if (bv[b] ~ /[1-9]/) anyv = 1 }
}

# Depth-first, children in input order (MuJoCo numbers bodies and joints in
# this order, which the keyframe's qvel follows).  Iterative: mawk limits the
# recursion depth and chains are deep.  MuJoCo 2.2's XML parser (tinyxml2)
# refuses element nesting deeper than 100, so every SPLIT-th level of a deep
# tree continues in an <include>d file "<parts>.partK.xml" (written next to the
# main file; needs -v parts=PATH_PREFIX).
function emit_tree(    b, j, sp, stk, nxt, ind, base, fname, split_at, saved_out, saved_ind) {
  for (b = 1; b <= nb; b++) nkid[b] = 0
  nroot = 0
  for (b = 1; b <= nb; b++) {
    if (bparent[b] == "world") { root[++nroot] = b; continue }
    for (j = 1; j <= nb; j++) if (bname[j] == bparent[b]) break
    if (j > nb) fail(bname[b] ": parent '" bparent[b] "' not found")
    kid[j, ++nkid[j]] = b
  }
  base = parts; sub(/.*\//, "", base)
  for (j = 1; j <= nroot; j++) {
    sp = 1; stk[1] = root[j]; nxt[1] = 1; ind = "    "; split_at[1] = 0
    open_body(root[j], ind)
    while (sp > 0) {
      b = stk[sp]
      if (nxt[sp] <= nkid[b]) {
        sp++; stk[sp] = kid[b, nxt[sp - 1]]; nxt[sp - 1]++; nxt[sp] = 1; split_at[sp] = 0
        if (sp % SPLIT == 0) {
          if (parts == "") fail("tree deeper than " SPLIT " bodies: give an output file (gen_mjcf.sh -o)")
          fname = sprintf("%s.part%d.xml", base, ++npart)
          print ind "  <include file=\"" fname "\"/>" > out
          split_at[sp] = 1; saved_out[sp] = out; saved_ind[sp] = ind
          out = sprintf("%s.part%d.xml", parts, npart); ind = ""
          print "<mujoco>" > out
        }
        ind = ind "  "; open_body(stk[sp], ind)
      } else {
        print ind "</body>" > out
        if (split_at[sp]) { print "</mujoco>" > out; close(out); out = saved_out[sp]; ind = saved_ind[sp] "  " }
        sp--; ind = substr(ind, 3)
      }
    }
  }
}

function bad_opt(name, val, want) { printf "yaml2mjcf: -v %s=%s: expected %s\n", name, val, want > "/dev/stderr"; err = 1; exit 2 }

BEGIN { PI = atan2(0, -1); SPLIT = 80; out = "/dev/stdout"; npart = 0; nb = 0; ns = 0; sect = ""; mu = 1.0; grav = "0 0 -9.81"; step = 0.002
        if (cone == "") cone = "elliptic"; if (integrator == "") integrator = "implicit"; if (solver == "") solver = "Newton"
        if (cone != "elliptic" && cone != "pyramidal") bad_opt("cone", cone, "elliptic or pyramidal")
        if (integrator !~ /^(implicit|implicitfast|Euler|RK4)$/) bad_opt("integrator", integrator, "implicit, implicitfast (MuJoCo 3), Euler or RK4")
        if (solver != "Newton" && solver != "PGS" && solver != "CG") bad_opt("solver", solver, "Newton, PGS or CG")
        if (iterations != "" && (iterations !~ /^[0-9]+$/ || iterations + 0 < 1)) bad_opt("iterations", iterations, "a positive integer")
        if (tolerance != "" && tolerance !~ /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) bad_opt("tolerance", tolerance, "a number >= 0") }

/^[ \t]*#/ || /^[ \t]*$/ { next }
{ sub(/[ \t]+#.*$/, "") }

/^[a-z]/ {
  sect = ""
  key = $0; sub(/:.*/, "", key); val = $0; sub(/^[a-z_]+:[ ]*/, "", val)
  if (key == "name") model = val
  else if (key == "gravity") grav = list(val)
  else if (key == "time") step = get(val, "step")
  else if (key == "bodies" || key == "static" || key == "contact") sect = key
  next
}

sect == "contact" && /^  defaults:/ { d = get($0, "friction"); if (d != "") mu = d; next }

sect == "bodies" && /^  - / {
  nb++; bparent[nb] = "world"; line = $0; sub(/^  - /, "    ", line); $0 = line
}
sect == "bodies" && /^    [a-z]/ {
  key = trim($0); val = key; sub(/:.*/, "", key); sub(/^[a-z_]+:[ ]*/, "", val)
  if (key == "name") bname[nb] = val
  else if (key == "parent") bparent[nb] = val
  else if (key == "joint") bjoint[nb] = val
  else if (key == "mass") bmass[nb] = val
  else if (key == "com") bcom[nb] = val
  else if (key == "inertia") binertia[nb] = val
  else if (key == "initial") { bq[nb] = list(get(val, "q")); bv[nb] = list(get(val, "v")) }
  else if (key == "geometry") bgeom[nb] = val
  else fail("unsupported body key '" key "'")
  next
}

sect == "static" && /^  - / {
  s = $0; sub(/^  - /, "", s); ns++; stat[ns] = s; next
}

END {
  if (err) exit 1
  print "<mujoco model=\"" model "\">" > out
  print "  <!-- generated from a simc scene by tools/bench/mujoco/yaml2mjcf.awk -->" > out
  print "  <compiler angle=\"radian\" eulerseq=\"XYZ\" inertiafromgeom=\"auto\"/>" > out
  printf "  <option timestep=\"%s\" gravity=\"%s\" integrator=\"%s\" cone=\"%s\" solver=\"%s\"%s%s>\n", step, grav, integrator, cone, solver,
         (iterations == "") ? "" : " iterations=\"" iterations "\"", (tolerance == "") ? "" : " tolerance=\"" tolerance "\"" > out
  if (energy) print "    <flag energy=\"enable\"/>" > out
  print "  </option>" > out
  ng_all = 0; for (b = 1; b <= nb; b++) if (bgeom[b] != "") ng_all++
  if (ns > 0 || ng_all > 0) {
    # room for up to 6 contacts per body (MuJoCo 2.2 sizes these buffers statically)
    printf "  <size nconmax=\"%d\" njmax=\"%d\"/>\n", 6 * nb + 50, 3 * (6 * nb + 50) > out
  }
  printf "  <default><geom friction=\"%s 0.005 0.0001\" condim=\"3\"/></default>\n", mu > out
  print "  <worldbody>" > out
  for (i = 1; i <= ns; i++) {
    if (get(stat[i], "shape") != "plane") { s = geom_xml(stat[i], "", "    "); print s > out; continue }
    split(list(get(stat[i], "normal")), nrm, " "); off = get(stat[i], "offset") + 0
    nn = sqrt(nrm[1] ^ 2 + nrm[2] ^ 2 + nrm[3] ^ 2)
    mus = get(stat[i], "friction"); fa = (mus == "") ? "" : sprintf(" friction=\"%s 0.005 0.0001\"", mus)
    printf "    <geom name=\"static%d\" type=\"plane\" size=\"0 0 1\" pos=\"%.12g %.12g %.12g\" zaxis=\"%.12g %.12g %.12g\"%s/>\n",
           i - 1, nrm[1] / nn * off, nrm[2] / nn * off, nrm[3] / nn * off, nrm[1] / nn, nrm[2] / nn, nrm[3] / nn, fa > out
  }
  emit_tree()
  print "  </worldbody>" > out
  if (anyv) printf "  <keyframe><key name=\"initial\" qvel=\"%s\"/></keyframe>\n", trim(keyv) > out
  print "</mujoco>" > out
}
