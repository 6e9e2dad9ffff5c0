#!/usr/bin/python3
"""Failed contact solves and Lemke pivot counts of simc runs, per family.

    tools/lcp_check.py FAMILY=FILE.h5 ...

Reads /solver/status and /solver/iterations (Lemke pivots under
--solver lcp) of each file; row 0 is the initial state and is left out.
The runs must be recorded with output.every = 1 so that every step is seen.
A file whose root `status` is not "complete" counts as a failed run.
Prints one line per family:
  family runs failed_runs steps failed_steps pivots_mean pivots_median pivots_max
and exits 1 when any step or run failed.
"""
import sys
import h5py
import numpy as np

fam = {}
for arg in sys.argv[1:]:
    name, path = arg.split("=", 1)
    r = fam.setdefault(name, {"runs": 0, "bad_runs": 0, "steps": 0, "failed": 0, "piv": [],
                               "bad": []})
    r["runs"] += 1
    try:
        with h5py.File(path, "r") as f:
            st = f.attrs.get("status", b"")
            st = st.decode() if isinstance(st, bytes) else str(st)
            status = np.asarray(f["solver/status"][1:])
            piv = np.asarray(f["solver/iterations"][1:])
    except Exception as e:  # an unreadable file is a failed run
        st, status, piv = "unreadable: %s" % e, np.zeros(0), np.zeros(0)
    nfail = int(np.count_nonzero(status != 0))
    r["steps"] += status.size
    r["failed"] += nfail
    r["piv"].append(piv)
    if st != "complete" or nfail:
        r["bad_runs"] += 1
        r["bad"].append("%s (%s, %d failed steps)" % (path, st, nfail))

bad = 0
print("%-28s %5s %6s %8s %7s %8s %8s %8s" % ("family", "runs", "failed", "steps", "failed",
                                          "piv_mean", "piv_med", "piv_max"))
print("%-28s %5s %6s %8s %7s %8s %8s %8s" % ("", "", "runs", "", "steps", "", "", ""))
for name, r in fam.items():
    piv = np.concatenate(r["piv"]) if r["piv"] else np.zeros(0)
    if piv.size == 0:
        piv = np.zeros(1)
    print("%-28s %5d %6d %8d %7d %8.1f %8.0f %8d" % (name, r["runs"], r["bad_runs"], r["steps"],
                                                 r["failed"], piv.mean(), np.median(piv),
                                                 piv.max()))
    for b in r["bad"]:
        print("    " + b, file=sys.stderr)
    bad += r["bad_runs"]
sys.exit(1 if bad else 0)
