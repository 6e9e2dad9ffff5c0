/* contact: the contact Jacobian.
 *
 * For contact i between bodies a and b at world point p with frame rows
 * (t1, t2, n), n pointing from a to b (doc/contact.md section 1):
 *   vc_i = C_i (v_b(p) - v_a(p)),   v_x(p) = J_x(p) v,
 *   J_x(p) columns: S_k.v + S_k.w x p for every dof k on the path from body x
 *   to the root (world-frame Plücker subspaces, see dynamics.c),
 * so J_i = C_i (J_b(p) - J_a(p)) (3 x nv) and the generalized contact force is
 * J^T gamma (gamma acts on b, its opposite on a).  Only the dofs on the two
 * paths are non-zero; J is stored as those columns only, per contact
 * (d->jptr, d->jcol, d->Jc: the block form of problem.h), so that building
 * J, J v and J^T x cost O(nnz) and memory, not O(ncon nv).
 *
 * A dof that does not move the point (a hinge whose axis passes through it)
 * has S_k.v + S_k.w x p = 0 in exact arithmetic, but the two terms cancel
 * only to round-off: |col| ~ eps (|S_k.v| + |S_k.w| |p|).  Such a column is
 * made exactly zero (below 64 eps of the terms' size): the contact stage
 * leaves a contact without mobility out (contact_stage.c), and a round-off
 * Jacobian would instead give it a near-rigid regularization of the order of
 * eps^2 and impulses of 1e37 N s that stopped the hinge dead. */
#include "contact/contact.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "dynamics/dynamics.h"
#include "linalg/linalg.h"

void sc_contact_jacobian(const sc_model* m, sc_data* d) {
  int nv = m->nv, nc = d->ncon;
  int* on_a = d->jmark;
  int* on_b = d->jmark + nv;
  int q = 0;
  for (int i = 0; i < nc; i++) {
    const sc_contact* c = d->contact + i;
    d->jptr[i] = q;
    /* columns: the union of both paths (on_b doubles as the "listed" mark) */
    int q0 = q;
    for (int a = c->body[1]; a > 0; a = m->body_parent[a]) {
      int j = m->body_jnt[a];
      for (int k = 0; k < m->jnt_nv[j]; k++) {
        int dof = m->jnt_vadr[j] + k;
        on_b[dof] = i;
        d->jcol[q++] = dof;
      }
    }
    for (int a = c->body[0]; a > 0; a = m->body_parent[a]) {
      int j = m->body_jnt[a];
      for (int k = 0; k < m->jnt_nv[j]; k++) {
        int dof = m->jnt_vadr[j] + k;
        on_a[dof] = i;
        if (on_b[dof] != i) d->jcol[q++] = dof;
      }
    }
    for (int x = q0; x < q; x++) {
      int dof = d->jcol[x];
      const double* S = d->cdof + 6 * dof;
      double col[3], wxp[3];
      sc_sp_cross3(wxp, S, c->pos);
      sc_sp_add3(col, S + 3, wxp); /* velocity of the point per unit v_dof */
      const double size = sqrt(sc_sp_dot3(S + 3, S + 3)) +
                          sqrt(sc_sp_dot3(S, S) * sc_sp_dot3(c->pos, c->pos));
      if (sqrt(sc_sp_dot3(col, col)) <= 64.0 * DBL_EPSILON * size) col[0] = col[1] = col[2] = 0.0;
      double sgn = (on_b[dof] == i ? 1.0 : 0.0) - (on_a[dof] == i ? 1.0 : 0.0);
      for (int r = 0; r < 3; r++)
        d->Jc[3 * (size_t)x + r] = sgn * sc_sp_dot3(c->frame + 3 * r, col);
      if (m->cone_tails)
        /* the relative angular velocity about n, t1, t2 (the cone tail's
         * rows before their scaling, constraint/contact_law.c) */
        for (int r = 0; r < 3; r++)
          d->Jw[3 * (size_t)x + r] = sgn * sc_sp_dot3(c->frame + 3 * ((r + 2) % 3), S);
    }
    /* unmark, so that no mark outlives this contact (a later contact, or
     * this index at the next step, must not see them) */
    for (int x = q0; x < q; x++) on_a[d->jcol[x]] = on_b[d->jcol[x]] = -1;
    d->phi0[i] = c->dist;
    d->mu[i] = c->mu;
    d->ck[i] = c->k;
    d->ctaud[i] = c->taud;
    d->ctail[i] = -1; /* (constraint/contact_law.c places the cone tails) */
  }
  d->jptr[nc] = q;
}

void sc_contact_velocity(const sc_model* m, const sc_data* d, const double* v, double* vc) {
  (void)m;
  for (int i = 0; i < d->ncon; i++) {
    double s0 = 0, s1 = 0, s2 = 0;
    for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) {
      int k = d->jcol[q];
      const double* e = d->Jc + 3 * (size_t)q;
      s0 += e[0] * v[k];
      s1 += e[1] * v[k];
      s2 += e[2] * v[k];
    }
    vc[3 * i] = s0;
    vc[3 * i + 1] = s1;
    vc[3 * i + 2] = s2;
  }
}
