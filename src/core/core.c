/* core: errors and counted allocation. */
#include "core/core.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sc_error_clear(sc_error* err) {
  if (err) memset(err, 0, sizeof *err);
}

sc_status sc_error_set(sc_error* err, sc_status code, const char* file, int line, int col,
                       const char* fmt, ...) {
  if (!err) return code;
  err->code = code;
  err->line = line;
  err->col = col;
  if (file) {
    snprintf(err->file, sizeof err->file, "%s", file);
  } else {
    err->file[0] = '\0';
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return code;
}

void sc_error_format(const sc_error* err, char* buf, size_t bufsz) {
  if (err->file[0] && err->line > 0 && err->col > 0) {
    snprintf(buf, bufsz, "%s:%d:%d: %s", err->file, err->line, err->col, err->msg);
  } else if (err->file[0] && err->line > 0) { /* a line without columns (XML) */
    snprintf(buf, bufsz, "%s:%d: %s", err->file, err->line, err->msg);
  } else if (err->file[0]) {
    snprintf(buf, bufsz, "%s: %s", err->file, err->msg);
  } else {
    snprintf(buf, bufsz, "%s", err->msg);
  }
}

/* thread-local so concurrent simulations in one process count separately;
 * the process-wide count also sees the workers of a pool */
static _Thread_local long alloc_count;
static _Atomic long alloc_count_process;

void* sc_malloc(size_t n) {
  alloc_count++;
  atomic_fetch_add_explicit(&alloc_count_process, 1, memory_order_relaxed);
  return malloc(n ? n : 1);
}

void* sc_calloc(size_t count, size_t n) {
  alloc_count++;
  atomic_fetch_add_explicit(&alloc_count_process, 1, memory_order_relaxed);
  return calloc(count ? count : 1, n ? n : 1);
}

void sc_free(void* p) { free(p); }

long sc_alloc_count(void) { return alloc_count; }

long sc_alloc_count_process(void) {
  return atomic_load_explicit(&alloc_count_process, memory_order_relaxed);
}
