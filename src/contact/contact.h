/* contact: contact kinematics for the contact stage (doc/contact.md section
 * 1): the contact Jacobian and the per-contact data of the
 * problem handed to a contact solver. */
#ifndef SC_CONTACT_H
#define SC_CONTACT_H

#include "model/model.h"
#include "state/state.h"

/* From d->contact[0..ncon) and the kinematics at q0 (sc_dyn_kinematics):
 * the contact Jacobian as d->jptr, d->jcol, d->Jc (per contact its non-zero
 * columns, 3 rows t1, t2, n each: the velocity of body b relative to body a
 * at the contact point, in the contact frame; see state.h),
 * d->phi0, d->mu, d->ck, d->ctaud. */
void sc_contact_jacobian(const sc_model* m, sc_data* d);

/* vc = J v for the current contacts (3 ncon). */
void sc_contact_velocity(const sc_model* m, const sc_data* d, const double* v, double* vc);

/* The largest Signorini, maximum-dissipation and De Saxce residuals (J) of
 * the step's contact solution, from d->impulse, d->vc and the contacts' gaps
 * and friction (residual.c); vtarget (NULL: none) each contact's restitution
 * target velocity, -inf where it has none. */
void sc_contact_coulomb_residuals(const sc_data* d, double dt, const double* vtarget,
                                  double out[3]);

#endif
