/* contact_law: each contact's law in the contact problem -- its R and
 * vhat (sap, and the LCP's normal rows) or its Hunt-Crossley parameters
 * (similar, lagged) -- from its stiffness, dissipation, the Delassus
 * estimate and what the contact carried at the previous step; the
 * restitution impacts, the stiction anchors, the refinement of new
 * contacts' laws between solves, and the impulses' work over the step.
 * The parameters of the laws are constraint/law.c's; the solvers evaluate
 * them (solver_sap/sap_cone.c, sap_model.c) and know no law.
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
#include "constraint/contact_law.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "collision/collision.h"
#include "constraint/equality.h"
#include "constraint/law.h"
#include "constraint/rows.h"
#include "core/core.h"
#include "linalg/blockdiag.h"

/* the doubles per contact of the block nload points at (init below) */
#define NDOUBLE 17

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
 * whose spring or damper the step does not resolve (omega dt or the
 * damper's rate times dt > SC_RESOLVED_WDT = 1, contact_wdt; near-rigid and
 * rigid ones always) at theta = 1:
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
int sc_contact_left_out(const sc_data* d, int i) {
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
/* How far the step is from resolving contact i's spring and damper
 * (sc_law_wdt, > SC_RESOLVED_WDT: not resolved): with hc, Hunt-Crossley's
 * damper k d x, which grows with the depth x, taken at the deeper of the
 * step's start and its end at the start's speed; otherwise the
 * Kelvin-Voigt damper k tau_d of sap's law */
static double contact_wdt(const sc_data* d, const sc_contact_laws* L, int i, int hc, double dt) {
  const double k = d->ck[i], w = d->wdiag[i];
  if (!hc) return sc_law_wdt(k, d->ctaud[i], w, dt);
  const double x = fmax(0.0, -fmin(d->phi0[i], d->phi0[i] + dt * d->vn0[i]));
  return sc_law_wdt(k, L->hcd[i] * x, w, dt);
}

static void restitution_mode(const sc_model* m, const sc_data* d, sc_contact_laws* L, int i,
                             int use_hc, double* x, double* tmp) {
  const sc_options* o = &m->opt;
  const double dt = d->h;
  L->rmode[i] = 0;
  L->vrest[i] = L->vlaw[i] = -INFINITY;
  L->kick_c[i] = 1.0;
  L->vwork[i] = 0.0;
  const sc_contact* c = &d->contact[i];
  const double e = fmax(m->geom_restitution[c->geom[0]], m->geom_restitution[c->geom[1]]);
  if (!(e > 0.0) || sc_contact_left_out(d, i) || normal_immobile(d, i)) return;
  const double vn0 = d->vn0[i];
  if (!(-vn0 > sc_model_restitution_velocity(o))) return;
  if (!sc_law_near_rigid(d->ck[i], d->ctaud[i], d->wdiag[i], dt, o->beta) &&
      contact_wdt(d, L, i, use_hc, dt) <= SC_RESOLVED_WDT)
    return; /* a resolved spring: its own law makes the bounce (doc/contact.md 4.7) */
  L->rmode[i] = 1;
  const double vns = sc_eq_row_velocity(d, i, d->vstar);
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
  L->rmode[i] = 2;
  const double vr = e * u + (1.0 - s) * dv;
  L->vrest[i] = vr;
  if (o->theta_vq < 1.0) L->kick_c[i] = 1.0 - s / (1.0 - o->theta_vq);
  L->vwork[i] = (s - 0.5) * dv;
  /* W_nn = J_n A^-1 J_n^T of this contact, exactly (only impacts pay the
   * solve), and the target that the floor's compliance brings to v_r */
  const sc_la_blocks cb = sc_model_cliques(m);
  for (int k = 0; k < m->nv; k++) x[k] = 0.0;
  for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) x[d->jcol[q]] += d->Jc[3 * (size_t)q + 2];
  sc_la_blk_solve(&cb, d->Afac, x, tmp);
  double wnn = 0.0;
  for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) wnn += d->Jc[3 * (size_t)q + 2] * x[d->jcol[q]];
  L->vlaw[i] = wnn > 0.0 ? (vr - vns) / wnn : 0.0;
}

/* the law of a contact in restitution mode (above); returns its theta, 1 */
static double restitution_law(const sc_model* m, const sc_data* d, const sc_contact_laws* L, int i,
                              double n0, double* R, double* vhat, double* hc) {
  const sc_options* o = &m->opt;
  const double dt = d->h;
  sc_law_sap_one(INFINITY, 0.0, d->wdiag[i], d->phi0[i], d->vn0[i], dt, 1.0, o->sigma,
                        RESTITUTION_BETA, R, vhat);
  const double k_a = -o->stiction_anchor / dt;
  vhat[0] = k_a * L->anchor[2 * i];
  vhat[1] = k_a * L->anchor[2 * i + 1];
  /* alone, the row settles at (R_n v*_n + W_nn v^_n) / (R_n + W_nn): the
   * target R_n (v_r - v*_n) / W_nn beyond v_r brings it to v_r */
  const double vr = L->rmode[i] == 2 ? L->vrest[i] + R[2] * L->vlaw[i] : -(double)INFINITY;
  const int target = vr > vhat[2];
  if (target) vhat[2] = vr;
  if (!hc) return 1.0;
  sc_law_hc_one(INFINITY, 0.0, d->wdiag[i], d->phi0[i], d->vn0[i], d->mu[i], n0, dt, 1.0,
                       o->sigma, RESTITUTION_BETA, o->sigma * d->h * L->gn, hc);
  /* without dissipation n(v) = dt (fe0 - dt k v)+ is zero beyond v^ =
   * fe0 / (dt k) = -phi0 / dt; the target moves that zero to v_r: fe0 +=
   * dt k (v_r - v^), a shift of the argument */
  if (target) hc[SC_HC_FE0] = dt * hc[SC_HC_K] * vr;
  hc[SC_HC_VT0] = vhat[0];
  hc[SC_HC_VT1] = vhat[1];
  return 1.0;
}

/* The step T a contact's law is written for (doc/contact.md 5): a
 * near-rigid contact's law is the one a fixed step of
 * contact.regularization_step T gives it, its impulse over a step h the
 * fraction h / T of that step's, so that its regularization (the spring of
 * period beta T, friction's sigma w) is one law whatever h is.  Under
 * error control T defaults to time.step: written for each substep, a
 * resting contact's depth would scale as h^2 and its stabilization as
 * phi / h, one step of h and two of h/2 would integrate two laws and
 * differ by O(h) at any h, and every change of h would move the bodies (a
 * settled pile's substeps fell to 1e-5 s and the pile came apart).  A
 * contact resolved at T keeps its own law, and so does a restitution
 * impact (restitution_law); a step longer than T writes the law for
 * itself. */
static double law_step(const sc_model* m, const sc_data* d, int i) {
  const double H = m->opt.reg_step;
  if (!(H > d->h)) return d->h;
  return sc_law_near_rigid(d->ck[i], d->ctaud[i], d->wdiag[i], H, m->opt.beta) ? H : d->h;
}

int sc_contact_near_rigid(const sc_model* m, const sc_data* d, int i) {
  return sc_law_near_rigid(d->ck[i], d->ctaud[i], d->wdiag[i], law_step(m, d, i), m->opt.beta);
}

/* contact i's law with near-rigid threshold b and friction bound n0 (< 0:
 * from the state): R and vhat (3 each; sap and the LCP, and the solver's
 * checks for every model) and, when hc != NULL, the Hunt-Crossley
 * parameters (SC_HC_NPAR); returns the theta of the law the model uses.
 * At a law step dt = H above the substep h, the impulses are h / H of the
 * law's at H: R / (h / H) (the same cone, so SAP's projection scales too),
 * hc's k_th times H / h (n(v) = h (fe0 - h k_th v)+ (1 - d v)+), its bound
 * n0 an impulse over h, its regularization eps a velocity, as at H. */
static double contact_law(const sc_model* m, const sc_data* d, const sc_contact_laws* L, int i,
                          double b, double n0, double* R, double* vhat, double* hc) {
  const sc_options* o = &m->opt;
  const double dt = law_step(m, d, i), f = d->h / dt;
  if (sc_contact_left_out(d, i)) return immobile_law(R, vhat, hc);
  if (L->rmode[i]) return restitution_law(m, d, L, i, n0, R, vhat, hc);
  if (normal_immobile(d, i)) b = 0.0; /* no near-rigid floor (above) */
  /* (the near-rigid cap would only lower omega dt to 2 pi / beta, still
   * unresolved) */
  const double th = sc_law_theta(o, sc_law_near_rigid(d->ck[i], d->ctaud[i], d->wdiag[i], dt, o->beta)
                                     ? (double)INFINITY
                                     : contact_wdt(d, L, i, 0, dt));
  sc_law_sap_one(d->ck[i], d->ctaud[i], d->wdiag[i], d->phi0[i], d->vn0[i], dt, th,
                        o->sigma, b, R, vhat);
  /* the stiction anchor's target (above); a is 0 unless the contact sticks */
  const double k_a = -o->stiction_anchor / dt;
  vhat[0] = k_a * L->anchor[2 * i];
  vhat[1] = k_a * L->anchor[2 * i + 1];
  if (f != 1.0)
    for (int r = 0; r < 3; r++) R[r] /= f;
  if (!hc) return th;
  const double hth = sc_law_theta(o, contact_wdt(d, L, i, 1, dt));
  sc_law_hc_one(d->ck[i], L->hcd[i], d->wdiag[i], d->phi0[i], d->vn0[i], d->mu[i],
                       n0 >= 0.0 ? n0 / f : n0, dt, hth, o->sigma, b, o->sigma * dt * L->gn, hc);
  if (f != 1.0) {
    hc[SC_HC_K] /= f;
    hc[SC_HC_N0] *= f;
  }
  hc[SC_HC_VT0] = vhat[0];
  hc[SC_HC_VT1] = vhat[1];
  return hth;
}

/* the depth contact i settles to under normal impulse n (N s, over the
 * substep) at threshold b: the law's at its own step, under the load
 * n / f over it */
static double contact_depth(const sc_model* m, const sc_data* d, const sc_contact_laws* L, int i,
                            int use_hc, double n, double b) {
  double R[3], vh[3], hc[SC_HC_NPAR];
  const double dt = law_step(m, d, i), f = d->h / dt;
  const double th = contact_law(m, d, L, i, b, 0.0, R, vh, use_hc ? hc : NULL);
  if (use_hc) return hc[SC_HC_K] > 0 ? n * th * th / (d->h * hc[SC_HC_K] * f) : (double)INFINITY;
  return n * th * (th * dt + d->ctaud[i]) * R[2];
}

/* the near-rigid threshold that keeps contact i within its depth bound
 * under normal impulse n */
static double beta_for_load(const sc_model* m, const sc_data* d, const sc_contact_laws* L, int i,
                            int use_hc, double n) {
  const sc_options* o = &m->opt;
  /* a rigid contact has a threshold even at near_rigid_beta 0 (sap_cone.c) */
  const double b0 = (o->beta == 0.0 && isinf(d->ck[i])) ? 1.0 : o->beta;
  if (!(o->near_rigid_depth > 0) || !(n > 0) || b0 == 0.0) return b0;
  const double x0 = contact_depth(m, d, L, i, use_hc, n, b0);
  if (!(x0 > L->xmax[i])) return b0;
  /* x is proportional to beta^2 while the cap holds; where the compliant
   * law takes over below it, a lower beta changes nothing */
  const double b = b0 * sqrt(L->xmax[i] / x0), lo = fmin(o->beta_min, b0);
  return b > lo ? b : lo;
}

void sc_contact_laws_set(const sc_model* m, sc_data* d, sc_contact_laws* L, int use_hc,
                         double* x, double* tmp) {
  const sc_options* o = &m->opt;
  const int nc = d->ncon;
  if (use_hc)
    for (int i = 0; i < nc; i++) {
      const int a = d->contact[i].geom[0], b = d->contact[i].geom[1];
      L->hcd[i] = sc_col_combine_dissipation(m->geom_stiffness[a], m->geom_hc_dissipation[a],
                                             m->geom_stiffness[b], m->geom_hc_dissipation[b]);
    }
  /* a contact left out (immobile) has no friction: with mu = 0 its law's
   * impulse at vc = 0 is exactly 0 in every model and in the LCP */
  for (int i = 0; i < nc; i++)
    if (sc_contact_left_out(d, i)) d->mu[i] = 0.0;
  for (int i = 0; i < nc; i++) restitution_mode(m, d, L, i, use_hc, x, tmp);
  for (int i = 0; i < nc; i++) {
    const sc_contact* c = &d->contact[i];
    const double np = L->gprev[3 * i + 2];
    L->nload[i] = np > 0.0 ? np : 0.0;
    const double ra = m->geom_rbound[c->geom[0]], rb = m->geom_rbound[c->geom[1]];
    L->xmax[i] = o->near_rigid_depth * (ra < rb ? ra : rb);
    L->beta_c[i] = beta_for_load(m, d, L, i, use_hc, L->nload[i]);
    /* the lagged bound: the normal impulse the contact carried last step
     * (from the state for a new one, and refine_contacts then moves it) */
    L->n0[i] = L->match[i] >= 0 && o->contact_passes > 0 ? L->nload[i] : -1.0;
    L->theta_c[i] = contact_law(m, d, L, i, L->beta_c[i], L->n0[i], d->R + 3 * i,
                                d->vhat + 3 * i, use_hc ? L->hc + SC_HC_NPAR * i : NULL);
  }
}

int sc_contact_laws_refine(const sc_model* m, const sc_data* d, const sc_contact_laws* L, int nc,
                           const int* gidx, const double* gamma, double* R, double* vhat,
                           double* hc) {
  const sc_options* o = &m->opt;
  const int lagged = hc && o->contact_model == SC_MODEL_LAGGED;
  int changed = 0;
  for (int l = 0; l < nc; l++) {
    const int i = gidx ? gidx[l] : l;
    if (i >= d->ncon) continue; /* a joint row: its law is fixed for the step */
    const double n = gamma[3 * l + 2];
    int redo = 0;
    if (o->near_rigid_depth > 0 && L->beta_c[i] > o->beta_min && !L->rmode[i] &&
        contact_depth(m, d, L, i, hc != NULL, n, L->beta_c[i]) > DEPTH_SLACK * L->xmax[i]) {
      const double b = beta_for_load(m, d, L, i, hc != NULL, n);
      if (b < L->beta_c[i]) L->beta_c[i] = b, redo = 1;
    }
    if (lagged && d->mu[i] > 0) {
      /* Coulomb's law with the step's own normal impulse n: a saturated
       * (sliding) contact must have its bound at mu n, a sticking one must
       * need no more than mu n; a sticking contact within mu n is right
       * whatever its bound (n0 only caps it) */
      const double n0 = hc[SC_HC_NPAR * l + SC_HC_N0], mu = d->mu[i];
      const double ft = hypot(gamma[3 * l], gamma[3 * l + 1]);
      const int saturated = ft >= (1.0 - TRESCA_TOL) * mu * n0;
      if (L->match[i] < 0 &&
          (saturated ? fabs(n - n0) > TRESCA_TOL * fmax(n, n0) : ft > (1.0 + TRESCA_TOL) * mu * n))
        L->n0[i] = n, redo = 1;
    }
    if (redo) {
      /* a lower threshold changes nothing where the contact's own spring is
       * softer than the near-rigid cap (MuJoCo's solref translated, a soft
       * material): the island is solved again only for a law that moved */
      double Rn[3], vn[3], hn[SC_HC_NPAR];
      double* hl = hc ? hc + SC_HC_NPAR * l : NULL;
      contact_law(m, d, L, i, L->beta_c[i], L->n0[i], Rn, vn, hc ? hn : NULL);
      if (memcmp(Rn, R + 3 * l, sizeof Rn) || memcmp(vn, vhat + 3 * l, sizeof vn) ||
          (hl && memcmp(hn, hl, sizeof hn))) {
        memcpy(R + 3 * l, Rn, sizeof Rn);
        memcpy(vhat + 3 * l, vn, sizeof vn);
        if (hl) memcpy(hl, hn, sizeof hn);
        changed = 1;
      }
    }
  }
  return changed;
}

void sc_contact_laws_anchors(const sc_model* m, const sc_data* d, sc_contact_laws* L) {
  const sc_options* o = &m->opt;
  const double dt = d->h, th = o->theta_vq > 0 ? o->theta_vq : 1.0;
  const int on = o->solver == SC_SOLVER_NEWTON && o->stiction_anchor > 0;
  const int lagged = o->contact_model == SC_MODEL_LAGGED;
  for (int i = 0; i < d->ncon; i++) {
    double* a = L->anchor + 2 * i;
    const double* g = d->impulse + 3 * i;
    const double* v = d->vc + 3 * i;
    const double* v0 = d->vc0 + 3 * i;
    /* the lagged bound in force at the end (refine_contacts may have set
     * it from the step's own impulse) */
    const double nf = !on ? 0.0
                      : lagged ? (L->n0[i] >= 0.0 ? L->n0[i] : L->hc[SC_HC_NPAR * i + SC_HC_N0])
                               : g[2];
    const double mu = d->mu[i];
    /* under error control only a contact near-rigid at its law's step
     * keeps its anchor: a resolved spring's anchor, whose dynamics are a
     * step's (a_k above), made a step of h and two of h/2 differ at any h
     * (doc/step.md) */
    const int keep = !(o->accuracy > 0) || sc_contact_near_rigid(m, d, i);
    if (keep && mu > 0.0 && nf > 0.0 && hypot(g[0], g[1]) < RHO_STICK * mu * nf) {
      a[0] += dt * (th * v[0] + (1.0 - th) * v0[0]);
      a[1] += dt * (th * v[1] + (1.0 - th) * v0[1]);
      if (isfinite(a[0]) && isfinite(a[1])) continue;
    }
    a[0] = a[1] = 0.0;
  }
}

void sc_contact_laws_finish(const sc_model* m, sc_data* d, const sc_contact_laws* L) {
  (void)m;
  double wn = 0, wt = 0;
  /* the cone tails' velocities at the step's end (the Coulomb residuals
   * read them with their contacts') and their work, friction's */
  for (int r = 0; r < d->nrow; r++) {
    const int t = d->ncon + r;
    if (d->row_type[r] != SC_JROW_CONE) continue;
    double v[3] = {0.0, 0.0, 0.0};
    for (int q = d->jptr[t]; q < d->jptr[t + 1]; q++)
      for (int k = 0; k < 3; k++) v[k] += d->Jc[3 * (size_t)q + k] * d->v[d->jcol[q]];
    for (int k = 0; k < 3; k++) {
      d->vc[3 * t + k] = v[k];
      wt += d->impulse[3 * t + k] * 0.5 * (d->vc0[3 * t + k] + v[k]);
    }
  }
  for (int i = 0; i < d->ncon; i++) {
    const double* g = d->impulse + 3 * i;
    d->slip[i] = hypot(d->vc[3 * i], d->vc[3 * i + 1]);
    wt += g[0] * 0.5 * (d->vc0[3 * i] + d->vc[3 * i]) +
          g[1] * 0.5 * (d->vc0[3 * i + 1] + d->vc[3 * i + 1]);
    wn += g[2] * 0.5 * (d->vc0[3 * i + 2] + d->vc[3 * i + 2]);
    if (L->rmode[i] == 2) wn += g[2] * L->vwork[i];
  }
  d->e_normal -= wn;
  d->e_friction -= wt;
  d->e_contact = d->e_normal + d->e_friction;
}

int sc_contact_laws_init(const sc_model* m, int ncap, sc_contact_laws* L) {
  memset(L, 0, sizeof *L);
  const size_t n = (size_t)ncap;
  L->ncap = ncap;
  L->hc = sc_malloc(sizeof(double) * (SC_HC_NPAR + 1) * n);
  L->match = sc_malloc(sizeof(int) * 2 * n);
  L->nload = sc_malloc(sizeof(double) * NDOUBLE * n);
  if (!L->hc || !L->match || !L->nload) {
    sc_contact_laws_free(L);
    return -1;
  }
  L->hcd = L->hc + SC_HC_NPAR * n;
  L->rmode = L->match + n;
  L->beta_c = L->nload + n;
  L->n0 = L->beta_c + n;
  L->xmax = L->n0 + n;
  L->theta_c = L->xmax + n;
  L->gprev = L->theta_c + n;
  L->crel = L->gprev + 3 * n;
  L->anchor = L->crel + 3 * n;
  L->vrest = L->anchor + 2 * n;
  L->kick_c = L->vrest + n;
  L->vwork = L->kick_c + n;
  L->vlaw = L->vwork + n;
  /* the Hunt-Crossley models' stiction tolerance: SAP's creep estimate
   * sigma dt g, so that both models creep alike */
  const double* g = m->opt.gravity;
  double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  if (!(gn > 0)) gn = 9.81;
  L->gn = gn;
  return 0;
}

void sc_contact_laws_free(sc_contact_laws* L) {
  sc_free(L->hc);
  sc_free(L->match);
  sc_free(L->nload);
  L->hc = L->nload = NULL;
  L->match = NULL;
}

void sc_contact_laws_copy(sc_contact_laws* dst, const sc_contact_laws* src) {
  const size_t n = (size_t)src->ncap;
  memcpy(dst->hc, src->hc, sizeof(double) * (SC_HC_NPAR + 1) * n);
  memcpy(dst->match, src->match, sizeof(int) * 2 * n);
  memcpy(dst->nload, src->nload, sizeof(double) * NDOUBLE * n);
}

/* ---- torsional and rolling friction (doc/contact.md 4.8) ----
 * A contact whose pair has a torsional coefficient mu_s or a rolling one
 * mu_r (lengths: the largest torque about the normal, or about a tangent
 * axis, per unit normal force) gets a second entry in the problem, its cone
 * tail (core/problem.h), with the rows of the bodies' relative angular
 * velocity w = w_b - w_a about n, t1 and t2, scaled by mu_s / mu and
 * mu_r / mu.  The contact's cone then bounds the sliding impulse and the
 * scaled torques together,
 *   |(gamma_t1, gamma_t2, u_s, u_r1, u_r2)| <= mu gamma_n,
 * MuJoCo's elliptic cone of condim 6 (condim 4 without the rolling rows:
 * their J is 0), and the torque impulse about n is (mu_s / mu) u_s, at most
 * mu_s gamma_n.  The scaling needs mu > 0: a frictionless contact gets no
 * tail. */
void sc_contact_cone_place(const sc_model* m, sc_data* d, const double* v0) {
  (void)m;
  for (int i = 0; i < d->ncon; i++) {
    d->ckind[i] = SC_ROW_CONTACT;
    d->ctail[i] = -1;
  }
  for (int i = 0; i < d->ncon; i++) {
    const sc_contact* c = d->contact + i;
    if (!(c->spin > 0 || c->roll > 0) || !(c->mu > 0)) continue;
    const int r = d->nrow++, t = d->ncon + r;
    d->row_type[r] = SC_JROW_CONE;
    d->row_ref[r] = i;
    d->ctail[i] = t;
    d->ckind[t] = SC_ROW_CONE_TAIL;
    d->mu[t] = 0.0;
    d->phi0[t] = d->phi0[i];
    d->vn0[t] = 0.0;
    /* the contact's columns, in its order, and their angular rows (taken
     * with its Jacobian, contact/contact.c) scaled */
    const double s[3] = {c->spin / c->mu, c->roll / c->mu, c->roll / c->mu};
    const int n = d->jptr[i + 1] - d->jptr[i];
    d->jptr[t + 1] = d->jptr[t] + n;
    double v[3] = {0.0, 0.0, 0.0};
    for (int x = 0; x < n; x++) {
      const int p = d->jptr[i] + x, q = d->jptr[t] + x, dof = d->jcol[p];
      d->jcol[q] = dof;
      for (int k = 0; k < 3; k++) {
        const double J = s[k] * d->Jw[3 * (size_t)p + k];
        d->Jc[3 * (size_t)q + k] = J;
        v[k] += J * v0[dof];
      }
    }
    for (int k = 0; k < 3; k++) d->vc0[3 * t + k] = v[k];
  }
}
