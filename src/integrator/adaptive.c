/* adaptive: error-controlled time stepping (time.accuracy; doc/step.md,
 * "Error control").
 *
 * An output interval [t_k, t_k + H] (H = time.step) is covered by substeps
 * of the theta-method step (sc_step_of, h <= H), each checked by
 * step doubling (Hairer, Norsett & Wanner, Solving ODEs I, II.4): from the
 * same state x0 one step of h gives x_1, two steps of h/2 give x_2, and
 *   err = max_i |x_2,i - x_1,i| / (eps max(1, |x_2,i|))
 * over the components of q (m, rad; a ball or free joint's rotation as
 * the angle between the two orientations, rad) and v (m/s, rad/s), eps =
 * time.accuracy: absolute below 1, relative above.  The velocity of a dof
 * that a near-rigid contact (or joint limit, equality, tendon limit) held
 * in the step of h (an impulse, and the step's regularization: law.h)
 * enters times h (m, rad): a constraint sets it, and its O(h) difference at
 * a resting contact does not accumulate; the scaling of a DAE's index-2
 * components (Hairer & Wanner II, VII.8).  For a scheme of local
 * order p + 1, x_2 - x_1 = (2^p - 1) C h^(p+1) + O(h^(p+2)), C h^(p+1)
 * the error of one step of h; x_2's own error is C h^(p+1) / 2^p.  The
 * estimate takes p = 1, the order the two-stage scheme keeps through
 * contact (doc/step.md): err overstates x_2's error by 2 under p = 1 and
 * by 6 under p = 2 (the midpoint rule in smooth motion), never understates
 * it.  x_2 is kept (no extrapolation: across an impact x_2 - x_1 measures
 * the step's error, not a power series' term).
 * err <= 1: the substep is accepted and the next one is
 *   h' = h min(2, max(0.2, 0.9 err^-a err_prev^b)),  a = 0.7 / 2, b = 0.4 / 2,
 * Gustafsson's PI controller (Hairer & Wanner, Solving ODEs II, IV.2, with
 * k = p + 1 = 2), without growth right after a rejection; err > 1: the
 * substep is taken again from x0 with h' = h max(0.2, 0.9 err^-1/2).  A
 * substep whose trial fails (diverged, bodies passed through each other,
 * the free motion did not converge) is taken again at h / 4.  Substeps are
 * at most H (or contact.regularization_step, the step near-rigid laws are
 * written for, when shorter: constraint/contact_law.c) and at least
 * time.min_step; one held at time.min_step whose
 * estimate is still above eps (or whose step of h failed, its halves not)
 * is accepted and counted (SC_WARN_MIN_STEP), one whose halves fail there
 * fails the run.  The interval's last substeps end at
 * t_k + H exactly (a remainder up to 1.25 h is taken in one substep, one
 * up to 2 h in two equal ones), so
 * the recorded rows are the scheme's own states at the sample times, not
 * interpolants.
 * Cost: three steps (one of h, two of h/2) per accepted substep, against
 * two for fixed steps of h/2. */
#include "integrator/integrator.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "constraint/contact_law.h"
#include "constraint/law.h"
#include "integrator/work.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the controller's constants (see the opening comment) */
#define SAFETY 0.9
#define GROW_MAX 2.0
#define SHRINK_MAX 0.2
#define PI_A (0.7 / 2.0)
#define PI_B (0.4 / 2.0)
#define FAIL_SHRINK 0.25
#define STRETCH 1.25

static int is_quat_start(const sc_model* m, int j) {
  return m->jnt_type[j] == SC_JOINT_BALL || m->jnt_type[j] == SC_JOINT_FREE;
}

/* the angle between two unit quaternions, rad, accurate for small angles */
static double quat_angle(const double* a, const double* b) {
  /* vector part of conj(a) b */
  const double x = a[0] * b[1] - b[0] * a[1] - (a[2] * b[3] - a[3] * b[2]);
  const double y = a[0] * b[2] - b[0] * a[2] - (a[3] * b[1] - a[1] * b[3]);
  const double z = a[0] * b[3] - b[0] * a[3] - (a[1] * b[2] - a[2] * b[1]);
  const double s = sqrt(x * x + y * y + z * z);
  return 2.0 * asin(s < 1.0 ? s : 1.0);
}

static double scaled(double e, double x) { return e / fmax(1.0, fabs(x)); }

/* 1 when entry i of x's last step, a contact or a limit, equality or
 * tendon-limit row, carried an impulse under a near-rigid law: the step's
 * regularization, not a spring it resolves, set the velocities it touches
 * (a row's Delassus estimate is 3 wdiag, constraint/rows.c) */
static int held_entry(const sc_model* m, const sc_data* x, int i) {
  if (x->impulse[3 * i + 2] == 0.0) return 0;
  if (i < x->ncon) return sc_contact_near_rigid(m, x, i);
  const int t = x->row_type[i - x->ncon];
  return (t == SC_JROW_LIMIT_LOWER || t == SC_JROW_LIMIT_UPPER || t == SC_JROW_EQUALITY ||
          t == SC_JROW_TENDON_LOWER || t == SC_JROW_TENDON_UPPER) &&
         sc_law_near_rigid(x->ck[i], x->ctaud[i], 3.0 * x->wdiag[i], x->h, m->opt.beta);
}

/* err of the opening comment without the division by eps: the two states'
 * largest scaled difference.  x1's jmark (-1 between steps) is scratch:
 * the dofs its held entries touch are marked, and unmarked after. */
static double adapt_error(const sc_model* m, const sc_data* x2, sc_data* x1) {
  double e = 0.0;
  const double h = x1->h;
  int* held = x1->jmark;
  for (int i = 0; i < x1->ncon + x1->nrow; i++)
    if (held_entry(m, x1, i))
      for (int q = x1->jptr[i]; q < x1->jptr[i + 1]; q++) held[x1->jcol[q]] = 1;
  for (int j = 0; j < m->njnt; j++) {
    const int qa = m->jnt_qadr[j], nq = m->jnt_nq[j];
    int i = qa;
    if (m->jnt_type[j] == SC_JOINT_FREE)
      for (; i < qa + 3; i++) e = fmax(e, scaled(fabs(x2->q[i] - x1->q[i]), x2->q[i]));
    if (is_quat_start(m, j)) {
      e = fmax(e, quat_angle(x2->q + i, x1->q + i));
      i += 4;
    }
    for (; i < qa + nq; i++) e = fmax(e, scaled(fabs(x2->q[i] - x1->q[i]), x2->q[i]));
  }
  for (int i = 0; i < m->nv; i++) {
    const double w = held[i] == 1 ? h : 1.0; /* s for a held dof: its error in m or rad */
    e = fmax(e, scaled(w * fabs(x2->v[i] - x1->v[i]), w * x2->v[i]));
    held[i] = -1;
  }
  return isnan(e) ? (double)INFINITY : e;
}

sc_status sc_advance(const sc_model* m, sc_data* d, sc_error* err) {
  const double H = m->opt.dt;
  if (!(m->opt.accuracy > 0)) return sc_step(m, d, err);
  /* the longest substep: near-rigid laws are written for reg_step, and a
   * longer substep would write its own (constraint/contact_law.c) */
  const double hmax = m->opt.reg_step > 0 ? fmin(H, m->opt.reg_step) : H;
  sc_data *trial = d->adapt[0], *backup = d->adapt[1];
  if (!trial || !backup)
    return sc_error_set(err, SC_ERR_SIM, NULL, 0, 0,
                        "time.accuracy: the data has no room for error control's trial "
                        "steps (made before the model asked for it)");
  const double wall0 = now_seconds();
  const double eps = m->opt.accuracy;
  const double hmin = m->opt.min_step;
  const long k = d->step;
  const double t_end = (double)(k + 1) * H;
  double h = d->h_next > 0 ? fmin(d->h_next, hmax) : hmax;
  int substeps = 0, rejected = 0, after_reject = 0;
  double shortest = INFINITY;
  for (;;) {
    const double t = d->time, left = t_end - t;
    if (!(left > 1e-12 * H)) break;
    double hs = h;
    /* no sliver at the interval's end: a remainder up to STRETCH h is one
     * substep (h itself right after a rejection), one up to 2 h two equal
     * ones, or one when a half would be under time.min_step */
    int whole_end = 0; /* the rest of the interval, under 2 time.min_step, in one */
    if (left <= (after_reject ? 1.0 : STRETCH) * hs && left <= hmax * (1.0 + 1e-9)) hs = left;
    else if (hs > 0.5 * left) {
      whole_end = 0.5 * left < hmin;
      hs = whole_end ? left : 0.5 * left;
    }
    /* x0 kept; x_1 in trial; x_2 in d */
    sc_sim_copy(m, backup, d);
    sc_sim_copy(m, trial, d);
    sc_error e1, e2;
    sc_error_clear(&e1);
    sc_error_clear(&e2);
    const sc_status st1 = sc_step_of(m, trial, hs, &e1);
    sc_status st = st1 == SC_OK || !sc_sim_cancelled(d) ? sc_step_of(m, d, 0.5 * hs, &e2) : st1;
    if (st == SC_OK) st = sc_step_of(m, d, 0.5 * hs, &e2);
    if ((st != SC_OK || st1 != SC_OK) && sc_sim_cancelled(d)) {
      if (err) *err = e2.code != SC_OK ? e2 : e1;
      return st != SC_OK ? st : st1;
    }
    const int at_min = whole_end || hs <= hmin * (1.0 + 1e-9);
    if (st != SC_OK && at_min) {
      /* the half steps failed at the shortest step: the run fails with
       * their reason (d holds the failed state, as a fixed step's failure
       * leaves it) */
      if (err) *err = e2;
      d->substeps = substeps;
      d->rejected = rejected;
      return st;
    }
    if (st != SC_OK || (st1 != SC_OK && !at_min)) {
      sc_sim_copy(m, d, backup);
      rejected++;
      after_reject = 1;
      h = fmax(hmin, hs * FAIL_SHRINK);
      continue;
    }
    /* (a full step that failed at the shortest step, its halves not: they
     * are kept, with no estimate) */
    const double r = st1 == SC_OK ? adapt_error(m, d, trial) / eps : (double)INFINITY;
    if (r > 1.0 && !at_min) {
      sc_sim_copy(m, d, backup);
      rejected++;
      after_reject = 1;
      h = fmax(hmin, hs * fmax(SHRINK_MAX, SAFETY / sqrt(r)));
      continue;
    }
    if (r > 1.0) d->warning[SC_WARN_MIN_STEP]++;
    substeps++;
    shortest = fmin(shortest, hs);
    double grow = !(r > 0)      ? GROW_MAX
                  : isinf(r) ? SHRINK_MAX
                             : SAFETY * pow(r, -PI_A) * pow(fmin(fmax(d->err_prev, 1e-4), 1e4), PI_B);
    grow = fmin(after_reject ? 1.0 : GROW_MAX, fmax(SHRINK_MAX, grow));
    d->err_prev = r;
    after_reject = 0;
    /* a substep cut short by the interval's end says nothing against a
     * longer one: the controller's h is kept unless it would grow */
    h = fmin(hmax, fmax(hmin, hs < h ? fmax(h, hs * grow) : hs * grow));
  }
  d->time = t_end;
  d->step = k + 1;
  d->h_next = h;
  d->substeps = substeps;
  d->rejected = rejected;
  d->shortest = shortest;
  d->substeps_total += substeps;
  d->rejected_total += rejected;
  d->wall_time = now_seconds() - wall0;
  return SC_OK;
}
