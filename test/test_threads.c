/* Contact islands on several threads (contact.threads): the worker pool, and
 * runs whose every step is bit-identical to one thread's, with no
 * allocation in any thread and a cancellation that still ends the step. */
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "harness.h"
#include "integrator/integrator.h"
#include "scene/scene.h"

/* ---- the pool: every thread index runs exactly once per run ---- */
typedef struct pool_probe {
  atomic_int calls[8];
  atomic_int total;
} pool_probe;

static void probe_fn(void* arg, int t) {
  pool_probe* p = arg;
  atomic_fetch_add(&p->calls[t], 1);
  atomic_fetch_add(&p->total, 1);
}

static void test_pool_runs_each_thread_once(void) {
  for (int n = 1; n <= 4; n++) {
    sc_pool* pool = sc_pool_create(n);
    ENSURE(pool != NULL);
    if (!pool) continue;
    ENSURE(sc_pool_size(pool) == n);
    pool_probe p;
    for (int t = 0; t < 8; t++) atomic_init(&p.calls[t], 0);
    atomic_init(&p.total, 0);
    const long a0 = sc_alloc_count_process();
    const int runs = 2000;
    for (int r = 0; r < runs; r++) {
      sc_pool_run(pool, probe_fn, &p);
      /* the run has returned: all n calls of this run are done */
      if (atomic_load(&p.total) != (r + 1) * n) {
        ENSURE(atomic_load(&p.total) == (r + 1) * n);
        break;
      }
    }
    ENSURE(sc_alloc_count_process() == a0);
    for (int t = 0; t < 8; t++) ENSURE(atomic_load(&p.calls[t]) == (t < n ? runs : 0));
    sc_pool_free(pool);
  }
  ENSURE(sc_pool_create(0) == NULL);
  ENSURE(sc_online_cpus() >= 1);
}

/* ---- a scene stepped with 1, 2 and 3 threads, compared every step ---- */
typedef struct run {
  sc_model* m;
  sc_data* d;
} run;

/* the scene at path on the given threads, with one more --set (or NULL) */
static int run_open_set(run* r, const char* path, const char* threads, const char* extra) {
  char set[64];
  snprintf(set, sizeof set, "contact.threads=%s", threads);
  const char* sets[] = {set, extra};
  sc_error err;
  r->m = NULL;
  r->d = NULL;
  if (sc_scene_load(path, sets, extra ? 2 : 1, &r->m, &err) != SC_OK) {
    printf("  %s: %s\n", path, err.msg);
    return -1;
  }
  if (sc_data_create(r->m, &r->d, &err) != SC_OK || sc_sim_prepare(r->m, r->d, &err) != SC_OK ||
      sc_forward(r->m, r->d, &err) != SC_OK) {
    printf("  %s: %s\n", path, err.msg);
    return -1;
  }
  return 0;
}

static int run_open(run* r, const char* path, const char* threads) {
  return run_open_set(r, path, threads, NULL);
}

static void run_close(run* r) {
  sc_data_free(r->d);
  sc_model_free(r->m);
}

/* bitwise equality of everything a step produces that the output records */
static int same_step(const run* a, const run* b) {
  const sc_model* m = a->m;
  const sc_data *x = a->d, *y = b->d;
  if (x->ncon != y->ncon || x->nisland != y->nisland) return 0;
  if (memcmp(x->q, y->q, sizeof(double) * (size_t)m->nq) ||
      memcmp(x->v, y->v, sizeof(double) * (size_t)m->nv) ||
      memcmp(x->impulse, y->impulse, sizeof(double) * 3 * (size_t)x->ncon))
    return 0;
  const sc_solver_stats *s = &x->contact_stats, *t = &y->contact_stats;
  return s->iterations == t->iterations && s->linesearch_evals == t->linesearch_evals &&
         memcmp(&s->residual, &t->residual, sizeof s->residual) == 0 &&
         memcmp(&s->cost, &t->cost, sizeof s->cost) == 0 && s->status == t->status &&
         memcmp(&x->e_contact, &y->e_contact, sizeof x->e_contact) == 0;
}

static void identical_threads(const char* path, long steps) {
  run r[3];
  const char* th[3] = {"1", "2", "3"};
  int ok = 1;
  for (int i = 0; i < 3; i++) ok &= run_open(&r[i], path, th[i]) == 0;
  ENSURE(ok);
  long first_diff = -1, multi = 0, contacts = 0;
  int max_isl = 0;
  const long a0 = sc_alloc_count_process();
  for (long k = 0; ok && k < steps; k++) {
    sc_error err;
    for (int i = 0; i < 3; i++) ok &= sc_step(r[i].m, r[i].d, &err) == SC_OK;
    ENSURE(ok);
    if (first_diff < 0 && (!same_step(&r[0], &r[1]) || !same_step(&r[0], &r[2]))) first_diff = k;
    multi += r[0].d->nisland > 1;
    contacts += r[0].d->ncon;
    if (r[0].d->nisland > max_isl) max_isl = r[0].d->nisland;
  }
  const long allocs = sc_alloc_count_process() - a0;
  printf("  %s: %ld steps, %ld with several islands (at most %d), %ld contact rows, "
         "first differing step %ld, %ld allocations\n",
         path, steps, multi, max_isl, contacts, first_diff, allocs);
  ENSURE(first_diff < 0);
  ENSURE(multi > steps / 4); /* the comparison covers steps with many islands */
  ENSURE(max_isl >= 4);
  ENSURE(allocs == 0);
  for (int i = 0; i < 3; i++) run_close(&r[i]);
}

static void test_clutter64_identical_1_2_3_threads(void) {
  identical_threads("test/clutter64.yaml", 400);
}

/* ---- a factorization held across contact solves (island.c, sap.c) ----
 * test/tower_islands.yaml: a 30-box tower (180 dofs, the one island on the
 * block path) and three boxes resting apart (small dense islands), rigid
 * contact, 300 steps.  Thread 0 always solves the tower, so that each solve
 * may start from the last one's factorization whatever the thread count:
 * every step bit-identical on 1, 2 and 3 threads, and allocation-free.
 * Reference: the same run with contact.cg_iterations = 0 (a factorization
 * per Newton iteration, every solve on its own): the held factor must save
 * at least half of the factorizations (measured: 315 against 686, of which
 * 303 are the three boxes' own), and the state may differ from the
 * reference only at the solver's tolerance: tower positions within 1e-9 m,
 * velocities within 1e-7 m/s (measured 8e-14 m and 9e-11 m/s). */
static void test_held_factor_across_solves(void) {
  const char* path = "test/tower_islands.yaml";
  run r[3], ref;
  const char* th[3] = {"1", "2", "3"};
  int ok = run_open_set(&ref, path, "1", "contact.cg_iterations=0") == 0;
  for (int i = 0; i < 3; i++) ok &= run_open(&r[i], path, th[i]) == 0;
  ENSURE(ok);
  if (!ok) return;
  long first_diff = -1, fac = 0, fac_ref = 0, multi = 0;
  const long a0 = sc_alloc_count_process();
  const long steps = 300;
  for (long k = 0; ok && k < steps; k++) {
    sc_error err;
    for (int i = 0; i < 3; i++) ok &= sc_step(r[i].m, r[i].d, &err) == SC_OK;
    ok &= sc_step(ref.m, ref.d, &err) == SC_OK;
    ENSURE(ok);
    if (first_diff < 0 && (!same_step(&r[0], &r[1]) || !same_step(&r[0], &r[2]))) first_diff = k;
    fac += r[0].d->contact_stats.factorizations;
    fac_ref += ref.d->contact_stats.factorizations;
    multi += r[0].d->nisland >= 4;
  }
  const long allocs = sc_alloc_count_process() - a0;
  double dq = 0.0, dv = 0.0;
  for (int i = 0; i < r[0].m->nq; i++) dq = fmax(dq, fabs(r[0].d->q[i] - ref.d->q[i]));
  for (int i = 0; i < r[0].m->nv; i++) dv = fmax(dv, fabs(r[0].d->v[i] - ref.d->v[i]));
  printf("  %s: %ld steps (%ld with 4 islands), first differing step across threads %ld, "
         "%ld allocations; factorizations %ld against %ld with cg_iterations = 0; "
         "|dq| %.2e m, |dv| %.2e m/s from that reference\n",
         path, steps, multi, first_diff, allocs, fac, fac_ref, dq, dv);
  ENSURE(first_diff < 0);
  ENSURE(allocs == 0);
  ENSURE(multi > steps / 2);
  ENSURE(2 * fac <= fac_ref);
  ENSURE(dq <= 1e-9);
  ENSURE(dv <= 1e-7);
  for (int i = 0; i < 3; i++) run_close(&r[i]);
  run_close(&ref);
}

/* ---- cancellation: a flag already set ends the threaded contact solve
 * with the interruption error, and the next step solves normally ---- */
static void test_cancel_threaded_solve(void) {
  run r;
  ENSURE(run_open(&r, "test/clutter64.yaml", "2") == 0);
  if (!r.d) return;
  sc_error err;
  int st = SC_OK;
  /* until the pile has landed: many contacts in several islands */
  for (int k = 0; k < 400 && st == SC_OK && !(r.d->ncon > 40 && r.d->nisland > 2); k++)
    st = sc_step(r.m, r.d, &err);
  ENSURE(st == SC_OK && r.d->ncon > 40 && r.d->nisland > 2);
  printf("  cancel at t = %.3f s: %d contacts, %d islands\n", r.d->time, r.d->ncon,
         r.d->nisland);
  static volatile sig_atomic_t flag = 1;
  sc_sim_set_cancel(r.d, &flag);
  const double t0 = r.d->time;
  st = sc_step(r.m, r.d, &err);
  ENSURE(st == SC_ERR_SIM && strstr(err.msg, "interrupted") != NULL);
  ENSURE(r.d->time == t0); /* the step did not complete */
  ENSURE(r.d->contact_stats.status == SC_SOLVE_CANCELLED);
  printf("  %s\n", err.msg);
  flag = 0;
  ENSURE(sc_step(r.m, r.d, &err) == SC_OK);
  run_close(&r);
}

/* ---- the option ---- */
static void test_threads_option(void) {
  const char* ok_sets[][1] = {{"contact.threads=auto"}, {"contact.threads=7"}};
  for (int i = 0; i < 2; i++) {
    sc_model* m = NULL;
    sc_error err;
    ENSURE(sc_scene_load("scenes/box_stack.yaml", ok_sets[i], 1, &m, &err) == SC_OK);
    if (m) ENSURE(m->opt.threads == (i == 0 ? 0 : 7));
    sc_model_free(m);
  }
  const char* bad[] = {"contact.threads=0", "contact.threads=two", "contact.threads=1000"};
  for (int i = 0; i < 3; i++) {
    sc_model* m = NULL;
    sc_error err;
    const char* sets[] = {bad[i]};
    ENSURE(sc_scene_load("scenes/box_stack.yaml", sets, 1, &m, &err) != SC_OK);
    printf("  %s -> %s:%d:%d: %s\n", bad[i], err.file, err.line, err.col, err.msg);
    ENSURE(strstr(err.msg, "threads") != NULL || strstr(err.file, "--set") != NULL);
    sc_model_free(m);
  }
  sc_model* m = NULL;
  sc_error err;
  ENSURE(sc_scene_load("scenes/box_stack.yaml", NULL, 0, &m, &err) == SC_OK);
  if (m) ENSURE(m->opt.threads == 1);
  sc_model_free(m);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  RUN(test_pool_runs_each_thread_once);
  RUN(test_threads_option);
  RUN(test_clutter64_identical_1_2_3_threads);
  RUN(test_held_factor_across_solves);
  RUN(test_cancel_threaded_solve);
  return TEST_END();
}
