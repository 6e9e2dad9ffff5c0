/* prepare: the step's workspaces, sized once from the model and the
 * contact capacity (sc_sim_prepare), so that no step allocates: the
 * Newton solver's parameters and workspace, the LCP's, the islands'
 * (island/island.h), the contacts' memory of the previous step
 * (contact/match.h) and the per-contact arrays of the contact laws. */
#include "integrator/integrator.h"

#include <math.h>
#include <string.h>

#include "constraint/equality.h"
#include "constraint/tendon.h"
#include "core/core.h"
#include "dynamics/dynamics.h"
#include "integrator/work.h"
#include "solver_sap/sap_model.h"

/* contact.lcp.max_memory in bytes (MiB given; capped where size_t ends) */
static size_t lcp_max_bytes(const sc_model* m) {
  double b = m->opt.lcp_max_memory * 1048576.0;
  return b >= 0x1p62 ? (size_t)1 << 62 : (size_t)b;
}

static void step_work_free(void* p) {
  step_work* w = p;
  if (!w) return;
  sc_islands_free(w->isl); /* first: its threads may use w->sap */
  sc_sap_work_free(w->sap);
  sc_lcp_work_free(w->lcp);
  sc_free(w->tree_ptr);
  sc_free(w->trace_block);
  sc_contact_memory_free(&w->mem);
  sc_free(w->pat_guess);
  sc_free(w->row_prev);
  sc_contact_laws_free(&w->law);
  sc_free(w->matched);
  sc_free(w);
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

void sc_sim_copy(const sc_model* m, sc_data* dst, sc_data* src) {
  sc_data_copy(m, dst, src);
  step_work *a = dst->solver_work, *b = src->solver_work;
  if (!a || !b) return;
  const size_t ncap = (size_t)src->nprob_max + 1;
  sc_contact_memory_copy(&a->mem, &b->mem);
  /* the per-contact arrays of the laws (prepare's blocks) */
  memcpy(a->pat_guess, b->pat_guess, sizeof(uint32_t) * 2 * ncap);
  sc_contact_laws_copy(&a->law, &b->law);
  memcpy(a->matched, b->matched, sizeof(int) * 2 * ncap);
  memcpy(a->row_prev, b->row_prev, sizeof(double) * ((size_t)sc_rows_nslot(m) + 1));
  a->lcp_whole = b->lcp_whole;
  if (a->trace_block && b->trace_block) {
    const size_t cap = (size_t)b->trace.cap;
    memcpy(a->trace_block, b->trace_block, cap * (3 * sizeof(double) + 5 * sizeof(int)));
    a->trace.n = b->trace.n;
  }
  sc_islands_forget(b->isl);
  sc_islands_forget(a->isl);
}

void sc_sim_set_lcp_whole(sc_data* d, int whole) {
  step_work* w = d->solver_work;
  if (w) w->lcp_whole = whole != 0;
  for (int i = 0; i < 2; i++)
    if (d->adapt[i]) sc_sim_set_lcp_whole(d->adapt[i], whole);
}

void sc_sim_set_cancel(sc_data* d, const volatile sig_atomic_t* flag) {
  step_work* w = d->solver_work;
  if (!w) return;
  w->sap_params.cancel = flag;
  w->sap_relin.cancel = flag;
  sc_lcp_set_cancel(w->lcp, flag);
  for (int i = 0; i < 2; i++)
    if (d->adapt[i]) sc_sim_set_cancel(d->adapt[i], flag);
}

int sc_sim_cancelled(const sc_data* d) {
  const step_work* w = d->solver_work;
  return w && w->sap_params.cancel && *w->sap_params.cancel;
}

sc_status sc_sim_prepare(const sc_model* m, sc_data* d, sc_error* err) {
  return sc_sim_prepare_threads(m, d, m->opt.threads, err);
}

sc_status sc_sim_prepare_threads(const sc_model* m, sc_data* d, int threads, sc_error* err) {
  const sc_la_blocks cb = sc_model_cliques(m);
  int nv = m->nv;
  /* torsional and rolling friction live in the convex models' cones
   * (constraint/contact_law.c); the polyhedral LCP has none */
  if (m->cone_tails && m->opt.solver == SC_SOLVER_LCP)
    return sc_error_set(err, SC_ERR_SCENE, m->scene_path, 0, 0,
                        "torsional_friction and rolling_friction need the newton solver "
                        "(the LCP's polyhedral cone has no torsional or rolling edges)");
  if (!d->solver_work) {
    step_work* w = sc_calloc(1, sizeof *w);
    if (!w) return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    d->solver_work = w;
    d->solver_work_free = step_work_free;
    sc_sap_params_default(&w->sap_params);
    w->sap_params.rel_tol = m->opt.contact_tol;
    w->sap_params.max_iterations = m->opt.contact_maxit;
    w->sap_params.cg_max_iterations = m->opt.cg_iterations;
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
    const int cols2 = 2 * d->chain_max < nv ? 2 * d->chain_max : nv;
    const int cols = d->ten_width > cols2 ? d->ten_width : cols2; /* (a tendon may touch more) */
    w->sap = sc_sap_work_create_sized(nv, d->nprob_max, m->nblk, cols, m->nrow_max - m->nrow_wide, d->cross_max);
    const size_t ncap = (size_t)d->nprob_max + 1;
    const int mem_ok = sc_contact_memory_init(&w->mem, d->ncon_max) == 0;
    w->pat_guess = sc_malloc(sizeof(uint32_t) * 2 * ncap);
    const int law_ok = sc_contact_laws_init(m, (int)ncap, &w->law) == 0;
    w->matched = sc_malloc(sizeof(int) * (2 * ncap + (size_t)m->nclique + 1));
    if (w->matched) w->kicked = w->matched + ncap, w->kick_clique = w->kicked + ncap;
    if (w->pat_guess) w->pat_out = w->pat_guess + ncap;
    w->row_prev = sc_calloc((size_t)sc_rows_nslot(m) + 1, sizeof(double));
    if (m->opt.output_solver_trace && m->opt.solver != SC_SOLVER_LCP &&
        trace_create(&w->trace, &w->trace_block,
                     m->opt.contact_maxit * (m->opt.contact_passes + 1) *
                         (m->opt.relinearize + 1)) == 0) {
      w->sap_params.trace = &w->trace;
      d->solver_trace = &w->trace;
    }
    /* a model with joint rows: at least one Newton step per solve.  A row's
     * law is quadratic between its bounds, so one step from any start lands
     * on its solution to round-off; a warm start that already meets the
     * tolerance would leave a servo's response off by up to the tolerance
     * (the PD step response drifts 1.2e-8 m from the scheme's closed form,
     * and the energy balance opens to 2e-6) */
    if (m->nrow_max > 0) w->sap_params.min_iterations = 1;
    w->sap_relin = w->sap_params;
    w->sap_relin.min_iterations = 1;
    w->sap_prm = &w->sap_params;
    if (m->opt.solver == SC_SOLVER_LCP) {
      int dirs = m->opt.lcp_directions;
      w->lcp_capacity = sc_lcp_capacity_within(nv, d->nprob_max, dirs, lcp_max_bytes(m));
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
    /* threads: contact.threads (0: one per online CPU); the LCP solves the
     * whole problem on one */
    w->nthreads = threads > 0 ? threads : sc_online_cpus();
    if (w->nthreads > SC_MAX_THREADS) w->nthreads = SC_MAX_THREADS;
    if (m->opt.solver == SC_SOLVER_LCP) w->nthreads = 1;
    int pool_failed = 0;
    if (w->sap && (m->opt.solver != SC_SOLVER_LCP || w->lcp))
      w->isl = sc_islands_create(m, d, w->nthreads, w->sap, w->lcp, w->lcp_capacity,
                                 &pool_failed);
    if (pool_failed)
      return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0,
                          "contact.threads: cannot start %d threads", w->nthreads);
    if (!w->isl || !w->sap || !w->tree_ptr || !mem_ok || !w->pat_guess || !law_ok ||
        !w->matched || !w->row_prev ||
        (m->opt.solver == SC_SOLVER_LCP && !w->lcp) ||
        (m->opt.output_solver_trace && m->opt.solver != SC_SOLVER_LCP && !w->trace_block))
      return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0,
                          "out of memory for the contact solver workspace "
                          "(nv = %d, contact capacity = %d, %d threads)", nv, d->ncon_max,
                          w->nthreads);
  }
  ((step_work*)d->solver_work)->mem.n = 0;
  memset(((step_work*)d->solver_work)->row_prev, 0,
         sizeof(double) * (size_t)(sc_rows_nslot(m) + 1));
  if (!d->eq_ready) {
    /* the equality constraints' parts taken at qpos0 */
    double* q = sc_malloc(sizeof(double) * (size_t)(m->nq + m->nv + 1));
    if (!q) return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    sc_eq_reference(m, d, q, q + m->nq);
    sc_free(q);
  }
  sc_dyn_kinematics(m, d, d->q);
  if (m->neq > 0) sc_eq_gaps(m, d, d->eq_gap);
  if (m->ntendon > 0) sc_tendon_lengths(m, d);
  sc_dyn_crba(m, d);
  int info = sc_la_blk_factor(&cb, d->M, d->Afac);
  d->afac_current = 0; /* M's factors, not A's */
  if (info > 0) {
    int dof = info - 1;
    return sc_error_set(err, SC_ERR_SCENE, m->scene_path, 0, 0,
                        "mass matrix is not positive definite at the initial state "
                        "(first singular velocity: %s); give the bodies on that joint "
                        "mass and inertia",
                        m->v_names[dof]);
  }
  /* error control's trial and backup (adaptive.c), made once here so that
   * no step allocates */
  for (int i = 0; i < 2 && m->opt.accuracy > 0 && !d->adapt_scratch; i++) {
    if (d->adapt[i]) continue;
    sc_data* x = NULL;
    sc_status st = sc_data_create(m, &x, err);
    if (st == SC_OK) {
      x->adapt_scratch = 1;
      st = sc_sim_prepare_threads(m, x, threads, err);
    }
    if (st != SC_OK) {
      sc_data_free(x);
      return st;
    }
    d->adapt[i] = x;
  }
  return SC_OK;
}
