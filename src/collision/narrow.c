/* narrow: analytic narrow phase and the pair dispatcher.
 *
 * Closed forms (phi = signed gap along n, n from a to b, witness points wa on
 * a's surface and wb on b's, pos = (wa + wb)/2):
 *  - plane (point p0, outward normal z) x shape: phi(q) = z.(q - p0) at the
 *    shape's support points q facing the plane: sphere c - r z; capsule one
 *    point per end (the end sphere's lowest point for the end facing the
 *    plane, the end of the lowest generator line for the other, so both
 *    lie on the surface; lying flat they are the two end spheres' lowest
 *    points); box the 8 corners; cylinder the rim points of each cap
 *    at angles 0, 90, 180, 270 degrees from the deepest rim direction
 *    u = -(z - (z.a) a)/|.| (a = cylinder axis), so a lying cylinder gives its
 *    two end points and a standing one four points around the rim.  Every
 *    point with phi <= margin is kept (then reduced to SC_COL_MANIFOLD).
 *  - sphere x sphere: phi = |cb - ca| - ra - rb, n = (cb - ca)/|cb - ca|.
 *  - sphere x capsule: sphere x sphere with the closest point of the segment.
 *  - sphere x box / cylinder: the closest point q of the solid to the centre
 *    (clamping in the local frame) gives phi = |q - c| - r; a centre inside
 *    uses the nearest face (box) or the nearest of side/caps (cylinder).
 *  - capsule x capsule: segment-segment closest points (Ericson, Real-Time
 *    Collision Detection 5.1.9) then sphere x sphere; (near) parallel
 *    overlapping segments give two points, at the ends of the overlap.
 * Everything else goes to convex.c (GJK / MPR / SAT + feature clipping).
 *
 * Symmetry: the pair is put in a canonical order (by type, then by comparing
 * the pose and size numbers) before any computation and the normals flipped
 * back, so (a, b) and (b, a) give identical points with opposite normals. */
#include "collision/col_internal.h"

#include <math.h>
#include <string.h>

#define MAXP 64 /* candidate points of one pair (a hull face lying on a plane: its vertices) */

int sc_col_supported(sc_geom_type a, sc_geom_type b) {
  if ((int)a < 0 || (int)a >= SC_NGEOMTYPE || (int)b < 0 || (int)b >= SC_NGEOMTYPE) return 0;
  return !(a == SC_GEOM_PLANE && b == SC_GEOM_PLANE);
}

/* append a point (bounded) */
static void emit(sc_col_point* buf, int* n, const double wa[3], const double wb[3],
                 const double nrm[3], double dist) {
  if (*n >= MAXP) return;
  col_point_set(&buf[*n], wa, wb, nrm, dist);
  (*n)++;
}

/* two spheres; `fallback` is the normal when the centres coincide */
static void sphere_sphere(sc_col_point* buf, int* n, const double ca[3], double ra,
                          const double cb[3], double rb, const double fallback[3],
                          double margin) {
  double d[3], nrm[3];
  col_sub(d, cb, ca);
  double L = sqrt(col_dot(d, d));
  double dist = L - ra - rb;
  if (dist > margin) return;
  if (L > 1e-300)
    sc_sp_scale3(nrm, d, 1 / L);
  else
    memcpy(nrm, fallback, sizeof nrm);
  double wa[3], wb[3];
  col_axpy(wa, ca, ra, nrm);
  col_axpy(wb, cb, -rb, nrm);
  emit(buf, n, wa, wb, nrm, dist);
}

/* a point q of b's surface against the plane (p0, z) */
static void plane_point(sc_col_point* buf, int* n, const double p0[3], const double z[3],
                        const double q[3], double margin) {
  double r[3], wa[3];
  col_sub(r, q, p0);
  double dist = col_dot(z, r);
  if (dist > margin) return;
  col_axpy(wa, q, -dist, z);
  emit(buf, n, wa, q, z, dist);
}

/* a mesh's hull against the plane: the vertices with phi <= margin of the
 * flat patch (mesh/mesh.h) of the hull face around the deepest vertex whose
 * normal is closest to -z (its polygon spread over at most MAXP of them).
 * That face is the one turning onto the plane: a prism rolling on its edge gets the edge it pivots on
 * and the edge about to land, where all hull vertices within the margin
 * would bring farther, receding ones, and the reduction to SC_COL_MANIFOLD
 * points could keep those instead of the landing edge. */
static void plane_hull(sc_col_point* buf, int* n, const double p0[3], const double z[3],
                       const sc_col_geom* b, double margin) {
  sc_col_shape S;
  sc_col_shape_make(&S, b);
  double mz[3], q[3], mzl[3];
  sc_sp_scale3(mz, z, -1);
  sc_col_core_support(&S, mz, q);
  const sc_mesh* me = b->mesh;
  const int v = S.hint->v;
  sc_sp_mat3_Tvec(mzl, b->rot, mz); /* the face turned most toward the plane */
  const int bf = col_hull_face(me, v, mzl);
  if (bf < 0) { /* no face (cannot happen on a built hull): the vertex alone */
    plane_point(buf, n, p0, z, q, margin);
    return;
  }
  const int p = me->hface_patch[bf];
  const int a0 = me->hpatch_adr[p], nf = me->hpatch_adr[p + 1] - a0;
  const int nk = nf < MAXP ? nf : MAXP;
  for (int k = 0; k < nk; k++) {
    const int u = me->hpatch[a0 + (int)((long)k * nf / nk)];
    double w[3];
    sc_sp_mat3_vec(w, b->rot, me->hvert + 3 * u);
    sc_sp_add3(q, w, b->pos);
    plane_point(buf, n, p0, z, q, margin);
  }
}

static void plane_shape(sc_col_point* buf, int* n, const double p0[3], const double Rp[9],
                        const sc_col_geom* b, double margin) {
  const sc_geom_type tb = b->type;
  const double *pb = b->pos, *Rb = b->rot, *sb = b->size;
  double z[3], ax[3], q[3];
  col_axis(z, Rp, 2);
  col_axis(ax, Rb, 2);
  switch (tb) {
    case SC_GEOM_SPHERE:
      col_axpy(q, pb, -sb[0], z);
      plane_point(buf, n, p0, z, q, margin);
      break;
    case SC_GEOM_CAPSULE: {
      /* the end pointing toward the plane touches with its sphere's lowest
       * point; the other end with the end of the lowest generator line
       * (e - r m, m = unit part of z normal to the axis), which is the
       * surface point nearest the plane there */
      double m[3];
      col_axpy(m, z, -col_dot(z, ax), ax);
      if (sc_sp_normalize3(m) <= 1e-12) col_axis(m, Rb, 0); /* standing: any radial axis */
      for (int e = -1; e <= 1; e += 2) {
        double c[3];
        col_axpy(c, pb, 0.5 * e * sb[1], ax);
        if (e * col_dot(ax, z) <= 0)
          col_axpy(q, c, -sb[0], z);
        else
          col_axpy(q, c, -sb[0], m);
        plane_point(buf, n, p0, z, q, margin);
      }
      break;
    }
    case SC_GEOM_BOX:
      for (int k = 0; k < 8; k++) {
        double l[3] = {(k & 1 ? 1 : -1) * sb[0], (k & 2 ? 1 : -1) * sb[1],
                       (k & 4 ? 1 : -1) * sb[2]};
        double w[3];
        sc_sp_mat3_vec(w, Rb, l);
        sc_sp_add3(q, w, pb);
        plane_point(buf, n, p0, z, q, margin);
      }
      break;
    case SC_GEOM_CYLINDER: {
      /* u: radial direction toward the plane; v completes the rim basis */
      double u[3], v[3];
      col_axpy(u, z, -col_dot(z, ax), ax);
      sc_sp_scale3(u, u, -1);
      if (sc_sp_normalize3(u) < 1e-9) col_axis(u, Rb, 0); /* standing: any radial axis */
      col_cross(v, ax, u);
      static const double cs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
      for (int e = -1; e <= 1; e += 2) {
        double c[3];
        col_axpy(c, pb, 0.5 * e * sb[1], ax);
        for (int k = 0; k < 4; k++) {
          for (int i = 0; i < 3; i++) q[i] = c[i] + sb[0] * (cs[k][0] * u[i] + cs[k][1] * v[i]);
          plane_point(buf, n, p0, z, q, margin);
        }
      }
      break;
    }
    case SC_GEOM_ELLIPSOID: { /* its support point along -z */
      sc_col_shape S;
      double mz[3];
      sc_col_shape_make(&S, b);
      sc_sp_scale3(mz, z, -1);
      sc_col_core_support(&S, mz, q);
      plane_point(buf, n, p0, z, q, margin);
      break;
    }
    case SC_GEOM_MESH:
      plane_hull(buf, n, p0, z, b, margin);
      break;
    default:
      break;
  }
}

/* closest point of segment c +- h ax to x */
static void segment_closest(double out[3], const double c[3], const double ax[3], double h,
                            const double x[3]) {
  double r[3];
  col_sub(r, x, c);
  double t = col_dot(r, ax);
  t = t < -h ? -h : (t > h ? h : t);
  col_axpy(out, c, t, ax);
}

/* sphere (c, r) x solid box or cylinder b: closest point of b, or the
 * nearest face when the centre is inside */
static void sphere_solid(sc_col_point* buf, int* n, const double c[3], double r,
                         sc_geom_type tb, const double pb[3], const double Rb[9],
                         const double sb[3], double margin) {
  double d[3], cl[3], ql[3];
  col_sub(d, c, pb);
  sc_sp_mat3_Tvec(cl, Rb, d);
  int inside;
  double out_l[3] = {0, 0, 0}; /* outward face normal (local) when inside */
  if (tb == SC_GEOM_BOX) {
    inside = 1;
    for (int i = 0; i < 3; i++) {
      ql[i] = cl[i] < -sb[i] ? -sb[i] : (cl[i] > sb[i] ? sb[i] : cl[i]);
      if (ql[i] != cl[i]) inside = 0;
    }
    if (inside) {
      int best = 0;
      double gap = INFINITY;
      for (int i = 0; i < 3; i++) {
        double g = sb[i] - fabs(cl[i]);
        if (g < gap) {
          gap = g;
          best = i;
        }
      }
      memcpy(ql, cl, sizeof ql);
      ql[best] = cl[best] < 0 ? -sb[best] : sb[best];
      out_l[best] = cl[best] < 0 ? -1 : 1;
    }
  } else { /* cylinder */
    double R = sb[0], h = 0.5 * sb[1];
    double rho = sqrt(cl[0] * cl[0] + cl[1] * cl[1]);
    double ux = rho > 1e-300 ? cl[0] / rho : 1, uy = rho > 1e-300 ? cl[1] / rho : 0;
    double rc = rho > R ? R : rho;
    ql[0] = rc * ux;
    ql[1] = rc * uy;
    ql[2] = cl[2] < -h ? -h : (cl[2] > h ? h : cl[2]);
    inside = rho <= R && fabs(cl[2]) <= h;
    if (inside) {
      double gside = R - rho, gcap = h - fabs(cl[2]);
      memcpy(ql, cl, sizeof ql);
      if (gside < gcap) {
        ql[0] = R * ux;
        ql[1] = R * uy;
        out_l[0] = ux;
        out_l[1] = uy;
      } else {
        ql[2] = cl[2] < 0 ? -h : h;
        out_l[2] = cl[2] < 0 ? -1 : 1;
      }
    }
  }
  double q[3], w[3], nrm[3], wa[3];
  sc_sp_mat3_vec(w, Rb, ql);
  sc_sp_add3(q, w, pb);
  double dist;
  if (inside) {
    double on[3], r2[3];
    sc_sp_mat3_vec(on, Rb, out_l);
    sc_sp_scale3(nrm, on, -1); /* sphere -> box is into the face */
    col_sub(r2, q, c);
    dist = -col_dot(on, r2) - r; /* -(depth of the centre below the face) - r */
  } else {
    col_sub(nrm, q, c);
    double L = sc_sp_normalize3(nrm);
    dist = L - r;
  }
  if (dist > margin) return;
  col_axpy(wa, c, r, nrm);
  emit(buf, n, wa, q, nrm, dist);
}

/* capsule x capsule */
static void capsule_capsule(sc_col_point* buf, int* n, const double pa[3], const double Ra[9],
                            const double sa[3], const double pb[3], const double Rb[9],
                            const double sb[3], double margin) {
  double d1[3], d2[3], r[3], fb[3];
  col_axis(d1, Ra, 2);
  col_axis(d2, Rb, 2);
  col_axis(fb, Ra, 0);
  double h1 = 0.5 * sa[1], h2 = 0.5 * sb[1];
  /* segments P1 + s d1, P2 + t d2 with s in [-h1, h1], t in [-h2, h2] */
  col_sub(r, pa, pb);
  double b = col_dot(d1, d2), c = col_dot(d1, r), f = col_dot(d2, r);
  double den = 1 - b * b; /* unit directions */
  if (den < 1e-10) {
    /* parallel: overlap of b's extent projected on a's axis */
    double cb = -c; /* projection of pb - pa on d1 */
    double lo = fmax(-h1, cb - h2), hi = fmin(h1, cb + h2);
    if (hi - lo > 1e-9 * (h1 + h2 + sa[0] + sb[0])) {
      for (int k = 0; k < 2; k++) {
        double s = k ? hi : lo, x[3], y[3];
        col_axpy(x, pa, s, d1);
        segment_closest(y, pb, d2, h2, x);
        sphere_sphere(buf, n, x, sa[0], y, sb[0], fb, margin);
      }
      return;
    }
  }
  double s, t;
  if (den >= 1e-10) {
    s = (b * f - c) / den;
    s = s < -h1 ? -h1 : (s > h1 ? h1 : s);
  } else {
    s = c > 0 ? -h1 : h1; /* parallel, disjoint extents: the nearer end */
  }
  t = b * s + f;
  if (t < -h2 || t > h2) {
    t = t < -h2 ? -h2 : h2;
    s = b * t - c;
    s = s < -h1 ? -h1 : (s > h1 ? h1 : s);
  }
  double x[3], y[3];
  col_axpy(x, pa, s, d1);
  col_axpy(y, pb, t, d2);
  sphere_sphere(buf, n, x, sa[0], y, sb[0], fb, margin);
}

/* a <= b (type order), canonical */
static int pair_ordered(const sc_col_geom* a, const sc_col_geom* b, double margin,
                        sc_col_point* out, int max) {
  const sc_geom_type ta = a->type, tb = b->type;
  const double *pa = a->pos, *Ra = a->rot, *sa = a->size;
  const double *pb = b->pos, *Rb = b->rot, *sb = b->size;
  sc_col_point buf[MAXP];
  int n = 0;
  if (ta == SC_GEOM_PLANE) {
    plane_shape(buf, &n, pa, Ra, b, margin);
  } else if (ta == SC_GEOM_SPHERE && tb <= SC_GEOM_CYLINDER) {
    double fb[3];
    col_axis(fb, Rb, 0);
    if (tb == SC_GEOM_SPHERE) {
      sphere_sphere(buf, &n, pa, sa[0], pb, sb[0], fb, margin);
    } else if (tb == SC_GEOM_CAPSULE) {
      double ax[3], y[3];
      col_axis(ax, Rb, 2);
      segment_closest(y, pb, ax, 0.5 * sb[1], pa);
      sphere_sphere(buf, &n, pa, sa[0], y, sb[0], fb, margin);
    } else {
      sphere_solid(buf, &n, pa, sa[0], tb, pb, Rb, sb, margin);
    }
  } else if (ta == SC_GEOM_CAPSULE && tb == SC_GEOM_CAPSULE) {
    capsule_capsule(buf, &n, pa, Ra, sa, pb, Rb, sb, margin);
  } else {
    sc_col_shape A, B;
    sc_col_shape_make(&A, a);
    sc_col_shape_make(&B, b);
    n = sc_col_convex(&A, &B, margin, buf, MAXP);
  }
  int limit = max < SC_COL_MANIFOLD ? max : SC_COL_MANIFOLD;
  n = sc_col_reduce(buf, n, limit, sc_col_tie(a->mesh, b->mesh));
  memcpy(out, buf, sizeof(sc_col_point) * (size_t)n);
  return n;
}

/* lexicographic comparison of two shapes' numbers: -1, 0, 1 */
static int shape_cmp(const double pa[3], const double Ra[9], const double sa[3],
                     const double pb[3], const double Rb[9], const double sb[3]) {
  const double* xa[3] = {pa, Ra, sa};
  const double* xb[3] = {pb, Rb, sb};
  static const int len[3] = {3, 9, 3};
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < len[k]; i++) {
      if (xa[k][i] < xb[k][i]) return -1;
      if (xa[k][i] > xb[k][i]) return 1;
    }
  return 0;
}

int sc_col_pair(const sc_col_geom* a, const sc_col_geom* b, double margin, sc_col_point* out,
                int max) {
  if (max <= 0 || !sc_col_supported(a->type, b->type)) return 0;
  int swap = a->type > b->type ||
             (a->type == b->type && shape_cmp(a->pos, a->rot, a->size, b->pos, b->rot, b->size) > 0);
  if (!swap) return pair_ordered(a, b, margin, out, max);
  int n = pair_ordered(b, a, margin, out, max);
  for (int i = 0; i < n; i++) sc_sp_scale3(out[i].normal, out[i].normal, -1);
  return n;
}
