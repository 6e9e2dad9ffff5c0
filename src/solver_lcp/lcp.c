/* lcp: the Stewart-Trinkle / Anitescu-Potra contact LCP with a polyhedral
 * friction cone, solved by Lemke's algorithm (lemke.c).
 *
 * Sources: D. Stewart & J. Trinkle, "An implicit time-stepping scheme for
 * rigid body dynamics with inelastic collisions and Coulomb friction", IJNME
 * 1996; M. Anitescu & F. Potra, "Formulating dynamic multi-rigid-body contact
 * problems with friction as solvable linear complementarity problems",
 * Nonlinear Dynamics 1997; doc/contact.md section 11.  The normal law is the
 * compliant one of the convex solver: each contact's R_n and vhat_n as the
 * contact stage sets them (doc/contact.md 4.1, 4.2); a restitution impact
 * (4.7) arrives as a rigid row whose vhat_n is its target velocity
 * v_r = e u + (1 - s) dv, so its row w_n = vc_n - v_r + R_n gamma_n is the
 * shifted complementarity vc_n >= v_r _|_ gamma_n >= 0 in the limit R_n -> 0.
 *
 * Variables.  v (nv) next-step generalized velocities; per contact i (frame
 * rows t1, t2, n of J_i) with d = `directions` cone edges
 *     d_k = (cos 2 pi k/d, sin 2 pi k/d),  k = 0..d-1, in the tangent plane,
 * the unknowns  gamma_n >= 0 (normal impulse, N s), beta in R^d >= 0 (edge
 * impulses, N s) and lambda >= 0 (a slip-speed bound, m/s).  The tangential
 * impulse is gamma_t = sum_k beta_k d_k = D beta.
 *
 * Momentum.  Same free motion v* and matrix A as the convex solver:
 *     A (v - v*) = J^T gamma   =>   v = v* + A^-1 J^T gamma,
 *     vc = J v = J v* + W gamma,   W = J A^-1 J^T  (Delassus, 3nc x 3nc).
 *
 * Rows and complementarity, per contact i:
 *     w_n = vc_n - vhat_n + R_n gamma_n        _|_  gamma_n >= 0
 *     w_b = D^T vc_t + lambda e                _|_  beta    >= 0
 *     w_l = mu gamma_n - e^T beta              _|_  lambda  >= 0
 * R_n = p->R[3i+2] and vhat_n = p->vhat[3i+2] give the compliant normal law
 * gamma_n = (vhat_n - vc_n)_+ / R_n (doc/contact.md 4.1; R_n -> 0: rigid, vc_n >=
 * vhat_n).  The friction rows are maximum dissipation over the polyhedral
 * cone: when sliding (lambda > 0) the total edge impulse is mu gamma_n and
 * only edges with d_k^T vc_t = -lambda, i.e. the ones most opposed to the
 * slip, carry impulse; when sticking (lambda = 0) D^T vc_t >= 0 for all k,
 * which for a cone whose edges positively span the plane (d >= 3) forces
 * vc_t = 0.  There is no tangential regularization (R_t is not used): stiction
 * is rigid.  d = 2 (edges +-t1) is one-dimensional friction along t1 only.
 * A contact with mu_i <= 0 keeps only its gamma_n row.
 *
 * The LCP.  Substituting vc gives 0 <= z _|_ M z + q >= 0 with z stacked per
 * contact as (gamma_n, beta_1..beta_d, lambda) and, with E_i the 3 x (d+2)
 * map z_i -> gamma_i (columns e_n, d_k, 0),
 *     M = E^T W E + diag(R_n on the gamma_n rows)
 *         + per contact [ 0  0   0 ]
 *                       [ 0  0   e ]      rows/cols (gamma_n, beta, lambda)
 *                       [ mu -e^T 0 ]
 *     q = E^T J v* - (vhat_n on the gamma_n rows).
 * M is copositive-plus (PSD part plus a skew-like coupling), so Lemke either
 * solves it or ends on a ray (Anitescu & Potra 1997).  The algorithm, its
 * degeneracy (lexicographic) rule, cycle detection and the accuracy check
 * with reruns are described at the top of lemke.c.
 *
 * Scaling (per contact, Jacobi-like).  The rows mix m/s (w_n, w_b) and
 * N s (w_l), and W's blocks differ by the mass ratios of the bodies.  With
 * c_i = sqrt(mean diag W_ii) (sqrt of m/s per N s; for a box row its one
 * used diagonal entry W_nn) the variables become c_i gamma_n, c_i beta
 * (c_i a, c_i b) and lambda / c_i, the velocity rows are divided by c_i and
 * the w_l row multiplied by c_i.  Positive diagonal scalings of
 * rows and columns that pair up like this do not change the solution set or
 * the products w_i z_i.  The scaled M has W_ij / (c_i c_j) (diagonal blocks
 * O(1)), R_n / c_i^2, and the coupling entries 1, mu, -1 unchanged, which is
 * what Lemke's relative tolerances want.
 *
 * Box rows (sc_problem.kind[i] == SC_ROW_BOX; core/problem.h): joint
 * limits, joint dry friction and servos.  Only the n row of the block is
 * used; with w = vc_n - vhat_n + R_n gamma_n (R_n = p->R[3i+2],
 * vhat_n = p->vhat[3i+2]) the law gamma_n = clamp((vhat_n - vc_n)/R_n,
 * lo, hi), gamma_t = 0, [lo, hi] = p->bound[2i, 2i+1], is
 *     lo < gamma_n < hi  =>  w = 0,   gamma_n = lo  =>  w >= 0,
 *     gamma_n = hi  =>  w <= 0
 * (w is R_n times the distance of gamma_n above the unclamped value
 * (vhat_n - vc_n)/R_n, so its sign says on which side the clamp acts).
 * The block's variables, by which bounds are finite:
 *     lo finite, hi = +inf:  gamma_n = lo + a,  w_a = w          _|_ a >= 0
 *     lo = -inf, hi finite:  gamma_n = hi - b,  w_b = -w         _|_ b >= 0
 *     both finite, lo < hi:  gamma_n = lo + a,  w_a = w + lambda _|_ a >= 0,
 *                            w_l = (hi - lo) - a _|_ lambda >= 0
 *     lo == hi:              gamma_n = lo, no variable
 *     both infinite:         gamma_n = a - b,   w_a = w  _|_ a >= 0,
 *                                               w_b = -w _|_ b >= 0
 * Each is the law above, both ways: one-sided, a = 0 gives w >= 0 and
 * a > 0 gives w = 0 (b alike with -w), and a law's gamma_n gives a =
 * gamma_n - lo >= 0; two-sided, lambda > 0 forces a = hi - lo and w =
 * -lambda < 0, while a < hi - lo forces lambda = 0 (w >= 0 at a = 0, w = 0
 * between), and w_l >= 0 keeps gamma_n <= hi; conversely gamma_n = hi with
 * w <= 0 is a = hi - lo, lambda = -w; free, w >= 0 and -w >= 0 give w = 0
 * for any split a - b (a PSD block [K -K; -K K], K = W_nn + R_n).  lo = 0,
 * hi = inf is exactly the normal row of a frictionless contact.  The box
 * blocks add the coupling [0 1; -1 0] (skew, like the contacts' e, -e^T)
 * and PSD terms to M, so M keeps its class.  The shifts (lo or hi) are
 * constant impulses g0: they enter q through vc0 = J v* + W g0 (every row
 * coupled to the box through W, contacts and boxes alike, sees them) plus
 * R_n g0 on the box's own row, and gamma = g0 + E z at the end.  So for a
 * box block with directions u_a = s_a e_n (a: s = +1, b: s = -1), before
 * the scaling above (which makes them s_a s_b R_n / c_i^2, q_a / c_i and
 * c_i (hi - lo)),
 *     M_ab += s_a s_b R_n,   q_a = s_a (vc0_n - vhat_n + R_n g0_n),
 *     M_al = 1, M_la = -1,   q_l = hi - lo   (two-sided),
 * besides the W terms of E^T W E.  mu, phi0, R_t and rows t1, t2 of a box
 * are not used.  A box block has at most 2 variables, so n <= nc (d + 2)
 * still bounds the LCP (sc_lcp_work_bytes).
 *
 * Far bounds.  Lemke's tolerances and end-point check (lemke.c) are
 * relative to ||q||_inf, and q holds the shifts and widths: a finite bound
 * far beyond the impulses (an effort limit of 1e9 N s "for unbounded")
 * would swamp the rest of q.  On [0, 1e9] Lemke took q_a ~ -0.05 for
 * round-off beside q_l ~ 1e9 and returned gamma_n = 0; on [-1e12, 1e12] the
 * shift lost 1e-3 of gamma_n.  So a first pass leaves out (takes as
 * infinite) every finite bound of a box with lo < hi farther from 0 than
 * FAR_BOUND (1e3) times the impulse scale S = the largest
 * |vc_r - vhat_r| / max(W_rr + R_r, 1e-6 mean W_rr) over the used rows (the
 * impulse that stops one row on its own; with the |lo| of boxes with
 * lo = hi).  If its
 * impulses keep those bounds it is the answer: clamp(x, lo, inf) <= hi
 * equals clamp(x, lo, hi), and alike for lo, so every law holds.  Else
 * (impulses 1e3 times S: rows that fight each other) a second pass solves
 * the LCP with every bound; the pivots of both count, and a pivot cap is
 * one budget for both.  Boxes whose
 * bounds differ between the passes have blocks of other kinds, so their
 * warm-start patterns follow the block of the pass that answered.
 *
 * Residual (stats->residual).  In the scaled problem (where every w_i and
 * z_i has units sqrt(J)), with s = max(||q||_inf, ||z||_inf),
 *     residual = max_i max( |w_i z_i| / s^2,  -w_i / s,  -z_i / s,  0 ),
 * a dimensionless complementarity-and-feasibility error (0 when exact).
 * The q_l = c (hi - lo) entries of two-sided boxes are left out of s: a
 * wide box (hi - lo much larger than the impulses) would otherwise make any
 * error look small; its row's violation a - (hi - lo) is still measured. */
#include "solver_lcp/lcp.h"

#include <math.h>
#include <stdint.h>

#include "core/core.h"
#include "linalg/linalg.h"

struct sc_lcp_work {
  int nv_max, nc_max, dmax, n_max;
  double* L;    /* (nv x nv) Cholesky factor of A */
  double* JT;   /* (nv x 3nc) J^T */
  double* X;    /* (nv x 3nc) A^-1 J^T */
  double* W;    /* (3nc x 3nc) Delassus */
  double* M;    /* (n x n) LCP matrix, n = sum of block sizes */
  double* q;    /* (n) */
  double* z;    /* (n) */
  double* wl;   /* (n) w = M z + q */
  double* vc;   /* (3nc) J v* */
  double* g;    /* (3nc) impulses */
  double* cs;   /* (2 dmax) edge directions (cos, sin) */
  double* sc;   /* (nc) contact scales c_i = sqrt(mean diag W_ii) */
  int* off;     /* (nc + 1) first LCP variable of each contact */
  unsigned char* drop;  /* (nc) box bounds left out of this pass: 1 lo, 2 hi */
  unsigned char* guess; /* (n) basic z guessed from the caller's patterns */
  unsigned char* basic; /* (n) basic z of the solution */
  sc_lemke_work* lemke;
};

size_t sc_lcp_work_bytes(int nv, int nc, int directions) {
  double v = nv, m = 3.0 * nc, n = (double)nc * (directions + 2);
  /* L, J^T, A^-1 J^T, W, M (equilibrated in place) + Lemke's B^-1, B and
   * pending pivot columns, and the vectors */
  double dbl = v * v + 2.0 * v * m + m * m + 3.0 * n * n + (17.0 + SC_LEMKE_ETAS) * n + 4.0 * m +
               2.0 * directions;
  double b = 8.0 * dbl + 4.0 * (8.0 * n + nc) + 8.0 * (2.0 * n + 16) + 4.0 * n + nc + 3.0;
  return b >= 0x1p62 ? (size_t)1 << 62 : (size_t)b;
}

int sc_lcp_capacity(int nv, int nc_max, int directions) {
  return sc_lcp_capacity_within(nv, nc_max, directions, SC_LCP_MAX_BYTES);
}

int sc_lcp_capacity_within(int nv, int nc_max, int directions, size_t max_bytes) {
  if (sc_lcp_work_bytes(nv, nc_max, directions) <= max_bytes) return nc_max;
  int lo = 0, hi = nc_max; /* bytes(lo) fits or lo = 0; bytes(hi) does not */
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (sc_lcp_work_bytes(nv, mid, directions) <= max_bytes) lo = mid;
    else hi = mid;
  }
  return lo > 0 && sc_lcp_work_bytes(nv, lo, directions) <= max_bytes ? lo : 0;
}

sc_lcp_work* sc_lcp_work_create(int nv_max, int nc_max, int directions) {
  if (nv_max < 0 || nc_max < 0 || directions < 2) return NULL;
  sc_lcp_work* w = sc_calloc(1, sizeof *w);
  if (!w) return NULL;
  size_t nv = (size_t)nv_max, m = 3 * (size_t)nc_max;
  size_t n = (size_t)nc_max * (size_t)(directions + 2);
  w->nv_max = nv_max;
  w->nc_max = nc_max;
  w->dmax = directions;
  w->n_max = (int)n;
  w->L = sc_malloc(nv * nv * sizeof(double));
  w->JT = sc_malloc(nv * m * sizeof(double));
  w->X = sc_malloc(nv * m * sizeof(double));
  w->W = sc_malloc(m * m * sizeof(double));
  w->M = sc_malloc(n * n * sizeof(double));
  w->q = sc_malloc(n * sizeof(double));
  w->z = sc_malloc(n * sizeof(double));
  w->wl = sc_malloc(n * sizeof(double));
  w->vc = sc_malloc(m * sizeof(double));
  w->g = sc_malloc(m * sizeof(double));
  w->cs = sc_malloc(2 * (size_t)directions * sizeof(double));
  w->sc = sc_malloc(((size_t)nc_max + 1) * sizeof(double));
  w->off = sc_malloc(((size_t)nc_max + 1) * sizeof(int));
  w->drop = sc_calloc((size_t)nc_max + 1, 1);
  w->guess = sc_malloc(n + 1);
  w->basic = sc_malloc(n + 1);
  w->lemke = sc_lemke_work_create_inplace((int)n);
  if (!w->L || !w->JT || !w->X || !w->W || !w->M || !w->q || !w->z || !w->wl || !w->vc ||
      !w->g || !w->cs || !w->sc || !w->off || !w->drop || !w->guess || !w->basic || !w->lemke) {
    sc_lcp_work_free(w);
    return NULL;
  }
  return w;
}

void sc_lcp_set_cancel(sc_lcp_work* w, const volatile sig_atomic_t* flag) {
  if (w) sc_lemke_set_cancel(w->lemke, flag);
}

void sc_lcp_work_free(void* wp) {
  sc_lcp_work* w = wp;
  if (!w) return;
  sc_free(w->L);
  sc_free(w->JT);
  sc_free(w->X);
  sc_free(w->W);
  sc_free(w->M);
  sc_free(w->q);
  sc_free(w->z);
  sc_free(w->wl);
  sc_free(w->vc);
  sc_free(w->g);
  sc_free(w->cs);
  sc_free(w->sc);
  sc_free(w->off);
  sc_free(w->drop);
  sc_free(w->guess);
  sc_free(w->basic);
  sc_lemke_work_free(w->lemke);
  sc_free(w);
}

static int finite_all(int n, const double* x) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

/* The bounds of box row i as this pass uses them: a bound in w->drop is
 * left out (infinite; header, "Far bounds"). */
static void box_bounds(const sc_problem* p, const sc_lcp_work* w, int i, double* lo, double* hi) {
  *lo = w->drop[i] & 1 ? -(double)INFINITY : p->bound[2 * i];
  *hi = w->drop[i] & 2 ? (double)INFINITY : p->bound[2 * i + 1];
}

/* The kind of entry i's block of LCP variables (header): a contact with
 * friction (gamma_n, beta_1..d, lambda), one without (gamma_n), or a box
 * row by which of its bounds are finite (bounds checked before). */
enum {
  BLK_CONTACT = 0, /* d + 2 variables */
  BLK_NORMAL = 1,  /* mu <= 0: gamma_n */
  BLK_LO = 2,      /* gamma_n = lo + a */
  BLK_HI = 3,      /* gamma_n = hi - b */
  BLK_LOHI = 4,    /* gamma_n = lo + a, lambda */
  BLK_FIXED = 5,   /* gamma_n = lo = hi, no variable */
  BLK_FREE = 6     /* gamma_n = a - b */
};

static int block_kind(const sc_problem* p, const sc_lcp_work* w, int i) {
  if (!sc_problem_is_box(p, i)) return p->mu[i] > 0.0 ? BLK_CONTACT : BLK_NORMAL;
  double lo, hi;
  box_bounds(p, w, i, &lo, &hi);
  if (lo == hi) return BLK_FIXED;
  if (isfinite(lo)) return isfinite(hi) ? BLK_LOHI : BLK_LO;
  return isfinite(hi) ? BLK_HI : BLK_FREE;
}

static int block_size(int kind, int d) {
  static const int size[7] = {0, 1, 1, 1, 2, 0, 2};
  return kind == BLK_CONTACT ? d + 2 : size[kind];
}

/* the constant impulse gamma_n of a box block at z = 0 (its shift) */
static double block_shift(const sc_problem* p, const sc_lcp_work* w, int i, int kind) {
  double lo, hi;
  box_bounds(p, w, i, &lo, &hi);
  if (kind == BLK_LO || kind == BLK_LOHI || kind == BLK_FIXED) return lo;
  if (kind == BLK_HI) return hi;
  return 0.0;
}

/* the velocity direction u (3-vector in the contact frame) a row/column of
 * a block of kind `kind` stands for: for a contact 0 -> normal, 1..d ->
 * edge d_k, d+1 -> lambda (none); for a box +-n (a: +, b: -) or none
 * (lambda) */
static int block_dir(int kind, const double* cs, int d, int a, double u[3]) {
  u[0] = 0.0;
  u[1] = 0.0;
  u[2] = 0.0;
  switch (kind) {
    case BLK_CONTACT:
    case BLK_NORMAL:
      if (a == 0) {
        u[2] = 1.0;
        return 1;
      }
      if (a <= d) {
        u[0] = cs[2 * (a - 1)];
        u[1] = cs[2 * (a - 1) + 1];
        return 1;
      }
      return 0;
    case BLK_LO:
    case BLK_LOHI:
      if (a != 0) return 0; /* lambda */
      u[2] = 1.0;
      return 1;
    case BLK_HI:
      u[2] = -1.0;
      return 1;
    case BLK_FREE:
      u[2] = a == 0 ? 1.0 : -1.0;
      return 1;
    default:
      return 0;
  }
}

static sc_solve_status finish(sc_solve_status st, int pivots, double residual,
                              sc_solver_stats* stats) {
  if (stats) {
    stats->iterations = pivots;
    stats->linesearch_evals = 0;
    stats->residual = residual;
    stats->cost = 0.0;
    stats->status = st;
  }
  return st;
}

sc_solve_status sc_lcp_solve(const sc_problem* p, int directions, int max_pivots,
                             sc_lcp_work* w, double* v, double* gamma, sc_solver_stats* stats) {
  return sc_lcp_solve_from(p, directions, max_pivots, w, NULL, NULL, v, gamma, stats);
}

/* the data entry i uses are finite, and a box row's bounds are an interval
 * lo <= hi, lo < +inf, hi > -inf (a box's rows t1, t2, R_t and mu are not
 * used) */
static int entries_valid(const sc_problem* p) {
  for (int i = 0; i < p->nc; i++) {
    if (!sc_problem_is_box(p, i)) {
      if (!finite_all(3, p->R + 3 * i) || !finite_all(3, p->vhat + 3 * i) || !isfinite(p->mu[i]))
        return 0;
      continue;
    }
    if (!p->bound || !isfinite(p->R[3 * i + 2]) || !isfinite(p->vhat[3 * i + 2])) return 0;
    double lo = p->bound[2 * i], hi = p->bound[2 * i + 1];
    if (!(lo <= hi) || (isinf(lo) && lo > 0.0) || (isinf(hi) && hi < 0.0)) return 0;
  }
  return 1;
}

/* Far bounds: a finite bound of a box row (lo < hi) farther from 0 than
 * FAR_BOUND times the impulse scale of the problem is left out of the
 * first pass (header). */
#define FAR_BOUND 1e3

/* The impulse scale of the problem: the largest impulse that stops one used
 * row on its own, |vc_r - vhat_r| / max(W_rr + R_r, 1e-6 wbar) (R_r on the
 * n rows only; the floor keeps the round-off of a row without mobility,
 * W_rr ~ 1e-19 beside a vc_r ~ 1e-12, out), vc = J v* (in w->vc), and the
 * impulses |lo| of boxes with lo = hi. */
static double impulse_scale(const sc_problem* p, const sc_lcp_work* w, double wbar) {
  const int m = 3 * p->nc;
  double s = 0.0;
  for (int r = 0; r < m; r++) {
    const int i = r / 3, box = sc_problem_is_box(p, i);
    if (box && r % 3 != 2) continue;
    if (box && p->bound[2 * i] == p->bound[2 * i + 1]) {
      s = fmax(s, fabs(p->bound[2 * i]));
      continue;
    }
    double k = fmax(w->W[r + (size_t)r * m] + (r % 3 == 2 ? p->R[r] : 0.0), 1e-6 * wbar);
    double dv = w->vc[r] - (r % 3 == 2 ? p->vhat[r] : 0.0);
    s = fmax(s, fabs(dv) / k);
  }
  return s;
}

/* One LCP of the problem with the bounds of w->drop: from W, the scales and
 * vc = J v* (shifted to vc0 here) to the impulses in w->g.  Returns Lemke's
 * status; the pivots and the residual (header) in *pivots, *res. */
static sc_solve_status solve_pass(const sc_problem* p, int d, int max_pivots, sc_lcp_work* w,
                                  const uint32_t* pat_in, uint32_t* pat_out, int* pivots,
                                  double* res) {
  const int nc = p->nc, m = 3 * nc;
  w->off[0] = 0;
  for (int i = 0; i < nc; i++) w->off[i + 1] = w->off[i] + block_size(block_kind(p, w, i), d);
  const int n = w->off[nc];

  /* the boxes' shifts g0 (in g), and vc0 = J v* + W g0 in vc */
  int shifted = 0;
  for (int i = 0; i < m; i++) w->g[i] = 0.0;
  for (int i = 0; i < nc; i++)
    if (sc_problem_is_box(p, i)) {
      w->g[3 * i + 2] = block_shift(p, w, i, block_kind(p, w, i));
      shifted |= w->g[3 * i + 2] != 0.0;
    }
  if (shifted) sc_la_gemv(m, m, 1.0, w->W, m, w->g, 1.0, w->vc);

  /* M = C^-1 E^T W E C^-1 + coupling, q = C^-1 (E^T vc0 - vhat), with the
   * scaling of the header */
  double* M = w->M;
  for (int j = 0; j < nc; j++) {
    int nbj = w->off[j + 1] - w->off[j], kj = block_kind(p, w, j);
    for (int b = 0; b < nbj; b++) {
      int col = w->off[j] + b;
      double ub[3];
      int hb = block_dir(kj, w->cs, d, b, ub);
      for (int i = 0; i < nc; i++) {
        int nbi = w->off[i + 1] - w->off[i], ki = block_kind(p, w, i);
        for (int a = 0; a < nbi; a++) {
          int row = w->off[i] + a;
          double ua[3], s = 0.0;
          if (hb && block_dir(ki, w->cs, d, a, ua)) {
            for (int r = 0; r < 3; r++) {
              double wr = 0.0;
              for (int c = 0; c < 3; c++) wr += w->W[(3 * i + r) + (size_t)(3 * j + c) * m] * ub[c];
              s += ua[r] * wr;
            }
            s /= w->sc[i] * w->sc[j];
          }
          M[row + (size_t)col * n] = s;
        }
      }
    }
  }
  for (int i = 0; i < nc; i++) {
    int o = w->off[i], kind = block_kind(p, w, i), nb = w->off[i + 1] - o;
    double ci = w->sc[i], Rn = p->R[3 * i + 2];
    if (kind >= BLK_LO) {
      /* a box: w = vc0_n - vhat_n + R_n (g0 + sum_a s_a z_a); row a is s_a w
       * (+ lambda for a two-sided box) */
      double w0 = w->vc[3 * i + 2] - p->vhat[3 * i + 2] + Rn * w->g[3 * i + 2];
      for (int a = 0; a < nb; a++) {
        double ua[3], ub[3];
        if (!block_dir(kind, w->cs, d, a, ua)) continue;
        w->q[o + a] = ua[2] * w0 / ci;
        for (int b = 0; b < nb; b++)
          if (block_dir(kind, w->cs, d, b, ub))
            M[(o + a) + (size_t)(o + b) * n] += ua[2] * ub[2] * Rn / (ci * ci);
      }
      if (kind == BLK_LOHI) {
        double lo, hi;
        box_bounds(p, w, i, &lo, &hi);
        M[o + (size_t)(o + 1) * n] = 1.0;
        M[(o + 1) + (size_t)o * n] = -1.0;
        w->q[o + 1] = ci * (hi - lo);
      }
      continue;
    }
    M[o + (size_t)o * n] += Rn / (ci * ci);
    w->q[o] = (w->vc[3 * i + 2] - p->vhat[3 * i + 2]) / ci;
    if (kind == BLK_NORMAL) continue;
    int ol = o + d + 1; /* lambda */
    for (int k = 0; k < d; k++) {
      int ob = o + 1 + k;
      M[ob + (size_t)ol * n] = 1.0;
      M[ol + (size_t)ob * n] = -1.0;
      w->q[ob] = (w->cs[2 * k] * w->vc[3 * i] + w->cs[2 * k + 1] * w->vc[3 * i + 1]) / ci;
    }
    M[ol + (size_t)o * n] = p->mu[i];
    w->q[ol] = 0.0;
  }

  /* the caller's basic patterns, bit a = variable a of the entry's block */
  if (pat_in)
    for (int i = 0; i < nc; i++)
      for (int a = 0; a < w->off[i + 1] - w->off[i]; a++)
        w->guess[w->off[i] + a] = (pat_in[i] >> a) & 1u;
  *pivots = 0;
  *res = INFINITY;
  sc_solve_status st = SC_SOLVE_OK;
  if (n > 0)
    st = sc_lemke_from_inplace(n, M, w->q, w->z, max_pivots, w->lemke, pivots,
                               pat_in ? w->guess : NULL, pat_out ? w->basic : NULL);
  if (pat_out)
    for (int i = 0; i < nc; i++) {
      uint32_t b = 0;
      for (int a = 0; a < w->off[i + 1] - w->off[i]; a++) b |= (uint32_t)w->basic[w->off[i] + a] << a;
      pat_out[i] = b;
    }
  if (st != SC_SOLVE_OK) return st;

  /* complementarity error in the scaled problem; s leaves out the widths
   * q_l = c (hi - lo) of two-sided boxes (header) */
  for (int i = 0; i < n; i++) w->wl[i] = w->q[i];
  sc_la_gemv(n, n, 1.0, M, n, w->z, 1.0, w->wl);
  double s = 0.0, e = 0.0;
  for (int i = 0; i < n; i++) s = fmax(s, fabs(w->z[i]));
  for (int i = 0; i < nc; i++)
    for (int a = 0; a < w->off[i + 1] - w->off[i]; a++)
      if (!(a == 1 && block_kind(p, w, i) == BLK_LOHI)) s = fmax(s, fabs(w->q[w->off[i] + a]));
  if (s > 0.0)
    for (int i = 0; i < n; i++) {
      e = fmax(e, fabs(w->wl[i] * w->z[i]) / (s * s));
      e = fmax(e, fmax(-w->wl[i], -w->z[i]) / s);
    }
  *res = e > 0.0 ? e : 0.0;

  /* impulses in the contact frames */
  for (int i = 0; i < nc; i++) {
    int o = w->off[i], kind = block_kind(p, w, i), nb = w->off[i + 1] - o;
    if (kind >= BLK_LO) {
      double gz = 0.0, u[3];
      for (int a = 0; a < nb; a++)
        if (block_dir(kind, w->cs, d, a, u)) gz += u[2] * w->z[o + a];
      w->g[3 * i] = 0.0;
      w->g[3 * i + 1] = 0.0;
      w->g[3 * i + 2] = block_shift(p, w, i, kind) + gz / w->sc[i];
      continue;
    }
    double gt1 = 0.0, gt2 = 0.0;
    if (nb > 1)
      for (int k = 0; k < d; k++) {
        gt1 += w->cs[2 * k] * w->z[o + 1 + k];
        gt2 += w->cs[2 * k + 1] * w->z[o + 1 + k];
      }
    w->g[3 * i] = gt1 / w->sc[i];
    w->g[3 * i + 1] = gt2 / w->sc[i];
    w->g[3 * i + 2] = w->z[o] / w->sc[i];
  }
  return SC_SOLVE_OK;
}

sc_solve_status sc_lcp_solve_from(const sc_problem* p, int directions, int max_pivots,
                                  sc_lcp_work* w, const uint32_t* pat_in, uint32_t* pat_out,
                                  double* v, double* gamma, sc_solver_stats* stats) {
  int nv = p->nv, nc = p->nc, d = directions, m = 3 * nc;
  if (pat_out)
    for (int i = 0; i < nc; i++) pat_out[i] = 0;
  if (d + 2 > 32) pat_in = NULL, pat_out = NULL; /* a pattern holds 32 variables */
  if (!w || nv < 0 || nc < 0 || nv > w->nv_max || nc > w->nc_max || d < 2 || d > w->dmax)
    return finish(SC_SOLVE_CAPACITY, 0, 0.0, stats);
  for (int i = 0; i < m; i++) gamma[i] = 0.0;
  if (!finite_all(nv, p->vstar)) return finish(SC_SOLVE_NAN, 0, 0.0, stats);
  for (int i = 0; i < nv; i++) v[i] = p->vstar[i];
  if (nc == 0) return finish(SC_SOLVE_OK, 0, 0.0, stats);
  if (p->ntree < 0 || p->ntree > nv || p->tree_ptr[p->ntree] != nv ||
      !finite_all((int)sc_problem_ablk_size(p), p->A) || !finite_all(3 * p->jptr[nc], p->J) ||
      !entries_valid(p))
    return finish(SC_SOLVE_NAN, 0, 0.0, stats);

  /* the problem comes in block form (problem.h): A densified into L, J
   * (3nc x nv) into X, which is free until A^-1 J^T is formed there */
  sc_problem_densify(p, w->L, w->X);
  sc_la_gemv(m, nv, 1.0, w->X, m, p->vstar, 0.0, w->vc);
  for (int r = 0; r < m; r++)
    for (int c = 0; c < nv; c++) w->JT[c + (size_t)r * nv] = w->X[r + (size_t)c * m];

  /* Delassus W = J A^-1 J^T through the Cholesky factor of A */
  if (sc_la_chol_factor(nv, w->L, nv) != 0) return finish(SC_SOLVE_FACTOR, 0, 0.0, stats);
  for (int i = 0; i < nv * m; i++) w->X[i] = w->JT[i];
  if (sc_la_chol_solve(nv, w->L, nv, w->X, nv, m) != 0)
    return finish(SC_SOLVE_FACTOR, 0, 0.0, stats);
  sc_la_gemmTN(m, m, nv, 1.0, w->JT, nv, w->X, nv, 0.0, w->W, m);

  /* per-entry scale c_i = sqrt(mean diagonal of W_ii) over the rows the
   * entry uses (a box: its n row only); an entry whose rows have no
   * mobility borrows the mean over all used rows */
  double wbar = 0.0;
  int nused = 0;
  for (int r = 0; r < m; r++)
    if (r % 3 == 2 || !sc_problem_is_box(p, r / 3)) {
      wbar += w->W[r + (size_t)r * m];
      nused++;
    }
  wbar /= nused;
  if (!(wbar > 0.0) || !isfinite(wbar)) wbar = 1.0;
  for (int i = 0; i < nc; i++) {
    double si = 0.0;
    if (sc_problem_is_box(p, i)) {
      si = w->W[(3 * i + 2) + (size_t)(3 * i + 2) * m];
    } else {
      for (int r = 3 * i; r < 3 * i + 3; r++) si += w->W[r + (size_t)r * m];
      si /= 3.0;
    }
    w->sc[i] = sqrt(si > 1e-12 * wbar ? si : wbar);
  }

  /* cone edges */
  for (int k = 0; k < d; k++) {
    double th = 2.0 * 3.14159265358979323846 * k / d;
    w->cs[2 * k] = cos(th);
    w->cs[2 * k + 1] = sin(th);
  }

  /* far bounds left out of a first pass (header) */
  int ndrop = 0;
  for (int i = 0; i < nc; i++) w->drop[i] = 0;
  double far = -1.0;
  for (int i = 0; i < nc; i++) {
    if (!sc_problem_is_box(p, i)) continue;
    double lo = p->bound[2 * i], hi = p->bound[2 * i + 1];
    if (lo == hi || !(isfinite(lo) || isfinite(hi))) continue;
    if (far < 0.0) far = FAR_BOUND * impulse_scale(p, w, wbar);
    w->drop[i] = (unsigned char)((isfinite(lo) && fabs(lo) > far) |
                                 (isfinite(hi) && fabs(hi) > far) << 1);
    ndrop += w->drop[i] != 0;
  }

  int pivots = 0;
  double res = INFINITY;
  sc_solve_status st = SC_SOLVE_OK;
  for (int pass = ndrop ? 0 : 1; pass < 2; pass++) {
    int piv = 0, budget = max_pivots;
    if (pass == 1 && ndrop) { /* every bound, from vc = J v* again */
      for (int i = 0; i < nc; i++) w->drop[i] = 0;
      sc_la_gemvT(nv, m, 1.0, w->JT, nv, p->vstar, 0.0, w->vc);
      if (max_pivots > 0 && (budget = max_pivots - pivots) <= 0) { /* a cap is over both */
        st = SC_SOLVE_MAXIT;
        break;
      }
    }
    st = solve_pass(p, d, budget, w, pat_in, pat_out, &piv, &res);
    pivots += piv;
    if (st == SC_SOLVE_CANCELLED) break;
    if (pass == 1) break;
    /* the first pass stands when its impulses keep the bounds left out
     * (then they are the law's); else the LCP with every bound */
    int kept = st == SC_SOLVE_OK;
    for (int i = 0; i < nc && kept; i++) {
      double g = w->g[3 * i + 2];
      if ((w->drop[i] & 1 && g < p->bound[2 * i]) || (w->drop[i] & 2 && g > p->bound[2 * i + 1]))
        kept = 0;
    }
    if (kept) break;
  }
  if (st != SC_SOLVE_OK) return finish(st, pivots, INFINITY, stats);

  /* v = v* + A^-1 J^T gamma */
  sc_la_gemv(nv, m, 1.0, w->X, nv, w->g, 1.0, v);
  if (!finite_all(nv, v)) {
    for (int i = 0; i < nv; i++) v[i] = p->vstar[i];
    return finish(SC_SOLVE_NAN, pivots, INFINITY, stats);
  }
  for (int i = 0; i < m; i++) gamma[i] = w->g[i];
  return finish(SC_SOLVE_OK, pivots, res, stats);
}
