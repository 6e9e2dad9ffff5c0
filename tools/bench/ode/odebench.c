/* odebench SCENE.yaml STEPS DT {quick|direct} [--iters N] [--window T0] [--states]:
 * run a simc scene in ODE 0.16 and print one summary line
 *   steps_per_second=.. mean_ncon=.. rss_kb=.. bodies=.. mass_kg=.. final_ke_J=..
 *   min_z_m=.. ms_per_step=.. window_steps=.. mean_speed=.. max_speed=..
 *   max_depth=.. floor_ratio=.. max_drop=..
 * then, with --states, one line per body: body I x y z qw qx qy qz vx vy vz wx wy wz
 * (final state, world frame).  The contract is the work-precision harness's
 * (tools/bench/ode/README.md); the first seven fields are the ones
 * tools/bench/bench_ode.sh and check.sh read.
 *
 * Scene: the one-key-per-line YAML subset that tools/gen_clutter.sh and
 * tools/bench/wp_scenes.sh write, read line by line (no YAML library, and the
 * awk rand() sequence of the generators cannot be replayed in C): `gravity:`,
 * `contact: defaults:`, and per body `joint: {type: free}`, `mass:`,
 * `inertia: solid` (uniform density: dMassSetSphereTotal / dMassSetBoxTotal),
 * `initial: {q: [x, y, z, qw, qx, qy, qz], v: [vx, vy, vz, wx, wy, wz]}` (world
 * frame) and one sphere or box in `geometry:`; `static:` planes {normal n,
 * offset d}, free side n.x > d, which is dCreatePlane's convention.  Anything
 * else that would change the physics is an error rather than silently dropped.
 * Absent keys take simc's defaults (doc/scenes.md): gravity [0, 0, -9.81],
 * stiffness 1e6 N/m, dissipation_time 0.01 s, friction 0.5.
 *
 * Contact mapping (contact.defaults; a plane's `stiffness: rigid` changes nothing:
 * simc puts a pair's two springs in series, and a rigid plane in series with a
 * body of stiffness k is k.  Body-body pairs, k/2 in simc, get k here too, as
 * before; each contact point is one such spring):
 *   friction mu -> dContactApprox1 (friction pyramid, normal-force-scaled), mu;
 *   stiffness k, dissipation_time tau_d -> a soft normal equivalent to a spring k
 *     and damper c = tau_d k:  ERP = h k / (h k + c),  CFM = 1 / (h k + c)
 *     (ODE manual, "Soft constraint and constraint force mixing");
 *   stiffness: rigid -> no dContactSoftERP/CFM: the world's ERP 0.2 and CFM 1e-10
 *     (ODE's defaults in double precision), what an ODE user calls rigid.
 * quick = dWorldQuickStep (--iters N Gauss-Seidel sweeps, default 20),
 * direct = dWorldStep (Dantzig LCP).  dHashSpace broad phase.
 *
 * Timing: CLOCK_MONOTONIC around each step's collision + step + emptying of the
 * contact group only; steps_per_second over all steps, ms_per_step over the
 * window (steps whose end time (k+1) DT > T0).  The window's statistics are
 * gathered between steps, outside the timed part.  rss_kb is ru_maxrss.
 * min_z_m is the lowest point of any body at the end (sphere: z - r; box: lowest
 * corner), so that a body sunk below the floor shows. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <ode/ode.h>

#define MAXB 20000
#define MAXC 64

static dWorldID world;
static dJointGroupID cgroup;
static int rigid;
static double mu, erp, cfm;
static long ncon_step;
/* the window's collision statistics, written by the near callback */
static int in_window;
static double max_depth;
/* floor force feedback: one slot per floor contact of the step, preallocated
 * for the most the callback can create (MAXC per body and floor plane) so that
 * the timed loop never allocates */
static char floor_tag; /* dGeomSetData of the floor planes points here */
static dJointFeedback *fb;
static size_t fb_n, fb_cap;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void near_cb(void *data, dGeomID a, dGeomID b) {
  (void)data;
  dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
  if (!ba && !bb) return;
  dContact c[MAXC];
  int n = dCollide(a, b, MAXC, &c[0].geom, (int)sizeof(dContact));
  int on_floor = in_window && (dGeomGetData(a) == &floor_tag || dGeomGetData(b) == &floor_tag);
  for (int i = 0; i < n; i++) {
    c[i].surface.mode = rigid ? dContactApprox1 : dContactApprox1 | dContactSoftERP | dContactSoftCFM;
    c[i].surface.mu = mu;
    c[i].surface.soft_erp = erp;
    c[i].surface.soft_cfm = cfm;
    dJointID j = dJointCreateContact(world, cgroup, &c[i]);
    dJointAttach(j, ba, bb);
    if (in_window && c[i].geom.depth > max_depth) max_depth = c[i].geom.depth;
    /* the cap cannot be reached: each body meets each floor plane once per step */
    if (on_floor && fb_n < fb_cap) dJointSetFeedback(j, &fb[fb_n++]);
  }
  ncon_step += n;
}

/* exit status 1 for a bad scene or a failure, 2 for a bad command line (as usage) */
static int fail_status = 2;

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("odebench: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(fail_status);
}

/* The text after `key:` in a flow map or line, the key standing at the start or
 * after '{', ',' or a blank (so that "v:" does not match inside "nv:"); NULL if absent. */
static const char *get(const char *s, const char *key) {
  size_t k = strlen(key);
  for (const char *p = strstr(s, key); p; p = strstr(p + 1, key)) {
    if ((p == s || strchr("{, \t", p[-1])) && p[k] == ':') {
      p += k + 1;
      while (*p == ' ' || *p == '\t') p++;
      return p;
    }
  }
  return NULL;
}

/* "[a, b, ...]" with exactly n numbers -> x; 0 if malformed. */
static int numlist(const char *p, double *x, int n) {
  if (!p || *p != '[') return 0;
  p++;
  for (int i = 0; i < n; i++) {
    char *e;
    errno = 0;
    x[i] = strtod(p, &e);
    if (e == p || errno || !isfinite(x[i])) return 0;
    p = e;
    while (*p == ' ') p++;
    if (*p != (i + 1 < n ? ',' : ']')) return 0;
    p++;
  }
  return 1;
}

/* one number ending at ',', '}', ']' or the line's end; 0 if malformed */
static int number(const char *p, double *x) {
  if (!p) return 0;
  char *e;
  errno = 0;
  *x = strtod(p, &e);
  if (e == p || errno || !isfinite(*x)) return 0;
  while (*e == ' ') e++;
  return *e == ',' || *e == '}' || *e == ']' || *e == '\0' || *e == '\n';
}

/* p starts with the word w, ended by ',', '}', ']', a blank or the line's end */
static int word_is(const char *p, const char *w) {
  size_t k = strlen(w);
  return p && strncmp(p, w, k) == 0 && (p[k] == '\0' || strchr(",}] \t\n", p[k]));
}

struct pending {
  int open, line, has_mass, has_geom, box;
  char name[64];
  double mass, q[7], v[6], size[3]; /* size: box edges, or sphere radius in [0] */
};

static dBodyID body[MAXB];
static double rad[MAXB]; /* sphere radius, or < 0: box, half-extents in hext */
static double hext[MAXB][3];
static double z0[MAXB];

static int flush_body(struct pending *pb, dSpaceID space, int nb, const char *file) {
  if (!pb->open) return nb;
  char where[128];
  snprintf(where, sizeof where, "%s:%d", file, pb->line);
  if (!pb->has_mass) die("%s: body %s has no mass", where, pb->name);
  if (!pb->has_geom) die("%s: body %s has no sphere or box geometry", where, pb->name);
  if (nb >= MAXB) die("%s: more than %d bodies", where, MAXB);
  double qn = sqrt(pb->q[3] * pb->q[3] + pb->q[4] * pb->q[4] + pb->q[5] * pb->q[5] + pb->q[6] * pb->q[6]);
  if (!(qn > 0)) die("%s: body %s: zero quaternion", where, pb->name);
  dBodyID b = dBodyCreate(world);
  dMass m;
  dGeomID g;
  if (pb->box) {
    dMassSetBoxTotal(&m, pb->mass, pb->size[0], pb->size[1], pb->size[2]);
    g = dCreateBox(space, pb->size[0], pb->size[1], pb->size[2]);
    rad[nb] = -1;
    for (int i = 0; i < 3; i++) hext[nb][i] = 0.5 * pb->size[i];
  } else {
    dMassSetSphereTotal(&m, pb->mass, pb->size[0]);
    g = dCreateSphere(space, pb->size[0]);
    rad[nb] = pb->size[0];
  }
  dBodySetMass(b, &m);
  dBodySetPosition(b, pb->q[0], pb->q[1], pb->q[2]);
  dQuaternion quat = {pb->q[3] / qn, pb->q[4] / qn, pb->q[5] / qn, pb->q[6] / qn};
  dBodySetQuaternion(b, quat);
  dBodySetLinearVel(b, pb->v[0], pb->v[1], pb->v[2]);
  dBodySetAngularVel(b, pb->v[3], pb->v[4], pb->v[5]);
  dGeomSetBody(g, b);
  body[nb] = b;
  z0[nb] = pb->q[2];
  memset(pb, 0, sizeof *pb);
  return nb + 1;
}

/* Reads FILE into world and space; returns the number of bodies, sets g (the
 * gravity) and nfloor (the number of floor planes: normal [0, 0, 1], offset 0). */
static int load(const char *file, dSpaceID space, double h, double g[3], int *nfloor) {
  FILE *f = fopen(file, "r");
  if (!f) die("%s: %s", file, strerror(errno));
  double k = 1.0e6, tau = 0.01;
  rigid = 0;
  mu = 0.5;
  g[0] = 0; g[1] = 0; g[2] = -9.81;
  *nfloor = 0;
  char line[1024], where[128];
  enum { OTHER, CONTACT, BODIES, STATIC } sec = OTHER;
  struct pending pb;
  memset(&pb, 0, sizeof pb);
  int nb = 0, ln = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    snprintf(where, sizeof where, "%s:%d", file, ln);
    if (!strchr(line, '\n') && !feof(f)) die("%s: line longer than %d characters", where, (int)sizeof line - 2);
    /* a comment starts at '#' at the line's start or after a blank */
    for (char *p = line; *p; p++)
      if (*p == '#' && (p == line || p[-1] == ' ' || p[-1] == '\t')) { *p = '\0'; break; }
    const char *s = line + strspn(line, " \t");
    if (*s == '\0' || *s == '\n') continue;
    const char *p;
    if (s == line) { /* a top-level key */
      if (sec == BODIES) nb = flush_body(&pb, space, nb, file);
      sec = !strncmp(s, "contact:", 8) ? CONTACT : !strncmp(s, "bodies:", 7) ? BODIES
          : !strncmp(s, "static:", 7) ? STATIC : OTHER;
      if (!strncmp(s, "gravity:", 8) && !numlist(get(s, "gravity"), g, 3))
        die("%s: gravity: want [gx, gy, gz]", where);
    } else if (sec == CONTACT && !strncmp(s, "defaults:", 9)) {
      if ((p = get(s, "stiffness"))) {
        if (word_is(p, "rigid")) rigid = 1;
        else if (!number(p, &k) || !(k > 0)) die("%s: stiffness: want rigid or a number > 0", where);
      }
      if ((p = get(s, "dissipation_time")) && (!number(p, &tau) || tau < 0))
        die("%s: dissipation_time: want a number >= 0", where);
      if ((p = get(s, "friction")) && (!number(p, &mu) || mu < 0))
        die("%s: friction: want a number >= 0", where);
    } else if (sec == BODIES) {
      if (!strncmp(s, "- ", 2)) {
        nb = flush_body(&pb, space, nb, file);
        pb.open = 1;
        pb.line = ln;
        pb.q[3] = 1;
        if ((p = get(s, "name"))) snprintf(pb.name, sizeof pb.name, "%.*s", (int)strcspn(p, "\n"), p);
        s += 2;
      }
      if (!strncmp(s, "name:", 5)) {
        /* taken above */
      } else if (!strncmp(s, "joint:", 6)) {
        if (!word_is(get(s, "type"), "free")) die("%s: only joint: {type: free} is supported", where);
      } else if (!strncmp(s, "mass:", 5)) {
        if (!number(get(s, "mass"), &pb.mass) || !(pb.mass > 0)) die("%s: mass: want a number > 0", where);
        pb.has_mass = 1;
      } else if (!strncmp(s, "inertia:", 8)) {
        if (!word_is(get(s, "inertia"), "solid")) die("%s: only inertia: solid is supported", where);
      } else if (!strncmp(s, "initial:", 8)) {
        if (!numlist(get(s, "q"), pb.q, 7)) die("%s: initial q: want [x, y, z, qw, qx, qy, qz]", where);
        if ((p = get(s, "v")) && !numlist(p, pb.v, 6))
          die("%s: initial v: want [vx, vy, vz, wx, wy, wz]", where);
      } else if (!strncmp(s, "geometry:", 9)) {
        const char *sh = get(s, "shape");
        if (!sh || get(sh, "shape")) die("%s: geometry: want exactly one shape", where);
        if (get(s, "pose") || get(s, "friction") || get(s, "stiffness") || get(s, "material"))
          die("%s: geometry: pose, material, friction and stiffness are not supported", where);
        if (word_is(sh, "sphere")) {
          if (!number(get(s, "radius"), &pb.size[0]) || !(pb.size[0] > 0)) die("%s: sphere: want radius > 0", where);
        } else if (word_is(sh, "box")) {
          if (!numlist(get(s, "size"), pb.size, 3) || !(pb.size[0] > 0 && pb.size[1] > 0 && pb.size[2] > 0))
            die("%s: box: want size: [a, b, c] > 0", where);
          pb.box = 1;
        } else {
          die("%s: only sphere and box shapes are supported", where);
        }
        pb.has_geom = 1;
      } else {
        die("%s: unsupported body key: %.40s", where, s);
      }
    } else if (sec == STATIC && !strncmp(s, "- ", 2)) {
      double n[3] = {0, 0, 1}, d = 0; /* simc's defaults: {shape: plane} is the ground */
      if (!word_is(get(s, "shape"), "plane")) die("%s: only plane static shapes are supported", where);
      if (((p = get(s, "normal")) && !numlist(p, n, 3)) || ((p = get(s, "offset")) && !number(p, &d)))
        die("%s: plane: want normal: [nx, ny, nz], offset: d", where);
      if (get(s, "pose")) die("%s: plane: pose is not supported", where);
      if ((p = get(s, "stiffness")) && !word_is(p, "rigid"))
        die("%s: plane: only stiffness: rigid is supported (the contact defaults apply)", where);
      if (get(s, "friction") || get(s, "material")) die("%s: plane: friction and material are not supported", where);
      double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (!(nn > 0)) die("%s: plane: zero normal", where);
      /* dCreatePlane wants a unit normal and offset; simc normalizes n and keeps d */
      dGeomID pl = dCreatePlane(space, n[0] / nn, n[1] / nn, n[2] / nn, d);
      if (n[0] == 0 && n[1] == 0 && n[2] > 0 && d == 0) {
        dGeomSetData(pl, &floor_tag);
        ++*nfloor;
      }
    }
  }
  if (ferror(f)) die("%s: read error", file);
  fclose(f);
  if (sec == BODIES) nb = flush_body(&pb, space, nb, file);
  if (nb == 0) die("%s: no bodies", file);
  double c = tau * k;
  erp = h * k / (h * k + c);
  cfm = 1.0 / (h * k + c);
  return nb;
}

static void usage(void) {
  fprintf(stderr, "usage: odebench SCENE.yaml STEPS DT {quick|direct} [--iters N] [--window T0] [--states]\n");
  exit(2);
}

int main(int argc, char **argv) {
  if (argc < 5 || (strcmp(argv[4], "quick") && strcmp(argv[4], "direct"))) usage();
  char *e;
  errno = 0;
  long steps = strtol(argv[2], &e, 10);
  if (*e || errno || steps <= 0) die("STEPS must be a positive integer (got %s)", argv[2]);
  double h = strtod(argv[3], &e);
  if (*e || !(h > 0) || !isfinite(h)) die("DT must be a positive number (got %s)", argv[3]);
  int quick = strcmp(argv[4], "quick") == 0, states = 0;
  long iters = 20;
  double t0w = 0;
  for (int i = 5; i < argc; i++) {
    if (!strcmp(argv[i], "--states")) {
      states = 1;
    } else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
      errno = 0;
      iters = strtol(argv[++i], &e, 10);
      if (*e || errno || iters <= 0 || iters > 1000000000L) die("--iters wants a positive integer (got %s)", argv[i]);
    } else if (!strcmp(argv[i], "--window") && i + 1 < argc) {
      t0w = strtod(argv[++i], &e);
      if (*e || !(t0w >= 0) || !isfinite(t0w)) die("--window wants a time >= 0 (got %s)", argv[i]);
    } else {
      usage();
    }
  }
  if (!((double)steps * h > t0w)) die("--window %g leaves no step (the run ends at %g s)", t0w, (double)steps * h);
  fail_status = 1;

  dInitODE();
  world = dWorldCreate();
  dWorldSetQuickStepNumIterations(world, (int)iters);
  dSpaceID space = dHashSpaceCreate(0);
  cgroup = dJointGroupCreate(0);
  double g[3];
  int nfloor;
  int nb = load(argv[1], space, h, g, &nfloor);
  dWorldSetGravity(world, g[0], g[1], g[2]);
  fb_cap = (size_t)nb * MAXC * (size_t)nfloor;
  if (fb_cap && !(fb = calloc(fb_cap, sizeof *fb))) die("out of memory");

  double mass = 0;
  for (int i = 0; i < nb; i++) { dMass m; dBodyGetMass(body[i], &m); mass += m.mass; }
  long ncon = 0, wsteps = 0;
  double t_all = 0, t_win = 0, sum_speed = 0, max_speed = 0, sum_fz = 0;
  max_depth = 0;
  for (long s = 0; s < steps; s++) {
    in_window = (double)(s + 1) * h > t0w;
    ncon_step = 0;
    fb_n = 0;
    double ta = now();
    dSpaceCollide(space, NULL, near_cb);
    if (quick) dWorldQuickStep(world, h); else dWorldStep(world, h);
    dJointGroupEmpty(cgroup);
    double dt = now() - ta;
    t_all += dt;
    ncon += ncon_step;
    if (!in_window) continue;
    t_win += dt;
    wsteps++;
    for (int i = 0; i < nb; i++) {
      const dReal *v = dBodyGetLinearVel(body[i]);
      double sp = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      sum_speed += sp;
      if (sp > max_speed) max_speed = sp;
    }
    /* a floor contact joins a body and the world: ODE's dJointAttach moves the
     * body to slot 1 whichever geom it came from, so the force on the body is f1
     * (f2 is never written); the feedback slots outlive the emptied group */
    for (size_t i = 0; i < fb_n; i++) sum_fz += fb[i].f1[2];
  }

  double ke = 0, minz = INFINITY, max_drop = -INFINITY;
  for (int i = 0; i < nb; i++) {
    dMass m; dBodyGetMass(body[i], &m);
    const dReal *v = dBodyGetLinearVel(body[i]), *w = dBodyGetAngularVel(body[i]);
    const dReal *R = dBodyGetRotation(body[i]), *p = dBodyGetPosition(body[i]);
    ke += 0.5 * m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    /* dMass.I is in body axes, w in world axes: rotational KE = 0.5 wl . I wl, wl = R^T w */
    double wl[3];
    for (int a = 0; a < 3; a++) wl[a] = R[0 * 4 + a] * w[0] + R[1 * 4 + a] * w[1] + R[2 * 4 + a] * w[2];
    for (int a = 0; a < 3; a++)
      for (int bq = 0; bq < 3; bq++) ke += 0.5 * wl[a] * m.I[a * 4 + bq] * wl[bq];
    double low = rad[i] > 0 ? p[2] - rad[i]
               : p[2] - hext[i][0] * fabs(R[8]) - hext[i][1] * fabs(R[9]) - hext[i][2] * fabs(R[10]);
    if (low < minz) minz = low;
    if (z0[i] - p[2] > max_drop) max_drop = z0[i] - p[2];
  }
  double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  double floor_ratio = nfloor && gn > 0 ? sum_fz / (double)wsteps / (mass * gn) : NAN;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("steps_per_second=%.6g mean_ncon=%.6g rss_kb=%ld bodies=%d mass_kg=%.9g final_ke_J=%.9g min_z_m=%.9g"
         " ms_per_step=%.6g window_steps=%ld mean_speed=%.9g max_speed=%.9g max_depth=%.9g floor_ratio=%.9g"
         " max_drop=%.9g\n",
         (double)steps / t_all, (double)ncon / (double)steps, ru.ru_maxrss, nb, mass, ke, minz,
         1e3 * t_win / (double)wsteps, wsteps, sum_speed / ((double)wsteps * nb), max_speed, max_depth,
         floor_ratio, max_drop);
  if (states) {
    for (int i = 0; i < nb; i++) {
      const dReal *p = dBodyGetPosition(body[i]), *q = dBodyGetQuaternion(body[i]);
      const dReal *v = dBodyGetLinearVel(body[i]), *w = dBodyGetAngularVel(body[i]);
      printf("body %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", i,
             p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
    }
  }
  if (fflush(stdout) || ferror(stdout)) die("write error on stdout");
  free(fb);
  dJointGroupDestroy(cgroup);
  dSpaceDestroy(space);
  dWorldDestroy(world);
  dCloseODE();
  return 0;
}
