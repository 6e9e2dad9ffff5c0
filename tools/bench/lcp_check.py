#!/usr/bin/python3
"""Failed contact solves and Lemke pivot counts of simc runs, per family.

    tools/bench/lcp_check.py [--md] FAMILY=FILE.h5 ...

Reads /solver/status, /solver/iterations (Lemke pivots plus principal-pivoting
factorizations under --solver lcp;
the LCP is solved per contact island and this is the most any island of
the step took), /solver/residual and /solver/wall_time (s per step) of
each file; row 0 is the initial state and is left out.  The runs must be recorded with output.every = 1 so that every step is
seen.  A step fails when its status is not 0 or when its residual exceeds
RES_TOL = 1e-6.  The residual is the LCP check of src/solver_lcp/lcp.c,
recomputed there from the returned z (w = M z + q in the scaled problem):
    max_i max(-w_i / s, -z_i / s, |w_i z_i| / s^2),  s = max(||q||, ||z||),
so the tolerance is relative to the data.  A file whose root `status` is not
"complete" counts as a failed run.  Prints one row per family (a markdown
table with --md) and exits 1 when any step or run failed.
"""
import sys
import h5py
import numpy as np

RES_TOL = 1e-6
md = "--md" in sys.argv[1:]
fam = {}
for arg in [a for a in sys.argv[1:] if a != "--md"]:
    name, path = arg.split("=", 1)
    r = fam.setdefault(name, {"runs": 0, "bad_runs": 0, "steps": 0, "failed": 0, "piv": [],
                               "bad": [], "res": 0.0, "wall": []})
    r["runs"] += 1
    try:
        with h5py.File(path, "r") as f:
            st = f.attrs.get("status", b"")
            st = st.decode() if isinstance(st, bytes) else str(st)
            status = np.asarray(f["solver/status"][1:])
            piv = np.asarray(f["solver/iterations"][1:])
            res = np.asarray(f["solver/residual"][1:])
            wall = np.asarray(f["solver/wall_time"][1:])
    except Exception as e:  # an unreadable file is a failed run
        st, status, piv, res = "unreadable: %s" % e, np.zeros(0), np.zeros(0), np.zeros(0)
        wall = np.zeros(0)
    nfail = int(np.count_nonzero((status != 0) | ~(res <= RES_TOL)))
    if res.size:
        r["res"] = max(r["res"], float(np.nanmax(np.where(np.isfinite(res), res, np.inf))))
    r["steps"] += status.size
    r["failed"] += nfail
    r["piv"].append(piv)
    r["wall"].append(wall)
    if st != "complete" or nfail:
        r["bad_runs"] += 1
        r["bad"].append("%s (%s, %d failed steps)" % (path, st, nfail))

bad = 0
if md:
    print("| family | runs | failed runs | steps | failed steps | pivots mean | median | max "
          "| max residual | ms/step mean | max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
else:
    print("%-24s %5s %6s %8s %7s %8s %8s %8s %9s %8s %8s" % (
        "family", "runs", "failed", "steps", "failed", "piv_mean", "piv_med", "piv_max", "max_res",
        "ms_mean", "ms_max"))
    print("%-24s %5s %6s %8s %7s" % ("", "", "runs", "", "steps"))
for name, r in fam.items():
    piv = np.concatenate(r["piv"]) if r["piv"] else np.zeros(0)
    if piv.size == 0:
        piv = np.zeros(1)
    wall = np.concatenate(r["wall"]) if r["wall"] else np.zeros(0)
    if wall.size == 0:
        wall = np.zeros(1)
    row = (name, r["runs"], r["bad_runs"], r["steps"], r["failed"], piv.mean(), np.median(piv),
           piv.max(), r["res"], 1e3 * wall.mean(), 1e3 * wall.max())
    if md:
        print("| %s | %d | %d | %d | %d | %.1f | %.0f | %d | %.2g | %.3g | %.3g |" % row)
    else:
        print("%-24s %5d %6d %8d %7d %8.1f %8.0f %8d %9.2g %8.3g %8.3g" % row)
    for b in r["bad"]:
        print("    " + b, file=sys.stderr)
    bad += r["bad_runs"]
sys.exit(1 if bad else 0)
