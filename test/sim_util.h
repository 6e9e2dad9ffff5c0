/* sim_util: run a scene file through the library (no HDF5) for the physics
 * tests: load with overrides, prepare, step with a per-step callback. */
#ifndef SC_TEST_SIM_UTIL_H
#define SC_TEST_SIM_UTIL_H

#include <stdio.h>

#include "integrator/integrator.h"
#include "scene/scene.h"

typedef void (*sim_cb)(const sc_model* m, const sc_data* d, void* user);

/* Returns the status of the run; on a load or step error prints it. The model
 * and data are freed unless out_m/out_d are given (then the caller frees). */
static sc_status sim_run(const char* path, const char* const* sets, int nsets, sim_cb cb,
                         void* user, sc_model** out_m, sc_data** out_d) {
  sc_model* m = NULL;
  sc_data* d = NULL;
  sc_error err;
  char buf[1200];
  sc_status st = sc_scene_load(path, sets, nsets, &m, &err);
  if (st == SC_OK) st = sc_data_create(m, &d, &err);
  if (st == SC_OK) st = sc_sim_prepare(m, d, &err);
  if (st == SC_OK) st = sc_forward(m, d, &err);
  if (st == SC_OK && cb) cb(m, d, user);
  long n = st == SC_OK ? lround(m->opt.duration / m->opt.dt) : 0;
  for (long k = 0; k < n && st == SC_OK; k++) {
    st = sc_advance(m, d, &err);
    if (st == SC_OK && cb) cb(m, d, user);
  }
  if (st != SC_OK) {
    sc_error_format(&err, buf, sizeof buf);
    printf("  %s: %s\n", path, buf);
  }
  if (out_m) {
    *out_m = m;
  } else {
    sc_model_free(m);
  }
  if (out_d) {
    *out_d = d;
  } else {
    sc_data_free(d);
  }
  return st;
}

#endif
