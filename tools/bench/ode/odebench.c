/* odebench SCENE.yaml STEPS DT {quick|direct}: run the clutter scene written by
 * tools/gen_clutter.sh in ODE 0.16 and print one line
 *   steps_per_second=<x> mean_ncon=<y> rss_kb=<z> bodies=<n> mass_kg=<m>
 *   final_ke_J=<k> min_z_m=<z>
 * Bodies, masses (0.1 kg, uniform density), shapes and initial positions are
 * read from the YAML's `initial: {q: [...]}` and `geometry:` lines (the awk
 * rand() sequence of the generator cannot be replicated in C); planes from the
 * `static:` lines (normal . x = offset, ODE's dCreatePlane convention).
 * Contact: dContactApprox1 (pyramid friction, mu = 0.5) with a soft normal
 * equivalent to a spring k = 1e5 N/m and damper c = tau_d k, tau_d = 0.01 s:
 *   ERP = h k / (h k + c),  CFM = 1 / (h k + c)   (ODE manual, "Soft constraint").
 * quick = dWorldQuickStep with 20 iterations, direct = dWorldStep (Dantzig LCP).
 * Only the stepping loop is timed (CLOCK_MONOTONIC); rss_kb is ru_maxrss.
 * min_z_m is the lowest point of any body at the end (sphere: z - r; box: lowest
 * corner), so that a body sunk below the floor shows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <ode/ode.h>

#define MAXB 20000
#define MAXC 64
static const double K_N = 1.0e5, TAU_D = 0.01, MU = 0.5;

static dWorldID world;
static dJointGroupID cgroup;
static double erp, cfm;
static long ncon_step;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void near_cb(void *data, dGeomID a, dGeomID b) {
  (void)data;
  dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
  if (!ba && !bb) return;
  dContact c[MAXC];
  int n = dCollide(a, b, MAXC, &c[0].geom, (int)sizeof(dContact));
  for (int i = 0; i < n; i++) {
    c[i].surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
    c[i].surface.mu = MU;
    c[i].surface.soft_erp = erp;
    c[i].surface.soft_cfm = cfm;
    dJointID j = dJointCreateContact(world, cgroup, &c[i]);
    dJointAttach(j, ba, bb);
  }
  ncon_step += n;
}

int main(int argc, char **argv) {
  if (argc != 5 || (strcmp(argv[4], "quick") && strcmp(argv[4], "direct"))) {
    fprintf(stderr, "usage: odebench SCENE.yaml STEPS DT {quick|direct}\n");
    return 2;
  }
  long steps = strtol(argv[2], NULL, 10);
  double h = strtod(argv[3], NULL);
  if (steps <= 0 || !(h > 0)) {
    fprintf(stderr, "odebench: STEPS and DT must be positive\n");
    return 2;
  }
  int quick = strcmp(argv[4], "quick") == 0;
  FILE *f = fopen(argv[1], "r");
  if (!f) { perror(argv[1]); return 1; }
  dInitODE();
  world = dWorldCreate();
  dWorldSetGravity(world, 0, 0, -9.81);
  dWorldSetQuickStepNumIterations(world, 20);
  dSpaceID space = dHashSpaceCreate(0);
  cgroup = dJointGroupCreate(0);
  double c = TAU_D * K_N;
  erp = h * K_N / (h * K_N + c);
  cfm = 1.0 / (h * K_N + c);
  static dBodyID body[MAXB];
  static double rad[MAXB]; /* sphere radius, or <0: box of side -rad */
  int nb = 0;
  double q[3] = {0, 0, 0};
  char line[512];
  int in_static = 0;
  while (fgets(line, sizeof line, f)) {
    double x, y, z, nx, ny, nz, off, r;
    char *p;
    if (strncmp(line, "static:", 7) == 0) in_static = 1;
    if ((p = strstr(line, "initial: {q: [")) && sscanf(p + 14, "%lf, %lf, %lf", &x, &y, &z) == 3) {
      q[0] = x; q[1] = y; q[2] = z;
    } else if ((p = strstr(line, "shape: sphere, radius:")) && sscanf(p + 22, "%lf", &r) == 1) {
      if (nb >= MAXB) { fprintf(stderr, "odebench: too many bodies\n"); return 1; }
      dBodyID b = dBodyCreate(world);
      dMass m; dMassSetSphereTotal(&m, 0.1, r); dBodySetMass(b, &m);
      dBodySetPosition(b, q[0], q[1], q[2]);
      dGeomSetBody(dCreateSphere(space, r), b);
      body[nb] = b; rad[nb++] = r;
    } else if ((p = strstr(line, "shape: box, size: [")) && sscanf(p + 19, "%lf, %lf, %lf", &x, &y, &z) == 3) {
      if (nb >= MAXB) { fprintf(stderr, "odebench: too many bodies\n"); return 1; }
      dBodyID b = dBodyCreate(world);
      dMass m; dMassSetBoxTotal(&m, 0.1, x, y, z); dBodySetMass(b, &m);
      dBodySetPosition(b, q[0], q[1], q[2]);
      dGeomSetBody(dCreateBox(space, x, y, z), b);
      body[nb] = b; rad[nb++] = -x;
    } else if (in_static && (p = strstr(line, "normal: [")) &&
               sscanf(p + 9, "%lf, %lf, %lf], offset: %lf", &nx, &ny, &nz, &off) == 4) {
      dCreatePlane(space, nx, ny, nz, off);
    }
  }
  fclose(f);
  if (nb == 0) { fprintf(stderr, "odebench: %s: no bodies\n", argv[1]); return 1; }
  double mass = 0;
  for (int i = 0; i < nb; i++) { dMass m; dBodyGetMass(body[i], &m); mass += m.mass; }
  long ncon = 0;
  double t0 = now();
  for (long s = 0; s < steps; s++) {
    ncon_step = 0;
    dSpaceCollide(space, NULL, near_cb);
    if (quick) dWorldQuickStep(world, h); else dWorldStep(world, h);
    dJointGroupEmpty(cgroup);
    ncon += ncon_step;
  }
  double t1 = now();
  double ke = 0, minz = INFINITY;
  for (int i = 0; i < nb; i++) {
    dMass m; dBodyGetMass(body[i], &m);
    const dReal *v = dBodyGetLinearVel(body[i]), *w = dBodyGetAngularVel(body[i]);
    const dReal *R = dBodyGetRotation(body[i]), *p = dBodyGetPosition(body[i]);
    ke += 0.5 * m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    /* world-frame inertia: I_w = R I R^T; rotational KE = 0.5 w . I_w w */
    double wl[3];
    for (int a = 0; a < 3; a++) wl[a] = R[0 * 4 + a] * w[0] + R[1 * 4 + a] * w[1] + R[2 * 4 + a] * w[2];
    for (int a = 0; a < 3; a++)
      for (int bq = 0; bq < 3; bq++) ke += 0.5 * wl[a] * m.I[a * 4 + bq] * wl[bq];
    double low;
    if (rad[i] > 0) low = p[2] - rad[i];
    else {
      double hs = -0.5 * rad[i];
      low = p[2] - hs * (fabs(R[8]) + fabs(R[9]) + fabs(R[10]));
    }
    if (low < minz) minz = low;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("steps_per_second=%.1f mean_ncon=%.2f rss_kb=%ld bodies=%d mass_kg=%.4f final_ke_J=%.3e min_z_m=%.5f\n",
         (double)steps / (t1 - t0), (double)ncon / (double)steps, ru.ru_maxrss, nb, mass, ke, minz);
  dJointGroupDestroy(cgroup);
  dSpaceDestroy(space);
  dWorldDestroy(world);
  dCloseODE();
  return 0;
}
