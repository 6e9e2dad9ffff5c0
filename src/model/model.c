/* model: allocation, defaults and names. */
#include "model/model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spatial/spatial.h"

char* sc_strdup(const char* s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char* r = sc_malloc(n);
  if (r) memcpy(r, s, n);
  return r;
}

void sc_options_scheme_thetas(sc_scheme s, double* tq, double* tv, double* tvq) {
  switch (s) {
    case SC_SCHEME_EXPLICIT_EULER: *tq = 0; *tv = 0; *tvq = 0; break;
    case SC_SCHEME_SYMPLECTIC_EULER: *tq = 0; *tv = 0; *tvq = 1; break;
    case SC_SCHEME_IMPLICIT_EULER: *tq = 1; *tv = 1; *tvq = 1; break;
    case SC_SCHEME_MIDPOINT: *tq = 0.5; *tv = 0.5; *tvq = 0.5; break;
    case SC_SCHEME_THETA: break;
  }
}

void sc_options_default(sc_options* o) {
  memset(o, 0, sizeof *o);
  o->dt = 1e-3;
  o->duration = 1.0;
  o->gravity[2] = -9.81;
  o->scheme = SC_SCHEME_MIDPOINT;
  sc_options_scheme_thetas(o->scheme, &o->theta_q, &o->theta_v, &o->theta_vq);
  o->newton_tol = 1e-10;
  o->newton_maxit = 30;
  o->solver = SC_SOLVER_NEWTON;
  o->contact_tol = 1e-6;
  o->contact_maxit = 100;
  o->cg_iterations = 5;
  o->on_failure = SC_ON_FAILURE_ABORT;
  o->lcp_directions = 8;
  o->lcp_warm_start = 1;
  o->lcp_max_memory = 512.0; /* MiB: SC_LCP_MAX_BYTES of solver_lcp/lcp.h */
  o->sigma = 1e-3;
  o->beta = 1.0;
  o->slip_curvature = -1.0; /* the contact model's (sc_sap_params_for_model) */
  o->contact_theta = SC_CONTACT_THETA_AUTO;
  o->near_rigid_depth = 1e-3;
  o->beta_min = 1e-2;
  o->contact_passes = 4;
  o->relinearize = 2;
  o->penetration_warning = 5e-2;
  o->margin = 1e-3;
  o->speculative = 1;
  o->midstep_jacobian = 1;
  o->stiction_anchor = 0.5;
  o->restitution_velocity = SC_RESTITUTION_VELOCITY_AUTO;
  o->contact_model = SC_MODEL_LAGGED; /* README, "Contact models": why */
  o->ncon_max = 0; /* 0: sized from the geometry at data creation */
  o->threads = 1;  /* sweeps run many simc processes side by side */
  o->output_every = 1;
  o->output_contacts = 1;
  o->output_solver_trace = 0;
}

static const char* joint_names[] = {"fixed", "revolute", "prismatic", "planar", "ball", "free"};
static const char* geom_names[] = {"plane", "sphere", "capsule", "box", "cylinder", "ellipsoid", "mesh"};
static const char* scheme_names[] = {"explicit_euler", "symplectic_euler", "implicit_euler",
                                     "midpoint", "theta"};

const char* sc_joint_type_name(sc_joint_type t) { return joint_names[t]; }
const char* sc_geom_type_name(sc_geom_type t) { return geom_names[t]; }
const char* sc_scheme_name(sc_scheme s) { return scheme_names[s]; }
double sc_model_restitution_velocity(const sc_options* o) {
  if (o->restitution_velocity >= 0.0) return o->restitution_velocity;
  const double g = sqrt(o->gravity[0] * o->gravity[0] + o->gravity[1] * o->gravity[1] +
                        o->gravity[2] * o->gravity[2]);
  return 2.0 * (g > 0.0 ? g : 9.81) * o->dt;
}
const char* sc_actuator_type_name(sc_actuator_type t) {
  static const char* names[] = {"motor", "position", "velocity"};
  return (unsigned)t < 3 ? names[t] : "?";
}

double sc_model_command(const sc_model* m, int c, double t) {
  const double* tt = m->cmd_time + m->cmd_adr[c];
  const double* vv = m->cmd_value + m->cmd_adr[c];
  const int n = m->cmd_len[c];
  if (n <= 0) return 0.0;
  if (!(t > tt[0])) return vv[0];
  if (t >= tt[n - 1]) return vv[n - 1];
  /* the last sample at or before t (binary search: tables may be long) */
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    if (tt[mid] <= t) lo = mid;
    else hi = mid;
  }
  if (m->cmd_interp[c] == SC_INTERP_HOLD) return vv[lo];
  const double s = (t - tt[lo]) / (tt[hi] - tt[lo]);
  return vv[lo] + s * (vv[hi] - vv[lo]);
}

int sc_joint_nq(sc_joint_type t) {
  static const int nq[] = {0, 1, 1, 3, 4, 7};
  return nq[t];
}
int sc_joint_nv(sc_joint_type t) {
  static const int nv[] = {0, 1, 1, 3, 3, 6};
  return nv[t];
}

#define ALLOC(field, count)                                        \
  do {                                                             \
    m->field = sc_calloc((size_t)(count), sizeof(*m->field));      \
    if (!m->field) return SC_ERR_NOMEM;                            \
  } while (0)

#define SC_MODEL_ALLOC(type, name, count) ALLOC(name, count);

sc_status sc_model_alloc(sc_model* m) {
  SC_MODEL_SCENE_ARRAYS(SC_MODEL_ALLOC)
  ALLOC(body_name, m->nbody);
  ALLOC(jnt_name, m->njnt);
  ALLOC(act_name, m->nact);
  ALLOC(eq_name, m->neq);
  ALLOC(ten_name, m->ntendon);
  ALLOC(cmd_name, m->ncmd);
  for (int g = 0; g < m->ngeom; g++) {
    m->geom_mesh[g] = -1;
    m->geom_contype[g] = m->geom_conaffinity[g] = 1u;
  }
  for (int j = 0; j < m->njnt; j++) {
    m->jnt_range[2 * j] = -INFINITY;
    m->jnt_range[2 * j + 1] = INFINITY;
    m->jnt_limit_k[j] = INFINITY;
  }
  for (int a = 0; a < m->nact; a++) {
    m->act_gear[a] = 1.0;
    m->act_effort[2 * a] = -INFINITY;
    m->act_effort[2 * a + 1] = INFINITY;
    m->act_cmd[a] = m->act_cmd_vel[a] = -1;
    m->act_theta[a] = SC_ACT_THETA_AUTO;
    m->act_tendon[a] = -1;
  }
  for (int e = 0; e < m->neq; e++) m->eq_k[e] = INFINITY;
  for (int t = 0; t < m->ntendon; t++) {
    m->ten_range[2 * t] = -INFINITY;
    m->ten_range[2 * t + 1] = INFINITY;
    m->ten_limit_k[t] = INFINITY;
    m->ten_rest[t] = NAN;
  }
  for (int w = 0; w < m->nwrap; w++) m->wrap_side_body[w] = -1;
  return SC_OK;
}

sc_status sc_model_alloc_commands(sc_model* m, int ndata) {
  m->ncmddata = ndata;
  ALLOC(cmd_time, ndata);
  ALLOC(cmd_value, ndata);
  return SC_OK;
}

static void free_names(char** names, int n) {
  if (!names) return;
  for (int i = 0; i < n; i++) sc_free(names[i]);
  sc_free(names);
}

void sc_model_free(sc_model* m) {
  if (!m) return;
#define SC_MODEL_FREE(type, name, count) sc_free(m->name);
#define SC_MODEL_FREE_NAMES(name, count) free_names(m->name, count);
#define SC_MODEL_FREE_TEXT(name) sc_free(m->name);
  for (int i = 0; m->mesh && i < m->nmesh; i++) sc_mesh_free(&m->mesh[i]);
  SC_MODEL_ARRAYS(SC_MODEL_FREE)
  SC_MODEL_NAMES(SC_MODEL_FREE_NAMES)
  SC_MODEL_TEXTS(SC_MODEL_FREE_TEXT)
  sc_free(m);
}

static char* joined(const char* a, const char* b) {
  size_t na = strlen(a), nb = strlen(b);
  char* r = sc_malloc(na + nb + 2);
  if (!r) return NULL;
  memcpy(r, a, na);
  r[na] = '.';
  memcpy(r + na + 1, b, nb + 1);
  return r;
}

static const char* qlabel(sc_joint_type t, int k) {
  static const char* rev[] = {"angle"};
  static const char* pri[] = {"x"};
  static const char* pla[] = {"x", "y", "theta"};
  static const char* bal[] = {"qw", "qx", "qy", "qz"};
  static const char* fre[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
  switch (t) {
    case SC_JOINT_REVOLUTE: return rev[k];
    case SC_JOINT_PRISMATIC: return pri[k];
    case SC_JOINT_PLANAR: return pla[k];
    case SC_JOINT_BALL: return bal[k];
    case SC_JOINT_FREE: return fre[k];
    default: return "?";
  }
}

static const char* vlabel(sc_joint_type t, int k) {
  static const char* rev[] = {"angular_velocity"};
  static const char* pri[] = {"vx"};
  static const char* pla[] = {"vx", "vy", "omega"};
  static const char* bal[] = {"wx", "wy", "wz"};
  static const char* fre[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  switch (t) {
    case SC_JOINT_REVOLUTE: return rev[k];
    case SC_JOINT_PRISMATIC: return pri[k];
    case SC_JOINT_PLANAR: return pla[k];
    case SC_JOINT_BALL: return bal[k];
    case SC_JOINT_FREE: return fre[k];
    default: return "?";
  }
}

/* radius of a sphere about the geom origin enclosing the shape */
static double bound_radius(sc_geom_type t, const double* s) {
  switch (t) {
    case SC_GEOM_PLANE: return INFINITY;
    case SC_GEOM_SPHERE: return s[0];
    case SC_GEOM_CAPSULE: return s[0] + 0.5 * s[1];
    case SC_GEOM_BOX: return sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    case SC_GEOM_CYLINDER: return sqrt(s[0] * s[0] + 0.25 * s[1] * s[1]);
    case SC_GEOM_ELLIPSOID: return fmax(s[0], fmax(s[1], s[2]));
    case SC_GEOM_MESH: return INFINITY; /* set from the mesh in finalize */
  }
  return INFINITY;
}

static int find_root(int* parent, int x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

/* union the trees joined by linear springs; number the cliques by their
 * smallest tree so the order is deterministic */
static sc_status build_cliques(sc_model* m) {
  int nt = m->ntree;
  int* root = sc_calloc((size_t)(nt > 0 ? nt : 1), sizeof(int));
  int* id = sc_calloc((size_t)(nt > 0 ? nt : 1), sizeof(int));
  if (!root || !id) {
    sc_free(root);
    sc_free(id);
    return SC_ERR_NOMEM;
  }
  for (int t = 0; t < nt; t++) root[t] = t;
  for (int s = 0; s < m->nlspring; s++) {
    int ta = m->body_tree[m->lspring_body[2 * s]], tb = m->body_tree[m->lspring_body[2 * s + 1]];
    if (ta < 0 || tb < 0) continue;
    int ra = find_root(root, ta), rb = find_root(root, tb);
    if (ra != rb) root[ra > rb ? ra : rb] = ra < rb ? ra : rb;
  }
  /* a tendon with a spring-damper couples the trees along its path */
  for (int t = 0; t < m->ntendon; t++) {
    if (!(m->ten_k[t] > 0 || m->ten_c[t] > 0)) continue;
    int first = -1;
    for (int w = m->ten_wrapadr[t]; w < m->ten_wrapadr[t] + m->ten_wrapnum[t]; w++) {
      const int b = m->ten_type[t] == SC_TENDON_FIXED ? m->jnt_body[m->wrap_jnt[w]] : m->wrap_body[w];
      if (b < 0) continue; /* (a pulley) */
      const int tb = m->body_tree[b];
      if (tb < 0) continue;
      if (first < 0) {
        first = tb;
        continue;
      }
      int ra = find_root(root, first), rb = find_root(root, tb);
      if (ra != rb) root[ra > rb ? ra : rb] = ra < rb ? ra : rb;
    }
  }
  m->nclique = 0;
  for (int t = 0; t < nt; t++) id[t] = (find_root(root, t) == t) ? m->nclique++ : -1;
  for (int t = 0; t < nt; t++) id[t] = id[find_root(root, t)];
  int nc = m->nclique > 0 ? m->nclique : 1;
  ALLOC(clique_dofadr, nc);
  ALLOC(clique_dofnum, nc);
  ALLOC(clique_blkadr, nc);
  ALLOC(clique_dofs, m->nv > 0 ? m->nv : 1);
  ALLOC(dof_clique, m->nv > 0 ? m->nv : 1);
  ALLOC(dof_cliqueloc, m->nv > 0 ? m->nv : 1);
  for (int d = 0; d < m->nv; d++) m->clique_dofnum[id[m->dof_tree[d]]]++;
  int adr = 0;
  long blk = 0;
  for (int c = 0; c < m->nclique; c++) {
    m->clique_dofadr[c] = adr;
    m->clique_blkadr[c] = (int)blk;
    adr += m->clique_dofnum[c];
    blk += (long)m->clique_dofnum[c] * m->clique_dofnum[c];
    m->clique_dofnum[c] = 0;
  }
  m->nblk = blk;
  for (int d = 0; d < m->nv; d++) {
    int c = id[m->dof_tree[d]];
    m->dof_clique[d] = c;
    m->dof_cliqueloc[d] = m->clique_dofnum[c];
    m->clique_dofs[m->clique_dofadr[c] + m->clique_dofnum[c]++] = d;
  }
  sc_free(root);
  sc_free(id);
  return SC_OK;
}

/* see sc_model.free_motion_affine; exact comparisons: a rounded inertia
 * would leave a gyroscopic term, however small */
static int free_motion_affine(const sc_model* m) {
  if (m->njspring > 0 || m->nlspring > 0 || m->nact > 0 || m->any_tendon_spring) return 0;
  if (m->opt.fluid_density > 0 || m->opt.fluid_viscosity > 0) return 0; /* drag: not affine in v */
  for (int i = 0; i < m->nv; i++)
    if (m->dof_damping[i] != 0.0 || m->dof_armature[i] != 0.0) return 0;
  for (int b = 1; b < m->nbody; b++) {
    const int j = b - 1;
    if (m->jnt_nv[j] == 0 && m->body_parent[b] == 0) continue; /* welded to the world */
    if (m->jnt_type[j] != SC_JOINT_FREE || m->body_parent[b] != 0) return 0;
    if (!sc_sp_xform_is_identity(m->jnt_rot + 9 * j, m->jnt_pos + 3 * j)) return 0;
    const double *c = m->body_com + 3 * b, *I = m->body_inertia + 9 * b;
    if (c[0] != 0.0 || c[1] != 0.0 || c[2] != 0.0) return 0;
    for (int k = 0; k < 9; k++)
      if (I[k] != (k % 4 == 0 ? I[0] : 0.0)) return 0; /* I[0] times the identity */
  }
  return 1;
}

/* eigenvalues lam and eigenvectors (the columns of V) of a symmetric 3 x 3
 * A (row-major) by cyclic Jacobi rotations.  An off-diagonal entry within
 * 1e-14 of its two diagonal entries is taken as zero: a tensor diagonal but
 * for rounding (a capsule along a body axis, turned there by a rounded
 * rotation) keeps the body axes, V the identity to the bit, where a
 * rotation would turn two equal moments' axes by 45 degrees. */
static void sym3_eigen(const double A[9], double lam[3], double V[9]) {
  double a[9];
  memcpy(a, A, sizeof a);
  for (int k = 0; k < 9; k++) V[k] = k % 4 == 0 ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 50; sweep++) {
    int rotated = 0;
    for (int p = 0; p < 2; p++)
      for (int q = p + 1; q < 3; q++) {
        const double apq = a[3 * p + q];
        if (!(fabs(apq) > 1e-14 * (fabs(a[3 * p + p]) + fabs(a[3 * q + q])))) continue;
        const double th = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
        const double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1));
        const double c = 1 / sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 3; k++) { /* a = a G (columns p, q) */
          const double kp = a[3 * k + p], kq = a[3 * k + q];
          a[3 * k + p] = c * kp - s * kq, a[3 * k + q] = s * kp + c * kq;
        }
        for (int k = 0; k < 3; k++) { /* a = G^T a (rows p, q) */
          const double pk = a[3 * p + k], qk = a[3 * q + k];
          a[3 * p + k] = c * pk - s * qk, a[3 * q + k] = s * pk + c * qk;
        }
        for (int k = 0; k < 3; k++) {
          const double kp = V[3 * k + p], kq = V[3 * k + q];
          V[3 * k + p] = c * kp - s * kq, V[3 * k + q] = s * kp + c * kq;
        }
        rotated = 1;
      }
    if (!rotated) break;
  }
  lam[0] = a[0], lam[1] = a[4], lam[2] = a[8];
}

/* The equivalent inertia box of each body (MuJoCo's inertia-box fluid
 * model, see sc_dyn_fluid): the uniform box of the body's mass M and
 * principal moments I_i has half-sizes
 *   r_i = sqrt(3 / (2 M) (I_j + I_k - I_i)),
 * (I_i = M (r_j^2 + r_k^2) / 3), along the principal axes.  A sum that is
 * not positive (a body as thin as a rod or a plate, or rounding) is
 * floored at 1e-15 kg m^2 as MuJoCo 2.2.2 floors it, which leaves a box of
 * almost no extent on that axis.  Bodies of zero mass have no box.  Two
 * equal moments leave the axes in their plane to the eigen-solver, which
 * need not be MuJoCo's choice (doc/import.md). */
static sc_status fluid_boxes(sc_model* m) {
  const sc_options* o = &m->opt;
  m->any_fluid = o->fluid_density > 0 || o->fluid_viscosity > 0;
  if (!m->any_fluid) return SC_OK;
  ALLOC(body_fluid_box, 3 * (m->nbody > 0 ? m->nbody : 1));
  ALLOC(body_fluid_rot, 9 * (m->nbody > 0 ? m->nbody : 1));
  for (int b = 1; b < m->nbody; b++) {
    const double M = m->body_mass[b];
    double lam[3], *V = m->body_fluid_rot + 9 * b, *r = m->body_fluid_box + 3 * b;
    sym3_eigen(m->body_inertia + 9 * b, lam, V);
    for (int i = 0; i < 3; i++) {
      double x = lam[(i + 1) % 3] + lam[(i + 2) % 3] - lam[i];
      if (!(x > 1e-15)) x = 1e-15;
      r[i] = M > 0 ? sqrt(1.5 * x / M) : 0.0;
    }
  }
  return SC_OK;
}

static int pair_cmp(const void* x, const void* y) {
  const int *a = x, *b = y;
  return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* each excluded pair as (smaller, larger) body, the list sorted and without
 * repeats: the broad phase finds a pair by binary search */
static void sort_exclusions(sc_model* m) {
  int* e = m->exclude_body;
  for (int i = 0; i < m->nexclude; i++)
    if (e[2 * i] > e[2 * i + 1]) {
      const int t = e[2 * i];
      e[2 * i] = e[2 * i + 1];
      e[2 * i + 1] = t;
    }
  if (m->nexclude > 1) qsort(e, (size_t)m->nexclude, 2 * sizeof *e, pair_cmp);
  int n = 0;
  for (int i = 0; i < m->nexclude; i++)
    if (n == 0 || pair_cmp(e + 2 * i, e + 2 * (n - 1)) != 0) {
      e[2 * n] = e[2 * i];
      e[2 * n + 1] = e[2 * i + 1];
      n++;
    }
  m->nexclude = n;
}

sc_status sc_model_note(sc_model* m, const char* fmt, ...) {
  char line[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  const size_t old = m->notes ? strlen(m->notes) : 0, n = strlen(line);
  char* p = sc_malloc(old + n + 2);
  if (!p) return SC_ERR_NOMEM;
  if (old) memcpy(p, m->notes, old);
  memcpy(p + old, line, n);
  p[old + n] = '\n', p[old + n + 1] = '\0';
  sc_free(m->notes);
  m->notes = p;
  return SC_OK;
}

/* jnt_com of each free joint: the centre of mass of the bodies welded to
 * its child (the child and those below it through fixed joints: an
 * imported body is a massless link on the joint with its mass on a fixed
 * child), in the child's frame; zeros when they have no mass or when the
 * joint has armature, damping or dry friction on its linear velocity
 * (about the centre, those would couple to the rotation through
 * w x R s; the scene loader says so among its notes).  Needs body_weld. */
static sc_status free_centres(sc_model* m) {
  /* each body's pose in the body it is welded to (parents come first) */
  double* X = sc_calloc((size_t)(m->nbody > 0 ? m->nbody : 1), 12 * sizeof(double));
  if (!X) return SC_ERR_NOMEM;
  /* per weld group: sum of m c (in the group's frame), of m, and its bodies with mass */
  double* msum = sc_calloc((size_t)(m->nbody > 0 ? m->nbody : 1), 5 * sizeof(double));
  if (!msum) {
    sc_free(X);
    return SC_ERR_NOMEM;
  }
  for (int b = 1; b < m->nbody; b++) {
    double* Xb = X + 12 * b;
    const int w = m->body_weld[b], j = m->body_jnt[b];
    if (w == b || w == 0) {
      sc_sp_mat3_identity(Xb);
      memset(Xb + 9, 0, 3 * sizeof(double));
    } else { /* X_wp composed with the fixed joint's frame */
      const double* Xp = X + 12 * m->body_parent[b];
      sc_sp_mat3_mul(Xb, Xp, m->jnt_rot + 9 * j);
      sc_sp_mat3_vec(Xb + 9, Xp, m->jnt_pos + 3 * j);
      for (int k = 0; k < 3; k++) Xb[9 + k] += Xp[9 + k];
    }
    if (w == 0 || !(m->body_mass[b] > 0)) continue;
    double c[3];
    sc_sp_mat3_vec(c, Xb, m->body_com + 3 * b);
    for (int k = 0; k < 3; k++) msum[5 * w + k] += m->body_mass[b] * (c[k] + Xb[9 + k]);
    msum[5 * w + 3] += m->body_mass[b];
    msum[5 * w + 4] += 1;
  }
  for (int j = 0; j < m->njnt; j++) {
    if (m->jnt_type[j] != SC_JOINT_FREE) continue;
    const int b = m->jnt_body[j];
    int lin = 0;
    for (int k = 0; k < 3; k++) {
      const int d = m->jnt_vadr[j] + k;
      lin |= m->dof_damping[d] != 0.0 || m->dof_armature[d] != 0.0 || m->dof_frictionloss[d] != 0.0;
    }
    const double M = msum[5 * b + 3];
    if (!(M > 0)) continue;
    if (lin) {
      const double* g = msum + 5 * b;
      if ((g[0] != 0 || g[1] != 0 || g[2] != 0) &&
          sc_model_note(m, "body %s: its free joint has armature, damping or dry friction on its "
                        "linear velocity, so the step takes its frame origin, not its centre of "
                        "mass, as its coordinates: its linear momentum is conserved to first "
                        "order in the step only", m->body_name[b] ? m->body_name[b] : "?") != SC_OK) {
        sc_free(X);
        sc_free(msum);
        return SC_ERR_NOMEM;
      }
      continue;
    }
    /* the mass on one body: its own centre, to the bit (dynamics.c then
     * takes the joint's coordinates as that body's centre as they are) */
    if (msum[5 * b + 4] == 1 && m->body_mass[b] > 0)
      memcpy(m->jnt_com + 3 * j, m->body_com + 3 * b, 3 * sizeof(double));
    else
      for (int k = 0; k < 3; k++) m->jnt_com[3 * j + k] = msum[5 * b + k] / M;
  }
  sc_free(X);
  sc_free(msum);
  return SC_OK;
}

sc_status sc_model_finalize(sc_model* m) {
  m->njnt = m->nbody - 1;
  m->nq = m->nv = 0;
  m->ntree = 0;
  if (m->nbody > 0) {
    m->body_parent[0] = -1;
    m->body_jnt[0] = -1;
    m->body_tree[0] = -1;
  }
  for (int b = 1; b < m->nbody; b++) {
    int j = b - 1;
    m->body_jnt[b] = j;
    m->jnt_body[j] = b;
    int p = m->body_parent[b];
    m->body_tree[b] = (p == 0) ? m->ntree++ : m->body_tree[p];
    m->jnt_nq[j] = sc_joint_nq(m->jnt_type[j]);
    m->jnt_nv[j] = sc_joint_nv(m->jnt_type[j]);
    m->jnt_qadr[j] = m->nq;
    m->jnt_vadr[j] = m->nv;
    m->nq += m->jnt_nq[j];
    m->nv += m->jnt_nv[j];
  }
  ALLOC(qpos0, m->nq);
  ALLOC(qvel0, m->nv);
  ALLOC(dof_jnt, m->nv);
  ALLOC(dof_tree, m->nv);
  ALLOC(dof_damping, m->nv);
  ALLOC(dof_armature, m->nv);
  ALLOC(dof_frictionloss, m->nv);
  ALLOC(q_names, m->nq);
  ALLOC(v_names, m->nv);
  for (int j = 0; j < m->njnt; j++) {
    int b = m->jnt_body[j];
    const char* bn = m->body_name[b] ? m->body_name[b] : "body";
    if (!m->jnt_name[j]) m->jnt_name[j] = sc_strdup(bn);
    for (int k = 0; k < m->jnt_nq[j]; k++) {
      m->q_names[m->jnt_qadr[j] + k] = joined(bn, qlabel(m->jnt_type[j], k));
      if (!m->q_names[m->jnt_qadr[j] + k]) return SC_ERR_NOMEM;
    }
    for (int k = 0; k < m->jnt_nv[j]; k++) {
      int d = m->jnt_vadr[j] + k;
      m->dof_jnt[d] = j;
      m->dof_tree[d] = m->body_tree[b];
      if (k < SC_JNT_MAXDOF) {
        m->dof_damping[d] = m->jnt_damping[SC_JNT_MAXDOF * j + k];
        m->dof_armature[d] = m->jnt_armature[SC_JNT_MAXDOF * j + k];
        m->dof_frictionloss[d] = m->jnt_frictionloss[SC_JNT_MAXDOF * j + k];
      }
      m->v_names[d] = joined(bn, vlabel(m->jnt_type[j], k));
      if (!m->v_names[d]) return SC_ERR_NOMEM;
    }
    if (m->jnt_type[j] == SC_JOINT_BALL) m->qpos0[m->jnt_qadr[j]] = 1;
    if (m->jnt_type[j] == SC_JOINT_FREE) m->qpos0[m->jnt_qadr[j] + 3] = 1;
  }
  for (int s = 0; s < m->njspring; s++) {
    int j = m->jspring_jnt[s];
    m->jspring_dof[s] = m->jnt_vadr[j] + m->jspring_local[s];
    m->jspring_qadr[s] = m->jnt_qadr[j] + m->jspring_local[s];
  }
  /* the joint rows of a step (constraint/rows.c): one per finite
   * side of a limit, per dof with dry friction, per servo */
  m->nrow_max = 0;
  m->cone_tails = 0;
  for (int g = 0; g < m->ngeom; g++) m->cone_tails |= m->geom_spin[g] > 0 || m->geom_roll[g] > 0;
  m->any_damping = m->any_armature = m->any_frictionloss = m->any_limit = 0;
  for (int j = 0; j < m->njnt; j++) {
    const int n = isfinite(m->jnt_range[2 * j]) + isfinite(m->jnt_range[2 * j + 1]);
    m->nrow_max += n;
    m->any_limit |= n > 0;
  }
  for (int i = 0; i < m->nv; i++) {
    m->nrow_max += m->dof_frictionloss[i] > 0;
    m->any_frictionloss |= m->dof_frictionloss[i] > 0;
    m->any_damping |= m->dof_damping[i] != 0.0;
    m->any_armature |= m->dof_armature[i] != 0.0;
  }
  for (int a = 0; a < m->nact; a++) {
    const int j = m->act_jnt[a];
    if (m->act_tendon[a] >= 0) { /* (its row, motor or servo, is counted below) */
      m->act_dof[a] = m->act_qadr[a] = -1;
      continue;
    }
    m->act_dof[a] = m->jnt_vadr[j] + m->act_local[a];
    m->act_qadr[a] = m->jnt_qadr[j] + m->act_local[a];
    m->nrow_max += m->act_type[a] != SC_ACT_MOTOR;
  }
  /* the equality constraints' rows come last (constraint/equality.c) */
  m->neqrow = 0;
  for (int e = 0; e < m->neq; e++) {
    static const int rows[] = {3, 6, 1, 1, 1};
    m->eq_rowadr[e] = m->neqrow;
    m->eq_nrow[e] = rows[m->eq_type[e]];
    m->neqrow += m->eq_nrow[e];
  }
  m->nrow_max += m->neqrow;
  /* the tendons' limits: one row per finite side, and one for dry friction
   * (constraint/tendon.c) */
  m->nrow_wide = m->neqrow;
  m->any_tendon_spring = 0;
  for (int t = 0; t < m->ntendon; t++) {
    const int n = isfinite(m->ten_range[2 * t]) + isfinite(m->ten_range[2 * t + 1]) +
                  (m->ten_frictionloss[t] > 0);
    m->nrow_max += n;
    m->nrow_wide += n;
    m->any_tendon_spring |= m->ten_k[t] > 0 || m->ten_c[t] > 0;
  }
  /* an actuator on a tendon: one row at every step, motor or servo */
  for (int a = 0; a < m->nact; a++)
    if (m->act_tendon[a] >= 0) m->nrow_max++, m->nrow_wide++;
  ALLOC(eqrow_eq, m->neqrow + 1);
  for (int e = 0; e < m->neq; e++)
    for (int k = 0; k < m->eq_nrow[e]; k++) m->eqrow_eq[m->eq_rowadr[e] + k] = e;
  for (int g = 0; g < m->ngeom; g++) {
    if (m->geom_type[g] == SC_GEOM_MESH) { /* size: the hull's box half extents */
      const sc_mesh* me = &m->mesh[m->geom_mesh[g]];
      memcpy(m->geom_size + 3 * g, me->hbox + 3, 3 * sizeof(double));
      m->geom_rbound[g] = me->rbound;
    } else {
      m->geom_rbound[g] = bound_radius(m->geom_type[g], m->geom_size + 3 * g);
    }
  }
  ALLOC(body_rmin, m->nbody > 0 ? m->nbody : 1);
  ALLOC(body_cparent, m->nbody > 0 ? m->nbody : 1);
  ALLOC(body_weld, m->nbody > 0 ? m->nbody : 1);
  /* parents come first, so one pass follows every chain of fixed joints */
  for (int b = 0; b < m->nbody; b++)
    m->body_weld[b] = b > 0 && m->jnt_type[m->body_jnt[b]] == SC_JOINT_FIXED
                          ? m->body_weld[m->body_parent[b]]
                          : b;
  ALLOC(jnt_frame_id, m->njnt > 0 ? m->njnt : 1);
  for (int j = 0; j < m->njnt; j++)
    m->jnt_frame_id[j] = sc_sp_xform_is_identity(m->jnt_rot + 9 * j, m->jnt_pos + 3 * j);
  ALLOC(geom_frame_id, m->ngeom > 0 ? m->ngeom : 1);
  for (int g = 0; g < m->ngeom; g++)
    m->geom_frame_id[g] = sc_sp_xform_is_identity(m->geom_rot + 9 * g, m->geom_pos + 3 * g);
  ALLOC(jnt_com, 3 * (size_t)(m->njnt > 0 ? m->njnt : 1));
  {
    sc_status st = free_centres(m);
    if (st != SC_OK) return st;
  }
  {
    /* links (mass 0, no geometry) are transparent to contact filtering:
     * bodies joined through them count as parent and child */
    int* ngeom_of = sc_calloc((size_t)(m->nbody > 0 ? m->nbody : 1), sizeof *ngeom_of);
    if (!ngeom_of) return SC_ERR_NOMEM;
    for (int g = 0; g < m->ngeom; g++) ngeom_of[m->geom_body[g]]++;
    for (int b = 0; b < m->nbody; b++) {
      int p = b > 0 ? m->body_parent[b] : -1;
      while (p > 0 && m->body_mass[p] == 0 && ngeom_of[p] == 0) p = m->body_parent[p];
      m->body_cparent[b] = p;
    }
    sc_free(ngeom_of);
  }
  sort_exclusions(m);
  for (int b = 0; b < m->nbody; b++) m->body_rmin[b] = INFINITY;
  for (int g = 0; g < m->ngeom; g++)
    if (m->geom_rbound[g] < m->body_rmin[m->geom_body[g]])
      m->body_rmin[m->geom_body[g]] = m->geom_rbound[g];
  m->free_motion_affine = free_motion_affine(m);
  const sc_status st = fluid_boxes(m);
  if (st != SC_OK) return st;
  return build_cliques(m);
}
