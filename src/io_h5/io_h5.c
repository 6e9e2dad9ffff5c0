/* io_h5: HDF5 trajectory writer (layout: doc/output.md, io_h5.h).
 *
 * Per-frame datasets are chunked and extendible along the first dimension;
 * frames are buffered in blocks and appended with one hyperslab write per
 * dataset, so the step loop never allocates and HDF5 sees few large writes.
 *
 * Crash behaviour: the file is created with a fixed format version (v1.8
 * objects, readable by any HDF5 >= 1.8 and h5py) and the metadata cache is
 * told not to evict, so dirty metadata (extents, chunk indexes) reaches the
 * disk only at H5Fflush.  Between flushes the on-disk file therefore stays
 * the one of the last flush: raw chunks written meanwhile go either to fresh
 * space or, for a partially filled chunk, rewrite bytes of rows that the old
 * extent already covered with the same values.
 *
 * Determinism: object headers carry no access/modification times
 * (H5Pset_obj_track_times 0) and there are no timestamps in datasets; file
 * space placement depends only on the sequence of writes and flushes. */
#include "io_h5/io_h5.h"

#include "io_h5/io_internal.h"

#include <errno.h>
#include <hdf5.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* per-frame datasets */
enum {
  F_TIME, F_Q, F_V,
  F_EKIN, F_EGRAV, F_ESPRING, F_ETOTAL, F_EDISS, F_EDAMP, F_ENORMAL, F_EFRICTION,
  F_COUNT, F_START, F_PEN, F_PENF,
  F_ITER, F_RESID, F_STATUS, F_FREEIT, F_WALL, F_LSEVAL, F_RELIN, F_SIGN, F_MDISS, F_BIPOT,
  F_BPOS, F_BQUAT,
  F_EACT, F_ELIM, F_EJFRIC, F_ACMD, F_AFORCE, F_JLIM, F_JFRIC,
  F_ECON, F_EQGAP, F_EQFORCE, F_TLEN, F_TFORCE, F_TFRIC,
  F_SUBSTEPS, F_REJECTED, F_SHORTEST,
  NF
};
/* per-contact datasets */
enum { C_BODYA, C_BODYB, C_POINT, C_NORMAL, C_GAP, C_SLIP, C_IMPULSE, C_TORQUE, NC };
/* per-Newton-iteration datasets (output.solver_trace) */
enum {
  T_STEP, T_ITER, T_RESID, T_ALPHA, T_DCOST, T_LSEVAL, T_NSEP, T_NSTICK, T_NSLIDE, T_NCHANGED,
  NT
};

typedef enum { K_F64, K_I32, K_I64 } kind;

typedef struct column {
  const char* path;
  const char* units;
  kind k;
  int rank;        /* 1: [N]; 2: [N, ncols]; 3: [N, ncols / inner, inner] */
  int ncols;       /* row width (1 for rank 1; may be 0 for rank 2) */
  int inner;       /* rank 3: the last dimension */
  int present;
  hid_t ds;
  unsigned char* buf; /* capacity rows x ncols elements */
} column;

struct sc_h5 {
  char* path;
  hid_t file;
  int nq, nv, nbody, ncon_max, contacts;
  column fr[NF];
  column ct[NC];
  column tr[NT];
  int trace;             /* /solver/trace present */
  int fcap, ccap, tcap;  /* buffer capacities: frames, contact rows, trace rows */
  int nbuf, ncbuf, ntbuf; /* buffered frames, contact rows, trace rows */
  long nfile, ncfile, ntfile; /* rows already in the file */
  long nsafe, ncsafe, ntsafe; /* rows on disk as of the last successful H5Fflush */
  int failed;            /* nothing more is written: 1 a write or flush failed,
                            2 stopped before a block that might not fit */
  int reserve_fd;        /* file whose bytes are released before the last close (-1) */
  int blocks_since_flush;
  double flush_seconds;  /* <= 0: no time-based flush */
  struct timespec last_flush;
};

#define FLUSH_EVERY_BLOCKS 8
#define DEFAULT_FLUSH_SECONDS 2.0
#define CONTACT_ROWS_CAP 16384
#define TRACE_ROWS_CAP 4096
/* file growth allowed for metadata (chunk indexes, heaps, headers) per block */
#define METADATA_MARGIN 32768.0

static size_t kind_size(kind k) { return k == K_I32 ? sizeof(int32_t) : 8; }
static hid_t kind_mem(kind k) {
  return k == K_F64 ? H5T_NATIVE_DOUBLE : k == K_I32 ? H5T_NATIVE_INT32 : H5T_NATIVE_INT64;
}
/* explicit little-endian file types: the same bytes on every platform */
static hid_t kind_file(kind k) {
  return k == K_F64 ? H5T_IEEE_F64LE : k == K_I32 ? H5T_STD_I32LE : H5T_STD_I64LE;
}

/* The HDF5 error description to show: the system error's message when the
 * stack holds one (say "No space left on device"), else the innermost
 * (most specific) description. */
static herr_t walk_first(unsigned n, const H5E_error2_t* e, void* data) {
  char* out = data;
  if (!e->desc || out[256]) return 0;
  /* system errors read "..., errno = 2, error message = 'No such file ...', ...":
   * the quoted part is what the user needs */
  const char* msg = strstr(e->desc, "error message = '");
  if (msg) {
    msg += strlen("error message = '");
    const char* end = strchr(msg, '\'');
    size_t len = end ? (size_t)(end - msg) : strlen(msg);
    if (len > 255) len = 255;
    memcpy(out, msg, len);
    out[len] = '\0';
    out[256] = 1; /* final */
  } else if (n == 0) {
    strncpy(out, e->desc, 255);
    out[255] = '\0';
  }
  return 0;
}

sc_status sc_h5_io_fail(const char* path, sc_error* err, const char* what, const char* obj) {
  int sys = errno; /* the writer clears errno before its writes */
  char detail[257] = ""; /* the message, and at [256] whether it is final */
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk_first, detail);
  /* some raw-data write paths fail without an HDF5 error record */
  if (!detail[0] && sys != 0) snprintf(detail, 256, "%s", strerror(sys));
  H5Eclear2(H5E_DEFAULT);
  return sc_error_set(err, SC_ERR_IO, path, 0, 0, "HDF5: cannot %s %s%s%s", what, obj,
                      detail[0] ? ": " : "", detail);
}

static hid_t vlen_str_type(void) {
  hid_t t = H5Tcopy(H5T_C_S1);
  if (t < 0) return t;
  if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
    H5Tclose(t);
    return -1;
  }
  return t;
}

/* write (create or overwrite) a scalar variable-length UTF-8 string attribute */
static int attr_str(hid_t obj, const char* name, const char* val) {
  if (!val) val = "";
  hid_t t = vlen_str_type(), s = H5Screate(H5S_SCALAR), a = -1;
  int ok = t >= 0 && s >= 0;
  if (ok) {
    a = H5Aexists(obj, name) > 0 ? H5Aopen(obj, name, H5P_DEFAULT)
                                 : H5Acreate2(obj, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    ok = a >= 0 && H5Awrite(a, t, &val) >= 0;
  }
  if (a >= 0) H5Aclose(a);
  if (s >= 0) H5Sclose(s);
  if (t >= 0) H5Tclose(t);
  return ok;
}

static int attr_num(hid_t obj, const char* name, kind k, int n, const void* vals) {
  hsize_t dim = (hsize_t)n;
  hid_t s = n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &dim, NULL);
  hid_t a = s >= 0 ? H5Acreate2(obj, name, kind_file(k), s, H5P_DEFAULT, H5P_DEFAULT) : -1;
  int ok = a >= 0 && H5Awrite(a, kind_mem(k), vals) >= 0;
  if (a >= 0) H5Aclose(a);
  if (s >= 0) H5Sclose(s);
  return ok;
}
static int attr_dbl(hid_t obj, const char* name, double v) { return attr_num(obj, name, K_F64, 1, &v); }
static int attr_int(hid_t obj, const char* name, int v) {
  int32_t x = (int32_t)v;
  return attr_num(obj, name, K_I32, 1, &x);
}

static hid_t make_group(hid_t file, const char* name) {
  hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
  if (gcpl < 0) return -1;
  hid_t g = -1;
  if (H5Pset_obj_track_times(gcpl, 0) >= 0)
    g = H5Gcreate2(file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
  H5Pclose(gcpl);
  return g;
}

/* grp/name: a fixed-size numeric dataset of rank 1 or 2 ([n] or [n, ncols]),
 * contiguous, written at once */
static sc_status write_fixed(sc_h5* h, hid_t grp, const char* obj, const char* name, kind k,
                             int n, int ncols, const void* data, const char* units,
                             sc_error* err) {
  hsize_t dims[2] = {(hsize_t)n, (hsize_t)ncols};
  hid_t s = H5Screate_simple(ncols > 0 ? 2 : 1, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
  hid_t ds = -1;
  int ok = s >= 0 && dcpl >= 0 && H5Pset_obj_track_times(dcpl, 0) >= 0;
  if (ok) ds = H5Dcreate2(grp, name, kind_file(k), s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  ok = ok && ds >= 0 &&
       (n == 0 || H5Dwrite(ds, kind_mem(k), H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
  ok = ok && attr_str(ds, "units", units);
  if (ds >= 0) H5Dclose(ds);
  if (dcpl >= 0) H5Pclose(dcpl);
  if (s >= 0) H5Sclose(s);
  if (ok) return SC_OK;
  char what[96];
  snprintf(what, sizeof what, "dataset %s/%s", obj, name);
  return sc_h5_io_fail(h->path, err, "write", what);
}

/* /model/<name>: 1-D array of strings; NULL entries are written as "" */
static sc_status write_names(sc_h5* h, hid_t grp, const char* name, char* const* names, int n,
                             sc_error* err) {
  const char** tmp = sc_calloc((size_t)(n > 0 ? n : 1), sizeof *tmp);
  if (!tmp) return sc_error_set(err, SC_ERR_NOMEM, h->path, 0, 0, "out of memory");
  for (int i = 0; i < n; i++) tmp[i] = (names && names[i]) ? names[i] : "";
  hsize_t dim = (hsize_t)n;
  hid_t t = vlen_str_type(), s = H5Screate_simple(1, &dim, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
  /* the strings' conversion buffer sized to them: HDF5's default, 1 MiB
   * allocated zeroed for every such write, was a fifth of the instructions
   * of loading and opening humanoid.xml */
  hid_t ds = -1, dxpl = H5Pcreate(H5P_DATASET_XFER);
  int ok = t >= 0 && s >= 0 && dcpl >= 0 && dxpl >= 0 && H5Pset_obj_track_times(dcpl, 0) >= 0 &&
           H5Pset_buffer(dxpl, 4096 + 64 * (size_t)n, NULL, NULL) >= 0;
  if (ok) ds = H5Dcreate2(grp, name, t, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  ok = ok && ds >= 0 && (n == 0 || H5Dwrite(ds, t, H5S_ALL, H5S_ALL, dxpl, tmp) >= 0);
  ok = ok && attr_str(ds, "units", "none");
  if (ds >= 0) H5Dclose(ds);
  if (dxpl >= 0) H5Pclose(dxpl);
  if (dcpl >= 0) H5Pclose(dcpl);
  if (s >= 0) H5Sclose(s);
  if (t >= 0) H5Tclose(t);
  sc_free(tmp);
  if (!ok) {
    char obj[64];
    snprintf(obj, sizeof obj, "dataset /model/%s", name);
    return sc_h5_io_fail(h->path, err, "write", obj);
  }
  return SC_OK;
}

static void col_init(column* c, const char* path, const char* units, kind k, int rank, int ncols) {
  c->path = path;
  c->units = units;
  c->k = k;
  c->rank = rank;
  c->ncols = rank == 1 ? 1 : ncols;
  c->inner = 1;
  c->present = 1;
  c->ds = -1;
  c->buf = NULL;
}

/* rows per chunk: about 64 KiB chunks, between 16 and 1024 rows */
static hsize_t chunk_rows(const column* c) {
  size_t row = kind_size(c->k) * (size_t)(c->ncols > 0 ? c->ncols : 1);
  size_t r = 65536 / row;
  if (r > 1024) r = 1024;
  if (r < 16) r = 16;
  return (hsize_t)r;
}

/* the dataset's dimensions with nrows rows; returns the rank */
static int col_dims(const column* c, hsize_t nrows, hsize_t dims[3]) {
  dims[0] = nrows;
  dims[1] = (hsize_t)(c->rank == 3 ? c->ncols / c->inner : c->ncols);
  dims[2] = (hsize_t)c->inner;
  return c->rank;
}

static sc_status col_create(sc_h5* h, column* c, int cap, sc_error* err) {
  size_t n = (size_t)cap * (size_t)(c->ncols > 0 ? c->ncols : 1);
  c->buf = sc_calloc(n, kind_size(c->k));
  if (!c->buf) return sc_error_set(err, SC_ERR_NOMEM, h->path, 0, 0, "out of memory (%s buffer)", c->path);
  /* HDF5 requires chunk dims > 0, and a chunk may not exceed a fixed maximum
   * dimension, so a zero-width [N, 0] dataset gets an unlimited second dim */
  hsize_t dims[3], maxd[3], chunk[3];
  col_dims(c, 0, dims);
  col_dims(c, H5S_UNLIMITED, maxd);
  col_dims(c, chunk_rows(c), chunk);
  for (int i = 1; i < c->rank; i++)
    if (dims[i] == 0) {
      maxd[i] = H5S_UNLIMITED;
      chunk[i] = 1;
    }
  hid_t s = H5Screate_simple(c->rank, dims, maxd), dcpl = H5Pcreate(H5P_DATASET_CREATE);
  hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
  /* no raw-data chunk cache: each block goes to the file in its own write,
   * so a write that fails (full disk) leaves no dirty chunk behind that a
   * later shrink or close would try, and fail, to write again */
  int ok = s >= 0 && dcpl >= 0 && dapl >= 0 && H5Pset_chunk(dcpl, c->rank, chunk) >= 0 &&
           H5Pset_obj_track_times(dcpl, 0) >= 0 &&
           H5Pset_chunk_cache(dapl, 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT) >= 0;
  if (ok) c->ds = H5Dcreate2(h->file, c->path, kind_file(c->k), s, H5P_DEFAULT, dcpl, dapl);
  if (dapl >= 0) H5Pclose(dapl);
  ok = ok && c->ds >= 0 && attr_str(c->ds, "units", c->units);
  if (dcpl >= 0) H5Pclose(dcpl);
  if (s >= 0) H5Sclose(s);
  if (!ok) {
    char obj[96];
    snprintf(obj, sizeof obj, "dataset %s", c->path);
    return sc_h5_io_fail(h->path, err, "create", obj);
  }
  return SC_OK;
}

/* extend c to start + n rows and write n buffered rows at start */
static sc_status col_append(sc_h5* h, column* c, long start, int n, sc_error* err) {
  errno = 0;
  hsize_t dims[3], cnt[3], off[3] = {(hsize_t)start, 0, 0};
  col_dims(c, (hsize_t)(start + n), dims);
  col_dims(c, (hsize_t)n, cnt);
  if (H5Dset_extent(c->ds, dims) < 0) goto fail;
  if (n == 0 || c->ncols == 0) return SC_OK;
  hid_t fs = H5Dget_space(c->ds);
  if (fs < 0) goto fail;
  hid_t ms = H5Screate_simple(c->rank, cnt, NULL);
  int ok = ms >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0 &&
           H5Dwrite(c->ds, kind_mem(c->k), ms, fs, H5P_DEFAULT, c->buf) >= 0;
  if (ms >= 0) H5Sclose(ms);
  H5Sclose(fs);
  if (ok) return SC_OK;
fail:;
  char obj[96];
  snprintf(obj, sizeof obj, "dataset %s", c->path);
  return sc_h5_io_fail(h->path, err, "append to", obj);
}

/* Bytes the next block and a flush may add to the file, at most: the rows,
 * one fresh chunk per dataset, and the metadata. */
static double block_need(const sc_h5* h) {
  double need = METADATA_MARGIN;
  for (int i = 0; i < NF + NC + NT; i++) {
    const column* c = i < NF ? &h->fr[i] : (i < NF + NC ? &h->ct[i - NF] : &h->tr[i - NF - NC]);
    if (!c->present || (i >= NF + NC && !h->trace)) continue;
    double row = (double)kind_size(c->k) * (c->ncols > 0 ? c->ncols : 1);
    long n0 = i < NF ? h->nfile : (i < NF + NC ? h->ncfile : h->ntfile);
    long n = i < NF ? h->nbuf : (i < NF + NC ? h->ncbuf : h->ntbuf);
    long cr = (long)chunk_rows(c);
    long fresh = (n0 + n + cr - 1) / cr - (n0 + cr - 1) / cr; /* chunks first touched */
    need += row * (double)(fresh * cr);
  }
  return need;
}

/* Room for the next block?  HDF5 does not recover from a write that fails
 * half-way (full disk, file size limit): its later flushes fail too and the
 * file may be left unreadable.  So the writer stops before, while the file
 * is still consistent, and closes it with the space held in reserve. */
static sc_status check_space(sc_h5* h, sc_error* err) {
  double need = block_need(h), avail = INFINITY;
  const char* what = "free space on the file system";
  struct statvfs vfs;
  int fd = -1;
  void* handle = NULL;
  if (H5Fget_vfd_handle(h->file, H5P_DEFAULT, &handle) >= 0 && handle) fd = *(int*)handle;
  if (fd >= 0 && fstatvfs(fd, &vfs) == 0) avail = (double)vfs.f_bavail * (double)vfs.f_frsize;
  struct rlimit rl;
  hsize_t size = 0;
  if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      H5Fget_filesize(h->file, &size) >= 0) {
    double room = (double)rl.rlim_cur - (double)size;
    if (room < avail) {
      avail = room;
      what = "room under the file size limit (RLIMIT_FSIZE)";
    }
  }
  H5Eclear2(H5E_DEFAULT);
  if (avail >= need) return SC_OK;
  h->failed = 2;
  return sc_error_set(err, SC_ERR_IO, h->path, 0, 0,
                      "no space left for the output: %.0f bytes of %s, the next block of frames "
                      "needs up to %.0f",
                      avail > 0 ? avail : 0.0, what, need);
}

/* append the buffered frames, contact rows and trace rows */
static sc_status write_block(sc_h5* h, sc_error* err) {
  if (h->nbuf == 0 && h->ncbuf == 0 && h->ntbuf == 0) return SC_OK;
  sc_status st = check_space(h, err);
  if (st != SC_OK) return st;
  for (int i = 0; i < NT && h->trace; i++)
    if ((st = col_append(h, &h->tr[i], h->ntfile, h->ntbuf, err)) != SC_OK) goto fail;
  for (int i = 0; i < NC; i++) {
    if (!h->ct[i].present) continue;
    if ((st = col_append(h, &h->ct[i], h->ncfile, h->ncbuf, err)) != SC_OK) goto fail;
  }
  for (int i = 0; i < NF; i++) {
    if (!h->fr[i].present) continue;
    if ((st = col_append(h, &h->fr[i], h->nfile, h->nbuf, err)) != SC_OK) goto fail;
  }
  h->nfile += h->nbuf;
  h->ncfile += h->ncbuf;
  h->ntfile += h->ntbuf;
  h->nbuf = h->ncbuf = h->ntbuf = 0;
  h->blocks_since_flush++;
  return SC_OK;
fail:
  h->failed = 1;
  return st;
}

static double seconds_since(const struct timespec* t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static sc_status flush_file(sc_h5* h, sc_error* err) {
  errno = 0;
  if (H5Fflush(h->file, H5F_SCOPE_GLOBAL) < 0) {
    h->failed = 1;
    return sc_h5_io_fail(h->path, err, "flush", "the file");
  }
  h->nsafe = h->nfile;
  h->ncsafe = h->ncfile;
  h->ntsafe = h->ntfile;
  h->blocks_since_flush = 0;
  clock_gettime(CLOCK_MONOTONIC, &h->last_flush);
  return SC_OK;
}

/* a handle that failed to write refuses further writes: the rows of a
 * partial block must not be appended after rows that never reached the disk */
static sc_status refuse_failed(const sc_h5* h, sc_error* err) {
  return sc_error_set(err, SC_ERR_IO, h->path, 0, 0,
                      "HDF5: an earlier write to the file failed; nothing more is written");
}

sc_status sc_h5_flush(sc_h5* h, sc_error* err) {
  if (h->failed) return refuse_failed(h, err);
  sc_status st = write_block(h, err);
  if (st != SC_OK) return st;
  return flush_file(h, err);
}

static sc_status write_root_attrs(sc_h5* h, const sc_model* m, const sc_data* d,
                                  const sc_h5_meta* meta) {
  const sc_options* o = &m->opt;
  hid_t r = h->file;
  int ok = attr_str(r, "format", "simc-trajectory") &&
           attr_int(r, "format_version", SC_H5_FORMAT_VERSION) &&
           attr_str(r, "simc_version", meta ? meta->simc_version : NULL) &&
           attr_str(r, "scene_name", m->name) && attr_str(r, "scene_path", m->scene_path) &&
           attr_str(r, "scene_yaml", m->scene_yaml) &&
           (meta && meta->input_digest ? attr_str(r, "input_digest", meta->input_digest)
                                       : !m->input_digest[0] || attr_str(r, "input_digest", m->input_digest)) &&
           (!m->ignored || attr_str(r, "ignored", m->ignored)) &&
           (!m->approximated || attr_str(r, "approximated", m->approximated)) &&
           attr_str(r, "command_line", meta ? meta->command_line : NULL) &&
           (!meta || !meta->initial_state ||
            attr_str(r, "initial_state", meta->initial_state)) &&
           attr_str(r, "solver", o->solver == SC_SOLVER_LCP ? "lcp" : "newton") &&
           attr_str(r, "scheme", sc_scheme_name(o->scheme)) &&
           attr_str(r, "contact_model", o->solver == SC_SOLVER_LCP                ? "lcp"
                                        : o->contact_model == SC_MODEL_LAGGED    ? "lagged"
                                        : o->contact_model == SC_MODEL_SIMILAR ? "similar"
                                                                               : "sap") &&
           attr_str(r, "contact_theta", o->contact_theta == SC_CONTACT_THETA_AUTO     ? "auto"
                                        : o->contact_theta == SC_CONTACT_THETA_SCHEME ? "scheme"
                                                                                       : "value") &&
           (o->contact_theta > 0 ? attr_dbl(r, "contact_theta_value", o->contact_theta) : 1) &&
           attr_dbl(r, "near_rigid_depth", o->near_rigid_depth) &&
           attr_dbl(r, "near_rigid_beta_min", o->beta_min) &&
           attr_int(r, "contact_passes", o->contact_passes) &&
           attr_int(r, "relinearize", o->relinearize) &&
           attr_dbl(r, "penetration_warning", o->penetration_warning) &&
           attr_int(r, "speculative", o->speculative) &&
           attr_int(r, "midstep_jacobian", o->midstep_jacobian) &&
           attr_dbl(r, "stiction_anchor", o->stiction_anchor) &&
           attr_dbl(r, "restitution_velocity", sc_model_restitution_velocity(o)) &&
           attr_dbl(r, "theta_q", o->theta_q) && attr_dbl(r, "theta_v", o->theta_v) &&
           attr_dbl(r, "theta_vq", o->theta_vq) && attr_dbl(r, "time_step", o->dt) &&
           attr_dbl(r, "duration", o->duration) && attr_int(r, "output_every", o->output_every) &&
           attr_num(r, "gravity", K_F64, 3, o->gravity) &&
           attr_dbl(r, "newton_tol", o->newton_tol) && attr_int(r, "newton_maxit", o->newton_maxit) &&
           attr_dbl(r, "contact_tol", o->contact_tol) &&
           attr_int(r, "contact_maxit", o->contact_maxit) &&
           attr_str(r, "on_failure", o->on_failure == SC_ON_FAILURE_WARN ? "warn" : "abort") &&
           attr_int(r, "lcp_directions", o->lcp_directions) &&
           attr_int(r, "lcp_warm_start", o->lcp_warm_start) &&
           attr_dbl(r, "lcp_max_memory", o->lcp_max_memory) && attr_dbl(r, "sigma", o->sigma) &&
           attr_dbl(r, "beta", o->beta) && attr_dbl(r, "margin", o->margin) &&
           attr_int(r, "ncon_max", d->ncon_max) &&
           attr_int(r, "output_contacts", o->output_contacts ? 1 : 0) &&
           attr_str(r, "status", "running");
  /* error control's settings: only in its runs */
  if (ok && o->accuracy > 0)
    ok = attr_dbl(r, "accuracy", o->accuracy) &&
         attr_dbl(r, "min_step", o->min_step);
  /* the step near-rigid laws are written for: in every run that sets it */
  if (ok && o->reg_step > 0) ok = attr_dbl(r, "regularization_step", o->reg_step);
  return ok ? SC_OK : SC_ERR_IO;
}

static void free_handle(sc_h5* h) {
  for (int i = 0; i < NF; i++) {
    if (h->fr[i].ds >= 0) H5Dclose(h->fr[i].ds);
    sc_free(h->fr[i].buf);
  }
  for (int i = 0; i < NC; i++) {
    if (h->ct[i].ds >= 0) H5Dclose(h->ct[i].ds);
    sc_free(h->ct[i].buf);
  }
  for (int i = 0; i < NT; i++) {
    if (h->tr[i].ds >= 0) H5Dclose(h->tr[i].ds);
    sc_free(h->tr[i].buf);
  }
  if (h->file >= 0) H5Fclose(h->file);
  sc_free(h->path);
  sc_free(h);
}

/* file access: fixed format version, strong close, no metadata eviction */
static hid_t make_fapl(void) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl < 0) return -1;
  H5AC_cache_config_t cc;
  memset(&cc, 0, sizeof cc);
  cc.version = H5AC__CURR_CACHE_CONFIG_VERSION;
  int ok = H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) >= 0 &&
           H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0 && H5Pget_mdc_config(fapl, &cc) >= 0;
  if (ok) {
    cc.evictions_enabled = 0;
    cc.incr_mode = H5C_incr__off;
    cc.flash_incr_mode = H5C_flash_incr__off;
    cc.decr_mode = H5C_decr__off;
    ok = H5Pset_mdc_config(fapl, &cc) >= 0;
  }
  if (!ok) {
    H5Pclose(fapl);
    return -1;
  }
  return fapl;
}

/* /model/body_parent and /model/geometry/{body,shape,size,position,orientation}:
 * enough to draw any file without its scene */
/* /model/commands and /model/actuators: the tables the run's inputs came
 * from (a CSV or HDF5 file a scene names is not in the scene's text), so
 * that the file alone says what drove the run */
static sc_status write_actuation(sc_h5* h, hid_t model, const sc_model* m, sc_error* err) {
  sc_status st = SC_OK;
  const int nc = m->ncmd, na = m->nact;
  int32_t* iv = sc_calloc((size_t)(nc > na ? nc : na) + 2, sizeof *iv);
  char** str = sc_calloc((size_t)(nc > na ? nc : na) + 1, sizeof *str);
  hid_t g = -1;
  if (!iv || !str) {
    st = sc_error_set(err, SC_ERR_NOMEM, h->path, 0, 0, "out of memory");
    goto done;
  }
  if (nc > 0) {
    const char* G = "/model/commands";
    if ((g = make_group(model, "commands")) < 0) {
      st = sc_h5_io_fail(h->path, err, "create", "group /model/commands");
      goto done;
    }
    for (int c = 0; c < nc; c++) {
      str[c] = m->cmd_interp[c] == SC_INTERP_HOLD ? "hold" : "linear";
      iv[c] = m->cmd_adr[c];
    }
    iv[nc] = m->ncmddata;
    if ((st = write_names(h, model, "commands/names", m->cmd_name, nc, err)) != SC_OK ||
        (st = write_names(h, model, "commands/interpolation", str, nc, err)) != SC_OK ||
        (st = write_fixed(h, g, G, "start", K_I32, nc + 1, 0, iv, "1", err)) != SC_OK ||
        (st = write_fixed(h, g, G, "time", K_F64, m->ncmddata, 0, m->cmd_time, "s", err)) != SC_OK ||
        (st = write_fixed(h, g, G, "value", K_F64, m->ncmddata, 0, m->cmd_value,
                          "the input's unit (see /actuator/command)", err)) != SC_OK)
      goto done;
    if (!attr_str(g, "description",
                  "command c's samples are time and value [start[c], start[c + 1]); between "
                  "samples linear or held (interpolation), outside them the end values"))
      st = sc_h5_io_fail(h->path, err, "write", "attributes of /model/commands");
    H5Gclose(g);
    g = -1;
    if (st != SC_OK) goto done;
  }
  if (m->any_limit &&
      (st = write_fixed(h, model, "/model", "joint_range", K_F64, m->njnt, 2, m->jnt_range,
                        "m or rad (per joint; +-inf: no limit on that side)", err)) != SC_OK)
    goto done;
  if (na > 0) {
    const char* G = "/model/actuators";
    if ((g = make_group(model, "actuators")) < 0) {
      st = sc_h5_io_fail(h->path, err, "create", "group /model/actuators");
      goto done;
    }
    for (int a = 0; a < na; a++) {
      str[a] = (char*)sc_actuator_type_name((sc_actuator_type)m->act_type[a]);
      iv[a] = m->act_dof[a];
    }
    if ((st = write_names(h, model, "actuators/type", str, na, err)) != SC_OK ||
        (st = write_fixed(h, g, G, "dof", K_I32, na, 0, iv, "1", err)) != SC_OK)
      goto done;
    for (int a = 0; a < na; a++) iv[a] = m->act_cmd[a];
    if ((st = write_fixed(h, g, G, "command", K_I32, na, 0, iv, "1", err)) != SC_OK ||
        (st = write_fixed(h, g, G, "gear", K_F64, na, 0, m->act_gear, "1", err)) != SC_OK ||
        (st = write_fixed(h, g, G, "kp", K_F64, na, 0, m->act_kp, "N/m or N m/rad", err)) !=
            SC_OK ||
        (st = write_fixed(h, g, G, "kd", K_F64, na, 0, m->act_kd, "N s/m or N m s/rad", err)) !=
            SC_OK ||
        (st = write_fixed(h, g, G, "effort", K_F64, na, 2, m->act_effort, "N or N m", err)) !=
            SC_OK ||
        (st = write_fixed(h, g, G, "input", K_F64, na, 2, m->act_input,
                          "the constant input and commanded velocity when command is -1", err)) !=
            SC_OK)
      goto done;
    if (!attr_str(g, "description",
                  "one row per actuator (/model/actuator_names): type, dof (index into "
                  "/model/v_names), command (index into /model/commands/names, -1: the constant "
                  "input), gear (motor), kp, kd (servos), effort bounds (+-inf: none)"))
      st = sc_h5_io_fail(h->path, err, "write", "attributes of /model/actuators");
  }
done:
  if (g >= 0) H5Gclose(g);
  sc_free(iv);
  sc_free(str);
  return st;
}

/* /model/meshes/<k>: each mesh once, as read (its triangles, drawn by the
 * viewer) and its convex hull (what collides; faces fanned into triangles) */
static sc_status write_meshes(sc_h5* h, hid_t model, const sc_model* m, sc_error* err) {
  _Static_assert(sizeof(int) == sizeof(int32_t), "mesh indices are written as int32");
  hid_t top = make_group(model, "meshes");
  if (top < 0) return sc_h5_io_fail(h->path, err, "create", "group /model/meshes");
  sc_status st = SC_OK;
  int* tri = NULL;
  for (int k = 0; !st && k < m->nmesh; k++) {
    const sc_mesh* me = &m->mesh[k];
    char name[64];
    snprintf(name, sizeof name, "/model/meshes/%d", k);
    hid_t g = make_group(top, name + sizeof "/model/meshes");
    if (g < 0) {
      st = sc_h5_io_fail(h->path, err, "create", name);
      break;
    }
    int nt = 0;
    for (int f = 0; f < me->hnface; f++) nt += me->hface_adr[f + 1] - me->hface_adr[f] - 2;
    tri = sc_malloc(3 * (size_t)(nt > 0 ? nt : 1) * sizeof *tri);
    if (!tri) st = sc_error_set(err, SC_ERR_NOMEM, h->path, 0, 0, "out of memory");
    for (int f = 0, t = 0; !st && f < me->hnface; f++) /* fans keep the outward winding */
      for (int i = me->hface_adr[f] + 1; i + 1 < me->hface_adr[f + 1]; i++, t++) {
        tri[3 * t] = me->hface[me->hface_adr[f]];
        tri[3 * t + 1] = me->hface[i];
        tri[3 * t + 2] = me->hface[i + 1];
      }
    if (!st) st = write_fixed(h, g, name, "vertices", K_F64, me->nvert, 3, me->vert, "m", err);
    if (!st) st = write_fixed(h, g, name, "faces", K_I32, me->nface, 3, me->face, "1", err);
    if (!st) st = write_fixed(h, g, name, "hull_vertices", K_F64, me->hnvert, 3, me->hvert, "m", err);
    if (!st) st = write_fixed(h, g, name, "hull_faces", K_I32, nt, 3, tri, "1", err);
    if (!st && (!attr_str(g, "file", me->file) || !attr_int(g, "closed", me->closed) ||
                !attr_dbl(g, "volume", me->volume) ||
                !attr_num(g, "centroid", K_F64, 3, me->centroid) ||
                !attr_str(g, "description",
                          "a mesh in its geometry's frame (m): vertices and faces (triangles, "
                          "indices into vertices, counter-clockwise seen from outside) as "
                          "read and scaled; hull_vertices and hull_faces: its convex hull, "
                          "which is what collides; volume (m^3) and centroid (m) of the "
                          "solid its mass properties come from: the mesh when closed is 1, "
                          "else its hull")))
      st = sc_h5_io_fail(h->path, err, "write", name);
    sc_free(tri);
    tri = NULL;
    H5Gclose(g);
  }
  H5Gclose(top);
  return st;
}

/* /model/springs: the linear spring-dampers' attachment points and laws, so
 * that a file alone can draw them stretching with the run (joint springs act
 * on a joint's coordinate: the joint's own motion shows them) */
static sc_status write_springs(sc_h5* h, hid_t model, const sc_model* m, sc_error* err) {
  const int n = m->nlspring;
  if (n <= 0) return SC_OK;
  const char* G = "/model/springs";
  int32_t* iv = sc_calloc(2 * (size_t)n, sizeof *iv);
  double* pa = sc_calloc(3 * (size_t)n, sizeof *pa);
  double* pb = sc_calloc(3 * (size_t)n, sizeof *pb);
  sc_status st = SC_OK;
  hid_t g = -1;
  if (!iv || !pa || !pb) {
    st = sc_error_set(err, SC_ERR_NOMEM, h->path, 0, 0, "out of memory");
    goto done;
  }
  for (int s = 0; s < n; s++) {
    iv[2 * s] = m->lspring_body[2 * s];
    iv[2 * s + 1] = m->lspring_body[2 * s + 1];
    for (int k = 0; k < 3; k++) {
      pa[3 * s + k] = m->lspring_point[6 * s + k];
      pb[3 * s + k] = m->lspring_point[6 * s + 3 + k];
    }
  }
  if ((g = make_group(model, "springs")) < 0) {
    st = sc_h5_io_fail(h->path, err, "create", "group /model/springs");
    goto done;
  }
  if ((st = write_fixed(h, g, G, "body", K_I32, n, 2, iv, "1", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "point_a", K_F64, n, 3, pa, "m", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "point_b", K_F64, n, 3, pb, "m", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "stiffness", K_F64, n, 0, m->lspring_k, "N/m", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "damping", K_F64, n, 0, m->lspring_c, "N s/m", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "rest_length", K_F64, n, 0, m->lspring_rest, "m", err)) != SC_OK)
    goto done;
  if (!attr_str(g, "description",
                "one row per linear spring-damper: body (its two bodies a, b, indices into "
                "/model/body_names; 0 = the world), point_a and point_b (the attachment "
                "points in the frames of a and b; of the world: world coordinates), "
                "stiffness, damping, rest_length"))
    st = sc_h5_io_fail(h->path, err, "write", "attributes of /model/springs");
done:
  if (g >= 0) H5Gclose(g);
  sc_free(iv);
  sc_free(pa);
  sc_free(pb);
  return st;
}

/* /model/constraints: the equality constraints, so that a file alone says
 * what each row of /constraint/violation and /constraint/force holds */
static sc_status write_constraints(sc_h5* h, hid_t model, const sc_model* m, sc_error* err) {
  const int n = m->neq;
  if (n <= 0) return SC_OK;
  static const char* const types[] = {"connect", "weld", "joint", "distance", "tendon"};
  const char* G = "/model/constraints";
  int32_t* iv = sc_calloc(4 * (size_t)n, sizeof *iv);
  const char** tn = sc_calloc((size_t)n, sizeof *tn);
  sc_status st = SC_OK;
  hid_t g = -1;
  if (!iv || !tn) {
    st = sc_error_set(err, SC_ERR_NOMEM, h->path, 0, 0, "out of memory");
    goto done;
  }
  for (int e = 0; e < n; e++) {
    iv[2 * e] = m->eq_obj[2 * e];
    iv[2 * e + 1] = m->eq_obj[2 * e + 1];
    iv[2 * n + 2 * e] = m->eq_rowadr[e];
    iv[2 * n + 2 * e + 1] = m->eq_nrow[e];
    tn[e] = types[m->eq_type[e]];
  }
  if ((g = make_group(model, "constraints")) < 0) {
    st = sc_h5_io_fail(h->path, err, "create", "group /model/constraints");
    goto done;
  }
  if ((st = write_names(h, g, "name", m->eq_name, n, err)) != SC_OK ||
      (st = write_names(h, g, "type", (char* const*)tn, n, err)) != SC_OK ||
      (st = write_fixed(h, g, G, "object", K_I32, n, 2, iv, "1", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "rows", K_I32, n, 2, iv + 2 * n, "1", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "stiffness", K_F64, n, 0, m->eq_k, "N/m, N m/rad or the joint's", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "dissipation_time", K_F64, n, 0, m->eq_taud, "s", err)) != SC_OK)
    goto done;
  if (!attr_str(g, "description",
                "one row per equality constraint: name, type (connect, weld, joint, distance), "
                "object (connect, weld, distance: bodies a and b, indices into "
                "/model/body_names, 0 = the world; joint: the two joints, indices into "
                "/model/joint_names, -1 = none; tendon: the two tendons, indices into "
                "/model/tendon_names, -1 = none), rows (the first of its rows in "
                "/constraint/violation and /constraint/force, and how many), stiffness "
                "(inf: rigid), dissipation_time"))
    st = sc_h5_io_fail(h->path, err, "write", "attributes of /model/constraints");
done:
  if (g >= 0) H5Gclose(g);
  sc_free(iv);
  sc_free(tn);
  return st;
}

static sc_status write_geometry(sc_h5* h, hid_t model, const sc_model* m, sc_error* err) {
  int nb = m->nbody, ng = m->ngeom;
  size_t nbuf = (size_t)(nb > ng ? nb : ng);
  int32_t* iv = sc_calloc(nbuf + 1, sizeof *iv);
  double* q4 = sc_calloc(4 * (size_t)ng + 1, sizeof *q4);
  char** shapes = sc_calloc((size_t)ng + 1, sizeof *shapes);
  sc_status st = SC_OK;
  hid_t g = -1;
  if (!iv || !q4 || !shapes) {
    st = sc_error_set(err, SC_ERR_NOMEM, h->path, 0, 0, "out of memory");
    goto done;
  }
  for (int b = 0; b < nb; b++) iv[b] = m->body_parent[b];
  if ((st = write_fixed(h, model, "/model", "body_parent", K_I32, nb, 0, iv, "1", err)) != SC_OK)
    goto done;
  g = make_group(model, "geometry");
  if (g < 0) {
    st = sc_h5_io_fail(h->path, err, "create", "group /model/geometry");
    goto done;
  }
  for (int i = 0; i < ng; i++) {
    iv[i] = m->geom_body[i] == 0 ? -1 : m->geom_body[i];
    sc_sp_mat3_to_quat(q4 + 4 * i, m->geom_rot + 9 * i);
    shapes[i] = (char*)sc_geom_type_name(m->geom_type[i]);
  }
  const char* G = "/model/geometry";
  if ((st = write_fixed(h, g, G, "body", K_I32, ng, 0, iv, "1", err)) != SC_OK ||
      (st = write_names(h, model, "geometry/shape", shapes, ng, err)) != SC_OK ||
      (st = write_fixed(h, g, G, "size", K_F64, ng, 3, m->geom_size, "m", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "position", K_F64, ng, 3, m->geom_pos, "m", err)) != SC_OK ||
      (st = write_fixed(h, g, G, "orientation", K_F64, ng, 4, q4, "1", err)) != SC_OK)
    goto done;
  if (!attr_str(g, "description",
                "one row per geometry: body (index into /model/body_names; -1 = static, "
                "pose in the world), shape, size (sphere: radius; capsule: radius, segment "
                "length along z; box: half extents; cylinder: radius, length along z; "
                "ellipsoid: semi-axes; mesh: half extents of its hull's bounding box; plane: "
                "unused, the plane is the local x-y plane with normal +z), position and "
                "orientation (quaternion w, x, y, z) in the body frame; mesh (when the "
                "model has meshes): index into /model/meshes, -1 for other shapes"))
    st = sc_h5_io_fail(h->path, err, "write", "attributes of /model/geometry");
  if (!st && m->nmesh > 0) {
    for (int i = 0; i < ng; i++) iv[i] = m->geom_mesh[i];
    st = write_fixed(h, g, G, "mesh", K_I32, ng, 0, iv, "1", err);
    if (!st) st = write_meshes(h, model, m, err);
  }
done:
  if (g >= 0) H5Gclose(g);
  sc_free(iv);
  sc_free(q4);
  sc_free(shapes);
  return st;
}

/* /solver/trace: one row per Newton iteration of each recorded step */
static sc_status trace_create(sc_h5* h, const sc_model* m, sc_error* err) {
  h->trace = m->opt.output_solver_trace != 0;
  if (!h->trace) return SC_OK;
  /* a recorded step adds at most contact_maxit rows */
  h->tcap = m->opt.contact_maxit > TRACE_ROWS_CAP ? m->opt.contact_maxit : TRACE_ROWS_CAP;
  hid_t g = make_group(h->file, "/solver/trace");
  if (g < 0) return sc_h5_io_fail(h->path, err, "create", "group /solver/trace");
  H5Gclose(g);
  column* t = h->tr;
  col_init(&t[T_STEP], "/solver/trace/step", "1", K_I64, 1, 1);
  col_init(&t[T_ITER], "/solver/trace/iteration", "1", K_I32, 1, 1);
  col_init(&t[T_RESID], "/solver/trace/residual", "1", K_F64, 1, 1);
  col_init(&t[T_ALPHA], "/solver/trace/alpha", "1", K_F64, 1, 1);
  col_init(&t[T_DCOST], "/solver/trace/cost_decrease", "J", K_F64, 1, 1);
  col_init(&t[T_LSEVAL], "/solver/trace/ls_evals", "1", K_I32, 1, 1);
  col_init(&t[T_NSEP], "/solver/trace/n_separated", "1", K_I32, 1, 1);
  col_init(&t[T_NSTICK], "/solver/trace/n_stick", "1", K_I32, 1, 1);
  col_init(&t[T_NSLIDE], "/solver/trace/n_slide", "1", K_I32, 1, 1);
  col_init(&t[T_NCHANGED], "/solver/trace/n_changed", "1", K_I32, 1, 1);
  sc_status st;
  for (int i = 0; i < NT; i++)
    if ((st = col_create(h, &t[i], h->tcap, err)) != SC_OK) return st;
  if (!attr_str(t[T_STEP].ds, "description",
                "step number of the solve (row k of /time is step k * output_every); "
                "rows only for recorded steps") ||
      !attr_str(t[T_ITER].ds, "description",
                "Newton iteration, 1 .. /solver/iterations; the row describes the iterate "
                "after it") ||
      !attr_str(t[T_NCHANGED].ds, "description",
                "contacts whose region (separated, stick, slide) differs from the "
                "previous iterate's"))
    return sc_h5_io_fail(h->path, err, "write", "attributes of /solver/trace");
  return SC_OK;
}

sc_status sc_h5_open(const char* path, const sc_model* m, const sc_data* d,
                     const sc_h5_meta* meta, sc_h5** out, sc_error* err) {
  *out = NULL;
  /* a file that could not be closed (full disk) stays open in HDF5, and the
   * library's own exit handler then crashes trying to close it again: the
   * process's exit reclaims everything anyway.  (Effective when this is the
   * first HDF5 call of the process, as it is in simc.) */
  H5dont_atexit();
  /* the library reports errors as values; HDF5 must not print them */
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  sc_h5* h = sc_calloc(1, sizeof *h);
  if (!h) return sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory");
  h->file = -1;
  h->reserve_fd = meta && meta->reserve_fd > 0 ? meta->reserve_fd : -1;
  for (int i = 0; i < NF; i++) h->fr[i].ds = -1;
  for (int i = 0; i < NC; i++) h->ct[i].ds = -1;
  for (int i = 0; i < NT; i++) h->tr[i].ds = -1;
  h->path = sc_strdup(path);
  if (!h->path) {
    free_handle(h);
    return sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory");
  }
  h->nq = m->nq;
  h->nv = m->nv;
  h->nbody = m->nbody;
  h->ncon_max = d->ncon_max;
  h->contacts = m->opt.output_contacts != 0;
  h->flush_seconds = (meta && meta->flush_seconds != 0) ? meta->flush_seconds : DEFAULT_FLUSH_SECONDS;
  h->fcap = SC_H5_FRAMES_PER_BLOCK;
  /* a block holds up to fcap frames of ncon_max contacts, but the buffer is
   * capped: a frame that would overflow it writes the block first */
  long ccap = (long)h->fcap * h->ncon_max;
  long cmax = h->ncon_max > CONTACT_ROWS_CAP ? h->ncon_max : CONTACT_ROWS_CAP;
  h->ccap = (int)(ccap < cmax ? ccap : cmax);
  if (h->ccap < 1) h->ccap = 1;

  sc_status st = SC_OK;
  hid_t fapl = make_fapl(), fcpl = H5Pcreate(H5P_FILE_CREATE);
  if (fapl < 0 || fcpl < 0 || H5Pset_obj_track_times(fcpl, 0) < 0) {
    st = sc_h5_io_fail(path, err, "set up", "file properties");
  } else {
    h->file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    if (h->file < 0) st = sc_h5_io_fail(path, err, "create", "the file");
  }
  if (fapl >= 0) H5Pclose(fapl);
  if (fcpl >= 0) H5Pclose(fcpl);
  if (st != SC_OK) goto fail;

  if (write_root_attrs(h, m, d, meta) != SC_OK) {
    st = sc_h5_io_fail(path, err, "write", "root attributes");
    goto fail;
  }
  static const char* groups[] = {"/model", "/energy", "/contact", "/solver", "/body"};
  for (int i = 0; i < 5; i++) {
    hid_t g = make_group(h->file, groups[i]);
    if (g < 0) {
      char obj[64];
      snprintf(obj, sizeof obj, "group %s", groups[i]);
      st = sc_h5_io_fail(path, err, "create", obj);
      goto fail;
    }
    if (i == 0) {
      if ((m->ntendon > 0 &&
           (st = write_names(h, g, "tendon_names", m->ten_name, m->ntendon, err)) != SC_OK) ||
          (st = write_names(h, g, "body_names", m->body_name, m->nbody, err)) != SC_OK ||
          (st = write_names(h, g, "joint_names", m->jnt_name, m->njnt, err)) != SC_OK ||
          (st = write_names(h, g, "q_names", m->q_names, m->nq, err)) != SC_OK ||
          (st = write_names(h, g, "v_names", m->v_names, m->nv, err)) != SC_OK ||
          (m->nact > 0 &&
           (st = write_names(h, g, "actuator_names", m->act_name, m->nact, err)) != SC_OK) ||
          (st = write_actuation(h, g, m, err)) != SC_OK ||
          (st = write_geometry(h, g, m, err)) != SC_OK ||
          (st = write_springs(h, g, m, err)) != SC_OK ||
          (st = write_constraints(h, g, m, err)) != SC_OK) {
        H5Gclose(g);
        goto fail;
      }
    }
    H5Gclose(g);
  }

  /* the joints' and actuators' groups, when the model has any */
  int any_limit = 0, any_friction = 0;
  for (int j = 0; j < m->njnt; j++)
    any_limit |= isfinite(m->jnt_range[2 * j]) || isfinite(m->jnt_range[2 * j + 1]);
  for (int i = 0; i < m->nv; i++) any_friction |= m->dof_frictionloss[i] > 0;
  int any_tendon_friction = 0; /* (its dissipation joins /energy/joint_friction) */
  for (int t = 0; t < m->ntendon; t++) any_tendon_friction |= m->ten_frictionloss[t] > 0;
  static const char* jgroups[] = {"/actuator", "/joint", "/constraint", "/tendon"};
  const int jwant[] = {m->nact > 0, any_limit || any_friction, m->neq > 0, m->ntendon > 0};
  for (int i = 0; i < 4; i++) {
    if (!jwant[i]) continue;
    hid_t g = make_group(h->file, jgroups[i]);
    if (g < 0) {
      char obj[64];
      snprintf(obj, sizeof obj, "group %s", jgroups[i]);
      st = sc_h5_io_fail(path, err, "create", obj);
      goto fail;
    }
    H5Gclose(g);
  }
  column* f = h->fr;
  col_init(&f[F_TIME], "/time", "s", K_F64, 1, 1);
  col_init(&f[F_Q], "/q", "m, rad or 1 (per /model/q_names)", K_F64, 2, m->nq);
  col_init(&f[F_V], "/v", "m/s or rad/s (per /model/v_names)", K_F64, 2, m->nv);
  col_init(&f[F_EKIN], "/energy/kinetic", "J", K_F64, 1, 1);
  col_init(&f[F_EGRAV], "/energy/gravity", "J", K_F64, 1, 1);
  col_init(&f[F_ESPRING], "/energy/spring", "J", K_F64, 1, 1);
  col_init(&f[F_ETOTAL], "/energy/total", "J", K_F64, 1, 1);
  col_init(&f[F_EDISS], "/energy/dissipated", "J", K_F64, 1, 1);
  col_init(&f[F_EDAMP], "/energy/damper", "J", K_F64, 1, 1);
  col_init(&f[F_ENORMAL], "/energy/contact_normal", "J", K_F64, 1, 1);
  col_init(&f[F_EFRICTION], "/energy/contact_friction", "J", K_F64, 1, 1);
  col_init(&f[F_PEN], "/contact/max_penetration", "m", K_F64, 1, 1);
  col_init(&f[F_PENF], "/contact/max_penetration_fraction", "1", K_F64, 1, 1);
  col_init(&f[F_RELIN], "/solver/relinearizations", "1", K_I32, 1, 1);
  col_init(&f[F_COUNT], "/contact/count", "1", K_I32, 1, 1);
  col_init(&f[F_START], "/contact/start", "1", K_I64, 1, 1);
  f[F_START].present = h->contacts;
  col_init(&f[F_ITER], "/solver/iterations", "1", K_I32, 1, 1);
  col_init(&f[F_RESID], "/solver/residual", "1", K_F64, 1, 1);
  col_init(&f[F_STATUS], "/solver/status", "1", K_I32, 1, 1);
  col_init(&f[F_FREEIT], "/solver/free_motion_iterations", "1", K_I32, 1, 1);
  col_init(&f[F_WALL], "/solver/wall_time", "s", K_F64, 1, 1);
  col_init(&f[F_LSEVAL], "/solver/linesearch_evals", "1", K_I32, 1, 1);
  col_init(&f[F_SIGN], "/solver/signorini", "J", K_F64, 1, 1);
  col_init(&f[F_MDISS], "/solver/dissipation_gap", "J", K_F64, 1, 1);
  col_init(&f[F_BIPOT], "/solver/coulomb_residual", "J", K_F64, 1, 1);
  col_init(&f[F_EACT], "/energy/actuator", "J", K_F64, 1, 1);
  col_init(&f[F_ELIM], "/energy/joint_limit", "J", K_F64, 1, 1);
  col_init(&f[F_EJFRIC], "/energy/joint_friction", "J", K_F64, 1, 1);
  f[F_EACT].present = m->nact > 0;
  f[F_ELIM].present = any_limit || m->nrow_wide > m->neqrow; /* (a tendon's limits too) */
  f[F_EJFRIC].present = any_friction || any_tendon_friction;
  col_init(&f[F_ACMD], "/actuator/command",
           "per actuator: N or N m per gear (motor), m or rad (position), m/s or rad/s "
           "(velocity)", K_F64, 2, m->nact);
  f[F_ACMD].present = m->nact > 0;
  col_init(&f[F_AFORCE], "/actuator/force", "N or N m (generalized force on its dof)", K_F64, 2,
           m->nact);
  f[F_AFORCE].present = m->nact > 0;
  col_init(&f[F_JLIM], "/joint/limit_force", "N or N m (per joint, /model/joint_names)", K_F64,
           2, m->njnt);
  f[F_JLIM].present = any_limit;
  col_init(&f[F_JFRIC], "/joint/friction_force", "N or N m (per dof, /model/v_names)", K_F64, 2,
           m->nv);
  f[F_JFRIC].present = any_friction;
  col_init(&f[F_ECON], "/energy/constraint", "J", K_F64, 1, 1);
  f[F_ECON].present = m->neq > 0;
  col_init(&f[F_EQGAP], "/constraint/violation",
           "per row (/model/constraints): m (connect, weld's first three, distance), "
           "rad (weld's last three: sine of the turn), or the joint's unit (joint)", K_F64, 2,
           m->neqrow);
  f[F_EQGAP].present = m->neq > 0;
  col_init(&f[F_EQFORCE], "/constraint/force",
           "per row: N (along world x, y, z; distance: along the line), N m (weld's last "
           "three, world axes), or the joint's generalized force", K_F64, 2, m->neqrow);
  f[F_EQFORCE].present = m->neq > 0;
  col_init(&f[F_TLEN], "/tendon/length", "m, or the joints' unit for a fixed tendon (per tendon, "
           "/model/tendon_names)", K_F64, 2, m->ntendon);
  f[F_TLEN].present = m->ntendon > 0;
  col_init(&f[F_TFORCE], "/tendon/limit_force",
           "N, or the joints' generalized force for a fixed tendon (per tendon)", K_F64, 2,
           m->ntendon);
  f[F_TFORCE].present = m->ntendon > 0;
  col_init(&f[F_TFRIC], "/tendon/friction_force",
           "N, or the joints' generalized force for a fixed tendon (per tendon)", K_F64, 2,
           m->ntendon);
  f[F_TFRIC].present = any_tendon_friction;
  /* error control's substeps (integrator/adaptive.c), in the interval that
   * ends at the row */
  col_init(&f[F_SUBSTEPS], "/solver/substeps", "1", K_I32, 1, 1);
  col_init(&f[F_REJECTED], "/solver/rejected_substeps", "1", K_I32, 1, 1);
  col_init(&f[F_SHORTEST], "/solver/shortest_step", "s", K_F64, 1, 1);
  for (int i = F_SUBSTEPS; i <= F_SHORTEST; i++) f[i].present = m->opt.accuracy > 0;
  col_init(&f[F_BPOS], "/body/position", "m", K_F64, 3, 3 * m->nbody);
  f[F_BPOS].inner = 3;
  col_init(&f[F_BQUAT], "/body/orientation", "1 (quaternion w, x, y, z)", K_F64, 3, 4 * m->nbody);
  f[F_BQUAT].inner = 4;
  column* c = h->ct;
  col_init(&c[C_BODYA], "/contact/body_a", "1", K_I32, 1, 1);
  col_init(&c[C_BODYB], "/contact/body_b", "1", K_I32, 1, 1);
  col_init(&c[C_POINT], "/contact/point", "m", K_F64, 2, 3);
  col_init(&c[C_NORMAL], "/contact/normal", "1", K_F64, 2, 3);
  col_init(&c[C_GAP], "/contact/gap", "m", K_F64, 1, 1);
  col_init(&c[C_SLIP], "/contact/slip", "m/s", K_F64, 1, 1);
  col_init(&c[C_IMPULSE], "/contact/impulse", "N s", K_F64, 2, 3);
  col_init(&c[C_TORQUE], "/contact/torque_impulse", "N m s (about n, t1, t2; on body b)", K_F64, 2,
           3);
  for (int i = 0; i < NF; i++)
    if (f[i].present && (st = col_create(h, &f[i], h->fcap, err)) != SC_OK) goto fail;
  for (int i = 0; i < NC; i++) {
    /* (the torsional and rolling friction's only when a shape has any) */
    c[i].present = h->contacts && (i != C_TORQUE || m->cone_tails);
    if (c[i].present && (st = col_create(h, &c[i], h->ccap, err)) != SC_OK) goto fail;
  }
  if (!attr_str(f[F_STATUS].ds, "values",
                "0 ok, 1 iteration cap, 2 line search failed, 3 factorization failed, "
                "4 Lemke ray termination, 5 Lemke cycling, 6 non-finite, "
                "7 inaccurate end point, 8 workspace too small") ||
      !attr_str(f[F_ITER].ds, "description",
                "contact solver: Newton iterations (newton) or Lemke pivots (lcp)") ||
      !attr_str(f[F_BPOS].ds, "description",
                "origin of each body frame in the world, [frame, body, xyz]; body 0 is the "
                "world") ||
      !attr_str(f[F_BQUAT].ds, "description",
                "orientation of each body frame in the world, [frame, body, wxyz], unit "
                "quaternion with w >= 0 (maps body to world coordinates)")) {
    st = sc_h5_io_fail(path, err, "write", "attributes of /solver");
    goto fail;
  }
  if ((st = trace_create(h, m, err)) != SC_OK) goto fail;
  if ((st = flush_file(h, err)) != SC_OK) goto fail;
  *out = h;
  return SC_OK;
fail:
  free_handle(h);
  return st;
}

#define FBUF(i, type) ((type*)h->fr[i].buf)
#define CBUF(i, type) ((type*)h->ct[i].buf)
#define TBUF(i, type) ((type*)h->tr[i].buf)

sc_status sc_h5_write_frame(sc_h5* h, const sc_model* m, const sc_data* d, sc_error* err) {
  sc_status st;
  if (h->failed) return refuse_failed(h, err);
  int nc = h->contacts ? d->ncon : 0;
  if (d->ncon < 0 || nc > h->ccap)
    return sc_error_set(err, SC_ERR_CAPACITY, h->path, 0, 0,
                        "sc_h5_write_frame: %d contacts exceed the output buffer (%d rows)",
                        d->ncon, h->ccap);
  int nt = h->trace && d->solver_trace ? d->solver_trace->n : 0;
  if (nt > h->tcap)
    return sc_error_set(err, SC_ERR_CAPACITY, h->path, 0, 0,
                        "sc_h5_write_frame: %d solver trace rows exceed the output buffer (%d rows)",
                        nt, h->tcap);
  if (h->nbuf == h->fcap || h->ncbuf + nc > h->ccap || h->ntbuf + nt > h->tcap)
    if ((st = write_block(h, err)) != SC_OK) return st;

  int r = h->nbuf;
  size_t nq = (size_t)h->nq, nv = (size_t)h->nv;
  FBUF(F_TIME, double)[r] = d->time;
  if (nq) memcpy(FBUF(F_Q, double) + (size_t)r * nq, d->q, nq * sizeof(double));
  if (nv) memcpy(FBUF(F_V, double) + (size_t)r * nv, d->v, nv * sizeof(double));
  /* the file has the frame origin's coordinates (state.h) */
  if (nq) sc_state_com_to_frame(m, FBUF(F_Q, double) + (size_t)r * nq,
                                nv ? FBUF(F_V, double) + (size_t)r * nv : NULL);
  FBUF(F_EKIN, double)[r] = d->e_kinetic;
  FBUF(F_EGRAV, double)[r] = d->e_gravity;
  FBUF(F_ESPRING, double)[r] = d->e_spring;
  FBUF(F_ETOTAL, double)[r] = d->e_kinetic + d->e_gravity + d->e_spring;
  FBUF(F_EDISS, double)[r] = d->e_damper + d->e_contact + d->e_limit + d->e_jfriction + d->e_constraint;
  if (h->fr[F_EACT].present) FBUF(F_EACT, double)[r] = d->e_actuator;
  if (h->fr[F_ELIM].present) FBUF(F_ELIM, double)[r] = d->e_limit;
  if (h->fr[F_EJFRIC].present) FBUF(F_EJFRIC, double)[r] = d->e_jfriction;
  if (h->fr[F_TLEN].present) {
    memcpy(FBUF(F_TLEN, double) + (size_t)r * (size_t)m->ntendon, d->ten_length,
           sizeof(double) * (size_t)m->ntendon);
    memcpy(FBUF(F_TFORCE, double) + (size_t)r * (size_t)m->ntendon, d->ten_limit_force,
           sizeof(double) * (size_t)m->ntendon);
  }
  if (h->fr[F_TFRIC].present)
    memcpy(FBUF(F_TFRIC, double) + (size_t)r * (size_t)m->ntendon, d->ten_friction_force,
           sizeof(double) * (size_t)m->ntendon);
  if (h->fr[F_ECON].present) {
    FBUF(F_ECON, double)[r] = d->e_constraint;
    memcpy(FBUF(F_EQGAP, double) + (size_t)r * (size_t)m->neqrow, d->eq_gap,
           sizeof(double) * (size_t)m->neqrow);
    memcpy(FBUF(F_EQFORCE, double) + (size_t)r * (size_t)m->neqrow, d->eq_force,
           sizeof(double) * (size_t)m->neqrow);
  }
  if (h->fr[F_ACMD].present) {
    memcpy(FBUF(F_ACMD, double) + (size_t)r * (size_t)m->nact, d->act_ctrl,
           sizeof(double) * (size_t)m->nact);
    memcpy(FBUF(F_AFORCE, double) + (size_t)r * (size_t)m->nact, d->act_force,
           sizeof(double) * (size_t)m->nact);
  }
  if (h->fr[F_JLIM].present)
    memcpy(FBUF(F_JLIM, double) + (size_t)r * (size_t)m->njnt, d->jnt_limit_force,
           sizeof(double) * (size_t)m->njnt);
  if (h->fr[F_JFRIC].present)
    memcpy(FBUF(F_JFRIC, double) + (size_t)r * (size_t)m->nv, d->dof_friction_force,
           sizeof(double) * (size_t)m->nv);
  FBUF(F_EDAMP, double)[r] = d->e_damper;
  FBUF(F_ENORMAL, double)[r] = d->e_normal;
  FBUF(F_EFRICTION, double)[r] = d->e_friction;
  FBUF(F_PEN, double)[r] = d->max_depth;
  FBUF(F_PENF, double)[r] = d->max_depth_frac;
  FBUF(F_RELIN, int32_t)[r] = d->relinearizations;
  FBUF(F_COUNT, int32_t)[r] = d->ncon;
  FBUF(F_ITER, int32_t)[r] = d->contact_stats.iterations;
  FBUF(F_RESID, double)[r] = d->contact_stats.residual;
  FBUF(F_STATUS, int32_t)[r] = (int32_t)d->contact_stats.status;
  FBUF(F_FREEIT, int32_t)[r] = d->free_iterations;
  FBUF(F_WALL, double)[r] = d->wall_time;
  FBUF(F_LSEVAL, int32_t)[r] = d->contact_stats.linesearch_evals;
  FBUF(F_SIGN, double)[r] = d->coulomb[0];
  FBUF(F_MDISS, double)[r] = d->coulomb[1];
  FBUF(F_BIPOT, double)[r] = d->coulomb[2];
  if (h->fr[F_SUBSTEPS].present) {
    FBUF(F_SUBSTEPS, int32_t)[r] = d->substeps;
    FBUF(F_REJECTED, int32_t)[r] = d->rejected;
    FBUF(F_SHORTEST, double)[r] = d->shortest;
  }
  /* the poses of the recorded state: d's kinematics are those of d->q (the
   * step ends by evaluating them for the energies) */
  double* bp = FBUF(F_BPOS, double) + (size_t)r * 3 * (size_t)h->nbody;
  double* bq = FBUF(F_BQUAT, double) + (size_t)r * 4 * (size_t)h->nbody;
  for (int b = 0; b < h->nbody && b < m->nbody; b++) {
    memcpy(bp + 3 * b, d->xpos + 3 * b, 3 * sizeof(double));
    sc_sp_mat3_to_quat(bq + 4 * b, d->xrot + 9 * b);
  }
  if (h->trace && d->solver_trace) {
    const sc_solver_trace* t = d->solver_trace;
    for (int j = 0; j < t->n; j++) {
      size_t k = (size_t)(h->ntbuf + j);
      TBUF(T_STEP, int64_t)[k] = (int64_t)d->step;
      TBUF(T_ITER, int32_t)[k] = j + 1;
      TBUF(T_RESID, double)[k] = t->residual[j];
      TBUF(T_ALPHA, double)[k] = t->alpha[j];
      TBUF(T_DCOST, double)[k] = t->cost_decrease[j];
      TBUF(T_LSEVAL, int32_t)[k] = t->ls_evals[j];
      TBUF(T_NSEP, int32_t)[k] = t->n_separated[j];
      TBUF(T_NSTICK, int32_t)[k] = t->n_stick[j];
      TBUF(T_NSLIDE, int32_t)[k] = t->n_slide[j];
      TBUF(T_NCHANGED, int32_t)[k] = t->n_changed[j];
    }
    h->ntbuf += t->n;
  }
  if (h->contacts) {
    FBUF(F_START, int64_t)[r] = (int64_t)(h->ncfile + h->ncbuf);
    for (int i = 0; i < nc; i++) {
      const sc_contact* con = &d->contact[i];
      size_t k = (size_t)(h->ncbuf + i);
      CBUF(C_BODYA, int32_t)[k] = con->body[0];
      CBUF(C_BODYB, int32_t)[k] = con->body[1];
      memcpy(CBUF(C_POINT, double) + 3 * k, con->pos, 3 * sizeof(double));
      memcpy(CBUF(C_NORMAL, double) + 3 * k, con->frame + 6, 3 * sizeof(double));
      CBUF(C_GAP, double)[k] = con->dist;
      CBUF(C_SLIP, double)[k] = d->slip[i];
      memcpy(CBUF(C_IMPULSE, double) + 3 * k, d->impulse + 3 * i, 3 * sizeof(double));
      if (h->ct[C_TORQUE].present) {
        /* the cone tail's scaled impulses times mu_k / mu (contact_law.c) */
        double* tq = CBUF(C_TORQUE, double) + 3 * k;
        const int t = d->ctail[i];
        const double ss = t >= 0 ? con->spin / con->mu : 0.0, sr = t >= 0 ? con->roll / con->mu : 0.0;
        tq[0] = t >= 0 ? ss * d->impulse[3 * t] : 0.0;
        tq[1] = t >= 0 ? sr * d->impulse[3 * t + 1] : 0.0;
        tq[2] = t >= 0 ? sr * d->impulse[3 * t + 2] : 0.0;
      }
    }
    h->ncbuf += nc;
  }
  h->nbuf++;

  if (h->nbuf == h->fcap) {
    if ((st = write_block(h, err)) != SC_OK) return st;
    if (h->blocks_since_flush >= FLUSH_EVERY_BLOCKS && (st = flush_file(h, err)) != SC_OK) return st;
  }
  if (h->flush_seconds > 0 && seconds_since(&h->last_flush) >= h->flush_seconds)
    return sc_h5_flush(h, err);
  return SC_OK;
}

long sc_h5_frames(const sc_h5* h) { return h->nfile + h->nbuf; }

/* Set every per-frame dataset to nf rows, every contact dataset to nc rows
 * and every trace dataset to nt rows; 0 when all succeeded. */
static int cut_back(sc_h5* h, long nf, long nc, long nt) {
  int bad = 0;
  for (int i = 0; i < NT && h->trace; i++)
    if (h->tr[i].ds >= 0) {
      hsize_t dims[2] = {(hsize_t)nt, (hsize_t)h->tr[i].ncols};
      bad |= H5Dset_extent(h->tr[i].ds, dims) < 0;
    }
  for (int i = 0; i < NF; i++)
    if (h->fr[i].present && h->fr[i].ds >= 0) {
      hsize_t dims[3];
      col_dims(&h->fr[i], (hsize_t)nf, dims);
      bad |= H5Dset_extent(h->fr[i].ds, dims) < 0;
    }
  for (int i = 0; i < NC; i++)
    if (h->ct[i].present && h->ct[i].ds >= 0) {
      hsize_t dims[2] = {(hsize_t)nc, (hsize_t)h->ct[i].ncols};
      bad |= H5Dset_extent(h->ct[i].ds, dims) < 0;
    }
  H5Eclear2(H5E_DEFAULT);
  return bad;
}

sc_status sc_h5_summarize(sc_h5* h, const sc_h5_summary* sm, sc_error* err) {
  if (!h || h->failed == 1) return SC_OK; /* after a failed HDF5 write nothing more is written */
  hid_t r = h->file;
  const int ok = attr_dbl(r, "max_penetration", sm->max_penetration) &&
                 attr_dbl(r, "max_penetration_fraction", sm->max_penetration_fraction) &&
                 attr_dbl(r, "max_penetration_time", sm->max_penetration_time) &&
                 attr_str(r, "max_penetration_bodies", sm->max_penetration_bodies) &&
                 attr_str(r, "warnings", sm->warnings) &&
                 attr_dbl(r, "max_signorini", sm->max_coulomb[0]) &&
                 attr_dbl(r, "max_dissipation_gap", sm->max_coulomb[1]) &&
                 attr_dbl(r, "max_coulomb_residual", sm->max_coulomb[2]) &&
                 (!sm->adaptive || (attr_dbl(r, "substeps", (double)sm->substeps) &&
                                    attr_dbl(r, "rejected_substeps", (double)sm->rejected_substeps)));
  return ok ? SC_OK : sc_h5_io_fail(h->path, err, "write", "the run's summary attributes");
}

sc_status sc_h5_close(sc_h5* h, const char* status, sc_error* err) {
  if (!h) return SC_OK;
  sc_status st = h->failed ? SC_OK : write_block(h, err);
  if (h->failed) {
    /* the space held in reserve lets the final metadata reach a full disk */
    if (h->reserve_fd >= 0 && ftruncate(h->reserve_fd, 0) != 0) { /* nothing more to free */ }
    /* after a failed HDF5 write (HDF5 cannot be trusted to flush again after
     * a failed flush) the frames kept are those of the last successful flush;
     * when the writer stopped in time, every block written */
    long kept = h->nfile;
    if (h->failed == 1) {
      kept = h->nsafe;
      cut_back(h, h->nsafe, h->ncsafe, h->ntsafe);
    }
    if (st == SC_OK)
      st = sc_error_set(err, SC_ERR_IO, h->path, 0, 0,
                        "%s; the file keeps the first %ld recorded frames",
                        h->failed == 1 ? "HDF5: a write failed" : "output stopped", kept);
  }
  if (!attr_str(h->file, "status", status ? status : "unknown") && st == SC_OK)
    st = sc_h5_io_fail(h->path, err, "write", "root attribute status");
  for (int i = 0; i < NF; i++)
    if (h->fr[i].ds >= 0) {
      H5Dclose(h->fr[i].ds);
      h->fr[i].ds = -1;
    }
  for (int i = 0; i < NC; i++)
    if (h->ct[i].ds >= 0) {
      H5Dclose(h->ct[i].ds);
      h->ct[i].ds = -1;
    }
  for (int i = 0; i < NT; i++)
    if (h->tr[i].ds >= 0) {
      H5Dclose(h->tr[i].ds);
      h->tr[i].ds = -1;
    }
  if (H5Fclose(h->file) < 0 && st == SC_OK) st = sc_h5_io_fail(h->path, err, "close", "the file");
  H5Eclear2(H5E_DEFAULT);
  h->file = -1;
  free_handle(h);
  return st;
}

int sc_h5_is_simc_output(const char* path) {
  H5dont_atexit();
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  /* the signature first: H5Fopen on an arbitrary file is slower and noisier */
  FILE* fp = fopen(path, "rb");
  if (!fp) return -1;
  unsigned char sig[8];
  size_t n = fread(sig, 1, sizeof sig, fp);
  fclose(fp);
  if (n != sizeof sig || memcmp(sig, "\211HDF\r\n\032\n", 8) != 0) return 0;
  /* a file a killed writer left behind may still carry HDF5's own lock
   * marks: read it without locking (simc's lock is held by the caller) */
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl >= 0) H5Pset_file_locking(fapl, 0, 1);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, fapl >= 0 ? fapl : H5P_DEFAULT);
  if (fapl >= 0) H5Pclose(fapl);
  if (f < 0) {
    H5Eclear2(H5E_DEFAULT);
    return 0;
  }
  int yes = 0;
  if (H5Aexists(f, "format") > 0) {
    hid_t a = H5Aopen(f, "format", H5P_DEFAULT);
    hid_t t = vlen_str_type();
    if (a >= 0 && t >= 0) {
      hid_t at = H5Aget_type(a);
      char* val = NULL;
      if (at >= 0 && H5Tget_class(at) == H5T_STRING && H5Tis_variable_str(at) > 0 &&
          H5Aread(a, t, &val) >= 0 && val) {
        yes = strcmp(val, "simc-trajectory") == 0;
        H5free_memory(val);
      }
      if (at >= 0) H5Tclose(at);
    }
    if (t >= 0) H5Tclose(t);
    if (a >= 0) H5Aclose(a);
  }
  H5Fclose(f);
  H5Eclear2(H5E_DEFAULT);
  return yes;
}
