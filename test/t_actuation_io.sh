#!/usr/bin/env bash
# The actuation datasets of an output (doc/output.md) against what drove the
# run: scenes/arm_torque.yaml's motors from arm_torque.csv.
#  - /model/commands holds the CSV's columns exactly;
#  - /actuator/command at each recorded row is the CSV linearly
#    interpolated at the middle of the step that ended there (t - dt/2), and
#    /actuator/force that times the gear, clamped to the effort (1e-12);
#  - total + dissipated - actuator stays at total(0) (the summary's energy
#    balance, from the datasets: 1e-3 of the largest energy; measured 2.5e-4
#    of |E0| over 2 s, mostly the arm's impact on the ball);
#  - the gripper's /joint/limit_force is zero away from the limits and its
#    /actuator/force within the effort bounds.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

"$BIN/simc" scenes/arm_torque.yaml -o "$tmp/arm.h5" --set output.every=1 --quiet
ok arm_torque_runs "test -s '$tmp/arm.h5'"

check_arm() {
  $PY - "$tmp/arm.h5" scenes/arm_torque.csv <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
csv = np.loadtxt(sys.argv[2], delimiter=",", skiprows=1)
names = [n.decode() if isinstance(n, bytes) else n for n in f["model/commands/names"][...]]
start = f["model/commands/start"][...]
t_all, v_all = f["model/commands/time"][...], f["model/commands/value"][...]
ok = names == ["shoulder", "elbow"]
for c, col in enumerate((1, 2)):
    ok &= np.array_equal(t_all[start[c]:start[c + 1]], csv[:, 0])
    ok &= np.array_equal(v_all[start[c]:start[c + 1]], csv[:, col])
t = f["time"][1:]
dt = t[1] - t[0]
cmd, force = f["actuator/command"][1:], f["actuator/force"][1:]
eff = f["model/actuators/effort"][...]
gear = f["model/actuators/gear"][...]
worst = 0.0
for c, col in enumerate((1, 2)):
    want = np.interp(t - dt / 2, csv[:, 0], csv[:, col])
    worst = max(worst, np.abs(cmd[:, c] - want).max())
    fw = np.clip(gear[c] * want, eff[c, 0], eff[c, 1])
    worst = max(worst, np.abs(force[:, c] - fw).max())
e = f["energy"]
bal = e["total"][...] + e["dissipated"][...] - e["actuator"][...] - e["total"][0]
scale = np.abs(e["total"][...]).max()
print("  commands from the CSV: %s; command/force error %.3g; energy balance %.3g of %.3g J"
      % (ok, worst, np.abs(bal).max(), scale))
sys.exit(0 if ok and worst < 1e-12 and np.abs(bal).max() < 1e-3 * scale else 1)
PY
}
ok arm_torque_datasets check_arm

"$BIN/simc" scenes/gripper_lift.yaml -o "$tmp/grip.h5" --duration 2 --quiet
check_grip() {
  $PY - "$tmp/grip.h5" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
q = f["q"][...]
rng = f["model/joint_range"][...]
lim = f["joint/limit_force"][...]
jn = [n.decode() if isinstance(n, bytes) else n for n in f["model/joint_names"][...]]
# the lift's joint is never near its limits after the start: no limit force
j = jn.index("lift")
away = (q[:, 0] - rng[j, 0] > 1e-3) & (rng[j, 1] - q[:, 0] > 1e-3)
eff = f["model/actuators/effort"][...]
af = f["actuator/force"][...]
inside = np.all(af >= eff[:, 0] - 1e-9) and np.all(af <= eff[:, 1] + 1e-9)
print("  gripper: limit force away from the limits %.3g N, forces within effort: %s"
      % (np.abs(lim[away, j]).max(), inside))
sys.exit(0 if np.abs(lim[away, j]).max() == 0 and inside else 1)
PY
}
ok gripper_datasets check_grip

# the tools take each actuator's dof from /model/actuators; the scene text
# (what files without /model/actuators offer) must give the same
same_info() {
  $PY - "$1" <<'PY'
import sys
sys.path.insert(0, "tools")
import simc_h5
r = simc_h5.Run(sys.argv[1])
a = r.actuators()
b = simc_h5.actuator_info(r.actuator_names, r.attrs.get("scene_yaml"), r.body_names, r.v_names)
sys.exit(0 if a == b and all(x["dof"] >= 0 for x in a) else 1)
PY
}
ok tools_actuators_from_model_arm "same_info '$tmp/arm.h5'"
ok tools_actuators_from_model_gripper "same_info '$tmp/grip.h5'"
