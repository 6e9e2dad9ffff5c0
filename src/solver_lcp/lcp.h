/* solver_lcp: the LCP baseline contact solver.
 *
 * Two layers:
 *  - sc_lemke: Lemke's complementary pivoting for a dense LCP
 *    0 <= z  _|_  M z + q >= 0 (lemke.c);
 *  - sc_lcp_solve: builds the Stewart-Trinkle / Anitescu-Potra contact LCP
 *    with a polyhedral friction cone from an sc_problem (contacts and box
 *    rows: limits, joint friction, servos) and solves it with sc_lemke
 *    (lcp.c).  The formulation is written out at the top of lcp.c.
 *
 * Workspaces are created once; the solve calls never allocate. */
#ifndef SC_SOLVER_LCP_H
#define SC_SOLVER_LCP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/problem.h"

/* ---- Lemke ---- */

typedef struct sc_lemke_work sc_lemke_work;

/* Pivots whose update of the basis inverse is applied in one pass (a
 * workspace holds that many entering columns of n doubles). */
#define SC_LEMKE_ETAS 8

/* Workspace for LCPs of size n <= n_max.  Returns NULL on allocation
 * failure or n_max < 0. */
sc_lemke_work* sc_lemke_work_create(int n_max);
/* Pivots per pass over B^-1, 1 .. SC_LEMKE_ETAS (the default); 1 updates
 * it at every pivot.  The paths agree in exact arithmetic. */
void sc_lemke_set_batch(sc_lemke_work* w, int k);
/* Free a workspace from sc_lemke_work_create (NULL is allowed). */
void sc_lemke_work_free(void* w);

/* Solve 0 <= z _|_ M z + q >= 0, M n x n column-major (leading dimension n).
 * z (n) receives the solution.  max_pivots <= 0 selects the default 20 n + 100
 * (a budget over all internal attempts).  M is equilibrated internally (exact
 * power-of-two scalings), so badly scaled data need no preparation.  Returns SC_SOLVE_OK (z solves the
 * LCP: scaled violation <= 1e-6, typically ~1e-15; see lemke.c),
 * SC_SOLVE_RAY (ray termination: no solution found; for copositive-plus M
 * the LCP is infeasible), SC_SOLVE_CYCLE (a basis repeated: round-off
 * defeated the lexicographic rule), SC_SOLVE_MAXIT (pivot cap),
 * SC_SOLVE_NAN (non-finite data, n larger than the workspace, or a numerical
 * breakdown: the end point fails the accuracy check), SC_SOLVE_CANCELLED
 * (the flag of sc_lemke_set_cancel was set).  When q >= 0 it
 * returns z = 0 with 0 pivots.  *pivots (may be NULL) receives the pivot
 * count.  On a failure z holds the last iterate's z part. */
sc_solve_status sc_lemke(int n, const double* M, const double* q, double* z, int max_pivots,
                         sc_lemke_work* w, int* pivots);

/* sc_lemke, first trying a guessed basis: guess (n flags, may be NULL)
 * marks the z_j thought basic (positive), e.g. the `basic` of the previous
 * time step's solve.  Principal pivoting from it (lemke.c) either ends in a
 * verified solution, or the Lemke attempts run as in sc_lemke.  basic (n,
 * may be NULL) receives the basic z_j of the returned solution (all 0 for
 * z = 0 or a failure).  *pivots counts Lemke pivots plus principal-pivoting
 * rounds (one factorization each); max_pivots caps the pivots only. */
sc_solve_status sc_lemke_from(int n, const double* M, const double* q, double* z, int max_pivots,
                              sc_lemke_work* w, int* pivots, const unsigned char* guess,
                              unsigned char* basic);

/* A workspace without the n x n copy of M that sc_lemke equilibrates (a
 * quarter of the memory of the contact LCP), for sc_lemke_from_inplace
 * only; sc_lemke and sc_lemke_from return SC_SOLVE_CAPACITY with it. */
sc_lemke_work* sc_lemke_work_create_inplace(int n_max);
/* sc_lemke_from equilibrating M in place: M is scaled by powers of two
 * during the solve and restored exactly before the return. */
sc_solve_status sc_lemke_from_inplace(int n, double* M, const double* q, double* z,
                                      int max_pivots, sc_lemke_work* w, int* pivots,
                                      const unsigned char* guess, unsigned char* basic);

/* Poll *flag (NULL: never) every few pivots; a set flag ends sc_lemke with
 * SC_SOLVE_CANCELLED.  sc_lcp_solve sets it from the problem's cancel. */
void sc_lemke_set_cancel(sc_lemke_work* w, const volatile sig_atomic_t* flag);

/* ---- contact LCP ---- */

typedef struct sc_lcp_work sc_lcp_work;

/* The dense workspace is bounded: at most SC_LCP_MAX_BYTES (512 MiB).  The
 * LCP matrix and Lemke's tableau take 3 n^2 doubles for n <= nc (d + 2)
 * unknowns (a contact has d + 2 or 1, a box row at most 2), so beyond a few
 * thousand unknowns the baseline is both too big and too slow (O(n^2) per
 * pivot); the convex solver is the one for that. */
#define SC_LCP_MAX_BYTES ((size_t)512 << 20)

/* Bytes a workspace for nv velocities, nc contacts (or box rows) and d cone
 * edges takes. */
size_t sc_lcp_work_bytes(int nv, int nc, int directions);

/* The largest contact count (<= nc_max) whose workspace fits in
 * SC_LCP_MAX_BYTES, or 0 when not even one contact fits. */
int sc_lcp_capacity(int nv, int nc_max, int directions);
/* The same within max_bytes (contact.lcp.max_memory). */
int sc_lcp_capacity_within(int nv, int nc_max, int directions, size_t max_bytes);

/* Workspace for problems with nv <= nv_max, nc <= nc_max and a cone of at
 * most `directions` edges (>= 2).  Returns NULL on allocation failure or bad
 * sizes.  Pass nc_max = sc_lcp_capacity(...) to stay within the limit. */
sc_lcp_work* sc_lcp_work_create(int nv_max, int nc_max, int directions);
/* Free a workspace from sc_lcp_work_create (NULL is allowed). */
void sc_lcp_work_free(void* w);
/* Poll *flag (NULL: never) during sc_lcp_solve: a set flag ends the solve
 * with SC_SOLVE_CANCELLED (v = v*, gamma = 0). */
void sc_lcp_set_cancel(sc_lcp_work* w, const volatile sig_atomic_t* flag);

/* Build and solve the contact LCP of lcp.c for problem p with a
 * `directions`-edge polyhedral cone (2 <= directions <= the workspace's).
 * v (nv) receives the next-step velocities, gamma (3 nc) the impulses in the
 * contact frames (t1, t2, n), N s; a box row's are (0, 0, gamma_n).  stats
 * (may be NULL): iterations = Lemke pivots, residual = scaled
 * complementarity error (defined in lcp.c; +inf on failure),
 * linesearch_evals = 0, cost = 0, status = the return value.  Returns
 * SC_SOLVE_OK or Lemke's failure status; SC_SOLVE_FACTOR when A is not
 * positive definite; SC_SOLVE_NAN for non-finite data (of the rows an entry
 * uses: a box row's R_t, vhat_t and mu are not read) or a box row whose
 * bounds are not an interval lo <= hi, lo < +inf, hi > -inf (or p->bound is
 * NULL); SC_SOLVE_CAPACITY for sizes beyond the workspace; SC_SOLVE_CANCELLED when the flag of
 * sc_lcp_set_cancel was seen.  On failure v = v* and gamma = 0. */
sc_solve_status sc_lcp_solve(const sc_problem* p, int directions, int max_pivots,
                             sc_lcp_work* w, double* v, double* gamma, sc_solver_stats* stats);

/* sc_lcp_solve warm started from a guessed basis (sc_lemke_from).  Per
 * contact a pattern of its LCP variables thought basic: bit 0 gamma_n, bits
 * 1..d the edge impulses beta_k, bit d + 1 lambda (contacts with mu <= 0
 * have only bit 0); per box row bit 0 its a (b when only hi is finite) and
 * bit 1 its lambda (two-sided) or b (both bounds infinite), none when
 * lo = hi, by the bounds the answer used (lcp.c: far bounds); e.g. pat_out of the previous time step's solve of the
 * same contact or row (ignored for d > 30).  pat_in (nc) may be NULL (no
 * guess); pat_out (nc, may be NULL) receives the solution's patterns (0 on failure).  The
 * answer is verified as sc_lcp_solve's: a guess changes the cost, not the
 * acceptance. */
sc_solve_status sc_lcp_solve_from(const sc_problem* p, int directions, int max_pivots,
                                  sc_lcp_work* w, const uint32_t* pat_in, uint32_t* pat_out,
                                  double* v, double* gamma, sc_solver_stats* stats);

#endif
