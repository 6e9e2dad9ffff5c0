/* spatial: 3D and 6D spatial algebra.
 *
 * Motion cross product (Featherstone eq. 2.31): for a = [w; u],
 *   a x_m [m; n] = [w x m; w x n + u x m],   a x_f [n; f] = [w x n + u x f; w x f].
 * Spatial inertia about a frame origin for mass m, c.o.m. c, inertia Ic about
 * the c.o.m. (Featherstone eq. 2.63):
 *   I = [ Ic + m [c]x [c]x^T ,  m [c]x ;  m [c]x^T ,  m 1 ].
 * A motion vector expressed in a child frame (R, p) reads in the parent frame
 *   w' = R w,   v' = R v + p x (R w).
 * The small kernels implementing these (and the 3D ones) are static inline in
 * spatial.h; this file keeps the rest. */
#include "spatial/spatial.h"

#include <math.h>
#include <string.h>

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


