/* state: per-run data and workspace (cf. MuJoCo's mjData).
 *
 * Everything that changes during a run lives here; every array is sized once
 * by sc_data_create from the model, so stepping never allocates.  Fields are
 * grouped by the stage that writes them. */
#ifndef SC_STATE_H
#define SC_STATE_H

#include "contact/problem.h"
#include "core/core.h"
#include "model/model.h"

/* One contact point between geoms a and b (b may be static, body 0).
 * The normal points from a to b; phi < 0 in overlap; the contact velocity is
 * that of b relative to a at pos, so vn > 0 means separating, and the impulse
 * acts on b (and its opposite on a). */
typedef struct sc_contact {
  double pos[3];     /* world, m: midway between the two surfaces */
  double frame[9];   /* rows t1, t2, n (world), n from a to b */
  double dist;       /* signed gap phi, m */
  int geom[2];       /* a, b */
  int body[2];       /* bodies of a and b (0 = world) */
  double k;          /* pair stiffness, N/m (INFINITY = rigid) */
  double taud;       /* pair dissipation time scale, s */
  double mu;         /* pair friction coefficient */
} sc_contact;

typedef enum sc_warning {
  SC_WARN_FREE_NEWTON = 0, /* free-motion Newton hit its iteration cap */
  SC_WARN_CONTACT = 1,     /* contact solver did not converge (on_failure: warn) */
  SC_WARN_NCON = 2,        /* contact buffer full: contacts dropped */
  SC_WARN_FAST = 3,        /* with contact.speculative off, a body moved more than its
                              smallest geometry's bounding radius in a step with no
                              contact: a contact in its path may have been missed */
  SC_NWARN = 4
} sc_warning;

/* What a joint row of the contact problem is (constraint/rows.c) */
typedef enum sc_joint_row_type {
  SC_JROW_LIMIT_LOWER = 0, /* row_ref: the joint */
  SC_JROW_LIMIT_UPPER = 1, /* row_ref: the joint */
  SC_JROW_FRICTION = 2,    /* row_ref: the dof */
  SC_JROW_SERVO = 3,       /* row_ref: the actuator */
  SC_JROW_EQUALITY = 4,    /* row_ref: the row among the model's neqrow
                              (constraint/equality.c) */
  SC_JROW_TENDON_LOWER = 5, /* row_ref: the tendon (constraint/tendon.c) */
  SC_JROW_TENDON_UPPER = 6  /* row_ref: the tendon */
} sc_joint_row_type;

enum { SC_DATA_MAXARRAY = 96 };

typedef struct sc_data {
  /* ---- state ---- */
  double time;       /* s */
  long step;         /* steps taken */
  double* q;         /* (nq) */
  double* v;         /* (nv) */

  /* ---- position dependent (sc_dyn_kinematics) ---- */
  double* xpos;      /* (nbody x 3) body origin in world, m */
  double* xrot;      /* (nbody x 9) body orientation in world (row-major) */
  double* xcom;      /* (nbody x 3) body c.o.m. in world, m */
  double* jxpos;     /* (njnt x 3) joint frame J origin in world, m */
  double* jxrot;     /* (njnt x 9) joint frame J orientation in world */
  double* cdof;      /* (nv x 6) motion subspace columns in world (Plucker at world origin) */
  double* cinert;    /* (nbody x 36) spatial inertia in world about world origin */
  double* crb;       /* (nbody x 36) composite rigid-body inertia (CRBA scratch) */
  double* geom_xpos; /* (ngeom x 3) */
  double* geom_xrot; /* (ngeom x 9) */
  double* kin_q;     /* (nq) the positions the fields above were computed at */
  int kin_valid;     /* kin_q is set (sc_dyn_kinematics_current) */

  double* geom_aabb; /* (ngeom x 6) world AABB [min xyz, max xyz] incl. margin (collision) */
  double* geom_sweep; /* (ngeom) speculative margin of each geom this step, m (collision) */
  int* geom_order;   /* (ngeom) broad-phase sort scratch (collision) */
  int* pair_scratch; /* (2 * ngeom) broad-phase scratch (collision) */
  int* contact_order; /* (2 * ncon_max) the contacts' sort permutation (collision) */

  /* ---- velocity dependent ---- */
  double* cvel;      /* (nbody x 6) spatial velocity in world */
  double* cbias;     /* (nbody x 6) velocity-product acceleration of each body
                        relative to its parent: c_b = V_p x (S_b v_b) + X dS_J/dt v_b */
  double* cacc;      /* (nbody x 6) RNEA scratch: spatial accelerations */
  double* cfrc;      /* (nbody x 6) RNEA scratch: spatial forces */

  /* ---- dynamics ---- */
  /* M, A, K and D are block diagonal over the model's cliques and stored as
   * those blocks only, packed: clique c's n x n block (n = clique_dofnum[c],
   * rows and columns in the order of clique_dofs) column-major at
   * clique_blkadr[c], model nblk doubles in all (linear in the scene for
   * independent bodies, never nv x nv) */
  double* M;         /* (nblk) mass matrix */
  double* A;         /* (nblk) linearized momentum matrix */
  double* Afac;      /* (nblk) Cholesky factors of A's clique blocks */
  double* K;         /* (nblk) stiffness of k1 (springs) */
  double* D;         /* (nblk) damping of k1 (dampers) */
  double* bias;      /* (nv) C(q,v) v - tau_gravity (RNEA with zero acceleration) */
  double* fspring;   /* (nv) spring and damper generalized forces */
  double* fdamp;     /* (nv) the damper part of fspring */
  double* jacp;      /* (2 x 3 x nv) point-Jacobian scratch, column-major 3 x nv each */
  double* vstar;     /* (nv) free-motion velocities */
  double* qtheta;    /* (nq) mid-step positions */
  double* scratch;   /* (8 nv + nq) scratch vectors */

  /* ---- contact ---- */
  int ncon;          /* contacts this step */
  int ncon_max;      /* capacity */
  sc_contact* contact; /* (ncon_max) */
  /* The contact problem of a step has the ncon contacts first, then nrow
   * joint rows (limits, dry friction, servos, equality and tendon rows: constraint/rows.c), one
   * entry each in the arrays below from jptr on: nprob_max = ncon_max +
   * model nrow_max entries.  A row is a box row of contact/problem.h. */
  int nrow;          /* joint rows this step */
  int nprob_max;     /* capacity of the problem's per-entry arrays */
  unsigned char* ckind; /* (nprob_max) SC_ROW_CONTACT / SC_ROW_BOX */
  double* cbound;    /* (2 nprob_max) box rows' impulse bounds, N s */
  int* row_type;     /* (nrow_max) sc_joint_row_type of each row */
  int* row_ref;      /* (nrow_max) its joint (limits), dof (friction) or actuator */
  /* the contact Jacobian per contact, as its non-zero column blocks (the
   * block form of problem.h): contact i touches the columns
   * jcol[jptr[i] .. jptr[i+1]) and Jc[3 q .. 3 q + 2] are its rows (t1, t2, n)
   * in column jcol[q]; no 3 ncon x nv array */
  double* Jc;        /* (3 jcap) */
  int* jptr;         /* (nprob_max + 1) */
  int* jcol;         /* (jcap) columns (dofs on the two bodies' paths to the root) */
  int jcap;          /* capacity of jcol: 2 (longest dof chain) ncon_max + nrow_max */
  int chain_max;     /* the longest chain of dofs from a body to the world */
  int ten_width;     /* the most dofs a tendon's row touches (0: no tendon) */
  long cross_max;    /* bound on the pairs of one contact's columns that lie in
                        different cliques of the mass matrix (state.c) */
  int* jmark;        /* (2 nv) scratch marks for building jcol */
  double* R;         /* (3 nprob_max) */
  double* vhat;      /* (3 nprob_max) */
  double* mu;        /* (nprob_max) */
  double* phi0;      /* (nprob_max) */
  double* ck;        /* (nprob_max) */
  double* ctaud;     /* (nprob_max) */
  double* impulse;   /* (3 nprob_max) contact impulses (t1, t2, n), N s */
  double* slip;      /* (nprob_max) tangential speed after the step, m/s */
  double* vc0;       /* (3 nprob_max) contact velocities at the step start, m/s */
  double* vn0;       /* (nprob_max) their normal components, m/s */
  double* vc;        /* (3 nprob_max) contact velocities after the step, m/s */
  double* wdiag;     /* (nprob_max) Delassus diagonal estimates, 1/kg */
  void* solver_work; /* solver-private workspace, sized once by sc_sim_prepare */
  void (*solver_work_free)(void*);

  /* ---- energy ---- */
  double e_kinetic, e_gravity, e_spring; /* J */
  double e_damper;   /* work dissipated by dampers so far, J */
  double e_contact;  /* work dissipated by contact so far, J (= e_normal + e_friction) */
  double e_normal;   /* ... by the normal impulses, J */
  double e_friction; /* ... by the friction impulses, J */
  double damper_power; /* power dissipated by dampers in the current state, W */
  double e_actuator; /* work done by the actuators so far, J */
  double e_limit;    /* work dissipated by the joint limits so far, J */
  double e_constraint; /* work dissipated by the equality constraints so far, J */
  double e_jfriction; /* work dissipated by dry joint friction so far, J */

  /* ---- actuation of the last step (constraint/actuator.c) ---- */
  /* controls set by the library's user (include/simc.h): while ctrl[a] is
   * a number, actuator a's input (its target, for a servo) is ctrl[a]
   * instead of its command; NaN (the command) after create and reset */
  double* ctrl;      /* (nact) */
  double* act_ctrl;  /* (nact) each actuator's input at the step's time t + theta dt
                        (motor: u; position: target; velocity: target velocity) */
  double* act_force; /* (nact) generalized force it applied over the step (impulse / dt),
                        after clamping, N or N m */
  double* jnt_limit_force; /* (njnt) generalized force of the joint's limits, N or N m */
  /* equality constraints: each one's data with the parts the model takes
   * at qpos0 resolved (sc_eq_reference, before the first step), and per row
   * the violation g(q) at the current positions and the force of the last
   * step (the row's impulse / dt; N, N m, or the coordinate's force) */
  double* eq_ref;    /* (neq x SC_EQ_NDATA) */
  int eq_ready;      /* 1 once eq_ref is resolved */
  double* eq_gap;    /* (neqrow) m, rad, or the coordinate's unit */
  double* eq_force;  /* (neqrow) */
  /* tendons: each one's length at the current positions (m, or the joints'
   * unit for a fixed one), the rest length of its spring (the model's, or
   * its length at qpos0 resolved with eq_ref; NAN before), the force of its
   * limits over the last step (> 0 from the lower, < 0 from the upper), and
   * a row of scratch for a tendon's Jacobian */
  double* ten_length;      /* (ntendon) */
  double* ten_rest;        /* (ntendon) */
  double* ten_limit_force; /* (ntendon) N (or the joints' generalized force) */
  double* ten_J;           /* (nv) */
  double* ten_J2;          /* (nv) a second (a tendon equality's other tendon) */
  int* spring_dofs;        /* (nv) the dofs one spring's or tendon's row touches (sc_dyn_springs) */
  double* dof_friction_force; /* (nv) generalized force of dry joint friction, N or N m */
  double* fmotor;    /* (nv) the motors' generalized forces in the step being taken */

  /* ---- forces applied by the library's user (include/simc.h) ---- */
  /* held constant over each step, like a motor's force, until changed;
   * zero after create and reset */
  double* qfrc_applied; /* (nv) generalized forces, N or N m, in the file's coordinates
                           (a free joint's torque about its frame origin; sc_dyn_applied) */
  double* xfrc_applied; /* (nbody x 6) per body a force (N) and a torque (N m), world axes,
                           the force acting at the body's centre of mass (body 0's unused) */
  double* fapplied;     /* (nv) the two as one generalized force at the step's mid-step
                           positions q^theta (integrator.c) */
  double e_applied;     /* work done by the applied forces so far, J */

  /* ---- statistics of the last step ---- */
  int free_iterations;        /* free-motion Newton iterations */
  double free_residual;
  sc_solver_stats contact_stats; /* over the islands: see integrator.c */
  int nisland;                /* contact problems solved in the last step: its islands
                                 (1: one solve of the whole, 0: no contact) */
  sc_solver_trace* solver_trace; /* per-iteration record of the last contact solve
                                    (output.solver_trace; NULL when off) */
  double wall_time;           /* s, last step */
  double coulomb[3];          /* J, last step: the largest Signorini, maximum-
                                 dissipation and De Saxce residuals of its
                                 contact solution (contact/residual.c) */
  int relinearizations;       /* re-linearizations the last step took (integrator.relinearize) */
  double max_depth;           /* deepest contact detected at the last step's start, m (>= 0) */
  double max_depth_frac;      /* the deepest relative to the smaller geometry's bounding
                                 radius, over the last step's contacts */
  int depth_pair[2];          /* bodies of the contact with the largest max_depth_frac */
  double frac_depth;          /* and its depth, m */
  int warning[SC_NWARN];      /* counts */
  int fast_body;              /* the first body of an SC_WARN_FAST step, */
  double fast_dist, fast_time; /* how far it moved (m) and when (s) */
  double* xcom_prev;          /* (nbody x 3) centres of mass at the step start */

  /* every array above as allocated (state.c): what sc_data_copy copies and
   * sc_data_free frees, so that a new field cannot be left out of either */
  int narray;
  struct sc_data_array {
    size_t off;   /* offsetof the field holding the array's pointer */
    size_t bytes; /* its length */
  } array[SC_DATA_MAXARRAY];
} sc_data;

/* A free joint's coordinates in sc_data (q, v) are those of its child's
 * centre of mass s (body frame): the centre's position and velocity in J,
 * with the child's orientation and angular velocity in J (the step conserves
 * linear momentum exactly in them; dynamics.c).  Scenes, files and the
 * command line give the frame origin's: p_o = p_c - R s and
 * v_o = v_c - w x (R s).  These convert in place, each joint for itself
 * (v may be NULL); a body whose centre is its origin is left as it is. */
void sc_state_frame_to_com(const sc_model* m, double* q, double* v);
void sc_state_com_to_frame(const sc_model* m, double* q, double* v);
/* v alone to the frame origin's, q (either coordinates) left as it is */
void sc_state_velocity_to_frame(const sc_model* m, const double* q, double* v);

/* Quaternions of ball and free joints in q as given by a user or a file:
 * the first joint whose quaternion is zero (no rotation), -1 when none is;
 * and every quaternion made a unit one, scaled by its largest component
 * first when its squared norm would under- or overflow (1e-170, 1e200),
 * so that any non-zero one normalizes; a normal one keeps the bits
 * sc_sp_quat_normalize gives it. */
int sc_state_zero_quaternion(const sc_model* m, const double* q);
void sc_state_normalize_quaternions(const sc_model* m, double* q);

/* Allocate data for m and set the initial state (q = qpos0, v = qvel0,
 * converted by sc_state_frame_to_com). */
sc_status sc_data_create(const sc_model* m, sc_data** out, sc_error* err);
/* Reset to the initial state. */
void sc_data_reset(const sc_model* m, sc_data* d);
void sc_data_free(sc_data* d);
/* dst := src, both created for m: every array and number of sc_data (the
 * state, the derived quantities, the energies and counters, the controls
 * and applied forces), but not solver_work, which is the integrator's
 * (sc_sim_copy copies what of it a step reads).  Allocates nothing. */
void sc_data_copy(const sc_model* m, sc_data* dst, const sc_data* src);

#endif
