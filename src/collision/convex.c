/* convex: general convex-convex narrow phase (capsule x box, capsule x
 * cylinder, box x box, box x cylinder, cylinder x cylinder).
 *
 * Each shape is a core C (point, segment, box, cylinder) swept by a sphere of
 * radius r, described by its support map s_C(d) = argmax_{x in C} d.x.
 *
 * Separation: GJK (Gilbert, Johnson & Keerthi 1988; closest point of the
 * simplex by Voronoi regions as in Ericson, "Real-Time Collision Detection"
 * 5.1 and 9.5) on the Minkowski difference Ca - Cb gives the exact core
 * distance |v| and witness points; then phi = |v| - ra - rb and
 * n = (wb - wa)/|wb - wa|.  It is exact for separated cores and needs no
 * allocation, which is why it is hand-written rather than taken from libccd
 * (libccd only reports intersection, not distance).
 *
 * Penetration (cores touching): the penetration depth is
 *     depth = min over unit u of f(u),  f(u) = h_A(u) + h_B(-u),
 * (h = support function of the swept shape), the translation of b along u
 * that separates the shapes; the minimizer is the normal from a to b.
 *  - box x box: the separating axis test (15 axes: 3 + 3 face normals and 9
 *    edge cross products) gives the exact minimum.
 *  - two smooth cores (points and ellipsoids: spheres, ellipsoids): f is
 *    smooth, and Newton's method on the sphere from the MPR normal and the
 *    3 best lattice directions gives the minimum to round-off in a few
 *    iterations (smooth_penetration, below).
 *  - a box against a smooth core: f is the largest of its corners' smooth
 *    f, so the minimum is a corner's (Newton), an edge's (Newton along a
 *    great circle) or a face normal's (box_smooth_penetration, below).
 *  - a cylinder or a capsule against a cylinder, a capsule or a smooth
 *    core: a cylinder is the larger of its two rims (flat ellipsoids), a
 *    capsule's core of its two end points, so the minimum is a pair of
 *    rims' (Newton), a side's against a rim (Newton along the side's great
 *    circle), both sides' (the cross product of the axes) or a cap's
 *    (cylinder_penetration, below).
 *  - other pairs: libccd's Minkowski Portal Refinement (ccdMPRPenetration;
 *    Snethen, "XenoCollide", Game Programming Gems 7) gives a start.  MPR
 *    was chosen over libccd's GJK+EPA because it does not allocate (EPA
 *    mallocs its polytope on every call) and is robust on curved shapes, but
 *    its portal normal is only near the minimizer for edge/rim contacts
 *    (measured: 22 degrees and 7% depth off for a rim-rim cylinder pair).  So
 *    f is then evaluated on the axes a separating-axis test would use (box
 *    face normals, cylinder axes, cross products of straight edges) and
 *    minimized locally from the best of them and from the MPR normal by a
 *    pattern search on the sphere whose trial directions include the
 *    central (sub)gradient s_A(u) - s_B(-u); f has ridges where a straight
 *    edge is perpendicular to u (its two ends tie), where such searches
 *    stall, so the great circle of each nearly perpendicular edge is
 *    searched too, and the 3 best of 64 lattice directions are further
 *    starts (f can have several local minima).  A candidate that no small
 *    move (including the ridge and gradient directions) improves, with no
 *    better lattice direction, is accepted at once, which makes resting face
 *    contacts cheap.  The result is a local minimum: exact for face
 *    contacts; for random shallow overlaps in the tests all but 7 of 6000
 *    (200 seeds) were within 1e-6 of a 160x320 direction grid's minimum
 *    (worst 2.2e-3 m too deep; test_collision).  For very deep overlaps (a sizeable fraction of the shapes)
 *    depth and point locations are only approximate.  This search is the
 *    cost of these pairs (it was 0.1-0.3 ms per overlapping cylinder pair
 *    before cylinders had their own search); it remains for a box against
 *    a cylinder or a capsule, and for hulls.
 *
 * Manifold: with the normal n fixed, each shape reports the feature of its
 * surface facing the other (box: the face most aligned with n; cylinder: cap
 * polygon (the rim as an inscribed octagon), side line or rim point;
 * capsule: side line (the generator facing n) or end point), chosen by the
 * angular tolerance FEATURE_TOL.  The features are projected onto the plane
 * normal to n and intersected (Sutherland-Hodgman polygon clipping,
 * Cyrus-Beck segment clipping or segment-segment intersection).  At each
 * vertex q of the intersection the gap is measured along n between the two
 * feature surfaces, phi(q) = h_b(q) - h_a(q), and points with phi <= margin
 * are kept.  A vertex feature gives one point: the vertex and the point of
 * the other feature under it along n (or, when it misses that feature, the
 * nearest point of it in projection).  Separated pairs fall back to GJK's
 * exact witness pair when the clipping gives fewer than 2 points, and add it
 * when it is deeper than all of them.  The set is then reduced to
 * SC_COL_MANIFOLD well-spread points (sc_col_reduce). */
#include "collision/col_internal.h"

#include <ccd/ccd.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

/* The constant directions of the searches below, evaluated once (the same
 * libm calls on the same arguments, so every value is what each call
 * computed before): the 8 compass directions k pi / 4 of the pattern
 * searches and of a cylinder cap's rim, and the 64 points of the Fibonacci
 * lattice on the sphere.  Resting curved contacts (ellipsoids, cylinder
 * rims) go through the search every step, where these cos and sin calls
 * took a tenth of a pile's step. */
static double compass[8][2];  /* cos, sin of k pi / 4 */
static double lattice[64][3]; /* z = 1 - (2k + 1) / 64, golden-angle turns */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_init(void) {
  for (int k = 0; k < 8; k++) {
    compass[k][0] = cos(0.78539816339744831 * k);
    compass[k][1] = sin(0.78539816339744831 * k);
  }
  for (int k = 0; k < 64; k++) {
    double z = 1 - (2 * k + 1) / 64.0, r = sqrt(1 - z * z), ph = 2.39996322972865332 * k;
    lattice[k][0] = r * cos(ph);
    lattice[k][1] = r * sin(ph);
    lattice[k][2] = z;
  }
}

static void tables(void) { pthread_once(&tables_once, tables_init); }

/* the most vertices a contact feature keeps (a hull face with more is
 * represented by that many of its vertices, spread evenly along it) */
#define MAXF 32
/* the most face normals and edges per shape tried as penetration axes */
#define MAXAX 16
/* hulls of at most this many vertices are scanned rather than walked: the
 * walk's bookkeeping costs more than a scan of a few vertices (measured by
 * bin/mesh_bench: a cube's support takes 19 ns walking, 8 ns scanning; the
 * two cost the same near 60 vertices) */
#define HULL_SCAN_MAX 32


void sc_col_shape_make(sc_col_shape* s, const sc_col_geom* g) {
  const double* size = g->size;
  memcpy(s->p, g->pos, sizeof s->p);
  memcpy(s->R, g->rot, sizeof s->R);
  memcpy(s->c, g->pos, sizeof s->c);
  s->hs[0] = s->hs[1] = s->hs[2] = 0;
  s->radius = 0;
  s->mesh = NULL;
  s->hint_store.v = -1; /* the mesh's table of starts */
  s->hint = &s->hint_store;
  s->scan = 0;
  switch (g->type) {
    case SC_GEOM_SPHERE:
      s->core = SC_CORE_POINT;
      s->radius = size[0];
      break;
    case SC_GEOM_CAPSULE:
      s->core = SC_CORE_SEGMENT;
      s->radius = size[0];
      s->hs[2] = 0.5 * size[1];
      break;
    case SC_GEOM_BOX:
      s->core = SC_CORE_BOX;
      memcpy(s->hs, size, sizeof s->hs);
      break;
    case SC_GEOM_ELLIPSOID:
      s->core = SC_CORE_ELLIPSOID;
      memcpy(s->hs, size, sizeof s->hs);
      break;
    case SC_GEOM_MESH: {
      s->core = SC_CORE_HULL;
      memcpy(s->hs, size, sizeof s->hs);
      s->mesh = g->mesh;
      double w[3];
      sc_sp_mat3_vec(w, s->R, g->mesh->centroid);
      sc_sp_add3(s->c, s->p, w);
      break;
    }
    case SC_GEOM_CYLINDER:
    default:
      s->core = SC_CORE_CYLINDER;
      s->hs[0] = size[0];
      s->hs[2] = 0.5 * size[1];
      break;
  }
}

static double sgn(double x) { return x < 0 ? -1.0 : 1.0; }

/* support of the ellipsoid x^2/a^2 + y^2/b^2 + z^2/c^2 <= 1 (semi-axes r)
 * in local direction d: x = D^2 d / |D d|, D = diag(r) */
static void ellipsoid_support(const double r[3], const double d[3], double x[3]) {
  double q[3], nn = 0;
  for (int i = 0; i < 3; i++) {
    q[i] = r[i] * r[i] * d[i];
    nn += q[i] * d[i];
  }
  nn = sqrt(nn);
  for (int i = 0; i < 3; i++) x[i] = nn > 1e-300 ? q[i] / nn : 0;
}

/* The feature of a hull facing local direction dl (any length), as hull
 * vertex indices: the flat patch of the face around the support vertex
 * most aligned with dl when the patch's normal is within asin(tol) of dl
 * (its polygon, at most maxn vertices spread evenly along it when it has
 * more), else the edge from it closest to perpendicular to dl when within
 * asin(tol) of it, else the vertex.  Returns the count. */
static int hull_feature(const sc_col_shape* s, const double dl[3], double tol, int* idx,
                        int maxn) {
  const sc_mesh* me = s->mesh;
  const int v = sc_mesh_support(me, dl, s->hint->v);
  s->hint->v = v;
  const double len = sqrt(col_dot(dl, dl));
  if (!(len > 1e-300)) {
    idx[0] = v;
    return 1;
  }
  const int bf = col_hull_face(me, v, dl);
  if (bf >= 0) {
    const int p = me->hface_patch[bf];
    if (col_dot(me->hpatch_plane + 4 * p, dl) / len >= sqrt(1 - tol * tol)) {
      const int a0 = me->hpatch_adr[p], nf = me->hpatch_adr[p + 1] - a0;
      const int n = nf < maxn ? nf : maxn;
      for (int k = 0; k < n; k++) idx[k] = me->hpatch[a0 + (int)((long)k * nf / n)];
      return n;
    }
  }
  const double* x = me->hvert + 3 * v;
  int be = -1;
  double bs = tol;
  for (int k = me->hadj_adr[v]; k < me->hadj_adr[v + 1]; k++) {
    const int u = me->hadj[k];
    double e[3];
    col_sub(e, me->hvert + 3 * u, x);
    const double el = sqrt(col_dot(e, e));
    if (!(el > 0)) continue;
    const double c = fabs(col_dot(e, dl)) / (el * len);
    if (c < bs) {
      bs = c;
      be = u;
    }
  }
  idx[0] = v;
  if (be < 0) return 1;
  idx[1] = be;
  return 2;
}

void sc_col_core_support(const sc_col_shape* s, const double d[3], double out[3]) {
  double dl[3], xl[3] = {0, 0, 0};
  sc_sp_mat3_Tvec(dl, s->R, d);
  switch (s->core) {
    case SC_CORE_POINT:
      break;
    case SC_CORE_SEGMENT:
      xl[2] = sgn(dl[2]) * s->hs[2];
      break;
    case SC_CORE_BOX:
      for (int i = 0; i < 3; i++) xl[i] = sgn(dl[i]) * s->hs[i];
      break;
    case SC_CORE_CYLINDER: {
      double rho = sqrt(dl[0] * dl[0] + dl[1] * dl[1]);
      if (rho > 1e-300) {
        xl[0] = s->hs[0] * dl[0] / rho;
        xl[1] = s->hs[0] * dl[1] / rho;
      }
      xl[2] = sgn(dl[2]) * s->hs[2];
      break;
    }
    case SC_CORE_ELLIPSOID:
      ellipsoid_support(s->hs, dl, xl);
      break;
    case SC_CORE_HULL: {
      /* from the last answer when the direction turned by less than about
       * the table's cell (11 degrees), else from the table */
      const double len = sqrt(col_dot(dl, dl));
      sc_col_hint* h = s->hint;
      const int start = h->v >= 0 && col_dot(dl, h->dir) > 0.98 * len ? h->v : -1;
      const int i = s->scan || s->mesh->hnvert <= HULL_SCAN_MAX ? sc_mesh_support_scan(s->mesh, dl)
                                                               : sc_mesh_support(s->mesh, dl, start);
      h->v = i;
      if (len > 0) sc_sp_scale3(h->dir, dl, 1 / len);
      memcpy(xl, s->mesh->hvert + 3 * i, sizeof xl);
      break;
    }
  }
  double xw[3];
  sc_sp_mat3_vec(xw, s->R, xl);
  sc_sp_add3(out, xw, s->p);
}

/* ---- GJK ---- */

typedef struct gjk_vert {
  double w[3], a[3], b[3]; /* w = a - b */
} gjk_vert;

/* Closest point to the origin on the simplex s[0..n); reduces the simplex to
 * the smallest sub-simplex containing it and writes barycentric weights.
 * Returns the new vertex count, or 0 when a tetrahedron contains the origin. */
static int closest_segment(gjk_vert* s, double* lam) {
  double ab[3];
  col_sub(ab, s[1].w, s[0].w);
  double den = col_dot(ab, ab);
  double t = den > 0 ? -col_dot(s[0].w, ab) / den : 0;
  if (t <= 0) {
    lam[0] = 1;
    return 1;
  }
  if (t >= 1) {
    s[0] = s[1];
    lam[0] = 1;
    return 1;
  }
  lam[0] = 1 - t;
  lam[1] = t;
  return 2;
}

static int closest_triangle(gjk_vert* s, double* lam) {
  /* Ericson 5.1.5 with p = origin */
  const double *a = s[0].w, *b = s[1].w, *c = s[2].w;
  double ab[3], ac[3], ap[3], bp[3], cp[3];
  col_sub(ab, b, a);
  col_sub(ac, c, a);
  sc_sp_scale3(ap, a, -1);
  double d1 = col_dot(ab, ap), d2 = col_dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) {
    lam[0] = 1;
    return 1;
  }
  sc_sp_scale3(bp, b, -1);
  double d3 = col_dot(ab, bp), d4 = col_dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) {
    s[0] = s[1];
    lam[0] = 1;
    return 1;
  }
  double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    double v = d1 / (d1 - d3);
    lam[0] = 1 - v;
    lam[1] = v;
    return 2;
  }
  sc_sp_scale3(cp, c, -1);
  double d5 = col_dot(ab, cp), d6 = col_dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) {
    s[0] = s[2];
    lam[0] = 1;
    return 1;
  }
  double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    double w = d2 / (d2 - d6);
    s[1] = s[2];
    lam[0] = 1 - w;
    lam[1] = w;
    return 2;
  }
  double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    s[0] = s[1];
    s[1] = s[2];
    lam[0] = 1 - w;
    lam[1] = w;
    return 2;
  }
  double den = va + vb + vc;
  if (!(den > 0)) { /* degenerate triangle: fall back to its best edge */
    return closest_segment(s, lam);
  }
  double v = vb / den, w = vc / den;
  lam[0] = 1 - v - w;
  lam[1] = v;
  lam[2] = w;
  return 3;
}

static void combine(const gjk_vert* s, const double* lam, int n, double v[3], double pa[3],
                    double pb[3]) {
  for (int k = 0; k < 3; k++) v[k] = pa[k] = pb[k] = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) {
      v[k] += lam[i] * s[i].w[k];
      pa[k] += lam[i] * s[i].a[k];
      pb[k] += lam[i] * s[i].b[k];
    }
}

static int closest_tetra(gjk_vert* s, double* lam) {
  /* for each face whose outer side holds the origin, the closest point on it;
   * keep the best.  No such face: the origin is inside. */
  static const int face[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  double best = INFINITY;
  gjk_vert bs[3];
  double bl[3] = {0, 0, 0};
  int bn = -1;
  /* a flat tetrahedron cannot contain the origin (round-off would make the
   * side tests unreliable): then every face is a candidate */
  double e1[3], e2[3], e3[3], cr[3], len = 0;
  col_sub(e1, s[1].w, s[0].w);
  col_sub(e2, s[2].w, s[0].w);
  col_sub(e3, s[3].w, s[0].w);
  col_cross(cr, e1, e2);
  len = fmax(fmax(col_dot(e1, e1), col_dot(e2, e2)), col_dot(e3, e3));
  int flat = fabs(col_dot(cr, e3)) <= 1e-9 * len * sqrt(len);
  for (int f = 0; f < 4; f++) {
    const double *a = s[face[f][0]].w, *b = s[face[f][1]].w, *c = s[face[f][2]].w,
                 *d = s[face[f][3]].w;
    double ab[3], ac[3], nrm[3], ad[3];
    col_sub(ab, b, a);
    col_sub(ac, c, a);
    col_cross(nrm, ab, ac);
    col_sub(ad, d, a);
    double sd = col_dot(nrm, ad), so = -col_dot(nrm, a);
    if (!flat && sd * so >= 0 && sd != 0) continue; /* origin on the same side as d */
    gjk_vert t[3] = {s[face[f][0]], s[face[f][1]], s[face[f][2]]};
    double l[3];
    int n = closest_triangle(t, l);
    double v[3], pa[3], pb[3];
    combine(t, l, n, v, pa, pb);
    double vv = col_dot(v, v);
    if (vv < best) {
      best = vv;
      bn = n;
      memcpy(bs, t, sizeof bs);
      memcpy(bl, l, sizeof bl);
    }
  }
  if (bn < 0) return 0;
  memcpy(s, bs, sizeof bs);
  memcpy(lam, bl, sizeof bl);
  return bn;
}

int sc_col_gjk(const sc_col_shape* A, const sc_col_shape* B, double cutoff, double* dist,
               double wa[3], double wb[3]) {
  gjk_vert s[4];
  double lam[4] = {1, 0, 0, 0};
  int n = 1;
  double d[3], nd[3];
  col_sub(d, B->p, A->p);
  if (col_dot(d, d) == 0) d[0] = 1;
  sc_sp_scale3(nd, d, -1);
  /* first vertex: the pair of support points facing each other */
  sc_col_core_support(A, d, s[0].a);
  sc_col_core_support(B, nd, s[0].b);
  col_sub(s[0].w, s[0].a, s[0].b);
  double v[3], pa[3], pb[3];
  memcpy(v, s[0].w, sizeof v);
  memcpy(pa, s[0].a, sizeof pa);
  memcpy(pb, s[0].b, sizeof pb);
  double scale = 1e-300 + fabs(A->hs[0]) + fabs(A->hs[1]) + fabs(A->hs[2]) + fabs(B->hs[0]) +
                 fabs(B->hs[1]) + fabs(B->hs[2]) + sqrt(col_dot(v, v));
  double vv = col_dot(v, v);
  for (int it = 0; it < 128; it++) {
    if (vv <= 1e-24 * scale * scale) return 0; /* touching */
    gjk_vert w;
    sc_sp_scale3(nd, v, -1);
    sc_col_core_support(A, nd, w.a);
    sc_col_core_support(B, v, w.b);
    col_sub(w.w, w.a, w.b);
    /* converged: the support plane is within round-off of v */
    double vw = col_dot(v, w.w);
    if (vv - vw <= 1e-13 * vv) break;
    /* v.w/|v| is a lower bound on the distance: far enough, stop early */
    if (vw > 0 && vw * vw > cutoff * cutoff * vv) {
      *dist = vw / sqrt(vv);
      return 2;
    }
    int dup = 0;
    for (int i = 0; i < n; i++) {
      double e[3];
      col_sub(e, w.w, s[i].w);
      if (col_dot(e, e) <= 1e-26 * scale * scale) dup = 1;
    }
    if (dup) break;
    s[n++] = w;
    if (n == 2)
      n = closest_segment(s, lam);
    else if (n == 3)
      n = closest_triangle(s, lam);
    else
      n = closest_tetra(s, lam);
    if (n == 0) return 0; /* origin inside the tetrahedron */
    double v2[3], pa2[3], pb2[3];
    combine(s, lam, n, v2, pa2, pb2);
    double vv2 = col_dot(v2, v2);
    if (vv2 >= vv) break; /* no progress: keep the previous estimate */
    memcpy(v, v2, sizeof v);
    memcpy(pa, pa2, sizeof pa);
    memcpy(pb, pb2, sizeof pb);
    vv = vv2;
  }
  if (vv <= 1e-24 * scale * scale) return 0;
  *dist = sqrt(vv);
  memcpy(wa, pa, 3 * sizeof(double));
  memcpy(wb, pb, 3 * sizeof(double));
  return 1;
}

/* ---- MPR via libccd on the full (swept) shapes ---- */

static void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const sc_col_shape* s = obj;
  double d[3] = {dir->v[0], dir->v[1], dir->v[2]}, x[3];
  sc_col_core_support(s, d, x);
  if (s->radius > 0) {
    double nd = sqrt(col_dot(d, d));
    if (nd > 0) col_axpy(x, x, s->radius / nd, d);
  }
  for (int i = 0; i < 3; i++) out->v[i] = x[i];
}

static void ccd_center(const void* obj, ccd_vec3_t* c) {
  const sc_col_shape* s = obj;
  for (int i = 0; i < 3; i++) c->v[i] = s->c[i];
}

/* Penetration by MPR: 1 with depth, unit normal (a to b) and midpoint. */
static int mpr(const sc_col_shape* a, const sc_col_shape* b, double* depth, double n[3],
               double pos[3]) {
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccd_support;
  ccd.support2 = ccd_support;
  ccd.center1 = ccd_center;
  ccd.center2 = ccd_center;
  ccd.max_iterations = 200;
  ccd.mpr_tolerance = 1e-12;
  ccd_real_t dep;
  ccd_vec3_t dir, p;
  if (ccdMPRPenetration(a, b, &ccd, &dep, &dir, &p) != 0) return 0;
  double dn[3] = {dir.v[0], dir.v[1], dir.v[2]};
  if (sc_sp_normalize3(dn) == 0) return 0;
  *depth = dep;
  memcpy(n, dn, sizeof dn);
  for (int i = 0; i < 3; i++) pos[i] = p.v[i];
  return 1;
}

/* ---- penetration normal refinement (see the file header) ---- */

static void full_support(const sc_col_shape* s, const double d[3], double out[3]) {
  sc_col_core_support(s, d, out);
  if (s->radius > 0) col_axpy(out, out, s->radius, d);
}

static double overlap_along(const sc_col_shape* a, const sc_col_shape* b, const double u[3]) {
  double mu[3], x[3], y[3];
  sc_sp_scale3(mu, u, -1);
  full_support(a, u, x);
  full_support(b, mu, y);
  return col_dot(u, x) - col_dot(u, y);
}

/* support point with ties broken toward the middle of the tied feature
 * (face centre, edge midpoint, cap centre): at a kink of the support
 * function this is the central element of its subdifferential */
static void central_support(const sc_col_shape* s, const double d[3], double out[3]) {
  const double eps = 1e-9;
  double dl[3], xl[3] = {0, 0, 0};
  sc_sp_mat3_Tvec(dl, s->R, d);
  double cz = fabs(dl[2]) < eps ? 0 : sgn(dl[2]);
  switch (s->core) {
    case SC_CORE_POINT:
      break;
    case SC_CORE_SEGMENT:
      xl[2] = cz * s->hs[2];
      break;
    case SC_CORE_BOX:
      for (int i = 0; i < 3; i++) xl[i] = fabs(dl[i]) < eps ? 0 : sgn(dl[i]) * s->hs[i];
      break;
    case SC_CORE_CYLINDER: {
      double rho = sqrt(dl[0] * dl[0] + dl[1] * dl[1]);
      if (rho >= eps) {
        xl[0] = s->hs[0] * dl[0] / rho;
        xl[1] = s->hs[0] * dl[1] / rho;
      }
      xl[2] = cz * s->hs[2];
      break;
    }
    case SC_CORE_ELLIPSOID:
      ellipsoid_support(s->hs, dl, xl);
      break;
    case SC_CORE_HULL: { /* the mean of the tied feature's vertices */
      int idx[MAXF];
      const int n = hull_feature(s, dl, eps, idx, MAXF);
      for (int k = 0; k < n; k++) col_axpy(xl, xl, 1.0 / n, s->mesh->hvert + 3 * idx[k]);
      break;
    }
  }
  double xw[3];
  sc_sp_mat3_vec(xw, s->R, xl);
  sc_sp_add3(out, xw, s->p);
  if (s->radius > 0) col_axpy(out, out, s->radius, d);
}

/* -grad f at u, tangent to the sphere: f(u) = u.(s_A(u) - s_B(-u)) is
 * positively homogeneous, so its gradient is s_A(u) - s_B(-u) (at kinks the
 * central subgradient); returns 0 when it vanishes */
static int descent_dir(const sc_col_shape* a, const sc_col_shape* b, const double u[3],
                       double t[3]) {
  double mu[3], x[3], y[3], g[3];
  sc_sp_scale3(mu, u, -1);
  central_support(a, u, x);
  central_support(b, mu, y);
  col_sub(g, x, y);
  col_axpy(t, g, -col_dot(g, u), u);
  sc_sp_scale3(t, t, -1);
  return sc_sp_normalize3(t) > 1e-12;
}

static void try_axis(const sc_col_shape* a, const sc_col_shape* b, const double v[3],
                     double u[3], double* f) {
  double w[3] = {v[0], v[1], v[2]};
  if (sc_sp_normalize3(w) < 1e-9) return;
  for (int sg = 0; sg < 2; sg++) {
    double fv = overlap_along(a, b, w);
    if (fv < *f) {
      *f = fv;
      memcpy(u, w, sizeof w);
    }
    sc_sp_scale3(w, w, -1);
  }
}

/* the most axes a hull brings of each kind */
#define HULL_AXES 4

/* keep the n (<= cap) local axes with the lowest scores, in world */
static void keep_best(double ax[MAXAX][3], double* score, int* n, int cap, const double al[3],
                      double sc, const double R[9]) {
  int at = *n;
  if (*n == cap) {
    at = 0;
    for (int i = 1; i < cap; i++)
      if (score[i] > score[at]) at = i;
    if (!(sc < score[at])) return;
  } else {
    (*n)++;
  }
  score[at] = sc;
  sc_sp_mat3_vec(ax[at], R, al);
}

/* axes that can carry a flat feature: box face normals; cylinder axis; and
 * straight edges (box edges, segment and cylinder side lines); for a hull,
 * the faces and edges around its support vertex along d (the direction
 * from s toward the other shape), at most MAXAX of each */
static int shape_axes(const sc_col_shape* s, const double d[3], double face[MAXAX][3],
                      int* nface, double edge[MAXAX][3]) {
  *nface = 0;
  int nedge = 0;
  if (s->core == SC_CORE_BOX) {
    for (int j = 0; j < 3; j++) {
      col_axis(face[j], s->R, j);
      col_axis(edge[j], s->R, j);
    }
    *nface = 3;
    nedge = 3;
  } else if (s->core == SC_CORE_CYLINDER) {
    col_axis(face[0], s->R, 2);
    col_axis(edge[0], s->R, 2);
    *nface = 1;
    nedge = 1;
  } else if (s->core == SC_CORE_SEGMENT) {
    col_axis(edge[0], s->R, 2);
    nedge = 1;
  } else if (s->core == SC_CORE_HULL) {
    /* the HULL_AXES patch normals around the support vertex closest to d,
     * and the HULL_AXES edges from it closest to perpendicular to d (an
     * edge carrying an edge-edge contact is perpendicular to the normal):
     * a valence-16 vertex would otherwise bring 256 edge pairs */
    const sc_mesh* me = s->mesh;
    double dl[3], fs[MAXAX], es[MAXAX];
    sc_sp_mat3_Tvec(dl, s->R, d);
    const int v = sc_mesh_support(me, dl, s->hint->v);
    s->hint->v = v;
    for (int k = me->hvf_adr[v]; k < me->hvf_adr[v + 1]; k++) {
      const double* pn = me->hpatch_plane + 4 * me->hface_patch[me->hvf[k]];
      keep_best(face, fs, nface, HULL_AXES, pn, -col_dot(pn, dl), s->R);
    }
    for (int k = me->hadj_adr[v]; k < me->hadj_adr[v + 1]; k++) {
      double e[3];
      col_sub(e, me->hvert + 3 * me->hadj[k], me->hvert + 3 * v);
      const double el = sqrt(col_dot(e, e));
      if (!(el > 0)) continue;
      sc_sp_scale3(e, e, 1 / el);
      keep_best(edge, es, &nedge, HULL_AXES, e, fabs(col_dot(e, dl)), s->R);
    }
  }
  return nedge;
}

static void refine_from(const sc_col_shape* a, const sc_col_shape* b, double u[3], double* f) {
  tables();
  double step = 0.05;
  for (int it = 0; it < 400 && step > 1e-9; it++) {
    double t1[3], t2[3], best[3], fb = *f, gd[3];
    sc_sp_tangents(t1, t2, u);
    int has_g = descent_dir(a, b, u, gd);
    for (int k = 0; k < 9; k++) {
      double c = compass[k & 7][0] * step, sn = compass[k & 7][1] * step;
      double v[3];
      if (k == 8) { /* along the (sub)gradient */
        if (!has_g) break;
        col_axpy(v, u, step, gd);
      } else {
        for (int i = 0; i < 3; i++) v[i] = u[i] + c * t1[i] + sn * t2[i];
      }
      sc_sp_normalize3(v);
      double fv = overlap_along(a, b, v);
      if (fv < fb) {
        fb = fv;
        memcpy(best, v, sizeof v);
      }
    }
    if (fb < *f) {
      *f = fb;
      memcpy(u, best, sizeof best);
    } else {
      step *= 0.5;
    }
  }
}

/* pattern search over the great circle normal to the unit edge e */
static void refine_circle(const sc_col_shape* a, const sc_col_shape* b, const double e[3],
                          double u[3], double* f) {
  double q[3];
  col_cross(q, e, u);
  double step = 0.05;
  for (int it = 0; it < 200 && step > 1e-10; it++) {
    int moved = 0;
    for (int sg = -1; sg <= 1 && !moved; sg += 2) {
      double c = cos(sg * step), sn = sin(sg * step), v[3], w[3];
      for (int i = 0; i < 3; i++) {
        v[i] = c * u[i] + sn * q[i];
        w[i] = c * q[i] - sn * u[i];
      }
      double fv = overlap_along(a, b, v);
      if (fv < *f) {
        *f = fv;
        memcpy(u, v, 3 * sizeof(double));
        memcpy(q, w, sizeof q);
        moved = 1;
      }
    }
    if (!moved) step *= 0.5;
  }
}

/* 1 if no small move around u lowers f: 8 directions, plus the directions
 * along the ridges of the given edges (great circles normal to them) */
static int is_local_min(const sc_col_shape* a, const sc_col_shape* b, const double u[3],
                        double f, double edges[][3], int ne) {
  tables();
  double t1[3], t2[3];
  sc_sp_tangents(t1, t2, u);
  double dirs[8 + 4 * MAXAX + 1][3];
  int nd = 0;
  if (descent_dir(a, b, u, dirs[nd])) nd++;
  for (int k = 0; k < 8; k++) {
    double c = compass[k][0], sn = compass[k][1];
    for (int i = 0; i < 3; i++) dirs[nd][i] = c * t1[i] + sn * t2[i];
    nd++;
  }
  for (int k = 0; k < ne; k++) {
    double t[3];
    col_cross(t, edges[k], u);
    if (sc_sp_normalize3(t) < 1e-9) continue;
    memcpy(dirs[nd++], t, sizeof t);
    sc_sp_scale3(dirs[nd++], t, -1);
  }
  for (int k = 0; k < nd; k++) {
    double v[3];
    col_axpy(v, u, 1e-6, dirs[k]);
    sc_sp_normalize3(v);
    if (overlap_along(a, b, v) < f) return 0;
  }
  return 1;
}

/* the 3 lattice directions of least f, in lu with their f in lf (ascending) */
static void lattice_best3(const sc_col_shape* a, const sc_col_shape* b, double lu[3][3], double lf[3]) {
  tables();
  lf[0] = lf[1] = lf[2] = INFINITY;
  for (int k = 0; k < 64; k++) {
    const double* v = lattice[k];
    const double fv = overlap_along(a, b, v);
    for (int j = 0; j < 3; j++)
      if (fv < lf[j]) { /* insert, keeping lf sorted */
        for (int m = 2; m > j; m--) {
          lf[m] = lf[m - 1];
          memcpy(lu[m], lu[m - 1], sizeof lu[0]);
        }
        lf[j] = fv;
        memcpy(lu[j], v, sizeof lu[j]);
        break;
      }
  }
}

/* ---- smooth pairs: Newton's method on the sphere ----
 * When both cores are points or ellipsoids, f(u) = h_A(u) + h_B(-u) is
 * smooth.  An ellipsoid's support function is h(u) = sqrt(u.Q u) + p.u with
 * Q = R diag(a^2) R^T (a point's: p.u; the sweep radius adds a constant on
 * the unit sphere, with no tangential gradient or curvature), so with
 * s = sqrt(u.Q u), for the term of B evaluated at -u as for A at u up to
 * the sign of p:
 *   grad = Q u / s +- p,   hess = Q / s - (Q u)(Q u)^T / s^3.
 * A minimizer on the unit sphere has zero tangential gradient g = P grad f
 * (P = I - u u^T); Newton's step in the tangent plane solves
 *   (P hess f P - (u . grad f) P) xi = -g
 * (the Riemannian Hessian of f on the sphere: Absil, Mahony & Sepulchre,
 * "Optimization Algorithms on Matrix Manifolds", 2008, 5.5), then
 * u <- (u + xi) / |u + xi|, halving xi while f does not decrease.  Near a
 * non-degenerate minimum it converges quadratically: a few iterations
 * where the pattern search below needs about 2000 evaluations of f (the
 * resting ellipsoids of a pile paid half their step's time there). */
static int smooth_core(const sc_col_shape* s) {
  return s->core == SC_CORE_POINT || s->core == SC_CORE_ELLIPSOID;
}

/* Q = R diag(a^2) R^T of an ellipsoid core (zero for a point) */
static void smooth_Q(const sc_col_shape* s, double Q[9]) {
  for (int i = 0; i < 9; i++) Q[i] = 0;
  if (s->core != SC_CORE_ELLIPSOID) return;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++) Q[3 * i + j] += s->R[3 * i + k] * (s->hs[k] * s->hs[k]) * s->R[3 * j + k];
}

static void smooth_terms(const sc_col_shape* s, double sg, const double u[3], double G[3], double H[9]) {
  for (int i = 0; i < 3; i++) G[i] += sg * s->p[i];
  if (s->core != SC_CORE_ELLIPSOID) return;
  double ul[3], t[3], Qu[3], a2[3];
  for (int k = 0; k < 3; k++) a2[k] = s->hs[k] * s->hs[k];
  sc_sp_mat3_Tvec(ul, s->R, u);
  for (int k = 0; k < 3; k++) t[k] = a2[k] * ul[k];
  sc_sp_mat3_vec(Qu, s->R, t);
  const double q = col_dot(u, Qu), sq = sqrt(q);
  if (!(sq > 0)) return;
  double Q[9];
  smooth_Q(s, Q);
  for (int i = 0; i < 3; i++) {
    G[i] += Qu[i] / sq;
    for (int j = 0; j < 3; j++) H[3 * i + j] += Q[3 * i + j] / sq - Qu[i] * Qu[j] / (q * sq);
  }
}

/* Newton's method from u (unit) to a local minimum of f (steepest descent
 * where the Hessian is not yet positive definite); u and the return value
 * are the minimizer and f there */
static double smooth_newton(const sc_col_shape* a, const sc_col_shape* b, double u[3]) {
  double f = overlap_along(a, b, u);
  for (int it = 0; it < 40; it++) {
    double G[3] = {0, 0, 0}, H[9] = {0}, t1[3], t2[3], Ht1[3], Ht2[3];
    smooth_terms(a, 1.0, u, G, H);
    smooth_terms(b, -1.0, u, G, H);
    sc_sp_tangents(t1, t2, u);
    const double g1 = col_dot(t1, G), g2 = col_dot(t2, G);
    if (hypot(g1, g2) <= 1e-15 * sqrt(col_dot(G, G))) break;
    const double ug = col_dot(u, G);
    sc_sp_mat3_vec(Ht1, H, t1);
    sc_sp_mat3_vec(Ht2, H, t2);
    const double h11 = col_dot(t1, Ht1) - ug, h12 = col_dot(t1, Ht2), h22 = col_dot(t2, Ht2) - ug;
    const double det = h11 * h22 - h12 * h12;
    const int newton = h11 > 0 && det > 0;
    double x1, x2;
    if (newton) {
      x1 = (-g1 * h22 + g2 * h12) / det, x2 = (-g2 * h11 + g1 * h12) / det;
      /* a turn of 1e-12 rad changes f by (curvature) 1e-24: converged */
      if (hypot(x1, x2) < 1e-12) break;
    } else {
      /* not yet where f curves up in every direction: down the tangential
       * gradient, a turn of at most 0.3 rad, halved until f decreases */
      const double gn = hypot(g1, g2), turn = fmin(0.3, gn / (fabs(ug) + gn));
      x1 = -turn * g1 / gn, x2 = -turn * g2 / gn;
    }
    int moved = 0;
    for (double al = 1.0; al > (newton ? 0.05 : 1e-4) && !moved; al *= 0.5) {
      double v[3];
      for (int i = 0; i < 3; i++) v[i] = u[i] + al * (x1 * t1[i] + x2 * t2[i]);
      sc_sp_normalize3(v);
      const double fv = overlap_along(a, b, v);
      if (fv <= f) {
        moved = 1;
        f = fv;
        memcpy(u, v, sizeof v);
      }
    }
    if (!moved) break; /* at the round-off floor of f */
  }
  return f;
}

/* the depth and normal of two smooth cores: Newton's method from the MPR
 * normal and from the 3 best of the 64 lattice directions (f may have
 * several local minima), the least minimum kept; 0 when Newton's method
 * cannot run from one of them (then the general search runs) */
static int smooth_penetration(const sc_col_shape* a, const sc_col_shape* b, double n[3], double* depth) {
  double lu[3][3], lf[3];
  lattice_best3(a, b, lu, lf);
  double u[3] = {n[0], n[1], n[2]};
  if (sc_sp_normalize3(u) < 1e-9) memcpy(u, lu[0], sizeof u);
  double best = smooth_newton(a, b, u);
  if (isnan(best)) return 0;
  double bu[3] = {u[0], u[1], u[2]};
  for (int j = 0; j < 3; j++) {
    const double fj = smooth_newton(a, b, lu[j]);
    if (isnan(fj)) return 0;
    if (fj < best) {
      best = fj;
      memcpy(bu, lu[j], sizeof bu);
    }
  }
  memcpy(n, bu, sizeof bu);
  *depth = best;
  return 1;
}

/* ---- a box against a smooth core ----
 * The box's support function is the largest of its corners', so
 *   f(u) = max_k f_k(u),   f_k(u) = c_k . u + h_B(-u)   (+ the box's radius),
 * each f_k the smooth f of the point c_k against the smooth shape B.  At the
 * minimizer either one corner is the box's support (a corner contact: a
 * minimum of that f_k inside the cone of directions where c_k is the
 * support), or the two corners of an edge tie (an edge contact: a minimum
 * of f on the quarter of the great circle normal to the edge where that
 * edge is the support), or a face's four corners tie (a face contact: u is
 * the face normal).  Each is found exactly (Newton's method for the corners
 * as for two smooth cores; a one-dimensional Newton's method along the
 * circle for the edges, with u(t) = cos t a1 + sin t a2, u' = w, u'' = -u:
 *   g = m.u + s(u) - p_B.u,  s = sqrt(u.Q u),
 *   g' = (m - p_B).w + u.Q w / s,
 *   g'' = -(m - p_B).u + (w.Q w - u.Q u) / s - (u.Q w)^2 / s^3,
 * m the edge's midpoint) and the least is kept.  A lattice direction with a
 * lower f than the result sends the pair to the general search. */
static double edge_newton(const sc_col_shape* B, const double Q[9], const double m[3], const double a1[3],
                          const double a2[3], double t, double u[3]) {
  double d[3];
  col_sub(d, m, B->p);
  for (int it = 0; it < 40; it++) {
    const double c = cos(t), sn = sin(t);
    double w[3], Qu[3], Qw[3];
    for (int i = 0; i < 3; i++) u[i] = c * a1[i] + sn * a2[i], w[i] = -sn * a1[i] + c * a2[i];
    sc_sp_mat3_vec(Qu, Q, u);
    sc_sp_mat3_vec(Qw, Q, w);
    const double uQu = col_dot(u, Qu), sq = sqrt(uQu), uQw = col_dot(u, Qw);
    double g1 = col_dot(d, w), g2 = -col_dot(d, u);
    if (sq > 0) g1 += uQw / sq, g2 += (col_dot(w, Qw) - uQu) / sq - uQw * uQw / (uQu * sq);
    const double step = g2 > 0 ? -g1 / g2 : (g1 > 0 ? -0.1 : 0.1);
    t += fmax(-0.5, fmin(0.5, step));
    if (fabs(step) < 1e-13) break;
  }
  const double c = cos(t), sn = sin(t);
  for (int i = 0; i < 3; i++) u[i] = c * a1[i] + sn * a2[i];
  return t;
}

/* a (a box) against b (a point or an ellipsoid core): 1 with n (a to b) and
 * depth, 0 to leave the pair to the general search */
static int box_smooth_penetration(const sc_col_shape* a, const sc_col_shape* b, double n[3],
                                  double* depth) {
  double ax[3][3], best = INFINITY, bu[3] = {0, 0, 1}, Q[9];
  for (int i = 0; i < 3; i++) col_axis(ax[i], a->R, i);
  smooth_Q(b, Q);
  /* faces */
  for (int i = 0; i < 3; i++)
    for (int sg = -1; sg <= 1; sg += 2) {
      double u[3];
      sc_sp_scale3(u, ax[i], sg);
      const double f = overlap_along(a, b, u);
      if (f < best) best = f, memcpy(bu, u, sizeof bu);
    }
  /* the cone of corner sgn: (R^T u)_i sgn_i >= 0 for every i */
  const double tol = 1e-12;
  for (int k = 0; k < 8; k++) {
    const double sg[3] = {k & 1 ? 1.0 : -1.0, k & 2 ? 1.0 : -1.0, k & 4 ? 1.0 : -1.0};
    sc_col_shape corner;
    memset(&corner, 0, sizeof corner);
    corner.core = SC_CORE_POINT;
    corner.radius = a->radius;
    sc_sp_mat3_identity(corner.R);
    memcpy(corner.p, a->p, sizeof corner.p);
    for (int i = 0; i < 3; i++) col_axpy(corner.p, corner.p, sg[i] * a->hs[i], ax[i]);
    double u[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) col_axpy(u, u, sg[i], ax[i]);
    sc_sp_normalize3(u);
    const double fk = smooth_newton(&corner, b, u);
    if (isnan(fk)) return 0;
    int inside = 1;
    for (int i = 0; i < 3; i++) inside &= col_dot(u, ax[i]) * sg[i] >= -tol;
    if (inside && fk < best) best = fk, memcpy(bu, u, sizeof bu);
    /* the edges from this corner along the axes where it is the + end */
    for (int i = 0; i < 3; i++) {
      if (sg[i] < 0) continue;
      const int j = (i + 1) % 3, l = (i + 2) % 3;
      double m[3], a1[3], a2[3], ue[3];
      col_axpy(m, corner.p, -a->hs[i], ax[i]); /* the edge's midpoint */
      sc_sp_scale3(a1, ax[j], sg[j]);
      sc_sp_scale3(a2, ax[l], sg[l]);
      edge_newton(b, Q, m, a1, a2, 0.78539816339744831, ue);
      if (col_dot(ue, a1) < -tol || col_dot(ue, a2) < -tol) continue; /* left its quarter */
      const double fe = overlap_along(a, b, ue);
      if (fe < best) best = fe, memcpy(bu, ue, sizeof bu);
    }
  }
  /* a safety net: no lattice direction may do better */
  tables();
  for (int k = 0; k < 64; k++)
    if (overlap_along(a, b, lattice[k]) < best - 1e-12 * (1 + fabs(best))) return 0;
  memcpy(n, bu, sizeof bu);
  *depth = best;
  return 1;
}

/* ---- cylinders: rims, side and caps ----
 * A cylinder's support function is the larger of its two rims':
 *   h(u) = max over s = +-1 of  (p + s l a).u + r |P u|,   P = I - a a^T,
 * (a its axis, l its half length, r its radius), and each rim's is that of
 * a flat ellipsoid of semi-axes (r, r, 0) centred on the rim: smooth except
 * at the poles u = +-a.  So with b a cylinder or a smooth core,
 *   f(u) = h_A(u) + h_B(-u)
 * is smooth inside each region where one rim of each cylinder is the
 * support, and its minimum is one of
 *   - a rim against a rim or a smooth core: Newton's method on the two
 *     smooth pieces (smooth_newton), kept when those pieces are the
 *     supports there (the rim's side of the cylinder's equator);
 *   - the side of one cylinder (u on the great circle normal to its axis,
 *     where its rims tie and h = p.u + r) against a rim or a smooth core:
 *     Newton's method along that circle, as for a box's edge (edge_newton);
 *   - both sides: u = +-(a_A x a_B) normalized;
 *   - a cap: u = +-a (the pole's kink).
 * A capsule's core (a segment) is handled alike: its "rims" are its end
 * points and its side the great circle normal to it.  f has several local
 * minima, so Newton's method runs from several starts: MPR's normal and
 * the 3 best of the 64 lattice directions (each with the pieces that
 * support there), each region's own best lattice direction, each rim's
 * pole tilted by 0.05 rad (a rim seen nearly edge-on curves sharply, and
 * Newton's method from afar stalls short of a minimum next to its pole),
 * and, for the sides, the projections of these and of the other's poles
 * onto the circle.  The least f over all of them is kept; a lattice
 * direction doing better sends the pair to the general search.  Accepting
 * a cap or both sides at once when no small move improves them, as the
 * general search does, is not safe: measured, it missed the least minimum
 * in 73 of 100 seeds of test_cylinder_penetration, as the general search
 * did in 21 of 40 (by up to 2.2e-2 m), against one by 2.6e-8 m here.  The cost: 0.37
 * M instructions per overlapping cylinder pair on humanoid100.xml's
 * bodies, where the general search's pattern search took 1.6 M. */

/* a cylinder or a segment (a capsule's core): the two are handled alike, a
 * segment's "rims" being its end points and its "side" the great circle
 * normal to it (where h = p.u) */
static int axial_core(const sc_col_shape* s) {
  return s->core == SC_CORE_CYLINDER || s->core == SC_CORE_SEGMENT;
}

/* the rim of c on the side s of its equator: a flat ellipsoid (a cylinder)
 * or a point (a segment's end) */
static void cylinder_rim(const sc_col_shape* c, double s, sc_col_shape* rim) {
  memset(rim, 0, sizeof *rim);
  rim->core = c->core == SC_CORE_CYLINDER ? SC_CORE_ELLIPSOID : SC_CORE_POINT;
  rim->radius = c->radius;
  memcpy(rim->R, c->R, sizeof rim->R);
  rim->hs[0] = rim->hs[1] = c->hs[0];
  double ax[3];
  col_axis(ax, c->R, 2);
  col_axpy(rim->p, c->p, s * c->hs[2], ax);
  memcpy(rim->c, rim->p, sizeof rim->c);
  rim->hint = &rim->hint_store;
}

/* the smooth pieces of s: a cylinder's or a segment's two rims, or s
 * itself; returns their count */
static int pieces(const sc_col_shape* s, sc_col_shape p[2]) {
  if (!axial_core(s)) {
    p[0] = *s;
    p[0].hint = &p[0].hint_store;
    return 1;
  }
  cylinder_rim(s, 1.0, &p[0]);
  cylinder_rim(s, -1.0, &p[1]);
  return 2;
}

/* 1 when piece (a rim of s, or s itself) is s's support along d */
static int piece_holds(const sc_col_shape* s, const sc_col_shape* piece, const double d[3]) {
  if (!axial_core(s)) return 1;
  double ax[3], off[3];
  col_axis(ax, s->R, 2);
  col_sub(off, piece->p, s->p);
  return col_dot(off, ax) * col_dot(d, ax) >= -1e-12 * (s->hs[2] + 1e-300);
}

/* the index of s's piece (of np) supporting along sg u */
static int piece_at(const sc_col_shape* s, int np, const double u[3], double sg) {
  if (np < 2) return 0;
  double ax[3];
  col_axis(ax, s->R, 2);
  return sg * col_dot(u, ax) < 0;
}

static void keep_least(const sc_col_shape* a, const sc_col_shape* b, const double u[3], double* best,
                       double bu[3]) {
  const double f = overlap_along(a, b, u);
  if (f < *best) {
    *best = f;
    memcpy(bu, u, 3 * sizeof(double));
  }
}

/* a (a cylinder or a segment) against b (one of those or a smooth core):
 * 1 with n (a to b) and depth, 0 to leave the pair to the general search */
static int cylinder_penetration(const sc_col_shape* a, const sc_col_shape* b, double n[3],
                                double* depth) {
  double ax[2][3];
  col_axis(ax[0], a->R, 2);
  if (axial_core(b)) col_axis(ax[1], b->R, 2);
  const int ncyl = axial_core(b) ? 2 : 1;
  const sc_col_shape* sh[2] = {a, b};
  double best = INFINITY, bu[3] = {0, 0, 1};
  /* caps (a segment has none: its ends are points) */
  for (int c = 0; c < ncyl; c++)
    for (int sg = -1; sg <= 1 && sh[c]->core == SC_CORE_CYLINDER; sg += 2) {
      double u[3];
      sc_sp_scale3(u, ax[c], sg);
      keep_least(a, b, u, &best, bu);
    }
  /* both sides */
  if (ncyl == 2) {
    double u[3];
    col_cross(u, ax[0], ax[1]);
    if (sc_sp_normalize3(u) > 1e-9) {
      keep_least(a, b, u, &best, bu);
      sc_sp_scale3(u, u, -1);
      keep_least(a, b, u, &best, bu);
    }
  }
  /* the starts: MPR's normal, the 3 best lattice directions, and each
   * pair of pieces' best lattice direction in its own region */
  tables();
  double st[4][3], lf0 = INFINITY;
  int nstart = 0;
  memcpy(st[0], n, sizeof st[0]);
  if (sc_sp_normalize3(st[0]) > 1e-9) nstart = 1;
  sc_col_shape pa[2], pb[2];
  const int npa = pieces(a, pa), npb = pieces(b, pb);
  double rf[2][2] = {{INFINITY, INFINITY}, {INFINITY, INFINITY}}, ru[2][2][3], lf[3], lu[3][3];
  lf[0] = lf[1] = lf[2] = INFINITY;
  for (int k = 0; k < 64; k++) {
    const double* v = lattice[k];
    const int i = npa == 2 && col_dot(v, ax[0]) < 0, j = npb == 2 && -col_dot(v, ax[1]) < 0;
    const double fv = overlap_along(a, b, v);
    if (fv < rf[i][j]) rf[i][j] = fv, memcpy(ru[i][j], v, sizeof ru[i][j]);
    for (int r = 0; r < 3; r++)
      if (fv < lf[r]) { /* insert, keeping lf sorted */
        for (int m = 2; m > r; m--) lf[m] = lf[m - 1], memcpy(lu[m], lu[m - 1], sizeof lu[0]);
        lf[r] = fv;
        memcpy(lu[r], v, sizeof lu[r]);
        break;
      }
  }
  lf0 = lf[0];
  int nlat = 0;
  for (int r = 0; r < 3; r++)
    if (isfinite(lf[r])) memcpy(st[nstart++], lu[r], sizeof st[0]), nlat++;
  /* from each start, the pieces supporting there; from each region's best
   * lattice direction, that region's pieces (a region holding no start
   * can still hold the least minimum) */
  for (int k = -4; k < nstart; k++) {
    int i, j;
    double u[3], mu[3];
    if (k < 0) {
      i = (k + 4) >> 1, j = (k + 4) & 1;
      if (i >= npa || j >= npb || !isfinite(rf[i][j])) continue;
      int dup = 0; /* one of the lattice starts below: the same run */
      for (int r = nstart - nlat; r < nstart; r++) dup |= memcmp(st[r], ru[i][j], sizeof st[r]) == 0;
      if (dup) continue;
      memcpy(u, ru[i][j], sizeof u);
    } else {
      memcpy(u, st[k], sizeof u);
      i = piece_at(a, npa, u, 1.0), j = piece_at(b, npb, u, -1.0);
    }
    if (isnan(smooth_newton(&pa[i], &pb[j], u))) return 0;
    sc_sp_scale3(mu, u, -1);
    if (piece_holds(a, &pa[i], u) && piece_holds(b, &pb[j], mu)) keep_least(a, b, u, &best, bu);
  }
  /* a rim seen from near its pole curves sharply (its support's
   * curvature grows as 1 / |P u|), where Newton's method from the starts
   * above can stall: each rim again from its pole tilted by 0.05 rad
   * toward the best direction so far and toward the line of the centres,
   * against the other's piece there */
  for (int c = 0; c < ncyl; c++) {
    if (sh[c]->core != SC_CORE_CYLINDER) continue;
    for (int r = 0; r < 4; r++) {
      /* rim r / 2's pole in terms of u (b's support is along -u), tilted
       * toward the best direction (r even) or the line of the centres */
      double pole[3], w[3], u[3], mu[3], dir[3];
      sc_sp_scale3(pole, ax[c], (r < 2 ? 1.0 : -1.0) * (c == 0 ? 1.0 : -1.0));
      if (r & 1) col_sub(dir, b->c, a->c);
      else memcpy(dir, bu, sizeof dir);
      col_axpy(w, dir, -col_dot(dir, pole), pole);
      if (sc_sp_normalize3(w) < 1e-9) continue;
      for (int q = 0; q < 3; q++) u[q] = pole[q] + 0.05 * w[q];
      sc_sp_normalize3(u);
      const int i = c == 0 ? r / 2 : piece_at(a, npa, u, 1.0), j = c == 1 ? r / 2 : piece_at(b, npb, u, -1.0);
      if (isnan(smooth_newton(&pa[i], &pb[j], u))) return 0;
      sc_sp_scale3(mu, u, -1);
      if (piece_holds(a, &pa[i], u) && piece_holds(b, &pb[j], mu)) keep_least(a, b, u, &best, bu);
    }
  }
  /* a side (u normal to its axis) against the other's piece, from the
   * starts' projections on its great circle and from the other's poles'
   * (a rim seen nearly edge-on curves sharply; its minimum along the
   * circle is then next to the pole's projection) */
  for (int c = 0; c < ncyl; c++) {
    double cs[6][3];
    int ncs = 0;
    for (int k = 0; k < nstart; k++) memcpy(cs[ncs++], st[k], sizeof cs[0]);
    if (ncyl == 2) {
      memcpy(cs[ncs++], ax[1 - c], sizeof cs[0]);
      sc_sp_scale3(cs[ncs++], ax[1 - c], -1);
    }
    for (int k = 0; k < ncs; k++) {
      double a1[3], a2[3], ue[3], mu[3], q[9];
      col_axpy(a1, cs[k], -col_dot(cs[k], ax[c]), ax[c]);
      if (sc_sp_normalize3(a1) < 1e-9) continue;
      col_cross(a2, ax[c], a1);
      if (c == 0) { /* a's side: h_A(u) = p_A.u + r; b's piece at -u */
        const sc_col_shape* o = &pb[piece_at(b, npb, a1, -1.0)];
        smooth_Q(o, q);
        edge_newton(o, q, a->p, a1, a2, 0.0, ue);
        sc_sp_scale3(mu, ue, -1);
        if (piece_holds(b, o, mu)) keep_least(a, b, ue, &best, bu);
      } else { /* b's side: h_B(-u) = -p_B.u + r; a's piece at u */
        const sc_col_shape* o = &pa[piece_at(a, npa, a1, 1.0)];
        smooth_Q(o, q);
        edge_newton(b, q, o->p, a1, a2, 0.0, ue);
        if (piece_holds(a, o, ue)) keep_least(a, b, ue, &best, bu);
      }
    }
  }
  /* a safety net: no lattice direction may do better */
  if (!(best <= lf0 + 1e-12 * (1 + fabs(best)))) return 0;
  memcpy(n, bu, sizeof bu);
  *depth = best;
  return 1;
}

/* refine the MPR normal n (a to b) and depth in place */
static void refine_penetration(const sc_col_shape* a, const sc_col_shape* b, double n[3],
                               double* depth) {
  if (smooth_core(a) && smooth_core(b) && smooth_penetration(a, b, n, depth)) return;
  if (a->core == SC_CORE_BOX && smooth_core(b) && box_smooth_penetration(a, b, n, depth)) return;
  if (b->core == SC_CORE_BOX && smooth_core(a)) {
    double m[3];
    if (box_smooth_penetration(b, a, m, depth)) { /* b against a: the normal turned */
      sc_sp_scale3(n, m, -1);
      return;
    }
  }
  if (axial_core(a) && (axial_core(b) || smooth_core(b)) && cylinder_penetration(a, b, n, depth))
    return;
  if (axial_core(b) && smooth_core(a)) {
    double m[3];
    sc_sp_scale3(m, n, -1);
    if (cylinder_penetration(b, a, m, depth)) { /* b against a: the normal turned */
      sc_sp_scale3(n, m, -1);
      return;
    }
  }
  double u[3], f = INFINITY;
  try_axis(a, b, n, u, &f);
  double fa[MAXAX][3], fb[MAXAX][3], ea[MAXAX][3], eb[MAXAX][3], mn[3];
  int nfa, nfb;
  sc_sp_scale3(mn, n, -1);
  int nea = shape_axes(a, n, fa, &nfa, ea), neb = shape_axes(b, mn, fb, &nfb, eb);
  for (int i = 0; i < nfa; i++) try_axis(a, b, fa[i], u, &f);
  for (int i = 0; i < nfb; i++) try_axis(a, b, fb[i], u, &f);
  for (int i = 0; i < nea; i++)
    for (int j = 0; j < neb; j++) {
      double c[3];
      col_cross(c, ea[i], eb[j]);
      try_axis(a, b, c, u, &f);
    }
  /* a candidate that no small move improves is a kink minimum (face
   * contacts, the common resting case): done */
  double edges[2 * MAXAX][3];
  int ne = 0;
  for (int i = 0; i < nea; i++) memcpy(edges[ne++], ea[i], sizeof edges[0]);
  for (int i = 0; i < neb; i++) memcpy(edges[ne++], eb[i], sizeof edges[0]);
  /* f can have several local minima: also start from the 3 best of 64
   * directions spread over the sphere (a Fibonacci lattice) */
  double lu[3][3], lf[3];
  lattice_best3(a, b, lu, lf);
  double fc = lf[0];
  if (!(fc < f) && is_local_min(a, b, u, f, edges, ne)) {
    memcpy(n, u, 3 * sizeof(double));
    *depth = f;
    return;
  }
  double un[3], fn = INFINITY;
  try_axis(a, b, n, un, &fn);
  refine_from(a, b, u, &f);
  double du[3];
  col_sub(du, un, u);
  if (col_dot(du, du) > 1e-6) { /* MPR's normal is a distinct start */
    refine_from(a, b, un, &fn);
    if (fn < f) {
      f = fn;
      memcpy(u, un, sizeof u);
    }
  }
  for (int j = 0; j < 3; j++) {
    refine_from(a, b, lu[j], &lf[j]);
    if (lf[j] < f) {
      f = lf[j];
      memcpy(u, lu[j], sizeof u);
    }
  }
  /* f has ridges where a straight edge is exactly perpendicular to u (the
   * edge's two ends tie); the free search stalls on them, so search the
   * great circles of the edges nearly perpendicular to u, then search
   * freely again from the best */
  double u0[3];
  memcpy(u0, u, sizeof u0);
  int moved = 0;
  for (int k = 0; k < ne; k++) {
    if (fabs(col_dot(u0, edges[k])) > 0.5) continue;
    double uc[3];
    col_axpy(uc, u0, -col_dot(u0, edges[k]), edges[k]);
    if (sc_sp_normalize3(uc) < 1e-9) continue;
    fc = overlap_along(a, b, uc);
    refine_circle(a, b, edges[k], uc, &fc);
    if (fc < f) {
      f = fc;
      memcpy(u, uc, sizeof u);
      moved = 1;
    }
  }
  if (moved) refine_from(a, b, u, &f);
  /* f(u) is the translation of b along u that separates the shapes, so the
   * minimizer is already oriented from a to b */
  memcpy(n, u, sizeof u);
  *depth = f;
}

/* ---- box x box separating axis test (overlapping boxes) ---- */

/* Minimum penetration over the 15 SAT axes; 1 with depth > 0 and the unit
 * axis oriented from a to b, 0 if some axis separates. */
static int box_sat(const sc_col_shape* a, const sc_col_shape* b, double* depth, double n[3]) {
  double ax[3][3], bx[3][3], cpq[3];
  for (int j = 0; j < 3; j++) {
    col_axis(ax[j], a->R, j);
    col_axis(bx[j], b->R, j);
  }
  col_sub(cpq, b->p, a->p);
  double best = INFINITY, bn[3] = {0, 0, 1};
  for (int k = 0; k < 15; k++) {
    double u[3];
    if (k < 3)
      memcpy(u, ax[k], sizeof u);
    else if (k < 6)
      memcpy(u, bx[k - 3], sizeof u);
    else
      col_cross(u, ax[(k - 6) / 3], bx[(k - 6) % 3]);
    double len = sqrt(col_dot(u, u));
    if (len < 1e-9) continue; /* parallel edges: covered by the face axes */
    sc_sp_scale3(u, u, 1 / len);
    double ra = 0, rb = 0;
    for (int j = 0; j < 3; j++) {
      ra += a->hs[j] * fabs(col_dot(ax[j], u));
      rb += b->hs[j] * fabs(col_dot(bx[j], u));
    }
    double c = col_dot(cpq, u);
    double pen = ra + rb - fabs(c);
    /* GJK found the cores touching: an axis that separates them by round-off
     * only is the touching face's, not a reason to give up the test (the
     * caller would fall back to the line between the centres, and a box
     * resting exactly on another measured 0.3 m deep along it) */
    if (pen < -1e-12 * (ra + rb + fabs(c))) return 0;
    /* prefer face axes over edge axes on near ties: they give better manifolds */
    double bias = k < 6 ? 0 : 1e-9 * (ra + rb);
    if (pen + bias < best) {
      best = pen + bias;
      *depth = pen;
      for (int i = 0; i < 3; i++) bn[i] = c < 0 ? -u[i] : u[i];
    }
  }
  memcpy(n, bn, sizeof bn);
  return 1;
}

/* ---- contact features ---- */

/* below this |cos| an axis is taken as perpendicular to the normal */
#define FEATURE_TOL 0.02

/* The feature of s's surface facing direction d (unit, world): 1 vertex, 2
 * (a segment) or >= 3 (a convex polygon in order).  Returns the count. */
static int feature(const sc_col_shape* s, const double d[3], double V[MAXF][3]) {
  double dl[3];
  sc_sp_mat3_Tvec(dl, s->R, d);
  double L[MAXF][3];
  int m = 0;
  switch (s->core) {
    case SC_CORE_POINT:
      L[0][0] = L[0][1] = L[0][2] = 0;
      m = 1;
      break;
    case SC_CORE_SEGMENT:
      L[0][0] = L[0][1] = 0;
      L[0][2] = sgn(dl[2]) * s->hs[2];
      m = 1;
      if (fabs(dl[2]) < FEATURE_TOL) {
        memcpy(L[1], L[0], sizeof L[0]);
        L[0][2] = -s->hs[2];
        L[1][2] = s->hs[2];
        m = 2;
      }
      break;
    case SC_CORE_BOX: {
      /* the face whose normal is most aligned with d, whatever the tilt:
       * an edge or a corner facing the other shape is part of it, and the
       * face's other corners, measured along n, are kept when within the
       * margin.  A tilted box landing on a box is then held at all the
       * corners that reach the other in the step; with only the corner
       * facing n it turned about that corner and drove another through the
       * lower box (a column of four tilted boxes dropped at dt = 5 ms:
       * 78 mm deep, 8.8 mm now; test_contact_physics) */
      const int i0 = fabs(dl[0]) >= fabs(dl[1]) && fabs(dl[0]) >= fabs(dl[2]) ? 0
                     : fabs(dl[1]) >= fabs(dl[2])                              ? 1
                                                                               : 2;
      const int f0 = i0 == 0 ? 1 : 0, f1 = i0 == 2 ? 1 : 2;
      static const double sg[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
      for (int k = 0; k < 4; k++) {
        L[k][i0] = sgn(dl[i0]) * s->hs[i0];
        L[k][f0] = sg[k][0] * s->hs[f0];
        L[k][f1] = sg[k][1] * s->hs[f1];
      }
      m = 4;
      break;
    }
    case SC_CORE_CYLINDER: {
      double rho = sqrt(dl[0] * dl[0] + dl[1] * dl[1]);
      double r = s->hs[0], h = s->hs[2];
      if (rho < FEATURE_TOL) {
        /* cap: the rim as an inscribed octagon */
        tables();
        for (int k = 0; k < 8; k++) { /* 2 pi k / 8 */
          L[k][0] = r * compass[k][0];
          L[k][1] = r * compass[k][1];
          L[k][2] = sgn(dl[2]) * h;
        }
        m = 8;
      } else {
        double ux = dl[0] / rho, uy = dl[1] / rho;
        L[0][0] = r * ux;
        L[0][1] = r * uy;
        L[0][2] = sgn(dl[2]) * h;
        m = 1;
        if (fabs(dl[2]) < FEATURE_TOL) {
          memcpy(L[1], L[0], sizeof L[0]);
          L[0][2] = -h;
          L[1][2] = h;
          m = 2;
        }
      }
      break;
    }
    case SC_CORE_ELLIPSOID:
    case SC_CORE_HULL:
      break;
  }
  if (s->core == SC_CORE_ELLIPSOID) {
    ellipsoid_support(s->hs, dl, L[0]);
    m = 1;
  } else if (s->core == SC_CORE_HULL) {
    int idx[MAXF];
    m = hull_feature(s, dl, FEATURE_TOL, idx, MAXF);
    for (int k = 0; k < m; k++) memcpy(L[k], s->mesh->hvert + 3 * idx[k], sizeof L[k]);
  }
  /* swept radius: a vertex moves along d (the support point); a capsule's
   * side line moves along the part of d normal to the axis, which keeps it
   * on the surface (the generator line facing d) */
  double off[3] = {d[0], d[1], d[2]};
  if (s->core == SC_CORE_SEGMENT && m == 2) {
    double ax[3];
    col_axis(ax, s->R, 2);
    col_axpy(off, d, -col_dot(d, ax), ax);
    sc_sp_normalize3(off);
  }
  for (int k = 0; k < m; k++) {
    double xw[3];
    sc_sp_mat3_vec(xw, s->R, L[k]);
    sc_sp_add3(V[k], xw, s->p);
    if (s->radius > 0) col_axpy(V[k], V[k], s->radius, off);
  }
  return m;
}

/* ---- clipping in the plane normal to n ---- */

typedef struct plane2 {
  double o[3], t1[3], t2[3], n[3];
} plane2;

static void proj2(double q[2], const plane2* P, const double x[3]) {
  double r[3];
  col_sub(r, x, P->o);
  q[0] = col_dot(r, P->t1);
  q[1] = col_dot(r, P->t2);
}

static double cross2(const double a[2], const double b[2], const double c[2]) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/* Height along n of feature F (m vertices) above the plane point q. */
static double feature_height(const plane2* P, double F[MAXF][3], int m, const double q[2]) {
  if (m >= 3) {
    double N[3] = {0, 0, 0};
    for (int i = 0; i < m; i++) { /* Newell's normal */
      const double *u = F[i], *v = F[(i + 1) % m];
      N[0] += (u[1] - v[1]) * (u[2] + v[2]);
      N[1] += (u[2] - v[2]) * (u[0] + v[0]);
      N[2] += (u[0] - v[0]) * (u[1] + v[1]);
    }
    double x[3], r[3];
    for (int i = 0; i < 3; i++) x[i] = P->o[i] + q[0] * P->t1[i] + q[1] * P->t2[i];
    col_sub(r, F[0], x);
    return col_dot(N, r) / col_dot(N, P->n);
  }
  double r[3];
  if (m == 2) {
    double q0[2], q1[2];
    proj2(q0, P, F[0]);
    proj2(q1, P, F[1]);
    double e[2] = {q1[0] - q0[0], q1[1] - q0[1]};
    double ee = e[0] * e[0] + e[1] * e[1];
    double s = ee > 0 ? ((q[0] - q0[0]) * e[0] + (q[1] - q0[1]) * e[1]) / ee : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    double x[3];
    for (int i = 0; i < 3; i++) x[i] = F[0][i] + s * (F[1][i] - F[0][i]);
    col_sub(r, x, P->o);
    return col_dot(r, P->n);
  }
  col_sub(r, F[0], P->o);
  return col_dot(r, P->n);
}

#define MAXQ (2 * MAXF + 8) /* a MAXF-gon clipped by a MAXF-gon has at most 2 MAXF */

/* Sutherland-Hodgman: clip polygon S (ns) by convex CCW polygon C (nc). */
static int clip_poly(double S[MAXQ][2], int ns, double C[MAXF][2], int nc) {
  double T[MAXQ][2];
  for (int e = 0; e < nc && ns > 0; e++) {
    const double *c0 = C[e], *c1 = C[(e + 1) % nc];
    int nt = 0;
    for (int i = 0; i < ns; i++) {
      const double *p = S[i], *q = S[(i + 1) % ns];
      double fp = cross2(c0, c1, p), fq = cross2(c0, c1, q);
      if (fp >= 0 && nt < MAXQ) {
        T[nt][0] = p[0];
        T[nt][1] = p[1];
        nt++;
      }
      if (((fp >= 0) != (fq >= 0)) && nt < MAXQ) {
        double t = fp / (fp - fq);
        T[nt][0] = p[0] + t * (q[0] - p[0]);
        T[nt][1] = p[1] + t * (q[1] - p[1]);
        nt++;
      }
    }
    memcpy(S, T, sizeof(double) * 2 * (size_t)nt);
    ns = nt;
  }
  return ns;
}

/* Cyrus-Beck: clip segment a-b by convex CCW polygon C; writes 0 or 2 points. */
static int clip_segment(const double a[2], const double b[2], double C[MAXF][2], int nc,
                        double out[2][2]) {
  double t0 = 0, t1 = 1;
  for (int e = 0; e < nc; e++) {
    double fa = cross2(C[e], C[(e + 1) % nc], a), fb = cross2(C[e], C[(e + 1) % nc], b);
    if (fa < 0 && fb < 0) return 0;
    if (fa < 0)
      t0 = fmax(t0, fa / (fa - fb));
    else if (fb < 0)
      t1 = fmin(t1, fa / (fa - fb));
  }
  if (t0 > t1) return 0;
  for (int k = 0; k < 2; k++) {
    double t = k ? t1 : t0;
    out[k][0] = a[0] + t * (b[0] - a[0]);
    out[k][1] = a[1] + t * (b[1] - a[1]);
  }
  return 2;
}

/* Two segments in the plane: their overlap (2 points) when collinear, their
 * crossing (1 point), or nothing. */
static int clip_seg_seg(const double a0[2], const double a1[2], const double b0[2],
                        const double b1[2], double tol, double out[2][2]) {
  double ea[2] = {a1[0] - a0[0], a1[1] - a0[1]}, eb[2] = {b1[0] - b0[0], b1[1] - b0[1]};
  double la = sqrt(ea[0] * ea[0] + ea[1] * ea[1]), lb = sqrt(eb[0] * eb[0] + eb[1] * eb[1]);
  if (la < tol || lb < tol) return 0;
  double den = ea[0] * eb[1] - ea[1] * eb[0];
  double w[2] = {b0[0] - a0[0], b0[1] - a0[1]};
  if (fabs(den) <= 1e-9 * la * lb) {
    /* parallel: collinear within tol? then the overlap of the parameters */
    if (fabs(ea[0] * w[1] - ea[1] * w[0]) / la > tol) return 0;
    double s0 = (w[0] * ea[0] + w[1] * ea[1]) / (la * la);
    double s1 = ((b1[0] - a0[0]) * ea[0] + (b1[1] - a0[1]) * ea[1]) / (la * la);
    double lo = fmax(0, fmin(s0, s1)), hi = fmin(1, fmax(s0, s1));
    if (lo > hi) return 0;
    for (int k = 0; k < 2; k++) {
      double s = k ? hi : lo;
      out[k][0] = a0[0] + s * ea[0];
      out[k][1] = a0[1] + s * ea[1];
    }
    return 2;
  }
  double s = (w[0] * eb[1] - w[1] * eb[0]) / den;
  double t = (w[0] * ea[1] - w[1] * ea[0]) / den;
  double sl = tol / la, tl = tol / lb;
  if (s < -sl || s > 1 + sl || t < -tl || t > 1 + tl) return 0;
  out[0][0] = a0[0] + s * ea[0];
  out[0][1] = a0[1] + s * ea[1];
  return 1;
}

/* closest points of two plane segments p0-p1 (param s) and q0-q1 (t);
 * returns the squared distance (Ericson 5.1.9) */
static double closest_seg2(const double p0[2], const double p1[2], const double q0[2],
                           const double q1[2], double* s, double* t) {
  double d1[2] = {p1[0] - p0[0], p1[1] - p0[1]}, d2[2] = {q1[0] - q0[0], q1[1] - q0[1]};
  double r[2] = {p0[0] - q0[0], p0[1] - q0[1]};
  double a = d1[0] * d1[0] + d1[1] * d1[1], e = d2[0] * d2[0] + d2[1] * d2[1];
  double f = d2[0] * r[0] + d2[1] * r[1];
  double ss = 0, tt = 0;
  if (a <= 1e-300 && e <= 1e-300) {
    ss = tt = 0;
  } else if (a <= 1e-300) {
    tt = fmin(1, fmax(0, f / e));
  } else {
    double c = d1[0] * r[0] + d1[1] * r[1];
    if (e <= 1e-300) {
      ss = fmin(1, fmax(0, -c / a));
    } else {
      double b = d1[0] * d2[0] + d1[1] * d2[1], den = a * e - b * b;
      ss = den > 0 ? fmin(1, fmax(0, (b * f - c * e) / den)) : 0;
      tt = (b * ss + f) / e;
      if (tt < 0) {
        tt = 0;
        ss = fmin(1, fmax(0, -c / a));
      } else if (tt > 1) {
        tt = 1;
        ss = fmin(1, fmax(0, (b - c) / a));
      }
    }
  }
  *s = ss;
  *t = tt;
  double dx = p0[0] + ss * d1[0] - q0[0] - tt * d2[0], dy = p0[1] + ss * d1[1] - q0[1] - tt * d2[1];
  return dx * dx + dy * dy;
}

/* Manifold from the features of a (facing n) and b (facing -n).  Writes the
 * candidate points with phi <= margin into out[0..) (at most MAXQ). */
static int manifold(const sc_col_shape* a, const sc_col_shape* b, const double n[3],
                    const double o[3], double margin, double scale, int single,
                    sc_col_point* out) {
  double FA[MAXF][3], FB[MAXF][3], mn[3];
  sc_sp_scale3(mn, n, -1);
  int ma = feature(a, n, FA), mb = feature(b, mn, FB);
  if ((ma < 2 || mb < 2) && !single) return 0;
  plane2 P;
  memcpy(P.o, o, sizeof P.o);
  memcpy(P.n, n, sizeof P.n);
  sc_sp_tangents(P.t1, P.t2, n);
  double A2[MAXF][2] = {{0}}, B2[MAXF][2] = {{0}};
  for (int i = 0; i < ma; i++) proj2(A2[i], &P, FA[i]);
  for (int i = 0; i < mb; i++) proj2(B2[i], &P, FB[i]);
  double Q[MAXQ][2];
  int nq = 0;
  double tol = 1e-9 * scale;
  if (ma == 1 || mb == 1) {
    /* a vertex against a vertex, an edge or a face: the witness on the other
     * feature is the point under the vertex along n, or (when the normal is
     * not exact and the vertex misses the feature) the feature's nearest
     * point in the projection */
    int va = ma == 1;
    const double* v = va ? FA[0] : FB[0];
    const double* q = va ? A2[0] : B2[0];
    double(*F3)[3] = va ? FB : FA;
    double(*F)[2] = va ? B2 : A2;
    int mf = va ? mb : ma;
    double w[3];
    if (mf == 1) {
      memcpy(w, F3[0], sizeof w);
    } else {
      int inside = mf >= 3;
      const sc_col_shape* fs = va ? b : a;
      if (mf == 8 && fs->core == SC_CORE_CYLINDER) {
        /* a cap: test the disc itself, not its inscribed octagon */
        double cx = 0, cy = 0;
        for (int k = 0; k < 8; k++) {
          cx += F[k][0] / 8;
          cy += F[k][1] / 8;
        }
        double r2 = (F[0][0] - cx) * (F[0][0] - cx) + (F[0][1] - cy) * (F[0][1] - cy);
        inside = (q[0] - cx) * (q[0] - cx) + (q[1] - cy) * (q[1] - cy) <= r2 * (1 + 1e-12);
      }
      const int disc = mf == 8 && fs->core == SC_CORE_CYLINDER;
      for (int i = 0; i < mf && inside && !disc; i++) {
        double c = cross2(F[i], F[(i + 1) % mf], q), area2 = 0;
        for (int k = 0; k < mf; k++)
          area2 += F[k][0] * F[(k + 1) % mf][1] - F[(k + 1) % mf][0] * F[k][1];
        if (c * area2 < 0) inside = 0;
      }
      if (inside) {
        double h = feature_height(&P, F3, mf, q);
        for (int k = 0; k < 3; k++) w[k] = o[k] + q[0] * P.t1[k] + q[1] * P.t2[k] + h * n[k];
      } else { /* nearest point of the edges (or the segment) */
        double best = INFINITY;
        int ne = mf == 2 ? 1 : mf;
        for (int i = 0; i < ne; i++) {
          const double *f0 = F[i], *f1 = F[(i + 1) % mf];
          double e[2] = {f1[0] - f0[0], f1[1] - f0[1]};
          double ee = e[0] * e[0] + e[1] * e[1];
          double t = ee > 0 ? ((q[0] - f0[0]) * e[0] + (q[1] - f0[1]) * e[1]) / ee : 0;
          t = t < 0 ? 0 : (t > 1 ? 1 : t);
          double dx = f0[0] + t * e[0] - q[0], dy = f0[1] + t * e[1] - q[1];
          if (dx * dx + dy * dy < best) {
            best = dx * dx + dy * dy;
            for (int k = 0; k < 3; k++) w[k] = F3[i][k] + t * (F3[(i + 1) % mf][k] - F3[i][k]);
          }
        }
      }
    }
    const double* wa = va ? v : w;
    const double* wb = va ? w : v;
    double r[3];
    col_sub(r, wb, wa);
    double phi = col_dot(r, n);
    if (!(phi <= margin)) return 0;
    col_point_set(out, wa, wb, n, phi);
    return 1;
  } else if (ma >= 3 || mb >= 3) {
    /* the polygon with more vertices clips the other */
    int a_clips = ma >= mb;
    double(*C)[2] = a_clips ? A2 : B2;
    double(*S)[2] = a_clips ? B2 : A2;
    int nc = a_clips ? ma : mb, ns = a_clips ? mb : ma;
    double area = 0;
    for (int i = 0; i < nc; i++)
      area += C[i][0] * C[(i + 1) % nc][1] - C[(i + 1) % nc][0] * C[i][1];
    if (fabs(area) <= 1e-12 * scale * scale) return 0;
    double Cc[MAXF][2];
    for (int i = 0; i < nc; i++) { /* make it counter-clockwise */
      int j = area > 0 ? i : nc - 1 - i;
      Cc[i][0] = C[j][0];
      Cc[i][1] = C[j][1];
    }
    if (ns == 2) {
      double seg[2][2];
      nq = clip_segment(S[0], S[1], Cc, nc, seg);
      memcpy(Q, seg, sizeof(double) * 2 * (size_t)nq);
    } else {
      for (int i = 0; i < ns; i++) {
        Q[i][0] = S[i][0];
        Q[i][1] = S[i][1];
      }
      nq = clip_poly(Q, ns, Cc, nc);
    }
  } else {
    double seg[2][2];
    nq = clip_seg_seg(A2[0], A2[1], B2[0], B2[1], 1e-6 * scale, seg);
    memcpy(Q, seg, sizeof(double) * 2 * (size_t)nq);
  }
  if (nq == 0) {
    /* the features miss each other in projection (n is not exact, or a face
     * was taken for an edge within the tolerance): the nearest pair of
     * boundary points in projection, lifted back onto each feature */
    double best = INFINITY, wa[3] = {0, 0, 0}, wb[3] = {0, 0, 0};
    int ea = ma == 2 ? 1 : ma, eb = mb == 2 ? 1 : mb;
    for (int i = 0; i < ea; i++)
      for (int j = 0; j < eb; j++) {
        int i1 = (i + 1) % ma, j1 = (j + 1) % mb;
        double s, t, dd = closest_seg2(A2[i], A2[i1], B2[j], B2[j1], &s, &t);
        if (dd < best) {
          best = dd;
          for (int k = 0; k < 3; k++) {
            wa[k] = FA[i][k] + s * (FA[i1][k] - FA[i][k]);
            wb[k] = FB[j][k] + t * (FB[j1][k] - FB[j][k]);
          }
        }
      }
    double r[3];
    col_sub(r, wb, wa);
    double phi = col_dot(r, n);
    if (!(phi <= margin)) return 0;
    col_point_set(out, wa, wb, n, phi);
    return 1;
  }
  int np = 0;
  for (int i = 0; i < nq; i++) {
    double ha = feature_height(&P, FA, ma, Q[i]), hb = feature_height(&P, FB, mb, Q[i]);
    double phi = hb - ha;
    if (!(phi <= margin)) continue;
    double x[3];
    for (int k = 0; k < 3; k++)
      x[k] = o[k] + Q[i][0] * P.t1[k] + Q[i][1] * P.t2[k] + 0.5 * (ha + hb) * n[k];
    int dup = 0; /* clipping repeats vertices that lie on clip edges */
    for (int j = 0; j < np; j++) {
      double e[3];
      col_sub(e, x, out[j].pos);
      if (col_dot(e, e) <= tol * tol) dup = 1;
    }
    if (dup) continue;
    memcpy(out[np].pos, x, sizeof x);
    memcpy(out[np].normal, n, 3 * sizeof(double));
    out[np].dist = phi;
    np++;
  }
  return np;
}

/* canonical order of a manifold: lexicographic in world (x, y, z), where
 * coordinates within tol count as equal.  The clipping that makes the points
 * starts at a vertex chosen by floating-point comparisons, so without this
 * the same geometry could list its points rotated when last bits differ
 * (another BLAS kernel, another CPU). */
static int point_before(const sc_col_point* a, const sc_col_point* b, double tol) {
  for (int k = 0; k < 3; k++) {
    double d = a->pos[k] - b->pos[k];
    if (d < -tol) return 1;
    if (d > tol) return 0;
  }
  return 0;
}

double sc_col_tie(const sc_mesh* a, const sc_mesh* b) {
  const double r = fmax(a ? a->rbound : 0.0, b ? b->rbound : 0.0);
  return 1e-3 * r;
}

int sc_col_reduce(sc_col_point* pts, int n, int limit, double tie) {
  if (n <= 0) return n;
  /* tie tolerance: round-off of the points' coordinates, m */
  double ext = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) ext = fmax(ext, fabs(pts[i].pos[k]));
  for (int i = 1; i < n; i++)
    for (int k = 0; k < 3; k++) ext = fmax(ext, fabs(pts[i].pos[k] - pts[0].pos[k]));
  double tol = 1e-9 * ext + 1e-12;
  for (int i = 1; i < n; i++) { /* insertion sort, n <= MAXQ */
    sc_col_point x = pts[i];
    int j = i - 1;
    while (j >= 0 && point_before(&x, &pts[j], tol)) {
      pts[j + 1] = pts[j];
      j--;
    }
    pts[j + 1] = x;
  }
  if (n <= limit) return n;
  /* farthest-point selection from the deepest point; near-equal depths and
   * distances (a face lying flat, a symmetric clip polygon) are ties, won by
   * the first point in canonical order */
  int keep[MAXQ] = {0};
  double mind[MAXQ];
  double dmin = pts[0].dist;
  for (int i = 1; i < n; i++) dmin = fmin(dmin, pts[i].dist);
  int deep = 0;
  while (pts[deep].dist > dmin + fmax(tol, tie)) deep++;
  keep[deep] = 1;
  for (int i = 0; i < n; i++) {
    double e[3];
    col_sub(e, pts[i].pos, pts[deep].pos);
    mind[i] = col_dot(e, e);
  }
  for (int k = 1; k < limit; k++) {
    double best = -1;
    for (int i = 0; i < n; i++)
      if (!keep[i]) best = fmax(best, mind[i]);
    /* squared distances: tie when within the round-off of their roots */
    double slack = 2 * tol * sqrt(best) + tol * tol;
    int far = 0;
    while (keep[far] || mind[far] < best - slack) far++;
    keep[far] = 1;
    for (int i = 0; i < n; i++) {
      double e[3];
      col_sub(e, pts[i].pos, pts[far].pos);
      double dd = col_dot(e, e);
      if (dd < mind[i]) mind[i] = dd;
    }
  }
  int m = 0;
  for (int i = 0; i < n; i++)
    if (keep[i]) pts[m++] = pts[i];
  return m;
}

int sc_col_convex(const sc_col_shape* a, const sc_col_shape* b, double margin,
                  sc_col_point* out, int max) {
  if (max <= 0) return 0;
  double scale = 1e-300;
  for (int i = 0; i < 3; i++) scale += a->hs[i] + b->hs[i];
  scale += a->radius + b->radius;
  double n[3], dist, wa[3], wb[3], dcore;
  sc_col_point deep;
  int separated = 0;
  int g = sc_col_gjk(a, b, margin + a->radius + b->radius, &dcore, wa, wb);
  if (g == 2) return 0; /* farther than the margin */
  if (g) {
    separated = 1;
    dist = dcore - a->radius - b->radius;
    if (dist > margin) return 0;
    col_sub(n, wb, wa);
    sc_sp_normalize3(n); /* |wb - wa|, not GJK's dcore: they differ by round-off,
                            which grows as the gap shrinks */
    col_axpy(wa, wa, a->radius, n);
    col_axpy(wb, wb, -b->radius, n);
    col_point_set(&deep, wa, wb, n, dist);
  } else if (a->core == SC_CORE_BOX && b->core == SC_CORE_BOX) {
    double depth = 0;
    if (!box_sat(a, b, &depth, n)) { /* touching within round-off */
      col_sub(n, b->p, a->p);
      if (sc_sp_normalize3(n) == 0) n[2] = 1;
      depth = 0;
    }
    /* deepest point: the vertex of b deepest along -n, with a's support plane */
    double mn[3], sb[3];
    sc_sp_scale3(mn, n, -1);
    sc_col_core_support(b, mn, sb);
    col_axpy(wa, sb, depth, n);
    col_point_set(&deep, wa, sb, n, -depth);
    dist = -depth;
  } else {
    double depth, pos[3];
    if (!mpr(a, b, &depth, n, pos)) { /* touching within round-off */
      col_sub(n, b->p, a->p);
      if (sc_sp_normalize3(n) == 0) n[2] = 1;
      depth = 0;
      sc_col_core_support(a, n, pos);
    }
    refine_penetration(a, b, n, &depth);
    /* witness pair: the support points of a along n and of b along -n
     * (their difference is depth n at the exact minimizer; libccd's pos is
     * only near the contact, not midway between the surfaces) */
    double mn[3], sb[3];
    sc_sp_scale3(mn, n, -1);
    full_support(a, n, wa);
    full_support(b, mn, sb);
    dist = -depth;
    col_point_set(&deep, wa, sb, n, dist);
  }
  sc_col_point cand[MAXQ + 1];
  /* separated: GJK's witness pair is exact, so a manifold must have >= 2
   * points to replace it; overlapping: the feature points (measured along n
   * between the two surfaces) replace the MPR/SAT point, which has no exact
   * witness pair */
  int nc = manifold(a, b, n, deep.pos, margin, scale, !separated, cand);
  if (nc < (separated ? 2 : 1)) {
    nc = 1;
    cand[0] = deep;
  } else if (separated) {
    double dmin = INFINITY;
    for (int i = 0; i < nc; i++) dmin = fmin(dmin, cand[i].dist);
    if (deep.dist < dmin - 1e-9 * scale) cand[nc++] = deep;
  }
  if (cand[0].dist > margin) return 0;
  int limit = max < SC_COL_MANIFOLD ? max : SC_COL_MANIFOLD;
  nc = sc_col_reduce(cand, nc, limit, sc_col_tie(a->mesh, b->mesh));
  memcpy(out, cand, sizeof(sc_col_point) * (size_t)nc);
  return nc;
}
