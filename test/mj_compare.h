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
