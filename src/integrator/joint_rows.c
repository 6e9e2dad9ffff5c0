/* joint_rows: joint limits, dry joint friction and servos as one-dimensional
 * rows of the contact problem, and the motors' forces (doc/actuation.md).
 *
 * Sources: the compliant constraints of SAP as convex cost terms (Castro,
 * Permenter & Han, "An Unconstrained Convex Formulation of Compliant
 * Contact", arXiv 2110.10107, sections on the regularized constraints and
 * their near-rigid limit), and the same forms as Drake's contact solver
 * writes a joint limit and a PD controller with effort limits (its
 * SapLimitConstraint and SapPdControllerConstraint); dry friction is a
 * box-bounded friction row regularized like SAP's tangential one.
 *
 * Every row r acts on one dof i with J_r = s e_i^T (s = +1, or -1 for an
 * upper limit), vc_r = s v_i, and is a box row of contact/problem.h:
 *   gamma_r = clamp((vhat_r - vc_r) / R_r, lo_r, hi_r),
 * the generalized impulse s gamma_r on dof i, solved with the contacts in
 * the same convex problem (each row's cost is convex and C1 in vc_r, its
 * derivative -gamma_r) and in the same islands; under --solver lcp the
 * same rows are complementarity rows (solver_lcp/lcp.c).
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
 *
 * Servo on dof i with input (target) u and the theta-method placement
 *   q^th = q0 + a0 v0 + a v,   v^th = b0 v0 + b v:
 * position, force Kp (u - q^th) + Kd (u_v - v^th); velocity, Kd (u - v^th);
 * impulse dt f clamped to dt [effort lo, effort hi].  Linear in v:
 *   1 / R = dt (Kp a + Kd b),   vhat = R dt (Kp (u - q0 - a0 v0) + Kd (u_v - b0 v0))
 * (Kp = 0 for a velocity servo).  a = th_q th_vq dt, a0 = th_q (1 - th_vq) dt,
 * b = th_v, b0 = 1 - th_v: the integrator's own placement of its springs
 * (integrator.c; for the midpoint rule q^th = (q0 + q) / 2, second order)
 * when the servo's theta is auto and its spring is resolved by the step
 * (omega dt = sqrt(Kp w) dt <= 1 and Kd w dt <= 1) and the scheme is
 * implicit in v; otherwise (a stiff servo, an explicit scheme, or a theta
 * given) a = th^2 dt, a0 = th (1 - th) dt, b = th, b0 = 1 - th with th = 1
 * (auto) or the servo's theta: th = 1 is backward Euler, q^th = q, first
 * order and L-stable -- a servo stiffer than the step can follow settles
 * without ringing (the midpoint rule would flip it every step), as Drake's
 * PD-controller constraint does.  The law assumed q = q0 + dt v on the
 * servo's dof, so that dof's position advances with v
 * (sc_rows_position_velocity): with the midpoint's (v0 + v) / 2 instead, the
 * stiff servo's velocity flips sign every step and its error rings.  (Moving
 * the positions with the servo's whole impulse instead, as an impact does,
 * would move a servo that holds a load at rest by dt^2 / 2 times the load's
 * acceleration every step.)  Inputs are taken at t0 + th_q dt (t0 +
 * th dt).
 *
 * Motor: the generalized force gear u(t0 + th_v dt), clamped to the effort
 * bounds, a known force of the free-motion stage (integrator.c adds
 * d->fmotor to k).
 *
 * Work over the step: rows gamma_r (vc0_r + vc_r) / 2, motors dt f (v0_i +
 * v_i) / 2 -- exact for the midpoint rule on a linear system, the same rule
 * as the contacts' work. */
#include <math.h>
#include <string.h>

#include "constraint/equality.h"
#include "constraint/tendon.h"
#include "dynamics/dynamics.h"
#include "integrator/work.h"
#include "solver_sap/sap.h"
#include "solver_sap/sap_model.h"

/* the largest omega dt (and Kd w dt) of a servo the auto theta writes at
 * the scheme's placement, as for contacts (contact_stage.c) */
#define SC_RESOLVED_WDT 1.0

/* input 0 (the command or target) or 1 (a position servo's commanded
 * velocity) of actuator a at time t; a control set through the library
 * replaces input 0 */
static double input(const sc_model* m, const sc_data* d, int a, int which, double t) {
  if (which == 0 && !isnan(d->ctrl[a])) return d->ctrl[a];
  const int c = which ? m->act_cmd_vel[a] : m->act_cmd[a];
  return c >= 0 ? sc_model_command(m, c, t) : m->act_input[2 * a + which];
}

void sc_rows_actuate(const sc_model* m, sc_data* d) {
  const sc_options* o = &m->opt;
  if (m->nact == 0) return; /* d->fmotor stays zero */
  memset(d->fmotor, 0, sizeof(double) * (size_t)m->nv);
  for (int a = 0; a < m->nact; a++) {
    if (m->act_type[a] != SC_ACT_MOTOR) continue;
    const double u = input(m, d, a, 0, d->time + o->theta_v * o->dt);
    double f = m->act_gear[a] * u;
    if (f < m->act_effort[2 * a]) f = m->act_effort[2 * a];
    if (f > m->act_effort[2 * a + 1]) f = m->act_effort[2 * a + 1];
    d->act_ctrl[a] = u;
    d->act_force[a] = f;
    d->fmotor[m->act_dof[a]] += f;
  }
}

static void add_row(sc_data* d, int type, int ref, int dof, double s, double phi0,
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
  const sc_options* o = &m->opt;
  d->nrow = 0;
  if (m->nrow_max == 0) return;
  for (int i = 0; i < d->ncon; i++) d->ckind[i] = SC_ROW_CONTACT;
  for (int j = 0; m->any_limit && j < m->njnt; j++) {
    const double lo = m->jnt_range[2 * j], hi = m->jnt_range[2 * j + 1];
    if (!isfinite(lo) && !isfinite(hi)) continue;
    const int dof = m->jnt_vadr[j];
    const double q = d->q[m->jnt_qadr[j]], reach = o->margin + 2.0 * o->dt * fabs(v0[dof]);
    if (isfinite(lo) && q - lo < reach) add_row(d, SC_JROW_LIMIT_LOWER, j, dof, 1.0, q - lo, v0);
    if (isfinite(hi) && hi - q < reach) add_row(d, SC_JROW_LIMIT_UPPER, j, dof, -1.0, hi - q, v0);
  }
  for (int i = 0; m->any_frictionloss && i < m->nv; i++)
    if (m->dof_frictionloss[i] > 0) add_row(d, SC_JROW_FRICTION, i, i, 1.0, 0.0, v0);
  for (int a = 0; a < m->nact; a++)
    if (m->act_type[a] != SC_ACT_MOTOR) add_row(d, SC_JROW_SERVO, a, m->act_dof[a], 1.0, 0.0, v0);
  if (m->nrow_wide == 0) return;
  /* the equality and tendon rows' Jacobians where the contacts' are taken (at the mid
   * configuration, contact_stage.c, which may have put the kinematics
   * there already) */
  if (o->midstep_jacobian && o->theta_q > 0) {
    sc_step_mid_positions(m, d->q, v0, o->theta_q, o->dt, d->qtheta, d->scratch + 8 * (size_t)m->nv);
    if (!sc_dyn_kinematics_current(m, d, d->qtheta)) sc_dyn_kinematics(m, d, d->qtheta);
  } else if (!sc_dyn_kinematics_current(m, d, d->q)) {
    sc_dyn_kinematics(m, d, d->q);
  }
  sc_eq_place(m, d, v0);
  sc_tendon_place(m, d, v0);
}

/* a servo row's law (see the top of the file) */
static double servo_law(const sc_model* m, sc_data* d, int a, double w, const double* v0s,
                        double* R, double* vhat, double* bound) {
  const sc_options* o = &m->opt;
  const double dt = o->dt;
  const int pos = m->act_type[a] == SC_ACT_POSITION;
  const double kp = pos ? m->act_kp[a] : 0.0, kd = m->act_kd[a];
  double ca, ca0, cb, cb0, th;
  int backward_euler = 0; /* (the dof then advances with the end velocity) */
  const int scheme_ok = o->theta_q > 0 && o->theta_vq > 0 && o->theta_v > 0;
  const int resolved = sqrt(kp * w) * dt <= SC_RESOLVED_WDT && kd * w * dt <= SC_RESOLVED_WDT;
  if (m->act_theta[a] == SC_ACT_THETA_AUTO && scheme_ok && resolved) {
    th = o->theta_q;
    ca = o->theta_q * o->theta_vq * dt;
    ca0 = o->theta_q * (1.0 - o->theta_vq) * dt;
    cb = o->theta_v;
    cb0 = 1.0 - o->theta_v;
  } else {
    th = m->act_theta[a] > 0 ? m->act_theta[a] : 1.0;
    backward_euler = th == 1.0;
    ca = th * th * dt;
    ca0 = th * (1.0 - th) * dt;
    cb = th;
    cb0 = 1.0 - th;
  }
  const double t = d->time + th * dt;
  const int dof = m->act_dof[a];
  const double v0 = v0s[dof];
  const double u = input(m, d, a, 0, t);
  d->act_ctrl[a] = u;
  const double q0 = pos ? d->q[m->act_qadr[a]] : 0.0;
  const double uv = pos ? input(m, d, a, 1, t) : u;
  R[0] = R[1] = 1.0;
  vhat[0] = vhat[1] = 0.0;
  R[2] = 1.0 / (dt * (kp * ca + kd * cb));
  vhat[2] = R[2] * dt * (kp * (u - q0 - ca0 * v0) + kd * (uv - cb0 * v0));
  bound[0] = dt * m->act_effort[2 * a];
  bound[1] = dt * m->act_effort[2 * a + 1];
  return backward_euler ? 1.0 : 0.0;
}

void sc_rows_laws(const sc_model* m, sc_data* d, const double* v0, double* hc, double* theta) {
  const sc_options* o = &m->opt;
  const double dt = o->dt;
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
      case SC_JROW_TENDON_LOWER:
      case SC_JROW_TENDON_UPPER: {
        const int jnt = d->row_type[r] <= SC_JROW_LIMIT_UPPER;
        const double k = jnt ? m->jnt_limit_k[ref] : m->ten_limit_k[ref];
        const double taud = jnt ? m->jnt_limit_taud[ref] : m->ten_limit_taud[ref];
        const double b = (o->beta == 0.0 && isinf(k)) ? 1.0 : o->beta;
        /* the contacts' rule: a near-rigid or unresolved limit at theta = 1 */
        const double th = sc_step_law_theta(
            o, sc_sap_near_rigid(k, taud, w, dt, b) ? (double)INFINITY : sqrt(k * w) * dt);
        d->ck[i] = k;
        d->ctaud[i] = taud;
        sc_sap_regularize_one(k, taud, w, d->phi0[i], d->vn0[i], dt, th, o->sigma, b, R, vhat);
        theta[i] = th;
        R[0] = R[1] = 1.0;
        vhat[0] = vhat[1] = 0.0;
        bound[0] = 0.0;
        bound[1] = INFINITY;
        break;
      }
      case SC_JROW_FRICTION:
        R[0] = R[1] = 1.0;
        R[2] = o->sigma * w;
        vhat[0] = vhat[1] = vhat[2] = 0.0;
        bound[0] = -dt * m->dof_frictionloss[ref];
        bound[1] = dt * m->dof_frictionloss[ref];
        theta[i] = 0.0;
        break;
      case SC_JROW_SERVO: theta[i] = servo_law(m, d, ref, w, v0, R, vhat, bound); break;
      case SC_JROW_EQUALITY: {
        /* a limit's law on both sides (constraint/equality.c); a row no
         * velocity moves (J = 0) has nothing to hold.  Nor has a row whose
         * J is round-off: a weld or connect that repeats what the joints
         * already hold (a weld's rotation about an axis no joint turns) leaves
         * such a row, its w some 30 decades below its siblings' (the same
         * point or rotation, the same units; the rows of a constraint are
         * consecutive), and its law would be 1/w */
        const int e = m->eqrow_eq[ref];
        const double k = m->eq_k[e], taud = m->eq_taud[e];
        double wmax = 0.0;
        if (m->eq_type[e] == SC_EQ_CONNECT || m->eq_type[e] == SC_EQ_WELD) {
          const int k0 = ref - m->eq_rowadr[e], g0 = k0 - k0 % 3;
          for (int j = g0; j < g0 + 3; j++) wmax = fmax(wmax, 3.0 * d->wdiag[i - k0 + j]);
        }
        R[0] = R[1] = 1.0;
        vhat[0] = vhat[1] = 0.0;
        bound[0] = -INFINITY;
        bound[1] = INFINITY;
        if (!(w > 1e-12 * wmax) || !(w > 0.0)) {
          R[2] = 1.0;
          vhat[2] = 0.0;
          theta[i] = 0.0;
          break;
        }
        const double b = (o->beta == 0.0 && isinf(k)) ? 1.0 : o->beta;
        const double th = sc_step_law_theta(
            o, sc_sap_near_rigid(k, taud, w, dt, b) ? (double)INFINITY : sqrt(k * w) * dt);
        d->ck[i] = k;
        d->ctaud[i] = taud;
        sc_sap_regularize_one(k, taud, w, d->phi0[i], d->vn0[i], dt, th, o->sigma, b, R, vhat);
        R[0] = R[1] = 1.0;
        vhat[0] = vhat[1] = 0.0;
        theta[i] = th;
        break;
      }
    }
  }
}

int sc_rows_nslot(const sc_model* m) {
  return 2 * m->njnt + m->nv + m->nact + m->neqrow + 2 * m->ntendon;
}

int sc_rows_slot(const sc_model* m, const sc_data* d, int r) {
  const int ref = d->row_ref[r];
  switch (d->row_type[r]) {
    case SC_JROW_LIMIT_LOWER: return 2 * ref;
    case SC_JROW_LIMIT_UPPER: return 2 * ref + 1;
    case SC_JROW_FRICTION: return 2 * m->njnt + ref;
    case SC_JROW_EQUALITY: return 2 * m->njnt + m->nv + m->nact + ref;
    case SC_JROW_TENDON_LOWER: return 2 * m->njnt + m->nv + m->nact + m->neqrow + 2 * ref;
    case SC_JROW_TENDON_UPPER: return 2 * m->njnt + m->nv + m->nact + m->neqrow + 2 * ref + 1;
    default: return 2 * m->njnt + m->nv + ref;
  }
}

void sc_rows_position_velocity(const sc_model* m, const sc_data* d, double* vq) {
  const step_work* w = d->solver_work;
  (void)m;
  if (!w) return;
  for (int r = 0; r < d->nrow; r++) {
    const int i = d->ncon + r;
    if (d->row_type[r] != SC_JROW_SERVO || w->theta_c[i] != 1.0) continue;
    const int dof = d->jcol[d->jptr[i]];
    vq[dof] = d->v[dof];
  }
}

void sc_rows_finish(const sc_model* m, sc_data* d, const double* v0) {
  const double dt = m->opt.dt;
  if (m->nrow_max == 0 && m->nact == 0) return;
  memset(d->jnt_limit_force, 0, sizeof(double) * (size_t)m->njnt);
  memset(d->dof_friction_force, 0, sizeof(double) * (size_t)m->nv);
  memset(d->ten_limit_force, 0, sizeof(double) * (size_t)m->ntendon);
  double wm = 0.0;
  for (int a = 0; a < m->nact; a++)
    if (m->act_type[a] == SC_ACT_MOTOR) {
      const int i = m->act_dof[a];
      wm += dt * d->act_force[a] * 0.5 * (v0[i] + d->v[i]);
    }
  d->e_actuator += wm;
  /* the warm start's memory of each row (contact_stage.c) */
  step_work* w = d->solver_work;
  if (w) {
    memset(w->row_prev, 0, sizeof(double) * (size_t)sc_rows_nslot(m));
    for (int r = 0; r < d->nrow; r++)
      w->row_prev[sc_rows_slot(m, d, r)] = d->impulse[3 * (d->ncon + r) + 2];
  }
  for (int r = 0; r < d->nrow; r++) {
    const int i = d->ncon + r, ref = d->row_ref[r];
    if (d->row_type[r] == SC_JROW_EQUALITY) {
      const double g = d->impulse[3 * i + 2];
      d->eq_force[ref] = g / dt;
      d->e_constraint -= g * 0.5 * (d->vn0[i] + sc_eq_row_velocity(d, i, d->v));
      continue;
    }
    if (d->row_type[r] >= SC_JROW_TENDON_LOWER) {
      const double g = d->impulse[3 * i + 2];
      d->ten_limit_force[ref] += (d->row_type[r] == SC_JROW_TENDON_LOWER ? g : -g) / dt;
      d->e_limit -= g * 0.5 * (d->vn0[i] + sc_eq_row_velocity(d, i, d->v));
      continue;
    }
    const int dof = d->jcol[d->jptr[i]];
    const double s = d->Jc[3 * (size_t)d->jptr[i] + 2];
    const double g = d->impulse[3 * i + 2];
    const double work = g * 0.5 * (d->vn0[i] + s * d->v[dof]);
    switch (d->row_type[r]) {
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
    }
  }
}
