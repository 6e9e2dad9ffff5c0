/* build_model: small models built in code for the dynamics tests, so that
 * those tests do not depend on the scene loader. */
#ifndef SC_TEST_BUILD_MODEL_H
#define SC_TEST_BUILD_MODEL_H

#include <stdio.h>
#include <string.h>

#include "model/model.h"

/* A model with nbody-1 bodies, every array zeroed (the model's defaults
 * for limits and actuators), names "b1", "b2", ...; nact actuators and ncmd
 * commands of ncmddata samples in all; the caller fills joints, inertias,
 * geometry and actuators, then calls tb_finish. */
static sc_model* tb_begin_act(int nbody, int ngeom, int njspring, int nlspring, int nact,
                              int ncmd, int ncmddata) {
  sc_model* m = sc_calloc(1, sizeof *m);
  sc_options_default(&m->opt);
  m->nact = nact;
  m->ncmd = ncmd;
  m->nbody = nbody;
  m->njnt = nbody - 1;
  m->ngeom = ngeom;
  m->njspring = njspring;
  m->nlspring = nlspring;
  if (sc_model_alloc(m) != SC_OK) return NULL;
  if (ncmd > 0 && sc_model_alloc_commands(m, ncmddata) != SC_OK) return NULL;
  m->body_name[0] = sc_strdup("world");
  for (int b = 1; b < nbody; b++) {
    char name[32];
    snprintf(name, sizeof name, "b%d", b);
    m->body_name[b] = sc_strdup(name);
    m->body_parent[b] = b - 1;
    m->jnt_rot[9 * (b - 1)] = m->jnt_rot[9 * (b - 1) + 4] = m->jnt_rot[9 * (b - 1) + 8] = 1;
    m->jnt_axis[3 * (b - 1) + 2] = 1;
  }
  for (int g = 0; g < ngeom; g++) m->geom_rot[9 * g] = m->geom_rot[9 * g + 4] = m->geom_rot[9 * g + 8] = 1;
  m->name = sc_strdup("test");
  m->scene_path = sc_strdup("test");
  return m;
}

/* ... with no actuators or commands */
static sc_model* tb_begin(int nbody, int ngeom, int njspring, int nlspring) {
  return tb_begin_act(nbody, ngeom, njspring, nlspring, 0, 0, 0);
}

static void tb_body(sc_model* m, int b, int parent, sc_joint_type type, double mass,
                    const double com[3], double ixx, double iyy, double izz) {
  m->body_parent[b] = parent;
  m->jnt_type[b - 1] = type;
  m->body_mass[b] = mass;
  if (com) memcpy(m->body_com + 3 * b, com, 3 * sizeof(double));
  m->body_inertia[9 * b] = ixx;
  m->body_inertia[9 * b + 4] = iyy;
  m->body_inertia[9 * b + 8] = izz;
}

static void tb_axis(sc_model* m, int b, double x, double y, double z) {
  double* a = m->jnt_axis + 3 * (b - 1);
  a[0] = x;
  a[1] = y;
  a[2] = z;
  sc_sp_normalize3(a);
}

static void tb_origin(sc_model* m, int b, const double pos[3], const double rpy[3]) {
  if (pos) memcpy(m->jnt_pos + 3 * (b - 1), pos, 3 * sizeof(double));
  if (rpy) sc_sp_rpy_to_mat3(m->jnt_rot + 9 * (b - 1), rpy);
}

static void tb_scheme(sc_model* m, sc_scheme s) {
  m->opt.scheme = s;
  sc_options_scheme_thetas(s, &m->opt.theta_q, &m->opt.theta_v, &m->opt.theta_vq);
}

static sc_model* tb_finish(sc_model* m) {
  if (sc_model_finalize(m) != SC_OK) return NULL;
  return m;
}

#endif
