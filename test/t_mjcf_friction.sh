#!/usr/bin/env bash
# A translated MJCF model mixes two geoms' friction as MuJoCo does, taking
# the larger: a box (friction 0.15) on a 15 degree plane (friction 1) sticks
# (mu = 1 > tan 15 = 0.268; moved < 1e-4 m in 1 s, the regularized
# friction's creep), where the harmonic mean (0.261 < 0.268) slides it
# a t^2 / 2 = 0.0335 m with a = g (sin 15 - 0.261 cos 15) (asserted 10 %).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

cat >"$tmp/slope.xml" <<'EOF'
<mujoco>
  <option timestep="0.001"/>
  <worldbody>
    <geom type="plane" size="5 5 0.1" euler="0 15 0" friction="1"/>
    <body name="box" pos="0.025881904510252 0 0.096592582628907" euler="0 15 0">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1" friction="0.15" mass="1"/>
    </body>
  </worldbody>
</mujoco>
EOF
"$BIN/simc" "$tmp/slope.xml" -o "$tmp/max.h5" --quiet
"$BIN/simc" "$tmp/slope.xml" --set contact.friction_mix=harmonic -o "$tmp/harm.h5" --quiet
ok mjcf_friction_is_the_larger "$PY - '$tmp/max.h5' '$tmp/harm.h5' <<'PY'
import sys, h5py, numpy as np
d = [np.linalg.norm(h5py.File(p, 'r')['/q'][-1, :3] - h5py.File(p, 'r')['/q'][0, :3]) for p in sys.argv[1:]]
g, a15 = 9.81, np.radians(15)
mu = 2 * 1 * 0.15 / 1.15
ref = 0.5 * g * (np.sin(a15) - mu * np.cos(a15))
print('  max: moved %.3g m; harmonic: %.5f m (closed form %.5f m)' % (d[0], d[1], ref))
sys.exit(0 if d[0] < 1e-4 and abs(d[1] - ref) < 0.1 * ref else 1)
PY"
