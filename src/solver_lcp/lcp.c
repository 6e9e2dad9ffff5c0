/* lcp: the Stewart-Trinkle / Anitescu-Potra contact LCP with a polyhedral
 * friction cone, solved by Lemke's algorithm (lemke.c).
 *
 * Sources: D. Stewart & J. Trinkle, "An implicit time-stepping scheme for
 * rigid body dynamics with inelastic collisions and Coulomb friction", IJNME
 * 1996; M. Anitescu & F. Potra, "Formulating dynamic multi-rigid-body contact
 * problems with friction as solvable linear complementarity problems",
 * Nonlinear Dynamics 1997; doc/contact.md section 11.  The normal law is the
 * compliant one of the convex solver: each contact's R_n and vhat_n as the
 * contact stage sets them (doc/contact.md 4.1, 4.2).
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
 * c_i = sqrt(mean diag W_ii) (sqrt of m/s per N s) the variables become
 * c_i gamma_n, c_i beta and lambda / c_i, the velocity rows are divided by
 * c_i and the w_l row multiplied by c_i.  Positive diagonal scalings of
 * rows and columns that pair up like this do not change the solution set or
 * the products w_i z_i.  The scaled M has W_ij / (c_i c_j) (diagonal blocks
 * O(1)), R_n / c_i^2, and the coupling entries 1, mu, -1 unchanged, which is
 * what Lemke's relative tolerances want.
 *
 * Residual (stats->residual).  In the scaled problem (where every w_i and
 * z_i has units sqrt(J)), with s = max(||q||_inf, ||z||_inf),
 *     residual = max_i max( |w_i z_i| / s^2,  -w_i / s,  -z_i / s,  0 ),
 * a dimensionless complementarity-and-feasibility error (0 when exact). */
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
  double b = 8.0 * dbl + 4.0 * (8.0 * n + nc) + 8.0 * (2.0 * n + 16) + 4.0 * n + 2.0;
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
  w->guess = sc_malloc(n + 1);
  w->basic = sc_malloc(n + 1);
  w->lemke = sc_lemke_work_create_inplace((int)n);
  if (!w->L || !w->JT || !w->X || !w->W || !w->M || !w->q || !w->z || !w->wl || !w->vc ||
      !w->g || !w->cs || !w->sc || !w->off || !w->guess || !w->basic || !w->lemke) {
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

/* the velocity direction u (3-vector in the contact frame) a row/column of
 * block a stands for: 0 -> normal, 1..d -> edge d_k, d+1 -> lambda (none) */
static int block_dir(const double* cs, int d, int a, double u[3]) {
  if (a == 0) {
    u[0] = 0.0;
    u[1] = 0.0;
    u[2] = 1.0;
    return 1;
  }
  if (a <= d) {
    u[0] = cs[2 * (a - 1)];
    u[1] = cs[2 * (a - 1) + 1];
    u[2] = 0.0;
    return 1;
  }
  return 0;
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
      !finite_all(m, p->R) || !finite_all(m, p->vhat) || !finite_all(nc, p->mu))
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

  /* per-contact scale c_i = sqrt(mean diagonal of W_ii); a contact whose
   * block vanishes (no mobility) borrows the overall mean */
  double wbar = 0.0;
  for (int r = 0; r < m; r++) wbar += w->W[r + (size_t)r * m];
  wbar /= m;
  if (!(wbar > 0.0) || !isfinite(wbar)) wbar = 1.0;
  for (int i = 0; i < nc; i++) {
    double si = 0.0;
    for (int r = 3 * i; r < 3 * i + 3; r++) si += w->W[r + (size_t)r * m];
    si /= 3.0;
    w->sc[i] = sqrt(si > 1e-12 * wbar ? si : wbar);
  }

  /* block layout and cone edges */
  for (int k = 0; k < d; k++) {
    double th = 2.0 * 3.14159265358979323846 * k / d;
    w->cs[2 * k] = cos(th);
    w->cs[2 * k + 1] = sin(th);
  }
  w->off[0] = 0;
  for (int i = 0; i < nc; i++) w->off[i + 1] = w->off[i] + (p->mu[i] > 0.0 ? d + 2 : 1);
  int n = w->off[nc];

  /* M = C^-1 E^T W E C^-1 + coupling, q = C^-1 (E^T J v* - vhat), with the
   * scaling of the header */
  double* M = w->M;
  for (int j = 0; j < nc; j++) {
    int nbj = w->off[j + 1] - w->off[j];
    for (int b = 0; b < nbj; b++) {
      int col = w->off[j] + b;
      double ub[3];
      int hb = block_dir(w->cs, d, b, ub);
      for (int i = 0; i < nc; i++) {
        int nbi = w->off[i + 1] - w->off[i];
        for (int a = 0; a < nbi; a++) {
          int row = w->off[i] + a;
          double ua[3], s = 0.0;
          if (hb && block_dir(w->cs, d, a, ua)) {
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
    int o = w->off[i];
    double ci = w->sc[i];
    M[o + (size_t)o * n] += p->R[3 * i + 2] / (ci * ci);
    w->q[o] = (w->vc[3 * i + 2] - p->vhat[3 * i + 2]) / ci;
    if (w->off[i + 1] - o == 1) continue;
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

  /* the caller's basic patterns, bit a = variable a of the contact's block */
  if (pat_in)
    for (int i = 0; i < nc; i++)
      for (int a = 0; a < w->off[i + 1] - w->off[i]; a++)
        w->guess[w->off[i] + a] = (pat_in[i] >> a) & 1u;
  int pivots = 0;
  sc_solve_status st = sc_lemke_from_inplace(n, M, w->q, w->z, max_pivots, w->lemke, &pivots,
                                             pat_in ? w->guess : NULL, pat_out ? w->basic : NULL);
  if (pat_out)
    for (int i = 0; i < nc; i++) {
      uint32_t b = 0;
      for (int a = 0; a < w->off[i + 1] - w->off[i]; a++) b |= (uint32_t)w->basic[w->off[i] + a] << a;
      pat_out[i] = b;
    }
  if (st != SC_SOLVE_OK) return finish(st, pivots, INFINITY, stats);

  /* complementarity error in the scaled problem */
  for (int i = 0; i < n; i++) w->wl[i] = w->q[i];
  sc_la_gemv(n, n, 1.0, M, n, w->z, 1.0, w->wl);
  double s = 0.0, res = 0.0;
  for (int i = 0; i < n; i++) s = fmax(s, fmax(fabs(w->q[i]), fabs(w->z[i])));
  if (s > 0.0)
    for (int i = 0; i < n; i++) {
      res = fmax(res, fabs(w->wl[i] * w->z[i]) / (s * s));
      res = fmax(res, fmax(-w->wl[i], -w->z[i]) / s);
    }

  /* impulses in the contact frames, then v = v* + A^-1 J^T gamma */
  for (int i = 0; i < nc; i++) {
    int o = w->off[i];
    double gt1 = 0.0, gt2 = 0.0;
    if (w->off[i + 1] - o > 1)
      for (int k = 0; k < d; k++) {
        gt1 += w->cs[2 * k] * w->z[o + 1 + k];
        gt2 += w->cs[2 * k + 1] * w->z[o + 1 + k];
      }
    w->g[3 * i] = gt1 / w->sc[i];
    w->g[3 * i + 1] = gt2 / w->sc[i];
    w->g[3 * i + 2] = w->z[o] / w->sc[i];
  }
  sc_la_gemv(nv, m, 1.0, w->X, nv, w->g, 1.0, v);
  if (!finite_all(nv, v)) {
    for (int i = 0; i < nv; i++) v[i] = p->vstar[i];
    return finish(SC_SOLVE_NAN, pivots, INFINITY, stats);
  }
  for (int i = 0; i < m; i++) gamma[i] = w->g[i];
  return finish(SC_SOLVE_OK, pivots, res, stats);
}
