/* sap_hessian: the Newton Hessian H = A + J^T G J of the SAP cost (internal).
 *
 * The Newton loop only calls assemble / factor / solve, so a block-sparse
 * (per-tree supernodal) factorization can replace this dense one without
 * touching the solver logic.  G holds one row-major 3x3 block per contact. */
#ifndef SC_SAP_HESSIAN_H
#define SC_SAP_HESSIAN_H

typedef struct sc_sap_hessian {
  int nv_max, nc_max;
  int nv;      /* size of the assembled matrix */
  double* H;   /* (nv_max x nv_max) dense, column-major; lower factor after factor() */
  double* GJ;  /* (3 nc_max x nv_max) scratch: G J */
} sc_sap_hessian;

/* Allocate for nv <= nv_max, nc <= nc_max; returns 0 on success. */
int sc_sap_hessian_init(sc_sap_hessian* h, int nv_max, int nc_max);
void sc_sap_hessian_destroy(sc_sap_hessian* h);
/* H = A + J^T blockdiag(G) J; A (nv x nv), J (3nc x nv) column-major. */
void sc_sap_hessian_assemble(sc_sap_hessian* h, int nv, int nc, const double* A,
                             const double* J, const double* G);
/* Copy the assembled (not yet factored) H into out (nv x nv); both triangles
 * are the lower one, which is what the factorization uses. */
void sc_sap_hessian_get(const sc_sap_hessian* h, double* out);
/* Factor in place; returns 0 on success, nonzero when H is not positive definite. */
int sc_sap_hessian_factor(sc_sap_hessian* h);
/* x <- H^-1 x using the factor. */
void sc_sap_hessian_solve(const sc_sap_hessian* h, double* x);

#endif
