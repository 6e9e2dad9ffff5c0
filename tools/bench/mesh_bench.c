/* mesh_bench: the cost of collision with convex hulls of 8, 100 and 1000
 * vertices (a cube; points spread over a sphere of radius 0.1 m), per
 * support query and per pair, walking the hull from the last answer (as the
 * narrow phase does) against scanning every vertex.  No assertions; prints
 * a markdown table.
 *
 * Pairs: two equal hulls at random orientations, the second moved along a
 * random direction u to where the hulls just touch (bisection on GJK's
 * verdict) and then 0.2 mm back in (a shallow contact), and a hull at a
 * random orientation resting 0.5 mm into a plane.
 * Times are per call, medians over 5 repetitions of 2000 poses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collision/col_internal.h"
#include "mesh/mesh.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

static void rand_unit(double u[3]) {
  double z = 2 * urand() - 1, p = 6.283185307179586 * urand(), r = sqrt(1 - z * z);
  u[0] = r * cos(p), u[1] = r * sin(p), u[2] = z;
}

static void rand_rot(double R[9]) {
  double q[4], n = 0;
  for (int i = 0; i < 4; i++) {
    q[i] = 2 * urand() - 1;
    n += q[i] * q[i];
  }
  n = sqrt(n);
  for (int i = 0; i < 4; i++) q[i] /= n;
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double M[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                 2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                 2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
  memcpy(R, M, sizeof M);
}

/* the hull of n points: a cube for n = 8, else points spread over the sphere
 * of radius 0.1 (Fibonacci lattice) */
static int make_hull(sc_mesh* m, int n) {
  memset(m, 0, sizeof *m);
  m->nvert = n;
  m->vert = sc_malloc(3 * (size_t)n * sizeof(double));
  for (int i = 0; i < n; i++) {
    double* v = m->vert + 3 * i;
    if (n == 8) {
      v[0] = i & 1 ? 0.08 : -0.08, v[1] = i & 2 ? 0.08 : -0.08, v[2] = i & 4 ? 0.08 : -0.08;
    } else {
      double z = 1 - (2 * i + 1.0) / n, r = sqrt(1 - z * z), p = 2.39996322972865332 * i;
      v[0] = 0.1 * r * cos(p), v[1] = 0.1 * r * sin(p), v[2] = 0.1 * z;
    }
  }
  sc_error err;
  if (sc_mesh_build(m, NULL, &err) != SC_OK) {
    fprintf(stderr, "mesh_bench: hull of %d points: %s\n", n, err.msg);
    return 0;
  }
  return 1;
}

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

enum { NPOSE = 2000, REP = 5 };
static double Ra[NPOSE][9], Rb[NPOSE][9], pb[NPOSE][3], dirs[NPOSE][3];

/* median time per call (s) of: 0 support walk, 1 support scan, 2 hull-hull
 * walk, 3 hull-hull scan, 4 hull-plane; *points: mean contact points */
static double timed(const sc_mesh* me, int what, double* points) {
  double t[REP];
  long npts = 0, calls = 0;
  volatile int sink = 0;
  for (int r = 0; r < REP; r++) {
    double t0 = now();
    for (int i = 0; i < NPOSE; i++) {
      if (what <= 1) {
        for (int k = 0; k < 10; k++) {
          double d[3] = {dirs[i][0] + 0.01 * k, dirs[i][1], dirs[i][2]};
          sink += what ? sc_mesh_support_scan(me, d) : sc_mesh_support(me, d, sink & 1);
        }
        continue;
      }
      const double zero[3] = {0, 0, 0};
      if (what <= 3) {
        sc_col_geom ga = {SC_GEOM_MESH, zero, Ra[i], me->hbox + 3, me};
        sc_col_geom gb = {SC_GEOM_MESH, pb[i], Rb[i], me->hbox + 3, me};
        sc_col_shape A, B;
        sc_col_shape_make(&A, &ga);
        sc_col_shape_make(&B, &gb);
        A.scan = B.scan = what == 3;
        sc_col_point out[SC_COL_MAX_POINTS];
        npts += sc_col_convex(&A, &B, 1e-3, out, SC_COL_MAX_POINTS);
      } else {
        static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        /* the hull's lowest point 0.5 mm below the plane z = 0 */
        double p[3] = {0, 0, 0}, mz[3] = {0, 0, -1}, q[3];
        sc_col_geom gb = {SC_GEOM_MESH, p, Rb[i], me->hbox + 3, me};
        sc_col_shape B;
        sc_col_shape_make(&B, &gb);
        sc_col_core_support(&B, mz, q);
        p[2] = -q[2] - 5e-4;
        sc_col_geom gp = {SC_GEOM_PLANE, zero, I, zero, NULL};
        sc_col_point out[SC_COL_MAX_POINTS];
        npts += sc_col_pair(&gp, &gb, 1e-3, out, SC_COL_MAX_POINTS);
      }
      calls++;
    }
    t[r] = (now() - t0) / (what <= 1 ? 10.0 * NPOSE : NPOSE);
  }
  qsort(t, REP, sizeof t[0], cmp);
  *points = calls ? (double)npts / (double)calls : 0;
  return t[REP / 2];
}

int main(void) {
  const int sizes[3] = {8, 100, 1000};
  printf("| hull vertices | support walk (ns) | support scan (ns) | hull-hull walk (us) | "
         "hull-hull scan (us) | scan / walk | hull-plane (us) | points per pair |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (int s = 0; s < 3; s++) {
    sc_mesh me;
    if (!make_hull(&me, sizes[s])) return 1;
    for (int i = 0; i < NPOSE; i++) {
      rand_rot(Ra[i]);
      rand_rot(Rb[i]);
      double u[3];
      rand_unit(u);
      const double zero[3] = {0, 0, 0};
      double lo = 0, hi = 1; /* along u: overlapping at 0, apart at 1 m */
      for (int it = 0; it < 50; it++) {
        const double t = 0.5 * (lo + hi);
        for (int k = 0; k < 3; k++) pb[i][k] = t * u[k];
        sc_col_geom ga = {SC_GEOM_MESH, zero, Ra[i], me.hbox + 3, &me};
        sc_col_geom gb = {SC_GEOM_MESH, pb[i], Rb[i], me.hbox + 3, &me};
        sc_col_shape A, B;
        sc_col_shape_make(&A, &ga);
        sc_col_shape_make(&B, &gb);
        double dd, wa[3], wb[3];
        if (sc_col_gjk(&A, &B, INFINITY, &dd, wa, wb))
          hi = t;
        else
          lo = t;
      }
      for (int k = 0; k < 3; k++) pb[i][k] = (lo - 2e-4) * u[k];
      rand_unit(dirs[i]);
    }
    double np, np2, np3;
    double sw = timed(&me, 0, &np), ss = timed(&me, 1, &np);
    double hw = timed(&me, 2, &np), hs = timed(&me, 3, &np2), hp = timed(&me, 4, &np3);
    printf("| %d (hull %d, %d faces) | %.0f | %.0f | %.1f | %.1f | %.1f | %.2f | %.2f (pairs), %.2f (plane) |\n",
           sizes[s], me.hnvert, me.hnface, 1e9 * sw, 1e9 * ss, 1e6 * hw, 1e6 * hs, hs / hw,
           1e6 * hp, np, np3);
    sc_mesh_free(&me);
  }
  return 0;
}
