/* contact_stage: the contact stage of the step (see integrator.c for the
 * whole step; the formulation is doc/contact.md).
 *
 * After the free motion (v*, A) the contacts detected at q0 are placed at
 * the step's mid configuration (midstep_contacts), each contact's law is
 * set from its stiffness, dissipation, the Delassus estimate and the
 * choices explained below (contact_params), and the convex problem
 *   min_v 1/2 |v - v*|_A^2 + sum_i l_i(J_i v)
 * (or the polyhedral-cone LCP) is solved island by island (island/
 * island.h), warm started from the previous step's impulses, with the laws
 * refined from each island's own impulses between passes (refine_contacts).
 * The impacts' part of the position update is here too (sc_step_kick).
 *
 * Restitution (doc/contact.md 4.7; restitution_mode below).  A pair with
 * e = max(e_a, e_b) > 0 whose contact the step does not resolve and that
 * approaches faster than v_e at the step start takes, for that step, the
 * rigid law (k = inf, tau_d = d = 0, theta = 1, beta = 0.1) with
 *   v^_n = max(-phi0 / dt, v_r + (R_n / W_nn) (v_r - vn*)),   v_r = e u + (1 - s) dv,
 * u = -(vn0 + s dv) the approach speed at the time of impact s dt
 * (phi0 + vn0 s dt + dv s^2 dt / 2 = 0, dv = vn* - vn0), and its impulse
 * enters the kick with the factor 1 - s / (1 - theta_vq).
 *
 * The stiction anchor (doc/contact.md 4.6).  The convex models' friction
 * is regularized (sap: R_t = sigma w; similar, lagged: the velocity eps),
 * so a contact that sticks while using a fraction rho of its friction
 * still slips, at about eps rho / sqrt(1 - rho^2): a held grasp or a box
 * at rest on an incline creeps at a speed proportional to dt.  Each
 * sticking contact therefore keeps a, its tangential slip since it began
 * to stick (carried across steps by the contact match, contact/match.h),
 * and its friction acts about the target velocity
 *   v^_t = -kappa a / dt        (kappa = contact.stiction_anchor)
 * instead of 0: only the target of the tangential rows moves, as SAP's v^_n
 * does for the normal row, so each problem stays convex.  After the solve,
 *   a <- a + dt (theta v_t + (1 - theta) v_t0)   (the slip the positions make)
 * while the contact sticks (|gamma_t| < RHO_STICK mu n_f, n_f the
 * impulse that bounds friction: n0 for lagged, gamma_n otherwise), and
 * a <- 0 when it slides, is new, or has no friction.  At a steady stick
 * the regularized law leaves u_t = v_t - v^_t at its creep speed c, so
 * a settles at c dt / kappa and v_t at 0: the creep no longer adds up.
 * kappa = 1/2 by default, not the one-step 1: in the stiff limit
 *   a_{k+1} = (1 - theta kappa) a_k - (1 - theta) kappa a_{k-1},
 * which under the midpoint rule decays by sqrt(kappa / 2) a step, and at
 * kappa = 1 the corner anchors of boxes landing on each other kept them
 * rocking (test_box_column_impacts; doc/contact.md 4.6).
 * Sliding is unchanged: a saturated contact resets its anchor, and its
 * friction is mu n_f along the slip whatever the target. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "collision/collision.h"
#include "contact/contact.h"
#include "core/core.h"
#include "dynamics/dynamics.h"
#include "integrator/work.h"
#include "solver_sap/sap_model.h"

/* ---- SAP warm start from the previous step's impulses ----
 * A guess is only as good as the impulses gamma(v) it implies, and with R
 * tiny (stiction, near-rigid contact) a small velocity error is a large
 * impulse error.  Besides v0 the solver is offered the velocity the
 * previous impulses would produce now,
 *   v_guess = v* + A^-1 J^T gamma_prev,
 * with gamma_prev the impulse of the contact that persists (contact/match.h),
 * rotated into the new contact frame; new contacts get 0.  The solver starts
 * from v_guess when both its cost and its residual are below v0's
 * (sc_sap_solve_from).  Measured on clutter this saves only 2-3 % of the
 * iterations (results/sap_iterations.md): v0 already carries the previous
 * step's answer. */

/* LCP warm start: each contact's guess is the basic pattern of the contact
 * it continues (0, all w basic, for a new one: no impulse).  The cone's
 * edges are numbered from the contact frame's t1, which for a continuing
 * contact turns little from one step to the next. */
static void lcp_guess(const step_work* w, int nc) {
  for (int i = 0; i < nc; i++) {
    const int j = w->match[i];
    w->pat_guess[i] = j >= 0 ? w->mem.pat[j] : 0u;
  }
}

/* v = v* + A^-1 J^T gamma_prev over the nc contacts and the step's joint
 * rows (gam: 3 (nc + nrow) scratch, tmp: nv scratch); returns the number of
 * contacts and rows matched (0: v is v*) */
static int warm_guess(const sc_model* m, sc_data* d, const step_work* w, int nc, double* gam,
                      double* v, double* tmp) {
  const sc_la_blocks cb = sc_model_cliques(m);
  int* matched_c = w->matched;
  const int nv = m->nv;
  int matched = 0;
  for (int i = 0; i < nc; i++) {
    const int best = w->match[i];
    for (int r = 0; r < 3; r++) gam[3 * i + r] = w->gprev[3 * i + r];
    matched += best >= 0;
    matched_c[i] = best >= 0;
  }
  /* the joint rows: the impulse the same row had last step */
  for (int r = 0; r < d->nrow; r++) {
    const int i = nc + r;
    const double g = w->row_prev[sc_rows_slot(m, d, r)];
    gam[3 * i] = gam[3 * i + 1] = 0.0;
    gam[3 * i + 2] = g;
    matched += g != 0.0;
    matched_c[i] = g != 0.0;
  }
  nc += d->nrow;
  /* J^T gamma over each contact's listed columns */
  for (int i = 0; i < nv; i++) v[i] = 0;
  for (int i = 0; i < nc; i++)
    for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) {
      const int col = d->jcol[q];
      const double* Jc = d->Jc + 3 * (size_t)q;
      v[col] += Jc[0] * gam[3 * i] + Jc[1] * gam[3 * i + 1] + Jc[2] * gam[3 * i + 2];
    }
  sc_la_blk_solve(&cb, d->Afac, v, tmp);
  for (int i = 0; i < nv; i++) v[i] += d->vstar[i];
  return matched;
}

/* ---- per-contact parameters of the contact law ----
 * Each contact's R and vhat (sap, and the LCP's normal rows) or
 * Hunt-Crossley parameters (similar, lagged) come from its stiffness,
 * dissipation, the Delassus estimate w and three choices made here:
 *
 * theta of the contact law (contact.theta).  The law is written at the
 * penetration x^theta of the step (doc/contact.md 4.2, with the
 * spring at the mid-step gap, sap_cone.c); with theta = 1/2 a compliant
 * contact keeps the energy of its spring, as the midpoint rule should.  But
 * the midpoint rule conserves only what it resolves: a contact spring with
 * omega dt = sqrt(k w) dt large is turned by 2 atan(omega dt / 2), near pi,
 * per step, and nothing damps it.  A near-rigid contact (stiffness capped
 * so that its period is beta dt: omega dt = 2 pi / beta) then flips its
 * normal velocity every step: the contact chatters, a cube sliding on its
 * face rocks and stops 70 % short, and an unresolved compliant one gains
 * energy at each touch and release ((omega dt)^2 / 4 each: a sphere dropped
 * on a 1e5 N/m contact at dt = 10 ms, omega dt = 4, left with 10 J more than
 * it had; results/validation.md).  auto (the default) writes a contact
 * whose spring the step does not resolve (omega dt > SC_RESOLVED_WDT = 1, at
 * contact.near_rigid_beta; near-rigid and rigid ones always) at theta = 1:
 * the impulse sets the end-of-step normal velocity, as in Moreau's midpoint
 * scheme, while the positions still advance with v^theta_vq; resolved
 * compliant contacts keep theta_vq and bounce back to their height
 * (apex within 4.2e-4 up to omega dt = 0.41, results/validation.md, case
 * bounce).  scheme writes every contact at
 * theta_vq (the published scheme), a number writes them all at it.
 *
 * beta per contact (contact.near_rigid_depth).  A near-rigid contact
 * settles under a load F = n / dt to the depth of its capped spring,
 *   x = n theta tau Rn   (sap: Rn = beta^2 w / (4 pi^2), tau = theta dt + tau_d,
 *                         the law's own, sap_cone.c),
 *   x = n / (dt k)       (Hunt-Crossley: k = 4 pi^2 / (beta^2 w dt^2)),
 * both proportional to beta^2 w.  A heavy body on a light one has the
 * light body's large w and a large load: at beta = 1 a 10 t box on a 1 kg
 * one sinks 0.25 m per 10 ms step.  Depth control lowers beta per contact
 * so that x stays at most near_rigid_depth times the smaller geometry's
 * bounding radius, down to contact.near_rigid_beta_min (its conditioning
 * cost is a factor 4 pi^2 / beta^2 between the contact's curvature and
 * the bodies' masses).  The load is the normal impulse of the previous
 * step's matching contact, then the island's own solve (refine_contacts).
 *
 * The lagged friction bound.  The lagged model bounds friction by a
 * normal impulse n0 fixed before the solve; the source estimates it from
 * the state at the step start, which gives 0 for a contact that starts
 * this step: no friction at all on the first step of a run or during an
 * impact (a cube launched on the ground slides one step free: +2.9 % of
 * its stopping distance at dt = 10 ms), and friction on a contact that is
 * leaving.  Here n0 is the normal impulse the matching previous contact
 * carried (a better estimate than the state's in a pile, and the bound
 * the model means), and a new contact (no match) that breaks Coulomb's
 * law with its own normal impulse n after the solve (a sliding contact
 * whose bound is not mu n, or a sticking one that needs more than mu n,
 * by more than TRESCA_TOL) gets n0 = n, and the island is solved again, at
 * most contact.passes times: a fixed point of these Tresca problems is
 * Coulomb friction with the step's own normal impulse (what the LCP
 * solves), each pass a convex problem started from the last solution.
 * Refining every contact instead would double the Newton iterations of a
 * forming pile (clutter 216: 7.9 -> 16 per step) for a one-step lag the
 * model has by design; new contacts only cost 8 % (8.6). */
#define TRESCA_TOL 1e-2
/* a contact sticks (keeps its anchor) below this fraction of its friction
 * bound: the regularized lagged law reaches it at a slip of 22 eps, SAP
 * only strictly inside its cone */
#define RHO_STICK 0.999
#define DEPTH_SLACK 1.1 /* depth control acts on contacts deeper than this times the bound */

/* A contact without mobility.  W_ii = J_i A^-1 J_i^T is zero only when
 * J_i = 0 (A is positive definite): no velocity moves the contact's point
 * (a body on a hinge touching the floor at a point of its axis; bodies
 * welded to the world are never paired, broad.c), so its impulse does no work and
 * moves nothing, and the statics leave it undetermined.  Every law above
 * is scaled by W_ii (the near-rigid floor Rn = beta^2 w / (4 pi^2), the
 * friction's Rt = sigma w, the Hunt-Crossley cap 4 pi^2 / (beta^2 w dt^2))
 * and degenerates there: R = 0 put 1/R = inf into the Hessian and 0 inf
 * into J^T G J, a rigid pair's capped stiffness was infinite.  Such a
 * contact is left out: it takes the law of a contact that carries nothing
 * (no spring, no friction, any positive R: it multiplies nothing), so the
 * problem stays well posed and its impulse is exactly 0; the joints carry
 * the load.  Contacts whose Jacobian is only round-off are made exactly
 * zero where J is built (contact/contact.c). */
static int immobile(const sc_data* d, int i) { return !(d->wdiag[i] > 0.0); }

/* The normal row alone may have no mobility, J_n = 0 (to round-off) while
 * the tangent rows move: a disc on a hinge about the floor's normal resting
 * on its rim.  The normal impulse then does no work and moves nothing
 * either, but w_i (from the tangent rows) is positive, and the near-rigid
 * floor Rn = beta^2 w / (4 pi^2) it scales is not a stiffness of anything:
 * a rigid disc held 1 mm into a rigid floor by its hinge got 5e7 N from it
 * (6e8 N under the Hunt-Crossley cap), and friction with it held the hinge against any torque.  Such a row has
 * nothing to resolve and adds nothing to the Hessian (J_n^T G_nn J_n = 0),
 * so it needs no floor: a compliant contact keeps its spring's own law
 * (the floor pressed by the hinge pushes back with k x, and friction
 * acts with it); a rigid one, whose force the statics leave anywhere in
 * [0, inf), is left out as a contact without mobility, with no force. */
static int normal_immobile(const sc_data* d, int i) {
  double jn = 0.0, jj = 0.0;
  for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) {
    const double* e = d->Jc + 3 * (size_t)q;
    jn += e[2] * e[2];
    jj += e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
  }
  const double tol = 64.0 * DBL_EPSILON;
  return jn <= tol * tol * jj;
}

/* left out: no mobility at all, or a rigid contact without normal mobility */
static int left_out(const sc_data* d, int i) {
  return immobile(d, i) || (isinf(d->ck[i]) && normal_immobile(d, i));
}

static double immobile_law(double* R, double* vhat, double* hc) {
  for (int r = 0; r < 3; r++) R[r] = 1.0, vhat[r] = 0.0;
  if (hc) {
    for (int k = 0; k < SC_HC_NPAR; k++) hc[k] = 0.0;
    hc[SC_HC_EPS] = 1.0;
  }
  return 1.0;
}

/* ---- restitution (doc/contact.md 4.7) ----
 * A pair with a coefficient of restitution e > 0 whose contact spring the
 * step does not resolve (near-rigid, rigid, or omega dt > 1: the contacts
 * contact.theta auto writes at theta = 1) and that approaches faster than
 * contact.restitution_velocity at the step start is an impact.  For that
 * step its law is the rigid one (k = inf, tau_d = d = 0, theta = 1, beta =
 * RESTITUTION_BETA) with a target on the end-of-step normal velocity:
 *   v^_n = max(-phi0 / dt, v_r + (R_n / W_nn) (v_r - vn*)),
 * a shift of the normal row's argument, so every model stays convex and the
 * LCP reads it as w_n = v_n - v^_n + R_n gamma_n, complementary to gamma_n.
 * -phi0 / dt alone (rmode 1) keeps a gap the step does not close open
 * without the damper's pull at a distance (Kelvin-Voigt with tau_d > 0
 * pushes when v_n < -phi0 / tau_d, which would stop the body above the
 * surface and lose the impact).  When the smooth forces close the gap within
 * the step (rmode 2), at the fraction s of the step of
 *   phi0 + vn0 s dt + dv s^2 dt / 2 = 0,   dv = vn* - vn0
 * (constant smooth acceleration; s = 0 when already touching), the body
 * arrives at u = -(vn0 + s dv) and leaves at e u, and the smooth forces act
 * over the rest of the step:
 *   v_r = e u + (1 - s) dv.
 * The row's compliance R_n = beta^2 w / (4 pi^2) would leave it, alone, at
 * (R_n vn* + W_nn v^) / (R_n + W_nn), short of v_r by R_n / (R_n + W_nn) of
 * the velocity change (2.5 % at beta = 1, 2.5e-4 at 0.1); the target is
 * raised by R_n (v_r - vn*) / W_nn with the contact's exact W_nn =
 * J_n A^-1 J_n^T, so a single impact meets v_r to round-off at beta = 0.1.
 * A stiffer row instead (beta = 0.01, a miss of 4e-6) costs the Newton
 * iteration its conditioning: a gripper closing on its box with e = 0.5
 * took 113 iterations in a step under the similar model.  The positions
 * must see the impact at s too: with the kick's factor c = 1 - s / (1 -
 * theta_vq) on this contact's impulse (sc_step_kick) the gap at the step's
 * end is e u (1 - s) dt + dv (1 - s)^2 dt / 2 (exact for one contact at
 * theta_vq = 1/2), the free flight's from the impact on; without it a body
 * hit at s leaves (1 + e) s u dt too far.  The impulse's work is likewise
 * taken at s, gamma_n (-u + e u) / 2 = gamma_n ((vn0 + vn1) / 2 + (s - 1/2)
 * dv) (sc_step_contacts_end), so the energy balance closes over an impact
 * too.  Restitution reads only the step
 * start and v*, so it is set once per step and the re-solves keep it. */
#define RESTITUTION_BETA 0.1 /* the near-rigid threshold of an impact's rigid row */
static void restitution_mode(const sc_model* m, const sc_data* d, step_work* w, int i,
                             double* x, double* tmp) {
  const sc_options* o = &m->opt;
  const double dt = o->dt;
  w->rmode[i] = 0;
  w->vrest[i] = w->vlaw[i] = -INFINITY;
  w->kick_c[i] = 1.0;
  w->vwork[i] = 0.0;
  const sc_contact* c = &d->contact[i];
  const double e = fmax(m->geom_restitution[c->geom[0]], m->geom_restitution[c->geom[1]]);
  if (!(e > 0.0) || left_out(d, i) || normal_immobile(d, i)) return;
  const double vn0 = d->vn0[i];
  if (!(-vn0 > sc_model_restitution_velocity(o))) return;
  const double wdt = sqrt(d->ck[i] * d->wdiag[i]) * dt;
  if (!sc_sap_near_rigid(d->ck[i], d->ctaud[i], d->wdiag[i], dt, o->beta) &&
      wdt <= SC_RESOLVED_WDT)
    return; /* a resolved spring: its own law makes the bounce (doc/contact.md 4.7) */
  w->rmode[i] = 1;
  double vns = 0.0;
  for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++)
    vns += d->Jc[3 * (size_t)q + 2] * d->vstar[d->jcol[q]];
  const double dv = vns - vn0, phi0 = d->phi0[i];
  double s = 0.0;
  if (phi0 > 0.0) {
    /* the smaller root, written without cancellation; b > 0 */
    const double b = -vn0 * dt, disc = b * b - 2.0 * dv * dt * phi0;
    if (!(disc >= 0.0)) return;
    s = 2.0 * phi0 / (b + sqrt(disc));
    if (!(s <= 1.0)) return;
  }
  const double u = -(vn0 + s * dv);
  if (!(u > 0.0)) return;
  w->rmode[i] = 2;
  const double vr = e * u + (1.0 - s) * dv;
  w->vrest[i] = vr;
  if (o->theta_vq < 1.0) w->kick_c[i] = 1.0 - s / (1.0 - o->theta_vq);
  w->vwork[i] = (s - 0.5) * dv;
  /* W_nn = J_n A^-1 J_n^T of this contact, exactly (only impacts pay the
   * solve), and the target that the floor's compliance brings to v_r */
  const sc_la_blocks cb = sc_model_cliques(m);
  for (int k = 0; k < m->nv; k++) x[k] = 0.0;
  for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) x[d->jcol[q]] += d->Jc[3 * (size_t)q + 2];
  sc_la_blk_solve(&cb, d->Afac, x, tmp);
  double wnn = 0.0;
  for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) wnn += d->Jc[3 * (size_t)q + 2] * x[d->jcol[q]];
  w->vlaw[i] = wnn > 0.0 ? (vr - vns) / wnn : 0.0;
}

/* the law of a contact in restitution mode (above); returns its theta, 1 */
static double restitution_law(const sc_model* m, const sc_data* d, const step_work* w, int i,
                              double n0, double* R, double* vhat, double* hc) {
  const sc_options* o = &m->opt;
  const double dt = o->dt;
  sc_sap_regularize_one(INFINITY, 0.0, d->wdiag[i], d->phi0[i], d->vn0[i], dt, 1.0, o->sigma,
                        RESTITUTION_BETA, R, vhat);
  const double k_a = -o->stiction_anchor / dt;
  vhat[0] = k_a * w->anchor[2 * i];
  vhat[1] = k_a * w->anchor[2 * i + 1];
  /* alone, the row settles at (R_n v*_n + W_nn v^_n) / (R_n + W_nn): the
   * target R_n (v_r - v*_n) / W_nn beyond v_r brings it to v_r */
  const double vr = w->rmode[i] == 2 ? w->vrest[i] + R[2] * w->vlaw[i] : -(double)INFINITY;
  const int target = vr > vhat[2];
  if (target) vhat[2] = vr;
  if (!hc) return 1.0;
  sc_sap_hc_params_one(INFINITY, 0.0, d->wdiag[i], d->phi0[i], d->vn0[i], d->mu[i], n0, dt, 1.0,
                       o->sigma, RESTITUTION_BETA, w->vs, hc);
  /* without dissipation n(v) = dt (fe0 - dt k v)+ is zero beyond v^ =
   * fe0 / (dt k) = -phi0 / dt; the target moves that zero to v_r: fe0 +=
   * dt k (v_r - v^), a shift of the argument */
  if (target) hc[SC_HC_FE0] = dt * hc[SC_HC_K] * vr;
  hc[SC_HC_VT0] = vhat[0];
  hc[SC_HC_VT1] = vhat[1];
  return 1.0;
}

/* contact i's law with near-rigid threshold b and friction bound n0 (< 0:
 * from the state): R and vhat (3 each; sap and the LCP, and the solver's
 * checks for every model) and, when hc != NULL, the Hunt-Crossley
 * parameters (SC_HC_NPAR); returns the theta of the law the model uses */
static double contact_law(const sc_model* m, const sc_data* d, const step_work* w, int i,
                          double b, double n0, double* R, double* vhat, double* hc) {
  const sc_options* o = &m->opt;
  const double dt = o->dt;
  if (left_out(d, i)) return immobile_law(R, vhat, hc);
  if (w->rmode[i]) return restitution_law(m, d, w, i, n0, R, vhat, hc);
  if (normal_immobile(d, i)) b = 0.0; /* no near-rigid floor (above) */
  /* omega dt of the contact spring (INFINITY when rigid); the near-rigid
   * cap would only lower it to 2 pi / beta, still unresolved (> 1) */
  const double wdt = sqrt(d->ck[i] * d->wdiag[i]) * dt;
  const double th = sc_law_theta(o, sc_sap_near_rigid(d->ck[i], d->ctaud[i], d->wdiag[i], dt, o->beta)
                                     ? (double)INFINITY : wdt);
  sc_sap_regularize_one(d->ck[i], d->ctaud[i], d->wdiag[i], d->phi0[i], d->vn0[i], dt, th,
                        o->sigma, b, R, vhat);
  /* the stiction anchor's target (above); a is 0 unless the contact sticks */
  const double k_a = -o->stiction_anchor / dt;
  vhat[0] = k_a * w->anchor[2 * i];
  vhat[1] = k_a * w->anchor[2 * i + 1];
  if (!hc) return th;
  const double hth = sc_law_theta(o, wdt);
  sc_sap_hc_params_one(d->ck[i], w->hcd[i], d->wdiag[i], d->phi0[i], d->vn0[i], d->mu[i], n0, dt,
                       hth, o->sigma, b, w->vs, hc);
  hc[SC_HC_VT0] = vhat[0];
  hc[SC_HC_VT1] = vhat[1];
  return hth;
}

/* the depth contact i settles to under normal impulse n (N s) at threshold b */
static double contact_depth(const sc_model* m, const sc_data* d, const step_work* w, int i,
                            int use_hc, double n, double b) {
  double R[3], vh[3], hc[SC_HC_NPAR];
  const double th = contact_law(m, d, w, i, b, 0.0, R, vh, use_hc ? hc : NULL);
  if (use_hc) return hc[SC_HC_K] > 0 ? n * th * th / (m->opt.dt * hc[SC_HC_K]) : (double)INFINITY;
  return n * th * (th * m->opt.dt + d->ctaud[i]) * R[2];
}

/* the near-rigid threshold that keeps contact i within its depth bound
 * under normal impulse n */
static double beta_for_load(const sc_model* m, const sc_data* d, const step_work* w, int i,
                            int use_hc, double n) {
  const sc_options* o = &m->opt;
  /* a rigid contact has a threshold even at near_rigid_beta 0 (sap_cone.c) */
  const double b0 = (o->beta == 0.0 && isinf(d->ck[i])) ? 1.0 : o->beta;
  if (!(o->near_rigid_depth > 0) || !(n > 0) || b0 == 0.0) return b0;
  const double x0 = contact_depth(m, d, w, i, use_hc, n, b0);
  if (!(x0 > w->xmax[i])) return b0;
  /* x is proportional to beta^2 while the cap holds; where the compliant
   * law takes over below it, a lower beta changes nothing */
  const double b = b0 * sqrt(w->xmax[i] / x0), lo = fmin(o->beta_min, b0);
  return b > lo ? b : lo;
}

/* Every contact's law at the step start (R, vhat or w->hc), from the
 * previous step's matching contacts (sc_contact_match_all) */
static void contact_params(const sc_model* m, sc_data* d, step_work* w, int nc, int use_hc) {
  const sc_options* o = &m->opt;
  for (int i = 0; i < nc; i++)
    restitution_mode(m, d, w, i, scr(m, d, SCR_GUESS), scr(m, d, SCR_TMP));
  for (int i = 0; i < nc; i++) {
    const sc_contact* c = &d->contact[i];
    const double np = w->gprev[3 * i + 2];
    w->nload[i] = np > 0.0 ? np : 0.0;
    const double ra = m->geom_rbound[c->geom[0]], rb = m->geom_rbound[c->geom[1]];
    w->xmax[i] = o->near_rigid_depth * (ra < rb ? ra : rb);
    w->beta_c[i] = beta_for_load(m, d, w, i, use_hc, w->nload[i]);
    /* the lagged bound: the normal impulse the contact carried last step
     * (from the state for a new one, and refine_contacts then moves it) */
    w->n0[i] = w->match[i] >= 0 && o->contact_passes > 0 ? w->nload[i] : -1.0;
    w->theta_c[i] = contact_law(m, d, w, i, w->beta_c[i], w->n0[i], d->R + 3 * i,
                                d->vhat + 3 * i, use_hc ? w->hc + SC_HC_NPAR * i : NULL);
  }
}

/* The positions advance with v^theta_vq, but a contact whose law is
 * written at theta = 1 sets the end-of-step normal velocity: under the
 * midpoint rule a body landing at speed u on such a contact moves u dt / 2
 * into it during the impact step, and is pushed out over the next steps
 * (2.6 mm for a sphere dropped 0.4 m at dt = 1 ms, against 19 um under
 * implicit Euler).  The normal impulse of such an impact, dgamma_i =
 * gamma_n,i (with the part of order dt that carries the weight), is
 * applied to the positions in full, as at the step start:
 *   v_q = theta_vq v1 + (1 - theta_vq) (v0 + A^-1 J^T dgamma),
 * so that the gap moves by about dt vn1 in the impact step, as the law
 * assumed.  Only impacts take it: contacts whose midpoint penetration
 * -vn0 dt / 2 would exceed their near-rigid depth bound and that approach
 * faster than the smooth forces alone accelerate them in a step (a kick
 * moves the positions alone, and applied to the small normal velocities of
 * a resting box it walks the box down an incline).  A resting or sliding
 * contact gets nothing: the scheme and its order are unchanged there.
 * A restitution impact (restitution_mode) is always kicked, its impulse
 * scaled by kick_c so that the body leaves from where the impact at its
 * time s put it.
 * Returns 0 when no contact had an impact. */
int sc_step_kick(const sc_model* m, sc_data* d, double* kick, double* tmp) {
  const sc_la_blocks cb = sc_model_cliques(m);
  const step_work* w = d->solver_work;
  const int nc = d->ncon;
  const int nv = m->nv;
  const double dt = m->opt.dt;
  int* in = w->kicked; /* contacts and rows whose impulse the kick applies */
  int any = 0;
  for (int i = 0; i < nc; i++) {
    in[i] = 0;
    /* a restitution impact always: its factor kick_c places it at its time
     * of impact (restitution_mode) */
    if (w->rmode[i] == 2 && d->impulse[3 * i + 2] > 0) {
      in[i] = any = 1;
      continue;
    }
    /* an impact: the midpoint's penetration u dt / 2 would exceed the depth
     * a near-rigid contact may have (resting contacts approach at far less) */
    if (w->theta_c[i] != 1.0 || !(-d->vn0[i] * dt > 2.0 * w->xmax[i])) continue;
    /* ... and faster than the smooth forces alone accelerate it in a step
     * (vn* - vn0): a resting contact, which approaches at that rate, would
     * otherwise settle on a hovering fixed point (gap g dt^2 / 2, v = -g dt / 2) */
    double vns = 0.0;
    for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++)
      vns += d->Jc[3 * (size_t)q + 2] * d->vstar[d->jcol[q]];
    if (!(-d->vn0[i] > fabs(vns - d->vn0[i]))) continue;
    if (!(d->impulse[3 * i + 2] > 0)) continue;
    in[i] = any = 1;
  }
  /* a limit written at theta = 1 (constraint/joint.c) hit faster than the smooth
   * forces move the joint in a step (there is no size to bound its depth
   * by): its impulse moves the positions in full, as an impact does */
  for (int r = 0; r < d->nrow; r++) {
    const int i = nc + r;
    in[i] = 0;
    if (w->theta_c[i] != 1.0 || d->row_type[r] == SC_JROW_SERVO ||
        d->row_type[r] == SC_JROW_EQUALITY)
      continue;
    double vns = 0.0; /* (one column for a joint's limit, several for a tendon's) */
    for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++)
      vns += d->Jc[3 * (size_t)q + 2] * d->vstar[d->jcol[q]];
    if (!(-d->vn0[i] > fabs(vns - d->vn0[i]))) continue;
    if (d->impulse[3 * i + 2] == 0.0) continue;
    in[i] = any = 1;
  }
  if (!any) return 0;
  /* The impact's impulse reached the bodies behind the impacting one
   * through their own contacts (a ball landing on a column of balls, a box
   * on a stack): the solve's impulses of those contacts carry it.  Kicked
   * alone, the impact's impulse would push those bodies into their supports
   * by up to u dt / 2 each step with nothing pushing back, and a stack hit
   * over and over (by its own bouncing top) would sink through its floor.
   * So a theta = 1 contact that the kick presses into by more than a tenth
   * of its depth bound has its own normal impulse applied too, until no
   * more are pressed (each pass adds one; bounded by the contact count). */
  for (int pass = 0; pass <= nc; pass++) {
    for (int i = 0; i < nv; i++) kick[i] = 0;
    for (int i = 0; i < nc + d->nrow; i++) {
      if (!in[i]) continue;
      const double dg = d->impulse[3 * i + 2] * (i < nc ? w->kick_c[i] : 1.0);
      for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) kick[d->jcol[q]] += d->Jc[3 * (size_t)q + 2] * dg;
    }
    sc_la_blk_solve(&cb, d->Afac, kick, tmp);
    int added = 0;
    for (int i = 0; i < nc; i++) {
      if (in[i] || w->theta_c[i] != 1.0 || !(d->impulse[3 * i + 2] > 0)) continue;
      double vk = 0.0;
      for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) vk += d->Jc[3 * (size_t)q + 2] * kick[d->jcol[q]];
      if (-(1.0 - m->opt.theta_vq) * vk * dt > 0.1 * w->xmax[i]) in[i] = added = 1;
    }
    if (!added) break;
  }
  return 1;
}

/* After a solve of nc contacts (global indices gidx[l], NULL: l) with
 * impulses gamma: a contact deeper than its bound under its own normal
 * impulse gets a lower beta, a lagged contact whose normal impulse left its
 * friction bound gets the bound n0 = n (see above); their laws are
 * rewritten into the problem's arrays R, vhat / hc (local numbering).
 * Returns 1 when a law changed (the problem must be solved again). */
static int refine_contacts(const sc_model* m, const sc_data* d, const step_work* w, int nc,
                           const int* gidx,
                           const double* gamma, double* R, double* vhat, double* hc) {
  const sc_options* o = &m->opt;
  const int lagged = hc && o->contact_model == SC_MODEL_LAGGED;
  int changed = 0;
  for (int l = 0; l < nc; l++) {
    const int i = gidx ? gidx[l] : l;
    if (i >= d->ncon) continue; /* a joint row: its law is fixed for the step */
    const double n = gamma[3 * l + 2];
    int redo = 0;
    if (o->near_rigid_depth > 0 && w->beta_c[i] > o->beta_min && !w->rmode[i] &&
        contact_depth(m, d, w, i, hc != NULL, n, w->beta_c[i]) > DEPTH_SLACK * w->xmax[i]) {
      const double b = beta_for_load(m, d, w, i, hc != NULL, n);
      if (b < w->beta_c[i]) w->beta_c[i] = b, redo = 1;
    }
    if (lagged && d->mu[i] > 0) {
      /* Coulomb's law with the step's own normal impulse n: a saturated
       * (sliding) contact must have its bound at mu n, a sticking one must
       * need no more than mu n; a sticking contact within mu n is right
       * whatever its bound (n0 only caps it) */
      const double n0 = hc[SC_HC_NPAR * l + SC_HC_N0], mu = d->mu[i];
      const double ft = hypot(gamma[3 * l], gamma[3 * l + 1]);
      const int saturated = ft >= (1.0 - TRESCA_TOL) * mu * n0;
      if (w->match[i] < 0 &&
          (saturated ? fabs(n - n0) > TRESCA_TOL * fmax(n, n0) : ft > (1.0 + TRESCA_TOL) * mu * n))
        w->n0[i] = n, redo = 1;
    }
    if (redo) {
      contact_law(m, d, w, i, w->beta_c[i], w->n0[i], R + 3 * l, vhat + 3 * l,
                  hc ? hc + SC_HC_NPAR * l : NULL);
      changed = 1;
    }
  }
  return changed;
}

/* refine_contacts as the islands call it */
typedef struct refine_ctx {
  const sc_model* m;
  const sc_data* d;
  const step_work* w;
} refine_ctx;
static int refine_island(void* ctx, int nc, const int* gidx, const double* gamma, double* R,
                         double* vhat, double* hc) {
  const refine_ctx* c = ctx;
  return refine_contacts(c->m, c->d, c->w, nc, gidx, gamma, R, vhat, hc);
}

/* the islands' solve of the step's problem p (see island/island.h) */
static sc_solve_status solve_islands(const sc_model* m, sc_data* d, step_work* w,
                                     const sc_problem* p, const double* guess,
                                     const double* v0) {
  const refine_ctx ctx = {m, d, w};
  const sc_island_call call = {p->model,
                               p->hc,
                               guess,
                               w->matched,
                               w->sap_prm,
                               m->opt.lcp_warm_start ? w->pat_guess : NULL,
                               w->pat_out,
                               m->opt.contact_passes,
                               refine_island,
                               (void*)&ctx,
                               v0};
  return sc_islands_solve(w->isl, m, d, &call);
}

/* One contact solve of the step's problem p (the SAP warm guess g0 or
 * NULL): the LCP of the whole step, the Newton solve of the whole step
 * (with a solver trace), or the islands.  The whole-problem solves get the
 * same refinement passes as an island (solve_island). */
static sc_solve_status contact_solve(const sc_model* m, sc_data* d, step_work* w,
                                     const sc_problem* p, const double* g0, const double* v0) {
  const sc_options* o = &m->opt;
  const int nc = p->nc;
  if (o->solver == SC_SOLVER_LCP && !w->lcp_whole) return solve_islands(m, d, w, p, NULL, v0);
  if (o->solver == SC_SOLVER_NEWTON && !d->solver_trace) return solve_islands(m, d, w, p, g0, v0);
  /* one problem: the trace follows one Newton solve (the last pass's) */
  sc_solver_stats one;
  sc_solve_status ss;
  for (int pass = 0;; pass++) {
    if (o->solver == SC_SOLVER_LCP) {
      if (pass)
        for (int i = 0; i < nc; i++) w->pat_guess[i] = w->pat_out[i];
      ss = sc_lcp_solve_from(p, o->lcp_directions, 0, w->lcp,
                             o->lcp_warm_start || pass ? w->pat_guess : NULL, w->pat_out, d->v,
                             d->impulse, &one);
    } else {
      /* the trace keeps every solve of the step, so that its rows add up to
       * the step's iterations */
      sc_sap_params prm = pass ? w->sap_relin : *w->sap_prm;
      prm.trace_append = pass > 0 || d->relinearizations > 0;
      /* (a pass takes at least one Newton step here, so that the trace's
       * last row of the step is its final residual) */
      if (pass) sc_sap_reuse_factor(w->sap);
      ss = sc_sap_solve_from(p, &prm, w->sap, d->v, pass ? NULL : g0, d->impulse, &one);
    }
    if (pass == 0) d->contact_stats = one;
    else sc_solver_stats_add(&d->contact_stats, &one);
    if (ss != SC_SOLVE_OK || pass >= o->contact_passes ||
        !refine_contacts(m, d, w, nc, NULL, d->impulse, d->R, d->vhat, p->hc ? w->hc : NULL))
      break;
  }
  d->nisland = 1;
  return ss;
}

/* The contact Jacobian at the step's mid configuration.  The scheme
 * applies the contact impulse through J(q0) (the published two-stage scheme)
 * while the other forces act at q^theta: a body pivoting on a corner (a
 * tall box tipping, a rod after its impact) has the lever arm of its
 * support frozen at the step start while it turns by omega dt per step, a
 * first-order error whatever theta (the tipping box's energy error falls
 * 2.4e-4, 2.5e-3, 2.9e-2 at dt = 0.1, 1, 10 ms under the midpoint rule
 * with J(q0); 1.7e-6, 2.9e-5, 3.2e-3 with J(q~): doc/step.md).  Here the
 * contacts detected at q0 (the set and their gaps phi0 stay) are moved to
 * the mid configuration predicted from
 * the step-start velocity,
 *   q~ = q0 + theta_q dt N(q~) v0,
 * by running each pair's narrow phase there (sc_col_reposition: a corner
 * follows its body, the point under a sphere follows the centre), and J and
 * vc0 = J v0 are evaluated at q~.  In persistent contact v1 - v0 = O(dt),
 * so J(q~) - J(q^theta(v1)) = O(dt^2), and the contact impulse, itself
 * O(dt) per step there, is applied with an O(dt^3) error: the step stays
 * second order, with no iteration and nothing but (q0, v0) (a run continued
 * from a recorded state repeats it).  Schemes with theta_q = 0 evaluate
 * everything at q0 anyway. */
static void midstep_contacts(const sc_model* m, sc_data* d, const double* v0, const double* rel) {
  const int nv = m->nv;
  const sc_options* o = &m->opt;
  double* qdot = d->scratch + 8 * (size_t)nv;
  sc_step_mid_positions(m, d->q, v0, o->theta_q, o->dt, d->qtheta, qdot);
  sc_dyn_kinematics(m, d, d->qtheta);
  sc_col_reposition(m, d, rel);
  sc_contact_jacobian(m, d);
  sc_contact_velocity(m, d, v0, d->vc0);
}


sc_status sc_step_contacts(const sc_model* m, sc_data* d, const double* v0, sc_solve_status* ss,
                           sc_error* err) {
  const int nv = m->nv, ncon = d->ncon;
  const sc_options* o = &m->opt;
  step_work* w = d->solver_work;
  *ss = SC_SOLVE_OK;
  memset(&d->contact_stats, 0, sizeof d->contact_stats);
  if (d->solver_trace) d->solver_trace->n = 0;
  d->nisland = 0;
  d->relinearizations = 0;
  /* the contacts' past and their place at the mid configuration, then the
   * joint rows after them (constraint/rows.c) */
  if (ncon > 0) {
    sc_contact_match_all(&w->mem, d, w->crel, w->match, w->gprev, w->anchor);
    /* the LCP's friction has no regularization to anchor (its tangent
     * rows ignore v^_t); nor has a contact left out (mu = 0 below) */
    if (o->solver != SC_SOLVER_NEWTON || !(o->stiction_anchor > 0))
      for (int i = 0; i < 2 * ncon; i++) w->anchor[i] = 0.0;
    if (o->midstep_jacobian && o->theta_q > 0) midstep_contacts(m, d, v0, w->crel);
  }
  sc_rows_place(m, d, v0);
  if (m->nrow_wide > 0) {
    /* the equality and tendon rows' Jacobians where the contacts' are taken
     * (at the mid configuration, where midstep_contacts may have put the
     * kinematics already) */
    if (o->midstep_jacobian && o->theta_q > 0) {
      sc_step_mid_positions(m, d->q, v0, o->theta_q, o->dt, d->qtheta, d->scratch + 8 * (size_t)nv);
      if (!sc_dyn_kinematics_current(m, d, d->qtheta)) sc_dyn_kinematics(m, d, d->qtheta);
    } else if (!sc_dyn_kinematics_current(m, d, d->q)) {
      sc_dyn_kinematics(m, d, d->q);
    }
    sc_rows_place_wide(m, d, v0);
  }
  const int nc = ncon + d->nrow;
  if (nc == 0) {
    memcpy(d->v, d->vstar, sizeof(double) * (size_t)nv);
    if (w) w->mem.n = 0;
    return SC_OK;
  }
  for (int i = ncon; i < nc; i++) {
    w->match[i] = -1;
    w->matched[i] = 0;
    for (int r = 0; r < 3; r++) w->gprev[3 * i + r] = 0.0;
  }
  sc_problem* p = &w->prob;
  const sc_problem p0 = {nv, nc, w->ntree, w->tree_ptr, m->clique_dofs, d->A, d->vstar,
                         d->jptr, d->jcol, d->Jc, d->R, d->vhat, d->mu, d->phi0, o->dt,
                         SC_MODEL_SAP, NULL, d->nrow > 0 ? d->ckind : NULL, d->cbound};
  *p = p0;
  if (sc_sap_delassus_problem(p, w->sap, d->wdiag) != SC_OK)
    return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                        "t = %.9g s: A is not positive definite in the contact stage", d->time);
  for (int i = 0; i < ncon; i++) d->vn0[i] = d->vc0[3 * i + 2];
  /* Hunt-Crossley models (sap_model.c) for the newton solver; the
   * stiction tolerance is SAP's creep estimate sigma dt g, so that both
   * models creep alike */
  const int use_hc = o->contact_model != SC_MODEL_SAP && o->solver == SC_SOLVER_NEWTON;
  if (use_hc) {
    for (int i = 0; i < ncon; i++) {
      const int a = d->contact[i].geom[0], b = d->contact[i].geom[1];
      w->hcd[i] = sc_col_combine_dissipation(m->geom_stiffness[a], m->geom_hc_dissipation[a],
                                             m->geom_stiffness[b], m->geom_hc_dissipation[b]);
    }
    p->model = o->contact_model;
    p->hc = w->hc;
  }
  /* a contact left out (immobile) has no friction: with mu = 0 its law's
   * impulse at vc = 0 is exactly 0 in every model and in the LCP */
  for (int i = 0; i < ncon; i++)
    if (left_out(d, i)) d->mu[i] = 0.0;
  contact_params(m, d, w, ncon, use_hc);
  sc_rows_laws(m, d, v0, use_hc ? w->hc : NULL, w->theta_c);
  if (o->solver == SC_SOLVER_LCP && w->lcp_whole && nc > w->lcp_capacity) {
    d->contact_stats.status = SC_SOLVE_CAPACITY;
    return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                        "t = %.9g s: the dense LCP for %d contacts (%d cone edges) would "
                        "need %.0f MiB, more than its limit of %.4g MiB (room for %d "
                        "contacts); use --solver newton, fewer contact.lcp.directions, or a "
                        "larger contact.lcp.max_memory",
                        d->time, nc, o->lcp_directions,
                        (double)sc_lcp_work_bytes(nv, nc, o->lcp_directions) / 1048576.0,
                        o->lcp_max_memory, w->lcp_capacity);
  }
  for (int i = 0; i < nc; i++) w->pat_out[i] = 0u;
  if (o->solver == SC_SOLVER_LCP && o->lcp_warm_start) lcp_guess(w, nc);
  /* d->v still holds v0; the previous impulses give the second guess
   * (d->vc is free until after the solve) */
  double* guess = scr(m, d, SCR_GUESS);
  const double* g0 = NULL;
  if (o->solver == SC_SOLVER_NEWTON && warm_guess(m, d, w, ncon, d->vc, guess, scr(m, d, SCR_TMP)))
    g0 = guess;
  *ss = contact_solve(m, d, w, p, g0, v0);
  if (*ss == SC_SOLVE_CAPACITY) return sc_islands_capacity_error(w->isl, m, d, err);
  return SC_OK;
}

sc_solve_status sc_step_contacts_again(const sc_model* m, sc_data* d, const double* v0) {
  step_work* w = d->solver_work;
  double* guess = scr(m, d, SCR_GUESS);
  memcpy(guess, d->v, sizeof(double) * (size_t)m->nv);
  sc_solver_stats first = d->contact_stats;
  /* the correction A1^-1 e may lie within the contact tolerance of v1:
   * at least one Newton step takes it */
  w->sap_prm = &w->sap_relin;
  const sc_solve_status ss = contact_solve(m, d, w, &w->prob, guess, v0);
  w->sap_prm = &w->sap_params;
  sc_solver_stats_add(&first, &d->contact_stats);
  d->contact_stats = first;
  return ss;
}

/* Each contact's anchor after the solve (see the top of the file): the
 * slip of the step added while it sticks, 0 otherwise */
static void update_anchors(const sc_model* m, const sc_data* d, step_work* w) {
  const sc_options* o = &m->opt;
  const double dt = o->dt, th = o->theta_vq > 0 ? o->theta_vq : 1.0;
  const int on = o->solver == SC_SOLVER_NEWTON && o->stiction_anchor > 0;
  const int lagged = o->contact_model == SC_MODEL_LAGGED;
  for (int i = 0; i < d->ncon; i++) {
    double* a = w->anchor + 2 * i;
    const double* g = d->impulse + 3 * i;
    const double* v = d->vc + 3 * i;
    const double* v0 = d->vc0 + 3 * i;
    /* the lagged bound in force at the end (refine_contacts may have set
     * it from the step's own impulse) */
    const double nf = !on ? 0.0
                      : lagged ? (w->n0[i] >= 0.0 ? w->n0[i] : w->hc[SC_HC_NPAR * i + SC_HC_N0])
                               : g[2];
    const double mu = d->mu[i];
    if (mu > 0.0 && nf > 0.0 && hypot(g[0], g[1]) < RHO_STICK * mu * nf) {
      a[0] += dt * (th * v[0] + (1.0 - th) * v0[0]);
      a[1] += dt * (th * v[1] + (1.0 - th) * v0[1]);
      if (isfinite(a[0]) && isfinite(a[1])) continue;
    }
    a[0] = a[1] = 0.0;
  }
}

sc_status sc_step_contacts_end(const sc_model* m, sc_data* d, sc_solve_status ss, sc_error* err) {
  const sc_options* o = &m->opt;
  const int ncon = d->ncon, nc = ncon + d->nrow;
  step_work* w = d->solver_work;
  if (nc == 0) return SC_OK;
  if (ss == SC_SOLVE_CAPACITY) return sc_islands_capacity_error(w->isl, m, d, err);
  if (ss == SC_SOLVE_CANCELLED)
    return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                        "t = %.9g s: interrupted during the contact solve", d->time);
  /* slip after the step (the work below and the anchors need it) */
  sc_contact_velocity(m, d, d->v, d->vc);
  update_anchors(m, d, w);
  sc_contact_remember(&w->mem, d, w->crel, w->anchor, w->pat_out);
  if (ss != SC_SOLVE_OK) {
    d->warning[SC_WARN_CONTACT]++;
    if (o->on_failure == SC_ON_FAILURE_ABORT || ss == SC_SOLVE_NAN)
      return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                          "t = %.9g s: %s contact solver failed (status %d: %s) after %d "
                          "iterations, residual %.3g, %d contacts",
                          d->time, o->solver == SC_SOLVER_LCP ? "lcp" : "newton", (int)ss,
                          sc_solve_status_name(ss), d->contact_stats.iterations,
                          d->contact_stats.residual, nc);
  }
  /* the work of the impulses over the step, W = gamma . (vc0 + vc) / 2
   * (see integrator.c), normal and friction parts apart */
  double wn = 0, wt = 0;
  for (int i = 0; i < ncon; i++) {
    const double* g = d->impulse + 3 * i;
    d->slip[i] = hypot(d->vc[3 * i], d->vc[3 * i + 1]);
    wt += g[0] * 0.5 * (d->vc0[3 * i] + d->vc[3 * i]) +
          g[1] * 0.5 * (d->vc0[3 * i + 1] + d->vc[3 * i + 1]);
    wn += g[2] * 0.5 * (d->vc0[3 * i + 2] + d->vc[3 * i + 2]);
    if (w->rmode[i] == 2) wn += g[2] * w->vwork[i];
  }
  d->e_normal -= wn;
  d->e_friction -= wt;
  d->e_contact = d->e_normal + d->e_friction;
  return SC_OK;
}
