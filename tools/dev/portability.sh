#!/usr/bin/env bash
# make test-portability: the golden regression runs (test/t_golden.sh) under
# OpenBLAS kernels of other processors and under 1 and 2 threads, to catch on
# one machine what another CPU's CI would see.  OpenBLAS picks its kernels by
# CPU at load time; OPENBLAS_CORETYPE forces a core type's kernels (they
# differ in their last bits: blocking, FMA, vector width).  A core type whose
# instructions this CPU lacks would die of SIGILL, so it is skipped, said so
# and named.  Then the same contact run (the sparse block-Cholesky path) with 1 and 2
# threads must be bit-identical.  Prints a matrix and "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
export BIN
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
has() { for f in "$@"; do case "$flags" in *" $f "*) ;; *) return 1;; esac; done; }
# core type : the instruction sets its kernels use
cores="Prescott:pni Nehalem:sse4_2 Sandybridge:avx Haswell:avx2,fma Zen:avx2,fma SkylakeX:avx512f,avx512bw,avx512vl,avx512dq"
pass=0; fail=0; skip=0
matrix=""
for ct in $cores; do
  name=${ct%%:*}; need=${ct#*:}
  row=$(printf '%-12s' "$name")
  # shellcheck disable=SC2086
  if ! has ${need//,/ }; then
    echo "SKIP $name: this CPU lacks ${need//,/ or }"
    skip=$((skip + 1)); matrix+="$row  skipped (no ${need//,/+})"$'\n'; continue
  fi
  for th in 1 2; do
    out=$(OPENBLAS_CORETYPE=$name OPENBLAS_NUM_THREADS=$th OMP_NUM_THREADS=$th bash test/t_golden.sh 2>&1)
    nf=$(grep -c '^FAIL' <<<"$out"); np=$(grep -c '^PASS' <<<"$out")
    if [ "$nf" -eq 0 ] && [ "$np" -gt 0 ]; then
      echo "PASS portability:$name:threads=$th ($np golden runs)"; pass=$((pass + 1)); row+="  threads=$th pass"
    else
      echo "FAIL portability:$name:threads=$th"; grep -A3 '^FAIL' <<<"$out" | head -12 | sed 's/^/  /'
      fail=$((fail + 1)); row+="  threads=$th FAIL"
    fi
  done
  matrix+="$row"$'\n'
done

# bit-identical reruns with 1 and 2 threads on the sparse (block Cholesky) path
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for th in 1 2; do
  OPENBLAS_NUM_THREADS=$th OMP_NUM_THREADS=$th "$BIN/simc" test/clutter64.yaml -o "$tmp/t$th.h5" \
    --duration 0.3 --quiet || echo "FAIL portability:clutter64 run with $th threads"
done
if "$BIN/h5compare" "$tmp/t1.h5" "$tmp/t2.h5" --rtol 0 --atol 0 >"$tmp/cmp" 2>&1; then
  echo "PASS portability:bit_identical_threads_1_2 (clutter64, sparse path)"; pass=$((pass + 1))
else
  echo "FAIL portability:bit_identical_threads_1_2"; grep DIFF "$tmp/cmp" | head -5; fail=$((fail + 1))
fi
echo
echo "core type     OPENBLAS_NUM_THREADS = OMP_NUM_THREADS"
printf '%s' "$matrix"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
