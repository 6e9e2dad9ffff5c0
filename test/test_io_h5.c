/* HDF5 output: every dataset and attribute read back with the HDF5 C API and
 * compared exactly with the values that were written.
 *
 * Also a generator for test/t_h5compare.sh:
 *   test_io_h5 --write OUT.h5 [--perturb ROW COL DELTA] [--frames N] [--no-contacts]
 * (--perturb adds DELTA to q[ROW][COL]; 300 frames by default) */
#include "harness.h"
#include "io_h5/io_h5.h"

#include <hdf5.h>
#include <stdint.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char tmpdir[256];

static void tmp_path(char* buf, size_t n, const char* name) {
  snprintf(buf, n, "%s/%s", tmpdir, name);
}

/* world + free body "base" + revolute child "arm", two spheres */
static sc_model* make_model(int fixed_only, int output_contacts) {
  sc_model* m = sc_calloc(1, sizeof *m);
  m->nbody = fixed_only ? 2 : 3;
  m->njnt = m->nbody - 1;
  m->ngeom = 2;
  if (sc_model_alloc(m) != SC_OK) return NULL;
  sc_options_default(&m->opt);
  m->opt.ncon_max = 4;
  m->opt.output_contacts = output_contacts;
  m->opt.dt = 2e-3;
  m->body_name[0] = sc_strdup("world");
  m->body_name[1] = sc_strdup("base");
  m->body_parent[1] = 0;
  m->jnt_type[0] = fixed_only ? SC_JOINT_FIXED : SC_JOINT_FREE;
  if (!fixed_only) {
    m->body_name[2] = sc_strdup("arm");
    m->body_parent[2] = 1;
    m->jnt_type[1] = SC_JOINT_REVOLUTE;
    m->jnt_axis[3 + 2] = 1;
  }
  for (int b = 1; b < m->nbody; b++) {
    m->body_mass[b] = 1;
    for (int i = 0; i < 3; i++) m->body_inertia[9 * b + 4 * i] = 0.1;
  }
  for (int g = 0; g < 2; g++) {
    m->geom_type[g] = SC_GEOM_SPHERE;
    m->geom_body[g] = g + 1 < m->nbody ? g + 1 : 1;
    m->geom_size[3 * g] = 0.1;
    sc_sp_mat3_identity(m->geom_rot + 9 * g);
  }
  if (sc_model_finalize(m) != SC_OK) return NULL;
  m->name = sc_strdup("unit scene");
  m->scene_path = sc_strdup("scenes/unit.yaml");
  m->scene_yaml = sc_strdup("name: unit scene\nbodies: {}\n");
  return m;
}

/* the known body poses of frame k: an angle in (-2 pi, 2 pi) (so that the
 * quaternion's sign flips to keep w >= 0) about a unit axis per body */
static double pose_angle(long k, int b) { return 0.011 * (double)k * (b + 1) - 6.0; }
static void pose_axis(int b, double ax[3]) {
  double a[3] = {1.0, 2.0 * b - 1.0, 0.5 + b};
  double n = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  for (int i = 0; i < 3; i++) ax[i] = a[i] / n;
}

/* the known values of frame k */
static int ncon_of(long k) { return (int)(k % 4); }
static void fill_frame(const sc_model* m, sc_data* d, long k) {
  d->time = 2e-3 * (double)k;
  d->step = k;
  for (int i = 0; i < m->nq; i++) d->q[i] = sin(0.01 * (double)k + i);
  for (int i = 0; i < m->nv; i++) d->v[i] = cos(0.02 * (double)k + i) * (i + 1);
  d->e_kinetic = (double)k + 0.5;
  d->e_gravity = -2.0 * (double)k;
  d->e_spring = 0.25 * (double)k;
  d->e_damper = 0.1 * (double)k;
  d->e_contact = 0.01 * (double)k;
  d->ncon = ncon_of(k);
  for (int i = 0; i < d->ncon; i++) {
    sc_contact* c = &d->contact[i];
    memset(c, 0, sizeof *c);
    c->pos[0] = (double)k;
    c->pos[1] = i;
    c->pos[2] = 0.5;
    for (int j = 0; j < 9; j++) c->frame[j] = 100.0 + j;
    c->frame[6] = i;
    c->frame[7] = (double)k;
    c->frame[8] = 1;
    c->dist = -1e-4 * (i + 1) - 1e-7 * (double)k;
    c->body[0] = i;
    c->body[1] = (int)(k % 3);
    d->slip[i] = 0.1 * i + (double)k;
    d->impulse[3 * i] = (double)k;
    d->impulse[3 * i + 1] = i;
    d->impulse[3 * i + 2] = (double)(k + i) * 1e-3;
  }
  d->contact_stats.iterations = (int)(k % 7);
  d->contact_stats.residual = 1e-8 * (double)k;
  d->contact_stats.status = (sc_solve_status)(k % 3);
  d->contact_stats.linesearch_evals = (int)(k % 5);
  d->free_iterations = (int)(k % 4);
  d->wall_time = 1e-6 * (double)k;
  /* body b: rotated by pose_angle(k, b) about pose_axis(b), at (k, b, -k) */
  for (int b = 0; b < m->nbody; b++) {
    double ax[3], ang = pose_angle(k, b);
    pose_axis(b, ax);
    sc_sp_axis_angle_to_mat3(d->xrot + 9 * b, ax, ang);
    d->xpos[3 * b] = (double)k;
    d->xpos[3 * b + 1] = b;
    d->xpos[3 * b + 2] = -(double)k;
  }
}

/* write nframes frames; perturb q[prow][pcol] by delta when prow >= 0 */
static sc_status write_file(const char* path, sc_model* m, long nframes, long prow, int pcol,
                            double delta, const char* status, sc_error* err) {
  sc_data* d = NULL;
  sc_status st = sc_data_create(m, &d, err);
  if (st != SC_OK) return st;
  sc_h5_meta meta = {"simc unit.yaml -o out.h5", "v-test", -1.0, 0, NULL, NULL};
  sc_h5* h = NULL;
  st = sc_h5_open(path, m, d, &meta, &h, err);
  for (long k = 0; st == SC_OK && k < nframes; k++) {
    fill_frame(m, d, k);
    if (k == prow) d->q[pcol] += delta;
    st = sc_h5_write_frame(h, m, d, err);
  }
  if (h) {
    sc_status cs = sc_h5_close(h, status, err);
    if (st == SC_OK) st = cs;
  }
  sc_data_free(d);
  return st;
}

/* ---- reading helpers ---- */

/* read a numeric dataset as doubles; dims[0..1] (dims[1] = 1 for rank 1) */
static double* read_ds3(hid_t f, const char* path, hsize_t dims[3], int* rank) {
  hid_t ds = H5Dopen2(f, path, H5P_DEFAULT);
  if (ds < 0) return NULL;
  hid_t s = H5Dget_space(ds);
  *rank = H5Sget_simple_extent_ndims(s);
  dims[1] = dims[2] = 1;
  if (*rank > 3) {
    H5Sclose(s);
    H5Dclose(ds);
    return NULL;
  }
  H5Sget_simple_extent_dims(s, dims, NULL);
  size_t n = (size_t)dims[0] * (size_t)(*rank >= 2 ? dims[1] : 1) * (size_t)(*rank == 3 ? dims[2] : 1);
  double* buf = malloc((n ? n : 1) * sizeof(double));
  if (n) H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  H5Sclose(s);
  H5Dclose(ds);
  return buf;
}

static double* read_ds(hid_t f, const char* path, hsize_t dims[2], int* rank) {
  hsize_t d3[3];
  double* buf = read_ds3(f, path, d3, rank);
  dims[0] = d3[0];
  dims[1] = d3[1];
  return buf;
}

/* the class and size of a dataset's file type, e.g. H5T_INTEGER, 4 */
static int ds_type_is(hid_t f, const char* path, H5T_class_t cls, size_t size) {
  hid_t ds = H5Dopen2(f, path, H5P_DEFAULT);
  if (ds < 0) return 0;
  hid_t t = H5Dget_type(ds);
  int ok = H5Tget_class(t) == cls && H5Tget_size(t) == size;
  H5Tclose(t);
  H5Dclose(ds);
  return ok;
}

/* string attribute (variable or fixed length) into buf */
static int read_str_attr(hid_t obj, const char* name, char* buf, size_t n) {
  buf[0] = '\0';
  if (H5Aexists(obj, name) <= 0) return 0;
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  hid_t t = H5Aget_type(a);
  int ok = 0;
  if (H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) > 0) {
    char* s = NULL;
    hid_t mt = H5Tcopy(H5T_C_S1);
    H5Tset_size(mt, H5T_VARIABLE);
    H5Tset_cset(mt, H5T_CSET_UTF8);
    if (H5Aread(a, mt, &s) >= 0 && s) {
      snprintf(buf, n, "%s", s);
      H5free_memory(s);
      ok = 1;
    }
    H5Tclose(mt);
  }
  H5Tclose(t);
  H5Aclose(a);
  return ok;
}

static double read_num_attr(hid_t obj, const char* name, int n, double* out) {
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  if (a < 0) return NAN;
  double v[8] = {NAN};
  H5Aread(a, H5T_NATIVE_DOUBLE, v);
  H5Aclose(a);
  if (out)
    for (int i = 0; i < n; i++) out[i] = v[i];
  return v[0];
}

/* read a string dataset; returns the count, fills names (caller reclaims) */
static int read_names(hid_t f, const char* path, char*** out) {
  hid_t ds = H5Dopen2(f, path, H5P_DEFAULT);
  if (ds < 0) return -1;
  hid_t s = H5Dget_space(ds);
  hsize_t n = 0;
  H5Sget_simple_extent_dims(s, &n, NULL);
  char** names = calloc(n + 1, sizeof *names);
  hid_t mt = H5Tcopy(H5T_C_S1);
  H5Tset_size(mt, H5T_VARIABLE);
  H5Tset_cset(mt, H5T_CSET_UTF8);
  if (n) H5Dread(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, names);
  H5Tclose(mt);
  H5Sclose(s);
  H5Dclose(ds);
  *out = names;
  return (int)n;
}
static void free_names(char** names, int n) {
  for (int i = 0; i < n; i++) H5free_memory(names[i]);
  free(names);
}

static int exists(hid_t f, const char* path) { return H5Lexists(f, path, H5P_DEFAULT) > 0; }

/* every dataset in the file must carry a non-empty `units` attribute */
typedef struct visit_ctx {
  int ndatasets, nunits;
} visit_ctx;
static herr_t visit_units(hid_t g, const char* name, const H5L_info_t* info, void* data) {
  visit_ctx* c = data;
  if (info->type != H5L_TYPE_HARD) return 0;
  hid_t o = H5Oopen(g, name, H5P_DEFAULT);
  if (o < 0) return -1;
  if (H5Iget_type(o) == H5I_DATASET) {
    char u[128];
    c->ndatasets++;
    if (read_str_attr(o, "units", u, sizeof u) && u[0]) c->nunits++;
    else printf("  no units on %s\n", name);
  }
  H5Oclose(o);
  return 0;
}

/* ---- tests ---- */

#define NFRAMES 300

static void test_roundtrip_all_datasets(void) {
  char path[512];
  tmp_path(path, sizeof path, "roundtrip.h5");
  sc_model* m = make_model(0, 1);
  ENSURE(m && m->nq == 8 && m->nv == 7);
  sc_error err;
  sc_error_clear(&err);
  sc_status st = write_file(path, m, NFRAMES, -1, 0, 0, "complete", &err);
  ENSURE(st == SC_OK);
  if (st != SC_OK) printf("  %s\n", err.msg);

  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(f >= 0);
  if (f < 0) return;
  sc_data* d = NULL;
  sc_data_create(m, &d, &err);

  /* per-frame datasets */
  hsize_t dt[2], dq[2], dv[2], dd[2];
  int rt, rq, rv, rd;
  double* t = read_ds(f, "/time", dt, &rt);
  double* q = read_ds(f, "/q", dq, &rq);
  double* v = read_ds(f, "/v", dv, &rv);
  ENSURE(t && q && v);
  ENSURE(rt == 1 && dt[0] == NFRAMES);
  ENSURE(rq == 2 && dq[0] == NFRAMES && dq[1] == 8);
  ENSURE(rv == 2 && dv[0] == NFRAMES && dv[1] == 7);
  static const char* scal[] = {"/energy/kinetic", "/energy/gravity", "/energy/spring",
                               "/energy/total", "/energy/dissipated", "/contact/count",
                               "/contact/start", "/solver/iterations", "/solver/residual",
                               "/solver/status", "/solver/free_motion_iterations",
                               "/solver/wall_time", "/solver/linesearch_evals"};
  double* sv[13];
  for (int i = 0; i < 13; i++) {
    sv[i] = read_ds(f, scal[i], dd, &rd);
    ENSURE(sv[i] && rd == 1 && dd[0] == NFRAMES);
  }
  long mismatches = 0, rows = 0;
  for (long k = 0; k < NFRAMES && t && q && v; k++) {
    fill_frame(m, d, k);
    mismatches += t[k] != d->time;
    for (int i = 0; i < 8; i++) mismatches += q[8 * k + i] != d->q[i];
    for (int i = 0; i < 7; i++) mismatches += v[7 * k + i] != d->v[i];
    double want[13] = {d->e_kinetic, d->e_gravity, d->e_spring,
                       d->e_kinetic + d->e_gravity + d->e_spring, d->e_damper + d->e_contact,
                       d->ncon, (double)rows, d->contact_stats.iterations,
                       d->contact_stats.residual, d->contact_stats.status, d->free_iterations,
                       d->wall_time, d->contact_stats.linesearch_evals};
    for (int i = 0; i < 13; i++)
      if (sv[i] && sv[i][k] != want[i]) {
        if (mismatches < 5) printf("  %s[%ld] = %g, want %g\n", scal[i], k, sv[i][k], want[i]);
        mismatches++;
      }
    rows += d->ncon;
  }
  ENSURE(mismatches == 0);
  ENSURE(rows == 450); /* 75 cycles of 0+1+2+3 */

  /* per-contact datasets: replay the frames and compare row by row */
  static const char* cpath[] = {"/contact/body_a", "/contact/body_b", "/contact/point",
                                "/contact/normal", "/contact/gap", "/contact/slip",
                                "/contact/impulse"};
  static const int cw[] = {1, 1, 3, 3, 1, 1, 3};
  double* cv[7];
  for (int i = 0; i < 7; i++) {
    cv[i] = read_ds(f, cpath[i], dd, &rd);
    ENSURE(cv[i] && dd[0] == (hsize_t)rows && rd == (cw[i] == 3 ? 2 : 1));
    ENSURE(cw[i] == 1 || dd[1] == 3);
  }
  long row = 0;
  mismatches = 0;
  for (long k = 0; k < NFRAMES; k++) {
    fill_frame(m, d, k);
    for (int i = 0; i < d->ncon; i++, row++) {
      const sc_contact* c = &d->contact[i];
      mismatches += cv[0][row] != c->body[0];
      mismatches += cv[1][row] != c->body[1];
      for (int j = 0; j < 3; j++) {
        mismatches += cv[2][3 * row + j] != c->pos[j];
        mismatches += cv[3][3 * row + j] != c->frame[6 + j];
        mismatches += cv[6][3 * row + j] != d->impulse[3 * i + j];
      }
      mismatches += cv[4][row] != c->dist;
      mismatches += cv[5][row] != d->slip[i];
    }
  }
  ENSURE(mismatches == 0);

  /* body poses: positions exact, orientations the quaternion of the
   * axis-angle directly, (cos a/2, sin a/2 axis) up to sign, to 1e-14 */
  hsize_t dp[3], dr[3];
  int rp, rr;
  double* bpos = read_ds3(f, "/body/position", dp, &rp);
  double* bquat = read_ds3(f, "/body/orientation", dr, &rr);
  ENSURE(bpos && rp == 3 && dp[0] == NFRAMES && dp[1] == 3 && dp[2] == 3);
  ENSURE(bquat && rr == 3 && dr[0] == NFRAMES && dr[1] == 3 && dr[2] == 4);
  double qerr = 0;
  long pos_mismatch = 0, wneg = 0, flips = 0;
  for (long k = 0; k < NFRAMES && bpos && bquat; k++) {
    fill_frame(m, d, k);
    for (int b = 0; b < 3; b++) {
      for (int i = 0; i < 3; i++) pos_mismatch += bpos[9 * k + 3 * b + i] != d->xpos[3 * b + i];
      double ax[3], a = pose_angle(k, b);
      pose_axis(b, ax);
      double want[4] = {cos(a / 2), sin(a / 2) * ax[0], sin(a / 2) * ax[1], sin(a / 2) * ax[2]};
      double sgn = want[0] < 0 ? -1.0 : 1.0;
      flips += sgn < 0;
      const double* got = bquat + 12 * k + 4 * b;
      wneg += got[0] < 0;
      for (int i = 0; i < 4; i++) qerr = fmax(qerr, fabs(got[i] - sgn * want[i]));
    }
  }
  ENSURE(pos_mismatch == 0 && wneg == 0);
  ENSURE(flips > 0); /* the sign convention was exercised */
  ENSURE_NEAR(qerr, 0, 1e-14);
  free(bpos);
  free(bquat);

  /* geometry and tree */
  hsize_t dg[2];
  int rg;
  double* parent = read_ds(f, "/model/body_parent", dg, &rg);
  ENSURE(parent && rg == 1 && dg[0] == 3 && parent[0] == -1 && parent[1] == 0 && parent[2] == 1);
  free(parent);
  double* gbody = read_ds(f, "/model/geometry/body", dg, &rg);
  ENSURE(gbody && rg == 1 && dg[0] == 2 && gbody[0] == 1 && gbody[1] == 2);
  free(gbody);
  double* gsize = read_ds(f, "/model/geometry/size", dg, &rg);
  ENSURE(gsize && rg == 2 && dg[0] == 2 && dg[1] == 3 && gsize[0] == 0.1 && gsize[3] == 0.1);
  free(gsize);
  double* gquat = read_ds(f, "/model/geometry/orientation", dg, &rg);
  ENSURE(gquat && rg == 2 && dg[0] == 2 && dg[1] == 4 && gquat[0] == 1 && gquat[4] == 1);
  free(gquat);
  char** shape = NULL;
  int nshape = read_names(f, "/model/geometry/shape", &shape);
  ENSURE(nshape == 2 && !strcmp(shape[0], "sphere") && !strcmp(shape[1], "sphere"));
  if (nshape >= 0) free_names(shape, nshape);

  /* integer types stay integers in the file */
  ENSURE(ds_type_is(f, "/contact/count", H5T_INTEGER, 4));
  ENSURE(ds_type_is(f, "/contact/start", H5T_INTEGER, 8));
  ENSURE(ds_type_is(f, "/contact/body_a", H5T_INTEGER, 4));
  ENSURE(ds_type_is(f, "/solver/status", H5T_INTEGER, 4));
  ENSURE(ds_type_is(f, "/q", H5T_FLOAT, 8));

  /* /model names */
  struct {
    const char* path;
    char** want;
    int n;
  } nm[] = {{"/model/body_names", m->body_name, m->nbody},
            {"/model/joint_names", m->jnt_name, m->njnt},
            {"/model/q_names", m->q_names, m->nq},
            {"/model/v_names", m->v_names, m->nv}};
  for (int i = 0; i < 4; i++) {
    char** names = NULL;
    int n = read_names(f, nm[i].path, &names);
    ENSURE(n == nm[i].n);
    for (int j = 0; j < n && j < nm[i].n; j++) ENSURE(names[j] && !strcmp(names[j], nm[i].want[j]));
    if (n >= 0) free_names(names, n);
  }
  char** qn = NULL;
  int nqn = read_names(f, "/model/q_names", &qn);
  ENSURE(nqn == 8 && !strcmp(qn[0], "base.x") && !strcmp(qn[7], "arm.angle"));
  if (nqn >= 0) free_names(qn, nqn);

  /* root attributes */
  char s[512];
  struct {
    const char* name;
    const char* want;
  } sa[] = {{"format", "simc-trajectory"}, {"simc_version", "v-test"},
            {"scene_name", "unit scene"},  {"scene_path", "scenes/unit.yaml"},
            {"scene_yaml", m->scene_yaml}, {"command_line", "simc unit.yaml -o out.h5"},
            {"solver", "newton"},          {"scheme", "midpoint"},
            {"status", "complete"},        {"on_failure", "abort"}};
  for (size_t i = 0; i < sizeof sa / sizeof sa[0]; i++) {
    ENSURE(read_str_attr(f, sa[i].name, s, sizeof s));
    if (strcmp(s, sa[i].want)) printf("  attribute %s = '%s', want '%s'\n", sa[i].name, s, sa[i].want);
    ENSURE(!strcmp(s, sa[i].want));
  }
  ENSURE(read_num_attr(f, "format_version", 1, NULL) == 4);
  ENSURE(read_num_attr(f, "theta_q", 1, NULL) == m->opt.theta_q);
  ENSURE(read_num_attr(f, "theta_v", 1, NULL) == m->opt.theta_v);
  ENSURE(read_num_attr(f, "theta_vq", 1, NULL) == m->opt.theta_vq);
  ENSURE(read_num_attr(f, "time_step", 1, NULL) == 2e-3);
  ENSURE(read_num_attr(f, "duration", 1, NULL) == m->opt.duration);
  ENSURE(read_num_attr(f, "output_every", 1, NULL) == 1);
  ENSURE(read_num_attr(f, "ncon_max", 1, NULL) == 4);
  double g[3];
  read_num_attr(f, "gravity", 3, g);
  ENSURE(g[0] == 0 && g[1] == 0 && g[2] == -9.81);

  /* units: every dataset has one, and the key ones have the right value */
  visit_ctx vc = {0, 0};
  H5Lvisit(f, H5_INDEX_NAME, H5_ITER_INC, visit_units, &vc);
  /* model names + geometry + body_parent, per-frame incl. poses and the
   * energy split, penetration, relinearization and Coulomb residual columns,
   * per-contact */
  ENSURE(vc.ndatasets == 4 + 5 + 1 + 27 + 7);
  ENSURE(vc.nunits == vc.ndatasets);
  struct {
    const char* path;
    const char* units;
  } un[] = {{"/time", "s"},           {"/energy/total", "J"},     {"/contact/impulse", "N s"},
            {"/contact/gap", "m"},    {"/contact/slip", "m/s"},   {"/contact/point", "m"},
            {"/solver/wall_time", "s"}, {"/solver/iterations", "1"},
            {"/body/position", "m"},  {"/model/geometry/size", "m"}};
  for (size_t i = 0; i < sizeof un / sizeof un[0]; i++) {
    hid_t ds = H5Dopen2(f, un[i].path, H5P_DEFAULT);
    ENSURE(ds >= 0 && read_str_attr(ds, "units", s, sizeof s) && !strcmp(s, un[i].units));
    if (ds >= 0) H5Dclose(ds);
  }

  H5Fclose(f);
  for (int i = 0; i < 13; i++) free(sv[i]);
  for (int i = 0; i < 7; i++) free(cv[i]);
  free(t);
  free(q);
  free(v);
  sc_data_free(d);
  sc_model_free(m);
}

static int files_equal(const char* a, const char* b, long* size) {
  FILE* fa = fopen(a, "rb");
  FILE* fb = fopen(b, "rb");
  int eq = fa && fb;
  *size = 0;
  while (eq) {
    int ca = fgetc(fa), cb = fgetc(fb);
    if (ca != cb) eq = 0;
    if (ca == EOF || cb == EOF) break;
  }
  if (fa) {
    fseek(fa, 0, SEEK_END);
    *size = ftell(fa);
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return eq;
}

/* Identical inputs written a second apart give byte-identical files: no
 * timestamps anywhere (object headers included). */
static void test_identical_inputs_identical_bytes(void) {
  char a[512], b[512];
  tmp_path(a, sizeof a, "det_a.h5");
  tmp_path(b, sizeof b, "det_b.h5");
  sc_model* m = make_model(0, 1);
  sc_error err;
  ENSURE(write_file(a, m, NFRAMES, -1, 0, 0, "complete", &err) == SC_OK);
  struct timespec ts = {1, 100000000};
  nanosleep(&ts, NULL); /* object-header times have 1 s resolution */
  ENSURE(write_file(b, m, NFRAMES, -1, 0, 0, "complete", &err) == SC_OK);
  long size = 0;
  ENSURE(files_equal(a, b, &size));
  ENSURE(size > 10000);
  /* a different value must change the bytes (the comparison can fail) */
  ENSURE(write_file(b, m, NFRAMES, 5, 0, 1e-12, "complete", &err) == SC_OK);
  ENSURE(!files_equal(a, b, &size));
  sc_model_free(m);
}

/* sc_h5_write_frame never calls the allocator, including block writes and
 * flushes (300 frames = 2 full blocks + 1 explicit flush) */
static void test_write_frame_does_not_allocate(void) {
  char path[512];
  tmp_path(path, sizeof path, "alloc.h5");
  sc_model* m = make_model(0, 1);
  sc_data* d = NULL;
  sc_error err;
  sc_h5* h = NULL;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  sc_h5_meta meta = {"cmd", "v", 1e-9, 0, NULL, NULL}; /* time-based flush on every frame */
  ENSURE(sc_h5_open(path, m, d, &meta, &h, &err) == SC_OK);
  if (!h) return;
  long before = sc_alloc_count();
  int ok = 1;
  for (long k = 0; k < NFRAMES; k++) {
    fill_frame(m, d, k);
    ok &= sc_h5_write_frame(h, m, d, &err) == SC_OK;
  }
  ok &= sc_h5_flush(h, &err) == SC_OK;
  ENSURE(ok);
  ENSURE(sc_alloc_count() == before);
  ENSURE(sc_h5_frames(h) == NFRAMES);
  ENSURE(sc_h5_close(h, "complete", &err) == SC_OK);
  sc_data_free(d);
  sc_model_free(m);
}

static void test_error_names_the_file(void) {
  const char* path = "/nonexistent-dir-simc/sub/out.h5";
  sc_model* m = make_model(0, 1);
  sc_data* d = NULL;
  sc_error err;
  sc_error_clear(&err);
  sc_data_create(m, &d, &err);
  sc_h5* h = (sc_h5*)&err; /* must be reset to NULL */
  long before = sc_alloc_count();
  sc_status st = sc_h5_open(path, m, d, NULL, &h, &err);
  ENSURE(st == SC_ERR_IO);
  ENSURE(err.code == SC_ERR_IO);
  ENSURE(h == NULL);
  char buf[1200];
  sc_error_format(&err, buf, sizeof buf);
  ENSURE(strstr(buf, path) != NULL);
  ENSURE(strstr(err.msg, "create") != NULL);
  ENSURE(strstr(err.msg, "No such file or directory") != NULL);
  printf("  message: %s\n", buf);
  (void)before;
  ENSURE(sc_h5_close(NULL, "complete", &err) == SC_OK);
  sc_data_free(d);
  sc_model_free(m);
}

/* nq = nv = 0 (a welded body): /q and /v have shape [N, 0] */
static void test_zero_width_q(void) {
  char path[512];
  tmp_path(path, sizeof path, "zero.h5");
  sc_model* m = make_model(1, 1);
  ENSURE(m && m->nq == 0 && m->nv == 0);
  sc_error err;
  sc_status st = write_file(path, m, 200, -1, 0, 0, "complete", &err);
  ENSURE(st == SC_OK);
  if (st != SC_OK) printf("  %s\n", err.msg);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(f >= 0);
  if (f < 0) return;
  hsize_t dims[2];
  int rank;
  double* x = read_ds(f, "/q", dims, &rank);
  ENSURE(x && rank == 2 && dims[0] == 200 && dims[1] == 0);
  free(x);
  x = read_ds(f, "/v", dims, &rank);
  ENSURE(x && rank == 2 && dims[0] == 200 && dims[1] == 0);
  free(x);
  x = read_ds(f, "/time", dims, &rank);
  ENSURE(x && dims[0] == 200 && x[199] == 2e-3 * 199);
  free(x);
  char** names = NULL;
  int n = read_names(f, "/model/q_names", &names);
  ENSURE(n == 0);
  if (n >= 0) free_names(names, n);
  H5Fclose(f);
  sc_model_free(m);
}

/* output_contacts off: /contact/count only */
static void test_contacts_off(void) {
  char path[512];
  tmp_path(path, sizeof path, "nocontacts.h5");
  sc_model* m = make_model(0, 0);
  sc_error err;
  ENSURE(write_file(path, m, 50, -1, 0, 0, "failed: diverged", &err) == SC_OK);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(f >= 0);
  if (f < 0) return;
  ENSURE(exists(f, "/contact/count"));
  ENSURE(!exists(f, "/contact/start") && !exists(f, "/contact/body_a") &&
         !exists(f, "/contact/impulse"));
  hsize_t dims[2];
  int rank;
  double* c = read_ds(f, "/contact/count", dims, &rank);
  ENSURE(c && dims[0] == 50 && c[7] == 3 && c[8] == 0);
  free(c);
  char s[128];
  ENSURE(read_str_attr(f, "status", s, sizeof s) && !strcmp(s, "failed: diverged"));
  H5Fclose(f);
  sc_model_free(m);
}

/* A writer killed after a flush leaves a readable file holding at least the
 * flushed frames, with status "running". */
static void test_readable_after_crash(void) {
  char path[512];
  tmp_path(path, sizeof path, "crash.h5");
  sc_model* m = make_model(0, 1);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    sc_data* d = NULL;
    sc_error err;
    sc_h5* h = NULL;
    sc_h5_meta meta = {"cmd", "v", -1.0, 0, NULL, NULL};
    if (sc_data_create(m, &d, &err) != SC_OK || sc_h5_open(path, m, d, &meta, &h, &err) != SC_OK)
      _exit(3);
    for (long k = 0; k < 200; k++) {
      fill_frame(m, d, k);
      if (sc_h5_write_frame(h, m, d, &err) != SC_OK) _exit(4);
    }
    if (sc_h5_flush(h, &err) != SC_OK) _exit(5);
    /* one more block is written (not flushed) and a partial one buffered */
    for (long k = 200; k < 350; k++) {
      fill_frame(m, d, k);
      if (sc_h5_write_frame(h, m, d, &err) != SC_OK) _exit(6);
    }
    raise(SIGKILL); /* no close: a real crash (and no exit-time leak check) */
    _exit(0);
  }
  int wst = 0;
  waitpid(pid, &wst, 0);
  ENSURE(WIFSIGNALED(wst) && WTERMSIG(wst) == SIGKILL);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(f >= 0);
  if (f < 0) return;
  char s[64];
  ENSURE(read_str_attr(f, "status", s, sizeof s) && !strcmp(s, "running"));
  hsize_t dt[2], dq[2];
  int r;
  double* t = read_ds(f, "/time", dt, &r);
  double* q = read_ds(f, "/q", dq, &r);
  ENSURE(t && q && dt[0] >= 200 && dq[0] == dt[0]);
  printf("  frames readable after the crash: %llu (flushed: 200)\n", (unsigned long long)dt[0]);
  sc_data* d = NULL;
  sc_error err;
  sc_data_create(m, &d, &err);
  long bad = 0;
  for (long k = 0; t && q && k < (long)dt[0]; k++) {
    fill_frame(m, d, k);
    bad += t[k] != d->time;
    for (int i = 0; i < m->nq; i++) bad += q[8 * k + i] != d->q[i];
  }
  ENSURE(bad == 0);
  free(t);
  free(q);
  H5Fclose(f);
  sc_data_free(d);
  sc_model_free(m);
}

/* A write failure during the run (file size limit, as a full disk would)
 * comes back as SC_ERR_IO naming the file; close still returns and frees. */
static void test_write_error_is_reported(void) {
  char path[512];
  tmp_path(path, sizeof path, "full.h5");
  sc_model* m = make_model(0, 1);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN); /* write() then fails with EFBIG */
    struct rlimit rl = {1024 * 1024, 1024 * 1024};
    setrlimit(RLIMIT_FSIZE, &rl);
    sc_data* d = NULL;
    sc_error err;
    sc_error_clear(&err);
    sc_h5* h = NULL;
    sc_h5_meta meta = {"cmd", "v", -1.0, 0, NULL, NULL};
    if (sc_data_create(m, &d, &err) != SC_OK) _exit(10);
    sc_status st = sc_h5_open(path, m, d, &meta, &h, &err);
    for (long k = 0; st == SC_OK && k < 20000; k++) {
      fill_frame(m, d, k);
      st = sc_h5_write_frame(h, m, d, &err);
      if (st == SC_OK && k % 1000 == 999) st = sc_h5_flush(h, &err);
    }
    int code = st == SC_OK ? 1 : (st != SC_ERR_IO || strcmp(err.file, path)) ? 2 : 0;
    printf("  message: %s\n", err.msg);
    sc_error err2;
    sc_status cs = sc_h5_close(h, "failed: disk full", &err2);
    if (h && cs == SC_OK) code = 3; /* the unwritable tail must be reported */
    sc_data_free(d);
    sc_model_free(m);
    fflush(stdout);
    _exit(code);
  }
  int wst = 0;
  waitpid(pid, &wst, 0);
  ENSURE(WIFEXITED(wst));
  if (WIFEXITED(wst) && WEXITSTATUS(wst) != 0) printf("  child exit %d\n", WEXITSTATUS(wst));
  ENSURE(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
  /* the file left behind: valid, status as given, every per-frame dataset
   * the same length, the contact rows those frames index, and every row
   * kept equal to what was written */
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  ENSURE(f >= 0);
  if (f < 0) {
    sc_model_free(m);
    return;
  }
  char s[64];
  ENSURE(read_str_attr(f, "status", s, sizeof s) && !strcmp(s, "failed: disk full"));
  static const char* frame_ds[] = {"/time", "/q", "/v", "/energy/total", "/energy/dissipated",
                                   "/contact/count", "/contact/start", "/solver/iterations",
                                   "/solver/wall_time"};
  hsize_t dims[2], n = 0;
  int rank;
  for (size_t i = 0; i < sizeof frame_ds / sizeof *frame_ds; i++) {
    double* x = read_ds(f, frame_ds[i], dims, &rank);
    ENSURE(x != NULL);
    if (i == 0) n = dims[0];
    if (dims[0] != n) printf("  %s has %llu rows, /time %llu\n", frame_ds[i],
                             (unsigned long long)dims[0], (unsigned long long)n);
    ENSURE(dims[0] == n);
    free(x);
  }
  printf("  frames kept under a 1 MiB size limit: %llu\n", (unsigned long long)n);
  ENSURE(n >= SC_H5_FRAMES_PER_BLOCK);
  double* t = read_ds(f, "/time", dims, &rank);
  double* q = read_ds(f, "/q", dims, &rank);
  double* cnt = read_ds(f, "/contact/count", dims, &rank);
  hsize_t dg[2];
  double* gap = read_ds(f, "/contact/gap", dg, &rank);
  long total = 0, bad = 0;
  sc_data* d = NULL;
  sc_error err;
  sc_data_create(m, &d, &err);
  for (hsize_t k = 0; t && q && cnt && d && k < n; k++) {
    fill_frame(m, d, (long)k);
    bad += t[k] != d->time || cnt[k] != d->ncon;
    for (int i = 0; i < m->nq; i++) bad += q[(size_t)m->nq * k + i] != d->q[i];
    total += (long)cnt[k];
  }
  ENSURE(bad == 0);
  ENSURE(gap && (long)dg[0] == total);
  free(t);
  free(q);
  free(cnt);
  free(gap);
  sc_data_free(d);
  H5Fclose(f);
  sc_model_free(m);
}

static int generate(int argc, char** argv) {
  long row = -1, nframes = NFRAMES;
  int col = 0, contacts = 1;
  double delta = 0;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--perturb") && i + 3 < argc) {
      row = atol(argv[i + 1]);
      col = atoi(argv[i + 2]);
      delta = atof(argv[i + 3]);
      i += 3;
    } else if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
      nframes = atol(argv[++i]);
    } else if (!strcmp(argv[i], "--no-contacts")) {
      contacts = 0;
    } else {
      fprintf(stderr, "test_io_h5 --write: bad argument '%s'\n", argv[i]);
      return 2;
    }
  }
  sc_model* m = make_model(0, contacts);
  sc_error err;
  sc_error_clear(&err);
  sc_status st = write_file(argv[2], m, nframes, row, col, delta, "complete", &err);
  if (st != SC_OK) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
  }
  sc_model_free(m);
  return st == SC_OK ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc > 2 && !strcmp(argv[1], "--write")) return generate(argc, argv);
  TEST_BEGIN(argc, argv);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  snprintf(tmpdir, sizeof tmpdir, "/tmp/simc_test_io_h5_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    printf("FAIL mkdtemp\n");
    return 1;
  }
  RUN(test_roundtrip_all_datasets);
  RUN(test_identical_inputs_identical_bytes);
  RUN(test_write_frame_does_not_allocate);
  RUN(test_error_names_the_file);
  RUN(test_zero_width_q);
  RUN(test_contacts_off);
  RUN(test_readable_after_crash);
  RUN(test_write_error_is_reported);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) printf("  could not remove %s\n", tmpdir);
  return TEST_END();
}
