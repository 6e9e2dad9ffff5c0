#!/usr/bin/python3
"""make_bad_h5.py VALID.h5 OUTDIR

Writes malformed variants of a valid simc output into OUTDIR, one file
each, for fuzzing the tools' readers (tools/simc_h5.py, tools/simc-view;
test/t_bad_h5.sh runs every tool on every variant), and OUTDIR/variants.tsv
with one line per file:

    NAME.h5 <TAB> EXPECT <TAB> WHAT

EXPECT is "ok" for a variant the tools must accept, else the text the
one-line error must hold: the dataset's name ("/body/position"), the root
attribute's ("root attribute format_version"), or "cannot open" for a file
that is not HDF5 at all.

The rule on types: where numbers are expected, integer data is accepted as
well as floats of any size (integers convert exactly; the ok_* variants);
where integers are expected (counts, starts, indices, statuses) only
integers are; names must be strings.  Variants the input cannot give (no
contact rows, no actuators, no joint limits) are skipped with a note on
stderr: VALID.h5 should have contact rows, actuators and joint limits
(scenes/gripper_lift.yaml for 0.05 s has all three).  Run with
/usr/bin/python3 (h5py, numpy).
"""

import math
import os
import shutil
import sys

import h5py
import numpy as np

BIG = 10 ** 9  # rows a huge variant declares


def declared(ds):
    """The bytes a dataset's shape and type declare (as tools/simc_h5.py
    counts them)."""
    if not ds.shape:
        return 0
    return math.prod(ds.shape) * ds.id.get_type().get_size()


def replace(f, name, data, **kw):
    """Replaces dataset name by a new one holding data."""
    del f[name]
    return f.create_dataset(name, data=data, **kw)


def largest(path):
    sizes = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda n, o: sizes.__setitem__(n, declared(o))
                     if isinstance(o, h5py.Dataset) else None)
    return "/" + max(sizes, key=sizes.get)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    src, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    with h5py.File(src, "r") as f:
        N = f["time"].shape[0]
        nq = len(f["model/q_names"])
        nbody = len(f["model/body_names"])
        M = f["contact/gap"].shape[0] if "contact/gap" in f else 0
        count = f["contact/count"][()]
        has = {k: k in f for k in ("contact/start", "actuator/force", "joint/limit_force",
                                    "model/geometry", "body/position")}
    manifest = []

    def variant(name, expect, what, edit=None, need=True):
        """Copies src to OUTDIR/name.h5 and applies edit(f) to it in r+ mode."""
        if not need:
            sys.stderr.write("make_bad_h5.py: note: %s skipped: %s has no %s\n"
                             % (name, src, what.split(":")[0]))
            return
        path = os.path.join(out, name + ".h5")
        shutil.copyfile(src, path)
        if edit is not None:
            with h5py.File(path, "r+") as f:
                edit(f)
        if callable(expect):
            expect = expect(path)
        manifest.append((name + ".h5", expect, what))

    rows_ok = N >= 3
    # ---- shapes against the file's own counts ----
    variant("pos_columns", "/body/position", "/body/position with 4 columns, not 3",
            lambda f: replace(f, "body/position", np.zeros((N, nbody, 4))),
            has["body/position"])
    variant("orientation_bodies", "/body/orientation",
            "/body/orientation with nbody + 1 bodies",
            lambda f: replace(f, "body/orientation", np.zeros((N, nbody + 1, 4))),
            has["body/position"])
    variant("q_extra_column", "/q", "/q with nq + 1 columns",
            lambda f: replace(f, "q", np.zeros((N, nq + 1))))
    variant("v_short", "/v", "/v with N - 1 rows",
            lambda f: f["v"].resize(N - 1, axis=0))
    variant("time_2d", "/time", "/time of shape (N, 1)",
            lambda f: replace(f, "time", f["time"][()][:, None]))
    variant("q_group", "/q", "/q a group, not a dataset",
            lambda f: (f.__delitem__("q"), f.create_group("q")))
    variant("actuator_force_columns", "/actuator/force", "/actuator/force with nact + 1 columns",
            lambda f: replace(f, "actuator/force",
                              np.zeros((N, f["actuator/force"].shape[1] + 1))),
            has["actuator/force"])
    variant("joint_limit_columns", "/joint/limit_force",
            "/joint/limit_force with njnt + 2 columns",
            lambda f: replace(f, "joint/limit_force",
                              np.zeros((N, f["joint/limit_force"].shape[1] + 2))),
            has["joint/limit_force"])
    variant("contact_normal_missing", "/contact/normal", "/contact/normal deleted",
            lambda f: f.__delitem__("contact/normal"), has["contact/start"])

    # ---- contact starts and counts ----
    def set_row(name, k, value):
        def edit(f):
            a = f[name][()]
            a[k] = value
            f[name][...] = a
        return edit
    variant("start_negative", "/contact/start", "/contact/start[1] = -5",
            set_row("contact/start", 1, -5), has["contact/start"] and rows_ok)
    last = int(np.flatnonzero(count)[-1]) if np.any(count > 0) else N - 1
    variant("start_beyond_rows", "/contact/start",
            "/contact/start[%d] + count reaching past the M contact rows" % last,
            set_row("contact/start", last, M - int(count[last]) + 1), has["contact/start"])
    variant("start_decreasing", "/contact/start", "/contact/start[N-1] = 0 after larger starts",
            set_row("contact/start", N - 1, 0), has["contact/start"] and M > 0 and rows_ok)
    variant("count_negative", "/contact/count", "/contact/count[1] = -1",
            set_row("contact/count", 1, -1), rows_ok)
    variant("count_float", "/contact/count", "/contact/count stored as float64",
            lambda f: replace(f, "contact/count", f["contact/count"][()].astype(float)))
    variant("geometry_body_index", "/model/geometry/body",
            "/model/geometry/body[0] = nbody + 2 (no such body)",
            set_row("model/geometry/body", 0, nbody + 2), has["model/geometry"])

    # ---- sizes: extents set far beyond what the file holds ----
    variant("time_1e9", "/time", "/time resized to 1e9 rows (chunked, nothing written)",
            lambda f: f["time"].resize(BIG, axis=0))

    def all_frames(f):
        names = []
        f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) and
                     o.shape and o.shape[0] == N and o.maxshape[0] is None else None)
        for n in names:
            f[n].resize(BIG, axis=0)
    variant("frames_1e9", largest, "every per-row dataset resized to 1e9 rows (consistent "
            "shapes, nothing written)", all_frames)
    variant("contact_gap_1e9", "/contact/gap", "/contact/gap resized to 1e9 rows",
            lambda f: f["contact/gap"].resize(BIG, axis=0), has["contact/start"])

    # ---- types ----
    variant("q_strings", "/q", "/q holding strings",
            lambda f: replace(f, "q", np.array([["%.17g" % x for x in r] for r in f["q"][()]],
                                               dtype=object), dtype=h5py.string_dtype()))
    variant("q_names_numeric", "/model/q_names", "/model/q_names holding integers",
            lambda f: replace(f, "model/q_names", np.arange(nq)))
    variant("format_version_text", "root attribute format_version",
            "root attribute format_version = 'three'",
            lambda f: f.attrs.__setitem__("format_version", "three"))

    # ---- missing datasets ----
    variant("energy_total_missing", "/energy/total", "/energy/total deleted",
            lambda f: f.__delitem__("energy/total"))
    variant("energy_missing", "/energy/kinetic", "/energy deleted",
            lambda f: f.__delitem__("energy"))
    variant("body_names_missing", "/model/body_names", "/model/body_names deleted",
            lambda f: f.__delitem__("model/body_names"))

    # ---- not HDF5 at all ----
    size = os.path.getsize(src)
    for name, data, what in (("truncated", None, "the first half of the bytes"),
                             ("empty", b"", "an empty file"),
                             ("text", b"not an HDF5 file\n", "a text file")):
        path = os.path.join(out, name + ".h5")
        with open(path, "wb") as fh:
            if data is None:
                with open(src, "rb") as s:
                    fh.write(s.read(size // 2))
            else:
                fh.write(data)
        manifest.append((name + ".h5", "cannot open", what))

    # ---- accepted: integers where numbers are expected, float32 ----
    variant("ok_spring_int", "ok", "/energy/spring stored as int64 (rounded)",
            lambda f: replace(f, "energy/spring", np.round(f["energy/spring"][()]).astype(np.int64)))
    variant("ok_time_float32", "ok", "/time stored as float32",
            lambda f: replace(f, "time", f["time"][()].astype(np.float32)))

    with open(os.path.join(out, "variants.tsv"), "w") as fh:
        for row in manifest:
            fh.write("\t".join(row) + "\n")
    print("%d variants of %s in %s" % (len(manifest), src, out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
