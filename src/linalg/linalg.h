/* linalg: dense column-major linear algebra over LAPACKE's *_work routines.
 *
 * Matrices are column-major: element (i, j) of an m x n matrix with leading
 * dimension ld is a[i + j*ld].  No routine here allocates. */
#ifndef SC_LINALG_H
#define SC_LINALG_H

/* Ask the BLAS (OpenBLAS) and the OpenMP runtime (CHOLMOD) for
 * single-threaded kernels; a no-op where neither is loaded.  Contact problems are many small factorizations, where
 * OpenBLAS's thread pool only spins; and sweeps run one simc per core.
 * Process-wide: the application calls it, the library never does. */
void sc_la_single_thread(void);

/* Cholesky factorization A = L L^T in place (lower triangle used).
 * Returns 0 on success, k > 0 when the leading minor k is not positive
 * definite, < 0 on an argument error. */
int sc_la_chol_factor(int n, double* A, int lda);
/* Solve (L L^T) X = B in place for nrhs columns of B. */
int sc_la_chol_solve(int n, const double* L, int lda, double* B, int ldb, int nrhs);
/* The same two without BLAS or LAPACK (unblocked; left-looking over the
 * columns with a non-zero in the row): for the matrices of a few dozen rows
 * that contact islands bring, where a library call's dispatch and buffer
 * management cost more than the arithmetic.  Same return convention; one
 * right-hand side. */
int sc_la_chol_factor_small(int n, double* A, int lda);
/* (matrices up to this size are factored left-looking; larger ones
 * right-looking, densely) */
#define SC_LA_CHOL_SMALL_MAX 256
void sc_la_chol_solve_small(int n, const double* L, int lda, double* x);

/* LU factorization with partial pivoting P A = L U in place (LAPACK getrf;
 * ipiv 1-based as LAPACK's).  Returns 0, k > 0 when U_kk is exactly zero,
 * < 0 on an argument error. */
int sc_la_lu_factor(int n, double* A, int lda, int* ipiv);
/* A^-1 in place from the factors of sc_la_lu_factor (LAPACK getri), with
 * lwork doubles of scratch (64 n is enough for its blocked code). */
int sc_la_lu_inverse(int n, double* A, int lda, const int* ipiv, double* work, long lwork);

/* y = alpha * A x + beta * y  (A is m x n) */
void sc_la_gemv(int m, int n, double alpha, const double* A, int lda, const double* x,
                double beta, double* y);
/* y = alpha * A^T x + beta * y  (A is m x n, y has n entries) */
void sc_la_gemvT(int m, int n, double alpha, const double* A, int lda, const double* x,
                 double beta, double* y);
/* C = alpha * A B + beta * C; A is m x k, B is k x n, C is m x n. */
void sc_la_gemm(int m, int n, int k, double alpha, const double* A, int lda, const double* B,
                int ldb, double beta, double* C, int ldc);
/* C = alpha * A^T B + beta * C; A is k x m, B is k x n, C is m x n. */
void sc_la_gemmTN(int m, int n, int k, double alpha, const double* A, int lda,
                  const double* B, int ldb, double beta, double* C, int ldc);
double sc_la_dot(int n, const double* x, const double* y);
double sc_la_norm2(int n, const double* x);
/* Copy the lower triangle of a square matrix to the upper one. */
void sc_la_symmetrize_lower(int n, double* A, int lda);

#endif
