/* core: status codes, located errors, assertions.
 *
 * Every fallible library call returns an sc_status and, on failure, fills a
 * caller-owned sc_error (SQLite / mj_loadXML style).  The library never
 * prints and never exits; only the CLI decides what to do with an error. */
#ifndef SC_CORE_H
#define SC_CORE_H

#include <stddef.h>
#include <stdint.h>

typedef enum sc_status {
  SC_OK = 0,
  SC_ERR_SCENE = 1,     /* invalid scene or arguments (CLI exit 1) */
  SC_ERR_SIM = 2,       /* simulation failed: NaN, divergence, no convergence */
  SC_ERR_IO = 3,        /* file could not be read or written */
  SC_ERR_CAPACITY = 4,  /* a preallocated buffer is too small */
  SC_ERR_NOMEM = 5
} sc_status;

/* A located error: file:line:col: message.  line/col are 1-based; 0 means
 * "no location" (e.g. an error about the command line as a whole). */
typedef struct sc_error {
  sc_status code;
  char file[256];
  int line, col;
  char msg[768];
} sc_error;

/* Clear an error record. */
void sc_error_clear(sc_error* err);

/* Fill err (when non-NULL) and return code.  file may be NULL. */
sc_status sc_error_set(sc_error* err, sc_status code, const char* file, int line, int col,
                       const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Format "file:line:col: msg" (or just msg when there is no location). */
void sc_error_format(const sc_error* err, char* buf, size_t bufsz);

/* Programmer invariants (not user errors). */
#ifndef NDEBUG
#include <stdio.h>
#include <stdlib.h>
#define SC_ASSERT(c)                                                              \
  do {                                                                            \
    if (!(c)) {                                                                   \
      fprintf(stderr, "%s:%d: internal assertion failed: %s\n", __FILE__, __LINE__, \
              #c);                                                                \
      abort();                                                                    \
    }                                                                             \
  } while (0)
#else
#define SC_ASSERT(c) ((void)0)
#endif

/* Allocation wrappers: the step loop must never call these.  A counter lets
 * tests assert that no allocation happens while stepping. */
void* sc_malloc(size_t n);
void* sc_calloc(size_t count, size_t n);
void sc_free(void* p);
/* Number of sc_malloc/sc_calloc calls in this thread so far. */
long sc_alloc_count(void);
/* Number of sc_malloc/sc_calloc calls in any thread of the process so far
 * (worker threads of an sc_pool included). */
long sc_alloc_count_process(void);

/* Files a model names (scenes' command tables and includes, MJCF
 * includes, meshes): only a regular file is read (a FIFO, device or
 * socket could block or never end; it is opened O_NONBLOCK so that a FIFO
 * without a writer does not hang the open), of at most max bytes, whole,
 * NUL-terminated (*out: sc_free).  On a refusal why says what, with label
 * (the file as the caller names it, e.g. "'part.obj'"; "" when the caller's
 * error already names the file): "cannot open LABEL: ...", "cannot read
 * LABEL: ...", "... is too large (N bytes; the limit is M)", "... changed
 * while it was read"; the status is SC_ERR_IO (open or read), SC_ERR_SCENE
 * (too large, changed) or SC_ERR_NOMEM. */
sc_status sc_read_file(const char* path, const char* label, size_t max, char** out, size_t* len,
                       char* why, size_t whysz);

/* 3 when the n bytes at s begin with a UTF-8 byte-order mark (some Windows
 * editors write one), else 0.  Every text reader skips it, and counts the
 * columns of its first line from the byte after it. */
static inline size_t sc_utf8_bom(const char* s, size_t n) {
  return n >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
                 (unsigned char)s[2] == 0xBF
             ? 3
             : 0;
}

/* SHA-256 (FIPS 180-4): the digest of a model's inputs (sc_model's
 * input_digest).  final writes 64 lowercase hex digits and a NUL. */
typedef struct sc_sha256 {
  uint32_t h[8];
  uint64_t n;
  unsigned char buf[64];
} sc_sha256;
void sc_sha256_init(sc_sha256* s);
void sc_sha256_update(sc_sha256* s, const void* data, size_t len);
void sc_sha256_final(sc_sha256* s, char hex[65]);

/* The record of the files a load reads, so that a model's digest covers
 * what it was built from (meshes, tables, includes, models), not only its
 * scene text.  sc_inputs_begin starts recording into s for this thread (s
 * initialized here) and returns the record it replaces (NULL at the
 * outermost load; a nested load keeps adding to the outer record); give it
 * back to sc_inputs_end.  sc_read_file adds every file it reads (path and
 * content); a reader that does not go through it adds its file with
 * sc_inputs_add_file (0 when it cannot read the whole file).  Without a
 * record both do nothing. */
sc_sha256* sc_inputs_begin(sc_sha256* s);
void sc_inputs_end(sc_sha256* prev);
void sc_inputs_add(const char* path, const void* data, size_t n);
int sc_inputs_add_file(const char* path);

/* A persistent pool of worker threads (POSIX threads), created once and
 * reused: sc_pool_run wakes the workers, runs fn(arg, t) for t = 0 .. n-1
 * (t = 0 on the calling thread, the others on the workers) and returns when
 * every call has returned.  Nothing is allocated by a run.  The workers
 * block every signal, so signals reach the threads of the caller. */
typedef struct sc_pool sc_pool;
typedef void (*sc_pool_fn)(void* arg, int thread);
/* A pool of nthreads threads in all (nthreads - 1 workers); NULL when out of
 * memory, when a thread cannot be started, or when nthreads < 1. */
sc_pool* sc_pool_create(int nthreads);
/* Threads of the pool, the calling thread included. */
int sc_pool_size(const sc_pool* p);
void sc_pool_run(sc_pool* p, sc_pool_fn fn, void* arg);
/* Stop and join the workers, then free the pool (NULL is allowed). */
void sc_pool_free(sc_pool* p);
/* Number of processors online (at least 1). */
int sc_online_cpus(void);

#endif
