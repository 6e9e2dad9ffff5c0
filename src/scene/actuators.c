/* actuators: a motor or a servo on one velocity of a revolute, prismatic or
 * planar joint, driven by a command or a constant (doc/scenes.md):
 *   motor     the generalized force gear * u, u its input;
 *   position  an implicit servo to the commanded position (kp, kd), with a
 *             commanded velocity (velocity_command);
 *   velocity  an implicit servo to the commanded velocity (kd);
 * each force within its effort bounds.  The laws are the integrator's; this
 * file reads the keys into records for the model's act_ arrays.  Keys come
 * from the key table's "actuators[]" and "actuators[] <type>" sections, so a
 * key of another type is refused by name.  Commands are read first (their
 * names resolve here); afterwards every command must drive an actuator. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene/keys.h"
#include "scene/scene_internal.h"

static const char* const act_types[] = {"motor", "position", "velocity"};

/* an input: a number (a constant) or the name of a command */
static sc_status read_input(ctx* c, load* L, const sc_snode* map, const char* key, double* value,
                            int* cmd) {
  *value = 0;
  *cmd = -1;
  const sc_snode* v = sc_snode_get(map, key);
  if (!v) return SC_OK;
  size_t m = sc_rd_push_key(c, key);
  sc_status st = SC_OK;
  if (v->kind != SC_SN_SCALAR) {
    st = sc_rd_fail(c, v, "expected a command name or a number, got %s", sc_rd_kind_name(v));
  } else if (sc_rd_looks_numeric(v)) {
    st = sc_rd_as_num(c, v, value);
  } else {
    const char* name = NULL;
    st = sc_rd_as_name(c, v, &name);
    int k = st ? -1 : sc_rd_ni_lookup(&L->cmd_index, name, -1);
    if (!st && k < 0)
      st = sc_rd_fail(c, v, "unknown command '%s' (expected a number or the name of a command%s)", name,
                      L->ncmd ? "" : "; the scene has no commands");
    if (!st) {
      *cmd = k;
      L->cmd[k].used = 1;
    }
  }
  sc_rd_pop(c, m);
  return st;
}

static sc_status read_theta(ctx* c, const sc_snode* map, double* theta) {
  *theta = SC_ACT_THETA_AUTO;
  const sc_snode* v = sc_snode_get(map, "theta");
  if (!v) return SC_OK;
  size_t m = sc_rd_push_key(c, "theta");
  sc_status st = SC_OK;
  if (sc_rd_is_plain_scalar(v) && strcmp(v->str, "auto") == 0) {
    *theta = SC_ACT_THETA_AUTO;
  } else if (v->kind != SC_SN_SCALAR) {
    st = sc_rd_fail(c, v, "expected auto or a number in (0, 1], got %s", sc_rd_kind_name(v));
  } else if (!sc_rd_looks_numeric(v)) {
    st = sc_rd_fail(c, v, "expected auto or a number in (0, 1] (got '%s')", v->str);
  } else {
    st = sc_rd_as_num(c, v, theta);
    if (!st && !(*theta > 0 && *theta <= 1))
      st = sc_rd_fail(c, v, "must be auto or a number in (0, 1] (got %s)", v->str);
  }
  sc_rd_pop(c, m);
  return st;
}

/* the keys of an actuator of type t: its common ones and its type's */
static int allowed_keys(int t, const char** names, int max) {
  char section[40];
  int k = sc_scene_section_keys("actuators[]", names, max);
  snprintf(section, sizeof section, "actuators[] %s", act_types[t]);
  return k + sc_scene_section_keys(section, names + k, max - k);
}

static int has_key(const char* const* names, int n, const char* key) {
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], key) == 0) return 1;
  return 0;
}

/* the tendon named by key: 1 + its index in the scene's tendons list */
static sc_status read_tendon(ctx* c, const sc_snode* root, const sc_snode* n, int* tendon1) {
  size_t m = sc_rd_push_key(c, "tendon");
  int ten = -1;
  sc_status st = sc_rd_as_tendon(c, root, sc_snode_get(n, "tendon"), &ten);
  sc_rd_pop(c, m);
  *tendon1 = ten + 1;
  return st;
}

static sc_status read_actuator(ctx* c, load* L, const sc_snode* root, const sc_snode* n, act_in* a) {
  if (n->kind != SC_SN_MAP)
    return sc_rd_fail(c, n, "expected an actuator map {name, type, joint, ...}, got %s", sc_rd_kind_name(n));
  const sc_snode* tn = sc_snode_get(n, "type");
  if (!tn) return sc_rd_fail_missing(c, n, "type", "motor, position or velocity");
  size_t m = sc_rd_push_key(c, "type");
  sc_status st = sc_rd_as_enum(c, tn, act_types, NELEM(act_types), "actuator type", &a->type);
  sc_rd_pop(c, m);
  TRY(st);

  /* a key of another type is named as such; then the usual check */
  const char* allowed[32];
  int na = allowed_keys(a->type, allowed, 32);
  char list[400], what[40];
  sc_rd_join_names(list, sizeof list, allowed, na);
  for (int i = 0; i < n->n; i++) {
    const sc_snode* key = n->kid[2 * i];
    if (has_key(allowed, na, key->str)) continue;
    for (int t = 0; t < NELEM(act_types); t++) {
      const char* other[32];
      if (t == a->type || !has_key(other, allowed_keys(t, other, 32), key->str)) continue;
      m = sc_rd_push_key(c, key->str);
      st = sc_rd_fail(c, key, "%s does not apply to a %s actuator (expected %s)", key->str,
                      act_types[a->type], list);
      sc_rd_pop(c, m);
      return st;
    }
  }
  snprintf(what, sizeof what, "a %s actuator", act_types[a->type]);
  TRY(sc_rd_check_map(c, n, allowed, na, what));

  const sc_snode* s = sc_snode_get(n, "name");
  if (!s) return sc_rd_fail_missing(c, n, "name", "a unique actuator name");
  m = sc_rd_push_key(c, "name");
  st = sc_rd_as_name(c, s, &a->name);
  sc_rd_pop(c, m);
  TRY(st);

  const sc_snode* jn = sc_snode_get(n, "joint");
  a->tendon1 = 0;
  if (sc_snode_get(n, "tendon")) {
    /* an actuator pulling on a tendon: no joint, no dof */
    TRY(read_tendon(c, root, n, &a->tendon1));
    const char* other = jn ? "joint" : sc_snode_get(n, "dof") ? "dof" : NULL;
    if (other) {
      m = sc_rd_push_key(c, other);
      st = sc_rd_fail(c, sc_snode_get(n, other), "an actuator on a tendon has no %s (give joint or tendon)", other);
      sc_rd_pop(c, m);
      return st;
    }
    a->jnt = a->local = 0;
  }
  if (!jn && !a->tendon1)
    return sc_rd_fail_missing(c, n, "joint", "the name of a body with a revolute, prismatic or planar joint (or tendon: a tendon's name)");
  int bi = -1;
  const char* jname = NULL;
  if (!a->tendon1) {
    m = sc_rd_push_key(c, "joint");
    st = sc_rd_as_name(c, jn, &jname);
    if (!st) bi = sc_rd_find_body(L, jname);
    if (!st && bi < 0) st = sc_rd_fail(c, jn, "unknown joint '%s' (expected the name of a body)", jname);
    sc_joint_type jt = bi >= 0 ? L->body[bi].jtype : SC_JOINT_FIXED;
    if (!st && jt != SC_JOINT_REVOLUTE && jt != SC_JOINT_PRISMATIC && jt != SC_JOINT_PLANAR)
      st = sc_rd_fail(c, jn, "joint '%s' is %s joint (expected a revolute, prismatic or planar joint)", jname,
                      jt == SC_JOINT_FIXED ? "a fixed" : jt == SC_JOINT_BALL ? "a ball" : "a free");
    sc_rd_pop(c, m);
    TRY(st);
    a->jnt = L->rank[bi] - 1;
    a->local = 0;
    TRY(sc_rd_get_int(c, n, "dof", &a->local, 0, 0, NULL));
    if (a->local >= sc_joint_nv(jt)) {
      m = sc_rd_push_key(c, "dof");
      st = sc_rd_fail(c, sc_snode_get(n, "dof"), "a %s joint has dofs 0..%d (got %d)", sc_joint_type_name(jt),
                      sc_joint_nv(jt) - 1, a->local);
      sc_rd_pop(c, m);
      return st;
    }
  }

  TRY(read_input(c, L, n, "command", &a->input[0], &a->cmd));
  a->gear = 1;
  a->kp = a->kd = 0;
  a->input[1] = 0;
  a->cmd_vel = -1;
  if (a->type == SC_ACT_MOTOR) {
    int has = 0;
    TRY(sc_rd_get_num(c, n, "gear", &a->gear, RANGE_ANY, 0, &has));
    if (has && a->gear == 0) {
      m = sc_rd_push_key(c, "gear");
      st = sc_rd_fail(c, sc_snode_get(n, "gear"), "must be non-zero (got %s)", sc_snode_get(n, "gear")->str);
      sc_rd_pop(c, m);
      return st;
    }
  } else if (a->type == SC_ACT_POSITION) {
    TRY(sc_rd_get_num(c, n, "kp", &a->kp, RANGE_POS, 1, NULL));
    TRY(sc_rd_get_num(c, n, "kd", &a->kd, RANGE_NONNEG, 0, NULL));
    TRY(read_input(c, L, n, "velocity_command", &a->input[1], &a->cmd_vel));
  } else {
    TRY(sc_rd_get_num(c, n, "kd", &a->kd, RANGE_POS, 1, NULL));
  }
  a->effort[0] = -INFINITY;
  a->effort[1] = INFINITY;
  const sc_snode* e = sc_snode_get(n, "effort");
  if (e) {
    m = sc_rd_push_key(c, "effort");
    st = sc_rd_as_bounds(c, e, a->effort);
    sc_rd_pop(c, m);
    TRY(st);
  }
  a->theta = SC_ACT_THETA_AUTO;
  if (a->type != SC_ACT_MOTOR) TRY(read_theta(c, n, &a->theta));
  return SC_OK;
}

sc_status sc_rd_actuators(ctx* c, load* L, const sc_snode* root) {
  const sc_snode* n = sc_snode_get(root, "actuators");
  sc_status st = SC_OK;
  if (n) {
    size_t m = sc_rd_push_key(c, "actuators");
    name_index names = {0};
    if (n->kind != SC_SN_SEQ) st = sc_rd_fail(c, n, "expected a list of actuators, got %s", sc_rd_kind_name(n));
    if (!st) {
      L->act = sc_calloc((size_t)n->n, sizeof *L->act);
      if (!L->act || sc_rd_ni_init(&names, n->n)) st = SC_ERR_NOMEM;
    }
    for (int i = 0; !st && i < n->n; i++) {
      size_t m2 = sc_rd_push_idx(c, i);
      st = read_actuator(c, L, root, n->kid[i], &L->act[i]);
      int d = st ? -1 : sc_rd_ni_lookup(&names, L->act[i].name, i);
      if (d >= 0) {
        size_t m3 = sc_rd_push_key(c, "name");
        st = sc_rd_fail(c, sc_snode_get(n->kid[i], "name"), "duplicate actuator name '%s' (first at line %d)",
                        L->act[i].name, sc_snode_get(n->kid[d], "name")->line);
        sc_rd_pop(c, m3);
      }
      if (!st) L->nact = i + 1;
      sc_rd_pop(c, m2);
    }
    sc_rd_ni_free(&names);
    sc_rd_pop(c, m);
  }
  if (!st) st = sc_rd_commands_used(c, L);
  return st;
}
