/* The block Cholesky of sap_block.c on random block-sparse SPD matrices:
 * its block pattern against a brute-force elimination on the dense block
 * graph, its solution against LAPACK's dense Cholesky, detection of an
 * indefinite matrix, and the entry lookup. */
#include "harness.h"
#include "core/core.h"
#include "linalg/linalg.h"
#include "solver_sap/sap_block.h"

#include <stdlib.h>
#include <string.h>

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

/* A random matrix of nb blocks (sizes sz, in elimination order), with a
 * random symmetric block graph of about deg neighbours per block; dense
 * copy H (n x n, column-major, both triangles), SPD by diagonal dominance
 * unless indefinite is set (then one diagonal entry is made negative). */
typedef struct rmat {
  int nb, n;
  int *sz, *off, *ap, *ai;
  unsigned char* adj; /* nb x nb */
  double* H;
} rmat;

static void rmat_make(rmat* r, int nb, const int* sz, double deg, int indefinite) {
  r->nb = nb;
  r->sz = malloc(sizeof(int) * nb);
  r->off = malloc(sizeof(int) * (nb + 1));
  r->off[0] = 0;
  for (int P = 0; P < nb; P++) r->sz[P] = sz[P], r->off[P + 1] = r->off[P] + sz[P];
  const int n = r->n = r->off[nb];
  r->adj = calloc((size_t)nb * nb, 1);
  for (int P = 0; P < nb; P++)
    for (int Q = P + 1; Q < nb; Q++)
      if (rand() < deg / nb * RAND_MAX) r->adj[P + Q * nb] = r->adj[Q + P * nb] = 1;
  r->H = calloc((size_t)n * n, sizeof(double));
  for (int P = 0; P < nb; P++)
    for (int Q = 0; Q <= P; Q++) {
      if (P != Q && !r->adj[P + Q * nb]) continue;
      for (int a = 0; a < sz[P]; a++)
        for (int c = 0; c < sz[Q]; c++) {
          const int i = r->off[P] + a, j = r->off[Q] + c;
          if (P == Q && a < c) continue;
          const double v = urand();
          r->H[i + (size_t)j * n] = r->H[j + (size_t)i * n] = v;
        }
    }
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += fabs(r->H[i + (size_t)j * n]);
    r->H[i + (size_t)i * n] = s + 0.5;
  }
  if (indefinite) r->H[(n / 2) * (size_t)(n + 1)] = -1.0;
  /* strictly lower block pattern, rows in descending order (any order is allowed) */
  r->ap = malloc(sizeof(int) * (nb + 1));
  r->ai = malloc(sizeof(int) * (size_t)nb * nb + 1);
  int e = 0;
  for (int P = 0; P < nb; P++) {
    r->ap[P] = e;
    for (int Q = nb - 1; Q > P; Q--)
      if (r->adj[Q + P * nb]) r->ai[e++] = Q;
  }
  r->ap[nb] = e;
}

static void rmat_free(rmat* r) {
  free(r->sz), free(r->off), free(r->ap), free(r->ai), free(r->adj), free(r->H);
}

/* load the lower triangle of H into the factor's panels */
static void load(sc_sap_block* b, const rmat* r) {
  for (long k = 0; k < sc_sap_block_nnz(b); k++) b->x[k] = 0.0;
  for (int J = 0; J < r->nb; J++)
    for (int I = J; I < r->nb; I++) {
      if (I != J && !r->adj[I + J * r->nb]) continue;
      for (int a = 0; a < r->sz[I]; a++)
        for (int c = 0; c < r->sz[J]; c++) {
          if (I == J && a < c) continue;
          const long w = sc_sap_block_where(b, I, J, a, c);
          ENSURE(w >= 0);
          if (w >= 0) b->x[w] = r->H[r->off[I] + a + (size_t)(r->off[J] + c) * r->n];
        }
    }
}

/* nnz of the block pattern of L by eliminating the dense block graph */
static long brute_nnz(const rmat* r) {
  const int nb = r->nb;
  unsigned char* g = malloc((size_t)nb * nb);
  memcpy(g, r->adj, (size_t)nb * nb);
  long nnz = 0;
  for (int P = 0; P < nb; P++) {
    int rows = r->sz[P];
    for (int I = P + 1; I < nb; I++)
      if (g[I + P * nb]) rows += r->sz[I];
    nnz += (long)rows * r->sz[P];
    for (int I = P + 1; I < nb; I++)
      for (int K = P + 1; K < nb; K++)
        if (I != K && g[I + P * nb] && g[K + P * nb]) g[I + K * nb] = 1;
  }
  free(g);
  return nnz;
}

static void test_random_matches_dense(void) {
  srand(41);
  sc_sap_block b;
  ENSURE(sc_sap_block_init(&b, 200, 0, 0) == 0); /* grows as needed */
  double worst = 0.0;
  int cases = 0;
  for (int t = 0; t < 24; t++) {
    const int nb = 1 + rand() % 60;
    int* sz = malloc(sizeof(int) * nb);
    for (int P = 0; P < nb; P++) sz[P] = t % 3 == 0 ? 6 : 1 + rand() % 8;
    if (t % 8 == 5) sz[nb / 2] = 70; /* a tree above the BLAS-free size */
    rmat r;
    rmat_make(&r, nb, sz, t % 4 == 0 ? 1.0 : 3.0, 0);
    ENSURE(sc_sap_block_analyze(&b, nb, sz, r.ap, r.ai) == 0);
    ENSURE(sc_sap_block_nnz(&b) == brute_nnz(&r));
    load(&b, &r);
    ENSURE(sc_sap_block_factor(&b) == 0);
    /* reference: LAPACK on the dense matrix */
    const int n = r.n;
    double* L = malloc(sizeof(double) * (size_t)n * n);
    memcpy(L, r.H, sizeof(double) * (size_t)n * n);
    ENSURE(sc_la_chol_factor(n, L, n) == 0);
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) x[i] = y[i] = urand();
    sc_sap_block_solve(&b, x);
    ENSURE(sc_la_chol_solve(n, L, n, y, n, 1) == 0);
    double d = 0.0, m = 0.0;
    for (int i = 0; i < n; i++) d = fmax(d, fabs(x[i] - y[i])), m = fmax(m, fabs(y[i]));
    worst = fmax(worst, d / m);
    cases++;
    free(L), free(x), free(y), free(sz);
    rmat_free(&r);
  }
  printf("  %d random block matrices (1-60 blocks of 1-8 or 70 dofs): max rel diff of "
         "H^-1 b against LAPACK %.2e\n",
         cases, worst);
  ENSURE(worst <= 1e-12);
  sc_sap_block_destroy(&b);
}

static void test_indefinite_and_lookup(void) {
  srand(43);
  sc_sap_block b;
  ENSURE(sc_sap_block_init(&b, 64, 16, 16) == 0);
  int sz[30];
  for (int P = 0; P < 30; P++) sz[P] = 6;
  rmat r;
  rmat_make(&r, 30, sz, 2.0, 1);
  ENSURE(sc_sap_block_analyze(&b, 30, sz, r.ap, r.ai) == 0);
  load(&b, &r);
  ENSURE(sc_sap_block_factor(&b) != 0);
  /* a pair that is neither in H nor filled in is not found */
  int absent = 0;
  for (int J = 0; J < 30 && !absent; J++)
    for (int I = J + 1; I < 30 && !absent; I++) {
      int in = 0;
      for (int e = b.sptr[J]; e < b.sptr[J + 1]; e++) in |= b.sidx[e] == I;
      if (!in) {
        ENSURE(sc_sap_block_where(&b, I, J, 0, 0) == -1);
        absent = 1;
      }
    }
  ENSURE(absent);
  rmat_free(&r);
  sc_sap_block_destroy(&b);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_random_matches_dense);
  RUN(test_indefinite_and_lookup);
  return TEST_END();
}
