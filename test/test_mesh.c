/* Meshes against independent references: a unit cube's mass properties in
 * closed form; a torus and MuJoCo's mug against test/mesh_mass.py
 * (Mirtich's projection integrals in numpy, sharing nothing with the
 * library's tetrahedra but the input file) and the smooth torus's closed
 * form within the tessellation error; a 64-sided prism in closed form; a
 * random point cloud's hull against the sphere; hull invariants (every
 * vertex inside every face plane, Euler's formula, symmetric adjacency);
 * the hill-climbing support query against the brute-force scan; and each
 * refused input with its error code and location. */
#include "harness.h"
#include "mesh/mesh.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static char tmpdir[] = "/tmp/test_mesh.XXXXXX";
static const double ONE[3] = {1, 1, 1};
static const char* MUG_PATHS[] = {"/usr/share/mujoco/model/mug/mug.obj",
                                  "/tmp/mjs/usr/share/mujoco/model/mug/mug.obj"};

/* ---- helpers ---- */

/* 64-bit LCG (Knuth's MMIX constants), top 53 bits as a double in [0, 1) */
static uint64_t lcg = 12345;
static double u01(void) {
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lcg >> 11) * (1.0 / 9007199254740992.0);
}

static void rand_unit(double d[3]) {
  double r2;
  do {
    for (int k = 0; k < 3; k++) d[k] = 2 * u01() - 1;
    r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  } while (r2 > 1 || r2 < 1e-4);
  double r = sqrt(r2);
  for (int k = 0; k < 3; k++) d[k] /= r;
}

static double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static const char* tmp_path(const char* name) {
  static char buf[8][512];
  static int k;
  k = (k + 1) % 8;
  snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
  return buf[k];
}

static void write_file(const char* path, const void* data, size_t n) {
  FILE* f = fopen(path, "wb");
  if (!f) {
    printf("  cannot write %s\n", path);
    return;
  }
  fwrite(data, 1, n, f);
  fclose(f);
}

static void write_text(const char* path, const char* s) { write_file(path, s, strlen(s)); }

/* OBJ of vertices v and polygons (adr == NULL: triangles) */
static void write_obj(const char* path, const double* v, int nv, const int* idx, const int* adr, int nf) {
  FILE* f = fopen(path, "w");
  if (!f) return;
  for (int i = 0; i < nv; i++) fprintf(f, "v %.17g %.17g %.17g\n", v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  for (int i = 0; i < nf; i++) {
    int a = adr ? adr[i] : 3 * i, b = adr ? adr[i + 1] : 3 * i + 3;
    fputc('f', f);
    for (int k = a; k < b; k++) fprintf(f, " %d", idx[k] + 1);
    fputc('\n', f);
  }
  fclose(f);
}

/* test/mesh_mass.py's line: closed, volume, centroid[3], inertia[9] */
static int python_ref(const char* path, const double* scale, double out[14]) {
  char cmd[1024];
  if (scale)
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 test/mesh_mass.py '%s' %.17g %.17g %.17g", path, scale[0], scale[1],
             scale[2]);
  else
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 test/mesh_mass.py '%s'", path);
  FILE* p = popen(cmd, "r");
  if (!p) return 0;
  int n = 0;
  for (; n < 14; n++)
    if (fscanf(p, "%lf", &out[n]) != 1) break;
  int rc = pclose(p);
  if (n != 14 || rc != 0) printf("  %s: %d numbers, exit %d\n", cmd, n, rc);
  return n == 14 && rc == 0;
}

/* m's mass properties against the reference line: volume relative rtol,
 * centroid within rtol x rbound, inertia within rtol x its largest entry */
static void ensure_mass_matches(const sc_mesh* m, const double ref[14], double rtol) {
  ENSURE(m->closed == (int)ref[0]);
  ENSURE_CLOSE(m->volume, ref[1], rtol, 0);
  for (int k = 0; k < 3; k++) ENSURE_NEAR(m->centroid[k], ref[2 + k], rtol * m->rbound);
  double imax = 0;
  for (int k = 0; k < 9; k++) imax = fmax(imax, fabs(ref[5 + k]));
  for (int k = 0; k < 9; k++) ENSURE_NEAR(m->inertia[k], ref[5 + k], rtol * imax);
}

/* a mesh from arrays (copied) through sc_mesh_build */
static sc_status mesh_from(sc_mesh* m, const double* v, int nv, const int* f, int nf, sc_error* err) {
  memset(m, 0, sizeof *m);
  m->vert = sc_malloc(sizeof(double) * 3 * (size_t)nv);
  memcpy(m->vert, v, sizeof(double) * 3 * (size_t)nv);
  m->nvert = nv;
  if (nf) {
    m->face = sc_malloc(sizeof(int) * 3 * (size_t)nf);
    memcpy(m->face, f, sizeof(int) * 3 * (size_t)nf);
  }
  m->nface = nf;
  return sc_mesh_build(m, "generated", err);
}

/* Hull invariants: polygons counter-clockwise from outside (Newell normal
 * along the plane normal), their vertices on their plane, every hull vertex
 * inside every plane, Euler's V - E + F = 2, adjacency symmetric and equal
 * to the polygons' edges, hvf listing exactly the faces around a vertex. */
static void check_hull(const sc_mesh* m) {
  double tol = 1e-12 * m->rbound;
  int nv = m->hnvert, nf = m->hnface, ntot = m->hface_adr[nf];
  for (int f = 0; f < nf; f++) {
    const double* pl = m->hplane + 4 * f;
    ENSURE_NEAR(dot(pl, pl), 1.0, 1e-14);
    const int* poly = m->hface + m->hface_adr[f];
    int n = m->hface_adr[f + 1] - m->hface_adr[f];
    ENSURE(n >= 3);
    double N[3] = {0, 0, 0};
    for (int k = 0; k < n; k++) {
      const double *a = m->hvert + 3 * poly[k], *b = m->hvert + 3 * poly[(k + 1) % n];
      N[0] += (a[1] - b[1]) * (a[2] + b[2]);
      N[1] += (a[2] - b[2]) * (a[0] + b[0]);
      N[2] += (a[0] - b[0]) * (a[1] + b[1]);
      ENSURE_NEAR(dot(pl, a), pl[3], 1e-9 * m->rbound);
    }
    ENSURE(dot(N, pl) > 0);
  }
  int outside = 0;
  for (int f = 0; f < nf; f++)
    for (int i = 0; i < nv; i++)
      if (dot(m->hplane + 4 * f, m->hvert + 3 * i) > m->hplane[4 * f + 3] + tol) outside++;
  ENSURE(outside == 0);
  ENSURE(ntot % 2 == 0);
  ENSURE(nv - ntot / 2 + nf == 2);
  ENSURE(m->hadj_adr[nv] == ntot); /* each edge once per end */
  ENSURE(m->hvf_adr[nv] == ntot);
  for (int i = 0; i < nv; i++) {
    for (int k = m->hadj_adr[i]; k < m->hadj_adr[i + 1]; k++) {
      int j = m->hadj[k], back = 0;
      ENSURE(j != i && j >= 0 && j < nv);
      for (int q = m->hadj_adr[j]; q < m->hadj_adr[j + 1]; q++) back += m->hadj[q] == i;
      ENSURE(back == 1);
    }
    for (int k = m->hvf_adr[i]; k < m->hvf_adr[i + 1]; k++) {
      int f = m->hvf[k], in = 0;
      for (int q = m->hface_adr[f]; q < m->hface_adr[f + 1]; q++) in += m->hface[q] == i;
      ENSURE(in == 1);
    }
  }
}

/* 10 000 random directions from random starts: the walk's vertex is as far
 * along d as the scan's (within 1e-12 rbound); returns how often they are
 * the same vertex */
static int check_support(const sc_mesh* m, const char* name) {
  int same = 0, bad = 0;
  for (int t = 0; t < 10000; t++) {
    double d[3];
    rand_unit(d);
    int start = (int)(u01() * m->hnvert);
    int a = sc_mesh_support(m, d, start), b = sc_mesh_support_scan(m, d);
    ENSURE(a >= 0 && a < m->hnvert);
    if (a < 0 || a >= m->hnvert) return 0;
    double va = dot(d, m->hvert + 3 * a), vb = dot(d, m->hvert + 3 * b);
    if (!(va >= vb - 1e-12 * m->rbound)) bad++;
    same += a == b;
  }
  ENSURE(bad == 0);
  printf("  %s: hull %d vertices, %d faces; support walk = scan vertex in %d of 10000 (others ties), %d worse\n",
         name, m->hnvert, m->hnface, same, bad);
  return same;
}

/* ---- generated meshes ---- */

/* torus about z through c: R to the tube's centre, r the tube; nu x nv
 * quads as two triangles each, outward */
static void make_torus(double R, double r, int nu, int nv, const double c[3], double** v, int* n, int** f,
                       int* nf) {
  *n = nu * nv;
  *nf = 2 * nu * nv;
  *v = malloc(sizeof(double) * 3 * (size_t)*n);
  *f = malloc(sizeof(int) * 3 * (size_t)*nf);
  for (int i = 0; i < nu; i++)
    for (int j = 0; j < nv; j++) {
      double u = 2 * M_PI * i / nu, w = 2 * M_PI * j / nv;
      double* p = *v + 3 * (i * nv + j);
      p[0] = c[0] + (R + r * cos(w)) * cos(u);
      p[1] = c[1] + (R + r * cos(w)) * sin(u);
      p[2] = c[2] + r * sin(w);
    }
  int t = 0;
  for (int i = 0; i < nu; i++)
    for (int j = 0; j < nv; j++) {
      int a = i * nv + j, b = ((i + 1) % nu) * nv + j, c2 = ((i + 1) % nu) * nv + (j + 1) % nv,
          d = i * nv + (j + 1) % nv;
      int* q = *f + 3 * t;
      q[0] = a, q[1] = b, q[2] = c2;
      q[3] = a, q[4] = c2, q[5] = d;
      t += 2;
    }
}

/* icosahedron subdivided `levels` times onto the unit sphere */
static void make_icosphere(int levels, double** v, int* n, int** f, int* nf) {
  const double p = (1 + sqrt(5.0)) / 2;
  const double iv[12][3] = {{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0}, {0, -1, p}, {0, 1, p},
                            {0, -1, -p}, {0, 1, -p}, {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
  const int it[20][3] = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                         {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8},
                         {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
  int cap_v = 10 * (1 << (2 * levels)) + 2, cap_f = 20 * (1 << (2 * levels));
  double* V = malloc(sizeof(double) * 3 * (size_t)cap_v);
  int* F = malloc(sizeof(int) * 3 * (size_t)cap_f);
  int nv = 12, nt = 20;
  for (int i = 0; i < 12; i++) {
    double l = sqrt(dot(iv[i], iv[i]));
    for (int k = 0; k < 3; k++) V[3 * i + k] = iv[i][k] / l;
  }
  memcpy(F, it, sizeof it);
  for (int lev = 0; lev < levels; lev++) {
    int hsz = 1;
    while (hsz < 4 * nt) hsz *= 2;
    long long* key = malloc(sizeof(long long) * (size_t)hsz);
    int* val = malloc(sizeof(int) * (size_t)hsz);
    for (int i = 0; i < hsz; i++) key[i] = -1;
    int* G = malloc(sizeof(int) * 3 * 4 * (size_t)nt);
    for (int t = 0; t < nt; t++) {
      int mid[3];
      for (int e = 0; e < 3; e++) {
        int a = F[3 * t + e], b = F[3 * t + (e + 1) % 3];
        long long k = a < b ? (long long)a * cap_v + b : (long long)b * cap_v + a;
        int h = (int)((unsigned long long)(k * 2654435761LL) % (unsigned)hsz);
        while (key[h] >= 0 && key[h] != k) h = (h + 1) % hsz;
        if (key[h] < 0) {
          key[h] = k;
          double* x = V + 3 * nv;
          for (int q = 0; q < 3; q++) x[q] = V[3 * a + q] + V[3 * b + q];
          double l = sqrt(dot(x, x));
          for (int q = 0; q < 3; q++) x[q] /= l;
          val[h] = nv++;
        }
        mid[e] = val[h];
      }
      int a = F[3 * t], b = F[3 * t + 1], c = F[3 * t + 2];
      int q[12] = {a, mid[0], mid[2], b, mid[1], mid[0], c, mid[2], mid[1], mid[0], mid[1], mid[2]};
      memcpy(G + 12 * t, q, sizeof q);
    }
    memcpy(F, G, sizeof(int) * 12 * (size_t)nt);
    nt *= 4;
    free(G);
    free(key);
    free(val);
  }
  *v = V;
  *n = nv;
  *f = F;
  *nf = nt;
}

/* closed prism of a regular nseg-gon of circumradius r, height h, centred
 * on the origin along z, caps fanned from their centres */
static void make_cylinder(double r, double h, int nseg, double** v, int* n, int** f, int* nf) {
  *n = 2 * nseg + 2;
  *nf = 4 * nseg;
  double* V = malloc(sizeof(double) * 3 * (size_t)*n);
  int* F = malloc(sizeof(int) * 3 * (size_t)*nf);
  for (int i = 0; i < nseg; i++) {
    double a = 2 * M_PI * i / nseg;
    for (int s = 0; s < 2; s++) {
      double* x = V + 3 * (i + s * nseg);
      x[0] = r * cos(a);
      x[1] = r * sin(a);
      x[2] = s ? h / 2 : -h / 2;
    }
  }
  int cb = 2 * nseg, ct = 2 * nseg + 1;
  V[3 * cb] = V[3 * cb + 1] = V[3 * ct] = V[3 * ct + 1] = 0;
  V[3 * cb + 2] = -h / 2;
  V[3 * ct + 2] = h / 2;
  for (int i = 0; i < nseg; i++) {
    int j = (i + 1) % nseg;
    int q[12] = {i, j, j + nseg, i, j + nseg, i + nseg, cb, j, i, ct, i + nseg, j + nseg};
    memcpy(F + 12 * i, q, sizeof q);
  }
  *v = V;
  *f = F;
}

static const char* mug_path(void) {
  for (size_t i = 0; i < sizeof MUG_PATHS / sizeof *MUG_PATHS; i++)
    if (access(MUG_PATHS[i], R_OK) == 0) return MUG_PATHS[i];
  return NULL;
}

/* ---- tests ---- */

/* The committed cube [1,2] x [-1,0] x [2,3] in its three formats: 8 hull
 * vertices, 6 quadrilaterals along the axes, volume 1, centroid the box's
 * centre, inertia 1/6 on the diagonal (m a^2 / 6 for a cube of edge a). */
static void test_cube_files(void) {
  const char* files[] = {"test/meshes/cube.obj", "test/meshes/cube_ascii.stl", "test/meshes/cube_binary.stl"};
  const double c[3] = {1.5, -0.5, 2.5};
  for (int i = 0; i < 3; i++) {
    sc_mesh m;
    sc_error err;
    sc_error_clear(&err);
    sc_status st = sc_mesh_read(files[i], ONE, &m, &err);
    ENSURE(st == SC_OK);
    if (st) {
      printf("  %s: %s\n", files[i], err.msg);
      continue;
    }
    ENSURE(strcmp(m.file, files[i]) == 0);
    ENSURE(m.nvert == 8); /* STL's repeated vertices merged */
    ENSURE(m.nface == 12);
    ENSURE(m.hnvert == 8);
    ENSURE(m.hnface == 6);
    for (int f = 0; f < m.hnface; f++) {
      ENSURE(m.hface_adr[f + 1] - m.hface_adr[f] == 4);
      int axis = 0;
      for (int k = 0; k < 3; k++)
        if (fabs(m.hplane[4 * f + k]) > 0.5) axis = k;
      for (int k = 0; k < 3; k++) ENSURE_NEAR(fabs(m.hplane[4 * f + k]), k == axis ? 1.0 : 0.0, 1e-15);
      double s = m.hplane[4 * f + axis];
      ENSURE_NEAR(m.hplane[4 * f + 3], s * c[axis] + 0.5, 1e-15);
    }
    for (int v = 0; v < 8; v++) {
      ENSURE(m.hadj_adr[v + 1] - m.hadj_adr[v] == 3);
      ENSURE(m.hvf_adr[v + 1] - m.hvf_adr[v] == 3);
    }
    check_hull(&m);
    ENSURE(m.closed == 1);
    ENSURE_NEAR(m.volume, 1.0, 1e-12);
    for (int k = 0; k < 3; k++) ENSURE_NEAR(m.centroid[k], c[k], 1e-12);
    for (int k = 0; k < 9; k++) ENSURE_NEAR(m.inertia[k], k % 4 == 0 ? 1.0 / 6 : 0.0, 1e-12);
    ENSURE_NEAR(m.rbound, sqrt(4 + 1 + 9), 1e-15); /* corner (2, -1, 3) */
    sc_mesh_free(&m);
    ENSURE(m.vert == NULL && m.hvert == NULL && m.file == NULL);
  }
}

/* scale (2, -1, 3) mirrors the cube: still closed and outward, volume 6,
 * inertia of a 2 x 1 x 3 box m (b^2 + c^2) / 12 ... */
static void test_cube_scaled_mirrored(void) {
  const double s[3] = {2, -1, 3};
  sc_mesh m;
  sc_error err;
  ENSURE(sc_mesh_read("test/meshes/cube_binary.stl", s, &m, &err) == SC_OK);
  if (!m.vert) return;
  ENSURE(m.closed == 1);
  ENSURE_NEAR(m.volume, 6.0, 1e-12);
  const double c[3] = {3.0, 0.5, 7.5};
  for (int k = 0; k < 3; k++) ENSURE_NEAR(m.centroid[k], c[k], 1e-12);
  const double I[3] = {6 * (1 + 9) / 12.0, 6 * (4 + 9) / 12.0, 6 * (4 + 1) / 12.0};
  for (int k = 0; k < 9; k++) ENSURE_NEAR(m.inertia[k], k % 4 == 0 ? I[k / 4] : 0.0, 1e-12);
  /* the triangles themselves face out: their signed volume is positive */
  double v6 = 0;
  for (int f = 0; f < m.nface; f++) {
    const double *a = m.vert + 3 * m.face[3 * f], *b = m.vert + 3 * m.face[3 * f + 1],
                 *cc = m.vert + 3 * m.face[3 * f + 2];
    v6 += a[0] * (b[1] * cc[2] - b[2] * cc[1]) - a[1] * (b[0] * cc[2] - b[2] * cc[0]) +
          a[2] * (b[0] * cc[1] - b[1] * cc[0]);
  }
  ENSURE_NEAR(v6 / 6, 6.0, 1e-12);
  check_hull(&m);
  sc_mesh_free(&m);
}

/* closedness: a cube missing a triangle is open (mass of the hull, the same
 * cube); one wound inwards is closed with positive volume; one with a seam
 * (a corner repeated under a second index) is closed on positions; a CRLF
 * OBJ with faces before the vertices they name reads the same cube */
static void test_cube_variants(void) {
  const double v[9][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1},
                          {1, 0, 1}, {1, 1, 1}, {0, 1, 1}, {1, 1, 1}};
  const int f[12][3] = {{0, 3, 2}, {0, 2, 1}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                        {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  sc_mesh m;
  sc_error err;
  /* open */
  ENSURE(mesh_from(&m, &v[0][0], 8, &f[0][0], 11, &err) == SC_OK);
  ENSURE(m.closed == 0);
  ENSURE_NEAR(m.volume, 1.0, 1e-12);
  for (int k = 0; k < 9; k++) ENSURE_NEAR(m.inertia[k], k % 4 == 0 ? 1.0 / 6 : 0.0, 1e-12);
  sc_mesh_free(&m);
  /* inward */
  int g[12][3];
  for (int t = 0; t < 12; t++) g[t][0] = f[t][0], g[t][1] = f[t][2], g[t][2] = f[t][1];
  ENSURE(mesh_from(&m, &v[0][0], 8, &g[0][0], 12, &err) == SC_OK);
  ENSURE(m.closed == 1);
  ENSURE_NEAR(m.volume, 1.0, 1e-12);
  for (int k = 0; k < 3; k++) ENSURE_NEAR(m.centroid[k], 0.5, 1e-12);
  sc_mesh_free(&m);
  /* seam: triangles of the +x face use vertex 8, a copy of vertex 6 */
  memcpy(g, f, sizeof f);
  g[6][2] = 8, g[7][1] = 8;
  ENSURE(mesh_from(&m, &v[0][0], 9, &g[0][0], 12, &err) == SC_OK);
  ENSURE(m.closed == 1);
  ENSURE(m.hnvert == 8);
  ENSURE_NEAR(m.volume, 1.0, 1e-12);
  sc_mesh_free(&m);
  /* two faces repeated in the same direction: not closed */
  memcpy(g, f, sizeof f);
  g[1][0] = f[0][0], g[1][1] = f[0][1], g[1][2] = f[0][2];
  ENSURE(mesh_from(&m, &v[0][0], 8, &g[0][0], 12, &err) == SC_OK);
  ENSURE(m.closed == 0);
  sc_mesh_free(&m);
  /* CRLF, forward references, polygons, w and colour numbers ignored */
  const char* p = tmp_path("crlf.obj");
  write_text(p,
             "f 1 4 3 2\r\nf 5 6 7 8\r\nf 1 2 6 5\r\nf 2 3 7 6\r\nf 3 4 8 7\r\nf 4 1 5 8\r\n"
             "v 0 0 0 1\r\nv 1 0 0\r\nv 1 1 0 0.5 0.5 0.5\r\nv 0 1 0\r\n"
             "v 0 0 1\r\nv 1 0 1\r\nv 1 1 1\r\nv 0 1 1\r\n");
  sc_status st = sc_mesh_read(p, ONE, &m, &err);
  ENSURE(st == SC_OK);
  if (st == SC_OK) {
    ENSURE(m.nvert == 8 && m.nface == 12);
    ENSURE(m.closed == 1);
    ENSURE_NEAR(m.volume, 1.0, 1e-12);
    sc_mesh_free(&m);
  } else {
    printf("  %s: %s (line %d)\n", p, err.msg, err.line);
  }
}

/* A UTF-8 byte-order mark before an OBJ or an ASCII STL is skipped: the
 * OBJ keeps its first vertex (it was read as an unknown line, and the cube
 * lost a corner: "face index 8 out of range"), the STL its 'solid'; the
 * columns of an error on the first line count from after it. */
static void test_bom(void) {
  const char* cube =
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
      "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
  char text[400];
  snprintf(text, sizeof text, "\xEF\xBB\xBF%s", cube);
  const char* p = tmp_path("bom.obj");
  write_text(p, text);
  sc_mesh m;
  sc_error err;
  sc_status st = sc_mesh_read(p, ONE, &m, &err);
  ENSURE(st == SC_OK);
  if (st == SC_OK) {
    ENSURE(m.nvert == 8 && m.nface == 12 && m.closed == 1);
    ENSURE_NEAR(m.volume, 1.0, 1e-12);
    sc_mesh_free(&m);
  } else {
    printf("  %s: %s (line %d)\n", p, err.msg, err.line);
  }
  write_text(p, "\xEF\xBB\xBFv 0 x 0\n");
  ENSURE(sc_mesh_read(p, ONE, &m, &err) == SC_ERR_SCENE);
  ENSURE(err.line == 1 && err.col == 5);
  const char* stl =
      "\xEF\xBB\xBFsolid t\nfacet normal 0 0 -1\nouter loop\nvertex 0 0 0\nvertex 0 1 0\n"
      "vertex 1 0 0\nendloop\nendfacet\nfacet normal 0 -1 0\nouter loop\nvertex 0 0 0\n"
      "vertex 1 0 0\nvertex 0 0 1\nendloop\nendfacet\nfacet normal -1 0 0\nouter loop\n"
      "vertex 0 0 0\nvertex 0 0 1\nvertex 0 1 0\nendloop\nendfacet\nfacet normal 1 1 1\n"
      "outer loop\nvertex 1 0 0\nvertex 0 1 0\nvertex 0 0 1\nendloop\nendfacet\nendsolid t\n";
  p = tmp_path("bom.stl");
  write_text(p, stl);
  st = sc_mesh_read(p, ONE, &m, &err);
  ENSURE(st == SC_OK);
  if (st == SC_OK) {
    ENSURE(m.nface == 4 && m.closed == 1);
    ENSURE_NEAR(m.volume, 1.0 / 6.0, 1e-12);
    sc_mesh_free(&m);
  } else {
    printf("  %s: %s (line %d)\n", p, err.msg, err.line);
  }
}

/* Torus R = 1, r = 0.25 about (0.3, -0.2, 0.1), 64 x 32 quads as 4096
 * triangles, written as OBJ and read back: closed, mass properties equal to
 * mesh_mass.py's to 1e-9, and to the smooth torus's (V = 2 pi^2 R r^2,
 * I_zz = V (R^2 + 3 r^2 / 4), I_xx = I_yy = V (R^2 / 2 + 5 r^2 / 8)) within
 * the tessellation error: an inscribed n-gon loses a fraction t^2 / 6 of a
 * circle's area and t^2 / 3 of its polar moment (t = 2 pi / n), so the
 * volume is below by about (2 pi / 64)^2 / 6 + (2 pi / 32)^2 / 6 = 8e-3
 * (bound 1e-2) and the inertia by about twice that, 1.6e-2 (bound 2e-2). */
static void test_torus(void) {
  const double R = 1, r = 0.25, c[3] = {0.3, -0.2, 0.1};
  double* v;
  int* f;
  int nv, nf;
  make_torus(R, r, 64, 32, c, &v, &nv, &f, &nf);
  const char* p = tmp_path("torus.obj");
  write_obj(p, v, nv, f, NULL, nf);
  free(v);
  free(f);
  sc_mesh m;
  sc_error err;
  sc_status st = sc_mesh_read(p, ONE, &m, &err);
  ENSURE(st == SC_OK);
  if (st) return;
  ENSURE(m.closed == 1);
  ENSURE(m.nvert == 64 * 32 && m.nface == 2 * 64 * 32);
  check_hull(&m);
  double ref[14];
  ENSURE(python_ref(p, NULL, ref));
  ensure_mass_matches(&m, ref, 1e-9);
  double V = 2 * M_PI * M_PI * R * r * r, Izz = V * (R * R + 0.75 * r * r), Ixx = V * (R * R / 2 + 5 * r * r / 8);
  ENSURE(m.volume < V);
  ENSURE_CLOSE(m.volume, V, 1e-2, 0);
  for (int k = 0; k < 3; k++) ENSURE_NEAR(m.centroid[k], c[k], 1e-12);
  ENSURE_CLOSE(m.inertia[0], Ixx, 2e-2, 0);
  ENSURE_CLOSE(m.inertia[4], Ixx, 2e-2, 0);
  ENSURE_CLOSE(m.inertia[8], Izz, 2e-2, 0);
  for (int k = 0; k < 9; k++)
    if (k % 4) ENSURE_NEAR(m.inertia[k], 0, 1e-12);
  printf("  torus: volume %.12g (smooth %.12g, rel %.3g), I = %.9g %.9g %.9g (smooth rel %.3g %.3g), "
         "vs mesh_mass.py rel %.3g\n",
         m.volume, V, m.volume / V - 1, m.inertia[0], m.inertia[4], m.inertia[8], m.inertia[0] / Ixx - 1,
         m.inertia[8] / Izz - 1, fabs(m.volume / ref[1] - 1));
  /* mirrored in x: the same solid reflected */
  const double s[3] = {-1, 1, 1};
  sc_mesh w;
  ENSURE(sc_mesh_read(p, s, &w, &err) == SC_OK);
  if (w.vert) {
    ENSURE(w.closed == 1);
    ENSURE_CLOSE(w.volume, m.volume, 1e-12, 0);
    ENSURE_NEAR(w.centroid[0], -m.centroid[0], 1e-12);
    ENSURE(python_ref(p, s, ref));
    ensure_mass_matches(&w, ref, 1e-9);
    sc_mesh_free(&w);
  }
  sc_mesh_free(&m);
}

/* A 64-sided prism (r = 0.02, h = 1) is exactly a regular polygon times its
 * height: A = n r^2 sin(t) / 2, polar moment J = n r^4 sin(t) (2 + cos t) /
 * 12 with t = 2 pi / n, I_zz = h J, I_xx = h J / 2 + A h^3 / 12. */
static void test_prism(void) {
  const double r = 0.02, h = 1, t = 2 * M_PI / 64;
  double* v;
  int* f;
  int nv, nf;
  make_cylinder(r, h, 64, &v, &nv, &f, &nf);
  sc_mesh m;
  sc_error err;
  ENSURE(mesh_from(&m, v, nv, f, nf, &err) == SC_OK);
  free(v);
  free(f);
  ENSURE(m.closed == 1);
  ENSURE(m.hnvert == 128); /* the caps' centres lie inside the caps */
  ENSURE(m.hnface == 66);
  check_hull(&m);
  double A = 64 * r * r * sin(t) / 2, J = 64 * pow(r, 4) * sin(t) * (2 + cos(t)) / 12;
  ENSURE_CLOSE(m.volume, A * h, 1e-12, 0);
  ENSURE_CLOSE(m.inertia[8], h * J, 1e-12, 0);
  ENSURE_CLOSE(m.inertia[0], h * J / 2 + A * h * h * h / 12, 1e-12, 0);
  ENSURE_CLOSE(m.inertia[4], h * J / 2 + A * h * h * h / 12, 1e-12, 0);
  for (int k = 0; k < 3; k++) ENSURE_NEAR(m.centroid[k], 0, 1e-15);
  sc_mesh_free(&m);
}

/* 10 000 random points on the unit sphere as a point cloud (no faces): every
 * point a hull vertex; the hull's volume below 4/3 pi by less than 1 % (the
 * inscribed polyhedron of N random points misses a fraction of order 10/N,
 * 1.2e-3 with this seed); mass properties
 * equal to mesh_mass.py's on the hull's polygons written as OBJ. */
static void test_sphere_cloud(void) {
  const int n = 10000;
  double* v = malloc(sizeof(double) * 3 * n);
  lcg = 7;
  for (int i = 0; i < n; i++) rand_unit(v + 3 * i);
  sc_mesh m;
  sc_error err;
  sc_status st = mesh_from(&m, v, n, NULL, 0, &err);
  free(v);
  ENSURE(st == SC_OK);
  if (st) {
    printf("  %s\n", err.msg);
    return;
  }
  ENSURE(m.closed == 0);
  ENSURE(m.hnvert == n);
  check_hull(&m);
  double Vs = 4 * M_PI / 3;
  ENSURE(m.volume < Vs);
  ENSURE(m.volume > 0.99 * Vs);
  for (int k = 0; k < 3; k++) ENSURE_NEAR(m.centroid[k], 0, 1e-2);
  printf("  sphere cloud: hull %d vertices, %d faces, volume %.9g (4/3 pi rel %.3g)\n", m.hnvert, m.hnface, m.volume,
         m.volume / Vs - 1);
  const char* p = tmp_path("sphere_hull.obj");
  write_obj(p, m.hvert, m.hnvert, m.hface, m.hface_adr, m.hnface);
  double ref[14];
  ENSURE(python_ref(p, NULL, ref));
  ref[0] = 0; /* the hull written out is closed; the cloud has no surface */
  ensure_mass_matches(&m, ref, 1e-9);
  sc_mesh_free(&m);
}

/* The walk equals the scan on every mesh here. */
static void test_support_walk_equals_scan(void) {
  sc_mesh m;
  sc_error err;
  double* v;
  int* f;
  int nv, nf;
  lcg = 99;
  if (sc_mesh_read("test/meshes/cube.obj", ONE, &m, &err) == SC_OK) {
    check_support(&m, "cube");
    /* a start out of range is vertex 0 */
    double d[3] = {1, 2, 3};
    ENSURE(sc_mesh_support(&m, d, -5) == sc_mesh_support(&m, d, 0));
    ENSURE(sc_mesh_support(&m, d, m.hnvert) == sc_mesh_support(&m, d, 0));
    sc_mesh_free(&m);
  } else {
    ENSURE(0);
  }
  const double c[3] = {0.3, -0.2, 0.1};
  make_torus(1, 0.25, 64, 32, c, &v, &nv, &f, &nf);
  ENSURE(mesh_from(&m, v, nv, f, nf, &err) == SC_OK);
  free(v);
  free(f);
  check_support(&m, "torus");
  sc_mesh_free(&m);
  make_icosphere(4, &v, &nv, &f, &nf);
  ENSURE(nv == 2562 && nf == 5120);
  ENSURE(mesh_from(&m, v, nv, f, nf, &err) == SC_OK);
  free(v);
  free(f);
  ENSURE(m.closed == 1);
  ENSURE(m.hnvert == 2562);
  check_hull(&m);
  check_support(&m, "icosphere");
  sc_mesh_free(&m);
  v = malloc(sizeof(double) * 3 * 10000);
  lcg = 7;
  for (int i = 0; i < 10000; i++) rand_unit(v + 3 * i);
  lcg = 101;
  ENSURE(mesh_from(&m, v, 10000, NULL, 0, &err) == SC_OK);
  free(v);
  check_support(&m, "sphere cloud");
  sc_mesh_free(&m);
  make_cylinder(0.02, 1, 64, &v, &nv, &f, &nf);
  ENSURE(mesh_from(&m, v, nv, f, nf, &err) == SC_OK);
  free(v);
  free(f);
  check_support(&m, "thin prism");
  sc_mesh_free(&m);
  const char* mug = mug_path();
  const double s[3] = {0.01, 0.01, 0.01};
  if (mug && sc_mesh_read(mug, s, &m, &err) == SC_OK) {
    check_support(&m, "mug");
    sc_mesh_free(&m);
  } else if (mug) {
    ENSURE(0);
  } else {
    printf("  mug: skipped (no mug.obj)\n");
  }
}

/* 10 000 support queries allocate nothing */
static void test_support_no_alloc(void) {
  double* v;
  int* f;
  int nv, nf;
  make_icosphere(3, &v, &nv, &f, &nf);
  sc_mesh m;
  sc_error err;
  ENSURE(mesh_from(&m, v, nv, f, nf, &err) == SC_OK);
  free(v);
  free(f);
  long before = sc_alloc_count();
  int s = 0;
  for (int t = 0; t < 10000; t++) {
    double d[3];
    rand_unit(d);
    s = sc_mesh_support(&m, d, s);
  }
  ENSURE(sc_alloc_count() == before);
  /* and the counter does see an allocation */
  sc_free(sc_malloc(8));
  ENSURE(sc_alloc_count() == before + 1);
  sc_mesh_free(&m);
}

/* read path and expect code, err->file == path, err->line == line, and
 * `what` in the message; the formatted message names the file and line;
 * *out left empty */
static void expect_error(const char* path, sc_status code, int line, const char* what) {
  sc_mesh m;
  memset(&m, 0x5a, sizeof m);
  sc_error err;
  sc_error_clear(&err);
  sc_status st = sc_mesh_read(path, ONE, &m, &err);
  char buf[1400], loc[32];
  sc_error_format(&err, buf, sizeof buf);
  snprintf(loc, sizeof loc, ":%d:", line);
  int ok = st == code && err.code == code && strcmp(err.file, path) == 0 && err.line == line &&
           strstr(err.msg, what) && strstr(buf, path) && (line == 0 || strstr(buf, loc));
  ENSURE(ok);
  if (!ok) printf("  %s: got code %d line %d '%s', expected code %d line %d '%s'\n", path, st, err.line, buf, code, line, what);
  ENSURE(m.vert == NULL && m.face == NULL && m.hvert == NULL && m.file == NULL && m.nvert == 0 && m.hnvert == 0);
  if (st == SC_OK) sc_mesh_free(&m);
}

static void test_bad_input(void) {
  const char* p;
  expect_error(tmp_path("missing.obj"), SC_ERR_IO, 0, "cannot open");
  p = tmp_path("dir.obj");
  mkdir(p, 0700);
  expect_error(p, SC_ERR_IO, 0, "cannot read");
  p = tmp_path("fifo.stl");
  ENSURE(mkfifo(p, 0600) == 0);
  alarm(20); /* a blocking open would end the test here */
  expect_error(p, SC_ERR_IO, 0, "not a regular file");
  alarm(0);
  p = tmp_path("cube.nomesh");
  write_text(p, "ply\n");
  expect_error(p, SC_ERR_SCENE, 0, "unknown mesh format");
  /* a format assimp reads: its error, at the file */
  p = tmp_path("cube.ply");
  write_text(p, "ply\n");
  expect_error(p, SC_ERR_SCENE, 0, "assimp: Invalid .ply file");
  p = tmp_path("fifo.dae");
  ENSURE(mkfifo(p, 0600) == 0);
  expect_error(p, SC_ERR_IO, 0, "not a regular file");
  p = tmp_path("empty.obj");
  write_text(p, "");
  expect_error(p, SC_ERR_SCENE, 0, "empty");
  /* binary STL declaring 3 triangles, holding 2 */
  unsigned char b[84 + 100];
  memset(b, 0, sizeof b);
  memcpy(b, "binary", 6);
  b[80] = 3;
  p = tmp_path("trunc.stl");
  write_file(p, b, sizeof b);
  expect_error(p, SC_ERR_SCENE, 0, "truncated binary STL: 3 triangles declared, file holds 184 bytes");
  /* the same with a header beginning with "solid" */
  memcpy(b, "solid", 5);
  write_file(p, b, sizeof b);
  expect_error(p, SC_ERR_SCENE, 0, "truncated binary STL: 3 triangles declared");
  /* binary STL with a NaN in triangle 2 */
  unsigned char b2[84 + 100];
  memset(b2, 0, sizeof b2);
  b2[80] = 2;
  const float nanf_ = NAN;
  memcpy(b2 + 84 + 50 + 12 + 4, &nanf_, 4);
  p = tmp_path("nan_binary.stl");
  write_file(p, b2, sizeof b2);
  expect_error(p, SC_ERR_SCENE, 0, "triangle 2 (byte offset 134), vertex 1: coordinate is not finite");
  const char* cube_v = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n";
  char s[1024];
  p = tmp_path("nan.obj");
  write_text(p, "# NaN\nv 0 0 0\nv 1 nan 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n");
  expect_error(p, SC_ERR_SCENE, 3, "vertex 2: coordinate is not finite");
  p = tmp_path("inf.stl");
  write_text(p, "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n"
                "   vertex 0 inf 0\n  endloop\n endfacet\nendsolid x\n");
  expect_error(p, SC_ERR_SCENE, 6, "vertex 3: coordinate is not finite");
  p = tmp_path("range.obj");
  snprintf(s, sizeof s, "%sf 1 2 3\nf 1 2 9\n", cube_v);
  write_text(p, s);
  expect_error(p, SC_ERR_SCENE, 10, "face index 9 out of range (the file has 8 vertices)");
  p = tmp_path("range_neg.obj");
  snprintf(s, sizeof s, "%sf -9 1 2\n", cube_v);
  write_text(p, s);
  expect_error(p, SC_ERR_SCENE, 9, "face index -9 out of range");
  p = tmp_path("zero_index.obj");
  snprintf(s, sizeof s, "%sf 0 1 2\n", cube_v);
  write_text(p, s);
  expect_error(p, SC_ERR_SCENE, 9, "face index 0");
  p = tmp_path("two.obj");
  snprintf(s, sizeof s, "%sf 1 2 3\nf 1 2\n", cube_v);
  write_text(p, s);
  expect_error(p, SC_ERR_SCENE, 10, "face with 2 vertices");
  p = tmp_path("badnum.obj");
  write_text(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1x\nf 1 2 3\n");
  expect_error(p, SC_ERR_SCENE, 4, "malformed number '1x'");
  p = tmp_path("badref.obj");
  snprintf(s, sizeof s, "%sf 1 2 3a\n", cube_v);
  write_text(p, s);
  expect_error(p, SC_ERR_SCENE, 9, "malformed face index '3a'");
  const char* bad_refs[] = {"1-2", "1/2-3", "1/2/3/4", "/1", "1/2/", "+", "1//"};
  for (size_t i = 0; i < sizeof bad_refs / sizeof *bad_refs; i++) {
    char want[64];
    snprintf(s, sizeof s, "%sf 1 2 %s\n", cube_v, bad_refs[i]);
    snprintf(want, sizeof want, "malformed face index '%s'", bad_refs[i]);
    write_text(p, s);
    expect_error(p, SC_ERR_SCENE, 9, want);
  }
  p = tmp_path("noface.obj");
  write_text(p, cube_v);
  expect_error(p, SC_ERR_SCENE, 0, "no faces");
  p = tmp_path("short_v.obj");
  write_text(p, "v 0 0\nf 1 1 1\n");
  expect_error(p, SC_ERR_SCENE, 1, "vertex 1: 2 coordinates");
  p = tmp_path("flat.obj");
  write_text(p, "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 0.5 0\nf 1 2 3\nf 1 3 4\n");
  expect_error(p, SC_ERR_SCENE, 0, "needs at least 4 points not in one plane");
  p = tmp_path("three.obj");
  write_text(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  expect_error(p, SC_ERR_SCENE, 0, "needs at least 4 points not in one plane");
  /* two tetrahedra, one wound out and one in: closed, enclosing nothing */
  p = tmp_path("zero_volume.obj");
  write_text(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 5 0 0\nv 6 0 0\nv 5 1 0\nv 5 0 1\n"
                "f 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n"
                "f 5 6 7\nf 5 8 6\nf 6 8 7\nf 7 8 5\n");
  expect_error(p, SC_ERR_SCENE, 0, "has zero volume");
  p = tmp_path("garbage.stl");
  write_text(p, "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n"
                "   vertex 0 1 0\n  endloop\n endfacet\n facet\nendsolid x\n");
  expect_error(p, SC_ERR_SCENE, 10, "expected 'normal', found 'endsolid'");
  p = tmp_path("short.stl");
  write_text(p, "hello\n");
  expect_error(p, SC_ERR_SCENE, 0, "not an STL file");
  p = tmp_path("noend.stl");
  write_text(p, "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n"
                "   vertex 0 1 0\n  endloop\n endfacet\n");
  expect_error(p, SC_ERR_SCENE, 8, "no 'endsolid'");
  /* sc_mesh_build directly: errors name the file, no line */
  sc_mesh m;
  sc_error err;
  const double pts[4][3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
  ENSURE(mesh_from(&m, &pts[0][0], 4, NULL, 0, &err) == SC_ERR_SCENE);
  ENSURE(strcmp(err.file, "generated") == 0 && err.line == 0);
  ENSURE(strstr(err.msg, "not in one plane") != NULL);
  sc_mesh_free(&m);
  const double bad[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, INFINITY}};
  ENSURE(mesh_from(&m, &bad[0][0], 4, NULL, 0, &err) == SC_ERR_SCENE);
  ENSURE(strstr(err.msg, "vertex 3 (0-based): coordinate is not finite") != NULL);
  sc_mesh_free(&m);
  const int tri[3] = {0, 1, 4};
  ENSURE(mesh_from(&m, &pts[0][0], 4, tri, 1, &err) == SC_ERR_SCENE);
  ENSURE(strstr(err.msg, "out of range") != NULL);
  sc_mesh_free(&m);
}

/* Flat patches: every face in exactly one patch whose normal is within
 * SC_MESH_PATCH_ANGLE of the face's; each patch polygon convex,
 * counter-clockwise seen from outside, its vertices on or below the patch
 * plane's offset and within width x the angle of it; returns the patch
 * with the most vertices (its count in *most). */
static int check_patches(const sc_mesh* m, int* most) {
  int best = -1;
  *most = 0;
  for (int f = 0; f < m->hnface; f++) {
    const int p = m->hface_patch[f];
    ENSURE(p >= 0 && p < m->hnpatch);
    if (p < 0 || p >= m->hnpatch) return -1;
    ENSURE(dot(m->hplane + 4 * f, m->hpatch_plane + 4 * p) >= cos(SC_MESH_PATCH_ANGLE) - 1e-15);
  }
  for (int p = 0; p < m->hnpatch; p++) {
    const int a0 = m->hpatch_adr[p], n = m->hpatch_adr[p + 1] - a0;
    const double* pl = m->hpatch_plane + 4 * p;
    ENSURE(n >= 3);
    double width = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double e[3];
        for (int k = 0; k < 3; k++) e[k] = m->hvert[3 * m->hpatch[a0 + i] + k] - m->hvert[3 * m->hpatch[a0 + j] + k];
        width = fmax(width, sqrt(dot(e, e)));
      }
    for (int i = 0; i < n; i++) {
      const double *a = m->hvert + 3 * m->hpatch[a0 + i], *b = m->hvert + 3 * m->hpatch[a0 + (i + 1) % n],
                   *c = m->hvert + 3 * m->hpatch[a0 + (i + 2) % n];
      double u[3], w[3], x[3];
      for (int k = 0; k < 3; k++) u[k] = b[k] - a[k], w[k] = c[k] - b[k];
      x[0] = u[1] * w[2] - u[2] * w[1], x[1] = u[2] * w[0] - u[0] * w[2], x[2] = u[0] * w[1] - u[1] * w[0];
      ENSURE(dot(x, pl) > 0); /* a left turn about the outward normal */
      ENSURE(dot(pl, a) <= pl[3] + 1e-12 * m->rbound);
      ENSURE(dot(pl, a) >= pl[3] - width * SC_MESH_PATCH_ANGLE - 1e-12 * m->rbound);
    }
    if (n > *most) {
      *most = n;
      best = p;
    }
  }
  return best;
}

/* The patches of a cube are its 6 faces; a 128-sided prism's facets (0.049
 * rad apart) stay 130 patches; the mug's foot and rim, rippled by 0.003
 * rad, each become one patch of many vertices (sliver triangles otherwise) */
static void test_patches(void) {
  sc_mesh m;
  sc_error err;
  int most;
  ENSURE(sc_mesh_read("test/meshes/cube.obj", ONE, &m, &err) == SC_OK);
  check_patches(&m, &most);
  ENSURE(m.hnpatch == 6 && most == 4);
  sc_mesh_free(&m);
  double* v;
  int* f;
  int nv, nf;
  make_cylinder(0.1, 0.3, 128, &v, &nv, &f, &nf);
  ENSURE(mesh_from(&m, v, nv, f, nf, &err) == SC_OK);
  free(v);
  free(f);
  check_patches(&m, &most);
  printf("  128-sided prism: %d hull faces, %d patches\n", m.hnface, m.hnpatch);
  ENSURE(m.hnpatch == m.hnface && m.hnpatch == 130);
  sc_mesh_free(&m);
  const char* mug = mug_path();
  if (!mug) {
    printf("  mug: skipped\n");
    return;
  }
  const double s[3] = {0.01, 0.01, 0.01};
  ENSURE(sc_mesh_read(mug, s, &m, &err) == SC_OK);
  int p = check_patches(&m, &most);
  int foot = 0, rim = 0; /* the mug is y-up: foot -y, rim +y */
  for (int q = 0; q < m.hnpatch; q++) {
    const int n = m.hpatch_adr[q + 1] - m.hpatch_adr[q];
    if (m.hpatch_plane[4 * q + 1] < -0.9999) foot = n > foot ? n : foot;
    if (m.hpatch_plane[4 * q + 1] > 0.9999) rim = n > rim ? n : rim;
  }
  printf("  mug: %d hull faces in %d patches; the largest %d vertices (patch %d); foot %d, rim %d\n",
         m.hnface, m.hnpatch, most, p, foot, rim);
  ENSURE(foot >= 24 && rim >= 24);
  sc_mesh_free(&m);
}

/* MuJoCo's mug at scale 0.01: hull sizes, closedness and volume reported;
 * mass properties equal to mesh_mass.py's to 1e-9. */
static void test_mug(void) {
  const char* mug = mug_path();
  if (!mug) {
    printf("  mug: skipped (neither %s nor %s exists)\n", MUG_PATHS[0], MUG_PATHS[1]);
    return;
  }
  const double s[3] = {0.01, 0.01, 0.01};
  sc_mesh m;
  sc_error err;
  sc_status st = sc_mesh_read(mug, s, &m, &err);
  ENSURE(st == SC_OK);
  if (st) {
    printf("  %s: %s\n", mug, err.msg);
    return;
  }
  check_hull(&m);
  double ref[14];
  ENSURE(python_ref(mug, s, ref));
  ensure_mass_matches(&m, ref, 1e-9);
  printf("  mug: %d vertices, %d triangles; hull %d vertices, %d faces; closed %d; volume %.9g m^3; "
         "centroid %.6g %.6g %.6g m; rbound %.6g m; vs mesh_mass.py rel %.3g\n",
         m.nvert, m.nface, m.hnvert, m.hnface, m.closed, m.volume, m.centroid[0], m.centroid[1], m.centroid[2],
         m.rbound, fabs(m.volume / ref[1] - 1));
  sc_mesh_free(&m);
}

static void rm_tmp(void) {
  const char* names[] = {"crlf.obj", "torus.obj", "sphere_hull.obj", "fifo.stl", "cube.ply", "cube.nomesh", "fifo.dae", "empty.obj",
                         "trunc.stl", "nan_binary.stl", "nan.obj", "inf.stl", "range.obj", "range_neg.obj",
                         "zero_index.obj", "two.obj", "badnum.obj", "badref.obj", "noface.obj", "short_v.obj",
                         "flat.obj", "three.obj", "zero_volume.obj", "garbage.stl", "short.stl", "noend.stl"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) unlink(tmp_path(names[i]));
  rmdir(tmp_path("dir.obj"));
  rmdir(tmpdir);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  if (!mkdtemp(tmpdir)) {
    printf("FAIL mkdtemp\n");
    return 1;
  }
  RUN(test_cube_files);
  RUN(test_cube_scaled_mirrored);
  RUN(test_cube_variants);
  RUN(test_bom);
  RUN(test_torus);
  RUN(test_prism);
  RUN(test_sphere_cloud);
  RUN(test_support_walk_equals_scan);
  RUN(test_support_no_alloc);
  RUN(test_bad_input);
  RUN(test_mug);
  RUN(test_patches);
  rm_tmp();
  return TEST_END();
}
