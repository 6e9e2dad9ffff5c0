/* equality: the equality constraints' rows of the contact problem
 * (equality.c; doc/constraints.md). */
#ifndef SC_CONSTRAINT_EQUALITY_H
#define SC_CONSTRAINT_EQUALITY_H

#include "model/model.h"
#include "state/state.h"

/* d->eq_ref from the model's eq_data, the parts marked in eq_auto taken at
 * the model's initial positions qpos0, and d->ten_rest, a tendon spring's
 * rest length, there unless the model gives it (kinematics computed at
 * qpos0; q: nq and v: nv scratch).  Once, before the first step
 * (sc_sim_prepare). */
void sc_eq_reference(const sc_model* m, sc_data* d, double* q, double* v);
/* g: the violation of every equality row (neqrow) at the positions whose
 * kinematics d holds. */
void sc_eq_gaps(const sc_model* m, const sc_data* d, double* g);
/* The step's equality rows appended after the joint rows already placed
 * (d->nrow grows by m->neqrow): their Jacobian at the kinematics d holds,
 * their gaps d->eq_gap (at the step start) and their velocities J v0. */
void sc_eq_place(const sc_model* m, sc_data* d, const double* v0);
/* J v for problem entry i (a row of any kind), over its listed columns */
double sc_eq_row_velocity(const sc_data* d, int i, const double* v);

#endif
