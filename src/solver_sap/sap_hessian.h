/* sap_hessian: the Newton Hessian H = A + J^T G J of the SAP cost (internal).
 *
 * The Newton loop only calls select (once per solve) and assemble / factor /
 * solve (per iteration), so the dense LAPACK factorization (the reference)
 * and the sparse CHOLMOD one (sap_sparse.h) sit behind the same calls.
 * G holds one row-major 3x3 block per contact. */
#ifndef SC_SAP_HESSIAN_H
#define SC_SAP_HESSIAN_H

#include "solver_sap/sap_sparse.h"

/* Factorization paths, as reported by sc_sap_hessian_path. */
enum { SC_SAP_PATH_NONE = 0, SC_SAP_PATH_DENSE = 1, SC_SAP_PATH_SUPERNODAL = 2,
       SC_SAP_PATH_SIMPLICIAL = 3, SC_SAP_PATH_BLOCK = 4 };

typedef struct sc_sap_hessian {
  int nv_max, nc_max;
  int nv, nc;  /* size of the assembled matrix, contacts */
  double* H;   /* (nv_max x nv_max) dense, column-major; lower factor after factor()
                  (NULL: the workspace has no dense path) */
  double* GJ;  /* (3 nc_max x nv_max) scratch: G J (NULL likewise) */
  /* sparse path: structure detected by the caller in sp (borrowed) */
  sc_sap_sparse* sp;  /* NULL: dense path */
  int kind;           /* SC_SAP_SPARSE_* for the analysis */
  int analyzed;       /* symbolic analysis done since select() */
  const int* tail;    /* the contacts' cone tails (core/problem.h), or NULL */
  const double *A, *J, *G; /* operands of the pending factorization (A, J dense, NULL
                              when the caller has no dense copy) */
  int path;           /* SC_SAP_PATH_* of the last factorization */
  /* dense path assembled from the block form in blk (borrowed) and factored
   * without BLAS (small islands); NULL: from dense A and J by BLAS/LAPACK */
  const sc_sap_sparse* blk;
  int rev; /* blk's H in reverse dof order (a tree of more than
              SC_LA_REVERSE_N dofs: leaves first, linalg/blockdiag.h) */
} sc_sap_hessian;

/* Allocate for nv <= nv_max, nc <= nc_max, with the dense buffers only when
 * dense is nonzero; returns 0 on success. */
int sc_sap_hessian_init(sc_sap_hessian* h, int nv_max, int nc_max, int dense);
void sc_sap_hessian_destroy(sc_sap_hessian* h);
/* Choose the path for the next solve: sp == NULL is the dense path; else the
 * sparse one over the structure sp has detected (kind: SC_SAP_SPARSE_*).
 * The symbolic analysis happens at the first factor() after this call. */
void sc_sap_hessian_select(sc_sap_hessian* h, sc_sap_sparse* sp, int kind);
/* Dense path, but H assembled from the block form loaded in sp and
 * factored by the BLAS-free small Cholesky (sc_la_chol_factor_small):
 * same matrix, far less overhead for a few dozen dofs.  When a tree has
 * more than SC_LA_REVERSE_N dofs, H is held in reverse dof order: a
 * contact of a limb with the world couples the limb's chain only, so
 * leaves first the factor keeps the tree's sparsity (blockdiag.h). */
void sc_sap_hessian_select_blockdense(sc_sap_hessian* h, const sc_sap_sparse* sp);
/* H = A + J^T blockdiag(G) J; A (nv x nv), J (3nc x nv) column-major (may be
 * NULL on the sparse path, which takes A and J from its loaded problem).  The
 * sparse path only records the operands (they must stay valid until factor). */
void sc_sap_hessian_assemble(sc_sap_hessian* h, int nv, int nc, const double* A,
                             const double* J, const double* G, const int* tail);
/* Copy the assembled (not yet factored) H into out (nv x nv, dense); both
 * triangles are the lower one, which is what the factorization uses.  The
 * sparse path runs its analysis if needed and scatters its assembled values.
 * Returns 0, or nonzero when there is nothing to copy. */
int sc_sap_hessian_get(sc_sap_hessian* h, double* out);
/* Factor; returns 0 on success, nonzero when H is not positive definite (or
 * CHOLMOD failed).  A failed sparse analysis falls back to the dense path
 * when the workspace has one (and assemble was given dense A and J). */
int sc_sap_hessian_factor(sc_sap_hessian* h);
/* x <- H^-1 x using the factor; returns 0 on success. */
int sc_sap_hessian_solve(sc_sap_hessian* h, double* x);
/* SC_SAP_PATH_* of the last factorization. */
int sc_sap_hessian_path(const sc_sap_hessian* h);

#endif
