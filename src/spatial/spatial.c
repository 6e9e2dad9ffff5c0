/* spatial: 3D and 6D spatial algebra.
 *
 * Motion cross product (Featherstone eq. 2.31): for a = [w; u],
 *   a x_m [m; n] = [w x m; w x n + u x m],   a x_f [n; f] = [w x n + u x f; w x f].
 * Spatial inertia about a frame origin for mass m, c.o.m. c, inertia Ic about
 * the c.o.m. (Featherstone eq. 2.63):
 *   I = [ Ic + m [c]x [c]x^T ,  m [c]x ;  m [c]x^T ,  m 1 ].
 * A motion vector expressed in a child frame (R, p) reads in the parent frame
 *   w' = R w,   v' = R v + p x (R w). */
#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

void sc_sp_add3(double r[3], const double a[3], const double b[3]) {
  for (int i = 0; i < 3; i++) r[i] = a[i] + b[i];
}
void sc_sp_sub3(double r[3], const double a[3], const double b[3]) {
  for (int i = 0; i < 3; i++) r[i] = a[i] - b[i];
}
void sc_sp_scale3(double r[3], const double a[3], double s) {
  for (int i = 0; i < 3; i++) r[i] = a[i] * s;
}
void sc_sp_addscl3(double r[3], const double a[3], const double b[3], double s) {
  for (int i = 0; i < 3; i++) r[i] = a[i] + s * b[i];
}
double sc_sp_dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
void sc_sp_cross3(double r[3], const double a[3], const double b[3]) {
  double t0 = a[1] * b[2] - a[2] * b[1];
  double t1 = a[2] * b[0] - a[0] * b[2];
  double t2 = a[0] * b[1] - a[1] * b[0];
  r[0] = t0;
  r[1] = t1;
  r[2] = t2;
}
double sc_sp_norm3(const double a[3]) { return sqrt(sc_sp_dot3(a, a)); }
double sc_sp_normalize3(double a[3]) {
  double n = sc_sp_norm3(a);
  if (n > 0) sc_sp_scale3(a, a, 1.0 / n);
  return n;
}

void sc_sp_tangents(double t1[3], double t2[3], const double n[3]) {
  /* pick the world axis least aligned with n so the frame is well conditioned */
  double a[3] = {0, 0, 0};
  double ax = fabs(n[0]), ay = fabs(n[1]), az = fabs(n[2]);
  if (ax <= ay && ax <= az) {
    a[0] = 1;
  } else if (ay <= az) {
    a[1] = 1;
  } else {
    a[2] = 1;
  }
  sc_sp_cross3(t1, a, n);
  sc_sp_normalize3(t1);
  sc_sp_cross3(t2, n, t1);
}

void sc_sp_mat3_identity(double R[9]) {
  memset(R, 0, 9 * sizeof(double));
  R[0] = R[4] = R[8] = 1;
}
void sc_sp_mat3_mul(double r[9], const double a[9], const double b[9]) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
  memcpy(r, t, sizeof t);
}
void sc_sp_mat3_mulT(double r[9], const double a[9], const double b[9]) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] =
          a[3 * i] * b[3 * j] + a[3 * i + 1] * b[3 * j + 1] + a[3 * i + 2] * b[3 * j + 2];
  memcpy(r, t, sizeof t);
}
void sc_sp_mat3_Tmul(double r[9], const double a[9], const double b[9]) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
  memcpy(r, t, sizeof t);
}
void sc_sp_mat3_vec(double r[3], const double a[9], const double x[3]) {
  double t[3];
  for (int i = 0; i < 3; i++) t[i] = a[3 * i] * x[0] + a[3 * i + 1] * x[1] + a[3 * i + 2] * x[2];
  memcpy(r, t, sizeof t);
}
void sc_sp_mat3_Tvec(double r[3], const double a[9], const double x[3]) {
  double t[3];
  for (int i = 0; i < 3; i++) t[i] = a[i] * x[0] + a[3 + i] * x[1] + a[6 + i] * x[2];
  memcpy(r, t, sizeof t);
}
void sc_sp_mat3_transpose(double r[9], const double a[9]) {
  double t[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) t[3 * i + j] = a[3 * j + i];
  memcpy(r, t, sizeof t);
}
void sc_sp_rpy_to_mat3(double R[9], const double rpy[3]) {
  double cr = cos(rpy[0]), sr = sin(rpy[0]);
  double cp = cos(rpy[1]), sp = sin(rpy[1]);
  double cy = cos(rpy[2]), sy = sin(rpy[2]);
  R[0] = cy * cp;
  R[1] = cy * sp * sr - sy * cr;
  R[2] = cy * sp * cr + sy * sr;
  R[3] = sy * cp;
  R[4] = sy * sp * sr + cy * cr;
  R[5] = sy * sp * cr - cy * sr;
  R[6] = -sp;
  R[7] = cp * sr;
  R[8] = cp * cr;
}
void sc_sp_axis_angle_to_mat3(double R[9], const double a[3], double angle) {
  double c = cos(angle), s = sin(angle), t = 1 - c;
  R[0] = t * a[0] * a[0] + c;
  R[1] = t * a[0] * a[1] - s * a[2];
  R[2] = t * a[0] * a[2] + s * a[1];
  R[3] = t * a[0] * a[1] + s * a[2];
  R[4] = t * a[1] * a[1] + c;
  R[5] = t * a[1] * a[2] - s * a[0];
  R[6] = t * a[0] * a[2] - s * a[1];
  R[7] = t * a[1] * a[2] + s * a[0];
  R[8] = t * a[2] * a[2] + c;
}
void sc_sp_skew(double S[9], const double a[3]) {
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

void sc_sp_quat_mul(double r[4], const double a[4], const double b[4]) {
  double t[4];
  t[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  t[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  t[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  t[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  memcpy(r, t, sizeof t);
}
void sc_sp_quat_to_mat3(double R[9], const double q[4]) {
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
void sc_sp_mat3_to_quat(double q[4], const double R[9]) {
  /* Shepperd's method: branch on the largest diagonal term for accuracy */
  double tr = R[0] + R[4] + R[8];
  if (tr > 0) {
    double s = 2 * sqrt(tr + 1);
    q[0] = 0.25 * s;
    q[1] = (R[7] - R[5]) / s;
    q[2] = (R[2] - R[6]) / s;
    q[3] = (R[3] - R[1]) / s;
  } else if (R[0] > R[4] && R[0] > R[8]) {
    double s = 2 * sqrt(1 + R[0] - R[4] - R[8]);
    q[0] = (R[7] - R[5]) / s;
    q[1] = 0.25 * s;
    q[2] = (R[1] + R[3]) / s;
    q[3] = (R[2] + R[6]) / s;
  } else if (R[4] > R[8]) {
    double s = 2 * sqrt(1 + R[4] - R[0] - R[8]);
    q[0] = (R[2] - R[6]) / s;
    q[1] = (R[1] + R[3]) / s;
    q[2] = 0.25 * s;
    q[3] = (R[5] + R[7]) / s;
  } else {
    double s = 2 * sqrt(1 + R[8] - R[0] - R[4]);
    q[0] = (R[3] - R[1]) / s;
    q[1] = (R[2] + R[6]) / s;
    q[2] = (R[5] + R[7]) / s;
    q[3] = 0.25 * s;
  }
  if (q[0] < 0)
    for (int i = 0; i < 4; i++) q[i] = -q[i];
}
double sc_sp_quat_normalize(double q[4]) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n > 0)
    for (int i = 0; i < 4; i++) q[i] /= n;
  return n;
}
void sc_sp_quat_rotate(double r[3], const double q[4], const double v[3]) {
  double R[9];
  sc_sp_quat_to_mat3(R, q);
  sc_sp_mat3_vec(r, R, v);
}

void sc_sp_xform_identity(sc_xform* X) {
  sc_sp_mat3_identity(X->R);
  X->p[0] = X->p[1] = X->p[2] = 0;
}
void sc_sp_xform_compose(sc_xform* r, const sc_xform* a, const sc_xform* b) {
  sc_xform t;
  sc_sp_mat3_mul(t.R, a->R, b->R);
  sc_sp_mat3_vec(t.p, a->R, b->p);
  sc_sp_add3(t.p, t.p, a->p);
  *r = t;
}
void sc_sp_xform_point(double r[3], const sc_xform* X, const double x[3]) {
  double t[3];
  sc_sp_mat3_vec(t, X->R, x);
  sc_sp_add3(r, t, X->p);
}

void sc_sp_cross_motion(double r[6], const double a[6], const double b[6]) {
  double t[6], u[3];
  sc_sp_cross3(t, a, b);
  sc_sp_cross3(t + 3, a, b + 3);
  sc_sp_cross3(u, a + 3, b);
  sc_sp_add3(t + 3, t + 3, u);
  memcpy(r, t, sizeof t);
}
void sc_sp_cross_force(double r[6], const double a[6], const double f[6]) {
  double t[6], u[3];
  sc_sp_cross3(t, a, f);
  sc_sp_cross3(u, a + 3, f + 3);
  sc_sp_add3(t, t, u);
  sc_sp_cross3(t + 3, a, f + 3);
  memcpy(r, t, sizeof t);
}
void sc_sp_xform_motion(double r[6], const sc_xform* X, const double m[6]) {
  double w[3], v[3], u[3];
  sc_sp_mat3_vec(w, X->R, m);
  sc_sp_mat3_vec(v, X->R, m + 3);
  sc_sp_cross3(u, X->p, w);
  sc_sp_add3(v, v, u);
  memcpy(r, w, sizeof w);
  memcpy(r + 3, v, sizeof v);
}
void sc_sp_inertia(double I[36], double m, const double c[3], const double Ic[9]) {
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
void sc_sp_mat6_vec(double r[6], const double I[36], const double x[6]) {
  double t[6];
  for (int i = 0; i < 6; i++) {
    double s = 0;
    for (int j = 0; j < 6; j++) s += I[6 * i + j] * x[j];
    t[i] = s;
  }
  memcpy(r, t, sizeof t);
}
double sc_sp_dot6(const double a[6], const double b[6]) {
  double s = 0;
  for (int i = 0; i < 6; i++) s += a[i] * b[i];
  return s;
}
