/* island: contact islands found by union-find over the trees the
 * contacts join, each island's sub-problem extracted in local numbering and
 * solved (with the caller's refinement passes), on a pool of threads when
 * there are several; see island.h for what this guarantees and why. */
#include "island/island.h"

#include <stdatomic.h>
#include <string.h>

#include "core/core.h"
#include "solver_sap/sap_model.h"

#define SMALL_NV SC_SAP_SMALL_NV /* dofs of an island solved in the dense workspace */
#define SMALL_NC 256 /* contacts of such an island */

/* What one thread needs to solve islands: the sub-problem of one island in
 * local numbering and the SAP workspaces (thread 0 uses the borrowed sap0
 * for the large ones, the others their own) */
typedef struct island_ws {
  sc_sap_work* sap;       /* islands beyond the small ones (owned unless thread 0) */
  sc_sap_work* sap_small; /* islands of at most SMALL_NV dofs, SMALL_NC contacts: dense */
  int* iblock;            /* the int arrays below, one allocation */
  double* dblock;         /* the double arrays below */
  int *sub_tree_ptr, *sub_tree_dofs, *sub_jptr, *sub_jcol, *sub_tail;
  double *sub_A, *sub_J, *sub_vstar, *sub_v, *sub_guess, *sub_R, *sub_vhat, *sub_mu,
      *sub_phi0, *sub_gamma, *sub_hc, *sub_bound;
  unsigned char* sub_kind; /* the entries' kinds (core/problem.h) */
} island_ws;

/* One step's island solve as the threads see it (see sc_islands_solve) */
typedef struct island_job {
  const sc_model* m;
  sc_data* d;
  struct sc_islands* w;
  const sc_island_call* call;
  int nisl;
  int reserved;       /* the island thread 0 solves first, on sap0, or -1 */
  int reuse;          /* reserved's first pass may start from sap0's held factor */
  atomic_int next;    /* next entry of w->isl_order to take */
  atomic_int stop_at; /* lowest island that ended cancelled or NaN (nisl: none) */
} island_job;

struct sc_islands {
  sc_lcp_work* lcp;  /* borrowed */
  int lcp_capacity;  /* contacts the LCP workspace takes, per island */
  int lcp_big;       /* the island over lcp_capacity when sc_islands_solve refused */
  /* the LCP patterns gathered by island (w->clist order) */
  uint32_t *pat_isl_in, *pat_isl_out;
  /* the union-find over cliques, contacts and trees grouped by island, the
   * islands in the order threads take them (largest first) and each
   * island's statistics */
  int* iblock; /* the int arrays below, one allocation */
  int *uf, *island_of, *cptr, *clist, *tptr, *tlist, *loc, *cisl, *isl_order, *isl_count;
  int* eloc; /* an entry's local index in its island's sub-problem */
  sc_solver_stats* isl_stats;
  /* per thread: island buffers and workspaces; the pool of worker threads
   * when there are several */
  int nthreads;
  island_ws* iws;
  sc_pool* pool;
  island_job job;
  /* the island whose last factorization sap0 holds from the last call
   * (its first clique and its number of cliques), or held_clique = -1 */
  int held_clique, held_ncliques;
};

sc_islands* sc_islands_create(const sc_model* m, const sc_data* d, int nthreads,
                              sc_sap_work* sap0, sc_lcp_work* lcp, int lcp_capacity,
                              int* pool_failed) {
  *pool_failed = 0;
  sc_islands* w = sc_calloc(1, sizeof *w);
  if (!w) return NULL;
  const int nv = m->nv;
  const int cols2 = 2 * d->chain_max < nv ? 2 * d->chain_max : nv;
  const int cols = d->ten_width > cols2 ? d->ten_width : cols2; /* (a tendon may touch more) */
  const size_t nv_ = (size_t)nv, ncl = (size_t)m->nclique + 1, ncm = (size_t)d->nprob_max + 1;
  w->lcp = lcp;
  w->lcp_capacity = lcp_capacity;
  w->nthreads = nthreads;
  w->held_clique = -1;
  w->pat_isl_in = sc_malloc(sizeof(uint32_t) * 2 * ncm);
  if (w->pat_isl_in) w->pat_isl_out = w->pat_isl_in + ncm;
  /* int blocks and double blocks, sizes linear in the scene */
  {
    const size_t ni = ncl + ncm + (ncl + 1) + ncm + (ncl + 1) + ncl + nv_ + ncl + 2 * (ncm + 1) + ncm;
    int* ib = w->iblock = sc_malloc(sizeof(int) * ni);
    w->isl_stats = sc_malloc(sizeof(sc_solver_stats) * ncm);
    if (ib) {
      w->uf = ib, ib += ncl;
      w->island_of = ib, ib += ncm;
      w->cptr = ib, ib += ncl + 1;
      w->clist = ib, ib += ncm;
      w->tptr = ib, ib += ncl + 1;
      w->tlist = ib, ib += ncl;
      w->loc = ib, ib += nv_;
      w->cisl = ib, ib += ncl;
      w->isl_order = ib, ib += ncm + 1;
      w->isl_count = ib, ib += ncm + 1;
      w->eloc = ib;
    }
  }
  w->iws = sc_calloc((size_t)w->nthreads, sizeof(island_ws));
  int ws_ok = w->iws != NULL;
  for (int t = 0; ws_ok && t < w->nthreads; t++) {
    island_ws* x = &w->iws[t];
    const size_t jc = (size_t)d->jcap;
    const size_t ni = (ncl + 1) + nv_ + ncm + jc + ncm;
    const size_t nd = (size_t)(m->nblk > 0 ? m->nblk : 1) + 3 * jc + 3 * nv_ + 3 * ncm +
                      3 * ncm + ncm + ncm + 3 * ncm + SC_HC_NPAR * ncm + 2 * ncm;
    int* ib = x->iblock = sc_malloc(sizeof(int) * ni);
    double* db = x->dblock = sc_malloc(sizeof(double) * nd);
    if (ib && db) {
      x->sub_tree_ptr = ib, ib += ncl + 1;
      x->sub_tree_dofs = ib, ib += nv_;
      x->sub_jptr = ib, ib += ncm;
      x->sub_tail = ib, ib += ncm;
      x->sub_jcol = ib;
      x->sub_A = db, db += m->nblk > 0 ? m->nblk : 1;
      x->sub_J = db, db += 3 * jc;
      x->sub_vstar = db, db += nv_;
      x->sub_v = db, db += nv_;
      x->sub_guess = db, db += nv_;
      x->sub_R = db, db += 3 * ncm;
      x->sub_vhat = db, db += 3 * ncm;
      x->sub_mu = db, db += ncm;
      x->sub_phi0 = db, db += ncm;
      x->sub_gamma = db, db += 3 * ncm;
      x->sub_hc = db, db += SC_HC_NPAR * ncm;
      x->sub_bound = db;
    }
    x->sub_kind = sc_malloc(ncm);
    const int small_nc = d->nprob_max < SMALL_NC ? d->nprob_max : SMALL_NC;
    const int small_nv = nv < SMALL_NV ? nv : SMALL_NV;
    /* of a small island's rows, as many as there can be contacts, wide rows
     * (equality constraints', tendons') and contacts' cone tails may be
     * wide */
    const int nwide = d->ncon_max + m->nrow_wide + (m->cone_tails ? d->ncon_max : 0);
    const int small_rows = small_nc > nwide ? small_nc - nwide : 0;
    x->sap_small = sc_sap_work_create_sized(small_nv, small_nc, (long)small_nv * small_nv,
                                            cols, small_rows, d->cross_max);
    x->sap = t == 0 ? sap0
                    : sc_sap_work_create_sized(nv, d->nprob_max, m->nblk, cols, m->nrow_max - m->nrow_wide,
                                               d->cross_max);
    ws_ok = ib && db && x->sub_kind && x->sap_small && x->sap;
  }
  if (ws_ok && w->nthreads > 1) {
    w->pool = sc_pool_create(w->nthreads);
    if (!w->pool) *pool_failed = 1;
  }
  if (!ws_ok || !w->iblock || !w->isl_stats || !w->pat_isl_in || *pool_failed) {
    sc_islands_free(w);
    return NULL;
  }
  return w;
}

void sc_islands_forget(sc_islands* s) {
  /* (no write when there is nothing to forget: copies may read one source
   * from several threads) */
  if (s && s->held_clique != -1) s->held_clique = -1;
}

void sc_islands_free(sc_islands* w) {
  if (!w) return;
  sc_pool_free(w->pool); /* first: no worker may still touch a workspace */
  for (int t = 0; w->iws && t < w->nthreads; t++) {
    island_ws* x = &w->iws[t];
    if (t > 0) sc_sap_work_free(x->sap);
    sc_sap_work_free(x->sap_small);
    sc_free(x->iblock);
    sc_free(x->dblock);
    sc_free(x->sub_kind);
  }
  sc_free(w->iws);
  sc_free(w->pat_isl_in);
  sc_free(w->iblock);
  sc_free(w->isl_stats);
  sc_free(w);
}

int sc_islands_threads(const sc_islands* w) { return w->nthreads; }

static int uf_root(int* uf, int x) {
  while (uf[x] != x) {
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

/* group the contacts into islands: w->cptr/clist (contacts of island k,
 * ascending), w->tptr/tlist (its cliques, ascending); returns the number of
 * islands.  Contacts that touch no dof (both bodies fixed) form one island
 * without trees. */
static int find_islands(const sc_model* m, const sc_data* d, sc_islands* w, int nc) {
  const int ncl = m->nclique;
  int* uf = w->uf;
  for (int c = 0; c <= ncl; c++) uf[c] = c; /* ncl: the "no dof" set */
  for (int i = 0; i < nc; i++) {
    if (d->jptr[i] == d->jptr[i + 1]) continue;
    int a = uf_root(uf, m->dof_clique[d->jcol[d->jptr[i]]]);
    for (int q = d->jptr[i] + 1; q < d->jptr[i + 1]; q++) {
      const int b = uf_root(uf, m->dof_clique[d->jcol[q]]);
      if (a < b) uf[b] = a;
      else if (b < a) uf[a] = b, a = b;
    }
  }
  /* island numbers in the order of the first contact; tptr doubles as the
   * root -> island map while counting */
  int* num = w->tptr;
  for (int c = 0; c <= ncl; c++) num[c] = -1;
  int nisl = 0;
  for (int i = 0; i < nc; i++) {
    const int r = d->jptr[i] == d->jptr[i + 1] ? ncl : uf_root(uf, m->dof_clique[d->jcol[d->jptr[i]]]);
    if (num[r] < 0) num[r] = nisl++;
    w->island_of[i] = num[r];
  }
  for (int k = 0; k <= nisl; k++) w->cptr[k] = 0;
  for (int i = 0; i < nc; i++) w->cptr[w->island_of[i] + 1]++;
  for (int k = 0; k < nisl; k++) w->cptr[k + 1] += w->cptr[k];
  for (int i = 0; i < nc; i++) w->clist[w->cptr[w->island_of[i]]++] = i;
  for (int k = nisl; k > 0; k--) w->cptr[k] = w->cptr[k - 1];
  w->cptr[0] = 0;
  /* cliques per island: a clique's island is num[its root] */
  int* cisl = w->cisl;
  for (int c = 0; c < ncl; c++) cisl[c] = m->clique_dofnum[c] > 0 ? num[uf_root(uf, c)] : -1;
  int* tptr = w->isl_count; /* counts, then moved into w->tptr */
  for (int k = 0; k <= nisl; k++) tptr[k] = 0;
  for (int c = 0; c < ncl; c++)
    if (cisl[c] >= 0) tptr[cisl[c] + 1]++;
  for (int k = 0; k < nisl; k++) tptr[k + 1] += tptr[k];
  for (int k = 0; k <= nisl; k++) w->tptr[k] = tptr[k];
  for (int c = 0; c < ncl; c++)
    if (cisl[c] >= 0) w->tlist[tptr[cisl[c]]++] = c;
  return nisl;
}

/* Solve island k on the buffers and workspaces x of one thread: copy its
 * sub-problem out of d, solve it, and write its velocities and impulses
 * back into d (each island owns its dofs and contacts, so threads write
 * disjoint entries).  w->loc maps a global dof to its local index; only
 * island k's entries are written. */
static sc_solve_status solve_island(const sc_model* m, sc_data* d, const sc_islands* w,
                                    island_ws* x, int k, int reuse, const sc_island_call* call,
                                    sc_solver_stats* st) {
  const double* guess = call->guess;
  const double* hc = call->hc;
  /* trees, in clique order, numbered locally one after the other */
  int nt = 0, nvl = 0;
  size_t aoff = 0;
  x->sub_tree_ptr[0] = 0;
  for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) {
    const int c = w->tlist[e], n = m->clique_dofnum[c];
    const int* idx = m->clique_dofs + m->clique_dofadr[c];
    for (int a = 0; a < n; a++) {
      const int g = idx[a], l = nvl + a;
      w->loc[g] = l;
      x->sub_tree_dofs[l] = l;
      x->sub_vstar[l] = d->vstar[g];
      x->sub_v[l] = d->v[g];
      if (guess) x->sub_guess[l] = guess[g];
    }
    memcpy(x->sub_A + aoff, d->A + m->clique_blkadr[c], sizeof(double) * (size_t)n * n);
    aoff += (size_t)n * n;
    nvl += n;
    x->sub_tree_ptr[++nt] = nvl;
  }
  /* contacts, ascending */
  int ncl = 0, q = 0, any_match = 0, any_box = 0;
  for (int e = w->cptr[k]; e < w->cptr[k + 1]; e++, ncl++) {
    const int i = w->clist[e];
    x->sub_jptr[ncl] = q;
    for (int g = d->jptr[i]; g < d->jptr[i + 1]; g++, q++) {
      x->sub_jcol[q] = w->loc[d->jcol[g]];
      memcpy(x->sub_J + 3 * (size_t)q, d->Jc + 3 * (size_t)g, 3 * sizeof(double));
    }
    memcpy(x->sub_R + 3 * ncl, d->R + 3 * i, 3 * sizeof(double));
    memcpy(x->sub_vhat + 3 * ncl, d->vhat + 3 * i, 3 * sizeof(double));
    x->sub_mu[ncl] = d->mu[i];
    x->sub_phi0[ncl] = d->phi0[i];
    if (hc) memcpy(x->sub_hc + SC_HC_NPAR * ncl, hc + SC_HC_NPAR * i, SC_HC_NPAR * sizeof(double));
    if (d->nrow > 0) {
      x->sub_kind[ncl] = d->ckind[i];
      x->sub_bound[2 * ncl] = d->cbound[2 * i];
      x->sub_bound[2 * ncl + 1] = d->cbound[2 * i + 1];
      any_box |= d->ckind[i] != SC_ROW_CONTACT;
    }
    any_match |= guess && call->matched[i];
    w->eloc[i] = ncl;
  }
  x->sub_jptr[ncl] = q;
  /* a contact's cone tail lies in its island (the same columns): its local
   * index */
  const int any_tail = m->cone_tails && d->nrow > 0;
  if (any_tail)
    for (int e = w->cptr[k], l = 0; e < w->cptr[k + 1]; e++, l++) {
      const int i = w->clist[e];
      x->sub_tail[l] = i < d->ncon && d->ctail[i] >= 0 ? w->eloc[d->ctail[i]] : -1;
    }
  const sc_problem p = {nvl, ncl, nt, x->sub_tree_ptr, x->sub_tree_dofs, x->sub_A,
                        x->sub_vstar, x->sub_jptr, x->sub_jcol, x->sub_J, x->sub_R,
                        x->sub_vhat, x->sub_mu, x->sub_phi0, d->h,
                        call->model, hc ? x->sub_hc : NULL, any_box ? x->sub_kind : NULL,
                        x->sub_bound, any_tail ? x->sub_tail : NULL};
  /* solved, then again while the caller's refine changes a contact's law
   * (at most call->passes times), each pass from the last one's solution */
  sc_solve_status ss;
  const int c0 = w->cptr[k];
  sc_solver_stats one;
  for (int pass = 0;; pass++) {
    if (m->opt.solver == SC_SOLVER_LCP) {
      if (call->pat_guess)
        for (int e = c0; e < w->cptr[k + 1]; e++)
          w->pat_isl_in[e] = pass ? w->pat_isl_out[e] : call->pat_guess[w->clist[e]];
      ss = sc_lcp_solve_from(&p, m->opt.lcp_directions, 0, w->lcp,
                             call->pat_guess ? w->pat_isl_in + c0 : NULL,
                             w->pat_isl_out + c0, x->sub_v, x->sub_gamma, &one);
    } else {
      sc_sap_work* ws = nvl <= SMALL_NV && ncl <= SMALL_NC ? x->sap_small : x->sap;
      /* a later pass re-solves this island on the same workspace, right
       * after the last: it may start from that pass's factorization; so
       * may the first, when the last call's solve of this island left its
       * factorization in sap0 (reuse, see sc_islands_solve) */
      if (pass || reuse) sc_sap_reuse_factor(ws);
      ss = sc_sap_solve_from(&p, call->sap, ws, x->sub_v,
                             any_match && pass == 0 ? x->sub_guess : NULL, x->sub_gamma, &one);
    }
    if (pass == 0) *st = one;
    else sc_solver_stats_add(st, &one);
    if (ss != SC_SOLVE_OK || pass >= call->passes || !call->refine ||
        !call->refine(call->refine_ctx, ncl, w->clist + c0, x->sub_gamma, x->sub_R, x->sub_vhat,
                      hc ? x->sub_hc : NULL))
      break;
  }
  if (m->opt.solver == SC_SOLVER_LCP)
    for (int e = c0; e < w->cptr[k + 1]; e++) call->pat_out[w->clist[e]] = w->pat_isl_out[e];
  for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) {
    const int c = w->tlist[e];
    for (int a = 0; a < m->clique_dofnum[c]; a++) {
      const int g = m->clique_dofs[m->clique_dofadr[c] + a];
      d->v[g] = x->sub_v[w->loc[g]];
    }
  }
  for (int e = w->cptr[k], l = 0; e < w->cptr[k + 1]; e++, l++)
    memcpy(d->impulse + 3 * w->clist[e], x->sub_gamma + 3 * l, 3 * sizeof(double));
  return ss;
}

/* Island k solved by thread t, its status recorded; a cancelled or NaN
 * island lowers job->stop_at to k */
static void work_on(island_job* job, int t, int k, int reuse) {
  sc_islands* w = job->w;
  sc_solver_stats* st = &w->isl_stats[k];
  const sc_solve_status ss = solve_island(job->m, job->d, w, &w->iws[t], k, reuse, job->call, st);
  st->status = ss;
  if (ss == SC_SOLVE_CANCELLED || ss == SC_SOLVE_NAN) {
    int cur = atomic_load_explicit(&job->stop_at, memory_order_relaxed);
    while (k < cur && !atomic_compare_exchange_weak(&job->stop_at, &cur, k)) {
    }
  }
}

/* One thread's share of a step's islands: thread 0 first solves the
 * island reserved for it (sc_islands_solve), then each thread takes the
 * next island of w->isl_order until none is left.  An island past one that
 * ended cancelled or NaN is not solved (as a single thread in island order
 * would not reach it). */
static void island_worker(void* arg, int t) {
  island_job* job = arg;
  sc_islands* w = job->w;
  if (t == 0 && job->reserved >= 0) work_on(job, 0, job->reserved, job->reuse);
  for (;;) {
    const int j = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
    if (j >= job->nisl) break;
    const int k = w->isl_order[j];
    if (k == job->reserved) continue;
    if (k > atomic_load_explicit(&job->stop_at, memory_order_relaxed)) {
      w->isl_stats[k].status = SC_SOLVE_CANCELLED; /* not solved; never read (k > stop_at) */
      continue;
    }
    work_on(job, t, k, 0);
  }
}

sc_solve_status sc_islands_solve(sc_islands* w, const sc_model* m, sc_data* d,
                                 const sc_island_call* call) {
  const int nc = d->ncon + d->nrow; /* the contacts, then the joint rows */
  const double* v0 = call->v0;
  const int nv = m->nv;
  const int nisl = find_islands(m, d, w, nc);
  sc_solver_stats tot = {0, 0, 0.0, 0.0, SC_SOLVE_OK, 0};
  d->nisland = nisl;
  /* the LCP workspace is sized once: refuse before solving anything when
   * an island does not fit (sc_step names it) */
  if (m->opt.solver == SC_SOLVER_LCP)
    for (int k = 0; k < nisl; k++)
      if (w->cptr[k + 1] - w->cptr[k] > w->lcp_capacity) {
        w->lcp_big = k;
        tot.status = SC_SOLVE_CAPACITY;
        d->contact_stats = tot;
        return tot.status;
      }
  /* trees no contact touches: v = v* */
  for (int i = 0; i < nv; i++) w->loc[i] = -1;
  for (int k = 0; k < nisl; k++)
    for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) {
      const int c = w->tlist[e];
      for (int a = 0; a < m->clique_dofnum[c]; a++) w->loc[m->clique_dofs[m->clique_dofadr[c] + a]] = 0;
    }
  for (int i = 0; i < nv; i++)
    if (w->loc[i] < 0) d->v[i] = d->vstar[i];
  /* the LCP has one Lemke workspace: one thread */
  const int threaded = w->pool && nisl > 1 && m->opt.solver != SC_SOLVER_LCP;
  if (threaded) {
    /* largest first: a counting sort on the contact count, descending,
     * ties in island order */
    int* cnt = w->isl_count;
    for (int c = 0; c <= nc; c++) cnt[c] = 0;
    for (int k = 0; k < nisl; k++) cnt[w->cptr[k + 1] - w->cptr[k]]++;
    for (int c = nc, acc = 0; c >= 0; c--) {
      const int n = cnt[c];
      cnt[c] = acc;
      acc += n;
    }
    for (int k = 0; k < nisl; k++) w->isl_order[cnt[w->cptr[k + 1] - w->cptr[k]]++] = k;
  } else
    for (int k = 0; k < nisl; k++) w->isl_order[k] = k;
  /* A factorization kept across calls (sap.c): when exactly one island
   * takes the block path (the others are small and dense), thread 0 solves
   * it on sap0, whatever the number of threads, so that sap0 then holds its
   * last factorization; the next call's solve of the same island (same
   * first clique and number of cliques) may start from it.  Which factor a
   * solve starts from thus depends only on the calls' islands, never on
   * which thread took what: outputs stay bit-identical across thread
   * counts.  With two or more such islands nothing is kept. */
  int nbig = 0, big = -1;
  if (m->opt.solver != SC_SOLVER_LCP)
    for (int k = 0; k < nisl && nbig < 2; k++) {
      int nvl = 0;
      for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) nvl += m->clique_dofnum[w->tlist[e]];
      if (nvl > SMALL_NV || w->cptr[k + 1] - w->cptr[k] > SMALL_NC) nbig++, big = k;
    }
  const int first = nbig == 1 ? w->tlist[w->tptr[big]] : -1;
  const int ncliques = nbig == 1 ? w->tptr[big + 1] - w->tptr[big] : 0;
  island_job* job = &w->job;
  job->reserved = nbig == 1 ? big : -1;
  job->reuse = nbig == 1 && first == w->held_clique && ncliques == w->held_ncliques;
  job->m = m;
  job->d = d;
  job->w = w;
  job->call = call;
  job->nisl = nisl;
  atomic_store(&job->next, 0);
  atomic_store(&job->stop_at, nisl);
  if (threaded) sc_pool_run(w->pool, island_worker, job);
  else island_worker(job, 0);
  /* combine in island order, up to and including a cancelled or NaN island */
  const int last = atomic_load(&job->stop_at);
  w->held_clique = nbig == 1 && big <= last && w->isl_stats[big].status == SC_SOLVE_OK ? first : -1;
  w->held_ncliques = ncliques;
  for (int k = 0; k < nisl && k <= last; k++) {
    const sc_solver_stats* st = &w->isl_stats[k];
    const sc_solve_status ss = st->status;
    if (st->iterations > tot.iterations) tot.iterations = st->iterations;
    tot.linesearch_evals += st->linesearch_evals;
    tot.factorizations += st->factorizations;
    if (st->residual > tot.residual) tot.residual = st->residual;
    tot.cost += st->cost;
    if (tot.status == SC_SOLVE_OK && ss != SC_SOLVE_OK) tot.status = ss;
  }
  for (int k = last + 1; k < nisl; k++) {
    for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) {
      const int c = w->tlist[e];
      for (int a = 0; a < m->clique_dofnum[c]; a++) {
        const int g = m->clique_dofs[m->clique_dofadr[c] + a];
        d->v[g] = v0[g];
      }
    }
    for (int e = w->cptr[k]; e < w->cptr[k + 1]; e++)
      memset(d->impulse + 3 * w->clist[e], 0, 3 * sizeof(double));
  }
  d->contact_stats = tot;
  return tot.status;
}

sc_status sc_islands_capacity_error(const sc_islands* w, const sc_model* m, const sc_data* d,
                                    sc_error* err) {
  const int k = w->lcp_big, nc = w->cptr[k + 1] - w->cptr[k], dirs = m->opt.lcp_directions;
  int nvl = 0;
  for (int e = w->tptr[k]; e < w->tptr[k + 1]; e++) nvl += m->clique_dofnum[w->tlist[e]];
  return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                      "t = %.9g s: the dense LCP of a contact island of %d contacts (%d trees, "
                      "%d velocities; %d cone edges) would need %.0f MiB, more than its limit "
                      "of %.4g MiB (room for %d contacts per island); use --solver newton, "
                      "fewer contact.lcp.directions, or a larger contact.lcp.max_memory",
                      d->time, nc, w->tptr[k + 1] - w->tptr[k], nvl, dirs,
                      (double)sc_lcp_work_bytes(m->nv, nc, dirs) / 1048576.0,
                      m->opt.lcp_max_memory, w->lcp_capacity);
}
