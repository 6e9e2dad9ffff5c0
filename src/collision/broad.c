/* broad: broad phase (sweep and prune), the model-level driver and the pair
 * parameter rules.
 *
 * Sweep and prune (Baraff 1992; Cohen et al., I-COLLIDE 1995) along one
 * axis: the axis with the largest variance of the AABB centres.  The
 * non-plane geoms are kept in d->geom_order sorted by (AABB min on that axis,
 * geom index) with an insertion sort; from one step to the next the order is
 * nearly sorted, so the sort costs about O(n).  Walking the sorted list, a
 * geom is paired with the following geoms whose min is <= its max, and the
 * pair is kept when the AABBs also overlap on the other two axes.  Planes
 * have infinite AABBs and are tested against every non-static geom, culled by
 * the bounding sphere: z.(c - p0) - rbound > the pair's margin (pair_margin)
 * means no contact.
 *
 * Speculative margins (contact.speculative).  A point is reported when its
 * gap is at most the pair's margin, so that the contact stage sees a
 * contact one step before it closes.  A fixed margin does that only for
 * bodies slower than margin / dt: a sphere landing at 2.8 m/s crosses a
 * 1 mm margin and 1.8 mm more in one 1 ms step, is first seen 1.2 mm deep
 * and is pushed out afterwards (at 10 ms: 1.7 cm, and a fast body passes
 * through a thin one unseen).  Each geom's margin therefore grows by the
 * distance its bounding sphere can travel in the step,
 *   s_g dt,   s_g = |v(c_g)| + |omega| rbound_g   (the body's velocity at
 * the step start), and a pair uses margin + (s_a + s_b) dt; against a plane
 * only the approach along its normal counts (pair_margin).  A contact
 * found with a positive gap acts only when the step would close it (the
 * contact laws' vhat, fe0), so speculative contacts change nothing for
 * bodies that do not meet.
 *
 * Filtering: a pair is tested only when its geoms are on bodies that can
 * move relative to each other (different welds, body_weld: a body fixed to
 * the world by fixed joints never touches static geometry, nor two bodies
 * fixed to each other, MuJoCo's rule; a contact there could do no work and
 * its Jacobian would be zero), that are not parent and child (through
 * massless links, body_cparent; as welded groups: a body and any body
 * welded to its parent, MuJoCo's weldparent),
 * their masks match (contype of one & conaffinity of the other, either
 * way, as MuJoCo) and the scene does not exclude their bodies' pair.
 *
 * Output order: contacts are sorted by (geom a, geom b, point index) with a
 * radix sort of their keys (unique, so the result is deterministic), then
 * moved into place once.  When the buffer is full, a new point replaces the
 * shallowest stored point if it is deeper, so the deepest points survive. */
#include "collision/col_internal.h"

#include <math.h>
#include <string.h>

double sc_col_combine_stiffness(double ka, double kb) {
  if (isinf(ka) && isinf(kb)) return INFINITY;
  if (isinf(ka)) return kb;
  if (isinf(kb)) return ka;
  if (ka + kb <= 0) return 0;
  return ka * kb / (ka + kb);
}

double sc_col_combine_dissipation(double ka, double ta, double kb, double tb) {
  int ia = isinf(ka), ib = isinf(kb);
  if (ia && ib) return 0.5 * (ta + tb);
  if (ia) return tb;
  if (ib) return ta;
  if (ka + kb <= 0) return 0.5 * (ta + tb);
  return (kb * ta + ka * tb) / (ka + kb);
}

double sc_col_combine_friction(double mua, double mub) {
  if (mua + mub <= 0) return 0;
  return 2 * mua * mub / (mua + mub);
}

sc_col_geom sc_col_geom_of(const sc_model* m, const sc_data* d, int g) {
  const sc_col_geom G = {m->geom_type[g], d->geom_xpos + 3 * g, d->geom_xrot + 9 * g,
                         m->geom_size + 3 * g,
                         m->geom_mesh[g] >= 0 ? &m->mesh[m->geom_mesh[g]] : NULL};
  return G;
}

void sc_col_aabb(double box[6], const sc_col_geom* g, double margin) {
  const double *s = g->size, *R = g->rot;
  double e[3], c[3];
  memcpy(c, g->pos, sizeof c);
  if (g->type == SC_GEOM_MESH) { /* the hull's box need not be centred on the origin */
    double w[3];
    sc_sp_mat3_vec(w, R, g->mesh->hbox);
    sc_sp_add3(c, c, w);
  }
  for (int i = 0; i < 3; i++) {
    const double* row = R + 3 * i; /* row i: world axis i in local coordinates */
    double az = fabs(row[2]);
    switch (g->type) {
      case SC_GEOM_SPHERE:
        e[i] = s[0];
        break;
      case SC_GEOM_CAPSULE:
        e[i] = az * 0.5 * s[1] + s[0];
        break;
      case SC_GEOM_BOX:
      case SC_GEOM_MESH:
        e[i] = fabs(row[0]) * s[0] + fabs(row[1]) * s[1] + az * s[2];
        break;
      case SC_GEOM_CYLINDER:
        e[i] = az * 0.5 * s[1] + s[0] * sqrt(fmax(0, 1 - az * az));
        break;
      case SC_GEOM_ELLIPSOID: /* support of the ellipsoid along world axis i */
        e[i] = sqrt(row[0] * row[0] * s[0] * s[0] + row[1] * row[1] * s[1] * s[1] +
                    az * az * s[2] * s[2]);
        break;
      case SC_GEOM_PLANE:
      default:
        e[i] = INFINITY;
        break;
    }
  }
  for (int i = 0; i < 3; i++) {
    box[i] = isinf(e[i]) ? -HUGE_VAL : c[i] - e[i] - margin;
    box[3 + i] = isinf(e[i]) ? HUGE_VAL : c[i] + e[i] + margin;
  }
}

/* strict total order for the sweep: (min on axis, index) */
static int sweep_less(const double* aabb, int axis, int g1, int g2) {
  double a = aabb[6 * g1 + axis], b = aabb[6 * g2 + axis];
  return a < b || (a == b && g1 < g2);
}

/* The contacts sorted by (geom a, geom b, point index) -- unique keys, so
 * any correct sort gives the same order: a least-significant-digit radix
 * sort of their positions, a stable counting pass per byte of the point
 * index, then of b, then of a, with only as many bytes as the largest value
 * of each needs (with a few hundred geoms, one each).  The point index is
 * parked in c->k until the parameters are filled.  The 144-byte contacts
 * then move once, along the cycles of the permutation. */
static unsigned sort_field(const sc_contact* c, int f) {
  return f == 0 ? (unsigned)(int)c->k : (unsigned)c->geom[2 - f];
}

/* sorts c[0 .. n); key: 2 n ints of scratch */
static void sort_contacts(sc_contact* c, int n, int* key) {
  int *perm = key, *tmp = key + n;
  unsigned top[3] = {0u, 0u, 0u};
  for (int i = 0; i < n; i++) {
    perm[i] = i;
    for (int f = 0; f < 3; f++)
      if (sort_field(&c[i], f) > top[f]) top[f] = sort_field(&c[i], f);
  }
  for (int f = 0; f < 3; f++)
    for (int shift = 0; shift < 32 && (top[f] >> shift) != 0u; shift += 8) {
      int cnt[257] = {0};
      for (int i = 0; i < n; i++) cnt[((sort_field(&c[perm[i]], f) >> shift) & 255u) + 1]++;
      for (int b = 0; b < 256; b++) cnt[b + 1] += cnt[b];
      for (int i = 0; i < n; i++) tmp[cnt[(sort_field(&c[perm[i]], f) >> shift) & 255u]++] = perm[i];
      int* t = perm;
      perm = tmp;
      tmp = t;
    }
  /* position i takes the contact at perm[i]; -1 marks a placed one */
  for (int i = 0; i < n; i++) {
    if (perm[i] < 0 || perm[i] == i) continue;
    const sc_contact t = c[i];
    int j = i;
    for (;;) {
      const int src = perm[j];
      perm[j] = -1;
      if (src == i) {
        c[j] = t;
        break;
      }
      c[j] = c[src];
      j = src;
    }
  }
}

typedef struct detect_ctx {
  const sc_model* m;
  sc_data* d;
  int dropped;
} detect_ctx;

static void store(detect_ctx* x, int ga, int gb, int idx, const sc_col_point* p) {
  sc_data* d = x->d;
  sc_contact* c;
  if (d->ncon < d->ncon_max) {
    c = &d->contact[d->ncon++];
  } else {
    /* full: replace the shallowest point if this one is deeper */
    int w = -1;
    for (int i = 0; i < d->ncon; i++)
      if (w < 0 || d->contact[i].dist > d->contact[w].dist) w = i;
    x->dropped++;
    if (w < 0 || !(p->dist < d->contact[w].dist)) return;
    c = &d->contact[w];
  }
  memcpy(c->pos, p->pos, sizeof c->pos);
  double t1[3], t2[3];
  sc_sp_tangents(t1, t2, p->normal);
  memcpy(c->frame, t1, sizeof t1);
  memcpy(c->frame + 3, t2, sizeof t2);
  memcpy(c->frame + 6, p->normal, sizeof t1);
  c->dist = p->dist;
  c->geom[0] = ga;
  c->geom[1] = gb;
  c->body[0] = x->m->geom_body[ga];
  c->body[1] = x->m->geom_body[gb];
  c->k = idx;
  c->taud = 0;
  c->mu = 0;
  c->spin = c->roll = 0;
}

/* the velocity v of geom g's body at the geom's centre and its angular
 * speed (the body's velocity at the step start, d->cvel) */
static double geom_velocity(const sc_data* d, int body, int g, double v[3]) {
  const double* V = d->cvel + 6 * body; /* (omega, v at the world origin) */
  const double* c = d->geom_xpos + 3 * g;
  v[0] = V[3] + V[1] * c[2] - V[2] * c[1];
  v[1] = V[4] + V[2] * c[0] - V[0] * c[2];
  v[2] = V[5] + V[0] * c[1] - V[1] * c[0];
  return sqrt(V[0] * V[0] + V[1] * V[1] + V[2] * V[2]);
}

/* the speculative margin of geom g (see the header) */
static void geom_sweeps(const sc_model* m, sc_data* d) {
  const double dt = d->h;
  for (int g = 0; g < m->ngeom; g++) {
    const int b = m->geom_body[g];
    double s = 0.0;
    if (b > 0 && m->opt.speculative) {
      double v[3];
      const double w = geom_velocity(d, b, g, v);
      s = (sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + w * m->geom_rbound[g]) * dt;
      if (!(s < HUGE_VAL)) s = 0.0; /* a non-finite state fails its own guard */
    }
    d->geom_sweep[g] = s;
  }
}

/* The margin of pair (a, b): the fixed margin plus how far the two can
 * approach each other in the step.  Against a plane only the motion along
 * its normal closes the gap: (max(0, -v(c) . n) + |omega| rbound) dt for
 * the other geom, so that a body sliding fast along the ground does not
 * report its far side (a box at 150 m/s, 15 cm a step, would otherwise
 * bring its top corners within the margin and the manifold's reduction
 * could keep them instead of the face it rests on).  Other pairs take the
 * speed of each geom, s_a + s_b. */
static double pair_margin(const sc_model* m, const sc_data* d, int a, int b) {
  const int pa = m->geom_type[a] == SC_GEOM_PLANE, pb = m->geom_type[b] == SC_GEOM_PLANE;
  if (!pa && !pb) return m->opt.margin + d->geom_sweep[a] + d->geom_sweep[b];
  const int p = pa ? a : b, g = pa ? b : a, body = m->geom_body[g];
  if (body <= 0 || !m->opt.speculative) return m->opt.margin;
  double v[3], n[3];
  const double w = geom_velocity(d, body, g, v);
  col_axis(n, d->geom_xrot + 9 * p, 2);
  const double vn = col_dot(v, n);
  const double s = ((vn < 0 ? -vn : 0.0) + w * m->geom_rbound[g]) * d->h;
  return m->opt.margin + (s < HUGE_VAL ? s : 0.0);
}

/* 1 when bodies a < b are an excluded pair (the list is sorted: a binary
 * search, no work when the scene excludes none) */
static int excluded(const sc_model* m, int a, int b) {
  int lo = 0, hi = m->nexclude;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    const int* e = m->exclude_body + 2 * mid;
    if (e[0] < a || (e[0] == a && e[1] < b))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m->nexclude && m->exclude_body[2 * lo] == a && m->exclude_body[2 * lo + 1] == b;
}

static void test_pair(detect_ctx* x, int g1, int g2) {
  const sc_model* m = x->m;
  const sc_data* d = x->d;
  int a = g1 < g2 ? g1 : g2, b = g1 < g2 ? g2 : g1;
  int ba = m->geom_body[a], bb = m->geom_body[b];
  if (m->body_weld[ba] == m->body_weld[bb]) return; /* one rigid whole, or both static */
  /* parent and child (through massless links), as rigid wholes: a body
   * and the welded group its joint hangs from (MuJoCo's weldparent), so that
   * a body split by fixed joints filters as one body would */
  const int wa = m->body_weld[ba], wb = m->body_weld[bb];
  if ((wb != 0 && wa != 0 && m->body_weld[m->body_cparent[wb]] == wa) ||
      (wa != 0 && wb != 0 && m->body_weld[m->body_cparent[wa]] == wb))
    return; /* the joint governs them */
  /* and a body and its own parent even when that parent is welded to the
   * world (a fixed-base robot's first moving link and its base, which URDF
   * robots overlap by design; MuJoCo would pair them) */
  if (ba != 0 && bb != 0 && (m->body_cparent[bb] == ba || m->body_cparent[ba] == bb)) return;
  if (!((m->geom_contype[a] & m->geom_conaffinity[b]) | (m->geom_contype[b] & m->geom_conaffinity[a])))
    return; /* the scene's contype/conaffinity masks keep them apart */
  if (m->nexclude && excluded(m, ba < bb ? ba : bb, ba < bb ? bb : ba)) return;
  if (!sc_col_supported(m->geom_type[a], m->geom_type[b])) return;
  sc_col_point pts[SC_COL_MAX_POINTS];
  const sc_col_geom ga = sc_col_geom_of(m, d, a), gb = sc_col_geom_of(m, d, b);
  int n = sc_col_pair(&ga, &gb, pair_margin(m, d, a, b), pts, SC_COL_MAX_POINTS);
  for (int i = 0; i < n; i++) store(x, a, b, i, &pts[i]);
}

sc_status sc_col_detect(const sc_model* m, sc_data* d, int* dropped) {
  int ng = m->ngeom;
  double margin = m->opt.margin;
  int* order = d->geom_order;
  int* mark = d->pair_scratch;
  detect_ctx x = {m, d, 0};
  d->ncon = 0;

  // world AABBs, each grown by the fixed margin and its speculative part, so
  // that a pair's boxes overlap whenever its gap can be within its margin
  geom_sweeps(m, d);
  int nn = 0;
  for (int g = 0; g < ng; g++) {
    const sc_col_geom G = sc_col_geom_of(m, d, g);
    sc_col_aabb(d->geom_aabb + 6 * g, &G, margin + d->geom_sweep[g]);
    if (m->geom_type[g] != SC_GEOM_PLANE) nn++;
  }

  // the kept order must list every non-plane geom once, then the planes
  for (int g = 0; g < ng; g++) mark[g] = 0;
  int valid = 1;
  for (int i = 0; i < ng && valid; i++) {
    int g = order[i];
    if (g < 0 || g >= ng || mark[g] || (m->geom_type[g] == SC_GEOM_PLANE) != (i >= nn))
      valid = 0;
    else
      mark[g] = 1;
  }
  if (!valid) {
    int k = 0, kp = nn;
    for (int g = 0; g < ng; g++) {
      if (m->geom_type[g] == SC_GEOM_PLANE)
        order[kp++] = g;
      else
        order[k++] = g;
    }
  }

  // sweep axis: largest variance of the AABB centres
  int axis = 0;
  if (nn > 1) {
    double s1[3] = {0, 0, 0}, s2[3] = {0, 0, 0};
    for (int i = 0; i < nn; i++) {
      const double* bx = d->geom_aabb + 6 * order[i];
      for (int k = 0; k < 3; k++) {
        double c = 0.5 * (bx[k] + bx[3 + k]);
        s1[k] += c;
        s2[k] += c * c;
      }
    }
    double best = -1;
    for (int k = 0; k < 3; k++) {
      double var = s2[k] / nn - (s1[k] / nn) * (s1[k] / nn);
      if (var > best) {
        best = var;
        axis = k;
      }
    }
  }

  // insertion sort: nearly sorted from the previous call
  for (int i = 1; i < nn; i++) {
    int g = order[i], j = i - 1;
    while (j >= 0 && sweep_less(d->geom_aabb, axis, g, order[j])) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = g;
  }

  // sweep
  int o1 = (axis + 1) % 3, o2 = (axis + 2) % 3;
  for (int i = 0; i < nn; i++) {
    int gi = order[i];
    const double* bi = d->geom_aabb + 6 * gi;
    for (int j = i + 1; j < nn; j++) {
      int gj = order[j];
      const double* bj = d->geom_aabb + 6 * gj;
      if (bj[axis] > bi[3 + axis]) break;
      if (bj[o1] > bi[3 + o1] || bi[o1] > bj[3 + o1]) continue;
      if (bj[o2] > bi[3 + o2] || bi[o2] > bj[3 + o2]) continue;
      test_pair(&x, gi, gj);
    }
  }

  // planes against every non-static geom
  for (int ip = nn; ip < ng; ip++) {
    int gp = order[ip];
    double z[3];
    col_axis(z, d->geom_xrot + 9 * gp, 2);
    for (int i = 0; i < nn; i++) {
      int g = order[i];
      if (m->body_weld[m->geom_body[g]] == m->body_weld[m->geom_body[gp]]) continue;
      double r[3];
      col_sub(r, d->geom_xpos + 3 * g, d->geom_xpos + 3 * gp);
      if (col_dot(z, r) - m->geom_rbound[g] > pair_margin(m, d, gp, g)) continue;
      test_pair(&x, gp, g);
    }
  }

  // deterministic order, then the pair parameters
  sort_contacts(d->contact, d->ncon, d->contact_order);
  for (int i = 0; i < d->ncon; i++) {
    sc_contact* c = &d->contact[i];
    int a = c->geom[0], b = c->geom[1];
    c->k = sc_col_combine_stiffness(m->geom_stiffness[a], m->geom_stiffness[b]);
    c->taud = sc_col_combine_dissipation(m->geom_stiffness[a], m->geom_dissipation[a],
                                         m->geom_stiffness[b], m->geom_dissipation[b]);
    c->mu = m->opt.friction_max ? fmax(m->geom_friction[a], m->geom_friction[b])
                                : sc_col_combine_friction(m->geom_friction[a], m->geom_friction[b]);
    /* (a pair takes the larger, as MuJoCo does; 0 when neither has any) */
    c->spin = fmax(m->geom_spin[a], m->geom_spin[b]);
    c->roll = fmax(m->geom_roll[a], m->geom_roll[b]);
  }
  if (dropped) *dropped = x.dropped;
  return SC_OK;
}

void sc_col_reposition(const sc_model* m, sc_data* d, const double* rel) {
  sc_col_point pts[SC_COL_MAX_POINTS];
  int i = 0;
  while (i < d->ncon) {
    /* the contacts of one pair are consecutive (sorted by geom pair) */
    const int a = d->contact[i].geom[0], b = d->contact[i].geom[1];
    int e = i + 1;
    while (e < d->ncon && d->contact[e].geom[0] == a && d->contact[e].geom[1] == b) e++;
    /* every point the pair has near its contacts: the largest gap of
     * them, plus the distance either side can travel (the margins) */
    double gmax = 0.0;
    for (int k = i; k < e; k++)
      if (d->contact[k].dist > gmax) gmax = d->contact[k].dist;
    const double margin = gmax + 2.0 * pair_margin(m, d, a, b) + 1e-9;
    const sc_col_geom ga = sc_col_geom_of(m, d, a), gb = sc_col_geom_of(m, d, b);
    const int n = sc_col_pair(&ga, &gb, margin, pts, SC_COL_MAX_POINTS);
    for (int k = i; k < e && n > 0; k++) {
      sc_contact* c = &d->contact[k];
      /* where the contact went with its moving body: matching the old
       * world position instead picks the neighbouring corner once a body
       * moves half its corner spacing in theta_q dt (a box sliding at 100
       * m/s, 10 cm a step: two contacts on one corner, and it tumbles) */
      double want[3];
      const int mb = c->body[1] > 0 ? c->body[1] : c->body[0];
      for (int r = 0; r < 3; r++) want[r] = rel ? d->xpos[3 * mb + r] + rel[3 * k + r] : c->pos[r];
      int best = 0;
      double best_d2 = HUGE_VAL;
      for (int j = 0; j < n; j++) {
        double d2 = 0;
        for (int r = 0; r < 3; r++) d2 += (pts[j].pos[r] - want[r]) * (pts[j].pos[r] - want[r]);
        if (d2 < best_d2) best_d2 = d2, best = j;
      }
      /* a pair whose bodies pass each other within theta_q dt (a ball at
       * 1e5 m/s against a box) has its mid-configuration normal turned
       * away from, or against, the one at q0, along which the gap phi0 was
       * measured: that contact stays where it was detected (the impulse
       * then stops the approach along the q0 normal; repositioned, the
       * ball went through the box) */
      const double* n0 = c->frame + 6;
      if (pts[best].normal[0] * n0[0] + pts[best].normal[1] * n0[1] +
              pts[best].normal[2] * n0[2] < 0.5)
        continue;
      double t1[3], t2[3];
      memcpy(c->pos, pts[best].pos, sizeof c->pos);
      sc_sp_tangents(t1, t2, pts[best].normal);
      memcpy(c->frame, t1, sizeof t1);
      memcpy(c->frame + 3, t2, sizeof t2);
      memcpy(c->frame + 6, pts[best].normal, sizeof t1);
    }
    i = e;
  }
}

