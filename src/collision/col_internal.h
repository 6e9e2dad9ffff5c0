/* col_internal: shared pieces of the collision module (not a public API). */
#ifndef SC_COL_INTERNAL_H
#define SC_COL_INTERNAL_H

#include <math.h>

#include "collision/collision.h"

/* A shape as a convex "core" swept by a sphere of `radius`:
 * sphere = point + r, capsule = segment + r; box, cylinder, ellipsoid and
 * mesh hull have r = 0. */
typedef enum sc_col_core {
  SC_CORE_POINT = 0,
  SC_CORE_SEGMENT = 1, /* half length hs[2] along the local z axis */
  SC_CORE_BOX = 2,     /* half extents hs[0..2] */
  SC_CORE_CYLINDER = 3, /* radius hs[0], half length hs[2] */
  SC_CORE_ELLIPSOID = 4, /* semi-axes hs[0..2] */
  SC_CORE_HULL = 5       /* the convex hull of mesh (hs: its bounding box half extents) */
} sc_col_core;

/* a hull's last support answer: the vertex (-1: none) and the local unit
 * direction it answered */
typedef struct sc_col_hint {
  int v;
  double dir[3];
} sc_col_hint;

typedef struct sc_col_shape {
  sc_col_core core;
  double p[3];
  double R[9]; /* row-major, local -> world */
  double hs[3];
  double radius;
  double c[3];          /* a point inside the shape (world): p, or the hull's centroid */
  const sc_mesh* mesh;  /* SC_CORE_HULL */
  sc_col_hint* hint;    /* SC_CORE_HULL: the last support answer, where the next
                           query starts walking (points at hint_store) */
  sc_col_hint hint_store;
  int scan;             /* SC_CORE_HULL: find support points by scanning every vertex
                           instead of walking (0 from sc_col_shape_make; benchmarks) */
} sc_col_shape;

/* The shape of a posed geometry.  Keep s where it was made: s->hint points
 * into it. */
void sc_col_shape_make(sc_col_shape* s, const sc_col_geom* g);
/* Support point of the core (radius excluded) in world direction d. */
void sc_col_core_support(const sc_col_shape* s, const double d[3], double out[3]);
/* GJK distance between the cores.  Returns 1 and the distance and witness
 * points (on the cores) when they are separated, 0 when they touch or
 * overlap, and 2 (with *dist a lower bound, no witness points) as soon as
 * the distance is known to exceed cutoff (pass INFINITY for the exact
 * distance). */
int sc_col_gjk(const sc_col_shape* a, const sc_col_shape* b, double cutoff, double* dist,
               double wa[3], double wb[3]);
/* General convex pair (cores + radii): separation by GJK, penetration by MPR
 * (libccd), manifold by clipping the two contact features. */
int sc_col_convex(const sc_col_shape* a, const sc_col_shape* b, double margin,
                  sc_col_point* out, int max);
/* Put the n points in canonical order (lexicographic in world x, y, z, with
 * round-off ties) and keep at most `limit` of them: the deepest (points
 * within tie of the deepest count as tied with it), then
 * repeatedly the one farthest from those kept, near-ties going to the first
 * in canonical order, so last-bit differences cannot change the set or its
 * order.  Returns the new count. */
int sc_col_reduce(sc_col_point* pts, int n, int limit, double tie);
/* The depth band within which a reduction takes a mesh's contact points as
 * equally deep (sc_col_reduce's tie, m): 1e-3 of the larger mesh's bounding
 * radius, 0 without a mesh.  A mug standing on its foot rocks by microns;
 * were its deepest rim vertex chosen first, the four points kept would turn
 * round the rim with the rocking from step to step and feed it (a limit
 * cycle that does not decay); within the band the first in canonical
 * order starts the selection, which the rocking does not move. */
double sc_col_tie(const sc_mesh* a, const sc_mesh* b);

/* The face around hull vertex v whose outward normal has the largest dot
 * product with the local direction dl (ties to the first), -1 when there is
 * none. */
static inline int col_hull_face(const sc_mesh* me, int v, const double dl[3]) {
  int bf = -1;
  double bc = -INFINITY;
  for (int k = me->hvf_adr[v]; k < me->hvf_adr[v + 1]; k++) {
    const double* n = me->hplane + 4 * me->hvf[k];
    const double c = n[0] * dl[0] + n[1] * dl[1] + n[2] * dl[2];
    if (c > bc) {
      bc = c;
      bf = me->hvf[k];
    }
  }
  return bf;
}

/* small vector helpers */
static inline double col_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void col_sub(double r[3], const double a[3], const double b[3]) {
  r[0] = a[0] - b[0];
  r[1] = a[1] - b[1];
  r[2] = a[2] - b[2];
}
static inline void col_axpy(double r[3], const double a[3], double s, const double b[3]) {
  r[0] = a[0] + s * b[0];
  r[1] = a[1] + s * b[1];
  r[2] = a[2] + s * b[2];
}
static inline void col_cross(double r[3], const double a[3], const double b[3]) {
  double t0 = a[1] * b[2] - a[2] * b[1], t1 = a[2] * b[0] - a[0] * b[2],
         t2 = a[0] * b[1] - a[1] * b[0];
  r[0] = t0;
  r[1] = t1;
  r[2] = t2;
}
/* column j of a row-major rotation = local axis j in world */
static inline void col_axis(double r[3], const double R[9], int j) {
  r[0] = R[j];
  r[1] = R[3 + j];
  r[2] = R[6 + j];
}
/* fill a point from the two witness points and the normal */
static inline void col_point_set(sc_col_point* c, const double wa[3], const double wb[3],
                                 const double n[3], double dist) {
  for (int i = 0; i < 3; i++) {
    c->pos[i] = 0.5 * (wa[i] + wb[i]);
    c->normal[i] = n[i];
  }
  c->dist = dist;
}

#endif
