/* contact: the contact Jacobian.
 *
 * For contact i between bodies a and b at world point p with frame rows
 * (t1, t2, n), n pointing from a to b (seed 000 §Contact Kinematics):
 *   vc_i = C_i (v_b(p) - v_a(p)),   v_x(p) = J_x(p) v,
 *   J_x(p) columns: S_k.v + S_k.w x p for every dof k on the path from body x
 *   to the root (world-frame Plücker subspaces, see dynamics.c),
 * so J_i = C_i (J_b(p) - J_a(p)) (3 x nv) and the generalized contact force is
 * J^T gamma (gamma acts on b, its opposite on a). */
#include "contact/contact.h"

#include <string.h>

#include "dynamics/dynamics.h"
#include "linalg/linalg.h"

void sc_contact_jacobian(const sc_model* m, sc_data* d) {
  int nv = m->nv, nc = d->ncon, ld = 3 * nc;
  double* Ja = d->jacp;
  double* Jb = d->jacp + 3 * nv;
  for (int i = 0; i < nc; i++) {
    const sc_contact* c = d->contact + i;
    sc_dyn_point_jacobian(m, d, c->body[0], c->pos, Ja);
    sc_dyn_point_jacobian(m, d, c->body[1], c->pos, Jb);
    for (int k = 0; k < nv; k++) {
      double rel[3];
      sc_sp_sub3(rel, Jb + 3 * k, Ja + 3 * k);
      for (int r = 0; r < 3; r++) d->Jc[3 * i + r + (size_t)k * ld] = sc_sp_dot3(c->frame + 3 * r, rel);
    }
    d->phi0[i] = c->dist;
    d->mu[i] = c->mu;
    d->ck[i] = c->k;
    d->ctaud[i] = c->taud;
  }
}

void sc_contact_velocity(const sc_model* m, const sc_data* d, const double* v, double* vc) {
  sc_la_gemv(3 * d->ncon, m->nv, 1.0, d->Jc, 3 * d->ncon, v, 0.0, vc);
}
