/* sap_sparse: sparsity of A and J and the sparse Hessian path (internal).
 *
 * sc_sap_sparse_detect finds, once per solve, the trees of A (connected
 * components of its nonzero pattern) and the nonzero columns of each
 * contact's 3 rows of J.  With that structure the solver does its products
 * A x, J x and J^T x, the Delassus estimate and the Hessian
 * H = A + J^T G J without touching the zeros, and factors H with CHOLMOD
 * (symbolic analysis once per solve, numeric refactorization per Newton
 * iteration).  Every buffer is sized in sc_sap_sparse_create; when a
 * problem exceeds a capacity, detect returns nonzero and the caller uses the
 * dense path. */
#ifndef SC_SAP_SPARSE_H
#define SC_SAP_SPARSE_H

#include "contact/problem.h"

typedef struct sc_sap_sparse sc_sap_sparse;

/* Allocate for nv <= nv_max, nc <= nc_max; NULL when out of memory. */
sc_sap_sparse* sc_sap_sparse_create(int nv_max, int nc_max);
void sc_sap_sparse_free(sc_sap_sparse* s);

/* Detect the trees of A (nv x nv) and the column pattern of J (3nc x nv),
 * both column-major; with a hint (non-NULL) take them from it instead of
 * scanning the dense matrices (O(nv + nnz(J)) instead of O(nv^2 + nc nv)).  Returns 0 when the structure fits the capacities,
 * nonzero otherwise (then nothing else below may be called). */
int sc_sap_sparse_detect(sc_sap_sparse* s, int nv, int nc, const double* A, const double* J,
                         const sc_problem_structure* hint);
/* Number of trees found by the last detect. */
int sc_sap_sparse_ntree(const sc_sap_sparse* s);
/* Entries of the lower triangle of H counted with repetition (an upper bound
 * on nnz(tril(H))); 0 when the Hessian would not fit the capacity. */
long sc_sap_sparse_hessian_nnz(const sc_sap_sparse* s);

/* y = A x over the tree blocks of A (A as given to detect). */
void sc_sap_sparse_mulA(const sc_sap_sparse* s, const double* A, const double* x, double* y);
/* y = J x (3nc entries). */
void sc_sap_sparse_mulJ(const sc_sap_sparse* s, const double* x, double* y);
/* y = J^T x (nv entries). */
void sc_sap_sparse_mulJT(const sc_sap_sparse* s, const double* x, double* y);

/* Delassus diagonal estimate per contact, w_i = |W_ii|_F / 3 with
 * W_ii = sum over the trees c touched by i of J_ic A_c^-1 J_ic^T (ref 2.3).
 * Each tree block of A is factored once into fac (room for nv^2 doubles).
 * Returns 0, or nonzero when a tree block is not SPD. */
int sc_sap_sparse_delassus(sc_sap_sparse* s, const double* A, double* fac, double* wdiag);

/* CHOLMOD's choice between simplicial and supernodal factorization. */
enum { SC_SAP_SPARSE_AUTO = 0, SC_SAP_SPARSE_SUPERNODAL = 1, SC_SAP_SPARSE_SIMPLICIAL = 2 };

/* Symbolic analysis of the pattern of H (fill-reducing ordering, elimination
 * tree, supernodes).  Skipped when the pattern equals the previous one.
 * Returns 0, or nonzero when CHOLMOD failed (out of memory). */
int sc_sap_sparse_analyze(sc_sap_sparse* s, int kind);
/* Assemble H = A + J^T blockdiag(G) J (G row-major 3x3 per contact) into the
 * analyzed pattern and refactor.  Returns 0, or nonzero when H is not
 * positive definite or CHOLMOD failed. */
int sc_sap_sparse_factor(sc_sap_sparse* s, const double* A, const double* G);
/* x <- H^-1 x with the last factorization.  Returns 0 on success. */
int sc_sap_sparse_solve(sc_sap_sparse* s, double* x);
/* 1 when the last analysis chose a supernodal factor. */
int sc_sap_sparse_is_supernodal(const sc_sap_sparse* s);

#endif
