#!/usr/bin/python3
"""Two runs of the validation matrix, cell by cell.

    tools/results/validation_diff.py BEFORE/validation.csv AFTER/validation.csv [--min 0.001]

(each CSV from tools/results/validate.py --out DIR).  Prints the cells whose
verdict changed, then those whose worst error over tolerance moved by more
than --min (relative), largest first, and how many cells were compared: the
evidence that a change of a default or of the step leaves the matrix as it
was, or where it does not."""
import argparse
import csv
import sys


def load(path):
    with open(path, newline="") as f:
        return {(r["case"], r["scheme"], r["model"], r["stiffness"], r["dt"], r["accuracy"]): r
                for r in csv.DictReader(f)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--min", type=float, default=1e-3, help="relative change to list (default 1e-3)")
    a = ap.parse_args()
    before, after = load(a.before), load(a.after)
    common = [k for k in before if k in after]
    flips, moved = [], []
    for k in common:
        x, y = before[k], after[k]
        if x["passed"] != y["passed"]:
            flips.append((k, x["passed"], y["passed"]))
        try:
            wx, wy = float(x["worst"]), float(y["worst"])
        except ValueError:
            continue
        if wx > 0 and abs(wy - wx) / wx > a.min:
            moved.append((abs(wy - wx) / wx, k, wx, wy))
    print("%d cells in both (%d only before, %d only after)" %
          (len(common), len(before) - len(common), len(after) - len(common)))
    print("%d changed verdict" % len(flips))
    for k, x, y in flips:
        print("  %s: passed %s -> %s" % (" ".join(k), x, y))
    moved.sort(reverse=True)
    print("%d moved by more than %g of their worst error / tolerance" % (len(moved), a.min))
    for r, k, x, y in moved:
        print("  %-60s %.3g -> %.3g (%+.1f %%)" % (" ".join(c for c in k if c), x, y, 100 * (y - x) / x))
    return 0


if __name__ == "__main__":
    sys.exit(main())
