/* dynamics: kinematics, mass matrix, bias forces, springs, energies and the
 * kinematic map of the multibody tree, all in world-frame spatial algebra. */
#ifndef SC_DYNAMICS_H
#define SC_DYNAMICS_H

#include "model/model.h"
#include "state/state.h"

/* Body, joint and geom poses, world spatial inertias and motion subspaces
 * (d->cdof) at positions q (nq; quaternions must be unit). */
void sc_dyn_kinematics(const sc_model* m, sc_data* d, const double* q);
/* Nonzero when the kinematics in d were last computed at exactly these
 * positions (bit for bit): sc_dyn_kinematics would recompute the same. */
int sc_dyn_kinematics_current(const sc_model* m, const sc_data* d, const double* q);
/* Body spatial velocities d->cvel and d->cdof_dot at velocities v; needs
 * sc_dyn_kinematics at the same q. */
void sc_dyn_velocity(const sc_model* m, sc_data* d, const double* q, const double* v);
/* Mass matrix d->M (its clique blocks, packed: see state.h) by the
 * composite-rigid-body algorithm. */
void sc_dyn_crba(const sc_model* m, sc_data* d);
/* Recursive Newton-Euler: tau = M qacc + C(q,v) v - tau_g(q) (qacc NULL = 0).
 * Needs kinematics and velocity at (q, v).  tau has nv entries. */
void sc_dyn_rne(const sc_model* m, sc_data* d, const double* qacc, double* tau);
/* Spring and damper generalized forces at (q, v): d->fspring (total) and
 * d->fdamp (dampers, and the fluid's forces when there is a fluid); when K, D are non-NULL, add their stiffness and
 * damping matrices (symmetric PSD; clique blocks packed as d->M, model nblk).  Needs kinematics
 * and velocity at (q, v).  Returns the spring potential energy, J. */
double sc_dyn_springs(const sc_model* m, sc_data* d, const double* q, const double* v,
                      double* K, double* D);
/* Fluid forces (the inertia-box model of dynamics.c) of the current
 * kinematics and velocity, added to d->fspring and d->fdamp; with D
 * non-NULL their damping matrix is added to it (packed as d->M).
 * sc_dyn_springs calls it when the model has a fluid (m->any_fluid). */
void sc_dyn_fluid(const sc_model* m, sc_data* d, double* D);
/* The forces a library user applies (d->qfrc_applied, d->xfrc_applied) as
 * one generalized force f (nv, overwritten) at the current kinematics:
 * qfrc_applied plus, for each body b with a wrench (F_b at its centre of
 * mass c_b, torque T_b, world axes), F_b . (S_lin + S_ang x c_b) + T_b . S_ang
 * on each dof S of b's path to the root (the power F.v_c + T.w).  Returns 0
 * when nothing is applied (f is then zero). */
int sc_dyn_applied(const sc_model* m, const sc_data* d, double* f);
/* Kinetic and gravity energies of the current kinematics and velocity v
 * (the one sc_dyn_velocity was given; v for the armature term), J. */
void sc_dyn_energy(const sc_model* m, const sc_data* d, const double* v, double* kinetic,
                   double* gravity);
/* World Jacobian of the velocity of world point p attached to body b:
 * Jp (3 x nv, column-major, ld 3) is overwritten. */
void sc_dyn_point_jacobian(const sc_model* m, const sc_data* d, int b, const double p[3],
                           double* Jp);
/* The length of tendon t at the kinematics d holds; when J is given, its
 * row dL/dq N(q) (nv, overwritten): a fixed tendon sum_k c_k q_k and c_k in
 * the columns of its joints; a spatial one the sum of its segments'
 * lengths and of u^T (J(P_k+1) - J(P_k)) over them, u the segment's unit
 * direction (d->jacp is its scratch). */
double sc_dyn_tendon(const sc_model* m, sc_data* d, int t, double* J);
/* qdot = N(q) v. */
void sc_dyn_qdot(const sc_model* m, const double* q, const double* v, double* qdot);
/* Renormalize every quaternion block of q in place. */
void sc_dyn_normalize_q(const sc_model* m, double* q);

#endif
