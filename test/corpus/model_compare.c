/* model_compare FILE.xml: one MJCF file in simc and in MuJoCo 2.2.2 (Debian
 * libmujoco-dev), printed as one row of tab-separated key=value fields on
 * stdout (the reasons behind a failure on stderr).  The model-corpus test
 * (tools/dev/model_corpus.py, make test-models) builds its table from it.
 *
 *   mujoco     ok, or fail with mj_error (MuJoCo's first line)
 *   simc       ok; allow (loaded only with import.allow_unsupported=true);
 *              fail with simc_error
 *   map        ok when the two models have the same bodies and joints (the
 *              translation's contract of test/test_mjcf.c: a MuJoCo body is
 *              the simc body of the same name, its joints a chain of massless
 *              link bodies; q has qpos's layout); else fail with map_error
 *   mass       |total mass simc - MuJoCo| / MuJoCo's
 *   body       the largest relative error over the bodies of the mass, the
 *              centre of mass and the inertia tensor (test_mjcf's scales:
 *              the body's mass; the larger of the coordinate and its largest
 *              radius of gyration; its largest principal moment)
 *   pose0      body positions (m) and rotation-matrix entries at qpos0,
 *              the largest absolute difference
 *   M          joint-space mass matrix, entry ij relative to
 *              sqrt(M_ii M_jj), the largest over qpos0 and NSTATE random
 *              states (test_mjcf's random states: hinge and slide angles
 *              within their ranges, uniform orientations, velocities in
 *              [-1, 1], mapped to simc's velocity convention)
 *   bias       bias forces (gravity, Coriolis) over the same states (zero
 *              velocity at qpos0), each entry's largest difference relative
 *              to the largest entry of its kinematic tree over the states
 *              (one scale per tree: at qpos0 gravity alone may be 0 to
 *              rounding, e.g. hinges about the vertical), at least 1e-6 of
 *              the model's largest (a lone hinge about the vertical has no
 *              bias force at all, only rounding)
 *   traj       contact-free trajectory: both models without contact, joint
 *              limits, dry joint friction, actuators, equality constraints
 *              and tendon forces (MuJoCo: disable flags and zeroed tendon
 *              stiffness and damping; simc: --set removing the geometry,
 *              the limits, the friction, the actuators, the constraints
 *              and the tendons), from qpos0 with
 *              velocities uniform in [-1, 1], for TRAJ_T s: simc's midpoint
 *              at h = TRAJ_H and h/2 against MuJoCo's RK4 at h/2; traj is
 *              the largest joint difference of simc at h/2 (rad or m; a
 *              free or ball joint's rotation as an angle) and traj_est
 *              simc's own error estimated from its two steps (midpoint is
 *              second order: (q_h - q_h/2) / 3; RK4's error is smaller by
 *              h^2 and not counted).  traj_ok is 1 when traj <= TOL_TRAJ or
 *              traj <= 2 traj_est (the difference is simc's truncation).
 *   time       wall seconds
 * Every error is relative and 0 when exact; tolerances are the driver's. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mujoco.h>

#include "dynamics/dynamics.h"
#include "integrator/integrator.h"
#include "../mj_compare.h"
#include "scene/scene.h"

enum { NSTATE = 5 };
static const double TRAJ_T = 0.1, TRAJ_H = 2e-4, TOL_TRAJ = 1e-6;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the first reason a step failed, for the row; every reason on stderr */
static char why[300];
static void note(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[1000];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "  %s", buf);
  if (!why[0]) {
    memcpy(why, buf, sizeof why - 1);
    why[sizeof why - 1] = 0;
  }
}

/* a message as one field: its first line, tabs as spaces */
static void field(const char* key, const char* msg) {
  char buf[400];
  memcpy(buf, msg, strnlen(msg, sizeof buf - 1));
  buf[strnlen(msg, sizeof buf - 1)] = 0;
  for (char* c = buf; *c; c++) {
    if (*c == '\n' || *c == '\r') {
      *c = 0;
      break;
    }
    if (*c == '\t') *c = ' ';
  }
  printf("\t%s=%s", key, buf);
}

/* The random source, the velocity map T, simc's dense mass matrix and the
 * random states are test/mj_compare.h's, shared with test/test_mjcf.c; the
 * body map and the per-tree relative error below follow test_mjcf.c's, with
 * their messages through note(). */

/* ---- the two models of one file ---- */

typedef struct pair {
  mjModel* mm;
  mjData* md;
  sc_model* sm;
  sc_data* sd;
  int* body; /* (mm->nbody) the simc body of each MuJoCo body */
} pair;

/* The simc body of every MuJoCo body: by name; an unnamed MuJoCo body by its
 * place among the simc bodies on fixed joints (the bodies MuJoCo's become,
 * in the same order), checked against the named ones.  Then the structure:
 * each body on a fixed joint below the chain of its joints (massless, named
 * after the joints, same types, qpos and dof addresses) down from its
 * parent's body.  Returns 0 (printing why) when it does not hold. */
static int map_bodies(pair* p) {
  const mjModel* mm = p->mm;
  const sc_model* s = p->sm;
  int ok = 1, unnamed = 0, nfix = 0, order_ok = 1;
  int* fix = malloc(sizeof(int) * (size_t)s->nbody);
  p->body = malloc(sizeof(int) * (size_t)mm->nbody);
  if (!fix || !p->body) {
    free(fix);
    return 0;
  }
  for (int b = 1; b < s->nbody; b++)
    if (s->jnt_type[s->body_jnt[b]] == SC_JOINT_FIXED) fix[nfix++] = b;
  if (nfix != mm->nbody - 1) order_ok = 0;
  p->body[0] = 0;
  for (int b = 1; b < mm->nbody; b++) {
    const char* name = mj_id2name(mm, mjOBJ_BODY, b);
    if (name && name[0]) {
      p->body[b] = find_body(s, name);
      if (p->body[b] < 0) {
        note("MuJoCo body %d \"%s\" has no simc body of that name\n", b, name);
        ok = 0;
      }
      if (order_ok && p->body[b] != fix[b - 1]) order_ok = 0;
    } else {
      unnamed++;
      p->body[b] = -1;
    }
  }
  if (unnamed) {
    if (!order_ok) {
      note("%d unnamed MuJoCo bodies: simc's bodies on fixed joints (%d for MuJoCo's %d) "
             "are not in MuJoCo's order, so they cannot be matched\n",
             unnamed, nfix, mm->nbody - 1);
      ok = 0;
    } else {
      for (int b = 1; b < mm->nbody; b++)
        if (p->body[b] < 0) p->body[b] = fix[b - 1];
      note("%d unnamed MuJoCo bodies matched by order (e.g. body %d is simc's \"%s\")\n",
             unnamed, mm->nbody - 1, s->body_name[p->body[mm->nbody - 1]]);
    }
  }
  free(fix);
  if (!ok) return 0;

  if (s->nq != mm->nq || s->nv != mm->nv) {
    note("nq, nv: simc %d, %d; MuJoCo %d, %d\n", s->nq, s->nv, mm->nq, mm->nv);
    ok = 0;
  }
  int bad = 0;
  for (int b = 1; b < mm->nbody; b++) {
    const int sb = p->body[b];
    const char* bname = mj_id2name(mm, mjOBJ_BODY, b);
    if (s->jnt_type[s->body_jnt[sb]] != SC_JOINT_FIXED) {
      if (bad++ < 10)
        note("body %s: on a %s joint in simc, not a fixed one\n", s->body_name[sb],
               sc_joint_type_name(s->jnt_type[s->body_jnt[sb]]));
      continue;
    }
    int a = s->body_parent[sb];
    for (int i = mm->body_jntnum[b] - 1; i >= 0; i--) {
      const int j = mm->body_jntadr[b] + i;
      const char* jname = mj_id2name(mm, mjOBJ_JOINT, j);
      char want[512] = "";
      if (jname && jname[0]) snprintf(want, sizeof want, "%s", jname);
      else snprintf(want, sizeof want, "%s_joint%d", bname && bname[0] ? bname : s->body_name[sb], i);
      const int sj = a > 0 ? s->body_jnt[a] : -1;
      if (a <= 0 || strcmp(s->body_name[a], want) != 0 ||
          s->jnt_type[sj] != simc_type_of(mm->jnt_type[j]) ||
          s->jnt_qadr[sj] != mm->jnt_qposadr[j] || s->jnt_vadr[sj] != mm->jnt_dofadr[j] ||
          s->body_mass[a] != 0.0) {
        if (bad++ < 10) {
          if (a <= 0)
            note("body %s: joint %d (%s) has no chain body\n", s->body_name[sb], j, want);
          else
            note("body %s: MuJoCo joint %d \"%s\" (%s, qposadr %d, dofadr %d) vs simc body "
                   "%d \"%s\" (%s, qadr %d, vadr %d, mass %g)\n",
                   s->body_name[sb], j, want, mj_type_name(mm->jnt_type[j]), mm->jnt_qposadr[j],
                   mm->jnt_dofadr[j], a, s->body_name[a], sc_joint_type_name(s->jnt_type[sj]),
                   s->jnt_qadr[sj], s->jnt_vadr[sj], s->body_mass[a]);
        }
      }
      if (a <= 0) break;
      a = s->body_parent[a];
    }
    if (a != p->body[mm->body_parentid[b]] && bad++ < 10)
      note("body %s: the chain of its %d joints starts at simc body %d \"%s\", not at its "
             "parent's \"%s\"\n",
             s->body_name[sb], mm->body_jntnum[b], a, a >= 0 ? s->body_name[a] : "-",
             s->body_name[p->body[mm->body_parentid[b]]]);
  }
  if (bad) {
    note("%d mismatches of the body/joint structure\n", bad);
    ok = 0;
  }
  for (int i = 0; ok && i < mm->nq; i++) {
    if (fabs(s->qpos0[i] - mm->qpos0[i]) <= 1e-12) continue;
    /* simc starts a hinge or slide whose qpos0 is outside its range on the
     * nearer limit (the comparisons below take MuJoCo's qpos0 for both) */
    int proj = 0;
    for (int j = 0; j < mm->njnt; j++)
      if (mm->jnt_qposadr[j] == i && mm->jnt_limited[j] &&
          (mm->jnt_type[j] == mjJNT_HINGE || mm->jnt_type[j] == mjJNT_SLIDE)) {
        const double lo = mm->jnt_range[2 * j], hi = mm->jnt_range[2 * j + 1];
        const double pq = mm->qpos0[i] < lo ? lo : mm->qpos0[i] > hi ? hi : mm->qpos0[i];
        proj = fabs(s->qpos0[i] - pq) <= 1e-12 * (1 + fabs(pq));
      }
    if (proj) {
      note("qpos0[%d]: simc %.17g, MuJoCo %.17g outside its range: simc starts on the limit\n", i, s->qpos0[i],
           mm->qpos0[i]);
      continue;
    }
    note("qpos0[%d]: simc %.17g, MuJoCo %.17g\n", i, s->qpos0[i], mm->qpos0[i]);
    ok = 0;
  }
  return ok;
}



/* ---- loading ---- */

static void quiet_warning(const char* msg) { fprintf(stderr, "  MuJoCo warning: %s\n", msg); }

/* simc's model of path with sets; *allowed is set when it loads only with
 * import.allow_unsupported=true (then added); the error into msg */
static sc_model* simc_load(const char* path, const char* const* sets, int nsets, int* allowed,
                           char* msg, size_t msgsz) {
  sc_model* m = NULL;
  sc_error err;
  const char** all = malloc(sizeof(char*) * (size_t)(nsets + 1));
  if (!all) return NULL;
  all[0] = "import.allow_unsupported=true";
  for (int k = 0; k < nsets; k++) all[k + 1] = sets[k];
  sc_status st;
  if (*allowed) {
    st = sc_scene_load(path, all, nsets + 1, &m, &err);
  } else {
    st = sc_scene_load(path, sets, nsets, &m, &err);
    if (st != SC_OK) {
      sc_error_format(&err, msg, msgsz);
      if (strstr(msg, "allow-unsupported")) {
        *allowed = 1;
        st = sc_scene_load(path, all, nsets + 1, &m, &err);
      }
    }
  }
  free(all);
  if (st != SC_OK) {
    sc_error_format(&err, msg, msgsz);
    return NULL;
  }
  return m;
}

/* ---- quantities ---- */

/* the largest relative error of the bodies' mass, centre of mass, inertia */
static double body_error(const pair* p) {
  const mjModel* mm = p->mm;
  const sc_model* s = p->sm;
  double e = 0;
  for (int b = 1; b < mm->nbody; b++) {
    const int sb = p->body[b];
    const double mass = mm->body_mass[b];
    const double* pm = mm->body_inertia + 3 * b;
    const double imax = fmax(pm[0], fmax(pm[1], pm[2]));
    const double len = mass > 0 && imax > 0 ? sqrt(imax / mass) : 1.0;
    double R[9], I[9];
    mju_quat2Mat(R, mm->body_iquat + 4 * b);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        I[3 * r + c] = R[3 * r] * pm[0] * R[3 * c] + R[3 * r + 1] * pm[1] * R[3 * c + 1] +
                       R[3 * r + 2] * pm[2] * R[3 * c + 2];
    double eb = fabs(s->body_mass[sb] - mass) / fmax(mass, 1e-300);
    if (s->body_mass[sb] == mass) eb = 0;
    if (mass > 0) /* a massless body's centre of mass is immaterial */
      for (int k = 0; k < 3; k++) {
        const double c = mm->body_ipos[3 * b + k];
        eb = fmax(eb, fabs(s->body_com[3 * sb + k] - c) / fmax(fabs(c), len));
      }
    for (int k = 0; k < 9; k++) {
      const double d = fabs(s->body_inertia[9 * sb + k] - I[k]);
      if (d > 0) eb = fmax(eb, imax > 0 ? d / imax : (double)INFINITY);
    }
    if (eb > 1e-9) note("body %s: mass %.17g vs MuJoCo %.17g, largest relative error %.3g\n",
                        s->body_name[sb], s->body_mass[sb], mass, eb);
    e = fmax(e, eb);
  }
  return e;
}

typedef struct dyn_err {
  double pose0, M, bias;
} dyn_err;

/* poses at qpos0; M and bias at qpos0 (at rest) and NSTATE random states */
static int dynamics(pair* p, dyn_err* out) {
  mjModel* mm = p->mm;
  mjData* md = p->md;
  const sc_model* s = p->sm;
  sc_data* sd = p->sd;
  const int nv = mm->nv;
  const size_t nv2 = (size_t)nv * (size_t)nv;
  double* Mmj = malloc(sizeof(double) * (nv2 + 1));
  double* Ms = malloc(sizeof(double) * (nv2 + 1));
  double* work = malloc(sizeof(double) * (size_t)(6 * nv + mm->nq + mm->nbody + 1));
  double* dmax = calloc((size_t)nv + 1, sizeof(double));        /* per dof */
  double* smax = calloc((size_t)mm->nbody + 1, sizeof(double)); /* per tree */
  tmap t = {0, malloc(sizeof(int) * (size_t)(mm->njnt + 1)),
            malloc(sizeof(double) * 9 * (size_t)(mm->njnt + 1))};
  int ok = Mmj && Ms && work && t.adr && t.R && dmax && smax;
  memset(out, 0, sizeof *out);
  rng_state = 20220922u;
  for (int n = 0; ok && n <= NSTATE; n++) {
    if (n == 0) {
      mju_copy(md->qpos, mm->qpos0, mm->nq);
      mju_zero(md->qvel, nv);
    } else {
      random_state(mm, md->qpos, md->qvel);
    }
    mj_kinematics(mm, md);
    mj_comPos(mm, md);
    mj_crb(mm, md);
    mj_fullM(mm, Mmj, md->qM);
    mj_comVel(mm, md);
    mj_rne(mm, md, 0, md->qfrc_bias);
    double* vs = work;
    double* tau = vs + nv;
    double* fb = tau + nv;
    double* qs = fb + nv; /* simc's q (mj_compare.h: com_*) */
    tmap_build(mm, md->qpos, &t);
    tmap_apply(&t, nv, md->qvel, vs);
    memcpy(qs, md->qpos, sizeof(double) * (size_t)mm->nq);
    sc_state_frame_to_com(s, qs, vs);
    sc_dyn_kinematics(s, sd, qs);
    sc_dyn_velocity(s, sd, qs, vs);
    sc_dyn_crba(s, sd);
    sc_dyn_rne(s, sd, NULL, tau);
    if (n == 0)
      for (int b = 1; b < mm->nbody; b++) {
        const int sb = p->body[b];
        for (int k = 0; k < 3; k++)
          out->pose0 = fmax(out->pose0, fabs(sd->xpos[3 * sb + k] - md->xpos[3 * b + k]));
        for (int k = 0; k < 9; k++)
          out->pose0 = fmax(out->pose0, fabs(sd->xrot[9 * sb + k] - md->xmat[9 * b + k]));
      }
    simc_dense(s, sd->M, Ms);
    com_bias(s, qs, vs, Ms, nv, tau);
    com_congruence(s, qs, nv, Ms);
    tmap_congruence(&t, nv, Ms);
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < nv; j++) {
        const size_t ij = (size_t)i * (size_t)nv + (size_t)j;
        const double d = fabs(Ms[ij] - Mmj[ij]);
        const double sc = sqrt(Mmj[(size_t)i * (size_t)nv + (size_t)i] *
                               Mmj[(size_t)j * (size_t)nv + (size_t)j]);
        const double e = d > 0 ? (sc > 0 ? d / sc : (double)INFINITY) : 0;
        if (e > 1e-9 && e > out->M)
          note("state %d: M[%d][%d] simc %.17g, MuJoCo %.17g\n", n, i, j, Ms[ij], Mmj[ij]);
        out->M = fmax(out->M, e);
      }
    tmap_apply_t(&t, nv, tau, fb);
    for (int i = 0; i < nv; i++) {
      const int r = mm->body_rootid[mm->dof_bodyid[i]];
      smax[r] = fmax(smax[r], fabs(md->qfrc_bias[i]));
      dmax[i] = fmax(dmax[i], fabs(fb[i] - md->qfrc_bias[i]));
    }
  }
  double gmax = 0;
  for (int b = 0; b < mm->nbody; b++) gmax = fmax(gmax, smax[b]);
  for (int i = 0; ok && i < nv; i++) {
    const double sc = fmax(smax[mm->body_rootid[mm->dof_bodyid[i]]], 1e-6 * gmax);
    if (dmax[i] > 0) out->bias = fmax(out->bias, sc > 0 ? dmax[i] / sc : (double)INFINITY);
  }
  free(dmax);
  free(smax);
  free(Mmj);
  free(Ms);
  free(work);
  free(t.adr);
  free(t.R);
  return ok;
}

/* ---- the contact-free trajectory ---- */

static int add_set(char*** sets, int* n, int* cap, const char* fmt, ...) {
  if (*n == *cap) {
    *cap = 2 * *cap + 16;
    char** ns = realloc(*sets, sizeof(char*) * (size_t)*cap);
    if (!ns) return 0;
    *sets = ns;
  }
  char buf[1200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  (*sets)[*n] = strdup(buf);
  return (*sets)[(*n)++] != NULL;
}

/* a body's key for --set: its name, or its place in the scene's bodies
 * list when the name has a dot (which the key path splits on) */
static void body_key(const sc_model* s, int b, char* key, size_t n) {
  if (strchr(s->body_name[b], '.')) snprintf(key, n, "%d", b - 1);
  else snprintf(key, n, "%s", s->body_name[b]);
}

/* simc at step h from qpos0 with MuJoCo velocities qvel (mapped by T at
 * qpos0), contact, limits, friction and actuators removed, for T s; the
 * final q into q.  0 (noted) on failure. */
static int simc_traj(const char* path, int allowed, const sc_model* s0, const mjModel* mm,
                     const double* qvel, double h, double* q) {
  char** sets = NULL;
  int n = 0, cap = 0, ok = 1;
  char key[600];
  ok &= add_set(&sets, &n, &cap, "integrator.scheme=midpoint");
  ok &= add_set(&sets, &n, &cap, "time.step=%.17g", h);
  ok &= add_set(&sets, &n, &cap, "time.duration=%.17g", TRAJ_T);
  int any_static = 0;
  for (int g = 0; g < s0->ngeom; g++) any_static |= s0->geom_body[g] == 0;
  if (any_static) ok &= add_set(&sets, &n, &cap, "static=[]");
  for (int b = 1; b < s0->nbody; b++) {
    int has = 0;
    for (int g = 0; g < s0->ngeom; g++) has |= s0->geom_body[g] == b;
    body_key(s0, b, key, sizeof key);
    if (has) ok &= add_set(&sets, &n, &cap, "bodies.%s.geometry=[]", key);
    const int j = s0->body_jnt[b];
    if (j < 0) continue;
    if (isfinite(s0->jnt_range[2 * j]) || isfinite(s0->jnt_range[2 * j + 1]))
      ok &= add_set(&sets, &n, &cap, "bodies.%s.joint.limits=[null, null]", key);
    int fr = 0;
    for (int k = 0; k < s0->jnt_nv[j]; k++) fr |= s0->jnt_frictionloss[6 * j + k] > 0;
    if (fr) ok &= add_set(&sets, &n, &cap, "bodies.%s.joint.friction=0", key);
  }
  if (s0->nact) ok &= add_set(&sets, &n, &cap, "actuators=[]");
  if (s0->neq) ok &= add_set(&sets, &n, &cap, "constraints=[]");
  if (s0->ntendon) ok &= add_set(&sets, &n, &cap, "tendons=[]");
  char msg[1200] = "";
  int allow = allowed;
  sc_model* s = ok ? simc_load(path, (const char* const*)sets, n, &allow, msg, sizeof msg) : NULL;
  for (int k = 0; k < n; k++) free(sets[k]);
  free(sets);
  if (!s) {
    note("simc without contact: %s\n", msg);
    return 0;
  }
  sc_data* d = NULL;
  sc_error err;
  tmap t = {0, malloc(sizeof(int) * (size_t)(mm->njnt + 1)),
            malloc(sizeof(double) * 9 * (size_t)(mm->njnt + 1))};
  ok = t.adr && t.R && s->nq == mm->nq && s->nv == mm->nv;
  if (ok && (s->ngeom || s->any_limit || s->any_frictionloss || s->nact)) {
    note("simc without contact still has %d geoms, limits %d, friction %d, %d actuators\n",
         s->ngeom, s->any_limit, s->any_frictionloss, s->nact);
    ok = 0;
  }
  if (ok && sc_data_create(s, &d, &err) != SC_OK) ok = 0;
  if (ok) {
    tmap_build(mm, mm->qpos0, &t);
    memcpy(d->q, mm->qpos0, sizeof(double) * (size_t)mm->nq);
    tmap_apply(&t, mm->nv, qvel, d->v);
    sc_state_frame_to_com(s, d->q, d->v);
    ok = sc_sim_prepare(s, d, &err) == SC_OK && sc_forward(s, d, &err) == SC_OK;
  }
  const long nstep = lround(TRAJ_T / h);
  for (long k = 0; ok && k < nstep; k++) ok = sc_step(s, d, &err) == SC_OK;
  if (ok) {
    memcpy(q, d->q, sizeof(double) * (size_t)mm->nq);
    sc_state_com_to_frame(s, q, NULL);
  } else if (d) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    note("simc contact-free run: %s\n", buf);
  }
  free(t.adr);
  free(t.R);
  sc_data_free(d);
  sc_model_free(s);
  return ok;
}

/* the angle between two unit quaternions (w, x, y, z), either sign */
static double quat_angle(const double* a, const double* b) {
  double na = 0, nb = 0;
  for (int k = 0; k < 4; k++) {
    na += a[k] * a[k];
    nb += b[k] * b[k];
  }
  const double w = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / sqrt(na * nb);
  const double x = (a[0] * b[1] - a[1] * b[0] - a[2] * b[3] + a[3] * b[2]) / sqrt(na * nb);
  const double y = (a[0] * b[2] + a[1] * b[3] - a[2] * b[0] - a[3] * b[1]) / sqrt(na * nb);
  const double z = (a[0] * b[3] - a[1] * b[2] + a[2] * b[1] - a[3] * b[0]) / sqrt(na * nb);
  return 2 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}

/* the largest joint difference of a and b (MuJoCo's qpos layout) */
static double joint_diff(const mjModel* mm, const double* a, const double* b) {
  double e = 0;
  for (int j = 0; j < mm->njnt; j++) {
    const int qa = mm->jnt_qposadr[j];
    switch (mm->jnt_type[j]) {
      case mjJNT_FREE:
        for (int k = 0; k < 3; k++) e = fmax(e, fabs(a[qa + k] - b[qa + k]));
        e = fmax(e, quat_angle(a + qa + 3, b + qa + 3));
        break;
      case mjJNT_BALL: e = fmax(e, quat_angle(a + qa, b + qa)); break;
      default: e = fmax(e, fabs(a[qa] - b[qa]));
    }
  }
  return e;
}

static int trajectory(const char* path, int allowed, pair* p, double* err, double* est) {
  mjModel* mm = p->mm;
  mjData* md = p->md;
  const int nq = mm->nq, nv = mm->nv;
  double* qvel = malloc(sizeof(double) * (size_t)(nv + 1));
  double* q1 = malloc(sizeof(double) * (size_t)(nq + 1));
  double* q2 = malloc(sizeof(double) * (size_t)(nq + 1));
  int ok = qvel && q1 && q2;
  rng_state = 1;
  for (int i = 0; ok && i < nv; i++) qvel[i] = 2 * urand() - 1;
  /* MuJoCo: RK4 at h/2, the same forces only */
  mm->opt.integrator = mjINT_RK4;
  mm->opt.timestep = TRAJ_H / 2;
  mm->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_FRICTIONLOSS |
                          mjDSBL_ACTUATION | mjDSBL_EQUALITY;
  for (int k = 0; k < mm->ntendon; k++) mm->tendon_stiffness[k] = mm->tendon_damping[k] = 0;
  if (ok) {
    mj_resetData(mm, md);
    mju_copy(md->qvel, qvel, nv);
    const long nstep = lround(TRAJ_T / (TRAJ_H / 2));
    for (long k = 0; k < nstep; k++) mj_step(mm, md);
    for (int i = 0; i < nq; i++) ok &= isfinite(md->qpos[i]);
    if (!ok) note("MuJoCo's contact-free run is not finite\n");
  }
  ok = ok && simc_traj(path, allowed, p->sm, mm, qvel, TRAJ_H, q1) &&
       simc_traj(path, allowed, p->sm, mm, qvel, TRAJ_H / 2, q2);
  if (ok) {
    *err = joint_diff(mm, q2, md->qpos);
    *est = joint_diff(mm, q1, q2) / 3;
  }
  free(qvel);
  free(q1);
  free(q2);
  return ok;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: model_compare FILE.xml\n");
    return 2;
  }
  const char* path = argv[1];
  const double t0 = now();
  mju_user_warning = quiet_warning;
  printf("file=%s", path);
  pair p;
  memset(&p, 0, sizeof p);
  char err[1000] = "";
  p.mm = mj_loadXML(path, NULL, err, sizeof err);
  if (!p.mm) {
    field("mujoco", "fail");
    field("mj_error", err);
  } else {
    field("mujoco", "ok");
    p.md = mj_makeData(p.mm);
  }
  char msg[1200] = "";
  int allowed = 0;
  p.sm = simc_load(path, NULL, 0, &allowed, msg, sizeof msg);
  if (!p.sm) {
    field("simc", "fail");
    field("simc_error", msg);
  } else {
    field("simc", allowed ? "allow" : "ok");
    if (p.sm->ignored) field("ignored", p.sm->ignored);
  }
  if (p.mm && p.md && p.sm) {
    double ms = 0;
    for (int b = 1; b < p.sm->nbody; b++) ms += p.sm->body_mass[b];
    const double mj = mj_getTotalmass(p.mm);
    printf("\tmass=%.3g", ms == mj ? 0.0 : fabs(ms - mj) / mj);
    sc_error e;
    if (sc_data_create(p.sm, &p.sd, &e) != SC_OK) {
      sc_error_format(&e, msg, sizeof msg);
      note("sc_data_create: %s\n", msg);
    }
    why[0] = 0;
    if (p.sd && map_bodies(&p)) {
      field("map", "ok");
      printf("\tnbody=%d\tnv=%d", p.mm->nbody - 1, p.mm->nv);
      why[0] = 0;
      printf("\tbody=%.3g", body_error(&p));
      if (why[0]) field("body_note", why);
      dyn_err de;
      if (dynamics(&p, &de)) printf("\tpose0=%.3g\tM=%.3g\tbias=%.3g", de.pose0, de.M, de.bias);
      double te = 0, est = 0;
      why[0] = 0;
      if (trajectory(path, allowed, &p, &te, &est)) {
        printf("\ttraj=%.3g\ttraj_est=%.3g\ttraj_ok=%d", te, est,
               te <= TOL_TRAJ || te <= 2 * est);
      } else {
        field("traj_error", why[0] ? why : "failed");
      }
    } else {
      field("map", "fail");
      field("map_error", why[0] ? why : "no body map");
    }
  }
  printf("\ttime=%.2f\n", now() - t0);
  if (p.md) mj_deleteData(p.md);
  if (p.mm) mj_deleteModel(p.mm);
  sc_data_free(p.sd);
  sc_model_free(p.sm);
  free(p.body);
  return 0;
}
