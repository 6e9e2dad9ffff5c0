"""Reading simc HDF5 trajectories (README.md, "Output (HDF5)") for the plot,
report and results scripts.  Needs h5py and numpy (Debian: python3-h5py
python3-numpy); run the scripts with /usr/bin/python3."""

import numpy as np

try:
    import h5py
except ImportError:  # reported by the callers with the apt-get line
    h5py = None

APT_LINE = "sudo apt-get install -y python3-h5py python3-numpy python3-matplotlib"

ENERGY_KEYS = ("kinetic", "gravity", "spring", "total", "dissipated")

# format_version 2 added /body/{position,orientation}, /model/body_parent and
# /model/geometry; older files still read, without them
POSES_SINCE = 2


def _text(x):
    if isinstance(x, bytes):
        return x.decode("utf-8", "replace")
    if isinstance(x, np.ndarray) and x.shape == ():
        return _text(x[()])
    return x


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


class Run:
    """One simc output file, loaded into numpy arrays."""

    def __init__(self, path):
        if h5py is None:
            raise RuntimeError("h5py is missing; " + APT_LINE)
        self.path = path
        with h5py.File(path, "r") as f:
            self.attrs = {k: _text(v) for k, v in f.attrs.items()}
            self.t = f["time"][:]
            self.q = f["q"][:]
            self.v = f["v"][:]
            self.q_names = [_text(s) for s in f["model/q_names"][:]]
            self.v_names = [_text(s) for s in f["model/v_names"][:]]
            self.energy = {k: f["energy/" + k][:] for k in ENERGY_KEYS}
            self.count = f["contact/count"][:].astype(int)
            self.start = f["contact/start"][:].astype(int)
            has = "contact/gap" in f
            self.gap = f["contact/gap"][:] if has else np.zeros(0)
            self.slip = f["contact/slip"][:] if has else np.zeros(0)
            self.impulse = f["contact/impulse"][:] if has else np.zeros((0, 3))
            self.iterations = f["solver/iterations"][:].astype(int)
            self.status = f["solver/status"][:].astype(int)
            self.wall_time = f["solver/wall_time"][:]
            self.format_version = int(np.asarray(self.attrs.get("format_version", 1)).item())
            self.body_names = [_text(s) for s in f["model/body_names"][:]]
            if "body/position" in f:
                self.body_pos = f["body/position"][:]       # [N, nbody, 3], m
                self.body_quat = f["body/orientation"][:]   # [N, nbody, 4], w x y z
            else:
                self.body_pos = self.body_quat = None

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

    def penetration(self):
        """Largest penetration max(0, -gap) per row, m (0 without contacts)."""
        return np.maximum(self._per_row(-self.gap, 0.0, np.max), 0.0)

    def max_slip(self):
        """Largest slip speed of a contact with a normal impulse, per row, m/s
        (nan where no contact is active)."""
        return self._per_row(self.slip, np.nan, np.max, self.active())

    def active_slips(self):
        """Slip speeds of every active recorded contact, m/s."""
        return self.slip[self.active()] if len(self.slip) else np.zeros(0)

    def energy_balance(self):
        """(total + dissipated)(t) - (total + dissipated)(0), J."""
        e = self.energy["total"] + self.energy["dissipated"]
        return e - e[0]
