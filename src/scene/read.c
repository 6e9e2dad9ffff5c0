/* read: located errors and the typed readers of the scene loader.
 *
 * Each reader checks one YAML node against what the schema expects there (a
 * finite number, an integer, a name, a list of n numbers, one of a set of
 * names, a map with known keys) and reports a failure at that node with the
 * dotted path of the key being read: "file:line:col: contact.sigma: must be
 * > 0 (got 0)".  An override's value (--set KEY=VALUE) is named by its KEY and
 * located at column 1 of its KEY=VALUE.  The name index resolves body and
 * material names in constant time. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/keys.h"
#include "scene/scene_internal.h"
#include "spatial/spatial.h"

size_t sc_rd_push_key(ctx* c, const char* key) {
  size_t m = c->plen;
  int w = snprintf(c->path + m, sizeof c->path - m, "%s%s", m ? "." : "", key);
  if (w > 0) c->plen = m + (size_t)w < sizeof c->path ? m + (size_t)w : sizeof c->path - 1;
  return m;
}

size_t sc_rd_push_idx(ctx* c, int i) {
  size_t m = c->plen;
  int w = snprintf(c->path + m, sizeof c->path - m, "[%d]", i);
  if (w > 0) c->plen = m + (size_t)w < sizeof c->path ? m + (size_t)w : sizeof c->path - 1;
  return m;
}

void sc_rd_pop(ctx* c, size_t m) {
  c->plen = m;
  c->path[m] = '\0';
}

sc_status sc_rd_fail(ctx* c, const sc_snode* n, const char* fmt, ...) {
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

sc_status sc_rd_fail_at(ctx* c, const char* file, int line, int col, const char* sub,
                        const char* fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return sc_error_set(c->err, SC_ERR_SCENE, file, line, col, "%s%s%s: %s",
                      c->path[0] ? c->path : "scene", sub ? "." : "", sub ? sub : "", msg);
}

/* a required key absent from map: located at the map */
sc_status sc_rd_fail_missing(ctx* c, const sc_snode* map, const char* key, const char* expected) {
  size_t m = sc_rd_push_key(c, key);
  sc_status st = sc_error_set(c->err, SC_ERR_SCENE, map->file, map->line, map->col,
                              "%s: required key is missing (expected %s)", c->path, expected);
  sc_rd_pop(c, m);
  return st;
}

const char* sc_rd_kind_name(const sc_snode* n) {
  switch (n->kind) {
    case SC_SN_SCALAR: return n->plain && !n->str[0] ? "an empty value" : "a scalar";
    case SC_SN_SEQ: return "a list";
    case SC_SN_MAP: return "a map";
  }
  return "?";
}

/* ---- typed readers: each checks one node ---- */

int sc_rd_is_plain_scalar(const sc_snode* n) { return n->kind == SC_SN_SCALAR && n->plain; }

sc_status sc_rd_as_num(ctx* c, const sc_snode* n, double* x) {
  if (n->kind != SC_SN_SCALAR) return sc_rd_fail(c, n, "expected a number, got %s", sc_rd_kind_name(n));
  if (!n->plain || !n->str[0])
    return sc_rd_fail(c, n, "expected a number (got '%s')", n->str);
  static const char* const special[] = {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
                                        "-.inf", "-.Inf", "-.INF", "+.inf", "+.Inf", "+.INF"};
  for (int i = 0; i < 12; i++)
    if (strcmp(n->str, special[i]) == 0)
      return sc_rd_fail(c, n, "must be a finite number (got '%s')", n->str);
  char* end;
  errno = 0;
  double v = strtod(n->str, &end);
  if (*end != '\0' || end == n->str) return sc_rd_fail(c, n, "expected a number (got '%s')", n->str);
  /* ERANGE also flags underflow (subnormals such as 1e-310, or a value that
   * rounds to 0): those are finite and kept; only overflow is refused */
  if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0))
    return sc_rd_fail(c, n, "must be a finite number (got '%s')", n->str);
  *x = v;
  return SC_OK;
}

sc_status sc_rd_as_int(ctx* c, const sc_snode* n, int* x) {
  if (n->kind != SC_SN_SCALAR) return sc_rd_fail(c, n, "expected an integer, got %s", sc_rd_kind_name(n));
  const char* s = n->str;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  int ok = n->plain && s[i] != '\0';
  for (size_t k = i; ok && s[k]; k++)
    if (s[k] < '0' || s[k] > '9') ok = 0;
  if (!ok) return sc_rd_fail(c, n, "expected an integer (got '%s')", s);
  errno = 0;
  long v = strtol(s, NULL, 10);
  if (errno == ERANGE || v > 1000000000L || v < -1000000000L)
    return sc_rd_fail(c, n, "integer out of range (got '%s')", s);
  *x = (int)v;
  return SC_OK;
}

sc_status sc_rd_as_name(ctx* c, const sc_snode* n, const char** s) {
  if (n->kind != SC_SN_SCALAR) return sc_rd_fail(c, n, "expected a name, got %s", sc_rd_kind_name(n));
  if (!n->str[0]) return sc_rd_fail(c, n, "expected a non-empty name");
  *s = n->str;
  return SC_OK;
}

sc_status sc_rd_as_bool(ctx* c, const sc_snode* n, int* b) {
  if (sc_rd_is_plain_scalar(n) && strcmp(n->str, "true") == 0) {
    *b = 1;
    return SC_OK;
  }
  if (sc_rd_is_plain_scalar(n) && strcmp(n->str, "false") == 0) {
    *b = 0;
    return SC_OK;
  }
  if (n->kind != SC_SN_SCALAR) return sc_rd_fail(c, n, "expected true or false, got %s", sc_rd_kind_name(n));
  return sc_rd_fail(c, n, "expected true or false (got '%s')", n->str);
}

sc_status sc_rd_as_vec(ctx* c, const sc_snode* n, double* x, int len) {
  if (n->kind != SC_SN_SEQ)
    return sc_rd_fail(c, n, "expected a list of %d numbers, got %s", len, sc_rd_kind_name(n));
  if (n->n != len) return sc_rd_fail(c, n, "expected a list of %d numbers (got %d)", len, n->n);
  for (int i = 0; i < len; i++) {
    size_t m = sc_rd_push_idx(c, i);
    sc_status st = sc_rd_as_num(c, n->kid[i], &x[i]);
    sc_rd_pop(c, m);
    if (st) return st;
  }
  return SC_OK;
}

void sc_rd_join_names(char* buf, size_t sz, const char* const* names, int n) {
  size_t o = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && o < sz; i++) {
    int w = snprintf(buf + o, sz - o, "%s%s", i ? ", " : "", names[i]);
    if (w < 0) break;
    o += (size_t)w;
  }
}

sc_status sc_rd_as_enum(ctx* c, const sc_snode* n, const char* const* names, int count,
                         const char* what, int* out) {
  /* (the list of names only for an error: written every time, it was a
   * tenth of the instructions of translating an MJCF humanoid) */
  char list[300];
  if (n->kind == SC_SN_SCALAR)
    for (int i = 0; i < count; i++)
      if (strcmp(n->str, names[i]) == 0) {
        *out = i;
        return SC_OK;
      }
  sc_rd_join_names(list, sizeof list, names, count);
  if (n->kind != SC_SN_SCALAR) return sc_rd_fail(c, n, "expected a %s name, got %s (expected %s)", what, sc_rd_kind_name(n), list);
  return sc_rd_fail(c, n, "unknown %s '%s' (expected %s)", what, n->str, list);
}

/* n must be a map whose keys are all in allowed and unique */
sc_status sc_rd_check_map(ctx* c, const sc_snode* n, const char* const* allowed, int nallowed,
                           const char* what) {
  char list[400];
  if (n->kind != SC_SN_MAP) {
    sc_rd_join_names(list, sizeof list, allowed, nallowed);
    return sc_rd_fail(c, n, "expected %s {%s}, got %s", what, list, sc_rd_kind_name(n));
  }
  for (int i = 0; i < n->n; i++) {
    const sc_snode* k = n->kid[2 * i];
    size_t m = sc_rd_push_key(c, k->str);
    int ok = 0;
    for (int a = 0; a < nallowed; a++)
      if (strcmp(k->str, allowed[a]) == 0) ok = 1;
    if (!ok) {
      sc_rd_join_names(list, sizeof list, allowed, nallowed);
      sc_status st = k->plain && k->str[0] ? sc_rd_fail(c, k, "unknown key (expected %s)", list)
                                           : sc_rd_fail(c, k, "invalid key (expected %s)", list);
      sc_rd_pop(c, m);
      return st;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(n->kid[2 * j]->str, k->str) == 0) {
        sc_status st = sc_rd_fail(c, k, "duplicate key (first at line %d)", n->kid[2 * j]->line);
        sc_rd_pop(c, m);
        return st;
      }
    sc_rd_pop(c, m);
  }
  return SC_OK;
}

sc_status sc_rd_check_range(ctx* c, const sc_snode* n, double x, int range) {
  switch (range) {
    case RANGE_POS:
      if (!(x > 0)) return sc_rd_fail(c, n, "must be > 0 (got %s)", n->str);
      break;
    case RANGE_NONNEG:
      if (!(x >= 0)) return sc_rd_fail(c, n, "must be >= 0 (got %s)", n->str);
      break;
    case RANGE_UNIT:
      if (!(x >= 0 && x <= 1)) return sc_rd_fail(c, n, "must be in [0, 1] (got %s)", n->str);
      break;
    default: break;
  }
  return SC_OK;
}

int sc_rd_is_null(const sc_snode* n) {
  return sc_rd_is_plain_scalar(n) && (strcmp(n->str, "null") == 0 || strcmp(n->str, "Null") == 0 ||
                                      strcmp(n->str, "NULL") == 0 || strcmp(n->str, "~") == 0);
}

int sc_rd_looks_numeric(const sc_snode* n) {
  char* end;
  if (!sc_rd_is_plain_scalar(n) || !n->str[0]) return 0;
  (void)strtod(n->str, &end);
  return *end == '\0';
}

sc_status sc_rd_as_bounds(ctx* c, const sc_snode* n, double b[2]) {
  b[0] = -INFINITY;
  b[1] = INFINITY;
  if (n->kind != SC_SN_SEQ)
    return sc_rd_fail(c, n, "expected [lower, upper] (numbers, or null for no bound), got %s",
                      sc_rd_kind_name(n));
  if (n->n != 2)
    return sc_rd_fail(c, n, "expected [lower, upper] (got a list of %d)", n->n);
  for (int i = 0; i < 2; i++) {
    if (sc_rd_is_null(n->kid[i])) continue;
    size_t m = sc_rd_push_idx(c, i);
    sc_status st = sc_rd_as_num(c, n->kid[i], &b[i]);
    sc_rd_pop(c, m);
    TRY(st);
  }
  if (isfinite(b[0]) && isfinite(b[1]) && !(b[0] < b[1]))
    return sc_rd_fail(c, n, "lower %s must be below upper %s", n->kid[0]->str, n->kid[1]->str);
  return SC_OK;
}

sc_status sc_rd_as_rigid_or_pos(ctx* c, const sc_snode* n, double* x) {
  if (sc_rd_is_plain_scalar(n) && strcmp(n->str, "rigid") == 0) {
    *x = INFINITY;
    return SC_OK;
  }
  if (n->kind == SC_SN_SCALAR && !sc_rd_looks_numeric(n))
    return sc_rd_fail(c, n, "expected a number > 0 or rigid (got '%s')", n->str);
  TRY(sc_rd_as_num(c, n, x));
  return sc_rd_check_range(c, n, *x, RANGE_POS);
}

/* optional number key (required when req) with a range check; *present set when given */
sc_status sc_rd_get_num(ctx* c, const sc_snode* map, const char* key, double* x, int range,
                         int req, int* present) {
  const sc_snode* v = sc_snode_get(map, key);
  if (present) *present = v != NULL;
  if (!v) return req ? sc_rd_fail_missing(c, map, key, "a number") : SC_OK;
  size_t m = sc_rd_push_key(c, key);
  sc_status st = sc_rd_as_num(c, v, x);
  if (!st) st = sc_rd_check_range(c, v, *x, range);
  sc_rd_pop(c, m);
  return st;
}

sc_status sc_rd_get_int(ctx* c, const sc_snode* map, const char* key, int* x, int lo, int req,
                         int* present) {
  const sc_snode* v = sc_snode_get(map, key);
  if (present) *present = v != NULL;
  if (!v) return req ? sc_rd_fail_missing(c, map, key, "an integer") : SC_OK;
  size_t m = sc_rd_push_key(c, key);
  sc_status st = sc_rd_as_int(c, v, x);
  if (!st && *x < lo) st = sc_rd_fail(c, v, "must be >= %d (got %s)", lo, v->str);
  sc_rd_pop(c, m);
  return st;
}

sc_status sc_rd_get_vec(ctx* c, const sc_snode* map, const char* key, double* x, int len) {
  const sc_snode* v = sc_snode_get(map, key);
  if (!v) return SC_OK;
  size_t m = sc_rd_push_key(c, key);
  sc_status st = sc_rd_as_vec(c, v, x, len);
  sc_rd_pop(c, m);
  return st;
}

/* {position, rpy} -> p, R */
sc_status sc_rd_get_pose(ctx* c, const sc_snode* map, const char* key, double p[3], double R[9]) {
  double rpy[3] = {0, 0, 0};
  p[0] = p[1] = p[2] = 0;
  const sc_snode* v = sc_snode_get(map, key);
  if (v) {
    size_t m = sc_rd_push_key(c, key);
    sc_status st = sc_rd_check_section(c, v, "<pose>", "a pose");
    if (!st) st = sc_rd_get_vec(c, v, "position", p, 3);
    if (!st) st = sc_rd_get_vec(c, v, "rpy", rpy, 3);
    const sc_snode* qn = st ? NULL : sc_snode_get(v, "quat");
    if (qn) { /* exact where rpy would round-trip through angles */
      double q[4];
      size_t m2 = sc_rd_push_key(c, "quat");
      if (sc_snode_get(v, "rpy"))
        st = sc_rd_fail(c, qn, "give either rpy or quat (got both)");
      if (!st) st = sc_rd_as_vec(c, qn, q, 4);
      if (!st && !(sc_sp_quat_normalize(q) > 1e-12))
        st = sc_rd_fail(c, qn, "the quaternion is zero (expected a non-zero [qw, qx, qy, qz])");
      sc_rd_pop(c, m2);
      sc_rd_pop(c, m);
      TRY(st);
      sc_sp_quat_to_mat3(R, q);
      return SC_OK;
    }
    sc_rd_pop(c, m);
    TRY(st);
  }
  sc_sp_rpy_to_mat3(R, rpy);
  return SC_OK;
}

sc_status sc_rd_check_section(ctx* c, const sc_snode* n, const char* section, const char* what) {
  const char* names[32];
  int k = sc_scene_section_keys(section, names, 32);
  return sc_rd_check_map(c, n, names, k, what);
}

/* ---- names -> index ---- */

int sc_rd_ni_init(name_index* x, int n) {
  size_t cap = 16;
  while (cap < 2 * (size_t)n) cap *= 2;
  x->key = sc_calloc(cap, sizeof *x->key);
  x->val = sc_calloc(cap, sizeof *x->val);
  x->mask = cap - 1;
  return x->key && x->val ? 0 : -1;
}

void sc_rd_ni_free(name_index* x) {
  sc_free(x->key);
  sc_free(x->val);
}

/* the index stored for name, or -1 when absent (then, if add >= 0, name is
 * inserted with index add: the table, not the struct, changes) */
int sc_rd_ni_lookup(const name_index* x, const char* name, int add) {
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

/* ---- files a scene names ---- */

sc_status sc_rd_read_file(const char* path, size_t max, char** out, size_t* len, char* why,
                          size_t whysz) {
  char label[1100];
  snprintf(label, sizeof label, "'%s'", path);
  return sc_read_file(path, label, max, out, len, why, whysz);
}


char* sc_rd_path_beside(const char* base, const char* file) {
  const char* slash = base ? strrchr(base, '/') : NULL;
  const size_t dir = file[0] == '/' || !slash ? 0 : (size_t)(slash - base) + 1;
  const size_t n = strlen(file);
  char* p = sc_malloc(dir + n + 1);
  if (!p) return NULL;
  if (dir) memcpy(p, base, dir);
  memcpy(p + dir, file, n + 1);
  return p;
}

int sc_rd_name_ok(const char* name) {
  for (const char* p = name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
          *p == '-' || *p == '.' || *p == ':'))
      return 0;
  return 1;
}
