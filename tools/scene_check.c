/* scene_check: load a scene (with --set overrides) and report the result.
 *
 *   scene_check FILE [--set KEY=VALUE]... [--print]
 *
 * Exit 0 when the scene is valid, 1 on an invalid scene or arguments (the
 * located message on stderr), 3 when the file cannot be read.  --print
 * writes the scene after overrides (model->scene_yaml) to stdout. */
#include <stdio.h>
#include <string.h>

#include "scene/scene.h"

int main(int argc, char** argv) {
  const char* file = NULL;
  const char* sets[256];
  int nsets = 0, print = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--set") == 0) {
      if (i + 1 >= argc || nsets == 256) {
        fprintf(stderr, "scene_check: --set needs KEY=VALUE\n");
        return 1;
      }
      sets[nsets++] = argv[++i];
    } else if (strncmp(argv[i], "--set=", 6) == 0 && nsets < 256) {
      sets[nsets++] = argv[i] + 6;
    } else if (strcmp(argv[i], "--print") == 0) {
      print = 1;
    } else if (!file && argv[i][0] != '-') {
      file = argv[i];
    } else {
      fprintf(stderr, "usage: scene_check FILE [--set KEY=VALUE]... [--print]\n");
      return 1;
    }
  }
  if (!file) {
    fprintf(stderr, "usage: scene_check FILE [--set KEY=VALUE]... [--print]\n");
    return 1;
  }
  sc_model* m = NULL;
  sc_error err;
  sc_status st = sc_scene_load(file, sets, nsets, &m, &err);
  if (st != SC_OK) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    return st == SC_ERR_IO ? 3 : 1;
  }
  if (print) fputs(m->scene_yaml, stdout);
  fprintf(stderr, "%s: ok (%d bodies, %d geoms, nq %d, nv %d)\n", file, m->nbody - 1, m->ngeom,
          m->nq, m->nv);
  sc_model_free(m);
  return 0;
}
