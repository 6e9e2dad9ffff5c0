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
# written only when the model has actuators, joint limits or dry joint
# friction (doc/output.md); Run.energy holds those the file has
ENERGY_OPTIONAL = ("actuator", "joint_limit", "joint_friction")

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
            self.energy = {k: f["energy/" + k][:] for k in ENERGY_KEYS + ENERGY_OPTIONAL
                           if "energy/" + k in f}
            self.count = f["contact/count"][:].astype(int)
            # output.contacts: false writes no /contact/start and no contact
            # rows, only the count and the per-row penetration
            has = "contact/gap" in f and "contact/start" in f
            self.has_contact_rows = has
            self.start = f["contact/start"][:].astype(int) if has \
                else np.zeros(len(self.count), int)
            self.max_penetration_row = (f["contact/max_penetration"][:]
                                        if "contact/max_penetration" in f else None)
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
            # actuators (only in files of models that have them)
            if "model/actuator_names" in f and "actuator/force" in f:
                self.actuator_names = [_text(s) for s in f["model/actuator_names"][:]]
                self.actuator_force = f["actuator/force"][:]      # [N, nact], N or N m
                self.actuator_command = (f["actuator/command"][:]
                                         if "actuator/command" in f else None)
                self.actuator_model = None
                if "model/actuators/dof" in f:
                    self.actuator_model = {
                        "type": [_text(s) for s in f["model/actuators/type"][:]],
                        "dof": f["model/actuators/dof"][:],
                        "gear": f["model/actuators/gear"][:]}
            else:
                self.actuator_names, self.actuator_force = [], None
                self.actuator_command = None
                self.actuator_model = None
            self.joint_names = ([_text(s) for s in f["model/joint_names"][:]]
                                if "model/joint_names" in f else [])
            self.joint_limit_force = f["joint/limit_force"][:] if "joint/limit_force" in f \
                else None
            self.joint_friction_force = (f["joint/friction_force"][:]
                                         if "joint/friction_force" in f else None)

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
