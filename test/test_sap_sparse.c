/* SAP sparse Hessian paths: the block Cholesky (sap_block.c, the default) and
 * the CHOLMOD ones against the dense LAPACK path
 * (the reference) on random block-structured problems -- free bodies with
 * dense 6x6 blocks of A, contacts between two bodies and with the ground,
 * optionally an articulated tree touched by whole-tree contact rows and a
 * shuffled dof order -- plus the Delassus estimate per tree block, the
 * capacity fallback and the allocation behaviour. */
#include "harness.h"
#include "core/core.h"
#include "constraint/law.h"
#include "linalg/blockdiag.h"
#include "solver_sap/sap.h"
#include "problem_util.h"

#include <stdlib.h>
#include <string.h>

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }
static double urange(double a, double b) { return a + (b - a) * 0.5 * (urand() + 1.0); }

/* A random contact problem; arrays owned here (test code: plain malloc). */
typedef struct prob {
  int nv, nc;
  double *A, *vstar, *J, *R, *vhat, *mu, *phi0, *k, *taud, *w;
  sc_problem p;
  sc_problem_storage st;
} prob;

static void prob_free(prob* P) {
  free(P->A), free(P->vstar), free(P->J), free(P->R), free(P->vhat), free(P->mu);
  free(P->phi0), free(P->k), free(P->taud), free(P->w);
  sc_problem_storage_free(&P->st);
}

/* dense SPD n x n block Q Q^T + n/4 I at dofs d of A (column-major, ld nv) */
static void spd_block(double* A, int nv, const int* d, int n) {
  double* Q = malloc(sizeof(double) * (size_t)n * n);
  for (int i = 0; i < n * n; i++) Q[i] = urand();
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = i == j ? 0.25 * n + urange(0.5, 2.0) : 0.0;
      for (int k = 0; k < n; k++) s += Q[i + k * n] * Q[j + k * n];
      A[d[i] + (size_t)d[j] * nv] = s;
    }
  free(Q);
}

/* B free bodies (6 dofs each, dense 6x6 blocks) and, when chain > 0, one
 * articulated tree of `chain` dofs; npair contacts between random bodies,
 * nground body-ground contacts, nchain contacts whose rows touch every dof
 * of the chain.  shuffle: the dofs of a tree are scattered over [0, nv).
 * R and vhat come from sc_law_sap with the dense Delassus estimate. */
static void gen(prob* P, int B, int chain, int npair, int nground, int nchain, int shuffle,
                sc_sap_work* ws) {
  const int nv = 6 * B + chain, nc = npair + nground + nchain, m = 3 * nc;
  P->nv = nv;
  P->nc = nc;
  P->A = calloc((size_t)nv * nv, sizeof(double));
  P->J = calloc((size_t)m * nv, sizeof(double));
  P->vstar = malloc(sizeof(double) * nv);
  P->R = malloc(sizeof(double) * m);
  P->vhat = malloc(sizeof(double) * m);
  P->mu = malloc(sizeof(double) * nc);
  P->phi0 = malloc(sizeof(double) * nc);
  P->k = malloc(sizeof(double) * nc);
  P->taud = malloc(sizeof(double) * nc);
  P->w = malloc(sizeof(double) * nc);
  int* dof = malloc(sizeof(int) * nv);
  for (int i = 0; i < nv; i++) dof[i] = i;
  if (shuffle)
    for (int i = nv - 1; i > 0; i--) {
      int j = rand() % (i + 1), t = dof[i];
      dof[i] = dof[j];
      dof[j] = t;
    }
  for (int b = 0; b < B; b++) spd_block(P->A, nv, dof + 6 * b, 6);
  if (chain) spd_block(P->A, nv, dof + 6 * B, chain);
  for (int c = 0; c < nc; c++) {
    int bodies[2], nb;
    if (c < npair) {
      bodies[0] = rand() % B;
      do bodies[1] = rand() % B; while (bodies[1] == bodies[0]);
      nb = 2;
    } else if (c < npair + nground) {
      bodies[0] = rand() % B;
      nb = 1;
    } else {
      nb = 0;
      for (int a = 0; a < chain; a++)
        for (int r = 0; r < 3; r++) P->J[3 * c + r + (size_t)dof[6 * B + a] * m] = 0.5 * urand();
    }
    for (int q = 0; q < nb; q++)
      for (int a = 0; a < 6; a++)
        for (int r = 0; r < 3; r++) P->J[3 * c + r + (size_t)dof[6 * bodies[q] + a] * m] = urand();
    P->mu[c] = urange(0.1, 1.0);
    P->phi0[c] = urange(-2e-3, 1e-3);
    P->k[c] = urange(1e4, 1e5);
    P->taud[c] = urange(0.01, 0.1);
  }
  for (int i = 0; i < nv; i++) P->vstar[i] = 0.3 * urand();
  P->st = (sc_problem_storage){0};
  P->p = dense_problem(&P->st, nv, nc, P->A, P->vstar, P->J, P->R, P->vhat, P->mu, P->phi0, 0.01);
  ENSURE(sc_sap_delassus_path(&P->p, SC_SAP_HESSIAN_DENSE, ws, P->w) == SC_OK);
  sc_law_sap(nc, P->k, P->taud, P->w, P->phi0, NULL, 0.01, 1.0, 1e-3, 1.0, P->R, P->vhat);
  free(dof);
}

/* the three sparse factorizations and their names */
static const int KINDS[] = {SC_SAP_HESSIAN_SPARSE_BLOCK, SC_SAP_HESSIAN_SPARSE_SUPERNODAL,
                            SC_SAP_HESSIAN_SPARSE_SIMPLICIAL};
static const char* const KIND_NAME[] = {"block", "supernodal", "simplicial"};
enum { NKINDS = 3 };

static double max_abs(int n, const double* x) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s = fmax(s, fabs(x[i]));
  return s;
}

static double max_diff(int n, const double* x, const double* y) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s = fmax(s, fabs(x[i] - y[i]));
  return s;
}

/* solve from v = 0 with the given path and iteration cap */
static sc_solve_status solve(const prob* P, sc_sap_work* w, int hessian, int max_it, double* v,
                             double* gamma, sc_solver_stats* st) {
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  prm.hessian = hessian;
  prm.max_iterations = max_it;
  /* every direction from its own factorization: the paths' factorizations
   * are what these tests compare (test_held_factor covers the other) */
  prm.cg_max_iterations = 0;
  for (int i = 0; i < P->nv; i++) v[i] = 0.0;
  return sc_sap_solve(&P->p, &prm, w, v, gamma, st);
}

/* The per-tree Delassus estimate equals the dense J A^-1 J^T diagonal. */
static void test_delassus_matches_dense(void) {
  srand(11);
  sc_sap_work* ws = sc_sap_work_create(6 * 150 + 20, 600);
  const int cfg[][4] = {{50, 0, 0}, {150, 20, 1}}; /* bodies, chain, shuffle */
  for (int t = 0; t < 2; t++) {
    prob P;
    gen(&P, cfg[t][0], cfg[t][1], 2 * cfg[t][0], cfg[t][0], cfg[t][1] ? 5 : 0, cfg[t][2], ws);
    double* wd = malloc(sizeof(double) * P.nc);
    double* wsp = malloc(sizeof(double) * P.nc);
    ENSURE(sc_sap_delassus_path(&P.p, SC_SAP_HESSIAN_DENSE, ws, wd) == SC_OK);
    ENSURE(sc_sap_delassus_path(&P.p, SC_SAP_HESSIAN_SPARSE, ws, wsp) == SC_OK);
    double worst = 0.0;
    for (int c = 0; c < P.nc; c++) worst = fmax(worst, fabs(wsp[c] - wd[c]) / wd[c]);
    ENSURE(worst <= 1e-12);
    printf("  delassus: nv %d nc %d, max rel diff sparse vs dense %.2e\n", P.nv, P.nc, worst);
    free(wd), free(wsp);
    prob_free(&P);
  }
  sc_sap_work_free(ws);
}

/* The Delassus estimate from factors the integrator made (sc_la_blk_factor
 * over the problem's trees: a chain of 20 dofs is factored leaves first)
 * is the one the solver makes itself, to the bit. */
static void test_delassus_given_factors(void) {
  srand(12);
  sc_sap_work* ws = sc_sap_work_create(6 * 20 + 20, 100);
  prob P;
  gen(&P, 20, 20, 20, 20, 5, 1, ws);
  const sc_problem* p = &P.p;
  int* num = malloc(sizeof(int) * p->ntree);
  int* adr = malloc(sizeof(int) * p->ntree);
  int* blk = malloc(sizeof(int) * p->ntree);
  int* dof_block = malloc(sizeof(int) * P.nv);
  int* dof_loc = malloc(sizeof(int) * P.nv);
  long size = 0;
  for (int t = 0; t < p->ntree; t++) {
    num[t] = p->tree_ptr[t + 1] - p->tree_ptr[t];
    adr[t] = p->tree_ptr[t];
    blk[t] = (int)size;
    size += (long)num[t] * num[t];
    for (int k = 0; k < num[t]; k++) {
      dof_block[p->tree_dofs[adr[t] + k]] = t;
      dof_loc[p->tree_dofs[adr[t] + k]] = k;
    }
  }
  const sc_la_blocks cb = {p->ntree, size, adr, num, p->tree_dofs, blk, dof_block, dof_loc};
  double* fac = malloc(sizeof(double) * (size_t)size);
  double *w0 = malloc(sizeof(double) * P.nc), *w1 = malloc(sizeof(double) * P.nc);
  ENSURE(sc_la_blk_factor(&cb, p->A, fac) == 0);
  ENSURE(sc_sap_delassus_problem(p, ws, w0) == SC_OK);
  ENSURE(sc_sap_delassus_factored(p, fac, ws, w1) == SC_OK);
  int chain = 0;
  for (int t = 0; t < p->ntree; t++) chain |= sc_la_blk_reversed(num[t]);
  ENSURE(chain);
  ENSURE(memcmp(w0, w1, sizeof(double) * P.nc) == 0);
  free(num), free(adr), free(blk), free(dof_block), free(dof_loc), free(fac), free(w0), free(w1);
  prob_free(&P);
  sc_sap_work_free(ws);
}

/* The sparse path reproduces the dense path's Newton iterates: run both with
 * max_iterations = 1, 2, ..., 8 and K (the converged count) and compare the
 * iterates, then the solution. */
static void test_iterates_match_dense(void) {
  srand(5);
  const int B = 50;
  sc_sap_work* ws = sc_sap_work_create(6 * B, 4 * B);
  prob P;
  gen(&P, B, 0, 2 * B, B, 0, 1, ws);
  double *vd = malloc(sizeof(double) * P.nv), *vs = malloc(sizeof(double) * P.nv);
  double *gd = malloc(sizeof(double) * 3 * P.nc), *gs = malloc(sizeof(double) * 3 * P.nc);
  sc_solver_stats sd, ss;
  ENSURE(solve(&P, ws, SC_SAP_HESSIAN_DENSE, 100, vd, gd, &sd) == SC_SOLVE_OK);
  const int K = sd.iterations;
  ENSURE(K >= 3);
  const int* kinds = KINDS;
  for (int kk = 0; kk < NKINDS; kk++) {
    double worst = 0.0;
    /* the first iterates, where the active sets still change, and the last */
    for (int it = 1; it <= K; it = it < 8 ? it + 1 : (it < K ? K : K + 1)) {
      solve(&P, ws, SC_SAP_HESSIAN_DENSE, it, vd, gd, &sd);
      solve(&P, ws, kinds[kk], it, vs, gs, &ss);
      ENSURE(sc_sap_last_hessian(ws) == kinds[kk]);
      ENSURE(ss.iterations == sd.iterations);
      const double rel = max_diff(P.nv, vs, vd) / max_abs(P.nv, vd);
      worst = fmax(worst, rel);
      ENSURE(rel <= 1e-10);
    }
    ENSURE(ss.status == SC_SOLVE_OK && sd.status == SC_SOLVE_OK);
    ENSURE(max_diff(3 * P.nc, gs, gd) <= 1e-10 * max_abs(3 * P.nc, gd));
    ENSURE_CLOSE(ss.cost, sd.cost, 1e-12, 0.0);
    printf("  iterates (%s): %d iterations, max rel diff %.2e\n", KIND_NAME[kk], K, worst);
  }
  free(vd), free(vs), free(gd), free(gs);
  prob_free(&P);
  sc_sap_work_free(ws);
}

/* Final solutions of the two paths on larger random problems, with shuffled
 * dofs and an articulated tree whose contacts touch all its dofs. */
static void test_solution_matches_dense(void) {
  srand(7);
  const int cfg[][4] = {{100, 0, 0, 0}, {200, 24, 1, 1}}; /* bodies, chain, shuffle */
  sc_sap_work* ws = sc_sap_work_create(6 * 200 + 24, 700);
  for (int t = 0; t < 2; t++) {
    const int B = cfg[t][0];
    prob P;
    gen(&P, B, cfg[t][1], t ? B / 2 : 2 * B, B / 4, cfg[t][1] ? 6 : 0, cfg[t][2], ws);
    double *vd = malloc(sizeof(double) * P.nv), *vs = malloc(sizeof(double) * P.nv);
    double *gd = malloc(sizeof(double) * 3 * P.nc), *gs = malloc(sizeof(double) * 3 * P.nc);
    sc_solver_stats sd, ss;
    ENSURE(solve(&P, ws, SC_SAP_HESSIAN_DENSE, 100, vd, gd, &sd) == SC_SOLVE_OK);
    ENSURE(solve(&P, ws, SC_SAP_HESSIAN_SPARSE, 100, vs, gs, &ss) == SC_SOLVE_OK);
    ENSURE(sc_sap_last_hessian(ws) != SC_SAP_HESSIAN_DENSE);
    ENSURE(ss.iterations == sd.iterations);
    const double rel = max_diff(P.nv, vs, vd) / max_abs(P.nv, vd);
    ENSURE(rel <= 1e-10);
    ENSURE(max_diff(3 * P.nc, gs, gd) <= 1e-10 * max_abs(3 * P.nc, gd));
    /* the auto choice takes the sparse path here */
    ENSURE(solve(&P, ws, SC_SAP_HESSIAN_AUTO, 100, vs, gs, &ss) == SC_SOLVE_OK);
    ENSURE(sc_sap_last_hessian(ws) != SC_SAP_HESSIAN_DENSE);
    printf("  solution: nv %d nc %d, %d iterations, rel diff %.2e\n", P.nv, P.nc, sd.iterations,
           rel);
    free(vd), free(vs), free(gd), free(gs);
    prob_free(&P);
  }
  sc_sap_work_free(ws);
}

/* Contacts touching a deep tree, or a tree too deep, for the Hessian's
 * triplet capacity: a sparse request falls back to the dense path and still
 * solves; a workspace without a dense path refuses the problem with a
 * status. */
static void test_capacity_fallback(void) {
  srand(3);
  /* 2 contacts x 120 columns: 2 x 7260 + 7281 triplets > the capacity
   * (126^2 + 126) / 2 + 2 x 153 + 1 of sc_sap_work_create */
  sc_sap_work* ws = sc_sap_work_create(6 + 120, 2);
  prob P;
  gen(&P, 1, 120, 0, 0, 2, 0, ws);
  double *vd = malloc(sizeof(double) * P.nv), *vs = malloc(sizeof(double) * P.nv);
  double *gd = malloc(sizeof(double) * 3 * P.nc), *gs = malloc(sizeof(double) * 3 * P.nc);
  sc_solver_stats sd, ss;
  ENSURE(solve(&P, ws, SC_SAP_HESSIAN_DENSE, 100, vd, gd, &sd) == SC_SOLVE_OK);
  ENSURE(solve(&P, ws, SC_SAP_HESSIAN_SPARSE, 100, vs, gs, &ss) == SC_SOLVE_OK);
  ENSURE(sc_sap_last_hessian(ws) == SC_SAP_HESSIAN_DENSE);
  ENSURE(max_diff(P.nv, vs, vd) == 0.0);
  /* the Delassus estimate per tree needs no triplets: it agrees with the
   * dense one */
  double wsp[2];
  ENSURE(sc_sap_delassus_path(&P.p, SC_SAP_HESSIAN_SPARSE, ws, wsp) == SC_OK);
  ENSURE_CLOSE(wsp[0], P.w[0], 1e-12, 0);
  ENSURE_CLOSE(wsp[1], P.w[1], 1e-12, 0);
  /* without a dense path (a sized workspace beyond SC_SAP_DENSE_MAX_NV) the
   * same kind of problem is refused with SC_SOLVE_CAPACITY, and one that
   * fits is solved on the sparse path like the dense one */
  {
    const int chain = SC_SAP_DENSE_MAX_NV + 8, nv = 6 + chain;
    sc_sap_work* wd = sc_sap_work_create(nv, 2);
    sc_sap_work* wn = sc_sap_work_create_sized(nv, 2, (long)nv * nv, 12, 0, -1);
    ENSURE(wn != NULL);
    prob T;
    gen(&T, 1, chain, 0, 1, 1, 0, wd); /* a ground contact and one on the whole chain */
    double *v3 = malloc(sizeof(double) * T.nv), *v4 = malloc(sizeof(double) * T.nv);
    double g3[6], g4[6], wdl[2];
    ENSURE(solve(&T, wn, SC_SAP_HESSIAN_AUTO, 100, v4, g4, &ss) == SC_SOLVE_CAPACITY);
    ENSURE(sc_sap_delassus_path(&T.p, SC_SAP_HESSIAN_DENSE, wn, wdl) == SC_OK); /* per tree */
    ENSURE_CLOSE(wdl[0], T.w[0], 1e-12, 0);
    ENSURE_CLOSE(wdl[1], T.w[1], 1e-12, 0);
    sc_sap_work_free(wn);
    /* room for the chain's contact: the sparse path, as the dense one */
    wn = sc_sap_work_create_sized(nv, 2, (long)nv * nv, nv, 0, -1);
    ENSURE(solve(&T, wn, SC_SAP_HESSIAN_AUTO, 100, v4, g4, &ss) == SC_SOLVE_OK);
    ENSURE(sc_sap_last_hessian(wn) != SC_SAP_HESSIAN_DENSE);
    ENSURE(solve(&T, wd, SC_SAP_HESSIAN_DENSE, 100, v3, g3, &sd) == SC_SOLVE_OK);
    ENSURE(ss.iterations == sd.iterations);
    ENSURE(max_diff(T.nv, v4, v3) <= 1e-10 * max_abs(T.nv, v3));
    free(v3), free(v4);
    prob_free(&T);
    sc_sap_work_free(wn);
    sc_sap_work_free(wd);
  }
  /* a tree block too large for the triplets: structured products of no
   * use, the dense path */
  {
    sc_sap_work* w3 = sc_sap_work_create(6 + 120, 2); /* cap_j = 174 >= 126 columns */
    prob T;
    gen(&T, 1, 120, 0, 1, 1, 0, w3);
    double *v3 = malloc(sizeof(double) * T.nv), *v4 = malloc(sizeof(double) * T.nv);
    double g3[6], g4[6];
    ENSURE(solve(&T, w3, SC_SAP_HESSIAN_DENSE, 100, v3, g3, &sd) == SC_SOLVE_OK);
    ENSURE(solve(&T, w3, SC_SAP_HESSIAN_SPARSE, 100, v4, g4, &ss) == SC_SOLVE_OK);
    ENSURE(sc_sap_last_hessian(w3) == SC_SAP_HESSIAN_DENSE);
    ENSURE(ss.iterations == sd.iterations);
    ENSURE(max_diff(T.nv, v4, v3) <= 1e-10 * max_abs(T.nv, v3));
    free(v3), free(v4);
    prob_free(&T);
    sc_sap_work_free(w3);
  }
  /* small problems: auto keeps the dense path */
  prob Q;
  sc_sap_work* w2 = sc_sap_work_create(48, 24);
  gen(&Q, 8, 0, 16, 8, 0, 0, w2);
  double v[48], g[72];
  ENSURE(solve(&Q, w2, SC_SAP_HESSIAN_AUTO, 100, v, g, &ss) == SC_SOLVE_OK);
  ENSURE(sc_sap_last_hessian(w2) == SC_SAP_HESSIAN_DENSE);
  sc_sap_work_free(w2);
  prob_free(&Q);
  free(vd), free(vs), free(gd), free(gs);
  prob_free(&P);
  sc_sap_work_free(ws);
}

/* Allocations: a repeated solve with an unchanged pattern allocates nothing;
 * after a pattern change the analysis allocates, but the count does not
 * depend on the number of Newton iterations (per-iteration path is free). */
static void test_allocation(void) {
  const int* kinds = KINDS;
  for (int kk = 0; kk < NKINDS; kk++) {
    srand(21);
    const int B = 80;
    sc_sap_work* ws = sc_sap_work_create(6 * B, 4 * B);
    prob P, Q;
    gen(&P, B, 0, 2 * B, B, 0, 0, ws);
    gen(&Q, B, 0, 2 * B, B, 0, 0, ws); /* same sizes, other contact graph */
    double* v = malloc(sizeof(double) * P.nv);
    double* g = malloc(sizeof(double) * 3 * P.nc);
    sc_solver_stats st;
    solve(&P, ws, kinds[kk], 100, v, g, &st);
    solve(&Q, ws, kinds[kk], 100, v, g, &st);
    /* same problem again: pattern unchanged, no allocation at all */
    solve(&Q, ws, kinds[kk], 100, v, g, &st);
    long a0 = sc_alloc_count();
    ENSURE(solve(&Q, ws, kinds[kk], 100, v, g, &st) == SC_SOLVE_OK);
    ENSURE(sc_alloc_count() == a0);
    ENSURE(sc_sap_last_hessian(ws) == kinds[kk]);
    /* pattern change: 1 iteration vs all iterations */
    long c0 = sc_sap_cholmod_alloc_count();
    a0 = sc_alloc_count();
    solve(&P, ws, kinds[kk], 1, v, g, &st);
    const long one = sc_alloc_count() - a0, one_ch = sc_sap_cholmod_alloc_count() - c0;
    ENSURE(st.iterations == 1);
    solve(&Q, ws, kinds[kk], 100, v, g, &st);
    a0 = sc_alloc_count();
    ENSURE(solve(&P, ws, kinds[kk], 100, v, g, &st) == SC_SOLVE_OK);
    const long all = sc_alloc_count() - a0;
    ENSURE(st.iterations > 2);
    /* the analysis and first factorization after a pattern change are
     * served by the workspace's arena: no allocation at all */
    ENSURE(all == 0 && one == 0 && one_ch == 0);
    printf("  %s: a solve after a pattern change (1 or %d iterations) allocates %ld / %ld "
           "blocks; 0 when unchanged\n",
           KIND_NAME[kk], st.iterations, one, all);
    free(v), free(g);
    prob_free(&P);
    prob_free(&Q);
    sc_sap_work_free(ws);
  }
}

/* The order of the block form does not matter: a problem written by hand in
 * block form (as the integrator builds them: trees and columns in its own
 * order) is solved as the one sc_problem_set_dense converts: same
 * iterations, same solution, same Delassus estimate.  The trees are found
 * here by plain scans (union of A's off-diagonal pattern by repeated
 * relabelling), J's columns listed in descending order. */
static void test_block_form_order(void) {
  srand(23);
  sc_sap_work* ws = sc_sap_work_create(6 * 120 + 12, 500);
  prob P;
  gen(&P, 120, 12, 200, 100, 3, 1, ws);
  int nv = P.nv, nc = P.nc, m = 3 * nc;
  int* label = malloc(sizeof(int) * nv);
  for (int i = 0; i < nv; i++) label[i] = i;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int j = 0; j < nv; j++)
      for (int i = 0; i < nv; i++)
        if (P.A[i + (size_t)j * nv] != 0.0 && label[i] != label[j]) {
          int lo = label[i] < label[j] ? label[i] : label[j];
          label[i] = label[j] = lo;
          changed = 1;
        }
  }
  int* tree_ptr = calloc((size_t)nv + 1, sizeof(int));
  int* tree_dofs = malloc(sizeof(int) * nv);
  int nt = 0, k = 0;
  for (int r = 0; r < nv; r++) {
    int any = 0;
    for (int i = 0; i < nv; i++)
      if (label[i] == r) tree_dofs[k++] = i, any = 1;
    if (any) tree_ptr[++nt] = k;
  }
  int* jptr = calloc((size_t)nc + 1, sizeof(int));
  int* jcol = malloc(sizeof(int) * (size_t)nc * nv);
  int q = 0;
  for (int c = 0; c < nc; c++) {
    for (int j = nv - 1; j >= 0; j--)
      if (P.J[3 * c + (size_t)j * m] != 0 || P.J[3 * c + 1 + (size_t)j * m] != 0 ||
          P.J[3 * c + 2 + (size_t)j * m] != 0)
        jcol[q++] = j;
    jptr[c + 1] = q;
  }
  /* the block form in this order, by hand */
  long nblk = 0;
  for (int t = 0; t < nt; t++) nblk += (long)(tree_ptr[t + 1] - tree_ptr[t]) * (tree_ptr[t + 1] - tree_ptr[t]);
  double* ablk = malloc(sizeof(double) * (size_t)nblk);
  double* jval = malloc(sizeof(double) * 3 * (size_t)q);
  long off = 0;
  for (int t = 0; t < nt; t++) {
    const int n = tree_ptr[t + 1] - tree_ptr[t];
    const int* d = tree_dofs + tree_ptr[t];
    for (int b = 0; b < n; b++)
      for (int a = 0; a < n; a++) ablk[off + a + b * n] = P.A[d[a] + (size_t)d[b] * nv];
    off += (long)n * n;
  }
  for (int c = 0; c < nc; c++)
    for (int e = jptr[c]; e < jptr[c + 1]; e++)
      for (int r = 0; r < 3; r++) jval[3 * e + r] = P.J[3 * c + r + (size_t)jcol[e] * m];
  sc_problem h = P.p;
  h.ntree = nt, h.tree_ptr = tree_ptr, h.tree_dofs = tree_dofs, h.A = ablk;
  h.jptr = jptr, h.jcol = jcol, h.J = jval;
  double *v0 = malloc(sizeof(double) * nv), *v1 = malloc(sizeof(double) * nv);
  double *g0 = malloc(sizeof(double) * m), *g1 = malloc(sizeof(double) * m);
  double *w0 = malloc(sizeof(double) * nc), *w1 = malloc(sizeof(double) * nc);
  sc_solver_stats s0, s1;
  ENSURE(solve(&P, ws, SC_SAP_HESSIAN_AUTO, 100, v0, g0, &s0) == SC_SOLVE_OK);
  ENSURE(sc_sap_delassus_problem(&P.p, ws, w0) == SC_OK);
  P.p = h;
  ENSURE(solve(&P, ws, SC_SAP_HESSIAN_AUTO, 100, v1, g1, &s1) == SC_SOLVE_OK);
  ENSURE(sc_sap_delassus_problem(&P.p, ws, w1) == SC_OK);
  double dv = max_diff(nv, v0, v1) / fmax(1e-300, max_abs(nv, v0));
  double dw = max_diff(nc, w0, w1) / fmax(1e-300, max_abs(nc, w0));
  printf("  hand-made block form vs converted: %d trees, iterations %d / %d, rel diff v %.2e, w %.2e\n", nt,
         s0.iterations, s1.iterations, dv, dw);
  ENSURE(nt == 121);
  ENSURE(s0.iterations == s1.iterations);
  ENSURE(dv <= 1e-12);
  ENSURE(dw <= 1e-12);
  free(label), free(tree_ptr), free(tree_dofs), free(jptr), free(jcol), free(ablk), free(jval);
  free(v0), free(v1), free(g0), free(g1), free(w0), free(w1);
  prob_free(&P);
  sc_sap_work_free(ws);
}

/* Cost, gradient, impulses and Hessian on the structured / sparse path
 * (block form products, H assembled in CHOLMOD's pattern) against the dense
 * path, at random velocities of random problems (contacts in all regions). */
static void test_eval_matches_dense(void) {
  srand(17);
  sc_sap_work* ws = sc_sap_work_create(6 * 40 + 15, 200);
  const int cfg[][3] = {{30, 0, 0}, {40, 15, 1}}; /* bodies, chain, shuffle */
  for (int t = 0; t < 2; t++) {
    prob P;
    gen(&P, cfg[t][0], cfg[t][1], 2 * cfg[t][0], cfg[t][0], cfg[t][1] ? 4 : 0, cfg[t][2], ws);
    const int nv = P.nv, m = 3 * P.nc;
    double *v = malloc(sizeof(double) * nv), *gd = malloc(sizeof(double) * nv);
    double *gs = malloc(sizeof(double) * nv), *yd = malloc(sizeof(double) * m);
    double *ys = malloc(sizeof(double) * m);
    double* Hd = malloc(sizeof(double) * nv * nv);
    double* Hs = malloc(sizeof(double) * nv * nv);
    double worst_g = 0, worst_h = 0, worst_l = 0;
    const int* kinds = KINDS;
    for (int trial = 0; trial < 6; trial++) {
      for (int i = 0; i < nv; i++) v[i] = P.vstar[i] + 0.05 * urand();
      double ld, ls;
      ENSURE(sc_sap_eval_path(&P.p, 1e-7, SC_SAP_HESSIAN_DENSE, ws, v, &ld, gd, yd, Hd) == SC_OK);
      ENSURE(sc_sap_eval_path(&P.p, 1e-7, kinds[trial % NKINDS], ws, v, &ls, gs, ys, Hs) == SC_OK);
      worst_l = fmax(worst_l, fabs(ls - ld) / fabs(ld));
      worst_g = fmax(worst_g, max_diff(nv, gs, gd) / max_abs(nv, gd));
      worst_h = fmax(worst_h, max_diff(nv * nv, Hs, Hd) / max_abs(nv * nv, Hd));
      ENSURE(max_diff(m, ys, yd) <= 1e-12 * max_abs(m, yd));
    }
    printf("  eval: nv %d nc %d, max rel diff cost %.2e, gradient %.2e, Hessian %.2e\n", nv,
           P.nc, worst_l, worst_g, worst_h);
    ENSURE(worst_l <= 1e-12 && worst_g <= 1e-10 && worst_h <= 1e-12);
    free(v), free(gd), free(gs), free(yd), free(ys), free(Hd), free(Hs);
    prob_free(&P);
  }
  sc_sap_work_free(ws);
}

/* Contacts whose curvature block and impulse are exactly zero (separated)
 * are skipped by the sparse and block-dense assembly and by J^T gamma; the
 * Hessian and gradient must still equal the dense path's, which adds every
 * contact.  Half the contacts are moved 0.5 m apart, so that a good share
 * of them is separated at the evaluation points. */
static void test_separated_contacts_skipped(void) {
  srand(29);
  sc_sap_work* ws = sc_sap_work_create(6 * 30 + 12, 160);
  const int cfg[][2] = {{30, 12}, {8, 0}}; /* bodies, chain: large (block) and small (dense) */
  for (int t = 0; t < 2; t++) {
    prob P;
    gen(&P, cfg[t][0], cfg[t][1], 2 * cfg[t][0], cfg[t][0], cfg[t][1] ? 3 : 0, 1, ws);
    const int nv = P.nv, nc = P.nc, m = 3 * nc;
    for (int c = 0; c < nc; c += 2) P.phi0[c] = 0.5;
    sc_law_sap(nc, P.k, P.taud, P.w, P.phi0, NULL, 0.01, 1.0, 1e-3, 1.0, P.R, P.vhat);
    double *v = malloc(sizeof(double) * nv), *gd = malloc(sizeof(double) * nv);
    double *gs = malloc(sizeof(double) * nv), *yd = malloc(sizeof(double) * m);
    double *ys = malloc(sizeof(double) * m);
    double *Hd = malloc(sizeof(double) * nv * nv), *Hs = malloc(sizeof(double) * nv * nv);
    double worst_g = 0.0, worst_h = 0.0;
    int zero = 0, active = 0;
    const int kinds[] = {SC_SAP_HESSIAN_AUTO, SC_SAP_HESSIAN_SPARSE_BLOCK,
                         SC_SAP_HESSIAN_SPARSE_SUPERNODAL, SC_SAP_HESSIAN_SPARSE_SIMPLICIAL};
    for (int trial = 0; trial < 8; trial++) {
      for (int i = 0; i < nv; i++) v[i] = P.vstar[i] + 0.05 * urand();
      double ld, ls;
      ENSURE(sc_sap_eval_path(&P.p, 1e-7, SC_SAP_HESSIAN_DENSE, ws, v, &ld, gd, yd, Hd) == SC_OK);
      ENSURE(sc_sap_eval_path(&P.p, 1e-7, kinds[trial % 4], ws, v, &ls, gs, ys, Hs) == SC_OK);
      for (int c = 0; c < nc; c++) {
        const int z = yd[3 * c] == 0.0 && yd[3 * c + 1] == 0.0 && yd[3 * c + 2] == 0.0;
        zero += z;
        active += !z;
      }
      worst_g = fmax(worst_g, max_diff(nv, gs, gd) / max_abs(nv, gd));
      worst_h = fmax(worst_h, max_diff(nv * nv, Hs, Hd) / max_abs(nv * nv, Hd));
      ENSURE(max_diff(m, ys, yd) <= 1e-12 * max_abs(m, yd));
    }
    printf("  separated: nv %d nc %d, %d zero and %d non-zero impulses, max rel diff gradient "
           "%.2e, Hessian %.2e\n",
           nv, nc, zero, active, worst_g, worst_h);
    /* both kinds present, or the test says nothing about the skip */
    ENSURE(zero >= 8 * nc / 4 && active >= 8 * nc / 4);
    ENSURE(worst_g <= 1e-10 && worst_h <= 1e-12);
    free(v), free(gd), free(gs), free(yd), free(ys), free(Hd), free(Hs);
    prob_free(&P);
  }
  sc_sap_work_free(ws);
}

/* Small problems (the islands of at most 64 dofs): the automatic choice
 * assembles H from the block form and factors it without BLAS; its Hessian,
 * Newton iterates and solution against the LAPACK dense path. */
static void test_small_blockdense_matches_dense(void) {
  srand(23);
  sc_sap_work* ws = sc_sap_work_create(64, 64);
  const int cfg[][3] = {{2, 0, 0}, {6, 0, 1}, {9, 10, 1}}; /* bodies, chain, shuffle */
  for (int t = 0; t < 3; t++) {
    const int B = cfg[t][0];
    prob P;
    gen(&P, B, cfg[t][1], 2 * B, B, cfg[t][1] ? 3 : 0, cfg[t][2], ws);
    const int nv = P.nv, m = 3 * P.nc;
    double *v = malloc(sizeof(double) * nv), *vd = malloc(sizeof(double) * nv);
    double *gd = malloc(sizeof(double) * m), *gs = malloc(sizeof(double) * m);
    double *Hd = malloc(sizeof(double) * nv * nv), *Hs = malloc(sizeof(double) * nv * nv);
    double ld, ls, worst_h = 0.0, worst_it = 0.0;
    for (int trial = 0; trial < 3; trial++) {
      for (int i = 0; i < nv; i++) v[i] = P.vstar[i] + 0.05 * urand();
      ENSURE(sc_sap_eval_path(&P.p, 1e-7, SC_SAP_HESSIAN_DENSE, ws, v, &ld, NULL, NULL, Hd) ==
             SC_OK);
      ENSURE(sc_sap_eval_path(&P.p, 1e-7, SC_SAP_HESSIAN_AUTO, ws, v, &ls, NULL, NULL, Hs) ==
             SC_OK);
      worst_h = fmax(worst_h, max_diff(nv * nv, Hs, Hd) / max_abs(nv * nv, Hd));
    }
    sc_solver_stats sd, ss;
    ENSURE(solve(&P, ws, SC_SAP_HESSIAN_DENSE, 100, vd, gd, &sd) == SC_SOLVE_OK);
    const int K = sd.iterations;
    for (int it = 1; it <= K; it++) {
      solve(&P, ws, SC_SAP_HESSIAN_DENSE, it, vd, gd, &sd);
      solve(&P, ws, SC_SAP_HESSIAN_AUTO, it, v, gs, &ss);
      ENSURE(sc_sap_last_hessian(ws) == SC_SAP_HESSIAN_DENSE);
      ENSURE(ss.iterations == sd.iterations);
      worst_it = fmax(worst_it, max_diff(nv, v, vd) / max_abs(nv, vd));
    }
    ENSURE(ss.status == SC_SOLVE_OK && sd.status == SC_SOLVE_OK);
    ENSURE(max_diff(m, gs, gd) <= 1e-10 * max_abs(m, gd));
    printf("  small: nv %d nc %d, %d iterations, max rel diff Hessian %.2e, iterates %.2e\n", nv,
           P.nc, K, worst_h, worst_it);
    ENSURE(worst_h <= 1e-14 && worst_it <= 1e-10);
    free(v), free(vd), free(gd), free(gs), free(Hd), free(Hs);
    prob_free(&P);
  }
  sc_sap_work_free(ws);
}

/* The sparse path reuses its last analysis when a solve's triplet sequence
 * (contacts, their columns, their order) repeats, as in a settled pile.  A
 * workspace that has just solved other problems must give bit for bit what
 * a fresh workspace gives: P, then P with new velocities (same pattern:
 * reused), then Q (another pattern of the same size), then P again. */
static void test_analysis_reuse(void) {
  const int B = 40;
  sc_sap_work* wa = sc_sap_work_create(6 * B, 4 * B);
  prob P, Q;
  srand(31);
  gen(&P, B, 0, 2 * B, B, 0, 1, wa);
  srand(32);
  gen(&Q, B, 0, 2 * B, B, 0, 1, wa);
  const int nv = P.nv, m = 3 * P.nc;
  double *v = malloc(sizeof(double) * nv), *vr = malloc(sizeof(double) * nv);
  double *g = malloc(sizeof(double) * m), *gr = malloc(sizeof(double) * m);
  const int* kinds = KINDS;
  for (int kk = 0; kk < NKINDS; kk++) {
    const prob* seq[] = {&P, &P, &Q, &P};
    int identical = 1;
    for (int k = 0; k < 4; k++) {
      if (k == 1)
        for (int i = 0; i < nv; i++) P.vstar[i] *= -0.7; /* new values, same pattern */
      sc_solver_stats sa, sr;
      ENSURE(solve(seq[k], wa, kinds[kk], 100, v, g, &sa) == SC_SOLVE_OK);
      sc_sap_work* fresh = sc_sap_work_create(6 * B, 4 * B);
      ENSURE(solve(seq[k], fresh, kinds[kk], 100, vr, gr, &sr) == SC_SOLVE_OK);
      sc_sap_work_free(fresh);
      identical &= sa.iterations == sr.iterations && memcmp(v, vr, sizeof(double) * nv) == 0 &&
                   memcmp(g, gr, sizeof(double) * m) == 0;
    }
    printf("  analysis reuse (%s): P, P', Q, P bit-identical to fresh workspaces: %s\n",
           KIND_NAME[kk], identical ? "yes" : "no");
    ENSURE(identical);
  }
  free(v), free(vr), free(g), free(gr);
  prob_free(&P), prob_free(&Q);
  sc_sap_work_free(wa);
}

/* A diagonal A converted densely makes every dof a tree.  Forced onto the
 * block path, the trees the same contacts touch share a supernode (so the
 * supernodes mix trees and zeros): same iterates and solution as the dense
 * path.  Left to itself, the choice goes to CHOLMOD for such scalar trees. */
static void test_block_scalar_trees(void) {
  srand(29);
  const int B = 40;
  sc_sap_work* ws = sc_sap_work_create(6 * B, 4 * B);
  prob P;
  gen(&P, B, 0, B, B / 2, 0, 0, ws);
  for (int j = 0; j < P.nv; j++)
    for (int i = 0; i < P.nv; i++)
      if (i != j) P.A[i + (size_t)j * P.nv] = 0.0;
  sc_problem_storage_free(&P.st);
  P.st = (sc_problem_storage){0};
  P.p = dense_problem(&P.st, P.nv, P.nc, P.A, P.vstar, P.J, P.R, P.vhat, P.mu, P.phi0, 0.01);
  ENSURE(P.p.ntree == P.nv);
  double *vd = malloc(sizeof(double) * P.nv), *vs = malloc(sizeof(double) * P.nv);
  double *gd = malloc(sizeof(double) * 3 * P.nc), *gs = malloc(sizeof(double) * 3 * P.nc);
  sc_solver_stats sd, ss;
  ENSURE(solve(&P, ws, SC_SAP_HESSIAN_DENSE, 100, vd, gd, &sd) == SC_SOLVE_OK);
  ENSURE(solve(&P, ws, SC_SAP_HESSIAN_SPARSE_BLOCK, 100, vs, gs, &ss) == SC_SOLVE_OK);
  ENSURE(sc_sap_last_hessian(ws) == SC_SAP_HESSIAN_SPARSE_BLOCK);
  ENSURE(ss.iterations == sd.iterations);
  const double rel = max_diff(P.nv, vs, vd) / max_abs(P.nv, vd);
  ENSURE(rel <= 1e-10);
  ENSURE(max_diff(3 * P.nc, gs, gd) <= 1e-10 * max_abs(3 * P.nc, gd));
  printf("  scalar trees (%d) on the block path: %d iterations, rel diff %.2e, fill %ld\n",
         P.p.ntree, ss.iterations, rel, sc_sap_last_factor_nnz(ws));
  ENSURE(solve(&P, ws, SC_SAP_HESSIAN_AUTO, 100, vs, gs, &ss) == SC_SOLVE_OK);
  ENSURE(sc_sap_last_hessian(ws) == SC_SAP_HESSIAN_SPARSE_SUPERNODAL ||
         sc_sap_last_hessian(ws) == SC_SAP_HESSIAN_SPARSE_SIMPLICIAL);
  free(vd), free(vs), free(gd), free(gs);
  prob_free(&P);
  /* one contact over 20 supernodes (more than the per-contact table holds):
   * 20 one-dof trees, contact 0 on all of them, contact i on tree i - 1 only */
  {
    const int n = 20, nc = n + 1, m = 3 * nc;
    double *A = calloc((size_t)n * n, sizeof(double)), *J = calloc((size_t)m * n, sizeof(double));
    double vstar[20], R[63], vhat[63], mu[21], phi0[21], k[21], taud[21], w[21];
    for (int i = 0; i < n; i++) {
      A[i * (n + 1)] = urange(0.5, 2.0);
      vstar[i] = 0.3 * urand();
      for (int r = 0; r < 3; r++) {
        J[r + (size_t)i * m] = urand();
        J[3 * (i + 1) + r + (size_t)i * m] = urand();
      }
    }
    for (int c = 0; c < nc; c++) mu[c] = 0.5, phi0[c] = -1e-3, k[c] = 1e5, taud[c] = 0.02;
    sc_problem_storage st = {0};
    sc_problem q = dense_problem(&st, n, nc, A, vstar, J, R, vhat, mu, phi0, 0.01);
    ENSURE(sc_sap_delassus_path(&q, SC_SAP_HESSIAN_DENSE, ws, w) == SC_OK);
    sc_law_sap(nc, k, taud, w, phi0, NULL, 0.01, 1.0, 1e-3, 1.0, R, vhat);
    sc_sap_params prm;
    sc_sap_params_default(&prm);
    prm.cg_max_iterations = 0; /* the factorizations are compared */
    double v1[20] = {0}, v2[20] = {0}, g1[63], g2[63];
    sc_solver_stats s1, s2;
    prm.hessian = SC_SAP_HESSIAN_DENSE;
    ENSURE(sc_sap_solve(&q, &prm, ws, v1, g1, &s1) == SC_SOLVE_OK);
    prm.hessian = SC_SAP_HESSIAN_SPARSE_BLOCK;
    ENSURE(sc_sap_solve(&q, &prm, ws, v2, g2, &s2) == SC_SOLVE_OK);
    ENSURE(sc_sap_last_hessian(ws) == SC_SAP_HESSIAN_SPARSE_BLOCK);
    ENSURE(s1.iterations == s2.iterations);
    ENSURE(max_diff(n, v1, v2) <= 1e-10 * max_abs(n, v1));
    printf("  a contact over %d supernodes: %d iterations, rel diff %.2e\n", n, s2.iterations,
           max_diff(n, v1, v2) / max_abs(n, v1));
    sc_problem_storage_free(&st);
    free(A), free(J);
  }
  sc_sap_work_free(ws);
}

/* Newton directions from a held factorization (sap.c: conjugate gradients
 * preconditioned with an earlier iterate's factor, or the last pass's).
 * Reference: the same problems solved with a factorization per iteration to
 * a tolerance of 1e-12 (exact Newton).  Each solve must end at the requested
 * relative residual (1e-6) like the exact-Newton one at 1e-6, and its v be
 * within 1e-5 of the 1e-12 solution, relative to its largest entry (the
 * tolerance with a factor 10 for the conditioning, which the exact-Newton
 * solve at 1e-6 must meet as well; both are measured and printed).  A re-solve of the same island with changed laws
 * (sc_sap_reuse_factor) starts from the held factor; a different problem
 * never does. */
static void test_held_factor(void) {
  const int B = 60;
  sc_sap_work* ws = sc_sap_work_create(6 * B, 4 * B);
  double worst_cg = 0.0, worst_ex = 0.0;
  int fewer = 0, total_it = 0, total_fac = 0;
  for (int seed = 0; seed < 6; seed++) {
    srand(100 + seed);
    prob P;
    gen(&P, B, 0, 2 * B, B, 0, 1, ws);
    const int nv = P.nv, m = 3 * P.nc;
    double *vr = malloc(sizeof(double) * nv), *ve = malloc(sizeof(double) * nv);
    double *vc = malloc(sizeof(double) * nv), *g = malloc(sizeof(double) * m);
    sc_sap_params prm;
    sc_sap_params_default(&prm);
    prm.hessian = SC_SAP_HESSIAN_SPARSE_BLOCK;
    sc_solver_stats st;
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 1)
        /* a later pass: the same contacts, their regularization changed */
        for (int i = 0; i < m; i++) P.R[i] *= 1.0 + 0.01 * urand();
      prm.cg_max_iterations = 0;
      prm.rel_tol = 1e-12;
      for (int i = 0; i < nv; i++) vr[i] = 0.0;
      ENSURE(sc_sap_solve(&P.p, &prm, ws, vr, g, &st) == SC_SOLVE_OK);
      ENSURE(st.factorizations == st.iterations);
      prm.rel_tol = 1e-6;
      for (int i = 0; i < nv; i++) ve[i] = 0.0;
      ENSURE(sc_sap_solve(&P.p, &prm, ws, ve, g, &st) == SC_SOLVE_OK);
      ENSURE(st.residual <= 1e-6);
      /* held factor: from the exact solve just above on pass 1 (same problem) */
      prm.cg_max_iterations = 5;
      for (int i = 0; i < nv; i++) vc[i] = 0.0;
      if (pass == 1) sc_sap_reuse_factor(ws);
      ENSURE(sc_sap_solve(&P.p, &prm, ws, vc, g, &st) == SC_SOLVE_OK);
      ENSURE(st.residual <= 1e-6);
      const int nf = st.factorizations;
      ENSURE(nf <= st.iterations);
      if (pass == 0) ENSURE(nf >= 1); /* a new problem: never a stale factor */
      fewer += nf < st.iterations;
      total_it += st.iterations;
      total_fac += nf;
      const double scale = max_abs(nv, vr);
      const double ee = max_diff(nv, ve, vr) / scale, ec = max_diff(nv, vc, vr) / scale;
      worst_ex = fmax(worst_ex, ee);
      worst_cg = fmax(worst_cg, ec);
      ENSURE(ec <= 1e-5);
      ENSURE(ee <= 1e-5);
    }
    free(vr), free(ve), free(vc), free(g);
    prob_free(&P);
  }
  printf("  held factor: %d of 12 solves took fewer factorizations than iterations "
         "(%d factorizations for %d iterations); |v - v_exact| / |v_exact|: %.2e (CG), "
         "%.2e (a factorization per iteration)\n",
         fewer, total_fac, total_it, worst_cg, worst_ex);
  ENSURE(fewer >= 6);
  /* what a workspace solved before never changes a solve (islands go to
   * whichever thread is free): P after Q on one workspace, bit for bit P
   * on a fresh one; Q is P with other free velocities, stopped after its
   * first iteration, so that its held factor (of H at v = 0, P's own first
   * H) would pass the region test at P's first iterate */
  {
    prob P, Q;
    srand(200);
    gen(&P, B, 0, 2 * B, B, 0, 1, ws);
    srand(200);
    gen(&Q, B, 0, 2 * B, B, 0, 1, ws);
    for (int i = 0; i < Q.nv; i++) Q.vstar[i] *= 0.9;
    const int nv = P.nv, m = 3 * P.nc;
    double *v1 = calloc((size_t)nv, sizeof(double)), *v2 = calloc((size_t)nv, sizeof(double));
    double *vq = calloc((size_t)nv, sizeof(double)), *g1 = malloc(sizeof(double) * m);
    double* g2 = malloc(sizeof(double) * m);
    sc_sap_params prm;
    sc_sap_params_default(&prm);
    prm.hessian = SC_SAP_HESSIAN_SPARSE_BLOCK;
    sc_solver_stats s1, s2;
    prm.max_iterations = 1;
    ENSURE(sc_sap_solve(&Q.p, &prm, ws, vq, g1, &s1) == SC_SOLVE_MAXIT);
    prm.max_iterations = 100;
    ENSURE(sc_sap_solve(&P.p, &prm, ws, v1, g1, &s1) == SC_SOLVE_OK);
    sc_sap_work* fresh = sc_sap_work_create(6 * B, 4 * B);
    ENSURE(sc_sap_solve(&P.p, &prm, fresh, v2, g2, &s2) == SC_SOLVE_OK);
    sc_sap_work_free(fresh);
    ENSURE(s1.iterations == s2.iterations);
    ENSURE(memcmp(v1, v2, sizeof(double) * nv) == 0 && memcmp(g1, g2, sizeof(double) * m) == 0);
    free(v1), free(v2), free(vq), free(g1), free(g2);
    prob_free(&P), prob_free(&Q);
  }
  sc_sap_work_free(ws);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_block_form_order);
  RUN(test_eval_matches_dense);
  RUN(test_delassus_matches_dense);
  RUN(test_delassus_given_factors);
  RUN(test_iterates_match_dense);
  RUN(test_solution_matches_dense);
  RUN(test_capacity_fallback);
  RUN(test_allocation);
  RUN(test_small_blockdense_matches_dense);
  RUN(test_separated_contacts_skipped);
  RUN(test_analysis_reuse);
  RUN(test_block_scalar_trees);
  RUN(test_held_factor);
  return TEST_END();
}
