#!/usr/bin/env bash
# /body/position and /body/orientation against forward kinematics computed
# here, independently of simc's kinematics, from /q: the double pendulum's
# elbow and tip from the closed form (p1 = l1 (s1, -c1), p2 = p1 +
# l2 (s12, -c12) in the x-z plane), a free body whose joint frame is offset
# and rotated (pose = J * (p, quat)), a planar joint in a rotated frame
# (spring_cylinder); and /model/geometry and /model/body_parent against the
# scenes' YAML.  Tolerance 1e-12 m (1e-12 on quaternion components): only
# round-off separates two evaluations of the same formulas.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$BIN/simc" scenes/double_pendulum.yaml -o "$tmp/dp.h5" --duration 2 --quiet &&
"$BIN/simc" scenes/spring_cylinder.yaml -o "$tmp/cyl.h5" --duration 1 --quiet &&
"$BIN/simc" scenes/box_incline_slip.yaml -o "$tmp/box.h5" --duration 0.2 --quiet ||
  { echo "FAIL simc_runs"; exit 1; }
cat >"$tmp/free.yaml" <<'Y'
simc: 1
name: free_offset
gravity: [0, 0, -9.81]
time: {step: 1.0e-3, duration: 1.0}
bodies:
  - name: racket
    joint: {type: free, origin: {position: [0.3, -0.2, 1.0], rpy: [0.4, -0.7, 1.1]}}
    mass: 2.0
    inertia: {ixx: 0.1, iyy: 0.2, izz: 0.3}
    initial: {q: [0.1, 0.2, 0.3, 0.5, 0.5, 0.5, 0.5], v: [1, -2, 3, 0.01, 5.0, 0.01]}
    geometry:
      - {shape: capsule, radius: 0.05, length: 0.4, pose: {position: [0, 0, 0.1]}}
Y
"$BIN/simc" "$tmp/free.yaml" -o "$tmp/free.h5" --quiet || { echo "FAIL simc_free"; exit 1; }

"$PY" - "$tmp" <<'PY'
import sys
import h5py
import numpy as np

tmp = sys.argv[1]
TOL = 1e-12


def report(name, err, tol=TOL):
    print("%s %s (max error %.3g, tolerance %g)" % ("PASS" if err <= tol else "FAIL", name, err, tol))


def qmat(q):  # unit quaternion w, x, y, z -> rotation matrix (body to world)
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def rpy(r, p, y):  # R = Rz(yaw) Ry(pitch) Rx(roll)
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    Rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    Ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    Rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return Rz @ Ry @ Rx


def quat_err(got, R):
    """max deviation of a stored quaternion from R (sign-free), and w >= 0"""
    return max(np.abs(qmat(got) - R).max(), 0.0 if got[0] >= 0 else 1.0,
               abs(np.linalg.norm(got) - 1))


# ---- double pendulum, closed form, l1 = l2 = 1 ----
with h5py.File(tmp + "/dp.h5", "r") as f:
    names = [s.decode() for s in f["model/body_names"][:]]
    q, P, Q = f["q"][:], f["body/position"][:], f["body/orientation"][:]
    parent = f["model/body_parent"][:]
    assert f.attrs["format_version"] >= 2  # poses since format 2
    ok_units = (f["body/position"].attrs["units"] in (b"m", "m"))
print(("PASS" if names == ["world", "upper", "lower"] and list(parent) == [-1, 0, 1]
       and P.shape == (len(q), 3, 3) and Q.shape == (len(q), 3, 4) and ok_units
       else "FAIL") + " pendulum_layout")
s1, c1 = np.sin(q[:, 0]), np.cos(q[:, 0])
s12, c12 = np.sin(q[:, 0] + q[:, 1]), np.cos(q[:, 0] + q[:, 1])
elbow = np.stack([s1, 0 * s1, -c1], 1)
tip = np.stack([s1 + s12, 0 * s1, -c1 - c12], 1)
# the tip is 1 m down the lower body's -z axis
tip_sim = P[:, 2] + np.einsum("nij,j->ni", np.array([qmat(x) for x in Q[:, 2]]), [0, 0, -1.0])
report("pendulum_upper_at_origin", np.abs(P[:, 1]).max())
report("pendulum_elbow_closed_form", np.abs(P[:, 2] - elbow).max())
report("pendulum_tip_closed_form", np.abs(tip_sim - tip).max())
# the lower link's angle from the vertical is q1 + q2, about -y
Rl = [rpy(0, -(a + b), 0) for a, b in q]
report("pendulum_lower_orientation", max(quat_err(Q[i, 2], Rl[i]) for i in range(len(q))))
moved = np.abs(tip[:, 0]).max() - np.abs(tip[:, 0]).min()
print(("PASS" if moved > 0.5 else "FAIL") + " pendulum_moves (tip x range %.3f m)" % moved)

# ---- free body in an offset, rotated joint frame: pose = J * (p, quat) ----
RJ, pJ = rpy(0.4, -0.7, 1.1), np.array([0.3, -0.2, 1.0])
with h5py.File(tmp + "/free.h5", "r") as f:
    q, P, Q = f["q"][:], f["body/position"][:], f["body/orientation"][:]
    g = {k: f["model/geometry/" + k][:] for k in ("body", "size", "position", "orientation")}
    shape = [s.decode() for s in f["model/geometry/shape"][:]]
perr = np.abs(P[:, 1] - (pJ + q[:, 0:3] @ RJ.T)).max()
qerr = max(quat_err(Q[i, 1], RJ @ qmat(q[i, 3:7] / np.linalg.norm(q[i, 3:7])))
           for i in range(len(q)))
report("free_body_position_from_q", perr)
report("free_body_orientation_from_q", qerr)
travel = np.linalg.norm(P[-1, 1] - P[0, 1])
print(("PASS" if travel > 1.0 else "FAIL") + " free_body_moves (%.3f m)" % travel)
geo_ok = (shape == ["capsule"] and list(g["body"]) == [1] and
          np.allclose(g["size"][0], [0.05, 0.4, 0]) and np.allclose(g["position"][0], [0, 0, 0.1])
          and np.allclose(g["orientation"][0], [1, 0, 0, 0]))
print(("PASS" if geo_ok else "FAIL") + " free_body_geometry")

# ---- planar joint in a frame rotated by rpy (pi/2, 0, 0) ----
RJ = rpy(np.pi / 2, 0, 0)
with h5py.File(tmp + "/cyl.h5", "r") as f:
    q, P, Q = f["q"][:], f["body/position"][:], f["body/orientation"][:]
perr = np.abs(P[:, 1] - np.stack([q[:, 0], q[:, 1], 0 * q[:, 0]], 1) @ RJ.T).max()
qerr = max(quat_err(Q[i, 1], RJ @ rpy(0, 0, q[i, 2])) for i in range(len(q)))
report("planar_body_pose_from_q", perr)
report("planar_body_orientation_from_q", qerr)

# ---- geometry of a box on a tilted plane: half extents, static plane ----
with h5py.File(tmp + "/box.h5", "r") as f:
    g = {k: f["model/geometry/" + k][:] for k in ("body", "size", "position", "orientation")}
    shape = [s.decode() for s in f["model/geometry/shape"][:]]
    gu = f["model/geometry/size"].attrs["units"]
n = np.array([0.2955202, 0, 0.9553365])
n /= np.linalg.norm(n)
ib, ip = shape.index("box"), shape.index("plane")
zaxis = qmat(g["orientation"][ip]) @ [0, 0, 1]
geo_ok = (sorted(shape) == ["box", "plane"] and g["body"][ib] == 1 and g["body"][ip] == -1 and
          np.allclose(g["size"][ib], [0.1, 0.1, 0.05], atol=1e-15) and gu in (b"m", "m"))
print(("PASS" if geo_ok else "FAIL") + " geometry_box_and_static_plane")
report("geometry_plane_normal", np.abs(zaxis - n).max(), 1e-12)
PY
