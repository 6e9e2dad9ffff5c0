/* sap_bench: time per SAP solve on clutter-like contact problems, dense vs
 * sparse Hessian path.  No assertions; prints a table.
 *
 * Usage: sap_bench [B ...]   (default 8 64 216 512)
 *
 * B free cubes (side 0.1 m, mass 1 kg) sit on a side x side x side grid
 * resting on each other and on the ground: one contact per grid neighbour
 * along x, y and z and one ground contact per bottom cube, about 3 contacts
 * per body.  Each contact row block is J_i = C^T [I, -[r]x] per body (world
 * frame velocities v, omega; C = contact frame (t1, t2, n)), so the contact
 * graph is the grid graph of a cluttered pile.  v* = v0 - g dt with small
 * random v0, penetrations of 0.1 mm, k = 1e5 N/m, tau_d = 0.01 s,
 * mu = 0.5, dt = 1e-2 s.  Each solve starts from v = 0.
 *
 * Each body is one tree of the problem (a 6 x 6 block of A), as the
 * integrator's cliques are.
 *
 * Columns: path, Newton iterations, the first solve (for the sparse paths it
 * includes the symbolic analysis), the mean wall and process-CPU time
 * of the repeated solves (the sparse path reuses the analysis since the
 * pattern is unchanged), the Delassus estimate (wall) and the entries
 * stored by the factorization (its fill).  The last row per
 * B is the automatic choice.  The dense path is skipped above B = 216 (O(nv^3) per
 * iteration and O(nv^2 nc) per assembly). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/core.h"
#include "constraint/law.h"
#include "solver_sap/sap.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* process CPU time (all threads): steadier than wall time on a shared machine */
static double cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

typedef struct scene {
  int nv, nc;
  double *A, *J, *vstar, *R, *vhat, *mu, *phi0, *k, *taud, *w;
  int *tree_ptr, *tree_dofs;
  double* Ablk; /* 6 x 6 block per body */
  sc_problem p;
  sc_problem_storage st;
} scene;

/* contact frame with normal n: rows t1, t2, n of C^T */
static void frame(const double n[3], double Ct[9]) {
  double a[3] = {1, 0, 0};
  if (fabs(n[0]) > 0.9) a[0] = 0, a[1] = 1;
  double t1[3] = {a[1] * n[2] - a[2] * n[1], a[2] * n[0] - a[0] * n[2], a[0] * n[1] - a[1] * n[0]};
  const double l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
  for (int i = 0; i < 3; i++) t1[i] /= l;
  const double t2[3] = {n[1] * t1[2] - n[2] * t1[1], n[2] * t1[0] - n[0] * t1[2],
                        n[0] * t1[1] - n[1] * t1[0]};
  for (int i = 0; i < 3; i++) Ct[i] = t1[i], Ct[3 + i] = t2[i], Ct[6 + i] = n[i];
}

/* rows of contact c: += sign * C^T [I, -[r]x] on body b's 6 columns */
static void add_body(scene* s, int c, int b, double sign, const double Ct[9], const double r[3]) {
  const int m = 3 * s->nc;
  /* -[r]x omega = omega x r: column j of -[r]x is e_j x r */
  const double rx[9] = {0, r[2], -r[1], -r[2], 0, r[0], r[1], -r[0], 0}; /* column-major */
  for (int row = 0; row < 3; row++) {
    const double* ct = Ct + 3 * row;
    for (int j = 0; j < 3; j++) {
      s->J[3 * c + row + (size_t)(6 * b + j) * m] += sign * ct[j];
      const double* col = rx + 3 * j;
      s->J[3 * c + row + (size_t)(6 * b + 3 + j) * m] +=
          sign * (ct[0] * col[0] + ct[1] * col[1] + ct[2] * col[2]);
    }
  }
}

static void build(scene* s, int B, sc_sap_work* w) {
  int side = 1;
  while (side * side * side < B) side++;
  const double h = 0.1, mass = 1.0, g = 9.81, dt = 1e-2;
  /* count contacts */
  int nc = 0;
  for (int b = 0; b < B; b++) {
    const int ix = b % side, iy = (b / side) % side, iz = b / (side * side);
    if (iz == 0) nc++;
    if (ix + 1 < side && b + 1 < B) nc++;
    if (iy + 1 < side && b + side < B) nc++;
    if (b + side * side < B) nc++;
  }
  s->nv = 6 * B;
  s->nc = nc;
  const size_t nv = (size_t)s->nv, m = 3 * (size_t)nc;
  s->A = calloc(nv * nv, sizeof(double));
  s->J = calloc(m * nv, sizeof(double));
  s->vstar = malloc(nv * sizeof(double));
  s->R = malloc(m * sizeof(double));
  s->vhat = malloc(m * sizeof(double));
  s->mu = malloc((size_t)nc * sizeof(double));
  s->phi0 = malloc((size_t)nc * sizeof(double));
  s->k = malloc((size_t)nc * sizeof(double));
  s->taud = malloc((size_t)nc * sizeof(double));
  s->w = malloc((size_t)nc * sizeof(double));
  const double I = mass * h * h / 6.0;
  for (int b = 0; b < B; b++)
    for (int j = 0; j < 6; j++) {
      s->A[(6 * b + j) * (nv + 1)] = j < 3 ? mass : I;
      s->vstar[6 * b + j] = 0.01 * urand() - (j == 2 ? g * dt : 0.0);
    }
  int c = 0;
  for (int b = 0; b < B; b++) {
    const int ix = b % side, iy = (b / side) % side, iz = b / (side * side);
    const int nb[3] = {ix + 1 < side && b + 1 < B ? b + 1 : -1,
                       iy + 1 < side && b + side < B ? b + side : -1,
                       b + side * side < B ? b + side * side : -1};
    double Ct[9];
    if (iz == 0) {
      /* ground below: vc = velocity of the body at its bottom face */
      const double n[3] = {0, 0, 1}, r[3] = {0, 0, -0.5 * h};
      frame(n, Ct);
      add_body(s, c++, b, 1.0, Ct, r);
    }
    for (int a = 0; a < 3; a++) {
      if (nb[a] < 0) continue;
      /* normal from b to its neighbour; vc = v_nb - v_b at the shared face */
      double n[3] = {0, 0, 0}, rb[3] = {0, 0, 0}, rn[3] = {0, 0, 0};
      n[a] = 1.0;
      rb[a] = 0.5 * h;
      rn[a] = -0.5 * h;
      frame(n, Ct);
      add_body(s, c, nb[a], 1.0, Ct, rn);
      add_body(s, c++, b, -1.0, Ct, rb);
    }
  }
  for (int i = 0; i < nc; i++) {
    s->mu[i] = 0.5;
    s->phi0[i] = -1e-4;
    s->k[i] = 1e5;
    s->taud[i] = 0.01;
  }
  s->p = (sc_problem){.nv = s->nv, .nc = nc, .vstar = s->vstar, .R = s->R, .vhat = s->vhat,
                      .mu = s->mu, .phi0 = s->phi0, .dt = dt};
  s->st = (sc_problem_storage){0};
  if (sc_problem_set_dense(&s->p, s->A, s->J, &s->st) != 0) {
    fprintf(stderr, "sap_bench: out of memory\n");
    exit(1);
  }
  /* one tree per body, as simc's integrator hands them over (its cliques):
   * the dense conversion would make each dof of the diagonal mass matrix a
   * tree of its own */
  s->tree_ptr = malloc(sizeof(int) * (size_t)(B + 1));
  s->tree_dofs = malloc(sizeof(int) * nv);
  s->Ablk = malloc(sizeof(double) * 36 * (size_t)B);
  for (int b = 0; b <= B; b++) s->tree_ptr[b] = 6 * b;
  for (size_t i = 0; i < nv; i++) s->tree_dofs[i] = (int)i;
  for (int b = 0; b < B; b++)
    for (int j = 0; j < 6; j++)
      for (int i = 0; i < 6; i++)
        s->Ablk[36 * b + i + 6 * j] = s->A[(size_t)(6 * b + i) + (size_t)(6 * b + j) * nv];
  s->p.ntree = B;
  s->p.tree_ptr = s->tree_ptr;
  s->p.tree_dofs = s->tree_dofs;
  s->p.A = s->Ablk;
  sc_sap_delassus_problem(&s->p, w, s->w);
  sc_law_sap(nc, s->k, s->taud, s->w, s->phi0, NULL, dt, 1.0, 1e-3, 1.0, s->R, s->vhat);
}

static void scene_free(scene* s) {
  free(s->A), free(s->J), free(s->vstar), free(s->R), free(s->vhat), free(s->mu);
  free(s->phi0), free(s->k), free(s->taud), free(s->w);
  free(s->tree_ptr), free(s->tree_dofs), free(s->Ablk);
  sc_problem_storage_free(&s->st);
}

static const char* path_name(int h) {
  switch (h) {
    case SC_SAP_HESSIAN_DENSE: return "dense";
    case SC_SAP_HESSIAN_SPARSE_SUPERNODAL: return "cholmod-super";
    case SC_SAP_HESSIAN_SPARSE_SIMPLICIAL: return "cholmod-simpl";
    case SC_SAP_HESSIAN_SPARSE_BLOCK: return "block";
    default: return "-";
  }
}

/* one path: first solve, then repeats for about 0.5 s (at most 50) */
static void run(const scene* s, sc_sap_work* w, int hessian) {
  sc_sap_params prm;
  sc_sap_params_default(&prm);
  prm.hessian = hessian;
  double* v = malloc(sizeof(double) * (size_t)s->nv);
  double* gam = malloc(sizeof(double) * 3 * (size_t)s->nc);
  double* wd = malloc(sizeof(double) * (size_t)s->nc);
  sc_solver_stats st;
  for (int i = 0; i < s->nv; i++) v[i] = 0.0;
  double t0 = now();
  sc_solve_status status = sc_sap_solve(&s->p, &prm, w, v, gam, &st);
  const double first = now() - t0;
  int reps = 0;
  double total = 0.0, total_cpu = 0.0;
  while (reps < 50 && total < 0.5) {
    for (int i = 0; i < s->nv; i++) v[i] = 0.0;
    t0 = now();
    const double c0 = cpu();
    sc_sap_solve(&s->p, &prm, w, v, gam, &st);
    total_cpu += cpu() - c0;
    total += now() - t0;
    reps++;
  }
  t0 = now();
  sc_sap_delassus_path(&s->p,
                       hessian == SC_SAP_HESSIAN_DENSE ? SC_SAP_HESSIAN_DENSE
                                                       : SC_SAP_HESSIAN_SPARSE,
                       w, wd);
  const double tdel = now() - t0;
  printf("%5d %6d %6d  %-14s %5d %12.3f %12.3f %12.3f %6d %11.3f %10ld  %s\n", s->nv / 6, s->nv,
         s->nc, path_name(sc_sap_last_hessian(w)), st.iterations, 1e3 * first, 1e3 * total / reps,
         1e3 * total_cpu / reps, reps, 1e3 * tdel, sc_sap_last_factor_nnz(w),
         sc_solve_status_name(status));
  fflush(stdout);
  free(v), free(gam), free(wd);
}

int main(int argc, char** argv) {
  int sizes[16] = {8, 64, 216, 512}, ns = 4;
  if (argc > 1) {
    ns = 0;
    for (int i = 1; i < argc && ns < 16; i++) sizes[ns++] = atoi(argv[i]);
  }
  printf("SAP solve time, clutter-like grid of free cubes (~3 contacts per body)\n");
  printf("%5s %6s %6s  %-14s %5s %12s %12s %12s %6s %11s %10s  %s\n", "B", "nv", "nc", "hessian",
         "iters", "first ms", "solve ms", "solve cpu ms", "reps", "delassus ms", "nnz(L)", "status");
  for (int k = 0; k < ns; k++) {
    const int B = sizes[k];
    if (B < 1) continue;
    srand(1);
    /* sizes first: a throwaway build on a small workspace is not needed,
     * the contact count is at most 4 per body */
    sc_sap_work* w = sc_sap_work_create(6 * B, 4 * B);
    if (!w) {
      printf("%5d: out of memory\n", B);
      continue;
    }
    scene s;
    build(&s, B, w);
    if (B <= 216) run(&s, w, SC_SAP_HESSIAN_DENSE);
    run(&s, w, SC_SAP_HESSIAN_SPARSE_SIMPLICIAL);
    run(&s, w, SC_SAP_HESSIAN_SPARSE_SUPERNODAL);
    run(&s, w, SC_SAP_HESSIAN_AUTO);
    scene_free(&s);
    sc_sap_work_free(w);
  }
  return 0;
}
