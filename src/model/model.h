/* model: what a scene describes, immutable after load (cf. MuJoCo's mjModel).
 *
 * Flat arrays named <object>_<attr>, indexed by object id, counts n<object>.
 * Body 0 is the world.  Bodies are stored in topological order: a body's
 * parent always has a smaller index.  Every body b > 0 has exactly one joint
 * (possibly fixed) connecting it to body_parent[b]; joint id = body id - 1 is
 * NOT assumed: use body_jnt[b].  Units are SI throughout. */
#ifndef SC_MODEL_H
#define SC_MODEL_H

#include <stdint.h>

#include "core/core.h"
#include "spatial/spatial.h"
#include "core/problem.h" /* sc_contact_model */
#include "linalg/blockdiag.h"
#include "mesh/mesh.h"

typedef enum sc_joint_type {
  SC_JOINT_FIXED = 0,     /* nq 0, nv 0 */
  SC_JOINT_REVOLUTE = 1,  /* nq 1, nv 1: angle about axis (in J) */
  SC_JOINT_PRISMATIC = 2, /* nq 1, nv 1: displacement along axis (in J) */
  SC_JOINT_PLANAR = 3,    /* nq 3, nv 3: [x, y, theta] in J's x-y plane */
  SC_JOINT_BALL = 4,      /* nq 4 (quat w,x,y,z of child in J), nv 3 (omega in J) */
  SC_JOINT_FREE = 5       /* nq 7 [p, quat], nv 6 [v_origin, omega], both in J */
} sc_joint_type;

#define SC_JNT_MAXDOF 6

typedef enum sc_actuator_type {
  SC_ACT_MOTOR = 0,    /* generalized force gear * u, clamped to the effort bounds */
  SC_ACT_POSITION = 1, /* implicit PD servo to a commanded position */
  SC_ACT_VELOCITY = 2  /* implicit servo to a commanded velocity */
} sc_actuator_type;
#define SC_ACT_THETA_AUTO (-1.0)

/* Equality constraints (constraint/equality.c): a relation of positions
 * held by rows of the contact problem. */
typedef enum sc_eq_type {
  SC_EQ_CONNECT = 0,  /* a point of body a at a point of body b (a ball joint): 3 rows */
  SC_EQ_WELD = 1,     /* body b's frame fixed in body a's: 3 + 3 rows */
  SC_EQ_JOINT = 2,    /* q1 - r1 = poly(q2 - r2) on two joint coordinates: 1 row */
  SC_EQ_DISTANCE = 3, /* |p_b - p_a| = L between two body points: 1 row */
  SC_EQ_TENDON = 4    /* L1 - r1 = poly(L2 - r2) on two tendons' lengths: 1 row */
} sc_eq_type;
/* eq_data per constraint (SC_EQ_NDATA doubles):
 *   connect, weld, distance: [0..2] the point on a in a's frame, [3..5] the
 *     point on b in b's frame (m); weld: [6..14] the rotation of b's frame
 *     in a's (row-major); distance: [6] L (m);
 *   joint: [0..4] the polynomial's coefficients c0..c4, [5] r1, [6] r2
 *     (q1 - r1 = c0 + c1 x + ... + c4 x^4, x = q2 - r2; the coordinates'
 *     unit, m or rad);
 *   tendon: the same on the lengths of tendons 1 and 2 (eq_obj; 2 may be
 *     -1); a reference marked SC_EQ_AUTO_LENGTH is tendon 1's length at
 *     qpos0 (r1), and tendon 2's (r2).
 * A part marked in eq_auto (SC_EQ_AUTO_*) is not given: it is what it is at
 * qpos0, resolved by sc_eq_reference before the first step. */
#define SC_EQ_NDATA 15

/* Tendons (constraint/tendon.c, dynamics.c): a length L(q), either a
 * linear combination of joint coordinates (fixed) or the length of a path
 * of straight segments through body points (spatial), with limits on L
 * (rows of the contact problem, like a joint's) and a spring-damper along
 * it (a passive force, like a linear spring). */
/* a slider-crank's three path elements: the crank point, the slider
 * point, and the slider's axis (a unit vector of the slider point's body,
 * in wrap_point); its rod length in wrap_coef of the first */
typedef enum sc_tendon_type { SC_TENDON_FIXED = 0, SC_TENDON_SPATIAL = 1, SC_TENDON_SLIDER_CRANK = 2 } sc_tendon_type;
/* a spatial path's elements: a point; a pulley (a new branch, wrap_coef
 * its divisor, wrap_body -1); a sphere or cylinder the path wraps around
 * between the points on either side (wrap_body its body, wrap_point its
 * centre, wrap_coef its radius, wrap_axis a cylinder's axis, wrap_side_*
 * the optional side point choosing the side) */
typedef enum sc_wrap_type { SC_WRAP_POINT = 0, SC_WRAP_PULLEY = 1, SC_WRAP_SPHERE = 2, SC_WRAP_CYLINDER = 3 } sc_wrap_type;
enum { SC_EQ_AUTO_POINT_B = 1, SC_EQ_AUTO_ROT = 2, SC_EQ_AUTO_LENGTH = 4 };

enum { SC_INTERP_LINEAR = 0, SC_INTERP_HOLD = 1 };

typedef enum sc_geom_type {
  SC_GEOM_PLANE = 0,   /* static only; size unused; normal = geom z axis */
  SC_GEOM_SPHERE = 1,  /* size[0] = radius */
  SC_GEOM_CAPSULE = 2, /* size[0] = radius, size[1] = segment length (along z) */
  SC_GEOM_BOX = 3,     /* size[0..2] = half extents */
  SC_GEOM_CYLINDER = 4, /* size[0] = radius, size[1] = length (along z) */
  SC_GEOM_ELLIPSOID = 5, /* size[0..2] = semi-axes along x, y, z */
  SC_GEOM_MESH = 6      /* geom_mesh: the mesh (its convex hull collides); size = the
                           hull's bounding box half extents (set by finalize) */
} sc_geom_type;
#define SC_NGEOMTYPE 7
#define SC_MAX_THREADS 256 /* contact.threads upper bound */

typedef enum sc_scheme {
  SC_SCHEME_EXPLICIT_EULER = 0,
  SC_SCHEME_SYMPLECTIC_EULER = 1,
  SC_SCHEME_IMPLICIT_EULER = 2,
  SC_SCHEME_MIDPOINT = 3,
  SC_SCHEME_THETA = 4
} sc_scheme;

#define SC_CONTACT_THETA_AUTO (-1.0)
/* contact.restitution_velocity: auto */
#define SC_RESTITUTION_VELOCITY_AUTO (-1.0)
#define SC_CONTACT_THETA_SCHEME (-2.0)

typedef enum sc_solver_kind { SC_SOLVER_NEWTON = 0, SC_SOLVER_LCP = 1 } sc_solver_kind;

typedef enum sc_on_failure { SC_ON_FAILURE_ABORT = 0, SC_ON_FAILURE_WARN = 1 } sc_on_failure;

/* Options: time stepping, solvers, output. */
typedef struct sc_options {
  double dt;        /* time step, s */
  double duration;  /* simulated time, s */
  double accuracy;  /* error control's tolerance on each substep's local error
                       estimate (integrator/adaptive.c); 0: fixed steps of dt */
  double min_step;  /* error control's shortest substep, s (default dt / 1000) */
  double reg_step;  /* contact.regularization_step: the step near-rigid contact laws are
                       written for, s (0: each step's own; error control: dt) */
  double gravity[3];/* m/s^2, world frame */
  /* the medium the bodies move in (MuJoCo's inertia-box fluid model,
   * dynamics.c): density kg/m^3, viscosity Pa s, wind m/s in the world
   * frame; density = viscosity = 0 (the default): no fluid force */
  double fluid_density, fluid_viscosity, wind[3];
  sc_scheme scheme;
  double theta_q, theta_v, theta_vq; /* theta-method parameters in [0, 1] */
  double newton_tol;  /* free-motion stage relative residual tolerance */
  int newton_maxit;   /* free-motion stage iteration cap */
  sc_solver_kind solver;
  double contact_tol;   /* relative momentum residual (SAP eps_r) */
  int contact_maxit;
  int cg_iterations;    /* conjugate-gradient iterations a Newton direction may take from a
                           held factorization (sc_sap_params.cg_max_iterations); 0: none */
  sc_on_failure on_failure;
  int lcp_directions;   /* edges of the polyhedral cone (even, >= 4) */
  int lcp_warm_start;   /* Lemke from the previous step's basis first (0/1) */
  double lcp_max_memory; /* bound of the dense LCP workspace, MiB */
  double sigma;         /* friction regularization (SAP), dimensionless */
  double beta;          /* near-rigid threshold (SAP), dimensionless */
  double slip_curvature; /* SAP Newton Hessian: extra curvature along the slip of
                            sliding contacts (sc_sap_params), dimensionless; < 0 (the
                            default): the contact model's value */
  double contact_theta; /* theta of the contact law: > 0 that value for every contact;
                           SC_CONTACT_THETA_AUTO 1 for contacts whose spring the step
                           does not resolve (near-rigid ones always), theta_vq for the
                           others; SC_CONTACT_THETA_SCHEME every contact theta_vq */
  double near_rigid_depth; /* depth a near-rigid contact may settle to under its load, as a
                              fraction of the smaller geometry's bounding radius (beta is
                              lowered per contact to keep it); 0: beta fixed */
  double beta_min;      /* the lowest beta that depth control may choose */
  int contact_passes;   /* re-solves of an island per step that update its contacts'
                           lagged friction bound and near-rigid beta from its own
                           impulses; 0: none */
  int relinearize;      /* re-linearizations of the momentum balance about the contact
                           solution per step (schemes implicit in v, non-affine models) */
  double penetration_warning; /* a contact deeper than this fraction of the smaller
                                 geometry's bounding radius is reported */
  double margin;        /* contact detection margin, m */
  int friction_max;     /* a pair's friction: 1 the larger of its shapes' (MuJoCo's
                           rule), 0 their harmonic mean */
  int speculative;      /* 1: each geom's margin grows by the distance its bounding sphere
                           can travel in a step (collision/broad.c) */
  int midstep_jacobian; /* 1: the contact Jacobian at the predicted q^theta, 0: at q0 */
  double stiction_anchor; /* fraction of a sticking contact's slip since it began to stick
                             that its friction aims to undo in a step (newton solver,
                             doc/contact.md 4.6); 0: no anchor */
  double restitution_velocity; /* m/s: a contact approaching slower than this at the step
                                  start takes no restitution target (doc/contact.md 4.7);
                                  SC_RESTITUTION_VELOCITY_AUTO: 2 |g| dt */
  int contact_model;    /* sc_contact_model (core/problem.h) of the newton solver */
  int ncon_max;         /* capacity of the contact buffer */
  int threads;          /* threads solving contact islands (newton solver); 0: one per
                           online CPU.  Results do not depend on it. */
  int output_every;     /* record every k-th step */
  int output_contacts;  /* write /contact datasets */
  int output_solver_trace; /* write /solver/trace (per Newton iteration) */
} sc_options;

/* The arrays of sc_model, listed once (as sc_data's in state.h): the struct
 * declares them from these lists, sc_model_alloc allocates the scene's,
 * sc_model_finalize the derived ones, and sc_model_free frees all of them,
 * so that none can be left out of the free.  X(type, name, count): count is
 * an expression of the model m's sizes (for the derived arrays, the size
 * finalize allocates; sc_calloc gives every array at least one element). */

/* ---- bodies (nbody) ---- */
#define SC_MODEL_BODY(X) \
  X(int, body_parent, m->nbody)        /* -1 for the world */ \
  X(int, body_jnt, m->nbody)           /* joint connecting the body to its parent, -1 for world */ \
  X(int, body_tree, m->nbody)          /* tree id, -1 for world */ \
  X(double, body_mass, m->nbody)       /* kg */ \
  X(double, body_com, 3 * m->nbody)    /* centre of mass in body frame, m */ \
  X(double, body_inertia, 9 * m->nbody) /* rotational inertia about the c.o.m., body axes, kg m^2 */

/* ---- joints (njnt); per dof of the joint, SC_JNT_MAXDOF slots per joint
 * (slot k: the joint's k-th velocity), copied to the dof_ arrays by
 * finalize; limits (revolute and prismatic joints): q in [lower, upper] ---- */
#define SC_MODEL_JOINT(X) \
  X(sc_joint_type, jnt_type, m->njnt) \
  X(int, jnt_body, m->njnt)            /* child body */ \
  X(int, jnt_qadr, m->njnt)            /* first index in q */ \
  X(int, jnt_vadr, m->njnt)            /* first index in v */ \
  X(int, jnt_nq, m->njnt) \
  X(int, jnt_nv, m->njnt) \
  X(double, jnt_axis, 3 * m->njnt)     /* unit axis in J (revolute, prismatic) */ \
  X(double, jnt_pos, 3 * m->njnt)      /* J origin in the parent body frame, m */ \
  X(double, jnt_rot, 9 * m->njnt)      /* J orientation in the parent body frame */ \
  X(double, jnt_damping, SC_JNT_MAXDOF * m->njnt)   /* viscous damping, N s/m or N m s/rad */ \
  X(double, jnt_armature, SC_JNT_MAXDOF * m->njnt)  /* added inertia on the dof's diagonal, \
                                                       kg or kg m^2 */ \
  X(double, jnt_frictionloss, SC_JNT_MAXDOF * m->njnt) /* dry Coulomb friction, N or N m \
                                                          (0: none) */ \
  X(double, jnt_range, 2 * m->njnt)    /* lower, upper, m or rad (-INFINITY / INFINITY: none) */ \
  X(double, jnt_limit_k, m->njnt)      /* stiffness of the limit, N/m or N m/rad (INFINITY: \
                                          rigid) */ \
  X(double, jnt_limit_taud, m->njnt)   /* its dissipation time scale, s */

/* ---- geometry (ngeom) and meshes (nmesh) ---- */
#define SC_MODEL_GEOM(X) \
  X(sc_geom_type, geom_type, m->ngeom) \
  X(int, geom_body, m->ngeom)          /* 0 = static (world) */ \
  X(double, geom_pos, 3 * m->ngeom)    /* in the body frame (plane: a point on it) */ \
  X(double, geom_rot, 9 * m->ngeom)    /* in the body frame (plane: z axis = normal) */ \
  X(double, geom_size, 3 * m->ngeom)   /* see sc_geom_type */ \
  X(double, geom_stiffness, m->ngeom)  /* N/m; INFINITY for "rigid" */ \
  X(double, geom_dissipation, m->ngeom) /* tau_d, s */ \
  X(double, geom_friction, m->ngeom)   /* mu */ \
  X(double, geom_hc_dissipation, m->ngeom) /* Hunt-Crossley dissipation d, s/m (similar, \
                                              lagged) */ \
  X(double, geom_restitution, m->ngeom) /* coefficient of restitution e in [0, 1] \
                                           (doc/contact.md 4.7) */ \
  X(double, geom_spin, m->ngeom)       /* torsional friction coefficient, m (0: none) */ \
  X(double, geom_roll, m->ngeom)       /* rolling friction coefficient, m (0: none) */ \
  X(double, geom_rbound, m->ngeom)     /* bounding-sphere radius about geom_pos (INFINITY for \
                                          plane), m */ \
  X(int, geom_mesh, m->ngeom)          /* SC_GEOM_MESH: index into mesh, else -1 */ \
  /* contact filtering, MuJoCo's rule: geoms a and b may touch only when \
   * (contype_a & conaffinity_b) | (contype_b & conaffinity_a) is non-zero \
   * (both 1 by default: everything touches) */ \
  X(uint32_t, geom_contype, m->ngeom) \
  X(uint32_t, geom_conaffinity, m->ngeom) \
  X(int, exclude_body, 2 * m->nexclude) /* (nexclude x 2) body pairs whose geoms never touch; \
                                           finalize orders each pair (a < b) and the list by \
                                           (a, b), without repeats, for a binary search in \
                                           the broad phase */ \
  X(sc_mesh, mesh, m->nmesh)           /* the meshes, with their hulls and mass properties */

/* ---- joint springs (njspring): tau = -k (q - rest) - c v on one dof, and
 * linear springs (nlspring) between two body points ---- */
#define SC_MODEL_SPRING(X) \
  X(int, jspring_jnt, m->njspring)     /* joint (revolute, prismatic or planar) */ \
  X(int, jspring_local, m->njspring)   /* dof within the joint */ \
  X(int, jspring_dof, m->njspring)     /* velocity index (set by finalize) */ \
  X(int, jspring_qadr, m->njspring)    /* position index (set by finalize) */ \
  X(double, jspring_k, m->njspring)    /* N/m or N m/rad */ \
  X(double, jspring_c, m->njspring)    /* N s/m or N m s/rad */ \
  X(double, jspring_rest, m->njspring) \
  X(int, lspring_body, 2 * m->nlspring)   /* bodies a, b (0 = world) */ \
  X(double, lspring_point, 6 * m->nlspring) /* points in body frames: a then b, m */ \
  X(double, lspring_k, m->nlspring)    /* N/m */ \
  X(double, lspring_c, m->nlspring)    /* N s/m */ \
  X(double, lspring_rest, m->nlspring) /* m */

/* ---- actuators (nact) on one dof of a revolute, prismatic or planar
 * joint, or on a tendon ---- */
#define SC_MODEL_ACTUATOR(X) \
  X(int, act_type, m->nact)            /* sc_actuator_type */ \
  X(int, act_jnt, m->nact)             /* joint (-1: the actuator pulls on a tendon) */ \
  X(int, act_tendon, m->nact)          /* tendon it pulls on (its force along the tendon's \
                                          row, as a row of the contact problem), -1: a \
                                          joint's */ \
  X(int, act_local, m->nact)           /* dof within the joint */ \
  X(int, act_dof, m->nact)             /* velocity index (set by finalize; -1 on a tendon) */ \
  X(int, act_qadr, m->nact)            /* position index (set by finalize; -1 on a tendon) */ \
  X(double, act_gear, m->nact)         /* motor: generalized force per unit command */ \
  X(double, act_kp, m->nact)           /* position servo stiffness, N/m or N m/rad */ \
  X(double, act_kd, m->nact)           /* servo damping, N s/m or N m s/rad */ \
  X(double, act_effort, 2 * m->nact)   /* bounds of the generalized force, N or N m \
                                          (-INFINITY / INFINITY: none) */ \
  X(int, act_cmd, m->nact)             /* command of the input (motor: u; position: target \
                                          q; velocity: target v), -1: the constant act_input */ \
  X(double, act_input, 2 * m->nact)    /* constant input and constant commanded velocity \
                                          (position servo) when their command is -1 */ \
  X(int, act_cmd_vel, m->nact)         /* command of a position servo's commanded velocity, \
                                          -1: constant */ \
  X(double, act_theta, m->nact)        /* servo law's theta in (0, 1], SC_ACT_THETA_AUTO: see \
                                          constraint/actuator.c */

/* ---- equality constraints (neq) ---- */
#define SC_MODEL_EQUALITY(X) \
  X(int, eq_type, m->neq)              /* sc_eq_type */ \
  X(int, eq_obj, 2 * m->neq)           /* connect, weld, distance: bodies a, b (0 = world); \
                                          joint: joints 1 and 2 (-1: none, q1 - r1 = c0); \
                                          tendon: tendons 1 and 2 (-1: none) */ \
  X(double, eq_data, SC_EQ_NDATA * m->neq) /* see SC_EQ_NDATA */ \
  X(int, eq_auto, m->neq)              /* SC_EQ_AUTO_* bits: parts taken at qpos0 */ \
  X(double, eq_k, m->neq)              /* stiffness of each row, INFINITY: rigid (N/m for a \
                                          point's rows and a distance, N m/rad for a weld's \
                                          rotation, the coordinate's for a joint coupling) */ \
  X(double, eq_taud, m->neq)           /* dissipation time scale, s */ \
  X(int, eq_rowadr, m->neq)            /* first row among the neqrow (set by finalize) */ \
  X(int, eq_nrow, m->neq)              /* rows: 3, 6, 1, 1 by type (set by finalize) */

/* ---- tendons (ntendon) and their path elements (nwrap) ---- */
#define SC_MODEL_TENDON(X) \
  X(int, ten_type, m->ntendon)         /* sc_tendon_type */ \
  X(int, ten_wrapadr, m->ntendon)      /* first element */ \
  X(int, ten_wrapnum, m->ntendon)      /* elements (fixed: >= 1 joints; spatial: >= 2 points; \
                                          slider-crank: 3) */ \
  X(double, ten_range, 2 * m->ntendon) /* lower, upper length, m (or the joints' unit for a \
                                          fixed tendon); -INFINITY / INFINITY: none */ \
  X(double, ten_limit_k, m->ntendon)   /* stiffness of the limits (INFINITY: rigid) */ \
  X(double, ten_limit_taud, m->ntendon) /* their dissipation time scale, s */ \
  X(double, ten_k, m->ntendon)         /* spring stiffness along the tendon, N/m (0: none) */ \
  X(double, ten_c, m->ntendon)         /* damping along the tendon, N s/m */ \
  X(double, ten_rest, m->ntendon)      /* the spring's rest length; NAN: the length at qpos0 */ \
  X(double, ten_frictionloss, m->ntendon) /* dry friction along the tendon, N (a fixed \
                                             tendon: its joints' generalized force); 0: none */ \
  X(int, wrap_jnt, m->nwrap)           /* fixed: the joint (revolute or prismatic) */ \
  X(double, wrap_coef, m->nwrap)       /* fixed: its coefficient; slider-crank: the rod \
                                          length, m */ \
  X(int, wrap_body, m->nwrap)          /* spatial: the point's body (0 = world) */ \
  X(double, wrap_point, 3 * m->nwrap)  /* spatial: the point in its body's frame, m */ \
  X(int, wrap_type, m->nwrap)          /* spatial: sc_wrap_type */ \
  X(double, wrap_axis, 3 * m->nwrap)   /* a wrapping cylinder's axis in its body's frame (unit) */ \
  X(int, wrap_side_body, m->nwrap)     /* a wrapping shape's side point's body, -1: none */ \
  X(double, wrap_side_point, 3 * m->nwrap) /* that point in its body's frame, m */

/* ---- commands (ncmd): piecewise-linear or held tables of (time, value);
 * outside its time range a command holds its end value ---- */
#define SC_MODEL_COMMAND(X) \
  X(int, cmd_interp, m->ncmd)          /* SC_INTERP_LINEAR or SC_INTERP_HOLD */ \
  X(int, cmd_adr, m->ncmd)             /* first sample in cmd_time / cmd_value */ \
  X(int, cmd_len, m->ncmd)             /* samples (>= 1; strictly increasing times) */

/* the command samples (ncmddata), allocated by sc_model_alloc_commands */
#define SC_MODEL_COMMAND_DATA(X) \
  X(double, cmd_time, m->ncmddata)     /* s */ \
  X(double, cmd_value, m->ncmddata)    /* the command's unit (see the actuator) */

/* ---- what finalize derives ---- */
#define SC_MODEL_DERIVED(X) \
  X(double, jnt_com, 3 * m->njnt)      /* a free joint's coordinates are those of this point \
                                          of its child (body frame, m): the child's centre of \
                                          mass, or zeros (the frame origin) when the body's \
                                          centre is its origin or the joint has armature, \
                                          damping or dry friction on its linear velocity (see \
                                          dynamics.c and sc_state_frame_to_com) */ \
  X(double, qpos0, m->nq)              /* initial positions */ \
  X(double, qvel0, m->nv)              /* initial velocities */ \
  X(int, dof_jnt, m->nv)               /* joint that owns each velocity */ \
  X(int, dof_tree, m->nv)              /* tree of each velocity */ \
  X(double, dof_damping, m->nv)        /* from jnt_damping */ \
  X(double, dof_armature, m->nv)       /* from jnt_armature */ \
  X(double, dof_frictionloss, m->nv)   /* from jnt_frictionloss */ \
  X(double, body_fluid_box, 3 * m->nbody) /* see any_fluid */ \
  X(double, body_fluid_rot, 9 * m->nbody) \
  /* cliques: groups of trees coupled by linear springs; the mass, stiffness \
   * and damping matrices are block diagonal over cliques */ \
  X(int, clique_dofadr, m->nclique)    /* first entry in clique_dofs */ \
  X(int, clique_dofnum, m->nclique)    /* dofs in the clique (may be 0) */ \
  X(int, clique_dofs, m->nv)           /* dof indices grouped by clique, increasing within one */ \
  X(int, clique_blkadr, m->nclique)    /* offset of the clique's dense block in a packed \
                                          block-diagonal store of size nblk */ \
  X(int, dof_clique, m->nv)            /* clique of each dof */ \
  X(int, dof_cliqueloc, m->nv)         /* its position within the clique (in clique_dofs) */ \
  X(int, body_cparent, m->nbody)       /* the parent for contact filtering: the nearest \
                                          ancestor that is not a link (a body of mass 0 \
                                          without geometry; 0 = the world) */ \
  X(int, body_weld, m->nbody)          /* the body a body is welded to: itself, or through a \
                                          chain of fixed joints the nearest ancestor on a \
                                          joint that moves (0: welded to the world, as the \
                                          world itself); bodies with one weld cannot move \
                                          relative to each other and never touch */ \
  X(double, body_rmin, m->nbody)       /* the smallest geom_rbound of the body's geometries \
                                          (INFINITY: none), m */ \
  X(int, eqrow_eq, m->neqrow + 1)      /* the constraint of each equality row */ \
  X(int, jnt_frame_id, m->njnt)        /* 1 when the joint's frame is its parent body's \
                                          (jnt_rot the identity, jnt_pos 0) */ \
  X(int, geom_frame_id, m->ngeom)      /* 1 when the geometry's frame is its body's */

/* the names of each kind (arrays of strings, each string owned) */
#define SC_MODEL_NAMES(X) \
  X(body_name, m->nbody)               /* "world" for body 0 */ \
  X(jnt_name, m->njnt)                 /* = the child body's name */ \
  X(q_names, m->nq)                    /* e.g. "pendulum.theta", "ball.qw" */ \
  X(v_names, m->nv) \
  X(act_name, m->nact) \
  X(cmd_name, m->ncmd) \
  X(eq_name, m->neq) \
  X(ten_name, m->ntendon)

/* provenance: the scene's texts (NULL when there is none) */
#define SC_MODEL_TEXTS(X) \
  X(name)            /* scene name */ \
  X(scene_path)      /* the file it was loaded from */ \
  X(scene_yaml)      /* the scene text after overrides (YAML) */ \
  X(ignored)         /* what an MJCF or URDF translation left out with \
                        --allow-unsupported (or a models: entry's \
                        allow_unsupported): one line per kind with its first \
                        place */ \
  X(approximated)    /* what an MJCF translation rendered approximately \
                        (MuJoCo's contact parameters onto simc's law, \
                        doc/import.md): one line per kind with its first place */ \
  X(notes)           /* what the loader changed in the scene as written (a \
                        joint whose default start lies outside its limits \
                        starts on them), one line each */

#define SC_MODEL_SCENE_ARRAYS(X) \
  SC_MODEL_BODY(X) SC_MODEL_JOINT(X) SC_MODEL_GEOM(X) SC_MODEL_SPRING(X) SC_MODEL_ACTUATOR(X) \
  SC_MODEL_EQUALITY(X) SC_MODEL_TENDON(X) SC_MODEL_COMMAND(X)
#define SC_MODEL_ARRAYS(X) \
  SC_MODEL_SCENE_ARRAYS(X) SC_MODEL_COMMAND_DATA(X) SC_MODEL_DERIVED(X)

#define SC_MODEL_DECLARE(type, name, count) type* name;
#define SC_MODEL_DECLARE_NAMES(name, count) char** name;
#define SC_MODEL_DECLARE_TEXT(name) char* name;

typedef struct sc_model {
  /* ---- sizes ---- */
  int nbody;   /* including the world (body 0) */
  int njnt;    /* = nbody - 1 */
  int nq, nv;
  int ngeom;
  int nmesh;     /* meshes (each read once, shared by the geometries naming it) */
  int njspring;  /* joint spring-dampers */
  int nlspring;  /* linear point-to-point spring-dampers */
  int nexclude;  /* body pairs excluded from contact */
  int nact;      /* actuators */
  int ncmd;      /* commands (time series driving the actuators) */
  int ncmddata;  /* samples of all commands */
  int neq;       /* equality constraints */
  int nrow_max;  /* joint rows a step may add to the contact problem (limits,
                    dry friction, servos, equality constraints), set by finalize */
  int neqrow;    /* of which the equality constraints' rows, present at every
                    step (set by finalize) */
  int cone_tails; /* 1 when a geom has torsional or rolling friction: a contact
                     may add its cone tail (core/problem.h) after the rows (set by
                     finalize; not counted in nrow_max) */
  int nrow_wide; /* of which the rows that may span two chains (the equality
                    constraints', the tendons' limits); the others touch one dof */
  int ntendon;   /* tendons */
  int nwrap;     /* their path elements (joints of a fixed tendon, points of a
                    spatial one) */
  int ntree;     /* kinematic trees (subtrees rooted at a child of the world) */
  int nclique;   /* cliques (SC_MODEL_DERIVED) */
  long nblk;     /* sum of clique_dofnum^2 */

  sc_options opt;

  SC_MODEL_ARRAYS(SC_MODEL_DECLARE)
  SC_MODEL_NAMES(SC_MODEL_DECLARE_NAMES)
  SC_MODEL_TEXTS(SC_MODEL_DECLARE_TEXT)

  /* 1 when some dof has damping / armature / dry friction, some joint a
   * limit (set by finalize; the step skips what no dof has) */
  int any_damping, any_armature, any_frictionloss, any_limit;
  /* 1 when the free-motion residual m(v) is affine in v with the constant
   * slope M, whatever q: every moving body is a free body on the world at
   * the default origin with its centre of mass at its origin and a
   * rotational inertia c I (M = diag(m I, c I) in every pose, no gyroscopic
   * or velocity-product force, gravity constant), and there are no springs,
   * dampers or fluid.  One Newton step then solves m(v) = 0 exactly. */
  int free_motion_affine;
  /* 1 when opt has a fluid (density or viscosity > 0): then each body of
   * non-zero mass has its equivalent inertia box, half-sizes body_fluid_box
   * (nbody x 3, m) along the principal axes body_fluid_rot (nbody x 9, the
   * axes as columns in body coordinates), set by finalize */
  int any_fluid;
  int any_tendon_spring; /* some tendon has stiffness or damping (set by finalize) */
  char input_digest[65]; /* SHA-256 of scene_yaml and of every file the load
                            read (tables, includes, models, meshes): equal
                            digests, equal inputs (see doc/output.md) */
} sc_model;

/* The layout of the model's clique blocks, for the kernels of
 * linalg/blockdiag.h on M, A, K and D. */
static inline sc_la_blocks sc_model_cliques(const sc_model* m) {
  const sc_la_blocks b = {m->nclique,    m->nblk,         m->clique_dofadr, m->clique_dofnum,
                          m->clique_dofs, m->clique_blkadr, m->dof_clique,  m->dof_cliqueloc};
  return b;
}

/* One more line of the model's notes (what the loader changed in the scene
 * as written); SC_ERR_NOMEM when it cannot. */
sc_status sc_model_note(sc_model* m, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Free a model and everything it owns (NULL is fine). */
void sc_model_free(sc_model* m);

/* Derive theta parameters from the scheme (non-THETA schemes). */
void sc_options_scheme_thetas(sc_scheme s, double* tq, double* tv, double* tvq);
/* Defaults for every option (before a scene is applied). */
void sc_options_default(sc_options* opt);

/* Default Hunt-Crossley dissipation of a geometry (contact.defaults.dissipation), s/m. */
#define SC_DEFAULT_HC_DISSIPATION 20.0

/* Building a model (the scene loader and tests do this):
 *  1. set nbody, ngeom, nmesh, njspring, nlspring, nexclude, nact, ncmd (njnt =
 *     nbody - 1) and call sc_model_alloc: every per-body/joint/geom/spring/
 *     actuator array, zeroed (joint ranges infinite, limits rigid, actuator
 *     commands -1, efforts unbounded, gears 1, servo thetas auto, contype and
 *     conaffinity 1), then
 *     sc_model_alloc_commands for the command samples;
 *  2. fill body_parent (topological order), jnt_type, jnt_axis, jnt_pos,
 *     jnt_rot, body_mass/com/inertia, names, geometry and springs (joint
 *     springs by jspring_jnt and jspring_local);
 *  3. call sc_model_finalize: computes nq, nv, qadr/vadr, trees, the q/v
 *     arrays (qpos0 = zero with identity quaternions, qvel0 = 0), q/v names and
 *     bounding radii.  Then set qpos0/qvel0 if wanted. */
sc_status sc_model_alloc(sc_model* m);
/* The command tables (after sc_model_alloc): m->ncmd names and ndata
 * samples in all, zeroed. */
sc_status sc_model_alloc_commands(sc_model* m, int ndata);
/* Command c's value at time t (s): linear or held between its samples, its
 * end values outside them. */
double sc_model_command(const sc_model* m, int c, double t);
sc_status sc_model_finalize(sc_model* m);
char* sc_strdup(const char* s);
/* The approach speed (m/s) below which a contact takes no restitution
 * target: contact.restitution_velocity, or for auto 2 |g| dt (|g| = 9.81
 * without gravity), twice the speed a resting contact gains from gravity in
 * a step, so that resting and settling contacts stay inelastic
 * (doc/contact.md 4.7). */
double sc_model_restitution_velocity(const sc_options* o);

const char* sc_joint_type_name(sc_joint_type t);
const char* sc_geom_type_name(sc_geom_type t);
const char* sc_scheme_name(sc_scheme s);
const char* sc_actuator_type_name(sc_actuator_type t);
int sc_joint_nq(sc_joint_type t);
int sc_joint_nv(sc_joint_type t);

#endif

