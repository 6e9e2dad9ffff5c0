/* fault_pwrite: an LD_PRELOAD shim for test/t_faults.sh.  pwrite() beyond
 * byte FAULT_PWRITE_LIMIT of any file fails with ENOSPC, as on a disk that
 * fills up while the file system still reports free space (a quota, another
 * writer): the failure then reaches HDF5 itself rather than simc's own
 * free-space check. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>
static long long limit(void) { const char* s = getenv("FAULT_PWRITE_LIMIT"); return s ? atoll(s) : -1; }
ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  static ssize_t (*real)(int, const void*, size_t, off_t);
  if (!real) real = (ssize_t (*)(int, const void*, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
  long long lim = limit();
  if (lim >= 0 && fd > 2 && (long long)off + (long long)n > lim) { errno = ENOSPC; return -1; }
  return real(fd, buf, n, off);
}
ssize_t pwrite64(int fd, const void* buf, size_t n, off_t off) { return pwrite(fd, buf, n, off); }
