/* Eigenvalues of a symmetric 3x3 matrix, for tests that check a Hessian
 * block is symmetric positive semidefinite without using src/linalg. */
#ifndef TEST_SYM3_H
#define TEST_SYM3_H

#include <math.h>

/* eigenvalues of a symmetric 3x3 (row-major) by cyclic Jacobi rotations */
static inline void sym3_eig(const double G[9], double ev[3]) {
  double a[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) a[i][j] = G[3 * i + j];
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
    if (off == 0.0) break;
    for (int p = 0; p < 2; p++)
      for (int q = p + 1; q < 3; q++) {
        if (a[p][q] == 0.0) continue;
        double th = 0.5 * atan2(2.0 * a[p][q], a[q][q] - a[p][p]);
        double c = cos(th), s = sin(th);
        for (int k = 0; k < 3; k++) { /* columns */
          double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; k++) { /* rows */
          double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
      }
  }
  for (int i = 0; i < 3; i++) ev[i] = a[i][i];
}

#endif
