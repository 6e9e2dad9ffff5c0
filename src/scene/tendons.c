/* tendons: the scene's tendons (fixed: a combination of joint coordinates;
 * spatial: a path of straight segments through body points; slider-crank:
 * where a rod from a crank point meets a slider's axis; doc/constraints.md),
 * read straight into the model: a first pass counts them and their path
 * elements for sc_model_alloc, a second stores them. */
#include <math.h>
#include <string.h>

#include "scene/scene_internal.h"

sc_status sc_rd_as_tendon(ctx* c, const sc_snode* root, const sc_snode* n, int* ten) {
  const char* name = NULL;
  sc_status st = sc_rd_as_name(c, n, &name);
  const sc_snode* list = sc_snode_get(root, "tendons");
  *ten = -1;
  for (int i = 0; !st && list && list->kind == SC_SN_SEQ && i < list->n; i++) {
    const sc_snode* nn = list->kid[i]->kind == SC_SN_MAP ? sc_snode_get(list->kid[i], "name") : NULL;
    if (nn && nn->kind == SC_SN_SCALAR && strcmp(nn->str, name) == 0) *ten = i;
  }
  if (!st && *ten < 0) st = sc_rd_fail(c, n, "unknown tendon '%s' (expected the name of a tendon)", name);
  return st;
}

/* the trees (children of the world) of body b, or -1 for the world */
static int tree_of(const load* L, int body_rank) {
  if (body_rank == 0) return -1;
  for (int i = 0; i < L->nbody; i++)
    if (L->rank[i] == body_rank) {
      int k = i;
      while (L->body[k].parent >= 0) k = L->body[k].parent;
      return k;
    }
  return -1;
}

static sc_status read_common(ctx* c, const sc_snode* s, int i, int type, int w0, int nw, sc_model* M, int fill);

/* key of a slider-crank: a map {body, point} (and axis for the slider)
 * into path element w */
static sc_status read_crank_point(ctx* c, const load* L, const sc_snode* s, const char* key, int w, sc_model* M,
                                  int fill) {
  const int slider = strcmp(key, "slider") == 0;
  const sc_snode* e = sc_snode_get(s, key);
  if (!e) return sc_rd_fail_missing(c, s, key, slider ? "{body, point, axis}" : "{body, point}");
  size_t m = sc_rd_push_key(c, key);
  sc_status st = sc_rd_check_section(c, e, slider ? "<slider point>" : "<tendon point>",
                                     slider ? "a slider point" : "a crank point");
  const sc_snode* bn = st ? NULL : sc_snode_get(e, "body");
  if (!st && !bn) st = sc_rd_fail_missing(c, e, "body", "world or a body name");
  int body = 0;
  if (!st) {
    size_t m2 = sc_rd_push_key(c, "body");
    st = sc_rd_as_body(c, L, bn, &body);
    sc_rd_pop(c, m2);
  }
  double pt[3] = {0, 0, 0}, ax[3] = {0, 0, 0};
  if (!st) st = sc_rd_get_vec(c, e, "point", pt, 3);
  if (!st && slider) {
    const sc_snode* an = sc_snode_get(e, "axis");
    if (!an) st = sc_rd_fail_missing(c, e, "axis", "the slider's direction [x, y, z]");
    if (!st) st = sc_rd_get_vec(c, e, "axis", ax, 3);
    const double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    if (!st && !(n > 0 && isfinite(n))) {
      size_t m2 = sc_rd_push_key(c, "axis");
      st = sc_rd_fail(c, an, "must be a non-zero finite vector");
      sc_rd_pop(c, m2);
    }
    for (int k = 0; !st && k < 3; k++) ax[k] /= n;
  }
  sc_rd_pop(c, m);
  if (!st && fill) {
    M->wrap_body[w] = body;
    memcpy(M->wrap_point + 3 * w, pt, sizeof pt);
    M->wrap_jnt[w] = -1;
    M->wrap_coef[w] = 0.0;
    if (slider) {
      M->wrap_body[w + 1] = body;
      memcpy(M->wrap_point + 3 * (w + 1), ax, sizeof ax);
      M->wrap_jnt[w + 1] = -1;
      M->wrap_coef[w + 1] = 0.0;
    }
  }
  return st;
}

/* a slider-crank's path: crank point, slider point, slider axis; its rod */
static sc_status read_crank(ctx* c, const load* L, const sc_snode* s, int* nwrap, sc_model* M, int fill) {
  const int w0 = *nwrap;
  TRY(read_crank_point(c, L, s, "crank", w0, M, fill));
  TRY(read_crank_point(c, L, s, "slider", w0 + 1, M, fill));
  if (!sc_snode_get(s, "rod")) return sc_rd_fail_missing(c, s, "rod", "the rod length (m)");
  double rod = 0.0;
  TRY(sc_rd_get_num(c, s, "rod", &rod, RANGE_POS, 0, NULL));
  if (fill) M->wrap_coef[w0] = rod;
  *nwrap += 3;
  return SC_OK;
}

/* key `key` of path element e: a body (world or a name) of at most the
 * two trees a path may touch (the rows' workspace is sized for two) */
static sc_status path_body(ctx* c, const load* L, const sc_snode* e, int trees[2], int* body) {
  const sc_snode* bn = sc_snode_get(e, "body");
  if (!bn) return sc_rd_fail_missing(c, e, "body", "world or a body name");
  size_t m = sc_rd_push_key(c, "body");
  sc_status st = sc_rd_as_body(c, L, bn, body);
  const int tr = st ? -1 : tree_of(L, *body);
  if (!st && tr >= 0 && tr != trees[0] && tr != trees[1]) {
    if (trees[0] == -2) trees[0] = tr;
    else if (trees[1] == -2) trees[1] = tr;
    else st = sc_rd_fail(c, bn, "a tendon's path may touch at most two trees of bodies "
                                "(children of the world and what hangs on them)");
  }
  sc_rd_pop(c, m);
  return st;
}

/* a wrapping sphere or cylinder of a spatial path:
 * {wrap: sphere|cylinder, body, center, radius, axis, side: {body, point}} */
static sc_status read_wrap(ctx* c, const load* L, const sc_snode* e, int w, int trees[2], sc_model* M, int fill) {
  static const char* const kinds[] = {"sphere", "cylinder"};
  int kind = 0, body = 0;
  size_t m = sc_rd_push_key(c, "wrap");
  sc_status st = sc_rd_as_enum(c, sc_snode_get(e, "wrap"), kinds, 2, "wrapping shape", &kind);
  sc_rd_pop(c, m);
  TRY(st);
  TRY(path_body(c, L, e, trees, &body));
  double ctr[3] = {0, 0, 0}, ax[3] = {0, 0, 1}, r = 0.0;
  TRY(sc_rd_get_vec(c, e, "center", ctr, 3));
  if (!sc_snode_get(e, "radius")) return sc_rd_fail_missing(c, e, "radius", "the shape's radius (m)");
  TRY(sc_rd_get_num(c, e, "radius", &r, RANGE_POS, 0, NULL));
  const sc_snode* an = sc_snode_get(e, "axis");
  if (an && kind == 0) {
    m = sc_rd_push_key(c, "axis");
    st = sc_rd_fail(c, an, "only a cylinder has an axis");
    sc_rd_pop(c, m);
    return st;
  }
  TRY(sc_rd_get_vec(c, e, "axis", ax, 3));
  const double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
  if (!(n > 0 && isfinite(n))) {
    m = sc_rd_push_key(c, "axis");
    st = sc_rd_fail(c, an, "must be a non-zero finite vector");
    sc_rd_pop(c, m);
    return st;
  }
  int sbody = -1;
  double sp[3] = {0, 0, 0};
  const sc_snode* sn = sc_snode_get(e, "side");
  if (sn) {
    m = sc_rd_push_key(c, "side");
    st = sc_rd_check_section(c, sn, "<wrap side>", "a side point");
    const sc_snode* bn = st ? NULL : sc_snode_get(sn, "body");
    if (!st && !bn) st = sc_rd_fail_missing(c, sn, "body", "world or a body name");
    if (!st) {
      size_t m2 = sc_rd_push_key(c, "body");
      st = sc_rd_as_body(c, L, bn, &sbody);
      sc_rd_pop(c, m2);
    }
    if (!st) st = sc_rd_get_vec(c, sn, "point", sp, 3);
    sc_rd_pop(c, m);
    TRY(st);
  }
  if (fill) {
    M->wrap_type[w] = kind == 0 ? SC_WRAP_SPHERE : SC_WRAP_CYLINDER;
    M->wrap_body[w] = body;
    memcpy(M->wrap_point + 3 * w, ctr, sizeof ctr);
    M->wrap_coef[w] = r;
    M->wrap_jnt[w] = -1;
    for (int k = 0; k < 3; k++) M->wrap_axis[3 * w + k] = ax[k] / n;
    M->wrap_side_body[w] = sbody;
    memcpy(M->wrap_side_point + 3 * w, sp, sizeof sp);
  }
  return SC_OK;
}

static sc_status read_one(ctx* c, const load* L, const sc_snode* s, int i, int* nwrap,
                          sc_model* M, int fill) {
  static const char* const types[] = {"fixed", "spatial", "slider_crank"};
  static const char* const sections[] = {"tendons[] fixed", "tendons[] spatial", "tendons[] slider_crank"};
  if (s->kind != SC_SN_MAP)
    return sc_rd_fail(c, s, "expected a tendon map {type: fixed|spatial|slider_crank, ...}, got %s",
                      sc_rd_kind_name(s));
  const sc_snode* t = sc_snode_get(s, "type");
  if (!t) return sc_rd_fail_missing(c, s, "type", "fixed, spatial or slider_crank");
  int type = 0;
  size_t m = sc_rd_push_key(c, "type");
  sc_status st = sc_rd_as_enum(c, t, types, 3, "tendon type", &type);
  sc_rd_pop(c, m);
  TRY(st);
  TRY(sc_rd_check_section(c, s, sections[type], "a tendon"));
  const int w0 = *nwrap;
  if (type == SC_TENDON_SLIDER_CRANK) {
    TRY(read_crank(c, L, s, nwrap, M, fill));
    return read_common(c, s, i, type, w0, 3, M, fill);
  }
  const char* list_key = type == SC_TENDON_FIXED ? "joints" : "path";
  const sc_snode* list = sc_snode_get(s, list_key);
  if (!list)
    return sc_rd_fail_missing(c, s, list_key,
                              type == SC_TENDON_FIXED ? "a list of {joint, coef}" : "a list of {body, point}");
  m = sc_rd_push_key(c, list_key);
  const int need = type == SC_TENDON_FIXED ? 1 : 2;
  if (list->kind != SC_SN_SEQ || list->n < need)
    st = sc_rd_fail(c, list, "expected a list of at least %d %s", need,
                    type == SC_TENDON_FIXED ? "{joint, coef}" : "{body, point}");
  int trees[2] = {-2, -2};
  int branch = 0, pulleys = 0; /* branch: points since the path's start or its last pulley */
  for (int k = 0; !st && k < list->n; k++) {
    const sc_snode* e = list->kid[k];
    size_t m2 = sc_rd_push_idx(c, k);
    const int map = type == SC_TENDON_SPATIAL && e->kind == SC_SN_MAP;
    const int pulley = map && sc_snode_get(e, "pulley"), wrap = map && sc_snode_get(e, "wrap");
    st = sc_rd_check_section(c, e,
                             type == SC_TENDON_FIXED ? "<tendon joint>"
                             : pulley                ? "<tendon pulley>"
                             : wrap                  ? "<tendon wrap>"
                                                     : "<tendon point>",
                             type == SC_TENDON_FIXED ? "a tendon's joint"
                             : pulley                ? "a pulley"
                             : wrap                  ? "a wrapping shape"
                                                     : "a tendon's point");
    const int w = w0 + k;
    if (!st && pulley) {
      /* a new branch, its segments' lengths divided by the divisor */
      double div = 1.0;
      if (branch < 2)
        st = sc_rd_fail(c, e, "a pulley needs a branch of at least two points before it");
      if (!st) st = sc_rd_get_num(c, e, "pulley", &div, RANGE_POS, 0, NULL);
      if (!st && fill) {
        M->wrap_type[w] = SC_WRAP_PULLEY;
        M->wrap_body[w] = -1;
        M->wrap_coef[w] = div;
        M->wrap_jnt[w] = -1;
        memset(M->wrap_point + 3 * w, 0, 3 * sizeof(double));
      }
      branch = 0;
      pulleys++;
    } else if (!st && wrap) {
      /* between two points of the path */
      const sc_snode* prev = k > 0 ? list->kid[k - 1] : NULL;
      const sc_snode* next = k + 1 < list->n ? list->kid[k + 1] : NULL;
      const int ok = prev && next && prev->kind == SC_SN_MAP && next->kind == SC_SN_MAP &&
                     !sc_snode_get(prev, "pulley") && !sc_snode_get(prev, "wrap") &&
                     !sc_snode_get(next, "pulley") && !sc_snode_get(next, "wrap");
      if (!ok) st = sc_rd_fail(c, e, "a wrapping sphere or cylinder needs a point of the path on either side");
      if (!st) st = read_wrap(c, L, e, w, trees, M, fill);
    } else if (!st && type == SC_TENDON_FIXED) {
      const sc_snode* jn = sc_snode_get(e, "joint");
      if (!jn) st = sc_rd_fail_missing(c, e, "joint", "the name of a body with a revolute or prismatic joint");
      const char* name = NULL;
      int bi = -1;
      if (!st) {
        size_t m3 = sc_rd_push_key(c, "joint");
        st = sc_rd_as_name(c, jn, &name);
        if (!st) bi = sc_rd_find_body(L, name);
        if (!st && bi < 0) st = sc_rd_fail(c, jn, "unknown joint '%s' (expected the name of a body)", name);
        if (!st && L->body[bi].jtype != SC_JOINT_REVOLUTE && L->body[bi].jtype != SC_JOINT_PRISMATIC)
          st = sc_rd_fail(c, jn, "joint '%s' is a %s joint (expected a revolute or prismatic joint)", name,
                          sc_joint_type_name(L->body[bi].jtype));
        sc_rd_pop(c, m3);
      }
      double coef = 1.0;
      if (!st) st = sc_rd_get_num(c, e, "coef", &coef, RANGE_ANY, 0, NULL);
      if (!st && fill) {
        M->wrap_jnt[w] = L->rank[bi] - 1;
        M->wrap_coef[w] = coef;
        M->wrap_body[w] = -1;
      }
    } else if (!st) {
      int body = 0;
      st = path_body(c, L, e, trees, &body);
      double pt[3] = {0, 0, 0};
      if (!st) st = sc_rd_get_vec(c, e, "point", pt, 3);
      if (!st && fill) {
        M->wrap_type[w] = SC_WRAP_POINT;
        M->wrap_body[w] = body;
        memcpy(M->wrap_point + 3 * w, pt, sizeof pt);
        M->wrap_jnt[w] = -1;
        M->wrap_coef[w] = 0.0;
      }
      branch++;
    }
    sc_rd_pop(c, m2);
  }
  if (!st && type == SC_TENDON_SPATIAL && branch < 2)
    st = sc_rd_fail(c, list->kid[list->n - 1], pulleys ? "a pulley needs a branch of at least two points after it"
                                                       : "a path needs at least two points");
  sc_rd_pop(c, m);
  TRY(st);
  *nwrap += list->n;
  return read_common(c, s, i, type, w0, list->n, M, fill);
}

/* what every tendon has: limits, spring-damper, dry friction, name */
static sc_status read_common(ctx* c, const sc_snode* s, int i, int type, int w0, int nw, sc_model* M, int fill) {
  size_t m;
  sc_status st;
  double range[2] = {-INFINITY, INFINITY}, lk = INFINITY, ltau = 0.0, k = 0.0, damp = 0.0, rest = NAN,
         fric = 0.0;
  const sc_snode* lim = sc_snode_get(s, "limits");
  if (lim) {
    m = sc_rd_push_key(c, "limits");
    st = sc_rd_as_bounds(c, lim, range);
    sc_rd_pop(c, m);
    TRY(st);
  }
  const sc_snode* lkn = sc_snode_get(s, "limit_stiffness");
  if (lkn) {
    m = sc_rd_push_key(c, "limit_stiffness");
    st = lim ? sc_rd_as_rigid_or_pos(c, lkn, &lk)
             : sc_rd_fail(c, lkn, "only allowed with limits (expected limits: [lower, upper] on this tendon)");
    sc_rd_pop(c, m);
    TRY(st);
  }
  if (sc_snode_get(s, "limit_dissipation") && !lim) {
    m = sc_rd_push_key(c, "limit_dissipation");
    st = sc_rd_fail(c, sc_snode_get(s, "limit_dissipation"),
                    "only allowed with limits (expected limits: [lower, upper] on this tendon)");
    sc_rd_pop(c, m);
    return st;
  }
  TRY(sc_rd_get_num(c, s, "limit_dissipation", &ltau, RANGE_NONNEG, 0, NULL));
  TRY(sc_rd_get_num(c, s, "stiffness", &k, RANGE_NONNEG, 0, NULL));
  TRY(sc_rd_get_num(c, s, "damping", &damp, RANGE_NONNEG, 0, NULL));
  TRY(sc_rd_get_num(c, s, "rest", &rest, RANGE_ANY, 0, NULL));
  TRY(sc_rd_get_num(c, s, "friction", &fric, RANGE_NONNEG, 0, NULL));
  const char* name = NULL;
  const sc_snode* nn = sc_snode_get(s, "name");
  if (!nn) return sc_rd_fail_missing(c, s, "name", "the tendon's name");
  m = sc_rd_push_key(c, "name");
  st = sc_rd_as_name(c, nn, &name);
  sc_rd_pop(c, m);
  TRY(st);
  if (fill) {
    if (!(M->ten_name[i] = sc_strdup(name))) return SC_ERR_NOMEM;
    M->ten_type[i] = type;
    M->ten_wrapadr[i] = w0;
    M->ten_wrapnum[i] = nw;
    M->ten_range[2 * i] = range[0];
    M->ten_range[2 * i + 1] = range[1];
    M->ten_limit_k[i] = lk;
    M->ten_limit_taud[i] = ltau;
    M->ten_k[i] = k;
    M->ten_c[i] = damp;
    M->ten_rest[i] = rest;
    M->ten_frictionloss[i] = fric;
  }
  return SC_OK;
}

sc_status sc_rd_tendons(ctx* c, const load* L, const sc_snode* root, sc_model* M, int fill) {
  const sc_snode* list = sc_snode_get(root, "tendons");
  if (!list) return SC_OK;
  size_t m = sc_rd_push_key(c, "tendons");
  sc_status st = SC_OK;
  if (list->kind != SC_SN_SEQ)
    st = sc_rd_fail(c, list, "expected a list of tendons, got %s", sc_rd_kind_name(list));
  int nwrap = 0;
  for (int i = 0; !st && i < list->n; i++) {
    size_t m2 = sc_rd_push_idx(c, i);
    st = read_one(c, L, list->kid[i], i, &nwrap, M, fill);
    sc_rd_pop(c, m2);
  }
  sc_rd_pop(c, m);
  TRY(st);
  if (!fill) {
    M->ntendon = list->n;
    M->nwrap = nwrap;
  }
  return SC_OK;
}
