/* scene inertia: solid shapes at uniform density, and checks of given inertia.
 *
 * Per unit density (mass M = V), about the shape's own centre, shape axes
 * (z = the axis of cylinders and capsules):
 *   sphere r:        V = 4/3 pi r^3,   I = 2/5 M r^2 (all axes)
 *   box half a,b,c:  V = 8abc,         Ixx = M (b^2 + c^2) / 3, ... (= M/12 (ly^2 + lz^2))
 *   cylinder r, h:   V = pi r^2 h,     Izz = M r^2 / 2, Ixx = Iyy = M (3 r^2 + h^2) / 12
 *   capsule r, L:    cylinder (r, L) plus two hemispheres of mass Mh = 2/3 pi r^3;
 *                    a hemisphere's c.o.m. is 3r/8 from its flat face, so about its own
 *                    c.o.m. Ixx = (2/5 - 9/64) Mh r^2 = 83/320 Mh r^2, and it sits at
 *                    d = L/2 + 3r/8 from the capsule centre (parallel axis: + Mh d^2);
 *                    Izz gets 2/5 Mh r^2 per hemisphere.
 *   ellipsoid a,b,c: V = 4/3 pi abc,  Ixx = M (b^2 + c^2) / 5, ...
 *   mesh:            its own volume, centroid and inertia (mesh/mesh.c: the
 *                    divergence theorem over its triangles, or over its hull's
 *                    when the mesh is not closed), about its centroid.
 * (Standard tables, e.g. Meriam & Kraige, Engineering Mechanics: Dynamics, App. D.)
 * Body totals combine shapes by the parallel-axis theorem,
 *   I_body = sum_i rho (R_i I_i R_i^T + V_i (|d_i|^2 E - d_i d_i^T)),  d_i = c_i - c,
 * done in scene.c.  Given inertias are checked through their eigenvalues
 * (cyclic Jacobi rotations on the symmetric 3x3). */
#include <math.h>

#include "scene/scene.h"
#include "scene/scene_internal.h"

double sc_scene_shape_inertia(sc_geom_type type, const double s[3], double I[9]) {
  for (int i = 0; i < 9; i++) I[i] = 0;
  double V = 0, ixx = 0, iyy = 0, izz = 0;
  switch (type) {
    case SC_GEOM_PLANE: return 0;
    case SC_GEOM_SPHERE: {
      double r = s[0];
      V = 4.0 / 3.0 * SC_SCENE_PI * r * r * r;
      ixx = iyy = izz = 0.4 * V * r * r;
      break;
    }
    case SC_GEOM_BOX: {
      double a = s[0], b = s[1], c = s[2];
      V = 8 * a * b * c;
      ixx = V * (b * b + c * c) / 3;
      iyy = V * (a * a + c * c) / 3;
      izz = V * (a * a + b * b) / 3;
      break;
    }
    case SC_GEOM_CYLINDER: {
      double r = s[0], h = s[1];
      V = SC_SCENE_PI * r * r * h;
      izz = 0.5 * V * r * r;
      ixx = iyy = V * (3 * r * r + h * h) / 12;
      break;
    }
    case SC_GEOM_ELLIPSOID: {
      double a = s[0], b = s[1], c = s[2];
      V = 4.0 / 3.0 * SC_SCENE_PI * a * b * c;
      ixx = V * (b * b + c * c) / 5;
      iyy = V * (a * a + c * c) / 5;
      izz = V * (a * a + b * b) / 5;
      break;
    }
    case SC_GEOM_MESH: return 0; /* from the mesh itself (shapes.c) */
    case SC_GEOM_CAPSULE: {
      double r = s[0], L = s[1];
      double Vc = SC_SCENE_PI * r * r * L, Vh = 2.0 / 3.0 * SC_SCENE_PI * r * r * r;
      double d = 0.5 * L + 0.375 * r;
      V = Vc + 2 * Vh;
      izz = 0.5 * Vc * r * r + 2 * 0.4 * Vh * r * r;
      ixx = iyy = Vc * (3 * r * r + L * L) / 12 + 2 * (83.0 / 320.0 * Vh * r * r + Vh * d * d);
      break;
    }
  }
  I[0] = ixx;
  I[4] = iyy;
  I[8] = izz;
  return V;
}

void sc_scene_sym3_eig(const double A[9], double lam[3]) {
  double a[9];
  for (int i = 0; i < 9; i++) a[i] = A[i];
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = fabs(a[1]) + fabs(a[2]) + fabs(a[5]);
    double scale = fabs(a[0]) + fabs(a[4]) + fabs(a[8]);
    if (off <= 1e-15 * scale || off == 0) break;
    for (int p = 0; p < 2; p++) {
      for (int q = p + 1; q < 3; q++) {
        double apq = a[3 * p + q];
        if (apq == 0) continue;
        double app = a[3 * p + p], aqq = a[3 * q + q];
        double th = 0.5 * (aqq - app) / apq;
        double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1));
        double cs = 1 / sqrt(t * t + 1), sn = t * cs;
        /* A <- G^T A G with G the rotation in the (p, q) plane */
        for (int k = 0; k < 3; k++) {
          double akp = a[3 * k + p], akq = a[3 * k + q];
          a[3 * k + p] = cs * akp - sn * akq;
          a[3 * k + q] = sn * akp + cs * akq;
        }
        for (int k = 0; k < 3; k++) {
          double apk = a[3 * p + k], aqk = a[3 * q + k];
          a[3 * p + k] = cs * apk - sn * aqk;
          a[3 * q + k] = sn * apk + cs * aqk;
        }
      }
    }
  }
  lam[0] = a[0];
  lam[1] = a[4];
  lam[2] = a[8];
}
