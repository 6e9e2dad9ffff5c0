/* springs: joint spring-dampers (on one velocity of a revolute, prismatic or
 * planar joint) and linear point-to-point spring-dampers between two bodies
 * (or a body and the world), read straight into the model: a first pass
 * counts them for sc_model_alloc, a second stores them. */
#include <string.h>

#include "scene/scene_internal.h"

static sc_status read_spring_end(ctx* c, const load* L, const sc_snode* s, const char* key,
                                 int* body, double pt[3]) {
  const sc_snode* e = sc_snode_get(s, key);
  if (!e) return sc_rd_fail_missing(c, s, key, "{body, point}");
  size_t m = sc_rd_push_key(c, key);
  sc_status st = sc_rd_check_section(c, e, "<spring end>", "a spring end");
  const sc_snode* bn = sc_snode_get(e, "body");
  if (!st && !bn) st = sc_rd_fail_missing(c, e, "body", "world or a body name");
  const char* name = NULL;
  if (!st) {
    size_t m2 = sc_rd_push_key(c, "body");
    st = sc_rd_as_name(c, bn, &name);
    if (!st) {
      if (strcmp(name, "world") == 0) {
        *body = 0;
      } else {
        int i = sc_rd_find_body(L, name);
        if (i < 0)
          st = sc_rd_fail(c, bn, "unknown body '%s' (expected world or a body name)", name);
        else
          *body = L->rank[i];
      }
    }
    sc_rd_pop(c, m2);
  }
  pt[0] = pt[1] = pt[2] = 0;
  if (!st) st = sc_rd_get_vec(c, e, "point", pt, 3);
  sc_rd_pop(c, m);
  return st;
}

/* springs go straight into the model (allocated by then) */
sc_status sc_rd_springs(ctx* c, const load* L, const sc_snode* list, sc_model* M, int fill) {
  static const char* const types[] = {"joint", "linear"};
  int nj = 0, nl = 0;
  for (int i = 0; list && i < list->n; i++) {
    const sc_snode* s = list->kid[i];
    size_t m = sc_rd_push_key(c, "springs");
    sc_rd_push_idx(c, i);
    sc_status st = SC_OK;
    if (s->kind != SC_SN_MAP) st = sc_rd_fail(c, s, "expected a spring map {type: joint|linear, ...}, got %s", sc_rd_kind_name(s));
    const sc_snode* t = st ? NULL : sc_snode_get(s, "type");
    if (!st && !t) st = sc_rd_fail_missing(c, s, "type", "joint or linear");
    int type = 0;
    if (!st) {
      size_t m2 = sc_rd_push_key(c, "type");
      st = sc_rd_as_enum(c, t, types, 2, "spring type", &type);
      sc_rd_pop(c, m2);
    }
    double k = 0, damp = 0, rest = 0;
    if (!st && type == 0) {
      st = sc_rd_check_section(c, s, "springs[] joint", "a joint spring");
      const sc_snode* jn = st ? NULL : sc_snode_get(s, "joint");
      if (!st && !jn) st = sc_rd_fail_missing(c, s, "joint", "the name of a body with a revolute, prismatic or planar joint");
      int bi = -1, dof = 0;
      if (!st) {
        const char* name = NULL;
        size_t m2 = sc_rd_push_key(c, "joint");
        st = sc_rd_as_name(c, jn, &name);
        if (!st) bi = sc_rd_find_body(L, name);
        if (!st && bi < 0)
          st = sc_rd_fail(c, jn, "unknown joint '%s' (expected the name of a body)", name);
        if (!st && L->body[bi].jtype != SC_JOINT_REVOLUTE && L->body[bi].jtype != SC_JOINT_PRISMATIC &&
            L->body[bi].jtype != SC_JOINT_PLANAR)
          st = sc_rd_fail(c, jn, "joint '%s' is %s joint (expected a revolute, prismatic or planar joint)",
                    name, L->body[bi].jtype == SC_JOINT_FIXED ? "a fixed"
                          : L->body[bi].jtype == SC_JOINT_BALL ? "a ball" : "a free");
        sc_rd_pop(c, m2);
      }
      int has_dof = 0;
      if (!st) st = sc_rd_get_int(c, s, "dof", &dof, 0, 0, &has_dof);
      if (!st && dof >= sc_joint_nv(L->body[bi].jtype)) {
        size_t m2 = sc_rd_push_key(c, "dof");
        st = sc_rd_fail(c, sc_snode_get(s, "dof"), "a %s joint has dofs 0..%d (got %d)",
                  sc_joint_type_name(L->body[bi].jtype), sc_joint_nv(L->body[bi].jtype) - 1, dof);
        sc_rd_pop(c, m2);
      }
      if (!st) st = sc_rd_get_num(c, s, "stiffness", &k, RANGE_NONNEG, 1, NULL);
      if (!st) st = sc_rd_get_num(c, s, "damping", &damp, RANGE_NONNEG, 0, NULL);
      if (!st) st = sc_rd_get_num(c, s, "rest", &rest, RANGE_ANY, 0, NULL);
      if (!st && fill) {
        M->jspring_jnt[nj] = L->rank[bi] - 1;
        M->jspring_local[nj] = dof;
        M->jspring_k[nj] = k;
        M->jspring_c[nj] = damp;
        M->jspring_rest[nj] = rest;
      }
      nj++;
    } else if (!st) {
      st = sc_rd_check_section(c, s, "springs[] linear", "a linear spring");
      int ba = 0, bb = 0;
      double pa[3], pb[3];
      if (!st) st = read_spring_end(c, L, s, "a", &ba, pa);
      if (!st) st = read_spring_end(c, L, s, "b", &bb, pb);
      if (!st) st = sc_rd_get_num(c, s, "stiffness", &k, RANGE_NONNEG, 1, NULL);
      if (!st) st = sc_rd_get_num(c, s, "damping", &damp, RANGE_NONNEG, 0, NULL);
      if (!st) st = sc_rd_get_num(c, s, "rest_length", &rest, RANGE_NONNEG, 0, NULL);
      if (!st && fill) {
        M->lspring_body[2 * nl] = ba;
        M->lspring_body[2 * nl + 1] = bb;
        for (int d = 0; d < 3; d++) {
          M->lspring_point[6 * nl + d] = pa[d];
          M->lspring_point[6 * nl + 3 + d] = pb[d];
        }
        M->lspring_k[nl] = k;
        M->lspring_c[nl] = damp;
        M->lspring_rest[nl] = rest;
      }
      nl++;
    }
    sc_rd_pop(c, m);
    TRY(st);
  }
  if (!fill) {
    M->njspring = nj;
    M->nlspring = nl;
  }
  return SC_OK;
}
