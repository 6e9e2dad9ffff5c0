/* law: the parameters of the convex contact laws (see law.h).
 *
 * SAP's regularization (Castro, Permenter & Han, arXiv 2110.10107): the
 * Kelvin-Voigt normal law gamma_n = dt (-k phi - taud k vn)+ with the spring
 * at the gap of t + theta dt (doc/contact.md 4.2), tau = theta dt + taud:
 *   Rn = max(beta^2 w / (4 pi^2), 1 / (theta dt k tau)),  Rt = sigma w,
 *   vhat_n = -phi0 / (theta tau) - ((1 - theta) / theta) vn0,
 *   vhat_t = 0 here; contact_law.c replaces it with a sticking
 *   contact's stiction anchor, -kappa a / dt (doc/contact.md 4.6), and
 *   raises vhat_n of a restitution impact to max(vhat_n, v_r), its target
 *   end-of-step normal velocity (4.7): a shift of y that keeps the cost
 *   convex with the same G.
 *
 * Hunt-Crossley parameters (sap_model.c has the law they enter):
 *   k_th = theta^2 k,  fe0 = k (x0 - theta (1 - theta) dt vn0),  x0 = -phi0,
 * with k capped at 4 pi^2 / (beta^2 w dt^2), the stiffness whose period is
 * beta dt (SAP's near-rigid floor; a rigid contact takes that cap), the
 * friction bound's impulse n0 = dt max(0, k x0) max(0, 1 - d vn0) unless
 * given, and the friction regularization eps = max(vs, mu sigma w n0). */
#include "constraint/law.h"

#include <math.h>

int sc_law_near_rigid(double k, double taud, double w, double dt, double beta) {
  if (isinf(k)) return 1;
  if (!(beta > 0.0)) return 0;
  const double four_pi2 = 4.0 * 3.14159265358979323846 * 3.14159265358979323846;
  /* the compliant Rn at theta = 1 (doc/contact.md 4.1) below the floor */
  return dt * k * (dt + taud) * beta * beta * w > four_pi2;
}

double sc_law_wdt(double k, double taud, double w, double dt) {
  if (isinf(k)) return (double)INFINITY;
  /* A damper alone is a first-order decay at rate c = k taud w; the
   * midpoint rule multiplies its velocity by (1 - c dt/2) / (1 + c dt/2)
   * a step, negative once c dt > 2: the row's velocity then flips sign at
   * every step, and a unilateral contact, which can push but not pull,
   * turns that flip into a ratchet: impulse, none, impulse, while the body
   * sinks.  (MuJoCo's critically damped solref springs, translated with the
   * body's mass, meet a light limb's w that way: humanoid.xml's feet sank
   * 23 mm at 5 ms where smaller steps converge to 5 mm.) */
  return fmax(sqrt(k * w) * dt, k * taud * w * dt);
}

void sc_law_sap_one(double k, double taud, double w, double phi0, double vn0, double dt,
                    double theta, double sigma, double beta, double R[3], double vhat[3]) {
  const double four_pi2 = 4.0 * 3.14159265358979323846 * 3.14159265358979323846;
  /* the spring acts at the gap of t + theta dt, phi0 + theta dt vn^theta,
   * and the damper at vn^theta = theta vn + (1 - theta) vn0:
   *   gamma_n = -dt k [phi0 + (theta dt + tau_d) vn^theta]
   *           = (vhat_n - vn) / Rn,  Rn = 1 / (dt k theta (theta dt + tau_d)),
   *   vhat_n = -phi0 / (theta (theta dt + tau_d)) - (1 - theta) / theta vn0;
   * theta = 1 is the SAP paper's law; theta = 1/2 keeps the energy of an
   * undamped spring, as the midpoint rule does (the spring at the
   * end-of-step gap instead loses 15 % of it per bounce at omega dt = 0.13;
   * doc/contact.md 4.2) */
  const double tau = theta * dt + taud;
  double b = beta, Rn;
  if (isinf(k)) {
    /* a rigid contact has no compliant value: always use the near-rigid floor */
    if (b == 0.0) b = 1.0;
    Rn = 0.0;
  } else {
    Rn = 1.0 / (theta * dt * k * tau);
  }
  const double Rn_floor = b * b * w / four_pi2;
  if (Rn < Rn_floor) Rn = Rn_floor;
  R[0] = R[1] = sigma * w;
  R[2] = Rn;
  vhat[0] = vhat[1] = 0.0;
  vhat[2] = -phi0 / (theta * tau) - (1.0 - theta) / theta * vn0;
}

void sc_law_sap(int nc, const double* k, const double* taud, const double* w,
                const double* phi0, const double* vn0, double dt, double theta,
                double sigma, double beta, double* R, double* vhat) {
  for (int i = 0; i < nc; i++)
    sc_law_sap_one(k[i], taud[i], w[i], phi0[i], vn0 ? vn0[i] : 0.0, dt, theta, sigma,
                          beta, R + 3 * i, vhat + 3 * i);
}

void sc_law_hc_one(double k, double d, double w, double phi0, double vn0, double mu,
                   double n0, double dt, double theta, double sigma, double beta,
                   double vs, double hc[SC_HC_NPAR]) {
  const double four_pi2 = 4.0 * 3.14159265358979323846 * 3.14159265358979323846;
  double b = beta, ki = k;
  if (isinf(ki) && b == 0.0) b = 1.0;
  if (b > 0.0 && w > 0.0) ki = fmin(ki, four_pi2 / (b * b * w * dt * dt));
  const double x0 = -phi0;
  if (n0 < 0.0) n0 = dt * fmax(0.0, ki * x0) * fmax(0.0, 1.0 - d * vn0);
  hc[SC_HC_K] = theta * theta * ki;
  hc[SC_HC_FE0] = ki * (x0 - theta * (1.0 - theta) * dt * vn0);
  hc[SC_HC_D] = d;
  hc[SC_HC_N0] = n0;
  hc[SC_HC_EPS] = fmax(vs, mu * sigma * w * n0);
  hc[SC_HC_VT0] = hc[SC_HC_VT1] = 0.0;
}

void sc_law_hc(int nc, const double* k, const double* d, const double* w,
               const double* phi0, const double* vn0, const double* mu, double dt,
               double theta, double sigma, double beta, double vs, double* hc) {
  for (int i = 0; i < nc; i++)
    sc_law_hc_one(k[i], d[i], w[i], phi0[i], vn0 ? vn0[i] : 0.0, mu[i], -1.0, dt, theta,
                         sigma, beta, vs, hc + SC_HC_NPAR * i);
}
