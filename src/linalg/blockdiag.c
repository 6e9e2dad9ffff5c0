/* blockdiag: products, Cholesky factors and solves of block-diagonal
 * matrices stored as their packed dense blocks (see blockdiag.h): each
 * block on its own, which is exact since nothing couples two blocks. */
#include "linalg/blockdiag.h"

#include <string.h>

#include "linalg/linalg.h"

void sc_la_blk_gemv(const sc_la_blocks* b, const double* mat, const double* x, double* y) {
  for (int c = 0; c < b->n; c++) {
    const int* idx = b->dofs + b->dofadr[c];
    const int n = b->dofnum[c];
    const double* B = mat + b->blkadr[c];
    if (n > 0 && idx[n - 1] - idx[0] == n - 1) {
      /* consecutive dofs: the same sums, without the indirection */
      const double* xc = x + idx[0];
      double* yc = y + idx[0];
      for (int r = 0; r < n; r++) {
        double s = 0;
        for (int k = 0; k < n; k++) s += B[r + (size_t)k * n] * xc[k];
        yc[r] = s;
      }
      continue;
    }
    for (int r = 0; r < n; r++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += B[r + (size_t)k * n] * x[idx[k]];
      y[idx[r]] = s;
    }
  }
}

int sc_la_blk_factor_one(int n, const double* B, double* F) {
  const int rev = sc_la_blk_reversed(n);
  if (rev) /* the lower triangle, leaves first (blockdiag.h) */
    for (int j = 0; j < n; j++)
      for (int i = j; i < n; i++) F[i + (size_t)j * n] = B[(n - 1 - i) + (size_t)(n - 1 - j) * n];
  else memcpy(F, B, sizeof(double) * (size_t)n * (size_t)n);
  const int info = n <= SC_LA_SMALL_N ? sc_la_chol_factor_small(n, F, n) : sc_la_chol_factor(n, F, n);
  return info > 0 && rev ? n - info + 1 : info;
}

int sc_la_blk_factor(const sc_la_blocks* b, const double* mat, double* fac) {
  for (int c = 0; c < b->n; c++) {
    const int info = sc_la_blk_factor_one(b->dofnum[c], mat + b->blkadr[c], fac + b->blkadr[c]);
    if (info != 0) return info > 0 ? b->dofs[b->dofadr[c] + info - 1] + 1 : 1;
  }
  return 0;
}

void sc_la_blk_solve(const sc_la_blocks* b, const double* fac, double* x, double* tmp) {
  for (int c = 0; c < b->n; c++) {
    const int* idx = b->dofs + b->dofadr[c];
    const int n = b->dofnum[c];
    const int rev = sc_la_blk_reversed(n);
    for (int r = 0; r < n; r++) tmp[r] = x[idx[rev ? n - 1 - r : r]];
    if (n <= SC_LA_SMALL_N) sc_la_chol_solve_small(n, fac + b->blkadr[c], n, tmp);
    else sc_la_chol_solve(n, fac + b->blkadr[c], n, tmp, n, 1);
    for (int r = 0; r < n; r++) x[idx[rev ? n - 1 - r : r]] = tmp[r];
  }
}
