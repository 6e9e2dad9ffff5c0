/* mjcf_composite: MuJoCo 2.2.2's <composite> expanded into the ordinary MJCF
 * it stands for (bodies, joints, geoms, sites, tendons, equality
 * constraints, contact excludes), in the document tree, before the
 * translator reads the bodies; mjcf.c then translates them as any others.
 *
 * The expansion is MuJoCo's compiler's (mjCComposite, user_composite.cc),
 * read for its results, so that body, joint, geom, site and tendon names,
 * the bodies' tree and order, their frames and the constraints are
 * MuJoCo's: a MuJoCo body named B3_4 is simc's body B3_4 at the same place
 * (test_mjcf compares every body's position at qpos0).
 *
 * MuJoCo builds a composite's elements from its own defaults, not the
 * model's classes: the generated elements take a class of their own,
 * COMPOSITE_CLASS, with no parent, so no <default> of the model reaches
 * them and what the composite's <geom>, <joint>, <tendon> do not give is
 * MuJoCo's built-in default.  The composite's <skin> is visual (reported as
 * having no effect in the translation's note); its equality constraints are
 * MuJoCo's soft ones (solreffix, solrefsmooth), which simc holds near-rigid,
 * listed as approximated by the equality translation like any other. */
#include <libxml/tree.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"
#include "scene/xml_import.h"

#define PI 3.14159265358979323846

enum { C_PARTICLE, C_GRID, C_ROPE, C_LOOP, C_CLOTH, C_BOX, C_CYLINDER, C_ELLIPSOID, NCTYPE };
static const char* const ctypes[NCTYPE] = {"particle", "grid", "rope", "loop", "cloth", "box", "cylinder", "ellipsoid"};
/* element kinds: MuJoCo's joint main, twist, stretch; tendon main, shear */
enum { K_MAIN, K_TWIST, K_STRETCH, K_TMAIN, K_SHEAR, NCK };

typedef struct comp {
  tr* t;
  xmlNode* node; /* the <composite> */
  xmlNode* host; /* its body */
  int type, count[3], dim;
  double spacing, offset[3], flatinertia;
  char prefix[128];
  const xmlNode* geom; /* the composite's <geom>, <site> */
  const xmlNode* kind[NCK]; /* its <joint kind> and <tendon kind> */
  int pin[2 * 256], npin;
  /* the geom's type and size, what the expansion needs of them */
  int gtype; /* 0 sphere, 1 capsule, 2 ellipsoid */
  double gsize[3];
  xmlNode *ten, *eq, *contact; /* the sections the expansion adds to */
} comp;

/* ---- building elements ---- */

/* a new element <name> under parent (under the host: before the
 * composite, where MuJoCo adds its bodies among the host's), located at
 * the composite */
static xmlNode* add_el(comp* c, xmlNode* parent, const char* name) {
  xmlNode* n = xmlNewDocNode(c->node->doc, NULL, (const xmlChar*)name, NULL);
  if (!n) return NULL;
  n->line = c->node->line;
  xmlNode* r = parent == c->host ? xmlAddPrevSibling(c->node, n) : xmlAddChild(parent, n);
  if (!r) xmlFreeNode(n);
  return r;
}

static int set(xmlNode* n, const char* a, const char* fmt, ...) {
  char v[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v, sizeof v, fmt, ap);
  va_end(ap);
  return xmlSetProp(n, (const xmlChar*)a, (const xmlChar*)v) ? 0 : -1;
}

static int setv(xmlNode* n, const char* a, const double* x, int k) {
  char v[512];
  size_t o = 0;
  for (int i = 0; i < k; i++) o += (size_t)snprintf(v + o, sizeof v - o, "%s%.17g", i ? " " : "", x[i]);
  return xmlSetProp(n, (const xmlChar*)a, (const xmlChar*)v) ? 0 : -1;
}

/* attributes of src (the composite's child) copied to n */
static int copy_attrs(xmlNode* n, const xmlNode* src, const char* const* names) {
  for (int i = 0; src && names[i]; i++) {
    const char* v = xi_attr(src, names[i]);
    if (v && !xmlSetProp(n, (const xmlChar*)names[i], (const xmlChar*)v)) return -1;
  }
  return 0;
}

static const char* const GEOM_COPY[] = {"type", "contype", "conaffinity", "condim", "priority", "size", "friction",
                                        "mass", "density", "solmix", "solref", "solimp", "margin", "gap", NULL};
static const char* const JOINT_COPY[] = {"stiffness", "damping", "armature", "limited", "range", "margin",
                                         "solreflimit", "solimplimit", "frictionloss", NULL};
static const char* const TENDON_COPY[] = {"stiffness", "damping", "limited", "range", "margin",
                                          "solreflimit", "solimplimit", "frictionloss", NULL};

/* a geom of the composite's, named, at pos with quat (NULL: none given) */
static xmlNode* add_geom(comp* c, xmlNode* body, const char* name, const double pos[3], const double* quat) {
  xmlNode* g = add_el(c, body, "geom");
  if (!g || set(g, "class", "%s", COMPOSITE_CLASS)) return NULL;
  if (name && set(g, "name", "%s", name)) return NULL;
  /* MuJoCo's type-specific defaults come before the composite's geom */
  if (c->type == C_PARTICLE && (set(g, "condim", "1") || set(g, "priority", "1"))) return NULL;
  if (c->type >= C_BOX && set(g, "contype", "0")) return NULL;
  if (copy_attrs(g, c->geom, GEOM_COPY)) return NULL;
  if (setv(g, "pos", pos, 3)) return NULL;
  if (quat && setv(g, "quat", quat, 4)) return NULL;
  return g;
}

static xmlNode* add_site(comp* c, xmlNode* body, const char* name) {
  xmlNode* s = add_el(c, body, "site");
  const double z[3] = {0, 0, 0};
  if (!s || set(s, "class", "%s", COMPOSITE_CLASS) || set(s, "name", "%s", name) || setv(s, "pos", z, 3)) return NULL;
  return s;
}

/* a joint of kind k: hinge or slide, at pos along axis */
static xmlNode* add_joint(comp* c, xmlNode* body, int k, const char* name, int slide, const double pos[3],
                          const double axis[3]) {
  xmlNode* j = add_el(c, body, "joint");
  if (!j || set(j, "class", "%s", COMPOSITE_CLASS)) return NULL;
  if (name && set(j, "name", "%s", name)) return NULL;
  if (set(j, "type", slide ? "slide" : "hinge") || setv(j, "pos", pos, 3) || setv(j, "axis", axis, 3)) return NULL;
  if (copy_attrs(j, c->kind[k], JOINT_COPY)) return NULL;
  return j;
}

static int lazy_section(comp* c, xmlNode** sec, const char* name);

/* an equality element of kind k (its solreffix and solimpfix) */
static xmlNode* add_eq(comp* c, int k, const char* type) {
  if (lazy_section(c, &c->eq, "equality")) return NULL;
  xmlNode* e = add_el(c, c->eq, type);
  if (!e || set(e, "class", "%s", COMPOSITE_CLASS)) return NULL;
  const xmlNode* src = k >= 0 ? c->kind[k] : NULL;
  const char* v;
  if (src && (v = xi_attr(src, "solreffix")) && set(e, "solref", "%s", v)) return NULL;
  if (src && (v = xi_attr(src, "solimpfix")) && set(e, "solimp", "%s", v)) return NULL;
  return e;
}

/* a spatial tendon of kind k between two sites, held at its length by a
 * tendon equality (MuJoCo's grid and cloth) */
static int add_site_tendon(comp* c, int k, const char* name, const char* s1, const char* s2) {
  if (lazy_section(c, &c->ten, "tendon")) return -1;
  xmlNode* tn = add_el(c, c->ten, "spatial");
  if (!tn || set(tn, "class", "%s", COMPOSITE_CLASS) || set(tn, "name", "%s", name)) return -1;
  if (copy_attrs(tn, c->kind[k], TENDON_COPY)) return -1;
  xmlNode* a = add_el(c, tn, "site");
  xmlNode* b = add_el(c, tn, "site");
  if (!a || !b || set(a, "site", "%s", s1) || set(b, "site", "%s", s2)) return -1;
  xmlNode* e = add_eq(c, k, "tendon");
  return !e || set(e, "tendon1", "%s", name) ? -1 : 0;
}

/* a joint held at 0 (its qpos0) by a joint equality of kind k */
static int fix_joint(comp* c, int k, const char* joint) {
  xmlNode* e = add_eq(c, k, "joint");
  return !e || set(e, "joint1", "%s", joint) ? -1 : 0;
}

/* ---- the types ---- */

static sc_status nomem(comp* c) { return sc_error_set(c->t->err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory expanding a composite"); }

static sc_status particle(comp* c) {
  for (int ix = 0; ix < c->count[0]; ix++)
    for (int iy = 0; iy < c->count[1]; iy++)
      for (int iz = 0; iz < c->count[2]; iz++) {
        xmlNode* b = add_el(c, c->host, "body");
        const int ii[3] = {ix, iy, iz};
        double p[3];
        for (int d = 0; d < 3; d++) p[d] = c->offset[d] + c->spacing * (ii[d] - 0.5 * c->count[d]);
        if (!b || setv(b, "pos", p, 3)) return nomem(c);
        const double z[3] = {0, 0, 0};
        for (int d = 0; d < 3; d++) {
          double ax[3] = {0, 0, 0};
          ax[d] = 1;
          if (!add_joint(c, b, K_MAIN, NULL, 1, z, ax)) return nomem(c);
        }
        xmlNode* g = add_geom(c, b, NULL, z, NULL);
        if (!g || set(g, "type", "sphere")) return nomem(c);
      }
  return SC_OK;
}

static void shear(comp* c, int* bad) {
  char n[300], s1[300], s2[300];
  for (int ix = 0; ix < c->count[0] - 1; ix++)
    for (int iy = 0; iy < c->count[1] - 1; iy++) {
      snprintf(s1, sizeof s1, "%sS%d_%d", c->prefix, ix, iy);
      snprintf(s2, sizeof s2, "%sS%d_%d", c->prefix, ix + 1, iy + 1);
      snprintf(n, sizeof n, "%sTS%d_%d", c->prefix, ix, iy);
      *bad |= add_site_tendon(c, K_SHEAR, n, s1, s2);
    }
}

static sc_status grid(comp* c) {
  if (c->dim > 2) return xi_fail(c->t, c->node, "count", "Grid can only be 1D or 2D");
  if (c->kind[K_SHEAR] && c->dim != 2) return xi_fail(c->t, c->node, NULL, "Shear requires 2D grid");
  char n[300], s1[300], s2[300];
  const double z[3] = {0, 0, 0};
  for (int ix = 0; ix < c->count[0]; ix++)
    for (int iy = 0; iy < c->count[1]; iy++) {
      xmlNode* b = add_el(c, c->host, "body");
      const double p[3] = {c->offset[0] + c->spacing * (ix - 0.5 * c->count[0]),
                           c->offset[1] + c->spacing * (iy - 0.5 * c->count[1]), c->offset[2]};
      snprintf(n, sizeof n, "%sB%d_%d", c->prefix, ix, iy);
      if (!b || set(b, "name", "%s", n) || setv(b, "pos", p, 3)) return nomem(c);
      snprintf(n, sizeof n, "%sG%d_%d", c->prefix, ix, iy);
      xmlNode* g = add_geom(c, b, n, z, NULL);
      if (!g || set(g, "type", "sphere")) return nomem(c);
      snprintf(n, sizeof n, "%sS%d_%d", c->prefix, ix, iy);
      if (!add_site(c, b, n)) return nomem(c);
      int pinned = 0;
      for (int k = 0; k < c->npin; k += 2) pinned |= c->pin[k] == ix && c->pin[k + 1] == iy;
      if (pinned) continue;
      for (int d = 0; d < 3; d++) {
        double ax[3] = {0, 0, 0};
        ax[d] = 1;
        snprintf(n, sizeof n, "%sJ%d_%d_%d", c->prefix, d, ix, iy);
        if (!add_joint(c, b, K_MAIN, n, 1, z, ax)) return nomem(c);
      }
    }
  int bad = 0;
  for (int i = 0; i < 2; i++)
    for (int ix = 0; ix < c->count[0] - (i == 0); ix++)
      for (int iy = 0; iy < c->count[1] - (i == 1); iy++) {
        snprintf(s1, sizeof s1, "%sS%d_%d", c->prefix, ix, iy);
        snprintf(s2, sizeof s2, "%sS%d_%d", c->prefix, ix + (i == 0), iy + (i == 1));
        snprintf(n, sizeof n, "%sT%d_%d_%d", c->prefix, i, ix, iy);
        bad |= add_site_tendon(c, K_TMAIN, n, s1, s2);
      }
  if (c->kind[K_SHEAR]) shear(c, &bad);
  return bad ? nomem(c) : SC_OK;
}

/* the twist and stretch joints of a rope or cloth element, each held at 0 */
static int extra_joints(comp* c, xmlNode* b, const double pos[3], const double axis[3], const char* suffix) {
  char n[300];
  if (c->kind[K_TWIST]) {
    snprintf(n, sizeof n, "%sJT%s", c->prefix, suffix);
    if (!add_joint(c, b, K_TWIST, n, 0, pos, axis) || fix_joint(c, K_TWIST, n)) return -1;
  }
  if (c->kind[K_STRETCH]) {
    snprintf(n, sizeof n, "%sJS%s", c->prefix, suffix);
    if (!add_joint(c, b, K_STRETCH, n, 1, pos, axis) || fix_joint(c, K_STRETCH, n)) return -1;
  }
  return 0;
}

static xmlNode* rope_body(comp* c, xmlNode* body, int ix, int ix1) {
  char n[300], sfx[64];
  const int root = ix == ix1;
  const double dx = c->spacing * (ix1 - ix);
  if (!root) {
    body = add_el(c, body, "body");
    snprintf(n, sizeof n, "%sB%d", c->prefix, ix1);
    if (!body || set(body, "name", "%s", n)) return NULL;
    double p[3] = {dx, 0, 0}, q[4] = {1, 0, 0, 0};
    if (c->type == C_LOOP) {
      const double alpha = 2 * PI / c->count[0];
      const double R = 0.5 * c->spacing * sin(PI - alpha) / sin(0.5 * alpha);
      const double s = ix1 > ix ? 1 : -1;
      p[0] = s * R * cos(0.5 * alpha), p[1] = R * sin(0.5 * alpha);
      q[0] = cos(0.5 * alpha), q[3] = s * sin(0.5 * alpha);
    }
    if (setv(body, "pos", p, 3) || (c->type == C_LOOP && setv(body, "quat", q, 4))) return NULL;
  }
  const double z[3] = {0, 0, 0}, gq[4] = {sqrt(0.5), 0, sqrt(0.5), 0};
  snprintf(n, sizeof n, "%sG%d", c->prefix, ix1);
  if (!add_geom(c, body, n, z, gq)) return NULL;
  if (root) return body;
  const double jp[3] = {-0.5 * dx, 0, 0};
  for (int i = 0; i < 2; i++) {
    double ax[3] = {0, 0, 0};
    ax[i + 1] = 1;
    snprintf(n, sizeof n, "%sJ%d_%d", c->prefix, i, ix1);
    if (!add_joint(c, body, K_MAIN, n, 0, jp, ax)) return NULL;
  }
  const double ax[3] = {1, 0, 0};
  snprintf(sfx, sizeof sfx, "%d", ix1);
  return extra_joints(c, body, jp, ax, sfx) ? NULL : body;
}

/* the host's name: <prefix>B<x> (rope, loop) or <prefix>B<x>_<y> (cloth),
 * the element the chain grows from */
static sc_status origin(comp* c, int two, int* ox, int* oy) {
  char pre[160];
  snprintf(pre, sizeof pre, "%sB", c->prefix);
  const char* hn = xi_attr(c->host, "name");
  if (!hn || strncmp(hn, pre, strlen(pre)) != 0)
    return xi_fail(c->t, c->node, NULL, "%s must be the beginning of root body name", pre);
  const char* s = hn + strlen(pre);
  char ch = 0;
  if (two ? sscanf(s, "%d%c%d", ox, &ch, oy) != 3 || ch != '_' : sscanf(s, "%d", ox) != 1)
    return xi_fail(c->t, c->node, NULL, two ? "Root body name must contain X_Y coordinates"
                                            : "Root body name must contain X coordinate");
  if (*ox < 0 || *ox >= c->count[0] || (two && (*oy < 0 || *oy >= c->count[1])))
    return xi_fail(c->t, c->node, NULL, two ? "Root body coordinates out of range" : "Root body coordinate out of range");
  return SC_OK;
}

static sc_status rope(comp* c) {
  if (c->dim != 1) return xi_fail(c->t, c->node, "count", "Rope must be one-dimensional");
  int ox = 0, oy = 0;
  TRY(origin(c, 0, &ox, &oy));
  if (!rope_body(c, c->host, ox, ox)) return nomem(c);
  xmlNode* p = c->host;
  for (int ix = ox; ix < c->count[0] - 1; ix++)
    if (!(p = rope_body(c, p, ix, ix + 1))) return nomem(c);
  p = c->host;
  for (int ix = ox; ix > 0; ix--)
    if (!(p = rope_body(c, p, ix, ix - 1))) return nomem(c);
  if (c->type == C_LOOP) {
    /* the loop closed by a connect of its ends, which do not collide */
    char b0[300], b1[300];
    snprintf(b0, sizeof b0, "%sB0", c->prefix);
    snprintf(b1, sizeof b1, "%sB%d", c->prefix, c->count[0] - 1);
    xmlNode* e = add_eq(c, -1, "connect");
    const double a[3] = {-0.5 * c->spacing, 0, 0};
    if (!e || set(e, "body1", "%s", b0) || set(e, "body2", "%s", b1) || setv(e, "anchor", a, 3)) return nomem(c);
    const char* v;
    if ((v = xi_attr(c->node, "solrefsmooth")) && set(e, "solref", "%s", v)) return nomem(c);
    if ((v = xi_attr(c->node, "solimpsmooth")) && set(e, "solimp", "%s", v)) return nomem(c);
    if (lazy_section(c, &c->contact, "contact")) return nomem(c);
    xmlNode* x = add_el(c, c->contact, "exclude");
    if (!x || set(x, "body1", "%s", b0) || set(x, "body2", "%s", b1)) return nomem(c);
  }
  return SC_OK;
}

/* volume of the composite's geom (MuJoCo's GetVolume) */
static double geom_volume(const comp* c) {
  const double* s = c->gsize;
  if (c->gtype == 1) return PI * (s[0] * s[0] * 2 * s[1] + 4.0 / 3 * s[0] * s[0] * s[0]);
  if (c->gtype == 2) return 4.0 / 3 * PI * s[0] * s[1] * s[2];
  return 4.0 / 3 * PI * s[0] * s[0] * s[0];
}

static xmlNode* cloth_body(comp* c, xmlNode* body, int ix, int iy, int ix1, int iy1) {
  char n[300], sfx[64];
  const int root = ix == ix1 && iy == iy1;
  const double dx = c->spacing * (ix1 - ix), dy = c->spacing * (iy1 - iy);
  if (!root) {
    body = add_el(c, body, "body");
    snprintf(n, sizeof n, "%sB%d_%d", c->prefix, ix1, iy1);
    const double p[3] = {dx, dy, 0};
    if (!body || set(body, "name", "%s", n) || setv(body, "pos", p, 3)) return NULL;
  }
  const double z[3] = {0, 0, 0}, q1[4] = {sqrt(0.5), sqrt(0.5), 0, 0}, q2[4] = {0.5, 0.5, 0.5, 0.5};
  snprintf(n, sizeof n, "%sG%d_%d", c->prefix, ix1, iy1);
  if (!add_geom(c, body, n, z, (ix1 + iy1) % 2 ? q1 : q2)) return NULL;
  if (c->flatinertia > 0) {
    /* the element's mass with the inertia of a flat box of the spacing */
    double m = geom_volume(c) * 1000, v;
    const char* a;
    if (c->geom && (a = xi_attr(c->geom, "density")) && xi_numbers(a, &v, 1) == 1) m = geom_volume(c) * v;
    if (c->geom && (a = xi_attr(c->geom, "mass")) && xi_numbers(a, &v, 1) == 1) m = v;
    const double s[3] = {0.5 * c->spacing, 0.5 * c->spacing, 0.5 * c->spacing * c->flatinertia};
    const double I[3] = {m * (s[1] * s[1] + s[2] * s[2]) / 3, m * (s[0] * s[0] + s[2] * s[2]) / 3,
                         m * (s[0] * s[0] + s[1] * s[1]) / 3};
    xmlNode* in = add_el(c, body, "inertial");
    if (!in || setv(in, "pos", z, 3) || setv(in, "mass", &m, 1) || setv(in, "diaginertia", I, 3)) return NULL;
  }
  snprintf(n, sizeof n, "%sS%d_%d", c->prefix, ix1, iy1);
  if (!add_site(c, body, n)) return NULL;
  if (root) return body;
  const double jp[3] = {-dx, -dy, 0};
  for (int i = 0; i < 2; i++) {
    double ax[3] = {0, 0, 0};
    ax[ix != ix1 ? i + 1 : 2 * i] = 1;
    snprintf(n, sizeof n, "%sJ%d_%d_%d", c->prefix, i, ix1, iy1);
    if (!add_joint(c, body, K_MAIN, n, 0, jp, ax)) return NULL;
  }
  const double ax[3] = {ix != ix1 ? 1 : 0, ix != ix1 ? 0 : 1, 0};
  snprintf(sfx, sizeof sfx, "%d_%d", ix1, iy1);
  return extra_joints(c, body, jp, ax, sfx) ? NULL : body;
}

static sc_status cloth(comp* c) {
  if (c->dim != 2) return xi_fail(c->t, c->node, "count", "Cloth must be two-dimensional");
  int ox = 0, oy = 0;
  TRY(origin(c, 1, &ox, &oy));
  if (!cloth_body(c, c->host, ox, oy, ox, oy)) return nomem(c);
  /* MuJoCo's order: the origin's column both ways, then each column of the
   * row to +x, then to -x, each grown from the row's element */
  for (int i = -2; i <= 2; i += 2) {
    int ix = ox;
    xmlNode* px = c->host;
    for (;;) {
      int ix1 = ix;
      if (i == 0) ix1 = ix + 1 < c->count[0] - 1 ? ix + 1 : c->count[0] - 1;
      else if (i == 2) ix1 = ix - 1 > 0 ? ix - 1 : 0;
      if (i != -2) {
        if (ix1 == ix) break;
        if (!(px = cloth_body(c, px, ix, oy, ix1, oy))) return nomem(c);
        ix = ix1;
      }
      for (int j = 1; j <= 3; j += 2) {
        int iy = oy;
        xmlNode* py = px;
        for (;;) {
          const int iy1 = j == 1 ? (iy + 1 < c->count[1] - 1 ? iy + 1 : c->count[1] - 1) : (iy - 1 > 0 ? iy - 1 : 0);
          if (iy1 == iy) break;
          if (!(py = cloth_body(c, py, ix, iy, ix, iy1))) return nomem(c);
          iy = iy1;
        }
      }
      if (i == -2) break;
    }
  }
  int bad = 0;
  char n[300], s1[300], s2[300];
  for (int iy = 0; iy < c->count[1]; iy++) {
    if (iy == oy) continue;
    for (int ix = 0; ix < c->count[0] - 1; ix++) {
      snprintf(s1, sizeof s1, "%sS%d_%d", c->prefix, ix, iy);
      snprintf(s2, sizeof s2, "%sS%d_%d", c->prefix, ix + 1, iy);
      snprintf(n, sizeof n, "%sT%d_%d", c->prefix, ix, iy);
      bad |= add_site_tendon(c, K_TMAIN, n, s1, s2);
    }
  }
  if (c->kind[K_SHEAR]) shear(c, &bad);
  return bad ? nomem(c) : SC_OK;
}

/* a point of the cube [-1, 1]^3 onto the box, cylinder or ellipsoid */
static void box_project(const comp* c, double* p) {
  double size[3];
  for (int d = 0; d < 3; d++) size[d] = 0.5 * c->spacing * (c->count[d] - 1);
  if (c->type == C_CYLINDER) {
    const double L0 = fmax(fabs(p[0]), fabs(p[1])), r = sqrt(p[0] * p[0] + p[1] * p[1]);
    if (r > 0) p[0] /= r, p[1] /= r;
    p[0] *= size[0] * L0, p[1] *= size[1] * L0;
  } else if (c->type == C_ELLIPSOID) {
    const double r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    if (r > 0)
      for (int d = 0; d < 3; d++) p[d] /= r;
  }
  if (c->type != C_CYLINDER)
    for (int d = 0; d < 2; d++) p[d] *= size[d];
  p[2] *= size[2];
}

static int on_shell(const comp* c, int ix, int iy, int iz) {
  return ix == 0 || ix == c->count[0] - 1 || iy == 0 || iy == c->count[1] - 1 || iz == 0 || iz == c->count[2] - 1;
}

static sc_status box(comp* c) {
  if (c->dim != 3) return xi_fail(c->t, c->node, "count", "Box and ellipsoid must be three-dimensional");
  /* MuJoCo's soft body: each element's slide held at 0 by a soft joint
   * equality (solreffix, solimpfix), smoothed against its neighbours' and
   * their sum (the volume) held; simc's rows are near-rigid, so its body is
   * nearly rigid where MuJoCo's gives */
  xi_approximated(c->t, c->node, "composite box, cylinder or ellipsoid (MuJoCo's soft body: its slides' soft fixes "
                                 "and smoothing held near-rigid, the body nearly rigid)");
  char n[300], n2[300];
  const double z[3] = {0, 0, 0};
  snprintf(n, sizeof n, "%sGcenter", c->prefix);
  xmlNode* g = add_geom(c, c->host, n, z, NULL);
  const double s2 = 2 * c->gsize[0];
  if (!g || set(g, "type", "sphere") || setv(g, "size", &s2, 1)) return nomem(c);
  if (lazy_section(c, &c->ten, "tendon")) return nomem(c);
  xmlNode* ten = add_el(c, c->ten, "fixed");
  snprintf(n, sizeof n, "%sT", c->prefix);
  char tname[300];
  snprintf(tname, sizeof tname, "%s", n);
  if (!ten || set(ten, "class", "%s", COMPOSITE_CLASS) || set(ten, "name", "%s", n) ||
      copy_attrs(ten, c->kind[K_TMAIN], TENDON_COPY))
    return nomem(c);
  for (int ix = 0; ix < c->count[0]; ix++)
    for (int iy = 0; iy < c->count[1]; iy++)
      for (int iz = 0; iz < c->count[2]; iz++) {
        if (!on_shell(c, ix, iy, iz)) continue;
        xmlNode* b = add_el(c, c->host, "body");
        double p[3] = {2.0 * ix / (c->count[0] - 1) - 1, 2.0 * iy / (c->count[1] - 1) - 1,
                       2.0 * iz / (c->count[2] - 1) - 1};
        box_project(c, p);
        const double r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        const double za[3] = {p[0] / r, p[1] / r, p[2] / r};
        snprintf(n, sizeof n, "%sB%d_%d_%d", c->prefix, ix, iy, iz);
        if (!b || set(b, "name", "%s", n) || setv(b, "pos", p, 3) || setv(b, "zaxis", za, 3)) return nomem(c);
        snprintf(n, sizeof n, "%sG%d_%d_%d", c->prefix, ix, iy, iz);
        const double gp[3] = {0, 0, c->gtype == 1 ? -(c->gsize[0] + c->gsize[1]) : -c->gsize[0]};
        xmlNode* gg = add_geom(c, b, n, gp, NULL);
        if (!gg || (c->gtype != 1 && set(gg, "type", "sphere"))) return nomem(c);
        const double ax[3] = {0, 0, 1};
        snprintf(n, sizeof n, "%sJ%d_%d_%d", c->prefix, ix, iy, iz);
        if (!add_joint(c, b, K_MAIN, n, 1, z, ax) || fix_joint(c, K_MAIN, n)) return nomem(c);
        xmlNode* tj = add_el(c, ten, "joint");
        if (!tj || set(tj, "joint", "%s", n) || set(tj, "coef", "1")) return nomem(c);
        /* each element's slide coupled to its next neighbours' (MuJoCo's
         * smoothing) */
        for (int i = 0; i < 3; i++) {
          const int jx = ix + (i == 0) < c->count[0] - 1 ? ix + (i == 0) : c->count[0] - 1;
          const int jy = iy + (i == 1) < c->count[1] - 1 ? iy + (i == 1) : c->count[1] - 1;
          const int jz = iz + (i == 2) < c->count[2] - 1 ? iz + (i == 2) : c->count[2] - 1;
          if (!on_shell(c, jx, jy, jz) || (jx == ix && jy == iy && jz == iz)) continue;
          snprintf(n2, sizeof n2, "%sJ%d_%d_%d", c->prefix, jx, jy, jz);
          xmlNode* e = add_eq(c, -1, "joint");
          if (!e || set(e, "joint1", "%s", n) || set(e, "joint2", "%s", n2)) return nomem(c);
          const char* v;
          if ((v = xi_attr(c->node, "solrefsmooth")) && set(e, "solref", "%s", v)) return nomem(c);
          if ((v = xi_attr(c->node, "solimpsmooth")) && set(e, "solimp", "%s", v)) return nomem(c);
        }
      }
  xmlNode* e = add_eq(c, K_TMAIN, "tendon");
  if (!e || set(e, "tendon1", "%s", tname)) return nomem(c);
  return SC_OK;
}

/* ---- reading the composite ---- */

/* a section (<tendon>, <equality>, <contact>) for the expansion's
 * elements, placed right after the worldbody among the top-level elements:
 * where MuJoCo, which adds them as it reads the worldbody, numbers them */
static int lazy_section(comp* c, xmlNode** sec, const char* name) {
  /* (a section in another file, an include's, is not this one's: its
   * nodes would mix two documents) */
  if (*sec && (*sec)->doc == c->node->doc) return 0;
  tr* t = c->t;
  /* the top-level element (a worldbody) the composite is in */
  const xmlNode* top = c->node;
  while (top->parent && top->parent->type == XML_ELEMENT_NODE && top->parent->parent &&
         top->parent->parent->type == XML_ELEMENT_NODE)
    top = top->parent;
  int wb = -1;
  for (int i = 0; i < t->ntop && wb < 0; i++)
    if (t->top[i] == top) wb = i;
  if (wb < 0 || t->ntop == (int)(sizeof t->top / sizeof t->top[0])) return -1;
  /* after the worldbody and any sections the expansion placed there */
  int at = wb + 1;
  while (at < t->ntop && (t->top[at] == c->ten || t->top[at] == c->eq || t->top[at] == c->contact)) at++;
  xmlNode* n = xmlNewDocNode(c->node->doc, NULL, (const xmlChar*)name, NULL);
  if (!n) return -1;
  n->line = c->node->line;
  if (!xmlAddNextSibling(t->top[at - 1], n)) {
    xmlFreeNode(n);
    return -1;
  }
  memmove(t->top + at + 1, t->top + at, sizeof t->top[0] * (size_t)(t->ntop - at));
  t->top[at] = n;
  t->ntop++;
  *sec = n;
  return 0;
}

static sc_status get_nums(comp* c, const xmlNode* n, const char* a, double* out, int lo, int hi, int* got) {
  const char* v = xi_attr(n, a);
  *got = 0;
  if (!v) return SC_OK;
  double x[8];
  const int k = xi_numbers(v, x, 8);
  if (k < lo || k > hi) {
    if (lo == hi) return xi_fail(c->t, n, a, "expected %d number%s (got '%s')", lo, lo == 1 ? "" : "s", v);
    return xi_fail(c->t, n, a, "expected %d to %d numbers (got '%s')", lo, hi, v);
  }
  for (int i = 0; i < k; i++) {
    if (!isfinite(x[i])) return xi_fail(c->t, n, a, "must be finite (got '%s')", v);
    out[i] = x[i];
  }
  *got = k;
  return SC_OK;
}

static sc_status read_comp(comp* c) {
  tr* t = c->t;
  xmlNode* n = c->node;
  const char* ty = xi_attr(n, "type");
  if (!ty) return xi_fail(t, n, "type", "required");
  c->type = -1;
  for (int i = 0; i < NCTYPE; i++)
    if (strcmp(ty, ctypes[i]) == 0) c->type = i;
  if (c->type < 0)
    return xi_fail(t, n, "type", "unknown composite type '%s' (expected particle, grid, rope, loop, cloth, box, "
                                 "cylinder or ellipsoid)", ty);
  const char* pf = xi_attr(n, "prefix");
  snprintf(c->prefix, sizeof c->prefix, "%s", pf ? pf : "");
  double cnt[3] = {1, 1, 1};
  int got;
  if (!xi_attr(n, "count")) return xi_fail(t, n, "count", "required");
  TRY(get_nums(c, n, "count", cnt, 3, 3, &got));
  for (int i = 0; i < 3; i++) {
    if (cnt[i] != floor(cnt[i]) || cnt[i] < 1 || cnt[i] > 1000)
      return xi_fail(t, n, "count", "Positive counts expected in composite (whole numbers up to 1000)");
    c->count[i] = (int)cnt[i];
  }
  if ((double)c->count[0] * c->count[1] * c->count[2] > 20000)
    return xi_fail(t, n, "count", "more than 20000 elements");
  if (!xi_attr(n, "spacing")) return xi_fail(t, n, "spacing", "required");
  TRY(get_nums(c, n, "spacing", &c->spacing, 1, 1, &got));
  if (!(c->spacing >= 1e-15)) return xi_fail(t, n, "spacing", "Positive spacing expected in composite");
  TRY(get_nums(c, n, "offset", c->offset, 3, 3, &got));
  TRY(get_nums(c, n, "flatinertia", &c->flatinertia, 1, 1, &got));
  double x[5];
  TRY(get_nums(c, n, "solrefsmooth", x, 2, 2, &got));
  TRY(get_nums(c, n, "solimpsmooth", x, 3, 5, &got));
  int first = 0;
  for (int i = 0; i < 3; i++) {
    if (c->count[i] == 1) {
      first = 1;
    } else {
      c->dim++;
      if (first) return xi_fail(t, n, "count", "Singleton counts must come last");
    }
  }
  int skin = 0;
  for (xmlNode* k = n->children; k; k = k->next) {
    if (k->type != XML_ELEMENT_NODE) continue;
    const char* e = xi_name(k);
    if (strcmp(e, "geom") == 0 && !c->geom) {
      c->geom = k;
    } else if (strcmp(e, "joint") == 0 || strcmp(e, "tendon") == 0) {
      const int j = strcmp(e, "joint") == 0;
      const char* kd = xi_attr(k, "kind");
      if (!kd) return xi_fail(t, k, "kind", "required");
      int kk = -1;
      if (j) kk = strcmp(kd, "main") == 0 ? K_MAIN : strcmp(kd, "twist") == 0 ? K_TWIST
                                                  : strcmp(kd, "stretch") == 0 ? K_STRETCH : -1;
      else kk = strcmp(kd, "main") == 0 ? K_TMAIN : strcmp(kd, "shear") == 0 ? K_SHEAR : -1;
      if (kk < 0)
        return xi_fail(t, k, "kind", "unknown kind '%s' (expected %s)", kd, j ? "main, twist or stretch" : "main or shear");
      c->kind[kk] = k;
    } else if (strcmp(e, "pin") == 0) {
      double pc[2] = {0, 0};
      if (!xi_attr(k, "coord")) return xi_fail(t, k, "coord", "required");
      TRY(get_nums(c, k, "coord", pc, 1, 2, &got));
      if (c->npin == (int)(sizeof c->pin / sizeof c->pin[0])) return xi_fail(t, k, NULL, "more than 256 pins");
      c->pin[c->npin++] = (int)pc[0];
      c->pin[c->npin++] = (int)pc[1];
    } else if (strcmp(e, "skin") == 0) {
      skin = 1;
    }
  }
  /* the geom: sphere (the default), capsule or ellipsoid */
  c->gtype = 0;
  const char* gt = c->geom ? xi_attr(c->geom, "type") : NULL;
  if (gt) c->gtype = strcmp(gt, "sphere") == 0 ? 0 : strcmp(gt, "capsule") == 0 ? 1 : strcmp(gt, "ellipsoid") == 0 ? 2 : -1;
  if (c->gtype < 0) return xi_fail(t, c->geom, "type", "Composite geom type must be sphere, capsule or ellipsoid");
  if (c->geom) TRY(get_nums(c, c->geom, "size", c->gsize, 1, 3, &got));
  if (skin && c->type != C_GRID && c->type != C_CLOTH && c->type < C_BOX)
    return xi_fail(t, n, NULL, "a skin needs a 2D grid, a cloth or a box, cylinder or ellipsoid");
  if (skin && c->type == C_GRID && c->dim != 2) return xi_fail(t, n, NULL, "Skin requires 2D grid");
  if (t->global) return xi_fail(t, n, NULL, "Composite requires local coordinates");
  return SC_OK;
}

/* every <composite> at or below body n, expanded in document order */
static sc_status expand_in(tr* t, xmlNode* n, int* count, int depth) {
  if (depth > 200) return SC_OK; /* (the body translation reports the depth) */
  for (xmlNode* k = n->children; k;) {
    xmlNode* next = k->next;
    if (k->type == XML_ELEMENT_NODE && strcmp(xi_name(k), "body") == 0) {
      TRY(expand_in(t, k, count, depth + 1));
    } else if (k->type == XML_ELEMENT_NODE && strcmp(xi_name(k), "composite") == 0) {
      comp* c = sc_calloc(1, sizeof *c);
      if (!c) return sc_error_set(t->err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory expanding a composite");
      c->t = t;
      c->node = k;
      c->host = n;
      /* (the sections already placed serve every composite) */
      c->ten = t->comp_ten, c->eq = t->comp_eq, c->contact = t->comp_contact;
      sc_status st = read_comp(c);
      if (!st) {
        switch (c->type) {
          case C_PARTICLE: st = particle(c); break;
          case C_GRID: st = grid(c); break;
          case C_ROPE:
          case C_LOOP: st = rope(c); break;
          case C_CLOTH: st = cloth(c); break;
          default: st = box(c); break;
        }
      }
      t->comp_ten = c->ten, t->comp_eq = c->eq, t->comp_contact = c->contact;
      if (!st) {
        for (const xmlNode* s = k->children; s; s = s->next)
          if (s->type == XML_ELEMENT_NODE && strcmp(xi_name(s), "skin") == 0) t->comp_skin++;
        (*count)++;
        xmlUnlinkNode(k);
        xmlFreeNode(k);
      }
      sc_free(c);
      TRY(st);
    }
    k = next;
  }
  return SC_OK;
}

sc_status xi_mjcf_composites(tr* t, int* count) {
  *count = 0;
  for (int i = 0; i < t->ntop; i++)
    if (strcmp(xi_name(t->top[i]), "worldbody") == 0) TRY(expand_in(t, t->top[i], count, 0));
  return SC_OK;
}
