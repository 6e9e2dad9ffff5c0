/* models: MJCF and URDF models a scene places beside its own bodies
 * (`models:`, doc/import.md).
 *
 * Each entry's file is translated like a model run alone (mjcf.c), so its
 * errors are located in the XML file; the translation is parsed into a node
 * tree and rewritten there, not in the translator, so that one pass serves
 * both formats and every key a translation may hold:
 *  - every body, actuator, constraint, tendon and reference to them
 *    (parents, springs', constraints' and tendons' joints and ends,
 *    actuators' joints, exclude pairs) gets the prefix;
 *  - the model's root bodies (parent world) are placed at the entry's pose
 *    X: a root joint's origin O becomes X O, a free root's initial pose
 *    likewise (and its velocities are turned with X), the static shapes and
 *    the world ends of springs, constraints and tendons are moved by X;
 *  - fixed_base: true turns a free root joint into a fixed one at its
 *    placed pose; false hangs each root that is not free from a massless
 *    free body <root>_float (a URDF's --floating-base), which starts at X.
 * The rewritten lists are appended to the scene's own and the nodes are
 * located at the entry, so a later error (a missing mesh) points at the
 * scene line that placed the model.  Names that clash with the scene's or
 * another entry's are refused at the entry. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/limits.h"
#include "scene/scene_internal.h"
#include "spatial/spatial.h"

#define MAX_MODELS 256

typedef struct entry {
  const sc_snode* node; /* the entry in the scene */
  const char* prefix;
  double p[3], q[4]; /* the pose X */
  int fixed_base;    /* -1: as the model has it */
  sc_snode* tree;    /* the translated model, rewritten */
} entry;

static const char* const lists[] = {"bodies", "static", "springs", "actuators", "exclude", "constraints", "tendons"};

/* ---- small builders ---- */

static sc_status nomem(ctx* c) {
  return sc_error_set(c->err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory placing the scene's models");
}

static int put_scalar(sc_snode* map, const char* key, const char* s) {
  sc_snode* v = sc_snode_new_scalar(s, 1, map->file, map->line, map->col);
  if (!v) return -1;
  if (sc_snode_put(map, key, v)) {
    sc_snode_free(v);
    return -1;
  }
  return 0;
}

static sc_snode* new_vec(const sc_snode* at, const double* x, int n) {
  sc_snode* s = sc_snode_new(SC_SN_SEQ, at->file, at->line, at->col);
  for (int i = 0; s && i < n; i++) {
    char buf[40];
    snprintf(buf, sizeof buf, "%.17g", x[i]);
    sc_snode* v = sc_snode_new_scalar(buf, 1, at->file, at->line, at->col);
    if (!v || sc_snode_push(s, v)) {
      sc_snode_free(v);
      sc_snode_free(s);
      return NULL;
    }
  }
  return s;
}

static int put_vec(sc_snode* map, const char* key, const double* x, int n) {
  sc_snode* v = new_vec(map, x, n);
  if (!v) return -1;
  if (sc_snode_put(map, key, v)) {
    sc_snode_free(v);
    return -1;
  }
  return 0;
}

/* map[key] = {position: p, quat: q} */
static int put_pose(sc_snode* map, const char* key, const double p[3], const double q[4]) {
  sc_snode* m = sc_snode_new(SC_SN_MAP, map->file, map->line, map->col);
  if (!m || put_vec(m, "position", p, 3) || put_vec(m, "quat", q, 4) || sc_snode_put(map, key, m)) {
    sc_snode_free(m);
    return -1;
  }
  return 0;
}

/* up to n numbers of a list node into x (0 when n is not a list of n numbers:
 * a translation always writes them, and the loader reports a scene's own) */
static int get_vec(const sc_snode* v, double* x, int n) {
  if (!v || v->kind != SC_SN_SEQ || v->n != n) return 0;
  for (int i = 0; i < n; i++) {
    if (v->kid[i]->kind != SC_SN_SCALAR) return 0;
    char* end;
    x[i] = strtod(v->kid[i]->str, &end);
    if (end == v->kid[i]->str || *end) return 0;
  }
  return 1;
}

/* a pose map ({position, quat} or {position, rpy}) as p, q; identity when absent */
static void get_pose(const sc_snode* m, double p[3], double q[4]) {
  p[0] = p[1] = p[2] = 0;
  q[0] = 1, q[1] = q[2] = q[3] = 0;
  if (!m || m->kind != SC_SN_MAP) return;
  get_vec(sc_snode_get(m, "position"), p, 3);
  double rpy[3], R[9];
  if (get_vec(sc_snode_get(m, "quat"), q, 4)) {
    sc_sp_quat_normalize(q);
  } else if (get_vec(sc_snode_get(m, "rpy"), rpy, 3)) {
    sc_sp_rpy_to_mat3(R, rpy);
    sc_sp_mat3_to_quat(q, R);
  }
}

/* (p, q) = X (p0, q0) */
static void compose(const entry* e, const double p0[3], const double q0[4], double p[3], double q[4]) {
  double R[9], w[3];
  sc_sp_quat_to_mat3(R, e->q);
  sc_sp_mat3_vec(w, R, p0);
  for (int k = 0; k < 3; k++) p[k] = e->p[k] + w[k];
  sc_sp_quat_mul(q, e->q, q0);
  sc_sp_quat_normalize(q);
}

static int is_world(const sc_snode* n) { return !n || (n->kind == SC_SN_SCALAR && strcmp(n->str, "world") == 0); }

/* the prefix before a scalar's text */
static int prefix_node(sc_snode* n, const char* prefix) {
  if (!n || n->kind != SC_SN_SCALAR || !prefix[0]) return 0;
  size_t a = strlen(prefix), b = strlen(n->str);
  char* s = sc_malloc(a + b + 1);
  if (!s) return -1;
  memcpy(s, prefix, a);
  memcpy(s + a, n->str, b + 1);
  sc_free(n->str);
  n->str = s;
  n->plain = 1;
  return 0;
}

/* ---- one model's rewriting ---- */

/* a root body (parent world): placed at X, its base as the entry asks */
static int place_root(const entry* e, sc_snode* bodies, int* i) {
  sc_snode* b = bodies->kid[*i];
  sc_snode* joint = sc_snode_get(b, "joint");
  sc_snode* type = joint ? sc_snode_get(joint, "type") : NULL;
  const int free = type && type->kind == SC_SN_SCALAR && strcmp(type->str, "free") == 0;
  double p0[3] = {0, 0, 0}, q0[4] = {1, 0, 0, 0}, p[3], q[4];
  if (free) {
    sc_snode* init = sc_snode_get(b, "initial");
    double x[7];
    if (init && get_vec(sc_snode_get(init, "q"), x, 7)) {
      memcpy(p0, x, sizeof p0);
      memcpy(q0, x + 3, sizeof q0);
    }
    compose(e, p0, q0, p, q);
    if (e->fixed_base == 1) {
      sc_snode_remove(b, "initial");
      sc_snode_remove(joint, "type");
      return put_scalar(joint, "type", "fixed") || put_pose(joint, "origin", p, q);
    }
    double v[6], R[9];
    memcpy(x, p, sizeof p);
    memcpy(x + 3, q, sizeof q);
    if (!init) {
      if (!(init = sc_snode_new(SC_SN_MAP, b->file, b->line, b->col)) || sc_snode_put(b, "initial", init)) {
        sc_snode_free(init);
        return -1;
      }
    }
    if (put_vec(init, "q", x, 7)) return -1;
    if (get_vec(sc_snode_get(init, "v"), v, 6)) { /* both halves are world vectors */
      sc_sp_quat_to_mat3(R, e->q);
      double w[6];
      sc_sp_mat3_vec(w, R, v);
      sc_sp_mat3_vec(w + 3, R, v + 3);
      if (put_vec(init, "v", w, 6)) return -1;
    }
    return 0;
  }
  if (e->fixed_base == 0) {
    /* a massless free body above the root, starting at X */
    const sc_snode* name = sc_snode_get(b, "name");
    if (!name || name->kind != SC_SN_SCALAR) return 0;
    /* the whole name: cut, two long names could become one */
    const size_t nl = strlen(name->str);
    char* fname = sc_malloc(nl + sizeof "_float");
    if (!fname) return -1;
    memcpy(fname, name->str, nl);
    memcpy(fname + nl, "_float", sizeof "_float");
    sc_snode* f = sc_snode_new(SC_SN_MAP, b->file, b->line, b->col);
    sc_snode* fj = f ? sc_snode_new(SC_SN_MAP, b->file, b->line, b->col) : NULL;
    sc_snode* fi = fj ? sc_snode_new(SC_SN_MAP, b->file, b->line, b->col) : NULL;
    double x[7];
    memcpy(x, e->p, sizeof e->p);
    memcpy(x + 3, e->q, sizeof e->q);
    int bad = !fi || put_scalar(f, "name", fname) || put_scalar(f, "parent", "world") || put_scalar(f, "mass", "0") ||
              put_scalar(fj, "type", "free") || sc_snode_put(f, "joint", fj);
    if (!bad) fj = NULL;
    bad = bad || put_vec(fi, "q", x, 7) || sc_snode_put(f, "initial", fi);
    if (!bad) fi = NULL;
    bad = bad || sc_snode_push(bodies, f);
    if (bad) {
      sc_free(fname);
      sc_snode_free(fi);
      sc_snode_free(fj);
      sc_snode_free(f);
      return -1;
    }
    /* before the root, so that its coordinates come first */
    memmove(bodies->kid + *i + 1, bodies->kid + *i, (size_t)(bodies->n - 1 - *i) * sizeof *bodies->kid);
    bodies->kid[*i] = f;
    ++*i;
    bad = put_scalar(b, "parent", fname);
    sc_free(fname);
    return bad;
  }
  if (joint) get_pose(sc_snode_get(joint, "origin"), p0, q0);
  compose(e, p0, q0, p, q);
  return joint && joint->kind == SC_SN_MAP ? put_pose(joint, "origin", p, q) : 0;
}

static int place_shape(const entry* e, sc_snode* s) {
  if (!s || s->kind != SC_SN_MAP) return 0;
  const sc_snode* shape = sc_snode_get(s, "shape");
  double p0[3], q0[4], p[3], q[4], R[9];
  sc_sp_quat_to_mat3(R, e->q);
  if (shape && shape->kind == SC_SN_SCALAR && strcmp(shape->str, "plane") == 0) {
    double nrm[3] = {0, 0, 1}, n[3], off = 0;
    get_vec(sc_snode_get(s, "normal"), nrm, 3);
    const sc_snode* o = sc_snode_get(s, "offset");
    if (o && o->kind == SC_SN_SCALAR) off = strtod(o->str, NULL);
    sc_sp_normalize3(nrm);
    sc_sp_mat3_vec(n, R, nrm);
    off += sc_sp_dot3(n, e->p);
    char buf[40];
    snprintf(buf, sizeof buf, "%.17g", off);
    return put_vec(s, "normal", n, 3) || put_scalar(s, "offset", buf);
  }
  get_pose(sc_snode_get(s, "pose"), p0, q0);
  compose(e, p0, q0, p, q);
  return put_pose(s, "pose", p, q);
}

static int rewrite(const entry* e, sc_snode* T) {
  const char* P = e->prefix;
  sc_snode* bodies = sc_snode_get(T, "bodies");
  if (bodies && bodies->kind == SC_SN_SEQ) {
    for (int i = 0; i < bodies->n; i++) {
      sc_snode* b = bodies->kid[i];
      if (b->kind != SC_SN_MAP) continue;
      sc_snode* parent = sc_snode_get(b, "parent");
      if (prefix_node(sc_snode_get(b, "name"), P) || (!is_world(parent) && prefix_node(parent, P))) return -1;
    }
    for (int i = 0; i < bodies->n; i++)
      if (bodies->kid[i]->kind == SC_SN_MAP && is_world(sc_snode_get(bodies->kid[i], "parent")) &&
          place_root(e, bodies, &i))
        return -1;
  }
  sc_snode* stat = sc_snode_get(T, "static");
  for (int i = 0; stat && stat->kind == SC_SN_SEQ && i < stat->n; i++)
    if (place_shape(e, stat->kid[i])) return -1;
  /* springs and constraints: their joints and bodies, and the points
   * given on the world, which moves with the model's placement (a point
   * taken at the start is where the placed model puts it) */
  for (int w = 0; w < 2; w++) {
    sc_snode* springs = sc_snode_get(T, w ? "constraints" : "springs");
    for (int i = 0; springs && springs->kind == SC_SN_SEQ && i < springs->n; i++) {
      sc_snode* s = springs->kid[i];
      if (s->kind != SC_SN_MAP) continue;
      if (prefix_node(sc_snode_get(s, "joint"), P)) return -1;
      if (w && (prefix_node(sc_snode_get(s, "of"), P) || prefix_node(sc_snode_get(s, "name"), P) ||
                prefix_node(sc_snode_get(s, "tendon"), P)))
        return -1;
      for (int k = 0; k < 2; k++) {
        sc_snode* end = sc_snode_get(s, k ? "b" : "a");
        if (!end || end->kind != SC_SN_MAP) continue;
        sc_snode* body = sc_snode_get(end, "body");
        double x[3] = {0, 0, 0}, y[3], R[9];
        if (!is_world(body)) {
          if (prefix_node(body, P)) return -1;
          continue;
        }
        const sc_snode* ty = sc_snode_get(s, "type");
        const int dist = ty && ty->kind == SC_SN_SCALAR && strcmp(ty->str, "distance") == 0;
        if (w && k && !dist && !sc_snode_get(end, "point")) continue;
        get_vec(sc_snode_get(end, "point"), x, 3);
        sc_sp_quat_to_mat3(R, e->q);
        sc_sp_mat3_vec(y, R, x);
        for (int d = 0; d < 3; d++) y[d] += e->p[d];
        if (put_vec(end, "point", y, 3)) return -1;
      }
      /* a weld's given orientation of b in a, when one of them is the
       * world: the placed world is X, so Q becomes X Q (a the world) or
       * Q X^T (b the world) */
      const sc_snode* qn = w ? sc_snode_get(s, "quat") : NULL;
      const sc_snode* ea = sc_snode_get(s, "a");
      const sc_snode* eb = sc_snode_get(s, "b");
      const int wa = ea && ea->kind == SC_SN_MAP && is_world(sc_snode_get(ea, "body"));
      const int wb = eb && eb->kind == SC_SN_MAP && is_world(sc_snode_get(eb, "body"));
      if (qn && (wa || wb)) {
        double q0[4] = {1, 0, 0, 0}, q[4], xc[4] = {e->q[0], -e->q[1], -e->q[2], -e->q[3]};
        get_vec(qn, q0, 4);
        if (wa) sc_sp_quat_mul(q, e->q, q0);
        else sc_sp_quat_mul(q, q0, xc);
        if (put_vec(s, "quat", q, 4)) return -1;
      }
    }
  }
  /* tendons: their names, joints and path bodies; a path point on the
   * world moves with the placement */
  sc_snode* tens = sc_snode_get(T, "tendons");
  for (int i = 0; tens && tens->kind == SC_SN_SEQ && i < tens->n; i++) {
    sc_snode* s = tens->kid[i];
    if (s->kind != SC_SN_MAP) continue;
    if (prefix_node(sc_snode_get(s, "name"), P)) return -1;
    sc_snode* js = sc_snode_get(s, "joints");
    for (int k = 0; js && js->kind == SC_SN_SEQ && k < js->n; k++)
      if (js->kid[k]->kind == SC_SN_MAP && prefix_node(sc_snode_get(js->kid[k], "joint"), P)) return -1;
    sc_snode* path = sc_snode_get(s, "path");
    for (int k = 0; path && path->kind == SC_SN_SEQ && k < path->n; k++) {
      sc_snode* pt = path->kid[k];
      if (pt->kind != SC_SN_MAP) continue;
      /* (a wrapping element's side point is a body point of its own) */
      sc_snode* side = sc_snode_get(pt, "side");
      for (int w = 0; w < 2; w++) {
        sc_snode* q = w ? side : pt;
        if (!q || q->kind != SC_SN_MAP) continue;
        sc_snode* body = sc_snode_get(q, "body");
        if (!is_world(body)) {
          if (prefix_node(body, P)) return -1;
          continue;
        }
        double R[9];
        sc_sp_quat_to_mat3(R, e->q);
        /* points (a wrap's centre) move with the placement, axes turn */
        static const char* const pts[] = {"point", "center"};
        for (int k2 = 0; k2 < 2; k2++) {
          const sc_snode* v = sc_snode_get(q, pts[k2]);
          /* (a path point without one is the body origin; a wrap has a
           * centre instead) */
          if (!v && (k2 == 1 || sc_snode_get(q, "wrap"))) continue;
          double x[3] = {0, 0, 0}, y[3];
          get_vec(v, x, 3);
          sc_sp_mat3_vec(y, R, x);
          for (int d = 0; d < 3; d++) y[d] += e->p[d];
          if (put_vec(q, pts[k2], y, 3)) return -1;
        }
        const sc_snode* ax = sc_snode_get(q, "axis");
        if (ax) {
          double x[3] = {0, 0, 1}, y[3];
          get_vec(ax, x, 3);
          sc_sp_mat3_vec(y, R, x);
          if (put_vec(q, "axis", y, 3)) return -1;
        }
      }
    }
  }
  sc_snode* acts = sc_snode_get(T, "actuators");
  for (int i = 0; acts && acts->kind == SC_SN_SEQ && i < acts->n; i++)
    if (acts->kid[i]->kind == SC_SN_MAP &&
        (prefix_node(sc_snode_get(acts->kid[i], "name"), P) || prefix_node(sc_snode_get(acts->kid[i], "joint"), P)))
      return -1;
  sc_snode* ex = sc_snode_get(T, "exclude");
  for (int i = 0; ex && ex->kind == SC_SN_SEQ && i < ex->n; i++)
    for (int k = 0; ex->kid[i]->kind == SC_SN_SEQ && k < ex->kid[i]->n; k++)
      if (!is_world(ex->kid[i]->kid[k]) && prefix_node(ex->kid[i]->kid[k], P)) return -1;
  return 0;
}

/* ---- the entries ---- */

/* text appended to *s (sc_malloc'ed) */
static int append(char** s, const char* text) {
  size_t a = *s ? strlen(*s) : 0, b = strlen(text);
  char* r = sc_malloc(a + b + 1);
  if (!r) return -1;
  if (a) memcpy(r, *s, a);
  memcpy(r + a, text, b + 1);
  sc_free(*s);
  *s = r;
  return 0;
}

static sc_status read_entry(ctx* c, const sc_snode* n, const char* scene_file, int allow_all, int strict,
                            const char* mp_all, entry* e, char** ignored, char** approximated) {
  TRY(sc_rd_check_section(c, n, "models[]", "a model: {file, prefix, pose, fixed_base}"));
  e->node = n;
  e->prefix = "";
  e->fixed_base = -1;
  const sc_snode* fn = sc_snode_get(n, "file");
  if (!fn) return sc_rd_fail_missing(c, n, "file", "file: arm.urdf");
  const char* file;
  size_t m = sc_rd_push_key(c, "file");
  sc_status st = sc_rd_as_name(c, fn, &file);
  sc_rd_pop(c, m);
  TRY(st);
  const sc_snode* v;
  if ((v = sc_snode_get(n, "prefix"))) {
    m = sc_rd_push_key(c, "prefix");
    if (v->kind != SC_SN_SCALAR)
      st = sc_rd_fail(c, v, "expected a name prefix, got %s", sc_rd_kind_name(v));
    else if (!sc_rd_name_ok(v->str))
      st = sc_rd_fail(c, v, "'%s': a prefix is made of letters, digits and _ - . : (as simc's names)", v->str);
    else
      e->prefix = v->str;
    sc_rd_pop(c, m);
    TRY(st);
  }
  double R[9];
  TRY(sc_rd_get_pose(c, n, "pose", e->p, R));
  const sc_snode* pq = (v = sc_snode_get(n, "pose")) ? sc_snode_get(v, "quat") : NULL;
  if (!pq || !get_vec(pq, e->q, 4)) /* a quaternion as given, else the rotation's */
    sc_sp_mat3_to_quat(e->q, R);
  sc_sp_quat_normalize(e->q);
  if ((v = sc_snode_get(n, "fixed_base"))) {
    m = sc_rd_push_key(c, "fixed_base");
    st = sc_rd_as_bool(c, v, &e->fixed_base);
    sc_rd_pop(c, m);
    TRY(st);
  }
  int allow = 0;
  if ((v = sc_snode_get(n, "allow_unsupported"))) {
    m = sc_rd_push_key(c, "allow_unsupported");
    st = sc_rd_as_bool(c, v, &allow);
    sc_rd_pop(c, m);
    TRY(st);
  }
  const char* mp = NULL;
  if ((v = sc_snode_get(n, "model_path"))) {
    m = sc_rd_push_key(c, "model_path");
    st = sc_rd_as_name(c, v, &mp);
    sc_rd_pop(c, m);
    TRY(st);
  }
  char* path = sc_rd_path_beside(scene_file, file);
  char* mpath = mp ? sc_rd_path_beside(scene_file, mp) : NULL;
  char *text = NULL, *yaml = NULL, *ign = NULL;
  size_t len = 0, ylen = 0;
  char why[700];
  if (!path || (mp && !mpath)) st = nomem(c);
  if (!st) {
    st = sc_rd_read_file(path, SC_SCENE_MAX_BYTES, &text, &len, why, sizeof why);
    if (st && st != SC_ERR_NOMEM) {
      m = sc_rd_push_key(c, "file");
      st = sc_rd_fail(c, fn, "%s", why);
      sc_rd_pop(c, m);
    }
  }
  if (!st && !sc_mjcf_is_xml(text, len)) {
    m = sc_rd_push_key(c, "file");
    st = sc_rd_fail(c, fn, "'%s' is not a model (expected an MJCF or URDF XML file)", path);
    sc_rd_pop(c, m);
  }
  sc_import_opts o = {allow_all || allow, 0, mp ? mpath : mp_all, strict};
  char* apx = NULL;
  if (!st) st = sc_mjcf_translate(path, text, len, &o, &yaml, &ylen, &ign, &apx, NULL, c->err);
  if (!st) st = sc_snode_parse(yaml, ylen, path, 0, 0, &e->tree, c->err);
  if (!st && (!e->tree || e->tree->kind != SC_SN_MAP))
    st = sc_rd_fail(c, n, "the translation of '%s' is not a scene", path);
  if (!st) {
    /* the translated text's lines mean nothing to the user (and path is
     * freed below): later errors point at the entry */
    sc_snode_relocate(e->tree, n->file, n->line, n->col);
    if (rewrite(e, e->tree) || (ign && append(ignored, ign)) || (apx && append(approximated, apx))) st = nomem(c);
  }
  sc_free(ign);
  sc_free(apx);
  sc_free(yaml);
  sc_free(text);
  sc_free(mpath);
  sc_free(path);
  return st;
}

/* the node of a body or actuator named name in list (NULL when none) */
static const sc_snode* find(const sc_snode* list, const char* name) {
  for (int i = 0; list && list->kind == SC_SN_SEQ && i < list->n; i++) {
    const sc_snode* nm = sc_snode_get(list->kid[i], "name");
    if (nm && nm->kind == SC_SN_SCALAR && strcmp(nm->str, name) == 0) return list->kid[i];
  }
  return NULL;
}

static int count(const sc_snode* list) { return list && list->kind == SC_SN_SEQ ? list->n : 0; }

/* a body or actuator name of a model that the scene or an earlier entry has */
static sc_status check_names(ctx* c, const sc_snode* root, const entry* E, int ne) {
  const int SCENE = ne, WORLD = ne + 1; /* index values besides the entries' */
  for (int w = 0; w < 2; w++) {
    const char* key = w ? "actuators" : "bodies";
    const char* what = w ? "an actuator" : "a body";
    const sc_snode* own = sc_snode_get(root, key);
    int total = 1 + count(own);
    for (int i = 0; i < ne; i++) total += count(sc_snode_get(E[i].tree, key));
    name_index x;
    if (sc_rd_ni_init(&x, total)) return nomem(c);
    if (!w) sc_rd_ni_lookup(&x, "world", WORLD);
    for (int i = 0; i < count(own); i++) {
      const sc_snode* nm = sc_snode_get(own->kid[i], "name");
      if (nm && nm->kind == SC_SN_SCALAR) sc_rd_ni_lookup(&x, nm->str, SCENE);
    }
    sc_status st = SC_OK;
    for (int i = 0; !st && i < ne; i++) {
      const sc_snode* l = sc_snode_get(E[i].tree, key);
      for (int k = 0; !st && k < count(l); k++) {
        const sc_snode* nm = sc_snode_get(l->kid[k], "name");
        if (!nm || nm->kind != SC_SN_SCALAR) continue;
        int had = sc_rd_ni_lookup(&x, nm->str, i);
        if (had < 0 || had == i) continue; /* (twice in one model: the loader says where) */
        size_t m = sc_rd_push_idx(c, i);
        if (had == WORLD) {
          st = sc_rd_fail(c, E[i].node, "the model has a body named 'world', which is reserved; give the entry a prefix");
        } else if (had == SCENE) {
          const sc_snode* o = find(own, nm->str);
          st = sc_rd_fail(c, E[i].node, "%s named '%s' is in the model and in the scene (line %d); give the entry a prefix",
                          what, nm->str, o ? o->line : 0);
        } else {
          st = sc_rd_fail(c, E[i].node,
                          "%s named '%s' is in this model and in models[%d] (line %d); give the entries different prefixes",
                          what, nm->str, had, E[had].node->line);
        }
        sc_rd_pop(c, m);
      }
    }
    sc_rd_ni_free(&x);
    TRY(st);
  }
  return SC_OK;
}

/* the model's lists appended to the scene's (the nodes move) */
static sc_status merge(ctx* c, sc_snode* root, entry* e) {
  for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++) {
    sc_snode* from = sc_snode_get(e->tree, lists[k]);
    if (!from || from->kind != SC_SN_SEQ || !from->n) continue;
    sc_snode* to = sc_snode_get(root, lists[k]);
    if (to && to->kind != SC_SN_SEQ) {
      size_t m = sc_rd_push_key(c, lists[k]);
      sc_status st = sc_rd_fail(c, to, "expected a list (the scene's models add to it), got %s", sc_rd_kind_name(to));
      sc_rd_pop(c, m);
      return st;
    }
    if (!to) {
      to = sc_snode_new(SC_SN_SEQ, e->node->file, e->node->line, e->node->col);
      if (!to || sc_snode_put(root, lists[k], to)) {
        sc_snode_free(to);
        return nomem(c);
      }
    }
    while (from->n) {
      if (sc_snode_push(to, from->kid[0])) return nomem(c);
      memmove(from->kid, from->kid + 1, (size_t)(from->n - 1) * sizeof *from->kid);
      from->n--;
    }
  }
  return SC_OK;
}

sc_status sc_scene_expand_models(sc_snode* root, const char* scene_file, int allow_unsupported, int strict,
                                 const char* model_path, char** ignored, char** approximated, sc_error* err) {
  *ignored = NULL;
  *approximated = NULL;
  sc_snode* list = root && root->kind == SC_SN_MAP ? sc_snode_get(root, "models") : NULL;
  if (!list) return SC_OK;
  ctx c;
  memset(&c, 0, sizeof c);
  c.err = err;
  size_t m = sc_rd_push_key(&c, "models");
  sc_status st = SC_OK;
  if (list->kind != SC_SN_SEQ)
    st = sc_rd_fail(&c, list, "expected a list of models ({file, prefix, pose, fixed_base}), got %s",
                    sc_rd_kind_name(list));
  else if (list->n > MAX_MODELS)
    st = sc_rd_fail(&c, list, "more than %d models", MAX_MODELS);
  int ne = st ? 0 : list->n;
  entry* E = ne ? sc_calloc((size_t)ne, sizeof *E) : NULL;
  if (ne && !E) st = nomem(&c);
  for (int i = 0; !st && i < ne; i++) {
    size_t m2 = sc_rd_push_idx(&c, i);
    st = read_entry(&c, list->kid[i], scene_file, allow_unsupported, strict, model_path, &E[i], ignored, approximated);
    sc_rd_pop(&c, m2);
  }
  if (!st) st = check_names(&c, root, E, ne);
  sc_rd_pop(&c, m);
  for (int i = 0; !st && i < ne; i++) st = merge(&c, root, &E[i]);
  for (int i = 0; i < ne; i++) sc_snode_free(E[i].tree);
  sc_free(E);
  if (!st) sc_snode_remove(root, "models");
  if (st) {
    sc_free(*ignored);
    *ignored = NULL;
    sc_free(*approximated);
    *approximated = NULL;
  }
  return st;
}
