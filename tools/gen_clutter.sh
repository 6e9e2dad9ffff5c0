#!/usr/bin/env bash
# gen_clutter.sh N [DT] [DURATION] [SOLVER]: N spheres and boxes dropped into a bin
# (YAML on stdout).  Bodies start on a jittered cubic grid above the floor of a
# square bin whose side grows with N^(1/3); spheres and boxes alternate.
n=${1:?usage: gen_clutter.sh N [dt] [duration] [solver]}
dt=${2:-1.0e-3}; duration=${3:-1.0}; solver=${4:-newton}
awk -v n="$n" -v dt="$dt" -v dur="$duration" -v solver="$solver" 'BEGIN {
  side = int(n ^ (1.0 / 3.0) + 0.999999); if (side < 1) side = 1
  pitch = 0.12; half = 0.5 * side * pitch + 0.05
  printf "# clutter: %d spheres and boxes dropped into a bin (tools/gen_clutter.sh)\n", n
  print "simc: 1"
  printf "name: clutter%d\n", n
  print "gravity: [0, 0, -9.81]"
  printf "time: {step: %s, duration: %s}\n", dt, dur
  print "integrator: {scheme: implicit_euler}"
  print "contact:"
  printf "  solver: %s\n  on_failure: warn\n", solver
  print "  defaults: {stiffness: 1.0e5, dissipation_time: 0.01, friction: 0.5}"
  print "output: {every: 10}"
  print "bodies:"
  srand(12345)
  for (i = 0; i < n; i++) {
    ix = i % side; iy = int(i / side) % side; iz = int(i / (side * side))
    x = -half + 0.05 + (ix + 0.5) * pitch + 0.01 * (rand() - 0.5)
    y = -half + 0.05 + (iy + 0.5) * pitch + 0.01 * (rand() - 0.5)
    z = 0.08 + iz * pitch + 0.01 * rand()
    printf "  - name: body%d\n    joint: {type: free}\n    mass: 0.1\n    inertia: solid\n", i
    printf "    initial: {q: [%.5f, %.5f, %.5f, 1, 0, 0, 0]}\n", x, y, z
    if (i % 2 == 0) printf "    geometry: [{shape: sphere, radius: 0.04}]\n"
    else printf "    geometry: [{shape: box, size: [0.07, 0.07, 0.07]}]\n"
  }
  print "static:"
  print "  - {shape: plane, normal: [0, 0, 1], offset: 0.0, stiffness: rigid}"
  printf "  - {shape: plane, normal: [1, 0, 0], offset: %.4f, stiffness: rigid}\n", -half
  printf "  - {shape: plane, normal: [-1, 0, 0], offset: %.4f, stiffness: rigid}\n", -half
  printf "  - {shape: plane, normal: [0, 1, 0], offset: %.4f, stiffness: rigid}\n", -half
  printf "  - {shape: plane, normal: [0, -1, 0], offset: %.4f, stiffness: rigid}\n", -half
}'
