/* Problems written densely by hand: the block form of problem.h built from
 * dense A (nv x nv) and J (3nc x nv) with sc_problem_set_dense.  The storage
 * st (caller-owned, zero-initialized; a static one stays reachable at exit)
 * is freed and refilled on every call, so A and J may change between calls;
 * vstar, R, vhat, mu and phi0 are referenced, not copied. */
#ifndef TEST_PROBLEM_UTIL_H
#define TEST_PROBLEM_UTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "core/problem.h"

static inline sc_problem dense_problem(sc_problem_storage* st, int nv, int nc, const double* A,
                                       const double* vstar, const double* J, const double* R,
                                       const double* vhat, const double* mu,
                                       const double* phi0, double dt) {
  sc_problem p = {.nv = nv, .nc = nc, .vstar = vstar, .R = R, .vhat = vhat, .mu = mu,
                  .phi0 = phi0, .dt = dt};
  if (sc_problem_set_dense(&p, A, J, st) != 0) {
    fprintf(stderr, "out of memory building a test problem\n");
    abort();
  }
  return p;
}

#endif
