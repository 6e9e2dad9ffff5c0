#!/usr/bin/env bash
# tools/simc-view: its interpolation and contact arithmetic (slerp against a
# body spinning at a constant rate, world impulses against gravity for a box
# held by friction on an incline), its refusals, and the pages it writes in a
# real browser: headless Chromium (Debian's chromium) driven over the
# DevTools protocol by test/viewer_browser.py (no console errors, scripted
# slider, screenshots against the file's positions, a hidden body, the
# gripper of scenes/gripper_lift.yaml with its actuated bodies and actuator
# readout, a 216-body clutter page that loads and plays, its frame rate
# printed; the 30 frames/s target is make bench's).  Also the actuator data
# a page carries (the bodies and units of each actuator, the forces and
# commands of the nearest rows, the energy balance with the actuator work),
# the view framing shapes set off from their body's origin, and a page of a
# run written without contact rows.  Bounded: the browser part is killed
# after 300 s.  VIEWER_KEEP=DIR keeps the screenshots it took
# (drop_t0.00.png, drop_t0.25.png, gripper_t0.png, clutter.png) in DIR.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
VIEW=tools/simc-view
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

viewer_deps h5py numpy websocket PIL || exit 1

# ---- the tool's arithmetic ----
cat >"$tmp/spin.yaml" <<'Y'
simc: 1
name: spin
gravity: [0, 0, 0]
time: {step: 1.0e-3, duration: 1.0}
output: {every: 20}
bodies:
  - name: wheel
    joint: {type: free}
    mass: 1.0
    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1}
    initial: {q: [0, 0, 0, 1, 0, 0, 0], v: [0.5, 0, 0, 0, 0, 7.0]}
    geometry:
      - {shape: box, size: [0.2, 0.1, 0.05]}
Y
"$BIN/simc" "$tmp/spin.yaml" -o "$tmp/spin.h5" --quiet &&
"$BIN/simc" scenes/box_incline_stick.yaml -o "$tmp/stick.h5" --duration 0.3 --quiet &&
"$BIN/simc" scenes/gripper_lift.yaml -o "$tmp/grip.h5" --duration 1 --quiet &&
"$BIN/simc" scenes/arm_torque.yaml -o "$tmp/arm.h5" --duration 0.3 --quiet &&
"$BIN/simc" scenes/pendulum_limit.yaml -o "$tmp/pend.h5" --duration 0.5 --quiet ||
  { echo "FAIL simc_runs"; exit 1; }
"$PY" - "$VIEW" "$tmp" <<'PY'
import importlib.machinery, importlib.util, sys
import h5py, numpy as np
loader = importlib.machinery.SourceFileLoader("simc_view", sys.argv[1])
spec = importlib.util.spec_from_loader("simc_view", loader)
sv = importlib.util.module_from_spec(spec)
loader.exec_module(sv)
tmp = sys.argv[2]

def rep(name, err, tol):
    print("%s %s (max error %.3g, tolerance %g)" % ("PASS" if err <= tol else "FAIL", name, err, tol))

# a body with isotropic inertia spinning at 7 rad/s about z, rows 0.02 s
# apart (0.14 rad): resampled at 37 times between rows, the orientation must
# be the rotation about z by the angle interpolated linearly between the
# rows' angles (what slerp is for a fixed axis; a normalized linear blend of
# the quaternions is off by up to ~1e-5 here), and the position linear in t
R = sv.read_run(tmp + "/spin.h5")
ts = np.linspace(0.013, 0.987, 37)
p, q = sv.resample(R["t"], R["pos"], R["quat"], ts)
# the rows' own rotation angles (about 7 t, up to the integrator's error),
# unwrapped and interpolated linearly in time
row_ang = np.unwrap(2 * np.arctan2(R["quat"][:, 1, 3], R["quat"][:, 1, 0]))
ang = np.interp(ts, R["t"], row_ang)
want = np.stack([np.cos(ang / 2), 0 * ang, 0 * ang, np.sin(ang / 2)], 1)
want *= np.where(want[:, :1] < 0, -1, 1)      # w >= 0, as stored
got = q[:, 1] * np.where(np.sum(q[:, 1] * want, 1, keepdims=True) < 0, -1, 1)
rep("slerp_constant_rate_rotation", np.abs(got - want).max(), 1e-9)
rep("resample_position_linear", np.abs(p[:, 1, 0] - 0.5 * ts).max(), 1e-12)
# shortest arc: q and -q give the same interpolated rotation
qa, qb = want[3], want[4]
rep("slerp_shortest_arc", np.abs(np.abs(sv.slerp(qa, -qb, 0.5)) - np.abs(sv.slerp(qa, qb, 0.5))).max(), 1e-15)
# nlerp would be measurably off at 0.14 rad between rows: the check above can fail
nl = (want[3] + want[4]) / np.linalg.norm(want[3] + want[4])
print("  (rows 0.14 rad apart; slerp midpoint vs nlerp differ by %.2g)" %
      np.abs(sv.slerp(want[3], want[4], 0.3) - (0.7 * want[3] + 0.3 * want[4]) /
             np.linalg.norm(0.7 * want[3] + 0.3 * want[4])).max())

# world impulses: a box held on a 0.3 rad incline by friction; once settled
# the contact impulses of a step balance gravity over the step,
# sum = m g dt (0, 0, 1) with m = 1 kg, dt = 1 ms: this needs the tangent
# basis right, since friction carries sin(0.3) of the load
R = sv.read_run(tmp + "/stick.h5")
rows = np.arange(len(R["t"]))[-50:]
C, maxrows, maxi = sv.pack_contacts(R, R["t"][rows], 10**9)
import base64
start = np.frombuffer(base64.b64decode(C["start"]), np.int32)
imp = np.frombuffer(base64.b64decode(C["impulse"]), np.float32).reshape(-1, 3)
sums = np.array([imp[start[k]:start[k + 1]].sum(0) for k in range(len(start) - 1)])
want = np.array([0, 0, 1.0 * 9.81 * 1e-3])
rep("world_impulse_balances_gravity", np.abs(sums - want).max() / want[2], 0.01)
fric = np.abs(sums[:, 0]).max()
n = np.array([np.sin(0.3), 0, np.cos(0.3)])
tang = np.abs(imp - (imp @ n)[:, None] * n).sum(1).max()
print("%s friction_carries_load (largest tangential impulse %.3g N s, expected ~%.3g)" %
      ("PASS" if tang > 0.2 * 9.81e-3 * np.sin(0.3) else "FAIL", tang, 9.81e-3 * np.sin(0.3) / 4))

# actuators: the body, dof and units of each (the gripper's position servos
# on prismatic joints: N and m; the arm's motors on revolute joints: N m,
# their command u in N m with gear 1), and the readout's values: the force
# and command of the recorded row nearest to each frame, here at frames
# between the rows (--max-frames 37 over 1001 rows)
def info(path):
    R = sv.read_run(path)
    return R, [(a["name"], a["joint"], a["body"], a["type"], a["force_unit"], a["command_unit"])
               for a in R["act_info"]]
R, got = info(tmp + "/grip.h5")
want = [("lift", "lift", 1, "position", "N", "m"), ("left", "left_finger", 2, "position", "N", "m"),
        ("right", "right_finger", 3, "position", "N", "m")]
print("%s actuator_bodies_and_units_gripper (%s)" % ("PASS" if got == want else "FAIL", got))
Ra, got = info(tmp + "/arm.h5")
want = [("shoulder", "upper_arm", 1, "motor", "N m", "N m"), ("elbow", "forearm", 2, "motor", "N m", "N m")]
print("%s actuator_bodies_and_units_arm (%s)" % ("PASS" if got == want else "FAIL", got))
ts = sv.sample_times(R["t"], 37)
A = sv.pack_actuators(R, ts)
f = np.frombuffer(base64.b64decode(A["force"]), np.float32).reshape(len(ts), -1)
c = np.frombuffer(base64.b64decode(A["command"]), np.float32).reshape(len(ts), -1)
near = np.array([np.argmin(np.abs(R["t"] - x)) for x in ts])
err = max(np.abs(f - R["act_force"][near].astype(np.float32)).max(),
          np.abs(c - R["act_command"][near].astype(np.float32)).max())
rep("actuator_readout_nearest_row", err, 0.0)
mx = max(abs(a["maxAbs"] - np.abs(R["act_force"][:, j]).max()) for j, a in enumerate(A["info"]))
rep("actuator_bar_scale_is_largest_force", mx, 0.0)
# no actuators: no readout
Rs = sv.read_run(tmp + "/spin.h5")
print("%s no_actuators_no_readout" % ("PASS" if sv.pack_actuators(Rs, Rs["t"]) is None else "FAIL"))

# the page's energy balance counts the actuator work: its curve is the
# file's total + dissipated - actuator (float32), and stays flat (within
# 1e-3 of the work the actuators put in; without the work it would rise by
# all of it)
import json, re
def page_data(h5, out):
    sv.build(h5, out)
    txt = open(out, encoding="utf-8").read()
    return json.loads(re.search(r'id="simc-data">(.*?)</script>', txt, re.S).group(1))
def f32(s):
    return np.frombuffer(base64.b64decode(s), np.float32)
D = page_data(tmp + "/grip.h5", tmp + "/gp.html")
E = D["energy"]
bal = f32(E["total+dissipated-actuator"])
work = f32(E["actuator"])
with h5py.File(tmp + "/grip.h5", "r") as h:
    rows = np.abs(h["time"][:][:, None] - f32(E["t"])[None, :]).argmin(axis=0)  # nearest
    want = (h["energy/total"][:] + h["energy/dissipated"][:] - h["energy/actuator"][:])[rows]
err = np.abs(bal - want.astype(np.float32)).max()
ok = ("total+dissipated" not in E and err <= 1e-6 * np.abs(want).max() and
      np.ptp(bal) < 1e-3 * work.max() and work.max() > 0.1)
print("%s page_energy_balance_with_actuator_work (curve vs file %.2g J; it varies %.3g J while the "
      "actuators put in %.3g J)" % ("PASS" if ok else "FAIL", err, np.ptp(bal), work.max()))
Ds = page_data(tmp + "/spin.h5", tmp + "/sp.html")
print("%s page_energy_balance_without_actuators" %
      ("PASS" if "total+dissipated" in Ds["energy"] and "actuator" not in Ds["energy"] else "FAIL"))

# framing: the pendulum's body origin is its pivot, which never moves; the
# view's extent covers its bob, 0.5 m out along the arm (x = 0.5 cos q,
# z = 0.5 sin q, the joint turning about -y)
D = page_data(tmp + "/pend.h5", tmp + "/pe.html")
with h5py.File(tmp + "/pend.h5", "r") as h:
    q = h["q"][:, 0]
ext = np.array(D["extent"])
want = np.array([0, 0, 0, 0.5 * np.cos(q).max(), 0, 0.5 * np.sin(q).max()])
want[0], want[2] = min(0, 0.5 * np.cos(q).min()), min(0, 0.5 * np.sin(q).min())
rep("extent_covers_shapes_off_the_origin", np.abs(ext - want).max(), 1e-9)
PY

# ---- refusals ----
# a format_version 1 file: a current one without what version 2 added
"$PY" - "$tmp/spin.h5" "$tmp/v1.h5" <<'PY'
import shutil, sys
import h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    for k in ("body", "model/geometry", "model/body_parent"):
        if k in f:
            del f[k]
    f.attrs["format_version"] = 1
PY
"$PY" "$VIEW" "$tmp/v1.h5" -o "$tmp/old.html" >/dev/null 2>"$tmp/err"; rc=$?
ok refuses_format_1_file "[ $rc = 1 ] && grep -q 'format_version 1: it has no body poses' '$tmp/err' && [ ! -e '$tmp/old.html' ]"
"$PY" "$VIEW" "$tmp/spin.h5" --overlay "$tmp/stick.h5" -o "$tmp/x.html" >/dev/null 2>"$tmp/err"; rc=$?
ok refuses_overlay_of_other_scene "[ $rc = 1 ] && grep -q 'not a run of the same scene' '$tmp/err'"
"$PY" "$VIEW" "$tmp/nope.h5" >/dev/null 2>"$tmp/err"; rc=$?
ok refuses_missing_file "[ $rc = 1 ] && grep -q 'no such file' '$tmp/err'"
"$PY" "$VIEW" "$tmp/spin.h5" --max-frames 1 >/dev/null 2>"$tmp/err"; rc=$?
ok refuses_max_frames_1 "[ $rc = 2 ]"
# a run written without contact rows (output.contacts: false): a page, with
# the contact toggles disabled
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/nc.h5" --duration 0.3 --set output.contacts=false --quiet &&
"$PY" "$VIEW" "$tmp/nc.h5" -o "$tmp/nc.html" >/dev/null 2>"$tmp/err"; rc=$?
ok page_without_contact_rows "[ $rc = 0 ] && grep -q '\"contacts\":null' '$tmp/nc.html'"
# --max-frames: the page holds exactly that many frames, uniform in time
"$PY" "$VIEW" "$tmp/spin.h5" -o "$tmp/spin.html" --max-frames 7 >"$tmp/out" 2>&1
ok max_frames_honoured "grep -q '7 frames of 51 recorded rows' '$tmp/out'"
ok page_is_self_contained "! grep -Eq '<script[^>]+src=|<link[^>]+href=|https?://[a-z]' '$tmp/spin.html' ||
  ! grep -E '<script[^>]+src=|<link[^>]+href=' '$tmp/spin.html' >/dev/null"

# ---- in the browser ----
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/drop.h5" --duration 0.5 --quiet &&
"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/drop_lcp.h5" --duration 0.5 --solver lcp --quiet &&
tools/gen_clutter.sh 216 5e-3 0.5 >"$tmp/clutter216.yaml" &&
"$BIN/simc" "$tmp/clutter216.yaml" -o "$tmp/clutter216.h5" --set output.every=1 --quiet ||
  { echo "FAIL simc_runs_for_pages"; exit 1; }
"$PY" "$VIEW" "$tmp/drop.h5" -o "$tmp/drop.html" >/dev/null &&
"$PY" "$VIEW" "$tmp/drop.h5" --overlay "$tmp/drop_lcp.h5" -o "$tmp/overlay.html" >/dev/null &&
"$PY" "$VIEW" "$tmp/clutter216.h5" -o "$tmp/clutter216.html" &&
"$PY" "$VIEW" "$tmp/grip.h5" -o "$tmp/grip.html" >/dev/null ||
  { echo "FAIL simc_view_pages"; exit 1; }
timeout -k 5 300 "$PY" test/viewer_browser.py "$tmp" "$tmp/drop.h5" "$tmp/drop.html" \
  "$tmp/clutter216.h5" "$tmp/clutter216.html" "$tmp/overlay.html" "$tmp/grip.h5" "$tmp/grip.html"
rc=$?
[ $rc = 124 ] && echo "FAIL browser_tests_time_limit (300 s)"
[ -n "${VIEWER_KEEP:-}" ] && cp "$tmp"/*.png "$VIEWER_KEEP"/ 2>/dev/null
exit 0
