/* Integrator: observed order of each scheme against the exact spring-damper
 * solution, energy behaviour of the midpoint rule, conservation of angular
 * momentum for a free spinning body, damper work, no allocation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "build_model.h"
#include "dynamics/dynamics.h"
#include "harness.h"
#include "integrator/integrator.h"
#include "linalg/linalg.h"
#include "scene/scene.h"

/* data for m, prepared and at its initial state (every check ENSUREd) */
static sc_data* start(const sc_model* m) {
  sc_data* d = NULL;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  ENSURE(sc_sim_prepare(m, d, &err) == SC_OK);
  ENSURE(sc_forward(m, d, &err) == SC_OK);
  return d;
}

/* mass on a prismatic joint along x with a joint spring-damper, no gravity */
static sc_model* spring_damper(double mass, double k, double c, double x0, double v0) {
  sc_model* m = tb_begin(2, 0, 1, 0);
  tb_body(m, 1, 0, SC_JOINT_PRISMATIC, mass, NULL, 0.1, 0.1, 0.1);
  tb_axis(m, 1, 1, 0, 0);
  m->jspring_jnt[0] = 0;
  m->jspring_local[0] = 0;
  m->jspring_k[0] = k;
  m->jspring_c[0] = c;
  m->opt.gravity[2] = 0;
  tb_finish(m);
  m->qpos0[0] = x0;
  m->qvel0[0] = v0;
  return m;
}

/* exact underdamped solution x(t) */
static double exact_x(double mass, double k, double c, double x0, double v0, double t) {
  double zeta_w = c / (2 * mass), w0 = sqrt(k / mass), wd = sqrt(w0 * w0 - zeta_w * zeta_w);
  double A = x0, B = (v0 + zeta_w * x0) / wd;
  return exp(-zeta_w * t) * (A * cos(wd * t) + B * sin(wd * t));
}

static double run_error(sc_scheme s, double dt, double T) {
  double mass = 1.0, k = 40.0, c = 0.8, x0 = 0.1, v0 = 0.0;
  sc_model* m = spring_damper(mass, k, c, x0, v0);
  tb_scheme(m, s);
  m->opt.dt = dt;
  m->opt.newton_tol = 1e-13;
  sc_data* d = start(m);
  sc_error err;
  long n = lround(T / dt);
  for (long i = 0; i < n; i++) ENSURE(sc_step(m, d, &err) == SC_OK);
  double e = fabs(d->q[0] - exact_x(mass, k, c, x0, v0, n * dt));
  sc_data_free(d);
  sc_model_free(m);
  return e;
}

static void check_order(sc_scheme s, double expected, double h) {
  double T = 1.0;
  double e1 = run_error(s, h, T), e2 = run_error(s, h / 2, T), e3 = run_error(s, h / 4, T);
  double p1 = log2(e1 / e2), p2 = log2(e2 / e3);
  printf("  %s: errors %.3e %.3e %.3e, observed orders %.3f %.3f\n", sc_scheme_name(s), e1, e2,
         e3, p1, p2);
  ENSURE_NEAR(p2, expected, 0.1);
}

static void test_order_explicit_euler(void) { check_order(SC_SCHEME_EXPLICIT_EULER, 1, 2e-4); }
static void test_order_symplectic_euler(void) { check_order(SC_SCHEME_SYMPLECTIC_EULER, 1, 2e-3); }
static void test_order_implicit_euler(void) { check_order(SC_SCHEME_IMPLICIT_EULER, 1, 2e-3); }
static void test_order_midpoint(void) { check_order(SC_SCHEME_MIDPOINT, 2, 1e-2); }

/* a general theta: (1/2, 1/2, 1/2) given as THETA equals the midpoint run */
static void test_theta_equals_named_scheme(void) {
  double e_mid = run_error(SC_SCHEME_MIDPOINT, 5e-3, 0.5);
  sc_model* m = spring_damper(1.0, 40.0, 0.8, 0.1, 0.0);
  m->opt.scheme = SC_SCHEME_THETA;
  m->opt.theta_q = m->opt.theta_v = m->opt.theta_vq = 0.5;
  m->opt.dt = 5e-3;
  m->opt.newton_tol = 1e-13;
  sc_data* d = start(m);
  sc_error err;
  for (int i = 0; i < 100; i++) sc_step(m, d, &err);
  ENSURE_NEAR(fabs(d->q[0] - exact_x(1.0, 40.0, 0.8, 0.1, 0.0, 0.5)), e_mid, 1e-15);
  sc_data_free(d);
  sc_model_free(m);
}

/* Damper work closes the energy balance: E(t) + W_damper(t) = E(0) to O(dt^2)
 * under midpoint; the total energy itself drops by a visible amount. */
static void test_damper_work_accounts_for_loss(void) {
  sc_model* m = spring_damper(1.0, 40.0, 0.8, 0.1, 0.0);
  m->opt.dt = 1e-3;
  sc_data* d = start(m);
  sc_error err;
  double E0 = d->e_kinetic + d->e_gravity + d->e_spring;
  double worst = 0;
  for (int i = 0; i < 3000; i++) {
    sc_step(m, d, &err);
    double E = d->e_kinetic + d->e_gravity + d->e_spring;
    double bal = fabs(E + d->e_damper - E0) / E0;
    if (bal > worst) worst = bal;
  }
  double E = d->e_kinetic + d->e_gravity + d->e_spring;
  printf("  energy lost %.3f%% of E0, balance error max %.3e of E0\n", 100 * (E0 - E) / E0, worst);
  ENSURE((E0 - E) / E0 > 0.5);  /* 3 s at c/2m = 0.4/s dissipates most */
  ENSURE(worst < 1e-5);
  sc_data_free(d);
  sc_model_free(m);
}

/* A free body in a fluid (MuJoCo's inertia-box model, dynamics.c), no
 * gravity: mass 2 kg, principal moments 0.2, 0.25, 0.3 kg m^2 along the
 * body axes, its box half-sizes r_i = sqrt(3/(2 m) (I_j + I_k - I_i)). */
static sc_model* fluid_body(double rho, double beta, const double wind[3], const double v0[6]) {
  sc_model* m = tb_begin(2, 0, 0, 0);
  tb_body(m, 1, 0, SC_JOINT_FREE, 2.0, NULL, 0.2, 0.25, 0.3);
  m->opt.gravity[2] = 0;
  m->opt.dt = 1e-3;
  m->opt.fluid_density = rho;
  m->opt.fluid_viscosity = beta;
  memcpy(m->opt.wind, wind, 3 * sizeof(double));
  tb_finish(m);
  memcpy(m->qvel0, v0, 6 * sizeof(double));
  return m;
}

/* Motion along a principal axis is one equation, m du/dt = -(a |u| + c) u
 * for the velocity u relative to the wind (a = 2 rho r_j r_k the drag,
 * c = 6 pi beta r_eq the Stokes term; for the spin about a principal axis
 * I dw/dt = -(b |w| + e) w, b = rho r_i (r_j^4 + r_k^4) / 2,
 * e = 8 pi beta r_eq^3), whose solution from u0 > 0 is
 *   u(t) = c K exp(-c t / m) / (1 - a K exp(-c t / m)),  K = u0 / (a u0 + c).
 * The midpoint rule at 1 ms follows it over 2 s to 1e-8 of u0 (second
 * order: the error is O(dt^2)); the other velocities stay exactly 0. */
static void test_fluid_drag_closed_form(void) {
  const double rho = 1.2, beta = 0.05, m0 = 2.0, pi = 3.14159265358979323846;
  const double I[3] = {0.2, 0.25, 0.3};
  double r[3];
  for (int i = 0; i < 3; i++) r[i] = sqrt(1.5 / m0 * (I[(i + 1) % 3] + I[(i + 2) % 3] - I[i]));
  const double req = (r[0] + r[1] + r[2]) / 3;
  for (int spin = 0; spin < 2; spin++) {
    const double wind[3] = {spin ? 0.0 : 0.7, 0, 0};
    double v0[6] = {0, 0, 0, 0, 0, 0};
    double a, c, mass, u0;
    int dof;
    if (!spin) { /* along x, against a wind of 0.7 m/s along x */
      dof = 0, u0 = 3.0 - wind[0], v0[0] = 3.0, mass = m0;
      a = 2 * rho * r[1] * r[2], c = 6 * pi * beta * req;
    } else { /* about z */
      dof = 5, u0 = 4.0, v0[5] = 4.0, mass = I[2];
      a = 0.5 * rho * r[2] * (pow(r[0], 4) + pow(r[1], 4)), c = 8 * pi * beta * req * req * req;
    }
    sc_model* m = fluid_body(rho, beta, wind, v0);
    sc_data* d = start(m);
    sc_error err;
    double worst = 0, others = 0;
    const double K = u0 / (a * u0 + c);
    for (int i = 1; i <= 2000; i++) {
      ENSURE(sc_step(m, d, &err) == SC_OK);
      const double e = exp(-c * d->time / mass);
      const double u = c * K * e / (1 - a * K * e);
      worst = fmax(worst, fabs(d->v[dof] - (spin ? 0.0 : wind[0]) - u) / u0);
      for (int k = 0; k < 6; k++)
        if (k != dof) others = fmax(others, fabs(d->v[k]));
    }
    printf("  %s: u %.6g -> %.6g (closed form %.6g) in 2 s; max error %.3g of u0, other "
           "velocities %.3g\n",
           spin ? "spin about z" : "along x in wind", u0,
           d->v[dof] - (spin ? 0.0 : wind[0]),
           c * K * exp(-c * 2 / mass) / (1 - a * K * exp(-c * 2 / mass)), worst, others);
    ENSURE(worst < 1e-8);
    ENSURE(others == 0.0);
    sc_data_free(d);
    sc_model_free(m);
  }
}

/* The fluid's work is counted with the dampers' (P = -v . f_damp), wind
 * included (the wind does work on the body): a body tumbling and drifting
 * through a medium with wind keeps total + damper = E0 to 1e-6 E0 over 3 s
 * under the midpoint rule at 1 ms while the fluid takes most of E0, and
 * allocates nothing in the step. */
static void test_fluid_work_in_damper_energy(void) {
  const double wind[3] = {0.3, -0.2, 0.1}, v0[6] = {1.0, -0.5, 0.4, 2.0, -3.0, 1.5};
  sc_model* m = fluid_body(1.2, 0.05, wind, v0);
  sc_data* d = start(m);
  sc_error err;
  const double E0 = d->e_kinetic;
  double worst = 0;
  const long before = sc_alloc_count();
  for (int i = 0; i < 3000; i++) {
    ENSURE(sc_step(m, d, &err) == SC_OK);
    worst = fmax(worst, fabs(d->e_kinetic + d->e_damper - E0) / E0);
  }
  ENSURE(sc_alloc_count() == before); /* nothing allocated by the fluid's forces */
  printf("  kinetic energy %.4g -> %.4g J, fluid work %.4g J, balance error max %.3g of E0\n", E0,
         d->e_kinetic, d->e_damper, worst);
  ENSURE(d->e_damper > 0.5 * E0);
  ENSURE(worst < 1e-6);
  sc_data_free(d);
  sc_model_free(m);
  /* a free body with a spherical inertia would be solved in one Newton
   * step (sc_model.free_motion_affine); drag is not affine in v */
  sc_model* ms = tb_begin(2, 0, 0, 0);
  tb_body(ms, 1, 0, SC_JOINT_FREE, 1.0, NULL, 0.1, 0.1, 0.1);
  ms->opt.fluid_viscosity = 0.01;
  tb_finish(ms);
  ENSURE(ms->any_fluid && !ms->free_motion_affine);
  sc_model_free(ms);
}

/* The double pendulum of Tedrake's Underactuated Robotics notes (point masses) under midpoint for 10 s at
 * dt = 1 ms: the total energy stays within 1e-5 relative of its start. */
static void test_double_pendulum_energy_midpoint(void) {
  sc_model* m = tb_begin(3, 0, 0, 0);
  double l1 = 1.0, l2 = 1.0;
  double c1[3] = {0, 0, -l1}, c2[3] = {0, 0, -l2}, o2[3] = {0, 0, -l1};
  tb_body(m, 1, 0, SC_JOINT_REVOLUTE, 1.0, c1, 0, 0, 0);
  tb_body(m, 2, 1, SC_JOINT_REVOLUTE, 1.0, c2, 0, 0, 0);
  tb_origin(m, 2, o2, NULL);
  tb_axis(m, 1, 0, -1, 0);
  tb_axis(m, 2, 0, -1, 0);
  tb_finish(m);
  m->qpos0[0] = 1.0;
  m->qpos0[1] = 0.5;
  m->opt.dt = 1e-3;
  sc_data* d = start(m);
  sc_error err;
  double E0 = d->e_kinetic + d->e_gravity;
  double worst = 0;
  for (int i = 0; i < 10000; i++) {
    ENSURE(sc_step(m, d, &err) == SC_OK);
    double E = d->e_kinetic + d->e_gravity;
    if (fabs(E - E0) > worst) worst = fabs(E - E0);
  }
  printf("  max |E - E0| / |E0| = %.3e over 10 s\n", worst / fabs(E0));
  ENSURE(worst / fabs(E0) < 1e-5);
  sc_data_free(d);
  sc_model_free(m);
}

/* A free body spinning near its intermediate axis (the tennis-racket
 * effect): under midpoint the world angular momentum and the kinetic
 * energy are conserved while the body flips, to within the scheme's O(dt^2)
 * error (measured 3.6e-6 and 1.0e-6 relative at dt = 1 ms over 5 s; bound
 * 1e-5 each). */
static void test_free_body_conserves_momentum(void) {
  sc_model* m = tb_begin(2, 0, 0, 0);
  tb_body(m, 1, 0, SC_JOINT_FREE, 2.0, NULL, 0.1, 0.2, 0.3);
  tb_finish(m);
  m->opt.gravity[2] = 0;
  m->opt.dt = 1e-3;
  m->qvel0[3] = 0.01;
  m->qvel0[4] = 5.0;
  m->qvel0[5] = 0.01;
  sc_data* d = start(m);
  sc_error err;
  double L0[3], T0 = d->e_kinetic, wmin = 1e9;
  double Lw_err = 0, T_err = 0;
  for (int i = 0; i <= 5000; i++) {
    if (i > 0) ENSURE(sc_step(m, d, &err) == SC_OK);
    /* L = R I R^T w about the c.o.m. (at the body origin here) */
    double R[9], I[9], RI[9], Iw[9], L[3];
    memcpy(R, d->xrot + 9, sizeof R);
    memset(I, 0, sizeof I);
    I[0] = 0.1, I[4] = 0.2, I[8] = 0.3;
    sc_sp_mat3_mul(RI, R, I);
    sc_sp_mat3_mulT(Iw, RI, R);
    sc_sp_mat3_vec(L, Iw, d->v + 3);
    if (i == 0) memcpy(L0, L, sizeof L);
    for (int k = 0; k < 3; k++) Lw_err = fmax(Lw_err, fabs(L[k] - L0[k]));
    T_err = fmax(T_err, fabs(d->e_kinetic - T0));
    /* the body-axis component of w along the intermediate axis changes sign */
    double wb[3];
    sc_sp_mat3_Tvec(wb, R, d->v + 3);
    wmin = fmin(wmin, wb[1]);
  }
  printf("  |dL| max %.3e (|L| = %.3f), |dT|/T max %.3e, min body w_y %.3f\n", Lw_err,
         sc_sp_norm3(L0), T_err / T0, wmin);
  ENSURE(wmin < -4.0);                        /* it flipped */
  ENSURE(Lw_err / sc_sp_norm3(L0) < 1e-5);
  ENSURE(T_err / T0 < 1e-5);
  sc_data_free(d);
  sc_model_free(m);
}

/* No allocation while stepping, and identical runs are bit-identical. */
static void test_no_alloc_and_determinism(void) {
  double qa[8], qb[8];
  for (int run = 0; run < 2; run++) {
    sc_model* m = tb_begin(4, 0, 0, 0);
    double c[3] = {0, 0, -0.5}, o[3] = {0, 0, -1};
    for (int b = 1; b < 4; b++) {
      tb_body(m, b, b - 1, SC_JOINT_REVOLUTE, 1.0, c, 0.01, 0.01, 0.01);
      if (b > 1) tb_origin(m, b, o, NULL);
      tb_axis(m, b, 0, 1, 0);
    }
    tb_finish(m);
    m->qpos0[0] = 0.7;
    sc_data* d = start(m);
    sc_error err;
    long before = sc_alloc_count();
    for (int i = 0; i < 200; i++) sc_step(m, d, &err);
    ENSURE(sc_alloc_count() == before);
    memcpy(run ? qb : qa, d->q, sizeof(double) * 3);
    sc_data_free(d);
    sc_model_free(m);
  }
  ENSURE(memcmp(qa, qb, sizeof(double) * 3) == 0);
}

/* The fault guard: a non-finite coordinate or energy stops the run with a
 * message naming it and the time; a state within range passes. */
static void test_guard_names_nonfinite(void) {
  sc_model* m = spring_damper(1, 100, 0, 0.1, 0);
  sc_data* d = NULL;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK && sc_sim_prepare(m, d, &err) == SC_OK);
  ENSURE(sc_forward(m, d, &err) == SC_OK);
  /* energies overflow for x = 1e160 although x itself is finite */
  d->q[0] = 1e160;
  sc_status st = sc_forward(m, d, &err);
  if (st != SC_ERR_SIM) printf("  status %d\n", (int)st);
  else printf("  %s\n", err.msg);
  ENSURE(st == SC_ERR_SIM && strstr(err.msg, "non-finite") && strstr(err.msg, " energy "));
  d->q[0] = 0.1;
  d->v[0] = NAN;
  ENSURE(sc_forward(m, d, &err) == SC_ERR_SIM && strstr(err.msg, "non-finite velocity") &&
         strstr(err.msg, m->v_names[0]) && strstr(err.msg, "t = 0 s"));
  printf("  %s\n", err.msg);
  d->v[0] = 0;
  ENSURE(sc_forward(m, d, &err) == SC_OK);
  sc_data_free(d);
  sc_model_free(m);
}

/* Two copies of one scene for the comparison tests below: a as loaded, b
 * with the overrides sets[0..nsets) applied; data created and prepared. */
typedef struct twin {
  sc_model *ma, *mb;
  sc_data *da, *db;
} twin;

static twin twin_open(const char* path, const char** sets, int nsets) {
  twin t = {NULL, NULL, NULL, NULL};
  sc_error err;
  ENSURE(sc_scene_load(path, NULL, 0, &t.ma, &err) == SC_OK);
  ENSURE(sc_scene_load(path, sets, nsets, &t.mb, &err) == SC_OK);
  ENSURE(sc_data_create(t.ma, &t.da, &err) == SC_OK && sc_data_create(t.mb, &t.db, &err) == SC_OK);
  ENSURE(sc_sim_prepare(t.ma, t.da, &err) == SC_OK && sc_sim_prepare(t.mb, t.db, &err) == SC_OK);
  return t;
}

static void twin_close(twin* t) {
  sc_data_free(t->da), sc_data_free(t->db);
  sc_model_free(t->ma), sc_model_free(t->mb);
}

/* b takes a's state (q, v, time, step counter) */
static void twin_sync(twin* t) {
  memcpy(t->db->q, t->da->q, sizeof(double) * (size_t)t->ma->nq);
  memcpy(t->db->v, t->da->v, sizeof(double) * (size_t)t->ma->nv);
  t->db->time = t->da->time;
  t->db->step = t->da->step;
}

/* max |va - vb| / max |vb| (0 when they are equal) */
static double rel_vdiff(int n, const double* va, const double* vb) {
  double dv = 0.0, vmax = 0.0;
  for (int i = 0; i < n; i++) {
    dv = fmax(dv, fabs(va[i] - vb[i]));
    vmax = fmax(vmax, fabs(vb[i]));
  }
  return dv == 0.0 ? 0.0 : dv / vmax;
}

/* Contact islands: the step solves each connected component of the contact
 * graph on its own.  Against the whole problem solved at once (what the
 * step does with the solver trace on) from the same state at every step of
 * a 64-body clutter: the same minimizer within the solver tolerance. */
static void test_islands_match_whole_problem(void) {
  const char* on[] = {"output.solver_trace=true"};
  twin t = twin_open("test/clutter64.yaml", on, 1);
  sc_data *da = t.da, *db = t.db;
  sc_error err;
  double worst = 0.0;
  int multi = 0, contact_steps = 0, max_islands = 0;
  for (int k = 0; k < 300; k++) {
    twin_sync(&t);
    ENSURE(sc_step(t.ma, da, &err) == SC_OK);
    ENSURE(sc_step(t.mb, db, &err) == SC_OK);
    if (da->ncon == 0) continue;
    contact_steps++;
    ENSURE(db->nisland == 1);
    multi += da->nisland > 1;
    if (da->nisland > max_islands) max_islands = da->nisland;
    worst = fmax(worst, rel_vdiff(t.ma->nv, da->v, db->v));
  }
  printf("  %d steps with contact, %d with several islands (up to %d); max |v - v_whole| / "
         "|v|max %.2e\n",
         contact_steps, multi, max_islands, worst);
  ENSURE(contact_steps > 100 && multi > 100 && max_islands >= 4);
  ENSURE(worst <= 1e-5);
  twin_close(&t);
}

/* The step reuses the kinematics the previous step ended with when q is
 * unchanged (sc_dyn_kinematics_current).  Against the same run with that
 * record cleared before every step (so every step recomputes them), on the
 * 64-body clutter, with q also moved by hand between two steps: the states
 * and impulses must be bit-identical. */
static void test_kinematics_reuse_is_exact(void) {
  twin t = twin_open("test/clutter64.yaml", NULL, 0);
  const sc_model *ma = t.ma, *mb = t.mb;
  sc_data *da = t.da, *db = t.db;
  sc_error err;
  ENSURE(sc_forward(ma, da, &err) == SC_OK && sc_forward(mb, db, &err) == SC_OK);
  ENSURE(sc_dyn_kinematics_current(ma, da, da->q));
  int same = 1, reused = 0, contact_steps = 0;
  for (int k = 0; k < 200 && same; k++) {
    if (k == 120) {
      /* a position changed between steps must not be served stale poses */
      da->q[2] += 1e-3;
      db->q[2] += 1e-3;
      ENSURE(!sc_dyn_kinematics_current(ma, da, da->q));
    }
    reused += sc_dyn_kinematics_current(ma, da, da->q);
    db->kin_valid = 0;
    ENSURE(sc_step(ma, da, &err) == SC_OK && sc_step(mb, db, &err) == SC_OK);
    contact_steps += da->ncon > 0;
    same = da->ncon == db->ncon &&
           memcmp(da->q, db->q, sizeof(double) * (size_t)ma->nq) == 0 &&
           memcmp(da->v, db->v, sizeof(double) * (size_t)ma->nv) == 0 &&
           memcmp(da->impulse, db->impulse, sizeof(double) * 3 * (size_t)da->ncon) == 0;
    if (!same) printf("  step %d differs\n", k);
  }
  printf("  %d of 200 steps reused the kinematics, %d with contact\n", reused, contact_steps);
  ENSURE(same && reused == 199 && contact_steps > 100);
  twin_close(&t);
}

/* A model whose free-motion residual is affine in v (sc_model.free_motion_
 * affine: spheres and cubes with solid inertia hung on the world, no
 * springs) takes one Newton step and no second evaluation under implicit
 * Euler.  Against the same model with the flag cleared (the step then
 * evaluates m(v*) and tests it), from the same state at every step of the
 * 64-body clutter: the same v* to the bit, the relative residual the second
 * evaluation finds is at round-off (what makes the step exact), A agrees to
 * round-off (it is M at q^theta(v0) instead of q^theta(v*), equal in exact
 * arithmetic), and the step's velocities agree within the contact solver's
 * tolerance.  Scenes with a spring, a jointed chain, an off-centre or
 * anisotropic body are not flagged. */
static void test_free_motion_affine(void) {
  twin t = twin_open("test/clutter64.yaml", NULL, 0);
  ENSURE(t.ma->free_motion_affine == 1 && t.mb->free_motion_affine == 1);
  ENSURE(t.ma->opt.theta_q == 1.0); /* implicit Euler: q^theta moves with v */
  t.mb->free_motion_affine = 0;
  sc_data *da = t.da, *db = t.db;
  sc_error err;
  double worst_res = 0.0, worst_a = 0.0, worst_v = 0.0;
  int same_vstar = 1;
  for (int k = 0; k < 300; k++) {
    twin_sync(&t);
    ENSURE(sc_step(t.ma, da, &err) == SC_OK && sc_step(t.mb, db, &err) == SC_OK);
    ENSURE(da->free_iterations == 1 && db->free_iterations == 1);
    ENSURE(da->free_residual == 0.0); /* a took the one-step path */
    same_vstar &= memcmp(da->vstar, db->vstar, sizeof(double) * (size_t)t.ma->nv) == 0;
    worst_res = fmax(worst_res, db->free_residual);
    double amax = 0.0, da_ = 0.0;
    for (long e = 0; e < t.ma->nblk; e++) {
      amax = fmax(amax, fabs(db->A[e]));
      da_ = fmax(da_, fabs(da->A[e] - db->A[e]));
    }
    worst_a = fmax(worst_a, da_ / amax);
    worst_v = fmax(worst_v, rel_vdiff(t.ma->nv, da->v, db->v));
  }
  printf("  300 steps: v* bit-identical %d; residual at v* %.2e; |dA| / |A|max %.2e; "
         "|dv| / |v|max %.2e\n",
         same_vstar, worst_res, worst_a, worst_v);
  ENSURE(same_vstar);
  ENSURE(worst_res <= 1e-14 && worst_a <= 1e-14 && worst_v <= 1e-5);
  twin_close(&t);
  const char* not_affine[] = {"scenes/spring_cylinder.yaml", "scenes/chain10.yaml",
                              "scenes/box_slide.yaml", "scenes/ball_spin_bounce.yaml"};
  for (int i = 0; i < 4; i++) {
    sc_model* m;
    ENSURE(sc_scene_load(not_affine[i], NULL, 0, &m, &err) == SC_OK);
    ENSURE(m->free_motion_affine == 0);
    sc_model_free(m);
  }
  /* one free body hung on the world: affine as built; each change below
   * breaks it (a centre of mass off the origin, an inertia that is not c I,
   * a turned or moved joint frame, a child body, a spring) */
  for (int variant = 0; variant < 7; variant++) {
    sc_model* m = tb_begin(variant == 5 ? 3 : 2, 0, variant == 6 ? 1 : 0, 0);
    const double zero[3] = {0, 0, 0}, c_off[3] = {1e-3, 0, 0}, rpy[3] = {0, 0, 0.1};
    const double pos[3] = {0, 0, 0.2};
    tb_body(m, 1, 0, SC_JOINT_FREE, 0.1, variant == 1 ? c_off : zero, 2e-4, 2e-4,
            variant == 2 ? 2.1e-4 : 2e-4);
    if (variant == 3) tb_origin(m, 1, NULL, rpy);
    if (variant == 4) tb_origin(m, 1, pos, NULL);
    if (variant == 5) tb_body(m, 2, 1, SC_JOINT_REVOLUTE, 0.1, zero, 1e-4, 1e-4, 1e-4);
    if (variant == 6) {
      m->jspring_jnt[0] = 0;
      m->jspring_k[0] = 1.0;
    }
    ENSURE(tb_finish(m) != NULL);
    ENSURE(m->free_motion_affine == (variant == 0));
    sc_model_free(m);
  }
}

/* The LCP baseline per contact island against one LCP of all contacts
 * (sc_sim_set_lcp_whole), from the same state at every step of three
 * separate piles (test/lcp_piles.yaml: stacked boxes with the top one
 * sliding, a ball rolling off a box, a box sliding alone).  Both solve the
 * same LCP (block diagonal over the islands), only Lemke's pivot order
 * differs.  Both solutions pass Lemke's check (1e-6 relative to the data)
 * and the velocities agree to 1e-6 of the largest, the accuracy that check
 * stands for (1.3e-7 seen).  Per-contact impulses are not compared: with
 * rigid stiction the split among the four corners of a resting box face is
 * not unique (they differ by up to half the largest); J^T gamma = A (v - v*)
 * is, and agrees with v. */
static void test_lcp_islands_match_whole_lcp(void) {
  twin t = twin_open("test/lcp_piles.yaml", NULL, 0);
  sc_data *da = t.da, *db = t.db;
  sc_error err;
  ENSURE(t.ma->opt.solver == SC_SOLVER_LCP);
  sc_sim_set_lcp_whole(db, 1);
  double worst = 0.0, worst_imp = 0.0, res = 0.0;
  int three = 0, four = 0, contact_steps = 0, piv_isl = 0, piv_whole = 0;
  for (int k = 0; k < 300; k++) {
    twin_sync(&t);
    ENSURE(sc_step(t.ma, da, &err) == SC_OK);
    ENSURE(sc_step(t.mb, db, &err) == SC_OK);
    ENSURE(da->ncon == db->ncon);
    if (da->ncon == 0) continue;
    contact_steps++;
    ENSURE(db->nisland == 1);
    ENSURE(da->contact_stats.status == SC_SOLVE_OK && db->contact_stats.status == SC_SOLVE_OK);
    three += da->nisland >= 3;
    four += da->nisland == 4;
    res = fmax(res, fmax(da->contact_stats.residual, db->contact_stats.residual));
    piv_isl += da->contact_stats.iterations;
    piv_whole += db->contact_stats.iterations;
    worst = fmax(worst, rel_vdiff(t.ma->nv, da->v, db->v));
    worst_imp = fmax(worst_imp, rel_vdiff(3 * da->ncon, da->impulse, db->impulse));
  }
  printf("  %d steps with contact, %d with 3 or 4 islands (%d with 4); max |v - v_whole| / |v|max %.2e, "
         "|gamma - gamma_whole| / |gamma|max %.2e; residual <= %.2e; pivots: %d (largest "
         "island per step) vs %d (whole)\n",
         contact_steps, three, four, worst, worst_imp, res, piv_isl, piv_whole);
  /* the ball lands after about 0.2 s: a fourth island */
  ENSURE(contact_steps == 300 && three == 300 && four >= 20);
  ENSURE(res <= 1e-6);
  ENSURE(worst <= 1e-6);
  twin_close(&t);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_order_explicit_euler);
  RUN(test_order_symplectic_euler);
  RUN(test_order_implicit_euler);
  RUN(test_order_midpoint);
  RUN(test_theta_equals_named_scheme);
  RUN(test_damper_work_accounts_for_loss);
  RUN(test_fluid_drag_closed_form);
  RUN(test_fluid_work_in_damper_energy);
  RUN(test_double_pendulum_energy_midpoint);
  RUN(test_free_body_conserves_momentum);
  RUN(test_no_alloc_and_determinism);
  RUN(test_guard_names_nonfinite);
  RUN(test_islands_match_whole_problem);
  RUN(test_kinematics_reuse_is_exact);
  RUN(test_free_motion_affine);
  RUN(test_lcp_islands_match_whole_lcp);
  return TEST_END();
}
