/* test_api: the public C API (include/simc.h) where it goes beyond the
 * command line: branching a run by copying its data, and forces applied
 * from a program.  References: the original run itself (a copy must step
 * as it does, bit for bit), the closed forms of a free body under a
 * constant force and torque, a motor's force (an applied generalized force
 * of the same size must give the same steps), the work-energy balance, and
 * finite differences of the virtual work for a body wrench on a chain; and
 * the arrays shared in place (a state written there steps as
 * simc_set_state's, bit for bit). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "harness.h"
#include "simc.h"

static char tmpdir[64];

static const char* write_scene(const char* name, const char* text) {
  static char path[4][256];
  static int k;
  char* p = path[k++ % 4];
  snprintf(p, 256, "%s/%s", tmpdir, name);
  FILE* f = fopen(p, "w");
  if (!f) return NULL;
  fputs(text, f);
  fclose(f);
  return p;
}

static simc_model* load(const char* path, const char* const* sets, int nsets) {
  simc_error err;
  simc_model* m = simc_load(path, sets, nsets, &err);
  if (!m) {
    char buf[1200];
    simc_error_string(&err, buf, sizeof buf);
    printf("  load %s: %s\n", path, buf);
  }
  return m;
}

/* the state and the last step's impulses of d, for bitwise comparison */
typedef struct snap {
  int nq, nv, nc;
  double q[4096], v[4096], imp[3 * 512];
  double t, e[5];
} snap;

static void take(const simc_model* m, const simc_data* d, snap* s) {
  s->nq = simc_count(m, SIMC_QPOS);
  s->nv = simc_count(m, SIMC_DOF);
  simc_get_q(m, d, s->q);
  simc_get_v(m, d, s->v);
  s->nc = simc_ncontact(d);
  for (int i = 0; i < s->nc && i < 512; i++) {
    simc_contact c;
    simc_get_contact(d, i, &c);
    memcpy(s->imp + 3 * i, c.impulse, sizeof c.impulse);
  }
  s->t = simc_time(d);
  simc_energy(d, s->e);
}

static int same(const snap* a, const snap* b) {
  return a->nq == b->nq && a->nc == b->nc && a->t == b->t &&
         !memcmp(a->q, b->q, sizeof(double) * (size_t)a->nq) &&
         !memcmp(a->v, b->v, sizeof(double) * (size_t)a->nv) &&
         !memcmp(a->imp, b->imp, sizeof(double) * 3 * (size_t)(a->nc < 512 ? a->nc : 512)) &&
         !memcmp(a->e, b->e, sizeof a->e);
}

static double qdiff(const snap* a, const snap* b) {
  double e = 0;
  for (int i = 0; i < a->nq; i++) e = fmax(e, fabs(a->q[i] - b->q[i]));
  return e;
}

/* A copy taken after k steps and stepped n more: its states equal the
 * original's at every one of the n steps, bit for bit.  A data object set
 * to the same q and v alone (no contact memory) does not: the check can
 * fail.  The original, disturbed only by forgetting its cached factor,
 * stays within the contact tolerance's reach of an undisturbed twin. */
static void copy_case(const char* scene, const char* const* sets, int nsets, int k, int n,
                      int expect_memory) {
  simc_model* m = load(scene, sets, nsets);
  ENSURE(m != NULL);
  if (!m) return;
  simc_error err;
  simc_data *d = simc_data_make(m, &err), *twin = simc_data_make(m, &err);
  simc_data *c = simc_data_make(m, &err), *bare = simc_data_make(m, &err);
  ENSURE(d && twin && c && bare);
  ENSURE(simc_step(m, d, k, &err) == SIMC_OK);
  ENSURE(simc_step(m, twin, k, &err) == SIMC_OK);
  /* a control and an applied force set on d travel with the copy */
  double* u = simc_ctrl(m, d);
  if (u) u[0] = 0.75 * (u[0] == u[0] ? u[0] : 1.0);
  simc_qfrc_applied(m, d)[0] = 1e-3;
  memcpy(simc_qfrc_applied(m, twin), simc_qfrc_applied(m, d), sizeof(double));
  if (u) memcpy(simc_ctrl(m, twin), u, sizeof(double));
  const long na = sc_alloc_count();
  ENSURE(simc_data_copy(m, c, d, &err) == SIMC_OK);
  ENSURE(sc_alloc_count() == na); /* a copy allocates nothing */
  static snap a, b, t, z;
  take(m, d, &a);
  take(m, c, &b);
  ENSURE(same(&a, &b));
  {
    const int nq = simc_count(m, SIMC_QPOS), nv = simc_count(m, SIMC_DOF);
    double* q = malloc(sizeof(double) * (size_t)(nq + nv));
    simc_get_q(m, d, q);
    simc_get_v(m, d, q + nq);
    ENSURE(simc_set_state(m, bare, q, q + nq, &err) == SIMC_OK);
    free(q);
    if (u) memcpy(simc_ctrl(m, bare), u, sizeof(double));
    memcpy(simc_qfrc_applied(m, bare), simc_qfrc_applied(m, d), sizeof(double));
  }
  int all_same = 1, bare_same = 1;
  double drift = 0;
  for (int s = 0; s < n; s++) {
    ENSURE(simc_step(m, d, 1, &err) == SIMC_OK);
    ENSURE(simc_step(m, c, 1, &err) == SIMC_OK);
    ENSURE(simc_step(m, twin, 1, &err) == SIMC_OK);
    ENSURE(simc_step(m, bare, 1, &err) == SIMC_OK);
    take(m, d, &a);
    take(m, c, &b);
    take(m, twin, &t);
    take(m, bare, &z);
    all_same &= same(&a, &b);
    bare_same &= !memcmp(a.q, z.q, sizeof(double) * (size_t)a.nq);
    drift = fmax(drift, qdiff(&a, &t));
  }
  printf("  %s: %d contacts at the copy's end; a bare state's q %s; the source's drift "
         "from its twin %.3g\n", scene, a.nc, bare_same ? "the same" : "differs", drift);
  ENSURE(all_same);
  if (expect_memory) ENSURE(!bare_same);
  ENSURE(drift <= 1e-6);
  simc_data_free(d);
  simc_data_free(twin);
  simc_data_free(c);
  simc_data_free(bare);
  simc_model_free(m);
}

static void test_copy_branches_bitwise(void) {
  /* one big island (the solver's cached factor), SAP and lagged */
  copy_case("test/tower_islands.yaml", NULL, 0, 100, 60, 1);
  copy_case("test/clutter64.yaml", NULL, 0, 200, 60, 1);
  const char* lagged[] = {"contact.model=lagged"};
  copy_case("test/clutter64.yaml", lagged, 1, 200, 60, 1);
  /* a box held by friction (stiction anchors), motors and limits (rows) */
  copy_case("test/gripper_hold.yaml", NULL, 0, 100, 80, 1);
  const char* lcp[] = {"contact.solver=lcp"};
  copy_case("test/gripper_hold.yaml", lcp, 1, 100, 80, 1);
}

/* a free body whose centre of mass is off its frame's origin, no gravity */
static const char* free_scene =
    "simc: 1\n"
    "name: pushed\n"
    "gravity: [0, 0, 0]\n"
    "time: {step: 1.0e-3, duration: 1.0}\n"
    "bodies:\n"
    "  - name: b\n"
    "    joint: {type: free}\n"
    "    mass: 2.0\n"
    "    com: [0.1, -0.2, 0.05]\n"
    "    inertia: {ixx: 0.02, iyy: 0.03, izz: 0.04}\n"
    "    initial: {q: [0.3, 0, 1, 1, 0, 0, 0]}\n";

/* A constant force F at the centre of mass: c(t) = c0 + F t^2 / (2 m), no
 * turning; a constant torque T about a principal axis (the body frame's
 * axes are principal, the body unturned at the start): w(t) = T t / I.
 * The midpoint rule integrates both exactly (constant acceleration;
 * w x I w = 0 about a principal axis), so the tolerance is round-off. */
static void test_free_body_under_a_constant_wrench(void) {
  simc_model* m = load(write_scene("pushed.yaml", free_scene), NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  simc_error err;
  simc_data* d = simc_data_make(m, &err);
  const double F[3] = {0.6, -1.0, 0.4}, mass = 2.0, s[3] = {0.1, -0.2, 0.05};
  double* x = simc_xfrc_applied(m, d);
  memcpy(x + 6, F, sizeof F);
  ENSURE(simc_step(m, d, 500, &err) == SIMC_OK);
  double q[7], v[6], e[5];
  simc_get_q(m, d, q);
  simc_get_v(m, d, v);
  simc_energy(d, e);
  const double t = 0.5;
  double werr = 0, perr = 0, verr = 0;
  for (int k = 0; k < 3; k++) {
    const double c = (k == 0 ? 0.3 : k == 2 ? 1.0 : 0.0) + s[k] + F[k] * t * t / (2 * mass);
    perr = fmax(perr, fabs(q[k] + s[k] - c)); /* unturned: origin = c - s */
    verr = fmax(verr, fabs(v[k] - F[k] * t / mass));
    werr = fmax(werr, fabs(v[3 + k]));
  }
  printf("  force: position %.3g m, velocity %.3g m/s, spin %.3g rad/s off; work %.12g J "
         "against kinetic energy %.12g J\n", perr, verr, werr, e[4], e[0]);
  ENSURE(perr <= 1e-13);
  ENSURE(verr <= 1e-13);
  ENSURE(werr <= 1e-13);
  ENSURE(fabs(q[3] - 1.0) <= 1e-15);
  /* the work-energy theorem: F . (c - c0) = 1/2 m |v|^2 */
  ENSURE_CLOSE(e[4], e[0], 1e-12, 0);
  ENSURE_CLOSE(e[4], (F[0] * F[0] + F[1] * F[1] + F[2] * F[2]) * t * t / (2 * mass), 1e-12, 0);

  /* a torque about the body's y axis (principal, I = 0.03) */
  simc_data_reset(m, d, &err);
  x = simc_xfrc_applied(m, d);
  ENSURE(x[6] == 0 && x[7] == 0); /* reset clears the forces */
  x[6 + 4] = 0.09;
  ENSURE(simc_step(m, d, 250, &err) == SIMC_OK);
  simc_get_v(m, d, v);
  simc_get_q(m, d, q);
  const double w = 0.09 * 0.25 / 0.03, ang = 0.09 * 0.25 * 0.25 / (2 * 0.03);
  printf("  torque: w %.15g rad/s (closed form %.15g), angle %.15g rad (%.15g)\n", v[4], w,
         2 * atan2(q[5], q[3]), ang);
  ENSURE_CLOSE(v[4], w, 1e-12, 0);
  ENSURE(fabs(v[3]) <= 1e-14 && fabs(v[5]) <= 1e-14);
  /* (the angle through the quaternion update: second order, 3e-9 relative at 1 ms) */
  ENSURE_CLOSE(2 * atan2(q[5], q[3]), ang, 1e-8, 0);
  simc_data_free(d);
  simc_model_free(m);
}

/* The same push through qfrc_applied, in the file's coordinates: a force F
 * at the frame origin with the torque r x F about it, r = c - o, is F acting
 * at the centre.  r turns with the body, so it is held for an unturned body
 * (no torque about the centre: none turns it).  Agreement to round-off
 * with xfrc_applied's route. */
static void test_generalized_force_on_a_free_joint(void) {
  simc_model* m = load(write_scene("pushed.yaml", free_scene), NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  simc_error err;
  simc_data *a = simc_data_make(m, &err), *b = simc_data_make(m, &err);
  const double F[3] = {0.6, -1.0, 0.4}, r[3] = {0.1, -0.2, 0.05};
  memcpy(simc_xfrc_applied(m, a) + 6, F, sizeof F);
  double* f = simc_qfrc_applied(m, b);
  memcpy(f, F, sizeof F);
  f[3] = r[1] * F[2] - r[2] * F[1];
  f[4] = r[2] * F[0] - r[0] * F[2];
  f[5] = r[0] * F[1] - r[1] * F[0];
  ENSURE(simc_step(m, a, 300, &err) == SIMC_OK);
  ENSURE(simc_step(m, b, 300, &err) == SIMC_OK);
  double qa[7], qb[7], va[6], vb[6];
  simc_get_q(m, a, qa);
  simc_get_q(m, b, qb);
  simc_get_v(m, a, va);
  simc_get_v(m, b, vb);
  double e = 0;
  for (int k = 0; k < 7; k++) e = fmax(e, fabs(qa[k] - qb[k]));
  for (int k = 0; k < 6; k++) e = fmax(e, fabs(va[k] - vb[k]));
  printf("  qfrc_applied against xfrc_applied: %.3g\n", e);
  ENSURE(e <= 1e-14);
  simc_data_free(a);
  simc_data_free(b);
  simc_model_free(m);
}

/* A generalized force equal to a motor's: the same steps, bit for bit
 * (both are constant forces of the free motion), and the same work. */
static void test_applied_force_equals_a_motor(void) {
  simc_model* m = load("python/examples/pendulum.yaml", NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  simc_error err;
  simc_data *a = simc_data_make(m, &err), *b = simc_data_make(m, &err);
  simc_set_ctrl(m, a, 0, 1.5);
  simc_set_ctrl(m, b, 0, 0.0);
  simc_qfrc_applied(m, b)[0] = 1.5;
  static snap sa, sb;
  int all = 1;
  for (int s = 0; s < 2000; s++) {
    simc_step(m, a, 1, &err);
    simc_step(m, b, 1, &err);
    take(m, a, &sa);
    take(m, b, &sb);
    all &= same(&sa, &sb);
  }
  printf("  after 2 s: q %.15g and %.15g, work %.12g and %.12g J\n", sa.q[0], sb.q[0], sa.e[4],
         sb.e[4]);
  ENSURE(all);
  ENSURE(sa.q[0] > 0.5); /* it moved */
  simc_data_free(a);
  simc_data_free(b);
  simc_model_free(m);
}

/* A body wrench on the last link of a chain: the generalized force the
 * step applies, read as what the first step does from rest with gravity
 * off (M dv = dt f for the explicit Euler scheme), equals the virtual work
 * of the wrench by central differences: f_i = F . dc/dq_i + T . w_i with w_i
 * from the change of the link's orientation. */
static const char* chain_scene =
    "simc: 1\n"
    "name: chain\n"
    "gravity: [0, 0, 0]\n"
    "time: {step: 1.0e-3, duration: 1.0}\n"
    "integrator: {scheme: symplectic_euler}\n"
    "bodies:\n"
    "  - name: a\n"
    "    joint: {type: revolute, axis: [0, 1, 0], origin: {position: [0, 0, 1]}}\n"
    "    mass: 1.0\n"
    "    com: [0.2, 0, -0.3]\n"
    "    inertia: {ixx: 0.01, iyy: 0.02, izz: 0.015}\n"
    "    initial: {q: [0.4]}\n"
    "  - name: b\n"
    "    parent: a\n"
    "    joint: {type: prismatic, axis: [0.6, 0, 0.8], origin: {position: [0.1, 0.1, -0.5]}}\n"
    "    mass: 0.5\n"
    "    com: [0, 0.05, -0.1]\n"
    "    inertia: {ixx: 0.005, iyy: 0.004, izz: 0.003}\n"
    "    initial: {q: [0.07]}\n"
    "  - name: c\n"
    "    parent: b\n"
    "    joint: {type: revolute, axis: [1, 0, 0], origin: {position: [0, 0, -0.3]}}\n"
    "    mass: 0.7\n"
    "    com: [0.05, 0.1, -0.2]\n"
    "    inertia: {ixx: 0.006, iyy: 0.007, izz: 0.008}\n"
    "    initial: {q: [-0.8]}\n";

static void test_body_wrench_virtual_work(void) {
  simc_model* m = load(write_scene("chain.yaml", chain_scene), NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  simc_error err;
  simc_data *d = simc_data_make(m, &err), *g = simc_data_make(m, &err);
  const double F[3] = {0.3, -0.7, 1.1}, T[3] = {0.2, 0.5, -0.4};
  /* the generalized force by differences of one step from rest: with
   * forces only (no gravity, no velocity) symplectic Euler gives
   * v1 = dt M^-1 f; M from a unit force on each dof the same way */
  double* w = simc_xfrc_applied(m, d);
  memcpy(w + 6 * 3, F, sizeof F);
  memcpy(w + 6 * 3 + 3, T, sizeof T);
  simc_step(m, d, 1, &err);
  double v1[3], Minv[9];
  simc_get_v(m, d, v1);
  for (int j = 0; j < 3; j++) {
    simc_data_reset(m, g, &err);
    simc_qfrc_applied(m, g)[j] = 1.0;
    simc_step(m, g, 1, &err);
    double col[3];
    simc_get_v(m, g, col);
    for (int i = 0; i < 3; i++) Minv[i + 3 * j] = col[i] / 1e-3;
  }
  /* f = M v1 / dt: solve Minv f = v1 / dt (3 x 3, Cramer) */
  double rhs[3] = {v1[0] / 1e-3, v1[1] / 1e-3, v1[2] / 1e-3}, f[3];
#define MI(i, j) Minv[(i) + 3 * (j)]
  const double det = MI(0, 0) * (MI(1, 1) * MI(2, 2) - MI(1, 2) * MI(2, 1)) -
                     MI(0, 1) * (MI(1, 0) * MI(2, 2) - MI(1, 2) * MI(2, 0)) +
                     MI(0, 2) * (MI(1, 0) * MI(2, 1) - MI(1, 1) * MI(2, 0));
  for (int c = 0; c < 3; c++) {
    double B[9];
    memcpy(B, Minv, sizeof B);
    for (int i = 0; i < 3; i++) B[i + 3 * c] = rhs[i];
    f[c] = (B[0] * (B[4] * B[8] - B[7] * B[5]) - B[3] * (B[1] * B[8] - B[7] * B[2]) +
            B[6] * (B[1] * B[5] - B[4] * B[2])) / det;
  }
#undef MI
  /* the virtual work by central differences of the link's centre and
   * orientation (read through a contact-free kinematics: q of a data set
   * to q +- h, the centre from body c's frame origin and orientation) */
  double q0[3], zero[3] = {0, 0, 0};
  simc_data_reset(m, g, &err);
  simc_get_q(m, g, q0);
  double fd[3];
  const double h = 1e-6;
  for (int i = 0; i < 3; i++) {
    double pose[2][12];
    for (int sgn = 0; sgn < 2; sgn++) {
      double q[3];
      memcpy(q, q0, sizeof q);
      q[i] += sgn ? -h : h;
      simc_set_state(m, g, q, zero, &err);
      simc_body_pose(m, g, 3, pose[sgn], pose[sgn] + 3);
    }
    /* centre: p + R s, s = (0.05, 0.1, -0.2) */
    const double s[3] = {0.05, 0.1, -0.2};
    double dc[3], dR[9], R[9];
    for (int k = 0; k < 3; k++) {
      double cp = pose[0][k], cm = pose[1][k];
      for (int l = 0; l < 3; l++) {
        cp += pose[0][3 + 3 * k + l] * s[l];
        cm += pose[1][3 + 3 * k + l] * s[l];
      }
      dc[k] = (cp - cm) / (2 * h);
    }
    for (int k = 0; k < 9; k++) {
      dR[k] = (pose[0][3 + k] - pose[1][3 + k]) / (2 * h);
      R[k] = 0.5 * (pose[0][3 + k] + pose[1][3 + k]);
    }
    /* [w]x = dR R^T */
    double W[9];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) {
        W[3 * r + c] = 0;
        for (int k = 0; k < 3; k++) W[3 * r + c] += dR[3 * r + k] * R[3 * c + k];
      }
    const double om[3] = {W[7], W[2], W[3]};
    fd[i] = F[0] * dc[0] + F[1] * dc[1] + F[2] * dc[2] + T[0] * om[0] + T[1] * om[1] + T[2] * om[2];
  }
  double e = 0;
  for (int i = 0; i < 3; i++) e = fmax(e, fabs(f[i] - fd[i]));
  printf("  generalized force (%.9f %.9f %.9f), virtual work (%.9f %.9f %.9f): %.3g\n", f[0],
         f[1], f[2], fd[0], fd[1], fd[2], e);
  ENSURE(e <= 1e-7);
  simc_data_free(d);
  simc_data_free(g);
  simc_model_free(m);
}

/* Data of one model given with another: every call refuses it, nothing is
 * read with the wrong sizes (under ASan a read past the smaller model's
 * arrays would stop the test). */
static void test_data_of_another_model_refused(void) {
  simc_model* a = load("python/examples/pendulum.yaml", NULL, 0);
  simc_model* b = load("test/clutter64.yaml", NULL, 0);
  ENSURE(a && b);
  if (!a || !b) return;
  simc_error err;
  simc_data *da = simc_data_make(a, &err), *db = simc_data_make(b, &err);
  double q[1024], v[1024];
  q[0] = v[0] = 12345.0;
  ENSURE(simc_step(b, da, 1, &err) == SIMC_ERR_ARG && err.code == SIMC_ERR_ARG);
  ENSURE(simc_data_copy(b, db, da, &err) == SIMC_ERR_ARG);
  ENSURE(simc_data_copy(a, da, db, &err) == SIMC_ERR_ARG);
  ENSURE(simc_data_reset(b, da, &err) == SIMC_ERR_ARG);
  simc_get_q(b, da, q);
  simc_get_v(b, da, v);
  ENSURE(q[0] == 12345.0 && v[0] == 12345.0);
  ENSURE(simc_set_state(b, da, q, v, &err) == SIMC_ERR_ARG);
  ENSURE(simc_set_time(b, da, 1.0, &err) == SIMC_ERR_ARG);
  ENSURE(simc_ctrl(b, da) == NULL && simc_qfrc_applied(b, da) == NULL &&
         simc_xfrc_applied(b, da) == NULL);
  ENSURE(simc_set_ctrl(b, da, 0, 1.0) == SIMC_ERR_ARG);
  ENSURE(isnan(simc_actuator_force(b, da, 0)));
  ENSURE(simc_body_pose(b, da, 1, q, NULL) == SIMC_ERR_ARG);
  ENSURE(simc_recorder_open(b, da, "/tmp/never.h5", NULL, &err) == NULL && err.code == SIMC_ERR_ARG);
  char path[128];
  snprintf(path, sizeof path, "%s/rec.h5", tmpdir);
  simc_recorder* r = simc_recorder_open(a, da, path, NULL, &err);
  ENSURE(r != NULL);
  ENSURE(simc_recorder_step(r, b, db, &err) == SIMC_ERR_ARG);
  ENSURE(simc_recorder_close(r, a, da, NULL, NULL, &err) == SIMC_OK);
  /* the right pairs still work */
  ENSURE(simc_step(a, da, 2, &err) == SIMC_OK && simc_step(b, db, 2, &err) == SIMC_OK);
  simc_data_free(da);
  simc_data_free(db);
  simc_model_free(a);
  simc_model_free(b);
}

/* Stepping through the API allocates nothing: with applied forces and
 * controls set, on a pile (islands, threads) and a gripper (rows). */
static void test_step_allocates_nothing(void) {
  const char* scenes[] = {"test/clutter64.yaml", "test/gripper_hold.yaml", "test/tower_islands.yaml"};
  for (int k = 0; k < 3; k++) {
    simc_model* m = load(scenes[k], NULL, 0);
    ENSURE(m != NULL);
    if (!m) continue;
    simc_error err;
    simc_data* d = simc_data_make(m, &err);
    simc_step(m, d, 5, &err);
    simc_xfrc_applied(m, d)[6 + 2] = 0.5;
    simc_qfrc_applied(m, d)[0] = 0.1;
    if (simc_ctrl(m, d)) simc_set_ctrl(m, d, 0, 1.0);
    const long n0 = sc_alloc_count_process();
    ENSURE(simc_step(m, d, 150, &err) == SIMC_OK);
    const long n1 = sc_alloc_count_process();
    printf("  %s: %ld allocations in 150 steps\n", scenes[k], n1 - n0);
    ENSURE(n1 == n0);
    simc_data_free(d);
    simc_model_free(m);
  }
}

/* simc_rollout against its serial loop (copies of d stepped one by one with
 * the same controls): equal bit for bit on 1 and 3 threads, on the gripper
 * (controls, stiction) and the tower (one big island, its cached factor). */
static void test_rollout_equals_serial_loop(void) {
  const char* scenes[] = {"test/gripper_hold.yaml", "test/tower_islands.yaml"};
  for (int k = 0; k < 2; k++) {
    simc_model* m = load(scenes[k], NULL, 0);
    ENSURE(m != NULL);
    if (!m) continue;
    simc_error err;
    simc_data* d = simc_data_make(m, &err);
    simc_step(m, d, 40, &err);
    const int N = 4, T = 30, nq = simc_count(m, SIMC_QPOS), nu = simc_count(m, SIMC_ACTUATOR);
    double* ctrl = malloc(sizeof(double) * (size_t)(N * T * (nu + 1)));
    double* q1 = malloc(sizeof(double) * (size_t)(N * (T + 1) * nq));
    double* q3 = malloc(sizeof(double) * (size_t)(N * (T + 1) * nq));
    double* qs = malloc(sizeof(double) * (size_t)(N * (T + 1) * nq));
    for (int i = 0; i < N * T * nu; i++) ctrl[i] = i % 7 == 0 ? (double)NAN : 1.0 + 0.01 * (i % 13);
    ENSURE(simc_rollout(m, d, N, T, ctrl, q1, 1, &err) == SIMC_OK);
    ENSURE(simc_rollout(m, d, N, T, ctrl, q3, 3, &err) == SIMC_OK);
    simc_data* e = simc_data_make(m, &err);
    for (int i = 0; i < N; i++) {
      simc_data_copy(m, e, d, &err);
      double* row = qs + (size_t)i * (T + 1) * nq;
      simc_get_q(m, e, row);
      for (int t = 0; t < T; t++) {
        for (int a = 0; a < nu; a++) {
          const double u = ctrl[((size_t)i * T + t) * nu + a];
          if (isnan(u)) simc_clear_ctrl(m, e, a);
          else simc_set_ctrl(m, e, a, u);
        }
        simc_step(m, e, 1, &err);
        simc_get_q(m, e, row + (size_t)(t + 1) * nq);
      }
    }
    const size_t bytes = sizeof(double) * (size_t)(N * (T + 1) * nq);
    printf("  %s: %d rollouts of %d steps: 1 thread %s the serial loop, 3 threads %s\n", scenes[k],
           N, T, memcmp(q1, qs, bytes) ? "differs from" : "equals", memcmp(q3, qs, bytes) ? "differ" : "equal");
    ENSURE(memcmp(q1, qs, bytes) == 0 && memcmp(q3, qs, bytes) == 0);
    ENSURE(simc_rollout(m, d, -1, T, ctrl, q1, 1, &err) == SIMC_ERR_ARG);
    free(ctrl);
    free(q1);
    free(q3);
    free(qs);
    simc_data_free(e);
    simc_data_free(d);
    simc_model_free(m);
  }
}

/* The arrays shared in place (simc_field): the table's sizes are the
 * model's, a pointer lasts as long as its data (reset and copy write into
 * it), and a state written into the "q" and "v" arrays is the state of the
 * next step: the same run, bit for bit, as simc_set_state gives; with no
 * allocation in that step. */
static void test_fields_in_place(void) {
  simc_model* m = load("test/clutter64.yaml", NULL, 0);
  simc_model* g = load("test/gripper_hold.yaml", NULL, 0);
  ENSURE(m != NULL && g != NULL);
  if (!m || !g) return;
  simc_error err;
  simc_data* d = simc_data_make(m, &err);
  simc_data* e = simc_data_make(m, &err);
  simc_data* other = simc_data_make(g, &err);
  const int nq = simc_count(m, SIMC_QPOS), nv = simc_count(m, SIMC_DOF), nb = simc_count(m, SIMC_BODY);
  const int n = simc_field_count();
  double* before[64];
  ENSURE(n > 0 && n <= 64);
  for (int i = 0; i < n && i < 64; i++) {
    simc_field_info info;
    before[i] = simc_field(m, d, i, &info);
    ENSURE(before[i] != NULL && info.name && simc_field_index(info.name) == i && info.unit);
    ENSURE(simc_field(g, d, i, NULL) == NULL && simc_field(m, other, i, NULL) == NULL);
    simc_field_info bare;
    ENSURE(simc_field(NULL, NULL, i, &bare) == NULL && strcmp(bare.name, info.name) == 0 &&
           bare.rows == 0 && bare.cols == info.cols);
  }
  simc_field_info fi;
  double* q = simc_field(m, d, simc_field_index("q"), &fi);
  ENSURE(fi.rows == nq && fi.cols == 1 && fi.writable);
  double* v = simc_field(m, d, simc_field_index("v"), &fi);
  ENSURE(fi.rows == nv && fi.cols == 1 && fi.writable);
  ENSURE(simc_field(m, d, simc_field_index("xfrc_applied"), &fi) == simc_xfrc_applied(m, d) &&
         fi.rows == nb && fi.cols == 6);
  ENSURE(simc_field(m, d, simc_field_index("xpos"), &fi) && fi.rows == nb && !fi.writable);
  ENSURE(simc_field_index("no such") == -1 && simc_field(m, d, n, NULL) == NULL);
  simc_step(m, d, 50, &err);
  double qx[4096], vx[4096];
  simc_get_q(m, d, qx);
  simc_get_v(m, d, vx);
  /* the field is the state after the step: each free body's x, y, z are
   * its frame origin, which the kinematics put in the "xpos" field */
  const double* xpos = simc_field(m, d, simc_field_index("xpos"), NULL);
  int free_bodies = 0, origins = 1;
  for (int b = 1; b < nb; b++) {
    char name[200];
    snprintf(name, sizeof name, "%s.x", simc_name(m, SIMC_BODY, b));
    const int k = simc_index(m, SIMC_QPOS, name);
    if (k < 0) continue;
    free_bodies++;
    for (int c = 0; c < 3; c++) origins &= fabs(q[k + c] - xpos[3 * b + c]) <= 1e-12;
  }
  ENSURE(free_bodies > 0 && origins);
  simc_data_copy(m, e, d, &err);
  /* the same new state, in place in d and through simc_set_state in e */
  qx[0] += 1e-3;
  vx[nv - 1] += 0.2;
  q[0] += 1e-3;
  v[nv - 1] += 0.2;
  ENSURE(simc_set_state(m, e, qx, vx, &err) == SIMC_OK);
  const long a0 = sc_alloc_count_process();
  ENSURE(simc_step(m, d, 40, &err) == SIMC_OK);
  const long a1 = sc_alloc_count_process();
  simc_step(m, e, 40, &err);
  snap sd, se;
  take(m, d, &sd);
  take(m, e, &se);
  const int same = memcmp(sd.q, se.q, sizeof(double) * (size_t)nq) == 0 &&
                   memcmp(sd.v, se.v, sizeof(double) * (size_t)nv) == 0;
  printf("  clutter64: a state written in place %s simc_set_state's over 40 steps; %ld "
         "allocations\n", same ? "steps as" : "differs from", a1 - a0);
  ENSURE(same && a1 == a0);
  /* the pointers stay */
  simc_data_reset(m, d, &err);
  simc_data_copy(m, d, e, &err);
  for (int i = 0; i < n && i < 64; i++) ENSURE(simc_field(m, d, i, NULL) == before[i]);
  ENSURE(memcmp(q, se.q, sizeof(double) * (size_t)nq) == 0);
  simc_data_free(other);
  simc_data_free(e);
  simc_data_free(d);
  simc_model_free(g);
  simc_model_free(m);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  snprintf(tmpdir, sizeof tmpdir, "/tmp/simc_api_XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  RUN(test_copy_branches_bitwise);
  RUN(test_free_body_under_a_constant_wrench);
  RUN(test_generalized_force_on_a_free_joint);
  RUN(test_applied_force_equals_a_motor);
  RUN(test_body_wrench_virtual_work);
  RUN(test_data_of_another_model_refused);
  RUN(test_step_allocates_nothing);
  RUN(test_rollout_equals_serial_loop);
  RUN(test_fields_in_place);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0) return 1;
  return TEST_END();
}
