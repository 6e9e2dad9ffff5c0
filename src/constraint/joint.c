/* joint: a joint's limits and its dry friction as rows of the contact
 * problem (doc/actuation.md; the rows' common form: rows.c).
 *
 * Limit (lower: phi = q_i - lower, s = +1; upper: phi = upper - q_i,
 * s = -1): the compliant law of a contact with the limit's stiffness k and
 * dissipation tau_d, gamma = dt (-k phi^theta - tau_d k phi_dot)+
 * (doc/contact.md 4.1, 4.2; sap_cone.c), R = max(beta^2 w / (4 pi^2),
 * 1 / (theta dt k tau)), vhat = -phi0 / (theta tau) - (1 - theta) / theta
 * vn0, tau = theta dt + tau_d, [lo, hi] = [0, inf), with w = J A^-1 J^T the
 * row's Delassus entry and theta by the contacts' rule (1 for a rigid
 * limit).  The row is in the problem while phi0 is within reach of a step,
 * phi0 < contact.margin + 2 dt |v0_i|.
 *
 * Dry friction F_i on dof i: gamma in [-dt F_i, dt F_i], vhat = 0,
 * R = sigma w (the contacts' friction regularization): a stuck joint
 * creeps at |v_i| = R |gamma| <= sigma w dt F_i, as a sticking contact does.
 * */
#include <math.h>

#include "constraint/kinds.h"
#include "constraint/rows.h"
#include "constraint/law.h"
#include "solver_sap/sap.h"

void sc_joint_place(const sc_model* m, sc_data* d, const double* v0) {
  const sc_options* o = &m->opt;
  for (int j = 0; m->any_limit && j < m->njnt; j++) {
    const double lo = m->jnt_range[2 * j], hi = m->jnt_range[2 * j + 1];
    if (!isfinite(lo) && !isfinite(hi)) continue;
    const int dof = m->jnt_vadr[j];
    const double q = d->q[m->jnt_qadr[j]], reach = o->margin + 2.0 * d->h * fabs(v0[dof]);
    if (isfinite(lo) && q - lo < reach) sc_rows_add_dof(d, SC_JROW_LIMIT_LOWER, j, dof, 1.0, q - lo, v0);
    if (isfinite(hi) && hi - q < reach) sc_rows_add_dof(d, SC_JROW_LIMIT_UPPER, j, dof, -1.0, hi - q, v0);
  }
  for (int i = 0; m->any_frictionloss && i < m->nv; i++)
    if (m->dof_frictionloss[i] > 0) sc_rows_add_dof(d, SC_JROW_FRICTION, i, i, 1.0, 0.0, v0);
}

double sc_compliant_law(const sc_model* m, sc_data* d, int i, double k, double taud, double w,
                        double* R, double* vhat) {
  const sc_options* o = &m->opt;
  const double dt = d->h;
  const double b = (o->beta == 0.0 && isinf(k)) ? 1.0 : o->beta;
  /* the contacts' rule: a near-rigid or unresolved row at theta = 1 */
  const double th =
      sc_law_theta(o, sc_law_near_rigid(k, taud, w, dt, b) ? (double)INFINITY : sc_law_wdt(k, taud, w, dt));
  d->ck[i] = k;
  d->ctaud[i] = taud;
  sc_law_sap_one(k, taud, w, d->phi0[i], d->vn0[i], dt, th, o->sigma, b, R, vhat);
  R[0] = R[1] = 1.0;
  vhat[0] = vhat[1] = 0.0;
  return th;
}

double sc_limit_law(const sc_model* m, sc_data* d, int i, double k, double taud, double w,
                    double* R, double* vhat, double* bound) {
  bound[0] = 0.0;
  bound[1] = INFINITY;
  return sc_compliant_law(m, d, i, k, taud, w, R, vhat);
}

double sc_friction_law(const sc_model* m, double dt, double F, double w, double* R, double* vhat,
                       double* bound) {
  const sc_options* o = &m->opt;
  R[0] = R[1] = 1.0;
  R[2] = o->sigma * w;
  vhat[0] = vhat[1] = vhat[2] = 0.0;
  bound[0] = -dt * F;
  bound[1] = dt * F;
  return 0.0;
}
