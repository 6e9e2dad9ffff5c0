/* solver_sap: the convex Newton contact solver ("SAP", Castro, Permenter &
 * Han, arXiv 2110.10107); the formulation is doc/contact.md sections 3-9.
 *
 * Given an sc_problem (A, v*, J, R, vhat, mu) it minimizes the convex,
 * once-differentiable cost
 *   l(v) = 1/2 |v - v*|_A^2 + sum_i 1/2 |P_F(y_i(v))|_R^2,
 *   y_i(v) = R_i^-1 (vhat_i - J_i v),
 * whose stationarity condition is the momentum balance A (v - v*) = J^T gamma
 * with gamma_i = P_F(y_i).  Newton's method with an exact (or Armijo) line
 * search; all memory lives in an sc_sap_work created once. */
#ifndef SC_SAP_H
#define SC_SAP_H

#include <signal.h>

#include "core/problem.h"
#include "core/core.h"

enum { SC_SAP_LS_EXACT = 0, SC_SAP_LS_BACKTRACKING = 1 };

/* How the Newton Hessian H = A + J^T G J is factored (sc_sap_params.hessian).
 * AUTO: sparse when nv > 64 and the lower-triangle entries of H
 * (counted with repetition) are at most 3/4 of a dense triangle's, dense
 * otherwise (a single deep tree keeps the dense path).  DENSE: LAPACK Cholesky,
 * the reference.  SPARSE (and AUTO beyond small problems): the block
 * Cholesky with the trees as supernodes (sap_block.c) when the trees have 3
 * or more dofs on average, else CHOLMOD with its own choice of factor;
 * SPARSE_BLOCK forces the block Cholesky, SPARSE_SUPERNODAL /
 * SPARSE_SIMPLICIAL CHOLMOD's two factorizations (the second implementation
 * the tests compare against).  A sparse request that exceeds the workspace's capacities falls
 * back to the dense path when the workspace has one (SC_SAP_DENSE_MAX_NV);
 * without one, every problem takes the sparse path (a problem beyond its
 * capacities is refused with SC_SOLVE_CAPACITY). */
enum {
  SC_SAP_HESSIAN_AUTO = 0,
  SC_SAP_HESSIAN_DENSE = 1,
  SC_SAP_HESSIAN_SPARSE = 2,
  SC_SAP_HESSIAN_SPARSE_SUPERNODAL = 3,
  SC_SAP_HESSIAN_SPARSE_SIMPLICIAL = 4,
  SC_SAP_HESSIAN_SPARSE_BLOCK = 5
};

/* Solver parameters; sc_sap_params_default gives the values in the comments. */
typedef struct sc_sap_params {
  double rel_tol;        /* eps_r of the momentum criterion, 1e-6 */
  double abs_tol;        /* eps_a, 1e-14 (units sqrt(J)) */
  int max_iterations;    /* Newton iterations (factorizations), 100 */
  int min_iterations;    /* ... taken even when the start meets the tolerance, 0 */
  double cost_abs_tol;   /* cost-stall criterion, 1e-30 J */
  double cost_rel_tol;   /* 1e-15 */
  double soft_tol;       /* soft norm for |y_t|, 1e-7 N s; must be > 0 */
  int linesearch;        /* SC_SAP_LS_EXACT (default) or SC_SAP_LS_BACKTRACKING */
  double alpha_max;      /* largest step of the exact line search, 1.5 */
  int ls_max_iterations; /* evaluations per exact line search, 100 (Armijo: min(this, 40)) */
  int hessian;           /* SC_SAP_HESSIAN_*, default SC_SAP_HESSIAN_AUTO */
  double slip_curvature;  /* omega: extra Hessian curvature along the slip direction of
                             sliding contacts, as a fraction of the one across it, 0.1;
                             0 gives the exact Newton Hessian throughout (see sap.c) */
  double slip_curvature_until; /* ... applied while the relative residual is above this,
                                  3e-3 */
  double reversal_curvature; /* omega for a sliding contact whose slip direction reversed
                                between the last two iterates, or would have under the
                                last full Newton step, at any residual; 0 (off) */
  double chebyshev_from, chebyshev_until; /* while the relative residual lies in
                                             [from, until) and the Hessian is exact (no
                                             slip or reversal curvature added), the Newton
                                             step gets Chebyshev's third-order correction
                                             (see sap.c); lagged model only; 0, 0 (off) */
  /* (sc_sap_params_for_model sets these five per contact model) */
  sc_solver_trace* trace; /* per-iteration record (NULL: none, the default); rows
                             beyond trace->cap are dropped */
  int trace_append;       /* 1: the rows follow those already in trace (a later solve of
                             the same step), 0 (default): the trace starts afresh */
  /* NULL (default) or a flag a signal handler sets: polled once per Newton
   * iteration; when non-zero the solve ends with SC_SOLVE_CANCELLED */
  const volatile sig_atomic_t* cancel;
  int cg_max_iterations; /* conjugate-gradient iterations a Newton direction may take
                            from a held factorization before H is factored anew, 5;
                            0: every direction from its own factorization (see sap.c) */
} sc_sap_params;

/* Fill p with the default values listed in sc_sap_params. */
void sc_sap_params_default(sc_sap_params* p);
/* Set p's slip curvature, its switch, the reversal curvature and the
 * Chebyshev window to the values tuned for the contact model
 * (sc_contact_model): SAP and similar keep the defaults above (0.1, 3e-3, 0,
 * no correction); lagged takes 0.2, 1e-2, 1 and [1e-4, 1e-2)
 * (results/sap_iterations.md, sections 6, 8 and 10). */
void sc_sap_params_for_model(sc_sap_params* p, int model);

/* Opaque workspace sized for problems with nv <= nv_max, nc <= nc_max. */
typedef struct sc_sap_work sc_sap_work;
/* The next solve on w solves the same island as the last one did (a
 * refinement pass: the same contacts, their laws changed; or the next
 * contact solve of that island): its Newton directions may start from that
 * solve's last factorization instead of a new one (see sap.c).  Without
 * this call every solve starts with a factorization of its own. */
void sc_sap_reuse_factor(sc_sap_work* w);

/* The dense path (A, J and H as dense arrays, LAPACK Cholesky) exists in
 * sized workspaces only for nv_max <= SC_SAP_DENSE_MAX_NV: its arrays take
 * 2 nv_max^2 + 2 * 3 nc_max nv_max doubles (plus H and G J as many again).
 * Larger workspaces take every problem on the structured path, in memory
 * linear in nv_max, nc_max and the sizes below. */
#define SC_SAP_DENSE_MAX_NV 512
/* The automatic choice factors problems of at most this many dofs dense
 * (assembled from the block form, without BLAS), larger ones sparse. */
#define SC_SAP_SMALL_NV 64

/* Create a workspace for problems whose tree blocks of A have at most
 * blk_max entries in all (sum of n_t^2) and whose contacts touch at most
 * cols_max columns of J each, of which at most cross_max pairs lie in two
 * different trees (negative: unknown), except nrow_max of the nc_max that
 * touch one (joint rows: limits, dry friction, servos); NULL when out of
 * memory or when a size is
 * negative.  Apart from CHOLMOD's symbolic analysis (once per solve, and
 * only when the pattern of H changed since the previous solve; see
 * sap_sparse.c) this is the only allocation of this module. */
sc_sap_work* sc_sap_work_create_sized(int nv_max, int nc_max, long blk_max, int cols_max,
                                      int nrow_max, long cross_max);
/* The same with blk_max = nv_max^2, cols_max = 17 (two free bodies and
 * more), cross_max unknown and nrow_max = 0, with a dense path whatever nv_max: for tests, tools and hand-made
 * problems (O(nv_max^2 + nc_max nv_max) memory). */
sc_sap_work* sc_sap_work_create(int nv_max, int nc_max);
/* Free a workspace created by sc_sap_work_create (NULL is allowed). */
void sc_sap_work_free(void* w);

/* Projection of y onto the friction cone in the R-norm (doc/contact.md 7):
 * gamma = P_F(y), and when G is non-NULL the 3x3 row-major
 * G = dP/dy R^-1 = -d gamma / d vc (symmetric PSD).  R = (Rt, Rt, Rn).
 * Returns the region 1 (stiction), 2 (sliding) or 3 (separation), and writes
 * the per-contact cost 1/2 gamma^T R gamma (its closed form of doc/contact.md 7,
 * whose y-gradient is exactly R gamma) to *cost when non-NULL. */
int sc_sap_project(const double y[3], const double R[3], double mu, double soft_tol,
                   double gamma[3], double G[9], double* cost);

/* The same cost with, for a direction d (3) of the contact velocity,
 * *dg = d.gamma and (dGd non-NULL) *dGd = d^T G d, without forming G (the
 * line search's per-contact terms).  Same region as sc_sap_project. */
int sc_sap_project_dir(const double y[3], const double R[3], double mu, double soft_tol,
                       const double d[3], double* cost, double* dg, double* dGd);

/* The same projection for a contact with a cone tail (core/problem.h):
 * nt tangential components yt, all regularized by Rt, and the normal yn
 * (Rn): gamma_t (nt) and *gn, and when Gtt is non-NULL G = dP/dy R^-1 as
 * Gtt (nt x nt, row-major), Gtn (nt) and *Gnn; region and cost as
 * sc_sap_project, whose values it gives at nt = 2. */
int sc_sap_project_cone(int nt, const double* yt, double yn, double Rt, double Rn, double mu,
                        double soft_tol, double* gt, double* gn, double* Gtt, double* Gtn,
                        double* Gnn, double* cost);
/* Its directional form, d = (d_t (nt), d_n), as sc_sap_project_dir. */
int sc_sap_project_cone_dir(int nt, const double* yt, double yn, double Rt, double Rn, double mu,
                            double soft_tol, const double* d_t, double d_n, double* cost,
                            double* dg, double* dGd);

/* Delassus diagonal estimate w_i = |W_ii|_F / 3, W = J A^-1 J^T (doc/contact.md 5)
 * for a problem (its R and vhat are not read).  No allocation.  Returns
 * SC_ERR_CAPACITY when the workspace is too small, SC_ERR_SIM when A is not
 * SPD. */
sc_status sc_sap_delassus_problem(const sc_problem* p, sc_sap_work* w, double* wdiag);
/* The same with a choice of path: SC_SAP_HESSIAN_DENSE factors all of A
 * (densified; needs a workspace with a dense path); any other value
 * (AUTO, what sc_sap_delassus_problem uses) factors each tree block of A
 * and uses only the listed columns of J, or takes the dense path when the
 * block form does not fit the workspace. */
sc_status sc_sap_delassus_path(const sc_problem* p, int hessian, sc_sap_work* w,
                               double* wdiag);
/* sc_sap_delassus_problem with A's blocks already factored: Afac holds the
 * lower Cholesky factor of each tree block of p->A as sc_la_blk_factor
 * makes them (A's layout, blocks of more than SC_LA_REVERSE_N dofs leaves
 * first; the upper triangles are not read): the integrator's factors of its
 * free-motion matrix.  NULL: factored here, the same way, so that the
 * result is the same to the bit. */
sc_status sc_sap_delassus_factored(const sc_problem* p, const double* Afac, sc_sap_work* w,
                                   double* wdiag);

/* Evaluate the cost l(v), its gradient grad = A (v - v*) - J^T gamma (nv) and,
 * when H is non-NULL, the Hessian A + J^T G J (nv x nv column-major, both
 * triangles) with the solver's own code on its dense path; gamma (3nc) may
 * be NULL.  For tests and diagnostics.  Returns SC_ERR_CAPACITY when the
 * workspace is too small or has no dense path. */
sc_status sc_sap_eval(const sc_problem* p, double soft_tol, sc_sap_work* w, const double* v,
                      double* cost, double* grad, double* gamma, double* H);
/* The same on the path `hessian` (SC_SAP_HESSIAN_*) would take in a solve:
 * the structured products, and H as the sparse path assembles it (after its
 * symbolic analysis), when that path is chosen.  H needs nv^2 doubles. */
sc_status sc_sap_eval_path(const sc_problem* p, double soft_tol, int hessian, sc_sap_work* w,
                           const double* v, double* cost, double* grad, double* gamma,
                           double* H);

/* Solve min_v l(v) (doc/contact.md 3.1) by Newton with line search (doc/contact.md 8).  v holds the
 * initial guess on entry (warm start) and the solution on exit; gamma (3nc)
 * receives the impulses.  With nc == 0, v = vstar after 0 iterations.  Never
 * allocates.  Returns SC_SOLVE_OK or a failure status (also in
 * stats->status); on failure v and gamma hold the last iterate.  A problem
 * larger than the workspace is SC_SOLVE_CAPACITY.  stats may be NULL. */
sc_solve_status sc_sap_solve(const sc_problem* p, const sc_sap_params* prm, sc_sap_work* w,
                             double* v, double* gamma, sc_solver_stats* stats);
/* The same with a second guess: when v_alt (nv) is non-NULL and finite and
 * both its cost l(v_alt) and its relative residual are lower than those of
 * v, v_alt is copied into v and the iteration starts there (the solve is the same convex problem, so either
 * start reaches the same minimizer to within the tolerance). */
sc_solve_status sc_sap_solve_from(const sc_problem* p, const sc_sap_params* prm, sc_sap_work* w,
                                  double* v, const double* v_alt, double* gamma,
                                  sc_solver_stats* stats);

/* The path the last sc_sap_solve on w used to factor H:
 * SC_SAP_HESSIAN_DENSE, SC_SAP_HESSIAN_SPARSE_BLOCK,
 * SC_SAP_HESSIAN_SPARSE_SUPERNODAL or SC_SAP_HESSIAN_SPARSE_SIMPLICIAL (0
 * when it built no factorization). */
int sc_sap_last_hessian(const sc_sap_work* w);
/* Entries stored by the last sparse factorization on w (the block panels or
 * CHOLMOD's factor; 0 when none): the fill its ordering gave. */
long sc_sap_last_factor_nnz(const sc_sap_work* w);

/* Number of allocations CHOLMOD has made in this thread (through hooks to
 * sc_malloc, so sc_alloc_count counts them too). */
long sc_sap_cholmod_alloc_count(void);

#endif
