/* sap_cone: per-contact terms of the SAP cost (Castro, Permenter & Han, arXiv
 * 2110.10107; doc/contact.md section 7); the laws that set R and vhat are
 * constraint/law.c.
 *
 * Projection onto the friction cone F = {|g_t| <= mu g_n} in the norm
 * |g|_R^2 = g^T R g, R = diag(Rt, Rt, Rn).  With y_r = sqrt(|y_t|^2 + eps^2)
 * (soft norm), t = y_t / y_r, mu_hat = mu Rt / Rn, mu_tilde^2 = mu mu_hat:
 *   I   stiction   y_r <= mu y_n:        gamma = y,               G = R^-1
 *   III separation y_n <= -mu_hat y_r:   gamma = 0,               G = 0
 *   II  sliding    otherwise:            gamma_n = (y_n + mu_hat y_r) / (1 + mu_tilde^2),
 *                                        gamma_t = mu gamma_n t
 * with, in II and f = 1 / (1 + mu_tilde^2), P_t = t t^T, P_perp = I - P_t,
 *   G_tt = (mu/Rt) [(gamma_n / y_r) P_perp + mu_hat f P_t],  G_tn = mu f t / Rn,
 *   G_nn = f / Rn   (G = dP/dy R^-1 is symmetric).
 * The per-contact cost uses the closed forms 1/2 y^T R y (I),
 * 1/2 Rn (1 + mu_tilde^2) gamma_n^2 (II), 0 (III): with the soft norm their
 * y-gradient is exactly R gamma, so -dl/dvc = gamma holds to round-off.
 * (In z = R^1/2 y coordinates the projection is Euclidean onto a Lorentz cone
 * of slope mu_tilde; the polar-cone test gives region III.)  mu = 0 works in
 * IEEE arithmetic: region I is impossible since y_r > 0, and II gives
 * gamma = (0, 0, y_n). */
#include "solver_sap/sap.h"

#include <math.h>

int sc_sap_project(const double y[3], const double R[3], double mu, double soft_tol,
                   double gamma[3], double G[9], double* cost) {
  const double Rt = R[0], Rn = R[2];
  const double yt0 = y[0], yt1 = y[1], yn = y[2];
  const double yr = sqrt(yt0 * yt0 + yt1 * yt1 + soft_tol * soft_tol);

  if (yr <= mu * yn) {
    /* I: y already inside the cone */
    gamma[0] = yt0;
    gamma[1] = yt1;
    gamma[2] = yn;
    if (G) {
      for (int i = 0; i < 9; i++) G[i] = 0.0;
      G[0] = 1.0 / Rt;
      G[4] = 1.0 / Rt;
      G[8] = 1.0 / Rn;
    }
    if (cost) *cost = 0.5 * (Rt * (yt0 * yt0 + yt1 * yt1) + Rn * yn * yn);
    return 1;
  }

  const double mu_hat = mu * Rt / Rn;
  if (yn <= -mu_hat * yr) {
    /* III: y in the polar cone, projection is the apex */
    gamma[0] = gamma[1] = gamma[2] = 0.0;
    if (G)
      for (int i = 0; i < 9; i++) G[i] = 0.0;
    if (cost) *cost = 0.0;
    return 3;
  }

  /* II: projection onto the cone's surface */
  const double mu_tilde2 = mu * mu_hat;
  const double f = 1.0 / (1.0 + mu_tilde2);
  /* yr > 0 whenever soft_tol > 0; the guard only avoids 0/0 */
  const double inv_yr = yr > 0.0 ? 1.0 / yr : 0.0;
  const double t0 = yt0 * inv_yr, t1 = yt1 * inv_yr;
  const double gn = (yn + mu_hat * yr) * f;
  gamma[0] = mu * gn * t0;
  gamma[1] = mu * gn * t1;
  gamma[2] = gn;
  if (cost) *cost = 0.5 * Rn * (1.0 + mu_tilde2) * gn * gn;
  if (G) {
    const double a = mu / Rt * gn * inv_yr; /* coefficient of P_perp */
    const double b = mu / Rt * mu_hat * f;  /* coefficient of P_t */
    G[0] = a * (1.0 - t0 * t0) + b * t0 * t0;
    G[1] = -a * t0 * t1 + b * t0 * t1;
    G[3] = G[1];
    G[4] = a * (1.0 - t1 * t1) + b * t1 * t1;
    G[2] = mu * f * t0 / Rn;
    G[5] = mu * f * t1 / Rn;
    G[6] = G[2];
    G[7] = G[5];
    G[8] = f / Rn;
  }
  return 2;
}

/* Directional form for the line search: with d = dvc (contact velocity
 * direction) and y = R^-1 (vhat - vc), dvc.gamma and dvc^T G dvc without
 * forming G.  In II, with tau = t.d_t, 1 - |t|^2 = soft_tol^2 / y_r^2 and
 * mu_hat f / Rt = mu f / Rn,
 *   d^T G d = a (|d_t|^2 - tau^2) + (f / Rn) (mu tau + d_n)^2,
 *   |d_t|^2 - tau^2 = (d0 t1 - d1 t0)^2 + |d_t|^2 (1 - |t|^2)  (no cancellation). */
int sc_sap_project_dir(const double y[3], const double R[3], double mu, double soft_tol,
                       const double d[3], double* cost, double* dg, double* dGd) {
  const double Rt = R[0], Rn = R[2];
  const double yt0 = y[0], yt1 = y[1], yn = y[2];
  const double yr = sqrt(yt0 * yt0 + yt1 * yt1 + soft_tol * soft_tol);
  if (yr <= mu * yn) {
    *cost = 0.5 * (Rt * (yt0 * yt0 + yt1 * yt1) + Rn * yn * yn);
    *dg = d[0] * yt0 + d[1] * yt1 + d[2] * yn;
    if (dGd) *dGd = (d[0] * d[0] + d[1] * d[1]) / Rt + d[2] * d[2] / Rn;
    return 1;
  }
  const double mu_hat = mu * Rt / Rn;
  if (yn <= -mu_hat * yr) {
    *cost = *dg = 0.0;
    if (dGd) *dGd = 0.0;
    return 3;
  }
  const double mu_tilde2 = mu * mu_hat;
  const double f = 1.0 / (1.0 + mu_tilde2);
  const double inv_yr = yr > 0.0 ? 1.0 / yr : 0.0;
  const double t0 = yt0 * inv_yr, t1 = yt1 * inv_yr;
  const double gn = (yn + mu_hat * yr) * f;
  const double tau = t0 * d[0] + t1 * d[1];
  *cost = 0.5 * Rn * (1.0 + mu_tilde2) * gn * gn;
  *dg = gn * (mu * tau + d[2]);
  if (dGd) {
    const double a = mu / Rt * gn * inv_yr;
    const double cross = d[0] * t1 - d[1] * t0, s = soft_tol * inv_yr;
    const double perp = cross * cross + (d[0] * d[0] + d[1] * d[1]) * s * s;
    const double u = mu * tau + d[2];
    *dGd = a * perp + f / Rn * u * u;
  }
  return 2;
}

/* The same projection with nt tangential components (a contact and its cone
 * tail, core/problem.h), each regularized by Rt: the formulas above with
 * y_t, t and P_t of dimension nt, and in the directional form
 * |d_t|^2 - tau^2 = |d_t - tau t|^2 + tau^2 (1 - |t|^2) (no cancellation). */
int sc_sap_project_cone(int nt, const double* yt, double yn, double Rt, double Rn, double mu,
                        double soft_tol, double* gt, double* gn, double* Gtt, double* Gtn,
                        double* Gnn, double* cost) {
  double yy = 0.0;
  for (int k = 0; k < nt; k++) yy += yt[k] * yt[k];
  const double yr = sqrt(yy + soft_tol * soft_tol);
  if (yr <= mu * yn) {
    for (int k = 0; k < nt; k++) gt[k] = yt[k];
    *gn = yn;
    if (Gtt) {
      for (int k = 0; k < nt * nt; k++) Gtt[k] = 0.0;
      for (int k = 0; k < nt; k++) Gtt[k * nt + k] = 1.0 / Rt, Gtn[k] = 0.0;
      *Gnn = 1.0 / Rn;
    }
    if (cost) *cost = 0.5 * (Rt * yy + Rn * yn * yn);
    return 1;
  }
  const double mu_hat = mu * Rt / Rn;
  if (yn <= -mu_hat * yr) {
    for (int k = 0; k < nt; k++) gt[k] = 0.0;
    *gn = 0.0;
    if (Gtt) {
      for (int k = 0; k < nt * nt; k++) Gtt[k] = 0.0;
      for (int k = 0; k < nt; k++) Gtn[k] = 0.0;
      *Gnn = 0.0;
    }
    if (cost) *cost = 0.0;
    return 3;
  }
  const double mu_tilde2 = mu * mu_hat;
  const double f = 1.0 / (1.0 + mu_tilde2);
  const double inv_yr = yr > 0.0 ? 1.0 / yr : 0.0;
  const double g = (yn + mu_hat * yr) * f;
  for (int k = 0; k < nt; k++) gt[k] = mu * g * yt[k] * inv_yr;
  *gn = g;
  if (cost) *cost = 0.5 * Rn * (1.0 + mu_tilde2) * g * g;
  if (Gtt) {
    const double a = mu / Rt * g * inv_yr, b = mu / Rt * mu_hat * f;
    for (int i = 0; i < nt; i++) {
      const double ti = yt[i] * inv_yr;
      for (int j = 0; j < nt; j++) {
        const double tj = yt[j] * inv_yr;
        Gtt[i * nt + j] = (b - a) * ti * tj + (i == j ? a : 0.0);
      }
      Gtn[i] = mu * f * ti / Rn;
    }
    *Gnn = f / Rn;
  }
  return 2;
}

int sc_sap_project_cone_dir(int nt, const double* yt, double yn, double Rt, double Rn, double mu,
                            double soft_tol, const double* d_t, double d_n, double* cost,
                            double* dg, double* dGd) {
  double yy = 0.0;
  for (int k = 0; k < nt; k++) yy += yt[k] * yt[k];
  const double yr = sqrt(yy + soft_tol * soft_tol);
  if (yr <= mu * yn) {
    double dy = d_n * yn, dd = 0.0;
    for (int k = 0; k < nt; k++) dy += d_t[k] * yt[k], dd += d_t[k] * d_t[k];
    *cost = 0.5 * (Rt * yy + Rn * yn * yn);
    *dg = dy;
    if (dGd) *dGd = dd / Rt + d_n * d_n / Rn;
    return 1;
  }
  const double mu_hat = mu * Rt / Rn;
  if (yn <= -mu_hat * yr) {
    *cost = *dg = 0.0;
    if (dGd) *dGd = 0.0;
    return 3;
  }
  const double mu_tilde2 = mu * mu_hat;
  const double f = 1.0 / (1.0 + mu_tilde2);
  const double inv_yr = yr > 0.0 ? 1.0 / yr : 0.0;
  const double g = (yn + mu_hat * yr) * f;
  double tau = 0.0;
  for (int k = 0; k < nt; k++) tau += yt[k] * inv_yr * d_t[k];
  *cost = 0.5 * Rn * (1.0 + mu_tilde2) * g * g;
  *dg = g * (mu * tau + d_n);
  if (dGd) {
    const double a = mu / Rt * g * inv_yr, s = soft_tol * inv_yr;
    double perp = 0.0;
    for (int k = 0; k < nt; k++) {
      const double e = d_t[k] - tau * yt[k] * inv_yr;
      perp += e * e;
    }
    perp += tau * tau * s * s;
    const double u = mu * tau + d_n;
    *dGd = a * perp + f / Rn * u * u;
  }
  return 2;
}
