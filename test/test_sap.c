/* SAP contact solver: projection derivatives, cost derivatives, the Drake
 * "pizza saver" test case (its closed forms), a frictionless QP
 * cross-check, warm start and allocation. */
#include "harness.h"
#include "core/core.h"
#include "constraint/law.h"
#include "solver_sap/sap.h"
#include "problem_util.h"
#include "sym3.h"

#include <stdlib.h>

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }
static double urange(double a, double b) { return a + (b - a) * 0.5 * (urand() + 1.0); }

/* ---------- small independent helpers ---------- */

/* solve the n x n system M x = b (column-major M, overwritten) by Gaussian
 * elimination with partial pivoting; independent of src/linalg */
static void gauss_solve(int n, double* M, double* b) {
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(M[i + k * n]) > fabs(M[piv + k * n])) piv = i;
    for (int j = 0; j < n; j++) {
      double t = M[k + j * n];
      M[k + j * n] = M[piv + j * n];
      M[piv + j * n] = t;
    }
    double t = b[k];
    b[k] = b[piv];
    b[piv] = t;
    for (int i = k + 1; i < n; i++) {
      double f = M[i + k * n] / M[k + k * n];
      for (int j = k; j < n; j++) M[i + j * n] -= f * M[k + j * n];
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; k--) {
    double s = b[k];
    for (int j = k + 1; j < n; j++) s -= M[k + j * n] * b[j];
    b[k] = s / M[k + k * n];
  }
}

/* random SPD matrix B^T B + n I (column-major) */
static void rand_spd(int n, double* A) {
  double B[64];
  for (int i = 0; i < n * n; i++) B[i] = urand();
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = (i == j) ? n : 0.0;
      for (int k = 0; k < n; k++) s += B[k + i * n] * B[k + j * n];
      A[i + j * n] = s;
    }
}

/* y with the requested region (1, 2, 3) for cone data R, mu, away from the boundaries */
static void y_in_region(int region, const double R[3], double mu, double y[3]) {
  const double mu_hat = mu * R[0] / R[2];
  double th = urange(0, 6.283), s = urange(0.5, 2.0);
  y[0] = s * cos(th);
  y[1] = s * sin(th);
  double yr = s; /* the soft part (1e-7) is negligible against the margins below */
  if (region == 1) y[2] = yr / mu * urange(1.3, 3.0);
  if (region == 2) {
    double lo = -mu_hat * yr, hi = yr / mu;
    y[2] = lo + (hi - lo) * urange(0.2, 0.8);
  }
  if (region == 3) y[2] = -mu_hat * yr * urange(1.3, 3.0) - 0.1;
}

/* per-contact cost as a function of vc */
static double contact_cost(const double vc[3], const double vhat[3], const double R[3],
                           double mu, double gamma[3]) {
  double y[3], g[3], l;
  for (int k = 0; k < 3; k++) y[k] = (vhat[k] - vc[k]) / R[k];
  sc_sap_project(y, R, mu, 1e-7, gamma ? gamma : g, NULL, &l);
  return l;
}

/* ---------- projection ---------- */

/* gamma = -dl_i/dvc and G = -dgamma/dvc by central differences in each region */
static void test_project_finite_differences(void) {
  srand(11);
  for (int region = 1; region <= 3; region++)
    for (int trial = 0; trial < 20; trial++) {
      double R[3], vhat[3] = {0.0, 0.0, urange(-1, 1)}, y[3], vc[3];
      R[0] = R[1] = urange(0.1, 1.0);
      R[2] = urange(0.1, 1.0);
      double mu = urange(0.2, 1.2);
      y_in_region(region, R, mu, y);
      for (int k = 0; k < 3; k++) vc[k] = vhat[k] - R[k] * y[k];
      double gamma[3], G[9], cost;
      int reg = sc_sap_project(y, R, mu, 1e-7, gamma, G, &cost);
      ENSURE(reg == region);
      /* cost equals 1/2 gamma^T R gamma (exact in I and III, up to eps^2 Rt in II) */
      double lR = 0.5 * (R[0] * gamma[0] * gamma[0] + R[1] * gamma[1] * gamma[1] +
                         R[2] * gamma[2] * gamma[2]);
      ENSURE_NEAR(cost, lR, 1e-12 * (1 + lR));
      double gscale = 1e-3 + fabs(gamma[0]) + fabs(gamma[1]) + fabs(gamma[2]);
      double Gscale = 1e-3;
      for (int i = 0; i < 9; i++) Gscale = fmax(Gscale, fabs(G[i]));
      const double h = 1e-5;
      for (int k = 0; k < 3; k++) {
        double vp[3] = {vc[0], vc[1], vc[2]}, vm[3] = {vc[0], vc[1], vc[2]};
        vp[k] += h;
        vm[k] -= h;
        double gp[3], gm[3];
        double lp = contact_cost(vp, vhat, R, mu, gp), lm = contact_cost(vm, vhat, R, mu, gm);
        ENSURE_NEAR(-(lp - lm) / (2 * h), gamma[k], 1e-6 * gscale);
        for (int i = 0; i < 3; i++) ENSURE_NEAR(-(gp[i] - gm[i]) / (2 * h), G[3 * i + k], 1e-6 * Gscale);
      }
    }
}

/* G is symmetric PSD in every region, also for realistic (very unequal) Rt, Rn */
static void test_project_G_symmetric_psd(void) {
  srand(12);
  for (int trial = 0; trial < 300; trial++) {
    double R[3], y[3], gamma[3], G[9], ev[3];
    R[0] = R[1] = pow(10.0, urange(-6, 0));
    R[2] = pow(10.0, urange(-6, 0));
    double mu = urange(0.0, 2.0);
    y_in_region(1 + trial % 3, R, mu, y);
    sc_sap_project(y, R, mu, 1e-7, gamma, G, NULL);
    double scale = 0.0;
    for (int i = 0; i < 9; i++) scale = fmax(scale, fabs(G[i]));
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) ENSURE_NEAR(G[3 * i + j], G[3 * j + i], 1e-14 * scale);
    sym3_eig(G, ev);
    for (int i = 0; i < 3; i++) ENSURE(ev[i] >= -1e-12 * scale);
  }
}

/* gamma is continuous across y_r = mu y_n (I|II) and y_n = -mu_hat y_r (II|III) */
static void test_project_continuity(void) {
  srand(13);
  const double eps = 1e-7;
  for (int trial = 0; trial < 50; trial++) {
    double R[3] = {0, 0, 0};
    R[0] = R[1] = urange(0.01, 1.0);
    R[2] = urange(0.01, 1.0);
    double mu = urange(0.1, 1.5), mu_hat = mu * R[0] / R[2];
    double th = urange(0, 6.283), s = urange(0.1, 3.0);
    double yt0 = s * cos(th), yt1 = s * sin(th), yr = sqrt(s * s + eps * eps);
    double d = 1e-10;
    /* stiction | sliding */
    double yb = yr / mu;
    double ya[3] = {yt0, yt1, yb * (1 + d)}, yc[3] = {yt0, yt1, yb * (1 - d)};
    double ga[3], gc[3];
    ENSURE(sc_sap_project(ya, R, mu, eps, ga, NULL, NULL) == 1);
    ENSURE(sc_sap_project(yc, R, mu, eps, gc, NULL, NULL) == 2);
    for (int k = 0; k < 3; k++) ENSURE_NEAR(ga[k], gc[k], 1e-8 * (s + yb));
    /* on the boundary gamma = y */
    for (int k = 0; k < 2; k++) ENSURE_NEAR(ga[k], ya[k], 1e-8 * s);
    /* sliding | separation: gamma -> 0 */
    yb = -mu_hat * yr;
    double ys[3] = {yt0, yt1, yb * (1 - d)}, ysep[3] = {yt0, yt1, yb * (1 + d)};
    ENSURE(sc_sap_project(ys, R, mu, eps, ga, NULL, NULL) == 2);
    ENSURE(sc_sap_project(ysep, R, mu, eps, gc, NULL, NULL) == 3);
    for (int k = 0; k < 3; k++) {
      ENSURE_NEAR(ga[k], 0.0, 1e-8 * (s + fabs(yb)));
      ENSURE(gc[k] == 0.0);
    }
  }
}

/* mu = 0: no stiction, gamma_t = 0 exactly, gamma_n = (y_n)+, G = diag(0, 0, 1/Rn) or 0 */
static void test_project_frictionless(void) {
  srand(14);
  for (int trial = 0; trial < 50; trial++) {
    double R[3] = {0.3, 0.3, urange(0.01, 1.0)};
    double y[3] = {urand(), urand(), urand()}, g[3], G[9], cost;
    if (trial == 0) y[0] = y[1] = 0.0;
    int reg = sc_sap_project(y, R, 0.0, 1e-7, g, G, &cost);
    ENSURE(reg == (y[2] > 0 ? 2 : 3));
    ENSURE(g[0] == 0.0 && g[1] == 0.0);
    ENSURE_NEAR(g[2], fmax(y[2], 0.0), 1e-15);
    ENSURE_NEAR(cost, 0.5 * R[2] * fmax(y[2], 0.0) * fmax(y[2], 0.0), 1e-15);
    for (int i = 0; i < 8; i++) ENSURE(G[i] == 0.0);
    ENSURE_NEAR(G[8], y[2] > 0 ? 1.0 / R[2] : 0.0, 1e-14 / R[2]);
    for (int i = 0; i < 3; i++) ENSURE(isfinite(g[i]));
  }
}

/* ---------- regularization and Delassus ---------- */

/* gamma_n = (vhat_n - vn)/Rn reproduces the Kelvin-Voigt law at the step's
 * theta, spring at the gap of t + theta dt and damper at vn^theta:
 * -dt k [phi0 + theta dt vn^theta + taud vn^theta], vn^theta = theta vn +
 * (1 - theta) vn0 (theta = 1: ref 2.2), and the near-rigid floor
 * beta^2 w / (4 pi^2) takes over for stiff or rigid contacts */
static void test_regularize(void) {
  srand(15);
  const double pi = 3.14159265358979323846;
  for (int trial = 0; trial < 20; trial++) {
    double k = pow(10.0, urange(2, 6)), taud = urange(0, 0.2), w = urange(0.1, 2);
    double phi0 = urange(-1e-2, 1e-2), vn0 = urand(), dt = urange(1e-4, 1e-2);
    double theta = (trial % 2) ? 1.0 : urange(0.5, 1.0), vn = urand();
    double R[3], vhat[3];
    sc_law_sap(1, &k, &taud, &w, &phi0, &vn0, dt, theta, 1e-3, 0.0, R, vhat);
    double gn = (vhat[2] - vn) / R[2];
    double vth = theta * vn + (1 - theta) * vn0;
    double law = -dt * k * (phi0 + theta * dt * vth + taud * vth);
    ENSURE_CLOSE(gn, law, 1e-12, 1e-12 * dt * k * 1e-2);
    ENSURE_CLOSE(R[0], 1e-3 * w, 1e-15, 0);
    ENSURE(R[1] == R[0] && vhat[0] == 0.0 && vhat[1] == 0.0);
  }
  double kinf = INFINITY, k = 1e20, taud = 0.01, w = 0.5, phi0 = -1e-3, R[3], vhat[3];
  sc_law_sap(1, &kinf, &taud, &w, &phi0, NULL, 0.01, 1.0, 1e-3, 0.0, R, vhat);
  ENSURE_CLOSE(R[2], w / (4 * pi * pi), 1e-15, 0);
  ENSURE_CLOSE(vhat[2], 1e-3 / 0.02, 1e-15, 0);
  sc_law_sap(1, &k, &taud, &w, &phi0, NULL, 0.01, 1.0, 1e-3, 0.5, R, vhat);
  ENSURE_CLOSE(R[2], 0.25 * w / (4 * pi * pi), 1e-15, 0);
  sc_law_sap(1, &k, &taud, &w, &phi0, NULL, 0.01, 1.0, 1e-3, 0.0, R, vhat);
  ENSURE_CLOSE(R[2], 1.0 / (0.01 * 1e20 * 0.02), 1e-15, 0);
}

/* two particles joined by one contact: W_ii = (1/m1 + 1/m2) I3 (Drake's test
 * case), and the pizza saver's W_ii = (I3 + u u^T)/m with u unit */
static void test_delassus(void) {
  sc_sap_work* w = sc_sap_work_create(6, 3);
  double m1 = 2.0, m2 = 5.0, A[36] = {0}, J[18] = {0}, wd[3];
  for (int i = 0; i < 3; i++) {
    A[i + 6 * i] = m1;
    A[(i + 3) + 6 * (i + 3)] = m2;
    J[i + 3 * i] = 1.0;
    J[i + 3 * (i + 3)] = -1.0;
  }
  sc_problem_storage st = {0};
  sc_problem p = dense_problem(&st, 6, 1, A, NULL, J, NULL, NULL, NULL, NULL, 0.01);
  ENSURE(sc_sap_delassus_problem(&p, w, wd) == SC_OK);
  ENSURE_CLOSE(wd[0], sqrt(3.0) / 3.0 * (1 / m1 + 1 / m2), 1e-14, 0);
  /* the dense path agrees */
  double wdd[3];
  ENSURE(sc_sap_delassus_path(&p, SC_SAP_HESSIAN_DENSE, w, wdd) == SC_OK);
  ENSURE_CLOSE(wdd[0], wd[0], 1e-14, 0);
  /* capacity and non-SPD errors are values, not crashes */
  sc_problem p7 = p;
  p7.nv = 7;
  ENSURE(sc_sap_delassus_problem(&p7, w, wd) == SC_ERR_CAPACITY);
  A[0] = -1.0;
  p = dense_problem(&st, 6, 1, A, NULL, J, NULL, NULL, NULL, NULL, 0.01);
  ENSURE(sc_sap_delassus_problem(&p, w, wd) == SC_ERR_SIM);
  ENSURE(sc_sap_delassus_path(&p, SC_SAP_HESSIAN_DENSE, w, wd) == SC_ERR_SIM);
  sc_problem_storage_free(&st);
  sc_sap_work_free(w);
}

/* ---------- cost, gradient, Hessian of l(v) ---------- */

typedef struct rproblem {
  int nv, nc;
  double A[25], vstar[5], J[45], R[9], vhat[9], mu[3], phi0[3];
  sc_problem p;
} rproblem;

/* random problem nv = 5, nc = 3 whose contacts at v are in regions 1, 2, 3 */
static void make_random(rproblem* r, const double* v) {
  r->nv = 5;
  r->nc = 3;
  rand_spd(5, r->A);
  for (int i = 0; i < 5; i++) r->vstar[i] = urand();
  for (int i = 0; i < 45; i++) r->J[i] = urand();
  for (int c = 0; c < 3; c++) {
    r->R[3 * c] = r->R[3 * c + 1] = urange(0.05, 0.5);
    r->R[3 * c + 2] = urange(0.05, 0.5);
    r->mu[c] = urange(0.3, 1.0);
    r->phi0[c] = 0.0;
    double y[3];
    y_in_region(c + 1, r->R + 3 * c, r->mu[c], y);
    for (int k = 0; k < 3; k++) {
      double vc = 0.0;
      for (int j = 0; j < 5; j++) vc += r->J[3 * c + k + 9 * j] * v[j];
      /* vhat_t != 0 is not used by the integrator, but the cost is defined for it */
      r->vhat[3 * c + k] = vc + r->R[3 * c + k] * y[k];
    }
  }
  static sc_problem_storage st; /* one random problem at a time */
  r->p = dense_problem(&st, 5, 3, r->A, r->vstar, r->J, r->R, r->vhat, r->mu, r->phi0, 0.01);
}

static void test_gradient_and_hessian_fd(void) {
  srand(21);
  sc_sap_work* w = sc_sap_work_create(5, 3);
  for (int trial = 0; trial < 10; trial++) {
    rproblem r;
    double v[5], grad[5], H[25], gamma[9], l;
    for (int i = 0; i < 5; i++) v[i] = urand();
    make_random(&r, v);
    ENSURE(sc_sap_eval(&r.p, 1e-7, w, v, &l, grad, gamma, H) == SC_OK);
    double gs = 0.0, hs = 0.0;
    for (int i = 0; i < 5; i++) gs = fmax(gs, fabs(grad[i]));
    for (int i = 0; i < 25; i++) hs = fmax(hs, fabs(H[i]));
    const double h = 1e-5;
    for (int k = 0; k < 5; k++) {
      double vp[5], vm[5], gp[5], gm[5], lp, lm;
      for (int i = 0; i < 5; i++) vp[i] = vm[i] = v[i];
      vp[k] += h;
      vm[k] -= h;
      sc_sap_eval(&r.p, 1e-7, w, vp, &lp, gp, NULL, NULL);
      sc_sap_eval(&r.p, 1e-7, w, vm, &lm, gm, NULL, NULL);
      ENSURE_NEAR((lp - lm) / (2 * h), grad[k], 1e-6 * gs);
      for (int i = 0; i < 5; i++) ENSURE_NEAR((gp[i] - gm[i]) / (2 * h), H[i + 5 * k], 1e-6 * hs);
    }
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 5; j++) ENSURE(H[i + 5 * j] == H[j + 5 * i]);
  }
  sc_sap_work_free(w);
}

/* ---------- solver on random problems ---------- */

/* converges; stationarity holds; warm start from the solution takes 0
 * iterations; Armijo backtracking reaches the same minimizer; no allocation */
static void test_solve_random_warm_start_backtracking(void) {
  srand(31);
  sc_sap_work* w = sc_sap_work_create(5, 3);
  sc_sap_params prm, prmb;
  sc_sap_params_default(&prm);
  sc_sap_params_default(&prmb);
  prmb.linesearch = SC_SAP_LS_BACKTRACKING;
  int max_it = 0;
  for (int trial = 0; trial < 20; trial++) {
    rproblem r;
    double v0[5], v[5], vb[5], g[9], gb[9];
    for (int i = 0; i < 5; i++) v0[i] = urand();
    make_random(&r, v0);
    for (int i = 0; i < 5; i++) v[i] = vb[i] = 0.0;
    sc_solver_stats st, stb;
    long a0 = sc_alloc_count();
    ENSURE(sc_sap_solve(&r.p, &prm, w, v, g, &st) == SC_SOLVE_OK);
    ENSURE(sc_sap_solve(&r.p, &prmb, w, vb, gb, &stb) == SC_SOLVE_OK);
    ENSURE(sc_alloc_count() == a0);
    ENSURE(st.status == SC_SOLVE_OK && st.residual <= 1e-6);
    if (st.iterations > max_it) max_it = st.iterations;
    /* independent stationarity check: A (v - v*) = J^T gamma, gamma = P_F(y(v)) */
    double l, grad[5], gam2[9];
    sc_sap_eval(&r.p, 1e-7, w, v, &l, grad, gam2, NULL);
    ENSURE_CLOSE(l, st.cost, 1e-14, 0);
    for (int i = 0; i < 9; i++) ENSURE_NEAR(g[i], gam2[i], 1e-14 * (1 + fabs(g[i])));
    double jtg[5] = {0};
    for (int i = 0; i < 5; i++) {
      for (int k = 0; k < 9; k++) jtg[i] += r.J[k + 9 * i] * g[k];
      double av = 0.0;
      for (int j = 0; j < 5; j++) av += r.A[i + 5 * j] * (v[j] - r.vstar[j]);
      ENSURE_NEAR(av, jtg[i], 1e-5 * (1 + fabs(jtg[i])));
    }
    for (int i = 0; i < 5; i++) ENSURE_NEAR(v[i], vb[i], 1e-6 * (1 + fabs(v[i])));
    /* warm start */
    double vw[5];
    for (int i = 0; i < 5; i++) vw[i] = v[i];
    ENSURE(sc_sap_solve(&r.p, &prm, w, vw, g, &st) == SC_SOLVE_OK);
    ENSURE(st.iterations == 0 && st.linesearch_evals == 0);
    for (int i = 0; i < 5; i++) ENSURE(vw[i] == v[i]);
  }
  printf("  random nv=5 nc=3: max Newton iterations %d\n", max_it);
  /* unreachable momentum tolerance: the cost criterion stops the iteration at round-off */
  {
    sc_sap_params pz = prm;
    pz.rel_tol = 0.0;
    pz.abs_tol = 0.0;
    int maxc = 0;
    for (int trial = 0; trial < 20; trial++) {
      rproblem r;
      double v0[5], v[5] = {0}, g[9];
      for (int i = 0; i < 5; i++) v0[i] = urand();
      make_random(&r, v0);
      sc_solver_stats st;
      ENSURE(sc_sap_solve(&r.p, &pz, w, v, g, &st) == SC_SOLVE_OK);
      ENSURE(st.residual < 1e-12);
      if (st.iterations > maxc) maxc = st.iterations;
    }
    printf("  cost criterion (rel_tol = 0): max Newton iterations %d\n", maxc);
    ENSURE(maxc < 30);
  }
  ENSURE(max_it <= 30);
  sc_sap_work_free(w);
}

/* mu = 0: SAP equals the QP min 1/2|v - v*|_A^2 + sum 1/2 Rn^-1 ((vhat_n - vn)+)^2,
 * solved here by enumerating the 2^nc active sets */
static void test_frictionless_qp_cross_check(void) {
  srand(41);
  const int nv = 4, nc = 3;
  sc_sap_work* w = sc_sap_work_create(nv, nc);
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  int mixed = 0;
  for (int trial = 0; trial < 30; trial++) {
    double A[16], vstar[4], J[36], R[9], vhat[9] = {0}, mu[3] = {0, 0, 0}, phi0[3] = {0};
    rand_spd(nv, A);
    for (int i = 0; i < nv; i++) vstar[i] = urand();
    for (int i = 0; i < 36; i++) J[i] = urand();
    for (int c = 0; c < nc; c++) {
      R[3 * c] = R[3 * c + 1] = urange(1e-3, 1e-1);
      R[3 * c + 2] = pow(10.0, urange(-4, -1));
      vhat[3 * c + 2] = urand();
    }
    static sc_problem_storage pst;
    sc_problem p = dense_problem(&pst, nv, nc, A, vstar, J, R, vhat, mu, phi0, 0.01);
    double v[4] = {0}, g[9];
    sc_solver_stats st;
    ENSURE(sc_sap_solve(&p, &prm, w, v, g, &st) == SC_SOLVE_OK);
    /* reference */
    int found = 0;
    for (int S = 0; S < (1 << nc); S++) {
      double M[16], b[4];
      for (int i = 0; i < 16; i++) M[i] = A[i];
      for (int i = 0; i < nv; i++) {
        b[i] = 0.0;
        for (int j = 0; j < nv; j++) b[i] += A[i + nv * j] * vstar[j];
      }
      for (int c = 0; c < nc; c++) {
        if (!(S >> c & 1)) continue;
        const double* n = J + 3 * c + 2; /* row n: entries n[9 j] */
        for (int i = 0; i < nv; i++) {
          b[i] += vhat[3 * c + 2] / R[3 * c + 2] * n[9 * i];
          for (int j = 0; j < nv; j++) M[i + nv * j] += n[9 * i] * n[9 * j] / R[3 * c + 2];
        }
      }
      gauss_solve(nv, M, b);
      int ok = 1;
      for (int c = 0; c < nc; c++) {
        double vn = 0.0;
        for (int j = 0; j < nv; j++) vn += J[3 * c + 2 + 9 * j] * b[j];
        int active = vn < vhat[3 * c + 2];
        if (active != (S >> c & 1)) ok = 0;
      }
      if (!ok) continue;
      found++;
      if (S != 0 && S != (1 << nc) - 1) mixed++;
      for (int i = 0; i < nv; i++) ENSURE_NEAR(v[i], b[i], 1e-8 * (1 + fabs(b[i])));
    }
    ENSURE(found == 1);
    for (int c = 0; c < nc; c++) ENSURE(g[3 * c] == 0.0 && g[3 * c + 1] == 0.0);
  }
  ENSURE(mixed >= 5); /* the cross-check covered partially active sets */
  sc_sap_work_free(w);
}

/* ---------- pizza saver (ref 6.3) ---------- */

#define PZ_M 3.0
#define PZ_R 1.5
#define PZ_G 10.0
#define PZ_DT 0.01

typedef struct pizza {
  double mu, k, fx, Mz, beta;
  int stress_guess; /* guess (1, 2, 3, 4) every step (Drake's test) instead of the previous v */
  double q[4], v[4];
  /* the last problem */
  double A[16], vstar[4], J[36], Rg[9], vhat[9], mus[3], phi0[3], wd[3], gamma[9];
  sc_problem p;
  sc_solver_stats st;
  int iters_total, iters_max, steps_done;
} pizza;

static void pizza_init(pizza* z, double mu, double k, double fx, double Mz, double beta) {
  memset(z, 0, sizeof *z);
  z->mu = mu;
  z->k = k;
  z->fx = fx;
  z->Mz = Mz;
  z->beta = beta;
  /* start at the static equilibrium depth (each point carries mg/3), at an
   * arbitrary orientation */
  z->q[2] = -PZ_M * PZ_G / (3.0 * k);
  z->q[3] = 3.14159265358979323846 / 5;
}

/* one symplectic-Euler step; returns the solver status */
static sc_solve_status pizza_step(pizza* z, sc_sap_work* w, const sc_sap_params* prm) {
  const double I = PZ_M * PZ_R * PZ_R, minv[4] = {1 / PZ_M, 1 / PZ_M, 1 / PZ_M, 1 / I};
  const double f[4] = {z->fx, 0.0, -PZ_M * PZ_G, z->Mz};
  memset(z->A, 0, sizeof z->A);
  for (int i = 0; i < 4; i++) {
    z->A[i + 4 * i] = 1.0 / minv[i];
    z->vstar[i] = z->v[i] + PZ_DT * minv[i] * f[i];
  }
  memset(z->J, 0, sizeof z->J);
  double kk[3], taud[3];
  for (int c = 0; c < 3; c++) {
    double ang = z->q[3] + 2.0 * 3.14159265358979323846 * c / 3.0;
    /* point velocity = (vx - R sin a w, vy + R cos a w, vz) */
    z->J[3 * c + 0 + 9 * 0] = 1.0;
    z->J[3 * c + 0 + 9 * 3] = -PZ_R * sin(ang);
    z->J[3 * c + 1 + 9 * 1] = 1.0;
    z->J[3 * c + 1 + 9 * 3] = PZ_R * cos(ang);
    z->J[3 * c + 2 + 9 * 2] = 1.0;
    z->phi0[c] = z->q[2];
    z->mus[c] = z->mu;
    kk[c] = z->k;
    taud[c] = PZ_DT;
  }
  /* one pizza's problem at a time; reused storage: no allocation after the first */
  static sc_problem_storage st;
  z->p = dense_problem(&st, 4, 3, z->A, z->vstar, z->J, z->Rg, z->vhat, z->mus, z->phi0, PZ_DT);
  sc_sap_delassus_problem(&z->p, w, z->wd);
  sc_law_sap(3, kk, taud, z->wd, z->phi0, NULL, PZ_DT, 1.0, 1e-3, z->beta, z->Rg,
                    z->vhat);
  if (z->stress_guess)
    for (int i = 0; i < 4; i++) z->v[i] = i + 1.0;
  sc_solve_status s = sc_sap_solve(&z->p, prm, w, z->v, z->gamma, &z->st);
  if (s != SC_SOLVE_OK) return s;
  z->iters_total += z->st.iterations;
  if (z->st.iterations > z->iters_max) z->iters_max = z->st.iterations;
  z->steps_done++;
  for (int i = 0; i < 4; i++) z->q[i] += PZ_DT * z->v[i];
  return s;
}

static sc_solve_status pizza_run(pizza* z, int steps, sc_sap_work* w, const sc_sap_params* prm) {
  for (int s = 0; s < steps; s++) {
    sc_solve_status st = pizza_step(z, w, prm);
    if (st != SC_SOLVE_OK) return st;
  }
  return SC_SOLVE_OK;
}

static double ft_norm(const pizza* z, int c) {
  return hypot(z->gamma[3 * c], z->gamma[3 * c + 1]) / PZ_DT;
}

/* tangential slip speed of contact c at the current v */
static double slip(const pizza* z, int c) {
  double vt[2] = {0, 0};
  for (int a = 0; a < 2; a++)
    for (int j = 0; j < 4; j++) vt[a] += z->J[3 * c + a + 9 * j] * z->v[j];
  return hypot(vt[0], vt[1]);
}

/* checks of the stiction row (ref 6.3) shared by the compliant and near-rigid cases */
static void check_stiction(const pizza* z, double vtol, double ftol) {
  for (int i = 0; i < 3; i++) ENSURE_NEAR(z->v[i], 0.0, vtol);
  for (int c = 0; c < 3; c++) {
    double fn = z->gamma[3 * c + 2] / PZ_DT;
    ENSURE_CLOSE(ft_norm(z, c), z->Mz / (3 * PZ_R), ftol, 0);
    ENSURE(ft_norm(z, c) <= z->mu * fn);
    ENSURE(slip(z, c) <= 1e-3 * PZ_DT * PZ_G);
    /* regularized stiction: v_t = -Rt gamma_t, Rt = sigma w, w = sqrt(6)/(3m) */
    ENSURE_CLOSE(slip(z, c), 1e-3 * sqrt(6.0) / (3 * PZ_M) * ft_norm(z, c) * PZ_DT, 1e-6, 0);
  }
}

/* Two setups per row.  "settled": start at the static equilibrium depth
 * z = -mg/(3k) with v = 0, warm start from the previous v (as the integrator
 * does).  "drake": start at z = 0 (touching, not in equilibrium) and guess
 * v = (1, 2, 3, 4) at every step, as Drake's sap_solver_test does to stress
 * the solver.  Both start at theta = pi/5. */
static void pizza_setup(pizza* z, int drake) {
  if (drake) {
    z->q[2] = 0.0;
    z->stress_guess = 1;
  }
}

static void pizza_table(int linesearch) {
  sc_sap_work* w = sc_sap_work_create(4, 3);
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  prm.linesearch = linesearch;
  const double mg = PZ_M * PZ_G;
  const char* name[2] = {"settled", "drake"};
  printf("  %s line search\n", linesearch == SC_SAP_LS_EXACT ? "exact" : "backtracking");
  pizza z;

  /* Delassus estimate of the pizza saver: W_ii = (I3 + u u^T)/m, |.|_F = sqrt(6)/m */
  pizza_init(&z, 1.0, 1e4, 0, 0, 0);
  pizza_step(&z, w, &prm);
  for (int c = 0; c < 3; c++) ENSURE_CLOSE(z.wd[c], sqrt(6.0) / (3 * PZ_M), 1e-14, 0);

  for (int drake = 0; drake < 2; drake++) {
    /* row 1: no torque, mu = 1, 30 steps: at rest, f_n = mg/3, f_t = 0 */
    pizza_init(&z, 1.0, 1e4, 0, 0, 0);
    pizza_setup(&z, drake);
    long a0 = sc_alloc_count();
    ENSURE(pizza_run(&z, 30, w, &prm) == SC_SOLVE_OK);
    ENSURE(sc_alloc_count() == a0);
    double vmax = 0, fterr = 0, fnerr = 0, gen[4] = {0};
    for (int i = 0; i < 4; i++) {
      ENSURE_NEAR(z.v[i], 0.0, 1e-10);
      vmax = fmax(vmax, fabs(z.v[i]));
    }
    for (int c = 0; c < 3; c++) {
      ENSURE_CLOSE(z.gamma[3 * c + 2] / PZ_DT, mg / 3, 1e-6, 0);
      ENSURE_NEAR(ft_norm(&z, c), 0.0, 1e-6 * mg);
      fterr = fmax(fterr, ft_norm(&z, c));
      fnerr = fmax(fnerr, fabs(z.gamma[3 * c + 2] / PZ_DT - mg / 3) / (mg / 3));
    }
    for (int i = 0; i < 4; i++)
      for (int k = 0; k < 9; k++) gen[i] += z.J[k + 9 * i] * z.gamma[k] / PZ_DT;
    ENSURE_NEAR(gen[0], 0.0, 1e-6 * mg);
    ENSURE_NEAR(gen[1], 0.0, 1e-6 * mg);
    ENSURE_CLOSE(gen[2], mg, 1e-6, 0);
    ENSURE_NEAR(gen[3], 0.0, 1e-6 * mg * PZ_R);
    printf("  %s rest: Newton iterations total %d max %d; |v|max %.2g, f_n rel err %.2g, "
           "|f_t| %.2g N\n",
           name[drake], z.iters_total, z.iters_max, vmax, fnerr, fterr);

    /* row 2: the exact guess with max_iterations = 0 returns the guess, 0 iterations */
    {
      sc_sap_params p0 = prm;
      p0.max_iterations = 0;
      double v[4], g[9];
      for (int i = 0; i < 4; i++) v[i] = z.v[i];
      sc_solver_stats st;
      ENSURE(sc_sap_solve(&z.p, &p0, w, v, g, &st) == SC_SOLVE_OK);
      ENSURE(st.iterations == 0);
      for (int i = 0; i < 4; i++) ENSURE(v[i] == z.v[i]);
      /* a guess that is not exact fails with max_iterations = 0 and is returned unchanged */
      v[2] = 0.1;
      ENSURE(sc_sap_solve(&z.p, &p0, w, v, g, &st) == SC_SOLVE_MAXIT);
      ENSURE(v[2] == 0.1 && st.iterations == 0);
    }

    /* row 3: stiction, mu = 2/3, Mz = 20 (< mu m g R = 30), 40 steps */
    pizza_init(&z, 2.0 / 3.0, 1e4, 0, 20.0, 0);
    pizza_setup(&z, drake);
    ENSURE(pizza_run(&z, 40, w, &prm) == SC_SOLVE_OK);
    check_stiction(&z, 1e-10, 1e-6);
    printf("  %s stiction: Newton iterations total %d max %d; |v_xyz| %.2g %.2g %.2g; "
           "|f_t| rel err %.2g; slip %.3g m/s\n",
           name[drake], z.iters_total, z.iters_max, fabs(z.v[0]), fabs(z.v[1]), fabs(z.v[2]),
           fabs(ft_norm(&z, 0) - 20.0 / (3 * PZ_R)) / (20.0 / (3 * PZ_R)), slip(&z, 0));

    /* row 4: mu = 0, f_x = 1 N, 30 steps: free sliding, v_x = 30 dt f_x / m, f_t = 0 exactly */
    pizza_init(&z, 0.0, 1e4, 1.0, 0, 0);
    pizza_setup(&z, drake);
    ENSURE(pizza_run(&z, 30, w, &prm) == SC_SOLVE_OK);
    ENSURE_CLOSE(z.v[0], 30 * PZ_DT * 1.0 / PZ_M, 1e-12, 0);
    for (int c = 0; c < 3; c++) ENSURE(z.gamma[3 * c] == 0.0 && z.gamma[3 * c + 1] == 0.0);
    printf("  %s mu=0: Newton iterations total %d max %d; v_x rel err %.2g\n", name[drake],
           z.iters_total, z.iters_max, fabs(z.v[0] - 0.1) / 0.1);

    /* row 5: sliding, mu = 2/3, Mz = 40 (> 30), 10 steps: spins up, |f_t| = mu f_n */
    pizza_init(&z, 2.0 / 3.0, 1e4, 0, 40.0, 0);
    pizza_setup(&z, drake);
    ENSURE(pizza_run(&z, 10, w, &prm) == SC_SOLVE_OK);
    ENSURE(z.v[3] > 0.0);
    double cone_err = 0;
    for (int c = 0; c < 3; c++) {
      double fn = z.gamma[3 * c + 2] / PZ_DT;
      ENSURE_CLOSE(ft_norm(&z, c), z.mu * fn, 1e-14, 0);
      cone_err = fmax(cone_err, fabs(ft_norm(&z, c) - z.mu * fn) / (z.mu * fn));
    }
    /* a line search capped at one evaluation fails with its own status */
    {
      pizza zz;
      sc_sap_params p1 = prm;
      p1.ls_max_iterations = 1;
      pizza_init(&zz, 2.0 / 3.0, 1e4, 0, 40.0, 0);
      pizza_setup(&zz, 1);
      ENSURE(pizza_run(&zz, 1, w, &p1) == SC_SOLVE_LINESEARCH);
    }
    printf("  %s sliding: Newton iterations total %d max %d; thetadot %.6g; "
           "||f_t| - mu f_n| rel %.2g\n",
           name[drake], z.iters_total, z.iters_max, z.v[3], cone_err);

    /* row 6: near-rigid k = 1e20, Mz = 20, beta = 1: converges with the stiction results */
    pizza_init(&z, 2.0 / 3.0, 1e20, 0, 20.0, 1.0);
    pizza_setup(&z, drake);
    ENSURE(pizza_run(&z, 40, w, &prm) == SC_SOLVE_OK);
    check_stiction(&z, 1e-9, 1e-9);
    printf("  %s near-rigid beta=1: Newton iterations total %d max %d; |v_xyz| %.2g %.2g %.2g; "
           "|f_t| rel err %.2g\n",
           name[drake], z.iters_total, z.iters_max, fabs(z.v[0]), fabs(z.v[1]), fabs(z.v[2]),
           fabs(ft_norm(&z, 0) - 20.0 / (3 * PZ_R)) / (20.0 / (3 * PZ_R)));
  }

  /* row 6, beta = 0 (Drake setup): Drake's solver fails here (ref 4.5, 6.3).  The
   * backtracking search fails too, with a status, not a crash.  The exact search
   * converges: it takes no Newton step from a point whose cost is above l(0) (see
   * search_exact), so the iteration descends through the round-off of k = 1e20 and
   * ends at the stiction results of beta = 1 by the unchanged stopping test.  In the
   * settled setup the warm start is already the answer, so beta = 0 does not fail there. */
  pizza_init(&z, 2.0 / 3.0, 1e20, 0, 20.0, 0.0);
  pizza_setup(&z, 1);
  sc_solve_status s = pizza_run(&z, 30, w, &prm);
  if (linesearch == SC_SAP_LS_EXACT) {
    ENSURE(s == SC_SOLVE_OK);
    check_stiction(&z, 1e-9, 1e-9);
  } else {
    ENSURE(s != SC_SOLVE_OK);
  }
  ENSURE(z.st.status == s);
  for (int i = 0; i < 4; i++) ENSURE(isfinite(z.v[i]));
  for (int i = 0; i < 9; i++) ENSURE(isfinite(z.gamma[i]));
  printf("  drake near-rigid beta=0: status %d at step %d after %d Newton iterations, "
         "%d line-search evaluations\n",
         (int)s, z.steps_done + 1, z.st.iterations, z.st.linesearch_evals);
  pizza_init(&z, 2.0 / 3.0, 1e20, 0, 20.0, 0.0);
  s = pizza_run(&z, 40, w, &prm);
  printf("  settled near-rigid beta=0: status %d after %d steps\n", (int)s, z.steps_done);
  sc_sap_work_free(w);
}

static void test_pizza_table_exact(void) { pizza_table(SC_SAP_LS_EXACT); }
static void test_pizza_table_backtracking(void) { pizza_table(SC_SAP_LS_BACKTRACKING); }

/* no contacts: v = v*, 0 iterations; non-finite input: SC_SOLVE_NAN */
static void test_edge_cases(void) {
  sc_sap_work* w = sc_sap_work_create(2, 1);
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  double A[4] = {2, 0, 0, 3}, vstar[2] = {1, -2}, v[2] = {5, 5}, J[6] = {1, 0, 0, 0, 1, 1};
  double R[3] = {1, 1, 1}, vhat[3] = {0, 0, 0}, mu[1] = {0.5}, phi0[1] = {0};
  static sc_problem_storage pst;
  sc_problem p = dense_problem(&pst, 2, 0, A, vstar, J, R, vhat, mu, phi0, 0.01);
  sc_solver_stats st;
  ENSURE(sc_sap_solve(&p, &prm, w, v, NULL, &st) == SC_SOLVE_OK);
  ENSURE(v[0] == 1 && v[1] == -2 && st.iterations == 0);
  p = dense_problem(&pst, 2, 1, A, vstar, J, R, vhat, mu, phi0, 0.01);
  double g[3];
  vstar[0] = NAN;
  ENSURE(sc_sap_solve(&p, &prm, w, v, g, &st) == SC_SOLVE_NAN);
  vstar[0] = 1;
  v[1] = INFINITY;
  ENSURE(sc_sap_solve(&p, &prm, w, v, g, &st) == SC_SOLVE_NAN);
  v[1] = 0;
  ENSURE(sc_sap_solve(&p, &prm, w, v, g, &st) == SC_SOLVE_OK);
  p.nv = 3;
  ENSURE(sc_sap_solve(&p, &prm, w, v, g, &st) != SC_SOLVE_OK);
  sc_sap_work_free(w);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_project_finite_differences);
  RUN(test_project_G_symmetric_psd);
  RUN(test_project_continuity);
  RUN(test_project_frictionless);
  RUN(test_regularize);
  RUN(test_delassus);
  RUN(test_gradient_and_hessian_fd);
  RUN(test_solve_random_warm_start_backtracking);
  RUN(test_frictionless_qp_cross_check);
  RUN(test_pizza_table_exact);
  RUN(test_pizza_table_backtracking);
  RUN(test_edge_cases);
  return TEST_END();
}
