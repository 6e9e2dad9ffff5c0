/* mjinfo MODEL.xml: the static facts of an MJCF model that can be compared
 * with the simc scene it was converted from, after mj_forward at keyframe 0
 * (if any):
 *   nbody (excluding world) nq nv ngeom total_mass potential kinetic
 *   inertia_trace (sum over bodies of the principal inertia traces) com_z
 *   (height of the system's centre of mass).  potential is MuJoCo's
 *   mj_energyPos value (gravity only here: sum of -m g.x_com). */
#include <stdio.h>

#include <mujoco/mujoco.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mjinfo MODEL.xml\n");
    return 2;
  }
  char err[1000] = "";
  mjModel *m = mj_loadXML(argv[1], NULL, err, (int)sizeof err);
  if (!m) {
    fprintf(stderr, "mjinfo: %s: %s\n", argv[1], err);
    return 1;
  }
  mjData *d = mj_makeData(m);
  if (!d) {
    fprintf(stderr, "mjinfo: mj_makeData failed\n");
    mj_deleteModel(m);
    return 1;
  }
  if (m->nkey > 0) mj_resetDataKeyframe(m, d, 0);
  m->opt.enableflags |= mjENBL_ENERGY;
  mj_forward(m, d);
  double trace = 0.0, mz = 0.0, mass = mj_getTotalmass(m);
  for (int b = 1; b < m->nbody; b++) {
    trace += m->body_inertia[3 * b] + m->body_inertia[3 * b + 1] + m->body_inertia[3 * b + 2];
    mz += m->body_mass[b] * d->xipos[3 * b + 2];
  }
  printf("nbody=%d nq=%d nv=%d ngeom=%d total_mass=%.12g potential=%.12g kinetic=%.12g "
         "inertia_trace=%.12g com_z=%.12g\n",
         m->nbody - 1, m->nq, m->nv, m->ngeom, mass, d->energy[0], d->energy[1], trace,
         mz / mass);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
