/* integrator: one step of the two-stage theta-method.
 *
 * Seed 000 (§Discrete Model, §Two-Stage Scheme), ref/convex-contact.md §5:
 *   x^theta = theta x + (1 - theta) x0 for q (theta_q), v (theta_v), v in the
 *   position update (theta_vq).
 *   Stage 1 (free motion): solve m(v*) = 0 with
 *     m(v) = M(q^tq(v)) (v - v0) - dt k(q^tq(v), v^tv(v)),
 *     q^tq(v) = q0 + tq dt N(q^tq) v^tvq(v)          (a 2-pass fixed point),
 *   by Newton's method with the SPD approximation of dm/dv (eq. expression_for_A)
 *     A = M + dt^2 tq tvq K + dt tv D,
 *   K, D the stiffness and damping of the springs and dampers (k1); k holds
 *   gravity, Coriolis/gyroscopic terms (from RNEA) and the springs.  Schemes
 *   explicit in v* (tq = tv = 0) take exactly one solve with A = M(q0).
 *   Stage 2 (contact): A (v - v*) = J(q~)^T gamma with the contact solver,
 *     the contacts detected at q0 (their set and gaps phi0), placed at the
 *     mid configuration q~ = q0 + tq dt N(q~) v0 (midstep_contacts), each
 *     contact's law (theta, near-rigid beta, lagged friction bound) set
 *     per contact (contact_params) and refined from the island's own
 *     impulses (refine_contacts).
 *   Re-linearization (schemes implicit in v, models not affine in v):
 *     m(v) ~ m(v1) + A1 (v - v1), contact stage again (relinearize_step).
 *   Positions: q = q0 + dt N(q^tq) v_q, quaternions renormalized, with
 *     v_q = v^tvq plus (1 - tvq) A^-1 J^T of the impacts' normal impulses
 *     (contact_kick).
 * Energy bookkeeping: kinetic, gravity and spring energies of each state;
 * damper work by the trapezoidal rule on the damper power; contact work as
 * gamma . (vc0 + vc) / 2, normal and friction parts apart (the work of the
 * impulse over the step). */
#include "integrator/integrator.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "collision/collision.h"
#include "contact/contact.h"
#include "dynamics/dynamics.h"
#include "linalg/linalg.h"
#include "solver_lcp/lcp.h"
#include "solver_sap/sap.h"
#include "solver_sap/sap_model.h"

#define SMALL_NV SC_SAP_SMALL_NV /* dofs of an island solved in the dense workspace */
#define SMALL_NC 256 /* contacts of such an island */

/* What one thread needs to solve islands: the sub-problem of one island in
 * local numbering and the SAP workspaces (thread 0 uses step_work's sap, the
 * others their own) */
typedef struct island_ws {
  sc_sap_work* sap;       /* islands beyond the small ones (owned unless thread 0) */
  sc_sap_work* sap_small; /* islands of at most SMALL_NV dofs, SMALL_NC contacts: dense */
  int* iblock;            /* the int arrays below, one allocation */
  double* dblock;         /* the double arrays below */
  int *sub_tree_ptr, *sub_tree_dofs, *sub_jptr, *sub_jcol;
  double *sub_A, *sub_J, *sub_vstar, *sub_v, *sub_guess, *sub_R, *sub_vhat, *sub_mu,
      *sub_phi0, *sub_gamma, *sub_hc;
} island_ws;

/* One step's island solve as the threads see it (see solve_islands) */
typedef struct island_job {
  const sc_model* m;
  sc_data* d;
  struct step_work* w;
  const double* guess;
  sc_contact_model model;
  const double* hc;
  int nisl;
  atomic_int next;    /* next entry of w->isl_order to take */
  atomic_int stop_at; /* lowest island that ended cancelled or NaN (nisl: none) */
} island_job;

/* solver workspaces, created once by sc_sim_prepare */
typedef struct step_work {
  sc_sap_work* sap;
  sc_lcp_work* lcp;
  int lcp_capacity; /* contacts the LCP workspace takes (<= ncon_max), per island */
  int lcp_whole;    /* sc_sim_set_lcp_whole: one LCP of all contacts, no islands */
  int lcp_big;      /* the island over lcp_capacity when solve_islands refused */
  sc_sap_params sap_params;
  sc_sap_params sap_relin;    /* the same with one Newton iteration at least (relinearize_step) */
  const sc_sap_params* sap_prm; /* the one the solves of the moment use */
  /* the problem's trees: A's blocks (the model's non-empty cliques, whose
   * packed blocks lie one after the other in d->A) */
  int ntree;
  int* tree_ptr;  /* (nclique + 1) */
  sc_solver_trace trace; /* output.solver_trace: one row per Newton iteration */
  double* trace_block;   /* the trace's arrays (NULL when off) */
  /* the previous step's contacts, for the SAP warm start: geom pairs,
   * points (m) and impulses in world axes (N s); a hash of the pairs
   * (heads, chained through next) */
  int nprev, hash_size;
  int *prev_geom, *head, *next;
  double *prev_pos, *prev_imp;
  /* the LCP warm start (contact.lcp.warm_start): each previous contact's
   * basic pattern (sc_lcp_solve_from), this step's guesses and results per
   * contact, and both gathered by island (w->clist order) */
  uint32_t *prev_pat, *pat_guess, *pat_out, *pat_isl_in, *pat_isl_out;
  /* contact islands (see solve_islands): per contact whether the warm start
   * matched it, the union-find over cliques, contacts and trees grouped by
   * island, the islands in the order threads take them (largest first) and
   * each island's statistics */
  int* iblock; /* the int arrays below, one allocation */
  int *matched, *uf, *island_of, *cptr, *clist, *tptr, *tlist, *loc, *cisl, *isl_order,
      *isl_count;
  sc_solver_stats* isl_stats;
  /* per thread (contact.threads of them): island buffers and workspaces;
   * the pool of worker threads when there are several */
  int nthreads;
  island_ws* iws;
  sc_pool* pool;
  island_job job;
  /* contact.model similar / lagged: per-contact Hunt-Crossley parameters
   * (SC_HC_NPAR per contact) and pair dissipations (s/m) */
  double *hc, *hcd;
  /* per contact of this step (see contact_params): the previous step's
   * contact it continues (-1: a new contact), the normal impulse that one
   * carried (N s, projected on this normal; 0 when new), the near-rigid
   * beta in use, the lagged model's friction-bound impulse (N s; < 0: from
   * the state at the step start), the depth bound of depth control (m) */
  int* match;
  double *nload, *beta_c, *n0, *xmax;
  double* theta_c; /* the theta of each contact's law */
  double* gprev;   /* (3 per contact) the matching previous impulse in this contact's frame
                      (t1, t2, n; N s), 0 for a new contact */
  double* crel;    /* (3 per contact) its point at detection less the origin of its body
                      b (a when b is static), world axes, m: what matching compares */
  double vs; /* the Hunt-Crossley models' stiction tolerance sigma dt g, m/s */
} step_work;

/* contact.lcp.max_memory in bytes (MiB given; capped where size_t ends) */
static size_t lcp_max_bytes(const sc_model* m) {
  double b = m->opt.lcp_max_memory * 1048576.0;
  return b >= 0x1p62 ? (size_t)1 << 62 : (size_t)b;
}

static void step_work_free(void* p) {
  step_work* w = p;
  if (!w) return;
  sc_pool_free(w->pool); /* first: no worker may still touch a workspace */
  for (int t = 0; w->iws && t < w->nthreads; t++) {
    island_ws* x = &w->iws[t];
    if (t > 0) sc_sap_work_free(x->sap);
    sc_sap_work_free(x->sap_small);
    sc_free(x->iblock);
    sc_free(x->dblock);
  }
  sc_free(w->iws);
  sc_sap_work_free(w->sap);
  sc_lcp_work_free(w->lcp);
  sc_free(w->tree_ptr);
  sc_free(w->trace_block);
  sc_free(w->prev_geom);
  sc_free(w->prev_pat);
  sc_free(w->prev_pos);
  sc_free(w->iblock);
  sc_free(w->isl_stats);
  sc_free(w->hc);
  sc_free(w->match);
  sc_free(w->nload);
  sc_free(w);
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- fault guards: a state that is not a plausible result stops the run
 * instead of being recorded as one ---- */

/* q, v and the energies finite; every quaternion of unit length (a
 * quaternion renormalized from infinite components comes out zero or NaN) */
static sc_status guard_state(const sc_model* m, const sc_data* d, sc_error* err) {
  for (int i = 0; i < m->nq; i++)
    if (!isfinite(d->q[i]))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite position %s = %g (diverged)", d->time,
                          m->q_names[i], d->q[i]);
  for (int i = 0; i < m->nv; i++)
    if (!isfinite(d->v[i]))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite velocity %s = %g (diverged)", d->time,
                          m->v_names[i], d->v[i]);
  for (int j = 0; j < m->njnt; j++) {
    int qa = m->jnt_qadr[j];
    if (m->jnt_type[j] != SC_JOINT_BALL && m->jnt_type[j] != SC_JOINT_FREE) continue;
    if (m->jnt_type[j] == SC_JOINT_FREE) qa += 3;
    const double* qq = d->q + qa;
    double n = sqrt(qq[0] * qq[0] + qq[1] * qq[1] + qq[2] * qq[2] + qq[3] * qq[3]);
    if (!(fabs(n - 1) < 1e-6))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite orientation: quaternion of joint %s has "
                          "norm %g (the rotation diverged)",
                          d->time, m->jnt_name[j], n);
  }
  const double e[4] = {d->e_kinetic, d->e_gravity, d->e_spring, d->e_damper + d->e_contact};
  static const char* en[4] = {"kinetic", "gravity", "spring", "dissipated"};
  for (int i = 0; i < 4; i++)
    if (!isfinite(e[i]))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite %s energy %g J (velocities too large for "
                          "double precision)",
                          d->time, en[i], e[i]);
  return SC_OK;
}

/* A rigid-body contact deeper than the smaller geometry's bounding radius
 * means a body passed through another (a step too long for the approach
 * speed): no compliant contact can make that a meaningful result. */
static sc_status guard_penetration(const sc_model* m, const sc_data* d, sc_error* err) {
  for (int i = 0; i < d->ncon; i++) {
    const sc_contact* c = &d->contact[i];
    double ra = m->geom_rbound[c->geom[0]], rb = m->geom_rbound[c->geom[1]];
    double r = ra < rb ? ra : rb;
    if (-c->dist > r)
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: implausible penetration %.3g m between bodies %s and %s "
                          "(more than the smaller geometry's bounding radius %.3g m): the bodies "
                          "passed through each other; reduce time.step",
                          d->time, -c->dist, m->body_name[c->body[0]], m->body_name[c->body[1]],
                          r);
  }
  return SC_OK;
}

/* q^tq for velocities vq (= v^tvq): q0 + tq dt N(q^tq) vq, two passes */
static void mid_positions(const sc_model* m, const double* q0, const double* vq, double tq,
                          double dt, double* qt, double* qdot) {
  memcpy(qt, q0, sizeof(double) * (size_t)m->nq);
  if (tq == 0) return;
  for (int pass = 0; pass < 2; pass++) {
    sc_dyn_qdot(m, qt, vq, qdot);
    for (int i = 0; i < m->nq; i++) qt[i] = q0[i] + tq * dt * qdot[i];
    sc_dyn_normalize_q(m, qt);
  }
}

/* ---- block-diagonal (per clique) operations on the packed clique blocks
 * (state.h): block c is n x n column-major at clique_blkadr[c] ---- */

/* y = Mat x */
static void blk_gemv(const sc_model* m, const double* Mat, const double* x, double* y) {
  for (int c = 0; c < m->nclique; c++) {
    const int* idx = m->clique_dofs + m->clique_dofadr[c];
    int n = m->clique_dofnum[c];
    const double* B = Mat + m->clique_blkadr[c];
    for (int a = 0; a < n; a++) {
      double s = 0;
      for (int b = 0; b < n; b++) s += B[a + (size_t)b * n] * x[idx[b]];
      y[idx[a]] = s;
    }
  }
}

/* Mat_ii */
static double blk_diag(const sc_model* m, const double* Mat, int i) {
  const int c = m->dof_clique[i];
  return Mat[(size_t)m->clique_blkadr[c] + (size_t)m->dof_cliqueloc[i] * (m->clique_dofnum[c] + 1)];
}

/* Cholesky-factor each block of Mat into fac; returns 0 or the (1-based)
 * global dof index of the first non-positive pivot */
static int blk_factor(const sc_model* m, const double* Mat, double* fac) {
  memcpy(fac, Mat, sizeof(double) * (size_t)m->nblk);
  for (int c = 0; c < m->nclique; c++) {
    const int* idx = m->clique_dofs + m->clique_dofadr[c];
    int n = m->clique_dofnum[c];
    /* a body's 6x6 or a short chain's block: BLAS dispatch costs more than
     * the arithmetic */
    int info = n <= SMALL_NV ? sc_la_chol_factor_small(n, fac + m->clique_blkadr[c], n)
                             : sc_la_chol_factor(n, fac + m->clique_blkadr[c], n);
    if (info != 0) return info > 0 ? idx[info - 1] + 1 : 1;
  }
  return 0;
}

/* x = Mat^-1 x with the packed factors (tmp: nv scratch) */
static void blk_solve(const sc_model* m, const double* fac, double* x, double* tmp) {
  for (int c = 0; c < m->nclique; c++) {
    const int* idx = m->clique_dofs + m->clique_dofadr[c];
    int n = m->clique_dofnum[c];
    for (int a = 0; a < n; a++) tmp[a] = x[idx[a]];
    if (n <= SMALL_NV) sc_la_chol_solve_small(n, fac + m->clique_blkadr[c], n, tmp);
    else sc_la_chol_solve(n, fac + m->clique_blkadr[c], n, tmp, n, 1);
    for (int a = 0; a < n; a++) x[idx[a]] = tmp[a];
  }
}

/* scratch layout (d->scratch: 8 nv + nq) */
enum { SCR_VTH = 0, SCR_VQ = 1, SCR_RES = 2, SCR_K = 3, SCR_TMP = 4, SCR_V0 = 5, SCR_GUESS = 6 };
static double* scr(const sc_model* m, sc_data* d, int slot) {
  return d->scratch + (size_t)slot * (size_t)m->nv;
}

/* Evaluate the momentum residual m(v) into res and A at (q^tq(v), v^tv(v)).
 * Returns the residual norm ||D m|| and its scale in *scale. */
static double eval_residual(const sc_model* m, sc_data* d, const double* v0, const double* v,
                            double* res, double* scale) {
  int nv = m->nv;
  const sc_options* o = &m->opt;
  double dt = o->dt;
  double* vth = scr(m, d, SCR_VTH);
  double* vq = scr(m, d, SCR_VQ);
  double* kf = scr(m, d, SCR_K);
  double* tmp = scr(m, d, SCR_TMP);
  double* qdot = d->scratch + 8 * (size_t)nv;
  for (int i = 0; i < nv; i++) {
    vth[i] = o->theta_v * v[i] + (1 - o->theta_v) * v0[i];
    vq[i] = o->theta_vq * v[i] + (1 - o->theta_vq) * v0[i];
  }
  mid_positions(m, d->q, vq, o->theta_q, dt, d->qtheta, qdot);
  sc_dyn_kinematics(m, d, d->qtheta);
  sc_dyn_velocity(m, d, d->qtheta, vth);
  sc_dyn_crba(m, d);
  sc_dyn_rne(m, d, NULL, d->bias);
  memset(d->K, 0, sizeof(double) * (size_t)m->nblk);
  memset(d->D, 0, sizeof(double) * (size_t)m->nblk);
  sc_dyn_springs(m, d, d->qtheta, vth, d->K, d->D);
  for (int i = 0; i < nv; i++) kf[i] = d->fspring[i] - d->bias[i];
  /* res = M (v - v0) - dt k */
  for (int i = 0; i < nv; i++) tmp[i] = v[i] - v0[i];
  blk_gemv(m, d->M, tmp, res);
  for (int i = 0; i < nv; i++) res[i] -= dt * kf[i];
  /* A = M + dt^2 tq tvq K + dt tv D, on the clique blocks */
  double ck = dt * dt * o->theta_q * o->theta_vq, cd = dt * o->theta_v;
  for (long e = 0; e < m->nblk; e++) d->A[e] = d->M[e] + ck * d->K[e] + cd * d->D[e];
  /* Jacobi-scaled norms (D = diag(M)^-1/2, units sqrt(J)) */
  blk_gemv(m, d->M, v, tmp);
  double r2 = 0, p2 = 0, k2 = 0;
  for (int i = 0; i < nv; i++) {
    double di = 1.0 / blk_diag(m, d->M, i);
    r2 += res[i] * res[i] * di;
    p2 += tmp[i] * tmp[i] * di;
    k2 += dt * dt * kf[i] * kf[i] * di;
  }
  *scale = sqrt(p2 > k2 ? p2 : k2);
  return sqrt(r2);
}

static sc_status free_motion(const sc_model* m, sc_data* d, sc_error* err) {
  int nv = m->nv;
  const sc_options* o = &m->opt;
  double* res = scr(m, d, SCR_RES);
  const double* v0 = d->v;
  int explicit_scheme = (o->theta_q == 0 && o->theta_v == 0);
  memcpy(d->vstar, v0, sizeof(double) * (size_t)nv);
  d->free_iterations = 0;
  d->free_residual = 0;
  if (nv == 0) return SC_OK;
  double r_prev = INFINITY;
  for (int it = 0;; it++) {
    /* explicit schemes: m is affine in v with slope M = A, so one solve is
     * exact; and with theta_q = theta_v = 0 an evaluation at v* would see the
     * q^theta and v^theta of v0 again, so A stays the one just used, to the
     * bit: no second evaluation.  A model whose m is affine for any theta
     * (sc_model.free_motion_affine) is solved by one step too; A = M stays
     * the one evaluated at q^theta(v0), equal to that at q^theta(v*) but for
     * round-off. */
    if ((explicit_scheme || m->free_motion_affine) && it == 1) {
      d->free_residual = 0;
      break;
    }
    double scale, r = eval_residual(m, d, v0, d->vstar, res, &scale);
    if (!isfinite(r))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite free-motion residual", d->time);
    d->free_residual = scale > 0 ? r / scale : r;
    if (r <= o->newton_tol * scale) break;
    /* a residual that stopped contracting within a few decades of the
     * tolerance has reached the round-off floor of m(v): accept it */
    if (r >= 0.9 * r_prev && r <= 1e4 * o->newton_tol * scale) break;
    r_prev = r;
    if (it == o->newton_maxit) {
      d->warning[SC_WARN_FREE_NEWTON]++;
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: free-motion Newton did not converge in %d iterations "
                          "(relative residual %.3g > integrator.newton.tolerance %.3g)",
                          d->time, o->newton_maxit, d->free_residual, o->newton_tol);
    }
    int info = blk_factor(m, d->A, d->Afac);
    if (info != 0)
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: momentum matrix A not positive definite (at %s)",
                          d->time, m->v_names[info - 1]);
    blk_solve(m, d->Afac, res, scr(m, d, SCR_TMP));
    for (int i = 0; i < nv; i++) d->vstar[i] -= res[i];
    d->free_iterations++;
  }
  return SC_OK;
}

/* energies and damper power of the state (q, v) in d; needs nothing precomputed */
static double state_quantities(const sc_model* m, sc_data* d) {
  int nv = m->nv;
  sc_dyn_kinematics(m, d, d->q);
  sc_dyn_velocity(m, d, d->q, d->v);
  sc_dyn_energy(m, d, &d->e_kinetic, &d->e_gravity);
  d->e_spring = sc_dyn_springs(m, d, d->q, d->v, NULL, NULL);
  return -sc_la_dot(nv, d->v, d->fdamp); /* damper power dissipated, W */
}

/* the arrays of a trace with room for cap rows, in one block */
static int trace_create(sc_solver_trace* t, double** block, int cap) {
  if (cap < 1) cap = 1;
  const size_t n = (size_t)cap;
  double* b = sc_malloc(n * (3 * sizeof(double) + 5 * sizeof(int)));
  *block = b;
  if (!b) return -1;
  t->cap = cap;
  t->n = 0;
  t->residual = b;
  t->alpha = b + n;
  t->cost_decrease = b + 2 * n;
  int* ib = (int*)(b + 3 * n);
  t->ls_evals = ib;
  t->n_separated = ib + n;
  t->n_stick = ib + 2 * n;
  t->n_slide = ib + 3 * n;
  t->n_changed = ib + 4 * n;
  return 0;
}

void sc_sim_set_lcp_whole(sc_data* d, int whole) {
  step_work* w = d->solver_work;
  if (w) w->lcp_whole = whole != 0;
}

void sc_sim_set_cancel(sc_data* d, const volatile sig_atomic_t* flag) {
  step_work* w = d->solver_work;
  if (!w) return;
  w->sap_params.cancel = flag;
  w->sap_relin.cancel = flag;
  sc_lcp_set_cancel(w->lcp, flag);
}

sc_status sc_sim_prepare(const sc_model* m, sc_data* d, sc_error* err) {
  int nv = m->nv;
  if (!d->solver_work) {
    step_work* w = sc_calloc(1, sizeof *w);
    if (!w) return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    d->solver_work = w;
    d->solver_work_free = step_work_free;
    sc_sap_params_default(&w->sap_params);
    w->sap_params.rel_tol = m->opt.contact_tol;
    w->sap_params.max_iterations = m->opt.contact_maxit;
    sc_sap_params_for_model(&w->sap_params, m->opt.contact_model);
    /* a negative option is the model's own value */
    if (m->opt.slip_curvature >= 0.0) w->sap_params.slip_curvature = m->opt.slip_curvature;
    /* 0 asks for plain Newton steps: the exact Hessian (no reversal
     * curvature either) and no Chebyshev correction */
    if (m->opt.slip_curvature == 0.0) {
      w->sap_params.reversal_curvature = 0.0;
      w->sap_params.chebyshev_from = w->sap_params.chebyshev_until = 0.0;
    }
    /* contacts touch the dofs of two chains; the blocks are the model's */
    const int cols = 2 * d->chain_max < nv ? 2 * d->chain_max : nv;
    w->sap = sc_sap_work_create_sized(nv, d->ncon_max, m->nblk, cols);
    const size_t ncap = (size_t)d->ncon_max + 1;
    w->hash_size = 1;
    while ((size_t)w->hash_size < 2 * ncap) w->hash_size *= 2;
    w->prev_geom = sc_malloc(sizeof(int) * (2 * ncap + ncap + (size_t)w->hash_size));
    w->prev_pos = sc_malloc(sizeof(double) * 6 * ncap);
    w->prev_pat = sc_malloc(sizeof(uint32_t) * 5 * ncap);
    w->hc = sc_malloc(sizeof(double) * (SC_HC_NPAR + 1) * ncap);
    if (w->hc) w->hcd = w->hc + SC_HC_NPAR * ncap;
    w->match = sc_malloc(sizeof(int) * ncap);
    w->nload = sc_malloc(sizeof(double) * 11 * ncap);
    if (w->nload) {
      w->beta_c = w->nload + ncap;
      w->n0 = w->beta_c + ncap;
      w->xmax = w->n0 + ncap;
      w->theta_c = w->xmax + ncap;
      w->gprev = w->theta_c + ncap;
      w->crel = w->gprev + 3 * ncap;
    }
    {
      const double* g = m->opt.gravity;
      double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
      if (!(gn > 0)) gn = 9.81;
      w->vs = m->opt.sigma * m->opt.dt * gn;
    }
    if (w->prev_geom && w->prev_pos) {
      w->next = w->prev_geom + 2 * ncap;
      w->head = w->next + ncap;
      w->prev_imp = w->prev_pos + 3 * ncap;
    }
    if (w->prev_pat) {
      w->pat_guess = w->prev_pat + ncap;
      w->pat_out = w->pat_guess + ncap;
      w->pat_isl_in = w->pat_out + ncap;
      w->pat_isl_out = w->pat_isl_in + ncap;
    }
    if (m->opt.output_solver_trace && m->opt.solver != SC_SOLVER_LCP &&
        trace_create(&w->trace, &w->trace_block,
                     m->opt.contact_maxit * (m->opt.contact_passes + 1) *
                         (m->opt.relinearize + 1)) == 0) {
      w->sap_params.trace = &w->trace;
      d->solver_trace = &w->trace;
    }
    w->sap_relin = w->sap_params;
    w->sap_relin.min_iterations = 1;
    w->sap_prm = &w->sap_params;
    if (m->opt.solver == SC_SOLVER_LCP) {
      int dirs = m->opt.lcp_directions;
      w->lcp_capacity = sc_lcp_capacity_within(nv, d->ncon_max, dirs, lcp_max_bytes(m));
      if (w->lcp_capacity == 0)
        return sc_error_set(err, SC_ERR_SCENE, m->scene_path, 0, 0,
                            "contact.solver: the dense LCP for %d velocities needs %.3g MiB "
                            "for a single contact, more than its limit of %.4g MiB "
                            "(contact.lcp.max_memory); use contact.solver: newton",
                            nv, (double)sc_lcp_work_bytes(nv, 1, dirs) / 1048576.0,
                            m->opt.lcp_max_memory);
      w->lcp = sc_lcp_work_create(nv, w->lcp_capacity, dirs);
    }
    w->tree_ptr = sc_calloc((size_t)m->nclique + 1, sizeof(int));
    int nt = 0;
    for (int c = 0; c < m->nclique && w->tree_ptr; c++)
      if (m->clique_dofnum[c] > 0) {
        w->tree_ptr[nt + 1] = w->tree_ptr[nt] + m->clique_dofnum[c];
        nt++;
      }
    /* cliques are stored in clique order, and clique_dofs lists the
     * non-empty ones contiguously in the same order */
    w->ntree = nt;
    /* islands: int blocks and double blocks, sizes linear in the scene */
    const size_t nv_ = (size_t)nv, ncl = (size_t)m->nclique + 1, ncm = ncap;
    {
      const size_t ni = ncm + ncl + ncm + (ncl + 1) + ncm + (ncl + 1) + ncl + nv_ + ncl +
                        2 * (ncm + 1);
      int* ib = w->iblock = sc_malloc(sizeof(int) * ni);
      w->isl_stats = sc_malloc(sizeof(sc_solver_stats) * ncm);
      if (ib) {
        w->matched = ib, ib += ncm;
        w->uf = ib, ib += ncl;
        w->island_of = ib, ib += ncm;
        w->cptr = ib, ib += ncl + 1;
        w->clist = ib, ib += ncm;
        w->tptr = ib, ib += ncl + 1;
        w->tlist = ib, ib += ncl;
        w->loc = ib, ib += nv_;
        w->cisl = ib, ib += ncl;
        w->isl_order = ib, ib += ncm + 1;
        w->isl_count = ib;
      }
    }
    /* threads: contact.threads (0: one per online CPU); the LCP solves the
     * whole problem on one */
    w->nthreads = m->opt.threads > 0 ? m->opt.threads : sc_online_cpus();
    if (w->nthreads > SC_MAX_THREADS) w->nthreads = SC_MAX_THREADS;
    if (m->opt.solver == SC_SOLVER_LCP) w->nthreads = 1;
    w->iws = sc_calloc((size_t)w->nthreads, sizeof(island_ws));
    int ws_ok = w->iws != NULL;
    for (int t = 0; ws_ok && t < w->nthreads; t++) {
      island_ws* x = &w->iws[t];
      const size_t jc = (size_t)d->jcap;
      const size_t ni = (ncl + 1) + nv_ + ncm + jc;
      const size_t nd = (size_t)(m->nblk > 0 ? m->nblk : 1) + 3 * jc + 3 * nv_ + 3 * ncm +
                        3 * ncm + ncm + ncm + 3 * ncm + SC_HC_NPAR * ncm;
      int* ib = x->iblock = sc_malloc(sizeof(int) * ni);
      double* db = x->dblock = sc_malloc(sizeof(double) * nd);
      if (ib && db) {
        x->sub_tree_ptr = ib, ib += ncl + 1;
        x->sub_tree_dofs = ib, ib += nv_;
        x->sub_jptr = ib, ib += ncm;
        x->sub_jcol = ib;
        x->sub_A = db, db += m->nblk > 0 ? m->nblk : 1;
        x->sub_J = db, db += 3 * jc;
        x->sub_vstar = db, db += nv_;
        x->sub_v = db, db += nv_;
        x->sub_guess = db, db += nv_;
        x->sub_R = db, db += 3 * ncm;
        x->sub_vhat = db, db += 3 * ncm;
        x->sub_mu = db, db += ncm;
        x->sub_phi0 = db, db += ncm;
        x->sub_gamma = db, db += 3 * ncm;
        x->sub_hc = db;
      }
      const int small_nc = d->ncon_max < SMALL_NC ? d->ncon_max : SMALL_NC;
      const int small_nv = nv < SMALL_NV ? nv : SMALL_NV;
      x->sap_small = sc_sap_work_create_sized(small_nv, small_nc, (long)small_nv * small_nv,
                                              cols);
      x->sap = t == 0 ? w->sap : sc_sap_work_create_sized(nv, d->ncon_max, m->nblk, cols);
      ws_ok = ib && db && x->sap_small && x->sap;
    }
    if (ws_ok && w->nthreads > 1) {
      w->pool = sc_pool_create(w->nthreads);
      if (!w->pool)
        return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0,
                            "contact.threads: cannot start %d threads", w->nthreads);
    }
    if (!ws_ok || !w->sap || !w->tree_ptr || !w->prev_geom || !w->prev_pos || !w->prev_pat ||
        !w->iblock ||
        !w->isl_stats || !w->hc || !w->match || !w->nload ||
        (m->opt.solver == SC_SOLVER_LCP && !w->lcp) ||
        (m->opt.output_solver_trace && m->opt.solver != SC_SOLVER_LCP && !w->trace_block))
      return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0,
                          "out of memory for the contact solver workspace "
                          "(nv = %d, contact capacity = %d, %d threads)", nv, d->ncon_max,
                          w->nthreads);
  }
  ((step_work*)d->solver_work)->nprev = 0;
  sc_dyn_kinematics(m, d, d->q);
  sc_dyn_crba(m, d);
  int info = blk_factor(m, d->M, d->Afac);
  if (info > 0) {
    int dof = info - 1;
    return sc_error_set(err, SC_ERR_SCENE, m->scene_path, 0, 0,
                        "mass matrix is not positive definite at the initial state "
                        "(first singular velocity: %s); give the bodies on that joint "
                        "mass and inertia",
                        m->v_names[dof]);
  }
  return SC_OK;
}

/* ---- SAP warm start from the previous step's impulses ----
 * A guess is only as good as the impulses gamma(v) it implies, and with R
 * tiny (stiction, near-rigid contact) a small velocity error is a large
 * impulse error.  Besides v0 the solver is offered the velocity the
 * previous impulses would produce now,
 *   v_guess = v* + A^-1 J^T gamma_prev,
 * with gamma_prev of the contact that persists (same geom pair, nearest point
 * within WARM_MATCH_DIST, points taken relative to the origin of the pair's
 * moving body so that a body sliding or rolling at speed keeps its
 * contacts: a sphere rolling at 2 m/s moves 2 cm per 10 ms step), rotated
 * into the new contact frame; new contacts get 0.  The solver starts from v_guess when both its cost and its
 * residual are below v0's (sc_sap_solve_from).  Measured on clutter this
 * saves only 2-3 % of the iterations (results/sap_iterations.md): v0
 * already carries the previous step's answer. */
#define WARM_MATCH_DIST 0.01 /* m */

static unsigned pair_hash(const int g[2], int size) {
  unsigned h = (unsigned)g[0] * 2654435761u ^ (unsigned)g[1] * 40503u;
  return h & (unsigned)(size - 1);
}

/* keep this step's contacts and their impulses in world axes */
static void remember_contacts(const sc_data* d, step_work* w, int nc) {
  for (int i = 0; i < w->hash_size; i++) w->head[i] = -1;
  for (int i = 0; i < nc; i++) {
    const sc_contact* c = &d->contact[i];
    const double* g = d->impulse + 3 * i;
    w->prev_geom[2 * i] = c->geom[0];
    w->prev_geom[2 * i + 1] = c->geom[1];
    for (int k = 0; k < 3; k++) {
      w->prev_pos[3 * i + k] = w->crel[3 * i + k];
      /* frame rows are t1, t2, n: world = frame^T gamma */
      w->prev_imp[3 * i + k] = c->frame[k] * g[0] + c->frame[3 + k] * g[1] + c->frame[6 + k] * g[2];
    }
    w->prev_pat[i] = w->pat_out[i];
    unsigned h = pair_hash(c->geom, w->hash_size);
    w->next[i] = w->head[h];
    w->head[h] = i;
  }
  w->nprev = nc;
}

/* the previous step's contact that c continues (same geom pair, nearest
 * point within WARM_MATCH_DIST), or -1 */
static int match_prev(const step_work* w, const sc_contact* c, const double rel[3]) {
  int best = -1;
  double best_d2 = WARM_MATCH_DIST * WARM_MATCH_DIST;
  if (w->nprev > 0)
    for (int j = w->head[pair_hash(c->geom, w->hash_size)]; j >= 0; j = w->next[j]) {
      if (w->prev_geom[2 * j] != c->geom[0] || w->prev_geom[2 * j + 1] != c->geom[1]) continue;
      double d2 = 0;
      for (int k = 0; k < 3; k++) {
        double e = rel[k] - w->prev_pos[3 * j + k];
        d2 += e * e;
      }
      if (d2 < best_d2) best_d2 = d2, best = j;
    }
  return best;
}

/* LCP warm start: each contact's guess is the basic pattern of the contact
 * it continues (0, all w basic, for a new one: no impulse).  The cone's
 * edges are numbered from the contact frame's t1, which for a continuing
 * contact turns little from one step to the next. */
static void lcp_guess(const step_work* w, int nc) {
  for (int i = 0; i < nc; i++) {
    const int j = w->match[i];
    w->pat_guess[i] = j >= 0 ? w->prev_pat[j] : 0u;
  }
}

/* v = v* + A^-1 J^T gamma_prev (gam: 3nc scratch, tmp: nv scratch); returns
 * the number of contacts matched (0: v is v*) */
static int warm_guess(const sc_model* m, sc_data* d, const step_work* w, int nc, double* gam,
                      double* v, double* tmp) {
  int* matched_c = w->matched;
  const int nv = m->nv;
  int matched = 0;
  for (int i = 0; i < nc; i++) {
    const int best = w->match[i];
    for (int r = 0; r < 3; r++) gam[3 * i + r] = w->gprev[3 * i + r];
    matched += best >= 0;
    matched_c[i] = best >= 0;
  }
  /* J^T gamma over each contact's listed columns */
  for (int i = 0; i < nv; i++) v[i] = 0;
  for (int i = 0; i < nc; i++)
    for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) {
      const int col = d->jcol[q];
      const double* Jc = d->Jc + 3 * (size_t)q;
      v[col] += Jc[0] * gam[3 * i] + Jc[1] * gam[3 * i + 1] + Jc[2] * gam[3 * i + 2];
    }
  blk_solve(m, d->Afac, v, tmp);
  for (int i = 0; i < nv; i++) v[i] += d->vstar[i];
  return matched;
}

/* ---- per-contact parameters of the contact law ----
 * Each contact's R and vhat (sap, and the LCP's normal rows) or
 * Hunt-Crossley parameters (similar, lagged) come from its stiffness,
 * dissipation, the Delassus estimate w and three choices made here:
 *
 * theta of the contact law (contact.theta).  The law is written at the
 * penetration x^theta of the step (ref/convex-contact.md 2.5, with the
 * spring at the mid-step gap, sap_cone.c); with theta = 1/2 a compliant
 * contact keeps the energy of its spring, as the midpoint rule should.  But
 * the midpoint rule conserves only what it resolves: a contact spring with
 * omega dt = sqrt(k w) dt large is turned by 2 atan(omega dt / 2), near pi,
 * per step, and nothing damps it.  A near-rigid contact (stiffness capped
 * so that its period is beta dt: omega dt = 2 pi / beta) then flips its
 * normal velocity every step: the contact chatters, a cube sliding on its
 * face rocks and stops 70 % short, and an unresolved compliant one gains
 * energy at each touch and release ((omega dt)^2 / 4 each: a sphere dropped
 * on a 1e5 N/m contact at dt = 10 ms, omega dt = 4, left with 10 J more than
 * it had; results/validation.md).  auto (the default) writes a contact
 * whose spring the step does not resolve (omega dt > RESOLVED_WDT = 1, at
 * contact.near_rigid_beta; near-rigid and rigid ones always) at theta = 1:
 * the impulse sets the end-of-step normal velocity, as in Moreau's midpoint
 * scheme, while the positions still advance with v^theta_vq; resolved
 * compliant contacts keep theta_vq and bounce back to their height
 * (within 3e-4 at omega dt <= 0.4).  scheme writes every contact at
 * theta_vq (the published scheme), a number writes them all at it.
 *
 * beta per contact (contact.near_rigid_depth).  A near-rigid contact
 * settles under a load F = n / dt to the depth of its capped spring,
 *   x = n theta tau Rn   (sap: Rn = beta^2 w / (4 pi^2), tau = theta dt + tau_d),
 *   x = n / (dt k)       (Hunt-Crossley: k = 4 pi^2 / (beta^2 w dt^2)),
 * both proportional to beta^2 w.  A heavy body on a light one has the
 * light body's large w and a large load: at beta = 1 a 10 t box on a 1 kg
 * one sinks 0.25 m per 10 ms step.  Depth control lowers beta per contact
 * so that x stays at most near_rigid_depth times the smaller geometry's
 * bounding radius, down to contact.near_rigid_beta_min (its conditioning
 * cost is a factor 4 pi^2 / beta^2 between the contact's curvature and
 * the bodies' masses).  The load is the normal impulse of the previous
 * step's matching contact, then the island's own solve (refine_contacts).
 *
 * The lagged friction bound.  The lagged model bounds friction by a
 * normal impulse n0 fixed before the solve; the source estimates it from
 * the state at the step start, which gives 0 for a contact that starts
 * this step: no friction at all on the first step of a run or during an
 * impact (a cube launched on the ground slides one step free: +2.9 % of
 * its stopping distance at dt = 10 ms), and friction on a contact that is
 * leaving.  Here n0 is the normal impulse the matching previous contact
 * carried (a better estimate than the state's in a pile, and the bound
 * the model means), and a new contact (no match) that breaks Coulomb's
 * law with its own normal impulse n after the solve (a sliding contact
 * whose bound is not mu n, or a sticking one that needs more than mu n,
 * by more than TRESCA_TOL) gets n0 = n, and the island is solved again, at
 * most contact.passes times: a fixed point of these Tresca problems is
 * Coulomb friction with the step's own normal impulse (what the LCP
 * solves), each pass a convex problem started from the last solution.
 * Refining every contact instead would double the Newton iterations of a
 * forming pile (clutter 216: 7.9 -> 16 per step) for a one-step lag the
 * model has by design; new contacts only cost 8 % (8.6). */
#define TRESCA_TOL 1e-2
/* the largest omega dt of a contact spring the contact.theta auto rule
 * writes at the scheme's theta_vq (see law_theta) */
#define RESOLVED_WDT 1.0
#define DEPTH_SLACK 1.1 /* depth control acts on contacts deeper than this times the bound */

/* theta of a contact's law, from w dt = sqrt(k w) dt of its spring */
static double law_theta(const sc_options* o, double wdt) {
  const double th = o->theta_vq > 0 ? o->theta_vq : 1.0;
  if (o->contact_theta > 0) return o->contact_theta;
  if (o->contact_theta == SC_CONTACT_THETA_AUTO && !(wdt <= RESOLVED_WDT)) return 1.0;
  return th;
}

/* contact i's law with near-rigid threshold b and friction bound n0 (< 0:
 * from the state): R and vhat (3 each; sap and the LCP, and the solver's
 * checks for every model) and, when hc != NULL, the Hunt-Crossley
 * parameters (SC_HC_NPAR); returns the theta of the law the model uses */
static double contact_law(const sc_model* m, const sc_data* d, const step_work* w, int i,
                          double b, double n0, double* R, double* vhat, double* hc) {
  const sc_options* o = &m->opt;
  const double dt = o->dt;
  const double four_pi2 = 4.0 * 3.14159265358979323846 * 3.14159265358979323846;
  const double b0 = (o->beta == 0.0 && isinf(d->ck[i])) ? 1.0 : o->beta;
  /* the spring's stiffness where the law is set: capped at the near-rigid
   * stiffness of threshold b0 */
  const double kc = b0 > 0 ? fmin(d->ck[i], four_pi2 / (b0 * b0 * d->wdiag[i] * dt * dt)) : d->ck[i];
  const double wdt = sqrt(kc * d->wdiag[i]) * dt;
  const double th = law_theta(o, sc_sap_near_rigid(d->ck[i], d->ctaud[i], d->wdiag[i], dt, o->beta)
                                     ? (double)INFINITY : wdt);
  sc_sap_regularize_one(d->ck[i], d->ctaud[i], d->wdiag[i], d->phi0[i], d->vn0[i], dt, th,
                        o->sigma, b, R, vhat);
  if (!hc) return th;
  const double hth = law_theta(o, wdt);
  sc_sap_hc_params_one(d->ck[i], w->hcd[i], d->wdiag[i], d->phi0[i], d->vn0[i], d->mu[i], n0, dt,
                       hth, o->sigma, b, w->vs, hc);
  return hth;
}

/* the depth contact i settles to under normal impulse n (N s) at threshold b */
static double contact_depth(const sc_model* m, const sc_data* d, const step_work* w, int i,
                            int use_hc, double n, double b) {
  double R[3], vh[3], hc[SC_HC_NPAR];
  const double th = contact_law(m, d, w, i, b, 0.0, R, vh, use_hc ? hc : NULL);
  if (use_hc) return hc[SC_HC_K] > 0 ? n * th * th / (m->opt.dt * hc[SC_HC_K]) : (double)INFINITY;
  return n * th * (m->opt.dt + d->ctaud[i]) * R[2];
}

/* the near-rigid threshold that keeps contact i within its depth bound
 * under normal impulse n */
static double beta_for_load(const sc_model* m, const sc_data* d, const step_work* w, int i,
                            int use_hc, double n) {
  const sc_options* o = &m->opt;
  const double b0 = (o->beta == 0.0 && isinf(d->ck[i])) ? 1.0 : o->beta;
  if (!(o->near_rigid_depth > 0) || !(n > 0) || b0 == 0.0) return b0;
  const double x0 = contact_depth(m, d, w, i, use_hc, n, b0);
  if (!(x0 > w->xmax[i])) return b0;
  /* x is proportional to beta^2 while the cap holds; where the compliant
   * law takes over below it, a lower beta changes nothing */
  const double b = b0 * sqrt(w->xmax[i] / x0), lo = fmin(o->beta_min, b0);
  return b > lo ? b : lo;
}

/* each contact's matching contact of the previous step (w->match) and its
 * impulse in this contact's frame (w->gprev) */
static void contact_match(const sc_data* d, step_work* w, int nc) {
  for (int i = 0; i < nc; i++) {
    const sc_contact* c = &d->contact[i];
    const int j = match_prev(w, c, w->crel + 3 * i);
    w->match[i] = j;
    for (int r = 0; r < 3; r++) {
      double g = 0.0;
      if (j >= 0)
        for (int k = 0; k < 3; k++) g += c->frame[3 * r + k] * w->prev_imp[3 * j + k];
      w->gprev[3 * i + r] = g;
    }
  }
}

/* Every contact's law at the step start (R, vhat or w->hc), from the
 * previous step's matching contacts (contact_match) */
static void contact_params(const sc_model* m, sc_data* d, step_work* w, int nc, int use_hc) {
  const sc_options* o = &m->opt;
  for (int i = 0; i < nc; i++) {
    const sc_contact* c = &d->contact[i];
    const double np = w->gprev[3 * i + 2];
    w->nload[i] = np > 0.0 ? np : 0.0;
    const double ra = m->geom_rbound[c->geom[0]], rb = m->geom_rbound[c->geom[1]];
    w->xmax[i] = o->near_rigid_depth * (ra < rb ? ra : rb);
    w->beta_c[i] = beta_for_load(m, d, w, i, use_hc, w->nload[i]);
    /* the lagged bound: the normal impulse the contact carried last step
     * (from the state for a new one, and refine_contacts then moves it) */
    w->n0[i] = w->match[i] >= 0 && o->contact_passes > 0 ? w->nload[i] : -1.0;
    w->theta_c[i] = contact_law(m, d, w, i, w->beta_c[i], w->n0[i], d->R + 3 * i,
                                d->vhat + 3 * i, use_hc ? w->hc + SC_HC_NPAR * i : NULL);
  }
}

/* The positions advance with v^theta_vq, but a contact whose law is
 * written at theta = 1 sets the end-of-step normal velocity: under the
 * midpoint rule a body landing at speed u on such a contact moves u dt / 2
 * into it during the impact step, and is pushed out over the next steps
 * (2.6 mm for a sphere dropped 0.4 m at dt = 1 ms, against 19 um under
 * implicit Euler).  The normal impulse of such an impact, dgamma_i =
 * gamma_n,i (with the part of order dt that carries the weight), is
 * applied to the positions in full, as at the step start:
 *   v_q = theta_vq v1 + (1 - theta_vq) (v0 + A^-1 J^T dgamma),
 * so that the gap moves by about dt vn1 in the impact step, as the law
 * assumed.  Only impacts take it: contacts whose midpoint penetration
 * -vn0 dt / 2 would exceed their near-rigid depth bound and that approach
 * faster than the smooth forces alone accelerate them in a step (a kick
 * moves the positions alone, and applied to the small normal velocities of
 * a resting box it walks the box down an incline).  A resting or sliding
 * contact gets nothing: the scheme and its order are unchanged there.
 * Returns 0 when no contact had an impact. */
static int contact_kick(const sc_model* m, sc_data* d, const step_work* w, int nc, double* kick,
                        double* tmp) {
  const int nv = m->nv;
  const double dt = m->opt.dt;
  int any = 0;
  for (int i = 0; i < nv; i++) kick[i] = 0;
  for (int i = 0; i < nc; i++) {
    /* an impact: the midpoint's penetration u dt / 2 would exceed the depth
     * a near-rigid contact may have (resting contacts approach at far less) */
    if (w->theta_c[i] != 1.0 || !(-d->vn0[i] * dt > 2.0 * w->xmax[i])) continue;
    /* ... and faster than the smooth forces alone accelerate it in a step
     * (vn* - vn0): a resting contact, which approaches at that rate, would
     * otherwise settle on a hovering fixed point (gap g dt^2 / 2, v = -g dt / 2) */
    double vns = 0.0;
    for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++)
      vns += d->Jc[3 * (size_t)q + 2] * d->vstar[d->jcol[q]];
    if (!(-d->vn0[i] > fabs(vns - d->vn0[i]))) continue;
    const double dg = d->impulse[3 * i + 2];
    if (!(dg > 0)) continue;
    any = 1;
    for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) kick[d->jcol[q]] += d->Jc[3 * (size_t)q + 2] * dg;
  }
  if (any) blk_solve(m, d->Afac, kick, tmp);
  return any;
}

/* After a solve of nc contacts (global indices gidx[l], NULL: l) with
 * impulses gamma: a contact deeper than its bound under its own normal
 * impulse gets a lower beta, a lagged contact whose normal impulse left its
 * friction bound gets the bound n0 = n (see above); their laws are
 * rewritten into the problem's arrays R, vhat / hc (local numbering).
 * Returns 1 when a law changed (the problem must be solved again). */
static int refine_contacts(const sc_model* m, const sc_data* d, const step_work* w, int nc,
                           const int* gidx,
                           const double* gamma, double* R, double* vhat, double* hc) {
  const sc_options* o = &m->opt;
  const int lagged = hc && o->contact_model == SC_MODEL_LAGGED;
  int changed = 0;
  for (int l = 0; l < nc; l++) {
    const int i = gidx ? gidx[l] : l;
    const double n = gamma[3 * l + 2];
    int redo = 0;
    if (o->near_rigid_depth > 0 && w->beta_c[i] > o->beta_min &&
        contact_depth(m, d, w, i, hc != NULL, n, w->beta_c[i]) > DEPTH_SLACK * w->xmax[i]) {
      const double b = beta_for_load(m, d, w, i, hc != NULL, n);
      if (b < w->beta_c[i]) w->beta_c[i] = b, redo = 1;
    }
    if (lagged && d->mu[i] > 0) {
      /* Coulomb's law with the step's own normal impulse n: a saturated
       * (sliding) contact must have its bound at mu n, a sticking one must
       * need no more than mu n; a sticking contact within mu n is right
       * whatever its bound (n0 only caps it) */
      const double n0 = hc[SC_HC_NPAR * l + SC_HC_N0], mu = d->mu[i];
      const double ft = hypot(gamma[3 * l], gamma[3 * l + 1]);
      const int saturated = ft >= (1.0 - TRESCA_TOL) * mu * n0;
      if (w->match[i] < 0 &&
          (saturated ? fabs(n - n0) > TRESCA_TOL * fmax(n, n0) : ft > (1.0 + TRESCA_TOL) * mu * n))
        w->n0[i] = n, redo = 1;
    }
    if (redo) {
      contact_law(m, d, w, i, w->beta_c[i], w->n0[i], R + 3 * l, vhat + 3 * l,
                  hc ? hc + SC_HC_NPAR * l : NULL);
      changed = 1;
    }
  }
  return changed;
}

static void add_stats(sc_solver_stats* tot, const sc_solver_stats* st) {
  tot->iterations += st->iterations;
  tot->linesearch_evals += st->linesearch_evals;
  tot->residual = st->residual;
  tot->cost = st->cost;
  tot->status = st->status;
}

/* ---- contact islands ----
 * A is block diagonal over trees (cliques) and contact i couples only the
 * trees its columns of J touch, so the SAP cost is a sum of independent
 * costs, one per connected component of the graph "trees joined by a
 * contact" (an island), plus the quadratic 1/2 |v - v*|_A^2 of the trees no
 * contact touches, whose minimizer is v = v* exactly.  Each island is
 * solved on its own (its own Newton iteration, line search and stopping
 * test, ref/convex-contact.md 4), so an island of two resting boxes stops
 * after its own few iterations instead of following the largest one; tiny
 * islands take the dense path of a small workspace.  Islands are numbered
 * by their first contact; on one thread they are solved in that order, on
 * several (contact.threads) in any order, each with the buffers of the
 * thread that took it (solve_islands): the result does not depend on
 * anything but the inputs.  The statistics combine the islands in island
 * order: iterations and residual are the maxima, line-search evaluations
 * and cost the sums, the status the first failure.
 * The same holds for the LCP of solver_lcp: W = J A^-1 J^T is block
 * diagonal over islands (A^-1 is block diagonal over trees), so M and q of
 * lcp.c split into one LCP per island whose solutions, stacked, solve the
 * whole LCP, and vice versa.  Dense Lemke costs O(n^2) per pivot in the
 * n = nc (d + 2) unknowns, so islands of k contacts cost about
 * sum k_i^3 instead of (sum k_i)^3.  The iteration figure is then the
 * most pivots any island took, the residual the largest of the islands'
 * (each relative to its island's data); an island Lemke fails on keeps
 * v = v* and zero impulses while the others keep their solutions.  The LCP
 * runs on one thread (one Lemke workspace). */

static int uf_root(int* uf, int x) {
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

/* group the contacts into islands: w->cptr/clist (contacts of island k,
 * ascending), w->tptr/tlist (its cliques, ascending); returns the number of
 * islands.  Contacts that touch no dof (both bodies fixed) form one island
 * without trees. */
static int find_islands(const sc_model* m, const sc_data* d, step_work* w, int nc) {
  const int ncl = m->nclique;
  int* uf = w->uf;
  for (int c = 0; c <= ncl; c++) uf[c] = c; /* ncl: the "no dof" set */
  for (int i = 0; i < nc; i++) {
    if (d->jptr[i] == d->jptr[i + 1]) continue;
    int a = uf_root(uf, m->dof_clique[d->jcol[d->jptr[i]]]);
    for (int q = d->jptr[i] + 1; q < d->jptr[i + 1]; q++) {
      const int b = uf_root(uf, m->dof_clique[d->jcol[q]]);
      if (a < b) uf[b] = a;
      else if (b < a) uf[a] = b, a = b;
    }
  }
  /* island numbers in the order of the first contact; tptr doubles as the
   * root -> island map while counting */
  int* num = w->tptr;
  for (int c = 0; c <= ncl; c++) num[c] = -1;
  int nisl = 0;
  for (int i = 0; i < nc; i++) {
    const int r = d->jptr[i] == d->jptr[i + 1] ? ncl : uf_root(uf, m->dof_clique[d->jcol[d->jptr[i]]]);
    if (num[r] < 0) num[r] = nisl++;
    w->island_of[i] = num[r];
  }
  for (int k = 0; k <= nisl; k++) w->cptr[k] = 0;
  for (int i = 0; i < nc; i++) w->cptr[w->island_of[i] + 1]++;
  for (int k = 0; k < nisl; k++) w->cptr[k + 1] += w->cptr[k];
  for (int i = 0; i < nc; i++) w->clist[w->cptr[w->island_of[i]]++] = i;
  for (int k = nisl; k > 0; k--) w->cptr[k] = w->cptr[k - 1];
  w->cptr[0] = 0;
  /* cliques per island: a clique's island is num[its root] */
  int* cisl = w->cisl;
  for (int c = 0; c < ncl; c++) cisl[c] = m->clique_dofnum[c] > 0 ? num[uf_root(uf, c)] : -1;
  int* tptr = w->isl_count; /* counts, then moved into w->tptr */
  for (int k = 0; k <= nisl; k++) tptr[k] = 0;
  for (int c = 0; c < ncl; c++)
    if (cisl[c] >= 0) tptr[cisl[c] + 1]++;
  for (int k = 0; k < nisl; k++) tptr[k + 1] += tptr[k];
  for (int k = 0; k <= nisl; k++) w->tptr[k] = tptr[k];
  for (int c = 0; c < ncl; c++)
    if (cisl[c] >= 0) w->tlist[tptr[cisl[c]]++] = c;
  return nisl;
}

/* Solve island k on the buffers and workspaces x of one thread: copy its
 * sub-problem out of d, solve it, and write its velocities and impulses
 * back into d (each island owns its dofs and contacts, so threads write
 * disjoint entries).  w->loc maps a global dof to its local index; only
 * island k's entries are written. */
static sc_solve_status solve_island(const sc_model* m, sc_data* d, const step_work* w,
                                    island_ws* x, int k, const double* guess,
                                    sc_contact_model model, const double* hc,
                                    sc_solver_stats* st) {
  /* trees, in clique order, numbered locally one after the other */
  int nt = 0, nvl = 0;
  size_t aoff = 0;
  x->sub_tree_ptr[0] = 0;
  for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) {
    const int c = w->tlist[e], n = m->clique_dofnum[c];
    const int* idx = m->clique_dofs + m->clique_dofadr[c];
    for (int a = 0; a < n; a++) {
      const int g = idx[a], l = nvl + a;
      w->loc[g] = l;
      x->sub_tree_dofs[l] = l;
      x->sub_vstar[l] = d->vstar[g];
      x->sub_v[l] = d->v[g];
      if (guess) x->sub_guess[l] = guess[g];
    }
    memcpy(x->sub_A + aoff, d->A + m->clique_blkadr[c], sizeof(double) * (size_t)n * n);
    aoff += (size_t)n * n;
    nvl += n;
    x->sub_tree_ptr[++nt] = nvl;
  }
  /* contacts, ascending */
  int ncl = 0, q = 0, any_match = 0;
  for (int e = w->cptr[k]; e < w->cptr[k + 1]; e++, ncl++) {
    const int i = w->clist[e];
    x->sub_jptr[ncl] = q;
    for (int g = d->jptr[i]; g < d->jptr[i + 1]; g++, q++) {
      x->sub_jcol[q] = w->loc[d->jcol[g]];
      memcpy(x->sub_J + 3 * (size_t)q, d->Jc + 3 * (size_t)g, 3 * sizeof(double));
    }
    memcpy(x->sub_R + 3 * ncl, d->R + 3 * i, 3 * sizeof(double));
    memcpy(x->sub_vhat + 3 * ncl, d->vhat + 3 * i, 3 * sizeof(double));
    x->sub_mu[ncl] = d->mu[i];
    x->sub_phi0[ncl] = d->phi0[i];
    if (hc) memcpy(x->sub_hc + SC_HC_NPAR * ncl, hc + SC_HC_NPAR * i, SC_HC_NPAR * sizeof(double));
    any_match |= guess && w->matched[i];
  }
  x->sub_jptr[ncl] = q;
  const sc_problem p = {nvl, ncl, nt, x->sub_tree_ptr, x->sub_tree_dofs, x->sub_A,
                        x->sub_vstar, x->sub_jptr, x->sub_jcol, x->sub_J, x->sub_R,
                        x->sub_vhat, x->sub_mu, x->sub_phi0, m->opt.dt,
                        model, hc ? x->sub_hc : NULL};
  /* solved, then again while refine_contacts changes a contact's law
   * (contact.passes), each pass from the last one's solution */
  sc_solve_status ss;
  const int c0 = w->cptr[k];
  sc_solver_stats one;
  for (int pass = 0;; pass++) {
    if (m->opt.solver == SC_SOLVER_LCP) {
      if (m->opt.lcp_warm_start)
        for (int e = c0; e < w->cptr[k + 1]; e++)
          w->pat_isl_in[e] = pass ? w->pat_isl_out[e] : w->pat_guess[w->clist[e]];
      ss = sc_lcp_solve_from(&p, m->opt.lcp_directions, 0, w->lcp,
                             m->opt.lcp_warm_start ? w->pat_isl_in + c0 : NULL,
                             w->pat_isl_out + c0, x->sub_v, x->sub_gamma, &one);
    } else {
      sc_sap_work* ws = nvl <= SMALL_NV && ncl <= SMALL_NC ? x->sap_small : x->sap;
      ss = sc_sap_solve_from(&p, w->sap_prm, ws, x->sub_v,
                             any_match && pass == 0 ? x->sub_guess : NULL, x->sub_gamma, &one);
    }
    if (pass == 0) *st = one;
    else add_stats(st, &one);
    if (ss != SC_SOLVE_OK || pass >= m->opt.contact_passes ||
        !refine_contacts(m, d, w, ncl, w->clist + c0, x->sub_gamma, x->sub_R, x->sub_vhat,
                         hc ? x->sub_hc : NULL))
      break;
  }
  if (m->opt.solver == SC_SOLVER_LCP)
    for (int e = c0; e < w->cptr[k + 1]; e++) w->pat_out[w->clist[e]] = w->pat_isl_out[e];
  for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) {
    const int c = w->tlist[e];
    for (int a = 0; a < m->clique_dofnum[c]; a++) {
      const int g = m->clique_dofs[m->clique_dofadr[c] + a];
      d->v[g] = x->sub_v[w->loc[g]];
    }
  }
  for (int e = w->cptr[k], l = 0; e < w->cptr[k + 1]; e++, l++)
    memcpy(d->impulse + 3 * w->clist[e], x->sub_gamma + 3 * l, 3 * sizeof(double));
  return ss;
}

/* One thread's share of a step's islands: take the next island of
 * w->isl_order until none is left.  An island past one that ended
 * cancelled or NaN is not solved (as a single thread in island order
 * would not reach it). */
static void island_worker(void* arg, int t) {
  island_job* job = arg;
  step_work* w = job->w;
  for (;;) {
    const int j = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
    if (j >= job->nisl) break;
    const int k = w->isl_order[j];
    sc_solver_stats* st = &w->isl_stats[k];
    if (k > atomic_load_explicit(&job->stop_at, memory_order_relaxed)) {
      st->status = SC_SOLVE_CANCELLED; /* not solved; never read (k > stop_at) */
      continue;
    }
    const sc_solve_status ss = solve_island(job->m, job->d, w, &w->iws[t], k, job->guess,
                                            job->model, job->hc, st);
    st->status = ss;
    if (ss == SC_SOLVE_CANCELLED || ss == SC_SOLVE_NAN) {
      int cur = atomic_load_explicit(&job->stop_at, memory_order_relaxed);
      while (k < cur && !atomic_compare_exchange_weak(&job->stop_at, &cur, k)) {
      }
    }
  }
}

/* Solve every island (see above); d->v holds v0 on entry and the solution
 * on exit, d->impulse the impulses.  guess: v* + A^-1 J^T gamma_prev (nv)
 * or NULL.  v0: the velocities at the step start (nv).
 * With several threads (contact.threads) the islands are handed out
 * largest first (by contact count) to the pool's threads, each with its own
 * buffers and workspaces; an island's result depends only on its own
 * sub-problem, and the statistics are combined afterwards in island order,
 * so every output is bit-identical to a single thread's.  When an island
 * ends cancelled or NaN, the islands after it in island order get v0 and
 * zero impulses whether or not a thread had solved them. */
static sc_solve_status solve_islands(const sc_model* m, sc_data* d, step_work* w, int nc,
                                     const double* guess, sc_contact_model model,
                                     const double* hc, const double* v0) {
  const int nv = m->nv;
  const int nisl = find_islands(m, d, w, nc);
  sc_solver_stats tot = {0, 0, 0.0, 0.0, SC_SOLVE_OK};
  d->nisland = nisl;
  /* the LCP workspace is sized once: refuse before solving anything when
   * an island does not fit (sc_step names it) */
  if (m->opt.solver == SC_SOLVER_LCP)
    for (int k = 0; k < nisl; k++)
      if (w->cptr[k + 1] - w->cptr[k] > w->lcp_capacity) {
        w->lcp_big = k;
        tot.status = SC_SOLVE_CAPACITY;
        d->contact_stats = tot;
        return tot.status;
      }
  /* trees no contact touches: v = v* */
  for (int i = 0; i < nv; i++) w->loc[i] = -1;
  for (int k = 0; k < nisl; k++)
    for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) {
      const int c = w->tlist[e];
      for (int a = 0; a < m->clique_dofnum[c]; a++) w->loc[m->clique_dofs[m->clique_dofadr[c] + a]] = 0;
    }
  for (int i = 0; i < nv; i++)
    if (w->loc[i] < 0) d->v[i] = d->vstar[i];
  /* the LCP has one Lemke workspace: one thread */
  const int threaded = w->pool && nisl > 1 && m->opt.solver != SC_SOLVER_LCP;
  if (threaded) {
    /* largest first: a counting sort on the contact count, descending,
     * ties in island order */
    int* cnt = w->isl_count;
    for (int c = 0; c <= nc; c++) cnt[c] = 0;
    for (int k = 0; k < nisl; k++) cnt[w->cptr[k + 1] - w->cptr[k]]++;
    for (int c = nc, acc = 0; c >= 0; c--) {
      const int n = cnt[c];
      cnt[c] = acc;
      acc += n;
    }
    for (int k = 0; k < nisl; k++) w->isl_order[cnt[w->cptr[k + 1] - w->cptr[k]]++] = k;
  } else
    for (int k = 0; k < nisl; k++) w->isl_order[k] = k;
  island_job* job = &w->job;
  job->m = m;
  job->d = d;
  job->w = w;
  job->guess = guess;
  job->model = model;
  job->hc = hc;
  job->nisl = nisl;
  atomic_store(&job->next, 0);
  atomic_store(&job->stop_at, nisl);
  if (threaded) sc_pool_run(w->pool, island_worker, job);
  else island_worker(job, 0);
  /* combine in island order, up to and including a cancelled or NaN island */
  const int last = atomic_load(&job->stop_at);
  for (int k = 0; k < nisl && k <= last; k++) {
    const sc_solver_stats* st = &w->isl_stats[k];
    const sc_solve_status ss = st->status;
    if (st->iterations > tot.iterations) tot.iterations = st->iterations;
    tot.linesearch_evals += st->linesearch_evals;
    if (st->residual > tot.residual) tot.residual = st->residual;
    tot.cost += st->cost;
    if (tot.status == SC_SOLVE_OK && ss != SC_SOLVE_OK) tot.status = ss;
  }
  for (int k = last + 1; k < nisl; k++) {
    for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) {
      const int c = w->tlist[e];
      for (int a = 0; a < m->clique_dofnum[c]; a++) {
        const int g = m->clique_dofs[m->clique_dofadr[c] + a];
        d->v[g] = v0[g];
      }
    }
    for (int e = w->cptr[k]; e < w->cptr[k + 1]; e++)
      memset(d->impulse + 3 * w->clist[e], 0, 3 * sizeof(double));
  }
  d->contact_stats = tot;
  return tot.status;
}

/* the error for the island solve_islands refused (w->lcp_big) */
static sc_status lcp_island_too_large(const sc_model* m, const sc_data* d, const step_work* w,
                                      sc_error* err) {
  const int k = w->lcp_big, nc = w->cptr[k + 1] - w->cptr[k], dirs = m->opt.lcp_directions;
  int nvl = 0;
  for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) nvl += m->clique_dofnum[w->tlist[e]];
  return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                      "t = %.9g s: the dense LCP of a contact island of %d contacts (%d trees, "
                      "%d velocities; %d cone edges) would need %.0f MiB, more than its limit "
                      "of %.4g MiB (room for %d contacts per island); use --solver newton, "
                      "fewer contact.lcp.directions, or a larger contact.lcp.max_memory",
                      d->time, nc, w->tptr[k + 1] - w->tptr[k], nvl, dirs,
                      (double)sc_lcp_work_bytes(m->nv, nc, dirs) / 1048576.0,
                      m->opt.lcp_max_memory, w->lcp_capacity);
}

/* the deepest contact of d's contacts, in m and relative to the smaller
 * geometry's bounding radius (the per-step penetration figures) */
static void contact_depths(const sc_model* m, sc_data* d) {
  d->max_depth = d->max_depth_frac = d->frac_depth = 0;
  d->depth_pair[0] = d->depth_pair[1] = 0;
  for (int i = 0; i < d->ncon; i++) {
    const sc_contact* c = &d->contact[i];
    const double x = -c->dist;
    if (!(x > 0)) continue;
    const double ra = m->geom_rbound[c->geom[0]], rb = m->geom_rbound[c->geom[1]];
    const double f = x / (ra < rb ? ra : rb);
    if (x > d->max_depth) d->max_depth = x;
    if (f > d->max_depth_frac) {
      d->max_depth_frac = f;
      d->frac_depth = x;
      d->depth_pair[0] = c->body[0];
      d->depth_pair[1] = c->body[1];
    }
  }
}

/* One contact solve of the step's problem p (the SAP warm guess g0 or
 * NULL): the LCP of the whole step, the Newton solve of the whole step
 * (with a solver trace), or the islands.  The whole-problem solves get the
 * same refinement passes as an island (solve_island). */
static sc_solve_status contact_solve(const sc_model* m, sc_data* d, step_work* w,
                                     const sc_problem* p, const double* g0, const double* v0) {
  const sc_options* o = &m->opt;
  const int nc = p->nc;
  if (o->solver == SC_SOLVER_LCP && !w->lcp_whole)
    return solve_islands(m, d, w, nc, NULL, p->model, p->hc, v0);
  if (o->solver == SC_SOLVER_NEWTON && !d->solver_trace)
    return solve_islands(m, d, w, nc, g0, p->model, p->hc, v0);
  /* one problem: the trace follows one Newton solve (the last pass's) */
  sc_solver_stats one;
  sc_solve_status ss;
  for (int pass = 0;; pass++) {
    if (o->solver == SC_SOLVER_LCP) {
      if (pass)
        for (int i = 0; i < nc; i++) w->pat_guess[i] = w->pat_out[i];
      ss = sc_lcp_solve_from(p, o->lcp_directions, 0, w->lcp,
                             o->lcp_warm_start || pass ? w->pat_guess : NULL, w->pat_out, d->v,
                             d->impulse, &one);
    } else {
      /* the trace keeps every solve of the step, so that its rows add up to
       * the step's iterations */
      sc_sap_params prm = pass ? w->sap_relin : *w->sap_prm;
      prm.trace_append = pass > 0 || d->relinearizations > 0;
      /* (a pass takes at least one Newton step here, so that the trace's
       * last row of the step is its final residual) */
      ss = sc_sap_solve_from(p, &prm, w->sap, d->v, pass ? NULL : g0, d->impulse, &one);
    }
    if (pass == 0) d->contact_stats = one;
    else add_stats(&d->contact_stats, &one);
    if (ss != SC_SOLVE_OK || pass >= o->contact_passes ||
        !refine_contacts(m, d, w, nc, NULL, d->impulse, d->R, d->vhat, p->hc ? w->hc : NULL))
      break;
  }
  d->nisland = 1;
  return ss;
}

/* The two-stage scheme solves the contact problem on the linearization
 *   m(v) ~ A (v - v*),   m(v*) = 0,
 * whose A leaves out the velocity-product (Coriolis, gyroscopic) and
 * configuration terms of dm/dv (A = dm/dv + O(dt), seed 000 proposition
 * 1).  With a contact impulse of O(dt) every step (a body resting or
 * sliding on something) v1 - v* = O(dt), the linearization error
 * (dm/dv - A)(v1 - v*) is O(dt^2) per step, and the scheme is first
 * order whatever theta: a spinning top on a frictionless floor, whose
 * centre of mass must not move sideways, drifts at O(dt) (the published
 * scheme does the same).  Newton's method on the whole step fixes it:
 * with m evaluated at the contact solution v1,
 *   m(v) ~ m(v1) + A1 (v - v1) = A1 (v - v*1),   v*1 = v1 - A1^-1 m(v1),
 * and the contact problem is solved again with (A1, v*1) and the same
 * contact laws.  One such step makes the error O(dt^3) per step (second
 * order under the midpoint rule); its fixed point solves the discrete
 * momentum balance of the scheme exactly.  The linearization error at v1,
 *   e = m(v1) - A (v1 - v*),
 * measured in the free-motion stage's scaled norm, decides: the step stops
 * once |D e| <= contact.tolerance times the momentum scale (the contact
 * solve is no more accurate than that) or after integrator.relinearize
 * steps.  Schemes explicit in v (theta_q = theta_v = 0) and affine models
 * have A = dm/dv exactly and never need it.
 * Returns 1 when v* and A were updated (solve again), 0 when e is small. */
static int relinearize_step(const sc_model* m, sc_data* d, const double* v0) {
  const int nv = m->nv;
  double* res = scr(m, d, SCR_RES);
  double* y = scr(m, d, SCR_GUESS); /* free until the caller's next solve */
  /* y = A (v1 - v*) with the A of the last solve (res as scratch:
   * eval_residual uses the other slots) */
  for (int i = 0; i < nv; i++) res[i] = d->v[i] - d->vstar[i];
  blk_gemv(m, d->A, res, y);
  double scale;
  eval_residual(m, d, v0, d->v, res, &scale); /* res = m(v1); M, A at q^theta(v1) */
  double e2 = 0;
  for (int i = 0; i < nv; i++) {
    const double e = res[i] - y[i];
    e2 += e * e / blk_diag(m, d->M, i);
  }
  if (!(sqrt(e2) > m->opt.newton_tol * scale)) return 0;
  if (blk_factor(m, d->A, d->Afac) != 0) return 0;
  blk_solve(m, d->Afac, res, scr(m, d, SCR_TMP));
  for (int i = 0; i < nv; i++) d->vstar[i] = d->v[i] - res[i];
  return 1;
}

/* The contact Jacobian at the step's mid configuration.  The scheme
 * applies the contact impulse through J(q0) (seed 000, eq. scheme_momentum)
 * while the other forces act at q^theta: a body pivoting on a corner (a
 * tall box tipping, a rod after its impact) has the lever arm of its
 * support frozen at the step start while it turns by omega dt per step, a
 * first-order error whatever theta (the tipping box's energy error falls
 * 2.4e-4, 2.4e-3, 2.0e-2 at dt = 0.1, 1, 10 ms under the midpoint rule,
 * results/validation.md).  Here the contacts detected at q0 (the set and
 * their gaps phi0 stay) are moved to the mid configuration predicted from
 * the step-start velocity,
 *   q~ = q0 + theta_q dt N(q~) v0,
 * by running each pair's narrow phase there (sc_col_reposition: a corner
 * follows its body, the point under a sphere follows the centre), and J and
 * vc0 = J v0 are evaluated at q~.  In persistent contact v1 - v0 = O(dt),
 * so J(q~) - J(q^theta(v1)) = O(dt^2), and the contact impulse, itself
 * O(dt) per step there, is applied with an O(dt^3) error: the step stays
 * second order, with no iteration and nothing but (q0, v0) (a run continued
 * from a recorded state repeats it).  Schemes with theta_q = 0 evaluate
 * everything at q0 anyway. */
static void midstep_contacts(const sc_model* m, sc_data* d, const double* v0) {
  const int nv = m->nv;
  const sc_options* o = &m->opt;
  double* qdot = d->scratch + 8 * (size_t)nv;
  mid_positions(m, d->q, v0, o->theta_q, o->dt, d->qtheta, qdot);
  sc_dyn_kinematics(m, d, d->qtheta);
  sc_col_reposition(m, d);
  sc_contact_jacobian(m, d);
  sc_contact_velocity(m, d, v0, d->vc0);
}

/* contacts at the current positions (kinematics must be current) */
static void detect(const sc_model* m, sc_data* d) {
  int dropped = 0;
  sc_col_detect(m, d, &dropped);
  if (dropped) d->warning[SC_WARN_NCON]++;
}

sc_status sc_forward(const sc_model* m, sc_data* d, sc_error* err) {
  d->damper_power = state_quantities(m, d);
  detect(m, d);
  sc_contact_jacobian(m, d);
  sc_contact_velocity(m, d, d->v, d->vc);
  for (int i = 0; i < d->ncon; i++) {
    d->slip[i] = hypot(d->vc[3 * i], d->vc[3 * i + 1]);
    d->impulse[3 * i] = d->impulse[3 * i + 1] = d->impulse[3 * i + 2] = 0;
  }
  memset(&d->contact_stats, 0, sizeof d->contact_stats);
  if (d->solver_trace) d->solver_trace->n = 0;
  contact_depths(m, d);
  sc_status st = guard_state(m, d, err);
  if (st == SC_OK) st = guard_penetration(m, d, err);
  return st;
}

sc_status sc_step(const sc_model* m, sc_data* d, sc_error* err) {
  double t0 = now_seconds();
  int nv = m->nv;
  const sc_options* o = &m->opt;
  double dt = o->dt;
  double* v0 = scr(m, d, SCR_V0);
  memcpy(v0, d->v, sizeof(double) * (size_t)nv);

  /* 1 kinematics and contacts at q0: the contact set and J(q0) are frozen
   * for the step.  The previous step ended with the kinematics of this q
   * (state_quantities): recomputed only when q was changed since. */
  if (!sc_dyn_kinematics_current(m, d, d->q)) sc_dyn_kinematics(m, d, d->q);
  detect(m, d);
  sc_contact_jacobian(m, d);
  int nc = d->ncon;
  contact_depths(m, d);
  if (d->solver_work) {
    step_work* w = d->solver_work;
    for (int i = 0; i < nc; i++) {
      const sc_contact* c = &d->contact[i];
      const int b = c->body[1] > 0 ? c->body[1] : c->body[0];
      for (int k = 0; k < 3; k++) w->crel[3 * i + k] = c->pos[k] - d->xpos[3 * b + k];
    }
  }
  sc_status st = guard_penetration(m, d, err);
  if (st != SC_OK) return st;
  sc_contact_velocity(m, d, v0, d->vc0);

  /* 2-3 free motion and A */
  st = free_motion(m, d, err);
  if (st != SC_OK) return st;
  if (nc > 0) {
    contact_match(d, d->solver_work, nc);
    if (o->midstep_jacobian && o->theta_q > 0) midstep_contacts(m, d, v0);
  }

  /* 4 contact: min l(v) (SAP) or the polyhedral-cone LCP, warm started at v0 */
  memset(&d->contact_stats, 0, sizeof d->contact_stats);
  if (d->solver_trace) d->solver_trace->n = 0;
  d->nisland = 0;
  d->relinearizations = 0;
  if (nc == 0) {
    memcpy(d->v, d->vstar, sizeof(double) * (size_t)nv);
    if (d->solver_work) ((step_work*)d->solver_work)->nprev = 0;
  } else {
    step_work* w = d->solver_work;
    sc_problem p = {nv, nc, w->ntree, w->tree_ptr, m->clique_dofs, d->A, d->vstar,
                    d->jptr, d->jcol, d->Jc, d->R, d->vhat, d->mu, d->phi0, dt,
                    SC_MODEL_SAP, NULL};
    st = sc_sap_delassus_problem(&p, w->sap, d->wdiag);
    if (st != SC_OK)
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: A is not positive definite in the contact stage",
                          d->time);
    for (int i = 0; i < nc; i++) d->vn0[i] = d->vc0[3 * i + 2];
    /* Hunt-Crossley models (sap_model.c) for the newton solver; the
     * stiction tolerance is SAP's creep estimate sigma dt g, so that both
     * models creep alike */
    const int use_hc = o->contact_model != SC_MODEL_SAP && o->solver == SC_SOLVER_NEWTON;
    if (use_hc) {
      for (int i = 0; i < nc; i++) {
        const int a = d->contact[i].geom[0], b = d->contact[i].geom[1];
        w->hcd[i] = sc_col_combine_dissipation(m->geom_stiffness[a], m->geom_hc_dissipation[a],
                                               m->geom_stiffness[b], m->geom_hc_dissipation[b]);
      }
      p.model = o->contact_model;
      p.hc = w->hc;
    }
    contact_params(m, d, w, nc, use_hc);
    if (o->solver == SC_SOLVER_LCP && w->lcp_whole && nc > w->lcp_capacity) {
      d->contact_stats.status = SC_SOLVE_CAPACITY;
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: the dense LCP for %d contacts (%d cone edges) would "
                          "need %.0f MiB, more than its limit of %.4g MiB (room for %d "
                          "contacts); use --solver newton, fewer contact.lcp.directions, or a "
                          "larger contact.lcp.max_memory",
                          d->time, nc, o->lcp_directions,
                          (double)sc_lcp_work_bytes(nv, nc, o->lcp_directions) / 1048576.0,
                          o->lcp_max_memory, w->lcp_capacity);
    }
    for (int i = 0; i < nc; i++) w->pat_out[i] = 0u;
    if (o->solver == SC_SOLVER_LCP && o->lcp_warm_start) lcp_guess(w, nc);
    /* d->v still holds v0; the previous impulses give the second guess
     * (d->vc is free until after the solve) */
    double* guess = scr(m, d, SCR_GUESS);
    const double* g0 = NULL;
    if (o->solver == SC_SOLVER_NEWTON && warm_guess(m, d, w, nc, d->vc, guess, scr(m, d, SCR_TMP)))
      g0 = guess;
    sc_solve_status ss = contact_solve(m, d, w, &p, g0, v0);
    if (ss == SC_SOLVE_CAPACITY) return lcp_island_too_large(m, d, w, err);
    /* re-linearize the momentum balance about the contact solution v1 and
     * solve the contact problem again (see relinearize_step) */
    const int relin = !(o->theta_q == 0 && o->theta_v == 0) && !m->free_motion_affine;
    for (int r = 0; relin && ss == SC_SOLVE_OK && r < o->relinearize; r++) {
      if (!relinearize_step(m, d, v0)) break;
      d->relinearizations++;
      memcpy(guess, d->v, sizeof(double) * (size_t)nv);
      sc_solver_stats first = d->contact_stats;
      /* the correction A1^-1 e may lie within the contact tolerance of v1:
       * at least one Newton step takes it */
      w->sap_prm = &w->sap_relin;
      ss = contact_solve(m, d, w, &p, guess, v0);
      w->sap_prm = &w->sap_params;
      first.iterations += d->contact_stats.iterations;
      first.linesearch_evals += d->contact_stats.linesearch_evals;
      first.residual = d->contact_stats.residual;
      first.cost = d->contact_stats.cost;
      first.status = d->contact_stats.status;
      d->contact_stats = first;
      if (ss == SC_SOLVE_CAPACITY) return lcp_island_too_large(m, d, w, err);
    }
    if (ss == SC_SOLVE_CANCELLED)
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: interrupted during the contact solve", d->time);
    remember_contacts(d, w, nc);
    if (ss != SC_SOLVE_OK) {
      d->warning[SC_WARN_CONTACT]++;
      if (o->on_failure == SC_ON_FAILURE_ABORT || ss == SC_SOLVE_NAN)
        return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                            "t = %.9g s: %s contact solver failed (status %d: %s) after %d "
                            "iterations, residual %.3g, %d contacts",
                            d->time, o->solver == SC_SOLVER_LCP ? "lcp" : "newton", (int)ss,
                            sc_solve_status_name(ss), d->contact_stats.iterations,
                            d->contact_stats.residual, nc);
    }
    /* slip after the step, and the work of the impulses over the step,
     * W = gamma . (vc0 + vc) / 2 (see the header), normal and friction
     * parts apart */
    sc_contact_velocity(m, d, d->v, d->vc);
    double wn = 0, wt = 0;
    for (int i = 0; i < nc; i++) {
      const double* g = d->impulse + 3 * i;
      d->slip[i] = hypot(d->vc[3 * i], d->vc[3 * i + 1]);
      wt += g[0] * 0.5 * (d->vc0[3 * i] + d->vc[3 * i]) +
            g[1] * 0.5 * (d->vc0[3 * i + 1] + d->vc[3 * i + 1]);
      wn += g[2] * 0.5 * (d->vc0[3 * i + 2] + d->vc[3 * i + 2]);
    }
    d->e_normal -= wn;
    d->e_friction -= wt;
    d->e_contact = d->e_normal + d->e_friction;
  }

  /* 5 positions: q = q0 + dt N(q^tq) v^tvq */
  double* vq = scr(m, d, SCR_VQ);
  double* qdot = d->scratch + 8 * (size_t)nv;
  for (int i = 0; i < nv; i++) vq[i] = o->theta_vq * d->v[i] + (1 - o->theta_vq) * v0[i];
  if (nc > 0 && o->theta_vq < 1) {
    double* kick = scr(m, d, SCR_GUESS);
    if (contact_kick(m, d, d->solver_work, nc, kick, scr(m, d, SCR_TMP)))
      for (int i = 0; i < nv; i++) vq[i] += (1 - o->theta_vq) * kick[i];
  }
  mid_positions(m, d->q, vq, o->theta_q, dt, d->qtheta, qdot);
  sc_dyn_qdot(m, d->qtheta, vq, qdot);
  for (int i = 0; i < m->nq; i++) d->q[i] += dt * qdot[i];
  sc_dyn_normalize_q(m, d->q);
  d->time = (double)(d->step + 1) * dt;
  d->step++;

  /* (energies still those of the previous state: finite) */
  if ((st = guard_state(m, d, err)) != SC_OK) return st;

  /* 6 energies of the new state; damper work by the trapezoidal rule */
  double p0 = d->damper_power;
  d->damper_power = state_quantities(m, d);
  d->e_damper += 0.5 * dt * (p0 + d->damper_power);
  d->wall_time = now_seconds() - t0;
  return guard_state(m, d, err);
}
