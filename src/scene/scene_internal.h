/* scene_internal: what the scene loader's files share (internal to src/scene).
 *
 * The loader reads a scene in sections, one file per family of the schema
 * (keys.c lists every key):
 *   read.c     located errors and the typed readers every section uses
 *   options.c  gravity, time, integrator, contact, output
 *   shapes.c   materials, static shapes and body geometry, solid inertia
 *   bodies.c   bodies, joints, inertia, initial state; the topological order
 *   springs.c  joint and linear spring-dampers
 *   commands.c commands: inline tables, constants, CSV files (its own reader)
 *   h5table.c  commands' HDF5 datasets (the scene module's only HDF5 file)
 *   actuators.c actuators, and the check that every command drives one
 *   scene.c    the walk over the sections, the model's construction, file I/O
 * Each section reads into the records below; only when every section has been
 * read does scene.c allocate and fill the model, so a failed load leaves
 * nothing half-built behind.  Every reader reports the node it is about
 * through ctx, so messages read "file:line:col: bodies[2].joint.type: ...". */
#ifndef SC_SCENE_INTERNAL_H
#define SC_SCENE_INTERNAL_H

#include <stddef.h>

#include "core/core.h"
#include "model/model.h"
#include "scene/scene_tree.h"

#define SC_SCENE_PI 3.14159265358979323846

/* Eigenvalues of a symmetric 3x3 matrix (row-major), unordered. */
void sc_scene_sym3_eig(const double A[9], double lam[3]);

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define TRY(x)                    \
  do {                            \
    sc_status st_ = (x);          \
    if (st_ != SC_OK) return st_; \
  } while (0)

enum { RANGE_ANY, RANGE_POS, RANGE_NONNEG, RANGE_UNIT };  /* the range a number is checked against */

/* ---- located errors (read.c) ---- */

/* the dotted path of the key being read, for messages */
typedef struct ctx {
  sc_error* err;
  char path[512];
  size_t plen;
} ctx;

/* append ".key" or "[i]" to the path; each returns the length to pop back to */
size_t sc_rd_push_key(ctx* c, const char* key);
size_t sc_rd_push_idx(ctx* c, int i);
void sc_rd_pop(ctx* c, size_t m);
/* an error about node n itself; an override value is named by its KEY and
 * located at the start of its KEY=VALUE */
sc_status sc_rd_fail(ctx* c, const sc_snode* n, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* an error in another file (a command's CSV file) at line:col there, named
 * by the current path and sub (NULL: the path alone) */
sc_status sc_rd_fail_at(ctx* c, const char* file, int line, int col, const char* sub,
                        const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* a required key absent from map: located at the map */
sc_status sc_rd_fail_missing(ctx* c, const sc_snode* map, const char* key, const char* expected);
/* "a scalar", "a list", "a map", "an empty value": for messages */
const char* sc_rd_kind_name(const sc_snode* n);
/* file relative to the directory of the file base (itself when absolute, or
 * when base has no directory): a new string (sc_free), NULL out of memory */
char* sc_rd_path_beside(const char* base, const char* file);
/* 1 when name is made of letters, digits and _ - . : only (the names a
 * translated model carries, and a models: entry's prefix) */
int sc_rd_name_ok(const char* name);
void sc_rd_join_names(char* buf, size_t sz, const char* const* names, int n);

/* A regular file (a FIFO or device is refused without blocking) of at most
 * max bytes, whole and NUL-terminated in *out (sc_free), *len bytes.  On a
 * refusal, why says what (naming path) and the status is SC_ERR_IO (cannot
 * open or read) or SC_ERR_SCENE (too large, changed while read); the caller
 * locates it.  (read.c) */
sc_status sc_rd_read_file(const char* path, size_t max, char** out, size_t* len, char* why,
                          size_t whysz);

/* ---- typed readers (read.c): each checks one node ---- */

int sc_rd_is_plain_scalar(const sc_snode* n);
sc_status sc_rd_as_num(ctx* c, const sc_snode* n, double* x);
sc_status sc_rd_as_int(ctx* c, const sc_snode* n, int* x);
sc_status sc_rd_as_name(ctx* c, const sc_snode* n, const char** s);
sc_status sc_rd_as_bool(ctx* c, const sc_snode* n, int* b);
sc_status sc_rd_as_vec(ctx* c, const sc_snode* n, double* x, int len);
sc_status sc_rd_as_enum(ctx* c, const sc_snode* n, const char* const* names, int count,
                        const char* what, int* out);
/* n must be a map whose keys are all in allowed and unique */
sc_status sc_rd_check_map(ctx* c, const sc_snode* n, const char* const* allowed, int nallowed,
                          const char* what);
/* the same with the keys of a section of the key table (keys.h) */
sc_status sc_rd_check_section(ctx* c, const sc_snode* n, const char* section, const char* what);
sc_status sc_rd_check_range(ctx* c, const sc_snode* n, double x, int range);
/* a plain null (null, Null, NULL, ~) */
int sc_rd_is_null(const sc_snode* n);
/* a scalar that reads as a number (then sc_rd_as_num checks it); else a name */
int sc_rd_looks_numeric(const sc_snode* n);
/* [lower, upper] with null for an open side (-INFINITY / INFINITY); lower <
 * upper when both are given */
sc_status sc_rd_as_bounds(ctx* c, const sc_snode* n, double b[2]);
/* rigid (INFINITY) or a number > 0 */
sc_status sc_rd_as_rigid_or_pos(ctx* c, const sc_snode* n, double* x);
/* optional keys (required when req); *present, when given, says whether the key was there */
sc_status sc_rd_get_num(ctx* c, const sc_snode* map, const char* key, double* x, int range,
                        int req, int* present);
sc_status sc_rd_get_int(ctx* c, const sc_snode* map, const char* key, int* x, int lo, int req,
                        int* present);
sc_status sc_rd_get_vec(ctx* c, const sc_snode* map, const char* key, double* x, int len);
/* {position, rpy} -> p, R (identity when the key is absent) */
sc_status sc_rd_get_pose(ctx* c, const sc_snode* map, const char* key, double p[3], double R[9]);

/* names -> index by open addressing (FNV-1a, linear probing, at most half
 * full), so that resolving names stays linear in the number of bodies and
 * materials; a scene with 100 000 bodies made this lookup quadratic */
typedef struct name_index {
  const char** key; /* not owned: the node tree's strings */
  int* val;
  size_t mask;
} name_index;

int sc_rd_ni_init(name_index* x, int n);
void sc_rd_ni_free(name_index* x);
/* the index stored for name, or -1 when absent (then, if add >= 0, name is
 * inserted with index add: the table, not the struct, changes) */
int sc_rd_ni_lookup(const name_index* x, const char* name, int add);

/* ---- records read before the model is allocated ---- */

/* contact parameters as given (has_*: the key was there) */
typedef struct params {
  int has_k, has_tau, has_mu, has_hcd, has_e, has_spin, has_roll;
  double k, tau, mu, hcd; /* hcd: Hunt-Crossley dissipation, s/m */
  double e;               /* coefficient of restitution, [0, 1] */
  double spin, roll;      /* torsional and rolling friction coefficients, m */
} params;

typedef struct material {
  const char* name;
  params p;
} material;


typedef struct shape_in {
  sc_geom_type type;
  double pos[3], rot[9], size[3];
  double k, tau, mu, hcd, e, spin, roll;
  int mesh; /* SC_GEOM_MESH: index into load.mesh */
  uint32_t contype, conaffinity;
} shape_in;

typedef struct body_in {
  const sc_snode* node;
  const char* name;
  const sc_snode* parent_node;
  int parent;  /* file index, -1 = world */
  sc_joint_type jtype;
  double axis[3], jpos[3], jrot[9];
  int has_mass, solid;
  double mass, com[3], inertia[9];
  const sc_snode* com_node;
  const sc_snode* inertia_node;
  const sc_snode* mass_node;
  int has_q, has_v;
  double q[7], v[6];
  /* the joint's limits (range: -INFINITY / INFINITY when open) and per-dof
   * damping, armature and dry friction, slot k the joint's k-th velocity */
  double range[2], limit_k, limit_taud;
  double damping[SC_JNT_MAXDOF], armature[SC_JNT_MAXDOF], friction[SC_JNT_MAXDOF];
  const sc_snode* geometry;
  int geom0, ngeom; /* range in the shape array */
} body_in;

/* a command: one table of (time, value) samples in load.cmd_time/value */
typedef struct cmd_in {
  char* name;               /* owned */
  const sc_snode* name_node; /* its YAML node; NULL for a CSV column */
  const char* file;         /* where the name is written (a CSV column: its header) */
  int line, col;
  int item;                 /* its element of commands[] */
  int interp, adr, len, used;
} cmd_in;

typedef struct act_in {
  const char* name;
  int type, jnt, local;     /* jnt: the model's joint */
  int tendon1;              /* the tendon pulled + 1 (0: a joint's actuator) */
  double gear, kp, kd, effort[2], input[2], theta;
  int cmd, cmd_vel;         /* commands, -1: the constant input[0] / input[1] */
} act_in;

typedef struct load {
  sc_options opt;
  params defaults;
  material* mat;
  int nmat;
  body_in* body;
  int nbody;
  int* order;  /* model body b >= 1 is file body order[b - 1] */
  int* rank;   /* file body -> model body */
  shape_in* shape;
  int nshape, nstatic;
  const sc_snode* springs;
  const char* name;
  name_index body_index, mat_index;
  const char* scene_file;   /* the scene's file name: command files are relative to its directory */
  cmd_in* cmd;
  int ncmd, capcmd;
  double *cmd_time, *cmd_value; /* samples of all commands */
  int ncmddata, capdata;
  char** paths;             /* command files as opened (error locations), owned */
  int npaths, cappaths;
  name_index cmd_index;     /* command names; not built until commands are read */
  act_in* act;
  int nact;
  sc_mesh* mesh;            /* the meshes read (one per distinct file and scale) */
  double* mesh_scale;       /* (nmesh x 3) */
  int nmesh, capmesh;
  long mesh_verts;          /* vertices of all meshes (SC_MESH_MAX_TOTAL_VERTS) */
} load;


/* ---- MJCF (mjcf.c) ---- */

/* 1 when the text's first non-blank character (after a UTF-8 byte order
 * mark) is '<': an XML model rather than a YAML scene */
int sc_mjcf_is_xml(const char* text, size_t len);
/* The MJCF model (root <mujoco>) or URDF (root <robot>) in text (len bytes,
 * read from path; includes and meshes relative to it) as a simc scene in YAML, *yaml sc_malloc'ed (len *ylen).  Errors are
 * located in the XML file. */
typedef struct sc_import_opts {
  int allow_unsupported; /* import.allow_unsupported=true */
  int floating_base;     /* import.floating_base=true: a URDF's root link is free */
  const char* model_path; /* import.model_path=DIR: package:// names resolve in DIR */
  int strict;             /* import.strict=true: what is translated approximately is refused */
} sc_import_opts;
/* Where each line of a translation came from: runs of lines written for one
 * XML element, so that an error the scene loader finds in the translated text
 * names the model's own file and line. */
typedef struct sc_import_src {
  int first;       /* the run's first line in the translation (1-based) */
  int file, line;  /* files[file] and the element's line there (0: none) */
  char* what;      /* `element <link name="l1">` */
} sc_import_src;
typedef struct sc_import_map {
  sc_import_src* run;
  int nrun;
  char** files;
  int nfiles;
} sc_import_map;
void sc_import_map_free(sc_import_map* m);
/* an error located in the translation of path (err->file is path) moved to
 * the element it came from: "file:line: element <...>: message" */
void sc_import_map_locate(const sc_import_map* m, const char* path, sc_error* err);

/* *ignored (when not NULL): what was not translated, one line per kind with
 * its first place, sc_malloc'ed; NULL when nothing was.  *approximated (when
 * not NULL) likewise what was translated only approximately (MuJoCo's
 * contact parameters onto simc's law).  map (when not NULL)
 * receives the translation's source map (sc_import_map_free). */
sc_status sc_mjcf_translate(const char* path, const char* text, size_t len, const sc_import_opts* o,
                            char** yaml, size_t* ylen, char** ignored, char** approximated, sc_import_map* map,
                            sc_error* err);

/* MuJoCo 2.2.2's MJCF schema as simc classifies it (mjcf_schema.c), for
 * tests: its rows (depth, element, its attributes space separated, the
 * parent element's name, NULL for the root), and what simc does with
 * attribute attr of row i (NULL: with the element): 't' translated, 'r'
 * reported by the translator when its value is not translated, 'u' reported
 * when present (when not the default written to dflt, if any), 'n' no effect;
 * for the element 'T' translated, 'E' reported as a whole, 'X' no effect
 * (what is below an 'E' or 'X' element takes its class); 0 unclassified. */
int sc_mjcf_schema_rows(void);
void sc_mjcf_schema_row(int i, int* depth, const char** name, const char** attrs, const char** parent);
char sc_mjcf_schema_class(int i, const char* attr, char* dflt, size_t dsz);

/* ---- models placed by a scene (models.c) ---- */

/* Each entry of the scene's `models` list translated (sc_mjcf_translate),
 * its names prefixed, its root placed at the entry's pose, and its bodies,
 * static shapes, springs, actuators and exclude pairs appended to the
 * scene's own lists; the `models` key is then removed, so the tree is a
 * plain scene (and its emission re-loads without the model files).  The
 * model's gravity, time and options are not used.  allow_unsupported and
 * model_path are the command line's (--allow-unsupported, --model-path),
 * for every entry, as strict (--strict).  *ignored gathers the entries'
 * untranslated kinds, *approximated those translated approximately (each
 * sc_malloc'ed, NULL when none). */
sc_status sc_scene_expand_models(sc_snode* root, const char* scene_file, int allow_unsupported, int strict,
                                 const char* model_path, char** ignored, char** approximated, sc_error* err);

/* ---- sections ---- */

sc_status sc_rd_options(ctx* c, load* L, const sc_snode* root);     /* options.c */
sc_status sc_rd_params(ctx* c, const sc_snode* map, params* p);     /* shapes.c */
sc_status sc_rd_materials(ctx* c, load* L, const sc_snode* root);   /* shapes.c */
sc_status sc_rd_bodies(ctx* c, load* L, const sc_snode* root);      /* bodies.c */
int sc_rd_find_body(const load* L, const char* name);               /* bodies.c */
/* a body named by node n: world (0) or a body's model index */
sc_status sc_rd_as_body(ctx* c, const load* L, const sc_snode* n, int* body); /* bodies.c */
/* a tendon named by node n: its index in root's tendons list */
sc_status sc_rd_as_tendon(ctx* c, const sc_snode* root, const sc_snode* n, int* ten); /* tendons.c */
/* static shapes, then each body's in model order; solid inertia */
sc_status sc_rd_geometry(ctx* c, load* L, const sc_snode* root);    /* shapes.c */
/* the excluded body pairs (after the bodies), straight into the model like
 * the springs: fill 0 counts them (M->nexclude), fill 1 stores them */
sc_status sc_rd_exclude(ctx* c, const load* L, const sc_snode* root, sc_model* M, int fill); /* shapes.c */
/* springs go straight into the model: fill 0 counts them, fill 1 (after
 * sc_model_alloc) stores them */
sc_status sc_rd_springs(ctx* c, const load* L, const sc_snode* list, sc_model* M, int fill); /* springs.c */
/* the constraints: list, counted into M->neq (fill 0) or stored (fill 1) */
sc_status sc_rd_constraints(ctx* c, const load* L, const sc_snode* root, sc_model* M, int fill); /* constraints.c */
/* the tendons: list, counted into M->ntendon, M->nwrap (fill 0) or stored (fill 1) */
sc_status sc_rd_tendons(ctx* c, const load* L, const sc_snode* root, sc_model* M, int fill); /* tendons.c */
sc_status sc_rd_commands(ctx* c, load* L, const sc_snode* root);    /* commands.c */
/* a file named in the scene, relative to the scene's directory unless
 * absolute; the path is kept in L->paths (errors are located in it) */
sc_status sc_rd_resolve_path(load* L, const char* file, const char** out); /* commands.c */
void sc_rd_commands_free(load* L);                                  /* commands.c */
/* every command drives some actuator (after sc_rd_actuators marks them) */
sc_status sc_rd_commands_used(ctx* c, const load* L);               /* commands.c */
/* actuators (after commands, whose names they resolve) */
sc_status sc_rd_actuators(ctx* c, load* L, const sc_snode* root);   /* actuators.c */

/* h5table.c: the (n, 2) dataset of time and value columns in an HDF5 file,
 * as n rows of doubles into *tv (sc_malloc'd, 2n; the caller frees).  0 on
 * success; otherwise why says what is wrong and the return whom it is about:
 * SC_H5T_FILE the file, SC_H5T_DATASET the dataset, SC_H5T_NOMEM memory. */
enum { SC_H5T_OK = 0, SC_H5T_FILE = 1, SC_H5T_DATASET = 2, SC_H5T_NOMEM = 3 };
int sc_rd_h5_table(const char* path, const char* dataset, long max_rows, double** tv, long* n,
                   char* why, size_t whysz);

#endif
