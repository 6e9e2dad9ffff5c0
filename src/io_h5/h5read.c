/* io_h5 reading: list the datasets of any HDF5 file and read numeric ones
 * as doubles, row block by row block (used by tools/h5compare, so that
 * <hdf5.h> stays inside this module). */
#include "io_h5/io_h5.h"

#include "io_h5/io_internal.h"


#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct sc_h5r {
  char* path;
  hid_t file;
  sc_h5r_dataset* ds;
  int nds, capds;
  char** groups;
  int ngroups, capgroups;
  int failed; /* allocation failure while listing */
  char bad[600]; /* the first dataset that declares more than its storage holds */
  double fsize;  /* the file's size, bytes */
};

/* What a dataset may declare beyond what its storage holds.  HDF5 reads the
 * rows no chunk (or no contiguous block) was written for as fill values, so
 * a few kilobytes of file can declare 2^40 rows, and reading them would take
 * days.  The bound is the allocated storage's capacity, not the file's size:
 * a compressed chunk may hold far more than it takes on disk, and every
 * allocated chunk is counted at its full size.  Uncompressed storage holds
 * no more than the file (HDF5 reads an address past its end as zeros).  The
 * slack allows rows of an extent written before their chunk (a run killed
 * between the two). */
#define SC_H5R_FILL_SLACK ((double)(16 << 20))

/* 0 when the dataset ds (its space s and type t) of a file of fsize bytes
 * declares at most what its storage can hold, plus the slack; else why
 * says so */
static int storage_ok(hid_t ds, hid_t s, hid_t t, double fsize, char* why, size_t whysz) {
  const size_t esize = t >= 0 ? H5Tget_size(t) : 0;
  const hssize_t npts = s >= 0 ? H5Sget_simple_extent_npoints(s) : -1;
  if (npts < 0 || esize == 0) return 1; /* nothing readable is declared */
  const double declared = (double)npts * (double)esize;
  if (declared <= SC_H5R_FILL_SLACK) return 1;
  hid_t dcpl = H5Dget_create_plist(ds);
  const H5D_layout_t layout = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
  double cap = 0;
  const char* how = "its storage";
  if (dcpl >= 0 && H5Pget_external_count(dcpl) > 0) {
    how = "the file (its data is in external files, which are not read)";
  } else if (layout == H5D_CHUNKED) {
    hsize_t cdims[H5S_MAX_RANK], nchunks = 0;
    const int crank = H5Pget_chunk(dcpl, H5S_MAX_RANK, cdims);
    double celems = 1;
    for (int k = 0; k < crank; k++) celems *= (double)cdims[k];
    if (crank > 0 && s >= 0 && H5Dget_num_chunks(ds, s, &nchunks) >= 0)
      cap = (double)nchunks * celems * (double)esize;
    if (H5Pget_nfilters(dcpl) <= 0 && cap > fsize) cap = fsize;
    how = H5Pget_nfilters(dcpl) > 0 ? "its allocated chunks, decompressed" : "its allocated chunks";
  } else if (layout == H5D_CONTIGUOUS || layout == H5D_COMPACT) {
    cap = (double)H5Dget_storage_size(ds);
    if (cap > fsize) cap = fsize;
  } else {
    how = "the file (a virtual dataset's sources are not read)";
  }
  if (dcpl >= 0) H5Pclose(dcpl);
  H5Eclear2(H5E_DEFAULT);
  if (declared <= cap + SC_H5R_FILL_SLACK) return 1;
  snprintf(why, whysz,
           "declares %lld elements of %zu bytes (%.3g bytes), more than %s can hold (%.3g bytes): "
           "the rest would be fill values the file never stored",
           (long long)npts, esize, declared, how, cap);
  return 0;
}

/* "/" + name: H5Lvisit gives paths relative to the root */
static char* abs_path(const char* name) {
  size_t n = strlen(name);
  char* p = sc_malloc(n + 2);
  if (!p) return NULL;
  p[0] = '/';
  memcpy(p + 1, name, n + 1);
  return p;
}

static herr_t visit(hid_t root, const char* name, const H5L_info_t* info, void* data) {
  sc_h5r* r = data;
  if (info->type != H5L_TYPE_HARD) return 0;
  hid_t o = H5Oopen(root, name, H5P_DEFAULT);
  if (o < 0) return 0;
  H5I_type_t type = H5Iget_type(o);
  if (type == H5I_GROUP) {
    if (r->ngroups == r->capgroups) {
      int cap = r->capgroups ? 2 * r->capgroups : 16;
      char** g = sc_calloc((size_t)cap, sizeof *g);
      if (!g) goto oom;
      if (r->ngroups) memcpy(g, r->groups, sizeof *g * (size_t)r->ngroups);
      sc_free(r->groups);
      r->groups = g;
      r->capgroups = cap;
    }
    if (!(r->groups[r->ngroups] = abs_path(name))) goto oom;
    r->ngroups++;
  } else if (type == H5I_DATASET) {
    if (r->nds == r->capds) {
      int cap = r->capds ? 2 * r->capds : 32;
      sc_h5r_dataset* d = sc_calloc((size_t)cap, sizeof *d);
      if (!d) goto oom;
      if (r->nds) memcpy(d, r->ds, sizeof *d * (size_t)r->nds);
      sc_free(r->ds);
      r->ds = d;
      r->capds = cap;
    }
    sc_h5r_dataset* d = &r->ds[r->nds];
    memset(d, 0, sizeof *d);
    if (!(d->path = abs_path(name))) goto oom;
    hid_t t = H5Dget_type(o), s = H5Dget_space(o);
    char why[400];
    if (!r->bad[0] && !storage_ok(o, s, t, r->fsize, why, sizeof why))
      snprintf(r->bad, sizeof r->bad, "%s %s", d->path, why);
    H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    d->numeric = cls == H5T_INTEGER || cls == H5T_FLOAT;
    int rank = s >= 0 ? H5Sget_simple_extent_ndims(s) : -1;
    if (rank < 0 || rank > SC_H5R_MAXRANK) {
      d->numeric = 0; /* unreadable here: listed, never compared */
      rank = 0;
    } else if (rank > 0) {
      hsize_t dims[SC_H5R_MAXRANK];
      H5Sget_simple_extent_dims(s, dims, NULL);
      for (int k = 0; k < rank; k++) d->dims[k] = (long long)dims[k];
    }
    d->rank = rank;
    d->nrows = rank == 0 ? 1 : d->dims[0];
    d->rowlen = 1;
    for (int k = 1; k < rank; k++) d->rowlen *= d->dims[k];
    if (t >= 0) H5Tclose(t);
    if (s >= 0) H5Sclose(s);
    r->nds++;
  }
  H5Oclose(o);
  return 0;
oom:
  H5Oclose(o);
  r->failed = 1;
  return -1;
}

static int cmp_ds(const void* a, const void* b) {
  return strcmp(((const sc_h5r_dataset*)a)->path, ((const sc_h5r_dataset*)b)->path);
}

sc_status sc_h5r_open(const char* path, sc_h5r** out, sc_error* err) {
  *out = NULL;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  sc_h5r* r = sc_calloc(1, sizeof *r);
  if (!r) return sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory");
  r->file = -1;
  r->path = sc_strdup(path);
  if (!r->path) {
    sc_h5r_close(r);
    return sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory");
  }
  /* only a regular file: opening a FIFO would wait for a writer forever */
  struct stat sb;
  const int serr = stat(path, &sb) != 0 ? errno : 0;
  if (serr || !S_ISREG(sb.st_mode)) {
    sc_h5r_close(r);
    return sc_error_set(err, SC_ERR_IO, path, 0, 0, "cannot open the file: %s",
                        serr ? strerror(serr) : "not a regular file (a FIFO, device, socket or directory)");
  }
  r->fsize = (double)sb.st_size;
  r->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (r->file < 0) {
    sc_status st = sc_h5_io_fail(path, err, "open", "the file");
    sc_h5r_close(r);
    return st;
  }
  if (H5Lvisit(r->file, H5_INDEX_NAME, H5_ITER_INC, visit, r) < 0) {
    sc_status st = r->failed ? sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory")
                             : sc_h5_io_fail(path, err, "list", "the objects");
    sc_h5r_close(r);
    return st;
  }
  if (r->bad[0]) {
    sc_status st = sc_error_set(err, SC_ERR_IO, path, 0, 0, "%s", r->bad);
    sc_h5r_close(r);
    return st;
  }
  if (r->nds > 1) qsort(r->ds, (size_t)r->nds, sizeof *r->ds, cmp_ds);
  *out = r;
  return SC_OK;
}

void sc_h5r_close(sc_h5r* r) {
  if (!r) return;
  for (int i = 0; i < r->nds; i++) sc_free(r->ds[i].path);
  for (int i = 0; i < r->ngroups; i++) sc_free(r->groups[i]);
  sc_free(r->ds);
  sc_free(r->groups);
  if (r->file >= 0) H5Fclose(r->file);
  sc_free(r->path);
  sc_free(r);
}

int sc_h5r_ndatasets(const sc_h5r* r) { return r->nds; }
const sc_h5r_dataset* sc_h5r_dataset_at(const sc_h5r* r, int i) { return &r->ds[i]; }

int sc_h5r_find(const sc_h5r* r, const char* path) {
  for (int i = 0; i < r->nds; i++)
    if (!strcmp(r->ds[i].path, path)) return i;
  return -1;
}

int sc_h5r_is_group(const sc_h5r* r, const char* path) {
  if (!strcmp(path, "/")) return 1;
  for (int i = 0; i < r->ngroups; i++)
    if (!strcmp(r->groups[i], path)) return 1;
  return 0;
}

sc_status sc_h5r_read_rows(const sc_h5r* r, int i, long long row0, long long nrows, double* out,
                           sc_error* err) {
  const sc_h5r_dataset* d = &r->ds[i];
  if (!d->numeric) return sc_error_set(err, SC_ERR_IO, r->path, 0, 0, "%s is not numeric", d->path);
  if (row0 < 0 || nrows < 0 || row0 + nrows > d->nrows)
    return sc_error_set(err, SC_ERR_IO, r->path, 0, 0, "%s: rows %lld..%lld out of range", d->path,
                        row0, row0 + nrows);
  if (nrows == 0 || d->rowlen == 0) return SC_OK;
  hid_t ds = H5Dopen2(r->file, d->path, H5P_DEFAULT);
  if (ds < 0) return sc_h5_io_fail(r->path, err, "open dataset", d->path);
  int ok;
  if (d->rank == 0) {
    ok = H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0;
  } else {
    hsize_t off[SC_H5R_MAXRANK] = {0}, cnt[SC_H5R_MAXRANK];
    off[0] = (hsize_t)row0;
    cnt[0] = (hsize_t)nrows;
    for (int k = 1; k < d->rank; k++) cnt[k] = (hsize_t)d->dims[k];
    hid_t fs = H5Dget_space(ds);
    hid_t ms = H5Screate_simple(d->rank, cnt, NULL);
    ok = fs >= 0 && ms >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0 &&
         H5Dread(ds, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, out) >= 0;
    if (ms >= 0) H5Sclose(ms);
    if (fs >= 0) H5Sclose(fs);
  }
  sc_status st = ok ? SC_OK : sc_h5_io_fail(r->path, err, "read dataset", d->path);
  H5Dclose(ds);
  return st;
}

int sc_h5r_attr_int(const sc_h5r* r, const char* name, long long* out) {
  if (H5Aexists(r->file, name) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return 0;
  }
  hid_t a = H5Aopen(r->file, name, H5P_DEFAULT);
  hid_t s = a >= 0 ? H5Aget_space(a) : -1, t = a >= 0 ? H5Aget_type(a) : -1;
  int ok = s >= 0 && t >= 0 && H5Tget_class(t) == H5T_INTEGER &&
           H5Sget_simple_extent_npoints(s) == 1 && H5Aread(a, H5T_NATIVE_LLONG, out) >= 0;
  if (t >= 0) H5Tclose(t);
  if (s >= 0) H5Sclose(s);
  if (a >= 0) H5Aclose(a);
  H5Eclear2(H5E_DEFAULT);
  return ok;
}

/* the strings of the string dataset dpath of the open file f (see
 * sc_h5_read_names); none from a dataset that declares more strings than
 * its storage holds */
static int read_strings(hid_t f, const char* dpath, char*** out) {
  *out = NULL;
  int result = 0;
  hid_t d = -1, ft = -1, sp = -1, mt = -1;
  hsize_t n = 0, fsize = 0;
  char why[400];
  if (H5Lexists(f, "/model", H5P_DEFAULT) <= 0 || H5Lexists(f, dpath, H5P_DEFAULT) <= 0)
    goto done;
  if ((d = H5Dopen2(f, dpath, H5P_DEFAULT)) < 0 || (ft = H5Dget_type(d)) < 0 ||
      (sp = H5Dget_space(d)) < 0 || H5Tget_class(ft) != H5T_STRING ||
      H5Sget_simple_extent_ndims(sp) != 1 || H5Sget_simple_extent_dims(sp, &n, NULL) != 1 ||
      n == 0 || n > INT_MAX / 2 || H5Fget_filesize(f, &fsize) < 0 ||
      !storage_ok(d, sp, ft, (double)fsize, why, sizeof why) ||
      (mt = H5Tcopy(H5T_C_S1)) < 0 ||
      H5Tset_cset(mt, H5Tget_cset(ft)) < 0)
    goto done;
  char** s = calloc((size_t)n, sizeof *s);
  if (!s) {
    result = -1;
    goto done;
  }
  int ok = 0;
  if (H5Tis_variable_str(ft) > 0) {
    char** raw = calloc((size_t)n, sizeof *raw);
    if (!raw) {
      free(s);
      result = -1;
      goto done;
    }
    if (H5Tset_size(mt, H5T_VARIABLE) >= 0 &&
        H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw) >= 0) {
      ok = 1;
      for (hsize_t k = 0; k < n; k++) s[k] = strdup(raw[k] ? raw[k] : "");
      H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, raw);
    }
    free(raw);
  } else {
    size_t sz = H5Tget_size(ft);
    char* buf = sz ? calloc((size_t)n, sz + 1) : NULL;
    if (buf && H5Tset_size(mt, sz + 1) >= 0 && H5Tset_strpad(mt, H5T_STR_NULLTERM) >= 0 &&
        H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0) {
      ok = 1;
      for (hsize_t k = 0; k < n; k++) {
        buf[k * (sz + 1) + sz] = '\0';
        s[k] = strdup(buf + k * (sz + 1));
      }
    }
    free(buf);
  }
  for (hsize_t k = 0; ok && k < n; k++) ok = s[k] != NULL;
  if (ok) {
    *out = s;
    result = (int)n;
  } else {
    sc_h5_free_names(s, (int)n);
  }
done:
  if (mt >= 0) H5Tclose(mt);
  if (sp >= 0) H5Sclose(sp);
  if (ft >= 0) H5Tclose(ft);
  if (d >= 0) H5Dclose(d);
  H5Eclear2(H5E_DEFAULT);
  return result;
}

int sc_h5_read_names(const char* file, const char* dpath, char*** out) {
  *out = NULL;
  H5E_auto2_t efn = NULL;
  void* edata = NULL;
  H5Eget_auto2(H5E_DEFAULT, &efn, &edata);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  const hid_t f = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
  const int n = f >= 0 ? read_strings(f, dpath, out) : 0;
  if (f >= 0) H5Fclose(f);
  H5Eclear2(H5E_DEFAULT);
  H5Eset_auto2(H5E_DEFAULT, efn, edata);
  return n;
}

int sc_h5r_names_equal(const sc_h5r* r, const char* path, char* const* names, int n) {
  char** got = NULL;
  const int m = read_strings(r->file, path, &got);
  if (m < 0) return -1;
  int res = m == n;
  for (int k = 0; res && k < n; k++) res = names[k] && strcmp(got[k], names[k]) == 0;
  sc_h5_free_names(got, m);
  return res;
}

void sc_h5_free_names(char** names, int n) {
  if (!names) return;
  for (int k = 0; k < n; k++) free(names[k]);
  free(names);
}

/* a numeric dataset of the given rank whose rows hold n values */
static int state_shape_ok(const sc_h5r_dataset* ds, int rank, int n) {
  return ds->numeric && ds->rank == rank && ds->rowlen == n && (rank == 1 || ds->dims[1] == n);
}

/* Each ball and free joint's quaternion of a row of /q made a rotation.  A
 * row a run wrote is within rounding of unit norm and is normalized as the
 * step does (the same bits as sc_dyn_normalize_q); an edited one may hold
 * components whose squares overflow (1e200) or underflow (1e-170, and
 * subnormals), which that division would turn into zeros or leave
 * unnormalized, so those are scaled by their largest magnitude first.  A
 * quaternion of zeros names no rotation: refused. */
sc_status sc_h5_read_state(const char* path, long long row, const sc_model* m, double* q,
                           double* v, double* t, long long* row_out, sc_error* err) {
  sc_h5r* r = NULL;
  sc_error e;
  sc_error_clear(&e);
  if (sc_h5r_open(path, &r, &e) != SC_OK)
    return e.code == SC_ERR_NOMEM
               ? sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "%s", e.msg)
               : sc_error_set(err, SC_ERR_SCENE, path, 0, 0, "cannot read it as a simc output (%s)",
                              e.msg);
  sc_status st = SC_OK;
  const int iq = sc_h5r_find(r, "/q"), iv = sc_h5r_find(r, "/v"), it = sc_h5r_find(r, "/time");
  int qn = 0, vn = 0;
  if (iq < 0 || iv < 0 || it < 0) {
    st = sc_error_set(err, SC_ERR_SCENE, path, 0, 0, "not a simc output (no /q, /v or /time)");
  } else if ((qn = sc_h5r_names_equal(r, "/model/q_names", m->q_names, m->nq)) != 1 ||
             (vn = sc_h5r_names_equal(r, "/model/v_names", m->v_names, m->nv)) != 1) {
    st = qn < 0 || vn < 0
             ? sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory reading /model")
             : sc_error_set(err, SC_ERR_SCENE, path, 0, 0,
                            "its coordinates (/model/q_names, /model/v_names) are not this "
                            "scene's (%d positions, %d velocities)",
                            m->nq, m->nv);
  } else if (!state_shape_ok(sc_h5r_dataset_at(r, iq), 2, m->nq) ||
             !state_shape_ok(sc_h5r_dataset_at(r, iv), 2, m->nv) ||
             !state_shape_ok(sc_h5r_dataset_at(r, it), 1, 1)) {
    /* the names can agree while the datasets do not (an edited file): a row
     * is read into this scene's q and v, so its length must be theirs */
    st = sc_error_set(err, SC_ERR_SCENE, path, 0, 0,
                      "its /q, /v and /time are not rows of this scene's %d positions, %d "
                      "velocities and one time",
                      m->nq, m->nv);
  } else {
    const sc_h5r_dataset *dq = sc_h5r_dataset_at(r, iq), *dv = sc_h5r_dataset_at(r, iv),
                         *dt = sc_h5r_dataset_at(r, it);
    long long rows = dq->nrows < dv->nrows ? dq->nrows : dv->nrows;
    if (dt->nrows < rows) rows = dt->nrows;
    const long long k = row < 0 ? rows + row : row;
    if (k < 0 || k >= rows) {
      st = sc_error_set(err, SC_ERR_SCENE, path, 0, 0, "row %lld is not among its rows 0..%lld",
                        row, rows - 1);
    } else if ((st = sc_h5r_read_rows(r, iq, k, 1, q, err)) != SC_OK ||
               (st = sc_h5r_read_rows(r, iv, k, 1, v, err)) != SC_OK ||
               (st = sc_h5r_read_rows(r, it, k, 1, t, err)) != SC_OK) {
      /* located by sc_h5r_read_rows */
    } else {
      int finite = 1;
      for (int i = 0; i < m->nq; i++) finite &= isfinite(q[i]);
      for (int i = 0; i < m->nv; i++) finite &= isfinite(v[i]);
      if (!finite) {
        st = sc_error_set(err, SC_ERR_SCENE, path, 0, 0, "row %lld holds non-finite values", k);
      } else {
        const int j = sc_state_zero_quaternion(m, q);
        if (j >= 0) {
          const int a0 = m->jnt_qadr[j] + (m->jnt_type[j] == SC_JOINT_FREE ? 3 : 0);
          st = sc_error_set(err, SC_ERR_SCENE, path, 0, 0,
                            "row %lld of /q: the quaternion of joint %s (positions %d..%d) is zero, "
                            "no rotation",
                            k, m->jnt_name[j], a0, a0 + 3);
        } else {
          sc_state_normalize_quaternions(m, q);
          *row_out = k;
        }
      }
    }
  }
  sc_h5r_close(r);
  return st;
}
