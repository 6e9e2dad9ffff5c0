/* sap_sparse: the block form of A and J and the sparse Hessian path
 * (internal).
 *
 * sc_sap_sparse_load takes, once per solve, the problem's trees (diagonal
 * blocks of A) and the column lists of each contact's 3 rows of J (see
 * problem.h; borrowed, not copied).  With that structure the solver does its
 * products A x, J x and J^T x, the Delassus estimate and the Hessian
 * H = A + J^T G J without touching the zeros, and factors H by the block
 * Cholesky over the trees (sap_block.c) or, for trees of fewer than 3 dofs
 * on average or on request, by CHOLMOD (symbolic analysis once per solve,
 * numeric refactorization per Newton iteration; doc/contact.md 9).  Every buffer is sized in sc_sap_sparse_create; when a
 * problem exceeds a capacity, load returns nonzero and the caller uses the
 * dense path (or refuses the problem). */
#ifndef SC_SAP_SPARSE_H
#define SC_SAP_SPARSE_H

#include "core/problem.h"

typedef struct sc_sap_sparse sc_sap_sparse;

/* Allocate for nv <= nv_max, nc <= nc_max, tree blocks of at most blk_max
 * entries in all (sum n_t^2) and contacts touching at most cols_max columns
 * each, at most cross_max pairs of them in two different trees (negative:
 * unknown), except nrow_max of the nc_max that touch one (joint rows); NULL
 * when out of memory. */
sc_sap_sparse* sc_sap_sparse_create(int nv_max, int nc_max, long blk_max, int cols_max, int nrow_max,
                                    long cross_max);
void sc_sap_sparse_free(sc_sap_sparse* s);

/* Take the structure and values of p's A and J (p must outlive their use).
 * O(nv + nnz(J)).  Returns 0 when p fits the capacities, nonzero otherwise
 * (then nothing else below may be called). */
int sc_sap_sparse_load(sc_sap_sparse* s, const sc_problem* p);

/* The curvature G of a problem of nc entries: 9 nc values, entry c's 3 x 3
 * block at G + 9 c, then the cross blocks of the contacts with a cone tail
 * (core/problem.h): contact c's rows by its tail's at G + 9 (nc + c). */
static inline const double* sc_sap_gx(const double* G, int nc, int c) {
  return G + 9 * ((size_t)nc + (size_t)c);
}

/* Number of trees of the loaded problem. */
int sc_sap_sparse_ntree(const sc_sap_sparse* s);
/* Entries of the lower triangle of H counted with repetition (an upper bound
 * on nnz(tril(H))); 0 when the Hessian would not fit the capacity. */
long sc_sap_sparse_hessian_nnz(const sc_sap_sparse* s);

/* y = A x over the tree blocks of A. */
void sc_sap_sparse_mulA(const sc_sap_sparse* s, const double* x, double* y);
/* y = J x (3nc entries). */
void sc_sap_sparse_mulJ(const sc_sap_sparse* s, const double* x, double* y);
/* y = J^T x (nv entries). */
void sc_sap_sparse_mulJT(const sc_sap_sparse* s, const double* x, double* y);

/* The lower triangle of H = A + J^T blockdiag(G) J into H (nv x nv,
 * column-major, leading dimension nv; the strict upper triangle is left
 * alone) straight from the loaded block form: O(sum n_t^2 + sum_i k_i^2)
 * for contacts touching k_i columns, not O(nc nv^2).  With rev = 1, H is
 * written in reverse dof order (entry (i, j) at (nv-1-i, nv-1-j)): leaves
 * first, as linalg/blockdiag.h explains. */
void sc_sap_sparse_dense_lower(const sc_sap_sparse* s, const double* G, double* H, int rev);
/* the largest tree's dofs in the loaded problem */
int sc_sap_sparse_max_tree(const sc_sap_sparse* s);

/* Delassus diagonal estimate per contact, w_i = |W_ii|_F / 3 with
 * W_ii = sum over the trees c touched by i of J_ic A_c^-1 J_ic^T (doc/contact.md 5).
 * Each tree block of A is factored once into fac (room for sum n_t^2 doubles),
 * unless given: the blocks' lower Cholesky factors in A's layout, those of
 * more than SC_LA_REVERSE_N dofs leaves first, as sc_la_blk_factor makes
 * them (NULL: factor here, the same way).  Returns 0, or nonzero when a
 * tree block is not SPD. */
int sc_sap_sparse_delassus(sc_sap_sparse* s, const double* given, double* fac, double* wdiag);

/* The factorization: CHOLMOD's choice between simplicial and supernodal, one
 * of those two, or simc's block Cholesky with the trees as supernodes
 * (sap_block.h; AMD ordering of the graph of trees). */
enum { SC_SAP_SPARSE_AUTO = 0, SC_SAP_SPARSE_SUPERNODAL = 1, SC_SAP_SPARSE_SIMPLICIAL = 2,
       SC_SAP_SPARSE_BLOCK = 3 };

/* Symbolic analysis of the pattern of H (fill-reducing ordering, elimination
 * tree, supernodes).  Skipped when the pattern equals the previous one.
 * Returns 0, or nonzero when CHOLMOD failed (out of memory). */
int sc_sap_sparse_analyze(sc_sap_sparse* s, int kind);
/* Assemble H = A + J^T blockdiag(G) J (G row-major 3x3 per contact) into the
 * analyzed pattern and refactor.  Returns 0, or nonzero when H is not
 * positive definite or CHOLMOD failed. */
int sc_sap_sparse_factor(sc_sap_sparse* s, const double* G);
/* H = A + J^T blockdiag(G) J as a dense nv x nv array (both triangles), as
 * sc_sap_sparse_factor assembles it (after sc_sap_sparse_analyze; tests).
 * Returns 0, or nonzero when not analyzed. */
int sc_sap_sparse_dense(sc_sap_sparse* s, const double* G, double* out);
/* x <- H^-1 x with the last factorization.  Returns 0 on success. */
int sc_sap_sparse_solve(sc_sap_sparse* s, double* x);
/* 1 when the last analysis chose a supernodal factor (CHOLMOD). */
int sc_sap_sparse_is_supernodal(const sc_sap_sparse* s);
/* 1 when the last analysis was for the block Cholesky. */
int sc_sap_sparse_is_block(const sc_sap_sparse* s);
/* Nonzero when the block path's last factorization is still held (no
 * analysis of another structure, no dense copy since) for a problem of the
 * loaded size: sc_sap_sparse_solve then applies that factor's inverse. */
int sc_sap_sparse_has_factor(const sc_sap_sparse* s);
/* Drop the held factorization (the next problem is another one). */
void sc_sap_sparse_forget_factor(sc_sap_sparse* s);
/* Entries of the last factor (its storage in doubles); 0 before any. */
long sc_sap_sparse_factor_nnz(const sc_sap_sparse* s);

#endif
