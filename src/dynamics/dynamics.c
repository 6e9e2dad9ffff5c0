/* dynamics: tree kinematics, CRBA, RNEA, springs and energies.
 *
 * Everything is in world-frame Plücker coordinates about the world origin
 * (Featherstone, "Rigid Body Dynamics Algorithms" (RBDA), §2 and §5-6, in
 * their absolute-coordinate form).  For joint j connecting parent p to child b,
 * with J placed in p by (R_pJ, p_pJ) and the child pose in J given by q:
 *
 *   V_b = V_p + S_b qdot_b,          S_b = X_wJ S_J(q)               (1)
 *   A_b = A_p + S_b vdot_b + c_b,    c_b = V_p x_m (S_b v_b) + X_wJ (dS_J/dt v_b)
 *
 * where S_J is the joint's motion subspace in J about J's origin (RBDA
 * table 4.1, with the joint coordinates of doc/scenes.md):
 *   revolute  [a; 0]          prismatic [0; a]
 *   planar    [0; ex], [0; ey], [ez; p x ez]        (p = child origin in J)
 *   ball      [e_k; 0]
 *   free      [0; e_k] (linear), [e_k; p x e_k] (angular)   (p = the child's
 *             centre of mass in J: a free joint's coordinates, free_com below)
 * and dS_J/dt v is [0; pdot x ez] theta_dot (planar), [0; v_lin x w] (free).
 *
 * Mass matrix (CRBA, RBDA §6.2): I^c_b = I_b + sum over children I^c;
 *   M_ij = S_i . (I^c_b(j) S_j) for dof i on the path from b(j) to the root.
 * Bias forces (RNEA, RBDA §5.3) with A_0 = -[0; g] to include gravity:
 *   f_b = I_b A_b + V_b x_f (I_b V_b),   f_p += f_b,   tau_i = S_i . f_b(i).
 * Kinetic energy T = sum_b 1/2 V_b . I_b V_b + sum_i 1/2 a_i v_i^2 (a_i the
 * armature of dof i, added to M_ii); gravity U = -sum_b m_b g . c_b.
 * Joint damping is a damper -c_i v_i on each dof (with the springs).
 * Fluid forces (MuJoCo's inertia-box model, "Fluid forces" of MuJoCo's
 * computation chapter; the constants checked against MuJoCo 2.2.2's
 * qfrc_passive by test/test_mjcf.c): body b of mass M > 0 is its
 * equivalent inertia box, half-sizes r_i = sqrt(3/(2M) (I_j + I_k - I_i))
 * along its principal axes (model.c, fluid_boxes).  With u and w the
 * velocity of its centre of mass relative to the wind and its angular
 * velocity, both on those axes, the medium (density rho, viscosity beta)
 * exerts at the centre of mass, per axis i (j, k the other two),
 *   f_i = -2 rho r_j r_k |u_i| u_i            - 6 pi beta r_eq u_i
 *   g_i = -1/2 rho r_i (r_j^4 + r_k^4) |w_i| w_i - 8 pi beta r_eq^3 w_i,
 * r_eq = (r_x + r_y + r_z) / 3: quadratic drag on the box's faces and the
 * Stokes force and torque of the sphere of radius r_eq.  The generalized
 * force is S . [g + c x f; f] over the dofs on the path to the root
 * (the spatial force about the world origin, as RNEA's).
 * Tendon lengths L(q) and rows dL/dq (doc/constraints.md): fixed
 * sum c_k q_k; spatial sum |P_k+1 - P_k|; slider-crank a.v - sqrt(det)
 * (slider_crank below).
 * Kinematic map (doc/step.md, "State"): qdot = v except quaternions,
 *   qdot_quat = 1/2 [0; w] (x) q   (w expressed in J, q the child in J). */
#include "dynamics/dynamics.h"

#include <math.h>
#include <string.h>

#include "linalg/linalg.h"

#define MJ_PI_D 3.14159265358979323846

/* motion subspace of joint j in J coordinates: S (6 x nv, row-major per
 * column: S[6k..6k+5] is column k) */
static void joint_subspace(const sc_model* m, int j, const double* qj, double* S) {
  const double* a = m->jnt_axis + 3 * j;
  switch (m->jnt_type[j]) {
    case SC_JOINT_FIXED: break;
    case SC_JOINT_REVOLUTE:
      memset(S, 0, 6 * sizeof(double));
      memcpy(S, a, 3 * sizeof(double));
      break;
    case SC_JOINT_PRISMATIC:
      memset(S, 0, 6 * sizeof(double));
      memcpy(S + 3, a, 3 * sizeof(double));
      break;
    case SC_JOINT_PLANAR: {
      memset(S, 0, 18 * sizeof(double));
      S[3] = 1;          /* column 0: [0; ex] */
      S[6 + 4] = 1;      /* column 1: [0; ey] */
      S[12 + 2] = 1;     /* column 2: [ez; p x ez] with p = (x, y, 0) */
      S[12 + 3] = qj[1];
      S[12 + 4] = -qj[0];
      break;
    }
    case SC_JOINT_BALL:
      memset(S, 0, 18 * sizeof(double));
      for (int k = 0; k < 3; k++) S[6 * k + k] = 1;
      break;
    case SC_JOINT_FREE: {
      memset(S, 0, 36 * sizeof(double));
      const double* p = qj;
      for (int k = 0; k < 3; k++) {
        S[6 * k + 3 + k] = 1;  /* linear */
        double e[3] = {0, 0, 0}, pxe[3];
        e[k] = 1;
        sc_sp_cross3(pxe, p, e);
        S[6 * (3 + k) + k] = 1;
        memcpy(S + 6 * (3 + k) + 3, pxe, 3 * sizeof(double));
      }
      break;
    }
  }
}

/* dS_J/dt v of joint j at its velocities vj, into c (6; zero for the
 * joints whose S_J is constant).  Apart from joint_subspace because
 * sc_dyn_velocity needs only this: S in world is d->cdof. */
static void joint_bias(const sc_model* m, int j, const double* vj, double c[6]) {
  memset(c, 0, 6 * sizeof(double));
  switch (m->jnt_type[j]) {
    case SC_JOINT_PLANAR: /* d/dt (p x ez) theta_dot = (vy, -vx, 0) theta_dot */
      c[3] = vj[1] * vj[2];
      c[4] = -vj[0] * vj[2];
      break;
    case SC_JOINT_FREE: sc_sp_cross3(c + 3, vj, vj + 3); /* v_lin x w */ break;
    default: break;
  }
}

/* A free joint's coordinates are those of its child's centre of mass s
 * (body frame): position p_c of the centre in J and its velocity, with the
 * child's orientation and angular velocity in J, so the frame origin is
 * p_c - R s.  In these coordinates the mass matrix's rows of the linear
 * velocity are [m I, 0] in every pose, and the step's discrete momentum
 * balance conserves the body's linear momentum exactly whenever the forces
 * on it sum to zero (about the frame origin they would couple to the
 * rotation through m w x R s, which the theta-method evaluates at q^theta
 * and so conserves only to first order in dt across an impact).  Files and
 * the command line keep the frame origin (sc_state_com_to_frame).  A body
 * whose centre is its origin has the same coordinates either way, to the
 * bit. */
static inline int free_com(const double s[3]) { return s[0] != 0.0 || s[1] != 0.0 || s[2] != 0.0; }

/* child pose in J from the joint coordinates */
static void joint_transform(const sc_model* m, int j, const double* qj, sc_xform* X) {
  sc_sp_xform_identity(X);
  const double* a = m->jnt_axis + 3 * j;
  switch (m->jnt_type[j]) {
    case SC_JOINT_FIXED: break;
    case SC_JOINT_REVOLUTE: sc_sp_axis_angle_to_mat3(X->R, a, qj[0]); break;
    case SC_JOINT_PRISMATIC: sc_sp_scale3(X->p, a, qj[0]); break;
    case SC_JOINT_PLANAR: {
      double ez[3] = {0, 0, 1};
      sc_sp_axis_angle_to_mat3(X->R, ez, qj[2]);
      X->p[0] = qj[0];
      X->p[1] = qj[1];
      break;
    }
    case SC_JOINT_BALL: sc_sp_quat_to_mat3(X->R, qj); break;
    case SC_JOINT_FREE: {
      /* qj[0..2] is the child's centre of mass in J (free_com below) */
      memcpy(X->p, qj, 3 * sizeof(double));
      sc_sp_quat_to_mat3(X->R, qj + 3);
      const double* s = m->jnt_com + 3 * j;
      if (free_com(s)) {
        double Rs[3];
        sc_sp_mat3_vec(Rs, X->R, s);
        for (int k = 0; k < 3; k++) X->p[k] -= Rs[k];
      }
      break;
    }
  }
}

/* The kinematics skip a transform that is exactly the identity
 * (sc_sp_xform_is_identity: a joint frame at the default origin, a shape at
 * its body's origin; the bodies of a pile hang on the world this way).
 * Composing with it, or moving a motion vector through it, multiplies by
 * ones and adds products with zeros, which leaves every non-zero value as it
 * is to the bit (a zero may come out with the other sign, which nothing
 * downstream divides by). */
void sc_dyn_kinematics(const sc_model* m, sc_data* d, const double* q) {
  sc_sp_mat3_identity(d->xrot);
  memset(d->xpos, 0, 3 * sizeof(double));
  memset(d->xcom, 0, 3 * sizeof(double));
  memset(d->cinert, 0, 36 * sizeof(double));
  for (int b = 1; b < m->nbody; b++) {
    int p = m->body_parent[b], j = m->body_jnt[b];
    sc_xform Xwp, XpJ, XwJ, XJb, Xwb;
    /* J is the world frame: a joint on the world at the default origin */
    const int world_j = p == 0 && m->jnt_frame_id[j];
    const double* qj = q + m->jnt_qadr[j];
    joint_transform(m, j, qj, &XJb);
    if (world_j) {
      sc_sp_xform_identity(&XwJ);
      Xwb = XJb;
    } else {
      /* X_wJ = X_wp X_pJ, either of them the identity: a joint on the
       * world, or at its parent's origin (an imported body's second and
       * later joints, a weld); X_wb = X_wJ X_Jb, X_Jb the identity for a
       * weld */
      if (p == 0) {
        memcpy(XwJ.R, m->jnt_rot + 9 * j, sizeof XwJ.R);
        memcpy(XwJ.p, m->jnt_pos + 3 * j, sizeof XwJ.p);
      } else if (m->jnt_frame_id[j]) {
        memcpy(XwJ.R, d->xrot + 9 * p, sizeof XwJ.R);
        memcpy(XwJ.p, d->xpos + 3 * p, sizeof XwJ.p);
      } else {
        memcpy(Xwp.R, d->xrot + 9 * p, sizeof Xwp.R);
        memcpy(Xwp.p, d->xpos + 3 * p, sizeof Xwp.p);
        memcpy(XpJ.R, m->jnt_rot + 9 * j, sizeof XpJ.R);
        memcpy(XpJ.p, m->jnt_pos + 3 * j, sizeof XpJ.p);
        sc_sp_xform_compose(&XwJ, &Xwp, &XpJ);
      }
      if (m->jnt_type[j] == SC_JOINT_FIXED) Xwb = XwJ;
      else sc_sp_xform_compose(&Xwb, &XwJ, &XJb);
    }
    memcpy(d->jxrot + 9 * j, XwJ.R, sizeof XwJ.R);
    memcpy(d->jxpos + 3 * j, XwJ.p, sizeof XwJ.p);
    memcpy(d->xrot + 9 * b, Xwb.R, sizeof Xwb.R);
    memcpy(d->xpos + 3 * b, Xwb.p, sizeof Xwb.p);

    /* world c.o.m. and rotational inertia, then the spatial inertia; a
     * massless body (a link between the joints of an imported body) has
     * zero inertia by construction: its products would be zeros */
    double c[3], Ic[9], T[9];
    if (m->jnt_type[j] == SC_JOINT_FREE && free_com(m->jnt_com + 3 * j) &&
        memcmp(m->jnt_com + 3 * j, m->body_com + 3 * b, 3 * sizeof(double)) == 0) {
      /* the body's centre is the joint's coordinates: taken as they are, not
       * through (p_c - R s) + R s, so that the mass matrix's coupling of
       * linear and angular velocity is zero to the bit */
      if (world_j) memcpy(c, qj, sizeof c);
      else sc_sp_xform_point(c, &XwJ, qj);
    } else sc_sp_xform_point(c, &Xwb, m->body_com + 3 * b);
    memcpy(d->xcom + 3 * b, c, sizeof c);
    if (m->body_mass[b] == 0.0) memset(d->cinert + 36 * b, 0, 36 * sizeof(double));
    else {
      sc_sp_mat3_mul(T, Xwb.R, m->body_inertia + 9 * b);
      sc_sp_mat3_mulT(Ic, T, Xwb.R);
      sc_sp_inertia(d->cinert + 36 * b, m->body_mass[b], c, Ic);
    }

    /* motion subspace in world */
    int nv = m->jnt_nv[j], va = m->jnt_vadr[j];
    double S[36];
    joint_subspace(m, j, qj, S);
    if (world_j) memcpy(d->cdof + 6 * va, S, sizeof(double) * 6 * (size_t)nv);
    else
      for (int k = 0; k < nv; k++) sc_sp_xform_motion(d->cdof + 6 * (va + k), &XwJ, S + 6 * k);
  }
  for (int g = 0; g < m->ngeom; g++) {
    int b = m->geom_body[g];
    if (m->geom_frame_id[g]) {
      memcpy(d->geom_xrot + 9 * g, d->xrot + 9 * b, 9 * sizeof(double));
      memcpy(d->geom_xpos + 3 * g, d->xpos + 3 * b, 3 * sizeof(double));
      continue;
    }
    sc_xform Xwb, Xbg, Xwg;
    memcpy(Xwb.R, d->xrot + 9 * b, sizeof Xwb.R);
    memcpy(Xwb.p, d->xpos + 3 * b, sizeof Xwb.p);
    memcpy(Xbg.R, m->geom_rot + 9 * g, sizeof Xbg.R);
    memcpy(Xbg.p, m->geom_pos + 3 * g, sizeof Xbg.p);
    sc_sp_xform_compose(&Xwg, &Xwb, &Xbg);
    memcpy(d->geom_xrot + 9 * g, Xwg.R, sizeof Xwg.R);
    memcpy(d->geom_xpos + 3 * g, Xwg.p, sizeof Xwg.p);
  }
  if (q != d->kin_q) memcpy(d->kin_q, q, sizeof(double) * (size_t)m->nq);
  d->kin_valid = 1;
}

int sc_dyn_kinematics_current(const sc_model* m, const sc_data* d, const double* q) {
  /* the poses are a function of q and the (immutable) model only */
  return d->kin_valid && memcmp(d->kin_q, q, sizeof(double) * (size_t)m->nq) == 0;
}

void sc_dyn_velocity(const sc_model* m, sc_data* d, const double* q, const double* v) {
  (void)q; /* the poses of q are those sc_dyn_kinematics left in d (cdof, jxrot) */
  memset(d->cvel, 0, 6 * sizeof(double));
  memset(d->cbias, 0, 6 * sizeof(double));
  for (int b = 1; b < m->nbody; b++) {
    int p = m->body_parent[b], j = m->body_jnt[b];
    int nv = m->jnt_nv[j], va = m->jnt_vadr[j];
    double* V = d->cvel + 6 * b;
    double* c = d->cbias + 6 * b;
    memcpy(V, d->cvel + 6 * p, 6 * sizeof(double));
    memset(c, 0, 6 * sizeof(double));
    if (nv == 0) continue;
    const double* vj = v + va;
    double cJ[6], Sv[6] = {0, 0, 0, 0, 0, 0};
    joint_bias(m, j, vj, cJ);
    for (int k = 0; k < nv; k++)
      for (int r = 0; r < 6; r++) Sv[r] += d->cdof[6 * (va + k) + r] * vj[k];
    for (int r = 0; r < 6; r++) V[r] += Sv[r];
    /* c_b = V_p x_m (S v) + X_wJ (dS_J/dt v); on the world (V_p = 0) at the
     * default origin (X_wJ the identity) that is dS_J/dt v itself, to the bit
     * but for the sign of a zero (see sc_dyn_kinematics) */
    if (p == 0 && m->jnt_frame_id[j]) {
      memcpy(c, cJ, sizeof cJ);
      continue;
    }
    sc_xform XwJ;
    memcpy(XwJ.R, d->jxrot + 9 * j, sizeof XwJ.R);
    memcpy(XwJ.p, d->jxpos + 3 * j, sizeof XwJ.p);
    double cw[6];
    sc_sp_cross_motion(c, d->cvel + 6 * p, Sv);
    sc_sp_xform_motion(cw, &XwJ, cJ);
    for (int r = 0; r < 6; r++) c[r] += cw[r];
  }
}

void sc_dyn_rne(const sc_model* m, sc_data* d, const double* qacc, double* tau) {
  double* A = d->cacc;
  double* F = d->cfrc;
  /* gravity as a fictitious base acceleration (RBDA §5.3) */
  A[0] = A[1] = A[2] = 0;
  A[3] = -m->opt.gravity[0];
  A[4] = -m->opt.gravity[1];
  A[5] = -m->opt.gravity[2];
  memset(F, 0, 6 * sizeof(double));
  for (int b = 1; b < m->nbody; b++) {
    int p = m->body_parent[b], j = m->body_jnt[b];
    double* Ab = A + 6 * b;
    for (int r = 0; r < 6; r++) Ab[r] = A[6 * p + r] + d->cbias[6 * b + r];
    if (qacc)
      for (int k = 0; k < m->jnt_nv[j]; k++) {
        int dof = m->jnt_vadr[j] + k;
        for (int r = 0; r < 6; r++) Ab[r] += d->cdof[6 * dof + r] * qacc[dof];
      }
    if (m->body_mass[b] == 0.0) { /* zero inertia (see sc_dyn_kinematics): no force of its own */
      memset(F + 6 * b, 0, 6 * sizeof(double));
      continue;
    }
    const double* I = d->cinert + 36 * b;
    const double* V = d->cvel + 6 * b;
    double IA[6], IV[6], VxIV[6];
    sc_sp_mat6_vec(IA, I, Ab);
    sc_sp_mat6_vec(IV, I, V);
    sc_sp_cross_force(VxIV, V, IV);
    for (int r = 0; r < 6; r++) F[6 * b + r] = IA[r] + VxIV[r];
  }
  for (int b = m->nbody - 1; b > 0; b--) {
    int p = m->body_parent[b], j = m->body_jnt[b];
    for (int k = 0; k < m->jnt_nv[j]; k++) {
      int dof = m->jnt_vadr[j] + k;
      tau[dof] = sc_sp_dot6(d->cdof + 6 * dof, F + 6 * b);
    }
    for (int r = 0; r < 6; r++) F[6 * p + r] += F[6 * b + r];
  }
}

/* entry (i, j) of a packed block-diagonal matrix; i and j in one clique */
static size_t blk_entry(const sc_model* m, int i, int j) {
  const int c = m->dof_clique[i];
  return (size_t)m->clique_blkadr[c] + (size_t)m->dof_cliqueloc[i] +
         (size_t)m->dof_cliqueloc[j] * (size_t)m->clique_dofnum[c];
}

/* A free joint whose frame J is the world's (a free body hung on the world
 * with the default origin, the bodies of a pile): its world motion subspace
 * S = cdof + 6 v0 is then, column by column, linear k = (0, e_k) and angular
 * k = (e_k, w_k) with w_k = p x e_k, whose k-th entry is zero.  Tested on the
 * values themselves, so any other frame takes the general path. */
static int free_world_subspace(const double S[36]) {
  for (int k = 0; k < 3; k++) {
    const double *L = S + 6 * k, *W = S + 6 * (3 + k);
    for (int r = 0; r < 3; r++)
      if (L[r] != 0.0 || L[3 + r] != (r == k ? 1.0 : 0.0) || W[r] != (r == k ? 1.0 : 0.0))
        return 0;
    if (W[3 + k] != 0.0) return 0;
  }
  return 1;
}

/* The 6 x 6 block of M of such a body from its composite inertia C
 * (row-major): the products of the general path below, C S_k and S_i . F,
 * with S's zeros and ones left out.  Each sum there starts at +0 and adds
 * its terms in ascending index; leaving out a term that is a product with
 * an exact zero, or a factor that is exactly one, keeps every non-zero sum
 * the same to the bit (a zero may change sign, which nothing downstream
 * divides by).  About 80 multiply-adds instead of 342. */
static void crba_free_world(const double C[36], const double S[36], const int* loc, int v0,
                            double* Mc, int n) {
  double F[6][6]; /* F[k] = C S_k */
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 6; i++) F[k][i] = 0.0 + C[6 * i + 3 + k];
  for (int k = 0; k < 3; k++) {
    const double* w = S + 6 * (3 + k) + 3;
    const int a = k == 0 ? 1 : 0, b = k == 2 ? 1 : 2; /* the entries of w_k besides k */
    for (int i = 0; i < 6; i++)
      F[3 + k][i] = (0.0 + C[6 * i + k]) + C[6 * i + 3 + a] * w[a] + C[6 * i + 3 + b] * w[b];
  }
  for (int k = 0; k < 6; k++) {
    const size_t lk = (size_t)loc[v0 + k];
    const double* f = F[k];
    for (int i = 0; i <= k; i++) {
      double Mij;
      if (i < 3) Mij = 0.0 + f[3 + i];
      else {
        const int c = i - 3, a = c == 0 ? 1 : 0, b = c == 2 ? 1 : 2;
        const double* w = S + 6 * i + 3;
        Mij = (0.0 + f[c]) + w[a] * f[3 + a] + w[b] * f[3 + b];
      }
      const size_t li = (size_t)loc[v0 + i];
      Mc[li + lk * (size_t)n] = Mij;
      Mc[lk + li * (size_t)n] = Mij;
    }
  }
}

void sc_dyn_crba(const sc_model* m, sc_data* d) {
  memcpy(d->crb, d->cinert, sizeof(double) * 36 * (size_t)m->nbody);
  for (int b = m->nbody - 1; b > 0; b--) {
    int p = m->body_parent[b];
    if (p > 0)
      for (int r = 0; r < 36; r++) d->crb[36 * p + r] += d->crb[36 * b + r];
  }
  /* M is block diagonal over cliques and stored as those blocks */
  memset(d->M, 0, sizeof(double) * (size_t)m->nblk);
  for (int b = 1; b < m->nbody; b++) {
    int j = m->body_jnt[b];
    if (m->jnt_nv[j] == 0) continue;
    /* b and its ancestors are one tree, hence in one clique: its block */
    const int cq = m->dof_clique[m->jnt_vadr[j]], n = m->clique_dofnum[cq];
    double* Mc = d->M + m->clique_blkadr[cq];
    const int* loc = m->dof_cliqueloc;
    if (m->jnt_type[j] == SC_JOINT_FREE && m->body_parent[b] == 0 &&
        free_world_subspace(d->cdof + 6 * m->jnt_vadr[j])) {
      crba_free_world(d->crb + 36 * b, d->cdof + 6 * m->jnt_vadr[j], loc, m->jnt_vadr[j], Mc, n);
      continue;
    }
    for (int k = 0; k < m->jnt_nv[j]; k++) {
      int dof = m->jnt_vadr[j] + k;
      const size_t lk = (size_t)loc[dof];
      double F[6];
      sc_sp_mat6_vec(F, d->crb + 36 * b, d->cdof + 6 * dof);
      /* walk up the tree: every dof of b and its ancestors couples with F */
      for (int a = b; a > 0; a = m->body_parent[a]) {
        int ja = m->body_jnt[a];
        for (int i = 0; i < m->jnt_nv[ja]; i++) {
          int di = m->jnt_vadr[ja] + i;
          if (a == b && di > dof) continue;
          const size_t li = (size_t)loc[di];
          double Mij = sc_sp_dot6(d->cdof + 6 * di, F);
          Mc[li + lk * (size_t)n] = Mij;
          Mc[lk + li * (size_t)n] = Mij;
        }
      }
    }
  }  /* armature: the rotor inertia reflected through a gearbox adds to the
   * dof's own diagonal only (it turns with the joint, not with the body) */
  for (int i = 0; m->any_armature && i < m->nv; i++)
    if (m->dof_armature[i] != 0.0) {
      const size_t li = (size_t)m->dof_cliqueloc[i];
      d->M[m->clique_blkadr[m->dof_clique[i]] + li * ((size_t)m->clique_dofnum[m->dof_clique[i]] + 1)] +=
          m->dof_armature[i];
    }
}

int sc_dyn_applied(const sc_model* m, const sc_data* d, double* f) {
  int any = 0;
  for (int i = 0; i < m->nv; i++) {
    f[i] = d->qfrc_applied[i];
    any |= f[i] != 0.0;
  }
  /* qfrc_applied is in the file's coordinates, where a free joint's torque
   * is about its frame origin o; the step's are about the centre c = o + r,
   * r = R s: T_c = T_o - r x F (the same power at v_o = v_c - w x r) */
  for (int j = 0; any && j < m->njnt; j++) {
    const double* s = m->jnt_com + 3 * j;
    if (m->jnt_type[j] != SC_JOINT_FREE || (s[0] == 0.0 && s[1] == 0.0 && s[2] == 0.0)) continue;
    double r[3], rxf[3];
    sc_sp_mat3_vec(r, d->xrot + 9 * m->jnt_body[j], s);
    double* fj = f + m->jnt_vadr[j];
    sc_sp_cross3(rxf, r, fj);
    for (int k = 0; k < 3; k++) fj[3 + k] -= rxf[k];
  }
  for (int b = 1; b < m->nbody; b++) {
    const double* w = d->xfrc_applied + 6 * b;
    if (w[0] == 0.0 && w[1] == 0.0 && w[2] == 0.0 && w[3] == 0.0 && w[4] == 0.0 && w[5] == 0.0)
      continue;
    any = 1;
    const double* c = d->xcom + 3 * b;
    for (int a = b; a > 0; a = m->body_parent[a]) {
      const int j = m->body_jnt[a];
      for (int k = 0; j >= 0 && k < m->jnt_nv[j]; k++) {
        const int dof = m->jnt_vadr[j] + k;
        const double* S = d->cdof + 6 * dof;
        double wxc[3];
        sc_sp_cross3(wxc, S, c);
        f[dof] += sc_sp_dot3(w, S + 3) + sc_sp_dot3(w, wxc) + sc_sp_dot3(w + 3, S);
      }
    }
  }
  return any;
}

void sc_dyn_point_jacobian(const sc_model* m, const sc_data* d, int b, const double p[3],
                           double* Jp) {
  memset(Jp, 0, sizeof(double) * 3 * (size_t)m->nv);
  for (int a = b; a > 0; a = m->body_parent[a]) {
    int j = m->body_jnt[a];
    for (int k = 0; k < m->jnt_nv[j]; k++) {
      int dof = m->jnt_vadr[j] + k;
      const double* S = d->cdof + 6 * dof;
      double wxp[3];
      sc_sp_cross3(wxp, S, p);
      for (int r = 0; r < 3; r++) Jp[3 * dof + r] = S[3 + r] + wxp[r];
    }
  }
}

/* A slider-crank (path elements w0: crank point C, w0 + 1: slider point S,
 * w0 + 2: the slider's axis a in S's body; rod r in wrap_coef[w0]).  With
 * v = C - S, the rod's end on the axis is S + L a, |v - L a| = r:
 *   L = a.v - sqrt(det),  det = (a.v)^2 + r^2 - v.v
 * (the root nearer S along -a, as MuJoCo's transmission takes it); where
 * det <= 0 the rod cannot reach the axis and L = a.v (MuJoCo's "broken"
 * crank).  With s = sqrt(det), da = w_S x a and dv = dC - dS:
 *   dL = (1 - a.v / s) (a.dv + (a x v).w_S) + v.dv / s
 * (broken: the first term with factor 1 and no second). */
static double slider_crank(const sc_model* m, sc_data* d, int w0, double* J, double* Jc, double* Js) {
  const int bc = m->wrap_body[w0], bs = m->wrap_body[w0 + 1], nv = m->nv;
  const double r = m->wrap_coef[w0];
  double pc[3], ps[3], a[3], v[3];
  sc_sp_mat3_vec(pc, d->xrot + 9 * bc, m->wrap_point + 3 * w0);
  sc_sp_mat3_vec(ps, d->xrot + 9 * bs, m->wrap_point + 3 * (w0 + 1));
  sc_sp_mat3_vec(a, d->xrot + 9 * bs, m->wrap_point + 3 * (w0 + 2));
  for (int k = 0; k < 3; k++) {
    pc[k] += d->xpos[3 * bc + k];
    ps[k] += d->xpos[3 * bs + k];
  }
  sc_sp_sub3(v, pc, ps);
  const double av = sc_sp_dot3(a, v), det = av * av + r * r - sc_sp_dot3(v, v);
  const int reach = det > 0;
  const double sd = reach ? sqrt(det) : 0.0;
  const double L = reach ? av - sd : av;
  if (!J) return L;
  const double fa = reach ? 1.0 - av / sd : 1.0, fv = reach ? 1.0 / sd : 0.0;
  double u[3], axv[3]; /* dL = u.dv + fa (a x v).w_S */
  for (int k = 0; k < 3; k++) u[k] = fa * a[k] + fv * v[k];
  sc_sp_cross3(axv, a, v);
  sc_dyn_point_jacobian(m, d, bc, pc, Jc);
  sc_dyn_point_jacobian(m, d, bs, ps, Js);
  for (int i = 0; i < nv; i++) J[i] = sc_sp_dot3(u, Jc + 3 * i) - sc_sp_dot3(u, Js + 3 * i);
  for (int b = bs; b > 0; b = m->body_parent[b]) {
    const int j = m->body_jnt[b];
    for (int k = 0; k < m->jnt_nv[j]; k++) {
      const int dof = m->jnt_vadr[j] + k;
      J[dof] += fa * sc_sp_dot3(axv, d->cdof + 6 * dof); /* (the dof's angular part) */
    }
  }
  return L;
}

/* world position of path element w's point (its body's frame) */
static void path_point(const sc_model* m, const sc_data* d, int w, double p[3]) {
  const int b = m->wrap_body[w];
  sc_sp_mat3_vec(p, d->xrot + 9 * b, m->wrap_point + 3 * w);
  for (int k = 0; k < 3; k++) p[k] += d->xpos[3 * b + k];
}

/* a straight segment from pa (a point of body ba) to pb (of bb), counted
 * 1/div: its share of L, and of J when given (u^T (J(pb) - J(pa)) / div) */
static double segment(const sc_model* m, sc_data* d, int ba, const double pa[3], int bb, const double pb[3],
                      double div, double* J, double* Ja, double* Jb) {
  double u[3];
  sc_sp_sub3(u, pb, pa);
  const double len = sc_sp_norm3(u);
  if (!J || !(len > 1e-12)) return len / div; /* (coincident points: no direction) */
  sc_sp_scale3(u, u, 1.0 / (len * div));
  sc_dyn_point_jacobian(m, d, ba, pa, Ja);
  sc_dyn_point_jacobian(m, d, bb, pb, Jb);
  for (int i = 0; i < m->nv; i++) J[i] += sc_sp_dot3(u, Jb + 3 * i) - sc_sp_dot3(u, Ja + 3 * i);
  return len / div;
}

/* whether the 2-D segments a0-a1 and b0-b1 cross (parallel ones do not) */
static int segments_cross(const double a0[2], const double a1[2], const double b0[2], const double b1[2]) {
  const double det = (b1[1] - b0[1]) * (a1[0] - a0[0]) - (b1[0] - b0[0]) * (a1[1] - a0[1]);
  if (fabs(det) < 1e-15) return 0;
  const double sa = ((b1[0] - b0[0]) * (a0[1] - b0[1]) - (b1[1] - b0[1]) * (a0[0] - b0[0])) / det;
  const double sb = ((a1[0] - a0[0]) * (a0[1] - b0[1]) - (a1[1] - a0[1]) * (a0[0] - b0[0])) / det;
  return sa >= 0 && sa <= 1 && sb >= 0 && sb <= 1;
}

/* The path from d0 to d1 (2-D, outside the circle of radius r about the
 * origin) around the circle: its tangent points into t (t0, t1) and the
 * arc's length, or -1 where it does not wrap.  It wraps where the straight
 * segment meets the circle, or, with a side point sd (on the circle), where
 * the segment passes on the side away from it.  Of the two tangent paths
 * (t = (r^2 p +- r sqrt(|p|^2 - r^2) p_perp) / |p|^2 from each end) it
 * takes the one nearer sd, else the shorter chord, never one whose
 * straight legs cross; these are MuJoCo's rules (engine_util_misc.c). */
static double circle_wrap(const double d0[2], const double d1[2], const double* sd, double r, double t[4]) {
  const double l0 = d0[0] * d0[0] + d0[1] * d0[1], l1 = d1[0] * d1[0] + d1[1] * d1[1], r2 = r * r;
  if (l0 < r2 || l1 < r2 || r < 1e-15) return -1;
  const double dif[2] = {d1[0] - d0[0], d1[1] - d0[1]}, dd = dif[0] * dif[0] + dif[1] * dif[1];
  if (dd < 1e-15) return -1;
  double a = -(dif[0] * d0[0] + dif[1] * d0[1]) / dd;
  a = a < 0 ? 0 : a > 1 ? 1 : a;
  const double near[2] = {d0[0] + a * dif[0], d0[1] + a * dif[1]};
  if (near[0] * near[0] + near[1] * near[1] > r2 && (!sd || sd[0] * near[0] + sd[1] * near[1] >= 0)) return -1;
  const double q0 = sqrt(l0 - r2), q1 = sqrt(l1 - r2);
  double cand[2][4], good[2];
  for (int i = 0; i < 2; i++) {
    const double sg = i == 0 ? 1.0 : -1.0;
    double* c = cand[i];
    c[0] = (d0[0] * r2 + sg * r * d0[1] * q0) / l0;
    c[1] = (d0[1] * r2 - sg * r * d0[0] * q0) / l0;
    c[2] = (d1[0] * r2 - sg * r * d1[1] * q1) / l1;
    c[3] = (d1[1] * r2 + sg * r * d1[0] * q1) / l1;
    if (sd) {
      double m2[2] = {c[0] + c[2], c[1] + c[3]};
      const double n = sqrt(m2[0] * m2[0] + m2[1] * m2[1]);
      good[i] = n > 1e-15 ? (m2[0] * sd[0] + m2[1] * sd[1]) / n : 0.0;
    } else {
      good[i] = -((c[0] - c[2]) * (c[0] - c[2]) + (c[1] - c[3]) * (c[1] - c[3]));
    }
    if (segments_cross(d0, c, d1, c + 2)) good[i] = -10000;
  }
  const int i = good[0] > good[1] ? 0 : 1;
  memcpy(t, cand[i], 4 * sizeof(double));
  if (segments_cross(d0, t, d1, t + 2)) return -1;
  /* the arc from t0 to t1 the way the chosen path turns */
  const double n0 = sqrt(t[0] * t[0] + t[1] * t[1]), n1 = sqrt(t[2] * t[2] + t[3] * t[3]);
  double cosa = (t[0] * t[2] + t[1] * t[3]) / (n0 * n1);
  cosa = cosa > 1 ? 1 : cosa < -1 ? -1 : cosa;
  double ang = acos(cosa);
  const double cross = t[1] * t[2] - t[0] * t[3];
  if ((cross > 0 && i == 1) || (cross < 0 && i == 0)) ang = 2 * MJ_PI_D - ang;
  return r * ang;
}

/* With the side point inside the circle, the path from d0 to d1 touches
 * the circle at one point p from within the angle the two ends span (a
 * tendon held out by the shape from its inside): p where the two legs make
 * equal angles with the radius, i.e. z = sin(the angle between a leg and
 * the radius at p) solves
 *   asin(A z) + asin(B z) - 2 asin(z) + G = 0,  A = r/|d0|, B = r/|d1|,
 * G the angle between d0 and d1 (Newton's method from z just below 1, to
 * 1e-6, at most 20 steps, as MuJoCo solves it).  Where the segment meets
 * the circle, either end is inside it, or the two ends are opposite,
 * there is no wrap (-1); where the solve cannot proceed the point is the
 * one along the ends' mean direction.  t holds p twice; the arc is 0. */
static double inside_wrap(const double d0[2], const double d1[2], double r, double t[4]) {
  const double l0 = hypot(d0[0], d0[1]), l1 = hypot(d1[0], d1[1]);
  const double dif[2] = {d1[0] - d0[0], d1[1] - d0[1]}, dd = dif[0] * dif[0] + dif[1] * dif[1];
  if (l0 <= r || l1 <= r || r < 1e-15 || l0 < 1e-15 || l1 < 1e-15) return -1;
  if (dd > 1e-15) {
    const double a = -(dif[0] * d0[0] + dif[1] * d0[1]) / dd;
    if (a > 0 && a < 1 && hypot(d0[0] + a * dif[0], d0[1] + a * dif[1]) <= r) return -1;
  }
  double mean[2] = {0.5 * (d0[0] + d1[0]), 0.5 * (d0[1] + d1[1])};
  const double nm = hypot(mean[0], mean[1]);
  t[0] = t[2] = nm > 0 ? r * mean[0] / nm : 0.0;
  t[1] = t[3] = nm > 0 ? r * mean[1] / nm : 0.0;
  const double A = r / l0, B = r / l1, cosg = (l0 * l0 + l1 * l1 - dd) / (2 * l0 * l1);
  if (cosg < -1 + 1e-15) return -1;
  if (cosg > 1 - 1e-15) return 0;
  const double G = acos(cosg);
  double z = 1 - 1e-7;
  double f = asin(A * z) + asin(B * z) - 2 * asin(z) + G;
  if (f > 0) return 0;
  int it = 0;
  for (; it < 20 && fabs(f) > 1e-6; it++) {
    const double df = A / fmax(1e-15, sqrt(1 - z * z * A * A)) + B / fmax(1e-15, sqrt(1 - z * z * B * B)) -
                      2 / fmax(1e-15, sqrt(1 - z * z));
    if (df > -1e-15) return 0;
    const double z1 = z - f / df;
    if (z1 > z) return 0;
    z = z1;
    f = asin(A * z) + asin(B * z) - 2 * asin(z) + G;
    if (f > 1e-6) return 0;
  }
  if (it >= 20) return 0;
  /* p: the end whose turn to the other is counterclockwise, turned by the
   * angle between its direction and p's */
  const int first = d0[0] * d1[1] - d0[1] * d1[0] > 0;
  const double* v = first ? d0 : d1;
  const double lv = first ? l0 : l1, ang = asin(z) - asin((first ? A : B) * z);
  const double c = cos(ang), sn = sin(ang);
  t[0] = t[2] = r * (c * v[0] - sn * v[1]) / lv;
  t[1] = t[3] = r * (sn * v[0] + c * v[1]) / lv;
  return 0;
}

/* Path element w, a sphere or cylinder between the points pa and pb: its
 * tangent points (world) and the length of the path on it, or -1 where the
 * path does not touch it.  The wrap is planar: a sphere's in the plane
 * through its centre and both points, a cylinder's in its cross-section,
 * where the path climbs along the axis in proportion to its length (a
 * helix on the cylinder). */
static double wrap_points(const sc_model* m, const sc_data* d, int w, const double pa[3], const double pb[3],
                          double t0[3], double t1[3]) {
  const int b = m->wrap_body[w];
  const double* R = d->xrot + 9 * b;
  const double r = m->wrap_coef[w];
  double c[3], z[3], x[3], y[3];
  sc_sp_mat3_vec(c, R, m->wrap_point + 3 * w);
  for (int k = 0; k < 3; k++) c[k] += d->xpos[3 * b + k];
  sc_sp_mat3_vec(z, R, m->wrap_axis + 3 * w);
  /* a frame about z (any: the wrap does not depend on it) */
  const double h[3] = {fabs(z[0]) < 0.9 ? 1.0 : 0.0, fabs(z[0]) < 0.9 ? 0.0 : 1.0, 0.0};
  sc_sp_cross3(y, z, h);
  sc_sp_scale3(y, y, 1.0 / sc_sp_norm3(y));
  sc_sp_cross3(x, y, z);
  double p0[3], p1[3], e[3];
  sc_sp_sub3(e, pa, c);
  p0[0] = sc_sp_dot3(e, x), p0[1] = sc_sp_dot3(e, y), p0[2] = sc_sp_dot3(e, z);
  sc_sp_sub3(e, pb, c);
  p1[0] = sc_sp_dot3(e, x), p1[1] = sc_sp_dot3(e, y), p1[2] = sc_sp_dot3(e, z);
  if (sc_sp_norm3(p0) < 1e-15 || sc_sp_norm3(p1) < 1e-15) return -1;
  /* the plane's axes a0, a1 (in the x, y, z frame) */
  double a0[3], a1[3];
  const int sphere = m->wrap_type[w] == SC_WRAP_SPHERE;
  if (sphere) {
    double n[3];
    sc_sp_scale3(a0, p0, 1.0 / sc_sp_norm3(p0));
    sc_sp_cross3(n, p0, p1);
    double nn = sc_sp_norm3(n);
    if (nn < 1e-15) {
      /* p0 and p1 on one line through the centre: any plane through it */
      int k = 0;
      if (fabs(a0[1]) > fabs(a0[0]) && fabs(a0[1]) > fabs(a0[2])) k = 1;
      if (fabs(a0[2]) > fabs(a0[0]) && fabs(a0[2]) > fabs(a0[1])) k = 2;
      double o[3] = {1, 1, 1};
      o[k] = 0;
      sc_sp_cross3(n, a0, o);
      nn = sc_sp_norm3(n);
    }
    sc_sp_scale3(n, n, 1.0 / nn);
    sc_sp_cross3(a1, n, a0);
    sc_sp_scale3(a1, a1, 1.0 / sc_sp_norm3(a1));
  } else {
    a0[0] = 1, a0[1] = 0, a0[2] = 0;
    a1[0] = 0, a1[1] = 1, a1[2] = 0;
  }
  const double d0[2] = {sc_sp_dot3(p0, a0), sc_sp_dot3(p0, a1)}, d1[2] = {sc_sp_dot3(p1, a0), sc_sp_dot3(p1, a1)};
  double sd[2], *sdp = NULL;
  int inside = 0; /* the side point inside the circle: the path bends in to touch it */
  const int sb = m->wrap_side_body[w];
  if (sb >= 0) {
    double sw[3], sl[3];
    sc_sp_mat3_vec(sw, d->xrot + 9 * sb, m->wrap_side_point + 3 * w);
    for (int k = 0; k < 3; k++) sw[k] += d->xpos[3 * sb + k] - c[k];
    sl[0] = sc_sp_dot3(sw, x), sl[1] = sc_sp_dot3(sw, y), sl[2] = sc_sp_dot3(sw, z);
    sd[0] = sc_sp_dot3(sl, a0), sd[1] = sc_sp_dot3(sl, a1);
    const double ns = sqrt(sd[0] * sd[0] + sd[1] * sd[1]);
    if (ns >= r) sd[0] *= r / ns, sd[1] *= r / ns, sdp = sd;
    else inside = 1;
  }
  double t[4];
  double arc = inside ? inside_wrap(d0, d1, r, t) : circle_wrap(d0, d1, sdp, r, t);
  if (arc < 0) return -1;
  double res[2][3];
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 3; k++) res[i][k] = a0[k] * t[2 * i] + a1[k] * t[2 * i + 1];
  if (!sphere) {
    const double L0 = hypot(p0[0] - res[0][0], p0[1] - res[0][1]);
    const double L1 = hypot(p1[0] - res[1][0], p1[1] - res[1][1]);
    res[0][2] = p0[2] + (p1[2] - p0[2]) * L0 / (L0 + arc + L1);
    res[1][2] = p0[2] + (p1[2] - p0[2]) * (L0 + arc) / (L0 + arc + L1);
    const double rise = res[1][2] - res[0][2];
    arc = sqrt(arc * arc + rise * rise);
  }
  for (int k = 0; k < 3; k++) {
    t0[k] = c[k] + x[k] * res[0][0] + y[k] * res[0][1] + z[k] * res[0][2];
    t1[k] = c[k] + x[k] * res[1][0] + y[k] * res[1][1] + z[k] * res[1][2];
  }
  return arc;
}

double sc_dyn_tendon(const sc_model* m, sc_data* d, int t, double* J) {
  const int w0 = m->ten_wrapadr[t], nw = m->ten_wrapnum[t], nv = m->nv;
  if (J) memset(J, 0, sizeof(double) * (size_t)nv);
  double L = 0.0;
  if (m->ten_type[t] == SC_TENDON_FIXED) {
    for (int w = w0; w < w0 + nw; w++) {
      const int j = m->wrap_jnt[w];
      L += m->wrap_coef[w] * d->kin_q[m->jnt_qadr[j]];
      if (J) J[m->jnt_vadr[j]] += m->wrap_coef[w];
    }
    return L;
  }
  double* Ja = d->jacp;
  double* Jb = d->jacp + 3 * (size_t)nv;
  if (m->ten_type[t] == SC_TENDON_SLIDER_CRANK) return slider_crank(m, d, w0, J, Ja, Jb);
  /* a pulley starts a branch whose segments count 1/divisor; a wrapping
   * shape between two points replaces their segment by the path around it
   * where that touches it (its tangent points moving with its body: the
   * arc's change is of second order, the legs being tangent) */
  double div = 1.0;
  for (int w = w0; w + 1 < w0 + nw; w++) {
    const int ta = m->wrap_type[w], tb = m->wrap_type[w + 1];
    if (ta == SC_WRAP_PULLEY) div = m->wrap_coef[w];
    if (ta != SC_WRAP_POINT || tb == SC_WRAP_PULLEY) continue;
    const int ba = m->wrap_body[w];
    double pa[3], pb[3];
    path_point(m, d, w, pa);
    if (tb == SC_WRAP_POINT) {
      path_point(m, d, w + 1, pb);
      L += segment(m, d, ba, pa, m->wrap_body[w + 1], pb, div, J, Ja, Jb);
      continue;
    }
    /* w + 1 wraps, w + 2 is the next point */
    const int bw = m->wrap_body[w + 1], bb = m->wrap_body[w + 2];
    path_point(m, d, w + 2, pb);
    double t0[3], t1[3];
    const double arc = wrap_points(m, d, w + 1, pa, pb, t0, t1);
    if (arc < 0) {
      L += segment(m, d, ba, pa, bb, pb, div, J, Ja, Jb);
    } else {
      L += segment(m, d, ba, pa, bw, t0, div, J, Ja, Jb);
      L += arc / div;
      L += segment(m, d, bw, t1, bb, pb, div, J, Ja, Jb);
    }
    w++;
  }
  return L;
}

/* the dofs where a row J (nv entries of w components each) is non-zero,
 * in increasing order; returns their count */
static int jrel_support(const sc_model* m, const double* J, int w, int* idx) {
  int n = 0;
  for (int i = 0; i < m->nv; i++)
    for (int r = 0; r < w; r++)
      if (J[w * i + r] != 0.0) {
        idx[n++] = i;
        break;
      }
  return n;
}

/* K += J^T (k u u^T + g (I - u u^T)) J and D += c J^T u u^T J over the
 * dofs idx[0..n) of one clique (they share one: a spring's or tendon's
 * trees are joined).  w = 3: J holds 3-vectors, u the direction; w = 1:
 * J is a scalar row (u NULL, g unused). */
static void add_outer(const sc_model* m, const int* idx, int n, const double* J, int w, const double* u,
                      double k, double g, double c, double* K, double* D) {
  if (n == 0) return;
  const int cq = m->dof_clique[idx[0]], nc = m->clique_dofnum[cq];
  const size_t adr = (size_t)m->clique_blkadr[cq];
  const int* loc = m->dof_cliqueloc;
  for (int a = 0; a < n; a++) {
    const double* Ji = J + w * idx[a];
    const double ui = w == 3 ? sc_sp_dot3(u, Ji) : Ji[0];
    const size_t la = adr + (size_t)loc[idx[a]];
    for (int b = 0; b < n; b++) {
      const double* Jl = J + w * idx[b];
      const double ul = w == 3 ? sc_sp_dot3(u, Jl) : Jl[0];
      const size_t e = la + (size_t)loc[idx[b]] * (size_t)nc;
      if (w == 3) {
        if (K) K[e] += k * ui * ul + g * (sc_sp_dot3(Ji, Jl) - ui * ul);
        if (D) D[e] += c * ui * ul;
      } else {
        if (K) K[e] += k * (ui * ul);
        if (D) D[e] += c * (ui * ul);
      }
    }
  }
}

double sc_dyn_springs(const sc_model* m, sc_data* d, const double* q, const double* v,
                      double* K, double* D) {
  int nv = m->nv;
  double energy = 0;
  memset(d->fspring, 0, sizeof(double) * (size_t)nv);
  memset(d->fdamp, 0, sizeof(double) * (size_t)nv);
  for (int s = 0; s < m->njspring; s++) {
    int dof = m->jspring_dof[s];
    double x = q[m->jspring_qadr[s]] - m->jspring_rest[s];
    double fd = -m->jspring_c[s] * v[dof];
    d->fspring[dof] += -m->jspring_k[s] * x + fd;
    d->fdamp[dof] += fd;
    energy += 0.5 * m->jspring_k[s] * x * x;
    if (K) K[blk_entry(m, dof, dof)] += m->jspring_k[s];
    if (D) D[blk_entry(m, dof, dof)] += m->jspring_c[s];
  }
  /* joint damping: a damper on each dof, -c v */
  for (int i = 0; m->any_damping && i < nv; i++)
    if (m->dof_damping[i] != 0.0) {
      const double fd = -m->dof_damping[i] * v[i];
      d->fspring[i] += fd;
      d->fdamp[i] += fd;
      if (D) D[blk_entry(m, i, i)] += m->dof_damping[i];
    }
  double* Ja = d->jacp;
  double* Jb = d->jacp + 3 * nv;
  for (int s = 0; s < m->nlspring; s++) {
    int ba = m->lspring_body[2 * s], bb = m->lspring_body[2 * s + 1];
    double xa[3], xb[3], dx[3];
    sc_xform X;
    memcpy(X.R, d->xrot + 9 * ba, sizeof X.R);
    memcpy(X.p, d->xpos + 3 * ba, sizeof X.p);
    sc_sp_xform_point(xa, &X, m->lspring_point + 6 * s);
    memcpy(X.R, d->xrot + 9 * bb, sizeof X.R);
    memcpy(X.p, d->xpos + 3 * bb, sizeof X.p);
    sc_sp_xform_point(xb, &X, m->lspring_point + 6 * s + 3);
    sc_sp_sub3(dx, xb, xa);
    double len = sc_sp_norm3(dx);
    double u[3];
    if (len > 1e-12) {
      sc_sp_scale3(u, dx, 1.0 / len);
    } else {
      /* coincident ends: no defined direction; a zero-rest spring exerts no
       * force there, and any other rest length picks world z */
      u[0] = u[1] = 0;
      u[2] = 1;
    }
    sc_dyn_point_jacobian(m, d, ba, xa, Ja);
    sc_dyn_point_jacobian(m, d, bb, xb, Jb);
    /* relative Jacobian Jb - Ja, stored in Jb */
    for (int i = 0; i < 3 * nv; i++) Jb[i] -= Ja[i];
    double ldot = 0;
    for (int i = 0; i < nv; i++) ldot += sc_sp_dot3(u, Jb + 3 * i) * v[i];
    double k = m->lspring_k[s], c = m->lspring_c[s], ext = len - m->lspring_rest[s];
    double fs = -k * ext, fdmp = -c * ldot; /* tension along u acting on b */
    energy += 0.5 * k * ext * ext;
    for (int i = 0; i < nv; i++) {
      double ui = sc_sp_dot3(u, Jb + 3 * i);
      d->fspring[i] += (fs + fdmp) * ui;
      d->fdamp[i] += fdmp * ui;
    }
    /* K and D over the dofs Jrel touches (the two bodies' paths to their
     * roots), not the whole clique: a cloth's hundreds of springs each
     * touch a few of its hundreds of dofs.  Jrel vanishes elsewhere, so
     * the terms left out are zeros. */
    if (K || D) {
      /* K = Jrel^T (k u u^T + max(0, k ext / len) (I - u u^T)) Jrel: the
       * geometric term of a compressed spring is dropped to keep A SPD */
      double g = (len > 1e-12 && ext > 0) ? k * ext / len : 0;
      const int ns = jrel_support(m, Jb, 3, d->spring_dofs);
      add_outer(m, d->spring_dofs, ns, Jb, 3, u, k, g, c, K, D);
    }
  }
  /* tendon spring-dampers: f = -k (L - rest) - c L' along the tendon's row
   * J, K = k J^T J and D = c J^T J within its clique (the model's cliques
   * join the trees of a tendon with a spring) */
  for (int t = 0; m->any_tendon_spring && t < m->ntendon; t++) {
    const double k = m->ten_k[t], c = m->ten_c[t];
    if (!(k > 0 || c > 0)) continue;
    double* J = d->ten_J;
    const double L = sc_dyn_tendon(m, d, t, J);
    const double rest = isnan(m->ten_rest[t]) ? d->ten_rest[t] : m->ten_rest[t];
    const double ext = isnan(rest) ? 0.0 : L - rest; /* (rest unresolved before the first step) */
    double ldot = 0.0;
    for (int i = 0; i < nv; i++) ldot += J[i] * v[i];
    const double fs = -k * ext, fdmp = -c * ldot;
    energy += 0.5 * k * ext * ext;
    for (int i = 0; i < nv; i++) {
      if (J[i] == 0.0) continue;
      d->fspring[i] += (fs + fdmp) * J[i];
      d->fdamp[i] += fdmp * J[i];
    }
    if (K || D) {
      const int ns = jrel_support(m, J, 1, d->spring_dofs);
      add_outer(m, d->spring_dofs, ns, J, 1, NULL, k, 0.0, c, K, D);
    }
  }
  if (m->any_fluid) sc_dyn_fluid(m, d, D);
  return energy;
}

/* the 6 components of dof i's velocity column for body b on b's box axes:
 * J[0..2] angular (Ri^T w_S), J[3..5] the centre of mass's (Ri^T (v_S + w_S x c)) */
static void fluid_column(const double* S, const double Ri[9], const double c[3], double J[6]) {
  double wxc[3], lin[3];
  sc_sp_cross3(wxc, S, c);
  for (int r = 0; r < 3; r++) lin[r] = S[3 + r] + wxc[r];
  for (int r = 0; r < 3; r++) {
    J[r] = Ri[r] * S[0] + Ri[3 + r] * S[1] + Ri[6 + r] * S[2];
    J[3 + r] = Ri[r] * lin[0] + Ri[3 + r] * lin[1] + Ri[6 + r] * lin[2];
  }
}

void sc_dyn_fluid(const sc_model* m, sc_data* d, double* D) {
  const double rho = m->opt.fluid_density, beta = m->opt.fluid_viscosity;
  const double* wind = m->opt.wind;
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_mass[b] == 0.0) continue; /* no box: MuJoCo skips them too */
    const double* r = m->body_fluid_box + 3 * b;
    const double* c = d->xcom + 3 * b;
    const double* V = d->cvel + 6 * b; /* [w; velocity of the point at the world origin] */
    double Ri[9], vc[3], wxc[3], u[3], w[3];
    sc_sp_mat3_mul(Ri, d->xrot + 9 * b, m->body_fluid_rot + 9 * b); /* box axes in world */
    sc_sp_cross3(wxc, V, c);
    for (int k = 0; k < 3; k++) vc[k] = V[3 + k] + wxc[k] - wind[k];
    for (int k = 0; k < 3; k++) {
      w[k] = Ri[k] * V[0] + Ri[3 + k] * V[1] + Ri[6 + k] * V[2];
      u[k] = Ri[k] * vc[0] + Ri[3 + k] * vc[1] + Ri[6 + k] * vc[2];
    }
    const double req = (r[0] + r[1] + r[2]) / 3.0, pi = 3.14159265358979323846;
    const double cf = 6 * pi * beta * req, cg = 8 * pi * beta * req * req * req;
    double fl[3], gl[3], dd[6]; /* force and torque on the box axes; -d(g, f)/d(w, u) */
    for (int i = 0; i < 3; i++) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      const double af = 2 * rho * r[j] * r[k];
      const double ag = 0.5 * rho * r[i] * (r[j] * r[j] * r[j] * r[j] + r[k] * r[k] * r[k] * r[k]);
      fl[i] = -(af * fabs(u[i]) + cf) * u[i];
      gl[i] = -(ag * fabs(w[i]) + cg) * w[i];
      dd[i] = 2 * ag * fabs(w[i]) + cg;
      dd[3 + i] = 2 * af * fabs(u[i]) + cf;
    }
    /* spatial force about the world origin: [g + c x f; f], world axes */
    double F[6], cxf[3];
    for (int k = 0; k < 3; k++) {
      F[k] = Ri[3 * k] * gl[0] + Ri[3 * k + 1] * gl[1] + Ri[3 * k + 2] * gl[2];
      F[3 + k] = Ri[3 * k] * fl[0] + Ri[3 * k + 1] * fl[1] + Ri[3 * k + 2] * fl[2];
    }
    sc_sp_cross3(cxf, c, F + 3);
    for (int k = 0; k < 3; k++) F[k] += cxf[k];
    for (int a = b; a > 0; a = m->body_parent[a]) {
      const int ja = m->body_jnt[a];
      for (int i = 0; i < m->jnt_nv[ja]; i++) {
        const int dof = m->jnt_vadr[ja] + i;
        const double f = sc_sp_dot6(d->cdof + 6 * dof, F);
        d->fspring[dof] += f;
        d->fdamp[dof] += f;
      }
    }
    if (!D) continue;
    /* D += J^T diag(dd) J, J the body's velocity columns on its box axes
     * (symmetric positive semi-definite: the drag's derivative in u, w is
     * diagonal and non-negative); the dependence of f on the pose (through
     * Ri) is left out of A, as the scheme leaves the bias forces' out */
    double* Jc = d->jacp; /* 6 per dof of the path, at 6 dof */
    for (int a = b; a > 0; a = m->body_parent[a]) {
      const int ja = m->body_jnt[a];
      for (int i = 0; i < m->jnt_nv[ja]; i++) {
        const int dof = m->jnt_vadr[ja] + i;
        fluid_column(d->cdof + 6 * dof, Ri, c, Jc + 6 * dof);
      }
    }
    for (int a = b; a > 0; a = m->body_parent[a]) {
      const int ja = m->body_jnt[a];
      for (int i = 0; i < m->jnt_nv[ja]; i++) {
        const int p = m->jnt_vadr[ja] + i;
        const double* Jp = Jc + 6 * p;
        for (int a2 = b; a2 > 0; a2 = m->body_parent[a2]) {
          const int ja2 = m->body_jnt[a2];
          for (int i2 = 0; i2 < m->jnt_nv[ja2]; i2++) {
            const int q = m->jnt_vadr[ja2] + i2;
            const double* Jq = Jc + 6 * q;
            double s = 0;
            for (int k = 0; k < 6; k++) s += Jp[k] * dd[k] * Jq[k];
            D[blk_entry(m, p, q)] += s;
          }
        }
      }
    }
  }
}

void sc_dyn_energy(const sc_model* m, const sc_data* d, const double* v, double* kinetic,
                   double* gravity) {
  double T = 0, U = 0;
  for (int i = 0; m->any_armature && i < m->nv; i++) T += 0.5 * m->dof_armature[i] * v[i] * v[i];
  for (int b = 1; b < m->nbody; b++) {
    if (m->body_mass[b] == 0.0) continue; /* adds zeros */
    double IV[6];
    sc_sp_mat6_vec(IV, d->cinert + 36 * b, d->cvel + 6 * b);
    T += 0.5 * sc_sp_dot6(d->cvel + 6 * b, IV);
    U -= m->body_mass[b] * sc_sp_dot3(m->opt.gravity, d->xcom + 3 * b);
  }
  *kinetic = T;
  *gravity = U;
}

/* qdot = 1/2 [0; w] (x) q for a unit quaternion q and angular velocity w
 * expressed in the frame q rotates into */
static void quat_rate(double qd[4], const double q[4], const double w[3]) {
  double wq[4] = {0, w[0], w[1], w[2]};
  sc_sp_quat_mul(qd, wq, q);
  for (int i = 0; i < 4; i++) qd[i] *= 0.5;
}

void sc_dyn_qdot(const sc_model* m, const double* q, const double* v, double* qdot) {
  for (int j = 0; j < m->njnt; j++) {
    const double* qj = q + m->jnt_qadr[j];
    const double* vj = v + m->jnt_vadr[j];
    double* qd = qdot + m->jnt_qadr[j];
    switch (m->jnt_type[j]) {
      case SC_JOINT_FIXED: break;
      case SC_JOINT_REVOLUTE:
      case SC_JOINT_PRISMATIC: qd[0] = vj[0]; break;
      case SC_JOINT_PLANAR: memcpy(qd, vj, 3 * sizeof(double)); break;
      case SC_JOINT_BALL: quat_rate(qd, qj, vj); break;
      case SC_JOINT_FREE:
        memcpy(qd, vj, 3 * sizeof(double));
        quat_rate(qd + 3, qj + 3, vj + 3);
        break;
    }
  }
}

void sc_dyn_normalize_q(const sc_model* m, double* q) {
  for (int j = 0; j < m->njnt; j++) {
    double* qj = q + m->jnt_qadr[j];
    if (m->jnt_type[j] == SC_JOINT_BALL) sc_sp_quat_normalize(qj);
    if (m->jnt_type[j] == SC_JOINT_FREE) sc_sp_quat_normalize(qj + 3);
  }
}
