/* h5compare: compare the numeric datasets of two HDF5 files (doc/tools.md).
 *
 *   h5compare A.h5 B.h5 [--rtol R] [--atol A] [--tol PATTERN=RTOL[,ATOL]]...
 *                       [--fields name,name,...] [--match-contacts]
 *                       [--allow-length-difference]
 *                       [--report junit|json|md [--report-file PATH]]
 *
 * An element differs when |a - b| > atol + rtol |b| (B is the reference);
 * the excess ratio |a - b| / (atol + rtol |b|) is above 1 exactly then.
 * A NaN in either file is a difference (a simulation output holds none; a
 * NaN in the reference means the reference is broken), and so is an
 * infinity against anything but the same infinity.  For every dataset the
 * report gives max |a - b|, max |a - b| / |b| and the first row (first index
 * of the slowest dimension, i.e. the recorded step for per-step datasets;
 * per-contact rows also show their step via A's /contact/start).  After the
 * table, for every dataset that differs, the worst element (largest excess
 * ratio): its row, that row's time, its column and the column's name from
 * /model (q_names, v_names, body_names, actuator_names, joint_names), and
 * the first difference of the comparison (the one at the earliest step).
 *
 * --tol PATTERN=RTOL[,ATOL] sets the tolerances of the datasets whose path
 * (or the path of a group holding them) matches the glob PATTERN; a
 * component left empty or out keeps its value (the global --rtol/--atol or
 * an earlier matching --tol); later --tol options win.
 *
 * Default fields: every numeric dataset in either file except
 * /solver/wall_time; a dataset present
 * in only one file is a difference, except a dataset that a later simc
 * format_version added (see added_in) missing from a file of an earlier
 * version: that one is reported as skipped, with a note, since the older
 * file cannot hold it.  --fields (paths or group names) limits
 * the comparison to the named datasets.
 *
 * Datasets whose shapes differ only in their row count (a shorter run) are
 * compared over their common rows; the length difference is a difference
 * unless --allow-length-difference.
 *
 * --match-contacts: within each recorded step, the per-contact rows of A are
 * matched to B's by body pair and nearest point before comparing, so a
 * contact set listed in another order is reported as reordered rows, not as
 * a difference in the point coordinates.  A real difference still differs.
 *
 * --report junit|json|md writes a machine-readable report: to --report-file
 * PATH beside the usual text on stdout, or, without --report-file, to stdout
 * instead of the text.
 *
 * Exit 0 when everything is within tolerance, 1 when something differs,
 * 2 on a usage or I/O error (missing file, field named in neither file,
 * report file not writable).
 *
 * The column names are strings, which io_h5's reader (sc_h5r_*) does not
 * return; read_names() below reads them with the HDF5 library directly, the
 * only HDF5 call of this file (doc/architecture.md). */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_h5/io_h5.h"

#define BLOCK_VALUES (1 << 20)

static void usage(FILE* f) {
  fprintf(f,
          "usage: h5compare A.h5 B.h5 [--rtol R] [--atol A] [--tol PATTERN=RTOL[,ATOL]]...\n"
          "                 [--fields name,name,...] [--match-contacts]\n"
          "                 [--allow-length-difference]\n"
          "                 [--report junit|json|md [--report-file PATH]]\n"
          "  compares the numeric datasets of A against B (the reference):\n"
          "  an element differs when |a-b| > atol + rtol*|b|.\n"
          "  --rtol R       relative tolerance (default 1e-9)\n"
          "  --atol A       absolute tolerance (default 1e-12)\n"
          "  --tol PATTERN=RTOL[,ATOL]\n"
          "                 tolerances of the datasets whose path, or a group holding\n"
          "                 them, matches the glob PATTERN ('*' also matches '/'; a\n"
          "                 leading '/' may be left out): --tol /q=1e-6,1e-10,\n"
          "                 --tol '/contact/*=1e-6' (rtol only), --tol energy=,1e-9\n"
          "                 (atol only).  A value left empty or out keeps the global\n"
          "                 --rtol/--atol (or an earlier matching --tol's); repeatable,\n"
          "                 later --tol options win\n"
          "  --fields LIST  dataset paths or group names, e.g. /q,/v,energy\n"
          "                 (default: every numeric dataset except /solver/wall_time)\n"
          "  --match-contacts  match contact rows within a step by (body pair,\n"
          "                 nearest point) and report reorderings as such\n"
          "  --allow-length-difference\n"
          "                 datasets whose row counts differ (a shorter run) are\n"
          "                 compared over their common rows in any case; with this\n"
          "                 option the length difference alone is not a difference\n"
          "  --report FORMAT  junit (JUnit XML, one testcase per dataset), json or md\n"
          "                 (a Markdown table), to stdout instead of the text report\n"
          "  --report-file PATH  write the --report there instead; the text report\n"
          "                 then goes to stdout as usual\n"
          "  after the table: the first difference (at the earliest step), and for each\n"
          "  dataset that differs its first and worst element (row, time from /time,\n"
          "  column and its name from /model/*_names), the excess ratio\n"
          "  |a-b| / (atol + rtol*|b|) of the worst (above 1: a difference) and any\n"
          "  difference in the row counts\n"
          "  a dataset in one file only, and a NaN in either file, are differences\n"
          "  (except a dataset a newer simc format_version added, missing from an\n"
          "  older file: reported as skipped)\n"
          "exit status: 0 within tolerance, 1 differences, 2 usage or I/O error\n");
}

static void oom(void) {
  fprintf(stderr, "h5compare: out of memory\n");
  exit(2);
}

/* the UTF-8 sequence length at s (1..4), or 0 when s is not valid UTF-8 */
static int utf8_len(const unsigned char* s) {
  if (s[0] < 0x80) return 1;
  int n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
  if (n == 0 || (n == 4 && s[0] > 0xF4)) return 0;
  for (int i = 1; i < n; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  if (n == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0))) return 0;
  if (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))) return 0;
  return n;
}

/* the code point of a valid UTF-8 sequence of n bytes */
static unsigned utf8_cp(const unsigned char* s, int n) {
  if (n == 1) return s[0];
  unsigned c = s[0] & (0x7F >> n);
  for (int i = 1; i < n; i++) c = c << 6 | (s[i] & 0x3F);
  return c;
}

/* characters a terminal acts on rather than shows: C1 controls (U+009B is
 * CSI, as ESC [ is) and the bidirectional overrides and isolates, which
 * reorder what follows them on the line */
static int unsafe_cp(unsigned c) {
  return (c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

/* s as the text and Markdown reports and stderr show it: control
 * characters (C0, DEL, C1), bidirectional controls, U+FFFE and U+FFFF and
 * bytes that are not UTF-8 as visible escapes (\x1b, \u202e), a backslash
 * doubled so that an escape is never a name's own text.  Names and paths
 * come from the files compared: raw, an escape sequence in a dataset name
 * would reach the terminal.  The result lives until eight more calls. */
static const char* shown(const char* s) {
  static char* ring[8];
  static int next;
  size_t need = 1;
  const unsigned char* u = (const unsigned char*)s;
  for (; *u; u++) need += 8; /* per byte: more than any escape takes */
  char* b = malloc(need);
  if (!b) oom();
  free(ring[next]);
  ring[next] = b;
  next = (next + 1) % 8;
  size_t k = 0;
  for (u = (const unsigned char*)s; *u;) {
    const int n = utf8_len(u);
    const unsigned c = n ? utf8_cp(u, n) : 0;
    if (n == 0 || c < 0x20 || c == 0x7F) {
      k += (size_t)snprintf(b + k, need - k, "\\x%02x", *u);
      u++;
    } else if (unsafe_cp(c) || c == 0xFFFE || c == 0xFFFF) {
      k += (size_t)snprintf(b + k, need - k, "\\u%04x", c);
      u += n;
    } else if (c == '\\') {
      b[k++] = '\\';
      b[k++] = '\\';
      u++;
    } else {
      memcpy(b + k, u, (size_t)n);
      k += (size_t)n;
      u += n;
    }
  }
  b[k] = '\0';
  return b;
}

static char* xstrdup(const char* s) {
  size_t n = strlen(s) + 1;
  char* p = malloc(n);
  if (!p) oom();
  memcpy(p, s, n);
  return p;
}

/* datasets (or groups, by prefix) each simc format_version added; a file of
 * an earlier version lacks them by construction */
static const struct {
  const char* prefix;
  int version;
} added_in[] = {
    {"/body/", 2},
    {"/model/body_parent", 2},
    {"/model/geometry/", 2},
    {"/energy/damper", 3},
    {"/energy/contact_normal", 3},
    {"/energy/contact_friction", 3},
    {"/contact/max_penetration", 3}, /* and max_penetration_fraction */
    {"/solver/relinearizations", 3},
    {"/solver/signorini", 4},
    {"/solver/dissipation_gap", 4},
    {"/solver/coulomb_residual", 4},
    {"/model/springs/", 4},
};

/* the format_version that added path (0: present since version 1) */
static int version_added(const char* path) {
  for (size_t i = 0; i < sizeof added_in / sizeof added_in[0]; i++)
    if (!strncmp(path, added_in[i].prefix, strlen(added_in[i].prefix))) return added_in[i].version;
  return 0;
}

typedef struct item {
  char* path;
  int required; /* named in --fields: missing from one file is a difference */
} item;

typedef struct list {
  item* it;
  int n, cap;
} list;

static int list_has(const list* l, const char* path) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->it[i].path, path)) return 1;
  return 0;
}

static void list_add(list* l, const char* path, int required) {
  if (list_has(l, path)) return;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->it = realloc(l->it, sizeof *l->it * (size_t)l->cap);
    if (!l->it) oom();
  }
  l->it[l->n].path = xstrdup(path);
  l->it[l->n].required = required;
  l->n++;
}

static void list_free(list* l) {
  for (int i = 0; i < l->n; i++) free(l->it[i].path);
  free(l->it);
  l->it = NULL;
  l->n = l->cap = 0;
}

static int cmp_item(const void* a, const void* b) {
  return strcmp(((const item*)a)->path, ((const item*)b)->path);
}

static int parse_tol(const char* opt, const char* s, double* out) {
  char* end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno || !(v >= 0) || isinf(v)) {
    fprintf(stderr, "h5compare: %s expects a non-negative number, got '%s'\n", opt, s);
    return 0;
  }
  *out = v;
  return 1;
}

/* ---- per-dataset tolerances (--tol PATTERN=RTOL[,ATOL]) ---- */

typedef struct tol_rule {
  char* arg; /* as given, for the report */
  char* pat; /* normalized: leading '/', no trailing '/' */
  double rtol, atol;
  int has_rtol, has_atol;
  int used; /* matched a compared dataset */
} tol_rule;

/* one tolerance component of --tol: empty keeps the default */
static int parse_tol_part(const char* arg, const char* s, size_t n, double* out, int* has) {
  *has = 0;
  if (n == 0) return 1;
  char buf[128];
  if (n >= sizeof buf) {
    fprintf(stderr, "h5compare: --tol '%s': value too long\n", arg);
    return 0;
  }
  memcpy(buf, s, n);
  buf[n] = '\0';
  char* end = NULL;
  errno = 0;
  double v = strtod(buf, &end);
  if (*end || errno || !(v >= 0) || isinf(v)) {
    fprintf(stderr, "h5compare: --tol '%s': '%s' is not a non-negative number\n", arg, buf);
    return 0;
  }
  *out = v;
  *has = 1;
  return 1;
}

static int parse_tol_rule(const char* arg, tol_rule* t) {
  memset(t, 0, sizeof *t);
  const char* eq = strrchr(arg, '=');
  if (!eq || eq == arg) {
    fprintf(stderr, "h5compare: --tol expects PATTERN=RTOL[,ATOL], got '%s'\n", arg);
    return 0;
  }
  const char* v = eq + 1;
  const char* comma = strchr(v, ',');
  size_t nr = comma ? (size_t)(comma - v) : strlen(v);
  if (!parse_tol_part(arg, v, nr, &t->rtol, &t->has_rtol)) return 0;
  if (comma && !parse_tol_part(arg, comma + 1, strlen(comma + 1), &t->atol, &t->has_atol))
    return 0;
  if (!t->has_rtol && !t->has_atol) {
    fprintf(stderr, "h5compare: --tol '%s' gives neither RTOL nor ATOL\n", arg);
    return 0;
  }
  size_t np = (size_t)(eq - arg);
  int slash = arg[0] != '/' && arg[0] != '*';
  t->pat = malloc(np + 2);
  if (!t->pat) oom();
  snprintf(t->pat, np + 2, "%s%.*s", slash ? "/" : "", (int)np, arg);
  size_t k = strlen(t->pat);
  while (k > 1 && t->pat[k - 1] == '/') t->pat[--k] = '\0';
  t->arg = xstrdup(arg);
  return 1;
}

/* pattern matches path, or the path of a group holding it */
static int tol_matches(const char* pat, const char* path) {
  if (!fnmatch(pat, path, 0)) return 1;
  char* p = xstrdup(path);
  int hit = 0;
  for (size_t k = strlen(p); k-- > 1 && !hit;)
    if (p[k] == '/') {
      p[k] = '\0';
      hit = !fnmatch(pat, p, 0);
    }
  free(p);
  return hit;
}

/* the tolerances of path: the global ones, overridden by every matching rule
 * in order */
static void tol_for(tol_rule* rules, int nrules, const char* path, double rtol0, double atol0,
                    double* rtol, double* atol) {
  *rtol = rtol0;
  *atol = atol0;
  for (int i = 0; i < nrules; i++)
    if (tol_matches(rules[i].pat, path)) {
      rules[i].used = 1;
      if (rules[i].has_rtol) *rtol = rules[i].rtol;
      if (rules[i].has_atol) *atol = rules[i].atol;
    }
}

/* numeric datasets of r under prefix ("/energy/"; "/" = all) into l */
static int add_under(list* l, const sc_h5r* r, const char* prefix, int required, int skip_wall) {
  int added = 0;
  size_t np = strlen(prefix);
  for (int i = 0; i < sc_h5r_ndatasets(r); i++) {
    const sc_h5r_dataset* d = sc_h5r_dataset_at(r, i);
    if (!d->numeric || strncmp(d->path, prefix, np)) continue;
    if (skip_wall && !strcmp(d->path, "/solver/wall_time")) continue;
    list_add(l, d->path, required);
    added++;
  }
  return added;
}

/* expand one --fields entry; 0 when it names nothing in either file */
static int add_field(list* l, const sc_h5r* a, const sc_h5r* b, const char* tok) {
  char path[512];
  snprintf(path, sizeof path, "%s%s", tok[0] == '/' ? "" : "/", tok);
  size_t n = strlen(path);
  while (n > 1 && path[n - 1] == '/') path[--n] = '\0';
  int ia = sc_h5r_find(a, path), ib = sc_h5r_find(b, path);
  if (ia >= 0 || ib >= 0) {
    const sc_h5r_dataset* d = ia >= 0 ? sc_h5r_dataset_at(a, ia) : sc_h5r_dataset_at(b, ib);
    if (!d->numeric) {
      fprintf(stderr, "h5compare: --fields: %s is not a numeric dataset\n", shown(path));
      return 0;
    }
    list_add(l, path, 1);
    return 1;
  }
  if (sc_h5r_is_group(a, path) || sc_h5r_is_group(b, path)) {
    char prefix[520];
    snprintf(prefix, sizeof prefix, "%s/", strcmp(path, "/") ? path : "");
    int k = add_under(l, a, prefix, 1, 0) + add_under(l, b, prefix, 1, 0);
    if (k == 0) fprintf(stderr, "h5compare: --fields: group %s has no numeric datasets\n", shown(path));
    return k > 0;
  }
  fprintf(stderr, "h5compare: --fields: no dataset or group '%s' in either file\n", shown(tok));
  return 0;
}

static void shape_str(const sc_h5r_dataset* d, char* buf, size_t n) {
  if (d->rank == 0) {
    snprintf(buf, n, "scalar");
    return;
  }
  size_t k = 0;
  for (int i = 0; i < d->rank && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? "x" : "", d->dims[i]);
}

static int same_shape(const sc_h5r_dataset* x, const sc_h5r_dataset* y) {
  if (x->rank != y->rank) return 0;
  for (int i = 0; i < x->rank; i++)
    if (x->dims[i] != y->dims[i]) return 0;
  return 1;
}

/* same shape but for the row count: compared over the common rows */
static int same_row_shape(const sc_h5r_dataset* x, const sc_h5r_dataset* y) {
  if (x->rank != y->rank || x->rank < 1) return 0;
  for (int i = 1; i < x->rank; i++)
    if (x->dims[i] != y->dims[i]) return 0;
  return 1;
}

/* step owning contact row `row`, from a file's /contact/start (-1 if unknown) */
static long long contact_step(const double* start, long long nstart, long long row) {
  if (!start || nstart == 0) return -1;
  long long lo = 0, hi = nstart - 1; /* last k with start[k] <= row */
  if (start[0] > (double)row) return -1;
  while (lo < hi) {
    long long mid = (lo + hi + 1) / 2;
    if (start[mid] <= (double)row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* whole numeric dataset `path` of r (NULL when absent, not numeric, or on
 * error); *nrows and *rowlen receive its shape */
static double* read_all(const sc_h5r* r, const char* path, long long* nrows, long long* rowlen) {
  int i = sc_h5r_find(r, path);
  if (i < 0) return NULL;
  const sc_h5r_dataset* d = sc_h5r_dataset_at(r, i);
  if (!d->numeric) return NULL;
  size_t n = (size_t)(d->nrows * d->rowlen);
  double* x = malloc(sizeof(double) * (n ? n : 1));
  sc_error err;
  if (!x || (n && sc_h5r_read_rows(r, i, 0, d->nrows, x, &err) != SC_OK)) {
    free(x);
    return NULL;
  }
  *nrows = d->nrows;
  *rowlen = d->rowlen;
  return x;
}

/* a one-dimensional numeric dataset (/time, /contact/start) whole, or NULL */
static double* read_vector(const sc_h5r* r, const char* path, long long* n) {
  int i = sc_h5r_find(r, path);
  *n = 0;
  if (i < 0 || sc_h5r_dataset_at(r, i)->rank != 1) return NULL;
  long long rl;
  double* x = read_all(r, path, n, &rl);
  if (!x) *n = 0;
  return x;
}

/* per-contact datasets: one row per contact, indexed through /contact/start */
static int per_contact(const char* p) {
  return !strncmp(p, "/contact/", 9) && strcmp(p, "/contact/count") && strcmp(p, "/contact/start");
}

/* ---- column names: the string datasets /model/..._names ---- */

enum { N_Q, N_V, N_BODY, N_ACT, N_JNT, N_KINDS };
static const char* const names_path[N_KINDS] = {"/model/q_names", "/model/v_names",
                                                "/model/body_names", "/model/actuator_names",
                                                "/model/joint_names"};

typedef struct names {
  char** s;
  int n;
} names;

/* the strings of the one-dimensional string dataset dpath of file (variable
 * or fixed length); none (n = 0) when absent, of another type or unreadable */
static void read_names(const char* file, const char* dpath, names* out) {
  out->s = NULL;
  out->n = 0;
  char** got = NULL;
  const int n = sc_h5_read_names(file, dpath, &got);
  if (n < 0) oom();
  out->s = got;
  out->n = n;
}

static void names_free(names* nm) {
  for (int i = 0; i < nm->n; i++) free(nm->s[i]);
  free(nm->s);
  nm->s = NULL;
  nm->n = 0;
}

/* the name of column col of dataset path (shape d), or 0 when unknown:
 * /q by q_names; /v and /joint/friction_force by v_names; /actuator/... by
 * actuator_names; /joint/limit_force by joint_names; /body/position and
 * /body/orientation by body name and component; the per-contact vectors by
 * component */
static int column_name(const names* nm, const char* path, const sc_h5r_dataset* d, long long col,
                       char* buf, size_t n) {
  int kind = -1;
  if (!strcmp(path, "/q")) kind = N_Q;
  else if (!strcmp(path, "/v") || !strcmp(path, "/joint/friction_force")) kind = N_V;
  else if (!strncmp(path, "/actuator/", 10)) kind = N_ACT;
  else if (!strcmp(path, "/joint/limit_force")) kind = N_JNT;
  if (kind >= 0) {
    if (d->rank != 2 || d->dims[1] != nm[kind].n || col >= nm[kind].n) return 0;
    snprintf(buf, n, "%s", nm[kind].s[col]);
    return 1;
  }
  static const char* const xyz[] = {"x", "y", "z"};
  static const char* const wxyz[] = {"w", "x", "y", "z"};
  static const char* const tn[] = {"t1", "t2", "n"};
  int pos = !strcmp(path, "/body/position"), quat = !strcmp(path, "/body/orientation");
  if (pos || quat) {
    long long k = pos ? 3 : 4;
    if (d->rank != 3 || d->dims[2] != k || d->dims[1] != nm[N_BODY].n) return 0;
    snprintf(buf, n, "%s.%s", nm[N_BODY].s[col / k], pos ? xyz[col % k] : wxyz[col % k]);
    return 1;
  }
  int vec = !strcmp(path, "/contact/point") || !strcmp(path, "/contact/normal");
  if ((vec || !strcmp(path, "/contact/impulse")) && d->rank == 2 && d->dims[1] == 3) {
    snprintf(buf, n, "%s", vec ? xyz[col] : tn[col]);
    return 1;
  }
  return 0;
}

/* ---- contact matching ---- */

/* --match-contacts: perm[row of B] = matched row of A.  Within each step
 * (of the steps both files have) whose contact count agrees, every row of B
 * (in order) takes the unmatched row of A with the same body pair and the
 * nearest point (the first of equally near ones); rows without such a
 * partner, and steps whose counts differ, keep their own index, so their
 * values are compared as they are.  Returns the permutation (NULL when the
 * files lack the contact datasets or they are inconsistent), its length
 * (B's contact rows) and counts the rows that moved. */
static long long* match_contacts(const sc_h5r* a, const sc_h5r* b, long long* nperm,
                                 long long* nmoved, long long* nsteps_moved) {
  static const char* names5[5] = {"/contact/start", "/contact/count", "/contact/body_a",
                                  "/contact/body_b", "/contact/point"};
  double* x[2][5] = {{NULL}};
  long long nr[2][5], rl[2][5];
  long long* perm = NULL;
  int ok = 1;
  for (int f = 0; f < 2; f++)
    for (int k = 0; k < 5; k++) {
      x[f][k] = read_all(f ? b : a, names5[k], &nr[f][k], &rl[f][k]);
      if (!x[f][k]) ok = 0;
    }
  for (int f = 0; ok && f < 2; f++)
    if (rl[f][4] != 3 || rl[f][0] != 1 || rl[f][1] != 1 || rl[f][2] != 1 || rl[f][3] != 1 ||
        nr[f][0] != nr[f][1] || nr[f][2] != nr[f][4] || nr[f][3] != nr[f][4])
      ok = 0;
  long long ma = ok ? nr[0][4] : 0, mb = ok ? nr[1][4] : 0;
  long long nsteps = ok ? (nr[0][0] < nr[1][0] ? nr[0][0] : nr[1][0]) : 0;
  if (ok) perm = malloc(sizeof(long long) * (size_t)(mb ? mb : 1));
  char* used = ok ? calloc((size_t)(ma ? ma : 1), 1) : NULL;
  *nmoved = *nsteps_moved = 0;
  *nperm = 0;
  if (perm && used) {
    *nperm = mb;
    for (long long i = 0; i < mb; i++) perm[i] = i;
    for (long long s = 0; s < nsteps; s++) {
      long long sa = (long long)x[0][0][s], sb = (long long)x[1][0][s];
      long long ca = (long long)x[0][1][s], cb = (long long)x[1][1][s];
      if (ca != cb || ca <= 0 || sa < 0 || sb < 0 || sa + ca > ma || sb + cb > mb) continue;
      long long moved = 0;
      for (long long i = sb; i < sb + cb; i++) {
        long long best = -1;
        double bd = INFINITY;
        for (long long j = sa; j < sa + ca; j++) {
          if (used[j] || x[0][2][j] != x[1][2][i] || x[0][3][j] != x[1][3][i]) continue;
          double d = 0;
          for (int c = 0; c < 3; c++) {
            double e = x[0][4][3 * j + c] - x[1][4][3 * i + c];
            d += e * e;
          }
          if (best < 0 || d < bd) {
            best = j;
            bd = d;
          }
        }
        if (best < 0) continue;
        used[best] = 1;
        perm[i] = best;
        if (best - sa != i - sb) moved++;
      }
      *nmoved += moved;
      *nsteps_moved += moved > 0;
    }
  } else {
    free(perm);
    perm = NULL;
  }
  free(used);
  for (int f = 0; f < 2; f++)
    for (int k = 0; k < 5; k++) free(x[f][k]);
  return perm;
}

/* ---- results ---- */

enum { R_OK, R_DIFF, R_SKIPPED };

typedef struct elem {
  int set;
  long long row, col;
  double a, b, ad, excess;
} elem;

typedef struct result {
  const char* path;
  int kind;           /* R_OK, R_DIFF, R_SKIPPED */
  char status[64];    /* the text table's result column */
  char shape_a[64];   /* "" when absent from A */
  char shape_b[64];
  const sc_h5r_dataset *da, *db;
  double rtol, atol;
  int values;         /* values were compared (max_abs etc. are meaningful) */
  double maxabs, maxrel;
  long long nrows_a, nrows_b, ncompared_rows, ndiff_values, nvalues, nnan;
  int length_diff;    /* row counts differ (compared over the common rows) */
  elem first, worst;  /* the first element that differs; the largest excess */
  int per_step, per_contact;
  long long order;    /* step of the first difference; -1: not per step */
  char where_first[256], where_worst[256], detail[1024];
} result;

typedef struct ctx {
  const char* files[2];
  double rtol, atol;
  tol_rule* rules;
  int nrules;
  int allow_length, match;
  long long nmoved, nsteps_moved;
  double* time[2];
  long long ntime[2];
  double* cstart[2];
  long long ncstart[2];
  names nm[N_KINDS];
  char notes[2][512];
  int nnotes;
} ctx;

/* time at row of a per-step dataset: A's /time, else B's; 0 when unknown */
static int time_at(const ctx* c, long long row, double* t) {
  for (int f = 0; f < 2; f++)
    if (c->time[f] && row >= 0 && row < c->ntime[f]) {
      *t = c->time[f][row];
      return 1;
    }
  return 0;
}

/* the step of a row of dataset res (-1 when not per step or unknown); f: the
 * file whose /contact/start maps per-contact rows */
static long long step_of(const ctx* c, const result* res, long long row, int f) {
  if (res->per_contact) return contact_step(c->cstart[f], c->ncstart[f], row);
  if (res->per_step) return row;
  return -1;
}

/* "row 17 (t = 0.017 s) column lower.angle" */
static void where_str(const ctx* c, const result* res, long long row, long long col, int file,
                      char* buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "row %lld", row);
  double t;
  long long step = step_of(c, res, row, file);
  if (k < n && step >= 0 && time_at(c, step, &t)) {
    if (res->per_contact) k += (size_t)snprintf(buf + k, n - k, " (step %lld, t = %.9g s)", step, t);
    else k += (size_t)snprintf(buf + k, n - k, " (t = %.9g s)", t);
  } else if (k < n && res->per_contact && step >= 0) {
    k += (size_t)snprintf(buf + k, n - k, " (step %lld)", step);
  }
  const sc_h5r_dataset* d = res->db ? res->db : res->da;
  if (k < n && col >= 0 && d && (d->rank > 1)) {
    char name[200];
    if (column_name(c->nm, res->path, d, col, name, sizeof name))
      snprintf(buf + k, n - k, " column %s", name);
    else
      snprintf(buf + k, n - k, " column %lld", col);
  }
}

static void tol_str(double atol, double rtol, char* buf, size_t n) {
  snprintf(buf, n, "%g + %g*|b|", atol, rtol);
}

/* fill the text of a result after the comparison: where_*, detail, order */
static void finish(const ctx* c, result* r) {
  char tol[96];
  tol_str(r->atol, r->rtol, tol, sizeof tol);
  int own_tol = r->atol != c->atol || r->rtol != c->rtol;
  r->order = -1;
  r->detail[0] = '\0';
  if (r->first.set) where_str(c, r, r->first.row, r->first.col, 0, r->where_first, sizeof r->where_first);
  if (r->worst.set) where_str(c, r, r->worst.row, r->worst.col, 0, r->where_worst, sizeof r->where_worst);
  if (r->kind != R_DIFF && !r->length_diff) return;
  size_t k = 0, n = sizeof r->detail;
  if (!r->values) {
    if (!r->shape_a[0] || !r->shape_b[0])
      snprintf(r->detail, n, "in %s only", r->shape_a[0] ? "A" : "B");
    else if (!r->da->numeric || !r->db->numeric)
      snprintf(r->detail, n, "numeric in %s only", r->da->numeric ? "A" : "B");
    else
      snprintf(r->detail, n, "shapes differ: A %s, B %s", r->shape_a, r->shape_b);
    return;
  }
  if (r->first.set) {
    r->order = step_of(c, r, r->first.row, 0);
    const elem* w = &r->worst;
    int same = w->set && r->first.row == w->row && r->first.col == w->col;
    k += (size_t)snprintf(r->detail + k, n - k, "first %s", r->where_first);
    if (k < n && same)
      k += (size_t)snprintf(r->detail + k, n - k, ", also the worst");
    else if (k < n && w->set)
      k += (size_t)snprintf(r->detail + k, n - k, "; worst %s", r->where_worst);
    if (k < n && w->set)
      k += (size_t)snprintf(r->detail + k, n - k, ": a = %.17g, b = %.17g, |a-b| = %.3e, excess %.3g",
                            w->a, w->b, w->ad, w->excess);
    if (k < n)
      k += (size_t)snprintf(r->detail + k, n - k, "; %lld of %lld values differ", r->ndiff_values,
                            r->nvalues);
    if (k < n && r->nnan) k += (size_t)snprintf(r->detail + k, n - k, ", %lld NaN", r->nnan);
    if (k < n && own_tol) k += (size_t)snprintf(r->detail + k, n - k, " (tolerance %s)", tol);
  }
  if (r->length_diff && k < n) {
    long long m = r->ncompared_rows, mx = r->nrows_a > r->nrows_b ? r->nrows_a : r->nrows_b;
    char span[160], t[96] = "";
    double t0, t1;
    int one = mx - 1 == m;
    if (r->per_step && time_at(c, m, &t0) && time_at(c, mx - 1, &t1)) {
      if (one) snprintf(t, sizeof t, " (t = %.9g s)", t0);
      else snprintf(t, sizeof t, " (t = %.9g s to %.9g s)", t0, t1);
    }
    if (one) snprintf(span, sizeof span, "row %lld%s is", m, t);
    else snprintf(span, sizeof span, "rows %lld-%lld%s are", m, mx - 1, t);
    snprintf(r->detail + k, n - k, "%sA has %lld rows, B %lld: %s in %s only%s, the first %lld compared",
             k ? "; " : "", r->nrows_a, r->nrows_b, span, r->nrows_a > r->nrows_b ? "A" : "B",
             c->allow_length ? " (allowed)" : "", m);
    if (!r->first.set && !c->allow_length)
      r->order = step_of(c, r, m, r->nrows_a > r->nrows_b ? 0 : 1);
  }
}

/* compare dataset (r->path); 0 on an I/O error */
static int compare_values(const sc_h5r* ra, const sc_h5r* rb, int ia, int ib,
                          const long long* perm, long long nperm, double* va, double* vb,
                          result* r) {
  const sc_h5r_dataset *da = r->da, *db = r->db;
  const char* p = r->path;
  long long rowlen = da->rowlen;
  long long nrows = da->nrows < db->nrows ? da->nrows : db->nrows;
  r->ncompared_rows = nrows;
  r->nvalues = nrows * rowlen;
  long long rows_per_block = rowlen > 0 ? BLOCK_VALUES / rowlen : nrows;
  if (rows_per_block < 1) rows_per_block = 1;
  double* ba = va;
  double* bb = vb;
  int big = rowlen > BLOCK_VALUES; /* one row does not fit a block */
  if (big) {
    ba = malloc(sizeof(double) * (size_t)rowlen);
    bb = malloc(sizeof(double) * (size_t)rowlen);
    if (!ba || !bb) oom();
  }
  /* matched contact rows: A is read whole and gathered through perm */
  double* whole = NULL;
  long long wn = 0, wl = 0;
  int ok = 1;
  if (perm && per_contact(p)) {
    whole = read_all(ra, p, &wn, &wl);
    if (!whole) {
      fprintf(stderr, "h5compare: cannot read %s\n", shown(p));
      ok = 0;
    }
  }
  const double rtol = r->rtol, atol = r->atol;
  for (long long r0 = 0; ok && rowlen > 0 && r0 < nrows; r0 += rows_per_block) {
    long long nr = nrows - r0 < rows_per_block ? nrows - r0 : rows_per_block;
    sc_error err;
    sc_error_clear(&err);
    if (whole)
      for (long long j = 0; j < nr; j++) {
        long long src = r0 + j; /* < nrows <= wn */
        if (src < nperm && perm[src] < wn) src = perm[src];
        memcpy(ba + j * rowlen, whole + src * rowlen, sizeof(double) * (size_t)rowlen);
      }
    if ((!whole && sc_h5r_read_rows(ra, ia, r0, nr, ba, &err) != SC_OK) ||
        sc_h5r_read_rows(rb, ib, r0, nr, bb, &err) != SC_OK) {
      char buf[1200];
      sc_error_format(&err, buf, sizeof buf);
      fprintf(stderr, "h5compare: %s\n", shown(buf));
      ok = 0;
      break;
    }
    for (long long k = 0; k < nr * rowlen; k++) {
      double x = ba[k], y = bb[k];
      double ad, rd, ex;
      int bad;
      if (isnan(x) || isnan(y)) {
        ad = rd = ex = (double)INFINITY;
        r->nnan++;
        bad = 1;
      } else if (x == y) {
        ad = rd = ex = 0.0; /* also equal infinities */
        bad = 0;
      } else {
        ad = fabs(x - y);
        double den = atol + rtol * fabs(y);
        if (isinf(ad)) { /* an infinity against another value */
          rd = ex = (double)INFINITY;
          bad = 1;
        } else {
          rd = y != 0 ? ad / fabs(y) : (double)INFINITY;
          ex = den > 0 ? ad / den : (double)INFINITY;
          bad = ad > den;
        }
      }
      if (ad > r->maxabs) r->maxabs = ad;
      if (rd > r->maxrel) r->maxrel = rd;
      if (bad) {
        r->ndiff_values++;
        if (!r->first.set)
          r->first = (elem){1, r0 + k / rowlen, k % rowlen, x, y, ad, ex};
      }
      if (ad > 0 && (!r->worst.set || ex > r->worst.excess ||
                     (ex == r->worst.excess && ad > r->worst.ad)))
        r->worst = (elem){1, r0 + k / rowlen, k % rowlen, x, y, ad, ex};
    }
  }
  if (big) {
    free(ba);
    free(bb);
  }
  free(whole);
  return ok;
}

/* ---- machine-readable reports ---- */

/* s as XML character data or attribute value: markup escaped, characters
 * XML 1.0 does not allow (control characters, U+FFFE, U+FFFF, invalid
 * UTF-8) as U+FFFD, those a terminal acts on (C1 and bidirectional
 * controls) as character references */
static void xml_put(FILE* f, const char* s) {
  const unsigned char* u = (const unsigned char*)s;
  while (*u) {
    int n = utf8_len(u);
    if (n == 0) {
      fputs("\xEF\xBF\xBD", f);
      u++;
      continue;
    }
    if (n > 1) {
      const unsigned c = utf8_cp(u, n);
      if (c == 0xFFFE || c == 0xFFFF) fputs("\xEF\xBF\xBD", f);
      else if (unsafe_cp(c)) fprintf(f, "&#x%X;", c);
      else fwrite(u, 1, (size_t)n, f);
      u += n;
      continue;
    }
    switch (*u) {
      case '&': fputs("&amp;", f); break;
      case '<': fputs("&lt;", f); break;
      case '>': fputs("&gt;", f); break;
      case '"': fputs("&quot;", f); break;
      case '\'': fputs("&apos;", f); break;
      case '\n': fputs("&#10;", f); break;
      case '\t': fputs("&#9;", f); break;
      case '\r': fputs("&#13;", f); break;
      default:
        if (*u < 0x20 || *u == 0x7F) fputs("\xEF\xBF\xBD", f);
        else fputc(*u, f);
    }
    u++;
  }
}

/* s as a JSON string (quoted); invalid UTF-8 as U+FFFD */
static void json_str(FILE* f, const char* s) {
  if (!s) {
    fputs("null", f);
    return;
  }
  const unsigned char* u = (const unsigned char*)s;
  fputc('"', f);
  while (*u) {
    int n = utf8_len(u);
    if (n == 0) {
      fputs("\\ufffd", f);
      u++;
    } else if (n > 1) {
      /* the same characters, escaped: a terminal showing the report acts on them raw */
      const unsigned c = utf8_cp(u, n);
      if (unsafe_cp(c) || c == 0xFFFE || c == 0xFFFF) fprintf(f, "\\u%04x", c);
      else fwrite(u, 1, (size_t)n, f);
      u += n;
    } else {
      if (*u == '"' || *u == '\\') fprintf(f, "\\%c", *u);
      else if (*u == '\n') fputs("\\n", f);
      else if (*u == '\t') fputs("\\t", f);
      else if (*u < 0x20 || *u == 0x7F) fprintf(f, "\\u%04x", *u);
      else fputc(*u, f);
      u++;
    }
  }
  fputc('"', f);
}

/* a JSON number; null for infinities and NaN, which JSON cannot hold */
static void json_num(FILE* f, double x) {
  if (!isfinite(x)) {
    fputs("null", f);
    return;
  }
  char buf[40];
  for (int prec = 15; prec <= 17; prec++) { /* the shortest that reads back the same */
    snprintf(buf, sizeof buf, "%.*g", prec, x);
    if (strtod(buf, NULL) == x) break;
  }
  fputs(buf, f);
}

static void json_shape(FILE* f, const sc_h5r_dataset* d) {
  if (!d) {
    fputs("null", f);
    return;
  }
  fputc('[', f);
  for (int i = 0; i < d->rank; i++) fprintf(f, "%s%lld", i ? ", " : "", d->dims[i]);
  fputc(']', f);
}

static void json_elem(FILE* f, const ctx* c, const result* r, const elem* e) {
  if (!e->set) {
    fputs("null", f);
    return;
  }
  const sc_h5r_dataset* d = r->db ? r->db : r->da;
  char name[200];
  int named = d && d->rank > 1 && column_name(c->nm, r->path, d, e->col, name, sizeof name);
  double t;
  long long step = step_of(c, r, e->row, 0);
  fprintf(f, "{\"row\": %lld, \"column\": %lld, \"name\": ", e->row, e->col);
  json_str(f, named ? name : NULL);
  fputs(", \"step\": ", f);
  if (step >= 0) fprintf(f, "%lld", step);
  else fputs("null", f);
  fputs(", \"time\": ", f);
  if (step >= 0 && time_at(c, step, &t)) json_num(f, t);
  else fputs("null", f);
  fputs(", \"a\": ", f);
  json_num(f, e->a);
  fputs(", \"b\": ", f);
  json_num(f, e->b);
  fputs(", \"abs\": ", f);
  json_num(f, e->ad);
  fputs(", \"excess\": ", f);
  json_num(f, e->excess);
  fputc('}', f);
}

static const char* kind_name(int kind) {
  return kind == R_DIFF ? "differ" : kind == R_SKIPPED ? "skipped" : "ok";
}

static void write_json(FILE* f, const ctx* c, const result* res, int n, int ncompared, int ndiff,
                       int ifirst) {
  fputs("{\n  \"a\": ", f);
  json_str(f, c->files[0]);
  fputs(",\n  \"b\": ", f);
  json_str(f, c->files[1]);
  fputs(",\n  \"rtol\": ", f);
  json_num(f, c->rtol);
  fputs(",\n  \"atol\": ", f);
  json_num(f, c->atol);
  fputs(",\n  \"test\": \"differ when |a-b| > atol + rtol*|b|\",\n  \"tol\": [", f);
  for (int i = 0; i < c->nrules; i++) {
    fputs(i ? ", " : "", f);
    fputs("{\"pattern\": ", f);
    json_str(f, c->rules[i].pat);
    fputs(", \"rtol\": ", f);
    if (c->rules[i].has_rtol) json_num(f, c->rules[i].rtol);
    else fputs("null", f);
    fputs(", \"atol\": ", f);
    if (c->rules[i].has_atol) json_num(f, c->rules[i].atol);
    else fputs("null", f);
    fputc('}', f);
  }
  fprintf(f, "],\n  \"allow_length_difference\": %s,\n  \"match_contacts\": %s,\n",
          c->allow_length ? "true" : "false", c->match ? "true" : "false");
  fputs("  \"notes\": [", f);
  for (int i = 0; i < c->nnotes; i++) {
    fputs(i ? ", " : "", f);
    json_str(f, c->notes[i]);
  }
  fprintf(f, "],\n  \"compared\": %d,\n  \"differ\": %d,\n  \"result\": \"%s\",\n", ncompared,
          ndiff, ndiff ? "differ" : "ok");
  fputs("  \"first_difference\": ", f);
  if (ifirst >= 0) {
    const result* r = &res[ifirst];
    fputs("{\"path\": ", f);
    json_str(f, r->path);
    fputs(", \"element\": ", f);
    json_elem(f, c, r, &r->first);
    fputs(", \"message\": ", f);
    json_str(f, r->detail);
    fputc('}', f);
  } else {
    fputs("null", f);
  }
  fputs(",\n  \"datasets\": [", f);
  for (int i = 0; i < n; i++) {
    const result* r = &res[i];
    fputs(i ? ",\n    {" : "\n    {", f);
    fputs("\"path\": ", f);
    json_str(f, r->path);
    fputs(", \"shape_a\": ", f);
    json_shape(f, r->shape_a[0] ? r->da : NULL);
    fputs(", \"shape_b\": ", f);
    json_shape(f, r->shape_b[0] ? r->db : NULL);
    fputs(", \"rtol\": ", f);
    json_num(f, r->rtol);
    fputs(", \"atol\": ", f);
    json_num(f, r->atol);
    fputs(",\n     \"max_abs\": ", f);
    if (r->values) json_num(f, r->maxabs);
    else fputs("null", f);
    fputs(", \"max_rel\": ", f);
    if (r->values) json_num(f, r->maxrel);
    else fputs("null", f);
    fputs(", \"max_excess\": ", f);
    if (r->values) json_num(f, r->worst.set ? r->worst.excess : 0.0);
    else fputs("null", f);
    if (r->values)
      fprintf(f, ", \"rows_compared\": %lld, \"values_differ\": %lld, \"nan\": %lld",
              r->ncompared_rows, r->ndiff_values, r->nnan);
    else
      fputs(", \"rows_compared\": null, \"values_differ\": null, \"nan\": null", f);
    fprintf(f, ", \"length_difference\": %lld",
            r->length_diff ? r->nrows_a - r->nrows_b : 0LL);
    fputs(",\n     \"first\": ", f);
    json_elem(f, c, r, &r->first);
    fputs(",\n     \"worst\": ", f);
    json_elem(f, c, r, &r->worst);
    fprintf(f, ",\n     \"result\": \"%s\", \"status\": ", kind_name(r->kind));
    json_str(f, r->status);
    fputs(", \"message\": ", f);
    json_str(f, r->detail[0] ? r->detail : NULL);
    fputc('}', f);
  }
  fputs("\n  ]\n}\n", f);
}

static void write_junit(FILE* f, const ctx* c, const result* res, int n, int ndiff) {
  int nskip = 0;
  for (int i = 0; i < n; i++) nskip += res[i].kind == R_SKIPPED;
  char suite[1200];
  snprintf(suite, sizeof suite, "h5compare %s %s", c->files[0], c->files[1]);
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"h5compare\"", f);
  fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", n, ndiff, nskip);
  fputs("  <testsuite name=\"", f);
  xml_put(f, suite);
  fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", n, ndiff, nskip);
  fputs("    <properties>\n", f);
  const char* keys[2] = {"a", "b"};
  for (int k = 0; k < 2; k++) {
    fprintf(f, "      <property name=\"%s\" value=\"", keys[k]);
    xml_put(f, c->files[k]);
    fputs("\"/>\n", f);
  }
  fprintf(f, "      <property name=\"rtol\" value=\"%g\"/>\n", c->rtol);
  fprintf(f, "      <property name=\"atol\" value=\"%g\"/>\n", c->atol);
  for (int i = 0; i < c->nrules; i++) {
    fputs("      <property name=\"tol\" value=\"", f);
    xml_put(f, c->rules[i].arg);
    fputs("\"/>\n", f);
  }
  for (int i = 0; i < c->nnotes; i++) {
    fputs("      <property name=\"note\" value=\"", f);
    xml_put(f, c->notes[i]);
    fputs("\"/>\n", f);
  }
  fputs("    </properties>\n", f);
  for (int i = 0; i < n; i++) {
    const result* r = &res[i];
    fputs("    <testcase classname=\"h5compare\" name=\"", f);
    xml_put(f, r->path);
    fputs("\"", f);
    if (r->kind == R_OK && !r->length_diff) {
      fputs("/>\n", f);
      continue;
    }
    fputs(">\n", f);
    /* the message: "/q: DIFF: first row ..." */
    const char* parts[4] = {r->path, ": ", r->status, r->detail[0] ? ": " : ""};
    if (r->kind == R_DIFF) {
      fputs("      <failure type=\"", f);
      xml_put(f, r->status);
      fputs("\" message=\"", f);
      for (int k = 0; k < 4; k++) xml_put(f, parts[k]);
      xml_put(f, r->detail);
      fputs("\">", f);
      char tol[96];
      tol_str(r->atol, r->rtol, tol, sizeof tol);
      fputs("A ", f);
      xml_put(f, r->shape_a[0] ? r->shape_a : "-");
      fputs(", B ", f);
      xml_put(f, r->shape_b[0] ? r->shape_b : "-");
      fputs("; differ when |a-b| &gt; ", f);
      xml_put(f, tol);
      if (r->values)
        fprintf(f, "; max |a-b| %.3e, max |a-b|/|b| %.3e", r->maxabs, r->maxrel);
      fputs("\n", f);
      for (int k = 0; k < 4; k++) xml_put(f, parts[k]);
      xml_put(f, r->detail);
      fputs("</failure>\n", f);
    } else {
      fputs(r->kind == R_SKIPPED ? "      <skipped message=\"" : "      <system-out>", f);
      for (int k = 0; k < 4; k++) xml_put(f, parts[k]);
      xml_put(f, r->detail);
      fputs(r->kind == R_SKIPPED ? "\"/>\n" : "</system-out>\n", f);
    }
    fputs("    </testcase>\n", f);
  }
  fputs("  </testsuite>\n</testsuites>\n", f);
}

/* s in a Markdown table cell: as shown(), then '|', '\' and the markup
 * characters escaped */
static void md_put(FILE* f, const char* s) {
  for (s = shown(s); *s; s++) {
    if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`' || *s == '<')
      fputc('\\', f);
    fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
  }
}

static void write_md(FILE* f, const ctx* c, const result* res, int n, int ncompared, int ndiff,
                     int ifirst) {
  fputs("## h5compare: ", f);
  md_put(f, c->files[0]);
  fputs(" against ", f);
  md_put(f, c->files[1]);
  fputs(" (reference)\n\n", f);
  fprintf(f, "An element differs when \\|a − b\\| > atol + rtol·\\|b\\|, with atol %g and rtol %g",
          c->atol, c->rtol);
  if (c->nrules) {
    fputs(" but for `--tol`", f);
    for (int i = 0; i < c->nrules; i++) {
      fputs(i ? ", " : " ", f);
      md_put(f, c->rules[i].arg);
    }
    fputs(" (later ones win)", f);
  }
  fputs("; excess = \\|a − b\\| / (atol + rtol·\\|b\\|), above 1 a difference.\n\n", f);
  for (int i = 0; i < c->nnotes; i++) {
    fputs("Note: ", f);
    md_put(f, c->notes[i]);
    fputs("\n\n", f);
  }
  fprintf(f, "**%d datasets compared, %d differ**", ncompared, ndiff);
  if (ifirst >= 0) {
    fputs(": the first difference is ", f);
    md_put(f, res[ifirst].path);
    if (res[ifirst].first.set) {
      fputs(" ", f);
      md_put(f, res[ifirst].where_first);
    } else {
      fputs(" (", f);
      md_put(f, res[ifirst].detail);
      fputs(")", f);
    }
  }
  fputs(".\n\n", f);
  fputs("| dataset | shape A | shape B | atol | rtol | max abs | max rel | max excess | first "
        "difference | worst element | result |\n",
        f);
  fputs("|---|---|---|---|---|---|---|---|---|---|---|\n", f);
  for (int i = 0; i < n; i++) {
    const result* r = &res[i];
    fputs("| ", f);
    md_put(f, r->path);
    fprintf(f, " | %s | %s | %g | %g | ", r->shape_a[0] ? r->shape_a : "-",
            r->shape_b[0] ? r->shape_b : "-", r->atol, r->rtol);
    if (r->values)
      fprintf(f, "%.3e | %.3e | %.3g | ", r->maxabs, r->maxrel, r->worst.set ? r->worst.excess : 0.0);
    else
      fputs("- | - | - | ", f);
    if (r->first.set) md_put(f, r->where_first);
    else fputs("-", f);
    fputs(" | ", f);
    if (r->worst.set) md_put(f, r->where_worst);
    else fputs("-", f);
    fputs(" | ", f);
    md_put(f, r->status);
    if (r->detail[0] && !r->first.set) {
      fputs(": ", f);
      md_put(f, r->detail);
    }
    fputs(" |\n", f);
  }
}

#define ROW_FMT "%-36s %-10s %11s %11s %18s  %s\n"

int main(int argc, char** argv) {
  /* static: what the options allocate stays reachable when a usage error
   * returns early (the leak checker of make debug) */
  static ctx c;
  memset(&c, 0, sizeof c);
  int nfiles = 0;
  c.rtol = 1e-9;
  c.atol = 1e-12;
  const char* fields = NULL;
  const char* report = NULL;
  const char* report_file = NULL;
  int nrules_cap = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* val = NULL;
    const char* opt = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--match-contacts")) {
      c.match = 1;
      continue;
    }
    if (!strcmp(a, "--allow-length-difference")) {
      c.allow_length = 1;
      continue;
    }
    static const char* opts[] = {"--rtol", "--atol", "--fields", "--tol", "--report",
                                 "--report-file"};
    for (int k = 0; k < (int)(sizeof opts / sizeof opts[0]); k++) {
      size_t n = strlen(opts[k]);
      if (!strncmp(a, opts[k], n) && (a[n] == '\0' || a[n] == '=')) {
        opt = opts[k];
        if (a[n] == '=') {
          val = a + n + 1;
        } else if (i + 1 < argc) {
          val = argv[++i];
        } else {
          fprintf(stderr, "h5compare: %s needs a value\n", opt);
          usage(stderr);
          return 2;
        }
        break;
      }
    }
    if (opt) {
      if (!strcmp(opt, "--rtol") && !parse_tol(opt, val, &c.rtol)) return 2;
      if (!strcmp(opt, "--atol") && !parse_tol(opt, val, &c.atol)) return 2;
      if (!strcmp(opt, "--fields")) fields = val;
      if (!strcmp(opt, "--report-file")) report_file = val;
      if (!strcmp(opt, "--report")) {
        if (strcmp(val, "junit") && strcmp(val, "json") && strcmp(val, "md")) {
          fprintf(stderr, "h5compare: --report expects junit, json or md, got '%s'\n", val);
          return 2;
        }
        report = val;
      }
      if (!strcmp(opt, "--tol")) {
        if (c.nrules == nrules_cap) {
          nrules_cap = nrules_cap ? 2 * nrules_cap : 8;
          c.rules = realloc(c.rules, sizeof *c.rules * (size_t)nrules_cap);
          if (!c.rules) oom();
        }
        if (!parse_tol_rule(val, &c.rules[c.nrules])) return 2;
        c.nrules++;
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr, "h5compare: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    } else if (nfiles < 2) {
      c.files[nfiles++] = a;
    } else {
      fprintf(stderr, "h5compare: too many arguments ('%s')\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (nfiles != 2) {
    usage(stderr);
    return 2;
  }
  if (report_file && !report) {
    fprintf(stderr, "h5compare: --report-file needs --report junit|json|md\n");
    return 2;
  }
  /* the text report on stdout, unless a report takes its place */
  const int text = !report || report_file;
  FILE* out = text ? stdout : NULL;

  sc_h5r* r[2] = {NULL, NULL};
  for (int k = 0; k < 2; k++) {
    sc_error err;
    sc_error_clear(&err);
    if (sc_h5r_open(c.files[k], &r[k], &err) != SC_OK) {
      char buf[1200];
      sc_error_format(&err, buf, sizeof buf);
      fprintf(stderr, "h5compare: %s\n", shown(buf)); /* it may name a dataset of the file */
      sc_h5r_close(r[0]);
      return 2;
    }
  }

  list l = {NULL, 0, 0};
  int status = 0;
  if (fields) {
    char* copy = xstrdup(fields);
    for (char* tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
      while (*tok == ' ') tok++;
      if (*tok && !add_field(&l, r[0], r[1], tok)) status = 2;
    }
    free(copy);
    if (l.n == 0 && status == 0) {
      fprintf(stderr, "h5compare: --fields names nothing\n");
      status = 2;
    }
  } else {
    add_under(&l, r[0], "/", 1, 1);
    add_under(&l, r[1], "/", 1, 1);
  }
  if (status == 2) {
    list_free(&l);
    sc_h5r_close(r[0]);
    sc_h5r_close(r[1]);
    return 2;
  }
  qsort(l.it, (size_t)l.n, sizeof *l.it, cmp_item);

  /* /time for the rows' times, /contact/start for the contact rows' steps,
   * /model/..._names (B's, else A's) for the columns' names */
  for (int f = 0; f < 2; f++) {
    c.time[f] = read_vector(r[f], "/time", &c.ntime[f]);
    c.cstart[f] = read_vector(r[f], "/contact/start", &c.ncstart[f]);
  }
  for (int k = 0; k < N_KINDS; k++) {
    read_names(c.files[1], names_path[k], &c.nm[k]);
    if (c.nm[k].n == 0) read_names(c.files[0], names_path[k], &c.nm[k]);
  }

  /* simc files of different format versions: the newer one's additions are
   * not differences */
  long long ver[2] = {0, 0};
  int have_ver = sc_h5r_attr_int(r[0], "format_version", &ver[0]) &&
                 sc_h5r_attr_int(r[1], "format_version", &ver[1]);

  long long* perm = NULL;
  long long nperm = 0;
  if (c.match) {
    perm = match_contacts(r[0], r[1], &nperm, &c.nmoved, &c.nsteps_moved);
    if (!perm) c.match = 0;
  }
  if (c.match)
    snprintf(c.notes[c.nnotes++], sizeof c.notes[0],
             "contact rows matched within each step by body pair and nearest point: "
             "%lld rows of A reordered in %lld steps",
             c.nmoved, c.nsteps_moved);
  if (have_ver && ver[0] != ver[1])
    snprintf(c.notes[c.nnotes++], sizeof c.notes[0],
             "A is simc format_version %lld, B is %lld: datasets added after version %lld "
             "are in %s only and are skipped, not compared",
             ver[0], ver[1], ver[0] < ver[1] ? ver[0] : ver[1], ver[0] < ver[1] ? "B" : "A");

  result* res = calloc((size_t)(l.n ? l.n : 1), sizeof *res);
  if (!res) oom();
  for (int i = 0; i < l.n; i++) {
    res[i].path = l.it[i].path;
    tol_for(c.rules, c.nrules, res[i].path, c.rtol, c.atol, &res[i].rtol, &res[i].atol);
  }
  for (int i = 0; i < c.nrules; i++)
    if (!c.rules[i].used)
      fprintf(stderr, "h5compare: note: --tol '%s' matches no dataset compared\n", shown(c.rules[i].arg));

  if (out) {
    fprintf(out, "A = %s\nB = %s (reference)\ndiffer when |a-b| > %g + %g*|b|\n", shown(c.files[0]),
            shown(c.files[1]), c.atol, c.rtol);
    for (int i = 0; i < l.n; i++)
      if (res[i].rtol != c.rtol || res[i].atol != c.atol)
        fprintf(out, "  %s (--tol): differ when |a-b| > %g + %g*|b|\n", shown(res[i].path), res[i].atol,
                res[i].rtol);
    if (c.match) fprintf(out, "%s\n", shown(c.notes[0]));
    if (have_ver && ver[0] != ver[1]) fprintf(out, "note: %s\n", shown(c.notes[c.nnotes - 1]));
    fprintf(out, "\n");
    fprintf(out, ROW_FMT, "dataset", "shape", "max abs", "max rel", "first diff row", "result");
  }
  double* va = malloc(sizeof(double) * BLOCK_VALUES);
  double* vb = malloc(sizeof(double) * BLOCK_VALUES);
  if (!va || !vb) oom();
  int ndiff = 0, ncompared = 0;
  for (int i = 0; i < l.n && status != 2; i++) {
    result* rs = &res[i];
    const char* p = rs->path;
    int ia = sc_h5r_find(r[0], p), ib = sc_h5r_find(r[1], p);
    const sc_h5r_dataset* da = ia >= 0 ? sc_h5r_dataset_at(r[0], ia) : NULL;
    const sc_h5r_dataset* db = ib >= 0 ? sc_h5r_dataset_at(r[1], ib) : NULL;
    rs->da = da;
    rs->db = db;
    if (da) shape_str(da, rs->shape_a, sizeof rs->shape_a);
    if (db) shape_str(db, rs->shape_b, sizeof rs->shape_b);
    char shape[140];
    if (!da || !db) {
      const char* sa = da ? rs->shape_a : rs->shape_b;
      int d = l.it[i].required;
      long long vmiss = da ? ver[1] : ver[0]; /* version of the file without it */
      int added = version_added(p);
      if (have_ver && added > vmiss) {
        snprintf(rs->status, sizeof rs->status, "only in %s: skipped (format %d)", da ? "A" : "B",
                 added);
        rs->kind = R_SKIPPED;
      } else {
        snprintf(rs->status, sizeof rs->status, "%s",
                 da ? (d ? "only in A: DIFF" : "only in A") : (d ? "only in B: DIFF" : "only in B"));
        rs->kind = d ? R_DIFF : R_OK;
        ndiff += d;
      }
      if (out) fprintf(out, ROW_FMT, shown(p), sa, "-", "-", "-", rs->status);
      finish(&c, rs);
      continue;
    }
    ncompared++;
    rs->nrows_a = da->nrows;
    rs->nrows_b = db->nrows;
    if (!da->numeric || !db->numeric) {
      snprintf(rs->status, sizeof rs->status, "DIFF (type)");
      rs->kind = R_DIFF;
      if (out) fprintf(out, ROW_FMT, shown(p), rs->shape_a, "-", "-", "-", rs->status);
      ndiff++;
      finish(&c, rs);
      continue;
    }
    int same = same_shape(da, db);
    snprintf(shape, sizeof shape, "%s/%s", rs->shape_a, rs->shape_b);
    if (!same && !same_row_shape(da, db)) {
      snprintf(rs->status, sizeof rs->status, "DIFF (shape A/B)");
      rs->kind = R_DIFF;
      if (out) fprintf(out, ROW_FMT, shown(p), shape, "-", "-", "-", rs->status);
      ndiff++;
      finish(&c, rs);
      continue;
    }
    rs->length_diff = !same;
    rs->per_contact = per_contact(p) && c.cstart[0];
    rs->per_step = !rs->per_contact && strncmp(p, "/model/", 7) &&
                   ((c.time[0] && da->nrows == c.ntime[0]) || (c.time[1] && db->nrows == c.ntime[1]));
    rs->values = 1;
    if (!compare_values(r[0], r[1], ia, ib, c.match ? perm : NULL, nperm, va, vb, rs)) {
      status = 2;
      break;
    }
    int value_diff = rs->first.set;
    int length_counts = rs->length_diff && !c.allow_length;
    char fa[32], fr[32], fd[48];
    snprintf(fa, sizeof fa, "%.3e", rs->maxabs);
    snprintf(fr, sizeof fr, "%.3e", rs->maxrel);
    if (value_diff) {
      long long step = rs->per_contact ? step_of(&c, rs, rs->first.row, 0) : -1;
      if (step >= 0) snprintf(fd, sizeof fd, "%lld (step %lld)", rs->first.row, step);
      else snprintf(fd, sizeof fd, "%lld", rs->first.row);
    } else if (length_counts) {
      snprintf(fd, sizeof fd, "%lld", rs->ncompared_rows); /* the first row of one file only */
    } else {
      snprintf(fd, sizeof fd, "-");
    }
    if (length_counts)
      snprintf(rs->status, sizeof rs->status, "%s",
               !value_diff ? "DIFF (shape A/B)"
                           : rs->nnan ? "DIFF (shape A/B, NaN)" : "DIFF (shape A/B, values)");
    else if (value_diff)
      snprintf(rs->status, sizeof rs->status, "%s", rs->nnan ? "DIFF (NaN)" : "DIFF");
    else
      snprintf(rs->status, sizeof rs->status, "%s",
               rs->length_diff ? "ok (length differs: allowed)" : "ok");
    rs->kind = value_diff || length_counts ? R_DIFF : R_OK;
    if (out) fprintf(out, ROW_FMT, shown(p), rs->length_diff ? shape : rs->shape_a, fa, fr, fd, rs->status);
    ndiff += rs->kind == R_DIFF;
    finish(&c, rs);
  }
  free(va);
  free(vb);

  /* the first difference: at the earliest step (datasets not per step, and
   * those in one file only, first), ties in the table's order */
  int ifirst = -1;
  for (int i = 0; status != 2 && i < l.n; i++) {
    if (res[i].kind != R_DIFF) continue;
    if (ifirst < 0 || res[i].order < res[ifirst].order) ifirst = i;
  }
  if (out && status != 2 && ifirst >= 0) {
    const result* f = &res[ifirst];
    fprintf(out, "\nfirst difference: %s", shown(f->path));
    if (f->first.set)
      fprintf(out, " %s: a = %.17g, b = %.17g, |a-b| = %.3e > %g + %g*|b| (excess %.3g)\n",
              shown(f->where_first), f->first.a, f->first.b, f->first.ad, f->atol, f->rtol,
              f->first.excess);
    else if (f->length_diff) {
      char w[256];
      where_str(&c, f, f->ncompared_rows, -1, f->nrows_a > f->nrows_b ? 0 : 1, w, sizeof w);
      fprintf(out, " %s: %s\n", shown(w), shown(f->detail));
    } else
      fprintf(out, ": %s\n", shown(f->detail));
  }
  int any_detail = 0;
  for (int i = 0; out && status != 2 && i < l.n; i++)
    if ((res[i].kind == R_DIFF || res[i].length_diff) && res[i].values) {
      if (!any_detail)
        fprintf(out, "details (worst: the element of the largest excess "
                     "|a-b| / (atol + rtol*|b|); above 1 differs):\n");
      any_detail = 1;
      fprintf(out, "  %-34s %s\n", shown(res[i].path), shown(res[i].detail));
    }

  int rc = ndiff ? 1 : 0;
  if (status != 2 && out) fprintf(out, "\n%d datasets compared, %d differ\n", ncompared, ndiff);
  if (status != 2 && report) {
    FILE* f = stdout;
    if (report_file && !(f = fopen(report_file, "w"))) {
      fprintf(stderr, "h5compare: cannot write %s: %s\n", report_file, strerror(errno));
      status = 2;
    }
    if (f) {
      if (!strcmp(report, "json")) write_json(f, &c, res, l.n, ncompared, ndiff, ifirst);
      else if (!strcmp(report, "junit")) write_junit(f, &c, res, l.n, ndiff);
      else write_md(f, &c, res, l.n, ncompared, ndiff, ifirst);
      if (f != stdout && fclose(f) != 0) {
        fprintf(stderr, "h5compare: cannot write %s: %s\n", report_file, strerror(errno));
        status = 2;
      }
    }
  }
  fflush(stdout);
  free(res);
  for (int f = 0; f < 2; f++) {
    free(c.time[f]);
    free(c.cstart[f]);
  }
  for (int k = 0; k < N_KINDS; k++) names_free(&c.nm[k]);
  for (int i = 0; i < c.nrules; i++) {
    free(c.rules[i].pat);
    free(c.rules[i].arg);
  }
  free(c.rules);
  free(perm);
  list_free(&l);
  sc_h5r_close(r[0]);
  sc_h5r_close(r[1]);
  return status == 2 ? 2 : rc;
}
