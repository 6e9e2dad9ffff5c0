/* Spatial algebra identities. */
#include "harness.h"
#include "spatial/spatial.h"

#include <stdlib.h>

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }
static void rvec(double* x, int n) {
  for (int i = 0; i < n; i++) x[i] = urand();
}

/* R from rpy is orthonormal with det 1, and matches the product of the
 * elementary rotations Rz(y) Ry(p) Rx(r) built with Rodrigues. */
static void test_rpy_matches_axis_angle_product(void) {
  for (int trial = 0; trial < 20; trial++) {
    double rpy[3];
    rvec(rpy, 3);
    double R[9], Rx[9], Ry[9], Rz[9], T[9];
    double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1};
    sc_sp_rpy_to_mat3(R, rpy);
    sc_sp_axis_angle_to_mat3(Rx, ex, rpy[0]);
    sc_sp_axis_angle_to_mat3(Ry, ey, rpy[1]);
    sc_sp_axis_angle_to_mat3(Rz, ez, rpy[2]);
    sc_sp_mat3_mul(T, Ry, Rx);
    sc_sp_mat3_mul(T, Rz, T);
    for (int i = 0; i < 9; i++) ENSURE_NEAR(R[i], T[i], 1e-14);
    double RRt[9];
    sc_sp_mat3_mulT(RRt, R, R);
    for (int i = 0; i < 9; i++) ENSURE_NEAR(RRt[i], (i % 4 == 0) ? 1.0 : 0.0, 1e-14);
  }
}

/* quaternion -> matrix -> quaternion round trip; product of quaternions is
 * the product of matrices. */
static void test_quat_roundtrip_and_product(void) {
  for (int trial = 0; trial < 50; trial++) {
    double a[4], b[4], c[4], Ra[9], Rb[9], Rc[9], RaRb[9], a2[4];
    rvec(a, 4);
    rvec(b, 4);
    sc_sp_quat_normalize(a);
    sc_sp_quat_normalize(b);
    if (a[0] < 0)
      for (int i = 0; i < 4; i++) a[i] = -a[i];
    sc_sp_quat_to_mat3(Ra, a);
    sc_sp_mat3_to_quat(a2, Ra);
    for (int i = 0; i < 4; i++) ENSURE_NEAR(a[i], a2[i], 1e-13);
    sc_sp_quat_mul(c, a, b);
    sc_sp_quat_to_mat3(Rb, b);
    sc_sp_quat_to_mat3(Rc, c);
    sc_sp_mat3_mul(RaRb, Ra, Rb);
    for (int i = 0; i < 9; i++) ENSURE_NEAR(Rc[i], RaRb[i], 1e-14);
  }
}

/* Motion/force cross products are dual: (a x_m m) . f = -m . (a x_f f). */
static void test_cross_duality(void) {
  for (int trial = 0; trial < 50; trial++) {
    double a[6], m[6], f[6], am[6], af[6];
    rvec(a, 6);
    rvec(m, 6);
    rvec(f, 6);
    sc_sp_cross_motion(am, a, m);
    sc_sp_cross_force(af, a, f);
    ENSURE_NEAR(sc_sp_dot6(am, f), -sc_sp_dot6(m, af), 1e-14);
    /* a x_m a = 0 */
    sc_sp_cross_motion(am, a, a);
    for (int i = 0; i < 6; i++) ENSURE_NEAR(am[i], 0.0, 1e-15);
  }
}

/* Spatial inertia: kinetic energy 1/2 V.I V equals 1/2 m |v_c|^2 + 1/2 w.Ic w
 * computed at the centre of mass. */
static void test_inertia_kinetic_energy(void) {
  for (int trial = 0; trial < 50; trial++) {
    double c[3], w[3], vO[3], L[9], Ic[9], I[36], V[6], IV[6];
    double m = 1 + fabs(urand());
    rvec(c, 3);
    rvec(w, 3);
    rvec(vO, 3);
    rvec(L, 9);
    sc_sp_mat3_mulT(Ic, L, L); /* SPD */
    for (int i = 0; i < 3; i++) Ic[4 * i] += 0.1;
    sc_sp_inertia(I, m, c, Ic);
    for (int i = 0; i < 3; i++) V[i] = w[i], V[3 + i] = vO[i];
    sc_sp_mat6_vec(IV, I, V);
    double T6 = 0.5 * sc_sp_dot6(V, IV);
    double vc[3], wxc[3], Icw[3];
    sc_sp_cross3(wxc, w, c);
    sc_sp_add3(vc, vO, wxc);
    sc_sp_mat3_vec(Icw, Ic, w);
    double T3 = 0.5 * m * sc_sp_dot3(vc, vc) + 0.5 * sc_sp_dot3(w, Icw);
    ENSURE_CLOSE(T6, T3, 1e-13, 1e-14);
  }
}

/* Transforming a motion vector then taking the point velocity equals taking
 * the point velocity in the child frame then rotating it. */
static void test_xform_motion(void) {
  for (int trial = 0; trial < 50; trial++) {
    double rpy[3], m[6], x[3], r[6];
    sc_xform X;
    rvec(rpy, 3);
    rvec(X.p, 3);
    rvec(m, 6);
    rvec(x, 3);
    sc_sp_rpy_to_mat3(X.R, rpy);
    sc_sp_xform_motion(r, &X, m);
    /* velocity of child point x: v = vO + w x x (child coords) */
    double vc[3], wx[3], vpar[3], xp[3], vp[3];
    sc_sp_cross3(wx, m, x);
    sc_sp_add3(vc, m + 3, wx);
    sc_sp_mat3_vec(vpar, X.R, vc);
    sc_sp_xform_point(xp, &X, x);
    sc_sp_cross3(wx, r, xp);
    sc_sp_add3(vp, r + 3, wx);
    for (int i = 0; i < 3; i++) ENSURE_NEAR(vp[i], vpar[i], 1e-13);
  }
}

static void test_tangent_frame(void) {
  for (int trial = 0; trial < 50; trial++) {
    double n[3], t1[3], t2[3], c[3];
    rvec(n, 3);
    sc_sp_normalize3(n);
    sc_sp_tangents(t1, t2, n);
    ENSURE_NEAR(sc_sp_dot3(t1, n), 0, 1e-15);
    ENSURE_NEAR(sc_sp_dot3(t2, n), 0, 1e-15);
    ENSURE_NEAR(sc_sp_dot3(t1, t2), 0, 1e-15);
    sc_sp_cross3(c, t1, t2);
    for (int i = 0; i < 3; i++) ENSURE_NEAR(c[i], n[i], 1e-14);
  }
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  srand(1);
  RUN(test_rpy_matches_axis_angle_product);
  RUN(test_quat_roundtrip_and_product);
  RUN(test_cross_duality);
  RUN(test_inertia_kinetic_energy);
  RUN(test_xform_motion);
  RUN(test_tangent_frame);
  return TEST_END();
}
