/* integrator: the two-stage theta-method time step (doc/step.md): free
 * motion v*, then contact, then positions. */
#ifndef SC_INTEGRATOR_H
#define SC_INTEGRATOR_H

#include <signal.h>

#include "model/model.h"
#include "state/state.h"

/* Allocate the solver workspaces and check the model against the data once
 * (mass matrix positive definite at the initial state).  Call after
 * sc_data_create and before the first sc_forward / sc_step.  With
 * m->opt.threads != 1 (newton solver) this also starts the worker threads
 * that solve contact islands, one workspace set per thread; sc_data_free
 * stops them.  One sc_data must not be stepped from two threads at once. */
sc_status sc_sim_prepare(const sc_model* m, sc_data* d, sc_error* err);
/* The same with the contact solves on `threads` threads (0: one per CPU)
 * instead of the model's contact.threads: the results are the same bit for
 * bit (island.c), only the work is spread differently. */
sc_status sc_sim_prepare_threads(const sc_model* m, sc_data* d, int threads, sc_error* err);

/* dst := src, both prepared for m (sc_sim_prepare): sc_data_copy and what
 * of the solver workspace the next steps read (the contacts' memory, the
 * rows' last impulses, the LCP's patterns and the laws' per-contact
 * values), so that dst steps as src does, bit for bit.  The one thing not
 * copied is the factorization a solve may start the next step's from (a
 * cache, island.c): src forgets it too, so that the two continue alike;
 * src's own next steps then differ from what they would have been by no
 * more than the contact solver's tolerance.  Allocates nothing. */
void sc_sim_copy(const sc_model* m, sc_data* dst, sc_data* src);

/* Let the contact solvers poll *flag (NULL: never; e.g. the flag a SIGINT
 * handler sets) inside long solves: once it is non-zero, sc_step returns
 * SC_ERR_SIM ("interrupted") without completing the step.  Call after
 * sc_sim_prepare. */
void sc_sim_set_cancel(sc_data* d, const volatile sig_atomic_t* flag);

/* Under --solver lcp the step solves one LCP per contact island (the
 * default, whole = 0) or, with whole = 1, one LCP of all the step's contacts:
 * the same LCP up to the order of Lemke's pivots, kept as the reference the
 * per-island solve is tested against.  Call after sc_sim_prepare. */
void sc_sim_set_lcp_whole(sc_data* d, int whole);

/* Derived quantities of the current state (q, v): kinematics, contacts,
 * energies.  Impulses are zeroed.  Used for the initial recorded frame. */
sc_status sc_forward(const sc_model* m, sc_data* d, sc_error* err);

/* Advance the state by one step of m->opt.dt.  On return d holds the new
 * state with its energies, the contacts used by the step (detected at the
 * step's start) with their impulses and slips, and the step's statistics.
 * Returns SC_ERR_SIM (with a message) when the step failed. */
sc_status sc_step(const sc_model* m, sc_data* d, sc_error* err);
/* The same step with a length h of its own (error control's substeps,
 * adaptive.c): d->time advances by h, d->step is left as it is. */
sc_status sc_step_of(const sc_model* m, sc_data* d, double h, sc_error* err);

/* Advance the state by one output interval of m->opt.dt: one sc_step, or
 * under error control (m->opt.accuracy > 0) the substeps adaptive.c
 * chooses, ending at the interval's end exactly; d->substeps, d->rejected
 * and d->shortest say how.  Returns SC_ERR_SIM when the step failed (under
 * error control: at time.min_step). */
sc_status sc_advance(const sc_model* m, sc_data* d, sc_error* err);
/* 1 once the flag of sc_sim_set_cancel is set */
int sc_sim_cancelled(const sc_data* d);

#endif
