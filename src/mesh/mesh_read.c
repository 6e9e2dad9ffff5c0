/* mesh_read: OBJ and STL files -> an sc_mesh (then sc_mesh_build).
 *
 * Formats:
 * - Wavefront OBJ (Wavefront Technologies, "Object Files (.obj)", Appendix
 *   B1 of the Advanced Visualizer manual): `v x y z [w]` records (further
 *   numbers such as w or per-vertex colours are read and ignored) and
 *   `f i j k ...` records whose references are i, i/t, i/t/n or i//n,
 *   1-based, negative meaning relative to the last vertex read so far.
 *   Polygons are fanned from their first vertex.  All other records are
 *   ignored; `#` starts a comment anywhere.  A positive index may refer to
 *   a vertex defined further down (the format allows it), so the file is
 *   read twice: once counting records, once parsing with the total known.
 * - STL (3D Systems, "StereoLithography Interface Specification", 1989):
 *   binary = an 80-byte header, a little-endian uint32 triangle count and
 *   50 bytes a triangle (normal, 3 vertices as little-endian float32, a
 *   uint16 attribute); ASCII = solid / facet normal / outer loop / vertex
 *   x3 / endloop / endfacet ... endsolid (keywords in any case; several
 *   solids in a row accepted).  A binary header may itself begin with
 *   "solid", so the size rule 84 + 50 n == file size is tried first; then
 *   text beginning with "solid" and holding no NUL byte is ASCII; anything
 *   else is a binary file of the wrong size.  STL repeats every vertex in
 *   each triangle: exactly equal coordinates are merged (an open-addressing
 *   hash table on the coordinates' bit patterns, -0.0 taken as 0.0, with
 *   the splitmix64 finalizer as the hash) so that closedness can be tested
 *   on indices and the mesh is not three times larger than it needs to be.
 *
 * - Everything else the Open Asset Import Library (assimp) reads: Collada
 *   .dae first of all, ROS's visual and collision format.  Every mesh of
 *   the file's scene, placed by its nodes' transforms, is one triangle soup
 *   (points and lines dropped), merged as STL's.  Collada's <unit meter> is
 *   applied; its <up_axis> is not: ROS tools read the coordinates in the
 *   link's frame as written (rviz leaves out assimp's turn to y-up).
 *
 * scale multiplies each coordinate before anything else; a scale with an
 * odd number of negative components mirrors the mesh, which turns its
 * triangles inside out, so their winding is reversed to keep them facing
 * out. */
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "mesh/mesh.h"

typedef struct rd {
  const char* path;
  sc_error* err;
} rd;

/* ---- the file ---- */

static sc_status slurp(const rd* r, char** out, size_t* len) {
  char why[600];
  const sc_status st = sc_read_file(r->path, "", (size_t)SC_MESH_MAX_FILE_BYTES, out, len, why, sizeof why);
  return st ? sc_error_set(r->err, st, r->path, 0, 0, "%s", why) : SC_OK;
}

/* ---- tokens ---- */

static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The next token of [*p, e) (NULL when none), its length in *n. */
static const char* next_tok(const char** p, const char* e, size_t* n) {
  const char* s = *p;
  while (s < e && is_ws(*s)) s++;
  if (s >= e) {
    *p = e;
    return NULL;
  }
  const char* t = s;
  while (t < e && !is_ws(*t)) t++;
  *n = (size_t)(t - s);
  *p = t;
  return s;
}

/* The token is one whole number (strtod's syntax; the byte after a token is
 * white space, a newline, '#' or the terminating NUL, none of which a
 * number continues with). */
static int parse_num(const char* t, size_t n, double* v) {
  char* e;
  *v = strtod(t, &e);
  return n > 0 && e == t + n;
}

static int tok_is(const char* t, size_t n, const char* kw) {
  return n == strlen(kw) && strncasecmp(t, kw, n) == 0;
}

static int col_of(const char* t, const char* line_start) { return (int)(t - line_start) + 1; }

/* ---- growable arrays ---- */

static int grow(void** p, size_t* cap, size_t need, size_t elem) {
  if (need <= *cap) return 1;
  size_t nc = *cap ? *cap : 256;
  while (nc < need) nc *= 2;
  void* q = sc_malloc(nc * elem);
  if (!q) return 0;
  if (*p) memcpy(q, *p, *cap * elem);
  sc_free(*p);
  *p = q;
  *cap = nc;
  return 1;
}

/* ---- OBJ ---- */

/* [t, t + n) is an optional sign and digits (empty allowed when may_be_empty) */
static int is_int(const char* t, size_t n, int may_be_empty) {
  if (n == 0) return may_be_empty;
  if (*t == '+' || *t == '-') {
    t++;
    n--;
  }
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++)
    if (t[i] < '0' || t[i] > '9') return 0;
  return 1;
}

/* A face reference i, i/t, i/t/n or i//n: the vertex index i. */
static int parse_ref(const char* t, size_t n, long* v) {
  const char* end = t + n;
  const char* s1 = memchr(t, '/', n);
  const char* e0 = s1 ? s1 : end;
  if (!is_int(t, (size_t)(e0 - t), 0)) return 0;
  if (s1) {
    const char* s2 = memchr(s1 + 1, '/', (size_t)(end - s1 - 1));
    const char* e1 = s2 ? s2 : end;
    if (!is_int(s1 + 1, (size_t)(e1 - s1 - 1), 1)) return 0;
    if (s2 && !is_int(s2 + 1, (size_t)(end - s2 - 1), 0)) return 0;
  }
  errno = 0;
  *v = strtol(t, NULL, 10); /* out of long's range: LONG_MAX / LONG_MIN, out of range below */
  return 1;
}

/* [line start, end of its content without a comment) of the line at p */
static const char* line_end(const char* p, const char* end, const char** next) {
  const char* nl = memchr(p, '\n', (size_t)(end - p));
  const char* le = nl ? nl : end;
  *next = nl ? nl + 1 : end;
  const char* h = memchr(p, '#', (size_t)(le - p));
  return h ? h : le;
}

static sc_status read_obj(const rd* r, const char* buf, size_t len, sc_mesh* out) {
  const char* end = buf + len;
  /* pass 1: how many vertices and triangles */
  long nv = 0, nt = 0;
  int line = 1;
  for (const char* p = buf; p < end; line++) {
    const char* next;
    const char* le = line_end(p, end, &next);
    const char* q = p;
    size_t n;
    const char* t = next_tok(&q, le, &n);
    if (t && n == 1 && t[0] == 'v') {
      if (++nv > SC_MESH_MAX_VERTS)
        return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, 1, "more than %d vertices", SC_MESH_MAX_VERTS);
    } else if (t && n == 1 && t[0] == 'f') {
      long k = 0;
      while (next_tok(&q, le, &n)) k++;
      if (k >= 3) nt += k - 2;
      if (nt > SC_MESH_MAX_FACES)
        return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, 1, "more than %d triangles", SC_MESH_MAX_FACES);
    }
    p = next;
  }
  out->vert = sc_malloc(sizeof(double) * 3 * (size_t)(nv ? nv : 1));
  out->face = sc_malloc(sizeof(int) * 3 * (size_t)(nt ? nt : 1));
  if (!out->vert || !out->face) return sc_error_set(r->err, SC_ERR_NOMEM, r->path, 0, 0, "out of memory");
  /* pass 2 */
  int iv = 0, it = 0;
  line = 1;
  for (const char* p = buf; p < end; line++) {
    const char* next;
    const char* le = line_end(p, end, &next);
    const char* q = p;
    size_t n;
    const char* t = next_tok(&q, le, &n);
    if (t && n == 1 && t[0] == 'v') {
      double* x = out->vert + 3 * iv;
      int k = 0;
      const char* tk;
      while ((tk = next_tok(&q, le, &n))) {
        double v;
        if (!parse_num(tk, n, &v))
          return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, col_of(tk, p), "malformed number '%.*s'",
                              (int)(n > 40 ? 40 : n), tk);
        if (k < 3) x[k] = v;
        k++;
      }
      if (k < 3)
        return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, 1, "vertex %d: %d coordinates (3 needed)", iv + 1,
                            k);
      for (int c = 0; c < 3; c++)
        if (!isfinite(x[c]))
          return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, 1, "vertex %d: coordinate is not finite",
                              iv + 1);
      iv++;
    } else if (t && n == 1 && t[0] == 'f') {
      int k = 0, first = 0, prev = 0;
      const char* tk;
      while ((tk = next_tok(&q, le, &n))) {
        long ref;
        if (!parse_ref(tk, n, &ref))
          return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, col_of(tk, p), "malformed face index '%.*s'",
                              (int)(n > 40 ? 40 : n), tk);
        long idx;
        if (ref == 0)
          return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, col_of(tk, p),
                              "face index 0 is invalid (OBJ indices start at 1)");
        if (ref > 0) {
          if (ref > nv)
            return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, col_of(tk, p),
                                "face index %ld out of range (the file has %ld vertices)", ref, nv);
          idx = ref - 1;
        } else {
          idx = iv + ref;
          if (idx < 0)
            return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, col_of(tk, p),
                                "face index %ld out of range (%d vertices precede it)", ref, iv);
        }
        if (k == 0) first = (int)idx;
        if (k >= 2) {
          int* f = out->face + 3 * it++;
          f[0] = first;
          f[1] = prev;
          f[2] = (int)idx;
        }
        prev = (int)idx;
        k++;
      }
      if (k < 3)
        return sc_error_set(r->err, SC_ERR_SCENE, r->path, line, 1, "face with %d vertices (at least 3 needed)", k);
    }
    p = next;
  }
  out->nvert = iv;
  out->nface = it;
  if (it == 0) return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "no faces (no 'f' records)");
  return SC_OK;
}

/* ---- STL ---- */

static uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

static uint64_t hash_pos(const double* x) {
  uint64_t h = 0;
  for (int k = 0; k < 3; k++) {
    double v = x[k] + 0.0; /* -0.0 -> 0.0 */
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    h = mix64(h ^ b);
  }
  return h;
}

/* soup: nt triangles x 3 vertices x 3 coordinates -> out->vert/face with
 * equal positions shared */
static sc_status merge_soup(const rd* r, const double* soup, int nt, sc_mesh* out) {
  size_t ns = 3 * (size_t)nt, tsz = 1;
  while (tsz < 2 * ns) tsz *= 2;
  int* table = sc_malloc(sizeof(int) * tsz);
  double* vert = sc_malloc(sizeof(double) * 3 * ns);
  out->face = sc_malloc(sizeof(int) * ns);
  if (!table || !vert || !out->face) {
    sc_free(table);
    sc_free(vert);
    return sc_error_set(r->err, SC_ERR_NOMEM, r->path, 0, 0, "out of memory");
  }
  for (size_t i = 0; i < tsz; i++) table[i] = -1;
  int nv = 0;
  for (size_t i = 0; i < ns; i++) {
    const double* x = soup + 3 * i;
    size_t h = (size_t)hash_pos(x) & (tsz - 1);
    for (;;) {
      int j = table[h];
      if (j < 0) {
        if (nv >= SC_MESH_MAX_VERTS) {
          sc_free(table);
          sc_free(vert);
          return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "more than %d distinct vertices",
                              SC_MESH_MAX_VERTS);
        }
        memcpy(vert + 3 * nv, x, 3 * sizeof(double));
        table[h] = j = nv++;
      } else if (!(vert[3 * j] == x[0] && vert[3 * j + 1] == x[1] && vert[3 * j + 2] == x[2])) {
        h = (h + 1) & (tsz - 1);
        continue;
      }
      out->face[i] = j;
      break;
    }
  }
  sc_free(table);
  out->vert = sc_malloc(sizeof(double) * 3 * (size_t)nv);
  if (!out->vert) {
    sc_free(vert);
    return sc_error_set(r->err, SC_ERR_NOMEM, r->path, 0, 0, "out of memory");
  }
  memcpy(out->vert, vert, sizeof(double) * 3 * (size_t)nv);
  sc_free(vert);
  out->nvert = nv;
  out->nface = nt;
  return SC_OK;
}

static uint32_t le32(const unsigned char* b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static sc_status read_stl_binary(const rd* r, const unsigned char* buf, uint32_t n, sc_mesh* out) {
  if (n == 0) return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "no faces (binary STL of 0 triangles)");
  if (n > (uint32_t)SC_MESH_MAX_FACES)
    return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "%lu triangles (the limit is %d)", (unsigned long)n,
                        SC_MESH_MAX_FACES);
  double* soup = sc_malloc(sizeof(double) * 9 * (size_t)n);
  if (!soup) return sc_error_set(r->err, SC_ERR_NOMEM, r->path, 0, 0, "out of memory");
  for (uint32_t t = 0; t < n; t++) {
    const unsigned char* b = buf + 84 + 50 * (size_t)t + 12;
    for (int k = 0; k < 9; k++) {
      uint32_t u = le32(b + 4 * k);
      float f;
      memcpy(&f, &u, sizeof f);
      double v = (double)f;
      if (!isfinite(v)) {
        sc_free(soup);
        return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0,
                            "triangle %lu (byte offset %zu), vertex %d: coordinate is not finite",
                            (unsigned long)t + 1, 84 + 50 * (size_t)t, k / 3 + 1);
      }
      soup[9 * (size_t)t + (size_t)k] = v;
    }
  }
  sc_status st = merge_soup(r, soup, (int)n, out);
  sc_free(soup);
  return st;
}

typedef struct tokz {
  const char* p;
  const char* end;
  const char* line_start;
  int line;
} tokz;

/* The next token across lines (NULL at the end), located in *line, *col. */
static const char* tk_next(tokz* z, size_t* n, int* line, int* col) {
  for (;;) {
    while (z->p < z->end && is_ws(*z->p)) z->p++;
    if (z->p < z->end && *z->p == '\n') {
      z->p++;
      z->line++;
      z->line_start = z->p;
      continue;
    }
    break;
  }
  if (z->p >= z->end) return NULL;
  const char* s = z->p;
  while (z->p < z->end && !is_ws(*z->p) && *z->p != '\n') z->p++;
  *n = (size_t)(z->p - s);
  *line = z->line;
  *col = col_of(s, z->line_start);
  return s;
}

static void tk_skip_line(tokz* z) {
  const char* nl = memchr(z->p, '\n', (size_t)(z->end - z->p));
  if (nl) {
    z->p = nl + 1;
    z->line++;
    z->line_start = z->p;
  } else {
    z->p = z->end;
  }
}

static sc_status read_stl_ascii(const rd* r, const char* buf, size_t len, sc_mesh* out) {
  tokz z = {buf, buf + len, buf, 1};
  double* soup = NULL;
  size_t cap = 0;
  long nt = 0, nvrec = 0;
  size_t n;
  int line = 1, col = 1;
  sc_status st = SC_OK;
  const char* t = tk_next(&z, &n, &line, &col); /* "solid", checked by the caller */
  tk_skip_line(&z);                             /* the solid's name */
  int ended = 0;
#define FAIL(...)                                                           \
  do {                                                                      \
    st = sc_error_set(r->err, SC_ERR_SCENE, r->path, line, col, __VA_ARGS__); \
    goto done;                                                              \
  } while (0)
#define EXPECT(kw)                                                                              \
  do {                                                                                          \
    t = tk_next(&z, &n, &line, &col);                                                           \
    if (!t) FAIL("unexpected end of file (expected '%s')", kw);                                 \
    if (!tok_is(t, n, kw)) FAIL("expected '%s', found '%.*s'", kw, (int)(n > 40 ? 40 : n), t);  \
  } while (0)
  for (;;) {
    t = tk_next(&z, &n, &line, &col);
    if (!t) {
      if (ended) break;
      FAIL("unexpected end of file (no 'endsolid')");
    }
    if (ended) {
      if (!tok_is(t, n, "solid")) FAIL("expected 'solid' or the end of the file, found '%.*s'", (int)(n > 40 ? 40 : n), t);
      tk_skip_line(&z);
      ended = 0;
      continue;
    }
    if (tok_is(t, n, "endsolid")) {
      tk_skip_line(&z);
      ended = 1;
      continue;
    }
    if (!tok_is(t, n, "facet")) FAIL("expected 'facet' or 'endsolid', found '%.*s'", (int)(n > 40 ? 40 : n), t);
    EXPECT("normal");
    for (int k = 0; k < 3; k++) {
      double v;
      t = tk_next(&z, &n, &line, &col);
      if (!t) FAIL("unexpected end of file (in a facet normal)");
      if (!parse_num(t, n, &v)) FAIL("malformed number '%.*s'", (int)(n > 40 ? 40 : n), t);
    }
    EXPECT("outer");
    EXPECT("loop");
    int fline = line, nvf = 0;
    double first[3] = {0, 0, 0}, prev[3] = {0, 0, 0};
    for (;;) {
      t = tk_next(&z, &n, &line, &col);
      if (!t) FAIL("unexpected end of file (in a facet)");
      if (!tok_is(t, n, "vertex")) break;
      double x[3];
      int vline = line;
      nvrec++;
      for (int k = 0; k < 3; k++) {
        t = tk_next(&z, &n, &line, &col);
        if (!t) FAIL("unexpected end of file (in a vertex)");
        if (!parse_num(t, n, &x[k])) FAIL("malformed number '%.*s'", (int)(n > 40 ? 40 : n), t);
      }
      if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2])) {
        line = vline;
        col = 1;
        FAIL("vertex %ld: coordinate is not finite", nvrec);
      }
      if (nvf == 0) memcpy(first, x, sizeof first);
      if (nvf >= 2) {
        if (nt >= SC_MESH_MAX_FACES) FAIL("more than %d triangles", SC_MESH_MAX_FACES);
        if (!grow((void**)&soup, &cap, 9 * (size_t)(nt + 1), sizeof(double))) {
          st = sc_error_set(r->err, SC_ERR_NOMEM, r->path, 0, 0, "out of memory");
          goto done;
        }
        double* s = soup + 9 * nt++;
        memcpy(s, first, sizeof first);
        memcpy(s + 3, prev, sizeof prev);
        memcpy(s + 6, x, sizeof x);
      }
      memcpy(prev, x, sizeof prev);
      nvf++;
    }
    if (!tok_is(t, n, "endloop")) FAIL("expected 'vertex' or 'endloop', found '%.*s'", (int)(n > 40 ? 40 : n), t);
    if (nvf < 3) {
      line = fline;
      FAIL("facet with %d vertices (3 needed)", nvf);
    }
    EXPECT("endfacet");
  }
#undef EXPECT
#undef FAIL
  if (nt == 0) {
    st = sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "no faces (no 'facet' records)");
    goto done;
  }
  st = merge_soup(r, soup, (int)nt, out);
done:
  sc_free(soup);
  return st;
}

static sc_status read_stl(const rd* r, const char* buf, size_t len, sc_mesh* out) {
  const unsigned char* ub = (const unsigned char*)buf;
  uint32_t n = 0;
  unsigned long long need = 0;
  if (len >= 84) {
    n = le32(ub + 80);
    need = 84ULL + 50ULL * n;
    if (need == (unsigned long long)len) return read_stl_binary(r, ub, n, out);
  }
  /* not binary: text, which may begin with a byte-order mark */
  const size_t bom = sc_utf8_bom(buf, len);
  const char* s = buf + bom;
  while (s < buf + len && (is_ws(*s) || *s == '\n')) s++;
  if ((size_t)(buf + len - s) >= 5 && strncasecmp(s, "solid", 5) == 0 && !memchr(buf, '\0', len))
    return read_stl_ascii(r, buf + bom, len - bom, out);
  if (len < 84)
    return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0,
                        "not an STL file (%zu bytes: too short for binary STL, and not text beginning with 'solid')",
                        len);
  if (need > (unsigned long long)len)
    return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0,
                        "truncated binary STL: %lu triangles declared, file holds %zu bytes (%llu needed)",
                        (unsigned long)n, len, need);
  return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0,
                      "binary STL of the wrong size: %lu triangles declared (%llu bytes), file holds %zu bytes",
                      (unsigned long)n, need, len);
}

/* ---- assimp ----
 * Loaded on first use (dlopen), not linked: with its C++ runtime and
 * codecs it adds about ten libraries and a third of the symbol lookups
 * the dynamic loader makes at every start of simc, for meshes most scenes
 * do not have. */

#ifndef SC_ASSIMP_SONAME
#define SC_ASSIMP_SONAME "libassimp.so.5"
#endif

static struct {
  void* lib;
  char why[256]; /* dlerror's message when lib is NULL */
  struct aiPropertyStore* (*create_props)(void);
  void (*set_int)(struct aiPropertyStore*, const char*, int);
  const struct aiScene* (*import)(const char*, unsigned int, struct aiFileIO*,
                                  const struct aiPropertyStore*);
  void (*release_props)(struct aiPropertyStore*);
  const char* (*error_string)(void);
  void (*release)(const struct aiScene*);
  aiReturn (*extension_supported)(const char*);
} ai;
static pthread_once_t ai_once = PTHREAD_ONCE_INIT;

static void ai_load(void) {
  void* h = dlopen(SC_ASSIMP_SONAME, RTLD_NOW | RTLD_LOCAL);
  const char* e = h ? NULL : dlerror();
  /* (POSIX's way to take a function from dlsym: through a void*) */
#define AI_SYM(field, name) \
  if (h && !e) { \
    void* f = dlsym(h, name); \
    if (f) memcpy(&ai.field, &f, sizeof f); \
    else e = dlerror(); \
  }
  AI_SYM(create_props, "aiCreatePropertyStore")
  AI_SYM(set_int, "aiSetImportPropertyInteger")
  AI_SYM(import, "aiImportFileExWithProperties")
  AI_SYM(release_props, "aiReleasePropertyStore")
  AI_SYM(error_string, "aiGetErrorString")
  AI_SYM(release, "aiReleaseImport")
  AI_SYM(extension_supported, "aiIsExtensionSupported")
#undef AI_SYM
  if (e) {
    snprintf(ai.why, sizeof ai.why, "%s", e);
    if (h) dlclose(h);
    return;
  }
  ai.lib = h;
}

/* assimp, loaded once for the process; NULL with the reason in why */
static int ai_ready(void) {
  pthread_once(&ai_once, ai_load);
  return ai.lib != NULL;
}

static sc_status ai_missing(const rd* r) {
  return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0,
                      "this mesh format is read through the Open Asset Import Library, which could not "
                      "be loaded (%s; Debian: apt-get install libassimp5)",
                      ai.why);
}

static sc_status read_assimp(const rd* r, sc_mesh* out) {
  struct stat sb;
  if (stat(r->path, &sb) != 0)
    return sc_error_set(r->err, SC_ERR_IO, r->path, 0, 0, "cannot open: %s", strerror(errno));
  if (!S_ISREG(sb.st_mode)) return sc_error_set(r->err, SC_ERR_IO, r->path, 0, 0, "not a regular file");
  if (sb.st_size > (off_t)SC_MESH_MAX_FILE_BYTES)
    return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "the file is larger than %ld bytes",
                        (long)SC_MESH_MAX_FILE_BYTES);
  if (!ai_ready()) return ai_missing(r);
  struct aiPropertyStore* ps = ai.create_props();
  if (!ps) return sc_error_set(r->err, SC_ERR_NOMEM, r->path, 0, 0, "out of memory");
  ai.set_int(ps, AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, 1);
  const struct aiScene* sc = ai.import(
      r->path, aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_SortByPType, NULL, ps);
  ai.release_props(ps);
  if (!sc) return sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "assimp: %s", ai.error_string());
  size_t nt = 0;
  for (unsigned m = 0; m < sc->mNumMeshes; m++)
    for (unsigned f = 0; f < sc->mMeshes[m]->mNumFaces; f++) nt += sc->mMeshes[m]->mFaces[f].mNumIndices == 3;
  sc_status st = SC_OK;
  if (nt == 0) {
    st = sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "no triangles (%u meshes)", sc->mNumMeshes);
  } else if (nt > (size_t)SC_MESH_MAX_FACES) {
    st = sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "more than %d triangles", SC_MESH_MAX_FACES);
  } else {
    double* soup = sc_malloc(sizeof(double) * 9 * nt);
    if (!soup) st = sc_error_set(r->err, SC_ERR_NOMEM, r->path, 0, 0, "out of memory");
    size_t k = 0;
    for (unsigned m = 0; soup && m < sc->mNumMeshes; m++) {
      const struct aiMesh* me = sc->mMeshes[m];
      for (unsigned f = 0; f < me->mNumFaces; f++) {
        if (me->mFaces[f].mNumIndices != 3) continue;
        for (int c = 0; c < 3; c++) {
          const struct aiVector3D* v = &me->mVertices[me->mFaces[f].mIndices[c]];
          soup[k++] = (double)v->x, soup[k++] = (double)v->y, soup[k++] = (double)v->z;
        }
      }
    }
    for (size_t i = 0; soup && i < 9 * nt && !st; i++)
      if (!isfinite(soup[i])) st = sc_error_set(r->err, SC_ERR_SCENE, r->path, 0, 0, "a vertex is not finite");
    if (soup && !st) st = merge_soup(r, soup, (int)nt, out);
    sc_free(soup);
  }
  ai.release(sc);
  return st;
}

/* ---- entry ---- */

sc_status sc_mesh_read(const char* path, const double scale[3], sc_mesh* out, sc_error* err) {
  memset(out, 0, sizeof *out);
  rd r = {path, err};
  const char* base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char* dot = strrchr(base, '.');
  int is_obj = dot && strcasecmp(dot, ".obj") == 0, is_stl = dot && strcasecmp(dot, ".stl") == 0;
  if (!is_obj && !is_stl && dot && !ai_ready()) return ai_missing(&r);
  if (!is_obj && !is_stl && !(dot && ai.extension_supported(dot)))
    return sc_error_set(err, SC_ERR_SCENE, path, 0, 0,
                        "unknown mesh format (expected .obj, .stl, or a format assimp reads such as .dae)");
  for (int k = 0; k < 3; k++)
    if (!isfinite(scale[k]))
      return sc_error_set(err, SC_ERR_SCENE, path, 0, 0, "scale[%d] is not finite", k);
  sc_status st;
  if (is_obj || is_stl) {
    char* buf;
    size_t len;
    st = slurp(&r, &buf, &len);
    if (st) return st;
    if (len == 0) {
      sc_free(buf);
      return sc_error_set(err, SC_ERR_SCENE, path, 0, 0, "the file is empty");
    }
    /* an OBJ's byte-order mark would make its first line unrecognized (a
     * vertex lost); an STL's is skipped by read_stl, which must first see
     * whether the bytes are a binary file's */
    const size_t bom = is_obj ? sc_utf8_bom(buf, len) : 0;
    st = is_obj ? read_obj(&r, buf + bom, len - bom, out) : read_stl(&r, buf, len, out);
    sc_free(buf);
  } else {
    st = read_assimp(&r, out);
  }
  if (st) {
    sc_mesh_free(out);
    return st;
  }
  for (int i = 0; i < out->nvert; i++)
    for (int k = 0; k < 3; k++) out->vert[3 * i + k] *= scale[k];
  if (scale[0] * scale[1] * scale[2] < 0)
    for (int f = 0; f < out->nface; f++) {
      int tmp = out->face[3 * f + 1];
      out->face[3 * f + 1] = out->face[3 * f + 2];
      out->face[3 * f + 2] = tmp;
    }
  size_t pl = strlen(path) + 1;
  out->file = sc_malloc(pl);
  if (!out->file) {
    sc_mesh_free(out);
    return sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory");
  }
  memcpy(out->file, path, pl);
  st = sc_mesh_build(out, path, err);
  if (st) sc_mesh_free(out);
  return st;
}
