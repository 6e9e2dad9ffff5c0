/* spatial: 3D vectors, rotations, quaternions and 6D spatial algebra.
 *
 * Conventions (Featherstone, "Rigid Body Dynamics Algorithms", ch. 2):
 *  - mat3 is row-major double[9]; R maps body coordinates to world: x_w = R x_b.
 *  - quaternions are [w, x, y, z], Hamilton product, unit for rotations.
 *  - rpy = fixed-axis roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll).
 *  - a spatial motion vector is [omega; v_O] (angular velocity, then the
 *    velocity of the body-fixed point instantaneously at the origin O of the
 *    frame it is expressed in); a spatial force is [n_O; f].
 *  - spatial inertia (6x6 row-major double[36]) maps motion to momentum.
 * All functions write their output first and allow no aliasing unless noted. */
#ifndef SC_SPATIAL_H
#define SC_SPATIAL_H

#include <string.h>

/* The small kernels are defined here, static inline: they run per body and
 * per dof in every kinematics pass, where a call costs as much as the
 * arithmetic. */

/* ---- vec3 ---- */
static inline void sc_sp_add3(double r[3], const double a[3], const double b[3]) {
  for (int i = 0; i < 3; i++) r[i] = a[i] + b[i];
}
static inline void sc_sp_sub3(double r[3], const double a[3], const double b[3]) {
  for (int i = 0; i < 3; i++) r[i] = a[i] - b[i];
}
static inline void sc_sp_scale3(double r[3], const double a[3], double s) {
  for (int i = 0; i < 3; i++) r[i] = a[i] * s;
}
/* r=a+s*b */
static inline void sc_sp_addscl3(double r[3], const double a[3], const double b[3], double s) {
  for (int i = 0; i < 3; i++) r[i] = a[i] + s * b[i];
}
static inline double sc_sp_dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void sc_sp_cross3(double r[3], const double a[3], const double b[3]) {
  double t0 = a[1] * b[2] - a[2] * b[1];
  double t1 = a[2] * b[0] - a[0] * b[2];
  double t2 = a[0] * b[1] - a[1] * b[0];
  r[0] = t0;
  r[1] = t1;
  r[2] = t2;
}
double sc_sp_norm3(const double a[3]);
/* Normalize in place; returns the previous norm (0 leaves a unchanged). */
double sc_sp_normalize3(double a[3]);
/* Two unit vectors t1, t2 with (t1, t2, n) a right-handed orthonormal frame. */
void sc_sp_tangents(double t1[3], double t2[3], const double n[3]);

/* ---- mat3 (row-major) ---- */
static inline void sc_sp_mat3_identity(double R[9]) {
  memset(R, 0, 9 * sizeof(double));
  R[0] = R[4] = R[8] = 1;
}
static inline void sc_sp_mat3_mul(double r[9], const double a[9], const double b[9]) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
  memcpy(r, t, sizeof t);
}
/* a * b^T */
static inline void sc_sp_mat3_mulT(double r[9], const double a[9], const double b[9]) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] =
          a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
  memcpy(r, t, sizeof t);
}
/* a^T * b */
static inline void sc_sp_mat3_Tmul(double r[9], const double a[9], const double b[9]) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
  memcpy(r, t, sizeof t);
}
static inline void sc_sp_mat3_vec(double r[3], const double a[9], const double x[3]) {
  double t[3];
  for (int i = 0; i < 3; i++) t[i] = a[3 * i] * x[0] + a[3 * i + 1] * x[1] + a[3 * i + 2] * x[2];
  memcpy(r, t, sizeof t);
}
/* a^T x */
static inline void sc_sp_mat3_Tvec(double r[3], const double a[9], const double x[3]) {
  double t[3];
  for (int i = 0; i < 3; i++) t[i] = a[i] * x[0] + a[3 + i] * x[1] + a[6 + i] * x[2];
  memcpy(r, t, sizeof t);
}
void sc_sp_mat3_transpose(double r[9], const double a[9]);
/* R = Rz(y) Ry(p) Rx(r) */
void sc_sp_rpy_to_mat3(double R[9], const double rpy[3]);
/* Rotation by angle about a unit axis (Rodrigues). */
void sc_sp_axis_angle_to_mat3(double R[9], const double axis[3], double angle);
/* Skew matrix [a]x so that [a]x b = a x b. */
static inline void sc_sp_skew(double S[9], const double a[3]) {
  S[0] = 0;
  S[1] = -a[2];
  S[2] = a[1];
  S[3] = a[2];
  S[4] = 0;
  S[5] = -a[0];
  S[6] = -a[1];
  S[7] = a[0];
  S[8] = 0;
}

/* ---- quaternions [w x y z] ---- */
static inline void sc_sp_quat_mul(double r[4], const double a[4], const double b[4]) {
  double t[4];
  t[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  t[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  t[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  t[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  memcpy(r, t, sizeof t);
}
static inline void sc_sp_quat_to_mat3(double R[9], const double q[4]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - w * z);
  R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);
  R[7] = 2 * (y * z + w * x);
  R[8] = 1 - 2 * (x * x + y * y);
}
void sc_sp_mat3_to_quat(double q[4], const double R[9]);
/* Normalize in place; returns the previous norm. */
double sc_sp_quat_normalize(double q[4]);
/* r = q rotated as a vector */
void sc_sp_quat_rotate(double r[3], const double q[4], const double v[3]);

/* ---- rigid transforms: x_parent = R x_child + p ---- */
typedef struct sc_xform {
  double R[9];
  double p[3];
} sc_xform;

static inline void sc_sp_xform_identity(sc_xform* X) {
  sc_sp_mat3_identity(X->R);
  X->p[0] = X->p[1] = X->p[2] = 0;
}
/* Whether (R, p) is exactly the identity transform (a joint frame at the
 * default origin, a shape at its body's origin). */
static inline int sc_sp_xform_is_identity(const double R[9], const double p[3]) {
  return R[0] == 1.0 && R[1] == 0.0 && R[2] == 0.0 && R[3] == 0.0 && R[4] == 1.0 &&
         R[5] == 0.0 && R[6] == 0.0 && R[7] == 0.0 && R[8] == 1.0 && p[0] == 0.0 &&
         p[1] == 0.0 && p[2] == 0.0;
}
/* a o b: first b then a (x_a_parent = Ra (Rb x + pb) + pa). */
static inline void sc_sp_xform_compose(sc_xform* r, const sc_xform* a, const sc_xform* b) {
  sc_xform t;
  sc_sp_mat3_mul(t.R, a->R, b->R);
  sc_sp_mat3_vec(t.p, a->R, b->p);
  sc_sp_add3(t.p, t.p, a->p);
  *r = t;
}
static inline void sc_sp_xform_point(double r[3], const sc_xform* X, const double x[3]) {
  double t[3];
  sc_sp_mat3_vec(t, X->R, x);
  sc_sp_add3(r, t, X->p);
}

/* ---- spatial vectors ---- */
/* motion cross: r = a x_m b */
static inline void sc_sp_cross_motion(double r[6], const double a[6], const double b[6]) {
  double t[6], u[3];
  sc_sp_cross3(t, a, b);
  sc_sp_cross3(t + 3, a, b + 3);
  sc_sp_cross3(u, a + 3, b);
  sc_sp_add3(t + 3, t + 3, u);
  memcpy(r, t, sizeof t);
}
/* force cross: r = a x_f f */
static inline void sc_sp_cross_force(double r[6], const double a[6], const double f[6]) {
  double t[6], u[3];
  sc_sp_cross3(t, a, f);
  sc_sp_cross3(u, a + 3, f + 3);
  sc_sp_add3(t, t, u);
  sc_sp_cross3(t + 3, a, f + 3);
  memcpy(r, t, sizeof t);
}
/* Express a motion vector given in frame X (child coordinates, about the
 * child's origin) in the parent frame, about the parent's origin. */
static inline void sc_sp_xform_motion(double r[6], const sc_xform* X, const double m[6]) {
  double w[3], v[3], u[3];
  sc_sp_mat3_vec(w, X->R, m);
  sc_sp_mat3_vec(v, X->R, m + 3);
  sc_sp_cross3(u, X->p, w);
  sc_sp_add3(v, v, u);
  memcpy(r, w, sizeof w);
  memcpy(r + 3, v, sizeof v);
}
/* Spatial inertia about the origin of the frame the inputs are expressed in:
 * mass m, centre of mass c, rotational inertia Ic about the c.o.m. */
static inline void sc_sp_inertia(double I[36], double m, const double c[3], const double Ic[9]) {
  double C[9], CCt[9];
  sc_sp_skew(C, c);
  sc_sp_mat3_mulT(CCt, C, C);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      I[6 * i + j] = Ic[3 * i + j] + m * CCt[3 * i + j];
      I[6 * i + 3 + j] = m * C[3 * i + j];
      I[6 * (3 + i) + j] = m * C[3 * j + i];
      I[6 * (3 + i) + 3 + j] = (i == j) ? m : 0.0;
    }
}
/* r = I x for 6x6 row-major I. */
static inline void sc_sp_mat6_vec(double r[6], const double I[36], const double x[6]) {
  double t[6];
  for (int i = 0; i < 6; i++) {
    double s = 0;
    for (int j = 0; j < 6; j++) s += I[6 * i + j] * x[j];
    t[i] = s;
  }
  memcpy(r, t, sizeof t);
}
static inline double sc_sp_dot6(const double a[6], const double b[6]) {
  double s = 0;
  for (int i = 0; i < 6; i++) s += a[i] * b[i];
  return s;
}

#endif
