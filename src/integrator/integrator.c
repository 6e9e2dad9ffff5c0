/* integrator: one step of the two-stage theta-method.
 *
 * doc/step.md (the scheme, its stages and the measurements behind each
 * departure from the published two-stage scheme), doc/contact.md section 2:
 *   x^theta = theta x + (1 - theta) x0 for q (theta_q), v (theta_v), v in the
 *   position update (theta_vq).
 *   Stage 1 (free motion): solve m(v*) = 0 with
 *     m(v) = M(q^tq(v)) (v - v0) - dt k(q^tq(v), v^tv(v)),
 *     q^tq(v) = q0 + tq dt N(q^tq) v^tvq(v)          (a 2-pass fixed point),
 *   by Newton's method with the SPD approximation of dm/dv (eq. expression_for_A)
 *     A = M + dt^2 tq tvq K + dt tv D,
 *   K, D the stiffness and damping of the springs and dampers (k1); k holds
 *   gravity, Coriolis/gyroscopic terms (from RNEA) and the springs.  Schemes
 *   explicit in v* (tq = tv = 0) take exactly one solve with A = M(q0).
 *   Stage 2 (contact): A (v - v*) = J(q~)^T gamma with the contact solver,
 *     the contacts detected at q0 (their set and gaps phi0), placed at the
 *     mid configuration q~ = q0 + tq dt N(q~) v0 (midstep_contacts), each
 *     contact's law (theta, near-rigid beta, lagged friction bound, a
 *     restitution impact's target v_n >= e u + (1 - s) dv) set
 *     per contact (contact_params) and refined from the island's own
 *     impulses (refine_contacts).
 *   Re-linearization (schemes implicit in v, models not affine in v):
 *     m(v) ~ m(v1) + A1 (v - v1), contact stage again (relinearize_step).
 *   Positions: q = q0 + dt N(q^tq) v_q, quaternions renormalized, with
 *     v_q = v^tvq plus (1 - tvq) A^-1 J^T of the impacts' normal impulses
 *     (a restitution impact's times 1 - s / (1 - tvq), s its time of
 *     impact; sc_step_kick, contact_stage.c).
 * Energy bookkeeping: kinetic, gravity and spring energies of each state;
 * damper work by the trapezoidal rule on the damper power; contact work as
 * gamma . (vc0 + vc) / 2, normal and friction parts apart (the work of the
 * impulse over the step; a restitution impact's normal impulse at its time
 * of impact, gamma_n ((vn0 + vn1) / 2 + (s - 1/2) dv)). */
#include "integrator/integrator.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "collision/collision.h"
#include "constraint/equality.h"
#include "constraint/tendon.h"
#include "contact/contact.h"
#include "contact/match.h"
#include "dynamics/dynamics.h"
#include "integrator/work.h"
#include "linalg/linalg.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- fault guards: a state that is not a plausible result stops the run
 * instead of being recorded as one ---- */

/* q, v and the energies finite; every quaternion of unit length (a
 * quaternion renormalized from infinite components comes out zero or NaN) */
static sc_status guard_state(const sc_model* m, const sc_data* d, sc_error* err) {
  for (int i = 0; i < m->nq; i++)
    if (!isfinite(d->q[i]))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite position %s = %g (diverged)", d->time,
                          m->q_names[i], d->q[i]);
  for (int i = 0; i < m->nv; i++)
    if (!isfinite(d->v[i]))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite velocity %s = %g (diverged)", d->time,
                          m->v_names[i], d->v[i]);
  for (int j = 0; j < m->njnt; j++) {
    int qa = m->jnt_qadr[j];
    if (m->jnt_type[j] != SC_JOINT_BALL && m->jnt_type[j] != SC_JOINT_FREE) continue;
    if (m->jnt_type[j] == SC_JOINT_FREE) qa += 3;
    const double* qq = d->q + qa;
    double n = sqrt(qq[0] * qq[0] + qq[1] * qq[1] + qq[2] * qq[2] + qq[3] * qq[3]);
    if (!(fabs(n - 1) < 1e-6))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite orientation: quaternion of joint %s has "
                          "norm %g (the rotation diverged)",
                          d->time, m->jnt_name[j], n);
  }
  const double e[4] = {d->e_kinetic, d->e_gravity, d->e_spring, d->e_damper + d->e_contact};
  static const char* en[4] = {"kinetic", "gravity", "spring", "dissipated"};
  for (int i = 0; i < 4; i++)
    if (!isfinite(e[i]))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite %s energy %g J (velocities too large for "
                          "double precision)",
                          d->time, en[i], e[i]);
  return SC_OK;
}

/* A rigid-body contact deeper than the smaller geometry's bounding radius
 * means a body passed through another (a step too long for the approach
 * speed): no compliant contact can make that a meaningful result. */
static sc_status guard_penetration(const sc_model* m, const sc_data* d, sc_error* err) {
  for (int i = 0; i < d->ncon; i++) {
    const sc_contact* c = &d->contact[i];
    double ra = m->geom_rbound[c->geom[0]], rb = m->geom_rbound[c->geom[1]];
    double r = ra < rb ? ra : rb;
    if (-c->dist > r && d->step == 0 && d->time == 0.0)
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: bodies %s and %s overlap by %.3g m at the start (more "
                          "than the smaller geometry's bounding radius %.3g m): move them "
                          "apart in the scene",
                          d->time, m->body_name[c->body[0]], m->body_name[c->body[1]], -c->dist,
                          r);
    if (-c->dist > r)
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: implausible penetration %.3g m between bodies %s and %s "
                          "(more than the smaller geometry's bounding radius %.3g m): the bodies "
                          "passed through each other; reduce time.step",
                          d->time, -c->dist, m->body_name[c->body[0]], m->body_name[c->body[1]],
                          r);
  }
  return SC_OK;
}

/* A body can cross another within one step when the contact found at the
 * step start cannot stop an approach that fast (a ball at 1e6 m/s, 1 km a
 * step, through a 0.2 m box: the near-rigid law's impulse is bounded by the
 * regularization), and the next step's detection then sees them apart, on
 * the wrong sides.  Caught here: the centres of a contact's two geoms (a
 * body's centre of mass, a static geom's own centre) measured along the
 * step-start normal changed sides, by more than the two bounding radii
 * together, which no motion that keeps them apart does in one step. */
static sc_status guard_pass_through(const sc_model* m, const sc_data* d, sc_error* err) {
  for (int i = 0; i < d->ncon; i++) {
    const sc_contact* c = &d->contact[i];
    const double* n = c->frame + 6;
    double s0 = 0, s1 = 0;
    for (int k = 0; k < 3; k++) {
      const int a = c->body[0], b = c->body[1];
      const double* ga = d->geom_xpos + 3 * c->geom[0];
      const double* gb = d->geom_xpos + 3 * c->geom[1];
      const double a0 = a ? d->xcom_prev[3 * a + k] : ga[k], a1 = a ? d->xcom[3 * a + k] : ga[k];
      const double b0 = b ? d->xcom_prev[3 * b + k] : gb[k], b1 = b ? d->xcom[3 * b + k] : gb[k];
      s0 += (b0 - a0) * n[k];
      s1 += (b1 - a1) * n[k];
    }
    const double r = m->geom_rbound[c->geom[0]] + m->geom_rbound[c->geom[1]];
    if (s0 > 0 && s1 < 0 && s0 - s1 > r)
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: bodies %s and %s passed through each other in one step "
                          "(%.3g m along their contact normal, more than their sizes %.3g m): "
                          "the contact could not stop an approach that fast; reduce time.step",
                          d->time, m->body_name[c->body[0]], m->body_name[c->body[1]], s0 - s1, r);
  }
  return SC_OK;
}

/* q^tq for velocities vq (= v^tvq): q0 + tq dt N(q^tq) vq, two passes */
void sc_step_mid_positions(const sc_model* m, const double* q0, const double* vq, double tq,
                           double dt, double* qt, double* qdot) {
  memcpy(qt, q0, sizeof(double) * (size_t)m->nq);
  if (tq == 0) return;
  for (int pass = 0; pass < 2; pass++) {
    sc_dyn_qdot(m, qt, vq, qdot);
    for (int i = 0; i < m->nq; i++) qt[i] = q0[i] + tq * dt * qdot[i];
    sc_dyn_normalize_q(m, qt);
  }
}

/* The step's mid-step state at v: v^tv and v^tvq into the scratch, q^tq
 * into d->qtheta, and the kinematics and body velocities there. */
static void pose_at(const sc_model* m, sc_data* d, const double* v0, const double* v) {
  const int nv = m->nv;
  const sc_options* o = &m->opt;
  double* vth = scr(m, d, SCR_VTH);
  double* vq = scr(m, d, SCR_VQ);
  double* qdot = d->scratch + 8 * (size_t)nv;
  for (int i = 0; i < nv; i++) {
    vth[i] = o->theta_v * v[i] + (1 - o->theta_v) * v0[i];
    vq[i] = o->theta_vq * v[i] + (1 - o->theta_vq) * v0[i];
  }
  sc_step_mid_positions(m, d->q, vq, o->theta_q, d->h, d->qtheta, qdot);
  /* (explicit in q, q^theta is the step's q0, whose kinematics the contact
   * detection just computed) */
  if (!sc_dyn_kinematics_current(m, d, d->qtheta)) sc_dyn_kinematics(m, d, d->qtheta);
  sc_dyn_velocity(m, d, d->qtheta, vth);
}

/* The Jacobi-scaled norm (D = diag(M)^-1/2, units sqrt(J)) of the residual
 * res, returned, and in *scale the momentum scale max(|D M v|, dt |D kf|),
 * with the M in d; tmp is scratch (nv). */
static double residual_norm(const sc_model* m, const sc_data* d, const double* v, const double* res,
                            const double* kf, double* tmp, double* scale) {
  const sc_la_blocks cb = sc_model_cliques(m);
  const double dt = d->h;
  sc_la_blk_gemv(&cb, d->M, v, tmp);
  double r2 = 0, p2 = 0, k2 = 0;
  for (int i = 0; i < m->nv; i++) {
    double di = 1.0 / sc_la_blk_diag(&cb, d->M, i);
    r2 += res[i] * res[i] * di;
    p2 += tmp[i] * tmp[i] * di;
    k2 += dt * dt * kf[i] * kf[i] * di;
  }
  *scale = sqrt(p2 > k2 ? p2 : k2);
  return sqrt(r2);
}

/* Evaluate the momentum residual m(v) into res and A at (q^tq(v), v^tv(v)).
 * Returns the residual norm ||D m|| and its scale in *scale. */
static double eval_residual(const sc_model* m, sc_data* d, const double* v0, const double* v,
                            double* res, double* scale) {
  const sc_la_blocks cb = sc_model_cliques(m);
  int nv = m->nv;
  const sc_options* o = &m->opt;
  double dt = d->h;
  double* kf = scr(m, d, SCR_K);
  double* tmp = scr(m, d, SCR_TMP);
  pose_at(m, d, v0, v);
  sc_dyn_crba(m, d);
  sc_dyn_rne(m, d, NULL, d->bias);
  memset(d->K, 0, sizeof(double) * (size_t)m->nblk);
  memset(d->D, 0, sizeof(double) * (size_t)m->nblk);
  sc_dyn_springs(m, d, d->qtheta, scr(m, d, SCR_VTH), d->K, d->D);
  for (int i = 0; i < nv; i++) kf[i] = d->fspring[i] - d->bias[i] + d->fmotor[i];
  /* the library user's forces, constant over the step as a motor's are, at
   * the same q^theta as the forces above */
  if (sc_dyn_applied(m, d, d->fapplied))
    for (int i = 0; i < nv; i++) kf[i] += d->fapplied[i];
  /* res = M (v - v0) - dt k */
  for (int i = 0; i < nv; i++) tmp[i] = v[i] - v0[i];
  sc_la_blk_gemv(&cb, d->M, tmp, res);
  for (int i = 0; i < nv; i++) res[i] -= dt * kf[i];
  /* A = M + dt^2 tq tvq K + dt tv D, on the clique blocks */
  double ck = dt * dt * o->theta_q * o->theta_vq, cd = dt * o->theta_v;
  for (long e = 0; e < m->nblk; e++) d->A[e] = d->M[e] + ck * d->K[e] + cd * d->D[e];
  d->afac_current = 0;
  return residual_norm(m, d, v, res, kf, tmp, scale);
}

/* The residual alone, m(v) of eval_residual, without M, K, D and A: by
 * inverse dynamics, M(q^theta) (v - v0) + dt bias = dt RNE(q^theta,
 * v^theta, (v - v0) / dt), so the composite-rigid-body pass is not needed.
 * The momentum scale uses the M in d (of the last full evaluation). */
static double eval_residual_only(const sc_model* m, sc_data* d, const double* v0, const double* v,
                                 double* res, double* scale) {
  const int nv = m->nv;
  const double dt = d->h;
  double* kf = scr(m, d, SCR_K);
  double* tmp = scr(m, d, SCR_TMP);
  pose_at(m, d, v0, v);
  for (int i = 0; i < nv; i++) tmp[i] = (v[i] - v0[i]) / dt;
  sc_dyn_rne(m, d, tmp, res); /* M a + bias, without the armature */
  for (int i = 0; m->any_armature && i < nv; i++) res[i] += m->dof_armature[i] * tmp[i];
  sc_dyn_springs(m, d, d->qtheta, scr(m, d, SCR_VTH), NULL, NULL);
  for (int i = 0; i < nv; i++) kf[i] = d->fspring[i] + d->fmotor[i];
  if (sc_dyn_applied(m, d, d->fapplied))
    for (int i = 0; i < nv; i++) kf[i] += d->fapplied[i];
  for (int i = 0; i < nv; i++) {
    res[i] = dt * (res[i] - kf[i]);
    kf[i] -= d->bias[i]; /* (the scale's force term, with the last bias) */
  }
  return residual_norm(m, d, v, res, kf, tmp, scale);
}

static sc_status free_motion(const sc_model* m, sc_data* d, int relin_after, sc_error* err) {
  const sc_la_blocks cb = sc_model_cliques(m);
  int nv = m->nv;
  const sc_options* o = &m->opt;
  double* res = scr(m, d, SCR_RES);
  const double* v0 = d->v;
  int explicit_scheme = (o->theta_q == 0 && o->theta_v == 0);
  memcpy(d->vstar, v0, sizeof(double) * (size_t)nv);
  d->free_iterations = 0;
  d->free_residual = 0;
  if (nv == 0) return SC_OK;
  double r_prev = INFINITY;
  for (int it = 0;; it++) {
    /* explicit schemes: m is affine in v with slope M = A, so one solve is
     * exact; and with theta_q = theta_v = 0 an evaluation at v* would see the
     * q^theta and v^theta of v0 again, so A stays the one just used, to the
     * bit: no second evaluation.  A model whose m is affine for any theta
     * (sc_model.free_motion_affine) is solved by one step too; A = M stays
     * the one evaluated at q^theta(v0), equal to that at q^theta(v*) but for
     * round-off. */
    if ((explicit_scheme || m->free_motion_affine) && it == 1) {
      d->free_residual = 0;
      break;
    }
    double scale, r = it == 0 ? eval_residual(m, d, v0, d->vstar, res, &scale)
                                : eval_residual_only(m, d, v0, d->vstar, res, &scale);
    if (!isfinite(r))
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: non-finite free-motion residual", d->time);
    d->free_residual = scale > 0 ? r / scale : r;
    if (r <= o->newton_tol * scale) break;
    /* a residual that stopped contracting within a few decades of the
     * tolerance has reached the round-off floor of m(v): accept it */
    if (r >= 0.9 * r_prev && r <= 1e4 * o->newton_tol * scale) break;
    /* relin_after re-linearizations follow, each an iteration of this one
     * on the whole step, contact included, and the step's last test is
     * theirs (relinearize_step): stop once the contraction of the last
     * iteration, r / r_prev, would carry r below the tolerance after them */
    if (relin_after > 0 && isfinite(r_prev) && r < r_prev &&
        r * pow(r / r_prev, relin_after) <= o->newton_tol * scale)
      break;
    r_prev = r;
    if (it == o->newton_maxit) {
      d->warning[SC_WARN_FREE_NEWTON]++;
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: free-motion Newton did not converge in %d iterations "
                          "(relative residual %.3g > integrator.newton.tolerance %.3g)",
                          d->time, o->newton_maxit, d->free_residual, o->newton_tol);
    }
    int info = d->afac_current ? 0 : sc_la_blk_factor(&cb, d->A, d->Afac);
    d->afac_current = info == 0;
    if (info != 0)
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: momentum matrix A not positive definite (at %s)",
                          d->time, m->v_names[info - 1]);
    sc_la_blk_solve(&cb, d->Afac, res, scr(m, d, SCR_TMP));
    for (int i = 0; i < nv; i++) d->vstar[i] -= res[i];
    d->free_iterations++;
  }
  return SC_OK;
}

/* energies and damper power of the state (q, v) in d; needs nothing precomputed */
static double state_quantities(const sc_model* m, sc_data* d) {
  int nv = m->nv;
  if (!sc_dyn_kinematics_current(m, d, d->q)) sc_dyn_kinematics(m, d, d->q);
  sc_dyn_velocity(m, d, d->q, d->v);
  sc_dyn_energy(m, d, d->v, &d->e_kinetic, &d->e_gravity);
  d->e_spring = sc_dyn_springs(m, d, d->q, d->v, NULL, NULL);
  if (m->neq > 0) sc_eq_gaps(m, d, d->eq_gap);
  if (m->ntendon > 0) sc_tendon_lengths(m, d);
  return -sc_la_dot(nv, d->v, d->fdamp); /* damper power dissipated, W */
}

/* The two-stage scheme solves the contact problem on the linearization
 *   m(v) ~ A (v - v*),   m(v*) = 0,
 * whose A leaves out the velocity-product (Coriolis, gyroscopic) and
 * configuration terms of dm/dv (A = dm/dv + O(dt); doc/step.md, "Stage 1").  With a contact impulse of O(dt) every step (a body resting or
 * sliding on something) v1 - v* = O(dt), the linearization error
 * (dm/dv - A)(v1 - v*) is O(dt^2) per step, and the scheme is first
 * order whatever theta: a spinning top on a frictionless floor, whose
 * centre of mass must not move sideways, drifts at O(dt) (the published
 * scheme does the same).  The free motion's iteration on the whole step
 * fixes it: with m evaluated at the contact solution v1 (the residual
 * alone, eval_residual_only),
 *   m(v) ~ m(v1) + A (v - v1) = A (v - v*1),   v*1 = v1 - A^-1 m(v1),
 * and the contact problem is solved again with (A, v*1) and the same
 * contact laws.  A is the free motion's (an A re-evaluated at v1 would be
 * O(dt) from dm/dv as well, and cost the mass matrix, a factorization and
 * the Delassus estimate).  One such step makes the error O(dt^3) per step (second
 * order under the midpoint rule); its fixed point solves the discrete
 * momentum balance of the scheme exactly.  The linearization error at v1,
 *   e = m(v1) - A (v1 - v*),
 * measured in the free-motion stage's scaled norm, decides: the step stops
 * once |D e| <= integrator.newton.tolerance times the momentum scale or
 * after integrator.relinearize steps.  Schemes explicit in v (theta_q = theta_v = 0) and affine models
 * have A = dm/dv exactly and never need it.
 * Returns 1 when v* was updated (solve again), 0 when e is small. */
static int relinearize_step(const sc_model* m, sc_data* d, const double* v0) {
  const sc_la_blocks cb = sc_model_cliques(m);
  const int nv = m->nv;
  double* res = scr(m, d, SCR_RES);
  double* y = scr(m, d, SCR_GUESS); /* free until the caller's next solve */
  /* y = A (v1 - v*) with the A of the last solve (res as scratch:
   * eval_residual uses the other slots) */
  for (int i = 0; i < nv; i++) res[i] = d->v[i] - d->vstar[i];
  sc_la_blk_gemv(&cb, d->A, res, y);
  double scale;
  eval_residual_only(m, d, v0, d->v, res, &scale);
  double e2 = 0;
  for (int i = 0; i < nv; i++) {
    const double e = res[i] - y[i];
    e2 += e * e / sc_la_blk_diag(&cb, d->M, i);
  }
  if (!(sqrt(e2) > m->opt.newton_tol * scale)) return 0;
  if (!d->afac_current && sc_la_blk_factor(&cb, d->A, d->Afac) != 0) return 0;
  d->afac_current = 1;
  sc_la_blk_solve(&cb, d->Afac, res, scr(m, d, SCR_TMP));
  for (int i = 0; i < nv; i++) d->vstar[i] = d->v[i] - res[i];
  return 1;
}

/* With contact.speculative off, contacts are found only within
 * contact.margin at the step start: a body that moves more than its smallest
 * geometry's bounding radius in a step while in no contact may have passed
 * something in its path.  Counted (SC_WARN_FAST), the first one kept. */
static void fast_bodies(const sc_model* m, sc_data* d) {
  for (int b = 1; b < m->nbody; b++) {
    const double r = m->body_rmin[b];
    if (!isfinite(r)) continue;
    double dx = 0;
    for (int k = 0; k < 3; k++) {
      const double e = d->xcom[3 * b + k] - d->xcom_prev[3 * b + k];
      dx += e * e;
    }
    dx = sqrt(dx);
    if (!(dx > r)) continue;
    int touching = 0;
    for (int i = 0; i < d->ncon && !touching; i++)
      touching = d->contact[i].body[0] == b || d->contact[i].body[1] == b;
    if (touching) continue;
    if (d->warning[SC_WARN_FAST]++ == 0) {
      d->fast_body = b;
      d->fast_dist = dx;
      d->fast_time = d->time;
    }
    return;
  }
}

/* the deepest contact of d's contacts, in m and relative to the smaller
 * geometry's bounding radius (the per-step penetration figures) */
static void contact_depths(const sc_model* m, sc_data* d) {
  d->max_depth = d->max_depth_frac = d->frac_depth = 0;
  d->depth_pair[0] = d->depth_pair[1] = 0;
  for (int i = 0; i < d->ncon; i++) {
    const sc_contact* c = &d->contact[i];
    const double x = -c->dist;
    if (!(x > 0)) continue;
    const double ra = m->geom_rbound[c->geom[0]], rb = m->geom_rbound[c->geom[1]];
    const double f = x / (ra < rb ? ra : rb);
    if (x > d->max_depth) d->max_depth = x;
    if (f > d->max_depth_frac) {
      d->max_depth_frac = f;
      d->frac_depth = x;
      d->depth_pair[0] = c->body[0];
      d->depth_pair[1] = c->body[1];
    }
  }
}

/* contacts at the current positions (kinematics must be current) */
static void detect(const sc_model* m, sc_data* d) {
  int dropped = 0;
  sc_col_detect(m, d, &dropped);
  if (dropped) d->warning[SC_WARN_NCON]++;
}

sc_status sc_forward(const sc_model* m, sc_data* d, sc_error* err) {
  d->damper_power = state_quantities(m, d);
  detect(m, d);
  sc_contact_jacobian(m, d);
  sc_contact_velocity(m, d, d->v, d->vc);
  for (int i = 0; i < d->ncon; i++) {
    d->slip[i] = hypot(d->vc[3 * i], d->vc[3 * i + 1]);
    d->impulse[3 * i] = d->impulse[3 * i + 1] = d->impulse[3 * i + 2] = 0;
  }
  memset(&d->contact_stats, 0, sizeof d->contact_stats);
  d->coulomb[0] = d->coulomb[1] = d->coulomb[2] = 0;
  if (d->solver_trace) d->solver_trace->n = 0;
  contact_depths(m, d);
  sc_status st = guard_state(m, d, err);
  if (st == SC_OK) st = guard_penetration(m, d, err);
  return st;
}

static sc_status take_step(const sc_model* m, sc_data* d, double h, int whole, sc_error* err);

sc_status sc_step(const sc_model* m, sc_data* d, sc_error* err) {
  return take_step(m, d, m->opt.dt, 1, err);
}

sc_status sc_step_of(const sc_model* m, sc_data* d, double h, sc_error* err) {
  return take_step(m, d, h, 0, err);
}

/* one step of h; whole: a step of time.step, counted (d->step) and timed
 * from the count, exact over long runs; else an error-controlled substep,
 * which adds its length to the time and leaves the count to adaptive.c */
static sc_status take_step(const sc_model* m, sc_data* d, double h, int whole, sc_error* err) {
  d->h = h;
  double t0 = now_seconds();
  int nv = m->nv;
  const sc_options* o = &m->opt;
  double dt = d->h;
  double* v0 = scr(m, d, SCR_V0);
  memcpy(v0, d->v, sizeof(double) * (size_t)nv);

  /* 1 kinematics and contacts at q0: the contact set and its gaps are
   * fixed for the step.  The previous step ended with the kinematics of
   * this q (state_quantities): recomputed only when q was changed since. */
  if (!sc_dyn_kinematics_current(m, d, d->q)) sc_dyn_kinematics(m, d, d->q);
  /* the step-start centres of mass, for the fast-body and pass-through
   * checks at the step's end */
  memcpy(d->xcom_prev, d->xcom, sizeof(double) * 3 * (size_t)m->nbody);
  detect(m, d);
  sc_contact_jacobian(m, d);
  if (m->neq > 0) sc_eq_gaps(m, d, d->eq_gap);
  if (m->ntendon > 0) sc_tendon_lengths(m, d);
  int nc = d->ncon;
  contact_depths(m, d);
  if (d->solver_work) sc_contact_offsets(d, ((step_work*)d->solver_work)->law.crel);
  sc_status st = guard_penetration(m, d, err);
  if (st != SC_OK) return st;
  sc_contact_velocity(m, d, v0, d->vc0);

  /* 2-3 free motion and A, with the motors' forces of the step */
  sc_rows_actuate(m, d);
  const int relin = nc + d->nrow > 0 && !(o->theta_q == 0 && o->theta_v == 0) && !m->free_motion_affine;
  st = free_motion(m, d, relin ? o->relinearize : 0, err);
  if (st != SC_OK) return st;

  /* 4 contact: each contact's law, min l(v) (SAP) or the polyhedral-cone
   * LCP island by island, warm started (contact_stage.c) */
  sc_solve_status ss;
  if ((st = sc_step_contacts(m, d, v0, &ss, err)) != SC_OK) return st;
  /* re-linearize the momentum balance about the contact solution v1 and
   * solve the contact problem again (see relinearize_step) */
  for (int r = 0; relin && ss == SC_SOLVE_OK && r < o->relinearize; r++) {
    if (!relinearize_step(m, d, v0)) break;
    d->relinearizations++;
    ss = sc_step_contacts_again(m, d, v0);
  }
  if ((st = sc_step_contacts_end(m, d, ss, err)) != SC_OK) return st;
  sc_rows_finish(m, d, v0);
  /* the applied forces' work over the step, as a motor's (rows.c) */
  for (int i = 0; i < nv; i++) d->e_applied += dt * d->fapplied[i] * 0.5 * (v0[i] + d->v[i]);
  if (d->solver_work && m->nrow_max > 0) {
    /* the warm start's memory of each row (contact_stage.c) */
    step_work* w = d->solver_work;
    memset(w->row_prev, 0, sizeof(double) * (size_t)sc_rows_nslot(m));
    for (int r = 0; r < d->nrow; r++) {
      const int slot = sc_rows_slot(m, d, r);
      if (slot >= 0) w->row_prev[slot] = d->impulse[3 * (d->ncon + r) + 2];
    }
  }

  /* 5 positions: q = q0 + dt N(q^tq) v_q, v_q = v^tvq (+ the impacts' kick) */
  double* vq = scr(m, d, SCR_VQ);
  double* qdot = d->scratch + 8 * (size_t)nv;
  for (int i = 0; i < nv; i++) vq[i] = o->theta_vq * d->v[i] + (1 - o->theta_vq) * v0[i];
  if (nc + d->nrow > 0 && o->theta_vq < 1) {
    double* kick = scr(m, d, SCR_GUESS);
    if (sc_step_kick(m, d, v0, kick, scr(m, d, SCR_TMP)))
      for (int i = 0; i < nv; i++) vq[i] += (1 - o->theta_vq) * kick[i];
  }
  if (d->nrow > 0 && d->solver_work)
    sc_rows_position_velocity(m, d, ((const step_work*)d->solver_work)->law.theta_c, vq);
  sc_step_mid_positions(m, d->q, vq, o->theta_q, dt, d->qtheta, qdot);
  sc_dyn_qdot(m, d->qtheta, vq, qdot);
  for (int i = 0; i < m->nq; i++) d->q[i] += dt * qdot[i];
  sc_dyn_normalize_q(m, d->q);
  if (whole) d->time = (double)(++d->step) * dt;
  else d->time += dt;

  /* (energies still those of the previous state: finite) */
  if ((st = guard_state(m, d, err)) != SC_OK) return st;

  /* 6 energies of the new state; damper work by the trapezoidal rule */
  double p0 = d->damper_power;
  d->damper_power = state_quantities(m, d);
  if (!o->speculative) fast_bodies(m, d);
  sc_contact_coulomb_residuals(d, dt, d->solver_work ? ((step_work*)d->solver_work)->law.vrest : NULL,
                               d->coulomb);
  d->e_damper += 0.5 * dt * (p0 + d->damper_power);
  d->wall_time = now_seconds() - t0;
  if ((st = guard_state(m, d, err)) != SC_OK) return st;
  return guard_pass_through(m, d, err);
}
