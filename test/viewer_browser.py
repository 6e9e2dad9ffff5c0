#!/usr/bin/python3
"""Drives headless Chromium (Debian's chromium) over the DevTools protocol on
pages written by tools/simc-view, and checks what they show against the
simc files they came from.  Used by test/t_viewer.sh:

    viewer_browser.py TMPDIR DROP.h5 DROP.html CLUTTER.h5 CLUTTER.html OVERLAY.html \
                      [GRIPPER.h5 GRIPPER.html]

Checks (one PASS/FAIL line each):
  - every page loads with no console error and no uncaught exception;
  - the time slider, moved by script, puts the page at the given times;
  - frame stepping and play move time as they should;
  - screenshots at t0 and t1 of the falling sphere (camera set by script):
    the centroid of the sphere's pixels sits where the pinhole projection of
    /body/position puts its centre, and moves down by the expected fraction
    of the image height (tolerance 0.4 % of the height, about 2 px: the
    disc's centroid differs from the projected centre by well under a pixel
    at this size, antialiasing moves the edge by under one);
  - the sphere's pixel area matches its projected disc (10 %);
  - a body hidden with its checkbox renders no pixel;
  - the gripper page (scenes/gripper_lift.yaml; actuators): loads with no
    error; the bodies it marks as actuated are the three the scene's
    actuators drive (lift, left_finger, right_finger), drawn in amber tones
    that no passive body and no static shape has; each of those bodies and
    the passive box, seen from the front at t = 0 and at the run's end,
    covers the pixels (found by hiding the body and diffing) whose centroid
    is where the pinhole projection of its shape's centre from
    /body/position, /body/orientation and /model/geometry puts it (0.4 %
    of the image height), covering its projected front face to within a
    pixel on every side, and is drawn in its own colour (the mean colour of those pixels
    points the same way in RGB as the colour the page gives the body,
    cosine > 0.98); the actuator readout is shown and gives, for each
    actuator, its name, and its force and command with their units equal
    to /actuator/force and /actuator/command at the nearest recorded row
    (to the 4 significant digits shown), at two times;
  - the 216-body clutter page loads and plays: over 3 s of wall time the
    page draws frames (each poses every body and renders) and its time
    advances; the frame rate it measured is printed.  The 30 frames/s
    target itself is a speed target, checked by `make bench`
    (tools/bench/bench.sh runs this script with --bench), not here: on a shared
    two-core machine with software GL the figure moves with the load.
With --mesh (test/t_viewer_mesh.sh):

    viewer_browser.py --mesh TMPDIR MESH.h5 MESH.html MANY.h5 MANY.html OVERLAY.html

on a run of test/mesh_view.yaml (a cube mesh on an actuated slider, the same
cube static, an L-shaped mesh and an ellipsoid) and one of 21 bodies
sharing one mesh of 24 544 triangles (the size of MuJoCo's mug), each
shape seen alone (the other bodies hidden) through a camera set by script,
its pixels found by painting it flat red and diffing against a frame with
it hidden:
  - the pages load with no console error;
  - the cube (a mesh small enough to be merged into the bodies' buffers)
    covers the area of its projected convex hull (the file's hull_vertices
    posed by /body and /model/geometry, projected with the page's camera,
    the area of their 2-D convex hull) to within 5 %; lit, its pixels take
    a few flat colours, one per face seen (flat shading: 97 % of them
    within 2 levels of the 3 commonest colours), in the amber of an
    actuated body (the mean colour's cosine with the body's colour > 0.98);
  - the static cube covers its projected hull to within 5 %;
  - the L-shaped mesh covers the pixels of its own triangles (rasterized
    here at the pixel centres: intersection over union >= 0.97), well
    under its projected hull (under 0.85 of it: its triangles are drawn,
    not its hull);
  - the ellipsoid covers its projected ellipse (the 2-D hull of its surface
    sampled densely and projected) to within 10 %, and the projection of
    the faceted sphere the page scales (three.js's 16 x 10 segments) to
    within 3 %;
  - the 21-body page embeds the mesh once, draws it with one instanced
    draw of 21 instances, one of those bodies covers its projected hull to
    within 5 %, and nothing of it is drawn once hidden;
  - the overlay page (the mesh run over itself) loads without errors.
With --mugs (test/t_mugs.sh):

    viewer_browser.py --mugs TMPDIR MUGS.h5 MUGS.html

on a run of 21 of MuJoCo's mugs dropped into a bin (tools/gen_mugs.sh):
the page loads with no console error and draws the mug's mesh (itself,
not its hull) with one instanced draw of 21 instances; at the run's last
row, the first, a middle and the last mug, each alone and flat red, seen
from above the bin's rim (no wall in the line of sight):
  - the pixels it covers (found by diffing against a frame with it hidden:
    the bin's floor and walls are in both) are at most 1.01 of the area of
    its projected convex hull and at least 0.85 of it (the handle's hole);
  - they match its own triangles rasterized here (intersection over union
    >= 0.97).
Everything is local (file:// pages, a loopback DevTools socket); the browser
is killed at the end.  Software WebGL (SwiftShader) is what a machine without
a GPU has; the frame rate is measured with it."""

import base64
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

import h5py
import numpy as np
import websocket
from PIL import Image

BENCH = "--bench" in sys.argv
if BENCH:
    sys.argv.remove("--bench")
TMP, DROP_H5, DROP_HTML, CLUT_H5, CLUT_HTML, OVL_HTML, GRIP_H5, GRIP_HTML = \
    (sys.argv[1:9] + [""] * 8)[:8]
MESH = "--mesh" in sys.argv
if MESH:
    sys.argv.remove("--mesh")
    TMP, MESH_H5, MESH_HTML, MANY_H5, MANY_HTML, MESH_OVL_HTML = (sys.argv[1:7] + [""] * 6)[:6]
MUGS = "--mugs" in sys.argv
if MUGS:
    sys.argv.remove("--mugs")
    TMP, MUGS_H5, MUGS_HTML = (sys.argv[1:4] + [""] * 3)[:3]
W, H = 800, 600
FPS_MIN = 30.0
results = []


def check(name, ok, detail=""):
    print("%s %s%s" % ("PASS" if ok else "FAIL", name, (" (%s)" % detail) if detail else ""))
    results.append(ok)


def chromium_binary():
    for c in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(c)
        if p:
            return p
    return None


class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=TMP)
        args = [chromium_binary(), "--headless", "--remote-debugging-port=0",
                "--remote-allow-origins=*",
                "--user-data-dir=" + self.profile, "--window-size=%d,%d" % (W, H),
                "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                "--ignore-gpu-blocklist", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--mute-audio", "--hide-scrollbars",
                "--allow-file-access-from-files", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium's sandbox refuses to run as root
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        self.log = open(os.path.join(TMP, "chromium.log"), "w")
        # its own process group, so that close() ends the renderer and GPU
        # processes with it
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        try:
            self._connect(port_file)
        except BaseException:
            self.close()
            raise

    def _connect(self, port_file):
        t0 = time.time()
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if time.time() - t0 > 60 or self.proc.poll() is not None:
                raise RuntimeError("chromium did not start (see %s)" % self.log.name)
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port, timeout=10) as r:
            targets = json.load(r)
        page = [t for t in targets if t.get("type") == "page"][0]
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60,
                                              suppress_origin=True)
        self.next_id = 0
        self.events = []
        for dom in ("Page", "Runtime", "Log"):
            self.call(dom + ".enable")
        self.call("Emulation.setDeviceMetricsOverride", {"width": W, "height": H,
                                                         "deviceScaleFactor": 1, "mobile": False})

    def call(self, method, params=None, timeout=60):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params or {}}))
        t0 = time.time()
        while True:
            if time.time() - t0 > timeout:
                raise RuntimeError("%s: no answer in %d s" % (method, timeout))
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def eval(self, expr, await_promise=False, timeout=60):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": await_promise}, timeout)
        if "exceptionDetails" in r:
            raise RuntimeError("page: %s: %s" % (expr[:60], r["exceptionDetails"].get("text")))
        return r["result"].get("value")

    def wait_for(self, event, timeout=60):
        t0 = time.time()
        while time.time() - t0 < timeout:
            for i, e in enumerate(self.events):
                if e.get("method") == event:
                    del self.events[i]
                    return e
            self.ws.settimeout(max(0.1, timeout - (time.time() - t0)))
            try:
                self.events.append(json.loads(self.ws.recv()))
            except websocket.WebSocketTimeoutException:
                break
        self.ws.settimeout(60)
        raise RuntimeError("no %s in %d s" % (event, timeout))

    def open(self, path):
        """Load a page; returns the wall time from navigation to the page's
        interface being ready, s."""
        self.events = []
        t0 = time.time()
        self.call("Page.navigate", {"url": "file://" + os.path.abspath(path)})
        self.wait_for("Page.loadEventFired", 120)
        while not self.eval("!!(window.simcView && window.simcView.ready)"):
            if self.eval("(window.__simcErrors || []).length"):
                break  # the page failed: errors() reports why
            if time.time() - t0 > 120:
                raise RuntimeError("page interface not ready after 120 s")
            time.sleep(0.05)
        return time.time() - t0

    def errors(self):
        """Console errors and uncaught exceptions since the last open()."""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(p["exceptionDetails"].get("text", "exception"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p["args"]))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(p["entry"].get("text", ""))
        return out + list(self.eval("window.__simcErrors || []") or [])

    def screenshot(self):
        r = self.call("Page.captureScreenshot", {"format": "png"})
        return np.asarray(Image.open(io.BytesIO(base64.b64decode(r["data"]))).convert("RGB"))

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass  # not connected: the process is ended below
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.log.close()


def red_mask(img, panels):
    """Pixels of the pure red the test paints the sphere, outside the UI panels."""
    r, g, b = (img[..., i].astype(int) for i in range(3))
    m = (r > 150) & (g < 0.3 * r) & (b < 0.3 * r)
    for x0, y0, x1, y1 in panels:
        m[max(0, int(y0)):int(np.ceil(y1)), max(0, int(x0)):int(np.ceil(x1))] = False
    return m


def project(p, cam, target, fov_deg, w, h):
    """Pixel (x, y) of world point p for a pinhole camera at cam looking at
    target with z up, vertical field of view fov, image w x h."""
    f = np.asarray(target, float) - cam
    f /= np.linalg.norm(f)
    right = np.cross(f, [0, 0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, f)
    d = np.asarray(p, float) - cam
    z = d @ f
    k = 1 / np.tan(np.radians(fov_deg) / 2)
    ndc_x = (d @ right) / z * k / (w / h)
    ndc_y = (d @ up) / z * k
    return (1 + ndc_x) / 2 * w, (1 - ndc_y) / 2 * h, z


def main():
    if not chromium_binary():
        check("chromium_present", False, "apt-get install chromium")
        return 1
    br = Browser()
    try:
        if BENCH:
            return bench_only(br)
        if MESH:
            mesh_checks(br)
        elif MUGS:
            mug_checks(br)
        else:
            run_checks(br)
    finally:
        br.close()
    return 0 if all(results) else 1


def clutter_bench(br, seconds):
    size = os.path.getsize(CLUT_HTML)
    load_s = br.open(CLUT_HTML)
    page_ms = br.eval("window.__simcLoadMs")
    errs = br.errors()
    nb = br.eval("simcView.data.bodies.length - 1")
    br.eval("document.getElementById('showContacts').click()")
    # where a frame's time goes (each part timed to completion, 20 frames,
    # after 5 that warm up the browser's and the software GL's compiled code)
    br.eval("simcView.profile(5)", timeout=120)
    prof = br.eval("simcView.profile(20)", timeout=120)
    bench = br.eval("simcView.bench(%r)" % seconds, await_promise=True, timeout=60 + seconds)
    bench.update({"size_mb": size / 1e6, "load_s": load_s, "page_script_ms": page_ms,
                  "errors": errs, "nbodies": nb, "profile": prof,
                  "loadavg": os.getloadavg()[0], "viewport": [W, H]})
    print("%d-body page: %.2f MB, loaded in %.2f s (navigation to ready; the page's own "
          "scripts done at %.0f ms), %d frames in %.2f s = %.1f frames/s (%s WebGL, "
          "window %dx%d, canvas %dx%d, load average %.1f)"
          % (nb, size / 1e6, load_s, page_ms, bench["frames"], bench["seconds"], bench["fps"],
             "software" if bench.get("software_gl") else "hardware", W, H,
             prof["canvas"][0], prof["canvas"][1], bench["loadavg"]))
    print("  a frame: poses %.2f ms, contacts %.2f ms, slider/time/energy cursor %.2f ms "
          "(script); render %.1f ms (to completion; %d draw calls, %d triangles, %d lines)"
          % (prof["pose"], prof["contacts"], prof["ui"], prof["render"], prof["draw_calls"],
             prof["triangles"], prof["lines"]))
    return bench


def bench_only(br):
    """make bench: the frame rate of the clutter page against FPS_MIN; one
    JSON line on stdout after the human-readable one."""
    b = clutter_bench(br, 5)
    b["target_fps"] = FPS_MIN
    print(json.dumps(b))
    return 0


def run_checks(br):
    # ---- the falling sphere ----
    load_s = br.open(DROP_HTML)
    errs = br.errors()
    check("drop_page_loads_without_errors", not errs, "; ".join(errs)[:300] or "%.2f s" % load_s)
    with h5py.File(DROP_H5, "r") as f:
        t = f["time"][:]
        names = [s.decode() for s in f["model/body_names"][:]]
        ball = names.index("ball")
        zpos = f["body/position"][:, ball, :]
        radius = float(f["model/geometry/size"][list(f["model/geometry/body"][:]).index(ball), 0])
    # scripted slider: set its value and fire the input event a user's drag fires
    ok, worst = True, 0.0
    for ts in (0.1, 0.25, 0.4, 0.05):
        got = br.eval("(function(){var s=document.getElementById('slider'); s.value=%r;"
                      "s.dispatchEvent(new Event('input')); return [simcView.getTime(),"
                      "document.getElementById('time').textContent, +s.value];})()" % ts)
        br.eval("new Promise(function(r){requestAnimationFrame(function(){r(1)})})", True)
        label = br.eval("document.getElementById('time').textContent")
        worst = max(worst, abs(got[0] - ts))
        ok &= abs(got[0] - ts) < 1e-9 and label == "t = %.4f s" % ts
    check("slider_moves_to_given_times", ok, "max |t - target| %.2g s" % worst)
    # frame stepping: one click goes to the next recorded time
    tt = br.eval("Array.prototype.slice.call(simcView.times, 0, 4)")
    br.eval("simcView.setTime(%r)" % tt[1])
    after = br.eval("document.getElementById('stepFwd').click(); simcView.getTime()")
    back = br.eval("document.getElementById('stepBack').click();"
                   "document.getElementById('stepBack').click(); simcView.getTime()")
    check("frame_stepping", abs(after - tt[2]) < 1e-6 and abs(back - tt[0]) < 1e-6,
          "next %.6f want %.6f, back twice %.6f want %.6f" % (after, tt[2], back, tt[0]))
    # play advances time at the chosen speed
    br.eval("simcView.setTime(0); document.getElementById('play').click()")
    time.sleep(0.5)
    played = br.eval("var t=simcView.getTime(); simcView.pause(); t")
    check("play_advances_time", 0.1 < played < 0.5 + 1e-9, "%.3f s of simulated time in 0.5 s" % played)

    # screenshots at two times, camera and colour set by script
    cam, target, fov = np.array([0.0, -3.0, 0.3]), [0.0, 0.0, 0.3], 40.0
    br.eval("simcView.setCamera(%s, %s, %r); simcView.setBodyColor('ball', 0xff0000, true)"
            % (list(cam), target, fov))
    cw, ch = br.eval("simcView.canvasSize()")
    panels = br.eval("['info','side','bar','errors'].map(function(id){var r="
                     "document.getElementById(id).getBoundingClientRect();"
                     "return [r.left, r.top, r.right, r.bottom];})")
    shots = {}
    for ts in (0.0, 0.25):
        br.eval("simcView.setTime(%r)" % ts)
        img = br.screenshot()
        Image.fromarray(img).save(os.path.join(TMP, "drop_t%.2f.png" % ts))
        m = red_mask(img, panels)
        ys, xs = np.nonzero(m)
        # the file's position at ts (a recorded row here, interpolated otherwise)
        p = np.array([np.interp(ts, t, zpos[:, k]) for k in range(3)])
        ex, ey, depth = project(p, cam, target, fov, cw, ch)
        rpx = radius / depth / np.tan(np.radians(fov) / 2) * ch / 2
        shots[ts] = (xs.mean() + 0.5 if len(xs) else np.nan, ys.mean() + 0.5 if len(ys) else np.nan,
                     len(xs), ex, ey, rpx)
    tol = 0.004 * ch
    (x0, y0, n0, ex0, ey0, r0), (x1, y1, n1, ex1, ey1, r1) = shots[0.0], shots[0.25]
    check("sphere_centre_where_file_says", all(abs(a - b) <= tol for a, b in
                                               ((x0, ex0), (y0, ey0), (x1, ex1), (y1, ey1))),
          "t=0: (%.1f, %.1f) px vs projected (%.1f, %.1f); t=0.25: (%.1f, %.1f) vs (%.1f, %.1f);"
          " tolerance %.1f px" % (x0, y0, ex0, ey0, x1, y1, ex1, ey1, tol))
    frac, want = (y1 - y0) / ch, (ey1 - ey0) / ch
    check("sphere_moves_down_expected_fraction", abs(frac - want) <= 0.004 and want > 0.1,
          "moved %.4f of the image height, expected %.4f (tolerance 0.004)" % (frac, want))
    ok_area = all(abs(n / (np.pi * r * r) - 1) < 0.10 for n, r in ((n0, r0), (n1, r1)))
    check("sphere_area_matches_projection", ok_area,
          "%d and %d px vs discs of %.0f and %.0f px" % (n0, n1, np.pi * r0 * r0, np.pi * r1 * r1))
    # hide the body with its checkbox (the bodies list): nothing of it is drawn
    br.eval("document.querySelector('#side details').open = true;"
            "document.getElementById('body-ball').click()")
    br.eval("new Promise(function(r){requestAnimationFrame(function(){r(1)})})", True)
    n_hidden = int(red_mask(br.screenshot(), panels).sum())
    br.eval("document.getElementById('body-ball').click()")
    br.eval("new Promise(function(r){requestAnimationFrame(function(){r(1)})})", True)
    n_shown = int(red_mask(br.screenshot(), panels).sum())
    check("hidden_body_renders_nothing", n_hidden == 0 and n_shown > 100,
          "%d red px hidden, %d shown again" % (n_hidden, n_shown))
    errs = br.errors()
    check("drop_page_no_errors_after_use", not errs, "; ".join(errs)[:300])

    # ---- overlay page: loads, carries the second run ----
    br.open(OVL_HTML)
    errs = br.errors()
    info = br.eval("[!!simcView.data.overlay, simcView.data.overlay && "
                   "simcView.data.overlay.meta.solver, document.getElementById('overlayinfo').textContent]")
    check("overlay_page_loads", not errs and info[0] and info[1] == "lcp",
          "; ".join(errs)[:300] or info[2])

    # ---- the gripper: actuated bodies and the actuator readout ----
    if GRIP_HTML:
        gripper_checks(br)

    # ---- clutter: loads, plays (frame rate printed; the target is make bench's) ----
    b = clutter_bench(br, 3)
    check("clutter_page_loads_without_errors", not b["errors"] and b["nbodies"] == 216,
          "; ".join(b["errors"])[:300] or "%d bodies" % b["nbodies"])
    check("clutter_plays", b["frames"] >= 3 and b["sim_time_played"] != 0,
          "%.1f frames/s measured by the page" % b["fps"])
    img = br.screenshot()
    Image.fromarray(img).save(os.path.join(TMP, "clutter.png"))
    errs = br.errors()
    check("clutter_no_errors_while_playing", not errs, "; ".join(errs)[:300])


def quat_rotate(q, v):
    """v rotated by the unit quaternion q = (w, x, y, z)."""
    w, u = q[0], np.asarray(q[1:], float)
    t = 2 * np.cross(u, v)
    return np.asarray(v, float) + w * t + np.cross(u, t)


def parse_quantity(text):
    """'13.73 N' -> (13.73, 'N'); '-0.5 N m' -> (-0.5, 'N m')."""
    num, _, unit = text.strip().partition(" ")
    return float(num), unit


def gripper_checks(br):
    """scenes/gripper_lift.yaml: the actuated bodies, their colours and
    poses on screen, and the actuator readout (see the module's docstring)."""
    load_s = br.open(GRIP_HTML)
    errs = br.errors()
    check("gripper_page_loads_without_errors", not errs, "; ".join(errs)[:300] or "%.2f s" % load_s)
    with h5py.File(GRIP_H5, "r") as f:
        t = f["time"][:]
        names = [s.decode() for s in f["model/body_names"][:]]
        bpos, bquat = f["body/position"][:], f["body/orientation"][:]
        g = f["model/geometry"]
        gbody, gsize, gpos = g["body"][:], g["size"][:], g["position"][:]
        gshape = [s.decode() for s in g["shape"][:]]
        anames = [s.decode() for s in f["model/actuator_names"][:]]
        aforce, acmd = f["actuator/force"][:], f["actuator/command"][:]
    # the scene's actuators lift, left and right drive the joints of the
    # bodies lift, left_finger and right_finger; the box is passive
    actuated = ["lift", "left_finger", "right_finger"]
    got = br.eval("simcView.actuatedBodies()")
    cols = {n: br.eval("simcView.bodyColor(%s)" % json.dumps(n)) for n in names[1:]}
    static = br.eval("simcView.staticColor")

    def rgb(c):
        return np.array([(c >> 16) & 255, (c >> 8) & 255, c & 255], float)

    def amber(c):
        r, gg, b = rgb(c)
        return r >= 240 and r > gg > b and b < 0.25 * r

    passive = [n for n in names[1:] if n not in actuated]
    ok = (sorted(got) == sorted(actuated) and all(amber(cols[n]) for n in actuated) and
          not any(amber(cols[n]) for n in passive) and not amber(static) and
          not set(cols[n] for n in actuated) & set([cols[n] for n in passive] + [static]))
    check("gripper_actuated_bodies_coloured_apart", ok,
          "actuated %s; colours %s; static %06x" % (got, ", ".join("%s %06x" % (n, c) for n, c in
                                                                  cols.items()), static))

    # each body seen from the front (looking along +y; the gripper below the
    # image's centre, clear of the panels), at t = 0 (open) and at the end
    # (closed on the box): its pixels are those that change when it alone is
    # shown and then hidden too (the fingers reach into the palm: the other
    # bodies are hidden, so that none covers a part of it)
    cam, target, fov = np.array([0.0, -2.5, 0.52]), [0.0, 0.0, 0.52], 12.0
    br.eval("simcView.setCamera(%s, %s, %r)" % (list(cam), target, fov))
    cw, ch = br.eval("simcView.canvasSize()")
    panels = br.eval("['info','side','bar','errors'].map(function(id){var r="
                     "document.getElementById(id).getBoundingClientRect();"
                     "return [r.left, r.top, r.right, r.bottom];})")

    def frame():
        br.eval("new Promise(function(r){requestAnimationFrame(function(){r(1)})})", True)
        return br.screenshot().astype(int)

    def outside_panels(m):
        for x0, y0, x1, y1 in panels:
            m[max(0, int(y0)):int(np.ceil(y1)), max(0, int(x0)):int(np.ceil(x1))] = False
        return m

    def show_only(keep):
        for n in names[1:]:
            br.eval("simcView.setBodyVisible(%s, %s)" % (json.dumps(n), "true" if n in keep else "false"))

    worst, ok_pos, ok_area, ok_col, notes = 0.0, True, True, True, []
    for ts in (0.0, float(t[-1])):
        br.eval("simcView.setTime(%r)" % ts)
        show_only(names[1:])
        if ts == 0.0:
            Image.fromarray(frame().astype(np.uint8)).save(os.path.join(TMP, "gripper_t0.png"))
        show_only([])
        none = frame()
        row = int(np.argmin(np.abs(t - ts)))
        for n in actuated + passive:
            b = names.index(n)
            show_only([n])
            full = frame()
            m = outside_panels(np.abs(full - none).sum(axis=2) > 24)
            ys, xs = np.nonzero(m)
            k = list(gbody).index(b)                   # the body's one shape, a box
            centre = bpos[row, b] + quat_rotate(bquat[row, b], gpos[k])
            ex, ey, depth = project(centre, cam, target, fov, cw, ch)
            px = ch / 2 / np.tan(np.radians(fov) / 2) / depth     # pixels per metre there
            # its front face, w x h pixels: the pixels it covers are within a
            # pixel of it on every side (rasterization; the faces seen
            # edge-on add under a pixel here)
            w, h = 2 * gsize[k, 0] * px, 2 * gsize[k, 2] * px
            area = w * h
            if not len(xs) or gshape[k] != "box":
                ok_pos = False
                notes.append("%s at t=%g: no pixels" % (n, ts))
                continue
            cx, cy = xs.mean() + 0.5, ys.mean() + 0.5
            err = max(abs(cx - ex), abs(cy - ey))
            worst = max(worst, err)
            ok_pos &= err <= 0.004 * ch
            ok_area &= (w - 1) * (h - 1) <= len(xs) <= (w + 2) * (h + 2)
            mean = full[m].mean(axis=0)
            want = rgb(cols[n])
            cos = float(mean @ want / (np.linalg.norm(mean) * np.linalg.norm(want)))
            ok_col &= cos > 0.98
            notes.append("%s t=%g: (%.1f, %.1f) px vs (%.1f, %.1f), %d px vs %.0f, colour cos %.3f"
                         % (n, ts, cx, cy, ex, ey, len(xs), area, cos))
    check("gripper_bodies_where_file_says", ok_pos,
          "largest centroid error %.2f px, tolerance %.1f px" % (worst, 0.004 * ch))
    check("gripper_bodies_area", ok_area, "; ".join(x for x in notes if " px vs " in x)[:600])
    check("gripper_bodies_in_own_colour", ok_col, "; ".join(n.split(", ")[-1] for n in notes)[:300])
    show_only(names[1:])

    # the readout: shown, one row per actuator, values of the nearest row
    shown = br.eval("(function(){var e=document.getElementById('actuators');"
                    "return e.offsetHeight > 0 && getComputedStyle(e).display !== 'none';})()")
    ok, worst, last = shown, 0.0, None
    for ts in (0.2, 0.75):
        br.eval("simcView.setTime(%r)" % ts)
        rd = br.eval("simcView.actuatorReadout()")
        row = int(np.argmin(np.abs(t - ts)))
        ok &= [r[0] for r in rd] == anames
        for j, (name, ftext, ctext) in enumerate(rd):
            fv, fu = parse_quantity(ftext)
            cv, cu = parse_quantity(ctext)
            for got_v, want_v in ((fv, aforce[row, j]), (cv, acmd[row, j])):
                e = abs(got_v - want_v) / max(abs(want_v), 1e-3)
                worst = max(worst, e)
                ok &= e <= 5e-4
            ok &= fu == "N" and cu == "m"
        last = rd
    check("gripper_actuator_readout", ok,
          "largest relative error %.2g (4 digits shown); at t = 0.75: %s"
          % (worst, "; ".join(" ".join(r) for r in (last or []))))
    errs = br.errors()
    check("gripper_page_no_errors_after_use", not errs, "; ".join(errs)[:300])


# ---- meshes and ellipsoids (--mesh) ----

def hull_area(P):
    """Area of the convex hull of 2-D points P [n, 2] (Andrew's monotone
    chain)."""
    P = np.unique(np.asarray(P, float), axis=0)      # sorted by x, then y
    if len(P) < 3:
        return 0.0

    def turn(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for p in P:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in P[::-1]:
        while len(upper) >= 2 and turn(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    h = np.array(lower[:-1] + upper[:-1])
    x, y = h[:, 0], h[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def raster(tris, w, h):
    """Pixels whose centres lie in any of the 2-D triangles tris [m, 3, 2]."""
    m = np.zeros((h, w), bool)
    for a, b, c in tris:
        x0, x1 = int(max(0, np.floor(min(a[0], b[0], c[0])))), int(min(w, np.ceil(max(a[0], b[0], c[0]))))
        y0, y1 = int(max(0, np.floor(min(a[1], b[1], c[1])))), int(min(h, np.ceil(max(a[1], b[1], c[1]))))
        if x1 <= x0 or y1 <= y0:
            continue
        X, Y = np.meshgrid(np.arange(x0, x1) + 0.5, np.arange(y0, y1) + 0.5)
        e = [(q[0] - p[0]) * (Y - p[1]) - (q[1] - p[1]) * (X - p[0])
             for p, q in ((a, b), (b, c), (c, a))]
        inside = ((e[0] >= 0) & (e[1] >= 0) & (e[2] >= 0)) | ((e[0] <= 0) & (e[1] <= 0) & (e[2] <= 0))
        m[y0:y1, x0:x1] |= inside
    return m


def three_sphere(ws, hs):
    """The vertices of three.js's SphereBufferGeometry(1, ws, hs)."""
    out = []
    for iy in range(hs + 1):
        v = iy / hs
        for ix in range(ws + 1):
            u = ix / ws
            out.append([-np.cos(2 * np.pi * u) * np.sin(np.pi * v), np.cos(np.pi * v),
                        np.sin(2 * np.pi * u) * np.sin(np.pi * v)])
    return np.array(out)


def page_data(html):
    import re
    with open(html, encoding="utf-8") as fh:
        txt = fh.read()
    return json.loads(re.search(r'id="simc-data">(.*?)</script>', txt, re.S).group(1))


class Scene:
    """A run's bodies and shapes, read from its file, for projecting them."""

    def __init__(self, path):
        with h5py.File(path, "r") as f:
            self.t = f["time"][:]
            self.names = [s.decode() for s in f["model/body_names"][:]]
            self.bpos, self.bquat = f["body/position"][:], f["body/orientation"][:]
            g = f["model/geometry"]
            self.gbody, self.gsize = g["body"][:], g["size"][:]
            self.gpos, self.gquat = g["position"][:], g["orientation"][:]
            self.gshape = [s.decode() for s in g["shape"][:]]
            self.gmesh = g["mesh"][:] if "mesh" in g else np.full(len(self.gbody), -1)
            self.meshes = {}
            if "model/meshes" in f:
                for k in f["model/meshes"]:
                    M = f["model/meshes"][k]
                    self.meshes[int(k)] = {x: M[x][:] for x in
                                           ("vertices", "faces", "hull_vertices", "hull_faces")}

    def geom_of(self, body):
        b = self.names.index(body)
        return [i for i in range(len(self.gbody)) if self.gbody[i] == b][0]

    def world(self, gi, row, local):
        """Points local [n, 3] of shape gi in the world at row."""
        p = self.gpos[gi] + quat_rotate(self.gquat[gi], local)
        b = self.gbody[gi]
        if b < 0:
            return p
        return self.bpos[row, b] + quat_rotate(self.bquat[row, b], p)


class Shots:
    """An open page seen through a camera set by script: its canvas, the
    panels over it, and each body's pixels alone on screen."""

    def __init__(self, br, bodies):
        self.br, self.bodies = br, list(bodies)
        self.cw, self.ch = br.eval("simcView.canvasSize()")
        self.panels = br.eval("['info','side','bar','errors'].map(function(id){var r="
                              "document.getElementById(id).getBoundingClientRect();"
                              "return [r.left, r.top, r.right, r.bottom];})")

    def frame(self):
        self.br.eval("new Promise(function(r){requestAnimationFrame(function(){r(1)})})", True)
        return self.br.screenshot().astype(int)

    def outside_panels(self, m):
        for x0, y0, x1, y1 in self.panels:
            m[max(0, int(y0)):int(np.ceil(y1)), max(0, int(x0)):int(np.ceil(x1))] = False
        return m

    def clear_of_panels(self, xy):
        """No projected point within 2 px of a panel, nor off the canvas."""
        for x0, y0, x1, y1 in self.panels:
            if np.any((xy[:, 0] > x0 - 2) & (xy[:, 0] < x1 + 2) & (xy[:, 1] > y0 - 2) & (xy[:, 1] < y1 + 2)):
                return False
        return bool(np.all((xy[:, 0] > 2) & (xy[:, 0] < self.cw - 2) &
                           (xy[:, 1] > 2) & (xy[:, 1] < self.ch - 2)))

    def show_only(self, keep):
        for n in self.bodies:
            self.br.eval("simcView.setBodyVisible(%s, %s)" % (json.dumps(n), "true" if n in keep else "false"))

    def aim(self, pts, direction, r_px=90.0):
        """Camera looking at the centre of world points pts from direction,
        at a distance and field of view giving them about r_px pixels of
        radius; returns (cam, target, fov)."""
        c = 0.5 * (pts.min(0) + pts.max(0))
        r = np.linalg.norm(pts - c, axis=1).max()
        d = np.asarray(direction, float)
        d /= np.linalg.norm(d)
        dist = 8 * r
        fov = float(np.degrees(2 * np.arctan(r * self.ch / (2 * dist * r_px))))
        cam = c + dist * d
        self.br.eval("simcView.setCamera(%s, %s, %r)" % (list(cam), list(c), fov))
        return cam, c, fov

    def proj(self, pts, cam, target, fov):
        x, y, _ = project(pts, cam, target, fov, self.cw, self.ch)
        return np.column_stack([x, y])

    def body_pixels(self, name, flat_red=True):
        """The pixels of body name alone on screen (the others hidden; the
        static shapes, drawn in both frames, cancel), and the frames with it
        shown and hidden."""
        self.show_only([name])
        if flat_red:
            self.br.eval("simcView.setBodyColor(%s, 0xff0000, true)" % json.dumps(name))
        full = self.frame()
        self.br.eval("simcView.setBodyVisible(%s, false)" % json.dumps(name))
        none = self.frame()
        self.br.eval("simcView.setBodyVisible(%s, true)" % json.dumps(name))
        return self.outside_panels(np.abs(full - none).sum(axis=2) > 24), full, none


def mesh_checks(br):
    S = Scene(MESH_H5)
    row = len(S.t) - 1                 # the last row: the bodies have turned
    ts = float(S.t[row])

    load_s = br.open(MESH_HTML)
    errs = br.errors()
    check("mesh_page_loads_without_errors", not errs, "; ".join(errs)[:300] or "%.2f s" % load_s)
    br.eval("simcView.setTime(%r)" % ts)
    bodies = S.names[1:]
    V = Shots(br, bodies)
    panels = V.panels
    frame, outside_panels, clear_of_panels = V.frame, V.outside_panels, V.clear_of_panels
    show_only, aim, proj, body_pixels = V.show_only, V.aim, V.proj, V.body_pixels

    # the mesh shared by the slider and the static cube is in the page once
    D = page_data(MESH_HTML)
    gm = [G.get("mesh") for G in D["geoms"]]
    ok = (len(D["meshes"]) == 2 and all(M is not None for M in D["meshes"]) and
          gm.count(0) == 2 and gm.count(1) == 1 and
          D["meshes"][0]["n"] == len(S.meshes[0]["vertices"]) and
          D["meshes"][0]["m"] == len(S.meshes[0]["faces"]))
    check("mesh_embedded_once_per_mesh", ok, "meshes %s, the shapes' meshes %s"
          % ([(M["n"], M["m"]) for M in D["meshes"]], gm))

    # ---- the cube mesh on the actuated slider (merged into the bodies' buffers) ----
    gi = S.geom_of("slider")
    hull = S.world(gi, row, S.meshes[int(S.gmesh[gi])]["hull_vertices"])
    cam, tgt, fov = aim(hull, [0.7, -1.0, 0.8])
    xy = proj(hull, cam, tgt, fov)
    area = hull_area(xy)
    # lit first: flat faces, in the actuated body's colour
    m, full, _ = body_pixels("slider", flat_red=False)
    Image.fromarray(full.astype(np.uint8)).save(os.path.join(TMP, "mesh_cube.png"))
    inner = m.copy()
    inner[1:, :] &= m[:-1, :]
    inner[:-1, :] &= m[1:, :]
    inner[:, 1:] &= m[:, :-1]
    inner[:, :-1] &= m[:, 1:]
    px = full[inner]
    cols, counts = np.unique(px, axis=0, return_counts=True)
    top = cols[np.argsort(-counts)[:3]]
    near = np.min(np.abs(px[:, None, :] - top[None]).max(axis=2), axis=1) <= 2
    big = int((np.sort(counts)[::-1][:3] >= 0.05 * len(px)).sum())
    frac = float(near.mean()) if len(px) else 0.0
    check("mesh_flat_shaded", frac >= 0.97 and big >= 2,
          "%.3f of the cube's inner pixels within 2 levels of its 3 commonest colours %s; "
          "%d faces of >= 5 %% of them" % (frac, [list(map(int, c)) for c in top], big))
    colour = br.eval("simcView.bodyColor('slider')")
    want = np.array([(colour >> 16) & 255, (colour >> 8) & 255, colour & 255], float)
    mean = full[m].mean(axis=0) if m.any() else np.zeros(3)
    cos = float(mean @ want / (np.linalg.norm(mean) * np.linalg.norm(want) + 1e-12))
    act = br.eval("simcView.actuatedBodies()")
    check("mesh_actuated_body_colour", act == ["slider"] and cos > 0.98 and want[0] >= 240 and want[2] < 64,
          "actuated %s, colour %06x, mean colour %s, cosine %.4f" % (act, colour, np.round(mean), cos))
    m, full, _ = body_pixels("slider")
    n = int(m.sum())
    check("mesh_cube_covers_projected_hull", clear_of_panels(xy) and abs(n / area - 1) <= 0.05,
          "%d px vs projected hull %.0f px (ratio %.4f, tolerance 5 %%)" % (n, area, n / area))

    # ---- the static cube (the same mesh) ----
    gs = [i for i in range(len(S.gbody)) if S.gbody[i] < 0 and S.gshape[i] == "mesh"][0]
    hull = S.world(gs, row, S.meshes[int(S.gmesh[gs])]["hull_vertices"])
    cam, tgt, fov = aim(hull, [-0.5, -1.0, 0.6])
    xy = proj(hull, cam, tgt, fov)
    area = hull_area(xy)
    show_only([])
    img = frame()
    bg = np.array([0x20, 0x24, 0x2c])
    m = outside_panels(np.abs(img - bg).sum(axis=2) > 24)
    n = int(m.sum())
    check("mesh_static_covers_projected_hull", clear_of_panels(xy) and abs(n / area - 1) <= 0.05,
          "%d px vs projected hull %.0f px (ratio %.4f, tolerance 5 %%)" % (n, area, n / area))

    # ---- the L-shaped mesh: its own triangles, not its hull ----
    gi = S.geom_of("ell")
    M = S.meshes[int(S.gmesh[gi])]
    verts = S.world(gi, row, M["vertices"])
    hull = S.world(gi, row, M["hull_vertices"])
    # looking along the prism's thickness (its local z), tilted a little
    b = S.names.index("ell")
    axis = quat_rotate(S.bquat[row, b], quat_rotate(S.gquat[gi], [0, 0, 1.0]))
    side = np.cross(axis, [0, 0, 1.0]) if abs(axis[2]) < 0.9 else np.cross(axis, [1.0, 0, 0])
    cam, tgt, fov = aim(verts, axis + 0.25 * side / np.linalg.norm(side))
    xy = proj(verts, cam, tgt, fov)
    area = hull_area(proj(hull, cam, tgt, fov))
    m, full, _ = body_pixels("ell")
    ref = outside_panels(raster(xy[M["faces"]], full.shape[1], full.shape[0]))
    Image.fromarray(full.astype(np.uint8)).save(os.path.join(TMP, "mesh_ell.png"))
    n = int(m.sum())
    iou = (m & ref).sum() / max(1, (m | ref).sum())
    check("mesh_concave_draws_its_triangles", clear_of_panels(xy) and iou >= 0.97 and n / area < 0.85,
          "%d px; its triangles rasterized %d px, intersection over union %.4f (>= 0.97); "
          "projected hull %.0f px, ratio %.3f (< 0.85)" % (n, int(ref.sum()), iou, area, n / area))

    # ---- the ellipsoid ----
    gi = S.geom_of("egg")
    a, bb, c = S.gsize[gi]
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 721), np.linspace(0, np.pi, 361))
    surf = np.column_stack([(a * np.cos(u) * np.sin(v)).ravel(), (bb * np.sin(u) * np.sin(v)).ravel(),
                            (c * np.cos(v)).ravel()])
    surf = S.world(gi, row, surf)
    facet = S.world(gi, row, three_sphere(16, 10) * [a, bb, c])
    cam, tgt, fov = aim(surf, [0.3, -1.0, 0.5])
    xy = proj(surf, cam, tgt, fov)
    area = hull_area(xy)
    area_f = hull_area(proj(facet, cam, tgt, fov))
    m, full, _ = body_pixels("egg")
    Image.fromarray(full.astype(np.uint8)).save(os.path.join(TMP, "mesh_egg.png"))
    n = int(m.sum())
    check("ellipsoid_covers_projected_ellipse",
          clear_of_panels(xy) and abs(n / area - 1) <= 0.10 and abs(n / area_f - 1) <= 0.03,
          "%d px vs projected ellipse %.0f px (ratio %.4f, tolerance 10 %%) and projected "
          "16 x 10 faceted ellipsoid %.0f px (ratio %.4f, tolerance 3 %%)"
          % (n, area, n / area, area_f, n / area_f))
    show_only(bodies)
    errs = br.errors()
    check("mesh_page_no_errors_after_use", not errs, "; ".join(errs)[:300])

    # ---- 21 bodies sharing one large mesh: embedded once, instanced ----
    S = Scene(MANY_H5)
    D = page_data(MANY_HTML)
    M0 = S.meshes[0]
    nv, nf = len(M0["vertices"]), len(M0["faces"])
    users = sum(1 for G in D["geoms"] if G.get("mesh") == 0)
    want_v, want_f = 4 * -(-nv * 12 // 3), 4 * -(-nf * (6 if nv <= 65536 else 12) // 3)
    E = D["meshes"][0] if D["meshes"] and len(D["meshes"]) == 1 else None
    size = os.path.getsize(MANY_HTML)
    check("large_mesh_embedded_once", E is not None and users == 21 and len(E["v"]) == want_v and
          len(E["f"]) == want_f,
          "%d shapes use the mesh of %d vertices and %d triangles; embedded once: %d + %d "
          "base64 characters (float32 vertices, %s faces); page %.2f MB"
          % (users, nv, nf, len(E["v"]) if E else 0, len(E["f"]) if E else 0,
             "uint16" if nv <= 65536 else "uint32", size / 1e6))
    load_s = br.open(MANY_HTML)
    errs = br.errors()
    info = br.eval("simcView.meshes()")
    ok = not errs and info and info[0]["instanced"] and info[0]["draws"] == 1 and \
        info[0]["instances"] == 21 and info[0]["triangles"] == nf
    check("large_mesh_page_instanced", ok, "; ".join(errs)[:300] or
          "loaded in %.2f s; %s" % (load_s, json.dumps(info)))
    row = len(S.t) - 1
    br.eval("simcView.setTime(%r)" % float(S.t[row]))
    bodies = S.names[1:]
    V = Shots(br, bodies)
    panels = V.panels
    clear_of_panels, show_only, aim, proj, body_pixels = \
        V.clear_of_panels, V.show_only, V.aim, V.proj, V.body_pixels
    gi = S.geom_of("blob10")
    hull = S.world(gi, row, M0["hull_vertices"])
    cam, tgt, fov = aim(hull, [0.4, -1.0, 0.7])
    xy = proj(hull, cam, tgt, fov)
    area = hull_area(xy)
    m, full, none = body_pixels("blob10")
    Image.fromarray(full.astype(np.uint8)).save(os.path.join(TMP, "mesh_blob.png"))
    n = int(m.sum())
    check("large_mesh_covers_projected_hull", clear_of_panels(xy) and abs(n / area - 1) <= 0.05,
          "%d px vs projected hull %.0f px (ratio %.4f, tolerance 5 %%)" % (n, area, n / area))
    n_hidden = int(red_mask(none, panels).sum())
    check("hidden_instanced_body_renders_nothing", n_hidden == 0 and n > 100,
          "%d red px hidden, %d shown" % (n_hidden, n))
    show_only(bodies)
    prof = br.eval("simcView.profile(3)", timeout=300)
    print("  21 x %d triangles: render %.0f ms a frame (%d draw calls, %d triangles, "
          "canvas %dx%d)" % (nf, prof["render"], prof["draw_calls"], prof["triangles"],
                             prof["canvas"][0], prof["canvas"][1]))
    errs = br.errors()
    check("large_mesh_page_no_errors_after_use", not errs, "; ".join(errs)[:300])

    if MESH_OVL_HTML:
        br.open(MESH_OVL_HTML)
        errs = br.errors()
        check("mesh_overlay_page_loads", not errs and br.eval("!!simcView.data.overlay"),
              "; ".join(errs)[:300])


# ---- MuJoCo's mugs in a bin (--mugs) ----

def segments_hit_box(a, b, centre, quat, half):
    """Which of the segments from point a to the points b [n, 3] pass
    through the box of half extents half at centre turned by quat (slabs)."""
    qc = np.array([quat[0], -quat[1], -quat[2], -quat[3]], float)
    p = quat_rotate(qc, np.asarray(a, float) - centre)
    d = quat_rotate(qc, np.asarray(b, float) - a)
    lo, hi = np.zeros(len(d)), np.ones(len(d))
    for k in range(3):
        dk = d[:, k]
        par = np.abs(dk) < 1e-15
        with np.errstate(divide="ignore", invalid="ignore"):
            t0 = (-half[k] - p[k]) / dk
            t1 = (half[k] - p[k]) / dk
        lo = np.where(par, lo, np.maximum(lo, np.minimum(t0, t1)))
        hi = np.where(par, hi, np.minimum(hi, np.maximum(t0, t1)))
        outside = par & (np.abs(p[k]) > half[k])
        hi = np.where(outside, -1.0, hi)
    return lo <= hi


# the area a mug covers over that of its convex hull, seen from any
# direction: from 0.88 (the handle's hole face on) to 1 (the handle behind
# the cup); the camera's perspective moves it by little at 8 radii
MUG_HULL_MIN = 0.85


def mug_checks(br):
    """test/t_mugs.sh: at the run's last row, three of the mugs (the first,
    a middle one, the last), each shown alone and flat red, seen from above
    the bin's rim over its centre (no wall between the camera and the mug),
    its pixels those that change when it is hidden too (the bin's floor and
    walls, static, are in both frames): the pixels it covers against the
    projected area of its convex hull (at most 1.01 of it; at least
    MUG_HULL_MIN: the handle's hole and the corners where the handle meets
    the cup are all it lacks) and against its own triangles rasterized
    through the same camera (intersection over union >= 0.97)."""
    S = Scene(MUGS_H5)
    row = len(S.t) - 1
    load_s = br.open(MUGS_HTML)
    errs = br.errors()
    check("mugs_page_loads_without_errors", not errs, "; ".join(errs)[:300] or "%.2f s" % load_s)
    bodies = S.names[1:]
    mugs = [i for i in range(len(S.gbody)) if S.gbody[i] >= 0 and S.gshape[i] == "mesh"]
    nf = len(S.meshes[0]["faces"]) if 0 in S.meshes else 0
    info = br.eval("simcView.meshes()")
    ok = (len(mugs) == 21 and all(S.gmesh[i] == 0 for i in mugs) and info and len(info) == 1 and
          info[0]["instanced"] and not info[0]["hull"] and info[0]["draws"] == 1 and
          info[0]["instances"] == 21 and info[0]["triangles"] == nf)
    check("mugs_page_draws_one_instanced_mesh", ok, json.dumps(info))
    br.eval("simcView.setTime(%r)" % float(S.t[row]))
    V = Shots(br, bodies)
    boxes = [i for i in range(len(S.gbody)) if S.gbody[i] < 0 and S.gshape[i] == "box"]
    planes = [i for i in range(len(S.gbody)) if S.gbody[i] < 0 and S.gshape[i] == "plane"]
    # a mug at rest against a wall: its hull reaches into it by its
    # penetration (under 1 mm, test/t_mugs.sh); only a wall deeper in the
    # line of sight hides it
    PEN = 1e-3
    tilt = np.radians(35.0)
    for name in (bodies[0], bodies[len(bodies) // 2], bodies[-1]):
        gi = S.geom_of(name)
        M = S.meshes[int(S.gmesh[gi])]
        verts = S.world(gi, row, M["vertices"])
        hull = S.world(gi, row, M["hull_vertices"])
        # from above, leaning out over the bin's centre
        c = 0.5 * (hull.min(0) + hull.max(0))
        h = -c[:2]
        h = h / np.linalg.norm(h) if np.linalg.norm(h) > 1e-3 else np.array([0.0, -1.0])
        cam, tgt, fov = V.aim(hull, [np.sin(tilt) * h[0], np.sin(tilt) * h[1], np.cos(tilt)], 120.0)
        walls = sum(int(segments_hit_box(cam, hull, S.gpos[i], S.gquat[i], S.gsize[i] - PEN).sum())
                    for i in boxes)
        above = all((cam - S.gpos[i]) @ quat_rotate(S.gquat[i], [0, 0, 1.0]) > 0 for i in planes)
        xy = V.proj(verts, cam, tgt, fov)
        area = hull_area(V.proj(hull, cam, tgt, fov))
        m, full, _ = V.body_pixels(name)
        Image.fromarray(full.astype(np.uint8)).save(os.path.join(TMP, "mug_%s.png" % name))
        ref = V.outside_panels(raster(xy[M["faces"]], full.shape[1], full.shape[0]))
        n = int(m.sum())
        red = int((m & red_mask(full, V.panels)).sum())
        iou = (m & ref).sum() / max(1, (m | ref).sum())
        ratio = n / area
        view = V.clear_of_panels(xy) and walls == 0 and above
        check("mug_covers_its_hull_less_its_hole_%s" % name,
              view and MUG_HULL_MIN <= ratio <= 1.01 and red >= 0.97 * n,
              "%d px (%d of them red) vs projected hull %.0f px: ratio %.4f (%.2f to 1.01); "
              "camera %s, no wall in the way: %s"
              % (n, red, area, ratio, MUG_HULL_MIN, np.round(cam, 3).tolist(), walls == 0 and above))
        check("mug_draws_its_triangles_%s" % name, view and iou >= 0.97,
              "its %d triangles rasterized %d px, drawn %d px: intersection over union %.4f (>= 0.97)"
              % (len(M["faces"]), int(ref.sum()), n, iou))
    V.show_only(bodies)
    errs = br.errors()
    check("mugs_page_no_errors_after_use", not errs, "; ".join(errs)[:300])


if __name__ == "__main__":
    sys.exit(main())
