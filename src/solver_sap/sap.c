/* sap: Newton's method on the SAP cost (Castro, Permenter & Han, arXiv
 * 2110.10107; doc/contact.md sections 3 and 8).
 *
 *   l(v)    = 1/2 (v - v*)^T A (v - v*) + sum_i l_i(vc_i),   vc = J v
 *   grad l  = A (v - v*) - J^T gamma(v)
 *   H(v)    = A + J^T G(v) J
 * where l_i, gamma_i = -dl_i/dvc_i and G_i = d^2 l_i/dvc_i^2 come from the
 * problem's contact model (sap_model.c: SAP, similar or lagged); nothing
 * below depends on which (line_eval only picks the model's directional
 * evaluation once per call).
 * Iteration k (4.2): evaluate; stop when |D grad| <= eps_a + eps_r
 * max(|D A v|, |D J^T gamma|) with D = diag(A)^-1/2 (checked before the
 * iteration cap, so an exact guess succeeds with 0 iterations), or when the
 * cost stalls (|l_k - l_{k-1}| < cost_abs + cost_rel (l_k + l_{k-1})/2 after a
 * step alpha > 0.5); else dv = -H~^-1 grad and v += alpha dv.  H~ is H
 * except while the relative residual exceeds slip_curvature_until: then each
 * sliding contact's G gets extra curvature along its slip direction (see
 * slip_curvature() below; simc's own addition, not in the reference), and
 * except for sliding contacts whose slip direction reversed between the last
 * two iterates or under the last full Newton step, which get
 * reversal_curvature instead at any residual.  Only the direction changes,
 * never l, grad or the stopping test.
 *
 * Chebyshev's correction (Traub, "Iterative Methods for the Solution of
 * Equations", 1964, sec. 5.3; here for grad l = 0, whose Jacobian is H and
 * second derivative T = sum_i J_i^T D^3 l_i J_i): with the Newton step
 * dv = -H^-1 grad,
 *   dv_c = dv - 1/2 H^-1 T[dv, dv],   T[dv, dv] = J^T t,  t_i = D^3 l_i[J_i dv, J_i dv],
 * which makes the local convergence cubic instead of quadratic for one more
 * solve with the same factorization.  It is applied while the relative
 * residual lies in [chebyshev_from, chebyshev_until) and H is exact (no
 * slip or reversal curvature added in this iteration), and kept only where
 * the expansion holds: |dv_c - dv| <= |dv| / 2 (D^-1-scaled norms) and
 * grad.dv_c <= grad.dv / 2; the line search then runs along dv_c.  Below
 * chebyshev_from the plain Newton step already lands under the tolerance;
 * above chebyshev_until the expansion is not accurate enough to pay for the
 * solve (results/sap_iterations.md, section 10).
 *
 * A Newton direction without a new factorization: while the block path
 * still holds a factorization of H from an earlier iterate of this solve
 * (or from the caller's last solve of the same island, a refinement pass or
 * the previous contact solve: sc_sap_reuse_factor, island.c)
 * and at most nc / 256 contacts changed region (stick, slide, separated)
 * since, H~ dv = -grad is solved by conjugate gradients preconditioned with
 * that factor (inexact Newton: Dembo, Eisenstat & Steihaug, SIAM J. Numer.
 * Anal. 19, 1982), to |D (H~ dv + grad)| <= max(0.1 target, eta |D grad|),
 * eta = min(0.3, sqrt(rho)), rho = the relative residual and target =
 * eps_a + eps_r max(|D A v|, |D J^T gamma|): a forcing term eta = O(|grad|^1/2)
 * keeps the convergence superlinear (of order 1.5, ibid., thm. 3.3), so
 * that the last step lands about as far below the tolerance as an exact
 * Newton step would (a fixed eta = 0.3 lands just under it: 7x farther
 * from the converged solution on clutter 64, test_integrator).  A settled
 * pile changes H by a few terms between iterates and between steps: two or
 * three CG iterations, each a solve with the held
 * factor and one product with H (A x + J^T G J x, never formed), replace a
 * factorization.  After cg_max_iterations without meeting the bound, H is
 * factored as before.  Only the direction changes; l, grad, the line search
 * and the stopping test are the same, so the solution meets the same
 * tolerance.  A solve forgets the held factor unless its caller says it
 * solves the same island again (sc_sap_reuse_factor), and the caller says
 * so only where the workspace's history does not depend on which thread
 * took which island (island.c), so results stay bit-identical across
 * thread counts.
 *
 * Line search (4.3) in O(nc) per evaluation from the cached dp = A dv,
 * dvc = J dv, a2 = dv^T A dv and r = v - v*:
 *   l(alpha)   = l_A + alpha dp.r + 1/2 alpha^2 a2 + sum_i l_i(vc_i + alpha dvc_i)
 *   l'(alpha)  = dp.r + alpha a2 - dvc . gamma(alpha)
 *   l''(alpha) = a2 + dvc^T G(alpha) dvc
 * where each contact gives only l_i, dvc_i.gamma_i and dvc_i^T G_i dvc_i
 * (sc_sap_contact_eval_dir; G_i is not formed).  Exact: root of
 * f = l'(alpha) / (-l'(0)) on [0, alpha_max] by Newton-Raphson with a
 * bisection safeguard (rtsafe, as Drake's SAP), started at alpha = 1, the
 * 1-D Newton step from 0 when H is exact (l''(0) = -l'(0)); alpha_max is
 * evaluated only when neither 1 nor one Newton step beyond it brackets the
 * root (l'(alpha_max) <= 0: take alpha_max).  It stops at |f| < 1e-8, at a
 * Newton step below 1e-8 alpha (not from a point costlier than l(0): on a
 * near-rigid contact that step can be tiny far from the root), or once
 * |l'(alpha)| is below a tenth of the slope the stopping test can resolve,
 * (eps_a + eps_r max(|D A v|, |D J^T gamma|)) |D^-1 dv| (LS_SLOPE_FRACTION).
 * Backtracking: Armijo with rho = 0.8, c = 1e-4 starting at alpha = 1/rho.
 *
 * Paths (doc/contact.md 9): the problem arrives in block form (tree blocks of A,
 * per-contact column lists of J; problem.h).  The structured path uses it as
 * it is (sap_sparse.c): A x, J x, J^T x over the non-zeros, H assembled in
 * its sparse pattern and factored by a block Cholesky whose supernodes are
 * the trees (sap_block.c; CHOLMOD on request), with the symbolic analysis
 * done once per solve, at the first factorization.  The dense path (the
 * reference, and the faster one for a few dozen dofs or a single deep
 * tree) copies A and J into dense arrays of its workspace and factors H
 * with LAPACK; a workspace has those arrays only for nv_max <=
 * SC_SAP_DENSE_MAX_NV, so memory stays linear in the scene for large ones. */
#include "solver_sap/sap.h"

#include <math.h>
#include <stddef.h>

#include "linalg/linalg.h"
#include "solver_sap/sap_hessian.h"
#include "solver_sap/sap_model.h"
#include "solver_sap/sap_sparse.h"

struct sc_sap_work {
  int nv_max, nc_max;
  long blk_max;
  sc_sap_hessian hess;
  sc_sap_sparse* sp;  /* structure of A and J, sparse Hessian */
  int structured;     /* this solve uses sp for A x, J x, J^T x */
  double* block; /* one allocation holding every array below */
  /* nv */
  double *D, *pstar, *r, *Ar, *jtg, *grad, *dv, *dp, *tmp;
  /* 3nc, 9nc */
  double *vc, *dvc, *gam, *G;
  double* vc_prev; /* (3nc) vc at the previous iterate (reversal_curvature) */
  double* t3;      /* (3nc) D^3 l_i[dvc_i, dvc_i] (Chebyshev's correction) */
  /* Delassus estimate per tree: factors of A's blocks (blk_max) */
  double* fac;
  /* dense path (NULL when nv_max > SC_SAP_DENSE_MAX_NV): A and J densified,
   * Cholesky factor of A and A^-1 J^T for the Delassus estimate */
  double *Ad, *Jd, *L, *X;
  /* (nc) region of each contact at the current and (for the trace) the
   * previous iterate: 1 stick, 2 slide, 3 separated */
  int *region, *region_prev;
  int* region_fac; /* (nc) the regions H had at the last factorization */
  /* (nc) each contact's v^ for sc_sap_hc_line_sums (Hunt-Crossley models) */
  double* vh;
  /* conjugate gradients preconditioned by a held factorization: r, z, the
   * search direction, H times it (nv each) and J times it (3nc) */
  double *cg_r, *cg_z, *cg_d, *cg_q, *cg_u;
  int reuse_next; /* the next solve is a re-solve of the last one's problem */
};

void sc_sap_params_default(sc_sap_params* p) {
  p->rel_tol = 1e-6;
  p->abs_tol = 1e-14;
  p->max_iterations = 100;
  p->min_iterations = 0;
  p->trace_append = 0;
  p->cost_abs_tol = 1e-30;
  p->cost_rel_tol = 1e-15;
  p->soft_tol = 1e-7;
  p->linesearch = SC_SAP_LS_EXACT;
  p->alpha_max = 1.5;
  p->ls_max_iterations = 100;
  p->hessian = SC_SAP_HESSIAN_AUTO;
  p->trace = NULL;
  p->slip_curvature = 0.1;
  p->slip_curvature_until = 3e-3;
  p->reversal_curvature = 0.0;
  p->chebyshev_from = 0.0;
  p->chebyshev_until = 0.0;
  p->cancel = NULL;
  p->cg_max_iterations = 5;
}

void sc_sap_params_for_model(sc_sap_params* p, int model) {
  /* lagged friction mu n0 |v_t|_s has no curvature along the slip at all (no
   * normal coupling as in SAP and similar), and the grid of section 6 of
   * results/sap_iterations.md put its best values higher than SAP's */
  if (model == SC_MODEL_LAGGED) {
    p->slip_curvature = 0.2;
    p->slip_curvature_until = 1e-2;
    p->reversal_curvature = 1.0;
    p->chebyshev_from = 1e-4;
    p->chebyshev_until = 1e-2;
  } else {
    p->slip_curvature = 0.1;
    p->slip_curvature_until = 3e-3;
    p->reversal_curvature = 0.0;
    p->chebyshev_from = 0.0;
    p->chebyshev_until = 0.0;
  }
}

static sc_sap_work* work_create(int nv_max, int nc_max, long blk_max, int cols_max, int nrow_max,
                                long cross_max, int dense);

sc_sap_work* sc_sap_work_create(int nv_max, int nc_max) {
  return work_create(nv_max, nc_max, (long)nv_max * nv_max, 17, 0, -1, 1);
}

sc_sap_work* sc_sap_work_create_sized(int nv_max, int nc_max, long blk_max, int cols_max,
                                      int nrow_max, long cross_max) {
  return work_create(nv_max, nc_max, blk_max, cols_max, nrow_max, cross_max,
                     nv_max <= SC_SAP_DENSE_MAX_NV);
}

static sc_sap_work* work_create(int nv_max, int nc_max, long blk_max, int cols_max, int nrow_max,
                                long cross_max, int dense) {
  if (nv_max < 0 || nc_max < 0 || blk_max < 0 || cols_max < 0 || nrow_max < 0 || nrow_max > nc_max)
    return NULL;
  sc_sap_work* w = sc_calloc(1, sizeof *w);
  if (!w) return NULL;
  w->nv_max = nv_max;
  w->nc_max = nc_max;
  w->blk_max = blk_max;
  const size_t nv = (size_t)nv_max, m = 3 * (size_t)nc_max;
  const size_t dense_total = dense ? 2 * nv * nv + 2 * nv * m : 0;
  /* (G: each entry's 3 x 3 block and a contact's cross block with its cone
   * tail, sap_sparse.h) */
  const size_t total = 13 * nv + 6 * m + 6 * m + (size_t)nc_max + (size_t)blk_max + dense_total;
  w->block = sc_malloc(sizeof(double) * (total > 0 ? total : 1));
  w->sp = sc_sap_sparse_create(nv_max, nc_max, blk_max, cols_max, nrow_max, cross_max);
  w->region = sc_calloc(3 * (size_t)nc_max + 1, sizeof(int));
  if (!w->block || !w->region || !w->sp ||
      sc_sap_hessian_init(&w->hess, nv_max, nc_max, dense) != 0) {
    sc_sap_work_free(w);
    return NULL;
  }
  double* b = w->block;
  w->D = b, b += nv;
  w->pstar = b, b += nv;
  w->r = b, b += nv;
  w->Ar = b, b += nv;
  w->jtg = b, b += nv;
  w->grad = b, b += nv;
  w->dv = b, b += nv;
  w->dp = b, b += nv;
  w->tmp = b, b += nv;
  w->vc = b, b += m;
  w->dvc = b, b += m;
  w->gam = b, b += m;
  w->G = b, b += 6 * m;
  w->vc_prev = b, b += m;
  w->t3 = b, b += m;
  w->vh = b, b += nc_max;
  w->cg_r = b, b += nv;
  w->cg_z = b, b += nv;
  w->cg_d = b, b += nv;
  w->cg_q = b, b += nv;
  w->cg_u = b, b += m;
  w->fac = b, b += blk_max;
  if (dense) {
    w->Ad = b, b += nv * nv;
    w->L = b, b += nv * nv;
    w->Jd = b, b += nv * m;
    w->X = b;
  }
  w->region_prev = w->region + nc_max;
  w->region_fac = w->region + 2 * (size_t)nc_max;
  return w;
}

void sc_sap_work_free(void* wv) {
  sc_sap_work* w = wv;
  if (!w) return;
  sc_sap_hessian_destroy(&w->hess);
  sc_sap_sparse_free(w->sp);
  sc_free(w->block);
  sc_free(w->region);
  sc_free(w);
}

static sc_status delassus(const sc_problem* p, int hessian, const double* Afac, sc_sap_work* w,
                          double* wdiag);

long sc_sap_last_factor_nnz(const sc_sap_work* w) {
  return w->sp ? sc_sap_sparse_factor_nnz(w->sp) : 0;
}

int sc_sap_last_hessian(const sc_sap_work* w) {
  switch (sc_sap_hessian_path(&w->hess)) {
    case SC_SAP_PATH_DENSE: return SC_SAP_HESSIAN_DENSE;
    case SC_SAP_PATH_SUPERNODAL: return SC_SAP_HESSIAN_SPARSE_SUPERNODAL;
    case SC_SAP_PATH_SIMPLICIAL: return SC_SAP_HESSIAN_SPARSE_SIMPLICIAL;
    case SC_SAP_PATH_BLOCK: return SC_SAP_HESSIAN_SPARSE_BLOCK;
    default: return 0;
  }
}

sc_status sc_sap_delassus_problem(const sc_problem* p, sc_sap_work* w, double* wdiag) {
  return delassus(p, SC_SAP_HESSIAN_AUTO, NULL, w, wdiag);
}

sc_status sc_sap_delassus_path(const sc_problem* p, int hessian, sc_sap_work* w,
                               double* wdiag) {
  return delassus(p, hessian, NULL, w, wdiag);
}

sc_status sc_sap_delassus_factored(const sc_problem* p, const double* Afac, sc_sap_work* w,
                                   double* wdiag) {
  return delassus(p, SC_SAP_HESSIAN_AUTO, Afac, w, wdiag);
}

static sc_status delassus(const sc_problem* p, int hessian, const double* Afac, sc_sap_work* w,
                          double* wdiag) {
  const int nv = p->nv, nc = p->nc;
  if (nv < 0 || nc < 0 || nv > w->nv_max || nc > w->nc_max) return SC_ERR_CAPACITY;
  if (nc == 0) return SC_OK;
  w->structured = 0;
  const int loaded = sc_sap_sparse_load(w->sp, p) == 0;
  if (loaded && (!w->Ad || hessian != SC_SAP_HESSIAN_DENSE))
    /* per tree block: O(sum of tree sizes^2) per contact instead of O(nv^2),
     * and a small tree's triangular solves without BLAS (a humanoid's one
     * tree of 27 dofs: a third of the cost of LAPACK's solve with 3nc
     * right-hand sides) */
    return sc_sap_sparse_delassus(w->sp, Afac, w->fac, wdiag) == 0 ? SC_OK : SC_ERR_SIM;
  if (!w->Ad) return SC_ERR_CAPACITY;
  sc_problem_densify(p, w->Ad, w->Jd);
  const double *A = w->Ad, *J = w->Jd;
  const int m = 3 * nc;
  for (int i = 0; i < nv * nv; i++) w->L[i] = A[i];
  if (sc_la_chol_factor(nv, w->L, nv) != 0) return SC_ERR_SIM;
  /* X = A^-1 J^T (nv x 3nc) */
  for (int j = 0; j < m; j++)
    for (int i = 0; i < nv; i++) w->X[i + j * nv] = J[j + i * m];
  if (sc_la_chol_solve(nv, w->L, nv, w->X, nv, m) != 0) return SC_ERR_SIM;
  /* W_ii = J_i X_i, only the 3x3 diagonal blocks */
  for (int c = 0; c < nc; c++) {
    double fro2 = 0.0;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) {
        double s = 0.0;
        for (int k = 0; k < nv; k++) s += J[3 * c + a + k * m] * w->X[k + (3 * c + b) * nv];
        fro2 += s * s;
      }
    wdiag[c] = sqrt(fro2) / 3.0;
  }
  return SC_OK;
}

/* ---- products with A and J: dense, or over the detected structure ---- */

static void mul_A(const sc_problem* p, const sc_sap_work* w, const double* x, double* y) {
  if (w->structured) sc_sap_sparse_mulA(w->sp, x, y);
  else sc_la_gemv(p->nv, p->nv, 1.0, w->Ad, p->nv, x, 0.0, y);
}

static void mul_J(const sc_problem* p, const sc_sap_work* w, const double* x, double* y) {
  if (w->structured) sc_sap_sparse_mulJ(w->sp, x, y);
  else sc_la_gemv(3 * p->nc, p->nv, 1.0, w->Jd, 3 * p->nc, x, 0.0, y);
}

static void mul_JT(const sc_problem* p, const sc_sap_work* w, const double* x, double* y) {
  if (w->structured) sc_sap_sparse_mulJT(w->sp, x, y);
  else sc_la_gemvT(3 * p->nc, p->nv, 1.0, w->Jd, 3 * p->nc, x, 0.0, y);
}

/* ---- evaluation ---- */

/* Everything known at the current iterate v. */
typedef struct eval_out {
  double cost, costA;            /* l(v) and its momentum part */
  double norm_grad, norm_p, norm_j; /* |D grad|, |D A v|, |D J^T gamma| */
} eval_out;

/* Evaluate l, grad (w->grad), gamma (w->gam), G (w->G), vc (w->vc), r = v - v*
 * (w->r) and A r (w->Ar) at v.  w->pstar and w->D must be set (and w->vh for
 * the Hunt-Crossley models).  With stepped = 1, r, A r and vc are already
 * those of v: the Newton loop carried them along its step (r += alpha dv,
 * A r += alpha A dv, vc += alpha J dv from the line search's products), which
 * saves a product with A and one with J per iteration. */
static void evaluate(const sc_problem* p, double soft_tol, sc_sap_work* w, const double* v,
                     int stepped, eval_out* out) {
  const int nv = p->nv, nc = p->nc;
  if (!stepped) {
    for (int i = 0; i < nv; i++) w->r[i] = v[i] - p->vstar[i];
    mul_A(p, w, w->r, w->Ar);
    mul_J(p, w, v, w->vc);
  }
  out->costA = 0.5 * sc_la_dot(nv, w->r, w->Ar);
  double costR = 0.0;
  if (p->model != SC_MODEL_SAP && p->hc && !p->kind)
    /* one loop in sap_model.c, v^ from prepare(); with box rows the
     * per-contact calls below (bit for bit the same terms) */
    costR = sc_sap_hc_eval_all(nc, p->model == SC_MODEL_LAGGED, p->hc, w->vh, p->mu, p->dt,
                               w->vc, w->gam, w->G, w->region);
  else
    for (int c = 0; c < nc; c++) {
      double lc;
      const int t = sc_problem_tail(p, c);
      if (sc_problem_is_tail(p, c)) continue; /* with its contact */
      if (t >= 0) {
        w->region[c] = w->region[t] = sc_sap_cone_eval(
            p, c, w->vc + 3 * c, w->vc + 3 * t, soft_tol, w->gam + 3 * c, w->gam + 3 * t,
            w->G + 9 * c, w->G + 9 * t, w->G + 9 * ((size_t)nc + c), &lc);
      } else {
        w->region[c] = sc_sap_contact_eval(p, c, w->vc + 3 * c, soft_tol, w->gam + 3 * c,
                                           w->G + 9 * c, &lc);
      }
      costR += lc;
    }
  out->cost = out->costA + costR;
  mul_JT(p, w, w->gam, w->jtg);
  double ng = 0.0, np = 0.0, nj = 0.0;
  for (int i = 0; i < nv; i++) {
    w->grad[i] = w->Ar[i] - w->jtg[i];
    const double d = w->D[i];
    const double pv = w->Ar[i] + w->pstar[i]; /* A v = A (v - v*) + A v* */
    ng += d * d * w->grad[i] * w->grad[i];
    np += d * d * pv * pv;
    nj += d * d * w->jtg[i] * w->jtg[i];
  }
  out->norm_grad = sqrt(ng);
  out->norm_p = sqrt(np);
  out->norm_j = sqrt(nj);
}

/* Slip curvature (sc_sap_params.slip_curvature): the Hessian of a sliding
 * contact has almost no curvature along its slip direction t^ (only the
 * normal coupling mu^2 f / Rn), so far from the solution the Newton step
 * lets slipping contacts overshoot through the stiction cone (width
 * ~ sigma dt g) and the exact line search stops at the first few kinks it
 * meets.  Adding the curvature omega (mu / Rt) (gamma_n / y_r) t^ t^T (omega
 * times the one across t^, i.e. the quadratic majorizer of mu gamma_n |v_t|
 * scaled by omega) damps that step.  Only H changes: l, its gradient, the
 * line search and the stopping test do not, so the iteration converges to
 * the same minimizer; the exact Hessian returns once the residual is below
 * slip_curvature_until, which keeps the final convergence quadratic.
 * A lagged contact's friction mu n0 |v_t|_s acts whether or not its normal
 * impulse is zero (region 3), so those contacts slip as well and get the same
 * curvature (sap_model.c adds nothing where |v_t| < eps or, for similar,
 * where n = 0).
 *
 * Reversal curvature: what limits the step length alpha below the switch is
 * almost only sliding contacts whose full Newton step reverses their slip
 * (results/sap_iterations.md, section 8): with no curvature along the slip the
 * model lets them overshoot through zero, where the real cost turns up, and
 * the exact line search stops short for every contact.  A contact whose slip
 * direction reversed between the previous iterate and this one (a stick or a
 * reversal it is oscillating about), or would have under the previous full
 * Newton step dvc, gets omega_rev (1: the quadratic majorizer of
 * mu gamma_n |v_t|, whose minimum along the slip lies at v_t = 0) instead of
 * omega, at any residual; a contact that keeps its direction does not, so
 * the last iterations keep the exact Hessian.  have_prev = 0 (first iteration)
 * turns it off.  Returns the number of contacts whose G got extra curvature. */
static int slip_curvature(const sc_problem* p, double soft_tol, double omega, double omega_rev,
                          int have_prev, sc_sap_work* w) {
  int changed = 0;
  for (int c = 0; c < p->nc; c++) {
    if (w->region[c] != 2 && !(w->region[c] == 3 && p->model == SC_MODEL_LAGGED)) continue;
    /* a box row has no slip direction; a contact with a cone tail keeps its
     * exact curvature (its slip lies in five dimensions) */
    if (sc_problem_is_box(p, c) || sc_problem_is_tail(p, c) || sc_problem_tail(p, c) >= 0)
      continue;
    double om = omega;
    if (have_prev && omega_rev > 0.0) {
      const double *v = w->vc + 3 * c, *q = w->vc_prev + 3 * c, *d = w->dvc + 3 * c;
      if (q[0] * v[0] + q[1] * v[1] < 0.0 || q[0] * (q[0] + d[0]) + q[1] * (q[1] + d[1]) < 0.0)
        om = omega_rev;
    }
    if (!(om > 0.0)) continue;
    changed++; /* (sc_sap_hc_slip_curvature may still find it sticking: counted anyway) */
    if (p->model != SC_MODEL_SAP && p->hc) {
      sc_sap_hc_slip_curvature(p, c, w->vc + 3 * c, om, w->G + 9 * c);
      continue;
    }
    const double* R = p->R + 3 * c;
    const double y0 = (p->vhat[3 * c] - w->vc[3 * c]) / R[0];
    const double y1 = (p->vhat[3 * c + 1] - w->vc[3 * c + 1]) / R[1];
    const double yr = sqrt(y0 * y0 + y1 * y1 + soft_tol * soft_tol);
    const double t0 = y0 / yr, t1 = y1 / yr;
    const double add = om * p->mu[c] / R[0] * w->gam[3 * c + 2] / yr;
    double* G = w->G + 9 * c;
    G[0] += add * t0 * t0;
    G[1] += add * t0 * t1;
    G[3] += add * t1 * t0;
    G[4] += add * t1 * t1;
  }
  return changed;
}

static int all_finite(int n, const double* x) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

/* finiteness of A's blocks and J's listed entries: O(size of the block form) */
static int blocks_finite(const sc_problem* p) {
  if (p->ntree < 0 || p->ntree > p->nv || p->tree_ptr[p->ntree] != p->nv || p->jptr[0] != 0)
    return 0;
  return all_finite((int)sc_problem_ablk_size(p), p->A) && all_finite(3 * p->jptr[p->nc], p->J);
}

/* The block Cholesky's supernodes are trees (or groups of trees the same
 * contacts touch): with trees of one or two dofs -- a diagonal A handed over
 * densely, whose dofs each become a tree -- its 6 x 6 kernels and per-block
 * bookkeeping would work on scalars, where CHOLMOD is the better tool. */
static int block_pays(const sc_problem* p, int hessian) {
  return hessian == SC_SAP_HESSIAN_SPARSE_BLOCK || 3 * p->ntree <= p->nv;
}

/* Chooses the path: dense (A and J densified into the workspace) or the
 * structured products and sparse Hessian over the problem's block form.
 * Returns SC_SOLVE_CAPACITY when neither fits the workspace. */
static sc_solve_status choose_path(const sc_problem* p, int hessian, sc_sap_work* w) {
  const int nv = p->nv, nc = p->nc;
  w->structured = 0;
  sc_sap_hessian_select(&w->hess, NULL, 0);
  const int loaded = sc_sap_sparse_load(w->sp, p) == 0;
  const long nnz = loaded ? sc_sap_sparse_hessian_nnz(w->sp) : 0; /* 0: over capacity */
  int dense;
  if (!w->Ad) dense = 0;
  else if (hessian == SC_SAP_HESSIAN_DENSE || nc == 0 || nnz == 0) dense = 1;
  else if (hessian == SC_SAP_HESSIAN_AUTO) {
    /* a dense Cholesky of a few dozen dofs beats any sparse bookkeeping */
    const double dense_tri = 0.5 * nv * (nv + 1.0);
    dense = nv <= SC_SAP_SMALL_NV || (double)nnz > 0.75 * dense_tri;
  } else dense = 0;
  if (dense && hessian == SC_SAP_HESSIAN_AUTO && loaded && nnz > 0) {
    /* small island: the products over the block form and H assembled from
     * it, factored without BLAS (library calls cost more than the
     * arithmetic at this size); the same matrix as the path below */
    w->structured = 1;
    sc_sap_hessian_select_blockdense(&w->hess, w->sp);
    return SC_SOLVE_OK;
  }
  if (dense) {
    sc_problem_densify(p, w->Ad, w->Jd);
    return SC_SOLVE_OK;
  }
  if (!loaded || (nc > 0 && nnz == 0)) return SC_SOLVE_CAPACITY;
  w->structured = 1;
  if (nc > 0)
    sc_sap_hessian_select(&w->hess, w->sp,
                          hessian == SC_SAP_HESSIAN_SPARSE_SUPERNODAL   ? SC_SAP_SPARSE_SUPERNODAL
                          : hessian == SC_SAP_HESSIAN_SPARSE_SIMPLICIAL ? SC_SAP_SPARSE_SIMPLICIAL
                          : block_pays(p, hessian)                      ? SC_SAP_SPARSE_BLOCK
                                                                        : SC_SAP_SPARSE_AUTO);
  return SC_SOLVE_OK;
}

/* Validates sizes and inputs; chooses the path; sets D = diag(A)^-1/2 and
 * p* = A v*. */
static sc_solve_status prepare(const sc_problem* p, int hessian, sc_sap_work* w) {
  const int nv = p->nv, nc = p->nc;
  w->structured = 0;
  sc_sap_hessian_select(&w->hess, NULL, 0);
  if (nv < 0 || nc < 0 || nv > w->nv_max || nc > w->nc_max) return SC_SOLVE_CAPACITY;
  if (!blocks_finite(p) || !all_finite(nv, p->vstar) || !all_finite(3 * nc, p->R) ||
      !all_finite(3 * nc, p->vhat) || !all_finite(nc, p->mu))
    return SC_SOLVE_NAN;
  for (int i = 0; i < 3 * nc; i++)
    if (!(p->R[i] > 0.0)) return SC_SOLVE_NAN;
  for (int i = 0; i < nc; i++)
    if (!(p->mu[i] >= 0.0)) return SC_SOLVE_NAN;
  for (int i = 0; i < nc; i++)
    if (sc_problem_is_box(p, i) && !(p->bound[2 * i] <= p->bound[2 * i + 1])) return SC_SOLVE_NAN;
  if (p->model != SC_MODEL_SAP && p->hc) {
    if (!all_finite(SC_HC_NPAR * nc, p->hc)) return SC_SOLVE_NAN;
    for (int i = 0; i < nc; i++)
      if (!(p->hc[SC_HC_NPAR * i + SC_HC_EPS] > 0.0) || p->hc[SC_HC_NPAR * i + SC_HC_K] < 0.0 ||
          p->hc[SC_HC_NPAR * i + SC_HC_D] < 0.0)
        return SC_SOLVE_NAN;
  }
  size_t off = 0;
  for (int t = 0; t < p->ntree; t++) {
    const int n = p->tree_ptr[t + 1] - p->tree_ptr[t];
    for (int a = 0; a < n; a++) {
      const double d = p->A[off + (size_t)a * (n + 1)];
      if (!(d > 0.0)) return SC_SOLVE_FACTOR;
      w->D[p->tree_dofs[p->tree_ptr[t] + a]] = 1.0 / sqrt(d);
    }
    off += (size_t)n * n;
  }
  const sc_solve_status st = choose_path(p, hessian, w);
  if (st != SC_SOLVE_OK) return st;
  mul_A(p, w, p->vstar, w->pstar);
  if (p->model != SC_MODEL_SAP && p->hc) sc_sap_hc_vhat(nc, p->hc, p->dt, w->vh);
  return SC_SOLVE_OK;
}

sc_status sc_sap_eval(const sc_problem* p, double soft_tol, sc_sap_work* w, const double* v,
                      double* cost, double* grad, double* gamma, double* H) {
  return sc_sap_eval_path(p, soft_tol, SC_SAP_HESSIAN_DENSE, w, v, cost, grad, gamma, H);
}

sc_status sc_sap_eval_path(const sc_problem* p, double soft_tol, int hessian, sc_sap_work* w,
                           const double* v, double* cost, double* grad, double* gamma,
                           double* H) {
  if (p->nv > w->nv_max || p->nc > w->nc_max) return SC_ERR_CAPACITY;
  if (hessian == SC_SAP_HESSIAN_DENSE && !w->Ad) return SC_ERR_CAPACITY;
  if (choose_path(p, hessian, w) != SC_SOLVE_OK) return SC_ERR_CAPACITY;
  if (H && hessian != SC_SAP_HESSIAN_DENSE && p->nc > 0 && !w->structured) return SC_ERR_CAPACITY;
  for (int i = 0; i < p->nv; i++) w->D[i] = 1.0;
  mul_A(p, w, p->vstar, w->pstar);
  if (p->model != SC_MODEL_SAP && p->hc) sc_sap_hc_vhat(p->nc, p->hc, p->dt, w->vh);
  eval_out e;
  evaluate(p, soft_tol, w, v, 0, &e);
  if (cost) *cost = e.cost;
  if (grad)
    for (int i = 0; i < p->nv; i++) grad[i] = w->grad[i];
  if (gamma)
    for (int i = 0; i < 3 * p->nc; i++) gamma[i] = w->gam[i];
  if (H) {
    sc_sap_hessian_assemble(&w->hess, p->nv, p->nc, w->Ad, w->Jd, w->G, p->tail);
    if (sc_sap_hessian_get(&w->hess, H) != 0) return SC_ERR_CAPACITY;
  }
  return SC_OK;
}

/* ---- line search ---- */

/* Cached data along the line v + alpha dv. */
typedef struct line {
  const sc_problem* p;
  sc_sap_work* w;
  double soft_tol;
  double costA, dp_r, a2; /* l_A(v), dp.(v - v*), dv^T A dv */
  int evals;
} line;

/* l(alpha), l'(alpha) and (when d2 non-NULL) l''(alpha) in O(nc): per
 * contact only l_i, dvc_i.gamma_i and dvc_i^T G_i dvc_i (sap_model.h's
 * directional form; G_i itself is never formed here). */
static void line_eval(line* ln, double alpha, double* l, double* d1, double* d2) {
  const sc_problem* p = ln->p;
  const sc_sap_work* w = ln->w;
  double lr = 0.0, dr = 0.0, hr = 0.0;
  /* the model is chosen once per evaluation, not per contact */
  if (p->model != SC_MODEL_SAP && p->hc && !p->kind) {
    /* one loop in sap_model.c, v^ from prepare() */
    sc_sap_hc_line_sums(p->nc, p->model == SC_MODEL_LAGGED, p->hc, w->vh, p->mu, p->dt, w->vc,
                        w->dvc, alpha, &lr, &dr, d2 ? &hr : NULL);
  } else
    for (int c = 0; c < p->nc; c++) {
      const double* dvc = w->dvc + 3 * c;
      double vc[3], lc, dg, dGd;
      const int t = sc_problem_tail(p, c);
      if (sc_problem_is_tail(p, c)) continue; /* with its contact */
      for (int k = 0; k < 3; k++) vc[k] = w->vc[3 * c + k] + alpha * dvc[k];
      if (t >= 0) {
        const double* dvt = w->dvc + 3 * t;
        double vt[3];
        for (int k = 0; k < 3; k++) vt[k] = w->vc[3 * t + k] + alpha * dvt[k];
        sc_sap_cone_eval_dir(p, c, vc, vt, dvc, dvt, ln->soft_tol, &lc, &dg, d2 ? &dGd : NULL);
      } else {
        sc_sap_contact_eval_dir(p, c, vc, dvc, ln->soft_tol, &lc, &dg, d2 ? &dGd : NULL);
      }
      lr += lc;
      dr -= dg;
      if (d2) hr += dGd;
    }
  *l = ln->costA + alpha * ln->dp_r + 0.5 * alpha * alpha * ln->a2 + lr;
  *d1 = ln->dp_r + alpha * ln->a2 + dr;
  if (d2) *d2 = ln->a2 + hr;
  ln->evals++;
}

/* Exact line search (doc/contact.md 8.2): returns 0 and *alpha, or nonzero on failure.
 * l0 = l(0), dl0 = l'(0) < 0.  Stops at |l'(alpha)| < max(1e-8 |l'(0)|,
 * slope_tol) (see LS_SLOPE_FRACTION) or when the root is bracketed within
 * 1e-8 alpha. */
static int search_exact(line* ln, const sc_sap_params* prm, double l0, double dl0,
                        double slope_tol, double* alpha) {
  const double amax = prm->alpha_max;
  if (-dl0 < prm->cost_abs_tol + prm->cost_rel_tol * fabs(l0)) {
    /* the slope is already at round-off level */
    *alpha = 1.0;
    return 0;
  }
  /* root of f = l'(alpha) / (-l'(0)), f(0) = -1 < 0, by Newton-Raphson with a
   * bisection safeguard on the bracket [lo, hi] */
  const double scale = -dl0, ftol = fmax(1e-8, slope_tol / scale);
  double l, d1, d2;
  /* first guess: the full Newton step.  With the exact Hessian
   * l''(0) = dv^T H dv = -l'(0), so alpha = 1 is the 1-D Newton step from 0
   * (with slip curvature H~ >= H it lies below that step). */
  double a = fmin(1.0, amax);
  line_eval(ln, a, &l, &d1, &d2);
  double f = d1 / scale, df = d2 / scale;
  if (fabs(f) < ftol) {
    *alpha = a;
    return 0;
  }
  double lo = 0.0, hi = a;
  if (f < 0.0) {
    /* the root lies beyond a: one Newton step first (near the solution it
     * lands on the root), alpha_max only when that does not bracket it */
    lo = a;
    const double anew = a - f / df;
    if (a < amax && df > 0.0 && anew < amax) {
      a = anew;
      line_eval(ln, a, &l, &d1, &d2);
      f = d1 / scale;
      df = d2 / scale;
      if (fabs(f) < ftol) {
        *alpha = a;
        return 0;
      }
      if (f < 0.0) lo = a; else hi = a;
    }
    if (f < 0.0) {
      if (!(a < amax)) {
        *alpha = amax;
        return 0;
      }
      double lh, fh, dfh; /* l stays the cost at a */
      line_eval(ln, amax, &lh, &fh, &dfh);
      if (fh <= 0.0) {
        /* convex: the minimum along the line lies beyond alpha_max */
        *alpha = amax;
        return 0;
      }
      hi = amax;
    }
  }
  const double atol = 1e-8 * a;
  double dx_old = hi - lo, dx = dx_old;
  while (ln->evals < prm->ls_max_iterations) {
    const double anew = a - f / df;
    /* a Newton step below atol ends the search only from a point whose cost
     * is not above l(0): with a near-rigid contact (l'' huge over a tiny
     * interval, l' at round-off) such a step can be tiny far from the root */
    const int newton = df > 0.0 && 2.0 * fabs(f) <= fabs(dx_old * df) && anew > lo &&
                       anew < hi && (l <= l0 || fabs(f / df) >= atol);
    dx_old = dx;
    if (newton) {
      dx = f / df;
      a = anew;
    } else {
      dx = 0.5 * (hi - lo);
      a = lo + dx;
    }
    if (fabs(dx) < atol) {
      *alpha = a;
      return 0;
    }
    line_eval(ln, a, &l, &d1, &d2);
    f = d1 / scale;
    df = d2 / scale;
    if (fabs(f) < ftol) {
      *alpha = a;
      return 0;
    }
    if (f < 0.0) lo = a; else hi = a;
  }
  return 1;
}

/* Backtracking (Armijo) line search (doc/contact.md 8.2): scans alpha = rho^r / rho down
 * to the first rise of l (convexity: the previous point was the discrete
 * minimum) that satisfies Armijo. */
static int search_backtracking(line* ln, const sc_sap_params* prm, double l0, double dl0,
                               double* alpha) {
  const double rho = 0.8, c = 1e-4, amax = 1.0 / rho;
  const int max_it = prm->ls_max_iterations < 40 ? prm->ls_max_iterations : 40;
  const double eps = 2.220446049250313e-16;
  double l, d1;
  line_eval(ln, amax, &l, &d1, NULL);
  const double slop = 1000.0 * eps * fmax(fabs(l0), fabs(l));
  if (d1 < 0.0 || fabs(d1) * amax <= slop) {
    *alpha = amax;
    return 0;
  }
  double a_prev = amax, l_prev = l;
  for (int it = 0; it < max_it; it++) {
    const double a = rho * a_prev;
    line_eval(ln, a, &l, &d1, NULL);
    const int armijo = l < l0 + c * a * dl0;
    if (l > l_prev && armijo) {
      *alpha = (l_prev < l0 + c * a_prev * dl0) ? a_prev : a;
      return 0;
    }
    if (fabs(l - l_prev) <= slop && armijo) {
      /* the cost is flat to round-off along the line */
      *alpha = a;
      return 0;
    }
    a_prev = a;
    l_prev = l;
  }
  return 1;
}

/* Chebyshev's correction of the Newton step w->dv (J dv in w->dvc) with H's
 * last factorization, and the bounds that keep it (see the top of this
 * file): without them, far from the solution the correction can turn the
 * direction almost orthogonal to the gradient and the line search stalls at
 * alpha = 0.  When kept, w->dv and w->dvc hold the corrected step.  Returns
 * nonzero when the solve failed. */
static int chebyshev(const sc_problem* p, sc_sap_work* w) {
  const int nv = p->nv, nc = p->nc;
  sc_sap_hc_lagged_third(nc, p->hc, w->vh, p->mu, p->dt, w->vc, w->dvc, w->t3);
  /* a box row's cost is piecewise quadratic: no third derivative */
  for (int c = 0; c < nc; c++)
    if (sc_problem_is_box(p, c)) w->t3[3 * c] = w->t3[3 * c + 1] = w->t3[3 * c + 2] = 0.0;
  mul_JT(p, w, w->t3, w->tmp);
  if (sc_sap_hessian_solve(&w->hess, w->tmp) != 0) return 1;
  double dl = 0.0, dlc = 0.0, nc2 = 0.0, nd2 = 0.0;
  for (int i = 0; i < nv; i++) {
    const double c = 0.5 * w->tmp[i], di2 = w->D[i] * w->D[i];
    nc2 += c * c / di2;
    nd2 += w->dv[i] * w->dv[i] / di2;
    dl += w->grad[i] * w->dv[i];
    w->tmp[i] = w->dv[i] - c;
    dlc += w->grad[i] * w->tmp[i];
  }
  if (nc2 <= 0.25 * nd2 && dlc <= 0.5 * dl && isfinite(dlc)) {
    for (int i = 0; i < nv; i++) w->dv[i] = w->tmp[i];
    mul_J(p, w, w->dv, w->dvc);
  }
  return 0;
}

/* ---- Newton direction from a held factorization ---- */

/* The Newton direction from a held factorization (see the top of this
 * file): conjugate gradients stop at |D r| <= max(PCG_TARGET_FRACTION
 * target, min(PCG_FORCING, sqrt(rho)) |D grad|), target = the stopping
 * test's threshold, rho the relative residual, and are tried while at most
 * nc / PCG_CHANGED_DIV contacts changed region since the factorization.
 * Chosen on the 216-sphere piles of the work-precision bench, settled and
 * forming (callgrind instruction counts of sc_step, doc/performance.md,
 * "A Newton iteration without a factorization"): eta = min(0.3, rho^1/2)
 * against min(0.3, rho) and 0, and nc / 256 against
 * nc / 64; the iteration cap is contact.cg_iterations. */
#define PCG_TARGET_FRACTION 0.1
#define PCG_FORCING 0.3
#define PCG_CHANGED_DIV 256

/* y = H~ x = A x + J^T G J x with the current G (w->G), without forming H */
static void mul_H(const sc_problem* p, sc_sap_work* w, const double* x, double* y) {
  const int nv = p->nv, nc = p->nc;
  mul_A(p, w, x, y);
  double* u = w->cg_u;
  mul_J(p, w, x, u);
  for (int c = 0; c < nc; c++) {
    if (sc_problem_is_tail(p, c)) continue; /* with its contact */
    const double* g = w->G + 9 * c;
    double* uc = u + 3 * c;
    const double u0 = uc[0], u1 = uc[1], u2 = uc[2];
    uc[0] = g[0] * u0 + g[1] * u1 + g[2] * u2;
    uc[1] = g[3] * u0 + g[4] * u1 + g[5] * u2;
    uc[2] = g[6] * u0 + g[7] * u1 + g[8] * u2;
    const int t = sc_problem_tail(p, c);
    if (t < 0) continue;
    /* the pair's 6 x 6 block: [Ghh Ght; Ght^T Gtt] */
    const double* gt = w->G + 9 * t;
    const double* gx = sc_sap_gx(w->G, nc, c);
    double* ut = u + 3 * t;
    const double t0 = ut[0], t1 = ut[1], t2 = ut[2];
    for (int k = 0; k < 3; k++) {
      uc[k] += gx[3 * k] * t0 + gx[3 * k + 1] * t1 + gx[3 * k + 2] * t2;
      ut[k] = gt[3 * k] * t0 + gt[3 * k + 1] * t1 + gt[3 * k + 2] * t2 + gx[k] * u0 +
              gx[3 + k] * u1 + gx[6 + k] * u2;
    }
  }
  mul_JT(p, w, u, w->tmp);
  for (int i = 0; i < nv; i++) y[i] += w->tmp[i];
}

/* dv = -H~^-1 grad by conjugate gradients (Hestenes & Stiefel 1952;
 * Saad, "Iterative Methods for Sparse Linear Systems", 2003, alg. 9.1)
 * preconditioned with the factorization the block path still holds -- of
 * an earlier iterate's H, or of the last pass's when this solve re-solves
 * the same island -- until |D (H~ dv + grad)| <= tol.  The iterates from
 * dv = 0 are descent directions (grad.dv < 0) whatever the preconditioner,
 * so the line search and the stopping test need no change; the Newton step
 * is inexact by at most tol.  Returns the iterations taken, or 0 when
 * maxit were not enough (or H~ lost positive curvature to round-off). */
static int pcg_direction(const sc_problem* p, sc_sap_work* w, double tol, int maxit) {
  const int nv = p->nv;
  double *x = w->dv, *r = w->cg_r, *z = w->cg_z, *d = w->cg_d, *q = w->cg_q;
  for (int i = 0; i < nv; i++) {
    x[i] = 0.0;
    r[i] = z[i] = -w->grad[i];
  }
  if (sc_sap_hessian_solve(&w->hess, z) != 0) return 0;
  double rz = sc_la_dot(nv, r, z);
  for (int i = 0; i < nv; i++) d[i] = z[i];
  for (int it = 1; it <= maxit; it++) {
    mul_H(p, w, d, q);
    const double dq = sc_la_dot(nv, d, q);
    if (!(dq > 0.0) || !(rz > 0.0)) return 0;
    const double a = rz / dq;
    double nr = 0.0;
    for (int i = 0; i < nv; i++) {
      x[i] += a * d[i];
      r[i] -= a * q[i];
      nr += w->D[i] * w->D[i] * r[i] * r[i];
    }
    if (sqrt(nr) <= tol) return it;
    for (int i = 0; i < nv; i++) z[i] = r[i];
    if (sc_sap_hessian_solve(&w->hess, z) != 0) return 0;
    const double rz1 = sc_la_dot(nv, r, z), beta = rz1 / rz;
    rz = rz1;
    for (int i = 0; i < nv; i++) d[i] = z[i] + beta * d[i];
  }
  return 0;
}

void sc_sap_reuse_factor(sc_sap_work* w) { w->reuse_next = 1; }

/* ---- Newton loop ---- */

/* The exact line search also stops once the slope left along the line,
 * |l'(alpha)|, is below this fraction of what the stopping test can resolve,
 * (abs_tol + rel_tol scale) |D^-1 dv|: the component of D grad along the
 * line is then under a tenth of the tolerance, so resolving the root further
 * cannot change whether, or when, the iteration stops.  Far from the
 * solution this is far below 1e-8 |l'(0)| and changes nothing; near it the
 * full step alpha = 1 usually passes at the first evaluation. */
#define LS_SLOPE_FRACTION 0.1


/* Trace row j (the iterate after Newton iteration j + 1), written once that
 * iterate has been evaluated; w->region holds its regions, w->region_prev
 * those of the iterate before. */
static void trace_row(sc_solver_trace* t, int j, const sc_sap_work* w, int nc, double residual,
                      double alpha, double cost_decrease, int ls_evals) {
  if (j >= t->cap) return;
  int count[4] = {0, 0, 0, 0}, changed = 0;
  for (int c = 0; c < nc; c++) {
    count[w->region[c] & 3]++;
    changed += w->region[c] != w->region_prev[c];
  }
  t->residual[j] = residual;
  t->alpha[j] = alpha;
  t->cost_decrease[j] = cost_decrease;
  t->ls_evals[j] = ls_evals;
  t->n_stick[j] = count[1];
  t->n_slide[j] = count[2];
  t->n_separated[j] = count[3];
  t->n_changed[j] = changed;
  t->n = j + 1;
}

sc_solve_status sc_sap_solve(const sc_problem* p, const sc_sap_params* prm, sc_sap_work* w,
                             double* v, double* gamma, sc_solver_stats* stats) {
  return sc_sap_solve_from(p, prm, w, v, NULL, gamma, stats);
}

sc_solve_status sc_sap_solve_from(const sc_problem* p, const sc_sap_params* prm, sc_sap_work* w,
                                  double* v, const double* v_alt, double* gamma,
                                  sc_solver_stats* stats) {
  sc_solver_stats st = {0, 0, 0.0, 0.0, SC_SOLVE_OK, 0};
  const int nv = p->nv, nc = p->nc, m = 3 * nc;
  if (!w->reuse_next) sc_sap_sparse_forget_factor(w->sp);
  w->reuse_next = 0;
  sc_solve_status status = prepare(p, prm->hessian, w);
  int evaluated = 0;
  sc_solver_trace* trace = prm->trace;
  if (trace && !prm->trace_append) trace->n = 0;
  const int trace0 = trace ? trace->n : 0; /* rows of earlier solves of the step */

  if (status == SC_SOLVE_OK && nc == 0) {
    for (int i = 0; i < nv; i++) v[i] = p->vstar[i];
  } else if (status == SC_SOLVE_OK && !all_finite(nv, v)) {
    status = SC_SOLVE_NAN;
  } else if (status == SC_SOLVE_OK) {
    eval_out e;
    if (v_alt && all_finite(nv, v_alt)) {
      eval_out ea;
      evaluate(p, prm->soft_tol, w, v, 0, &e);
      evaluate(p, prm->soft_tol, w, v_alt, 0, &ea);
      /* a lower cost alone can be a worse Newton start: it may put a contact
       * in another region (a rolling cylinder then takes 2 iterations, not 1) */
      if (ea.cost < e.cost &&
          ea.norm_grad * fmax(e.norm_p, e.norm_j) < e.norm_grad * fmax(ea.norm_p, ea.norm_j))
        for (int i = 0; i < nv; i++) v[i] = v_alt[i];
    }
    double cost_prev = 0.0, alpha_prev = 0.0;
    int evals_prev = 0;
    for (int k = 0;; k++) {
      evaluate(p, prm->soft_tol, w, v, k > 0, &e);
      evaluated = 1;
      for (int i = 0; i < m; i++) gamma[i] = w->gam[i];
      st.cost = e.cost;
      const double scale = fmax(e.norm_p, e.norm_j);
      st.residual = scale > 0.0 ? e.norm_grad / scale : 0.0;
      if (trace && k > 0)
        trace_row(trace, trace0 + k - 1, w, nc, st.residual, alpha_prev, cost_prev - e.cost,
                  evals_prev);
      if (!isfinite(e.cost) || !isfinite(e.norm_grad)) {
        status = SC_SOLVE_NAN;
        break;
      }
      /* momentum-balance criterion */
      if (k >= prm->min_iterations && e.norm_grad <= prm->abs_tol + prm->rel_tol * scale) break;
      /* cost stall after a full-ish step: round-off on an ill-conditioned problem */
      if (k > 0 && alpha_prev > 0.5 &&
          fabs(e.cost - cost_prev) <
              prm->cost_abs_tol + prm->cost_rel_tol * 0.5 * (fabs(e.cost) + fabs(cost_prev)))
        break;
      if (k >= prm->max_iterations) {
        status = SC_SOLVE_MAXIT;
        break;
      }
      if (prm->cancel && *prm->cancel) {
        status = SC_SOLVE_CANCELLED;
        break;
      }

      /* Newton direction dv = -H^-1 grad (dense or sparse, see sap_hessian.h;
       * the sparse path does its symbolic analysis at the first call) */
      int modified = 0; /* contacts whose G got extra curvature */
      {
        const double om = st.residual > prm->slip_curvature_until ? prm->slip_curvature : 0.0;
        if (om > 0.0 || (k > 0 && prm->reversal_curvature > 0.0))
          modified = slip_curvature(p, prm->soft_tol, om, prm->reversal_curvature, k > 0, w);
      }
      st.iterations++;
      int cg = 0; /* CG iterations of this direction; 0: it came from a new factor */
      if (prm->cg_max_iterations > 0 && w->hess.sp && sc_sap_sparse_has_factor(w->hess.sp)) {
        int changed = 0;
        for (int c = 0; c < nc; c++) changed += w->region[c] != w->region_fac[c];
        const double target = prm->abs_tol + prm->rel_tol * scale;
        const double eta = fmin(PCG_FORCING, sqrt(st.residual));
        if (PCG_CHANGED_DIV * changed <= nc)
          cg = pcg_direction(p, w, fmax(PCG_TARGET_FRACTION * target, eta * e.norm_grad),
                             prm->cg_max_iterations);
      }
      if (!cg) {
        sc_sap_hessian_assemble(&w->hess, nv, nc, w->structured ? NULL : w->Ad,
                                w->structured ? NULL : w->Jd, w->G, p->tail);
        if (sc_sap_hessian_factor(&w->hess) != 0) {
          status = SC_SOLVE_FACTOR;
          break;
        }
        st.factorizations++;
        for (int c = 0; c < nc; c++) w->region_fac[c] = w->region[c];
        for (int i = 0; i < nv; i++) w->dv[i] = -w->grad[i];
        if (sc_sap_hessian_solve(&w->hess, w->dv) != 0) {
          status = SC_SOLVE_FACTOR;
          break;
        }
      }

      /* J dv, then Chebyshev's correction of dv where it applies, then the
       * line-search cache for the final direction */
      mul_J(p, w, w->dv, w->dvc);
      if (!cg && !modified && st.residual >= prm->chebyshev_from && st.residual < prm->chebyshev_until &&
          p->model == SC_MODEL_LAGGED && p->hc && !p->tail && chebyshev(p, w) != 0) {
        status = SC_SOLVE_FACTOR;
        break;
      }
      line ln = {p, w, prm->soft_tol, e.costA, 0.0, 0.0, 0};
      mul_A(p, w, w->dv, w->dp);
      ln.dp_r = sc_la_dot(nv, w->dp, w->r);
      ln.a2 = sc_la_dot(nv, w->dv, w->dp);
      const double dl0 = sc_la_dot(nv, w->grad, w->dv);
      /* |D^-1 dv|: the slope l'(alpha) = grad(alpha).dv that a scaled
       * gradient of norm g can have is at most g |D^-1 dv| */
      double ndv = 0.0;
      for (int i = 0; i < nv; i++) ndv += w->dv[i] * w->dv[i] / (w->D[i] * w->D[i]);
      const double slope_tol =
          LS_SLOPE_FRACTION * (prm->abs_tol + prm->rel_tol * scale) * sqrt(ndv);
      if (!isfinite(dl0) || !isfinite(ln.a2)) {
        status = SC_SOLVE_NAN;
        break;
      }
      if (dl0 >= 0.0) {
        /* not a descent direction: the factorization lost it to round-off,
         * or (an iteration min_iterations forced) v already meets the
         * tolerance and the step is round-off */
        if (e.norm_grad > prm->abs_tol + prm->rel_tol * scale) status = SC_SOLVE_LINESEARCH;
        break;
      }
      double alpha = 1.0;
      const int fail = prm->linesearch == SC_SAP_LS_BACKTRACKING
                           ? search_backtracking(&ln, prm, e.cost, dl0, &alpha)
                           : search_exact(&ln, prm, e.cost, dl0, slope_tol, &alpha);
      st.linesearch_evals += ln.evals;
      if (fail) {
        status = SC_SOLVE_LINESEARCH;
        break;
      }
      if (prm->reversal_curvature > 0.0)
        for (int i = 0; i < m; i++) w->vc_prev[i] = w->vc[i];
      for (int i = 0; i < nv; i++) {
        v[i] += alpha * w->dv[i];
        w->r[i] += alpha * w->dv[i];
        w->Ar[i] += alpha * w->dp[i];
      }
      /* w->dvc (J dv) stays until the next iteration's line search */
      for (int i = 0; i < m; i++) w->vc[i] += alpha * w->dvc[i];
      cost_prev = e.cost;
      alpha_prev = alpha;
      evals_prev = ln.evals;
      if (trace)
        for (int c = 0; c < nc; c++) w->region_prev[c] = w->region[c];
    }
  }
  if (!evaluated)
    /* failed before any evaluation (or nc == 0): no impulses */
    for (int i = 0; i < m; i++) gamma[i] = 0.0;
  st.status = status;
  if (stats) *stats = st;
  return status;
}
