/* linalg's matrix products against triple loops written here: sc_la_gemm
 * (C = alpha A B + beta C) and sc_la_gemmTN (C = alpha A^T B + beta C) on
 * random matrices with leading dimensions larger than the rows, and the
 * k = 0 case, where C becomes beta C; with beta = 0, C = 0 even when it held
 * NaN before (the BLAS convention that lemke.c's re-inversion relies on
 * when it passes uninitialized scratch).  Tolerance 1e-13 of the sum of
 * |terms| (round-off of a k-term sum).
 * The small Cholesky kernel against LAPACK's potrf on a dense matrix and on
 * a tree's mass-matrix pattern leaves first (whose factor must have no
 * fill), and the block-diagonal factor and solve (blocks of more than 6
 * dofs leaves first) against the residual of the solved system and the
 * located non-positive pivot. */
#include "harness.h"
#include "linalg/blockdiag.h"
#include "linalg/linalg.h"

#include <string.h>

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

/* a random tree of n dofs in topological order (parent[i] < i, parent[0]
 * = -1) and an SPD matrix with its pattern: entry (i, j) non-zero only when
 * one of i, j is an ancestor of the other (a mass matrix's) */
static int is_anc(const int* parent, int a, int i) {
  for (int k = parent[i]; k >= 0; k = parent[k])
    if (k == a) return 1;
  return 0;
}
static void tree_matrix(int n, int* parent, double* A) {
  parent[0] = -1;
  for (int i = 1; i < n; i++) parent[i] = rand() % i;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) A[i + j * n] = 0.0;
  for (int j = 0; j < n; j++)
    for (int i = j + 1; i < n; i++)
      if (is_anc(parent, j, i)) A[i + j * n] = A[j + i * n] = urand();
  for (int i = 0; i < n; i++) A[i + i * n] = n + 1.0 + urand();
}

static double max_rel(int n, const double* a, const double* b) {
  double d = 0.0, s = 0.0;
  for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i])), s = fmax(s, fabs(b[i]));
  return d / s;
}

static void test_chol_small_matches_lapack(void) {
  srand(7);
  enum { n = 27 };
  int parent[n];
  double A[n * n], R[n * n], F[n * n], G[n * n], Q[n * n];
  /* a dense SPD matrix */
  for (int i = 0; i < n * n; i++) Q[i] = urand();
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      double s = i == j ? n : 0.0;
      for (int k = 0; k < n; k++) s += Q[i + k * n] * Q[j + k * n];
      F[i + j * n] = G[i + j * n] = s;
    }
  ENSURE(sc_la_chol_factor_small(n, F, n) == 0 && sc_la_chol_factor(n, G, n) == 0);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < j; i++) F[i + j * n] = G[i + j * n] = 0.0;
  const double dense = max_rel(n * n, F, G);
  /* a tree's pattern, leaves first: R(i, j) = A(n-1-i, n-1-j) */
  tree_matrix(n, parent, A);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) R[i + j * n] = A[(n - 1 - i) + (n - 1 - j) * n];
  memcpy(F, R, sizeof F);
  memcpy(G, R, sizeof G);
  ENSURE(sc_la_chol_factor_small(n, F, n) == 0 && sc_la_chol_factor(n, G, n) == 0);
  int fill = 0, nonzero = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      if (i < j) {
        F[i + j * n] = G[i + j * n] = 0.0;
        continue;
      }
      /* reversed: row i is dof n-1-i; its factor entry may be non-zero only
       * when that dof is an ancestor of column j's dof */
      const int anc = i == j || is_anc(parent, n - 1 - i, n - 1 - j);
      if (F[i + j * n] != 0.0) nonzero++, fill += !anc;
    }
  const double tree = max_rel(n * n, F, G);
  printf("  n %d: dense max rel diff %.2e; tree leaves first %.2e, %d non-zeros, fill %d\n", n,
         dense, tree, nonzero, fill);
  ENSURE(dense <= 1e-13 && tree <= 1e-13);
  ENSURE(fill == 0);
  ENSURE(nonzero < n * (n + 1) / 2);
}

static void test_blocks_reversed(void) {
  srand(8);
  /* blocks of 6, 10 and 27 dofs, their dofs interleaved over [0, 43) */
  enum { B = 3, NV = 43 };
  const int num[B] = {6, 10, 27};
  int dofs[NV], dofadr[B], blkadr[B], dof_block[NV], dof_loc[NV], parent[27];
  int owner[NV];
  for (int i = 0; i < NV; i++) owner[i] = i < 6 ? 0 : i < 16 ? 1 : 2;
  for (int i = NV - 1; i > 0; i--) {
    const int j = rand() % (i + 1), t = owner[i];
    owner[i] = owner[j];
    owner[j] = t;
  }
  long size = 0;
  for (int b = 0, a = 0; b < B; b++) {
    dofadr[b] = a;
    blkadr[b] = (int)size;
    size += (long)num[b] * num[b];
    for (int i = 0; i < NV; i++)
      if (owner[i] == b) dof_block[i] = b, dof_loc[i] = a - dofadr[b], dofs[a++] = i;
  }
  const sc_la_blocks cb = {B, size, dofadr, num, dofs, blkadr, dof_block, dof_loc};
  double mat[36 + 100 + 729], fac[36 + 100 + 729], x[NV], y[NV], rhs[NV], tmp[NV], T[729];
  for (int b = 0; b < B; b++) {
    tree_matrix(num[b], parent, T);
    memcpy(mat + blkadr[b], T, sizeof(double) * (size_t)num[b] * num[b]);
  }
  for (int i = 0; i < NV; i++) x[i] = rhs[i] = urand();
  ENSURE(sc_la_blk_factor(&cb, mat, fac) == 0);
  sc_la_blk_solve(&cb, fac, x, tmp);
  sc_la_blk_gemv(&cb, mat, x, y);
  const double res = max_rel(NV, y, rhs);
  printf("  blocks 6, 10, 27: |A x - b| / |b| %.2e\n", res);
  ENSURE(res <= 1e-14);
  /* a non-positive pivot is located at its own dof, whatever the order */
  for (int b = 0; b < B; b++) {
    double bad[36 + 100 + 729];
    memcpy(bad, mat, sizeof bad);
    const int n = num[b], k = 3;
    for (int i = 0; i < n; i++)
      if (i != k) bad[blkadr[b] + i + k * n] = bad[blkadr[b] + k + i * n] = 0.0;
    bad[blkadr[b] + k * (n + 1)] = -1.0;
    ENSURE(sc_la_blk_factor(&cb, bad, fac) == dofs[dofadr[b] + k] + 1);
  }
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_gemm_matches_loops);
  RUN(test_gemm_k0);
  RUN(test_chol_small_matches_lapack);
  RUN(test_blocks_reversed);
  return TEST_END();
}
