/* sap_model: per-contact cost l_i, impulse gamma_i = -dl_i/dvc_i and Hessian
 * G_i = d^2 l_i/dvc_i^2 of the three convex contact models solved by the
 * same Newton iteration (sap.c).  Sources: Castro, Permenter & Han,
 * arXiv 2110.10107 (SAP); Castro, Han & Masterjohn, "A Theory of
 * Irrotational Contact Fields", arXiv 2312.03908 (similar, lagged); the
 * formulas in simc's notation in doc/contact.md section 4.  vc = (vt1, vt2, vn),
 * vn > 0 separating.
 *
 * SAP (model 0): l_i = 1/2 |P_F(y)|_R^2, y = R^-1 (vhat - vc), see sap_cone.c.
 *
 * Hunt-Crossley normal law.  Penetration x = -phi, force
 * f = k x+ (1 + d xdot)+ with stiffness k (N/m) and dissipation d (s/m).
 * Over the step the penetration where the force acts is taken at the
 * integrator's theta (theta = theta_vq; 1 for implicit Euler, 1/2 midpoint):
 *   x^theta(v) = x0 - theta dt (theta v + (1 - theta) vn0),
 * i.e. x at t + theta dt when q advances with v^theta = theta v + (1 - theta) vn0
 * (for theta = 1/2 this is (x0 + x1)/2: the midpoint rule, which conserves the
 * energy of a linear spring exactly).  The dissipation factor uses the
 * end-of-step velocity (as the source; first order in dt).  With
 *   k_th = theta^2 k,  fe0 = k (x0 - theta (1 - theta) dt vn0)     (any sign)
 * the discrete normal impulse is
 *   n(v) = dt (fe0 - dt k_th v)+ (1 - d v)+,
 * zero for v >= v^ = min(fe0 / (dt k_th), 1/d).  For v < v^:
 *   n'(v) = -dt [k_th dt (1 - d v) + d (fe0 - dt k_th v)]  (<= 0),
 *   N(v)  = dt [v (fe0 + df/2) - d v^2/2 (fe0 + 2 df/3)],  df = -dt k_th v,
 * with N' = n; N(v) = N(v^) beyond v^.  -N is convex since n is
 * non-increasing.  theta = 1 gives the source's law exactly.  fe0 < 0 (a gap
 * within the detection margin) makes the contact act only when the step
 * would close the gap.  Stiffness above 4 pi^2 / (beta^2 w dt^2) (period
 * shorter than beta dt, the near-rigid floor of SAP) is capped there;
 * "rigid" contacts use that cap.  Impulse at the step start:
 *   n0 = dt max(0, k x0) max(0, 1 - d vn0).
 *
 * Restitution (doc/contact.md 4.7): the contact stage gives an impact's
 * row k = the near-rigid cap, d = 0 and theta = 1, so n(v) = dt (fe0 - dt k v)+,
 * and moves its zero v^ = fe0 / (dt k) to the target v_r by fe0 = dt k v_r:
 * a shift of the argument of the same law, convex as before.
 *
 * Regularized friction: |v_t|_s = sqrt(|v_t|^2 + eps^2) - eps,
 * t = v_t / (|v_t|_s + eps) (d|v_t|_s/dv_t = t), P = t t^T, Pp = I2 - P,
 * eps = max(vs, mu sigma w n0): vs the stiction tolerance, sigma w = Rt of
 * SAP (w the scalar Delassus estimate stands in for w_t).  The friction
 * terms act on the slip relative to a target u_t = v_t - v^_t (hc's VT0,
 * VT1; SAP's v^_t): the stiction anchor's -a_t / dt (doc/contact.md 4.6,
 * set in integrator/contact_stage.c), 0 without one.  Every formula below
 * holds with v_t read as u_t (a shift of the argument keeps l convex and
 * leaves G unchanged in form).
 *
 * Similar: z = vn - mu |v_t|_s,
 *   l = -N(z),  gamma = (-mu n(z) t, n(z)),
 *   G_tt = -mu^2 n'(z) P + mu n(z) Pp / (|v_t|_s + eps),
 *   G_tn = mu n'(z) t,  G_nn = -n'(z)
 *   (= -n' (mu t, -1)(mu t, -1)^T + mu n Pp/(..) : PSD since |t| < 1).
 * Lagged (friction bounded by the step-start impulse, |gamma_t| <= mu n0):
 *   l = -N(vn) + mu n0 |v_t|_s,  gamma = (-mu n0 t, n(vn)),
 *   G_tt = mu n0 Pp / (|v_t|_s + eps),  G_tn = 0,  G_nn = -n'(vn).
 * Third derivatives along a direction d (lagged only; sap.c's Chebyshev
 * correction): with s = |v_t|_s + eps, t = v_t / s,
 *   D^3 (mu n0 |v_t|_s)[d, d] = mu n0 / s^2 (3 t (t.d_t)^2 - 2 d_t (t.d_t) - t |d_t|^2)
 * (the derivative of mu n0 (I/s - v_t v_t^T/s^3) d_t along d_t), and
 *   D^3 (-N(vn))[d, d] = -n''(vn) d_n^2,  n'' = 2 dt^2 k d  below v^, 0 beyond.
 * Regions reported (for the solver trace): 3 when n = 0 (lagged friction may
 * still act then), else 1 when |v_t| < eps (the soft, viscous part of the
 * friction law), else 2. */
#include "solver_sap/sap_model.h"

#include <math.h>

#include "solver_sap/sap.h"

/* fmin(a, b) as the C library computes it for quiet NaNs (b when a is
 * NaN, a when b is), but inlined: the line search calls it per contact and
 * evaluation */
static inline double min_of(double a, double b) { return (a < b || b != b) ? a : b; }

/* v^ = min(fe0 / (dt k), 1 / d): where n(v) reaches zero; -HUGE_VAL when
 * k = 0 and fe0 <= 0 (no force anywhere).  A constant of the contact, so
 * the line search takes it from sc_sap_hc_vhat instead. */
static inline double hc_vhat(double dt, double k, double fe0, double d) {
  const double vd = d > 0.0 ? 1.0 / d : HUGE_VAL;
  const double vx = k > 0.0 ? fe0 / (dt * k) : (fe0 > 0.0 ? HUGE_VAL : -HUGE_VAL);
  return min_of(vx, vd);
}

void sc_sap_hc_vhat(int nc, const double* hc, double dt, double* vh) {
  for (int c = 0; c < nc; c++) {
    const double* h = hc + SC_HC_NPAR * c;
    vh[c] = hc_vhat(dt, h[SC_HC_K], h[SC_HC_FE0], h[SC_HC_D]);
  }
}

/* n, n' and N at v, given v^ (hc_vhat) */
static inline void hc_normal_at(double v, double dt, double k, double fe0, double d, double vh,
                                double* n, double* dn, double* N) {
  if (vh == -HUGE_VAL) {
    /* k = 0 and no elastic force: n = 0 everywhere */
    *n = *dn = *N = 0.0;
    return;
  }
  const double u = min_of(v, vh);
  const double df = -dt * k * u;
  *N = dt * (u * (fe0 + 0.5 * df) - d * u * u * 0.5 * (fe0 + 2.0 / 3.0 * df));
  if (v < vh) {
    const double fe = fe0 - dt * k * v, damp = 1.0 - d * v;
    *n = dt * fe * damp;
    *dn = -dt * (k * dt * damp + d * fe);
  } else {
    *n = *dn = 0.0;
  }
}

void sc_sap_hc_normal(double v, double dt, double k, double fe0, double d, double* n,
                      double* dn, double* N) {
  hc_normal_at(v, dt, k, fe0, d, hc_vhat(dt, k, fe0, d), n, dn, N);
}

__attribute__((always_inline)) static inline int hc_eval(int lagged, const double hc[SC_HC_NPAR],
                                                        double vh, double mu, double dt,
                                                        const double vc[3], double gamma[3],
                                                        double G[9], double* cost) {
  const double eps = hc[SC_HC_EPS];
  const double u0 = vc[0] - hc[SC_HC_VT0], u1 = vc[1] - hc[SC_HC_VT1];
  const double vt2 = u0 * u0 + u1 * u1;
  const double s = sqrt(vt2 + eps * eps); /* |u_t|_s + eps */
  const double vts = vt2 / (s + eps);     /* |u_t|_s without cancellation */
  const double t0 = u0 / s, t1 = u1 / s;
  double n, dn, N, nf;
  if (lagged) {
    hc_normal_at(vc[2], dt, hc[SC_HC_K], hc[SC_HC_FE0], hc[SC_HC_D], vh, &n, &dn, &N);
    nf = hc[SC_HC_N0];
    if (cost) *cost = -N + mu * nf * vts;
  } else {
    hc_normal_at(vc[2] - mu * vts, dt, hc[SC_HC_K], hc[SC_HC_FE0], hc[SC_HC_D], vh, &n, &dn,
                 &N);
    nf = n;
    if (cost) *cost = -N;
  }
  gamma[0] = -mu * nf * t0;
  gamma[1] = -mu * nf * t1;
  gamma[2] = n;
  if (G) {
    const double a = mu * nf / s;             /* coefficient of Pp */
    const double b = lagged ? 0.0 : -mu * mu * dn; /* coefficient of P */
    const double p00 = t0 * t0, p01 = t0 * t1, p11 = t1 * t1;
    G[0] = a * (1.0 - p00) + b * p00;
    G[1] = -a * p01 + b * p01;
    G[3] = G[1];
    G[4] = a * (1.0 - p11) + b * p11;
    const double c = lagged ? 0.0 : mu * dn;
    G[2] = c * t0;
    G[5] = c * t1;
    G[6] = G[2];
    G[7] = G[5];
    G[8] = -dn;
  }
  if (n == 0.0) return 3;
  return vt2 < eps * eps ? 1 : 2;
}

int sc_sap_hc_eval(int lagged, const double hc[SC_HC_NPAR], double mu, double dt,
                   const double vc[3], double gamma[3], double G[9], double* cost) {
  const double vh = hc_vhat(dt, hc[SC_HC_K], hc[SC_HC_FE0], hc[SC_HC_D]);
  return hc_eval(lagged, hc, vh, mu, dt, vc, gamma, G, cost);
}

double sc_sap_hc_eval_all(int nc, int lagged, const double* hc, const double* vh,
                          const double* mu, double dt, const double* vc, double* gamma,
                          double* G, int* region) {
  double cost = 0.0;
  for (int c = 0; c < nc; c++) {
    double lc;
    region[c] = hc_eval(lagged, hc + SC_HC_NPAR * c, vh[c], mu[c], dt, vc + 3 * c,
                        gamma + 3 * c, G + 9 * c, &lc);
    cost += lc;
  }
  return cost;
}

/* A box row (problem.h): y = (vhat - vc) / R, gamma = clamp(y, lo, hi),
 *   l = R y^2 / 2                 for lo <= y <= hi   (G = 1 / R)
 *   l = R (b y - b^2 / 2)         beyond a bound b     (G = 0),
 * continuous with its derivative -gamma at the bounds, and convex since
 * gamma does not increase with vc.  Region 1 between the bounds, 2 at a
 * bound with gamma != 0, 3 at gamma = 0 (a limit letting go). */
int sc_sap_box_eval(double vc, double R, double vhat, double lo, double hi, double* gamma,
                    double* g, double* cost) {
  const double y = (vhat - vc) / R;
  if (y >= lo && y <= hi) {
    *gamma = y;
    if (g) *g = 1.0 / R;
    if (cost) *cost = 0.5 * R * y * y;
    return 1;
  }
  const double b = y > hi ? hi : lo;
  *gamma = b;
  if (g) *g = 0.0;
  if (cost) *cost = R * (b * y - 0.5 * b * b);
  return b == 0.0 ? 3 : 2;
}

static int box_eval(const sc_problem* p, int c, const double vc[3], double gamma[3], double G[9],
                    double* cost) {
  double g;
  gamma[0] = gamma[1] = 0.0;
  const int r = sc_sap_box_eval(vc[2], p->R[3 * c + 2], p->vhat[3 * c + 2], p->bound[2 * c],
                                p->bound[2 * c + 1], gamma + 2, G ? &g : NULL, cost);
  if (G) {
    for (int k = 0; k < 9; k++) G[k] = 0.0;
    G[8] = g;
  }
  return r;
}

int sc_sap_contact_eval(const sc_problem* p, int c, const double vc[3], double soft_tol,
                        double gamma[3], double G[9], double* cost) {
  if (sc_problem_is_box(p, c)) return box_eval(p, c, vc, gamma, G, cost);
  if (p->model != SC_MODEL_SAP && p->hc)
    return sc_sap_hc_eval(p->model == SC_MODEL_LAGGED, p->hc + SC_HC_NPAR * c, p->mu[c], p->dt,
                          vc, gamma, G, cost);
  const double* R = p->R + 3 * c;
  double y[3];
  for (int k = 0; k < 3; k++) y[k] = (p->vhat[3 * c + k] - vc[k]) / R[k];
  return sc_sap_project(y, R, p->mu[c], soft_tol, gamma, G, cost);
}

/* Directional form (line search): for a direction d of vc, with
 * tau = t.d_t and 1 - |t|^2 = eps^2 / s^2 (s = |v_t|_s + eps),
 *   d.gamma   = n d_n - mu nf tau,
 *   d^T G d   = (mu nf / s) (|d_t|^2 - tau^2) - n' u^2,
 * u = d_n (lagged) or d_n - mu tau (similar), from G_tt, G_tn, G_nn above;
 * |d_t|^2 - tau^2 = (d0 t1 - d1 t0)^2 + |d_t|^2 (1 - |t|^2) has no
 * cancellation. */
__attribute__((always_inline)) static inline int hc_eval_dir(int lagged,
                                                            const double hc[SC_HC_NPAR],
                                                            double vh, double mu, double dt,
                                                            const double vc[3], const double d[3],
                                                            double* cost, double* dg,
                                                            double* dGd) {
  const double eps = hc[SC_HC_EPS];
  const double u0 = vc[0] - hc[SC_HC_VT0], u1 = vc[1] - hc[SC_HC_VT1];
  const double vt2 = u0 * u0 + u1 * u1;
  const double s = sqrt(vt2 + eps * eps);
  const double vts = vt2 / (s + eps);
  const double t0 = u0 / s, t1 = u1 / s;
  double n, dn, N, nf;
  if (lagged) {
    hc_normal_at(vc[2], dt, hc[SC_HC_K], hc[SC_HC_FE0], hc[SC_HC_D], vh, &n, &dn, &N);
    nf = hc[SC_HC_N0];
    *cost = -N + mu * nf * vts;
  } else {
    hc_normal_at(vc[2] - mu * vts, dt, hc[SC_HC_K], hc[SC_HC_FE0], hc[SC_HC_D], vh, &n, &dn,
                 &N);
    nf = n;
    *cost = -N;
  }
  const double tau = t0 * d[0] + t1 * d[1];
  *dg = n * d[2] - mu * nf * tau;
  if (dGd) {
    const double cross = d[0] * t1 - d[1] * t0, e = eps / s;
    const double perp = cross * cross + (d[0] * d[0] + d[1] * d[1]) * e * e;
    const double u = lagged ? d[2] : d[2] - mu * tau;
    *dGd = mu * nf / s * perp - dn * u * u;
  }
  if (n == 0.0) return 3;
  return vt2 < eps * eps ? 1 : 2;
}

int sc_sap_hc_eval_dir(int lagged, const double hc[SC_HC_NPAR], double mu, double dt,
                       const double vc[3], const double d[3], double* cost, double* dg,
                       double* dGd) {
  const double vh = hc_vhat(dt, hc[SC_HC_K], hc[SC_HC_FE0], hc[SC_HC_D]);
  return hc_eval_dir(lagged, hc, vh, mu, dt, vc, d, cost, dg, dGd);
}

void sc_sap_hc_line_sums(int nc, int lagged, const double* hc, const double* vh,
                         const double* mu, double dt, const double* vc, const double* dvc,
                         double alpha, double* l, double* dl, double* d2l) {
  double lr = 0.0, dr = 0.0, hr = 0.0;
  for (int c = 0; c < nc; c++) {
    const double* d = dvc + 3 * c;
    double v[3], lc, dg, dGd;
    for (int k = 0; k < 3; k++) v[k] = vc[3 * c + k] + alpha * d[k];
    const double* h = hc + SC_HC_NPAR * c;
    if (lagged && mu[c] * h[SC_HC_N0] == 0.0) {
      /* no lagged friction (no impulse at the step start, or mu = 0): the
       * normal terms alone, which is what hc_eval_dir returns with its
       * friction terms exactly zero (v and d are finite here: the Newton
       * loop checked d^T A d and vc) -- skips a square root and three
       * divisions for each contact that was apart at the step start */
      double n, dn, N;
      hc_normal_at(v[2], dt, h[SC_HC_K], h[SC_HC_FE0], h[SC_HC_D], vh[c], &n, &dn, &N);
      lc = -N;
      dg = n * d[2];
      dGd = -dn * d[2] * d[2];
    } else
      hc_eval_dir(lagged, h, vh[c], mu[c], dt, v, d, &lc, &dg, d2l ? &dGd : NULL);
    lr += lc;
    dr -= dg;
    if (d2l) hr += dGd;
  }
  *l = lr;
  *dl = dr;
  if (d2l) *d2l = hr;
}

int sc_sap_contact_eval_dir(const sc_problem* p, int c, const double vc[3], const double d[3],
                            double soft_tol, double* cost, double* dg, double* dGd) {
  if (sc_problem_is_box(p, c)) {
    double gam, g;
    const int r = sc_sap_box_eval(vc[2], p->R[3 * c + 2], p->vhat[3 * c + 2], p->bound[2 * c],
                                  p->bound[2 * c + 1], &gam, dGd ? &g : NULL, cost);
    *dg = d[2] * gam;
    if (dGd) *dGd = g * d[2] * d[2];
    return r;
  }
  if (p->model != SC_MODEL_SAP && p->hc)
    return sc_sap_hc_eval_dir(p->model == SC_MODEL_LAGGED, p->hc + SC_HC_NPAR * c, p->mu[c],
                              p->dt, vc, d, cost, dg, dGd);
  const double* R = p->R + 3 * c;
  double y[3];
  for (int k = 0; k < 3; k++) y[k] = (p->vhat[3 * c + k] - vc[k]) / R[k];
  return sc_sap_project_dir(y, R, p->mu[c], soft_tol, d, cost, dg, dGd);
}

void sc_sap_hc_slip_curvature(const sc_problem* p, int c, const double vc[3], double omega,
                              double G[9]) {
  const double* hc = p->hc + SC_HC_NPAR * c;
  const double eps = hc[SC_HC_EPS], mu = p->mu[c];
  const double w0 = vc[0] - hc[SC_HC_VT0], w1 = vc[1] - hc[SC_HC_VT1];
  const double vt = hypot(w0, w1);
  if (!(vt >= eps) || vt == 0.0) return; /* only sliding contacts */
  const double s = sqrt(vt * vt + eps * eps);
  double nf = hc[SC_HC_N0];
  if (p->model != SC_MODEL_LAGGED) {
    double dn, N;
    sc_sap_hc_normal(vc[2] - mu * vt * vt / (s + eps), p->dt, hc[SC_HC_K], hc[SC_HC_FE0],
                     hc[SC_HC_D], &nf, &dn, &N);
  }
  const double add = omega * mu * nf / s;
  const double u0 = w0 / vt, u1 = w1 / vt;
  G[0] += add * u0 * u0;
  G[1] += add * u0 * u1;
  G[3] += add * u1 * u0;
  G[4] += add * u1 * u1;
}

void sc_sap_hc_lagged_third(int nc, const double* hc, const double* vh, const double* mu,
                            double dt, const double* vc, const double* d, double* out) {
  for (int c = 0; c < nc; c++) {
    const double* h = hc + SC_HC_NPAR * c;
    const double* v = vc + 3 * c;
    const double* e = d + 3 * c;
    const double eps = h[SC_HC_EPS];
    const double u0 = v[0] - h[SC_HC_VT0], u1 = v[1] - h[SC_HC_VT1];
    const double s = sqrt(u0 * u0 + u1 * u1 + eps * eps);
    const double t0 = u0 / s, t1 = u1 / s;
    const double td = t0 * e[0] + t1 * e[1], dd = e[0] * e[0] + e[1] * e[1];
    const double f = mu[c] * h[SC_HC_N0] / (s * s);
    out[3 * c] = f * (3.0 * t0 * td * td - 2.0 * e[0] * td - t0 * dd);
    out[3 * c + 1] = f * (3.0 * t1 * td * td - 2.0 * e[1] * td - t1 * dd);
    out[3 * c + 2] = v[2] < vh[c] ? -2.0 * dt * dt * h[SC_HC_K] * h[SC_HC_D] * e[2] * e[2] : 0.0;
  }
}

/* A contact c and its cone tail t (core/problem.h): one cone over five
 * tangential components (t1, t2 of c; the three rows of t) and c's normal
 * row.  Under sap the projection of sap_cone.c with every tangential
 * component regularized by c's R_t; under the Hunt-Crossley models the
 * friction law above with u_t the five-vector (u_t1, u_t2 less the anchor's
 * target, then t's rows less its vhat): |u_t|_s, t = u_t / s, P and Pp of
 * dimension five, the normal impulse n unchanged.  The pair's 6 x 6 G is
 * returned as its blocks; c's rows sit at places (0, 1, n) of the
 * five-plus-one vector, t's at (2, 3, 4). */
static void cone_y(const sc_problem* p, int c, const double vh[3], const double vt[3],
                   double yt[5], double* yn) {
  const int t = p->tail[c];
  const double* R = p->R + 3 * c;
  yt[0] = (p->vhat[3 * c] - vh[0]) / R[0];
  yt[1] = (p->vhat[3 * c + 1] - vh[1]) / R[0];
  for (int k = 0; k < 3; k++) yt[2 + k] = (p->vhat[3 * t + k] - vt[k]) / R[0];
  *yn = (p->vhat[3 * c + 2] - vh[2]) / R[2];
}

/* the Hunt-Crossley pair: u (5) the tangential velocities about their
 * targets, vn the normal velocity */
static int hc_cone_eval(int lagged, const double* h, double mu, double dt, const double u[5],
                        double vn, double g5[5], double* gn, double* G55, double* G5n,
                        double* Gnn, double* cost) {
  const double eps = h[SC_HC_EPS];
  double vt2 = 0.0;
  for (int k = 0; k < 5; k++) vt2 += u[k] * u[k];
  const double s = sqrt(vt2 + eps * eps), vts = vt2 / (s + eps);
  const double vh = hc_vhat(dt, h[SC_HC_K], h[SC_HC_FE0], h[SC_HC_D]);
  double n, dn, N, nf;
  if (lagged) {
    hc_normal_at(vn, dt, h[SC_HC_K], h[SC_HC_FE0], h[SC_HC_D], vh, &n, &dn, &N);
    nf = h[SC_HC_N0];
    if (cost) *cost = -N + mu * nf * vts;
  } else {
    hc_normal_at(vn - mu * vts, dt, h[SC_HC_K], h[SC_HC_FE0], h[SC_HC_D], vh, &n, &dn, &N);
    nf = n;
    if (cost) *cost = -N;
  }
  for (int k = 0; k < 5; k++) g5[k] = -mu * nf * u[k] / s;
  *gn = n;
  if (G55) {
    const double a = mu * nf / s, b = lagged ? 0.0 : -mu * mu * dn, c = lagged ? 0.0 : mu * dn;
    for (int i = 0; i < 5; i++) {
      for (int j = 0; j < 5; j++) G55[5 * i + j] = (b - a) * u[i] / s * u[j] / s + (i == j ? a : 0.0);
      G5n[i] = c * u[i] / s;
    }
    *Gnn = -dn;
  }
  if (n == 0.0) return 3;
  return vt2 < eps * eps ? 1 : 2;
}

static void hc_cone_u(const sc_problem* p, int c, const double vh[3], const double vt[3],
                      double u[5]) {
  const int t = p->tail[c];
  const double* h = p->hc + SC_HC_NPAR * c;
  u[0] = vh[0] - h[SC_HC_VT0];
  u[1] = vh[1] - h[SC_HC_VT1];
  for (int k = 0; k < 3; k++) u[2 + k] = vt[k] - p->vhat[3 * t + k];
}

int sc_sap_cone_eval(const sc_problem* p, int c, const double vh[3], const double vt[3],
                     double soft_tol, double gh[3], double gt[3], double Ghh[9], double Gtt[9],
                     double Ght[9], double* cost) {
  double g5[5], gn, G55[25], G5n[5], Gnn;
  int r;
  if (p->model != SC_MODEL_SAP && p->hc) {
    double u[5];
    hc_cone_u(p, c, vh, vt, u);
    r = hc_cone_eval(p->model == SC_MODEL_LAGGED, p->hc + SC_HC_NPAR * c, p->mu[c], p->dt, u,
                     vh[2], g5, &gn, Ghh ? G55 : NULL, G5n, &Gnn, cost);
  } else {
    double yt[5], yn;
    cone_y(p, c, vh, vt, yt, &yn);
    const double* R = p->R + 3 * c;
    r = sc_sap_project_cone(5, yt, yn, R[0], R[2], p->mu[c], soft_tol, g5, &gn,
                            Ghh ? G55 : NULL, G5n, &Gnn, cost);
  }
  gh[0] = g5[0], gh[1] = g5[1], gh[2] = gn;
  for (int k = 0; k < 3; k++) gt[k] = g5[2 + k];
  if (Ghh) {
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        Ghh[3 * i + j] = i < 2 && j < 2 ? G55[5 * i + j] : i < 2 ? G5n[i] : j < 2 ? G5n[j] : Gnn;
        Gtt[3 * i + j] = G55[5 * (2 + i) + 2 + j];
        Ght[3 * i + j] = i < 2 ? G55[5 * i + 2 + j] : G5n[2 + j];
      }
  }
  return r;
}

int sc_sap_cone_eval_dir(const sc_problem* p, int c, const double vh[3], const double vt[3],
                         const double dh[3], const double dt[3], double soft_tol, double* cost,
                         double* dg, double* dGd) {
  const double d5[5] = {dh[0], dh[1], dt[0], dt[1], dt[2]};
  if (p->model != SC_MODEL_SAP && p->hc) {
    /* from the full form (a tail is rare enough not to need its own) */
    double u[5], g5[5], gn, G55[25], G5n[5], Gnn;
    hc_cone_u(p, c, vh, vt, u);
    const int r = hc_cone_eval(p->model == SC_MODEL_LAGGED, p->hc + SC_HC_NPAR * c, p->mu[c],
                               p->dt, u, vh[2], g5, &gn, dGd ? G55 : NULL, G5n, &Gnn, cost);
    double s = gn * dh[2];
    for (int k = 0; k < 5; k++) s += g5[k] * d5[k];
    *dg = s;
    if (dGd) {
      double q = Gnn * dh[2] * dh[2];
      for (int i = 0; i < 5; i++) {
        q += 2.0 * G5n[i] * d5[i] * dh[2];
        for (int j = 0; j < 5; j++) q += d5[i] * G55[5 * i + j] * d5[j];
      }
      *dGd = q;
    }
    return r;
  }
  double yt[5], yn;
  cone_y(p, c, vh, vt, yt, &yn);
  const double* R = p->R + 3 * c;
  return sc_sap_project_cone_dir(5, yt, yn, R[0], R[2], p->mu[c], soft_tol, d5, dh[2], cost, dg,
                                 dGd);
}
