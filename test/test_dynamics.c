/* Dynamics: kinematic maps, CRBA vs RNEA, the double pendulum of
 * Tedrake's Underactuated Robotics notes,
 * the skew-symmetry energy identity, spring forces vs their potential. */
#include <stdlib.h>

#include "build_model.h"
#include "dynamics/dynamics.h"
#include "harness.h"
#include "linalg/linalg.h"
#include "state/state.h"

/* the dense nv x nv matrix of packed clique blocks (state.h) */
static void dense_blocks(const sc_model* m, const double* packed, double* out) {
  const int nv = m->nv;
  for (int e = 0; e < nv * nv; e++) out[e] = 0;
  for (int c = 0; c < m->nclique; c++) {
    const int* idx = m->clique_dofs + m->clique_dofadr[c];
    const int n = m->clique_dofnum[c];
    for (int b = 0; b < n; b++)
      for (int a = 0; a < n; a++) out[idx[a] + idx[b] * nv] = packed[m->clique_blkadr[c] + a + b * n];
  }
}

static double urand(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

static void random_state(const sc_model* m, double* q, double* v) {
  for (int i = 0; i < m->nq; i++) q[i] = urand();
  for (int i = 0; i < m->nv; i++) v[i] = urand();
  sc_dyn_normalize_q(m, q);
}

/* world + body1 (given joint, non-trivial origin) + body2 (revolute child) */
static sc_model* two_body(sc_joint_type t) {
  sc_model* m = tb_begin(3, 0, 0, 0);
  double c1[3] = {0.1, -0.2, 0.3}, c2[3] = {0.05, 0.4, -0.1};
  tb_body(m, 1, 0, t, 1.3, c1, 0.2, 0.3, 0.4);
  tb_body(m, 2, 1, SC_JOINT_REVOLUTE, 0.7, c2, 0.05, 0.06, 0.07);
  double p1[3] = {0.3, -0.1, 0.5}, r1[3] = {0.4, -0.3, 1.1};
  double p2[3] = {0.2, 0.1, -0.6}, r2[3] = {-0.2, 0.5, 0.1};
  tb_origin(m, 1, p1, r1);
  tb_origin(m, 2, p2, r2);
  tb_axis(m, 1, 0.3, -0.5, 0.8);
  tb_axis(m, 2, 1, 2, -0.5);
  return tb_finish(m);
}

/* mixed tree: free root, ball, planar, prismatic, revolute, a fixed body */
static sc_model* mixed_tree(void) {
  sc_model* m = tb_begin(7, 0, 0, 0);
  sc_joint_type types[7] = {0, SC_JOINT_FREE, SC_JOINT_BALL, SC_JOINT_PLANAR,
                            SC_JOINT_PRISMATIC, SC_JOINT_REVOLUTE, SC_JOINT_FIXED};
  int parents[7] = {-1, 0, 1, 2, 1, 4, 5};
  for (int b = 1; b < 7; b++) {
    double c[3] = {0.1 * b, -0.05 * b, 0.2}, p[3] = {0.3, 0.1 * b, -0.2}, r[3] = {0.1 * b, -0.2, 0.3};
    tb_body(m, b, parents[b], types[b], 0.5 + 0.3 * b, c, 0.1 + 0.01 * b, 0.2, 0.15 + 0.02 * b);
    tb_origin(m, b, p, r);
    tb_axis(m, b, 0.2, 1, 0.3 * b);
  }
  return tb_finish(m);
}

/* vee of a skew matrix */
static void vee(double w[3], const double S[9]) {
  w[0] = 0.5 * (S[7] - S[5]);
  w[1] = 0.5 * (S[2] - S[6]);
  w[2] = 0.5 * (S[3] - S[1]);
}

/* The spatial velocity from the motion subspaces must equal the time
 * derivative of the body poses along qdot = N(q) v (central differences). */
static void check_velocity_vs_fd(sc_model* m) {
  sc_data* d;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  double q[32], v[32], qd[32], qp[32], qm[32];
  for (int trial = 0; trial < 5; trial++) {
    random_state(m, q, v);
    sc_dyn_kinematics(m, d, q);
    sc_dyn_velocity(m, d, q, v);
    double V[6 * 8];
    memcpy(V, d->cvel, sizeof(double) * 6 * (size_t)m->nbody);
    double eps = 1e-6;
    sc_dyn_qdot(m, q, v, qd);
    for (int i = 0; i < m->nq; i++) qp[i] = q[i] + eps * qd[i], qm[i] = q[i] - eps * qd[i];
    /* no renormalization: the quaternion rate is tangent to the sphere and the
     * O(eps^2) norm error is below the tolerance */
    double Rp[9 * 8], pp[3 * 8], Rm[9 * 8], pm[3 * 8];
    sc_dyn_kinematics(m, d, qp);
    memcpy(Rp, d->xrot, sizeof(double) * 9 * (size_t)m->nbody);
    memcpy(pp, d->xpos, sizeof(double) * 3 * (size_t)m->nbody);
    sc_dyn_kinematics(m, d, qm);
    memcpy(Rm, d->xrot, sizeof(double) * 9 * (size_t)m->nbody);
    memcpy(pm, d->xpos, sizeof(double) * 3 * (size_t)m->nbody);
    sc_dyn_kinematics(m, d, q);
    for (int b = 1; b < m->nbody; b++) {
      double Rdot[9], S[9], w[3], pdot[3], vO[3], wxp[3];
      for (int i = 0; i < 9; i++) Rdot[i] = (Rp[9 * b + i] - Rm[9 * b + i]) / (2 * eps);
      sc_sp_mat3_mulT(S, Rdot, d->xrot + 9 * b);
      vee(w, S);
      for (int i = 0; i < 3; i++) pdot[i] = (pp[3 * b + i] - pm[3 * b + i]) / (2 * eps);
      sc_sp_cross3(wxp, w, d->xpos + 3 * b);
      sc_sp_sub3(vO, pdot, wxp);
      for (int i = 0; i < 3; i++) {
        ENSURE_NEAR(V[6 * b + i], w[i], 1e-7);
        ENSURE_NEAR(V[6 * b + 3 + i], vO[i], 1e-7);
      }
    }
  }
  sc_data_free(d);
}

static void test_kinematic_map_each_joint(void) {
  sc_joint_type types[] = {SC_JOINT_REVOLUTE, SC_JOINT_PRISMATIC, SC_JOINT_PLANAR,
                           SC_JOINT_BALL, SC_JOINT_FREE, SC_JOINT_FIXED};
  for (int i = 0; i < 6; i++) {
    sc_model* m = two_body(types[i]);
    check_velocity_vs_fd(m);
    sc_model_free(m);
  }
  sc_model* m = mixed_tree();
  check_velocity_vs_fd(m);
  sc_model_free(m);
}

/* CRBA against RNEA column by column: M e_k = rne(e_k) - rne(0);
 * M symmetric positive definite. */
static void test_crba_matches_rne_columns(void) {
  sc_model* m = mixed_tree();
  sc_data* d;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  int nv = m->nv;
  double q[64], v[64], e[64], t0[64], tk[64];
  static double M[64 * 64];
  for (int trial = 0; trial < 5; trial++) {
    random_state(m, q, v);
    sc_dyn_kinematics(m, d, q);
    sc_dyn_velocity(m, d, q, v);
    sc_dyn_crba(m, d);
    dense_blocks(m, d->M, M);
    sc_dyn_rne(m, d, NULL, t0);
    for (int k = 0; k < nv; k++) {
      memset(e, 0, sizeof e);
      e[k] = 1;
      sc_dyn_rne(m, d, e, tk);
      for (int i = 0; i < nv; i++) ENSURE_NEAR(M[i + k * nv], tk[i] - t0[i], 1e-12);
    }
    for (int i = 0; i < nv; i++)
      for (int k = 0; k < nv; k++) ENSURE(M[i + k * nv] == M[k + i * nv]);
    double L[64 * 64];
    memcpy(L, M, sizeof(double) * (size_t)(nv * nv));
    ENSURE(sc_la_chol_factor(nv, L, nv) == 0);
  }
  sc_data_free(d);
  sc_model_free(m);
}

/* Free bodies hung on the world with the default origin (a pile's bodies)
 * take a path of the CRBA that leaves out their motion subspace's zeros and
 * ones.  It must give M bit for bit as the general products do (C S_k by
 * sc_sp_mat6_vec, then S_i . F by sc_sp_dot6, in the order of sc_dyn_crba's
 * general loop), here with full inertias, off-centre masses, one body
 * carrying a revolute child (composite inertia != its own) and one free
 * body with a turned joint frame (the general path). */
static void test_crba_free_world_bitwise(void) {
  sc_model* m = tb_begin(7, 0, 0, 0);
  const int parents[7] = {-1, 0, 0, 0, 3, 0, 0};
  const sc_joint_type types[7] = {0, SC_JOINT_FREE, SC_JOINT_FREE, SC_JOINT_FREE,
                                  SC_JOINT_REVOLUTE, SC_JOINT_FREE, SC_JOINT_FREE};
  srand(5);
  for (int b = 1; b < 7; b++) {
    double c[3] = {0.1 * urand(), 0.1 * urand(), 0.1 * urand()};
    tb_body(m, b, parents[b], types[b], 0.5 + 0.1 * b, c, 0.2 + 0.01 * b, 0.25, 0.3);
    double* I = m->body_inertia + 9 * b;
    I[1] = I[3] = 0.01 * urand();
    I[2] = I[6] = 0.01 * urand();
    I[5] = I[7] = 0.01 * urand();
  }
  double p4[3] = {0.2, 0.1, -0.3}, r6[3] = {0.3, -0.2, 0.5};
  tb_origin(m, 4, p4, NULL);
  tb_origin(m, 6, NULL, r6);
  ENSURE(tb_finish(m) != NULL);
  sc_data* d;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  double q[64], v[64];
  int compared = 0;
  for (int trial = 0; trial < 20; trial++) {
    random_state(m, q, v);
    for (int i = 0; i < m->nq; i++) q[i] *= 3.0; /* positions off the origin */
    sc_dyn_normalize_q(m, q);
    sc_dyn_kinematics(m, d, q);
    sc_dyn_crba(m, d);
    for (int b = 1; b < m->nbody; b++) {
      const int j = m->body_jnt[b];
      for (int k = 0; k < m->jnt_nv[j]; k++) {
        const int dof = m->jnt_vadr[j] + k;
        double F[6];
        sc_sp_mat6_vec(F, d->crb + 36 * b, d->cdof + 6 * dof);
        for (int a = b; a > 0; a = m->body_parent[a]) {
          const int ja = m->body_jnt[a];
          for (int i = 0; i < m->jnt_nv[ja]; i++) {
            const int di = m->jnt_vadr[ja] + i;
            if (a == b && di > dof) continue;
            const double ref = sc_sp_dot6(d->cdof + 6 * di, F);
            const int c = m->dof_clique[dof], n = m->clique_dofnum[c];
            const double* Mc = d->M + m->clique_blkadr[c];
            ENSURE(Mc[m->dof_cliqueloc[di] + m->dof_cliqueloc[dof] * n] == ref);
            ENSURE(Mc[m->dof_cliqueloc[dof] + m->dof_cliqueloc[di] * n] == ref);
            compared++;
          }
        }
      }
    }
  }
  printf("  %d entries of M equal to the general products bit for bit\n", compared);
  sc_data_free(d);
  sc_model_free(m);
}

/* Bodies whose joint frame is the world's take shortcuts in the dynamics
 * (identity transforms skipped; a free body's CRBA without its subspace's
 * zeros and ones).  Model A hangs six bodies (free, ball, planar,
 * prismatic, revolute, free) on the world at the default origin, with one
 * shape at its body's origin and one off it; model B is the same behind a
 * massless fixed body at the world's origin, which sends every body down the
 * general path with the same numbers (the fixed body's pose is the identity
 * to the bit).  Poses, motion subspaces, inertias, shape poses, M, the bias
 * forces and the velocities must agree bit for bit (==, so a zero may differ
 * in sign). */
static sc_model* world_frame_model(int behind_fixed) {
  const int off = behind_fixed ? 1 : 0, nb = 7 + off;
  sc_model* m = tb_begin(nb, 2, 0, 0);
  const sc_joint_type types[6] = {SC_JOINT_FREE, SC_JOINT_BALL, SC_JOINT_PLANAR,
                                  SC_JOINT_PRISMATIC, SC_JOINT_REVOLUTE, SC_JOINT_FREE};
  if (behind_fixed) tb_body(m, 1, 0, SC_JOINT_FIXED, 0.0, NULL, 0.0, 0.0, 0.0);
  srand(9);
  for (int k = 0; k < 6; k++) {
    const int b = 1 + off + k;
    double c[3] = {0.1 * urand(), 0.1 * urand(), 0.1 * urand()};
    tb_body(m, b, off, types[k], 0.4 + 0.1 * k, c, 0.2 + 0.01 * k, 0.25, 0.3);
    double* I = m->body_inertia + 9 * b;
    I[1] = I[3] = 0.01 * urand();
    I[5] = I[7] = 0.01 * urand();
    tb_axis(m, b, urand(), urand(), 1.0);
  }
  m->geom_body[0] = 1 + off; /* at its body's origin */
  m->geom_body[1] = 6 + off;
  double gp[3] = {0.05, -0.02, 0.1}, gr[3] = {0.3, 0.2, -0.4};
  memcpy(m->geom_pos + 3, gp, sizeof gp);
  sc_sp_rpy_to_mat3(m->geom_rot + 9, gr);
  return tb_finish(m);
}

static void test_world_frame_shortcuts_bitwise(void) {
  sc_model* ma = world_frame_model(0);
  sc_model* mb = world_frame_model(1);
  ENSURE(ma && mb && ma->nq == mb->nq && ma->nv == mb->nv);
  sc_data *da, *db;
  sc_error err;
  ENSURE(sc_data_create(ma, &da, &err) == SC_OK);
  ENSURE(sc_data_create(mb, &db, &err) == SC_OK);
  const int nv = ma->nv;
  double q[64], v[64], ta[64], tb[64];
  static double Ma[64 * 64], Mb[64 * 64];
  long compared = 0;
  for (int trial = 0; trial < 10; trial++) {
    random_state(ma, q, v);
    for (int i = 0; i < ma->nq; i++) q[i] *= 2.0; /* positions off the origin */
    sc_dyn_normalize_q(ma, q);
    sc_data* ds[2] = {da, db};
    const sc_model* ms[2] = {ma, mb};
    for (int x = 0; x < 2; x++) {
      sc_dyn_kinematics(ms[x], ds[x], q);
      sc_dyn_velocity(ms[x], ds[x], q, v);
      sc_dyn_crba(ms[x], ds[x]);
    }
    sc_dyn_rne(ma, da, NULL, ta);
    sc_dyn_rne(mb, db, NULL, tb);
    for (int b = 1; b < ma->nbody; b++) {
      const int c = b + 1; /* the same body in model B */
      for (int i = 0; i < 9; i++) ENSURE(da->xrot[9 * b + i] == db->xrot[9 * c + i]);
      for (int i = 0; i < 3; i++) ENSURE(da->xpos[3 * b + i] == db->xpos[3 * c + i]);
      for (int i = 0; i < 3; i++) ENSURE(da->xcom[3 * b + i] == db->xcom[3 * c + i]);
      for (int i = 0; i < 36; i++) ENSURE(da->cinert[36 * b + i] == db->cinert[36 * c + i]);
      for (int i = 0; i < 6; i++) ENSURE(da->cvel[6 * b + i] == db->cvel[6 * c + i]);
      for (int i = 0; i < 6; i++) ENSURE(da->cbias[6 * b + i] == db->cbias[6 * c + i]);
      compared += 63;
    }
    for (int i = 0; i < 6 * nv; i++) ENSURE(da->cdof[i] == db->cdof[i]);
    for (int i = 0; i < 9 * ma->ngeom; i++) ENSURE(da->geom_xrot[i] == db->geom_xrot[i]);
    for (int i = 0; i < 3 * ma->ngeom; i++) ENSURE(da->geom_xpos[i] == db->geom_xpos[i]);
    dense_blocks(ma, da->M, Ma);
    dense_blocks(mb, db->M, Mb);
    for (int i = 0; i < nv * nv; i++) ENSURE(Ma[i] == Mb[i]);
    for (int i = 0; i < nv; i++) ENSURE(ta[i] == tb[i]);
    compared += 6 * nv + 12 * ma->ngeom + nv * nv + nv;
  }
  printf("  %ld values equal along both paths\n", compared);
  sc_data_free(da);
  sc_data_free(db);
  sc_model_free(ma);
  sc_model_free(mb);
}

/* Tedrake, Underactuated Robotics, "Manipulator Equation form of the Simple
 * Double Pendulum":
 * point masses m1, m2 on massless links l1, l2, q measured from the
 * downward vertical; rne(q, v, 0) = C(q,v) v - tau_g(q). */
static sc_model* double_pendulum(double m1, double m2, double l1, double l2) {
  sc_model* m = tb_begin(3, 0, 0, 0);
  double c1[3] = {0, 0, -l1}, c2[3] = {0, 0, -l2}, o2[3] = {0, 0, -l1};
  tb_body(m, 1, 0, SC_JOINT_REVOLUTE, m1, c1, 0, 0, 0);
  tb_body(m, 2, 1, SC_JOINT_REVOLUTE, m2, c2, 0, 0, 0);
  tb_origin(m, 2, o2, NULL);
  /* rotation about -y takes the downward (0, 0, -1) to (sin q, 0, -cos q) */
  tb_axis(m, 1, 0, -1, 0);
  tb_axis(m, 2, 0, -1, 0);
  return tb_finish(m);
}

static void test_double_pendulum_matches_seed(void) {
  double m1 = 1.3, m2 = 0.7, l1 = 1.1, l2 = 0.8, g = 9.81;
  sc_model* m = double_pendulum(m1, m2, l1, l2);
  sc_data* d;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  double q[2], v[2], bias[2], e[2], tk[2];
  for (int trial = 0; trial < 20; trial++) {
    q[0] = 3 * urand(), q[1] = 3 * urand(), v[0] = 2 * urand(), v[1] = 2 * urand();
    sc_dyn_kinematics(m, d, q);
    sc_dyn_velocity(m, d, q, v);
    sc_dyn_crba(m, d);
    double s1 = sin(q[0]), s2 = sin(q[1]), c2 = cos(q[1]), s12 = sin(q[0] + q[1]);
    double M11 = (m1 + m2) * l1 * l1 + m2 * l2 * l2 + 2 * m2 * l1 * l2 * c2;
    double M12 = m2 * l2 * l2 + m2 * l1 * l2 * c2, M22 = m2 * l2 * l2;
    double M[4];
    dense_blocks(m, d->M, M);
    ENSURE_NEAR(M[0], M11, 1e-12);
    ENSURE_NEAR(M[2], M12, 1e-12);
    ENSURE_NEAR(M[1], M12, 1e-12);
    ENSURE_NEAR(M[3], M22, 1e-12);
    double Cv1 = -m2 * l1 * l2 * (2 * v[0] + v[1]) * v[1] * s2;
    double Cv2 = m2 * l1 * l2 * v[0] * v[0] * s2;
    double tg1 = -g * ((m1 + m2) * l1 * s1 + m2 * l2 * s12), tg2 = -g * m2 * l2 * s12;
    sc_dyn_rne(m, d, NULL, bias);
    ENSURE_NEAR(bias[0], Cv1 - tg1, 1e-12);
    ENSURE_NEAR(bias[1], Cv2 - tg2, 1e-12);
    /* and with an acceleration: rne = M a + C v - tau_g */
    e[0] = urand(), e[1] = urand();
    sc_dyn_rne(m, d, e, tk);
    ENSURE_NEAR(tk[0], M11 * e[0] + M12 * e[1] + Cv1 - tg1, 1e-12);
    ENSURE_NEAR(tk[1], M12 * e[0] + M22 * e[1] + Cv2 - tg2, 1e-12);
  }
  sc_data_free(d);
  sc_model_free(m);
}

/* Without gravity, T = 1/2 v^T M v is constant along the true motion:
 * with vdot = -M^-1 C v, dT/dt = -v^T C v + 1/2 v^T Mdot v = 0.  Mdot along
 * qdot = N v by central differences; this checks RNEA's velocity terms
 * against CRBA independently of any closed form. */
static void test_energy_rate_identity(void) {
  sc_model* m = mixed_tree();
  m->opt.gravity[2] = 0;
  sc_data* d;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  int nv = m->nv;
  double q[64], v[64], qd[64], qp[64], Cv[64], Mp[64 * 64], Mm[64 * 64];
  for (int trial = 0; trial < 5; trial++) {
    random_state(m, q, v);
    double eps = 1e-6;
    sc_dyn_qdot(m, q, v, qd);
    for (int i = 0; i < m->nq; i++) qp[i] = q[i] + eps * qd[i];
    sc_dyn_kinematics(m, d, qp);
    sc_dyn_crba(m, d);
    dense_blocks(m, d->M, Mp);
    for (int i = 0; i < m->nq; i++) qp[i] = q[i] - eps * qd[i];
    sc_dyn_kinematics(m, d, qp);
    sc_dyn_crba(m, d);
    dense_blocks(m, d->M, Mm);
    sc_dyn_kinematics(m, d, q);
    sc_dyn_velocity(m, d, q, v);
    sc_dyn_rne(m, d, NULL, Cv);
    double vCv = 0, vMdv = 0;
    for (int i = 0; i < nv; i++) {
      vCv += v[i] * Cv[i];
      for (int k = 0; k < nv; k++) vMdv += v[i] * (Mp[i + k * nv] - Mm[i + k * nv]) / (2 * eps) * v[k];
    }
    ENSURE_NEAR(vCv, 0.5 * vMdv, 1e-7);
  }
  sc_data_free(d);
  sc_model_free(m);
}

/* Spring generalized forces are minus the gradient of the spring energy:
 * f . v = -dU/dt along qdot = N v (no damping), and the damper force does
 * negative work c ldot^2. */
static void test_spring_forces_match_potential(void) {
  sc_model* m = tb_begin(4, 0, 1, 2);
  double c[3] = {0.1, 0, 0};
  tb_body(m, 1, 0, SC_JOINT_FREE, 1.0, c, 0.1, 0.2, 0.3);
  tb_body(m, 2, 1, SC_JOINT_REVOLUTE, 0.5, c, 0.1, 0.1, 0.1);
  tb_body(m, 3, 0, SC_JOINT_PLANAR, 0.8, c, 0.1, 0.1, 0.1);
  m->jspring_jnt[0] = 2;   /* the planar joint */
  m->jspring_local[0] = 2; /* theta */
  m->jspring_k[0] = 3.0;
  m->jspring_rest[0] = 0.2;
  m->lspring_body[0] = 0, m->lspring_body[1] = 2;
  m->lspring_body[2] = 1, m->lspring_body[3] = 3;
  double pts[12] = {0.1, 0.2, 0.3, 0.3, -0.1, 0.2, 0.0, 0.1, 0.0, 0.2, 0.0, -0.1};
  memcpy(m->lspring_point, pts, sizeof pts);
  m->lspring_k[0] = 50, m->lspring_rest[0] = 0.3;
  m->lspring_k[1] = 20, m->lspring_rest[1] = 1.5;
  tb_finish(m);
  sc_data* d;
  sc_error err;
  ENSURE(sc_data_create(m, &d, &err) == SC_OK);
  double q[32], v[32], qd[32], qp[32], zero[32] = {0};
  for (int trial = 0; trial < 10; trial++) {
    random_state(m, q, v);
    double eps = 1e-6;
    sc_dyn_qdot(m, q, v, qd);
    for (int i = 0; i < m->nq; i++) qp[i] = q[i] + eps * qd[i];
    sc_dyn_kinematics(m, d, qp);
    sc_dyn_velocity(m, d, qp, zero);
    double Up = sc_dyn_springs(m, d, qp, zero, NULL, NULL);
    for (int i = 0; i < m->nq; i++) qp[i] = q[i] - eps * qd[i];
    sc_dyn_kinematics(m, d, qp);
    sc_dyn_velocity(m, d, qp, zero);
    double Um = sc_dyn_springs(m, d, qp, zero, NULL, NULL);
    sc_dyn_kinematics(m, d, q);
    sc_dyn_velocity(m, d, q, zero);
    sc_dyn_springs(m, d, q, zero, NULL, NULL);
    ENSURE_NEAR(sc_la_dot(m->nv, d->fspring, v), -(Up - Um) / (2 * eps), 1e-6);
  }
  sc_data_free(d);
  sc_model_free(m);
}

int main(int argc, char** argv) {
  TEST_BEGIN(argc, argv);
  srand(7);
  RUN(test_kinematic_map_each_joint);
  RUN(test_crba_matches_rne_columns);
  RUN(test_crba_free_world_bitwise);
  RUN(test_world_frame_shortcuts_bitwise);
  RUN(test_double_pendulum_matches_seed);
  RUN(test_energy_rate_identity);
  RUN(test_spring_forces_match_potential);
  return TEST_END();
}
