/* fuzz targets for the scene loader, the XML model translators and the mesh
 * reader, shared by the libFuzzer drivers
 * (fuzz_scene.c, fuzz_set.c, fuzz_xml.c, fuzz_mesh.c, fuzz_csv.c, built with clang -fsanitize=fuzzer) and the
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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

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

#endif
