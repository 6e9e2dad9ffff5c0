/* Joint limits, dry joint friction, damping, armature, motors and servos
 * (constraint/joint.c, constraint/actuator.c, doc/actuation.md) on models built in code,
 * each against a closed form: the discrete response of the scheme, the
 * continuous one, statics, Newton's second law, and the energy balance. */
#include <math.h>
#include <stdio.h>

#include "build_model.h"
#include "harness.h"
#include "integrator/integrator.h"
#include "sim_util.h"

static const double G = 9.81;

/* a mass m on a prismatic joint along x, no gravity, one actuator */
static sc_model* slider(double mass, sc_actuator_type type, double kp, double kd, double target) {
  sc_model* m = tb_begin_act(2, 0, 0, 0, 1, 0, 0);
  tb_body(m, 1, 0, SC_JOINT_PRISMATIC, mass, NULL, 0.1, 0.1, 0.1);
  tb_axis(m, 1, 1, 0, 0);
  m->opt.gravity[2] = 0.0;
  m->act_name[0] = sc_strdup("servo");
  m->act_type[0] = type;
  m->act_jnt[0] = 0;
  m->act_kp[0] = kp;
  m->act_kd[0] = kd;
  m->act_input[0] = target;
  return tb_finish(m);
}

typedef struct run {
  sc_model* m;
  sc_data* d;
  sc_error err;
} run;

static int start(run* r, sc_model* m, int solver) {
  r->m = m;
  r->d = NULL;
  if (!m) return 0;
  m->opt.solver = solver;
  if (sc_data_create(m, &r->d, &r->err) != SC_OK || sc_sim_prepare(m, r->d, &r->err) != SC_OK ||
      sc_forward(m, r->d, &r->err) != SC_OK)
    return 0;
  return 1;
}

static int step(run* r) {
  if (sc_step(r->m, r->d, &r->err) != SC_OK) {
    char buf[512];
    sc_error_format(&r->err, buf, sizeof buf);
    printf("  step: %s\n", buf);
    return 0;
  }
  return 1;
}

static void stop(run* r) {
  sc_data_free(r->d);
  sc_model_free(r->m);
}

static double total_energy(const sc_data* d) { return d->e_kinetic + d->e_gravity + d->e_spring; }

/* G^n = k G + h I for a 2 x 2 matrix G of trace tr and determinant det,
 * from its eigenvalues (Cayley-Hamilton / Sylvester) */
static void mat2_pow(double tr, double det, long n, double* k, double* h) {
  const double disc = tr * tr - 4 * det;
  if (disc < 0) {
    const double r = sqrt(det), phi = acos(tr / (2 * r)), sp = sin(phi);
    *k = pow(r, (double)(n - 1)) * sin((double)n * phi) / sp;
    *h = -pow(r, (double)n) * sin((double)(n - 1) * phi) / sp;
  } else {
    const double l1 = (tr + sqrt(disc)) / 2, l2 = (tr - sqrt(disc)) / 2;
    const double p1 = pow(l1, (double)n), p2 = pow(l2, (double)n);
    *k = (p1 - p2) / (l1 - l2);
    *h = (l1 * p2 - l2 * p1) / (l1 - l2);
  }
}

/* the spectral radius of a 2 x 2 matrix of trace tr, determinant det */
static double mat2_radius(double tr, double det) {
  const double disc = tr * tr - 4 * det;
  if (disc < 0) return sqrt(det);
  return fmax(fabs((tr + sqrt(disc)) / 2), fabs((tr - sqrt(disc)) / 2));
}

/* The midpoint rule's response to a PD servo: per step the linear map
 *   m (v - v0) = dt [kp (u - q0 - dt/4 v0 - dt/4 v) + kd (0 - v0/2 - v/2)],
 *   q = q0 + dt (v0 + v) / 2,
 * x_{n+1} = Gm x_n + c, so x_n = x* + Gm^n (x_0 - x*) with Gm^n in closed
 * form from its eigenvalues (Sylvester: Gm^n = (l1^n (Gm - l2) - l2^n (Gm - l1))
 * / (l1 - l2)). */
static void midpoint_pd(double mass, double kp, double kd, double u, double dt, long n,
                        double* q, double* v) {
  /* v = (mass v0 + dt (kp (u - q0 - dt/4 v0) - kd v0/2)) / den */
  const double den = mass + dt * (kp * dt / 4 + kd / 2);
  const double gvq = -dt * kp / den, gvv = (mass - dt * (kp * dt / 4 + kd / 2)) / den;
  /* q = q0 + dt/2 v0 + dt/2 v */
  const double gqq = 1 + dt / 2 * gvq, gqv = dt / 2 + dt / 2 * gvv;
  /* fixed point: q* = u, v* = 0; the map on e = x - x* is linear */
  const double a = gqq, b = gqv, c = gvq, dd = gvv;
  double k, h;
  mat2_pow(a + dd, a * dd - b * c, n, &k, &h);
  /* Gm^n = k Gm + h I */
  const double e0q = -u, e0v = 0;
  *q = u + k * (a * e0q + b * e0v) + h * e0q;
  *v = k * (c * e0q + dd * e0v) + h * e0v;
}

/* PD step response of a 1-dof mass (no gravity) against the midpoint rule's
 * closed-form discrete response (1e-9 of the step), and the continuous
 * response with second-order convergence */
static void pd_step_response(int solver) {
  const double mass = 1.5, wn = 10.0, zeta = 0.2, kp = mass * wn * wn, kd = 2 * zeta * wn * mass;
  const double u = 0.3, T = 1.0;
  double err_c[3];
  const double dts[3] = {4e-3, 2e-3, 1e-3};
  for (int s = 0; s < 3; s++) {
    run r;
    ENSURE(start(&r, slider(mass, SC_ACT_POSITION, kp, kd, u), solver));
    if (!r.d) return;
    r.m->opt.dt = dts[s];
    const long n = lround(T / dts[s]);
    double maxd = 0;
    for (long k = 1; k <= n; k++) {
      if (!step(&r)) break;
      double qr, vr;
      midpoint_pd(mass, kp, kd, u, dts[s], k, &qr, &vr);
      maxd = fmax(maxd, fabs(r.d->q[0] - qr));
    }
    /* discrete closed form: to 1e-9 of the step height (round-off of the
     * Newton solve of one quadratic) */
    ENSURE(maxd < 1e-9 * u);
    const double wd = wn * sqrt(1 - zeta * zeta);
    const double xc = u * (1 - exp(-zeta * wn * T) * (cos(wd * T) + zeta * wn / wd * sin(wd * T)));
    err_c[s] = fabs(r.d->q[0] - xc);
    /* energy balance: kinetic energy gained = the servo's work */
    const double bal = total_energy(r.d) - r.d->e_actuator;
    printf("  dt %g: max |q - q_scheme| %.3g m (of a %.3g m step), energy balance %.3g of the "
           "servo's work\n", dts[s], maxd, u, fabs(bal) / fabs(r.d->e_actuator));
    ENSURE(fabs(bal) < 1e-6 * fmax(fabs(r.d->e_actuator), 1e-12) + 1e-15);
    stop(&r);
  }
  const double p1 = log2(err_c[0] / err_c[1]), p2 = log2(err_c[1] / err_c[2]);
  printf("  PD step (%s), continuous error at 1 s: %.3g %.3g %.3g m (order %.2f %.2f)\n",
         solver == SC_SOLVER_LCP ? "lcp" : "newton", err_c[0], err_c[1], err_c[2], p1, p2);
  ENSURE(p1 > 1.9 && p1 < 2.1 && p2 > 1.9 && p2 < 2.1);
}

static void test_pd_step_response(void) {
  pd_step_response(SC_SOLVER_NEWTON);
  pd_step_response(SC_SOLVER_LCP);
}

/* kp dt^2 / m = 100: the explicit PD is unstable (spectral radius > 1),
 * the implicit one (auto theta -> backward Euler) converges monotonically */
static void pd_stiff(int solver) {
  const double mass = 1.0, dt = 0.01, kp = 100 * mass / (dt * dt), kd = 25 * mass / dt;
  /* symplectic Euler PD: v = v0 + dt/m (kp (u - q0) - kd v0), q = q0 + dt v */
  {
    const double a = 1 - dt * dt * kp / mass, b = dt * (1 - dt * kd / mass);
    const double c = -dt * kp / mass, dd = 1 - dt * kd / mass;
    const double rho = mat2_radius(a + dd, a * dd - b * c);
    printf("  explicit PD at kp dt^2/m = 100: spectral radius %.3g\n", rho);
    ENSURE(rho > 1.0);
  }
  run r;
  ENSURE(start(&r, slider(mass, SC_ACT_POSITION, kp, kd, 1.0), solver));
  if (!r.d) return;
  r.m->opt.dt = dt;
  double prev = 0;
  int monotone = 1;
  for (int k = 0; k < 200; k++) {
    if (!step(&r)) break;
    if (r.d->q[0] < prev - 1e-12 || r.d->q[0] > 1.0 + 1e-12) monotone = 0;
    prev = r.d->q[0];
  }
  ENSURE(monotone);
  ENSURE(fabs(r.d->q[0] - 1.0) < 1e-9);
  /* the backward-Euler map's roots: 126 z^2 - 27 z + 1 = 0, z = 1/6 and
   * 1/21: after one step from rest q = 100 / 126 (1 - 0) ... checked
   * through the first step: m v = dt (kp (1 - dt v) - kd v) */
  stop(&r);
  ENSURE(start(&r, slider(mass, SC_ACT_POSITION, kp, kd, 1.0), solver));
  if (!r.d) return;
  r.m->opt.dt = dt;
  step(&r);
  const double v1 = dt * kp / (mass + dt * (dt * kp + kd));
  ENSURE_CLOSE(r.d->v[0], v1, 1e-9, 0);
  stop(&r);
}

static void test_pd_stiff(void) {
  pd_stiff(SC_SOLVER_NEWTON);
  pd_stiff(SC_SOLVER_LCP);
}

/* a servo saturated at its effort bound accelerates at F / m */
static void test_effort_limit(int solver) {
  const double mass = 2.0, F = 5.0;
  sc_model* m = slider(mass, SC_ACT_POSITION, 1000.0, 100.0, 1.0);
  m->act_effort[0] = -F;
  m->act_effort[1] = F;
  run r;
  ENSURE(start(&r, m, solver));
  if (!r.d) return;
  /* the servo demands kp (1 - q) - kd v > F until q nears the target:
   * v(t) = F t / m while saturated (0.2 s: v = 0.5 m/s, q = 0.05 m) */
  double worst = 0;
  for (int k = 1; k <= 200; k++) {
    if (!step(&r)) break;
    const double t = r.d->time;
    worst = fmax(worst, fabs(r.d->v[0] - F * t / mass) / (F * t / mass));
    ENSURE_CLOSE(r.d->act_force[0], F, 1e-6, 0);
  }
  printf("  effort limit (%s): max relative error of v = F t / m: %.3g\n",
         solver == SC_SOLVER_LCP ? "lcp" : "newton", worst);
  ENSURE(worst < 1e-6);
  stop(&r);
}

/* a pendulum (point mass m at l on a revolute joint) with gravity torque
 * -m g l cos(theta) resting on its lower limit lo */
static sc_model* limit_pendulum(double mass, double l, double lo, double theta0, double w0) {
  sc_model* m = tb_begin(2, 0, 0, 0);
  const double com[3] = {l, 0, 0};
  tb_body(m, 1, 0, SC_JOINT_REVOLUTE, mass, com, 1e-3, 1e-3, 1e-3);
  tb_axis(m, 1, 0, -1, 0); /* theta lifts the mass: gravity pulls it down */
  m->jnt_range[0] = lo;
  m = tb_finish(m);
  if (!m) return NULL;
  m->qpos0[0] = theta0;
  m->qvel0[0] = w0;
  return m;
}

static void test_limit_statics(int solver, double dt) {
  const double mass = 2.0, l = 0.5, lo = 0.3;
  run r;
  ENSURE(start(&r, limit_pendulum(mass, l, lo, lo + 0.05, 0.0), solver));
  if (!r.d) return;
  r.m->opt.dt = dt;
  const double tau = mass * G * l * cos(lo);
  double ferr = 0, qerr = 0;
  const long n = lround(1.0 / dt);
  for (long k = 1; k <= n; k++) {
    if (!step(&r)) break;
    if (r.d->time < 0.5) continue;
    ferr = fmax(ferr, fabs(r.d->jnt_limit_force[0] - tau) / tau);
    qerr = fmax(qerr, fabs(r.d->q[0] - lo));
  }
  printf("  limit statics (%s, dt %g): force error %.3g of m g l cos, |q - lower| %.3g rad\n",
         solver == SC_SOLVER_LCP ? "lcp" : "newton", dt, ferr, qerr);
  ENSURE(ferr < 1e-3);
  ENSURE(qerr < 1e-4);
  stop(&r);
}

/* a compliant limit (k = 2000 N m/rad, tau_d = 20 ms) settles at the depth
 * of its spring under the weight: q = lower - m g l cos(q) / k */
static void test_limit_compliant(int solver) {
  const double mass = 2.0, l = 0.5, lo = 0.3, k = 2000.0;
  sc_model* m = limit_pendulum(mass, l, lo, lo + 0.05, 0.0);
  m->jnt_limit_k[0] = k;
  m->jnt_limit_taud[0] = 0.02;
  run r;
  ENSURE(start(&r, m, solver));
  if (!r.d) return;
  for (int i = 0; i < 3000; i++)
    if (!step(&r)) break;
  /* the fixed point of q = lo - m g l cos(q) / k */
  double q = lo;
  for (int i = 0; i < 50; i++) q = lo - mass * G * l * cos(q) / k;
  printf("  compliant limit (%s): depth %.6g rad, the spring's %.6g rad\n",
         solver == SC_SOLVER_LCP ? "lcp" : "newton", lo - r.d->q[0], lo - q);
  ENSURE_CLOSE(r.d->q[0] - lo, q - lo, 1e-3, 0);
  ENSURE_CLOSE(r.d->jnt_limit_force[0], mass * G * l * cos(q), 1e-3, 0);
  stop(&r);
}

static void test_limit_compliant_both(void) {
  test_limit_compliant(SC_SOLVER_NEWTON);
  test_limit_compliant(SC_SOLVER_LCP);
}

/* thrown at the limit at 20 rad/s, dt = 10 ms: it does not pass through */
static void test_limit_impact(int solver) {
  run r;
  ENSURE(start(&r, limit_pendulum(1.0, 0.5, 0.0, 0.5, -20.0), solver));
  if (!r.d) return;
  r.m->opt.dt = 0.01;
  double qmin = 1;
  for (int k = 0; k < 200; k++) {
    if (!step(&r)) break;
    qmin = fmin(qmin, r.d->q[0]);
  }
  printf("  limit impact at 20 rad/s, dt 10 ms (%s): deepest %.3g rad past the limit, end %.3g\n",
         solver == SC_SOLVER_LCP ? "lcp" : "newton", -qmin, r.d->q[0]);
  ENSURE(qmin > -0.02);
  ENSURE(fabs(r.d->q[0]) < 1e-3);
  stop(&r);
}

/* a hanging pendulum held at theta by dry friction F: it stays while
 * m g l sin(theta) < F and swings otherwise */
static double friction_swing(double ratio, int solver, double* creep) {
  const double mass = 1.0, l = 1.0, th = 0.5;
  sc_model* m = tb_begin(2, 0, 0, 0);
  const double com[3] = {0, 0, -l};
  tb_body(m, 1, 0, SC_JOINT_REVOLUTE, mass, com, 1e-3, 1e-3, 1e-3);
  tb_axis(m, 1, 0, 1, 0);
  m->jnt_frictionloss[0] = ratio * mass * G * l * sin(th);
  m = tb_finish(m);
  if (!m) return NAN;
  m->qpos0[0] = th;
  run r;
  if (!start(&r, m, solver)) return NAN;
  for (int k = 0; k < 1000; k++)
    if (!step(&r)) break;
  const double moved = fabs(r.d->q[0] - th);
  /* a stuck joint creeps at sigma w dt F (w = 1 / (m l^2 + I)) for 1 s */
  *creep = r.m->opt.sigma / (mass * l * l + 1e-3) * r.m->opt.dt * r.m->jnt_frictionloss[0] * 1.0;
  stop(&r);
  return moved;
}

static void test_dry_friction(int solver) {
  double creep, c2;
  const double stuck = friction_swing(1.01, solver, &creep), slips = friction_swing(0.99, solver, &c2);
  printf("  dry joint friction (%s): moved %.3g rad at F = 1.01 m g l sin (creep bound %.3g), "
         "%.3g at 0.99\n", solver == SC_SOLVER_LCP ? "lcp" : "newton", stuck, creep, slips);
  ENSURE(stuck <= 1.05 * creep);
  /* at 0.99 the net torque 0.01 m g l sin gives 0.5 a t^2 = 2.35e-2 rad in 1 s */
  ENSURE(slips > 1e-2);
}

/* a frictionless wheel (I about its axis, centre of mass on it) driven by a
 * motor with gear g from a command table: omega(t) = g / I int_0^t u */
static void test_motor_table(int interp) {
  const double I = 0.2, gear = 2.0;
  sc_model* m = tb_begin_act(2, 0, 0, 0, 1, 1, 3);
  tb_body(m, 1, 0, SC_JOINT_REVOLUTE, 1.0, NULL, 0.1, 0.1, I);
  m->act_name[0] = sc_strdup("motor");
  m->act_type[0] = SC_ACT_MOTOR;
  m->act_gear[0] = gear;
  m->act_cmd[0] = 0;
  m->cmd_name[0] = sc_strdup("tau");
  m->cmd_interp[0] = interp;
  m->cmd_adr[0] = 0;
  m->cmd_len[0] = 3;
  const double ts[3] = {0.0, 0.5, 1.0}, us[3] = {1.0, 3.0, -1.0};
  for (int k = 0; k < 3; k++) m->cmd_time[k] = ts[k], m->cmd_value[k] = us[k];
  m = tb_finish(m);
  run r;
  ENSURE(start(&r, m, SC_SOLVER_NEWTON));
  if (!r.d) return;
  const double E0 = total_energy(r.d);
  /* int_0^t u: linear 1 -> 3 -> -1, then -1 held; hold: 1, 3, -1 */
  double worst = 0, worst_acc = 0;
  for (int k = 1; k <= 1500; k++) {
    const double w0 = r.d->v[0], t0 = r.d->time;
    if (!step(&r)) break;
    const double t = r.d->time, tm = t0 + 0.5 * r.m->opt.dt;
    double U;
    if (interp == SC_INTERP_LINEAR) {
      if (t <= 0.5) U = t + 2 * t * t;
      else if (t <= 1.0) U = 1.0 + 3 * (t - 0.5) - 4 * (t - 0.5) * (t - 0.5);
      else U = 1.5 - (t - 1.0);
    } else {
      if (t <= 0.5) U = t;
      else if (t <= 1.0) U = 0.5 + 3 * (t - 0.5);
      else U = 2.0 - (t - 1.0);
    }
    /* at the samples and between them */
    if (k % 250 == 0) worst = fmax(worst, fabs(r.d->v[0] - gear * U / I) / fabs(gear * U / I));
    double um;
    if (interp == SC_INTERP_LINEAR)
      um = tm < 0.5 ? 1 + 4 * tm : (tm < 1 ? 3 - 8 * (tm - 0.5) : -1);
    else
      um = tm < 0.5 ? 1 : (tm < 1 ? 3 : -1);
    worst_acc = fmax(worst_acc, fabs((r.d->v[0] - w0) / r.m->opt.dt - gear * um / I) / fabs(gear * um / I));
  }
  printf("  motor %s: omega vs g/I int u: %.3g, per-step acceleration vs g u(t+dt/2)/I: %.3g\n",
         interp == SC_INTERP_LINEAR ? "linear" : "hold", worst, worst_acc);
  ENSURE(worst < 1e-9);
  ENSURE(worst_acc < 1e-9);
  /* energy balance: the motor's work is the kinetic energy */
  ENSURE(fabs(total_energy(r.d) - E0 - r.d->e_actuator) < 1e-6 * r.d->e_actuator);
  stop(&r);
}

static void test_motor_linear(void) { test_motor_table(SC_INTERP_LINEAR); }
static void test_motor_hold(void) { test_motor_table(SC_INTERP_HOLD); }

/* damping and armature: a wheel spinning down under damping c with
 * armature a decays as exp(-c t / (I + a)) (the midpoint rule's factor
 * ((1 - h) / (1 + h))^n, h = c dt / (2 (I + a))), and the damper's
 * dissipation balances the kinetic energy lost */
static void test_damping_armature(void) {
  const double I = 0.2, a = 0.05, c = 0.3, w0 = 4.0;
  sc_model* m = tb_begin(2, 0, 0, 0);
  tb_body(m, 1, 0, SC_JOINT_REVOLUTE, 1.0, NULL, 0.1, 0.1, I);
  m->jnt_damping[0] = c;
  m->jnt_armature[0] = a;
  m = tb_finish(m);
  m->qvel0[0] = w0;
  run r;
  ENSURE(start(&r, m, SC_SOLVER_NEWTON));
  if (!r.d) return;
  const double E0 = total_energy(r.d);
  ENSURE_CLOSE(r.d->e_kinetic, 0.5 * (I + a) * w0 * w0, 1e-12, 0);
  for (int k = 0; k < 1000; k++)
    if (!step(&r)) break;
  const double h = c * r.m->opt.dt / (2 * (I + a));
  ENSURE_CLOSE(r.d->v[0], w0 * pow((1 - h) / (1 + h), 1000), 1e-10, 0);
  ENSURE(fabs(r.d->v[0] - w0 * exp(-c * 1.0 / (I + a))) < 1e-6 * w0);
  /* the dampers' work is the trapezoidal rule on their power (O(dt^2)
   * against the midpoint rule's own dissipation) */
  const double bal = fabs(total_energy(r.d) + r.d->e_damper - E0) / E0;
  printf("  damping + armature: v error vs closed form %.3g, energy balance %.3g of E0\n",
         fabs(r.d->v[0] / (w0 * pow((1 - h) / (1 + h), 1000)) - 1), bal);
  ENSURE(bal < 1e-6);
  stop(&r);
}

static void test_limit_statics_newton(void) {
  test_limit_statics(SC_SOLVER_NEWTON, 1e-3);
  test_limit_statics(SC_SOLVER_NEWTON, 1e-2);
}
static void test_limit_statics_lcp(void) {
  test_limit_statics(SC_SOLVER_LCP, 1e-3);
  test_limit_statics(SC_SOLVER_LCP, 1e-2);
}
static void test_limit_impact_both(void) {
  test_limit_impact(SC_SOLVER_NEWTON);
  test_limit_impact(SC_SOLVER_LCP);
}
static void test_effort_both(void) {
  test_effort_limit(SC_SOLVER_NEWTON);
  test_effort_limit(SC_SOLVER_LCP);
}
static void test_dry_friction_both(void) {
  test_dry_friction(SC_SOLVER_NEWTON);
  test_dry_friction(SC_SOLVER_LCP);
}

/* test/gripper_hold.yaml: two fingers squeezing a box of mass m with force
 * F hold it (slip < 1 mm in 2 s) when 2 mu F >= 1.03 m g and drop it when
 * 2 mu F <= 0.97 m g, for the default model, sap, and the LCP */
static double gripper_drop(double ratio, const char* model, const char* solver) {
  const double mass = 0.2, mu = 0.5, F = ratio * mass * G / (2 * mu);
  char f1[64], f2[64], mo[64], so[64];
  snprintf(f1, sizeof f1, "actuators.left.command=%.17g", F);
  snprintf(f2, sizeof f2, "actuators.right.command=%.17g", F);
  snprintf(mo, sizeof mo, "contact.model=%s", model);
  snprintf(so, sizeof so, "contact.solver=%s", solver);
  /* the LCP's cone has 32 edges here: its polygon grips at least
   * cos(pi / 32) = 0.995 of mu in any direction (8 edges: 0.924), so the
   * verdict does not hang on how the contact frames are turned */
  const char* sets[5] = {f1, f2, mo, so, "contact.lcp.directions=32"};
  sc_model* m = NULL;
  sc_data* d = NULL;
  if (sim_run("test/gripper_hold.yaml", sets, 5, NULL, NULL, &m, &d) != SC_OK) return NAN;
  const double drop = 0.5 - d->xpos[3 * 3 + 2];
  sc_data_free(d);
  sc_model_free(m);
  return drop;
}

static void test_gripper_threshold(void) {
  static const char* cases[3][2] = {{"lagged", "newton"}, {"sap", "newton"}, {"lagged", "lcp"}};
  for (int c = 0; c < 3; c++) {
    const double hold = gripper_drop(1.03, cases[c][0], cases[c][1]);
    const double fall = gripper_drop(0.97, cases[c][0], cases[c][1]);
    printf("  gripper (%s, %s): slip %.3g m in 2 s at 2 mu F = 1.03 m g, %.3g m at 0.97\n",
           cases[c][0], cases[c][1], hold, fall);
    ENSURE(fabs(hold) < 1e-3);
    ENSURE(fall > 0.05);
  }
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_pd_step_response);
  RUN(test_pd_stiff);
  RUN(test_effort_both);
  RUN(test_limit_statics_newton);
  RUN(test_limit_statics_lcp);
  RUN(test_limit_impact_both);
  RUN(test_limit_compliant_both);
  RUN(test_dry_friction_both);
  RUN(test_motor_linear);
  RUN(test_motor_hold);
  RUN(test_damping_armature);
  RUN(test_gripper_threshold);
  return TEST_END();
}
