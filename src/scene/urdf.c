/* urdf: a URDF robot (root element <robot>) translated into a simc scene.
 *
 * Each link is a body named after it: its <inertial> gives the mass, the
 * centre of mass and the inertia turned into the link frame (R I R^T), its
 * <collision> shapes its geometry (<visual> is not dynamics).  A moving
 * joint becomes a massless link body named after the joint, at the joint's
 * origin in the parent link with its axis, limits and dynamics, the child
 * link hanging from it at zero offset (URDF's child frame is the joint
 * frame); a fixed joint attaches the child link directly; a <mimic> is a
 * joint coupling of the two joints' bodies (mimic).  The root link is
 * fixed to the world, or free (--floating-base); a root link named "world"
 * is the world itself (ROS's way of fixing a base).
 *
 * A link that carries nothing (no mass, no collision) on a fixed joint
 * (base_footprint, sensor and tool frames) is no body: its frame is folded
 * into the body it is fixed to, and joints below it start from there.
 *
 * Read as strictly as the dynamics need: an element or attribute URDF does
 * not define, inside what is read, is an error at its line (a misspelt
 * <inertial> or damping would otherwise drop silently, which urdfdom does);
 * what URDF defines without dynamics (<visual>, <material>, <gazebo>,
 * <transmission>, <calibration>, <safety_controller>) is skipped whole. */
/* realpath */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scene/scene_internal.h"
#include "scene/xml_import.h"
#include "spatial/spatial.h"

enum { MAXL = 4096, MAXPKG = 64 };

typedef struct uctx {
  tr* t;
  const char* model_path;
  int floating;
  int nl, nj;
  const xmlNode** links;
  const xmlNode** joints;
  int* parent_of;   /* link -> its parent link (-1: the root) */
  int* child_joint; /* link -> the joint it is the child of (-1: the root) */
  int world;        /* the root link named "world" (-1: none) */
  /* each link's body: itself, another link it is folded into, or -2 the
   * world, with the link's frame in that body's frame */
  int* body;
  double (*bpos)[3], (*bq)[4];
  double* sub;  /* the mass of the link and all below it (-1: not yet summed) */
  double* mass; /* the link's own (<inertial> mass, 0 without) */
  /* packages found: name -> directory */
  char* pkg[MAXPKG];
  char* pkgdir[MAXPKG];
  int npkg;
  char lastdir[4096]; /* the last found (when not kept) */
} uctx;

/* ---- what URDF defines ---- */

typedef struct spec {
  const char* el;
  int strict;           /* another attribute is an error (else ignored, as urdfdom does) */
  const char* attrs;    /* space-separated */
  const char* children; /* read, checked in turn */
  const char* skipped;  /* defined, no dynamics: not read */
} spec;

static const spec specs[] = {
    /* names and references only: what else they carry (DART's collision
     * group, exporters' extras) cannot be a misspelt dynamics */
    {"link", 0, "name", "inertial collision", "visual gazebo"},
    {"collision", 0, "name", "origin geometry", ""},
    {"joint", 0, "name type", "origin parent child axis dynamics limit mimic", "calibration safety_controller gazebo"},
    {"parent", 0, "link", "", ""},
    {"child", 0, "link", "", ""},
    {"inertial", 0, "", "origin mass inertia", ""},
    {"geometry", 0, "", "box cylinder sphere mesh capsule", ""},
    /* numbers of the dynamics: a misspelt one is an error */
    {"origin", 1, "xyz rpy", "", ""},
    {"mass", 1, "value", "", ""},
    /* iyx izx izy: written by some exporters (not always equal to the
     * symmetric ones); urdfdom reads only the six */
    {"inertia", 1, "ixx ixy ixz iyy iyz izz iyx izx izy", "", ""},
    {"box", 1, "size", "", ""},
    {"cylinder", 1, "radius length", "", ""},
    {"capsule", 1, "radius length", "", ""},
    {"sphere", 1, "radius", "", ""},
    {"mesh", 1, "filename scale", "", ""},
    {"axis", 1, "xyz", "", ""},
    {"dynamics", 1, "damping friction", "", ""},
    {"limit", 1, "lower upper effort velocity", "", ""},
    {"mimic", 1, "joint multiplier offset", "", ""},
};

static int in_list(const char* list, const char* w) {
  const size_t n = strlen(w);
  for (const char* p = list; *p;) {
    while (*p == ' ') p++;
    const char* e = p;
    while (*e && *e != ' ') e++;
    if ((size_t)(e - p) == n && strncmp(p, w, n) == 0) return 1;
    p = e;
  }
  return 0;
}

/* xacro's macros, includes and properties make the robot only once
 * expanded: skipped, they would leave a different robot */
static sc_status not_xacro(tr* t, const xmlNode* n) {
  if (n->ns && n->ns->href && strstr((const char*)n->ns->href, "xacro"))
    return xi_fail(t, n, NULL, "a xacro element: the file is a xacro template (expand it first: xacro FILE > robot.urdf)");
  return SC_OK;
}

/* element n and what it holds against the spec */
static sc_status urdf_check(tr* t, const xmlNode* n) {
  const spec* s = NULL;
  for (size_t i = 0; i < sizeof specs / sizeof specs[0] && !s; i++)
    if (strcmp(specs[i].el, xi_name(n)) == 0) s = &specs[i];
  if (!s) return SC_OK;
  for (const xmlAttr* a = n->properties; a; a = a->next)
    if (s->strict && !a->ns && !in_list(s->attrs, (const char*)a->name))
      return xi_fail(t, n, (const char*)a->name, "not a URDF attribute of <%s> (expected one of: %s)", s->el, s->attrs);
  for (const xmlNode* c = n->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    TRY(not_xacro(t, c));
    if (c->ns || in_list(s->skipped, xi_name(c))) continue;
    if (!in_list(s->children, xi_name(c)))
      return xi_fail(t, c, NULL, "not a URDF element inside <%s> (expected %s%s%s)", s->el,
                     s->children[0] ? s->children : "none", s->skipped[0] ? "; skipped: " : "", s->skipped);
    TRY(urdf_check(t, c));
  }
  return SC_OK;
}

/* ---- frames ---- */

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

/* (p, q) = (ap, aq) o (bp, bq) */
static void compose(double p[3], double q[4], const double ap[3], const double aq[4], const double bp[3],
                    const double bq[4]) {
  double r[3], qq[4];
  xi_qrot(r, aq, bp);
  xi_qmul(qq, aq, bq);
  xi_qnorm(qq);
  for (int k = 0; k < 3; k++) p[k] = ap[k] + r[k];
  memcpy(q, qq, sizeof qq);
}

static const xmlNode* child_el(const xmlNode* n, const char* name) {
  for (const xmlNode* c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && strcmp(xi_name(c), name) == 0) return c;
  return NULL;
}

/* a URDF name as simc's: tf2's leading '/' (a name in the global namespace)
 * dropped, as tf2 drops it */
static const char* uname(const char* n) { return n[0] == '/' ? n + 1 : n; }

/* ---- package:// ---- */

/* dir/package.xml exists and its <name> is pkg */
static int pkg_xml_names(const char* dir, const char* pkg) {
  char p[4096];
  if (snprintf(p, sizeof p, "%s/package.xml", dir) >= (int)sizeof p) return 0;
  struct stat sb;
  if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) return 0;
  xmlDoc* d = xmlReadFile(p, NULL, XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
  if (!d) return 0;
  int yes = 0;
  const xmlNode* r = xmlDocGetRootElement(d);
  const xmlNode* nm = r ? child_el(r, "name") : NULL;
  xmlChar* s = nm ? xmlNodeGetContent(nm) : NULL;
  if (s) {
    const char* a = (const char*)s;
    while (*a == ' ' || *a == '\n' || *a == '\t' || *a == '\r') a++;
    size_t l = strlen(a);
    while (l && (a[l - 1] == ' ' || a[l - 1] == '\n' || a[l - 1] == '\t' || a[l - 1] == '\r')) l--;
    yes = l == strlen(pkg) && strncmp(a, pkg, l) == 0;
    xmlFree(s);
  }
  xmlFreeDoc(d);
  return yes;
}

static int is_dir(const char* p) {
  struct stat sb;
  return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* pkg under dir, as rospack searches ROS_PACKAGE_PATH: a directory whose
 * package.xml names it (a package holds no other package: not descended
 * into), or else a directory named pkg; hidden directories and those marked
 * CATKIN_IGNORE skipped; bounded depth (symbolic link loops) */
static int find_pkg_under(const char* dir, const char* pkg, int depth, char* out, size_t sz) {
  if (pkg_xml_names(dir, pkg)) return snprintf(out, sz, "%s", dir) < (int)sz;
  char p[4096];
  snprintf(p, sizeof p, "%s/package.xml", dir);
  struct stat sb;
  if (stat(p, &sb) == 0) return 0;
  snprintf(p, sizeof p, "%s/CATKIN_IGNORE", dir);
  if (depth > 8 || stat(p, &sb) == 0) return 0;
  DIR* D = opendir(dir);
  if (!D) return 0;
  int found = 0;
  for (struct dirent* e; !found && (e = readdir(D));) {
    if (e->d_name[0] == '.') continue;
    if (snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= (int)sizeof p || !is_dir(p)) continue;
    if (strcmp(e->d_name, pkg) == 0 && snprintf(out, sz, "%s", p) < (int)sz)
      found = 1;
    else
      found = find_pkg_under(p, pkg, depth + 1, out, sz);
  }
  closedir(D);
  return found;
}

/* the directory of package pkg (cached), NULL when not found; *what says
 * where it was searched */
static const char* find_pkg(uctx* u, const xmlNode* from, const char* pkg, char* what, size_t wsz) {
  for (int i = 0; i < u->npkg; i++)
    if (strcmp(u->pkg[i], pkg) == 0 && u->pkgdir[i]) return u->pkgdir[i];
  char dir[4096] = "";
  int found = 0;
  size_t o = 0;
  /* 1. --model-path DIR: DIR/pkg */
  if (u->model_path) {
    snprintf(dir, sizeof dir, "%s/%s", u->model_path, pkg);
    found = is_dir(dir);
    o += (size_t)snprintf(what + o, wsz - o, "%s", dir);
  } else {
    o += (size_t)snprintf(what + o, wsz - o, "no --model-path");
  }
  /* 2. each directory of ROS_PACKAGE_PATH, recursively */
  const char* rpp = getenv("ROS_PACKAGE_PATH");
  if (o < wsz) o += (size_t)snprintf(what + o, wsz - o, "; ROS_PACKAGE_PATH %s%s", rpp && rpp[0] ? "" : "unset", rpp ? rpp : "");
  for (const char* p = rpp; !found && p && *p;) {
    const char* e = strchr(p, ':');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char d[4096];
    if (n && n < sizeof d) {
      memcpy(d, p, n);
      d[n] = '\0';
      found = find_pkg_under(d, pkg, 0, dir, sizeof dir);
    }
    p = e ? e + 1 : NULL;
  }
  /* 3. upward from the URDF's own directory, for a package.xml naming it */
  char* here = found ? NULL : sc_rd_path_beside(xi_file(from), ".");
  char* up = here ? realpath(here, NULL) : NULL; /* libc's malloc */
  sc_free(here);
  if (up) {
    if (o < wsz) o += (size_t)snprintf(what + o, wsz - o, "; a package.xml naming it in %s and above", up[0] ? up : "/");
    for (;;) {
      if (pkg_xml_names(up[0] ? up : "/", pkg)) {
        snprintf(dir, sizeof dir, "%s", up[0] ? up : "/");
        found = 1;
        break;
      }
      char* s = strrchr(up, '/');
      if (!s) break;
      *s = '\0';
      if (!up[0]) break; /* the root directory is not searched */
    }
    free(up);
  }
  if (!found) return NULL;
  snprintf(u->lastdir, sizeof u->lastdir, "%s", dir);
  if (u->npkg == MAXPKG) return u->lastdir; /* found, not kept */
  u->pkg[u->npkg] = sc_strdup(pkg);
  u->pkgdir[u->npkg] = sc_strdup(dir);
  if (!u->pkg[u->npkg] || !u->pkgdir[u->npkg]) {
    sc_free(u->pkg[u->npkg]), sc_free(u->pkgdir[u->npkg]);
    return u->lastdir;
  }
  return u->pkgdir[u->npkg++];
}

/* a package:// or relative mesh file name as a path */
static sc_status urdf_mesh_path(uctx* u, const xmlNode* m, const char* fn, const char** out) {
  tr* t = u->t;
  char buf[4096];
  const int pkg = strncmp(fn, "package://", 10) == 0;
  if (pkg) {
    const char* rest = strchr(fn + 10, '/');
    char name[256];
    size_t n = rest ? (size_t)(rest - (fn + 10)) : strlen(fn + 10);
    if (!rest || n == 0 || n >= sizeof name) return xi_fail(t, m, "filename", "'%s': expected package://PKG/FILE", fn);
    memcpy(name, fn + 10, n);
    name[n] = '\0';
    char what[2048];
    const char* dir = find_pkg(u, m, name, what, sizeof what);
    if (!dir) return xi_fail(t, m, "filename", "package '%s' not found (searched: %s)", name, what);
    snprintf(buf, sizeof buf, "%s%s", dir, rest);
  } else if (strncmp(fn, "file://", 7) == 0) {
    snprintf(buf, sizeof buf, "%s", fn + 7);
  } else {
    snprintf(buf, sizeof buf, "%s", fn);
  }
  if (t->nstr == (int)(sizeof t->strs / sizeof t->strs[0])) return xi_fail(t, m, NULL, "too many meshes");
  /* a package's directory is as found (relative to the working directory
   * for --model-path DIR); another relative path is relative to the URDF */
  char* p = xi_abs_path(buf[0] == '/' || pkg ? sc_strdup(buf) : sc_rd_path_beside(xi_file(m), buf));
  if (!p) return SC_ERR_NOMEM;
  t->strs[t->nstr++] = p;
  *out = p;
  return SC_OK;
}

/* ---- links ---- */

static sc_status urdf_mass(tr* t, const xmlNode* L, double* m) {
  *m = 0;
  const xmlNode* in = child_el(L, "inertial");
  const xmlNode* mm = in ? child_el(in, "mass") : NULL;
  if (!in) return SC_OK;
  if (!mm || !xi_attr(mm, "value")) return xi_fail(t, in, NULL, "needs <mass value>");
  TRY(xi_get_vec(t, mm, -1, -1, "value", m, 1, NULL));
  if (!(*m >= 0)) return xi_fail(t, mm, "value", "must be >= 0");
  return SC_OK;
}

/* a link that adds nothing to the body it is fixed to */
static int link_empty(const xmlNode* L, double mass) { return mass == 0 && !child_el(L, "collision"); }

/* link L as body `name` under `parent` at (pos, q) */
static sc_status urdf_link(uctx* u, const xmlNode* L, const char* name, const char* parent, const double pos[3],
                           const double q[4]) {
  tr* t = u->t;
  xi_src(&t->bodies, L);
  xi_put(&t->bodies, "  - name: %s\n    parent: %s\n", name, parent);
  xi_put(&t->bodies, "    joint: {type: fixed, origin: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}}\n",
      pos[0], pos[1], pos[2], q[0], q[1], q[2], q[3]);
  const xmlNode* in = child_el(L, "inertial");
  if (in) {
    double ip[3], iq[4], m = 0, I6[6] = {0};
    TRY(urdf_origin(t, in, ip, iq));
    TRY(urdf_mass(t, L, &m));
    const xmlNode* ii = child_el(in, "inertia");
    if (!ii) return xi_fail(t, in, NULL, "needs <inertia>");
    const char* keys[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
    for (int k = 0; k < 6; k++) TRY(xi_get_vec(t, ii, -1, -1, keys[k], &I6[k], 1, NULL));
    double Il[9] = {I6[0], I6[3], I6[4], I6[3], I6[1], I6[5], I6[4], I6[5], I6[2]}, R[9], RI[9], I[9];
    sc_sp_quat_to_mat3(R, iq);
    sc_sp_mat3_mul(RI, R, Il);
    sc_sp_mat3_mulT(I, RI, R);
    /* mass 0 is a link without <inertial> (a sensor frame with a shape) */
    xi_src(&t->bodies, in);
    if (m > 0)
      xi_put(&t->bodies,
          "    mass: %.17g\n    com: [%.17g, %.17g, %.17g]\n"
          "    inertia: {ixx: %.17g, iyy: %.17g, izz: %.17g, ixy: %.17g, ixz: %.17g, iyz: %.17g}\n",
          m, ip[0], ip[1], ip[2], I[0], I[4], I[8], I[1], I[2], I[5]);
  }
  int ng = 0;
  for (const xmlNode* c = L->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || strcmp(xi_name(c), "collision") != 0) continue;
    const xmlNode* g = child_el(c, "geometry");
    const xmlNode* s = g ? g->children : NULL;
    while (s && s->type != XML_ELEMENT_NODE) s = s->next;
    if (!s) return xi_fail(t, c, NULL, "needs a <geometry> with a shape");
    for (const xmlNode* s2 = s->next; s2; s2 = s2->next)
      if (s2->type == XML_ELEMENT_NODE) return xi_fail(t, s2, NULL, "a <geometry> holds one shape (the first is <%s>)", xi_name(s));
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
    } else if (strcmp(e, "cylinder") == 0 || strcmp(e, "capsule") == 0 || strcmp(e, "sphere") == 0) {
      if (!xi_attr(s, "radius")) return xi_fail(t, s, "radius", "required");
      TRY(xi_get_vec(t, s, -1, -1, "radius", &G.size[0], 1, NULL));
      G.type = SC_GEOM_SPHERE;
      if (e[0] == 'c') {
        if (!xi_attr(s, "length")) return xi_fail(t, s, "length", "required");
        TRY(xi_get_vec(t, s, -1, -1, "length", &G.size[1], 1, NULL));
        /* both along z; a capsule's length is its cylinder's, caps beyond */
        G.type = e[1] == 'y' ? SC_GEOM_CYLINDER : SC_GEOM_CAPSULE;
      }
    } else {
      const char* fn = xi_attr(s, "filename");
      if (!fn) return xi_fail(t, s, "filename", "required");
      G.type = SC_GEOM_MESH;
      G.mesh_scale[0] = G.mesh_scale[1] = G.mesh_scale[2] = 1;
      TRY(xi_get_vec(t, s, -1, -1, "scale", G.mesh_scale, 3, NULL));
      TRY(urdf_mesh_path(u, s, fn, &G.mesh_file));
    }
    for (int k = 0; k < 3 && G.type != SC_GEOM_MESH; k++)
      if (G.size[k] < 0 || !(G.size[0] > 0)) return xi_fail(t, s, NULL, "sizes must be > 0");
    if (!ng++) xi_put(&t->bodies, "    geometry:\n");
    const double zero[3] = {0, 0, 0};
    xi_put_geom(&t->bodies, "      ", &G, zero);
  }
  return SC_OK;
}

/* ---- the tree ---- */

/* link i's body and its frame there, its parent placed first: a link
 * that adds nothing, on a fixed joint, folds into its parent's body */
static sc_status place(uctx* u, int i, const double* mass) {
  if (u->body[i] != -1) return SC_OK;
  const int p = u->parent_of[i];
  TRY(place(u, p, mass));
  const xmlNode* J = u->joints[u->child_joint[i]];
  const char* ty = xi_attr(J, "type");
  double jp[3], jq[4];
  TRY(urdf_origin(u->t, J, jp, jq));
  if (ty && strcmp(ty, "fixed") == 0 && link_empty(u->links[i], mass[i])) {
    u->body[i] = u->body[p];
    compose(u->bpos[i], u->bq[i], u->bpos[p], u->bq[p], jp, jq);
  } else {
    u->body[i] = i;
    u->bpos[i][0] = u->bpos[i][1] = u->bpos[i][2] = 0;
    u->bq[i][0] = 1, u->bq[i][1] = u->bq[i][2] = u->bq[i][3] = 0;
  }
  return SC_OK;
}

/* the mass of link i and all below it */
static double subtree_mass(uctx* u, int i, const double* mass) {
  if (u->sub[i] >= 0) return u->sub[i];
  double s = mass[i];
  for (int k = 0; k < u->nl; k++)
    if (u->parent_of[k] == i) s += subtree_mass(u, k, mass);
  return u->sub[i] = s;
}

static const char* body_name(const uctx* u, int b) {
  return b == -2 ? "world" : uname(xi_attr(u->links[b], "name"));
}

/* a joint that moves by one coordinate: revolute, continuous, prismatic */
static int scalar_joint(const char* ty) {
  return ty && (strcmp(ty, "revolute") == 0 || strcmp(ty, "continuous") == 0 || strcmp(ty, "prismatic") == 0);
}

/* <mimic joint multiplier offset> of joint J: q = multiplier q_joint +
 * offset (urdfdom's defaults 1 and 0), simc's joint coupling of J's body on
 * the other joint's (each moving joint is a body named after it, its q the
 * URDF joint value: no shift) */
static sc_status mimic(uctx* u, const xmlNode* J, const xmlNode* mi) {
  tr* t = u->t;
  const char* jn = uname(xi_attr(J, "name"));
  if (!scalar_joint(xi_attr(J, "type")))
    return xi_fail(t, mi, NULL, "joint '%s' is a %s joint: only a revolute, continuous or prismatic joint mimics another", jn,
                   xi_attr(J, "type") ? xi_attr(J, "type") : "typeless");
  const char* of = xi_attr(mi, "joint");
  if (!of) return xi_fail(t, mi, "joint", "required (the name of the joint mimicked)");
  const xmlNode* O = NULL;
  for (int j = 0; j < u->nj && !O; j++)
    if (strcmp(uname(xi_attr(u->joints[j], "name")), uname(of)) == 0) O = u->joints[j];
  if (!O) return xi_fail(t, mi, "joint", "no joint named '%s'", of);
  if (O == J) return xi_fail(t, mi, "joint", "joint '%s' cannot mimic itself", jn);
  if (!scalar_joint(xi_attr(O, "type")))
    return xi_fail(t, mi, "joint", "joint '%s' is a %s joint: only a revolute, continuous or prismatic joint is mimicked",
                   uname(of), xi_attr(O, "type") ? xi_attr(O, "type") : "typeless");
  double mult = 1, off = 0;
  TRY(xi_get_vec(t, mi, -1, -1, "multiplier", &mult, 1, NULL));
  TRY(xi_get_vec(t, mi, -1, -1, "offset", &off, 1, NULL));
  if (!isfinite(mult) || !isfinite(off)) return xi_fail(t, mi, NULL, "multiplier and offset must be finite");
  char nm[160], yn[XI_YNAME], yj[XI_YNAME], yo[XI_YNAME];
  snprintf(nm, sizeof nm, "%.120s:mimic", jn);
  xi_src(&t->eq, mi);
  xi_put(&t->eq, "  - {type: joint, name: %s, joint: %s, of: %s, ratio: %.17g, offset: %.17g}\n",
         xi_yaml_name(yn, sizeof yn, nm), xi_yaml_name(yj, sizeof yj, jn), xi_yaml_name(yo, sizeof yo, uname(of)), mult,
         off);
  return SC_OK;
}

static sc_status translate(uctx* u, xmlNode* root) {
  tr* t = u->t;
  const int floating = u->floating;
  TRY(xi_count_elements(t, root->children));
  const char* mn = xi_attr(root, "name");
  xi_set_model_name(t, mn ? mn : "urdf");
  t->timestep = 0.001;
  t->gravity[0] = t->gravity[1] = 0, t->gravity[2] = -9.81;
  const xmlNode** links = u->links;
  const xmlNode** joints = u->joints;
  int *parent_of = u->parent_of, *child_joint = u->child_joint, *body = u->body;
  double(*bpos)[3] = u->bpos, (*bq)[4] = u->bq, *sub = u->sub, *mass = u->mass;
  sc_status st = SC_OK;
  int nl = 0, nj = 0;
  /* links and joints by name */
  for (xmlNode* n = root->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    TRY(not_xacro(t, n));
    if (n->ns) continue;
    const char* e = xi_name(n);
    if (strcmp(e, "link") == 0 || strcmp(e, "joint") == 0) {
      TRY(urdf_check(t, n));
      const char* nm = xi_attr(n, "name");
      if (!nm) return xi_fail(t, n, "name", "required");
      TRY(xi_check_name(t, n, uname(nm)));
      if (e[0] == 'l') {
        if (nl == MAXL) return xi_fail(t, n, NULL, "more than %d links", MAXL);
        for (int i = 0; i < nl; i++)
          if (strcmp(uname(xi_attr(links[i], "name")), uname(nm)) == 0)
            return xi_fail(t, n, "name", "link '%s' defined twice", nm);
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
  u->nl = nl, u->nj = nj;
  for (int i = 0; i < nl; i++) parent_of[i] = -1, child_joint[i] = -1, body[i] = -1, sub[i] = -1;
  for (int j = 0; j < nj; j++) {
    const xmlNode* J = joints[j];
    const xmlNode* pe = child_el(J, "parent");
    const xmlNode* ce = child_el(J, "child");
    if (!pe || !xi_attr(pe, "link")) return xi_fail(t, J, NULL, "needs <parent link>");
    if (!ce || !xi_attr(ce, "link")) return xi_fail(t, J, NULL, "needs <child link>");
    int p = -1, c = -1;
    for (int i = 0; i < nl; i++) {
      if (strcmp(uname(xi_attr(links[i], "name")), uname(xi_attr(pe, "link"))) == 0) p = i;
      if (strcmp(uname(xi_attr(links[i], "name")), uname(xi_attr(ce, "link"))) == 0) c = i;
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
  /* every link reaches the root (no loop of joints) */
  for (int i = 0; i < nl; i++) {
    int k = i, steps = 0;
    while (parent_of[k] >= 0 && steps++ <= nl) k = parent_of[k];
    if (k != rootl) return xi_fail(t, joints[child_joint[i]], NULL, "the joints form a loop through link '%s'", xi_attr(links[i], "name"));
  }
  for (int i = 0; i < nl; i++) TRY(urdf_mass(t, links[i], &mass[i]));
  if (strcmp(uname(xi_attr(links[rootl], "name")), "world") == 0) {
    u->world = rootl;
    const xmlNode* L = links[rootl];
    if (mass[rootl] > 0 || child_el(L, "collision"))
      return xi_fail(t, L, NULL, "the link named world is simc's world: it takes no <inertial> mass or <collision> (put them on a link fixed to it)");
  }
  body[rootl] = u->world >= 0 ? -2 : rootl;
  bpos[rootl][0] = bpos[rootl][1] = bpos[rootl][2] = 0;
  bq[rootl][0] = 1, bq[rootl][1] = bq[rootl][2] = bq[rootl][3] = 0;
  for (int i = 0; i < nl; i++) TRY(place(u, i, mass));
  /* the root: fixed to the world, or free */
  const double zero[3] = {0, 0, 0}, one[4] = {1, 0, 0, 0};
  if (u->world < 0) {
    const char* rname = uname(xi_attr(links[rootl], "name"));
    if (floating) {
      if (!(subtree_mass(u, rootl, mass) > 0))
        return xi_fail(t, links[rootl], NULL, "the robot floats (--floating-base) but no link has mass (an <inertial> with mass > 0)");
      char fj[160];
      snprintf(fj, sizeof fj, "%.120s_float", rname);
      xi_put(&t->bodies, "  - name: %s\n    parent: world\n    mass: 0\n    joint: {type: free}\n", fj);
      TRY(urdf_link(u, links[rootl], rname, fj, zero, one));
    } else {
      TRY(urdf_link(u, links[rootl], rname, "world", zero, one));
    }
  }
  /* the others in the file's joint order (simc reads parents by name, in
   * any order; this keeps q in the file's joint order along each branch) */
  for (int j = 0; j < nj && !st; j++) {
    const xmlNode* J = joints[j];
    int c = -1;
    for (int i = 0; i < nl; i++)
      if (child_joint[i] == j) c = i;
    const char* jn = uname(xi_attr(J, "name"));
    const char* ty = xi_attr(J, "type");
    if (!ty) return xi_fail(t, J, "type", "required");
    const int p = parent_of[c];
    double jp[3], jq[4], pos[3], q[4];
    TRY(urdf_origin(t, J, jp, jq));
    compose(pos, q, bpos[p], bq[p], jp, jq);
    const char* pl = body_name(u, body[p]);
    const char* cl = uname(xi_attr(links[c], "name"));
    const xmlNode* mi = child_el(J, "mimic");
    if (mi) TRY(mimic(u, J, mi));
    if (strcmp(ty, "fixed") == 0) {
      if (body[c] != c) continue; /* folded into its parent's body */
      char fj[160];
      if (floating && body[p] == -2) {
        /* fixed to the world, which --floating-base lets go */
        if (!(subtree_mass(u, c, mass) > 0))
          return xi_fail(t, J, NULL, "link '%s' floats (--floating-base) but neither it nor a link below it has mass", cl);
        snprintf(fj, sizeof fj, "%.120s_float", cl);
        xi_src(&t->bodies, J);
        xi_put(&t->bodies, "  - name: %s\n    parent: world\n    mass: 0\n    joint: {type: free}\n", fj);
        pl = fj;
      }
      TRY(urdf_link(u, links[c], cl, pl, pos, q));
      continue;
    }
    int type = strcmp(ty, "revolute") == 0 || strcmp(ty, "continuous") == 0 ? SC_JOINT_REVOLUTE
               : strcmp(ty, "prismatic") == 0                                ? SC_JOINT_PRISMATIC
               : strcmp(ty, "floating") == 0                                 ? SC_JOINT_FREE
               : strcmp(ty, "planar") == 0                                   ? SC_JOINT_PLANAR
                                                                             : -1;
    if (type < 0) return xi_fail(t, J, "type", "unknown joint type '%s'", ty);
    /* a joint that moves nothing with mass has no defined motion (MuJoCo
     * refuses such a body too) */
    if (!(subtree_mass(u, c, mass) > 0))
      return xi_fail(t, J, NULL,
                     "moves link '%s', but neither it nor any link below it has mass (an <inertial> with mass > 0): "
                     "give it one, or make the joint fixed",
                     cl);
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
    TRY(urdf_link(u, links[c], cl, jn, zero, one));
  }
  return st;
}

sc_status xi_translate_urdf(tr* t, xmlNode* root, int floating, const char* model_path) {
  uctx u = {.t = t, .model_path = model_path, .floating = floating, .world = -1};
  u.links = sc_calloc(MAXL, sizeof *u.links);
  u.joints = sc_calloc(MAXL, sizeof *u.joints);
  u.parent_of = sc_calloc(MAXL, sizeof *u.parent_of);
  u.child_joint = sc_calloc(MAXL, sizeof *u.child_joint);
  u.body = sc_calloc(MAXL, sizeof *u.body);
  u.bpos = sc_calloc(MAXL, sizeof *u.bpos);
  u.bq = sc_calloc(MAXL, sizeof *u.bq);
  u.sub = sc_calloc(MAXL, sizeof *u.sub);
  u.mass = sc_calloc(MAXL, sizeof *u.mass);
  sc_status st = SC_ERR_NOMEM;
  if (u.links && u.joints && u.parent_of && u.child_joint && u.body && u.bpos && u.bq && u.sub && u.mass)
    st = translate(&u, root);
  for (int i = 0; i < u.npkg; i++) sc_free(u.pkg[i]), sc_free(u.pkgdir[i]);
  sc_free(u.links), sc_free(u.joints), sc_free(u.parent_of), sc_free(u.child_joint), sc_free(u.body);
  sc_free(u.bpos), sc_free(u.bq), sc_free(u.sub), sc_free(u.mass);
  return st;
}
