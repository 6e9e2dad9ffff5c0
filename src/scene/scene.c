/* scene: the scene file -> a finalized sc_model.
 *
 * Reads the file (regular files only, at most SC_SCENE_MAX_BYTES), parses it
 * into the located node tree (tree.c), applies the --set overrides on that
 * tree, reads the sections in dependency order (options, materials, bodies,
 * geometry, springs, commands, actuators: scene_internal.h names the file of
 * each; command files are relative to the scene file's directory), and only
 * then allocates and fills the model, so a failed load leaves nothing
 * half-built behind.  The schema is doc/scenes.md; its keys are keys.c's
 * table. */
#include "scene/scene.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scene/scene_internal.h"

static void load_free(load* L) {
  sc_free(L->mat);
  sc_free(L->body);
  sc_free(L->order);
  sc_free(L->rank);
  sc_free(L->shape);
  sc_free(L->act);
  for (int i = 0; i < L->nmesh; i++) sc_mesh_free(&L->mesh[i]);
  sc_free(L->mesh);
  sc_free(L->mesh_scale);
  sc_rd_commands_free(L);
  sc_rd_ni_free(&L->body_index);
  sc_rd_ni_free(&L->mat_index);
}


static char* base_name(const char* path) {
  const char* b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char* dot = strrchr(b, '.');
  size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
  char* r = sc_malloc(n + 1);
  if (!r) return NULL;
  memcpy(r, b, n);
  r[n] = '\0';
  return r;
}

static sc_status build(ctx* c, const sc_snode* root, const char* file, sc_model** out) {
  *out = NULL;
  if (!root)
    return sc_error_set(c->err, SC_ERR_SCENE, file, 1, 1,
                        "scene: the document is empty (expected a map with simc: 1, time, bodies, ...)");
  TRY(sc_rd_check_section(c, root, "", "a scene map"));
  const sc_snode* v = sc_snode_get(root, "simc");
  if (!v) return sc_rd_fail_missing(c, root, "simc", "simc: 1");
  int ver;
  size_t m = sc_rd_push_key(c, "simc");
  sc_status st = sc_rd_as_int(c, v, &ver);
  if (!st && ver != 1) st = sc_rd_fail(c, v, "unsupported scene version %d (expected 1)", ver);
  sc_rd_pop(c, m);
  TRY(st);

  load L;
  memset(&L, 0, sizeof L);
  L.scene_file = file;
  sc_options_default(&L.opt);
  L.defaults.k = 1.0e6;
  L.defaults.tau = 0.01;
  L.defaults.mu = 0.5;
  L.defaults.hcd = SC_DEFAULT_HC_DISSIPATION;
  L.defaults.e = 0.0; /* no restitution: every impact is inelastic */
  L.defaults.spin = L.defaults.roll = 0.0; /* no torsional or rolling friction */
  if ((v = sc_snode_get(root, "name"))) {
    m = sc_rd_push_key(c, "name");
    st = sc_rd_as_name(c, v, &L.name);
    sc_rd_pop(c, m);
    TRY(st);
  }
  const sc_snode* springs = sc_snode_get(root, "springs");
  sc_model* M = NULL;
  st = sc_rd_options(c, &L, root);
  if (!st) st = sc_rd_materials(c, &L, root);
  if (!st) st = sc_rd_bodies(c, &L, root);
  if (!st) st = sc_rd_geometry(c, &L, root);
  if (!st && springs && springs->kind != SC_SN_SEQ) {
    m = sc_rd_push_key(c, "springs");
    st = sc_rd_fail(c, springs, "expected a list of springs, got %s", sc_rd_kind_name(springs));
    sc_rd_pop(c, m);
  }
  if (!st) {
    M = sc_calloc(1, sizeof *M);
    if (!M) st = SC_ERR_NOMEM;
  }
  if (!st) st = sc_rd_springs(c, &L, springs, M, 0);
  if (!st) st = sc_rd_tendons(c, &L, root, M, 0);
  if (!st) st = sc_rd_constraints(c, &L, root, M, 0);
  if (!st) st = sc_rd_exclude(c, &L, root, M, 0);
  if (!st) st = sc_rd_commands(c, &L, root);
  if (!st) st = sc_rd_actuators(c, &L, root);
  if (!st) {
    M->nbody = L.nbody + 1;
    M->njnt = L.nbody;
    M->ngeom = L.nshape;
    M->nmesh = L.nmesh;
    M->nact = L.nact;
    M->ncmd = L.ncmd;
    st = sc_model_alloc(M);
  }
  if (!st) st = sc_model_alloc_commands(M, L.ncmddata);
  if (!st) st = sc_rd_springs(c, &L, springs, M, 1);
  if (!st) st = sc_rd_tendons(c, &L, root, M, 1);
  if (!st) st = sc_rd_constraints(c, &L, root, M, 1);
  if (!st) st = sc_rd_exclude(c, &L, root, M, 1);
  if (!st) {
    M->opt = L.opt;
    M->body_name[0] = sc_strdup("world");
    M->body_parent[0] = -1;
    if (!M->body_name[0]) st = SC_ERR_NOMEM;
    for (int b = 1; !st && b < M->nbody; b++) {
      const body_in* B = &L.body[L.order[b - 1]];
      int j = b - 1;
      M->body_name[b] = sc_strdup(B->name);
      if (!M->body_name[b]) st = SC_ERR_NOMEM;
      M->body_parent[b] = B->parent < 0 ? 0 : L.rank[B->parent];
      M->jnt_type[j] = B->jtype;
      for (int d = 0; d < 3; d++) {
        M->jnt_axis[3 * j + d] = B->axis[d];
        M->jnt_pos[3 * j + d] = B->jpos[d];
        M->body_com[3 * b + d] = B->com[d];
      }
      for (int d = 0; d < 9; d++) {
        M->jnt_rot[9 * j + d] = B->jrot[d];
        M->body_inertia[9 * b + d] = B->inertia[d];
      }
      M->body_mass[b] = B->has_mass ? B->mass : 0;
      M->jnt_range[2 * j] = B->range[0];
      M->jnt_range[2 * j + 1] = B->range[1];
      M->jnt_limit_k[j] = B->limit_k;
      M->jnt_limit_taud[j] = B->limit_taud;
      for (int k = 0; k < SC_JNT_MAXDOF; k++) {
        M->jnt_damping[SC_JNT_MAXDOF * j + k] = B->damping[k];
        M->jnt_armature[SC_JNT_MAXDOF * j + k] = B->armature[k];
        M->jnt_frictionloss[SC_JNT_MAXDOF * j + k] = B->friction[k];
      }
    }
    for (int k = 0; !st && k < L.ncmd; k++) {
      const cmd_in* C = &L.cmd[k];
      if (!(M->cmd_name[k] = sc_strdup(C->name))) st = SC_ERR_NOMEM;
      M->cmd_interp[k] = C->interp;
      M->cmd_adr[k] = C->adr;
      M->cmd_len[k] = C->len;
    }
    if (L.ncmddata) {
      memcpy(M->cmd_time, L.cmd_time, (size_t)L.ncmddata * sizeof *M->cmd_time);
      memcpy(M->cmd_value, L.cmd_value, (size_t)L.ncmddata * sizeof *M->cmd_value);
    }
    for (int a = 0; !st && a < L.nact; a++) {
      const act_in* A = &L.act[a];
      if (!(M->act_name[a] = sc_strdup(A->name))) st = SC_ERR_NOMEM;
      M->act_type[a] = A->type;
      M->act_jnt[a] = A->tendon1 ? -1 : A->jnt;
      M->act_tendon[a] = A->tendon1 - 1;
      M->act_local[a] = A->local;
      M->act_gear[a] = A->gear;
      M->act_kp[a] = A->kp;
      M->act_kd[a] = A->kd;
      M->act_effort[2 * a] = A->effort[0];
      M->act_effort[2 * a + 1] = A->effort[1];
      M->act_cmd[a] = A->cmd;
      M->act_input[2 * a] = A->input[0];
      M->act_input[2 * a + 1] = A->input[1];
      M->act_cmd_vel[a] = A->cmd_vel;
      M->act_theta[a] = A->theta;
    }
    for (int g = 0; g < L.nshape; g++) {
      const shape_in* S = &L.shape[g];
      M->geom_type[g] = S->type;
      for (int d = 0; d < 3; d++) {
        M->geom_pos[3 * g + d] = S->pos[d];
        M->geom_size[3 * g + d] = S->size[d];
      }
      for (int d = 0; d < 9; d++) M->geom_rot[9 * g + d] = S->rot[d];
      M->geom_stiffness[g] = S->k;
      M->geom_dissipation[g] = S->tau;
      M->geom_friction[g] = S->mu;
      M->geom_hc_dissipation[g] = S->hcd;
      M->geom_restitution[g] = S->e;
      M->geom_spin[g] = S->spin;
      M->geom_roll[g] = S->roll;
      M->geom_body[g] = 0;
      M->geom_mesh[g] = S->mesh;
      M->geom_contype[g] = S->contype;
      M->geom_conaffinity[g] = S->conaffinity;
    }
    /* the model takes the meshes over */
    if (L.nmesh) memcpy(M->mesh, L.mesh, (size_t)L.nmesh * sizeof *M->mesh);
    L.nmesh = 0;
    for (int b = 1; b < M->nbody; b++) {
      const body_in* B = &L.body[L.order[b - 1]];
      for (int g = B->geom0; g < B->geom0 + B->ngeom; g++) M->geom_body[g] = b;
    }
  }
  if (!st) st = sc_model_finalize(M);
  if (!st) {
    for (int b = 1; b < M->nbody; b++) {
      const body_in* B = &L.body[L.order[b - 1]];
      int j = M->body_jnt[b];
      if (B->has_q)
        for (int k = 0; k < M->jnt_nq[j]; k++) M->qpos0[M->jnt_qadr[j] + k] = B->q[k];
      /* a joint whose default start (0) lies outside its limits starts on
       * the nearer one (an imported knee limited to [-160, -2] degrees),
       * said in the model's notes: thrown back in one step it would gain
       * energy the scene never had */
      const int lim = (B->jtype == SC_JOINT_REVOLUTE || B->jtype == SC_JOINT_PRISMATIC) && isinf(B->limit_k);
      if (!B->has_q && lim && !(B->range[0] <= 0 && B->range[1] >= 0) && !st) {
        const double q0 = B->range[0] > 0 ? B->range[0] : B->range[1];
        M->qpos0[M->jnt_qadr[j]] = q0;
        st = sc_model_note(M, "body %s: its joint starts at its limit %.17g %s (0 is outside its limits [%.17g, %.17g])",
                      M->body_name[b], q0, B->jtype == SC_JOINT_REVOLUTE ? "rad" : "m", B->range[0], B->range[1]);
      }
      if (B->has_v)
        for (int k = 0; k < M->jnt_nv[j]; k++) M->qvel0[M->jnt_vadr[j] + k] = B->v[k];
    }
    M->name = L.name ? sc_strdup(L.name) : base_name(file);
    M->scene_path = sc_strdup(file);
    if (!M->name || !M->scene_path) st = SC_ERR_NOMEM;
  }
  load_free(&L);
  if (st) {
    if (st == SC_ERR_NOMEM) sc_error_set(c->err, st, file, 0, 0, "out of memory while building the model");
    sc_model_free(M);
    return st;
  }
  *out = M;
  return SC_OK;
}

/* text[len] is the document (NUL bytes inside are reported by the reader);
 * ignored: what a translation left out (NULL: nothing), kept in the model */
static sc_status load_scene(const char* text, size_t len, const char* name, const char* const* sets,
                            int nsets, const char* ignored, const char* approximated, sc_model** out, sc_error* err);

/* An MJCF model or a URDF: translated into a scene (mjcf.c), then loaded as
 * one.  The sets import.allow_unsupported=true, import.floating_base=true
 * and import.model_path=DIR are the translator's, not the scene's. */
static sc_status load_mjcf(const char* text, size_t len, const char* name, const char* const* sets,
                           int nsets, sc_model** out, sc_error* err) {
  const char** rest = sc_calloc((size_t)nsets + 1, sizeof *rest);
  if (!rest) return sc_error_set(err, SC_ERR_NOMEM, name, 0, 0, "out of memory");
  int nrest = 0;
  sc_import_opts o = {0, 0, NULL, 0};
  for (int k = 0; k < nsets; k++) {
    if (strcmp(sets[k], "import.allow_unsupported=true") == 0)
      o.allow_unsupported = 1;
    else if (strcmp(sets[k], "import.floating_base=true") == 0)
      o.floating_base = 1;
    else if (strncmp(sets[k], "import.model_path=", 18) == 0)
      o.model_path = sets[k] + 18;
    else if (strcmp(sets[k], "import.strict=true") == 0)
      o.strict = 1;
    else
      rest[nrest++] = sets[k];
  }
  char *yaml = NULL, *ignored = NULL, *approximated = NULL;
  size_t ylen = 0;
  sc_import_map map;
  sc_status st = sc_mjcf_translate(name, text, len, &o, &yaml, &ylen, &ignored, &approximated, &map, err);
  if (!st) {
    st = load_scene(yaml, ylen, name, rest, nrest, ignored, approximated, out, err);
    /* the translated text is hidden: its errors name the model's element */
    if (st) sc_import_map_locate(&map, name, err);
    /* a model whose every moving part was left out would run as a still
     * world and say "complete": refused instead */
    if (!st && ignored && ignored[0] && (*out)->nv == 0) {
      const char* e = strchr(ignored, '\n');
      st = sc_error_set(err, SC_ERR_SCENE, name, 0, 0,
                        "nothing in the model moves once what simc does not translate is left out (%.*s%s)",
                        (int)(e ? e - ignored : (ptrdiff_t)strlen(ignored)), ignored, e && e[1] ? "; ..." : "");
      sc_model_free(*out);
      *out = NULL;
    }
    sc_import_map_free(&map);
  }
  sc_free(ignored);
  sc_free(approximated);
  sc_free(yaml);
  sc_free(rest);
  return st;
}

/* a set of the `models` list, applied before the models are placed (the
 * others after, so that they reach the models' bodies too) */
static int models_set(const char* set) {
  return strncmp(set, "models", 6) == 0 && (set[6] == '.' || set[6] == '[' || set[6] == '=');
}

static sc_status load_scene(const char* text, size_t len, const char* name, const char* const* sets,
                            int nsets, const char* ignored, const char* approximated, sc_model** out,
                            sc_error* err) {
  /* (a translation starts with a comment line, so it is not taken for XML) */
  if (sc_mjcf_is_xml(text, len)) return load_mjcf(text, len, name, sets, nsets, out, err);
  sc_snode* root = NULL;
  sc_status st = sc_snode_parse(text, len, name, 0, 0, &root, err);
  /* with models, the command line's import options are theirs */
  const int models = root && sc_snode_get(root, "models") != NULL;
  int allow = 0, strict = 0;
  const char* model_path = NULL;
  char *mignored = NULL, *mapprox = NULL;
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; !st && k < nsets; k++) {
      if (!root) {
        /* an empty document cannot be overridden; report the file */
        break;
      }
      if (models && strcmp(sets[k], "import.allow_unsupported=true") == 0) {
        allow = 1;
      } else if (models && strcmp(sets[k], "import.strict=true") == 0) {
        strict = 1;
      } else if (models && strncmp(sets[k], "import.model_path=", 18) == 0) {
        model_path = sets[k] + 18;
      } else if (models_set(sets[k]) == !pass) {
        st = sc_snode_apply_set(root, sets[k], k + 1, err);
      }
    }
    if (!st && !pass) st = sc_scene_expand_models(root, name, allow, strict, model_path, &mignored, &mapprox, err);
  }
  if (!ignored) ignored = mignored;
  if (!approximated) approximated = mapprox;
  ctx c;
  memset(&c, 0, sizeof c);
  c.err = err;
  sc_model* M = NULL;
  if (!st) st = build(&c, root, name, &M);
  if (!st) {
    st = sc_snode_emit(root, &M->scene_yaml, err);
    if (!st && ignored && ignored[0] && !(M->ignored = sc_strdup(ignored)))
      st = sc_error_set(err, SC_ERR_NOMEM, name, 0, 0, "out of memory");
    if (!st && approximated && approximated[0] && !(M->approximated = sc_strdup(approximated)))
      st = sc_error_set(err, SC_ERR_NOMEM, name, 0, 0, "out of memory");
    if (st) {
      sc_model_free(M);
      M = NULL;
    }
  }
  sc_free(mignored);
  sc_free(mapprox);
  sc_snode_free(root);
  if (st) err->code = st;
  *out = M;
  return st;
}

static sc_status load_text(const char* text, size_t len, const char* name, const char* const* sets,
                           int nsets, sc_model** out, sc_error* err) {
  sc_sha256 files;
  sc_sha256* outer = sc_inputs_begin(&files);
  sc_status st = load_scene(text, len, name, sets, nsets, NULL, NULL, out, err);
  sc_inputs_end(outer);
  if (!st && !outer) {
    /* the scene as loaded (after overrides), then what the load read */
    char fhex[65];
    sc_sha256_final(&files, fhex);
    sc_sha256 s;
    sc_sha256_init(&s);
    static const char tag[] = "simc inputs 1\n";
    sc_sha256_update(&s, tag, sizeof tag - 1);
    sc_sha256_update(&s, (*out)->scene_yaml, strlen((*out)->scene_yaml) + 1);
    sc_sha256_update(&s, fhex, 64);
    sc_sha256_final(&s, (*out)->input_digest);
  }
  return st;
}

sc_status sc_scene_load_string(const char* text, const char* name, const char* const* sets,
                               int nsets, sc_model** out, sc_error* err) {
  sc_error local;
  if (!err) err = &local;
  sc_error_clear(err);
  *out = NULL;
  return load_text(text, strlen(text), name ? name : "<string>", sets, nsets, out, err);
}

sc_status sc_scene_load_buffer(const char* text, size_t len, const char* name,
                               const char* const* sets, int nsets, sc_model** out,
                               sc_error* err) {
  sc_error local;
  if (!err) err = &local;
  sc_error_clear(err);
  *out = NULL;
  if (!name) name = "<buffer>";
  /* libyaml reads exactly len bytes, but the readers after it rely on a
   * terminated copy */
  char* buf = sc_malloc(len + 1);
  if (!buf) return sc_error_set(err, SC_ERR_NOMEM, name, 0, 0, "out of memory reading the scene");
  if (len) memcpy(buf, text, len);
  buf[len] = '\0';
  sc_status st = load_text(buf, len, name, sets, nsets, out, err);
  sc_free(buf);
  return st;
}

sc_status sc_scene_load(const char* path, const char* const* sets, int nsets, sc_model** out,
                        sc_error* err) {
  sc_error local;
  if (!err) err = &local;
  sc_error_clear(err);
  *out = NULL;
  /* O_NONBLOCK: opening a FIFO without a writer must not hang; only regular
   * files are read (a FIFO, device or socket can block or never end) */
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) return sc_error_set(err, SC_ERR_IO, path, 0, 0, "cannot open the scene: %s", strerror(errno));
  struct stat sb;
  int serr = fstat(fd, &sb) != 0 ? errno : 0;
  if (serr || !S_ISREG(sb.st_mode)) {
    const char* why = serr                  ? strerror(serr)
                      : S_ISDIR(sb.st_mode) ? strerror(EISDIR)
                                            : "not a regular file (a FIFO, device or socket)";
    close(fd);
    return sc_error_set(err, SC_ERR_IO, path, 0, 0, "cannot read the scene: %s", why);
  }
  if (sb.st_size > (off_t)SC_SCENE_MAX_BYTES) {
    close(fd);
    return sc_error_set(err, SC_ERR_SCENE, path, 1, 1,
                        "scene: the document is too large (%lld bytes; the limit is %d)",
                        (long long)sb.st_size, SC_SCENE_MAX_BYTES);
  }
  FILE* f = fdopen(fd, "rb");
  if (!f) {
    close(fd);
    return sc_error_set(err, SC_ERR_IO, path, 0, 0, "cannot open the scene: %s", strerror(errno));
  }
  size_t cap = 1 << 16, n = 0;
  char* buf = sc_malloc(cap);
  sc_status st = buf ? SC_OK : SC_ERR_NOMEM;
  while (!st) {
    if (n + 1 >= cap) {
      if (cap > (size_t)SC_SCENE_MAX_BYTES) {
        st = sc_error_set(err, SC_ERR_SCENE, path, 1, 1,
                          "scene: the document is too large (more than %d bytes)", SC_SCENE_MAX_BYTES);
        break;
      }
      char* nb = sc_malloc(2 * cap);
      if (!nb) {
        st = SC_ERR_NOMEM;
        break;
      }
      memcpy(nb, buf, n);
      sc_free(buf);
      buf = nb;
      cap *= 2;
    }
    size_t r = fread(buf + n, 1, cap - 1 - n, f);
    n += r;
    if (r == 0) {
      if (ferror(f)) st = sc_error_set(err, SC_ERR_IO, path, 0, 0, "cannot read the scene: %s", strerror(errno));
      break;
    }
  }
  fclose(f);
  if (st) {
    if (st == SC_ERR_NOMEM) sc_error_set(err, st, path, 0, 0, "out of memory reading the scene");
    sc_free(buf);
    return st;
  }
  buf[n] = '\0';
  st = load_text(buf, n, path, sets, nsets, out, err);
  sc_free(buf);
  return st;
}
