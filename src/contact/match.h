/* match: which contact of the previous step a contact continues.
 *
 * A contact is found anew at every step's start; what the step knows of
 * its past goes through this match: the SAP solver's second guess (the
 * velocity the previous impulses would give), the lagged model's friction
 * bound and depth control's load (the normal impulse it carried), the
 * LCP's basis guess (its basic pattern), and the stiction anchor (the slip
 * a sticking contact has made since it began to stick, doc/contact.md
 * 4.6).  A contact continues the previous contact of the same geom pair
 * whose point lies nearest, within SC_MATCH_DIST, the points taken relative
 * to the origin of the pair's moving body (body b, or a when b is static),
 * so that a body sliding or rolling at speed keeps its contacts: a sphere
 * rolling at 2 m/s moves 2 cm per 10 ms step, twice the distance. */
#ifndef SC_CONTACT_MATCH_H
#define SC_CONTACT_MATCH_H

#include <stdint.h>

#include "state/state.h"

#define SC_MATCH_DIST 0.01 /* m */

/* The previous step's contacts, sized once for cap contacts: geom pairs,
 * offsets from the moving body's origin (m, world axes), impulses in world
 * axes (N s), stiction anchors in world axes (m), LCP patterns, and a hash
 * of the pairs (heads, chained through next). */
typedef struct sc_contact_memory {
  int cap, n, hash_size;
  double h; /* the step the impulses imp were taken over, s */
  int *geom, *head, *next;
  double *rel, *imp, *anc;
  uint32_t* pat;
} sc_contact_memory;

/* Allocate for cap contacts (0 on success, -1 when out of memory: then
 * sc_contact_memory_free is still safe); free. */
int sc_contact_memory_init(sc_contact_memory* mem, int cap);
void sc_contact_memory_free(sc_contact_memory* mem);
/* dst := src, both initialized for the same cap. */
void sc_contact_memory_copy(sc_contact_memory* dst, const sc_contact_memory* src);

/* rel (3 per contact): d's contact points less the origin of each contact's
 * moving body; d's kinematics must be those the contacts were found at. */
void sc_contact_offsets(const sc_data* d, double* rel);

/* The previous contact that contact c (offset rel) continues, or -1. */
int sc_contact_match(const sc_contact_memory* mem, const sc_contact* c, const double rel[3]);

/* For each of d's contacts: match[i] (-1: a new contact), gprev[3i ..]
 * the impulse the matched contact carried, in contact i's frame (t1, t2, n;
 * 0 for a new one), and anchor[2i ..] its stiction anchor on contact i's
 * tangent plane (t1, t2; 0 for a new one). */
void sc_contact_match_all(const sc_contact_memory* mem, const sc_data* d, const double* rel,
                          int* match, double* gprev, double* anchor);

/* Keep d's contacts, their offsets rel, impulses and stiction anchors
 * (anchor: t1, t2 per contact, or NULL: none), and pat (the LCP patterns,
 * or NULL) for the next step. */
void sc_contact_remember(sc_contact_memory* mem, const sc_data* d, const double* rel,
                         const double* anchor, const uint32_t* pat);

#endif
