/* Meshes and ellipsoids in motion, each against an independent reference:
 * a mesh cube against the box primitive (same contact points: the same
 * trajectory), a tessellated sphere and cylinder and an ellipsoid rolling
 * down a slope against the closed forms of rolling without slipping, and
 * the ellipsoid's mass properties against quadrature.  The meshes are
 * written by this test (OBJ and binary STL) into a temporary directory. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "core/core.h"
#include "integrator/integrator.h"
#include "scene/scene.h"

static const double PI = 3.14159265358979323846;
static char dir[64];

/* ---- mesh files ---- */

typedef struct tri_mesh {
  int nv, nf;
  double v[20000][3];
  int f[40000][3];
} tri_mesh;
static tri_mesh tm;

static void write_obj(const char* name, const tri_mesh* t) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE* f = fopen(path, "w");
  fprintf(f, "# written by test_shapes\no mesh\n");
  for (int i = 0; i < t->nv; i++) fprintf(f, "v %.17g %.17g %.17g\n", t->v[i][0], t->v[i][1], t->v[i][2]);
  for (int i = 0; i < t->nf; i++) fprintf(f, "f %d %d %d\n", t->f[i][0] + 1, t->f[i][1] + 1, t->f[i][2] + 1);
  fclose(f);
}

static void write_stl(const char* name, const tri_mesh* t) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE* f = fopen(path, "wb");
  char header[80] = "binary STL written by test_shapes";
  fwrite(header, 1, 80, f);
  uint32_t n = (uint32_t)t->nf;
  fwrite(&n, 4, 1, f);
  for (int i = 0; i < t->nf; i++) {
    float rec[12] = {0};
    for (int k = 0; k < 3; k++)
      for (int j = 0; j < 3; j++) rec[3 + 3 * k + j] = (float)t->v[t->f[i][k]][j];
    fwrite(rec, 4, 12, f);
    uint16_t attr = 0;
    fwrite(&attr, 2, 1, f);
  }
  fclose(f);
}

/* a cube of half edge h: 8 vertices, 12 triangles, outward */
static void make_cube(tri_mesh* t, double h) {
  t->nv = 8;
  for (int i = 0; i < 8; i++) {
    t->v[i][0] = i & 1 ? h : -h;
    t->v[i][1] = i & 2 ? h : -h;
    t->v[i][2] = i & 4 ? h : -h;
  }
  static const int q[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                              {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  t->nf = 0;
  for (int k = 0; k < 6; k++) {
    int a = q[k][0], b = q[k][1], c = q[k][2], d = q[k][3];
    t->f[t->nf][0] = a, t->f[t->nf][1] = b, t->f[t->nf++][2] = c;
    t->f[t->nf][0] = a, t->f[t->nf][1] = c, t->f[t->nf++][2] = d;
  }
}

/* vertex of the icosphere at the midpoint of (a, b), pushed to the sphere;
 * shared through a linear search of the edge list (small meshes) */
static int ekey[60000][2], eval[60000], nedge;
static int midpoint(tri_mesh* t, int a, int b, double r) {
  int lo = a < b ? a : b, hi = a < b ? b : a;
  for (int i = 0; i < nedge; i++)
    if (ekey[i][0] == lo && ekey[i][1] == hi) return eval[i];
  double m[3], n = 0;
  for (int k = 0; k < 3; k++) {
    m[k] = 0.5 * (t->v[a][k] + t->v[b][k]);
    n += m[k] * m[k];
  }
  n = sqrt(n);
  for (int k = 0; k < 3; k++) t->v[t->nv][k] = r * m[k] / n;
  ekey[nedge][0] = lo;
  ekey[nedge][1] = hi;
  eval[nedge++] = t->nv;
  return t->nv++;
}

/* icosahedron subdivided `levels` times: 10 4^levels + 2 vertices on the
 * sphere of radius r */
static void make_icosphere(tri_mesh* t, double r, int levels) {
  const double p = (1 + sqrt(5.0)) / 2;
  const double iv[12][3] = {{-1, p, 0}, {1, p, 0},  {-1, -p, 0}, {1, -p, 0},
                            {0, -1, p}, {0, 1, p},  {0, -1, -p}, {0, 1, -p},
                            {p, 0, -1}, {p, 0, 1},  {-p, 0, -1}, {-p, 0, 1}};
  static const int ifc[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                 {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                 {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                 {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  t->nv = 12;
  for (int i = 0; i < 12; i++) {
    double n = sqrt(iv[i][0] * iv[i][0] + iv[i][1] * iv[i][1] + iv[i][2] * iv[i][2]);
    for (int k = 0; k < 3; k++) t->v[i][k] = r * iv[i][k] / n;
  }
  t->nf = 20;
  memcpy(t->f, ifc, sizeof ifc);
  static int nf2[40000][3];
  for (int l = 0; l < levels; l++) {
    nedge = 0;
    int n2 = 0;
    for (int i = 0; i < t->nf; i++) {
      int a = t->f[i][0], b = t->f[i][1], c = t->f[i][2];
      int ab = midpoint(t, a, b, r), bc = midpoint(t, b, c, r), ca = midpoint(t, c, a, r);
      int add[4][3] = {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}};
      memcpy(nf2[n2], add, sizeof add);
      n2 += 4;
    }
    memcpy(t->f, nf2, sizeof(int) * 3 * (size_t)n2);
    t->nf = n2;
  }
}

/* a closed cylinder of radius r, length L along z, n sides (vertices on
 * the circle), caps fanned from their centres */
static void make_cylinder(tri_mesh* t, double r, double L, int n) {
  t->nv = 2 * n + 2;
  for (int i = 0; i < n; i++)
    for (int e = 0; e < 2; e++) {
      double th = 2 * PI * i / n;
      t->v[2 * i + e][0] = r * cos(th);
      t->v[2 * i + e][1] = r * sin(th);
      t->v[2 * i + e][2] = e ? 0.5 * L : -0.5 * L;
    }
  int cb = 2 * n, ct = 2 * n + 1;
  t->v[cb][0] = t->v[cb][1] = 0, t->v[cb][2] = -0.5 * L;
  t->v[ct][0] = t->v[ct][1] = 0, t->v[ct][2] = 0.5 * L;
  t->nf = 0;
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    int b0 = 2 * i, t0 = 2 * i + 1, b1 = 2 * j, t1 = 2 * j + 1;
    int add[4][3] = {{b0, b1, t1}, {b0, t1, t0}, {cb, b1, b0}, {ct, t0, t1}};
    memcpy(t->f[t->nf], add, sizeof add);
    t->nf += 4;
  }
}

/* ---- running scenes ---- */

typedef struct traj {
  int n;
  long allocs; /* sc_malloc/sc_calloc calls while stepping (must be 0) */
  double q[600][14]; /* the first two free bodies */
  double v[600][6]; /* the first free body's velocity */
  double e[600]; /* total energy, J */
  double pen[600]; /* deepest penetration, m */
} traj;

static int run(const char* text, traj* out) {
  sc_model* m = NULL;
  sc_data* d = NULL;
  sc_error err;
  char name[128];
  snprintf(name, sizeof name, "%s/scene.yaml", dir);
  sc_status st = sc_scene_load_string(text, name, NULL, 0, &m, &err);
  if (!st) st = sc_data_create(m, &d, &err);
  if (!st) st = sc_sim_prepare(m, d, &err);
  if (!st) st = sc_forward(m, d, &err);
  long n = st ? 0 : lround(m->opt.duration / m->opt.dt);
  int every = (int)(n / 500 + 1), k = 0;
  out->n = 0;
  const long a0 = sc_alloc_count_process();
  for (long s = 0; s <= n && !st; s++) { /* the model and data are made: nothing to allocate */
    if ((s % every == 0 || s == n) && k < 600) { /* the last row is the end */
      for (int i = 0; i < 14 && i < m->nq; i++) out->q[k][i] = d->q[i];
      for (int i = 0; i < 6 && i < m->nv; i++) out->v[k][i] = d->v[i];
      out->e[k] = d->e_kinetic + d->e_gravity + d->e_spring;
      double pen = 0;
      for (int c = 0; c < d->ncon; c++) pen = fmax(pen, -d->contact[c].dist);
      out->pen[k] = pen;
      k++;
    }
    if (s < n) st = sc_step(m, d, &err);
  }
  out->n = k;
  out->allocs = sc_alloc_count_process() - a0;
  if (out->allocs) printf("  %ld allocations while stepping\n", out->allocs);
  if (st) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    printf("  %s\n", buf);
  }
  sc_data_free(d);
  sc_model_free(m);
  return st == SC_OK;
}

static traj ta, tb;

static double max_qdiff(const traj* a, const traj* b) {
  double worst = 0;
  for (int k = 0; k < a->n && k < b->n; k++)
    for (int i = 0; i < 7; i++) worst = fmax(worst, fabs(a->q[k][i] - b->q[k][i]));
  return a->n == b->n ? worst : HUGE_VAL;
}

/* a cube tossed onto the ground, spinning: every contact is a corner of
 * the cube against the plane, which the box and the hull give alike (the
 * hull's vertices within the margin, walked from the deepest, are the box's
 * corners), so the trajectories agree to round-off */
static const char* toss =
    "simc: 1\ntime: {step: 1.0e-3, duration: 1.0}\n"
    "contact: {defaults: {stiffness: rigid, friction: 0.6}}\n"
    "bodies:\n  - name: cube\n    joint: {type: free}\n    mass: 2.0\n    inertia: solid\n"
    "    initial: {q: [0, 0, 0.35, 0.9238795325112867, 0.2209424, 0.3061862, 0.0],"
    " v: [0.8, -0.3, 0.5, 3.0, -2.0, 5.0]}\n"
    "    geometry:\n      - %s\n"
    "static:\n  - {shape: plane}\n";

static void test_mesh_cube_toss(void) {
  char s[2048];
  const char* files[2] = {"cube.obj", "cube.stl"};
  /* binary STL holds single-precision coordinates: its cube's half edge is
   * (float)0.1, and the box it must follow is that size */
  const double edge[2] = {0.2, 2.0 * (double)0.1f};
  for (int i = 0; i < 2; i++) {
    char g[256];
    snprintf(g, sizeof g, "{shape: box, size: [%.17g, %.17g, %.17g]}", edge[i], edge[i], edge[i]);
    snprintf(s, sizeof s, toss, g);
    ENSURE(run(s, &ta));
    snprintf(g, sizeof g, "{shape: mesh, file: %s}", files[i]);
    snprintf(s, sizeof s, toss, g);
    ENSURE(run(s, &tb));
    double dq = max_qdiff(&ta, &tb);
    printf("  %s: max |q - q_box| over 1 s = %.3g (tolerance 1e-9)\n", files[i], dq);
    ENSURE(dq <= 1e-9);
    ENSURE(ta.allocs == 0 && tb.allocs == 0);
  }
  /* it did land and tumble onto a face */
  printf("  z: %.4f m at the start, %.6f m at the end\n", ta.q[0][2], ta.q[ta.n - 1][2]);
  ENSURE(ta.q[0][2] > 0.3 && fabs(ta.q[ta.n - 1][2] - 0.1) < 1e-3);
}

/* a mesh cube resting on a box, against a box resting on the box: the
 * manifolds come from different paths (the separating-axis test for two
 * boxes, MPR and the hull's features for the mesh), so the trajectories need
 * not agree to round-off; the rest pose and energy must */
static const char* stack =
    "simc: 1\ntime: {step: 1.0e-3, duration: 1.0}\n"
    "contact: {defaults: {stiffness: rigid, friction: 0.6}}\n"
    "bodies:\n  - name: base\n    joint: {type: free}\n    mass: 5.0\n    inertia: solid\n"
    "    initial: {q: [0, 0, 0.1, 1, 0, 0, 0]}\n"
    "    geometry:\n      - {shape: box, size: [0.4, 0.4, 0.2]}\n"
    "  - name: top\n    joint: {type: free}\n    mass: 2.0\n    inertia: solid\n"
    "    initial: {q: [0.03, -0.02, 0.3005, 0.9998477, 0, 0, 0.0174524]}\n"
    "    geometry:\n      - %s\n"
    "static:\n  - {shape: plane}\n";

static void test_mesh_cube_on_box(void) {
  char s[2048];
  snprintf(s, sizeof s, stack, "{shape: box, size: [0.2, 0.2, 0.2]}");
  ENSURE(run(s, &ta));
  snprintf(s, sizeof s, stack, "{shape: mesh, file: cube.obj}");
  ENSURE(run(s, &tb));
  int a = ta.n - 1, b = tb.n - 1;
  double dq = 0;
  for (int i = 0; i < 14; i++) dq = fmax(dq, fabs(ta.q[a][i] - tb.q[b][i]));
  double de = fabs(ta.e[a] - tb.e[b]);
  printf("  rest: top z %.9f (box) %.9f (mesh), max |dq| %.2g, |dE| %.2g J (tolerances 1e-6)\n",
         ta.q[a][9], tb.q[b][9], dq, de);
  ENSURE(dq <= 1e-6 && de <= 1e-6);
  ENSURE(tb.allocs == 0); /* hull against box: the convex path */
  ENSURE(fabs(ta.q[a][9] - 0.3) < 1e-3);
}

/* rolling from rest down a slope of angle alpha (gravity tilted, ground
 * level): a smooth round body has x(t) = a t^2 / 2 with
 * a = g sin(alpha) / (1 + I / (m r^2)).  alpha = 10 degrees keeps the
 * tessellated bodies on the ground over the 0.5 s: a polygon pivoting on a
 * vertex needs v^2 / r < g cos(alpha) to stay down (v < 0.98 m/s here; the
 * run ends at 0.57 m/s), where at 30 degrees it would leave the ground and
 * bounce after 0.28 s. */
static const double ALPHA = 10 * 3.14159265358979323846 / 180, GRAV = 9.81, TROLL = 0.5;

static const char* roll =
    "simc: 1\ngravity: [%.17g, 0, %.17g]\ntime: {step: %g, duration: %g}\n"
    "integrator: {scheme: midpoint}\n"
    "contact: {defaults: {stiffness: rigid, friction: 0.8}}\n"
    "bodies:\n  - name: roller\n    joint: {type: free}\n    mass: 1.0\n    inertia: solid\n"
    "    initial: {q: [0, 0, %.17g, 1, 0, 0, 0]}\n"
    "    geometry:\n      - %s\n"
    "static:\n  - {shape: plane}\n";

static double roll_x(const char* geom, double height, double dt, traj* t) {
  char s[2048];
  snprintf(s, sizeof s, roll, GRAV * sin(ALPHA), -GRAV * cos(ALPHA), dt, TROLL, height, geom);
  if (!run(s, t)) return NAN;
  return t->q[t->n - 1][0];
}

/* A rigid regular polygon (circumradius R, n sides, inertia ic m R^2 about
 * its centre) rolling from rest on a vertex, the vertex under the centre:
 * between impacts it rotates about the vertex, (ic + 1) R phi'' = g sin(phi
 * + alpha), phi the angle of the centre past the slope normal; when the next
 * vertex lands (phi = pi / n) the impact is plastic there and the old pivot
 * lifts, which keeps the angular momentum about the new pivot:
 * omega+ = omega- (ic + cos(2 pi / n)) / (ic + 1).  Integrated by RK4 with
 * steps of 1 us (converged to 1e-9 m); returns the centre's travel at T. */
static double polygon_roll(int n, double ic, double R, double T, double* speed) {
  const double th = 2 * PI / n, h = 1e-6;
  double phi = 0, w = 0, xp = 0;
  long steps = lround(T / h);
  for (long k = 0; k < steps; k++) {
    double p[4], v[4];
    const double c = GRAV / ((ic + 1) * R);
    p[0] = w, v[0] = c * sin(phi + ALPHA);
    p[1] = w + 0.5 * h * v[0], v[1] = c * sin(phi + 0.5 * h * p[0] + ALPHA);
    p[2] = w + 0.5 * h * v[1], v[2] = c * sin(phi + 0.5 * h * p[1] + ALPHA);
    p[3] = w + h * v[2], v[3] = c * sin(phi + h * p[2] + ALPHA);
    phi += h / 6 * (p[0] + 2 * p[1] + 2 * p[2] + p[3]);
    w += h / 6 * (v[0] + 2 * v[1] + 2 * v[2] + v[3]);
    if (phi >= th / 2) {
      phi -= th;
      xp += 2 * R * sin(th / 2);
      w *= (ic + cos(th)) / (ic + 1);
    }
  }
  *speed = w * R;
  return xp + R * sin(phi);
}

/* The icosphere rolls over edges of varying angle, with no planar closed
 * form; it must lie between the smooth sphere (no impacts) and the
 * polygon model above at its largest angle between neighbouring face
 * normals (an impact at every such edge, the most lost) */
static double icosphere_max_edge_angle(void) {
  double worst = 0;
  for (int i = 0; i < tm.nf; i++)
    for (int j = i + 1; j < tm.nf; j++) {
      int shared = 0;
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) shared += tm.f[i][a] == tm.f[j][b];
      if (shared != 2) continue;
      double ni[3], nj[3];
      for (int k = 0; k < 3; k++) ni[k] = nj[k] = 0;
      for (int a = 0; a < 3; a++)
        for (int k = 0; k < 3; k++) {
          ni[k] += tm.v[tm.f[i][a]][k];
          nj[k] += tm.v[tm.f[j][a]][k];
        }
      double c = (ni[0] * nj[0] + ni[1] * nj[1] + ni[2] * nj[2]) /
                 sqrt((ni[0] * ni[0] + ni[1] * ni[1] + ni[2] * ni[2]) *
                      (nj[0] * nj[0] + nj[1] * nj[1] + nj[2] * nj[2]));
      worst = fmax(worst, acos(fmin(1, c)));
    }
  return worst;
}
static double ico_angle;

/* the rotational inertia of a 1 kg body made of the given geometry about
 * its centre's x axis (the loader's mass properties), kg m^2 */
static double body_ixx(const char* geom) {
  char s[1024];
  snprintf(s, sizeof s,
           "simc: 1\ntime: {step: 1.0e-3, duration: 0.01}\nbodies:\n  - name: b\n    joint: {type: free}\n"
           "    mass: 1\n    inertia: solid\n    geometry:\n      - %s\n",
           geom);
  char name[128];
  snprintf(name, sizeof name, "%s/scene.yaml", dir);
  sc_model* m = NULL;
  sc_error err;
  if (sc_scene_load_string(s, name, NULL, 0, &m, &err) != SC_OK) return NAN;
  double I = m->body_inertia[9];
  sc_model_free(m);
  return I;
}

static void test_icosphere_roll(void) {
  const double x_smooth = 0.5 * (5.0 / 7.0) * GRAV * sin(ALPHA) * TROLL * TROLL;
  /* the icosphere's own inertia (its mass lies inside the sphere through its
   * vertices): the smooth bound rolls on that sphere with it */
  const double ic = body_ixx("{shape: mesh, file: icosphere.obj}") / (0.1 * 0.1);
  const double x_ref = 0.5 * GRAV * sin(ALPHA) / (1 + ic) * TROLL * TROLL;
  const int nside = (int)lround(2 * PI / ico_angle);
  double v_low, v_ref = GRAV * sin(ALPHA) / (1 + ic) * TROLL;
  polygon_roll(nside, ic, 0.1, TROLL, &v_low);
  double xs = roll_x("{shape: sphere, radius: 0.1}", 0.1, 1e-3, &ta);
  double xm = roll_x("{shape: mesh, file: icosphere.obj}", 0.1, 1e-4, &tb);
  const double* v = tb.v[tb.n - 1];
  double vm = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), pen = 0;
  for (int k = 0; k < tb.n; k++) pen = fmax(pen, tb.pen[k]);
  /* its speed: no vertex lies under the centre at the start, so the
   * icosphere first tips onto a face, which shifts x by up to r times half
   * an edge angle (2.4 mm) but leaves the speed to the rolling */
  printf("  x(%.1f s): smooth %.6f m, sphere %.6f; icosphere (2562 vertices, I = %.5f m r^2) "
         "travels %.6f m at %.6f m/s, between %.6f (polygon, %.4f rad edges) and %.6f (smooth); "
         "deepest %.2e m\n",
         TROLL, x_smooth, xs, ic, xm, vm, v_low, ico_angle, v_ref, pen);
  ENSURE(fabs(xs - x_smooth) <= 1e-3 * x_smooth);
  ENSURE(tb.allocs == 0);
  ENSURE(vm <= v_ref * (1 + 1e-3) && vm >= v_low * (1 - 1e-3));
  ENSURE(fabs(xm - x_ref) <= 0.0024 + 1e-3 * x_ref);
  ENSURE(fabs(tb.q[tb.n - 1][1]) < 0.02 * xm); /* it rolls downhill, not sideways */
}

/* a 128-sided prism (a cylinder's tessellation) against the rigid polygon
 * model of its own cross-section (inertia (2 + cos(2 pi / n)) / 6 m R^2, a
 * regular polygon lamina), and the smooth cylinder against a = 2/3 g sin */
static void test_cylinder_roll(void) {
  const double x_ref = 0.5 * (2.0 / 3.0) * GRAV * sin(ALPHA) * TROLL * TROLL;
  const int n = 128;
  double v_poly;
  const double x_poly = polygon_roll(n, (2 + cos(2 * PI / n)) / 6, 0.1, TROLL, &v_poly);
  /* axis along y (rolled by pi/2 about x); a vertex under the centre */
  double xc = roll_x("{shape: cylinder, radius: 0.1, length: 0.3, pose: {rpy: [1.5707963267948966, 0, 0]}}",
                     0.1, 1e-3, &ta);
  double xm = roll_x("{shape: mesh, file: cylinder.obj, pose: {rpy: [1.5707963267948966, 0, 0]}}", 0.1,
                     1e-4, &tb);
  printf("  x(%.1f s): smooth %.6f m, cylinder %.6f; rigid 128-gon %.6f, 128-sided prism %.6f "
         "(rel. %.2e)\n",
         TROLL, x_ref, xc, x_poly, xm, (xm - x_poly) / x_poly);
  ENSURE(fabs(xc - x_ref) <= 1e-3 * x_ref);
  /* measured: 2.3e-3 short at dt = 0.5 ms, 7.4e-4 at 0.2 ms, 3.1e-4 at 0.1 ms
   * (first order in dt: each landing is resolved within a step) */
  ENSURE(fabs(xm - x_poly) <= 1e-3 * x_poly);
}

/* a prolate spheroid (0.1, 0.1, 0.15) lying on its side, symmetry axis
 * across the slope: it rolls on its equator, a circle of radius 0.1, with
 * I = 2/5 m a^2 about that axis: a = 5/7 g sin(alpha) */
static void test_ellipsoid_roll(void) {
  const double x_ref = 0.5 * (5.0 / 7.0) * GRAV * sin(ALPHA) * TROLL * TROLL;
  double x = roll_x("{shape: ellipsoid, radii: [0.1, 0.1, 0.15], pose: {rpy: [1.5707963267948966, 0, 0]}}",
                    0.1, 1e-3, &ta);
  printf("  x(%.1f s): closed form %.6f m, spheroid %.6f (rel. %.2e)\n", TROLL, x_ref, x,
         (x - x_ref) / x_ref);
  ENSURE(fabs(x - x_ref) <= 1e-3 * x_ref);
  ENSURE(ta.allocs == 0);
  /* it stays on its side: the axis across the slope, centre at a */
  ENSURE(fabs(ta.q[ta.n - 1][2] - 0.1) < 1e-4);
}

/* Ellipsoid mass properties against Gauss-Legendre quadrature over the unit
 * ball (x = a u, ...), exact for these polynomial integrands */
static void gauss_legendre(int n, double* x, double* w) {
  for (int i = 0; i < n; i++) {
    double z = cos(PI * (i + 0.75) / (n + 0.5)), dp = 0;
    for (int it = 0; it < 100; it++) {
      double p0 = 1, p1 = z;
      for (int k = 2; k <= n; k++) {
        double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1);
      double dz = p1 / dp;
      z -= dz;
      if (fabs(dz) < 1e-16) break;
    }
    x[i] = z;
    w[i] = 2 / ((1 - z * z) * dp * dp);
  }
}

static void test_ellipsoid_mass(void) {
  const double r[3] = {0.3, 0.2, 0.1}, mass = 3.0;
  double gx[12], gw[12];
  gauss_legendre(12, gx, gw);
  /* V and the second moments S_ii = int x_i^2 dV over the ball, in the
   * coordinates (rho, z = cos(theta), azimuth): the integrands are
   * polynomials in rho and z (Gauss-Legendre, exact) and trigonometric
   * polynomials of degree 2 in the azimuth (equally spaced points, exact) */
  double V = 0, S[3] = {0, 0, 0};
  const double jac = r[0] * r[1] * r[2];
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 12; j++)
      for (int k = 0; k < 8; k++) {
        double rr = 0.5 * (gx[i] + 1), z = gx[j], ph = 2 * PI * k / 8, st = sqrt(1 - z * z);
        double w = 0.5 * gw[i] * gw[j] * (2 * PI / 8) * rr * rr * jac;
        double u[3] = {rr * st * cos(ph), rr * st * sin(ph), rr * z};
        V += w;
        for (int a = 0; a < 3; a++) S[a] += w * (r[a] * u[a]) * (r[a] * u[a]);
      }
  double rho = mass / V, Iq[3] = {rho * (S[1] + S[2]), rho * (S[0] + S[2]), rho * (S[0] + S[1])};
  char s[1024];
  snprintf(s, sizeof s,
           "simc: 1\ntime: {step: 1.0e-3, duration: 0.01}\nbodies:\n  - name: e\n    joint: {type: free}\n    mass: %g\n    inertia: solid\n"
           "    geometry:\n      - {shape: ellipsoid, radii: [%g, %g, %g]}\n",
           mass, r[0], r[1], r[2]);
  sc_model* m = NULL;
  sc_error err;
  ENSURE(sc_scene_load_string(s, "ellipsoid.yaml", NULL, 0, &m, &err) == SC_OK);
  if (!m) return;
  printf("  I = (%.15g, %.15g, %.15g) kg m^2, quadrature (%.15g, %.15g, %.15g)\n",
         m->body_inertia[9], m->body_inertia[13], m->body_inertia[17], Iq[0], Iq[1], Iq[2]);
  for (int a = 0; a < 3; a++) ENSURE_NEAR(m->body_inertia[9 + 4 * a], Iq[a], 1e-12 * Iq[a]);
  ENSURE(m->body_inertia[10] == 0 && m->body_inertia[11] == 0 && m->body_inertia[14] == 0);
  /* and a tessellated ellipsoid (the icosphere of radius 1 scaled by the
   * radii) within its tessellation error: its vertices lie on the surface,
   * so it is slightly inside; 2562 vertices: volume about 0.2 % short */
  sc_model_free(m);
  char mp[256];
  snprintf(mp, sizeof mp, "%s/unit_sphere.obj", dir);
  snprintf(s, sizeof s,
           "simc: 1\ntime: {step: 1.0e-3, duration: 0.01}\nbodies:\n  - name: e\n    joint: {type: free}\n    mass: %g\n    inertia: solid\n"
           "    geometry:\n      - {shape: mesh, file: %s, scale: [%g, %g, %g]}\n",
           mass, mp, r[0], r[1], r[2]);
  ENSURE(sc_scene_load_string(s, "ellipsoid_mesh.yaml", NULL, 0, &m, &err) == SC_OK);
  if (!m) return;
  for (int a = 0; a < 3; a++) ENSURE_NEAR(m->body_inertia[9 + 4 * a], Iq[a], 5e-3 * Iq[a]);
  for (int a = 0; a < 3; a++) ENSURE_NEAR(m->body_com[3 + a], 0, 1e-12);
  sc_model_free(m);
}

/* scene errors about meshes name the scene's line or the mesh file's */
static void test_mesh_scene_errors(void) {
  struct {
    const char* geom;
    const char* want;
  } cases[] = {
      {"{shape: mesh}", "scene.yaml:"},
      {"{shape: mesh, file: nonexistent.obj}", "nonexistent.obj"},
      {"{shape: mesh, file: cube.obj, scale: [1, 0, 1]}", "must be > 0"},
      {"{shape: mesh, file: bad.obj}", "bad.obj:3"},
      {"{shape: ellipsoid, radii: [1, 2]}", "3 numbers"},
      {"{shape: ellipsoid}", "radii"},
  };
  char path[128];
  snprintf(path, sizeof path, "%s/bad.obj", dir);
  FILE* f = fopen(path, "w");
  fprintf(f, "v 0 0 0\nv 1 0 0\nf 1 2 7\n");
  fclose(f);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char s[1024], name[128], msg[1400];
    snprintf(s, sizeof s,
             "simc: 1\ntime: {step: 1.0e-3, duration: 0.01}\nbodies:\n  - name: b\n    joint: {type: free}\n    mass: 1\n    inertia: solid\n"
             "    geometry:\n      - %s\n",
             cases[i].geom);
    snprintf(name, sizeof name, "%s/scene.yaml", dir);
    sc_model* m = NULL;
    sc_error err;
    sc_status st = sc_scene_load_string(s, name, NULL, 0, &m, &err);
    sc_error_format(&err, msg, sizeof msg);
    printf("  %s -> %s\n", cases[i].geom, st ? msg : "(loaded)");
    ENSURE(st == SC_ERR_SCENE && strstr(msg, cases[i].want));
    sc_model_free(m);
  }
}

int main(int argc, char** argv) {
  snprintf(dir, sizeof dir, "/tmp/simc_shapes_XXXXXX");
  if (!mkdtemp(dir)) return 1;
  make_cube(&tm, 0.1);
  write_obj("cube.obj", &tm);
  write_stl("cube.stl", &tm);
  make_icosphere(&tm, 0.1, 4);
  write_obj("icosphere.obj", &tm);
  ico_angle = icosphere_max_edge_angle();
  make_icosphere(&tm, 1.0, 4);
  write_obj("unit_sphere.obj", &tm);
  make_cylinder(&tm, 0.1, 0.3, 128);
  write_obj("cylinder.obj", &tm);
  TEST_BEGIN(argc, argv);
  RUN(test_ellipsoid_mass);
  RUN(test_mesh_scene_errors);
  RUN(test_mesh_cube_toss);
  RUN(test_mesh_cube_on_box);
  RUN(test_icosphere_roll);
  RUN(test_cylinder_roll);
  RUN(test_ellipsoid_roll);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) printf("  could not remove %s\n", dir);
  return TEST_END();
}
