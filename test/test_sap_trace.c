/* SAP per-iteration trace, the second warm-start guess and the slip
 * curvature of the Newton Hessian.
 *
 * - The trace of a solve has one row per Newton iteration, its last residual
 *   is the stats' residual, its region counts add up to the contacts, and
 *   the cost decreases monotonically (l is convex and the line search exact).
 * - The slip curvature changes only the Newton direction, so the minimizer
 *   is the same: checked against the exact-Hessian solve and against an
 *   independent stationarity test A (v - v*) = J^T P_F(y(v)).
 * - Under the lagged model (its own slip-curvature defaults, and contacts
 *   whose normal impulse is zero but whose friction mu n0 still acts) the
 *   same: the three Hessians reach one minimizer.
 * - The reversal curvature (lagged default) likewise: on the random lagged
 *   problems it changes the iteration (the counts differ) but not the
 *   minimizer; on one body sliding into stiction it reaches the root of the
 *   scalar balance equations (bisection) in fewer iterations.
 * - Chebyshev's correction (lagged default near the solution) likewise keeps
 *   the minimizer; on the point mass it raises the order of convergence of
 *   one iteration near the solution from 2 to 3.
 * - A second guess is taken only when its cost is lower.
 * - In a run, /solver/trace lands in the HDF5 file and agrees with
 *   /solver/iterations, /solver/residual and /contact/count row by row. */
#include "harness.h"
#include "problem_util.h"
#include "integrator/integrator.h"
#include "io_h5/io_h5.h"
#include "scene/scene.h"
#include "solver_sap/sap.h"
#include "constraint/law.h"
#include "solver_sap/sap_model.h"

#include <hdf5.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

enum { NV = 8, NC = 6 };

typedef struct rprob {
  double A[NV * NV], vstar[NV], J[3 * NC * NV], R[3 * NC], vhat[3 * NC], mu[NC], phi0[NC];
  double hc[SC_HC_NPAR * NC]; /* make_lagged_problem */
  sc_problem p;
} rprob;

/* A = B B^T + I; contacts pressed in (vhat_n > 0) with v* sliding them
 * tangentially, so the solution mixes stiction, sliding and separation */
static void make_problem(rprob* r, double sigma) {
  double B[NV * NV];
  for (int i = 0; i < NV * NV; i++) B[i] = urand();
  for (int i = 0; i < NV; i++)
    for (int j = 0; j < NV; j++) {
      double s = i == j ? 1.0 : 0.0;
      for (int k = 0; k < NV; k++) s += B[i + NV * k] * B[j + NV * k];
      r->A[i + NV * j] = s;
    }
  for (int i = 0; i < NV; i++) r->vstar[i] = urand();
  for (int i = 0; i < 3 * NC * NV; i++) r->J[i] = urand();
  for (int c = 0; c < NC; c++) {
    r->R[3 * c] = r->R[3 * c + 1] = sigma;
    r->R[3 * c + 2] = 0.02;
    r->mu[c] = 0.5;
    r->vhat[3 * c] = r->vhat[3 * c + 1] = 0.0;
    r->vhat[3 * c + 2] = 0.5 * urand();
    r->phi0[c] = 0.0;
  }
  static sc_problem_storage st; /* one problem at a time */
  r->p = dense_problem(&st, NV, NC, r->A, r->vstar, r->J, r->R, r->vhat, r->mu, r->phi0, 1e-3);
}

/* make_problem with lagged Hunt-Crossley contacts: penetrations x0 of
 * 0-0.2 mm (n0 > 0), stiffness 1e4-1e5 N/m, dissipation 0-10 s/m, dt 1 ms */
static void make_lagged_problem(rprob* r) {
  static const double k[NC] = {1e4, 3e4, 1e5, 1e4, 3e4, 1e5};
  static const double d[NC] = {0.0, 1.0, 10.0, 0.0, 1.0, 10.0}, wd[NC] = {1, 1, 1, 1, 1, 1};
  make_problem(r, 1e-3);
  for (int c = 0; c < NC; c++) r->phi0[c] = -1e-4 * (1.0 + urand());
  sc_law_hc(NC, k, d, wd, r->phi0, NULL, r->mu, 1e-3, 1.0, 1e-3, 1.0, 1e-5, r->hc);
  r->p.model = SC_MODEL_LAGGED;
  r->p.hc = r->hc;
}

typedef struct trace_buf {
  double res[100], alpha[100], dcost[100];
  int ls[100], sep[100], stick[100], slide[100], changed[100];
  sc_solver_trace t;
} trace_buf;

static void trace_init(trace_buf* b) {
  sc_solver_trace t = {100, 0, b->res, b->alpha, b->dcost, b->ls, b->sep, b->stick, b->slide,
                       b->changed};
  b->t = t;
}

static void test_trace_rows_match_stats(void) {
  srand(7);
  sc_sap_work* w = sc_sap_work_create(NV, NC);
  trace_buf tb;
  trace_init(&tb);
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  prm.trace = &tb.t;
  int total = 0, slid = 0, stuck = 0, changed = 0;
  for (int trial = 0; trial < 30; trial++) {
    rprob r;
    make_problem(&r, 1e-3);
    double v[NV] = {0}, g[3 * NC];
    sc_solver_stats st;
    long a0 = sc_alloc_count();
    ENSURE(sc_sap_solve(&r.p, &prm, w, v, g, &st) == SC_SOLVE_OK);
    ENSURE(sc_alloc_count() == a0);
    ENSURE(tb.t.n == st.iterations);
    ENSURE(st.iterations > 0);
    if (tb.t.n > 0) ENSURE(tb.t.residual[tb.t.n - 1] == st.residual);
    int ls = 0;
    for (int j = 0; j < tb.t.n; j++) {
      ENSURE(tb.t.n_separated[j] + tb.t.n_stick[j] + tb.t.n_slide[j] == NC);
      ENSURE(tb.t.n_changed[j] >= 0 && tb.t.n_changed[j] <= NC);
      ENSURE(tb.t.alpha[j] > 0.0 && tb.t.alpha[j] <= prm.alpha_max);
      /* convex cost, exact line search: no increase beyond round-off */
      ENSURE(tb.t.cost_decrease[j] >= -1e-12 * (1.0 + fabs(st.cost)));
      ls += tb.t.ls_evals[j];
      slid += tb.t.n_slide[j];
      stuck += tb.t.n_stick[j];
      changed += tb.t.n_changed[j];
    }
    ENSURE(ls == st.linesearch_evals);
    total += st.iterations;
    /* a solve from the solution: 0 iterations, 0 rows */
    ENSURE(sc_sap_solve(&r.p, &prm, w, v, g, &st) == SC_SOLVE_OK);
    ENSURE(st.iterations == 0 && tb.t.n == 0);
  }
  /* the problems do exercise every counter */
  ENSURE(slid > 0 && stuck > 0 && changed > 0);
  printf("  30 problems: %d iterations\n", total);
  /* a trace shorter than the solve keeps its first rows */
  {
    rprob r;
    make_problem(&r, 1e-3);
    double v[NV] = {0}, g[3 * NC];
    sc_solver_stats st;
    tb.t.cap = 1;
    ENSURE(sc_sap_solve(&r.p, &prm, w, v, g, &st) == SC_SOLVE_OK);
    ENSURE(st.iterations > 1 && tb.t.n == 1);
    tb.t.cap = 100;
  }
  sc_sap_work_free(w);
}

/* |A (v - v*) - J^T gamma| relative to |J^T gamma|, gamma from sc_sap_eval */
static double stationarity(const rprob* r, sc_sap_work* w, const double* v) {
  double l, grad[NV], gam[3 * NC], e = 0.0, s = 0.0;
  sc_sap_eval(&r->p, 1e-7, w, v, &l, grad, gam, NULL);
  for (int i = 0; i < NV; i++) {
    double jtg = 0.0;
    for (int k = 0; k < 3 * NC; k++) jtg += r->J[k + 3 * NC * i] * gam[k];
    double av = 0.0;
    for (int j = 0; j < NV; j++) av += r->A[i + NV * j] * (v[j] - r->vstar[j]);
    e += (av - jtg) * (av - jtg);
    s += jtg * jtg;
  }
  return sqrt(e / (s > 0 ? s : 1.0));
}

/* |A (v - v*) - J^T gamma| relative to max(|A v|, |J^T gamma|), the scale of
 * the solver's own test: the lagged friction impulses can be far smaller
 * than the momentum, where the bound above would ask for more than the
 * solver's tolerance */
static double stationarity_scaled(const rprob* r, sc_sap_work* w, const double* v) {
  double l, grad[NV], gam[3 * NC], e = 0.0, s = 0.0, a = 0.0;
  sc_sap_eval(&r->p, 1e-7, w, v, &l, grad, gam, NULL);
  for (int i = 0; i < NV; i++) {
    double jtg = 0.0, av = 0.0, avs = 0.0;
    for (int k = 0; k < 3 * NC; k++) jtg += r->J[k + 3 * NC * i] * gam[k];
    for (int j = 0; j < NV; j++) {
      av += r->A[i + NV * j] * v[j];
      avs += r->A[i + NV * j] * r->vstar[j];
    }
    e += (av - avs - jtg) * (av - avs - jtg);
    s += jtg * jtg;
    a += av * av;
  }
  return sqrt(e / fmax(fmax(s, a), 1e-300));
}

static void test_slip_curvature_same_minimizer(void) {
  srand(11);
  sc_sap_work* w = sc_sap_work_create(NV, NC);
  sc_sap_params exact, mod, always;
  sc_sap_params_default(&exact);
  exact.slip_curvature = 0.0;
  sc_sap_params_default(&mod);
  ENSURE(mod.slip_curvature > 0.0);
  always = mod;
  always.slip_curvature = 1.0;
  always.slip_curvature_until = 0.0; /* modified Hessian to the end: linear convergence */
  always.max_iterations = 2000;
  int it_exact = 0, it_mod = 0;
  for (int trial = 0; trial < 40; trial++) {
    rprob r;
    make_problem(&r, trial % 2 ? 1e-3 : 1e-2);
    double ve[NV] = {0}, vm[NV] = {0}, va[NV] = {0}, g[3 * NC];
    sc_solver_stats se, sm, sa;
    ENSURE(sc_sap_solve(&r.p, &exact, w, ve, g, &se) == SC_SOLVE_OK);
    ENSURE(sc_sap_solve(&r.p, &mod, w, vm, g, &sm) == SC_SOLVE_OK);
    ENSURE(sc_sap_solve(&r.p, &always, w, va, g, &sa) == SC_SOLVE_OK);
    it_exact += se.iterations;
    it_mod += sm.iterations;
    for (const double* v = ve; v; v = v == ve ? vm : v == vm ? va : NULL)
      ENSURE(stationarity(&r, w, v) <= 1e-5);
    for (int i = 0; i < NV; i++) {
      ENSURE_NEAR(vm[i], ve[i], 1e-5 * (1.0 + fabs(ve[i])));
      ENSURE_NEAR(va[i], ve[i], 1e-5 * (1.0 + fabs(ve[i])));
    }
  }
  printf("  40 problems: %d iterations exact Hessian, %d with slip curvature\n", it_exact, it_mod);
  sc_sap_work_free(w);
}

/* Lagged Hunt-Crossley contacts on the random problems: penetrations x0 of
 * 0-0.2 mm (n0 > 0) and v* separating some of them faster than x0 / dt, so
 * that iterates hold contacts with n = 0 whose lagged friction still slides
 * (region 3, which the slip curvature covers under this model). */
static void test_slip_curvature_lagged_same_minimizer(void) {
  srand(17);
  sc_sap_work* w = sc_sap_work_create(NV, NC);
  sc_sap_params exact, mod, always;
  sc_sap_params_default(&exact);
  exact.slip_curvature = 0.0;
  sc_sap_params_default(&mod);
  sc_sap_params_for_model(&mod, SC_MODEL_LAGGED);
  ENSURE(mod.slip_curvature == 0.2 && mod.slip_curvature_until == 1e-2);
  always = mod;
  always.slip_curvature = 1.0;
  always.slip_curvature_until = 0.0;
  always.max_iterations = 2000;
  trace_buf tb;
  trace_init(&tb);
  mod.trace = &tb.t;
  int it_exact = 0, it_mod = 0, sep_far = 0;
  for (int trial = 0; trial < 40; trial++) {
    rprob r;
    make_lagged_problem(&r);
    double ve[NV] = {0}, vm[NV] = {0}, va[NV] = {0}, g[3 * NC];
    sc_solver_stats se, sm, sa;
    ENSURE(sc_sap_solve(&r.p, &exact, w, ve, g, &se) == SC_SOLVE_OK);
    ENSURE(sc_sap_solve(&r.p, &mod, w, vm, g, &sm) == SC_SOLVE_OK);
    ENSURE(sc_sap_solve(&r.p, &always, w, va, g, &sa) == SC_SOLVE_OK);
    for (int j = 0; j + 1 < tb.t.n; j++) sep_far += tb.t.residual[j] > mod.slip_curvature_until &&
                                                    tb.t.n_separated[j] > 0;
    it_exact += se.iterations;
    it_mod += sm.iterations;
    for (const double* v = ve; v; v = v == ve ? vm : v == vm ? va : NULL)
      ENSURE(stationarity_scaled(&r, w, v) <= 1e-5);
    for (int i = 0; i < NV; i++) {
      ENSURE_NEAR(vm[i], ve[i], 1e-5 * (1.0 + fabs(ve[i])));
      ENSURE_NEAR(va[i], ve[i], 1e-5 * (1.0 + fabs(ve[i])));
    }
  }
  /* the modified Hessian did meet separated contacts far from the solution */
  ENSURE(sep_far > 0);
  printf("  40 lagged problems: %d iterations exact Hessian, %d with slip curvature (%d "
         "iterates far off with separated contacts)\n", it_exact, it_mod, sep_far);
  sc_sap_work_free(w);
}

/* The reversal curvature (sc_sap_params.reversal_curvature, on under the
 * lagged defaults) on the random lagged problems of the test above: the same
 * minimizer as the exact Hessian, with and without the slip curvature, and
 * it does change the Newton path (iteration counts differ somewhere). */
static void test_reversal_curvature_same_minimizer(void) {
  srand(19);
  sc_sap_work* w = sc_sap_work_create(NV, NC);
  sc_sap_params exact, lag, norev, revonly;
  sc_sap_params_default(&exact);
  exact.slip_curvature = 0.0;
  ENSURE(exact.reversal_curvature == 0.0);
  sc_sap_params_default(&lag);
  sc_sap_params_for_model(&lag, SC_MODEL_LAGGED);
  ENSURE(lag.reversal_curvature == 1.0);
  norev = lag;
  norev.reversal_curvature = 0.0;
  revonly = exact;
  revonly.reversal_curvature = 1.0;
  int it_lag = 0, it_norev = 0, it_exact = 0, it_revonly = 0, differ = 0;
  for (int trial = 0; trial < 60; trial++) {
    rprob r;
    make_lagged_problem(&r);
    double ve[NV] = {0}, vl[NV] = {0}, vn[NV] = {0}, vr[NV] = {0}, g[3 * NC];
    sc_solver_stats se, sl, sn, sr;
    ENSURE(sc_sap_solve(&r.p, &exact, w, ve, g, &se) == SC_SOLVE_OK);
    ENSURE(sc_sap_solve(&r.p, &lag, w, vl, g, &sl) == SC_SOLVE_OK);
    ENSURE(sc_sap_solve(&r.p, &norev, w, vn, g, &sn) == SC_SOLVE_OK);
    ENSURE(sc_sap_solve(&r.p, &revonly, w, vr, g, &sr) == SC_SOLVE_OK);
    it_exact += se.iterations;
    it_lag += sl.iterations;
    it_norev += sn.iterations;
    it_revonly += sr.iterations;
    differ += sl.iterations != sn.iterations || sr.iterations != se.iterations;
    for (const double* v = ve; v; v = v == ve ? vl : v == vl ? vr : NULL)
      ENSURE(stationarity_scaled(&r, w, v) <= 1e-5);
    for (int i = 0; i < NV; i++) {
      ENSURE_NEAR(vl[i], ve[i], 1e-5 * (1.0 + fabs(ve[i])));
      ENSURE_NEAR(vr[i], ve[i], 1e-5 * (1.0 + fabs(ve[i])));
    }
  }
  ENSURE(differ > 0);
  printf("  60 lagged problems: iterations exact %d, reversal only %d; lagged defaults %d, "
         "without the reversal curvature %d (%d problems took another path)\n",
         it_exact, it_revonly, it_lag, it_norev, differ);
  sc_sap_work_free(w);
}

/* Chebyshev's correction (sc_sap_params.chebyshev_from/until, on under the
 * lagged defaults) on the random lagged problems: the same minimizer with
 * and without it, and it changes the path somewhere. */
static void test_chebyshev_same_minimizer(void) {
  srand(23);
  sc_sap_work* w = sc_sap_work_create(NV, NC);
  sc_sap_params lag, nocheb;
  sc_sap_params_default(&lag);
  ENSURE(lag.chebyshev_until == 0.0);
  sc_sap_params_for_model(&lag, SC_MODEL_LAGGED);
  ENSURE(lag.chebyshev_from == 1e-4 && lag.chebyshev_until == 1e-2);
  nocheb = lag;
  nocheb.chebyshev_from = nocheb.chebyshev_until = 0.0;
  int it_lag = 0, it_nocheb = 0, differ = 0;
  for (int trial = 0; trial < 60; trial++) {
    rprob r;
    make_lagged_problem(&r);
    double vl[NV] = {0}, vn[NV] = {0}, g[3 * NC];
    sc_solver_stats sl, sn;
    ENSURE(sc_sap_solve(&r.p, &lag, w, vl, g, &sl) == SC_SOLVE_OK);
    ENSURE(sc_sap_solve(&r.p, &nocheb, w, vn, g, &sn) == SC_SOLVE_OK);
    it_lag += sl.iterations;
    it_nocheb += sn.iterations;
    differ += sl.iterations != sn.iterations;
    ENSURE(stationarity_scaled(&r, w, vl) <= 1e-5);
    for (int i = 0; i < NV; i++) ENSURE_NEAR(vl[i], vn[i], 1e-5 * (1.0 + fabs(vn[i])));
  }
  ENSURE(differ > 0);
  printf("  60 lagged problems: iterations %d with Chebyshev's correction, %d without "
         "(%d problems took another path)\n", it_lag, it_nocheb, differ);
  sc_sap_work_free(w);
}

/* root of an increasing f on [lo, hi] by bisection to round-off */
static double bisect(double (*f)(double, const double*), const double* a, double lo, double hi) {
  for (int i = 0; i < 200 && hi - lo > 1e-15 * fmax(1.0, fabs(lo)); i++) {
    const double mid = 0.5 * (lo + hi);
    if (f(mid, a) < 0.0) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/* a = {m, s*, mu n0, eps}: m (s - s*) + mu n0 s / sqrt(s^2 + eps^2), the
 * tangential balance along the free slip direction (lagged friction) */
static double slip_balance(double s, const double* a) {
  return a[0] * (s - a[1]) + a[2] * s / sqrt(s * s + a[3] * a[3]);
}
/* a = {m, vn*, dt, k, fe0, d}: m (v - vn*) - n(v), the normal balance */
static double normal_balance(double v, const double* a) {
  double n, dn, N;
  sc_sap_hc_normal(v, a[2], a[3], a[4], a[5], &n, &dn, &N);
  return a[0] * (v - a[1]) - n;
}

/* One free point mass m pressed into a plane (J = I, frame = world axes)
 * and sliding at s* along a direction theta, with mu n0 > m s*: lagged
 * friction stops it within the step.  The minimizer separates into the
 * scalar balances above, solved by bisection into vs.  Slip number trial
 * (0-7) of the tests below. */
typedef struct pmass {
  double vstar[3], hc[SC_HC_NPAR], vs[3], sstar;
  sc_problem p;
} pmass;

static void pmass_init(pmass* q, int trial) {
  static const double m = 0.1, dt = 1e-3, kk = 1e5, dd = 20.0, wd = 10.0, phi0 = -1e-4;
  static const double mu = 0.5, A[9] = {0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}; /* m I */
  static const double J[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, R[3] = {1, 1, 1}, vhat[3] = {0, 0, 0};
  static sc_problem_storage st; /* one problem at a time */
  const double sstar = 0.005 + 0.006 * trial, th = 0.7 * trial, vnstar = -0.01;
  q->sstar = sstar;
  q->vstar[0] = sstar * cos(th);
  q->vstar[1] = sstar * sin(th);
  q->vstar[2] = vnstar;
  sc_law_hc(1, &kk, &dd, &wd, &phi0, NULL, &mu, dt, 1.0, 1e-3, 1.0, 1e-5, q->hc);
  ENSURE(mu * q->hc[SC_HC_N0] > m * sstar); /* it sticks */
  q->p = dense_problem(&st, 3, 1, A, q->vstar, J, R, vhat, &mu, &phi0, dt);
  q->p.model = SC_MODEL_LAGGED;
  q->p.hc = q->hc;
  const double at[4] = {m, sstar, mu * q->hc[SC_HC_N0], q->hc[SC_HC_EPS]};
  const double an[6] = {m, vnstar, dt, q->hc[SC_HC_K], q->hc[SC_HC_FE0], q->hc[SC_HC_D]};
  const double s = bisect(slip_balance, at, 0.0, sstar);
  q->vs[0] = s * cos(th);
  q->vs[1] = s * sin(th);
  q->vs[2] = bisect(normal_balance, an, vnstar, vnstar + 1.0);
}

/* The point mass: the Newton solve must land on the bisections' solution,
 * with the reversal curvature in fewer iterations than without (the full
 * Newton step overshoots the stop; results/sap_iterations.md, section 8). */
static void test_reversal_curvature_point_mass(void) {
  sc_sap_work* w = sc_sap_work_create(3, 1);
  sc_sap_params lag, norev;
  sc_sap_params_default(&lag);
  sc_sap_params_for_model(&lag, SC_MODEL_LAGGED);
  norev = lag;
  norev.reversal_curvature = 0.0;
  int it_rev = 0, it_norev = 0;
  for (int trial = 0; trial < 8; trial++) {
    pmass q;
    pmass_init(&q, trial);
    for (int pass = 0; pass < 2; pass++) {
      double v[3] = {q.vstar[0], q.vstar[1], q.vstar[2]}, g[3];
      sc_solver_stats ss;
      ENSURE(sc_sap_solve(&q.p, pass ? &norev : &lag, w, v, g, &ss) == SC_SOLVE_OK);
      *(pass ? &it_norev : &it_rev) += ss.iterations;
      /* the tolerance 1e-6 on the momentum balance, of scale m |v| */
      ENSURE_NEAR(v[0], q.vs[0], 1e-5 * q.sstar);
      ENSURE_NEAR(v[1], q.vs[1], 1e-5 * q.sstar);
      ENSURE_NEAR(v[2], q.vs[2], 1e-5 * fabs(q.vs[2]));
    }
  }
  ENSURE(it_rev < it_norev);
  printf("  point mass into stiction, 8 slips: %d iterations with the reversal curvature, "
         "%d without\n", it_rev, it_norev);
  sc_sap_work_free(w);
}

/* The order of convergence, on the point mass of the test above (one lagged
 * contact that friction stops within the step: the solution sits in the bend
 * of the friction smoothing, where the third derivative is largest): one
 * iteration from v_sol + delta u (v_sol from the bisections, u a fixed unit
 * direction, delta = eps / 10 and eps / 100) leaves an error e(delta); the
 * order log10(e(eps/10) / e(eps/100)) is 2 for Newton's method and 3 with
 * Chebyshev's correction (Traub 1964).  Plain Newton steps (exact Hessian)
 * against the correction at every iteration; asserted per slip: Newton
 * within [1.8, 2.2], the corrected step above 2.7. */
static void test_chebyshev_order(void) {
  const double u[3] = {0.6, -0.48, 0.64};
  sc_sap_work* w = sc_sap_work_create(3, 1);
  sc_sap_params newton, cheb;
  sc_sap_params_default(&newton);
  newton.slip_curvature = 0.0;
  newton.rel_tol = 1e-15;
  newton.abs_tol = 0.0;
  newton.max_iterations = 1;
  cheb = newton;
  cheb.chebyshev_from = 0.0;
  cheb.chebyshev_until = HUGE_VAL;
  double omin[2] = {HUGE_VAL, HUGE_VAL}, omax[2] = {0.0, 0.0};
  for (int trial = 0; trial < 8; trial++) {
    pmass q;
    pmass_init(&q, trial);
    const double* vs = q.vs;
    for (int pass = 0; pass < 2; pass++) {
      double e[2];
      for (int j = 0; j < 2; j++) {
        const double delta = q.hc[SC_HC_EPS] * (j ? 1e-2 : 1e-1);
        double v[3], g[3];
        for (int a = 0; a < 3; a++) v[a] = vs[a] + delta * u[a];
        sc_solver_stats ss;
        const sc_solve_status r = sc_sap_solve(&q.p, pass ? &cheb : &newton, w, v, g, &ss);
        ENSURE(ss.iterations == 1 && (r == SC_SOLVE_MAXIT || r == SC_SOLVE_OK));
        e[j] = sqrt((v[0] - vs[0]) * (v[0] - vs[0]) + (v[1] - vs[1]) * (v[1] - vs[1]) +
                    (v[2] - vs[2]) * (v[2] - vs[2]));
      }
      const double order = log10(e[0] / e[1]);
      if (order < omin[pass]) omin[pass] = order;
      if (order > omax[pass]) omax[pass] = order;
      if (getenv("SC_TEST_VERBOSE"))
        printf("  slip %d %s: errors %.2e %.2e, order %.2f\n", trial, pass ? "chebyshev" : "newton",
               e[0], e[1], order);
    }
  }
  ENSURE(omin[0] >= 1.8 && omax[0] <= 2.2);
  ENSURE(omin[1] >= 2.7);
  printf("  point mass, 8 slips, one iteration near the solution: order %.2f-%.2f plain Newton, "
         "%.2f-%.2f with the correction\n", omin[0], omax[0], omin[1], omax[1]);
  sc_sap_work_free(w);
}

static void test_second_guess(void) {
  srand(13);
  sc_sap_work* w = sc_sap_work_create(NV, NC);
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  for (int trial = 0; trial < 10; trial++) {
    rprob r;
    make_problem(&r, 1e-3);
    double v[NV] = {0}, g[3 * NC], sol[NV], v2[NV] = {0}, far[NV];
    sc_solver_stats st, st2;
    ENSURE(sc_sap_solve(&r.p, &prm, w, v, g, &st) == SC_SOLVE_OK);
    for (int i = 0; i < NV; i++) sol[i] = v[i];
    /* the solution as second guess wins over 0: no iteration */
    ENSURE(sc_sap_solve_from(&r.p, &prm, w, v2, sol, g, &st2) == SC_SOLVE_OK);
    ENSURE(st2.iterations == 0);
    for (int i = 0; i < NV; i++) ENSURE(v2[i] == sol[i]);
    /* a guess far away (higher cost) is ignored: the same iterates as without it */
    for (int i = 0; i < NV; i++) v2[i] = 0.0, far[i] = 1e3 * (1.0 + i);
    ENSURE(sc_sap_solve_from(&r.p, &prm, w, v2, far, g, &st2) == SC_SOLVE_OK);
    ENSURE(st2.iterations == st.iterations);
    for (int i = 0; i < NV; i++) ENSURE(v2[i] == sol[i]);
    /* a non-finite guess is ignored too */
    for (int i = 0; i < NV; i++) v2[i] = 0.0, far[i] = NAN;
    ENSURE(sc_sap_solve_from(&r.p, &prm, w, v2, far, g, &st2) == SC_SOLVE_OK);
    for (int i = 0; i < NV; i++) ENSURE(v2[i] == sol[i]);
  }
  sc_sap_work_free(w);
}

/* ---- the trace in a run's HDF5 file ---- */

static int read_col(hid_t f, const char* path, hid_t type, void* buf, long cap, long* n,
                    char* units) {
  hid_t ds = H5Dopen2(f, path, H5P_DEFAULT);
  if (ds < 0) return 0;
  hid_t sp = H5Dget_space(ds);
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(sp, dims, NULL);
  H5Sclose(sp);
  *n = (long)dims[0];
  int ok = *n <= cap && (*n == 0 || H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
  units[0] = '\0';
  if (H5Aexists(ds, "units") > 0) {
    hid_t a = H5Aopen(ds, "units", H5P_DEFAULT), mt = H5Tcopy(H5T_C_S1);
    char* s = NULL;
    H5Tset_size(mt, H5T_VARIABLE);
    H5Tset_cset(mt, H5T_CSET_UTF8);
    if (H5Aread(a, mt, &s) >= 0 && s) {
      snprintf(units, 32, "%s", s);
      H5free_memory(s);
    }
    H5Tclose(mt);
    H5Aclose(a);
  }
  H5Dclose(ds);
  return ok;
}

#define MAXT 20000
static double t_res[MAXT], t_alpha[MAXT], t_dcost[MAXT], f_res[200];
static int64_t t_step[MAXT];
static int32_t t_iter[MAXT], t_ls[MAXT], t_sep[MAXT], t_stick[MAXT], t_slide[MAXT],
    t_changed[MAXT], f_iter[200], f_count[200];

static void test_trace_in_hdf5(void) {
  const char* sets[] = {"time.duration=0.3", "output.every=5", "output.solver_trace=true"};
  char path[] = "/tmp/simc_test_sap_trace_XXXXXX";
  int fd = mkstemp(path);
  ENSURE(fd >= 0);
  if (fd < 0) return;
  close(fd);
  sc_model* m = NULL;
  sc_data* d = NULL;
  sc_h5* h = NULL;
  sc_error err;
  sc_h5_meta meta = {"test_sap_trace", "test", -1.0, -1, NULL, NULL};
  sc_status st = sc_scene_load("test/clutter64.yaml", sets, 3, &m, &err);
  if (st == SC_OK) st = sc_data_create(m, &d, &err);
  if (st == SC_OK) st = sc_sim_prepare(m, d, &err);
  if (st == SC_OK) st = sc_forward(m, d, &err);
  if (st == SC_OK) st = sc_h5_open(path, m, d, &meta, &h, &err);
  if (st == SC_OK) st = sc_h5_write_frame(h, m, d, &err);
  ENSURE(st == SC_OK);
  ENSURE(d && d->solver_trace != NULL);
  long n = st == SC_OK ? lround(m->opt.duration / m->opt.dt) : 0;
  long step_allocs = 0;
  for (long k = 0; k < n && st == SC_OK; k++) {
    long a0 = sc_alloc_count();
    st = sc_step(m, d, &err);
    step_allocs += sc_alloc_count() - a0;
    if (st == SC_OK && (k + 1) % m->opt.output_every == 0) st = sc_h5_write_frame(h, m, d, &err);
  }
  ENSURE(st == SC_OK);
  /* the trace and the warm start's buffers are sized once: stepping allocates nothing */
  ENSURE(step_allocs == 0);
  if (h) ENSURE(sc_h5_close(h, "complete", &err) == SC_OK);
  sc_data_free(d);
  sc_model_free(m);

  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(f >= 0);
  if (f < 0) return;
  long nt = 0, nf = 0, x = 0;
  char u[32];
  struct {
    const char* path;
    hid_t type;
    void* buf;
    const char* units;
  } cols[] = {
      {"/solver/trace/step", H5T_NATIVE_INT64, t_step, "1"},
      {"/solver/trace/iteration", H5T_NATIVE_INT32, t_iter, "1"},
      {"/solver/trace/residual", H5T_NATIVE_DOUBLE, t_res, "1"},
      {"/solver/trace/alpha", H5T_NATIVE_DOUBLE, t_alpha, "1"},
      {"/solver/trace/cost_decrease", H5T_NATIVE_DOUBLE, t_dcost, "J"},
      {"/solver/trace/ls_evals", H5T_NATIVE_INT32, t_ls, "1"},
      {"/solver/trace/n_separated", H5T_NATIVE_INT32, t_sep, "1"},
      {"/solver/trace/n_stick", H5T_NATIVE_INT32, t_stick, "1"},
      {"/solver/trace/n_slide", H5T_NATIVE_INT32, t_slide, "1"},
      {"/solver/trace/n_changed", H5T_NATIVE_INT32, t_changed, "1"},
  };
  for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
    long ni = 0;
    ENSURE(read_col(f, cols[i].path, cols[i].type, cols[i].buf, MAXT, &ni, u));
    ENSURE(!strcmp(u, cols[i].units));
    if (i == 0) nt = ni;
    ENSURE(ni == nt);
  }
  ENSURE(read_col(f, "/solver/iterations", H5T_NATIVE_INT32, f_iter, 200, &nf, u));
  ENSURE(read_col(f, "/solver/residual", H5T_NATIVE_DOUBLE, f_res, 200, &x, u) && x == nf);
  ENSURE(read_col(f, "/contact/count", H5T_NATIVE_INT32, f_count, 200, &x, u) && x == nf);
  H5Fclose(f);
  unlink(path);
  ENSURE(nf == 61);
  /* rows of frame k: step k * every, iterations 1 .. /solver/iterations[k] */
  long row = 0, sum = 0;
  int bad_rows = 0, bad_last = 0, bad_sum = 0, busy = 0;
  for (long k = 0; k < nf; k++) {
    long first = row;
    while (row < nt && t_step[row] == 5 * k) row++;
    long rows = row - first;
    sum += f_iter[k];
    bad_rows += rows != f_iter[k];
    if (rows > 0) {
      bad_last += t_res[row - 1] != f_res[k];
      busy++;
    }
    for (long j = first; j < row; j++) {
      bad_rows += t_iter[j] != j - first + 1;
      bad_sum += t_sep[j] + t_stick[j] + t_slide[j] != f_count[k];
    }
  }
  ENSURE(row == nt && sum == nt);
  ENSURE(bad_rows == 0);
  ENSURE(bad_last == 0);
  ENSURE(bad_sum == 0);
  ENSURE(busy > 10); /* the bodies land well within 0.3 s */
  printf("  %ld trace rows over %ld recorded steps\n", nt, nf);
}

/* simc --trace-solver is output.solver_trace; without it there is no trace */
static void test_cli_flag(void) {
  const char* bin = getenv("BIN") ? getenv("BIN") : "bin";
  char path[] = "/tmp/simc_test_sap_trace_cli_XXXXXX";
  int fd = mkstemp(path);
  ENSURE(fd >= 0);
  if (fd < 0) return;
  close(fd);
  char cmd[512];
  for (int flag = 0; flag < 2; flag++) {
    snprintf(cmd, sizeof cmd, "%s/simc test/clutter64.yaml -o %s --duration 0.2 --quiet %s", bin,
             path, flag ? "--trace-solver" : "");
    ENSURE(system(cmd) == 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ENSURE(f >= 0);
    if (f < 0) continue;
    ENSURE((H5Lexists(f, "/solver/trace", H5P_DEFAULT) > 0) == flag);
    if (flag) {
      long nt = 0, nf = 0;
      char u[32];
      ENSURE(read_col(f, "/solver/trace/iteration", H5T_NATIVE_INT32, t_iter, MAXT, &nt, u));
      ENSURE(read_col(f, "/solver/iterations", H5T_NATIVE_INT32, f_iter, 200, &nf, u));
      long sum = 0;
      for (long k = 0; k < nf; k++) sum += f_iter[k];
      ENSURE(nt == sum && nt > 0);
    }
    H5Fclose(f);
  }
  unlink(path);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  RUN(test_trace_rows_match_stats);
  RUN(test_slip_curvature_same_minimizer);
  RUN(test_slip_curvature_lagged_same_minimizer);
  RUN(test_reversal_curvature_same_minimizer);
  RUN(test_reversal_curvature_point_mass);
  RUN(test_chebyshev_same_minimizer);
  RUN(test_chebyshev_order);
  RUN(test_second_guess);
  RUN(test_trace_in_hdf5);
  RUN(test_cli_flag);
  return TEST_END();
}
