/* kinds: what the files of the constraint module give rows.c (internal to
 * src/constraint). */
#ifndef SC_CONSTRAINT_KINDS_H
#define SC_CONSTRAINT_KINDS_H

#include "model/model.h"
#include "state/state.h"

/* one more row on one dof (J = s e_dof^T), entry ncon + nrow */
void sc_rows_add_dof(sc_data* d, int type, int ref, int dof, double s, double phi0,
                     const double* v0);
/* the compliant (or near-rigid, k = inf) law of a contact without its
 * bounds, stiffness k and dissipation taud, on entry i with Delassus entry
 * w: R, vhat; returns its theta (joint.c) */
double sc_compliant_law(const sc_model* m, sc_data* d, int i, double k, double taud, double w,
                        double* R, double* vhat);
/* that law as a one-sided limit (a joint's or a tendon's): bounds [0, inf) */
double sc_limit_law(const sc_model* m, sc_data* d, int i, double k, double taud, double w,
                    double* R, double* vhat, double* bound);
/* joint.c: the joints' limits and dry friction; the law of dry friction F
 * (a joint's or a tendon's) on a row with Delassus entry w */
void sc_joint_place(const sc_model* m, sc_data* d, const double* v0);
double sc_friction_law(const sc_model* m, double dt, double F, double w, double* R, double* vhat,
                       double* bound);
/* actuator.c: the joints' servos' rows; a servo's (or a tendon motor's) law
 * on entry i, returning 1 when its dof advances with the end velocity */
void sc_actuator_place(const sc_model* m, sc_data* d, const double* v0);
double sc_actuator_law(const sc_model* m, sc_data* d, int a, int i, double w, const double* v0,
                       double* R, double* vhat, double* bound);
/* equality.c: an equality row's law on entry i */
double sc_eq_law(const sc_model* m, sc_data* d, int i, double w, double* R, double* vhat,
                 double* bound);

#endif
