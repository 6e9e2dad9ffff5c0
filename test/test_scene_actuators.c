/* Scene loader: joint limits, damping, armature and dry friction,
 * actuators and commands (inline tables, constants, CSV files, HDF5
 * datasets) into the model's arrays, exactly; command interpolation through
 * sc_model_command against the analytic values; located errors, in the
 * scene and in a CSV file's own coordinates; caps; the scene text round
 * trip and overrides. */
#include "harness.h"
#include "scene/scene.h"

#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64]; /* a temporary directory for the scene and its files */

static void write_file(const char* name, const char* text) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE* f = fopen(p, "wb");
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* an HDF5 file holding one 2-D double dataset */
static void write_h5(const char* name, const char* dset, const double* data, hsize_t rows,
                     hsize_t cols) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t dims[2] = {rows, cols};
  hid_t s = H5Screate_simple(2, dims, NULL);
  hid_t d = H5Dcreate2(f, dset, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  H5Dclose(d);
  H5Sclose(s);
  H5Fclose(f);
}

/* load dir/name; NULL (and the message printed) on an error */
static sc_model* load_file(const char* name, const char* const* sets, int nsets) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  sc_model* m = NULL;
  sc_error err;
  if (sc_scene_load(p, sets, nsets, &m, &err) != SC_OK) {
    char buf[1200];
    sc_error_format(&err, buf, sizeof buf);
    printf("  unexpected load error: %s\n", buf);
  }
  return m;
}

/* the formatted error of loading dir/name, which must fail with SC_ERR_SCENE */
static void file_error(const char* name, const char* const* sets, int nsets, char* buf, size_t n) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  sc_model* m = NULL;
  sc_error err;
  sc_status st = sc_scene_load(p, sets, nsets, &m, &err);
  if (st == SC_OK) {
    sc_model_free(m);
    snprintf(buf, n, "(loaded)");
    return;
  }
  sc_error_format(&err, buf, n);
  if (st != SC_ERR_SCENE) printf("  status %d for %s\n", (int)st, buf);
}

/* want is relative to dir: "cmd.csv:3:4: ..." */
#define ENSURE_ERR(got, want)                                                          \
  do {                                                                                 \
    char w_[600];                                                                      \
    snprintf(w_, sizeof w_, "%s/%s", dir, (want));                                     \
    int ok_ = strncmp((got), w_, strlen(w_)) == 0;                                     \
    if (!ok_) printf("  got:  %s\n  want: %s...\n", (got), w_);                       \
    ENSURE(ok_);                                                                       \
  } while (0)

static const char* SCENE =
    "simc: 1\n"
    "time: {step: 0.001, duration: 1}\n"
    "bodies:\n"
    "  - name: arm\n"
    "    joint: {type: revolute, limits: [-1, null], limit_stiffness: 1.0e4, limit_dissipation: 0.01,\n"
    "            damping: 0.5, armature: [0.1], friction: 0.2}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "    initial: {q: [-2]}\n" /* beyond its compliant limit: its spring pushes it back, no error */
    "  - name: slider\n"
    "    parent: arm\n"
    "    joint: {type: prismatic, limits: [0, 0.3], friction: [1.5]}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "  - name: plate\n"
    "    parent: slider\n"
    "    joint: {type: fixed}\n"
    "  - name: puck\n"
    "    joint: {type: planar, damping: [1, 2, 3], armature: 0.25}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "  - name: ball\n"
    "    joint: {type: ball, armature: 0.3, friction: [0.1, 0.2, 0.3]}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "  - name: free\n"
    "    joint: {type: free, damping: [1, 2, 3, 4, 5, 6]}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}\n"
    "actuators:\n"
    "  - {name: m, type: motor, joint: arm, command: tau_a, gear: 2, effort: [-5, null]}\n"
    "  - {name: s, type: position, joint: puck, dof: 2, kp: 10, kd: 1, command: lift,\n"
    "     velocity_command: 0.5, theta: 0.5}\n"
    "  - {name: v, type: velocity, joint: puck, dof: 1, kd: 3, command: tau_b, effort: [-1, 2]}\n"
    "  - {name: c, type: motor, joint: slider, command: steps, gear: -0.5}\n"
    "  - {name: h, type: position, joint: slider, kp: 100, command: 4.5, velocity_command: lift_h5}\n"
    "  - {name: k, type: velocity, joint: puck, kd: 2, command: squeeze, theta: auto}\n"
    "commands:\n"
    "  - {name: lift, time: [0, 1, 2], value: [0, 0.2, -0.4]}\n"
    "  - {file: cmd.csv}\n"
    "  - {name: steps, time: [0, 1], value: [1, 3], interpolation: hold}\n"
    "  - {name: squeeze, value: 5.0}\n"
    "  - {name: lift_h5, file: cmd.h5, dataset: /g/lift, interpolation: hold}\n";

/* comments, blank lines, CRLF and blanks around fields */
static const char* CSV =
    "# joint torques, N m\n"
    "time, tau_a ,tau_b\r\n"
    "0, 1, -2\n"
    "\n"
    "0.5,3,4\r\n"
    "   # an indented comment\n"
    "1.5,\t3, 0\n";

static const double H5LIFT[] = {0.25, 1, 0.75, -1, 1.0, 0.5};

static void write_scene_files(void) {
  write_file("s.yaml", SCENE);
  write_file("cmd.csv", CSV);
  char p[256];
  snprintf(p, sizeof p, "%s/cmd.h5", dir);
  hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  H5Gclose(H5Gcreate2(f, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  hsize_t dims[2] = {3, 2};
  hid_t s = H5Screate_simple(2, dims, NULL);
  hid_t d = H5Dcreate2(f, "/g/lift", H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, H5LIFT);
  H5Dclose(d);
  H5Sclose(s);
  H5Fclose(f);
}

#define ENSURE_PREFIX(s, p)                                                        \
  do {                                                                             \
    int ok_ = strncmp((s), (p), strlen(p)) == 0;                                   \
    if (!ok_) printf("  got:  %s\n  want: %s...\n", (s), (p));                    \
    ENSURE(ok_);                                                                   \
  } while (0)

#define SAME_D(a, b, n) (memcmp((a), (b), (size_t)(n) * sizeof(double)) == 0)
#define SAME_I(a, b, n) (memcmp((a), (b), (size_t)(n) * sizeof(int)) == 0)

static void test_joint_limits_damping_armature_friction(void) {
  sc_model* m = load_file("s.yaml", NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  ENSURE(m->njnt == 6 && m->nv == 14 && m->nq == 16);
  /* model order: arm, slider, plate, puck, ball, free (joints 0..5) */
  const double I = INFINITY;
  const double range[] = {-1, I, 0, 0.3, -I, I, -I, I, -I, I, -I, I};
  ENSURE(SAME_D(m->jnt_range, range, 12));
  const double lk[] = {1.0e4, I, I, I, I, I};
  const double ltd[] = {0.01, 0, 0, 0, 0, 0};
  ENSURE(SAME_D(m->jnt_limit_k, lk, 6));
  ENSURE(SAME_D(m->jnt_limit_taud, ltd, 6));
  double damp[36] = {0}, arm[36] = {0}, fric[36] = {0};
  damp[0] = 0.5;
  arm[0] = 0.1;
  fric[0] = 0.2;
  fric[6] = 1.5;
  for (int k = 0; k < 3; k++) {
    damp[18 + k] = k + 1;
    arm[18 + k] = 0.25;
    arm[24 + k] = 0.3;
  }
  fric[24] = 0.1;
  fric[25] = 0.2;
  fric[26] = 0.3;
  for (int k = 0; k < 6; k++) damp[30 + k] = k + 1;
  ENSURE(SAME_D(m->jnt_damping, damp, 36));
  ENSURE(SAME_D(m->jnt_armature, arm, 36));
  ENSURE(SAME_D(m->jnt_frictionloss, fric, 36));
  /* per velocity (finalize): arm v0, slider v1, puck v2..4, ball v5..7, free v8..13 */
  const double ddof[14] = {0.5, 0, 1, 2, 3, 0, 0, 0, 1, 2, 3, 4, 5, 6};
  const double adof[14] = {0.1, 0, 0.25, 0.25, 0.25, 0.3, 0.3, 0.3, 0, 0, 0, 0, 0, 0};
  const double fdof[14] = {0.2, 1.5, 0, 0, 0, 0.1, 0.2, 0.3, 0, 0, 0, 0, 0, 0};
  ENSURE(SAME_D(m->dof_damping, ddof, 14));
  ENSURE(SAME_D(m->dof_armature, adof, 14));
  ENSURE(SAME_D(m->dof_frictionloss, fdof, 14));
  ENSURE(m->qpos0[0] == -2);
  sc_model_free(m);
}

static void test_actuators_and_commands(void) {
  sc_model* m = load_file("s.yaml", NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  ENSURE(m->nact == 6 && m->ncmd == 6);
  if (m->nact != 6 || m->ncmd != 6) {
    sc_model_free(m);
    return;
  }
  const char* an[] = {"m", "s", "v", "c", "h", "k"};
  for (int a = 0; a < 6; a++) ENSURE(strcmp(m->act_name[a], an[a]) == 0);
  const int type[] = {SC_ACT_MOTOR, SC_ACT_POSITION, SC_ACT_VELOCITY, SC_ACT_MOTOR, SC_ACT_POSITION,
                      SC_ACT_VELOCITY};
  const int jnt[] = {0, 3, 3, 1, 1, 3}, local[] = {0, 2, 1, 0, 0, 0};
  const int dof[] = {0, 4, 3, 1, 1, 2}, qadr[] = {0, 4, 3, 1, 1, 2};
  const double gear[] = {2, 1, 1, -0.5, 1, 1}, kp[] = {0, 10, 0, 0, 100, 0}, kd[] = {0, 1, 3, 0, 0, 2};
  const double I = INFINITY;
  const double effort[] = {-5, I, -I, I, -1, 2, -I, I, -I, I, -I, I};
  /* commands: lift 0, tau_a 1, tau_b 2, steps 3, squeeze 4, lift_h5 5 */
  const int cmd[] = {1, 0, 2, 3, -1, 4}, cmd_vel[] = {-1, -1, -1, -1, 5, -1};
  const double input[] = {0, 0, 0, 0.5, 0, 0, 0, 0, 4.5, 0, 0, 0};
  const double theta[] = {SC_ACT_THETA_AUTO, 0.5, SC_ACT_THETA_AUTO, SC_ACT_THETA_AUTO,
                          SC_ACT_THETA_AUTO, SC_ACT_THETA_AUTO};
  ENSURE(SAME_I(m->act_type, type, 6));
  ENSURE(SAME_I(m->act_jnt, jnt, 6));
  ENSURE(SAME_I(m->act_local, local, 6));
  ENSURE(SAME_I(m->act_dof, dof, 6));
  ENSURE(SAME_I(m->act_qadr, qadr, 6));
  ENSURE(SAME_D(m->act_gear, gear, 6));
  ENSURE(SAME_D(m->act_kp, kp, 6));
  ENSURE(SAME_D(m->act_kd, kd, 6));
  ENSURE(SAME_D(m->act_effort, effort, 12));
  ENSURE(SAME_I(m->act_cmd, cmd, 6));
  ENSURE(SAME_I(m->act_cmd_vel, cmd_vel, 6));
  ENSURE(SAME_D(m->act_input, input, 12));
  ENSURE(SAME_D(m->act_theta, theta, 6));

  const char* cn[] = {"lift", "tau_a", "tau_b", "steps", "squeeze", "lift_h5"};
  for (int c = 0; c < 6; c++) ENSURE(strcmp(m->cmd_name[c], cn[c]) == 0);
  const int interp[] = {SC_INTERP_LINEAR, SC_INTERP_LINEAR, SC_INTERP_LINEAR, SC_INTERP_HOLD,
                        SC_INTERP_LINEAR, SC_INTERP_HOLD};
  const int adr[] = {0, 3, 6, 9, 11, 12}, len[] = {3, 3, 3, 2, 1, 3};
  ENSURE(SAME_I(m->cmd_interp, interp, 6));
  ENSURE(SAME_I(m->cmd_adr, adr, 6));
  ENSURE(SAME_I(m->cmd_len, len, 6));
  ENSURE(m->ncmddata == 15);
  const double t[] = {0, 1, 2, 0, 0.5, 1.5, 0, 0.5, 1.5, 0, 1, 0, 0.25, 0.75, 1.0};
  const double v[] = {0, 0.2, -0.4, 1, 3, 3, -2, 4, 0, 1, 3, 5.0, 1, -1, 0.5};
  if (m->ncmddata == 15) {
    ENSURE(SAME_D(m->cmd_time, t, 15));
    ENSURE(SAME_D(m->cmd_value, v, 15));
  }
  /* the joint rows a step may add: 3 finite limit sides, 5 dofs with dry
   * friction, 4 servos */
  ENSURE(m->nrow_max == 3 + 5 + 4);
  sc_model_free(m);
}

/* sc_model_command: linear and held values at the samples, between them,
 * before the first sample and after the last (the end values hold) */
static void test_command_interpolation(void) {
  sc_model* m = load_file("s.yaml", NULL, 0);
  ENSURE(m != NULL);
  if (!m) return;
  /* lift, inline, linear: (0, 0) (1, 0.2) (2, -0.4) */
  const double lt[] = {-5, -1e-9, 0, 0.25, 0.5, 1, 1.25, 1.5, 2, 2.5, 1e9};
  for (size_t i = 0; i < sizeof lt / sizeof lt[0]; i++) {
    double x = lt[i], want;
    if (x <= 0) want = 0;
    else if (x <= 1) want = 0.2 * x;
    else if (x <= 2) want = 0.2 + (x - 1) * (-0.6);
    else want = -0.4;
    ENSURE_NEAR(sc_model_command(m, 0, x), want, 1e-15);
  }
  /* tau_b, CSV, linear: (0, -2) (0.5, 4) (1.5, 0) */
  ENSURE(sc_model_command(m, 2, -1) == -2);
  ENSURE(sc_model_command(m, 2, 0) == -2);
  ENSURE_NEAR(sc_model_command(m, 2, 0.25), 1, 1e-15);
  ENSURE(sc_model_command(m, 2, 0.5) == 4);
  ENSURE_NEAR(sc_model_command(m, 2, 1.0), 2, 1e-15);
  ENSURE_NEAR(sc_model_command(m, 2, 1.25), 1, 1e-15);
  ENSURE(sc_model_command(m, 2, 1.5) == 0);
  ENSURE(sc_model_command(m, 2, 7) == 0);
  /* tau_a, CSV, linear: (0, 1) (0.5, 3) (1.5, 3) */
  ENSURE_NEAR(sc_model_command(m, 1, 0.1), 1.4, 1e-15);
  ENSURE(sc_model_command(m, 1, 1.0) == 3);
  /* steps, inline, hold: (0, 1) (1, 3) */
  ENSURE(sc_model_command(m, 3, -1) == 1);
  ENSURE(sc_model_command(m, 3, 0) == 1);
  ENSURE(sc_model_command(m, 3, 0.999) == 1);
  ENSURE(sc_model_command(m, 3, 1) == 3);
  ENSURE(sc_model_command(m, 3, 5) == 3);
  /* squeeze, a constant */
  ENSURE(sc_model_command(m, 4, -3) == 5 && sc_model_command(m, 4, 0) == 5 && sc_model_command(m, 4, 3) == 5);
  /* lift_h5, HDF5, hold: (0.25, 1) (0.75, -1) (1, 0.5) */
  ENSURE(sc_model_command(m, 5, 0) == 1);
  ENSURE(sc_model_command(m, 5, 0.25) == 1);
  ENSURE(sc_model_command(m, 5, 0.5) == 1);
  ENSURE(sc_model_command(m, 5, 0.75) == -1);
  ENSURE(sc_model_command(m, 5, 0.9) == -1);
  ENSURE(sc_model_command(m, 5, 1) == 0.5);
  ENSURE(sc_model_command(m, 5, 2) == 0.5);
  sc_model_free(m);

  /* a long table (binary search) against the formula, both laws */
  static char y[200000];
  int o = snprintf(y, sizeof y,
                   "simc: 1\ntime: {step: 0.001, duration: 1}\n"
                   "bodies: [{name: a, joint: {type: revolute}, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}]\n"
                   "actuators: [{name: m, type: motor, joint: a, command: sq},\n"
                   "            {name: n, type: motor, joint: a, command: sqh}]\n"
                   "commands:\n");
  for (int h = 0; h < 2; h++) {
    o += snprintf(y + o, sizeof y - (size_t)o, "  - {name: %s, interpolation: %s, time: [", h ? "sqh" : "sq",
                  h ? "hold" : "linear");
    for (int i = 0; i <= 1000; i++) o += snprintf(y + o, sizeof y - (size_t)o, "%s%d", i ? ", " : "", i);
    o += snprintf(y + o, sizeof y - (size_t)o, "], value: [");
    for (int i = 0; i <= 1000; i++) o += snprintf(y + o, sizeof y - (size_t)o, "%s%d", i ? ", " : "", i * i);
    o += snprintf(y + o, sizeof y - (size_t)o, "]}\n");
  }
  sc_model* l = NULL;
  sc_error err;
  ENSURE(sc_scene_load_string(y, "long.yaml", NULL, 0, &l, &err) == SC_OK);
  if (!l) return;
  int bad = 0;
  for (int i = 0; i < 4000; i++) {
    double x = -2 + 1004.0 * i / 4000.0;
    double k = floor(x), lin, hold;
    if (x <= 0) lin = hold = 0;
    else if (x >= 1000) lin = hold = 1e6;
    else {
      lin = k * k + (x - k) * (2 * k + 1);
      hold = k * k;
    }
    if (fabs(sc_model_command(l, 0, x) - lin) > 1e-9 * (1 + lin)) bad++;
    if (sc_model_command(l, 1, x) != hold) bad++;
  }
  ENSURE(bad == 0);
  sc_model_free(l);
}

/* the scene text after overrides re-loads to the same arrays (the files are
 * still relative to the scene's directory); overrides reach the new keys */
static void test_overrides_and_round_trip(void) {
  const char* sets[] = {"actuators.s.kp=20", "commands.lift.value=[0, 1, 2]",
                        "bodies.arm.joint.limits=[null, 1]", "bodies.puck.joint.damping=7",
                        "actuators.m.command=steps", "commands.steps.interpolation=linear",
                        "actuators.c.command=tau_a"};
  sc_model* a = load_file("s.yaml", sets, 7);
  ENSURE(a != NULL);
  if (!a) return;
  ENSURE(a->act_kp[1] == 20);
  ENSURE(a->cmd_value[1] == 1 && a->cmd_value[2] == 2);
  ENSURE(a->jnt_range[0] == -(double)INFINITY && a->jnt_range[1] == 1);
  ENSURE(a->dof_damping[2] == 7 && a->dof_damping[3] == 7 && a->dof_damping[4] == 7);
  ENSURE(a->act_cmd[0] == 3 && a->act_cmd[3] == 1 && a->cmd_interp[3] == SC_INTERP_LINEAR);
  sc_model* b = NULL;
  sc_error err;
  ENSURE(sc_scene_load_string(a->scene_yaml, a->scene_path, NULL, 0, &b, &err) == SC_OK);
  if (b) {
    ENSURE(b->nact == a->nact && b->ncmd == a->ncmd && b->ncmddata == a->ncmddata);
    ENSURE(SAME_D(b->jnt_range, a->jnt_range, 2 * a->njnt));
    ENSURE(SAME_D(b->jnt_limit_k, a->jnt_limit_k, a->njnt));
    ENSURE(SAME_D(b->jnt_limit_taud, a->jnt_limit_taud, a->njnt));
    ENSURE(SAME_D(b->jnt_damping, a->jnt_damping, 6 * a->njnt));
    ENSURE(SAME_D(b->jnt_armature, a->jnt_armature, 6 * a->njnt));
    ENSURE(SAME_D(b->jnt_frictionloss, a->jnt_frictionloss, 6 * a->njnt));
    ENSURE(SAME_I(b->act_type, a->act_type, a->nact) && SAME_I(b->act_dof, a->act_dof, a->nact));
    ENSURE(SAME_I(b->act_cmd, a->act_cmd, a->nact) && SAME_I(b->act_cmd_vel, a->act_cmd_vel, a->nact));
    ENSURE(SAME_D(b->act_kp, a->act_kp, a->nact) && SAME_D(b->act_kd, a->act_kd, a->nact));
    ENSURE(SAME_D(b->act_gear, a->act_gear, a->nact) && SAME_D(b->act_theta, a->act_theta, a->nact));
    ENSURE(SAME_D(b->act_effort, a->act_effort, 2 * a->nact));
    ENSURE(SAME_D(b->act_input, a->act_input, 2 * a->nact));
    ENSURE(SAME_I(b->cmd_interp, a->cmd_interp, a->ncmd) && SAME_I(b->cmd_adr, a->cmd_adr, a->ncmd));
    ENSURE(SAME_I(b->cmd_len, a->cmd_len, a->ncmd));
    ENSURE(SAME_D(b->cmd_time, a->cmd_time, a->ncmddata) && SAME_D(b->cmd_value, a->cmd_value, a->ncmddata));
    ENSURE(strcmp(a->scene_yaml, b->scene_yaml) == 0);
    sc_model_free(b);
  }
  sc_model_free(a);
}

/* located errors: in the scene, and in a CSV file at the field */
static void test_located_errors(void) {
  char e[1200];
  struct {
    const char* set;
    const char* want; /* after dir/ */
  } cases[] = {
      {"bodies.arm.joint.limits=[0.5, 0.2]", "--set:1:1: bodies.arm.joint.limits: lower 0.5 must be below upper 0.2"},
      {"bodies.ball.joint.limits=[0, 1]", "--set:1:1: bodies.ball.joint.limits: only revolute and prismatic joints have limits (joint type is ball)"},
      {"bodies.puck.joint.limit_dissipation=0.1", "--set:1:1: bodies.puck.joint.limit_dissipation: only allowed with limits"},
      {"bodies.arm.joint.limit_stiffness=0", "--set:1:1: bodies.arm.joint.limit_stiffness: must be > 0 (got 0)"},
      {"bodies.arm.joint.limit_stiffness=soft", "--set:1:1: bodies.arm.joint.limit_stiffness: expected a number > 0 or rigid (got 'soft')"},
      {"bodies.plate.joint.damping=1", "--set:1:1: bodies.plate.joint.damping: a fixed joint has no velocities (expected no damping)"},
      {"bodies.free.joint.armature=[1, 2, 3]", "--set:1:1: bodies.free.joint.armature: a free joint has 6 velocities (got a list of 3)"},
      {"bodies.ball.joint.friction=[0, -1, 0]", "--set:1:32: bodies[4].joint.friction[1]: must be >= 0 (got -1)"},
      {"actuators.m.kp=1", "--set:1:13: actuators[0].kp: kp does not apply to a motor actuator (expected name, type, joint, tendon, dof, command, effort, gear)"},
      {"actuators.s.gear=2", "--set:1:13: actuators[1].gear: gear does not apply to a position actuator"},
      {"actuators.k.velocity_command=1", "--set:1:13: actuators[5].velocity_command: velocity_command does not apply to a velocity actuator"},
      {"actuators.m.gear=0", "--set:1:1: actuators.m.gear: must be non-zero (got 0)"},
      {"actuators.s.kd=-1", "--set:1:1: actuators.s.kd: must be >= 0 (got -1)"},
      {"actuators.v.kd=0", "--set:1:1: actuators.v.kd: must be > 0 (got 0)"},
      {"actuators.s.theta=0", "--set:1:1: actuators.s.theta: must be auto or a number in (0, 1] (got 0)"},
      {"actuators.m.joint=ball", "--set:1:1: actuators.m.joint: joint 'ball' is a ball joint (expected a revolute, prismatic or planar joint)"},
      {"actuators.m.joint=nobody", "--set:1:1: actuators.m.joint: unknown joint 'nobody' (expected the name of a body)"},
      {"actuators.m.dof=1", "--set:1:1: actuators.m.dof: a revolute joint has dofs 0..0 (got 1)"},
      {"actuators.m.command=nothing", "--set:1:1: actuators.m.command: unknown command 'nothing' (expected a number or the name of a command)"},
      {"actuators.m.effort=[3, 3]", "--set:1:1: actuators.m.effort: lower 3 must be below upper 3"},
      {"actuators.v.name=s", "--set:1:1: actuators.v.name: duplicate actuator name 's' (first at line 32)"},
      {"commands.steps.name=lift", "--set:1:1: commands.steps.name: duplicate command name 'lift' (first at /tmp/simc_test_act"},
      {"commands.squeeze.name=tau_b", "--set:1:1: commands.squeeze.name: duplicate command name 'tau_b' (first at "},
      {"actuators.m.command=1", "cmd.csv:2:7: commands[1].tau_a: command 'tau_a' is used by no actuator"},
      {"commands.lift.time=[0, 2, 1]", "--set:1:27: commands[0].time[2]: must be greater than the previous time 2 (got 1; times increase strictly)"},
      {"commands.lift.value=[1, 2]", "--set:1:1: commands.lift.value: expected 3 values, one per time (got 2)"},
      {"commands.1.file=none.csv", "--set:1:1: commands.1.file: cannot open '"},
      {"commands.lift_h5.dataset=/g/none", "--set:1:1: commands.lift_h5.dataset: no dataset '/g/none' in '"},
      {"commands.lift_h5.file=cmd.csv", "--set:1:1: commands.lift_h5.file: cannot open '"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    file_error("s.yaml", &cases[i].set, 1, e, sizeof e);
    const char* w = cases[i].want;
    if (strncmp(w, "--set", 5) != 0) {
      ENSURE_ERR(e, w);
    } else {
      int ok = strncmp(e, w, strlen(w)) == 0;
      if (!ok) printf("  --set %s\n  got:  %s\n  want: %s...\n", cases[i].set, e, w);
      ENSURE(ok);
    }
  }
  /* CSV files: each problem at its line and column in the CSV */
  struct {
    const char* csv;
    const char* want; /* after dir/ */
  } bad[] = {
      {"time,tau_a,tau_b\n0,1,2\n0.5,3\n", "c.csv:3:6: commands[1].tau_b: missing value (the row has 2 of the header's 3 columns)"},
      {"time,tau_a,tau_b\n0,1,2\n0.5, 3 , 4x \n", "c.csv:3:10: commands[1].tau_b: expected a number (got '4x')"},
      {"time,tau_a,tau_b\n0,1,2\n0.5,,4\n", "c.csv:3:5: commands[1].tau_a: expected a number (got an empty field)"},
      {"time,tau_a,tau_b\n0,1,2\n0.5,1e999,4\n", "c.csv:3:5: commands[1].tau_a: must be a finite number (got '1e999')"},
      {"time,tau_a,tau_b\n0,1,2\n# c\n  0,3,4\n", "c.csv:4:3: commands[1].time: must be greater than the previous row's time 0 (got 0;"},
      {"time,tau_a,tau_b\n0,1,2\n1,3,4,5\n", "c.csv:3:7: commands[1]: the row has more fields than the header's 3 columns"},
      {"t,tau_a,tau_b\n0,1,2\n", "c.csv:1:1: commands[1]: the first column must be time (got 't')"},
      {"time,tau_a,,tau_b\n0,1,2,3\n", "c.csv:1:12: commands[1]: column 3 has an empty name"},
      {"time,tau_a,tau_a\n0,1,2\n", "c.csv:1:12: commands[1].tau_a: duplicate command name 'tau_a' (first at line 1)"},
      {"time,tau_a,lift\n0,1,2\n", "c.csv:1:12: commands[1].lift: duplicate command name 'lift' (first at "},
      {"time,tau_a,\"tau_b\"\n0,1,2\n", "c.csv:1:12: commands[1]: column 3's name holds a quote"},
      {"time\n0\n", "c.csv:1:5: commands[1]: expected a command column after time"},
      {"time,tau_a,tau_b\n", "c.csv:1:1: commands[1]: no rows under the header"},
      {"# nothing\n\n", "c.csv:1:1: commands[1]: no header"},
      {"time,tau_a,tau_b,spare\n0,1,2,3\n", "c.csv:1:18: commands[1].spare: command 'spare' is used by no actuator"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    write_file("c.csv", bad[i].csv);
    const char* set = "commands.1.file=c.csv";
    file_error("s.yaml", &set, 1, e, sizeof e);
    ENSURE_ERR(e, bad[i].want);
  }
  /* a long number, blanks and a final line without a line break are fine */
  write_file("c.csv", "time , tau_a, tau_b\n0, 1e-3, 2\n"
                      "0.50000000000000000000000000000000000000000000000000000000000000000000000001 ,\t-3 , 4");
  const char* good = "commands.1.file=c.csv";
  sc_model* m = load_file("s.yaml", &good, 1);
  ENSURE(m != NULL);
  if (m) {
    ENSURE(m->cmd_len[1] == 2 && m->cmd_time[m->cmd_adr[1] + 1] == 0.5);
    ENSURE(m->cmd_value[m->cmd_adr[1]] == 1e-3 && m->cmd_value[m->cmd_adr[1] + 1] == -3);
    ENSURE(m->cmd_value[m->cmd_adr[2] + 1] == 4);
    sc_model_free(m);
  }
  /* HDF5 datasets: at the scene's dataset value */
  const double mono[] = {0, 0, 1, 1, 1, 2};
  write_h5("bad.h5", "/lift", mono, 3, 2);
  write_h5("bad3.h5", "/lift", mono, 2, 3);
  const char* h1 = "commands.lift_h5={name: lift_h5, file: bad.h5, dataset: /lift}";
  file_error("s.yaml", &h1, 1, e, sizeof e);
  ENSURE_PREFIX(e, "--set:1:57: commands[4].dataset: row 2 (from 0) of '/lift': time 1 is not greater than the previous 1");
  const char* h2 = "commands.lift_h5={name: lift_h5, file: bad3.h5, dataset: /lift}";
  file_error("s.yaml", &h2, 1, e, sizeof e);
  ENSURE_PREFIX(e, "--set:1:58: commands[4].dataset: '/lift' in '");
  ENSURE(strstr(e, "bad3.h5' has shape (2, 3) (expected shape (n, 2): time, value)") != NULL);
  const char* h3 = "commands.lift_h5={name: lift_h5, file: cmd.h5}";
  file_error("s.yaml", &h3, 1, e, sizeof e);
  ENSURE_PREFIX(e, "--set:1:25: commands[4].name: a CSV file names its commands in its header");
}

/* the caps: a CSV file's size, its rows and columns */
static void test_csv_caps(void) {
  char e[1200], p[256];
  const char* set = "commands.1.file=big.csv";
  /* a sparse file just over the size cap is refused before it is read */
  snprintf(p, sizeof p, "%s/big.csv", dir);
  FILE* f = fopen(p, "wb");
  ENSURE(f != NULL);
  if (!f) return;
  ENSURE(ftruncate(fileno(f), (32 << 20) + 1) == 0);
  fclose(f);
  file_error("s.yaml", &set, 1, e, sizeof e);
  ENSURE(strstr(e, "--set:1:1: commands.1.file: '") == e && strstr(e, "is too large (33554433 bytes; the limit is 33554432)"));
  /* 1025 columns */
  f = fopen(p, "wb");
  fputs("time", f);
  for (int i = 0; i < 1024; i++) fprintf(f, ",c%d", i);
  fputs("\n0", f);
  for (int i = 0; i < 1024; i++) fputs(",0", f);
  fputs("\n", f);
  fclose(f);
  file_error("s.yaml", &set, 1, e, sizeof e);
  ENSURE_ERR(e, "big.csv:1:1: commands[1]: more than 1024 columns (the limit)");
  /* one row more than the cap of a table */
  f = fopen(p, "wb");
  fputs("time,tau_a,tau_b\n", f);
  for (int i = 0; i <= 1000000; i++) fprintf(f, "%d,0,0\n", i);
  fclose(f);
  file_error("s.yaml", &set, 1, e, sizeof e);
  ENSURE_ERR(e, "big.csv:1000002:1: commands[1]: more than 1000000 rows (the limit of a command table)");
  remove(p);
  /* a FIFO is refused without blocking */
  snprintf(p, sizeof p, "%s/fifo.csv", dir);
  ENSURE(mkfifo(p, 0600) == 0);
  const char* fs = "commands.1.file=fifo.csv";
  file_error("s.yaml", &fs, 1, e, sizeof e);
  ENSURE(strstr(e, "--set:1:1: commands.1.file: cannot read '") == e && strstr(e, "not a regular file"));
  remove(p);
}

/* commands and a limit-free scene: the defaults (no commands, no actuators,
 * infinite ranges) and constant inputs */
static void test_defaults(void) {
  sc_model* m = NULL;
  sc_error err;
  ENSURE(sc_scene_load_string("simc: 1\ntime: {step: 0.001, duration: 1}\n"
                              "bodies: [{name: a, joint: {type: prismatic, limits: [null, null]}, mass: 1,\n"
                              "          inertia: {ixx: 1, iyy: 1, izz: 1}}]\n"
                              "actuators: [{name: m, type: motor, joint: a},\n"
                              "            {name: p, type: position, joint: a, kp: 1, command: -0.25}]\n",
                              "d.yaml", NULL, 0, &m, &err) == SC_OK);
  if (!m) return;
  ENSURE(m->ncmd == 0 && m->ncmddata == 0 && m->nact == 2);
  ENSURE(m->jnt_range[0] == -(double)INFINITY && m->jnt_range[1] == (double)INFINITY && m->jnt_limit_k[0] == (double)INFINITY);
  ENSURE(m->act_cmd[0] == -1 && m->act_input[0] == 0 && m->act_gear[0] == 1 && m->act_kd[0] == 0);
  ENSURE(m->act_effort[0] == -(double)INFINITY && m->act_effort[1] == (double)INFINITY);
  ENSURE(m->act_cmd[1] == -1 && m->act_input[2] == -0.25 && m->act_input[3] == 0 && m->act_cmd_vel[1] == -1);
  ENSURE(m->act_theta[1] == SC_ACT_THETA_AUTO && m->nrow_max == 1);
  sc_model_free(m);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  snprintf(dir, sizeof dir, "/tmp/simc_test_actXXXXXX");
  if (!mkdtemp(dir)) {
    printf("FAIL mkdtemp\n");
    return 1;
  }
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  write_scene_files();
  RUN(test_joint_limits_damping_armature_friction);
  RUN(test_actuators_and_commands);
  RUN(test_command_interpolation);
  RUN(test_overrides_and_round_trip);
  RUN(test_located_errors);
  RUN(test_csv_caps);
  RUN(test_defaults);
  const char* files[] = {"s.yaml", "cmd.csv", "cmd.h5", "c.csv", "bad.h5", "bad3.h5"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, files[i]);
    remove(p);
  }
  rmdir(dir);
  return TEST_END();
}
