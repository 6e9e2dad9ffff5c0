#!/usr/bin/python3
"""Per-run figures of simc HDF5 outputs, one CSV row per file.

    tools/h5summary.py [--header] FILE.h5...

Columns (FIELDS below):
  status            root attribute `status` ("complete", "failed: ...",
                    "interrupted", "running" for a file whose writer died),
                    or "missing" / "unreadable: ..." when the file is absent
                    or cannot be opened, or is not a readable simc output:
                    the file is checked against its own counts before
                    anything is read (tools/simc_h5.py, check_file), and the
                    reason is one line naming the dataset, also on stderr
  final_time_s      last entry of /time
  steps             integrator steps taken, round(final_time / time_step)
  energy_drift_J    B(T) - B(0), J, with B = total + dissipated - actuator
                    work (/energy/actuator; only in files of models with
                    actuators, 0 otherwise): the integrator's energy error,
                    what simc's summary line prints as "energy balance error"
  energy_drift_rel  energy_drift_J / |total(0)|; empty when total(0) == 0,
                    where only the absolute column means anything
  max_penetration_m max(0, -min /contact/gap) over every recorded contact;
                    for a file written with output.contacts: false (no
                    contact rows), the largest /contact/max_penetration
  iter_mean, iter_max
                    contact solver iterations (/solver/iterations: Newton
                    iterations, or Lemke pivots with the lcp solver) over the
                    recorded steps; row 0 is the initial state, not a step,
                    and is left out
  solver_wall_s     sum of /solver/wall_time over the recorded steps times
                    output_every (exact when output.every = 1, an estimate
                    from the sampled steps otherwise)
  path              the file

Files of every simc format_version are read (these figures exist in all of
them); on its own, the tool notes on stderr a file older than format_version
2, which has no body poses or geometry (tools/simc-view needs them).

Used by tools/sweep (imported as a module) and on its own.  Needs h5py and
numpy: run it with /usr/bin/python3 (Debian python3-h5py python3-numpy).
"""
import csv
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside simc_h5.py
# simc_h5.py (the file check): beside this script in tools/, or in
# ../share/simc when installed; imported when a file is read
_here = os.path.dirname(os.path.realpath(__file__))
for _d in (os.path.join(_here, "..", "share", "simc"), _here):
    if _d not in sys.path:
        sys.path.insert(0, _d)

# the datasets summarize() reads: the bound on the bytes a tool reads
# (simc_h5.max_bytes) counts only these
READS = ("time", "energy/total", "energy/dissipated", "energy/actuator", "contact/gap",
         "contact/max_penetration", "solver/iterations", "solver/wall_time")

FIELDS = ["status", "final_time_s", "steps", "energy_drift_J", "energy_drift_rel",
          "max_penetration_m", "iter_mean", "iter_max", "solver_wall_s", "path"]


def _str(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if hasattr(v, "item"):  # numpy scalar or 0-d array
        v = v.item()
        if isinstance(v, bytes):
            return v.decode("utf-8", "replace")
    return str(v)


def _fmt(x):
    if x is None:
        return ""
    if isinstance(x, int):
        return str(x)
    if not math.isfinite(x):
        return repr(x)
    return "%.6g" % x


def read_status(path):
    """The root `status` attribute, "missing", or "unreadable: <why>" (one
    line: "FILE: cannot open: ...")."""
    if not os.path.exists(path):
        return "missing"
    try:
        import simc_h5
        with simc_h5.open_file(path) as f:
            return _str(f.attrs.get("status", "unknown"))
    except Exception as e:  # a truncated or half-written file: rerun it
        lines = str(e).splitlines()
        return "unreadable: %s" % lines[0] if lines else "unreadable"


def read_format_version(path):
    try:
        import h5py
        with h5py.File(path, "r") as f:
            v = f.attrs.get("format_version")
            return None if v is None else int(v)
    except Exception:
        return None


def read_command_line(path):
    try:
        import h5py
        with h5py.File(path, "r") as f:
            return _str(f.attrs.get("command_line", ""))
    except Exception:
        return None


def read_input_digest(path):
    """The root attribute input_digest (what `simc --digest` prints), None if absent."""
    try:
        import h5py
        with h5py.File(path, "r") as f:
            d = f.attrs.get("input_digest")
            return None if d is None else _str(d)
    except Exception:
        return None


def summarize(path):
    """A dict with the FIELDS of one file; figures are empty when unavailable."""
    row = {k: "" for k in FIELDS}
    row["path"] = path
    status = read_status(path)
    row["status"] = status
    if status == "missing" or status.startswith("unreadable"):
        return row
    import numpy as np
    import simc_h5
    try:
        with simc_h5.open_file(path) as f:
            # shapes, types and sizes against the file's own counts, before
            # anything is read: a malformed file is "unreadable: <one line>"
            simc_h5.check_file(f, path, READS)
            t = np.asarray(f["time"][...], dtype=float)
            if t.size == 0:
                return row
            row["final_time_s"] = _fmt(float(t[-1]))
            dt = float(np.asarray(f.attrs.get("time_step", 0.0)).item())
            if dt > 0:
                row["steps"] = _fmt(int(round(float(t[-1]) / dt)))
            tot = np.asarray(f["energy/total"][...], dtype=float)
            dis = np.asarray(f["energy/dissipated"][...], dtype=float)
            if tot.size and dis.size:
                bal = tot + dis
                if "energy/actuator" in f:  # work done by the actuators
                    bal = bal - np.asarray(f["energy/actuator"][...], dtype=float)
                drift = float(bal[-1] - bal[0])
                row["energy_drift_J"] = _fmt(drift)
                if tot[0] != 0:
                    row["energy_drift_rel"] = _fmt(drift / abs(float(tot[0])))
            if "contact/gap" in f or "contact/max_penetration" not in f:
                gap = (np.asarray(f["contact/gap"][...], dtype=float) if "contact/gap" in f
                       else np.zeros(0))
                pen = max(0.0, -float(gap.min())) if gap.size else 0.0
            else:  # output.contacts: false: no contact rows, the per-row figure
                mp = np.asarray(f["contact/max_penetration"][...], dtype=float)
                pen = max(0.0, float(mp.max())) if mp.size else 0.0
            row["max_penetration_m"] = _fmt(pen)
            it = np.asarray(f["solver/iterations"][...], dtype=float)[1:]
            if it.size:
                row["iter_mean"] = _fmt(float(it.mean()))
                row["iter_max"] = _fmt(int(it.max()))
            else:
                row["iter_mean"] = row["iter_max"] = "0"
            wall = np.asarray(f["solver/wall_time"][...], dtype=float)[1:]
            every = int(np.asarray(f.attrs.get("output_every", 1)).item())
            row["solver_wall_s"] = _fmt(float(wall.sum()) * max(every, 1))
    except simc_h5.BadFile as e:
        row.update({k: "" for k in FIELDS if k not in ("status", "path")})
        row["status"] = "unreadable: %s" % e
    except Exception as e:  # keep the status, say why
        row["status"] = "%s (summary: %s)" % (status, str(e).splitlines()[0] if str(e) else "error")
    return row


def main(argv):
    if "-h" in argv or "--help" in argv:
        sys.stdout.write(__doc__)
        return 0
    unknown = [a for a in argv if a.startswith("-") and a != "--header"]
    if unknown:
        sys.stderr.write("h5summary.py: unknown option %s (usage: h5summary.py [--header] "
                         "FILE.h5...; --help for the columns)\n" % unknown[0])
        return 1
    header = "--header" in argv
    files = [a for a in argv if a != "--header"]
    if not files and not header:
        sys.stderr.write("usage: h5summary.py [--header] FILE.h5...\n")
        return 1
    w = csv.writer(sys.stdout, lineterminator="\n")
    if header:
        w.writerow(FIELDS)
    bad = 0
    for p in files:
        row = summarize(p)
        v = None if row["status"].startswith("unreadable") else read_format_version(p)
        if v is not None and v < 2:
            sys.stderr.write("h5summary.py: note: %s is simc format_version %d: no body poses "
                             "(/body) or geometry (/model/geometry), added in version 2\n"
                             % (p, v))
        bad += not row["status"].startswith("complete")
        if row["status"].startswith("unreadable: "):  # the one line, on stderr too
            sys.stderr.write("h5summary.py: %s\n" % row["status"][len("unreadable: "):])
        w.writerow([row[k] for k in FIELDS])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
