/* io_h5: the HDF5 trajectory file (doc/output.md).
 *
 * This is the only module that includes <hdf5.h>.  A run opens the file
 * once, appends one frame per recorded step and closes it with a status:
 *
 *   sc_h5_open(path, m, d, &meta, &h, &err);   (status "running")
 *   sc_h5_write_frame(h, m, d, &err);          row 0 = initial state
 *   ... step ... sc_h5_write_frame(h, m, d, &err); ...
 *   sc_h5_close(h, "complete", &err);          or "failed: <reason>", "interrupted"
 *
 * Layout written (every dataset carries a string attribute `units`):
 *   /                      attributes: format = "simc-trajectory", format_version = 3,
 *                          simc_version, scene_name, scene_path, scene_yaml,
 *                          command_line, solver, scheme, theta_q, theta_v, theta_vq,
 *                          time_step, duration, output_every, gravity[3], the other
 *                          solver options, status
 *   /model/{body_names,joint_names,q_names,v_names}    UTF-8 strings (variable length)
 *   /model/body_parent [nbody] int32 (-1 for the world, body 0)
 *   /model/geometry/{body [G] int32 (-1 static), shape [G] strings, size [G,3],
 *                    position [G,3], orientation [G,4] (w, x, y, z)}   in the body frame
 *   /body/position [N,nbody,3], /body/orientation [N,nbody,4] (w, x, y, z; w >= 0):
 *       each body frame's pose in the world (added in format_version 2)
 *   /time [N]  /q [N,nq]  /v [N,nv]                   (nq or nv may be 0: [N,0])
 *   /energy/{kinetic,gravity,spring,total,dissipated} [N]
 *       total = kinetic + gravity + spring; dissipated = damper + contact work
 *   /energy/{damper,contact_normal,contact_friction} [N]  the parts of dissipated
 *       (format_version 3)
 *   /contact/max_penetration [N] (m), /contact/max_penetration_fraction [N]: the
 *       deepest contact of the step, and the deepest over the smaller geometry's
 *       bounding radius (format_version 3)
 *   /solver/relinearizations [N] (format_version 3)
 *   root attributes at the end (sc_h5_summarize): max_penetration,
 *       max_penetration_fraction, max_penetration_time, max_penetration_bodies,
 *       warnings (format_version 3)
 *   /contact/count [N] int32
 *   /contact/start [N] int64: row of the frame's first contact in the [M] datasets
 *   /contact/{body_a,body_b} [M] int32, /contact/{point,normal} [M,3] (world),
 *   /contact/{gap,slip} [M], /contact/impulse [M,3] (contact frame t1, t2, n)
 *   /solver/{iterations,residual,status,free_motion_iterations,wall_time,
 *            linesearch_evals} [N]
 * When m->opt.output_contacts is 0 only /contact/count is written (no start,
 * no per-contact rows).
 *
 * Frames are buffered in memory (blocks of SC_H5_FRAMES_PER_BLOCK frames, and
 * a contact-row buffer of min(frames_per_block * ncon_max, max(ncon_max, 16384))
 * rows: a frame whose contacts would not fit writes the block early) and
 * appended in blocks; the file is flushed
 * (H5Fflush) every few blocks, every meta->flush_seconds of wall time, and on
 * sc_h5_flush / sc_h5_close.  The metadata cache is kept from evicting between
 * flushes, so after a crash the file reads as of the last flush.
 *
 * Identical inputs give identical datasets (wall_time aside): no timestamps
 * are stored anywhere, and with flush_seconds < 0 (flushes by frame count
 * only) the whole file is byte-identical too. */
#ifndef SC_IO_H5_H
#define SC_IO_H5_H

#include "core/core.h"
#include "model/model.h"
#include "state/state.h"

#define SC_H5_FRAMES_PER_BLOCK 128
#define SC_H5_FORMAT_VERSION 4

typedef struct sc_h5 sc_h5;

typedef struct sc_h5_meta {
  const char* command_line; /* the full command line, as one string (NULL: "") */
  const char* simc_version; /* e.g. git describe (NULL: "") */
  /* Wall-time flush period, s.  0 selects the default (2 s); a negative value
   * disables time-based flushes, so flush points depend only on the frame
   * count and the file bytes are reproducible. */
  double flush_seconds;
  /* A file descriptor (> 0; 0 or less: none, so a zero-initialized meta has
   * none) of a file holding space in reserve on the output's file system.  After a failed write
   * (full disk) the writer truncates it to 0 before the final metadata
   * write and close, so the file can still be closed valid. */
  int reserve_fd;
  /* where the initial state came from ("RUN.h5 row 12 (t = 0.012 s)",
   * simc --from), written as the root attribute initial_state; NULL: none */
  const char* initial_state;
  /* the root attribute input_digest when the run's inputs are more than the
   * model's (simc --from adds a file); NULL: m->input_digest */
  const char* input_digest;
} sc_h5_meta;

/* Create the file (truncating), write the root attributes (status "running"),
 * /model names and every extendible dataset, and flush.  All buffers are
 * allocated here.  meta may be NULL.  Errors: SC_ERR_IO (err->file = path,
 * the message names the object), SC_ERR_NOMEM. */
sc_status sc_h5_open(const char* path, const sc_model* m, const sc_data* d,
                     const sc_h5_meta* meta, sc_h5** out, sc_error* err);

/* Append one recorded frame from d: time, q, v, energies, contacts and solver
 * statistics.  Never allocates; writes a block to the file when the buffer is
 * full and flushes periodically.  Before writing a block it checks that the
 * file system (and RLIMIT_FSIZE) has room for the block's rows, the chunks
 * they first touch and 32 KiB of metadata; when not, it returns SC_ERR_IO
 * ("no space left for the output: ...") without writing, so the file stays
 * consistent for sc_h5_close.  Raw data is not cached by HDF5: every block
 * reaches the file when written. */
sc_status sc_h5_write_frame(sc_h5* h, const sc_model* m, const sc_data* d, sc_error* err);

/* Write the buffered frames and H5Fflush the file.  Not async-signal-safe:
 * a signal handler should set a flag that the step loop checks, and the loop
 * then calls this (or sc_h5_close with "interrupted"). */
sc_status sc_h5_flush(sc_h5* h, sc_error* err);

/* Figures of the whole run, written as root attributes by sc_h5_summarize
 * (before sc_h5_close): the deepest contact of the run (m, and over the
 * smaller geometry's bounding radius), when (s) and between which bodies
 * ("a / b"), and the run's warnings ("" when none; one per line). */
typedef struct sc_h5_summary {
  double max_penetration, max_penetration_fraction, max_penetration_time;
  const char* max_penetration_bodies;
  const char* warnings;
  double max_coulomb[3]; /* J: the run's largest Signorini, maximum-dissipation and
                            De Saxce residuals (/solver/signorini ...) */
  int adaptive;          /* error control (time.accuracy): its substeps since the start */
  long substeps, rejected_substeps;
} sc_h5_summary;
sc_status sc_h5_summarize(sc_h5* h, const sc_h5_summary* s, sc_error* err);

/* Flush, set the root attribute status ("complete", "failed: <reason>",
 * "interrupted") and close.  Always frees h (NULL is fine), even on error.
 * After any failed write or flush (the handle then refuses more writes),
 * close releases the reserve, cuts every dataset back to the frames of the
 * last successful flush (all datasets the same length, all of them on
 * disk), still writes the status and returns SC_ERR_IO. */
sc_status sc_h5_close(sc_h5* h, const char* status, sc_error* err);

/* 1 when path is an HDF5 file whose root attribute format is
 * "simc-trajectory", 0 when it is not, -1 when it cannot be read. */
int sc_h5_is_simc_output(const char* path);

/* Frames appended so far (written or buffered). */
long sc_h5_frames(const sc_h5* h);

/* ---- reading (tools/h5compare): any HDF5 file, numeric datasets as doubles ---- */

#define SC_H5R_MAXRANK 8

typedef struct sc_h5r sc_h5r;

typedef struct sc_h5r_dataset {
  char* path;        /* "/energy/total" */
  int numeric;       /* integer or floating-point element type */
  int rank;          /* 0 for a scalar */
  long long dims[SC_H5R_MAXRANK];
  long long nrows;   /* dims[0] (1 for a scalar) */
  long long rowlen;  /* product of dims[1..rank) (1 for rank <= 1) */
} sc_h5r_dataset;

/* Open read-only and list every dataset and group (sorted by path). */
sc_status sc_h5r_open(const char* path, sc_h5r** out, sc_error* err);
void sc_h5r_close(sc_h5r* r);
int sc_h5r_ndatasets(const sc_h5r* r);
const sc_h5r_dataset* sc_h5r_dataset_at(const sc_h5r* r, int i);
/* Index of the dataset at path ("/q"), or -1. */
int sc_h5r_find(const sc_h5r* r, const char* path);
/* 1 when path names a group ("/" or "/energy"). */
int sc_h5r_is_group(const sc_h5r* r, const char* path);
/* Read rows [row0, row0 + nrows) of numeric dataset i, converted to double,
 * row-major into out (nrows * rowlen values). */
/* The root attribute name as an integer (a scalar integer attribute):
 * 1 and *out set, or 0 when there is no such attribute. */
int sc_h5r_attr_int(const sc_h5r* r, const char* name, long long* out);
sc_status sc_h5r_read_rows(const sc_h5r* r, int i, long long row0, long long nrows, double* out,
                           sc_error* err);
/* 1 when the one-dimensional string dataset at path holds exactly
 * names[0 .. n), 0 when it differs or is absent, -1 on a read error. */
int sc_h5r_names_equal(const sc_h5r* r, const char* path, char* const* names, int n);
/* The strings of the one-dimensional string dataset dpath ("/model/q_names")
 * of file (variable or fixed length): *out gets n malloc'd strings (free
 * with sc_h5_free_names) and n is returned; 0 when the file, the dataset or
 * its strings are not there (*out NULL), -1 when out of memory. */
int sc_h5_read_names(const char* file, const char* dpath, char*** out);
void sc_h5_free_names(char** names, int n);

/* The state of row `row` of a simc output file at path (negative: counted
 * from the end, -1 the last) as a start for model m (simc --from): q (m->nq,
 * quaternions renormalized), v (m->nv) and the row's time *t, and in
 * *row_out the row read.  The file's coordinates must be m's
 * (/model/q_names and /model/v_names equal) and its /q, /v and /time rows
 * of m's sizes.  Otherwise SC_ERR_SCENE (SC_ERR_IO when a listed dataset
 * cannot be read) with err in path and a message naming what is wrong; q
 * and v may then hold part of a row. */
sc_status sc_h5_read_state(const char* path, long long row, const sc_model* m, double* q,
                           double* v, double* t, long long* row_out, sc_error* err);

#endif
