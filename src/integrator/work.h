/* work: what the integrator's files share (internal to src/integrator):
 * the step's solver workspaces, created once by sc_sim_prepare (prepare.c),
 * the slots of the scratch vectors, and the stages one file gives another:
 * the contact stage (contact_stage.c) and the mid-step positions
 * (integrator.c). */
#ifndef SC_INTEGRATOR_WORK_H
#define SC_INTEGRATOR_WORK_H

#include "constraint/contact_law.h"
#include "constraint/rows.h"
#include "contact/match.h"
#include "core/problem.h"
#include "island/island.h"
#include "model/model.h"
#include "solver_lcp/lcp.h"
#include "solver_sap/sap.h"
#include "state/state.h"

/* solver workspaces, created once by sc_sim_prepare */
typedef struct step_work {
  sc_sap_work* sap;
  sc_lcp_work* lcp;
  int lcp_capacity; /* contacts the LCP workspace takes (<= ncon_max), per island */
  int lcp_whole;    /* sc_sim_set_lcp_whole: one LCP of all contacts, no islands */
  sc_problem prob; /* the step's contact problem (set by sc_step_contacts) */
  sc_sap_params sap_params;
  sc_sap_params sap_relin;    /* the same with one Newton iteration at least (relinearize_step) */
  const sc_sap_params* sap_prm; /* the one the solves of the moment use */
  /* the problem's trees: A's blocks (the model's non-empty cliques, whose
   * packed blocks lie one after the other in d->A) */
  int ntree;
  int* tree_ptr;  /* (nclique + 1) */
  sc_solver_trace trace; /* output.solver_trace: one row per Newton iteration */
  double* trace_block;   /* the trace's arrays (NULL when off) */
  /* the previous step's contacts (contact/match.h) */
  sc_contact_memory mem;
  /* the LCP warm start (contact.lcp.warm_start): this step's guesses of
   * each contact's basic pattern (sc_lcp_solve_from) and its results */
  uint32_t *pat_guess, *pat_out;
  /* the contact islands and their solves (island/island.h) */
  sc_islands* isl;
  int nthreads;
  /* each contact's law and what it keeps across steps (constraint/
   * contact_law.h) */
  sc_contact_laws law;
  /* per entry of this step: 1 when the warm start knows it (matched), 1
   * when the step had an impact at it (kicked); per clique of the model:
   * 1 when the impact kick moves it (kick_clique) */
  int *matched, *kicked, *kick_clique;
  /* each joint row's impulse at the end of the last step (N s), by a slot
   * that names the row across steps (sc_rows_slot, constraint/rows.h), 0 when
   * it was absent */
  double* row_prev;
} step_work;

/* scratch layout (d->scratch: 8 nv + nq) */
enum { SCR_VTH = 0, SCR_VQ = 1, SCR_RES = 2, SCR_K = 3, SCR_TMP = 4, SCR_V0 = 5, SCR_GUESS = 6 };
static inline double* scr(const sc_model* m, sc_data* d, int slot) {
  return d->scratch + (size_t)slot * (size_t)m->nv;
}

/* q^theta_q for velocities vq (= v^theta_vq): q0 + tq dt N(q^tq) vq, two
 * passes into qt (qdot: nq scratch) */
void sc_step_mid_positions(const sc_model* m, const double* q0, const double* vq, double tq,
                           double dt, double* qt, double* qdot);

/* The contact stage (contact_stage.c), after the free motion, with the
 * step-start velocities v0: each contact's law (theta, near-rigid beta,
 * lagged friction bound) and the contact problem solved, island by island,
 * into d->v and d->impulse (v = v* when there is no contact); *ss receives
 * the solve's status.  Returns an error only for what stops the step
 * (A not positive definite, an LCP too large). */
sc_status sc_step_contacts(const sc_model* m, sc_data* d, const double* v0, sc_solve_status* ss,
                           sc_error* err);
/* The contact problem solved again with d->A and d->vstar of a
 * re-linearization, from the last solution, with at least one Newton step;
 * the statistics add to the step's. */
sc_solve_status sc_step_contacts_again(const sc_model* m, sc_data* d, const double* v0);
/* After the last solve: a failure reported (contact.on_failure), the
 * contacts kept for the next step, slips and the impulses' work. */
sc_status sc_step_contacts_end(const sc_model* m, sc_data* d, sc_solve_status ss, sc_error* err);
/* The impacts' part of the position update (see contact_stage.c): kick =
 * A^-1 J^T gamma over the cliques the impacts move, 0 elsewhere (nv); v0:
 * the step-start velocities; tmp: nv scratch; returns 0 when there is
 * none. */
int sc_step_kick(const sc_model* m, sc_data* d, const double* v0, double* kick, double* tmp);

#endif
