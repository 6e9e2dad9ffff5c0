/* law: the parameters of the compliant contact laws the convex solvers
 * take (solver_sap/sap.h, sap_model.h): SAP's regularization R and bias
 * vhat, and the Hunt-Crossley models' parameters, from a contact's (or a
 * row's) stiffness, dissipation, Delassus estimate, gap and step.  The
 * solvers evaluate the laws; they do not choose them (constraint/
 * contact_law.c, joint.c and the other kinds call these). */
#ifndef SC_CONSTRAINT_LAW_H
#define SC_CONSTRAINT_LAW_H

#include "solver_sap/sap_model.h"

/* Regularization and bias of doc/contact.md 4.1, 4.2 and 5, per contact i:
 * k (N/m, INFINITY = rigid), taud (s), w (Delassus diagonal estimate, 1/kg),
 * phi0 (m), vn0 (normal velocity at the step start, m/s; NULL means 0),
 * dt, theta (the contact law's theta; 1 gives the SAP paper's law), sigma, beta ->
 * R[3i..3i+2] = (Rt, Rt, Rn), vhat[3i..3i+2] = (0, 0, vhat_n).
 * A contact with k = INFINITY uses the near-rigid value with beta = 1 when
 * beta == 0. */
void sc_law_sap(int nc, const double* k, const double* taud, const double* w,
                const double* phi0, const double* vn0, double dt, double theta,
                double sigma, double beta, double* R, double* vhat);
/* The same for one contact (vn0 a value), with its own theta and beta. */
void sc_law_sap_one(double k, double taud, double w, double phi0, double vn0, double dt,
                    double theta, double sigma, double beta, double R[3], double vhat[3]);
/* 1 when the contact is in SAP's near-rigid regime at threshold beta: its
 * compliant Rn at theta = 1 lies below the floor beta^2 w / (4 pi^2) (the
 * spring, with its damper, cannot be resolved by the step), or k = INFINITY. */
int sc_law_near_rigid(double k, double taud, double w, double dt, double beta);
/* How far a step dt is from resolving a spring k with its damper k taud on
 * a row of Delassus estimate w: the larger of omega dt = sqrt(k w) dt and
 * the damper's rate k taud w dt (both dimensionless; INFINITY when rigid).
 * The midpoint rule resolves the row only when both are small
 * (<= SC_RESOLVED_WDT, constraint/rows.h). */
double sc_law_wdt(double k, double taud, double w, double dt);

/* Per-contact parameters of the Hunt-Crossley models (written to hc,
 * SC_HC_NPAR per contact), from: k (N/m, INFINITY = rigid), d (s/m),
 * w (Delassus diagonal estimate, 1/kg), phi0 (m), vn0 (normal velocity at
 * the step start, m/s; NULL = 0), mu, dt, theta (the integrator's theta_vq,
 * 1 = implicit), sigma, beta, vs (stiction tolerance, m/s, > 0).
 * The stiffness is capped at 4 pi^2 / (beta^2 w dt^2), the stiffness whose
 * period is beta dt (SAP's near-rigid floor); rigid contacts use beta = 1
 * when beta == 0. */
void sc_law_hc(int nc, const double* k, const double* d, const double* w,
               const double* phi0, const double* vn0, const double* mu, double dt,
               double theta, double sigma, double beta, double vs, double* hc);
/* The same for one contact (vn0 a value), with its own theta and beta, and
 * the friction bound's normal impulse n0 given (N s), or computed from the
 * state as above when n0 < 0. */
void sc_law_hc_one(double k, double d, double w, double phi0, double vn0, double mu,
                   double n0, double dt, double theta, double sigma, double beta,
                   double vs, double hc[SC_HC_NPAR]);

#endif
