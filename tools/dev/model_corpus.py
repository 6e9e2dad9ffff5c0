#!/usr/bin/python3
"""model_corpus.py: simc on a corpus of real model files (make test-models).

The corpus, from Debian packages only:
  - every .xml of /usr/share/mujoco/model (libmujoco-samples);
  - the MJCF of DART's data (dart-doc, /usr/share/doc/dart/data/mjcf), copied
    with their meshes into a temporary folder and the .xml.gz unpacked there,
    so that their includes and mesh paths (relative) hold; a file MuJoCo
    2.2.2 does not load is listed apart, not compared;
  - every URDF of DART's data (its urdf/ and sdf/ folders), the only URDF
    robots Debian packages (the ROS packages of Debian ship libraries and
    tools, no robot descriptions).

For each file: whether MuJoCo 2.2.2 loads it (MJCF; bin/model_compare) or
urdfdom's check_urdf accepts it (URDF); `simc --check` as shipped (ok or the
first line of its error); a run of 0.2 s as shipped (the duration rounded
up to a whole number of the model's steps) and, when simc refuses what it
does not translate, with --allow-unsupported (what was left out: the output's
`ignored` attribute); the run's status (complete, failed, and its warnings).
A URDF also runs with a floating base over a floor (a generated scene: the
model with fixed_base: false placed so that its lowest point is 2 cm above a
static plane, 0.5 s): whether it touches the floor (contact rows with the
world) and does not fall through it (every body origin stays above
-0.05 m).  An MJCF that both MuJoCo and simc load is compared with MuJoCo
(bin/model_compare: mass properties, poses, mass matrix, bias forces, a
contact-free trajectory).

The table goes to stdout or --out FILE (results/model_corpus.md).  The
floor (test/corpus/must_pass.txt) lists what must keep passing, one
"LABEL CHECK" a line (runs, as_shipped, compare, trajectory, floor); the
exit status is 1 when one of them no longer does.  --write-floor rewrites
the list from this run (to raise it after an improvement); it refuses to
drop a check that no longer passes unless --lower-floor says so too.

Usage: model_corpus.py [--simc bin/simc] [--compare bin/model_compare]
                       [--out FILE] [--floor FILE] [--write-floor [--lower-floor]]
                       [--verbose]
"""
import argparse
import glob
import gzip
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import h5py
    import numpy as np
except ImportError as e:  # the project's Python tools run under Debian's python3
    sys.exit("model_corpus.py: %s (Debian: apt-get install python3-h5py python3-numpy)" % e)

MJ_MODELS = "/usr/share/mujoco/model"
DART = "/usr/share/doc/dart/data"
RUN_S = 0.2           # the short run
FLOOR_S = 0.5         # the floor run
DROP = 0.02           # the floor run's initial clearance, m
SINK = -0.05          # a body origin below this has fallen through the floor, m
TOL = 1e-9            # relative tolerance of the comparisons with MuJoCo
TIMEOUT = 60          # s per simc run
TIMEOUT_COMPARE = 180 # s per comparison
CHECKS = ("runs", "as_shipped", "compare", "trajectory", "floor")

# Why a comparison with MuJoCo differs, where that was traced (shown only
# while it does): each checked by editing a copy of the file until the two
# agree.
KNOWN = {
    "mujoco:mug/mug.xml":
        "the cup mesh's inertia: MuJoCo 2.2.2's default approximation (exactmeshinertia "
        "false) against simc's exact solid ([doc/import.md](../doc/import.md#what-is-not-translated))",
    "dart:mjcf/openai/hopper.xml":
        "`<compiler coordinate=\"global\">`, which --allow-unsupported ignores: every frame is "
        "read as local",
    "dart:mjcf/openai/striker.xml.gz":
        "the free joint goal_free has no armature in simc (MuJoCo: 0.04 from the default "
        "class; also with armature on the joint itself): a free joint's armature, damping and "
        "frictionloss are not translated, nor reported",
}


def sh(cmd, timeout, cwd=None):
    """(exit code, stdout, stderr); exit 124 on a timeout"""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                           errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout


class Ctx:
    def __init__(self, args, tmp):
        self.simc = os.path.abspath(args.simc)
        self.compare = os.path.abspath(args.compare)
        self.tmp = tmp
        self.prefixes = []  # (path prefix, label prefix) for shortening messages

    def short(self, msg, limit=160):
        """a message for the table: paths by their labels, one line, what
        simc does not translate by its kinds only"""
        for p, lab in self.prefixes + [(self.tmp + "/", "")]:
            msg = msg.replace(p, lab)
        msg = re.sub(r" \(first at [^()]*\)", "", msg)
        m = re.search(r"the model uses what simc does not translate: (.*?); run with "
                      r"--allow-unsupported to ignore them", msg)
        if m:
            msg = "unsupported: " + m.group(1)
        msg = "; ".join(x.strip() for x in msg.splitlines() if x.strip())
        msg = msg.replace("|", "\\|").strip()
        return msg if len(msg) <= limit else msg[:limit - 3] + "..."


def first_line(text):
    for line in text.splitlines():
        if line.strip() and not line.startswith("simc: warning"):
            return line.strip()
    return ""


def own(msg, path, ctx):
    """a message about the file itself without its name: "line N: ..." """
    name = ctx.short(path)
    for n in (name, name.replace(" ", "%20")):
        if msg.startswith(n + ":"):
            rest = msg[len(n) + 1:]
            m = re.match(r"(\d+):(\d+:)? ?(.*)", rest)
            return "line %s: %s" % (m.group(1), m.group(3)) if m else rest.strip()
    return msg


def step_of(check_err):
    m = re.search(r"steps of ([0-9.eE+-]+) s", check_err)
    return float(m.group(1)) if m else None


def duration(dt, length):
    if not dt:
        return length
    n = math.ceil(length / dt - 1e-9)
    return float("%.12g" % (n * dt))


def read_run(h5):
    """status, warnings, ignored of an output; None when unreadable"""
    try:
        with h5py.File(h5, "r") as f:
            a = f.attrs
            g = lambda k: (a[k].decode() if isinstance(a[k], bytes) else str(a[k])) if k in a else ""
            return g("status"), g("warnings"), g("ignored")
    except (OSError, KeyError):
        return None


def simc_file(ctx, path, extra, label):
    """--check, then a run of RUN_S s, as given (extra: --model-path ...).
    A refusal of what simc does not translate is retried with
    --allow-unsupported.  Returns a dict."""
    r = {}
    rc, out, err = sh([ctx.simc, path, "--check"] + extra, TIMEOUT)
    check_raw = first_line(err)
    r["check"] = "ok" if rc == 0 else own(ctx.short(check_raw or "exit %d" % rc), path, ctx)
    r["check_ok"] = rc == 0
    allow = []
    if rc != 0 and "allow-unsupported" in err:
        rc2, _, err2 = sh([ctx.simc, path, "--check", "--allow-unsupported"] + extra, TIMEOUT)
        allow = ["--allow-unsupported"]
        if rc2 == 0:
            err = err2
    dt = step_of(err)
    d = duration(dt, RUN_S)
    r["duration"] = d
    h5 = os.path.join(ctx.tmp, "run.h5")

    def run(flags):
        if os.path.exists(h5):
            os.remove(h5)
        rc, _, e = sh([ctx.simc, path, "--duration", repr(d), "-o", h5, "--force"] + flags + extra,
                      TIMEOUT)
        st = read_run(h5) if rc in (0, 2) else None
        status, warns, ignored = st if st else ("", "", "")
        if rc == 0:
            s = "complete"
        elif rc == 2:
            s = "failed: " + status.replace("failed: ", "")
        elif rc == 124:
            s = "timed out (%d s)" % TIMEOUT
        elif first_line(e) == check_raw:
            s = "refused (as --check)"
        else:
            s = "refused: " + own(ctx.short(first_line(e)), path, ctx)
        if warns:
            s += "; warnings: " + warns.splitlines()[0]
        return rc, ctx.short(s), ctx.short(ignored)

    rc, s, _ = run([])
    r["shipped_rc"], r["shipped"] = rc, s
    r["allow_rc"], r["allow"], r["ignored"] = None, "", ""
    if rc == 1 and allow:
        r["allow_rc"], r["allow"], r["ignored"] = run(allow)
    r["runs"] = r["shipped_rc"] == 0 or r["allow_rc"] == 0
    r["allow_flag"] = allow
    return r


def compare_mjcf(ctx, path):
    rc, out, err = sh([ctx.compare, path], TIMEOUT_COMPARE)
    row = {}
    for field in out.strip().split("\t"):
        k, _, v = field.partition("=")
        row[k] = v
    if rc != 0:
        row.setdefault("mujoco", "fail")
        row["compare_error"] = "exit %d: %s" % (rc, first_line(err))
    return row


# ---- URDF on a floor ----

def quat_rot(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def lowest_point(h5):
    """the lowest world z of the moving bodies' shapes at row 0 (meshes by
    their hull vertices, the others by their bounding sphere); None when
    there are none"""
    with h5py.File(h5, "r") as f:
        if "model/geometry/body" not in f:
            return None
        g = f["model/geometry"]
        body, shape = g["body"][:], g["shape"][:]
        size, pos, ori = g["size"][:], g["position"][:], g["orientation"][:]
        mesh = g["mesh"][:] if "mesh" in g else None
        bpos, bori = f["body/position"][0], f["body/orientation"][0]
        zmin = None
        for k in range(len(body)):
            b = int(body[k])
            if b < 0:
                continue
            sh_ = shape[k].decode() if isinstance(shape[k], bytes) else str(shape[k])
            R = quat_rot(bori[b])
            c = bpos[b] + R @ pos[k]
            s = size[k]
            if sh_ == "mesh" and mesh is not None and mesh[k] >= 0:
                v = f["model/meshes/%d/hull_vertices" % mesh[k]][:]
                z = (v @ (R @ quat_rot(ori[k])).T)[:, 2] + c[2]
                low = float(z.min())
            else:
                rad = {"sphere": s[0], "capsule": s[0] + s[1] / 2, "box": np.linalg.norm(s),
                       "cylinder": math.hypot(s[0], s[1] / 2), "ellipsoid": max(s)}.get(sh_, 0.0)
                low = float(c[2] - rad)
            zmin = low if zmin is None else min(zmin, low)
        return zmin


def yaml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def floor_run(ctx, path, model_path, allow):
    """the URDF with a floating base over a floor: (contacts with the world,
    lowest body origin z, ok, note)"""
    entry = "{file: %s, fixed_base: false, pose: {position: [0, 0, %s]}%s%s}"
    extra = (", allow_unsupported: true" if allow else "") + \
            (", model_path: %s" % yaml_str(model_path) if model_path else "")
    scene = os.path.join(ctx.tmp, "floor.yaml")
    h5 = os.path.join(ctx.tmp, "floor.h5")

    def write(height, with_floor, dur):
        with open(scene, "w") as f:
            f.write("simc: 1\nname: floor\ntime: {step: 0.001, duration: %s}\n" % dur)
            f.write("models:\n  - " + entry % (yaml_str(path), repr(height), extra, "") + "\n")
            if with_floor:
                f.write("static:\n  - {shape: plane, normal: [0, 0, 1], offset: 0}\n")

    # where its lowest point is, at the origin, without the floor (one step)
    write(0.0, False, 0.001)
    if os.path.exists(h5):
        os.remove(h5)
    rc, _, err = sh([ctx.simc, scene, "-o", h5, "--force", "--quiet"], TIMEOUT)
    if rc != 0:
        return None, None, False, ctx.short(first_line(err) or "exit %d" % rc)
    low = lowest_point(h5)
    if low is None:
        return None, None, False, "no collision shapes"
    height = float("%.6g" % (DROP - low))
    write(height, True, FLOOR_S)
    os.remove(h5)
    rc, _, err = sh([ctx.simc, scene, "-o", h5, "--force", "--quiet"], TIMEOUT)
    st = read_run(h5) if rc in (0, 2) else None
    if st is None:
        return None, None, False, ctx.short(first_line(err) or "exit %d" % rc)
    with h5py.File(h5, "r") as f:
        a, b = f["contact/body_a"][:], f["contact/body_b"][:]
        nworld = int(((a == 0) | (b == 0)).sum())
        z = f["body/position"][:, 1:, 2]
        zlow = float(z.min()) if z.size else float("nan")
    status = "complete" if rc == 0 else st[0]
    ok = rc == 0 and nworld > 0 and zlow > SINK
    note = "dropped from %.3g m; %s" % (height, ctx.short(status))
    return nworld, zlow, ok, note


def check_urdf(path):
    rc, out, err = sh(["check_urdf", path], TIMEOUT)
    if rc == 0:
        return True, "ok"
    msg = first_line(err) or first_line(out) or "exit %d" % rc
    return False, re.sub(r"\s+", " ", msg.replace("Error:", "")).strip()


def package_path(path):
    """--model-path for a URDF naming package://PKG/...: the folder above an
    ancestor folder named PKG, when there is one"""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return None
    pk = re.findall(r"package://([^/\"']+)/", text)
    if not pk:
        return None
    d = os.path.dirname(os.path.abspath(path))
    while d != "/":
        if os.path.basename(d) == pk[0]:
            return os.path.dirname(d)
        d = os.path.dirname(d)
    return None


# ---- the corpus ----

def corpus(ctx):
    """[(label, path, kind)], kind mjcf or urdf"""
    out = []
    for p in sorted(glob.glob(MJ_MODELS + "/**/*.xml", recursive=True)):
        out.append(("mujoco:" + os.path.relpath(p, MJ_MODELS), p, "mjcf"))
    src = os.path.join(DART, "mjcf")
    if os.path.isdir(src):
        dst = os.path.join(ctx.tmp, "dart", "mjcf")
        shutil.copytree(src, dst)
        for gz in glob.glob(dst + "/**/*.gz", recursive=True):
            with gzip.open(gz, "rb") as fi, open(gz[:-3], "wb") as fo:
                shutil.copyfileobj(fi, fo)
            os.remove(gz)
        ctx.prefixes.append((os.path.join(ctx.tmp, "dart") + "/", "dart:"))
        for p in sorted(glob.glob(dst + "/**/*.xml", recursive=True)):
            rel = os.path.relpath(p, os.path.join(ctx.tmp, "dart"))
            gzd = os.path.exists(os.path.join(DART, rel + ".gz"))
            out.append(("dart:" + rel + (".gz" if gzd else ""), p, "mjcf"))
    for p in sorted(glob.glob(DART + "/**/*.urdf", recursive=True)):
        out.append(("dart:" + os.path.relpath(p, DART), p, "urdf"))
    ctx.prefixes += [(DART + "/", "dart:"), (MJ_MODELS + "/", "mujoco:")]
    return out


def fmt(x):
    try:
        v = float(x)
    except (TypeError, ValueError):
        return "–"
    if v == 0:
        return "0"
    s = "%.2g" % v
    return "**%s**" % s if v > TOL else s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--simc", default="bin/simc")
    ap.add_argument("--compare", default="bin/model_compare")
    ap.add_argument("--out")
    ap.add_argument("--floor", default="test/corpus/must_pass.txt")
    ap.add_argument("--write-floor", action="store_true")
    ap.add_argument("--lower-floor", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="a line per file on stderr")
    args = ap.parse_args()
    for need, pkg in ((args.simc, "make"), (args.compare, "make test-models"),
                      (MJ_MODELS, "libmujoco-samples"), (DART, "dart-doc")):
        if not os.path.exists(need):
            sys.exit("model_corpus.py: %s is missing (%s)" % (need, pkg))
    if not shutil.which("check_urdf"):
        sys.exit("model_corpus.py: check_urdf is missing (Debian liburdfdom-tools)")
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="simc_corpus_")
    try:
        global CTX
        ctx = CTX = Ctx(args, tmp)
        files = corpus(ctx)
        rows = []
        for label, path, kind in files:
            r = {"label": label, "kind": kind, "path": path}
            if kind == "mjcf":
                r["cmp"] = compare_mjcf(ctx, path)
                r["mj_ok"] = r["cmp"].get("mujoco") == "ok"
                if not r["mj_ok"] and label.startswith("dart:"):
                    r["left_out"] = ctx.short(r["cmp"].get("mj_error", "")
                                              .replace("Error: ", "").replace("XML Error: ", ""))
                    rows.append(r)
                    continue
                r.update(simc_file(ctx, path, [], label))
            else:
                r["cu_ok"], r["cu"] = check_urdf(path)
                if not r["cu_ok"]:
                    r["left_out"] = ctx.short(r["cu"])
                    rows.append(r)
                    continue
                mp = package_path(path)
                r["model_path"] = mp
                r.update(simc_file(ctx, path, ["--model-path", mp] if mp else [], label))
                if r["runs"]:
                    r["floor"] = floor_run(ctx, path, mp, bool(r["allow_flag"]))
            rows.append(r)
            if args.verbose:
                print("%-55s %s" % (label, "runs" if r.get("runs") else "does not run"),
                      file=sys.stderr)
        passed = achieved(rows)
        rc, ver, _ = sh([ctx.simc, "--version"], TIMEOUT)
        pk = sh(["dpkg-query", "-W", "-f", "${Package} ${Version}, ",
                 "libmujoco-dev", "libmujoco-samples", "dart-doc", "liburdfdom-tools"], TIMEOUT)[1]
        report = table(rows, time.time() - t0, ver.strip() if rc == 0 else "simc ?", pk.rstrip(", "))
        if args.out:
            with open(args.out, "w") as f:
                f.write(report)
            # the counts, for the log
            head = report.split("\n| set |", 1)[1].split("\nRuns last", 1)[0]
            print("| set |" + head.rstrip() + "\n(the whole table: %s)" % args.out)
        else:
            sys.stdout.write(report)
        return floor(args, passed)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def achieved(rows):
    out = set()
    for r in rows:
        if "left_out" in r:
            continue
        if r.get("runs"):
            out.add((r["label"], "runs"))
        if r.get("shipped_rc") == 0:
            out.add((r["label"], "as_shipped"))
        c = r.get("cmp", {})
        if c.get("map") == "ok" and all(
                k in c and float(c[k]) <= TOL for k in ("mass", "body", "pose0", "M", "bias")):
            out.add((r["label"], "compare"))
            c["_passed"] = "compare"
        if c.get("traj_ok") == "1":
            out.add((r["label"], "trajectory"))
        if r.get("floor") and r["floor"][2]:
            out.add((r["label"], "floor"))
    return out


def read_floor(path):
    want = set()
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                lab, chk = line.rsplit(" ", 1)
                if chk not in CHECKS:
                    sys.exit("model_corpus.py: %s: unknown check %s" % (path, chk))
                want.add((lab, chk))
    return want


def floor(args, passed):
    if args.write_floor:
        # a rewrite raises the floor; lowering it takes a second word
        lost = sorted(read_floor(args.floor) - passed) if os.path.exists(args.floor) else []
        if lost and not args.lower_floor:
            for lab, chk in lost:
                print("FAIL %s %s (in %s, no longer passes)" % (lab, chk, args.floor))
            print("model_corpus: not rewriting %s: it would drop %d checks (--lower-floor to drop them)" %
                  (args.floor, len(lost)))
            return 1
        with open(args.floor, "w") as f:
            f.write("# what must keep passing in make test-models (tools/dev/model_corpus.py):\n"
                    "# LABEL CHECK, CHECK one of %s; written by --write-floor\n" % ", ".join(CHECKS))
            for lab, chk in sorted(passed):
                f.write("%s %s\n" % (lab, chk))
        print("model_corpus: wrote %d checks to %s" % (len(passed), args.floor))
        return 0
    want = read_floor(args.floor)
    lost = sorted(want - passed)
    new = sorted(passed - want)
    for lab, chk in lost:
        print("FAIL %s %s (in %s, no longer passes)" % (lab, chk, args.floor))
    if new:
        print("model_corpus: %d checks pass beyond %s (raise it with --write-floor): %s" %
              (len(new), args.floor, ", ".join("%s %s" % x for x in new)))
    print("model_corpus: %d of the %d checks of %s pass" % (len(want) - len(lost), len(want),
                                                          args.floor))
    return 1 if lost else 0


def table(rows, secs, version, packages):
    L = []
    w = L.append
    mjcf = [r for r in rows if r["kind"] == "mjcf" and "left_out" not in r]
    urdf = [r for r in rows if r["kind"] == "urdf" and "left_out" not in r]
    out_m = [r for r in rows if r["kind"] == "mjcf" and "left_out" in r]
    out_u = [r for r in rows if r["kind"] == "urdf" and "left_out" in r]

    def counts(rs):
        a = sum(1 for r in rs if r.get("shipped_rc") == 0)
        b = sum(1 for r in rs if r.get("shipped_rc") != 0 and r.get("allow_rc") == 0)
        return a, b, len(rs) - a - b

    samples = [r for r in mjcf if r["label"].startswith("mujoco:")]
    dart = [r for r in mjcf if r["label"].startswith("dart:")]
    cmp_ = [r for r in mjcf if r["cmp"].get("map") == "ok"]
    m_ok = sum(1 for r in cmp_ if "M" in r["cmp"] and float(r["cmp"]["M"]) <= TOL)
    all_ok = sum(1 for r in cmp_ if all(k in r["cmp"] and float(r["cmp"][k]) <= TOL
                                        for k in ("mass", "body", "pose0", "M", "bias")))
    tr_ok = sum(1 for r in cmp_ if r["cmp"].get("traj_ok") == "1")
    fl = [r for r in urdf if r.get("floor")]
    fl_ok = sum(1 for r in fl if r["floor"][2])
    w("# Real models: MuJoCo's samples, DART's MJCF and URDF\n")
    w("Made by `make test-models` (`/usr/bin/python3 tools/dev/model_corpus.py --out "
      "results/model_corpus.md`; the comparisons by `bin/model_compare FILE.xml`, "
      "[test/corpus/model_compare.c](../test/corpus/model_compare.c)) in %.0f s on a shared "
      "2-core machine, with %s and the Debian packages %s.  The files come from Debian packages: libmujoco-samples "
      "(`mujoco:` = /usr/share/mujoco/model/) and dart-doc (`dart:` = "
      "/usr/share/doc/dart/data/, its .xml.gz unpacked beside their meshes).  What must keep "
      "passing: [test/corpus/must_pass.txt](../test/corpus/must_pass.txt).\n" %
      (secs, version, packages))
    w("| set | files | run as shipped | run with --allow-unsupported only | do not run |")
    w("|---|---|---|---|---|")
    for name, rs in (("MuJoCo 2.2.2 samples", samples), ("DART MJCF that MuJoCo 2.2.2 loads", dart),
                     ("URDF that check_urdf accepts", urdf)):
        a, b, c = counts(rs)
        w("| %s | %d | %d | %d | %d |" % (name, len(rs), a, b, c))
    w("")
    w("Against MuJoCo 2.2.2 (the MJCF both load and whose bodies and joints match): "
      "%d models; mass matrix within %g relative in %d, every mass property, pose, mass matrix "
      "and bias force within it in %d, the contact-free trajectory within its tolerance in %d.  "
      "URDF with a floating base dropped on a floor: %d of %d touch it and stay above it.\n"
      % (len(cmp_), TOL, m_ok, all_ok, tr_ok, fl_ok, len(fl)))
    w("Runs last %g s (rounded up to a whole number of the model's steps: `--duration`); a "
      "status \"refused\" is simc's first line of error.  \"ignored\" is what simc left out "
      "with `--allow-unsupported` (the output's `ignored` attribute).\n" % RUN_S)

    w("## MJCF\n")
    w("| file | MuJoCo loads | simc --check | run as shipped | ignored with --allow-unsupported "
      "| run with --allow-unsupported |")
    w("|---|---|---|---|---|---|")
    for r in mjcf:
        w("| %s | %s | %s | %s | %s | %s |" % (
            r["label"], "yes" if r["mj_ok"] else "no: " + ctx_short(r["cmp"].get("mj_error", "")),
            r["check"], r["shipped"], ignored_cell(r), r["allow"] or "–"))
    w("")
    w("## MJCF against MuJoCo 2.2.2\n")
    w("Relative errors (0: identical), **bold** above %g.  mass: the total; bodies: every "
      "body's mass, centre of mass and inertia tensor; pose: body positions (m) and "
      "rotation-matrix entries at qpos0 (absolute); M and bias: the joint-space mass "
      "matrix and the bias forces at qpos0 and 5 random states (test/test_mjcf.c's measures "
      "and states).  traj: both without contact, limits, dry friction, actuators, equality "
      "constraints and tendon forces, from qpos0 with random velocities for 0.1 s: the "
      "largest joint difference (rad or m) of simc's midpoint at h = 0.1 ms against MuJoCo's "
      "RK4 at 0.1 ms, beside simc's own error estimated from h = 0.2 ms and 0.1 ms "
      "(second order: (q_2h - q_h)/3; RK4's is smaller by h²); ok when within 1e-6 or "
      "within twice the estimate (the difference is simc's truncation).\n" % TOL)
    w("| file | bodies | nv | mass | bodies' mass, com, inertia | pose | M | bias | traj (estimate) "
      "| note |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for r in mjcf:
        c = r["cmp"]
        if c.get("simc") == "fail" or "mass" not in c:
            continue
        if c.get("map") != "ok":
            w("| %s | – | – | %s | – | – | – | – | – | bodies do not match: %s |" % (
                r["label"], fmt(c.get("mass")), ctx_short(c.get("map_error", ""))))
            continue
        traj = "%s (%s) %s" % (c.get("traj", "–"), c.get("traj_est", "–"),
                               "ok" if c.get("traj_ok") == "1" else "**differs**") \
            if "traj" in c else "– " + ctx_short(c.get("traj_error", ""))
        ok = "compare" in c.get("_passed", "") and c.get("traj_ok") == "1"
        note = "" if ok else KNOWN.get(r["label"], ctx_short(c.get("body_note", "")))
        w("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["label"], c.get("nbody"), c.get("nv"), fmt(c.get("mass")), fmt(c.get("body")),
            fmt(c.get("pose0")), fmt(c.get("M")), fmt(c.get("bias")), traj, note))
    w("")
    w("## URDF\n")
    w("Floor: the model with a floating base (`models: [{file: ..., fixed_base: false, pose: "
      "{position: [0, 0, H]}}]`) over a static plane at z = 0, H putting its lowest collision "
      "point %g m above it, %g s at 1 ms: contacts with the world, the lowest body origin "
      "over the run, ok when it touches and stays above %g m.  `package://` paths resolve with "
      "`--model-path` (the folder holding the package).\n" % (DROP, FLOOR_S, SINK))
    w("| file | check_urdf | simc --check | run as shipped | ignored with --allow-unsupported "
      "| run with --allow-unsupported | floor: contacts | lowest z (m) | floor |")
    w("|---|---|---|---|---|---|---|---|---|")
    for r in urdf:
        f = r.get("floor")
        if f:
            fc = "–" if f[0] is None else str(f[0])
            fz = "–" if f[1] is None else "%.3g" % f[1]
            fo = ("ok" if f[2] else "**no**") + ": " + f[3]
        else:
            fc = fz = fo = "–"
        w("| %s%s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["label"], " (--model-path)" if r.get("model_path") else "", r["cu"], r["check"],
            r["shipped"], ignored_cell(r), r["allow"] or "–", fc, fz, fo))
    w("")
    w("## Left out\n")
    w("DART's MJCF that MuJoCo 2.2.2 does not load and DART's URDF that check_urdf refuses:\n")
    w("| file | why |")
    w("|---|---|")
    for r in out_m:
        w("| %s | MuJoCo 2.2.2: %s |" % (r["label"], r["left_out"]))
    for r in out_u:
        w("| %s | check_urdf: %s |" % (r["label"], r["left_out"]))
    w("")
    return "\n".join(L)


CTX = None


def ignored_cell(r):
    if r["allow_rc"] not in (0, 2):
        return "–"
    return r["ignored"] or "nothing"


def ctx_short(s):
    return CTX.short(s)


if __name__ == "__main__":
    sys.exit(main())
