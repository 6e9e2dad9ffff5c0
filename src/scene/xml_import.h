/* xml_import: what the MJCF (mjcf.c) and URDF (urdf.c) translators share
 * (internal to src/scene).  Each translates an XML model into the text of a
 * simc scene, which the YAML loader then reads like any other; xml_import.c
 * holds the entry point (sc_mjcf_translate), the output buffer, the located
 * errors, the attribute readers, quaternions and the shapes' YAML. */
#ifndef SC_XML_IMPORT_H
#define SC_XML_IMPORT_H

#include <libxml/tree.h>
#include <stddef.h>

#include "core/core.h"

#define MAX_DOCS 64
#define MAX_ELEMENTS 1000000

enum { K_GEOM, K_JOINT, K_MOTOR, K_POSITION, K_VELOCITY, K_MESH, K_EQUALITY, K_TENDON, K_SITE, NKIND };

#define MAX_DEFNODES 8 /* top-level <default> sections merged into main */

typedef struct mj_class {
  const char* name;
  int parent;
  xmlNode* node[NKIND][MAX_DEFNODES]; /* later sections override earlier */
  int nnode[NKIND];
} mj_class;

typedef struct obuf {
  char* p;
  size_t n, cap;
  int oom;
  /* the element each line of p was written for (its source, for errors the
   * scene loader finds in the translation): src at the time of its '\n' */
  const xmlNode* src;
  const xmlNode** lsrc;
  size_t nl, capl;
} obuf;

typedef struct unsup {
  char what[224];
  char where[300];
} unsup;

/* what MuJoCo's <option><flag> switches off, left out by the translation */
enum { XI_OFF_CONTACT = 1, XI_OFF_LIMIT = 2, XI_OFF_EQUALITY = 4, XI_OFF_FRICTIONLOSS = 8, XI_OFF_GRAVITY = 16 };

typedef struct tr {
  sc_error* err;
  int degree, inertiafromgeom; /* 0 false, 1 auto, 2 true */
  int predefined; /* option collision="predefined": only <pair>s collide */
  int off;        /* <option><flag> switches off: XI_OFF_* */
  /* compiler boundmass, boundinertia, balanceinertia, settotalmass; the
   * scale of every body's mass and inertia (settotalmass over the total
   * found by a first pass), the total mass translated */
  double boundmass, boundinertia, settotalmass, mass_scale, mass_total;
  int balanceinertia;
  int global; /* compiler coordinate="global" */
  /* joint springdamper: a first pass of the bodies records each body's
   * mass, world centre of mass and inertia (brec) and each joint's world
   * axis, subtree and tree (jrec, by joint index); the second writes the
   * stiffness and damping they give */
  struct mj_brec { double m, c[3], I[9]; } * brec;
  int nbrec, capbrec;
  struct mj_jrec { int sd, type, first, last, root; double a[3], ax[3], arm, tc, dr, k, b, ref, springref; } * jrec;
  int capjrec, cur_root;
  char eulerseq[4];
  char meshdir[512];
  double timestep, gravity[3];
  double fluid[5]; /* <option density viscosity wind>: the scene's fluid (MJCF) */
  mj_class cls[256];
  int ncls;
  xmlDoc* doc[MAX_DOCS];
  char* src[MAX_DOCS];     /* each document's text, for the columns of messages */
  size_t srclen[MAX_DOCS];
  int ndoc;
  xmlNode* top[4096]; /* the top-level elements, includes expanded */
  int ntop;
  long nelem;
  obuf bodies, stat, springs, acts;
  obuf excl; /* the exclude section: <contact><exclude> */
  obuf eq;   /* the constraints section: MJCF <equality>, URDF <mimic> */
  obuf ten;  /* the tendons section: MJCF <tendon> */
  /* MJCF <composite>: the sections its expansion adds elements to, and
   * how many composites had a <skin> (visual, said in the note) */
  xmlNode *comp_ten, *comp_eq, *comp_contact;
  int comp_skin;
  int nten;  /* MJCF tendons, numbered across every <tendon> (tendon equality names them) */
  int neq_inactive; /* MJCF equality constraints left out as active="false" */
  int nbody_auto;
  unsup un[64];
  int nun;
  unsup ap[32]; /* translated approximately: once per kind with its first place */
  int nap;
  int any_sol; /* a geom has MuJoCo's solref or solimp */
  char** jname; /* joint names (each the name of its link body) */
  int njn, capjn;
  char* strs[MAX_DOCS * 64]; /* strings kept for the output (mesh paths) */
  int nstr;
  char model_name[128];
  /* mesh mass properties by file and scale, so that a mesh several geoms
   * use is read and hulled once (per unit density, as sc_mesh has them) */
  struct xi_mesh_props {
    char* file;
    double scale[3], volume, centroid[3], inertia[9];
  }* meshes;
  int nmeshes, capmeshes;
  char note[200]; /* what the reading changed without leaving anything out (a comment in the translation) */
  /* MJCF: every geom that can collide, for the friction of each pair under
   * MuJoCo's priority rule (mjcf.c, pair_friction): its priority, sliding
   * friction as written, whether its condim is 1, masks, body and parent
   * body (ids in the order the bodies are read, 0 the world); mu[i] the
   * friction written for geom i once every pair is known */
  struct xi_pgeom {
    int prio, body, parent, condim1, condim;
    double fr, fr1, fr2; /* friction's sliding, torsional and rolling coefficients */
    unsigned long ct, ca;
    const xmlNode* node;
  }* pg;
  double* pmu;
  int npg, cappg, nbid, cur_bid;
} tr;


typedef struct geom {
  int type; /* SC_GEOM_* */
  double pos[3], q[4], size[3];
  double mass, I[3];     /* diagonal inertia in the geom frame */
  double density;        /* kg/m^3, for a mesh's mass when none is given */
  int has_mass;
  double cm[3], Im[9];   /* a mesh: its centroid and inertia about it, geom frame */
  double mu;
  int mu_slot;    /* 1 + its index in tr.pg: friction written as a placeholder (0: mu) */
  int priority;   /* MuJoCo's contact priority */
  double fr_raw;  /* the sliding friction as written (mu is 0 for condim 1) */
  int condim1;
  int condim;       /* MuJoCo's condim (1, 3, 4, 6; 0: not read, 3) */
  double fr1, fr2;  /* its torsional and rolling coefficients as written (m) */
  double spin, roll; /* the torsional and rolling friction written (condim 4, 6; else 0) */
  unsigned long contype, conaffinity; /* contact bit masks, 32 bits */
  const char* mesh_file;
  double mesh_scale[3];
  const xmlNode* node; /* the element it was read from (NULL: none) */
  /* MuJoCo's contact law (solref, solimp) read from the geom (has_sol), and
   * the simc parameters it becomes (contact: written; k < 0: rigid) */
  int has_sol, contact;
  double solref[2], solimp[5];
  double k, tau_d, hc_d;
  double inflate; /* m, MuJoCo's margin - gap: the contact surface moved out by it */
} geom;

extern const char* const xi_joint_yaml[]; /* YAML joint type by SC_JOINT_* */

/* what follows in b is written for element n (NULL: the model's root) */
void xi_src(obuf* b, const xmlNode* n);
/* printf onto an output buffer; oom set (and nothing more written) when out of memory */
void xi_put(obuf* b, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* the element's name, and its attribute a (NULL when absent) */
const char* xi_name(const xmlNode* n);
const char* xi_attr(const xmlNode* n, const char* a);
/* the file an element was read from */
const char* xi_file(const xmlNode* n);
/* `element <joint name="knee">` for messages */
void xi_describe(char* buf, size_t sz, const xmlNode* n);
/* an error at element n (its file and line), about attribute attr when not NULL */
sc_status xi_fail(tr* t, const xmlNode* n, const char* attr, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* an unsupported kind: remembered once, with its first place */
void xi_unsupported(tr* t, const xmlNode* n, const char* what);
/* a kind translated approximately: remembered once, with its first place */
void xi_approximated(tr* t, const xmlNode* n, const char* what);
/* attribute a of element n of kind k (K_*, -1 none) with the class chain from class c (-1 none) */
const char* xi_attr_d(const tr* t, const xmlNode* n, int k, int c, const char* a);
/* up to max numbers of text s: the count read, -1 when malformed */
int xi_numbers(const char* s, double* out, int max);
/* exactly cnt numbers from attribute a (if present); *has set when present */
sc_status xi_get_vec(tr* t, const xmlNode* n, int k, int c, const char* a, double* out, int cnt, int* has);
/* between lo and hi numbers: the count */
sc_status xi_get_vec_n(tr* t, const xmlNode* n, int k, int c, const char* a, double* out, int lo, int hi, int* got);
/* true or false */
sc_status xi_get_bool(tr* t, const xmlNode* n, int k, int c, const char* a, int* out);
/* quaternions (w, x, y, z): product, from axis and angle, normalized, the shortest rotation taking z to v, rotation of a vector */
void xi_qmul(double r[4], const double a[4], const double b[4]);
void xi_qaxis(double q[4], const double ax[3], double ang);
void xi_qnorm(double q[4]);
void xi_qz2vec(double q[4], const double v[3]);
void xi_qrot(double r[3], const double q[4], const double v[3]);
/* XML text (or the file path when text is NULL) parsed without network, entities or DTD; the document is kept in t; an error is located at `from` when the file itself has no line */
sc_status xi_parse(tr* t, const char* path, const char* text, size_t len, const xmlNode* from, xmlDoc** out);
/* p (sc_malloc'ed, relative to the working directory) made absolute: the scene loader opens a mesh relative to the scene's directory, which differs between a model run alone and a `models:` entry */
char* xi_abs_path(char* p);
/* count the elements under n against the model's bound */
sc_status xi_count_elements(tr* t, const xmlNode* n);
/* a shape's masks (when not the default 1), and the whole shape as a YAML flow map offset by off */
void xi_put_masks(obuf* o, const geom* g);
void xi_put_contact(obuf* o, const geom* g);
void xi_put_geom(obuf* o, const char* indent, const geom* g, const double off[3]);
/* joint names (each the name of its link body): add (its index, -1 out of memory), find (-1 absent) */
int xi_jname_add(tr* t, const char* name);
/* MJCF <composite> (mjcf_composite.c): every composite of the worldbody
 * expanded in place into the bodies, joints, geoms, sites, tendons and
 * equality constraints MuJoCo 2.2.2 makes of it, their class
 * COMPOSITE_CLASS (MuJoCo's built-in defaults, no model class); *count the
 * composites expanded */
#define COMPOSITE_CLASS " composite"
sc_status xi_mjcf_composites(tr* t, int* count);
int xi_jname_find(const tr* t, const char* name);
/* a name safe in YAML flow context */
#define XI_NAME_MAX 120 /* bytes of a name read from a model */
sc_status xi_check_name_length(tr* t, const xmlNode* n, const char* name);
sc_status xi_check_name(tr* t, const xmlNode* n, const char* name);
/* name as a YAML scalar in out (plain, or double-quoted with escapes): out */
#define XI_YNAME 600
const char* xi_yaml_name(char* out, size_t sz, const char* name);
/* the model's name as a scene name (letters and digits; others become _) */
void xi_set_model_name(tr* t, const char* name);
/* what was not translated, once per kind with its first place: refused */
sc_status xi_refuse_unsupported(tr* t, const xmlNode* root);

/* every element and attribute of the MJCF documents read checked against
 * MuJoCo 2.2.2's schema; what changes the dynamics untranslated reported
 * (mjcf_schema.c) */
sc_status xi_mjcf_check_schema(tr* t);

/* the two translators: the body tree and everything else into t's buffers */
sc_status xi_translate_mjcf(tr* t, xmlNode* root);
sc_status xi_translate_urdf(tr* t, xmlNode* root, int floating, const char* model_path);

#endif
