/* sap_model: the per-contact terms of the convex cost for each contact model
 * (SAP, and the "similar" and "lagged" Hunt-Crossley approximations), see
 * sap_model.c for the formulas.  The Newton loop (sap.c) only calls
 * sc_sap_contact_eval per contact (and the directional forms below in the
 * line search): the model changes l_i, gamma_i and G_i, never the
 * iteration. */
#ifndef SC_SAP_MODEL_H
#define SC_SAP_MODEL_H

#include "core/problem.h"

/* Layout of sc_problem.hc: SC_HC_NPAR values per contact. */
enum {
  SC_HC_K = 0,   /* stiffness multiplying -dt v in the elastic force, theta^2 k, N/m */
  SC_HC_FE0 = 1, /* elastic force at v = 0, k (x0 - theta (1 - theta) dt vn0), N (any sign) */
  SC_HC_D = 2,   /* Hunt-Crossley dissipation, s/m */
  SC_HC_N0 = 3,  /* normal impulse at the step start, N s (lagged friction bound) */
  SC_HC_EPS = 4, /* friction regularization velocity, m/s (> 0) */
  SC_HC_VT0 = 5, /* target tangential velocity (t1, t2) the friction law acts about, m/s: */
  SC_HC_VT1 = 6, /* the stiction anchor's pull (doc/contact.md 4.6); 0 without one */
  SC_HC_NPAR = 7
};

/* Cost l_i, impulse gamma_i = -dl_i/dvc_i and (G non-NULL) the row-major
 * 3x3 G_i = d^2 l_i / dvc_i^2 of contact c at contact velocity vc (3) for
 * the problem's model.  Returns the region: 1 stiction, 2 sliding,
 * 3 separated (for the Hunt-Crossley models: 3 when the normal impulse is
 * zero, else 1 when |v_t| < eps, else 2).  soft_tol is SAP's soft norm
 * (N s); the Hunt-Crossley models use their own eps. */
int sc_sap_contact_eval(const sc_problem* p, int c, const double vc[3], double soft_tol,
                        double gamma[3], double G[9], double* cost);

/* The terms of contact c and its cone tail t = p->tail[c] (core/problem.h)
 * at their velocities vh (c's rows) and vt (t's): the pair's cost, the
 * impulses gh, gt and (Ghh non-NULL) the blocks of its 6 x 6 curvature,
 * Ghh (c's rows), Gtt (t's) and Ght (c's rows by t's), each 3 x 3
 * row-major; returns the region as sc_sap_contact_eval, under the problem's
 * model. */
int sc_sap_cone_eval(const sc_problem* p, int c, const double vh[3], const double vt[3],
                     double soft_tol, double gh[3], double gt[3], double Ghh[9], double Gtt[9],
                     double Ght[9], double* cost);
/* Its directional form for directions dh, dt of the two entries. */
int sc_sap_cone_eval_dir(const sc_problem* p, int c, const double vh[3], const double vt[3],
                         const double dh[3], const double dt[3], double soft_tol, double* cost,
                         double* dg, double* dGd);

/* A box row's terms (core/problem.h) at its velocity vc (the J block's
 * third row): impulse, curvature g = d^2 l / dvc^2 (g non-NULL) and cost;
 * returns the region (1 between the bounds, 2 at a non-zero bound, 3 at
 * gamma = 0).  sc_sap_contact_eval and its directional form call it for box
 * rows, whatever the contact model. */
int sc_sap_box_eval(double vc, double R, double vhat, double lo, double hi, double* gamma,
                    double* g, double* cost);

/* The Hunt-Crossley terms alone, for one contact with parameters hc
 * (SC_HC_NPAR values), friction mu and step dt; lagged != 0 selects the
 * lagged model.  Same outputs as sc_sap_contact_eval. */
int sc_sap_hc_eval(int lagged, const double hc[SC_HC_NPAR], double mu, double dt,
                   const double vc[3], double gamma[3], double G[9], double* cost);

/* Directional forms for the line search: for a direction d (3) of the
 * contact velocity, the cost l_i at vc, *dg = d.gamma_i and (dGd non-NULL)
 * *dGd = d^T G_i d, without forming G_i; same region as the full forms
 * (and the same values to round-off). */
int sc_sap_contact_eval_dir(const sc_problem* p, int c, const double vc[3], const double d[3],
                            double soft_tol, double* cost, double* dg, double* dGd);
int sc_sap_hc_eval_dir(int lagged, const double hc[SC_HC_NPAR], double mu, double dt,
                       const double vc[3], const double d[3], double* cost, double* dg,
                       double* dGd);

/* The line search's sums over the nc contacts of a Hunt-Crossley model at
 * vc + alpha dvc (3 nc each): *l = sum l_i, *dl = -sum dvc_i.gamma_i and (d2l
 * non-NULL) *d2l = sum dvc_i^T G_i dvc_i, each term and the order of the
 * sums as with sc_sap_hc_eval_dir per contact (bit for bit), in one loop and
 * with each contact's v^ = min(fe0 / (dt k), 1 / d) taken from vh
 * (sc_sap_hc_vhat, once per solve: hc does not change within one). */
void sc_sap_hc_line_sums(int nc, int lagged, const double* hc, const double* vh,
                         const double* mu, double dt, const double* vc, const double* dvc,
                         double alpha, double* l, double* dl, double* d2l);
void sc_sap_hc_vhat(int nc, const double* hc, double dt, double* vh);
/* sc_sap_hc_eval for the nc contacts at vc (3 nc) into gamma (3 nc), G (9 nc)
 * and region (nc), with v^ from vh (sc_sap_hc_vhat); returns sum l_i, summed
 * in contact order (bit for bit as per-contact calls). */
double sc_sap_hc_eval_all(int nc, int lagged, const double* hc, const double* vh,
                          const double* mu, double dt, const double* vc, double* gamma,
                          double* G, int* region);

/* Discrete normal impulse n(v) = dt (fe0 - dt k v)+ (1 - d v)+, its
 * derivative n'(v) and antiderivative N(v) (constant beyond v^). */
void sc_sap_hc_normal(double v, double dt, double k, double fe0, double d, double* n,
                      double* dn, double* N);

/* Adds the slip curvature of sc_sap_params.slip_curvature (omega times the
 * curvature across the slip direction, along it) to G of a sliding contact
 * of a Hunt-Crossley model (sap.c does the same for SAP). */
void sc_sap_hc_slip_curvature(const sc_problem* p, int c, const double vc[3], double omega,
                              double G[9]);

/* Third derivative of the lagged model's l_i along a direction, for each
 * contact: out_i = D^3 l_i(vc_i)[d_i, d_i] (3 per contact, the derivative
 * of G_i(vc_i + a d_i) d_i at a = 0), with v^ from vh (sc_sap_hc_vhat).
 * On the far side of v^ (n = 0) and at the kink itself the normal part is
 * taken as 0 (n is linear-times-linear below v^ and 0 beyond). */
void sc_sap_hc_lagged_third(int nc, const double* hc, const double* vh, const double* mu,
                            double dt, const double* vc, const double* d, double* out);

#endif
