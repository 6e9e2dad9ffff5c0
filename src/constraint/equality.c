/* equality: equality constraints as rows of the contact problem.
 *
 * Each constraint is a function g(q) held at zero; its rows are bilateral
 * box rows of core/problem.h (bounds -inf, +inf) with J = dg/dq N(q),
 * so that the row's velocity is vc = dg/dt = J v, and its impulse gamma acts
 * as the generalized impulse J^T gamma.  The law of a row is the compliant
 * law of a contact without its one-sidedness (doc/constraints.md):
 *   gamma = -dt k [g0 + (theta dt + tau_d) vc^theta] = (vhat - vc) / R,
 *   R = max(1 / (dt k theta (theta dt + tau_d)), beta^2 w / (4 pi^2)),
 *   vhat = -g0 / (theta (theta dt + tau_d)) - (1 - theta) / theta vc0,
 * with w = J A^-1 J^T the row's Delassus entry; a rigid constraint (k = inf)
 * takes the near-rigid floor: the stiffest spring the step resolves, of
 * period beta dt (the near-rigid regime of the convex formulation of
 * compliant contact, Castro, Permenter & Han, arXiv 2110.10107, and the
 * same form as Drake's SapHolonomicConstraint).  The integrator writes the
 * law (sc_eq_law below); rows.c dispatches the rows of every kind.
 *
 * Kinds (points p_a, p_b of bodies a, b in world axes; R_x a body's
 * rotation; omega_x its angular velocity; J_x(p) the point's velocity
 * Jacobian, dynamics.c):
 *   connect   g = p_b - p_a                       J = J_b(p_b) - J_a(p_a)
 *   weld      the connect rows and
 *             g = vee(E - E^T) / 2, E = R_b R_rel^T R_a^T, the rotation
 *             from where b should be to where it is (sin of its angle
 *             times its axis);                    J = Jw_b - Jw_a,
 *             exact at E = I, the relation it holds (dE/dt = [omega_b -
 *             omega_a]x E); R_rel = R_a^T R_b at the reference
 *   joint     g = (q1 - r1) - sum_k c_k x^k, x = q2 - r2,
 *                                                J = e_1 - poly'(x) e_2
 *   distance  g = |p_b - p_a| - L,               J = u^T (J_b(p_b) - J_a(p_a)),
 *             u the unit vector from p_a to p_b (L > 0: the loader refuses 0)
 *
 * The gaps are taken at the step start and the Jacobian at the
 * configuration the contacts' Jacobians use (the step's mid configuration
 * under the midpoint rule), as for the contacts (integrator/contact_stage.c). */
#include "constraint/equality.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "constraint/kinds.h"
#include "constraint/rows.h"
#include "dynamics/dynamics.h"
#include "solver_sap/sap.h"
#include "spatial/spatial.h"
#include "state/state.h"

static void world_point(const sc_data* d, int b, const double* local, double p[3]) {
  sc_sp_mat3_vec(p, d->xrot + 9 * b, local);
  for (int k = 0; k < 3; k++) p[k] += d->xpos[3 * b + k];
}

/* the polynomial of a joint coupling at x and its slope */
static double poly(const double* c, double x, double* slope) {
  *slope = c[1] + x * (2.0 * c[2] + x * (3.0 * c[3] + x * 4.0 * c[4]));
  return c[0] + x * (c[1] + x * (c[2] + x * (c[3] + x * c[4])));
}

void sc_eq_reference(const sc_model* m, sc_data* d, double* q, double* v) {
  memcpy(d->eq_ref, m->eq_data, sizeof(double) * SC_EQ_NDATA * (size_t)m->neq);
  int any = 0;
  for (int e = 0; e < m->neq; e++) any |= m->eq_auto[e];
  for (int t = 0; t < m->ntendon; t++) any |= isnan(m->ten_rest[t]);
  if (any) {
    memcpy(q, m->qpos0, sizeof(double) * (size_t)m->nq);
    memcpy(v, m->qvel0, sizeof(double) * (size_t)m->nv);
    sc_state_frame_to_com(m, q, v);
    /* (the kinematics' cache is keyed by q: the next step sees these are
     * not its own) */
    sc_dyn_kinematics(m, d, q);
    for (int e = 0; e < m->neq; e++) {
      if (!m->eq_auto[e] || m->eq_type[e] == SC_EQ_JOINT) continue;
      if (m->eq_type[e] == SC_EQ_TENDON) {
        double* r = d->eq_ref + SC_EQ_NDATA * e;
        const int t1 = m->eq_obj[2 * e], t2 = m->eq_obj[2 * e + 1];
        r[5] = sc_dyn_tendon(m, d, t1, NULL);
        r[6] = t2 >= 0 ? sc_dyn_tendon(m, d, t2, NULL) : 0.0;
        continue;
      }
      double* r = d->eq_ref + SC_EQ_NDATA * e;
      const int a = m->eq_obj[2 * e], b = m->eq_obj[2 * e + 1];
      const double *Ra = d->xrot + 9 * a, *Rb = d->xrot + 9 * b;
      double pa[3], pb[3], t[3];
      world_point(d, a, r, pa);
      if (m->eq_auto[e] & SC_EQ_AUTO_POINT_B) {
        sc_sp_sub3(t, pa, d->xpos + 3 * b);
        sc_sp_mat3_Tvec(r + 3, Rb, t);
      }
      if (m->eq_auto[e] & SC_EQ_AUTO_ROT) sc_sp_mat3_Tmul(r + 6, Ra, Rb);
      if (m->eq_auto[e] & SC_EQ_AUTO_LENGTH) {
        world_point(d, b, r + 3, pb);
        sc_sp_sub3(t, pb, pa);
        r[6] = sc_sp_norm3(t);
      }
    }
    /* a tendon spring's rest length: its length there */
    for (int t = 0; t < m->ntendon; t++)
      d->ten_rest[t] = isnan(m->ten_rest[t]) ? sc_dyn_tendon(m, d, t, NULL) : m->ten_rest[t];
  }
  d->eq_ready = 1;
}

void sc_eq_gaps(const sc_model* m, const sc_data* d, double* g) {
  for (int e = 0; e < m->neq; e++) {
    const double* r = d->eq_ref + SC_EQ_NDATA * e;
    double* ge = g + m->eq_rowadr[e];
    const int a = m->eq_obj[2 * e], b = m->eq_obj[2 * e + 1];
    if (m->eq_type[e] == SC_EQ_JOINT) {
      double slope;
      const double x = b >= 0 ? d->q[m->jnt_qadr[b]] - r[6] : 0.0;
      ge[0] = d->q[m->jnt_qadr[a]] - r[5] - poly(r, x, &slope);
      continue;
    }
    if (m->eq_type[e] == SC_EQ_TENDON) {
      double slope;
      const double x = b >= 0 ? d->ten_length[b] - r[6] : 0.0;
      ge[0] = d->ten_length[a] - r[5] - poly(r, x, &slope);
      continue;
    }
    double pa[3], pb[3], dp[3];
    world_point(d, a, r, pa);
    world_point(d, b, r + 3, pb);
    sc_sp_sub3(dp, pb, pa);
    switch (m->eq_type[e]) {
      case SC_EQ_CONNECT: memcpy(ge, dp, sizeof dp); break;
      case SC_EQ_DISTANCE: ge[0] = sc_sp_norm3(dp) - r[6]; break;
      case SC_EQ_WELD: {
        double T[9], E[9];
        memcpy(ge, dp, sizeof dp);
        sc_sp_mat3_mulT(T, d->xrot + 9 * b, r + 6);   /* R_b R_rel^T */
        sc_sp_mat3_mulT(E, T, d->xrot + 9 * a);       /* ... R_a^T */
        ge[3] = 0.5 * (E[7] - E[5]);
        ge[4] = 0.5 * (E[2] - E[6]);
        ge[5] = 0.5 * (E[3] - E[1]);
        break;
      }
      default: break;
    }
  }
}

double sc_eq_row_velocity(const sc_data* d, int i, const double* v) {
  double s = 0.0;
  for (int q = d->jptr[i]; q < d->jptr[i + 1]; q++) s += d->Jc[3 * (size_t)q + 2] * v[d->jcol[q]];
  return s;
}

/* one more row, entry i = ncon + nrow, whose n columns and values (the
 * third slot of each J triple) are written already from jptr[i] on */
static void add_row(sc_data* d, int row, int n, const double* v0) {
  const int r = d->nrow++, i = d->ncon + r;
  d->row_type[r] = SC_JROW_EQUALITY;
  d->row_ref[r] = row;
  const int q0 = d->jptr[i];
  d->jptr[i + 1] = q0 + n;
  double vc = 0.0;
  for (int q = q0; q < q0 + n; q++) {
    double* J = d->Jc + 3 * (size_t)q;
    J[0] = J[1] = 0.0;
    vc += J[2] * v0[d->jcol[q]];
  }
  d->ckind[i] = SC_ROW_BOX;
  d->mu[i] = 0.0;
  d->phi0[i] = d->eq_gap[row];
  d->vc0[3 * i] = d->vc0[3 * i + 1] = 0.0;
  d->vc0[3 * i + 2] = d->vn0[i] = vc;
}

/* the velocity of world point p per unit v_dof (S.v + S.w x p), exactly 0
 * where the terms cancel to round-off (see contact.c) */
static void point_column(const double* S, const double p[3], double col[3]) {
  double wxp[3];
  sc_sp_cross3(wxp, S, p);
  sc_sp_add3(col, S + 3, wxp);
  const double size = sqrt(sc_sp_dot3(S + 3, S + 3)) + sqrt(sc_sp_dot3(S, S) * sc_sp_dot3(p, p));
  if (sqrt(sc_sp_dot3(col, col)) <= 64.0 * DBL_EPSILON * size) col[0] = col[1] = col[2] = 0.0;
}

void sc_eq_place(const sc_model* m, sc_data* d, const double* v0) {
  int* on_a = d->jmark;
  int* on_b = d->jmark + m->nv;
  /* per column: the point rows' 3 entries, then the rotation rows' 3 */
  double* col = d->jacp;
  for (int e = 0; e < m->neq; e++) {
    const double* r = d->eq_ref + SC_EQ_NDATA * e;
    const int a = m->eq_obj[2 * e], b = m->eq_obj[2 * e + 1], row0 = m->eq_rowadr[e];
    /* the columns, listed at the first row's place (each row copies them) */
    int* cols = d->jcol + d->jptr[d->ncon + d->nrow];
    double* Jv = d->Jc + 3 * (size_t)d->jptr[d->ncon + d->nrow] + 2; /* stride 3 */
    if (m->eq_type[e] == SC_EQ_JOINT) {
      int n = 0;
      cols[n] = m->jnt_vadr[a];
      Jv[3 * n++] = 1.0;
      if (b >= 0) {
        /* the slope where the kinematics are (the Jacobians' configuration) */
        double slope;
        poly(r, d->kin_q[m->jnt_qadr[b]] - r[6], &slope);
        cols[n] = m->jnt_vadr[b];
        Jv[3 * n++] = -slope;
      }
      add_row(d, row0, n, v0);
      continue;
    }
    if (m->eq_type[e] == SC_EQ_TENDON) {
      /* J = J_1 - p'(L2 - r2) J_2 over the dofs either tendon moves */
      double *J1 = d->ten_J, *J2 = d->ten_J2;
      double slope = 0.0;
      if (b >= 0) poly(r, sc_dyn_tendon(m, d, b, J2) - r[6], &slope);
      sc_dyn_tendon(m, d, a, J1);
      int n = 0;
      for (int k = 0; k < m->nv; k++) {
        const double jv = J1[k] - (b >= 0 ? slope * J2[k] : 0.0);
        if (jv == 0.0) continue;
        cols[n] = k;
        Jv[3 * n++] = jv;
      }
      add_row(d, row0, n, v0);
      continue;
    }
    int n = 0;
    for (int x = b; x > 0; x = m->body_parent[x]) {
      const int j = m->body_jnt[x];
      for (int k = 0; k < m->jnt_nv[j]; k++) {
        const int dof = m->jnt_vadr[j] + k;
        on_b[dof] = e;
        cols[n++] = dof;
      }
    }
    for (int x = a; x > 0; x = m->body_parent[x]) {
      const int j = m->body_jnt[x];
      for (int k = 0; k < m->jnt_nv[j]; k++) {
        const int dof = m->jnt_vadr[j] + k;
        on_a[dof] = e;
        if (on_b[dof] != e) cols[n++] = dof;
      }
    }
    double pa[3], pb[3], u[3] = {0.0, 0.0, 0.0};
    world_point(d, a, r, pa);
    world_point(d, b, r + 3, pb);
    for (int x = 0; x < n; x++) {
      const int dof = cols[x];
      const double* S = d->cdof + 6 * dof;
      double* c = col + 6 * x;
      double cb[3] = {0.0, 0.0, 0.0}, ca[3] = {0.0, 0.0, 0.0};
      const int inb = on_b[dof] == e, ina = on_a[dof] == e;
      if (inb) point_column(S, pb, cb);
      if (ina) point_column(S, pa, ca);
      for (int k = 0; k < 3; k++) {
        c[k] = cb[k] - ca[k];
        c[3 + k] = (inb ? S[k] : 0.0) - (ina ? S[k] : 0.0);
      }
    }
    for (int x = 0; x < n; x++) on_a[cols[x]] = on_b[cols[x]] = -1;
    if (m->eq_type[e] == SC_EQ_DISTANCE) {
      sc_sp_sub3(u, pb, pa);
      sc_sp_normalize3(u);
    }
    /* the rows, each with the same columns */
    const int nr = m->eq_nrow[e];
    for (int k = 0; k < nr; k++) {
      const int i = d->ncon + d->nrow;
      int* rc = d->jcol + d->jptr[i];
      double* J = d->Jc + 3 * (size_t)d->jptr[i];
      for (int x = 0; x < n; x++) {
        const double* c = col + 6 * x;
        rc[x] = cols[x]; /* (rc == cols for the first row) */
        /* k < 3: the point's axis k; 3..5: the rotation's */
        J[3 * x + 2] = m->eq_type[e] == SC_EQ_DISTANCE ? sc_sp_dot3(u, c) : c[k];
      }
      add_row(d, row0 + k, n, v0);
    }
  }
}

/* The law of a rigid row is written at theta = 1 by the contacts' rule,
 * also under the midpoint rule, whose positions move with (v0 + v) / 2 and
 * so close only half of the gap the row asks the end velocity to close: a
 * distance pendulum's rod drifts by 2.1e-3 of its length at 10 ms (2.1e-5
 * at 1 ms, second order).  A theta matched to the positions' update does
 * better in smooth motion (0.6: 2.9e-4 at 10 ms; 1/2 rings undamped), but
 * passes an impact's jolt back: a gripper whose mimic finger stops on its
 * limit at 0.9 m/s left it at 3.2 m/s under 0.6, and stays under 1. */


double sc_eq_law(const sc_model* m, sc_data* d, int i, double w, double* R, double* vhat,
                 double* bound) {
  /* a limit's law on both sides; a row no velocity moves (J = 0) has
   * nothing to hold.  Nor has a row whose J is round-off: a weld or connect
   * that repeats what the joints already hold (a weld's rotation about an
   * axis no joint turns) leaves such a row, its w some 30 decades below its
   * siblings' (the same point or rotation, the same units; the rows of a
   * constraint are consecutive), and its law would be 1/w */
  const int ref = d->row_ref[i - d->ncon];
  const int e = m->eqrow_eq[ref];
  const double k = m->eq_k[e], taud = m->eq_taud[e];
  double wmax = 0.0;
  if (m->eq_type[e] == SC_EQ_CONNECT || m->eq_type[e] == SC_EQ_WELD) {
    const int k0 = ref - m->eq_rowadr[e], g0 = k0 - k0 % 3;
    for (int j = g0; j < g0 + 3; j++) wmax = fmax(wmax, 3.0 * d->wdiag[i - k0 + j]);
  }
  R[0] = R[1] = 1.0;
  vhat[0] = vhat[1] = 0.0;
  bound[0] = -INFINITY;
  bound[1] = INFINITY;
  if (!(w > 1e-12 * wmax) || !(w > 0.0)) {
    R[2] = 1.0;
    vhat[2] = 0.0;
    return 0.0;
  }
  return sc_compliant_law(m, d, i, k, taud, w, R, vhat);
}
