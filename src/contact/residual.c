/* residual: how far a step's contact solution is from Coulomb's law with
 * rigid, complementary contact (Signorini), per step.
 *
 * The convex models relax Coulomb's law: a sliding contact under `sap` or
 * `similar` moves apart at mu |vt| while it pushes (Castro et al.'s analysis;
 * Le Lidec et al., "Contact Models in Robotics: a Comparative Analysis",
 * T-RO 2024), a regularized stiction creeps inside the cone, a compliant
 * contact pushes while at rest in overlap.  For contact i with impulse
 * gamma = (gt, gn) (N s, on body b, gn >= 0) and the contact velocity after
 * the step v = (vt, vn) (m/s, b relative to a, vn > 0 separating), the
 * normal rate that the step's gap closes at is
 *   wn = vn + max(phi0, 0) / dt
 * (a speculative contact found at gap phi0 > 0 may push as it arrives), or
 *   wn = vn - v_r
 * for a restitution impact with the target v_r (vtarget, -inf for the
 * others; doc/contact.md 4.7), whose law is vn >= v_r _|_ gn >= 0, and
 *   Signorini     |gn wn|                       0 when the contact pushes
 *                                               only while it does not open
 *   dissipation   |(mu gn - |gt|) |vt||         0 when a slipping contact
 *                                               slides at the cone's edge
 *   bipotential   |gt.vt + gn (wn + mu |vt|)|   De Saxce's complementarity
 *                                               gap: 0 for exact Coulomb
 * each in J (an impulse times a velocity), the largest over the step's
 * contacts.  A contact with a cone tail (torsional and rolling friction)
 * counts the tail's three scaled rows in vt and gt. */
#include "contact/contact.h"

#include <math.h>

void sc_contact_coulomb_residuals(const sc_data* d, double dt, const double* vtarget,
                                  double out[3]) {
  out[0] = out[1] = out[2] = 0;
  for (int i = 0; i < d->ncon; i++) {
    const double* g = d->impulse + 3 * i;
    const double* v = d->vc + 3 * i;
    const double mu = d->contact[i].mu, phi = d->contact[i].dist;
    const double vr = vtarget ? vtarget[i] : -(double)INFINITY;
    const double wn = vr > -(double)INFINITY ? v[2] - vr : v[2] + (phi > 0 ? phi / dt : 0.0);
    double st2 = v[0] * v[0] + v[1] * v[1], gt2 = g[0] * g[0] + g[1] * g[1];
    double gv = g[0] * v[0] + g[1] * v[1];
    const int t = d->ctail[i];
    if (t >= 0)
      /* the cone tail's scaled rows are tangential components of the same
       * cone (constraint/contact_law.c) */
      for (int k = 0; k < 3; k++) {
        const double gk = d->impulse[3 * t + k], vk = d->vc[3 * t + k];
        st2 += vk * vk, gt2 += gk * gk, gv += gk * vk;
      }
    const double st = t >= 0 ? sqrt(st2) : hypot(v[0], v[1]);
    const double gt = t >= 0 ? sqrt(gt2) : hypot(g[0], g[1]);
    const double r[3] = {fabs(g[2] * wn), fabs((mu * g[2] - gt) * st),
                         fabs(gv + g[2] * (wn + mu * st))};
    for (int k = 0; k < 3; k++)
      if (r[k] > out[k] || r[k] != r[k]) out[k] = r[k];
  }
}
