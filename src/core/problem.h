/* problem: the contact problem handed to a contact solver (types, and in
 * problem.c the conversions between its block form and dense matrices).
 *
 * Solvers see only this: no model, no data.  The unknowns are the next-step
 * generalized velocities v and the contact impulses gamma (N s).  Per contact
 * i the 3 rows of J are expressed in the contact frame C_i = (t1, t2, n):
 * vc_i = J_i v, and vn > 0 means the bodies separate.  See doc/contact.md
 * sections 1-4 for the meaning of R and vhat. */
#ifndef SC_PROBLEM_H
#define SC_PROBLEM_H

#include <stddef.h>

/* A is block diagonal over ntree trees (groups of dofs no matrix entry
 * couples to another group: a tree of bodies, or a clique of trees joined by
 * springs): tree t has the n_t = tree_ptr[t+1] - tree_ptr[t] dofs
 * tree_dofs[tree_ptr[t] .. tree_ptr[t+1]) (ascending within a tree, every dof
 * in exactly one tree), and its n_t x n_t block is stored column-major in A,
 * the blocks one after the other in tree order (sum n_t^2 doubles).
 * J is stored per contact as its non-zero columns: contact i touches the
 * columns jcol[jptr[i] .. jptr[i+1]) (each listed once, any order), and
 * J[3 q .. 3 q + 2] are rows (t1, t2, n) of contact i in column jcol[q].
 * Memory is linear in nv + nnz(J) + sum n_t^2: no nv x nv or 3nc x nv array. */

/* Contact model of a Newton solve (doc/contact.md section 4); the LCP
 * ignores it. */
typedef enum sc_contact_model {
  SC_MODEL_SAP = 0,     /* Kelvin-Voigt compliance, R and vhat (doc/contact.md 4.1) */
  SC_MODEL_SIMILAR = 1, /* Hunt-Crossley, friction from n(vn - mu |vt|) */
  SC_MODEL_LAGGED = 2   /* Hunt-Crossley, friction bounded by the step-start impulse */
} sc_contact_model;

/* Kind of an entry of the problem (sc_problem.kind).  A box row is a
 * one-dimensional constraint on a combination of velocities (a joint limit,
 * a joint's dry friction, a servo: constraint/joint.c, actuator.c): only the third
 * ("n") row of its J block is used (the other two are zero), and its
 * impulse is
 *   gamma_n = clamp((vhat_n - vc_n) / R_n, lo, hi),   gamma_t = 0,
 * with [lo, hi] = bound[2i], bound[2i + 1] (N s; lo <= hi, either may be
 * infinite; lo = 0, hi = INFINITY is a frictionless unilateral constraint),
 * R_n > 0 its regularization ((m/s)/(N s)) and vhat_n its target velocity.
 * Its cost is the convex, C1 function of vc_n whose derivative is -gamma_n
 * (doc/actuation.md).  mu, phi0 and R_t of a box row are not used. */
enum { SC_ROW_CONTACT = 0, SC_ROW_BOX = 1, SC_ROW_CONE_TAIL = 2 };

/* A contact with torsional and rolling friction (MuJoCo's condim 4 and 6)
 * has three more rows in its cone, held by a second entry, its tail: for
 * contact c, tail[c] = t > c is an entry of kind SC_ROW_CONE_TAIL whose
 * columns are contact c's, listed in the same order, and whose rows are
 * the contact's spin and two rolling velocities, each scaled by mu_k / mu
 * (mu_k the coefficient of the row, a length; mu the contact's sliding
 * coefficient).  The cone of the pair is then the isotropic
 *   |(gamma_t1, gamma_t2, u_s, u_r1, u_r2)| <= mu gamma_n
 * in the scaled impulses u_k (the torque impulse of row k is
 * (mu_k / mu) u_k, so |torque impulse_k| <= mu_k gamma_n), with every
 * tangential row regularized by the contact's R_t: MuJoCo's elliptic cone,
 * whose R_k = R_t mu^2 / mu_k^2 is this scaling.  The solver reads the
 * tail's J and vhat; its R, mu and phi0 are not used.  Only the sap model
 * takes tails (the Hunt-Crossley models and the LCP refuse them). */

typedef struct sc_problem {
  int nv;              /* generalized velocities */
  int nc;              /* contacts */
  int ntree;           /* diagonal blocks of A */
  const int* tree_ptr; /* (ntree + 1), tree_ptr[ntree] = nv */
  const int* tree_dofs; /* (nv) */
  const double* A;     /* (sum n_t^2) SPD blocks of the linearized momentum matrix */
  const double* vstar; /* (nv) free-motion velocities, m/s or rad/s */
  const int* jptr;     /* (nc + 1) */
  const int* jcol;     /* (jptr[nc]) */
  const double* J;     /* (3 jptr[nc]) contact Jacobian entries, rows (t1, t2, n) */
  const double* R;     /* (3nc) diagonal regularization (Rt, Rt, Rn) per contact, (m/s)/(N s) */
  const double* vhat;  /* (3nc) stabilization velocity (0, 0, vhat_n) per contact, m/s */
  const double* mu;    /* (nc) friction coefficients */
  const double* phi0;  /* (nc) signed gaps at the step start, m (negative = overlap) */
  double dt;           /* time step, s */
  /* optional, appended so that older initializers mean SAP: */
  sc_contact_model model; /* SC_MODEL_SAP (0) unless hc is set */
  const double* hc;       /* (5nc) Hunt-Crossley parameters per contact, layout
                             SC_HC_* of solver_sap/sap_model.h; NULL: SAP */
  const unsigned char* kind; /* (nc) SC_ROW_CONTACT or SC_ROW_BOX; NULL: all contacts */
  const double* bound;       /* (2nc) [lo, hi] of each box row, N s (others unused) */
  const int* tail;           /* (nc) each contact's cone tail entry, or -1; NULL: none */
} sc_problem;

static inline int sc_problem_is_box(const sc_problem* p, int i) {
  return p->kind && p->kind[i] == SC_ROW_BOX;
}
static inline int sc_problem_is_tail(const sc_problem* p, int i) {
  return p->kind && p->kind[i] == SC_ROW_CONE_TAIL;
}
/* contact i's tail entry, or -1 */
static inline int sc_problem_tail(const sc_problem* p, int i) {
  return p->tail ? p->tail[i] : -1;
}

/* The block form of a problem written densely by hand (tests, tools): owns
 * the arrays sc_problem_set_dense points p at. */
typedef struct sc_problem_storage {
  int* ibuf;
  double* dbuf;
  size_t icap, dcap; /* their lengths */
} sc_problem_storage;

/* Set p's A and J fields (p->nv, p->nc must be set) from a dense A (nv x nv)
 * and J (3nc x nv), both column-major: the trees are the connected
 * components of A's non-zero pattern (numbered by their smallest dof), a
 * contact's columns those where one of its rows is non-zero (ascending).
 * The arrays live in *st (zero-initialized before first use; free with
 * sc_problem_storage_free), which is reused when large enough and grown
 * otherwise: converting problems of the same size again allocates nothing.
 * Returns 0, or -1 when out of memory. */
int sc_problem_set_dense(sc_problem* p, const double* A, const double* J,
                         sc_problem_storage* st);
void sc_problem_storage_free(sc_problem_storage* st);
/* The dense A (nv x nv) and J (3nc x nv, ld 3nc) of p, column-major, zeros
 * outside the blocks; either output may be NULL.  O(nv^2 + 3nc nv). */
void sc_problem_densify(const sc_problem* p, double* A, double* J);
/* sum over the trees of n_t^2: the length of p->A */
long sc_problem_ablk_size(const sc_problem* p);

typedef enum sc_solve_status {
  SC_SOLVE_OK = 0,
  SC_SOLVE_MAXIT = 1,       /* iteration / pivot cap reached */
  SC_SOLVE_LINESEARCH = 2,  /* line search failed (descent lost to round-off) */
  SC_SOLVE_FACTOR = 3,      /* factorization failed (not positive definite) */
  SC_SOLVE_RAY = 4,         /* Lemke: ray termination (no solution found) */
  SC_SOLVE_CYCLE = 5,       /* Lemke: cycling detected */
  SC_SOLVE_NAN = 6,         /* non-finite input or iterate */
  SC_SOLVE_INACCURATE = 7,  /* finished, but the end point fails its accuracy check */
  SC_SOLVE_CAPACITY = 8,    /* the problem is larger than the workspace */
  SC_SOLVE_CANCELLED = 9    /* stopped early: the solver's cancel flag was set */
} sc_solve_status;

static inline const char* sc_solve_status_name(sc_solve_status s) {
  static const char* names[] = {"ok", "iteration limit", "line search failed",
                                "factorization failed", "ray termination", "cycling",
                                "non-finite values", "inaccurate", "workspace too small",
                                "cancelled"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

/* Statistics of one solve. */
typedef struct sc_solver_stats {
  int iterations;        /* Newton iterations or Lemke pivots */
  int linesearch_evals;  /* total line-search evaluations (Newton) */
  double residual;       /* final relative momentum residual ||D grad|| / scale */
  double cost;           /* final cost l(v), J (Newton) */
  sc_solve_status status;
  int factorizations;    /* Newton: factorizations of the Hessian (an iteration without
                            one took its direction from a held factor, solver_sap/sap.c) */
} sc_solver_stats;

/* tot followed by another solve st of the same problem (a refinement pass, a
 * re-linearization): the counts add up, the final figures are st's. */
static inline void sc_solver_stats_add(sc_solver_stats* tot, const sc_solver_stats* st) {
  tot->iterations += st->iterations;
  tot->linesearch_evals += st->linesearch_evals;
  tot->factorizations += st->factorizations;
  tot->residual = st->residual;
  tot->cost = st->cost;
  tot->status = st->status;
}

/* Optional per-iteration record of one Newton solve, sized once by its owner
 * (cap rows, one per Newton iteration).  Row j describes the iterate after
 * iteration j + 1: the relative residual there, the step alpha that reached
 * it, the cost decrease l_before - l_after (J), the line-search evaluations,
 * how many contacts are separated / sticking / sliding there (regions III,
 * I, II of doc/contact.md section 7) and how many changed region
 * since the previous iterate.  n rows were written by the last solve, so
 * n == iterations and residual[n - 1] equals the stats' residual. */
typedef struct sc_solver_trace {
  int cap, n;
  double *residual, *alpha, *cost_decrease;
  int *ls_evals, *n_separated, *n_stick, *n_slide, *n_changed;
} sc_solver_trace;

#endif
