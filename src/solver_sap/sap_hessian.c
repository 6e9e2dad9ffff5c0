/* sap_hessian: dense assembly and Cholesky factorization of the SAP Hessian
 *   H = A + J^T G J,  G = blockdiag(G_i),  G_i = -d gamma_i / d vc_i
 * (doc/contact.md 3.1 and 9).  H is SPD because A is and each G_i is
 * symmetric PSD, so LAPACK's potrf applies; a failure means round-off (or bad
 * input) destroyed definiteness.  Cost O(nc nv^2) to assemble, O(nv^3) to
 * factor: the dense variant is meant for nv up to a few hundred.  Larger,
 * sparse problems go to sap_sparse.c (block Cholesky or CHOLMOD) through the
 * same calls. */
#include "solver_sap/sap_hessian.h"

#include "core/core.h"
#include "linalg/blockdiag.h"
#include "linalg/linalg.h"

int sc_sap_hessian_init(sc_sap_hessian* h, int nv_max, int nc_max, int dense) {
  h->nv_max = nv_max;
  h->nc_max = nc_max;
  h->nv = h->nc = 0;
  h->sp = NULL;
  h->H = h->GJ = NULL;
  h->path = SC_SAP_PATH_NONE;
  h->blk = NULL;
  h->rev = 0;
  if (!dense) return 0;
  h->H = sc_malloc(sizeof(double) * (size_t)nv_max * (size_t)nv_max);
  h->GJ = sc_malloc(sizeof(double) * 3 * (size_t)nc_max * (size_t)nv_max);
  if (!h->H || !h->GJ) {
    sc_sap_hessian_destroy(h);
    return 1;
  }
  return 0;
}

void sc_sap_hessian_destroy(sc_sap_hessian* h) {
  sc_free(h->H);
  sc_free(h->GJ);
  h->H = h->GJ = 0;
}

void sc_sap_hessian_select(sc_sap_hessian* h, sc_sap_sparse* sp, int kind) {
  h->sp = sp;
  h->kind = kind;
  h->analyzed = 0;
  h->path = SC_SAP_PATH_NONE;
  h->blk = NULL;
  h->rev = 0;
}

void sc_sap_hessian_select_blockdense(sc_sap_hessian* h, const sc_sap_sparse* sp) {
  sc_sap_hessian_select(h, NULL, 0);
  h->blk = sp;
  h->rev = sc_la_blk_reversed(sc_sap_sparse_max_tree(sp));
}

static void reverse(int n, double* x) {
  for (int i = 0, j = n - 1; i < j; i++, j--) {
    const double t = x[i];
    x[i] = x[j];
    x[j] = t;
  }
}

static void assemble_dense(sc_sap_hessian* h, int nv, int nc, const double* A, const double* J,
                           const double* G, const int* tail) {
  const int m = 3 * nc;
  for (int j = 0; j < nv; j++)
    for (int i = 0; i < nv; i++) h->H[i + j * nv] = A[i + j * nv];
  if (nc == 0) return;
  /* GJ = blockdiag(G) J, one 3x3 block times 3 rows of J per contact */
  for (int c = 0; c < nc; c++) {
    const double* g = G + 9 * c;
    for (int j = 0; j < nv; j++) {
      const double* jc = J + 3 * c + (size_t)j * m;
      double* out = h->GJ + 3 * c + (size_t)j * m;
      out[0] = g[0] * jc[0] + g[1] * jc[1] + g[2] * jc[2];
      out[1] = g[3] * jc[0] + g[4] * jc[1] + g[5] * jc[2];
      out[2] = g[6] * jc[0] + g[7] * jc[1] + g[8] * jc[2];
    }
  }
  /* a contact c and its cone tail t: the cross blocks of their 6 x 6
   * curvature, G_ct J_t into c's rows and G_ct^T J_c into t's */
  for (int c = 0; tail && c < nc; c++) {
    const int t = tail[c];
    if (t < 0) continue;
    const double* x = sc_sap_gx(G, nc, c);
    for (int j = 0; j < nv; j++) {
      const double* jc = J + 3 * c + (size_t)j * m;
      const double* jt = J + 3 * t + (size_t)j * m;
      double* oc = h->GJ + 3 * c + (size_t)j * m;
      double* ot = h->GJ + 3 * t + (size_t)j * m;
      for (int k = 0; k < 3; k++) {
        oc[k] += x[3 * k] * jt[0] + x[3 * k + 1] * jt[1] + x[3 * k + 2] * jt[2];
        ot[k] += x[k] * jc[0] + x[3 + k] * jc[1] + x[6 + k] * jc[2];
      }
    }
  }
  sc_la_gemmTN(nv, nv, m, 1.0, J, m, h->GJ, m, 1.0, h->H, nv);
}

void sc_sap_hessian_assemble(sc_sap_hessian* h, int nv, int nc, const double* A,
                             const double* J, const double* G, const int* tail) {
  h->nv = nv;
  h->nc = nc;
  h->A = A, h->J = J, h->G = G, h->tail = tail;
  if (h->blk) sc_sap_sparse_dense_lower(h->blk, G, h->H, h->rev);
  else if (!h->sp) assemble_dense(h, nv, nc, A, J, G, tail);
}

int sc_sap_hessian_get(sc_sap_hessian* h, double* out) {
  const int n = h->nv;
  if (h->sp) {
    if (!h->analyzed) {
      h->analyzed = 1;
      if (sc_sap_sparse_analyze(h->sp, h->kind) != 0) return 1;
    }
    return sc_sap_sparse_dense(h->sp, h->G, out);
  }
  if (!h->H) return 1;
  /* the factorization reads the lower triangle: mirror it (in dof order) */
  for (int j = 0; j < n; j++)
    for (int i = j; i < n; i++) {
      const double v = h->rev ? h->H[(n - 1 - j) + (n - 1 - i) * n] : h->H[i + j * n];
      out[i + j * n] = out[j + i * n] = v;
    }
  return 0;
}

int sc_sap_hessian_factor(sc_sap_hessian* h) {
  if (h->sp && !h->analyzed) {
    /* once per solve: the contact set, hence the pattern, is frozen */
    h->analyzed = 1;
    if (sc_sap_sparse_analyze(h->sp, h->kind) != 0) {
      if (!h->H || !h->A) return 1; /* no dense path in this workspace */
      h->sp = NULL; /* CHOLMOD out of memory: the dense path still works */
      assemble_dense(h, h->nv, h->nc, h->A, h->J, h->G, h->tail);
    }
  }
  if (h->sp) {
    h->path = sc_sap_sparse_is_block(h->sp)        ? SC_SAP_PATH_BLOCK
              : sc_sap_sparse_is_supernodal(h->sp) ? SC_SAP_PATH_SUPERNODAL
                                                   : SC_SAP_PATH_SIMPLICIAL;
    return sc_sap_sparse_factor(h->sp, h->G);
  }
  h->path = SC_SAP_PATH_DENSE;
  if (h->blk) return sc_la_chol_factor_small(h->nv, h->H, h->nv);
  return sc_la_chol_factor(h->nv, h->H, h->nv);
}

int sc_sap_hessian_solve(sc_sap_hessian* h, double* x) {
  if (h->sp) return sc_sap_sparse_solve(h->sp, x);
  if (h->blk) {
    if (h->rev) reverse(h->nv, x);
    sc_la_chol_solve_small(h->nv, h->H, h->nv, x);
    if (h->rev) reverse(h->nv, x);
    return 0;
  }
  return sc_la_chol_solve(h->nv, h->H, h->nv, x, h->nv, 1) != 0;
}

int sc_sap_hessian_path(const sc_sap_hessian* h) { return h->path; }
