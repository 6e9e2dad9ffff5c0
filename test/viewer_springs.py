#!/usr/bin/python3
"""Drives headless Chromium (the helpers of test/viewer_browser.py) on a
page of a run with a linear spring, for test/t_viewer_springs.sh:

    viewer_springs.py TMPDIR RUN.h5 RUN.html [LIMIT.h5 LIMIT.html]

At two times (recorded rows) the spring's two end points, computed here from
the file alone (/model/springs/point_a, point_b carried by /body/position and
/body/orientation of their bodies) and projected through the camera the
script sets, must be where the page's line ends: the line's pixels are those
that change when the springs are hidden (the body hidden too, so that nothing
covers the line; the floor is in both frames), and its two extreme pixels
along the projected axis lie within END_TOL_PX of the projected end points.
The page's own end points (simcView.springEnds) are printed beside them.

With LIMIT.h5 (scenes/pendulum_limit.yaml): at a time when
/joint/limit_force of the nearest recorded row is not 0, the page marks the
joint (a magenta ball over the body's origin: its pixels' centroid within
0.4 % of the image height of the projected /body/position) and names it;
at a time when it is 0, no magenta pixel and no name."""

import json
import os
import sys

import h5py
import numpy as np

TMP, RUN_H5, RUN_HTML, LIM_H5, LIM_HTML = (sys.argv[1:6] + [""] * 5)[:5]
sys.argv = [sys.argv[0], TMP]           # viewer_browser reads its own arguments on import
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import viewer_browser as vb  # noqa: E402
from PIL import Image  # noqa: E402

# a 1-px line ends within a pixel of its end point (rasterization, no
# antialiasing); half a pixel more for the pixel-centre convention
END_TOL_PX = 1.5


def quat_rotate(q, v):
    w, u = q[0], np.asarray(q[1:], float)
    t = 2 * np.cross(u, v)
    return np.asarray(v, float) + w * t + np.cross(u, t)


def magenta(img, V):
    r, g, b = img[:, :, 0], img[:, :, 1], img[:, :, 2]
    return V.outside_panels((r > 170) & (b > 170) & (g < 120))


def limit_checks(br):
    with h5py.File(LIM_H5, "r") as f:
        t = f["time"][:]
        names = [s.decode() for s in f["model/body_names"][:]]
        pos = f["body/position"][:]
        lf = f["joint/limit_force"][:]
    br.open(LIM_HTML)
    errs = br.errors()
    vb.check("limit_page_loads_without_errors", not errs, "; ".join(errs)[:300])
    b = 1
    on_rows, off_rows = np.nonzero(lf[:, b - 1] != 0)[0], np.nonzero(lf[:, b - 1] == 0)[0]
    row_on, row_off = on_rows[len(on_rows) * 3 // 4], off_rows[len(off_rows) // 4]
    p = pos[row_on, b]
    cam, c, fov = p + np.array([0.3, -2.0, 0.2]), p + np.array([0.3, 0.0, 0.2]), 30.0
    br.eval("simcView.setCamera(%s, %s, %r)" % (list(cam), list(c), fov))
    V = vb.Shots(br, names[1:])
    res = {}
    for row in (row_on, row_off):
        br.eval("simcView.setTime(%r)" % float(t[row]))
        img = V.frame()
        V = vb.Shots(br, names[1:])     # the run information grows with the joint's name
        Image.fromarray(img.astype(np.uint8)).save(os.path.join(TMP, "limit_t%.3f.png" % t[row]))
        m = magenta(img, V)
        ys, xs = np.nonzero(m)
        res[row] = (len(xs), xs.mean() + 0.5 if len(xs) else np.nan, ys.mean() + 0.5 if len(ys) else np.nan,
                    br.eval("simcView.limitText()"))
    xy = V.proj(pos[row_on, b][None], cam, c, fov)[0]
    n, x, y, txt = res[row_on]
    err = float(np.hypot(x - xy[0], y - xy[1])) if n else np.inf
    tol = 0.004 * V.ch
    vb.check("limit_marked_where_file_says", n > 50 and err <= tol and txt == "at a joint limit: " + names[b],
             "t = %.3f s (limit force %.4g N m): %d magenta px centred (%.1f, %.1f) vs the joint "
             "projected (%.1f, %.1f), error %.2f px, tolerance %.1f px; text %r"
             % (t[row_on], lf[row_on, b - 1], n, x, y, xy[0], xy[1], err, tol, txt))
    n0, _, _, txt0 = res[row_off]
    vb.check("limit_unmarked_off_the_limit", n0 == 0 and txt0 == "",
             "t = %.3f s (limit force 0): %d magenta px, text %r" % (t[row_off], n0, txt0))
    errs = br.errors()
    vb.check("limit_page_no_errors_after_use", not errs, "; ".join(errs)[:300])


def main():
    with h5py.File(RUN_H5, "r") as f:
        t = f["time"][:]
        names = [s.decode() for s in f["model/body_names"][:]]
        pos, quat = f["body/position"][:], f["body/orientation"][:]
        if "model/springs/body" not in f:
            vb.check("spring_ends_where_file_says", False, "the file has no /model/springs")
            return 1
        sb = f["model/springs/body"][:]
        pa, pb = f["model/springs/point_a"][:], f["model/springs/point_b"][:]

    def world(row, b, p):
        return p if b == 0 else pos[row, b] + quat_rotate(quat[row, b], p)

    br = vb.Browser()
    try:
        page_checks(br, t, names, sb, pa, pb, world)
        if LIM_HTML:
            limit_checks(br)
        return 0 if all(vb.results) else 1
    except RuntimeError as e:       # the page lacks what is asked of it
        vb.check("browser_checks_ran", False, str(e)[:300])
        return 1
    finally:
        br.close()


def page_checks(br, t, names, sb, pa, pb, world):
    if True:
        br.open(RUN_HTML)
        errs = br.errors()
        vb.check("spring_page_loads_without_errors", not errs, "; ".join(errs)[:300])
        for n in names[1:]:
            br.eval("simcView.setBodyVisible(%s, false)" % json.dumps(n))
        rows = [int(np.argmin(np.abs(t - x))) for x in (0.2 * t[-1], 0.7 * t[-1])]
        ends = [(world(r, sb[0, 0], pa[0]), world(r, sb[0, 1], pb[0])) for r in rows]
        allp = np.array([p for e in ends for p in e])
        c = 0.5 * (allp.min(0) + allp.max(0))
        span = np.linalg.norm(allp.max(0) - allp.min(0))
        # from the front (-y) and a little above, the spring left of and
        # below the middle of the view, clear of the side panel
        c = c + np.array([0.2 * span, 0.0, 0.35 * span])
        cam = c + np.array([0.0, -2.2 * span, 0.5 * span])
        fov = 40.0
        br.eval("simcView.setCamera(%s, %s, %r)" % (list(cam), list(c), fov))
        V = vb.Shots(br, names[1:])
        worst, lens, notes, ok = 0.0, [], [], True
        for r, (A, B) in zip(rows, ends):
            br.eval("simcView.setTime(%r)" % float(t[r]))
            br.eval("simcView.setSpringsVisible(true)")
            on = V.frame()
            br.eval("simcView.setSpringsVisible(false)")
            off = V.frame()
            br.eval("simcView.setSpringsVisible(true)")
            Image.fromarray(on.astype(np.uint8)).save(os.path.join(TMP, "spring_t%.2f.png" % t[r]))
            m = V.outside_panels(np.abs(on - off).sum(axis=2) > 24)
            xy = V.proj(np.array([A, B]), cam, c, fov)
            ys, xs = np.nonzero(m)
            if not len(xs) or not V.clear_of_panels(xy):
                ok = False
                notes.append("t=%g: %d line pixels, ends clear of the panels: %s"
                             % (t[r], len(xs), V.clear_of_panels(xy)))
                continue
            px = np.column_stack([xs + 0.5, ys + 0.5])
            d = (xy[1] - xy[0]) / np.linalg.norm(xy[1] - xy[0])
            s = (px - xy[0]) @ d
            got_a, got_b = px[np.argmin(s)], px[np.argmax(s)]
            ea, eb = np.linalg.norm(got_a - xy[0]), np.linalg.norm(got_b - xy[1])
            worst = max(worst, ea, eb)
            lens.append(np.linalg.norm(got_b - got_a))
            page = br.eval("simcView.springEnds()")[0]
            notes.append("t=%.3f: ends (%.1f, %.1f) and (%.1f, %.1f) px vs projected (%.1f, %.1f) "
                         "and (%.1f, %.1f); the page's own ends differ from the file's by %.2g m"
                         % (t[r], got_a[0], got_a[1], got_b[0], got_b[1], xy[0, 0], xy[0, 1],
                            xy[1, 0], xy[1, 1],
                            max(np.abs(np.array(page[0]) - A).max(), np.abs(np.array(page[1]) - B).max())))
        vb.check("spring_ends_where_file_says", ok and worst <= END_TOL_PX,
                 "largest error %.2f px, tolerance %.1f px; %s" % (worst, END_TOL_PX, "; ".join(notes)))
        want = [np.linalg.norm(np.subtract(*V.proj(np.array(e), cam, c, fov))) for e in ends]
        vb.check("spring_stretches_with_run", len(lens) == 2 and abs((lens[1] - lens[0]) - (want[1] - want[0])) <= 2 * END_TOL_PX
                 and abs(want[1] - want[0]) > 10,
                 "on-screen length %s px, projected %s px" % (np.round(lens, 1).tolist(), np.round(want, 1).tolist()))
        errs = br.errors()
        vb.check("spring_page_no_errors_after_use", not errs, "; ".join(errs)[:300])
    return 0 if all(vb.results) else 1


if __name__ == "__main__":
    sys.exit(main())
