#!/usr/bin/env bash
# The validation matrix's fast subset (tools/results/validate.py --fast): every
# analytic case at simc's default scheme and contact model, at 1 and 10 ms
# and each stiffness, plus one cell per repair the full matrix led to
# (FAST_EXTRA).  Each cell is a PASS or FAIL line with its measured values
# and tolerances; the full matrix is `make validate` (results/validation.md).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 tools/results/validate.py --fast --tap --simc "$BIN/simc" --out "$tmp" --jobs 2 | grep -E '^(PASS|FAIL) '
