/* MJCF models (src/scene/mjcf.c) against MuJoCo 2.2.2 itself on the same
 * files (Debian libmujoco-dev and libmujoco-samples):
 *   1. every body's mass, centre of mass and inertia tensor against the
 *      compiled mjModel (1e-12 relative: of the mass; of the larger of the
 *      coordinate and the body's largest radius of gyration; of its largest
 *      principal moment);
 *   2. at 20 random configurations and velocities: world poses of the bodies
 *      (1e-12 m and 1e-12 in each rotation-matrix entry), the joint-space
 *      mass matrix (entry ij relative to sqrt(M_ii M_jj)), the bias forces
 *      and the passive forces (each entry relative to the largest of its
 *      kinematic tree), all to 1e-10;
 *   3. the humanoid with its torso welded to the world, unactuated, without
 *      contact and joint limits, for 1 s: simc's midpoint scheme against
 *      MuJoCo's RK4 at dt = 0.1 ms (1e-6 rad).
 *   4. contact filtering (test/mjcf/filter.xml): the body pairs in contact
 *      after mj_forward and after sc_forward are the same set.
 *   5. equality constraints (test/mjcf/eq_*.xml: connect, weld with and
 *      without relpose, joint): simc's near-rigid rows against MuJoCo's
 *      soft ones at their stiffest (time constant 2 dt, impedance 0.9999,
 *      RK4), dt = 0.1 ms, 1 s without contact: the joints' trajectories,
 *      simc's violation and MuJoCo's relations (its eq_data) evaluated on
 *      simc's state (2e-4 rad and 1e-5 at most; each test states its
 *      measure);
 *   6. the schema (src/scene/mjcf_schema.c): every element and attribute of
 *      MuJoCo 2.2.2's schema is classified; on each element simc translates,
 *      an attribute outside the schema is refused at its line (as MuJoCo
 *      does), one reported when present is refused naming it, and one with
 *      no effect leaves the translation unchanged.
 *
 * The translation's contract: a MuJoCo body B is the simc body of the same
 * name (frame, mass, com, inertia about the com in B's frame); B's joints
 * j1..jk become a chain of massless simc bodies, one per joint (named after
 * the joint, else "<B>_joint<i>"), and B is fixed to the last.  q has
 * qpos's layout.  v has qvel's order, but a free joint's angular velocity
 * is in the world frame in simc (MuJoCo: the body frame) and a ball joint's
 * in the parent frame (MuJoCo: the child frame): v_simc = T(q) v_mj with T
 * block diagonal (3 x 3 rotation blocks on those dofs, identity elsewhere),
 * so M_mj = T^T M_simc T and f_mj = T^T f_simc.  The bias forces map alike
 * because dT/dt v_mj = R [w]x w = 0 on each rotated block. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mujoco/mujoco.h>

#include "constraint/equality.h"
#include "dynamics/dynamics.h"
#include "harness.h"
#include "integrator/integrator.h"
#include "mj_compare.h"
#include "scene/scene.h"
#include "scene/scene_internal.h"

#define MJ_MODELS "/usr/share/mujoco/model/"
static const char* const SWIMMER = "/usr/share/doc/dart/data/mjcf/openai/swimmer.xml";
static const char* const HUMANOID = MJ_MODELS "humanoid/humanoid.xml";
static const char* const HUMANOID22 = MJ_MODELS "humanoid/22_humanoids.xml";
static const char* const HUMANOID100 = MJ_MODELS "humanoid100/humanoid100.xml";

static const double TOL_INERTIA = 1e-12; /* check 1, relative */
static const double TOL_POSE = 1e-12;    /* check 2: m and rotation-matrix entries */
static const double TOL_DYN = 1e-10;     /* check 2: M, bias, passive, relative */
static const double TOL_TRAJ = 1e-6;     /* check 3, rad */
static const int NCONFIG = 20;

/* ---- helpers ---- */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int missing(const char* path) {
  if (access(path, R_OK) == 0) return 0;
  printf("  skipped: %s is missing (Debian package libmujoco-samples)\n", path);
  return 1;
}

static mjModel* mj_open(const char* path) {
  char err[1000] = "";
  mjModel* m = mj_loadXML(path, NULL, err, sizeof err);
  if (!m) printf("  MuJoCo cannot load %s: %s\n", path, err);
  return m;
}

/* simc's model of path.  The loader refuses what it does not translate
 * unless import.allow_unsupported=true is set (a muscle, say, which none of
 * the compared quantities would depend on).  So a refusal is printed, and the
 * model loaded with the set. */
static sc_model* simc_open(const char* path, const char* const* sets, int nsets) {
  sc_model* m = NULL;
  sc_error err;
  char buf[1200];
  if (sc_scene_load(path, sets, nsets, &m, &err) == SC_OK) return m;
  sc_error_format(&err, buf, sizeof buf);
  if (!strstr(buf, "allow-unsupported")) {
    printf("  simc cannot load %s: %s\n", path, buf);
    return NULL;
  }
  printf("  simc: %s\n  (loaded with import.allow_unsupported=true)\n", buf);
  const char** all = malloc(sizeof(char*) * (size_t)(nsets + 1));
  if (!all) return NULL;
  all[0] = "import.allow_unsupported=true";
  for (int k = 0; k < nsets; k++) all[k + 1] = sets[k];
  const sc_status st = sc_scene_load(path, all, nsets + 1, &m, &err);
  free(all);
  if (st != SC_OK) {
    sc_error_format(&err, buf, sizeof buf);
    printf("  simc cannot load %s: %s\n", path, buf);
    return NULL;
  }
  return m;
}


/* ---- the two models of one file ---- */

typedef struct pair {
  mjModel* mm;
  mjData* md;
  sc_model* sm;
  sc_data* sd;
  int* body; /* (mm->nbody) the simc body of each MuJoCo body */
} pair;

static void pair_close(pair* p) {
  if (p->md) mj_deleteData(p->md);
  if (p->mm) mj_deleteModel(p->mm);
  sc_data_free(p->sd);
  sc_model_free(p->sm);
  free(p->body);
  memset(p, 0, sizeof *p);
}

/* The simc body of every MuJoCo body: by name; an unnamed MuJoCo body by its
 * place among the simc bodies on fixed joints (the bodies MuJoCo's become,
 * in the same order), checked against the named ones.  Then the structure:
 * each body on a fixed joint below the chain of its joints (massless, named
 * after the joints, same types, qpos and dof addresses) down from its
 * parent's body (a joint named like a body: "<joint>:joint").  Returns 0
 * (printing why) when it does not hold. */
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
        printf("  MuJoCo body %d \"%s\" has no simc body of that name\n", b, name);
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
      printf("  %d unnamed MuJoCo bodies: simc's bodies on fixed joints (%d for MuJoCo's %d) "
             "are not in MuJoCo's order, so they cannot be matched\n",
             unnamed, nfix, mm->nbody - 1);
      ok = 0;
    } else {
      for (int b = 1; b < mm->nbody; b++)
        if (p->body[b] < 0) p->body[b] = fix[b - 1];
      printf("  %d unnamed MuJoCo bodies matched by order (e.g. body %d is simc's \"%s\")\n",
             unnamed, mm->nbody - 1, s->body_name[p->body[mm->nbody - 1]]);
    }
  }
  free(fix);
  if (!ok) return 0;

  if (s->nq != mm->nq || s->nv != mm->nv) {
    printf("  nq, nv: simc %d, %d; MuJoCo %d, %d\n", s->nq, s->nv, mm->nq, mm->nv);
    ok = 0;
  }
  int bad = 0;
  for (int b = 1; b < mm->nbody; b++) {
    const int sb = p->body[b];
    const char* bname = mj_id2name(mm, mjOBJ_BODY, b);
    if (s->jnt_type[s->body_jnt[sb]] != SC_JOINT_FIXED) {
      if (bad++ < 10)
        printf("  body %s: on a %s joint in simc, not a fixed one\n", s->body_name[sb],
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
      /* a joint named like a body: its link is "<joint>:joint" */
      if (mj_name2id(mm, mjOBJ_BODY, want) >= 0) strncat(want, ":joint", sizeof want - strlen(want) - 1);
      const int sj = a > 0 ? s->body_jnt[a] : -1;
      if (a <= 0 || strcmp(s->body_name[a], want) != 0 ||
          s->jnt_type[sj] != simc_type_of(mm->jnt_type[j]) ||
          s->jnt_qadr[sj] != mm->jnt_qposadr[j] || s->jnt_vadr[sj] != mm->jnt_dofadr[j] ||
          s->body_mass[a] != 0.0) {
        if (bad++ < 10) {
          if (a <= 0)
            printf("  body %s: joint %d (%s) has no chain body\n", s->body_name[sb], j, want);
          else
            printf("  body %s: MuJoCo joint %d \"%s\" (%s, qposadr %d, dofadr %d) vs simc body "
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
      printf("  body %s: the chain of its %d joints starts at simc body %d \"%s\", not at its "
             "parent's \"%s\"\n",
             s->body_name[sb], mm->body_jntnum[b], a, a >= 0 ? s->body_name[a] : "-",
             s->body_name[p->body[mm->body_parentid[b]]]);
  }
  if (bad) {
    printf("  %d mismatches of the body/joint structure\n", bad);
    ok = 0;
  }
  for (int i = 0; ok && i < mm->nq; i++)
    if (fabs(s->qpos0[i] - mm->qpos0[i]) > 1e-12) {
      printf("  qpos0[%d]: simc %.17g, MuJoCo %.17g\n", i, s->qpos0[i], mm->qpos0[i]);
      ok = 0;
    }
  return ok;
}

/* MuJoCo's model of path, simc's (with sets), and the body map; 0 on
 * failure (printed) */
/* MuJoCo loads mj_path, simc sc_path (the same model, or the same arm as
 * a URDF) */
static int pair_open2(pair* p, const char* mj_path, const char* sc_path, const char* const* sets,
                      int nsets) {
  memset(p, 0, sizeof *p);
  p->mm = mj_open(mj_path);
  if (!p->mm) return 0;
  p->md = mj_makeData(p->mm);
  p->sm = simc_open(sc_path, sets, nsets);
  if (!p->sm || !p->md) return 0;
  sc_error err;
  if (sc_data_create(p->sm, &p->sd, &err) != SC_OK) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    printf("  sc_data_create: %s\n", buf);
    return 0;
  }
  return map_bodies(p);
}

static int pair_open(pair* p, const char* path, const char* const* sets, int nsets) {
  return pair_open2(p, path, path, sets, nsets);
}

/* the pair of path with simc at step dt, prepared and forwarded to its
 * start; 0 (the pair closed, the failure counted) when either cannot */
static int pair_start(pair* p, const char* path, double dt) {
  char set[64];
  snprintf(set, sizeof set, "time.step=%.17g", dt);
  const char* sets[] = {set};
  const int opened = pair_open(p, path, sets, 1);
  ENSURE(opened);
  sc_error err;
  const int started = opened && sc_sim_prepare(p->sm, p->sd, &err) == SC_OK &&
                      sc_forward(p->sm, p->sd, &err) == SC_OK;
  ENSURE(started);
  if (!started) pair_close(p);
  return started;
}


/* ---- check 1: mass properties ---- */

static void inertia_check_tol(const char* path, const char* sc_path, double tol) {
  if (missing(path)) return;
  const double t0 = now();
  pair p;
  const int opened = pair_open2(&p, path, sc_path, NULL, 0);
  ENSURE(opened);
  if (!opened) {
    pair_close(&p);
    return;
  }
  const mjModel* mm = p.mm;
  const sc_model* s = p.sm;
  double emass = 0, ecom = 0, einert = 0;
  int nbad = 0;
  for (int b = 1; b < mm->nbody; b++) {
    const int sb = p.body[b];
    const double mass = mm->body_mass[b];
    const double* pm = mm->body_inertia + 3 * b;
    const double imax = fmax(pm[0], fmax(pm[1], pm[2]));
    /* the body's length scale: its largest radius of gyration */
    const double len = mass > 0 && imax > 0 ? sqrt(imax / mass) : 1.0;
    double R[9], I[9];
    mju_quat2Mat(R, mm->body_iquat + 4 * b);
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        I[3 * r + c] = R[3 * r] * pm[0] * R[3 * c] + R[3 * r + 1] * pm[1] * R[3 * c + 1] +
                       R[3 * r + 2] * pm[2] * R[3 * c + 2];
    const double em = fabs(s->body_mass[sb] - mass) / fmax(mass, 1e-300);
    double ec = 0, ei = 0;
    for (int k = 0; k < 3; k++) {
      const double c = mm->body_ipos[3 * b + k];
      ec = fmax(ec, fabs(s->body_com[3 * sb + k] - c) / fmax(fabs(c), len));
    }
    for (int k = 0; k < 9; k++)
      ei = fmax(ei, fabs(s->body_inertia[9 * sb + k] - I[k]) / fmax(imax, 1e-300));
    if ((em > tol || ec > tol || ei > tol) && nbad++ < 8) {
      printf("  body %s: mass %.17g vs %.17g, com [%.17g %.17g %.17g] vs [%.17g %.17g %.17g]\n",
             s->body_name[sb], s->body_mass[sb], mass, s->body_com[3 * sb],
             s->body_com[3 * sb + 1], s->body_com[3 * sb + 2], mm->body_ipos[3 * b],
             mm->body_ipos[3 * b + 1], mm->body_ipos[3 * b + 2]);
      printf("    inertia simc [%.17g %.17g %.17g; %.17g %.17g %.17g; %.17g %.17g %.17g]\n",
             s->body_inertia[9 * sb], s->body_inertia[9 * sb + 1], s->body_inertia[9 * sb + 2],
             s->body_inertia[9 * sb + 3], s->body_inertia[9 * sb + 4],
             s->body_inertia[9 * sb + 5], s->body_inertia[9 * sb + 6],
             s->body_inertia[9 * sb + 7], s->body_inertia[9 * sb + 8]);
      printf("    inertia MuJoCo [%.17g %.17g %.17g; %.17g %.17g %.17g; %.17g %.17g %.17g]\n",
             I[0], I[1], I[2], I[3], I[4], I[5], I[6], I[7], I[8]);
    }
    emass = fmax(emass, em);
    ecom = fmax(ecom, ec);
    einert = fmax(einert, ei);
  }
  printf("  %s: %d bodies (simc %d), max relative error: mass %.3g, com %.3g, inertia %.3g "
         "(tolerance %g); %.2f s\n",
         path, mm->nbody - 1, s->nbody - 1, emass, ecom, einert, tol, now() - t0);
  ENSURE(emass <= tol);
  ENSURE(ecom <= tol);
  ENSURE(einert <= tol);
  pair_close(&p);
}

/* ---- check 2: kinematics and dynamics at random states ---- */


/* max over i of |a_i - b_i| / (the largest |b| of i's kinematic tree) */
static double tree_rel_err(const mjModel* mm, const double* a, const double* b, double* scale) {
  for (int r = 0; r < mm->nbody; r++) scale[r] = 0;
  for (int i = 0; i < mm->nv; i++) {
    const int r = mm->body_rootid[mm->dof_bodyid[i]];
    scale[r] = fmax(scale[r], fabs(b[i]));
  }
  double e = 0;
  for (int i = 0; i < mm->nv; i++) {
    const int r = mm->body_rootid[mm->dof_bodyid[i]];
    const double d = fabs(a[i] - b[i]);
    if (d > 0) e = fmax(e, scale[r] > 0 ? d / scale[r] : (double)INFINITY);
  }
  return e;
}

static void dynamics_check2(const char* path, const char* sc_path) {
  if (missing(path)) return;
  const double t0 = now();
  pair p;
  const int opened = pair_open2(&p, path, sc_path, NULL, 0);
  if (!opened && p.mm && p.md) {
    /* MuJoCo's side alone, so that its half of the harness runs */
    printf("  MuJoCo: %s: nbody %d, njnt %d, nq %d, nv %d\n", path, p.mm->nbody, p.mm->njnt,
           p.mm->nq, p.mm->nv);
  }
  ENSURE(opened);
  mjModel* mm = p.mm;
  mjData* md = p.md;
  if (!mm || !md) {
    pair_close(&p);
    return;
  }
  mm->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_LIMIT;
  const int nv = mm->nv;
  const size_t nv2 = (size_t)nv * (size_t)nv;
  double* Mmj = malloc(sizeof(double) * nv2);
  double* Ms = malloc(sizeof(double) * nv2);
  double* work = malloc(sizeof(double) * (size_t)(7 * nv + mm->nq + mm->nbody));
  tmap t = {0, malloc(sizeof(int) * (size_t)(mm->njnt + 1)),
            malloc(sizeof(double) * 9 * (size_t)(mm->njnt + 1))};
  if (!Mmj || !Ms || !work || !t.adr || !t.R) {
    ENSURE(0);
    goto done;
  }
  double* vs = work;        /* simc v */
  double* tau = vs + nv;    /* simc bias */
  double* fb = tau + nv;    /* T^T of it */
  double* fp = fb + nv;     /* T^T of simc's passive */
  double* tmp = fp + nv;
  double* scale = tmp + 2 * nv;
  double* qs = scale + mm->nbody; /* simc's q and its passive forces (mj_compare.h) */
  double* fsp = qs + mm->nq;
  double epos = 0, erot = 0, eM = 0, ebias = 0, epass = 0, ew = 0;
  rng_state = 20220922u;
  for (int n = 0; n < NCONFIG; n++) {
    random_state(mm, md->qpos, md->qvel);
    mj_kinematics(mm, md);
    mj_comPos(mm, md);
    mj_crb(mm, md);
    mj_fullM(mm, Mmj, md->qM);
    mj_comVel(mm, md);
    mj_passive(mm, md);
    mj_rne(mm, md, 0, md->qfrc_bias);
    tmap_build(mm, md->qpos, &t);
    tmap_apply(&t, nv, md->qvel, vs);
    /* the map's free-joint blocks against MuJoCo's own world angular
     * velocity of those bodies (cvel: rotation first, world axes) */
    for (int j = 0; j < mm->njnt; j++)
      if (mm->jnt_type[j] == mjJNT_FREE) {
        const int b = mm->jnt_bodyid[j], a = mm->jnt_dofadr[j] + 3;
        for (int k = 0; k < 3; k++) ew = fmax(ew, fabs(md->cvel[6 * b + k] - vs[a + k]));
      }
    if (!opened) continue;

    const sc_model* s = p.sm;
    sc_data* sd = p.sd;
    memcpy(qs, md->qpos, sizeof(double) * (size_t)mm->nq);
    sc_state_frame_to_com(s, qs, vs);
    sc_dyn_kinematics(s, sd, qs);
    sc_dyn_velocity(s, sd, qs, vs);
    sc_dyn_crba(s, sd);
    sc_dyn_rne(s, sd, NULL, tau);
    sc_dyn_springs(s, sd, qs, vs, NULL, NULL);
    for (int b = 1; b < mm->nbody; b++) {
      const int sb = p.body[b];
      for (int k = 0; k < 3; k++)
        epos = fmax(epos, fabs(sd->xpos[3 * sb + k] - md->xpos[3 * b + k]));
      for (int k = 0; k < 9; k++)
        erot = fmax(erot, fabs(sd->xrot[9 * sb + k] - md->xmat[9 * b + k]));
    }
    simc_dense(s, sd->M, Ms);
    com_bias(s, qs, vs, Ms, nv, tau);
    memcpy(fsp, sd->fspring, sizeof(double) * (size_t)nv);
    com_force(s, qs, fsp);
    com_congruence(s, qs, nv, Ms);
    tmap_congruence(&t, nv, Ms);
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < nv; j++) {
        const size_t ij = (size_t)i * (size_t)nv + (size_t)j;
        const double sc = sqrt(Mmj[(size_t)i * (size_t)nv + (size_t)i] *
                               Mmj[(size_t)j * (size_t)nv + (size_t)j]);
        eM = fmax(eM, fabs(Ms[ij] - Mmj[ij]) / sc);
      }
    tmap_apply_t(&t, nv, tau, fb);
    tmap_apply_t(&t, nv, fsp, fp);
    ebias = fmax(ebias, tree_rel_err(mm, fb, md->qfrc_bias, scale));
    epass = fmax(epass, tree_rel_err(mm, fp, md->qfrc_passive, scale));
    if (n == 0) { /* the largest entries of the first state, for the log */
      int ib = 0, ip = 0;
      for (int k = 0; k < nv; k++) {
        if (fabs(md->qfrc_bias[k]) > fabs(md->qfrc_bias[ib])) ib = k;
        if (fabs(md->qfrc_passive[k]) > fabs(md->qfrc_passive[ip])) ip = k;
      }
      printf("  state 0: bias[%d] simc %.17g MuJoCo %.17g; passive[%d] simc %.17g MuJoCo %.17g\n",
             ib, fb[ib], md->qfrc_bias[ib], ip, fp[ip], md->qfrc_passive[ip]);
    }
  }
  printf("  %s: nv %d, %d states: free joints' world angular velocity from T vs MuJoCo's "
         "cvel %.3g\n",
         path, nv, NCONFIG, ew);
  ENSURE(ew <= 1e-14);
  if (opened) {
    printf("  max error: body position %.3g m, rotation %.3g (tolerance %g); M %.3g, bias "
           "%.3g, passive %.3g relative (tolerance %g); %.2f s\n",
           epos, erot, TOL_POSE, eM, ebias, epass, TOL_DYN, now() - t0);
    ENSURE(epos <= TOL_POSE);
    ENSURE(erot <= TOL_POSE);
    ENSURE(eM <= TOL_DYN);
    ENSURE(ebias <= TOL_DYN);
    ENSURE(epass <= TOL_DYN);
  }
done:
  free(Mmj);
  free(Ms);
  free(work);
  free(t.adr);
  free(t.R);
  pair_close(&p);
}

/* ---- check 3: smooth motion ---- */

/* path's text without its <freejoint .../> elements, into a new file under
 * a new temporary directory (both removed by the caller); 0 on failure */
static int write_welded(const char* path, char* dir, size_t dirsz, char* out, size_t outsz) {
  FILE* f = fopen(path, "rb");
  if (!f) return 0;
  char* text = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len + 4096 + 1 > cap) {
      cap = 2 * cap + 8192;
      char* nt = realloc(text, cap);
      if (!nt) break;
      text = nt;
    }
    const size_t r = fread(text + len, 1, 4096, f);
    len += r;
    if (r == 0) break;
  }
  fclose(f);
  if (!text) return 0;
  text[len] = 0;
  int removed = 0;
  for (char* a = strstr(text, "<freejoint"); a; a = strstr(a, "<freejoint")) {
    char* e = strstr(a, "/>");
    if (!e) break;
    memmove(a, e + 2, strlen(e + 2) + 1);
    removed++;
  }
  snprintf(dir, dirsz, "%s", "/tmp/simc_mjcf_XXXXXX");
  int ok = removed > 0 && mkdtemp(dir) != NULL;
  if (ok) {
    snprintf(out, outsz, "%s/humanoid_welded.xml", dir);
    FILE* g = fopen(out, "wb");
    ok = g && fwrite(text, 1, strlen(text), g) == strlen(text);
    if (g && fclose(g) != 0) ok = 0;
  }
  free(text);
  return ok;
}

static void trajectory_check(void) {
  if (missing(HUMANOID)) return;
  const double t0 = now();
  char dir[64], file[128];
  const int written = write_welded(HUMANOID, dir, sizeof dir, file, sizeof file);
  ENSURE(written);
  if (!written) return;
  const double dt = 1e-4, T = 1.0;
  /* simc's options, and contact and limits off: every body's geometry and
   * the static shapes removed (the mass properties are the translation's
   * numbers, not the shapes'), every joint's limits opened */
  const char* base[] = {"integrator.scheme=midpoint", "time.step=0.0001", "time.duration=1"};
  const int nbase = (int)(sizeof base / sizeof base[0]);
  mjModel* m0 = mj_open(file);
  const int cap = nbase + 1 + (m0 ? m0->nbody + m0->njnt : 0);
  char** sets = calloc((size_t)cap, sizeof(char*));
  int nsets = 0;
  for (int k = 0; sets && k < nbase; k++) sets[nsets++] = strdup(base[k]);
  for (int b = 0; sets && m0 && b < m0->nbody; b++) {
    const char* name = mj_id2name(m0, mjOBJ_BODY, b);
    if (!m0->body_geomnum[b]) continue;
    char set[600];
    if (b == 0) snprintf(set, sizeof set, "static=[]");
    else snprintf(set, sizeof set, "bodies.%s.geometry=[]", name ? name : "");
    sets[nsets++] = strdup(set);
  }
  for (int j = 0; sets && m0 && j < m0->njnt; j++) {
    if (!m0->jnt_limited[j]) continue;
    const char* name = mj_id2name(m0, mjOBJ_JOINT, j);
    char set[600];
    snprintf(set, sizeof set, "bodies.%s.joint.limits=[null, null]", name ? name : "");
    sets[nsets++] = strdup(set);
  }
  if (m0) mj_deleteModel(m0);
  pair p = {NULL, NULL, NULL, NULL, NULL};
  const int opened = sets && pair_open(&p, file, (const char* const*)sets, nsets);
  ENSURE(opened);
  for (int k = 0; sets && k < nsets; k++) free(sets[k]);
  free(sets);
  if (opened) {
    printf("  simc without contact and limits: %d geometries, limits %d\n", p.sm->ngeom,
           p.sm->any_limit);
    ENSURE(p.sm->ngeom == 0 && !p.sm->any_limit);
  }
  mjModel* mm = p.mm;
  mjData* md = p.md;
  if (mm && md) {
    mm->opt.integrator = mjINT_RK4;
    mm->opt.timestep = dt;
    mm->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_LIMIT;
    mj_resetData(mm, md);
    for (int i = 0; i < mm->nu; i++) md->ctrl[i] = 0;
    mj_forward(mm, md);
  }
  sc_error err;
  const int started = opened && sc_sim_prepare(p.sm, p.sd, &err) == SC_OK &&
                      sc_forward(p.sm, p.sd, &err) == SC_OK;
  if (opened) ENSURE(started);
  const long nstep = lround(T / dt);
  double* emax = calloc((size_t)(mm ? mm->nq : 1), sizeof(double));
  double* qf = calloc((size_t)(mm ? mm->nq : 1), sizeof(double)); /* simc's q, frame origins */
  double e = 0, qmax = 0;
  long k = 0;
  for (; mm && md && emax && qf && k < nstep; k++) {
    mj_step(mm, md);
    for (int i = 0; i < mm->nq; i++) qmax = fmax(qmax, fabs(md->qpos[i]));
    if (!started) continue;
    if (sc_step(p.sm, p.sd, &err) != SC_OK) {
      char buf[1200];
      sc_error_format(&err, buf, sizeof buf);
      printf("  simc step %ld: %s\n", k, buf);
      ENSURE(0);
      break;
    }
    memcpy(qf, p.sd->q, sizeof(double) * (size_t)mm->nq);
    sc_state_com_to_frame(p.sm, qf, NULL);
    for (int i = 0; i < mm->nq; i++) {
      emax[i] = fmax(emax[i], fabs(qf[i] - md->qpos[i]));
      e = fmax(e, emax[i]);
    }
  }
  if (mm && md) {
    printf("  %s welded: MuJoCo RK4, %ld steps of %g s: largest |q| %.3g rad, final q:", file, k,
           dt, qmax);
    for (int i = 0; i < mm->nq; i++) printf(" %.4g", md->qpos[i]);
    printf("\n");
  }
  if (started && emax) {
    int worst = 0;
    for (int i = 0; i < mm->nq; i++)
      if (emax[i] > emax[worst]) worst = i;
    const char* wname = "?";
    for (int j = 0; j < mm->njnt; j++)
      if (mm->jnt_qposadr[j] <= worst) wname = mj_id2name(mm, mjOBJ_JOINT, j);
    printf("  simc midpoint vs MuJoCo RK4 over %g s: max |q_simc - q_mj| %.3g rad (joint %s; "
           "tolerance %g); %.2f s\n",
           T, e, wname, TOL_TRAJ, now() - t0);
    ENSURE(e <= TOL_TRAJ);
  }
  free(emax);
  free(qf);
  pair_close(&p);
  remove(file);
  rmdir(dir);
}

static void inertia_check2(const char* path, const char* sc_path) {
  inertia_check_tol(path, sc_path, TOL_INERTIA);
}
static void inertia_check(const char* path) { inertia_check2(path, path); }
static void dynamics_check(const char* path) { dynamics_check2(path, path); }

/* the same three-joint arm written as a URDF (simc) and as MJCF (MuJoCo):
 * URDF's frames, rpy, inertial frames, axes, revolute and prismatic joints
 * and damping against MuJoCo's reading of the MJCF */
static void test_inertia_urdf_arm(void) { inertia_check2("test/mjcf/arm3.xml", "test/mjcf/arm3.urdf"); }
static void test_dynamics_urdf_arm(void) { dynamics_check2("test/mjcf/arm3.xml", "test/mjcf/arm3.urdf"); }

/* ---- check 4: contact filtering ---- */

/* the body pairs (simc's bodies, a < b) in touch: one flag per pair */
static void touch(int nbody, unsigned char* set, int a, int b) {
  if (a > b) {
    const int t = a;
    a = b;
    b = t;
  }
  set[(size_t)a * (size_t)nbody + (size_t)b] = 1;
}

/* test/mjcf/filter.xml: every two of its geoms overlap, and contype /
 * conaffinity (direct, by class, nested class and childclass), two
 * <exclude>s (one with the world) and a parent-child pair decide which
 * touch.  The body pairs in contact in MuJoCo's mj_forward and in simc's
 * sc_forward must be the same set (and the translation needs no
 * --allow-unsupported). */
static void test_contact_filter(void) {
  const char* path = "test/mjcf/filter.xml";
  sc_model* plain = NULL;
  sc_error err;
  const int loads = sc_scene_load(path, NULL, 0, &plain, &err) == SC_OK;
  if (!loads) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    printf("  simc refuses %s without --allow-unsupported: %s\n", path, buf);
  }
  ENSURE(loads);
  sc_model_free(plain);
  pair p;
  const int opened = pair_open(&p, path, NULL, 0);
  ENSURE(opened);
  if (!opened) {
    pair_close(&p);
    return;
  }
  const mjModel* mm = p.mm;
  mjData* md = p.md;
  const int nb = p.sm->nbody;
  unsigned char* mj = calloc((size_t)nb * (size_t)nb, 1);
  unsigned char* sc = calloc((size_t)nb * (size_t)nb, 1);
  mj_forward(mm, md);
  const int started = sc_sim_prepare(p.sm, p.sd, &err) == SC_OK && sc_forward(p.sm, p.sd, &err) == SC_OK;
  if (!started) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    printf("  simc: %s\n", buf);
  }
  ENSURE(started);
  ENSURE(mj && sc);
  if (mj && sc && started) {
    for (int i = 0; i < md->ncon; i++)
      touch(nb, mj, p.body[mm->geom_bodyid[md->contact[i].geom1]],
            p.body[mm->geom_bodyid[md->contact[i].geom2]]);
    for (int i = 0; i < p.sd->ncon; i++) touch(nb, sc, p.sd->contact[i].body[0], p.sd->contact[i].body[1]);
    int nmj = 0, nsc = 0, diff = 0;
    printf("  body pairs in contact (MuJoCo %d contacts, simc %d):", md->ncon, p.sd->ncon);
    for (int a = 0; a < nb; a++)
      for (int b = a + 1; b < nb; b++) {
        const size_t k = (size_t)a * (size_t)nb + (size_t)b;
        nmj += mj[k];
        nsc += sc[k];
        if (mj[k] || sc[k])
          printf(" %s-%s%s", p.sm->body_name[a], p.sm->body_name[b],
                 mj[k] && sc[k] ? "" : mj[k] ? " (MuJoCo only)" : " (simc only)");
        diff += mj[k] != sc[k];
      }
    printf("\n  MuJoCo %d pairs, simc %d, %d different (of %d geoms, every two overlapping)\n", nmj,
           nsc, diff, mm->ngeom);
    ENSURE(diff == 0);
    /* the masks, the exclusions and the parent-child rule all remove
     * pairs here: most of the 28 body pairs do not touch */
    ENSURE(nmj == 7);
  }
  free(mj);
  free(sc);
  pair_close(&p);
}

static void test_inertia_humanoid(void) { inertia_check(HUMANOID); }
static void test_inertia_22_humanoids(void) { inertia_check(HUMANOID22); }
static void test_inertia_humanoid100(void) { inertia_check(HUMANOID100); }
/* a mesh geom's share of its body's inertia (test/mjcf/mesh_inertia.xml:
 * a convex mesh, scaled, rotated and offset, beside a box), against MuJoCo's
 * exact mesh inertia (exactmeshinertia="true"); MuJoCo keeps mesh vertices
 * in single precision (relative 6e-8), hence the tolerance 1e-6 */
/* compiler boundmass, boundinertia, balanceinertia, settotalmass
 * (test/mjcf/compiler_mass.xml): every body's mass properties as MuJoCo's,
 * check 1 (1e-12), and the total mass the one set */
static void test_compiler_mass(void) {
  inertia_check("test/mjcf/compiler_mass.xml");
  dynamics_check("test/mjcf/compiler_mass.xml");
  sc_model* m = simc_open("test/mjcf/compiler_mass.xml", NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  double total = 0;
  for (int b = 0; b < m->nbody; b++) total += m->body_mass[b];
  printf("  total mass %.17g (settotalmass 7.5)\n", total);
  ENSURE_CLOSE(total, 7.5, 1e-14, 0);
  sc_model_free(m);
}

/* gym's half_cheetah (DART's copy, gzipped): settotalmass="14" over bodies
 * whose joints are named like bodies (bthigh, ...): MuJoCo's masses and
 * inertias (check 1, 1e-12) and dynamics (check 2), 14 kg in all (21.18 kg
 * unscaled) */
static void test_half_cheetah_mass(void) {
  const char* gz = "/usr/share/doc/dart/data/mjcf/openai/half_cheetah.xml.gz";
  if (access(gz, R_OK) != 0) {
    printf("  skipped: %s is missing (Debian package dart-doc)\n", gz);
    return;
  }
  char path[64], cmd[256];
  snprintf(path, sizeof path, "/tmp/simc_half_cheetah_%ld.xml", (long)getpid());
  snprintf(cmd, sizeof cmd, "gzip -dc %s > %s", gz, path);
  ENSURE(system(cmd) == 0);
  inertia_check(path);
  dynamics_check(path);
  const char* allow = "import.allow_unsupported=true"; /* its geoms' solref/solimp */
  sc_model* m = simc_open(path, &allow, 1);
  unlink(path);
  ENSURE(m != NULL);
  if (!m) return;
  double total = 0;
  for (int b = 0; b < m->nbody; b++) total += m->body_mass[b];
  printf("  half_cheetah: total mass %.17g (settotalmass 14)\n", total);
  ENSURE_CLOSE(total, 14, 1e-14, 0);
  sc_model_free(m);
}

/* compiler coordinate="global" (gym's hopper, DART's copy; and
 * test/mjcf/global.xml: turned bodies, euler and axisangle frames, a
 * turned inertial, joint anchors and axes, fromto): the frames MuJoCo 2.2.2
 * compiles, through check 1 (mass properties, 1e-12) and check 2 (poses,
 * mass matrix, bias forces, 1e-12 and 1e-10) */
static void test_coordinate_global(void) {
  const char* hopper = "/usr/share/doc/dart/data/mjcf/openai/hopper.xml";
  if (access(hopper, R_OK) == 0) {
    inertia_check(hopper);
    dynamics_check(hopper);
  } else {
    printf("  skipped: %s is missing (Debian package dart-doc)\n", hopper);
  }
  inertia_check("test/mjcf/global.xml");
  dynamics_check("test/mjcf/global.xml");
}

/* joint springdamper (test/mjcf/springdamper.xml): each joint's stiffness
 * and damping as MuJoCo 2.2.2 sets them from its inertia at qpos0
 * (1e-12 relative), and the passive forces they give at random states
 * (check 2, 1e-10) */
static void test_springdamper(void) {
  const char* path = "test/mjcf/springdamper.xml";
  pair p;
  const int opened = pair_open(&p, path, NULL, 0);
  ENSURE(opened);
  if (opened) {
    double worst = 0;
    for (int j = 0; j < p.mm->njnt; j++) {
      const char* jn = mj_id2name(p.mm, mjOBJ_JOINT, j);
      if (p.mm->jnt_type[j] != mjJNT_HINGE && p.mm->jnt_type[j] != mjJNT_SLIDE) continue;
      char link[300]; /* the joint's simc body; "<joint>:joint" when a body has its name */
      snprintf(link, sizeof link, mj_name2id(p.mm, mjOBJ_BODY, jn) >= 0 ? "%s:joint" : "%s", jn);
      const int sb = find_body(p.sm, link), sj = p.sm->body_jnt[sb];
      const double k = p.mm->jnt_stiffness[j], b = p.mm->dof_damping[p.mm->jnt_dofadr[j]];
      double ks = 0;
      for (int i = 0; i < p.sm->njspring; i++)
        if (p.sm->jspring_jnt[i] == sj) ks = p.sm->jspring_k[i];
      const double bs = p.sm->jnt_damping[6 * sj];
      printf("  %s: stiffness %.17g (MuJoCo %.17g), damping %.17g (MuJoCo %.17g)\n", jn, ks, k, bs, b);
      worst = fmax(worst, fmax(fabs(ks - k) / k, fabs(bs - b) / b));
    }
    printf("  largest relative difference %.3g\n", worst);
    ENSURE(worst <= 1e-12);
  }
  pair_close(&p);
  dynamics_check(path);
}

/* a free joint's armature and damping (test/mjcf/free_joint.xml): the
 * mass matrix and passive forces, check 2 */
static void test_free_joint(void) { dynamics_check("test/mjcf/free_joint.xml"); }
/* the fluid's forces (<option density viscosity wind>, MuJoCo's inertia-box
 * model) in the passive forces, against qfrc_passive at random velocities */
static void test_fluid(void) { dynamics_check("test/mjcf/fluid_box.xml"); }
static void test_fluid_swimmer(void) { dynamics_check(SWIMMER); }

/* simc's q after T s of the swimmer without contact, limits and motors,
 * midpoint at step h, from qpos0 with velocities qvel (hinges and slides:
 * the same layout in both); 0 on failure */
static int swimmer_run(const double* qvel, double h, double T, double* q, int nq) {
  char step[64], dur[64];
  snprintf(step, sizeof step, "time.step=%.17g", h);
  snprintf(dur, sizeof dur, "time.duration=%.17g", T);
  const char* sets[] = {"integrator.scheme=midpoint", step, dur, "static=[]",
                        "bodies.torso.geometry=[]", "bodies.mid.geometry=[]",
                        "bodies.back.geometry=[]", "bodies.rot2.joint.limits=[null, null]",
                        "bodies.rot3.joint.limits=[null, null]", "actuators=[]"};
  pair p = {NULL, NULL, NULL, NULL, NULL};
  int ok = pair_open(&p, SWIMMER, sets, (int)(sizeof sets / sizeof sets[0]));
  ok = ok && p.sm->nq == nq && p.sm->nv == nq && p.sm->ngeom == 0 && !p.sm->any_limit &&
       p.sm->nact == 0 && p.sm->any_fluid;
  sc_error err;
  if (ok) {
    memcpy(p.sd->q, p.mm->qpos0, sizeof(double) * (size_t)nq);
    memcpy(p.sd->v, qvel, sizeof(double) * (size_t)nq);
    ok = sc_sim_prepare(p.sm, p.sd, &err) == SC_OK && sc_forward(p.sm, p.sd, &err) == SC_OK;
  }
  const long nstep = lround(T / h);
  for (long k = 0; ok && k < nstep; k++) ok = sc_step(p.sm, p.sd, &err) == SC_OK;
  if (ok) memcpy(q, p.sd->q, sizeof(double) * (size_t)nq);
  pair_close(&p);
  return ok;
}

/* The swimmer's contact-free motion in its medium (density 4000 kg/m^3,
 * viscosity 0.1 Pa s), as test/corpus/model_compare.c measures a model:
 * simc's midpoint at h and h/2 against MuJoCo's RK4 at h/2 over 0.1 s,
 * from velocities uniform in [-1, 1].  The difference must be simc's own
 * truncation error, estimated from its two runs (second order:
 * (q_h - q_h/2) / 3; RK4's is smaller by h^2): within 1.5 times it, and
 * that error below 1e-7 rad.  Without the fluid the two differ by 0.039
 * rad (the translation that dropped density and viscosity). */
static void test_fluid_swimmer_trajectory(void) {
  if (missing(SWIMMER)) return;
  const double T = 0.1, h = 2e-4;
  mjModel* mm = mj_open(SWIMMER);
  ENSURE(mm != NULL);
  if (!mm) return;
  mjData* md = mj_makeData(mm);
  const int nq = mm->nq;
  double qvel[8], q1[8], q2[8];
  ENSURE(nq == 5 && mm->nv == 5);
  rng_state = 1;
  for (int i = 0; i < nq; i++) qvel[i] = 2 * urand() - 1;
  mm->opt.integrator = mjINT_RK4;
  mm->opt.timestep = h / 2;
  mm->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_LIMIT | mjDSBL_ACTUATION;
  mj_resetData(mm, md);
  mju_copy(md->qvel, qvel, nq);
  const long nstep = lround(T / (h / 2));
  for (long k = 0; k < nstep; k++) mj_step(mm, md);
  const int ran = nq == 5 && swimmer_run(qvel, h, T, q1, nq) && swimmer_run(qvel, h / 2, T, q2, nq);
  ENSURE(ran);
  if (ran) {
    double err = 0, est = 0, moved = 0;
    for (int i = 0; i < nq; i++) {
      err = fmax(err, fabs(q2[i] - md->qpos[i]));
      est = fmax(est, fabs(q1[i] - q2[i]) / 3);
      moved = fmax(moved, fabs(md->qpos[i] - mm->qpos0[i]));
    }
    printf("  swimmer, 0.1 s: largest joint motion %.3g; simc midpoint (h/2 = %g s) vs MuJoCo RK4: "
           "%.3g (simc's own error estimate %.3g)\n",
           moved, h / 2, err, est);
    ENSURE(err <= 1.5 * est);
    ENSURE(est <= 1e-7);
  }
  mj_deleteData(md);
  mj_deleteModel(mm);
}

static void test_inertia_mesh(void) {
  inertia_check_tol("test/mjcf/mesh_inertia.xml", "test/mjcf/mesh_inertia.xml", 1e-6);
  inertia_check_tol("test/mjcf/mesh_class.xml", "test/mjcf/mesh_class.xml", 1e-6); /* scale from its class */
}
/* joints with ref (test/mjcf/ref.xml): the initial state is MuJoCo's qpos0
 * (ref on the hinge and slide joints) to 1e-15, and the poses, mass matrix,
 * bias and passive forces (springs about springref) at random states, in
 * MuJoCo's joint values, as for every model */
static void test_joint_ref(void) {
  const char* path = "test/mjcf/ref.xml";
  pair p;
  const int opened = pair_open(&p, path, NULL, 0);
  ENSURE(opened);
  if (!opened) {
    pair_close(&p);
    return;
  }
  double worst = 0;
  for (int i = 0; i < p.mm->nq; i++) worst = fmax(worst, fabs(p.sm->qpos0[i] - p.mm->qpos0[i]));
  printf("  initial q against MuJoCo's qpos0: largest difference %.3g (nq %d)\n", worst, p.mm->nq);
  ENSURE(p.sm->nq == p.mm->nq);
  ENSURE(worst <= 1e-15);
  pair_close(&p);
  dynamics_check(path);
}
static void test_dynamics_humanoid(void) { dynamics_check(HUMANOID); }

/* ---- check 5: equality constraints against MuJoCo ---- */

/* MuJoCo's equality rows are soft (solref 0.02 1 by default), simc's
 * near-rigid: to compare the motion the rigid constraint implies, MuJoCo
 * runs with each constraint's time constant at its floor, two steps
 * (refsafe), and impedance 0.9999, RK4 at dt; simc at the same dt with its
 * own scheme.  Over T: the largest |q_simc - q_mj| on the joints named in
 * cmp (NULL: all), the largest violation of each (simc's rows; MuJoCo's
 * efc_pos on its equality rows), each against its tolerance. */
#define SETTLE 0.01 /* s: a constraint violated at the start is held from here */
static void equality_check(const char* path, double dt, double T, const char* const* cmp, double tol_q,
                           double tol_sc) {
  pair p;
  if (!pair_start(&p, path, dt)) return;
  sc_error err;
  mjModel* mm = p.mm;
  mjData* md = p.md;
  mm->opt.integrator = mjINT_RK4;
  mm->opt.timestep = dt;
  mm->opt.disableflags |= mjDSBL_CONTACT;
  for (int i = 0; i < mm->neq; i++) {
    mm->eq_solref[2 * i] = 2 * dt;
    mm->eq_solref[2 * i + 1] = 1;
    mm->eq_solimp[5 * i] = mm->eq_solimp[5 * i + 1] = 0.9999;
  }
  mj_resetData(mm, md);
  mj_forward(mm, md);
  int nactive = 0; /* an inactive constraint is left out */
  for (int i = 0; i < mm->neq; i++) nactive += mm->eq_active[i] != 0;
  ENSURE(p.sm->neq == nactive);
  double* qf = calloc((size_t)mm->nq, sizeof(double));
  double* g = calloc((size_t)p.sm->neqrow + 1, sizeof(double));
  double eq_mj = 0, eq_sc = 0, eq_rel = 0, e = 0; /* eq_rel: m, rad, rotation-matrix entries */
  int worst = -1;
  const long nstep = lround(T / dt);
  for (long k = 0; qf && g && k < nstep; k++) {
    mj_step(mm, md);
    if (sc_step(p.sm, p.sd, &err) != SC_OK) {
      char buf[1200];
      sc_error_format(&err, buf, sizeof buf);
      printf("  simc step %ld: %s\n", k, buf);
      ENSURE(0);
      break;
    }
    mj_forward(mm, md);
    const int settled = (k + 1) * dt >= SETTLE;
    for (int i = 0; settled && i < md->nefc; i++)
      if (md->efc_type[i] == mjCNSTR_EQUALITY) eq_mj = fmax(eq_mj, fabs(md->efc_pos[i]));
    sc_dyn_kinematics(p.sm, p.sd, p.sd->q);
    sc_eq_gaps(p.sm, p.sd, g);
    for (int i = 0; settled && i < p.sm->neqrow; i++) eq_sc = fmax(eq_sc, fabs(g[i]));
    /* MuJoCo's own relation of each joint coupling on simc's q: its
     * polynomial about its qpos0, as mjModel holds them */
    for (int i = 0; settled && i < mm->neq; i++) {
      if (mm->eq_type[i] != mjEQ_JOINT || !mm->eq_active[i]) continue;
      const int j1 = mm->eq_obj1id[i], j2 = mm->eq_obj2id[i];
      const double* c = mm->eq_data + mjNEQDATA * i;
      const int a1 = mm->jnt_qposadr[j1];
      const double x = j2 >= 0 ? p.sd->q[mm->jnt_qposadr[j2]] - mm->qpos0[mm->jnt_qposadr[j2]] : 0;
      const double r = j2 >= 0 ? c[0] + x * (c[1] + x * (c[2] + x * (c[3] + x * c[4]))) : c[0];
      eq_rel = fmax(eq_rel, fabs(p.sd->q[a1] - mm->qpos0[a1] - r));
    }
    /* and of each connect and weld on simc's body poses: MuJoCo's points
     * (connect: data 0-2 on body1, 3-5 on body2; weld: 3-5 on body1, 0-2
     * on body2) and a weld's rotation, R2 = R1 Q (Q data 6-9) */
    for (int i = 0; settled && i < mm->neq; i++) {
      if ((mm->eq_type[i] != mjEQ_CONNECT && mm->eq_type[i] != mjEQ_WELD) || !mm->eq_active[i]) continue;
      const int b1 = p.body[mm->eq_obj1id[i]], b2 = p.body[mm->eq_obj2id[i]];
      const double* c = mm->eq_data + mjNEQDATA * i;
      const int weld = mm->eq_type[i] == mjEQ_WELD;
      const double *l1 = weld ? c + 3 : c, *l2 = weld ? c : c + 3;
      const double *R1 = p.sd->xrot + 9 * b1, *R2 = p.sd->xrot + 9 * b2;
      double w1[3], w2[3];
      sc_sp_mat3_vec(w1, R1, l1);
      sc_sp_mat3_vec(w2, R2, l2);
      for (int x = 0; x < 3; x++)
        eq_rel = fmax(eq_rel, fabs(p.sd->xpos[3 * b1 + x] + w1[x] - p.sd->xpos[3 * b2 + x] - w2[x]));
      if (!weld) continue;
      double Q[9], R1Q[9];
      double qn[4] = {c[6], c[7], c[8], c[9]};
      sc_sp_quat_normalize(qn);
      sc_sp_quat_to_mat3(Q, qn);
      sc_sp_mat3_mul(R1Q, R1, Q);
      for (int x = 0; x < 9; x++) eq_rel = fmax(eq_rel, fabs(R1Q[x] - R2[x]));
    }
    memcpy(qf, p.sd->q, sizeof(double) * (size_t)mm->nq);
    sc_state_com_to_frame(p.sm, qf, NULL);
    for (int j = 0; j < mm->njnt; j++) {
      const char* jn = mj_id2name(mm, mjOBJ_JOINT, j);
      int use = !cmp;
      for (int c = 0; cmp && cmp[c]; c++) use |= jn && strcmp(cmp[c], jn) == 0;
      if (!use) continue;
      const int a = mm->jnt_qposadr[j];
      const int n = mm->jnt_type[j] == mjJNT_FREE ? 7 : mm->jnt_type[j] == mjJNT_BALL ? 4 : 1;
      for (int i = a; i < a + n; i++) {
        const double d = fabs(qf[i] - md->qpos[i]);
        if (d > e) e = d, worst = j;
      }
    }
  }
  printf("  %s: %d constraints (MuJoCo %d, %d active), %d rows; over %g s at dt %g: max |q_simc - q_mj| %.3g (joint %s; tolerance %g); "
         "violation after %g s: simc %.3g (tolerance %g; MuJoCo's relations on simc's state %.3g), MuJoCo (time "
         "constant 2 dt) %.3g\n",
         path, p.sm->neq, mm->neq, nactive, p.sm->neqrow, T, dt, e, worst >= 0 && mj_id2name(mm, mjOBJ_JOINT, worst) ? mj_id2name(mm, mjOBJ_JOINT, worst) : "-", tol_q, SETTLE,
         eq_sc, tol_sc, eq_rel, eq_mj);
  ENSURE(e <= tol_q);
  ENSURE(eq_sc <= tol_sc);
  ENSURE(eq_rel <= tol_sc);
  free(qf);
  free(g);
  pair_close(&p);
}

/* an inactive constraint is left out and said so in the translation's note */
static void test_equality_inactive_noted(void) {
  FILE* f = fopen("test/mjcf/eq_weld.xml", "rb");
  ENSURE(f != NULL);
  if (!f) return;
  static char text[1 << 16];
  const size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = '\0';
  sc_import_opts o = {0, 0, NULL, 0};
  char *yaml = NULL, *ign = NULL, *apx = NULL;
  size_t n = 0;
  sc_error err;
  const int ok = sc_mjcf_translate("test/mjcf/eq_weld.xml", text, len, &o, &yaml, &n, &ign, &apx, NULL, &err) == SC_OK;
  ENSURE(ok);
  if (ok) {
    const char* note = strstr(yaml, "# note: ");
    if (note) printf("  %.*s\n", (int)strcspn(note, "\n"), note);
    ENSURE(note && strstr(note, "1 equality constraint with active=\"false\" left out"));
    int welds = 0;
    for (const char* p = yaml; (p = strstr(p, "type: weld")); p++) welds++;
    ENSURE(welds == 2);
  }
  free(yaml);
  free(ign);
  free(apx);
}

/* measured: the four-bar's coupler 4.7e-5 rad apart (MuJoCo's loop open by
 * 4.7e-6 m, simc's by 6.3e-7 m); the welded arm 1.1e-6 rad (violations
 * 1.0e-6 and 1.9e-6); the coupled hinges 4.0e-6 rad (2.4e-7 simc, on
 * MuJoCo's own relation too).  The slide of eq_joint.xml starts 0.02 m
 * off its relation (c0), which each pulls in its own way: its tree is
 * compared by the relation only. */
static void test_equality_connect(void) { equality_check("test/mjcf/eq_connect.xml", 1e-4, 1.0, NULL, 2e-4, 1e-5); }
static void test_equality_weld(void) { equality_check("test/mjcf/eq_weld.xml", 1e-4, 1.0, NULL, 1e-5, 1e-5); }
/* the relation only (each starts off it, see the file; the boxes' motion
 * then differs by 2.6e-2): 1.3e-7, on MuJoCo's relation too */
static void test_equality_relpose(void) {
  const char* const none[] = {NULL};
  equality_check("test/mjcf/eq_relpose.xml", 1e-4, 1.0, none, 0, 1e-5);
}
/* rows with round-off Jacobians held as J = 0 (their 1/w made simc's
 * motion non-finite): the rigid pendulum within 1.1e-9 rad of MuJoCo's,
 * violation 1.3e-15 */
static void test_equality_redundant(void) { equality_check("test/mjcf/eq_redundant.xml", 1e-4, 1.0, NULL, 1e-5, 1e-5); }
static void test_equality_joint(void) {
  const char* const cmp[] = {"h1", "h2", NULL};
  equality_check("test/mjcf/eq_joint.xml", 1e-4, 1.0, cmp, 2e-5, 1e-5);
}
static void test_dynamics_22_humanoids(void) { dynamics_check(HUMANOID22); }

/* ---- check 7: composites against MuJoCo's expansion ---- */

static void tendon_check(const char* path, double dt, double T, double tol_l0, double tol_q, double tol_l);

/* A model with composites: the same bodies (by name, unnamed ones in
 * order; map_bodies checks the tree), dofs, tendons and equality
 * constraints as MuJoCo's, every body's position, orientation and mass at
 * qpos0, and every tendon's length there.  Then T of simc's run from
 * there: it completes, and the largest violation of the constraints at
 * its end (which MuJoCo's soft rows would not hold as closely). */
static void composite_check(const char* path, double T, double tol_viol) {
  if (missing(path)) return;
  pair p;
  char set[64];
  snprintf(set, sizeof set, "time.duration=%.17g", T);
  const char* sets[] = {set};
  const int opened = pair_open(&p, path, sets, 1);
  ENSURE(opened);
  if (!opened) {
    pair_close(&p);
    return;
  }
  mjModel* mm = p.mm;
  mjData* md = p.md;
  const sc_model* s = p.sm;
  mj_resetData(mm, md);
  mj_forward(mm, md);
  double* qs = calloc((size_t)s->nq, sizeof(double));
  memcpy(qs, md->qpos, sizeof(double) * (size_t)mm->nq);
  sc_state_frame_to_com(s, qs, NULL);
  sc_dyn_kinematics(s, p.sd, qs);
  double epos = 0, erot = 0, emass = 0, elen = 0;
  for (int b = 1; b < mm->nbody; b++) {
    const int sb = p.body[b];
    for (int k = 0; k < 3; k++) epos = fmax(epos, fabs(p.sd->xpos[3 * sb + k] - md->xpos[3 * b + k]));
    for (int k = 0; k < 9; k++) erot = fmax(erot, fabs(p.sd->xrot[9 * sb + k] - md->xmat[9 * b + k]));
    emass = fmax(emass, fabs(s->body_mass[sb] - mm->body_mass[b]) / fmax(mm->body_mass[b], 1e-300));
  }
  const int nten = s->ntendon == mm->ntendon;
  for (int i = 0; nten && i < mm->ntendon; i++)
    elen = fmax(elen, fabs(sc_dyn_tendon(s, p.sd, i, NULL) - md->ten_length[i]));
  int nmoving = 0; /* simc's bodies on fixed joints are MuJoCo's */
  for (int b = 1; b < s->nbody; b++) nmoving += s->jnt_type[s->body_jnt[b]] == SC_JOINT_FIXED;
  printf("  %s: bodies %d (MuJoCo %d), dofs %d (%d), tendons %d (%d), equality %d (%d); at qpos0: positions within "
         "%.3g m, orientations %.3g, masses %.3g relative, tendon lengths %.3g m\n",
         path, nmoving, mm->nbody - 1, s->nv, mm->nv, s->ntendon, mm->ntendon, s->neq, mm->neq, epos, erot, emass,
         elen);
  ENSURE(nmoving == mm->nbody - 1);
  ENSURE(s->nv == mm->nv);
  ENSURE(nten);
  ENSURE(s->neq == mm->neq);
  ENSURE(epos <= 1e-12);
  ENSURE(erot <= 1e-12);
  ENSURE(emass <= 1e-12);
  ENSURE(elen <= 1e-12);
  sc_error err;
  int ok = sc_sim_prepare(p.sm, p.sd, &err) == SC_OK && sc_forward(p.sm, p.sd, &err) == SC_OK;
  const long nstep = lround(T / s->opt.dt);
  const double t0 = now();
  for (long k = 0; ok && k < nstep; k++) ok = sc_step(p.sm, p.sd, &err) == SC_OK;
  double viol = 0;
  double* g = calloc((size_t)s->neqrow + 1, sizeof(double));
  if (ok && g) {
    sc_dyn_kinematics(s, p.sd, p.sd->q);
    sc_eq_gaps(s, p.sd, g);
    for (int i = 0; i < s->neqrow; i++) viol = fmax(viol, fabs(g[i]));
  }
  for (int i = 0; ok && i < s->nq; i++) ok = isfinite(p.sd->q[i]);
  printf("    %ld steps of %g s (%.1f s): %s; constraint violation at the end %.3g (tolerance %g)\n", nstep,
         s->opt.dt, now() - t0, ok ? "ok" : "failed", viol, tol_viol);
  ENSURE(ok);
  ENSURE(viol <= tol_viol);
  free(g);
  free(qs);
  pair_close(&p);
}

#define MJ_COMPOSITE MJ_MODELS "composite/"
static void test_composite_particle(void) { composite_check(MJ_COMPOSITE "particle.xml", 0.05, 1e-3); }
static void test_composite_grid2pin(void) { composite_check(MJ_COMPOSITE "grid2pin.xml", 0.1, 1e-3); }
static void test_composite_rope(void) { composite_check(MJ_COMPOSITE "rope.xml", 0.1, 1e-3); }
static void test_composite_loop(void) { composite_check(MJ_COMPOSITE "loop.xml", 0.1, 1e-3); }
static void test_composite_cloth(void) { composite_check(MJ_COMPOSITE "cloth.xml", 0.1, 1e-3); }
static void test_composite_softbox(void) { composite_check(MJ_COMPOSITE "softbox.xml", 0.1, 1e-3); }
static void test_composite_hammock(void) { composite_check(MJ_MODELS "hammock/hammock.xml", 0.1, 1e-3); }
/* the motion over 0.2 s, before anything touches (MuJoCo's rows at their
 * stiffest, RK4; tendon_check).  Measured: the rope, the loop and the
 * cloth fall whole in both (1.6e-15, 2.6e-15, 5.7e-14: nothing in them
 * bends in free fall); the pinned grid sags under its rigid tendons in
 * simc and MuJoCo's stiffest soft ones 4.6e-3 m apart, its tendons'
 * lengths 9.6e-6 m */
static void test_composite_trajectories(void) {
  const char* f[] = {MJ_COMPOSITE "rope.xml", MJ_COMPOSITE "loop.xml", MJ_COMPOSITE "cloth.xml", MJ_COMPOSITE "grid2pin.xml"};
  const double tq[] = {1e-13, 1e-13, 1e-12, 1e-2}, tl[] = {1e-13, 1e-13, 1e-12, 2e-5};
  for (int i = 0; i < 4; i++)
    if (!missing(f[i])) tendon_check(f[i], 1e-4, 0.2, 1e-12, tq[i], tl[i]);
}

/* ---- check 6: tendons against MuJoCo ---- */

/* Every tendon's length at qpos0 (MuJoCo's mj_forward against simc's
 * tendon at its first state), then a run of T at dt: MuJoCo with RK4 and its
 * tendon limits' and equality rows' time constant at their floor (two steps,
 * impedance 0.9999), the motion simc's rigid rows imply; the largest
 * |q_simc - q_mj| and |L_simc - L_mj| over the run, and, last, each
 * tendon's length at T in both. */
/* per tendon of the last tendon_check, the steps MuJoCo's path wrapped a shape */
static long wrapped_steps[64];

static void tendon_check(const char* path, double dt, double T, double tol_l0, double tol_q, double tol_l) {
  pair p;
  if (!pair_start(&p, path, dt)) return;
  sc_error err;
  mjModel* mm = p.mm;
  mjData* md = p.md;
  ENSURE(p.sm->ntendon == mm->ntendon);
  if (p.sm->ntendon != mm->ntendon) {
    pair_close(&p);
    return;
  }
  mm->opt.integrator = mjINT_RK4;
  mm->opt.timestep = dt;
  mm->opt.disableflags |= mjDSBL_CONTACT;
  for (int i = 0; i < mm->ntendon; i++) {
    mm->tendon_solref_lim[2 * i] = 2 * dt;
    mm->tendon_solref_lim[2 * i + 1] = 1;
    mm->tendon_solimp_lim[5 * i] = mm->tendon_solimp_lim[5 * i + 1] = 0.9999;
  }
  for (int i = 0; i < mm->neq; i++) {
    mm->eq_solref[2 * i] = 2 * dt;
    mm->eq_solref[2 * i + 1] = 1;
    mm->eq_solimp[5 * i] = mm->eq_solimp[5 * i + 1] = 0.9999;
  }
  mj_resetData(mm, md);
  mj_forward(mm, md);
  double e0 = 0;
  sc_dyn_kinematics(p.sm, p.sd, p.sd->q);
  for (int i = 0; i < mm->ntendon; i++) e0 = fmax(e0, fabs(sc_dyn_tendon(p.sm, p.sd, i, NULL) - md->ten_length[i]));
  double* qf = calloc((size_t)mm->nq, sizeof(double));
  double eq = 0, el = 0;
  const long nstep = lround(T / dt);
  memset(wrapped_steps, 0, sizeof wrapped_steps);
  for (long k = 0; qf && k < nstep; k++) {
    mj_step(mm, md);
    if (sc_step(p.sm, p.sd, &err) != SC_OK) {
      char buf[1200];
      sc_error_format(&err, buf, sizeof buf);
      printf("  simc step %ld: %s\n", k, buf);
      ENSURE(0);
      break;
    }
    mj_forward(mm, md);
    memcpy(qf, p.sd->q, sizeof(double) * (size_t)mm->nq);
    sc_state_com_to_frame(p.sm, qf, NULL);
    for (int i = 0; i < mm->nq; i++) eq = fmax(eq, fabs(qf[i] - md->qpos[i]));
    sc_dyn_kinematics(p.sm, p.sd, p.sd->q);
    for (int i = 0; i < mm->ntendon; i++)
      el = fmax(el, fabs(sc_dyn_tendon(p.sm, p.sd, i, NULL) - md->ten_length[i]));
    /* (MuJoCo's path points beyond one per site and pulley: a wrap's two) */
    for (int i = 0; i < mm->ntendon && i < 64; i++) {
      int sites = 0;
      for (int w = mm->tendon_adr[i]; w < mm->tendon_adr[i] + mm->tendon_num[i]; w++)
        sites += mm->wrap_type[w] == mjWRAP_SITE || mm->wrap_type[w] == mjWRAP_PULLEY;
      wrapped_steps[i] += md->ten_wrapnum[i] > sites;
    }
  }
  printf("  %s: %d tendons; lengths at qpos0 within %.3g (tolerance %g); over %g s at dt %g: max |q_simc - q_mj| "
         "%.3g (tolerance %g), max |L_simc - L_mj| %.3g (tolerance %g)\n",
         path, mm->ntendon, e0, tol_l0, T, dt, eq, tol_q, el, tol_l);
  for (int i = 0; i < mm->ntendon; i++) {
    const char* tn = mj_id2name(mm, mjOBJ_TENDON, i);
    printf("    %s: L(T) simc %.9f, MuJoCo %.9f", tn ? tn : p.sm->ten_name ? p.sm->ten_name[i] : "?",
           sc_dyn_tendon(p.sm, p.sd, i, NULL), md->ten_length[i]);
    if (mm->tendon_limited[i]) {
      printf(" (range %.9g %.9g, margin %g)", mm->tendon_range[2 * i], mm->tendon_range[2 * i + 1], mm->tendon_margin[i]);
      /* a tendon MuJoCo holds at a bound, simc holds there too */
      for (int s = 0; s < 2; s++) {
        const double bound = mm->tendon_range[2 * i + s] + (s ? -1 : 1) * mm->tendon_margin[i];
        if (fabs(md->ten_length[i] - bound) < 1e-6) ENSURE(fabs(sc_dyn_tendon(p.sm, p.sd, i, NULL) - bound) < 1e-6);
      }
    }
    printf("\n");
  }
  ENSURE(e0 <= tol_l0);
  ENSURE(eq <= tol_q);
  ENSURE(el <= tol_l);
  free(qf);
  pair_close(&p);
}

/* ---- <option><flag> ---- */

/* test/mjcf/flags.xml with its FLAGS comment replaced by flag, written to
 * out; 0 when it cannot */
#define MJ_PI_T 3.14159265358979323846
static int flags_variant(const char* flag, const char* out) {
  static char text[1 << 14];
  FILE* f = fopen("test/mjcf/flags.xml", "rb");
  if (!f) return 0;
  const size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = '\0';
  char* at = strstr(text, "<!-- FLAGS -->");
  FILE* o = at ? fopen(out, "wb") : NULL;
  if (!o) return 0;
  fprintf(o, "%.*s%s%s", (int)(at - text), text, flag, at + strlen("<!-- FLAGS -->"));
  return fclose(o) == 0;
}

/* The switches simc honours change the motion as they change MuJoCo's:
 * with contacts, limits, dry friction and the connect off, and then with
 * every constraint and gravity off (the spring alone), the pendulum and
 * the ball move as MuJoCo's (RK4 at 1e-4 s; tendon_check) over 0.3 s.
 * With them honoured the ball falls through the floor (below -0.3 m) and
 * the pendulum swings past its 20 degree limit; were either switch
 * ignored the connect would hold the ball at 0.05 m, the friction the
 * pendulum level.  A switch simc does not honour is refused by name at
 * its line.  Measured: 6.1e-7 and 2.8e-7 (rad, m: simc's midpoint rule
 * against RK4). */
static void test_option_flags(void) {
  const char* a = "/tmp/simc_test_flags_a.xml";
  const char* b = "/tmp/simc_test_flags_b.xml";
  const char* c = "/tmp/simc_test_flags_c.xml";
  ENSURE(flags_variant("<flag contact=\"disable\" limit=\"disable\" frictionloss=\"disable\" equality=\"disable\" "
                       "warmstart=\"enable\"/>", a));
  ENSURE(flags_variant("<flag constraint=\"disable\" gravity=\"disable\"/>", b));
  ENSURE(flags_variant("<flag passive=\"disable\"/>", c));
  tendon_check(a, 1e-4, 0.3, 0, 1e-6, 0);
  tendon_check(b, 1e-4, 0.3, 0, 1e-6, 0);
  /* the first variant's end: the ball below the floor, the arm past its limit */
  pair p;
  if (pair_start(&p, a, 1e-3)) {
    sc_error err;
    int ok = 1;
    for (long k = 0; ok && k < 300; k++) ok = sc_step(p.sm, p.sd, &err) == SC_OK;
    ENSURE(ok);
    int ball = -1, arm = -1;
    for (int i = 1; i < p.sm->nbody; i++) {
      if (strcmp(p.sm->body_name[i], "ball") == 0) ball = i;
      if (strcmp(p.sm->body_name[i], "arm") == 0) arm = i;
    }
    ENSURE(ball > 0 && arm > 0);
    if (ok && ball > 0 && arm > 0) {
      const double z = p.sd->xpos[3 * ball + 2], q = p.sd->q[p.sm->jnt_qadr[p.sm->body_jnt[arm]]];
      printf("  flags off: ball at z = %.4f m, pendulum at %.1f degrees\n", z, q * 180 / MJ_PI_T);
      ENSURE(z < -0.3);
      ENSURE(fabs(q) > 20 * MJ_PI_T / 180);
    }
    pair_close(&p);
  }
  /* refused, located */
  sc_model* m = NULL;
  sc_error err;
  const int refused = sc_scene_load(c, NULL, 0, &m, &err) != SC_OK;
  char buf[1200] = "";
  if (refused) sc_error_format(&err, buf, sizeof buf);
  printf("  %s\n", buf);
  ENSURE(refused && strstr(buf, "simc_test_flags_c.xml:10") && strstr(buf, "option flag passive=\"disable\""));
  sc_model_free(m);
  remove(a);
  remove(b);
  remove(c);
}

/* MuJoCo's flag.xml as shipped (constraint="disable": its cloth's tendon
 * equalities and the ellipsoids' contacts off; tendon springs, joint
 * springs, wind and the medium on) against MuJoCo over 0.05 s at 1 ms.
 * Measured: q within 1.05e-5, tendon lengths 3.4e-7 m (simc's midpoint
 * rule against RK4 at the same step). */
static void test_flag_trajectory(void) {
  const char* f = MJ_MODELS "flag/flag.xml";
  if (!missing(f)) tendon_check(f, 1e-3, 0.05, 1e-12, 1e-4, 3e-6);
}

/* MuJoCo's slider_crank.xml as shipped: three position servos through
 * slider-cranks (one "broken", its rod too short to reach the axis at the
 * start), against MuJoCo with RK4 at 1e-4 s over 1 s: the hinges' angles
 * and each actuator's length (MuJoCo's actuator_length, simc's tendon
 * "<actuator> crank").  Measured at 1e-4 s: the lengths at qpos0 exact;
 * the forward and backward cranks' lengths within 2.6e-9 and 5.0e-9 m over
 * the run; until the broken crank's rod first
 * reaches its axis (t = 0.285 s) the angles within 9.6e-8 rad and every
 * length within 5.0e-9 m; there dL/dq is infinite (L = a.v -
 * sqrt(det), det -> 0+) and the motion after depends on how each
 * integrator steps across it: its length then 2.9e-4 m apart (4.4e-4 at
 * 2e-5 s: not a truncation error). */
static void test_slider_crank(void) {
  const char* path = MJ_MODELS "slider_crank/slider_crank.xml";
  if (missing(path)) return;
  pair p;
  const double dt = 1e-4, T = 1.0, tcross = 0.28;
  if (!pair_start(&p, path, dt)) return;
  mjModel* mm = p.mm;
  mjData* md = p.md;
  mm->opt.integrator = mjINT_RK4;
  mm->opt.timestep = dt;
  mj_resetData(mm, md);
  mj_forward(mm, md);
  int ten[8], ok = mm->nu <= 8 && p.sm->ntendon == mm->nu && p.sm->nq == mm->nq;
  for (int a = 0; ok && a < mm->nu; a++) {
    char want[160];
    snprintf(want, sizeof want, "%s crank", mj_id2name(mm, mjOBJ_ACTUATOR, a));
    ten[a] = -1;
    for (int t = 0; t < p.sm->ntendon; t++)
      if (strcmp(p.sm->ten_name[t], want) == 0) ten[a] = t;
    ok = ten[a] >= 0;
  }
  ENSURE(ok);
  double e0 = 0, eq = 0, el = 0, ela[8] = {0}, el_pre = 0, eq_pre = 0;
  sc_dyn_kinematics(p.sm, p.sd, p.sd->q);
  for (int a = 0; ok && a < mm->nu; a++)
    e0 = fmax(e0, fabs(sc_dyn_tendon(p.sm, p.sd, ten[a], NULL) - md->actuator_length[a]));
  sc_error err;
  const long n = lround(T / dt);
  for (long k = 0; ok && k < n; k++) {
    mj_step(mm, md);
    ok = sc_step(p.sm, p.sd, &err) == SC_OK;
    mj_forward(mm, md);
    for (int i = 0; i < mm->nq; i++) eq = fmax(eq, fabs(p.sd->q[i] - md->qpos[i]));
    sc_dyn_kinematics(p.sm, p.sd, p.sd->q);
    for (int a = 0; a < mm->nu; a++) {
      ela[a] = fmax(ela[a], fabs(sc_dyn_tendon(p.sm, p.sd, ten[a], NULL) - md->actuator_length[a]));
      el = fmax(el, ela[a]);
    }
    if ((k + 1) * dt <= tcross) {
      el_pre = el;
      for (int i = 0; i < mm->nq; i++) eq_pre = fmax(eq_pre, fabs(p.sd->q[i] - md->qpos[i]));
    }
  }
  ENSURE(ok);
  printf("  %s: actuator lengths at qpos0 within %.3g m; at %g s, to %g s: q within %.3g rad, lengths %.3g m; "
         "to %g s: q within %.3g rad, lengths %.3g m\n", path, e0, dt, tcross, eq_pre, el_pre, T, eq, el);
  for (int a = 0; ok && a < mm->nu; a++)
    printf("    %s: L(T) simc %.9f, MuJoCo %.9f, largest difference %.3g m\n", p.sm->ten_name[ten[a]],
           sc_dyn_tendon(p.sm, p.sd, ten[a], NULL), md->actuator_length[a], ela[a]);
  ENSURE(e0 <= 1e-15);
  ENSURE(eq_pre <= 3e-7);
  ENSURE(el_pre <= 3e-8);
  ENSURE(ela[0] <= 3e-8 && ela[1] <= 3e-8);
  ENSURE(ela[2] <= 1e-3);
  pair_close(&p);
}

/* measured: lengths at qpos0 exact (fixed) and 2.2e-16 m (spatial); the
 * fixed tendons' model 6.1e-3 (q) and 1.0e-2 (L) apart over 1 s, the
 * spatial one 3.9e-3 and 3.3e-3: both from the limits' impacts, which
 * MuJoCo's soft rows and simc's rigid ones resolve differently (a tendon
 * spring alone on the two hinges: 1.1e-6 rad); where MuJoCo holds a
 * tendon at its bound simc holds it within 2e-8. */
static void test_tendon_fixed(void) { tendon_check("test/mjcf/tendon_fixed.xml", 1e-4, 1.0, 1e-15, 1e-2, 2e-2); }
/* measured over 1 s: q within 2.6e-6 rad and the tendons' lengths 2.1e-6
 * at 1e-4 s, 6.5e-7 and 5.3e-7 at 5e-5 s (second order: simc's truncation
 * against MuJoCo's RK4) */
static void test_tendon_actuators(void) { tendon_check("test/mjcf/tendon_act.xml", 1e-4, 1.0, 1e-15, 1e-5, 1e-5); }
static void test_tendon_spatial(void) { tendon_check("test/mjcf/tendon_spatial.xml", 1e-4, 1.0, 1e-15, 1e-2, 1e-2); }
/* measured over 1 s: the length at qpos0 exact, q within 3.8e-6 and L
 * 5.3e-7 at 1e-4 s, 8.5e-7 and 1.2e-7 at 5e-5 s (second order: simc's
 * truncation against MuJoCo's RK4) */
/* measured: the lengths at qpos0 within 1.7e-16 m; over 1 s at 1e-4 s q
 * within 1.3e-5 rad and the lengths 4.5e-6 m, halving with the step (6.6e-6
 * at 5e-5 s, 3.3e-6 at 2.5e-5 s): where the helix around the tilted
 * cylinder meets or leaves it its spring's force turns a corner (MuJoCo's
 * helix is no geodesic), which both integrators cross at first order.
 * Without that spring: 3.5e-9 rad and 1.1e-9 m, the helix's length as
 * MuJoCo's throughout.  The flexor and the helix wrap and leave their
 * shapes during the run, the side-site path and the sphere's stay on. */
static void test_tendon_wrap(void) {
  tendon_check("test/mjcf/tendon_wrap.xml", 1e-4, 1.0, 1e-12, 3e-5, 1e-5);
  printf("   steps wrapped (of 10000):");
  for (int i = 0; i < 4; i++) printf(" %ld", wrapped_steps[i]);
  printf("\n");
  for (int i = 0; i < 4; i++) ENSURE(wrapped_steps[i] > 0);
  ENSURE(wrapped_steps[0] < 10000 && wrapped_steps[3] < 10000);
}

/* Every tendon's length against MuJoCo's over n configurations of a model
 * of hinges and slides (each coordinate uniform in [-1.5, 1.5] about
 * qpos0): the paths' geometry alone, whatever drives the model. */
static void tendon_lengths_check(const char* path, int n, double tol) {
  pair p;
  if (!pair_start(&p, path, 1e-3)) return;
  mjModel* mm = p.mm;
  mjData* md = p.md;
  int ok = p.sm->ntendon == mm->ntendon && p.sm->nq == mm->nq;
  for (int j = 0; ok && j < mm->njnt; j++) ok = mm->jnt_type[j] == mjJNT_HINGE || mm->jnt_type[j] == mjJNT_SLIDE;
  ENSURE(ok);
  double e = 0;
  long wraps = 0;
  unsigned seed = 12345;
  for (int k = 0; ok && k < n; k++) {
    for (int i = 0; i < mm->nq; i++) {
      seed = seed * 1103515245u + 12345u;
      const double u = (double)((seed >> 8) & 0xffff) / 65535.0;
      md->qpos[i] = mm->qpos0[i] + 3.0 * (u - 0.5);
      p.sd->q[i] = md->qpos[i];
    }
    mj_forward(mm, md);
    sc_dyn_kinematics(p.sm, p.sd, p.sd->q);
    for (int i = 0; i < mm->ntendon; i++) {
      e = fmax(e, fabs(sc_dyn_tendon(p.sm, p.sd, i, NULL) - md->ten_length[i]));
      int sites = 0;
      for (int w = mm->tendon_adr[i]; w < mm->tendon_adr[i] + mm->tendon_num[i]; w++)
        sites += mm->wrap_type[w] == mjWRAP_SITE || mm->wrap_type[w] == mjWRAP_PULLEY;
      wraps += md->ten_wrapnum[i] > sites;
    }
  }
  printf("  %s: %d tendons over %d configurations: lengths within %.3g m of MuJoCo's (tolerance %g); a shape "
         "wrapped in %ld of the %d paths\n",
         path, mm->ntendon, n, e, tol, wraps, n * mm->ntendon);
  ENSURE(e <= tol);
  ENSURE(wraps > 0);
  pair_close(&p);
}

/* MuJoCo's arm26.xml: six tendons around two cylinders, with and without
 * side sites, one over both (its muscles are left out: simc's tendons
 * only).  Measured over 1000 configurations: within 6.1e-13 m (arm26;
 * 4.3e-14 for tendon_wrap.xml), round-off of the shapes' frames, which
 * simc builds about the axis and MuJoCo takes from the geom. */
static void test_tendon_arm26(void) {
  const char* f = MJ_MODELS "tendon_arm/arm26.xml";
  if (!missing(f)) tendon_lengths_check(f, 1000, 1e-11);
}
static void test_tendon_wrap_lengths(void) { tendon_lengths_check("test/mjcf/tendon_wrap.xml", 1000, 1e-11); }
/* side sites inside the shapes: measured within 4.4e-16 m over 1000
 * configurations, the path bent in to touch its shape in 1458 of 2000 */
static void test_tendon_inside_lengths(void) { tendon_lengths_check("test/mjcf/tendon_inside.xml", 1000, 1e-12); }
static void test_tendon_pulley(void) { tendon_check("test/mjcf/tendon_pulley.xml", 1e-4, 1.0, 1e-15, 1e-5, 1e-5); }

/* ---- 5. the schema ---- */

static void test_schema_classified(void) {
  int nrow = sc_mjcf_schema_rows(), nattr = 0, bad = 0;
  for (int i = 0; i < nrow; i++) {
    int depth;
    const char *name, *attrs, *parent;
    sc_mjcf_schema_row(i, &depth, &name, &attrs, &parent);
    char ec = sc_mjcf_schema_class(i, NULL, NULL, 0), d[64];
    if (!ec) {
      printf("  <%s> in <%s>: unclassified\n", name, parent ? parent : "-");
      bad++;
      continue;
    }
    if (ec != 'T') continue;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", attrs);
    for (char* a = strtok(buf, " "); a; a = strtok(NULL, " ")) {
      nattr++;
      if (!sc_mjcf_schema_class(i, a, d, sizeof d)) {
        printf("  <%s> in <%s>: attribute %s unclassified\n", name, parent ? parent : "-", a);
        bad++;
      }
    }
  }
  printf("  %d schema rows, %d attributes of translated elements, %d unclassified\n", nrow, nattr, bad);
  ENSURE(nrow == 127);
  ENSURE(bad == 0);
}

/* a model with every probed element once; element key k gets extra */
static void probe_model(char* out, size_t sz, const char* k, const char* extra) {
  static const char* const keys[] = {"mujoco>compiler", "mujoco>option", "default>joint", "default>geom",
                                     "default>motor", "default>position", "default>velocity", "default>mesh",
                                     "asset>mesh", "mujoco>body", "body>joint", "body>geom", "body>freejoint",
                                     "body>inertial", "actuator>motor", "actuator>position", "actuator>velocity",
                                     "contact>exclude"};
  const char* x[18];
  for (int i = 0; i < 18; i++) x[i] = strcmp(keys[i], k) == 0 ? extra : "";
  char cwd[1024];
  if (!getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
  snprintf(out, sz,
      "<mujoco>\n"
      "  <compiler %s/>\n"
      "  <option %s/>\n"
      "  <default><joint %s/><geom %s/><motor %s/><position %s/><velocity %s/><mesh %s/></default>\n"
      "  <asset><mesh name=\"m\" file=\"%s/test/meshes/cube_binary.stl\" %s/></asset>\n"
      "  <worldbody>\n"
      "    <geom type=\"plane\" size=\"1 1 0.1\"/>\n"
      "    <body name=\"b\" pos=\"0 0 1\" %s><joint name=\"j\" %s/><geom size=\"0.1\" %s/>\n"
      "      <body name=\"c\" pos=\"0 0 0.5\"><joint name=\"h\"/><geom type=\"mesh\" mesh=\"m\"/></body></body>\n"
      "    <body name=\"f\" pos=\"1 0 1\"><freejoint name=\"fj\" %s/><inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\" %s/></body>\n"
      "  </worldbody>\n"
      "  <actuator><motor joint=\"j\" %s/><position joint=\"j\" %s/><velocity joint=\"h\" %s/></actuator>\n"
      "  <contact><exclude body1=\"b\" body2=\"f\" %s/></contact>\n"
      "</mujoco>\n",
      x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], cwd, x[8], x[9], x[10], x[11], x[12], x[13], x[14], x[15],
      x[16], x[17]);
}

/* simc's translation of text (NULL when refused, the message in msg) */
static char* probe_translate(const char* text, int allow, char* msg, size_t msz) {
  sc_import_opts o = {allow, 0, NULL, 0};
  char *yaml = NULL, *ign = NULL;
  size_t n = 0;
  sc_error err;
  msg[0] = '\0';
  if (sc_mjcf_translate("probe.xml", text, strlen(text), &o, &yaml, &n, &ign, NULL, NULL, &err) != SC_OK) {
    sc_error_format(&err, msg, msz);
    return NULL;
  }
  free(ign);
  return yaml;
}

/* 1 when MuJoCo 2.2.2 loads text */
static int mj_accepts(const char* text) {
  char path[64];
  snprintf(path, sizeof path, "/tmp/simc_probe_%ld.xml", (long)getpid());
  FILE* f = fopen(path, "w");
  if (!f) return 0;
  fputs(text, f);
  fclose(f);
  char err[500];
  mjModel* m = mj_loadXML(path, NULL, err, sizeof err);
  unlink(path);
  if (m) mj_deleteModel(m);
  return m != NULL;
}

/* a value MuJoCo accepts for a reported attribute, other than its default */
static void probe_value(const char* a, const char* dflt, char* v, size_t sz) {
  static const char* const fixed[][2] = {{"inertiagrouprange", "0 2"}, {"settotalmass", "3"},
      {"solreffriction", "0.02 1"}, {"solimpfriction", "0.9 0.95 0.001 0.5 2"}, {"priority", "1"},
      {"refquat", "0 1 0 0"}, {"coordinate", "global"}, {"fluidshape", "ellipsoid"}};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (strcmp(a, fixed[i][0]) == 0) {
      snprintf(v, sz, "%s", fixed[i][1]);
      return;
    }
  if (strcmp(dflt, "false") == 0 || !dflt[0]) {
    snprintf(v, sz, "true");
    return;
  }
  double x[8];
  size_t o = 0;
  v[0] = '\0';
  char buf[64];
  snprintf(buf, sizeof buf, "%s", dflt);
  int n = 0;
  for (char* s = strtok(buf, " "); s && n < 8; s = strtok(NULL, " ")) x[n++] = atof(s);
  for (int i = 0; i < n && o < sz; i++) o += (size_t)snprintf(v + o, sz - o, "%s%g", i ? " " : "", x[i] + 1);
}

/* a value MuJoCo accepts for an attribute with no effect (where one fits
 * the probe model) */
static void none_value(const char* a, char* v, size_t sz) {
  static const char* const fixed[][2] = {{"rgba", "1 0 0 1"}, {"group", "2"}, {"strippath", "true"},
      {"fitaabb", "true"}, {"discardvisual", "true"}, {"convexhull", "false"}, {"usethread", "false"},
      {"fusestatic", "true"}, {"magnetic", "0 1 0"}, {"integrator", "RK4"}, {"cone", "elliptic"},
      {"jacobian", "sparse"}, {"solver", "CG"}, {"smoothnormal", "true"}, {"lengthrange", "0 1"},
      {"mocap", "true"}};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (strcmp(a, fixed[i][0]) == 0) {
      snprintf(v, sz, "%s", fixed[i][1]);
      return;
    }
  snprintf(v, sz, "1");
}

static void test_schema_probe(void) {
  char base[4096], text[4096], msg[2000], extra[200];
  probe_model(base, sizeof base, "", "");
  char* y0 = probe_translate(base, 0, msg, sizeof msg);
  if (!y0) printf("  the probe model is refused: %s\n", msg);
  ENSURE(y0 != NULL);
  ENSURE(mj_accepts(base));
  if (!y0) return;
  int nunk = 0, nrep = 0, nnone = 0, nbad = 0, nmj = 0, nprobe = 0;
  for (int i = 0; i < sc_mjcf_schema_rows(); i++) {
    int depth;
    const char *name, *attrs, *parent;
    sc_mjcf_schema_row(i, &depth, &name, &attrs, &parent);
    if (sc_mjcf_schema_class(i, NULL, NULL, 0) != 'T') continue;
    char key[64];
    snprintf(key, sizeof key, "%s>%s", parent ? parent : "mujoco", name);
    probe_model(text, sizeof text, key, "x=\"1\"");
    if (strcmp(text, base) == 0) continue; /* not in the probe model */
    /* an attribute outside the schema: refused at its line, by MuJoCo too */
    probe_model(text, sizeof text, key, "dampin=\"1\"");
    char* y = probe_translate(text, 1, msg, sizeof msg);
    char want[100];
    snprintf(want, sizeof want, "attribute dampin: unknown attribute");
    const int refused = !y && strstr(msg, want) && strncmp(msg, "probe.xml:", 10) == 0;
    if (!refused) printf("  <%s>: dampin not refused (%s)\n", key, msg);
    nbad += !refused;
    nbad += mj_accepts(text);
    nunk++;
    free(y);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", attrs);
    char* save;
    for (char* a = strtok_r(buf, " ", &save); a; a = strtok_r(NULL, " ", &save)) {
      char d[64], v[64];
      const char c = sc_mjcf_schema_class(i, a, d, sizeof d);
      if (c != 'u' && c != 'n') continue;
      if (strcmp(a, "name") == 0 || strcmp(a, "class") == 0) continue;
      if (c == 'u')
        probe_value(a, d, v, sizeof v);
      else
        none_value(a, v, sizeof v);
      snprintf(extra, sizeof extra, "%s=\"%s\"", a, v);
      probe_model(text, sizeof text, key, extra);
      nprobe++;
      const int mjok = mj_accepts(text);
      nmj += mjok;
      if (c == 'u') {
        /* refused, naming the element and attribute */
        char what[100];
        snprintf(what, sizeof what, "%s %s", name, a);
        y = probe_translate(text, 0, msg, sizeof msg);
        if (y || !strstr(msg, what)) {
          printf("  <%s %s>: not reported (%s)\n", key, extra, y ? "translated" : msg);
          nbad++;
        }
        nrep++;
      } else {
        /* no effect: the same translation */
        y = probe_translate(text, 0, msg, sizeof msg);
        if (!y || strcmp(y, y0) != 0) {
          printf("  <%s %s>: %s\n", key, extra, y ? "changes the translation" : msg);
          nbad++;
        }
        nnone++;
      }
      free(y);
    }
  }
  printf("  %d elements refuse an unknown attribute; %d attributes reported by name, %d with no effect; "
         "MuJoCo loads %d of the %d probes; %d failures\n",
         nunk, nrep, nnone, nmj, nprobe, nbad);
  ENSURE(nunk >= 15);
  /* 13 probes need more than the probe model has (a material, an hfield,
   * a slider-crank, a mesh for shellinertia, ...) */
  ENSURE(nmj >= nprobe - 13);
  ENSURE(nbad == 0);
  free(y0);
}

static void test_dynamics_humanoid100(void) { dynamics_check(HUMANOID100); }
static void test_trajectory_humanoid_welded(void) { trajectory_check(); }

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_inertia_humanoid);
  RUN(test_inertia_22_humanoids);
  RUN(test_inertia_humanoid100);
  RUN(test_inertia_mesh);
  RUN(test_compiler_mass);
  RUN(test_half_cheetah_mass);
  RUN(test_coordinate_global);
  RUN(test_springdamper);
  RUN(test_free_joint);
  RUN(test_fluid);
  RUN(test_fluid_swimmer);
  RUN(test_fluid_swimmer_trajectory);
  RUN(test_joint_ref);
  RUN(test_dynamics_humanoid);
  RUN(test_dynamics_22_humanoids);
  RUN(test_dynamics_humanoid100);
  RUN(test_trajectory_humanoid_welded);
  RUN(test_inertia_urdf_arm);
  RUN(test_dynamics_urdf_arm);
  RUN(test_contact_filter);
  RUN(test_equality_connect);
  RUN(test_equality_weld);
  RUN(test_equality_joint);
  RUN(test_equality_relpose);
  RUN(test_equality_redundant);
  RUN(test_equality_inactive_noted);
  RUN(test_tendon_fixed);
  RUN(test_tendon_spatial);
  RUN(test_tendon_actuators);
  RUN(test_tendon_pulley);
  RUN(test_tendon_wrap);
  RUN(test_tendon_arm26);
  RUN(test_tendon_wrap_lengths);
  RUN(test_tendon_inside_lengths);
  RUN(test_option_flags);
  RUN(test_slider_crank);
  RUN(test_flag_trajectory);
  RUN(test_composite_particle);
  RUN(test_composite_grid2pin);
  RUN(test_composite_rope);
  RUN(test_composite_loop);
  RUN(test_composite_cloth);
  RUN(test_composite_softbox);
  RUN(test_composite_hammock);
  RUN(test_composite_trajectories);
  RUN(test_schema_classified);
  RUN(test_schema_probe);
  return TEST_END();
}
