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

/* ---- vec3 ---- */
void sc_sp_add3(double r[3], const double a[3], const double b[3]);
void sc_sp_sub3(double r[3], const double a[3], const double b[3]);
void sc_sp_scale3(double r[3], const double a[3], double s);
void sc_sp_addscl3(double r[3], const double a[3], const double b[3], double s); /* r=a+s*b */
double sc_sp_dot3(const double a[3], const double b[3]);
void sc_sp_cross3(double r[3], const double a[3], const double b[3]);
double sc_sp_norm3(const double a[3]);
/* Normalize in place; returns the previous norm (0 leaves a unchanged). */
double sc_sp_normalize3(double a[3]);
/* Two unit vectors t1, t2 with (t1, t2, n) a right-handed orthonormal frame. */
void sc_sp_tangents(double t1[3], double t2[3], const double n[3]);

/* ---- mat3 (row-major) ---- */
void sc_sp_mat3_identity(double R[9]);
void sc_sp_mat3_mul(double r[9], const double a[9], const double b[9]);
void sc_sp_mat3_mulT(double r[9], const double a[9], const double b[9]);  /* a * b^T */
void sc_sp_mat3_Tmul(double r[9], const double a[9], const double b[9]);  /* a^T * b */
void sc_sp_mat3_vec(double r[3], const double a[9], const double x[3]);
void sc_sp_mat3_Tvec(double r[3], const double a[9], const double x[3]); /* a^T x */
void sc_sp_mat3_transpose(double r[9], const double a[9]);
/* R = Rz(y) Ry(p) Rx(r) */
void sc_sp_rpy_to_mat3(double R[9], const double rpy[3]);
/* Rotation by angle about a unit axis (Rodrigues). */
void sc_sp_axis_angle_to_mat3(double R[9], const double axis[3], double angle);
/* Skew matrix [a]x so that [a]x b = a x b. */
void sc_sp_skew(double S[9], const double a[3]);

/* ---- quaternions [w x y z] ---- */
void sc_sp_quat_mul(double r[4], const double a[4], const double b[4]);
void sc_sp_quat_to_mat3(double R[9], const double q[4]);
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

void sc_sp_xform_identity(sc_xform* X);
/* a o b: first b then a (x_a_parent = Ra (Rb x + pb) + pa). */
void sc_sp_xform_compose(sc_xform* r, const sc_xform* a, const sc_xform* b);
void sc_sp_xform_point(double r[3], const sc_xform* X, const double x[3]);

/* ---- spatial vectors ---- */
/* motion cross: r = a x_m b */
void sc_sp_cross_motion(double r[6], const double a[6], const double b[6]);
/* force cross: r = a x_f f */
void sc_sp_cross_force(double r[6], const double a[6], const double f[6]);
/* Express a motion vector given in frame X (child coordinates, about the
 * child's origin) in the parent frame, about the parent's origin. */
void sc_sp_xform_motion(double r[6], const sc_xform* X, const double m[6]);
/* Spatial inertia about the origin of the frame the inputs are expressed in:
 * mass m, centre of mass c, rotational inertia Ic about the c.o.m. */
void sc_sp_inertia(double I[36], double m, const double c[3], const double Ic[9]);
/* r = I x for 6x6 row-major I. */
void sc_sp_mat6_vec(double r[6], const double I[36], const double x[6]);
double sc_sp_dot6(const double a[6], const double b[6]);

#endif
