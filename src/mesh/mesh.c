/* mesh: checking a triangle mesh, its convex hull, adjacency, mass
 * properties and the support query.
 *
 * Convex hull: Quickhull (Barber, Dobkin & Huhdanpaa, "The Quickhull
 * algorithm for convex hulls", ACM TOMS 22(4), 1996) through qhull's
 * reentrant library, with qhull's default pre-merging (C-0): facets that are
 * coplanar within round-off are merged, so a box gives 6 quadrilaterals and
 * not 12 triangles, and a face is a convex polygon.  Each polygon's
 * vertices come from qh_facet3vertex (cyclic order around a 3-d facet) and
 * are put counter-clockwise seen from outside by the sign of the Newell
 * normal (Newell's method: N = sum over edges (y_i - y_j)(z_i + z_j), ...)
 * against qhull's outward facet normal.
 *
 * Support query: hill climbing on the hull's vertex graph (Cameron,
 * "Enhancing GJK: computing minimum and penetration distances between
 * convex polyhedra", ICRA 1997): d.x is a linear function and the hull
 * convex, so a vertex no edge-neighbour improves is a global maximizer.  The
 * walk moves to the best neighbour (steepest ascent), strictly uphill, so
 * it ends.  A query without a start begins at the answer for the centre of
 * its cell in a cube map of directions (6 x 8 x 8 cells, computed at build),
 * a few edges away; a walk from vertex 0 would cross the hull, and around a
 * large polygon (a mug's 120-vertex rim) only along its boundary.
 *
 * Flat patches (the contact features): qhull merges only facets coplanar
 * within round-off, and exported meshes ripple (the mug's rim and foot are
 * hundreds of sliver triangles whose normals differ by 0.003 rad), which
 * would give a mug standing on a table a contact polygon the size of a
 * sliver.  Faces are grown into patches greedily, from the largest face not
 * yet taken, across shared edges while a face's normal stays within
 * SC_MESH_PATCH_ANGLE of the seed's (not of its neighbour's, so a finely
 * tessellated curve does not chain into one patch); a patch's polygon is
 * the 2-d convex hull (Andrew's monotone chain) of its vertices in the
 * seed's plane.  The hull itself stays exact for the support query.
 *
 * Mass properties (per unit density), by the divergence theorem: the solid
 * bounded by oriented triangles (a, b, c) is the signed sum of tetrahedra
 * (p, a, b, c) from a reference point p (the mean of the vertices, which
 * keeps the terms small and the cancellation mild).  With a' = a - p etc.
 * and D = det[a' b' c'] (six times the signed volume):
 *   volume            V  = sum D / 6
 *   first moment      S  = sum D (a' + b' + c') / 24
 *   second moment     C  = sum D (s s^T + a'a'^T + b'b'^T + c'c'^T) / 120,
 *                          s = a' + b' + c', C = integral of x x^T dV
 * (the canonical tetrahedron's covariance [[2,1,1],[1,2,1],[1,1,2]] / 120
 * mapped by the affine map of the tetrahedron: Blow & Binstock, "How to find
 * the inertia tensor (or other mass properties) of a 3D solid body
 * represented by a triangle mesh", 2004; Tonon, "Explicit exact formulas
 * for the 3-D tetrahedron inertia tensor in terms of its vertex
 * coordinates", J. Math. Stat. 1(1), 2004).  Centroid c = p + S / V; the
 * second moment about it C_c = C - V (c - p)(c - p)^T (parallel axes); the
 * inertia I = trace(C_c) 1 - C_c.
 *
 * Which surface: the mesh's own triangles when they bound a solid (closed
 * and consistently oriented: every directed edge appears once and its
 * reverse once), else the hull's faces fanned into triangles.  Closedness is
 * tested on positions, not indices: vertices with exactly equal coordinates
 * count as one, because meshes exported with texture seams (MuJoCo's mug)
 * repeat a position under several indices while the surface is closed.
 * Triangles that name one position twice bound nothing and are skipped.  A
 * closed mesh wound inwards (negative volume) is taken with the opposite
 * orientation.
 *
 * A point cloud (nface == 0) is accepted: its mass properties are those of
 * its hull (closed = 0).  The hull is of all vertices, whether faces use
 * them or not. */
#include "mesh/mesh.h"

#include <libqhull_r/qhull_ra.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small vector helpers ---- */

static double dot3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void sub3(double* r, const double* a, const double* b) {
  r[0] = a[0] - b[0];
  r[1] = a[1] - b[1];
  r[2] = a[2] - b[2];
}

static void cross3(double* r, const double* a, const double* b) {
  double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  r[0] = x;
  r[1] = y;
  r[2] = z;
}

static int cmp_int(const void* a, const void* b) {
  int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

/* ---- free ---- */

static void free_hull(sc_mesh* m) {
  sc_free(m->hvert);
  sc_free(m->hadj_adr);
  sc_free(m->hadj);
  sc_free(m->hface_adr);
  sc_free(m->hface);
  sc_free(m->hplane);
  sc_free(m->hvf_adr);
  sc_free(m->hvf);
  sc_free(m->hface_patch);
  sc_free(m->hpatch_adr);
  sc_free(m->hpatch);
  sc_free(m->hpatch_plane);
  m->hface_patch = m->hpatch_adr = m->hpatch = NULL;
  m->hpatch_plane = NULL;
  m->hnpatch = 0;
  m->hvert = NULL;
  m->hadj_adr = m->hadj = m->hface_adr = m->hface = m->hvf_adr = m->hvf = NULL;
  m->hplane = NULL;
  m->hnvert = m->hnface = 0;
}

void sc_mesh_free(sc_mesh* m) {
  if (!m) return;
  free_hull(m);
  sc_free(m->file);
  sc_free(m->vert);
  sc_free(m->face);
  memset(m, 0, sizeof *m);
}

/* ---- support ---- */

/* the cube-map cell of direction d: its largest component picks the face
 * (axis and sign), the other two divided by it the cell */
static int dir_cell(const double d[3]) {
  const double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]);
  const int a = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const double big = fabs(d[a]);
  if (!(big > 0)) return 0;
  const int face = 2 * a + (d[a] < 0);
  const double u = d[(a + 1) % 3] / big, v = d[(a + 2) % 3] / big; /* in [-1, 1] */
  int iu = (int)((u + 1) * 0.5 * SC_MESH_DIRGRID), iv = (int)((v + 1) * 0.5 * SC_MESH_DIRGRID);
  iu = iu < 0 ? 0 : iu >= SC_MESH_DIRGRID ? SC_MESH_DIRGRID - 1 : iu;
  iv = iv < 0 ? 0 : iv >= SC_MESH_DIRGRID ? SC_MESH_DIRGRID - 1 : iv;
  return (face * SC_MESH_DIRGRID + iu) * SC_MESH_DIRGRID + iv;
}

int sc_mesh_support(const sc_mesh* m, const double d[3], int start) {
  if (m->hnvert <= 0) return -1;
  int cur = (start >= 0 && start < m->hnvert) ? start : m->hdir[dir_cell(d)];
  double best = dot3(d, m->hvert + 3 * cur);
  for (;;) {
    int next = -1;
    double nb = best;
    for (int k = m->hadj_adr[cur]; k < m->hadj_adr[cur + 1]; k++) {
      int j = m->hadj[k];
      double v = dot3(d, m->hvert + 3 * j);
      if (v > nb) {
        nb = v;
        next = j;
      }
    }
    if (next < 0) return cur;
    cur = next;
    best = nb;
  }
}

int sc_mesh_support_scan(const sc_mesh* m, const double d[3]) {
  if (m->hnvert <= 0) return -1;
  int bi = 0;
  double best = dot3(d, m->hvert);
  for (int i = 1; i < m->hnvert; i++) {
    double v = dot3(d, m->hvert + 3 * i);
    if (v > best) {
      best = v;
      bi = i;
    }
  }
  return bi;
}

/* ---- input checks ---- */

static sc_status check_input(const sc_mesh* m, const char* file, sc_error* err) {
  if (m->nvert < 0 || m->nvert > SC_MESH_MAX_VERTS || (m->nvert > 0 && !m->vert))
    return sc_error_set(err, SC_ERR_SCENE, file, 0, 0, "invalid vertex count %d (at most %d)", m->nvert,
                        SC_MESH_MAX_VERTS);
  if (m->nface < 0 || m->nface > SC_MESH_MAX_FACES || (m->nface > 0 && !m->face))
    return sc_error_set(err, SC_ERR_SCENE, file, 0, 0, "invalid triangle count %d (at most %d)", m->nface,
                        SC_MESH_MAX_FACES);
  for (int i = 0; i < m->nvert; i++)
    for (int k = 0; k < 3; k++)
      if (!isfinite(m->vert[3 * i + k]))
        return sc_error_set(err, SC_ERR_SCENE, file, 0, 0, "vertex %d (0-based): coordinate is not finite", i);
  for (int f = 0; f < m->nface; f++)
    for (int k = 0; k < 3; k++) {
      int v = m->face[3 * f + k];
      if (v < 0 || v >= m->nvert)
        return sc_error_set(err, SC_ERR_SCENE, file, 0, 0,
                            "triangle %d (0-based): vertex index %d out of range (the mesh has %d vertices)", f, v,
                            m->nvert);
    }
  return SC_OK;
}

/* Fewer than 4 points, or all within a relative 1e-12 of one plane: qhull
 * cannot start (its initial simplex would be flat).  Found from the two
 * points farthest apart along a coordinate axis, the point farthest from
 * their line and the one farthest from the plane of the three. */
static int points_are_flat(const double* x, int n) {
  if (n < 4) return 1;
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (int i = 1; i < n; i++)
    for (int k = 0; k < 3; k++) {
      if (x[3 * i + k] < x[3 * lo[k] + k]) lo[k] = i;
      if (x[3 * i + k] > x[3 * hi[k] + k]) hi[k] = i;
    }
  int i0 = lo[0], i1 = hi[0];
  double u[3], best = -1;
  for (int k = 0; k < 3; k++) {
    sub3(u, x + 3 * hi[k], x + 3 * lo[k]);
    double l2 = dot3(u, u);
    if (l2 > best) {
      best = l2;
      i0 = lo[k];
      i1 = hi[k];
    }
  }
  double L = sqrt(best);
  if (!(L > 0)) return 1;
  const double tol = 1e-12 * L;
  sub3(u, x + 3 * i1, x + 3 * i0);
  double dmax = -1, w[3], c[3];
  int i2 = -1;
  for (int i = 0; i < n; i++) {
    sub3(w, x + 3 * i, x + 3 * i0);
    cross3(c, u, w);
    double dd = sqrt(dot3(c, c)) / L;
    if (dd > dmax) {
      dmax = dd;
      i2 = i;
    }
  }
  if (!(dmax > tol)) return 1;
  double nrm[3];
  sub3(w, x + 3 * i2, x + 3 * i0);
  cross3(nrm, u, w);
  double nl = sqrt(dot3(nrm, nrm));
  for (int k = 0; k < 3; k++) nrm[k] /= nl;
  double hmax = 0;
  for (int i = 0; i < n; i++) {
    sub3(w, x + 3 * i, x + 3 * i0);
    double h = fabs(dot3(nrm, w));
    if (h > hmax) hmax = h;
  }
  return !(hmax > tol);
}

/* ---- hull (qhull) ---- */

/* Scratch of the hull extraction, outside the function that calls setjmp so
 * that what it holds is still known after qhull's longjmp. */
typedef struct hull_tmp {
  int* map; /* qhull point id -> hull vertex (-1: not a hull vertex) */
} hull_tmp;

/* Copy qhull's facets into m's hull arrays (hvert, hface_adr, hface,
 * hplane).  May longjmp out through qh->errexit (qhull out of memory); what
 * it allocates is held by m and t, freed by the caller either way. */
static sc_status hull_extract(qhT* qh, sc_mesh* m, hull_tmp* t) {
  facetT* facet;
  vertexT *vertex, **vertexp;
  int nf = 0, ntot = 0;
  t->map = sc_malloc(sizeof(int) * (size_t)m->nvert);
  if (!t->map) return SC_ERR_NOMEM;
  for (int i = 0; i < m->nvert; i++) t->map[i] = -1;
  FORALLfacets {
    setT* vs = qh_facet3vertex(qh, facet);
    FOREACHvertex_(vs) {
      int id = qh_pointid(qh, vertex->point);
      if (id >= 0 && id < m->nvert) t->map[id] = 0;
    }
    ntot += qh_setsize(qh, vs);
    nf++;
    qh_settempfree(qh, &vs);
  }
  int nv = 0;
  for (int i = 0; i < m->nvert; i++)
    if (t->map[i] == 0) t->map[i] = nv++;
  m->hvert = sc_malloc(sizeof(double) * 3 * (size_t)(nv ? nv : 1));
  m->hface_adr = sc_malloc(sizeof(int) * (size_t)(nf + 1));
  m->hface = sc_malloc(sizeof(int) * (size_t)(ntot ? ntot : 1));
  m->hplane = sc_malloc(sizeof(double) * 4 * (size_t)(nf ? nf : 1));
  if (!m->hvert || !m->hface_adr || !m->hface || !m->hplane) return SC_ERR_NOMEM;
  for (int i = 0; i < m->nvert; i++)
    if (t->map[i] >= 0) memcpy(m->hvert + 3 * t->map[i], m->vert + 3 * i, 3 * sizeof(double));
  m->hnvert = nv;
  int f = 0, pos = 0;
  m->hface_adr[0] = 0;
  FORALLfacets {
    setT* vs = qh_facet3vertex(qh, facet);
    int n0 = pos;
    FOREACHvertex_(vs) {
      int id = qh_pointid(qh, vertex->point);
      m->hface[pos++] = (id >= 0 && id < m->nvert) ? t->map[id] : 0;
    }
    qh_settempfree(qh, &vs);
    int n = pos - n0;
    int* poly = m->hface + n0;
    /* Newell normal of the loop against qhull's outward normal */
    double N[3] = {0, 0, 0};
    for (int k = 0; k < n; k++) {
      const double* a = m->hvert + 3 * poly[k];
      const double* b = m->hvert + 3 * poly[(k + 1) % n];
      N[0] += (a[1] - b[1]) * (a[2] + b[2]);
      N[1] += (a[2] - b[2]) * (a[0] + b[0]);
      N[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    double nq[3] = {facet->normal[0], facet->normal[1], facet->normal[2]};
    if (dot3(N, nq) < 0)
      for (int k = 0; k < n / 2; k++) {
        int tmp = poly[k];
        poly[k] = poly[n - 1 - k];
        poly[n - 1 - k] = tmp;
      }
    double nl = sqrt(dot3(nq, nq));
    double* pl = m->hplane + 4 * f;
    for (int k = 0; k < 3; k++) pl[k] = nq[k] / nl;
    double o = -HUGE_VAL;
    for (int k = 0; k < n; k++) {
      double v = dot3(pl, m->hvert + 3 * poly[k]);
      if (v > o) o = v;
    }
    pl[3] = o;
    m->hface_adr[++f] = pos;
  }
  m->hnface = nf;
  return SC_OK;
}

/* Runs hull_extract with qhull's error exit caught here instead of ending
 * the process (qhull reports failures by longjmp through qh->errexit, and
 * exits when that is unset).  Only its parameters are used after a longjmp,
 * and they are not modified. */
static sc_status hull_extract_guarded(qhT* qh, sc_mesh* m, hull_tmp* t) {
  if (setjmp(qh->errexit)) {
    qh->NOerrexit = True;
    return SC_ERR_NOMEM;
  }
  qh->NOerrexit = False;
  sc_status st = hull_extract(qh, m, t);
  qh->NOerrexit = True;
  return st;
}

/* qhull's first message (up to the end of its first paragraph) as one
 * line in dst */
static void first_message(char* dst, size_t dsz, const char* src) {
  size_t n = 0;
  for (const char* p = src; *p && n + 1 < dsz; p++) {
    if (p[0] == '\n' && (p[1] == '\n' || p[1] == '\0')) break;
    dst[n++] = (*p == '\n' || *p == '\r' || *p == '\t') ? ' ' : *p;
  }
  while (n > 0 && dst[n - 1] == ' ') n--;
  dst[n] = '\0';
}

static sc_status build_hull(sc_mesh* m, const char* file, sc_error* err) {
  /* qhull's messages go into this buffer, never to stdout or stderr */
  char qmsg[2048];
  memset(qmsg, 0, sizeof qmsg);
  FILE* ferr = fmemopen(qmsg, sizeof qmsg - 1, "w");
  if (!ferr) return sc_error_set(err, SC_ERR_NOMEM, file, 0, 0, "out of memory (qhull's message buffer)");
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, ferr);
  char cmd[] = "qhull";
  int code = qh_new_qhull(qh, 3, m->nvert, m->vert, False, cmd, NULL, ferr);
  sc_status st = SC_OK;
  hull_tmp t = {NULL};
  if (code == 0) {
    st = hull_extract_guarded(qh, m, &t);
    if (st != SC_OK) sc_error_set(err, st, file, 0, 0, "out of memory (convex hull)");
  }
  qh->NOerrexit = True;
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  fflush(ferr);
  fclose(ferr);
  sc_free(t.map);
  if (code != 0) {
    char one[600];
    first_message(one, sizeof one, qmsg);
    if (code == qh_ERRsingular)
      st = sc_error_set(err, SC_ERR_SCENE, file, 0, 0,
                        "needs at least 4 points not in one plane (qhull: %s)", one[0] ? one : "flat input");
    else if (code == qh_ERRmem)
      st = sc_error_set(err, SC_ERR_NOMEM, file, 0, 0, "out of memory (qhull)");
    else
      st = sc_error_set(err, SC_ERR_SCENE, file, 0, 0, "convex hull failed (qhull exit %d: %s)", code,
                        one[0] ? one : "no message");
  }
  return st;
}

/* hadj (unique neighbours along the polygons' edges) and hvf (faces around
 * each vertex), then each face offset raised to the largest n.x over all
 * hull vertices (a merged facet's other vertices may lie a round-off above
 * the plane through its own). */
static sc_status build_adjacency(sc_mesh* m) {
  int nv = m->hnvert, nf = m->hnface, ntot = m->hface_adr[nf];
  m->hadj_adr = sc_calloc((size_t)nv + 1, sizeof(int));
  m->hvf_adr = sc_calloc((size_t)nv + 1, sizeof(int));
  int* cnt = sc_calloc((size_t)nv + 1, sizeof(int));
  int* tmp = sc_malloc(sizeof(int) * 2 * (size_t)(ntot ? ntot : 1));
  m->hvf = sc_malloc(sizeof(int) * (size_t)(ntot ? ntot : 1));
  if (!m->hadj_adr || !m->hvf_adr || !cnt || !tmp || !m->hvf) {
    sc_free(cnt);
    sc_free(tmp);
    return SC_ERR_NOMEM;
  }
  /* every polygon edge a-b, both ways (each edge is seen from two faces) */
  for (int f = 0; f < nf; f++)
    for (int k = m->hface_adr[f]; k < m->hface_adr[f + 1]; k++) {
      cnt[m->hface[k] + 1] += 2;
      m->hvf_adr[m->hface[k] + 1]++;
    }
  for (int i = 0; i < nv; i++) {
    cnt[i + 1] += cnt[i];
    m->hvf_adr[i + 1] += m->hvf_adr[i];
  }
  int* fill = sc_malloc(sizeof(int) * (size_t)(nv ? nv : 1));
  if (!fill) {
    sc_free(cnt);
    sc_free(tmp);
    return SC_ERR_NOMEM;
  }
  memcpy(fill, cnt, sizeof(int) * (size_t)nv);
  for (int f = 0; f < nf; f++) {
    int a0 = m->hface_adr[f], n = m->hface_adr[f + 1] - a0;
    for (int k = 0; k < n; k++) {
      int a = m->hface[a0 + k], b = m->hface[a0 + (k + 1) % n];
      tmp[fill[a]++] = b;
      tmp[fill[b]++] = a;
    }
  }
  memcpy(fill, m->hvf_adr, sizeof(int) * (size_t)nv);
  for (int f = 0; f < nf; f++)
    for (int k = m->hface_adr[f]; k < m->hface_adr[f + 1]; k++) m->hvf[fill[m->hface[k]]++] = f;
  sc_free(fill);
  /* sort and drop repeats in place, compacting */
  int out = 0;
  for (int i = 0; i < nv; i++) {
    int s = cnt[i], e = cnt[i + 1];
    qsort(tmp + s, (size_t)(e - s), sizeof(int), cmp_int);
    m->hadj_adr[i] = out;
    for (int k = s; k < e; k++)
      if (k == s || tmp[k] != tmp[k - 1]) tmp[out++] = tmp[k];
  }
  m->hadj_adr[nv] = out;
  sc_free(cnt);
  m->hadj = sc_malloc(sizeof(int) * (size_t)(out ? out : 1));
  if (!m->hadj) {
    sc_free(tmp);
    return SC_ERR_NOMEM;
  }
  memcpy(m->hadj, tmp, sizeof(int) * (size_t)out);
  sc_free(tmp);
  for (int f = 0; f < nf; f++) {
    double* pl = m->hplane + 4 * f;
    int s = sc_mesh_support(m, pl, m->hface[m->hface_adr[f]]);
    double o = dot3(pl, m->hvert + 3 * s);
    if (o > pl[3]) pl[3] = o;
  }
  return SC_OK;
}

/* ---- closedness ---- */

typedef struct pos_idx {
  double x[3];
  int i;
} pos_idx;

static int cmp_pos(const void* pa, const void* pb) {
  const pos_idx *a = pa, *b = pb;
  for (int k = 0; k < 3; k++) {
    if (a->x[k] < b->x[k]) return -1;
    if (a->x[k] > b->x[k]) return 1;
  }
  return (a->i > b->i) - (a->i < b->i);
}

/* 1 when the triangles, with equal positions taken as one vertex, use every
 * directed edge once and its reverse once; 0 otherwise; -1 out of memory. */
static int mesh_is_closed(const sc_mesh* m) {
  if (m->nface == 0) return 0;
  int nv = m->nvert, nf = m->nface;
  pos_idx* p = sc_malloc(sizeof(pos_idx) * (size_t)nv);
  int* canon = sc_malloc(sizeof(int) * (size_t)nv);
  int* adr = sc_calloc((size_t)nv + 1, sizeof(int));
  int* dst = sc_malloc(sizeof(int) * 3 * (size_t)nf);
  int* fill = sc_malloc(sizeof(int) * (size_t)nv);
  int closed = -1;
  if (!p || !canon || !adr || !dst || !fill) goto done;
  for (int i = 0; i < nv; i++) {
    memcpy(p[i].x, m->vert + 3 * i, sizeof p[i].x);
    p[i].i = i;
  }
  qsort(p, (size_t)nv, sizeof *p, cmp_pos);
  int id = -1;
  for (int k = 0; k < nv; k++) {
    /* numeric comparison: -0.0 and 0.0 are one position */
    if (k == 0 || p[k].x[0] != p[k - 1].x[0] || p[k].x[1] != p[k - 1].x[1] || p[k].x[2] != p[k - 1].x[2]) id++;
    canon[p[k].i] = id;
  }
  for (int f = 0; f < nf; f++) {
    int a = canon[m->face[3 * f]], b = canon[m->face[3 * f + 1]], c = canon[m->face[3 * f + 2]];
    if (a == b || b == c || c == a) continue;
    adr[a + 1]++;
    adr[b + 1]++;
    adr[c + 1]++;
  }
  for (int i = 0; i < nv; i++) adr[i + 1] += adr[i];
  memcpy(fill, adr, sizeof(int) * (size_t)nv);
  int ne = 0;
  for (int f = 0; f < nf; f++) {
    int v[3] = {canon[m->face[3 * f]], canon[m->face[3 * f + 1]], canon[m->face[3 * f + 2]]};
    if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0]) continue;
    for (int k = 0; k < 3; k++) dst[fill[v[k]]++] = v[(k + 1) % 3];
    ne += 3;
  }
  closed = ne > 0;
  for (int a = 0; a < nv && closed; a++) {
    qsort(dst + adr[a], (size_t)(adr[a + 1] - adr[a]), sizeof(int), cmp_int);
    for (int k = adr[a] + 1; k < adr[a + 1]; k++)
      if (dst[k] == dst[k - 1]) closed = 0;
  }
  for (int a = 0; a < nv && closed; a++)
    for (int k = adr[a]; k < adr[a + 1] && closed; k++) {
      int b = dst[k];
      if (!bsearch(&a, dst + adr[b], (size_t)(adr[b + 1] - adr[b]), sizeof(int), cmp_int)) closed = 0;
    }
done:
  sc_free(p);
  sc_free(canon);
  sc_free(adr);
  sc_free(dst);
  sc_free(fill);
  return closed;
}

/* ---- mass properties ---- */

typedef struct mass_acc {
  double p[3];  /* reference point */
  double d6;    /* sum of D */
  double s[3];  /* sum of D s */
  double c[9];  /* sum of D (s s^T + a'a'^T + b'b'^T + c'c'^T) */
} mass_acc;

static void mass_add(mass_acc* A, const double* a, const double* b, const double* c) {
  double x[3][3];
  sub3(x[0], a, A->p);
  sub3(x[1], b, A->p);
  sub3(x[2], c, A->p);
  double bc[3];
  cross3(bc, x[1], x[2]);
  double D = dot3(x[0], bc);
  double s[3] = {x[0][0] + x[1][0] + x[2][0], x[0][1] + x[1][1] + x[2][1], x[0][2] + x[1][2] + x[2][2]};
  A->d6 += D;
  for (int i = 0; i < 3; i++) A->s[i] += D * s[i];
  for (int i = 0; i < 3; i++)
    for (int j = i; j < 3; j++)
      A->c[3 * i + j] += D * (s[i] * s[j] + x[0][i] * x[0][j] + x[1][i] * x[1][j] + x[2][i] * x[2][j]);
}

/* volume, centroid and inertia of m from the accumulated sums; the sign of
 * the sums flipped first when the surface was wound inwards */
static void mass_finish(sc_mesh* m, mass_acc* A) {
  double sg = A->d6 < 0 ? -1.0 : 1.0;
  double V = sg * A->d6 / 6.0;
  double S[3], C[9];
  for (int i = 0; i < 3; i++) S[i] = sg * A->s[i] / 24.0;
  for (int i = 0; i < 3; i++)
    for (int j = i; j < 3; j++) C[3 * i + j] = C[3 * j + i] = sg * A->c[3 * i + j] / 120.0;
  double r[3] = {S[0] / V, S[1] / V, S[2] / V};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) C[3 * i + j] -= V * r[i] * r[j];
  double tr = C[0] + C[4] + C[8];
  m->volume = V;
  for (int i = 0; i < 3; i++) m->centroid[i] = A->p[i] + r[i];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) m->inertia[3 * i + j] = (i == j ? tr : 0.0) - C[3 * i + j];
}

static void mass_of_mesh(sc_mesh* m) {
  mass_acc A;
  memset(&A, 0, sizeof A);
  for (int i = 0; i < m->nvert; i++)
    for (int k = 0; k < 3; k++) A.p[k] += m->vert[3 * i + k];
  for (int k = 0; k < 3; k++) A.p[k] /= m->nvert;
  for (int f = 0; f < m->nface; f++)
    mass_add(&A, m->vert + 3 * m->face[3 * f], m->vert + 3 * m->face[3 * f + 1],
             m->vert + 3 * m->face[3 * f + 2]);
  mass_finish(m, &A);
}

/* the hull's faces fanned from their first vertex (they are convex) */
static void hull_sums(const sc_mesh* m, mass_acc* A) {
  memset(A, 0, sizeof *A);
  for (int i = 0; i < m->hnvert; i++)
    for (int k = 0; k < 3; k++) A->p[k] += m->hvert[3 * i + k];
  for (int k = 0; k < 3; k++) A->p[k] /= m->hnvert;
  for (int f = 0; f < m->hnface; f++) {
    const int* poly = m->hface + m->hface_adr[f];
    int n = m->hface_adr[f + 1] - m->hface_adr[f];
    for (int k = 1; k + 1 < n; k++)
      mass_add(A, m->hvert + 3 * poly[0], m->hvert + 3 * poly[k], m->hvert + 3 * poly[k + 1]);
  }
}

/* ---- flat patches ---- */

typedef struct patch_tmp {
  int *order, *queue, *verts, *mark, *hull;
  double* area;
  double (*pt)[2];
} patch_tmp;

static const double* area_key;
static int cmp_area(const void* pa, const void* pb) {
  const int a = *(const int*)pa, b = *(const int*)pb;
  if (area_key[a] != area_key[b]) return area_key[a] > area_key[b] ? -1 : 1;
  return a - b;
}

/* the face sharing the polygon edge (u, v) with face f, -1 if none */
static int face_across(const sc_mesh* m, int f, int u, int v) {
  for (int k = m->hvf_adr[u]; k < m->hvf_adr[u + 1]; k++) {
    const int g = m->hvf[k];
    if (g == f) continue;
    for (int i = m->hface_adr[g]; i < m->hface_adr[g + 1]; i++)
      if (m->hface[i] == v) return g;
  }
  return -1;
}

/* Andrew's monotone chain on pts[idx[0..n)] (2-d), counter-clockwise, no
 * collinear points; writes the hull's indices into out, returns the count */
static const double (*chain_pts)[2];
static int cmp_pt(const void* pa, const void* pb) {
  const double *a = chain_pts[*(const int*)pa], *b = chain_pts[*(const int*)pb];
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] != b[1]) return a[1] < b[1] ? -1 : 1;
  return 0;
}
static double turn(const double* o, const double* a, const double* b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}
static int chain(const double (*pts)[2], int* idx, int n, int* out) {
  chain_pts = pts;
  qsort(idx, (size_t)n, sizeof *idx, cmp_pt);
  int k = 0;
  for (int i = 0; i < n; i++) {
    while (k >= 2 && turn(pts[out[k - 2]], pts[out[k - 1]], pts[idx[i]]) <= 0) k--;
    out[k++] = idx[i];
  }
  for (int i = n - 2, lo = k + 1; i >= 0; i--) {
    while (k >= lo && turn(pts[out[k - 2]], pts[out[k - 1]], pts[idx[i]]) <= 0) k--;
    out[k++] = idx[i];
  }
  return k > 1 ? k - 1 : k;
}

/* Greedy growth from the largest unassigned face over shared edges while a
 * neighbour's normal stays within SC_MESH_PATCH_ANGLE of the seed's; each
 * patch's polygon is the 2-d convex hull of its vertices projected on the
 * seed's plane (for a single face: that face). */
static sc_status build_patches(sc_mesh* m) {
  const int nf = m->hnface, nv = m->hnvert, ntot = m->hface_adr[nf];
  patch_tmp t = {0};
  t.order = sc_malloc(sizeof(int) * (size_t)nf);
  t.queue = sc_malloc(sizeof(int) * (size_t)nf);
  t.area = sc_malloc(sizeof(double) * (size_t)nf);
  t.verts = sc_malloc(sizeof(int) * (size_t)ntot);
  t.mark = sc_calloc((size_t)nv, sizeof(int));
  t.pt = sc_malloc(sizeof(double[2]) * (size_t)nv);
  t.hull = sc_malloc(sizeof(int) * (2 * (size_t)nv + 2)); /* the chain's scratch: up to 2n */
  m->hface_patch = sc_malloc(sizeof(int) * (size_t)nf);
  m->hpatch_adr = sc_malloc(sizeof(int) * ((size_t)nf + 1));
  m->hpatch = sc_malloc(sizeof(int) * (size_t)ntot);
  m->hpatch_plane = sc_malloc(sizeof(double) * 4 * (size_t)nf);
  sc_status st = SC_OK;
  if (!t.order || !t.queue || !t.area || !t.verts || !t.mark || !t.pt || !t.hull || !m->hface_patch ||
      !m->hpatch_adr || !m->hpatch || !m->hpatch_plane) {
    st = SC_ERR_NOMEM;
    goto done;
  }
  for (int f = 0; f < nf; f++) {
    double N[3] = {0, 0, 0};
    const int a0 = m->hface_adr[f], n = m->hface_adr[f + 1] - a0;
    for (int i = 0; i < n; i++) { /* Newell: |N| / 2 is the polygon's area */
      const double *u = m->hvert + 3 * m->hface[a0 + i], *v = m->hvert + 3 * m->hface[a0 + (i + 1) % n];
      N[0] += (u[1] - v[1]) * (u[2] + v[2]);
      N[1] += (u[2] - v[2]) * (u[0] + v[0]);
      N[2] += (u[0] - v[0]) * (u[1] + v[1]);
    }
    t.area[f] = sqrt(dot3(N, N));
    t.order[f] = f;
    m->hface_patch[f] = -1;
  }
  area_key = t.area;
  qsort(t.order, (size_t)nf, sizeof(int), cmp_area);
  const double cmin = cos(SC_MESH_PATCH_ANGLE);
  int np = 0, pos = 0;
  m->hpatch_adr[0] = 0;
  for (int oi = 0; oi < nf; oi++) {
    const int seed = t.order[oi];
    if (m->hface_patch[seed] >= 0) continue;
    const double* ns = m->hplane + 4 * seed;
    int qh = 0, qt = 0, nvp = 0;
    t.queue[qt++] = seed;
    m->hface_patch[seed] = np;
    while (qh < qt) {
      const int f = t.queue[qh++];
      const int a0 = m->hface_adr[f], n = m->hface_adr[f + 1] - a0;
      for (int i = 0; i < n; i++) {
        const int u = m->hface[a0 + i], v = m->hface[a0 + (i + 1) % n];
        if (t.mark[u] != np + 1) {
          t.mark[u] = np + 1;
          t.verts[nvp++] = u;
        }
        const int g = face_across(m, f, u, v);
        if (g >= 0 && m->hface_patch[g] < 0 && dot3(m->hplane + 4 * g, ns) >= cmin) {
          m->hface_patch[g] = np;
          t.queue[qt++] = g;
        }
      }
    }
    double* pl = m->hpatch_plane + 4 * np;
    memcpy(pl, ns, 3 * sizeof(double));
    pl[3] = -INFINITY;
    for (int i = 0; i < nvp; i++) pl[3] = fmax(pl[3], dot3(pl, m->hvert + 3 * t.verts[i]));
    if (qt == 1) { /* one face: its own polygon */
      const int a0 = m->hface_adr[seed], n = m->hface_adr[seed + 1] - a0;
      memcpy(m->hpatch + pos, m->hface + a0, sizeof(int) * (size_t)n);
      pos += n;
    } else {
      /* tangents (t1, t2) with t1 x t2 = n, so counter-clockwise in them is
       * counter-clockwise seen from outside */
      double t1[3], t2[3], ax[3] = {0, 0, 0};
      ax[fabs(ns[0]) < 0.6 ? 0 : fabs(ns[1]) < 0.6 ? 1 : 2] = 1;
      cross3(t1, ax, ns);
      const double l = sqrt(dot3(t1, t1));
      for (int k = 0; k < 3; k++) t1[k] /= l;
      cross3(t2, ns, t1);
      for (int i = 0; i < nvp; i++) {
        const double* x = m->hvert + 3 * t.verts[i];
        t.pt[t.verts[i]][0] = dot3(x, t1);
        t.pt[t.verts[i]][1] = dot3(x, t2);
      }
      const int nh = chain((const double (*)[2])t.pt, t.verts, nvp, t.hull);
      memcpy(m->hpatch + pos, t.hull, sizeof(int) * (size_t)nh);
      pos += nh;
    }
    m->hpatch_adr[++np] = pos;
  }
  m->hnpatch = np;
done:
  sc_free(t.order);
  sc_free(t.queue);
  sc_free(t.area);
  sc_free(t.verts);
  sc_free(t.mark);
  sc_free(t.pt);
  sc_free(t.hull);
  return st;
}

/* ---- build ---- */

sc_status sc_mesh_build(sc_mesh* out, const char* file, sc_error* err) {
  free_hull(out);
  out->closed = 0;
  out->volume = 0;
  memset(out->centroid, 0, sizeof out->centroid);
  memset(out->inertia, 0, sizeof out->inertia);
  out->rbound = 0;
  sc_status st = check_input(out, file, err);
  if (st) return st;
  if (points_are_flat(out->vert, out->nvert))
    return sc_error_set(err, SC_ERR_SCENE, file, 0, 0, "needs at least 4 points not in one plane (it has %d vertices)",
                        out->nvert);
  st = build_hull(out, file, err);
  if (st) goto fail;
  if (out->hnvert < 4 || out->hnface < 4) {
    st = sc_error_set(err, SC_ERR_SCENE, file, 0, 0, "needs at least 4 points not in one plane");
    goto fail;
  }
  st = build_adjacency(out);
  if (!st) st = build_patches(out);
  if (!st) { /* the table of starts, each cell walked to from the previous one */
    int prev = 0;
    for (int c = 0; c < 6 * SC_MESH_DIRGRID * SC_MESH_DIRGRID; c++) {
      const int face = c / (SC_MESH_DIRGRID * SC_MESH_DIRGRID), a = face / 2;
      const int iu = (c / SC_MESH_DIRGRID) % SC_MESH_DIRGRID, iv = c % SC_MESH_DIRGRID;
      double d[3];
      d[a] = face % 2 ? -1 : 1;
      d[(a + 1) % 3] = (iu + 0.5) * 2.0 / SC_MESH_DIRGRID - 1;
      d[(a + 2) % 3] = (iv + 0.5) * 2.0 / SC_MESH_DIRGRID - 1;
      out->hdir[c] = prev = sc_mesh_support(out, d, prev);
    }
  }
  if (st) {
    sc_error_set(err, st, file, 0, 0, "out of memory (hull adjacency)");
    goto fail;
  }
  double r2 = 0;
  for (int i = 0; i < out->nvert; i++) {
    double q = dot3(out->vert + 3 * i, out->vert + 3 * i);
    if (q > r2) r2 = q;
  }
  out->rbound = sqrt(r2);
  for (int k = 0; k < 3; k++) { /* the hull's bounding box (the broad phase's) */
    double lo = INFINITY, hi = -INFINITY;
    for (int v = 0; v < out->hnvert; v++) {
      lo = fmin(lo, out->hvert[3 * v + k]);
      hi = fmax(hi, out->hvert[3 * v + k]);
    }
    out->hbox[k] = 0.5 * (lo + hi);
    out->hbox[3 + k] = 0.5 * (hi - lo);
  }
  mass_acc H;
  hull_sums(out, &H);
  double hv = H.d6 / 6.0;
  if (!(hv > 0) || !isfinite(hv)) {
    st = sc_error_set(err, SC_ERR_SCENE, file, 0, 0, "has zero volume (its convex hull's volume is %g m^3)", hv);
    goto fail;
  }
  int closed = mesh_is_closed(out);
  if (closed < 0) {
    st = sc_error_set(err, SC_ERR_NOMEM, file, 0, 0, "out of memory (edge table)");
    goto fail;
  }
  out->closed = closed;
  if (closed) {
    mass_of_mesh(out);
    /* a closed surface enclosing nothing (parts of opposite orientation
     * cancelling) relative to its hull's volume */
    if (!isfinite(out->volume) || !(out->volume > 1e-12 * hv)) {
      st = sc_error_set(err, SC_ERR_SCENE, file, 0, 0,
                        "has zero volume (a closed surface enclosing %g m^3, its convex hull %g m^3)", out->volume,
                        hv);
      goto fail;
    }
  } else {
    mass_finish(out, &H);
  }
  for (int i = 0; i < 9; i++)
    if (!isfinite(out->inertia[i])) {
      st = sc_error_set(err, SC_ERR_SCENE, file, 0, 0, "has non-finite inertia");
      goto fail;
    }
  return SC_OK;
fail:
  free_hull(out);
  out->closed = 0;
  out->volume = 0;
  out->rbound = 0;
  return st;
}
