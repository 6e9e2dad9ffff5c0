/* shapes: materials, the static shapes and each body's geometry.
 *
 * A shape's contact parameters are its own, else its material's, else
 * contact.defaults'.  Conventions applied here:
 *  - a shape's frame in its body: pose {position, rpy}, R = Rz(yaw) Ry(pitch) Rx(roll);
 *  - plane {normal n, offset d}: geom_pos = d n, geom_rot has third column n;
 *  - box size is given as full edge lengths and stored as half extents;
 *  - inertia: solid gives the body a uniform density over its shapes: com at
 *    the volume-weighted centre, inertia by the parallel-axis theorem from each
 *    shape's own (sc_scene_shape_inertia, inertia.c). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/keys.h"
#include "scene/scene.h"
#include "scene/scene_internal.h"
#include "spatial/spatial.h"

static int looks_numeric(const sc_snode* n) {
  char* end;
  if (!n->plain || !n->str[0]) return 0;
  (void)strtod(n->str, &end);
  return *end == '\0';
}

sc_status sc_rd_params(ctx* c, const sc_snode* map, params* p) {
  const sc_snode* k = sc_snode_get(map, "stiffness");
  if (k) {
    size_t m = sc_rd_push_key(c, "stiffness");
    sc_status st = SC_OK;
    if (sc_rd_is_plain_scalar(k) && strcmp(k->str, "rigid") == 0) {
      p->k = INFINITY;
    } else if (k->kind == SC_SN_SCALAR && !looks_numeric(k)) {
      st = sc_rd_fail(c, k, "expected a number > 0 or rigid (got '%s')", k->str);
    } else {
      st = sc_rd_as_num(c, k, &p->k);
      if (!st) st = sc_rd_check_range(c, k, p->k, RANGE_POS);
    }
    sc_rd_pop(c, m);
    TRY(st);
    p->has_k = 1;
  }
  TRY(sc_rd_get_num(c, map, "dissipation_time", &p->tau, RANGE_NONNEG, 0, &p->has_tau));
  TRY(sc_rd_get_num(c, map, "friction", &p->mu, RANGE_NONNEG, 0, &p->has_mu));
  TRY(sc_rd_get_num(c, map, "dissipation", &p->hcd, RANGE_NONNEG, 0, &p->has_hcd));
  TRY(sc_rd_get_num(c, map, "restitution", &p->e, RANGE_UNIT, 0, &p->has_e));
  TRY(sc_rd_get_num(c, map, "torsional_friction", &p->spin, RANGE_NONNEG, 0, &p->has_spin));
  TRY(sc_rd_get_num(c, map, "rolling_friction", &p->roll, RANGE_NONNEG, 0, &p->has_roll));
  return SC_OK;
}

/* a contact bit mask: a decimal integer in [0, 2^32 - 1]; absent: 1 */
static sc_status read_mask(ctx* c, const sc_snode* map, const char* key, uint32_t* out) {
  *out = 1u;
  const sc_snode* n = sc_snode_get(map, key);
  if (!n) return SC_OK;
  size_t m = sc_rd_push_key(c, key);
  sc_status st = SC_OK;
  const char* s = n->kind == SC_SN_SCALAR ? n->str : "";
  const int neg = s[0] == '-';
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  int ok = n->kind == SC_SN_SCALAR && n->plain && s[i] != '\0';
  for (size_t k = i; ok && s[k]; k++)
    if (s[k] < '0' || s[k] > '9') ok = 0;
  if (n->kind != SC_SN_SCALAR) {
    st = sc_rd_fail(c, n, "expected an integer bit mask, got %s", sc_rd_kind_name(n));
  } else if (!ok) {
    st = sc_rd_fail(c, n, "expected an integer bit mask (got '%s')", s);
  } else {
    /* digits beyond 10 are out of range whatever they say; strtoull would
     * wrap a negative number instead of refusing it */
    size_t nd = strlen(s + i);
    while (nd > 1 && s[i] == '0') i++, nd--;
    const unsigned long long v = nd > 10 ? ULLONG_MAX : strtoull(s + i, NULL, 10);
    if (neg && v != 0)
      st = sc_rd_fail(c, n, "must be >= 0 (got %s)", s);
    else if (v > UINT32_MAX)
      st = sc_rd_fail(c, n, "must be <= 4294967295, a 32-bit mask (got %s)", s);
    else
      *out = (uint32_t)v;
  }
  sc_rd_pop(c, m);
  return st;
}

static const char* const geom_names[] = {"plane",    "sphere",    "capsule", "box",
                                         "cylinder", "ellipsoid", "mesh"};

/* the mesh of a shape: read once per distinct (file, scale), the error of a
 * bad mesh located in its own file when it has a line there, else at the
 * scene's file value */
static sc_status read_mesh(ctx* c, load* L, const sc_snode* fnode, const double scale[3],
                           int* out) {
  const char* path;
  TRY(sc_rd_resolve_path(L, fnode->str, &path));
  for (int i = 0; i < L->nmesh; i++)
    if (strcmp(L->mesh[i].file, path) == 0 && memcmp(L->mesh_scale + 3 * i, scale, 3 * sizeof(double)) == 0) {
      *out = i;
      return SC_OK;
    }
  if (L->nmesh == L->capmesh) {
    int cap = L->capmesh ? 2 * L->capmesh : 4;
    sc_mesh* m = sc_calloc((size_t)cap, sizeof *m);
    double* sc = sc_calloc((size_t)cap * 3, sizeof *sc);
    if (!m || !sc) {
      sc_free(m);
      sc_free(sc);
      return SC_ERR_NOMEM;
    }
    if (L->nmesh) {
      memcpy(m, L->mesh, (size_t)L->nmesh * sizeof *m);
      memcpy(sc, L->mesh_scale, (size_t)L->nmesh * 3 * sizeof *sc);
    }
    sc_free(L->mesh);
    sc_free(L->mesh_scale);
    L->mesh = m;
    L->mesh_scale = sc;
    L->capmesh = cap;
  }
  sc_error e;
  sc_error_clear(&e);
  sc_mesh* me = &L->mesh[L->nmesh];
  sc_status st = sc_mesh_read(path, scale, me, &e);
  if (st == SC_ERR_NOMEM) return st;
  if (st) {
    if (e.line > 0) return sc_rd_fail_at(c, e.file, e.line, e.col, NULL, "%s", e.msg);
    return sc_rd_fail(c, fnode, "mesh '%s': %s", path, e.msg);
  }
  memcpy(L->mesh_scale + 3 * L->nmesh, scale, 3 * sizeof(double));
  L->nmesh++;
  L->mesh_verts += me->nvert;
  if (L->mesh_verts > SC_MESH_MAX_TOTAL_VERTS)
    return sc_rd_fail(c, fnode, "the meshes of this scene hold %ld vertices in all (the limit is %d)",
                      L->mesh_verts, SC_MESH_MAX_TOTAL_VERTS);
  *out = L->nmesh - 1;
  return SC_OK;
}

static sc_status read_shape(ctx* c, load* L, const sc_snode* n, int on_body, shape_in* g) {
  if (n->kind != SC_SN_MAP) return sc_rd_fail(c, n, "expected a shape map {shape: ..., ...}, got %s", sc_rd_kind_name(n));
  const sc_snode* sh = sc_snode_get(n, "shape");
  if (!sh) return sc_rd_fail_missing(c, n, "shape", "sphere, capsule, box, cylinder, ellipsoid, mesh or plane");
  int t;
  size_t m = sc_rd_push_key(c, "shape");
  sc_status st = sc_rd_as_enum(c, sh, geom_names, NELEM(geom_names), "shape", &t);
  if (!st && t == SC_GEOM_PLANE && on_body)
    st = sc_rd_fail(c, sh, "a plane is only allowed in static (expected sphere, capsule, box, cylinder, ellipsoid or mesh)");
  sc_rd_pop(c, m);
  TRY(st);
  g->type = (sc_geom_type)t;

  /* allowed keys: those of every shape (a plane has no pose) plus the type's own */
  const char* common[16];
  const char* allowed[32];
  int nc = sc_scene_section_keys("<shape>", common, 16), na = 0;
  for (int i = 0; i < nc; i++)
    if (g->type != SC_GEOM_PLANE || strcmp(common[i], "pose") != 0) allowed[na++] = common[i];
  char section[40];
  snprintf(section, sizeof section, "<shape> %s", geom_names[t]);
  na += sc_scene_section_keys(section, allowed + na, 32 - na);
  char what[40];
  snprintf(what, sizeof what, "a %s", geom_names[t]);
  TRY(sc_rd_check_map(c, n, allowed, na, what));

  g->size[0] = g->size[1] = g->size[2] = 0;
  g->mesh = -1;
  switch (g->type) {
    case SC_GEOM_ELLIPSOID:
    case SC_GEOM_MESH: {
      const int ell = g->type == SC_GEOM_ELLIPSOID;
      const char* key = ell ? "radii" : "scale";
      double v[3] = {1, 1, 1};
      const sc_snode* s = sc_snode_get(n, key);
      if (!s && ell) return sc_rd_fail_missing(c, n, "radii", "[a, b, c]");
      if (s) {
        m = sc_rd_push_key(c, key);
        if (!ell && s->kind == SC_SN_SCALAR) { /* one factor for all axes */
          st = sc_rd_as_num(c, s, &v[0]);
          v[1] = v[2] = v[0];
          if (!st && !(v[0] > 0)) st = sc_rd_fail(c, s, "scale must be > 0 (got %s)", s->str);
        } else {
          st = sc_rd_as_vec(c, s, v, 3);
          for (int i = 0; !st && i < 3; i++)
            if (!(v[i] > 0)) {
              size_t m2 = sc_rd_push_idx(c, i);
              st = sc_rd_fail(c, s->kid[i], "must be > 0 (got %s)", s->kid[i]->str);
              sc_rd_pop(c, m2);
            }
        }
        sc_rd_pop(c, m);
        TRY(st);
      }
      if (ell) {
        memcpy(g->size, v, sizeof v);
        break;
      }
      const sc_snode* f = sc_snode_get(n, "file");
      if (!f) return sc_rd_fail_missing(c, n, "file", "the path of an OBJ or STL file");
      m = sc_rd_push_key(c, "file");
      if (f->kind != SC_SN_SCALAR)
        st = sc_rd_fail(c, f, "expected a file name, got %s", sc_rd_kind_name(f));
      else if (!f->str[0])
        st = sc_rd_fail(c, f, "expected a file name");
      if (!st) st = read_mesh(c, L, f, v, &g->mesh);
      sc_rd_pop(c, m);
      TRY(st);
      break;
    }
    case SC_GEOM_SPHERE: TRY(sc_rd_get_num(c, n, "radius", &g->size[0], RANGE_POS, 1, NULL)); break;
    case SC_GEOM_CAPSULE:
      TRY(sc_rd_get_num(c, n, "radius", &g->size[0], RANGE_POS, 1, NULL));
      TRY(sc_rd_get_num(c, n, "length", &g->size[1], RANGE_NONNEG, 1, NULL));
      break;
    case SC_GEOM_CYLINDER:
      TRY(sc_rd_get_num(c, n, "radius", &g->size[0], RANGE_POS, 1, NULL));
      TRY(sc_rd_get_num(c, n, "length", &g->size[1], RANGE_POS, 1, NULL));
      break;
    case SC_GEOM_BOX: {
      const sc_snode* s = sc_snode_get(n, "size");
      if (!s) return sc_rd_fail_missing(c, n, "size", "[lx, ly, lz]");
      m = sc_rd_push_key(c, "size");
      st = sc_rd_as_vec(c, s, g->size, 3);
      for (int i = 0; !st && i < 3; i++)
        if (!(g->size[i] > 0)) {
          size_t m2 = sc_rd_push_idx(c, i);
          st = sc_rd_fail(c, s->kid[i], "edge length must be > 0 (got %s)", s->kid[i]->str);
          sc_rd_pop(c, m2);
        }
      sc_rd_pop(c, m);
      TRY(st);
      for (int i = 0; i < 3; i++) g->size[i] *= 0.5;
      break;
    }
    case SC_GEOM_PLANE: {
      double nrm[3] = {0, 0, 1}, d = 0;
      const sc_snode* nn = sc_snode_get(n, "normal");
      if (nn) {
        m = sc_rd_push_key(c, "normal");
        st = sc_rd_as_vec(c, nn, nrm, 3);
        if (!st && !(sc_sp_norm3(nrm) > 1e-12)) st = sc_rd_fail(c, nn, "normal must be non-zero");
        sc_rd_pop(c, m);
        TRY(st);
      }
      TRY(sc_rd_get_num(c, n, "offset", &d, RANGE_ANY, 0, NULL));
      sc_sp_normalize3(nrm);
      double t1[3], t2[3];
      sc_sp_tangents(t1, t2, nrm);
      for (int i = 0; i < 3; i++) {
        g->pos[i] = d * nrm[i];
        g->rot[3 * i + 0] = t1[i];
        g->rot[3 * i + 1] = t2[i];
        g->rot[3 * i + 2] = nrm[i];
      }
      break;
    }
  }
  if (g->type != SC_GEOM_PLANE) TRY(sc_rd_get_pose(c, n, "pose", g->pos, g->rot));
  TRY(read_mask(c, n, "contype", &g->contype));
  TRY(read_mask(c, n, "conaffinity", &g->conaffinity));

  /* parameters: own > material > defaults */
  params own = {0};
  TRY(sc_rd_params(c, n, &own));
  params mat = {0};
  const sc_snode* mn = sc_snode_get(n, "material");
  if (mn) {
    const char* mname = NULL;
    m = sc_rd_push_key(c, "material");
    st = sc_rd_as_name(c, mn, &mname);
    int found = st ? -1 : sc_rd_ni_lookup(&L->mat_index, mname, -1);
    if (!st && found < 0) {
      char list[300];
      const char* names[32];
      int nn = L->nmat < 32 ? L->nmat : 32;
      for (int i = 0; i < nn; i++) names[i] = L->mat[i].name;
      sc_rd_join_names(list, sizeof list, names, nn);
      st = sc_rd_fail(c, mn, "unknown material '%s' (expected one of materials: %s)", mname,
                L->nmat ? list : "none defined");
    }
    sc_rd_pop(c, m);
    TRY(st);
    mat = L->mat[found].p;
  }
  g->k = own.has_k ? own.k : mat.has_k ? mat.k : L->defaults.k;
  g->tau = own.has_tau ? own.tau : mat.has_tau ? mat.tau : L->defaults.tau;
  g->mu = own.has_mu ? own.mu : mat.has_mu ? mat.mu : L->defaults.mu;
  g->hcd = own.has_hcd ? own.hcd : mat.has_hcd ? mat.hcd : L->defaults.hcd;
  g->e = own.has_e ? own.e : mat.has_e ? mat.e : L->defaults.e;
  g->spin = own.has_spin ? own.spin : mat.has_spin ? mat.spin : L->defaults.spin;
  g->roll = own.has_roll ? own.roll : mat.has_roll ? mat.roll : L->defaults.roll;
  return SC_OK;
}

/* one body of an exclude pair: world (0) or a body's model index */
static sc_status exclude_end(ctx* c, const load* L, const sc_snode* n, int k, int* body) {
  size_t m = sc_rd_push_idx(c, k);
  const char* name = NULL;
  sc_status st = sc_rd_as_name(c, n, &name);
  if (!st) {
    if (strcmp(name, "world") == 0) {
      *body = 0;
    } else {
      const int i = sc_rd_find_body(L, name);
      if (i < 0)
        st = sc_rd_fail(c, n, "unknown body '%s' (expected world or a body name)", name);
      else
        *body = L->rank[i];
    }
  }
  sc_rd_pop(c, m);
  return st;
}

sc_status sc_rd_exclude(ctx* c, const load* L, const sc_snode* root, sc_model* M, int fill) {
  const sc_snode* list = sc_snode_get(root, "exclude");
  if (!fill) M->nexclude = 0;
  if (!list) return SC_OK;
  size_t m = sc_rd_push_key(c, "exclude");
  sc_status st = SC_OK;
  if (list->kind != SC_SN_SEQ)
    st = sc_rd_fail(c, list, "expected a list of body pairs [[a, b], ...], got %s", sc_rd_kind_name(list));
  for (int i = 0; !st && i < list->n; i++) {
    const sc_snode* p = list->kid[i];
    size_t m2 = sc_rd_push_idx(c, i);
    int a = 0, b = 0;
    if (p->kind != SC_SN_SEQ || p->n != 2)
      st = sc_rd_fail(c, p, "expected a pair of body names [a, b], got %s",
                      p->kind == SC_SN_SEQ ? "a list of another length" : sc_rd_kind_name(p));
    if (!st) st = exclude_end(c, L, p->kid[0], 0, &a);
    if (!st) st = exclude_end(c, L, p->kid[1], 1, &b);
    if (!st && a == b) {
      size_t m3 = sc_rd_push_idx(c, 1);
      st = sc_rd_fail(c, p->kid[1], "body '%s' is paired with itself (a body's shapes never touch "
                      "each other)", p->kid[1]->str);
      sc_rd_pop(c, m3);
    }
    if (!st && fill) {
      M->exclude_body[2 * i] = a;
      M->exclude_body[2 * i + 1] = b;
    }
    sc_rd_pop(c, m2);
  }
  if (!st && !fill) M->nexclude = list->n;
  sc_rd_pop(c, m);
  return st;
}

sc_status sc_rd_materials(ctx* c, load* L, const sc_snode* root) {
  const sc_snode* n = sc_snode_get(root, "materials");
  if (!n) return SC_OK;
  size_t m = sc_rd_push_key(c, "materials");
  sc_status st = SC_OK;
  if (n->kind != SC_SN_MAP) st = sc_rd_fail(c, n, "expected a map name -> {stiffness, dissipation_time, friction, dissipation, restitution}, got %s", sc_rd_kind_name(n));
  if (!st) {
    L->mat = sc_calloc((size_t)n->n, sizeof *L->mat);
    if (!L->mat || sc_rd_ni_init(&L->mat_index, n->n)) st = SC_ERR_NOMEM;
  }
  for (int i = 0; !st && i < n->n; i++) {
    const sc_snode* k = n->kid[2 * i];
    size_t m2 = sc_rd_push_key(c, k->str);
    if (!k->str[0]) st = sc_rd_fail(c, k, "expected a non-empty material name");
    int j = st ? -1 : sc_rd_ni_lookup(&L->mat_index, k->str, i);
    if (j >= 0)
      st = sc_rd_fail(c, k, "duplicate material name '%s' (first at line %d)", k->str, n->kid[2 * j]->line);
    if (!st) st = sc_rd_check_section(c, n->kid[2 * i + 1], "materials.<name>", "a material");
    if (!st) st = sc_rd_params(c, n->kid[2 * i + 1], &L->mat[i].p);
    L->mat[i].name = k->str;
    L->nmat = i + 1;
    sc_rd_pop(c, m2);
  }
  sc_rd_pop(c, m);
  return st;
}

/* a shape's volume, inertia per unit density about its centroid (shape
 * axes) and centroid in the body frame */
static double shape_mass(const load* L, const shape_in* s, double I[9], double c[3]) {
  if (s->type != SC_GEOM_MESH) {
    memcpy(c, s->pos, 3 * sizeof(double));
    return sc_scene_shape_inertia(s->type, s->size, I);
  }
  const sc_mesh* me = &L->mesh[s->mesh];
  double w[3];
  sc_sp_mat3_vec(w, s->rot, me->centroid);
  sc_sp_add3(c, s->pos, w);
  memcpy(I, me->inertia, 9 * sizeof(double));
  return me->volume;
}

static void solid_inertia(const load* L, body_in* b) {
  double Vt = 0, c[3] = {0, 0, 0};
  for (int g = b->geom0; g < b->geom0 + b->ngeom; g++) {
    double I[9], cg[3];
    double V = shape_mass(L, &L->shape[g], I, cg);
    Vt += V;
    sc_sp_addscl3(c, c, cg, V);
  }
  sc_sp_scale3(c, c, 1 / Vt);
  double rho = b->mass / Vt;
  double Ib[9] = {0};
  for (int g = b->geom0; g < b->geom0 + b->ngeom; g++) {
    const shape_in* s = &L->shape[g];
    double I[9], RI[9], RIRt[9], d[3], cg[3];
    double V = shape_mass(L, s, I, cg);
    sc_sp_mat3_mul(RI, s->rot, I);
    sc_sp_mat3_mulT(RIRt, RI, s->rot);
    sc_sp_sub3(d, cg, c);
    double dd = sc_sp_dot3(d, d);
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 3; k++)
        Ib[3 * i + k] += rho * (RIRt[3 * i + k] + V * ((i == k ? dd : 0) - d[i] * d[k]));
  }
  for (int i = 0; i < 3; i++) {
    b->com[i] = c[i];
    for (int k = i; k < 3; k++) b->inertia[3 * i + k] = b->inertia[3 * k + i] = 0.5 * (Ib[3 * i + k] + Ib[3 * k + i]);
  }
}

sc_status sc_rd_geometry(ctx* c, load* L, const sc_snode* root) {
  const sc_snode* st_list = sc_snode_get(root, "static");
  if (st_list && st_list->kind != SC_SN_SEQ) {
    size_t m = sc_rd_push_key(c, "static");
    sc_status st = sc_rd_fail(c, st_list, "expected a list of shapes, got %s", sc_rd_kind_name(st_list));
    sc_rd_pop(c, m);
    return st;
  }
  int total = st_list ? st_list->n : 0;
  for (int i = 0; i < L->nbody; i++) total += L->body[i].geometry ? L->body[i].geometry->n : 0;
  L->shape = sc_calloc((size_t)total, sizeof *L->shape);
  if (!L->shape) return SC_ERR_NOMEM;
  L->nstatic = st_list ? st_list->n : 0;
  for (int i = 0; i < L->nstatic; i++) {
    size_t m = sc_rd_push_key(c, "static");
    sc_rd_push_idx(c, i);
    sc_status st = read_shape(c, L, st_list->kid[i], 0, &L->shape[L->nshape++]);
    sc_rd_pop(c, m);
    TRY(st);
  }
  /* body shapes in model order, so geoms of a body are contiguous */
  for (int r = 0; r < L->nbody; r++) {
    int i = L->order[r];
    body_in* b = &L->body[i];
    b->geom0 = L->nshape;
    b->ngeom = b->geometry ? b->geometry->n : 0;
    for (int k = 0; k < b->ngeom; k++) {
      size_t m = sc_rd_push_key(c, "bodies");
      sc_rd_push_idx(c, i);
      sc_rd_push_key(c, "geometry");
      sc_rd_push_idx(c, k);
      sc_status st = read_shape(c, L, b->geometry->kid[k], 1, &L->shape[L->nshape++]);
      sc_rd_pop(c, m);
      TRY(st);
    }
    if (b->solid) {
      if (b->ngeom == 0) {
        size_t m = sc_rd_push_key(c, "bodies");
        sc_rd_push_idx(c, i);
        sc_rd_push_key(c, "inertia");
        sc_status st = sc_rd_fail(c, b->inertia_node, "inertia: solid needs at least one shape in geometry");
        sc_rd_pop(c, m);
        return st;
      }
      solid_inertia(L, b);
    }
  }
  return SC_OK;
}
