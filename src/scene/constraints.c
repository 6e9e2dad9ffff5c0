/* constraints: the scene's equality constraints (connect, weld, joint,
 * distance; doc/constraints.md), read straight into the model: a first
 * pass counts them for sc_model_alloc, a second stores them.  What a
 * constraint does not give (b's point, a weld's rotation, a distance) is
 * taken where the bodies are at the start (SC_EQ_AUTO_*). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene/scene_internal.h"
#include "spatial/spatial.h"

/* body: world (0) or a body's model index */
static sc_status read_body(ctx* c, const load* L, const sc_snode* n, int* body) {
  const char* name = NULL;
  sc_status st = sc_rd_as_name(c, n, &name);
  if (st) return st;
  if (strcmp(name, "world") == 0) {
    *body = 0;
    return SC_OK;
  }
  const int i = sc_rd_find_body(L, name);
  if (i < 0) return sc_rd_fail(c, n, "unknown body '%s' (expected world or a body name)", name);
  *body = L->rank[i];
  return SC_OK;
}

/* an end {body, point}; *has_point: the point was given */
static sc_status read_end(ctx* c, const load* L, const sc_snode* s, const char* key, int* body,
                          double pt[3], int* has_point) {
  const sc_snode* e = sc_snode_get(s, key);
  if (!e) return sc_rd_fail_missing(c, s, key, "{body, point}");
  size_t m = sc_rd_push_key(c, key);
  sc_status st = sc_rd_check_section(c, e, "<constraint end>", "a constraint end");
  const sc_snode* bn = st ? NULL : sc_snode_get(e, "body");
  if (!st && !bn) st = sc_rd_fail_missing(c, e, "body", "world or a body name");
  if (!st) {
    size_t m2 = sc_rd_push_key(c, "body");
    st = read_body(c, L, bn, body);
    sc_rd_pop(c, m2);
  }
  pt[0] = pt[1] = pt[2] = 0;
  *has_point = sc_snode_get(e, "point") != NULL;
  if (!st) st = sc_rd_get_vec(c, e, "point", pt, 3);
  sc_rd_pop(c, m);
  return st;
}

/* a joint coupling's joint: a body whose joint has one coordinate */
static sc_status read_joint(ctx* c, const load* L, const sc_snode* s, const char* key, int* jnt) {
  const sc_snode* jn = sc_snode_get(s, key);
  size_t m = sc_rd_push_key(c, key);
  const char* name = NULL;
  sc_status st = sc_rd_as_name(c, jn, &name);
  int bi = -1;
  if (!st) bi = sc_rd_find_body(L, name);
  if (!st && bi < 0) st = sc_rd_fail(c, jn, "unknown joint '%s' (expected the name of a body)", name);
  if (!st && L->body[bi].jtype != SC_JOINT_REVOLUTE && L->body[bi].jtype != SC_JOINT_PRISMATIC)
    st = sc_rd_fail(c, jn, "joint '%s' is %s joint (expected a revolute or prismatic joint)", name,
                    sc_joint_type_name(L->body[bi].jtype));
  if (!st) *jnt = L->rank[bi] - 1;
  sc_rd_pop(c, m);
  return st;
}

/* a tendon by name: its index in the scene's tendons list */
static sc_status read_tendon(ctx* c, const sc_snode* root, const sc_snode* s, const char* key,
                             int* ten) {
  const sc_snode* tn = sc_snode_get(s, key);
  size_t m = sc_rd_push_key(c, key);
  const char* name = NULL;
  sc_status st = sc_rd_as_name(c, tn, &name);
  const sc_snode* list = sc_snode_get(root, "tendons");
  *ten = -1;
  for (int i = 0; !st && list && list->kind == SC_SN_SEQ && i < list->n; i++) {
    const sc_snode* nn = list->kid[i]->kind == SC_SN_MAP ? sc_snode_get(list->kid[i], "name") : NULL;
    if (nn && nn->kind == SC_SN_SCALAR && strcmp(nn->str, name) == 0) *ten = i;
  }
  if (!st && *ten < 0) st = sc_rd_fail(c, tn, "unknown tendon '%s' (expected the name of a tendon)", name);
  sc_rd_pop(c, m);
  return st;
}

static sc_status read_one(ctx* c, const load* L, const sc_snode* root, const sc_snode* s, int i,
                          sc_model* M, int fill) {
  static const char* const types[] = {"connect", "weld", "joint", "distance", "tendon"};
  static const char* const sections[] = {"constraints[] connect", "constraints[] weld",
                                         "constraints[] joint", "constraints[] distance",
                                         "constraints[] tendon"};
  if (s->kind != SC_SN_MAP)
    return sc_rd_fail(c, s, "expected a constraint map {type: connect|weld|joint|distance|tendon, ...}, got %s",
                      sc_rd_kind_name(s));
  const sc_snode* t = sc_snode_get(s, "type");
  if (!t) return sc_rd_fail_missing(c, s, "type", "connect, weld, joint, distance or tendon");
  int type = 0;
  size_t m = sc_rd_push_key(c, "type");
  sc_status st = sc_rd_as_enum(c, t, types, 5, "constraint type", &type);
  sc_rd_pop(c, m);
  TRY(st);
  TRY(sc_rd_check_section(c, s, sections[type], "a constraint"));
  double data[SC_EQ_NDATA] = {0};
  int obj[2] = {0, 0}, autobits = 0;
  if (type == SC_EQ_JOINT || type == SC_EQ_TENDON) {
    if (type == SC_EQ_JOINT) {
      if (!sc_snode_get(s, "joint")) return sc_rd_fail_missing(c, s, "joint", "the name of a body with a revolute or prismatic joint");
      TRY(read_joint(c, L, s, "joint", &obj[0]));
      obj[1] = -1;
      if (sc_snode_get(s, "of")) TRY(read_joint(c, L, s, "of", &obj[1]));
    } else {
      if (!sc_snode_get(s, "tendon")) return sc_rd_fail_missing(c, s, "tendon", "the name of a tendon");
      TRY(read_tendon(c, root, s, "tendon", &obj[0]));
      obj[1] = -1;
      if (sc_snode_get(s, "of")) TRY(read_tendon(c, root, s, "of", &obj[1]));
      autobits |= SC_EQ_AUTO_LENGTH; /* (the lengths' references: at the start) */
    }
    if (obj[1] == obj[0]) {
      m = sc_rd_push_key(c, "of");
      st = sc_rd_fail(c, sc_snode_get(s, "of"), "a %s cannot follow itself",
                      type == SC_EQ_JOINT ? "joint" : "tendon");
      sc_rd_pop(c, m);
      return st;
    }
    const sc_snode* pn = sc_snode_get(s, "polynomial");
    if (pn) {
      const char* other = sc_snode_get(s, "ratio") ? "ratio" : sc_snode_get(s, "offset") ? "offset" : NULL;
      if (other) {
        m = sc_rd_push_key(c, other);
        st = sc_rd_fail(c, sc_snode_get(s, other), "give either polynomial or ratio and offset, not both");
        sc_rd_pop(c, m);
        return st;
      }
      if (pn->kind != SC_SN_SEQ || pn->n < 1 || pn->n > 5) {
        m = sc_rd_push_key(c, "polynomial");
        st = sc_rd_fail(c, pn, "expected a list of 1 to 5 coefficients [c0, c1, c2, c3, c4]");
        sc_rd_pop(c, m);
        return st;
      }
      m = sc_rd_push_key(c, "polynomial");
      for (int k = 0; !st && k < pn->n; k++) {
        size_t m2 = sc_rd_push_idx(c, k);
        st = sc_rd_as_num(c, pn->kid[k], &data[k]);
        sc_rd_pop(c, m2);
      }
      sc_rd_pop(c, m);
      TRY(st);
    } else {
      data[1] = 1.0;
      TRY(sc_rd_get_num(c, s, "ratio", &data[1], RANGE_ANY, 0, NULL));
      TRY(sc_rd_get_num(c, s, "offset", &data[0], RANGE_ANY, 0, NULL));
    }
    if (obj[1] < 0)
      for (int k = 1; k < 5; k++) data[k] = 0.0; /* without `of` the joint (tendon) is held at c0 */
    if (type == SC_EQ_JOINT) {
      TRY(sc_rd_get_vec(c, s, "reference", data + 5, 2));
      if (obj[1] < 0) data[6] = 0.0;
    }
  } else {
    int has_a, has_b;
    TRY(read_end(c, L, s, "a", &obj[0], data, &has_a));
    TRY(read_end(c, L, s, "b", &obj[1], data + 3, &has_b));
    if (obj[0] == obj[1]) {
      m = sc_rd_push_key(c, "b");
      st = sc_rd_fail(c, sc_snode_get(s, "b"), "a constraint needs two different bodies (both ends are on %s)",
                      obj[0] == 0 ? "the world" : "the same body");
      sc_rd_pop(c, m);
      return st;
    }
    /* (a distance's b point is b's origin unless given: where a's point
     * is would make the distance 0) */
    if (!has_b && type != SC_EQ_DISTANCE) autobits |= SC_EQ_AUTO_POINT_B;
    if (type == SC_EQ_WELD && sc_snode_get(s, "quat")) {
      double q[4];
      TRY(sc_rd_get_vec(c, s, "quat", q, 4));
      if (!(sc_sp_quat_normalize(q) > 0)) {
        m = sc_rd_push_key(c, "quat");
        st = sc_rd_fail(c, sc_snode_get(s, "quat"), "a zero quaternion has no orientation");
        sc_rd_pop(c, m);
        return st;
      }
      sc_sp_quat_to_mat3(data + 6, q);
    } else if (type == SC_EQ_WELD) {
      autobits |= SC_EQ_AUTO_ROT;
    }
    if (type == SC_EQ_DISTANCE) {
      int has_l = 0;
      TRY(sc_rd_get_num(c, s, "distance", &data[6], RANGE_POS, 0, &has_l));
      if (!has_l) autobits |= SC_EQ_AUTO_LENGTH;
    }
  }
  double k = INFINITY, taud = 0.0;
  const sc_snode* kn = sc_snode_get(s, "stiffness");
  if (kn) {
    m = sc_rd_push_key(c, "stiffness");
    st = sc_rd_as_rigid_or_pos(c, kn, &k);
    sc_rd_pop(c, m);
    TRY(st);
  }
  TRY(sc_rd_get_num(c, s, "dissipation_time", &taud, RANGE_NONNEG, 0, NULL));
  const char* name = NULL;
  const sc_snode* nn = sc_snode_get(s, "name");
  if (nn) {
    m = sc_rd_push_key(c, "name");
    st = sc_rd_as_name(c, nn, &name);
    sc_rd_pop(c, m);
    TRY(st);
  }
  if (fill) {
    char buf[32];
    if (!name) {
      snprintf(buf, sizeof buf, "constraint%d", i);
      name = buf;
    }
    if (!(M->eq_name[i] = sc_strdup(name))) return SC_ERR_NOMEM;
    M->eq_type[i] = type;
    M->eq_obj[2 * i] = obj[0];
    M->eq_obj[2 * i + 1] = obj[1];
    memcpy(M->eq_data + SC_EQ_NDATA * i, data, sizeof data);
    M->eq_auto[i] = autobits;
    M->eq_k[i] = k;
    M->eq_taud[i] = taud;
  }
  return SC_OK;
}

sc_status sc_rd_constraints(ctx* c, const load* L, const sc_snode* root, sc_model* M, int fill) {
  const sc_snode* list = sc_snode_get(root, "constraints");
  if (!list) return SC_OK;
  size_t m = sc_rd_push_key(c, "constraints");
  sc_status st = SC_OK;
  if (list->kind != SC_SN_SEQ)
    st = sc_rd_fail(c, list, "expected a list of constraints, got %s", sc_rd_kind_name(list));
  for (int i = 0; !st && i < list->n; i++) {
    size_t m2 = sc_rd_push_idx(c, i);
    st = read_one(c, L, root, list->kid[i], i, M, fill);
    sc_rd_pop(c, m2);
  }
  sc_rd_pop(c, m);
  TRY(st);
  if (!fill) M->neq = list->n;
  return SC_OK;
}
