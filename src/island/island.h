/* island: the contact islands of a step, and their solves.
 *
 * A is block diagonal over trees (cliques) and contact i couples only the
 * trees its columns of J touch, so the contact stage's convex cost is a sum
 * of independent costs, one per connected component of the graph "trees
 * joined by a contact" (an island), plus the quadratic 1/2 |v - v*|_A^2 of
 * the trees no contact touches, whose minimizer is v = v* exactly.  Each
 * island is solved on its own (its own Newton iteration, line search and
 * stopping test, doc/contact.md), so an island of two resting boxes stops
 * after its own few iterations instead of following the largest one; tiny
 * islands take the dense path of a small workspace.  The same holds for the
 * LCP of solver_lcp: W = J A^-1 J^T is block diagonal over islands, so the
 * LCP of the step is one LCP per island, stacked (dense Lemke costs
 * O(n^2) per pivot in the n = nc (d + 2) unknowns, so islands of k contacts
 * cost about sum k_i^3 instead of (sum k_i)^3).
 *
 * Islands are numbered by their first contact.  On one thread they are
 * solved in that order; on several (contact.threads) a pool of worker
 * threads, started once, takes them largest first, each thread with its own
 * buffers and solver workspaces.  An island's result depends only on its
 * own sub-problem, and the statistics are combined afterwards in island
 * order (iterations and residual the maxima, line-search evaluations and
 * cost the sums, the status the first failure), so every output is
 * bit-identical whatever the number of threads.  When an island ends
 * cancelled or NaN, the islands after it in island order keep their
 * step-start velocities and zero impulses.  The LCP runs on one thread (one
 * Lemke workspace); an island Lemke fails on keeps v* and zero impulses.
 *
 * When exactly one island is beyond the small ones (a pile, a grasp, a
 * stack beside loose parts), thread 0 solves it first, on the borrowed
 * workspace sap0, and its next solve may start from the factorization that
 * workspace kept (solver_sap/sap.c): the same island solved by the same
 * workspace, whatever the number of threads, so outputs stay bit-identical.
 *
 * After each solve of an island a caller's refine function may change its
 * contacts' laws (the lagged friction bound, the near-rigid beta: see
 * integrator/contact_stage.c); the island is then solved again from its
 * last solution, at most `passes` times. */
#ifndef SC_ISLAND_H
#define SC_ISLAND_H

#include <stdint.h>

#include "model/model.h"
#include "solver_lcp/lcp.h"
#include "solver_sap/sap.h"
#include "state/state.h"

/* Called after each solve of an island of nc contacts (global indices
 * gidx[0 .. nc)) with their impulses gamma and their laws in the island's
 * local arrays R, vhat (3 per contact) and hc (SC_HC_NPAR per contact, or
 * NULL); returns 1 when it rewrote a law (the island is solved again). */
typedef int (*sc_island_refine_fn)(void* ctx, int nc, const int* gidx, const double* gamma,
                                   double* R, double* vhat, double* hc);

/* What one step's solve of the islands uses besides d (its contacts, J, A,
 * v*, R, vhat, mu, phi0, and d->v as the start). */
typedef struct sc_island_call {
  sc_contact_model model;   /* the Newton solver's contact model */
  const double* hc;         /* (SC_HC_NPAR per contact) Hunt-Crossley laws, or NULL */
  const double* guess;      /* (nv) the Newton solver's second guess, or NULL */
  const int* matched;       /* (ncon) 1 for the contacts the guess knows */
  const sc_sap_params* sap; /* Newton parameters */
  const uint32_t* pat_guess; /* (ncon) LCP basis guesses, or NULL (cold) */
  uint32_t* pat_out;        /* (ncon) the LCP's basic patterns found */
  int passes;               /* most re-solves of an island after refine */
  sc_island_refine_fn refine;
  void* refine_ctx;
  const double* v0;         /* (nv) step-start velocities */
} sc_island_call;

typedef struct sc_islands sc_islands;

/* The islands' workspaces for model m and data d (its contact capacity), on
 * nthreads threads (a pool is started when more than one); sap0 (borrowed)
 * is thread 0's workspace for the islands beyond the small ones, lcp
 * (borrowed, NULL under the Newton solver) the Lemke workspace and
 * lcp_capacity the contacts it takes per island.  NULL when out of memory;
 * *pool_failed is set when the threads could not start. */
sc_islands* sc_islands_create(const sc_model* m, const sc_data* d, int nthreads,
                              sc_sap_work* sap0, sc_lcp_work* lcp, int lcp_capacity,
                              int* pool_failed);
void sc_islands_free(sc_islands* s);
/* Forget the factorization the next call's solve of the same island may
 * start from (see sc_islands_solve): that solve factors anew. */
void sc_islands_forget(sc_islands* s);
int sc_islands_threads(const sc_islands* s);

/* Solve the step's contact problem island by island (see above): d->v holds
 * the start on entry (v0 or the last solution) and the solution on exit,
 * d->impulse the impulses, d->contact_stats the combined statistics,
 * d->nisland the number of islands.  Returns the combined status, or
 * SC_SOLVE_CAPACITY before solving anything when an island has more
 * contacts than the LCP workspace takes (sc_islands_capacity_error names
 * it). */
sc_solve_status sc_islands_solve(sc_islands* s, const sc_model* m, sc_data* d,
                                 const sc_island_call* call);

/* The error for the island sc_islands_solve refused. */
sc_status sc_islands_capacity_error(const sc_islands* s, const sc_model* m, const sc_data* d,
                                    sc_error* err);

#endif
