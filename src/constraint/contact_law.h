/* contact_law: each contact's law in the contact problem and the state it
 * keeps across steps (see contact_law.c). */
#ifndef SC_CONSTRAINT_CONTACT_LAW_H
#define SC_CONSTRAINT_CONTACT_LAW_H

#include "model/model.h"
#include "state/state.h"

/* Per contact of the step (ncap entries: the problem's capacity), set by
 * the contact match and the laws, read by the warm start, the impact kick
 * and the position update. */
typedef struct sc_contact_laws {
  int ncap;
  /* the previous step's contact each continues (-1: a new one), the
   * impulse it carried in this contact's frame (t1, t2, n; N s; 0 when
   * new), its point at detection less its body b's origin (a's when b is
   * static; world axes, m: what matching compares) and its stiction
   * anchor (t1, t2; m: the slip since it began to stick, doc/contact.md
   * 4.6); written by sc_contact_match_all (contact/match.h) */
  int* match;
  double *gprev, *crel, *anchor;
  /* the normal impulse of the matching contact (N s), the near-rigid beta
   * in use, the lagged friction bound (N s; < 0: from the state at the step
   * start), the depth bound of depth control (m) */
  double *nload, *beta_c, *n0, *xmax;
  double* theta_c; /* the theta of each entry's law (contacts and rows) */
  /* restitution (doc/contact.md 4.7), set once a step before any law:
   * rmode 0 none, 1 an approaching impact whose gap the step does not
   * close (the rigid law, no target), 2 one it closes (the rigid law with
   * the target vrest, m/s, on v_n; -inf otherwise); kick_c the factor of
   * its impulse in the impact kick (1 but for rmode 2); vwork (s - 1/2) dv,
   * what the mean normal velocity of the step's work gains when the
   * impulse acts at s (0 but for rmode 2); vlaw (vrest - vn*) / W_nn, by
   * which the law's target exceeds vrest per unit of its compliance R_n */
  int* rmode;
  double *vrest, *kick_c, *vwork, *vlaw;
  /* contact.model similar / lagged: SC_HC_NPAR parameters per entry and
   * the pairs' dissipations (s/m); gn, gravity's magnitude (m/s^2), for
   * the stiction tolerance sigma h gn (m/s) */
  double *hc, *hcd;
  double gn;
} sc_contact_laws;

/* Arrays for ncap entries; 0, or -1 when out of memory (L is then empty). */
int sc_contact_laws_init(const sc_model* m, int ncap, sc_contact_laws* L);
void sc_contact_laws_free(sc_contact_laws* L);
/* dst takes src's values (both of the same capacity) */
void sc_contact_laws_copy(sc_contact_laws* dst, const sc_contact_laws* src);

/* 1 when contact i is left out of the problem: no mobility at all, or a
 * rigid contact without normal mobility (it carries nothing) */
int sc_contact_left_out(const sc_data* d, int i);

/* 1 when contact i's law is near-rigid at the step it is written for
 * (contact.regularization_step when longer than the step: doc/contact.md 5) */
int sc_contact_near_rigid(const sc_model* m, const sc_data* d, int i);

/* The contacts' cone tails (torsional and rolling friction, core/problem.h)
 * appended after the rows, from the angular rows d->Jw the contacts'
 * Jacobian left; sets d->ckind and d->ctail of every contact. */
void sc_contact_cone_place(const sc_model* m, sc_data* d, const double* v0);

/* Every contact's law at the step start (d->R, d->vhat, and L->hc when
 * use_hc), after the Delassus estimates d->wdiag and the match with the
 * previous step; a contact left out gets mu = 0.  x, tmp: nv scratch. */
void sc_contact_laws_set(const sc_model* m, sc_data* d, sc_contact_laws* L, int use_hc,
                         double* x, double* tmp);
/* After a solve of nc entries (global indices gidx[l], NULL: l) with
 * impulses gamma: a contact deeper than its bound under its own normal
 * impulse gets a lower beta, a lagged contact whose normal impulse left its
 * friction bound gets the bound n0 = n; their laws are rewritten into the
 * problem's arrays R, vhat / hc (local numbering; rows are skipped).
 * Returns 1 when a law changed (the problem must be solved again). */
int sc_contact_laws_refine(const sc_model* m, const sc_data* d, const sc_contact_laws* L, int nc,
                           const int* gidx, const double* gamma, double* R, double* vhat,
                           double* hc);
/* After the last solve, with d->vc the end velocities: each contact's
 * stiction anchor (the step's slip added while it sticks, 0 otherwise). */
void sc_contact_laws_anchors(const sc_model* m, const sc_data* d, sc_contact_laws* L);
/* ... and the contacts' slip d->slip and the work of their impulses over
 * the step, W = gamma . (vc0 + vc) / 2, normal and friction parts apart
 * (d->e_normal, e_friction, e_contact). */
void sc_contact_laws_finish(const sc_model* m, sc_data* d, const sc_contact_laws* L);

#endif
