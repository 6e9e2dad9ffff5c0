/* api: the public C API (include/simc.h) over the library's model, data
 * and step.  Nothing here computes physics: it converts between the API's
 * coordinates (the file's: a free joint at its frame origin) and the
 * step's (state.h), checks arguments and maps statuses.  Only the
 * functions marked SIMC_API are exported from libsimc.so (the rest of the
 * library is built with hidden visibility). */
#include "simc.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "dynamics/dynamics.h"
#include "integrator/integrator.h"
#include "io_h5/io_h5.h"
#include "linalg/linalg.h"
#include "run/run.h"
#include "scene/scene.h"

struct simc_model {
  sc_model* m;
};

struct simc_data {
  sc_data* d;
  const simc_model* owner; /* the model it was made for: every call checks it */
  /* the state in the file's coordinates, shared with the program
   * (simc_field "q", "v"), and what the library last wrote there: a
   * difference is the program's write, taken as the new state by the next
   * call that steps or reads the state (pull) */
  double *qpos, *qvel, *qpos_seen, *qvel_seen;
};

/* m and d given, and d made for m: a data object stepped or read with
 * another model's sizes would be read out of bounds */
static int mine(const simc_model* m, const simc_data* d) { return m && d && d->owner == m; }

struct simc_recorder {
  const simc_model* model; /* the model it records */
  sc_h5* h5;
  sc_run run;
  long steps; /* counted by simc_recorder_step */
};

static int status_of(sc_status s) {
  switch (s) {
    case SC_OK: return SIMC_OK;
    case SC_ERR_SCENE: return SIMC_ERR_SCENE;
    case SC_ERR_IO: return SIMC_ERR_IO;
    case SC_ERR_NOMEM: return SIMC_ERR_NOMEM;
    default: return SIMC_ERR_SIM;
  }
}

static int fail(simc_error* out, const sc_error* e) {
  const int code = status_of(e->code);
  if (out) {
    out->code = code;
    snprintf(out->file, sizeof out->file, "%s", e->file);
    out->line = e->line;
    out->col = e->col;
    snprintf(out->msg, sizeof out->msg, "%s", e->msg);
  }
  return code;
}

static int arg_error(simc_error* out, const char* what) {
  if (out) {
    memset(out, 0, sizeof *out);
    out->code = SIMC_ERR_ARG;
    snprintf(out->msg, sizeof out->msg, "%s", what);
  }
  return SIMC_ERR_ARG;
}

static void ok(simc_error* out) {
  if (out) memset(out, 0, sizeof *out);
}

/* a zeroed object of the API's, or NULL with SIMC_ERR_NOMEM in err */
static void* zalloc(size_t bytes, simc_error* err) {
  void* p = sc_calloc(1, bytes);
  if (!p) {
    sc_error e;
    sc_error_set(&e, SC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    fail(err, &e);
  }
  return p;
}

void simc_error_string(const simc_error* err, char* buf, int bufsize) {
  if (!buf || bufsize <= 0) return;
  if (!err) {
    buf[0] = '\0';
    return;
  }
  /* the command line's form (sc_error_format): a line without a column
   * (some XML errors) is file:line: message */
  sc_error e;
  sc_error_clear(&e);
  snprintf(e.file, sizeof e.file, "%s", err->file);
  e.line = err->line;
  e.col = err->col;
  snprintf(e.msg, sizeof e.msg, "%s", err->msg);
  sc_error_format(&e, buf, (size_t)bufsize);
}

const char* simc_version(void) { return "0.1"; }

simc_model* simc_load(const char* path, const char* const* sets, int nsets, simc_error* err) {
  if (!path) {
    arg_error(err, "simc_load: no path");
    return NULL;
  }
  sc_error e;
  sc_error_clear(&e);
  sc_model* m = NULL;
  if (sc_scene_load(path, sets, nsets > 0 ? nsets : 0, &m, &e) != SC_OK) {
    fail(err, &e);
    return NULL;
  }
  simc_model* out = sc_calloc(1, sizeof *out);
  if (!out) {
    sc_model_free(m);
    sc_error_set(&e, SC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    fail(err, &e);
    return NULL;
  }
  out->m = m;
  ok(err);
  return out;
}

void simc_model_free(simc_model* m) {
  if (!m) return;
  sc_model_free(m->m);
  sc_free(m);
}

int simc_count(const simc_model* mm, int kind) {
  if (!mm) return 0;
  const sc_model* m = mm->m;
  switch (kind) {
    case SIMC_BODY: return m->nbody;
    case SIMC_JOINT: return m->njnt;
    case SIMC_ACTUATOR: return m->nact;
    case SIMC_QPOS: return m->nq;
    case SIMC_DOF: return m->nv;
    case SIMC_GEOM: return m->ngeom;
    default: return 0;
  }
}

const char* simc_name(const simc_model* mm, int kind, int i) {
  if (!mm || i < 0 || i >= simc_count(mm, kind)) return NULL;
  const sc_model* m = mm->m;
  switch (kind) {
    case SIMC_BODY: return m->body_name[i];
    case SIMC_JOINT: return m->jnt_name[i];
    case SIMC_ACTUATOR: return m->act_name[i];
    case SIMC_QPOS: return m->q_names[i];
    case SIMC_DOF: return m->v_names[i];
    default: return NULL;
  }
}

int simc_index(const simc_model* m, int kind, const char* name) {
  if (!name) return -1;
  const int n = simc_count(m, kind);
  for (int i = 0; i < n; i++) {
    const char* s = simc_name(m, kind, i);
    if (s && strcmp(s, name) == 0) return i;
  }
  return -1;
}

double simc_timestep(const simc_model* m) { return m ? m->m->opt.dt : 0.0; }
double simc_duration(const simc_model* m) { return m ? m->m->opt.duration : 0.0; }

const char* simc_model_text(const simc_model* mm, int what) {
  if (!mm) return "";
  const sc_model* m = mm->m;
  const char* t = what == SIMC_TEXT_NOTES          ? m->notes
                  : what == SIMC_TEXT_APPROXIMATED ? m->approximated
                  : what == SIMC_TEXT_IGNORED      ? m->ignored
                  : what == SIMC_TEXT_DIGEST       ? m->input_digest
                                                   : NULL;
  return t ? t : "";
}

int simc_model_option(const simc_model* mm, int what) {
  if (!mm) return -1;
  const sc_options* o = &mm->m->opt;
  switch (what) {
    case SIMC_OPTION_OUTPUT_EVERY: return o->output_every;
    case SIMC_OPTION_SOLVER: return o->solver == SC_SOLVER_LCP;
    case SIMC_OPTION_ON_FAILURE: return o->on_failure == SC_ON_FAILURE_WARN;
    case SIMC_OPTION_MAX_CONTACTS: return sc_data_contact_capacity(mm->m);
    default: return -1;
  }
}

void simc_input_digest(const simc_model* mm, const char* from, char out[65]) {
  if (!out) return;
  out[0] = '\0';
  if (!mm) return;
  const sc_model* m = mm->m;
  if (!from) {
    snprintf(out, 65, "%s", m->input_digest);
    return;
  }
  /* the initial state is an input of the run too: the spec and its file's
   * bytes join the digest (an unreadable file leaves the spec's alone) */
  char fpath[4096];
  long long row;
  const int split = sc_run_split_start(from, fpath, sizeof fpath, &row);
  sc_sha256 s;
  sc_sha256* outer = sc_inputs_begin(&s);
  sc_inputs_add("--from", from, strlen(from));
  if (split == 0) sc_inputs_add_file(fpath);
  sc_inputs_end(outer);
  sc_sha256_update(&s, m->input_digest, 64);
  sc_sha256_final(&s, out);
}

int simc_is_output_file(const char* path) { return path ? sc_h5_is_simc_output(path) : -1; }

void simc_blas_single_thread(void) { sc_la_single_thread(); }

_Static_assert(SIMC_MAX_THREADS == SC_MAX_THREADS, "simc.h's thread bound is the model's");

/* the initial conditions' derived state: the same order as the command
 * line (data, prepare, forward) */
static int start(const sc_model* m, sc_data* d, simc_error* err) {
  sc_error e;
  sc_error_clear(&e);
  if (sc_sim_prepare(m, d, &e) != SC_OK || sc_forward(m, d, &e) != SC_OK) return fail(err, &e);
  ok(err);
  return SIMC_OK;
}

/* the step's state into the program's arrays (file coordinates) */
static void publish(const sc_model* m, simc_data* dd) {
  const sc_data* d = dd->d;
  const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
  memcpy(dd->qpos, d->q, sizeof(double) * nq);
  sc_state_com_to_frame(m, dd->qpos, NULL);
  memcpy(dd->qvel, d->v, sizeof(double) * nv);
  sc_state_velocity_to_frame(m, d->q, dd->qvel);
  memcpy(dd->qpos_seen, dd->qpos, sizeof(double) * nq);
  memcpy(dd->qvel_seen, dd->qvel, sizeof(double) * nv);
}

/* q, v (file coordinates) as d's state, checked; `who` names the call for
 * its message */
static int set_state(const sc_model* m, simc_data* dd, const double* q, const double* v,
                     int keep_q, const char* who, simc_error* err) {
  char msg[160];
  for (int i = 0; i < m->nq; i++)
    if (!isfinite(q[i])) {
      snprintf(msg, sizeof msg, "%s: q[%d] (%s) is not finite", who, i, m->q_names[i]);
      return arg_error(err, msg);
    }
  for (int i = 0; i < m->nv; i++)
    if (!isfinite(v[i])) {
      snprintf(msg, sizeof msg, "%s: v[%d] (%s) is not finite", who, i, m->v_names[i]);
      return arg_error(err, msg);
    }
  /* every quaternion must be a rotation (as --from: sc_state_*quaternion*) */
  const int j = sc_state_zero_quaternion(m, q); /* the joint */
  if (j >= 0) {
    const int z = m->jnt_qadr[j] + (m->jnt_type[j] == SC_JOINT_FREE ? 3 : 0);
    snprintf(msg, sizeof msg, "%s: a zero quaternion at q[%d] (%s): no rotation", who, z,
             m->q_names[z]);
    return arg_error(err, msg);
  }
  sc_data* d = dd->d;
  double* vq = d->scratch; /* q's conversion when only v is new (scratch: >= nq) */
  if (keep_q) {
    /* v alone was written: the step's q stays as it is, bit for bit (its
     * round trip through the file's coordinates would round it) */
    memcpy(vq, q, sizeof(double) * (size_t)m->nq);
    memcpy(d->v, v, sizeof(double) * (size_t)m->nv);
    sc_state_normalize_quaternions(m, vq);
    sc_state_frame_to_com(m, vq, d->v);
  } else {
    memcpy(d->q, q, sizeof(double) * (size_t)m->nq);
    memcpy(d->v, v, sizeof(double) * (size_t)m->nv);
    sc_state_normalize_quaternions(m, d->q);
    sc_state_frame_to_com(m, d->q, d->v);
  }
  sc_error e;
  sc_error_clear(&e);
  const sc_status st = sc_forward(m, d, &e);
  publish(m, dd);
  if (st != SC_OK) return fail(err, &e);
  ok(err);
  return SIMC_OK;
}

/* the program's writes to q and v since the library last wrote them, taken
 * as the state (nothing to do, and nothing rounded, when there were none) */
static int pull(const sc_model* m, simc_data* dd, const char* who, simc_error* err) {
  const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
  const int q_new = memcmp(dd->qpos, dd->qpos_seen, sizeof(double) * nq) != 0;
  const int v_new = memcmp(dd->qvel, dd->qvel_seen, sizeof(double) * nv) != 0;
  if (!q_new && !v_new) return SIMC_OK;
  return set_state(m, dd, dd->qpos, dd->qvel, !q_new, who, err);
}

/* a data object prepared for m, its initial state checked or not */
static simc_data* make(const simc_model* mm, int checked, simc_error* err) {
  if (!mm) {
    arg_error(err, "simc_data_make: no model");
    return NULL;
  }
  sc_error e;
  sc_error_clear(&e);
  simc_data* out = zalloc(sizeof *out, err);
  if (!out) return NULL;
  out->owner = mm;
  const size_t nx = (size_t)mm->m->nq + (size_t)mm->m->nv;
  out->qpos = zalloc(sizeof(double) * (2 * nx + 2), err);
  if (!out->qpos) {
    sc_free(out);
    return NULL;
  }
  out->qvel = out->qpos + mm->m->nq;
  out->qpos_seen = out->qpos + nx + 1;
  out->qvel_seen = out->qpos_seen + mm->m->nq;
  if (sc_data_create(mm->m, &out->d, &e) != SC_OK) {
    fail(err, &e);
    simc_data_free(out);
    return NULL;
  }
  int st = SIMC_OK;
  if (checked) st = start(mm->m, out->d, err);
  else if (sc_sim_prepare(mm->m, out->d, &e) != SC_OK) st = fail(err, &e);
  else ok(err);
  if (st != SIMC_OK) {
    simc_data_free(out);
    return NULL;
  }
  publish(mm->m, out);
  return out;
}

simc_data* simc_data_make(const simc_model* m, simc_error* err) { return make(m, 1, err); }
simc_data* simc_data_make_unchecked(const simc_model* m, simc_error* err) { return make(m, 0, err); }

int simc_forward(const simc_model* m, simc_data* d, simc_error* err) {
  if (!mine(m, d)) return arg_error(err, "simc_forward: no model or data, or data of another model");
  const int p = pull(m->m, d, "simc_forward", err);
  if (p != SIMC_OK) return p;
  sc_error e;
  sc_error_clear(&e);
  if (sc_forward(m->m, d->d, &e) != SC_OK) return fail(err, &e);
  ok(err);
  return SIMC_OK;
}

void simc_set_cancel(const simc_model* m, simc_data* d, const volatile sig_atomic_t* flag) {
  if (mine(m, d)) sc_sim_set_cancel(d->d, flag);
}

int simc_data_reset(const simc_model* mm, simc_data* dd, simc_error* err) {
  if (!mine(mm, dd)) return arg_error(err, "simc_data_reset: no model or data, or data of another model");
  /* a fresh data object copied in: nothing of the old run's warm starts
   * survives, so that a reset run repeats a new one bit for bit, and the
   * arrays a program shares (simc_field) stay where they are */
  sc_error e;
  sc_error_clear(&e);
  sc_data* d = NULL;
  if (sc_data_create(mm->m, &d, &e) != SC_OK) return fail(err, &e);
  const int st = start(mm->m, d, err);
  if (st == SIMC_OK) {
    sc_sim_copy(mm->m, dd->d, d);
    publish(mm->m, dd);
  }
  sc_data_free(d);
  return st;
}

int simc_data_copy(const simc_model* m, simc_data* dst, simc_data* src, simc_error* err) {
  if (!mine(m, dst) || !mine(m, src))
    return arg_error(err, "simc_data_copy: no model or data, or data of another model");
  const int p = pull(m->m, src, "simc_data_copy", err);
  if (p != SIMC_OK) return p;
  if (dst == src) {
    ok(err);
    return SIMC_OK;
  }
  sc_sim_copy(m->m, dst->d, src->d);
  publish(m->m, dst);
  ok(err);
  return SIMC_OK;
}

void simc_data_free(simc_data* d) {
  if (!d) return;
  sc_data_free(d->d);
  sc_free(d->qpos);
  sc_free(d);
}

double simc_time(const simc_data* d) { return d ? d->d->time : 0.0; }

int simc_set_time(const simc_model* m, simc_data* d, double t, simc_error* err) {
  if (!mine(m, d)) return arg_error(err, "simc_set_time: no model or data, or data of another model");
  const double k = t / m->m->opt.dt;
  if (!(t >= 0) || !(k <= 0x1p52)) return arg_error(err, "simc_set_time: t must be >= 0, finite, within 2^52 steps");
  d->d->step = (long)llround(k);
  d->d->time = (double)d->d->step * m->m->opt.dt;
  ok(err);
  return SIMC_OK;
}

void simc_get_q(const simc_model* m, const simc_data* d, double* q) {
  if (mine(m, d) && q) memcpy(q, d->qpos, sizeof(double) * (size_t)m->m->nq);
}

void simc_get_v(const simc_model* m, const simc_data* d, double* v) {
  if (mine(m, d) && v) memcpy(v, d->qvel, sizeof(double) * (size_t)m->m->nv);
}

int simc_set_state(const simc_model* mm, simc_data* dd, const double* q, const double* v,
                   simc_error* err) {
  if (!mine(mm, dd) || !q || !v)
    return arg_error(err, "simc_set_state: no model, data, q or v, or data of another model");
  return set_state(mm->m, dd, q, v, 0, "simc_set_state", err);
}

int simc_data_load_state(const simc_model* mm, simc_data* dd, const char* spec, char* desc,
                         int descsize, simc_error* err) {
  if (!mine(mm, dd) || !spec)
    return arg_error(err, "simc_data_load_state: no model, data or spec, or data of another model");
  const sc_model* m = mm->m;
  sc_error e;
  sc_error_clear(&e);
  /* read into scratch: a failed read leaves d as it was */
  double* x = sc_malloc(sizeof(double) * (size_t)(m->nq + m->nv + 1));
  if (!x) {
    sc_error_set(&e, SC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    return fail(err, &e);
  }
  char where[4200];
  sc_status st = sc_run_read_start(spec, m, x, x + m->nq, where, sizeof where, &e);
  if (st == SC_OK) {
    memcpy(dd->d->q, x, sizeof(double) * (size_t)m->nq);
    memcpy(dd->d->v, x + m->nq, sizeof(double) * (size_t)m->nv);
    st = sc_forward(m, dd->d, &e);
    publish(m, dd);
  }
  sc_free(x);
  if (st != SC_OK) return fail(err, &e);
  if (desc && descsize > 0) snprintf(desc, (size_t)descsize, "%s", where);
  ok(err);
  return SIMC_OK;
}

int simc_set_ctrl(const simc_model* m, simc_data* d, int a, double u) {
  if (!mine(m, d) || a < 0 || a >= m->m->nact || !isfinite(u)) return SIMC_ERR_ARG;
  d->d->ctrl[a] = u;
  return SIMC_OK;
}

int simc_clear_ctrl(const simc_model* m, simc_data* d, int a) {
  if (!mine(m, d) || a < 0 || a >= m->m->nact) return SIMC_ERR_ARG;
  d->d->ctrl[a] = NAN;
  return SIMC_OK;
}

double* simc_ctrl(const simc_model* m, simc_data* d) { return mine(m, d) && m->m->nact ? d->d->ctrl : NULL; }

double simc_ctrl_used(const simc_model* m, const simc_data* d, int a) {
  if (!mine(m, d) || a < 0 || a >= m->m->nact) return NAN;
  return d->d->act_ctrl[a];
}

double simc_actuator_force(const simc_model* m, const simc_data* d, int a) {
  if (!mine(m, d) || a < 0 || a >= m->m->nact) return NAN;
  return d->d->act_force[a];
}

/* The arrays a program shares with the library (simc.h, simc_field), listed
 * once: the Python package and any other binding build their views from
 * this table, so that an array added here is everywhere.
 * X(name, writable, where, rows, cols, unit, what); where and rows are
 * expressions of dd (the simc_data), D (its sc_data) and M (the model). */
#define SIMC_FIELDS(X)                                                                           \
  X(q, 1, dd->qpos, M->nq, 1, "m, rad, 1", "positions, the file's coordinates")                 \
  X(v, 1, dd->qvel, M->nv, 1, "m/s, rad/s", "velocities, the file's coordinates")               \
  X(ctrl, 1, D->ctrl, M->nact, 1, "the actuator's input",                                       \
    "each actuator's input from now on; NaN: its command")                                      \
  X(qfrc_applied, 1, D->qfrc_applied, M->nv, 1, "N, N m",                                       \
    "generalized forces held over each step, the coordinates of v")                             \
  X(xfrc_applied, 1, D->xfrc_applied, M->nbody, 6, "N, N m",                                    \
    "per body a force at its centre of mass and a torque, world axes")                          \
  X(xpos, 0, D->xpos, M->nbody, 3, "m", "body frame origins in the world")                      \
  X(xmat, 0, D->xrot, M->nbody, 9, "1", "body orientations, row-major, body to world")          \
  X(xcom, 0, D->xcom, M->nbody, 3, "m", "body centres of mass in the world")                    \
  X(ctrl_used, 0, D->act_ctrl, M->nact, 1, "the actuator's input",                              \
    "the input each actuator used in the last step")                                            \
  X(actuator_force, 0, D->act_force, M->nact, 1, "N, N m",                                      \
    "each actuator's generalized force over the last step")                                     \
  X(joint_limit_force, 0, D->jnt_limit_force, M->njnt, 1, "N, N m",                             \
    "each joint's limit force over the last step")                                              \
  X(tendon_length, 0, D->ten_length, M->ntendon, 1, "m (a fixed tendon: its joints' unit)",    \
    "each tendon's length")                                                                     \
  X(tendon_friction_force, 0, D->ten_friction_force, M->ntendon, 1, "N (a fixed tendon: its joints' unit)", \
    "each tendon's dry friction force over the last step")                                      \
  X(constraint_force, 0, D->eq_force, M->neqrow, 1, "N, N m",                                   \
    "each equality constraint row's force over the last step")

enum {
#define SIMC_FIELD_ID(n_, w_, where_, rows_, cols_, unit_, what_) FIELD_##n_,
  SIMC_FIELDS(SIMC_FIELD_ID) NFIELD
#undef SIMC_FIELD_ID
};

int simc_field_count(void) { return NFIELD; }

int simc_field_index(const char* name) {
  static const char* const names[] = {
#define SIMC_FIELD_NAME(n_, w_, where_, rows_, cols_, unit_, what_) #n_,
      SIMC_FIELDS(SIMC_FIELD_NAME)
#undef SIMC_FIELD_NAME
  };
  for (int i = 0; name && i < NFIELD; i++)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

double* simc_field(const simc_model* mm, simc_data* dd, int i, simc_field_info* info) {
  if (info) memset(info, 0, sizeof *info);
  if (i < 0 || i >= NFIELD) return NULL;
  const sc_model* M = mm ? mm->m : NULL;
  sc_data* D = dd ? dd->d : NULL;
  const int have_m = M != NULL, have_d = have_m && mine(mm, dd);
  switch (i) {
#define SIMC_FIELD_CASE(n_, w_, where_, rows_, cols_, unit_, what_) \
  case FIELD_##n_:                                                  \
    if (info) {                                                     \
      info->name = #n_;                                             \
      info->writable = w_;                                          \
      info->rows = have_m ? (rows_) : 0;                            \
      info->cols = cols_;                                           \
      info->unit = unit_;                                           \
      info->what = what_;                                           \
    }                                                               \
    return have_d ? (where_) : NULL;
    SIMC_FIELDS(SIMC_FIELD_CASE)
#undef SIMC_FIELD_CASE
  }
  return NULL;
}

double* simc_qfrc_applied(const simc_model* m, simc_data* d) {
  return mine(m, d) && m->m->nv ? d->d->qfrc_applied : NULL;
}

double* simc_xfrc_applied(const simc_model* m, simc_data* d) {
  return mine(m, d) ? d->d->xfrc_applied : NULL;
}

int simc_body_pose(const simc_model* m, const simc_data* d, int b, double pos[3],
                   double rot[9]) {
  if (!mine(m, d) || b < 0 || b >= m->m->nbody) return SIMC_ERR_ARG;
  /* every entry point leaves the kinematics of the current q (make, reset,
   * set_state: sc_forward; a step: its end-of-step quantities) */
  if (pos) memcpy(pos, d->d->xpos + 3 * (size_t)b, 3 * sizeof(double));
  if (rot) memcpy(rot, d->d->xrot + 9 * (size_t)b, 9 * sizeof(double));
  return SIMC_OK;
}

int simc_step(const simc_model* m, simc_data* d, int n, simc_error* err) {
  if (!mine(m, d) || n < 0)
    return arg_error(err, "simc_step: no model or data, data of another model, or n < 0");
  const int p = pull(m->m, d, "simc_step", err);
  if (p != SIMC_OK) return p;
  sc_error e;
  sc_error_clear(&e);
  sc_status st = SC_OK;
  for (int k = 0; k < n && st == SC_OK; k++) st = sc_advance(m->m, d->d, &e);
  publish(m->m, d);
  if (st != SC_OK) return fail(err, &e);
  ok(err);
  return SIMC_OK;
}

/* simc_rollout's work, shared by its threads */
typedef struct rollout_job {
  const sc_model* m;
  const sc_data* d;      /* the start, read only */
  sc_data** x;           /* one data object per thread */
  int nroll, nstep;
  const double* ctrl;
  double* q;
  atomic_int next;       /* the next rollout to take */
  atomic_int failed;     /* the lowest failing rollout (nroll: none) */
  sc_error* errs;        /* per thread, the error of its lowest failure */
  int* err_at;           /* per thread, that failure's rollout (-1: none) */
} rollout_job;

static void rollout_fill_nan(double* q, size_t n) {
  for (size_t i = 0; i < n; i++) q[i] = NAN;
}

static void rollout_worker(void* arg, int t) {
  rollout_job* job = arg;
  const sc_model* m = job->m;
  sc_data* x = job->x[t];
  const size_t nq = (size_t)m->nq, nu = (size_t)m->nact, T = (size_t)job->nstep;
  for (;;) {
    const int i = atomic_fetch_add(&job->next, 1);
    if (i >= job->nroll) return;
    double* qi = job->q + (size_t)i * (T + 1) * nq;
    if (i > atomic_load(&job->failed)) { /* a lower rollout failed: stop */
      rollout_fill_nan(qi, (T + 1) * nq);
      continue;
    }
    sc_sim_copy(m, x, (sc_data*)job->d);
    memcpy(qi, x->q, sizeof(double) * nq);
    sc_state_com_to_frame(m, qi, NULL);
    for (size_t s = 0; s < T; s++) {
      if (nu) memcpy(x->ctrl, job->ctrl + ((size_t)i * T + s) * nu, sizeof(double) * nu);
      sc_error e;
      sc_error_clear(&e);
      if (sc_advance(m, x, &e) != SC_OK) {
        if (job->err_at[t] < 0 || i < job->err_at[t]) job->err_at[t] = i, job->errs[t] = e;
        int f = atomic_load(&job->failed);
        while (i < f && !atomic_compare_exchange_weak(&job->failed, &f, i)) {
        }
        rollout_fill_nan(qi + (s + 1) * nq, (T - s) * nq);
        break;
      }
      double* row = qi + (s + 1) * nq;
      memcpy(row, x->q, sizeof(double) * nq);
      sc_state_com_to_frame(m, row, NULL);
    }
  }
}

int simc_rollout(const simc_model* mm, simc_data* dd, int nroll, int nstep, const double* ctrl,
                 double* q, int threads, simc_error* err) {
  if (!mine(mm, dd) || nroll < 0 || nstep < 0 || !q || (!ctrl && mm->m->nact > 0 && nroll && nstep))
    return arg_error(err, "simc_rollout: no model, data, q or ctrl, data of another model, or a "
                          "negative count");
  const sc_model* m = mm->m;
  const int p = pull(m, dd, "simc_rollout", err);
  if (p != SIMC_OK) return p;
  if (nroll == 0) {
    ok(err);
    return SIMC_OK;
  }
  int nt = threads > 0 ? threads : sc_online_cpus();
  if (nt > nroll) nt = nroll;
  if (nt > SC_MAX_THREADS) nt = SC_MAX_THREADS;
  sc_error e;
  sc_error_clear(&e);
  rollout_job job;
  memset(&job, 0, sizeof job);
  job.x = sc_calloc((size_t)nt, sizeof *job.x);
  job.errs = sc_calloc((size_t)nt, sizeof *job.errs);
  job.err_at = sc_calloc((size_t)nt, sizeof *job.err_at);
  sc_pool* pool = NULL;
  sc_status st = job.x && job.errs && job.err_at ? SC_OK : SC_ERR_NOMEM;
  if (st != SC_OK) sc_error_set(&e, SC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  /* a data object per thread, its contact solves on that thread alone (the
   * same results: island.c) */
  for (int t = 0; t < nt && st == SC_OK; t++) {
    st = sc_data_create(m, &job.x[t], &e);
    if (st == SC_OK) st = sc_sim_prepare_threads(m, job.x[t], 1, &e);
    job.err_at[t] = -1;
  }
  if (st == SC_OK && nt > 1 && !(pool = sc_pool_create(nt)))
    st = sc_error_set(&e, SC_ERR_NOMEM, NULL, 0, 0, "simc_rollout: cannot start %d threads", nt);
  if (st == SC_OK) {
    /* the one write to d a copy makes (it forgets its cached factor), here,
     * before the threads read d */
    sc_sim_copy(m, job.x[0], dd->d);
    job.m = m;
    job.d = dd->d;
    job.nroll = nroll;
    job.nstep = nstep;
    job.ctrl = ctrl;
    job.q = q;
    atomic_store(&job.next, 0);
    atomic_store(&job.failed, nroll);
    if (pool) sc_pool_run(pool, rollout_worker, &job);
    else rollout_worker(&job, 0);
    const int f = atomic_load(&job.failed);
    for (int t = 0; f < nroll && t < nt; t++)
      if (job.err_at[t] == f) e = job.errs[t], st = e.code != SC_OK ? e.code : SC_ERR_SIM;
  }
  sc_pool_free(pool);
  for (int t = 0; job.x && t < nt; t++) sc_data_free(job.x[t]);
  sc_free(job.x);
  sc_free(job.errs);
  sc_free(job.err_at);
  if (st != SC_OK) return fail(err, &e);
  ok(err);
  return SIMC_OK;
}

int simc_ncontact(const simc_data* d) { return d ? d->d->ncon : 0; }

int simc_get_contact(const simc_data* dd, int i, simc_contact* c) {
  if (!dd || !c || i < 0 || i >= dd->d->ncon) return SIMC_ERR_ARG;
  const sc_data* d = dd->d;
  const sc_contact* k = &d->contact[i];
  c->body[0] = k->body[0];
  c->body[1] = k->body[1];
  memcpy(c->point, k->pos, sizeof c->point);
  memcpy(c->normal, k->frame + 6, sizeof c->normal);
  memcpy(c->frame, k->frame, sizeof c->frame);
  c->gap = k->dist;
  memcpy(c->impulse, d->impulse + 3 * (size_t)i, sizeof c->impulse);
  return SIMC_OK;
}

int simc_contacts(const simc_data* d, simc_contact* out, int max) {
  if (!d || !out || max <= 0) return 0;
  const int n = d->d->ncon < max ? d->d->ncon : max;
  for (int i = 0; i < n; i++) simc_get_contact(d, i, out + i);
  return n;
}

int simc_warnings(const simc_data* d, int w) {
  /* the API's numbering is the state's (state.h, sc_warning) */
  _Static_assert((int)SIMC_WARN_FREE_NEWTON == (int)SC_WARN_FREE_NEWTON &&
                     (int)SIMC_WARN_CONTACT == (int)SC_WARN_CONTACT &&
                     (int)SIMC_WARN_NCON == (int)SC_WARN_NCON && (int)SIMC_WARN_FAST == (int)SC_WARN_FAST,
                 "simc.h's warnings are state.h's");
  return d && w >= 0 && w < SC_NWARN ? d->d->warning[w] : 0;
}

void simc_energy(const simc_data* dd, double e[5]) {
  if (!dd || !e) return;
  const sc_data* d = dd->d;
  e[0] = d->e_kinetic;
  e[1] = d->e_gravity;
  e[2] = d->e_spring;
  e[3] = d->e_damper + d->e_contact + d->e_limit + d->e_jfriction + d->e_constraint;
  e[4] = d->e_actuator + d->e_applied;
}

simc_recorder* simc_recorder_open(const simc_model* m, simc_data* d, const char* path,
                                  const simc_record_options* opt, simc_error* err) {
  if (!mine(m, d) || !path) {
    arg_error(err, "simc_recorder_open: no model, data or path, or data of another model");
    return NULL;
  }
  const int p = pull(m->m, d, "simc_recorder_open", err);
  if (p != SIMC_OK) return NULL;
  sc_error e;
  sc_error_clear(&e);
  simc_recorder* r = zalloc(sizeof *r, err);
  if (!r) return NULL;
  r->model = m;
  const sc_h5_meta meta = {
      opt && opt->command_line ? opt->command_line : "simc_recorder_open (libsimc)",
      opt && opt->version ? opt->version : simc_version(), 0, opt ? opt->reserve_fd : 0,
      opt ? opt->initial_state : NULL, opt ? opt->input_digest : NULL};
  if (sc_run_init(&r->run, m->m, d->d, &e) != SC_OK ||
      sc_h5_open(path, m->m, d->d, &meta, &r->h5, &e) != SC_OK ||
      sc_h5_write_frame(r->h5, m->m, d->d, &e) != SC_OK) {
    fail(err, &e);
    if (r->h5) sc_h5_close(r->h5, "failed: could not write the first row", NULL);
    sc_run_free(&r->run);
    sc_free(r);
    return NULL;
  }
  ok(err);
  return r;
}

int simc_recorder_frame(simc_recorder* r, const simc_model* m, simc_data* d,
                        simc_error* err) {
  if (!r || !mine(m, d) || r->model != m)
    return arg_error(err, "simc_recorder_frame: no recorder, model or data, or another model's");
  const int p = pull(m->m, d, "simc_recorder_frame", err);
  if (p != SIMC_OK) return p;
  sc_error e;
  sc_error_clear(&e);
  if (sc_h5_write_frame(r->h5, m->m, d->d, &e) != SC_OK) return fail(err, &e);
  ok(err);
  return SIMC_OK;
}

int simc_recorder_step(simc_recorder* r, const simc_model* m, simc_data* d,
                       simc_error* err) {
  if (!r || !mine(m, d) || r->model != m)
    return arg_error(err, "simc_recorder_step: no recorder, model or data, or another model's");
  const int p = pull(m->m, d, "simc_recorder_step", err);
  if (p != SIMC_OK) return p;
  sc_run_step(&r->run, m->m, d->d);
  r->steps++;
  if (r->steps % m->m->opt.output_every == 0) return simc_recorder_frame(r, m, d, err);
  ok(err);
  return SIMC_OK;
}

int simc_recorder_close(simc_recorder* r, const simc_model* m, simc_data* d, const char* status,
                        simc_run_summary* summary, simc_error* err) {
  if (!r) return arg_error(err, "simc_recorder_close: no recorder");
  if (!mine(m, d) || r->model != m) {
    sc_h5_close(r->h5, "failed: simc_recorder_close without its model or data", NULL);
    sc_run_free(&r->run);
    sc_free(r);
    return arg_error(err, "simc_recorder_close: no model or data, or another model's");
  }
  char st[1100];
  if (status) {
    snprintf(st, sizeof st, "%s", status);
  } else {
    /* the end of a run: its last state is checked as a step's start would
     * (a body left inside another fails the run), as the command line does,
     * on a copy: d keeps its last step's contacts and impulses */
    sc_error fe;
    sc_error_clear(&fe);
    sc_data* x = NULL;
    sc_status fs = sc_data_create(m->m, &x, &fe);
    if (fs == SC_OK) fs = sc_sim_prepare_threads(m->m, x, 1, &fe); /* (no thread pool for one check) */
    if (fs == SC_OK) {
      sc_sim_copy(m->m, x, d->d);
      fs = sc_forward(m->m, x, &fe);
      sc_run_state(&r->run, x);
    }
    sc_data_free(x);
    if (fs != SC_OK)
      snprintf(st, sizeof st, "failed: %s (the final state)", fe.msg);
    else
      sc_run_complete_status(m->m, st, sizeof st);
  }
  char bodies[512], warnings[4096];
  sc_run_warnings(&r->run, m->m, d->d, warnings, sizeof warnings, bodies, sizeof bodies);
  sc_h5_summary sum = sc_run_summary(&r->run, bodies, warnings);
  sum.adaptive = m->m->opt.accuracy > 0;
  sum.substeps = d->d->substeps_total;
  sum.rejected_substeps = d->d->rejected_total;
  if (summary) {
    const sc_run* u = &r->run;
    const sc_data* x = d->d;
    memset(summary, 0, sizeof *summary);
    snprintf(summary->status, sizeof summary->status, "%s", st);
    summary->steps = u->steps;
    summary->mean_contacts = u->steps > 0 ? u->sum_ncon / (double)u->steps : 0.0;
    summary->mean_iterations = u->steps > 0 ? u->sum_iter / (double)u->steps : 0.0;
    summary->median_iterations = sc_run_median_iterations(u);
    summary->max_iterations = u->max_iter;
    summary->max_penetration = u->max_pen;
    summary->max_penetration_fraction = u->max_frac;
    summary->penetration_warning = u->frac_steps > 0;
    for (int i = 0; i < 3; i++) summary->coulomb[i] = u->max_coulomb[i];
    const double E = x->e_kinetic + x->e_gravity + x->e_spring;
    summary->energy_balance = E + x->e_damper + x->e_contact + x->e_limit + x->e_jfriction +
                              x->e_constraint - x->e_actuator - u->E0;
    summary->energy_start = u->E0;
    summary->substeps = sum.substeps;
    summary->rejected_substeps = sum.rejected_substeps;
    snprintf(summary->warnings, sizeof summary->warnings, "%s", warnings);
  }
  sc_error e;
  sc_error_clear(&e);
  sc_status hs = sc_h5_summarize(r->h5, &sum, &e);
  sc_error ce;
  sc_error_clear(&ce);
  const sc_status cs = sc_h5_close(r->h5, st, &ce);
  if (hs == SC_OK && cs != SC_OK) e = ce, hs = cs;
  sc_run_free(&r->run);
  sc_free(r);
  if (hs != SC_OK) return fail(err, &e);
  ok(err);
  return SIMC_OK;
}
