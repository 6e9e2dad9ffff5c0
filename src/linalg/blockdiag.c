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
    for (int r = 0; r < n; r++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += B[r + (size_t)k * n] * x[idx[k]];
      y[idx[r]] = s;
    }
  }
}

int sc_la_blk_factor(const sc_la_blocks* b, const double* mat, double* fac) {
  memcpy(fac, mat, sizeof(double) * (size_t)b->size);
  for (int c = 0; c < b->n; c++) {
    const int* idx = b->dofs + b->dofadr[c];
    const int n = b->dofnum[c];
    const int info = n <= SC_LA_SMALL_N ? sc_la_chol_factor_small(n, fac + b->blkadr[c], n)
                                        : sc_la_chol_factor(n, fac + b->blkadr[c], n);
    if (info != 0) return info > 0 ? idx[info - 1] + 1 : 1;
  }
  return 0;
}

void sc_la_blk_solve(const sc_la_blocks* b, const double* fac, double* x, double* tmp) {
  for (int c = 0; c < b->n; c++) {
    const int* idx = b->dofs + b->dofadr[c];
    const int n = b->dofnum[c];
    for (int r = 0; r < n; r++) tmp[r] = x[idx[r]];
    if (n <= SC_LA_SMALL_N) sc_la_chol_solve_small(n, fac + b->blkadr[c], n, tmp);
    else sc_la_chol_solve(n, fac + b->blkadr[c], n, tmp, n, 1);
    for (int r = 0; r < n; r++) x[idx[r]] = tmp[r];
  }
}
