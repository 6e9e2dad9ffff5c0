#!/usr/bin/python3
"""wp_simc.py RUN.h5 [--window T0]: a simc run's figures in the form the
work-precision harnesses of the peers print (tools/bench/ode/odebench.c,
tools/bench/mujoco/mjbench.c; doc/performance.md): one summary line of
key=value fields, then one line per body
    body I x y z qw qx qy qz vx vy vz wx wy wz
(world frame, the last row).  The window is the rows whose time is > T0 (the
steps ending after T0).  The run must record every step (output.every 1) and
have only free bodies (the bench scenes).

  ms_per_step   mean of /solver/wall_time over the window (the step alone:
                free motion, detection, contact solve; not the output)
  mean_speed, max_speed   |v| of the bodies' origins (their centres of mass)
                over the window rows and bodies, m/s
  max_depth     deepest contact over the window (/contact/max_penetration), m
  max_depth_run the same over the whole run, m
  floor_ratio   mean over the window of the normal impulses of the contacts
                with the static plane z = 0 over the step, divided by dt and
                the bodies' weight m |g|
  max_drop      the largest initial z - final z of a body, m
  mean_iter     mean contact iterations per window step
"""
import re
import sys

import h5py
import numpy as np


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--window"):
        print("usage: wp_simc.py RUN.h5 [--window T0]", file=sys.stderr)
        return 2
    t0 = float(argv[3]) if len(argv) == 4 else 0.0
    with h5py.File(argv[1], "r") as f:
        t = f["/time"][:]
        n = len(t)
        if n < 2:
            print(f"wp_simc.py: {argv[1]}: fewer than 2 rows", file=sys.stderr)
            return 1
        dt = float(f.attrs["time_step"])
        if not np.allclose(np.diff(t), dt, rtol=1e-6, atol=1e-12):
            print(f"wp_simc.py: {argv[1]}: rows are not every step", file=sys.stderr)
            return 1
        rows = np.nonzero(t > t0 + 0.5 * dt * 1e-6)[0]
        rows = rows[rows > 0]
        pos = f["/body/position"][:, 1:, :]
        quat = f["/body/orientation"][:, 1:, :]
        nb = pos.shape[1]
        v = f["/v"][:]
        if v.shape[1] != 6 * nb:
            print(f"wp_simc.py: {argv[1]}: not {nb} free bodies", file=sys.stderr)
            return 1
        v = v.reshape(n, nb, 6)
        wall = f["/solver/wall_time"][:]
        iters = f["/solver/iterations"][:]
        depth = f["/contact/max_penetration"][:]
        # the bodies' masses from the scene's text (the bench scenes give each
        # body a `mass:` line; the output has no mass dataset)
        text = f.attrs["scene_yaml"]
        text = text.decode() if isinstance(text, bytes) else str(text)
        mass = [float(x) for x in re.findall(r"^\s*mass:\s*([-+0-9.eE]+)\s*$", text, re.M)]
        mass = np.array(mass) if len(mass) == nb else None
        g = np.asarray(f.attrs["gravity"], dtype=float)
        floor = np.nan
        if "/contact/body_a" in f and mass is not None and g is not None:
            start = f["/contact/start"][:]
            count = f["/contact/count"][:]
            a = f["/contact/body_a"][:]
            b = f["/contact/body_b"][:]
            nrm = f["/contact/normal"][:]
            pt = f["/contact/point"][:]
            imp = f["/contact/impulse"][:]
            tot = 0.0
            for k in rows:
                s, c = int(start[k]), int(count[k])
                sl = slice(s, s + c)
                # the floor's contacts: with the world, normal along z, at z ~ 0
                # (the impulse acts on body b; the normal points from a to b)
                on = ((a[sl] == 0) & (nrm[sl, 2] > 0.999) & (np.abs(pt[sl, 2]) < 0.01)) | \
                     ((b[sl] == 0) & (nrm[sl, 2] < -0.999) & (np.abs(pt[sl, 2]) < 0.01))
                fz = imp[sl, 2] * np.abs(nrm[sl, 2])
                tot += float(np.sum(fz[on]))
            weight = float(np.sum(mass)) * float(np.linalg.norm(g))
            floor = tot / (len(rows) * dt * weight) if len(rows) and weight > 0 else np.nan
    speed = np.linalg.norm(v[rows, :, :3], axis=2)
    print(f"steps_per_second={1.0 / np.mean(wall[1:]):.6g} ms_per_step={1e3 * np.mean(wall[rows]):.6g} "
          f"window_steps={len(rows)} mean_speed={np.mean(speed):.6g} max_speed={np.max(speed):.6g} "
          f"max_depth={np.max(depth[rows]):.6g} max_depth_run={np.max(depth):.6g} "
          f"floor_ratio={floor:.6g} max_drop={np.max(pos[0, :, 2] - pos[-1, :, 2]):.6g} "
          f"mean_iter={np.mean(iters[rows]):.6g}")
    for i in range(nb):
        vals = list(pos[-1, i]) + list(quat[-1, i]) + list(v[-1, i])
        print("body %d %s" % (i, " ".join("%.17g" % x for x in vals)), flush=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
