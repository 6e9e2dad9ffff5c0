/* Torsional and rolling friction: a contact's cone tail (core/problem.h,
 * constraint/contact_law.c).
 *
 * The solver's terms of a contact with its tail against finite differences
 * of its own cost (every model, every region), the structured and sparse
 * Hessians against the dense one, the solution inside the cone; then the
 * physics against closed forms: a sphere spinning on its contact point
 * stops at t = I w0 / (mu_s m g), a rolling sphere decelerates at
 * 5 mu_r g / (7 r) / sqrt(1 + rho^2) (rho = 5 mu_r / (7 r mu), the slip the
 * shared cone needs), the friction's dissipation closes the energy
 * balance; the LCP refuses the keys; stepping allocates nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constraint/law.h"
#include "harness.h"
#include "integrator/integrator.h"
#include "problem_util.h"
#include "scene/scene.h"
#include "solver_sap/sap.h"
#include "solver_sap/sap_model.h"

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

/* Two free bodies (nv = 12), contact 0 between body 0 and the ground,
 * contact 1 between the bodies, each with a tail (entries 2 and 3); every
 * row dense over its bodies' columns, so a tail lists its contact's
 * columns. */
enum { NV = 12, NC = 4 };
typedef struct cone_problem {
  sc_problem_storage st;
  sc_problem p;
  double A[NV * NV], J[3 * NC * NV], vstar[NV], R[3 * NC], vhat[3 * NC], mu[NC], phi0[NC];
  double hc[SC_HC_NPAR * NC], bound[2 * NC];
  unsigned char kind[NC];
  int tail[NC];
} cone_problem;

static void cone_problem_make(cone_problem* P, int model) {
  memset(P->A, 0, sizeof P->A);
  for (int i = 0; i < NV; i++) P->A[i + NV * i] = i % 6 < 3 ? 2.0 : 0.05;
  P->A[3 + NV * 4] = P->A[4 + NV * 3] = 0.01; /* an off-diagonal inertia term */
  memset(P->J, 0, sizeof P->J);
  const int m = 3 * NC;
  for (int e = 0; e < NC; e++) {
    const int c = e % 2, ncol = c == 0 ? 6 : 12;
    for (int r = 0; r < 3; r++)
      for (int j = 0; j < ncol; j++) P->J[3 * e + r + (size_t)j * m] = urand();
  }
  for (int i = 0; i < NV; i++) P->vstar[i] = 0.3 * urand();
  const double k[2] = {INFINITY, 1e5}, taud[2] = {0.0, 0.01}, w[2] = {0.8, 1.3};
  P->phi0[0] = -1e-4, P->phi0[1] = -2e-4, P->phi0[2] = P->phi0[3] = 0.0;
  P->mu[0] = 0.6, P->mu[1] = 0.9, P->mu[2] = P->mu[3] = 0.0;
  sc_law_sap(2, k, taud, w, P->phi0, NULL, 0.01, 1.0, 1e-3, 1.0, P->R, P->vhat);
  for (int e = 2; e < NC; e++)
    for (int r = 0; r < 3; r++) P->R[3 * e + r] = P->R[3 * (e - 2)], P->vhat[3 * e + r] = 0.0;
  P->vhat[0] = 0.01; /* a stiction anchor's target on one tangential row */
  const double d[2] = {5.0, 20.0};
  sc_law_hc(2, k, d, w, P->phi0, NULL, P->mu, 0.01, 1.0, 1e-3, 1.0, 1e-4, P->hc);
  for (int e = 2; e < NC; e++)
    for (int q = 0; q < SC_HC_NPAR; q++) P->hc[SC_HC_NPAR * e + q] = q == SC_HC_EPS ? 1.0 : 0.0;
  for (int e = 0; e < NC; e++) {
    P->kind[e] = e < 2 ? SC_ROW_CONTACT : SC_ROW_CONE_TAIL;
    P->tail[e] = e < 2 ? e + 2 : -1;
    P->bound[2 * e] = P->bound[2 * e + 1] = 0.0;
  }
  P->p = dense_problem(&P->st, NV, NC, P->A, P->vstar, P->J, P->R, P->vhat, P->mu, P->phi0, 0.01);
  P->p.model = model;
  P->p.hc = model == SC_MODEL_SAP ? NULL : P->hc;
  P->p.kind = P->kind;
  P->p.bound = P->bound;
  P->p.tail = P->tail;
}

/* The cone of five tangential components at nt = 2 is sc_sap_project's. */
static void test_cone_projection_reduces(void) {
  srand(3);
  double worst = 0.0;
  for (int trial = 0; trial < 200; trial++) {
    const double y[3] = {urand(), urand(), urand()}, R[3] = {0.3, 0.3, 0.07};
    double g1[3], G1[9], c1, gt[2], gn, Gtt[4], Gtn[2], Gnn, c2;
    const int r1 = sc_sap_project(y, R, 0.7, 1e-7, g1, G1, &c1);
    const int r2 = sc_sap_project_cone(2, y, y[2], R[0], R[2], 0.7, 1e-7, gt, &gn, Gtt, Gtn,
                                       &Gnn, &c2);
    ENSURE(r1 == r2);
    const double d[] = {g1[0] - gt[0], g1[1] - gt[1], g1[2] - gn, G1[0] - Gtt[0],
                        G1[1] - Gtt[1], G1[4] - Gtt[3], G1[2] - Gtn[0], G1[5] - Gtn[1],
                        G1[8] - Gnn, c1 - c2};
    for (int k = 0; k < 10; k++) worst = fmax(worst, fabs(d[k]));
  }
  printf("  nt = 2 against the three-row projection: largest difference %.2g\n", worst);
  ENSURE(worst <= 1e-13);
}

/* v[0..6) so that contact 0 and its tail have the velocities of its
 * stiction region (stick != 0: its targets, the normal row pressing) or of
 * its separation (the normal row opening fast): J_0 (its six rows over
 * body 0's columns) solved by Gaussian elimination. */
static void place_contact0(const cone_problem* P, int stick, double* v) {
  const int m = 3 * NC, rows[6] = {0, 1, 2, 6, 7, 8};
  double M[6][7];
  for (int r = 0; r < 6; r++) {
    for (int j = 0; j < 6; j++) M[r][j] = P->J[rows[r] + (size_t)j * m];
    double other = 0.0; /* body 1's columns (0 for contact 0) */
    for (int j = 6; j < NV; j++) other += P->J[rows[r] + (size_t)j * m] * v[j];
    const int e = rows[r] / 3, k = rows[r] % 3;
    /* the tangential targets: sap's vhat, the Hunt-Crossley models' VT
     * (their anchor's target) on the contact's rows */
    const double* h = P->hc;
    double target = (P->p.hc && e == 0 && k < 2 ? h[SC_HC_VT0 + k] : P->vhat[3 * e + k]) +
                    (k == 0 ? 1e-9 : 0.0);
    if (rows[r] == 2) target = stick ? -0.01 : P->vhat[2] + 5.0;
    M[r][6] = target - other;
  }
  for (int c = 0; c < 6; c++) {
    int piv = c;
    for (int r = c + 1; r < 6; r++)
      if (fabs(M[r][c]) > fabs(M[piv][c])) piv = r;
    for (int j = 0; j < 7; j++) {
      const double t = M[c][j];
      M[c][j] = M[piv][j], M[piv][j] = t;
    }
    for (int r = 0; r < 6; r++) {
      if (r == c) continue;
      const double f = M[r][c] / M[c][c];
      for (int j = c; j < 7; j++) M[r][j] -= f * M[c][j];
    }
  }
  for (int j = 0; j < 6; j++) v[j] = M[j][6] / M[j][j];
}

/* -dl/dv = J^T gamma - A (v - v*) and the Hessian against central
 * differences of the cost and of the gradient, at velocities that put the
 * pair in each region; for the sap, similar and lagged models. */
static void test_cone_terms_finite_differences(void) {
  static const char* const names[] = {"sap", "similar", "lagged"};
  srand(11);
  sc_sap_work* ws = sc_sap_work_create(NV, NC);
  ENSURE(ws != NULL);
  for (int model = 0; model < 3 && ws; model++) {
    cone_problem P = {0};
    cone_problem_make(&P, model);
    double worst_g = 0.0, worst_h = 0.0;
    int regions[4] = {0, 0, 0, 0};
    for (int trial = 0; trial < 24; trial++) {
      double v[NV], g[NV], H[NV * NV], gam[3 * NC], l;
      const double spread = trial < 8 ? 1e-3 : trial < 16 ? 0.05 : 0.5;
      for (int i = 0; i < NV; i++) v[i] = P.vstar[i] + spread * urand();
      if (trial % 4 == 1 || trial % 4 == 2) place_contact0(&P, trial % 4 == 1, v);
      ENSURE(sc_sap_eval(&P.p, 1e-7, ws, v, &l, g, gam, H) == SC_OK);
      /* the region of contact 0 (for the coverage count) */
      double vc[6] = {0};
      for (int j = 0; j < NV; j++)
        for (int r = 0; r < 3; r++)
          vc[r] += P.J[r + (size_t)j * 3 * NC] * v[j], vc[3 + r] += P.J[6 + r + (size_t)j * 3 * NC] * v[j];
      double gh[3], gt[3];
      regions[sc_sap_cone_eval(&P.p, 0, vc, vc + 3, 1e-7, gh, gt, NULL, NULL, NULL, &l)]++;
      const double h = 1e-7;
      for (int i = 0; i < NV; i++) {
        double vp[NV], vm[NV], lp, lm, gp[NV], gm[NV];
        memcpy(vp, v, sizeof v);
        memcpy(vm, v, sizeof v);
        vp[i] += h, vm[i] -= h;
        ENSURE(sc_sap_eval(&P.p, 1e-7, ws, vp, &lp, gp, NULL, NULL) == SC_OK);
        ENSURE(sc_sap_eval(&P.p, 1e-7, ws, vm, &lm, gm, NULL, NULL) == SC_OK);
        const double fd = (lp - lm) / (2 * h);
        worst_g = fmax(worst_g, fabs(fd - g[i]) / (1.0 + fabs(g[i])));
        for (int k = 0; k < NV; k++) {
          const double fh = (gp[k] - gm[k]) / (2 * h);
          worst_h = fmax(worst_h, fabs(fh - H[k + NV * i]) / (1.0 + fabs(H[k + NV * i])));
        }
      }
    }
    printf("  %s: gradient against the cost's differences %.2g, Hessian against the gradient's "
           "%.2g (contact 0 in regions I %d, II %d, III %d)\n",
           names[model], worst_g, worst_h, regions[1], regions[2], regions[3]);
    /* central differences at h = 1e-7: O(h^2 / s^2) truncation where the
     * friction turns over the scale s of its regularization (1e-4 m/s for
     * the Hunt-Crossley models), O(eps / h) round-off */
    ENSURE(worst_g < 1e-6);
    ENSURE(worst_h < 1e-4);
    ENSURE(regions[1] > 0 && regions[2] > 0 && regions[3] > 0);
    sc_problem_storage_free(&P.st);
  }
  sc_sap_work_free(ws);
}

/* The Hessian on each sparse path (the block Cholesky's and CHOLMOD's
 * assembly) against the dense path's, and a solve that lands in the cone:
 * |(gamma_t1, gamma_t2, u_s, u_r1, u_r2)| <= mu gamma_n. */
static void test_cone_paths_and_solve(void) {
  static const int kinds[] = {SC_SAP_HESSIAN_SPARSE_BLOCK, SC_SAP_HESSIAN_SPARSE_SUPERNODAL,
                              SC_SAP_HESSIAN_SPARSE_SIMPLICIAL};
  srand(5);
  sc_sap_work* ws = sc_sap_work_create(NV, NC);
  for (int model = 0; model < 3 && ws; model++) {
    cone_problem P = {0};
    cone_problem_make(&P, model);
    double worst = 0.0;
    for (int trial = 0; trial < 9; trial++) {
      double v[NV], Hd[NV * NV], Hs[NV * NV], gd[NV], gs[NV], ld, ls;
      for (int i = 0; i < NV; i++) v[i] = P.vstar[i] + 0.05 * urand();
      ENSURE(sc_sap_eval_path(&P.p, 1e-7, SC_SAP_HESSIAN_DENSE, ws, v, &ld, gd, NULL, Hd) ==
             SC_OK);
      ENSURE(sc_sap_eval_path(&P.p, 1e-7, kinds[trial % 3], ws, v, &ls, gs, NULL, Hs) == SC_OK);
      for (int k = 0; k < NV * NV; k++) worst = fmax(worst, fabs(Hs[k] - Hd[k]) / (1 + fabs(Hd[k])));
    }
    sc_sap_params prm;
    sc_sap_params_default(&prm);
    sc_sap_params_for_model(&prm, model);
    double v[NV], gam[3 * NC];
    memcpy(v, P.vstar, sizeof v);
    sc_solver_stats st;
    const sc_solve_status ss = sc_sap_solve(&P.p, &prm, ws, v, gam, &st);
    double cone = 0.0;
    for (int c = 0; c < 2; c++) {
      double t2 = gam[3 * c] * gam[3 * c] + gam[3 * c + 1] * gam[3 * c + 1];
      for (int k = 0; k < 3; k++) t2 += gam[3 * (c + 2) + k] * gam[3 * (c + 2) + k];
      /* the lagged model bounds friction by its n0 instead */
      const double nb = model == SC_MODEL_LAGGED ? P.hc[SC_HC_NPAR * c + SC_HC_N0] : gam[3 * c + 2];
      cone = fmax(cone, sqrt(t2) - P.mu[c] * nb);
    }
    printf("  %s: sparse Hessians against the dense one %.2g; solve %s in %d iterations, "
           "residual %.2g, cone excess %.2g N s\n",
           model == 0 ? "sap" : model == 1 ? "similar" : "lagged", worst,
           sc_solve_status_name(ss), st.iterations, st.residual, cone);
    ENSURE(worst < 1e-12);
    ENSURE(ss == SC_SOLVE_OK);
    ENSURE(cone < 1e-12);
    sc_problem_storage_free(&P.st);
  }
  sc_sap_work_free(ws);
}

/* ---- the physics of a scene ---- */

static const char* BALL =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 1.0}\n"
    "contact:\n"
    "  defaults: {stiffness: rigid, friction: 0.5}\n"
    "bodies:\n"
    "  - name: ball\n"
    "    joint: {type: free}\n"
    "    mass: 1.0\n"
    "    inertia: solid\n"
    "    initial: {q: [0, 0, 0.1, 1, 0, 0, 0], v: [0, 0, 0, 0, 0, 0]}\n"
    "    geometry:\n"
    "      - {shape: sphere, radius: 0.1}\n"
    "static:\n"
    "  - {shape: plane, normal: [0, 0, 1], offset: 0.0}\n";

static sc_model* load(const char* const* sets, int nsets) {
  sc_model* m = NULL;
  sc_error err;
  if (sc_scene_load_string(BALL, "ball.yaml", sets, nsets, &m, &err) != SC_OK) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    printf("  %s\n", buf);
    return NULL;
  }
  return m;
}

/* the ball with contact.defaults.key = coef and initial velocity v0 run
 * for duration under model (the caller frees *mp and the data); NULL when
 * it failed; *allocs: the allocations of its steps after the first */
static sc_data* run(const char* model, const char* key, double coef, const char* v0,
                    double duration, sc_model** mp, long* allocs) {
  char s1[64], s2[96], s3[96], s4[64];
  snprintf(s1, sizeof s1, "contact.model=%s", model);
  snprintf(s2, sizeof s2, "contact.defaults.%s=%.17g", key, coef);
  snprintf(s3, sizeof s3, "bodies.ball.initial.v=%s", v0);
  snprintf(s4, sizeof s4, "time.duration=%.17g", duration);
  const char* sets[] = {s1, s2, s3, s4};
  sc_model* m = *mp = load(sets, 4);
  sc_data* d = NULL;
  sc_error err;
  if (!m || sc_data_create(m, &d, &err) != SC_OK || sc_sim_prepare(m, d, &err) != SC_OK ||
      sc_forward(m, d, &err) != SC_OK) {
    sc_data_free(d);
    return NULL;
  }
  const long n = lround(m->opt.duration / m->opt.dt);
  for (long k = 0; k < n; k++) {
    if (k == 1) *allocs = sc_alloc_count();
    if (sc_step(m, d, &err) != SC_OK) {
      char buf[1200];
      sc_error_format(&err, buf, sizeof buf);
      printf("  step %ld: %s\n", k, buf);
      sc_data_free(d);
      return NULL;
    }
  }
  *allocs = sc_alloc_count() - *allocs;
  return d;
}

/* A sphere spun about the normal at w0 = 10 rad/s: no point slides, the
 * torsional friction mu_s m g alone decelerates it, I dw/dt = -mu_s m g, to
 * a stop at t = I w0 / (mu_s m g) = 0.4077 s (I = 2/5 m r^2), and its
 * kinetic energy goes to the friction's dissipation. */
static void test_spinning_sphere_stops(void) {
  static const char* const models[] = {"lagged", "sap", "similar"};
  const double I = 0.4 * 1.0 * 0.01, mus = 0.01, g = 9.81, w0 = 10.0;
  const double alpha = mus * g / I, tstop = I * w0 / (mus * g);
  for (int k = 0; k < 3; k++) {
    sc_model* m = NULL;
    long allocs = 0;
    sc_data* d = run(models[k], "torsional_friction", mus, "[0, 0, 0, 0, 0, 10]", 1.0, &m, &allocs);
    ENSURE(d != NULL);
    if (d) {
      /* stopped (at tstop, within the 1 s run) */
      const double w_end = d->v[5];
      const double ke = 0.5 * I * w0 * w0;
      printf("  %s: spin at 1 s %.3g rad/s, friction dissipated %.9g J of %.9g J (%.2g), "
             "%ld allocations in the steps\n",
             models[k], w_end, d->e_friction, ke, (d->e_friction - ke) / ke, allocs);
      ENSURE(fabs(w_end) < 1e-6);
      ENSURE_CLOSE(d->e_friction, ke, 1e-6, 0.0);
      ENSURE(allocs == 0);
    }
    sc_data_free(d);
    sc_model_free(m);
    /* the deceleration: run to 0.2 s and 0.3 s */
    double w[2] = {0, 0};
    for (int j = 0; j < 2; j++) {
      d = run(models[k], "torsional_friction", mus, "[0, 0, 0, 0, 0, 10]", 0.2 + 0.1 * j, &m,
              &allocs);
      ENSURE(d != NULL);
      if (d) w[j] = d->v[5];
      if (d && j == 0 && d->ncon == 1) {
        /* at the cone's edge: the torque impulse about n is mu_s gamma_n
         * (the sliding rows carry nothing), as /contact/torque_impulse
         * writes it */
        const int t = d->ctail[0];
        const sc_contact* c = &d->contact[0];
        const double tq = t >= 0 ? c->spin / c->mu * d->impulse[3 * t] : 0.0;
        printf("    torque impulse %.9g N m s against -mu_s gamma_n = %.9g\n", tq,
               -mus * d->impulse[2]);
        ENSURE_CLOSE(tq, -mus * d->impulse[2], k == 1 ? 1e-9 : 1e-6, 0.0);
      }
      sc_data_free(d);
      sc_model_free(m);
    }
    const double a = (w[0] - w[1]) / 0.1;
    printf("    deceleration %.9g rad/s^2 against mu_s m g / I = %.9g (stop at %.4f s)\n", a,
           alpha, tstop);
    /* sap's cone is exact at the edge; the Hunt-Crossley models' friction
     * mu n |u|_s / (|u|_s + eps) falls short of it by about eps / |u| */
    ENSURE_CLOSE(a, alpha, k == 1 ? 1e-9 : 1e-6, 0.0);
  }
}

/* A sphere rolling at 1 m/s: the rolling friction's torque and the sliding
 * friction share one cone, so the contact slips at rho = 5 mu_r / (7 r mu)
 * of the rolling rate's scaled velocity and the sphere decelerates at
 * a = 5 mu_r g / (7 r) / sqrt(1 + rho^2), to O(rho mu_r / (mu r)) = 1e-4
 * relative of the correction (the slip's own change). */
static void test_rolling_sphere_decelerates(void) {
  static const char* const models[] = {"lagged", "sap"};
  /* sap's regularized friction (R_t = sigma w) creeps in the cone */
  static const double tol[] = {1e-5, 5e-4};
  const double mu = 0.5, mr = 0.002, r = 0.1, g = 9.81;
  const double rho = 5 * mr / (7 * r * mu), a = 5 * mr * g / (7 * r) / sqrt(1 + rho * rho);
  for (int k = 0; k < 2; k++) {
    double vx[2] = {0, 0};
    for (int j = 0; j < 2; j++) {
      sc_model* m = NULL;
      long allocs = 0;
      sc_data* d = run(models[k], "rolling_friction", mr, "[1, 0, 0, 0, 10, 0]", j ? 1.0 : 0.2, &m,
                       &allocs);
      ENSURE(d != NULL);
      if (d) vx[j] = d->v[0];
      sc_data_free(d);
      sc_model_free(m);
    }
    const double as = (vx[0] - vx[1]) / 0.8;
    printf("  %s: deceleration %.9g m/s^2 against %.9g (without the slip: %.9g)\n", models[k], as,
           a, 5 * mr * g / (7 * r));
    ENSURE_CLOSE(as, a, tol[k], 0.0);
  }
}

/* The LCP's polyhedral cone has no torsional or rolling edges: refused by
 * name before the first step. */
static void test_lcp_refuses(void) {
  const char* sets[] = {"contact.solver=lcp", "contact.defaults.torsional_friction=0.01"};
  sc_model* m = load(sets, 2);
  ENSURE(m != NULL);
  sc_data* d = NULL;
  sc_error err;
  sc_status st = m ? sc_data_create(m, &d, &err) : SC_ERR_SCENE;
  if (st == SC_OK) st = sc_sim_prepare(m, d, &err);
  ENSURE(st != SC_OK);
  if (st != SC_OK && m) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    printf("  %s\n", buf);
    ENSURE(strstr(buf, "torsional_friction") != NULL);
  }
  sc_data_free(d);
  sc_model_free(m);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_cone_projection_reduces);
  RUN(test_cone_terms_finite_differences);
  RUN(test_cone_paths_and_solve);
  RUN(test_spinning_sphere_stops);
  RUN(test_rolling_sphere_decelerates);
  RUN(test_lcp_refuses);
  return TEST_END();
}
