/* Property tests over random free bodies (seeded): what the laws of motion
 * say whatever the body's shape, inertia, centre-of-mass offset, spin,
 * speed, step, scheme and contact model.
 *
 * - Frictionless impacts on a level floor: every contact impulse is
 *   vertical, so the horizontal linear momentum m v_c (v_c the centre of
 *   mass's velocity, computed here from the frame origin's as a user has
 *   it in a file: v_c = v_o + w x R s) stays what it was, through any
 *   number of impacts: to 1e-12 of m |v| (measured round-off: a few 1e-16;
 *   with the free joint's coordinates at the frame origin the change was
 *   first order in the step, 3e-3 to 1.7e-2 m/s for a spinning top).  The
 *   contact residuals (contact/residual.c) of every step are finite and
 *   non-negative, and without friction the maximum-dissipation gap is 0 and
 *   De Saxce's gap equals Signorini's (to 1e-12 of m |v|^2); Signorini's
 *   itself is the scheme's relaxation (a rigid contact under the midpoint
 *   rule pushes through the step in which it separates: measured up to
 *   3.3 m |v|^2) and is only reported.
 * - Free flight under gravity: the linear momentum is m (v_c0 + g t) to
 *   1e-12 relative (measured 2e-14); the angular momentum about the centre
 *   of mass, L = R I R^T w, is conserved to the scheme's order: under the
 *   midpoint rule its largest drift over 0.2 s is below
 *   1e-6 + 0.3 (|w| dt)^2 relative (second order in the step; 1e-6 the
 *   floor the free-motion iteration's tolerance leaves; measured at most
 *   1e-6 + 0.146 (|w| dt)^2 over 200 bodies, 1.6e-4 at the largest).  A
 *   first-order drift, (|w| dt) times a constant, is 100 times that bound
 *   at |w| dt = 0.01.  The energy (kinetic + gravity), a conservative
 *   system's, likewise: its drift below 1e-6 + 0.05 (|w| dt)^2 of the
 *   kinetic energy (measured 0.0154, 2e-5 at the largest).
 *
 * SIMC_PROPERTY_N sets the number of random bodies per property (default
 * 12; make validate runs more). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "integrator/integrator.h"
#include "scene/scene.h"
#include "spatial/spatial.h"

static uint64_t rng;
static double urand(void) { /* splitmix64, [0, 1) */
  uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}
static double uni(double a, double b) { return a + (b - a) * urand(); }

typedef struct {
  double mass, com[3], I[3], quat[4], v[6], size[3], dt;
  int shape, scheme, model;
  char text[4096];
} rbody;

static const char* shapes[] = {"sphere", "box", "capsule", "cylinder", "ellipsoid"};
static const char* schemes[] = {"midpoint", "implicit_euler"};
static const char* models[] = {"lagged", "sap", "similar", "lcp"};

/* a random body and its scene: floor 1 adds a frictionless rigid floor */
static void random_body(rbody* b, int floor, int flight_scheme) {
  b->mass = exp(uni(log(0.05), log(20.0)));
  /* principal moments obeying the triangle inequality, about 1e-4..1 */
  const double scale = b->mass * exp(uni(log(1e-3), log(4e-2)));
  double a = uni(0.2, 1.0), c = uni(0.2, 1.0);
  b->I[0] = scale * a;
  b->I[1] = scale * c;
  b->I[2] = scale * uni(fabs(a - c) + 0.05, a + c - 0.01);
  for (int k = 0; k < 3; k++) b->com[k] = uni(-0.2, 0.2);
  double n = 0;
  for (int k = 0; k < 4; k++) {
    b->quat[k] = uni(-1, 1);
    n += b->quat[k] * b->quat[k];
  }
  for (int k = 0; k < 4; k++) b->quat[k] /= sqrt(n);
  /* the centre's velocity (falling onto the floor), then the origin's */
  double vc[3] = {uni(-2, 2), uni(-2, 2), floor ? uni(-5, -0.5) : uni(-2, 2)}, R[9], Rs[3], wxRs[3];
  for (int k = 3; k < 6; k++) b->v[k] = uni(-20, 20);
  sc_sp_quat_to_mat3(R, b->quat);
  sc_sp_mat3_vec(Rs, R, b->com);
  sc_sp_cross3(wxRs, b->v + 3, Rs);
  for (int k = 0; k < 3; k++) b->v[k] = vc[k] - wxRs[k];
  for (int k = 0; k < 3; k++) b->size[k] = uni(0.02, 0.15);
  b->shape = (int)(urand() * 5);
  b->scheme = flight_scheme >= 0 ? flight_scheme : (int)(urand() * 2);
  b->model = (int)(urand() * 4);
  b->dt = exp(uni(log(1e-4), log(5e-3)));
  char geom[256];
  switch (b->shape) {
    case 0: snprintf(geom, sizeof geom, "{shape: sphere, radius: %.17g}", b->size[0]); break;
    case 1:
      snprintf(geom, sizeof geom, "{shape: box, size: [%.17g, %.17g, %.17g]}", 2 * b->size[0],
               2 * b->size[1], 2 * b->size[2]);
      break;
    case 2:
    case 3:
      snprintf(geom, sizeof geom, "{shape: %s, radius: %.17g, length: %.17g}", shapes[b->shape],
               b->size[0], 2 * b->size[1]);
      break;
    default:
      snprintf(geom, sizeof geom, "{shape: ellipsoid, radii: [%.17g, %.17g, %.17g]}", b->size[0],
               b->size[1], b->size[2]);
  }
  snprintf(b->text, sizeof b->text,
           "simc: 1\nname: prop\ngravity: [0, 0, -9.81]\ntime: {step: %.17g, duration: %s}\n"
           "integrator: {scheme: %s}\n"
           "contact:\n  model: %s\n  defaults: {stiffness: rigid, friction: 0}\n"
           "bodies:\n  - name: b\n    joint: {type: free}\n    mass: %.17g\n"
           "    com: [%.17g, %.17g, %.17g]\n    inertia: {ixx: %.17g, iyy: %.17g, izz: %.17g}\n"
           "    initial: {q: [0, 0, %s, %.17g, %.17g, %.17g, %.17g], v: [%.17g, %.17g, %.17g, "
           "%.17g, %.17g, %.17g]}\n    geometry:\n      - %s\n%s",
           b->dt, floor ? "0.6" : "0.2", schemes[b->scheme], b->model == 3 ? "lagged" : models[b->model],
           b->mass, b->com[0], b->com[1], b->com[2], b->I[0], b->I[1], b->I[2], floor ? "0.5" : "0",
           b->quat[0], b->quat[1], b->quat[2], b->quat[3], b->v[0], b->v[1], b->v[2], b->v[3],
           b->v[4], b->v[5], geom,
           floor ? "static:\n  - {shape: plane, normal: [0, 0, 1], offset: 0.0}\n" : "");
}

/* the centre of mass's velocity (world) and, with L non-NULL, the angular
 * momentum about it, from the state as a file has it (frame origin) */
static void com_motion(const sc_model* m, const sc_data* d, const rbody* b, double vc[3],
                       double L[3]) {
  double q[7], v[6], R[9], Rs[3], wxRs[3];
  memcpy(q, d->q, sizeof q);
  memcpy(v, d->v, sizeof v);
  sc_state_com_to_frame(m, q, v);
  sc_sp_quat_to_mat3(R, q + 3);
  sc_sp_mat3_vec(Rs, R, b->com);
  sc_sp_cross3(wxRs, v + 3, Rs);
  for (int k = 0; k < 3; k++) vc[k] = v[k] + wxRs[k];
  if (L) { /* R diag(I) R^T w */
    double wb[3], Iw[3];
    for (int k = 0; k < 3; k++) wb[k] = R[k] * v[3] + R[3 + k] * v[4] + R[6 + k] * v[5];
    for (int k = 0; k < 3; k++) Iw[k] = b->I[k] * wb[k];
    sc_sp_mat3_vec(L, R, Iw);
  }
}

static sc_status open_body(const rbody* b, const char* const* sets, int nsets, sc_model** m,
                           sc_data** d) {
  sc_error err;
  char buf[1200];
  *m = NULL;
  *d = NULL;
  sc_status st = sc_scene_load_string(b->text, "prop.yaml", sets, nsets, m, &err);
  if (st == SC_OK) st = sc_data_create(*m, d, &err);
  if (st == SC_OK) st = sc_sim_prepare(*m, *d, &err);
  if (st == SC_OK) st = sc_forward(*m, *d, &err);
  if (st != SC_OK) {
    sc_error_format(&err, buf, sizeof buf);
    printf("  %s\n%s\n", buf, b->text);
  }
  return st;
}

static int nbodies(void) {
  const char* e = getenv("SIMC_PROPERTY_N");
  const int n = e ? atoi(e) : 12;
  return n > 0 ? n : 12;
}

static void test_frictionless_impacts_keep_horizontal_momentum(void) {
  rng = 20261128u;
  const int n = nbodies();
  double worst = 0, r_diss = 0, r_bip = 0, r_sig = 0;
  int impacts = 0, bodies_hit = 0, ok_all = 1;
  for (int i = 0; i < n; i++) {
    rbody b;
    random_body(&b, 1, -1);
    const char* lcp[] = {"contact.solver=lcp"};
    sc_model* m;
    sc_data* d;
    if (open_body(&b, lcp, b.model == 3 ? 1 : 0, &m, &d) != SC_OK) {
      ok_all = 0;
      sc_model_free(m);
      sc_data_free(d);
      continue;
    }
    double v0[3];
    com_motion(m, d, &b, v0, NULL);
    const double vs = sqrt(v0[0] * v0[0] + v0[1] * v0[1] + v0[2] * v0[2]) + 1.0;
    const long nstep = lround(m->opt.duration / m->opt.dt);
    int hit = 0, resid_ok = 1;
    double e = 0;
    sc_error err;
    for (long k = 0; k < nstep; k++) {
      if (sc_step(m, d, &err) != SC_OK) {
        char buf[1200];
        sc_error_format(&err, buf, sizeof buf);
        printf("  body %d: %s\n", i, buf);
        ok_all = 0;
        break;
      }
      hit += d->ncon > 0;
      for (int r = 0; r < 3; r++) resid_ok &= isfinite(d->coulomb[r]) && d->coulomb[r] >= 0;
      /* no friction: nothing to dissipate at the cone's edge, and De Saxce's
       * gap is Signorini's (scaled by the body's m |v|^2) */
      const double escale = b.mass * vs * vs;
      r_diss = fmax(r_diss, d->coulomb[1] / escale);
      r_bip = fmax(r_bip, fabs(d->coulomb[2] - d->coulomb[0]) / escale);
      r_sig = fmax(r_sig, d->coulomb[0] / escale);
      double vc[3];
      com_motion(m, d, &b, vc, NULL);
      e = fmax(e, hypot(vc[0] - v0[0], vc[1] - v0[1]) / vs);
    }
    impacts += hit;
    bodies_hit += hit > 0;
    if (!(e <= 1e-12) || !resid_ok)
      printf("  body %d (%s, %s, %s, dt %.3g s, |s| %.3g m): horizontal momentum change %.3g of "
             "m |v|, residuals %s\n",
             i, shapes[b.shape], schemes[b.scheme], models[b.model], b.dt,
             sqrt(b.com[0] * b.com[0] + b.com[1] * b.com[1] + b.com[2] * b.com[2]), e,
             resid_ok ? "finite" : "NOT finite");
    worst = fmax(worst, e);
    ok_all &= resid_ok;
    sc_model_free(m);
    sc_data_free(d);
  }
  printf("  %d random bodies on a frictionless floor (%d touched it, %d steps in contact): "
         "largest horizontal momentum change %.3g of m |v| (bound 1e-12)\n",
         n, bodies_hit, impacts, worst);
  printf("  residuals over every contact step, relative to m |v|^2: Signorini %.3g, "
         "maximum-dissipation gap %.3g, De Saxce's gap less Signorini's %.3g\n",
         r_sig, r_diss, r_bip);
  ENSURE(ok_all);
  ENSURE(r_diss == 0.0);
  ENSURE(r_bip <= 1e-12);
  ENSURE(bodies_hit == n); /* every body falls onto the floor within 0.6 s */
  ENSURE(worst <= 1e-12);
}

/* drift of L over the run at step dt; the linear momentum's error into
 * *ep, the energy's (relative to the kinetic energy at the start) into *ee */
static double flight(rbody* b, double dt, double* ep, double* ee) {
  char step[64];
  snprintf(step, sizeof step, "time.step=%.17g", dt);
  const char* sets[] = {step};
  sc_model* m;
  sc_data* d;
  *ep = *ee = INFINITY;
  if (open_body(b, sets, 1, &m, &d) != SC_OK) {
    sc_model_free(m);
    sc_data_free(d);
    return INFINITY;
  }
  double v0[3], L0[3];
  com_motion(m, d, b, v0, L0);
  const double vs = sqrt(v0[0] * v0[0] + v0[1] * v0[1] + v0[2] * v0[2]) + 9.81 * m->opt.duration;
  const double Ls = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
  const long nstep = lround(m->opt.duration / dt);
  const double E0 = d->e_kinetic + d->e_gravity, T0 = d->e_kinetic;
  double eL = 0, ev = 0, eE = 0;
  sc_error err;
  for (long k = 0; k < nstep; k++) {
    if (sc_step(m, d, &err) != SC_OK) {
      eL = ev = INFINITY;
      break;
    }
    double vc[3], L[3];
    com_motion(m, d, b, vc, L);
    const double g[3] = {0, 0, -9.81 * d->time};
    for (int r = 0; r < 3; r++) {
      ev = fmax(ev, fabs(vc[r] - v0[r] - g[r]) / vs);
      eL = fmax(eL, fabs(L[r] - L0[r]) / Ls);
    }
    eE = fmax(eE, fabs(d->e_kinetic + d->e_gravity - E0) / T0);
  }
  *ep = ev;
  *ee = eE;
  sc_model_free(m);
  sc_data_free(d);
  return eL;
}

static void test_free_flight_momenta(void) {
  rng = 4242u;
  const int n = nbodies();
  double worst_p = 0, worst_c = 0, worst_L = 0, worst_E = 0, worst_ce = 0;
  for (int i = 0; i < n; i++) {
    rbody b;
    random_body(&b, 0, 0); /* midpoint */
    const double dt = exp(uni(log(2.5e-4), log(2e-3)));
    double ep, ee;
    const double e = flight(&b, dt, &ep, &ee);
    const double w = sqrt(b.v[3] * b.v[3] + b.v[4] * b.v[4] + b.v[5] * b.v[5]);
    /* the drift against the scheme's local measure of rotation per step */
    const double c = (e - 1e-6) / ((w * dt) * (w * dt));
    const double ce = (ee - 1e-6) / ((w * dt) * (w * dt));
    worst_E = fmax(worst_E, ee);
    worst_ce = fmax(worst_ce, ce);
    worst_p = fmax(worst_p, ep);
    worst_L = fmax(worst_L, e);
    worst_c = fmax(worst_c, c);
    if (!(c <= 0.3))
      printf("  body %d (dt %.3g s, |w| %.3g rad/s): L drift %.3g relative, %.3g (|w| dt)^2\n", i, dt,
             w, e, c);
  }
  printf("  %d random bodies in free flight, midpoint, 0.2 s: linear momentum against m (v0 + g t) "
         "%.3g relative (bound 1e-12); angular momentum about the centre: largest drift %.3g "
         "relative, at most 1e-6 + %.3g (|w| dt)^2 (bound 1e-6 + 0.3 (|w| dt)^2: second order "
         "in the step, with a floor of the free-motion iteration's tolerance)\n",
         n, worst_p, worst_L, worst_c);
  printf("  energy (kinetic + gravity) against its start: largest drift %.3g of the kinetic energy, "
         "at most 1e-6 + %.3g (|w| dt)^2 (bound 1e-6 + 0.05 (|w| dt)^2)\n", worst_E, worst_ce);
  ENSURE(worst_p <= 1e-12);
  ENSURE(worst_c <= 0.3);
  ENSURE(worst_ce <= 0.05);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_frictionless_impacts_keep_horizontal_momentum);
  RUN(test_free_flight_momenta);
  return TEST_END();
}
