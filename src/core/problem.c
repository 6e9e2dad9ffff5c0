/* problem: conversions between the block form of an sc_problem (tree blocks
 * of A, per-contact column lists of J; see problem.h) and dense matrices.
 * The integrator builds the block form directly; these serve problems
 * written by hand (tests, tools) and the dense reference paths of the
 * solvers, which densify small problems into their own workspaces. */
#include "core/problem.h"

#include <string.h>

#include "core/core.h"

void sc_problem_storage_free(sc_problem_storage* st) {
  sc_free(st->ibuf);
  sc_free(st->dbuf);
  st->ibuf = NULL;
  st->dbuf = NULL;
  st->icap = st->dcap = 0;
}

/* make *buf hold at least n elements of size sz */
static int reserve(void** buf, size_t* cap, size_t n, size_t sz) {
  if (n <= *cap && *buf) return 0;
  sc_free(*buf);
  *buf = sc_malloc(sz * (n > 0 ? n : 1));
  *cap = *buf ? n : 0;
  return *buf ? 0 : -1;
}

long sc_problem_ablk_size(const sc_problem* p) {
  long s = 0;
  for (int t = 0; t < p->ntree; t++) {
    const long n = p->tree_ptr[t + 1] - p->tree_ptr[t];
    s += n * n;
  }
  return s;
}

static int uf_find(int* uf, int x) {
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

int sc_problem_set_dense(sc_problem* p, const double* A, const double* J,
                         sc_problem_storage* st) {
  const int nv = p->nv, nc = p->nc;
  const size_t m = 3 * (size_t)nc;
  /* columns of J per contact */
  long nnzj = 0;
  for (int k = 0; k < nv; k++)
    for (int c = 0; c < nc; c++) {
      const double* e = J + 3 * (size_t)c + (size_t)k * m;
      nnzj += e[0] != 0.0 || e[1] != 0.0 || e[2] != 0.0;
    }
  /* ints: uf, tree_of (scratch) tree_ptr, tree_dofs, jptr, jcol */
  const size_t ni = 2 * (size_t)nv + ((size_t)nv + 1) + (size_t)nv + ((size_t)nc + 1) +
                    (size_t)nnzj + 1;
  void* ib = st->ibuf;
  if (reserve(&ib, &st->icap, ni, sizeof(int)) != 0) return -1;
  st->ibuf = ib;
  int* uf = st->ibuf;
  int* tree_of = uf + nv;
  int* tree_ptr = tree_of + nv;
  int* tree_dofs = tree_ptr + nv + 1;
  int* jptr = tree_dofs + nv;
  int* jcol = jptr + nc + 1;

  /* trees: connected components of the pattern of A (both triangles),
   * numbered in the order of their smallest dof */
  for (int i = 0; i < nv; i++) uf[i] = i;
  for (int j = 0; j < nv; j++) {
    const double* col = A + (size_t)j * nv;
    for (int i = 0; i < nv; i++) {
      if (i == j || col[i] == 0.0) continue;
      const int a = uf_find(uf, i), b = uf_find(uf, j);
      if (a != b) uf[a > b ? a : b] = a < b ? a : b; /* root = smallest dof */
    }
  }
  int ntree = 0;
  for (int i = 0; i < nv; i++) {
    const int r = uf_find(uf, i);
    tree_of[i] = r == i ? ntree++ : tree_of[r];
  }
  for (int t = 0; t <= ntree; t++) tree_ptr[t] = 0;
  for (int i = 0; i < nv; i++) tree_ptr[tree_of[i] + 1]++;
  for (int t = 0; t < ntree; t++) tree_ptr[t + 1] += tree_ptr[t];
  for (int t = 0; t < ntree; t++) uf[t] = tree_ptr[t]; /* cursor */
  for (int i = 0; i < nv; i++) tree_dofs[uf[tree_of[i]]++] = i;
  p->ntree = ntree;
  p->tree_ptr = tree_ptr;
  p->tree_dofs = tree_dofs;
  const long nblk = sc_problem_ablk_size(p);

  void* db = st->dbuf;
  if (reserve(&db, &st->dcap, (size_t)nblk + 3 * (size_t)nnzj, sizeof(double)) != 0) return -1;
  st->dbuf = db;
  double* Ab = st->dbuf;
  double* Jv = Ab + nblk;
  size_t off = 0;
  for (int t = 0; t < ntree; t++) {
    const int* d = tree_dofs + tree_ptr[t];
    const int n = tree_ptr[t + 1] - tree_ptr[t];
    for (int b = 0; b < n; b++)
      for (int a = 0; a < n; a++) Ab[off + a + (size_t)b * n] = A[d[a] + (size_t)d[b] * nv];
    off += (size_t)n * n;
  }
  /* J: count per contact, then fill column by column (ascending) */
  for (int c = 0; c <= nc; c++) jptr[c] = 0;
  for (int k = 0; k < nv; k++)
    for (int c = 0; c < nc; c++) {
      const double* e = J + 3 * (size_t)c + (size_t)k * m;
      if (e[0] != 0.0 || e[1] != 0.0 || e[2] != 0.0) jptr[c + 1]++;
    }
  for (int c = 0; c < nc; c++) jptr[c + 1] += jptr[c];
  for (int c = 0; c < nc; c++) {
    int q = jptr[c];
    for (int k = 0; k < nv; k++) {
      const double* e = J + 3 * (size_t)c + (size_t)k * m;
      if (e[0] == 0.0 && e[1] == 0.0 && e[2] == 0.0) continue;
      jcol[q] = k;
      memcpy(Jv + 3 * (size_t)q, e, 3 * sizeof(double));
      q++;
    }
  }
  p->A = Ab;
  p->jptr = jptr;
  p->jcol = jcol;
  p->J = Jv;
  return 0;
}

void sc_problem_densify(const sc_problem* p, double* A, double* J) {
  const size_t nv = (size_t)p->nv, m = 3 * (size_t)p->nc;
  if (A) {
    memset(A, 0, sizeof(double) * nv * nv);
    size_t off = 0;
    for (int t = 0; t < p->ntree; t++) {
      const int* d = p->tree_dofs + p->tree_ptr[t];
      const int n = p->tree_ptr[t + 1] - p->tree_ptr[t];
      for (int b = 0; b < n; b++)
        for (int a = 0; a < n; a++) A[d[a] + (size_t)d[b] * nv] = p->A[off + a + (size_t)b * n];
      off += (size_t)n * n;
    }
  }
  if (J) {
    memset(J, 0, sizeof(double) * m * nv);
    for (int c = 0; c < p->nc; c++)
      for (int q = p->jptr[c]; q < p->jptr[c + 1]; q++)
        for (int r = 0; r < 3; r++) J[3 * (size_t)c + r + (size_t)p->jcol[q] * m] = p->J[3 * q + r];
  }
}
