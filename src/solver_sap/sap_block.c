/* sap_block: supernodal Cholesky H = L L^T with the dense blocks of H as
 * supernodes (see sap_block.h for the storage).
 *
 * Symbolic factorization (George & Liu, "Computer Solution of Large Sparse
 * Positive Definite Systems", 1981, ch. 5; Davis, "Direct Methods for
 * Sparse Linear Systems", 2006, sec. 4.1-4.4), on the graph of blocks in
 * elimination order:
 *   struct(P) = adj_>(P)  U  U_{C : parent(C) = P} struct(C) \ {P},
 *   parent(P) = min struct(P)   (the elimination tree),
 * computed for P = 0, 1, ... in O(sum |struct|).  For K in struct(P), every
 * I in struct(P) with I > K lies in struct(K) (K is an ancestor of P), which
 * is what makes the update map below well defined.
 *
 * Numeric factorization, right-looking over panels: for P = 0, 1, ...
 *   [L_PP; B] <- column Cholesky of the panel's n = bsz[P] columns
 *                (L_PP L_PP^T = H_PP, B = H_{S,P} L_PP^-T),
 *   H_IK     -= L_IP L_KP^T   for I >= K in struct(P)  (Schur complement),
 * the update of block (I, K) landing in panel K at the row offset the
 * analysis recorded.  Solve: forward L y = b and backward L^T x = y by
 * panels.
 *
 * Why not a general sparse Cholesky: the numeric kernels of CHOLMOD work on
 * scalar patterns (simplicial) or on supernodes found by its own
 * amalgamation of a scalar elimination tree; here the supernodes are known
 * (trees of the multibody system, 6 dofs for a free body), the pattern to
 * analyze is 36 times smaller, and the kernels are tight loops over 6 x 6
 * blocks. */
#include "solver_sap/sap_block.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "core/core.h"
#include "linalg/linalg.h"

#define BIG_BLOCK 64 /* diagonal blocks factored without BLAS up to this size */

static int grow_int(int** p, long* cap, long need, int keep) {
  if (need <= *cap) return 0;
  long c = *cap > 0 ? *cap : 1024;
  while (c < need) c *= 2;
  int* q = sc_malloc(sizeof(int) * (size_t)c);
  if (!q) return 1;
  for (long k = 0; k < keep; k++) q[k] = (*p)[k];
  sc_free(*p);
  *p = q;
  *cap = c;
  return 0;
}

/* room for need doubles in *p, its contents not kept (they are all
 * written before they are read) */
static int grow_double(double** p, long* cap, long need) {
  if (need <= *cap) return 0;
  long c = *cap > 0 ? *cap : 1024;
  while (c < need) c *= 2;
  sc_free(*p);
  *p = sc_malloc(sizeof(double) * (size_t)c);
  *cap = *p ? c : 0;
  return *p ? 0 : 1;
}

int sc_sap_block_init(sc_sap_block* b, int nb_max, long cap_s, long cap_x) {
  *b = (sc_sap_block){0};
  if (nb_max < 0) return 1;
  const size_t nb = (size_t)nb_max + 1;
  b->nb_max = nb_max;
  b->bsz = sc_malloc(sizeof(int) * nb);
  b->voff = sc_malloc(sizeof(int) * nb);
  b->prow = sc_malloc(sizeof(int) * nb);
  b->sptr = sc_malloc(sizeof(int) * nb);
  b->head = sc_malloc(sizeof(int) * nb);
  b->next = sc_malloc(sizeof(int) * nb);
  b->mark = sc_malloc(sizeof(int) * nb);
  b->list = sc_malloc(sizeof(int) * nb);
  b->poff = sc_malloc(sizeof(long) * nb);
  b->uptr = sc_malloc(sizeof(long) * nb);
  /* room for nb_max one-dof blocks, as many dofs as the SAP path's blocks
   * hold (nb_max = nv_max); larger totals grow in analyze */
  b->rdiag = sc_malloc(sizeof(double) * nb);
  b->cap_d = b->rdiag ? (long)nb : 0;
  if (!b->bsz || !b->voff || !b->prow || !b->sptr || !b->head || !b->next || !b->mark ||
      !b->list || !b->poff || !b->uptr || !b->rdiag)
    goto fail;
  if (cap_s > 0) {
    if (grow_int(&b->sidx, &b->cap_s, cap_s, 0) || grow_int(&b->roff, &b->cap_r, cap_s, 0))
      goto fail;
    long cu = 0;
    if (grow_int(&b->uoff, &cu, 4 * cap_s, 0)) goto fail;
    b->cap_u = cu;
  }
  if (cap_x > 0) {
    b->x = sc_malloc(sizeof(double) * (size_t)cap_x);
    if (!b->x) goto fail;
    b->cap_x = cap_x;
  }
  return 0;
fail:
  sc_sap_block_destroy(b);
  return 1;
}

void sc_sap_block_destroy(sc_sap_block* b) {
  sc_free(b->bsz);
  sc_free(b->voff);
  sc_free(b->prow);
  sc_free(b->sptr);
  sc_free(b->head);
  sc_free(b->next);
  sc_free(b->mark);
  sc_free(b->list);
  sc_free(b->poff);
  sc_free(b->uptr);
  sc_free(b->sidx);
  sc_free(b->roff);
  sc_free(b->uoff);
  sc_free(b->x);
  sc_free(b->rdiag);
  *b = (sc_sap_block){0};
}

static int cmp_int(const void* a, const void* b) {
  const int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

static void sort_ints(int* v, int n) {
  if (n > 24) {
    qsort(v, (size_t)n, sizeof(int), cmp_int);
    return;
  }
  for (int i = 1; i < n; i++) {
    const int t = v[i];
    int j = i - 1;
    for (; j >= 0 && v[j] > t; j--) v[j + 1] = v[j];
    v[j + 1] = t;
  }
}

/* position of block I in the structure of panel K (binary search), or -1 */
static long find_row(const sc_sap_block* b, int K, int I) {
  long lo = b->sptr[K], hi = b->sptr[K + 1] - 1;
  while (lo <= hi) {
    const long mid = lo + (hi - lo) / 2;
    if (b->sidx[mid] == I) return mid;
    if (b->sidx[mid] < I) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

int sc_sap_block_analyze(sc_sap_block* b, int nb, const int* bsz, const int* ap, const int* ai) {
  if (nb < 0 || nb > b->nb_max) return 1;
  b->nb = nb;
  b->voff[0] = 0;
  for (int P = 0; P < nb; P++) {
    b->bsz[P] = bsz[P];
    b->voff[P + 1] = b->voff[P] + bsz[P];
    b->head[P] = -1;
    b->mark[P] = -1;
  }
  /* structures and the elimination tree */
  long s = 0;
  b->sptr[0] = 0;
  for (int P = 0; P < nb; P++) {
    int cnt = 0;
    b->mark[P] = P;
    for (int q = ap[P]; q < ap[P + 1]; q++) {
      const int I = ai[q];
      if (b->mark[I] != P) b->mark[I] = P, b->list[cnt++] = I;
    }
    for (int C = b->head[P]; C >= 0; C = b->next[C])
      for (int e = b->sptr[C]; e < b->sptr[C + 1]; e++) {
        const int I = b->sidx[e];
        if (b->mark[I] != P) b->mark[I] = P, b->list[cnt++] = I;
      }
    sort_ints(b->list, cnt);
    if (grow_int(&b->sidx, &b->cap_s, s + cnt, (int)s)) return 1;
    for (int k = 0; k < cnt; k++) b->sidx[s + k] = b->list[k];
    s += cnt;
    if (s > 0x7fffffff) return 1;
    b->sptr[P + 1] = (int)s;
    if (cnt > 0) {
      const int parent = b->list[0];
      b->next[P] = b->head[parent];
      b->head[parent] = P;
    }
  }
  /* panels: row offsets and storage */
  if (grow_int(&b->roff, &b->cap_r, s, 0)) return 1;
  b->poff[0] = 0;
  b->uptr[0] = 0;
  for (int P = 0; P < nb; P++) {
    int r = bsz[P];
    for (int e = b->sptr[P]; e < b->sptr[P + 1]; e++) {
      b->roff[e] = r;
      r += bsz[b->sidx[e]];
    }
    b->prow[P] = r;
    b->poff[P + 1] = b->poff[P] + (long)r * bsz[P];
    const long cnt = b->sptr[P + 1] - b->sptr[P];
    b->uptr[P + 1] = b->uptr[P] + cnt * (cnt + 1) / 2;
  }
  if (grow_double(&b->x, &b->cap_x, b->poff[nb]) || grow_double(&b->rdiag, &b->cap_d, b->voff[nb]))
    return 1;
  if (grow_int(&b->uoff, &b->cap_u, b->uptr[nb], 0)) return 1;
  /* update map: for e >= f in struct(P), where block sidx[e] sits in panel sidx[f] */
  long u = 0;
  for (int P = 0; P < nb; P++)
    for (int e = b->sptr[P]; e < b->sptr[P + 1]; e++)
      for (int f = b->sptr[P]; f <= e; f++) {
        const int K = b->sidx[f];
        if (e == f) {
          b->uoff[u++] = 0;
          continue;
        }
        const long g = find_row(b, K, b->sidx[e]);
        if (g < 0) return 1; /* cannot happen for a correct structure */
        b->uoff[u++] = b->roff[g];
      }
  return 0;
}

long sc_sap_block_where(const sc_sap_block* b, int I, int J, int a, int c) {
  if (I == J) return b->poff[J] + a + (long)c * b->prow[J];
  const long e = find_row(b, J, I);
  if (e < 0) return -1;
  return b->poff[J] + b->roff[e] + a + (long)c * b->prow[J];
}

long sc_sap_block_nnz(const sc_sap_block* b) { return b->nb > 0 ? b->poff[b->nb] : 0; }

/* T -= Xi Xk^T for two 6-row blocks (free bodies, the common case): the
 * 6 x 6 product is accumulated before T is touched */
static void update66(double* T, int ldT, const double* Xi, const double* Xk, int ld, int n) {
  for (int c = 0; c < 6; c++) {
    /* column c of Xi Xk^T in six accumulators that stay in registers */
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0, a5 = 0.0;
    for (int j = 0; j < n; j++) {
      const double* xi = Xi + (size_t)j * ld;
      const double s = Xk[c + (size_t)j * ld];
      a0 += xi[0] * s;
      a1 += xi[1] * s;
      a2 += xi[2] * s;
      a3 += xi[3] * s;
      a4 += xi[4] * s;
      a5 += xi[5] * s;
    }
    double* t = T + (size_t)c * ldT;
    t[0] -= a0;
    t[1] -= a1;
    t[2] -= a2;
    t[3] -= a3;
    t[4] -= a4;
    t[5] -= a5;
  }
}

/* Column c of a diagonal pair's update (Xk = Xi, T a diagonal block),
 * rows c..5 only: the lower triangle is the part of a diagonal block
 * anything reads.  Each entry gets the same sum in the same order as in
 * update66.  Called with constant c, so that its loops unroll. */
static inline void update66_lower_col(double* t, const double* X, int ld, int n, const int c) {
  double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0, a5 = 0.0;
  for (int j = 0; j < n; j++) {
    const double* x = X + (size_t)j * ld;
    const double s = x[c];
    if (c <= 0) a0 += x[0] * s;
    if (c <= 1) a1 += x[1] * s;
    if (c <= 2) a2 += x[2] * s;
    if (c <= 3) a3 += x[3] * s;
    if (c <= 4) a4 += x[4] * s;
    a5 += x[5] * s;
  }
  if (c <= 0) t[0] -= a0;
  if (c <= 1) t[1] -= a1;
  if (c <= 2) t[2] -= a2;
  if (c <= 3) t[3] -= a3;
  if (c <= 4) t[4] -= a4;
  t[5] -= a5;
}

static void update66_lower(double* T, int ldT, const double* X, int ld, int n) {
  update66_lower_col(T, X, ld, n, 0);
  update66_lower_col(T + (size_t)ldT, X, ld, n, 1);
  update66_lower_col(T + 2 * (size_t)ldT, X, ld, n, 2);
  update66_lower_col(T + 3 * (size_t)ldT, X, ld, n, 3);
  update66_lower_col(T + 4 * (size_t)ldT, X, ld, n, 4);
  update66_lower_col(T + 5 * (size_t)ldT, X, ld, n, 5);
}

int sc_sap_block_factor(sc_sap_block* b) {
  double* x = b->x;
  const long* uoff_p = b->uptr;
  for (int P = 0; P < b->nb; P++) {
    const int n = b->bsz[P], ld = b->prow[P];
    double* L = x + b->poff[P];
    double* rd = b->rdiag + b->voff[P];
    if (n > BIG_BLOCK && ld == n) {
      /* a big tree with nothing below: LAPACK */
      if (sc_la_chol_factor(n, L, ld) != 0) return 1;
      for (int j = 0; j < n; j++) rd[j] = 1.0 / L[j + (size_t)j * ld];
      continue;
    }
    /* column Cholesky of the panel: L_PP and B = H_SP L_PP^-T together */
    for (int j = 0; j < n; j++) {
      double* cj = L + (size_t)j * ld;
      const double d = cj[j];
      if (!(d > 0.0)) return 1;
      const double ljj = sqrt(d), inv = 1.0 / ljj;
      cj[j] = ljj;
      rd[j] = inv;
      for (int i = j + 1; i < ld; i++) cj[i] *= inv;
      for (int k = j + 1; k < n; k++) {
        const double lkj = cj[k];
        if (lkj == 0.0) continue;
        double* ck = L + (size_t)k * ld;
        for (int i = k; i < ld; i++) ck[i] -= cj[i] * lkj;
      }
    }
    /* Schur complement onto the panels of the structure */
    long u = uoff_p[P];
    for (int e = b->sptr[P]; e < b->sptr[P + 1]; e++) {
      const int nI = b->bsz[b->sidx[e]];
      const double* Xi = L + b->roff[e];
      for (int f = b->sptr[P]; f <= e; f++) {
        const int K = b->sidx[f], nK = b->bsz[K], ldK = b->prow[K];
        const double* Xk = L + b->roff[f];
        double* T = x + b->poff[K] + b->uoff[u++];
        if (nI == 6 && nK == 6) {
          if (f == e) update66_lower(T, ldK, Xi, ld, n);
          else update66(T, ldK, Xi, Xk, ld, n);
          continue;
        }
        for (int c = 0; c < nK; c++) {
          double* tc = T + (size_t)c * ldK;
          for (int j = 0; j < n; j++) {
            const double xk = Xk[c + (size_t)j * ld];
            if (xk == 0.0) continue;
            const double* xi = Xi + (size_t)j * ld;
            for (int a = 0; a < nI; a++) tc[a] -= xi[a] * xk;
          }
        }
      }
    }
  }
  return 0;
}

/* y -= c s over n entries, and t = 0 + sum c y in ascending order: with
 * n = 6 (a free body) spelled out as a constant, so that the compiler
 * unrolls it; the same operations in the same order either way */
static inline void sub_scaled(int n, double* y, const double* c, double s) {
  if (n == 6) {
    for (int a = 0; a < 6; a++) y[a] -= c[a] * s;
    return;
  }
  for (int a = 0; a < n; a++) y[a] -= c[a] * s;
}

static inline double dot0(int n, const double* c, const double* y) {
  double t = 0.0;
  if (n == 6) {
    for (int a = 0; a < 6; a++) t += c[a] * y[a];
    return t;
  }
  for (int a = 0; a < n; a++) t += c[a] * y[a];
  return t;
}

void sc_sap_block_solve(const sc_sap_block* b, double* y) {
  const double* x = b->x;
  for (int P = 0; P < b->nb; P++) {
    const int n = b->bsz[P], ld = b->prow[P];
    const double* L = x + b->poff[P];
    const double* rd = b->rdiag + b->voff[P];
    double* yp = y + b->voff[P];
    for (int j = 0; j < n; j++) {
      const double* cj = L + (size_t)j * ld;
      const double yj = yp[j] *= rd[j];
      for (int i = j + 1; i < n; i++) yp[i] -= cj[i] * yj;
    }
    for (int e = b->sptr[P]; e < b->sptr[P + 1]; e++) {
      const int I = b->sidx[e], nI = b->bsz[I];
      double* yi = y + b->voff[I];
      const double* Bi = L + b->roff[e];
      for (int j = 0; j < n; j++) sub_scaled(nI, yi, Bi + (size_t)j * ld, yp[j]);
    }
  }
  for (int P = b->nb - 1; P >= 0; P--) {
    const int n = b->bsz[P], ld = b->prow[P];
    const double* L = x + b->poff[P];
    const double* rd = b->rdiag + b->voff[P];
    double* yp = y + b->voff[P];
    for (int e = b->sptr[P]; e < b->sptr[P + 1]; e++) {
      const int I = b->sidx[e], nI = b->bsz[I];
      const double* yi = y + b->voff[I];
      const double* Bi = L + b->roff[e];
      for (int j = 0; j < n; j++) yp[j] -= dot0(nI, Bi + (size_t)j * ld, yi);
    }
    for (int j = n - 1; j >= 0; j--) {
      const double* cj = L + (size_t)j * ld;
      double t = yp[j];
      for (int i = j + 1; i < n; i++) t -= cj[i] * yp[i];
      yp[j] = t * rd[j];
    }
  }
}
