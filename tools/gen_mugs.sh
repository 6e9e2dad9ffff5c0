#!/usr/bin/env bash
# gen_mugs.sh N [MESH] [DURATION] [DT]: N mugs dropped into a bin (YAML on stdout).
# MESH is MuJoCo's mug (Debian libmujoco-samples: /usr/share/mujoco/model/mug/
# mug.obj, centimetres, up along +y: scaled by 0.01 and turned up by roll pi/2).
# Mugs start on a jittered grid, layer above layer, each turned at random
# (a uniformly random rotation), above the floor of a square bin whose side
# grows with sqrt(N / layers): they fall, tumble and pile up.  The grid
# pitch, 0.19 m, exceeds twice the mug's bounding radius about its frame (0.092
# m), so no two mugs overlap at the start whatever their turns.
n=${1:?usage: gen_mugs.sh N [mesh] [duration] [dt]}
mesh=${2:-/usr/share/mujoco/model/mug/mug.obj}
duration=${3:-3.0}; dt=${4:-1.0e-3}
awk -v n="$n" -v mesh="$mesh" -v dt="$dt" -v dur="$duration" 'BEGIN {
  per = int(sqrt(n / 3.0) + 0.999999); if (per < 2) per = 2
  pitch = 0.19; half = 0.5 * per * pitch + 0.02
  printf "# %d mugs dropped into a bin (tools/gen_mugs.sh)\n", n
  print "simc: 1"
  printf "name: mugs%d\n", n
  print "gravity: [0, 0, -9.81]"
  printf "time: {step: %s, duration: %s}\n", dt, dur
  print "integrator: {scheme: implicit_euler}"
  print "contact:"
  print "  defaults: {stiffness: rigid, dissipation_time: 0.01, friction: 0.5}"
  print "output: {every: 10}"
  print "bodies:"
  srand(4242)
  for (i = 0; i < n; i++) {
    ix = i % per; iy = int(i / per) % per; iz = int(i / (per * per))
    x = -half + 0.02 + (ix + 0.5) * pitch + 0.01 * (rand() - 0.5)
    y = -half + 0.02 + (iy + 0.5) * pitch + 0.01 * (rand() - 0.5)
    z = 0.1 + iz * 0.19 + 0.01 * rand()
    # a uniformly random unit quaternion (Shoemake 1992)
    u1 = rand(); u2 = 6.283185307179586 * rand(); u3 = 6.283185307179586 * rand()
    qw = sqrt(1 - u1) * sin(u2); qx = sqrt(1 - u1) * cos(u2); qy = sqrt(u1) * sin(u3); qz = sqrt(u1) * cos(u3)
    printf "  - name: mug%d\n    joint: {type: free}\n    mass: 0.3\n    inertia: solid\n", i
    printf "    initial: {q: [%.5f, %.5f, %.5f, %.9f, %.9f, %.9f, %.9f]}\n", x, y, z, qw, qx, qy, qz
    printf "    geometry: [{shape: mesh, file: \"%s\", scale: 0.01, pose: {rpy: [1.5707963267948966, 0, 0]}}]\n", mesh
  }
  print "static:"
  print "  - {shape: plane}"
  w = half + 0.05
  printf "  - {shape: box, size: [0.1, %.4f, 0.4], pose: {position: [%.4f, 0, 0.2]}}\n", 2 * w, -w
  printf "  - {shape: box, size: [0.1, %.4f, 0.4], pose: {position: [%.4f, 0, 0.2]}}\n", 2 * w, w
  printf "  - {shape: box, size: [%.4f, 0.1, 0.4], pose: {position: [0, %.4f, 0.2]}}\n", 2 * w, -w
  printf "  - {shape: box, size: [%.4f, 0.1, 0.4], pose: {position: [0, %.4f, 0.2]}}\n", 2 * w, w
}'
