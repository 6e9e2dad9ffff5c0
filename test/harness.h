/* harness: a tiny test harness (one executable per test file).
 *
 * Each test is a void function; ENSURE* record a failure (with file:line and
 * the expression) and let the test go on.  Every test prints one line
 * "PASS name" or "FAIL name"; test/run_tests.sh counts them across all test
 * programs and prints the closing "N passed, N failed". */
#ifndef SC_TEST_HARNESS_H
#define SC_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int sc_test_failures_;   /* failures in the current test */
static int sc_test_npass_, sc_test_nfail_;
static const char* sc_test_filter_;

#define ENSURE(c)                                                             \
  do {                                                                        \
    if (!(c)) {                                                               \
      printf("  %s:%d: ENSURE(%s) failed\n", __FILE__, __LINE__, #c);         \
      sc_test_failures_++;                                                    \
    }                                                                         \
  } while (0)

/* |a - b| <= tol */
#define ENSURE_NEAR(a, b, tol)                                                     \
  do {                                                                             \
    double a_ = (double)(a), b_ = (double)(b), t_ = (double)(tol);                  \
    if (!(fabs(a_ - b_) <= t_)) {                                                   \
      printf("  %s:%d: ENSURE_NEAR(%s, %s, %s): %.17g vs %.17g (diff %.3g)\n",      \
             __FILE__, __LINE__, #a, #b, #tol, a_, b_, fabs(a_ - b_));              \
      sc_test_failures_++;                                                          \
    }                                                                               \
  } while (0)

/* |a - b| <= rtol * max(|a|, |b|) + atol */
#define ENSURE_CLOSE(a, b, rtol, atol)                                               \
  do {                                                                               \
    double a_ = (double)(a), b_ = (double)(b);                                        \
    double s_ = fabs(a_) > fabs(b_) ? fabs(a_) : fabs(b_);                            \
    if (!(fabs(a_ - b_) <= (double)(rtol) * s_ + (double)(atol))) {                   \
      printf("  %s:%d: ENSURE_CLOSE(%s, %s): %.17g vs %.17g (rel %.3g)\n", __FILE__, \
             __LINE__, #a, #b, a_, b_, s_ > 0 ? fabs(a_ - b_) / s_ : 0.0);           \
      sc_test_failures_++;                                                            \
    }                                                                                 \
  } while (0)

#define RUN(fn)                                                          \
  do {                                                                   \
    if (!sc_test_filter_ || strstr(#fn, sc_test_filter_)) {              \
      sc_test_failures_ = 0;                                             \
      fn();                                                              \
      if (sc_test_failures_) {                                           \
        printf("FAIL %s\n", #fn);                                        \
        sc_test_nfail_++;                                                \
      } else {                                                           \
        printf("PASS %s\n", #fn);                                        \
        sc_test_npass_++;                                                \
      }                                                                  \
      fflush(stdout);                                                    \
    }                                                                    \
  } while (0)

#define TEST_BEGIN(argc, argv) \
  do {                         \
    setvbuf(stdout, NULL, _IOLBF, 0); \
    sc_test_filter_ = (argc) > 1 ? (argv)[1] : NULL; \
  } while (0)
#define TEST_END() (sc_test_nfail_ ? 1 : 0)

#endif
