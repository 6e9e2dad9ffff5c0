/* contact_stage: the contact stage of the step (see integrator.c for the
 * whole step; the formulation is doc/contact.md).
 *
 * After the free motion (v*, A) the contacts detected at q0 are placed at
 * the step's mid configuration (midstep_contacts), each contact's law is
 * set from its stiffness, dissipation, the Delassus estimate and what it
 * carried at the previous step (constraint/contact_law.c, which also keeps
 * the restitution impacts and the stiction anchors), and the convex problem
 *   min_v 1/2 |v - v*|_A^2 + sum_i l_i(J_i v)
 * (or the polyhedral-cone LCP) is solved island by island (island/
 * island.h), warm started from the previous step's impulses, with the laws
 * refined from each island's own impulses between passes
 * (sc_contact_laws_refine).  The impacts' part of the position update is
 * here too (sc_step_kick). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "collision/collision.h"
#include "contact/contact.h"
#include "core/core.h"
#include "dynamics/dynamics.h"
#include "constraint/contact_law.h"
#include "constraint/equality.h"
#include "integrator/work.h"
#include "constraint/law.h"
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
    const int j = w->law.match[i];
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
    const int best = w->law.match[i];
    for (int r = 0; r < 3; r++) gam[3 * i + r] = w->law.gprev[3 * i + r];
    matched += best >= 0;
    matched_c[i] = best >= 0;
  }
  /* the joint rows: the impulse the same row had last step */
  for (int r = 0; r < d->nrow; r++) {
    const int i = nc + r;
    const int slot = sc_rows_slot(m, d, r);
    const double g = slot >= 0 ? w->row_prev[slot] : 0.0;
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
 * contact gets nothing of its own: the scheme and its order are unchanged
 * there.  A restitution impact (restitution_mode) is always kicked, its
 * impulse scaled by kick_c so that the body leaves from where the impact
 * at its time s put it.  The impulses of the contacts behind an impact,
 * and the whole impulse of a body that its normal impulses alone would
 * throw (a wedge), follow below.
 * Returns 0 when no contact had an impact. */

/* The impulse of entry i's component r that the kick applies on column
 * col: f gamma_n of a kicked contact or row (in[i]; f = kick_c for a
 * restitution impact, else 1), and every component of every entry on a
 * clique kicked whole (whole[clique], every clique when whole is NULL:
 * friction too; a joint row's J is its third slot alone). */
static double kick_impulse(const sc_model* m, const sc_data* d, const step_work* w, const int* in,
                           const int* whole, int i, int r, int col) {
  const int nc = d->ncon;
  const double f = i < nc && w->law.rmode[i] == 2 ? w->law.kick_c[i] : 1.0;
  if (!whole || whole[m->dof_clique[col]]) return i < nc || r == 2 ? f * d->impulse[3 * i + r] : 0.0;
  return in[i] && r == 2 ? f * d->impulse[3 * i + 2] : 0.0;
}

/* The ratio of a clique's kick by normal impulses to its whole velocity
 * change, v1 - v* (norms of A), above which it is kicked by all its
 * impulses.  Measured (the ratio at every clique an impact kicked, by a
 * build that printed it):
 * MuJoCo's humanoid.xml over 10 s and 22_humanoids.xml over 4 s, at most
 * 1.84 (median 0.86); a column of spheres dropped on itself, 1.00; 27
 * spheres jammed in a shaft, median 2.1 and up to 16 000 (a sphere wedged
 * between two walls); 216 forming a pile, median 1.6, up to 94.  Kicked
 * whole above 3 (above 2, 4 or 10 alike, in builds not kept), the 27 of
 * tools/bench/wp_scenes.sh pile 1e-3 27 complete their 1.5 s under lagged,
 * sap and the LCP 0.62, 0.66 and 0.83 mm deep at most (the summary line;
 * a sphere went 12 mm deep, or spheres passed through each other, at
 * 076e998); humanoid.xml
 * and humanoid100.xml at their own 5 ms are the same to the bit (their
 * contacts are compliant: below). */
#define KICK_WHOLE 3.0

/* kick = A^-1 sum_i J_i^T (the impulses kick_impulse gives); any_whole: 0
 * when no clique is kicked whole (only the kicked entries then count) */
static void kick_assemble(const sc_model* m, const sc_data* d, const step_work* w, const int* in,
                          const int* whole, int any_whole, double* kick, double* tmp) {
  const sc_la_blocks cb = sc_model_cliques(m);
  for (int i = 0; i < m->nv; i++) kick[i] = 0;
  for (int i = 0; i < d->ncon + d->nrow; i++) {
    if (!any_whole && !in[i]) continue;
    for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) {
      const int col = d->jcol[q];
      const double* e = d->Jc + 3 * (size_t)q;
      for (int r = 0; r < 3; r++) {
        const double g = kick_impulse(m, d, w, in, whole, i, r, col);
        if (g != 0.0) kick[col] += e[r] * g;
      }
    }
  }
  sc_la_blk_solve(&cb, d->Afac, kick, tmp);
}

int sc_step_kick(const sc_model* m, sc_data* d, const double* v0, double* kick, double* tmp) {
  const sc_la_blocks cb = sc_model_cliques(m);
  const step_work* w = d->solver_work;
  const int nc = d->ncon;
  const double dt = d->h;
  int* in = w->kicked; /* contacts and rows whose impulse the kick applies */
  int* whole = w->kick_clique; /* cliques the kick moves by all their impulses */
  for (int k = 0; k < m->nclique; k++) whole[k] = 0;
  int any = 0;
  for (int i = 0; i < nc; i++) {
    in[i] = 0;
    /* a restitution impact always: its factor kick_c places it at its time
     * of impact (restitution_mode) */
    if (w->law.rmode[i] == 2 && d->impulse[3 * i + 2] > 0) {
      in[i] = any = 1;
      continue;
    }
    /* an impact: the midpoint's penetration u dt / 2 would exceed the depth
     * a near-rigid contact may have (resting contacts approach at far less) */
    if (w->law.theta_c[i] != 1.0 || !(-d->vn0[i] * dt > 2.0 * w->law.xmax[i])) continue;
    /* ... and faster than the smooth forces alone accelerate it in a step
     * (vn* - vn0): a resting contact, which approaches at that rate, would
     * otherwise settle on a hovering fixed point (gap g dt^2 / 2, v = -g dt / 2) */
    const double vns = sc_eq_row_velocity(d, i, d->vstar);
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
    if (w->law.theta_c[i] != 1.0 || d->row_type[r] == SC_JROW_SERVO ||
        d->row_type[r] == SC_JROW_EQUALITY || d->row_type[r] == SC_JROW_CONE)
      continue;
    /* (one column for a joint's limit, several for a tendon's) */
    const double vns = sc_eq_row_velocity(d, i, d->vstar);
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
  const double c = 1.0 - m->opt.theta_vq;
  for (int pass = 0; pass <= nc; pass++) {
    kick_assemble(m, d, w, in, whole, 0, kick, tmp);
    int added = 0;
    for (int i = 0; i < nc; i++) {
      if (in[i] || w->law.theta_c[i] != 1.0 || !(d->impulse[3 * i + 2] > 0)) continue;
      double vk = 0.0;
      for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) vk += d->Jc[3 * (size_t)q + 2] * kick[d->jcol[q]];
      if (-c * vk * dt > 0.1 * w->law.xmax[i]) in[i] = added = 1;
    }
    if (!added) break;
  }
  /* A body wedged between walls and the body below carries normal
   * impulses that their friction (and the other normal impulses) balance,
   * a hundred times the weight above it in a jammed shaft: kicked by the
   * normal impulses of some of its contacts it moves by their unbalanced
   * part, 12 mm in a step for such a sphere, which then passed into the
   * sphere above.  Its whole velocity change in the step, v1 - v* =
   * A^-1 J^T gamma over all its impulses, says how far the impulses move
   * it.  So a clique whose kick exceeds KICK_WHOLE times that (in the norm
   * of A, its kinetic energy) is kicked by all its impulses instead,
   * friction and joint rows included: its positions then advance with
   *   v_q = v1 - (1 - theta_vq) (v* - v0),
   * as far as its velocities say.  A clique whose kick is of the order of
   * its velocity change (an impact) keeps the normal impulses alone, and so
   * does one with a compliant kicked contact: its depth is its spring's,
   * which the normal kick keeps (kicked whole, humanoid100.xml's objects on
   * MuJoCo's compliant contacts went deeper: 343 steps with a contact
   * deeper than 10 mm over 10 s, against 167). */
  /* (whole[k] = -1 while deciding: a compliant kicked contact touches k) */
  for (int i = 0; i < nc; i++)
    if (in[i] && !sc_contact_near_rigid(m, d, i))
      for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) whole[m->dof_clique[d->jcol[q]]] = -1;
  int candidates = 0, any_whole = 0;
  for (int i = 0; i < m->nv && !candidates; i++) candidates = kick[i] != 0.0 && !whole[m->dof_clique[i]];
  if (candidates) {
    double* full = scr(m, d, SCR_RES); /* free after the step's solves */
    kick_assemble(m, d, w, in, NULL, 1, full, tmp);
    double* ak = scr(m, d, SCR_K);
    double* af = tmp; /* (free again after each assembly) */
    sc_la_blk_gemv(&cb, d->A, kick, ak);
    sc_la_blk_gemv(&cb, d->A, full, af);
    for (int k = 0; k < m->nclique; k++) {
      if (whole[k] < 0) continue;
      double ek = 0.0, ef = 0.0;
      for (int a = 0; a < m->clique_dofnum[k]; a++) {
        const int i = m->clique_dofs[m->clique_dofadr[k] + a];
        ek += kick[i] * ak[i];
        ef += full[i] * af[i];
      }
      if (ek > KICK_WHOLE * KICK_WHOLE * ef && ek > 0.0) whole[k] = any_whole = 1;
    }
  }
  for (int k = 0; k < m->nclique; k++)
    if (whole[k] < 0) whole[k] = 0;
  if (any_whole) kick_assemble(m, d, w, in, whole, 1, kick, tmp);
  /* The kick's work.  Moving the positions by dt (1 - theta_vq) A^-1 J^T
   * gamma more than v_q did moves them against the smooth forces, whose
   * impulse over the step is A (v* - v0): their work there is
   *   (1 - theta_vq) (v* - v0)^T J^T gamma = (1 - theta_vq) sum_i gamma_i . J_i (v* - v0)
   * over the impulses the kick applied, energy the trapezoidal works
   * (sc_contact_laws_finish, sc_rows_finish) do not see: a body kicked up
   * out of the floor gains that much potential energy.  It is booked as
   * the work of the entry whose impulse it is (normal, friction, limit,
   * joint friction, actuator, constraint), so that the energy balance
   * closes (a restitution impact's normal work was booked with its
   * impulse's time: vwork). */
  for (int i = 0; i < nc + d->nrow; i++) {
    double e[3] = {0.0, 0.0, 0.0};
    int on_whole = 0;
    for (int q = d->jptr[i]; any_whole && q < d->jptr[i + 1]; q++) on_whole |= whole[m->dof_clique[d->jcol[q]]];
    if (!on_whole) {
      /* the normal impulse of a kicked entry: gamma_n (vn* - vn0) */
      if (!in[i] || (i < nc && w->law.rmode[i] == 2)) continue;
      e[2] = c * d->impulse[3 * i + 2] * (sc_eq_row_velocity(d, i, d->vstar) - d->vn0[i]);
    } else
      for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) {
        const int col = d->jcol[q];
        const double dv = d->vstar[col] - v0[col];
        for (int r = 0; r < 3; r++)
          e[r] += c * kick_impulse(m, d, w, in, whole, i, r, col) * d->Jc[3 * (size_t)q + r] * dv;
      }
    if (i < nc) {
      if (w->law.rmode[i] != 2) d->e_normal += e[2];
      d->e_friction += e[0] + e[1];
      d->e_contact = d->e_normal + d->e_friction;
      continue;
    }
    switch (d->row_type[i - nc]) {
      case SC_JROW_FRICTION:
      case SC_JROW_TENDON_FRICTION: d->e_jfriction += e[2]; break;
      case SC_JROW_SERVO: d->e_actuator -= e[2]; break; /* (work done, not dissipated) */
      case SC_JROW_EQUALITY: d->e_constraint += e[2]; break;
      case SC_JROW_CONE: d->e_friction += e[2], d->e_contact = d->e_normal + d->e_friction; break;
      default: d->e_limit += e[2]; break;
    }
  }
  return 1;
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
  return sc_contact_laws_refine(c->m, c->d, &c->w->law, nc, gidx, gamma, R, vhat, hc);
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
        !sc_contact_laws_refine(m, d, &w->law, nc, NULL, d->impulse, d->R, d->vhat,
                                 p->hc ? w->law.hc : NULL))
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
  sc_step_mid_positions(m, d->q, v0, o->theta_q, d->h, d->qtheta, qdot);
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
    sc_contact_match_all(&w->mem, d, w->law.crel, w->law.match, w->law.gprev, w->law.anchor);
    /* the LCP's friction has no regularization to anchor (its tangent
     * rows ignore v^_t); nor has a contact left out (mu = 0 below) */
    if (o->solver != SC_SOLVER_NEWTON || !(o->stiction_anchor > 0))
      for (int i = 0; i < 2 * ncon; i++) w->law.anchor[i] = 0.0;
    if (o->midstep_jacobian && o->theta_q > 0) midstep_contacts(m, d, v0, w->law.crel);
  }
  sc_rows_place(m, d, v0);
  if (m->nrow_wide > 0) {
    /* the equality and tendon rows' Jacobians where the contacts' are taken
     * (at the mid configuration, where midstep_contacts may have put the
     * kinematics already) */
    if (o->midstep_jacobian && o->theta_q > 0) {
      sc_step_mid_positions(m, d->q, v0, o->theta_q, d->h, d->qtheta, d->scratch + 8 * (size_t)nv);
      if (!sc_dyn_kinematics_current(m, d, d->qtheta)) sc_dyn_kinematics(m, d, d->qtheta);
    } else if (!sc_dyn_kinematics_current(m, d, d->q)) {
      sc_dyn_kinematics(m, d, d->q);
    }
    sc_rows_place_wide(m, d, v0);
  }
  if (m->cone_tails) sc_contact_cone_place(m, d, v0);
  const int nc = ncon + d->nrow;
  if (nc == 0) {
    memcpy(d->v, d->vstar, sizeof(double) * (size_t)nv);
    if (w) w->mem.n = 0;
    return SC_OK;
  }
  for (int i = ncon; i < nc; i++) {
    w->law.match[i] = -1;
    w->matched[i] = 0;
    for (int r = 0; r < 3; r++) w->law.gprev[3 * i + r] = 0.0;
  }
  sc_problem* p = &w->prob;
  const sc_problem p0 = {nv, nc, w->ntree, w->tree_ptr, m->clique_dofs, d->A, d->vstar,
                         d->jptr, d->jcol, d->Jc, d->R, d->vhat, d->mu, d->phi0, d->h,
                         SC_MODEL_SAP, NULL, d->nrow > 0 ? d->ckind : NULL, d->cbound,
                         m->cone_tails ? d->ctail : NULL};
  *p = p0;
  /* the free motion's factors of A when they are A's (explicit schemes,
   * and any step whose last free-motion iteration factored) */
  if (sc_sap_delassus_factored(p, d->afac_current ? d->Afac : NULL, w->sap, d->wdiag) != SC_OK)
    return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                        "t = %.9g s: A is not positive definite in the contact stage", d->time);
  for (int i = 0; i < ncon; i++) d->vn0[i] = d->vc0[3 * i + 2];
  /* Hunt-Crossley models (sap_model.c) for the newton solver */
  const int use_hc = o->contact_model != SC_MODEL_SAP && o->solver == SC_SOLVER_NEWTON;
  if (use_hc) {
    p->model = o->contact_model;
    p->hc = w->law.hc;
  }
  sc_contact_laws_set(m, d, &w->law, use_hc, scr(m, d, SCR_GUESS), scr(m, d, SCR_TMP));
  sc_rows_laws(m, d, v0, use_hc ? w->law.hc : NULL, w->law.theta_c);
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
  sc_contact_laws_anchors(m, d, &w->law);
  sc_contact_remember(&w->mem, d, w->law.crel, w->law.anchor, w->pat_out);
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
  sc_contact_laws_finish(m, d, &w->law);
  return SC_OK;
}
