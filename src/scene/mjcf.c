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
 *  - geom priority: each geom's friction chosen so that the larger of a
 *    pair's two is MuJoCo's pair friction (pair_friction), approximated
 *    when no choice does;
 *  - contact parameters: a geom's solref and solimp become its shape's
 *    stiffness and dissipation (contact_law), margin - gap moves a moving
 *    geom's surface out, joint solreflimit/solimplimit leave simc's rigid
 *    limits; each listed as approximated (refused under import.strict);
 *  - contact filtering: a geom's contype and conaffinity (classes included)
 *    become its shape's masks, <contact><exclude body1 body2> an exclude
 *    pair of the two simc bodies of those names (the links hold no
 *    geometry); an explicit <contact><pair> is reported;
 *  - stiffness with springref, damping, armature, frictionloss, range with
 *    limited (autolimits: a range alone limits), ref (the joint frame
 *    turned by -ref, the run starting at q = ref); motors (gear; ctrlrange
 *    times gear and forcerange bound the force), position servos (kp) and
 *    velocity servos (kv), at zero control;
 *  - the compiler's coordinate="global" (frames rewritten as local ones),
 *    boundmass, boundinertia, balanceinertia, settotalmass and joints'
 *    springdamper; the last two need the whole model's masses, found by a
 *    first pass over the bodies before the one that writes them;
 *  - <composite> expanded first into the elements MuJoCo makes of it
 *    (mjcf_composite.c), then read as any others;
 *  - <tendon> fixed and spatial (through sites) as simc's tendons, and
 *    <equality> connect, weld, joint and tendon as simc's constraints of
 *    those types (equality), their soft laws rendered near-rigid;
 *  - names as written, quoted in the YAML where needed; a joint named like a
 *    body has its link named "<joint>:joint".
 * Every element and attribute is first checked against MuJoCo 2.2.2's schema
 * (mjcf_schema.c), which also reports the attributes that change the
 * dynamics and are not translated.  What changes the dynamics and is not
 * translated (other actuators, condim 4 and
 * 6, ...) is reported once per kind with its first line and refused unless
 * the set `import.allow_unsupported=true` is given (simc
 * --allow-unsupported).  solref/solimp and margin/gap are translated
 * approximately, said so (import.strict refuses them).  Visual elements have no effect.  What the URDF
 * translator shares with this one is in xml_import.c. */
#include <errno.h>
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
#include "scene/xml_import.h"
#include "spatial/spatial.h"

#define MJ_PI 3.14159265358979323846
#define MAX_INCLUDE_DEPTH 16

static const char* const kind_names[NKIND] = {"geom", "joint", "motor", "position", "velocity", "mesh", "equality", "tendon", "site"};

/* the frame of element n: position and orientation (quat) */
static sc_status frame(tr* t, const xmlNode* n, int k, int c, double pos[3], double q[4]) {
  pos[0] = pos[1] = pos[2] = 0;
  q[0] = 1, q[1] = q[2] = q[3] = 0;
  TRY(xi_get_vec(t, n, k, c, "pos", pos, 3, NULL));
  const char* which[5] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  int given = -1;
  for (int i = 0; i < 5; i++)
    if (xi_attr_d(t, n, k, c, which[i])) {
      if (given >= 0) return xi_fail(t, n, which[i], "only one of quat, axisangle, euler, xyaxes, zaxis (also %s)", which[given]);
      given = i;
    }
  const double unit = t->degree ? MJ_PI / 180 : 1;
  double v[6];
  switch (given) {
    case 0:
      TRY(xi_get_vec(t, n, k, c, "quat", q, 4, NULL));
      if (!(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] > 0)) return xi_fail(t, n, "quat", "zero quaternion");
      xi_qnorm(q);
      break;
    case 1:
      TRY(xi_get_vec(t, n, k, c, "axisangle", v, 4, NULL));
      if (!(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 0)) return xi_fail(t, n, "axisangle", "zero axis");
      xi_qaxis(q, v, v[3] * unit);
      break;
    case 2: {
      TRY(xi_get_vec(t, n, k, c, "euler", v, 3, NULL));
      for (int i = 0; i < 3; i++) {
        char a = t->eulerseq[i];
        double ax[3] = {0, 0, 0}, r[4], tmp[4];
        ax[(a | 32) - 'x'] = 1;
        xi_qaxis(r, ax, v[i] * unit);
        if (a >= 'a')
          xi_qmul(tmp, q, r); /* intrinsic: about the rotated axis */
        else
          xi_qmul(tmp, r, q);
        memcpy(q, tmp, sizeof tmp);
      }
      break;
    }
    case 3: {
      TRY(xi_get_vec(t, n, k, c, "xyaxes", v, 6, NULL));
      double x[3] = {v[0], v[1], v[2]}, y[3] = {v[3], v[4], v[5]}, z[3], R[9];
      double nx = sc_sp_normalize3(x);
      double d = sc_sp_dot3(x, y);
      for (int i = 0; i < 3; i++) y[i] -= d * x[i];
      double ny = sc_sp_normalize3(y);
      if (!(nx > 0) || !(ny > 1e-12)) return xi_fail(t, n, "xyaxes", "degenerate axes");
      sc_sp_cross3(z, x, y);
      for (int i = 0; i < 3; i++) R[3 * i] = x[i], R[3 * i + 1] = y[i], R[3 * i + 2] = z[i];
      sc_sp_mat3_to_quat(q, R);
      break;
    }
    case 4:
      TRY(xi_get_vec(t, n, k, c, "zaxis", v, 3, NULL));
      if (!(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 0)) return xi_fail(t, n, "zaxis", "zero axis");
      xi_qz2vec(q, v);
      break;
  }
  return SC_OK;
}

/* ---- includes and top-level elements ---- */

static sc_status read_include(tr* t, const xmlNode* n, const char* path, char** out, size_t* len) {
  char why[600];
  sc_status st = sc_rd_read_file(path, SC_SCENE_MAX_BYTES, out, len, why, sizeof why);
  return st && st != SC_ERR_NOMEM ? xi_fail(t, n, "file", "%s", why) : st;
}

/* the children of root, <include> expanded in place */
static sc_status collect(tr* t, xmlNode* root, int depth) {
  TRY(xi_count_elements(t, root->children));
  for (xmlNode* n = root->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    if (strcmp(xi_name(n), "include") == 0) {
      const char* f = xi_attr(n, "file");
      if (!f) return xi_fail(t, n, "file", "required");
      if (depth >= MAX_INCLUDE_DEPTH) return xi_fail(t, n, "file", "includes nested deeper than %d", MAX_INCLUDE_DEPTH);
      char* p = sc_rd_path_beside(xi_file(n), f);
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
      sc_status st = xi_parse(t, p, text, len, n, &d);
      sc_free(text);
      sc_free(p);
      TRY(st);
      xmlNode* r = xmlDocGetRootElement(d);
      if (!r || strcmp(xi_name(r), "mujoco") != 0) return xi_fail(t, n, "file", "the included file's root is not <mujoco>");
      TRY(collect(t, r, depth + 1));
      continue;
    }
    if (t->ntop == (int)(sizeof t->top / sizeof t->top[0])) return xi_fail(t, n, NULL, "too many top-level elements");
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
  const char* name = xi_attr(n, "class");
  if (!name) name = parent < 0 ? "main" : NULL;
  if (!name) return xi_fail(t, n, "class", "a nested default needs a class");
  int me = find_class(t, name);
  if (me >= 0 && !(parent < 0 && me == 0)) /* top-level sections add to main */
    return xi_fail(t, n, "class", "class '%s' is defined twice", name);
  if (me < 0) {
    if (t->ncls == (int)(sizeof t->cls / sizeof t->cls[0])) return xi_fail(t, n, NULL, "too many default classes");
    me = t->ncls++;
    memset(&t->cls[me], 0, sizeof t->cls[me]);
    t->cls[me].name = name;
    t->cls[me].parent = parent;
  }
  for (xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    if (strcmp(xi_name(c), "default") == 0) {
      TRY(read_default(t, c, me));
      continue;
    }
    for (int k = 0; k < NKIND; k++)
      if (strcmp(xi_name(c), kind_names[k]) == 0) {
        mj_class* cl = &t->cls[me];
        if (cl->nnode[k] == MAX_DEFNODES) return xi_fail(t, c, NULL, "more than %d defaults of one kind in a class", MAX_DEFNODES);
        cl->node[k][cl->nnode[k]++] = c;
      }
    if (strcmp(xi_name(c), "general") == 0 || strcmp(xi_name(c), "muscle") == 0)
      xi_unsupported(t, c, xi_name(c));
  }
  return SC_OK;
}

static int class_of(tr* t, const xmlNode* n, int inherited, sc_status* st) {
  const char* c = xi_attr(n, "class");
  *st = SC_OK;
  if (!c) return inherited;
  int k = find_class(t, c);
  if (k < 0) *st = xi_fail(t, n, "class", "unknown class '%s'", c);
  return k;
}

/* ---- geoms and inertia ---- */
/* a contact bit mask (contype, conaffinity): a non-negative integer of 32
 * bits at most, 1 when absent (MuJoCo's default) */
static sc_status get_mask(tr* t, const xmlNode* n, int c, const char* a, unsigned long* out) {
  *out = 1;
  const char* v = xi_attr_d(t, n, K_GEOM, c, a);
  if (!v) return SC_OK;
  /* a bad value from a class is reported at the <geom> of that <default> */
  for (int k = c; !xi_attr(n, a) && k >= 0; k = t->cls[k].parent) {
    int found = 0;
    for (int i = t->cls[k].nnode[K_GEOM] - 1; i >= 0 && !found; i--)
      if (xi_attr(t->cls[k].node[K_GEOM][i], a)) n = t->cls[k].node[K_GEOM][i], found = 1;
    if (found) break;
  }
  const char* p = v;
  while (*p == ' ' || *p == '\t') p++;
  const char* d = p + (*p == '+' || *p == '-');
  size_t nd = 0;
  while (d[nd] >= '0' && d[nd] <= '9') nd++;
  const char* e = d + nd;
  while (*e == ' ' || *e == '\t') e++;
  if (*p == '-' && nd > 0 && !*e) return xi_fail(t, n, a, "must be >= 0 (got '%s')", v);
  if (nd == 0 || *e) return xi_fail(t, n, a, "expected a non-negative integer bit mask (got '%s')", v);
  while (nd > 1 && *d == '0') d++, nd--;
  const unsigned long long x = nd > 10 ? ULLONG_MAX : strtoull(d, NULL, 10);
  if (x > 4294967295ull) return xi_fail(t, n, a, "must be at most 4294967295, 32 bits (got '%s')", v);
  *out = (unsigned long)x;
  return SC_OK;
}

/* ---- MuJoCo's contact parameters ---- */
/* the element attribute a of n (kind k, class c) is read from: n itself, or
 * the <default>'s element that gives it, where a bad value is reported */
static const xmlNode* attr_source(const tr* t, const xmlNode* n, int k, int c, const char* a) {
  if (xi_attr(n, a) || k < 0) return n;
  for (int j = c; j >= 0; j = t->cls[j].parent)
    for (int i = t->cls[j].nnode[k] - 1; i >= 0; i--)
      if (xi_attr(t->cls[j].node[k][i], a)) return t->cls[j].node[k][i];
  return n;
}

/* solref (timeconst dampratio, or -stiffness -damping) and solimp (dmin dmax
 * width [midpoint power]) of element n, own or from its class, with MuJoCo's
 * defaults (0.02 1; 0.9 0.95 0.001 0.5 2); *has set when either is given */
static sc_status read_sol(tr* t, const xmlNode* n, int k, int c, const char* aref, const char* aimp, double ref[2],
                          double imp[5], int* has) {
  ref[0] = 0.02, ref[1] = 1;
  const double imp0[5] = {0.9, 0.95, 0.001, 0.5, 2};
  memcpy(imp, imp0, sizeof imp0);
  int hr, ni;
  TRY(xi_get_vec(t, n, k, c, aref, ref, 2, &hr));
  TRY(xi_get_vec_n(t, n, k, c, aimp, imp, 3, 5, &ni));
  *has = hr || ni > 0;
  if (!*has) return SC_OK;
  const xmlNode* nr = attr_source(t, n, k, c, aref);
  const xmlNode* nm = attr_source(t, n, k, c, aimp);
  for (int i = 0; i < 2; i++)
    if (!isfinite(ref[i])) return xi_fail(t, nr, aref, "must be finite");
  for (int i = 0; i < 5; i++)
    if (!isfinite(imp[i])) return xi_fail(t, nm, aimp, "must be finite");
  if (ref[0] > 0 && !(ref[1] > 0))
    return xi_fail(t, nr, aref, "a time constant (%g > 0) needs a damping ratio > 0 (got %g)", ref[0], ref[1]);
  if (!(ref[0] > 0) && !(ref[0] < 0 && ref[1] <= 0))
    return xi_fail(t, nr, aref, "expected a time constant and a damping ratio (> 0), or -stiffness (< 0) and -damping (<= 0) (got %g %g)",
        ref[0], ref[1]);
  if (!(imp[0] >= 0 && imp[0] <= 1 && imp[1] >= 0 && imp[1] <= 1))
    return xi_fail(t, nm, aimp, "dmin and dmax must be in [0, 1] (got %g %g)", imp[0], imp[1]);
  if (!(imp[2] >= 0)) return xi_fail(t, nm, aimp, "width must be >= 0 (got %g)", imp[2]);
  if (!(imp[3] > 0 && imp[3] < 1)) return xi_fail(t, nm, aimp, "midpoint must be in (0, 1) (got %g)", imp[3]);
  if (!(imp[4] >= 1)) return xi_fail(t, nm, aimp, "power must be >= 1 (got %g)", imp[4]);
  return SC_OK;
}

/* margin and gap: MuJoCo's contact acts below the distance margin - gap, so
 * the moving geom's contact surface is moved out by it.  A pair's margin
 * and gap are each the larger of the two geoms' in MuJoCo: static geoms
 * keep their surface, so a moving geom against the world is exact when its
 * margin and gap are the pair's (one class for all, the usual case) */
static sc_status read_margin(tr* t, const xmlNode* n, int c, geom* g, int in_world) {
  double margin = 0, gap = 0;
  int hm, hg;
  TRY(xi_get_vec(t, n, K_GEOM, c, "margin", &margin, 1, &hm));
  TRY(xi_get_vec(t, n, K_GEOM, c, "gap", &gap, 1, &hg));
  if (!hm && !hg) return SC_OK;
  if (!(margin >= 0) || !isfinite(margin))
    return xi_fail(t, attr_source(t, n, K_GEOM, c, "margin"), "margin", "must be >= 0 and finite (got %g)", margin);
  if (!(gap >= 0) || !isfinite(gap))
    return xi_fail(t, attr_source(t, n, K_GEOM, c, "gap"), "gap", "must be >= 0 and finite (got %g)", gap);
  static const char* const what =
      "geom margin/gap (a moving geom's contact surface moved out by margin - gap, a static one's not; two moving "
      "geoms: the sum, MuJoCo's the larger)";
  const double e = margin - gap;
  if (e == 0 || in_world) {
    xi_approximated(t, n, what);
    return SC_OK;
  }
  if (g->type == SC_GEOM_MESH) {
    xi_unsupported(t, n, "geom margin/gap on a mesh");
    return SC_OK;
  }
  if (e < 0 && -e >= g->size[0]) return xi_fail(t, n, "gap", "gap - margin (%g) must be below the geom's radius or half size", -e);
  g->inflate = e;
  xi_approximated(t, n, what);
  return SC_OK;
}

/* MuJoCo's impedance d at penetration x >= 0 (its documentation, "Solver
 * parameters"): dmin at contact, dmax beyond width, between them a sigmoid
 * of the given midpoint and power; d is kept in [0.0001, 0.9999] as MuJoCo
 * does */
static double impedance(const double s[5], double x) {
  const double dmin = fmin(fmax(s[0], 1e-4), 0.9999), dmax = fmin(fmax(s[1], 1e-4), 0.9999);
  const double w = s[2], mid = s[3], p = s[4];
  if (!(w > 1e-15) || x >= w) return dmax;
  const double u = x / w;
  const double y = u <= mid ? pow(u, p) / pow(mid, p - 1) : 1 - pow(1 - u, p) / pow(1 - mid, p - 1);
  return dmin + y * (dmax - dmin);
}

/* The shape's stiffness k, Kelvin-Voigt dissipation time and Hunt-Crossley
 * dissipation from solref and solimp, for a body of mass M under the
 * model's gravity.
 *
 * MuJoCo's contact on a body of effective mass m obeys
 *   a + d (b v + d kk r) = (1 - d) a0
 * (r the signed distance, a0 the acceleration without the contact) with
 * b = 2/(dmax tc), kk = 1/(dmax^2 tc^2 z^2) (solref tc z, tc at least two
 * steps), or b = damping/dmax, kk = stiffness/dmax^2 (solref -stiffness
 * -damping).  So it is a spring m d^2 kk and a damper m d b, of damping
 * ratio z = b/(2 sqrt(kk)), that also cancels the share d of the other
 * forces.  simc's law has no such share: the shape gets the spring that
 * rests at MuJoCo's depth x under the body's own weight shared by n
 * contacts, x d(x)^2 kk = (1 - d(x)) g / n, solved here (d depends on x, so
 * n matters: 4 for a box, which rests on the corners of a face, else 1),
 * with MuJoCo's damping ratio (the restitution of an impact).  Its
 * frequency is MuJoCo's over sqrt(1 - d): impacts are shorter.  The
 * Hunt-Crossley dissipation is the one whose damping at rest, k d x, is
 * that spring's.  The mass is the body's own (MuJoCo's effective mass of a
 * contact is that of the whole articulated system at it); two moving shapes
 * of one solref combine in series into the reduced mass, as MuJoCo's. */
static void contact_law(const tr* t, geom* g, double M) {
  g->contact = 1;
  if (!(M > 0)) {
    g->k = -1; /* the world's (or a massless body's) side: the other shape's law */
    return;
  }
  const double dmax = impedance(g->solimp, INFINITY);
  double b, kk;
  if (g->solref[0] > 0) {
    const double tc = fmax(g->solref[0], 2 * t->timestep), z = g->solref[1]; /* MuJoCo's refsafe */
    b = 2 / (dmax * tc);
    kk = 1 / (dmax * dmax * tc * tc * z * z);
  } else {
    b = -g->solref[1] / dmax;
    kk = -g->solref[0] / (dmax * dmax);
  }
  const double zeta = b / (2 * sqrt(kk));
  const double g0 = sqrt(t->gravity[0] * t->gravity[0] + t->gravity[1] * t->gravity[1] + t->gravity[2] * t->gravity[2]);
  double x, w2;
  if (g0 > 0) {
    const double gn = g0 / (g->type == SC_GEOM_BOX ? 4 : 1);
    /* x d(x)^2 kk - (1 - d(x)) gn rises from -(1 - dmin) gn at 0 */
    double lo = 0, hi = gn / kk;
    for (int i = 0; i < 200; i++) {
      const double d = impedance(g->solimp, hi);
      if (hi * d * d * kk - (1 - d) * gn > 0) break;
      hi *= 2;
    }
    for (int i = 0; i < 200; i++) {
      const double mid = 0.5 * (lo + hi), d = impedance(g->solimp, mid);
      if (mid * d * d * kk - (1 - d) * gn > 0) hi = mid;
      else lo = mid;
    }
    x = 0.5 * (lo + hi);
    w2 = gn / x; /* each contact's share of the weight, M gn, over x */
  } else {
    w2 = dmax * dmax * kk;
    x = g->solimp[2] > 0 ? g->solimp[2] : 1e-3;
  }
  g->k = M * w2;
  g->tau_d = 2 * zeta / sqrt(w2);
  g->hc_d = g->tau_d / x;
}

static const char* const mj_types[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh"};

static sc_status read_geom(tr* t, xmlNode* n, int c, geom* g, int in_world) {
  memset(g, 0, sizeof *g);
  const char* ty = xi_attr_d(t, n, K_GEOM, c, "type");
  if (!ty) ty = "sphere";
  int mt = -1;
  for (int i = 0; i < 8; i++)
    if (strcmp(ty, mj_types[i]) == 0) mt = i;
  if (mt < 0) return xi_fail(t, n, "type", "unknown geom type '%s'", ty);
  g->node = n;
  double size[3] = {0, 0, 0};
  int ns;
  TRY(xi_get_vec_n(t, n, K_GEOM, c, "size", size, 1, 3, &ns));
  TRY(frame(t, n, K_GEOM, c, g->pos, g->q));
  double ft[6];
  int has_ft;
  TRY(xi_get_vec(t, n, K_GEOM, c, "fromto", ft, 6, &has_ft));
  memset(g->size, 0, sizeof g->size);
  switch (mt) {
    case 0:
      if (!in_world) return xi_fail(t, n, "type", "a plane must be in the worldbody");
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
        if (!(half > 0)) return xi_fail(t, n, "fromto", "the two points coincide");
        for (int i = 0; i < 3; i++) g->pos[i] = 0.5 * (ft[i] + ft[3 + i]);
        xi_qz2vec(g->q, d);
      } else if (ns < 2) {
        return xi_fail(t, n, "size", "a %s needs a radius and a half length", ty);
      }
      g->size[0] = size[0];
      g->size[1] = 2 * half; /* simc: the full length */
      break;
    }
    case 4:
    case 6:
      if (ns < 3) return xi_fail(t, n, "size", "a %s needs 3 sizes", ty);
      if (has_ft) return xi_fail(t, n, "fromto", "not supported for a %s", ty);
      g->type = mt == 4 ? SC_GEOM_ELLIPSOID : SC_GEOM_BOX;
      memcpy(g->size, size, sizeof size);
      break;
    case 7: {
      const char* m = xi_attr_d(t, n, K_GEOM, c, "mesh");
      if (!m) return xi_fail(t, n, "mesh", "a mesh geom names its mesh");
      g->type = SC_GEOM_MESH;
      g->mesh_file = m; /* resolved against the assets by the caller */
      break;
    }
    default:
      xi_unsupported(t, n, "geom type hfield");
      g->type = -1;
      return SC_OK;
  }
  for (int i = 0; i < 3 && g->type != SC_GEOM_PLANE && g->type != SC_GEOM_MESH; i++)
    if (g->size[i] < 0 || (i == 0 && !(g->size[0] > 0)))
      return xi_fail(t, n, "size", "sizes must be > 0");
  /* friction: the sliding, torsional and rolling coefficients; condim 1 is
   * frictionless, 4 adds the torsional, 6 the rolling one (simc's cone
   * tails: constraint/contact_law.c) */
  double fr[3] = {1, 0.005, 0.0001};
  int nf;
  TRY(xi_get_vec_n(t, n, K_GEOM, c, "friction", fr, 1, 3, &nf));
  g->mu = g->fr_raw = fr[0];
  const char* cd = xi_attr_d(t, n, K_GEOM, c, "condim");
  g->condim = 3;
  g->fr1 = fr[1];
  g->fr2 = fr[2];
  if (cd && strcmp(cd, "1") == 0) g->mu = 0, g->condim1 = 1, g->condim = 1;
  else if (cd && (strcmp(cd, "4") == 0 || strcmp(cd, "6") == 0)) {
    g->condim = cd[0] - '0';
    g->spin = fr[1];
    if (g->condim == 6) g->roll = fr[2];
  } else if (cd && strcmp(cd, "3") != 0) {
    return xi_fail(t, n, "condim", "must be 1, 3, 4 or 6");
  }
  /* priority decides a pair's friction (pair_friction); solmix weighs two
   * geoms' solref and solimp, which reach simc only approximately anyway
   * (read_sol), so it is read for its checks alone */
  const char* pr = xi_attr_d(t, n, K_GEOM, c, "priority");
  if (pr) {
    char* e;
    errno = 0;
    const long v = strtol(pr, &e, 10);
    while (*e == ' ' || *e == '\t' || *e == '\n' || *e == '\r') e++;
    if (e == pr || *e || errno || v < INT_MIN || v > INT_MAX)
      return xi_fail(t, n, "priority", "expected an integer, not '%s'", pr);
    g->priority = (int)v;
  }
  double solmix = 1;
  TRY(xi_get_vec(t, n, K_GEOM, c, "solmix", &solmix, 1, NULL));
  if (!(solmix >= 0)) return xi_fail(t, n, "solmix", "must be >= 0");
  TRY(get_mask(t, n, c, "contype", &g->contype));
  TRY(get_mask(t, n, c, "conaffinity", &g->conaffinity));
  TRY(read_sol(t, n, K_GEOM, c, "solref", "solimp", g->solref, g->solimp, &g->has_sol));
  TRY(read_margin(t, n, c, g, in_world));
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
  TRY(xi_get_vec(t, n, K_GEOM, c, "density", &density, 1, NULL));
  TRY(xi_get_vec(t, n, K_GEOM, c, "mass", &mass, 1, &has_mass));
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

/* ---- compiler coordinate="global" ---- */

static void set_vec(xmlNode* n, const char* a, const double* v, int cnt) {
  char buf[200];
  size_t o = 0;
  for (int i = 0; i < cnt && o < sizeof buf; i++) o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%.17g", i ? " " : "", v[i]);
  xmlSetProp(n, (const xmlChar*)a, (const xmlChar*)buf);
}

/* element n's frame, given in the world, set as its frame in the frame
 * (P, Q) given in the world: pos and quat replace its orientation */
static sc_status frame_to_local(tr* t, xmlNode* n, int k, int c, const double P[3], const double Q[4], double gp[3],
                                double gq[4]) {
  TRY(frame(t, n, k, c, gp, gq));
  const double Qc[4] = {Q[0], -Q[1], -Q[2], -Q[3]};
  double d[3], lp[3], lq[4];
  sc_sp_sub3(d, gp, P);
  xi_qrot(lp, Qc, d);
  xi_qmul(lq, Qc, gq);
  static const char* const rot[] = {"axisangle", "euler", "xyaxes", "zaxis"};
  for (int i = 0; i < 4; i++) xmlUnsetProp(n, (const xmlChar*)rot[i]);
  set_vec(n, "pos", lp, 3);
  set_vec(n, "quat", lq, 4);
  return SC_OK;
}

/* MuJoCo's coordinate="global": every frame below the worldbody given in
 * the world.  Rewritten in place as the local frames the translation reads:
 * a body's pos and orientation in its parent's frame, its geoms' (their
 * fromto too), inertial's, joints' anchors and axes in its own. */
static sc_status globals_to_local(tr* t, xmlNode* n, int inh, const double P[3], const double Q[4]) {
  sc_status st;
  int cc = inh;
  const char* childclass = xi_attr(n, "childclass");
  if (childclass && (cc = find_class(t, childclass)) < 0) return xi_fail(t, n, "childclass", "unknown class '%s'", childclass);
  const double Qc[4] = {Q[0], -Q[1], -Q[2], -Q[3]};
  for (xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    const char* e = xi_name(c);
    double gp[3], gq[4];
    if (strcmp(e, "body") == 0) {
      TRY(frame_to_local(t, c, -1, -1, P, Q, gp, gq));
      TRY(globals_to_local(t, c, cc, gp, gq));
    } else if (strcmp(e, "geom") == 0) {
      const int k = class_of(t, c, cc, &st);
      TRY(st);
      double ft[6];
      int has_ft;
      TRY(xi_get_vec(t, c, K_GEOM, k, "fromto", ft, 6, &has_ft));
      if (has_ft) {
        for (int i = 0; i < 2; i++) {
          double d[3];
          sc_sp_sub3(d, ft + 3 * i, P);
          xi_qrot(ft + 3 * i, Qc, d);
        }
        set_vec(c, "fromto", ft, 6);
      } else {
        TRY(frame_to_local(t, c, K_GEOM, k, P, Q, gp, gq));
      }
    } else if (strcmp(e, "inertial") == 0) {
      TRY(frame_to_local(t, c, -1, -1, P, Q, gp, gq));
    } else if (strcmp(e, "site") == 0) {
      const int k = class_of(t, c, cc, &st);
      TRY(st);
      TRY(frame_to_local(t, c, K_SITE, k, P, Q, gp, gq));
    } else if (strcmp(e, "joint") == 0) {
      const int k = class_of(t, c, cc, &st);
      TRY(st);
      double a[3] = {0, 0, 0}, ax[3] = {0, 0, 1}, d[3], la[3], lax[3];
      TRY(xi_get_vec(t, c, K_JOINT, k, "pos", a, 3, NULL));
      TRY(xi_get_vec(t, c, K_JOINT, k, "axis", ax, 3, NULL));
      sc_sp_sub3(d, a, P);
      xi_qrot(la, Qc, d);
      xi_qrot(lax, Qc, ax);
      set_vec(c, "pos", la, 3);
      set_vec(c, "axis", lax, 3);
    }
  }
  return SC_OK;
}

/* ---- names ---- */

/* MuJoCo allows any name; simc keeps it (quoted in the translation when it
 * is not a plain YAML word), up to the translator's buffers */
static sc_status check_name(tr* t, const xmlNode* n, const char* name) {
  if (!name[0]) return xi_fail(t, n, "name", "empty");
  TRY(xi_check_name_length(t, n, name));
  for (const unsigned char* p = (const unsigned char*)name; *p; p++)
    if (*p < 0x20 || *p == 0x7f) return xi_fail(t, n, "name", "a control character in '%s'", name);
  return SC_OK;
}

/* 1 when a <body> below n is named name */
static int has_body(const xmlNode* n, const char* name) {
  for (const xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || strcmp(xi_name(c), "body") != 0) continue;
    const char* nm = xi_attr(c, "name");
    if ((nm && strcmp(nm, name) == 0) || has_body(c, name)) return 1;
  }
  return 0;
}

static int body_named(const tr* t, const char* name) {
  for (int i = 0; i < t->ntop; i++)
    if (strcmp(xi_name(t->top[i]), "worldbody") == 0 && has_body(t->top[i], name)) return 1;
  return 0;
}

/* The simc body that carries MuJoCo joint `joint`: named after it, unless a
 * body of the model has that name (MuJoCo's bodies and joints are separate
 * namespaces, simc's links are bodies): then "<joint>:joint" (":joint2", ...
 * while that is a body's name too).  Its q_names are then "<joint>:joint.angle". */
static void link_name(const tr* t, const char* joint, char* out, size_t sz) {
  snprintf(out, sz, "%s", joint);
  for (int k = 1; body_named(t, out) && k < 1000; k++)
    if (k == 1)
      snprintf(out, sz, "%s:joint", joint);
    else
      snprintf(out, sz, "%s:joint%d", joint, k);
}

/* ---- joints and bodies ---- */
/* A mesh geom's mass properties, as MuJoCo's compiler takes them for a
 * body's inertia: the solid the mesh bounds (its hull when it is not closed,
 * see mesh.h) of the geom's density (or its given mass), placed at the
 * mesh's centroid.  The mesh is read here and again by the scene loader:
 * the translation must state the body's inertia, the loader the shape. */
static sc_status mesh_inertia(tr* t, const xmlNode* n, geom* g) {
  const struct xi_mesh_props* mp = NULL;
  for (int i = 0; i < t->nmeshes && !mp; i++)
    if (strcmp(t->meshes[i].file, g->mesh_file) == 0 && memcmp(t->meshes[i].scale, g->mesh_scale, sizeof g->mesh_scale) == 0)
      mp = &t->meshes[i];
  if (!mp) {
    sc_mesh me;
    memset(&me, 0, sizeof me);
    sc_error e;
    sc_error_clear(&e);
    if (sc_mesh_read(g->mesh_file, g->mesh_scale, &me, &e) != SC_OK) {
      if (e.code == SC_ERR_NOMEM) return SC_ERR_NOMEM;
      char why[1100];
      sc_error_format(&e, why, sizeof why);
      return xi_fail(t, n, NULL, "the inertia of mesh geom '%s': %s", g->mesh_file, why);
    }
    if (t->nmeshes == t->capmeshes) {
      const int cap = t->capmeshes ? 2 * t->capmeshes : 16;
      struct xi_mesh_props* nm = sc_calloc((size_t)cap, sizeof *nm);
      if (!nm) {
        sc_mesh_free(&me);
        return SC_ERR_NOMEM;
      }
      if (t->nmeshes) memcpy(nm, t->meshes, sizeof *nm * (size_t)t->nmeshes);
      sc_free(t->meshes);
      t->meshes = nm;
      t->capmeshes = cap;
    }
    struct xi_mesh_props* p = &t->meshes[t->nmeshes];
    if (!(p->file = sc_strdup(g->mesh_file))) {
      sc_mesh_free(&me);
      return SC_ERR_NOMEM;
    }
    memcpy(p->scale, g->mesh_scale, sizeof p->scale);
    p->volume = me.volume;
    memcpy(p->centroid, me.centroid, sizeof p->centroid);
    memcpy(p->inertia, me.inertia, sizeof p->inertia);
    sc_mesh_free(&me);
    mp = &t->meshes[t->nmeshes++];
  }
  if (!g->has_mass) g->mass = g->density * mp->volume;
  const double per = mp->volume > 0 ? g->mass / mp->volume : 0; /* the solid's density */
  memcpy(g->cm, mp->centroid, sizeof g->cm);
  for (int k = 0; k < 9; k++) g->Im[k] = per * mp->inertia[k];
  return SC_OK;
}

static sc_status mesh_asset(tr* t, const xmlNode* at, const char* name, geom* g) {
  for (int i = 0; i < t->ntop; i++) {
    if (strcmp(xi_name(t->top[i]), "asset") != 0) continue;
    for (xmlNode* a = t->top[i]->children; a; a = a->next) {
      if (a->type != XML_ELEMENT_NODE || strcmp(xi_name(a), "mesh") != 0) continue;
      const char* f = xi_attr(a, "file");
      const char* nm = xi_attr(a, "name");
      char base[256] = "";
      if (f && !nm) { /* MuJoCo names an unnamed mesh by its file's base name */
        const char* s = strrchr(f, '/');
        snprintf(base, sizeof base, "%s", s ? s + 1 : f);
        char* dot = strrchr(base, '.');
        if (dot) *dot = '\0';
        nm = base;
      }
      if (!nm || strcmp(nm, name) != 0) continue;
      if (!f) return xi_fail(t, a, "file", "required (a mesh from vertex lists is not supported)");
      double sc[3] = {1, 1, 1};
      sc_status st;
      const int mc = class_of(t, a, 0, &st); /* a mesh's class, else main */
      TRY(st);
      TRY(xi_get_vec(t, a, K_MESH, mc, "scale", sc, 3, NULL));
      memcpy(g->mesh_scale, sc, sizeof sc);
      char rel[1024];
      snprintf(rel, sizeof rel, "%s%s%s", t->meshdir, t->meshdir[0] ? "/" : "", f);
      if (t->nstr == (int)(sizeof t->strs / sizeof t->strs[0])) return xi_fail(t, a, NULL, "too many mesh geoms");
      char* p = xi_abs_path(sc_rd_path_beside(xi_file(a), rel));
      if (!p) return SC_ERR_NOMEM;
      t->strs[t->nstr++] = p;
      g->mesh_file = p;
      return SC_OK;
    }
  }
  return xi_fail(t, at, "mesh", "no mesh asset named '%s'", name);
}

typedef struct jin {
  const xmlNode* node;
  int type; /* SC_JOINT_* */
  char name[128];
  char link[140]; /* its simc body (link_name) */
  double axis[3], anchor[3];
  int limited, has_range;
  double range[2], stiffness, springref, damping, armature, frictionloss;
  double ref; /* the joint value of the model as written (MuJoCo's qpos0) */
  double sd[2]; /* springdamper: time constant and damping ratio (both > 0: used) */
} jin;

static sc_status read_joint(tr* t, xmlNode* n, int c, jin* j, const char* bname, int idx) {
  memset(j, 0, sizeof *j);
  j->node = n;
  int isfree = strcmp(xi_name(n), "freejoint") == 0;
  const char* ty = isfree ? "free" : xi_attr_d(t, n, K_JOINT, c, "type");
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
    return xi_fail(t, n, "type", "unknown joint type '%s' (expected hinge, slide, ball or free)", ty);
  const char* nm = xi_attr(n, "name");
  if (nm) {
    TRY(check_name(t, n, nm));
    snprintf(j->name, sizeof j->name, "%s", nm);
  } else {
    snprintf(j->name, sizeof j->name, "%.100s_joint%d", bname, idx);
  }
  j->axis[2] = 1;
  if (isfree) return SC_OK;
  TRY(xi_get_vec(t, n, K_JOINT, c, "axis", j->axis, 3, NULL));
  if (!(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2] > 0))
    return xi_fail(t, n, "axis", "zero axis");
  sc_sp_normalize3(j->axis);
  TRY(xi_get_vec(t, n, K_JOINT, c, "pos", j->anchor, 3, NULL));
  TRY(xi_get_vec(t, n, K_JOINT, c, "range", j->range, 2, &j->has_range));
  j->limited = j->has_range; /* autolimits */
  const char* lim = xi_attr_d(t, n, K_JOINT, c, "limited");
  if (lim && strcmp(lim, "auto") != 0) TRY(xi_get_bool(t, n, K_JOINT, c, "limited", &j->limited));
  if (j->limited && !j->has_range) return xi_fail(t, n, "range", "limited needs a range");
  if (t->off & XI_OFF_LIMIT) j->limited = 0;
  if (j->limited) {
    if (!(j->range[0] < j->range[1])) return xi_fail(t, n, "range", "lower must be below upper (got %g, %g)", j->range[0], j->range[1]);
    if (j->type == SC_JOINT_REVOLUTE && t->degree)
      for (int i = 0; i < 2; i++) j->range[i] *= MJ_PI / 180;
    if (j->type == SC_JOINT_BALL) xi_unsupported(t, n, "ball joint range");
  }
  /* margin: MuJoCo's limit acts on (distance to the limit) - margin, so its
   * soft limit rests margin inside the range; simc's rigid limit sits there.
   * In the joint's own units, radians even under angle="degree" (MuJoCo
   * does not convert it) */
  double margin = 0;
  TRY(xi_get_vec(t, n, K_JOINT, c, "margin", &margin, 1, NULL));
  if (!(margin >= 0) || !isfinite(margin)) return xi_fail(t, n, "margin", "must be >= 0 and finite (got %g)", margin);
  if (j->limited && margin > 0 && (j->type == SC_JOINT_REVOLUTE || j->type == SC_JOINT_PRISMATIC)) {
    if (!(j->range[0] + margin < j->range[1] - margin))
      return xi_fail(t, n, "margin", "%g leaves nothing of the range [%g, %g] (the limits act margin inside it)", margin,
                     j->range[0], j->range[1]);
    j->range[0] += margin;
    j->range[1] -= margin;
  }
  TRY(xi_get_vec(t, n, K_JOINT, c, "stiffness", &j->stiffness, 1, NULL));
  TRY(xi_get_vec(t, n, K_JOINT, c, "springdamper", j->sd, 2, NULL));
  if (j->sd[0] > 0 && j->sd[1] > 0 && j->type == SC_JOINT_BALL) xi_unsupported(t, n, "ball joint springdamper");
  TRY(xi_get_vec(t, n, K_JOINT, c, "springref", &j->springref, 1, NULL));
  if (j->type == SC_JOINT_REVOLUTE && t->degree) j->springref *= MJ_PI / 180;
  TRY(xi_get_vec(t, n, K_JOINT, c, "damping", &j->damping, 1, NULL));
  TRY(xi_get_vec(t, n, K_JOINT, c, "armature", &j->armature, 1, NULL));
  TRY(xi_get_vec(t, n, K_JOINT, c, "frictionloss", &j->frictionloss, 1, NULL));
  TRY(xi_get_vec(t, n, K_JOINT, c, "ref", &j->ref, 1, NULL));
  if (j->type == SC_JOINT_REVOLUTE && t->degree) j->ref *= MJ_PI / 180;
  if (!isfinite(j->ref)) return xi_fail(t, n, "ref", "must be finite");
  if (j->stiffness < 0 || j->damping < 0 || j->armature < 0 || j->frictionloss < 0)
    return xi_fail(t, n, NULL, "stiffness, damping, armature and frictionloss must be >= 0");
  if (t->off & XI_OFF_FRICTIONLOSS) j->frictionloss = 0;
  double lref[2], limp[5];
  int lsol;
  TRY(read_sol(t, n, K_JOINT, c, "solreflimit", "solimplimit", lref, limp, &lsol));
  if (lsol) xi_approximated(t, n, "joint solreflimit/solimplimit (simc's joint limits are rigid)");
  if (j->stiffness > 0 && j->type == SC_JOINT_BALL) xi_unsupported(t, n, "ball joint stiffness");
  if (j->stiffness > 0 && j->type == SC_JOINT_FREE) xi_unsupported(t, n, "free joint stiffness");
  /* dry friction bounds each dof's force alone: MuJoCo's ball and free
   * rotations are in the body frame, simc's in the parent's or the world */
  if (j->frictionloss > 0 && (j->type == SC_JOINT_BALL || j->type == SC_JOINT_FREE)) {
    xi_unsupported(t, n, "ball or free joint frictionloss");
    j->frictionloss = 0;
  }
  return SC_OK;
}


/* eigenvalues lam and eigenvectors (V's columns) of symmetric A, by
 * Jacobi rotations */
static void sym3_eigen(const double A[9], double lam[3], double V[9]) {
  double a[9];
  memcpy(a, A, sizeof a);
  for (int i = 0; i < 9; i++) V[i] = i % 4 == 0;
  for (int sweep = 0; sweep < 50; sweep++) {
    const double off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
    const double diag = a[0] * a[0] + a[4] * a[4] + a[8] * a[8];
    if (!(off > 1e-34 * diag)) break;
    for (int p = 0; p < 2; p++)
      for (int q = p + 1; q < 3; q++) {
        const double apq = a[3 * p + q];
        if (apq == 0) continue;
        const double th = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
        const double tt = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
        const double c = 1 / sqrt(tt * tt + 1), s = tt * c;
        for (int k = 0; k < 3; k++) { /* a = J^T a J, columns then rows */
          const double kp = a[3 * k + p], kq = a[3 * k + q];
          a[3 * k + p] = c * kp - s * kq, a[3 * k + q] = s * kp + c * kq;
        }
        for (int k = 0; k < 3; k++) {
          const double pk = a[3 * p + k], qk = a[3 * q + k];
          a[3 * p + k] = c * pk - s * qk, a[3 * q + k] = s * pk + c * qk;
        }
        for (int k = 0; k < 3; k++) {
          const double kp = V[3 * k + p], kq = V[3 * k + q];
          V[3 * k + p] = c * kp - s * kq, V[3 * k + q] = s * kp + c * kq;
        }
      }
  }
  lam[0] = a[0], lam[1] = a[4], lam[2] = a[8];
}

/* MuJoCo's compiler rules on a body's mass M and inertia I (about its
 * centre of mass): boundmass and boundinertia as lower bounds of the mass
 * and the principal moments; balanceinertia sets the three moments to
 * their mean when one exceeds the sum of the others; settotalmass scales
 * both, last (mass_scale) */
static void compiler_bounds(tr* t, double* M, double I[9]) {
  if (*M < t->boundmass) *M = t->boundmass;
  if (t->boundinertia > 0 || t->balanceinertia) {
    double lam[3], V[9];
    sym3_eigen(I, lam, V);
    int changed = 0;
    for (int k = 0; k < 3; k++)
      if (lam[k] < t->boundinertia) lam[k] = t->boundinertia, changed = 1;
    if (t->balanceinertia && (lam[0] + lam[1] < lam[2] || lam[0] + lam[2] < lam[1] || lam[1] + lam[2] < lam[0])) {
      const double mean = (lam[0] + lam[1] + lam[2]) / 3;
      lam[0] = lam[1] = lam[2] = mean;
      changed = 1;
    }
    if (changed)
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
          I[3 * r + c] = V[3 * r] * lam[0] * V[3 * c] + V[3 * r + 1] * lam[1] * V[3 * c + 1] +
                         V[3 * r + 2] * lam[2] * V[3 * c + 2];
  }
  t->mass_total += *M;
  *M *= t->mass_scale;
  for (int k = 0; k < 9; k++) I[k] *= t->mass_scale;
}

/* room for record i of a growing array */
static int grow(void** p, int* cap, int i, size_t size) {
  if (i < *cap) return 0;
  int cap2 = *cap ? 2 * *cap : 64;
  while (cap2 <= i) cap2 *= 2;
  void* np = sc_calloc((size_t)cap2, size);
  if (!np) return -1;
  if (*cap) memcpy(np, *p, (size_t)*cap * size);
  sc_free(*p);
  *p = np;
  *cap = cap2;
  return 0;
}

#define MAX_BODY_GEOMS 256

static sc_status body(tr* t, xmlNode* n, const char* parent, int inh, int depth, int is_world, const double wp[3],
                      const double wq[4]);

/* ---- a pair's friction under MuJoCo's priority rule ----
 *
 * MuJoCo 2.2.2 (mj_contactParam, checked against it in test_mjcf_contact):
 * of two geoms of different priority the contact takes the higher one's
 * condim, friction, solref and solimp; of equal priority the larger condim,
 * the element-wise larger friction (also that of a condim 1 geom when the
 * other's condim is 3), and solref and solimp mixed by solmix.  simc's pair
 * friction is the larger of its two shapes' (friction_mix: max), so each
 * geom gets one coefficient, written once every geom is known: its own
 * (condim 1: 0) when that gives every pair MuJoCo's value, else the
 * smallest of MuJoCo's values over its pairs, which is the only choice
 * that can (the larger of two values never above a pair's is the pair's
 * only if the larger of the largest allowed is).  Pairs are those two
 * geoms' masks allow, on different bodies, not both the world's and not a
 * body and its parent (unless the world): a superset of what can touch, so
 * a model where no choice works for them is reported approximated (and
 * keeps each geom's own). */

/* geom g of body bid (parent pbid) can collide: remembered, its friction
 * written as a placeholder */
static sc_status pair_geom(tr* t, geom* g, int bid, int pbid) {
  if (!g->contype && !g->conaffinity) return SC_OK;
  if (t->npg == t->cappg) {
    const int cap = t->cappg ? 2 * t->cappg : 64;
    struct xi_pgeom* p = sc_calloc((size_t)cap, sizeof *p);
    if (!p) return sc_error_set(t->err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory translating the model");
    if (t->npg) memcpy(p, t->pg, sizeof *p * (size_t)t->npg);
    sc_free(t->pg);
    t->pg = p;
    t->cappg = cap;
  }
  struct xi_pgeom* p = &t->pg[t->npg++];
  p->prio = g->priority;
  p->body = bid;
  p->parent = pbid;
  p->condim1 = g->condim1;
  p->condim = g->condim;
  p->fr = g->fr_raw;
  p->fr1 = g->fr1;
  p->fr2 = g->fr2;
  p->ct = g->contype;
  p->ca = g->conaffinity;
  p->node = g->node;
  g->mu_slot = t->npg;
  return SC_OK;
}

static int pair_may_touch(const struct xi_pgeom* a, const struct xi_pgeom* b) {
  if (a->body == b->body || !((a->ct & b->ca) | (b->ct & a->ca))) return 0;
  if ((a->parent == b->body && b->body != 0) || (b->parent == a->body && a->body != 0)) return 0;
  return 1;
}

static double pair_mu(const struct xi_pgeom* a, const struct xi_pgeom* b) {
  if (a->prio != b->prio) {
    const struct xi_pgeom* w = a->prio > b->prio ? a : b;
    return w->condim1 ? 0 : w->fr;
  }
  return a->condim1 && b->condim1 ? 0 : fmax(a->fr, b->fr);
}

/* the first pair (i, j) whose larger coefficient in mu is not MuJoCo's, or
 * 0 when none */
static int pair_check(const tr* t, const double* mu, int* fi, int* fj) {
  for (int i = 0; i < t->npg; i++)
    for (int j = i + 1; j < t->npg; j++)
      if (pair_may_touch(&t->pg[i], &t->pg[j]) && fmax(mu[i], mu[j]) != pair_mu(&t->pg[i], &t->pg[j])) {
        *fi = i, *fj = j;
        return 1;
      }
  return 0;
}

/* b with each "@muN@" replaced by geom N's coefficient (lines unchanged) */
static int pair_subst(obuf* b, const double* mu, int n) {
  if (!b->p || !b->n) return 0;
  size_t cnt = 0;
  for (const char* q = b->p; (q = strstr(q, "@mu")) != NULL; q += 3) cnt++;
  if (!cnt) return 0;
  const size_t cap = b->n + 32 * cnt + 1;
  char* o = sc_malloc(cap);
  if (!o) return 1;
  size_t w = 0;
  const char* q = b->p;
  const char* end = b->p + b->n;
  while (q < end) {
    const char* h = strstr(q, "@mu");
    if (!h || h >= end) h = end;
    memcpy(o + w, q, (size_t)(h - q));
    w += (size_t)(h - q);
    if (h == end) break;
    char* e;
    const long k = strtol(h + 3, &e, 10);
    if (*e != '@' || k < 1 || k > n) { /* not a placeholder: kept */
      o[w++] = *h;
      q = h + 1;
      continue;
    }
    w += (size_t)snprintf(o + w, cap - w, "%.17g", mu[k - 1]);
    q = e + 1;
  }
  o[w] = '\0';
  sc_free(b->p);
  b->p = o;
  b->n = w;
  b->cap = cap;
  return 0;
}

/* A pair's torsional and rolling coefficients under MuJoCo's rule (the
 * higher priority's; of equal priority the larger condim with the
 * element-wise larger friction, a condim 3 geom's included) against
 * simc's, the larger of the two geoms' own (a geom's are 0 below condim 4
 * and 6): the first pair they differ for is reported approximated.  (In
 * MuJoCo's humanoid100, condim 4 cylinders of torsional coefficient 0.01
 * among condim 3 and 1 geoms of 0.005, every pair agrees.) */
static void pair_cone_check(tr* t) {
  const int n = t->npg;
  int any = 0;
  for (int i = 0; i < n; i++) any |= t->pg[i].condim >= 4;
  if (!any) return;
  enum { PAIR_MAX_GEOMS = 4000 };
  for (int i = 0; i < n && n <= PAIR_MAX_GEOMS; i++)
    for (int j = i + 1; j < n; j++) {
      const struct xi_pgeom *a = &t->pg[i], *b = &t->pg[j];
      if (!pair_may_touch(a, b)) continue;
      double s, r;
      if (a->prio != b->prio) {
        const struct xi_pgeom* w = a->prio > b->prio ? a : b;
        s = w->condim >= 4 ? w->fr1 : 0.0;
        r = w->condim == 6 ? w->fr2 : 0.0;
      } else {
        const int cd = a->condim > b->condim ? a->condim : b->condim;
        s = cd >= 4 ? fmax(a->fr1, b->fr1) : 0.0;
        r = cd == 6 ? fmax(a->fr2, b->fr2) : 0.0;
      }
      const double ss = fmax(a->condim >= 4 ? a->fr1 : 0.0, b->condim >= 4 ? b->fr1 : 0.0);
      const double rr = fmax(a->condim == 6 ? a->fr2 : 0.0, b->condim == 6 ? b->fr2 : 0.0);
      if (s != ss || r != rr) {
        xi_approximated(t, (a->condim >= 4 ? a : b)->node,
                        "torsional or rolling friction of a geom pair (MuJoCo's takes a condim 3 "
                        "partner's or the higher priority's coefficients; simc's pair the larger of "
                        "its condim 4 or 6 geoms' own; doc/import.md)");
        return;
      }
    }
}

/* each remembered geom's coefficient into the bodies and statics written */
static sc_status pair_friction(tr* t) {
  const int n = t->npg;
  if (n == 0) return SC_OK;
  double* mu = t->pmu = sc_malloc(sizeof(double) * (size_t)n);
  if (!mu) return sc_error_set(t->err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory translating the model");
  for (int i = 0; i < n; i++) mu[i] = t->pg[i].condim1 ? 0 : t->pg[i].fr;
  int fi = 0, fj = 0;
  /* past this many geoms the pairs are not enumerated: each keeps its own */
  enum { PAIR_MAX_GEOMS = 4000 };
  int prio_differs = 0;
  for (int i = 1; i < n; i++) prio_differs |= t->pg[i].prio != t->pg[0].prio;
  if (n > PAIR_MAX_GEOMS) {
    if (prio_differs)
      xi_approximated(t, t->pg[0].node, "geom priority (more geoms than simc checks the pairs of; doc/import.md)");
  } else if (pair_check(t, mu, &fi, &fj)) {
    for (int i = 0; i < n; i++) {
      double m = HUGE_VAL;
      for (int j = 0; j < n; j++)
        if (j != i && pair_may_touch(&t->pg[i], &t->pg[j])) m = fmin(m, pair_mu(&t->pg[i], &t->pg[j]));
      if (m < HUGE_VAL) mu[i] = m;
    }
    int gi, gj;
    if (pair_check(t, mu, &gi, &gj)) {
      for (int i = 0; i < n; i++) mu[i] = t->pg[i].condim1 ? 0 : t->pg[i].fr;
      xi_approximated(t, t->pg[fi].node,
          "geom priority or condim 1 (no friction per shape gives every pair MuJoCo's, of the higher-priority "
          "geom or the larger of two: each keeps its own; doc/import.md)");
    }
  }
  if (pair_subst(&t->bodies, mu, n) || pair_subst(&t->stat, mu, n))
    return sc_error_set(t->err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory translating the model");
  return SC_OK;
}

/* body n under a parent whose frame in the world at qpos0 is (wp, wq), with
 * gs room for its geoms: on the heap, as bodies nest 200 deep */
static sc_status body_geoms(tr* t, xmlNode* n, const char* parent, int inh, int depth, int is_world,
                            const double wp[3], const double wq[4], geom* gs) {
  if (depth > 200) return xi_fail(t, n, NULL, "bodies nested deeper than 200");
  sc_status st;
  /* ids for pair_friction's filter: the world 0, the others in reading order */
  const int parent_bid = t->cur_bid, my_bid = is_world ? 0 : ++t->nbid;
  int cc = inh; /* the class for this body's children */
  const char* childclass = xi_attr(n, "childclass");
  if (childclass) {
    cc = find_class(t, childclass);
    if (cc < 0) return xi_fail(t, n, "childclass", "unknown class '%s'", childclass);
  }
  char name[128];
  if (!is_world) {
    const char* nm = xi_attr(n, "name");
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
  int ng = 0;
  jin js[16];
  int nj = 0;
  const xmlNode* inertial = NULL;
  for (xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    const char* e = xi_name(c);
    if (strcmp(e, "geom") == 0) {
      if (ng == MAX_BODY_GEOMS) return xi_fail(t, c, NULL, "more than %d geoms in a body", MAX_BODY_GEOMS);
      int k = class_of(t, c, cc, &st);
      TRY(st);
      TRY(read_geom(t, c, k, &gs[ng], is_world));
      if (gs[ng].type == SC_GEOM_MESH) TRY(mesh_asset(t, c, gs[ng].mesh_file, &gs[ng]));
      /* only explicit <pair>s (reported) would collide */
      if (t->predefined || (t->off & XI_OFF_CONTACT)) gs[ng].contype = gs[ng].conaffinity = 0;
      if (gs[ng].type >= 0) TRY(pair_geom(t, &gs[ng], is_world ? 0 : my_bid, is_world ? -1 : parent_bid));
      if (gs[ng].type >= 0) ng++;
    } else if (strcmp(e, "joint") == 0 || strcmp(e, "freejoint") == 0) {
      if (is_world) return xi_fail(t, c, NULL, "the worldbody has no joints");
      if (nj == 16) return xi_fail(t, c, NULL, "more than 16 joints in a body");
      int k = class_of(t, c, cc, &st);
      TRY(st);
      TRY(read_joint(t, c, k, &js[nj], name, nj));
      if (js[nj].type == SC_JOINT_FREE && (strcmp(parent, "world") != 0 || nj > 0))
        return xi_fail(t, c, NULL, "a free joint must be the only joint of a body in the worldbody");
      nj++;
    } else if (strcmp(e, "inertial") == 0) {
      inertial = c;
    } else if (strcmp(e, "site") == 0 || strcmp(e, "camera") == 0 || strcmp(e, "light") == 0 ||
               strcmp(e, "body") == 0 || strcmp(e, "frame") == 0) {
      if (strcmp(e, "frame") == 0) xi_unsupported(t, c, "frame");
    } else if (strcmp(e, "composite") == 0 || strcmp(e, "flexcomp") == 0 || strcmp(e, "replicate") == 0) {
      xi_unsupported(t, c, e);
    } else {
      return xi_fail(t, c, NULL, "unknown element in a body");
    }
  }
  for (int i = 0; i < ng; i++)
    if (gs[i].has_sol)
      xi_approximated(t, gs[i].node,
          "geom solref/solimp (a spring resting at MuJoCo's depth under the body's own weight, with its damping "
          "ratio; doc/import.md)");
  for (int i = 0; i < ng; i++) t->any_sol |= gs[i].has_sol;
  if (!is_world) {
    /* mass, centre of mass and inertia: <inertial>, else the geoms' */
    double M = 0, com[3] = {0, 0, 0}, I[9] = {0};
    int from_geoms = t->inertiafromgeom == 2 || (t->inertiafromgeom == 1 && !inertial);
    if (from_geoms) {
      /* each geom's mass centre in the body frame: its origin, or a mesh's
       * centroid */
      double gc[MAX_BODY_GEOMS][3];
      for (int i = 0; i < ng; i++) {
        geom* g = &gs[i];
        memcpy(gc[i], g->pos, sizeof gc[i]);
        if (g->type != SC_GEOM_MESH) continue;
        TRY(mesh_inertia(t, n, g));
        double w[3];
        xi_qrot(w, g->q, g->cm);
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
      if (!xi_attr(inertial, "mass")) return xi_fail(t, inertial, "mass", "required");
      TRY(xi_get_vec(t, inertial, -1, -1, "mass", &M, 1, NULL));
      TRY(xi_get_vec(t, inertial, -1, -1, "diaginertia", di, 3, &has_d));
      TRY(xi_get_vec(t, inertial, -1, -1, "fullinertia", fi, 6, &has_f));
      if (has_d == has_f) return xi_fail(t, inertial, NULL, "give one of diaginertia and fullinertia");
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
    /* a body with no mass of its own that boundmass gives one: MuJoCo
     * 2.2.2 puts that mass at the body's pos taken in the body's own frame
     * (measured: its body_ipos equals body_pos), so the same here */
    if (!(M > 0) && t->boundmass > 0) memcpy(com, pos, sizeof com);
    compiler_bounds(t, &M, I);
    /* the body's frame in the world at qpos0 (the model as written), and
     * its mass properties there */
    double bw[3], bq[4];
    xi_qrot(bw, wq, pos);
    sc_sp_add3(bw, bw, wp);
    xi_qmul(bq, wq, q);
    const int me = t->nbrec;
    if (strcmp(parent, "world") == 0) t->cur_root = me;
    if (grow((void**)&t->brec, &t->capbrec, me, sizeof *t->brec)) return SC_ERR_NOMEM;
    {
      struct mj_brec* r = &t->brec[t->nbrec++];
      double R[9], RI[9];
      r->m = M;
      xi_qrot(r->c, bq, com);
      sc_sp_add3(r->c, r->c, bw);
      sc_sp_quat_to_mat3(R, bq);
      sc_sp_mat3_mul(RI, R, I);
      sc_sp_mat3_mulT(r->I, RI, R);
    }
    int nchild = 0;
    for (xmlNode* c = n->children; c; c = c->next)
      nchild += c->type == XML_ELEMENT_NODE && strcmp(xi_name(c), "body") == 0;
    if (nj > 0 && !(M > 0) && nchild == 0)
      return xi_fail(t, n, NULL, "a moving body needs mass: it has joints but no geoms with volume, no "
                              "<inertial> and no child bodies");
    /* the joints: massless links, then the body fixed to the last */
    const char* prev = parent;
    char yn[XI_YNAME], yp[XI_YNAME];
    double at[3] = {0, 0, 0}; /* the previous link's anchor in the body frame */
    for (int i = 0; i < nj; i++) {
      jin* j = &js[i];
      if (xi_jname_find(t, j->name) >= 0) return xi_fail(t, j->node, "name", "joint name '%s' used twice", j->name);
      const int ji = xi_jname_add(t, j->name);
      if (ji < 0 || grow((void**)&t->jrec, &t->capjrec, ji, sizeof *t->jrec)) return SC_ERR_NOMEM;
      struct mj_jrec* jr = &t->jrec[ji];
      const int sdj = j->sd[0] > 0 && j->sd[1] > 0 && (j->type == SC_JOINT_REVOLUTE || j->type == SC_JOINT_PRISMATIC);
      if (sdj && jr->sd == 2) { /* the first pass found them */
        j->stiffness = jr->k;
        j->damping = jr->b;
      } else if (jr->sd != 2) {
        jr->sd = sdj, jr->type = j->type, jr->first = me, jr->root = t->cur_root, jr->arm = j->armature;
        jr->tc = j->sd[0], jr->dr = j->sd[1];
        double a[3];
        xi_qrot(a, bq, j->anchor);
        sc_sp_add3(jr->a, a, bw);
        xi_qrot(jr->ax, bq, j->axis);
        if (j->type == SC_JOINT_FREE) memcpy(jr->a, bw, sizeof jr->a);
      }
      jr->type = j->type;
      jr->ref = j->ref;
      jr->springref = j->springref;
      xi_src(&t->bodies, j->node);
      xi_src(&t->springs, j->node);
      link_name(t, j->name, j->link, sizeof j->link);
      xi_put(&t->bodies, "  - name: %s\n    parent: %s\n    mass: 0\n", xi_yaml_name(yn, sizeof yn, j->link),
          xi_yaml_name(yp, sizeof yp, prev));
      if (j->type == SC_JOINT_FREE) {
        /* damping and armature are the same on every dof: the same forces in
         * simc's world-frame angular velocity as in MuJoCo's body-frame one */
        xi_put(&t->bodies, "    joint: {type: free");
        if (j->damping > 0) xi_put(&t->bodies, ", damping: %.17g", j->damping);
        if (j->armature > 0) xi_put(&t->bodies, ", armature: %.17g", j->armature);
        xi_put(&t->bodies, "}\n");
        xi_put(&t->bodies, "    initial: {q: [%.17g, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g]}\n", pos[0], pos[1],
            pos[2], q[0], q[1], q[2], q[3]);
      } else {
        double o[3], oq[4] = {1, 0, 0, 0};
        if (i == 0) {
          double w[3];
          xi_qrot(w, q, j->anchor);
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
          xi_qrot(w, oq, d);
          sc_sp_add3(o, o, w);
        }
        xi_put(&t->bodies,
            "    joint: {type: %s, origin: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}",
            xi_joint_yaml[j->type], o[0], o[1], o[2], oq[0], oq[1], oq[2], oq[3]);
        if (j->type != SC_JOINT_BALL) xi_put(&t->bodies, ", axis: [%.17g, %.17g, %.17g]", j->axis[0], j->axis[1], j->axis[2]);
        if (j->limited && j->type != SC_JOINT_BALL) xi_put(&t->bodies, ", limits: [%.17g, %.17g]", j->range[0], j->range[1]);
        if (j->damping > 0) xi_put(&t->bodies, ", damping: %.17g", j->damping);
        if (j->armature > 0) xi_put(&t->bodies, ", armature: %.17g", j->armature);
        if (j->frictionloss > 0) xi_put(&t->bodies, ", friction: %.17g", j->frictionloss);
        xi_put(&t->bodies, "}\n");
        if (j->ref != 0 && (j->type == SC_JOINT_REVOLUTE || j->type == SC_JOINT_PRISMATIC))
          xi_put(&t->bodies, "    initial: {q: [%.17g]}\n", j->ref);
        memcpy(at, j->anchor, sizeof at);
        if (j->stiffness > 0)
          xi_put(&t->springs, "  - {type: joint, joint: %s, stiffness: %.17g, rest: %.17g}\n", yn, j->stiffness,
              j->springref);
      }
      prev = j->link;
    }
    xi_src(&t->bodies, n);
    xi_put(&t->bodies, "  - name: %s\n    parent: %s\n", xi_yaml_name(yn, sizeof yn, name), xi_yaml_name(yp, sizeof yp, prev));
    if (nj == 0) {
      xi_put(&t->bodies, "    joint: {type: fixed, origin: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}}\n",
          pos[0], pos[1], pos[2], q[0], q[1], q[2], q[3]);
    } else {
      xi_put(&t->bodies, "    joint: {type: fixed, origin: {position: [%.17g, %.17g, %.17g]}}\n", -at[0], -at[1], -at[2]);
    }
    if (M > 0) {
      if (inertial) xi_src(&t->bodies, inertial);
      xi_put(&t->bodies, "    mass: %.17g\n    com: [%.17g, %.17g, %.17g]\n", M, com[0], com[1], com[2]);
      xi_put(&t->bodies, "    inertia: {ixx: %.17g, iyy: %.17g, izz: %.17g, ixy: %.17g, ixz: %.17g, iyz: %.17g}\n", I[0],
          I[4], I[8], I[1], I[2], I[5]);
    }
    int ncol = 0;
    for (int i = 0; i < ng; i++) ncol += gs[i].type != SC_GEOM_PLANE;
    if (ncol) {
      xi_put(&t->bodies, "    geometry:\n");
      const double zero[3] = {0, 0, 0};
      for (int i = 0; i < ng; i++) {
        if (gs[i].has_sol) contact_law(t, &gs[i], M);
        xi_put_geom(&t->bodies, "      ", &gs[i], zero);
      }
    }
  }
  double cw[3] = {0, 0, 0}, cq[4] = {1, 0, 0, 0}; /* the children's parent frame */
  int j0 = -1;
  if (!is_world) {
    xi_qrot(cw, wq, pos);
    sc_sp_add3(cw, cw, wp);
    xi_qmul(cq, wq, q);
    j0 = t->njn - nj;
  }
  t->cur_bid = my_bid;
  for (xmlNode* c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && strcmp(xi_name(c), "body") == 0)
      TRY(body(t, c, is_world ? "world" : name, cc, depth + 1, 0, cw, cq));
  t->cur_bid = parent_bid;
  /* the joints' subtrees: this body's record and its descendants' */
  for (int i = j0; i >= 0 && i < j0 + nj; i++)
    if (t->jrec[i].sd != 2) t->jrec[i].last = t->nbrec;
  /* the static shapes, once the moving ones are known: where any of the
   * model's geoms has MuJoCo's law, the world's side is rigid (the moving
   * shape carries the law, for the body's mass), as MuJoCo's world has an
   * infinite mass */
  if (is_world) {
    for (int i = 0; i < ng; i++) {
      geom* g = &gs[i];
      if (g->has_sol || t->any_sol) contact_law(t, g, 0);
      if (g->type == SC_GEOM_PLANE) {
        double z[3] = {0, 0, 1}, nrm[3];
        xi_qrot(nrm, g->q, z);
        xi_src(&t->stat, g->node);
        xi_put(&t->stat, "  - {shape: plane, normal: [%.17g, %.17g, %.17g], offset: %.17g", nrm[0], nrm[1],
            nrm[2], sc_sp_dot3(nrm, g->pos));
        if (g->mu_slot > 0) xi_put(&t->stat, ", friction: @mu%d@", g->mu_slot);
        else xi_put(&t->stat, ", friction: %.17g", g->mu);
        if (g->spin > 0) xi_put(&t->stat, ", torsional_friction: %.17g", g->spin);
        if (g->roll > 0) xi_put(&t->stat, ", rolling_friction: %.17g", g->roll);
        xi_put_masks(&t->stat, g);
        xi_put_contact(&t->stat, g);
        xi_put(&t->stat, "}\n");
      } else {
        const double zero[3] = {0, 0, 0};
        xi_put_geom(&t->stat, "  ", g, zero);
      }
    }
  }
  return SC_OK;
}

/* the dofs of joint j as world twists (angular, then the velocity of the
 * point at the world origin): the count */
static int joint_twists(const struct mj_jrec* j, double tw[6][6]) {
  const double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  int n = 0;
  memset(tw, 0, sizeof(double) * 36);
  if (j->type == SC_JOINT_PRISMATIC || j->type == SC_JOINT_FREE)
    for (int k = 0; k < (j->type == SC_JOINT_FREE ? 3 : 1); k++, n++)
      memcpy(tw[n] + 3, j->type == SC_JOINT_FREE ? e[k] : j->ax, sizeof e[k]);
  if (j->type != SC_JOINT_PRISMATIC)
    for (int k = 0; k < (j->type == SC_JOINT_REVOLUTE ? 1 : 3); k++, n++) {
      memcpy(tw[n], j->type == SC_JOINT_REVOLUTE ? j->ax : e[k], sizeof e[k]);
      sc_sp_cross3(tw[n] + 3, j->a, tw[n]);
    }
  return n;
}

/* Each springdamper joint's stiffness and damping, as MuJoCo 2.2.2 sets
 * them (measured against it): from the joint's effective inertia at qpos0,
 * m = 1 / (M^-1)_ii (the mass matrix there, armature on its diagonal; the
 * other joints of its tree free), k = m / (timeconst dampratio)^2 and
 * b = 2 m / timeconst (solref's time constant and damping ratio). */
static sc_status springdampers(tr* t) {
  for (int i = 0; i < t->njn; i++) {
    struct mj_jrec* ji = &t->jrec[i];
    if (ji->sd != 1) continue;
    /* the dofs of the joint's tree */
    int n = 0, me = -1;
    for (int j = 0; j < t->njn; j++)
      if (t->jrec[j].root == ji->root) {
        double tw[6][6];
        if (j == i) me = n;
        n += joint_twists(&t->jrec[j], tw);
      }
    double* M = sc_calloc((size_t)n * (size_t)n + 6 * (size_t)n + n, sizeof *M);
    int* owner = sc_calloc((size_t)n, sizeof *owner);
    if (!M || !owner) {
      sc_free(M);
      sc_free(owner);
      return SC_ERR_NOMEM;
    }
    double* S = M + (size_t)n * (size_t)n; /* the twists, 6 per dof */
    double* y = S + 6 * (size_t)n;
    int d = 0;
    for (int j = 0; j < t->njn; j++)
      if (t->jrec[j].root == ji->root) {
        double tw[6][6];
        const int nd = joint_twists(&t->jrec[j], tw);
        for (int k = 0; k < nd; k++, d++) {
          memcpy(S + 6 * d, tw[k], sizeof tw[k]);
          owner[d] = j;
          M[(size_t)d * (size_t)n + (size_t)d] += t->jrec[j].arm;
        }
      }
    /* M_ab: twice the kinetic energy shared by the bodies both dofs move */
    for (int a = 0; a < n; a++)
      for (int c = a; c < n; c++) {
        const struct mj_jrec *ja = &t->jrec[owner[a]], *jc = &t->jrec[owner[c]];
        const int lo = ja->first > jc->first ? ja->first : jc->first, hi = ja->last < jc->last ? ja->last : jc->last;
        double sum = 0;
        for (int b = lo; b < hi; b++) {
          const struct mj_brec* r = &t->brec[b];
          double va[3], vc[3], x[3], Iw[3];
          sc_sp_cross3(x, S + 6 * a, r->c);
          sc_sp_add3(va, S + 6 * a + 3, x);
          sc_sp_cross3(x, S + 6 * c, r->c);
          sc_sp_add3(vc, S + 6 * c + 3, x);
          sc_sp_mat3_vec(Iw, r->I, S + 6 * c);
          sum += r->m * t->mass_scale * sc_sp_dot3(va, vc) + t->mass_scale * sc_sp_dot3(S + 6 * a, Iw);
        }
        M[(size_t)a * (size_t)n + (size_t)c] += sum;
        if (c != a) M[(size_t)c * (size_t)n + (size_t)a] = M[(size_t)a * (size_t)n + (size_t)c];
      }
    /* (M^-1)_me,me by Cholesky: y solves M y = e_me */
    int ok = 1;
    for (int c = 0; c < n && ok; c++) {
      double* L = M;
      double s = L[(size_t)c * (size_t)n + (size_t)c];
      for (int k = 0; k < c; k++) s -= L[(size_t)c * (size_t)n + (size_t)k] * L[(size_t)c * (size_t)n + (size_t)k];
      if (!(s > 0)) ok = 0;
      else {
        const double lc = sqrt(s);
        L[(size_t)c * (size_t)n + (size_t)c] = lc;
        for (int r = c + 1; r < n; r++) {
          double v = L[(size_t)r * (size_t)n + (size_t)c];
          for (int k = 0; k < c; k++) v -= L[(size_t)r * (size_t)n + (size_t)k] * L[(size_t)c * (size_t)n + (size_t)k];
          L[(size_t)r * (size_t)n + (size_t)c] = v / lc;
        }
      }
    }
    double m = 0;
    if (ok) {
      for (int r = 0; r < n; r++) { /* L z = e */
        double v = r == me ? 1 : 0;
        for (int k = 0; k < r; k++) v -= M[(size_t)r * (size_t)n + (size_t)k] * y[k];
        y[r] = v / M[(size_t)r * (size_t)n + (size_t)r];
      }
      double q = 0; /* e^T M^-1 e = |z|^2 */
      for (int r = 0; r < n; r++) q += y[r] * y[r];
      m = 1 / q;
    }
    sc_free(M);
    sc_free(owner);
    if (!ok) return xi_fail(t, t->top[0], NULL, "springdamper: the mass matrix at qpos0 is singular");
    ji->k = m / (ji->tc * ji->tc * ji->dr * ji->dr);
    ji->b = 2 * m / ji->tc;
  }
  for (int i = 0; i < t->njn; i++)
    if (t->jrec[i].sd == 1) t->jrec[i].sd = 2;
  return SC_OK;
}

static sc_status body(tr* t, xmlNode* n, const char* parent, int inh, int depth, int is_world, const double wp[3],
                      const double wq[4]) {
  geom* gs = sc_malloc(MAX_BODY_GEOMS * sizeof *gs);
  if (!gs) return SC_ERR_NOMEM;
  const sc_status st = body_geoms(t, n, parent, inh, depth, is_world, wp, wq, gs);
  sc_free(gs);
  return st;
}

/* ---- actuators ---- */

typedef struct site_hit site_hit;
static sc_status find_site(tr* t, const char* name, site_hit* h);
static int tendon_index(const tr* t, const char* name);
static void tendon_name(const tr* t, int idx, char* out, size_t sz);
static sc_status eq_tendon(tr* t, const xmlNode* e, const char* a, int* idx, int* skip);
static sc_status slider_crank(tr* t, const xmlNode* n, int k, int c, const char* name, char* ten, size_t sz);

static sc_status actuators(tr* t, xmlNode* a, int* count) {
  int idx = *count;
  for (xmlNode* n = a->children; n; n = n->next) {
    xi_src(&t->acts, n);
    if (n->type != XML_ELEMENT_NODE) continue;
    const char* e = xi_name(n);
    int k = strcmp(e, "motor") == 0 ? K_MOTOR : strcmp(e, "position") == 0 ? K_POSITION
                                           : strcmp(e, "velocity") == 0   ? K_VELOCITY
                                                                          : -1;
    if (k < 0) {
      xi_unsupported(t, n, e);
      continue;
    }
    sc_status st;
    int c = class_of(t, n, 0, &st);
    TRY(st);
    /* the transmission: a joint, a tendon, or a slider-crank (simc's
     * slider_crank tendon, made for the actuator) */
    const char* j = xi_attr(n, "joint");
    const char* tn = xi_attr(n, "tendon");
    const int crank = xi_attr(n, "cranksite") || xi_attr(n, "slidersite");
    if (!j && !tn && !crank) {
      xi_unsupported(t, n, "actuator transmission other than a joint, a tendon or a slider-crank");
      continue;
    }
    if (j && xi_jname_find(t, j) < 0) return xi_fail(t, n, "joint", "unknown joint '%s'", j);
    char ten[140] = "";
    if (tn && !j) {
      int ti = -1, skip = 0;
      TRY(eq_tendon(t, n, "tendon", &ti, &skip));
      if (skip) {
        xi_unsupported(t, n, "actuator on a tendon left out");
        continue;
      }
      tendon_name(t, ti, ten, sizeof ten);
    }
    char name[128];
    const char* nm = xi_attr(n, "name");
    if (nm) {
      TRY(check_name(t, n, nm));
      snprintf(name, sizeof name, "%s", nm);
    } else {
      snprintf(name, sizeof name, "actuator%d", idx);
    }
    idx++;
    if (!j && !tn) TRY(slider_crank(t, n, k, c, name, ten, sizeof ten));
    double gear = 1, cr[2], fr[2], kp = 1, kv = 1;
    int has_cr = 0, has_fr = 0, cl = -1, fl = -1;
    double g6[6];
    int ngear;
    TRY(xi_get_vec_n(t, n, k, c, "gear", g6, 1, 6, &ngear));
    if (ngear) gear = g6[0];
    TRY(xi_get_vec(t, n, k, c, "ctrlrange", cr, 2, &has_cr));
    TRY(xi_get_vec(t, n, k, c, "forcerange", fr, 2, &has_fr));
    const char* s;
    if ((s = xi_attr_d(t, n, k, c, "ctrllimited")) && strcmp(s, "auto") != 0) {
      cl = 0;
      TRY(xi_get_bool(t, n, k, c, "ctrllimited", &cl));
    }
    if ((s = xi_attr_d(t, n, k, c, "forcelimited")) && strcmp(s, "auto") != 0) {
      fl = 0;
      TRY(xi_get_bool(t, n, k, c, "forcelimited", &fl));
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
    if (k == K_POSITION) TRY(xi_get_vec(t, n, k, c, "kp", &kp, 1, NULL));
    if (k == K_VELOCITY) TRY(xi_get_vec(t, n, k, c, "kv", &kv, 1, NULL));
    if (k != K_MOTOR && gear != 1) xi_unsupported(t, n, "servo gear other than 1");
    char yn[XI_YNAME], yj[XI_YNAME], lk[140];
    if (j) link_name(t, j, lk, sizeof lk);
    else snprintf(lk, sizeof lk, "%s", ten);
    xi_put(&t->acts, "  - {name: %s, type: %s, %s: %s", xi_yaml_name(yn, sizeof yn, name),
        k == K_MOTOR ? "motor" : k == K_POSITION ? "position" : "velocity", j ? "joint" : "tendon",
        xi_yaml_name(yj, sizeof yj, lk));
    if (k == K_MOTOR) xi_put(&t->acts, ", gear: %.17g", gear);
    if (k == K_POSITION) xi_put(&t->acts, ", kp: %.17g", kp);
    if (k == K_VELOCITY) xi_put(&t->acts, ", kd: %.17g", kv);
    if (isfinite(lo) || isfinite(hi)) {
      xi_put(&t->acts, ", effort: [");
      xi_put(&t->acts, isfinite(lo) ? "%.17g, " : "null, ", lo);
      xi_put(&t->acts, isfinite(hi) ? "%.17g]" : "null]", hi);
    }
    xi_put(&t->acts, "}\n");
  }
  *count = idx;
  return SC_OK;
}

/* ---- contact filtering ---- */

/* attribute a of <exclude> e: world or the name of a body of the model,
 * which is the name of its simc body (its joints' links carry the joints'
 * names and hold no geometry) */
static sc_status exclude_body(tr* t, const xmlNode* e, const char* a, const char** out) {
  const char* v = xi_attr(e, a);
  if (!v) return xi_fail(t, e, a, "required (the name of a body)");
  *out = v;
  if (strcmp(v, "world") == 0) return SC_OK;
  if (body_named(t, v)) return SC_OK;
  return xi_fail(t, e, a, "no body named '%s'", v);
}

/* <contact>: each <exclude body1 body2> an excluded pair of the scene;
 * explicit <pair>s are reported */
static sc_status contact(tr* t, const xmlNode* n) {
  for (const xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    if (strcmp(xi_name(c), "exclude") != 0) {
      xi_unsupported(t, c, strcmp(xi_name(c), "pair") == 0 ? "contact pair" : xi_name(c));
      continue;
    }
    const char *b1, *b2;
    TRY(exclude_body(t, c, "body1", &b1));
    TRY(exclude_body(t, c, "body2", &b2));
    if (strcmp(b1, b2) == 0) return xi_fail(t, c, "body2", "the same body as body1 ('%s')", b2);
    xi_src(&t->excl, c);
    char y1[XI_YNAME], y2[XI_YNAME];
    xi_put(&t->excl, "  - [%s, %s]\n", xi_yaml_name(y1, sizeof y1, b1), xi_yaml_name(y2, sizeof y2, b2));
  }
  return SC_OK;
}

/* ---- tendons ---- */

/* site `name`: its body's simc name (the MuJoCo body keeps its frame in
 * simc, the joints' links before it) and its position in that frame.
 * Unnamed bodies are numbered as body_geoms numbers them (in reading
 * order), so the search walks the tree in the same order. */
typedef struct site_hit {
  const xmlNode* node;
  char body[128];
  double pos[3], quat[4]; /* its frame in its body's */
  int gtype;              /* a geom's simc type */
  double radius;          /* a geom's first size */
  int found;
} site_hit;

/* the same for a geom (tag "geom") */
static sc_status find_site_in(tr* t, const xmlNode* n, int cc, const char* bname, int* nauto, const char* name,
                              const char* tag, site_hit* h) {
  for (const xmlNode* c = n->children; c && !h->found; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    const char* e = xi_name(c);
    sc_status st;
    if (strcmp(tag, "geom") == 0 && strcmp(e, "geom") == 0) {
      const char* nm = xi_attr(c, "name");
      if (!nm || strcmp(nm, name) != 0) continue;
      const int k = class_of(t, c, cc, &st);
      TRY(st);
      geom g;
      TRY(read_geom(t, (xmlNode*)c, k, &g, strcmp(bname, "world") == 0));
      memcpy(h->pos, g.pos, sizeof h->pos);
      memcpy(h->quat, g.q, sizeof h->quat);
      h->gtype = g.type;
      h->radius = g.size[0];
      snprintf(h->body, sizeof h->body, "%s", bname);
      h->node = c;
      h->found = 1;
    } else if (strcmp(tag, "site") == 0 && strcmp(e, "site") == 0) {
      const char* nm = xi_attr(c, "name");
      if (!nm || strcmp(nm, name) != 0) continue;
      const int k = class_of(t, c, cc, &st);
      TRY(st);
      TRY(frame(t, c, K_SITE, k, h->pos, h->quat));
      double ft[6];
      int has_ft = 0;
      TRY(xi_get_vec(t, c, K_SITE, k, "fromto", ft, 6, &has_ft));
      /* (a site given by fromto sits midway) */
      if (has_ft)
        for (int i = 0; i < 3; i++) h->pos[i] = 0.5 * (ft[i] + ft[3 + i]);
      snprintf(h->body, sizeof h->body, "%s", bname);
      h->node = c;
      h->found = 1;
    } else if (strcmp(e, "body") == 0) {
      char me[128];
      const char* nm = xi_attr(c, "name");
      if (nm) snprintf(me, sizeof me, "%s", nm);
      else snprintf(me, sizeof me, "body%d", ++*nauto);
      int k = cc;
      const char* ch = xi_attr(c, "childclass");
      if (ch && (k = find_class(t, ch)) < 0) return xi_fail(t, c, "childclass", "unknown class '%s'", ch);
      TRY(find_site_in(t, c, k, me, nauto, name, tag, h));
    }
  }
  return SC_OK;
}

static sc_status find_element(tr* t, const char* name, const char* tag, site_hit* h) {
  memset(h, 0, sizeof *h);
  int nauto = 0;
  for (int i = 0; i < t->ntop && !h->found; i++)
    if (strcmp(xi_name(t->top[i]), "worldbody") == 0)
      TRY(find_site_in(t, t->top[i], 0, "world", &nauto, name, tag, h));
  return SC_OK;
}

static sc_status find_site(tr* t, const char* name, site_hit* h) { return find_element(t, name, "site", h); }

/* MuJoCo's slider-crank transmission of actuator n (named name) as simc's
 * slider_crank tendon, written to the tendons section and named into ten:
 * the crank point is cranksite's, the slider point slidersite's and its
 * axis the slider site's z axis, the rod cranklength.  MuJoCo's actuator
 * length is that tendon's L (doc/import.md). */
static sc_status slider_crank(tr* t, const xmlNode* n, int k, int c, const char* name, char* ten, size_t sz) {
  const char* cs = xi_attr(n, "cranksite");
  const char* ss = xi_attr(n, "slidersite");
  if (!cs) return xi_fail(t, n, "cranksite", "required with slidersite (the crank's site)");
  if (!ss) return xi_fail(t, n, "slidersite", "required with cranksite (the slider's site)");
  double rod = 0;
  TRY(xi_get_vec(t, n, k, c, "cranklength", &rod, 1, NULL));
  if (!(rod > 0) || !isfinite(rod)) return xi_fail(t, n, "cranklength", "must be > 0 (got %g)", rod);
  site_hit hc, hs;
  TRY(find_site(t, cs, &hc));
  if (!hc.found) return xi_fail(t, n, "cranksite", "unknown site '%s'", cs);
  TRY(find_site(t, ss, &hs));
  if (!hs.found) return xi_fail(t, n, "slidersite", "unknown site '%s'", ss);
  snprintf(ten, sz, "%s crank", name);
  if (tendon_index(t, ten) >= 0)
    return xi_fail(t, n, "name", "the slider-crank's tendon would be named '%s', the name of a <tendon>", ten);
  /* the site's z axis: R(quat) e_z */
  const double* q = hs.quat;
  const double ax[3] = {2 * (q[1] * q[3] + q[0] * q[2]), 2 * (q[2] * q[3] - q[0] * q[1]),
                        q[0] * q[0] - q[1] * q[1] - q[2] * q[2] + q[3] * q[3]};
  char yn[XI_YNAME], yc[XI_YNAME], ys[XI_YNAME];
  obuf* o = &t->ten;
  xi_src(o, n);
  xi_put(o, "  - name: %s\n    type: slider_crank\n", xi_yaml_name(yn, sizeof yn, ten));
  xi_put(o, "    crank: {body: %s, point: [%.17g, %.17g, %.17g]}\n", xi_yaml_name(yc, sizeof yc, hc.body), hc.pos[0],
         hc.pos[1], hc.pos[2]);
  xi_put(o, "    slider: {body: %s, point: [%.17g, %.17g, %.17g], axis: [%.17g, %.17g, %.17g]}\n",
         xi_yaml_name(ys, sizeof ys, hs.body), hs.pos[0], hs.pos[1], hs.pos[2], ax[0], ax[1], ax[2]);
  xi_put(o, "    rod: %.17g\n", rod);
  return SC_OK;
}

/* the index of MJCF tendon `name` among every <tendon>'s, -1 when none */
static int tendon_index(const tr* t, const char* name) {
  int idx = 0;
  for (int i = 0; i < t->ntop; i++) {
    if (strcmp(xi_name(t->top[i]), "tendon") != 0) continue;
    for (const xmlNode* n = t->top[i]->children; n; n = n->next) {
      if (n->type != XML_ELEMENT_NODE) continue;
      const char* nm = xi_attr(n, "name");
      if (nm && strcmp(nm, name) == 0) return idx;
      idx++;
    }
  }
  return -1;
}

/* the element of MJCF tendon idx */
static const xmlNode* tendon_node(const tr* t, int idx) {
  int k = 0;
  for (int i = 0; i < t->ntop; i++) {
    if (strcmp(xi_name(t->top[i]), "tendon") != 0) continue;
    for (const xmlNode* n = t->top[i]->children; n; n = n->next)
      if (n->type == XML_ELEMENT_NODE && k++ == idx) return n;
  }
  return NULL;
}

static void tendon_name(const tr* t, int idx, char* out, size_t sz) {
  int k = 0;
  for (int i = 0; i < t->ntop; i++) {
    if (strcmp(xi_name(t->top[i]), "tendon") != 0) continue;
    for (const xmlNode* n = t->top[i]->children; n; n = n->next) {
      if (n->type != XML_ELEMENT_NODE) continue;
      if (k++ != idx) continue;
      const char* nm = xi_attr(n, "name");
      if (nm) snprintf(out, sz, "%s", nm);
      else snprintf(out, sz, "tendon%d", idx);
      return;
    }
  }
  snprintf(out, sz, "tendon%d", idx);
}

/* <tendon>: fixed tendons (a combination of hinge and slide coordinates)
 * and spatial ones through sites, in MuJoCo 2.2.2's terms:
 *  - a fixed tendon's length is sum coef x qpos; simc's q is MuJoCo's qpos
 *    (a joint's ref turns its frame instead), so range and springlength
 *    carry over unchanged;
 *  - a spatial tendon's path is its sites, each a point of its body, its
 *    pulleys (a new branch counting 1/divisor) and the spheres and
 *    cylinders it wraps around (with their side sites);
 *  - range with limited (autolimits) becomes simc's limits, moved margin
 *    inside as MuJoCo's soft limit rests there (as for joints); their soft
 *    law (solreflimit, solimplimit) is held rigid, said so when given;
 *  - stiffness about springlength and damping along the length;
 *  - frictionloss becomes the tendon's dry friction (friction), as a
 *    joint's frictionloss becomes its friction. */
static sc_status tendons(tr* t, const xmlNode* sec) {
  for (const xmlNode* n = sec->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    const char* e = xi_name(n);
    const int idx = t->nten++;
    const int fixed = strcmp(e, "fixed") == 0;
    if (!fixed && strcmp(e, "spatial") != 0) {
      xi_unsupported(t, n, e);
      continue;
    }
    sc_status st;
    const int c = class_of(t, n, 0, &st);
    TRY(st);
    char name[128];
    const char* nm = xi_attr(n, "name");
    if (nm) {
      TRY(check_name(t, n, nm));
      if (tendon_index(t, nm) != idx) return xi_fail(t, n, "name", "tendon name '%s' used twice", nm);
    }
    tendon_name(t, idx, name, sizeof name);
    double range[2] = {0, 0}, margin = 0, k = 0, b = 0, rest = -1, fl = 0;
    int has_range = 0, limited;
    TRY(xi_get_vec(t, n, K_TENDON, c, "range", range, 2, &has_range));
    limited = has_range; /* autolimits */
    const char* lim = xi_attr_d(t, n, K_TENDON, c, "limited");
    if (lim && strcmp(lim, "auto") != 0) TRY(xi_get_bool(t, n, K_TENDON, c, "limited", &limited));
    if (limited && !has_range) return xi_fail(t, n, "range", "limited needs a range");
    if (t->off & XI_OFF_LIMIT) limited = 0;
    TRY(xi_get_vec(t, n, K_TENDON, c, "margin", &margin, 1, NULL));
    TRY(xi_get_vec(t, n, K_TENDON, c, "stiffness", &k, 1, NULL));
    TRY(xi_get_vec(t, n, K_TENDON, c, "damping", &b, 1, NULL));
    TRY(xi_get_vec(t, n, K_TENDON, c, "springlength", &rest, 1, NULL));
    TRY(xi_get_vec(t, n, K_TENDON, c, "frictionloss", &fl, 1, NULL));
    if (!(margin >= 0) || !isfinite(margin)) return xi_fail(t, n, "margin", "must be >= 0 and finite (got %g)", margin);
    if (!(k >= 0) || !isfinite(k)) return xi_fail(t, n, "stiffness", "must be >= 0 and finite (got %g)", k);
    if (!(b >= 0) || !isfinite(b)) return xi_fail(t, n, "damping", "must be >= 0 and finite (got %g)", b);
    if (!isfinite(rest)) return xi_fail(t, n, "springlength", "must be finite");
    if (!(fl >= 0) || !isfinite(fl)) return xi_fail(t, n, "frictionloss", "must be >= 0 and finite (got %g)", fl);
    if (limited) {
      if (!(range[0] < range[1]))
        return xi_fail(t, n, "range", "lower must be below upper (got %g, %g)", range[0], range[1]);
      if (!(range[0] + margin < range[1] - margin))
        return xi_fail(t, n, "margin", "%g leaves nothing of the range [%g, %g] (the limits act margin inside it)",
                       margin, range[0], range[1]);
      range[0] += margin;
      range[1] -= margin;
      double lref[2], limp[5];
      int lsol;
      TRY(read_sol(t, n, K_TENDON, c, "solreflimit", "solimplimit", lref, limp, &lsol));
      if (lsol) xi_approximated(t, n, "tendon solreflimit/solimplimit (simc's tendon limits are rigid)");
    }
    if (t->off & XI_OFF_FRICTIONLOSS) fl = 0;
    char yn[XI_YNAME], y1[XI_YNAME];
    obuf* o = &t->ten;
    xi_src(o, n);
    xi_put(o, "  - name: %s\n    type: %s\n", xi_yaml_name(yn, sizeof yn, name), fixed ? "fixed" : "spatial");
    xi_put(o, "    %s:\n", fixed ? "joints" : "path");
    int np = 0;
    for (const xmlNode* p = n->children; p; p = p->next) {
      if (p->type != XML_ELEMENT_NODE) continue;
      const char* pe = xi_name(p);
      xi_src(o, p);
      if (fixed) {
        const char* jn = xi_attr(p, "joint");
        if (!jn) return xi_fail(t, p, "joint", "required (the name of a joint)");
        const int ji = xi_jname_find(t, jn);
        if (ji < 0) return xi_fail(t, p, "joint", "unknown joint '%s'", jn);
        const int ty = t->jrec[ji].type;
        if (ty != SC_JOINT_REVOLUTE && ty != SC_JOINT_PRISMATIC)
          return xi_fail(t, p, "joint", "joint '%s' is a %s joint (a fixed tendon takes hinge and slide joints)", jn,
                         ty == SC_JOINT_BALL ? "ball" : "free");
        double coef = 0;
        if (!xi_attr(p, "coef")) return xi_fail(t, p, "coef", "required");
        TRY(xi_get_vec(t, p, -1, -1, "coef", &coef, 1, NULL));
        if (!isfinite(coef)) return xi_fail(t, p, "coef", "must be finite");
        char link[140];
        link_name(t, jn, link, sizeof link);
        xi_put(o, "      - {joint: %s, coef: %.17g}\n", xi_yaml_name(y1, sizeof y1, link), coef);
        np++;
      } else if (strcmp(pe, "site") == 0) {
        const char* sn = xi_attr(p, "site");
        if (!sn) return xi_fail(t, p, "site", "required (the name of a site)");
        site_hit h;
        TRY(find_site(t, sn, &h));
        if (!h.found) return xi_fail(t, p, "site", "unknown site '%s'", sn);
        xi_put(o, "      - {body: %s, point: [%.17g, %.17g, %.17g]}\n", xi_yaml_name(y1, sizeof y1, h.body), h.pos[0],
               h.pos[1], h.pos[2]);
        np++;
      } else if (strcmp(pe, "geom") == 0) {
        /* a wrapping sphere or cylinder: its centre, radius and (cylinder)
         * axis in its body's frame, the side site's point */
        const char* gn = xi_attr(p, "geom");
        if (!gn) return xi_fail(t, p, "geom", "required (the name of a sphere or cylinder geom)");
        site_hit g;
        TRY(find_element(t, gn, "geom", &g));
        if (!g.found) return xi_fail(t, p, "geom", "unknown geom '%s'", gn);
        if (g.gtype != SC_GEOM_SPHERE && g.gtype != SC_GEOM_CYLINDER)
          return xi_fail(t, p, "geom", "geom '%s' is not a sphere or cylinder (a tendon wraps only those)", gn);
        double ax[3];
        const double ez[3] = {0, 0, 1};
        xi_qrot(ax, g.quat, ez);
        xi_put(o, "      - {wrap: %s, body: %s, center: [%.17g, %.17g, %.17g], radius: %.17g",
               g.gtype == SC_GEOM_SPHERE ? "sphere" : "cylinder", xi_yaml_name(y1, sizeof y1, g.body), g.pos[0],
               g.pos[1], g.pos[2], g.radius);
        if (g.gtype == SC_GEOM_CYLINDER) xi_put(o, ", axis: [%.17g, %.17g, %.17g]", ax[0], ax[1], ax[2]);
        const char* ssn = xi_attr(p, "sidesite");
        if (ssn) {
          site_hit h;
          TRY(find_site(t, ssn, &h));
          if (!h.found) return xi_fail(t, p, "sidesite", "unknown site '%s'", ssn);
          char y2[XI_YNAME];
          xi_put(o, ", side: {body: %s, point: [%.17g, %.17g, %.17g]}", xi_yaml_name(y2, sizeof y2, h.body),
                 h.pos[0], h.pos[1], h.pos[2]);
        }
        xi_put(o, "}\n");
      } else if (strcmp(pe, "pulley") == 0) {
        double dv = 0;
        TRY(xi_get_vec(t, p, -1, -1, "divisor", &dv, 1, NULL));
        if (!(dv > 0) || !isfinite(dv)) return xi_fail(t, p, "divisor", "must be > 0 (got %g)", dv);
        xi_put(o, "      - {pulley: %.17g}\n", dv);
      }
    }
    xi_src(o, n);
    if (np < (fixed ? 1 : 2))
      return xi_fail(t, n, NULL, fixed ? "a fixed tendon needs a <joint>" : "a spatial tendon needs two <site>s");
    if (limited) xi_put(o, "    limits: [%.17g, %.17g]\n", range[0], range[1]);
    if (k > 0) xi_put(o, "    stiffness: %.17g\n", k);
    if (b > 0) xi_put(o, "    damping: %.17g\n", b);
    if (fl > 0) xi_put(o, "    friction: %.17g\n", fl);
    /* MuJoCo's springlength < 0: the length at qpos_spring (each hinge and
     * slide at its springref, the rest at qpos0), which for a fixed tendon
     * is sum coef x springref; a spatial tendon's is its length at the
     * start (simc's rest left out) when every hinge and slide has
     * springref = ref, and is reported otherwise */
    if (k > 0 && rest < 0 && fixed) {
      rest = 0;
      for (const xmlNode* p = n->children; p; p = p->next) {
        if (p->type != XML_ELEMENT_NODE) continue;
        double coef = 0;
        TRY(xi_get_vec(t, p, -1, -1, "coef", &coef, 1, NULL));
        rest += coef * t->jrec[xi_jname_find(t, xi_attr(p, "joint"))].springref;
      }
    } else if (k > 0 && rest < 0) {
      for (int j = 0; j < t->njn; j++)
        if ((t->jrec[j].type == SC_JOINT_REVOLUTE || t->jrec[j].type == SC_JOINT_PRISMATIC) &&
            t->jrec[j].ref != t->jrec[j].springref) {
          xi_unsupported(t, n, "spatial tendon stiffness without springlength where a joint's springref is not its "
                               "ref (MuJoCo's rest length is the length at the springrefs)");
          break;
        }
    }
    if (k > 0 && rest >= 0) xi_put(o, "    rest: %.17g\n", rest);
  }
  return SC_OK;
}

/* ---- equality constraints ---- */

/* attribute a of equality element e: world (also when absent and not
 * required: MuJoCo's body2 omitted) or the name of a body of the model */
static sc_status eq_body(tr* t, const xmlNode* e, const char* a, int required, const char** out) {
  const char* v = xi_attr(e, a);
  *out = v ? v : "world";
  if (!v && required) return xi_fail(t, e, a, "required (the name of a body)");
  if (strcmp(*out, "world") == 0 || body_named(t, v)) return SC_OK;
  return xi_fail(t, e, a, "no body named '%s'", v);
}

/* attribute a of <joint> equality e: a hinge or slide joint of the model,
 * its simc body (link) and its ref (MuJoCo's qpos0 for it) */
static sc_status eq_joint(tr* t, const xmlNode* e, const char* a, char* link, size_t sz, double* ref) {
  const char* v = xi_attr(e, a);
  if (!v) return xi_fail(t, e, a, "required (the name of a joint)");
  const int ji = xi_jname_find(t, v);
  if (ji < 0) return xi_fail(t, e, a, "unknown joint '%s'", v);
  const int ty = t->jrec[ji].type;
  if (ty != SC_JOINT_REVOLUTE && ty != SC_JOINT_PRISMATIC)
    return xi_fail(t, e, a, "joint '%s' is a %s joint (MuJoCo couples hinge and slide joints only)", v,
                   ty == SC_JOINT_BALL ? "ball" : "free");
  link_name(t, v, link, sz);
  *ref = t->jrec[ji].ref;
  return SC_OK;
}

/* attribute a of <tendon> equality e: a tendon of the model (its index);
 * *skip set when that tendon was left out */
static sc_status eq_tendon(tr* t, const xmlNode* e, const char* a, int* idx, int* skip) {
  const char* v = xi_attr(e, a);
  if (!v) return xi_fail(t, e, a, "required (the name of a tendon)");
  *idx = tendon_index(t, v);
  if (*idx < 0) return xi_fail(t, e, a, "unknown tendon '%s'", v);
  const xmlNode* tn = tendon_node(t, *idx);
  if (tn && strcmp(xi_name(tn), "fixed") != 0 && strcmp(xi_name(tn), "spatial") != 0) *skip = 1;
  return SC_OK;
}

/* <equality>: connect, weld and joint become simc's constraints of those
 * types, each in MuJoCo 2.2.2's terms (measured against it: its eq_data at
 * qpos0 and its residuals):
 *  - connect: the anchor in body1's frame, and on body2 (world when
 *    omitted) where the anchor is at qpos0: simc's a = body1 with the
 *    anchor, b = body2 at the start;
 *  - weld: the anchor in body2's frame, and on body1 where the anchor is at
 *    qpos0, body2's orientation held in body1's as at qpos0; with a relpose
 *    (its quaternion not zero) body1's point is its position and body2's
 *    orientation body1's turned by its quaternion: simc's a = body2 with
 *    the anchor, b = body1;
 *  - joint: q1 - ref1 = c0 + c1 (q2 - ref2) + ... + c4 (q2 - ref2)^4 with
 *    the joints' refs (their qpos0); without joint2, q1 = ref1 + c0.  simc's
 *    q is MuJoCo's (see the joints above), so the refs are the relation's
 *    reference.
 * MuJoCo's soft law (solref, solimp; torquescale weighs a weld's rotation
 * in it) becomes simc's near-rigid rows: approximated, said so.  An
 * inactive constraint is left out (said in the translation's note).
 *  - tendon: L1 - L1_0 = c0 + c1 (L2 - L2_0) + ... with the tendons'
 *    lengths at qpos0 (MuJoCo's tendon_length0), which simc's tendon
 *    constraint takes at the start; without tendon2, L1 = L1_0 + c0.
 * Distance constraints MuJoCo 2.2.2
 * refuses, and so does this. */
static sc_status equality(tr* t, const xmlNode* eq, int* count) {
  for (const xmlNode* n = eq->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    const char* e = xi_name(n);
    const int idx = (*count)++;
    if (strcmp(e, "distance") == 0)
      return xi_fail(t, n, NULL, "distance constraints were removed in MuJoCo 2.2.2, which refuses them (a connect, "
                                 "or a simc scene's distance constraint, holds two points)");
    const int type = strcmp(e, "connect") == 0 ? SC_EQ_CONNECT : strcmp(e, "weld") == 0 ? SC_EQ_WELD
                     : strcmp(e, "joint") == 0 ? SC_EQ_JOINT : strcmp(e, "tendon") == 0 ? SC_EQ_TENDON : -1;
    if (type < 0) {
      xi_unsupported(t, n, e);
      continue;
    }
    sc_status st;
    const int c = class_of(t, n, 0, &st);
    TRY(st);
    char name[128];
    const char* nm = xi_attr(n, "name");
    if (nm) {
      TRY(check_name(t, n, nm));
      snprintf(name, sizeof name, "%s", nm);
    } else {
      snprintf(name, sizeof name, "constraint%d", idx);
    }
    int active = 1, has_sol;
    TRY(xi_get_bool(t, n, K_EQUALITY, c, "active", &active));
    double sref[2], simp[5];
    TRY(read_sol(t, n, K_EQUALITY, c, "solref", "solimp", sref, simp, &has_sol));
    char yn[XI_YNAME], y1[XI_YNAME], y2[XI_YNAME];
    xi_yaml_name(yn, sizeof yn, name);
    if (type == SC_EQ_TENDON) {
      char t1[128], t2[128];
      double pc[5] = {0, 1, 0, 0, 0};
      int i1, i2 = -1, skip = 0;
      TRY(eq_tendon(t, n, "tendon1", &i1, &skip));
      const int two = xi_attr(n, "tendon2") != NULL;
      if (two) TRY(eq_tendon(t, n, "tendon2", &i2, &skip));
      if (two && i1 == i2) return xi_fail(t, n, "tendon2", "the same tendon as tendon1");
      TRY(xi_get_vec(t, n, K_EQUALITY, c, "polycoef", pc, 5, NULL));
      for (int k = 0; k < 5; k++)
        if (!isfinite(pc[k])) return xi_fail(t, n, "polycoef", "must be finite");
      if (!active) {
        t->neq_inactive++;
        continue;
      }
      if (skip) {
        xi_unsupported(t, n, "tendon equality on a tendon left out");
        continue;
      }
      tendon_name(t, i1, t1, sizeof t1);
      xi_src(&t->eq, n);
      xi_put(&t->eq, "  - {type: tendon, name: %s, tendon: %s", yn, xi_yaml_name(y1, sizeof y1, t1));
      if (two) {
        tendon_name(t, i2, t2, sizeof t2);
        xi_put(&t->eq, ", of: %s, polynomial: [%.17g, %.17g, %.17g, %.17g, %.17g]", xi_yaml_name(y2, sizeof y2, t2),
               pc[0], pc[1], pc[2], pc[3], pc[4]);
      } else {
        xi_put(&t->eq, ", offset: %.17g", pc[0]);
      }
    } else if (type == SC_EQ_JOINT) {
      char l1[140], l2[140];
      double r1 = 0, r2 = 0, pc[5] = {0, 1, 0, 0, 0};
      TRY(eq_joint(t, n, "joint1", l1, sizeof l1, &r1));
      const int two = xi_attr(n, "joint2") != NULL;
      if (two) TRY(eq_joint(t, n, "joint2", l2, sizeof l2, &r2));
      if (two && strcmp(l1, l2) == 0) return xi_fail(t, n, "joint2", "the same joint as joint1");
      TRY(xi_get_vec(t, n, K_EQUALITY, c, "polycoef", pc, 5, NULL));
      for (int k = 0; k < 5; k++)
        if (!isfinite(pc[k])) return xi_fail(t, n, "polycoef", "must be finite");
      if (!active) {
        t->neq_inactive++;
        continue;
      }
      xi_src(&t->eq, n);
      xi_put(&t->eq, "  - {type: joint, name: %s, joint: %s", yn, xi_yaml_name(y1, sizeof y1, l1));
      if (two)
        xi_put(&t->eq, ", of: %s, polynomial: [%.17g, %.17g, %.17g, %.17g, %.17g], reference: [%.17g, %.17g]",
               xi_yaml_name(y2, sizeof y2, l2), pc[0], pc[1], pc[2], pc[3], pc[4], r1, r2);
      else
        xi_put(&t->eq, ", offset: %.17g, reference: [%.17g, 0]", pc[0], r1);
    } else {
      const char *b1, *b2;
      double anchor[3] = {0, 0, 0}, rel[7] = {0, 1, 0, 0, 0, 0, 0}, ts = 1;
      int has_rel = 0;
      TRY(eq_body(t, n, "body1", 1, &b1));
      TRY(eq_body(t, n, "body2", 0, &b2));
      if (strcmp(b1, b2) == 0) return xi_fail(t, n, "body2", "the same body as body1 ('%s')", b2);
      TRY(xi_get_vec(t, n, K_EQUALITY, c, "anchor", anchor, 3, NULL));
      if (type == SC_EQ_WELD) {
        TRY(xi_get_vec(t, n, K_EQUALITY, c, "relpose", rel, 7, &has_rel));
        TRY(xi_get_vec(t, n, K_EQUALITY, c, "torquescale", &ts, 1, NULL));
      }
      for (int k = 0; k < 3; k++)
        if (!isfinite(anchor[k])) return xi_fail(t, n, "anchor", "must be finite");
      if (!active) {
        t->neq_inactive++;
        continue;
      }
      /* (MuJoCo ignores a relpose whose quaternion is zero, its default) */
      const int relpose = type == SC_EQ_WELD && (rel[3] != 0 || rel[4] != 0 || rel[5] != 0 || rel[6] != 0);
      for (int k = 0; k < 7; k++)
        if (relpose && !isfinite(rel[k])) return xi_fail(t, n, "relpose", "must be finite");
      if (t->global) {
        xi_unsupported(t, n, "equality anchor under compiler coordinate=\"global\"");
        continue;
      }
      if (ts != 1) xi_approximated(t, n, "weld torquescale (it weighs the rotation in MuJoCo's soft law; simc's weld rows are near-rigid)");
      const char* a = type == SC_EQ_CONNECT ? b1 : b2;
      const char* b = type == SC_EQ_CONNECT ? b2 : b1;
      xi_src(&t->eq, n);
      xi_put(&t->eq, "  - {type: %s, name: %s, a: {body: %s, point: [%.17g, %.17g, %.17g]}, b: {body: %s", e, yn,
             xi_yaml_name(y1, sizeof y1, a), anchor[0], anchor[1], anchor[2], xi_yaml_name(y2, sizeof y2, b));
      /* relpose: body1's point is its position part, and body2's frame is
       * body1's turned by its quaternion, so b's (body1's) orientation in
       * a's (body2's) is the quaternion's inverse */
      if (relpose)
        xi_put(&t->eq, ", point: [%.17g, %.17g, %.17g]}, quat: [%.17g, %.17g, %.17g, %.17g]", rel[0], rel[1], rel[2],
               rel[3], -rel[4], -rel[5], -rel[6]);
      else
        xi_put(&t->eq, "}");
    }
    xi_put(&t->eq, "}\n");
    /* (also without solref and solimp: MuJoCo's defaults are soft, a
     * four-bar's loop sagging 2.6e-2 m under gravity, test_mjcf) */
    xi_approximated(t, n, "equality constraint (MuJoCo's soft law, solref/solimp 0.02 1 / 0.9 0.95 unless given, held "
                          "near-rigid)");
  }
  return SC_OK;
}

/* ---- the whole model ---- */

/* 1 when an element at or below n has attribute a */
static int has_attr(const xmlNode* n, const char* a) {
  if (!n) return 0;
  if (n->type == XML_ELEMENT_NODE && xi_attr(n, a)) return 1;
  for (const xmlNode* c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && has_attr(c, a)) return 1;
  return 0;
}

/* <option><flag>: MuJoCo's switches.  Those that switch a kind of row or
 * force off are applied by leaving it out of the translation (t->off);
 * those that only steer MuJoCo's own solver or diagnostics (warmstart,
 * refsafe, sensor, energy, fwdinv, sensornoise) change nothing simc
 * computes; the rest are reported by name when set away from their
 * default. */
static sc_status option_flag(tr* t, const xmlNode* f) {
  static const struct {
    const char* name;
    int on;   /* MuJoCo's default: enabled */
    int off;  /* XI_OFF_* bits when set away from the default, 0 nothing, -1 reported */
  } F[] = {{"constraint", 1, XI_OFF_CONTACT | XI_OFF_LIMIT | XI_OFF_EQUALITY | XI_OFF_FRICTIONLOSS},
           {"equality", 1, XI_OFF_EQUALITY}, {"frictionloss", 1, XI_OFF_FRICTIONLOSS}, {"limit", 1, XI_OFF_LIMIT},
           {"contact", 1, XI_OFF_CONTACT}, {"gravity", 1, XI_OFF_GRAVITY}, {"passive", 1, -1},
           {"clampctrl", 1, -1}, {"filterparent", 1, -1}, {"actuation", 1, -1}, {"warmstart", 1, 0},
           {"refsafe", 1, 0}, {"sensor", 1, 0}, {"override", 0, -1}, {"energy", 0, 0}, {"fwdinv", 0, 0},
           {"sensornoise", 0, 0}, {"multiccd", 0, -1}};
  for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
    const char* v = xi_attr(f, F[i].name);
    if (!v) continue;
    int on = strcmp(v, "enable") == 0;
    if (!on && strcmp(v, "disable") != 0) return xi_fail(t, f, F[i].name, "expected enable or disable (got '%s')", v);
    if (on == F[i].on) continue;
    if (F[i].off > 0) t->off |= F[i].off;
    if (F[i].off < 0) {
      char what[64];
      snprintf(what, sizeof what, "option flag %s=\"%s\"", F[i].name, v);
      xi_unsupported(t, f, what);
    }
  }
  return SC_OK;
}

sc_status xi_translate_mjcf(tr* t, xmlNode* root) {
  TRY(collect(t, root, 0));
  TRY(xi_mjcf_check_schema(t));
  const char* mn = xi_attr(root, "model");
  xi_set_model_name(t, mn ? mn : "mjcf");
  /* compiler, option, defaults first (MuJoCo reads them wherever they are) */
  t->degree = 1;
  t->inertiafromgeom = 1;
  snprintf(t->eulerseq, sizeof t->eulerseq, "xyz");
  t->timestep = 0.002;
  t->settotalmass = -1;
  t->mass_scale = 1;
  t->gravity[0] = t->gravity[1] = 0, t->gravity[2] = -9.81;
  for (int i = 0; i < t->ntop; i++) {
    xmlNode* n = t->top[i];
    const char* e = xi_name(n);
    if (strcmp(e, "compiler") == 0) {
      const char* a = xi_attr(n, "angle");
      if (a && strcmp(a, "degree") != 0 && strcmp(a, "radian") != 0) return xi_fail(t, n, "angle", "expected degree or radian");
      if (a) t->degree = strcmp(a, "degree") == 0;
      if ((a = xi_attr(n, "eulerseq"))) {
        if (strlen(a) != 3) return xi_fail(t, n, "eulerseq", "expected 3 of x y z X Y Z");
        for (int k = 0; k < 3; k++)
          if (!strchr("xyzXYZ", a[k])) return xi_fail(t, n, "eulerseq", "expected 3 of x y z X Y Z");
        snprintf(t->eulerseq, sizeof t->eulerseq, "%s", a);
      }
      if ((a = xi_attr(n, "inertiafromgeom")))
        t->inertiafromgeom = strcmp(a, "true") == 0 ? 2 : strcmp(a, "false") == 0 ? 0 : 1;
      if ((a = xi_attr(n, "meshdir"))) snprintf(t->meshdir, sizeof t->meshdir, "%s", a);
      TRY(xi_get_vec(t, n, -1, -1, "boundmass", &t->boundmass, 1, NULL));
      TRY(xi_get_vec(t, n, -1, -1, "boundinertia", &t->boundinertia, 1, NULL));
      TRY(xi_get_vec(t, n, -1, -1, "settotalmass", &t->settotalmass, 1, NULL));
      TRY(xi_get_bool(t, n, -1, -1, "balanceinertia", &t->balanceinertia));
      if ((a = xi_attr(n, "coordinate"))) {
        if (strcmp(a, "local") != 0 && strcmp(a, "global") != 0) return xi_fail(t, n, "coordinate", "expected local or global");
        t->global = strcmp(a, "global") == 0;
      }
      if (t->boundmass < 0) return xi_fail(t, n, "boundmass", "must be >= 0");
      if (t->boundinertia < 0) return xi_fail(t, n, "boundinertia", "must be >= 0");
    } else if (strcmp(e, "option") == 0) {
      TRY(xi_get_vec(t, n, -1, -1, "timestep", &t->timestep, 1, NULL));
      if (!(t->timestep > 0)) return xi_fail(t, n, "timestep", "must be > 0");
      TRY(xi_get_vec(t, n, -1, -1, "gravity", t->gravity, 3, NULL));
      /* the medium: the scene's fluid (MuJoCo's inertia-box model, the
       * one it uses for bodies without fluidshape="ellipsoid" geoms) */
      TRY(xi_get_vec(t, n, -1, -1, "density", &t->fluid[0], 1, NULL));
      TRY(xi_get_vec(t, n, -1, -1, "viscosity", &t->fluid[1], 1, NULL));
      TRY(xi_get_vec(t, n, -1, -1, "wind", &t->fluid[2], 3, NULL));
      if (t->fluid[0] < 0) return xi_fail(t, n, "density", "must be >= 0");
      if (t->fluid[1] < 0) return xi_fail(t, n, "viscosity", "must be >= 0");
      const char* cm = xi_attr(n, "collision");
      if (cm && strcmp(cm, "all") != 0 && strcmp(cm, "predefined") != 0 && strcmp(cm, "dynamic") != 0)
        return xi_fail(t, n, "collision", "expected all, predefined or dynamic (got '%s')", cm);
      t->predefined = cm && strcmp(cm, "predefined") == 0;
      for (xmlNode* c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp(xi_name(c), "flag") == 0) TRY(option_flag(t, c));
    } else if (strcmp(e, "default") == 0) {
      TRY(read_default(t, n, -1));
    }
  }
  if (t->off & XI_OFF_GRAVITY) t->gravity[0] = t->gravity[1] = t->gravity[2] = 0;
  if (t->off) {
    static const char* const what[] = {"contacts", "joint and tendon limits", "equality constraints", "dry friction",
                                       "gravity"};
    size_t o = strlen(t->note);
    snprintf(t->note + o, sizeof t->note - o, "%soption flag: no", o ? "; " : "");
    for (int b = 0, k = 0; b < 5; b++)
      if (t->off & (1 << b)) {
        o = strlen(t->note);
        snprintf(t->note + o, sizeof t->note - o, "%s %s", k++ ? "," : "", what[b]);
      }
  }
  if (t->ncls == 0) {
    memset(&t->cls[0], 0, sizeof t->cls[0]);
    t->cls[0].name = "main";
    t->cls[0].parent = -1;
    t->ncls = 1;
  }
  /* composites: MuJoCo's expansion, its elements in a class of their own
   * with no parent (MuJoCo builds them from its built-in defaults) */
  if (t->ncls == (int)(sizeof t->cls / sizeof t->cls[0])) return xi_fail(t, root, NULL, "too many default classes");
  memset(&t->cls[t->ncls], 0, sizeof t->cls[0]);
  t->cls[t->ncls].name = COMPOSITE_CLASS;
  t->cls[t->ncls].parent = -1;
  t->ncls++;
  int ncomp = 0;
  TRY(xi_mjcf_composites(t, &ncomp));
  if (t->comp_skin) {
    size_t o = strlen(t->note);
    snprintf(t->note + o, sizeof t->note - o, "%scomposite skin%s not drawn (visual)", o ? "; " : "",
             t->comp_skin == 1 ? "" : "s");
  }
  if (t->global) {
    const double P[3] = {0, 0, 0}, Q[4] = {1, 0, 0, 0};
    for (int i = 0; i < t->ntop; i++)
      if (strcmp(xi_name(t->top[i]), "worldbody") == 0) TRY(globals_to_local(t, t->top[i], 0, P, Q));
  }
  /* settotalmass scales what the bodies' masses come to, springdamper
   * needs the joints' inertias: a first pass of the bodies finds them, the
   * second writes the bodies */
  const double P0[3] = {0, 0, 0}, Q0[4] = {1, 0, 0, 0};
  int sd = 0;
  for (int i = 0; i < t->ndoc && !sd; i++) sd = has_attr(xmlDocGetRootElement(t->doc[i]), "springdamper");
  if (t->settotalmass > 0 || sd) {
    for (int i = 0; i < t->ntop; i++)
      if (strcmp(xi_name(t->top[i]), "worldbody") == 0) TRY(body(t, t->top[i], "world", 0, 0, 1, P0, Q0));
    if (t->settotalmass > 0) {
      if (!(t->mass_total > 0)) return xi_fail(t, root, NULL, "settotalmass: the model has no mass to scale");
      t->mass_scale = t->settotalmass / t->mass_total;
    }
    TRY(springdampers(t));
    t->nbrec = 0;
    obuf* bs[3] = {&t->bodies, &t->stat, &t->springs};
    for (int i = 0; i < 3; i++) bs[i]->n = bs[i]->nl = 0, bs[i]->src = NULL;
    for (int i = 0; i < t->njn; i++) sc_free(t->jname[i]);
    t->njn = 0;
    t->nbody_auto = 0;
    t->mass_total = 0;
    t->npg = t->nbid = t->cur_bid = 0;
  }
  /* a model without a <worldbody> is the empty world, as MuJoCo loads it */
  for (int i = 0; i < t->ntop; i++) {
    xmlNode* n = t->top[i];
    const char* e = xi_name(n);
    if (strcmp(e, "worldbody") == 0) {
      TRY(body(t, n, "world", 0, 0, 1, P0, Q0));
    } else if (strcmp(e, "compiler") == 0 || strcmp(e, "option") == 0 || strcmp(e, "default") == 0 ||
               strcmp(e, "asset") == 0 || strcmp(e, "visual") == 0 || strcmp(e, "statistic") == 0 ||
               strcmp(e, "size") == 0 || strcmp(e, "sensor") == 0 || strcmp(e, "keyframe") == 0 ||
               strcmp(e, "actuator") == 0 || strcmp(e, "custom") == 0) {
      continue; /* custom: numbers and text for the user's code */
    } else if (strcmp(e, "contact") == 0) {
      if (!(t->off & XI_OFF_CONTACT)) TRY(contact(t, n)); /* pairs and excludes of no contact */
    } else if (strcmp(e, "tendon") == 0 || strcmp(e, "equality") == 0) {
      continue; /* once every body and joint is known */
    } else {
      return xi_fail(t, n, NULL, "unknown top-level element");
    }
  }
  TRY(pair_friction(t));
  pair_cone_check(t);
  for (int i = 0; i < t->ntop; i++)
    if (strcmp(xi_name(t->top[i]), "tendon") == 0) TRY(tendons(t, t->top[i]));
  int neq = 0; /* MuJoCo numbers the constraints across every <equality> */
  for (int i = 0; i < t->ntop; i++)
    if (strcmp(xi_name(t->top[i]), "equality") == 0 && !(t->off & XI_OFF_EQUALITY)) TRY(equality(t, t->top[i], &neq));
  if (t->neq_inactive) {
    size_t o = strlen(t->note);
    snprintf(t->note + o, sizeof t->note - o, "%s%d equality constraint%s with active=\"false\" left out (simc cannot switch one on)",
             o ? "; " : "", t->neq_inactive, t->neq_inactive == 1 ? "" : "s");
  }
  int nact = 0; /* unnamed actuators are numbered across every <actuator> */
  for (int i = 0; i < t->ntop; i++)
    if (strcmp(xi_name(t->top[i]), "actuator") == 0) TRY(actuators(t, t->top[i], &nact));
  return SC_OK;
}

