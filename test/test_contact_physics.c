/* Contact physics against analytic references, through the whole step
 * (scene loader, collision, contact Jacobian, SAP or LCP, integrator). */
#include <stdlib.h>

#include "harness.h"
#include "sim_util.h"

static const double G = 9.81;
static const double ALPHA = 0.3; /* incline angle of scenes/box_incline_*.yaml */

/* ---- sphere at rest: penetration mg/k ---- */
static void test_sphere_rest_penetration(void) {
  sc_model* m;
  sc_data* d;
  ENSURE(sim_run("scenes/sphere_drop.yaml", NULL, 0, NULL, NULL, &m, &d) == SC_OK);
  double expect = -1.0 * G / 1e5; /* rigid plane: pair stiffness = the sphere's 1e5 N/m */
  ENSURE(d->ncon == 1);
  if (d->ncon == 1) {
    printf("  gap %.6e m, mg/k %.6e m\n", d->contact[0].dist, expect);
    ENSURE_CLOSE(d->contact[0].dist, expect, 0.01, 0);
  }
  sc_data_free(d);
  sc_model_free(m);
}

/* Many contacts on few dofs (12 points, nv = 1): every point carries k (-phi)
 * at rest, so phi = -m g / (12 k) at each of them. */
static void test_many_contacts_one_dof(void) {
  sc_model* m;
  sc_data* d;
  ENSURE(sim_run("test/many_contacts.yaml", NULL, 0, NULL, NULL, &m, &d) == SC_OK);
  double expect = -1.2 * G / (12 * 1e5);
  ENSURE(d->ncon == 12);
  for (int i = 0; i < d->ncon; i++) ENSURE_CLOSE(d->contact[i].dist, expect, 0.01, 0);
  if (d->ncon > 0) printf("  12 points, gap %.6e m, m g / (12 k) %.6e m\n", d->contact[0].dist, expect);
  sc_data_free(d);
  sc_model_free(m);
}

/* ---- box on an incline ---- */
typedef struct incline_log {
  double t[4096], vs[4096];
  int ncon[4096];
  int n;
} incline_log;

static void incline_cb(const sc_model* m, const sc_data* d, void* user) {
  (void)m;
  incline_log* L = user;
  if (L->n >= 4096) return;
  /* downhill direction (cos a, 0, -sin a); v[0..2] is the world velocity */
  L->t[L->n] = d->time;
  L->vs[L->n] = d->v[0] * cos(ALPHA) - d->v[2] * sin(ALPHA);
  L->ncon[L->n] = d->ncon;
  L->n++;
}

/* least-squares slope of vs over [t0, t1], requiring contact throughout */
static double fit_accel(const incline_log* L, double t0, double t1, int* lost) {
  double st = 0, sv = 0, stt = 0, stv = 0;
  int n = 0;
  *lost = 0;
  for (int i = 0; i < L->n; i++) {
    if (L->t[i] < t0 || L->t[i] > t1) continue;
    if (L->ncon[i] == 0) (*lost)++;
    st += L->t[i], sv += L->vs[i], stt += L->t[i] * L->t[i], stv += L->t[i] * L->vs[i];
    n++;
  }
  return (n * stv - st * sv) / (n * stt - st * st);
}

static double max_speed_after(const incline_log* L, double t0) {
  double mx = 0;
  for (int i = 0; i < L->n; i++)
    if (L->t[i] >= t0) mx = fmax(mx, fabs(L->vs[i]));
  return mx;
}

/* SAP: mu > tan(a) sticks with the regularized slip below sigma dt g
 * (doc/contact.md 3.3); mu < tan(a) slides with
 * a = g (sin a - mu cos a) within 0.5 %. */
static void test_incline_sap(void) {
  const char* mus[] = {"contact.defaults.friction=0.5", "contact.defaults.friction=0.32"};
  for (int i = 0; i < 2; i++) {
    incline_log* L = calloc(1, sizeof *L);
    const char* sets[] = {mus[i], "time.duration=0.5", "contact.model=sap"};
    ENSURE(sim_run("scenes/box_incline_stick.yaml", sets, 3, incline_cb, L, NULL, NULL) == SC_OK);
    double bound = 1e-3 * 1e-3 * G; /* sigma dt g */
    double vmax = max_speed_after(L, 0.05);
    printf("  %s: max downhill speed %.3e m/s (sigma dt g = %.3e)\n", mus[i], vmax, bound);
    ENSURE(vmax <= bound);
    free(L);
  }
  const double slip_mu[] = {0.1, 0.2};
  for (int i = 0; i < 2; i++) {
    incline_log* L = calloc(1, sizeof *L);
    char mu[64];
    snprintf(mu, sizeof mu, "contact.defaults.friction=%g", slip_mu[i]);
    const char* sets[] = {mu, "time.duration=0.4", "contact.model=sap"};
    ENSURE(sim_run("scenes/box_incline_slip.yaml", sets, 3, incline_cb, L, NULL, NULL) == SC_OK);
    int lost;
    double a = fit_accel(L, 0.1, 0.4, &lost);
    double expect = G * (sin(ALPHA) - slip_mu[i] * cos(ALPHA));
    printf("  mu %.2f: fitted a = %.6f m/s^2, g(sin a - mu cos a) = %.6f (%.3f %%)\n", slip_mu[i],
           a, expect, 100 * (a - expect) / expect);
    ENSURE(lost == 0);
    ENSURE_CLOSE(a, expect, 0.005, 0);
    free(L);
  }
}

/* LCP (8-edge polyhedral cone): rigid stiction (no creep beyond the
 * solver's accuracy, far below SAP's sigma dt g), and a sliding acceleration
 * within the faceting bound g (sin a - mu cos a cos(pi/d)) >= a >=
 * g (sin a - mu cos a) (+0.5 %). */
static void test_incline_lcp(void) {
  {
    incline_log* L = calloc(1, sizeof *L);
    const char* sets[] = {"contact.solver=lcp", "time.duration=0.5"};
    ENSURE(sim_run("scenes/box_incline_stick.yaml", sets, 2, incline_cb, L, NULL, NULL) == SC_OK);
    double vmax = max_speed_after(L, 0.05);
    printf("  lcp stick: max downhill speed %.3e m/s\n", vmax);
    ENSURE(vmax <= 1e-6); /* no regularized creep: only the LCP's accuracy */
    free(L);
  }
  {
    incline_log* L = calloc(1, sizeof *L);
    const char* sets[] = {"contact.solver=lcp", "time.duration=0.4"};
    ENSURE(sim_run("scenes/box_incline_slip.yaml", sets, 2, incline_cb, L, NULL, NULL) == SC_OK);
    int lost;
    double a = fit_accel(L, 0.1, 0.4, &lost);
    double lo = G * (sin(ALPHA) - 0.1 * cos(ALPHA));
    double hi = G * (sin(ALPHA) - 0.1 * cos(ALPHA) * cos(3.14159265358979323846 / 8));
    printf("  lcp slip: a = %.6f m/s^2, faceting bounds [%.6f, %.6f]\n", a, lo, hi);
    ENSURE(lost == 0);
    ENSURE(a >= lo * 0.995 && a <= hi * 1.005);
    free(L);
  }
}

/* With mu = 0 the convex problem and the LCP are the same QP: the
 * trajectories of a box sliding down the incline agree. */
typedef struct traj {
  double q[512][7];
  int n;
} traj;

static void traj_cb(const sc_model* m, const sc_data* d, void* user) {
  traj* T = user;
  if (T->n < 512 && m->nq == 7) memcpy(T->q[T->n++], d->q, sizeof T->q[0]);
}

static void test_frictionless_solvers_agree(void) {
  traj* a = calloc(1, sizeof *a);
  traj* b = calloc(1, sizeof *b);
  /* the SAP model: its Kelvin-Voigt normal law is the LCP's compliance */
  const char* sa[] = {"contact.defaults.friction=0", "time.duration=0.5",
                      "contact.tolerance=1e-9", "contact.model=sap"};
  const char* sb[] = {"contact.defaults.friction=0", "time.duration=0.5", "contact.solver=lcp"};
  ENSURE(sim_run("scenes/box_incline_slip.yaml", sa, 4, traj_cb, a, NULL, NULL) == SC_OK);
  ENSURE(sim_run("scenes/box_incline_slip.yaml", sb, 3, traj_cb, b, NULL, NULL) == SC_OK);
  double worst = 0;
  for (int i = 0; i < a->n && i < b->n; i++)
    for (int k = 0; k < 7; k++) worst = fmax(worst, fabs(a->q[i][k] - b->q[i][k]));
  printf("  max |q_newton - q_lcp| over 0.5 s = %.3e\n", worst);
  ENSURE(a->n == b->n && a->n > 400);
  ENSURE(worst < 1e-7);
  free(a);
  free(b);
}

/* ---- the spinning ball of Tedrake's Underactuated Robotics notes:
 * post-impact map for e = 0 ---- */
typedef struct bounce_log {
  double vlast[3], vpre[3], vpost[3];
  int impacted;
  double t_impact;
} bounce_log;

/* pre-impact: the state before the first step with a normal impulse;
 * post-impact: 0.03 s after (the impact is over within a few steps) */
static void bounce_cb(const sc_model* m, const sc_data* d, void* user) {
  (void)m;
  bounce_log* B = user;
  if (!B->impacted && d->ncon > 0 && d->impulse[2] > 0) {
    B->impacted = 1;
    B->t_impact = d->time;
    memcpy(B->vpre, B->vlast, sizeof B->vpre);
  }
  if (B->impacted && d->time < B->t_impact + 0.03) memcpy(B->vpost, d->v, sizeof B->vpost);
  memcpy(B->vlast, d->v, sizeof B->vlast);
}

static void test_ball_spin_bounce(void) {
  bounce_log B = {{0}, {0}, {0}, 0, 0};
  const char* sets[] = {"time.duration=0.08"};
  ENSURE(sim_run("scenes/ball_spin_bounce.yaml", sets, 1, bounce_cb, &B, NULL, NULL) == SC_OK);
  ENSURE(B.impacted);
  double r = 0.1, *v = B.vpre;
  /* q = [x, z, theta] (theta about -y): the notes' post-impact map, e = 0 */
  double xd = 0.6 * v[0] - 0.4 * r * v[2], zd = 0.0, th = -0.6 / r * v[0] + 0.4 * v[2];
  printf("  pre (%.4f %.4f %.4f)  post (%.4f %.4f %.4f)  seed map (%.4f %.4f %.4f)\n", v[0],
         v[1], v[2], B.vpost[0], B.vpost[1], B.vpost[2], xd, zd, th);
  ENSURE_CLOSE(B.vpost[0], xd, 0.02, 0);
  ENSURE_CLOSE(B.vpost[2], th, 0.02, 0);
  ENSURE(fabs(B.vpost[1] - zd) <= 0.02 * fabs(v[1]));
}

/* ---- the rolling cylinder on a spring ---- */
typedef struct roll_log {
  double E0, max_dE, max_bal, max_roll, max_dx, Elast;
  int n;
} roll_log;

static void roll_cb(const sc_model* m, const sc_data* d, void* user) {
  (void)m;
  roll_log* R = user;
  double E = d->e_kinetic + d->e_gravity + d->e_spring;
  if (R->n++ == 0) R->E0 = E;
  R->max_dE = fmax(R->max_dE, fabs(E - R->E0));
  R->max_bal = fmax(R->max_bal, fabs(E + d->e_damper + d->e_contact - R->E0));
  R->max_roll = fmax(R->max_roll, fabs(d->v[0] + 0.1 * d->v[2]));
  double w = sqrt(10.0 / 1.5);
  R->max_dx = fmax(R->max_dx, fabs(d->q[0] - (-0.5 + 0.5 * cos(w * d->time))));
  R->Elast = E;
}

/* midpoint: rolls without slip, follows x(t) = -0.5 + 0.5 cos(w t),
 * w = sqrt(k / (m + I/r^2)), conserves total energy within 1e-4 of E0
 * over 10 s (the regularized stiction's creep does a little work), and
 * total + dissipated to round-off; implicit Euler visibly dissipates. */
static void test_rolling_cylinder_energy(void) {
  roll_log R = {0};
  /* the default model: its first step has friction too (the cylinder
   * starts exactly touching: the lagged bound from the state is 0, and the
   * new contact's pass gives it the step's own normal impulse) */
  /* The balance holds to the solver's stopping point: a step whose warm
   * start already meets the relative momentum tolerance (1e-6 by default)
   * keeps that residual r, and the step's energy is off by v . r.  The
   * stiction anchor makes such steps common where the cylinder passes the
   * spring's rest point (jumps of 2e-6 J), so the solve runs to 1e-10. */
  const char* tight[] = {"contact.tolerance=1e-10"};
  ENSURE(sim_run("scenes/spring_cylinder.yaml", tight, 1, roll_cb, &R, NULL, NULL) == SC_OK);
  printf("  midpoint 10 s: |x - x_exact| %.2e m, |xdot + r thetadot| %.2e m/s, |E-E0|/E0 %.2e, "
         "|E+W-E0|/E0 %.2e\n",
         R.max_dx, R.max_roll, R.max_dE / R.E0, R.max_bal / R.E0);
  ENSURE(R.max_roll < 1e-4);
  ENSURE(R.max_dx < 1e-3);
  ENSURE(R.max_dE / R.E0 < 1e-4);
  ENSURE(R.max_bal / R.E0 < 1e-9);
  roll_log I = {0};
  const char* sets[] = {"integrator.scheme=implicit_euler", "contact.model=sap"};
  ENSURE(sim_run("scenes/spring_cylinder.yaml", sets, 2, roll_cb, &I, NULL, NULL) == SC_OK);
  printf("  implicit Euler 10 s: energy %.4f -> %.4f J (%.1f %% lost)\n", I.E0, I.Elast,
         100 * (I.E0 - I.Elast) / I.E0);
  ENSURE((I.E0 - I.Elast) / I.E0 > 0.02);
}

static double final_x(const char* scheme, double dt) {
  char s1[64], s2[64];
  snprintf(s1, sizeof s1, "integrator.scheme=%s", scheme);
  snprintf(s2, sizeof s2, "time.step=%.17g", dt);
  /* sigma -> 0: the regularized stiction's creep v_s ~ sigma dt g is a
   * first-order term that would otherwise mask the scheme's order */
  const char* sets[] = {s1, s2, "time.duration=2", "contact.sigma=1e-6",
                        "contact.tolerance=1e-8"};
  sc_model* m;
  sc_data* d;
  double x = NAN;
  if (sim_run("scenes/spring_cylinder.yaml", sets, 5, NULL, NULL, &m, &d) == SC_OK) x = d->q[0];
  sc_data_free(d);
  sc_model_free(m);
  return x;
}

/* observed order through rolling contact against a fine-step reference */
static void test_rolling_cylinder_order(void) {
  const char* schemes[] = {"midpoint", "implicit_euler"};
  /* (the midpoint's reference 16 times finer than its finest run: its own
   * error, 1/256 of that run's, stays out of the observed order) */
  const double expect[] = {2, 1}, ref_dt[] = {6.25e-5, 1e-4};
  for (int s = 0; s < 2; s++) {
    double ref = final_x(schemes[s], ref_dt[s]);
    double e1 = fabs(final_x(schemes[s], 4e-3) - ref);
    double e2 = fabs(final_x(schemes[s], 2e-3) - ref);
    double e3 = fabs(final_x(schemes[s], 1e-3) - ref);
    double p1 = log2(e1 / e2), p2 = log2(e2 / e3);
    printf("  %s: errors %.3e %.3e %.3e, observed orders %.3f %.3f\n", schemes[s], e1, e2, e3,
           p1, p2);
    ENSURE_NEAR(p1, expect[s], 0.2);
    ENSURE_NEAR(p2, expect[s], 0.2);
  }
}

/* ---- a stack of five boxes stands for 10 s at dt = 10 ms ---- */
static void test_box_stack_stands(void) {
  sc_model* m;
  sc_data* d;
  ENSURE(sim_run("scenes/box_stack.yaml", NULL, 0, NULL, NULL, &m, &d) == SC_OK);
  double worst_xy = 0, worst_z = 0, worst_tilt = 0;
  for (int b = 0; b < 5; b++) {
    const double* q = d->q + 7 * b;
    worst_xy = fmax(worst_xy, hypot(q[0], q[1]));
    worst_z = fmax(worst_z, fabs(q[2] - (0.1 + 0.2 * b)));
    worst_tilt = fmax(worst_tilt, 2 * acos(fmin(1.0, fabs(q[3]))));
  }
  printf("  after 10 s: max horizontal drift %.2e m, max height change %.2e m, max tilt %.2e rad\n",
         worst_xy, worst_z, worst_tilt);
  ENSURE(worst_xy < 1e-3);
  ENSURE(worst_z < 1e-3);
  ENSURE(worst_tilt < 1e-3);
  sc_data_free(d);
  sc_model_free(m);
}

/* ---- warm start: a settled clutter needs few Newton iterations ---- */
typedef struct iter_log {
  int hist[128];
  int n;
} iter_log;

static void iter_cb(const sc_model* m, const sc_data* d, void* user) {
  iter_log* I = user;
  if (d->time < 0.8 * m->opt.duration) return;
  int it = d->contact_stats.iterations;
  I->hist[it < 127 ? it : 127]++;
  I->n++;
}

static void test_clutter_settled_iterations(void) {
  iter_log I = {{0}, 0};
  const char* sets[] = {"time.duration=1.5"};
  ENSURE(sim_run("scenes/clutter8.yaml", sets, 1, iter_cb, &I, NULL, NULL) == SC_OK);
  int acc = 0, median = -1, mx = 0;
  for (int i = 0; i < 128; i++) {
    acc += I.hist[i];
    if (median < 0 && 2 * acc >= I.n) median = i;
    if (I.hist[i]) mx = i;
  }
  printf("  settled clutter (last 20 %% of 1.5 s): median %d, max %d Newton iterations\n", median,
         mx);
  ENSURE(median >= 0 && median <= 2);
}

/* ---- no allocation in the step loop, with contacts, on both solvers and
 * on the sparse path (a generated 64-body clutter: nv = 384) ---- */
static void no_alloc_run(const char* path, const char* const* sets, int nsets, long steps) {
  sc_model* m = NULL;
  sc_data* d = NULL;
  sc_error err;
  ENSURE(sc_scene_load(path, sets, nsets, &m, &err) == SC_OK);
  if (!m) return;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  ENSURE(sc_sim_prepare(m, d, &err) == SC_OK);
  ENSURE(sc_forward(m, d, &err) == SC_OK);
  /* process-wide: the workers of contact.threads count too */
  long a0 = sc_alloc_count_process(), contacts = 0;
  for (long k = 0; k < steps; k++) {
    ENSURE(sc_step(m, d, &err) == SC_OK);
    contacts += d->ncon;
  }
  printf("  %s (%s): %ld steps, %ld contact rows, %ld allocations\n", path,
         nsets ? sets[0] : "", steps, contacts, sc_alloc_count_process() - a0);
  ENSURE(contacts > 0);
  ENSURE(sc_alloc_count_process() == a0);
  sc_data_free(d);
  sc_model_free(m);
}

/* ---- a box sliding fast: more than half its length per step ----
 * At 150 m/s and 1 ms a 0.2 m box moves 15 cm a step.  Under implicit Euler
 * (theta_q = 1) its contacts are placed a whole step ahead for their
 * Jacobian, and its speculative margin covers 15 cm: matching the moved
 * contacts by world position put two of them on one corner, and the
 * tangential speed brought the top corners within the margin, where the
 * manifold's reduction could keep them.  Either made the box spin up and
 * fall through the ground (scenes/box_incline_slip.yaml failed after 57 s
 * at 112 m/s).  Reference: uniform deceleration mu g on a flat face:
 * v = v0 - mu g t, x = v0 t - mu g t^2 / 2, no rotation, no penetration. */
typedef struct fast_log {
  double wmax, pen, x, v, t;
} fast_log;

static void fast_cb(const sc_model* m, const sc_data* d, void* user) {
  (void)m;
  fast_log* L = user;
  for (int k = 3; k < 6; k++) L->wmax = fmax(L->wmax, fabs(d->v[k]));
  for (int i = 0; i < d->ncon; i++) L->pen = fmax(L->pen, -d->contact[i].dist);
  L->x = d->q[0];
  L->v = d->v[0];
  L->t = d->time;
}

static void test_fast_slide(void) {
  const char* schemes[] = {"integrator.scheme=implicit_euler", "integrator.scheme=midpoint"};
  for (int i = 0; i < 2; i++) {
    const char* sets[] = {"bodies.box.initial.v=[150, 0, 0, 0, 0, 0]", "time.duration=0.5",
                          schemes[i]};
    fast_log L = {0, 0, 0, 0, 0};
    ENSURE(sim_run("scenes/box_slide.yaml", sets, 3, fast_cb, &L, NULL, NULL) == SC_OK);
    const double mug = 0.3 * G, v = 150 - mug * L.t, x = 150 * L.t - 0.5 * mug * L.t * L.t;
    printf("  %s: t %.3f s, x %.6f m (ref %.6f, %+.2e), v %.6f m/s (ref %.6f, %+.2e), "
           "max |omega| %.2e rad/s, max depth %.2e m\n",
           schemes[i] + 18, L.t, L.x, x, (L.x - x) / x, L.v, v, (L.v - v) / v, L.wmax, L.pen);
    ENSURE_NEAR(L.t, 0.5, 1e-9);
    /* implicit Euler advances positions with v^{n+1}: about mu g t dt / 2 */
    ENSURE_CLOSE(L.x, x, 1e-4, 0);
    ENSURE_CLOSE(L.v, v, 1e-3, 0);
    ENSURE(L.wmax < 0.01);
    ENSURE(L.pen < 1e-4);
  }
}

/* ---- near-rigid depth control: a heavy load settles at the bound ----
 * A 10 t box on a 1 kg box (test/stack_heavy.yaml, rigid, dt = 10 ms, sap):
 * with beta = 1 the light box's contacts would sink about 0.25 m a step;
 * depth control lowers beta per contact until the depth under the load is
 * contact.near_rigid_depth (1e-3) times the smaller bounding radius
 * (sqrt(3) 0.1 m), so the stack settles at that bound, whatever theta the
 * law is written at (contact.theta auto: 1; scheme: the midpoint's 1/2,
 * where the depth is n theta (theta dt + tau_d) Rn). */
typedef struct depth_log {
  double last;
} depth_log;

static void depth_cb(const sc_model* m, const sc_data* d, void* user) {
  (void)m;
  ((depth_log*)user)->last = d->max_depth;
}

static void test_depth_bound(void) {
  const char* thetas[] = {"contact.theta=auto", "contact.theta=scheme"};
  const double bound = 1e-3 * sqrt(3.0) * 0.1;
  for (int i = 0; i < 2; i++) {
    const char* sets[] = {"contact.model=sap", thetas[i]};
    depth_log L = {0};
    ENSURE(sim_run("test/stack_heavy.yaml", sets, 2, depth_cb, &L, NULL, NULL) == SC_OK);
    printf("  %s: settled depth %.4e m, bound %.4e m (%+.2f %%)\n", thetas[i], L.last, bound,
           100 * (L.last - bound) / bound);
    ENSURE_CLOSE(L.last, bound, 0.02, 0);
  }
}

/* ---- a column of spheres dropped on itself holds (test/sphere_column.yaml) ----
 * Four spheres fall onto each other at dt = 5 ms.  Under the midpoint rule
 * an impact's impulse moves the positions in full (sc_step_kick); the
 * impulse pushes the spheres below into their own contacts, whose impulses
 * must then move the positions as well, or each bounce of the top sphere
 * presses the column into its floor (it sank through it in 3.3 s).
 * Reference: static equilibrium.  After 4 s each contact carries the
 * weight of the spheres above it, k m g dt per step (k = 4, 3, 2, 1),
 * within 1 %; each sphere's centre is at 0.1 + 0.2 (k - 1) m within 2 mm
 * (measured 0.82 mm: the four contacts' settled depths);
 * over the last second no contact is deeper than 1 mm; for each scheme
 * and the three solvers. */
typedef struct column_log {
  double rest_depth;
} column_log;

static void column_cb(const sc_model* m, const sc_data* d, void* user) {
  column_log* L = user;
  if (d->time > m->opt.duration - 1.0) L->rest_depth = fmax(L->rest_depth, d->max_depth);
}

static void test_sphere_column_holds(void) {
  const char* runs[][2] = {{"integrator.scheme=midpoint", "contact.model=lagged"},
                           {"integrator.scheme=midpoint", "contact.model=sap"},
                           {"integrator.scheme=midpoint", "contact.solver=lcp"},
                           {"integrator.scheme=implicit_euler", "contact.model=lagged"},
                           {"integrator.scheme=implicit_euler", "contact.solver=lcp"}};
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    sc_model* m;
    sc_data* d;
    column_log L = {0};
    ENSURE(sim_run("test/sphere_column.yaml", runs[r], 2, column_cb, &L, &m, &d) == SC_OK);
    const double mg_dt = 4.18879 * 9.81 * m->opt.dt;
    double worst_z = 0, worst_n = 0;
    for (int b = 0; b < 4; b++) worst_z = fmax(worst_z, fabs(d->q[7 * b + 2] - (0.1 + 0.2 * b)));
    int found = 0;
    for (int i = 0; i < d->ncon; i++) {
      /* the upper body of a contact is the one with the larger index (the
       * floor is the world, 0); it carries the spheres from it up */
      const int top = d->contact[i].body[0] > d->contact[i].body[1] ? d->contact[i].body[0] : d->contact[i].body[1];
      const double carried = (double)(4 - (top - 1)) * mg_dt;
      worst_n = fmax(worst_n, fabs(d->impulse[3 * i + 2] - carried) / carried);
      found++;
    }
    printf("  %s, %s: heights within %.2e m, impulses within %.2e of the weights (%d contacts), "
           "deepest in the last second %.2e m\n",
           runs[r][0], runs[r][1], worst_z, worst_n, found, L.rest_depth);
    ENSURE(found == 4);
    ENSURE(worst_z < 2e-3);
    ENSURE(worst_n < 1e-2);
    ENSURE(L.rest_depth < 1e-3);
    sc_data_free(d);
    sc_model_free(m);
  }
}

/* ---- a jammed column holds its impacts (test/wedged_column.yaml) ----
 * 27 spheres dropped into a shaft jam: a sphere wedged between two walls
 * and the sphere below carries normal impulses up to a hundred times the
 * column's weight, which its friction balances, while the spheres above
 * land on it.  Kicked by the normal impulses of the contacts an impact
 * pressed (sc_step_kick), such a sphere jumped 12 mm in one step into the
 * sphere above (lagged), and under sap and the LCP spheres passed through
 * each other before 0.3 s; a clique whose normal-impulse kick exceeds
 * three times its whole velocity change is now kicked by all its
 * impulses.  References: the near-rigid contacts keep every depth below
 * 1 mm, 2.5 % of a sphere's radius (measured 0.27 to 0.51 mm); and, the
 * spheres under gravity alone (A = M, constant smooth forces), the
 * midpoint rule's energy balance, total + dissipated, holds to 1e-8 of E0
 * at every step (the kick's work booked with each impulse, friction's
 * too). */
typedef struct wedge_log {
  double deepest, e0, worst_balance;
  int steps;
} wedge_log;

static double balance_of(const sc_data* d);

static void wedge_cb(const sc_model* m, const sc_data* d, void* user) {
  (void)m;
  wedge_log* L = user;
  const double b = balance_of(d);
  if (L->steps++ == 0) L->e0 = b;
  L->worst_balance = fmax(L->worst_balance, fabs(b - L->e0));
  L->deepest = fmax(L->deepest, d->max_depth);
}

static void test_wedged_column_holds(void) {
  const char* models[] = {"contact.model=lagged", "contact.model=sap", "contact.solver=lcp"};
  for (int k = 0; k < 3; k++) {
    wedge_log L = {0};
    ENSURE(sim_run("test/wedged_column.yaml", &models[k], 1, wedge_cb, &L, NULL, NULL) == SC_OK);
    printf("  %s: %d steps, deepest %.3e m, |total + dissipated - E0| <= %.3e J (E0 = %.4f J)\n",
           models[k], L.steps - 1, L.deepest, L.worst_balance, L.e0);
    ENSURE(L.steps == 301);
    ENSURE(L.deepest < 1e-3);
    ENSURE(L.worst_balance <= 1e-8 * fabs(L.e0));
  }
}

/* ---- the impact kick's work closes the energy balance ----
 * Rigid contacts under the midpoint rule: each landing's normal impulse
 * moves the positions in full (sc_step_kick), a displacement the
 * trapezoidal contact work does not see; its work against the smooth
 * forces, (1 - theta_vq) dgamma (vn* - vn0), is booked with the contact's.
 * Spheres under gravity alone have A = M and constant smooth forces, so
 * the booking is exact and the midpoint rule conserves
 * total + dissipated to round-off.  Reference: that conservation law, to
 * 1e-8 of E0 at every step (0.0136 J = 2.8e-3 of E0 for the one sphere,
 * dropped 0.4 m and landing over 2 s, without the kick's work; the same
 * runs at 3e-15 (sap, lcp) to 1.4e-9 (lagged) of E0 with it). */
typedef struct balance_log {
  double e0, worst;
  int started;
} balance_log;

static double balance_of(const sc_data* d) {
  return d->e_kinetic + d->e_gravity + d->e_spring + d->e_damper + d->e_contact + d->e_limit +
         d->e_jfriction + d->e_constraint - d->e_actuator;
}

static void balance_cb(const sc_model* m, const sc_data* d, void* user) {
  (void)m;
  balance_log* L = user;
  const double b = balance_of(d);
  if (!L->started) L->e0 = b, L->started = 1;
  L->worst = fmax(L->worst, fabs(b - L->e0));
}

static void test_kick_energy_balance(void) {
  const char* scenes[] = {"scenes/sphere_drop.yaml", "test/sphere_column.yaml"};
  const char* models[] = {"contact.model=lagged", "contact.model=sap", "contact.solver=lcp"};
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < 3; k++) {
      const char* sets[] = {"integrator.scheme=midpoint", "contact.defaults.stiffness=rigid", models[k]};
      balance_log L = {0};
      ENSURE(sim_run(scenes[s], sets, 3, balance_cb, &L, NULL, NULL) == SC_OK);
      printf("  %s, %s: |total + dissipated - E0| <= %.3e J (E0 = %.4f J)\n", scenes[s], models[k],
             L.worst, L.e0);
      ENSURE(L.worst <= 1e-8 * fabs(L.e0));
    }
}

/* ---- tilted boxes landing on boxes (test/box_column.yaml) ----
 * Four boxes fall onto each other at up to 8.7 m/s, at dt = 5 ms, landing
 * on corners and edges.  The near-rigid contact law stops an approach of
 * speed u within about u beta dt / (2 pi) (6.9 mm for the fastest at
 * beta = 1), provided every corner that reaches the other box in the step
 * is a contact: bound 15 mm over the whole run (with only the corner facing
 * the normal as a contact, a box turned about it and drove another corner
 * 59 to 78 mm into the box below).  Once settled (the last 0.5 s) no
 * contact is deeper than 1 mm and the kinetic energy is below 1e-6 J. */
typedef struct impact_log {
  double deepest, rest_depth, ke;
} impact_log;

static void impact_cb(const sc_model* m, const sc_data* d, void* user) {
  impact_log* L = user;
  L->deepest = fmax(L->deepest, d->max_depth);
  if (d->time > m->opt.duration - 0.5) L->rest_depth = fmax(L->rest_depth, d->max_depth);
  L->ke = d->e_kinetic;
}

static void test_box_column_impacts(void) {
  const char* runs[][2] = {{"integrator.scheme=midpoint", "contact.model=lagged"},
                           {"integrator.scheme=midpoint", "contact.model=sap"},
                           {"integrator.scheme=midpoint", "contact.solver=lcp"},
                           {"integrator.scheme=implicit_euler", "contact.model=lagged"}};
  for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    impact_log L = {0, 0, 0};
    ENSURE(sim_run("test/box_column.yaml", runs[r], 2, impact_cb, &L, NULL, NULL) == SC_OK);
    printf("  %s, %s: deepest %.2e m, deepest in the last 0.5 s %.2e m, kinetic energy at the end "
           "%.2e J\n",
           runs[r][0], runs[r][1], L.deepest, L.rest_depth, L.ke);
    ENSURE(L.deepest < 0.015);
    ENSURE(L.rest_depth < 1e-3);
    ENSURE(L.ke < 1e-6);
  }
}

static void test_no_allocation_with_contacts(void) {
  const char* lcp[] = {"contact.solver=lcp"};
  no_alloc_run("scenes/box_stack.yaml", NULL, 0, 100);
  no_alloc_run("scenes/box_stack.yaml", lcp, 1, 100);
  no_alloc_run("scenes/clutter8.yaml", NULL, 0, 300);
  /* 64 bodies: the sparse (CHOLMOD) Hessian path, contact patterns changing
   * every few steps as the bodies land */
  const char* gen = "test/clutter64.yaml";
  FILE* f = fopen(gen, "r");
  ENSURE(f != NULL);
  if (f) fclose(f);
  no_alloc_run(gen, NULL, 0, 400);
  /* islands on 3 threads: each thread's buffers and workspaces sized at
   * preparation, the pool started there */
  const char* threads[] = {"contact.threads=3"};
  no_alloc_run(gen, threads, 1, 400);
}


/* ---- bodies that cannot move along a contact ---- */
static const char* const MODELS[][2] = {{"contact.model=sap", NULL},
                                        {"contact.model=similar", NULL},
                                        {"contact.model=lagged", NULL},
                                        {"contact.solver=lcp", NULL}};

typedef struct immobile_log {
  int nan, touched; /* a non-finite impulse; a contact on a welded body */
  double max_impulse;
} immobile_log;

static void immobile_cb(const sc_model* m, const sc_data* d, void* user) {
  immobile_log* L = user;
  for (int i = 0; i < d->ncon; i++) {
    const int ba = d->contact[i].body[0], bb = d->contact[i].body[1];
    L->touched |= m->body_weld[ba] == 0 && m->body_weld[bb] == 0;
    for (int r = 0; r < 3; r++) {
      const double g = d->impulse[3 * i + r];
      L->nan |= !isfinite(g);
      if (fabs(g) > L->max_impulse) L->max_impulse = fabs(g);
    }
  }
}

/* A box welded to the world on the floor (and a second box welded to it)
 * beside a dropped sphere: the welded bodies never touch the floor or each
 * other (MuJoCo's rule), and the sphere rests sunk by m g / k in every
 * model (the welded pair's zero Jacobian stopped the run at t = 0 with
 * non-finite values). */
static void test_welded_body_on_floor(void) {
  for (int k = 0; k < 4; k++) {
    sc_model* m;
    sc_data* d;
    immobile_log L = {0, 0, 0.0};
    ENSURE(sim_run("test/welded_on_floor.yaml", MODELS[k], 1, immobile_cb, &L, &m, &d) ==
           SC_OK);
    if (!m || !d) continue;
    ENSURE(m->body_weld[1] == 0 && m->body_weld[2] == 0 && m->body_weld[3] == 3);
    ENSURE(!L.nan && !L.touched);
    const double expect = -1.0 * G / 1e5;
    ENSURE(d->ncon == 1);
    if (d->ncon == 1) {
      printf("  %-22s ball's gap %.6e m (m g / k %.6e), z %.7f\n", MODELS[k][0],
             d->contact[0].dist, expect, d->q[2]);
      ENSURE_CLOSE(d->contact[0].dist, expect, 0.01, 0);
      ENSURE_CLOSE(d->q[2], 0.1 + expect, 0, 2e-6);
    }
    sc_data_free(d);
    sc_model_free(m);
  }
}

/* A sphere on a hinge about the floor's normal touches the floor at the
 * point the hinge does not move (W_ii = 0, exactly, and on an inclined
 * floor with a tilted frame where round-off makes J ~ 1e-17 instead: then
 * impulses of 1e37 N s stopped the hinge).  A disc on the same hinge,
 * held 1 mm into the rigid floor, rests on its rim (the normal rows alone
 * have no mobility; the near-rigid floor scaled by the tangent rows gave
 * 5e7 N and friction held the disc).  Under a motor's 1 N m each turns as
 * if free, omega = tau t / I, with no impulse at all, in every model. */
static void test_hinge_about_normal(void) {
  const char* const scene[] = {"test/hinge_on_floor.yaml", "test/hinge_on_incline.yaml",
                               "test/hinge_disc.yaml"};
  for (int variant = 0; variant < 3; variant++)
    for (int k = 0; k < 4; k++) {
      sc_model* m;
      sc_data* d;
      immobile_log L = {0, 0, 0.0};
      ENSURE(sim_run(scene[variant], MODELS[k], 1, immobile_cb, &L, &m, &d) == SC_OK);
      if (!m || !d) continue;
      /* I about the axis: 2/5 m r^2 (sphere), 1/2 m r^2 (disc) */
      const double I = variant == 2 ? 0.5 * 0.04 : 0.4 * 0.01, t = d->time;
      printf("  %-26s %-22s omega %.9f rad/s (tau t / I %.9f), %d contacts, max |impulse| %.3g\n",
             scene[variant], MODELS[k][0], d->v[0], t / I, d->ncon, L.max_impulse);
      ENSURE(!L.nan && d->ncon >= 1);
      ENSURE_CLOSE(d->v[0], t / I, 1e-9, 0);
      ENSURE_CLOSE(d->q[0], 0.5 * t * t / I, 1e-9, 0);
      ENSURE(L.max_impulse == 0.0);
      sc_data_free(d);
      sc_model_free(m);
    }
}

/* The disc of test/hinge_disc.yaml on a compliant floor (k = 1e5 N/m per
 * geometry, 5e4 N/m the pair): the normal rows keep their spring's law,
 * dt k x = 0.05 N s per rim point and step (no near-rigid floor: they have
 * nothing to resolve), and friction, mu n r per point up to 4 x 5 N m,
 * holds the disc against 1 N m (it creeps by sigma's regularization). */
static void test_hinge_disc_compliant(void) {
  for (int k = 0; k < 4; k++) {
    sc_model* m;
    sc_data* d;
    immobile_log L = {0, 0, 0.0};
    const char* sets[] = {MODELS[k][0], "contact.defaults.stiffness=1e5",
                          "contact.defaults.dissipation_time=0"};
    ENSURE(sim_run("test/hinge_disc.yaml", sets, 3, immobile_cb, &L, &m, &d) == SC_OK);
    if (!m || !d) continue;
    ENSURE(!L.nan && d->ncon == 4);
    double nmin = INFINITY, nmax = 0.0;
    for (int i = 0; i < d->ncon; i++) {
      nmin = fmin(nmin, d->impulse[3 * i + 2]);
      nmax = fmax(nmax, d->impulse[3 * i + 2]);
    }
    printf("  %-22s normal impulses %.9f..%.9f N s (dt k x 0.05), omega %.3g rad/s\n",
           MODELS[k][0], nmin, nmax, d->v[0]);
    ENSURE_CLOSE(nmin, 0.05, 1e-6, 0);
    ENSURE_CLOSE(nmax, 0.05, 1e-6, 0);
    ENSURE(fabs(d->v[0]) < 1e-4);
    sc_data_free(d);
    sc_model_free(m);
  }
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_sphere_rest_penetration);
  RUN(test_many_contacts_one_dof);
  RUN(test_incline_sap);
  RUN(test_incline_lcp);
  RUN(test_frictionless_solvers_agree);
  RUN(test_ball_spin_bounce);
  RUN(test_rolling_cylinder_energy);
  RUN(test_rolling_cylinder_order);
  RUN(test_box_stack_stands);
  RUN(test_clutter_settled_iterations);
  RUN(test_fast_slide);
  RUN(test_depth_bound);
  RUN(test_sphere_column_holds);
  RUN(test_wedged_column_holds);
  RUN(test_kick_energy_balance);
  RUN(test_box_column_impacts);
  RUN(test_no_allocation_with_contacts);
  RUN(test_welded_body_on_floor);
  RUN(test_hinge_about_normal);
  RUN(test_hinge_disc_compliant);
  return TEST_END();
}
