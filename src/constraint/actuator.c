/* actuator: motors and servos (doc/actuation.md; the rows' common form:
 * rows.c).
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
 * On a tendon (act_tendon) the coordinate is the tendon's length L and the
 * row's J its Jacobian (tendon.c places it): a servo's law is the same with
 * L and L' for q and v; a motor's force f acts as the row of fixed impulse
 * gamma = dt f (bounds [dt f, dt f]), the generalized impulse J^T dt f.
 * */
#include <math.h>
#include <string.h>

#include "constraint/kinds.h"
#include "constraint/rows.h"

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
    const double u = input(m, d, a, 0, d->time + o->theta_v * d->h);
    double f = m->act_gear[a] * u;
    if (f < m->act_effort[2 * a]) f = m->act_effort[2 * a];
    if (f > m->act_effort[2 * a + 1]) f = m->act_effort[2 * a + 1];
    d->act_ctrl[a] = u;
    d->act_force[a] = f;
    /* (a motor on a tendon is its row's fixed impulse, sc_rows_laws) */
    if (m->act_dof[a] >= 0) d->fmotor[m->act_dof[a]] += f;
  }
}

void sc_actuator_place(const sc_model* m, sc_data* d, const double* v0) {
  for (int a = 0; a < m->nact; a++)
    if (m->act_type[a] != SC_ACT_MOTOR && m->act_dof[a] >= 0)
      sc_rows_add_dof(d, SC_JROW_SERVO, a, m->act_dof[a], 1.0, 0.0, v0);
}

/* a servo row's law (see the top of the file) */
static double servo_law(const sc_model* m, sc_data* d, int a, int row, double w,
                        const double* v0s, double* R, double* vhat, double* bound) {
  const sc_options* o = &m->opt;
  const double dt = d->h;
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
  /* the coordinate driven: the joint's, or the tendon's length (its row's
   * velocity at the step start is vn0) */
  const int dof = m->act_dof[a], ten = m->act_tendon[a];
  const double v0 = ten >= 0 ? d->vn0[row] : v0s[dof];
  const double u = input(m, d, a, 0, t);
  d->act_ctrl[a] = u;
  const double q0 = !pos ? 0.0 : ten >= 0 ? d->ten_length[ten] : d->q[m->act_qadr[a]];
  const double uv = pos ? input(m, d, a, 1, t) : u;
  R[0] = R[1] = 1.0;
  vhat[0] = vhat[1] = 0.0;
  R[2] = 1.0 / (dt * (kp * ca + kd * cb));
  vhat[2] = R[2] * dt * (kp * (u - q0 - ca0 * v0) + kd * (uv - cb0 * v0));
  bound[0] = dt * m->act_effort[2 * a];
  bound[1] = dt * m->act_effort[2 * a + 1];
  return backward_euler ? 1.0 : 0.0;
}

double sc_actuator_law(const sc_model* m, sc_data* d, int a, int i, double w, const double* v0,
                       double* R, double* vhat, double* bound) {
  if (m->act_type[a] == SC_ACT_MOTOR) { /* a motor on a tendon: its impulse, fixed */
    R[0] = R[1] = R[2] = 1.0;
    vhat[0] = vhat[1] = vhat[2] = 0.0;
    bound[0] = bound[1] = d->h * d->act_force[a];
    return 0.0;
  }
  return servo_law(m, d, a, i, w, v0, R, vhat, bound);
}
