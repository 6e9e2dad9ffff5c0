/* test_constraints: equality constraints (constraint/equality.c) against
 * closed forms and against the same mechanism built from joints.
 *
 * - a distance constraint makes a free bob a rigid pendulum: its period
 *   from 90 degrees is 4 sqrt(l/g) K(sin 45 deg) (complete elliptic
 *   integral, by the AGM), its path the one of the bob on a hinge, both to
 *   second order in the step;
 * - a parallelogram four-bar closed by a connect: the coupler keeps its
 *   orientation, the closure residual stays at the near-rigid bound, and the
 *   crank swings as the one-degree-of-freedom pendulum of the linkage's
 *   effective inertia (I1 + I2 + m_c r^2) and gravity moment;
 * - a joint coupling of ratio r under a motor torque: q2 = r q1 + offset
 *   while the torque flows through it, q1 = tau t^2 / (2 (I1 + r^2 I2));
 * - a weld: two welded free bodies spin as the one merged rigid body;
 * - the LCP baseline takes the rows as free rows of its LCP;
 * - tendons: a cable over two fixed points is Atwood's machine (a = g (m1 -
 *   m2) / (m1 + m2), tension 2 m1 m2 g / (m1 + m2)); a fixed tendon at its
 *   limit holds two arms with the statics' tension; a fixed tendon's spring
 *   is the two-inertia oscillator (omega^2 = k (1/I1 + 1/I2)); a spatial
 *   tendon of two points with a spring is a linear spring; dry friction
 *   along a fixed and a spatial tendon holds or yields a pushed slider as
 *   Coulomb's law says (SAP and the LCP);
 * - inputs that cannot be constraints are refused at their line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "dynamics/dynamics.h"
#include "harness.h"
#include "integrator/integrator.h"
#include "scene/scene.h"

static const double PI = 3.14159265358979323846;

static sc_model* load(const char* text, const char* const* sets, int nsets) {
  sc_model* m = NULL;
  sc_error err;
  if (sc_scene_load_string(text, "scene.yaml", sets, nsets, &m, &err) != SC_OK) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    printf("  %s\n", buf);
    return NULL;
  }
  return m;
}

static sc_data* start(const sc_model* m) {
  sc_data* d = NULL;
  sc_error err;
  if (sc_data_create(m, &d, &err) != SC_OK || sc_sim_prepare(m, d, &err) != SC_OK ||
      sc_forward(m, d, &err) != SC_OK) {
    sc_data_free(d);
    return NULL;
  }
  return d;
}

static int step(const sc_model* m, sc_data* d) {
  sc_error err;
  if (sc_step(m, d, &err) == SC_OK) return 1;
  char buf[1200];
  sc_error_format(&err, buf, sizeof buf);
  printf("  step %ld: %s\n", d->step, buf);
  return 0;
}

/* the complete elliptic integral of the first kind K(k) by the AGM */
static double ellip_k(double k) {
  double a = 1.0, b = sqrt(1.0 - k * k);
  for (int i = 0; i < 30; i++) {
    const double an = 0.5 * (a + b);
    b = sqrt(a * b);
    a = an;
  }
  return PI / (2.0 * a);
}

/* ---- a rigid pendulum from a distance constraint ---- */

static const char* BOB =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 2.0}\n"
    "bodies:\n"
    "  - name: bob\n"
    "    joint: {type: free}\n"
    "    initial: {q: [0.5, 0, 0, 1, 0, 0, 0]}\n"
    "    mass: 1.0\n"
    "    inertia: {ixx: 1.0e-3, iyy: 1.0e-3, izz: 1.0e-3}\n"
    "constraints:\n"
    "  - {type: distance, a: {body: world}, b: {body: bob}}\n";

static const char* HINGE =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 2.0}\n"
    "bodies:\n"
    "  - name: arm\n"
    "    joint: {type: revolute, axis: [0, 1, 0]}\n"
    "    mass: 1.0\n"
    "    com: [0.5, 0, 0]\n"
    "    inertia: {ixx: 1.0e-12, iyy: 1.0e-12, izz: 1.0e-12}\n";

/* the bob's largest distance from the hinge's path and from the length,
 * and the time of its first stop on the far side (the half period, by the
 * zero of the vertical velocity, interpolated) */
static void pendulum_run(const char* dt, const char* solver, double* path, double* len,
                         double* half) {
  char s1[64], s2[64];
  snprintf(s1, sizeof s1, "time.step=%s", dt);
  snprintf(s2, sizeof s2, "contact.solver=%s", solver);
  const char* sets[] = {s1, s2};
  sc_model* mb = load(BOB, sets, 2);
  sc_model* mh = load(HINGE, sets, 1);
  sc_data* db = mb ? start(mb) : NULL;
  sc_data* dh = mh ? start(mh) : NULL;
  *path = *len = *half = INFINITY;
  if (db && dh) {
    double p = 0.0, l = 0.0, t = NAN, vz0 = 0.0;
    const long n = lround(mb->opt.duration / mb->opt.dt);
    for (long k = 0; k < n; k++) {
      if (!step(mb, db) || !step(mh, dh)) break;
      const double* x = db->xpos + 3;
      const double q = dh->q[0];
      const double hx = 0.5 * cos(q), hz = -0.5 * sin(q);
      p = fmax(p, hypot(x[0] - hx, x[2] - hz));
      l = fmax(l, fabs(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) - 0.5));
      /* the bob's vertical velocity (its origin is its centre), which
       * turns from up to down where it stops on the far side */
      const double vz = db->v[2];
      if (isnan(t) && vz0 > 0.0 && vz <= 0.0) t = db->time - mb->opt.dt * vz / (vz - vz0);
      vz0 = vz;
      if (k + 1 == n) *path = p, *len = l, *half = t;
    }
  }
  sc_data_free(db);
  sc_data_free(dh);
  sc_model_free(mb);
  sc_model_free(mh);
}

static void test_distance_is_a_rigid_pendulum(void) {
  const double half = 2.0 * sqrt(0.5 / 9.81) * ellip_k(sin(PI / 4.0));
  double p1, l1, h1, p2, l2, h2;
  pendulum_run("1.0e-3", "newton", &p1, &l1, &h1);
  pendulum_run("5.0e-4", "newton", &p2, &l2, &h2);
  printf("  dt 1 ms: path %.3g m, length %.3g m, half period %.9g s (closed form %.9g)\n", p1, l1,
         h1, half);
  printf("  dt 0.5 ms: path %.3g m, length %.3g m, half period %.9g s\n", p2, l2, h2);
  /* measured 6.6e-5 and 1.7e-5 m from the hinge's path, 1.06e-5 and
   * 2.6e-6 m off the length: second order, as the scheme */
  ENSURE(p1 < 1.0e-4 && l1 < 2.0e-5);
  ENSURE(p2 < 0.3 * p1 && l2 < 0.3 * l1);
  /* measured 1.06e-5 and 2.6e-6 s from the closed form */
  ENSURE_NEAR(h1, half, 2.0e-5);
  ENSURE_NEAR(h2, half, 5.0e-6);
  ENSURE(fabs(h2 - half) < 0.3 * fabs(h1 - half));
}

static void test_lcp_takes_the_rows(void) {
  double p, l, h;
  pendulum_run("1.0e-3", "lcp", &p, &l, &h);
  const double half = 2.0 * sqrt(0.5 / 9.81) * ellip_k(sin(PI / 4.0));
  printf("  lcp: path %.3g m, length %.3g m, half period %.9g s\n", p, l, h);
  ENSURE(p < 1.0e-4 && l < 2.0e-5);
  ENSURE_NEAR(h, half, 2.0e-5);
}

/* ---- a parallelogram four-bar closed by a connect ---- */

static const char* FOURBAR =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 2.0}\n"
    "bodies:\n"
    "  - name: crank1\n"
    "    joint: {type: revolute, axis: [0, 1, 0]}\n"
    "    initial: {q: [0.5]}\n"
    "    mass: 1.0\n"
    "    com: [0, 0, -0.5]\n"
    "    inertia: {ixx: 1.0e-3, iyy: 1.0e-3, izz: 1.0e-3}\n"
    "  - name: coupler\n"
    "    parent: crank1\n"
    "    joint: {type: revolute, axis: [0, 1, 0], origin: {position: [0, 0, -0.5]}}\n"
    "    initial: {q: [-0.5]}\n"
    "    mass: 2.0\n"
    "    com: [0.5, 0, 0]\n"
    "    inertia: {ixx: 1.0e-3, iyy: 1.0e-3, izz: 1.0e-3}\n"
    "  - name: crank2\n"
    "    joint: {type: revolute, axis: [0, 1, 0], origin: {position: [1, 0, 0]}}\n"
    "    initial: {q: [0.5]}\n"
    "    mass: 1.0\n"
    "    com: [0, 0, -0.25]\n"
    "    inertia: {ixx: 1.0e-3, iyy: 1.0e-3, izz: 1.0e-3}\n"
    "constraints:\n"
    "  - {type: connect, name: closure, a: {body: coupler, point: [1, 0, 0]},\n"
    "     b: {body: crank2}}\n";

/* the coupler's largest turn, the largest closure residual, the half
 * period (theta_1's first stop at -theta0) and the largest energy error */
static void fourbar_run(const char* dt, double* turn, double* gap, double* half, double* de) {
  char s1[64];
  snprintf(s1, sizeof s1, "time.step=%s", dt);
  const char* sets[] = {s1};
  sc_model* m = load(FOURBAR, sets, 1);
  sc_data* d = m ? start(m) : NULL;
  *turn = *gap = *half = *de = INFINITY;
  if (d) {
    double tu = 0.0, g = 0.0, t = NAN, w0 = -1.0, e = 0.0;
    const double E0 = d->e_kinetic + d->e_gravity;
    const long n = lround(m->opt.duration / m->opt.dt);
    long k = 0;
    for (; k < n && step(m, d); k++) {
      tu = fmax(tu, fabs(d->q[0] + d->q[1]));
      for (int r = 0; r < m->neqrow; r++) g = fmax(g, fabs(d->eq_gap[r]));
      const double w = d->v[0];
      if (isnan(t) && w0 < 0.0 && w >= 0.0) t = d->time - m->opt.dt * w / (w - w0);
      w0 = w;
      e = fmax(e, fabs(d->e_kinetic + d->e_gravity - E0));
    }
    if (k == n) *turn = tu, *gap = g, *half = t, *de = e;
  }
  sc_data_free(d);
  sc_model_free(m);
}

static void test_fourbar_parallelogram(void) {
  /* the linkage's one degree of freedom: I theta'' = -G sin theta with
   * I = I1 + I2 + m_c r^2 about the pivots and G = (m1 c1 + m2 c2 + m_c r) g */
  const double I = (1.0e-3 + 1.0 * 0.25) + (1.0e-3 + 1.0 * 0.0625) + 2.0 * 0.25;
  const double G = (1.0 * 0.5 + 1.0 * 0.25 + 2.0 * 0.5) * 9.81;
  const double half = 2.0 * sqrt(I / G) * ellip_k(sin(0.25));
  double tu1, g1, h1, e1, tu2, g2, h2, e2;
  fourbar_run("1.0e-3", &tu1, &g1, &h1, &e1);
  fourbar_run("5.0e-4", &tu2, &g2, &h2, &e2);
  printf("  dt 1 ms: coupler turn %.3g rad, closure %.3g m, half period %.9g s (closed form "
         "%.9g), energy %.3g J\n", tu1, g1, h1, half, e1);
  printf("  dt 0.5 ms: coupler turn %.3g rad, closure %.3g m, half period %.9g s, energy %.3g J\n",
         tu2, g2, h2, e2);
  /* measured 1.12e-6 rad and 7.8e-7 m, 1.4e-6 s from the closed form, 9e-6 J;
   * each a quarter at half the step */
  ENSURE(tu1 < 2.0e-6 && g1 < 1.5e-6);
  ENSURE(tu2 < 0.3 * tu1 && g2 < 0.3 * g1);
  ENSURE_NEAR(h1, half, 3.0e-6);
  ENSURE(fabs(h2 - half) < 0.3 * fabs(h1 - half));
  ENSURE(e2 < 0.3 * e1);
}

/* ---- a joint coupling carries a motor's torque ---- */

static const char* GEARS =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 1.0}\n"
    "bodies:\n"
    "  - name: w1\n"
    "    joint: {type: revolute, axis: [0, 0, 1]}\n"
    "    mass: 1.0\n"
    "    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.2}\n"
    "  - name: w2\n"
    "    joint: {type: revolute, axis: [0, 0, 1], origin: {position: [1, 0, 0]}}\n"
    "    initial: {q: [0.1]}\n"
    "    mass: 1.0\n"
    "    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.05}\n"
    "constraints:\n"
    "  - {type: joint, joint: w2, of: w1, ratio: -2.0, offset: 0.1}\n"
    "actuators:\n"
    "  - {name: m, type: motor, joint: w1, command: 0.5}\n";

static void test_coupling_carries_torque(void) {
  sc_model* m = load(GEARS, NULL, 0);
  sc_data* d = m ? start(m) : NULL;
  ENSURE(d != NULL);
  if (!d) return;
  double rel = 0.0;
  const long n = lround(m->opt.duration / m->opt.dt);
  long k = 0;
  const long a0 = sc_alloc_count();
  for (; k < n && step(m, d); k++) rel = fmax(rel, fabs(d->q[1] - (-2.0 * d->q[0] + 0.1)));
  ENSURE(k == n);
  ENSURE(sc_alloc_count() == a0); /* the rows allocate nothing in the step */
  /* (I1 + r^2 I2) q1'' = tau */
  const double acc = 0.5 / (0.2 + 4.0 * 0.05);
  printf("  q1(1 s) = %.12g rad (closed form %.12g), |q2 - r q1 - offset| <= %.3g rad, "
         "coupling torque %.6g N m\n", d->q[0], 0.5 * acc, rel, d->eq_force[0]);
  /* measured 3.2e-8 rad from the closed form, and 1.76e-7 rad off the
   * relation: the near-rigid law holds a row to its regularization,
   * |dg| = R gamma dt with R = w / (4 pi^2) and gamma = f dt, w = 1/I2 + r^2/I1
   * = 40 and the row's force f = 0.125: 1.3e-7 rad */
  ENSURE_NEAR(d->q[0], 0.5 * acc, 1.0e-7);
  const double bound = 40.0 / (4.0 * PI * PI) * 0.125 * 1.0e-6;
  ENSURE(rel < 1.5 * bound);
  /* the coupling's generalized force on w2 is I2 q2'' = I2 r acc, through
   * J = (-r, 1): its row force is that */
  ENSURE_CLOSE(d->eq_force[0], 0.05 * -2.0 * acc, 1.0e-6, 0.0);
  sc_data_free(d);
  sc_model_free(m);
}

/* ---- a weld makes two bodies one ---- */

static const char* WELD =
    "simc: 1\n"
    "gravity: [0, 0, 0]\n"
    "time: {step: 1.0e-3, duration: 2.0}\n"
    "bodies:\n"
    "  - name: a\n"
    "    joint: {type: free}\n"
    "    initial: {v: [0, 0, 0, 1, 2, 3]}\n"
    "    mass: 1.0\n"
    "    inertia: {ixx: 0.01, iyy: 0.02, izz: 0.03}\n"
    "  - name: b\n"
    "    joint: {type: free}\n"
    "    initial: {q: [0.3, 0, 0, 1, 0, 0, 0], v: [0, 0.9, -0.6, 1, 2, 3]}\n"
    "    mass: 2.0\n"
    "    inertia: {ixx: 0.02, iyy: 0.01, izz: 0.02}\n"
    "constraints:\n"
    "  - {type: weld, a: {body: a}, b: {body: b}}\n";

/* the same mass: 3 kg with its centre at 0.2 m, the inertia about it by the
 * parallel-axis theorem */
static const char* MERGED =
    "simc: 1\n"
    "gravity: [0, 0, 0]\n"
    "time: {step: 1.0e-3, duration: 2.0}\n"
    "bodies:\n"
    "  - name: ab\n"
    "    joint: {type: free}\n"
    "    initial: {v: [0, 0, 0, 1, 2, 3]}\n"
    "    mass: 3.0\n"
    "    com: [0.2, 0, 0]\n"
    "    inertia: {ixx: 0.03, iyy: 0.09, izz: 0.11}\n";

static void test_weld_is_one_body(void) {
  sc_model* mw = load(WELD, NULL, 0);
  sc_model* mm = load(MERGED, NULL, 0);
  sc_data* dw = mw ? start(mw) : NULL;
  sc_data* dm = mm ? start(mm) : NULL;
  ENSURE(dw && dm);
  if (!dw || !dm) goto done;
  double pa = 0.0, pb = 0.0, ra = 0.0;
  const long n = lround(mw->opt.duration / mw->opt.dt);
  long k = 0;
  const long a0 = sc_alloc_count();
  for (; k < n && step(mw, dw) && step(mm, dm); k++) {
    double bm[3], x[3] = {0.3, 0.0, 0.0};
    for (int i = 0; i < 3; i++) {
      bm[i] = dm->xpos[3 + i];
      for (int j = 0; j < 3; j++) bm[i] += dm->xrot[9 + 3 * i + j] * x[j];
    }
    for (int i = 0; i < 3; i++) {
      pa = fmax(pa, fabs(dw->xpos[3 + i] - dm->xpos[3 + i]));
      pb = fmax(pb, fabs(dw->xpos[6 + i] - bm[i]));
    }
    for (int i = 0; i < 9; i++) ra = fmax(ra, fabs(dw->xrot[9 + i] - dm->xrot[9 + i]));
  }
  ENSURE(k == n);
  ENSURE(sc_alloc_count() == a0);
  printf("  over 2 s: a's origin %.3g m, b's %.3g m, a's rotation %.3g from the merged body's\n",
         pa, pb, ra);
  /* measured 1.05e-5 m, 5.3e-6 m and 5.3e-5 */
  ENSURE(pa < 2.0e-5 && pb < 1.0e-5 && ra < 1.0e-4);
done:
  sc_data_free(dw);
  sc_data_free(dm);
  sc_model_free(mw);
  sc_model_free(mm);
}

/* ---- tendons ---- */

static const char* ATWOOD =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 0.5}\n"
    "bodies:\n"
    "  - name: m1\n"
    "    joint: {type: prismatic, axis: [0, 0, 1], origin: {position: [-0.1, 0, 0]}}\n"
    "    mass: 3.0\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "  - name: m2\n"
    "    joint: {type: prismatic, axis: [0, 0, 1], origin: {position: [0.1, 0, 0]}}\n"
    "    mass: 1.0\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "tendons:\n"
    "  - name: cable\n"
    "    type: spatial\n"
    "    path: [{body: m1}, {body: world, point: [-0.1, 0, 1]}, {body: world, point: [0.1, 0, 1]},\n"
    "           {body: m2}]\n"
    "    limits: [null, 2.2]\n";

static void atwood(const char* solver) {
  char s1[64];
  snprintf(s1, sizeof s1, "contact.solver=%s", solver);
  const char* sets[] = {s1};
  sc_model* m = load(ATWOOD, sets, 1);
  sc_data* d = m ? start(m) : NULL;
  ENSURE(d != NULL);
  if (!d) return;
  const double g = 9.81, a = g * 2.0 / 4.0, T = 2.0 * 3.0 * 1.0 * g / 4.0;
  double len = 0.0, force = 0.0;
  const long n = lround(m->opt.duration / m->opt.dt);
  long k = 0;
  const long a0 = sc_alloc_count();
  for (; k < n && step(m, d); k++) {
    len = fmax(len, d->ten_length[0] - 2.2);
    if (k >= 100) force = fmax(force, fabs(d->ten_limit_force[0] + T));
  }
  ENSURE(k == n);
  ENSURE(sc_alloc_count() == a0);
  const double t = d->time;
  printf("  %s: z1(%.1f s) = %.9f m (closed form %.9f), z2 = %.9f m, cable over its length by "
         "%.3g m at most, tension %.9g N (closed form %.9g; off by %.3g after 0.1 s)\n",
         solver, t, d->q[0], -0.5 * a * t * t, d->q[1], len, -d->ten_limit_force[0], T, force);
  /* measured: 1.2e-7 and 3.7e-7 m from the closed form, the cable 6.9e-7 m
   * over its length (its near-rigid stretch, w T dt^2 / (4 pi^2) = 4.9e-7 m
   * with w = 1/m1 + 1/m2), the tension within 6.5e-10 N once the first
   * steps' ringing of the engaging cable (8e-3 N) has died out */
  ENSURE_NEAR(d->q[0], -0.5 * a * t * t, 1.0e-6);
  ENSURE_NEAR(d->q[1], 0.5 * a * t * t, 1.0e-6);
  ENSURE(len < 1.0e-6);
  ENSURE(force < 1.0e-8 * T);
  sc_data_free(d);
  sc_model_free(m);
}

static void test_atwood_machine(void) {
  atwood("newton");
  atwood("lcp"); /* the cable's rows are unilateral rows of its LCP */
}

/* A tackle: the light load (1 kg) on one branch of the cable, the heavy
 * one (3 kg) on a branch after a pulley of divisor 2, L = L1 + L2/2 held
 * at its start (limits [null, 1.5]).  Then a1 = -a2/2 and, with the
 * tension T on the first branch and T/2 on the second,
 *   m1 a1 = T - m1 g,  m2 a2 = T/2 - m2 g
 *   a1 = g (m2 - m1/2) / (2 m2 + m1/2),  T = m1 (a1 + g). */
static const char* TACKLE =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 0.5}\n"
    "bodies:\n"
    "  - {name: light, joint: {type: prismatic, axis: [0, 0, 1], origin: {position: [-0.1, 0, 0]}}, mass: 1.0,\n"
    "     inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n"
    "  - {name: heavy, joint: {type: prismatic, axis: [0, 0, 1], origin: {position: [0.1, 0, 0]}}, mass: 3.0,\n"
    "     inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n"
    "tendons:\n"
    "  - name: cable\n"
    "    type: spatial\n"
    "    path: [{body: world, point: [-0.1, 0, 1]}, {body: light}, {pulley: 2},\n"
    "           {body: world, point: [0.1, 0, 1]}, {body: heavy}]\n"
    "    limits: [null, 1.5]\n";

static void test_pulley_tackle(void) {
  sc_model* m = load(TACKLE, NULL, 0);
  sc_data* d = m ? start(m) : NULL;
  ENSURE(d != NULL);
  if (!d) return;
  const double g = 9.81, m1 = 1.0, m2 = 3.0;
  const double a1 = g * (m2 - 0.5 * m1) / (2.0 * m2 + 0.5 * m1), T = m1 * (a1 + g);
  double force = 0.0;
  const long n = lround(m->opt.duration / m->opt.dt);
  long k = 0;
  for (; k < n && step(m, d); k++)
    if (k >= 100) force = fmax(force, fabs(d->ten_limit_force[0] + T));
  ENSURE(k == n);
  const double t = d->time;
  printf("  z_light(%.1f s) = %.9f m (closed form %.9f), z_heavy = %.9f m (%.9f), tension %.9g N (closed form "
         "%.9g; off by %.3g after 0.1 s), L = %.9f m\n",
         t, d->q[0], 0.5 * a1 * t * t, d->q[1], -a1 * t * t, -d->ten_limit_force[0], T, force, d->ten_length[0]);
  /* measured: 3.4e-7 and 5.7e-8 m from the closed form, the tension within
   * 4e-10 N after the engaging cable's first steps, L 3.7e-7 m over */
  ENSURE_NEAR(d->q[0], 0.5 * a1 * t * t, 1.0e-6);
  ENSURE_NEAR(d->q[1], -a1 * t * t, 1.0e-6);
  ENSURE(force < 1.0e-8 * T);
  sc_data_free(d);
  sc_model_free(m);
}

static const char* HOLD =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 1.0}\n"
    "bodies:\n"
    "  - name: arm1\n"
    "    joint: {type: revolute, axis: [0, 1, 0]}\n"
    "    mass: 1.0\n"
    "    com: [0.5, 0, 0]\n"
    "    inertia: {ixx: 1.0e-3, iyy: 1.0e-3, izz: 1.0e-3}\n"
    "  - name: arm2\n"
    "    joint: {type: revolute, axis: [0, 1, 0], origin: {position: [0, 1, 0]}}\n"
    "    mass: 2.0\n"
    "    com: [0.25, 0, 0]\n"
    "    inertia: {ixx: 1.0e-3, iyy: 1.0e-3, izz: 1.0e-3}\n"
    "tendons:\n"
    "  - {name: tie, type: fixed, joints: [{joint: arm1}, {joint: arm2}], limits: [null, 0]}\n";

static void test_fixed_tendon_holds(void) {
  sc_model* m = load(HOLD, NULL, 0);
  sc_data* d = m ? start(m) : NULL;
  ENSURE(d != NULL);
  if (!d) return;
  const long n = lround(m->opt.duration / m->opt.dt);
  long k = 0;
  double qmax = 0.0;
  for (; k < n && step(m, d); k++) qmax = fmax(qmax, fmax(fabs(d->q[0]), fabs(d->q[1])));
  ENSURE(k == n);
  /* each arm's gravity moment is 4.905 N m: the tie carries it */
  const double T = 1.0 * 9.81 * 0.5;
  printf("  tension %.9g N m (statics %.9g), the arms within %.3g rad of level\n",
         -d->ten_limit_force[0], T, qmax);
  ENSURE_CLOSE(-d->ten_limit_force[0], T, 1.0e-9, 0.0);
  /* the arms sag by the tie's near-rigid stretch, w T dt^2 / (4 pi^2) with
   * w = 1/I1 + 1/I2 about the hinges: 1.48e-6 rad (measured 1.37e-6) */
  const double w = 1.0 / (1.0e-3 + 0.25) + 1.0 / (1.0e-3 + 2.0 * 0.0625);
  ENSURE(qmax < 1.2 * w * T * 1.0e-6 / (4.0 * PI * PI));
  sc_data_free(d);
  sc_model_free(m);
}

static const char* TWIST =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 2.0}\n"
    "bodies:\n"
    "  - name: w1\n"
    "    joint: {type: revolute, axis: [0, 0, 1]}\n"
    "    initial: {q: [0.1]}\n"
    "    mass: 1.0\n"
    "    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.2}\n"
    "  - name: w2\n"
    "    joint: {type: revolute, axis: [0, 0, 1], origin: {position: [1, 0, 0]}}\n"
    "    mass: 1.0\n"
    "    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.05}\n"
    "tendons:\n"
    "  - {name: shaft, type: fixed, joints: [{joint: w1}, {joint: w2, coef: -1}],\n"
    "     stiffness: 4.0, rest: 0}\n";

static void test_tendon_spring_oscillator(void) {
  sc_model* m = load(TWIST, NULL, 0);
  sc_data* d = m ? start(m) : NULL;
  ENSURE(d != NULL);
  if (!d) return;
  /* x = q1 - q2: x'' = -k (1/I1 + 1/I2) x, the momentum I1 q1' + I2 q2' = 0 */
  const double w = sqrt(4.0 * (1.0 / 0.2 + 1.0 / 0.05));
  const double E0 = d->e_kinetic + d->e_spring;
  double err = 0.0, de = 0.0, mom = 0.0;
  const long n = lround(m->opt.duration / m->opt.dt);
  long k = 0;
  for (; k < n && step(m, d); k++) {
    err = fmax(err, fabs(d->q[0] - d->q[1] - 0.1 * cos(w * d->time)));
    de = fmax(de, fabs(d->e_kinetic + d->e_spring - E0));
    mom = fmax(mom, fabs(0.2 * d->v[0] + 0.05 * d->v[1]));
  }
  ENSURE(k == n);
  printf("  q1 - q2 within %.3g rad of 0.1 cos(omega t) over 2 s, energy within %.3g J of "
         "%.6g J, momentum %.3g\n", err, de, E0, mom);
  /* the midpoint rule's phase error (omega dt)^2 / 12 per radian: 2e-5 rad
   * over the run */
  ENSURE(err < 5.0e-5);
  ENSURE(de < 1.0e-9 * E0);
  ENSURE(mom < 1.0e-12);
  sc_data_free(d);
  sc_model_free(m);
}

/* two scenes stepped side by side over their duration: the largest
 * difference of their coordinates (INFINITY when either fails); *ma_out,
 * *da_out keep the first scene's model and data (the caller frees) */
static double run_pair(const char* a, const char* b, sc_model** ma_out, sc_data** da_out) {
  sc_model* ma = load(a, NULL, 0);
  sc_model* mb = load(b, NULL, 0);
  sc_data* da = ma ? start(ma) : NULL;
  sc_data* db = mb ? start(mb) : NULL;
  double diff = INFINITY;
  if (da && db) {
    diff = 0.0;
    const long n = lround(ma->opt.duration / ma->opt.dt);
    long k = 0;
    for (; k < n && step(ma, da) && step(mb, db); k++)
      for (int i = 0; i < ma->nq; i++) diff = fmax(diff, fabs(da->q[i] - db->q[i]));
    if (k < n) diff = INFINITY;
  }
  sc_data_free(db);
  sc_model_free(mb);
  *ma_out = ma;
  *da_out = da;
  return diff;
}

/* a spatial tendon of two points with a spring is a linear spring */
static const char* ROD =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 1.0}\n"
    "bodies:\n"
    "  - name: ball\n"
    "    joint: {type: free}\n"
    "    initial: {q: [0.3, 0.1, -0.5, 1, 0, 0, 0], v: [0, 0.5, 0, 1, 0, 2]}\n"
    "    mass: 1.0\n"
    "    inertia: {ixx: 0.01, iyy: 0.02, izz: 0.03}\n";

static void test_spatial_spring_is_linear_spring(void) {
  char a[2048], b[2048];
  snprintf(a, sizeof a, "%s%s", ROD,
           "tendons:\n"
           "  - {name: s, type: spatial, path: [{body: world}, {body: ball, point: [0.1, 0, 0]}],\n"
           "     stiffness: 50, damping: 0.5, rest: 0.4}\n");
  snprintf(b, sizeof b, "%s%s", ROD,
           "springs:\n"
           "  - {type: linear, a: {body: world}, b: {body: ball, point: [0.1, 0, 0]},\n"
           "     stiffness: 50, damping: 0.5, rest_length: 0.4}\n");
  sc_model* ma;
  sc_data* da;
  const double diff = run_pair(a, b, &ma, &da);
  printf("  tendon against linear spring: %.3g over 1 s\n", diff);
  /* the same forces; the tendon's stiffness matrix leaves out the stretched
   * spring's transverse term, so the free motion's Newton iterations take
   * another path to the same end: they agree to its tolerance (measured
   * 1.3e-11) */
  ENSURE(diff < 1.0e-9);
  sc_data_free(da);
  sc_model_free(ma);
}

/* a tendon equality between two fixed tendons of one joint each is that
 * joints' coupling */
static void test_tendon_equality_is_coupling(void) {
  char a[2048], b[2048];
  const char* base =
      "simc: 1\n"
      "gravity: [0, 0, -9.81]\n"
      "time: {step: 1.0e-3, duration: 1.0}\n"
      "bodies:\n"
      "  - {name: s1, joint: {type: prismatic, axis: [0, 0, 1]}, mass: 3.0,\n"
      "     inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n"
      "  - {name: s2, joint: {type: prismatic, axis: [0, 0, 1], origin: {position: [1, 0, 0]}},\n"
      "     mass: 1.0, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n";
  snprintf(a, sizeof a, "%s%s", base,
           "tendons:\n"
           "  - {name: t1, type: fixed, joints: [{joint: s1}]}\n"
           "  - {name: t2, type: fixed, joints: [{joint: s2, coef: 0.5}]}\n"
           "constraints:\n"
           "  - {type: tendon, tendon: t2, of: t1, ratio: -1}\n");
  snprintf(b, sizeof b, "%s%s", base,
           "constraints:\n"
           "  - {type: joint, joint: s2, of: s1, ratio: -2}\n");
  sc_model* ma;
  sc_data* da;
  const double diff = run_pair(a, b, &ma, &da);
  /* the lever: (m1 + 4 m2) q1'' = (2 m2 - m1) g */
  const double acc = (2.0 - 3.0) * 9.81 / (3.0 + 4.0);
  printf("  tendon equality against the joint coupling: %.3g m over 1 s; q1(1 s) = %.9f m "
         "(closed form %.9f)\n", diff, da ? da->q[0] : (double)NAN, 0.5 * acc);
  ENSURE(diff < 1.0e-12);
  if (da) ENSURE_NEAR(da->q[0], 0.5 * acc, 1.0e-6);
  sc_data_free(da);
  sc_model_free(ma);
}

/* ---- actuators on tendons: a movable pulley ---- */

static const char* PULLEY =
    "simc: 1\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 0.5}\n"
    "bodies:\n"
    "  - {name: load, joint: {type: prismatic, axis: [0, 0, 1]}, mass: 1.0,\n"
    "     inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n"
    "tendons:\n"
    "  - name: rope\n"
    "    type: spatial\n"
    "    path: [{body: world, point: [-0.1, 0, 1]}, {body: load, point: [-0.1, 0, 0]},\n"
    "           {body: load, point: [0.1, 0, 0]}, {body: world, point: [0.1, 0, 1]}]\n";

static void test_tendon_motor_pulley(void) {
  /* the rope runs down to the load and back up: L = 2.2 - 2 z, so a pull T
   * on the rope (a motor force -T along it) lifts with 2 T */
  char text[2048];
  snprintf(text, sizeof text, "%s%s", PULLEY,
           "actuators:\n  - {name: winch, type: motor, tendon: rope, command: -7.0}\n");
  sc_model* m = load(text, NULL, 0);
  sc_data* d = m ? start(m) : NULL;
  ENSURE(d != NULL);
  if (!d) goto done;
  const long n = lround(m->opt.duration / m->opt.dt);
  long k = 0;
  const long a0 = sc_alloc_count();
  for (; k < n && step(m, d); k++) {
  }
  ENSURE(k == n);
  ENSURE(sc_alloc_count() == a0);
  const double a = 2.0 * 7.0 - 9.81, t = d->time;
  const double E = d->e_kinetic + d->e_gravity + d->e_spring;
  printf("  z(%.1f s) = %.9f m (closed form %.9f), actuator force %.6g N, energy balance %.3g J\n",
         t, d->q[0], 0.5 * a * t * t, d->act_force[0], E - d->e_actuator);
  ENSURE_NEAR(d->q[0], 0.5 * a * t * t, 1.0e-9);
  ENSURE_NEAR(d->act_force[0], -7.0, 1.0e-12);
  ENSURE(fabs(E - d->e_actuator) < 1.0e-9); /* the motor's work is the energy gained */
done:
  sc_data_free(d);
  sc_model_free(m);
}

static void test_tendon_servo_holds(void) {
  char text[2048];
  snprintf(text, sizeof text, "%s%s", PULLEY,
           "actuators:\n  - {name: winch, type: position, tendon: rope, kp: 1.0e4, kd: 200,\n"
           "     command: 2.0}\n");
  const char* sets[] = {"time.duration=3.0"};
  sc_model* m = load(text, sets, 1);
  sc_data* d = m ? start(m) : NULL;
  ENSURE(d != NULL);
  if (!d) goto done;
  const long n = lround(m->opt.duration / m->opt.dt);
  long k = 0;
  for (; k < n && step(m, d); k++) {
  }
  ENSURE(k == n);
  /* at rest the rope carries m g / 2, the servo's force -m g / 2 along it, and
   * its length stands off the target by (m g / 2) / kp */
  const double T = 9.81 / 2.0, z = (2.2 - (2.0 + T / 1.0e4)) / 2.0;
  printf("  servo force %.9g N (statics %.9g), z %.9f m (statics %.9f), v %.3g m/s\n",
         d->act_force[0], -T, d->q[0], z, d->v[0]);
  ENSURE_NEAR(d->act_force[0], -T, 1.0e-6);
  ENSURE_NEAR(d->q[0], z, 1.0e-8);
done:
  sc_data_free(d);
  sc_model_free(m);
}

/* ---- a slider-crank tendon ---- */

/* A crank on a hinge about z; the slider's point and axis on a body that
 * slides along x and turns about y (so the axis turns too). */
static const char* CRANK =
    "simc: 1\n"
    "gravity: [0, 0, 0]\n"
    "time: {step: 1.0e-3, duration: 0.5}\n"
    "bodies:\n"
    "  - {name: crank, joint: {type: revolute, axis: [0, 0, 1]}, mass: 1.0,\n"
    "     inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n"
    "  - {name: cart, joint: {type: prismatic, axis: [1, 0, 0], origin: {position: [0, -0.15, 0]}}, mass: 2.0,\n"
    "     inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n"
    "  - {name: rotor, parent: cart, joint: {type: revolute, axis: [0, 1, 0]}, mass: 0.5,\n"
    "     inertia: {ixx: 0.02, iyy: 0.03, izz: 0.02}}\n"
    "tendons:\n"
    "  - {name: sc, type: slider_crank, crank: {body: crank, point: [0.1, 0, 0.01]},\n"
    "     slider: {body: rotor, point: [0.02, 0, 0.01], axis: [1, 0.5, 0.2]}, rod: %g}\n";

/* L and dL/dq of the slider-crank at q: L's defining property (the rod's
 * end S + L a lies r from the crank point, or, broken, L = a.(C - S)) and
 * each column of J against central differences of L, reachable (rod 0.2)
 * and broken (rod 0.05) */
static void test_slider_crank_jacobian(void) {
  const double rods[2] = {0.2, 0.05};
  for (int c = 0; c < 2; c++) {
    char text[2048];
    snprintf(text, sizeof text, CRANK, rods[c]);
    sc_model* m = load(text, NULL, 0);
    sc_data* d = m ? start(m) : NULL;
    ENSURE(d != NULL);
    if (!d) {
      sc_model_free(m);
      continue;
    }
    double q[3] = {0.7, 0.03, -0.4}, J[3], Jn[3], Jfd[3];
    memcpy(d->q, q, sizeof q);
    sc_dyn_kinematics(m, d, d->q);
    const double L = sc_dyn_tendon(m, d, 0, J);
    /* the points and axis from the bodies' poses, as the file gives them */
    const double pc[3] = {0.1, 0, 0.01}, ps[3] = {0.02, 0, 0.01}, a0[3] = {1 / sqrt(1.29), 0.5 / sqrt(1.29),
                                                                            0.2 / sqrt(1.29)};
    double C[3], S[3], a[3];
    for (int i = 0; i < 3; i++) {
      C[i] = d->xpos[3 * 1 + i] + d->xrot[9 * 1 + 3 * i] * pc[0] + d->xrot[9 * 1 + 3 * i + 1] * pc[1] +
             d->xrot[9 * 1 + 3 * i + 2] * pc[2];
      S[i] = d->xpos[3 * 3 + i] + d->xrot[9 * 3 + 3 * i] * ps[0] + d->xrot[9 * 3 + 3 * i + 1] * ps[1] +
             d->xrot[9 * 3 + 3 * i + 2] * ps[2];
      a[i] = d->xrot[9 * 3 + 3 * i] * a0[0] + d->xrot[9 * 3 + 3 * i + 1] * a0[1] + d->xrot[9 * 3 + 3 * i + 2] * a0[2];
    }
    double e[3], av = 0;
    for (int i = 0; i < 3; i++) av += a[i] * (C[i] - S[i]);
    for (int i = 0; i < 3; i++) e[i] = C[i] - S[i] - L * a[i];
    const double rodlen = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    const double prop = c == 0 ? fabs(rodlen - rods[c]) : fabs(L - av);
    double efd = 0;
    for (int k = 0; k < 3; k++) {
      const double h = 1e-6;
      double qp[3], qm[3];
      memcpy(qp, q, sizeof q);
      memcpy(qm, q, sizeof q);
      qp[k] += h;
      qm[k] -= h;
      memcpy(d->q, qp, sizeof q);
      sc_dyn_kinematics(m, d, d->q);
      const double Lp = sc_dyn_tendon(m, d, 0, Jn);
      memcpy(d->q, qm, sizeof q);
      sc_dyn_kinematics(m, d, d->q);
      const double Lm = sc_dyn_tendon(m, d, 0, Jn);
      Jfd[k] = (Lp - Lm) / (2 * h);
      efd = fmax(efd, fabs(Jfd[k] - J[k]));
    }
    printf("  %s crank (rod %g m): L = %.9f m, %s %.3g m; J = [%.9f, %.9f, %.9f], central differences within %.3g\n",
           c == 0 ? "reaching" : "broken", rods[c], L, c == 0 ? "|C - (S + L a)| - r =" : "L - a.(C - S) =", prop,
           J[0], J[1], J[2], efd);
    ENSURE(prop < 1e-15);
    ENSURE(efd < 1e-8);
    sc_data_free(d);
    sc_model_free(m);
  }
}

/* A constant motor force u along the slider-crank, no gravity, no
 * damping: the work done is u (L(t) - L(0)), which is all kinetic energy
 * (a conservation law; simc's own energy account is not used).  The
 * midpoint rule keeps it to second order in the step (the motor's row is
 * taken at the step's mid configuration); measured over 0.3 s (before the
 * rod nears the tangent where dL/dq grows without bound): 1.43e-6 of the
 * work at 1 ms, 3.57e-7 at 0.5 ms. */
static double crank_work_error(const char* dt) {
  char text[2048], set[64];
  const int n0 = snprintf(text, sizeof text, CRANK, 0.2);
  snprintf(text + n0, sizeof text - (size_t)n0, "actuators:\n  - {name: push, type: motor, tendon: sc, command: -3.0}\n");
  snprintf(set, sizeof set, "time.step=%s", dt);
  const char* sets[] = {set, "time.duration=0.3"};
  sc_model* m = load(text, sets, 2);
  sc_data* d = m ? start(m) : NULL;
  ENSURE(d != NULL);
  double rel = INFINITY;
  if (d) {
    sc_dyn_kinematics(m, d, d->q);
    const double L0 = sc_dyn_tendon(m, d, 0, NULL);
    const long n = lround(m->opt.duration / m->opt.dt);
    long k = 0;
    double jmax = 0;
    for (; k < n && step(m, d); k++) {
      double Jk[3];
      sc_dyn_kinematics(m, d, d->q);
      sc_dyn_tendon(m, d, 0, Jk);
      for (int i = 0; i < 3; i++) jmax = fmax(jmax, fabs(Jk[i]));
    }
    ENSURE(k == n);
    sc_dyn_kinematics(m, d, d->q);
    const double L = sc_dyn_tendon(m, d, 0, NULL), W = -3.0 * (L - L0);
    rel = fabs(d->e_kinetic - W) / W;
    printf("  dt %s s: L %.6f -> %.6f m (largest |dL/dq| %.3g), work u (L - L0) = %.9g J, kinetic energy %.9g J "
           "(relative %.3g)\n", dt, L0, L, jmax, W, d->e_kinetic, rel);
    ENSURE(W > 0.05);
  }
  sc_data_free(d);
  sc_model_free(m);
  return rel;
}

static void test_slider_crank_motor_work(void) {
  const double e1 = crank_work_error("1.0e-3"), e2 = crank_work_error("5.0e-4");
  ENSURE(e1 < 1e-5);
  ENSURE(e2 < e1 / 3.5); /* second order: 4 */
}

/* ---- a tendon wrapping a cylinder or a sphere ---- */

/* A shape of radius 0.1 on an arm (a hinge about z at the origin) at
 * (0.3, 0, 0): a path from the world point c + (-1, -0.05, 0) around it to
 * a point c + (1, -0.05, h) on a cart that slides along x.  In the plane,
 * each leg is sqrt(d^2 - r^2) (d = |(1, 0.05)|), the arc r (pi - 2 beta -
 * 2 alpha), alpha = acos(r/d), beta = atan(0.05): the way below the centre
 * is the shorter.  A cylinder's path climbing h along its axis unrolls to
 * sqrt(S^2 + h^2), S the length in the plane. */
static const char* WRAP =
    "simc: 1\n"
    "gravity: [0, 0, 0]\n"
    "time: {step: 1.0e-3, duration: 0.1}\n"
    "bodies:\n"
    "  - {name: arm, joint: {type: revolute, axis: [0, 0, 1]}, mass: 1.0, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n"
    "  - {name: cart, joint: {type: prismatic, axis: [1, 0, 0]}, mass: 1.0, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n"
    "tendons:\n"
    "  - name: t\n"
    "    type: spatial\n"
    "    path: [{body: world, point: [-0.7, -0.05, 0]}, {wrap: %s, body: arm, center: [0.3, 0, 0], radius: 0.1},\n"
    "           {body: cart, point: [1.3, -0.05, %g]}]\n";

static void test_wrap_closed_form_and_jacobian(void) {
  const char* kinds[3] = {"cylinder", "sphere", "cylinder"};
  const double hs[3] = {0.0, 0.0, 0.2};
  for (int c = 0; c < 3; c++) {
    char text[2048];
    snprintf(text, sizeof text, WRAP, kinds[c], hs[c]);
    sc_model* m = load(text, NULL, 0);
    sc_data* d = m ? start(m) : NULL;
    ENSURE(d != NULL);
    if (!d) {
      sc_model_free(m);
      continue;
    }
    const double r = 0.1, dd = sqrt(1.0 + 0.05 * 0.05), alpha = acos(r / dd), beta = atan(0.05);
    const double S = 2.0 * sqrt(dd * dd - r * r) + r * (PI - 2.0 * beta - 2.0 * alpha);
    const double want = c == 1 ? S : sqrt(S * S + hs[c] * hs[c]);
    d->q[0] = d->q[1] = 0.0;
    sc_dyn_kinematics(m, d, d->q);
    const double L0 = sc_dyn_tendon(m, d, 0, NULL);
    /* the row at a turned arm and a moved cart against central differences */
    const double q[2] = {0.02, 0.03};
    double J[2], Jn[2], efd = 0.0;
    memcpy(d->q, q, sizeof q);
    sc_dyn_kinematics(m, d, d->q);
    sc_dyn_tendon(m, d, 0, J);
    for (int k = 0; k < 2; k++) {
      const double h = 1e-6;
      double Lpm[2];
      for (int sgn = 0; sgn < 2; sgn++) {
        memcpy(d->q, q, sizeof q);
        d->q[k] += sgn ? -h : h;
        sc_dyn_kinematics(m, d, d->q);
        Lpm[sgn] = sc_dyn_tendon(m, d, 0, Jn);
      }
      efd = fmax(efd, fabs((Lpm[0] - Lpm[1]) / (2 * h) - J[k]));
    }
    printf("  %s (rise %g m): L = %.15f m (closed form %.15f, off by %.3g); J = [%.9f, %.9f], central "
           "differences within %.3g\n",
           kinds[c], hs[c], L0, want, fabs(L0 - want), J[0], J[1], efd);
    ENSURE(fabs(L0 - want) < 1e-14);
    ENSURE(efd < 1e-8);
    sc_data_free(d);
    sc_model_free(m);
  }
}

/* ---- what cannot be a constraint is refused where it is written ---- */

static void refused(const char* constraint, const char* expect) {
  char text[2048];
  snprintf(text, sizeof text,
           "simc: 1\n"
           "time: {step: 1.0e-3, duration: 0.01}\n"
           "bodies:\n"
           "  - {name: p, joint: {type: revolute}, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n"
           "  - {name: f, joint: {type: free}, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}\n"
           "constraints:\n"
           "  - %s\n", constraint);
  sc_model* m = NULL;
  sc_error err;
  char buf[1200] = "";
  const sc_status st = sc_scene_load_string(text, "scene.yaml", NULL, 0, &m, &err);
  if (st != SC_OK) sc_error_format(&err, buf, sizeof buf);
  const int ok = st != SC_OK && strstr(buf, expect) && strstr(buf, "scene.yaml:7:");
  if (!ok) printf("  %s -> '%s' (expected '%s' at line 7)\n", constraint, buf, expect);
  ENSURE(ok);
  sc_model_free(m);
}

/* Dry friction along a tendon.  A slider of mass 2 kg pushed by a motor of
 * force f along x (no gravity along it), its tendon L = c x (fixed, c = 2;
 * or spatial, from a world point behind it along x, L = L0 + x, c = 1)
 * with friction F: the friction's generalized force on x is at most c F.
 * Pushed harder (f = 5 N > c F), the slider accelerates at (f - c F) / m,
 * x = (f - c F) t^2 / (2 m), exact to round-off in the midpoint rule save
 * the friction row's regularization (sigma w dt F of creep); the friction
 * force is -F along L, and its dissipation c F x is the motor's work minus
 * the kinetic energy.  Pushed less (f < c F), it creeps at the regularized
 * row's rate sigma w dt (0.8 c F) / c (w = c^2 / m), as a stuck joint with dry
 * friction does. */
/* the slider, with a tendon appended (TFIXED or TSPATIAL) */
#define SLIDER                                                  \
  "simc: 1\n"                                                   \
  "gravity: [0, 0, -9.81]\n"                                    \
  "time: {step: 1.0e-3, duration: 1.0}\n"                       \
  "bodies:\n"                                                   \
  "  - name: slider\n"                                          \
  "    joint: {type: prismatic, axis: [1, 0, 0]}\n"             \
  "    mass: 2.0\n"                                             \
  "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"            \
  "actuators:\n"                                                \
  "  - {name: push, joint: slider, type: motor, command: 5.0}\n" \
  "tendons:\n"
static const char* TFRICTION =
    SLIDER "  - {name: rope, type: fixed, joints: [{joint: slider, coef: 2.0}], friction: 1.5}\n";
static const char* SFRICTION =
    SLIDER "  - {name: rope, type: spatial, path: [{body: world, point: [-1, 0, 0]}, {body: slider}],\n"
           "     friction: 3.0}\n";

/* the slider of text under solver pushed at f for its 1 s (NULL: the run
 * failed); err (may be NULL): the largest distance over the run from
 * x = a t^2 / 2; the caller frees d and *m */
static sc_data* push_slider(const char* text, const char* solver, double f, double a, double* err,
                            sc_model** m) {
  char s1[64], s2[64];
  snprintf(s1, sizeof s1, "contact.solver=%s", solver);
  snprintf(s2, sizeof s2, "actuators.push.command=%.17g", f);
  const char* sets[] = {s1, s2};
  *m = load(text, sets, 2);
  sc_data* d = *m ? start(*m) : NULL;
  const long n = *m ? lround((*m)->opt.duration / (*m)->opt.dt) : 0;
  long k = 0;
  for (; d && k < n && step(*m, d); k++)
    if (err) *err = fmax(*err, fabs(d->q[0] - 0.5 * a * d->time * d->time));
  if (d && k < n) {
    sc_data_free(d);
    d = NULL;
  }
  return d;
}

static void tendon_friction_case(const char* text, const char* solver, double c, double F) {
  const double f = 5.0, mass = 2.0;
  sc_model* m;
  double err = 0.0;
  sc_data* d = push_slider(text, solver, f, (f - c * F) / mass, &err, &m);
  ENSURE(d != NULL);
  if (d) {
    const double t = d->time, x = (f - c * F) * t * t / (2.0 * mass);
    const double work = f * d->q[0], ke = 0.5 * mass * d->v[0] * d->v[0];
    printf("  %s, %s: x %.12g m against %.12g (largest error %.2g m), friction force %.12g N "
           "(-F %.12g), dissipated %.9g J against c F x %.9g\n",
           c == 1.0 ? "spatial" : "fixed", solver, d->q[0], x, err,
           d->ten_friction_force[0], -F, d->e_jfriction, c * F * d->q[0]);
    /* the creep of a regularized friction row is O(sigma w dt F) per step */
    ENSURE(err < 1.0e-6 * x);
    ENSURE_CLOSE(d->ten_friction_force[0], -F, 1.0e-9, 0.0);
    ENSURE_CLOSE(d->e_jfriction, c * F * d->q[0], 1.0e-9, 0.0);
    ENSURE_CLOSE(work - ke, d->e_jfriction, 1.0e-9, 0.0);
  }
  sc_data_free(d);
  sc_model_free(m);
  /* held: pushed at 0.8 c F */
  d = push_slider(text, solver, 0.8 * c * F, 0.0, NULL, &m);
  ENSURE(d != NULL);
  if (d) {
    /* the regularized row's creep, |L'| = R |gamma| = sigma w dt (0.8 F)
     * with w = c^2 / m: x' = sigma c dt 0.8 F / m */
    const double creep = d->time * m->opt.sigma * c * m->opt.dt * 0.8 * F / mass;
    printf("    pushed at 0.8 c F: crept %.6g m in %g s (the law's creep %.6g m), friction force "
           "%.12g N\n", d->q[0], d->time, creep, d->ten_friction_force[0]);
    ENSURE_CLOSE(d->q[0], creep, 1.0e-2, 0.0);
    ENSURE_CLOSE(d->ten_friction_force[0], -0.8 * F, 1.0e-6, 0.0);
  }
  sc_data_free(d);
  sc_model_free(m);
}

static void test_tendon_friction(void) {
  tendon_friction_case(TFRICTION, "newton", 2.0, 1.5);
  tendon_friction_case(SFRICTION, "newton", 1.0, 3.0);
  tendon_friction_case(TFRICTION, "lcp", 2.0, 1.5);
}

static void test_bad_constraints_refused(void) {
  refused("{type: hinge, a: {body: p}, b: {body: f}}", "constraint type");
  refused("{type: connect, a: {body: q}, b: {body: f}}", "unknown body 'q'");
  refused("{type: connect, a: {body: p}, b: {body: p}}", "two different bodies");
  refused("{type: connect, a: {body: p}}", "b");
  refused("{type: joint, joint: f, of: p}", "expected a revolute or prismatic joint");
  refused("{type: joint, joint: p, of: p}", "cannot follow itself");
  refused("{type: joint, joint: p, polynomial: [0, 1], ratio: 2}", "either polynomial or ratio");
  refused("{type: distance, a: {body: p}, b: {body: f}, distance: 0}", "> 0");
  refused("{type: weld, a: {body: p}, b: {body: f}, stiffness: -1}", "stiffness");
  refused("{type: connect, a: {body: p}, b: {body: f}, axis: [0, 0, 1]}", "unknown key");
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_distance_is_a_rigid_pendulum);
  RUN(test_slider_crank_jacobian);
  RUN(test_wrap_closed_form_and_jacobian);
  RUN(test_slider_crank_motor_work);
  RUN(test_lcp_takes_the_rows);
  RUN(test_fourbar_parallelogram);
  RUN(test_coupling_carries_torque);
  RUN(test_weld_is_one_body);
  RUN(test_bad_constraints_refused);
  RUN(test_atwood_machine);
  RUN(test_pulley_tackle);
  RUN(test_fixed_tendon_holds);
  RUN(test_tendon_spring_oscillator);
  RUN(test_spatial_spring_is_linear_spring);
  RUN(test_tendon_equality_is_coupling);
  RUN(test_tendon_motor_pulley);
  RUN(test_tendon_servo_holds);
  RUN(test_tendon_friction);
  return TEST_END();
}
