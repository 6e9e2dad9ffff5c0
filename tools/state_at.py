#!/usr/bin/python3
"""The state of a recorded step as simc --set arguments.

    simc SCENE.yaml --from RUN.h5:ROW -o OUT.h5          (simc reads it itself)
    simc SCENE.yaml $(/usr/bin/python3 tools/state_at.py RUN.h5 ROW) -o OUT.h5

prints `--set bodies.B.initial.q=[...] --set bodies.B.initial.v=[...]` for
every body with a joint, from row ROW of /q and /v of RUN.h5 (row 0 is the
initial state; a negative ROW counts from the end, -1 the last recorded
step).  Coordinates are grouped by body from /model/q_names and
/model/v_names ("body.coordinate") and printed with 17 significant digits,
so the values reach the new run exactly (simc renormalizes quaternions on
load: a last-bit change).  The new run starts at t = 0 with that state:
for profiling a settled pile, or carrying on an interrupted run.  Without
contact the continuation repeats the original's arithmetic; with contact
the solver starts without the previous step's guess, so it agrees to the
solver tolerance (test/t_state_at.sh).  The time of the row goes to
stderr.  A command substitution $(...) splits the words on blanks and
ignores quotes, so a file whose body names hold blanks or shell characters
is refused (exit 1): use simc's own --from, which needs no shell.  A file
that is not a readable simc output (tools/simc_h5.py checks every dataset's
type and shape against the file's own counts before reading it) is refused
with one line naming the dataset (exit 1).
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside simc_h5.py
# simc_h5.py: beside this script in tools/, or in ../share/simc when installed
_here = os.path.dirname(os.path.realpath(__file__))
sys.path[:0] = [_here, os.path.join(_here, "..", "share", "simc")]
import simc_h5  # noqa: E402


def groups(names):
    """[(body, [index, ...]), ...] in order of first appearance"""
    out, where = [], {}
    for i, name in enumerate(names):
        body = name.rsplit(".", 1)[0]
        if body not in where:
            where[body] = len(out)
            out.append((body, []))
        out[where[body]][1].append(i)
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    try:
        row = int(argv[2])
    except ValueError:
        sys.stderr.write("state_at: ROW must be an integer, got %r\n" % argv[2])
        return 2
    try:
        run = simc_h5.Run(argv[1])
    except simc_h5.BadFile as e:  # one line naming the dataset
        sys.stderr.write("state_at: %s\n" % e)
        return 1
    except RuntimeError as e:     # h5py missing
        sys.stderr.write("state_at: %s\n" % e)
        return 1
    except (OSError, KeyError) as e:
        sys.stderr.write("state_at: %s: cannot read: %s\n" % (argv[1], simc_h5._why(e)))
        return 1
    n = min(len(run.q), len(run.v), len(run.t))
    if not -n <= row < n:
        sys.stderr.write("state_at: %s has rows 0..%d, not %d\n" % (argv[1], n - 1, row))
        return 1
    row %= n
    args = []
    for what, data, names in (("q", run.q[row], run.q_names), ("v", run.v[row], run.v_names)):
        for body, idx in groups(names):
            vals = ",".join("%.17g" % data[i] for i in idx)
            args += ["--set", "bodies.%s.initial.%s=[%s]" % (body, what, vals)]
    sys.stderr.write("state_at: row %d, t = %.9g s\n" % (row, run.t[row]))
    # the words go through a shell's $(...), which splits them on blanks and
    # ignores quotes: a body name that a shell would split or expand could
    # inject options, so such a file is refused (simc --from needs no shell)
    for a in args:
        if not re.match(r"^[A-Za-z0-9_.,=+\-\[\]:@/]+$", a):
            sys.stderr.write("state_at: %s: a body name holds characters a shell would split or "
                             "expand (%r); use simc SCENE.yaml --from %s:%d instead\n"
                             % (argv[1], a.split(".initial.")[0][len("bodies."):], argv[1], row))
            return 1
    print(" ".join(args))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
