/* state: allocation of per-run data, sized once from the model. */
#include "state/state.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "spatial/spatial.h"

/* Default contact capacity: every geom pair may produce up to 8 points
 * (box-box manifolds), capped to keep memory sane for big clutter scenes;
 * options.ncon_max overrides. */
static int default_ncon_max(const sc_model* m) {
  long n = m->ngeom;
  long pairs = n * (n - 1) / 2;
  long cap = 8 * pairs;
  long lin = 16 * n + 16;
  if (cap > lin) cap = lin;
  if (cap < 8) cap = 8;
  return (int)cap;
}

int sc_data_contact_capacity(const sc_model* m) {
  return m->opt.ncon_max > 0 ? m->opt.ncon_max : default_ncon_max(m);
}

/* the sizes the arrays' counts are written in (state.h) */
static sc_data_sizes sizes_of(const sc_model* m, const sc_data* d) {
  const sc_data_sizes S = {m->nq, m->nv, m->nbody, m->njnt, m->ngeom, d->ncon_max, d->nprob_max,
                           d->jcap, m->nblk, m->nrow_max + (m->cone_tails ? d->ncon_max : 0),
                           m->nact, m->neq, m->neqrow, m->ntendon,
                           m->cone_tails ? 3 * (long)d->jcap : 0};
  return S;
}

/* every array holds at least one element (a model without geoms, joints...) */
static size_t at_least_one(long n) { return n > 0 ? (size_t)n : 1; }

sc_status sc_data_create(const sc_model* m, sc_data** out, sc_error* err) {
  *out = NULL;
  sc_data* d = sc_calloc(1, sizeof *d);
  if (!d) return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory creating data");
  const int nv = m->nv, nb = m->nbody;
  d->ncon_max = sc_data_contact_capacity(m);
  const int nc = d->ncon_max;
  /* (a contact with torsional or rolling friction adds its cone tail) */
  d->nprob_max = nc + m->nrow_max + (m->cone_tails ? nc : 0);
  /* the longest chain of dofs from a body to the world bounds the columns
   * a contact touches: 2 chains per contact */
  int chain_max = 0;
  long cross_max = 0;
  {
    /* per body: its chain's length and the clique all of the chain's dofs
     * are in (-1: none yet, -2: several) */
    int* chain = sc_calloc(2 * (size_t)nb, sizeof(int));
    if (!chain) goto nomem;
    int* clq = chain + nb;
    clq[0] = -1;
    for (int b = 1; b < nb; b++) {
      const int pa = m->body_parent[b], jn = m->body_jnt[b];
      const int jnv = jn >= 0 ? m->jnt_nv[jn] : 0;
      chain[b] = chain[pa] + jnv;
      clq[b] = clq[pa];
      for (int k = 0; k < jnv; k++) {
        const int c = m->dof_clique[m->jnt_vadr[jn] + k];
        clq[b] = clq[b] == -1 || clq[b] == c ? c : -2;
      }
      if (chain[b] > chain_max) chain_max = chain[b];
    }
    /* the pairs of a contact's columns in different cliques (its
     * triplets of H outside A's blocks, see sap_sparse.c): those within
     * each chain when a chain spans several cliques, and those between
     * two chains unless both lie in one and the same clique.  Per
     * clique the longest chain within it (the first two cliques by that
     * length), and the longest chains spanning several */
    long xin = 0;
    int top1 = 0, top2 = 0, multi = 0;
    int* best = sc_calloc((size_t)m->nclique + 1, sizeof(int));
    if (!best) {
      sc_free(chain);
      goto nomem;
    }
    for (int b = 1; b < nb; b++) {
      const long p = chain[b];
      if (clq[b] == -2) {
        if (p * (p - 1) / 2 > xin) xin = p * (p - 1) / 2;
        if (p > multi) multi = (int)p;
      } else if (clq[b] >= 0 && p > best[clq[b]]) {
        best[clq[b]] = (int)p;
      }
    }
    for (int c = 0; c < m->nclique; c++) {
      if (best[c] > top1) top2 = top1, top1 = best[c];
      else if (best[c] > top2) top2 = best[c];
    }
    const long between = (long)top1 * top2 > (long)multi * chain_max ? (long)top1 * top2
                                                                      : (long)multi * chain_max;
    cross_max = 2 * xin + between;
    sc_free(best);
    sc_free(chain);
  }
  /* a tendon's limit row touches the dofs of every body on its path (the
   * union of their chains): its width and cross-clique pairs may pass a
   * contact's, so they are counted (width in d->ten_width) */
  d->ten_width = 0;
  int wide2 = 0;
  if (m->ntendon > 0) {
    int* mark = sc_calloc((size_t)nv + 1, sizeof(int));
    int* cols = sc_calloc((size_t)nv + 1, sizeof(int));
    if (!mark || !cols) {
      sc_free(mark);
      sc_free(cols);
      goto nomem;
    }
    for (int t = 0; t < m->ntendon; t++) {
      int n = 0;
      for (int w = m->ten_wrapadr[t]; w < m->ten_wrapadr[t] + m->ten_wrapnum[t]; w++) {
        if (m->ten_type[t] == SC_TENDON_FIXED) {
          const int dof = m->jnt_vadr[m->wrap_jnt[w]];
          if (mark[dof] != t + 1) mark[dof] = t + 1, cols[n++] = dof;
          continue;
        }
        for (int b = m->wrap_body[w]; b > 0; b = m->body_parent[b]) {
          const int jn = m->body_jnt[b];
          for (int k = 0; k < m->jnt_nv[jn]; k++) {
            const int dof = m->jnt_vadr[jn] + k;
            if (mark[dof] != t + 1) mark[dof] = t + 1, cols[n++] = dof;
          }
        }
      }
      long cross = 0;
      for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) cross += m->dof_clique[cols[a]] != m->dof_clique[cols[b]];
      if (n > d->ten_width) d->ten_width = n;
      if (2 * cross > cross_max) cross_max = 2 * cross;
    }
    /* a tendon equality's row: the union of its two tendons' dofs, at most
     * twice the widest tendon's */
    for (int e = 0; e < m->neq; e++)
      if (m->eq_type[e] == SC_EQ_TENDON && m->eq_obj[2 * e + 1] >= 0 && 2 * d->ten_width > wide2)
        wide2 = 2 * d->ten_width;
    sc_free(mark);
    sc_free(cols);
  }
  if (wide2 > 0) {
    /* (its cross pairs bounded by all pairs of that many columns) */
    if (wide2 > d->ten_width) d->ten_width = wide2 < nv ? wide2 : nv;
    const long w = d->ten_width;
    if (w * (w - 1) > cross_max) cross_max = w * (w - 1);
  }
  d->chain_max = chain_max;
  d->cross_max = cross_max;
  /* a contact, an equality row and a tendon's limit may touch two chains (a
   * tendon more: bounded by nv below), the other rows one dof */
  {
    /* (an equality row spans two chains, or a tendon's dofs for a tendon
     * equality: the wider of the two for each) */
    const int wide = d->ten_width > 2 * chain_max ? d->ten_width : 2 * chain_max;
    d->jcap = 2 * chain_max * nc + wide * m->neqrow + d->ten_width * (m->nrow_wide - m->neqrow) +
              (m->nrow_max - m->nrow_wide) + (m->cone_tails ? 2 * chain_max * nc : 0) + 1;
  }
  {
    const sc_data_sizes S = sizes_of(m, d);
#define SC_DATA_ALLOC(type, name, count)                       \
  d->name = sc_calloc(at_least_one(count), sizeof(type));      \
  if (!d->name) goto nomem;
    SC_DATA_ARRAYS(SC_DATA_ALLOC)
#undef SC_DATA_ALLOC
  }
  for (int i = 0; i < 2 * nv; i++) d->jmark[i] = -1;
  for (int t = 0; t < m->ntendon; t++) d->ten_rest[t] = NAN;
  sc_data_reset(m, d);
  *out = d;
  return SC_OK;
nomem:
  sc_data_free(d);
  return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0,
                      "out of memory creating data (nv = %d, contact capacity = %d)", nv, nc);
}

/* sign +1: frame origin to centre of mass, -1: back; the orientations are
 * read from q (the same in both), the positions moved in p (NULL: not) */
static void free_shift(const sc_model* m, const double* q, double* p, double* v, double sign) {
  for (int j = 0; j < m->njnt; j++) {
    if (m->jnt_type[j] != SC_JOINT_FREE) continue;
    const double* s = m->jnt_com + 3 * j;
    if (s[0] == 0.0 && s[1] == 0.0 && s[2] == 0.0) continue;
    double R[9], Rs[3];
    sc_sp_quat_to_mat3(R, q + m->jnt_qadr[j] + 3);
    sc_sp_mat3_vec(Rs, R, s);
    if (p)
      for (int k = 0; k < 3; k++) p[m->jnt_qadr[j] + k] += sign * Rs[k];
    if (v) {
      double* vj = v + m->jnt_vadr[j];
      double wxRs[3];
      sc_sp_cross3(wxRs, vj + 3, Rs);
      for (int k = 0; k < 3; k++) vj[k] += sign * wxRs[k];
    }
  }
}

static double* quat_of(const sc_model* m, double* q, int j) {
  return q + m->jnt_qadr[j] + (m->jnt_type[j] == SC_JOINT_FREE ? 3 : 0);
}

int sc_state_zero_quaternion(const sc_model* m, const double* q) {
  for (int j = 0; j < m->njnt; j++) {
    if (m->jnt_type[j] != SC_JOINT_BALL && m->jnt_type[j] != SC_JOINT_FREE) continue;
    const double* x = quat_of(m, (double*)q, j);
    if (x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0 && x[3] == 0.0) return j;
  }
  return -1;
}

void sc_state_normalize_quaternions(const sc_model* m, double* q) {
  for (int j = 0; j < m->njnt; j++) {
    if (m->jnt_type[j] != SC_JOINT_BALL && m->jnt_type[j] != SC_JOINT_FREE) continue;
    double* x = quat_of(m, q, j);
    const double n2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
    if (!(n2 >= DBL_MIN && n2 <= DBL_MAX)) {
      double big = 0.0;
      for (int i = 0; i < 4; i++) big = fmax(big, fabs(x[i]));
      if (big > 0.0)
        for (int i = 0; i < 4; i++) x[i] /= big;
    }
    sc_sp_quat_normalize(x);
  }
}

void sc_state_frame_to_com(const sc_model* m, double* q, double* v) { free_shift(m, q, q, v, 1.0); }
void sc_state_com_to_frame(const sc_model* m, double* q, double* v) { free_shift(m, q, q, v, -1.0); }
void sc_state_velocity_to_frame(const sc_model* m, const double* q, double* v) {
  free_shift(m, q, NULL, v, -1.0);
}

void sc_data_reset(const sc_model* m, sc_data* d) {
  d->time = 0;
  d->step = 0;
  d->h = m->opt.dt;
  memcpy(d->q, m->qpos0, sizeof(double) * (size_t)m->nq);
  memcpy(d->v, m->qvel0, sizeof(double) * (size_t)m->nv);
  sc_state_frame_to_com(m, d->q, d->v);
  d->ncon = 0;
  d->kin_valid = 0;
  d->e_damper = d->e_contact = d->e_normal = d->e_friction = 0;
  d->e_actuator = d->e_limit = d->e_jfriction = d->e_constraint = 0;
  d->e_applied = 0;
  memset(d->qfrc_applied, 0, sizeof(double) * (size_t)m->nv);
  memset(d->xfrc_applied, 0, sizeof(double) * 6 * (size_t)m->nbody);
  memset(d->fapplied, 0, sizeof(double) * (size_t)m->nv);
  d->nrow = 0;
  memset(d->act_force, 0, sizeof(double) * (size_t)m->nact);
  for (int a = 0; a < m->nact; a++) d->ctrl[a] = NAN;
  memset(d->jnt_limit_force, 0, sizeof(double) * (size_t)m->njnt);
  memset(d->eq_force, 0, sizeof(double) * (size_t)m->neqrow);
  memset(d->ten_limit_force, 0, sizeof(double) * (size_t)m->ntendon);
  memset(d->ten_friction_force, 0, sizeof(double) * (size_t)m->ntendon);
  memset(d->dof_friction_force, 0, sizeof(double) * (size_t)m->nv);
  for (int a = 0; a < m->nact; a++)
    d->act_ctrl[a] = m->act_cmd[a] >= 0 ? sc_model_command(m, m->act_cmd[a], 0.0) : m->act_input[2 * a];
  d->max_depth = d->max_depth_frac = 0;
  d->relinearizations = 0;
  d->free_iterations = 0;
  d->free_residual = 0;
  d->afac_current = 0;
  memset(&d->contact_stats, 0, sizeof d->contact_stats);
  memset(d->warning, 0, sizeof d->warning);
  d->fast_body = 0;
  d->fast_dist = d->fast_time = 0;
  d->h_next = 0;
  d->err_prev = 1;
  d->substeps = d->rejected = 0; /* (the initial row ends no interval) */
  d->shortest = 0;
  d->substeps_total = d->rejected_total = 0;
}

void sc_data_free(sc_data* d) {
  if (!d) return;
  if (d->solver_work && d->solver_work_free) d->solver_work_free(d->solver_work);
  sc_data_free(d->adapt[0]);
  sc_data_free(d->adapt[1]);
#define SC_DATA_FREE(type, name, count) sc_free(d->name);
  SC_DATA_ARRAYS(SC_DATA_FREE)
#undef SC_DATA_FREE
  sc_free(d);
}

void sc_data_copy(const sc_model* m, sc_data* dst, const sc_data* src) {
  const sc_data_sizes S = sizes_of(m, src);
  /* the arrays' contents, then the numbers: the whole struct, with dst's
   * own pointers put back */
#define SC_DATA_COPY(type, name, count) \
  memcpy(dst->name, src->name, at_least_one(count) * sizeof(type));
  SC_DATA_ARRAYS(SC_DATA_COPY)
#undef SC_DATA_COPY
  sc_data keep = *dst;
  *dst = *src;
#define SC_DATA_KEEP(type, name, count) dst->name = keep.name;
  SC_DATA_ARRAYS(SC_DATA_KEEP)
#undef SC_DATA_KEEP
  dst->solver_work = keep.solver_work;
  dst->solver_work_free = keep.solver_work_free;
  dst->solver_trace = keep.solver_trace;
  dst->adapt[0] = keep.adapt[0];
  dst->adapt[1] = keep.adapt[1];
  dst->adapt_scratch = keep.adapt_scratch;
}
