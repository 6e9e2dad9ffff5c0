/* core: errors and counted allocation. */
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

sc_status sc_read_file(const char* path, const char* label, size_t max, char** out, size_t* len,
                       char* why, size_t whysz) {
  *out = NULL;
  *len = 0;
  const char* sp = label[0] ? " " : "";
  const char* it = label[0] ? label : "the file";
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) {
    snprintf(why, whysz, "cannot open%s%s: %s", sp, label, strerror(errno));
    return SC_ERR_IO;
  }
  struct stat sb;
  int serr = fstat(fd, &sb) != 0 ? errno : 0;
  if (serr || !S_ISREG(sb.st_mode)) {
    close(fd);
    snprintf(why, whysz, "cannot read%s%s: %s", sp, label,
             serr ? strerror(serr) : S_ISDIR(sb.st_mode) ? strerror(EISDIR) : "not a regular file");
    return SC_ERR_IO;
  }
  if (sb.st_size > (off_t)max) {
    close(fd);
    snprintf(why, whysz, "%s is too large (%lld bytes; the limit is %zu)", it, (long long)sb.st_size, max);
    return SC_ERR_SCENE;
  }
  size_t cap = (size_t)sb.st_size + 2, n = 0; /* one more: a file that grew is seen */
  char* buf = sc_malloc(cap);
  if (!buf) {
    close(fd);
    snprintf(why, whysz, "out of memory (%zu bytes)", cap);
    return SC_ERR_NOMEM;
  }
  for (;;) {
    ssize_t r = read(fd, buf + n, cap - 1 - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int e = errno;
      close(fd);
      sc_free(buf);
      snprintf(why, whysz, "cannot read%s%s: %s", sp, label, strerror(e));
      return SC_ERR_IO;
    }
    if (r == 0) break;
    n += (size_t)r;
    if (n + 1 >= cap) {
      close(fd);
      sc_free(buf);
      snprintf(why, whysz, "%s changed while it was read", it);
      return SC_ERR_SCENE;
    }
  }
  close(fd);
  buf[n] = '\0';
  sc_inputs_add(path, buf, n);
  *out = buf;
  *len = n;
  return SC_OK;
}
