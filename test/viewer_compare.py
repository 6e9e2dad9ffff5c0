#!/usr/bin/python3
"""Drives headless Chromium (the helpers of test/viewer_browser.py) on a
page comparing two runs, for test/t_viewer_compare.sh:

    viewer_compare.py TMPDIR A.h5 B.h5 CMP.html

  - the page loads with no console error, the second run drawn over the
    first (not beside it);
  - both bodies where each file puts them: at two times, the first run's
    body alone on screen (the ghost hidden) and the ghost alone (the first
    run hidden), each found by diffing against a frame with both hidden:
    the pixels' centroid within 0.4 % of the image height of the pinhole
    projection of /body/position of its own file;
  - the plotted distance, read back from the page (simcView.compare()),
    equals each body's distance between the two files' positions at the
    frames' times (float32: 1e-6 m), and its first crossing of the
    tolerance is the first recorded row at which the files' distance
    exceeds it, named with the body."""

import json
import os
import sys

import h5py
import numpy as np

TMP, A_H5, B_H5, CMP_HTML = sys.argv[1:5]
sys.argv = [sys.argv[0], TMP]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import viewer_browser as vb  # noqa: E402
from PIL import Image  # noqa: E402


def read(path):
    with h5py.File(path, "r") as f:
        return (f["time"][:], [s.decode() for s in f["model/body_names"][:]], f["body/position"][:])


def main():
    ta, names, pa = read(A_H5)
    tb, _, pb = read(B_H5)
    br = vb.Browser()
    try:
        br.open(CMP_HTML)
        errs = br.errors()
        over = br.eval("!document.getElementById('overlayBeside').checked && "
                       "document.getElementById('showOverlay').checked")
        vb.check("compare_page_loads_ghost_over_run", not errs and over,
                 "; ".join(errs)[:300] or "ghost over the run: %s" % over)

        # ---- the plotted distance against the files ----
        C = br.eval("simcView.compare()")
        t = np.array(C["t"])
        nb = len(names) - 1
        dist = np.array(C["dist"]).reshape(len(t), nb)
        want = np.stack([np.linalg.norm(np.array([np.interp(t, ta, pa[:, b, k]) for k in range(3)]) -
                                        np.array([np.interp(t, tb, pb[:, b, k]) for k in range(3)]),
                                        axis=0) for b in range(1, nb + 1)], 1)
        err = float(np.abs(dist - want).max())
        vb.check("compare_distance_equals_files", len(t) > 10 and err <= 1e-6,
                 "%d frames, %d bodies; largest |page - files| %.2g m (tolerance 1e-6 m, float32); "
                 "largest distance %.4f m" % (len(t), nb, err, want.max()))
        tol = C["tol"]
        common = (ta >= tb[0]) & (ta <= tb[-1])
        rows = np.nonzero(common)[0]
        d_rows = np.stack([np.linalg.norm(pa[rows, b] - np.array(
            [np.interp(ta[rows], tb, pb[:, b, k]) for k in range(3)]).T, axis=1) for b in range(1, nb + 1)], 1)
        k = np.nonzero(np.any(d_rows > tol, axis=1))[0]
        want_first = float(ta[rows[k[0]]]) if len(k) else None
        want_body = int(np.argmax(d_rows[k[0]])) + 1 if len(k) else None
        F = C["first"]
        ok = (F is not None and want_first is not None and F["t"] == want_first and F["body"] == want_body
              and ("t = %.4f s (%s" % (want_first, names[want_body])) in C["legend"])
        vb.check("compare_first_exceeds_tolerance", ok,
                 "page: %s; files: t = %s s, body %s; legend %r" % (F, want_first, want_body, C["legend"]))

        # ---- both bodies where each file puts them ----
        V = vb.Shots(br, names[1:])
        ball = 1
        # flat colours: the lit side of a shaded body is brighter, and a
        # threshold on the difference would cut the ghost's dim side off
        br.eval("simcView.setBodyColor(%s, 0xff0000, true); simcView.setBodyColor(%s, 0xffffff, true, true)"
                % (json.dumps(names[ball]), json.dumps(names[ball])))
        worst, notes, ok = 0.0, [], True
        for ts in (0.25 * ta[-1], 0.8 * ta[-1]):
            ra, rb = int(np.argmin(np.abs(ta - ts))), int(np.argmin(np.abs(tb - ts)))
            ts = float(ta[ra])
            pts = np.array([pa[ra, ball], pb[rb, ball]])
            c = 0.5 * (pts[0] + pts[1])
            span = max(np.linalg.norm(pts[1] - pts[0]), 0.3)
            c2 = c + np.array([0.25 * span, 0, 0.4 * span])   # the bodies below and left of the middle
            cam = c2 + np.array([0.0, -3.5 * span, 0.0])
            fov = 40.0
            br.eval("simcView.setCamera(%s, %s, %r)" % (list(cam), list(c2), fov))
            br.eval("simcView.setTime(%r)" % ts)
            br.eval("simcView.setMainVisible(false); simcView.setGhostVisible(false)")
            none = V.frame()
            br.eval("simcView.setMainVisible(true)")
            main_only = V.frame()
            br.eval("simcView.setMainVisible(false); simcView.setGhostVisible(true)")
            ghost_only = V.frame()
            br.eval("simcView.setMainVisible(true)")
            Image.fromarray(V.frame().astype(np.uint8)).save(os.path.join(TMP, "compare_t%.3f.png" % ts))
            xy = V.proj(pts, cam, c2, fov)
            for which, img, p in (("run", main_only, xy[0]), ("ghost", ghost_only, xy[1])):
                m = V.outside_panels(np.abs(img - none).sum(axis=2) > 24)
                ys, xs = np.nonzero(m)
                if not len(xs) or not V.clear_of_panels(xy):
                    ok = False
                    notes.append("t=%g %s: %d px" % (ts, which, len(xs)))
                    continue
                e = float(np.hypot(xs.mean() + 0.5 - p[0], ys.mean() + 0.5 - p[1]))
                worst = max(worst, e)
                notes.append("t=%.3f %s (%.1f, %.1f) px vs projected (%.1f, %.1f), %d px"
                             % (ts, which, xs.mean() + 0.5, ys.mean() + 0.5, p[0], p[1], len(xs)))
        tol_px = 0.004 * V.ch
        vb.check("compare_bodies_where_each_file_says", ok and worst <= tol_px,
                 "largest error %.2f px, tolerance %.1f px; %s" % (worst, tol_px, "; ".join(notes)))
        errs = br.errors()
        vb.check("compare_page_no_errors_after_use", not errs, "; ".join(errs)[:300])
    except RuntimeError as e:
        vb.check("compare_browser_checks_ran", False, str(e)[:300])
    finally:
        br.close()
    return 0 if all(vb.results) else 1


if __name__ == "__main__":
    sys.exit(main())
