#!/usr/bin/env bash
# wp_scenes.sh SCENE DT [N]: the work-precision bench's scenes (YAML on stdout),
# each with an error the bench can measure against a known answer
# (tools/bench/wp_report.py computes it; doc/performance.md says how):
#   pile N    N spheres (r = 4 cm, 0.1 kg, mu 0.5) dropped into a square shaft
#             about sqrt(N / 13.5) spheres wide (216: 4, 1000: 9), 1.5 s:
#             settled from 1.0 s on (resting speed, floor force against the
#             weight, penetration); forming before (penetration)
#   settled N REST   the same spheres at rest where the positions in the file
#             REST ("x y z" per line: a formed pile) put them, for 0.3 s: every
#             engine should keep them at rest (resting speed, floor force
#             against the weight, penetration)
#   stack     boxes of 1, 100 and 10 000 kg (10 cm cubes, bottom to top), 1 s:
#             the top box should not move
#   tower     10 boxes of 1 kg (10 cm cubes), 1 s: the top box should not move
#   slide     a 10 cm, 1 kg box launched at 2 m/s heading 30 deg, mu 0.5, 0.6 s:
#             stops after v0^2 / (2 mu g)
#   roll      a ball (r = 5 cm, 1 kg, mu 0.5) under gravity tilted by 10 deg
#             (a 10 deg incline), 1 s: v = 5/7 g sin(10 deg) t
# Every contact is rigid (stiffness: rigid; each peer uses its own rigid
# contact) and every body starts touching or above what it rests on.  Only
# the one-key-per-line subset that tools/bench/ode/odebench.c and
# tools/bench/mujoco/yaml2mjcf.awk read.
set -u
scene=${1:?usage: wp_scenes.sh pile|settled|stack|tower|slide|roll DT [N [REST]]}
dt=${2:?usage: wp_scenes.sh SCENE DT [N]}
n=${3:-216}
rest=${4:-/dev/null}
awk -v scene="$scene" -v dt="$dt" -v n="$n" -v rest="$rest" '
function header(name, dur, mu, g) {
  printf "# %s: a work-precision bench scene (tools/bench/wp_scenes.sh)\n", name
  print "simc: 1"
  printf "name: wp_%s\n", name
  printf "gravity: %s\n", g
  printf "time: {step: %s, duration: %s}\n", dt, dur
  print "contact:"
  print "  on_failure: warn"
  printf "  defaults: {stiffness: rigid, friction: %s}\n", mu
  print "output: {every: 1}"
  print "bodies:"
}
function body(i, m, x, y, z, geom, v) {
  printf "  - name: body%d\n    joint: {type: free}\n    mass: %s\n    inertia: solid\n", i, m
  if (v == "") printf "    initial: {q: [%.6f, %.6f, %.6f, 1, 0, 0, 0]}\n", x, y, z
  else printf "    initial: {q: [%.6f, %.6f, %.6f, 1, 0, 0, 0], v: %s}\n", x, y, z, v
  printf "    geometry: [%s]\n", geom
}
function bin_walls(half) {
  printf "  - {shape: plane, normal: [1, 0, 0], offset: %.4f, stiffness: rigid}\n", -half
  printf "  - {shape: plane, normal: [-1, 0, 0], offset: %.4f, stiffness: rigid}\n", -half
  printf "  - {shape: plane, normal: [0, 1, 0], offset: %.4f, stiffness: rigid}\n", -half
  printf "  - {shape: plane, normal: [0, -1, 0], offset: %.4f, stiffness: rigid}\n", -half
}
function floor_only() {
  print "static:"
  print "  - {shape: plane, normal: [0, 0, 1], offset: 0.0, stiffness: rigid}"
}
BEGIN {
  g0 = "[0, 0, -9.81]"; cube = "{shape: box, size: [0.1, 0.1, 0.1]}"
  # the shaft is side x side spheres wide, the pile about 13.5 layers deep
  # whatever N (216: 4 wide, 1000: 9 wide)
  side = int(sqrt(n / 13.5) + 0.5); if (side < 1) side = 1
  pitch = 0.09; half = 0.5 * side * pitch + 0.02
  if (scene == "settled") {
    header("settled" n, 0.3, 0.5, g0)
    for (i = 0; i < n; i++) {
      if ((getline line < rest) <= 0) {
        print "wp_scenes.sh: " rest ": fewer than " n " positions" > "/dev/stderr"; exit 2
      }
      split(line, p, " ")
      body(i, 0.1, p[1], p[2], p[3], "{shape: sphere, radius: 0.04}", "")
    }
    floor_only(); bin_walls(half)
  } else if (scene == "pile") {
    # a shaft 4 spheres wide (4.75 diameters), so that the pile jams deep
    # instead of spreading into a layer where balls roll on (nothing resists
    # rolling here); the settled scene zeroes the velocities of what is left
    header("pile" n, 1.5, 0.5, g0)
    srand(4321)
    for (i = 0; i < n; i++) {
      ix = i % side; iy = int(i / side) % side; iz = int(i / (side * side))
      x = -half + 0.02 + (ix + 0.5) * pitch + 0.008 * (rand() - 0.5)
      y = -half + 0.02 + (iy + 0.5) * pitch + 0.008 * (rand() - 0.5)
      z = 0.045 + iz * pitch + 0.005 * rand()
      body(i, 0.1, x, y, z, "{shape: sphere, radius: 0.04}", "")
    }
    floor_only(); bin_walls(half)
  } else if (scene == "stack") {
    header("stack", 1.0, 0.5, g0)
    split("1 100 10000", m, " ")
    for (i = 0; i < 3; i++) body(i, m[i + 1], 0, 0, 0.05 + 0.1 * i, cube, "")
    floor_only()
  } else if (scene == "tower") {
    header("tower", 1.0, 0.5, g0)
    for (i = 0; i < 10; i++) body(i, 1, 0, 0, 0.05 + 0.1 * i, cube, "")
    floor_only()
  } else if (scene == "slide") {
    header("slide", 0.6, 0.5, g0)
    a = 30 * atan2(0, -1) / 180
    body(0, 1, 0, 0, 0.05, cube, sprintf("[%.12f, %.12f, 0, 0, 0, 0]", 2 * cos(a), 2 * sin(a)))
    floor_only()
  } else if (scene == "roll") {
    a = 10 * atan2(0, -1) / 180
    header("roll", 1.0, 0.5, sprintf("[%.12f, 0, %.12f]", 9.81 * sin(a), -9.81 * cos(a)))
    body(0, 1, 0, 0, 0.05, "{shape: sphere, radius: 0.05}", "")
    floor_only()
  } else {
    print "wp_scenes.sh: unknown scene " scene " (pile, stack, tower, slide, roll)" > "/dev/stderr"
    exit 2
  }
}'
