/* collision: broad phase, narrow phase and contact manifolds.
 *
 * Conventions for a contact point between geoms a and b:
 *  - normal n (unit, world) points from a to b;
 *  - dist phi is the signed distance between the surfaces along n (negative in
 *    overlap, = -penetration depth);
 *  - pos is the point midway between the two surface witness points;
 *  - a point is reported when phi <= margin, so approaching bodies are caught
 *    one step early.
 * Flat-on-flat contacts give several points (a manifold, at most
 * SC_COL_MANIFOLD of them per pair after reduction to well-spread points).
 *
 * Pair parameters (sc_col_detect applies these to the two geoms' values):
 *  - stiffness: springs in series, k = ka kb / (ka + kb); an infinite
 *    (rigid) side returns the other side's k; both infinite -> infinite;
 *    both zero -> 0.
 *  - dissipation time: each geom is a spring with a damper c = k tau in
 *    parallel; putting the two in series and matching the combined damper
 *    c = k tau to first order gives tau = (kb ta + ka tb) / (ka + kb), i.e.
 *    the softer side's tau dominates.  A rigid side contributes nothing
 *    (ka = inf -> tb).  Both rigid (or both zero): the mean (ta + tb) / 2,
 *    which is also the equal-stiffness limit of the formula.
 *  - friction: harmonic mean mu = 2 mua mub / (mua + mub), 0 if both are 0;
 *    the larger of the two with contact.friction_mix: max (MuJoCo's rule)
 *    (so a frictionless side makes the pair frictionless). */
#ifndef SC_COLLISION_H
#define SC_COLLISION_H

#include "core/core.h"
#include "model/model.h"
#include "state/state.h"

typedef struct sc_col_point {
  double pos[3];    /* world, m: midway between the two surfaces */
  double normal[3]; /* unit, world, from a to b */
  double dist;      /* signed gap, m */
} sc_col_point;

#define SC_COL_MAX_POINTS 8
/* Manifolds are reduced to at most this many well-spread points per pair. */
#define SC_COL_MANIFOLD 4

/* A posed geometry: world position and row-major rotation (local -> world)
 * of its frame, its size as in sc_geom_type and, for a mesh, the mesh. */
typedef struct sc_col_geom {
  sc_geom_type type;
  const double* pos;
  const double* rot;
  const double* size;
  const sc_mesh* mesh; /* SC_GEOM_MESH, else NULL */
} sc_col_geom;

/* Geometry g of the model at d's poses (d->geom_xpos/geom_xrot). */
sc_col_geom sc_col_geom_of(const sc_model* m, const sc_data* d, int g);

/* 1 if the narrow phase handles this pair of types (either order), else 0. */
int sc_col_supported(sc_geom_type a, sc_geom_type b);

/* Narrow phase between two posed shapes.  Writes up to `max` points with
 * phi <= margin, normal from a to b; returns the count.  Either argument
 * order gives the same points with opposite normals.  Unsupported pairs
 * return 0. */
int sc_col_pair(const sc_col_geom* a, const sc_col_geom* b, double margin, sc_col_point* out,
                int max);

/* Broad + narrow phase over the model, using d->geom_xpos/geom_xrot (filled
 * by kinematics).  Fills d->contact[0..d->ncon) with pos, frame (rows t1, t2,
 * n from sc_sp_tangents), dist, geom (a < b), body and the pair parameters
 * above.  Skips pairs on the same body, world-world pairs and pairs of bodies
 * directly connected by a joint (parent-child, unless the parent is the
 * world).  If more than d->ncon_max points are found the deepest are kept and
 * *dropped (may be NULL) says how many were dropped.  Order: by geom pair,
 * then by point.  Writes d->geom_aabb (world AABBs incl. margin), keeps the
 * sweep order in d->geom_order, uses d->pair_scratch; never allocates. */
sc_status sc_col_detect(const sc_model* m, sc_data* d, int* dropped);

/* Move each of d's contacts to the current poses (d->geom_xpos/geom_xrot):
 * the narrow phase of its pair is run again and the contact takes the
 * position and normal (and so the frame) of the point it finds nearest to
 * where the contact went with its moving body: the body's origin now plus
 * rel[3i ..], the contact's offset from that origin when it was found
 * (sc_contact_offsets; rel NULL: the contact's own position).  Its gap,
 * pair and parameters stay.  The integrator uses this to place the contacts
 * detected at q0 at the step's mid configuration (contact Jacobian at
 * q^theta).  A pair whose narrow phase finds nothing keeps its contacts as
 * they were.  Never allocates. */
void sc_col_reposition(const sc_model* m, sc_data* d, const double* rel);

/* World AABB [min xyz, max xyz] of a posed shape grown by margin (planes:
 * infinite; a mesh: its hull's bounding box, rotated). */
void sc_col_aabb(double box[6], const sc_col_geom* g, double margin);

double sc_col_combine_stiffness(double ka, double kb);
double sc_col_combine_dissipation(double ka, double ta, double kb, double tb);
double sc_col_combine_friction(double mua, double mub);

#endif
