/* The scene schema's key table (src/scene/keys.c) against the loader and
 * against doc/scenes.md.
 *
 * Every row is checked against what the loader does with the key, on a base
 * scene that holds every section:
 *  - a default written as YAML text loads the same model as the key left out
 *    (every option, body, joint, shape and spring field compared exactly);
 *  - a range refuses a value just outside it ("> 0": 0, ">= 0": -1, "!= 0": 0, ...),
 *    with a message that names the key;
 *  - a type refuses a value of another type (a number: abc, an integer: 1.5,
 *    true/false: maybe, a vector of 3: [1, 2], a name: [a], one of a list of
 *    names: an unknown name).
 * doc/scenes.md's key reference must be this table printed by
 * `test_scene_keys --print`; `make doc` rewrites it (--write FILE). */
#include "harness.h"
#include "scene/keys.h"
#include "scene/scene.h"

#include <stdlib.h>

static const char* BASE =
    "simc: 1\n"
    "time: {step: 0.001, duration: 0.01}\n"
    "materials: {rubber: {friction: 0.9}}\n"
    "bodies:\n"
    "  - name: b\n"
    "    joint: {type: free}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.1, iyy: 0.12, izz: 0.14}\n"
    "    initial: {q: [0, 0, 1, 1, 0, 0, 0]}\n"
    "    geometry:\n"
    "      - {shape: sphere, radius: 0.1, material: rubber}\n"
    "      - {shape: capsule, radius: 0.05, length: 0.2}\n"
    "      - {shape: cylinder, radius: 0.05, length: 0.2}\n"
    "      - {shape: box, size: [0.1, 0.2, 0.3]}\n"
    "      - {shape: ellipsoid, radii: [0.1, 0.05, 0.02]}\n"
    "      - {shape: mesh, file: test/meshes/cube.obj}\n"
    "  - name: p\n"
    "    parent: b\n"
    "    joint: {type: revolute, limits: [-1, 1]}\n"
    "    mass: 2\n"
    "    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1}\n"
    "  - name: r\n"
    "    parent: b\n"
    "    joint: {type: prismatic}\n"
    "    mass: 1\n"
    "    inertia: {ixx: 0.1, iyy: 0.1, izz: 0.1}\n"
    "static:\n"
    "  - {shape: plane}\n"
    "springs:\n"
    "  - {type: joint, joint: p, stiffness: 3}\n"
    "  - {type: linear, a: {body: b}, b: {body: world, point: [0, 0, 2]}, stiffness: 4}\n"
    "constraints:\n"
    "  - {type: connect, a: {body: p, point: [0, 0, 0.1]}, b: {body: world}}\n"
    "  - {type: weld, a: {body: r}, b: {body: world}}\n"
    "  - {type: joint, joint: r, of: p}\n"
    "  - {type: distance, a: {body: b}, b: {body: world, point: [0, 0, 2]}}\n"
    "  - {type: tendon, tendon: ts, of: tf}\n"
    "tendons:\n"
    "  - {name: tf, type: fixed, joints: [{joint: p}, {joint: r, coef: 2}], limits: [-1, 1]}\n"
    "  - {name: ts, type: spatial, path: [{body: world, point: [0, 0, 2]}, {body: b}, {pulley: 2},\n"
    "     {body: world, point: [0, 0, 3]}, {body: b}],\n"
    "     limits: [null, 3]}\n"
    "  - {name: tc, type: slider_crank, crank: {body: b, point: [0.1, 0, 0]},\n"
    "     slider: {body: world, axis: [1, 0, 0]}, rod: 0.5, limits: [null, 2]}\n"
    "  - {name: tw, type: spatial, path: [{body: world, point: [0, 0, 2]},\n"
    "     {wrap: cylinder, body: p, radius: 0.1, side: {body: world}}, {body: b}]}\n"
    "actuators:\n"
    "  - {name: m, type: motor, joint: p}\n"
    "  - {name: s, type: position, joint: p, kp: 10, command: lift}\n"
    "  - {name: v, type: velocity, joint: p, kd: 2, command: spin}\n"
    "commands:\n"
    "  - {name: lift, time: [0, 1], value: [0, 0.5]}\n"
    "  - {name: spin, value: 2}\n"
    "models:\n"
    "  - {file: test/mjcf/arm3.urdf}\n";

/* integrator.theta exists only with scheme: theta */
static const char* THETA_BASE = "integrator={scheme: theta, theta: {q: 0.5, v: 0.5, vq: 0.5}}";

/* the --set path of a key of each section in BASE; NULL: not addressable */
static const char* section_path(const char* section) {
  static const char* const map[][2] = {
      {"", ""},
      {"fluid", "fluid."},
      {"time", "time."},
      {"integrator", "integrator."},
      {"integrator.theta", "integrator.theta."},
      {"integrator.newton", "integrator.newton."},
      {"contact", "contact."},
      {"contact.lcp", "contact.lcp."},
      {"contact.defaults", "contact.defaults."},
      {"materials.<name>", "materials.rubber."},
      {"output", "output."},
      {"bodies[]", "bodies.b."},
      {"bodies[].joint", "bodies.p.joint."},
      {"bodies[].inertia", "bodies.b.inertia."},
      {"bodies[].initial", "bodies.b.initial."},
      {"<pose>", "bodies.p.joint.origin."},
      {"<shape>", "bodies.b.geometry.0."},
      {"<shape> sphere", "bodies.b.geometry.0."},
      {"<shape> capsule", "bodies.b.geometry.1."},
      {"<shape> cylinder", "bodies.b.geometry.2."},
      {"<shape> box", "bodies.b.geometry.3."},
      {"<shape> ellipsoid", "bodies.b.geometry.4."},
      {"<shape> mesh", "bodies.b.geometry.5."},
      {"<shape> plane", "static.0."},
      {"springs[] joint", "springs.0."},
      {"springs[] linear", "springs.1."},
      {"<spring end>", "springs.1.a."},
      {"constraints[] connect", "constraints.0."},
      {"constraints[] weld", "constraints.1."},
      {"constraints[] joint", "constraints.2."},
      {"constraints[] distance", "constraints.3."},
      {"<constraint end>", "constraints.0.a."},
      {"constraints[] tendon", "constraints.4."},
      {"tendons[] fixed", "tendons.0."},
      {"tendons[] spatial", "tendons.1."},
      {"<tendon joint>", "tendons.0.joints.0."},
      {"<tendon point>", "tendons.1.path.1."},
      {"<tendon pulley>", "tendons.1.path.2."},
      {"<tendon wrap>", "tendons.3.path.1."},
      {"<wrap side>", "tendons.3.path.1.side."},
      {"tendons[] slider_crank", "tendons.2."},
      {"<slider point>", "tendons.2.slider."},
      {"actuators[]", "actuators.m."},
      {"actuators[] motor", "actuators.m."},
      {"actuators[] position", "actuators.s."},
      {"actuators[] velocity", "actuators.v."},
      {"commands[]", "commands.lift."},
      {"models[]", "models.0."},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i][0], section) == 0) return map[i][1];
  return NULL;
}

static sc_model* load_with(const char* set1, const char* set2, char* msg, size_t n) {
  const char* sets[2];
  int k = 0;
  if (set1) sets[k++] = set1;
  if (set2) sets[k++] = set2;
  sc_model* m = NULL;
  sc_error err;
  if (sc_scene_load_string(BASE, "base.yaml", sets, k, &m, &err) != SC_OK) {
    if (msg) sc_error_format(&err, msg, n);
    return NULL;
  }
  if (msg) msg[0] = '\0';
  return m;
}

/* equal arrays where NAN equals NAN (an unresolved rest length) */
static int same_nan(const double* a, const double* b, int n) {
  for (int i = 0; i < n; i++)
    if (!(a[i] == b[i] || (isnan(a[i]) && isnan(b[i])))) return 0;
  return 1;
}

#define SAME_ARR(f, len) (memcmp(a->f, b->f, sizeof *a->f * (size_t)(len)) == 0)

static int same_options(const sc_options* x, const sc_options* y) {
  return x->dt == y->dt && x->duration == y->duration && x->gravity[0] == y->gravity[0] &&
         x->gravity[1] == y->gravity[1] && x->gravity[2] == y->gravity[2] &&
         x->scheme == y->scheme && x->theta_q == y->theta_q && x->theta_v == y->theta_v &&
         x->theta_vq == y->theta_vq && x->newton_tol == y->newton_tol &&
         x->newton_maxit == y->newton_maxit && x->solver == y->solver &&
         x->contact_tol == y->contact_tol && x->contact_maxit == y->contact_maxit &&
         x->on_failure == y->on_failure && x->lcp_directions == y->lcp_directions &&
         x->lcp_warm_start == y->lcp_warm_start && x->lcp_max_memory == y->lcp_max_memory &&
         x->sigma == y->sigma && x->beta == y->beta && x->slip_curvature == y->slip_curvature &&
         x->contact_theta == y->contact_theta && x->near_rigid_depth == y->near_rigid_depth &&
         x->beta_min == y->beta_min && x->contact_passes == y->contact_passes &&
         x->relinearize == y->relinearize && x->penetration_warning == y->penetration_warning &&
         x->margin == y->margin && x->speculative == y->speculative &&
         x->midstep_jacobian == y->midstep_jacobian && x->contact_model == y->contact_model &&
         x->stiction_anchor == y->stiction_anchor &&
         x->restitution_velocity == y->restitution_velocity &&
         x->ncon_max == y->ncon_max && x->threads == y->threads &&
         x->output_every == y->output_every && x->output_contacts == y->output_contacts &&
         x->output_solver_trace == y->output_solver_trace;
}

/* every field the loader fills */
static int same_model(const sc_model* a, const sc_model* b) {
  if (a->nbody != b->nbody || a->ngeom != b->ngeom || a->nq != b->nq || a->nv != b->nv ||
      a->njspring != b->njspring || a->nlspring != b->nlspring || a->nact != b->nact ||
      a->ncmd != b->ncmd || a->ncmddata != b->ncmddata)
    return 0;
  if (!same_options(&a->opt, &b->opt)) return 0;
  if (a->nmesh != b->nmesh || !SAME_ARR(geom_mesh, a->ngeom)) return 0;
  for (int i = 0; i < a->nmesh; i++)
    if (a->mesh[i].nvert != b->mesh[i].nvert ||
        memcmp(a->mesh[i].vert, b->mesh[i].vert, 3 * sizeof(double) * (size_t)a->mesh[i].nvert) != 0)
      return 0;
  for (int i = 0; i < a->nbody; i++)
    if (strcmp(a->body_name[i], b->body_name[i]) != 0) return 0;
  for (int i = 0; i < a->nact; i++)
    if (strcmp(a->act_name[i], b->act_name[i]) != 0) return 0;
  for (int i = 0; i < a->ncmd; i++)
    if (strcmp(a->cmd_name[i], b->cmd_name[i]) != 0) return 0;
  const int J = SC_JNT_MAXDOF * a->njnt;
  if (!(SAME_ARR(jnt_damping, J) && SAME_ARR(jnt_armature, J) && SAME_ARR(jnt_frictionloss, J) &&
        SAME_ARR(jnt_range, 2 * a->njnt) && SAME_ARR(jnt_limit_k, a->njnt) &&
        SAME_ARR(jnt_limit_taud, a->njnt) && SAME_ARR(act_type, a->nact) &&
        SAME_ARR(act_jnt, a->nact) && SAME_ARR(act_local, a->nact) && SAME_ARR(act_gear, a->nact) &&
        SAME_ARR(act_kp, a->nact) && SAME_ARR(act_kd, a->nact) &&
        SAME_ARR(act_effort, 2 * a->nact) && SAME_ARR(act_cmd, a->nact) &&
        SAME_ARR(act_input, 2 * a->nact) && SAME_ARR(act_cmd_vel, a->nact) &&
        SAME_ARR(act_theta, a->nact) && SAME_ARR(cmd_interp, a->ncmd) &&
        SAME_ARR(cmd_adr, a->ncmd) && SAME_ARR(cmd_len, a->ncmd) &&
        SAME_ARR(cmd_time, a->ncmddata) && SAME_ARR(cmd_value, a->ncmddata)))
    return 0;
  return SAME_ARR(body_parent, a->nbody) && SAME_ARR(body_mass, a->nbody) &&
         SAME_ARR(body_com, 3 * a->nbody) && SAME_ARR(body_inertia, 9 * a->nbody) &&
         SAME_ARR(jnt_type, a->njnt) && SAME_ARR(jnt_axis, 3 * a->njnt) &&
         SAME_ARR(jnt_pos, 3 * a->njnt) && SAME_ARR(jnt_rot, 9 * a->njnt) &&
         SAME_ARR(qpos0, a->nq) && SAME_ARR(qvel0, a->nv) && SAME_ARR(geom_type, a->ngeom) &&
         SAME_ARR(geom_body, a->ngeom) && SAME_ARR(geom_pos, 3 * a->ngeom) &&
         SAME_ARR(geom_rot, 9 * a->ngeom) && SAME_ARR(geom_size, 3 * a->ngeom) &&
         SAME_ARR(geom_stiffness, a->ngeom) && SAME_ARR(geom_dissipation, a->ngeom) &&
         SAME_ARR(geom_friction, a->ngeom) && SAME_ARR(geom_hc_dissipation, a->ngeom) &&
         SAME_ARR(geom_restitution, a->ngeom) &&
         SAME_ARR(geom_contype, a->ngeom) && SAME_ARR(geom_conaffinity, a->ngeom) &&
         a->nexclude == b->nexclude && SAME_ARR(exclude_body, 2 * a->nexclude) &&
         SAME_ARR(jspring_jnt, a->njspring) && SAME_ARR(jspring_local, a->njspring) &&
         SAME_ARR(jspring_k, a->njspring) && SAME_ARR(jspring_c, a->njspring) &&
         SAME_ARR(jspring_rest, a->njspring) && SAME_ARR(lspring_body, 2 * a->nlspring) &&
         SAME_ARR(lspring_point, 6 * a->nlspring) && SAME_ARR(lspring_k, a->nlspring) &&
         SAME_ARR(lspring_c, a->nlspring) && SAME_ARR(lspring_rest, a->nlspring) &&
         a->neq == b->neq && SAME_ARR(eq_type, a->neq) && SAME_ARR(eq_obj, 2 * a->neq) &&
         SAME_ARR(eq_data, SC_EQ_NDATA * a->neq) && SAME_ARR(eq_auto, a->neq) &&
         SAME_ARR(eq_k, a->neq) && SAME_ARR(eq_taud, a->neq) && a->ntendon == b->ntendon &&
         a->nwrap == b->nwrap && SAME_ARR(ten_type, a->ntendon) &&
         SAME_ARR(ten_wrapadr, a->ntendon) && SAME_ARR(ten_wrapnum, a->ntendon) &&
         SAME_ARR(ten_range, 2 * a->ntendon) && SAME_ARR(ten_limit_k, a->ntendon) &&
         SAME_ARR(ten_limit_taud, a->ntendon) && SAME_ARR(ten_k, a->ntendon) &&
         SAME_ARR(ten_c, a->ntendon) && same_nan(a->ten_rest, b->ten_rest, a->ntendon) &&
         SAME_ARR(wrap_jnt, a->nwrap) && SAME_ARR(wrap_coef, a->nwrap) &&
         SAME_ARR(wrap_body, a->nwrap) && SAME_ARR(wrap_point, 3 * a->nwrap);
}

static int literal_default(const sc_scene_key* k) {
  return k->def[0] && k->def[0] != '(' && strcmp(k->def, "required") != 0;
}

/* the base scene loads, and a changed value does change the model, so the
 * comparison below can fail */
static void test_base_and_comparison(void) {
  char msg[1200];
  sc_model* a = load_with(NULL, NULL, msg, sizeof msg);
  if (!a) printf("  %s\n", msg);
  ENSURE(a != NULL);
  sc_model* b = load_with("contact.sigma=2e-3", NULL, msg, sizeof msg);
  sc_model* c = load_with("bodies.b.geometry.3.size=[0.1, 0.2, 0.31]", NULL, msg, sizeof msg);
  sc_model* d = load_with("springs.1.b.point=[0, 0, 2.5]", NULL, msg, sizeof msg);
  /* the joints', actuators' and commands' fields are compared too */
  sc_model* e = load_with("bodies.p.joint.damping=0.5", NULL, msg, sizeof msg);
  sc_model* f = load_with("actuators.s.kd=0.5", NULL, msg, sizeof msg);
  sc_model* g = load_with("commands.lift.value=[0, 0.25]", NULL, msg, sizeof msg);
  sc_model* h = load_with("bodies.p.joint.limits=[-1, 2]", NULL, msg, sizeof msg);
  sc_model* i = load_with("constraints.2.ratio=0.25", NULL, msg, sizeof msg);
  sc_model* j = load_with("tendons.1.path.1.point=[0, 0.1, 0]", NULL, msg, sizeof msg);
  ENSURE(j != NULL);
  if (a && j) ENSURE(!same_model(a, j));
  sc_model_free(j);
  ENSURE(i != NULL);
  if (a && i) ENSURE(!same_model(a, i));
  sc_model_free(i);
  ENSURE(b && c && d && e && f && g && h);
  if (a && b && c && d && e && f && g && h) {
    ENSURE(same_model(a, a));
    ENSURE(!same_model(a, b));
    ENSURE(!same_model(a, c));
    ENSURE(!same_model(a, d));
    ENSURE(!same_model(a, e));
    ENSURE(!same_model(a, f));
    ENSURE(!same_model(a, g));
    ENSURE(!same_model(a, h));
  }
  sc_model_free(a);
  sc_model_free(b);
  sc_model_free(c);
  sc_model_free(d);
  sc_model_free(e);
  sc_model_free(f);
  sc_model_free(g);
  sc_model_free(h);
}

/* every key of the table is addressable in the base scene */
static void test_every_section_addressed(void) {
  int n;
  const sc_scene_key* k = sc_scene_keys(&n);
  ENSURE(n > 90);
  for (int i = 0; i < n; i++)
    if (!section_path(k[i].section)) {
      printf("  section '%s' has no path in the base scene\n", k[i].section);
      ENSURE(0);
    }
}

static void test_defaults_load_the_same_model(void) {
  int n, checked = 0;
  const sc_scene_key* k = sc_scene_keys(&n);
  char msg[1200];
  sc_model* base = load_with(NULL, NULL, msg, sizeof msg);
  sc_model* tbase = load_with(THETA_BASE, NULL, msg, sizeof msg);
  ENSURE(base && tbase);
  for (int i = 0; base && tbase && i < n; i++) {
    if (!literal_default(&k[i])) continue;
    int theta = strcmp(k[i].section, "integrator.theta") == 0;
    char set[300];
    snprintf(set, sizeof set, "%s%s=%s", section_path(k[i].section), k[i].key, k[i].def);
    sc_model* m = load_with(theta ? THETA_BASE : set, theta ? set : NULL, msg, sizeof msg);
    if (!m) {
      printf("  --set %s: %s\n", set, msg);
      ENSURE(0);
      continue;
    }
    if (!same_model(m, theta ? tbase : base)) {
      printf("  --set %s (the stated default) changes the model\n", set);
      ENSURE(0);
    }
    checked++;
    sc_model_free(m);
  }
  printf("  %d defaults checked\n", checked);
  ENSURE(checked >= 45);
  sc_model_free(base);
  sc_model_free(tbase);
}

/* load with --set PATH=VALUE, expect an error naming PATH that contains want */
static int refused(const sc_scene_key* k, const char* value, const char* want) {
  int theta = strcmp(k->section, "integrator.theta") == 0;
  char set[300], path[200], msg[1200];
  snprintf(path, sizeof path, "%s%s", section_path(k->section), k->key);
  snprintf(set, sizeof set, "%s=%s", path, value);
  sc_model* m = load_with(theta ? THETA_BASE : set, theta ? set : NULL, msg, sizeof msg);
  if (m) {
    printf("  --set %s loaded (expected: %s)\n", set, want);
    sc_model_free(m);
    return 0;
  }
  if (!strstr(msg, path) || !strstr(msg, want)) {
    printf("  --set %s: %s (expected '%s' about %s)\n", set, msg, want, path);
    return 0;
  }
  return 1;
}

static void test_ranges_refuse_the_value_outside(void) {
  int n, checked = 0;
  const sc_scene_key* k = sc_scene_keys(&n);
  for (int i = 0; i < n; i++) {
    const char* r = k[i].range;
    if (!r[0]) continue;
    int ok;
    if (strcmp(r, "> 0") == 0)
      ok = refused(&k[i], "0", "must be > 0");
    else if (strcmp(r, ">= 0") == 0)
      ok = refused(&k[i], "-1", "must be >= 0");
    else if (strcmp(r, "[0, 1]") == 0)
      ok = refused(&k[i], "1.5", "must be in [0, 1]") && refused(&k[i], "-0.5", "must be in [0, 1]");
    else if (strcmp(r, ">= 1") == 0)
      ok = refused(&k[i], "0", "must be >= 1");
    else if (strcmp(r, "!= 0") == 0)
      ok = refused(&k[i], "0", "must be non-zero");
    else if (strcmp(r, ">= 4, even") == 0)
      ok = refused(&k[i], "2", "must be >= 4") && refused(&k[i], "5", "must be even");
    else {
      printf("  %s.%s: range '%s' has no check here\n", k[i].section, k[i].key, r);
      ok = 0;
    }
    ENSURE(ok);
    checked++;
  }
  printf("  %d ranges checked\n", checked);
  ENSURE(checked >= 40);
}

static int commas(const char* s) {
  int n = 0;
  for (; *s; s++) n += *s == ',';
  return n;
}

static void test_types_refuse_other_types(void) {
  int n, checked = 0;
  const sc_scene_key* k = sc_scene_keys(&n);
  for (int i = 0; i < n; i++) {
    const char* t = k[i].type;
    int ok = -1;
    if (strcmp(t, "number") == 0)
      ok = refused(&k[i], "abc", "expected a number");
    else if (strcmp(t, "integer") == 0)
      ok = refused(&k[i], "1.5", "expected an integer");
    else if (strcmp(t, "true/false") == 0)
      ok = refused(&k[i], "maybe", "expected true or false");
    else if (strcmp(t, "name") == 0)
      ok = refused(&k[i], "[a]", "expected a name");
    else if (t[0] == '[' && commas(t) == 2)
      ok = refused(&k[i], "[1, 2]", "expected a list of 3 numbers");
    else if (strstr(t, " | ") && !strstr(t, "number") && !strstr(t, "integer") && !strstr(t, "map"))
      ok = refused(&k[i], "frobnicate", "unknown");
    if (ok < 0) continue;
    ENSURE(ok);
    checked++;
  }
  printf("  %d types checked\n", checked);
  ENSURE(checked >= 70);
}

/* ---- doc/scenes.md's key reference ---- */

static const char* BEGIN = "<!-- keys: printed from src/scene/keys.c by `make doc`; test_scene_keys checks it -->";
static const char* END = "<!-- end of keys -->";

/* one table cell; as code, alternatives "a | b" become `a` \| `b` */
static void cell(FILE* f, const char* s, int code) {
  fputs("| ", f);
  if (code) fputc('`', f);
  for (; *s; s++) {
    if (code && strncmp(s, " | ", 3) == 0) {
      fputs("` \\| `", f);
      s += 2;
    } else if (*s == '|') {
      fputs("\\|", f);
    } else {
      fputc(*s, f);
    }
  }
  if (code) fputc('`', f);
  fputc(' ', f);
}

static void print_keys(FILE* f) {
  int n;
  const sc_scene_key* k = sc_scene_keys(&n);
  fprintf(f, "%s\n", BEGIN);
  for (int i = 0; i < n; i++) {
    if (i == 0 || strcmp(k[i].section, k[i - 1].section) != 0) {
      if (k[i].section[0])
        fprintf(f, "\n#### `%s`\n\n", k[i].section);
      else
        fprintf(f, "\n#### Top level\n\n");
      fprintf(f, "| key | type | unit | default | range | meaning |\n|---|---|---|---|---|---|\n");
    }
    char key[80];
    snprintf(key, sizeof key, "%s", k[i].key);
    cell(f, key, 1);
    /* values a key takes are code; descriptive types are text */
    int code_type = strstr(k[i].type, " | ") ||
                    (k[i].type[0] == '[') || strcmp(k[i].type, "joint") == 0 ||
                    strcmp(k[i].type, "linear") == 0;
    if (strstr(k[i].type, "number in") || strstr(k[i].type, "integer in") ||
        strstr(k[i].type, "number |") || strstr(k[i].type, "map |"))
      code_type = 0;
    cell(f, k[i].type, code_type);
    cell(f, k[i].unit, 0);
    cell(f, k[i].def, literal_default(&k[i]));
    cell(f, k[i].range, 0);
    cell(f, k[i].doc, 0);
    fputs("|\n", f);
  }
  fprintf(f, "\n%s", END); /* the text after it is the page's own */
}

static char* slurp(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char* b = malloc(cap);
  size_t r;
  while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0) {
    n += r;
    if (n + 1 >= cap) {
      char* nb = realloc(b, cap *= 2);
      if (!nb) {
        free(b);
        b = NULL;
      }
      b = nb;
    }
  }
  fclose(f);
  if (b) b[n] = '\0';
  *len = n;
  return b;
}

/* the table as doc/scenes.md must hold it */
static char* printed(void) {
  char* buf = NULL;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  if (!f) return NULL;
  print_keys(f);
  fclose(f);
  return buf;
}

static const char* DOC = "doc/scenes.md";

static void test_doc_is_the_table(void) {
  size_t len;
  char* doc = slurp(DOC, &len);
  char* want = printed();
  ENSURE(doc && want);
  if (doc && want) {
    char* a = strstr(doc, BEGIN);
    char* e = a ? strstr(a, END) : NULL;
    ENSURE(a && e);
    if (a && e) {
      size_t got = (size_t)(e + strlen(END) - a);
      int same = got == strlen(want) && memcmp(a, want, got) == 0;
      if (!same) printf("  %s's key reference differs from src/scene/keys.c: run make doc\n", DOC);
      ENSURE(same);
    }
  }
  free(doc);
  free(want);
}

/* rewrite the key reference in place */
static int write_doc(const char* path) {
  size_t len;
  char* doc = slurp(path, &len);
  char* want = printed();
  if (!doc || !want) return 1;
  char* a = strstr(doc, BEGIN);
  char* e = a ? strstr(a, END) : NULL;
  if (!a || !e) {
    fprintf(stderr, "%s: no key reference between '%s' and '%s'\n", path, BEGIN, END);
    return 1;
  }
  FILE* f = fopen(path, "wb");
  if (!f) return 1;
  fwrite(doc, 1, (size_t)(a - doc), f);
  fputs(want, f);
  fputs(e + strlen(END), f);
  int bad = fclose(f) != 0;
  free(doc);
  free(want);
  return bad;
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "--print") == 0) {
    print_keys(stdout);
    putchar('\n');
    return 0;
  }
  if (argc > 2 && strcmp(argv[1], "--write") == 0) return write_doc(argv[2]);
  TEST_BEGIN(argc, argv);
  RUN(test_base_and_comparison);
  RUN(test_every_section_addressed);
  RUN(test_defaults_load_the_same_model);
  RUN(test_ranges_refuse_the_value_outside);
  RUN(test_types_refuse_other_types);
  RUN(test_doc_is_the_table);
  return TEST_END();
}
