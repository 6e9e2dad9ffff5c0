/* urdf: a URDF robot (root element <robot>) translated into a simc scene.
 *
 * Each link is a body named after it: its <inertial> gives the mass, the
 * centre of mass and the inertia turned into the link frame (R I R^T), its
 * <collision> shapes its geometry (<visual> is not dynamics).  A moving
 * joint becomes a massless link body named after the joint, at the joint's
 * origin in the parent link with its axis, limits and dynamics, the child
 * link hanging from it at zero offset (URDF's child frame is the joint
 * frame); a fixed joint attaches the child link directly.  The root link is
 * fixed to the world, or free (--floating-base). */
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene/scene_internal.h"
#include "scene/xml_import.h"
#include "spatial/spatial.h"

/* origin xyz rpy (URDF: R = Rz(y) Ry(p) Rx(r), as simc's rpy) as a position
 * and quaternion */
static sc_status urdf_origin(tr* t, const xmlNode* parent, double pos[3], double q[4]) {
  pos[0] = pos[1] = pos[2] = 0;
  q[0] = 1, q[1] = q[2] = q[3] = 0;
  for (const xmlNode* c = parent->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || strcmp(xi_name(c), "origin") != 0) continue;
    double rpy[3] = {0, 0, 0}, R[9];
    TRY(xi_get_vec(t, c, -1, -1, "xyz", pos, 3, NULL));
    TRY(xi_get_vec(t, c, -1, -1, "rpy", rpy, 3, NULL));
    sc_sp_rpy_to_mat3(R, rpy);
    sc_sp_mat3_to_quat(q, R);
  }
  return SC_OK;
}

static const xmlNode* child_el(const xmlNode* n, const char* name) {
  for (const xmlNode* c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && strcmp(xi_name(c), name) == 0) return c;
  return NULL;
}

/* a package:// or relative mesh file name as a path */
static sc_status urdf_mesh_path(tr* t, const xmlNode* m, const char* fn, const char* model_path, const char** out) {
  char buf[1024];
  if (strncmp(fn, "package://", 10) == 0) {
    if (!model_path) return xi_fail(t, m, "filename", "'%s' needs --model-path DIR (DIR/<package>/<path>)", fn);
    snprintf(buf, sizeof buf, "%s/%s", model_path, fn + 10);
  } else if (strncmp(fn, "file://", 7) == 0) {
    snprintf(buf, sizeof buf, "%s", fn + 7);
  } else {
    snprintf(buf, sizeof buf, "%s", fn);
  }
  if (t->nstr == (int)(sizeof t->strs / sizeof t->strs[0])) return xi_fail(t, m, NULL, "too many meshes");
  /* a package:// path is in --model-path's DIR, which is relative to the
   * working directory; another relative path is relative to the URDF */
  const int pkg = strncmp(fn, "package://", 10) == 0;
  char* p = xi_abs_path(buf[0] == '/' || pkg ? sc_strdup(buf) : sc_rd_path_beside(xi_file(m), buf));
  if (!p) return SC_ERR_NOMEM;
  t->strs[t->nstr++] = p;
  *out = p;
  return SC_OK;
}

static sc_status urdf_link(tr* t, const xmlNode* L, const char* name, const char* parent, const double pos[3],
                           const double q[4], const char* model_path) {
  xi_src(&t->bodies, L);
  xi_put(&t->bodies, "  - name: %s\n    parent: %s\n", name, parent);
  xi_put(&t->bodies, "    joint: {type: fixed, origin: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}}\n",
      pos[0], pos[1], pos[2], q[0], q[1], q[2], q[3]);
  const xmlNode* in = child_el(L, "inertial");
  if (in) {
    double ip[3], iq[4], m = 0, I6[6] = {0};
    TRY(urdf_origin(t, in, ip, iq));
    const xmlNode* mm = child_el(in, "mass");
    const xmlNode* ii = child_el(in, "inertia");
    if (!mm || !xi_attr(mm, "value")) return xi_fail(t, in, NULL, "needs <mass value>");
    if (!ii) return xi_fail(t, in, NULL, "needs <inertia>");
    TRY(xi_get_vec(t, mm, -1, -1, "value", &m, 1, NULL));
    const char* keys[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
    for (int k = 0; k < 6; k++) TRY(xi_get_vec(t, ii, -1, -1, keys[k], &I6[k], 1, NULL));
    if (!(m >= 0)) return xi_fail(t, mm, "value", "must be >= 0");
    double Il[9] = {I6[0], I6[3], I6[4], I6[3], I6[1], I6[5], I6[4], I6[5], I6[2]}, R[9], RI[9], I[9];
    sc_sp_quat_to_mat3(R, iq);
    sc_sp_mat3_mul(RI, R, Il);
    sc_sp_mat3_mulT(I, RI, R);
    xi_src(&t->bodies, in);
    xi_put(&t->bodies, "    mass: %.17g\n    com: [%.17g, %.17g, %.17g]\n", m, ip[0], ip[1], ip[2]);
    if (m > 0)
      xi_put(&t->bodies, "    inertia: {ixx: %.17g, iyy: %.17g, izz: %.17g, ixy: %.17g, ixz: %.17g, iyz: %.17g}\n", I[0],
          I[4], I[8], I[1], I[2], I[5]);
  }
  int ng = 0;
  for (const xmlNode* c = L->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || strcmp(xi_name(c), "collision") != 0) continue;
    const xmlNode* g = child_el(c, "geometry");
    const xmlNode* s = g ? g->children : NULL;
    while (s && s->type != XML_ELEMENT_NODE) s = s->next;
    if (!s) return xi_fail(t, c, NULL, "needs a <geometry> with a shape");
    geom G;
    memset(&G, 0, sizeof G);
    TRY(urdf_origin(t, c, G.pos, G.q));
    G.node = c;
    G.mu = 1;
    G.contype = G.conaffinity = 1; /* URDF has no masks: every collision shape collides */
    const char* e = xi_name(s);
    if (strcmp(e, "box") == 0) {
      double sz[3];
      if (!xi_attr(s, "size")) return xi_fail(t, s, "size", "required");
      TRY(xi_get_vec(t, s, -1, -1, "size", sz, 3, NULL));
      G.type = SC_GEOM_BOX;
      for (int k = 0; k < 3; k++) G.size[k] = 0.5 * sz[k];
    } else if (strcmp(e, "cylinder") == 0 || strcmp(e, "sphere") == 0) {
      if (!xi_attr(s, "radius")) return xi_fail(t, s, "radius", "required");
      TRY(xi_get_vec(t, s, -1, -1, "radius", &G.size[0], 1, NULL));
      G.type = SC_GEOM_SPHERE;
      if (e[0] == 'c') {
        if (!xi_attr(s, "length")) return xi_fail(t, s, "length", "required");
        TRY(xi_get_vec(t, s, -1, -1, "length", &G.size[1], 1, NULL));
        G.type = SC_GEOM_CYLINDER;
      }
    } else if (strcmp(e, "mesh") == 0) {
      const char* fn = xi_attr(s, "filename");
      if (!fn) return xi_fail(t, s, "filename", "required");
      G.type = SC_GEOM_MESH;
      G.mesh_scale[0] = G.mesh_scale[1] = G.mesh_scale[2] = 1;
      TRY(xi_get_vec(t, s, -1, -1, "scale", G.mesh_scale, 3, NULL));
      TRY(urdf_mesh_path(t, s, fn, model_path, &G.mesh_file));
    } else {
      return xi_fail(t, s, NULL, "unknown geometry (expected box, cylinder, sphere or mesh)");
    }
    for (int k = 0; k < 3 && G.type != SC_GEOM_MESH; k++)
      if (G.size[k] < 0 || !(G.size[0] > 0)) return xi_fail(t, s, NULL, "sizes must be > 0");
    if (!ng++) xi_put(&t->bodies, "    geometry:\n");
    const double zero[3] = {0, 0, 0};
    xi_put_geom(&t->bodies, "      ", &G, zero);
  }
  return SC_OK;
}

sc_status xi_translate_urdf(tr* t, xmlNode* root, int floating, const char* model_path) {
  TRY(xi_count_elements(t, root->children));
  const char* mn = xi_attr(root, "name");
  xi_set_model_name(t, mn ? mn : "urdf");
  t->timestep = 0.001;
  t->gravity[0] = t->gravity[1] = 0, t->gravity[2] = -9.81;
  /* links and joints by name */
  enum { MAXL = 4096 };
  static _Thread_local const xmlNode* links[MAXL];
  static _Thread_local const xmlNode* joints[MAXL];
  int nl = 0, nj = 0;
  for (xmlNode* n = root->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    const char* e = xi_name(n);
    if (strcmp(e, "link") == 0 || strcmp(e, "joint") == 0) {
      const char* nm = xi_attr(n, "name");
      if (!nm) return xi_fail(t, n, "name", "required");
      TRY(xi_check_name(t, n, nm));
      if (e[0] == 'l') {
        if (nl == MAXL) return xi_fail(t, n, NULL, "more than %d links", MAXL);
        for (int i = 0; i < nl; i++)
          if (strcmp(xi_attr(links[i], "name"), nm) == 0) return xi_fail(t, n, "name", "link '%s' defined twice", nm);
        links[nl++] = n;
      } else {
        if (nj == MAXL) return xi_fail(t, n, NULL, "more than %d joints", MAXL);
        joints[nj++] = n;
      }
    } else if (strcmp(e, "transmission") == 0 || strcmp(e, "gazebo") == 0 || strcmp(e, "material") == 0) {
      continue;
    } else {
      xi_unsupported(t, n, e);
    }
  }
  if (!nl) return xi_fail(t, root, NULL, "no <link>");
  int parent_of[MAXL], child_joint[MAXL];
  for (int i = 0; i < nl; i++) parent_of[i] = -1, child_joint[i] = -1;
  for (int j = 0; j < nj; j++) {
    const xmlNode* J = joints[j];
    const xmlNode* pe = child_el(J, "parent");
    const xmlNode* ce = child_el(J, "child");
    if (!pe || !xi_attr(pe, "link")) return xi_fail(t, J, NULL, "needs <parent link>");
    if (!ce || !xi_attr(ce, "link")) return xi_fail(t, J, NULL, "needs <child link>");
    int p = -1, c = -1;
    for (int i = 0; i < nl; i++) {
      if (strcmp(xi_attr(links[i], "name"), xi_attr(pe, "link")) == 0) p = i;
      if (strcmp(xi_attr(links[i], "name"), xi_attr(ce, "link")) == 0) c = i;
    }
    if (p < 0) return xi_fail(t, pe, "link", "no link named '%s'", xi_attr(pe, "link"));
    if (c < 0) return xi_fail(t, ce, "link", "no link named '%s'", xi_attr(ce, "link"));
    if (child_joint[c] >= 0) return xi_fail(t, ce, "link", "link '%s' is the child of two joints", xi_attr(ce, "link"));
    parent_of[c] = p;
    child_joint[c] = j;
  }
  int nroot = 0, rootl = -1;
  for (int i = 0; i < nl; i++)
    if (parent_of[i] < 0) nroot++, rootl = i;
  if (nroot != 1) return xi_fail(t, root, NULL, "expected one root link (a link no joint has as its child), found %d", nroot);
  /* the root: fixed to the world, or free */
  const double zero[3] = {0, 0, 0}, one[4] = {1, 0, 0, 0};
  const char* rname = xi_attr(links[rootl], "name");
  if (floating) {
    char fj[160];
    snprintf(fj, sizeof fj, "%.120s_float", rname);
    xi_put(&t->bodies, "  - name: %s\n    parent: world\n    mass: 0\n    joint: {type: free}\n", fj);
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
    const char* jn = xi_attr(J, "name");
    const char* ty = xi_attr(J, "type");
    if (!ty) return xi_fail(t, J, "type", "required");
    double pos[3], q[4];
    TRY(urdf_origin(t, J, pos, q));
    const char* pl = xi_attr(links[parent_of[c]], "name");
    const char* cl = xi_attr(links[c], "name");
    if (strcmp(ty, "fixed") == 0) {
      TRY(urdf_link(t, links[c], cl, pl, pos, q, model_path));
      continue;
    }
    int type = strcmp(ty, "revolute") == 0 || strcmp(ty, "continuous") == 0 ? SC_JOINT_REVOLUTE
               : strcmp(ty, "prismatic") == 0                                ? SC_JOINT_PRISMATIC
               : strcmp(ty, "floating") == 0                                 ? SC_JOINT_FREE
               : strcmp(ty, "planar") == 0                                   ? SC_JOINT_PLANAR
                                                                             : -1;
    if (type < 0) return xi_fail(t, J, "type", "unknown joint type '%s'", ty);
    double axis[3] = {1, 0, 0};
    const xmlNode* ax = child_el(J, "axis");
    if (ax) TRY(xi_get_vec(t, ax, -1, -1, "xyz", axis, 3, NULL));
    if (!(sc_sp_normalize3(axis) > 0)) return xi_fail(t, ax, "xyz", "zero axis");
    if (type == SC_JOINT_PLANAR && !(axis[0] == 0 && axis[1] == 0)) xi_unsupported(t, J, "planar joint with a normal other than z");
    if (xi_jname_find(t, jn) >= 0) return xi_fail(t, J, "name", "joint name '%s' used twice", jn);
    if (xi_jname_add(t, jn) < 0) return SC_ERR_NOMEM;
    xi_src(&t->bodies, J);
    xi_put(&t->bodies, "  - name: %s\n    parent: %s\n    mass: 0\n", jn, pl);
    xi_put(&t->bodies, "    joint: {type: %s, origin: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}",
        xi_joint_yaml[type], pos[0], pos[1], pos[2], q[0], q[1], q[2], q[3]);
    if (type == SC_JOINT_REVOLUTE || type == SC_JOINT_PRISMATIC)
      xi_put(&t->bodies, ", axis: [%.17g, %.17g, %.17g]", axis[0], axis[1], axis[2]);
    const xmlNode* lim = child_el(J, "limit");
    if (lim && strcmp(ty, "continuous") != 0 && type != SC_JOINT_FREE && type != SC_JOINT_PLANAR) {
      double lo = 0, hi = 0;
      TRY(xi_get_vec(t, lim, -1, -1, "lower", &lo, 1, NULL));
      TRY(xi_get_vec(t, lim, -1, -1, "upper", &hi, 1, NULL));
      if (!(lo < hi)) return xi_fail(t, lim, NULL, "lower must be below upper (got %g, %g)", lo, hi);
      xi_put(&t->bodies, ", limits: [%.17g, %.17g]", lo, hi);
    }
    const xmlNode* dy = child_el(J, "dynamics");
    if (dy) {
      double damp = 0, fr = 0;
      TRY(xi_get_vec(t, dy, -1, -1, "damping", &damp, 1, NULL));
      TRY(xi_get_vec(t, dy, -1, -1, "friction", &fr, 1, NULL));
      if (damp < 0 || fr < 0) return xi_fail(t, dy, NULL, "damping and friction must be >= 0");
      if (damp > 0) xi_put(&t->bodies, ", damping: %.17g", damp);
      if (fr > 0) xi_put(&t->bodies, ", friction: %.17g", fr);
    }
    xi_put(&t->bodies, "}\n");
    TRY(urdf_link(t, links[c], cl, jn, zero, one, model_path));
  }
  return SC_OK;
}

