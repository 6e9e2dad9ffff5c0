/* tendon: a tendon's limits and its dry friction as rows of the contact
 * problem.
 *
 * A tendon has a length L(q) (dynamics.c, sc_dyn_tendon: a fixed tendon
 * sum_k c_k q_k, a spatial one the length of its path of straight segments
 * through body points) and the row J_L = dL/dq N(q).  A limit holds
 * L in [lower, upper] as a joint's limit holds its coordinate
 * (joint.c, sc_limit_law): the lower side is the row phi = L - lower,
 * J = J_L, the upper side phi = upper - L, J = -J_L, each a one-sided box
 * row [0, inf) with the compliant, or near-rigid, law of a contact written
 * at the gap phi0 of the step start and in the problem while phi0 is
 * within reach of a step, phi0 < contact.margin + 2 dt |L'(v0)|.  The row
 * lists the dofs whose entry of J_L is non-zero; its impulse gamma >= 0 is
 * the tension (N s) a cable at its upper limit carries, acting on the
 * bodies as J^T gamma: along each segment, pulling its ends together.
 * J_L is taken where the contacts' Jacobians are (the step's mid
 * configuration under the midpoint rule).
 *
 * Dry friction F along the tendon is a joint's dry friction (joint.c) on
 * the row J_L: gamma in [-dt F, dt F], vhat = 0, R = sigma w, present at
 * every step; its impulse resists the tendon's rate of length L', and a
 * stuck tendon creeps at |L'| <= sigma w dt F. */
#include "constraint/tendon.h"

#include <math.h>

#include "dynamics/dynamics.h"

void sc_tendon_lengths(const sc_model* m, sc_data* d) {
  for (int t = 0; t < m->ntendon; t++) d->ten_length[t] = sc_dyn_tendon(m, d, t, NULL);
}

static void add_row(const sc_model* m, sc_data* d, int type, int t, double s, double phi0,
                    const double* J, const double* v0) {
  const int r = d->nrow++, i = d->ncon + r;
  d->row_type[r] = type;
  d->row_ref[r] = t;
  int q = d->jptr[i];
  double vc = 0.0;
  for (int k = 0; k < m->nv; k++) {
    if (J[k] == 0.0) continue;
    d->jcol[q] = k;
    double* Jc = d->Jc + 3 * (size_t)q;
    Jc[0] = Jc[1] = 0.0;
    Jc[2] = s * J[k];
    vc += Jc[2] * v0[k];
    q++;
  }
  d->jptr[i + 1] = q;
  d->ckind[i] = SC_ROW_BOX;
  d->mu[i] = 0.0;
  d->phi0[i] = phi0;
  d->vc0[3 * i] = d->vc0[3 * i + 1] = 0.0;
  d->vc0[3 * i + 2] = d->vn0[i] = vc;
}

void sc_tendon_actuator_place(const sc_model* m, sc_data* d, int a, const double* v0) {
  double* J = d->ten_J;
  sc_dyn_tendon(m, d, m->act_tendon[a], J);
  add_row(m, d, SC_JROW_SERVO, a, 1.0, 0.0, J, v0);
}

void sc_tendon_place(const sc_model* m, sc_data* d, const double* v0) {
  const sc_options* o = &m->opt;
  for (int t = 0; t < m->ntendon; t++) {
    const double lo = m->ten_range[2 * t], hi = m->ten_range[2 * t + 1];
    const int friction = m->ten_frictionloss[t] > 0;
    if (!isfinite(lo) && !isfinite(hi) && !friction) continue;
    double* J = d->ten_J;
    sc_dyn_tendon(m, d, t, J);
    double ldot = 0.0;
    for (int k = 0; k < m->nv; k++) ldot += J[k] * v0[k];
    const double L = d->ten_length[t], reach = o->margin + 2.0 * d->h * fabs(ldot);
    if (isfinite(lo) && L - lo < reach) add_row(m, d, SC_JROW_TENDON_LOWER, t, 1.0, L - lo, J, v0);
    if (isfinite(hi) && hi - L < reach) add_row(m, d, SC_JROW_TENDON_UPPER, t, -1.0, hi - L, J, v0);
    if (friction) add_row(m, d, SC_JROW_TENDON_FRICTION, t, 1.0, 0.0, J, v0);
  }
}
