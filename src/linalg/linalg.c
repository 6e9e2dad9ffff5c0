/* linalg: thin wrappers over LAPACKE (column-major, *_work only) and CBLAS. */
#include "linalg/linalg.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>

/* weak: resolved only when the BLAS in use is OpenBLAS, and when an OpenMP
 * runtime is loaded (CHOLMOD's supernodal kernels use one) */
extern void openblas_set_num_threads(int n) __attribute__((weak));
extern int blas_thread_shutdown_(void) __attribute__((weak));
extern void omp_set_num_threads(int n) __attribute__((weak));

void sc_la_single_thread(void) {
  if (openblas_set_num_threads) openblas_set_num_threads(1);
  /* OpenBLAS starts its worker threads when it is loaded, and each spins
   * (about 0.1 s of a core) before it sleeps: on one thread they are never
   * used, so they are stopped now (results/blas_threads.md) */
  if (openblas_set_num_threads && blas_thread_shutdown_) blas_thread_shutdown_();
  if (omp_set_num_threads) omp_set_num_threads(1);
}

int sc_la_chol_factor(int n, double* A, int lda) {
  if (n == 0) return 0;
  return (int)LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, A, lda);
}

int sc_la_chol_solve(int n, const double* L, int lda, double* B, int ldb, int nrhs) {
  if (n == 0) return 0;
  return (int)LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, nrhs, L, lda, B, ldb);
}

int sc_la_lu_factor(int n, double* A, int lda, int* ipiv) {
  if (n == 0) return 0;
  return (int)LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, A, lda, ipiv);
}

int sc_la_lu_inverse(int n, double* A, int lda, const int* ipiv, double* work, long lwork) {
  if (n == 0) return 0;
  if (lwork > 0x7fffffffL) lwork = 0x7fffffffL;
  return (int)LAPACKE_dgetri_work(LAPACK_COL_MAJOR, n, A, lda, ipiv, work, (lapack_int)lwork);
}

/* right-looking, dense: the small factor's form beyond SC_LA_CHOL_SMALL_MAX */
static int chol_right(int n, double* A, int lda) {
  for (int j = 0; j < n; j++) {
    double* cj = A + (size_t)j * lda;
    const double d = cj[j];
    if (!(d > 0.0)) return j + 1;
    const double ljj = sqrt(d);
    cj[j] = ljj;
    const double inv = 1.0 / ljj;
    for (int i = j + 1; i < n; i++) cj[i] *= inv;
    for (int k = j + 1; k < n; k++) {
      const double lkj = cj[k];
      if (lkj == 0.0) continue;
      double* ck = A + (size_t)k * lda;
      for (int i = k; i < n; i++) ck[i] -= cj[i] * lkj;
    }
  }
  return 0;
}

int sc_la_chol_factor_small(int n, double* A, int lda) {
  if (n > SC_LA_CHOL_SMALL_MAX) return chol_right(n, A, lda);
  /* left-looking: column k takes the updates of the columns j < k with
   * L(k, j) != 0 (a tree's matrix leaves first has no fill and few such
   * j, linalg/blockdiag.h), four at a time so that each entry of column k
   * is loaded and stored once per four of them.  Each entry receives the
   * same subtractions in the same (ascending j) order as the right-looking
   * form, so the factor is the same to the bit; only a zero multiplier is
   * skipped (x - 0 y is x). */
  int js[SC_LA_CHOL_SMALL_MAX];
  for (int k = 0; k < n; k++) {
    double* restrict ck = A + (size_t)k * lda;
    int m = 0;
    for (int j = 0; j < k; j++) {
      js[m] = j;
      m += A[k + (size_t)j * lda] != 0.0;
    }
    int a = 0;
    for (; a + 4 <= m; a += 4) {
      const double* restrict c0 = A + (size_t)js[a] * lda;
      const double* restrict c1 = A + (size_t)js[a + 1] * lda;
      const double* restrict c2 = A + (size_t)js[a + 2] * lda;
      const double* restrict c3 = A + (size_t)js[a + 3] * lda;
      const double l0 = c0[k], l1 = c1[k], l2 = c2[k], l3 = c3[k];
      for (int i = k; i < n; i++) ck[i] = ck[i] - c0[i] * l0 - c1[i] * l1 - c2[i] * l2 - c3[i] * l3;
    }
    for (; a + 2 <= m; a += 2) {
      const double* restrict c0 = A + (size_t)js[a] * lda;
      const double* restrict c1 = A + (size_t)js[a + 1] * lda;
      const double l0 = c0[k], l1 = c1[k];
      for (int i = k; i < n; i++) ck[i] = ck[i] - c0[i] * l0 - c1[i] * l1;
    }
    for (; a < m; a++) {
      const double* restrict c0 = A + (size_t)js[a] * lda;
      const double l0 = c0[k];
      for (int i = k; i < n; i++) ck[i] -= c0[i] * l0;
    }
    const double d = ck[k];
    if (!(d > 0.0)) return k + 1;
    const double lkk = sqrt(d);
    ck[k] = lkk;
    const double inv = 1.0 / lkk;
    for (int i = k + 1; i < n; i++) ck[i] *= inv;
  }
  return 0;
}

void sc_la_chol_solve_small(int n, const double* L, int lda, double* x) {
  for (int j = 0; j < n; j++) {
    const double* cj = L + (size_t)j * lda;
    const double xj = x[j] /= cj[j];
    if (xj != 0.0)
      for (int i = j + 1; i < n; i++) x[i] -= cj[i] * xj;
  }
  for (int j = n - 1; j >= 0; j--) {
    const double* cj = L + (size_t)j * lda;
    double t = x[j];
    for (int i = j + 1; i < n; i++) t -= cj[i] * x[i];
    x[j] = t / cj[j];
  }
}

void sc_la_gemv(int m, int n, double alpha, const double* A, int lda, const double* x,
                double beta, double* y) {
  if (m == 0) return;
  if (n == 0) {
    for (int i = 0; i < m; i++) y[i] *= beta;
    return;
  }
  cblas_dgemv(CblasColMajor, CblasNoTrans, m, n, alpha, A, lda, x, 1, beta, y, 1);
}

void sc_la_gemvT(int m, int n, double alpha, const double* A, int lda, const double* x,
                 double beta, double* y) {
  if (n == 0) return;
  if (m == 0) {
    for (int i = 0; i < n; i++) y[i] *= beta;
    return;
  }
  cblas_dgemv(CblasColMajor, CblasTrans, m, n, alpha, A, lda, x, 1, beta, y, 1);
}

/* C = alpha op(A) B + beta C for both products below.  k = 0 leaves
 * beta C (0 when beta = 0: C may hold garbage then, as the BLAS allows). */
static void gemm(CBLAS_TRANSPOSE ta, int m, int n, int k, double alpha, const double* A,
                 int lda, const double* B, int ldb, double beta, double* C, int ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
        double* c = C + i + (size_t)j * ldc;
        *c = beta == 0.0 ? 0.0 : *c * beta;
      }
    return;
  }
  cblas_dgemm(CblasColMajor, ta, CblasNoTrans, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void sc_la_gemm(int m, int n, int k, double alpha, const double* A, int lda, const double* B,
                int ldb, double beta, double* C, int ldc) {
  gemm(CblasNoTrans, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void sc_la_gemmTN(int m, int n, int k, double alpha, const double* A, int lda,
                  const double* B, int ldb, double beta, double* C, int ldc) {
  gemm(CblasTrans, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

double sc_la_dot(int n, const double* x, const double* y) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

double sc_la_norm2(int n, const double* x) { return sqrt(sc_la_dot(n, x, x)); }

void sc_la_symmetrize_lower(int n, double* A, int lda) {
  for (int j = 0; j < n; j++)
    for (int i = j + 1; i < n; i++) A[j + i * lda] = A[i + j * lda];
}
