/* mjbench MODEL.xml STEPS: time STEPS calls of mj_step on an MJCF model and
 * print one line
 *   steps_per_second=<x> mean_ncon=<y> mean_solver_iter=<z> energy_drift=<rel>
 * The model's keyframe 0 (if any) is the initial state.  Only the stepping
 * loop is timed (CLOCK_MONOTONIC).  energy_drift is (E_end - E_0) / |E_0| with
 * E = potential + kinetic from MuJoCo's mj_energyPos/mj_energyVel, evaluated by
 * mj_forward before and after the loop; it is "nan" unless the model enables
 * energy (<flag energy="enable"/>, i.e. mjENBL_ENERGY), so that models without
 * it are timed without the energy computation.  mean_ncon is the mean of
 * d->ncon after each step, mean_solver_iter the mean of d->solver_iter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <mujoco/mujoco.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: mjbench MODEL.xml STEPS\n");
    return 2;
  }
  char *end = NULL;
  long steps = strtol(argv[2], &end, 10);
  if (*argv[2] == '\0' || *end != '\0' || steps <= 0) {
    fprintf(stderr, "mjbench: STEPS must be a positive integer, got '%s'\n", argv[2]);
    return 2;
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
  if (m->nkey > 0) mj_resetDataKeyframe(m, d, 0);
  int energy = (m->opt.enableflags & mjENBL_ENERGY) != 0;
  mj_forward(m, d);
  double e0 = d->energy[0] + d->energy[1];

  double ncon = 0.0, iters = 0.0;
  double t0 = now();
  for (long s = 0; s < steps; s++) {
    mj_step(m, d);
    ncon += d->ncon;
    iters += d->solver_iter;
  }
  double t1 = now();

  mj_forward(m, d);
  double e1 = d->energy[0] + d->energy[1];
  double drift = energy ? (e1 - e0) / fabs(e0) : (double)NAN;
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
  printf("steps_per_second=%.6g mean_ncon=%.4g mean_solver_iter=%.4g energy_drift=%.3e\n",
         (double)steps / (t1 - t0), ncon / (double)steps, iters / (double)steps, drift);
  mj_deleteData(d);
  mj_deleteModel(m);
  return bad ? 3 : 0;
}
