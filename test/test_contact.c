/* Contact Jacobian against finite differences of the material points. */
#include <stdlib.h>

#include "build_model.h"
#include "contact/contact.h"
#include "dynamics/dynamics.h"
#include "harness.h"

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

/* body a: free; body b: revolute child of a ball-jointed body */
static void test_jacobian_matches_point_velocities(void) {
  sc_model* m = tb_begin(4, 0, 0, 0);
  double c[3] = {0.1, 0.2, -0.1}, o[3] = {0.3, -0.2, 0.4};
  tb_body(m, 1, 0, SC_JOINT_FREE, 1, c, 0.1, 0.2, 0.3);
  tb_body(m, 2, 0, SC_JOINT_BALL, 1, c, 0.1, 0.2, 0.3);
  tb_body(m, 3, 2, SC_JOINT_REVOLUTE, 1, c, 0.1, 0.2, 0.3);
  tb_origin(m, 2, o, NULL);
  tb_origin(m, 3, o, o);
  tb_axis(m, 3, 1, 0.5, -0.2);
  tb_finish(m);
  sc_data* d;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  int pairs[3][2] = {{1, 3}, {0, 3}, {1, 0}};
  for (int trial = 0; trial < 10; trial++) {
    double q[16], v[16], qd[16], qp[16];
    for (int i = 0; i < m->nq; i++) q[i] = urand();
    for (int i = 0; i < m->nv; i++) v[i] = urand();
    sc_dyn_normalize_q(m, q);
    sc_dyn_kinematics(m, d, q);
    d->ncon = 3;
    for (int i = 0; i < 3; i++) {
      sc_contact* ct = d->contact + i;
      ct->body[0] = pairs[i][0];
      ct->body[1] = pairs[i][1];
      for (int r = 0; r < 3; r++) ct->pos[r] = urand();
      double n[3] = {urand(), urand(), urand()};
      sc_sp_normalize3(n);
      sc_sp_tangents(ct->frame, ct->frame + 3, n);
      memcpy(ct->frame + 6, n, sizeof n);
    }
    sc_contact_jacobian(m, d);
    double vc[9];
    sc_contact_velocity(m, d, v, vc);
    /* material points: body-local coordinates of p in a and b */
    double loc[3][2][3];
    for (int i = 0; i < 3; i++)
      for (int s = 0; s < 2; s++) {
        int b = d->contact[i].body[s];
        double rel[3];
        sc_sp_sub3(rel, d->contact[i].pos, d->xpos + 3 * b);
        sc_sp_mat3_Tvec(loc[i][s], d->xrot + 9 * b, rel);
      }
    double eps = 1e-6, xp[3][2][3], xm[3][2][3];
    sc_dyn_qdot(m, q, v, qd);
    for (int sgn = 0; sgn < 2; sgn++) {
      for (int i = 0; i < m->nq; i++) qp[i] = q[i] + (sgn ? -eps : eps) * qd[i];
      sc_dyn_kinematics(m, d, qp);
      for (int i = 0; i < 3; i++)
        for (int s = 0; s < 2; s++) {
          int b = d->contact[i].body[s];
          double w[3];
          sc_sp_mat3_vec(w, d->xrot + 9 * b, loc[i][s]);
          sc_sp_add3(sgn ? xm[i][s] : xp[i][s], w, d->xpos + 3 * b);
        }
    }
    for (int i = 0; i < 3; i++) {
      double vrel[3];
      for (int r = 0; r < 3; r++)
        vrel[r] = ((xp[i][1][r] - xm[i][1][r]) - (xp[i][0][r] - xm[i][0][r])) / (2 * eps);
      for (int r = 0; r < 3; r++)
        ENSURE_NEAR(vc[3 * i + r], sc_sp_dot3(d->contact[i].frame + 3 * r, vrel), 1e-7);
    }
  }
  sc_data_free(d);
  sc_model_free(m);
}

/* The Jacobian of a contact set does not depend on the contact sets built
 * before it in the same data (the column marks are per contact): rebuilding
 * with the bodies of each contact
 * swapped, rotated between indices and with fewer contacts gives exactly
 * what a fresh data object gives. */
static void test_jacobian_independent_of_history(void) {
  sc_model* m = tb_begin(4, 0, 0, 0);
  double c[3] = {0.1, 0.2, -0.1}, o[3] = {0.3, -0.2, 0.4};
  tb_body(m, 1, 0, SC_JOINT_FREE, 1, c, 0.1, 0.2, 0.3);
  tb_body(m, 2, 0, SC_JOINT_FREE, 1, c, 0.1, 0.2, 0.3);
  tb_body(m, 3, 2, SC_JOINT_REVOLUTE, 1, c, 0.1, 0.2, 0.3);
  tb_origin(m, 3, o, o);
  tb_finish(m);
  sc_data *d, *fresh;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  double q[32];
  for (int i = 0; i < m->nq; i++) q[i] = urand();
  sc_dyn_normalize_q(m, q);
  int sets[4][3][2] = {{{1, 3}, {0, 2}, {2, 1}},
                       {{3, 1}, {2, 0}, {1, 2}},  /* swapped */
                       {{0, 1}, {1, 3}, {3, 2}},  /* rotated, world first */
                       {{2, 3}, {0, 0}, {0, 0}}}; /* fewer contacts */
  int counts[4] = {3, 3, 3, 1};
  for (int round = 0; round < 8; round++) {
    int s = round % 4;
    ENSURE(sc_data_create(m, &fresh, &err) == SC_OK);
    sc_data* both[2] = {d, fresh};
    for (int w = 0; w < 2; w++) {
      sc_data* x = both[w];
      sc_dyn_kinematics(m, x, q);
      x->ncon = counts[s];
      for (int i = 0; i < counts[s]; i++) {
        sc_contact* ct = x->contact + i;
        ct->body[0] = sets[s][i][0];
        ct->body[1] = sets[s][i][1];
        ct->pos[0] = 0.1 * i, ct->pos[1] = -0.2, ct->pos[2] = 0.3 + 0.1 * s;
        double n[3] = {0.2, -0.3, 1.0};
        sc_sp_normalize3(n);
        sc_sp_tangents(ct->frame, ct->frame + 3, n);
        memcpy(ct->frame + 6, n, sizeof n);
      }
      sc_contact_jacobian(m, x);
    }
    /* the same columns in the same order, the same values */
    int differ = 0, nc = counts[s];
    for (int i = 0; i <= nc; i++) differ += d->jptr[i] != fresh->jptr[i];
    for (int e = 0; differ == 0 && e < d->jptr[nc]; e++) {
      differ += d->jcol[e] != fresh->jcol[e];
      for (int r = 0; r < 3; r++) differ += d->Jc[3 * e + r] != fresh->Jc[3 * e + r];
    }
    ENSURE(differ == 0);
    ENSURE(d->jptr[nc] > 0);
    sc_data_free(fresh);
  }
  sc_data_free(d);
  sc_model_free(m);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  srand(3);
  RUN(test_jacobian_matches_point_velocities);
  RUN(test_jacobian_independent_of_history);
  return TEST_END();
}
