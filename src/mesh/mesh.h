/* mesh: triangle meshes read from OBJ and STL files, their convex hulls and
 * mass properties.
 *
 * A mesh is kept twice: the triangles as read (scaled; drawn by the viewer,
 * and the solid whose mass properties a closed mesh gives) and its convex
 * hull (qhull, computed once at load), which is what collides.  The hull is
 * stored as polygons (coplanar facets merged) with each vertex's neighbours,
 * so a support query can walk the hull's edges uphill from a starting vertex
 * instead of scanning every vertex (sc_mesh_support).
 *
 * Everything here runs at load time except sc_mesh_support, which the
 * narrow phase calls and which never allocates. */
#ifndef SC_MESH_H
#define SC_MESH_H

#include "core/core.h"

/* Caps on what one file, one mesh and all meshes of a model may hold (a
 * refusal is a located error).  The largest mesh a robot or object scan
 * usually brings is of the order of 1e5 triangles (MuJoCo's mug: 12 676
 * vertices, 24 544 triangles, 2.2 MB of OBJ text). */
#define SC_MESH_MAX_FILE_BYTES (256L << 20) /* one OBJ or STL file */
#define SC_MESH_MAX_VERTS 2000000           /* vertices of one mesh */
#define SC_MESH_MAX_FACES 4000000           /* triangles of one mesh (after fanning) */
#define SC_MESH_MAX_TOTAL_VERTS 8000000     /* vertices of all meshes of a model */
/* Hull faces within this angle (rad) of a patch's largest face join it: a
 * patch of width L is flat within L x 0.005.  Well below the angle between
 * the facets of a tessellated curve (2562-vertex icosphere: 0.03 to 0.048;
 * 128-sided prism: 0.049), above the ripple of exported flat faces (the
 * mug's rim and foot: 0.003). */
#define SC_MESH_PATCH_ANGLE 0.01
/* Cells per cube-map face side of the table of support starts. */
#define SC_MESH_DIRGRID 8

typedef struct sc_mesh {
  char* file;         /* the path it was read from (as resolved) */
  /* the mesh as read, scaled, in its own frame */
  int nvert, nface;
  double* vert;       /* (nvert x 3), m */
  int* face;          /* (nface x 3) vertex indices, triangles (polygons fanned) */
  /* its convex hull */
  int hnvert, hnface;
  double* hvert;      /* (hnvert x 3), m */
  int* hadj_adr;      /* (hnvert + 1) the neighbours of hull vertex i are
                         hadj[hadj_adr[i] .. hadj_adr[i + 1]) */
  int* hadj;
  int* hface_adr;     /* (hnface + 1) face f's polygon: hface[hface_adr[f] ..
                         hface_adr[f + 1]), hull vertex indices, counter-clockwise
                         seen from outside */
  int* hface;
  double* hplane;     /* (hnface x 4) outward unit normal n and offset o: the
                         hull is {x : n.x <= o} over its faces */
  int* hvf_adr;       /* (hnvert + 1) the faces around hull vertex i:
                         hvf[hvf_adr[i] .. hvf_adr[i + 1]) */
  int* hvf;
  /* flat patches (the contact features): neighbouring hull faces whose
     normals lie within SC_MESH_PATCH_ANGLE of the patch's largest face, as one
     convex polygon.  A surface flat to the eye but tessellated with
     ripples (a mug's rim and foot) is one patch, not many slivers. */
  int hnpatch;
  int* hface_patch;   /* (hnface) the patch of each face */
  int* hpatch_adr;    /* (hnpatch + 1) patch p's polygon: hpatch[hpatch_adr[p] ..
                         hpatch_adr[p + 1]), hull vertex indices, counter-clockwise
                         seen from outside (the 2-d hull of its faces' vertices in
                         the plane of its largest face) */
  int* hpatch;
  double* hpatch_plane; /* (hnpatch x 4) its largest face's outward normal and the
                         largest n.x over the patch's vertices */
  /* mass properties, per unit density */
  int closed;         /* 1: of the mesh itself (closed and consistently
                         oriented); 0: of its hull */
  double volume;      /* m^3 */
  double centroid[3]; /* m, mesh frame (inside the hull) */
  double inertia[9];  /* m^5 (x density = kg m^2), about the centroid, mesh axes */
  double rbound;      /* largest |vertex| (about the mesh origin), m */
  int hdir[6 * SC_MESH_DIRGRID * SC_MESH_DIRGRID]; /* the support vertex of the
                         centre direction of each cell of a cube map (6 faces of
                         SC_MESH_DIRGRID^2 cells): where a walk without a
                         start begins */
  double hbox[6];     /* the hull's bounding box in the mesh frame: centre, half
                         extents, m */
} sc_mesh;

/* Read an OBJ (v and f records; polygons fanned from their first vertex;
 * negative, v/vt/vn indices accepted; other records ignored) or STL (binary
 * or ASCII, told by content) file, or through assimp any other format it
 * reads by the name's extension (Collada .dae: <unit> applied, <up_axis>
 * not), multiply every vertex by scale[0..2], and
 * build the hull and mass properties (sc_mesh_build).  The file must be a
 * regular file (a directory or FIFO is refused without blocking).  Errors
 * are located in the mesh file: err->file = path, err->line = the line of
 * an OBJ/ASCII STL record (binary STL: 0, with the byte offset or triangle
 * in the message; assimp's formats: 0).  On failure *out is left empty
 * (nothing to free). */
sc_status sc_mesh_read(const char* path, const double scale[3], sc_mesh* out, sc_error* err);

/* From out->vert/nvert and out->face/nface (owned by out, sc_malloc'ed):
 * check every vertex is finite, every index in range; build the hull
 * (refusing fewer than 4 non-coplanar points or zero volume), the vertex
 * adjacency and faces, the mass properties (of the mesh when it is closed
 * and consistently oriented, else of the hull) and rbound.  nface == 0 (a
 * point cloud) is accepted: closed = 0 and the mass properties are the
 * hull's.  Errors carry `file` (may be NULL) without a line. */
sc_status sc_mesh_build(sc_mesh* out, const char* file, sc_error* err);

/* The hull vertex maximizing d.x (d in the mesh frame, any length), found by
 * walking from hull vertex `start` (any index in [0, hnvert); out of range:
 * the support vertex of the cell of hdir that d falls in, a few edges from
 * the answer) to a neighbour with a larger d.x while there is one.  On a convex hull
 * a vertex no neighbour improves is a global maximizer.  Ties between
 * vertices of equal d.x go to the first reached. */
int sc_mesh_support(const sc_mesh* m, const double d[3], int start);

/* The same by scanning every hull vertex (the reference for tests and the
 * benchmark); ties to the lowest index. */
int sc_mesh_support_scan(const sc_mesh* m, const double d[3]);

/* Free what *m owns and zero it (m itself is not freed). */
void sc_mesh_free(sc_mesh* m);

#endif
