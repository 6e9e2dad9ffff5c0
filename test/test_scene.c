/* Scene loader: model fields against hand-computed values, solid inertia
 * against quadrature of the solid, overrides, located errors, round trip,
 * contact filtering (masks and excluded pairs) against the rule by hand. */
#include "harness.h"
#include "integrator/integrator.h"
#include "scene/scene.h"
#include "spatial/spatial.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define PI 3.14159265358979323846

static sc_model* load(const char* text, const char* const* sets, int nsets) {
  sc_model* m = NULL;
  sc_error err;
  sc_status st = sc_scene_load_string(text, "t.yaml", sets, nsets, &m, &err);
  if (st != SC_OK) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    printf("  unexpected load error: %s\n", buf);
  }
  return m;
}

/* the formatted error of a load that must fail */
static int load_error(const char* text, const char* const* sets, int nsets, char* buf, size_t n) {
  sc_model* m = NULL;
  sc_error err;
  sc_status st = sc_scene_load_string(text, "t.yaml", sets, nsets, &m, &err);
  if (st == SC_OK) {
    sc_model_free(m);
    snprintf(buf, n, "(loaded)");
    return 0;
  }
  sc_error_format(&err, buf, n);
  return st;
}

static int starts_with(const char* s, const char* p) { return strncmp(s, p, strlen(p)) == 0; }

#define ENSURE_PREFIX(s, p)                                             \
  do {                                                                  \
    if (!starts_with((s), (p))) printf("  got: %s\n  want: %s...\n", (s), (p)); \
    ENSURE(starts_with((s), (p)));                                      \
  } while (0)

static const char* CHAIN =
    "simc: 1\n"
    "time: {step: 0.001, duration: 1}\n"
    "bodies:\n"
    "  - name: hand\n"           /* child listed before its parent */
    "    parent: arm\n"
    "    joint: {type: ball}\n"
    "    mass: 0.5\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "    initial: {q: [2, 0, 0, 0], v: [0.1, 0.2, 0.3]}\n"
    "  - name: base\n"
    "    joint: {type: free}\n"
    "    mass: 2\n"
    "    inertia: {ixx: 0.1, iyy: 0.2, izz: 0.25, ixy: 0.01}\n"
    "    initial: {q: [1, 2, 3, 0, 0, 0, 3]}\n"
    "  - name: arm\n"
    "    parent: base\n"
    "    joint: {type: revolute, axis: [0, 3, 4], origin: {position: [0.1, 0.2, 0.3], rpy: [0.1, 0.2, 0.3]}}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "    initial: {q: [0.7], v: [-1]}\n"
    "  - name: slider\n"
    "    joint: {type: prismatic, axis: [1, 0, 0]}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "  - name: plate\n"
    "    parent: slider\n"
    "    joint: {type: fixed}\n"
    "  - name: puck\n"
    "    joint: {type: planar}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n";

/* counts, topological order (file order, a body moved after its parent:
 * base, arm, slider, plate, puck, hand), q/v addresses by hand: base (free
 * 7/6), arm (1/1), slider (1/1), plate (0/0), puck (3/3), hand (ball 4/3) */
static void test_counts_order_and_addresses(void) {
  sc_model* m = load(CHAIN, NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  ENSURE(m->nbody == 7);
  ENSURE(m->njnt == 6);
  ENSURE(m->nq == 7 + 1 + 3 + 1 + 0 + 4);
  ENSURE(m->nv == 6 + 1 + 3 + 1 + 0 + 3);
  const char* order[] = {"world", "base", "arm", "slider", "plate", "puck", "hand"};
  const int parent[] = {-1, 0, 1, 0, 3, 0, 2};
  const int qadr[] = {0, 7, 8, 9, 9, 12};
  const int vadr[] = {0, 6, 7, 8, 8, 11};
  for (int b = 0; b < 7; b++) {
    ENSURE(strcmp(m->body_name[b], order[b]) == 0);
    ENSURE(m->body_parent[b] == parent[b]);
    ENSURE(b == 0 || m->body_parent[b] < b);
  }
  for (int j = 0; j < 6; j++) {
    ENSURE(m->jnt_qadr[j] == qadr[j]);
    ENSURE(m->jnt_vadr[j] == vadr[j]);
  }
  ENSURE(m->jnt_type[3] == SC_JOINT_FIXED);
  ENSURE(m->body_mass[4] == 0);
  ENSURE(m->ntree == 3);
  /* initial state: free quaternion [0,0,0,3] normalized, ball [2,0,0,0] normalized */
  const double q[] = {1, 2, 3, 0, 0, 0, 1, 0.7, 0, 0, 0, 0, 1, 0, 0, 0};
  for (int i = 0; i < m->nq; i++) ENSURE_NEAR(m->qpos0[i], q[i], 1e-15);
  const double v[] = {0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0.1, 0.2, 0.3};
  for (int i = 0; i < m->nv; i++) ENSURE_NEAR(m->qvel0[i], v[i], 1e-15);
  /* axis normalized: [0, 3, 4] / 5 */
  ENSURE_NEAR(m->jnt_axis[3 * 1 + 1], 0.6, 1e-15);
  ENSURE_NEAR(m->jnt_axis[3 * 1 + 2], 0.8, 1e-15);
  ENSURE_NEAR(m->jnt_axis[3 * 2 + 0], 1.0, 0);
  /* default axis z */
  ENSURE_NEAR(m->jnt_axis[3 * 4 + 2], 1.0, 0);
  /* explicit inertia with a product term is stored symmetric */
  ENSURE_NEAR(m->body_inertia[9 * 1 + 1], 0.01, 0);
  ENSURE_NEAR(m->body_inertia[9 * 1 + 3], 0.01, 0);
  ENSURE_NEAR(m->body_inertia[9 * 1 + 8], 0.25, 0);
  ENSURE(strcmp(m->name, "t") == 0);
  ENSURE(strcmp(m->scene_path, "t.yaml") == 0);
  ENSURE(m->opt.scheme == SC_SCHEME_MIDPOINT && m->opt.theta_q == 0.5);
  sc_model_free(m);
}

/* joint origin: R = Rz(y) Ry(p) Rx(r), written out by hand */
static void test_rpy_origin(void) {
  sc_model* m = load(CHAIN, NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  double r = 0.1, p = 0.2, y = 0.3;
  double cr = cos(r), sr = sin(r), cp = cos(p), sp = sin(p), cy = cos(y), sy = sin(y);
  double R[9] = {cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
                 sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
                 -sp,     cp * sr,                cp * cr};
  int j = 1; /* arm */
  for (int i = 0; i < 9; i++) ENSURE_NEAR(m->jnt_rot[9 * j + i], R[i], 1e-15);
  ENSURE_NEAR(m->jnt_pos[3 * j + 0], 0.1, 0);
  ENSURE_NEAR(m->jnt_pos[3 * j + 1], 0.2, 0);
  ENSURE_NEAR(m->jnt_pos[3 * j + 2], 0.3, 0);
  /* default origin is the identity */
  for (int i = 0; i < 9; i++) ENSURE_NEAR(m->jnt_rot[9 * 0 + i], (i % 4 == 0) ? 1.0 : 0.0, 0);
  sc_model_free(m);
}

/* plane n.p = d with n = (1, 1, 0)/sqrt2, d = 2: a point is d n; the frame's
 * third column is n and the frame is a rotation */
static void test_plane_pose(void) {
  const char* s =
      "simc: 1\ntime: {step: 0.001, duration: 1}\n"
      "static:\n"
      "  - {shape: plane, normal: [1, 1, 0], offset: 2}\n"
      "  - {shape: plane}\n";
  sc_model* m = load(s, NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  ENSURE(m->ngeom == 2 && m->nbody == 1 && m->nq == 0);
  double h = sqrt(0.5);
  const double* R = m->geom_rot;
  ENSURE_NEAR(m->geom_pos[0], 2 * h, 1e-15);
  ENSURE_NEAR(m->geom_pos[1], 2 * h, 1e-15);
  ENSURE_NEAR(m->geom_pos[2], 0, 1e-15);
  ENSURE_NEAR(R[2], h, 1e-15);
  ENSURE_NEAR(R[5], h, 1e-15);
  ENSURE_NEAR(R[8], 0, 1e-15);
  double RtR[9], det;
  sc_sp_mat3_Tmul(RtR, R, R);
  for (int i = 0; i < 9; i++) ENSURE_NEAR(RtR[i], (i % 4 == 0) ? 1.0 : 0.0, 1e-15);
  det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
        R[2] * (R[3] * R[7] - R[4] * R[6]);
  ENSURE_NEAR(det, 1, 1e-14);
  /* the default plane is z = 0 */
  ENSURE_NEAR(m->geom_rot[9 + 8], 1, 1e-15);
  ENSURE_NEAR(m->geom_pos[3 + 2], 0, 0);
  ENSURE(m->geom_type[0] == SC_GEOM_PLANE && m->geom_body[0] == 0);
  ENSURE(isinf(m->geom_rbound[0]));
  sc_model_free(m);
}

/* solid of revolution about z with radius profile r(z) on [z0, z1], unit
 * density: V = int pi r^2, Izz = int pi r^4 / 2, Ixx = int (pi r^4 / 4 + pi r^2 z^2)
 * (composite Simpson; an independent check of the closed forms) */
static void revolution(double (*rad)(double, const double*), const double* par, double z0,
                       double z1, double* V, double* ixx, double* izz) {
  int n = 20000;
  double h = (z1 - z0) / n;
  *V = *ixx = *izz = 0;
  for (int i = 0; i <= n; i++) {
    double z = z0 + i * h, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
    double r = rad(z, par), a = PI * r * r;
    *V += w * a;
    *izz += w * a * r * r / 2;
    *ixx += w * (a * r * r / 4 + a * z * z);
  }
  *V *= h / 3;
  *ixx *= h / 3;
  *izz *= h / 3;
}
static double r_cyl(double z, const double* p) { (void)z; return p[0]; }
static double r_sphere(double z, const double* p) {
  double t = p[0] * p[0] - z * z;
  return t > 0 ? sqrt(t) : 0;
}
static double r_capsule(double z, const double* p) {
  double r = p[0], a = 0.5 * p[1], e = fabs(z) - a;
  if (e <= 0) return r;
  double t = r * r - e * e;
  return t > 0 ? sqrt(t) : 0;
}

static sc_model* load_body_shape(const char* shape, double mass) {
  char s[600];
  snprintf(s, sizeof s,
           "simc: 1\ntime: {step: 0.001, duration: 1}\n"
           "bodies:\n  - name: b\n    joint: {type: free}\n    mass: %.17g\n    inertia: solid\n"
           "    geometry: [%s]\n",
           mass, shape);
  return load(s, NULL, 0);
}

static void test_solid_inertia_single_shapes(void) {
  double m = 2.5;
  /* box: textbook M/12 (ly^2 + lz^2) */
  sc_model* M = load_body_shape("{shape: box, size: [0.2, 0.4, 0.6]}", m);
  ENSURE(M != NULL);
  if (M) {
    const double* I = M->body_inertia + 9;
    ENSURE_CLOSE(I[0], m / 12 * (0.16 + 0.36), 1e-13, 0);
    ENSURE_CLOSE(I[4], m / 12 * (0.04 + 0.36), 1e-13, 0);
    ENSURE_CLOSE(I[8], m / 12 * (0.04 + 0.16), 1e-13, 0);
    ENSURE_NEAR(I[1], 0, 0);
    ENSURE_NEAR(M->geom_size[3 * 0 + 2], 0.3, 0); /* half extents */
    sc_model_free(M);
  }
  struct {
    const char* yaml;
    double (*rad)(double, const double*);
    double par[2], z0, z1;
  } cases[] = {
      {"{shape: sphere, radius: 0.3}", r_sphere, {0.3, 0}, -0.3, 0.3},
      {"{shape: cylinder, radius: 0.2, length: 0.7}", r_cyl, {0.2, 0}, -0.35, 0.35},
      {"{shape: capsule, radius: 0.15, length: 0.5}", r_capsule, {0.15, 0.5}, -0.4, 0.4},
      {"{shape: capsule, radius: 0.2, length: 0}", r_capsule, {0.2, 0}, -0.2, 0.2},
  };
  for (int k = 0; k < 4; k++) {
    M = load_body_shape(cases[k].yaml, m);
    ENSURE(M != NULL);
    if (!M) continue;
    double V, ixx, izz;
    revolution(cases[k].rad, cases[k].par, cases[k].z0, cases[k].z1, &V, &ixx, &izz);
    const double* I = M->body_inertia + 9;
    /* Simpson on profiles with sqrt endpoints converges slowly: 1e-6 */
    ENSURE_CLOSE(I[0], m / V * ixx, 1e-6, 0);
    ENSURE_CLOSE(I[4], m / V * ixx, 1e-6, 0);
    ENSURE_CLOSE(I[8], m / V * izz, 1e-6, 0);
    ENSURE_NEAR(M->body_com[3], 0, 1e-15);
    sc_model_free(M);
  }
  /* closed forms: sphere 2/5 m r^2, cylinder m r^2/2 */
  M = load_body_shape("{shape: sphere, radius: 0.3}", m);
  if (M) {
    ENSURE_CLOSE(M->body_inertia[9], 0.4 * m * 0.09, 1e-14, 0);
    sc_model_free(M);
  }
}

/* composite: two equal spheres at +-a on x (parallel axis) and a box rotated
 * 90 degrees about z (its x and y moments swap) */
static void test_solid_inertia_composite(void) {
  sc_model* M = load_body_shape(
      "{shape: sphere, radius: 0.1, pose: {position: [0.5, 1, 0]}},"
      " {shape: sphere, radius: 0.1, pose: {position: [-0.5, 1, 0]}}",
      2.0);
  ENSURE(M != NULL);
  if (M) {
    double Is = 0.4 * 1.0 * 0.01; /* each sphere has mass 1 */
    const double* I = M->body_inertia + 9;
    ENSURE_NEAR(M->body_com[3], 0, 1e-15);
    ENSURE_NEAR(M->body_com[4], 1, 1e-15);
    ENSURE_CLOSE(I[0], 2 * Is, 1e-13, 0);
    ENSURE_CLOSE(I[4], 2 * Is + 2 * 0.25, 1e-13, 0);
    ENSURE_CLOSE(I[8], 2 * Is + 2 * 0.25, 1e-13, 0);
    ENSURE_NEAR(I[1], 0, 1e-15);
    sc_model_free(M);
  }
  M = load_body_shape("{shape: box, size: [0.2, 0.4, 0.6], pose: {rpy: [0, 0, 1.5707963267948966]}}", 3.0);
  ENSURE(M != NULL);
  if (M) {
    const double* I = M->body_inertia + 9;
    ENSURE_CLOSE(I[0], 3.0 / 12 * (0.04 + 0.36), 1e-13, 0);
    ENSURE_CLOSE(I[4], 3.0 / 12 * (0.16 + 0.36), 1e-13, 0);
    ENSURE_NEAR(I[1], 0, 1e-15);
    sc_model_free(M);
  }
}

static const char* PARAMS =
    "simc: 1\ntime: {step: 0.001, duration: 1}\n"
    "contact: {defaults: {stiffness: 2.0e6, dissipation_time: 0.02, friction: 0.4}}\n"
    "materials:\n"
    "  rubber: {stiffness: 1.0e5, friction: 1.1}\n"
    "  steel: {stiffness: rigid}\n"
    "static:\n"
    "  - {shape: plane}\n"
    "  - {shape: box, size: [1, 1, 1], material: rubber}\n"
    "  - {shape: box, size: [1, 1, 1], material: rubber, friction: 0.2, dissipation_time: 0}\n"
    "  - {shape: sphere, radius: 1, material: steel}\n"
    "  - {shape: sphere, radius: 1, stiffness: rigid, friction: 0}\n";

/* own value > material's > defaults, per parameter */
static void test_parameter_resolution(void) {
  sc_model* m = load(PARAMS, NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  const double k[] = {2e6, 1e5, 1e5, INFINITY, INFINITY};
  const double tau[] = {0.02, 0.02, 0, 0.02, 0.02};
  const double mu[] = {0.4, 1.1, 0.2, 0.4, 0};
  for (int g = 0; g < 5; g++) {
    ENSURE(m->geom_stiffness[g] == k[g]);
    ENSURE(m->geom_dissipation[g] == tau[g]);
    ENSURE(m->geom_friction[g] == mu[g]);
  }
  sc_model_free(m);
  /* built-in defaults when contact.defaults is absent */
  m = load("simc: 1\ntime: {step: 0.001, duration: 1}\nstatic: [{shape: plane}]\n", NULL, 0);
  ENSURE(m != NULL);
  if (m) {
    ENSURE(m->geom_stiffness[0] == 1e6 && m->geom_dissipation[0] == 0.01 && m->geom_friction[0] == 0.5);
    ENSURE(m->opt.lcp_directions == 8 && m->opt.contact_maxit == 100 && m->opt.output_every == 1);
    ENSURE(m->opt.gravity[2] == -9.81 && m->opt.margin == 1e-3 && m->opt.sigma == 1e-3);
    sc_model_free(m);
  }
}

static void test_overrides(void) {
  const char* sets[] = {
      "bodies.arm.initial.q=[0.25]",          /* list element by name */
      "bodies.0.mass=0.75",                   /* by index (file order: hand) */
      "integrator.scheme=theta",
      "integrator.theta={q: 1, v: 0.5, vq: 0}", /* a key absent from the file */
      "contact.defaults.friction=0.3",        /* intermediate maps created */
      "gravity=[0, 0, -1.62]",
      "bodies.base.initial.v=[1,0,0,0,0,0]",
      "output.contacts=false",
      "name=renamed",
  };
  sc_model* m = load(CHAIN, sets, (int)(sizeof sets / sizeof sets[0]));
  ENSURE(m != NULL);
  if (!m) return;
  ENSURE_NEAR(m->qpos0[m->jnt_qadr[1]], 0.25, 0);
  ENSURE_NEAR(m->body_mass[6], 0.75, 0);
  ENSURE(m->opt.scheme == SC_SCHEME_THETA);
  ENSURE(m->opt.theta_q == 1 && m->opt.theta_v == 0.5 && m->opt.theta_vq == 0);
  ENSURE(m->opt.gravity[2] == -1.62);
  ENSURE(m->qvel0[0] == 1);
  ENSURE(m->opt.output_contacts == 0);
  ENSURE(strcmp(m->name, "renamed") == 0);
  /* the overridden scene reloads to the same values */
  sc_model* r = load(m->scene_yaml, NULL, 0);
  ENSURE(r != NULL);
  if (r) {
    ENSURE(r->opt.theta_q == 1 && r->qvel0[0] == 1 && r->body_mass[6] == 0.75);
    sc_model_free(r);
  }
  sc_model_free(m);

  m = load("simc: 1\ntime: {step: 0.001, duration: 1}\nstatic: [{shape: plane}]\n",
           (const char* []){"contact.defaults.friction=0.3", "static.0.offset=-1"}, 2);
  ENSURE(m != NULL);
  if (m) {
    ENSURE(m->geom_friction[0] == 0.3);
    ENSURE(m->geom_pos[2] == -1);
    sc_model_free(m);
  }
}

static void test_override_errors(void) {
  char e[1200];
  const char* s1[] = {"time.step=0.002", "bodies.base.mass=-1"};
  ENSURE(load_error(CHAIN, s1, 2, e, sizeof e) == SC_ERR_SCENE);
  ENSURE_PREFIX(e, "--set:2:1: bodies.base.mass: must be >= 0 (got -1)");
  const char* s2[] = {"bodies.nobody.mass=1"};
  load_error(CHAIN, s2, 1, e, sizeof e);
  ENSURE_PREFIX(e, "--set:1:8: bodies.nobody: no list element named 'nobody'");
  const char* s3[] = {"bodies.9.mass=1"};
  load_error(CHAIN, s3, 1, e, sizeof e);
  ENSURE_PREFIX(e, "--set:1:8: bodies.9: no list element 9");
  const char* s4[] = {"contact.frobnicate=1"};
  load_error(CHAIN, s4, 1, e, sizeof e);
  ENSURE_PREFIX(e, "--set:1:9: contact.frobnicate: unknown key (expected solver,");
  const char* s5[] = {"time.step"};
  load_error(CHAIN, s5, 1, e, sizeof e);
  ENSURE_PREFIX(e, "--set:1:1: time.step: expected KEY=VALUE");
  const char* s6[] = {"bodies.base.initial.q=[1, 2, x, 1, 0, 0, 0]"};
  load_error(CHAIN, s6, 1, e, sizeof e);
  ENSURE_PREFIX(e, "--set:1:30: bodies[1].initial.q[2]: expected a number (got 'x')");
  const char* s7[] = {"integrator.scheme=hinge"};
  load_error(CHAIN, s7, 1, e, sizeof e);
  ENSURE_PREFIX(e, "--set:1:1: integrator.scheme: unknown scheme 'hinge' (expected explicit_euler,");
}

static void test_located_errors(void) {
  char e[1200];
  const char* s =
      "simc: 1\n"
      "time: {step: 0.001, duration: 1}\n"
      "bodies:\n"
      "  - {name: a, joint: {type: fixed}}\n"
      "  - {name: b, joint: {type: fixed}}\n"
      "  - name: c\n"
      "    joint: {type: hinge}\n";
  ENSURE(load_error(s, NULL, 0, e, sizeof e) == SC_ERR_SCENE);
  ENSURE(strcmp(e, "t.yaml:7:19: bodies[2].joint.type: unknown joint type 'hinge' (expected fixed, "
                   "revolute, prismatic, planar, ball, free)") == 0);
  if (strncmp(e, "t.yaml:7:19:", 12) != 0) printf("  got %s\n", e);
  load_error("simc: 1\ntime: {step: 0.001}\n", NULL, 0, e, sizeof e);
  ENSURE_PREFIX(e, "t.yaml:2:7: time.duration: required key is missing");
  load_error("simc: 1\ntime: {step: 0.001, duration: 1}\nbodies:\n  - name: a\n    parent: b\n"
             "    joint: {type: fixed}\n  - name: b\n    parent: a\n    joint: {type: fixed}\n",
             NULL, 0, e, sizeof e);
  ENSURE_PREFIX(e, "t.yaml:5:13: bodies[0].parent: cycle in the parent chain (a -> b -> a");
}

/* an alias bomb and deep nesting fail fast with a location */
static void test_hostile_documents(void) {
  char e[1200];
  char doc[4000];
  int o = snprintf(doc, sizeof doc, "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
  for (int i = 1; i < 10; i++)
    o += snprintf(doc + o, sizeof doc - (size_t)o, "%c: &%c [*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c]\n",
                  'a' + i, 'a' + i, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1,
                  'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1);
  clock_t t0 = clock();
  ENSURE(load_error(doc, NULL, 0, e, sizeof e) == SC_ERR_SCENE);
  ENSURE_PREFIX(e, "t.yaml:1:4: YAML anchors");
  size_t n = 100000;
  char* deep = malloc(2 * n + 1);
  for (size_t i = 0; i < n; i++) {
    deep[i] = '[';
    deep[2 * n - 1 - i] = ']';
  }
  deep[2 * n] = '\0';
  ENSURE(load_error(deep, NULL, 0, e, sizeof e) == SC_ERR_SCENE);
  ENSURE_PREFIX(e, "t.yaml:1:65: nesting is deeper than 64 levels");
  free(deep);
  /* more nodes than the cap: one flat list of 250000 zeros */
  size_t nz = 250000;
  char* wide = malloc(2 * nz + 16);
  size_t o2 = 0;
  o2 += (size_t)sprintf(wide, "name: [");
  for (size_t i = 0; i < nz; i++) o2 += (size_t)sprintf(wide + o2, "0,");
  sprintf(wide + o2 - 1, "]");
  ENSURE(load_error(wide, NULL, 0, e, sizeof e) == SC_ERR_SCENE);
  /* nodes: the root map, "name", the list, then zero k is node k + 4 at
   * column 8 + 2k; the first node past the cap is the one reported */
  size_t cap = sc_scene_max_nodes(strlen(wide));
  ENSURE(cap == 10000 + strlen(wide) / 4 && cap < nz);
  char want[64];
  snprintf(want, sizeof want, "t.yaml:1:%zu: too many YAML nodes", 8 + 2 * (cap + 1 - 4));
  ENSURE_PREFIX(e, want);
  free(wide);
  /* the cap scales with the document and stops at SC_SCENE_MAX_NODES */
  ENSURE(sc_scene_max_nodes(0) == 10000);
  ENSURE(sc_scene_max_nodes(8u << 20) == 10000 + (2u << 20));
  ENSURE(sc_scene_max_nodes(SC_SCENE_MAX_BYTES) == SC_SCENE_MAX_NODES);
  /* an override path cannot nest without bound */
  char key[600];
  for (int i = 0; i < 200; i++) memcpy(key + 2 * i, "a.", 2);
  memcpy(key + 400, "b=1", 4);
  const char* sets[] = {key};
  ENSURE(load_error("simc: 1\ntime: {step: 0.001, duration: 1}\n", sets, 1, e, sizeof e) == SC_ERR_SCENE);
  ENSURE_PREFIX(e, "--set:1:1: KEY has 201 path segments");
  /* SC_SLOW scales time limits for runs under valgrind (make valgrind) */
  double slow = getenv("SC_SLOW") ? atof(getenv("SC_SLOW")) : 1.0;
  ENSURE((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0 * (slow > 1 ? slow : 1));
}

static int same_model(const sc_model* a, const sc_model* b) {
  int ok = a->nbody == b->nbody && a->nq == b->nq && a->nv == b->nv && a->ngeom == b->ngeom &&
           a->njspring == b->njspring && a->nlspring == b->nlspring &&
           memcmp(&a->opt, &b->opt, sizeof a->opt) == 0;
  if (!ok) return 0;
#define SAME(f, n) ok = ok && memcmp(a->f, b->f, (size_t)(n) * sizeof *a->f) == 0
  SAME(body_parent, a->nbody);
  SAME(body_mass, a->nbody);
  SAME(body_com, 3 * a->nbody);
  SAME(body_inertia, 9 * a->nbody);
  SAME(jnt_type, a->njnt);
  SAME(jnt_axis, 3 * a->njnt);
  SAME(jnt_pos, 3 * a->njnt);
  SAME(jnt_rot, 9 * a->njnt);
  SAME(qpos0, a->nq);
  SAME(qvel0, a->nv);
  SAME(geom_type, a->ngeom);
  SAME(geom_body, a->ngeom);
  SAME(geom_pos, 3 * a->ngeom);
  SAME(geom_rot, 9 * a->ngeom);
  SAME(geom_size, 3 * a->ngeom);
  SAME(geom_stiffness, a->ngeom);
  SAME(geom_dissipation, a->ngeom);
  SAME(geom_friction, a->ngeom);
  SAME(jspring_dof, a->njspring);
  SAME(jspring_k, a->njspring);
  SAME(jspring_c, a->njspring);
  SAME(jspring_rest, a->njspring);
  SAME(lspring_body, 2 * a->nlspring);
  SAME(lspring_point, 6 * a->nlspring);
  SAME(lspring_k, a->nlspring);
  SAME(lspring_c, a->nlspring);
  SAME(lspring_rest, a->nlspring);
#undef SAME
  for (int i = 0; ok && i < a->nbody; i++) ok = strcmp(a->body_name[i], b->body_name[i]) == 0;
  return ok && strcmp(a->name, b->name) == 0;
}

static const char* FULL =
    "simc: 1\n"
    "name: spring_cylinder\n"
    "gravity: [0, 0, -9.81]\n"
    "time: {step: 1.0e-3, duration: 5.0}\n"
    "integrator: {scheme: theta, theta: {q: 0.5, v: 1, vq: 0.25}, newton: {tolerance: 1.0e-9, max_iterations: 12}}\n"
    "contact:\n"
    "  solver: lcp\n  tolerance: 1.0e-7\n  max_iterations: 50\n  on_failure: warn\n"
    "  lcp: {directions: 16}\n  sigma: 0.01\n  near_rigid_beta: 0.5\n  margin: 0.002\n"
    "  max_contacts: 64\n"
    "  defaults: {stiffness: 1.0e6, dissipation_time: 0.01, friction: 0.5}\n"
    "materials:\n  rubber: {stiffness: 1.0e5, dissipation_time: 0.01, friction: 1.0}\n"
    "bodies:\n"
    "  - name: cylinder\n    parent: world\n"
    "    joint: {type: planar, origin: {rpy: [1.5708, 0, 0]}}\n"
    "    mass: 1.0\n    com: [0, 0, 0]\n    inertia: {ixx: 0.005, iyy: 0.005, izz: 0.005}\n"
    "    initial: {q: [0, 0.1, 0], v: [1, 0, 0]}\n"
    "    geometry:\n      - {shape: cylinder, radius: 0.1, length: 0.2, material: rubber}\n"
    "      - {shape: capsule, radius: 0.05, length: 0.1, pose: {position: [0, 0, 0.1]}, stiffness: rigid}\n"
    "  - name: 'quoted name: yes'\n    parent: cylinder\n    joint: {type: revolute, axis: [1, 0, 0]}\n"
    "    mass: 0.1\n    inertia: solid\n    geometry: [{shape: box, size: [0.1, 0.1, 0.1]}]\n"
    "static:\n  - {shape: plane, normal: [0, 0, 1], offset: 0.0}\n"
    "springs:\n"
    "  - {type: joint, joint: cylinder, dof: 2, stiffness: 100, damping: 0, rest: 0.3}\n"
    "  - {type: linear, a: {body: world, point: [-1, 0, 0.1]},\n"
    "     b: {body: cylinder, point: [0, 0, 0]},\n"
    "     stiffness: 100, damping: 0.5, rest_length: 0.5}\n"
    "output: {every: 10, contacts: false}\n";

/* scene_yaml re-loads to an identical model; spring fields as written */
static void test_roundtrip_and_springs(void) {
  sc_model* a = load(FULL, NULL, 0);
  ENSURE(a != NULL);
  if (!a) return;
  ENSURE(a->opt.solver == SC_SOLVER_LCP && a->opt.lcp_directions == 16 && a->opt.ncon_max == 64);
  ENSURE(a->opt.on_failure == SC_ON_FAILURE_WARN && a->opt.output_every == 10);
  ENSURE(a->opt.theta_v == 1 && a->opt.theta_vq == 0.25 && a->opt.newton_maxit == 12);
  ENSURE(a->njspring == 1 && a->nlspring == 1);
  ENSURE(a->jspring_dof[0] == 2 && a->jspring_qadr[0] == 2 && a->jspring_rest[0] == 0.3);
  ENSURE(a->lspring_body[0] == 0 && a->lspring_body[1] == 1);
  ENSURE(a->lspring_point[0] == -1 && a->lspring_point[2] == 0.1 && a->lspring_rest[0] == 0.5);
  ENSURE(strcmp(a->body_name[2], "quoted name: yes") == 0);
  ENSURE(a->geom_body[0] == 0 && a->geom_body[1] == 1 && a->geom_body[3] == 2);
  sc_model* b = load(a->scene_yaml, NULL, 0);
  ENSURE(b != NULL);
  if (b) {
    ENSURE(same_model(a, b));
    ENSURE(strcmp(a->scene_yaml, b->scene_yaml) == 0);
    sc_model_free(b);
  }
  /* also through the chain scene (reordered bodies) */
  sc_model* c = load(CHAIN, NULL, 0);
  sc_model* d = c ? load(c->scene_yaml, NULL, 0) : NULL;
  ENSURE(c && d && same_model(c, d));
  sc_model_free(c);
  sc_model_free(d);
  sc_model_free(a);
}

/* file loading: a missing file is an I/O error, a real file loads */
static void test_file_io(void) {
  sc_model* m = NULL;
  sc_error err;
  ENSURE(sc_scene_load("/nonexistent/dir/x.yaml", NULL, 0, &m, &err) == SC_ERR_IO);
  ENSURE(m == NULL && err.code == SC_ERR_IO);
  char path[] = "/tmp/simc_test_sceneXXXXXX";
  int fd = mkstemp(path);
  ENSURE(fd >= 0);
  if (fd < 0) return;
  FILE* f = fdopen(fd, "w");
  fputs(FULL, f);
  fclose(f);
  ENSURE(sc_scene_load(path, NULL, 0, &m, &err) == SC_OK);
  if (m) {
    ENSURE(strcmp(m->scene_path, path) == 0);
    ENSURE(strcmp(m->name, "spring_cylinder") == 0);
    sc_model_free(m);
  }
  remove(path);
}

/* rejected inertias: indefinite and violating the triangle inequality */
static void test_inertia_checks(void) {
  char e[1200], s[400];
  const char* bad[] = {"{ixx: 1, iyy: 1, izz: 1, ixy: 2}", "{ixx: 1, iyy: 1, izz: 2.5}"};
  const char* want[] = {"not positive definite", "violate the triangle inequality"};
  for (int i = 0; i < 2; i++) {
    snprintf(s, sizeof s,
             "simc: 1\ntime: {step: 0.001, duration: 1}\nbodies:\n  - name: b\n"
             "    joint: {type: free}\n    mass: 1\n    inertia: %s\n", bad[i]);
    ENSURE(load_error(s, NULL, 0, e, sizeof e) == SC_ERR_SCENE);
    ENSURE_PREFIX(e, "t.yaml:7:14: bodies[0].inertia: ");
    ENSURE(strstr(e, want[i]) != NULL);
  }
  /* the flat-plate limit (izz = ixx + iyy) is accepted */
  snprintf(s, sizeof s,
           "simc: 1\ntime: {step: 0.001, duration: 1}\nbodies:\n  - name: b\n"
           "    joint: {type: free}\n    mass: 1\n    inertia: {ixx: 1, iyy: 1, izz: 2}\n");
  sc_model* m = load(s, NULL, 0);
  ENSURE(m != NULL);
  sc_model_free(m);
}

/* a UTF-8 byte-order mark is skipped, and locations after it are unchanged */
static void test_bom(void) {
  const char* body = "simc: 1\ntime: {step: 0.001, duration: 1}\nbodies: []\n";
  char s[256];
  snprintf(s, sizeof s, "\xEF\xBB\xBF%s", body);
  sc_model* m = load(s, NULL, 0);
  ENSURE(m != NULL);
  sc_model_free(m);
  char e[1200];
  ENSURE(load_error("\xEF\xBB\xBFsimc: 2\n", NULL, 0, e, sizeof e) == SC_ERR_SCENE);
  ENSURE_PREFIX(e, "t.yaml:1:7: simc: unsupported scene version 2");
  /* only at the start: a BOM inside the document stays an error */
  ENSURE(load_error("simc: 1\n\xEF\xBB\xBFtime: 1\n", NULL, 0, e, sizeof e) == SC_ERR_SCENE);
  ENSURE_PREFIX(e, "t.yaml:2:");
}

/* SHA-256 against FIPS 180-4 values (hashlib's), across the padding's block
 * boundaries and in uneven pieces */
static void test_sha256(void) {
  static const struct {
    size_t n;
    const char* hex;
  } v[] = {{0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
           {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
           {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
           {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
           {1000, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"}};
  char a[1000], hex[65];
  memset(a, 'a', sizeof a);
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    sc_sha256 s;
    sc_sha256_init(&s);
    for (size_t k = 0, step = 1; k < v[i].n; k += step, step = step * 3 % 70 + 1)
      sc_sha256_update(&s, a + k, k + step <= v[i].n ? step : v[i].n - k);
    sc_sha256_final(&s, hex);
    ENSURE(strcmp(hex, v[i].hex) == 0);
  }
  sc_sha256 s;
  sc_sha256_init(&s);
  sc_sha256_update(&s, "abc", 3);
  sc_sha256_final(&s, hex);
  ENSURE(strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0);
}

/* the model's input digest follows what the run is built from: the scene
 * after overrides and the content of a command table it reads, not the
 * scene's comments */
static void test_input_digest(void) {
  char dir[] = "/tmp/simc_digestXXXXXX";
  ENSURE(mkdtemp(dir) != NULL);
  char csv[64], yaml[512];
  snprintf(csv, sizeof csv, "%s/u.csv", dir);
  const char* scene =
      "simc: 1\ntime: {step: 0.001, duration: 1}\nbodies:\n  - name: b\n"
      "    joint: {type: prismatic, axis: [1, 0, 0]}\n    mass: 1\n    inertia: {ixx: 1, iyy: 1, izz: 1}\n"
      "actuators:\n  - {name: m, joint: b, type: motor, command: u}\n"
      "commands:\n  - {file: %s}\n%s";
  char d[4][65];
  const char* tables[] = {"time,u\n0,1\n1,2\n", "time,u\n0,1\n1,2\n", "time,u\n0,1\n1,3\n",
                          "time,u\n0,1\n1,3\n"};
  const char* tails[] = {"", "# a comment\n", "", ""};
  for (int i = 0; i < 4; i++) {
    FILE* f = fopen(csv, "w");
    fputs(tables[i], f);
    fclose(f);
    snprintf(yaml, sizeof yaml, scene, csv, tails[i]);
    const char* set = "time.duration=2";
    sc_model* m = load(yaml, &set, i == 3);
    ENSURE(m != NULL);
    if (!m) return;
    ENSURE(strlen(m->input_digest) == 64);
    memcpy(d[i], m->input_digest, 65);
    sc_model_free(m);
  }
  ENSURE(strcmp(d[0], d[1]) == 0); /* a comment changes nothing */
  ENSURE(strcmp(d[0], d[2]) != 0); /* the table's content does */
  ENSURE(strcmp(d[2], d[3]) != 0); /* and so does an override */
  remove(csv);
  rmdir(dir);
}

/* a command table's byte-order mark is skipped: its first column is `time`
 * (it was "time" after three invisible bytes, refused), and an error on
 * its first line is located from after the mark */
static void test_csv_bom(void) {
  char dir[] = "/tmp/simc_csvbomXXXXXX";
  ENSURE(mkdtemp(dir) != NULL);
  char csv[64], yaml[600], e[1200];
  snprintf(csv, sizeof csv, "%s/u.csv", dir);
  snprintf(yaml, sizeof yaml,
           "simc: 1\ntime: {step: 0.001, duration: 1}\nbodies:\n  - name: b\n"
           "    joint: {type: prismatic, axis: [1, 0, 0]}\n    mass: 1\n    inertia: {ixx: 1, iyy: 1, izz: 1}\n"
           "actuators:\n  - {name: m, joint: b, type: motor, command: u}\n"
           "commands:\n  - {file: %s}\n", csv);
  FILE* f = fopen(csv, "w");
  fputs("\xEF\xBB\xBFtime,u\n0,1.5\n1,2.5\n", f);
  fclose(f);
  sc_model* m = load(yaml, NULL, 0);
  ENSURE(m != NULL);
  if (m) {
    ENSURE(m->ncmddata == 2 && m->cmd_time[1] == 1.0 && m->cmd_value[0] == 1.5 && m->cmd_value[1] == 2.5);
    sc_model_free(m);
  }
  f = fopen(csv, "w");
  fputs("\xEF\xBB\xBFtime,u\"\n0,1.5\n", f);
  fclose(f);
  ENSURE(load_error(yaml, NULL, 0, e, sizeof e) == SC_ERR_SCENE);
  char want[100];
  snprintf(want, sizeof want, "%s:1:7: ", csv);
  ENSURE_PREFIX(e, want);
  remove(csv);
  rmdir(dir);
}

/* a model's root set floating (fixed_base: false) hangs from a body named
 * after it in full, however long the prefixed name (it was cut at 250
 * characters, so two long names could become one) */
static void test_long_float_name(void) {
  char dir[] = "/tmp/simc_floatXXXXXX";
  ENSURE(mkdtemp(dir) != NULL);
  char xml[64], prefix[301], yaml[1200], want[400];
  snprintf(xml, sizeof xml, "%s/m.xml", dir);
  FILE* f = fopen(xml, "w");
  fputs("<mujoco model=\"m\"><worldbody><body name=\"arm\" pos=\"0 0 1\">"
        "<joint name=\"hinge\" type=\"hinge\" axis=\"0 1 0\"/>"
        "<geom type=\"sphere\" size=\"0.1\" mass=\"1\"/></body></worldbody></mujoco>\n", f);
  fclose(f);
  memset(prefix, 'p', 300);
  prefix[300] = '\0';
  snprintf(yaml, sizeof yaml,
           "simc: 1\ntime: {step: 0.001, duration: 1}\nbodies: []\n"
           "models:\n  - {file: %s, prefix: %s, fixed_base: false}\n", xml, prefix);
  /* the translation names a body after its joint */
  snprintf(want, sizeof want, "%shinge_float", prefix);
  sc_model* m = load(yaml, NULL, 0);
  ENSURE(m != NULL);
  if (m) {
    int found = 0;
    for (int b = 0; b < m->nbody; b++) found |= m->body_name[b] && strcmp(m->body_name[b], want) == 0;
    ENSURE(found);
    sc_model_free(m);
  }
  remove(xml);
  rmdir(dir);
}

/* subnormal and underflowing numbers are finite and accepted as strtod reads
 * them; overflow, inf and nan are refused */
static void test_number_range(void) {
  char s[512], e[1200];
  const char* fmt = "simc: 1\ntime: {step: 0.001, duration: 1}\ncontact: {margin: %s}\n";
  const char* ok[] = {"1e-310", "4.9e-324", "2.2250738585072014e-308", "1e-400", "-0.0"};
  for (int i = 0; i < 5; i++) {
    snprintf(s, sizeof s, fmt, ok[i]);
    sc_model* m = load(s, NULL, 0);
    ENSURE(m != NULL);
    if (m) ENSURE(m->opt.margin == fabs(strtod(ok[i], NULL)));
    sc_model_free(m);
  }
  const char* bad[] = {"1e400", "-1e309", ".inf", ".nan"};
  for (int i = 0; i < 4; i++) {
    snprintf(s, sizeof s, fmt, bad[i]);
    ENSURE(load_error(s, NULL, 0, e, sizeof e) == SC_ERR_SCENE);
    ENSURE_PREFIX(e, "t.yaml:3:19: contact.margin: must be a finite number");
  }
}

/* body order of random forests listed in random file order against the
 * definition: repeated passes over the file placing each body once its
 * parent is placed (the loader computes it without the passes) */
static void test_body_order_random_forests(void) {
  enum { NB = 40 };
  unsigned seed = 12345u;
  for (int trial = 0; trial < 20; trial++) {
    int parent[NB]; /* file index of the parent, -1 = world */
    int perm[NB];   /* perm[r]: file index of the r-th body of a topological order */
    for (int i = 0; i < NB; i++) perm[i] = i;
    for (int i = NB - 1; i > 0; i--) {
      seed = seed * 1103515245u + 12345u;
      int j = (int)((seed >> 8) % (unsigned)(i + 1)), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (int r = 0; r < NB; r++) {
      seed = seed * 1103515245u + 12345u;
      int pick = (int)((seed >> 8) % (unsigned)(r + 1)); /* r: world, else an earlier body */
      parent[perm[r]] = pick == r ? -1 : perm[pick];
    }
    static char y[NB * 120 + 200];
    int o = snprintf(y, sizeof y, "simc: 1\ntime: {step: 0.001, duration: 1}\nbodies:\n");
    for (int i = 0; i < NB; i++) {
      char pn[16];
      snprintf(pn, sizeof pn, "b%d", parent[i]);
      o += snprintf(y + o, sizeof y - (size_t)o,
                    "  - {name: b%d, parent: %s, joint: {type: revolute}, mass: 1, "
                    "inertia: {ixx: 1, iyy: 1, izz: 1}}\n",
                    i, parent[i] < 0 ? "world" : pn);
    }
    int want[NB], placed = 0, done[NB] = {0};
    while (placed < NB)
      for (int i = 0; i < NB; i++)
        if (!done[i] && (parent[i] < 0 || done[parent[i]])) {
          done[i] = 1;
          want[placed++] = i;
        }
    sc_model* m = load(y, NULL, 0);
    ENSURE(m != NULL && m->nbody == NB + 1);
    if (!m) return;
    int same = 1;
    for (int b = 1; b <= NB; b++) {
      char nm[16];
      snprintf(nm, sizeof nm, "b%d", want[b - 1]);
      if (strcmp(m->body_name[b], nm) != 0) same = 0;
    }
    ENSURE(same);
    sc_model_free(m);
  }
}

/* ---- contact filtering: contype, conaffinity, exclude ---- */

/* three free spheres of radius 0.1 in a row 0.15 apart (each overlaps its
 * neighbours by 0.05), 0.05 deep in the floor plane */
static const char* FILTER =
    "simc: 1\n"
    "time: {step: 0.001, duration: 0.01}\n"
    "gravity: [0, 0, 0]\n"
    "bodies:\n"
    "  - name: a\n"
    "    joint: {type: free}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.004, iyy: 0.004, izz: 0.004}\n"
    "    initial: {q: [0, 0, 0.05, 1, 0, 0, 0]}\n"
    "    geometry: [{shape: sphere, radius: 0.1}]\n"
    "  - name: b\n"
    "    joint: {type: free}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.004, iyy: 0.004, izz: 0.004}\n"
    "    initial: {q: [0.15, 0, 0.05, 1, 0, 0, 0]}\n"
    "    geometry: [{shape: sphere, radius: 0.1}]\n"
    "  - name: c\n"
    "    joint: {type: free}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.004, iyy: 0.004, izz: 0.004}\n"
    "    initial: {q: [0.3, 0, 0.05, 1, 0, 0, 0]}\n"
    "    geometry: [{shape: sphere, radius: 0.1}]\n"
    "static:\n"
    "  - {shape: plane}\n";

/* the body pairs in contact at the start, as "a-b a-world ..." (each
 * pair once, in contact order) */
static int contact_pairs(const char* const* sets, int nsets, char* out, size_t n) {
  out[0] = '\0';
  sc_model* m = load(FILTER, sets, nsets);
  if (!m) return 0;
  sc_data* d = NULL;
  sc_error err;
  int ok = sc_data_create(m, &d, &err) == SC_OK && sc_sim_prepare(m, d, &err) == SC_OK &&
           sc_forward(m, d, &err) == SC_OK;
  size_t o = 0;
  for (int i = 0; ok && i < d->ncon; i++) {
    const sc_contact* c = &d->contact[i];
    if (i > 0 && c->body[0] == d->contact[i - 1].body[0] && c->body[1] == d->contact[i - 1].body[1])
      continue;
    const int w = snprintf(out + o, n - o, "%s%s-%s", o ? " " : "", m->body_name[c->body[0]],
                           m->body_name[c->body[1]]);
    if (w > 0 && (size_t)w < n - o) o += (size_t)w;
  }
  sc_data_free(d);
  sc_model_free(m);
  return ok;
}

#define ENSURE_PAIRS(sets, want)                                                        \
  do {                                                                                  \
    char got_[400];                                                                     \
    const int n_ = (int)(sizeof(sets) / sizeof(sets)[0]);                               \
    ENSURE(contact_pairs((sets), n_, got_, sizeof got_));                               \
    if (strcmp(got_, (want)) != 0) printf("  %s...: got '%s', want '%s'\n", (sets)[0], got_, (want)); \
    ENSURE(strcmp(got_, (want)) == 0);                                                  \
  } while (0)

/* which pairs touch, by MuJoCo's rule worked out by hand: geoms touch only
 * when (contype_1 & conaffinity_2) | (contype_2 & conaffinity_1) != 0, and
 * never when their bodies are an excluded pair (world: the static shapes) */
static void test_contact_filter(void) {
  /* the static plane is geom 0 (body 0): contacts sort by geom, so the
   * plane's pairs come first, as world-body */
  const char* base[] = {"name=filter"};
  ENSURE_PAIRS(base, "world-a world-b world-c a-b b-c");
  const char* defaults[] = {"bodies.a.geometry.0.contype=1", "bodies.a.geometry.0.conaffinity=1",
                            "exclude=[]"};
  ENSURE_PAIRS(defaults, "world-a world-b world-c a-b b-c");
  /* b in group 2 only: nothing of group 1 touches it, either way round */
  const char* off[] = {"bodies.b.geometry.0.contype=2", "bodies.b.geometry.0.conaffinity=2"};
  ENSURE_PAIRS(off, "world-a world-c");
  /* one way suffices: b's contype 2 meets a's conaffinity 3 (c's is 1) */
  const char* oneway[] = {"bodies.b.geometry.0.contype=2", "bodies.b.geometry.0.conaffinity=0",
                          "bodies.a.geometry.0.conaffinity=3"};
  ENSURE_PAIRS(oneway, "world-a world-c a-b");
  /* the top bit of the 32-bit masks */
  const char* top[] = {"bodies.a.geometry.0.contype=2147483648", "bodies.a.geometry.0.conaffinity=0",
                       "bodies.c.geometry.0.conaffinity=2147483649", "bodies.b.geometry.0.contype=0",
                       "bodies.b.geometry.0.conaffinity=0"};
  ENSURE_PAIRS(top, "world-c");
  /* a touches nothing, c touches only a ... so nothing of c's either */
  const char* none[] = {"bodies.a.geometry.0.contype=0", "bodies.a.geometry.0.conaffinity=0"};
  ENSURE_PAIRS(none, "world-b world-c b-c");
  /* excluded pairs, in either order, repeated, and with the world */
  const char* excl[] = {"exclude=[[b, a], [c, world], [a, b]]"};
  ENSURE_PAIRS(excl, "world-a world-b b-c");
  const char* excl2[] = {"static.0.contype=4", "static.0.conaffinity=4", "exclude=[[b, c]]"};
  ENSURE_PAIRS(excl2, "a-b");

  /* the model's arrays: masks per geometry, the pairs ordered and unique */
  const char* sets[] = {"bodies.c.geometry.0.contype=4294967295", "bodies.b.geometry.0.conaffinity=0",
                        "exclude=[[c, a], [world, b], [a, c]]"};
  sc_model* m = load(FILTER, sets, 3);
  ENSURE(m != NULL);
  if (m) {
    ENSURE(m->ngeom == 4 && m->geom_contype[0] == 1u && m->geom_conaffinity[0] == 1u);
    ENSURE(m->geom_contype[3] == 4294967295u && m->geom_conaffinity[3] == 1u);
    ENSURE(m->geom_contype[2] == 1u && m->geom_conaffinity[2] == 0u);
    ENSURE(m->nexclude == 2);
    ENSURE(m->exclude_body[0] == 0 && m->exclude_body[1] == 2);
    ENSURE(m->exclude_body[2] == 1 && m->exclude_body[3] == 3);
    sc_model_free(m);
  }
}

/* every mistake located at the offending value */
static void test_contact_filter_errors(void) {
  char e[1200];
  static const struct {
    const char* set;
    const char* want;
  } cases[] = {
      {"bodies.a.geometry.0.contype=-1", "--set:1:1: bodies.a.geometry.0.contype: must be >= 0 (got -1)"},
      {"bodies.a.geometry.0.conaffinity=1.5",
       "--set:1:1: bodies.a.geometry.0.conaffinity: expected an integer bit mask (got '1.5')"},
      {"bodies.a.geometry.0.contype=4294967296",
       "--set:1:1: bodies.a.geometry.0.contype: must be <= 4294967295"},
      {"bodies.a.geometry.0.contype=[1]",
       "--set:1:1: bodies.a.geometry.0.contype: expected an integer bit mask, got a list"},
      {"static.0.conaffinity=one", "--set:1:1: static.0.conaffinity: expected an integer bit mask (got 'one')"},
      {"exclude=[[a, nobody]]", "--set:1:14: exclude[0][1]: unknown body 'nobody' (expected world or a body name)"},
      {"exclude=[[a, c], [b, b]]", "--set:1:22: exclude[1][1]: body 'b' is paired with itself"},
      {"exclude=[[world, world]]", "--set:1:18: exclude[0][1]: body 'world' is paired with itself"},
      {"exclude=[[a, b, c]]", "--set:1:10: exclude[0]: expected a pair of body names [a, b], got a list of "
                              "another length"},
      {"exclude=[a, b]", "--set:1:10: exclude[0]: expected a pair of body names [a, b], got a scalar"},
      {"exclude={a: b}", "--set:1:1: exclude: expected a list of body pairs [[a, b], ...], got a map"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char* s[] = {cases[i].set};
    ENSURE(load_error(FILTER, s, 1, e, sizeof e) == SC_ERR_SCENE);
    ENSURE_PREFIX(e, cases[i].want);
  }
  /* in the file itself: line and column of the value */
  char text[4000];
  snprintf(text, sizeof text, "%sexclude:\n  - [a, c]\n  - [b, ghost]\n", FILTER);
  load_error(text, NULL, 0, e, sizeof e);
  ENSURE_PREFIX(e, "t.yaml:27:9: exclude[1][1]: unknown body 'ghost'");
  snprintf(text, sizeof text, "%s", FILTER);
  char* g = strstr(text, "{shape: plane}");
  ENSURE(g != NULL);
  if (g) {
    snprintf(g, sizeof text - (size_t)(g - text), "{shape: plane, contype: -2}\n");
    load_error(text, NULL, 0, e, sizeof e);
    ENSURE_PREFIX(e, "t.yaml:24:29: static[0].contype: must be >= 0 (got -2)");
  }
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_counts_order_and_addresses);
  RUN(test_rpy_origin);
  RUN(test_plane_pose);
  RUN(test_solid_inertia_single_shapes);
  RUN(test_solid_inertia_composite);
  RUN(test_parameter_resolution);
  RUN(test_overrides);
  RUN(test_override_errors);
  RUN(test_located_errors);
  RUN(test_hostile_documents);
  RUN(test_roundtrip_and_springs);
  RUN(test_file_io);
  RUN(test_inertia_checks);
  RUN(test_bom);
  RUN(test_sha256);
  RUN(test_input_digest);
  RUN(test_csv_bom);
  RUN(test_long_float_name);
  RUN(test_number_range);
  RUN(test_body_order_random_forests);
  RUN(test_contact_filter);
  RUN(test_contact_filter_errors);
  return TEST_END();
}
