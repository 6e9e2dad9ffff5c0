/* tendon: the tendons' lengths and their limits' rows of the contact
 * problem (tendon.c; doc/constraints.md). */
#ifndef SC_CONSTRAINT_TENDON_H
#define SC_CONSTRAINT_TENDON_H

#include "model/model.h"
#include "state/state.h"

/* d->ten_length of every tendon at the kinematics d holds */
void sc_tendon_lengths(const sc_model* m, sc_data* d);
/* The step's tendon limit rows appended after the rows already placed: a
 * side whose gap (from d->ten_length, the step start) is within reach of a
 * step, with the tendon's Jacobian at the kinematics d holds. */
void sc_tendon_place(const sc_model* m, sc_data* d, const double* v0);
/* The row of actuator a, which pulls on a tendon (a servo's, or a motor's
 * whose impulse the law fixes), appended: the tendon's Jacobian at the
 * kinematics d holds, its velocity J v0. */
void sc_tendon_actuator_place(const sc_model* m, sc_data* d, int a, const double* v0);

#endif
