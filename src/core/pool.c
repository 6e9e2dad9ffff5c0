/* pool: a persistent set of worker threads for work inside a time step.
 *
 * Threads are started once (sc_pool_create) and parked on a condition
 * variable; a run bumps a generation counter under the mutex and broadcasts,
 * each worker runs the function once for that generation and reports back,
 * and the caller waits until all have.  So a run costs two wake-ups per
 * worker and no allocation or thread creation.  What the function does
 * with its thread index (which work items it takes) is up to the caller. */
#include "core/core.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

struct sc_pool {
  int n; /* threads in all, the caller's included */
  int nstarted;
  pthread_t* tid;
  pthread_mutex_t mu;
  pthread_cond_t wake, done;
  unsigned long gen; /* runs started */
  int pending;       /* workers still running the current generation */
  int stop;
  sc_pool_fn fn;
  void* arg;
};

typedef struct worker_arg {
  sc_pool* p;
  int t;
} worker_arg;

static void* worker(void* a) {
  sc_pool* p = ((worker_arg*)a)->p;
  const int t = ((worker_arg*)a)->t;
  pthread_mutex_lock(&p->mu);
  unsigned long seen = 0; /* runs start after sc_pool_create returns */
  for (;;) {
    while (!p->stop && p->gen == seen) pthread_cond_wait(&p->wake, &p->mu);
    if (p->stop) break;
    seen = p->gen;
    sc_pool_fn fn = p->fn;
    void* arg = p->arg;
    pthread_mutex_unlock(&p->mu);
    fn(arg, t);
    pthread_mutex_lock(&p->mu);
    if (--p->pending == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

sc_pool* sc_pool_create(int nthreads) {
  if (nthreads < 1) return NULL;
  sc_pool* p = sc_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->n = nthreads;
  /* thread ids, then the workers' arguments */
  p->tid = sc_calloc((size_t)nthreads, sizeof(pthread_t) + sizeof(worker_arg));
  if (!p->tid || pthread_mutex_init(&p->mu, NULL) != 0) {
    sc_free(p->tid);
    sc_free(p);
    return NULL;
  }
  pthread_cond_init(&p->wake, NULL);
  pthread_cond_init(&p->done, NULL);
  worker_arg* wa = (worker_arg*)(p->tid + nthreads);
  /* workers start with every signal blocked (the mask is inherited) */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int ok = 1;
  for (int t = 1; t < nthreads && ok; t++) {
    wa[t].p = p;
    wa[t].t = t;
    ok = pthread_create(&p->tid[t], NULL, worker, &wa[t]) == 0;
    if (ok) p->nstarted++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (!ok) {
    sc_pool_free(p);
    return NULL;
  }
  return p;
}

int sc_pool_size(const sc_pool* p) { return p ? p->n : 1; }

void sc_pool_run(sc_pool* p, sc_pool_fn fn, void* arg) {
  if (p->n > 1) {
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->pending = p->n - 1;
    p->gen++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
  }
  fn(arg, 0);
  if (p->n > 1) {
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
  }
}

void sc_pool_free(sc_pool* p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  for (int t = 1; t <= p->nstarted; t++) pthread_join(p->tid[t], NULL);
  pthread_cond_destroy(&p->wake);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  sc_free(p->tid);
  sc_free(p);
}

int sc_online_cpus(void) {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n >= 1 && n < 4096 ? (int)n : 1;
}
