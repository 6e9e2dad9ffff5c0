/* rows: the rows of the contact problem beside the contacts -- joint
 * limits and dry friction (joint.c), motors and servos (actuator.c),
 * equality constraints (equality.c), tendons' limits (tendon.c) -- placed,
 * given their laws and accounted for, one kind per file (rows.c dispatches).
 * A row is a box row of core/problem.h; the integrator asks for the
 * rows, hands them with the contacts to the solver, and keeps their warm
 * start. */
#ifndef SC_CONSTRAINT_ROWS_H
#define SC_CONSTRAINT_ROWS_H

#include "model/model.h"
#include "state/state.h"

/* the largest omega dt of a spring (a contact's, a limit's, a servo's) the
 * contact.theta auto rule writes at the scheme's theta */
#define SC_RESOLVED_WDT 1.0
/* theta of a contact or limit law whose spring turns by wdt = sqrt(k w) dt
 * per step (INFINITY: near-rigid), by contact.theta (rows.c) */
double sc_law_theta(const sc_options* o, double wdt);

/* The inputs and the motors' forces d->fmotor of the step from d->time
 * (before the free motion). */
void sc_rows_actuate(const sc_model* m, sc_data* d);
/* The step's one-dof rows (limits, dry friction, joints' servos) appended
 * after the contacts: J, kinds, gaps, step-start velocities from v0. */
void sc_rows_place(const sc_model* m, sc_data* d, const double* v0);
/* Then the rows that span chains (equality constraints, tendons' limits and
 * dry friction, actuators on tendons), their Jacobians at the kinematics d holds (the
 * caller puts them where the contacts' Jacobians are taken). */
void sc_rows_place_wide(const sc_model* m, sc_data* d, const double* v0);
/* Their laws, after the Delassus estimates d->wdiag: R, vhat, bounds (hc:
 * the Hunt-Crossley slots of the problem, or NULL; theta: each row's law
 * theta, 1 where the positions take its impulse in full at an impact, 0
 * elsewhere). */
void sc_rows_laws(const sc_model* m, sc_data* d, const double* v0, double* hc, double* theta);
/* After the last solve: the rows' and motors' forces and their work over
 * the step. */
void sc_rows_finish(const sc_model* m, sc_data* d, const double* v0);
/* The position update's velocity vq: the dofs of a servo written at
 * theta = 1 (theta: the laws' thetas) advance with the step's end
 * velocity. */
void sc_rows_position_velocity(const sc_model* m, const sc_data* d, const double* theta,
                               double* vq);
/* The slot of row r of this step among sc_rows_nslot(m) (the limits'
 * sides, the dofs' friction, the servos, the equality rows, the tendons'
 * limits' sides, the tendons' friction): what names the row across steps;
 * -1 for a contact's cone tail, which keeps none. */
int sc_rows_slot(const sc_model* m, const sc_data* d, int r);
int sc_rows_nslot(const sc_model* m);

#endif
