/* fuzz replay: every input of the fuzzing corpus and every input a fuzzer
 * ever crashed on (test/fuzz/corpus/<target>/, test/fuzz/crashes/<target>/)
 * goes through the same target as under `make fuzz` (test/fuzz/targets.h),
 * with the normal compiler, so found bugs stay regression tests without
 * clang.  A target aborts on a broken contract (an error without line:col,
 * an emitted scene that does not load again), which fails this program;
 * under `make debug` the sanitizers check each input as the fuzzer did. */
#include <dirent.h>
#include <stdlib.h>

#include "fuzz/targets.h"
#include "harness.h"

/* run every regular file of dir through fn; returns the number of files */
static int replay_dir(const char* dir, int (*fn)(const uint8_t*, size_t)) {
  DIR* d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent* e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE* f = fopen(path, "rb");
    if (!f) continue;
    size_t cap = 1 << 16, len = 0, r;
    uint8_t* buf = malloc(cap);
    while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
      len += r;
      if (len == cap) {
        uint8_t* nb = realloc(buf, 2 * cap);
        if (!nb) break;
        buf = nb;
        cap *= 2;
      }
    }
    fclose(f);
    ENSURE(buf != NULL);
    if (!buf) continue;
    fn(buf, len);
    free(buf);
    n++;
  }
  closedir(d);
  return n;
}

static void test_replay_scene(void) {
  int n = replay_dir("test/fuzz/corpus/scene", fuzz_scene_one);
  int k = replay_dir("test/fuzz/crashes/scene", fuzz_scene_one);
  printf("  scene: %d corpus inputs, %d crash inputs\n", n, k);
  ENSURE(n >= 90); /* the scenes and test/bad are in it */
}

static void test_replay_set(void) {
  int n = replay_dir("test/fuzz/corpus/set", fuzz_set_one);
  int k = replay_dir("test/fuzz/crashes/set", fuzz_set_one);
  printf("  set: %d corpus inputs, %d crash inputs\n", n, k);
  ENSURE(n >= 15);
}

static void test_replay_xml(void) {
  int n = replay_dir("test/fuzz/corpus/xml", fuzz_xml_one);
  int k = replay_dir("test/fuzz/crashes/xml", fuzz_xml_one);
  printf("  xml: %d corpus inputs, %d crash inputs\n", n, k);
  ENSURE(n >= 5);
}

static void test_replay_mesh(void) {
  int n = replay_dir("test/fuzz/corpus/mesh", fuzz_mesh_one);
  int k = replay_dir("test/fuzz/crashes/mesh", fuzz_mesh_one);
  printf("  mesh: %d corpus inputs, %d crash inputs\n", n, k);
  ENSURE(n >= 4);
}

static void test_replay_csv(void) {
  int n = replay_dir("test/fuzz/corpus/csv", fuzz_csv_one);
  int k = replay_dir("test/fuzz/crashes/csv", fuzz_csv_one);
  printf("  csv: %d corpus inputs, %d crash inputs\n", n, k);
  ENSURE(n >= 3);
}

static void test_replay_from(void) {
  int n = replay_dir("test/fuzz/corpus/from", fuzz_from_one);
  int k = replay_dir("test/fuzz/crashes/from", fuzz_from_one);
  printf("  from: %d corpus inputs, %d crash inputs\n", n, k);
  ENSURE(n >= 5);
}

/* the base scene of the --set target is valid, so overrides reach the
 * readers rather than stopping at a broken base */
static void test_base_scene_valid(void) {
  sc_model* m = NULL;
  sc_error err;
  sc_status st = sc_scene_load_buffer(fuzz_base_scene, sizeof fuzz_base_scene - 1, "base.yaml",
                                      NULL, 0, &m, &err);
  ENSURE(st == SC_OK);
  if (m) {
    ENSURE(m->nbody == 6 && m->ngeom == 7 && m->nq == 16 && m->nv == 14);
    sc_model_free(m);
  }
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_base_scene_valid);
  RUN(test_replay_scene);
  RUN(test_replay_from);
  RUN(test_replay_set);
  RUN(test_replay_xml);
  RUN(test_replay_mesh);
  RUN(test_replay_csv);
  return TEST_END();
}
