/* blockdiag: block-diagonal matrices stored as their dense blocks only.
 *
 * The step's mass matrix M, its free-motion matrix A and the springs'
 * stiffness and damping K, D are block diagonal over independent groups of
 * dofs (a tree of bodies, or trees a spring joins: the model's cliques).
 * Block b has n_b = dofnum[b] dofs, the global indices dofs[dofadr[b] ..
 * dofadr[b] + n_b), and its n_b x n_b entries column-major at blkadr[b] of
 * one packed array of `size` doubles, so no nv x nv array exists.  The
 * kernels below work on any packed array of a layout; the model describes
 * its cliques' layout (sc_model_cliques in model/model.h). */
#ifndef SC_LINALG_BLOCKDIAG_H
#define SC_LINALG_BLOCKDIAG_H

#include <stddef.h>

typedef struct sc_la_blocks {
  int n;                /* blocks */
  long size;            /* doubles in a packed array (sum of n_b^2) */
  const int* dofadr;    /* (n) first entry of each block in dofs */
  const int* dofnum;    /* (n) dofs of each block (may be 0) */
  const int* dofs;      /* global dof indices grouped by block, ascending within one */
  const int* blkadr;    /* (n) offset of each block's entries in a packed array */
  const int* dof_block; /* (dofs in all) the block of each dof */
  const int* dof_loc;   /* (dofs in all) its position within its block */
} sc_la_blocks;

/* Blocks of at most this many rows are factored and solved by the
 * unblocked kernels of linalg.h (a body's 6 x 6 block, a short chain's):
 * a BLAS call's dispatch costs more than their arithmetic. */
#define SC_LA_SMALL_N 64

/* Blocks of more than this many dofs (articulated trees) are factored in
 * reverse dof order.  A tree's dofs come parent first (the model's
 * topological order), so leaves first its mass matrix's Cholesky factor
 * has no fill: column j's entries below the diagonal are j's ancestors
 * only, and the kernels, which skip zero multipliers, do O(sum of depths^2)
 * work instead of O(n^3) (MuJoCo factors M the same way).  A free body's
 * 6 x 6 block is factored as it is.  sc_la_blk_factor_one makes a block's
 * factor in that order (the integrator's blocks and the contact solver's
 * Delassus estimate both call it); sc_la_blk_solve reads it. */
#define SC_LA_REVERSE_N 6
static inline int sc_la_blk_reversed(int n) { return n > SC_LA_REVERSE_N; }

/* y = Mat x (x, y: dofs in all; y written at every dof of every block) */
void sc_la_blk_gemv(const sc_la_blocks* b, const double* mat, const double* x, double* y);
/* Mat_ii */
static inline double sc_la_blk_diag(const sc_la_blocks* b, const double* mat, int i) {
  const int c = b->dof_block[i];
  return mat[(size_t)b->blkadr[c] + (size_t)b->dof_loc[i] * (size_t)(b->dofnum[c] + 1)];
}
/* The lower Cholesky factor of one n x n block B (column-major) into F,
 * leaves first when sc_la_blk_reversed(n) (F's upper triangle is not
 * written); returns 0, or 1 + the block-local dof (in B's order) at the
 * first non-positive pivot, or -1 on an argument error. */
int sc_la_blk_factor_one(int n, const double* B, double* F);
/* Cholesky factors of every block of Mat into fac (both packed); returns
 * 0, or 1 + the global index of the dof at the first non-positive pivot. */
int sc_la_blk_factor(const sc_la_blocks* b, const double* mat, double* fac);
/* x = Mat^-1 x with the packed factors of sc_la_blk_factor; tmp: scratch
 * of the largest block's size. */
void sc_la_blk_solve(const sc_la_blocks* b, const double* fac, double* x, double* tmp);

#endif
