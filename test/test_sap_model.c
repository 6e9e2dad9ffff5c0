/* Contact models similar and lagged (sap_model.c): the normal law n, N, n'
 * and the per-contact gamma and G against finite differences in every
 * regime, G symmetric PSD, the limits mu = 0 and d = 0, the parameter
 * builder, a resting contact that sinks mg/k, a sliding particle without
 * lift (lagged), the closed forms of Drake's pizza-saver test case for
 * both models, and the time order of the theta-generalized normal law. */
#include "harness.h"
#include "problem_util.h"
#include "sym3.h"
#include "core/core.h"
#include "solver_sap/sap.h"
#include "constraint/law.h"
#include "solver_sap/sap_model.h"

#include <stdlib.h>

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }
static double urange(double a, double b) { return a + (b - a) * 0.5 * (urand() + 1.0); }

/* ---------- the normal law ---------- */

/* n = N' and n' = dn/dv by central differences, on both sides of v^ and
 * with either factor limiting; n closed form checked against its definition */
static void test_normal_law_fd(void) {
  srand(3);
  int checked = 0;
  for (int trial = 0; trial < 400; trial++) {
    const double dt = trial % 2 ? 1e-3 : 1e-2;
    const double k = pow(10.0, urange(2, 6)), d = trial % 5 == 0 ? 0.0 : urange(0, 50);
    const double fe0 = urange(-5, 30);
    const double vx = fe0 / (dt * k), vd = d > 0 ? 1 / d : HUGE_VAL, vh = fmin(vx, vd);
    const double scale = fmax(fabs(vh), 1e-3);
    double v = vh + scale * urange(-3, 1);
    if (fabs(v - vh) < 1e-3 * scale) continue; /* away from the kink */
    double n, dn, N;
    sc_sap_hc_normal(v, dt, k, fe0, d, &n, &dn, &N);
    const double ref = dt * fmax(0.0, fe0 - dt * k * v) * fmax(0.0, 1 - d * v);
    ENSURE_CLOSE(n, ref, 1e-13, 1e-300);
    const double h = 1e-5 * fmin(scale, fabs(v - vh));
    double n1, dn1, N1, n2, dn2, N2;
    sc_sap_hc_normal(v + h, dt, k, fe0, d, &n1, &dn1, &N1);
    sc_sap_hc_normal(v - h, dt, k, fe0, d, &n2, &dn2, &N2);
    const double nscale = dt * (fabs(fe0) + dt * k * scale) * (1 + d * scale);
    ENSURE_NEAR((N1 - N2) / (2 * h), n, 1e-6 * nscale);
    ENSURE_NEAR((n1 - n2) / (2 * h), dn, 1e-6 * nscale / scale);
    ENSURE(dn <= 0.0);
    if (v >= vh) ENSURE(n == 0.0 && dn == 0.0);
    checked++;
  }
  ENSURE(checked > 300);
  /* N is continuous at v^ and constant beyond */
  double n, dn, Na, Nb, Nc;
  sc_sap_hc_normal(0.2 - 1e-12, 1e-3, 1e4, 2.0, 1.0, &n, &dn, &Na);
  sc_sap_hc_normal(0.2, 1e-3, 1e4, 2.0, 1.0, &n, &dn, &Nb);
  sc_sap_hc_normal(5.0, 1e-3, 1e4, 2.0, 1.0, &n, &dn, &Nc);
  ENSURE_NEAR(Na, Nb, 1e-15);
  ENSURE(Nb == Nc);
}

/* ---------- gamma and G per contact ---------- */

typedef struct hc_case {
  int lagged;
  double hc[SC_HC_NPAR], mu, dt;
} hc_case;

static double cost_at(const hc_case* c, const double vc[3], double gamma[3]) {
  double g[3], l;
  sc_sap_hc_eval(c->lagged, c->hc, c->mu, c->dt, vc, gamma ? gamma : g, NULL, &l);
  return l;
}

static void random_case(hc_case* c, int lagged) {
  c->lagged = lagged;
  c->dt = rand() % 2 ? 1e-3 : 1e-2;
  c->mu = rand() % 6 == 0 ? 0.0 : urange(0.1, 1.2);
  c->hc[SC_HC_K] = pow(10.0, urange(3, 6));
  c->hc[SC_HC_FE0] = urange(1, 30);
  c->hc[SC_HC_D] = rand() % 6 == 0 ? 0.0 : urange(0, 50);
  c->hc[SC_HC_N0] = c->dt * urange(0, 30);
  c->hc[SC_HC_EPS] = pow(10.0, urange(-6, -3));
  c->hc[SC_HC_VT0] = c->hc[SC_HC_VT1] = 0.0;
}

/* v^ of the normal law of c */
static double vhat_of(const hc_case* c) {
  const double vx = c->hc[SC_HC_FE0] / (c->dt * c->hc[SC_HC_K]);
  return c->hc[SC_HC_D] > 0 ? fmin(vx, 1 / c->hc[SC_HC_D]) : vx;
}

/* regime 1 sticking (|v_t| = 0.3 eps), 2 sliding (|v_t| >> eps), 3 separated;
 * the normal argument (vn or z) is placed away from v^ */
static void vc_in_regime(const hc_case* c, int regime, double vc[3]) {
  const double eps = c->hc[SC_HC_EPS], vh = vhat_of(c);
  const double vt = regime == 1 ? 0.3 * eps : eps * urange(20, 2000), th = urange(0, 6.283);
  vc[0] = vt * cos(th);
  vc[1] = vt * sin(th);
  const double vts = sqrt(vt * vt + eps * eps) - eps;
  const double arg = regime == 3 ? vh + fabs(vh) * urange(0.2, 2) + 1e-3 : vh - fabs(vh) * urange(0.2, 2) - 1e-4;
  vc[2] = c->lagged ? arg : arg + c->mu * vts;
}

/* The stiction anchor's target v^_t (hc VT0, VT1) shifts the friction law's
 * argument: every output at vc with target T equals the output at vc - T
 * with no target (to the round-off of forming vc - T), in each regime of
 * both models, for the full, directional and third-derivative forms; and
 * at v_t = T the friction impulse is exactly 0. */
static void test_target_shift(void) {
  srand(11);
  for (int lagged = 0; lagged < 2; lagged++)
    for (int regime = 1; regime <= 3; regime++)
      for (int trial = 0; trial < 40; trial++) {
        hc_case c;
        random_case(&c, lagged);
        double u[3], vc[3], d[3] = {urange(-1, 1), urange(-1, 1), urange(-1, 1)};
        vc_in_regime(&c, regime, u);
        hc_case s = c;
        const double T[2] = {c.hc[SC_HC_EPS] * urange(-50, 50), c.hc[SC_HC_EPS] * urange(-50, 50)};
        s.hc[SC_HC_VT0] = T[0], s.hc[SC_HC_VT1] = T[1];
        vc[0] = u[0] + T[0], vc[1] = u[1] + T[1], vc[2] = u[2];
        /* the argument the shifted law sees, as it forms it */
        const double ue[3] = {vc[0] - T[0], vc[1] - T[1], vc[2]};
        double g0[3], G0[9], l0, g1[3], G1[9], l1;
        const int r0 = sc_sap_hc_eval(lagged, c.hc, c.mu, c.dt, ue, g0, G0, &l0);
        const int r1 = sc_sap_hc_eval(lagged, s.hc, s.mu, s.dt, vc, g1, G1, &l1);
        ENSURE(r0 == r1);
        ENSURE(l0 == l1);
        for (int k = 0; k < 3; k++) ENSURE(g0[k] == g1[k]);
        for (int k = 0; k < 9; k++) ENSURE(G0[k] == G1[k]);
        double c0, dg0, dG0, c1, dg1, dG1;
        sc_sap_hc_eval_dir(lagged, c.hc, c.mu, c.dt, ue, d, &c0, &dg0, &dG0);
        sc_sap_hc_eval_dir(lagged, s.hc, s.mu, s.dt, vc, d, &c1, &dg1, &dG1);
        ENSURE(c0 == c1 && dg0 == dg1 && dG0 == dG1);
        double vh = vhat_of(&c), t0[3], t1[3];
        sc_sap_hc_lagged_third(1, c.hc, &vh, &c.mu, c.dt, ue, d, t0);
        sc_sap_hc_lagged_third(1, s.hc, &vh, &s.mu, s.dt, vc, d, t1);
        for (int k = 0; k < 3; k++) ENSURE(t0[k] == t1[k]);
        /* slip equal to the target: no friction */
        const double at[3] = {T[0], T[1], u[2]};
        sc_sap_hc_eval(lagged, s.hc, s.mu, s.dt, at, g1, NULL, &l1);
        ENSURE(g1[0] == 0.0 && g1[1] == 0.0);
      }
}

/* gamma = -dl/dvc and G = -dgamma/dvc by central differences, G symmetric
 * PSD, in each regime of both models; the reported region matches */
static void test_gamma_G_fd(void) {
  srand(7);
  for (int lagged = 0; lagged < 2; lagged++)
    for (int regime = 1; regime <= 3; regime++)
      for (int trial = 0; trial < 60; trial++) {
        hc_case c;
        random_case(&c, lagged);
        double vc[3], gamma[3], G[9], l;
        vc_in_regime(&c, regime, vc);
        int region = sc_sap_hc_eval(lagged, c.hc, c.mu, c.dt, vc, gamma, G, &l);
        if (regime == 3) ENSURE(region == 3 && gamma[2] == 0.0);
        else ENSURE(region == regime);
        if (regime == 3 && !lagged) ENSURE(gamma[0] == 0.0 && gamma[1] == 0.0);
        const double eps = c.hc[SC_HC_EPS];
        const double vt = hypot(vc[0], vc[1]);
        /* steps: small against the distance to v^ and to the soft-norm scale */
        const double ht = 1e-4 * (regime == 1 ? eps : fmin(vt, 1.0));
        const double hn = 1e-4 * fmax(fabs(vhat_of(&c)), 1e-4);
        const double gscale = fabs(gamma[2]) + c.mu * fmax(c.hc[SC_HC_N0], fabs(gamma[2])) + 1e-12;
        for (int a = 0; a < 3; a++) {
          const double h = a < 2 ? ht : hn;
          double vp[3] = {vc[0], vc[1], vc[2]}, vm[3] = {vc[0], vc[1], vc[2]};
          vp[a] += h;
          vm[a] -= h;
          double gp[3], gm[3];
          const double lp = cost_at(&c, vp, gp), lm = cost_at(&c, vm, gm);
          ENSURE_NEAR(-(lp - lm) / (2 * h), gamma[a], 1e-6 * gscale);
          for (int b = 0; b < 3; b++) {
            const double Gfd = -(gp[b] - gm[b]) / (2 * h);
            const double Gs = fabs(G[3 * b + b]) + fabs(G[3 * a + a]) + 1e-9;
            ENSURE_NEAR(Gfd, G[3 * b + a], 1e-5 * Gs);
          }
        }
        for (int a = 0; a < 3; a++)
          for (int b = 0; b < 3; b++) ENSURE(G[3 * a + b] == G[3 * b + a]);
        double ev[3];
        sym3_eig(G, ev);
        const double gmax = fmax(fabs(G[0]) + fabs(G[4]), fabs(G[8])) + 1e-300;
        for (int a = 0; a < 3; a++) ENSURE(ev[a] >= -1e-12 * gmax);
      }
}

/* sc_sap_hc_lagged_third against central differences of G along the same
 * direction, (G(vc + h d) - G(vc - h d)) d / 2h, in each regime of the
 * lagged model (the normal argument away from v^, where n'' jumps); random
 * contacts, points and directions.  Tolerance 1e-5 of the size of the
 * terms that make up each component. */
static void test_lagged_third_fd(void) {
  srand(11);
  int n = 0;
  for (int regime = 1; regime <= 3; regime++)
    for (int trial = 0; trial < 60; trial++) {
      hc_case c;
      random_case(&c, 1);
      double vc[3], vh, T[3];
      vc_in_regime(&c, regime, vc);
      sc_sap_hc_vhat(1, c.hc, c.dt, &vh);
      const double eps = c.hc[SC_HC_EPS], vt = hypot(vc[0], vc[1]);
      const double st = regime == 1 ? eps : vt, sn = fmax(fabs(vhat_of(&c)), 1e-4);
      const double d[3] = {st * urand(), st * urand(), sn * urand()};
      sc_sap_hc_lagged_third(1, c.hc, &vh, &c.mu, c.dt, vc, d, T);
      const double h = 1e-4;
      double vp[3], vm[3], g[3], Gp[9], Gm[9], l;
      for (int a = 0; a < 3; a++) vp[a] = vc[a] + h * d[a], vm[a] = vc[a] - h * d[a];
      sc_sap_hc_eval(1, c.hc, c.mu, c.dt, vp, g, Gp, &l);
      sc_sap_hc_eval(1, c.hc, c.mu, c.dt, vm, g, Gm, &l);
      /* scale: |d|^2 times the largest third derivative of the terms */
      const double s = vt * vt + eps * eps;
      const double ft = c.mu * c.hc[SC_HC_N0] / s * (d[0] * d[0] + d[1] * d[1]) * 6.0;
      const double fn = 2.0 * c.dt * c.dt * c.hc[SC_HC_K] * c.hc[SC_HC_D] * d[2] * d[2];
      for (int a = 0; a < 3; a++) {
        double fd = 0.0;
        for (int b = 0; b < 3; b++) fd += (Gp[3 * a + b] - Gm[3 * a + b]) * d[b] / (2 * h);
        ENSURE_NEAR(T[a], fd, 1e-5 * ((a < 2 ? ft : fn) + 1e-300));
      }
      if (regime == 3) ENSURE(T[2] == 0.0);
      n++;
    }
  printf("  %d contacts (stick, slide, open) match\n", n);
}

/* The line search's directional form (sc_sap_contact_eval_dir) against the
 * full evaluation: d.gamma and d^T G d from gamma and G, the same cost and
 * region, for the three models in every region; random contacts, points and
 * directions.  Tolerance: round-off, 1e-13 |d| |gamma| for d.gamma and
 * 1e-12 |d|^2 sum|G_ij| for d^T G d (the full G's soft-norm terms
 * a (1 - t0^2) already cancel to that level); the cost is the same
 * expression (1e-15 relative). */
static void check_dir(const sc_problem* P, const double vc[3], const double d[3], int* hits) {
  double g[3], G[9], l, ld, dg, dGd, ld2, dg2;
  const int reg = sc_sap_contact_eval(P, 0, vc, 1e-7, g, G, &l);
  const int regd = sc_sap_contact_eval_dir(P, 0, vc, d, 1e-7, &ld, &dg, &dGd);
  const int regn = sc_sap_contact_eval_dir(P, 0, vc, d, 1e-7, &ld2, &dg2, NULL);
  ENSURE(reg == regd && reg == regn);
  hits[reg & 3]++;
  const double dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  const double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  double ref_dg = 0.0, ref_dGd = 0.0, gs = 0.0;
  for (int a = 0; a < 3; a++) {
    ref_dg += d[a] * g[a];
    for (int b = 0; b < 3; b++) {
      ref_dGd += d[a] * G[3 * a + b] * d[b];
      gs += fabs(G[3 * a + b]);
    }
  }
  ENSURE_CLOSE(ld, l, 1e-15, 1e-300);
  ENSURE(ld2 == ld && dg2 == dg);
  ENSURE_NEAR(dg, ref_dg, 1e-13 * dn * gn + 1e-300);
  ENSURE_NEAR(dGd, ref_dGd, 1e-12 * dn * dn * gs + 1e-300);
  ENSURE(dGd >= 0.0);
}

static void test_directional_eval(void) {
  srand(11);
  /* Hunt-Crossley models: each regime of vc_in_regime */
  for (int lagged = 0; lagged < 2; lagged++) {
    int hits[4] = {0, 0, 0, 0};
    for (int regime = 1; regime <= 3; regime++)
      for (int trial = 0; trial < 200; trial++) {
        hc_case c;
        random_case(&c, lagged);
        sc_problem P;
        memset(&P, 0, sizeof P);
        P.nc = 1;
        P.mu = &c.mu;
        P.dt = c.dt;
        P.model = lagged ? SC_MODEL_LAGGED : SC_MODEL_SIMILAR;
        P.hc = c.hc;
        double vc[3], d[3];
        vc_in_regime(&c, regime, vc);
        const double s = pow(10.0, urange(-4, 1));
        for (int a = 0; a < 3; a++) d[a] = s * urand();
        if (trial % 10 == 0) d[0] = d[1] = 0.0; /* normal only */
        if (trial % 10 == 1) d[2] = 0.0;        /* tangential only */
        check_dir(&P, vc, d, hits);
      }
    ENSURE(hits[1] >= 150 && hits[2] >= 150 && hits[3] >= 150);
  }
  /* SAP: y = R^-1 (vhat - vc) spread over the three regions, |y_t| down to
   * the soft norm's scale */
  int hits[4] = {0, 0, 0, 0};
  for (int trial = 0; trial < 3000; trial++) {
    double R[3], vhat[3] = {0.0, 0.0, urange(-0.1, 0.1)}, y[3], vc[3], d[3];
    const double mu = trial % 7 == 0 ? 0.0 : urange(0.05, 1.5);
    R[0] = R[1] = pow(10.0, urange(-3, 1));
    R[2] = pow(10.0, urange(-4, 0));
    const double yt = pow(10.0, urange(-9, 0)), th = urange(0, 6.283);
    y[0] = yt * cos(th);
    y[1] = yt * sin(th);
    y[2] = urange(-1, 1) * pow(10.0, urange(-9, 0));
    for (int a = 0; a < 3; a++) vc[a] = vhat[a] - R[a] * y[a];
    const double s = pow(10.0, urange(-4, 1));
    for (int a = 0; a < 3; a++) d[a] = s * urand();
    sc_problem P;
    memset(&P, 0, sizeof P);
    P.nc = 1;
    P.mu = &mu;
    P.R = R;
    P.vhat = vhat;
    P.model = SC_MODEL_SAP;
    check_dir(&P, vc, d, hits);
  }
  ENSURE(hits[1] >= 300 && hits[2] >= 300 && hits[3] >= 300);
}

/* The solver's loops over the contacts, with v^ from sc_sap_hc_vhat: the
 * line search's sums (sc_sap_hc_line_sums) against sc_sap_hc_eval_dir
 * contact by contact at vc + alpha dvc, and the evaluation
 * (sc_sap_hc_eval_all) against sc_sap_hc_eval, summed in the same order:
 * bit-identical (the loops only hoist v^ out), for both models, with
 * contacts in every regime and the special normal laws (k = 0 with fe0 <= 0:
 * no force; d = 0; fe0 < 0), and contacts without lagged friction (n0 = 0 or
 * mu = 0), which the line search sums without the friction terms. */
static void test_line_sums_match_dir(void) {
  srand(13);
  enum { NC = 60 };
  for (int lagged = 0; lagged < 2; lagged++)
    for (int trial = 0; trial < 20; trial++) {
      double hc[SC_HC_NPAR * NC], mu[NC], vh[NC], vc[3 * NC], dvc[3 * NC];
      const double dt = trial % 2 ? 1e-3 : 1e-2;
      for (int c = 0; c < NC; c++) {
        hc_case x;
        random_case(&x, lagged);
        x.dt = dt;
        if (c % 7 == 3) x.hc[SC_HC_K] = 0.0, x.hc[SC_HC_FE0] = -1.0; /* no force */
        if (c % 7 == 4) x.hc[SC_HC_FE0] = -urange(0.1, 5);           /* a gap */
        if (c % 7 == 5) x.hc[SC_HC_D] = 0.0;
        if (c % 5 == 2) x.hc[SC_HC_N0] = 0.0; /* apart at the step start: no lagged friction */
        if (c % 11 == 6) x.mu = 0.0;
        memcpy(hc + SC_HC_NPAR * c, x.hc, sizeof x.hc);
        mu[c] = x.mu;
        vc_in_regime(&x, 1 + c % 3, vc + 3 * c);
        const double sc = pow(10.0, urange(-4, 1));
        for (int a = 0; a < 3; a++) dvc[3 * c + a] = sc * urand();
      }
      sc_sap_hc_vhat(NC, hc, dt, vh);
      const double alpha = trial % 3 == 0 ? 0.0 : urange(0, 1.5);
      double l = 0.0, dl = 0.0, d2l = 0.0, l2, dl2;
      for (int c = 0; c < NC; c++) {
        double v[3], lc, dg, dGd;
        for (int a = 0; a < 3; a++) v[a] = vc[3 * c + a] + alpha * dvc[3 * c + a];
        sc_sap_hc_eval_dir(lagged, hc + SC_HC_NPAR * c, mu[c], dt, v, dvc + 3 * c, &lc, &dg,
                           &dGd);
        l += lc;
        dl -= dg;
        d2l += dGd;
      }
      double ls, dls, d2ls;
      sc_sap_hc_line_sums(NC, lagged, hc, vh, mu, dt, vc, dvc, alpha, &ls, &dls, &d2ls);
      sc_sap_hc_line_sums(NC, lagged, hc, vh, mu, dt, vc, dvc, alpha, &l2, &dl2, NULL);
      ENSURE(memcmp(&ls, &l, sizeof l) == 0 && memcmp(&dls, &dl, sizeof dl) == 0 &&
             memcmp(&d2ls, &d2l, sizeof d2l) == 0);
      ENSURE(memcmp(&l2, &l, sizeof l) == 0 && memcmp(&dl2, &dl, sizeof dl) == 0);
      ENSURE(isfinite(l) && isfinite(dl) && d2l > 0.0);
      /* the full evaluation at vc */
      double g1[3 * NC], G1[9 * NC], g2[3 * NC], G2[9 * NC], cost1 = 0.0;
      int r1[NC], r2[NC];
      for (int c = 0; c < NC; c++) {
        double lc;
        r1[c] = sc_sap_hc_eval(lagged, hc + SC_HC_NPAR * c, mu[c], dt, vc + 3 * c, g1 + 3 * c,
                               G1 + 9 * c, &lc);
        cost1 += lc;
      }
      const double cost2 = sc_sap_hc_eval_all(NC, lagged, hc, vh, mu, dt, vc, g2, G2, r2);
      ENSURE(memcmp(&cost1, &cost2, sizeof cost1) == 0 && memcmp(g1, g2, sizeof g1) == 0 &&
             memcmp(G1, G2, sizeof G1) == 0 && memcmp(r1, r2, sizeof r1) == 0);
    }
}

/* Coulomb's bound and the limits mu = 0, d = 0 */
static void test_limits(void) {
  srand(5);
  for (int trial = 0; trial < 200; trial++) {
    hc_case c;
    random_case(&c, trial % 2);
    double vc[3], g[3], G[9], l;
    vc_in_regime(&c, 1 + trial % 3, vc);
    sc_sap_hc_eval(c.lagged, c.hc, c.mu, c.dt, vc, g, G, &l);
    const double nf = c.lagged ? c.hc[SC_HC_N0] : g[2];
    ENSURE(hypot(g[0], g[1]) <= c.mu * nf * (1 + 1e-15));
    /* friction opposes slip */
    ENSURE(g[0] * vc[0] + g[1] * vc[1] <= 0.0);
    /* mu = 0: no friction, no coupling, the normal law alone */
    hc_case f = c;
    f.mu = 0.0;
    sc_sap_hc_eval(f.lagged, f.hc, 0.0, f.dt, vc, g, G, &l);
    double n, dn, N;
    sc_sap_hc_normal(vc[2], f.dt, f.hc[SC_HC_K], f.hc[SC_HC_FE0], f.hc[SC_HC_D], &n, &dn, &N);
    ENSURE(g[0] == 0.0 && g[1] == 0.0 && g[2] == n && G[8] == -dn);
    ENSURE(G[0] == 0.0 && G[2] == 0.0 && G[5] == 0.0);
    ENSURE(l == -N);
  }
  /* d = 0: n = dt (fe0 - dt k v)+, linear spring */
  double n, dn, N;
  sc_sap_hc_normal(-0.01, 1e-3, 1e4, 3.0, 0.0, &n, &dn, &N);
  ENSURE_CLOSE(n, 1e-3 * (3.0 + 1e-3 * 1e4 * 0.01), 1e-15, 0);
  ENSURE_CLOSE(dn, -1e-6 * 1e4, 1e-15, 0);
}

/* parameters: theta forms, the near-rigid cap, n0 and eps */
static void test_params(void) {
  const double k[3] = {1e4, HUGE_VAL, 1e12}, d[3] = {20, 10, 0}, w[3] = {1.0, 2.0, 0.5};
  const double phi0[3] = {-1e-3, -2e-6, 1e-4}, vn0[3] = {-0.5, 0.1, 0.0}, mu[3] = {0.5, 1, 0};
  double hc[3 * SC_HC_NPAR];
  const double dt = 1e-3, pi = 3.14159265358979323846;
  sc_law_hc(3, k, d, w, phi0, vn0, mu, dt, 0.5, 1e-3, 0.0, 1e-5, hc);
  /* contact 0: compliant, theta = 1/2 */
  ENSURE_CLOSE(hc[SC_HC_K], 0.25 * 1e4, 1e-15, 0);
  ENSURE_CLOSE(hc[SC_HC_FE0], 1e4 * (1e-3 - 0.25 * dt * -0.5), 1e-15, 0);
  ENSURE_CLOSE(hc[SC_HC_N0], dt * 1e4 * 1e-3 * (1 + 20 * 0.5), 1e-15, 0);
  ENSURE_CLOSE(hc[SC_HC_EPS], fmax(1e-5, 0.5 * 1e-3 * 1.0 * hc[SC_HC_N0]), 1e-15, 0);
  /* contact 1: rigid with beta = 0 uses beta = 1: k = 4 pi^2 / (w dt^2) */
  const double* h1 = hc + SC_HC_NPAR;
  const double kr = 4 * pi * pi / (2.0 * dt * dt);
  ENSURE_CLOSE(h1[SC_HC_K], 0.25 * kr, 1e-14, 0);
  ENSURE_CLOSE(h1[SC_HC_N0], dt * kr * 2e-6 * (1 - 10 * 0.1), 1e-12, 1e-18);
  /* contact 2: beta = 0 leaves a finite k alone; a gap gives fe0 < 0, n0 = 0 */
  const double* h2 = hc + 2 * SC_HC_NPAR;
  ENSURE(h2[SC_HC_K] == 0.25 * 1e12 && h2[SC_HC_FE0] < 0 && h2[SC_HC_N0] == 0.0);
  ENSURE(h2[SC_HC_EPS] == 1e-5);
  /* beta = 1 caps it */
  sc_law_hc(3, k, d, w, phi0, vn0, mu, dt, 1.0, 1e-3, 1.0, 1e-5, hc);
  ENSURE_CLOSE(hc[2 * SC_HC_NPAR + SC_HC_K], 4 * pi * pi / (0.5 * dt * dt), 1e-14, 0);
  ENSURE(hc[SC_HC_K] == 1e4);
}

/* ---------- solves ---------- */

/* one particle (3 dofs, J = I) on the ground: mass m, gravity along -n */
typedef struct particle {
  double m, k, d, mu, dt, theta;
  double x, v[3]; /* penetration (m), velocity */
  double A[9], vstar[3], J[9], R[3], vhat[3], mus[1], phi0[1], wd[1], hc[SC_HC_NPAR], gamma[3];
  sc_problem p;
  sc_solver_stats st;
} particle;

static sc_solve_status particle_step(particle* P, sc_contact_model model, sc_sap_work* w,
                                     const double fext[3]) {
  const double g = 9.81;
  memset(P->A, 0, sizeof P->A);
  memset(P->J, 0, sizeof P->J);
  for (int i = 0; i < 3; i++) {
    P->A[4 * i] = P->m;
    P->J[4 * i] = 1.0;
    P->vstar[i] = P->v[i] + P->dt * fext[i] / P->m;
  }
  P->vstar[2] -= P->dt * g;
  P->mus[0] = P->mu;
  P->phi0[0] = -P->x;
  const double vn0 = P->v[2], taud = 0.0;
  static sc_problem_storage pst;
  sc_problem p = dense_problem(&pst, 3, 1, P->A, P->vstar, P->J, P->R, P->vhat, P->mus,
                               P->phi0, P->dt);
  sc_sap_delassus_problem(&p, w, P->wd);
  sc_law_sap(1, &P->k, &taud, P->wd, P->phi0, &vn0, P->dt, P->theta, 1e-3, 0.0, P->R,
                    P->vhat);
  sc_law_hc(1, &P->k, &P->d, P->wd, P->phi0, &vn0, P->mus, P->dt, P->theta, 1e-3, 0.0,
                   1e-3 * P->dt * g, P->hc);
  p.model = model;
  p.hc = P->hc;
  P->p = p;
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  double v0[3] = {P->v[0], P->v[1], P->v[2]};
  sc_solve_status s = sc_sap_solve(&P->p, &prm, w, P->v, P->gamma, &P->st);
  /* x advances with -v^theta */
  P->x -= P->dt * (P->theta * P->v[2] + (1 - P->theta) * v0[2]);
  return s;
}

/* a resting particle sinks mg/k (d > 0 damps the approach), both models,
 * implicit and midpoint; the normal impulse is then mg dt */
static void test_rest_sinks_mg_over_k(void) {
  sc_sap_work* w = sc_sap_work_create(3, 1);
  const double zero[3] = {0, 0, 0};
  for (int model = 1; model <= 2; model++)
    for (int th = 0; th < 2; th++) {
      particle P = {0};
      P.m = 2.0, P.k = 1e5, P.d = 20.0, P.mu = 0.5, P.dt = 1e-3, P.theta = th ? 0.5 : 1.0;
      int ok = 1;
      for (int s = 0; s < 3000 && ok; s++) ok = particle_step(&P, model, w, zero) == SC_SOLVE_OK;
      ENSURE(ok);
      ENSURE_CLOSE(P.x, P.m * 9.81 / P.k, 1e-6, 0);
      ENSURE_CLOSE(P.gamma[2], P.m * 9.81 * P.dt, 1e-6, 0);
      /* the solve stops at a relative momentum residual of 1e-6: |v| <~ 1e-6 g dt */
      ENSURE_NEAR(P.v[2], 0.0, 1e-8);
      printf("  %s theta %.1f: x = %.9g m (mg/k = %.9g), %d iterations in the last step\n",
             model == 1 ? "similar" : "lagged", P.theta, P.x, P.m * 9.81 / P.k, P.st.iterations);
    }
  sc_sap_work_free(w);
}

/* lagged: a sliding particle at equilibrium depth keeps n(vn) = mg dt with
 * vn = 0 (no lift) and friction mu n0 opposing the slip; similar lifts
 * (vn > 0) in the same state, by about mu |v_t| minus the normal-law slack */
static void test_sliding_no_lift(void) {
  sc_sap_work* w = sc_sap_work_create(3, 1);
  const double zero[3] = {0, 0, 0};
  for (int model = 1; model <= 2; model++) {
    particle P = {0};
    P.m = 1.0, P.k = 1e6, P.d = 20.0, P.mu = 0.3, P.dt = 1e-3, P.theta = 1.0;
    P.x = 9.81 / P.k;
    P.v[0] = 2.0;
    ENSURE(particle_step(&P, model, w, zero) == SC_SOLVE_OK);
    const double n0 = P.dt * 9.81;
    if (model == SC_MODEL_LAGGED) {
      ENSURE_NEAR(P.v[2], 0.0, 1e-12);
      ENSURE_CLOSE(P.gamma[2], n0, 1e-9, 0);
      ENSURE_CLOSE(-P.gamma[0], P.mu * n0 * P.v[0] / hypot(P.v[0], P.hc[SC_HC_EPS]), 1e-12, 0);
      ENSURE_CLOSE(P.v[0], 2.0 - P.mu * 9.81 * P.dt, 1e-9, 0);
    } else {
      ENSURE(P.v[2] > 1e-4);
    }
    printf("  %s: vn after one sliding step %.3g m/s, gamma_n / (mg dt) = %.6f\n",
           model == 1 ? "similar" : "lagged", P.v[2], P.gamma[2] / n0);
  }
  sc_sap_work_free(w);
}

/* order of the theta-generalized normal law: a particle pressed into a
 * linear spring (d = 0, mu = 0) that never separates oscillates about
 * mg/k: x(t) = mg/k + (x0 - mg/k) cos(omega t) + (v0/omega) sin(omega t)
 * (x = penetration, v0 = -vn0).  Midpoint (theta = 1/2) converges at order
 * 2, implicit Euler (theta = 1) at order 1; midpoint keeps the energy. */
static void test_theta_order(void) {
  sc_sap_work* w = sc_sap_work_create(3, 1);
  const double zero[3] = {0, 0, 0};
  const double m = 1.0, k = 1e4, g = 9.81, T = 0.25, om = sqrt(k / m);
  const double xe = m * g / k, x0 = 1.5 * xe, u0 = 0.02; /* u = dx/dt = -vn */
  const double amp = hypot(x0 - xe, u0 / om);
  ENSURE(amp < xe); /* never separates */
  const double xT = xe + (x0 - xe) * cos(om * T) + u0 / om * sin(om * T);
  for (int th = 0; th < 2; th++) {
    const double theta = th ? 0.5 : 1.0;
    double err[3];
    for (int r = 0; r < 3; r++) {
      particle P = {0};
      P.m = m, P.k = k, P.d = 0.0, P.mu = 0.0, P.theta = theta;
      /* implicit Euler's damping exp(-omega^2 dt t / 2) needs smaller steps
       * to reach its asymptotic range */
      P.dt = (th ? 1e-3 : 1e-4) / (1 << r);
      P.x = x0;
      P.v[2] = -u0;
      const long n = lround(T / P.dt);
      int ok = 1;
      for (long s = 0; s < n && ok; s++) ok = particle_step(&P, SC_MODEL_LAGGED, w, zero) == SC_SOLVE_OK;
      ENSURE(ok);
      err[r] = fabs(P.x - xT);
      if (th && r == 2) {
        /* energy 1/2 m v^2 + 1/2 k x^2 - m g x is conserved by the midpoint rule */
        const double E0 = 0.5 * m * u0 * u0 + 0.5 * k * x0 * x0 - m * g * x0;
        const double E = 0.5 * m * P.v[2] * P.v[2] + 0.5 * k * P.x * P.x - m * g * P.x;
        ENSURE_CLOSE(E, E0, 1e-6, 0);
      }
    }
    const double p1 = log2(err[0] / err[1]), p2 = log2(err[1] / err[2]);
    printf("  theta %.1f: errors %.3g %.3g %.3g m, observed order %.3f %.3f\n", theta, err[0],
           err[1], err[2], p1, p2);
    if (th) {
      ENSURE(fabs(p1 - 2) < 0.1 && fabs(p2 - 2) < 0.1);
    } else {
      ENSURE(fabs(p1 - 1) < 0.15 && fabs(p2 - 1) < 0.1);
    }
  }
  sc_sap_work_free(w);
}

/* ---------- pizza saver (Drake's SAP test case; closed forms) ---------- */

#define PZ_M 3.0
#define PZ_R 1.5
#define PZ_G 10.0
#define PZ_DT 0.01

typedef struct pizza {
  double mu, k, fx, Mz;
  double q[4], v[4];
  double A[16], vstar[4], J[36], Rg[9], vhat[9], mus[3], phi0[3], wd[3], hc[3 * SC_HC_NPAR],
      gamma[9];
  sc_problem p;
  sc_solver_stats st;
  int iters_max;
} pizza;

static void pizza_init(pizza* z, double mu, double k, double fx, double Mz) {
  memset(z, 0, sizeof *z);
  z->mu = mu, z->k = k, z->fx = fx, z->Mz = Mz;
  z->q[2] = isinf(k) ? 0.0 : -PZ_M * PZ_G / (3.0 * k); /* static equilibrium depth */
  z->q[3] = 3.14159265358979323846 / 5;
}

/* one symplectic-Euler step (theta = 1 in the contact law) */
static sc_solve_status pizza_step(pizza* z, sc_contact_model model, sc_sap_work* w) {
  const double I = PZ_M * PZ_R * PZ_R, minv[4] = {1 / PZ_M, 1 / PZ_M, 1 / PZ_M, 1 / I};
  const double f[4] = {z->fx, 0.0, -PZ_M * PZ_G, z->Mz};
  memset(z->A, 0, sizeof z->A);
  memset(z->J, 0, sizeof z->J);
  double kk[3], taud[3], dd[3], vn0[3];
  for (int i = 0; i < 4; i++) {
    z->A[i + 4 * i] = 1.0 / minv[i];
    z->vstar[i] = z->v[i] + PZ_DT * minv[i] * f[i];
  }
  for (int c = 0; c < 3; c++) {
    double ang = z->q[3] + 2.0 * 3.14159265358979323846 * c / 3.0;
    z->J[3 * c + 0 + 9 * 0] = 1.0;
    z->J[3 * c + 0 + 9 * 3] = -PZ_R * sin(ang);
    z->J[3 * c + 1 + 9 * 1] = 1.0;
    z->J[3 * c + 1 + 9 * 3] = PZ_R * cos(ang);
    z->J[3 * c + 2 + 9 * 2] = 1.0;
    z->phi0[c] = z->q[2];
    z->mus[c] = z->mu;
    kk[c] = z->k;
    taud[c] = PZ_DT;
    dd[c] = 10.0;
    vn0[c] = z->v[2];
  }
  static sc_problem_storage pst;
  sc_problem p = dense_problem(&pst, 4, 3, z->A, z->vstar, z->J, z->Rg, z->vhat, z->mus,
                               z->phi0, PZ_DT);
  sc_sap_delassus_problem(&p, w, z->wd);
  sc_law_sap(3, kk, taud, z->wd, z->phi0, NULL, PZ_DT, 1.0, 1e-3, 1.0, z->Rg, z->vhat);
  sc_law_hc(3, kk, dd, z->wd, z->phi0, vn0, z->mus, PZ_DT, 1.0, 1e-3, 1.0,
                   1e-3 * PZ_DT * PZ_G, z->hc);
  p.model = model;
  p.hc = z->hc;
  z->p = p;
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  sc_solve_status s = sc_sap_solve(&z->p, &prm, w, z->v, z->gamma, &z->st);
  if (z->st.iterations > z->iters_max) z->iters_max = z->st.iterations;
  for (int i = 0; i < 4; i++) z->q[i] += PZ_DT * z->v[i];
  return s;
}

static int pizza_run(pizza* z, sc_contact_model model, int steps, sc_sap_work* w) {
  for (int s = 0; s < steps; s++)
    if (pizza_step(z, model, w) != SC_SOLVE_OK) return 0;
  return 1;
}

static double slip(const pizza* z, int c) {
  double vt[2] = {0, 0};
  for (int a = 0; a < 2; a++)
    for (int j = 0; j < 4; j++) vt[a] += z->J[3 * c + a + 9 * j] * z->v[j];
  return hypot(vt[0], vt[1]);
}

static void pizza_model(sc_contact_model model) {
  sc_sap_work* w = sc_sap_work_create(4, 3);
  const double mg = PZ_M * PZ_G;
  const char* name = model == SC_MODEL_LAGGED ? "lagged" : "similar";
  pizza z;
  /* rest: mu = 1, 30 steps: v = 0, f_n = mg/3, f_t = 0 */
  pizza_init(&z, 1.0, 1e4, 0, 0);
  /* the first step sizes the block form's storage; later ones allocate nothing */
  ENSURE(pizza_run(&z, model, 1, w));
  long a0 = sc_alloc_count();
  ENSURE(pizza_run(&z, model, 29, w));
  ENSURE(sc_alloc_count() == a0);
  for (int i = 0; i < 4; i++) ENSURE_NEAR(z.v[i], 0.0, 1e-10);
  for (int c = 0; c < 3; c++) {
    ENSURE_CLOSE(z.gamma[3 * c + 2] / PZ_DT, mg / 3, 1e-6, 0);
    ENSURE_NEAR(hypot(z.gamma[3 * c], z.gamma[3 * c + 1]) / PZ_DT, 0.0, 1e-6 * mg);
  }
  printf("  %s rest: max Newton iterations %d\n", name, z.iters_max);

  /* stiction: mu = 2/3, Mz = 20 < mu m g R = 30, 40 steps: no drift,
   * |f_t| = Mz / (3R), slip = eps rho / sqrt(1 - rho^2), rho = |f_t| / (mu n_f / dt)
   * (the soft friction law solved for |v_t|), below the sigma dt g estimate */
  for (int rigid = 0; rigid < 2; rigid++) {
    pizza_init(&z, 2.0 / 3.0, rigid ? HUGE_VAL : 1e4, 0, 20.0);
    ENSURE(pizza_run(&z, model, 40, w));
    for (int i = 0; i < 3; i++) ENSURE_NEAR(z.v[i], 0.0, 1e-8);
    double smax = 0;
    for (int c = 0; c < 3; c++) {
      const double ft = hypot(z.gamma[3 * c], z.gamma[3 * c + 1]) / PZ_DT;
      const double nf = model == SC_MODEL_LAGGED ? z.hc[SC_HC_NPAR * c + SC_HC_N0] : z.gamma[3 * c + 2];
      ENSURE_CLOSE(ft, 20.0 / (3 * PZ_R), 1e-6, 0);
      ENSURE(ft <= z.mu * nf / PZ_DT);
      const double rho = ft / (z.mu * nf / PZ_DT);
      const double eps = z.hc[SC_HC_NPAR * c + SC_HC_EPS];
      ENSURE_CLOSE(slip(&z, c), eps * rho / sqrt(1 - rho * rho), 1e-5, 0);
      ENSURE(slip(&z, c) <= 1e-3 * PZ_DT * PZ_G);
      smax = fmax(smax, slip(&z, c));
    }
    printf("  %s stiction (%s): slip %.3g m/s (sigma dt g = %.3g), max iterations %d\n", name,
           rigid ? "rigid" : "k = 1e4", smax, 1e-3 * PZ_DT * PZ_G, z.iters_max);
  }

  /* mu = 0, f_x = 1 N, 30 steps: v_x = 30 dt f_x / m, f_t = 0 exactly */
  pizza_init(&z, 0.0, 1e4, 1.0, 0.0);
  ENSURE(pizza_run(&z, model, 30, w));
  ENSURE_CLOSE(z.v[0], 30 * PZ_DT * 1.0 / PZ_M, 1e-10, 0);
  for (int c = 0; c < 3; c++) ENSURE(z.gamma[3 * c] == 0.0 && z.gamma[3 * c + 1] == 0.0);

  /* sliding: mu = 2/3, Mz = 40 > 30, 10 steps: spins up, |f_t| = mu n_f |v_t| / |v_t|_s+eps
   * and within (eps / |v_t|)^2 of mu n_f */
  pizza_init(&z, 2.0 / 3.0, 1e4, 0, 40.0);
  ENSURE(pizza_run(&z, model, 10, w));
  ENSURE(z.v[3] > 0.0);
  for (int c = 0; c < 3; c++) {
    const double ft = hypot(z.gamma[3 * c], z.gamma[3 * c + 1]);
    const double nf = model == SC_MODEL_LAGGED ? z.hc[SC_HC_NPAR * c + SC_HC_N0] : z.gamma[3 * c + 2];
    const double eps = z.hc[SC_HC_NPAR * c + SC_HC_EPS], s = slip(&z, c);
    ENSURE_CLOSE(ft, z.mu * nf * s / hypot(s, eps), 1e-12, 0);
    ENSURE(ft <= z.mu * nf && ft >= z.mu * nf * (1 - (eps / s) * (eps / s)));
  }
  printf("  %s sliding: omega = %.4f rad/s after 10 steps, max iterations %d\n", name, z.v[3],
         z.iters_max);
  sc_sap_work_free(w);
}

static void test_pizza_similar(void) { pizza_model(SC_MODEL_SIMILAR); }
static void test_pizza_lagged(void) { pizza_model(SC_MODEL_LAGGED); }

/* bad model parameters are refused, not solved */
static void test_bad_params(void) {
  sc_sap_work* w = sc_sap_work_create(3, 1);
  particle P = {0};
  P.m = 1, P.k = 1e4, P.d = 1, P.mu = 0.5, P.dt = 1e-3, P.theta = 1;
  const double zero[3] = {0, 0, 0};
  ENSURE(particle_step(&P, SC_MODEL_LAGGED, w, zero) == SC_SOLVE_OK);
  P.hc[SC_HC_EPS] = 0.0;
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  sc_solver_stats st;
  ENSURE(sc_sap_solve(&P.p, &prm, w, P.v, P.gamma, &st) == SC_SOLVE_NAN);
  P.hc[SC_HC_EPS] = 1e-5;
  P.hc[SC_HC_D] = NAN;
  ENSURE(sc_sap_solve(&P.p, &prm, w, P.v, P.gamma, &st) == SC_SOLVE_NAN);
  sc_sap_work_free(w);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_normal_law_fd);
  RUN(test_gamma_G_fd);
  RUN(test_target_shift);
  RUN(test_lagged_third_fd);
  RUN(test_directional_eval);
  RUN(test_line_sums_match_dir);
  RUN(test_limits);
  RUN(test_params);
  RUN(test_rest_sinks_mg_over_k);
  RUN(test_sliding_no_lift);
  RUN(test_theta_order);
  RUN(test_pizza_similar);
  RUN(test_pizza_lagged);
  RUN(test_bad_params);
  return TEST_END();
}
