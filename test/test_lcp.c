/* Lemke's algorithm and the contact LCP (src/solver_lcp).
 *
 * References used here: closed forms (textbook LCPs, the cart and
 * brick, a box row on one dof), brute-force enumeration of all 2^n
 * complementary index sets (independent of pivoting), an active-set
 * enumeration of the frictionless contact KKT system solved in v-space (no
 * Delassus matrix), and projected Gauss-Seidel on the contact and box-row
 * laws themselves (no LCP). */
#include <signal.h>
#include "problem_util.h"
#include <stdint.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

#include "core/core.h"
#include "harness.h"
#include "solver_lcp/lcp.h"

/* ---- helpers ---- */

static uint64_t rng_state = 0x12345678abcdefull;
static double urand(void) { /* uniform in [-1, 1), xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  uint64_t r = rng_state * 0x2545F4914F6CDD1Dull;
  return (double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}
static int irand(int lo, int hi) { /* integer in [lo, hi] */
  double u = 0.5 * (urand() + 1.0);
  int k = lo + (int)(u * (hi - lo + 1));
  return k > hi ? hi : k;
}

/* Solve the n x n system A x = b (column-major, lda) by Gaussian elimination
 * with partial pivoting; A and b are copied.  Returns 0 when singular. */
static int dense_solve(int n, const double* A, int lda, const double* b, double* x) {
  double T[64 * 65];
  if (n > 64) return 0;
  double amax = 0.0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      T[i + j * n] = A[i + j * lda];
      amax = fmax(amax, fabs(T[i + j * n]));
    }
  for (int i = 0; i < n; i++) x[i] = b[i];
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(T[i + k * n]) > fabs(T[p + k * n])) p = i;
    if (!(fabs(T[p + k * n]) > 1e-13 * amax)) return 0;
    for (int j = 0; j < n; j++) {
      double t = T[k + j * n];
      T[k + j * n] = T[p + j * n];
      T[p + j * n] = t;
    }
    double t = x[k];
    x[k] = x[p];
    x[p] = t;
    for (int i = k + 1; i < n; i++) {
      double f = T[i + k * n] / T[k + k * n];
      for (int j = k; j < n; j++) T[i + j * n] -= f * T[k + j * n];
      x[i] -= f * x[k];
    }
  }
  for (int k = n - 1; k >= 0; k--) {
    for (int j = k + 1; j < n; j++) x[k] -= T[k + j * n] * x[j];
    x[k] /= T[k + k * n];
  }
  return 1;
}

/* w = M z + q */
static void lcp_w(int n, const double* M, const double* q, const double* z, double* w) {
  for (int i = 0; i < n; i++) {
    w[i] = q[i];
    for (int j = 0; j < n; j++) w[i] += M[i + j * n] * z[j];
  }
}

/* Largest violation of 0 <= z _|_ w >= 0: max(-z, -w, |z w|/scale). */
static double lcp_violation(int n, const double* M, const double* q, const double* z) {
  double w[64], e = 0.0, s = 0.0;
  lcp_w(n, M, q, z, w);
  for (int i = 0; i < n; i++) s = fmax(s, fmax(fabs(q[i]), fabs(z[i])));
  if (s == 0.0) s = 1.0;
  for (int i = 0; i < n; i++) {
    e = fmax(e, fmax(-z[i], -w[i]) / s);
    e = fmax(e, fabs(z[i] * w[i]) / (s * s));
  }
  return e;
}

/* Brute force: every index set alpha (z_alpha basic), M_aa z_a = -q_a, check
 * signs.  Returns the number of solutions found; the first goes to z. */
static int lcp_enumerate(int n, const double* M, const double* q, double* z) {
  int found = 0;
  double s = 0.0;
  for (int i = 0; i < n; i++) s = fmax(s, fabs(q[i]));
  for (unsigned mask = 0; mask < (1u << n); mask++) {
    int idx[16], k = 0;
    for (int i = 0; i < n; i++)
      if (mask & (1u << i)) idx[k++] = i;
    double Ma[256], qa[16], za[16], zz[16], w[16];
    for (int a = 0; a < k; a++) {
      qa[a] = -q[idx[a]];
      for (int b = 0; b < k; b++) Ma[a + b * k] = M[idx[a] + idx[b] * n];
    }
    if (k > 0 && !dense_solve(k, Ma, k, qa, za)) continue;
    for (int i = 0; i < n; i++) zz[i] = 0.0;
    for (int a = 0; a < k; a++) zz[idx[a]] = za[a];
    lcp_w(n, M, q, zz, w);
    int ok = 1;
    for (int i = 0; i < n; i++)
      if (zz[i] < -1e-12 * s || w[i] < -1e-12 * s) ok = 0;
    if (!ok) continue;
    if (!found)
      for (int i = 0; i < n; i++) z[i] = zz[i];
    found++;
  }
  return found;
}

/* ---- Lemke on textbook LCPs ---- */

/* M = [[2,1],[1,2]], q = (-5,-6): both active, z = M^-1 (5, 6) = (4/3, 7/3);
 * q = (-1, 3): only z1 active, z = (1/2, 0), w2 = 3.5. */
static void test_lemke_2x2_closed_form(void) {
  sc_lemke_work* lw = sc_lemke_work_create(2);
  double M[4] = {2, 1, 1, 2}, z[2], w[2];
  double q1[2] = {-5, -6};
  int piv = -1;
  ENSURE(sc_lemke(2, M, q1, z, 0, lw, &piv) == SC_SOLVE_OK);
  ENSURE_NEAR(z[0], 4.0 / 3.0, 1e-12);
  ENSURE_NEAR(z[1], 7.0 / 3.0, 1e-12);
  lcp_w(2, M, q1, z, w);
  ENSURE_NEAR(w[0], 0.0, 1e-12);
  ENSURE_NEAR(w[1], 0.0, 1e-12);
  ENSURE(piv >= 2);
  double q2[2] = {-1, 3};
  ENSURE(sc_lemke(2, M, q2, z, 0, lw, &piv) == SC_SOLVE_OK);
  ENSURE_NEAR(z[0], 0.5, 1e-12);
  ENSURE_NEAR(z[1], 0.0, 1e-12);
  lcp_w(2, M, q2, z, w);
  ENSURE_NEAR(w[0], 0.0, 1e-12);
  ENSURE_NEAR(w[1], 3.5, 1e-12);
  ENSURE(fabs(z[0] * w[0]) + fabs(z[1] * w[1]) <= 1e-12);
  sc_lemke_work_free(lw);
}

/* 3x3 with a hand solution: M = [[4,1,0],[1,4,1],[0,1,4]], q = (-4,-6,8):
 * z3 = 0, [[4,1],[1,4]] z = (4,6) -> z = (2/3, 4/3); w3 = 8 + 4/3. */
static void test_lemke_3x3_closed_form(void) {
  sc_lemke_work* lw = sc_lemke_work_create(3);
  double M[9] = {4, 1, 0, 1, 4, 1, 0, 1, 4}, q[3] = {-4, -6, 8}, z[3], w[3];
  ENSURE(sc_lemke(3, M, q, z, 0, lw, NULL) == SC_SOLVE_OK);
  ENSURE_NEAR(z[0], 2.0 / 3.0, 1e-12);
  ENSURE_NEAR(z[1], 4.0 / 3.0, 1e-12);
  ENSURE_NEAR(z[2], 0.0, 1e-12);
  lcp_w(3, M, q, z, w);
  ENSURE_NEAR(w[0], 0.0, 1e-12);
  ENSURE_NEAR(w[1], 0.0, 1e-12);
  ENSURE_NEAR(w[2], 8.0 + 4.0 / 3.0, 1e-12);
  ENSURE(lcp_violation(3, M, q, z) <= 1e-12);
  sc_lemke_work_free(lw);
}

/* q >= 0: z = 0 immediately, no pivots. */
static void test_lemke_trivial_exit(void) {
  sc_lemke_work* lw = sc_lemke_work_create(3);
  double M[9] = {-1, 2, 3, 4, -5, 6, 7, 8, -9}, q[3] = {0, 1, 2}, z[3] = {7, 7, 7};
  int piv = -1;
  ENSURE(sc_lemke(3, M, q, z, 0, lw, &piv) == SC_SOLVE_OK);
  ENSURE(piv == 0);
  for (int i = 0; i < 3; i++) ENSURE(z[i] == 0.0);
  sc_lemke_work_free(lw);
}

/* q's only negative entries are round-off: the contact LCP of one sphere
 * resting on the floor (clutter 27 at 10 ms, 4 cone edges, scaled as in
 * lcp.c), where vc_t = 0 leaves tangential q ~ -2e-16 beside q_n = 1.7e-3.
 * z = 0 passes the end-point check (1e-10 relative), so it is returned with
 * no pivots; Lemke pivoting on that noise ended every attempt on a false
 * ray (status 4).  Reference: every complementary set (enumeration), whose
 * solutions all have z within 1e-12 |q| of 0. */
static void test_lemke_roundoff_q(void) {
  const double a = 1.2996174731582673, e = 7.957861893096217e-17, f = 2.387358567928865e-16;
  const double rows[36] = {0.41664818785175611, 0, 0, 0, 0, 0,
                           0, a, e, -a, -f, 1,
                           0, e, a, e, -a, 1,
                           0, -a, e, a, e, 1,
                           0, -f, -a, e, a, 1,
                           0.5, -1, -1, -1, -1, 0};
  const double q[6] = {0.0016966092765451299, -1.8211450241687304e-46, 1.973584373181383e-16,
                       2.4169437854638346e-32, -1.973584373181383e-16, 0};
  double M[36], z[6], zr[6];
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) M[i + 6 * j] = rows[6 * i + j];
  sc_lemke_work* lw = sc_lemke_work_create(6);
  int piv = -1;
  ENSURE(sc_lemke(6, M, q, z, 0, lw, &piv) == SC_SOLVE_OK);
  ENSURE(piv == 0);
  ENSURE(lcp_violation(6, M, q, z) <= 1e-10);
  ENSURE(lcp_enumerate(6, M, q, zr) >= 1);
  for (int i = 0; i < 6; i++) ENSURE(fabs(z[i] - zr[i]) <= 1e-12 * q[0]);
  sc_lemke_work_free(lw);
}

/* LCP of a convex QP  min 1/2 z'Mz + q'z, z >= 0 with M random SPD: the
 * unique KKT point from enumerating all 2^n active sets, n = 1..8. */
static void test_lemke_convex_qp_vs_enumeration(void) {
  sc_lemke_work* lw = sc_lemke_work_create(8);
  int worst_piv = 0;
  double worst = 0.0;
  for (int trial = 0; trial < 60; trial++) {
    int n = 1 + trial % 8;
    double B[64], M[64], q[8], z[8], zr[8];
    for (int i = 0; i < n * n; i++) B[i] = urand();
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = (i == j) ? 0.1 : 0.0;
        for (int k = 0; k < n; k++) s += B[k + i * n] * B[k + j * n];
        M[i + j * n] = s;
      }
    for (int i = 0; i < n; i++) q[i] = urand();
    int piv = 0;
    ENSURE(sc_lemke(n, M, q, z, 0, lw, &piv) == SC_SOLVE_OK);
    ENSURE(lcp_enumerate(n, M, q, zr) == 1);
    for (int i = 0; i < n; i++) {
      ENSURE_CLOSE(z[i], zr[i], 1e-9, 1e-11);
      worst = fmax(worst, fabs(z[i] - zr[i]));
    }
    ENSURE(lcp_violation(n, M, q, z) <= 1e-12);
    if (piv > worst_piv) worst_piv = piv;
  }
  printf("  qp: max |z - z_enum| = %.2e, max pivots %d\n", worst, worst_piv);
  sc_lemke_work_free(lw);
}

/* random positive definite (hence P) M = B'B + 0.2 I + skew, n x n */
static void random_p_matrix(int n, double* M) {
  double B[144];
  for (int i = 0; i < n * n; i++) B[i] = urand();
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = (i == j) ? 0.2 : 0.0;
      for (int k = 0; k < n; k++) s += B[k + i * n] * B[k + j * n];
      M[i + j * n] = s + 2.0 * (B[i + j * n] - B[j + i * n]);
    }
}

/* Nonsymmetric P-matrices: the fixed 3x3 [[2,1,0],[-1,2,1],[0,-1,2]]
 * (principal minors 2,2,2,5,4,5,12) and random SPD + skew matrices (positive
 * definite, hence P).  The solution is unique: compare with enumeration. */
static void test_lemke_nonsymmetric_p_matrix(void) {
  sc_lemke_work* lw = sc_lemke_work_create(7);
  double P3[9] = {2, -1, 0, 1, 2, -1, 0, 1, 2};
  for (int trial = 0; trial < 40; trial++) {
    int n = trial < 10 ? 3 : 2 + trial % 6;
    double M[49], q[7], z[7], zr[7];
    if (trial < 10) {
      for (int i = 0; i < 9; i++) M[i] = P3[i];
    } else {
      random_p_matrix(n, M);
    }
    for (int i = 0; i < n; i++) q[i] = 3.0 * urand();
    ENSURE(sc_lemke(n, M, q, z, 0, lw, NULL) == SC_SOLVE_OK);
    ENSURE(lcp_enumerate(n, M, q, zr) == 1);
    for (int i = 0; i < n; i++) ENSURE_CLOSE(z[i], zr[i], 1e-9, 1e-11);
    ENSURE(lcp_violation(n, M, q, z) <= 1e-12);
  }
  sc_lemke_work_free(lw);
}


/* Warm start (sc_lemke_from) on P-matrix LCPs, whose solution is unique
 * (checked against enumeration):
 *  - the basic set a cold solve returns, given back as the guess, is solved
 *    by one factorization (pivots = 1) to the same z;
 *  - the basic set of a neighbouring LCP (q perturbed by 10 %) and a random
 *    set both still end in the unique solution, the neighbour's with fewer
 *    pivots and factorizations over all trials than the cold solves;
 *  - basic marks every positive z_j. */
static void test_lemke_warm_start(void) {
  sc_lemke_work* lw = sc_lemke_work_create(12);
  int exact_one = 0, near_piv = 0, cold_piv = 0;
  for (int trial = 0; trial < 40; trial++) {
    int n = 3 + trial % 8;
    double M[144], q[12], q2[12], z[12], zr[12];
    unsigned char basic[12], basic2[12], guess[12];
    random_p_matrix(n, M);
    for (int i = 0; i < n; i++) q[i] = 3.0 * urand();
    for (int i = 0; i < n; i++) q2[i] = q[i] + 0.3 * urand();
    ENSURE(lcp_enumerate(n, M, q, zr) == 1);
    int piv = 0;
    ENSURE(sc_lemke_from(n, M, q, z, 0, lw, &piv, NULL, basic) == SC_SOLVE_OK);
    cold_piv += piv;
    for (int i = 0; i < n; i++) {
      ENSURE_CLOSE(z[i], zr[i], 1e-9, 1e-11);
      if (z[i] > 0.0) ENSURE(basic[i]);
    }
    int any_neg = 0;
    for (int i = 0; i < n; i++) any_neg |= q[i] < 0.0;
    /* the exact basis: one factorization */
    ENSURE(sc_lemke_from(n, M, q, z, 0, lw, &piv, basic, NULL) == SC_SOLVE_OK);
    ENSURE(piv == (any_neg ? 1 : 0));
    exact_one += piv == 1;
    for (int i = 0; i < n; i++) ENSURE_CLOSE(z[i], zr[i], 1e-9, 1e-11);
    /* a neighbour's basis */
    ENSURE(sc_lemke_from(n, M, q2, z, 0, lw, NULL, NULL, basic2) == SC_SOLVE_OK);
    ENSURE(sc_lemke_from(n, M, q, z, 0, lw, &piv, basic2, NULL) == SC_SOLVE_OK);
    near_piv += piv;
    for (int i = 0; i < n; i++) ENSURE_CLOSE(z[i], zr[i], 1e-9, 1e-11);
    ENSURE(lcp_violation(n, M, q, z) <= 1e-12);
    /* any set at all */
    for (int i = 0; i < n; i++) guess[i] = urand() > 0.0;
    ENSURE(sc_lemke_from(n, M, q, z, 0, lw, &piv, guess, NULL) == SC_SOLVE_OK);
    for (int i = 0; i < n; i++) ENSURE_CLOSE(z[i], zr[i], 1e-9, 1e-11);
  }
  ENSURE(exact_one > 20);
  ENSURE(near_piv < cold_piv);
  printf("  warm: %d exact guesses in one factorization; pivots cold %d, from a neighbour %d\n",
         exact_one, cold_piv, near_piv);
  sc_lemke_work_free(lw);
}

/* Pivots applied to B^-1 in batches (the default, SC_LEMKE_ETAS) against one
 * at a time (sc_lemke_set_batch(w, 1)): random P-matrix LCPs of 20..60
 * rows have a unique solution and a unique, non-degenerate pivot path, so
 * both must take the same number of pivots (dozens per cold solve: several
 * batches; then again from a perturbed guessed basis) and end at the same
 * z.  The solution is checked
 * independently by the complementarity violation. */
static void test_lemke_batched_pivots(void) {
  enum { NMAX = 60 };
  sc_lemke_work* w1 = sc_lemke_work_create(NMAX);
  sc_lemke_work* w8 = sc_lemke_work_create(NMAX);
  sc_lemke_set_batch(w1, 1);
  static double M[NMAX * NMAX], B[NMAX * NMAX];
  double q[NMAX], z1[NMAX], z8[NMAX], dz = 0.0;
  unsigned char guess[NMAX], basic[NMAX];
  int piv_total = 0, warm_total = 0;
  for (int trial = 0; trial < 12; trial++) {
    const int n = 20 + 4 * trial < NMAX ? 20 + 4 * trial : NMAX;
    for (int i = 0; i < n * n; i++) B[i] = urand();
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = i == j ? 0.5 : 0.0;
        for (int k = 0; k < n; k++) s += B[k + i * n] * B[k + j * n];
        M[i + j * n] = s + (B[i + j * n] - B[j + i * n]);
      }
    for (int i = 0; i < n; i++) q[i] = 2.0 * urand() - 0.5;
    for (int warm = 0; warm < 2; warm++) {
      int p1 = 0, p8 = 0;
      const unsigned char* g = warm ? guess : NULL;
      ENSURE(sc_lemke_from(n, M, q, z1, 0, w1, &p1, g, warm ? NULL : basic) == SC_SOLVE_OK);
      ENSURE(sc_lemke_from(n, M, q, z8, 0, w8, &p8, g, NULL) == SC_SOLVE_OK);
      ENSURE(p1 == p8);
      double zmax = 0.0;
      for (int i = 0; i < n; i++) zmax = fmax(zmax, fabs(z1[i]));
      for (int i = 0; i < n; i++) {
        ENSURE_CLOSE(z8[i], z1[i], 1e-10, 1e-12 * zmax);
        dz = fmax(dz, fabs(z8[i] - z1[i]) / fmax(zmax, 1e-300));
      }
      ENSURE(lcp_violation(n, M, q, z8) <= 1e-11);
      if (warm) {
        warm_total += p8;
      } else {
        piv_total += p8;
        /* the guess: the solution's basic set with every third index
         * flipped (principal pivoting may finish it; else a warm path) */
        for (int i = 0; i < n; i++) guess[i] = (unsigned char)(basic[i] ^ (i % 3 == 0));
      }
    }
  }
  ENSURE(piv_total > 12 * 2 * SC_LEMKE_ETAS);
  printf("  batched pivots: cold %d, from guesses %d, max relative |dz| %.2e\n", piv_total,
         warm_total, dz);
  sc_lemke_work_free(w1);
  sc_lemke_work_free(w8);
}

/* sc_lemke_from_inplace (the contact LCP's path: no copy of M) returns
 * bit for bit what sc_lemke_from does, and leaves M exactly as it was
 * although it equilibrates it in place; entries spread over 1e-6..1e6
 * make the scalings non-trivial.  A workspace without the copy refuses the
 * const API. */
static void test_lemke_inplace(void) {
  sc_lemke_work* lw = sc_lemke_work_create(10);
  sc_lemke_work* li = sc_lemke_work_create_inplace(10);
  ENSURE(lw && li);
  for (int trial = 0; trial < 20; trial++) {
    int n = 3 + trial % 8;
    double M[144], M0[144], q[12], z[12], zi[12];
    unsigned char b[12], bi[12];
    random_p_matrix(n, M);
    for (int i = 0; i < n; i++) {
      double d = pow(10.0, 6.0 * urand());
      for (int j = 0; j < n; j++) M[i + j * n] *= d, M[j + i * n] *= d;
      q[i] = 3.0 * d * urand();
    }
    memcpy(M0, M, sizeof(double) * (size_t)(n * n));
    int p1 = 0, p2 = 0;
    sc_solve_status s1 = sc_lemke_from(n, M, q, z, 0, lw, &p1, NULL, b);
    sc_solve_status s2 = sc_lemke_from_inplace(n, M, q, zi, 0, li, &p2, NULL, bi);
    ENSURE(s1 == SC_SOLVE_OK && s2 == s1 && p1 == p2);
    ENSURE(memcmp(z, zi, sizeof(double) * (size_t)n) == 0);
    ENSURE(memcmp(b, bi, (size_t)n) == 0);
    ENSURE(memcmp(M, M0, sizeof(double) * (size_t)(n * n)) == 0);
  }
  double M1[1] = {1.0}, q1[1] = {-1.0}, z1[1];
  ENSURE(sc_lemke(1, M1, q1, z1, 0, li, NULL) == SC_SOLVE_CAPACITY);
  sc_lemke_work_free(lw);
  sc_lemke_work_free(li);
}

/* A Lemke path cut one pivot before its end (pivot cap = its length - 1)
 * stops with z0 still basic; principal pivoting from that end point's basis
 * (its basic z plus the index that lacks both variables) must still return
 * the unique solution, where the cap alone would be SC_SOLVE_MAXIT. */
static void test_lemke_polish_cut_path(void) {
  sc_lemke_work* lw = sc_lemke_work_create(12);
  int cut = 0;
  for (int trial = 0; trial < 40; trial++) {
    int n = 3 + trial % 8;
    double M[144], q[12], z[12], zr[12];
    random_p_matrix(n, M);
    for (int i = 0; i < n; i++) q[i] = 3.0 * urand();
    int piv = 0, piv2 = 0;
    ENSURE(sc_lemke(n, M, q, z, 0, lw, &piv) == SC_SOLVE_OK);
    if (piv < 2) continue;
    ENSURE(lcp_enumerate(n, M, q, zr) == 1);
    ENSURE(sc_lemke(n, M, q, z, piv - 1, lw, &piv2) == SC_SOLVE_OK);
    ENSURE(piv2 >= piv); /* piv - 1 pivots and at least one factorization */
    for (int i = 0; i < n; i++) ENSURE_CLOSE(z[i], zr[i], 1e-9, 1e-11);
    cut++;
  }
  ENSURE(cut > 20);
  sc_lemke_work_free(lw);
}

/* Degenerate LCPs.  (a) Murty's matrix (1 on the diagonal, 2 below it, a
 * P-matrix) with q = -e: every ratio of the first pivot ties, and Lemke's
 * path has 2^n pivots (Murty 1978); check z against enumeration.  (b) q with zeros and a singular PSD M.  (c) Random integer
 * problems built from a solution with doubly-degenerate indices (z_i = w_i =
 * 0), M = B'B symmetric PSD and rank-deficient: Lemke must end in a
 * solution, and for symmetric PSD M the w of every solution is the same, so
 * w must equal the constructed w*. */
static void test_lemke_degenerate(void) {
  sc_lemke_work* lw = sc_lemke_work_create(12);
  for (int n = 2; n <= 8; n++) {
    double M[64], q[8], z[8], zr[8];
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) M[i + j * n] = i == j ? 1.0 : (i > j ? 2.0 : 0.0);
    for (int i = 0; i < n; i++) q[i] = -1.0;
    int piv = 0;
    ENSURE(sc_lemke(n, M, q, z, 1 << 12, lw, &piv) == SC_SOLVE_OK);
    ENSURE(piv == 1 << n);
    ENSURE(lcp_enumerate(n, M, q, zr) == 1);
    for (int i = 0; i < n; i++) ENSURE_NEAR(z[i], zr[i], 1e-12);
  }
  {
    /* fully degenerate q = -e with small integer M: on these two, breaking
     * ratio ties by the first row index makes Lemke revisit a basis (found
     * by a random search); the lexicographic rule must reach a solution,
     * checked against enumeration */
    double M4[16] = {0, 1, 2, -1, 1, 1, -1, 2, 1, -1, 2, -1, 1, -1, 0, 0};
    double q4[4] = {-1, -1, -1, -1}, z[6], zr[6];
    ENSURE(sc_lemke(4, M4, q4, z, 0, lw, NULL) == SC_SOLVE_OK);
    ENSURE(lcp_violation(4, M4, q4, z) <= 1e-14);
    ENSURE(lcp_enumerate(4, M4, q4, zr) >= 1);
    double M6[36] = {2, 1, 0, 2, 1, 1, 1,  1, 2, 2,  0, 2,  2, 2,  0, 1, 0, 1,
                     1, 1, -1, 0, -1, -1, -1, 2, 2, 0, 0, -1, -1, -1, 2, 1, 2, 0};
    double q6[6] = {0, -1, -1, 0, -1, -1};
    ENSURE(sc_lemke(6, M6, q6, z, 0, lw, NULL) == SC_SOLVE_OK);
    ENSURE(lcp_violation(6, M6, q6, z) <= 1e-14);
    ENSURE(lcp_enumerate(6, M6, q6, zr) >= 1);
  }
  {
    double M[9] = {1, 1, 0, 1, 1, 0, 0, 0, 0}, q[3] = {-1, 0, 0}, z[3];
    ENSURE(sc_lemke(3, M, q, z, 0, lw, NULL) == SC_SOLVE_OK);
    ENSURE(lcp_violation(3, M, q, z) <= 1e-14);
    ENSURE_NEAR(z[0] + z[1], 1.0, 1e-14);
  }
  int max_piv = 0;
  for (int trial = 0; trial < 200; trial++) {
    int n = 4 + trial % 9, r = 1 + irand(0, n - 1);
    double B[144], M[144], q[12], z[12], zs[12], ws[12], w[12];
    for (int i = 0; i < r * n; i++) B[i] = irand(-1, 1);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int k = 0; k < r; k++) s += B[k + i * r] * B[k + j * r];
        M[i + j * n] = s;
      }
    for (int i = 0; i < n; i++) {
      int kind = irand(0, 2);
      zs[i] = kind == 0 ? irand(1, 3) : 0.0;
      ws[i] = kind == 1 ? irand(1, 3) : 0.0;
    }
    for (int i = 0; i < n; i++) {
      q[i] = ws[i];
      for (int j = 0; j < n; j++) q[i] -= M[i + j * n] * zs[j];
    }
    int piv = 0;
    sc_solve_status st = sc_lemke(n, M, q, z, 0, lw, &piv);
    ENSURE(st == SC_SOLVE_OK);
    if (st != SC_SOLVE_OK) {
      printf("  degenerate trial %d: status %d after %d pivots\n", trial, (int)st, piv);
      continue;
    }
    ENSURE(lcp_violation(n, M, q, z) <= 1e-12);
    lcp_w(n, M, q, z, w);
    for (int i = 0; i < n; i++) ENSURE_NEAR(w[i], ws[i], 1e-10);
    if (piv > max_piv) max_piv = piv;
  }
  printf("  random degenerate: max pivots %d\n", max_piv);
  sc_lemke_work_free(lw);
}

/* Infeasible LCPs end on a ray: M = [[-1]], q = [-1] (w = -z - 1 < 0), and
 * the PSD M = [[1,-1],[-1,1]] with q = (-1,-1) (w1 + w2 = -2 < 0). */
static void test_lemke_ray_termination(void) {
  sc_lemke_work* lw = sc_lemke_work_create(2);
  double M1[1] = {-1}, q1[1] = {-1}, z[2];
  ENSURE(sc_lemke(1, M1, q1, z, 0, lw, NULL) == SC_SOLVE_RAY);
  double M2[4] = {1, -1, -1, 1}, q2[2] = {-1, -1};
  ENSURE(sc_lemke(2, M2, q2, z, 0, lw, NULL) == SC_SOLVE_RAY);
  /* a solvable sibling with the same M: q = (-1, 2) -> z1 = 1, w2 = 1 */
  double q3[2] = {-1, 2};
  ENSURE(sc_lemke(2, M2, q3, z, 0, lw, NULL) == SC_SOLVE_OK);
  ENSURE(lcp_violation(2, M2, q3, z) <= 1e-14);
  sc_lemke_work_free(lw);
}

/* Non-finite data and a pivot cap are reported, not hidden; a path cut by
 * the cap still gets principal pivoting from where it stopped. */
static void test_lemke_bad_input_and_cap(void) {
  sc_lemke_work* lw = sc_lemke_work_create(8);
  double M[4] = {2, 1, 1, 2}, q[2] = {-1, NAN}, z[8];
  ENSURE(sc_lemke(2, M, q, z, 0, lw, NULL) == SC_SOLVE_NAN);
  ENSURE(sc_lemke(9, M, q, z, 0, lw, NULL) == SC_SOLVE_CAPACITY);
  double Mm[64], qm[8];
  for (int j = 0; j < 8; j++)
    for (int i = 0; i < 8; i++) Mm[i + j * 8] = i == j ? 1.0 : (i > j ? 2.0 : 0.0);
  for (int i = 0; i < 8; i++) qm[i] = -1.0;
  int piv = 0;
  double zr[8];
  ENSURE(lcp_enumerate(8, Mm, qm, zr) == 1);
  /* 5 pivots of Murty's 256, then principal pivoting: a verified z, and
   * the count says what it took (5 pivots and 1..36 factorizations) */
  ENSURE(sc_lemke(8, Mm, qm, z, 5, lw, &piv) == SC_SOLVE_OK);
  ENSURE(piv > 5 && piv <= 5 + 36);
  for (int i = 0; i < 8; i++) ENSURE_NEAR(z[i], zr[i], 1e-12);
  printf("  cap: Murty n = 8 cut at 5 pivots, solved after %d factorizations\n", piv - 5);
  /* a cap that stops an infeasible LCP's path before its ray: MAXIT */
  double Mi[4] = {1, -1, -1, 1}, qi[2] = {-1, -1};
  ENSURE(sc_lemke(2, Mi, qi, z, 1, lw, &piv) == SC_SOLVE_MAXIT);
  /* the default cap 20 n + 100 = 260 is above Murty's 2^8 = 256 */
  ENSURE(sc_lemke(8, Mm, qm, z, 0, lw, &piv) == SC_SOLVE_OK);
  ENSURE(piv == 256);
  sc_lemke_work_free(lw);
}

/* ---- robustness: scaling, a captured ill-conditioned LCP, cancel, size ---- */

/* Symmetric diagonal scaling: with D = diag(d_i) > 0, M' = D M D and
 * q' = D q have the solutions z' = D^-1 z (w' = D w), so the scaled and the
 * unscaled problem must give the same z up to the scaling.  M = B B^T + I
 * + skew (positive definite: a unique solution), d_i spread over 1e-4..1e4. */
static void test_lemke_scaling_invariance(void) {
  sc_lemke_work* lw = sc_lemke_work_create(12);
  double worst = 0.0;
  for (int trial = 0; trial < 100; trial++) {
    int n = 3 + trial % 10;
    double B[144], M[144], Ms[144], q[12], qs[12], z[12], zs[12], d[12];
    for (int i = 0; i < n * n; i++) B[i] = urand();
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = i == j ? 1.0 : 0.0;
        for (int k = 0; k < n; k++) s += B[i + k * n] * B[j + k * n];
        M[i + j * n] = s + (i < j ? 0.5 : i > j ? -0.5 : 0.0) * urand();
      }
    for (int i = 0; i < n; i++) {
      q[i] = urand();
      d[i] = pow(10.0, 4.0 * urand());
    }
    q[trial % n] = -1.0;
    for (int i = 0; i < n; i++) {
      qs[i] = d[i] * q[i];
      for (int j = 0; j < n; j++) Ms[i + j * n] = d[i] * M[i + j * n] * d[j];
    }
    sc_solve_status a = sc_lemke(n, M, q, z, 0, lw, NULL);
    sc_solve_status b = sc_lemke(n, Ms, qs, zs, 0, lw, NULL);
    ENSURE(a == SC_SOLVE_OK);
    ENSURE(b == SC_SOLVE_OK);
    double zmax = 0.0;
    for (int i = 0; i < n; i++) zmax = fmax(zmax, fabs(z[i]));
    for (int i = 0; i < n; i++) {
      double e = fabs(d[i] * zs[i] - z[i]) / fmax(zmax, 1e-300);
      worst = fmax(worst, e);
      ENSURE(e <= 1e-8);
    }
  }
  printf("  scaling invariance: worst relative difference %.3g\n", worst);
  sc_lemke_work_free(lw);
}

/* The contact LCP of the 20 deg incline cube at t = 0.2 s, captured from a
 * run (test/lcp_incline20.txt): 4 coplanar corners make M rank-deficient
 * (singular values down to 1e-16), and Lemke with pivot tolerances of
 * 1e-11..1e-7 ended at a point violating the LCP by 4e-3.  It must now
 * return a z that verifies: w = Mz + q >= -tol, z >= 0, |w_i z_i| <= tol,
 * tol = 1e-9 relative to max(||q||, ||z||) (lcp_violation). */
static void test_lemke_incline_capture(void) {
  FILE* f = fopen("test/lcp_incline20.txt", "r");
  ENSURE(f != NULL);
  if (!f) return;
  char line[256];
  int n = 0, st0 = 0;
  while (fgets(line, sizeof line, f))
    if (line[0] != '#' && sscanf(line, "%d %d", &n, &st0) == 2) break;
  ENSURE(n == 24 && st0 == SC_SOLVE_INACCURATE);
  double M[576], q[24], z[24];
  int ok = n == 24;
  for (int i = 0; ok && i < n * n; i++) ok = fscanf(f, "%lf", &M[i]) == 1;
  for (int i = 0; ok && i < n; i++) ok = fscanf(f, "%lf", &q[i]) == 1;
  fclose(f);
  ENSURE(ok);
  if (!ok) return;
  sc_lemke_work* lw = sc_lemke_work_create(24);
  int piv = 0;
  ENSURE(sc_lemke(n, M, q, z, 0, lw, &piv) == SC_SOLVE_OK);
  double wv[24], sq = 0.0, sz = 0.0;
  lcp_w(n, M, q, z, wv);
  for (int i = 0; i < n; i++) {
    sq = fmax(sq, fabs(q[i]));
    sz = fmax(sz, fabs(z[i]));
  }
  double s = fmax(sq, sz), tol = 1e-9;
  for (int i = 0; i < n; i++) {
    ENSURE(z[i] >= -tol * s);
    ENSURE(wv[i] >= -tol * s);
    ENSURE(fabs(wv[i] * z[i]) <= tol * s * s);
  }
  printf("  incline capture: %d pivots, violation %.3g\n", piv, lcp_violation(n, M, q, z));
  sc_lemke_work_free(lw);
}

static volatile sig_atomic_t cancel_flag;
static void on_sigint(int sig) { cancel_flag = sig; }
static void on_alarm(int sig) {
  (void)sig;
  raise(SIGINT);
}

static double mono_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Murty's LCP of size 24 takes 2^24 pivots (minutes).  A timer raises
 * SIGINT after 0.2 s, whose handler sets the flag Lemke polls: the solve
 * must return SC_SOLVE_CANCELLED well before 2 s (a hang guard, not a
 * timing target) and before the pivot count it would need. */
static void test_lemke_cancel(void) {
  enum { N = 24 };
  static double M[N * N];
  double q[N], z[N];
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) M[i + j * N] = i == j ? 1.0 : (i > j ? 2.0 : 0.0);
  for (int i = 0; i < N; i++) q[i] = -1.0;
  sc_lemke_work* lw = sc_lemke_work_create(N);
  struct sigaction sa, old_int, old_alrm;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigaction(SIGINT, &sa, &old_int);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, &old_alrm);
  cancel_flag = 0;
  sc_lemke_set_cancel(lw, &cancel_flag);
  struct itimerval it;
  memset(&it, 0, sizeof it);
  it.it_value.tv_usec = 200000;
  double t0 = mono_now();
  setitimer(ITIMER_REAL, &it, NULL);
  int piv = 0;
  sc_solve_status st = sc_lemke(N, M, q, z, 1 << 30, lw, &piv);
  double el = mono_now() - t0;
  memset(&it, 0, sizeof it);
  setitimer(ITIMER_REAL, &it, NULL);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGALRM, &old_alrm, NULL);
  ENSURE(st == SC_SOLVE_CANCELLED);
  ENSURE(cancel_flag == SIGINT);
  ENSURE(el < 2.0);
  ENSURE(piv > 0 && piv < 1 << N);
  printf("  cancel: status %d after %.3f s, %d pivots\n", (int)st, el, piv);
  /* without the flag set the same workspace solves a small LCP as usual */
  cancel_flag = 0;
  double M2[4] = {2, 1, 1, 2}, q2[2] = {-5, -6};
  ENSURE(sc_lemke(2, M2, q2, z, 0, lw, NULL) == SC_SOLVE_OK);
  ENSURE_NEAR(z[0], 4.0 / 3.0, 1e-14);
  sc_lemke_work_free(lw);
}

/* The workspace limit: sc_lcp_capacity is the largest contact count whose
 * sc_lcp_work_bytes fits in SC_LCP_MAX_BYTES; the byte count grows like
 * 8 (4 n^2 + 9 nc^2) for n = nc (d + 2) unknowns. */
static void test_lcp_capacity(void) {
  int nv = 6 * 50, d = 8;
  int cap = sc_lcp_capacity(nv, 100000, d);
  ENSURE(cap > 0 && cap < 100000);
  ENSURE(sc_lcp_work_bytes(nv, cap, d) <= SC_LCP_MAX_BYTES);
  ENSURE(sc_lcp_work_bytes(nv, cap + 1, d) > SC_LCP_MAX_BYTES);
  double n = (double)cap * (d + 2), lead = 8.0 * (3.0 * n * n + 9.0 * cap * (double)cap);
  ENSURE(lead <= (double)sc_lcp_work_bytes(nv, cap, d));
  ENSURE(lead >= 0.9 * (double)sc_lcp_work_bytes(nv, cap, d));
  ENSURE(sc_lcp_capacity(nv, 10, d) == 10); /* small enough: unchanged */
  /* contact.lcp.max_memory: four times the bytes, about twice the contacts
   * (the n^2 terms lead) */
  int cap4 = sc_lcp_capacity_within(nv, 100000, d, 4 * SC_LCP_MAX_BYTES);
  ENSURE(sc_lcp_work_bytes(nv, cap4, d) <= 4 * SC_LCP_MAX_BYTES);
  ENSURE(sc_lcp_work_bytes(nv, cap4 + 1, d) > 4 * SC_LCP_MAX_BYTES);
  printf("  capacity within 4x the bytes: %d contacts\n", cap4);
  ENSURE(cap4 > 19 * cap / 10 && cap4 < 21 * cap / 10);
  ENSURE(sc_lcp_capacity(200000, 10, d) == 0); /* nv^2 alone is over the limit */
  printf("  capacity at nv = %d, %d edges: %d contacts (%.0f MiB)\n", nv, d, cap,
         (double)sc_lcp_work_bytes(nv, cap, d) / 1048576.0);
  /* the settled clutter-125 pile (nv = 750, up to 418 contacts in one
   * island, results/lcp.md) fits the default bound with 8 edges; with 16
   * it needs the larger contact.lcp.max_memory given there */
  int c8 = sc_lcp_capacity(750, 100000, 8), c16 = sc_lcp_capacity(750, 100000, 16);
  double mib16 = (double)sc_lcp_work_bytes(750, 418, 16) / 1048576.0;
  printf("  capacity at nv = 750: %d contacts with 8 edges, %d with 16; 418 contacts with 16 "
         "edges need %.0f MiB\n", c8, c16, mib16);
  ENSURE(c8 >= 418 && c16 < 418 && mib16 > 512.0 && mib16 < 1400.0);
}

/* ---- Underactuated Robotics notes: cart against a wall, brick with friction ---- */

/* The notes' LCP  q1 = (q + h v) + (h^2/m) f >= 0 _|_ f >= 0  (m = 1,
 * h = 0.1, u = 0) against f = max(0, -m (q + h v)/h^2), q1 = max(0, q + h v),
 * both with sc_lemke on the 1x1 LCP and with sc_lcp_solve on the equivalent
 * sc_problem (nv = 1, contact normal +x, vhat_n = -q/h, R_n = 1e-12). */
static void test_seed_cart_wall(void) {
  const double m = 1.0, h = 0.1;
  sc_lemke_work* lw = sc_lemke_work_create(1);
  sc_lcp_work* cw = sc_lcp_work_create(1, 1, 4);
  for (int a = 0; a <= 10; a++)
    for (int b = 0; b <= 10; b++) {
      double qn = 0.1 * a, vn = -2.0 + 0.4 * b;
      double f_ref = fmax(0.0, -m * (qn + h * vn) / (h * h));
      double q1_ref = fmax(0.0, qn + h * vn);
      double M[1] = {h * h / m}, q[1] = {qn + h * vn}, f[1];
      ENSURE(sc_lemke(1, M, q, f, 0, lw, NULL) == SC_SOLVE_OK);
      ENSURE_NEAR(f[0], f_ref, 1e-12);
      ENSURE_NEAR(q[0] + M[0] * f[0], q1_ref, 1e-12);

      double A[1] = {m}, vstar[1] = {vn}, J[3] = {0, 0, 1}, R[3] = {1, 1, 1e-12};
      double vhat[3] = {0, 0, -qn / h}, mu[1] = {0}, phi0[1] = {qn};
      static sc_problem_storage pst;
      sc_problem p = dense_problem(&pst, 1, 1, A, vstar, J, R, vhat, mu, phi0, h);
      double v[1], g[3];
      sc_solver_stats st;
      ENSURE(sc_lcp_solve(&p, 4, 0, cw, v, g, &st) == SC_SOLVE_OK);
      ENSURE_NEAR(g[2] / h, f_ref, 1e-9 * (1.0 + f_ref));
      ENSURE_NEAR(qn + h * v[0], q1_ref, 1e-9);
      ENSURE(g[0] == 0.0 && g[1] == 0.0);
      ENSURE(st.residual <= 1e-12);
    }
  sc_lemke_work_free(lw);
  sc_lcp_work_free(cw);
}

/* The notes' brick LCP, z = (f+, f-, v_abs):
 *   0 <= v_abs + v1 _|_ f+,  0 <= v_abs - v1 _|_ f-,  0 <= mu m g - f+ - f- _|_ v_abs,
 *   v1 = v + h/m (u + f+ - f-).
 * Closed form: with vf = v + h u/m, stuck (v1 = 0) when |vf| <= h mu g, else
 * v1 = vf - h mu g sign(vf).  Checked with sc_lemke on those matrices and
 * with sc_lcp_solve on a 2-dof point mass (x, z) resting on the ground. */
static void test_seed_brick_friction(void) {
  const double m = 2.0, h = 0.01, g = 9.81, mu = 0.4;
  sc_lemke_work* lw = sc_lemke_work_create(3);
  sc_lcp_work* cw = sc_lcp_work_create(2, 1, 8);
  for (int a = 0; a < 21; a++)
    for (int b = 0; b < 3; b++) {
      double u = (a - 10) * 0.2 * mu * m * g; /* |u| from 0 to 2 mu m g */
      double v = b == 0 ? 0.0 : (b == 1 ? 0.02 : -0.05);
      double vf = v + h * u / m;
      double v1_ref = fabs(vf) <= h * mu * g ? 0.0 : vf - h * mu * g * (vf > 0 ? 1.0 : -1.0);
      double c = h / m;
      double M[9] = {c, -c, -1, -c, c, -1, 1, 1, 0};
      double q[3] = {vf, -vf, mu * m * g}, z[3];
      ENSURE(sc_lemke(3, M, q, z, 0, lw, NULL) == SC_SOLVE_OK);
      ENSURE(lcp_violation(3, M, q, z) <= 1e-12);
      double v1 = vf + c * (z[0] - z[1]);
      ENSURE_NEAR(v1, v1_ref, 1e-12);
      if (fabs(vf) < 0.999 * h * mu * g) ENSURE(z[2] == 0.0 || fabs(z[2]) < 1e-14);
      if (fabs(vf) > 1.001 * h * mu * g) ENSURE_NEAR(z[0] + z[1], mu * m * g, 1e-10);

      /* the same brick as a contact problem; with 2 or 8 directions the
       * x axis is a cone edge, so the polyhedral law is exact */
      for (int d = 2; d <= 8; d += 6) {
        double A[4] = {m, 0, 0, m}, vstar[2] = {vf, -g * h};
        double J[6] = {1, 0, 0, 0, 0, 1}; /* rows t1 = x, t2 = 0, n = z */
        double R[3] = {1, 1, 1e-12}, vhat[3] = {0, 0, 0}, muv[1] = {mu}, phi0[1] = {0};
        static sc_problem_storage pst;
        sc_problem p = dense_problem(&pst, 2, 1, A, vstar, J, R, vhat, muv, phi0, h);
        double vv[2], gg[3];
        sc_solver_stats st;
        ENSURE(sc_lcp_solve(&p, d, 0, cw, vv, gg, &st) == SC_SOLVE_OK);
        ENSURE_NEAR(vv[0], v1_ref, 1e-9);
        ENSURE_NEAR(vv[1], 0.0, 1e-9);
        ENSURE_NEAR(gg[2], m * g * h, 1e-9);
        ENSURE(fabs(gg[0]) <= mu * gg[2] * (1 + 1e-9));
        ENSURE(st.residual <= 1e-10);
      }
    }
  sc_lemke_work_free(lw);
  sc_lcp_work_free(cw);
}

/* ---- contact LCP ---- */

/* A box (mass m, inertia diag I) resting on z = 0 on its 4 bottom corners
 * (+-a, +-b, -c) from the centre of mass; v = (linear, angular) at the
 * centre, world axes; contact frames t1 = x, t2 = y, n = z. */
typedef struct box_problem {
  double A[36], vstar[6], J[72], R[12], vhat[12], mu[4], phi0[4];
  sc_problem p;
} box_problem;

/* one box problem at a time: the storage of its block form */
static sc_problem_storage box_st;

static void box_setup(box_problem* b, double m, double mu, double h, double g, double vx,
                      double vy, double Rn) {
  const double a = 0.5, bb = 0.3, c = 0.1, I[3] = {0.2, 0.3, 0.4};
  for (int i = 0; i < 36; i++) b->A[i] = 0.0;
  for (int i = 0; i < 3; i++) {
    b->A[i + 6 * i] = m;
    b->A[(3 + i) + 6 * (3 + i)] = I[i];
  }
  double vs[6] = {vx, vy, -g * h, 0, 0, 0};
  for (int i = 0; i < 6; i++) b->vstar[i] = vs[i];
  for (int k = 0; k < 4; k++) {
    double r[3] = {(k & 1) ? a : -a, (k & 2) ? bb : -bb, -c};
    for (int row = 0; row < 3; row++) {
      double e[3] = {row == 0, row == 1, row == 2};
      double rxe[3] = {r[1] * e[2] - r[2] * e[1], r[2] * e[0] - r[0] * e[2],
                       r[0] * e[1] - r[1] * e[0]};
      for (int j = 0; j < 3; j++) {
        b->J[(3 * k + row) + 12 * j] = e[j];
        b->J[(3 * k + row) + 12 * (3 + j)] = rxe[j];
      }
    }
    b->R[3 * k] = b->R[3 * k + 1] = 1.0; /* unused by the LCP */
    b->R[3 * k + 2] = Rn;
    b->vhat[3 * k] = b->vhat[3 * k + 1] = b->vhat[3 * k + 2] = 0.0;
    b->mu[k] = mu;
    b->phi0[k] = 0.0;
  }
  b->p = dense_problem(&box_st, 6, 4, b->A, b->vstar, b->J, b->R, b->vhat, b->mu, b->phi0, h);
}

/* the block form again after b->A or b->J changed (keeps p's nc) */
static void box_refresh(box_problem* b) {
  const int nc = b->p.nc;
  b->p = dense_problem(&box_st, 6, 4, b->A, b->vstar, b->J, b->R, b->vhat, b->mu, b->phi0,
                       b->p.dt);
  b->p.nc = nc;
}

/* contact velocity vc = J v for contact k */
static void box_vc(const box_problem* b, const double* v, int k, double vc[3]) {
  for (int r = 0; r < 3; r++) {
    vc[r] = 0.0;
    for (int j = 0; j < 6; j++) vc[r] += b->J[(3 * k + r) + 12 * j] * v[j];
  }
}

/* Sticking: a push m |vt*| below the friction capacity mu m g h stops the
 * box: every tangential contact velocity and the whole velocity are zero,
 * the impulses sum to (-m vt*, m g h), each inside its cone. */
static void test_contact_box_sticking(void) {
  const double m = 3.0, mu = 0.5, h = 0.01, g = 9.81;
  sc_lcp_work* cw = sc_lcp_work_create(6, 4, 8);
  for (int d = 4; d <= 8; d += 4)
    for (int t = 0; t < 8; t++) {
      double th = 0.7 * t, vt = 0.9 * mu * g * h * (0.1 + 0.1 * t);
      box_problem b;
      box_setup(&b, m, mu, h, g, vt * cos(th), vt * sin(th), 1e-10);
      double v[6], gam[12];
      sc_solver_stats st;
      sc_solve_status ss = sc_lcp_solve(&b.p, d, 0, cw, v, gam, &st);
      ENSURE(ss == SC_SOLVE_OK);
      if (ss != SC_SOLVE_OK) printf("  d=%d t=%d status %d pivots %d\n", d, t, (int)ss, st.iterations);
      for (int j = 0; j < 6; j++) ENSURE_NEAR(v[j], 0.0, 1e-8);
      double sx = 0, sy = 0, sn = 0;
      for (int k = 0; k < 4; k++) {
        double vc[3];
        box_vc(&b, v, k, vc);
        ENSURE_NEAR(vc[0], 0.0, 1e-8);
        ENSURE_NEAR(vc[1], 0.0, 1e-8);
        ENSURE(gam[3 * k + 2] >= 0.0);
        ENSURE(hypot(gam[3 * k], gam[3 * k + 1]) <= mu * gam[3 * k + 2] * (1 + 1e-9) + 1e-12);
        sx += gam[3 * k];
        sy += gam[3 * k + 1];
        sn += gam[3 * k + 2];
      }
      ENSURE_NEAR(sx, -m * vt * cos(th), 1e-9);
      ENSURE_NEAR(sy, -m * vt * sin(th), 1e-9);
      ENSURE_NEAR(sn, m * g * h, 1e-9);
      ENSURE(st.residual <= 1e-9);
    }
  sc_lcp_work_free(cw);
}

/* Sliding along a cone edge (push along x; x is an edge for d = 4, 8): each
 * contact's tangential impulse is exactly (-mu gamma_n, 0), the box loses
 * mu g h of speed and gains no y velocity. */
static void test_contact_box_sliding_on_edge(void) {
  const double m = 3.0, mu = 0.5, h = 0.01, g = 9.81, V = 1.0;
  sc_lcp_work* cw = sc_lcp_work_create(6, 4, 8);
  for (int d = 4; d <= 8; d += 4) {
    box_problem b;
    box_setup(&b, m, mu, h, g, V, 0.0, 1e-10);
    double v[6], gam[12];
    sc_solver_stats st;
    ENSURE(sc_lcp_solve(&b.p, d, 0, cw, v, gam, &st) == SC_SOLVE_OK);
    double sn = 0.0;
    for (int k = 0; k < 4; k++) {
      ENSURE(gam[3 * k + 2] >= 0.0);
      ENSURE_NEAR(gam[3 * k], -mu * gam[3 * k + 2], 1e-10);
      ENSURE_NEAR(gam[3 * k + 1], 0.0, 1e-10);
      sn += gam[3 * k + 2];
    }
    ENSURE_NEAR(sn, m * g * h, 1e-9);
    ENSURE_NEAR(v[0], V - mu * g * h, 1e-9);
    ENSURE_NEAR(v[1], 0.0, 1e-9);
    ENSURE_NEAR(v[2], 0.0, 1e-9);
    ENSURE(st.residual <= 1e-9);
  }
  sc_lcp_work_free(cw);
}

/* Sliding in any direction: the friction impulse of every sliding contact
 * lies on the polygon boundary, mu gamma_n cos(pi/d) <= |gamma_t| <= mu
 * gamma_n, within pi/d of the direction opposite to its slip; exactly on
 * the edge nearest to -slip when the slip is strictly closer to one edge. */
static void test_contact_box_sliding_between_edges(void) {
  const double m = 3.0, mu = 0.5, h = 0.01, g = 9.81, V = 1.0;
  sc_lcp_work* cw = sc_lcp_work_create(6, 4, 8);
  int exact_checked = 0;
  for (int d = 4; d <= 8; d += 4)
    for (int t = 0; t < 24; t++) {
      double th = 2.0 * 3.14159265358979323846 * t / 24 + 0.01;
      box_problem b;
      box_setup(&b, m, mu, h, g, V * cos(th), V * sin(th), 1e-10);
      double v[6], gam[12];
      sc_solver_stats st;
      ENSURE(sc_lcp_solve(&b.p, d, 0, cw, v, gam, &st) == SC_SOLVE_OK);
      double sn = 0.0, cd = cos(3.14159265358979323846 / d);
      for (int k = 0; k < 4; k++) {
        double vc[3], gn = gam[3 * k + 2], gt = hypot(gam[3 * k], gam[3 * k + 1]);
        box_vc(&b, v, k, vc);
        double slip = hypot(vc[0], vc[1]);
        sn += gn;
        ENSURE(slip > 0.5 * V);
        /* rigid-like contacts are statically indeterminate: a contact the
         * solution leaves unloaded carries no friction either */
        if (gn <= 1e-12) {
          ENSURE(gt <= mu * gn * (1 + 1e-9) + 1e-14);
          continue;
        }
        ENSURE(gt <= mu * gn * (1 + 1e-9) + 1e-14);
        ENSURE(gt >= mu * gn * cd * (1 - 1e-9) - 1e-14);
        /* cos of the angle between gamma_t and -slip */
        double c = -(gam[3 * k] * vc[0] + gam[3 * k + 1] * vc[1]) / (gt * slip);
        ENSURE(c >= cd - 1e-9);
        /* the edge most opposed to the slip, and the runner-up */
        double best = -2, second = -2;
        int kb = 0;
        for (int e = 0; e < d; e++) {
          double ang = 2.0 * 3.14159265358979323846 * e / d;
          double s = -(cos(ang) * vc[0] + sin(ang) * vc[1]) / slip;
          if (s > best) {
            second = best;
            best = s;
            kb = e;
          } else if (s > second) {
            second = s;
          }
        }
        if (best - second > 1e-6) {
          double ang = 2.0 * 3.14159265358979323846 * kb / d;
          ENSURE_NEAR(gam[3 * k], mu * gn * cos(ang), 1e-10);
          ENSURE_NEAR(gam[3 * k + 1], mu * gn * sin(ang), 1e-10);
          exact_checked++;
        }
      }
      ENSURE_NEAR(sn, m * g * h, 1e-9);
      ENSURE(st.residual <= 1e-9);
    }
  ENSURE(exact_checked > 100);
  sc_lcp_work_free(cw);
}

/* Frictionless cross-check.  With mu = 0 the LCP is the KKT system of
 *   min 1/2 |v - v*|_A^2  s.t.  vn_i - vhat_i + Rn_i gamma_i >= 0,
 * solved independently by enumerating the active set S and solving the
 * saddle-point system [A -J_S^T; J_S R_S] (v, gamma_S) = (A v*, vhat_S),
 * accepting the S with gamma_S >= 0 and J_i v - vhat_i >= 0 off S. */
static void test_contact_frictionless_vs_active_set(void) {
  sc_lcp_work* cw = sc_lcp_work_create(6, 5, 4);
  double worst = 0.0;
  for (int trial = 0; trial < 100; trial++) {
    int nv = 3 + trial % 4, nc = 1 + trial % 5;
    double B[36], A[36], vstar[6], J[90], R[15], vhat[15], mu[5], phi0[5];
    for (int i = 0; i < nv * nv; i++) B[i] = urand();
    /* odd trials: masses spread over 4 decades (D A D with D = 10^[-1,1]) */
    double D[6];
    for (int i = 0; i < nv; i++) D[i] = (trial & 1) ? pow(10.0, urand()) : 1.0;
    for (int i = 0; i < nv; i++)
      for (int j = 0; j < nv; j++) {
        double s = (i == j) ? 0.5 : 0.0;
        for (int k = 0; k < nv; k++) s += B[k + i * nv] * B[k + j * nv];
        A[i + j * nv] = D[i] * s * D[j];
      }
    for (int i = 0; i < nv; i++) vstar[i] = urand();
    for (int i = 0; i < 3 * nc * nv; i++) J[i] = urand();
    for (int i = 0; i < nc; i++) {
      R[3 * i] = R[3 * i + 1] = 1e-3;
      R[3 * i + 2] = pow(10.0, -4.0 + 3.0 * (0.5 * urand() + 0.5));
      vhat[3 * i] = vhat[3 * i + 1] = 0.0;
      vhat[3 * i + 2] = 0.5 * urand();
      mu[i] = 0.0;
      phi0[i] = 0.0;
    }
    static sc_problem_storage pst;
    sc_problem p = dense_problem(&pst, nv, nc, A, vstar, J, R, vhat, mu, phi0, 0.01);
    double v[6], gam[15];
    sc_solver_stats st;
    ENSURE(sc_lcp_solve(&p, 4, 0, cw, v, gam, &st) == SC_SOLVE_OK);

    int found = 0;
    double vref[6], gref[5];
    for (unsigned S = 0; S < (1u << nc); S++) {
      int idx[5], k = 0, n = nv;
      for (int i = 0; i < nc; i++)
        if (S & (1u << i)) idx[k++] = i;
      n = nv + k;
      double K[121], rhs[11], x[11];
      for (int i = 0; i < n * n; i++) K[i] = 0.0;
      for (int i = 0; i < nv; i++) {
        rhs[i] = 0.0;
        for (int j = 0; j < nv; j++) {
          K[i + j * n] = A[i + j * nv];
          rhs[i] += A[i + j * nv] * vstar[j];
        }
      }
      for (int a = 0; a < k; a++) {
        int row = 3 * idx[a] + 2;
        for (int j = 0; j < nv; j++) {
          K[(nv + a) + j * n] = J[row + j * 3 * nc];
          K[j + (nv + a) * n] = -J[row + j * 3 * nc];
        }
        K[(nv + a) + (nv + a) * n] = R[row];
        rhs[nv + a] = vhat[row];
      }
      if (!dense_solve(n, K, n, rhs, x)) continue;
      int ok = 1;
      for (int a = 0; a < k; a++)
        if (x[nv + a] < -1e-13) ok = 0;
      for (int i = 0; i < nc && ok; i++) {
        if (S & (1u << i)) continue;
        double vn = 0.0;
        for (int j = 0; j < nv; j++) vn += J[(3 * i + 2) + j * 3 * nc] * x[j];
        if (vn - vhat[3 * i + 2] < -1e-13) ok = 0;
      }
      if (!ok) continue;
      found++;
      for (int j = 0; j < nv; j++) vref[j] = x[j];
      for (int i = 0; i < nc; i++) gref[i] = 0.0;
      for (int a = 0; a < k; a++) gref[idx[a]] = x[nv + a];
    }
    ENSURE(found == 1);
    for (int j = 0; j < nv; j++) {
      ENSURE_NEAR(v[j], vref[j], 1e-9 * (1.0 + fabs(vref[j])));
      worst = fmax(worst, fabs(v[j] - vref[j]) / (1.0 + fabs(vref[j])));
    }
    for (int i = 0; i < nc; i++) {
      ENSURE_NEAR(gam[3 * i + 2], gref[i], 1e-9 * (1.0 + fabs(gref[i])));
      ENSURE(gam[3 * i] == 0.0 && gam[3 * i + 1] == 0.0);
    }
    ENSURE(st.residual <= 1e-12);
  }
  printf("  frictionless: max |v - v_ref|/(1 + |v_ref|) = %.2e\n", worst);
  sc_lcp_work_free(cw);
}

/* Robustness sweep: the box in random states (resting, sliding, pushed
 * into or away from the ground, spinning) with normal compliance from
 * rigid-like (R_n = 1e-12) to soft and cone sizes 3..16.  Every solve must
 * end in a solution: status OK, scaled residual <= 1e-6, impulses inside
 * the polyhedral cone, and A (v - v*) = J^T gamma. */
static void test_contact_random_states_sweep(void) {
  const int dl[5] = {3, 4, 5, 8, 16};
  sc_lcp_work* cw = sc_lcp_work_create(6, 4, 16);
  int nfail = 0, maxpiv = 0;
  double maxres = 0.0;
  for (int e = 0; e <= 10; e += 2)
    for (int di = 0; di < 5; di++)
      for (int t = 0; t < 40; t++) {
        double Rn = pow(10.0, -12.0 + e), V = 2.0 * fabs(urand()) * (t % 3 == 0 ? 0.02 : 1.0);
        double th = 7.0 * urand(), mu = fabs(urand());
        box_problem b;
        box_setup(&b, 1.0 + fabs(urand()), mu, 0.01, 9.81, V * cos(th), V * sin(th), Rn);
        if (t % 2) {
          b.vstar[2] += 0.1 * urand();
          for (int k = 0; k < 3; k++) b.vstar[3 + k] = 0.3 * urand();
          for (int k = 0; k < 4; k++) {
            b.vhat[3 * k + 2] = 0.05 * urand();
            b.R[3 * k + 2] = Rn * (1.0 + fabs(urand()));
          }
        }
        double v[6], gam[12];
        sc_solver_stats st;
        sc_solve_status ss = sc_lcp_solve(&b.p, dl[di], 0, cw, v, gam, &st);
        if (ss != SC_SOLVE_OK || !(st.residual <= 1e-6)) {
          nfail++;
          continue;
        }
        maxres = fmax(maxres, st.residual);
        if (st.iterations > maxpiv) maxpiv = st.iterations;
        for (int k = 0; k < 4; k++) {
          double gn = gam[3 * k + 2];
          ENSURE(gn >= 0.0);
          ENSURE(hypot(gam[3 * k], gam[3 * k + 1]) <= mu * gn * (1 + 1e-9) + 1e-12);
        }
        for (int i = 0; i < 6; i++) {
          double lhs = 0.0, rhs = 0.0;
          for (int j = 0; j < 6; j++) lhs += b.A[i + 6 * j] * (v[j] - b.vstar[j]);
          for (int r = 0; r < 12; r++) rhs += b.J[r + 12 * i] * gam[r];
          ENSURE_NEAR(lhs, rhs, 1e-12);
        }
      }
  ENSURE(nfail == 0);
  printf("  sweep: %d failures in 1200, max residual %.2e, max pivots %d\n", nfail, maxres,
         maxpiv);
  sc_lcp_work_free(cw);
}

/* No allocation inside sc_lcp_solve / sc_lemke once the workspace exists. */
static void test_contact_no_allocation(void) {
  sc_lcp_work* cw = sc_lcp_work_create(6, 4, 8);
  box_problem b;
  double v[6], gam[12];
  sc_solver_stats st;
  box_setup(&b, 2.0, 0.6, 0.01, 9.81, 0.0, 0.0, 1e-8); /* sizes the problem's storage */
  long before = sc_alloc_count();
  for (int t = 0; t < 20; t++) {
    box_setup(&b, 2.0, 0.6, 0.01, 9.81, 0.1 * t, -0.05 * t, 1e-8);
    ENSURE(sc_lcp_solve(&b.p, 4 + 4 * (t & 1), 0, cw, v, gam, &st) == SC_SOLVE_OK);
  }
  ENSURE(sc_alloc_count() == before);
  sc_lcp_work_free(cw);
}

/* Input errors: too many contacts for the workspace, directions beyond it,
 * a non-SPD A; v = v* and gamma = 0 on failure; nc = 0 gives v = v*. */
static void test_contact_bad_input(void) {
  sc_lcp_work* cw = sc_lcp_work_create(6, 2, 4);
  box_problem b;
  box_setup(&b, 2.0, 0.6, 0.01, 9.81, 0.3, 0.0, 1e-8);
  double v[6], gam[12];
  sc_solver_stats st;
  ENSURE(sc_lcp_solve(&b.p, 4, 0, cw, v, gam, &st) == SC_SOLVE_CAPACITY); /* nc = 4 > 2 */
  b.p.nc = 2;
  ENSURE(sc_lcp_solve(&b.p, 8, 0, cw, v, gam, &st) == SC_SOLVE_CAPACITY); /* d = 8 > 4 */
  b.A[0] = -1.0;
  box_refresh(&b);
  ENSURE(sc_lcp_solve(&b.p, 4, 0, cw, v, gam, &st) == SC_SOLVE_FACTOR);
  ENSURE(st.status == SC_SOLVE_FACTOR);
  for (int j = 0; j < 6; j++) ENSURE(v[j] == b.vstar[j]);
  for (int i = 0; i < 6; i++) ENSURE(gam[i] == 0.0);
  b.A[0] = 2.0;
  box_refresh(&b);
  b.p.nc = 0;
  ENSURE(sc_lcp_solve(&b.p, 4, 0, cw, v, gam, &st) == SC_SOLVE_OK);
  ENSURE(st.iterations == 0);
  for (int j = 0; j < 6; j++) ENSURE(v[j] == b.vstar[j]);
  sc_lcp_work_free(cw);
}

/* ---- box rows (sc_problem.kind = SC_ROW_BOX: limits, joint friction, servos) ---- */

/* One box row on a one-dof mass: A = [m], J = [0; 0; 1], so vc_n = v and
 * v = v* + gamma/m.  The law gamma = clamp((vhat - vc)/R, lo, hi) with
 * vc = v* + gamma/m has the fixed point
 *     gamma = clamp((vhat - v*) / (1/m + R), lo, hi)
 * (the map gamma -> (vhat - v* - gamma/m)/R is decreasing, so clamping its
 * fixed point gu clamps the answer: at gamma = hi <= gu, w = (1/m + R)(hi -
 * gu) <= 0, and alike at lo).  Cases, per (m, R, v*, vhat): lo finite/hi
 * inf with gu inside and below lo, lo inf/hi finite with gu inside and above
 * hi, both finite with gu below, above and inside, lo = hi, both infinite,
 * and the limit [0, inf).  The box's mu, R_t and vhat_t are NaN or
 * nonzero: not used. */
enum { BOX1_CASES = 11 };

static void box1_bounds(int c, double gu, double* lo, double* hi) {
  const double sp = 0.3 * fabs(gu) + 0.1;
  switch (c) {
    case 0: *lo = gu - sp, *hi = INFINITY; break;          /* L, interior */
    case 1: *lo = gu + sp, *hi = INFINITY; break;          /* L, at lo */
    case 2: *lo = -INFINITY, *hi = gu + sp; break;         /* U, interior */
    case 3: *lo = -INFINITY, *hi = gu - sp; break;         /* U, at hi */
    case 4: *lo = gu + sp, *hi = gu + 3 * sp; break;       /* LU, at lo */
    case 5: *lo = gu - 3 * sp, *hi = gu - sp; break;       /* LU, at hi */
    case 6: *lo = gu - sp, *hi = gu + 2 * sp; break;       /* LU, interior */
    case 7: *lo = 0.37, *hi = 0.37; break;                 /* fixed */
    case 8: *lo = -INFINITY, *hi = INFINITY; break;        /* free */
    case 9: *lo = 0.0, *hi = INFINITY; break;              /* limit */
    default: *lo = -fabs(gu) - 0.2, *hi = fabs(gu) + 0.2;  /* dry friction, sticking */
  }
}

typedef struct box1_problem {
  double A[1], vstar[1], J[3], R[3], vhat[3], mu[1], phi0[1], bound[2];
  unsigned char kind[1];
  sc_problem p;
} box1_problem;

static void box1_setup(box1_problem* b, double m, double R, double vs, double vh, double lo,
                       double hi) {
  static sc_problem_storage st;
  b->A[0] = m;
  b->vstar[0] = vs;
  b->J[0] = b->J[1] = 0.0;
  b->J[2] = 1.0;
  b->R[0] = b->R[1] = NAN; /* R_t of a box: not used */
  b->R[2] = R;
  b->vhat[0] = b->vhat[1] = NAN;
  b->vhat[2] = vh;
  b->mu[0] = 0.8; /* not used: a box has no friction cone */
  b->phi0[0] = NAN;
  b->bound[0] = lo;
  b->bound[1] = hi;
  b->kind[0] = SC_ROW_BOX;
  b->p = dense_problem(&st, 1, 1, b->A, b->vstar, b->J, b->R, b->vhat, b->mu, b->phi0, 0.01);
  b->p.kind = b->kind;
  b->p.bound = b->bound;
}

static void test_box_row_one_dof_closed_form(void) {
  const double ms[2] = {0.5, 4.0}, Rs[2] = {1e-3, 0.2}, vss[2] = {-1.3, 0.4}, vhs[2] = {0.0, 0.25};
  sc_lcp_work* cw = sc_lcp_work_create(1, 1, 8);
  double worst_g = 0.0, worst_v = 0.0, worst_res = 0.0;
  int nsolve = 0;
  for (int d = 4; d <= 8; d += 4)
    for (int t = 0; t < 16; t++)
      for (int c = 0; c < BOX1_CASES; c++) {
        const double m = ms[t & 1], R = Rs[(t >> 1) & 1], vs = vss[(t >> 2) & 1],
                     vh = vhs[(t >> 3) & 1];
        const double gu = (vh - vs) / (1.0 / m + R);
        double lo, hi;
        box1_bounds(c, gu, &lo, &hi);
        const double gref = fmin(fmax(gu, lo), hi), vref = vs + gref / m;
        box1_problem b;
        box1_setup(&b, m, R, vs, vh, lo, hi);
        double v[1], g[3];
        sc_solver_stats st;
        ENSURE(sc_lcp_solve(&b.p, d, 0, cw, v, g, &st) == SC_SOLVE_OK);
        ENSURE(g[0] == 0.0 && g[1] == 0.0);
        ENSURE_CLOSE(g[2], gref, 1e-10, 1e-15);
        ENSURE_CLOSE(v[0], vref, 1e-10, 1e-15);
        ENSURE(st.residual <= 1e-12);
        worst_g = fmax(worst_g, fabs(g[2] - gref) / fmax(fabs(gref), 1e-300));
        worst_v = fmax(worst_v, fabs(v[0] - vref) / fmax(fabs(vref), 1e-300));
        worst_res = fmax(worst_res, st.residual);
        nsolve++;
      }
  printf("  one dof, %d solves: max relative error gamma %.2e, v %.2e; max residual %.2e\n",
         nsolve, worst_g, worst_v, worst_res);
  sc_lcp_work_free(cw);
}

/* Reference for small dense problems with contacts and box rows, sharing
 * nothing with lcp.c: W = J A^-1 J^T and b = J v* formed here, then
 * projected Gauss-Seidel on the laws themselves, each row's local problem
 * solved exactly with the others fixed:
 *  - box row r:     gamma_r = clamp((vhat_r - vc_r + W_rr gamma_r) / (W_rr + R_r), lo, hi);
 *  - contact normal gamma_n = max(0, (vhat_n - vc_n + W_nn gamma_n) / (W_nn + R_n));
 *  - contact tangent: gamma_t minimizes 1/2 g^T W_tt g + (vc_t - W_tt gamma_t)^T g
 *    over the polygon with vertices mu gamma_n d_k (d_k the d cone edges),
 *    i.e. maximum dissipation over the polygon with rigid stiction (the
 *    law of lcp.c's header), solved by the interior point or the best
 *    point of the d edges.
 * Each entry's new impulses are relaxed, old + omega (new - old) (omega = 1:
 * plain PGS, which can settle into a 2-cycle when the normal and tangent
 * rows are strongly coupled; 0.5 then converges).  Sweeps from gam0 (NULL:
 * zero) until no impulse moves by more than 1e-14 (relative), at most
 * `cap`; returns the sweeps taken (cap + 1: not converged).  With cap = 1
 * and omega = 1 from a candidate answer it checks the laws: a solution is
 * a fixed point of the sweep. */
typedef struct dense_box_ref {
  int nv, nc;
  double W[81], b[9], Ainv[9]; /* nc <= 3, nv <= 3 */
} dense_box_ref;

static double poly_f(const double K[4], const double c[2], const double g[2]) {
  return 0.5 * (K[0] * g[0] * g[0] + 2.0 * K[2] * g[0] * g[1] + K[3] * g[1] * g[1]) + c[0] * g[0] +
         c[1] * g[1];
}

/* argmin 1/2 g^T K g + c^T g over conv{r d_k}, K 2x2 SPD (column-major) */
static void poly_qp(const double K[4], const double c[2], double r, int d, double g[2]) {
  g[0] = g[1] = 0.0;
  if (!(r > 0.0)) return;
  double det = K[0] * K[3] - K[1] * K[2];
  double u[2] = {-(K[3] * c[0] - K[2] * c[1]) / det, -(-K[1] * c[0] + K[0] * c[1]) / det};
  int inside = 1;
  for (int k = 0; k < d; k++) {
    const double two_pi = 2.0 * 3.14159265358979323846;
    double a0 = two_pi * k / d, a1 = two_pi * (k + 1) / d;
    double P[2] = {r * cos(a0), r * sin(a0)}, Q[2] = {r * cos(a1), r * sin(a1)};
    if ((Q[0] - P[0]) * (u[1] - P[1]) - (Q[1] - P[1]) * (u[0] - P[0]) < 0.0) inside = 0;
  }
  if (inside) {
    g[0] = u[0], g[1] = u[1];
    return;
  }
  double best = INFINITY;
  for (int k = 0; k < d; k++) {
    const double two_pi = 2.0 * 3.14159265358979323846;
    double a0 = two_pi * k / d, a1 = two_pi * (k + 1) / d;
    double P[2] = {r * cos(a0), r * sin(a0)}, e[2] = {r * cos(a1) - P[0], r * sin(a1) - P[1]};
    double KP[2] = {K[0] * P[0] + K[2] * P[1], K[1] * P[0] + K[3] * P[1]};
    double Ke[2] = {K[0] * e[0] + K[2] * e[1], K[1] * e[0] + K[3] * e[1]};
    double s = -((KP[0] + c[0]) * e[0] + (KP[1] + c[1]) * e[1]) / (e[0] * Ke[0] + e[1] * Ke[1]);
    s = fmin(fmax(s, 0.0), 1.0);
    double x[2] = {P[0] + s * e[0], P[1] + s * e[1]}, f = poly_f(K, c, x);
    if (f < best) best = f, g[0] = x[0], g[1] = x[1];
  }
}

static int box_reference(const sc_problem* p, const double* A, const double* J, int d, int cap,
                         double omega, const double* gam0, double* gam, double* v) {
  const int nv = p->nv, nc = p->nc, m = 3 * nc;
  double Ainv[9], X[27], W[81], b[9];
  for (int j = 0; j < nv; j++) {
    double e[3] = {0, 0, 0};
    e[j] = 1.0;
    ENSURE(dense_solve(nv, A, nv, e, Ainv + j * nv));
  }
  for (int r = 0; r < m; r++) { /* X = A^-1 J^T, column r */
    b[r] = 0.0;
    for (int j = 0; j < nv; j++) b[r] += J[r + j * m] * p->vstar[j];
    for (int i = 0; i < nv; i++) {
      X[i + r * nv] = 0.0;
      for (int j = 0; j < nv; j++) X[i + r * nv] += Ainv[i + j * nv] * J[r + j * m];
    }
  }
  for (int r = 0; r < m; r++)
    for (int s = 0; s < m; s++) {
      W[r + s * m] = 0.0;
      for (int j = 0; j < nv; j++) W[r + s * m] += J[r + j * m] * X[j + s * nv];
    }
  for (int r = 0; r < m; r++) gam[r] = gam0 ? gam0[r] : 0.0;
  int sweep;
  for (sweep = 1; sweep <= cap; sweep++) {
    double dmax = 0.0, gmax = 0.0;
    for (int i = 0; i < nc; i++) {
      double old[3] = {gam[3 * i], gam[3 * i + 1], gam[3 * i + 2]}, vc[3];
      int n = 3 * i + 2;
      for (int r = 0; r < 3; r++) {
        vc[r] = b[3 * i + r];
        for (int s = 0; s < m; s++) vc[r] += W[(3 * i + r) + s * m] * gam[s];
      }
      double Wnn = W[n + n * m], Rn = p->R[n];
      double gn = (p->vhat[n] - vc[2] + Wnn * gam[n]) / (Wnn + Rn);
      if (sc_problem_is_box(p, i)) {
        gam[n] = fmin(fmax(gn, p->bound[2 * i]), p->bound[2 * i + 1]);
      } else {
        gam[n] = fmax(gn, 0.0);
        if (p->mu[i] > 0.0) {
          /* tangential velocity with the new normal impulse, own t part removed */
          double K[4], c[2];
          for (int r = 0; r < 2; r++) {
            c[r] = vc[r] + W[(3 * i + r) + n * m] * (gam[n] - old[2]);
            for (int s = 0; s < 2; s++) {
              K[r + 2 * s] = W[(3 * i + r) + (3 * i + s) * m];
              c[r] -= K[r + 2 * s] * gam[3 * i + s];
            }
          }
          poly_qp(K, c, p->mu[i] * gam[n], d, gam + 3 * i);
        }
      }
      for (int r = 0; r < 3; r++) {
        gam[3 * i + r] = old[r] + omega * (gam[3 * i + r] - old[r]);
        dmax = fmax(dmax, fabs(gam[3 * i + r] - old[r]));
        gmax = fmax(gmax, fabs(gam[3 * i + r]));
      }
    }
    if (dmax <= 1e-14 * fmax(gmax, 1e-300)) break;
  }
  for (int i = 0; i < nv; i++) {
    v[i] = p->vstar[i];
    for (int r = 0; r < m; r++) v[i] += X[i + r * nv] * gam[r];
  }
  return sweep;
}

/* A 3-dof dense problem with a frictional contact (entry 0, mu = 0.5), a
 * joint-limit row (entry 1, [0, inf)) and a dry-friction row (entry 2,
 * [-g, g]), the box rows using only their n row of J; then the same with
 * the two box rows of random kinds (one-sided either way, two-sided,
 * fixed, free).  Reference: box_reference (PGS on the laws, to 1e-14).
 * gamma and v must agree to 1e-8 (the data are O(1); impulses up to ~3).
 * Every state is visited: the contact separated, sticking and sliding, the
 * limit active and not, the friction row sticking and slipping. */
static void test_box_rows_with_contact_vs_pgs(void) {
  sc_lcp_work* cw = sc_lcp_work_create(3, 3, 8);
  int n_sep = 0, n_stick = 0, n_slide = 0, n_lim = 0, n_free = 0, n_fstick = 0, n_fslip = 0;
  int max_sweeps = 0, nfail = 0, ntrial = 0, n_relaxed = 0;
  double worst = 0.0, worst_res = 0.0, worst_law = 0.0;
  for (int part = 0; part < 2; part++)
    for (int trial = 0; trial < 150; trial++) {
      const int nv = 3, nc = 3, d = trial % 2 ? 8 : 4;
      double B[9], A[9], vstar[3], J[27], R[9], vhat[9], mu[3], phi0[3] = {0, 0, 0}, bound[6];
      unsigned char kind[3] = {SC_ROW_CONTACT, SC_ROW_BOX, SC_ROW_BOX};
      for (int i = 0; i < 9; i++) B[i] = urand();
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          double s = i == j ? 0.5 : 0.0;
          for (int k = 0; k < 3; k++) s += B[k + 3 * i] * B[k + 3 * j];
          A[i + 3 * j] = s;
        }
      for (int i = 0; i < 3; i++) vstar[i] = 1.5 * urand();
      for (int i = 0; i < 27; i++) J[i] = urand();
      for (int i = 1; i < 3; i++)
        for (int j = 0; j < 3; j++) J[3 * i + 9 * j] = J[3 * i + 1 + 9 * j] = 0.0;
      for (int i = 0; i < 3; i++) {
        R[3 * i] = R[3 * i + 1] = 1e-3; /* unused by the LCP */
        R[3 * i + 2] = pow(10.0, -3.0 + 2.0 * (0.5 * urand() + 0.5));
        vhat[3 * i] = vhat[3 * i + 1] = 0.0;
        vhat[3 * i + 2] = 0.3 * urand();
      }
      mu[0] = 0.5, mu[1] = 0.3, mu[2] = 0.3; /* the boxes' mu: not used */
      if (trial % 3 == 0) /* a steeper tangent: more sticking */
        for (int j = 0; j < 3; j++) J[9 * j] *= 3.0, J[1 + 9 * j] *= 3.0;
      bound[0] = bound[1] = 0.0;             /* the contact's: not used */
      const double gf = 0.4 * (0.5 * urand() + 0.5);
      bound[2] = 0.0, bound[3] = INFINITY;
      bound[4] = -gf, bound[5] = gf;
      if (part == 1)
        for (int i = 1; i < 3; i++) {
          double lo = urand(), hi = lo + 0.5 * (0.5 * urand() + 0.5);
          switch (irand(0, 4)) {
            case 0: hi = INFINITY; break;
            case 1: lo = -INFINITY; break;
            case 2: break;
            case 3: hi = lo; break;
            default: lo = -INFINITY, hi = INFINITY;
          }
          bound[2 * i] = lo, bound[2 * i + 1] = hi;
        }
      static sc_problem_storage pst;
      sc_problem p = dense_problem(&pst, nv, nc, A, vstar, J, R, vhat, mu, phi0, 0.01);
      p.kind = kind;
      p.bound = bound;
      double v[3], g[9], vr[3], gr[9];
      sc_solver_stats st;
      sc_solve_status ss = sc_lcp_solve(&p, d, 0, cw, v, g, &st);
      ENSURE(ss == SC_SOLVE_OK);
      /* the laws at the LCP's answer: one sweep from it moves nothing */
      box_reference(&p, A, J, d, 1, 1.0, g, gr, vr);
      for (int r = 0; r < 9; r++) {
        ENSURE_NEAR(gr[r], g[r], 1e-9);
        worst_law = fmax(worst_law, fabs(gr[r] - g[r]));
      }
      int sweeps = box_reference(&p, A, J, d, 1000000, 1.0, NULL, gr, vr);
      if (sweeps > 1000000) {
        n_relaxed++;
        sweeps = box_reference(&p, A, J, d, 1000000, 0.5, NULL, gr, vr);
      }
      if (sweeps > 1000000) { /* the reference from zero did not settle */
        nfail++;
        continue;
      }
      ntrial++;
      max_sweeps = sweeps > max_sweeps ? sweeps : max_sweeps;
      worst_res = fmax(worst_res, st.residual);
      ENSURE(st.residual <= 1e-9);
      for (int r = 0; r < 9; r++) {
        ENSURE_NEAR(g[r], gr[r], 1e-8);
        worst = fmax(worst, fabs(g[r] - gr[r]));
      }
      for (int j = 0; j < 3; j++) {
        ENSURE_NEAR(v[j], vr[j], 1e-8);
        worst = fmax(worst, fabs(v[j] - vr[j]));
      }
      for (int i = 1; i < 3; i++) ENSURE(g[3 * i] == 0.0 && g[3 * i + 1] == 0.0);
      if (part == 0) {
        double vt[2] = {0.0, 0.0};
        for (int r = 0; r < 2; r++)
          for (int j = 0; j < 3; j++) vt[r] += J[r + 9 * j] * vr[j];
        if (gr[2] <= 1e-12) n_sep++;
        else if (hypot(vt[0], vt[1]) <= 1e-9) n_stick++;
        else n_slide++;
        if (gr[5] > 1e-12) n_lim++;
        else n_free++;
        if (fabs(gr[8]) < gf * (1 - 1e-9)) n_fstick++;
        else n_fslip++;
      }
    }
  printf("  contact + limit + friction row: %d trials, max |error| %.2e (gamma, v), max residual "
         "%.2e, reference sweeps <= %d (%d relaxed, %d unsettled); laws at the LCP's answers: max "
         "move %.2e\n",
         ntrial, worst, worst_res, max_sweeps, n_relaxed, nfail, worst_law);
  printf("  states: contact separated %d, sticking %d, sliding %d; limit active %d, idle %d; "
         "friction row sticking %d, slipping %d\n",
         n_sep, n_stick, n_slide, n_lim, n_free, n_fstick, n_fslip);
  ENSURE(nfail == 0);
  ENSURE(n_sep > 0 && n_stick > 0 && n_slide > 0 && n_lim > 0 && n_free > 0 && n_fstick > 0 &&
         n_fslip > 0);
  sc_lcp_work_free(cw);
}

/* Warm start with box rows: solving again with the previous pat_out as
 * pat_in gives the same gamma and v (to 1e-12 relative to the largest
 * impulse or velocity) with no more pivots than the cold solve, on the
 * one-dof problems of every bound case and on the 3-dof mixed problems.
 * On the one-dof problems the patterns mean bit a = variable a of the box's
 * block: a (or b) basic when the impulse is off the bound it is shifted
 * by, lambda basic when a two-sided box is at hi with w < 0, none for
 * lo = hi, one of a, b for a free row. */
static void test_box_rows_warm_start(void) {
  static const uint32_t pat1[BOX1_CASES] = {1, 0, 1, 0, 0, 3, 1, 0, 0, 0, 1};
  sc_lcp_work* cw = sc_lcp_work_create(3, 3, 8);
  int cold = 0, warm = 0, nsolve = 0;
  double worst = 0.0;
  for (int t = 0; t < 2 * BOX1_CASES; t++) {
    const int c = t % BOX1_CASES;
    const double m = t < BOX1_CASES ? 2.0 : 0.3, R = 0.01, vs = t < BOX1_CASES ? -0.8 : 0.6;
    const double gu = (0.1 - vs) / (1.0 / m + R);
    double lo, hi;
    box1_bounds(c, gu, &lo, &hi);
    box1_problem b;
    box1_setup(&b, m, R, vs, 0.1, lo, hi);
    uint32_t pat[1] = {77}, pat2[1] = {77};
    double v[1], g[3], v2[1], g2[3];
    sc_solver_stats s1, s2;
    ENSURE(sc_lcp_solve_from(&b.p, 4, 0, cw, NULL, pat, v, g, &s1) == SC_SOLVE_OK);
    if (c == 8) ENSURE(pat[0] == 1 || pat[0] == 2);
    else if (c == 9) ENSURE(pat[0] == (gu > 0.0 ? 1u : 0u)); /* the limit pushes or idles */
    else ENSURE(pat[0] == pat1[c]);
    ENSURE(sc_lcp_solve_from(&b.p, 4, 0, cw, pat, pat2, v2, g2, &s2) == SC_SOLVE_OK);
    ENSURE(pat2[0] == pat[0]);
    ENSURE(s2.iterations <= s1.iterations);
    ENSURE_NEAR(g2[2], g[2], 1e-12 * fmax(1.0, fabs(g[2])));
    ENSURE_NEAR(v2[0], v[0], 1e-12 * fmax(1.0, fabs(v[0])));
    worst = fmax(worst, fabs(g2[2] - g[2]));
    cold += s1.iterations, warm += s2.iterations, nsolve++;
  }
  for (int trial = 0; trial < 100; trial++) {
    const int d = trial % 2 ? 8 : 4;
    double B[9], A[9], vstar[3], J[27], R[9], vhat[9], mu[3] = {0.6, 0, 0}, phi0[3] = {0, 0, 0};
    double bound[6] = {0, 0, 0, INFINITY, -0.1, 0.1};
    unsigned char kind[3] = {SC_ROW_CONTACT, SC_ROW_BOX, SC_ROW_BOX};
    for (int i = 0; i < 9; i++) B[i] = urand();
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        double s = i == j ? 0.5 : 0.0;
        for (int k = 0; k < 3; k++) s += B[k + 3 * i] * B[k + 3 * j];
        A[i + 3 * j] = s;
      }
    for (int i = 0; i < 3; i++) vstar[i] = 1.5 * urand();
    for (int i = 0; i < 27; i++) J[i] = urand();
    for (int i = 1; i < 3; i++)
      for (int j = 0; j < 3; j++) J[3 * i + 9 * j] = J[3 * i + 1 + 9 * j] = 0.0;
    for (int i = 0; i < 9; i++) R[i] = i % 3 == 2 ? 0.01 * (1.5 + urand()) : 1e-3;
    for (int i = 0; i < 9; i++) vhat[i] = i % 3 == 2 ? 0.2 * urand() : 0.0;
    if (trial % 3 == 1) bound[2] = -0.3, bound[3] = 0.4;        /* a servo with effort limits */
    if (trial % 3 == 2) bound[4] = -INFINITY, bound[5] = INFINITY; /* an unbounded servo */
    static sc_problem_storage pst;
    sc_problem p = dense_problem(&pst, 3, 3, A, vstar, J, R, vhat, mu, phi0, 0.01);
    p.kind = kind;
    p.bound = bound;
    uint32_t pat[3], pat2[3];
    double v[3], g[9], v2[3], g2[9], gmax = 0.0, vmax = 0.0;
    sc_solver_stats s1, s2;
    ENSURE(sc_lcp_solve_from(&p, d, 0, cw, NULL, pat, v, g, &s1) == SC_SOLVE_OK);
    ENSURE(sc_lcp_solve_from(&p, d, 0, cw, pat, pat2, v2, g2, &s2) == SC_SOLVE_OK);
    ENSURE(s2.iterations <= s1.iterations);
    for (int r = 0; r < 9; r++) gmax = fmax(gmax, fabs(g[r]));
    for (int j = 0; j < 3; j++) vmax = fmax(vmax, fabs(v[j]));
    for (int r = 0; r < 9; r++) {
      ENSURE_NEAR(g2[r], g[r], 1e-12 * fmax(gmax, 1e-3));
      worst = fmax(worst, fabs(g2[r] - g[r]) / fmax(gmax, 1e-3));
    }
    for (int j = 0; j < 3; j++) ENSURE_NEAR(v2[j], v[j], 1e-12 * fmax(vmax, 1e-3));
    cold += s1.iterations, warm += s2.iterations, nsolve++;
  }
  printf("  warm start, %d problems: pivots cold %d, warm %d; max relative difference %.2e\n",
         nsolve, cold, warm, worst);
  ENSURE(warm < cold);
  sc_lcp_work_free(cw);
}

/* Input: a box row whose bounds are no interval (lo > hi, NaN, lo = +inf,
 * hi = -inf, or p->bound NULL) is refused as invalid data (SC_SOLVE_NAN,
 * v = v*, gamma = 0); kind = all SC_ROW_CONTACT is bit for bit kind = NULL. */
static void test_box_rows_input(void) {
  sc_lcp_work* cw = sc_lcp_work_create(6, 4, 8);
  const double bad[5][2] = {{1.0, 0.5}, {NAN, 1.0}, {0.0, NAN}, {INFINITY, INFINITY},
                            {-INFINITY, -INFINITY}};
  for (int k = 0; k <= 5; k++) {
    box1_problem b;
    const double lo = k < 5 ? bad[k][0] : 0.0, hi = k < 5 ? bad[k][1] : (double)INFINITY;
    box1_setup(&b, 2.0, 0.01, -0.5, 0.0, lo, hi);
    if (k == 5) b.p.bound = NULL;
    double v[1], g[3];
    sc_solver_stats st;
    ENSURE(sc_lcp_solve(&b.p, 4, 0, cw, v, g, &st) == SC_SOLVE_NAN);
    ENSURE(v[0] == -0.5 && g[0] == 0.0 && g[1] == 0.0 && g[2] == 0.0);
  }
  box_problem b;
  box_setup(&b, 2.0, 0.6, 0.01, 9.81, 0.3, -0.1, 1e-6);
  unsigned char kind[4] = {SC_ROW_CONTACT, SC_ROW_CONTACT, SC_ROW_CONTACT, SC_ROW_CONTACT};
  double v1[6], g1[12], v2[6], g2[12];
  sc_solver_stats s1, s2;
  ENSURE(sc_lcp_solve(&b.p, 8, 0, cw, v1, g1, &s1) == SC_SOLVE_OK);
  b.p.kind = kind;
  ENSURE(sc_lcp_solve(&b.p, 8, 0, cw, v2, g2, &s2) == SC_SOLVE_OK);
  ENSURE(memcmp(v1, v2, sizeof v1) == 0 && memcmp(g1, g2, sizeof g1) == 0);
  ENSURE(s1.iterations == s2.iterations && s1.residual == s2.residual);
  sc_lcp_work_free(cw);
}

/* Far bounds (lcp.c header): finite bounds many orders beyond the impulses
 * ("effort 1e9 for unbounded") must not swamp the LCP.  (a) One dof as in
 * the closed-form test with gu = 0.0495: [0, H] and [-H, H] for H = 1e3 ..
 * 1e12 and [-H, 0.02] (hi active), against the closed form to 1e-12
 * relative (before the first pass left such bounds out, [0, 1e9] returned
 * gamma = 0 and [-1e12, 1e12] lost 1e-3).  (b) Two rows that fight on one
 * dof (m = 1): a limit pulling to v = +1 and a servo with effort [-H, H]
 * pulling to v = -1, both nearly rigid (R = 1e-6): unclamped, the impulses
 * would be ~1e6, far beyond H = 1e4, which is over 1e3 times the stopping
 * impulses (~1): the first pass breaks the servo's bound, the second one
 * solves with it.  Closed form: the servo saturates at -H, the limit
 * gives g1 = (1 + H - v*) / (1 + R1), v = v* + g1 - H. */
static void test_box_rows_far_bounds(void) {
  sc_lcp_work* cw = sc_lcp_work_create(1, 2, 4);
  const double Hs[5] = {1e3, 1e6, 1e9, 1e12, 1e15};
  double worst = 0.0;
  for (int k = 0; k < 5; k++)
    for (int c = 0; c < 3; c++) {
      const double H = Hs[k], lo = c == 0 ? 0.0 : -H, hi = c == 2 ? 0.02 : H;
      const double gu = 0.05 / (1.0 + 0.01), gref = fmin(fmax(gu, lo), hi);
      box1_problem b;
      box1_setup(&b, 1.0, 0.01, -0.05, 0.0, lo, hi);
      double v[1], g[3];
      sc_solver_stats st;
      ENSURE(sc_lcp_solve(&b.p, 4, 0, cw, v, g, &st) == SC_SOLVE_OK);
      ENSURE_CLOSE(g[2], gref, 1e-12, 0.0);
      ENSURE_CLOSE(v[0], -0.05 + gref, 1e-12, 1e-15);
      ENSURE(st.residual <= 1e-12);
      worst = fmax(worst, fabs(g[2] - gref) / gref);
    }
  {
    const double H = 1e4, R1 = 1e-6, vs = 0.3;
    double A[1] = {1.0}, vstar[1] = {vs}, J[6] = {0, 0, 1, 0, 0, 1};
    double R[6] = {1, 1, R1, 1, 1, 1e-6}, vhat[6] = {0, 0, 1.0, 0, 0, -1.0};
    double mu[2] = {0, 0}, phi0[2] = {0, 0}, bound[4] = {0.0, INFINITY, -H, H};
    unsigned char kind[2] = {SC_ROW_BOX, SC_ROW_BOX};
    static sc_problem_storage pst;
    sc_problem p = dense_problem(&pst, 1, 2, A, vstar, J, R, vhat, mu, phi0, 0.01);
    p.kind = kind;
    p.bound = bound;
    double v[1], g[6];
    sc_solver_stats st;
    ENSURE(sc_lcp_solve(&p, 4, 0, cw, v, g, &st) == SC_SOLVE_OK);
    const double g1 = (1.0 + H - vs) / (1.0 + R1), vref = vs + g1 - H;
    ENSURE_CLOSE(g[2], g1, 1e-12, 0.0);
    ENSURE(g[5] == -H);
    ENSURE_CLOSE(v[0], vref, 1e-9, 0.0);
    ENSURE((-1.0 - vref) / 1e-6 < -H); /* the servo is saturated indeed */
    ENSURE(st.residual <= 1e-12);
    printf("  far bounds: max relative error %.2e on one dof; fighting rows: g1 %.6g (ref %.6g), "
           "v %.6g (ref %.6g), %d pivots\n", worst, g[2], g1, v[0], vref, st.iterations);
  }
  sc_lcp_work_free(cw);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_lemke_2x2_closed_form);
  RUN(test_lemke_3x3_closed_form);
  RUN(test_lemke_trivial_exit);
  RUN(test_lemke_roundoff_q);
  RUN(test_lemke_convex_qp_vs_enumeration);
  RUN(test_lemke_nonsymmetric_p_matrix);
  RUN(test_lemke_warm_start);
  RUN(test_lemke_batched_pivots);
  RUN(test_lemke_polish_cut_path);
  RUN(test_lemke_inplace);
  RUN(test_lemke_degenerate);
  RUN(test_lemke_ray_termination);
  RUN(test_lemke_bad_input_and_cap);
  RUN(test_lemke_scaling_invariance);
  RUN(test_lemke_incline_capture);
  RUN(test_lemke_cancel);
  RUN(test_lcp_capacity);
  RUN(test_seed_cart_wall);
  RUN(test_seed_brick_friction);
  RUN(test_contact_box_sticking);
  RUN(test_contact_box_sliding_on_edge);
  RUN(test_contact_box_sliding_between_edges);
  RUN(test_contact_frictionless_vs_active_set);
  RUN(test_contact_random_states_sweep);
  RUN(test_contact_no_allocation);
  RUN(test_contact_bad_input);
  RUN(test_box_row_one_dof_closed_form);
  RUN(test_box_rows_with_contact_vs_pgs);
  RUN(test_box_rows_warm_start);
  RUN(test_box_rows_input);
  RUN(test_box_rows_far_bounds);
  return TEST_END();
}
