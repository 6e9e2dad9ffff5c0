/* rows: the rows of the contact problem beside the contacts, their laws
 * and their accounting (doc/actuation.md, doc/constraints.md); the kinds
 * live in joint.c, actuator.c, equality.c and tendon.c.
 *
 * Sources: the compliant constraints of SAP as convex cost terms (Castro,
 * Permenter & Han, "An Unconstrained Convex Formulation of Compliant
 * Contact", arXiv 2110.10107, sections on the regularized constraints and
 * their near-rigid limit), and the same forms as Drake's contact solver
 * writes a joint limit and a PD controller with effort limits (its
 * SapLimitConstraint and SapPdControllerConstraint); dry friction is a
 * box-bounded friction row regularized like SAP's tangential one.
 *
 * A joint's row r acts on one dof i with J_r = s e_i^T (s = +1, or -1 for
 * an upper limit), vc_r = s v_i; an equality constraint's, a tendon's
 * limit's, a tendon's dry friction and a tendon actuator's span the dofs
 * their Jacobian moves.  Each
 * is a box row of core/problem.h:
 *   gamma_r = clamp((vhat_r - vc_r) / R_r, lo_r, hi_r),
 * the generalized impulse s gamma_r on dof i, solved with the contacts in
 * the same convex problem (each row's cost is convex and C1 in vc_r, its
 * derivative -gamma_r) and in the same islands; under --solver lcp the
 * same rows are complementarity rows (solver_lcp/lcp.c).
 *
 * Work over the step: rows gamma_r (vc0_r + vc_r) / 2, motors dt f (v0_i +
 * v_i) / 2 -- exact for the midpoint rule on a linear system, the same rule
 * as the contacts' work. */
#include "constraint/rows.h"

#include <math.h>
#include <string.h>

#include "constraint/equality.h"
#include "constraint/kinds.h"
#include "constraint/tendon.h"
#include "core/problem.h"
#include "solver_sap/sap_model.h"

double sc_law_theta(const sc_options* o, double wdt) {
  const double th = o->theta_vq > 0 ? o->theta_vq : 1.0;
  if (o->contact_theta > 0) return o->contact_theta;
  if (o->contact_theta == SC_CONTACT_THETA_AUTO && !(wdt <= SC_RESOLVED_WDT)) return 1.0;
  return th;
}

void sc_rows_add_dof(sc_data* d, int type, int ref, int dof, double s, double phi0,
                     const double* v0) {
  const int r = d->nrow++, i = d->ncon + r;
  d->row_type[r] = type;
  d->row_ref[r] = ref;
  d->jptr[i + 1] = d->jptr[i] + 1;
  d->jcol[d->jptr[i]] = dof;
  double* J = d->Jc + 3 * (size_t)d->jptr[i];
  J[0] = J[1] = 0.0;
  J[2] = s;
  d->ckind[i] = SC_ROW_BOX;
  d->mu[i] = 0.0;
  d->phi0[i] = phi0;
  d->vc0[3 * i] = d->vc0[3 * i + 1] = 0.0;
  d->vc0[3 * i + 2] = d->vn0[i] = s * v0[dof];
}

void sc_rows_place(const sc_model* m, sc_data* d, const double* v0) {
  d->nrow = 0;
  if (m->nrow_max == 0) return;
  for (int i = 0; i < d->ncon; i++) d->ckind[i] = SC_ROW_CONTACT;
  sc_joint_place(m, d, v0);
  sc_actuator_place(m, d, v0);
}

void sc_rows_place_wide(const sc_model* m, sc_data* d, const double* v0) {
  sc_eq_place(m, d, v0);
  sc_tendon_place(m, d, v0);
  for (int a = 0; a < m->nact; a++)
    if (m->act_tendon[a] >= 0) sc_tendon_actuator_place(m, d, a, v0);
}

void sc_rows_laws(const sc_model* m, sc_data* d, const double* v0, double* hc, double* theta) {
  for (int r = 0; r < d->nrow; r++) {
    const int i = d->ncon + r, ref = d->row_ref[r];
    double* R = d->R + 3 * i;
    double* vhat = d->vhat + 3 * i;
    double* bound = d->cbound + 2 * i;
    /* the Delassus estimate is |W_ii|_F / 3 (sap.c); a row's W_ii has its
     * one entry */
    const double w = 3.0 * d->wdiag[i];
    if (hc) {
      /* not used by a box row, but valid for the solver's checks */
      double* h = hc + SC_HC_NPAR * i;
      for (int k = 0; k < SC_HC_NPAR; k++) h[k] = 0.0;
      h[SC_HC_EPS] = 1.0;
    }
    switch (d->row_type[r]) {
      case SC_JROW_LIMIT_LOWER:
      case SC_JROW_LIMIT_UPPER:
        theta[i] = sc_limit_law(m, d, i, m->jnt_limit_k[ref], m->jnt_limit_taud[ref], w, R, vhat,
                                bound);
        break;
      case SC_JROW_TENDON_LOWER:
      case SC_JROW_TENDON_UPPER:
        theta[i] = sc_limit_law(m, d, i, m->ten_limit_k[ref], m->ten_limit_taud[ref], w, R, vhat,
                                bound);
        break;
      case SC_JROW_FRICTION:
        theta[i] = sc_friction_law(m, d->h, m->dof_frictionloss[ref], w, R, vhat, bound);
        break;
      case SC_JROW_TENDON_FRICTION:
        theta[i] = sc_friction_law(m, d->h, m->ten_frictionloss[ref], w, R, vhat, bound);
        break;
      case SC_JROW_SERVO: theta[i] = sc_actuator_law(m, d, ref, i, w, v0, R, vhat, bound); break;
      case SC_JROW_EQUALITY: theta[i] = sc_eq_law(m, d, i, w, R, vhat, bound); break;
      case SC_JROW_CONE:
        /* the contact's tangential regularization on every row of its cone
         * (the solver reads the contact's; core/problem.h) */
        R[0] = R[1] = R[2] = d->R[3 * ref];
        vhat[0] = vhat[1] = vhat[2] = 0.0;
        bound[0] = bound[1] = 0.0;
        theta[i] = theta[ref];
        break;
    }
  }
}

int sc_rows_nslot(const sc_model* m) {
  return 2 * m->njnt + m->nv + m->nact + m->neqrow + 3 * m->ntendon;
}

int sc_rows_slot(const sc_model* m, const sc_data* d, int r) {
  const int ref = d->row_ref[r];
  const int ten = 2 * m->njnt + m->nv + m->nact + m->neqrow; /* the tendons' first slot */
  switch (d->row_type[r]) {
    case SC_JROW_LIMIT_LOWER: return 2 * ref;
    case SC_JROW_LIMIT_UPPER: return 2 * ref + 1;
    case SC_JROW_FRICTION: return 2 * m->njnt + ref;
    case SC_JROW_EQUALITY: return 2 * m->njnt + m->nv + m->nact + ref;
    case SC_JROW_TENDON_LOWER: return ten + 2 * ref;
    case SC_JROW_TENDON_UPPER: return ten + 2 * ref + 1;
    case SC_JROW_TENDON_FRICTION: return ten + 2 * m->ntendon + ref;
    case SC_JROW_CONE: return -1; /* a contact's: matched as the contact is */
    default: return 2 * m->njnt + m->nv + ref;
  }
}

void sc_rows_position_velocity(const sc_model* m, const sc_data* d, const double* theta,
                               double* vq) {
  (void)m;
  for (int r = 0; r < d->nrow; r++) {
    const int i = d->ncon + r;
    if (d->row_type[r] != SC_JROW_SERVO || theta[i] != 1.0) continue;
    /* (a servo on a tendon: every dof the tendon moves) */
    for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) vq[d->jcol[q]] = d->v[d->jcol[q]];
  }
}

void sc_rows_finish(const sc_model* m, sc_data* d, const double* v0) {
  const double dt = d->h;
  if (m->nrow_max == 0 && m->nact == 0) return;
  memset(d->jnt_limit_force, 0, sizeof(double) * (size_t)m->njnt);
  memset(d->dof_friction_force, 0, sizeof(double) * (size_t)m->nv);
  memset(d->ten_limit_force, 0, sizeof(double) * (size_t)m->ntendon);
  memset(d->ten_friction_force, 0, sizeof(double) * (size_t)m->ntendon);
  double wm = 0.0;
  for (int a = 0; a < m->nact; a++)
    if (m->act_type[a] == SC_ACT_MOTOR && m->act_dof[a] >= 0) {
      const int i = m->act_dof[a];
      wm += dt * d->act_force[a] * 0.5 * (v0[i] + d->v[i]);
    }
  d->e_actuator += wm;
  for (int r = 0; r < d->nrow; r++) {
    const int i = d->ncon + r, ref = d->row_ref[r], type = d->row_type[r];
    if (type == SC_JROW_CONE) continue; /* a contact's (sc_contact_laws_finish) */
    const double g = d->impulse[3 * i + 2];
    /* the row's velocity at the step's end: a joint's row on its one dof,
     * a wide row (equality, tendon, actuator on a tendon) over its columns */
    const int one_dof = type == SC_JROW_LIMIT_LOWER || type == SC_JROW_LIMIT_UPPER ||
                        type == SC_JROW_FRICTION || (type == SC_JROW_SERVO && m->act_tendon[ref] < 0);
    const double s = one_dof ? d->Jc[3 * (size_t)d->jptr[i] + 2] : 1.0;
    const double vc = one_dof ? s * d->v[d->jcol[d->jptr[i]]] : sc_eq_row_velocity(d, i, d->v);
    const double work = g * 0.5 * (d->vn0[i] + vc);
    switch (type) {
      case SC_JROW_LIMIT_LOWER:
      case SC_JROW_LIMIT_UPPER:
        d->jnt_limit_force[ref] += s * g / dt;
        d->e_limit -= work;
        break;
      case SC_JROW_FRICTION:
        d->dof_friction_force[ref] = g / dt;
        d->e_jfriction -= work;
        break;
      case SC_JROW_SERVO:
        d->act_force[ref] = g / dt;
        d->e_actuator += work;
        break;
      case SC_JROW_EQUALITY:
        d->eq_force[ref] = g / dt;
        d->e_constraint -= work;
        break;
      case SC_JROW_TENDON_LOWER:
      case SC_JROW_TENDON_UPPER:
        d->ten_limit_force[ref] += (type == SC_JROW_TENDON_LOWER ? g : -g) / dt;
        d->e_limit -= work;
        break;
      case SC_JROW_TENDON_FRICTION:
        d->ten_friction_force[ref] = g / dt;
        d->e_jfriction -= work;
        break;
    }
  }
}
