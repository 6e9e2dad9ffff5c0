/* sap_block: a sparse Cholesky factorization over dense blocks (internal).
 *
 * The SAP Hessian H = A + J^T G J couples whole trees: A is block diagonal
 * per tree and a contact couples the (one or two) trees it touches in full.
 * Its sparsity is therefore that of a graph on trees, each tree a dense
 * block.  This module factors H = L L^T with those blocks as supernodes:
 * the caller orders the blocks (a fill-reducing order, see sap_sparse.c),
 * sc_sap_block_analyze computes the block pattern of L, and
 * sc_sap_block_factor / sc_sap_block_solve work on dense panels.
 *
 * Panel P (the block column of the P-th eliminated block, bsz[P] columns)
 * stores the diagonal block L_PP on top of the blocks L_IP of the rows I in
 * its structure, in ascending I: prow[P] x bsz[P] doubles, column-major,
 * leading dimension prow[P], at x + poff[P]. */
#ifndef SC_SAP_BLOCK_H
#define SC_SAP_BLOCK_H

typedef struct sc_sap_block {
  int nb;      /* blocks of the analyzed matrix, numbered by elimination position */
  int* bsz;    /* (nb) size of block P */
  int* voff;   /* (nb + 1) offset of block P in a vector in elimination order */
  int* prow;   /* (nb) rows of panel P */
  long* poff;  /* (nb + 1) offset of panel P in x */
  int* sptr;   /* (nb + 1) structure of panel P: sidx[sptr[P] .. sptr[P+1]) */
  int* sidx;   /* block rows below the diagonal, ascending */
  int* roff;   /* row offset of block sidx[e] inside panel P */
  long* uptr;  /* (nb + 1) update map of panel P: uoff[uptr[P] ..] */
  int* uoff;   /* for each pair e >= f of P's structure (row-major order), the
                  row offset of block sidx[e] inside panel sidx[f] */
  double* x;   /* the panels */
  double* rdiag; /* (voff[nb]) 1 / L_jj of every column, set by the factorization: the
                    solve multiplies by it instead of dividing by L_jj (a division's
                    latency sits on the triangular solves' dependency chain) */
  /* capacities, grown by analyze (an allocation only when a pattern needs
   * more than any before it) */
  int nb_max;
  long cap_s, cap_r, cap_u, cap_x, cap_d;
  int *head, *next, *mark, *list; /* (nb_max) symbolic scratch */
} sc_sap_block;

/* Reserve for nb_max blocks of nb_max dofs in all, cap_s structure entries
 * and cap_x doubles of panels (0 for a default); returns 0, or nonzero when
 * out of memory. */
int sc_sap_block_init(sc_sap_block* b, int nb_max, long cap_s, long cap_x);
void sc_sap_block_destroy(sc_sap_block* b);

/* Symbolic factorization of a matrix of nb blocks (sizes bsz, in elimination
 * order) whose strictly lower block pattern is, for each block column P,
 * the rows ai[ap[P] .. ap[P+1]) (> P, any order, no duplicates).  Returns 0,
 * or nonzero when out of memory. */
int sc_sap_block_analyze(sc_sap_block* b, int nb, const int* bsz, const int* ap, const int* ai);
/* Offset in x of entry (a, c) of block (I, J), I >= J, of the lower
 * triangle (for I == J: a >= c); -1 when (I, J) is not in the pattern. */
long sc_sap_block_where(const sc_sap_block* b, int I, int J, int a, int c);
/* Factor in place: x holds the lower triangle of H (every panel entry set,
 * the upper triangles of diagonal blocks ignored).  Returns 0, or nonzero
 * when H is not positive definite. */
int sc_sap_block_factor(sc_sap_block* b);
/* y <- H^-1 y for y in elimination order (block P at voff[P]). */
void sc_sap_block_solve(const sc_sap_block* b, double* y);
/* Entries of L's panels (the storage a factorization touches). */
long sc_sap_block_nnz(const sc_sap_block* b);

#endif
