#!/usr/bin/env bash
# Regression: rerun every case of test/golden/cases.txt and compare it with
# its golden file by tools/h5compare.  Tolerances: rtol 1e-6, atol 1e-9 on
# every dataset but wall_time.  Why these: the runs are deterministic on one
# machine, but another CPU's BLAS kernels change last bits, and the contact
# solver stops at a relative momentum residual of 1e-6 (contact.tolerance),
# so two honest runs may differ by up to that relative amount; rtol 1e-6 is
# that bound, not more.  Measured between OpenBLAS core types (Prescott vs
# SkylakeX kernels, every case here): max |dq| 4.7e-14, max |dv| 4.8e-12
# (chain10), far inside it.  The contact set itself is canonical (see
# sc_col_reduce), so its rows are compared in order.  tools/dev/portability.sh
# (make test-portability) runs this file under several core types and thread
# counts.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while IFS='|' read -r name scene args; do
  name=$(echo "$name" | xargs); scene=$(echo "$scene" | xargs)
  case "$name" in ''|'#'*) continue;; esac
  gold=test/golden/$name.h5
  if [ ! -f "$gold" ]; then echo "FAIL golden:$name (no $gold; run make golden)"; continue; fi
  # shellcheck disable=SC2086
  if ! "$BIN/simc" "$scene" -o "$tmp/$name.h5" --quiet $args 2>"$tmp/err"; then
    echo "FAIL golden:$name (simc failed: $(head -1 "$tmp/err"))"; continue
  fi
  if "$BIN/h5compare" "$gold" "$tmp/$name.h5" --rtol 1e-6 --atol 1e-9 >"$tmp/cmp" 2>&1; then
    echo "PASS golden:$name"
  else
    echo "FAIL golden:$name"; grep -E 'DIFF|only in' "$tmp/cmp" | head -5 | sed 's/^/  /'
  fi
done <test/golden/cases.txt
