/* h5compare: compare the numeric datasets of two HDF5 files (doc/tools.md).
 *
 *   h5compare A.h5 B.h5 [--rtol R] [--atol A] [--fields name,name,...]
 *                       [--match-contacts]
 *
 * An element differs when |a - b| > atol + rtol |b| (B is the reference).
 * A NaN in either file is a difference (a simulation output holds none; a
 * NaN in the reference means the reference is broken).  For every dataset the
 * report gives max |a - b|, max |a - b| / |b| and the first row (first index
 * of the slowest dimension, i.e. the recorded step for per-step datasets;
 * per-contact rows also show their step via A's /contact/start).
 *
 * Default fields: every numeric dataset in either file except
 * /solver/wall_time; a dataset present
 * in only one file is a difference, except a dataset that a later simc
 * format_version added (see added_in) missing from a file of an earlier
 * version: that one is reported as skipped, with a note, since the older
 * file cannot hold it.  --fields (paths or group names) limits
 * the comparison to the named datasets.
 *
 * --match-contacts: within each recorded step, the per-contact rows of A are
 * matched to B's by body pair and nearest point before comparing, so a
 * contact set listed in another order is reported as reordered rows, not as
 * a difference in the point coordinates.  A real difference still differs.
 * Exit 0 when everything is within tolerance, 1 when something differs,
 * 2 on a usage or I/O error (missing file, field named in neither file). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_h5/io_h5.h"

#define BLOCK_VALUES (1 << 20)

static void usage(FILE* f) {
  fprintf(f,
          "usage: h5compare A.h5 B.h5 [--rtol R] [--atol A] [--fields name,name,...]\n"
          "                 [--match-contacts]\n"
          "  compares the numeric datasets of A against B (the reference):\n"
          "  an element differs when |a-b| > atol + rtol*|b|.\n"
          "  --rtol R       relative tolerance (default 1e-9)\n"
          "  --atol A       absolute tolerance (default 1e-12)\n"
          "  --fields LIST  dataset paths or group names, e.g. /q,/v,energy\n"
          "                 (default: every numeric dataset except /solver/wall_time)\n"
          "  --match-contacts  match contact rows within a step by (body pair,\n"
          "                 nearest point) and report reorderings as such\n"
          "  a dataset in one file only, and a NaN in either file, are differences\n"
          "  (except a dataset a newer simc format_version added, missing from an\n"
          "  older file: reported as skipped)\n"
          "exit status: 0 within tolerance, 1 differences, 2 usage or I/O error\n");
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
    if (!l->it) {
      fprintf(stderr, "h5compare: out of memory\n");
      exit(2);
    }
  }
  size_t n = strlen(path) + 1;
  l->it[l->n].path = malloc(n);
  if (!l->it[l->n].path) {
    fprintf(stderr, "h5compare: out of memory\n");
    exit(2);
  }
  memcpy(l->it[l->n].path, path, n);
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
      fprintf(stderr, "h5compare: --fields: %s is not a numeric dataset\n", path);
      return 0;
    }
    list_add(l, path, 1);
    return 1;
  }
  if (sc_h5r_is_group(a, path) || sc_h5r_is_group(b, path)) {
    char prefix[520];
    snprintf(prefix, sizeof prefix, "%s/", strcmp(path, "/") ? path : "");
    int k = add_under(l, a, prefix, 1, 0) + add_under(l, b, prefix, 1, 0);
    if (k == 0) fprintf(stderr, "h5compare: --fields: group %s has no numeric datasets\n", path);
    return k > 0;
  }
  fprintf(stderr, "h5compare: --fields: no dataset or group '%s' in either file\n", tok);
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

/* step owning contact row `row`, from A's /contact/start (-1 if unknown) */
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

/* per-contact datasets: one row per contact, indexed through /contact/start */
static int per_contact(const char* p) {
  return !strncmp(p, "/contact/", 9) && strcmp(p, "/contact/count") && strcmp(p, "/contact/start");
}

/* --match-contacts: perm[row of B] = matched row of A.  Within each step
 * whose contact count agrees, every row of B (in order) takes the unmatched
 * row of A with the same body pair and the nearest point (the first of
 * equally near ones); rows without such a partner, and steps whose counts
 * differ, keep their own index, so their values are compared as they are.
 * Returns the permutation (NULL when the files lack the contact datasets or
 * their shapes differ) and counts the rows that moved. */
static long long* match_contacts(const sc_h5r* a, const sc_h5r* b, long long* nmoved,
                                 long long* nsteps_moved) {
  static const char* names[5] = {"/contact/start", "/contact/count", "/contact/body_a",
                                 "/contact/body_b", "/contact/point"};
  double* x[2][5] = {{NULL}};
  long long nr[2][5], rl[2][5];
  long long* perm = NULL;
  int ok = 1;
  for (int f = 0; f < 2; f++)
    for (int k = 0; k < 5; k++) {
      x[f][k] = read_all(f ? b : a, names[k], &nr[f][k], &rl[f][k]);
      if (!x[f][k]) ok = 0;
    }
  for (int k = 0; ok && k < 5; k++)
    if (nr[0][k] != nr[1][k] || rl[0][k] != rl[1][k]) ok = 0;
  if (ok && (rl[0][4] != 3 || nr[0][0] != nr[0][1] || nr[0][2] != nr[0][4] || nr[0][3] != nr[0][4]))
    ok = 0;
  long long m = ok ? nr[0][4] : 0;
  if (ok) perm = malloc(sizeof(long long) * (size_t)(m ? m : 1));
  char* used = ok ? calloc((size_t)(m ? m : 1), 1) : NULL;
  *nmoved = *nsteps_moved = 0;
  if (perm && used) {
    for (long long i = 0; i < m; i++) perm[i] = i;
    for (long long s = 0; s < nr[0][0]; s++) {
      long long sa = (long long)x[0][0][s], sb = (long long)x[1][0][s];
      long long ca = (long long)x[0][1][s], cb = (long long)x[1][1][s];
      if (ca != cb || ca <= 0 || sa < 0 || sb < 0 || sa + ca > m || sb + cb > m) continue;
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

#define ROW_FMT "%-36s %-10s %11s %11s %18s  %s\n"

int main(int argc, char** argv) {
  const char* files[2] = {NULL, NULL};
  int nfiles = 0;
  double rtol = 1e-9, atol = 1e-12;
  const char* fields = NULL;
  int match = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    const char* val = NULL;
    const char* opt = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--match-contacts")) {
      match = 1;
      continue;
    }
    static const char* opts[] = {"--rtol", "--atol", "--fields"};
    for (int k = 0; k < 3; k++) {
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
      }
    }
    if (opt) {
      if (!strcmp(opt, "--rtol") && !parse_tol(opt, val, &rtol)) return 2;
      if (!strcmp(opt, "--atol") && !parse_tol(opt, val, &atol)) return 2;
      if (!strcmp(opt, "--fields")) fields = val;
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr, "h5compare: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    } else if (nfiles < 2) {
      files[nfiles++] = a;
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

  sc_h5r* r[2] = {NULL, NULL};
  for (int k = 0; k < 2; k++) {
    sc_error err;
    sc_error_clear(&err);
    if (sc_h5r_open(files[k], &r[k], &err) != SC_OK) {
      char buf[1200];
      sc_error_format(&err, buf, sizeof buf);
      fprintf(stderr, "h5compare: %s\n", buf);
      sc_h5r_close(r[0]);
      return 2;
    }
  }

  list l = {NULL, 0, 0};
  int status = 0;
  if (fields) {
    size_t n = strlen(fields);
    char* copy = malloc(n + 1);
    if (!copy) return 2;
    memcpy(copy, fields, n + 1);
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

  /* A's /contact/start maps per-contact rows to steps in the report */
  double* cstart = NULL;
  long long ncstart = 0;
  int is = sc_h5r_find(r[0], "/contact/start");
  if (is >= 0 && sc_h5r_dataset_at(r[0], is)->numeric && sc_h5r_dataset_at(r[0], is)->rank == 1) {
    ncstart = sc_h5r_dataset_at(r[0], is)->nrows;
    cstart = malloc(sizeof(double) * (size_t)(ncstart ? ncstart : 1));
    sc_error err;
    if (cstart && sc_h5r_read_rows(r[0], is, 0, ncstart, cstart, &err) != SC_OK) {
      free(cstart);
      cstart = NULL;
    }
  }

  /* simc files of different format versions: the newer one's additions are
   * not differences */
  long long ver[2] = {0, 0};
  int have_ver = sc_h5r_attr_int(r[0], "format_version", &ver[0]) &&
                 sc_h5r_attr_int(r[1], "format_version", &ver[1]);

  long long* perm = NULL;
  long long nmoved = 0, nsteps_moved = 0;
  if (match) {
    perm = match_contacts(r[0], r[1], &nmoved, &nsteps_moved);
    if (!perm) match = 0;
  }
  printf("A = %s\nB = %s (reference)\ndiffer when |a-b| > %g + %g*|b|\n", files[0], files[1], atol,
         rtol);
  if (match)
    printf("contact rows matched within each step by body pair and nearest point: "
           "%lld rows of A reordered in %lld steps\n",
           nmoved, nsteps_moved);
  if (have_ver && ver[0] != ver[1])
    printf("note: A is simc format_version %lld, B is %lld: datasets added after version %lld "
           "are in %s only and are skipped, not compared\n",
           ver[0], ver[1], ver[0] < ver[1] ? ver[0] : ver[1], ver[0] < ver[1] ? "B" : "A");
  printf("\n");
  printf(ROW_FMT, "dataset", "shape", "max abs", "max rel", "first diff row", "result");
  double* va = malloc(sizeof(double) * BLOCK_VALUES);
  double* vb = malloc(sizeof(double) * BLOCK_VALUES);
  if (!va || !vb) {
    fprintf(stderr, "h5compare: out of memory\n");
    status = 2;
  }
  int ndiff = 0, ncompared = 0;
  for (int i = 0; i < l.n && status != 2; i++) {
    const char* p = l.it[i].path;
    int ia = sc_h5r_find(r[0], p), ib = sc_h5r_find(r[1], p);
    const sc_h5r_dataset* da = ia >= 0 ? sc_h5r_dataset_at(r[0], ia) : NULL;
    const sc_h5r_dataset* db = ib >= 0 ? sc_h5r_dataset_at(r[1], ib) : NULL;
    char sa[64], sb[64], shape[140];
    if (!da || !db) {
      shape_str(da ? da : db, sa, sizeof sa);
      int d = l.it[i].required;
      long long vmiss = da ? ver[1] : ver[0]; /* version of the file without it */
      int added = version_added(p);
      if (have_ver && added > vmiss) {
        char why[64];
        snprintf(why, sizeof why, "only in %s: skipped (format %d)", da ? "A" : "B", added);
        printf(ROW_FMT, p, sa, "-", "-", "-", why);
        continue;
      }
      printf(ROW_FMT, p, sa, "-", "-", "-", da ? (d ? "only in A: DIFF" : "only in A")
                                                : (d ? "only in B: DIFF" : "only in B"));
      ndiff += d;
      continue;
    }
    ncompared++;
    shape_str(da, sa, sizeof sa);
    shape_str(db, sb, sizeof sb);
    if (!da->numeric || !db->numeric) {
      printf(ROW_FMT, p, sa, "-", "-", "-", "DIFF (type)");
      ndiff++;
      continue;
    }
    if (!same_shape(da, db)) {
      snprintf(shape, sizeof shape, "%s/%s", sa, sb);
      printf(ROW_FMT, p, shape, "-", "-", "-", "DIFF (shape A/B)");
      ndiff++;
      continue;
    }
    double maxabs = 0, maxrel = 0;
    long long first = -1, nnan = 0;
    long long rowlen = da->rowlen;
    long long rows_per_block = rowlen > 0 ? BLOCK_VALUES / rowlen : da->nrows;
    if (rows_per_block < 1) rows_per_block = 1;
    double* ba = va;
    double* bb = vb;
    int big = rowlen > BLOCK_VALUES; /* one row does not fit a block */
    if (big) {
      ba = malloc(sizeof(double) * (size_t)rowlen);
      bb = malloc(sizeof(double) * (size_t)rowlen);
      if (!ba || !bb) {
        fprintf(stderr, "h5compare: out of memory (%s)\n", p);
        status = 2;
        break;
      }
    }
    /* matched contact rows: A is read whole and gathered through perm */
    double* whole = NULL;
    if (match && per_contact(p)) {
      long long wn, wl;
      whole = read_all(r[0], p, &wn, &wl);
      if (!whole) {
        fprintf(stderr, "h5compare: cannot read %s\n", p);
        status = 2;
        break;
      }
    }
    for (long long r0 = 0; rowlen > 0 && r0 < da->nrows; r0 += rows_per_block) {
      long long nr = da->nrows - r0 < rows_per_block ? da->nrows - r0 : rows_per_block;
      sc_error err;
      if (whole)
        for (long long j = 0; j < nr; j++)
          memcpy(ba + j * rowlen, whole + perm[r0 + j] * rowlen, sizeof(double) * (size_t)rowlen);
      if ((!whole && sc_h5r_read_rows(r[0], ia, r0, nr, ba, &err) != SC_OK) ||
          sc_h5r_read_rows(r[1], ib, r0, nr, bb, &err) != SC_OK) {
        char buf[1200];
        sc_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "h5compare: %s\n", buf);
        status = 2;
        break;
      }
      for (long long k = 0; k < nr * rowlen; k++) {
        double x = ba[k], y = bb[k];
        double ad, rd;
        if (isnan(x) || isnan(y)) {
          ad = rd = (double)INFINITY;
          nnan++;
          if (first < 0) first = r0 + k / rowlen;
        } else if (x == y) {
          ad = rd = 0.0; /* also equal infinities */
        } else {
          ad = fabs(x - y);
          rd = y != 0 ? ad / fabs(y) : (double)INFINITY;
        }
        if (ad > maxabs) maxabs = ad;
        if (rd > maxrel) maxrel = rd;
        if (first < 0 && ad > atol + rtol * fabs(y)) first = r0 + k / rowlen;
      }
    }
    if (big) {
      free(ba);
      free(bb);
    }
    free(whole);
    if (status == 2) break;
    char fa[32], fr[32], fd[48];
    snprintf(fa, sizeof fa, "%.3e", maxabs);
    snprintf(fr, sizeof fr, "%.3e", maxrel);
    if (first < 0) {
      snprintf(fd, sizeof fd, "-");
    } else {
      long long step = -1;
      if (per_contact(p)) step = contact_step(cstart, ncstart, first);
      if (step >= 0) snprintf(fd, sizeof fd, "%lld (step %lld)", first, step);
      else snprintf(fd, sizeof fd, "%lld", first);
    }
    printf(ROW_FMT, p, sa, fa, fr, fd, first < 0 ? "ok" : (nnan ? "DIFF (NaN)" : "DIFF"));
    ndiff += first >= 0;
  }
  free(va);
  free(vb);
  free(cstart);
  free(perm);
  list_free(&l);
  sc_h5r_close(r[0]);
  sc_h5r_close(r[1]);
  if (status == 2) return 2;
  printf("\n%d datasets compared, %d differ\n", ncompared, ndiff);
  return ndiff ? 1 : 0;
}
