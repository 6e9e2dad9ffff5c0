"""simc from Python: load a scene, step it, read and drive its state.

A thin ctypes layer over libsimc.so (include/simc.h); NumPy arrays in and
out.  ctypes releases the GIL while the library steps, so threads stepping
separate data objects run in parallel.

    import simc
    m = simc.load("scene.yaml")        # or .xml / .urdf; simc.Error has file, line, col
    d = m.data()                       # the initial state
    d.ctrl[:] = 1.5                    # every actuator's input (NaN: its command)
    m.step(d, 100)                     # 100 steps of the scene's dt
    print(d.time, d.q, d.v, d.contacts())
    e = d.copy()                       # a branch: steps as d would, bit for bit

The data's arrays are NumPy views of the library's own (no copy), one
property each from the library's list of them (simc_field; their names in
simc.FIELDS, each property's docstring its meaning and unit): d.q, d.v (in
the output file's coordinates: a free joint at its frame origin;
doc/library.md), d.ctrl, d.qfrc_applied (generalized forces), d.xfrc_applied
(per body a force at its centre of mass and a torque, world axes), and
read-only ones (body poses, actuator, limit, tendon and constraint forces).  A write to d.q or d.v
is the state from the next step (or copy, rollout, record, forward), which
checks it; d.set_state(q, v) sets and checks it at once.

The library is found, in order, at $SIMC_LIB, beside this package when it
is installed (PREFIX/lib), in the source tree's build/release, and by the
system's linker path.
"""

import ctypes
import ctypes.util
import os

import numpy as np

__all__ = ["Error", "load", "rollout", "Model", "Data", "Recorder", "FIELDS", "BODY", "JOINT", "ACTUATOR", "QPOS", "DOF"]

BODY, JOINT, ACTUATOR, QPOS, DOF = 0, 1, 2, 3, 4
_KINDS = {"body": BODY, "joint": JOINT, "actuator": ACTUATOR, "qpos": QPOS, "dof": DOF}


class Error(Exception):
    """A failure of the library: code, file, line, col (0 when unknown) and
    message; str() is file:line:col: message as the command line prints it."""

    def __init__(self, code, file, line, col, message):
        self.code, self.file, self.line, self.col, self.message = code, file, line, col, message
        where = (("%s:%d:%d: " % (file, line, col) if col > 0 else "%s:%d: " % (file, line))
                 if line > 0 else "%s: " % file) if file else ""
        super().__init__(where + message)


class _Err(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("file", ctypes.c_char * 256), ("line", ctypes.c_int),
                ("col", ctypes.c_int), ("msg", ctypes.c_char * 768)]

    def raise_if(self, status):
        if status != 0:
            raise Error(self.code or status, self.file.decode(errors="replace"), self.line, self.col,
                        self.msg.decode(errors="replace"))


class _Contact(ctypes.Structure):
    _fields_ = [("body", ctypes.c_int * 2), ("point", ctypes.c_double * 3),
                ("normal", ctypes.c_double * 3), ("frame", ctypes.c_double * 9),
                ("gap", ctypes.c_double), ("impulse", ctypes.c_double * 3)]


class _FieldInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("rows", ctypes.c_int), ("cols", ctypes.c_int),
                ("writable", ctypes.c_int), ("unit", ctypes.c_char_p), ("what", ctypes.c_char_p)]


CONTACT_DTYPE = np.dtype([("body", np.int32, (2,)), ("point", np.float64, (3,)),
                          ("normal", np.float64, (3,)), ("frame", np.float64, (3, 3)),
                          ("gap", np.float64), ("impulse", np.float64, (3,))])
# simc_contacts writes simc_contact structs straight into an array of this
# dtype: the two layouts must be the same
assert CONTACT_DTYPE.itemsize == ctypes.sizeof(_Contact) and all(
    CONTACT_DTYPE.fields[name][1] == getattr(_Contact, name).offset for name in CONTACT_DTYPE.names)


def _find_library():
    here = os.path.dirname(os.path.abspath(__file__))
    cands = []
    if os.environ.get("SIMC_LIB"):
        cands.append(os.environ["SIMC_LIB"])
    # PREFIX/lib/python3/dist-packages/simc -> PREFIX/lib
    cands.append(os.path.normpath(os.path.join(here, "..", "..", "..", "libsimc.so.0")))
    # the source tree: python/simc -> build/release
    root = os.path.normpath(os.path.join(here, "..", ".."))
    cands += [os.path.join(root, "build", "release", n) for n in ("libsimc.so.0.1",)]
    for c in cands:
        if os.path.exists(c):
            return c
    found = ctypes.util.find_library("simc")
    if found:
        return found
    raise OSError("libsimc.so not found (tried %s; set SIMC_LIB)" % ", ".join(cands))


_lib = ctypes.CDLL(_find_library())
_P, _D, _I = ctypes.c_void_p, ctypes.c_double, ctypes.c_int
_DP = ctypes.POINTER(ctypes.c_double)
for name, res, args in [
        ("simc_load", _P, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p), _I, ctypes.POINTER(_Err)]),
        ("simc_model_free", None, [_P]),
        ("simc_count", _I, [_P, _I]),
        ("simc_name", ctypes.c_char_p, [_P, _I, _I]),
        ("simc_timestep", _D, [_P]),
        ("simc_model_text", ctypes.c_char_p, [_P, _I]),
        ("simc_duration", _D, [_P]),
        ("simc_data_make", _P, [_P, ctypes.POINTER(_Err)]),
        ("simc_data_reset", _I, [_P, _P, ctypes.POINTER(_Err)]),
        ("simc_data_free", None, [_P]),
        ("simc_time", _D, [_P]),
        ("simc_set_time", _I, [_P, _P, _D, ctypes.POINTER(_Err)]),
        ("simc_warnings", _I, [_P, _I]),
        ("simc_set_state", _I, [_P, _P, _DP, _DP, ctypes.POINTER(_Err)]),
        ("simc_data_copy", _I, [_P, _P, _P, ctypes.POINTER(_Err)]),
        ("simc_rollout", _I, [_P, _P, _I, _I, _DP, _DP, _I, ctypes.POINTER(_Err)]),
        ("simc_body_pose", _I, [_P, _P, _I, _DP, _DP]),
        ("simc_data_load_state", _I, [_P, _P, ctypes.c_char_p, ctypes.c_char_p, _I, ctypes.POINTER(_Err)]),
        ("simc_recorder_open", _P, [_P, _P, ctypes.c_char_p, _P, ctypes.POINTER(_Err)]),
        ("simc_recorder_step", _I, [_P, _P, _P, ctypes.POINTER(_Err)]),
        ("simc_recorder_frame", _I, [_P, _P, _P, ctypes.POINTER(_Err)]),
        ("simc_recorder_close", _I, [_P, _P, _P, ctypes.c_char_p, _P, ctypes.POINTER(_Err)]),
        ("simc_step", _I, [_P, _P, _I, ctypes.POINTER(_Err)]),
        ("simc_ncontact", _I, [_P]),
        ("simc_get_contact", _I, [_P, _I, ctypes.POINTER(_Contact)]),
        ("simc_contacts", _I, [_P, _P, _I]),
        ("simc_energy", None, [_P, _DP]),
        ("simc_forward", _I, [_P, _P, ctypes.POINTER(_Err)]),
        ("simc_field_count", _I, []),
        ("simc_field", _DP, [_P, _P, _I, ctypes.POINTER(_FieldInfo)])]:
    f = getattr(_lib, name)
    f.restype, f.argtypes = res, args


def _dp(a):
    return a.ctypes.data_as(_DP)


class Model:
    """A loaded scene (immutable)."""

    def __init__(self, handle, path):
        self._h = handle
        self.path = path
        self.nq = _lib.simc_count(handle, QPOS)
        self.nv = _lib.simc_count(handle, DOF)
        self.nu = _lib.simc_count(handle, ACTUATOR)
        self.nbody = _lib.simc_count(handle, BODY)
        self.timestep = _lib.simc_timestep(handle)
        self.duration = _lib.simc_duration(handle)

    def __del__(self):
        if getattr(self, "_h", None):
            _lib.simc_model_free(self._h)
            self._h = None

    def text(self, what):
        """what the loader says, one item per line: "notes" (what it changed in
        the scene), "approximated", "ignored" (left out), or "digest" (of the
        run's inputs)"""
        k = {"notes": 0, "approximated": 1, "ignored": 2, "digest": 3}[what]
        return _lib.simc_model_text(self._h, k).decode(errors="replace")

    def names(self, kind):
        """the names of 'body', 'joint', 'actuator', 'qpos' or 'dof'"""
        k = _KINDS[kind] if isinstance(kind, str) else kind
        return [_lib.simc_name(self._h, k, i).decode() for i in range(_lib.simc_count(self._h, k))]

    def data(self):
        """a state at the scene's initial conditions"""
        err = _Err()
        h = _lib.simc_data_make(self._h, ctypes.byref(err))
        if not h:
            err.raise_if(err.code or 1)
        return Data(self, h)

    def step(self, d, n=1):
        """n steps of the scene's dt (the GIL is released meanwhile)"""
        err = _Err()
        err.raise_if(_lib.simc_step(self._h, d._h, int(n), ctypes.byref(err)))


class Data:
    """One state of a model."""

    def __init__(self, model, handle):
        self.model = model  # keeps the model alive as long as its data
        self._h = handle

    def _field(self, i):
        # a view of field i; the array keeps this data object (and so the
        # memory it views) alive
        info = _FieldInfo()
        ptr = _lib.simc_field(self.model._h, self._h, i, ctypes.byref(info))
        n = info.rows * info.cols
        buf = (ctypes.c_double * max(n, 1)).from_address(ctypes.addressof(ptr.contents))
        buf._owner = self
        a = np.frombuffer(buf, dtype=np.float64, count=n)
        a = a.reshape((info.rows,) if info.cols == 1 else (info.rows, info.cols))
        if not info.writable:
            a.flags.writeable = False
        return a

    def __del__(self):
        if getattr(self, "_h", None):
            _lib.simc_data_free(self._h)
            self._h = None

    @property
    def time(self):
        """s; set it to move where the scene's commands are read (whole steps)"""
        return _lib.simc_time(self._h)

    @time.setter
    def time(self, t):
        err = _Err()
        err.raise_if(_lib.simc_set_time(self.model._h, self._h, float(t), ctypes.byref(err)))

    def warnings(self):
        """how many steps (and initial states' checks) since make or reset raised
        each warning"""
        return {name: _lib.simc_warnings(self._h, i) for i, name in
                enumerate(("free_newton", "contact", "max_contacts", "fast_body"))}

    def set_state(self, q, v):
        q = np.ascontiguousarray(q, dtype=np.float64)
        v = np.ascontiguousarray(v, dtype=np.float64)
        if q.shape != (self.model.nq,) or v.shape != (self.model.nv,):
            raise ValueError("q must have %d values and v %d" % (self.model.nq, self.model.nv))
        err = _Err()
        err.raise_if(_lib.simc_set_state(self.model._h, self._h, _dp(q), _dp(v), ctypes.byref(err)))

    def reset(self):
        """back to the initial conditions, controls given back to the commands"""
        err = _Err()
        err.raise_if(_lib.simc_data_reset(self.model._h, self._h, ctypes.byref(err)))

    def forward(self):
        """take what was written to d.q and d.v as the state now (a step does
        it anyway), and recompute what depends on it (d.xpos, body_pose,
        energy, contacts)"""
        err = _Err()
        err.raise_if(_lib.simc_forward(self.model._h, self._h, ctypes.byref(err)))

    def copy(self):
        """a branch of this run: a new data equal to this one in everything the
        next steps read (state, time, controls, applied forces, energies, the
        contacts' memory), so that both step alike, bit for bit"""
        e = self.model.data()
        err = _Err()
        err.raise_if(_lib.simc_data_copy(self.model._h, e._h, self._h, ctypes.byref(err)))
        return e

    def load_state(self, spec):
        """q and v from a recorded run, "run.h5" (its last row) or "run.h5:ROW"
        (the command line's --from); returns "run.h5 row R (t = T s)" """
        buf = ctypes.create_string_buffer(4300)
        err = _Err()
        err.raise_if(_lib.simc_data_load_state(self.model._h, self._h, os.fsencode(spec), buf,
                                               len(buf), ctypes.byref(err)))
        return buf.value.decode(errors="replace")

    def body_pose(self, b):
        """body b's frame origin (m) and rotation matrix (body to world)"""
        if isinstance(b, str):
            b = self.model.names("body").index(b)
        p, r = np.empty(3), np.empty(9)
        if _lib.simc_body_pose(self.model._h, self._h, int(b), _dp(p), _dp(r)) != 0:
            raise IndexError("body %d out of range" % b)
        return p, r.reshape(3, 3)

    def energy(self):
        """kinetic, gravity, spring, dissipated, work of actuators and applied forces (J)"""
        e = np.empty(5)
        _lib.simc_energy(self._h, _dp(e))
        return e

    def contacts(self):
        """the last step's contacts as a structured array (CONTACT_DTYPE)"""
        n = _lib.simc_ncontact(self._h)
        out = np.zeros(n, dtype=CONTACT_DTYPE)
        if n:
            _lib.simc_contacts(self._h, out.ctypes.data, n)
        return out


def _field_property(i, info):
    def get(self):
        return self._field(i)

    def put(self, value):
        self._field(i)[...] = value

    doc = "%s (%s)%s" % (info.what.decode(), info.unit.decode(),
                         "" if info.writable else "; read only")
    return property(get, put if info.writable else None, None, doc)


# Data's arrays, one property each, from the library's list of them
FIELDS = []
for _i in range(_lib.simc_field_count()):
    _info = _FieldInfo()
    _lib.simc_field(None, None, _i, ctypes.byref(_info))
    FIELDS.append(_info.name.decode())
    setattr(Data, FIELDS[-1], _field_property(_i, _info))
del _i, _info


class Recorder:
    """A run recorded into the command line's HDF5 file (doc/output.md):

        with simc.Recorder(m, d, "run.h5") as rec:   # row 0: d's state now
            for _ in range(n):
                m.step(d)
                rec.step(d)      # a row every output.every steps
        # closed "complete" (after the final state's check), or, when the
        # block raised, "failed: <the exception>"

    rec.frame(d) writes a row now; rec.close(d, status=None) ends the run
    with its figures, warnings and status (None: it reached its end)."""

    def __init__(self, model, d, path):
        self.model, self._d = model, d
        err = _Err()
        self._h = _lib.simc_recorder_open(model._h, d._h, os.fsencode(path), None, ctypes.byref(err))
        if not self._h:
            err.raise_if(err.code or 1)

    def step(self, d):
        err = _Err()
        err.raise_if(_lib.simc_recorder_step(self._h, self.model._h, d._h, ctypes.byref(err)))

    def frame(self, d):
        err = _Err()
        err.raise_if(_lib.simc_recorder_frame(self._h, self.model._h, d._h, ctypes.byref(err)))

    def close(self, d=None, status=None):
        if not self._h:
            return
        h, self._h = self._h, None
        d = d or self._d
        err = _Err()
        err.raise_if(_lib.simc_recorder_close(h, self.model._h, d._h,
                                              status.encode() if status is not None else None,
                                              None, ctypes.byref(err)))

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            self.close()
        else:
            self.close(status=("interrupted" if issubclass(kind, KeyboardInterrupt)
                               else "failed: %s" % value))
        return False

    def __del__(self):
        if getattr(self, "_h", None):
            self.close(status="interrupted")


def load(path, sets=()):
    """a scene file (YAML, MJCF .xml, URDF .urdf) with --set style overrides"""
    sets = [s.encode() for s in sets]
    arr = (ctypes.c_char_p * max(len(sets), 1))(*sets)
    err = _Err()
    h = _lib.simc_load(os.fsencode(path), arr, len(sets), ctypes.byref(err))
    if not h:
        err.raise_if(err.code or 1)
    return Model(h, path)


def rollout(model, d, ctrl, threads=None):
    """N rollouts of T steps each from d's state, run in the library.

    ctrl[N, T, nu]: every actuator's input at each step (NaN: its command).
    Returns q[N, T+1, nq], q[:, 0] the start.  Each rollout steps a copy of
    d (d.copy(): its time, applied forces and contact memory too), so a
    rollout is the serial loop

        e = d.copy()
        for t in range(T): e.ctrl[:] = ctrl[i, t]; model.step(e)

    bit for bit, whatever `threads` (default: the machine's CPUs) run them:
    the library runs them on its own threads (simc_rollout), the GIL
    released for the whole call.  The first failing rollout raises
    simc.Error."""
    ctrl = np.ascontiguousarray(ctrl, dtype=np.float64)
    if ctrl.ndim != 3 or ctrl.shape[2] != model.nu:
        raise ValueError("ctrl must be [N, T, %d] (got %s)" % (model.nu, ctrl.shape))
    n, steps = ctrl.shape[0], ctrl.shape[1]
    out = np.empty((n, steps + 1, model.nq))
    err = _Err()
    err.raise_if(_lib.simc_rollout(model._h, d._h, n, steps, _dp(ctrl) if ctrl.size else None,
                                   _dp(out), int(threads or 0), ctypes.byref(err)))
    return out
