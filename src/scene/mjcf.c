/* mjcf: a MuJoCo model (MJCF, root element <mujoco>) translated into a simc
 * scene, which the YAML loader then reads like any other (so --set, the
 * checks and the output work unchanged; the model keeps the translated text).
 *
 * XML is read by libxml2 (line numbers for every element; no network, no
 * entity expansion, no external DTD), and <include file> is expanded in
 * place, relative to the including file.  Every error is located:
 * `file:line: element <joint name="knee">: attribute range: ...`.
 *
 * Semantics follow MuJoCo's compiler (its documentation, "XML Reference",
 * and mjCModel/mjCBody/mjCGeom):
 *  - defaults: <default class> nest; an element's attribute is its own, else
 *    that of its class (its `class`, else the nearest `childclass` of its
 *    bodies, else "main"), then of that class's ancestors;
 *  - frames: pos, then one of quat (w x y z), axisangle, euler (compiler
 *    eulerseq, lower case intrinsic: q = q * R_axis; upper case extrinsic),
 *    xyaxes, zaxis (the shortest rotation taking z to it); angles in the
 *    compiler's unit (degree by default);
 *  - geoms: fromto (capsule, cylinder) sets the centre, the z axis and the
 *    half length; mass = density (1000 kg/m^3) x volume unless given; the
 *    body's mass, centre of mass and inertia from its geoms (parallel axes)
 *    unless an <inertial> gives them (inertiafromgeom); a mesh geom's are
 *    the exact solid's (MuJoCo's exactmeshinertia="true"; its 2.x default
 *    approximates it, overstating a hollow mesh such as MuJoCo's mug);
 *  - joints: MuJoCo turns a body about a joint's anchor `pos` in the body
 *    frame, joint after joint.  simc has one joint per body, so each joint
 *    becomes a massless link body named after it, its joint frame at the
 *    anchor (the first at the body's pose in its parent, each next at its
 *    anchor less the previous one), and the MuJoCo body is fixed to the last
 *    link at minus that link's anchor: its frame is MuJoCo's.  q and v follow
 *    qpos and qvel in order; only a free joint's angular velocity (world in
 *    simc, local in MuJoCo) and a ball's (parent frame in simc) differ.
 *    Links are transparent to contact filtering, so a body and its MuJoCo
 *    parent do not collide, as in MuJoCo.
 *  - contact filtering: a geom's contype and conaffinity (classes included)
 *    become its shape's masks, <contact><exclude body1 body2> an exclude
 *    pair of the two simc bodies of those names (the links hold no
 *    geometry); an explicit <contact><pair> is reported;
 *  - stiffness with springref, damping, armature, frictionloss, range with
 *    limited (autolimits: a range alone limits), ref (the joint frame
 *    turned by -ref, the run starting at q = ref); motors (gear; ctrlrange
 *    times gear and forcerange bound the force), position servos (kp) and
 *    velocity servos (kv), at zero control.
 * What changes the dynamics and is not translated (tendons, equality
 * constraints, other actuators, condim 4 and 6, solref/solimp,
 * ...) is reported once per kind with its first line and refused unless the
 * set `import.allow_unsupported=true` is given (simc --allow-unsupported).
 * Visual elements (asset textures and materials, light, camera, site,
 * visual, statistic) are ignored. */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mesh/mesh.h"
#include "scene/limits.h"
#include "scene/scene_internal.h"
#include "spatial/spatial.h"

#define MJ_PI 3.14159265358979323846
#define MAX_INCLUDE_DEPTH 16
#define MAX_DOCS 64
#define MAX_ELEMENTS 1000000

enum { K_GEOM, K_JOINT, K_MOTOR, K_POSITION, K_VELOCITY, K_MESH, NKIND };
static const char* const kind_names[NKIND] = {"geom", "joint", "motor", "position", "velocity", "mesh"};

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
} obuf;

typedef struct unsup {
  char what[96];
  char where[300];
} unsup;

typedef struct tr {
  sc_error* err;
  int degree, inertiafromgeom; /* 0 false, 1 auto, 2 true */
  char eulerseq[4];
  char meshdir[512];
  double timestep, gravity[3];
  mj_class cls[256];
  int ncls;
  xmlDoc* doc[MAX_DOCS];
  int ndoc;
  xmlNode* top[4096]; /* the top-level elements, includes expanded */
  int ntop;
  long nelem;
  obuf bodies, stat, springs, acts;
  obuf excl; /* the exclude section: <contact><exclude> */
  int nbody_auto;
  unsup un[32];
  int nun;
  char** jname; /* joint names (each the name of its link body) */
  int njn, capjn;
  char* strs[MAX_DOCS * 64]; /* strings kept for the output (mesh paths) */
  int nstr;
  char model_name[128];
} tr;

/* ---- output ---- */

static void put(obuf* b, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(obuf* b, const char* fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (w < 0) {
      b->oom = 1;
      return;
    }
    if (b->p && b->n + (size_t)w < b->cap) {
      b->n += (size_t)w;
      return;
    }
    size_t cap = b->cap ? 2 * b->cap : 4096;
    while (cap < b->n + (size_t)w + 1) cap *= 2;
    char* np = sc_malloc(cap);
    if (!np) {
      b->oom = 1;
      return;
    }
    if (b->n) memcpy(np, b->p, b->n);
    sc_free(b->p);
    b->p = np;
    b->cap = cap;
  }
}

/* ---- errors ---- */

static const char* xname(const xmlNode* n) { return (const char*)n->name; }
static const char* xattr(const xmlNode* n, const char* a) {
  for (const xmlAttr* p = n->properties; p; p = p->next)
    if (strcmp((const char*)p->name, a) == 0 && p->children && p->children->content)
      return (const char*)p->children->content;
  return NULL;
}
static const char* doc_file(const xmlNode* n) {
  return n->doc && n->doc->URL ? (const char*)n->doc->URL : "<model>";
}

static void describe(char* buf, size_t sz, const xmlNode* n) {
  const char* nm = xattr(n, "name");
  if (nm)
    snprintf(buf, sz, "element <%s name=\"%s\">", xname(n), nm);
  else
    snprintf(buf, sz, "element <%s>", xname(n));
}

static sc_status fail(tr* t, const xmlNode* n, const char* attr, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static sc_status fail(tr* t, const xmlNode* n, const char* attr, const char* fmt, ...) {
  char msg[400], el[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  describe(el, sizeof el, n);
  if (attr)
    return sc_error_set(t->err, SC_ERR_SCENE, doc_file(n), (int)xmlGetLineNo(n), 0, "%s: attribute %s: %s",
                        el, attr, msg);
  return sc_error_set(t->err, SC_ERR_SCENE, doc_file(n), (int)xmlGetLineNo(n), 0, "%s: %s", el, msg);
}

/* an unsupported kind: remembered once, with its first place */
static void unsupported(tr* t, const xmlNode* n, const char* what) {
  for (int i = 0; i < t->nun; i++)
    if (strcmp(t->un[i].what, what) == 0) return;
  if (t->nun == (int)(sizeof t->un / sizeof t->un[0])) return;
  unsup* u = &t->un[t->nun++];
  snprintf(u->what, sizeof u->what, "%s", what);
  char el[200];
  describe(el, sizeof el, n);
  snprintf(u->where, sizeof u->where, "%s:%ld: %s", doc_file(n), xmlGetLineNo(n), el);
}

/* ---- attributes: numbers, defaults ---- */

/* attribute a of element n of kind k with the class chain from class c */
static const char* attr_d(const tr* t, const xmlNode* n, int k, int c, const char* a) {
  const char* v = xattr(n, a);
  if (v) return v;
  while (k >= 0 && c >= 0) {
    for (int i = t->cls[c].nnode[k] - 1; i >= 0; i--)
      if ((v = xattr(t->cls[c].node[k][i], a))) return v;
    c = t->cls[c].parent;
  }
  return NULL;
}

/* up to max numbers of text s; the count read, -1 when malformed */
static int numbers(const char* s, double* out, int max) {
  int k = 0;
  const char* p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (!*p) return k;
    if (k == max) return -1;
    char* end;
    double x = strtod(p, &end);
    if (end == p || !isfinite(x)) return -1;
    out[k++] = x;
    p = end;
  }
}

/* exactly n numbers from attribute a (if present); *has set when present */
static sc_status get_vec(tr* t, const xmlNode* n, int k, int c, const char* a, double* out, int cnt,
                         int* has) {
  const char* v = attr_d(t, n, k, c, a);
  if (has) *has = v != NULL;
  if (!v) return SC_OK;
  double tmp[16];
  int got = numbers(v, tmp, 16);
  if (got != cnt)
    return fail(t, n, a, "expected %d number%s (got '%s')", cnt, cnt == 1 ? "" : "s", v);
  memcpy(out, tmp, sizeof(double) * (size_t)cnt);
  return SC_OK;
}

/* between lo and hi numbers: the count */
static sc_status get_vec_n(tr* t, const xmlNode* n, int k, int c, const char* a, double* out, int lo,
                           int hi, int* got) {
  *got = 0;
  const char* v = attr_d(t, n, k, c, a);
  if (!v) return SC_OK;
  double tmp[16];
  int g = numbers(v, tmp, 16);
  if (g < lo || g > hi) return fail(t, n, a, "expected %d to %d numbers (got '%s')", lo, hi, v);
  memcpy(out, tmp, sizeof(double) * (size_t)g);
  *got = g;
  return SC_OK;
}

static sc_status get_bool(tr* t, const xmlNode* n, int k, int c, const char* a, int* out) {
  const char* v = attr_d(t, n, k, c, a);
  if (!v) return SC_OK;
  if (strcmp(v, "true") == 0)
    *out = 1;
  else if (strcmp(v, "false") == 0)
    *out = 0;
  else
    return fail(t, n, a, "expected true or false (got '%s')", v);
  return SC_OK;
}

/* ---- rotations (quaternions w, x, y, z) ---- */

static void qmul(double r[4], const double a[4], const double b[4]) {
  double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  r[0] = w, r[1] = x, r[2] = y, r[3] = z;
}
static void qaxis(double q[4], const double ax[3], double ang) {
  double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]), s = sin(0.5 * ang) / n;
  q[0] = cos(0.5 * ang), q[1] = ax[0] * s, q[2] = ax[1] * s, q[3] = ax[2] * s;
}
static void qnorm(double q[4]) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 4; i++) q[i] /= n;
}
/* the shortest rotation taking (0, 0, 1) to v (MuJoCo's z-axis frames) */
static void qz2vec(double q[4], const double v[3]) {
  double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  double z[3] = {v[0] / n, v[1] / n, v[2] / n};
  double ax[3] = {-z[1], z[0], 0}; /* (0, 0, 1) x z */
  double s = sqrt(ax[0] * ax[0] + ax[1] * ax[1]);
  q[0] = 1, q[1] = q[2] = q[3] = 0;
  if (s < 1e-10) {
    if (z[2] < 0) q[0] = 0, q[1] = 1; /* pointing down: half a turn about x */
    return;
  }
  qaxis(q, ax, atan2(s, z[2]));
}
static void qrot(double r[3], const double q[4], const double v[3]) {
  double R[9];
  sc_sp_quat_to_mat3(R, q);
  sc_sp_mat3_vec(r, R, v);
}

/* the frame of element n: position and orientation (quat) */
static sc_status frame(tr* t, const xmlNode* n, int k, int c, double pos[3], double q[4]) {
  pos[0] = pos[1] = pos[2] = 0;
  q[0] = 1, q[1] = q[2] = q[3] = 0;
  TRY(get_vec(t, n, k, c, "pos", pos, 3, NULL));
  const char* which[5] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  int given = -1;
  for (int i = 0; i < 5; i++)
    if (attr_d(t, n, k, c, which[i])) {
      if (given >= 0) return fail(t, n, which[i], "only one of quat, axisangle, euler, xyaxes, zaxis (also %s)", which[given]);
      given = i;
    }
  const double unit = t->degree ? MJ_PI / 180 : 1;
  double v[6];
  switch (given) {
    case 0:
      TRY(get_vec(t, n, k, c, "quat", q, 4, NULL));
      if (!(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 0)) return fail(t, n, "quat", "zero quaternion");
      qnorm(q);
      break;
    case 1:
      TRY(get_vec(t, n, k, c, "axisangle", v, 4, NULL));
      if (!(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 0)) return fail(t, n, "axisangle", "zero axis");
      qaxis(q, v, v[3] * unit);
      break;
    case 2: {
      TRY(get_vec(t, n, k, c, "euler", v, 3, NULL));
      for (int i = 0; i < 3; i++) {
        char a = t->eulerseq[i];
        double ax[3] = {0, 0, 0}, r[4], tmp[4];
        ax[(a | 32) - 'x'] = 1;
        qaxis(r, ax, v[i] * unit);
        if (a >= 'a')
          qmul(tmp, q, r); /* intrinsic: about the rotated axis */
        else
          qmul(tmp, r, q);
        memcpy(q, tmp, sizeof tmp);
      }
      break;
    }
    case 3: {
      TRY(get_vec(t, n, k, c, "xyaxes", v, 6, NULL));
      double x[3] = {v[0], v[1], v[2]}, y[3] = {v[3], v[4], v[5]}, z[3], R[9];
      double nx = sc_sp_normalize3(x);
      double d = sc_sp_dot3(x, y);
      for (int i = 0; i < 3; i++) y[i] -= d * x[i];
      double ny = sc_sp_normalize3(y);
      if (!(nx > 0) || !(ny > 1e-12)) return fail(t, n, "xyaxes", "degenerate axes");
      sc_sp_cross3(z, x, y);
      for (int i = 0; i < 3; i++) R[3 * i] = x[i], R[3 * i + 1] = y[i], R[3 * i + 2] = z[i];
      sc_sp_mat3_to_quat(q, R);
      break;
    }
    case 4:
      TRY(get_vec(t, n, k, c, "zaxis", v, 3, NULL));
      if (!(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 0)) return fail(t, n, "zaxis", "zero axis");
      qz2vec(q, v);
      break;
  }
  return SC_OK;
}

/* ---- includes and top-level elements ---- */

static void silent(void* user, const char* msg, ...) {
  (void)user;
  (void)msg;
}

static sc_status parse(tr* t, const char* path, const char* text, size_t len, const xmlNode* from,
                       xmlDoc** out) {
  *out = NULL;
  if (t->ndoc == MAX_DOCS)
    return fail(t, from, "file", "more than %d files included", MAX_DOCS);
  xmlParserCtxt* pc = xmlNewParserCtxt();
  if (!pc) return SC_ERR_NOMEM;
  /* no network, no entity substitution, no external DTD */
  const int opts = XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR | XML_PARSE_NOCDATA;
  xmlDoc* d = text ? xmlCtxtReadMemory(pc, text, (int)len, path, NULL, opts)
                   : xmlCtxtReadFile(pc, path, NULL, opts);
  if (!d) {
    const xmlError* e = xmlCtxtGetLastError(pc);
    char msg[300] = "cannot read the XML";
    if (e && e->message) {
      snprintf(msg, sizeof msg, "%s", e->message);
      size_t l = strlen(msg);
      while (l && (msg[l - 1] == '\n' || msg[l - 1] == ' ')) msg[--l] = '\0';
    }
    int line = e ? e->line : 0;
    xmlFreeParserCtxt(pc);
    if (from && !line) return fail(t, from, "file", "%s: %s", path, msg);
    return sc_error_set(t->err, SC_ERR_SCENE, path, line, 0, "%s", msg);
  }
  xmlFreeParserCtxt(pc);
  t->doc[t->ndoc++] = d;
  *out = d;
  return SC_OK;
}

static sc_status read_include(tr* t, const xmlNode* n, const char* path, char** out, size_t* len) {
  char why[600];
  sc_status st = sc_rd_read_file(path, SC_SCENE_MAX_BYTES, out, len, why, sizeof why);
  return st && st != SC_ERR_NOMEM ? fail(t, n, "file", "%s", why) : st;
}

/* p (sc_malloc'ed, relative to the working directory) made absolute: the
 * scene loader opens a translated mesh relative to the scene's directory,
 * which is the model's for a model run alone and the placing scene's for a
 * `models:` entry, so only an absolute path means the same file to both */
static char* abs_path(char* p) {
  if (!p || p[0] == '/') return p;
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) return p; /* unreachable cwd: left relative */
  size_t nc = strlen(cwd), n = strlen(p);
  char* a = sc_malloc(nc + 1 + n + 1);
  if (a) {
    memcpy(a, cwd, nc);
    a[nc] = '/';
    memcpy(a + nc + 1, p, n + 1);
  }
  sc_free(p);
  return a;
}

static sc_status count_elements(tr* t, const xmlNode* n) {
  for (; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    if (++t->nelem > MAX_ELEMENTS)
      return fail(t, n, NULL, "the model has more than %d elements", MAX_ELEMENTS);
    TRY(count_elements(t, n->children));
  }
  return SC_OK;
}

/* the children of root, <include> expanded in place */
static sc_status collect(tr* t, xmlNode* root, int depth) {
  TRY(count_elements(t, root->children));
  for (xmlNode* n = root->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    if (strcmp(xname(n), "include") == 0) {
      const char* f = xattr(n, "file");
      if (!f) return fail(t, n, "file", "required");
      if (depth >= MAX_INCLUDE_DEPTH) return fail(t, n, "file", "includes nested deeper than %d", MAX_INCLUDE_DEPTH);
      char* p = sc_rd_path_beside(doc_file(n), f);
      if (!p) return SC_ERR_NOMEM;
      /* read here, not by libxml2: only a regular file (a FIFO or device
       * could block or never end) of at most a scene's size */
      char* text = NULL;
      size_t len = 0;
      sc_status rst = read_include(t, n, p, &text, &len);
      if (rst) {
        sc_free(p);
        return rst;
      }
      xmlDoc* d;
      sc_status st = parse(t, p, text, len, n, &d);
      sc_free(text);
      sc_free(p);
      TRY(st);
      xmlNode* r = xmlDocGetRootElement(d);
      if (!r || strcmp(xname(r), "mujoco") != 0) return fail(t, n, "file", "the included file's root is not <mujoco>");
      TRY(collect(t, r, depth + 1));
      continue;
    }
    if (t->ntop == (int)(sizeof t->top / sizeof t->top[0])) return fail(t, n, NULL, "too many top-level elements");
    t->top[t->ntop++] = n;
  }
  return SC_OK;
}

/* ---- defaults ---- */

static int find_class(const tr* t, const char* name) {
  for (int i = 0; i < t->ncls; i++)
    if (strcmp(t->cls[i].name, name) == 0) return i;
  return -1;
}

static sc_status read_default(tr* t, xmlNode* n, int parent) {
  const char* name = xattr(n, "class");
  if (!name) name = parent < 0 ? "main" : NULL;
  if (!name) return fail(t, n, "class", "a nested default needs a class");
  int me = find_class(t, name);
  if (me >= 0 && !(parent < 0 && me == 0)) /* top-level sections add to main */
    return fail(t, n, "class", "class '%s' is defined twice", name);
  if (me < 0) {
    if (t->ncls == (int)(sizeof t->cls / sizeof t->cls[0])) return fail(t, n, NULL, "too many default classes");
    me = t->ncls++;
    memset(&t->cls[me], 0, sizeof t->cls[me]);
    t->cls[me].name = name;
    t->cls[me].parent = parent;
  }
  for (xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    if (strcmp(xname(c), "default") == 0) {
      TRY(read_default(t, c, me));
      continue;
    }
    for (int k = 0; k < NKIND; k++)
      if (strcmp(xname(c), kind_names[k]) == 0) {
        mj_class* cl = &t->cls[me];
        if (cl->nnode[k] == MAX_DEFNODES) return fail(t, c, NULL, "more than %d defaults of one kind in a class", MAX_DEFNODES);
        cl->node[k][cl->nnode[k]++] = c;
      }
    if (strcmp(xname(c), "general") == 0 || strcmp(xname(c), "tendon") == 0 || strcmp(xname(c), "muscle") == 0 ||
        strcmp(xname(c), "equality") == 0)
      unsupported(t, c, xname(c));
  }
  return SC_OK;
}

static int class_of(tr* t, const xmlNode* n, int inherited, sc_status* st) {
  const char* c = xattr(n, "class");
  *st = SC_OK;
  if (!c) return inherited;
  int k = find_class(t, c);
  if (k < 0) *st = fail(t, n, "class", "unknown class '%s'", c);
  return k;
}

/* ---- geoms and inertia ---- */

typedef struct geom {
  int type; /* SC_GEOM_* */
  double pos[3], q[4], size[3];
  double mass, I[3];     /* diagonal inertia in the geom frame */
  double density;        /* kg/m^3, for a mesh's mass when none is given */
  int has_mass;
  double cm[3], Im[9];   /* a mesh: its centroid and inertia about it, geom frame */
  double mu;
  unsigned long contype, conaffinity; /* contact bit masks, 32 bits */
  const char* mesh_file;
  double mesh_scale[3];
} geom;

/* a contact bit mask (contype, conaffinity): a non-negative integer of 32
 * bits at most, 1 when absent (MuJoCo's default) */
static sc_status get_mask(tr* t, const xmlNode* n, int c, const char* a, unsigned long* out) {
  *out = 1;
  const char* v = attr_d(t, n, K_GEOM, c, a);
  if (!v) return SC_OK;
  /* a bad value from a class is reported at the <geom> of that <default> */
  for (int k = c; !xattr(n, a) && k >= 0; k = t->cls[k].parent) {
    int found = 0;
    for (int i = t->cls[k].nnode[K_GEOM] - 1; i >= 0 && !found; i--)
      if (xattr(t->cls[k].node[K_GEOM][i], a)) n = t->cls[k].node[K_GEOM][i], found = 1;
    if (found) break;
  }
  const char* p = v;
  while (*p == ' ' || *p == '\t') p++;
  const char* d = p + (*p == '+' || *p == '-');
  size_t nd = 0;
  while (d[nd] >= '0' && d[nd] <= '9') nd++;
  const char* e = d + nd;
  while (*e == ' ' || *e == '\t') e++;
  if (*p == '-' && nd > 0 && !*e) return fail(t, n, a, "must be >= 0 (got '%s')", v);
  if (nd == 0 || *e) return fail(t, n, a, "expected a non-negative integer bit mask (got '%s')", v);
  while (nd > 1 && *d == '0') d++, nd--;
  const unsigned long long x = nd > 10 ? ULLONG_MAX : strtoull(d, NULL, 10);
  if (x > 4294967295ull) return fail(t, n, a, "must be at most 4294967295, 32 bits (got '%s')", v);
  *out = (unsigned long)x;
  return SC_OK;
}

static const char* const mj_types[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh"};

static sc_status read_geom(tr* t, xmlNode* n, int c, geom* g, int in_world) {
  const char* ty = attr_d(t, n, K_GEOM, c, "type");
  if (!ty) ty = "sphere";
  int mt = -1;
  for (int i = 0; i < 8; i++)
    if (strcmp(ty, mj_types[i]) == 0) mt = i;
  if (mt < 0) return fail(t, n, "type", "unknown geom type '%s'", ty);
  double size[3] = {0, 0, 0};
  int ns;
  TRY(get_vec_n(t, n, K_GEOM, c, "size", size, 1, 3, &ns));
  TRY(frame(t, n, K_GEOM, c, g->pos, g->q));
  double ft[6];
  int has_ft;
  TRY(get_vec(t, n, K_GEOM, c, "fromto", ft, 6, &has_ft));
  memset(g->size, 0, sizeof g->size);
  switch (mt) {
    case 0:
      if (!in_world) return fail(t, n, "type", "a plane must be in the worldbody");
      g->type = SC_GEOM_PLANE;
      break;
    case 2:
      g->type = SC_GEOM_SPHERE;
      g->size[0] = size[0];
      break;
    case 3:
    case 5: {
      g->type = mt == 3 ? SC_GEOM_CAPSULE : SC_GEOM_CYLINDER;
      double half = size[1];
      if (has_ft) {
        double d[3] = {ft[3] - ft[0], ft[4] - ft[1], ft[5] - ft[2]};
        half = 0.5 * sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (!(half > 0)) return fail(t, n, "fromto", "the two points coincide");
        for (int i = 0; i < 3; i++) g->pos[i] = 0.5 * (ft[i] + ft[3 + i]);
        qz2vec(g->q, d);
      } else if (ns < 2) {
        return fail(t, n, "size", "a %s needs a radius and a half length", ty);
      }
      g->size[0] = size[0];
      g->size[1] = 2 * half; /* simc: the full length */
      break;
    }
    case 4:
    case 6:
      if (ns < 3) return fail(t, n, "size", "a %s needs 3 sizes", ty);
      if (has_ft) return fail(t, n, "fromto", "not supported for a %s", ty);
      g->type = mt == 4 ? SC_GEOM_ELLIPSOID : SC_GEOM_BOX;
      memcpy(g->size, size, sizeof size);
      break;
    case 7: {
      const char* m = attr_d(t, n, K_GEOM, c, "mesh");
      if (!m) return fail(t, n, "mesh", "a mesh geom names its mesh");
      g->type = SC_GEOM_MESH;
      g->mesh_file = m; /* resolved against the assets by the caller */
      break;
    }
    default:
      unsupported(t, n, "geom type hfield");
      g->type = -1;
      return SC_OK;
  }
  for (int i = 0; i < 3 && g->type != SC_GEOM_PLANE && g->type != SC_GEOM_MESH; i++)
    if (g->size[i] < 0 || (i == 0 && !(g->size[0] > 0)))
      return fail(t, n, "size", "sizes must be > 0");
  /* friction: the sliding coefficient; condim 1 is frictionless */
  double fr[3] = {1, 0.005, 0.0001};
  int nf;
  TRY(get_vec_n(t, n, K_GEOM, c, "friction", fr, 1, 3, &nf));
  g->mu = fr[0];
  const char* cd = attr_d(t, n, K_GEOM, c, "condim");
  if (cd && strcmp(cd, "1") == 0) g->mu = 0;
  else if (cd && strcmp(cd, "3") != 0) unsupported(t, n, "condim 4 or 6 (torsional and rolling friction)");
  TRY(get_mask(t, n, c, "contype", &g->contype));
  TRY(get_mask(t, n, c, "conaffinity", &g->conaffinity));
  if (attr_d(t, n, K_GEOM, c, "solref") || attr_d(t, n, K_GEOM, c, "solimp")) unsupported(t, n, "solref/solimp");
  if (attr_d(t, n, K_GEOM, c, "margin") || attr_d(t, n, K_GEOM, c, "gap")) unsupported(t, n, "geom margin/gap");
  /* mass: given, else density x volume (MuJoCo's mjCGeom::GetVolume) */
  double V = 0, r = g->size[0], L = g->size[1];
  switch (g->type) {
    case SC_GEOM_SPHERE: V = 4 * MJ_PI * r * r * r / 3; break;
    case SC_GEOM_CAPSULE: V = MJ_PI * (r * r * L + 4 * r * r * r / 3); break;
    case SC_GEOM_CYLINDER: V = MJ_PI * r * r * L; break;
    case SC_GEOM_ELLIPSOID: V = 4 * MJ_PI * g->size[0] * g->size[1] * g->size[2] / 3; break;
    case SC_GEOM_BOX: V = 8 * g->size[0] * g->size[1] * g->size[2]; break;
    default: break;
  }
  double density = 1000, mass;
  int has_mass;
  TRY(get_vec(t, n, K_GEOM, c, "density", &density, 1, NULL));
  TRY(get_vec(t, n, K_GEOM, c, "mass", &mass, 1, &has_mass));
  g->mass = has_mass ? mass : density * V;
  g->density = density;
  g->has_mass = has_mass;
  /* diagonal inertia (MuJoCo's mjCGeom::SetInertia, volume) */
  const double m = g->mass, a = g->size[0], b = g->size[1], cc = g->size[2];
  switch (g->type) {
    case SC_GEOM_SPHERE: g->I[0] = g->I[1] = g->I[2] = 2 * m * r * r / 5; break;
    case SC_GEOM_CAPSULE: {
      double ms = m * 4 * r / (4 * r + 3 * L), mc = m - ms;
      g->I[0] = g->I[1] = mc * (3 * r * r + L * L) / 12 + 2 * ms * r * r / 5 + ms * L * (3 * r + 2 * L) / 8;
      g->I[2] = mc * r * r / 2 + 2 * ms * r * r / 5;
      break;
    }
    case SC_GEOM_CYLINDER:
      g->I[0] = g->I[1] = m * (3 * r * r + L * L) / 12;
      g->I[2] = m * r * r / 2;
      break;
    case SC_GEOM_ELLIPSOID:
      g->I[0] = m * (b * b + cc * cc) / 5, g->I[1] = m * (a * a + cc * cc) / 5, g->I[2] = m * (a * a + b * b) / 5;
      break;
    case SC_GEOM_BOX:
      g->I[0] = m * (b * b + cc * cc) / 3, g->I[1] = m * (a * a + cc * cc) / 3, g->I[2] = m * (a * a + b * b) / 3;
      break;
    default: g->I[0] = g->I[1] = g->I[2] = 0; break;
  }
  return SC_OK;
}

/* the masks when not the default 1 (a model without them translates as before) */
static void put_masks(obuf* o, const geom* g) {
  if (g->contype != 1) put(o, ", contype: %lu", g->contype);
  if (g->conaffinity != 1) put(o, ", conaffinity: %lu", g->conaffinity);
}

static void put_geom(obuf* o, const char* indent, const geom* g, const double off[3]) {
  double p[3] = {g->pos[0] + off[0], g->pos[1] + off[1], g->pos[2] + off[2]};
  switch (g->type) {
    case SC_GEOM_SPHERE: put(o, "%s- {shape: sphere, radius: %.17g", indent, g->size[0]); break;
    case SC_GEOM_CAPSULE: put(o, "%s- {shape: capsule, radius: %.17g, length: %.17g", indent, g->size[0], g->size[1]); break;
    case SC_GEOM_CYLINDER: put(o, "%s- {shape: cylinder, radius: %.17g, length: %.17g", indent, g->size[0], g->size[1]); break;
    case SC_GEOM_ELLIPSOID:
      put(o, "%s- {shape: ellipsoid, radii: [%.17g, %.17g, %.17g]", indent, g->size[0], g->size[1], g->size[2]);
      break;
    case SC_GEOM_BOX:
      put(o, "%s- {shape: box, size: [%.17g, %.17g, %.17g]", indent, 2 * g->size[0], 2 * g->size[1], 2 * g->size[2]);
      break;
    case SC_GEOM_MESH:
      put(o, "%s- {shape: mesh, file: \"%s\", scale: [%.17g, %.17g, %.17g]", indent, g->mesh_file, g->mesh_scale[0],
          g->mesh_scale[1], g->mesh_scale[2]);
      break;
    default: return;
  }
  put(o, ", friction: %.17g", g->mu);
  put_masks(o, g);
  put(o, ", pose: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}}\n", p[0], p[1], p[2],
      g->q[0], g->q[1], g->q[2], g->q[3]);
}

/* ---- joints and bodies ---- */

static int jname_add(tr* t, const char* name) {
  if (t->njn == t->capjn) {
    int cap = t->capjn ? 2 * t->capjn : 64;
    char** p = sc_calloc((size_t)cap, sizeof *p);
    if (!p) return -1;
    if (t->njn) memcpy(p, t->jname, sizeof *p * (size_t)t->njn);
    sc_free(t->jname);
    t->jname = p;
    t->capjn = cap;
  }
  t->jname[t->njn] = sc_strdup(name);
  return t->jname[t->njn] ? t->njn++ : -1;
}
static int jname_find(const tr* t, const char* name) {
  for (int i = 0; i < t->njn; i++)
    if (strcmp(t->jname[i], name) == 0) return i;
  return -1;
}

/* a name safe in YAML flow context (MuJoCo names are identifiers in practice) */
static sc_status check_name(tr* t, const xmlNode* n, const char* name) {
  return sc_rd_name_ok(name) ? SC_OK
                             : fail(t, n, "name", "'%s': simc keeps names of letters, digits and _ - . : only", name);
}

/* A mesh geom's mass properties, as MuJoCo's compiler takes them for a
 * body's inertia: the solid the mesh bounds (its hull when it is not closed,
 * see mesh.h) of the geom's density (or its given mass), placed at the
 * mesh's centroid.  The mesh is read here and again by the scene loader:
 * the translation must state the body's inertia, the loader the shape. */
static sc_status mesh_inertia(tr* t, const xmlNode* n, geom* g) {
  sc_mesh me;
  memset(&me, 0, sizeof me);
  sc_error e;
  sc_error_clear(&e);
  if (sc_mesh_read(g->mesh_file, g->mesh_scale, &me, &e) != SC_OK) {
    if (e.code == SC_ERR_NOMEM) return SC_ERR_NOMEM;
    char why[1100];
    sc_error_format(&e, why, sizeof why);
    return fail(t, n, NULL, "the inertia of mesh geom '%s': %s", g->mesh_file, why);
  }
  if (!g->has_mass) g->mass = g->density * me.volume;
  const double per = me.volume > 0 ? g->mass / me.volume : 0; /* the solid's density */
  memcpy(g->cm, me.centroid, sizeof g->cm);
  for (int k = 0; k < 9; k++) g->Im[k] = per * me.inertia[k];
  sc_mesh_free(&me);
  return SC_OK;
}

static sc_status mesh_asset(tr* t, const xmlNode* at, const char* name, geom* g) {
  for (int i = 0; i < t->ntop; i++) {
    if (strcmp(xname(t->top[i]), "asset") != 0) continue;
    for (xmlNode* a = t->top[i]->children; a; a = a->next) {
      if (a->type != XML_ELEMENT_NODE || strcmp(xname(a), "mesh") != 0) continue;
      const char* f = xattr(a, "file");
      const char* nm = xattr(a, "name");
      char base[256] = "";
      if (f && !nm) { /* MuJoCo names an unnamed mesh by its file's base name */
        const char* s = strrchr(f, '/');
        snprintf(base, sizeof base, "%s", s ? s + 1 : f);
        char* dot = strrchr(base, '.');
        if (dot) *dot = '\0';
        nm = base;
      }
      if (!nm || strcmp(nm, name) != 0) continue;
      if (!f) return fail(t, a, "file", "required (a mesh from vertex lists is not supported)");
      double sc[3] = {1, 1, 1};
      TRY(get_vec(t, a, K_MESH, 0, "scale", sc, 3, NULL));
      memcpy(g->mesh_scale, sc, sizeof sc);
      char rel[1024];
      snprintf(rel, sizeof rel, "%s%s%s", t->meshdir, t->meshdir[0] ? "/" : "", f);
      if (t->nstr == (int)(sizeof t->strs / sizeof t->strs[0])) return fail(t, a, NULL, "too many mesh geoms");
      char* p = abs_path(sc_rd_path_beside(doc_file(a), rel));
      if (!p) return SC_ERR_NOMEM;
      t->strs[t->nstr++] = p;
      g->mesh_file = p;
      return SC_OK;
    }
  }
  return fail(t, at, "mesh", "no mesh asset named '%s'", name);
}

typedef struct jin {
  const xmlNode* node;
  int type; /* SC_JOINT_* */
  char name[128];
  double axis[3], anchor[3];
  int limited, has_range;
  double range[2], stiffness, springref, damping, armature, frictionloss;
  double ref; /* the joint value of the model as written (MuJoCo's qpos0) */
} jin;

static sc_status read_joint(tr* t, xmlNode* n, int c, jin* j, const char* bname, int idx) {
  memset(j, 0, sizeof *j);
  j->node = n;
  int isfree = strcmp(xname(n), "freejoint") == 0;
  const char* ty = isfree ? "free" : attr_d(t, n, K_JOINT, c, "type");
  if (!ty) ty = "hinge";
  if (strcmp(ty, "hinge") == 0)
    j->type = SC_JOINT_REVOLUTE;
  else if (strcmp(ty, "slide") == 0)
    j->type = SC_JOINT_PRISMATIC;
  else if (strcmp(ty, "ball") == 0)
    j->type = SC_JOINT_BALL;
  else if (strcmp(ty, "free") == 0)
    j->type = SC_JOINT_FREE;
  else
    return fail(t, n, "type", "unknown joint type '%s' (expected hinge, slide, ball or free)", ty);
  const char* nm = xattr(n, "name");
  if (nm) {
    TRY(check_name(t, n, nm));
    snprintf(j->name, sizeof j->name, "%s", nm);
  } else {
    snprintf(j->name, sizeof j->name, "%.100s_joint%d", bname, idx);
  }
  j->axis[2] = 1;
  if (isfree) return SC_OK;
  TRY(get_vec(t, n, K_JOINT, c, "axis", j->axis, 3, NULL));
  if (!(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2] > 0))
    return fail(t, n, "axis", "zero axis");
  sc_sp_normalize3(j->axis);
  TRY(get_vec(t, n, K_JOINT, c, "pos", j->anchor, 3, NULL));
  TRY(get_vec(t, n, K_JOINT, c, "range", j->range, 2, &j->has_range));
  j->limited = j->has_range; /* autolimits */
  const char* lim = attr_d(t, n, K_JOINT, c, "limited");
  if (lim && strcmp(lim, "auto") != 0) TRY(get_bool(t, n, K_JOINT, c, "limited", &j->limited));
  if (j->limited && !j->has_range) return fail(t, n, "range", "limited needs a range");
  if (j->limited) {
    if (!(j->range[0] < j->range[1])) return fail(t, n, "range", "lower must be below upper (got %g, %g)", j->range[0], j->range[1]);
    if (j->type == SC_JOINT_REVOLUTE && t->degree)
      for (int i = 0; i < 2; i++) j->range[i] *= MJ_PI / 180;
    if (j->type == SC_JOINT_BALL) unsupported(t, n, "ball joint range");
  }
  TRY(get_vec(t, n, K_JOINT, c, "stiffness", &j->stiffness, 1, NULL));
  TRY(get_vec(t, n, K_JOINT, c, "springref", &j->springref, 1, NULL));
  if (j->type == SC_JOINT_REVOLUTE && t->degree) j->springref *= MJ_PI / 180;
  TRY(get_vec(t, n, K_JOINT, c, "damping", &j->damping, 1, NULL));
  TRY(get_vec(t, n, K_JOINT, c, "armature", &j->armature, 1, NULL));
  TRY(get_vec(t, n, K_JOINT, c, "frictionloss", &j->frictionloss, 1, NULL));
  TRY(get_vec(t, n, K_JOINT, c, "ref", &j->ref, 1, NULL));
  if (j->type == SC_JOINT_REVOLUTE && t->degree) j->ref *= MJ_PI / 180;
  if (!isfinite(j->ref)) return fail(t, n, "ref", "must be finite");
  if (j->stiffness < 0 || j->damping < 0 || j->armature < 0 || j->frictionloss < 0)
    return fail(t, n, NULL, "stiffness, damping, armature and frictionloss must be >= 0");
  if (attr_d(t, n, K_JOINT, c, "solreflimit") || attr_d(t, n, K_JOINT, c, "solimplimit"))
    unsupported(t, n, "solref/solimp");
  if (j->stiffness > 0 && j->type == SC_JOINT_BALL) unsupported(t, n, "ball joint stiffness");
  return SC_OK;
}

static const char* const joint_yaml[] = {"fixed", "revolute", "prismatic", "planar", "ball", "free"};

static sc_status body(tr* t, xmlNode* n, const char* parent, int inh, int depth, int is_world) {
  if (depth > 200) return fail(t, n, NULL, "bodies nested deeper than 200");
  sc_status st;
  int cc = inh; /* the class for this body's children */
  const char* childclass = xattr(n, "childclass");
  if (childclass) {
    cc = find_class(t, childclass);
    if (cc < 0) return fail(t, n, "childclass", "unknown class '%s'", childclass);
  }
  char name[128];
  if (!is_world) {
    const char* nm = xattr(n, "name");
    if (nm) {
      TRY(check_name(t, n, nm));
      snprintf(name, sizeof name, "%s", nm);
    } else {
      snprintf(name, sizeof name, "body%d", ++t->nbody_auto);
    }
  }
  double pos[3], q[4];
  TRY(frame(t, n, -1, -1, pos, q));
  /* geoms, joints, inertial */
  geom gs[256];
  int ng = 0;
  jin js[16];
  int nj = 0;
  const xmlNode* inertial = NULL;
  for (xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    const char* e = xname(c);
    if (strcmp(e, "geom") == 0) {
      if (ng == 256) return fail(t, c, NULL, "more than 256 geoms in a body");
      int k = class_of(t, c, cc, &st);
      TRY(st);
      TRY(read_geom(t, c, k, &gs[ng], is_world));
      if (gs[ng].type == SC_GEOM_MESH) TRY(mesh_asset(t, c, gs[ng].mesh_file, &gs[ng]));
      if (gs[ng].type >= 0) ng++;
    } else if (strcmp(e, "joint") == 0 || strcmp(e, "freejoint") == 0) {
      if (is_world) return fail(t, c, NULL, "the worldbody has no joints");
      if (nj == 16) return fail(t, c, NULL, "more than 16 joints in a body");
      int k = class_of(t, c, cc, &st);
      TRY(st);
      TRY(read_joint(t, c, k, &js[nj], name, nj));
      if (js[nj].type == SC_JOINT_FREE && (strcmp(parent, "world") != 0 || nj > 0))
        return fail(t, c, NULL, "a free joint must be the only joint of a body in the worldbody");
      nj++;
    } else if (strcmp(e, "inertial") == 0) {
      inertial = c;
    } else if (strcmp(e, "site") == 0 || strcmp(e, "camera") == 0 || strcmp(e, "light") == 0 ||
               strcmp(e, "body") == 0 || strcmp(e, "frame") == 0) {
      if (strcmp(e, "frame") == 0) unsupported(t, c, "frame");
    } else if (strcmp(e, "composite") == 0 || strcmp(e, "flexcomp") == 0 || strcmp(e, "replicate") == 0) {
      unsupported(t, c, e);
    } else {
      return fail(t, c, NULL, "unknown element in a body");
    }
  }
  if (is_world) {
    for (int i = 0; i < ng; i++) {
      geom* g = &gs[i];
      if (g->type == SC_GEOM_PLANE) {
        double z[3] = {0, 0, 1}, nrm[3];
        qrot(nrm, g->q, z);
        put(&t->stat, "  - {shape: plane, normal: [%.17g, %.17g, %.17g], offset: %.17g, friction: %.17g", nrm[0],
            nrm[1], nrm[2], sc_sp_dot3(nrm, g->pos), g->mu);
        put_masks(&t->stat, g);
        put(&t->stat, "}\n");
      } else {
        const double zero[3] = {0, 0, 0};
        put_geom(&t->stat, "  ", g, zero);
      }
    }
  } else {
    /* mass, centre of mass and inertia: <inertial>, else the geoms' */
    double M = 0, com[3] = {0, 0, 0}, I[9] = {0};
    int from_geoms = t->inertiafromgeom == 2 || (t->inertiafromgeom == 1 && !inertial);
    if (from_geoms) {
      /* each geom's mass centre in the body frame: its origin, or a mesh's
       * centroid */
      double gc[sizeof gs / sizeof gs[0]][3];
      for (int i = 0; i < ng; i++) {
        geom* g = &gs[i];
        memcpy(gc[i], g->pos, sizeof gc[i]);
        if (g->type != SC_GEOM_MESH) continue;
        TRY(mesh_inertia(t, n, g));
        double w[3];
        qrot(w, g->q, g->cm);
        sc_sp_add3(gc[i], g->pos, w);
      }
      for (int i = 0; i < ng; i++) {
        if (gs[i].type == SC_GEOM_PLANE) continue;
        M += gs[i].mass;
        for (int k = 0; k < 3; k++) com[k] += gs[i].mass * gc[i][k];
      }
      if (M > 0)
        for (int k = 0; k < 3; k++) com[k] /= M;
      for (int i = 0; i < ng; i++) {
        const geom* g = &gs[i];
        if (g->type == SC_GEOM_PLANE) continue;
        double R[9], D[9] = {g->I[0], 0, 0, 0, g->I[1], 0, 0, 0, g->I[2]}, RD[9], RDR[9], d[3];
        if (g->type == SC_GEOM_MESH) memcpy(D, g->Im, sizeof D);
        sc_sp_quat_to_mat3(R, g->q);
        sc_sp_mat3_mul(RD, R, D);
        sc_sp_mat3_mulT(RDR, RD, R);
        sc_sp_sub3(d, gc[i], com);
        double dd = sc_sp_dot3(d, d);
        for (int a = 0; a < 3; a++)
          for (int b = 0; b < 3; b++) I[3 * a + b] += RDR[3 * a + b] + g->mass * ((a == b ? dd : 0) - d[a] * d[b]);
      }
    } else if (inertial) {
      double ip[3], iq[4], di[3] = {0, 0, 0}, fi[6];
      int has_d, has_f;
      TRY(frame(t, inertial, -1, -1, ip, iq));
      if (!xattr(inertial, "mass")) return fail(t, inertial, "mass", "required");
      TRY(get_vec(t, inertial, -1, -1, "mass", &M, 1, NULL));
      TRY(get_vec(t, inertial, -1, -1, "diaginertia", di, 3, &has_d));
      TRY(get_vec(t, inertial, -1, -1, "fullinertia", fi, 6, &has_f));
      if (has_d == has_f) return fail(t, inertial, NULL, "give one of diaginertia and fullinertia");
      double Il[9] = {di[0], 0, 0, 0, di[1], 0, 0, 0, di[2]};
      if (has_f) {
        double F[9] = {fi[0], fi[3], fi[4], fi[3], fi[1], fi[5], fi[4], fi[5], fi[2]};
        memcpy(Il, F, sizeof F);
      }
      double R[9], RI[9];
      sc_sp_quat_to_mat3(R, iq);
      sc_sp_mat3_mul(RI, R, Il);
      sc_sp_mat3_mulT(I, RI, R);
      memcpy(com, ip, sizeof com);
    }
    int nchild = 0;
    for (xmlNode* c = n->children; c; c = c->next)
      nchild += c->type == XML_ELEMENT_NODE && strcmp(xname(c), "body") == 0;
    if (nj > 0 && !(M > 0) && nchild == 0)
      return fail(t, n, NULL, "a moving body needs mass: it has joints but no geoms with volume, no "
                              "<inertial> and no child bodies");
    /* the joints: massless links, then the body fixed to the last */
    const char* prev = parent;
    double at[3] = {0, 0, 0}; /* the previous link's anchor in the body frame */
    for (int i = 0; i < nj; i++) {
      jin* j = &js[i];
      if (jname_find(t, j->name) >= 0) return fail(t, j->node, "name", "joint name '%s' used twice", j->name);
      if (jname_add(t, j->name) < 0) return SC_ERR_NOMEM;
      put(&t->bodies, "  - name: %s\n    parent: %s\n    mass: 0\n", j->name, prev);
      if (j->type == SC_JOINT_FREE) {
        put(&t->bodies, "    joint: {type: free}\n");
        put(&t->bodies, "    initial: {q: [%.17g, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g]}\n", pos[0], pos[1],
            pos[2], q[0], q[1], q[2], q[3]);
      } else {
        double o[3], oq[4] = {1, 0, 0, 0};
        if (i == 0) {
          double w[3];
          qrot(w, q, j->anchor);
          for (int k = 0; k < 3; k++) o[k] = pos[k] + w[k];
          memcpy(oq, q, sizeof oq);
        } else {
          for (int k = 0; k < 3; k++) o[k] = j->anchor[k] - at[k];
        }
        /* ref: MuJoCo moves a hinge or slide by q - ref, so that the model as
         * written is q = ref (qpos0).  The joint frame turned by -ref about
         * the axis (or moved by -ref along it) gives the same motion with
         * simc's q equal to MuJoCo's, its ranges and spring rest unchanged;
         * the run starts at q = ref. */
        if (j->ref != 0 && j->type == SC_JOINT_REVOLUTE) {
          const double h = -0.5 * j->ref, sh = sin(h);
          const double r[4] = {cos(h), sh * j->axis[0], sh * j->axis[1], sh * j->axis[2]};
          double oq2[4];
          sc_sp_quat_mul(oq2, oq, r);
          memcpy(oq, oq2, sizeof oq);
        } else if (j->ref != 0 && j->type == SC_JOINT_PRISMATIC) {
          double d[3] = {-j->ref * j->axis[0], -j->ref * j->axis[1], -j->ref * j->axis[2]}, w[3];
          qrot(w, oq, d);
          sc_sp_add3(o, o, w);
        }
        put(&t->bodies,
            "    joint: {type: %s, origin: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}",
            joint_yaml[j->type], o[0], o[1], o[2], oq[0], oq[1], oq[2], oq[3]);
        if (j->type != SC_JOINT_BALL) put(&t->bodies, ", axis: [%.17g, %.17g, %.17g]", j->axis[0], j->axis[1], j->axis[2]);
        if (j->limited && j->type != SC_JOINT_BALL) put(&t->bodies, ", limits: [%.17g, %.17g]", j->range[0], j->range[1]);
        if (j->damping > 0) put(&t->bodies, ", damping: %.17g", j->damping);
        if (j->armature > 0) put(&t->bodies, ", armature: %.17g", j->armature);
        if (j->frictionloss > 0) put(&t->bodies, ", friction: %.17g", j->frictionloss);
        put(&t->bodies, "}\n");
        if (j->ref != 0 && (j->type == SC_JOINT_REVOLUTE || j->type == SC_JOINT_PRISMATIC))
          put(&t->bodies, "    initial: {q: [%.17g]}\n", j->ref);
        memcpy(at, j->anchor, sizeof at);
        if (j->stiffness > 0)
          put(&t->springs, "  - {type: joint, joint: %s, stiffness: %.17g, rest: %.17g}\n", j->name, j->stiffness,
              j->springref);
      }
      prev = j->name;
    }
    put(&t->bodies, "  - name: %s\n    parent: %s\n", name, prev);
    if (nj == 0) {
      put(&t->bodies, "    joint: {type: fixed, origin: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}}\n",
          pos[0], pos[1], pos[2], q[0], q[1], q[2], q[3]);
    } else {
      put(&t->bodies, "    joint: {type: fixed, origin: {position: [%.17g, %.17g, %.17g]}}\n", -at[0], -at[1], -at[2]);
    }
    if (M > 0) {
      put(&t->bodies, "    mass: %.17g\n    com: [%.17g, %.17g, %.17g]\n", M, com[0], com[1], com[2]);
      put(&t->bodies, "    inertia: {ixx: %.17g, iyy: %.17g, izz: %.17g, ixy: %.17g, ixz: %.17g, iyz: %.17g}\n", I[0],
          I[4], I[8], I[1], I[2], I[5]);
    }
    int ncol = 0;
    for (int i = 0; i < ng; i++) ncol += gs[i].type != SC_GEOM_PLANE;
    if (ncol) {
      put(&t->bodies, "    geometry:\n");
      const double zero[3] = {0, 0, 0};
      for (int i = 0; i < ng; i++) put_geom(&t->bodies, "      ", &gs[i], zero);
    }
  }
  for (xmlNode* c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && strcmp(xname(c), "body") == 0)
      TRY(body(t, c, is_world ? "world" : name, cc, depth + 1, 0));
  return SC_OK;
}

/* ---- actuators ---- */

static sc_status actuators(tr* t, xmlNode* a, int* count) {
  int idx = *count;
  for (xmlNode* n = a->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    const char* e = xname(n);
    int k = strcmp(e, "motor") == 0 ? K_MOTOR : strcmp(e, "position") == 0 ? K_POSITION
                                           : strcmp(e, "velocity") == 0   ? K_VELOCITY
                                                                          : -1;
    if (k < 0) {
      unsupported(t, n, e);
      continue;
    }
    sc_status st;
    int c = class_of(t, n, 0, &st);
    TRY(st);
    const char* j = xattr(n, "joint");
    if (!j) {
      unsupported(t, n, "actuator transmission other than a joint");
      continue;
    }
    if (jname_find(t, j) < 0) return fail(t, n, "joint", "unknown joint '%s'", j);
    char name[128];
    const char* nm = xattr(n, "name");
    if (nm) {
      TRY(check_name(t, n, nm));
      snprintf(name, sizeof name, "%s", nm);
    } else {
      snprintf(name, sizeof name, "actuator%d", idx);
    }
    idx++;
    double gear = 1, cr[2], fr[2], kp = 1, kv = 1;
    int has_cr = 0, has_fr = 0, cl = -1, fl = -1;
    double g6[6];
    int ngear;
    TRY(get_vec_n(t, n, k, c, "gear", g6, 1, 6, &ngear));
    if (ngear) gear = g6[0];
    TRY(get_vec(t, n, k, c, "ctrlrange", cr, 2, &has_cr));
    TRY(get_vec(t, n, k, c, "forcerange", fr, 2, &has_fr));
    const char* s;
    if ((s = attr_d(t, n, k, c, "ctrllimited")) && strcmp(s, "auto") != 0) {
      cl = 0;
      TRY(get_bool(t, n, k, c, "ctrllimited", &cl));
    }
    if ((s = attr_d(t, n, k, c, "forcelimited")) && strcmp(s, "auto") != 0) {
      fl = 0;
      TRY(get_bool(t, n, k, c, "forcelimited", &fl));
    }
    if (cl < 0) cl = has_cr;
    if (fl < 0) fl = has_fr;
    double lo = -INFINITY, hi = INFINITY;
    if (k == K_MOTOR && cl) {
      lo = fmin(gear * cr[0], gear * cr[1]);
      hi = fmax(gear * cr[0], gear * cr[1]);
    }
    if (fl) {
      lo = fmax(lo, fr[0]);
      hi = fmin(hi, fr[1]);
    }
    if (k == K_POSITION) TRY(get_vec(t, n, k, c, "kp", &kp, 1, NULL));
    if (k == K_VELOCITY) TRY(get_vec(t, n, k, c, "kv", &kv, 1, NULL));
    if (k != K_MOTOR && gear != 1) unsupported(t, n, "servo gear other than 1");
    put(&t->acts, "  - {name: %s, type: %s, joint: %s", name, k == K_MOTOR ? "motor" : k == K_POSITION ? "position" : "velocity", j);
    if (k == K_MOTOR) put(&t->acts, ", gear: %.17g", gear);
    if (k == K_POSITION) put(&t->acts, ", kp: %.17g", kp);
    if (k == K_VELOCITY) put(&t->acts, ", kd: %.17g", kv);
    if (isfinite(lo) || isfinite(hi)) {
      put(&t->acts, ", effort: [");
      put(&t->acts, isfinite(lo) ? "%.17g, " : "null, ", lo);
      put(&t->acts, isfinite(hi) ? "%.17g]" : "null]", hi);
    }
    put(&t->acts, "}\n");
  }
  *count = idx;
  return SC_OK;
}

/* the model's name as a scene name (letters and digits; others become _) */
static void set_model_name(tr* t, const char* name) {
  snprintf(t->model_name, sizeof t->model_name, "%s", name);
  for (char* p = t->model_name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) *p = '_';
}

/* what was not translated, once per kind with its first place: refused */
static sc_status refuse_unsupported(tr* t, const xmlNode* root) {
  char list[1600] = "";
  size_t o = 0;
  for (int i = 0; i < t->nun && o < sizeof list; i++) {
    int w = snprintf(list + o, sizeof list - o, "%s%s (first at %s)", i ? "; " : "", t->un[i].what, t->un[i].where);
    if (w > 0) o += (size_t)w;
  }
  return sc_error_set(t->err, SC_ERR_SCENE, doc_file(root), (int)xmlGetLineNo(root), 0,
                      "the model uses what simc does not translate: %s; run with --allow-unsupported to "
                      "ignore them",
                      list);
}

/* ---- contact filtering ---- */

/* 1 when a <body> below n is named name */
static int has_body(const xmlNode* n, const char* name) {
  for (const xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || strcmp(xname(c), "body") != 0) continue;
    const char* nm = xattr(c, "name");
    if ((nm && strcmp(nm, name) == 0) || has_body(c, name)) return 1;
  }
  return 0;
}

/* attribute a of <exclude> e: world or the name of a body of the model,
 * which is the name of its simc body (its joints' links carry the joints'
 * names and hold no geometry) */
static sc_status exclude_body(tr* t, const xmlNode* e, const char* a, const char** out) {
  const char* v = xattr(e, a);
  if (!v) return fail(t, e, a, "required (the name of a body)");
  *out = v;
  if (strcmp(v, "world") == 0) return SC_OK;
  for (int i = 0; i < t->ntop; i++)
    if (strcmp(xname(t->top[i]), "worldbody") == 0 && has_body(t->top[i], v)) return SC_OK;
  return fail(t, e, a, "no body named '%s'", v);
}

/* <contact>: each <exclude body1 body2> an excluded pair of the scene;
 * explicit <pair>s are reported */
static sc_status contact(tr* t, const xmlNode* n) {
  for (const xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    if (strcmp(xname(c), "exclude") != 0) {
      unsupported(t, c, strcmp(xname(c), "pair") == 0 ? "contact pair" : xname(c));
      continue;
    }
    const char *b1, *b2;
    TRY(exclude_body(t, c, "body1", &b1));
    TRY(exclude_body(t, c, "body2", &b2));
    if (strcmp(b1, b2) == 0) return fail(t, c, "body2", "the same body as body1 ('%s')", b2);
    put(&t->excl, "  - [%s, %s]\n", b1, b2);
  }
  return SC_OK;
}

/* ---- the whole model ---- */

static sc_status translate(tr* t, xmlNode* root) {
  TRY(collect(t, root, 0));
  const char* mn = xattr(root, "model");
  set_model_name(t, mn ? mn : "mjcf");
  /* compiler, option, defaults first (MuJoCo reads them wherever they are) */
  t->degree = 1;
  t->inertiafromgeom = 1;
  snprintf(t->eulerseq, sizeof t->eulerseq, "xyz");
  t->timestep = 0.002;
  t->gravity[0] = t->gravity[1] = 0, t->gravity[2] = -9.81;
  for (int i = 0; i < t->ntop; i++) {
    xmlNode* n = t->top[i];
    const char* e = xname(n);
    if (strcmp(e, "compiler") == 0) {
      const char* a = xattr(n, "angle");
      if (a && strcmp(a, "degree") != 0 && strcmp(a, "radian") != 0) return fail(t, n, "angle", "expected degree or radian");
      if (a) t->degree = strcmp(a, "degree") == 0;
      if ((a = xattr(n, "eulerseq"))) {
        if (strlen(a) != 3) return fail(t, n, "eulerseq", "expected 3 of x y z X Y Z");
        for (int k = 0; k < 3; k++)
          if (!strchr("xyzXYZ", a[k])) return fail(t, n, "eulerseq", "expected 3 of x y z X Y Z");
        snprintf(t->eulerseq, sizeof t->eulerseq, "%s", a);
      }
      if ((a = xattr(n, "inertiafromgeom")))
        t->inertiafromgeom = strcmp(a, "true") == 0 ? 2 : strcmp(a, "false") == 0 ? 0 : 1;
      if ((a = xattr(n, "meshdir"))) snprintf(t->meshdir, sizeof t->meshdir, "%s", a);
      if (xattr(n, "coordinate") && strcmp(xattr(n, "coordinate"), "local") != 0) unsupported(t, n, "coordinate global");
    } else if (strcmp(e, "option") == 0) {
      TRY(get_vec(t, n, -1, -1, "timestep", &t->timestep, 1, NULL));
      if (!(t->timestep > 0)) return fail(t, n, "timestep", "must be > 0");
      TRY(get_vec(t, n, -1, -1, "gravity", t->gravity, 3, NULL));
      for (xmlNode* c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp(xname(c), "flag") == 0) unsupported(t, c, "option flag");
    } else if (strcmp(e, "default") == 0) {
      TRY(read_default(t, n, -1));
    }
  }
  if (t->ncls == 0) {
    memset(&t->cls[0], 0, sizeof t->cls[0]);
    t->cls[0].name = "main";
    t->cls[0].parent = -1;
    t->ncls = 1;
  }
  int nworld = 0;
  for (int i = 0; i < t->ntop; i++) {
    xmlNode* n = t->top[i];
    const char* e = xname(n);
    if (strcmp(e, "worldbody") == 0) {
      nworld++;
      TRY(body(t, n, "world", 0, 0, 1));
    } else if (strcmp(e, "compiler") == 0 || strcmp(e, "option") == 0 || strcmp(e, "default") == 0 ||
               strcmp(e, "asset") == 0 || strcmp(e, "visual") == 0 || strcmp(e, "statistic") == 0 ||
               strcmp(e, "size") == 0 || strcmp(e, "sensor") == 0 || strcmp(e, "keyframe") == 0 ||
               strcmp(e, "actuator") == 0) {
      continue;
    } else if (strcmp(e, "contact") == 0) {
      TRY(contact(t, n));
    } else if (strcmp(e, "tendon") == 0 || strcmp(e, "equality") == 0 || strcmp(e, "extension") == 0 ||
               strcmp(e, "custom") == 0) {
      unsupported(t, n, e);
    } else {
      return fail(t, n, NULL, "unknown top-level element");
    }
  }
  if (!nworld) return sc_error_set(t->err, SC_ERR_SCENE, doc_file(root), (int)xmlGetLineNo(root), 0,
                                   "element <mujoco>: no <worldbody>");
  int nact = 0; /* unnamed actuators are numbered across every <actuator> */
  for (int i = 0; i < t->ntop; i++)
    if (strcmp(xname(t->top[i]), "actuator") == 0) TRY(actuators(t, t->top[i], &nact));
  return SC_OK;
}


/* ---- URDF ---- */

/* origin xyz rpy (URDF: R = Rz(y) Ry(p) Rx(r), as simc's rpy) as a position
 * and quaternion */
static sc_status urdf_origin(tr* t, const xmlNode* parent, double pos[3], double q[4]) {
  pos[0] = pos[1] = pos[2] = 0;
  q[0] = 1, q[1] = q[2] = q[3] = 0;
  for (const xmlNode* c = parent->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || strcmp(xname(c), "origin") != 0) continue;
    double rpy[3] = {0, 0, 0}, R[9];
    TRY(get_vec(t, c, -1, -1, "xyz", pos, 3, NULL));
    TRY(get_vec(t, c, -1, -1, "rpy", rpy, 3, NULL));
    sc_sp_rpy_to_mat3(R, rpy);
    sc_sp_mat3_to_quat(q, R);
  }
  return SC_OK;
}

static const xmlNode* child_el(const xmlNode* n, const char* name) {
  for (const xmlNode* c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && strcmp(xname(c), name) == 0) return c;
  return NULL;
}

/* a package:// or relative mesh file name as a path */
static sc_status urdf_mesh_path(tr* t, const xmlNode* m, const char* fn, const char* model_path, const char** out) {
  char buf[1024];
  if (strncmp(fn, "package://", 10) == 0) {
    if (!model_path) return fail(t, m, "filename", "'%s' needs --model-path DIR (DIR/<package>/<path>)", fn);
    snprintf(buf, sizeof buf, "%s/%s", model_path, fn + 10);
  } else if (strncmp(fn, "file://", 7) == 0) {
    snprintf(buf, sizeof buf, "%s", fn + 7);
  } else {
    snprintf(buf, sizeof buf, "%s", fn);
  }
  if (t->nstr == (int)(sizeof t->strs / sizeof t->strs[0])) return fail(t, m, NULL, "too many meshes");
  /* a package:// path is in --model-path's DIR, which is relative to the
   * working directory; another relative path is relative to the URDF */
  const int pkg = strncmp(fn, "package://", 10) == 0;
  char* p = abs_path(buf[0] == '/' || pkg ? sc_strdup(buf) : sc_rd_path_beside(doc_file(m), buf));
  if (!p) return SC_ERR_NOMEM;
  t->strs[t->nstr++] = p;
  *out = p;
  return SC_OK;
}

static sc_status urdf_link(tr* t, const xmlNode* L, const char* name, const char* parent, const double pos[3],
                           const double q[4], const char* model_path) {
  put(&t->bodies, "  - name: %s\n    parent: %s\n", name, parent);
  put(&t->bodies, "    joint: {type: fixed, origin: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}}\n",
      pos[0], pos[1], pos[2], q[0], q[1], q[2], q[3]);
  const xmlNode* in = child_el(L, "inertial");
  if (in) {
    double ip[3], iq[4], m = 0, I6[6] = {0};
    TRY(urdf_origin(t, in, ip, iq));
    const xmlNode* mm = child_el(in, "mass");
    const xmlNode* ii = child_el(in, "inertia");
    if (!mm || !xattr(mm, "value")) return fail(t, in, NULL, "needs <mass value>");
    if (!ii) return fail(t, in, NULL, "needs <inertia>");
    TRY(get_vec(t, mm, -1, -1, "value", &m, 1, NULL));
    const char* keys[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
    for (int k = 0; k < 6; k++) TRY(get_vec(t, ii, -1, -1, keys[k], &I6[k], 1, NULL));
    if (!(m >= 0)) return fail(t, mm, "value", "must be >= 0");
    double Il[9] = {I6[0], I6[3], I6[4], I6[3], I6[1], I6[5], I6[4], I6[5], I6[2]}, R[9], RI[9], I[9];
    sc_sp_quat_to_mat3(R, iq);
    sc_sp_mat3_mul(RI, R, Il);
    sc_sp_mat3_mulT(I, RI, R);
    put(&t->bodies, "    mass: %.17g\n    com: [%.17g, %.17g, %.17g]\n", m, ip[0], ip[1], ip[2]);
    if (m > 0)
      put(&t->bodies, "    inertia: {ixx: %.17g, iyy: %.17g, izz: %.17g, ixy: %.17g, ixz: %.17g, iyz: %.17g}\n", I[0],
          I[4], I[8], I[1], I[2], I[5]);
  }
  int ng = 0;
  for (const xmlNode* c = L->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || strcmp(xname(c), "collision") != 0) continue;
    const xmlNode* g = child_el(c, "geometry");
    const xmlNode* s = g ? g->children : NULL;
    while (s && s->type != XML_ELEMENT_NODE) s = s->next;
    if (!s) return fail(t, c, NULL, "needs a <geometry> with a shape");
    geom G;
    memset(&G, 0, sizeof G);
    TRY(urdf_origin(t, c, G.pos, G.q));
    G.mu = 1;
    const char* e = xname(s);
    if (strcmp(e, "box") == 0) {
      double sz[3];
      if (!xattr(s, "size")) return fail(t, s, "size", "required");
      TRY(get_vec(t, s, -1, -1, "size", sz, 3, NULL));
      G.type = SC_GEOM_BOX;
      for (int k = 0; k < 3; k++) G.size[k] = 0.5 * sz[k];
    } else if (strcmp(e, "cylinder") == 0 || strcmp(e, "sphere") == 0) {
      if (!xattr(s, "radius")) return fail(t, s, "radius", "required");
      TRY(get_vec(t, s, -1, -1, "radius", &G.size[0], 1, NULL));
      G.type = SC_GEOM_SPHERE;
      if (e[0] == 'c') {
        if (!xattr(s, "length")) return fail(t, s, "length", "required");
        TRY(get_vec(t, s, -1, -1, "length", &G.size[1], 1, NULL));
        G.type = SC_GEOM_CYLINDER;
      }
    } else if (strcmp(e, "mesh") == 0) {
      const char* fn = xattr(s, "filename");
      if (!fn) return fail(t, s, "filename", "required");
      G.type = SC_GEOM_MESH;
      G.mesh_scale[0] = G.mesh_scale[1] = G.mesh_scale[2] = 1;
      TRY(get_vec(t, s, -1, -1, "scale", G.mesh_scale, 3, NULL));
      TRY(urdf_mesh_path(t, s, fn, model_path, &G.mesh_file));
    } else {
      return fail(t, s, NULL, "unknown geometry (expected box, cylinder, sphere or mesh)");
    }
    for (int k = 0; k < 3 && G.type != SC_GEOM_MESH; k++)
      if (G.size[k] < 0 || !(G.size[0] > 0)) return fail(t, s, NULL, "sizes must be > 0");
    if (!ng++) put(&t->bodies, "    geometry:\n");
    const double zero[3] = {0, 0, 0};
    put_geom(&t->bodies, "      ", &G, zero);
  }
  return SC_OK;
}

static sc_status translate_urdf(tr* t, xmlNode* root, int floating, const char* model_path) {
  TRY(count_elements(t, root->children));
  const char* mn = xattr(root, "name");
  set_model_name(t, mn ? mn : "urdf");
  t->timestep = 0.001;
  t->gravity[0] = t->gravity[1] = 0, t->gravity[2] = -9.81;
  /* links and joints by name */
  enum { MAXL = 4096 };
  static _Thread_local const xmlNode* links[MAXL];
  static _Thread_local const xmlNode* joints[MAXL];
  int nl = 0, nj = 0;
  for (xmlNode* n = root->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    const char* e = xname(n);
    if (strcmp(e, "link") == 0 || strcmp(e, "joint") == 0) {
      const char* nm = xattr(n, "name");
      if (!nm) return fail(t, n, "name", "required");
      TRY(check_name(t, n, nm));
      if (e[0] == 'l') {
        if (nl == MAXL) return fail(t, n, NULL, "more than %d links", MAXL);
        for (int i = 0; i < nl; i++)
          if (strcmp(xattr(links[i], "name"), nm) == 0) return fail(t, n, "name", "link '%s' defined twice", nm);
        links[nl++] = n;
      } else {
        if (nj == MAXL) return fail(t, n, NULL, "more than %d joints", MAXL);
        joints[nj++] = n;
      }
    } else if (strcmp(e, "transmission") == 0 || strcmp(e, "gazebo") == 0 || strcmp(e, "material") == 0) {
      continue;
    } else {
      unsupported(t, n, e);
    }
  }
  if (!nl) return fail(t, root, NULL, "no <link>");
  int parent_of[MAXL], child_joint[MAXL];
  for (int i = 0; i < nl; i++) parent_of[i] = -1, child_joint[i] = -1;
  for (int j = 0; j < nj; j++) {
    const xmlNode* J = joints[j];
    const xmlNode* pe = child_el(J, "parent");
    const xmlNode* ce = child_el(J, "child");
    if (!pe || !xattr(pe, "link")) return fail(t, J, NULL, "needs <parent link>");
    if (!ce || !xattr(ce, "link")) return fail(t, J, NULL, "needs <child link>");
    int p = -1, c = -1;
    for (int i = 0; i < nl; i++) {
      if (strcmp(xattr(links[i], "name"), xattr(pe, "link")) == 0) p = i;
      if (strcmp(xattr(links[i], "name"), xattr(ce, "link")) == 0) c = i;
    }
    if (p < 0) return fail(t, pe, "link", "no link named '%s'", xattr(pe, "link"));
    if (c < 0) return fail(t, ce, "link", "no link named '%s'", xattr(ce, "link"));
    if (child_joint[c] >= 0) return fail(t, ce, "link", "link '%s' is the child of two joints", xattr(ce, "link"));
    parent_of[c] = p;
    child_joint[c] = j;
  }
  int nroot = 0, rootl = -1;
  for (int i = 0; i < nl; i++)
    if (parent_of[i] < 0) nroot++, rootl = i;
  if (nroot != 1) return fail(t, root, NULL, "expected one root link (a link no joint has as its child), found %d", nroot);
  /* the root: fixed to the world, or free */
  const double zero[3] = {0, 0, 0}, one[4] = {1, 0, 0, 0};
  const char* rname = xattr(links[rootl], "name");
  if (floating) {
    char fj[160];
    snprintf(fj, sizeof fj, "%.120s_float", rname);
    put(&t->bodies, "  - name: %s\n    parent: world\n    mass: 0\n    joint: {type: free}\n", fj);
    TRY(urdf_link(t, links[rootl], rname, fj, zero, one, model_path));
  } else {
    TRY(urdf_link(t, links[rootl], rname, "world", zero, one, model_path));
  }
  /* the others, each after its parent (simc reads parents by name, in any
   * order; this keeps q in the file's joint order along each branch) */
  for (int j = 0; j < nj; j++) {
    const xmlNode* J = joints[j];
    int c = -1;
    for (int i = 0; i < nl; i++)
      if (child_joint[i] == j) c = i;
    const char* jn = xattr(J, "name");
    const char* ty = xattr(J, "type");
    if (!ty) return fail(t, J, "type", "required");
    double pos[3], q[4];
    TRY(urdf_origin(t, J, pos, q));
    const char* pl = xattr(links[parent_of[c]], "name");
    const char* cl = xattr(links[c], "name");
    if (strcmp(ty, "fixed") == 0) {
      TRY(urdf_link(t, links[c], cl, pl, pos, q, model_path));
      continue;
    }
    int type = strcmp(ty, "revolute") == 0 || strcmp(ty, "continuous") == 0 ? SC_JOINT_REVOLUTE
               : strcmp(ty, "prismatic") == 0                                ? SC_JOINT_PRISMATIC
               : strcmp(ty, "floating") == 0                                 ? SC_JOINT_FREE
               : strcmp(ty, "planar") == 0                                   ? SC_JOINT_PLANAR
                                                                             : -1;
    if (type < 0) return fail(t, J, "type", "unknown joint type '%s'", ty);
    double axis[3] = {1, 0, 0};
    const xmlNode* ax = child_el(J, "axis");
    if (ax) TRY(get_vec(t, ax, -1, -1, "xyz", axis, 3, NULL));
    if (!(sc_sp_normalize3(axis) > 0)) return fail(t, ax, "xyz", "zero axis");
    if (type == SC_JOINT_PLANAR && !(axis[0] == 0 && axis[1] == 0)) unsupported(t, J, "planar joint with a normal other than z");
    if (jname_find(t, jn) >= 0) return fail(t, J, "name", "joint name '%s' used twice", jn);
    if (jname_add(t, jn) < 0) return SC_ERR_NOMEM;
    put(&t->bodies, "  - name: %s\n    parent: %s\n    mass: 0\n", jn, pl);
    put(&t->bodies, "    joint: {type: %s, origin: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}",
        joint_yaml[type], pos[0], pos[1], pos[2], q[0], q[1], q[2], q[3]);
    if (type == SC_JOINT_REVOLUTE || type == SC_JOINT_PRISMATIC)
      put(&t->bodies, ", axis: [%.17g, %.17g, %.17g]", axis[0], axis[1], axis[2]);
    const xmlNode* lim = child_el(J, "limit");
    if (lim && strcmp(ty, "continuous") != 0 && type != SC_JOINT_FREE && type != SC_JOINT_PLANAR) {
      double lo = 0, hi = 0;
      TRY(get_vec(t, lim, -1, -1, "lower", &lo, 1, NULL));
      TRY(get_vec(t, lim, -1, -1, "upper", &hi, 1, NULL));
      if (!(lo < hi)) return fail(t, lim, NULL, "lower must be below upper (got %g, %g)", lo, hi);
      put(&t->bodies, ", limits: [%.17g, %.17g]", lo, hi);
    }
    const xmlNode* dy = child_el(J, "dynamics");
    if (dy) {
      double damp = 0, fr = 0;
      TRY(get_vec(t, dy, -1, -1, "damping", &damp, 1, NULL));
      TRY(get_vec(t, dy, -1, -1, "friction", &fr, 1, NULL));
      if (damp < 0 || fr < 0) return fail(t, dy, NULL, "damping and friction must be >= 0");
      if (damp > 0) put(&t->bodies, ", damping: %.17g", damp);
      if (fr > 0) put(&t->bodies, ", friction: %.17g", fr);
    }
    put(&t->bodies, "}\n");
    TRY(urdf_link(t, links[c], cl, jn, zero, one, model_path));
  }
  return SC_OK;
}

int sc_mjcf_is_xml(const char* text, size_t len) {
  size_t i = 0;
  if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
    i = 3;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
  return i < len && text[i] == '<';
}

sc_status sc_mjcf_translate(const char* path, const char* text, size_t len, const sc_import_opts* o,
                            char** yaml, size_t* ylen, char** ignored, sc_error* err) {
  *yaml = NULL;
  *ylen = 0;
  if (ignored) *ignored = NULL;
  xmlSetGenericErrorFunc(NULL, silent);
  tr* t = sc_calloc(1, sizeof *t);
  if (!t) return sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory");
  t->err = err;
  xmlDoc* d;
  sc_status st = parse(t, path, text, len, NULL, &d);
  xmlNode* root = st ? NULL : xmlDocGetRootElement(d);
  const int urdf = root && strcmp(xname(root), "robot") == 0;
  if (!st && (!root || (strcmp(xname(root), "mujoco") != 0 && !urdf)))
    st = sc_error_set(err, SC_ERR_SCENE, path, root ? (int)xmlGetLineNo(root) : 1, 0,
                      "the root element is <%s> (expected <mujoco>, an MJCF model, or <robot>, a URDF)",
                      root ? xname(root) : "none");
  if (!st) st = urdf ? translate_urdf(t, root, o->floating_base, o->model_path) : translate(t, root);
  if (!st && t->nun && !o->allow_unsupported) st = refuse_unsupported(t, root);
  obuf out = {0}, ign = {0};
  /* the same list as the comments below, for the model and its output (a
   * comment does not survive the scene's re-emission) */
  for (int i = 0; !st && ignored && i < t->nun; i++) put(&ign, "%s (first at %s)\n", t->un[i].what, t->un[i].where);
  if (ign.oom) st = SC_ERR_NOMEM;
  if (!st) {
    put(&out, "# translated by simc from the %s model %s\n", urdf ? "URDF" : "MJCF", path);
    for (int i = 0; i < t->nun; i++) put(&out, "# ignored: %s (first at %s)\n", t->un[i].what, t->un[i].where);
    put(&out, "simc: 1\nname: %s\n", t->model_name);
    put(&out, "gravity: [%.17g, %.17g, %.17g]\n", t->gravity[0], t->gravity[1], t->gravity[2]);
    put(&out, "time: {step: %.17g, duration: 1.0}\n", t->timestep);
    if (t->bodies.n) put(&out, "bodies:\n%.*s", (int)t->bodies.n, t->bodies.p);
    if (t->stat.n) put(&out, "static:\n%.*s", (int)t->stat.n, t->stat.p);
    if (t->springs.n) put(&out, "springs:\n%.*s", (int)t->springs.n, t->springs.p);
    if (t->acts.n) put(&out, "actuators:\n%.*s", (int)t->acts.n, t->acts.p);
    if (t->excl.n) put(&out, "exclude:\n%.*s", (int)t->excl.n, t->excl.p);
    if (t->bodies.oom || t->stat.oom || t->springs.oom || t->acts.oom || t->excl.oom || out.oom) st = SC_ERR_NOMEM;
    if (!st && out.n > (size_t)SC_SCENE_MAX_BYTES)
      st = sc_error_set(err, SC_ERR_SCENE, path, 1, 0, "the translated scene is too large (%zu bytes)", out.n);
  }
  if (st == SC_ERR_NOMEM) sc_error_set(err, st, path, 0, 0, "out of memory translating the model");
  sc_free(t->bodies.p);
  sc_free(t->stat.p);
  sc_free(t->springs.p);
  sc_free(t->acts.p);
  sc_free(t->excl.p);
  for (int i = 0; i < t->njn; i++) sc_free(t->jname[i]);
  sc_free(t->jname);
  for (int i = 0; i < t->nstr; i++) sc_free(t->strs[i]);
  for (int i = 0; i < t->ndoc; i++) xmlFreeDoc(t->doc[i]);
  sc_free(t);
  if (st) {
    sc_free(out.p);
    sc_free(ign.p);
    return st;
  }
  *yaml = out.p;
  *ylen = out.n;
  if (ignored) *ignored = ign.p;
  return SC_OK;
}
