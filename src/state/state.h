/* state: per-run data and workspace (cf. MuJoCo's mjData).
 *
 * Everything that changes during a run lives here; every array is sized once
 * by sc_data_create from the model, so stepping never allocates.  Fields are
 * grouped by the stage that writes them. */
#ifndef SC_STATE_H
#define SC_STATE_H

#include "core/problem.h"
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
  double spin, roll; /* pair torsional and rolling friction coefficients, m */
} sc_contact;

typedef enum sc_warning {
  SC_WARN_FREE_NEWTON = 0, /* free-motion Newton hit its iteration cap */
  SC_WARN_CONTACT = 1,     /* contact solver did not converge (on_failure: warn) */
  SC_WARN_NCON = 2,        /* contact buffer full: contacts dropped */
  SC_WARN_FAST = 3,        /* with contact.speculative off, a body moved more than its
                              smallest geometry's bounding radius in a step with no
                              contact: a contact in its path may have been missed */
  SC_WARN_MIN_STEP = 4,    /* error control accepted a substep of time.min_step whose
                              error estimate was above time.accuracy */
  SC_NWARN = 5
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
  SC_JROW_TENDON_UPPER = 6, /* row_ref: the tendon */
  SC_JROW_TENDON_FRICTION = 7, /* row_ref: the tendon */
  SC_JROW_CONE = 8             /* a contact's cone tail (torsional and rolling friction,
                                  constraint/contact_law.c); row_ref: the contact */
} sc_joint_row_type;

/* The arrays of sc_data, listed once (cf. MuJoCo's mjxmacro.h): the struct
 * declares them from these lists, sc_data_create allocates them, and
 * sc_data_copy and sc_data_free copy and free them, so that an array cannot
 * be left out of any of the four.  X(type, name, count): count is an
 * expression of the sizes S (sc_data_sizes: the model's, and the capacities
 * sc_data_create computes); every array holds at least one element. */
typedef struct sc_data_sizes {
  long nq, nv, nb, nj, ng; /* positions, velocities, bodies, joints, geoms */
  long nc, np;             /* contact capacity, problem entries (contacts + rows) */
  long jcap, nblk;         /* Jacobian columns, packed clique blocks */
  long nrow, nact, neq, neqrow, nten; /* the model's rows, actuators, equalities, tendons */
  long njw;                /* the contacts' angular rows: 3 jcap with cone tails, else 0 */
} sc_data_sizes;

#define SC_DATA_STATE(X) \
  X(double, q, S.nq)  /* (nq) */ \
  X(double, v, S.nv)  /* (nv) */

#define SC_DATA_KINEMATICS(X) \
  X(double, xpos, 3 * S.nb)      /* body origin in world, m */ \
  X(double, xrot, 9 * S.nb)      /* body orientation in world (row-major) */ \
  X(double, xcom, 3 * S.nb)      /* body c.o.m. in world, m */ \
  X(double, jxpos, 3 * S.nj)     /* joint frame J origin in world, m */ \
  X(double, jxrot, 9 * S.nj)     /* joint frame J orientation in world */ \
  X(double, cdof, 6 * S.nv)      /* motion subspace columns in world (Plucker at world origin) */ \
  X(double, cinert, 36 * S.nb)   /* spatial inertia in world about world origin */ \
  X(double, crb, 36 * S.nb)      /* composite rigid-body inertia (CRBA scratch) */ \
  X(double, geom_xpos, 3 * S.ng) \
  X(double, geom_xrot, 9 * S.ng) \
  X(double, kin_q, S.nq)         /* the positions the fields above were computed at */

#define SC_DATA_COLLISION(X) \
  X(double, geom_aabb, 6 * S.ng)   /* world AABB [min xyz, max xyz] incl. margin */ \
  X(double, geom_sweep, S.ng)      /* speculative margin of each geom this step, m */ \
  X(int, geom_order, S.ng)         /* broad-phase sort scratch */ \
  X(int, pair_scratch, 2 * S.ng)   /* broad-phase scratch */ \
  X(int, contact_order, 2 * S.nc)  /* the contacts' sort permutation */

#define SC_DATA_VELOCITY(X) \
  X(double, cvel, 6 * S.nb)   /* spatial velocity in world */ \
  X(double, cbias, 6 * S.nb)  /* velocity-product acceleration of each body relative to \
                                 its parent: c_b = V_p x (S_b v_b) + X dS_J/dt v_b */ \
  X(double, cacc, 6 * S.nb)   /* RNEA scratch: spatial accelerations */ \
  X(double, cfrc, 6 * S.nb)   /* RNEA scratch: spatial forces */

/* M, A, K and D are block diagonal over the model's cliques and stored as
 * those blocks only, packed: clique c's n x n block (n = clique_dofnum[c],
 * rows and columns in the order of clique_dofs) column-major at
 * clique_blkadr[c], model nblk doubles in all (linear in the scene for
 * independent bodies, never nv x nv) */
#define SC_DATA_DYNAMICS(X) \
  X(double, M, S.nblk)             /* mass matrix */ \
  X(double, A, S.nblk)             /* linearized momentum matrix */ \
  X(double, Afac, S.nblk)          /* Cholesky factors of A's clique blocks */ \
  X(double, K, S.nblk)             /* stiffness of k1 (springs) */ \
  X(double, D, S.nblk)             /* damping of k1 (dampers) */ \
  X(double, bias, S.nv)            /* C(q,v) v - tau_gravity (RNEA with zero acceleration) */ \
  X(double, fspring, S.nv)         /* spring and damper generalized forces */ \
  X(double, fdamp, S.nv)           /* the damper part of fspring */ \
  X(double, jacp, 6 * S.nv)        /* point-Jacobian scratch, two column-major 3 x nv */ \
  X(double, vstar, S.nv)           /* free-motion velocities */ \
  X(double, qtheta, S.nq)          /* mid-step positions */ \
  X(double, scratch, 8 * S.nv + S.nq) /* scratch vectors */

/* The contact problem of a step has the ncon contacts first, then nrow
 * joint rows (limits, dry friction, servos, equality and tendon rows:
 * constraint/rows.c), one entry each in the per-entry arrays (np =
 * nprob_max = ncon_max + model nrow_max entries).  A row is a box row of
 * core/problem.h.  The contact Jacobian per entry is its non-zero column
 * blocks (the block form of problem.h): entry i touches the columns
 * jcol[jptr[i] .. jptr[i+1]) and Jc[3 q .. 3 q + 2] are its rows (t1, t2, n)
 * in column jcol[q]; no 3 ncon x nv array */
#define SC_DATA_CONTACT(X) \
  X(sc_contact, contact, S.nc)        /* this step's contacts */ \
  X(unsigned char, ckind, S.np)       /* SC_ROW_CONTACT / SC_ROW_BOX / SC_ROW_CONE_TAIL */ \
  X(int, ctail, S.np)                 /* each contact's cone tail entry, or -1 (problem.h) */ \
  X(double, cbound, 2 * S.np)         /* box rows' impulse bounds, N s */ \
  X(int, row_type, S.nrow + 1)        /* sc_joint_row_type of each row */ \
  X(int, row_ref, S.nrow + 1)         /* its joint (limits), dof (friction) or actuator */ \
  X(double, Jc, 3 * S.jcap) \
  X(double, Jw, S.njw)                /* per contact column as Jc: the relative angular \
                                         velocity's rows (n, t1, t2), for the cone tails */ \
  X(int, jptr, S.np + 1) \
  X(int, jcol, S.jcap)                /* columns (dofs on the two bodies' paths to the root) */ \
  X(int, jmark, 2 * S.nv + 1)         /* scratch marks for building jcol (-1 when unused) */ \
  X(double, R, 3 * S.np) \
  X(double, vhat, 3 * S.np) \
  X(double, mu, S.np) \
  X(double, phi0, S.np) \
  X(double, ck, S.np) \
  X(double, ctaud, S.np) \
  X(double, impulse, 3 * S.np)        /* contact impulses (t1, t2, n), N s */ \
  X(double, slip, S.np)               /* tangential speed after the step, m/s */ \
  X(double, vc0, 3 * S.np)            /* contact velocities at the step start, m/s */ \
  X(double, vn0, S.np)                /* their normal components, m/s */ \
  X(double, vc, 3 * S.np)             /* contact velocities after the step, m/s */ \
  X(double, wdiag, S.np)              /* Delassus diagonal estimates, 1/kg */

/* Actuation of the last step (constraint/actuator.c).  ctrl: controls set by
 * the library's user (include/simc.h): while ctrl[a] is a number, actuator
 * a's input (its target, for a servo) is ctrl[a] instead of its command; NaN
 * (the command) after create and reset.  Equality constraints: each one's
 * data with the parts the model takes at qpos0 resolved (sc_eq_reference,
 * before the first step), and per row the violation g(q) at the current
 * positions and the force of the last step (the row's impulse / dt; N, N m,
 * or the coordinate's force).  Tendons: each one's length at the current
 * positions (m, or the joints' unit for a fixed one), the rest length of its
 * spring (the model's, or its length at qpos0 resolved with eq_ref; NAN
 * before), the force of its limits over the last step (> 0 from the lower,
 * < 0 from the upper), and rows of scratch for tendon Jacobians. */
#define SC_DATA_ACTUATION(X) \
  X(double, ctrl, S.nact + 1) \
  X(double, act_ctrl, S.nact + 1)   /* each actuator's input at the step's time t + theta dt \
                                       (motor: u; position: target; velocity: target velocity) */ \
  X(double, act_force, S.nact + 1)  /* generalized force it applied over the step (impulse / \
                                       dt), after clamping, N or N m */ \
  X(double, jnt_limit_force, S.nj + 1) /* generalized force of the joint's limits, N or N m */ \
  X(double, eq_ref, SC_EQ_NDATA * S.neq + 1) \
  X(double, eq_gap, S.neqrow + 1)   /* m, rad, or the coordinate's unit */ \
  X(double, eq_force, S.neqrow + 1) \
  X(double, ten_length, S.nten + 1) \
  X(double, ten_rest, S.nten + 1) \
  X(double, ten_limit_force, S.nten + 1) /* N (or the joints' generalized force) */ \
  X(double, ten_friction_force, S.nten + 1) /* its dry friction's force over the last step, \
                                               along L (N, or the joints' force) */ \
  X(double, ten_J, S.nv + 1) \
  X(double, ten_J2, S.nv + 1)       /* a second (a tendon equality's other tendon) */ \
  X(int, spring_dofs, S.nv + 1)     /* the dofs one spring's or tendon's row touches */ \
  X(double, dof_friction_force, S.nv + 1) /* generalized force of dry joint friction */ \
  X(double, fmotor, S.nv + 1)       /* the motors' generalized forces in the step being taken */

/* Forces applied by the library's user (include/simc.h), held constant over
 * each step, like a motor's force, until changed; zero after create and
 * reset.  qfrc_applied: generalized forces, N or N m, in the file's
 * coordinates (a free joint's torque about its frame origin;
 * sc_dyn_applied); xfrc_applied: per body a force (N) and a torque (N m),
 * world axes, the force acting at the body's centre of mass (body 0's
 * unused); fapplied: the two as one generalized force at the step's
 * mid-step positions q^theta (integrator.c). */
#define SC_DATA_APPLIED(X) \
  X(double, qfrc_applied, S.nv + 1) \
  X(double, xfrc_applied, 6 * S.nb + 1) \
  X(double, fapplied, S.nv + 1)

#define SC_DATA_HISTORY(X) \
  X(double, xcom_prev, 3 * S.nb + 1)  /* centres of mass at the step start */

#define SC_DATA_ARRAYS(X) \
  SC_DATA_STATE(X) SC_DATA_KINEMATICS(X) SC_DATA_COLLISION(X) SC_DATA_VELOCITY(X) \
  SC_DATA_DYNAMICS(X) SC_DATA_CONTACT(X) SC_DATA_ACTUATION(X) SC_DATA_APPLIED(X) \
  SC_DATA_HISTORY(X)

#define SC_DATA_DECLARE(type, name, count) type* name;

typedef struct sc_data {
  /* ---- state ---- */
  double time;       /* s */
  long step;         /* steps taken */
  double h;          /* the length of the step being taken, s: time.step (sc_step),
                        or an error-controlled substep's (sc_step_of, adaptive.c) */
  SC_DATA_STATE(SC_DATA_DECLARE)

  /* ---- position dependent (sc_dyn_kinematics) ---- */
  SC_DATA_KINEMATICS(SC_DATA_DECLARE)
  int kin_valid;     /* kin_q is set (sc_dyn_kinematics_current) */
  SC_DATA_COLLISION(SC_DATA_DECLARE)

  /* ---- velocity dependent ---- */
  SC_DATA_VELOCITY(SC_DATA_DECLARE)

  /* ---- dynamics ---- */
  SC_DATA_DYNAMICS(SC_DATA_DECLARE)

  /* ---- contact ---- */
  int ncon;          /* contacts this step */
  int ncon_max;      /* capacity */
  int nrow;          /* joint rows this step */
  int nprob_max;     /* capacity of the problem's per-entry arrays */
  int jcap;          /* capacity of jcol: 2 (longest dof chain) ncon_max + nrow_max */
  int chain_max;     /* the longest chain of dofs from a body to the world */
  int ten_width;     /* the most dofs a tendon's row touches (0: no tendon) */
  long cross_max;    /* bound on the pairs of one contact's columns that lie in
                        different cliques of the mass matrix (state.c) */
  SC_DATA_CONTACT(SC_DATA_DECLARE)
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
  double e_applied;  /* work done by the applied forces so far, J */

  /* ---- actuation, equalities and tendons of the last step ---- */
  SC_DATA_ACTUATION(SC_DATA_DECLARE)
  int eq_ready;      /* 1 once eq_ref is resolved */

  /* ---- forces applied by the library's user ---- */
  SC_DATA_APPLIED(SC_DATA_DECLARE)

  /* ---- statistics of the last step ---- */
  int free_iterations;        /* free-motion Newton iterations */
  double free_residual;
  int afac_current;           /* 1 while Afac holds the factors of A as it is
                                 (the contact stage's Delassus estimate then
                                 reuses them) */
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

  /* ---- error control (time.accuracy; integrator/adaptive.c) ---- */
  struct sc_data* adapt[2];   /* a substep's trial and its start's backup, made by
                                 sc_sim_prepare; NULL without time.accuracy */
  int adapt_scratch;          /* 1 in those two: they make none of their own */
  double h_next;              /* the controller's next substep, s (0: time.step) */
  double err_prev;            /* the last accepted substep's error / accuracy */
  int substeps, rejected;     /* the last interval's accepted and rejected substeps */
  double shortest;            /* the last interval's shortest accepted substep, s */
  long substeps_total, rejected_total; /* since the start */
  SC_DATA_HISTORY(SC_DATA_DECLARE)
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

/* The contact buffer's capacity data for m get: contact.max_contacts, or
 * one sized from the geometry (state.c) */
int sc_data_contact_capacity(const sc_model* m);
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
