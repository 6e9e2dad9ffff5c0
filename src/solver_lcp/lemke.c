/* lemke: Lemke's complementary pivoting algorithm for a dense LCP.
 *
 * Problem.  Given M (n x n) and q (n), find z, w in R^n with
 *
 *     w = M z + q,   w >= 0,   z >= 0,   w_i z_i = 0 for every i.
 *
 * Augmented problem (Lemke 1965; Cottle, Pang & Stone, "The Linear
 * Complementarity Problem", 1992, sec. 4.4).  Add one artificial variable z0
 * and a covering vector d > 0 (here d = 1, every entry):
 *
 *     I w - M z - d z0 = q,   w, z, z0 >= 0,   w_i z_i = 0.
 *
 * The 2n + 1 variables are numbered w_i = i, z_i = n + i, z0 = 2n.  A basis
 * is a set of n variables whose columns (e_i for w_i, -M e_i for z_i, -d for
 * z0) form a nonsingular B; the basic values are x = B^-1 q, the others are
 * zero.  The tableau kept here is (x, B^-1), updated by elementary row
 * operations at each pivot (product form, O(n^2) per pivot): x at once,
 * B^-1 for NETA pivots at a time (their entering columns, the eta vectors,
 * are kept until then, and an entering column computed in between applies
 * them), so that each column of B^-1 passes through the cache once per
 * NETA pivots.
 *
 *     start:  q >= 0        -> z = 0 is the solution, return at once (0 pivots)
 *             basis {w}, B = I.  z0 enters; the leaving row r minimises q_i/d_i
 *             (the most negative), so that afterwards x >= 0 and z0 = -q_r/d_r.
 *     loop:   the variable that entered last complements the one that left
 *             (w_r left -> z_r enters, z_r left -> w_r enters); this keeps
 *             the basis almost complementary (only the pair of the leaving
 *             variable's index is missing).
 *             entering column a = B^-1 col(entering)
 *             no a_i > 0          -> ray termination (SC_SOLVE_RAY)
 *             ratio test          r = argmin { x_i / a_i : a_i > 0 }
 *             pivot on (r, entering); the basic variable of row r leaves
 *             z0 left             -> the basis is complementary: z solves the LCP
 *
 * Degeneracy.  When several rows reach the minimum ratio (degenerate q,
 * zeros in x), the leaving row is chosen lexicographically: among the tied
 * rows take the lexicographic minimum of the rows of (x, B^-1) divided by
 * a_i, column by column.  The rows of B^-1 are linearly independent, so the
 * choice is unique, and the first pivot is made with the same rule (the
 * lexicographic minimum of (q_i, e_i)/d_i).  All rows of (x, B^-1) then stay
 * lexicographically positive and the lexicographic vector of the pivot path
 * strictly decreases, so no almost-complementary basis is visited twice: the
 * path cannot cycle (Cottle-Pang-Stone thm 4.4.4 and 4.9.4).  If z0 is among
 * the rows tied on the ratio it leaves at once (that finishes the path).
 * For copositive-plus M (e.g. PSD, or the contact LCP of lcp.c) ray
 * termination proves the LCP infeasible (ibid. thm 4.4.13); for a P-matrix
 * Lemke always ends in a solution.
 *
 * Round-off.  The tableau drifts with the number of pivots, so every
 * max(n, 20) pivots B^-1 is recomputed from the current basis columns (LU
 * with partial pivoting) and x = B^-1 q refined once; at the end x gets two
 * steps of iterative refinement r = q - B x, x += B^-1 r.  Round-off can in
 * principle still defeat the lexicographic rule, so the basis (as a set) is
 * hashed (XOR of one 64-bit key per basic variable) and a repeat among the
 * last 2 n + 16 bases is reported as SC_SOLVE_CYCLE; the pivot cap (default
 * 20 n + 100, a budget shared by all attempts below) bounds everything else.
 * At the end of every path B^-1 is recomputed by a fresh LU (the
 * product-form one carries the round-off of every pivot) and x = B^-1 q gets
 * three steps of iterative refinement.
 *
 * Equilibration.  sc_lemke solves diag(r) M diag(c) zs + diag(r) q with
 * zs = diag(c)^-1 z: positive diagonal scalings keep the signs and the zero
 * pattern of z and w, so both LCPs have the same solutions.  r and c are
 * Ruiz scalings (a few sweeps of 1/sqrt(row or column max-norm)) rounded to
 * powers of two, so the scaling itself is exact; rows and columns whose
 * max-norm already lies in [1/16, 16] are left alone (a well-scaled LCP
 * keeps its pivot path).  The covering vector below is applied to the
 * scaled problem.
 *
 * Cancellation.  sc_lemke_set_cancel gives a flag (set by a signal
 * handler) that is polled every CANCEL_EVERY pivots and every 32 columns of
 * a re-inversion; a set flag ends the solve with SC_SOLVE_CANCELLED.
 *
 * Ill-conditioned bases.  Contact LCPs with near-rigid normals (R_n << W)
 * and rank-deficient tangential rows produce bases whose inverse has
 * entries ~ 1/R_n; exact zeros of later entering columns then come out as
 * round-off "pivots" that send the path astray (a cycle, a false ray, or an
 * end point that is not a solution).  Hence every end point is checked:
 *     viol = max_i max(-w_i/s_q, -z_i/s_z, |w_i z_i|/(s_q s_z)),
 *     s_q = ||q||_inf, s_z = ||z||_inf,
 * and the whole method is rerun (table `attempts`) with pivot tolerance
 * EPS_PIV 1e-9, 1e-7, 1e-5 (covering vector d = 1), then 1e-5 with a
 * perturbed covering vector d_i = 1 + frac(0.618 (i + 1)) / 2 (another path
 * through the same LCP, away from the ties of d = 1), then the tolerances
 * between and beyond those (1e-6 with both vectors, 1e-4 and 1e-3 perturbed),
 * then 1e-11, until viol <= VERIFY_GOOD (1e-10); the best end point is returned as
 * SC_SOLVE_OK when its viol <= VERIFY_OK (1e-6), otherwise as
 * SC_SOLVE_INACCURATE (numerical breakdown).  A larger tolerance treats
 * entries below EPS_PIV relative as zero, which costs feasibility of the
 * order of EPS_PIV: a stiffer-than-representable contact is made rigid; the
 * end-point check decides whether that was acceptable.  On the 20 deg
 * incline cube (4 coplanar corners: M rank-deficient, singular values to
 * 1e-16) the round-off pivots are ~1e-7 relative: 1e-11..1e-7 end at
 * non-solutions (viol ~ 4e-3), 1e-5 solves it (viol ~ 1e-13).  The window of
 * working tolerances moves from problem to problem, hence the ladder: on a
 * 2040-row clutter LCP (64 bodies, 8 edges, four coplanar box corners) the
 * end points at 1e-9 and 1e-7 miss by 19 and 6e-3, every one at 1e-5 and
 * above by 3e-6 to 7e-4 (a corner's edge row w_b ~ -1e-7 relative), while
 * 1e-6 solves it (4e-8 with d = 1, 2e-9 perturbed).
 *
 * Every end point counts, not only complementary ones: on the settled
 * clutter pile (125 bodies, 4 edges, about 400 contacts in one 2 400-row
 * LCP) the paths with tolerances 1e-9..1e-6 end on a false ray with z0 at
 * round-off, their z 3e-9..6e-8 from a solution, while every complementary
 * end misses by 1.6e-6 or more.  And each end point that misses
 * VERIFY_GOOD is handed to principal pivoting (below) with its basic z_j
 * as the guess: the complementary system solved again by a fresh LU, and
 * the indices that violate it exchanged; on that pile it ends verified
 * after one or two factorizations, where the ladder alone ran all nine
 * attempts (19 000 pivots) without success.
 *
 * Warm start (sc_lemke_from).  A guessed basic set, e.g. the previous time
 * step's, goes to principal pivoting first.  When that does not end in a
 * verified solution, Lemke's method starts from the guessed complementary
 * basis B (one LU for B^-1, x = B^-1 q) with the covering vector d = B 1:
 * in B's coordinates the artificial column is -1, so this is the ordinary
 * method with d = 1 on the principal pivot transform of the LCP by the
 * guessed set (Cottle, Pang & Stone sec. 2.3, 4.4), whose matrix need not
 * keep M's class: no termination guarantee, hence at most max(WARM_PIVOTS,
 * n) pivots and the end-point check; then the cold attempts.  The bound
 * grows with n because a cold path from z = 0 takes of the order of n
 * pivots on the contact LCP (one per variable that ends basic), and a warm
 * path cut short is wasted: with 200 at most, clutter 64 at 10 ms with 8
 * edges (LCPs of ~1 800 rows) took 26 % more pivots in all than with n.
 *
 * Tolerances (relative to the data, all dimensionless):
 *   s_q = ||q||_inf, s_M = max |M_ij|; the scale of a basic variable is s_q
 *   for w_i and z0 (q's units) and s_q / s_M for z_i (z's units).
 *   pivot candidate   a_i s_e / s_i > EPS_PIV * max_j |a_j s_e / s_j|
 *                     (a scaled to be dimensionless; s_e: entering variable)
 *   ratio tie         x_i - theta a_i <= EPS_TIE (|x_i| + s_i)
 *   lexicographic tie B^-1_ik / a_i - min <= EPS_LEX * max |B^-1_jk / a_j|
 *                     (within one column of B^-1 these share units)
 * A row that fails the pivot test is treated as a zero entry: the step along
 * the entering column cannot drive it negative by more than round-off. */
#include "solver_lcp/lcp.h"

#include <math.h>
#include <stdint.h>

#include "core/core.h"
#include "linalg/linalg.h"

/* attempts: pivot tolerance and covering vector (0: d = 1, 1: perturbed) */
static const struct {
  double eps_piv;
  int cover;
} attempts[] = {{1e-9, 0}, {1e-7, 0}, {1e-5, 0}, {1e-5, 1}, {1e-6, 0},
                {1e-6, 1}, {1e-4, 1}, {1e-3, 1}, {1e-11, 0}};
#define NATTEMPT ((int)(sizeof attempts / sizeof attempts[0]))
#define CANCEL_EVERY 8
#define WARM_PIVOTS 200 /* least bound on the pivots of a path from a guessed basis */
#define EPS_TIE 1e-11
#define VERIFY_GOOD 1e-10
#define VERIFY_OK 1e-6
#define EPS_LEX 1e-9
#define NETA SC_LEMKE_ETAS /* pivots applied to B^-1 in one pass */

struct sc_lemke_work {
  int n_max;
  int hist_cap;
  double* Binv;    /* (n x n) inverse of the basis matrix, before the pending etas */
  double* eta;     /* (NETA x n) entering columns of the pivots not yet applied to Binv */
  int eta_r[NETA]; /* their pivot rows */
  int neta;        /* pending etas */
  int eta_max;     /* flush at this many (1 .. NETA) */
  double* B;       /* (n x n) scratch: basis columns for re-inversion */
  double* x;       /* (n) basic values */
  double* a;       /* (n) entering column B^-1 col(e) */
  double* r;       /* (n) residual / scratch */
  double* scale;   /* (2n+1) scale of each variable */
  double* zbest;   /* (n) most accurate end point over the attempts */
  double* dcov;    /* (n) covering vector of the current attempt */
  double* Ms;      /* (n x n) equilibrated M: diag(rs) M diag(cs) (NULL: in place) */
  double* qs;      /* (n) equilibrated q: diag(rs) q */
  double* rs;      /* (n) row scales (powers of 2) */
  double* cs;      /* (n) column scales (powers of 2) */
  double* zpp;     /* (n) z of principal pivoting */
  unsigned char* in;     /* (n) z_j basic, for principal pivoting */
  unsigned char* inbest; /* (n) z_j basic at the most accurate end point */
  const volatile sig_atomic_t* cancel; /* polled every CANCEL_EVERY pivots */
  int* basis;      /* (n) basis[i] = variable basic in row i */
  int* where;      /* (2n+1) row of a basic variable, or -1 */
  int* ties;       /* (n) candidate rows of the ratio test */
  int* perm;       /* (n) LU row pivots (LAPACK ipiv, 1-based) */
  int* cidx;       /* (n) re-inversion: rows of the basic z and z0 */
  int* widx;       /* (n) re-inversion: indices of the basic w */
  uint64_t* hist;  /* (hist_cap) hashes of recent bases */
};

static sc_lemke_work* work_create(int n_max, int copy);

sc_lemke_work* sc_lemke_work_create(int n_max) { return work_create(n_max, 1); }

sc_lemke_work* sc_lemke_work_create_inplace(int n_max) { return work_create(n_max, 0); }

static sc_lemke_work* work_create(int n_max, int copy) {
  if (n_max < 0) return NULL;
  sc_lemke_work* w = sc_calloc(1, sizeof *w);
  if (!w) return NULL;
  size_t n = (size_t)n_max;
  w->n_max = n_max;
  w->eta_max = NETA;
  w->hist_cap = 2 * n_max + 16;
  w->Binv = sc_malloc(n * n * sizeof(double));
  w->eta = sc_malloc(NETA * n * sizeof(double) + 1);
  w->B = sc_malloc(n * n * sizeof(double));
  w->x = sc_malloc(n * sizeof(double));
  w->a = sc_malloc(n * sizeof(double));
  w->r = sc_malloc(n * sizeof(double));
  w->scale = sc_malloc((2 * n + 1) * sizeof(double));
  w->zbest = sc_malloc(n * sizeof(double));
  w->dcov = sc_malloc(n * sizeof(double));
  w->Ms = copy ? sc_malloc(n * n * sizeof(double)) : NULL;
  w->qs = sc_malloc(n * sizeof(double));
  w->rs = sc_malloc(n * sizeof(double));
  w->cs = sc_malloc(n * sizeof(double));
  w->zpp = sc_malloc(n * sizeof(double));
  w->in = sc_malloc(n + 1);
  w->inbest = sc_malloc(2 * (n + 1)); /* and principal_pivot's last set */
  w->basis = sc_malloc(n * sizeof(int));
  w->where = sc_malloc((2 * n + 1) * sizeof(int));
  w->ties = sc_malloc(n * sizeof(int));
  w->perm = sc_malloc(n * sizeof(int));
  w->cidx = sc_malloc(n * sizeof(int));
  w->widx = sc_malloc(n * sizeof(int));
  w->hist = sc_malloc((size_t)w->hist_cap * sizeof(uint64_t));
  if (!w->Binv || !w->eta || !w->B || !w->x || !w->a || !w->r || !w->scale || !w->zbest || !w->dcov || (copy && !w->Ms) || !w->qs || !w->rs || !w->cs || !w->zpp || !w->in || !w->inbest || !w->basis || !w->where ||
      !w->ties || !w->perm || !w->cidx || !w->widx || !w->hist) {
    sc_lemke_work_free(w);
    return NULL;
  }
  return w;
}

void sc_lemke_work_free(void* wp) {
  sc_lemke_work* w = wp;
  if (!w) return;
  sc_free(w->Binv);
  sc_free(w->eta);
  sc_free(w->B);
  sc_free(w->x);
  sc_free(w->a);
  sc_free(w->r);
  sc_free(w->scale);
  sc_free(w->zbest);
  sc_free(w->dcov);
  sc_free(w->Ms);
  sc_free(w->qs);
  sc_free(w->rs);
  sc_free(w->cs);
  sc_free(w->zpp);
  sc_free(w->in);
  sc_free(w->inbest);
  sc_free(w->basis);
  sc_free(w->where);
  sc_free(w->ties);
  sc_free(w->perm);
  sc_free(w->cidx);
  sc_free(w->widx);
  sc_free(w->hist);
  sc_free(w);
}

/* splitmix64 finaliser: a well-mixed key per variable for the basis hash */
static uint64_t var_key(int v) {
  uint64_t z = (uint64_t)(v + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void sc_lemke_set_batch(sc_lemke_work* w, int k) {
  if (w) w->eta_max = k < 1 ? 1 : k > NETA ? NETA : k;
}

void sc_lemke_set_cancel(sc_lemke_work* w, const volatile sig_atomic_t* flag) {
  if (w) w->cancel = flag;
}

/* One pivot's update of a column y of B^-1 (eta p, entering column a
 * with pivot row r): t = y_r / a_r, y -= a t, y_r = t.  A column with
 * y_r = 0 is unchanged but for the sign of that zero. */
static void eta_apply(int n, const sc_lemke_work* w, int p, double* y) {
  const double* a = w->eta + (size_t)p * n;
  const int r = w->eta_r[p];
  const double t = y[r] / a[r];
  if (t != 0.0)
    for (int i = 0; i < n; i++) y[i] -= a[i] * t;
  y[r] = t;
}

/* Apply the pending etas to every column of B^-1.  Each pivot rewrites
 * every column whose entry in its row is non-zero (k ~ n/6 .. n/3 of
 * them on a settled pile, n of 7 000 rows: 100 MB per pivot), so the
 * pivots are batched: per column, the pivot rows' values after each eta
 * (NETA scalars) decide which etas touch it, and the column is updated by
 * all of them while it is in cache.  Per column this is the same
 * sequence of operations as pivot-by-pivot updates, so the same bits. */
static void flush(int n, sc_lemke_work* w) {
  const int ne = w->neta;
  if (ne == 0) return;
  double t[NETA];
  for (int k = 0; k < n; k++) {
    double* y = w->Binv + (size_t)k * n;
    /* t_p from y's pivot-row values after etas 0 .. p-1 */
    for (int p = 0; p < ne; p++) {
      const int r = w->eta_r[p];
      double v = y[r];
      for (int q = 0; q < p; q++) {
        if (w->eta_r[q] == r) v = t[q];
        else if (t[q] != 0.0) v -= w->eta[(size_t)q * n + r] * t[q];
      }
      t[p] = v / w->eta[(size_t)p * n + r];
    }
    for (int p = 0; p < ne; p++) {
      if (t[p] == 0.0) continue;
      const double* a = w->eta + (size_t)p * n;
      const double tp = t[p];
      for (int i = 0; i < n; i++) y[i] -= a[i] * tp;
    }
    /* the pivot rows: y_r = t_p, then the later etas' updates (a later
     * eta on the same row overwrites) */
    for (int p = 0; p < ne; p++) {
      const int r = w->eta_r[p];
      double v = t[p];
      for (int q = p + 1; q < ne; q++)
        if (w->eta_r[q] != r && t[q] != 0.0) v -= w->eta[(size_t)q * n + r] * t[q];
      y[r] = v;
    }
  }
  w->neta = 0;
}

/* a = B^-1 col(v): the product with the stored B^-1, then the pending etas */
static void entering_column(int n, const double* M, const sc_lemke_work* w, int v, double* a) {
  const double* Binv = w->Binv;
  if (v < n) {
    for (int i = 0; i < n; i++) a[i] = Binv[i + (size_t)v * n];
  } else if (v < 2 * n) {
    const double* m = M + (size_t)(v - n) * n;
    for (int i = 0; i < n; i++) a[i] = 0.0;
    for (int k = 0; k < n; k++) {
      double mk = m[k];
      if (mk == 0.0) continue;
      const double* bk = Binv + (size_t)k * n;
      for (int i = 0; i < n; i++) a[i] -= bk[i] * mk;
    }
  } else {
    for (int i = 0; i < n; i++) a[i] = 0.0;
    for (int k = 0; k < n; k++) {
      const double* bk = Binv + (size_t)k * n;
      double dk = w->dcov[k];
      for (int i = 0; i < n; i++) a[i] -= bk[i] * dk;
    }
  }
  for (int p = 0; p < w->neta; p++) eta_apply(n, w, p, a);
}

/* r = q - B x, with B's columns taken from the basic variables */
static void basis_residual(int n, const double* M, const double* dcov, const double* q,
                           const int* basis, const double* x, double* r) {
  for (int i = 0; i < n; i++) r[i] = q[i];
  for (int j = 0; j < n; j++) {
    int v = basis[j];
    double xj = x[j];
    if (xj == 0.0) continue;
    if (v < n) {
      r[v] -= xj;
    } else if (v < 2 * n) {
      const double* m = M + (size_t)(v - n) * n;
      for (int i = 0; i < n; i++) r[i] += m[i] * xj;
    } else {
      for (int i = 0; i < n; i++) r[i] += dcov[i] * xj;
    }
  }
}

/* x += B^-1 (q - B x) */
static void refine(int n, const double* M, const double* q, sc_lemke_work* w) {
  flush(n, w);
  basis_residual(n, M, w->dcov, q, w->basis, w->x, w->r);
  for (int k = 0; k < n; k++) {
    double rk = w->r[k];
    if (rk == 0.0) continue;
    const double* bk = w->Binv + (size_t)k * n;
    for (int i = 0; i < n; i++) w->x[i] += bk[i] * rk;
  }
}

static int cancelled(const sc_lemke_work* w) { return w->cancel && *w->cancel; }

/* y = B^-1 y with the factors of lu_factor_blocked (ipiv 1-based, LAPACK's) */
static void lu_solve(int k, const double* B, const int* ipiv, double* y) {
  for (int c = 0; c < k; c++) {
    int p = ipiv[c] - 1;
    if (p != c) {
      double t = y[c];
      y[c] = y[p];
      y[p] = t;
    }
  }
  for (int c = 0; c < k; c++) {
    double yc = y[c];
    if (yc == 0.0) continue;
    for (int i = c + 1; i < k; i++) y[i] -= B[i + (size_t)c * k] * yc;
  }
  for (int c = k - 1; c >= 0; c--) {
    y[c] /= B[c + (size_t)c * k];
    double yc = y[c];
    if (yc == 0.0) continue;
    for (int i = 0; i < c; i++) y[i] -= B[i + (size_t)c * k] * yc;
  }
}

/* For the basic variable of row j when it is not a w: M e_i when it is
 * z_i, d when it is z0 -- its column of B negated (callers negate) */
static const double* basis_col(int n, const double* M, const sc_lemke_work* w, int j) {
  const int v = w->basis[j];
  return v < 2 * n ? M + (size_t)(v - n) * n : w->dcov;
}

/* In-place LU with partial pivoting P C = L U of the k x k column-major C
 * by LAPACK's blocked getrf: the k^3 work of the warm start, principal
 * pivoting and re-inversion in cache-sized blocks (k ~ n/2 on a settled
 * pile, where unblocked loops ran at memory speed).  Returns 1, 0 when a
 * pivot is below tol (numerically singular; C is then garbage), or -1
 * when the cancel flag was seen (polled around the call, which cannot be
 * interrupted).  ipiv: the row swaps, LAPACK's (1-based), as lu_solve
 * and sc_la_lu_inverse read them. */
static int lu_factor_blocked(int k, double* C, int* ipiv, double tol, const sc_lemke_work* w) {
  if (cancelled(w)) return -1;
  if (sc_la_lu_factor(k, C, k, ipiv) < 0) return 0;
  for (int c = 0; c < k; c++)
    if (!(fabs(C[c + (size_t)c * k]) > tol)) return 0;
  return cancelled(w) ? -1 : 1;
}

/* Recompute B^-1 from the basis.  B's columns are unit vectors e_i for the
 * basic w_i and, for the k basic z_j and z0, C (n x k: -M e_j, -d).  With
 * T the k rows whose w is not basic and W the others, B y = b reads
 *     C_T y_C = b_T,   y_{w_i} = b_i - (C y_C)_i  (i in W),
 * so B^-1 needs the k x k inverse X = C_T^-1 and the product C_W X: about
 * k^3 + n k^2 multiply-adds, both in LAPACK's and the BLAS's blocked
 * kernels (getrf + getri, then one gemm on C_W gathered into a contiguous
 * block), where an LU of B and n solves with it took about n^3.  On a
 * settled pile k ~ n/6 .. n/3 (three basic z per contact of 4 .. 16 cone
 * edges), and the product looped over scattered rows ran at memory speed:
 * half of a step's time (clutter 125, 16 edges, 7 000 rows).  Leaves B^-1
 * untouched (and returns 0) when C_T is numerically singular (a pivot
 * below 1e-14 of max |B|); returns -1 when the cancel flag was seen. */
static int reinvert(int n, const double* M, sc_lemke_work* w) {
  int *trow = w->ties, *cpos = w->cidx, *wrow = w->widx;
  int k = 0, kt = 0, nw = 0;
  for (int j = 0; j < n; j++)
    if (w->basis[j] >= n) cpos[k++] = j;
  for (int i = 0; i < n; i++) {
    if (w->where[i] < 0) trow[kt++] = i;
    else wrow[nw++] = i;
  }
  if (kt != k) return 0; /* not a basis: cannot happen */
  /* scratch w->B: X = C_T (then C_T^-1, k x k), G = C_W (nw x k) and
   * Y = G X (nw x k): k (2n - k) <= n^2 doubles */
  const size_t kk = (size_t)k;
  double* X = w->B;
  double* G = X + kk * kk;
  double* Y = G + (size_t)nw * kk;
  double bmax = nw > 0 ? 1.0 : 0.0;
  for (int b = 0; b < k; b++) {
    const double* c = basis_col(n, M, w, cpos[b]);
    for (int i = 0; i < n; i++) bmax = fmax(bmax, fabs(c[i]));
    for (int a = 0; a < k; a++) X[a + (size_t)b * kk] = -c[trow[a]];
    double* gb = G + (size_t)b * nw;
    for (int l = 0; l < nw; l++) gb[l] = c[wrow[l]];
  }
  if (k > 0) {
    const int f = lu_factor_blocked(k, X, w->perm, 1e-14 * bmax, w);
    if (f <= 0) return f;
    /* B^-1 serves as getri's scratch: it is rewritten below, and getri
     * cannot fail on a U whose pivots passed the bound */
    if (sc_la_lu_inverse(k, X, k, w->perm, w->Binv, (long)n * n) != 0) return 0;
    /* C's columns are -M e_j or -d, so the rows of the basic w get
     * -(C X)_i = +(G X)_i */
    sc_la_gemm(nw, k, k, 1.0, G, nw, X, k, 0.0, Y, nw); /* nw = 0: nothing to do */
    if (cancelled(w)) return -1;
  }
  for (size_t e = 0; e < (size_t)n * n; e++) w->Binv[e] = 0.0;
  for (int l = 0; l < nw; l++) w->Binv[w->where[wrow[l]] + (size_t)wrow[l] * n] = 1.0;
  /* column trow[b] of B^-1: X_{:,b} on the rows of C, Y_{:,b} on the row
   * of each basic w */
  for (int b = 0; b < k; b++) {
    double* cb = w->Binv + (size_t)trow[b] * n;
    const double* xb = X + (size_t)b * kk;
    const double* yb = Y + (size_t)b * nw;
    for (int a = 0; a < k; a++) cb[cpos[a]] = xb[a];
    for (int l = 0; l < nw; l++) cb[w->where[wrow[l]]] = yb[l];
  }
  w->neta = 0; /* B^-1 of the current basis */
  return 1;
}

/* idx = the indices j with in[j] (k of them, ascending) and C = M_SS, the
 * k x k principal submatrix on them (column-major); returns max |M_SS| */
static double gather_principal(int n, const double* M, const unsigned char* in, int* idx,
                               double* C, int* k) {
  int kk = 0;
  for (int j = 0; j < n; j++)
    if (in[j]) idx[kk++] = j;
  double cmax = 0.0;
  for (int b = 0; b < kk; b++) {
    const double* mj = M + (size_t)idx[b] * n;
    double* cb = C + (size_t)b * kk;
    for (int a = 0; a < kk; a++) {
      cb[a] = mj[idx[a]];
      cmax = fmax(cmax, fabs(cb[a]));
    }
  }
  *k = kk;
  return cmax;
}

/* Pivot on row r with entering column a: the entering variable takes row
 * r.  x is updated at once, B^-1 when NETA pivots are pending (flush). */
static void pivot(int n, sc_lemke_work* w, int r, int entering) {
  const double* a = w->a;
  double piv = a[r];
  double xr = w->x[r] / piv;
  for (int i = 0; i < n; i++) w->x[i] -= a[i] * xr;
  w->x[r] = xr;
  double* e = w->eta + (size_t)w->neta * n;
  for (int i = 0; i < n; i++) e[i] = a[i];
  w->eta_r[w->neta++] = r;
  if (w->neta >= w->eta_max) flush(n, w);
  w->where[w->basis[r]] = -1;
  w->basis[r] = entering;
  w->where[entering] = r;
}

/* Among rows ties[0..nt), keep the lexicographic minimum of B^-1 row / |a_i|,
 * one column at a time; returns the chosen row. */
static int lex_min(int n, sc_lemke_work* w, int* ties, int nt) {
  if (nt > 1) flush(n, w);
  for (int k = 0; k < n && nt > 1; k++) {
    const double* bk = w->Binv + (size_t)k * n;
    double vmin = INFINITY, vmax = 0.0;
    for (int t = 0; t < nt; t++) {
      int i = ties[t];
      double v = bk[i] / fabs(w->a[i]);
      vmin = fmin(vmin, v);
      vmax = fmax(vmax, fabs(v));
    }
    double tol = EPS_LEX * vmax;
    int m = 0;
    for (int t = 0; t < nt; t++) {
      int i = ties[t];
      if (bk[i] / fabs(w->a[i]) - vmin <= tol) ties[m++] = i;
    }
    nt = m;
  }
  return ties[0];
}

static int all_finite(int n, const double* x) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

static void extract_z(int n, const sc_lemke_work* w, double* z) {
  for (int j = 0; j < n; j++) {
    int r = w->where[n + j];
    z[j] = r >= 0 ? w->x[r] : 0.0;
  }
}

/* z from a complementary basis; basic values that round-off left slightly
 * negative (relative to the z scale sz) are zero */
static sc_solve_status read_z(int n, const sc_lemke_work* w, double sz, double* z) {
  extract_z(n, w, z);
  for (int j = 0; j < n; j++) {
    if (!isfinite(z[j])) return SC_SOLVE_NAN;
    if (z[j] < 0.0 && z[j] >= -EPS_TIE * 1e3 * sz) z[j] = 0.0;
  }
  return SC_SOLVE_OK;
}

/* One run of Lemke's method with pivot tolerance eps_piv and covering
 * vector `cover` (q has a negative entry, data finite); sq = ||q||_inf,
 * sm = max |M_ij|. */
static sc_solve_status lemke_run(int n, const double* M, const double* q, double sq, double sm,
                                 double eps_piv, int cover, const unsigned char* start, double* z,
                                 int max_pivots, sc_lemke_work* w, int* pivots) {
  int npiv = 0;
  *pivots = 0;
  w->neta = 0;
  for (int i = 0; i < n; i++) z[i] = 0.0;

  /* variable scales for the tolerances */
  double sz = sm > 0.0 ? sq / sm : sq;
  for (int i = 0; i < n; i++) {
    w->scale[i] = sq;
    w->scale[n + i] = sz;
  }
  w->scale[2 * n] = sq;

  if (!start) {
    /* d = 1, or 1 + (fractional part of i times the golden ratio) / 2 in
     * [1, 1.5): a different path through the same LCP */
    for (int i = 0; i < n; i++)
      w->dcov[i] = cover ? 1.0 + 0.5 * fmod(0.6180339887498949 * (i + 1), 1.0) : 1.0;
    /* basis {w}, B = I, x = q */
    for (size_t i = 0; i < (size_t)n * n; i++) w->Binv[i] = 0.0;
    for (int i = 0; i < n; i++) {
      w->Binv[i + (size_t)i * n] = 1.0;
      w->x[i] = q[i];
      w->basis[i] = i;
      w->where[i] = i;
      w->where[n + i] = -1;
    }
    w->where[2 * n] = -1;
  } else {
    /* warm start: the complementary basis with z_i basic where start[i],
     * and the covering vector d = B 1, so that B^-1 (-d) = -1 and z0
     * enters exactly as from B = I (Lemke's method in the coordinates of
     * the guessed basis) */
    for (int i = 0; i <= 2 * n; i++) w->where[i] = -1;
    for (int i = 0; i < n; i++) {
      w->basis[i] = start[i] ? n + i : i;
      w->where[w->basis[i]] = i;
      w->dcov[i] = start[i] ? 0.0 : 1.0;
    }
    for (int j = 0; j < n; j++)
      if (start[j]) {
        const double* mj = M + (size_t)j * n;
        for (int i = 0; i < n; i++) w->dcov[i] -= mj[i];
      }
    /* B = [e_T, -M_{:,S}]: reinvert's C_T is -M_SS, one k x k inverse */
    int inv = reinvert(n, M, w);
    if (inv < 0) return SC_SOLVE_CANCELLED;
    if (inv == 0) return SC_SOLVE_MAXIT; /* the guessed basis is singular */
    for (int i = 0; i < n; i++) w->x[i] = 0.0;
    refine(n, M, q, w); /* x = B^-1 q */
    refine(n, M, q, w);
  }
  uint64_t hash = 0;
  for (int i = 0; i < n; i++) hash ^= var_key(w->basis[i]);
  int nhist = 0;

  /* first pivot: z0 enters (a = B^-1 (-d) = -d from B = I, -1 from a warm
   * basis), the row with the lexicographically smallest (x_i, B^-1 row
   * i) / -a_i leaves */
  int entering = 2 * n;
  entering_column(n, M, w, entering, w->a);
  double qmin = INFINITY;
  for (int i = 0; i < n; i++)
    if (-w->a[i] > 0.0) qmin = fmin(qmin, w->x[i] / -w->a[i]);
  if (qmin >= 0.0 && start) {
    /* the guessed basis is already feasible: a solution */
    *pivots = 0;
    return read_z(n, w, sz, z);
  }
  int nt = 0;
  for (int i = 0; i < n; i++)
    if (-w->a[i] > 0.0 && w->x[i] / -w->a[i] - qmin <= EPS_TIE * (fabs(w->x[i]) + sq))
      w->ties[nt++] = i;
  if (nt == 0) return SC_SOLVE_NAN;
  int r = lex_min(n, w, w->ties, nt);
  int refresh = n > 20 ? n : 20;

  for (;;) {
    int leaving = w->basis[r];
    pivot(n, w, r, entering);
    npiv++;
    hash ^= var_key(leaving) ^ var_key(entering);
    if (!isfinite(w->x[r]) || !isfinite(w->a[r])) {
      extract_z(n, w, z);
      *pivots = npiv;
      return SC_SOLVE_NAN;
    }
    if (leaving == 2 * n) break;

    /* a repeated almost-complementary basis means the path cycles */
    int lim = nhist < w->hist_cap ? nhist : w->hist_cap;
    for (int h = 0; h < lim; h++)
      if (w->hist[h] == hash) {
        extract_z(n, w, z);
        *pivots = npiv;
        return SC_SOLVE_CYCLE;
      }
    w->hist[nhist % w->hist_cap] = hash;
    nhist++;

    if (npiv >= max_pivots) {
      extract_z(n, w, z);
      *pivots = npiv;
      return SC_SOLVE_MAXIT;
    }
    int inv = npiv % refresh == 0 ? reinvert(n, M, w) : 0;
    if (inv < 0 || (w->cancel && npiv % CANCEL_EVERY == 0 && *w->cancel)) {
      extract_z(n, w, z);
      *pivots = npiv;
      return SC_SOLVE_CANCELLED;
    }
    if (inv > 0) {
      for (int i = 0; i < n; i++) w->x[i] = 0.0;
      refine(n, M, q, w); /* x = B^-1 q */
      refine(n, M, q, w);
    }

    /* the complement of the leaving variable enters */
    entering = leaving < n ? leaving + n : leaving - n;
    entering_column(n, M, w, entering, w->a);
    double se = w->scale[entering], amax = 0.0;
    for (int i = 0; i < n; i++) amax = fmax(amax, fabs(w->a[i]) * se / w->scale[w->basis[i]]);
    double theta = INFINITY;
    int ncand = 0;
    for (int i = 0; i < n; i++) {
      double ai = w->a[i];
      if (ai * se / w->scale[w->basis[i]] > eps_piv * amax) {
        w->ties[ncand++] = i;
        theta = fmin(theta, fmax(w->x[i], 0.0) / ai);
      }
    }
    if (ncand == 0) {
      extract_z(n, w, z);
      *pivots = npiv;
      return SC_SOLVE_RAY;
    }
    if (!isfinite(theta)) {
      extract_z(n, w, z);
      *pivots = npiv;
      return SC_SOLVE_NAN;
    }
    /* rows reaching the minimum ratio; z0 among them finishes the path */
    nt = 0;
    r = -1;
    for (int c = 0; c < ncand; c++) {
      int i = w->ties[c];
      double xi = fmax(w->x[i], 0.0);
      if (xi - theta * w->a[i] <= EPS_TIE * (xi + w->scale[w->basis[i]])) {
        if (w->basis[i] == 2 * n) r = i;
        w->ties[nt++] = i;
      }
    }
    if (r < 0) r = lex_min(n, w, w->ties, nt);
  }

  /* complementary basis: polish x and read z off it */
  refine(n, M, q, w);
  refine(n, M, q, w);
  *pivots = npiv;
  return read_z(n, w, sz, z);
}

/* Second polish of the final complementary basis of lemke_run, for an end
 * point that failed VERIFY_GOOD: B^-1 is recomputed by a fresh LU (the
 * product-form one carries the round-off of every pivot) and x = B^-1 q
 * gets three steps of iterative refinement.  Returns SC_SOLVE_CANCELLED,
 * SC_SOLVE_NAN, or SC_SOLVE_OK with the new z (unchanged when B is singular). */
static sc_solve_status polish_basis(int n, const double* M, const double* q, double sq, double sm,
                                    double* z, sc_lemke_work* w) {
  int inv = reinvert(n, M, w);
  if (inv < 0) return SC_SOLVE_CANCELLED;
  if (inv == 0) return SC_SOLVE_OK;
  for (int i = 0; i < n; i++) w->x[i] = 0.0;
  refine(n, M, q, w);
  refine(n, M, q, w);
  refine(n, M, q, w);
  return read_z(n, w, sm > 0.0 ? sq / sm : sq, z);
}

/* Scale-free violation of 0 <= z _|_ Mz + q >= 0:
 * max_i max(-w_i/s_w, -z_i/s_z, |w_i z_i|/(s_w s_z)), s_w = ||q||_inf,
 * s_z = ||z||_inf (1 when z = 0). */
static double lcp_violation(int n, const double* M, const double* q, const double* z,
                            double sq, double* wbuf) {
  double sz = 0.0, e = 0.0;
  for (int i = 0; i < n; i++) {
    wbuf[i] = q[i];
    sz = fmax(sz, fabs(z[i]));
  }
  for (int j = 0; j < n; j++)
    if (z[j] != 0.0)
      for (int i = 0; i < n; i++) wbuf[i] += M[i + (size_t)j * n] * z[j];
  if (sz == 0.0) sz = 1.0;
  for (int i = 0; i < n; i++) {
    e = fmax(e, fmax(-wbuf[i] / sq, -z[i] / sz));
    e = fmax(e, fabs(wbuf[i] * z[i]) / (sq * sz));
  }
  return isfinite(e) ? e : (double)INFINITY;
}

/* Principal pivoting from a set S of indices guessed to have z basic (flags
 * in[], updated in place).  The complementary basis {z_S, w_not S} gives
 *     M_SS z_S = -q_S,   z_j = 0 (j not in S),   w = M z + q,
 * a solution when z_S >= 0 and w >= 0.  Otherwise every index that
 * violates it changes sides (z_j < 0 leaves S, w_j < 0 joins it: block
 * principal pivoting, Judice & Pires 1994), all at once while the number
 * of violations falls, and one at a time (the most violated) after
 * STALL_ROUNDS rounds without progress or when exchanging several at once
 * made M_SS singular (the last set is restored first).  That ends for a P-matrix;
 * for the contact LCP it need not, so the rounds are capped and a result
 * counts only when it passes the end-point check (viol <= PP_ACCEPT).
 * Each round is one LU of M_SS with partial pivoting (a pivot below 1e-13
 * of max |M_SS| ends it: S is not a basis) plus one step of iterative
 * refinement against M.  Returns SC_SOLVE_OK with z (n) solving the LCP,
 * SC_SOLVE_MAXIT (no verified solution: round cap or singular M_SS; z is
 * then meaningless), or SC_SOLVE_CANCELLED.  *rounds (>= 0) counts the
 * factorizations.  At most PP_ROUNDS per start and PP_BUDGET per sc_lemke
 * call (the pivot cap bounds Lemke's pivots only). */
#define PP_ROUNDS 12
#define PP_BUDGET 36
#define STALL_ROUNDS 3
/* Violations below PP_FLIP are the round-off of the complementary solve,
 * not a wrong side: with rigid stiction M_SS is ill-conditioned, and on
 * settled clutter piles (1 500-row LCPs) the resting contacts' unused edge
 * rows come out at w ~ -1e-9..-1e-7 relative, dozens of them; exchanging
 * them makes M_SS singular.  PP_ACCEPT ends the search; 1e-6 (VERIFY_OK)
 * stays the guarantee. */
#define PP_FLIP 1e-7
#define PP_ACCEPT 1e-7
#define PP_SINGLE_MAX 8 /* one-at-a-time exchanges only this close to a solution */
static sc_solve_status principal_pivot(int n, const double* M, const double* q, double sq,
                                       unsigned char* in, double* z, sc_lemke_work* w,
                                       int max_rounds, int* rounds) {
  double* C = w->B;
  double* y = w->a;
  double* wv = w->r;
  int* idx = w->ties;
  unsigned char* prev = w->inbest + w->n_max + 1; /* the set of the last round */
  int best_cnt = n + 1, stall = 0, single = 0, last_cnt = n + 1;
  *rounds = 0;
  for (int round = 0; round < PP_ROUNDS && round < max_rounds; round++) {
    int k = 0;
    const double cmax = gather_principal(n, M, in, idx, C, &k);
    for (int j = 0; j < n; j++) z[j] = 0.0;
    if (k > 0) {
      ++*rounds;
      int f = lu_factor_blocked(k, C, w->perm, 1e-13 * cmax, w);
      if (f < 0) return SC_SOLVE_CANCELLED;
      if (f == 0) {
        /* exchanging several indices at once made S singular (e.g. every
         * violated edge of one cone): back to the last set, one at a time */
        if (round == 0 || single || last_cnt > PP_SINGLE_MAX) return SC_SOLVE_MAXIT;
        for (int j = 0; j < n; j++) in[j] = prev[j];
        single = 1;
        continue;
      }
      for (int a = 0; a < k; a++) y[a] = -q[idx[a]];
      lu_solve(k, C, w->perm, y);
      for (int a = 0; a < k; a++) z[idx[a]] = y[a];
      /* one step of iterative refinement against M itself */
      for (int a = 0; a < k; a++) y[a] = -q[idx[a]];
      for (int b = 0; b < k; b++) {
        const double* mj = M + (size_t)idx[b] * n;
        double zb = z[idx[b]];
        for (int a = 0; a < k; a++) y[a] -= mj[idx[a]] * zb;
      }
      lu_solve(k, C, w->perm, y);
      for (int a = 0; a < k; a++) z[idx[a]] += y[a];
      if (!all_finite(k, y)) return SC_SOLVE_MAXIT;
    }
    for (int i = 0; i < n; i++) wv[i] = q[i];
    double sz = 0.0;
    for (int b = 0; b < k; b++) {
      const double* mj = M + (size_t)idx[b] * n;
      double zb = z[idx[b]];
      sz = fmax(sz, fabs(zb));
      for (int i = 0; i < n; i++) wv[i] += mj[i] * zb;
    }
    if (sz == 0.0) sz = 1.0;
    int cnt = 0, worst = -1;
    double vworst = 0.0;
    for (int j = 0; j < n; j++) {
      double v = in[j] ? -z[j] / sz : -wv[j] / sq;
      if (v > PP_FLIP) {
        cnt++;
        if (v > vworst) vworst = v, worst = j;
      }
    }
    if (cnt == 0) {
      /* round-off negatives below PP_FLIP are zeros */
      for (int j = 0; j < n; j++) z[j] = fmax(z[j], 0.0);
      return lcp_violation(n, M, q, z, sq, w->r) <= PP_ACCEPT ? SC_SOLVE_OK : SC_SOLVE_MAXIT;
    }
    last_cnt = cnt;
    if (cnt < best_cnt) {
      best_cnt = cnt;
      stall = 0;
    } else {
      stall++;
    }
    for (int j = 0; j < n; j++) prev[j] = in[j];
    if ((stall >= STALL_ROUNDS || single) && cnt > PP_SINGLE_MAX) return SC_SOLVE_MAXIT;
    if (stall < STALL_ROUNDS && !single) {
      for (int j = 0; j < n; j++)
        if (in[j] ? -z[j] > PP_FLIP * sz : -wv[j] > PP_FLIP * sq) in[j] = !in[j];
    } else {
      in[worst] = !in[worst];
    }
  }
  return SC_SOLVE_MAXIT;
}

/* 2^round(log2 x) for x > 0: scaling by it is exact in binary floating point */
static double pow2_near(double x) {
  int e;
  double f = frexp(x, &e); /* x = f 2^e, f in [0.5, 1) */
  return ldexp(1.0, f < 0.7071067811865476 ? e - 1 : e);
}

/* scale factor of a row or column of max-norm r: 1 inside [1/16, 16] (a
 * well-scaled LCP is left exactly as it is, pivot path included), else the
 * power of two nearest 1/sqrt(r) */
static double ruiz_factor(double r) {
  return (r > 0.0 && (r > 16.0 || r < 0.0625)) ? pow2_near(1.0 / sqrt(r)) : 1.0;
}

/* Ruiz equilibration: rs, cs (powers of two) such that diag(rs) M diag(cs)
 * has every non-zero row and column of max-norm within [1/16, 16] (a few
 * sweeps; zero rows and columns keep scale 1). */
static void equilibrate(int n, const double* M, double* Ms, sc_lemke_work* w) {
  double *rs = w->rs, *cs = w->cs;
  for (int i = 0; i < n; i++) rs[i] = cs[i] = 1.0;
  if (Ms != M)
    for (size_t i = 0; i < (size_t)n * n; i++) Ms[i] = M[i];
  for (int it = 0; it < 8; it++) {
    int changed = 0;
    for (int i = 0; i < n; i++) w->r[i] = 0.0;
    for (int j = 0; j < n; j++) {
      double cmax = 0.0;
      const double* mj = Ms + (size_t)j * n;
      for (int i = 0; i < n; i++) {
        double a = fabs(mj[i]);
        cmax = fmax(cmax, a);
        w->r[i] = fmax(w->r[i], a);
      }
      w->x[j] = cmax;
    }
    for (int i = 0; i < n; i++) {
      double f = ruiz_factor(w->r[i]);
      w->a[i] = f;
      rs[i] *= f;
      if (f != 1.0) changed = 1;
    }
    for (int j = 0; j < n; j++) {
      double f = ruiz_factor(w->x[j]);
      cs[j] *= f;
      if (f != 1.0) changed = 1;
      double* mj = Ms + (size_t)j * n;
      for (int i = 0; i < n; i++) mj[i] *= w->a[i] * f;
    }
    if (!changed) break;
  }
}

/* keep z (and its basic set in[]) when its violation e beats the best so far */
static void keep_best(int n, sc_lemke_work* w, double e, const double* z, const unsigned char* in,
                      double* best) {
  if (!(e < *best)) return;
  *best = e;
  for (int i = 0; i < n; i++) {
    w->zbest[i] = z[i];
    w->inbest[i] = in[i];
  }
}

/* The solve behind sc_lemke_from and sc_lemke_from_inplace: M_in is
 * equilibrated into Mw (Mw == M_in: in place, *scaled set once it is) */
static sc_solve_status lemke_solve(int n, const double* M_in, double* Mw, const double* q_in,
                                   double* z, int max_pivots, sc_lemke_work* w, int* pivots,
                                   const unsigned char* guess, unsigned char* basic,
                                   int* scaled);

sc_solve_status sc_lemke(int n, const double* M_in, const double* q_in, double* z,
                         int max_pivots, sc_lemke_work* w, int* pivots) {
  return sc_lemke_from(n, M_in, q_in, z, max_pivots, w, pivots, NULL, NULL);
}

sc_solve_status sc_lemke_from(int n, const double* M_in, const double* q_in, double* z,
                              int max_pivots, sc_lemke_work* w, int* pivots,
                              const unsigned char* guess, unsigned char* basic) {
  int scaled = 0;
  if (w && !w->Ms) {
    if (pivots) *pivots = 0;
    return SC_SOLVE_CAPACITY; /* a workspace of sc_lemke_work_create_inplace */
  }
  return lemke_solve(n, M_in, w ? w->Ms : NULL, q_in, z, max_pivots, w, pivots, guess, basic,
                     &scaled);
}

sc_solve_status sc_lemke_from_inplace(int n, double* M, const double* q, double* z,
                                      int max_pivots, sc_lemke_work* w, int* pivots,
                                      const unsigned char* guess, unsigned char* basic) {
  int scaled = 0;
  sc_solve_status st = lemke_solve(n, M, M, q, z, max_pivots, w, pivots, guess, basic, &scaled);
  if (scaled)
    /* undo diag(rs) M diag(cs): powers of two, so M is restored exactly */
    for (int j = 0; j < n; j++) {
      double* mj = M + (size_t)j * n;
      for (int i = 0; i < n; i++) mj[i] /= w->rs[i] * w->cs[j];
    }
  return st;
}

static sc_solve_status lemke_solve(int n, const double* M_in, double* Mw, const double* q_in,
                                   double* z, int max_pivots, sc_lemke_work* w, int* pivots,
                                   const unsigned char* guess, unsigned char* basic,
                                   int* scaled) {
  if (pivots) *pivots = 0;
  if (basic)
    for (int i = 0; i < n; i++) basic[i] = 0;
  if (n < 0 || !w || n > w->n_max) return SC_SOLVE_CAPACITY;
  if (!all_finite(n, q_in) || !all_finite(n * n, M_in)) return SC_SOLVE_NAN;
  for (int i = 0; i < n; i++) z[i] = 0.0;

  /* trivial exit: z = 0, w = q >= 0 */
  int qneg = 0;
  for (int i = 0; i < n; i++)
    if (q_in[i] < 0.0) qneg = 1;
  if (!qneg) return SC_SOLVE_OK;

  /* solve the equilibrated LCP diag(rs) M diag(cs) zs + diag(rs) q, whose
   * solutions are zs = diag(cs)^-1 z: the signs and the zero pattern of z
   * and w are unchanged by positive diagonal scalings */
  equilibrate(n, M_in, Mw, w);
  *scaled = 1;
  const double* M = Mw;
  double* q = w->qs;
  double sq = 0.0, sm = 0.0;
  for (int i = 0; i < n; i++) {
    q[i] = w->rs[i] * q_in[i];
    sq = fmax(sq, fabs(q[i]));
  }
  for (size_t i = 0; i < (size_t)n * n; i++) sm = fmax(sm, fabs(M[i]));
  if (max_pivots <= 0) max_pivots = 20 * n + 100;
  /* z = 0 already passes the end-point check: q's only negative entries
   * are round-off (a contact at rest has tangential q ~ -1e-16 beside
   * q_n ~ 1e-3, all its own when the LCP is one island).  Lemke would
   * pivot on that noise, where every attempt can end on a false ray. */
  double qlow = 0.0;
  for (int i = 0; i < n; i++) qlow = fmax(qlow, -q[i]);
  if (qlow <= VERIFY_GOOD * sq) return SC_SOLVE_OK;

  int total = 0, had_end = 0, pp_used = 0, found = 0; /* total: pivots and rounds; pp_used: rounds */
  double best = INFINITY;
  sc_solve_status st = SC_SOLVE_OK;

  /* a guessed basis (e.g. the previous time step's): principal pivoting
   * from it, before any Lemke path */
  if (guess) {
    int rounds = 0;
    for (int i = 0; i < n; i++) w->in[i] = guess[i] != 0;
    st = principal_pivot(n, M, q, sq, w->in, w->zpp, w, PP_BUDGET, &rounds);
    total += rounds;
    pp_used += rounds;
    if (st == SC_SOLVE_CANCELLED) {
      if (pivots) *pivots = total;
      return st;
    }
    if (st == SC_SOLVE_OK) {
      keep_best(n, w, lcp_violation(n, M, q, w->zpp, sq, w->r), w->zpp, w->in, &best);
      found = 1;
    }
  }

  /* attempts with growing pivot tolerance; keep the most accurate end point.
   * With a guess, attempt -1 is Lemke's method from the guessed basis,
   * with at most max(WARM_PIVOTS, n) pivots of the budget. */
  for (int k = guess ? -1 : 0; k < NATTEMPT && !found; k++) {
    int piv = 0, budget = max_pivots - (total - pp_used);
    if (k < 0) {
      const int warm = n > WARM_PIVOTS ? n : WARM_PIVOTS;
      if (budget > warm) budget = warm;
      for (int i = 0; i < n; i++) w->in[i] = guess[i] != 0;
    }
    st = lemke_run(n, M, q, sq, sm, attempts[k < 0 ? 0 : k].eps_piv,
                   k < 0 ? 0 : attempts[k].cover, k < 0 ? w->in : NULL, z, budget, w, &piv);
    total += piv;
    if (st == SC_SOLVE_CANCELLED) break;
    if (k < 0 && piv == 0 && st != SC_SOLVE_OK) {
      /* the guessed basis is singular: its principal pivoting already ran */
      st = SC_SOLVE_OK;
      continue;
    }
    double e = INFINITY;
    if (st == SC_SOLVE_OK) {
      had_end = 1;
      e = lcp_violation(n, M, q, z, sq, w->r);
      if (e > VERIFY_GOOD) {
        st = polish_basis(n, M, q, sq, sm, z, w);
        if (st == SC_SOLVE_CANCELLED) break;
        e = st == SC_SOLVE_OK ? lcp_violation(n, M, q, z, sq, w->r) : (double)INFINITY;
      }
    } else if (all_finite(n, z)) {
      /* a path that ended on a ray, a cycle or the pivot cap may still
       * stand next to a solution (z0 ~ round-off): the check decides */
      e = lcp_violation(n, M, q, z, sq, w->r);
    }
    for (int i = 0; i < n; i++) w->in[i] = w->where[n + i] >= 0;
    keep_best(n, w, e, z, w->in, &best);
    found = best <= VERIFY_GOOD;
    if (!found && isfinite(e)) {
      /* principal pivoting from this end point's basic z: the complementary
       * system solved afresh, and the indices it violates exchanged.  A
       * path that did not end complementary (z0 still basic) lacks both
       * variables of one index; its z joins the set (with w instead, the
       * rigid-stiction clutter LCPs that end on false rays give a
       * singular M_SS). */
      for (int i = 0; i < n; i++)
        if (w->where[i] < 0 && w->where[n + i] < 0) w->in[i] = 1;
      int rounds = 0;
      sc_solve_status ps =
          principal_pivot(n, M, q, sq, w->in, w->zpp, w, PP_BUDGET - pp_used, &rounds);
      total += rounds;
      pp_used += rounds;
      if (ps == SC_SOLVE_CANCELLED) {
        st = ps;
        break;
      }
      if (ps == SC_SOLVE_OK) {
        keep_best(n, w, lcp_violation(n, M, q, w->zpp, sq, w->r), w->zpp, w->in, &best);
        found = 1;
      }
    }
    if (k < 0) {
      /* the warm path's failures are its own: the cold attempts follow */
      if (st != SC_SOLVE_CANCELLED) st = SC_SOLVE_OK;
      continue;
    }
    if (st == SC_SOLVE_MAXIT || total - pp_used >= max_pivots) break;
  }
  if (pivots) *pivots = total;
  if (st == SC_SOLVE_CANCELLED) {
    for (int i = 0; i < n; i++) z[i] *= w->cs[i];
    return st;
  }
  if (best <= VERIFY_OK) {
    st = SC_SOLVE_OK;
    for (int i = 0; i < n; i++) z[i] = w->zbest[i];
    if (basic)
      for (int i = 0; i < n; i++) basic[i] = w->inbest[i];
  } else if (st == SC_SOLVE_OK || (had_end && st != SC_SOLVE_MAXIT)) {
    /* an end point that fails the check is a numerical breakdown */
    st = SC_SOLVE_INACCURATE;
    for (int i = 0; i < n; i++) z[i] = w->zbest[i];
  }
  for (int i = 0; i < n; i++) z[i] *= w->cs[i];
  return st;
}
