/* core: SHA-256 (FIPS 180-4) and the record of the files a load reads. */
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void block(sc_sha256* s, const unsigned char* p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
           (uint32_t)p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    const uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4], f = s->h[5],
           g = s->h[6], h = s->h[7];
  for (int i = 0; i < 64; i++) {
    const uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
    const uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  s->h[0] += a;
  s->h[1] += b;
  s->h[2] += c;
  s->h[3] += d;
  s->h[4] += e;
  s->h[5] += f;
  s->h[6] += g;
  s->h[7] += h;
}

void sc_sha256_init(sc_sha256* s) {
  static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(s->h, h0, sizeof h0);
  s->n = 0;
}

void sc_sha256_update(sc_sha256* s, const void* data, size_t len) {
  const unsigned char* p = data;
  size_t fill = (size_t)(s->n % 64);
  s->n += len;
  if (fill) {
    size_t k = 64 - fill < len ? 64 - fill : len;
    memcpy(s->buf + fill, p, k);
    p += k;
    len -= k;
    if (fill + k < 64) return;
    block(s, s->buf);
  }
  for (; len >= 64; p += 64, len -= 64) block(s, p);
  memcpy(s->buf, p, len);
}

void sc_sha256_final(sc_sha256* s, char hex[65]) {
  const uint64_t bits = s->n * 8;
  const unsigned char one = 0x80, zero = 0;
  sc_sha256_update(s, &one, 1);
  while (s->n % 64 != 56) sc_sha256_update(s, &zero, 1);
  unsigned char len[8];
  for (int i = 0; i < 8; i++) len[i] = (unsigned char)(bits >> (56 - 8 * i));
  sc_sha256_update(s, len, 8);
  for (int i = 0; i < 8; i++) snprintf(hex + 8 * i, 9, "%08x", (unsigned)s->h[i]);
}

/* one load at a time per thread; a load inside a load (a model's own
 * scene) adds to the outer record */
static _Thread_local sc_sha256* record;

sc_sha256* sc_inputs_begin(sc_sha256* s) {
  sc_sha256* prev = record;
  if (!prev) sc_sha256_init(s);
  record = prev ? prev : s;
  return prev;
}

void sc_inputs_end(sc_sha256* prev) { record = prev; }

/* the path's length and the content's delimit each file: "ab"+"c" and
 * "a"+"bc" differ */
static void add_head(const char* path, uint64_t n) {
  const uint64_t pl = strlen(path);
  sc_sha256_update(record, &pl, sizeof pl);
  sc_sha256_update(record, path, (size_t)pl);
  sc_sha256_update(record, &n, sizeof n);
}

void sc_inputs_add(const char* path, const void* data, size_t n) {
  if (!record) return;
  add_head(path, n);
  sc_sha256_update(record, data, n);
}

int sc_inputs_add_file(const char* path) {
  if (!record) return 1;
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) return 0;
  struct stat sb;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    close(fd);
    return 0;
  }
  add_head(path, (uint64_t)sb.st_size);
  unsigned char buf[1 << 14];
  uint64_t got = 0;
  for (;;) {
    ssize_t r = read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      close(fd);
      /* a file that changed size while read is not the file that was used */
      return r == 0 && got == (uint64_t)sb.st_size;
    }
    got += (uint64_t)r;
    sc_sha256_update(record, buf, (size_t)r);
  }
}
