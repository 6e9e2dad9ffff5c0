/* scene: schema walk from the located YAML tree to an sc_model.
 *
 * The schema is DESIGN.md section 3.  Every check reports the node it is
 * about, so messages read "file:line:col: bodies[2].joint.type: ...".  The
 * walk first reads every section into small temporary records, then sorts
 * the bodies topologically (a child may precede its parent in the file), and
 * only then allocates and fills the model, so a failed load leaves nothing
 * half-built behind.
 *
 * Geometry conventions applied here:
 *  - joint and shape frames: R = Rz(yaw) Ry(pitch) Rx(roll) (sc_sp_rpy_to_mat3);
 *  - plane {normal n, offset d}: geom_pos = d n, geom_rot has third column n;
 *  - box size is given as full edge lengths and stored as half extents;
 *  - contact parameters: the shape's own value > its material's > contact.defaults. */
#include "scene/scene.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"
#include "scene/scene_tree.h"
#include "spatial/spatial.h"

/* ---- located errors ---- */

typedef struct ctx {
  sc_error* err;
  char path[512];
  size_t plen;
} ctx;

static size_t push_key(ctx* c, const char* key) {
  size_t m = c->plen;
  int w = snprintf(c->path + m, sizeof c->path - m, "%s%s", m ? "." : "", key);
  if (w > 0) c->plen = m + (size_t)w < sizeof c->path ? m + (size_t)w : sizeof c->path - 1;
  return m;
}

static size_t push_idx(ctx* c, int i) {
  size_t m = c->plen;
  int w = snprintf(c->path + m, sizeof c->path - m, "[%d]", i);
  if (w > 0) c->plen = m + (size_t)w < sizeof c->path ? m + (size_t)w : sizeof c->path - 1;
  return m;
}

static void pop(ctx* c, size_t m) {
  c->plen = m;
  c->path[m] = '\0';
}

/* an error about node n itself; an override value is named by its KEY and
 * located at the start of its KEY=VALUE */
static sc_status fail(ctx* c, const sc_snode* n, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static sc_status fail(ctx* c, const sc_snode* n, const char* fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char* path = c->path[0] ? c->path : "scene";
  int col = n->col;
  if (n->setkey) {
    path = n->setkey;
    col = 1;
  }
  return sc_error_set(c->err, SC_ERR_SCENE, n->file, n->line, col, "%s: %s", path, msg);
}

/* a required key absent from map: located at the map */
static sc_status fail_missing(ctx* c, const sc_snode* map, const char* key, const char* expected) {
  size_t m = push_key(c, key);
  sc_status st = sc_error_set(c->err, SC_ERR_SCENE, map->file, map->line, map->col,
                              "%s: required key is missing (expected %s)", c->path, expected);
  pop(c, m);
  return st;
}

static const char* kind_name(const sc_snode* n) {
  switch (n->kind) {
    case SC_SN_SCALAR: return n->plain && !n->str[0] ? "an empty value" : "a scalar";
    case SC_SN_SEQ: return "a list";
    case SC_SN_MAP: return "a map";
  }
  return "?";
}

/* ---- typed readers: each checks one node ---- */

static int is_plain_scalar(const sc_snode* n) { return n->kind == SC_SN_SCALAR && n->plain; }

static sc_status as_num(ctx* c, const sc_snode* n, double* x) {
  if (n->kind != SC_SN_SCALAR) return fail(c, n, "expected a number, got %s", kind_name(n));
  if (!n->plain || !n->str[0])
    return fail(c, n, "expected a number (got '%s')", n->str);
  static const char* const special[] = {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
                                        "-.inf", "-.Inf", "-.INF", "+.inf", "+.Inf", "+.INF"};
  for (int i = 0; i < 12; i++)
    if (strcmp(n->str, special[i]) == 0)
      return fail(c, n, "must be a finite number (got '%s')", n->str);
  char* end;
  errno = 0;
  double v = strtod(n->str, &end);
  if (*end != '\0' || end == n->str) return fail(c, n, "expected a number (got '%s')", n->str);
  /* ERANGE also flags underflow (subnormals such as 1e-310, or a value that
   * rounds to 0): those are finite and kept; only overflow is refused */
  if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0))
    return fail(c, n, "must be a finite number (got '%s')", n->str);
  *x = v;
  return SC_OK;
}

static sc_status as_int(ctx* c, const sc_snode* n, int* x) {
  if (n->kind != SC_SN_SCALAR) return fail(c, n, "expected an integer, got %s", kind_name(n));
  const char* s = n->str;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  int ok = n->plain && s[i] != '\0';
  for (size_t k = i; ok && s[k]; k++)
    if (s[k] < '0' || s[k] > '9') ok = 0;
  if (!ok) return fail(c, n, "expected an integer (got '%s')", s);
  errno = 0;
  long v = strtol(s, NULL, 10);
  if (errno == ERANGE || v > 1000000000L || v < -1000000000L)
    return fail(c, n, "integer out of range (got '%s')", s);
  *x = (int)v;
  return SC_OK;
}

static sc_status as_name(ctx* c, const sc_snode* n, const char** s) {
  if (n->kind != SC_SN_SCALAR) return fail(c, n, "expected a name, got %s", kind_name(n));
  if (!n->str[0]) return fail(c, n, "expected a non-empty name");
  *s = n->str;
  return SC_OK;
}

static sc_status as_bool(ctx* c, const sc_snode* n, int* b) {
  if (is_plain_scalar(n) && strcmp(n->str, "true") == 0) {
    *b = 1;
    return SC_OK;
  }
  if (is_plain_scalar(n) && strcmp(n->str, "false") == 0) {
    *b = 0;
    return SC_OK;
  }
  if (n->kind != SC_SN_SCALAR) return fail(c, n, "expected true or false, got %s", kind_name(n));
  return fail(c, n, "expected true or false (got '%s')", n->str);
}

static sc_status as_vec(ctx* c, const sc_snode* n, double* x, int len) {
  if (n->kind != SC_SN_SEQ)
    return fail(c, n, "expected a list of %d numbers, got %s", len, kind_name(n));
  if (n->n != len) return fail(c, n, "expected a list of %d numbers (got %d)", len, n->n);
  for (int i = 0; i < len; i++) {
    size_t m = push_idx(c, i);
    sc_status st = as_num(c, n->kid[i], &x[i]);
    pop(c, m);
    if (st) return st;
  }
  return SC_OK;
}

static void join_names(char* buf, size_t sz, const char* const* names, int n) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && o < sz; i++) {
    int w = snprintf(buf + o, sz - o, "%s%s", i ? ", " : "", names[i]);
    if (w < 0) break;
    o += (size_t)w;
  }
}

static sc_status as_enum(ctx* c, const sc_snode* n, const char* const* names, int count,
                         const char* what, int* out) {
  char list[300];
  join_names(list, sizeof list, names, count);
  if (n->kind != SC_SN_SCALAR) return fail(c, n, "expected a %s name, got %s (expected %s)", what, kind_name(n), list);
  for (int i = 0; i < count; i++)
    if (strcmp(n->str, names[i]) == 0) {
      *out = i;
      return SC_OK;
    }
  return fail(c, n, "unknown %s '%s' (expected %s)", what, n->str, list);
}

/* n must be a map whose keys are all in allowed and unique */
static sc_status check_map(ctx* c, const sc_snode* n, const char* const* allowed, int nallowed,
                           const char* what) {
  char list[400];
  join_names(list, sizeof list, allowed, nallowed);
  if (n->kind != SC_SN_MAP) return fail(c, n, "expected %s {%s}, got %s", what, list, kind_name(n));
  for (int i = 0; i < n->n; i++) {
    const sc_snode* k = n->kid[2 * i];
    size_t m = push_key(c, k->str);
    int ok = 0;
    for (int a = 0; a < nallowed; a++)
      if (strcmp(k->str, allowed[a]) == 0) ok = 1;
    if (!ok) {
      sc_status st = k->plain && k->str[0] ? fail(c, k, "unknown key (expected %s)", list)
                                           : fail(c, k, "invalid key (expected %s)", list);
      pop(c, m);
      return st;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(n->kid[2 * j]->str, k->str) == 0) {
        sc_status st = fail(c, k, "duplicate key (first at line %d)", n->kid[2 * j]->line);
        pop(c, m);
        return st;
      }
    pop(c, m);
  }
  return SC_OK;
}

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define TRY(x)                    \
  do {                            \
    sc_status st_ = (x);          \
    if (st_ != SC_OK) return st_; \
  } while (0)

enum { ANY, POS, NONNEG, UNIT };

static sc_status check_range(ctx* c, const sc_snode* n, double x, int range) {
  switch (range) {
    case POS:
      if (!(x > 0)) return fail(c, n, "must be > 0 (got %s)", n->str);
      break;
    case NONNEG:
      if (!(x >= 0)) return fail(c, n, "must be >= 0 (got %s)", n->str);
      break;
    case UNIT:
      if (!(x >= 0 && x <= 1)) return fail(c, n, "must be in [0, 1] (got %s)", n->str);
      break;
    default: break;
  }
  return SC_OK;
}

/* optional number key (required when req) with a range check; *present set when given */
static sc_status get_num(ctx* c, const sc_snode* map, const char* key, double* x, int range,
                         int req, int* present) {
  const sc_snode* v = sc_snode_get(map, key);
  if (present) *present = v != NULL;
  if (!v) return req ? fail_missing(c, map, key, "a number") : SC_OK;
  size_t m = push_key(c, key);
  sc_status st = as_num(c, v, x);
  if (!st) st = check_range(c, v, *x, range);
  pop(c, m);
  return st;
}

static sc_status get_int(ctx* c, const sc_snode* map, const char* key, int* x, int lo, int req,
                         int* present) {
  const sc_snode* v = sc_snode_get(map, key);
  if (present) *present = v != NULL;
  if (!v) return req ? fail_missing(c, map, key, "an integer") : SC_OK;
  size_t m = push_key(c, key);
  sc_status st = as_int(c, v, x);
  if (!st && *x < lo) st = fail(c, v, "must be >= %d (got %s)", lo, v->str);
  pop(c, m);
  return st;
}

static sc_status get_vec(ctx* c, const sc_snode* map, const char* key, double* x, int len) {
  const sc_snode* v = sc_snode_get(map, key);
  if (!v) return SC_OK;
  size_t m = push_key(c, key);
  sc_status st = as_vec(c, v, x, len);
  pop(c, m);
  return st;
}

/* {position, rpy} -> p, R */
static sc_status get_pose(ctx* c, const sc_snode* map, const char* key, double p[3], double R[9]) {
  static const char* const keys[] = {"position", "rpy"};
  double rpy[3] = {0, 0, 0};
  p[0] = p[1] = p[2] = 0;
  const sc_snode* v = sc_snode_get(map, key);
  if (v) {
    size_t m = push_key(c, key);
    sc_status st = check_map(c, v, keys, NELEM(keys), "a pose");
    if (!st) st = get_vec(c, v, "position", p, 3);
    if (!st) st = get_vec(c, v, "rpy", rpy, 3);
    pop(c, m);
    TRY(st);
  }
  sc_sp_rpy_to_mat3(R, rpy);
  return SC_OK;
}

/* ---- contact parameters ---- */

typedef struct params {
  int has_k, has_tau, has_mu, has_hcd;
  double k, tau, mu, hcd; /* hcd: Hunt-Crossley dissipation, s/m */
} params;

static int looks_numeric(const sc_snode* n) {
  char* end;
  if (!n->plain || !n->str[0]) return 0;
  (void)strtod(n->str, &end);
  return *end == '\0';
}

static sc_status get_params(ctx* c, const sc_snode* map, params* p) {
  const sc_snode* k = sc_snode_get(map, "stiffness");
  if (k) {
    size_t m = push_key(c, "stiffness");
    sc_status st = SC_OK;
    if (is_plain_scalar(k) && strcmp(k->str, "rigid") == 0) {
      p->k = INFINITY;
    } else if (k->kind == SC_SN_SCALAR && !looks_numeric(k)) {
      st = fail(c, k, "expected a number > 0 or rigid (got '%s')", k->str);
    } else {
      st = as_num(c, k, &p->k);
      if (!st) st = check_range(c, k, p->k, POS);
    }
    pop(c, m);
    TRY(st);
    p->has_k = 1;
  }
  TRY(get_num(c, map, "dissipation_time", &p->tau, NONNEG, 0, &p->has_tau));
  TRY(get_num(c, map, "friction", &p->mu, NONNEG, 0, &p->has_mu));
  TRY(get_num(c, map, "dissipation", &p->hcd, NONNEG, 0, &p->has_hcd));
  return SC_OK;
}

typedef struct material {
  const char* name;
  params p;
} material;

/* ---- records read before the model is allocated ---- */

typedef struct shape_in {
  sc_geom_type type;
  double pos[3], rot[9], size[3];
  double k, tau, mu, hcd;
} shape_in;

typedef struct body_in {
  const sc_snode* node;
  const char* name;
  const sc_snode* parent_node;
  int parent;  /* file index, -1 = world */
  sc_joint_type jtype;
  double axis[3], jpos[3], jrot[9];
  int has_mass, solid;
  double mass, com[3], inertia[9];
  const sc_snode* com_node;
  const sc_snode* inertia_node;
  const sc_snode* mass_node;
  int has_q, has_v;
  double q[7], v[6];
  const sc_snode* geometry;
  int geom0, ngeom; /* range in the shape array */
} body_in;

/* names -> index by open addressing (FNV-1a, linear probing, at most half
 * full), so that resolving names stays linear in the number of bodies and
 * materials; a scene with 100 000 bodies made this lookup quadratic */
typedef struct name_index {
  const char** key; /* not owned: the node tree's strings */
  int* val;
  size_t mask;
} name_index;

static int ni_init(name_index* x, int n) {
  size_t cap = 16;
  while (cap < 2 * (size_t)n) cap *= 2;
  x->key = sc_calloc(cap, sizeof *x->key);
  x->val = sc_calloc(cap, sizeof *x->val);
  x->mask = cap - 1;
  return x->key && x->val ? 0 : -1;
}

static void ni_free(name_index* x) {
  sc_free(x->key);
  sc_free(x->val);
}

/* the index stored for name, or -1 when absent (then, if add >= 0, name is
 * inserted with index add: the table, not the struct, changes) */
static int ni_lookup(const name_index* x, const char* name, int add) {
  if (!x->key) return -1;
  unsigned long long h = 1469598103934665603ULL;
  for (const char* p = name; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
  for (size_t i = (size_t)h & x->mask;; i = (i + 1) & x->mask) {
    if (!x->key[i]) {
      if (add >= 0) {
        x->key[i] = name;
        x->val[i] = add;
      }
      return -1;
    }
    if (strcmp(x->key[i], name) == 0) return x->val[i];
  }
}

typedef struct load {
  sc_options opt;
  params defaults;
  material* mat;
  int nmat;
  body_in* body;
  int nbody;
  int* order;  /* model body b >= 1 is file body order[b - 1] */
  int* rank;   /* file body -> model body */
  shape_in* shape;
  int nshape, nstatic;
  const sc_snode* springs;
  const char* name;
  name_index body_index, mat_index;
} load;

static void load_free(load* L) {
  sc_free(L->mat);
  sc_free(L->body);
  sc_free(L->order);
  sc_free(L->rank);
  sc_free(L->shape);
  ni_free(&L->body_index);
  ni_free(&L->mat_index);
}

static const char* const geom_names[] = {"plane", "sphere", "capsule", "box", "cylinder"};

static sc_status read_shape(ctx* c, load* L, const sc_snode* n, int on_body, shape_in* g) {
  static const char* const common[] = {"shape", "pose", "material", "stiffness", "dissipation_time",
                                       "friction", "dissipation"};
  if (n->kind != SC_SN_MAP) return fail(c, n, "expected a shape map {shape: ..., ...}, got %s", kind_name(n));
  const sc_snode* sh = sc_snode_get(n, "shape");
  if (!sh) return fail_missing(c, n, "shape", "sphere, capsule, box, cylinder or plane");
  int t;
  size_t m = push_key(c, "shape");
  sc_status st = as_enum(c, sh, geom_names, NELEM(geom_names), "shape", &t);
  if (!st && t == SC_GEOM_PLANE && on_body)
    st = fail(c, sh, "a plane is only allowed in static (expected sphere, capsule, box, cylinder)");
  pop(c, m);
  TRY(st);
  g->type = (sc_geom_type)t;

  /* allowed keys: common ones plus the shape's own */
  const char* allowed[10];
  int na = 0;
  for (int i = 0; i < NELEM(common); i++) {
    if (g->type == SC_GEOM_PLANE && strcmp(common[i], "pose") == 0) continue;
    allowed[na++] = common[i];
  }
  switch (g->type) {
    case SC_GEOM_SPHERE: allowed[na++] = "radius"; break;
    case SC_GEOM_CAPSULE:
    case SC_GEOM_CYLINDER:
      allowed[na++] = "radius";
      allowed[na++] = "length";
      break;
    case SC_GEOM_BOX: allowed[na++] = "size"; break;
    case SC_GEOM_PLANE:
      allowed[na++] = "normal";
      allowed[na++] = "offset";
      break;
  }
  char what[40];
  snprintf(what, sizeof what, "a %s", geom_names[t]);
  TRY(check_map(c, n, allowed, na, what));

  g->size[0] = g->size[1] = g->size[2] = 0;
  switch (g->type) {
    case SC_GEOM_SPHERE: TRY(get_num(c, n, "radius", &g->size[0], POS, 1, NULL)); break;
    case SC_GEOM_CAPSULE:
      TRY(get_num(c, n, "radius", &g->size[0], POS, 1, NULL));
      TRY(get_num(c, n, "length", &g->size[1], NONNEG, 1, NULL));
      break;
    case SC_GEOM_CYLINDER:
      TRY(get_num(c, n, "radius", &g->size[0], POS, 1, NULL));
      TRY(get_num(c, n, "length", &g->size[1], POS, 1, NULL));
      break;
    case SC_GEOM_BOX: {
      const sc_snode* s = sc_snode_get(n, "size");
      if (!s) return fail_missing(c, n, "size", "[lx, ly, lz]");
      m = push_key(c, "size");
      st = as_vec(c, s, g->size, 3);
      for (int i = 0; !st && i < 3; i++)
        if (!(g->size[i] > 0)) {
          size_t m2 = push_idx(c, i);
          st = fail(c, s->kid[i], "edge length must be > 0 (got %s)", s->kid[i]->str);
          pop(c, m2);
        }
      pop(c, m);
      TRY(st);
      for (int i = 0; i < 3; i++) g->size[i] *= 0.5;
      break;
    }
    case SC_GEOM_PLANE: {
      double nrm[3] = {0, 0, 1}, d = 0;
      const sc_snode* nn = sc_snode_get(n, "normal");
      if (nn) {
        m = push_key(c, "normal");
        st = as_vec(c, nn, nrm, 3);
        if (!st && !(sc_sp_norm3(nrm) > 1e-12)) st = fail(c, nn, "normal must be non-zero");
        pop(c, m);
        TRY(st);
      }
      TRY(get_num(c, n, "offset", &d, ANY, 0, NULL));
      sc_sp_normalize3(nrm);
      double t1[3], t2[3];
      sc_sp_tangents(t1, t2, nrm);
      for (int i = 0; i < 3; i++) {
        g->pos[i] = d * nrm[i];
        g->rot[3 * i + 0] = t1[i];
        g->rot[3 * i + 1] = t2[i];
        g->rot[3 * i + 2] = nrm[i];
      }
      break;
    }
  }
  if (g->type != SC_GEOM_PLANE) TRY(get_pose(c, n, "pose", g->pos, g->rot));

  /* parameters: own > material > defaults */
  params own = {0};
  TRY(get_params(c, n, &own));
  params mat = {0};
  const sc_snode* mn = sc_snode_get(n, "material");
  if (mn) {
    const char* mname = NULL;
    m = push_key(c, "material");
    st = as_name(c, mn, &mname);
    int found = st ? -1 : ni_lookup(&L->mat_index, mname, -1);
    if (!st && found < 0) {
      char list[300];
      const char* names[32];
      int nn = L->nmat < 32 ? L->nmat : 32;
      for (int i = 0; i < nn; i++) names[i] = L->mat[i].name;
      join_names(list, sizeof list, names, nn);
      st = fail(c, mn, "unknown material '%s' (expected one of materials: %s)", mname,
                L->nmat ? list : "none defined");
    }
    pop(c, m);
    TRY(st);
    mat = L->mat[found].p;
  }
  g->k = own.has_k ? own.k : mat.has_k ? mat.k : L->defaults.k;
  g->tau = own.has_tau ? own.tau : mat.has_tau ? mat.tau : L->defaults.tau;
  g->mu = own.has_mu ? own.mu : mat.has_mu ? mat.mu : L->defaults.mu;
  g->hcd = own.has_hcd ? own.hcd : mat.has_hcd ? mat.hcd : L->defaults.hcd;
  return SC_OK;
}

/* ---- sections ---- */

static sc_status read_options(ctx* c, load* L, const sc_snode* root) {
  sc_options* o = &L->opt;
  const sc_snode* n;
  size_t m;
  sc_status st;

  if ((n = sc_snode_get(root, "gravity"))) {
    m = push_key(c, "gravity");
    st = as_vec(c, n, o->gravity, 3);
    pop(c, m);
    TRY(st);
  }

  static const char* const tkeys[] = {"step", "duration"};
  n = sc_snode_get(root, "time");
  if (!n) return fail_missing(c, root, "time", "{step, duration}");
  m = push_key(c, "time");
  st = check_map(c, n, tkeys, NELEM(tkeys), "a map");
  if (!st) st = get_num(c, n, "step", &o->dt, POS, 1, NULL);
  if (!st) st = get_num(c, n, "duration", &o->duration, POS, 1, NULL);
  if (!st && o->duration < o->dt) {
    size_t m2 = push_key(c, "duration");
    st = fail(c, sc_snode_get(n, "duration"), "must be >= time.step (got %s)",
              sc_snode_get(n, "duration")->str);
    pop(c, m2);
  }
  pop(c, m);
  TRY(st);

  static const char* const ikeys[] = {"scheme", "theta", "newton", "relinearize"};
  static const char* const schemes[] = {"explicit_euler", "symplectic_euler", "implicit_euler",
                                        "midpoint", "theta"};
  if ((n = sc_snode_get(root, "integrator"))) {
    m = push_key(c, "integrator");
    st = check_map(c, n, ikeys, NELEM(ikeys), "a map");
    const sc_snode* s = sc_snode_get(n, "scheme");
    if (!st && s) {
      int k = 0;
      size_t m2 = push_key(c, "scheme");
      st = as_enum(c, s, schemes, NELEM(schemes), "scheme", &k);
      pop(c, m2);
      if (!st) o->scheme = (sc_scheme)k;
    }
    const sc_snode* th = sc_snode_get(n, "theta");
    if (!st && o->scheme == SC_SCHEME_THETA && !th)
      st = fail_missing(c, n, "theta", "{q, v, vq} with scheme: theta");
    if (!st && th && o->scheme != SC_SCHEME_THETA) {
      size_t m2 = push_key(c, "theta");
      st = fail(c, th, "only allowed with scheme: theta (scheme is %s)",
                sc_scheme_name(o->scheme));
      pop(c, m2);
    }
    if (!st && th) {
      static const char* const thk[] = {"q", "v", "vq"};
      size_t m2 = push_key(c, "theta");
      st = check_map(c, th, thk, NELEM(thk), "a map");
      if (!st) st = get_num(c, th, "q", &o->theta_q, UNIT, 1, NULL);
      if (!st) st = get_num(c, th, "v", &o->theta_v, UNIT, 1, NULL);
      if (!st) st = get_num(c, th, "vq", &o->theta_vq, UNIT, 1, NULL);
      pop(c, m2);
    }
    const sc_snode* nw = sc_snode_get(n, "newton");
    if (!st && nw) {
      static const char* const nk[] = {"tolerance", "max_iterations"};
      size_t m2 = push_key(c, "newton");
      st = check_map(c, nw, nk, NELEM(nk), "a map");
      if (!st) st = get_num(c, nw, "tolerance", &o->newton_tol, POS, 0, NULL);
      if (!st) st = get_int(c, nw, "max_iterations", &o->newton_maxit, 1, 0, NULL);
      pop(c, m2);
    }
    if (!st) st = get_int(c, n, "relinearize", &o->relinearize, 0, 0, NULL);
    pop(c, m);
    TRY(st);
  }
  if (o->scheme != SC_SCHEME_THETA)
    sc_options_scheme_thetas(o->scheme, &o->theta_q, &o->theta_v, &o->theta_vq);

  static const char* const ckeys[] = {"solver",  "tolerance",       "max_iterations", "on_failure",
                                      "lcp",     "sigma",           "near_rigid_beta", "margin",
                                      "max_contacts", "defaults", "slip_curvature", "model",
                                      "threads", "theta", "near_rigid_depth",
                                      "near_rigid_beta_min", "passes", "penetration_warning",
                                      "speculative", "midstep_jacobian"};
  static const char* const solvers[] = {"newton", "lcp"};
  static const char* const models[] = {"sap", "similar", "lagged"};
  static const char* const onfail[] = {"abort", "warn"};
  if ((n = sc_snode_get(root, "contact"))) {
    m = push_key(c, "contact");
    st = check_map(c, n, ckeys, NELEM(ckeys), "a map");
    const sc_snode* s;
    if (!st && (s = sc_snode_get(n, "solver"))) {
      int k = 0;
      size_t m2 = push_key(c, "solver");
      st = as_enum(c, s, solvers, 2, "solver", &k);
      pop(c, m2);
      if (!st) o->solver = (sc_solver_kind)k;
    }
    if (!st && (s = sc_snode_get(n, "model"))) {
      int k = 0;
      size_t m2 = push_key(c, "model");
      st = as_enum(c, s, models, 3, "model", &k);
      pop(c, m2);
      if (!st) o->contact_model = k;
    }
    if (!st) st = get_num(c, n, "tolerance", &o->contact_tol, POS, 0, NULL);
    if (!st) st = get_int(c, n, "max_iterations", &o->contact_maxit, 1, 0, NULL);
    if (!st && (s = sc_snode_get(n, "on_failure"))) {
      int k = 0;
      size_t m2 = push_key(c, "on_failure");
      st = as_enum(c, s, onfail, 2, "on_failure", &k);
      pop(c, m2);
      if (!st) o->on_failure = (sc_on_failure)k;
    }
    if (!st && (s = sc_snode_get(n, "lcp"))) {
      static const char* const lk[] = {"directions", "warm_start", "max_memory"};
      size_t m2 = push_key(c, "lcp");
      st = check_map(c, s, lk, NELEM(lk), "a map");
      if (!st) st = get_int(c, s, "directions", &o->lcp_directions, 4, 0, NULL);
      if (!st && o->lcp_directions % 2) {
        size_t m3 = push_key(c, "directions");
        const sc_snode* dn = sc_snode_get(s, "directions");
        st = fail(c, dn, "must be even (got %s)", dn->str);
        pop(c, m3);
      }
      if (!st) st = get_num(c, s, "max_memory", &o->lcp_max_memory, POS, 0, NULL);
      const sc_snode* ws;
      if (!st && (ws = sc_snode_get(s, "warm_start"))) {
        size_t m3 = push_key(c, "warm_start");
        st = as_bool(c, ws, &o->lcp_warm_start);
        pop(c, m3);
      }
      pop(c, m2);
    }
    if (!st) st = get_num(c, n, "sigma", &o->sigma, POS, 0, NULL);
    if (!st) st = get_num(c, n, "near_rigid_beta", &o->beta, NONNEG, 0, NULL);
    if (!st) st = get_num(c, n, "slip_curvature", &o->slip_curvature, NONNEG, 0, NULL);
    if (!st && (s = sc_snode_get(n, "theta"))) {
      size_t m2 = push_key(c, "theta");
      if (s->kind == SC_SN_SCALAR && s->str && strcmp(s->str, "auto") == 0)
        o->contact_theta = SC_CONTACT_THETA_AUTO;
      else if (s->kind == SC_SN_SCALAR && s->str && strcmp(s->str, "scheme") == 0)
        o->contact_theta = SC_CONTACT_THETA_SCHEME;
      else if (s->kind != SC_SN_SCALAR)
        st = fail(c, s, "expected auto, scheme or a number in (0, 1], got %s", kind_name(s));
      else {
        char* end;
        const double v = strtod(s->str, &end);
        if (end == s->str || *end != '\0' || !(v > 0 && v <= 1))
          st = fail(c, s, "expected auto, scheme or a number in (0, 1] (got '%s')", s->str);
        else
          o->contact_theta = v;
      }
      pop(c, m2);
    }
    if (!st) st = get_num(c, n, "near_rigid_depth", &o->near_rigid_depth, NONNEG, 0, NULL);
    if (!st) st = get_num(c, n, "near_rigid_beta_min", &o->beta_min, POS, 0, NULL);
    if (!st) st = get_int(c, n, "passes", &o->contact_passes, 0, 0, NULL);
    if (!st) st = get_num(c, n, "penetration_warning", &o->penetration_warning, POS, 0, NULL);
    if (!st) st = get_num(c, n, "margin", &o->margin, NONNEG, 0, NULL);
    if (!st && (s = sc_snode_get(n, "speculative"))) {
      size_t m2 = push_key(c, "speculative");
      st = as_bool(c, s, &o->speculative);
      pop(c, m2);
    }
    if (!st && (s = sc_snode_get(n, "midstep_jacobian"))) {
      size_t m2 = push_key(c, "midstep_jacobian");
      st = as_bool(c, s, &o->midstep_jacobian);
      pop(c, m2);
    }
    if (!st) st = get_int(c, n, "max_contacts", &o->ncon_max, 0, 0, NULL);
    if (!st && (s = sc_snode_get(n, "threads"))) {
      size_t m2 = push_key(c, "threads");
      if (s->kind == SC_SN_SCALAR && s->str && strcmp(s->str, "auto") == 0)
        o->threads = 0;
      else if (s->kind == SC_SN_SCALAR && s->str &&
               (s->str[0] == '\0' || s->str[strspn(s->str, "+-0123456789")] != '\0'))
        st = fail(c, s, "expected auto or a number of threads (got '%s')", s->str);
      else {
        st = as_int(c, s, &o->threads);
        if (!st && (o->threads < 1 || o->threads > SC_MAX_THREADS))
          st = fail(c, s, "must be auto or an integer in [1, %d] (got %s)", SC_MAX_THREADS,
                    s->str);
      }
      pop(c, m2);
    }
    if (!st && (s = sc_snode_get(n, "defaults"))) {
      static const char* const dk[] = {"stiffness", "dissipation_time", "friction", "dissipation"};
      size_t m2 = push_key(c, "defaults");
      st = check_map(c, s, dk, NELEM(dk), "a map");
      params p = {0};
      if (!st) st = get_params(c, s, &p);
      if (p.has_k) L->defaults.k = p.k;
      if (p.has_tau) L->defaults.tau = p.tau;
      if (p.has_mu) L->defaults.mu = p.mu;
      if (p.has_hcd) L->defaults.hcd = p.hcd;
      pop(c, m2);
    }
    pop(c, m);
    TRY(st);
  }

  if ((n = sc_snode_get(root, "output"))) {
    static const char* const ok[] = {"every", "contacts", "solver_trace"};
    m = push_key(c, "output");
    st = check_map(c, n, ok, NELEM(ok), "a map");
    if (!st) st = get_int(c, n, "every", &o->output_every, 1, 0, NULL);
    const sc_snode* s = sc_snode_get(n, "contacts");
    if (!st && s) {
      size_t m2 = push_key(c, "contacts");
      st = as_bool(c, s, &o->output_contacts);
      pop(c, m2);
    }
    if (!st && (s = sc_snode_get(n, "solver_trace"))) {
      size_t m2 = push_key(c, "solver_trace");
      st = as_bool(c, s, &o->output_solver_trace);
      pop(c, m2);
    }
    pop(c, m);
    TRY(st);
  }
  return SC_OK;
}

static sc_status read_materials(ctx* c, load* L, const sc_snode* root) {
  static const char* const mk[] = {"stiffness", "dissipation_time", "friction", "dissipation"};
  const sc_snode* n = sc_snode_get(root, "materials");
  if (!n) return SC_OK;
  size_t m = push_key(c, "materials");
  sc_status st = SC_OK;
  if (n->kind != SC_SN_MAP) st = fail(c, n, "expected a map name -> {stiffness, dissipation_time, friction, dissipation}, got %s", kind_name(n));
  if (!st) {
    L->mat = sc_calloc((size_t)n->n, sizeof *L->mat);
    if (!L->mat || ni_init(&L->mat_index, n->n)) st = SC_ERR_NOMEM;
  }
  for (int i = 0; !st && i < n->n; i++) {
    const sc_snode* k = n->kid[2 * i];
    size_t m2 = push_key(c, k->str);
    if (!k->str[0]) st = fail(c, k, "expected a non-empty material name");
    int j = st ? -1 : ni_lookup(&L->mat_index, k->str, i);
    if (j >= 0)
      st = fail(c, k, "duplicate material name '%s' (first at line %d)", k->str, n->kid[2 * j]->line);
    if (!st) st = check_map(c, n->kid[2 * i + 1], mk, NELEM(mk), "a material");
    if (!st) st = get_params(c, n->kid[2 * i + 1], &L->mat[i].p);
    L->mat[i].name = k->str;
    L->nmat = i + 1;
    pop(c, m2);
  }
  pop(c, m);
  return st;
}

static sc_status read_inertia(ctx* c, body_in* b, const sc_snode* n) {
  static const char* const ik[] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
  if (is_plain_scalar(n) && strcmp(n->str, "solid") == 0) {
    b->solid = 1;
    return SC_OK;
  }
  if (n->kind != SC_SN_MAP)
    return n->kind == SC_SN_SCALAR
               ? fail(c, n, "expected {ixx, iyy, izz, ixy, ixz, iyz} or solid (got '%s')", n->str)
               : fail(c, n, "expected {ixx, iyy, izz, ixy, ixz, iyz} or solid, got %s",
                      kind_name(n));
  TRY(check_map(c, n, ik, NELEM(ik), "an inertia"));
  double v[6] = {0};
  for (int i = 0; i < 6; i++) TRY(get_num(c, n, ik[i], &v[i], ANY, i < 3, NULL));
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
  if (!(lam[0] > 0 && lam[1] > 0 && lam[2] > 0))
    return fail(c, n, "inertia is not positive definite (principal moments %g, %g, %g)", lam[0],
                lam[1], lam[2]);
  /* a real mass distribution has I1 <= I2 + I3; the slack admits rounded inputs */
  for (int i = 0; i < 3; i++)
    if (lam[i] > tr - lam[i] + 1e-4 * tr)
      return fail(c, n,
                  "principal moments %g, %g, %g violate the triangle inequality "
                  "(expected each <= the sum of the other two)",
                  lam[0], lam[1], lam[2]);
  return SC_OK;
}

static sc_status read_body(ctx* c, const sc_snode* n, body_in* b) {
  static const char* const bk[] = {"name",    "parent",  "joint",   "mass",
                                   "com",     "inertia", "initial", "geometry"};
  static const char* const jk[] = {"type", "origin", "axis"};
  static const char* const jtypes[] = {"fixed", "revolute", "prismatic", "planar", "ball", "free"};
  TRY(check_map(c, n, bk, NELEM(bk), "a body"));
  b->node = n;
  const sc_snode* s = sc_snode_get(n, "name");
  if (!s) return fail_missing(c, n, "name", "a unique body name");
  size_t m = push_key(c, "name");
  sc_status st = as_name(c, s, &b->name);
  if (!st && strcmp(b->name, "world") == 0)
    st = fail(c, s, "'world' is reserved for the fixed world body (expected another name)");
  pop(c, m);
  TRY(st);
  b->parent_node = sc_snode_get(n, "parent");
  if (b->parent_node) {
    const char* pn;
    m = push_key(c, "parent");
    st = as_name(c, b->parent_node, &pn);
    pop(c, m);
    TRY(st);
  }

  const sc_snode* j = sc_snode_get(n, "joint");
  if (!j) return fail_missing(c, n, "joint", "{type, origin, axis}");
  m = push_key(c, "joint");
  st = check_map(c, j, jk, NELEM(jk), "a joint");
  s = sc_snode_get(j, "type");
  if (!st && !s) st = fail_missing(c, j, "type", "fixed, revolute, prismatic, planar, ball, free");
  if (!st) {
    int t;
    size_t m2 = push_key(c, "type");
    st = as_enum(c, s, jtypes, NELEM(jtypes), "joint type", &t);
    pop(c, m2);
    b->jtype = (sc_joint_type)t;
  }
  if (!st) st = get_pose(c, j, "origin", b->jpos, b->jrot);
  b->axis[0] = b->axis[1] = 0;
  b->axis[2] = 1;
  const sc_snode* ax = sc_snode_get(j, "axis");
  if (!st && ax) {
    size_t m2 = push_key(c, "axis");
    if (b->jtype != SC_JOINT_REVOLUTE && b->jtype != SC_JOINT_PRISMATIC)
      st = fail(c, ax, "only revolute and prismatic joints have an axis (joint type is %s)",
                sc_joint_type_name(b->jtype));
    if (!st) st = as_vec(c, ax, b->axis, 3);
    if (!st && !(sc_sp_norm3(b->axis) > 1e-12)) st = fail(c, ax, "axis must be non-zero");
    if (!st) sc_sp_normalize3(b->axis);
    pop(c, m2);
  }
  pop(c, m);
  TRY(st);

  int fixed = b->jtype == SC_JOINT_FIXED;
  b->mass_node = sc_snode_get(n, "mass");
  TRY(get_num(c, n, "mass", &b->mass, POS, !fixed, &b->has_mass));
  b->com_node = sc_snode_get(n, "com");
  TRY(get_vec(c, n, "com", b->com, 3));
  b->inertia_node = sc_snode_get(n, "inertia");
  if (b->inertia_node) {
    m = push_key(c, "inertia");
    st = read_inertia(c, b, b->inertia_node);
    if (!st && !b->has_mass)
      st = fail(c, b->inertia_node, "inertia needs a mass (expected mass: > 0 on this body)");
    pop(c, m);
    TRY(st);
  } else if (!fixed) {
    return fail_missing(c, n, "inertia", "{ixx, iyy, izz, ixy, ixz, iyz} or solid");
  }
  if (b->solid && b->com_node) {
    m = push_key(c, "com");
    st = fail(c, b->com_node, "com is computed with inertia: solid (expected no com)");
    pop(c, m);
    TRY(st);
  }

  const sc_snode* init = sc_snode_get(n, "initial");
  if (init) {
    static const char* const ik[] = {"q", "v"};
    int nq = sc_joint_nq(b->jtype), nv = sc_joint_nv(b->jtype);
    m = push_key(c, "initial");
    st = check_map(c, init, ik, 2, "a map");
    const sc_snode* q = sc_snode_get(init, "q");
    const sc_snode* v = sc_snode_get(init, "v");
    if (!st && q) {
      size_t m2 = push_key(c, "q");
      if (q->kind == SC_SN_SEQ && q->n != nq)
        st = fail(c, q, "a %s joint has %d coordinates (got a list of %d)",
                  sc_joint_type_name(b->jtype), nq, q->n);
      if (!st) st = as_vec(c, q, b->q, nq);
      int qa = b->jtype == SC_JOINT_BALL ? 0 : b->jtype == SC_JOINT_FREE ? 3 : -1;
      if (!st && qa >= 0) {
        if (!(sc_sp_quat_normalize(b->q + qa) > 1e-12))
          st = fail(c, q, "the quaternion is zero (expected a non-zero [qw, qx, qy, qz])");
      }
      b->has_q = 1;
      pop(c, m2);
    }
    if (!st && v) {
      size_t m2 = push_key(c, "v");
      if (v->kind == SC_SN_SEQ && v->n != nv)
        st = fail(c, v, "a %s joint has %d velocities (got a list of %d)",
                  sc_joint_type_name(b->jtype), nv, v->n);
      if (!st) st = as_vec(c, v, b->v, nv);
      b->has_v = 1;
      pop(c, m2);
    }
    pop(c, m);
    TRY(st);
  }
  b->geometry = sc_snode_get(n, "geometry");
  if (b->geometry && b->geometry->kind != SC_SN_SEQ) {
    m = push_key(c, "geometry");
    st = fail(c, b->geometry, "expected a list of shapes, got %s", kind_name(b->geometry));
    pop(c, m);
    return st;
  }
  return SC_OK;
}

static int find_body(const load* L, const char* name) { return ni_lookup(&L->body_index, name, -1); }

static sc_status read_bodies(ctx* c, load* L, const sc_snode* root) {
  const sc_snode* n = sc_snode_get(root, "bodies");
  if (!n) return SC_OK;
  size_t m = push_key(c, "bodies");
  sc_status st = SC_OK;
  if (n->kind != SC_SN_SEQ) st = fail(c, n, "expected a list of bodies, got %s", kind_name(n));
  if (!st) {
    L->body = sc_calloc((size_t)n->n, sizeof *L->body);
    L->order = sc_calloc((size_t)n->n, sizeof *L->order);
    L->rank = sc_calloc((size_t)n->n, sizeof *L->rank);
    if (!L->body || !L->order || !L->rank || ni_init(&L->body_index, n->n)) st = SC_ERR_NOMEM;
  }
  for (int i = 0; !st && i < n->n; i++) {
    size_t m2 = push_idx(c, i);
    st = read_body(c, n->kid[i], &L->body[i]);
    if (!st) {
      L->nbody = i;
      int d = ni_lookup(&L->body_index, L->body[i].name, i);
      if (d >= 0) {
        size_t m3 = push_key(c, "name");
        const sc_snode* nm = sc_snode_get(n->kid[i], "name");
        st = fail(c, nm, "duplicate body name '%s' (first at line %d)", L->body[i].name,
                  sc_snode_get(n->kid[d], "name")->line);
        pop(c, m3);
      }
      L->nbody = i + 1;
    }
    pop(c, m2);
  }
  /* parents by name (any order in the file), then a topological order */
  for (int i = 0; !st && i < L->nbody; i++) {
    body_in* b = &L->body[i];
    b->parent = -1;
    if (b->parent_node && strcmp(b->parent_node->str, "world") != 0) {
      b->parent = find_body(L, b->parent_node->str);
      if (b->parent < 0) {
        size_t m2 = push_idx(c, i);
        size_t m3 = push_key(c, "parent");
        st = fail(c, b->parent_node, "unknown body '%s' (expected world or a body name)",
                  b->parent_node->str);
        pop(c, m3);
        pop(c, m2);
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
      size_t m2 = push_idx(c, k);
      size_t m3 = push_key(c, "parent");
      st = fail(c, L->body[k].parent_node, "cycle in the parent chain (%s; expected a tree rooted at world)", chain);
      pop(c, m3);
      pop(c, m2);
      break;
    }
  }
  pop(c, m);
  return st;
}

/* uniform density over the body's shapes: mass, com and inertia about com */
static void solid_inertia(const load* L, body_in* b) {
  double Vt = 0, c[3] = {0, 0, 0};
  for (int g = b->geom0; g < b->geom0 + b->ngeom; g++) {
    double I[9];
    double V = sc_scene_shape_inertia(L->shape[g].type, L->shape[g].size, I);
    Vt += V;
    sc_sp_addscl3(c, c, L->shape[g].pos, V);
  }
  sc_sp_scale3(c, c, 1 / Vt);
  double rho = b->mass / Vt;
  double Ib[9] = {0};
  for (int g = b->geom0; g < b->geom0 + b->ngeom; g++) {
    const shape_in* s = &L->shape[g];
    double I[9], RI[9], RIRt[9], d[3];
    double V = sc_scene_shape_inertia(s->type, s->size, I);
    sc_sp_mat3_mul(RI, s->rot, I);
    sc_sp_mat3_mulT(RIRt, RI, s->rot);
    sc_sp_sub3(d, s->pos, c);
    double dd = sc_sp_dot3(d, d);
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 3; k++)
        Ib[3 * i + k] += rho * (RIRt[3 * i + k] + V * ((i == k ? dd : 0) - d[i] * d[k]));
  }
  for (int i = 0; i < 3; i++) {
    b->com[i] = c[i];
    for (int k = i; k < 3; k++) b->inertia[3 * i + k] = b->inertia[3 * k + i] = 0.5 * (Ib[3 * i + k] + Ib[3 * k + i]);
  }
}

static sc_status read_geometry(ctx* c, load* L, const sc_snode* root) {
  const sc_snode* st_list = sc_snode_get(root, "static");
  if (st_list && st_list->kind != SC_SN_SEQ) {
    size_t m = push_key(c, "static");
    sc_status st = fail(c, st_list, "expected a list of shapes, got %s", kind_name(st_list));
    pop(c, m);
    return st;
  }
  int total = st_list ? st_list->n : 0;
  for (int i = 0; i < L->nbody; i++) total += L->body[i].geometry ? L->body[i].geometry->n : 0;
  L->shape = sc_calloc((size_t)total, sizeof *L->shape);
  if (!L->shape) return SC_ERR_NOMEM;
  L->nstatic = st_list ? st_list->n : 0;
  for (int i = 0; i < L->nstatic; i++) {
    size_t m = push_key(c, "static");
    push_idx(c, i);
    sc_status st = read_shape(c, L, st_list->kid[i], 0, &L->shape[L->nshape++]);
    pop(c, m);
    TRY(st);
  }
  /* body shapes in model order, so geoms of a body are contiguous */
  for (int r = 0; r < L->nbody; r++) {
    int i = L->order[r];
    body_in* b = &L->body[i];
    b->geom0 = L->nshape;
    b->ngeom = b->geometry ? b->geometry->n : 0;
    for (int k = 0; k < b->ngeom; k++) {
      size_t m = push_key(c, "bodies");
      push_idx(c, i);
      push_key(c, "geometry");
      push_idx(c, k);
      sc_status st = read_shape(c, L, b->geometry->kid[k], 1, &L->shape[L->nshape++]);
      pop(c, m);
      TRY(st);
    }
    if (b->solid) {
      if (b->ngeom == 0) {
        size_t m = push_key(c, "bodies");
        push_idx(c, i);
        push_key(c, "inertia");
        sc_status st = fail(c, b->inertia_node, "inertia: solid needs at least one shape in geometry");
        pop(c, m);
        return st;
      }
      solid_inertia(L, b);
    }
  }
  return SC_OK;
}

static sc_status read_spring_end(ctx* c, const load* L, const sc_snode* s, const char* key,
                                 int* body, double pt[3]) {
  static const char* const ek[] = {"body", "point"};
  const sc_snode* e = sc_snode_get(s, key);
  if (!e) return fail_missing(c, s, key, "{body, point}");
  size_t m = push_key(c, key);
  sc_status st = check_map(c, e, ek, 2, "a spring end");
  const sc_snode* bn = sc_snode_get(e, "body");
  if (!st && !bn) st = fail_missing(c, e, "body", "world or a body name");
  const char* name = NULL;
  if (!st) {
    size_t m2 = push_key(c, "body");
    st = as_name(c, bn, &name);
    if (!st) {
      if (strcmp(name, "world") == 0) {
        *body = 0;
      } else {
        int i = find_body(L, name);
        if (i < 0)
          st = fail(c, bn, "unknown body '%s' (expected world or a body name)", name);
        else
          *body = L->rank[i];
      }
    }
    pop(c, m2);
  }
  pt[0] = pt[1] = pt[2] = 0;
  if (!st) st = get_vec(c, e, "point", pt, 3);
  pop(c, m);
  return st;
}

/* springs go straight into the model (allocated by then) */
static sc_status read_springs(ctx* c, const load* L, const sc_snode* list, sc_model* M, int fill) {
  static const char* const types[] = {"joint", "linear"};
  static const char* const jk[] = {"type", "joint", "dof", "stiffness", "damping", "rest"};
  static const char* const lk[] = {"type", "a", "b", "stiffness", "damping", "rest_length"};
  int nj = 0, nl = 0;
  for (int i = 0; list && i < list->n; i++) {
    const sc_snode* s = list->kid[i];
    size_t m = push_key(c, "springs");
    push_idx(c, i);
    sc_status st = SC_OK;
    if (s->kind != SC_SN_MAP) st = fail(c, s, "expected a spring map {type: joint|linear, ...}, got %s", kind_name(s));
    const sc_snode* t = st ? NULL : sc_snode_get(s, "type");
    if (!st && !t) st = fail_missing(c, s, "type", "joint or linear");
    int type = 0;
    if (!st) {
      size_t m2 = push_key(c, "type");
      st = as_enum(c, t, types, 2, "spring type", &type);
      pop(c, m2);
    }
    double k = 0, damp = 0, rest = 0;
    if (!st && type == 0) {
      st = check_map(c, s, jk, NELEM(jk), "a joint spring");
      const sc_snode* jn = st ? NULL : sc_snode_get(s, "joint");
      if (!st && !jn) st = fail_missing(c, s, "joint", "the name of a body with a revolute, prismatic or planar joint");
      int bi = -1, dof = 0;
      if (!st) {
        const char* name = NULL;
        size_t m2 = push_key(c, "joint");
        st = as_name(c, jn, &name);
        if (!st) bi = find_body(L, name);
        if (!st && bi < 0)
          st = fail(c, jn, "unknown joint '%s' (expected the name of a body)", name);
        if (!st && L->body[bi].jtype != SC_JOINT_REVOLUTE && L->body[bi].jtype != SC_JOINT_PRISMATIC &&
            L->body[bi].jtype != SC_JOINT_PLANAR)
          st = fail(c, jn, "joint '%s' is %s joint (expected a revolute, prismatic or planar joint)",
                    name, L->body[bi].jtype == SC_JOINT_FIXED ? "a fixed"
                          : L->body[bi].jtype == SC_JOINT_BALL ? "a ball" : "a free");
        pop(c, m2);
      }
      int has_dof = 0;
      if (!st) st = get_int(c, s, "dof", &dof, 0, 0, &has_dof);
      if (!st && dof >= sc_joint_nv(L->body[bi].jtype)) {
        size_t m2 = push_key(c, "dof");
        st = fail(c, sc_snode_get(s, "dof"), "a %s joint has dofs 0..%d (got %d)",
                  sc_joint_type_name(L->body[bi].jtype), sc_joint_nv(L->body[bi].jtype) - 1, dof);
        pop(c, m2);
      }
      if (!st) st = get_num(c, s, "stiffness", &k, NONNEG, 1, NULL);
      if (!st) st = get_num(c, s, "damping", &damp, NONNEG, 0, NULL);
      if (!st) st = get_num(c, s, "rest", &rest, ANY, 0, NULL);
      if (!st && fill) {
        M->jspring_jnt[nj] = L->rank[bi] - 1;
        M->jspring_local[nj] = dof;
        M->jspring_k[nj] = k;
        M->jspring_c[nj] = damp;
        M->jspring_rest[nj] = rest;
      }
      nj++;
    } else if (!st) {
      st = check_map(c, s, lk, NELEM(lk), "a linear spring");
      int ba = 0, bb = 0;
      double pa[3], pb[3];
      if (!st) st = read_spring_end(c, L, s, "a", &ba, pa);
      if (!st) st = read_spring_end(c, L, s, "b", &bb, pb);
      if (!st) st = get_num(c, s, "stiffness", &k, NONNEG, 1, NULL);
      if (!st) st = get_num(c, s, "damping", &damp, NONNEG, 0, NULL);
      if (!st) st = get_num(c, s, "rest_length", &rest, NONNEG, 0, NULL);
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
    pop(c, m);
    TRY(st);
  }
  if (!fill) {
    M->njspring = nj;
    M->nlspring = nl;
  }
  return SC_OK;
}

static char* base_name(const char* path) {
  const char* b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char* dot = strrchr(b, '.');
  size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
  char* r = sc_malloc(n + 1);
  if (!r) return NULL;
  memcpy(r, b, n);
  r[n] = '\0';
  return r;
}

static sc_status build(ctx* c, const sc_snode* root, const char* file, sc_model** out) {
  static const char* const rk[] = {"simc",      "name",    "gravity", "time",    "integrator", "contact",
                                   "materials", "bodies",  "static",  "springs", "output"};
  *out = NULL;
  if (!root)
    return sc_error_set(c->err, SC_ERR_SCENE, file, 1, 1,
                        "scene: the document is empty (expected a map with simc: 1, time, bodies, ...)");
  TRY(check_map(c, root, rk, NELEM(rk), "a scene map"));
  const sc_snode* v = sc_snode_get(root, "simc");
  if (!v) return fail_missing(c, root, "simc", "simc: 1");
  int ver;
  size_t m = push_key(c, "simc");
  sc_status st = as_int(c, v, &ver);
  if (!st && ver != 1) st = fail(c, v, "unsupported scene version %d (expected 1)", ver);
  pop(c, m);
  TRY(st);

  load L;
  memset(&L, 0, sizeof L);
  sc_options_default(&L.opt);
  L.defaults.k = 1.0e6;
  L.defaults.tau = 0.01;
  L.defaults.mu = 0.5;
  L.defaults.hcd = SC_DEFAULT_HC_DISSIPATION;
  if ((v = sc_snode_get(root, "name"))) {
    m = push_key(c, "name");
    st = as_name(c, v, &L.name);
    pop(c, m);
    TRY(st);
  }
  const sc_snode* springs = sc_snode_get(root, "springs");
  sc_model* M = NULL;
  st = read_options(c, &L, root);
  if (!st) st = read_materials(c, &L, root);
  if (!st) st = read_bodies(c, &L, root);
  if (!st) st = read_geometry(c, &L, root);
  if (!st && springs && springs->kind != SC_SN_SEQ) {
    m = push_key(c, "springs");
    st = fail(c, springs, "expected a list of springs, got %s", kind_name(springs));
    pop(c, m);
  }
  if (!st) {
    M = sc_calloc(1, sizeof *M);
    if (!M) st = SC_ERR_NOMEM;
  }
  if (!st) st = read_springs(c, &L, springs, M, 0);
  if (!st) {
    M->nbody = L.nbody + 1;
    M->njnt = L.nbody;
    M->ngeom = L.nshape;
    st = sc_model_alloc(M);
  }
  if (!st) st = read_springs(c, &L, springs, M, 1);
  if (!st) {
    M->opt = L.opt;
    M->body_name[0] = sc_strdup("world");
    M->body_parent[0] = -1;
    if (!M->body_name[0]) st = SC_ERR_NOMEM;
    for (int b = 1; !st && b < M->nbody; b++) {
      const body_in* B = &L.body[L.order[b - 1]];
      int j = b - 1;
      M->body_name[b] = sc_strdup(B->name);
      if (!M->body_name[b]) st = SC_ERR_NOMEM;
      M->body_parent[b] = B->parent < 0 ? 0 : L.rank[B->parent];
      M->jnt_type[j] = B->jtype;
      for (int d = 0; d < 3; d++) {
        M->jnt_axis[3 * j + d] = B->axis[d];
        M->jnt_pos[3 * j + d] = B->jpos[d];
        M->body_com[3 * b + d] = B->com[d];
      }
      for (int d = 0; d < 9; d++) {
        M->jnt_rot[9 * j + d] = B->jrot[d];
        M->body_inertia[9 * b + d] = B->inertia[d];
      }
      M->body_mass[b] = B->has_mass ? B->mass : 0;
    }
    for (int g = 0; g < L.nshape; g++) {
      const shape_in* S = &L.shape[g];
      M->geom_type[g] = S->type;
      for (int d = 0; d < 3; d++) {
        M->geom_pos[3 * g + d] = S->pos[d];
        M->geom_size[3 * g + d] = S->size[d];
      }
      for (int d = 0; d < 9; d++) M->geom_rot[9 * g + d] = S->rot[d];
      M->geom_stiffness[g] = S->k;
      M->geom_dissipation[g] = S->tau;
      M->geom_friction[g] = S->mu;
      M->geom_hc_dissipation[g] = S->hcd;
      M->geom_body[g] = 0;
    }
    for (int b = 1; b < M->nbody; b++) {
      const body_in* B = &L.body[L.order[b - 1]];
      for (int g = B->geom0; g < B->geom0 + B->ngeom; g++) M->geom_body[g] = b;
    }
  }
  if (!st) st = sc_model_finalize(M);
  if (!st) {
    for (int b = 1; b < M->nbody; b++) {
      const body_in* B = &L.body[L.order[b - 1]];
      int j = M->body_jnt[b];
      if (B->has_q)
        for (int k = 0; k < M->jnt_nq[j]; k++) M->qpos0[M->jnt_qadr[j] + k] = B->q[k];
      if (B->has_v)
        for (int k = 0; k < M->jnt_nv[j]; k++) M->qvel0[M->jnt_vadr[j] + k] = B->v[k];
    }
    M->name = L.name ? sc_strdup(L.name) : base_name(file);
    M->scene_path = sc_strdup(file);
    if (!M->name || !M->scene_path) st = SC_ERR_NOMEM;
  }
  load_free(&L);
  if (st) {
    if (st == SC_ERR_NOMEM) sc_error_set(c->err, st, file, 0, 0, "out of memory while building the model");
    sc_model_free(M);
    return st;
  }
  *out = M;
  return SC_OK;
}

/* text[len] is the document (NUL bytes inside are reported by the reader) */
static sc_status load_text(const char* text, size_t len, const char* name, const char* const* sets,
                           int nsets, sc_model** out, sc_error* err) {
  sc_snode* root = NULL;
  sc_status st = sc_snode_parse(text, len, name, 0, 0, &root, err);
  for (int k = 0; !st && k < nsets; k++) {
    if (!root) {
      /* an empty document cannot be overridden; report the file */
      break;
    }
    st = sc_snode_apply_set(root, sets[k], k + 1, err);
  }
  ctx c;
  memset(&c, 0, sizeof c);
  c.err = err;
  sc_model* M = NULL;
  if (!st) st = build(&c, root, name, &M);
  if (!st) {
    st = sc_snode_emit(root, &M->scene_yaml, err);
    if (st) {
      sc_model_free(M);
      M = NULL;
    }
  }
  sc_snode_free(root);
  if (st) err->code = st;
  *out = M;
  return st;
}

sc_status sc_scene_load_string(const char* text, const char* name, const char* const* sets,
                               int nsets, sc_model** out, sc_error* err) {
  sc_error local;
  if (!err) err = &local;
  sc_error_clear(err);
  *out = NULL;
  return load_text(text, strlen(text), name ? name : "<string>", sets, nsets, out, err);
}

sc_status sc_scene_load_buffer(const char* text, size_t len, const char* name,
                               const char* const* sets, int nsets, sc_model** out,
                               sc_error* err) {
  sc_error local;
  if (!err) err = &local;
  sc_error_clear(err);
  *out = NULL;
  if (!name) name = "<buffer>";
  /* libyaml reads exactly len bytes, but the readers after it rely on a
   * terminated copy */
  char* buf = sc_malloc(len + 1);
  if (!buf) return sc_error_set(err, SC_ERR_NOMEM, name, 0, 0, "out of memory reading the scene");
  if (len) memcpy(buf, text, len);
  buf[len] = '\0';
  sc_status st = load_text(buf, len, name, sets, nsets, out, err);
  sc_free(buf);
  return st;
}

sc_status sc_scene_load(const char* path, const char* const* sets, int nsets, sc_model** out,
                        sc_error* err) {
  sc_error local;
  if (!err) err = &local;
  sc_error_clear(err);
  *out = NULL;
  /* O_NONBLOCK: opening a FIFO without a writer must not hang; only regular
   * files are read (a FIFO, device or socket can block or never end) */
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) return sc_error_set(err, SC_ERR_IO, path, 0, 0, "cannot open the scene: %s", strerror(errno));
  struct stat sb;
  int serr = fstat(fd, &sb) != 0 ? errno : 0;
  if (serr || !S_ISREG(sb.st_mode)) {
    const char* why = serr                  ? strerror(serr)
                      : S_ISDIR(sb.st_mode) ? strerror(EISDIR)
                                            : "not a regular file (a FIFO, device or socket)";
    close(fd);
    return sc_error_set(err, SC_ERR_IO, path, 0, 0, "cannot read the scene: %s", why);
  }
  if (sb.st_size > (off_t)SC_SCENE_MAX_BYTES) {
    close(fd);
    return sc_error_set(err, SC_ERR_SCENE, path, 1, 1,
                        "scene: the document is too large (%lld bytes; the limit is %d)",
                        (long long)sb.st_size, SC_SCENE_MAX_BYTES);
  }
  FILE* f = fdopen(fd, "rb");
  if (!f) {
    close(fd);
    return sc_error_set(err, SC_ERR_IO, path, 0, 0, "cannot open the scene: %s", strerror(errno));
  }
  size_t cap = 1 << 16, n = 0;
  char* buf = sc_malloc(cap);
  sc_status st = buf ? SC_OK : SC_ERR_NOMEM;
  while (!st) {
    if (n + 1 >= cap) {
      if (cap > (size_t)SC_SCENE_MAX_BYTES) {
        st = sc_error_set(err, SC_ERR_SCENE, path, 1, 1,
                          "scene: the document is too large (more than %d bytes)", SC_SCENE_MAX_BYTES);
        break;
      }
      char* nb = sc_malloc(2 * cap);
      if (!nb) {
        st = SC_ERR_NOMEM;
        break;
      }
      memcpy(nb, buf, n);
      sc_free(buf);
      buf = nb;
      cap *= 2;
    }
    size_t r = fread(buf + n, 1, cap - 1 - n, f);
    n += r;
    if (r == 0) {
      if (ferror(f)) st = sc_error_set(err, SC_ERR_IO, path, 0, 0, "cannot read the scene: %s", strerror(errno));
      break;
    }
  }
  fclose(f);
  if (st) {
    if (st == SC_ERR_NOMEM) sc_error_set(err, st, path, 0, 0, "out of memory reading the scene");
    sc_free(buf);
    return st;
  }
  buf[n] = '\0';
  st = load_text(buf, n, path, sets, nsets, out, err);
  sc_free(buf);
  return st;
}
