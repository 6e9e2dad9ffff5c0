/* match: contacts of consecutive steps paired by geom pair and nearest
 * point (see match.h). */
#include "contact/match.h"

#include <string.h>

#include "core/core.h"

static unsigned pair_hash(const int g[2], int size) {
  unsigned h = (unsigned)g[0] * 2654435761u ^ (unsigned)g[1] * 40503u;
  return h & (unsigned)(size - 1);
}

int sc_contact_memory_init(sc_contact_memory* mem, int cap) {
  const size_t n = (size_t)cap + 1;
  mem->cap = cap;
  mem->n = 0;
  mem->h = 0.0;
  mem->hash_size = 1;
  while ((size_t)mem->hash_size < 2 * n) mem->hash_size *= 2;
  mem->geom = sc_malloc(sizeof(int) * (2 * n + n + (size_t)mem->hash_size));
  mem->rel = sc_malloc(sizeof(double) * 9 * n);
  mem->pat = sc_malloc(sizeof(uint32_t) * n);
  if (!mem->geom || !mem->rel || !mem->pat) return -1;
  mem->next = mem->geom + 2 * n;
  mem->head = mem->next + n;
  mem->imp = mem->rel + 3 * n;
  mem->anc = mem->imp + 3 * n;
  return 0;
}

void sc_contact_memory_copy(sc_contact_memory* dst, const sc_contact_memory* src) {
  const size_t n = (size_t)src->cap + 1;
  memcpy(dst->geom, src->geom, sizeof(int) * (3 * n + (size_t)src->hash_size));
  memcpy(dst->rel, src->rel, sizeof(double) * 9 * n);
  memcpy(dst->pat, src->pat, sizeof(uint32_t) * n);
  dst->n = src->n;
  dst->h = src->h;
}

void sc_contact_memory_free(sc_contact_memory* mem) {
  sc_free(mem->geom);
  sc_free(mem->rel);
  sc_free(mem->pat);
  mem->geom = mem->head = mem->next = NULL;
  mem->rel = mem->imp = mem->anc = NULL;
  mem->pat = NULL;
  mem->n = 0;
}

void sc_contact_offsets(const sc_data* d, double* rel) {
  for (int i = 0; i < d->ncon; i++) {
    const sc_contact* c = &d->contact[i];
    const int b = c->body[1] > 0 ? c->body[1] : c->body[0];
    for (int k = 0; k < 3; k++) rel[3 * i + k] = c->pos[k] - d->xpos[3 * b + k];
  }
}

int sc_contact_match(const sc_contact_memory* mem, const sc_contact* c, const double rel[3]) {
  int best = -1;
  double best_d2 = SC_MATCH_DIST * SC_MATCH_DIST;
  if (mem->n > 0)
    for (int j = mem->head[pair_hash(c->geom, mem->hash_size)]; j >= 0; j = mem->next[j]) {
      if (mem->geom[2 * j] != c->geom[0] || mem->geom[2 * j + 1] != c->geom[1]) continue;
      double d2 = 0;
      for (int k = 0; k < 3; k++) {
        double e = rel[k] - mem->rel[3 * j + k];
        d2 += e * e;
      }
      if (d2 < best_d2) best_d2 = d2, best = j;
    }
  return best;
}

void sc_contact_match_all(const sc_contact_memory* mem, const sc_data* d, const double* rel,
                          int* match, double* gprev, double* anchor) {
  /* an impulse over a step of mem->h is the same force over this one times
   * d->h / mem->h (error control changes the step; fixed steps: exactly 1).
   * The anchors are slips and stay as they are (doc/step.md, "Error
   * control") */
  const double scale = mem->h > 0.0 ? d->h / mem->h : 1.0;
  for (int i = 0; i < d->ncon; i++) {
    const sc_contact* c = &d->contact[i];
    const int j = sc_contact_match(mem, c, rel + 3 * i);
    match[i] = j;
    for (int r = 0; r < 3; r++) {
      double g = 0.0, a = 0.0;
      if (j >= 0)
        for (int k = 0; k < 3; k++) {
          g += c->frame[3 * r + k] * mem->imp[3 * j + k];
          a += c->frame[3 * r + k] * mem->anc[3 * j + k];
        }
      gprev[3 * i + r] = scale * g;
      /* the anchor's part along the new normal is dropped: the normal row
       * has its own target */
      if (r < 2) anchor[2 * i + r] = a;
    }
  }
}

void sc_contact_remember(sc_contact_memory* mem, const sc_data* d, const double* rel,
                         const double* anchor, const uint32_t* pat) {
  const int nc = d->ncon;
  for (int i = 0; i < mem->hash_size; i++) mem->head[i] = -1;
  for (int i = 0; i < nc; i++) {
    const sc_contact* c = &d->contact[i];
    const double* g = d->impulse + 3 * i;
    mem->geom[2 * i] = c->geom[0];
    mem->geom[2 * i + 1] = c->geom[1];
    for (int k = 0; k < 3; k++) {
      mem->rel[3 * i + k] = rel[3 * i + k];
      /* frame rows are t1, t2, n: world = frame^T gamma */
      mem->imp[3 * i + k] = c->frame[k] * g[0] + c->frame[3 + k] * g[1] + c->frame[6 + k] * g[2];
      mem->anc[3 * i + k] =
          anchor ? c->frame[k] * anchor[2 * i] + c->frame[3 + k] * anchor[2 * i + 1] : 0.0;
    }
    mem->pat[i] = pat ? pat[i] : 0u;
    const unsigned h = pair_hash(c->geom, mem->hash_size);
    mem->next[i] = mem->head[h];
    mem->head[h] = i;
  }
  mem->n = nc;
  mem->h = d->h;
}
