"""Reading simc HDF5 trajectories (README.md, "Output (HDF5)") for the plot,
report and results scripts.  Needs h5py and numpy (Debian: python3-h5py
python3-numpy); run the scripts with /usr/bin/python3."""

import math
import os

import numpy as np

try:
    import h5py
except ImportError:  # reported by the callers with the apt-get line
    h5py = None

APT_LINE = "sudo apt-get install -y python3-h5py python3-numpy python3-matplotlib"

ENERGY_KEYS = ("kinetic", "gravity", "spring", "total", "dissipated")
# written only when the model has actuators, joint limits or dry joint
# friction (doc/output.md); Run.energy holds those the file has
ENERGY_OPTIONAL = ("actuator", "joint_limit", "joint_friction", "constraint")

# format_version 2 added /body/{position,orientation}, /model/body_parent and
# /model/geometry; older files still read, without them
POSES_SINCE = 2


def _text(x):
    if isinstance(x, bytes):
        return x.decode("utf-8", "replace")
    if isinstance(x, np.ndarray) and x.shape == ():
        return _text(x[()])
    return x


# ---- checking a file before reading it ----
#
# check_file() compares a file's shapes, types and sizes with its own counts
# before anything large is read: N = the rows of /time; nq, nv, nbody, njnt,
# nact = the lengths of /model/q_names, v_names, body_names, joint_names,
# actuator_names; M = the contact rows (/contact/gap); G = the shapes of
# /model/geometry; K = the meshes, the groups /model/meshes/0 .. K-1, each
# with n vertices, m faces, h hull vertices and t hull faces.  What it finds
# wrong it raises as BadFile, one line that
# names the dataset.  Where numbers are expected, integers are accepted as
# well as floats (they convert exactly); where integers are expected (counts,
# indices, statuses) only integers are; names are strings.

MAX_RATIO = 50          # the datasets' declared bytes over the file's size on disk
MAX_BYTES = 4 << 30     # the declared bytes a tool reads; SIMC_H5_MAX_BYTES overrides
MAX_BYTES_ENV = "SIMC_H5_MAX_BYTES"
# the mesh rows a file may declare, over all its meshes (checked from the
# shapes, before any is read): simc's own cap on a model's mesh vertices
# (SC_MESH_MAX_TOTAL_VERTS), and twice that in triangles (a closed
# triangle mesh of n vertices has 2 n - 4 of them)
MESH_MAX_VERTICES = 8_000_000
MESH_MAX_FACES = 16_000_000

# datasets checked by name (also when reached through a link, which the walk
# over the file's own objects does not follow)
_KNOWN = ("time", "q", "v", "body/position", "body/orientation",
          "model/q_names", "model/v_names", "model/body_names", "model/joint_names",
          "model/actuator_names", "model/body_parent",
          "model/geometry/body", "model/geometry/shape", "model/geometry/size",
          "model/geometry/position", "model/geometry/orientation", "model/geometry/mesh",
          "model/actuators/type", "model/actuators/dof", "model/actuators/gear",
          "model/springs/body", "model/springs/point_a", "model/springs/point_b",
          "actuator/force", "actuator/command", "joint/limit_force", "joint/friction_force",
          "constraint/violation", "constraint/force", "model/tendon_names", "tendon/length",
          "tendon/limit_force",
          "contact/count", "contact/start", "contact/max_penetration",
          "contact/max_penetration_fraction", "contact/body_a", "contact/body_b",
          "contact/gap", "contact/slip", "contact/point", "contact/normal", "contact/impulse",
          "solver/iterations", "solver/status", "solver/wall_time") + \
    tuple("energy/" + k for k in ENERGY_KEYS + ENERGY_OPTIONAL)
CONTACT_ROWS = {"body_a": ("int",), "body_b": ("int",), "gap": ("num",), "slip": ("num",),
                "point": ("num", 3), "normal": ("num", 3), "impulse": ("num", 3)}
# root attributes the tools use, and the kind each must be
_ATTRS = {"format": "str", "format_version": "int", "solver": "str", "scheme": "str",
          "status": "str", "scene_name": "str", "simc_version": "str", "scene_yaml": "str",
          "command_line": "str", "contact_model": "str", "time_step": "num",
          "duration": "num", "output_every": "int", "ignored": "str", "approximated": "str"}
_WANT = {"num": "numbers", "int": "integers", "str": "strings"}


class BadFile(Exception):
    """A file the tools cannot read as a simc output.  str(e) is one line,
    "FILE: /dataset: what is wrong (expected ..., found ...)", or "FILE:
    cannot open: why" when the file is not HDF5 at all; e.path, e.where (the
    dataset or attribute, "" for the file itself) and e.what are its parts."""

    def __init__(self, path, where, what):
        self.path, self.where, self.what = path, where, what
        text = "%s: %s: %s" % (path, where, what) if where else "%s: %s" % (path, what)
        super().__init__(" ".join(str(text).split("\n")))


def _why(e):
    """The first line of an exception's message, for a one-line error."""
    lines = str(e).strip().splitlines()
    return (lines[0].strip() if lines else type(e).__name__)[:300]


def _bytes_text(n):
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return ("%d %s" % (n, unit)) if unit == "bytes" else ("%.3g %s" % (n, unit))
        n /= 1024.0


def _shape_text(shape):
    if shape is None:
        return "null (no dataspace)"
    return "(%s)" % ", ".join(str(int(x)) for x in shape)


def max_bytes():
    """The most bytes a tool reads from one file: SIMC_H5_MAX_BYTES (bytes,
    0 for no limit), else MAX_BYTES."""
    v = os.environ.get(MAX_BYTES_ENV, "").strip()
    try:
        return int(float(v)) if v else MAX_BYTES
    except ValueError:
        return MAX_BYTES


def open_file(path):
    """h5py.File(path, "r"), or BadFile "PATH: cannot open: why"."""
    if h5py is None:
        raise RuntimeError("h5py is missing; " + APT_LINE)
    if not os.path.exists(path):
        raise BadFile(path, "", "cannot open: no such file")
    if os.path.isdir(path):
        raise BadFile(path, "", "cannot open: a directory, not a file")
    try:
        size = os.path.getsize(path)
    except OSError as e:
        raise BadFile(path, "", "cannot open: %s" % (e.strerror or _why(e)))
    if size == 0:
        raise BadFile(path, "", "cannot open: an empty file (0 bytes), not an HDF5 file")
    try:
        return h5py.File(path, "r")
    except (OSError, ValueError, RuntimeError, TypeError) as e:
        raise BadFile(path, "", "cannot open: not a readable HDF5 file (%s)" % _why(e))


def _kind(dt):
    """"str", "int", "float", or None for any other type."""
    try:
        if h5py.check_string_dtype(dt) is not None:
            return "str"
    except (TypeError, ValueError):
        pass
    if dt.kind in "SU":
        return "str"
    if dt.names is None and dt.kind in "iu":
        return "int"
    if dt.names is None and dt.kind == "f":
        return "float"
    return None


def _type_text(dt):
    k = _kind(dt)
    if k == "str":
        return "strings"
    if k in ("int", "float"):
        return dt.name
    if dt.names:
        return "a compound type"
    if dt.kind == "b":
        return "booleans"
    if dt.kind == "c":
        return "complex numbers (%s)" % dt.name
    if dt.kind == "O":
        return "variable-length sequences"
    return str(dt)


def _declared(ds):
    """The bytes a dataset's shape and type declare (what reading it allocates)."""
    try:
        size = ds.id.get_type().get_size()
    except Exception:  # a type h5py cannot describe: count 8 bytes an element
        size = 8
    shape = ds.shape
    if shape is None:
        return 0
    return math.prod(int(x) for x in shape) * size


def _dtype_text(ds):
    try:
        return _type_text(ds.dtype)
    except Exception:
        return "an unsupported type"


class _Check:
    """The checks of check_file() over one open file."""

    def __init__(self, f, path):
        self.f, self.path = f, path
        self.val, self.about = {}, {}       # the counts: N, nq, ... and where they come from

    def bad(self, name, what):
        raise BadFile(self.path, "/" + name.lstrip("/"), what)

    def obj(self, name):
        try:
            return self.f.get(name)
        except Exception as e:  # a broken link or object header
            self.bad(name, "cannot read (%s)" % _why(e))

    def group(self, name):
        g = self.obj(name)
        if g is not None and not isinstance(g, h5py.Group):
            self.bad(name, "expected a group, found a dataset")
        return g

    def ds(self, name, required=False, why=""):
        d = self.obj(name)
        if d is None:
            if required:
                self.bad(name, "missing" + why)
            return None
        if not isinstance(d, h5py.Dataset):
            self.bad(name, "expected a dataset, found a %s"
                     % ("group" if isinstance(d, h5py.Group) else type(d).__name__))
        return d

    def count(self, sym, n, about):
        self.val[sym], self.about[sym] = int(n), about

    def typed(self, name, d, want):
        """want: "num" (integers or floats), "int" or "str"."""
        try:
            dt = d.dtype
        except Exception as e:
            self.bad(name, "unsupported type (%s)" % _why(e))
        k = _kind(dt)
        ok = k in ("int", "float") if want == "num" else k == want
        if not ok:
            self.bad(name, "wrong type (expected %s, found %s)" % (_WANT[want], _type_text(dt)))

    def shaped(self, name, d, dims):
        """dims: each a count's symbol ("N", "nq", ...), a number, or None
        (any length)."""
        want = tuple(self.val[x] if isinstance(x, str) else x for x in dims)
        have = d.shape
        if have is None or len(have) != len(want) or any(
                w is not None and h != w for h, w in zip(have, want)):
            syms = list(dict.fromkeys(x for x in dims if isinstance(x, str)))
            legend = ", ".join("%s = %d %s" % (s, self.val[s], self.about[s]) for s in syms)
            shown = [str(x) if x is not None else "any" for x in dims]
            self.bad(name, "wrong shape (expected %s%s%s; found %s)"
                     % ("[%s] = " % ", ".join(shown) if syms else "",
                        "(%s)" % ", ".join("any" if w is None else str(w) for w in want),
                        ": " + legend if legend else "", _shape_text(have)))

    def check(self, name, want, dims, required=False, why=""):
        """The dataset name (None when absent and not required), checked."""
        d = self.ds(name, required, why)
        if d is not None:
            self.typed(name, d, want)
            self.shaped(name, d, dims)
        return d

    def read(self, name, d):
        try:
            return d[()]
        except Exception as e:
            self.bad(name, "cannot read (%s)" % _why(e))

    def names(self, name, sym, required=True):
        """A list of names: 1-D strings; its length becomes the count sym."""
        d = self.ds(name, required)
        if d is None:
            return None
        self.typed(name, d, "str")
        if d.shape is None or len(d.shape) != 1:
            self.bad(name, "wrong shape (expected one name per row, [%s]; found %s)"
                     % (sym, _shape_text(d.shape)))
        self.count(sym, d.shape[0], "names in /" + name)
        return d

    # -- the bound on sizes --

    def sizes(self, loads):
        sizes = {}

        def visit(name, o):
            if isinstance(o, h5py.Dataset):
                sizes[name] = _declared(o)
        try:
            self.f.visititems(visit)
        except Exception as e:
            raise BadFile(self.path, "", "cannot read the file's structure (%s)" % _why(e))
        for name in _KNOWN:
            if name not in sizes:
                o = self.obj(name)
                if isinstance(o, h5py.Dataset):
                    sizes[name] = _declared(o)
        try:
            disk = os.path.getsize(self.path)
        except OSError:
            disk = self.f.id.get_filesize()
        total = sum(sizes.values())
        if sizes and total > MAX_RATIO * disk:
            big = max(sizes, key=sizes.get)
            d = self.f[big]
            self.bad(big, "declares more data than the file can hold (expected the datasets to "
                     "declare at most %d times the file's %s on disk; found %s in all, %s of it "
                     "here: shape %s of %s, extents set beyond the data written)"
                     % (MAX_RATIO, _bytes_text(disk), _bytes_text(total),
                        _bytes_text(sizes[big]), _shape_text(d.shape), _dtype_text(d)))
        cap = max_bytes()
        read = {k: v for k, v in sizes.items()
                if (k in loads if loads is not None else not k.startswith("solver/trace"))}
        total = sum(read.values())
        if cap > 0 and read and total > cap:
            big = max(read, key=read.get)
            d = self.f[big]
            self.bad(big, "too large to read (expected at most %s in the datasets read, which "
                     "the environment variable %s sets; found %s in all, %s of it here: "
                     "shape %s of %s)"
                     % (_bytes_text(cap), MAX_BYTES_ENV, _bytes_text(total),
                        _bytes_text(read[big]), _shape_text(d.shape), _dtype_text(d)))

    # -- the root attributes --

    def attrs(self):
        try:
            keys = list(self.f.attrs.keys())
        except Exception as e:
            raise BadFile(self.path, "", "cannot read the root attributes (%s)" % _why(e))
        for k in keys:
            where = "root attribute %s" % k
            try:
                v = self.f.attrs[k]
            except Exception as e:
                raise BadFile(self.path, where, "cannot read (%s)" % _why(e))
            want = _ATTRS.get(k)
            if want is None:
                continue
            t = _text(v)
            if want == "str":
                if not isinstance(t, str):
                    raise BadFile(self.path, where, "wrong type (expected a string, found %s)"
                                  % _value_text(v))
                continue
            a = np.asarray(v)
            ok = a.shape == () and a.dtype.names is None and (
                a.dtype.kind in "iu" or (want == "num" and a.dtype.kind == "f"))
            if not ok:
                raise BadFile(self.path, where, "wrong type (expected %s, found %s)"
                              % ("an integer" if want == "int" else "a number", _value_text(v)))

    # -- the datasets --

    def datasets(self):
        f = self
        for g in ("model", "energy", "contact", "solver", "body", "actuator", "joint"):
            f.group(g)
        t = f.ds("time", True)
        f.typed("time", t, "num")
        if t.shape is None or len(t.shape) != 1:
            f.bad("time", "wrong shape (expected one time per row, [N]; found %s)"
                  % _shape_text(t.shape))
        f.count("N", t.shape[0], "rows of /time")
        f.names("model/q_names", "nq")
        f.names("model/v_names", "nv")
        f.names("model/body_names", "nbody")
        f.check("q", "num", ("N", "nq"), True)
        f.check("v", "num", ("N", "nv"), True)

        # body poses (format_version 2 on): both or neither
        pos, quat = f.ds("body/position"), f.ds("body/orientation")
        if (pos is None) != (quat is None):
            f.bad("body/orientation" if quat is None else "body/position",
                  "missing (a file with /%s has both /body/position and /body/orientation)"
                  % ("body/position" if quat is None else "body/orientation"))
        if pos is not None:
            f.check("body/position", "num", ("N", "nbody", 3))
            f.check("body/orientation", "num", ("N", "nbody", 4))

        # energy: the five of every format version, and any other 1-D
        need = ["energy/" + k for k in ENERGY_KEYS]
        missing = [n for n in need if f.obj(n) is None]
        if missing:
            f.bad(missing[0], "missing (expected /energy/{%s} in a simc output; this file "
                  "lacks %s)" % (",".join(ENERGY_KEYS),
                                 ", ".join(n.split("/")[1] for n in missing)))
        for n in need + sorted("energy/" + k for k in (f.f.get("energy") or {}).keys()):
            f.check(n, "num", ("N",), True)

        # solver statistics
        for n in ("solver/iterations", "solver/status"):
            f.check(n, "int", ("N",), True)
        f.check("solver/wall_time", "num", ("N",), True)
        for k in sorted((f.f.get("solver") or {}).keys()):
            if k in ("iterations", "status", "wall_time", "trace"):
                continue
            f.check("solver/" + k, "num", ("N",))

        # contacts
        f.check("contact/count", "int", ("N",), True)
        f.check("contact/max_penetration", "num", ("N",))
        f.check("contact/max_penetration_fraction", "num", ("N",))
        start = f.ds("contact/start")
        rows = [k for k in CONTACT_ROWS if f.obj("contact/" + k) is not None]
        if start is None and rows:
            f.bad("contact/start", "missing (the file has contact rows, /contact/%s)" % rows[0])
        if start is not None:
            for k in CONTACT_ROWS:
                f.ds("contact/" + k, True, " (a file with /contact/start has every contact "
                     "row dataset: /contact/%s)" % ", ".join(CONTACT_ROWS))
            gap = f.check("contact/gap", "num", (None,))   # M is its length
        # counts and starts: compared in their own integer type, then as
        # int64 (below 2^62 each, so that start + count cannot wrap)
        count = f.read("contact/count", f.ds("contact/count"))
        out = np.flatnonzero((count < 0) | (count > 2 ** 62))
        if len(out):
            k = int(out[0])
            f.bad("contact/count", "row %d is %d (expected a count of contacts, 0 .. 2^62)"
                  % (k, int(count[k])))
        if start is not None:
            f.check("contact/start", "int", ("N",))
            f.count("M", gap.shape[0], "rows of /contact/gap")
            for k, (want, *cols) in CONTACT_ROWS.items():
                f.check("contact/" + k, want, ("M",) + tuple(cols))
            M = f.val["M"]
            s = f.read("contact/start", start)
            neg = np.flatnonzero(s < 0)
            if len(neg):
                f.bad("contact/start", "row %d is %d (expected starts >= 0)"
                      % (neg[0], int(s[neg[0]])))
            over = np.flatnonzero(s > M)
            if len(over):
                k = int(over[0])
                f.bad("contact/start", "row %d is %d, beyond the contact rows (expected a start "
                      "<= M = %d rows of /contact/gap)" % (k, int(s[k]), M))
            s, c = s.astype(np.int64), count.astype(np.int64)
            down = np.flatnonzero(np.diff(s) < 0)
            if len(down):
                k = int(down[0]) + 1
                f.bad("contact/start", "decreases at row %d (expected non-decreasing starts, "
                      "found %d after %d)" % (k, int(s[k]), int(s[k - 1])))
            over = np.flatnonzero(s + c > M)
            if len(over):
                k = int(over[0])
                f.bad("contact/start", "row %d: start %d + count %d = %d is beyond the contact "
                      "rows (expected start + /contact/count <= M = %d rows of /contact/gap)"
                      % (k, int(s[k]), int(c[k]), int(s[k] + c[k]), M))

        # actuators (only in files of models with them)
        acts = f.names("model/actuator_names", "nact", required=False)
        for n in ("actuator/force", "actuator/command"):
            f.check(n, "num", ("N", "nact") if acts is not None else ("N", None))
        if acts is not None and f.ds("actuator/force") is not None \
                and f.obj("model/actuators/dof") is not None:
            f.check("model/actuators/dof", "int", ("nact",))
            f.check("model/actuators/gear", "num", ("nact",), True)
            d = f.ds("model/actuators/type", True)
            f.typed("model/actuators/type", d, "str")
            f.shaped("model/actuators/type", d, ("nact",))

        # linear springs (only in files of models with them): the body
        # pair of each row sets the count S the others are checked against
        if f.group("model/springs") is not None:
            d = f.check("model/springs/body", "int", (None, 2), True)
            f.count("S", d.shape[0], "springs in /model/springs/body")
            for n in ("point_a", "point_b"):
                f.check("model/springs/" + n, "num", ("S", 3), True)
            nb = f.val.get("nbody")
            if nb is not None:
                b = f.read("model/springs/body", d)
                if b.size and (b.min() < 0 or b.max() >= nb):
                    f.bad("model/springs/body", "a body index outside 0 .. %d (nbody = %d names "
                          "in /model/body_names)" % (nb - 1, nb))

        # joints
        jn = f.names("model/joint_names", "njnt", required=False)
        f.check("joint/limit_force", "num", ("N", "njnt") if jn is not None else ("N", None))
        f.check("joint/friction_force", "num", ("N", "nv"))

        # the shapes (format_version 2 on): what simc-view draws
        if f.group("model/geometry") is not None:
            gb = f.ds("model/geometry/body", True)
            f.typed("model/geometry/body", gb, "int")
            if gb.shape is None or len(gb.shape) != 1:
                f.bad("model/geometry/body", "wrong shape (expected one body per shape, [G]; "
                      "found %s)" % _shape_text(gb.shape))
            f.count("G", gb.shape[0], "shapes in /model/geometry/body")
            d = f.ds("model/geometry/shape", True)
            f.typed("model/geometry/shape", d, "str")
            f.shaped("model/geometry/shape", d, ("G",))
            for k, cols in (("size", 3), ("position", 3), ("orientation", 4)):
                f.check("model/geometry/" + k, "num", ("G", cols), True)
            self.indices("model/geometry/body", gb, -1, "a static shape")
            self.meshes(d)
        elif f.obj("model/meshes") is not None:
            self.meshes(None)
        # format_version 2 added /model/body_parent with /model/geometry
        d = f.check("model/body_parent", "int", ("nbody",),
                    f.obj("model/geometry") is not None, " (a file with /model/geometry has it)")
        if d is not None:
            self.indices("model/body_parent", d, -1, "the world")

    # -- the meshes (/model/meshes/<k>, /model/geometry/mesh) --

    def meshes(self, shape_ds):
        """The mesh groups /model/meshes/0 .. K-1: vertices [n, 3] finite
        numbers, faces [m, 3] integers in 0 .. n - 1, hull_vertices [h, 3]
        (h <= n, a hull's vertices are some of the mesh's) finite,
        hull_faces [t, 3] (t <= 2 h) in 0 .. h - 1, their attributes' kinds;
        the rows of all meshes together within MESH_MAX_VERTICES and
        MESH_MAX_FACES, checked from the shapes before any is read; and
        /model/geometry/mesh [G], integers in -1 .. K - 1, >= 0 for every
        shape "mesh".  shape_ds: /model/geometry/shape (None without
        /model/geometry)."""
        top = self.group("model/meshes")
        keys = []
        if top is not None:
            try:
                keys = list(top.keys())
            except Exception as e:
                self.bad("model/meshes", "cannot read (%s)" % _why(e))
        K = len(keys)
        want = set(str(k) for k in range(K))
        for k in keys:
            if k not in want:
                self.bad("model/meshes/" + k, "unexpected member (expected the groups "
                         "/model/meshes/0 .. /model/meshes/%d, one per mesh, named by "
                         "their index)" % (K - 1))
        self.count("K", K, "groups in /model/meshes")
        rows, nv_all, nf_all = [], 0, 0
        for k in range(K):
            g = "model/meshes/%d" % k
            if self.group(g) is None:
                self.bad(g, "missing")
            why = " (every mesh has vertices, faces, hull_vertices and hull_faces)"
            v = self.check(g + "/vertices", "num", (None, 3), True, why)
            fc = self.check(g + "/faces", "int", (None, 3), True, why)
            hv = self.check(g + "/hull_vertices", "num", (None, 3), True, why)
            hf = self.check(g + "/hull_faces", "int", (None, 3), True, why)
            n, m, h, t = (int(x.shape[0]) for x in (v, fc, hv, hf))
            if h > n:
                self.bad(g + "/hull_vertices", "wrong shape (expected at most the n = %d rows of "
                         "%s/vertices, a hull's vertices being some of the mesh's; found %s)"
                         % (n, "/" + g, _shape_text(hv.shape)))
            if t > 2 * h:
                self.bad(g + "/hull_faces", "wrong shape (expected at most 2 h = %d triangles "
                         "for the h = %d hull vertices; found %s)" % (2 * h, h, _shape_text(hf.shape)))
            nv_all += n
            nf_all += m
            if nv_all > MESH_MAX_VERTICES:
                self.bad(g + "/vertices", "too many mesh vertices (expected at most %d in all "
                         "meshes; found %d up to this one, shape %s here)"
                         % (MESH_MAX_VERTICES, nv_all, _shape_text(v.shape)))
            if nf_all > MESH_MAX_FACES:
                self.bad(g + "/faces", "too many mesh faces (expected at most %d in all "
                         "meshes; found %d up to this one, shape %s here)"
                         % (MESH_MAX_FACES, nf_all, _shape_text(fc.shape)))
            rows.append((g, v, fc, hv, hf, n, h))
        for g, v, fc, hv, hf, n, h in rows:
            for name, d in ((g + "/vertices", v), (g + "/hull_vertices", hv)):
                a = self.read(name, d)
                bad = np.flatnonzero(~np.all(np.isfinite(a), axis=1)) if a.dtype.kind == "f" \
                    else []
                if len(bad):
                    r = int(bad[0])
                    self.bad(name, "row %d is (%s) (expected finite coordinates, m)"
                             % (r, ", ".join("%g" % x for x in a[r])))
                del a
            for name, d, lim, of in ((g + "/faces", fc, n, "vertices"),
                                     (g + "/hull_faces", hf, h, "hull_vertices")):
                a = self.read(name, d)
                out = np.flatnonzero(np.any((a < 0) | (a >= lim), axis=1)) if a.size else []
                if len(out):
                    r = int(out[0])
                    self.bad(name, "row %d is (%s) (expected vertex indices 0 .. %d, into the "
                             "%d rows of /%s/%s)" % (r, ", ".join(str(int(x)) for x in a[r]),
                                                     lim - 1, lim, g, of))
                del a
            self.mesh_attrs(g)
        # which mesh each shape draws
        gm = self.ds("model/geometry/mesh")
        shapes = None
        if shape_ds is not None:
            shapes = [_text(x) for x in self.read("model/geometry/shape", shape_ds)]
        if gm is None:
            if shapes is not None and "mesh" in shapes:
                self.bad("model/geometry/mesh", "missing (shape %d is a mesh: a file with mesh "
                         "shapes has /model/geometry/mesh, each one's index into /model/meshes)"
                         % shapes.index("mesh"))
            return
        if shape_ds is None:
            self.bad("model/geometry/mesh", "unexpected (a file without /model/geometry/shape)")
        self.typed("model/geometry/mesh", gm, "int")
        self.shaped("model/geometry/mesh", gm, ("G",))
        a = self.read("model/geometry/mesh", gm)
        out = np.flatnonzero((a < -1) | (a >= K))
        if len(out):
            r = int(out[0])
            self.bad("model/geometry/mesh", "row %d is %d (expected -1 for a shape that is not "
                     "a mesh, else an index 0 .. K - 1 into /model/meshes: K = %d groups in "
                     "/model/meshes)" % (r, int(a[r]), K))
        for r, sh in enumerate(shapes):
            if sh == "mesh" and a[r] < 0:
                self.bad("model/geometry/mesh", "row %d is %d for a mesh shape (expected its "
                         "index 0 .. K - 1 into /model/meshes: K = %d groups in /model/meshes)"
                         % (r, int(a[r]), K))

    def mesh_attrs(self, g):
        """The attributes of a mesh group, when present: file (a string),
        closed (an integer), volume (a number), centroid (3 numbers)."""
        try:
            at = self.f[g].attrs
            keys = list(at.keys())
        except Exception as e:
            self.bad(g, "cannot read its attributes (%s)" % _why(e))
        for k in keys:
            if k not in ("file", "closed", "volume", "centroid"):
                continue
            where = "attribute %s of /%s" % (k, g)
            try:
                v = at[k]
            except Exception as e:
                raise BadFile(self.path, where, "cannot read (%s)" % _why(e))
            if k == "file":
                if not isinstance(_text(v), str):
                    raise BadFile(self.path, where, "wrong type (expected a string, found %s)"
                                  % _value_text(v))
                continue
            a = np.asarray(v)
            kinds = "iu" if k == "closed" else "iuf"
            shape_ok = a.shape == () if k != "centroid" else a.shape == (3,)
            if not (shape_ok and a.dtype.names is None and a.dtype.kind in kinds):
                raise BadFile(self.path, where, "wrong type (expected %s, found %s)"
                              % ({"closed": "an integer", "volume": "a number",
                                  "centroid": "3 numbers"}[k], _value_text(v)))

    def indices(self, name, d, low, low_means):
        """Body indices: low .. nbody - 1."""
        a = self.read(name, d)
        nb = self.val["nbody"]
        out = np.flatnonzero((a < low) | (a >= nb))
        if len(out):
            k = int(out[0])
            self.bad(name, "row %d is %d (expected a body index %d .. %d: %d for %s, else "
                     "an index into /model/body_names)" % (k, int(a[k]), low, nb - 1, low, low_means))


def _value_text(v):
    if isinstance(v, h5py.Empty):
        return "an empty attribute (no value)"
    a = np.asarray(v)
    if a.shape != ():
        return "an array of shape %s" % _shape_text(a.shape)
    t = _text(v)
    if isinstance(t, str):
        return "the string %r" % (t if len(t) <= 40 else t[:40] + "...")
    return "%s %r" % (_type_text(a.dtype), a.item())


def read_dataset(f, path, name, numbers=False):
    """The dataset name of the checked file f as an array; numbers: integer
    data (accepted where numbers are expected) is converted to float.  A
    dataset that cannot be read (a damaged chunk) raises BadFile."""
    try:
        a = f[name][()]
    except Exception as e:
        raise BadFile(path, "/" + name, "cannot read (%s)" % _why(e))
    if numbers and a.dtype.kind in "iu":
        a = a.astype(float)
    return a


def check_file(f, path, loads=None):
    """Checks the open simc output f (read from path) before it is read: the
    declared sizes (at most MAX_RATIO times the file's size on disk, and the
    datasets in loads, default all but /solver/trace, at most max_bytes()),
    the root attributes the tools use, and every dataset's type and shape
    against the file's own counts, the contact starts and counts against the
    contact rows, the body indices of /model/geometry and
    /model/body_parent, and the meshes (_Check.meshes: finite vertices,
    face indices in range, /model/geometry/mesh, the caps MESH_MAX_VERTICES
    and MESH_MAX_FACES).  Raises BadFile."""
    c = _Check(f, path)
    c.sizes(loads)
    c.attrs()
    c.datasets()
    return c.val


def q_unit(name):
    """Unit of a generalized coordinate from its q_names suffix (the CLI names
    them body.x|y|z, body.angle|theta, body.qw|qx|qy|qz)."""
    suffix = name.rsplit(".", 1)[-1]
    if suffix in ("x", "y", "z"):
        return "m"
    if suffix in ("angle", "theta"):
        return "rad"
    if suffix in ("qw", "qx", "qy", "qz"):
        return "1"
    return "m or rad"


# ---- actuators: which joint and dof each drives ----
#
# A file names its actuators (/model/actuator_names) and, from format 3 on
# when it has any, their type, dof and gear (/model/actuators).  For files
# written before /model/actuators existed, the root attribute scene_yaml (the
# scene as simc used it, re-emitted by simc's YAML writer: block mappings,
# scalar lists in flow style) says: scene_actuators() reads its `actuators:`
# list with the few rules of that writer's output, so the tools need no YAML
# library.

def _yaml_scalar(text):
    """A plain, single- or double-quoted YAML scalar (one line) as a str."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] == "'":
        return t[1:-1].replace("''", "'")
    if len(t) >= 2 and t[0] == t[-1] == '"':
        import json
        try:
            return json.loads(t)
        except ValueError:
            return t[1:-1]
    if " #" in t:
        t = t.split(" #", 1)[0].rstrip()
    return t


def _yaml_key_value(line):
    """(key, value) of a `key: value` line of a block mapping, else None."""
    t = line.strip()
    if t.startswith('"') or t.startswith("'"):
        q = t[0]
        end = t.find(q + ":", 1)
        if end < 0:
            return None
        return _yaml_scalar(t[:end + 1]), t[end + 2:].strip()
    if ":" not in t:
        return None
    k, v = t.split(":", 1)
    if v and not v.startswith(" "):
        return None
    return k.strip(), v.strip()


def scene_actuators(scene_yaml):
    """The scene's actuators in order, each a dict of its scalar keys
    (name, joint, type, dof, gear, command, ...: the values as strings),
    from the `actuators:` list of simc's re-emitted scene text; [] when it
    has none, None when the text is not in the form simc writes."""
    if not isinstance(scene_yaml, str):
        return None
    lines = scene_yaml.splitlines()
    try:
        i = lines.index("actuators:")
    except ValueError:
        return []
    items, cur, ind = [], None, None
    for line in lines[i + 1:]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith((" ", "-")):
            break                           # the next top-level key
        lead = len(line) - len(line.lstrip(" "))
        body = line[lead:]
        if body.startswith("- "):
            if ind is None:
                ind = lead
            if lead == ind:                 # a new actuator
                cur = {}
                items.append(cur)
                body = body[2:]
                lead += 2
            else:
                continue                    # an item of a nested list
        if cur is None:
            return None
        if lead != ind + 2:
            continue                        # a nested mapping's key
        kv = _yaml_key_value(body)
        if kv is None:
            return None
        if kv[1]:
            cur[kv[0]] = _yaml_scalar(kv[1])
    return items


def force_unit(v_name):
    """N or N m: the unit of a generalized force on the velocity named
    v_name (/model/v_names: vx, vy, vz are translations, the others
    rotations)."""
    return "N" if v_name.rsplit(".", 1)[-1] in ("vx", "vy", "vz") else "N m"


def actuator_info(names, scene_yaml, body_names, v_names, model=None):
    """One dict per actuator of /model/actuator_names: name, type, joint (the
    body whose joint it drives, or None), body (that body's index, or -1),
    dof (index into /model/v_names, or -1), force_unit (N, N m, or "N or N m"
    when unknown) and command_unit.  The joint and dof come from the scene
    text (scene_actuators); when it cannot be read, or does not list the
    same actuators, every actuator is listed without them.  model: the
    file's /model/actuators as {"type", "dof", "gear"} lists, which take
    precedence over the scene text."""
    acts = None
    if model is not None and len(model.get("dof", [])) == len(names):
        acts = []
        for k, n in enumerate(names):
            dof = int(model["dof"][k])
            joint = v_names[dof].rsplit(".", 1)[0] if 0 <= dof < len(v_names) else None
            mine = [i for i, vn in enumerate(v_names) if vn.rsplit(".", 1)[0] == joint]
            acts.append({"name": n, "type": model["type"][k], "joint": joint,
                         "dof": str(mine.index(dof)) if dof in mine else "-1",
                         "gear": "%g" % float(model["gear"][k])})
    if acts is None:
        acts = scene_actuators(scene_yaml)
    if acts is None or [a.get("name") for a in acts] != list(names):
        acts = [{"name": n} for n in names]
    out = []
    for a in acts:
        typ = a.get("type", "")
        joint = a.get("joint")
        body = body_names.index(joint) if joint in body_names else -1
        dof = -1
        if body > 0:
            mine = [k for k, vn in enumerate(v_names) if vn.rsplit(".", 1)[0] == joint]
            try:
                d = int(a.get("dof", "0"))
            except ValueError:
                d = -1
            if 0 <= d < len(mine):
                dof = mine[d]
        fu = force_unit(v_names[dof]) if dof >= 0 else "N or N m"
        lin = fu == "N"
        if typ == "position":
            cu = "m" if lin else ("rad" if dof >= 0 else "m or rad")
        elif typ == "velocity":
            cu = "m/s" if lin else ("rad/s" if dof >= 0 else "m/s or rad/s")
        elif typ == "motor":
            gear = a.get("gear", "1")
            try:
                g = float(gear)
            except ValueError:
                g = float("nan")
            cu = fu if g == 1 else "%s / gear %s" % (fu, gear)
        else:
            cu = ""
        out.append({"name": a["name"], "type": typ, "joint": joint if body > 0 else None,
                    "body": body if body > 0 else -1, "dof": dof, "force_unit": fu,
                    "command_unit": cu})
    return out


RESIDUALS = ("signorini", "dissipation_gap", "coulomb_residual")


class Run:
    """One simc output file, loaded into numpy arrays.  The file is checked
    first (check_file): a file that is not a readable simc output raises
    BadFile, with a one-line message naming the dataset."""

    def __init__(self, path):
        if h5py is None:
            raise RuntimeError("h5py is missing; " + APT_LINE)
        self.path = path
        with open_file(path) as f:
            check_file(f, path)
            self._load(f)

    def _load(self, f):
        """Reads the checked file f; a dataset that cannot be read (a
        damaged chunk) raises BadFile naming it."""
        def rd(name, numbers=False):
            return read_dataset(f, self.path, name, numbers)

        def num(name):
            return rd(name, True)

        def texts(name):
            return [_text(x) for x in rd(name)]

        self.attrs = {k: _text(v) for k, v in f.attrs.items()}
        self.t = num("time")
        self.q = num("q")
        self.v = num("v")
        self.q_names = texts("model/q_names")
        self.v_names = texts("model/v_names")
        self.energy = {k: num("energy/" + k) for k in ENERGY_KEYS + ENERGY_OPTIONAL
                       if "energy/" + k in f}
        self.count = rd("contact/count").astype(int)
        # output.contacts: false writes no /contact/start and no contact
        # rows, only the count and the per-row penetration
        has = "contact/gap" in f and "contact/start" in f
        self.has_contact_rows = has
        self.start = rd("contact/start").astype(int) if has \
            else np.zeros(len(self.count), int)
        self.max_penetration_row = (num("contact/max_penetration")
                                    if "contact/max_penetration" in f else None)
        self.gap = num("contact/gap") if has else np.zeros(0)
        self.slip = num("contact/slip") if has else np.zeros(0)
        self.impulse = num("contact/impulse") if has else np.zeros((0, 3))
        self.iterations = rd("solver/iterations").astype(int)
        self.status = rd("solver/status").astype(int)
        self.wall_time = num("solver/wall_time")
        self.format_version = int(np.asarray(self.attrs.get("format_version", 1)).item())
        self.body_names = texts("model/body_names")
        if "body/position" in f:
            self.body_pos = num("body/position")       # [N, nbody, 3], m
            self.body_quat = num("body/orientation")   # [N, nbody, 4], w x y z
        else:
            self.body_pos = self.body_quat = None
        # actuators (only in files of models that have them)
        if "model/actuator_names" in f and "actuator/force" in f:
            self.actuator_names = texts("model/actuator_names")
            self.actuator_force = num("actuator/force")      # [N, nact], N or N m
            self.actuator_command = (num("actuator/command")
                                     if "actuator/command" in f else None)
            self.actuator_model = None
            if "model/actuators/dof" in f:
                self.actuator_model = {
                    "type": texts("model/actuators/type"),
                    "dof": rd("model/actuators/dof"),
                    "gear": num("model/actuators/gear")}
        else:
            self.actuator_names, self.actuator_force = [], None
            self.actuator_command = None
            self.actuator_model = None
        # the contact solution's distance from Coulomb's law per row (J;
        # format 4 on): Signorini, maximum-dissipation gap, De Saxce's
        self.residuals = ({k: num("solver/" + k) for k in RESIDUALS}
                          if all(("solver/" + k) in f for k in RESIDUALS) else None)
        self.joint_names = (texts("model/joint_names") if "model/joint_names" in f else [])
        self.joint_limit_force = num("joint/limit_force") if "joint/limit_force" in f \
            else None
        self.joint_friction_force = (num("joint/friction_force")
                                     if "joint/friction_force" in f else None)
        # equality constraints and tendons (only in files of models with them)
        self.constraint_violation = (num("constraint/violation")
                                     if "constraint/violation" in f else None)
        self.constraint_force = num("constraint/force") if "constraint/force" in f else None
        self.tendon_names = texts("model/tendon_names") if "model/tendon_names" in f else []
        self.tendon_length = num("tendon/length") if "tendon/length" in f else None
        self.tendon_limit_force = (num("tendon/limit_force")
                                   if "tendon/limit_force" in f else None)

    def poses_note(self):
        """None when the file has body poses, else a sentence saying why not."""
        if self.body_pos is not None:
            return None
        return ("%s is simc format_version %d: it has no body poses (/body/position, added in "
                "version %d); rerun the scene with this simc to get them"
                % (self.path, self.format_version, POSES_SINCE))

    @property
    def solver(self):
        return str(self.attrs.get("solver", "?"))

    @property
    def label(self):
        return self.solver

    def q_index(self, name):
        if name not in self.q_names:
            raise KeyError("no coordinate %r (q_names: %s)" % (name, ", ".join(self.q_names)))
        return self.q_names.index(name)

    def _per_row(self, values, fill, reduce, mask=None):
        out = np.full(len(self.t), fill, dtype=float)
        if len(values) == 0:
            return out
        for r in range(len(self.t)):
            a, n = self.start[r], self.count[r]
            if n <= 0:
                continue
            seg = values[a:a + n]
            if mask is not None:
                seg = seg[mask[a:a + n]]
            if len(seg):
                out[r] = reduce(seg)
        return out

    def active(self):
        """Contacts that carry a normal impulse (the others are inside the
        detection margin but apart)."""
        return self.impulse[:, 2] > 0 if len(self.impulse) else np.zeros(0, bool)

    def actuators(self):
        """actuator_info() for this file's actuators ([] without any)."""
        return actuator_info(self.actuator_names, self.attrs.get("scene_yaml"),
                             self.body_names, self.v_names, self.actuator_model)

    def penetration(self):
        """Largest penetration max(0, -gap) per row, m (0 without contacts);
        from /contact/max_penetration for a file written without contact
        rows (output.contacts: false), zeros if it has neither."""
        if not self.has_contact_rows and self.max_penetration_row is not None:
            return np.maximum(np.asarray(self.max_penetration_row, float), 0.0)
        return np.maximum(self._per_row(-self.gap, 0.0, np.max), 0.0)

    def max_slip(self):
        """Largest slip speed of a contact with a normal impulse, per row, m/s
        (nan where no contact is active)."""
        return self._per_row(self.slip, np.nan, np.max, self.active())

    def active_slips(self):
        """Slip speeds of every active recorded contact, m/s."""
        return self.slip[self.active()] if len(self.slip) else np.zeros(0)

    def balance_label(self):
        """How energy_balance() is formed, for legends."""
        return ("total + dissipated - actuator work" if "actuator" in self.energy
                else "total + dissipated")

    def energy_balance(self):
        """B(t) - B(0), J, with B = total + dissipated - actuator work
        (/energy/actuator, the work done by the actuators; absent, i.e. 0, in
        a file without actuators): the integrator's energy error, what simc's
        summary prints as the energy balance error."""
        e = self.energy["total"] + self.energy["dissipated"]
        if "actuator" in self.energy:
            e = e - self.energy["actuator"]
        return e - e[0]
