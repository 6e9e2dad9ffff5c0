/* MuJoCo's contact parameters (geom solref, solimp) translated onto simc's
 * contact law (src/scene/mjcf.c, contact_law), against MuJoCo 2.2.2 itself
 * (Debian libmujoco-dev) on the same files: a sphere and a box of 1 kg
 * dropped flat on a plane from 0.25 m, at dt = 1 ms, 1.5 s, for each solref.
 * Compared, from each run's own trajectory:
 *   - the resting depth: the mean penetration over the last 0.3 s (MuJoCo's
 *     follows from solref and solimp; the translation gives the spring that
 *     rests there under the body's weight);
 *   - the rebound: the highest point after the deepest point of the first
 *     impact, above the resting height (the damping ratio's restitution).
 * simc runs under its default `lagged` law (Hunt-Crossley: the damping
 * matched at rest only) and under `sap` (Kelvin-Voigt: MuJoCo's linear
 * damper).  The tolerances are the measured agreement with a margin; each
 * test prints its figures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mujoco/mujoco.h>

#include "harness.h"
#include "integrator/integrator.h"
#include "scene/scene.h"

static const double DT = 1e-3, T = 1.5, H0 = 0.25; /* s, s, m: the body's lowest point at the start */
static const double R = 0.05;                       /* m: sphere radius, box half size */

typedef struct run {
  double rest;    /* m: mean penetration over the last 0.3 s */
  double rebound; /* m: highest point after the first impact's deepest, above the resting height */
  double deepest; /* m: the first impact's deepest penetration */
} run;

/* the measures of a trajectory z[0..n) of the body's centre */
static run measure(const double* z, int n) {
  run r = {0, 0, 0};
  const int last = (int)lround(0.3 / DT);
  for (int i = n - last; i < n; i++) r.rest += (R - z[i]) / last;
  int i = 0;
  while (i < n && z[i] > R) i++; /* the first contact */
  int deep = i;
  while (i + 1 < n && z[i + 1] <= z[i]) deep = ++i; /* its deepest point */
  r.deepest = R - z[deep];
  double top = -INFINITY;
  for (int k = deep; k < n; k++) top = fmax(top, z[k]);
  r.rebound = top - (R - r.rest);
  return r;
}

static int write_model_with(const char* path, const char* shape, const char* geom_defaults) {
  FILE* f = fopen(path, "w");
  if (!f) return 0;
  fprintf(f,
          "<mujoco model=\"drop\">\n"
          "  <option timestep=\"%g\"/>\n"
          "  <default><geom %s/></default>\n"
          "  <worldbody>\n"
          "    <geom name=\"floor\" type=\"plane\" size=\"2 2 0.1\"/>\n"
          "    <body name=\"drop\" pos=\"0 0 %.17g\">\n"
          "      <freejoint/>\n"
          "      <geom type=\"%s\" size=\"%g %g %g\" mass=\"1\"/>\n"
          "    </body>\n"
          "  </worldbody>\n"
          "</mujoco>\n",
          DT, geom_defaults, H0 + R, shape, R, R, R);
  return fclose(f) == 0;
}

static int write_model(const char* path, const char* shape, const char* solref) {
  char attrs[128];
  snprintf(attrs, sizeof attrs, "solref=\"%s\"", solref);
  return write_model_with(path, shape, attrs);
}

static int run_mujoco(const char* path, double* z, int n) {
  char err[1000] = "";
  mjModel* m = mj_loadXML(path, NULL, err, sizeof err);
  if (!m) {
    printf("  MuJoCo cannot load %s: %s\n", path, err);
    return 0;
  }
  mjData* d = mj_makeData(m);
  for (int i = 0; i < n; i++) {
    mj_step(m, d);
    z[i] = d->qpos[2];
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return 1;
}

/* simc's laws: the default (lagged, Hunt-Crossley), sap (Kelvin-Voigt, as
 * MuJoCo's), and sap with its spring at mid-step (the midpoint rule, every
 * contact at the scheme's theta: an undamped spring keeps its energy) */
static const char* const LAWS[3][3] = {
    {"contact.model=lagged", NULL, NULL},
    {"contact.model=sap", NULL, NULL},
    {"contact.model=sap", "integrator.scheme=midpoint", "contact.theta=scheme"},
};
static const char* const LAW_NAMES[3] = {"lagged", "sap", "sap, midpoint"};

static int run_simc(const char* path, int law, double* z, int n) {
  int nsets = 0;
  while (nsets < 3 && LAWS[law][nsets]) nsets++;
  sc_model* m = NULL;
  sc_data* d = NULL;
  sc_error err;
  char buf[1200];
  int ok = sc_scene_load(path, LAWS[law], nsets, &m, &err) == SC_OK && sc_data_create(m, &d, &err) == SC_OK &&
           sc_sim_prepare(m, d, &err) == SC_OK && sc_forward(m, d, &err) == SC_OK;
  for (int i = 0; ok && i < n; i++) {
    ok = sc_step(m, d, &err) == SC_OK;
    z[i] = d->q[2];
  }
  if (!ok) {
    sc_error_format(&err, buf, sizeof buf);
    printf("  simc on %s: %s\n", path, buf);
  }
  sc_data_free(d);
  sc_model_free(m);
  return ok;
}

/* one case: the errors of simc (each law) against MuJoCo, asserted within
 * rest_tol (resting depth, relative) and bounce_tol[law] (rebound, relative
 * to MuJoCo's, or in drop heights when MuJoCo's is below 1e-3 of it; a
 * negative tolerance: printed, not asserted) */
static void drop_case(const char* shape, const char* solref, double rest_tol, const double bounce_tol[3]) {
  char dir[] = "/tmp/simc_mjcf_contact_XXXXXX", path[128];
  ENSURE(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/drop.xml", dir);
  ENSURE(write_model(path, shape, solref));
  const int n = (int)lround(T / DT);
  double* z = calloc((size_t)n, sizeof *z);
  ENSURE(z != NULL);
  if (z && run_mujoco(path, z, n)) {
    const run mj = measure(z, n);
    printf("  %s solref %s: MuJoCo rests %.4g mm deep, deepest %.4g mm, rebound %.4g mm\n", shape, solref,
           1e3 * mj.rest, 1e3 * mj.deepest, 1e3 * mj.rebound);
    for (int k = 0; k < 3; k++) {
      if (!run_simc(path, k, z, n)) {
        ENSURE(0);
        continue;
      }
      const run s = measure(z, n);
      const double erest = fabs(s.rest - mj.rest) / mj.rest;
      const int small = mj.rebound < 1e-3 * H0;
      const double ebounce = small ? fabs(s.rebound - mj.rebound) / H0 : fabs(s.rebound - mj.rebound) / mj.rebound;
      const double tol = bounce_tol[k];
      printf("    simc %-13s rests %.4g mm deep (rel. error %.2g, tolerance %g), deepest %.4g mm, rebound %.4g mm "
             "(%s error %.2g, tolerance %g)\n",
             LAW_NAMES[k], 1e3 * s.rest, erest, rest_tol, 1e3 * s.deepest, 1e3 * s.rebound,
             small ? "abs./drop height" : "rel.", ebounce, tol);
      ENSURE(erest <= rest_tol);
      if (tol >= 0) ENSURE(ebounce <= tol);
    }
  }
  free(z);
  remove(path);
  rmdir(dir);
}

/* margin and gap: MuJoCo's contact acts below the distance margin - gap
 * (the pair's: the larger of the two geoms' each, here one class for both),
 * so the sphere rests that far higher; simc's sphere is that much larger.
 * The resting height of the centre, the mean over the last 0.3 s, within
 * 1e-6 m (measured: below 1e-9 m) */
static void test_sphere_margin_gap(void) {
  char dir[] = "/tmp/simc_mjcf_contact_XXXXXX", path[128];
  ENSURE(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/drop.xml", dir);
  ENSURE(write_model_with(path, "sphere", "solref=\"0.02 1\" margin=\"0.01\" gap=\"0.004\""));
  const int n = (int)lround(T / DT), last = (int)lround(0.3 / DT);
  double* z = calloc((size_t)n, sizeof *z);
  double zm = 0, zs = 0;
  ENSURE(z != NULL);
  if (z && run_mujoco(path, z, n)) {
    for (int i = n - last; i < n; i++) zm += z[i] / last;
    if (run_simc(path, 0, z, n)) {
      for (int i = n - last; i < n; i++) zs += z[i] / last;
      printf("  resting height of the centre: MuJoCo %.6f m, simc %.6f m (radius %g m, margin - gap 0.006 m; "
             "difference %.3g m, tolerance 1e-6)\n", zm, zs, R, fabs(zs - zm));
      ENSURE_NEAR(zs, zm, 1e-6);
      ENSURE(zm > R + 0.005); /* MuJoCo's contact acts at the distance margin - gap */
    } else {
      ENSURE(0);
    }
  }
  free(z);
  remove(path);
  rmdir(dir);
}

/* MuJoCo's humanoid (its solref 0.015 1, solimp 0.9 0.99 0.003, on every
 * geom through a class) dropped on its floor from its own pose, 4 s at
 * dt = 1 ms in both: the deepest contact in the last second (at rest) and
 * over the run (the impact).  simc's per-shape spring takes each body's own
 * mass where MuJoCo's contact sees the articulated system's, so the depths
 * differ by a factor (measured: rest 2.14 mm against 0.70 mm, impact
 * 8.69 mm against 17.0 mm, the translated model's own options; with
 * MuJoCo's friction rule the body comes to rest crouched on a few geoms,
 * each carrying more than its own body's weight, which the per-shape
 * spring does not know: 1.73 mm when it lay flat, frictionless); asserted
 * within 4 times MuJoCo's either way */
static void test_humanoid_drop_depths(void) {
  const char* path = "/usr/share/mujoco/model/humanoid/humanoid.xml";
  if (access(path, R_OK) != 0) {
    printf("  skipped: %s is missing (Debian package libmujoco-samples)\n", path);
    return;
  }
  const double dt = 1e-3, T4 = 4;
  const long n = lround(T4 / dt);
  double mj_rest = 0, mj_deep = 0, sc_rest = 0, sc_deep = 0;
  char err[1000] = "";
  mjModel* mm = mj_loadXML(path, NULL, err, sizeof err);
  ENSURE(mm != NULL);
  if (mm) {
    mm->opt.timestep = dt;
    mjData* md = mj_makeData(mm);
    for (long i = 0; i < n; i++) {
      mj_step(mm, md);
      for (int k = 0; k < md->ncon; k++) {
        mj_deep = fmax(mj_deep, -md->contact[k].dist);
        if (md->time > T4 - 1) mj_rest = fmax(mj_rest, -md->contact[k].dist);
      }
    }
    mj_deleteData(md);
    mj_deleteModel(mm);
  }
  const char* sets[] = {"time.step=0.001"};
  sc_model* m = NULL;
  sc_data* d = NULL;
  sc_error e;
  int ok = sc_scene_load(path, sets, 1, &m, &e) == SC_OK && sc_data_create(m, &d, &e) == SC_OK &&
           sc_sim_prepare(m, d, &e) == SC_OK && sc_forward(m, d, &e) == SC_OK;
  for (long i = 0; ok && i < n; i++) {
    ok = sc_step(m, d, &e) == SC_OK;
    for (int k = 0; ok && k < d->ncon; k++) {
      sc_deep = fmax(sc_deep, -d->contact[k].dist);
      if (d->time > T4 - 1) sc_rest = fmax(sc_rest, -d->contact[k].dist);
    }
  }
  if (!ok) {
    char buf[1200];
    sc_error_format(&e, buf, sizeof buf);
    printf("  simc on %s: %s\n", path, buf);
  }
  ENSURE(ok);
  sc_data_free(d);
  sc_model_free(m);
  printf("  deepest contact at rest: MuJoCo %.3g mm, simc %.3g mm; in the impact: MuJoCo %.3g mm, simc %.3g mm\n",
         1e3 * mj_rest, 1e3 * sc_rest, 1e3 * mj_deep, 1e3 * sc_deep);
  ENSURE(sc_rest < 4 * mj_rest && mj_rest < 4 * sc_rest);
  ENSURE(sc_deep < 4 * mj_deep && mj_deep < 4 * sc_deep);
}

/* critically damped (MuJoCo's default law): no rebound in either */
static const double CRITICAL[3] = {1e-3, 1e-3, 1e-3};
/* under-damped: MuJoCo bounces; only sap at mid-step keeps the spring's
 * energy through an impact of a few steps (the others' dissipation, the
 * Hunt-Crossley law's at any speed above 1/d and theta = 1's numerical one,
 * take the bounce out) */
static const double UNDERDAMPED[3] = {-1, -1, 0.6};
/* a box's four corner springs, each resting 1.7 um deep, are too stiff for
 * the step: its bounce is printed, not asserted (1.0 mm against 21.2 mm) */
static const double UNDERDAMPED_BOX[3] = {-1, -1, -1};

static void test_sphere_solref_critical(void) { drop_case("sphere", "0.02 1", 1e-3, CRITICAL); }
static void test_sphere_solref_stiff_underdamped(void) { drop_case("sphere", "0.005 0.5", 1e-3, UNDERDAMPED); }
static void test_box_solref_critical(void) { drop_case("box", "0.02 1", 1e-3, CRITICAL); }
static void test_box_solref_stiff_underdamped(void) { drop_case("box", "0.005 0.5", 1e-3, UNDERDAMPED_BOX); }
/* the direct form, -stiffness -damping (per unit mass): damping ratio
 * 100 / (2 sqrt(20000)) = 0.35, a slower spring (rest 54 um) that sap
 * resolves at either theta */
static const double DIRECT[3] = {-1, 0.35, 0.35};
static void test_sphere_solref_direct(void) { drop_case("sphere", "-20000 -100", 1e-3, DIRECT); }

/* Geom priority (MuJoCo 2.2.2): a contact takes the friction of the geom of
 * higher priority, and of equal priorities the larger.  Two 0.1 m boxes of
 * 1 kg and friction 0.1 rest on a 15 degree slope of friction 0.5; box A
 * has priority 1, so its pair's friction is its own 0.1 and it slides, at
 * a = g (sin 15 - 0.1 cos 15) = 1.591 m/s^2 (the closed form of a block on
 * an incline); box B has the slope's priority, so its pair takes the larger
 * 0.5 > tan 15 = 0.268 and it sticks.  Their masks keep the boxes from
 * touching each other, so one coefficient per shape gives both pairs
 * MuJoCo's (simc writes the slope 0.1, A 0.1, B 0.5: nothing is
 * approximated).  simc (default law) and MuJoCo (elliptic cone, so that
 * sliding friction is mu N in any direction) each run 1 s on the same file;
 * A's travel down the slope against 0.5 a t^2 = 0.796 m within 1 % (simc)
 * and 3 % (MuJoCo, whose soft friction lets a block creep), B's under 1 mm.
 * Before priority was translated the model was refused, and with
 * --allow-unsupported box A stuck (the larger friction, 0.5). */
/* file path: the model; travel down the slope (unit vector down) of the
 * free bodies 0 and 1 after Tp seconds, in simc (s) and MuJoCo 2.2.2 (mj);
 * 0 when either cannot run it */
static int slope_travel(const char* path, const double down[3], double Tp, double s[2], double mj[2]) {
  const int n = (int)lround(Tp / DT);
  sc_model* m = NULL;
  sc_data* d = NULL;
  sc_error err;
  int ok = sc_scene_load(path, NULL, 0, &m, &err) == SC_OK;
  if (ok) ENSURE(!m->approximated || !strstr(m->approximated, "priority"));
  ok = ok && sc_data_create(m, &d, &err) == SC_OK && sc_sim_prepare(m, d, &err) == SC_OK &&
       sc_forward(m, d, &err) == SC_OK;
  double x0[14];
  if (ok) memcpy(x0, d->q, sizeof x0);
  for (int i = 0; ok && i < n; i++) ok = sc_step(m, d, &err) == SC_OK;
  for (int b = 0; ok && b < 2; b++) {
    s[b] = 0;
    for (int k = 0; k < 3; k++) s[b] += (d->q[7 * b + k] - x0[7 * b + k]) * down[k];
  }
  sc_data_free(d);
  sc_model_free(m);
  char e[1000] = "";
  mjModel* mm = ok ? mj_loadXML(path, NULL, e, sizeof e) : NULL;
  if (!mm) return 0;
  mjData* md = mj_makeData(mm);
  mj_forward(mm, md);
  memcpy(x0, md->qpos, sizeof x0);
  for (int i = 0; i < n; i++) mj_step(mm, md);
  for (int b = 0; b < 2; b++) {
    mj[b] = 0;
    for (int k = 0; k < 3; k++) mj[b] += (md->qpos[7 * b + k] - x0[7 * b + k]) * down[k];
  }
  mj_deleteData(md);
  mj_deleteModel(mm);
  return 1;
}

/* Two 1 kg boxes, a (attributes ga) and b (gb), resting on a 15 degree
 * plane of friction slope_mu in MuJoCo's file at path; their travel down
 * the slope over Tp s in simc and in MuJoCo (slope_travel) into s, mj */
static int slope_pair(const char* path, const char* model, double slope_mu, const char* ga,
                      const char* gb, double Tp, double s[2], double mj[2]) {
  const double th = 15 * 3.14159265358979323846 / 180, g = 9.81;
  const double nrm[3] = {sin(th), 0, cos(th)}, down[3] = {cos(th), 0, -sin(th)};
  FILE* f = fopen(path, "w");
  if (!f) return 0;
  fprintf(f,
          "<mujoco model=\"%s\">\n"
          "  <option timestep=\"%g\" gravity=\"0 0 %g\" cone=\"elliptic\"/>\n"
          "  <worldbody>\n"
          "    <geom name=\"slope\" type=\"plane\" size=\"5 5 0.1\" euler=\"0 15 0\" friction=\"%g\" contype=\"3\" conaffinity=\"3\"/>\n"
          "    <body name=\"a\" pos=\"%.17g 0.5 %.17g\" euler=\"0 15 0\"><freejoint/>\n"
          "      <geom type=\"box\" size=\"0.05 0.05 0.05\" mass=\"1\" %s contype=\"1\" conaffinity=\"1\"/></body>\n"
          "    <body name=\"b\" pos=\"%.17g -0.5 %.17g\" euler=\"0 15 0\"><freejoint/>\n"
          "      <geom type=\"box\" size=\"0.05 0.05 0.05\" mass=\"1\" %s contype=\"2\" conaffinity=\"2\"/></body>\n"
          "  </worldbody>\n"
          "</mujoco>\n",
          model, DT, -g, slope_mu, 0.05 * nrm[0], 0.05 * nrm[2], ga, 0.05 * nrm[0], 0.05 * nrm[2], gb);
  const int ok = fclose(f) == 0 && slope_travel(path, down, Tp, s, mj);
  remove(path);
  return ok;
}

static void test_priority_friction_slope(void) {
  const double th = 15 * 3.14159265358979323846 / 180, g = 9.81, Tp = 1.0;
  double s[2] = {NAN, NAN}, mj[2] = {NAN, NAN};
  ENSURE(slope_pair("/tmp/simc_test_priority.xml", "priority", 0.5, "friction=\"0.1\" priority=\"1\"",
                    "friction=\"0.1\"", Tp, s, mj));
  const double want = 0.5 * g * (sin(th) - 0.1 * cos(th)) * Tp * Tp;
  printf("  box A (priority 1) slid %.5f m in simc, %.5f m in MuJoCo, closed form %.5f m; box B %.2e m, %.2e m\n",
         s[0], mj[0], want, s[1], mj[1]);
  ENSURE(fabs(s[0] - want) < 0.01 * want);
  ENSURE(fabs(mj[0] - want) < 0.03 * want);
  ENSURE(fabs(s[1]) < 1e-3 && fabs(mj[1]) < 1e-3);
}

/* Of equal priority, MuJoCo's pair takes the larger condim and the larger
 * friction, that of a condim 1 geom included: a condim 1 box of friction 1
 * on a slope of friction 0.15 (15 degrees, tan 15 = 0.268) sticks in MuJoCo
 * (condim 3, friction 1), where giving the condim 1 geom no friction (the
 * translation before) left the slope's 0.15 and slid it 0.5 g (sin 15 -
 * 0.15 cos 15) t^2 = 0.558 m in 1 s.  A second box (condim 3, friction
 * 0.15, masks apart from the first) slides that much in both.  Asserted:
 * the first moves under 1 mm in both, the second within 1 % (simc) and 3 %
 * (MuJoCo) of the closed form. */
static void test_condim1_friction_slope(void) {
  const double th = 15 * 3.14159265358979323846 / 180, g = 9.81, Tp = 1.0;
  double s[2] = {NAN, NAN}, mj[2] = {NAN, NAN};
  ENSURE(slope_pair("/tmp/simc_test_condim1.xml", "condim1", 0.15, "condim=\"1\"",
                    "friction=\"0.15\"", Tp, s, mj));
  const double want = 0.5 * g * (sin(th) - 0.15 * cos(th)) * Tp * Tp;
  printf("  condim 1 box moved %.2e m in simc, %.2e m in MuJoCo; condim 3 box slid %.5f m, %.5f m, closed form %.5f m\n",
         s[0], mj[0], s[1], mj[1], want);
  ENSURE(fabs(s[0]) < 1e-3 && fabs(mj[0]) < 1e-3);
  ENSURE(fabs(s[1] - want) < 0.01 * want);
  ENSURE(fabs(mj[1] - want) < 0.03 * want);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_sphere_solref_critical);
  RUN(test_sphere_solref_stiff_underdamped);
  RUN(test_box_solref_critical);
  RUN(test_box_solref_stiff_underdamped);
  RUN(test_sphere_solref_direct);
  RUN(test_sphere_margin_gap);
  RUN(test_humanoid_drop_depths);
  RUN(test_priority_friction_slope);
  RUN(test_condim1_friction_slope);
  return TEST_END();
}
