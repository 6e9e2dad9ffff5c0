/* api_check: a program built against the installed include/simc.h and
 * libsimc.so only (test/t_install.sh compiles it with the installed
 * pkg-config file, outside the source tree).  Usage:
 *   api_check GRIPPER.yaml STEPS OUT_PREFIX
 * writes OUT_PREFIX.{cmd,ctrl}.q: the final q (one %.17g per line) of the
 * gripper run as its scene commands it and of one whose two motors are
 * driven through simc_set_ctrl at 3 N, and OUT_PREFIX.rec.h5, the first
 * run recorded through simc_recorder_* (t_install.sh compares them with the
 * command line's runs of the same scene, bit for bit), and prints PASS/FAIL
 * lines for what it checks itself:
 *  - a copy of the data taken halfway steps as the original, bit for bit;
 *  - the box held by friction: over the last step the contacts' impulses
 *    along the world's z on the box sum to its weight's, m g dt, within
 *    1e-3 relative (statics: the box is at rest in the fingers);
 *  - a scene with an error fails to load with its file, line and column;
 *  - an index out of range is refused (SIMC_ERR_ARG), never read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simc.h>

static int failures;
static void check(const char* name, int good, const char* detail) {
  printf("%s %s\n  %s\n", good ? "PASS" : "FAIL", name, detail);
  failures += !good;
}

static int write_q(const simc_model* m, const simc_data* d, const char* path) {
  const int nq = simc_count(m, SIMC_QPOS);
  double* q = malloc(sizeof(double) * (size_t)(nq + 1));
  FILE* f = fopen(path, "w");
  if (!q || !f) return -1;
  simc_get_q(m, d, q);
  for (int i = 0; i < nq; i++) fprintf(f, "%.17g\n", q[i]);
  fclose(f);
  free(q);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: api_check GRIPPER.yaml STEPS OUT_PREFIX\n");
    return 2;
  }
  const int steps = atoi(argv[2]);
  char path[4096], buf[1400];
  simc_error err;
  simc_model* m = simc_load(argv[1], NULL, 0, &err);
  if (!m) {
    simc_error_string(&err, buf, sizeof buf);
    fprintf(stderr, "api_check: %s\n", buf);
    return 1;
  }
  /* as the scene commands it, recorded into OUT_PREFIX.rec.h5 step by
   * step, with a branch copied halfway that must step as the original */
  simc_data* d = simc_data_make(m, &err);
  snprintf(path, sizeof path, "%s.rec.h5", argv[3]);
  simc_recorder* rec = d ? simc_recorder_open(m, d, path, NULL, &err) : NULL;
  simc_data* branch = d ? simc_data_make(m, &err) : NULL;
  int st = rec && branch ? SIMC_OK : -1, rst = st;
  for (int k = 0; k < steps && st == SIMC_OK; k++) {
    if (k == steps / 2) st = simc_data_copy(m, branch, d, &err);
    if (st == SIMC_OK) st = simc_step(m, d, 1, &err);
    if (st == SIMC_OK && k >= steps / 2) st = simc_step(m, branch, 1, &err);
    if (st == SIMC_OK) rst = simc_recorder_step(rec, m, d, &err);
    if (rst != SIMC_OK) st = rst;
  }
  rst = rec ? simc_recorder_close(rec, m, d, NULL, NULL, &err) : -1;
  snprintf(buf, sizeof buf, "the recorder's run into %.1300s", path);
  check("api_recorder_closes", st == SIMC_OK && rst == SIMC_OK, buf);
  snprintf(path, sizeof path, "%s.cmd.q", argv[3]);
  check("api_steps_as_commanded", st == SIMC_OK && write_q(m, d, path) == 0,
        "the scene's own commands, its dt");
  {
    const int nq = simc_count(m, SIMC_QPOS);
    double* qa = malloc(sizeof(double) * 2 * (size_t)(nq + 1));
    int same = qa && branch;
    if (same) {
      simc_get_q(m, d, qa);
      simc_get_q(m, branch, qa + nq + 1);
      same = memcmp(qa, qa + nq + 1, sizeof(double) * (size_t)nq) == 0;
    }
    free(qa);
    check("api_copy_steps_as_the_original", same, "a copy taken halfway, stepped beside it");
  }
  simc_data_free(branch);

  /* the box's weight carried by the contacts of the last step: the
   * impulses on it, taken to the world through each contact's frame */
  const int box = simc_index(m, SIMC_BODY, "box");
  double jz = 0;
  int nc = 0;
  for (int i = 0; d && i < simc_ncontact(d); i++) {
    simc_contact c;
    if (simc_get_contact(d, i, &c) != SIMC_OK || (c.body[0] != box && c.body[1] != box)) continue;
    const double sign = c.body[1] == box ? 1.0 : -1.0;
    for (int k = 0; k < 3; k++) jz += sign * c.impulse[k] * c.frame[3 * k + 2];
    nc++;
  }
  const double weight = 0.2 * 9.81 * simc_timestep(m); /* the scene's box: 0.2 kg */
  snprintf(buf, sizeof buf, "%d contacts on the box; their vertical impulse %.9g N s against m g dt = %.9g",
           nc, jz, weight);
  check("api_contacts_hold_the_box", nc > 0 && fabs(jz - weight) <= 1e-3 * weight, buf);
  double e[5];
  simc_energy(d, e);
  snprintf(buf, sizeof buf, "energies %.6g %.6g %.6g %.6g %.6g J", e[0], e[1], e[2], e[3], e[4]);
  check("api_energy", e[0] < 1e-6 && isfinite(e[1]) && isfinite(e[3]), buf);
  simc_data_free(d);

  /* driven through the API: 3 N on each finger instead of the scene's 2 N */
  d = simc_data_make(m, &err);
  const int left = simc_index(m, SIMC_ACTUATOR, "left"), right = simc_index(m, SIMC_ACTUATOR, "right");
  st = d && left >= 0 && right >= 0 && simc_set_ctrl(m, d, left, 3.0) == SIMC_OK &&
               simc_set_ctrl(m, d, right, 3.0) == SIMC_OK
           ? simc_step(m, d, steps, &err)
           : -1;
  snprintf(path, sizeof path, "%s.ctrl.q", argv[3]);
  snprintf(buf, sizeof buf, "motors at %.17g and %.17g N, forces %.17g and %.17g N",
           d ? simc_ctrl_used(m, d, left) : NAN, d ? simc_ctrl_used(m, d, right) : NAN,
           d ? simc_actuator_force(m, d, left) : NAN, d ? simc_actuator_force(m, d, right) : NAN);
  check("api_steps_with_controls",
        st == SIMC_OK && write_q(m, d, path) == 0 && simc_ctrl_used(m, d, left) == 3.0 &&
            simc_actuator_force(m, d, right) == 3.0,
        buf);
  /* out of range: refused, nothing read or written */
  check("api_refuses_bad_index",
        simc_set_ctrl(m, d, 99, 1.0) == SIMC_ERR_ARG && simc_get_contact(d, -1, NULL) == SIMC_ERR_ARG &&
            simc_name(m, SIMC_BODY, 1000) == NULL && simc_index(m, SIMC_BODY, "nope") == -1,
        "actuator 99, contact -1, body 1000, body \"nope\"");
  simc_data_free(d);
  simc_model_free(m);

  /* a located error */
  snprintf(path, sizeof path, "%s.bad.yaml", argv[3]);
  FILE* f = fopen(path, "w");
  if (f) {
    fputs("simc: 1\nname: bad\ntime: {step: 1.0e-3, duration: 1}\nbodies:\n  - name: b\n"
          "    joint: {type: free}\n    mass: -1\n",
          f);
    fclose(f);
  }
  simc_model* bad = simc_load(path, NULL, 0, &err);
  simc_error_string(&err, buf, sizeof buf);
  check("api_error_located",
        !bad && err.code == SIMC_ERR_SCENE && strcmp(err.file, path) == 0 && err.line == 7 && err.col > 0,
        buf);
  simc_model_free(bad);
  return failures ? 1 : 0;
}
