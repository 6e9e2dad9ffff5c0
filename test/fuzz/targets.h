/* fuzz targets for the scene loader, the XML model translators, the mesh
 * reader and the reader of a run's state (--from), shared by the libFuzzer
 * drivers (fuzz_scene.c, fuzz_set.c, fuzz_xml.c, fuzz_mesh.c, fuzz_csv.c,
 * fuzz_from.c, built with clang -fsanitize=fuzzer) and the
 * corpus replay test (test/test_fuzz_replay.c, built with the normal
 * compiler), so every input the fuzzer kept or crashed on stays a
 * regression test without clang.
 *
 * Beyond "no crash, no leak, no undefined behaviour" (the sanitizers'
 * job), each target checks the loader's contract on every input: a
 * rejected scene is SC_ERR_SCENE with a 1-based line and column and a
 * non-empty message, in the scene (or an override, or a command's CSV
 * file; an XML model's errors have lines only, and may be in an included
 * file or be an included file that cannot be read); an accepted one is a model whose re-emitted YAML (scene_yaml)
 * loads again to the same sizes. */
#ifndef SC_FUZZ_TARGETS_H
#define SC_FUZZ_TARGETS_H

#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include "io_h5/io_h5.h"
#include "mesh/mesh.h"
#include "scene/scene.h"

/* the report for a broken contract: abort() so libFuzzer keeps the input */
static void fuzz_violation(const char* what, const sc_error* err) {
  fprintf(stderr, "fuzz contract violated: %s (code %d, %s:%d:%d: %s)\n", what, (int)err->code,
          err->file, err->line, err->col, err->msg);
  abort();
}

/* 0 when the contract holds for this result; aborts otherwise.  xml: the
 * input is an XML model (MJCF or URDF), whose errors have a line but no
 * column and may be located in an included file */
static int fuzz_check_as(sc_status st, sc_model* m, const sc_error* err, const char* name, int xml) {
  if (st != SC_OK) {
    if (m) fuzz_violation("a model returned with an error", err);
    if (st != SC_ERR_SCENE && st != SC_ERR_NOMEM && !(xml && st == SC_ERR_IO))
      fuzz_violation("unexpected status", err);
    if (st == SC_ERR_SCENE && (err->line < 1 || (!xml && err->col < 1) || !err->msg[0]))
      fuzz_violation("a scene error without line:col or message", err);
    /* another file only for a command's CSV file, located in its own
     * coordinates ("f.csv:3:7: commands[0].x: ..."), or an XML include */
    if (st == SC_ERR_SCENE && !xml && strcmp(err->file, name) != 0 && strcmp(err->file, "--set") != 0 &&
        strncmp(err->msg, "commands[", 9) != 0)
      fuzz_violation("a scene error naming another file", err);
    return 0;
  }
  if (!m || !m->scene_yaml) fuzz_violation("success without a model", err);
  /* the emitted scene is the one the model was built from: it must load
   * again, to the same sizes */
  sc_model* m2 = NULL;
  sc_error e2;
  sc_status st2 = sc_scene_load_string(m->scene_yaml, name, NULL, 0, &m2, &e2);
  if (st2 != SC_OK) fuzz_violation("the emitted scene_yaml does not load again", &e2);
  if (m2->nbody != m->nbody || m2->ngeom != m->ngeom || m2->nq != m->nq || m2->nv != m->nv)
    fuzz_violation("the emitted scene_yaml loads to other sizes", &e2);
  sc_model_free(m2);
  sc_model_free(m);
  return 0;
}

/* 1 when the first non-blank byte is '<' (the loader's test for XML) */
static int fuzz_is_xml(const uint8_t* d, size_t n) {
  size_t i = 0;
  if (n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) i = 3;
  while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r')) i++;
  return i < n && d[i] == '<';
}

static int fuzz_check(sc_status st, sc_model* m, const sc_error* err, const char* name) {
  return fuzz_check_as(st, m, err, name, 0);
}

/* bytes -> the scene loader, as if read from a file */
static int fuzz_scene_one(const uint8_t* data, size_t size) {
  sc_model* m = NULL;
  sc_error err;
  sc_status st = sc_scene_load_buffer((const char*)data, size, "fuzz.yaml", NULL, 0, &m, &err);
  return fuzz_check_as(st, m, &err, "fuzz.yaml", fuzz_is_xml(data, size));
}

/* a valid scene with one of each joint and shape, springs and materials,
 * so that overrides reach every reader */
static const char fuzz_base_scene[] =
    "simc: 1\n"
    "name: fuzzbase\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 0.001, duration: 0.01}\n"
    "integrator: {scheme: implicit_euler}\n"
    "contact: {solver: newton, defaults: {stiffness: 1.0e5, dissipation_time: 0.01, friction: 0.5}}\n"
    "materials:\n"
    "  rubber: {stiffness: 1.0e4, friction: 0.9}\n"
    "output: {every: 1}\n"
    "bodies:\n"
    "  - name: ball\n"
    "    joint: {type: free}\n"
    "    mass: 1\n"
    "    inertia: solid\n"
    "    initial: {q: [0, 0, 0.5, 1, 0, 0, 0], v: [0, 0, 0, 0, 0, 1]}\n"
    "    geometry: [{shape: sphere, radius: 0.1, material: rubber}]\n"
    "  - name: arm\n"
    "    joint: {type: revolute, axis: [0, 1, 0], origin: {position: [1, 0, 1], rpy: [0, 0, 0]}}\n"
    "    mass: 2\n"
    "    com: [0, 0, -0.25]\n"
    "    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.01, ixy: 0, ixz: 0, iyz: 0}\n"
    "    geometry: [{shape: capsule, radius: 0.05, length: 0.5, pose: {position: [0, 0, -0.25]}}]\n"
    "  - name: slider\n"
    "    parent: arm\n"
    "    joint: {type: prismatic, axis: [0, 0, 1]}\n"
    "    mass: 0.5\n"
    "    inertia: solid\n"
    "    geometry: [{shape: box, size: [0.1, 0.1, 0.1]}]\n"
    "  - name: puck\n"
    "    joint: {type: planar, origin: {position: [0, 2, 0.1]}}\n"
    "    mass: 0.3\n"
    "    inertia: solid\n"
    "    geometry: [{shape: cylinder, radius: 0.1, length: 0.05}]\n"
    "  - name: top\n"
    "    joint: {type: ball, origin: {position: [0, -2, 1]}}\n"
    "    mass: 1\n"
    "    inertia: solid\n"
    "    geometry: [{shape: cylinder, radius: 0.2, length: 0.05}]\n"
    "static:\n"
    "  - {shape: plane, normal: [0, 0, 1], offset: 0, stiffness: rigid}\n"
    "  - {shape: box, size: [1, 1, 0.1], pose: {position: [3, 0, 0], rpy: [0, 0.1, 0]}}\n"
    "springs:\n"
    "  - {type: joint, joint: arm, dof: 0, stiffness: 10, damping: 0.1, rest: 0}\n"
    "  - {type: linear, a: {body: world, point: [0, 0, 1]}, b: {body: ball, point: [0, 0, 0]}, "
    "stiffness: 5, damping: 0, rest_length: 0.5}\n";

/* bytes -> up to 8 "--set KEY=VALUE" overrides (one per line) applied to
 * the base scene */
static int fuzz_set_one(const uint8_t* data, size_t size) {
  enum { MAXSET = 8 };
  char* buf = malloc(size + 1);
  if (!buf) return 0;
  if (size) memcpy(buf, data, size);
  buf[size] = '\0';
  const char* sets[MAXSET];
  int n = 0;
  for (char* p = buf; n < MAXSET;) {
    char* nl = strchr(p, '\n');
    if (nl) *nl = '\0';
    sets[n++] = p;
    if (!nl) break;
    p = nl + 1;
  }
  sc_model* m = NULL;
  sc_error err;
  sc_status st = sc_scene_load_buffer(fuzz_base_scene, sizeof fuzz_base_scene - 1, "base.yaml",
                                      sets, n, &m, &err);
  fuzz_check(st, m, &err, "base.yaml");
  free(buf);
  return 0;
}

/* bytes -> the MJCF/URDF translators and the loader after them, as a model
 * file beside the working directory (includes and meshes it names are
 * looked up there; none exist, so those are located errors) */
static int fuzz_xml_one(const uint8_t* data, size_t size) {
  sc_model* m = NULL;
  sc_error err;
  sc_status st = sc_scene_load_buffer((const char*)data, size, "fuzz.xml", NULL, 0, &m, &err);
  return fuzz_check_as(st, m, &err, "fuzz.xml", fuzz_is_xml(data, size));
}

/* bytes -> the mesh reader: the first byte picks the extension the file is
 * written under (even: .obj, odd: .stl; STL's binary or ASCII form is told
 * by content), the rest is the file.  A refusal is located in the file with
 * a message; an accepted mesh has finite vertices, a hull, a positive
 * volume and a bound that holds every vertex. */
static int fuzz_mesh_one(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  char path[64];
  snprintf(path, sizeof path, "/tmp/simc-fuzz-%ld.%s", (long)getpid(), data[0] & 1 ? "stl" : "obj");
  FILE* f = fopen(path, "wb");
  if (!f) return 0;
  const size_t w = fwrite(data + 1, 1, size - 1, f);
  fclose(f);
  if (w != size - 1) {
    remove(path);
    return 0;
  }
  const double scale[3] = {1, 1, 1};
  sc_mesh me;
  memset(&me, 0, sizeof me);
  sc_error err;
  sc_error_clear(&err);
  sc_status st = sc_mesh_read(path, scale, &me, &err);
  remove(path);
  if (st != SC_OK) {
    if (st != SC_ERR_SCENE && st != SC_ERR_NOMEM && st != SC_ERR_IO) fuzz_violation("unexpected mesh status", &err);
    if (!err.msg[0] || strcmp(err.file, path) != 0) fuzz_violation("a mesh error not located in its file", &err);
    return 0;
  }
  if (me.nvert < 4 || !(me.volume > 0) || !(me.rbound >= 0)) fuzz_violation("a degenerate mesh accepted", &err);
  for (int i = 0; i < 3 * me.nvert; i++)
    if (!(me.vert[i] == me.vert[i]) || me.vert[i] > 1e300 || me.vert[i] < -1e300)
      fuzz_violation("a non-finite vertex accepted", &err);
  for (int i = 0; i < me.nvert; i++) {
    const double* v = me.vert + 3 * i;
    if (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > me.rbound * me.rbound * (1 + 1e-9) + 1e-300)
      fuzz_violation("a vertex outside the mesh's bound", &err);
  }
  sc_mesh_free(&me);
  return 0;
}

/* bytes -> a command table (CSV) that a valid scene's two motors follow,
 * written beside the scene and read through the loader: a refusal is a
 * scene error located in the CSV file (or at the scene's commands entry)
 * with a message; an accepted table gives a model as any scene does */
static int fuzz_csv_one(const uint8_t* data, size_t size) {
  char dir[64], csv[96];
  snprintf(dir, sizeof dir, "/tmp/simc-fuzz-csv-%ld", (long)getpid());
  snprintf(csv, sizeof csv, "%s/c.csv", dir);
  mkdir(dir, 0700);
  FILE* f = fopen(csv, "wb");
  if (!f) return 0;
  const size_t w = fwrite(data, 1, size, f);
  fclose(f);
  if (w != size) return 0;
  static const char scene[] =
      "simc: 1\n"
      "time: {step: 0.001, duration: 0.01}\n"
      "bodies:\n"
      "  - {name: a, joint: {type: revolute, axis: [0, 0, 1]}, mass: 1, com: [0.1, 0, 0],\n"
      "     inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}\n"
      "  - {name: b, parent: a, joint: {type: prismatic, axis: [1, 0, 0]}, mass: 1, inertia: solid,\n"
      "     geometry: [{shape: sphere, radius: 0.05}]}\n"
      "actuators:\n"
      "  - {name: m1, joint: a, type: motor, command: u1}\n"
      "  - {name: m2, joint: b, type: motor, command: u2}\n"
      "commands:\n"
      "  - {file: c.csv, interpolation: linear}\n";
  char name[128];
  snprintf(name, sizeof name, "%s/s.yaml", dir);
  sc_model* m = NULL;
  sc_error err;
  sc_status st = sc_scene_load_buffer(scene, sizeof scene - 1, name, NULL, 0, &m, &err);
  if (st == SC_OK) {
    sc_model_free(m);
  } else {
    if (st != SC_ERR_SCENE && st != SC_ERR_NOMEM && st != SC_ERR_IO) fuzz_violation("unexpected status", &err);
    if (st == SC_ERR_SCENE && (err.line < 1 || !err.msg[0])) fuzz_violation("a table error without a line or message", &err);
    if (st == SC_ERR_SCENE && strcmp(err.file, csv) != 0 && strcmp(err.file, name) != 0)
      fuzz_violation("a table error in neither the table nor the scene", &err);
  }
  remove(csv);
  rmdir(dir);
  return 0;
}

/* ---- --from: a run's state (sc_h5_read_state) ----
 *
 * Raw bytes into libhdf5's parser would mostly find libhdf5's own bugs,
 * which simc cannot fix; so the bytes describe an HDF5 file instead, built
 * through the HDF5 API: which of /q, /v, /time, /model/q_names and
 * /model/v_names exist, their types (float64, float32, int32, strings),
 * ranks, shapes, layouts and values (NaN, infinities, huge, subnormal), the
 * names right or wrong, and the row asked for.  The file goes to /tmp (the
 * reader takes a path: it checks that it is a regular file) and is removed
 * afterwards.  Contract: a refusal is located in that file with a message;
 * an accepted state is finite, of the scene's sizes (ASan watches the
 * buffers, allocated to them exactly), with unit quaternions. */

typedef struct {
  const uint8_t* d;
  size_t n, i;
} fuzz_bytes;

static unsigned fuzz_byte(fuzz_bytes* in) { return in->i < in->n ? in->d[in->i++] : 0u; }

static double fuzz_value(fuzz_bytes* in) {
  static const double special[] = {0.0, 1.0, -1.0, 0.5, 0.7071067811865476, -0.0, NAN, INFINITY,
                                   -INFINITY, 1e308, -1e308, 1e200, -1e200, 1e154, 1e-154, 1e-200,
                                   1e-310, 4.9e-324, 3e-162, 2.0, 1e-12, 1e12};
  const unsigned nsp = sizeof special / sizeof special[0];
  const unsigned b = fuzz_byte(in);
  if (b < nsp) return special[b];
  if (b < 240) return ((double)b - 130.0) / 16.0;
  uint64_t bits = 0;
  for (int k = 0; k < 8; k++) bits = bits << 8 | fuzz_byte(in);
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

/* one numeric dataset at path whose expected rows hold n values (rank 1
 * when n is 0, as /time), shaped and typed by the next byte */
static void fuzz_h5_numeric(hid_t f, const char* path, int n, long long rows, fuzz_bytes* in) {
  const unsigned spec = fuzz_byte(in);
  const int type = spec & 3, shape = (spec >> 2) & 7, gz = (spec >> 6) & 1;
  int chunked = (spec >> 5) & 1;
  const int w = n > 0 ? n : 1;
  hsize_t dims[3] = {(hsize_t)rows, (hsize_t)w, 1};
  int rank = n > 0 ? 2 : 1;
  switch (shape) {
    case 1: rank = 1, dims[0] = (hsize_t)(rows * w); break;      /* flattened */
    case 2: dims[1] = (hsize_t)w + 1, rank = 2; break;           /* a column too many */
    case 3: dims[1] = (hsize_t)(w - 1), rank = 2; break;         /* one too few */
    case 4: rank = 0; break;                                      /* scalar */
    case 5: rank = 3; break;                                      /* [rows, n, 1] */
    case 6: dims[0] = ((hsize_t)1 << 40) + (hsize_t)rows; chunked = 1; break; /* declared, unwritten */
    default: break;
  }
  hsize_t maxd[3] = {H5S_UNLIMITED, dims[1], dims[2]};
  hid_t sp = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims, chunked ? maxd : NULL);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (chunked && rank > 0) {
    hsize_t cd[3] = {1, dims[1] > 0 ? dims[1] : 1, 1};
    H5Pset_chunk(dcpl, rank, cd);
    if (gz && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) H5Pset_deflate(dcpl, 1);
  }
  hid_t ft = type == 0 ? H5Tcopy(H5T_IEEE_F64LE)
             : type == 1 ? H5Tcopy(H5T_IEEE_F32LE)
             : type == 2 ? H5Tcopy(H5T_STD_I32LE)
                         : H5Tcopy(H5T_C_S1);
  if (type == 3) H5Tset_size(ft, 4);
  hid_t ds = sp >= 0 ? H5Dcreate2(f, path, ft, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT) : -1;
  hssize_t npts = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : 0;
  if (ds >= 0 && shape != 6 && npts > 0 && npts <= 4096) {
    double* x = malloc(sizeof(double) * (size_t)npts);
    char* c = malloc(4 * (size_t)npts);
    if (x && c) {
      for (hssize_t k = 0; k < npts; k++) {
        x[k] = fuzz_value(in);
        memcpy(c + 4 * k, "1.5", 4);
      }
      if (type == 3) H5Dwrite(ds, ft, H5S_ALL, H5S_ALL, H5P_DEFAULT, c);
      else if (type == 2) {
        int* iv = (int*)c; /* 4 bytes per element */
        for (hssize_t k = 0; k < npts; k++)
          iv[k] = x[k] == x[k] && x[k] < 2e9 && x[k] > -2e9 ? (int)x[k] : -7;
        H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, iv);
      } else {
        H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
      }
    }
    free(x);
    free(c);
  }
  if (ds >= 0) H5Dclose(ds);
  H5Tclose(ft);
  H5Pclose(dcpl);
  if (sp >= 0) H5Sclose(sp);
}

/* the n names of a model's coordinates at path, as simc writes them
 * (variable-length UTF-8) or otherwise, by the next byte */
static void fuzz_h5_names(hid_t f, const char* path, char* const* names, int n, fuzz_bytes* in) {
  const unsigned spec = fuzz_byte(in);
  const int mode = spec % 6, fixed = (spec >> 3) & 1;
  const unsigned which = fuzz_byte(in);
  int cnt = n + (mode == 3 ? -1 : mode == 4 ? 1 : 0);
  if (cnt < 0) cnt = 0;
  hsize_t dim = (hsize_t)cnt;
  if (mode == 5) { /* numbers where names belong */
    hid_t sp = H5Screate_simple(1, &dim, NULL);
    hid_t ds = H5Dcreate2(f, path, H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (ds >= 0) H5Dclose(ds);
    H5Sclose(sp);
    return;
  }
  const char** s = calloc((size_t)cnt + 1, sizeof *s);
  char alt[64];
  if (!s) return;
  for (int k = 0; k < cnt; k++) s[k] = k < n ? names[k] : "extra";
  if (mode == 2 && cnt > 0) {
    const int k = (int)(which % (unsigned)cnt);
    snprintf(alt, sizeof alt, "%sx", s[k]);
    s[k] = alt;
  }
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_cset(t, H5T_CSET_UTF8);
  char* buf = NULL;
  size_t len = 1;
  if (fixed) {
    for (int k = 0; k < cnt; k++)
      if (strlen(s[k]) + (which & 1) > len) len = strlen(s[k]) + (which & 1);
    H5Tset_size(t, len);
    H5Tset_strpad(t, which & 2 ? H5T_STR_NULLPAD : H5T_STR_NULLTERM);
    buf = calloc((size_t)cnt + 1, len);
    for (int k = 0; buf && k < cnt; k++) memcpy(buf + k * len, s[k], strlen(s[k]) < len ? strlen(s[k]) : len);
  } else {
    H5Tset_size(t, H5T_VARIABLE);
  }
  hid_t sp = H5Screate_simple(1, &dim, NULL);
  hid_t ds = H5Dcreate2(f, path, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (ds >= 0 && cnt > 0 && (!fixed || buf)) H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, fixed ? (const void*)buf : (const void*)s);
  if (ds >= 0) H5Dclose(ds);
  H5Sclose(sp);
  H5Tclose(t);
  free(buf);
  free(s);
}

/* the scene the states are for: a free body, a ball joint and a hinge (12
 * positions with two quaternions, 10 velocities) */
static const char fuzz_from_scene[] =
    "simc: 1\n"
    "time: {step: 0.001, duration: 0.01}\n"
    "bodies:\n"
    "  - {name: f, joint: {type: free}, mass: 1, inertia: solid, geometry: [{shape: sphere, radius: 0.1}]}\n"
    "  - {name: b, joint: {type: ball, origin: {position: [0, 1, 1]}}, mass: 1, inertia: solid,\n"
    "     geometry: [{shape: box, size: [0.1, 0.1, 0.1]}]}\n"
    "  - {name: r, parent: b, joint: {type: revolute, axis: [0, 1, 0]}, mass: 1, inertia: solid,\n"
    "     geometry: [{shape: sphere, radius: 0.05}]}\n";

static int fuzz_from_one(const uint8_t* data, size_t size) {
  static sc_model* m = NULL;
  if (!m) {
    sc_error e;
    if (sc_scene_load_buffer(fuzz_from_scene, sizeof fuzz_from_scene - 1, "from.yaml", NULL, 0, &m,
                             &e) != SC_OK)
      fuzz_violation("the fixed scene does not load", &e);
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  fuzz_bytes in = {data, size, 0};
  const unsigned flags = fuzz_byte(&in);
  const long long rows = fuzz_byte(&in) % 5;
  const int8_t rb = (int8_t)fuzz_byte(&in);
  const long long row = rb == -128 ? -(long long)((~0ULL) >> 1) - 1 : rb == 127 ? (long long)((~0ULL) >> 1) : rb % 6;
  char path[64];
  snprintf(path, sizeof path, "/tmp/simc-fuzz-from-%ld.h5", (long)getpid());
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) return 0;
  if (flags & 32) { /* the root attribute of a simc output */
    hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    H5Tset_size(t, 16);
    hid_t a = H5Acreate2(f, "format", t, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) H5Awrite(a, t, "simc-trajectory"), H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
  }
  if (flags & 1) fuzz_h5_numeric(f, "/q", m->nq, rows, &in);
  if (flags & 2) fuzz_h5_numeric(f, "/v", m->nv, rows, &in);
  if (flags & 4) fuzz_h5_numeric(f, "/time", 0, rows, &in);
  if (flags & 64) { /* /model a dataset, not a group */
    hsize_t one = 1;
    hid_t sp = H5Screate_simple(1, &one, NULL);
    hid_t ds = H5Dcreate2(f, "/model", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (ds >= 0) H5Dclose(ds);
    H5Sclose(sp);
  } else if (flags & 24) {
    hid_t g = H5Gcreate2(f, "/model", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g >= 0) H5Gclose(g);
    if (flags & 8) fuzz_h5_names(f, "/model/q_names", m->q_names, m->nq, &in);
    if (flags & 16) fuzz_h5_names(f, "/model/v_names", m->v_names, m->nv, &in);
  }
  if (flags & 128) { /* a link to nowhere and a group where a dataset may be asked for */
    H5Lcreate_soft("/nowhere", f, "/dangling", H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = H5Gcreate2(f, "/energy", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g >= 0) H5Gclose(g);
  }
  H5Fclose(f);
  double* q = malloc(sizeof(double) * (size_t)m->nq);
  double* v = malloc(sizeof(double) * (size_t)m->nv);
  double t = 0;
  long long k = -1;
  sc_error err;
  sc_error_clear(&err);
  const sc_status st = q && v ? sc_h5_read_state(path, row, m, q, v, &t, &k, &err) : SC_ERR_NOMEM;
  remove(path);
  if (q && v) {
    if (st != SC_OK) {
      if (st != SC_ERR_SCENE && st != SC_ERR_IO && st != SC_ERR_NOMEM) fuzz_violation("unexpected status", &err);
      if (!err.msg[0] || strcmp(err.file, path) != 0) fuzz_violation("a --from error not located in its file", &err);
    } else {
      if (k < 0 || k >= rows) fuzz_violation("a row outside the file accepted", &err);
      for (int i = 0; i < m->nq; i++)
        if (!isfinite(q[i])) fuzz_violation("a non-finite position accepted", &err);
      for (int i = 0; i < m->nv; i++)
        if (!isfinite(v[i])) fuzz_violation("a non-finite velocity accepted", &err);
      for (int j = 0; j < m->njnt; j++) {
        const int qa = m->jnt_qadr[j] + (m->jnt_type[j] == SC_JOINT_FREE ? 3 : 0);
        if (m->jnt_type[j] != SC_JOINT_FREE && m->jnt_type[j] != SC_JOINT_BALL) continue;
        const double n2 = q[qa] * q[qa] + q[qa + 1] * q[qa + 1] + q[qa + 2] * q[qa + 2] + q[qa + 3] * q[qa + 3];
        if (!(fabs(n2 - 1.0) < 1e-12)) fuzz_violation("a quaternion that is not a rotation accepted", &err);
      }
    }
  }
  free(q);
  free(v);
  return 0;
}

#endif
