/* mj_compare: what the MuJoCo comparisons share (test/test_mjcf.c and
 * test/corpus/model_compare.c): a seeded random source, the joint type maps,
 * the velocity map T between MuJoCo's and simc's velocities, simc's mass
 * matrix as a dense matrix, and random states.  Static functions, included
 * after <mujoco/mujoco.h> and simc's model headers. */
#ifndef SC_TEST_MJ_COMPARE_H
#define SC_TEST_MJ_COMPARE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <mujoco/mujoco.h>

#include "model/model.h"
#include "spatial/spatial.h"
#include "state/state.h"

static uint64_t rng_state;

static double urand(void) { /* splitmix64, [0, 1) */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1.0p-53;
}

static double nrand(void) { /* Box-Muller */
  const double u = 1.0 - urand(), w = urand();
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * w);
}

/* uniform on the unit sphere of quaternions */
static void rand_quat(double* q) {
  double n = 0;
  while (n < 1e-6) {
    n = 0;
    for (int k = 0; k < 4; k++) {
      q[k] = nrand();
      n += q[k] * q[k];
    }
  }
  n = sqrt(n);
  for (int k = 0; k < 4; k++) q[k] /= n;
}

static const char* mj_type_name(int t) {
  switch (t) {
    case mjJNT_FREE: return "free";
    case mjJNT_BALL: return "ball";
    case mjJNT_SLIDE: return "slide";
    case mjJNT_HINGE: return "hinge";
    default: return "?";
  }
}

static sc_joint_type simc_type_of(int t) {
  switch (t) {
    case mjJNT_FREE: return SC_JOINT_FREE;
    case mjJNT_BALL: return SC_JOINT_BALL;
    case mjJNT_SLIDE: return SC_JOINT_PRISMATIC;
    default: return SC_JOINT_REVOLUTE;
  }
}

static int find_body(const sc_model* s, const char* name) {
  for (int b = 0; b < s->nbody; b++)
    if (s->body_name[b] && strcmp(s->body_name[b], name) == 0) return b;
  return -1;
}

/* ---- the velocity map T ---- */

typedef struct tmap {
  int n;        /* rotated 3-dof blocks */
  int* adr;     /* (n) first dof */
  double* R;    /* (n x 9) row-major */
} tmap;

/* T at MuJoCo's qpos: a free joint's angular dofs turn by the body's world
 * rotation, a ball joint's by its relative rotation (both the joint's
 * quaternion) */
static void tmap_build(const mjModel* mm, const double* qpos, tmap* t) {
  t->n = 0;
  for (int j = 0; j < mm->njnt; j++) {
    int qa = mm->jnt_qposadr[j], da = mm->jnt_dofadr[j];
    if (mm->jnt_type[j] == mjJNT_FREE) {
      qa += 3;
      da += 3;
    } else if (mm->jnt_type[j] != mjJNT_BALL) {
      continue;
    }
    double quat[4];
    mju_normalize4(memcpy(quat, qpos + qa, sizeof quat));
    mju_quat2Mat(t->R + 9 * t->n, quat);
    t->adr[t->n++] = da;
  }
}

/* y = T x */
static void tmap_apply(const tmap* t, int nv, const double* x, double* y) {
  memcpy(y, x, sizeof(double) * (size_t)nv);
  for (int k = 0; k < t->n; k++) {
    const double* R = t->R + 9 * k;
    const double* xi = x + t->adr[k];
    for (int r = 0; r < 3; r++) y[t->adr[k] + r] = R[3 * r] * xi[0] + R[3 * r + 1] * xi[1] + R[3 * r + 2] * xi[2];
  }
}

/* y = T^T x */
static void tmap_apply_t(const tmap* t, int nv, const double* x, double* y) {
  memcpy(y, x, sizeof(double) * (size_t)nv);
  for (int k = 0; k < t->n; k++) {
    const double* R = t->R + 9 * k;
    const double* xi = x + t->adr[k];
    for (int r = 0; r < 3; r++) y[t->adr[k] + r] = R[r] * xi[0] + R[3 + r] * xi[1] + R[6 + r] * xi[2];
  }
}

/* A = T^T A T in place (A dense nv x nv, row-major) */
static void tmap_congruence(const tmap* t, int nv, double* A) {
  for (int k = 0; k < t->n; k++) {
    const double* R = t->R + 9 * k;
    const int a = t->adr[k];
    for (int r = 0; r < nv; r++) { /* rows: A[r, a..a+2] R */
      double* x = A + (size_t)r * (size_t)nv + a;
      const double x0 = x[0], x1 = x[1], x2 = x[2];
      for (int c = 0; c < 3; c++) x[c] = x0 * R[c] + x1 * R[3 + c] + x2 * R[6 + c];
    }
    for (int c = 0; c < nv; c++) { /* columns: R^T A[a..a+2, c] */
      double* y0 = A + (size_t)a * (size_t)nv + c;
      const double y[3] = {y0[0], y0[nv], y0[2 * (size_t)nv]};
      for (int r = 0; r < 3; r++)
        y0[(size_t)r * (size_t)nv] = R[r] * y[0] + R[3 + r] * y[1] + R[6 + r] * y[2];
    }
  }
}

/* ---- simc's free-joint coordinates ----
 * simc's state has a free joint's centre of mass where MuJoCo's qpos and
 * qvel have the body frame's origin (state.h, sc_state_frame_to_com): on
 * the joint's dofs v_simc = P v_origin, P = [I, -[c]x; 0, I], c = R s the
 * centre in J (J is the world for MuJoCo's free joints).  What simc
 * computes in its coordinates is compared in MuJoCo's: M_o = P^T M P,
 * a force f_o = P^T f, and the bias P^T (b + M Pdot v_o) with
 * Pdot v_o = [w x (w x c); 0].  qs: simc's q (its coordinates). */
static void com_offset(const sc_model* s, const double* qs, int j, double c[3]) {
  double R[9];
  sc_sp_quat_to_mat3(R, qs + s->jnt_qadr[j] + 3);
  sc_sp_mat3_vec(c, R, s->jnt_com + 3 * j);
}
static int com_shifted(const sc_model* s, int j) {
  const double* x = s->jnt_com + 3 * j;
  return s->jnt_type[j] == SC_JOINT_FREE && (x[0] != 0 || x[1] != 0 || x[2] != 0);
}
/* f <- P^T f: the angular rows gain c x f_lin */
static void com_force(const sc_model* s, const double* qs, double* f) {
  for (int j = 0; j < s->njnt; j++) {
    if (!com_shifted(s, j)) continue;
    double c[3], t[3];
    com_offset(s, qs, j, c);
    double* fj = f + s->jnt_vadr[j];
    sc_sp_cross3(t, c, fj);
    for (int k = 0; k < 3; k++) fj[3 + k] += t[k];
  }
}
/* A <- P^T A P (dense nv x nv, row-major) */
static void com_congruence(const sc_model* s, const double* qs, int nv, double* A) {
  for (int j = 0; j < s->njnt; j++) {
    if (!com_shifted(s, j)) continue;
    double c[3];
    com_offset(s, qs, j, c);
    const int a = s->jnt_vadr[j];
    /* -[c]x as a matrix: column k is -c x e_k = e_k x c */
    double X[9];
    for (int k = 0; k < 3; k++) {
      double e[3] = {0, 0, 0}, col[3];
      e[k] = 1;
      sc_sp_cross3(col, e, c);
      for (int r = 0; r < 3; r++) X[3 * r + k] = col[r];
    }
    for (int r = 0; r < nv; r++) { /* A P: angular columns += linear columns X */
      double* x = A + (size_t)r * (size_t)nv + a;
      for (int k = 0; k < 3; k++) x[3 + k] += x[0] * X[k] + x[1] * X[3 + k] + x[2] * X[6 + k];
    }
    for (int col = 0; col < nv; col++) { /* P^T (A P): angular rows += X^T linear rows */
      double* y = A + (size_t)a * (size_t)nv + col;
      const double l0 = y[0], l1 = y[(size_t)nv], l2 = y[2 * (size_t)nv];
      for (int k = 0; k < 3; k++) y[(size_t)(3 + k) * (size_t)nv] += X[k] * l0 + X[3 + k] * l1 + X[6 + k] * l2;
    }
  }
}
/* b <- P^T (b + M Pdot v_o), M simc's dense mass matrix in its coordinates,
 * vs simc's velocity (the angular part is the same in both) */
static void com_bias(const sc_model* s, const double* qs, const double* vs, const double* M, int nv,
                     double* b) {
  for (int j = 0; j < s->njnt; j++) {
    if (!com_shifted(s, j)) continue;
    double c[3], wc[3], a[3];
    com_offset(s, qs, j, c);
    const double* w = vs + s->jnt_vadr[j] + 3;
    sc_sp_cross3(wc, w, c);
    sc_sp_cross3(a, w, wc);
    const int d = s->jnt_vadr[j];
    for (int r = 0; r < nv; r++)
      b[r] += M[(size_t)r * (size_t)nv + d] * a[0] + M[(size_t)r * (size_t)nv + d + 1] * a[1] +
              M[(size_t)r * (size_t)nv + d + 2] * a[2];
  }
  com_force(s, qs, b);
}

/* simc's packed clique blocks of M (column-major each) as a dense nv x nv */
static void simc_dense(const sc_model* s, const double* blk, double* A) {
  const int nv = s->nv;
  memset(A, 0, sizeof(double) * (size_t)nv * (size_t)nv);
  for (int c = 0; c < s->nclique; c++) {
    const int n = s->clique_dofnum[c];
    const int* dofs = s->clique_dofs + s->clique_dofadr[c];
    const double* B = blk + s->clique_blkadr[c];
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        A[(size_t)dofs[i] * (size_t)nv + (size_t)dofs[j]] = B[i + (size_t)j * (size_t)n];
  }
}

/* A random configuration and velocity into MuJoCo's qpos, qvel: hinge and
 * slide coordinates uniform within their range (+-1 without one), free
 * joints a position in [-1, 1]^3 and a uniform unit quaternion, ball joints
 * a uniform unit quaternion; velocities uniform in [-1, 1]. */
static void random_state(const mjModel* mm, double* qpos, double* qvel) {
  for (int j = 0; j < mm->njnt; j++) {
    double* q = qpos + mm->jnt_qposadr[j];
    switch (mm->jnt_type[j]) {
      case mjJNT_FREE:
        for (int k = 0; k < 3; k++) q[k] = 2 * urand() - 1;
        rand_quat(q + 3);
        break;
      case mjJNT_BALL: rand_quat(q); break;
      default:
        if (mm->jnt_limited[j]) {
          const double lo = mm->jnt_range[2 * j], hi = mm->jnt_range[2 * j + 1];
          q[0] = lo + (hi - lo) * urand();
        } else {
          q[0] = 2 * urand() - 1;
        }
    }
  }
  for (int i = 0; i < mm->nv; i++) qvel[i] = 2 * urand() - 1;
}

#endif
