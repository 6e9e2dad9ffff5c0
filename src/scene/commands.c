/* commands: the time series that drive the actuators (doc/scenes.md).
 *
 * A command is a table of (time, value) samples with strictly increasing
 * times, linear or held between its samples and held at its end values
 * outside them (sc_model_command).  An element of commands is one of
 *   {name, time: [...], value: [...], interpolation}  a table written inline;
 *   {name, value: x}                                   a constant: one sample at t = 0;
 *   {file: f.csv, interpolation}                       every column of a CSV file after
 *                                                      the first (time), named by its header;
 *   {name, file: f.h5, dataset: /d, interpolation}     an (n, 2) HDF5 dataset: time, value
 *                                                      (read by h5table.c).
 * Files are relative to the scene file's directory.  The CSV reader is this
 * file's own, bounded like the YAML reader (limits.h), and every problem in
 * a CSV file is located in that file, the column named after the path:
 * "f.csv:7:12: commands[0].lift: expected a number (got 'x')".  Command
 * names are unique across all commands; sc_rd_commands_used (called once
 * the actuators are read) refuses a command no actuator uses. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/limits.h"
#include "scene/scene_internal.h"

static const char* const interp_names[] = {"linear", "hold"};

void sc_rd_commands_free(load* L) {
  for (int i = 0; i < L->ncmd; i++) sc_free(L->cmd[i].name);
  sc_free(L->cmd);
  sc_free(L->cmd_time);
  sc_free(L->cmd_value);
  for (int i = 0; i < L->npaths; i++) sc_free(L->paths[i]);
  sc_free(L->paths);
  sc_rd_ni_free(&L->cmd_index);
}

/* room for `more` samples after the L->ncmddata already stored */
static sc_status reserve_samples(load* L, long more) {
  long need = (long)L->ncmddata + more;
  if (need <= L->capdata) return SC_OK;
  long cap = L->capdata ? L->capdata : 64;
  while (cap < need) cap *= 2;
  double* t = sc_malloc((size_t)cap * sizeof *t);
  double* v = sc_malloc((size_t)cap * sizeof *v);
  if (!t || !v) {
    sc_free(t);
    sc_free(v);
    return SC_ERR_NOMEM;
  }
  if (L->ncmddata) {
    memcpy(t, L->cmd_time, (size_t)L->ncmddata * sizeof *t);
    memcpy(v, L->cmd_value, (size_t)L->ncmddata * sizeof *v);
  }
  sc_free(L->cmd_time);
  sc_free(L->cmd_value);
  L->cmd_time = t;
  L->cmd_value = v;
  L->capdata = (int)cap;
  return SC_OK;
}

/* an error about command k's name, where the name is written (c->path:
 * its element of commands) */
static sc_status fail_name(ctx* c, const cmd_in* k, const char* msg) {
  if (k->name_node) {
    size_t m = sc_rd_push_key(c, "name");
    sc_status st = sc_rd_fail(c, k->name_node, "%s", msg);
    sc_rd_pop(c, m);
    return st;
  }
  return sc_rd_fail_at(c, k->file, k->line, k->col, k->name, "%s", msg);
}

/* "line 3" in the same file, else "file:line:col" */
static void first_at(const cmd_in* first, const char* file, char* buf, size_t n) {
  if (strcmp(first->file, file) == 0)
    snprintf(buf, n, "line %d", first->line);
  else
    snprintf(buf, n, "%s:%d:%d", first->file, first->line, first->col);
}

/* a name not yet taken by a command (k: where it is written) */
static sc_status check_unique(ctx* c, const load* L, const cmd_in* k) {
  int d = sc_rd_ni_lookup(&L->cmd_index, k->name, -1);
  if (d < 0) return SC_OK;
  char where[300], msg[600];
  first_at(&L->cmd[d], k->file, where, sizeof where);
  snprintf(msg, sizeof msg, "duplicate command name '%s' (first at %s)", k->name, where);
  return fail_name(c, k, msg);
}

/* append command k whose len samples are stored after L->ncmddata */
static sc_status add_command(ctx* c, load* L, cmd_in k, int len) {
  TRY(check_unique(c, L, &k));
  if (L->ncmd == L->capcmd) {
    int cap = L->capcmd ? 2 * L->capcmd : 8;
    cmd_in* a = sc_calloc((size_t)cap, sizeof *a);
    if (!a) return SC_ERR_NOMEM;
    if (L->ncmd) memcpy(a, L->cmd, (size_t)L->ncmd * sizeof *a);
    sc_free(L->cmd);
    L->cmd = a;
    L->capcmd = cap;
    /* the name index (at most half full) is rebuilt at each doubling */
    sc_rd_ni_free(&L->cmd_index);
    if (sc_rd_ni_init(&L->cmd_index, cap)) return SC_ERR_NOMEM;
    for (int i = 0; i < L->ncmd; i++) sc_rd_ni_lookup(&L->cmd_index, L->cmd[i].name, i);
  }
  k.name = sc_strdup(k.name);
  if (!k.name) return SC_ERR_NOMEM;
  k.adr = L->ncmddata;
  k.len = len;
  L->cmd[L->ncmd] = k;
  sc_rd_ni_lookup(&L->cmd_index, L->cmd[L->ncmd].name, L->ncmd);
  L->ncmd++;
  L->ncmddata += len;
  return SC_OK;
}

static int over_total(const load* L, long more) {
  return (long)L->ncmddata + more > SC_SCENE_MAX_CMD_SAMPLES;
}

/* ---- inline tables and constants ---- */

static sc_status read_inline(ctx* c, load* L, const sc_snode* n, cmd_in k) {
  const sc_snode* T = sc_snode_get(n, "time");
  const sc_snode* V = sc_snode_get(n, "value");
  if (!V) return sc_rd_fail_missing(c, n, "value", T ? "a list of values, one per time" : "a number, or time and value lists");
  size_t m;
  sc_status st = SC_OK;
  if (!T) {
    /* a constant */
    m = sc_rd_push_key(c, "value");
    if (V->kind == SC_SN_SEQ)
      st = sc_rd_fail(c, V, "a list of values needs time (expected a number, or time: [...] with it)");
    double x = 0;
    if (!st) st = sc_rd_as_num(c, V, &x);
    sc_rd_pop(c, m);
    TRY(st);
    if (over_total(L, 1)) return sc_rd_fail(c, V, "the commands hold more than %d samples in all (the limit)", SC_SCENE_MAX_CMD_SAMPLES);
    TRY(reserve_samples(L, 1));
    L->cmd_time[L->ncmddata] = 0;
    L->cmd_value[L->ncmddata] = x;
    return add_command(c, L, k, 1);
  }
  m = sc_rd_push_key(c, "time");
  if (T->kind != SC_SN_SEQ)
    st = sc_rd_fail(c, T, "expected a list of times, got %s", sc_rd_kind_name(T));
  else if (T->n < 1)
    st = sc_rd_fail(c, T, "expected at least one sample (got an empty list)");
  else if (T->n > SC_SCENE_MAX_TABLE_ROWS)
    st = sc_rd_fail(c, T, "more than %d samples (the limit of one command)", SC_SCENE_MAX_TABLE_ROWS);
  else if (over_total(L, T->n))
    st = sc_rd_fail(c, T, "the commands hold more than %d samples in all (the limit)", SC_SCENE_MAX_CMD_SAMPLES);
  sc_rd_pop(c, m);
  TRY(st);
  m = sc_rd_push_key(c, "value");
  if (V->kind != SC_SN_SEQ)
    st = sc_rd_fail(c, V, "expected a list of %d values, one per time, got %s", T->n, sc_rd_kind_name(V));
  else if (V->n != T->n)
    st = sc_rd_fail(c, V, "expected %d values, one per time (got %d)", T->n, V->n);
  sc_rd_pop(c, m);
  TRY(st);
  TRY(reserve_samples(L, T->n));
  double* t = L->cmd_time + L->ncmddata;
  double* v = L->cmd_value + L->ncmddata;
  m = sc_rd_push_key(c, "time");
  for (int i = 0; !st && i < T->n; i++) {
    size_t m2 = sc_rd_push_idx(c, i);
    st = sc_rd_as_num(c, T->kid[i], &t[i]);
    if (!st && i > 0 && !(t[i] > t[i - 1]))
      st = sc_rd_fail(c, T->kid[i], "must be greater than the previous time %s (got %s; times increase strictly)",
                      T->kid[i - 1]->str, T->kid[i]->str);
    sc_rd_pop(c, m2);
  }
  sc_rd_pop(c, m);
  TRY(st);
  m = sc_rd_push_key(c, "value");
  for (int i = 0; !st && i < V->n; i++) {
    size_t m2 = sc_rd_push_idx(c, i);
    st = sc_rd_as_num(c, V->kid[i], &v[i]);
    sc_rd_pop(c, m2);
  }
  sc_rd_pop(c, m);
  TRY(st);
  return add_command(c, L, k, T->n);
}

/* ---- files ---- */

sc_status sc_rd_resolve_path(load* L, const char* file, const char** out) {
  if (L->npaths == L->cappaths) {
    int cap = L->cappaths ? 2 * L->cappaths : 4;
    char** p = sc_calloc((size_t)cap, sizeof *p);
    if (!p) return SC_ERR_NOMEM;
    if (L->npaths) memcpy(p, L->paths, (size_t)L->npaths * sizeof *p);
    sc_free(L->paths);
    L->paths = p;
    L->cappaths = cap;
  }
  char* p = sc_rd_path_beside(L->scene_file, file);
  if (!p) return SC_ERR_NOMEM;
  L->paths[L->npaths++] = p;
  *out = p;
  return SC_OK;
}

/* a regular file of at most max bytes, whole and NUL-terminated (sc_free);
 * refusals are located at fnode, the scene's file value */
static sc_status slurp(ctx* c, const sc_snode* fnode, const char* path, size_t max, char** out,
                       size_t* len) {
  char why[600];
  sc_status st = sc_rd_read_file(path, max, out, len, why, sizeof why);
  return st && st != SC_ERR_NOMEM ? sc_rd_fail(c, fnode, "%s", why) : st;
}

/* ---- CSV ---- */

typedef struct csv_field {
  size_t a, b; /* trimmed text [a, b) */
  int col;     /* 1-based column of its text (of where it starts when empty) */
} csv_field;

static int blank(char ch) { return ch == ' ' || ch == '\t'; }

/* the fields of the line [s, e) into f (at most max; *more set when the
 * line has more) */
static int split(const char* buf, size_t s, size_t e, csv_field* f, int max, int* more) {
  int n = 0;
  size_t a = s;
  *more = 0;
  for (;;) {
    size_t b = a;
    while (b < e && buf[b] != ',') b++;
    if (n == max) {
      *more = 1;
      return n;
    }
    size_t x = a, y = b;
    while (x < y && blank(buf[x])) x++;
    while (y > x && blank(buf[y - 1])) y--;
    f[n].a = x;
    f[n].b = y;
    f[n].col = (int)((x < y ? x : a) - s) + 1;
    n++;
    if (b >= e) return n;
    a = b + 1;
  }
}

/* a number filling the field; 0 when it is not one (then why says so).
 * strtod stops at the comma, blank or line break after the field (and at a
 * NUL byte inside it), so the number must end exactly where the field does */
static int field_number(const char* buf, const csv_field* f, double* x, const char** why) {
  if (f->b == f->a) {
    *why = "expected a number (got an empty field)";
    return 0;
  }
  *why = "expected a number";
  char* end;
  errno = 0;
  double v = strtod(buf + f->a, &end);
  if (end != buf + f->b) return 0;
  if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0)) {
    *why = "must be a finite number";
    return 0;
  }
  *x = v;
  return 1;
}

/* a column name: no quotes or control characters (the reader does not
 * unquote) */
static int bad_name_byte(const char* buf, const csv_field* f) {
  for (size_t i = f->a; i < f->b; i++) {
    unsigned char ch = (unsigned char)buf[i];
    if (ch < 0x20 || ch == 0x7f || ch == '"') return (int)(i - f->a) + 1;
  }
  return 0;
}

typedef struct csv_line {
  size_t s, e; /* [s, e) without the line break */
  int line;    /* 1-based */
} csv_line;

/* the next line that is not blank or a # comment; 0 at the end */
static int next_line(const char* buf, size_t len, size_t* pos, int* line, csv_line* out) {
  while (*pos < len) {
    size_t s = *pos, e = s;
    while (e < len && buf[e] != '\n') e++;
    *pos = e < len ? e + 1 : len;
    int ln = ++*line;
    if (e > s && buf[e - 1] == '\r') e--;
    size_t k = s;
    while (k < e && blank(buf[k])) k++;
    if (k == e || buf[k] == '#') continue;
    out->s = s;
    out->e = e;
    out->line = ln;
    return 1;
  }
  return 0;
}

static sc_status read_csv(ctx* c, load* L, const sc_snode* fnode, const char* path, int item,
                          int interp) {
  char* buf = NULL;
  size_t len = 0;
  size_t m = sc_rd_push_key(c, "file");
  sc_status st = slurp(c, fnode, path, SC_SCENE_MAX_TABLE_BYTES, &buf, &len);
  sc_rd_pop(c, m);
  TRY(st);
  enum { MAXC = SC_SCENE_MAX_TABLE_COLUMNS };
  csv_field* f = sc_malloc((MAXC + 1) * sizeof *f);
  csv_field* head = sc_malloc(MAXC * sizeof *head);
  char** names = sc_calloc(MAXC, sizeof *names);
  double* rows = NULL;
  long nrows = 0, caprows = 0;
  int ncol = 0, more = 0, line = 0;
  size_t pos = sc_utf8_bom(buf, len); /* else the first column's name starts with it */
  csv_line ln, hl;
  if (!f || !head || !names) st = SC_ERR_NOMEM;
  /* the header: time, then one name per command */
  if (!st && !next_line(buf, len, &pos, &line, &hl))
    st = sc_rd_fail_at(c, path, 1, 1, NULL, "no header (expected a first line time,<name>,...)");
  if (!st) {
    ncol = split(buf, hl.s, hl.e, head, MAXC, &more);
    if (more)
      st = sc_rd_fail_at(c, path, hl.line, 1, NULL, "more than %d columns (the limit)", MAXC);
  }
  for (int k = 0; !st && k < ncol; k++) {
    const csv_field* h = &head[k];
    int bad = bad_name_byte(buf, h);
    if (h->a == h->b)
      st = sc_rd_fail_at(c, path, hl.line, h->col, NULL, "column %d has an empty name", k + 1);
    else if (bad)
      st = sc_rd_fail_at(c, path, hl.line, h->col + bad - 1, NULL,
                         "column %d's name holds a quote or control character (names are not quoted)",
                         k + 1);
    else if (!(names[k] = sc_malloc(h->b - h->a + 1)))
      st = SC_ERR_NOMEM;
    if (!st) {
      memcpy(names[k], buf + h->a, h->b - h->a);
      names[k][h->b - h->a] = '\0';
    }
    if (!st && k == 0 && strcmp(names[0], "time") != 0)
      st = sc_rd_fail_at(c, path, hl.line, h->col, NULL, "the first column must be time (got '%s')", names[0]);
    for (int j = 1; !st && k > 0 && j < k; j++)
      if (strcmp(names[j], names[k]) == 0)
        st = sc_rd_fail_at(c, path, hl.line, h->col, names[k],
                           "duplicate command name '%s' (first at line %d)", names[k], hl.line);
    if (!st && k > 0) {
      cmd_in probe = {.name = names[k], .file = path, .line = hl.line, .col = h->col, .item = item};
      st = check_unique(c, L, &probe);
    }
  }
  if (!st && ncol < 2)
    st = sc_rd_fail_at(c, path, hl.line, (int)(hl.e - hl.s) + 1, NULL,
                       "expected a command column after time (time,<name>,...)");
  /* the rows */
  while (!st && next_line(buf, len, &pos, &line, &ln)) {
    if (nrows >= SC_SCENE_MAX_TABLE_ROWS) {
      st = sc_rd_fail_at(c, path, ln.line, 1, NULL, "more than %d rows (the limit of a command table)",
                         SC_SCENE_MAX_TABLE_ROWS);
      break;
    }
    if (over_total(L, (nrows + 1) * (ncol - 1))) {
      st = sc_rd_fail_at(c, path, ln.line, 1, NULL,
                         "the commands hold more than %d samples in all (the limit)", SC_SCENE_MAX_CMD_SAMPLES);
      break;
    }
    if (nrows == caprows) {
      /* at most the rows the caps above let through */
      long most = (SC_SCENE_MAX_CMD_SAMPLES - L->ncmddata) / (ncol - 1) + 1;
      if (most > SC_SCENE_MAX_TABLE_ROWS) most = SC_SCENE_MAX_TABLE_ROWS;
      long cap = caprows ? 2 * caprows : 256;
      if (cap > most) cap = most;
      double* r = sc_malloc((size_t)cap * (size_t)ncol * sizeof *r);
      if (!r) {
        st = SC_ERR_NOMEM;
        break;
      }
      if (nrows) memcpy(r, rows, (size_t)nrows * (size_t)ncol * sizeof *r);
      sc_free(rows);
      rows = r;
      caprows = cap;
    }
    int nf = split(buf, ln.s, ln.e, f, ncol, &more);
    double* row = rows + nrows * ncol;
    for (int k = 0; !st && k < nf; k++) {
      const char* why;
      if (!field_number(buf, &f[k], &row[k], &why)) {
        int w = (int)(f[k].b - f[k].a);
        st = sc_rd_fail_at(c, path, ln.line, f[k].col, names[k], "%s (got '%.*s')", why,
                           w > 40 ? 40 : w, buf + f[k].a);
      }
    }
    if (!st && more) {
      /* the first field past the header's columns */
      size_t x = f[ncol - 1].b;
      while (x < ln.e && buf[x] != ',') x++;
      st = sc_rd_fail_at(c, path, ln.line, (int)(x - ln.s) + 2, NULL,
                         "the row has more fields than the header's %d columns", ncol);
    }
    if (!st && nf < ncol)
      st = sc_rd_fail_at(c, path, ln.line, (int)(ln.e - ln.s) + 1, names[nf],
                         "missing value (the row has %d of the header's %d columns)", nf, ncol);
    if (!st && nrows > 0 && !(row[0] > row[-ncol])) {
      int w = (int)(f[0].b - f[0].a);
      st = sc_rd_fail_at(c, path, ln.line, f[0].col, "time",
                         "must be greater than the previous row's time %.15g (got %.*s; times increase strictly)",
                         row[-ncol], w > 40 ? 40 : w, buf + f[0].a);
    }
    nrows++;
  }
  if (!st && nrows == 0)
    st = sc_rd_fail_at(c, path, hl.line, 1, NULL, "no rows under the header (expected at least one)");
  /* one command per column after time, each with its own copy of the times */
  for (int k = 1; !st && k < ncol; k++) {
    st = reserve_samples(L, nrows);
    for (long r = 0; !st && r < nrows; r++) {
      L->cmd_time[L->ncmddata + r] = rows[r * ncol];
      L->cmd_value[L->ncmddata + r] = rows[r * ncol + k];
    }
    cmd_in cmd = {.name = names[k], .file = path, .line = hl.line, .col = head[k].col, .item = item,
                  .interp = interp};
    if (!st) st = add_command(c, L, cmd, (int)nrows);
  }
  for (int k = 0; names && k < ncol; k++) sc_free(names[k]);
  sc_free(names);
  sc_free(head);
  sc_free(f);
  sc_free(rows);
  sc_free(buf);
  return st;
}

/* ---- HDF5 ---- */

static sc_status read_h5(ctx* c, load* L, const sc_snode* fnode, const sc_snode* dnode,
                         const char* path, cmd_in k) {
  double* tv = NULL;
  long n = 0;
  char why[600];
  int r = sc_rd_h5_table(path, dnode->str, SC_SCENE_MAX_TABLE_ROWS, &tv, &n, why, sizeof why);
  if (r == SC_H5T_NOMEM) return SC_ERR_NOMEM;
  if (r != SC_H5T_OK) {
    size_t m = sc_rd_push_key(c, r == SC_H5T_FILE ? "file" : "dataset");
    sc_status st = sc_rd_fail(c, r == SC_H5T_FILE ? fnode : dnode, "%s", why);
    sc_rd_pop(c, m);
    return st;
  }
  size_t m = sc_rd_push_key(c, "dataset");
  sc_status st = SC_OK;
  for (long i = 0; !st && i < n; i++) {
    if (!isfinite(tv[2 * i]) || !isfinite(tv[2 * i + 1]))
      st = sc_rd_fail(c, dnode, "row %ld (from 0) of '%s' holds a non-finite value", i, dnode->str);
    else if (i > 0 && !(tv[2 * i] > tv[2 * i - 2]))
      st = sc_rd_fail(c, dnode,
                      "row %ld (from 0) of '%s': time %.15g is not greater than the previous %.15g (times increase strictly)",
                      i, dnode->str, tv[2 * i], tv[2 * i - 2]);
  }
  if (!st && over_total(L, n))
    st = sc_rd_fail(c, dnode, "the commands hold more than %d samples in all (the limit)", SC_SCENE_MAX_CMD_SAMPLES);
  sc_rd_pop(c, m);
  if (!st) st = reserve_samples(L, n);
  for (long i = 0; !st && i < n; i++) {
    L->cmd_time[L->ncmddata + i] = tv[2 * i];
    L->cmd_value[L->ncmddata + i] = tv[2 * i + 1];
  }
  sc_free(tv);
  if (!st) st = add_command(c, L, k, (int)n);
  return st;
}

/* ---- the section ---- */

static sc_status read_command(ctx* c, load* L, const sc_snode* n, int item) {
  if (n->kind != SC_SN_MAP)
    return sc_rd_fail(c, n, "expected a command map ({name, time, value}, {name, value}, {file} or "
                            "{name, file, dataset}), got %s", sc_rd_kind_name(n));
  TRY(sc_rd_check_section(c, n, "commands[]", "a command"));
  const sc_snode* file = sc_snode_get(n, "file");
  const sc_snode* dataset = sc_snode_get(n, "dataset");
  const sc_snode* name = sc_snode_get(n, "name");
  const sc_snode* in = sc_snode_get(n, "interpolation");
  cmd_in k = {.item = item, .interp = SC_INTERP_LINEAR};
  size_t m;
  sc_status st = SC_OK;
  if (in) {
    m = sc_rd_push_key(c, "interpolation");
    st = sc_rd_as_enum(c, in, interp_names, NELEM(interp_names), "interpolation", &k.interp);
    sc_rd_pop(c, m);
    TRY(st);
  }
  /* keys that do not go with a file or without one */
  static const char* const with_file[] = {"time", "value"};
  for (int i = 0; file && i < 2; i++) {
    const sc_snode* v = sc_snode_get(n, with_file[i]);
    if (!v) continue;
    m = sc_rd_push_key(c, with_file[i]);
    st = sc_rd_fail(c, v, "not allowed with file (the file gives the %ss)", with_file[i]);
    sc_rd_pop(c, m);
    return st;
  }
  if (dataset && !file) {
    m = sc_rd_push_key(c, "dataset");
    st = sc_rd_fail(c, dataset, "needs file (expected file: the HDF5 file that holds it)");
    sc_rd_pop(c, m);
    return st;
  }
  if (file && !dataset && name) {
    m = sc_rd_push_key(c, "name");
    st = sc_rd_fail(c, name, "a CSV file names its commands in its header (expected no name with file "
                             "and no dataset)");
    sc_rd_pop(c, m);
    return st;
  }
  if (!name && !(file && !dataset))
    return sc_rd_fail_missing(c, n, "name", "a unique command name");
  if (name) {
    const char* nm = NULL;
    m = sc_rd_push_key(c, "name");
    st = sc_rd_as_name(c, name, &nm);
    sc_rd_pop(c, m);
    TRY(st);
    k.name = (char*)nm; /* copied by add_command */
    k.name_node = name;
    k.file = name->file;
    k.line = name->line;
    k.col = name->col;
  }
  const char* fname = NULL;
  const char* dname = NULL;
  if (file) {
    m = sc_rd_push_key(c, "file");
    st = sc_rd_as_name(c, file, &fname);
    sc_rd_pop(c, m);
    TRY(st);
  }
  if (dataset) {
    m = sc_rd_push_key(c, "dataset");
    st = sc_rd_as_name(c, dataset, &dname);
    sc_rd_pop(c, m);
    TRY(st);
  }
  if (!file) return read_inline(c, L, n, k);
  const char* path;
  TRY(sc_rd_resolve_path(L, fname, &path));
  if (!dataset) return read_csv(c, L, file, path, item, k.interp);
  return read_h5(c, L, file, dataset, path, k);
}

sc_status sc_rd_commands(ctx* c, load* L, const sc_snode* root) {
  const sc_snode* n = sc_snode_get(root, "commands");
  if (!n) return SC_OK;
  size_t m = sc_rd_push_key(c, "commands");
  sc_status st = SC_OK;
  if (n->kind != SC_SN_SEQ) st = sc_rd_fail(c, n, "expected a list of commands, got %s", sc_rd_kind_name(n));
  for (int i = 0; !st && i < n->n; i++) {
    size_t m2 = sc_rd_push_idx(c, i);
    st = read_command(c, L, n->kid[i], i);
    sc_rd_pop(c, m2);
  }
  sc_rd_pop(c, m);
  return st;
}

sc_status sc_rd_commands_used(ctx* c, const load* L) {
  for (int i = 0; i < L->ncmd; i++) {
    const cmd_in* k = &L->cmd[i];
    if (k->used) continue;
    char msg[400];
    snprintf(msg, sizeof msg,
             "command '%s' is used by no actuator (expected an actuator's command or "
             "velocity_command to name it)", k->name);
    size_t m = sc_rd_push_key(c, "commands");
    sc_rd_push_idx(c, k->item);
    sc_status st = fail_name(c, k, msg);
    sc_rd_pop(c, m);
    return st;
  }
  return SC_OK;
}
