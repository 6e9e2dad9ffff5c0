/* options: the scene's simulation options (gravity, time, integrator,
 * contact, output) into sc_options; sc_options_default gives what a scene
 * leaves out.  The integrator's scheme sets the three thetas unless it is
 * "theta", which gives them.  Defaults and ranges: keys.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_internal.h"

sc_status sc_rd_options(ctx* c, load* L, const sc_snode* root) {
  sc_options* o = &L->opt;
  const sc_snode* n;
  size_t m;
  sc_status st;

  if ((n = sc_snode_get(root, "gravity"))) {
    m = sc_rd_push_key(c, "gravity");
    st = sc_rd_as_vec(c, n, o->gravity, 3);
    sc_rd_pop(c, m);
    TRY(st);
  }

  if ((n = sc_snode_get(root, "fluid"))) {
    m = sc_rd_push_key(c, "fluid");
    st = sc_rd_check_section(c, n, "fluid", "a map");
    if (!st) st = sc_rd_get_num(c, n, "density", &o->fluid_density, RANGE_NONNEG, 0, NULL);
    if (!st) st = sc_rd_get_num(c, n, "viscosity", &o->fluid_viscosity, RANGE_NONNEG, 0, NULL);
    if (!st) st = sc_rd_get_vec(c, n, "wind", o->wind, 3);
    sc_rd_pop(c, m);
    TRY(st);
  }

  n = sc_snode_get(root, "time");
  if (!n) return sc_rd_fail_missing(c, root, "time", "{step, duration}");
  m = sc_rd_push_key(c, "time");
  st = sc_rd_check_section(c, n, "time", "a map");
  if (!st) st = sc_rd_get_num(c, n, "step", &o->dt, RANGE_POS, 1, NULL);
  if (!st) st = sc_rd_get_num(c, n, "duration", &o->duration, RANGE_POS, 1, NULL);
  if (!st) st = sc_rd_get_num(c, n, "accuracy", &o->accuracy, RANGE_NONNEG, 0, NULL);
  int has_min = 0;
  if (!st) st = sc_rd_get_num(c, n, "min_step", &o->min_step, RANGE_POS, 0, &has_min);
  if (!st && has_min && o->min_step > o->dt) {
    size_t m2 = sc_rd_push_key(c, "min_step");
    st = sc_rd_fail(c, sc_snode_get(n, "min_step"), "must be <= time.step (got %s)",
                    sc_snode_get(n, "min_step")->str);
    sc_rd_pop(c, m2);
  }
  if (!st && !has_min && o->accuracy > 0) o->min_step = 1e-3 * o->dt; /* the default */
  if (!st && has_min && !(o->accuracy > 0)) {
    size_t m2 = sc_rd_push_key(c, "min_step");
    st = sc_rd_fail(c, sc_snode_get(n, "min_step"),
                    "only with time.accuracy (the shortest step error control may take)");
    sc_rd_pop(c, m2);
  }
  if (!st && o->duration < o->dt) {
    size_t m2 = sc_rd_push_key(c, "duration");
    st = sc_rd_fail(c, sc_snode_get(n, "duration"), "must be >= time.step (got %s)",
              sc_snode_get(n, "duration")->str);
    sc_rd_pop(c, m2);
  }
  sc_rd_pop(c, m);
  TRY(st);

  static const char* const schemes[] = {"explicit_euler", "symplectic_euler", "implicit_euler",
                                        "midpoint", "theta"};
  if ((n = sc_snode_get(root, "integrator"))) {
    m = sc_rd_push_key(c, "integrator");
    st = sc_rd_check_section(c, n, "integrator", "a map");
    const sc_snode* s = sc_snode_get(n, "scheme");
    if (!st && s) {
      int k = 0;
      size_t m2 = sc_rd_push_key(c, "scheme");
      st = sc_rd_as_enum(c, s, schemes, NELEM(schemes), "scheme", &k);
      sc_rd_pop(c, m2);
      if (!st) o->scheme = (sc_scheme)k;
    }
    const sc_snode* th = sc_snode_get(n, "theta");
    if (!st && o->scheme == SC_SCHEME_THETA && !th)
      st = sc_rd_fail_missing(c, n, "theta", "{q, v, vq} with scheme: theta");
    if (!st && th && o->scheme != SC_SCHEME_THETA) {
      size_t m2 = sc_rd_push_key(c, "theta");
      st = sc_rd_fail(c, th, "only allowed with scheme: theta (scheme is %s)",
                sc_scheme_name(o->scheme));
      sc_rd_pop(c, m2);
    }
    if (!st && th) {
      size_t m2 = sc_rd_push_key(c, "theta");
      st = sc_rd_check_section(c, th, "integrator.theta", "a map");
      if (!st) st = sc_rd_get_num(c, th, "q", &o->theta_q, RANGE_UNIT, 1, NULL);
      if (!st) st = sc_rd_get_num(c, th, "v", &o->theta_v, RANGE_UNIT, 1, NULL);
      if (!st) st = sc_rd_get_num(c, th, "vq", &o->theta_vq, RANGE_UNIT, 1, NULL);
      sc_rd_pop(c, m2);
    }
    const sc_snode* nw = sc_snode_get(n, "newton");
    if (!st && nw) {
      size_t m2 = sc_rd_push_key(c, "newton");
      st = sc_rd_check_section(c, nw, "integrator.newton", "a map");
      if (!st) st = sc_rd_get_num(c, nw, "tolerance", &o->newton_tol, RANGE_POS, 0, NULL);
      if (!st) st = sc_rd_get_int(c, nw, "max_iterations", &o->newton_maxit, 1, 0, NULL);
      sc_rd_pop(c, m2);
    }
    if (!st) st = sc_rd_get_int(c, n, "relinearize", &o->relinearize, 0, 0, NULL);
    sc_rd_pop(c, m);
    TRY(st);
  }
  if (o->scheme != SC_SCHEME_THETA)
    sc_options_scheme_thetas(o->scheme, &o->theta_q, &o->theta_v, &o->theta_vq);

  int has_contact_tol = 0, has_reg = 0;
  static const char* const solvers[] = {"newton", "lcp"};
  static const char* const models[] = {"sap", "similar", "lagged"};
  static const char* const onfail[] = {"abort", "warn"};
  if ((n = sc_snode_get(root, "contact"))) {
    m = sc_rd_push_key(c, "contact");
    st = sc_rd_check_section(c, n, "contact", "a map");
    const sc_snode* s;
    if (!st && (s = sc_snode_get(n, "solver"))) {
      int k = 0;
      size_t m2 = sc_rd_push_key(c, "solver");
      st = sc_rd_as_enum(c, s, solvers, 2, "solver", &k);
      sc_rd_pop(c, m2);
      if (!st) o->solver = (sc_solver_kind)k;
    }
    if (!st && (s = sc_snode_get(n, "model"))) {
      int k = 0;
      size_t m2 = sc_rd_push_key(c, "model");
      st = sc_rd_as_enum(c, s, models, 3, "model", &k);
      sc_rd_pop(c, m2);
      if (!st) o->contact_model = k;
    }
    if (!st) st = sc_rd_get_num(c, n, "tolerance", &o->contact_tol, RANGE_POS, 0, &has_contact_tol);
    if (!st) st = sc_rd_get_num(c, n, "regularization_step", &o->reg_step, RANGE_POS, 0, &has_reg);
    /* fixed steps: a near-rigid law is never stiffer than its step's, so a
     * shorter one would be silently ignored; error control: it bounds the
     * substeps, so it cannot be under the shortest */
    const int acc = o->accuracy > 0;
    if (!st && has_reg && o->reg_step < (acc ? o->min_step : o->dt)) {
      size_t m2 = sc_rd_push_key(c, "regularization_step");
      const sc_snode* rn = sc_snode_get(n, "regularization_step");
      st = acc ? sc_rd_fail(c, rn, "must be >= time.min_step (%g s): error control's substeps "
                                   "are at most it (got %s)", o->min_step, rn->str)
               : sc_rd_fail(c, rn, "must be >= time.step with fixed steps (a step's near-rigid "
                                   "law is its stiffest; got %s)", rn->str);
      sc_rd_pop(c, m2);
    }
    if (!st) st = sc_rd_get_int(c, n, "max_iterations", &o->contact_maxit, 1, 0, NULL);
    if (!st) st = sc_rd_get_int(c, n, "cg_iterations", &o->cg_iterations, 0, 0, NULL);
    if (!st && (s = sc_snode_get(n, "on_failure"))) {
      int k = 0;
      size_t m2 = sc_rd_push_key(c, "on_failure");
      st = sc_rd_as_enum(c, s, onfail, 2, "on_failure", &k);
      sc_rd_pop(c, m2);
      if (!st) o->on_failure = (sc_on_failure)k;
    }
    if (!st && (s = sc_snode_get(n, "lcp"))) {
      size_t m2 = sc_rd_push_key(c, "lcp");
      st = sc_rd_check_section(c, s, "contact.lcp", "a map");
      if (!st) st = sc_rd_get_int(c, s, "directions", &o->lcp_directions, 4, 0, NULL);
      if (!st && o->lcp_directions % 2) {
        size_t m3 = sc_rd_push_key(c, "directions");
        const sc_snode* dn = sc_snode_get(s, "directions");
        st = sc_rd_fail(c, dn, "must be even (got %s)", dn->str);
        sc_rd_pop(c, m3);
      }
      if (!st) st = sc_rd_get_num(c, s, "max_memory", &o->lcp_max_memory, RANGE_POS, 0, NULL);
      const sc_snode* ws;
      if (!st && (ws = sc_snode_get(s, "warm_start"))) {
        size_t m3 = sc_rd_push_key(c, "warm_start");
        st = sc_rd_as_bool(c, ws, &o->lcp_warm_start);
        sc_rd_pop(c, m3);
      }
      sc_rd_pop(c, m2);
    }
    if (!st) st = sc_rd_get_num(c, n, "sigma", &o->sigma, RANGE_POS, 0, NULL);
    if (!st) st = sc_rd_get_num(c, n, "near_rigid_beta", &o->beta, RANGE_NONNEG, 0, NULL);
    if (!st) st = sc_rd_get_num(c, n, "slip_curvature", &o->slip_curvature, RANGE_NONNEG, 0, NULL);
    if (!st && (s = sc_snode_get(n, "theta"))) {
      size_t m2 = sc_rd_push_key(c, "theta");
      if (s->kind == SC_SN_SCALAR && s->str && strcmp(s->str, "auto") == 0)
        o->contact_theta = SC_CONTACT_THETA_AUTO;
      else if (s->kind == SC_SN_SCALAR && s->str && strcmp(s->str, "scheme") == 0)
        o->contact_theta = SC_CONTACT_THETA_SCHEME;
      else if (s->kind != SC_SN_SCALAR)
        st = sc_rd_fail(c, s, "expected auto, scheme or a number in (0, 1], got %s", sc_rd_kind_name(s));
      else {
        char* end;
        const double v = strtod(s->str, &end);
        if (end == s->str || *end != '\0' || !(v > 0 && v <= 1))
          st = sc_rd_fail(c, s, "expected auto, scheme or a number in (0, 1] (got '%s')", s->str);
        else
          o->contact_theta = v;
      }
      sc_rd_pop(c, m2);
    }
    if (!st) st = sc_rd_get_num(c, n, "near_rigid_depth", &o->near_rigid_depth, RANGE_NONNEG, 0, NULL);
    if (!st) st = sc_rd_get_num(c, n, "near_rigid_beta_min", &o->beta_min, RANGE_POS, 0, NULL);
    if (!st) st = sc_rd_get_int(c, n, "passes", &o->contact_passes, 0, 0, NULL);
    if (!st) st = sc_rd_get_num(c, n, "penetration_warning", &o->penetration_warning, RANGE_POS, 0, NULL);
    if (!st) st = sc_rd_get_num(c, n, "margin", &o->margin, RANGE_NONNEG, 0, NULL);
    if (!st && (s = sc_snode_get(n, "friction_mix"))) {
      size_t m2 = sc_rd_push_key(c, "friction_mix");
      if (s->kind == SC_SN_SCALAR && s->str && strcmp(s->str, "harmonic") == 0)
        o->friction_max = 0;
      else if (s->kind == SC_SN_SCALAR && s->str && strcmp(s->str, "max") == 0)
        o->friction_max = 1;
      else
        st = sc_rd_fail(c, s, "expected harmonic or max, got %s",
                        s->kind == SC_SN_SCALAR && s->str ? s->str : sc_rd_kind_name(s));
      sc_rd_pop(c, m2);
    }
    if (!st && (s = sc_snode_get(n, "speculative"))) {
      size_t m2 = sc_rd_push_key(c, "speculative");
      st = sc_rd_as_bool(c, s, &o->speculative);
      sc_rd_pop(c, m2);
    }
    if (!st && (s = sc_snode_get(n, "midstep_jacobian"))) {
      size_t m2 = sc_rd_push_key(c, "midstep_jacobian");
      st = sc_rd_as_bool(c, s, &o->midstep_jacobian);
      sc_rd_pop(c, m2);
    }
    if (!st)
      st = sc_rd_get_num(c, n, "stiction_anchor", &o->stiction_anchor, RANGE_UNIT, 0, NULL);
    if (!st && (s = sc_snode_get(n, "restitution_velocity"))) {
      size_t m2 = sc_rd_push_key(c, "restitution_velocity");
      if (s->kind == SC_SN_SCALAR && s->str && strcmp(s->str, "auto") == 0) {
        o->restitution_velocity = SC_RESTITUTION_VELOCITY_AUTO;
      } else if (s->kind != SC_SN_SCALAR) {
        st = sc_rd_fail(c, s, "expected auto or a number in m/s, got %s", sc_rd_kind_name(s));
      } else {
        char* end;
        const double v = strtod(s->str, &end);
        if (end == s->str || *end != '\0' || !isfinite(v))
          st = sc_rd_fail(c, s, "expected auto or a number in m/s (got '%s')", s->str);
        else if (!(v >= 0))
          st = sc_rd_fail(c, s, "must be >= 0 or auto (got %s)", s->str);
        else
          o->restitution_velocity = v;
      }
      sc_rd_pop(c, m2);
    }
    if (!st) st = sc_rd_get_int(c, n, "max_contacts", &o->ncon_max, 0, 0, NULL);
    if (!st && (s = sc_snode_get(n, "threads"))) {
      size_t m2 = sc_rd_push_key(c, "threads");
      if (s->kind == SC_SN_SCALAR && s->str && strcmp(s->str, "auto") == 0)
        o->threads = 0;
      else if (s->kind == SC_SN_SCALAR && s->str &&
               (s->str[0] == '\0' || s->str[strspn(s->str, "+-0123456789")] != '\0'))
        st = sc_rd_fail(c, s, "expected auto or a number of threads (got '%s')", s->str);
      else {
        st = sc_rd_as_int(c, s, &o->threads);
        if (!st && (o->threads < 1 || o->threads > SC_MAX_THREADS))
          st = sc_rd_fail(c, s, "must be auto or an integer in [1, %d] (got %s)", SC_MAX_THREADS,
                    s->str);
      }
      sc_rd_pop(c, m2);
    }
    if (!st && (s = sc_snode_get(n, "defaults"))) {
      size_t m2 = sc_rd_push_key(c, "defaults");
      st = sc_rd_check_section(c, s, "contact.defaults", "a map");
      params p = {0};
      if (!st) st = sc_rd_params(c, s, &p);
      if (p.has_k) L->defaults.k = p.k;
      if (p.has_tau) L->defaults.tau = p.tau;
      if (p.has_mu) L->defaults.mu = p.mu;
      if (p.has_hcd) L->defaults.hcd = p.hcd;
      if (p.has_e) L->defaults.e = p.e;
      if (p.has_spin) L->defaults.spin = p.spin;
      if (p.has_roll) L->defaults.roll = p.roll;
      sc_rd_pop(c, m2);
    }
    sc_rd_pop(c, m);
    TRY(st);
  }

  /* under error control near-rigid laws are written for time.step unless
   * given (constraint/contact_law.c) */
  if (o->accuracy > 0 && !has_reg) o->reg_step = o->dt;

  /* under error control the contact solve's tolerance follows the accuracy
   * down, never up: a tenth of it, between 1e-10 and the fixed-step default
   * (doc/step.md, "Error control": looser solves cost more rejections) */
  if (o->accuracy > 0 && !has_contact_tol)
    o->contact_tol = fmax(1e-10, fmin(o->contact_tol, 0.1 * o->accuracy));

  if ((n = sc_snode_get(root, "output"))) {
    m = sc_rd_push_key(c, "output");
    st = sc_rd_check_section(c, n, "output", "a map");
    if (!st) st = sc_rd_get_int(c, n, "every", &o->output_every, 1, 0, NULL);
    const sc_snode* s = sc_snode_get(n, "contacts");
    if (!st && s) {
      size_t m2 = sc_rd_push_key(c, "contacts");
      st = sc_rd_as_bool(c, s, &o->output_contacts);
      sc_rd_pop(c, m2);
    }
    if (!st && (s = sc_snode_get(n, "solver_trace"))) {
      size_t m2 = sc_rd_push_key(c, "solver_trace");
      st = sc_rd_as_bool(c, s, &o->output_solver_trace);
      sc_rd_pop(c, m2);
    }
    sc_rd_pop(c, m);
    TRY(st);
  }
  return SC_OK;
}
