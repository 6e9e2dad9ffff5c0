/* bodies: each body's joint, mass, inertia and initial state, and the order
 * of the bodies in the model.
 *
 * Joint frames: origin {position, rpy} places the joint frame J in the
 * parent, R = Rz(yaw) Ry(pitch) Rx(roll); the body frame is J at q = 0.
 * An inertia given by its entries must be positive definite and obey the
 * triangle inequality of a real mass distribution.  Parents are named in any
 * order; the model orders bodies so each comes after its parent (a child may
 * precede its parent in the file), and a cycle is reported with its chain.
 * A joint may carry limits (revolute and prismatic), and damping, armature
 * and dry friction per velocity: one number for all of them or one each. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene/keys.h"
#include "scene/scene_internal.h"
#include "spatial/spatial.h"

static sc_status read_inertia(ctx* c, body_in* b, const sc_snode* n) {
  if (sc_rd_is_plain_scalar(n) && strcmp(n->str, "solid") == 0) {
    b->solid = 1;
    return SC_OK;
  }
  if (n->kind != SC_SN_MAP)
    return n->kind == SC_SN_SCALAR
               ? sc_rd_fail(c, n, "expected {ixx, iyy, izz, ixy, ixz, iyz} or solid (got '%s')", n->str)
               : sc_rd_fail(c, n, "expected {ixx, iyy, izz, ixy, ixz, iyz} or solid, got %s",
                      sc_rd_kind_name(n));
  TRY(sc_rd_check_section(c, n, "bodies[].inertia", "an inertia"));
  const char* ik[6]; /* ixx, iyy, izz (required), ixy, ixz, iyz */
  sc_scene_section_keys("bodies[].inertia", ik, 6);
  double v[6] = {0};
  for (int i = 0; i < 6; i++) TRY(sc_rd_get_num(c, n, ik[i], &v[i], RANGE_ANY, i < 3, NULL));
  double* I = b->inertia;
  I[0] = v[0];
  I[4] = v[1];
  I[8] = v[2];
  I[1] = I[3] = v[3];
  I[2] = I[6] = v[4];
  I[5] = I[7] = v[5];
  double lam[3];
  sc_scene_sym3_eig(I, lam);
  double tr = lam[0] + lam[1] + lam[2];
  if (b->has_mass && b->mass == 0) { /* a massless link */
    if (lam[0] != 0 || lam[1] != 0 || lam[2] != 0)
      return sc_rd_fail(c, n, "a body of mass 0 has no inertia (got principal moments %g, %g, %g)",
                        lam[0], lam[1], lam[2]);
    return SC_OK;
  }
  if (!(lam[0] > 0 && lam[1] > 0 && lam[2] > 0))
    return sc_rd_fail(c, n, "inertia is not positive definite (principal moments %g, %g, %g)", lam[0],
                lam[1], lam[2]);
  /* a real mass distribution has I1 <= I2 + I3; the slack admits rounded inputs */
  for (int i = 0; i < 3; i++)
    if (lam[i] > tr - lam[i] + 1e-4 * tr)
      return sc_rd_fail(c, n,
                  "principal moments %g, %g, %g violate the triangle inequality "
                  "(expected each <= the sum of the other two)",
                  lam[0], lam[1], lam[2]);
  return SC_OK;
}

/* damping, armature or friction: one number >= 0 for every velocity of the
 * joint, or a list of one per velocity */
static sc_status read_per_dof(ctx* c, const sc_snode* j, const char* key, const body_in* b,
                              double* x) {
  const sc_snode* v = sc_snode_get(j, key);
  if (!v) return SC_OK;
  const int nv = sc_joint_nv(b->jtype);
  size_t m = sc_rd_push_key(c, key);
  sc_status st = SC_OK;
  if (nv == 0) {
    st = sc_rd_fail(c, v, "a fixed joint has no velocities (expected no %s)", key);
  } else if (v->kind == SC_SN_SEQ) {
    if (v->n != nv)
      st = sc_rd_fail(c, v, "a %s joint has %d velocities (got a list of %d)",
                      sc_joint_type_name(b->jtype), nv, v->n);
    for (int k = 0; !st && k < nv; k++) {
      size_t m2 = sc_rd_push_idx(c, k);
      st = sc_rd_as_num(c, v->kid[k], &x[k]);
      if (!st) st = sc_rd_check_range(c, v->kid[k], x[k], RANGE_NONNEG);
      sc_rd_pop(c, m2);
    }
  } else if (v->kind == SC_SN_SCALAR && !sc_rd_looks_numeric(v)) {
    st = sc_rd_fail(c, v, "expected a number >= 0 or a list of %d (got '%s')", nv, v->str);
  } else {
    st = sc_rd_as_num(c, v, &x[0]);
    if (!st) st = sc_rd_check_range(c, v, x[0], RANGE_NONNEG);
    for (int k = 1; !st && k < nv; k++) x[k] = x[0];
  }
  sc_rd_pop(c, m);
  return st;
}

/* the joint's limits and their law, damping, armature and dry friction (j:
 * the joint map, its type read) */
static sc_status read_joint_dofs(ctx* c, const sc_snode* j, body_in* b) {
  b->range[0] = -INFINITY;
  b->range[1] = INFINITY;
  b->limit_k = INFINITY;
  b->limit_taud = 0;
  const sc_snode* lim = sc_snode_get(j, "limits");
  sc_status st = SC_OK;
  if (lim) {
    size_t m = sc_rd_push_key(c, "limits");
    if (b->jtype != SC_JOINT_REVOLUTE && b->jtype != SC_JOINT_PRISMATIC)
      st = sc_rd_fail(c, lim, "only revolute and prismatic joints have limits (joint type is %s)",
                      sc_joint_type_name(b->jtype));
    if (!st) st = sc_rd_as_bounds(c, lim, b->range);
    sc_rd_pop(c, m);
    TRY(st);
  }
  static const char* const law[] = {"limit_stiffness", "limit_dissipation"};
  for (int i = 0; i < 2; i++) {
    const sc_snode* v = sc_snode_get(j, law[i]);
    if (!v) continue;
    size_t m = sc_rd_push_key(c, law[i]);
    if (!lim) st = sc_rd_fail(c, v, "only allowed with limits (expected limits: [lower, upper] on this joint)");
    if (!st && i == 0) st = sc_rd_as_rigid_or_pos(c, v, &b->limit_k);
    sc_rd_pop(c, m);
    TRY(st);
    if (i == 1) TRY(sc_rd_get_num(c, j, law[i], &b->limit_taud, RANGE_NONNEG, 0, NULL));
  }
  TRY(read_per_dof(c, j, "damping", b, b->damping));
  TRY(read_per_dof(c, j, "armature", b, b->armature));
  return read_per_dof(c, j, "friction", b, b->friction);
}

static sc_status read_body(ctx* c, const sc_snode* n, body_in* b) {
  static const char* const jtypes[] = {"fixed", "revolute", "prismatic", "planar", "ball", "free"};
  TRY(sc_rd_check_section(c, n, "bodies[]", "a body"));
  b->node = n;
  const sc_snode* s = sc_snode_get(n, "name");
  if (!s) return sc_rd_fail_missing(c, n, "name", "a unique body name");
  size_t m = sc_rd_push_key(c, "name");
  sc_status st = sc_rd_as_name(c, s, &b->name);
  if (!st && strcmp(b->name, "world") == 0)
    st = sc_rd_fail(c, s, "'world' is reserved for the fixed world body (expected another name)");
  sc_rd_pop(c, m);
  TRY(st);
  b->parent_node = sc_snode_get(n, "parent");
  if (b->parent_node) {
    const char* pn;
    m = sc_rd_push_key(c, "parent");
    st = sc_rd_as_name(c, b->parent_node, &pn);
    sc_rd_pop(c, m);
    TRY(st);
  }

  const sc_snode* j = sc_snode_get(n, "joint");
  if (!j) return sc_rd_fail_missing(c, n, "joint", "{type, origin, axis}");
  m = sc_rd_push_key(c, "joint");
  st = sc_rd_check_section(c, j, "bodies[].joint", "a joint");
  s = sc_snode_get(j, "type");
  if (!st && !s) st = sc_rd_fail_missing(c, j, "type", "fixed, revolute, prismatic, planar, ball, free");
  if (!st) {
    int t;
    size_t m2 = sc_rd_push_key(c, "type");
    st = sc_rd_as_enum(c, s, jtypes, NELEM(jtypes), "joint type", &t);
    sc_rd_pop(c, m2);
    b->jtype = (sc_joint_type)t;
  }
  if (!st) st = sc_rd_get_pose(c, j, "origin", b->jpos, b->jrot);
  b->axis[0] = b->axis[1] = 0;
  b->axis[2] = 1;
  const sc_snode* ax = sc_snode_get(j, "axis");
  if (!st && ax) {
    size_t m2 = sc_rd_push_key(c, "axis");
    if (b->jtype != SC_JOINT_REVOLUTE && b->jtype != SC_JOINT_PRISMATIC)
      st = sc_rd_fail(c, ax, "only revolute and prismatic joints have an axis (joint type is %s)",
                sc_joint_type_name(b->jtype));
    if (!st) st = sc_rd_as_vec(c, ax, b->axis, 3);
    if (!st && !(sc_sp_norm3(b->axis) > 1e-12)) st = sc_rd_fail(c, ax, "axis must be non-zero");
    if (!st) sc_sp_normalize3(b->axis);
    sc_rd_pop(c, m2);
  }
  if (!st) st = read_joint_dofs(c, j, b);
  sc_rd_pop(c, m);
  TRY(st);

  int fixed = b->jtype == SC_JOINT_FIXED;
  b->mass_node = sc_snode_get(n, "mass");
  TRY(sc_rd_get_num(c, n, "mass", &b->mass, RANGE_NONNEG, !fixed, &b->has_mass));
  b->com_node = sc_snode_get(n, "com");
  TRY(sc_rd_get_vec(c, n, "com", b->com, 3));
  b->inertia_node = sc_snode_get(n, "inertia");
  if (b->inertia_node) {
    m = sc_rd_push_key(c, "inertia");
    st = read_inertia(c, b, b->inertia_node);
    if (!st && !b->has_mass)
      st = sc_rd_fail(c, b->inertia_node, "inertia needs a mass (expected mass: > 0 on this body)");
    sc_rd_pop(c, m);
    TRY(st);
  } else if (!fixed && !(b->has_mass && b->mass == 0)) {
    return sc_rd_fail_missing(c, n, "inertia", "{ixx, iyy, izz, ixy, ixz, iyz} or solid");
  }
  if (b->solid && b->com_node) {
    m = sc_rd_push_key(c, "com");
    st = sc_rd_fail(c, b->com_node, "com is computed with inertia: solid (expected no com)");
    sc_rd_pop(c, m);
    TRY(st);
  }

  const sc_snode* init = sc_snode_get(n, "initial");
  if (init) {
    int nq = sc_joint_nq(b->jtype), nv = sc_joint_nv(b->jtype);
    m = sc_rd_push_key(c, "initial");
    st = sc_rd_check_section(c, init, "bodies[].initial", "a map");
    const sc_snode* q = sc_snode_get(init, "q");
    const sc_snode* v = sc_snode_get(init, "v");
    if (!st && q) {
      size_t m2 = sc_rd_push_key(c, "q");
      if (q->kind == SC_SN_SEQ && q->n != nq)
        st = sc_rd_fail(c, q, "a %s joint has %d coordinates (got a list of %d)",
                  sc_joint_type_name(b->jtype), nq, q->n);
      if (!st) st = sc_rd_as_vec(c, q, b->q, nq);
      int qa = b->jtype == SC_JOINT_BALL ? 0 : b->jtype == SC_JOINT_FREE ? 3 : -1;
      if (!st && qa >= 0) {
        if (!(sc_sp_quat_normalize(b->q + qa) > 1e-12))
          st = sc_rd_fail(c, q, "the quaternion is zero (expected a non-zero [qw, qx, qy, qz])");
      }
      /* a start outside rigid limits would be thrown back onto them in one
       * step, a kick of energy the scene never had (a compliant limit's
       * spring is a state the scene may start in) */
      if (!st && (b->jtype == SC_JOINT_REVOLUTE || b->jtype == SC_JOINT_PRISMATIC) && isinf(b->limit_k) &&
          !(b->q[0] >= b->range[0] && b->q[0] <= b->range[1]))
        st = sc_rd_fail(c, q, "the joint starts at %.17g, outside its limits [%.17g, %.17g]", b->q[0], b->range[0],
                        b->range[1]);
      b->has_q = 1;
      sc_rd_pop(c, m2);
    }
    if (!st && v) {
      size_t m2 = sc_rd_push_key(c, "v");
      if (v->kind == SC_SN_SEQ && v->n != nv)
        st = sc_rd_fail(c, v, "a %s joint has %d velocities (got a list of %d)",
                  sc_joint_type_name(b->jtype), nv, v->n);
      if (!st) st = sc_rd_as_vec(c, v, b->v, nv);
      b->has_v = 1;
      sc_rd_pop(c, m2);
    }
    sc_rd_pop(c, m);
    TRY(st);
  }
  b->geometry = sc_snode_get(n, "geometry");
  if (b->geometry && b->geometry->kind != SC_SN_SEQ) {
    m = sc_rd_push_key(c, "geometry");
    st = sc_rd_fail(c, b->geometry, "expected a list of shapes, got %s", sc_rd_kind_name(b->geometry));
    sc_rd_pop(c, m);
    return st;
  }
  return SC_OK;
}

int sc_rd_find_body(const load* L, const char* name) { return sc_rd_ni_lookup(&L->body_index, name, -1); }

sc_status sc_rd_bodies(ctx* c, load* L, const sc_snode* root) {
  const sc_snode* n = sc_snode_get(root, "bodies");
  if (!n) return SC_OK;
  size_t m = sc_rd_push_key(c, "bodies");
  sc_status st = SC_OK;
  if (n->kind != SC_SN_SEQ) st = sc_rd_fail(c, n, "expected a list of bodies, got %s", sc_rd_kind_name(n));
  if (!st) {
    L->body = sc_calloc((size_t)n->n, sizeof *L->body);
    L->order = sc_calloc((size_t)n->n, sizeof *L->order);
    L->rank = sc_calloc((size_t)n->n, sizeof *L->rank);
    if (!L->body || !L->order || !L->rank || sc_rd_ni_init(&L->body_index, n->n)) st = SC_ERR_NOMEM;
  }
  for (int i = 0; !st && i < n->n; i++) {
    size_t m2 = sc_rd_push_idx(c, i);
    st = read_body(c, n->kid[i], &L->body[i]);
    if (!st) {
      L->nbody = i;
      int d = sc_rd_ni_lookup(&L->body_index, L->body[i].name, i);
      if (d >= 0) {
        size_t m3 = sc_rd_push_key(c, "name");
        const sc_snode* nm = sc_snode_get(n->kid[i], "name");
        st = sc_rd_fail(c, nm, "duplicate body name '%s' (first at line %d)", L->body[i].name,
                  sc_snode_get(n->kid[d], "name")->line);
        sc_rd_pop(c, m3);
      }
      L->nbody = i + 1;
    }
    sc_rd_pop(c, m2);
  }
  /* parents by name (any order in the file), then a topological order */
  for (int i = 0; !st && i < L->nbody; i++) {
    body_in* b = &L->body[i];
    b->parent = -1;
    if (b->parent_node && strcmp(b->parent_node->str, "world") != 0) {
      b->parent = sc_rd_find_body(L, b->parent_node->str);
      if (b->parent < 0) {
        size_t m2 = sc_rd_push_idx(c, i);
        size_t m3 = sc_rd_push_key(c, "parent");
        st = sc_rd_fail(c, b->parent_node, "unknown body '%s' (expected world or a body name)",
                  b->parent_node->str);
        sc_rd_pop(c, m3);
        sc_rd_pop(c, m2);
      }
    }
  }
  if (!st) {
    /* the order of repeated in-file-order passes that place a body once its
     * parent is placed, computed without the passes (they cost one pass per
     * level of a chain listed child first, quadratic in hostile files): the
     * pass of body i is 1 under world, its parent's pass when the parent
     * comes earlier in the file, one more when it comes later; bodies are
     * placed by pass, then file order.  Bodies on or under a cycle get -1. */
    int nb = L->nbody;
    int* pass = sc_calloc((size_t)nb + 1, sizeof *pass);
    int* stack = sc_calloc((size_t)nb + 1, sizeof *stack);
    int* count = sc_calloc((size_t)nb + 2, sizeof *count);
    if (!pass || !stack || !count) st = SC_ERR_NOMEM;
    for (int i = 0; !st && i < nb; i++) {
      int top = 0, k = i;
      while (k >= 0 && pass[k] == 0) {
        pass[k] = -2; /* on the current walk */
        stack[top++] = k;
        k = L->body[k].parent;
      }
      int cyclic = k >= 0 && pass[k] < 0;
      while (top > 0) {
        int j = stack[--top], p = L->body[j].parent;
        pass[j] = cyclic ? -1 : p < 0 ? 1 : pass[p] + (p > j ? 1 : 0);
      }
    }
    int placed = 0;
    for (int i = 0; !st && i < nb; i++) {
      L->rank[i] = -1;
      if (pass[i] > 0) count[pass[i]]++;
    }
    for (int q = 1; !st && q <= nb + 1; q++) count[q] += count[q - 1]; /* count[q]: placed before pass q + 1 */
    for (int i = 0; !st && i < nb; i++) {
      if (pass[i] <= 0) continue;
      int slot = count[pass[i] - 1]++;
      L->order[slot] = i;
      L->rank[i] = slot + 1;
      placed++;
    }
    sc_free(pass);
    sc_free(stack);
    sc_free(count);
    for (int i = 0; !st && placed < L->nbody && i < L->nbody; i++) {
      if (L->rank[i] >= 0) continue;
      /* walk up from i until a body repeats: that body is on a cycle */
      int k = i;
      for (int s = 0; s < L->nbody; s++) k = L->body[k].parent;
      char chain[256];
      size_t o = 0;
      int w = k;
      chain[0] = '\0';
      do {
        int r = snprintf(chain + o, sizeof chain - o, "%s -> ", L->body[w].name);
        if (r > 0 && o + (size_t)r < sizeof chain) o += (size_t)r;
        w = L->body[w].parent;
      } while (w != k);
      snprintf(chain + o, sizeof chain - o, "%s", L->body[k].name);
      size_t m2 = sc_rd_push_idx(c, k);
      size_t m3 = sc_rd_push_key(c, "parent");
      st = sc_rd_fail(c, L->body[k].parent_node, "cycle in the parent chain (%s; expected a tree rooted at world)", chain);
      sc_rd_pop(c, m3);
      sc_rd_pop(c, m2);
      break;
    }
  }
  /* a massless body is a link between its joint and its children's (a
   * MuJoCo body with several joints becomes a chain of them); one without
   * children would leave its joint with nothing to move */
  for (int i = 0; !st && i < L->nbody; i++) {
    const body_in* b = &L->body[i];
    if (!b->has_mass || b->mass > 0) continue;
    int child = 0;
    for (int k = 0; k < L->nbody && !child; k++) child = L->body[k].parent == i;
    if (!child) {
      size_t m2 = sc_rd_push_idx(c, i);
      size_t m3 = sc_rd_push_key(c, "mass");
      st = sc_rd_fail(c, b->mass_node, "a body of mass 0 must have children (it links its joint to theirs)");
      sc_rd_pop(c, m3);
      sc_rd_pop(c, m2);
    }
  }
  sc_rd_pop(c, m);
  return st;
}

/* uniform density over the body's shapes: mass, com and inertia about com */

sc_status sc_rd_as_body(ctx* c, const load* L, const sc_snode* n, int* body) {
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
