/* linalg's matrix products against triple loops written here: sc_la_gemm
 * (C = alpha A B + beta C) and sc_la_gemmTN (C = alpha A^T B + beta C) on
 * random matrices with leading dimensions larger than the rows, and the
 * k = 0 case, where C becomes beta C; with beta = 0, C = 0 even when it held
 * NaN before (the BLAS convention that lemke.c's re-inversion relies on
 * when it passes uninitialized scratch).  Tolerance 1e-13 of the sum of
 * |terms| (round-off of a k-term sum). */
#include "harness.h"
#include "linalg/linalg.h"

#include <stdlib.h>

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

enum { M = 7, N = 5, K = 6, LD = 9 };

static void check(int trans, int k, double alpha, double beta) {
  double A[LD * LD], B[LD * N], C[LD * N], ref[LD * N], mag[LD * N];
  for (int i = 0; i < LD * LD; i++) A[i] = urand();
  for (int i = 0; i < LD * N; i++) B[i] = urand(), C[i] = urand();
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++) {
      double s = 0.0, a = 0.0;
      for (int l = 0; l < k; l++) {
        const double x = trans ? A[l + i * LD] : A[i + l * LD];
        s += x * B[l + j * LD];
        a += fabs(x * B[l + j * LD]);
      }
      ref[i + j * LD] = alpha * s + beta * C[i + j * LD];
      mag[i + j * LD] = fabs(alpha) * a + fabs(beta * C[i + j * LD]);
    }
  if (beta == 0.0)
    for (int i = 0; i < LD * N; i++) C[i] = NAN;
  if (trans) sc_la_gemmTN(M, N, k, alpha, A, LD, B, LD, beta, C, LD);
  else sc_la_gemm(M, N, k, alpha, A, LD, B, LD, beta, C, LD);
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++) ENSURE_NEAR(C[i + j * LD], ref[i + j * LD], 1e-13 * mag[i + j * LD]);
}

static void test_gemm_matches_loops(void) {
  srand(5);
  for (int trans = 0; trans < 2; trans++) {
    check(trans, K, 1.0, 0.0);
    check(trans, K, -0.5, 2.0);
    check(trans, 1, 3.0, 1.0);
  }
}

static void test_gemm_k0(void) {
  srand(6);
  for (int trans = 0; trans < 2; trans++) {
    check(trans, 0, 1.0, 0.0); /* NaN in C becomes 0 */
    check(trans, 0, 1.0, -1.5);
  }
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_gemm_matches_loops);
  RUN(test_gemm_k0);
  return TEST_END();
}
