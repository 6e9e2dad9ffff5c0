/* run: the figures, warnings and status of a run of many steps (run.h),
 * for the command line and the library's recorder alike. */
#include "run/run.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* line_at(const char* p, int* n) {
  const char* e = strchr(p, '\n');
  *n = e ? (int)(e - p) : (int)strlen(p);
  return e && e[1] ? e + 1 : NULL;
}

sc_status sc_run_init(sc_run* r, const sc_model* m, const sc_data* d, sc_error* err) {
  memset(r, 0, sizeof *r);
  r->E0 = d->e_kinetic + d->e_gravity + d->e_spring;
  r->max_frac = d->max_depth_frac;
  r->frac_depth = d->frac_depth;
  r->frac_pair[0] = d->depth_pair[0];
  r->frac_pair[1] = d->depth_pair[1];
  /* sized before the run: no allocation while it steps */
  r->hist_n = (m->opt.contact_maxit > 1000 ? m->opt.contact_maxit : 1000) + 2;
  r->hist = sc_calloc((size_t)r->hist_n, sizeof *r->hist);
  if (!r->hist) return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  return SC_OK;
}

void sc_run_free(sc_run* r) {
  sc_free(r->hist);
  r->hist = NULL;
}

void sc_run_state(sc_run* r, const sc_data* d) {
  if (d->max_depth > r->max_pen) r->max_pen = d->max_depth;
  if (d->max_depth_frac > r->max_frac) r->max_frac = d->max_depth_frac;
}

void sc_run_step(sc_run* r, const sc_model* m, const sc_data* d) {
  r->steps++;
  if (d->max_depth > r->max_pen) r->max_pen = d->max_depth;
  if (d->max_depth_frac > r->max_frac) {
    r->max_frac = d->max_depth_frac;
    r->frac_depth = d->frac_depth;
    r->frac_time = d->time - d->h; /* detected at the (sub)step's start */
    r->frac_pair[0] = d->depth_pair[0];
    r->frac_pair[1] = d->depth_pair[1];
  }
  r->frac_steps += d->max_depth_frac > m->opt.penetration_warning;
  r->sum_iter += d->contact_stats.iterations;
  r->sum_ncon += d->ncon;
  const int it = d->contact_stats.iterations;
  r->hist[it < 0 ? 0 : it >= r->hist_n ? r->hist_n - 1 : it]++;
  if (it > r->max_iter) r->max_iter = it;
  for (int i = 0; i < 3; i++)
    if (d->coulomb[i] > r->max_coulomb[i]) r->max_coulomb[i] = d->coulomb[i];
}

long sc_run_median_iterations(const sc_run* r) {
  for (long acc = 0, i = 0; i < r->hist_n; i++) {
    acc += r->hist[i];
    if (2 * acc >= r->steps) return i;
  }
  return 0;
}

/* append one warning to warnings (nw bytes), "; " after the ones before */
static void add_warning(char* warnings, size_t nw, const char* fmt, ...) {
  const size_t used = strlen(warnings);
  if (used + 2 >= nw) return;
  size_t at = used;
  if (used) {
    memcpy(warnings + used, "; ", 3);
    at += 2;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(warnings + at, nw - at, fmt, ap);
  va_end(ap);
}

void sc_run_warnings(const sc_run* r, const sc_model* m, const sc_data* d, char* warnings,
                     size_t nw, char* bodies, size_t nb) {
  snprintf(bodies, nb, "%s / %s", m->body_name[r->frac_pair[0]], m->body_name[r->frac_pair[1]]);
  warnings[0] = '\0';
  /* suspect results are said, not only recorded: a contact deeper than
   * contact.penetration_warning of the smaller body's size */
  if (r->frac_steps > 0)
    add_warning(warnings, nw,
                "penetration: contacts between %s went %.3g m deep at t = %.6g s, %.3g %% of the "
                "smaller geometry's bounding radius (above contact.penetration_warning, %.3g %%, "
                "in %ld steps)",
                bodies, r->frac_depth, r->frac_time, 100 * r->max_frac,
                100 * m->opt.penetration_warning, r->frac_steps);
  for (const char* p = m->notes && *m->notes ? m->notes : NULL; p;) {
    int n;
    const char* next = line_at(p, &n);
    add_warning(warnings, nw, "%.*s", n, p);
    p = next;
  }
  if (d->warning[SC_WARN_FAST])
    add_warning(warnings, nw,
                "fast body: %s moved %.3g m in one step at t = %.6g s, more than its size, in no "
                "contact, with contact.speculative off (in %d steps): contacts in its path may "
                "have been missed; turn contact.speculative on or reduce time.step",
                m->body_name[d->fast_body], d->fast_dist, d->fast_time, d->warning[SC_WARN_FAST]);
  if (d->warning[SC_WARN_MIN_STEP])
    add_warning(warnings, nw,
                "error control: %d steps held at time.min_step %.3g s had an error estimate "
                "above time.accuracy %.3g: the accuracy asked for was not reached there; lower "
                "time.min_step or ask for less",
                d->warning[SC_WARN_MIN_STEP],
                m->opt.min_step, m->opt.accuracy);
}

sc_h5_summary sc_run_summary(const sc_run* r, const char* bodies, const char* warnings) {
  const sc_h5_summary s = {r->max_pen, r->max_frac, r->frac_time, bodies, warnings,
                           {r->max_coulomb[0], r->max_coulomb[1], r->max_coulomb[2]},
                           0, 0, 0};
  return s;
}

void sc_run_complete_status(const sc_model* m, char* status, size_t size) {
  snprintf(status, size, "complete");
  /* a model run without part of itself (--allow-unsupported) is not the
   * model: its status says what was left out, never a plain "complete" */
  if (!m->ignored || !m->ignored[0]) return;
  size_t o = (size_t)snprintf(status, size, "complete with omissions: ");
  for (const char* p = m->ignored; p && o < size;) {
    int n;
    const char* next = line_at(p, &n);
    const char* at = strstr(p, " (first at "); /* the kind alone */
    if (at && at < p + n) n = (int)(at - p);
    int w = snprintf(status + o, size - o, "%s%.*s", p == m->ignored ? "" : ", ", n, p);
    if (w > 0) o += (size_t)w;
    p = next;
  }
  if (o < size)
    snprintf(status + o, size - o,
             " (left out by --allow-unsupported; the root attribute ignored)");
}

int sc_run_split_start(const char* spec, char* path, size_t n, long long* row) {
  *row = -1;
  const char* colon = strrchr(spec, ':');
  size_t plen = strlen(spec);
  if (colon && colon[1] != '\0') {
    char* end;
    errno = 0;
    const long long r = strtoll(colon + 1, &end, 10);
    if (*end == '\0' && errno == 0) *row = r, plen = (size_t)(colon - spec);
  }
  if (plen == 0 || plen >= n) return -1;
  memcpy(path, spec, plen);
  path[plen] = '\0';
  return 0;
}

sc_status sc_run_read_start(const char* spec, const sc_model* m, double* q, double* v, char* desc,
                            size_t n, sc_error* err) {
  char path[4096];
  long long row;
  if (sc_run_split_start(spec, path, sizeof path, &row) != 0)
    return sc_error_set(err, SC_ERR_SCENE, NULL, 0, 0, "%s: expected RUN.h5 or RUN.h5:ROW", spec);
  double t = 0;
  long long k = 0;
  const sc_status st = sc_h5_read_state(path, row, m, q, v, &t, &k, err);
  if (st != SC_OK) return st;
  sc_state_frame_to_com(m, q, v); /* the file has the frame origin's (state.h) */
  snprintf(desc, n, "%s row %lld (t = %.17g s)", path, k, t);
  return SC_OK;
}
