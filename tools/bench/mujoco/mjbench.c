/* mjbench MODEL.xml STEPS [--window T0] [--states]: time STEPS calls of
 * mj_step on an MJCF model and print one line
 *   steps_per_second=<x> mean_ncon=<y> mean_solver_iter=<z> energy_drift=<rel>
 *   ms_per_step=<ms> window_steps=<n> mean_speed=<m/s> max_speed=<m/s>
 *   max_depth=<m> floor_ratio=<r> max_drop=<m>
 * (one line; the work-precision contract shared with tools/bench/ode/odebench.c).
 * The model's keyframe 0 (if any) is the initial state.
 *
 * Window: the steps whose end time (k+1)*timestep is > T0 (--window T0,
 * default 0: every step).  Each mj_step of the window is timed on its own
 * (CLOCK_MONOTONIC; collision included, the per-step measurements below are
 * not); steps before the window are run untimed.  steps_per_second,
 * ms_per_step, mean_ncon (d->ncon after each step), mean_solver_iter
 * (d->solver_iter) and the new figures are over the window; with the default
 * window the first four are what they always were.  energy_drift is
 * (E_end - E_0) / |E_0| over the whole run, E = potential + kinetic from
 * mj_energyPos/mj_energyVel, evaluated by mj_forward before and after the
 * loop; it is "nan" unless the model enables energy (<flag energy="enable"/>,
 * mjENBL_ENERGY), so that models without it are timed without the energy
 * computation.
 *
 * Bodies = the bodies of the free joints, in joint order (the YAML order for
 * models from yaml2mjcf.awk).  After each window step:
 *   speed      |v_com| = |v_o + w x R ipos| per body from the new qpos/qvel
 *              (free joint qvel: v_o world-frame velocity of the body origin,
 *              then w in the body frame);
 *   depth      -d->contact[i].dist of every contact (these are the contacts
 *              of the step just taken: mj_step leaves the pre-integration
 *              collision in d->contact, with its forces in efc_force);
 *   floor      sum over contacts with a floor geom of the world z component
 *              of mj_contactForce (contact frame -> world by contact.frame;
 *              the force acts on geom2 along +normal, on geom1 along -normal).
 * A floor geom is a plane on the world body whose z axis is +z and whose
 * position has z = 0 (yaml2mjcf.awk's translation of the static plane
 * {normal: [0, 0, 1], offset: 0}); floor_ratio = mean over window steps of
 * floor force z / (total mass of the moving bodies * |gravity|), nan without
 * such a plane (or with zero gravity).  max_drop = max over bodies of the
 * body origin's initial z - final z.
 *
 * --states: after the summary, one line per body
 *   body I x y z qw qx qy qz vx vy vz wx wy wz
 * final state, world frame: body origin position and orientation (qpos), the
 * origin's linear velocity and the angular velocity (%.17g).
 * MuJoCo warnings (contact or constraint buffer full, bad qacc, ...) go to
 * stderr and make the exit status 3 (the figures are still printed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mujoco.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(void) {
  fprintf(stderr, "usage: mjbench MODEL.xml STEPS [--window T0] [--states]\n");
  return 2;
}

/* linear velocity of body b's centre of mass and its angular velocity, both
 * world frame, from the free joint's qpos/qvel at qadr/dadr */
static void free_body_vel(const mjModel *m, const mjData *d, int b, int qadr, int dadr,
                          mjtNum vcom[3], mjtNum w[3]) {
  const mjtNum *q = d->qpos + qadr + 3, *v = d->qvel + dadr;
  mjtNum r[3];
  mju_rotVecQuat(w, v + 3, q);
  mju_rotVecQuat(r, m->body_ipos + 3 * b, q);
  vcom[0] = v[0] + w[1] * r[2] - w[2] * r[1];
  vcom[1] = v[1] + w[2] * r[0] - w[0] * r[2];
  vcom[2] = v[2] + w[0] * r[1] - w[1] * r[0];
}

int main(int argc, char **argv) {
  if (argc < 3) return usage();
  char *end = NULL;
  long steps = strtol(argv[2], &end, 10);
  if (*argv[2] == '\0' || *end != '\0' || steps <= 0) {
    fprintf(stderr, "mjbench: STEPS must be a positive integer, got '%s'\n", argv[2]);
    return 2;
  }
  double t_win = 0.0;
  int states = 0;
  for (int a = 3; a < argc; a++) {
    if (!strcmp(argv[a], "--states")) {
      states = 1;
    } else if (!strcmp(argv[a], "--window")) {
      if (a + 1 >= argc) return usage();
      a++;
      t_win = strtod(argv[a], &end);
      if (*argv[a] == '\0' || *end != '\0' || !isfinite(t_win) || t_win < 0.0) {
        fprintf(stderr, "mjbench: --window needs a time >= 0, got '%s'\n", argv[a]);
        return 2;
      }
    } else {
      fprintf(stderr, "mjbench: unknown option '%s'\n", argv[a]);
      return usage();
    }
  }
  char err[1000] = "";
  mjModel *m = mj_loadXML(argv[1], NULL, err, (int)sizeof err);
  if (!m) {
    fprintf(stderr, "mjbench: %s: %s\n", argv[1], err);
    return 1;
  }
  mjData *d = mj_makeData(m);
  if (!d) {
    fprintf(stderr, "mjbench: mj_makeData failed\n");
    mj_deleteModel(m);
    return 1;
  }
  const double h = m->opt.timestep;
  long k0 = 0;  // first window step: (k0 + 1) * h > t_win
  while (k0 < steps && !((double)(k0 + 1) * h > t_win)) k0++;
  if (k0 >= steps) {
    fprintf(stderr, "mjbench: --window %g leaves no step (%ld steps of %g s end at t = %.17g)\n", t_win,
            steps, h, (double)steps * h);
    mj_deleteData(d);
    mj_deleteModel(m);
    return 2;
  }

  if (m->nkey > 0) mj_resetDataKeyframe(m, d, 0);
  int energy = (m->opt.enableflags & mjENBL_ENERGY) != 0;
  mj_forward(m, d);
  double e0 = d->energy[0] + d->energy[1];

  /* free bodies, floor geoms, masses */
  int nfree = 0;
  for (int j = 0; j < m->njnt; j++) nfree += m->jnt_type[j] == mjJNT_FREE;
  int *fb = calloc((size_t)nfree + 1, 3 * sizeof(int));  // body, qposadr, dofadr
  double *z0 = calloc((size_t)nfree + 1, sizeof(double));
  char *floor_geom = calloc((size_t)m->ngeom + 1, 1);
  if (!fb || !z0 || !floor_geom) {
    fprintf(stderr, "mjbench: out of memory\n");
    return 1;
  }
  for (int j = 0, i = 0; j < m->njnt; j++) {
    if (m->jnt_type[j] != mjJNT_FREE) continue;
    fb[3 * i] = m->jnt_bodyid[j];
    fb[3 * i + 1] = m->jnt_qposadr[j];
    fb[3 * i + 2] = m->jnt_dofadr[j];
    z0[i] = d->qpos[m->jnt_qposadr[j] + 2];
    i++;
  }
  int nfloor = 0;
  for (int g = 0; g < m->ngeom; g++) {
    const mjtNum *R = d->geom_xmat + 9 * g, *p = d->geom_xpos + 3 * g;
    /* z axis = third column of the row-major rotation matrix */
    if (m->geom_type[g] == mjGEOM_PLANE && m->geom_bodyid[g] == 0 && fabs(R[2]) < 1e-9 &&
        fabs(R[5]) < 1e-9 && fabs(R[8] - 1.0) < 1e-9 && fabs(p[2]) < 1e-12) {
      floor_geom[g] = 1;
      nfloor++;
    }
  }
  double mass = 0.0;
  for (int b = 1; b < m->nbody; b++) mass += m->body_mass[b];
  double gnorm = mju_norm3(m->opt.gravity);

  /* steps before the window: untimed, unmeasured */
  for (long s = 0; s < k0; s++) mj_step(m, d);

  double ncon = 0.0, iters = 0.0, wall = 0.0;
  double spd_sum = 0.0, spd_max = 0.0, depth_max = 0.0, floor_sum = 0.0;
  for (long s = k0; s < steps; s++) {
    double ta = now();
    mj_step(m, d);
    wall += now() - ta;
    ncon += d->ncon;
    iters += d->solver_iter;
    for (int i = 0; i < nfree; i++) {
      mjtNum vc[3], w[3];
      free_body_vel(m, d, fb[3 * i], fb[3 * i + 1], fb[3 * i + 2], vc, w);
      double sp = mju_norm3(vc);
      spd_sum += sp;
      if (sp > spd_max) spd_max = sp;
    }
    double fz = 0.0;
    for (int c = 0; c < d->ncon; c++) {
      const mjContact *con = d->contact + c;
      if (-con->dist > depth_max) depth_max = -con->dist;
      int f1 = floor_geom[con->geom1], f2 = floor_geom[con->geom2];
      if (f1 == f2) continue;  // not a floor contact (or floor-floor, impossible)
      mjtNum f[6];
      mj_contactForce(m, d, c, f);
      /* world force on geom2 = frame^T f (rows of frame: normal, tangents) */
      double z = f[0] * con->frame[2] + f[1] * con->frame[5] + f[2] * con->frame[8];
      fz += f1 ? z : -z;
    }
    floor_sum += fz;
  }
  long nwin = steps - k0;

  mj_forward(m, d);
  double e1 = d->energy[0] + d->energy[1];
  double drift = energy ? (e1 - e0) / fabs(e0) : (double)NAN;
  double drop = 0.0;
  for (int i = 0; i < nfree; i++) {
    double dz = z0[i] - d->qpos[fb[3 * i + 1] + 2];
    if (i == 0 || dz > drop) drop = dz;
  }
  static const int watch[] = {mjWARN_CONTACTFULL, mjWARN_CNSTRFULL, mjWARN_BADQACC,
                              mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_INERTIA};
  int bad = 0;
  for (size_t i = 0; i < sizeof watch / sizeof watch[0]; i++) {
    if (d->warning[watch[i]].number > 0) {
      fprintf(stderr, "mjbench: %s: MuJoCo warning %d raised %d times\n", argv[1], watch[i],
              d->warning[watch[i]].number);
      bad = 1;
    }
  }
  double ratio = (nfloor > 0 && mass > 0.0 && gnorm > 0.0)
                     ? floor_sum / (double)nwin / (mass * gnorm) : (double)NAN;
  double nb = nfree > 0 ? (double)nfree * (double)nwin : (double)NAN;
  printf("steps_per_second=%.6g mean_ncon=%.4g mean_solver_iter=%.4g energy_drift=%.3e"
         " ms_per_step=%.9g window_steps=%ld mean_speed=%.9g max_speed=%.9g max_depth=%.9g"
         " floor_ratio=%.9g max_drop=%.9g\n",
         (double)nwin / wall, ncon / (double)nwin, iters / (double)nwin, drift,
         1e3 * wall / (double)nwin, nwin, spd_sum / nb, nfree > 0 ? spd_max : (double)NAN,
         depth_max, ratio, nfree > 0 ? drop : (double)NAN);
  if (states) {
    for (int i = 0; i < nfree; i++) {
      const mjtNum *q = d->qpos + fb[3 * i + 1], *v = d->qvel + fb[3 * i + 2];
      mjtNum w[3];
      mju_rotVecQuat(w, v + 3, q + 3);
      printf("body %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
             i, q[0], q[1], q[2], q[3], q[4], q[5], q[6], v[0], v[1], v[2], w[0], w[1], w[2]);
    }
  }
  free(fb);
  free(z0);
  free(floor_geom);
  mj_deleteData(d);
  mj_deleteModel(m);
  return bad ? 3 : 0;
}
