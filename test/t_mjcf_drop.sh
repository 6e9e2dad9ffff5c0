#!/usr/bin/env bash
# MuJoCo's humanoid (Debian libmujoco-samples) dropped on its floor from its
# own initial pose, 4 s at dt = 1 ms.  First as translated: its body geoms
# (condim="1") meet the floor's condim 3 and friction 1, and MuJoCo's pair
# takes the larger, so the body slides with friction and comes to rest
# crouched; simc's torso ends where MuJoCo 2.2.2 puts it on the same file at
# the same step (MuJoCo itself, bin/mjbench --states): within 2 cm under the
# midpoint rule (measured 11 mm) and under implicit Euler (17 mm).  The
# crouch the fall ends in is not a smooth function of the step: MuJoCo's
# own torso ends 6.4 mm apart at 2 and 1 ms (x 0.8567, 0.8631, 0.8643 m at
# 2, 1, 0.5 ms), simc's midpoint 4 to 11 mm apart at 1 and 0.5 ms (0.8527,
# 0.8490 m; 0.8652, 0.8539 m with a free joint's coordinates at the frame
# origin instead of the centre of mass, doc/step.md).
# Then frictionless (contact.friction_mix=harmonic: the condim 1 geoms'
# zero friction wins), for each contact model and the LCP,
# under implicit Euler and under the midpoint rule: it comes to rest lying
# on the floor (the torso's centre at its capsule radius, 0.07 m, within
# 2 cm; kinetic energy at the end below 1e-3 of the energy the fall
# released, measured 6.3e-5 to 7.3e-5).  Its contacts follow the model's
# solref (0.015 s, 1) and solimp (0.9 0.99 0.003), translated
# (doc/import.md): at rest (the last second) no contact is deeper than
# 2 mm (measured 1.47 to 1.73 mm; MuJoCo 2.2.2's run of the file at the
# same step: 0.70 mm, test_mjcf_contact), and the deepest contact of the whole run, when
# the falling body first strikes the floor (t = 1.0 to 1.2 s), stays below
# 30 mm (measured 5.2 to 7.2 mm under the Hunt-Crossley laws, 25.5 to
# 25.9 mm under sap and the LCP's Kelvin-Voigt law; MuJoCo's 17.0 mm).
# Energy: under implicit Euler the mechanical energy never rises from one
# step to the next (by more than 1e-9 of E0: round-off) under the
# Hunt-Crossley laws; under the midpoint rule it rises at a few impacts by
# up to 7e-6 of E0 (bound 5e-5), the known cost of its contact impulses
# being placed at mid-step.  Under the Kelvin-Voigt laws a soft contact
# gives back the spring energy it holds (counted as dissipated while it is
# pressed) as the body rises: up to 1.2e-3 of E0 in a step (bound 2e-3).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
M=${MJ_MODELS:-/usr/share/mujoco/model}/humanoid/humanoid.xml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh
if [ ! -r "$M" ]; then
  echo "FAIL humanoid_model_present"; echo "  $M is missing: make test installs libmujoco-samples"; exit 0
fi
make -s -C tools/bench/mujoco >/dev/null
sed 's/timestep="0.005"/timestep="0.001"/' "$M" >"$tmp/humanoid_1ms.xml"
mj_torso=$(bin/mjbench "$tmp/humanoid_1ms.xml" 4000 --states | awk '$1 == "body" && $2 == 0 {print $3, $4, $5}')
echo "  MuJoCo 2.2.2 torso at t = 4 s: $mj_torso"
for case in "midpoint:0.02" "implicit_euler:0.02"; do
  scheme=${case%%:*}; tol=${case#*:}
  "$BIN/simc" "$M" --allow-unsupported -o "$tmp/mj_$scheme.h5" --quiet --dt 1e-3 --duration 4 \
    --set integrator.scheme=$scheme 2>/dev/null
  $PY - "$tmp/mj_$scheme.h5" "$scheme" "$tol" $mj_torso <<'PY'
import sys
import h5py
import numpy as np
f = h5py.File(sys.argv[1], "r")
names = [x.decode() if isinstance(x, bytes) else x for x in f["model/body_names"][:]]
torso = f["body/position"][-1][names.index("torso")]
off = float(np.linalg.norm(torso - np.array([float(x) for x in sys.argv[4:7]])))
print("%s humanoid_rests_as_in_mujoco_%s" % ("PASS" if off < float(sys.argv[3]) else "FAIL", sys.argv[2]))
print("  torso at %s, %.2g m from MuJoCo's (tolerance %s m)" % (np.round(torso, 4), off, sys.argv[3]))
PY
done
for scheme in implicit_euler midpoint; do
for case in "lagged:" "sap:--set contact.model=sap" "similar:--set contact.model=similar" "lcp:--solver lcp"; do
  name=${case%%:*}; args=${case#*:}
  # shellcheck disable=SC2086
  "$BIN/simc" "$M" --allow-unsupported -o "$tmp/$name.h5" --quiet --dt 1e-3 --duration 4 \
    --set integrator.scheme=$scheme --set output.every=1 --set contact.friction_mix=harmonic $args 2>/dev/null
  $PY - "$tmp/$name.h5" "${name}_$scheme" "$scheme" <<'PY'
import sys
import h5py
import numpy as np
f = h5py.File(sys.argv[1], "r")
name, scheme = sys.argv[2], sys.argv[3]
E = f["energy/total"][:]
ke = f["energy/kinetic"][:]
t = f["time"][:]
depth = f["contact/max_penetration"][:]
pen, rest = float(depth.max()), float(depth[t > t[-1] - 1].max())
names = [x.decode() if isinstance(x, bytes) else x for x in f["model/body_names"][:]]
tz = float(f["body/position"][-1][names.index("torso"), 2])
released = E[0] - E[-1]
rise = float(np.max(np.diff(E)))
mid = scheme == "midpoint"
kv = name.startswith("sap") or name.startswith("lcp")
ok = (abs(tz - 0.07) < 0.02 and ke[-1] < 1e-3 * released and
      rise <= (2e-3 if kv else 5e-5 if mid else 1e-9) * abs(E[0]) and rest < 2e-3 and pen < 30e-3)
print("%s humanoid_drop_%s" % ("PASS" if ok else "FAIL", name))
print("  torso z %.4f m, kinetic %.3g J of %.3g J released, largest rise of E in a step %.3g J "
      "(E0 %.4g J), deepest %.3g m, deepest in the last second %.3g m" % (tz, ke[-1], released, rise, E[0], pen, rest))
PY
done
done
# At the model's own 5 ms under the defaults (the midpoint rule, lagged),
# as shipped: the deepest contact of its first 3 s within 25 % of the same
# 3 s at 0.5 ms, where the midpoint rule resolves every contact's spring
# and damper (measured 5.67 mm against 5.47 mm).  Its solref contacts'
# Hunt-Crossley dampers are not resolved at 5 ms on a light limb, so their
# laws are written at theta = 1; written at the midpoint's 1/2 (when only
# the spring decided, doc/contact.md section 6) the feet ratcheted into the
# floor, 22.9 mm.
for dt in 0.005 0.0005; do
  "$BIN/simc" "$M" -o "$tmp/own_$dt.h5" --quiet --duration 3 --set time.step=$dt 2>/dev/null
done
$PY - "$tmp/own_0.005.h5" "$tmp/own_0.0005.h5" <<'PY'
import sys
import h5py
d = [float(h5py.File(p, "r")["contact/max_penetration"][:].max()) for p in sys.argv[1:3]]
st = h5py.File(sys.argv[1], "r").attrs.get("status", b"")
st = st.decode() if isinstance(st, bytes) else str(st)
ok = st == "complete" and abs(d[0] - d[1]) < 0.25 * d[1]
print("%s humanoid_own_step_depth" % ("PASS" if ok else "FAIL"))
print("  deepest contact %.4g m at 5 ms, %.4g m at 0.5 ms (%+.1f %%), status %s" %
      (d[0], d[1], 100 * (d[0] - d[1]) / d[1], st))
PY
