/* sap_sparse: the SAP Newton Hessian as a sparse matrix, factored by the block
 * Cholesky over the trees (sap_block.c) or by CHOLMOD (doc/contact.md 9).
 *
 *   H = A + J^T G J = A + sum_i J_i^T G_i J_i,   G_i = -d gamma_i / d vc_i
 *
 * A is block diagonal per tree (a connected component of A's nonzero
 * pattern; for a free body one 6x6 block) and contact i's rows J_i touch
 * only the few trees of the bodies in contact, so H has the tree blocks of A
 * plus, per contact, the dense block over the columns J_i touches: the
 * pattern of the contact graph.  The pattern is fixed during a time step
 * (the contact set is frozen), hence a symbolic analysis once per solve and
 * a numeric refactorization every Newton iteration (Drake does the same with
 * its block-sparse supernodal Cholesky).
 *
 * Two factorizations.  The default (kind SC_SAP_SPARSE_BLOCK) is simc's block
 * Cholesky (sap_block.c): the trees are its supernodes, the elimination
 * order is AMD (CHOLMOD's cholmod_amd) on the graph of trees -- 36 times
 * fewer entries than H's scalar pattern for free bodies -- and the triplets
 * of H are added straight into the factor's panels.  On clutter piles it
 * took 17 % less time per run than CHOLMOD's path below (the analysis of
 * the scalar pattern, its simplicial up-looking kernel on 6 x 6 blocks).
 * CHOLMOD stays as the second implementation (SC_SAP_SPARSE_SUPERNODAL /
 * SIMPLICIAL / AUTO), which the tests compare against.
 *
 * Why CHOLMOD (SuiteSparse): a well-kept supernodal sparse Cholesky with a
 * fill-reducing ordering (AMD here; METIS is available) -- the right tool for
 * the contact graph of cluttered scenes, where many trees touch each other
 * and the elimination order decides the fill.  For small or very sparse
 * patterns CHOLMOD's own flop/nnz(L) rule picks its simplicial (up-looking)
 * factorization instead; both are used through their numeric kernels
 * (cholmod_super_numeric / cholmod_rowfac) on a matrix this file assembles
 * directly in the permuted order, because the convenience wrapper
 * cholmod_factorize allocates two permuted transposes on every call.  The
 * supernodal solve is cholmod_solve2 with reused workspace; the simplicial
 * LL^T solve is written here, since cholmod_solve2 reallocates its
 * simplicial workspace on every call.
 *
 * Delassus diagonal (doc/contact.md 5): W_ii = sum over trees c touched by contact i
 * of J_ic A_c^-1 J_ic^T = Z^T Z, Z = L_c^-1 J_ic^T, with each tree block
 * A_c = L_c L_c^T factored once.  It equals the dense J A^-1 J^T diagonal
 * because A^-1 is block diagonal too.
 *
 * Memory.  All of simc's buffers are sized in sc_sap_sparse_create.  CHOLMOD
 * allocates through SuiteSparse_config hooks set here:
 *   - cholmod_analyze (the symbolic factor, ordering workspace) and the first
 *     numeric factorization and solve after it (the numeric values of L,
 *     the supernodal solve's workspace) allocate whenever the pattern of H
 *     changes.  Those requests are served by a bump arena reserved at
 *     creation (48 bytes per possible triplet of H plus 1 MiB), emptied when
 *     the pattern changes after the old factor is freed: no system
 *     allocation in a time step.  Only a factor with more fill than the
 *     arena holds spills to sc_malloc (counted by sc_alloc_count and by
 *     sc_sap_cholmod_alloc_count), so a test can tell.
 *   - cholmod_super_numeric allocates a dense update buffer (and its header)
 *     on every call.  Those two requests are served from a pool sized after
 *     the analysis, so the per-iteration path makes no allocation.
 * The hooks are process-wide (SuiteSparse_config is a global): simc must be
 * the only CHOLMOD user in the process, which it is.  They are stored, always
 * with the same values, by sc_sap_sparse_create, which runs when a
 * simulation is prepared and before any worker thread solves; afterwards
 * the global is only read.
 * Threads (contact.threads): the state the hooks use (the armed arena and
 * pool, the allocation count) is _Thread_local and armed by the thread that
 * runs the solve, and everything else a solve touches -- this struct, its
 * cholmod_common, factor and dense objects, the sc_sap_work around it -- is
 * per workspace; each thread solves its islands on its own workspaces, so
 * two threads share nothing here but the read-only hooks. */
#include "solver_sap/sap_sparse.h"

#include "solver_sap/sap.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <suitesparse/cholmod.h>

#include "core/core.h"
#include "linalg/blockdiag.h"
#include "linalg/linalg.h"
#include "solver_sap/sap_block.h"

/* ---- allocation hooks ---- */

/* A header in front of each block remembers its size for realloc. */
typedef union hook_hdr {
  max_align_t align;
  size_t n;
} hook_hdr;

/* Exact-size blocks handed to CHOLMOD while a numeric factorization runs. */
enum { POOL_SLOTS = 2 };
typedef struct hook_pool {
  void* mem[POOL_SLOTS];
  size_t size[POOL_SLOTS]; /* the request size served */
  size_t cap[POOL_SLOTS];  /* the block's size */
  int busy[POOL_SLOTS];
} hook_pool;

/* A bump arena for everything CHOLMOD allocates while a solver workspace is
 * armed: the symbolic factor, the numeric factor's values, temporaries.
 * Frees are no-ops; the arena is reset when the pattern of H changes (after
 * the old factor is freed), so the whole analysis reuses memory reserved in
 * sc_sap_sparse_create.  Past its capacity, requests go to sc_malloc. */
typedef struct hook_arena {
  char* base;
  size_t cap, off, peak;
} hook_arena;

static _Thread_local long cholmod_allocs;
static _Thread_local hook_pool* armed_pool;
static _Thread_local hook_arena* armed_arena;

static int in_arena(const void* q) {
  const hook_arena* a = armed_arena;
  return a && (const char*)q >= a->base && (const char*)q < a->base + a->cap;
}

static void* arena_take(size_t n) {
  hook_arena* a = armed_arena;
  const size_t need = sizeof(hook_hdr) + ((n + 15) & ~(size_t)15);
  if (!a || n > a->cap || a->cap - a->off < need) return NULL;
  hook_hdr* h = (hook_hdr*)(a->base + a->off);
  a->off += need;
  if (a->off > a->peak) a->peak = a->off;
  h->n = n;
  return h + 1;
}

static void* pool_take(size_t n) {
  hook_pool* p = armed_pool;
  if (!p) return NULL;
  for (int k = 0; k < POOL_SLOTS; k++)
    if (p->mem[k] && !p->busy[k] && p->size[k] == n) {
      p->busy[k] = 1;
      return p->mem[k];
    }
  return NULL;
}

static int pool_give(void* q) {
  hook_pool* p = armed_pool;
  if (!p) return 0;
  for (int k = 0; k < POOL_SLOTS; k++)
    if (p->mem[k] == q) {
      p->busy[k] = 0;
      return 1;
    }
  return 0;
}

static void* hook_malloc(size_t n) {
  void* q = pool_take(n);
  if (q) return q;
  q = arena_take(n);
  if (q) return q;
  if (n > SIZE_MAX - sizeof(hook_hdr)) return NULL;
  hook_hdr* h = sc_malloc(sizeof(hook_hdr) + n);
  if (!h) return NULL;
  cholmod_allocs++;
  h->n = n;
  return h + 1;
}

static void* hook_calloc(size_t count, size_t n) {
  if (n && count > SIZE_MAX / n) return NULL;
  void* q = hook_malloc(count * n);
  if (q) memset(q, 0, count * n);
  return q;
}

static void hook_free(void* q) {
  if (!q || pool_give(q) || in_arena(q)) return;
  sc_free((hook_hdr*)q - 1);
}

static void* hook_realloc(void* q, size_t n) {
  if (!q) return hook_malloc(n);
  const size_t old = ((hook_hdr*)q - 1)->n;
  void* r = hook_malloc(n);
  if (!r) return NULL;
  memcpy(r, q, old < n ? old : n);
  hook_free(q);
  return r;
}

long sc_sap_cholmod_alloc_count(void) { return cholmod_allocs; }

/* ---- the workspace ---- */

struct sc_sap_sparse {
  int nv_max, nc_max;
  long cap_t, cap_blk;
  /* the triplets a Hessian of the largest problem would have if each
   * contact listed all pairs of its columns: the budget of the factor's
   * fill (CHOLMOD's arena, the block factor's panels) */
  long cap_h;
  long cap_j; /* nnz(J) */
  int nv, nc;
  /* the loaded problem's block form (borrowed, see problem.h): trees (dofs
   * of tree t are tree_dofs[tree_ptr[t] .. tree_ptr[t+1]), ascending), their
   * blocks of A at A + foff[t], and J per contact: columns
   * jcol[jptr[c] .. jptr[c+1]), values jval[3 q + r] for row r of the
   * contact and column jcol[q] */
  int ntree;
  const int *tree_ptr, *tree_dofs;
  const double* A;
  int *tree_of, *tree_loc;
  const int *jptr, *jcol;
  const int* tail; /* the contacts' cone tails (core/problem.h), or NULL */
  const double* jval;
  /* lower-triangle triplets of H in the original order, and their slots in
   * hx: the tree blocks of A (tree t's from ttri[t]), then per contact c
   * the pairs of its columns in two different trees (from ttri[ntree] +
   * ctr[c]).  A pair within one tree is an entry of A's block, whose slot
   * the contact shares: a contact whose Jacobian spans a chain of n dofs
   * would otherwise list n^2 / 2 triplets, and a chain's contacts n^3 / 6.
   * nt_all counts the triplets as if each contact listed all its pairs
   * (the measure of H's density the choice of path reads). */
  long ntrip, nt_all;
  long *ttri, *ctr;
  int *ti, *tj, *slot, *order, *newpos, *uold, *marker;
  /* pattern of tril(H) (original order) now and at the last analysis */
  int *cp, *ri, *pcp, *pri;
  int pn, pnnz, pkind, have_prev;
  /* ti/tj, hp/hi/slot and pinv still describe the last analysis of the
   * same triplet sequence (ntrip of them, kind pkind): a solve whose
   * contacts touch the same columns in the same order reuses them */
  int seq_valid;
  long seq_ntrip;
  /* the structure that sequence was made from (ntree, tree_ptr, tree_dofs,
   * nc, jptr, jcol): the same structure gives the same triplets, and
   * comparing it costs O(nv + nnz(J)) against O(number of triplets) */
  int seq_ntree, seq_nc;
  int *seq_tptr, *seq_tdofs, *seq_jptr, *seq_jcol;
  /* H(p, p) in the triangle the numeric kernel reads */
  int *hp, *hi, *pinv;
  double* hx;
  int hnnz, upper;
  /* Delassus scratch; J_i and G_i J_i of one contact's columns, their
   * places in H and the columns in ascending order (dense_lower) */
  double *z, *gj;
  size_t* pa;
  int* pc;
  int* jord; /* per contact, its list positions in ascending column order */
  int jord_valid;
  double* a0; /* A's lower triangle in H's order (problems up to A0_MAX dofs) */
  int a0_valid, a0_rev;
  size_t* foff;
  /* CHOLMOD */
  cholmod_common cm;
  int started;
  cholmod_factor* L;
  cholmod_dense *X, *Y, *E;
  hook_pool pool;
  hook_arena arena;
  /* block Cholesky (kind SC_SAP_SPARSE_BLOCK): the graph of trees (bgp, bgi:
   * neighbours of each tree), its previous version (pcp, pri, pbsz, pnb),
   * supernodes (nsn groups of trees, see supernode_graph: sn_of_tree,
   * tree_off, sn_rep), the elimination order (bperm: position ->
   * supernode, bpinv: supernode -> position), supernode sizes (bsz), each
   * dof's supernode position, row in it and place in the factor's vector
   * order (dpos, dloc, dofpos); per contact its supernodes (ctp, ctl) and
   * per supernode its contacts (tcp, tcl) */
  sc_sap_block blk;
  int *bgp, *bgi, *pbsz, *bperm, *bpinv, *bsz, *dofpos, *ctp, *ctl, *tcp, *tcl;
  int *sn_of_tree, *tree_off, *sn_rep, *dpos, *dloc;
  int nsn, pnb, block_valid;
  /* blk.x holds the block factor of a Hessian of this structure (nv dofs):
   * a preconditioner for a later H of the same problem (sap.c) */
  int factored, fnv;
};

/* problems up to this many dofs keep A's part of the dense Hessian */
#define SC_SAP_SPARSE_A0_MAX 64

static void* take(char** b, size_t bytes) {
  void* p = *b;
  *b += (bytes + 15) & ~(size_t)15;
  return p;
}

sc_sap_sparse* sc_sap_sparse_create(int nv_max, int nc_max, long blk_max, int cols_max, int nrow_max,
                                    long cross_max) {
  if (nv_max < 0 || nc_max < 0 || blk_max < 0 || cols_max < 0 || nrow_max < 0 || nrow_max > nc_max)
    return NULL;
  sc_sap_sparse* s = sc_calloc(1, sizeof *s);
  if (!s) return NULL;
  s->nv_max = nv_max;
  s->nc_max = nc_max;
  /* the lower triangles of the tree blocks of A (at most blk_max entries
   * in all) and per contact its pairs of columns in different trees: at
   * most cross_max (the model's bound; negative: unknown, any pair of
   * cols_max columns).  A joint row touches one dof, in A's block.  A
   * problem beyond that is refused by load (the dense path, when the
   * workspace has one, takes it).  Sized as one cols_max x cols_max block
   * per contact instead, 200 capsules in a chain asked for 7.97 GB. */
  s->cap_blk = blk_max;
  const long tree_t = (blk_max + nv_max) / 2;
  long per_contact = (long)cols_max * (cols_max - 1) / 2;
  if (cross_max >= 0 && cross_max < per_contact) per_contact = cross_max;
  const long ncont = (long)(nc_max - nrow_max);
  s->cap_t = tree_t + ncont * per_contact + 1;
  s->cap_h = tree_t + ncont * cols_max * (cols_max + 1) / 2 + nrow_max + 1;
  const size_t nv = (size_t)nv_max;
  const size_t ct = (size_t)s->cap_t;
  /* nnz(J): cols_max columns per contact, one per row */
  const size_t cj = (size_t)ncont * (size_t)cols_max + (size_t)nrow_max + 1;
  s->cap_j = (long)cj;
  const size_t I = sizeof(int), D = sizeof(double);
  const size_t a0d = nv < SC_SAP_SPARSE_A0_MAX ? nv : SC_SAP_SPARSE_A0_MAX, a0n = a0d * a0d;
  size_t bytes = 0;
  const size_t sizes[] = {
      nv * I, nv * I,                                         /* trees */
      ct * I, ct * I, ct * I, ct * I, ct * I, ct * I, nv * I, /* triplets */
      (nv + 1) * I, ct * I, (nv + 1) * I, 2 * ct * I,         /* patterns */
      (nv + 1) * I, ct * I, nv * I, ct * D,                   /* H(p,p) */
      3 * nv * D, (nv + 1) * sizeof(size_t), 6 * nv * D,      /* Delassus, J and G J */
      2 * nv * sizeof(size_t), nv * I, cj * I, a0n * D,       /* sorted columns, A's part */
      (nv + 1) * I, 2 * ct * I, nv * I, nv * I, nv * I, nv * I, nv * I, /* block graph */
      ((size_t)nc_max + 1) * I, cj * I, (nv + 1) * I, cj * I,
      nv * I, nv * I, nv * I, nv * I, nv * I,
      (nv + 1) * I, nv * I, ((size_t)nc_max + 1) * I, cj * I, /* structure of the triplets */
      (nv + 1) * sizeof(long), ((size_t)nc_max + 1) * sizeof(long)}; /* ttri, ctr */
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) bytes += (sizes[k] + 15) & ~(size_t)15;
  char* b = sc_malloc(bytes);
  if (!b) {
    sc_free(s);
    return NULL;
  }
  s->tree_of = take(&b, nv * I); /* the block's start, freed in sc_sap_sparse_free */
  s->tree_loc = take(&b, nv * I);
  s->ti = take(&b, ct * I);
  s->tj = take(&b, ct * I);
  s->slot = take(&b, ct * I);
  s->order = take(&b, ct * I);
  s->newpos = take(&b, ct * I);
  s->uold = take(&b, ct * I);
  s->marker = take(&b, nv * I);
  s->cp = take(&b, (nv + 1) * I);
  s->ri = take(&b, ct * I);
  s->pcp = take(&b, (nv + 1) * I);
  s->pri = take(&b, 2 * ct * I); /* also the block graph, both directions */
  s->hp = take(&b, (nv + 1) * I);
  s->hi = take(&b, ct * I);
  s->pinv = take(&b, nv * I);
  s->hx = take(&b, ct * D);
  s->z = take(&b, 3 * nv * D);
  s->foff = take(&b, (nv + 1) * sizeof(size_t));
  s->gj = take(&b, 6 * nv * D);
  s->pa = take(&b, 2 * nv * sizeof(size_t));
  s->jord = take(&b, cj * I);
  s->a0 = take(&b, a0n * D);
  s->pc = take(&b, nv * I);
  s->bgp = take(&b, (nv + 1) * I);
  s->bgi = take(&b, 2 * ct * I);
  s->pbsz = take(&b, nv * I);
  s->bperm = take(&b, nv * I);
  s->bpinv = take(&b, nv * I);
  s->bsz = take(&b, nv * I);
  s->dofpos = take(&b, nv * I);
  s->ctp = take(&b, ((size_t)nc_max + 1) * I);
  s->ctl = take(&b, cj * I);
  s->tcp = take(&b, (nv + 1) * I);
  s->tcl = take(&b, cj * I);
  s->sn_of_tree = take(&b, nv * I);
  s->tree_off = take(&b, nv * I);
  s->sn_rep = take(&b, nv * I);
  s->dpos = take(&b, nv * I);
  s->dloc = take(&b, nv * I);
  s->seq_tptr = take(&b, (nv + 1) * I);
  s->seq_tdofs = take(&b, nv * I);
  s->seq_jptr = take(&b, ((size_t)nc_max + 1) * I);
  s->seq_jcol = take(&b, cj * I);
  s->ttri = take(&b, (nv + 1) * sizeof(long));
  s->ctr = take(&b, ((size_t)nc_max + 1) * sizeof(long));
  /* the block factor's panels: room for 6 doubles per triplet of the fill
   * budget (as the CHOLMOD arena below), never more than a dense nv x nv */
  const long dense_x = (long)nv_max * nv_max;
  const long cap_x = 6 * s->cap_h < dense_x ? 6 * s->cap_h : dense_x;
  if (sc_sap_block_init(&s->blk, nv_max, 16 * (long)nv_max + 64, cap_x + 1) != 0) {
    sc_free(s->tree_of);
    sc_free(s);
    return NULL;
  }

  SuiteSparse_config.malloc_func = hook_malloc;
  SuiteSparse_config.calloc_func = hook_calloc;
  SuiteSparse_config.realloc_func = hook_realloc;
  SuiteSparse_config.free_func = hook_free;
  if (!cholmod_start(&s->cm)) {
    sc_sap_sparse_free(s);
    return NULL;
  }
  s->started = 1;
  s->cm.print = 0; /* the library never prints */
  s->cm.error_handler = NULL;
  s->cm.nmethods = 1;
  s->cm.method[0].ordering = CHOLMOD_AMD;
  s->cm.postorder = 1;
  /* the numeric kernels' workspace, sized once: Flag/Head (n), Iwork
   * (2n + 5 nsuper <= 7n), Xwork (n) */
  if (nv_max > 0 && !cholmod_allocate_work(nv, 7 * nv, nv, &s->cm)) {
    sc_sap_sparse_free(s);
    return NULL;
  }
  /* the arena: room for the symbolic and numeric factor of H with generous
   * fill (48 bytes per triplet of the fill budget, never more than a dense
   * lower triangle's) and CHOLMOD's temporaries */
  const long dense_t = (long)nv_max * (nv_max + 1) / 2;
  s->arena.cap = 48 * (size_t)(s->cap_h < dense_t ? s->cap_h : dense_t) + 64 * nv + ((size_t)1 << 20);
  s->arena.base = sc_malloc(s->arena.cap);
  if (!s->arena.base) {
    sc_sap_sparse_free(s);
    return NULL;
  }
  s->pool.size[1] = s->pool.cap[1] = sizeof(cholmod_dense);
  s->pool.mem[1] = sc_malloc(sizeof(cholmod_dense));
  if (!s->pool.mem[1]) {
    sc_sap_sparse_free(s);
    return NULL;
  }
  return s;
}

/* frees every CHOLMOD object that may live in the arena, then empties it */
static void arena_reset(sc_sap_sparse* s) {
  armed_arena = &s->arena;
  cholmod_free_factor(&s->L, &s->cm);
  cholmod_free_dense(&s->X, &s->cm);
  cholmod_free_dense(&s->Y, &s->cm);
  cholmod_free_dense(&s->E, &s->cm);
  if (s->pool.mem[0] && !in_arena(s->pool.mem[0])) sc_free(s->pool.mem[0]);
  s->pool.mem[0] = NULL;
  s->pool.cap[0] = s->pool.size[0] = 0;
  armed_arena = NULL;
  s->arena.off = 0;
}

void sc_sap_sparse_free(sc_sap_sparse* s) {
  if (!s) return;
  if (s->started) {
    arena_reset(s);
    cholmod_finish(&s->cm);
  }
  for (int k = 1; k < POOL_SLOTS; k++) sc_free(s->pool.mem[k]);
  sc_free(s->arena.base);
  sc_sap_block_destroy(&s->blk);
  sc_free(s->tree_of);
  sc_free(s);
}

/* ---- structure ---- */

int sc_sap_sparse_load(sc_sap_sparse* s, const sc_problem* p) {
  const int nv = p->nv, nc = p->nc;
  s->nv = nv;
  s->nc = nc;
  s->ntrip = 0;
  if (nv < 0 || nc < 0 || nv > s->nv_max || nc > s->nc_max) return 1;
  if (p->ntree < 0 || p->ntree > nv || p->tree_ptr[p->ntree] != nv) return 1;
  if (sc_problem_ablk_size(p) > s->cap_blk) return 1;
  s->ntree = p->ntree;
  s->tree_ptr = p->tree_ptr;
  s->tree_dofs = p->tree_dofs;
  s->A = p->A;
  s->foff[0] = 0;
  for (int t = 0; t < s->ntree; t++) {
    const size_t n = (size_t)(p->tree_ptr[t + 1] - p->tree_ptr[t]);
    s->foff[t + 1] = s->foff[t] + n * n;
    for (int k = p->tree_ptr[t]; k < p->tree_ptr[t + 1]; k++) {
      const int i = p->tree_dofs[k];
      s->tree_of[i] = t;
      s->tree_loc[i] = k - p->tree_ptr[t];
    }
  }
  s->jptr = p->jptr;
  s->jcol = p->jcol;
  s->jval = p->J;
  s->tail = p->tail;
  s->jord_valid = s->a0_valid = 0;

  /* triplets of tril(H): tree blocks of A, then per contact the pairs of
   * its columns in different trees, (k^2 - sum over trees of k_t^2) / 2 of
   * its k columns */
  long nt = 0, all = 0;
  for (int t = 0; t < s->ntree; t++) {
    const long n = s->tree_ptr[t + 1] - s->tree_ptr[t];
    s->ttri[t] = nt;
    nt += n * (n + 1) / 2;
  }
  s->ttri[s->ntree] = nt;
  all = nt;
  int* cnt = s->marker; /* columns of the current contact per tree */
  for (int t = 0; t < s->ntree; t++) cnt[t] = 0;
  long nx = 0;
  for (int c = 0; c < nc; c++) {
    const long k = s->jptr[c + 1] - s->jptr[c];
    all += k * (k + 1) / 2;
    for (int q = s->jptr[c]; q < s->jptr[c + 1]; q++) cnt[s->tree_of[s->jcol[q]]]++;
    long sq = 0;
    for (int q = s->jptr[c]; q < s->jptr[c + 1]; q++) {
      const int t = s->tree_of[s->jcol[q]];
      sq += (long)cnt[t] * cnt[t];
      cnt[t] = 0;
    }
    s->ctr[c] = nx;
    nx += (k * k - sq) / 2;
  }
  s->ctr[nc] = nx;
  nt += nx;
  s->ntrip = nt <= s->cap_t && s->jptr[nc] <= s->cap_j ? nt : 0;
  s->nt_all = all;
  return 0;
}

int sc_sap_sparse_ntree(const sc_sap_sparse* s) { return s->ntree; }

long sc_sap_sparse_hessian_nnz(const sc_sap_sparse* s) { return s->ntrip ? s->nt_all : 0; }

/* a contact whose 3 x 3 curvature block (or impulse) is exactly zero adds
 * only zeros: separated contacts carry no friction under the Hunt-Crossley
 * models, and forming piles hold many of them.  Skipping them leaves every
 * sum bit-identical (x + 0 is x, and no sum here is -0: each starts at +0
 * and adds finite terms). */
static inline int zero3(const double* x) { return x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0; }
static inline int zero9(const double* g) { return zero3(g) && zero3(g + 3) && zero3(g + 6); }

void sc_sap_sparse_mulA(const sc_sap_sparse* s, const double* x, double* y) {
  const int nv = s->nv;
  for (int i = 0; i < nv; i++) y[i] = 0.0;
  for (int t = 0; t < s->ntree; t++) {
    const int* d = s->tree_dofs + s->tree_ptr[t];
    const int n = s->tree_ptr[t + 1] - s->tree_ptr[t];
    const double* blk = s->A + s->foff[t];
    if (n == 6) {
      /* a free body: the six sums in registers (trees share no dof, so each
       * y entry is 0.0 plus its own tree's terms, in the same order) */
      double xb[6], acc[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
      for (int b = 0; b < 6; b++) xb[b] = x[d[b]];
      for (int b = 0; b < 6; b++)
        for (int a = 0; a < 6; a++) acc[a] += blk[a + 6 * b] * xb[b];
      for (int a = 0; a < 6; a++) y[d[a]] = acc[a];
      continue;
    }
    if (n > 0 && d[n - 1] - d[0] == n - 1) {
      /* consecutive dofs (a tree's, as the model numbers them): the same
       * sums, without the indirection, which the compiler vectorizes */
      double* yt = y + d[0];
      const double* xt = x + d[0];
      for (int b = 0; b < n; b++) {
        const double* col = blk + (size_t)b * n;
        const double xb = xt[b];
        for (int a = 0; a < n; a++) yt[a] += col[a] * xb;
      }
      continue;
    }
    for (int b = 0; b < n; b++) {
      const double* col = blk + (size_t)b * n;
      const double xb = x[d[b]];
      for (int a = 0; a < n; a++) y[d[a]] += col[a] * xb;
    }
  }
}

void sc_sap_sparse_mulJ(const sc_sap_sparse* s, const double* x, double* y) {
  for (int c = 0; c < s->nc; c++) {
    double y0 = 0.0, y1 = 0.0, y2 = 0.0;
    for (int q = s->jptr[c]; q < s->jptr[c + 1]; q++) {
      const double xv = x[s->jcol[q]];
      const double* e = s->jval + 3 * q;
      y0 += e[0] * xv;
      y1 += e[1] * xv;
      y2 += e[2] * xv;
    }
    y[3 * c] = y0;
    y[3 * c + 1] = y1;
    y[3 * c + 2] = y2;
  }
}

void sc_sap_sparse_mulJT(const sc_sap_sparse* s, const double* x, double* y) {
  for (int i = 0; i < s->nv; i++) y[i] = 0.0;
  for (int c = 0; c < s->nc; c++) {
    const double* xc = x + 3 * c;
    if (zero3(xc)) continue;
    for (int q = s->jptr[c]; q < s->jptr[c + 1]; q++) {
      const double* e = s->jval + 3 * q;
      y[s->jcol[q]] += e[0] * xc[0] + e[1] * xc[1] + e[2] * xc[2];
    }
  }
}

/* The cross terms of contact c and its cone tail t at column b of c
 * (position b - jptr[c] of t's same-ordered list): G_ct J_t(b) added to
 * c's G J (gj), and G_ct^T J_c(b) into x, so that entry (a, b) of H gains
 * J_c(a) . gj + J_t(a) . x besides t's own J_t^T G_tt J_t. */
static inline void cone_cross(const sc_sap_sparse* s, const double* G, int c, int t, int b,
                              double* gj0, double* gj1, double* gj2, double x[3]) {
  const double* g = sc_sap_gx(G, s->nc, c);
  const double* jb = s->jval + 3 * b;
  const double* jt = s->jval + 3 * (s->jptr[t] + (b - s->jptr[c]));
  *gj0 += g[0] * jt[0] + g[1] * jt[1] + g[2] * jt[2];
  *gj1 += g[3] * jt[0] + g[4] * jt[1] + g[5] * jt[2];
  *gj2 += g[6] * jt[0] + g[7] * jt[1] + g[8] * jt[2];
  for (int k = 0; k < 3; k++) x[k] = g[k] * jb[0] + g[3 + k] * jb[1] + g[6 + k] * jb[2];
}

int sc_sap_sparse_max_tree(const sc_sap_sparse* s) {
  int n = 0;
  for (int t = 0; t < s->ntree; t++)
    if (s->tree_ptr[t + 1] - s->tree_ptr[t] > n) n = s->tree_ptr[t + 1] - s->tree_ptr[t];
  return n;
}

/* entry (i, j), i >= j, of the lower triangle in the stored order */
static inline size_t lower_at(int nv, int rev, int i, int j) {
  return rev ? (size_t)(nv - 1 - j) + (size_t)(nv - 1 - i) * nv : (size_t)i + (size_t)j * nv;
}

/* The lower triangle of A alone (zeros elsewhere) in the stored order */
static void a_lower(const sc_sap_sparse* s, double* H, int rev) {
  const int nv = s->nv;
  for (int j = 0; j < nv; j++)
    for (int i = j; i < nv; i++) H[i + (size_t)j * nv] = 0.0;
  /* A's blocks: a tree's dofs ascend, so its lower triangle is H's (no
   * tree shares an entry: each is 0 + A's entry) */
  for (int t = 0; t < s->ntree; t++) {
    const int* d = s->tree_dofs + s->tree_ptr[t];
    const int n = s->tree_ptr[t + 1] - s->tree_ptr[t];
    const double* blk = s->A + s->foff[t];
    for (int b = 0; b < n; b++) {
      const double* ab = blk + (size_t)b * n;
      if (rev)
        for (int a = b; a < n; a++) H[lower_at(nv, 1, d[a], d[b])] += ab[a];
      else if (d[n - 1] - d[0] == n - 1) { /* consecutive dofs */
        double* hb = H + (size_t)d[b] * nv + d[0];
        for (int a = b; a < n; a++) hb[a] += ab[a];
      } else {
        double* hb = H + (size_t)d[b] * nv;
        for (int a = b; a < n; a++) hb[d[a]] += ab[a];
      }
    }
  }
}

void sc_sap_sparse_dense_lower(const sc_sap_sparse* s, const double* G, double* H, int rev) {
  const int nv = s->nv;
  sc_sap_sparse* sw = (sc_sap_sparse*)s; /* its scratch: this workspace's thread only */
  if (nv <= SC_SAP_SPARSE_A0_MAX) {
    /* A's part is the same at every Newton iteration of a solve: made once
     * per loaded problem, copied after */
    if (!sw->a0_valid || sw->a0_rev != rev) {
      a_lower(s, sw->a0, rev);
      sw->a0_valid = 1;
      sw->a0_rev = rev;
    }
    for (int j = 0; j < nv; j++)
      memcpy(H + j + (size_t)j * nv, sw->a0 + j + (size_t)j * nv, sizeof(double) * (size_t)(nv - j));
  } else
    a_lower(s, H, rev);
  if (!sw->jord_valid) {
    /* each contact's list positions in ascending column order, once per
     * loaded problem (insertion sort of a chain's few dozen columns) */
    for (int c = 0; c < s->nc; c++) {
      const int q0 = s->jptr[c], k = s->jptr[c + 1] - q0;
      const int* jc = s->jcol + q0;
      int* ord = sw->jord + q0;
      for (int b = 0; b < k; b++) {
        int a = b;
        for (; a > 0 && jc[ord[a - 1]] > jc[b]; a--) ord[a] = ord[a - 1];
        ord[a] = b;
      }
    }
    sw->jord_valid = 1;
  }
  double* gj = sw->gj;
  for (int c = 0; c < s->nc; c++) {
    const double* g = G + 9 * c;
    const int t = s->tail ? s->tail[c] : -1;
    if (zero9(g) && (t < 0 || zero9(sc_sap_gx(G, s->nc, c)))) continue;
    const int q0 = s->jptr[c], k = s->jptr[c + 1] - q0;
    if (t < 0) {
      /* the contact's columns in ascending order (jord), each with J_i and
       * G_i J_i of its column; then each pair of columns once: entry
       * (ca, cb), ca >= cb, is J_ca . (G J_cb), the same products and sums
       * in the same order as over the ordered pairs of the list with the
       * test ca >= cb */
      double* jj = gj + 3 * nv;
      size_t* ra = sw->pa;
      size_t* rb = ra + nv;
      int* col = sw->pc;
      const int* jc = s->jcol + q0;
      const int* ord = sw->jord + q0;
      for (int a = 0; a < k; a++) {
        const double* jb = s->jval + 3 * (q0 + ord[a]);
        col[a] = jc[ord[a]];
        jj[3 * a] = jb[0], jj[3 * a + 1] = jb[1], jj[3 * a + 2] = jb[2];
        gj[3 * a] = g[0] * jb[0] + g[1] * jb[1] + g[2] * jb[2];
        gj[3 * a + 1] = g[3] * jb[0] + g[4] * jb[1] + g[5] * jb[2];
        gj[3 * a + 2] = g[6] * jb[0] + g[7] * jb[1] + g[8] * jb[2];
      }
      /* entry (ca, cb) at ra[a] + rb[b] of the stored triangle */
      for (int a = 0; a < k; a++) {
        const size_t x = (size_t)(rev ? nv - 1 - col[a] : col[a]);
        ra[a] = rev ? x * (size_t)nv : x;
        rb[a] = rev ? x : x * (size_t)nv;
      }
      for (int b = 0; b < k; b++) {
        const double* gb = gj + 3 * b;
        double* hb = H + rb[b];
        for (int a = b; a < k; a++) {
          const double* ja = jj + 3 * a;
          hb[ra[a]] += ja[0] * gb[0] + ja[1] * gb[1] + ja[2] * gb[2];
        }
      }
      continue;
    }
    for (int b = q0; b < q0 + k; b++) {
      const double* jb = s->jval + 3 * b;
      double gj0 = g[0] * jb[0] + g[1] * jb[1] + g[2] * jb[2];
      double gj1 = g[3] * jb[0] + g[4] * jb[1] + g[5] * jb[2];
      double gj2 = g[6] * jb[0] + g[7] * jb[1] + g[8] * jb[2];
      double xt[3] = {0.0, 0.0, 0.0}; /* G_ct^T J_c of column b */
      cone_cross(s, G, c, t, b, &gj0, &gj1, &gj2, xt);
      const int cb = s->jcol[b];
      for (int a = q0; a < q0 + k; a++) {
        const int ca = s->jcol[a];
        if (ca < cb) continue;
        const double* ja = s->jval + 3 * a;
        double h = ja[0] * gj0 + ja[1] * gj1 + ja[2] * gj2;
        const double* jt = s->jval + 3 * (s->jptr[t] + (a - q0));
        h += jt[0] * xt[0] + jt[1] * xt[1] + jt[2] * xt[2];
        H[lower_at(nv, rev, ca, cb)] += h;
      }
    }
  }
}

/* ---- Delassus estimate ---- */

/* x = L^-1 x, L lower triangular n x n (column-major, leading dimension n),
 * x zero before entry j0 (so is the result there) */
static void forward_small(int n, int j0, const double* L, double* x) {
  for (int j = j0; j < n; j++) {
    const double* cj = L + (size_t)j * n;
    const double xj = x[j] /= cj[j];
    /* (leaves first, a limb's row is zero outside its chain) */
    if (xj != 0.0)
      for (int i = j + 1; i < n; i++) x[i] -= cj[i] * xj;
  }
}

/* the same for a free body's 6 x 6 factor and three right-hand sides at
 * x, x + 6, x + 12 (the rows of J_t), the loop bounds known to the compiler */
static void forward3_6(const double* L, double* x) {
  for (int j = 0; j < 6; j++) {
    const double* cj = L + 6 * j;
    const double inv = 1.0 / cj[j];
    const double x0 = x[j] *= inv, x1 = x[6 + j] *= inv, x2 = x[12 + j] *= inv;
    for (int i = j + 1; i < 6; i++) {
      x[i] -= cj[i] * x0;
      x[6 + i] -= cj[i] * x1;
      x[12 + i] -= cj[i] * x2;
    }
  }
}

int sc_sap_sparse_delassus(sc_sap_sparse* s, const double* given, double* fac, double* wdiag) {
  /* factor each tree block once: A_t = L_t L_t^T at fac + foff[t] */
  for (int t = 0; !given && t < s->ntree; t++) {
    /* as the integrator factors its blocks (leaves first, small blocks
     * without BLAS), so that given factors and these are the same */
    const int n = s->tree_ptr[t + 1] - s->tree_ptr[t];
    if (sc_la_blk_factor_one(n, s->A + s->foff[t], fac + s->foff[t]) != 0) return 1;
  }
  const double* Lf = given ? given : fac;
  int* seen = s->marker; /* contact that last listed tree t */
  int* list = s->order;  /* trees touched by the current contact */
  for (int t = 0; t < s->ntree; t++) seen[t] = -1;
  for (int c = 0; c < s->nc; c++) {
    const int q0 = s->jptr[c], q1 = s->jptr[c + 1];
    int nl = 0;
    for (int q = q0; q < q1; q++) {
      const int t = s->tree_of[s->jcol[q]];
      if (seen[t] != c) {
        seen[t] = c;
        list[nl++] = t;
      }
    }
    double W[9] = {0};
    for (int l = 0; l < nl; l++) {
      const int t = list[l];
      const int n = s->tree_ptr[t + 1] - s->tree_ptr[t];
      /* z = A_t^-1 J_it^T (n x 3) */
      for (int k = 0; k < 3 * n; k++) s->z[k] = 0.0;
      /* each row's first non-zero in the tree: the forward solves and the
       * sums start there (a joint limit's row on a limb's last dof, a
       * contact's tangent rows that are zero) -- the same sums, less work */
      int first[3] = {n, n, n};
      const int rev = sc_la_blk_reversed(n); /* the factor's order */
      for (int q = q0; q < q1; q++) {
        if (s->tree_of[s->jcol[q]] != t) continue;
        const int loc = s->tree_loc[s->jcol[q]], a = rev ? n - 1 - loc : loc;
        for (int r = 0; r < 3; r++) {
          s->z[a + r * n] = s->jval[3 * q + r];
          if (s->jval[3 * q + r] != 0.0 && a < first[r]) first[r] = a;
        }
      }
      if (n <= SC_LA_SMALL_N) { /* (factored without BLAS) */
        /* J A_t^-1 J^T = Z^T Z with Z = L_t^-1 J_t^T: half the triangular
         * solves, and no product with J afterwards */
        const double* L = Lf + s->foff[t];
        if (n == 6) forward3_6(L, s->z);
        else
          for (int r = 0; r < 3; r++) forward_small(n, first[r], L, s->z + r * n);
        const double *z0 = s->z, *z1 = s->z + n, *z2 = s->z + 2 * n;
        double w00 = 0.0, w01 = 0.0, w02 = 0.0, w11 = 0.0, w12 = 0.0, w22 = 0.0;
        int a0 = n == 6 ? 0 : first[0]; /* (forward3_6 fills from 0) */
        for (int r = 1; r < 3; r++)
          if (first[r] < a0) a0 = first[r];
        for (int a = a0; a < n; a++) {
          w00 += z0[a] * z0[a];
          w01 += z0[a] * z1[a];
          w02 += z0[a] * z2[a];
          w11 += z1[a] * z1[a];
          w12 += z1[a] * z2[a];
          w22 += z2[a] * z2[a];
        }
        W[0] += w00, W[4] += w11, W[8] += w22;
        W[1] += w01, W[3] += w01;
        W[2] += w02, W[6] += w02;
        W[5] += w12, W[7] += w12;
        continue;
      }
      if (sc_la_chol_solve(n, Lf + s->foff[t], n, s->z, n, 3) != 0) return 1;
      for (int q = q0; q < q1; q++) {
        if (s->tree_of[s->jcol[q]] != t) continue;
        const int loc = s->tree_loc[s->jcol[q]], a = rev ? n - 1 - loc : loc;
        for (int r = 0; r < 3; r++)
          for (int k = 0; k < 3; k++) W[3 * r + k] += s->jval[3 * q + r] * s->z[a + k * n];
      }
    }
    double fro2 = 0.0;
    for (int k = 0; k < 9; k++) fro2 += W[k] * W[k];
    wdiag[c] = sqrt(fro2) / 3.0;
  }
  return 0;
}

/* ---- the Hessian ---- */

/* Row and column of original entry (i, j), i >= j, in the stored triangle
 * of the permuted matrix (pinv NULL: no permutation, lower triangle). */
static void place(const int* pinv, int upper, int i, int j, int* r, int* c) {
  const int a = pinv ? pinv[i] : i, b = pinv ? pinv[j] : j;
  const int lo = a < b ? a : b, hi = a < b ? b : a;
  *r = upper ? lo : hi;
  *c = upper ? hi : lo;
}

/* Compressed columns (cp, ri) of the triplets, duplicates merged and rows
 * sorted; slot[t] = position of triplet t.  Returns the number of entries. */
static int build_csc(sc_sap_sparse* s, const int* pinv, int upper, int* cp, int* ri) {
  const int n = s->nv;
  const long nt = s->ntrip;
  int* cur = s->marker;
  int r, c;
  for (int j = 0; j <= n; j++) cp[j] = 0;
  for (long t = 0; t < nt; t++) {
    place(pinv, upper, s->ti[t], s->tj[t], &r, &c);
    cp[c + 1]++;
  }
  for (int j = 0; j < n; j++) cp[j + 1] += cp[j];
  for (int j = 0; j < n; j++) cur[j] = cp[j];
  for (long t = 0; t < nt; t++) {
    place(pinv, upper, s->ti[t], s->tj[t], &r, &c);
    s->order[cur[c]++] = (int)t;
  }
  /* merge duplicates: marker[row] = entry of that row in the current column */
  int* mk = s->marker;
  for (int j = 0; j < n; j++) mk[j] = -1;
  int u = 0, tb = 0;
  for (int j = 0; j < n; j++) {
    const int te = cp[j + 1], ustart = u;
    for (int q = tb; q < te; q++) {
      const int t = s->order[q];
      place(pinv, upper, s->ti[t], s->tj[t], &r, &c);
      if (mk[r] >= ustart) {
        s->slot[t] = mk[r];
      } else {
        mk[r] = u;
        ri[u] = r;
        s->slot[t] = u++;
      }
    }
    cp[j] = ustart;
    tb = te;
  }
  cp[n] = u;
  /* sort each column by row (columns are short: insertion sort) */
  for (int e = 0; e < u; e++) s->uold[e] = e;
  for (int j = 0; j < n; j++)
    for (int q = cp[j] + 1; q < cp[j + 1]; q++) {
      const int rv = ri[q], uv = s->uold[q];
      int p = q - 1;
      for (; p >= cp[j] && ri[p] > rv; p--) {
        ri[p + 1] = ri[p];
        s->uold[p + 1] = s->uold[p];
      }
      ri[p + 1] = rv;
      s->uold[p + 1] = uv;
    }
  for (int e = 0; e < u; e++) s->newpos[s->uold[e]] = e;
  for (long t = 0; t < nt; t++) s->slot[t] = s->newpos[s->slot[t]];
  return u;
}

/* ---- the block Cholesky's analysis (kind SC_SAP_SPARSE_BLOCK) ---- */

/* tcp/tcl: the contacts listing each of the n nodes in ctp/ctl (the
 * transpose of those lists), ascending; cur: n ints of scratch */
static void contacts_of(sc_sap_sparse* s, int n, int* cur) {
  for (int u = 0; u <= n; u++) s->tcp[u] = 0;
  for (int k = 0; k < s->ctp[s->nc]; k++) s->tcp[s->ctl[k] + 1]++;
  for (int u = 0; u < n; u++) s->tcp[u + 1] += s->tcp[u];
  for (int u = 0; u < n; u++) cur[u] = s->tcp[u];
  for (int c = 0; c < s->nc; c++)
    for (int k = s->ctp[c]; k < s->ctp[c + 1]; k++) s->tcl[cur[s->ctl[k]]++] = c;
}

/* Supernodes and their graph.  A supernode is a group of trees that the
 * same contacts touch (their columns of H have the same block pattern, so
 * one dense block loses nothing); usually one tree, but the 6 one-dof
 * "trees" of a body whose mass matrix is diagonal, or two bodies touching
 * only each other, become one.  Trees no contact touches stay alone.
 * Out: sn_of_tree, tree_off (a tree's first row in its supernode), nsn,
 * bsz (supernode sizes), ctp/ctl (the supernodes of each contact) and
 * bgp/bgi (the supernode graph, both directions, no self loops). */
static void supernode_graph(sc_sap_sparse* s) {
  const int nt = s->ntree, nc = s->nc;
  int* mk = s->marker;
  /* trees of each contact (ctp/ctl) and contacts of each tree (tcp/tcl, ascending) */
  for (int t = 0; t < nt; t++) mk[t] = -1;
  int e = 0;
  s->ctp[0] = 0;
  for (int c = 0; c < nc; c++) {
    for (int q = s->jptr[c]; q < s->jptr[c + 1]; q++) {
      const int t = s->tree_of[s->jcol[q]];
      if (mk[t] != c) mk[t] = c, s->ctl[e++] = t;
    }
    s->ctp[c + 1] = e;
  }
  contacts_of(s, nt, s->bsz); /* bsz: scratch until the sizes are set */
  /* group: a tree joins the supernode of an earlier tree of its first
   * contact whose contact list is the same */
  int ns = 0;
  for (int t = 0; t < nt; t++) s->sn_of_tree[t] = -1;
  for (int c = 0; c < nc; c++)
    for (int k = s->ctp[c]; k < s->ctp[c + 1]; k++) {
      const int t = s->ctl[k];
      if (s->sn_of_tree[t] >= 0 || s->tcl[s->tcp[t]] != c) continue;
      const int len = s->tcp[t + 1] - s->tcp[t];
      int join = -1;
      for (int l = s->ctp[c]; l < k && join < 0; l++) {
        const int r = s->ctl[l], sn = s->sn_of_tree[r];
        if (sn < 0 || s->sn_rep[sn] != r || s->tcp[r + 1] - s->tcp[r] != len) continue;
        if (memcmp(s->tcl + s->tcp[r], s->tcl + s->tcp[t], sizeof(int) * (size_t)len) == 0)
          join = sn;
      }
      const int n = s->tree_ptr[t + 1] - s->tree_ptr[t];
      if (join < 0) {
        join = ns++;
        s->sn_rep[join] = t;
        s->bsz[join] = 0;
      }
      s->sn_of_tree[t] = join;
      s->tree_off[t] = s->bsz[join];
      s->bsz[join] += n;
    }
  for (int t = 0; t < nt; t++)
    if (s->sn_of_tree[t] < 0) {
      s->sn_rep[ns] = t;
      s->sn_of_tree[t] = ns;
      s->tree_off[t] = 0;
      s->bsz[ns++] = s->tree_ptr[t + 1] - s->tree_ptr[t];
    }
  s->nsn = ns;
  /* supernodes of each contact, in place of its trees (unique) */
  for (int sn = 0; sn < ns; sn++) mk[sn] = -1;
  int f = 0;
  for (int c = 0; c < nc; c++) {
    const int k0 = s->ctp[c], k1 = s->ctp[c + 1];
    s->ctp[c] = f;
    for (int k = k0; k < k1; k++) {
      const int sn = s->sn_of_tree[s->ctl[k]];
      if (mk[sn] != c) mk[sn] = c, s->ctl[f++] = sn;
    }
  }
  s->ctp[nc] = f;
  /* contacts of each supernode, then its neighbours */
  contacts_of(s, ns, mk);
  for (int sn = 0; sn < ns; sn++) mk[sn] = -1;
  int g = 0;
  s->bgp[0] = 0;
  for (int sn = 0; sn < ns; sn++) {
    mk[sn] = sn;
    for (int k = s->tcp[sn]; k < s->tcp[sn + 1]; k++) {
      const int c = s->tcl[k];
      for (int l = s->ctp[c]; l < s->ctp[c + 1]; l++) {
        const int u = s->ctl[l];
        if (mk[u] != sn) mk[u] = sn, s->bgi[g++] = u;
      }
    }
    s->bgp[sn + 1] = g;
  }
}

/* Fill-reducing order of the supernodes: AMD on their graph through
 * CHOLMOD (its allocations served by the arena, which the block path does
 * not otherwise use).  The lower triangle is passed, sorted. */
static int order_supernodes(sc_sap_sparse* s) {
  const int nb = s->nsn;
  if (nb <= 2) {
    for (int t = 0; t < nb; t++) s->bperm[t] = t;
    return 0;
  }
  /* lower triangle (rows > column) sorted: into cp/ri */
  int nz = 0;
  for (int t = 0; t < nb; t++) {
    s->cp[t] = nz;
    for (int k = s->bgp[t]; k < s->bgp[t + 1]; k++)
      if (s->bgi[k] > t) s->ri[nz++] = s->bgi[k];
    /* neighbours are listed in contact order: sort the column */
    for (int q = s->cp[t] + 1; q < nz; q++) {
      const int v = s->ri[q];
      int p = q - 1;
      for (; p >= s->cp[t] && s->ri[p] > v; p--) s->ri[p + 1] = s->ri[p];
      s->ri[p + 1] = v;
    }
  }
  s->cp[nb] = nz;
  arena_reset(s);
  s->have_prev = 0;
  armed_arena = &s->arena;
  cholmod_sparse P = {.nrow = (size_t)nb, .ncol = (size_t)nb, .nzmax = (size_t)(nz > 0 ? nz : 1),
                      .p = s->cp, .i = s->ri, .stype = -1, .itype = CHOLMOD_INT,
                      .xtype = CHOLMOD_PATTERN, .dtype = CHOLMOD_DOUBLE, .sorted = 1,
                      .packed = 1};
  const int ok = cholmod_amd(&P, NULL, 0, s->bperm, &s->cm);
  armed_arena = NULL;
  s->arena.off = 0; /* nothing of the ordering is kept */
  return ok && s->cm.status >= CHOLMOD_OK ? 0 : 1;
}

static int analyze_block(sc_sap_sparse* s) {
  supernode_graph(s);
  const int nb = s->nsn;
  /* the graph and supernode sizes as at the last block analysis: same
   * order and symbolic factor (a settled pile keeps its contact graph) */
  const int ng = s->bgp[nb];
  const int same = s->block_valid && s->pnb == nb &&
                   memcmp(s->pcp, s->bgp, sizeof(int) * ((size_t)nb + 1)) == 0 &&
                   memcmp(s->pri, s->bgi, sizeof(int) * (size_t)ng) == 0 &&
                   memcmp(s->pbsz, s->bsz, sizeof(int) * (size_t)nb) == 0;
  if (!same) {
    s->block_valid = 0;
    s->factored = 0;
    if (order_supernodes(s) != 0) return 1;
    for (int P = 0; P < nb; P++) s->bpinv[s->bperm[P]] = P;
    /* lower pattern by position (rows > column) into hp/hi; sizes by position */
    int* psz = s->tcp; /* scratch: tcp is not needed any more */
    int nz = 0;
    for (int P = 0; P < nb; P++) {
      const int t = s->bperm[P];
      psz[P] = s->bsz[t];
      s->hp[P] = nz;
      for (int k = s->bgp[t]; k < s->bgp[t + 1]; k++)
        if (s->bpinv[s->bgi[k]] > P) s->hi[nz++] = s->bpinv[s->bgi[k]];
    }
    s->hp[nb] = nz;
    if (sc_sap_block_analyze(&s->blk, nb, psz, s->hp, s->hi) != 0) return 1;
    if (sc_sap_block_nnz(&s->blk) > 0x7fffffffL) return 1; /* slots are ints */
    memcpy(s->pcp, s->bgp, sizeof(int) * ((size_t)nb + 1));
    memcpy(s->pri, s->bgi, sizeof(int) * (size_t)ng);
    memcpy(s->pbsz, s->bsz, sizeof(int) * (size_t)nb);
    s->pnb = nb;
    s->block_valid = 1;
  }
  /* each dof's supernode position and row in it; its place in the factor's
   * vector order */
  for (int t = 0; t < s->ntree; t++) {
    const int P = s->bpinv[s->sn_of_tree[t]], off = s->tree_off[t];
    for (int k = s->tree_ptr[t]; k < s->tree_ptr[t + 1]; k++) {
      const int d = s->tree_dofs[k];
      s->dpos[d] = P;
      s->dloc[d] = off + (k - s->tree_ptr[t]);
      s->dofpos[d] = s->blk.voff[P] + s->dloc[d];
    }
  }
  /* slots of the triplets, in the order assemble() adds them */
  long t = 0;
  for (int tr = 0; tr < s->ntree; tr++) {
    const int P = s->bpinv[s->sn_of_tree[tr]], ld = s->blk.prow[P], off = s->tree_off[tr];
    const long base = s->blk.poff[P] + off + (long)off * ld;
    const int nt = s->tree_ptr[tr + 1] - s->tree_ptr[tr];
    for (int b = 0; b < nt; b++)
      for (int a = b; a < nt; a++) s->slot[t++] = (int)(base + a + (long)b * ld);
  }
  enum { KMAX = 16 };
  long pbase[KMAX * KMAX];
  for (int c = 0; c < s->nc; c++) {
    const int* sl = s->ctl + s->ctp[c];
    const int k = s->ctp[c + 1] - s->ctp[c];
    const int table = k <= KMAX; /* else (a contact over many supernodes) look up each entry */
    /* row offset of block (position of sl[a], position of sl[b]) for a > b */
    for (int a = 0; a < k && table; a++)
      for (int b = 0; b < k; b++) {
        const int Pa = s->bpinv[sl[a]], Pb = s->bpinv[sl[b]];
        pbase[a * KMAX + b] = Pa > Pb ? sc_sap_block_where(&s->blk, Pa, Pb, 0, 0) : 0;
        if (Pa > Pb && pbase[a * KMAX + b] < 0) return 1;
      }
    for (int b = s->jptr[c]; b < s->jptr[c + 1]; b++) {
      const int jb = s->jcol[b], Pb = s->dpos[jb], lb = s->dloc[jb], tb = s->tree_of[jb];
      int kb = 0;
      while (table && s->bpinv[sl[kb]] != Pb) kb++;
      for (int a = b; a < s->jptr[c + 1]; a++) {
        const int ja = s->jcol[a], Pa = s->dpos[ja], la = s->dloc[ja];
        if (s->tree_of[ja] == tb) continue; /* in A's block: its triplet is the tree's */
        long off;
        if (Pa == Pb) {
          const int r = la > lb ? la : lb, cc = la > lb ? lb : la;
          off = s->blk.poff[Pa] + r + (long)cc * s->blk.prow[Pa];
        } else if (!table) {
          off = Pa > Pb ? sc_sap_block_where(&s->blk, Pa, Pb, la, lb)
                        : sc_sap_block_where(&s->blk, Pb, Pa, lb, la);
          if (off < 0) return 1;
        } else {
          int ka = 0;
          while (s->bpinv[sl[ka]] != Pa) ka++;
          if (Pa > Pb) off = pbase[ka * KMAX + kb] + la + (long)lb * s->blk.prow[Pb];
          else off = pbase[kb * KMAX + ka] + lb + (long)la * s->blk.prow[Pa];
        }
        s->slot[t++] = (int)off;
      }
    }
  }
  return 0;
}

int sc_sap_sparse_analyze(sc_sap_sparse* s, int kind) {
  const int n = s->nv;
  if (s->ntrip == 0 || n == 0) return 1;
  /* the same structure as at the last analysis (a settled pile repeats its
   * contact graph from step to step): the same triplets, pattern, ordering
   * and slots */
  const int nnzj = s->jptr[s->nc];
  if (s->seq_valid && s->seq_ntrip == s->ntrip && s->pkind == kind && s->pn == n &&
      s->seq_ntree == s->ntree && s->seq_nc == s->nc &&
      memcmp(s->seq_tptr, s->tree_ptr, sizeof(int) * ((size_t)s->ntree + 1)) == 0 &&
      memcmp(s->seq_tdofs, s->tree_dofs, sizeof(int) * (size_t)n) == 0 &&
      memcmp(s->seq_jptr, s->jptr, sizeof(int) * ((size_t)s->nc + 1)) == 0 &&
      memcmp(s->seq_jcol, s->jcol, sizeof(int) * (size_t)nnzj) == 0)
    return 0;
  s->seq_valid = 0;
  s->seq_ntree = s->ntree;
  s->seq_nc = s->nc;
  memcpy(s->seq_tptr, s->tree_ptr, sizeof(int) * ((size_t)s->ntree + 1));
  memcpy(s->seq_tdofs, s->tree_dofs, sizeof(int) * (size_t)n);
  memcpy(s->seq_jptr, s->jptr, sizeof(int) * ((size_t)s->nc + 1));
  memcpy(s->seq_jcol, s->jcol, sizeof(int) * (size_t)nnzj);
  /* triplets in the order sc_sap_sparse_factor adds values */
  long t = 0;
  for (int tr = 0; tr < s->ntree; tr++) {
    const int* d = s->tree_dofs + s->tree_ptr[tr];
    const int nt = s->tree_ptr[tr + 1] - s->tree_ptr[tr];
    for (int b = 0; b < nt; b++)
      for (int a = b; a < nt; a++, t++) s->ti[t] = d[a], s->tj[t] = d[b];
  }
  for (int c = 0; c < s->nc; c++)
    for (int b = s->jptr[c]; b < s->jptr[c + 1]; b++)
      for (int a = b; a < s->jptr[c + 1]; a++)
        if (s->tree_of[s->jcol[a]] != s->tree_of[s->jcol[b]])
          s->ti[t] = s->jcol[a], s->tj[t] = s->jcol[b], t++;
  if (kind == SC_SAP_SPARSE_BLOCK) {
    if (analyze_block(s) != 0) return 1;
    s->pkind = kind;
    s->pn = n;
    s->seq_valid = 1;
    s->seq_ntrip = s->ntrip;
    return 0;
  }
  s->block_valid = 0;
  s->factored = 0;

  const int nnz = build_csc(s, NULL, 0, s->cp, s->ri);
  const int same = s->have_prev && s->L && s->pkind == kind && s->pn == n && s->pnnz == nnz &&
                   memcmp(s->pcp, s->cp, sizeof(int) * ((size_t)n + 1)) == 0 &&
                   memcmp(s->pri, s->ri, sizeof(int) * (size_t)nnz) == 0;
  if (!same) {
    s->have_prev = 0;
    arena_reset(s);
    armed_arena = &s->arena;
    s->cm.supernodal = kind == SC_SAP_SPARSE_SUPERNODAL   ? CHOLMOD_SUPERNODAL
                       : kind == SC_SAP_SPARSE_SIMPLICIAL ? CHOLMOD_SIMPLICIAL
                                                          : CHOLMOD_AUTO;
    cholmod_sparse P = {.nrow = (size_t)n, .ncol = (size_t)n, .nzmax = (size_t)nnz,
                        .p = s->cp, .i = s->ri, .stype = -1, .itype = CHOLMOD_INT,
                        .xtype = CHOLMOD_PATTERN, .dtype = CHOLMOD_DOUBLE, .sorted = 1,
                        .packed = 1};
    s->L = cholmod_analyze(&P, &s->cm);
    if (!s->L || s->cm.status < CHOLMOD_OK) {
      armed_arena = NULL;
      return 1;
    }
    if (s->L->is_super) {
      /* the dense update buffer cholmod_super_numeric allocates per call */
      const size_t need = s->L->maxcsize * sizeof(double);
      s->pool.mem[0] = hook_malloc(need);
      s->pool.cap[0] = s->pool.mem[0] ? need : 0;
      s->pool.size[0] = need; /* the pool serves exact sizes only */
    } else if (!cholmod_change_factor(CHOLMOD_PATTERN, 1, 0, 1, 1, s->L, &s->cm)) {
      /* simplicial: LL^T, so that a non-SPD H is reported */
      armed_arena = NULL;
      return 1;
    }
    armed_arena = NULL;
    memcpy(s->pcp, s->cp, sizeof(int) * ((size_t)n + 1));
    memcpy(s->pri, s->ri, sizeof(int) * (size_t)nnz);
    s->pn = n;
    s->pnnz = nnz;
    s->pkind = kind;
    s->have_prev = 1;
  }
  /* H(p, p) in the triangle the numeric kernel reads: the supernodal one the
   * lower, the simplicial (row-oriented) one the upper */
  const int* perm = s->L->Perm;
  for (int k = 0; k < n; k++) s->pinv[perm ? perm[k] : k] = k;
  s->upper = !s->L->is_super;
  s->hnnz = build_csc(s, s->pinv, s->upper, s->hp, s->hi);
  s->seq_valid = 1;
  s->seq_ntrip = s->ntrip;
  return 0;
}

int sc_sap_sparse_is_supernodal(const sc_sap_sparse* s) {
  return s->pkind != SC_SAP_SPARSE_BLOCK && s->L && s->L->is_super;
}

int sc_sap_sparse_has_factor(const sc_sap_sparse* s) {
  return sc_sap_sparse_is_block(s) && s->factored && s->fnv == s->nv;
}

void sc_sap_sparse_forget_factor(sc_sap_sparse* s) { s->factored = 0; }

int sc_sap_sparse_is_block(const sc_sap_sparse* s) {
  return s->pkind == SC_SAP_SPARSE_BLOCK && s->block_valid;
}

long sc_sap_sparse_factor_nnz(const sc_sap_sparse* s) {
  if (sc_sap_sparse_is_block(s)) return sc_sap_block_nnz(&s->blk);
  if (!s->L) return 0;
  if (s->L->is_super) return (long)s->L->xsize;
  return (long)s->L->nzmax;
}

/* H = A + J^T blockdiag(G) J into hx (nz entries), in the analyzed pattern */
static void assemble(sc_sap_sparse* s, const double* G, double* hx, long nz) {
  for (long k = 0; k < nz; k++) hx[k] = 0.0;
  long t = 0;
  for (int tr = 0; tr < s->ntree; tr++) {
    const int nt = s->tree_ptr[tr + 1] - s->tree_ptr[tr];
    const double* blk = s->A + s->foff[tr];
    for (int b = 0; b < nt; b++) {
      const double* col = blk + (size_t)b * nt;
      for (int a = b; a < nt; a++) hx[s->slot[t++]] += col[a];
    }
  }
  /* J_i^T G_i J_i over the columns contact i touches, each entry added
   * in the same order as when every pair had a triplet of its own: the
   * sums, and so H, are bit-identical to that layout's */
  const long cross0 = s->ttri[s->ntree];
  for (int c = 0; c < s->nc; c++) {
    const double* g = G + 9 * c;
    const int ct = s->tail ? s->tail[c] : -1;
    if (zero9(g) && (ct < 0 || zero9(sc_sap_gx(G, s->nc, c)))) {
      t = cross0 + s->ctr[c + 1];
      continue;
    }
    for (int b = s->jptr[c]; b < s->jptr[c + 1]; b++) {
      const double* jb = s->jval + 3 * b;
      double gj0 = g[0] * jb[0] + g[1] * jb[1] + g[2] * jb[2];
      double gj1 = g[3] * jb[0] + g[4] * jb[1] + g[5] * jb[2];
      double gj2 = g[6] * jb[0] + g[7] * jb[1] + g[8] * jb[2];
      double xt[3] = {0.0, 0.0, 0.0};
      if (ct >= 0) cone_cross(s, G, c, ct, b, &gj0, &gj1, &gj2, xt);
      const int tb = s->tree_of[s->jcol[b]], lb = s->tree_loc[s->jcol[b]];
      const long nb = s->tree_ptr[tb + 1] - s->tree_ptr[tb];
      for (int a = b; a < s->jptr[c + 1]; a++) {
        const double* ja = s->jval + 3 * a;
        double h = ja[0] * gj0 + ja[1] * gj1 + ja[2] * gj2;
        if (ct >= 0) {
          const double* jt = s->jval + 3 * (s->jptr[ct] + (a - s->jptr[c]));
          h += jt[0] * xt[0] + jt[1] * xt[1] + jt[2] * xt[2];
        }
        const int ca = s->jcol[a];
        if (s->tree_of[ca] == tb) {
          /* tree tb's triplet (hi, lo): column lo of its lower triangle
           * starts after lo columns of nb, nb - 1, ... entries */
          const long la = s->tree_loc[ca], lo = la < lb ? la : lb, hi = la < lb ? lb : la;
          hx[s->slot[s->ttri[tb] + lo * nb - lo * (lo - 1) / 2 + (hi - lo)]] += h;
        } else {
          hx[s->slot[t++]] += h;
        }
      }
    }
  }
}

int sc_sap_sparse_dense(sc_sap_sparse* s, const double* G, double* out) {
  const int n = s->nv;
  if (sc_sap_sparse_is_block(s)) {
    /* every triplet's slot holds the sum of the triplets sharing it */
    s->factored = 0;
    assemble(s, G, s->blk.x, sc_sap_block_nnz(&s->blk));
    for (size_t e = 0; e < (size_t)n * n; e++) out[e] = 0.0;
    for (long t = 0; t < s->ntrip; t++) {
      const int i = s->ti[t], j = s->tj[t];
      out[i + (size_t)j * n] = out[j + (size_t)i * n] = s->blk.x[s->slot[t]];
    }
    return 0;
  }
  if (!s->L) return 1;
  assemble(s, G, s->hx, s->hnnz);
  const int* perm = s->L->Perm;
  for (size_t e = 0; e < (size_t)n * n; e++) out[e] = 0.0;
  for (int j = 0; j < n; j++)
    for (int q = s->hp[j]; q < s->hp[j + 1]; q++) {
      const int a = perm ? perm[s->hi[q]] : s->hi[q], b = perm ? perm[j] : j;
      out[a + (size_t)b * n] = out[b + (size_t)a * n] = s->hx[q];
    }
  return 0;
}

int sc_sap_sparse_factor(sc_sap_sparse* s, const double* G) {
  const int n = s->nv;
  if (sc_sap_sparse_is_block(s)) {
    assemble(s, G, s->blk.x, sc_sap_block_nnz(&s->blk));
    const int fail = sc_sap_block_factor(&s->blk);
    s->factored = !fail;
    s->fnv = n;
    return fail;
  }
  double* hx = s->hx;
  assemble(s, G, hx, s->hnnz);
  cholmod_sparse S = {.nrow = (size_t)n, .ncol = (size_t)n, .nzmax = (size_t)s->hnnz,
                      .p = s->hp, .i = s->hi, .x = hx, .stype = s->upper ? 1 : -1,
                      .itype = CHOLMOD_INT, .xtype = CHOLMOD_REAL, .dtype = CHOLMOD_DOUBLE,
                      .sorted = 1, .packed = 1};
  double beta[2] = {0.0, 0.0};
  int ok;
  if (s->L->is_super) {
    /* once L holds numeric values, the only allocations left are the
     * per-call update buffer and its header: serve them from the pool */
    if (s->L->xtype != CHOLMOD_PATTERN) armed_pool = &s->pool;
    armed_arena = &s->arena; /* the first factorization allocates L's values */
    ok = cholmod_super_numeric(&S, NULL, beta, s->L, &s->cm);
    armed_pool = NULL;
    armed_arena = NULL;
  } else {
    armed_arena = &s->arena;
    ok = cholmod_rowfac(&S, NULL, beta, 0, (size_t)n, s->L, &s->cm);
    armed_arena = NULL;
  }
  if (!ok || s->cm.status < CHOLMOD_OK || s->cm.status == CHOLMOD_NOT_POSDEF ||
      s->L->minor < (size_t)n)
    return 1;
  return 0;
}

/* Simplicial LL^T: x = P^T L^-T L^-1 P x with CHOLMOD's column storage (the
 * diagonal first in each column).  Written here because cholmod_solve2
 * reallocates its simplicial workspace on every call. */
static void simplicial_solve(sc_sap_sparse* s, double* x) {
  const int n = s->nv;
  const int *Lp = s->L->p, *Li = s->L->i, *Lnz = s->L->nz, *perm = s->L->Perm;
  const double* Lx = s->L->x;
  double* y = s->z;
  for (int k = 0; k < n; k++) y[k] = x[perm ? perm[k] : k];
  for (int j = 0; j < n; j++) {
    const int p0 = Lp[j], p1 = Lp[j] + Lnz[j];
    const double yj = y[j] /= Lx[p0];
    for (int q = p0 + 1; q < p1; q++) y[Li[q]] -= Lx[q] * yj;
  }
  for (int j = n - 1; j >= 0; j--) {
    const int p0 = Lp[j], p1 = Lp[j] + Lnz[j];
    double t = y[j];
    for (int q = p0 + 1; q < p1; q++) t -= Lx[q] * y[Li[q]];
    y[j] = t / Lx[p0];
  }
  for (int k = 0; k < n; k++) x[perm ? perm[k] : k] = y[k];
}

int sc_sap_sparse_solve(sc_sap_sparse* s, double* x) {
  const size_t n = (size_t)s->nv;
  if (sc_sap_sparse_is_block(s)) {
    double* y = s->z;
    for (size_t i = 0; i < n; i++) y[s->dofpos[i]] = x[i];
    sc_sap_block_solve(&s->blk, y);
    for (size_t i = 0; i < n; i++) x[i] = y[s->dofpos[i]];
    return 0;
  }
  if (!s->L->is_super) {
    if (!s->L->is_ll || s->L->xtype != CHOLMOD_REAL) return 1;
    simplicial_solve(s, x);
    return 0;
  }
  cholmod_dense B = {.nrow = n, .ncol = 1, .nzmax = n, .d = n, .x = x,
                     .xtype = CHOLMOD_REAL, .dtype = CHOLMOD_DOUBLE};
  armed_arena = &s->arena; /* the first solve allocates its workspace */
  const int ok = cholmod_solve2(CHOLMOD_A, s->L, &B, NULL, &s->X, NULL, &s->Y, &s->E, &s->cm);
  armed_arena = NULL;
  if (!ok) return 1;
  memcpy(x, s->X->x, sizeof(double) * n);
  return 0;
}
