/* xml_import: the entry point of the XML model translators (MJCF in mjcf.c,
 * URDF in urdf.c) and what both use: the output buffer, located errors
 * (`file:line: element <joint name="knee">: attribute range: ...`), the
 * attribute readers, quaternions, parsing without network or entities, and
 * shapes written as simc's YAML. */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scene/limits.h"
#include "scene/scene_internal.h"
#include "scene/xml_import.h"
#include "spatial/spatial.h"

/* ---- output ---- */

void xi_src(obuf* b, const xmlNode* n) { b->src = n; }

/* one source per line written in p[from, b->n) */
static void note_lines(obuf* b, size_t from) {
  for (size_t i = from; i < b->n && !b->oom; i++) {
    if (b->p[i] != '\n') continue;
    if (b->nl == b->capl) {
      size_t cap = b->capl ? 2 * b->capl : 256;
      const xmlNode** np = sc_malloc(cap * sizeof *np);
      if (!np) {
        b->oom = 1;
        return;
      }
      if (b->nl) memcpy(np, b->lsrc, b->nl * sizeof *np);
      sc_free(b->lsrc);
      b->lsrc = np;
      b->capl = cap;
    }
    b->lsrc[b->nl++] = b->src;
  }
}

void xi_put(obuf* b, const char* fmt, ...) {
  if (b->oom) return;
  const size_t from = b->n;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (w < 0) {
      b->oom = 1;
      return;
    }
    if (b->p && b->n + (size_t)w < b->cap) {
      b->n += (size_t)w;
      note_lines(b, from);
      return;
    }
    size_t cap = b->cap ? 2 * b->cap : 4096;
    while (cap < b->n + (size_t)w + 1) cap *= 2;
    char* np = sc_malloc(cap);
    if (!np) {
      b->oom = 1;
      return;
    }
    if (b->n) memcpy(np, b->p, b->n);
    sc_free(b->p);
    b->p = np;
    b->cap = cap;
  }
}

/* ---- errors ---- */

const char* xi_name(const xmlNode* n) { return (const char*)n->name; }
const char* xi_attr(const xmlNode* n, const char* a) {
  for (const xmlAttr* p = n->properties; p; p = p->next)
    if (strcmp((const char*)p->name, a) == 0 && p->children && p->children->content)
      return (const char*)p->children->content;
  return NULL;
}
const char* xi_file(const xmlNode* n) {
  return n->doc && n->doc->URL ? (const char*)n->doc->URL : "<model>";
}

void xi_describe(char* buf, size_t sz, const xmlNode* n) {
  const char* nm = xi_attr(n, "name");
  if (nm)
    snprintf(buf, sz, "element <%s name=\"%s\">", xi_name(n), nm);
  else
    snprintf(buf, sz, "element <%s>", xi_name(n));
}

/* ---- where an element or attribute is written ---- */

static int name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == ':' || c == '.';
}

/* the elements named as n before it in document order whose line (that
 * of their start tag's end, as libxml2 keeps it) is n's */
static int same_before(const xmlNode* from, const xmlNode* n, long line, int* count) {
  for (const xmlNode* c = from; c; c = c->next) {
    if (c == n) return 1;
    if (c->type != XML_ELEMENT_NODE) continue;
    if (xmlGetLineNo(c) == line && strcmp(xi_name(c), xi_name(n)) == 0) ++*count;
    if (same_before(c->children, n, line, count)) return 1;
  }
  return 0;
}

/* the end of what starts at s[p] ('<'): past a comment, a processing
 * instruction, a CDATA section, a declaration or a tag (quotes kept) */
static size_t skip_markup(const char* s, size_t len, size_t p) {
  const char* end = NULL;
  if (p + 4 <= len && strncmp(s + p, "<!--", 4) == 0) end = "-->";
  else if (p + 9 <= len && strncmp(s + p, "<![CDATA[", 9) == 0) end = "]]>";
  else if (p + 2 <= len && s[p + 1] == '?') end = "?>";
  if (end) {
    const size_t el = strlen(end);
    for (size_t q = p + 2; q + el <= len; q++)
      if (strncmp(s + q, end, el) == 0) return q + el;
    return len;
  }
  char quote = 0;
  for (size_t q = p + 1; q < len; q++) {
    if (quote) {
      if (s[q] == quote) quote = 0;
    } else if (s[q] == '"' || s[q] == '\'') {
      quote = s[q];
    } else if (s[q] == '>') {
      return q + 1;
    }
  }
  return len;
}

/* The line and column (1-based, bytes) of element n's start tag, or of
 * its attribute attr when the tag has it.  libxml2 keeps only a line, that
 * of the start tag's end: the tag is the one of n's name ending on that
 * line, the j-th when j elements of that name before n end there too (an
 * element a composite made is found as the one it was made from).  *col is
 * 0 when the text does not show the element. */
static void locate(const tr* t, const xmlNode* n, const char* attr, int* line, int* col) {
  *line = (int)xmlGetLineNo(n);
  *col = 0;
  const char* s = NULL;
  size_t len = 0;
  for (int i = 0; i < t->ndoc; i++)
    if (t->doc[i] == n->doc) s = t->src[i], len = t->srclen[i];
  if (!s || n->type != XML_ELEMENT_NODE || *line <= 0) return;
  int want = 0;
  same_before(xmlDocGetRootElement(n->doc), n, *line, &want);
  const char* nm = xi_name(n);
  const size_t nl = strlen(nm);
  size_t tag = len, p = 0;
  int l = 1; /* the line at p */
  while (p < len) {
    if (s[p] != '<') {
      l += s[p++] == '\n';
      continue;
    }
    const size_t e = skip_markup(s, len, p);
    int le = l; /* the line of the markup's end */
    for (size_t q = p; q < e; q++) le += s[q] == '\n';
    if (p + 1 + nl <= len && strncmp(s + p + 1, nm, nl) == 0 && (p + 1 + nl == len || !name_char(s[p + 1 + nl])) &&
        le == *line) {
      tag = p;
      if (want-- == 0) break;
    }
    if (le > *line) break;
    l = le;
    p = e;
  }
  if (tag == len) return;
  l = 1;
  size_t ls = 0;
  for (size_t q = 0; q < tag; q++)
    if (s[q] == '\n') l++, ls = q + 1;
  *line = l;
  *col = (int)(tag - ls) + 1;
  if (!attr) return;
  /* the attribute inside the tag (which may span lines) */
  const size_t al = strlen(attr);
  char quote = 0;
  for (size_t q = tag + 1 + nl; q < len; q++) {
    const char c = s[q];
    if (c == '\n') l++, ls = q + 1;
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    if (c == '>') return;
    if (!name_char(s[q - 1]) && q + al <= len && strncmp(s + q, attr, al) == 0 &&
        (q + al == len || !name_char(s[q + al]))) {
      size_t e = q + al;
      while (e < len && (s[e] == ' ' || s[e] == '\t' || s[e] == '\r' || s[e] == '\n')) e++;
      if (e < len && s[e] == '=') {
        *line = l;
        *col = (int)(q - ls) + 1;
        return;
      }
    }
  }
}

sc_status xi_fail(tr* t, const xmlNode* n, const char* attr, const char* fmt, ...) {
  char msg[400], el[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  xi_describe(el, sizeof el, n);
  int line, col;
  locate(t, n, attr, &line, &col);
  if (attr)
    return sc_error_set(t->err, SC_ERR_SCENE, xi_file(n), line, col, "%s: attribute %s: %s", el, attr, msg);
  return sc_error_set(t->err, SC_ERR_SCENE, xi_file(n), line, col, "%s: %s", el, msg);
}

/* an unsupported kind: remembered once, with its first place */
static void remember(const tr* t, unsup* list, int* n, int cap, const xmlNode* at, const char* what) {
  for (int i = 0; i < *n; i++)
    if (strcmp(list[i].what, what) == 0) return;
  if (*n == cap) return;
  unsup* u = &list[(*n)++];
  snprintf(u->what, sizeof u->what, "%s", what);
  char el[200];
  xi_describe(el, sizeof el, at);
  int line, col;
  locate(t, at, NULL, &line, &col);
  if (col > 0) snprintf(u->where, sizeof u->where, "%s:%d:%d: %s", xi_file(at), line, col, el);
  else snprintf(u->where, sizeof u->where, "%s:%d: %s", xi_file(at), line, el);
}

void xi_unsupported(tr* t, const xmlNode* n, const char* what) {
  remember(t, t->un, &t->nun, (int)(sizeof t->un / sizeof t->un[0]), n, what);
}

void xi_approximated(tr* t, const xmlNode* n, const char* what) {
  remember(t, t->ap, &t->nap, (int)(sizeof t->ap / sizeof t->ap[0]), n, what);
}

/* ---- attributes: numbers, defaults ---- */

/* attribute a of element n of kind k with the class chain from class c */
const char* xi_attr_d(const tr* t, const xmlNode* n, int k, int c, const char* a) {
  const char* v = xi_attr(n, a);
  if (v) return v;
  while (k >= 0 && c >= 0) {
    for (int i = t->cls[c].nnode[k] - 1; i >= 0; i--)
      if ((v = xi_attr(t->cls[c].node[k][i], a))) return v;
    c = t->cls[c].parent;
  }
  return NULL;
}

/* up to max numbers of text s; the count read, -1 when malformed */
int xi_numbers(const char* s, double* out, int max) {
  int k = 0;
  const char* p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (!*p) return k;
    if (k == max) return -1;
    char* end;
    double x = strtod(p, &end);
    if (end == p || !isfinite(x)) return -1;
    out[k++] = x;
    p = end;
  }
}

/* exactly n numbers from attribute a (if present); *has set when present */
sc_status xi_get_vec(tr* t, const xmlNode* n, int k, int c, const char* a, double* out, int cnt,
                         int* has) {
  const char* v = xi_attr_d(t, n, k, c, a);
  if (has) *has = v != NULL;
  if (!v) return SC_OK;
  double tmp[16];
  int got = xi_numbers(v, tmp, 16);
  if (got != cnt)
    return xi_fail(t, n, a, "expected %d number%s (got '%s')", cnt, cnt == 1 ? "" : "s", v);
  memcpy(out, tmp, sizeof(double) * (size_t)cnt);
  return SC_OK;
}

/* between lo and hi numbers: the count */
sc_status xi_get_vec_n(tr* t, const xmlNode* n, int k, int c, const char* a, double* out, int lo,
                           int hi, int* got) {
  *got = 0;
  const char* v = xi_attr_d(t, n, k, c, a);
  if (!v) return SC_OK;
  double tmp[16];
  int g = xi_numbers(v, tmp, 16);
  if (g < lo || g > hi) return xi_fail(t, n, a, "expected %d to %d numbers (got '%s')", lo, hi, v);
  memcpy(out, tmp, sizeof(double) * (size_t)g);
  *got = g;
  return SC_OK;
}

sc_status xi_get_bool(tr* t, const xmlNode* n, int k, int c, const char* a, int* out) {
  const char* v = xi_attr_d(t, n, k, c, a);
  if (!v) return SC_OK;
  if (strcmp(v, "true") == 0)
    *out = 1;
  else if (strcmp(v, "false") == 0)
    *out = 0;
  else
    return xi_fail(t, n, a, "expected true or false (got '%s')", v);
  return SC_OK;
}

/* ---- rotations (quaternions w, x, y, z) ---- */

void xi_qmul(double r[4], const double a[4], const double b[4]) {
  double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  r[0] = w, r[1] = x, r[2] = y, r[3] = z;
}
void xi_qaxis(double q[4], const double ax[3], double ang) {
  double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]), s = sin(0.5 * ang) / n;
  q[0] = cos(0.5 * ang), q[1] = ax[0] * s, q[2] = ax[1] * s, q[3] = ax[2] * s;
}
void xi_qnorm(double q[4]) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 4; i++) q[i] /= n;
}
/* the shortest rotation taking (0, 0, 1) to v (MuJoCo's z-axis frames) */
void xi_qz2vec(double q[4], const double v[3]) {
  double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  double z[3] = {v[0] / n, v[1] / n, v[2] / n};
  double ax[3] = {-z[1], z[0], 0}; /* (0, 0, 1) x z */
  double s = sqrt(ax[0] * ax[0] + ax[1] * ax[1]);
  q[0] = 1, q[1] = q[2] = q[3] = 0;
  if (s < 1e-10) {
    if (z[2] < 0) q[0] = 0, q[1] = 1; /* pointing down: half a turn about x */
    return;
  }
  xi_qaxis(q, ax, atan2(s, z[2]));
}
void xi_qrot(double r[3], const double q[4], const double v[3]) {
  double R[9];
  sc_sp_quat_to_mat3(R, q);
  sc_sp_mat3_vec(r, R, v);
}

/* ---- parsing ---- */

static void silent(void* user, const char* msg, ...) {
  (void)user;
  (void)msg;
}

sc_status xi_parse(tr* t, const char* path, const char* text, size_t len, const xmlNode* from,
                       xmlDoc** out) {
  *out = NULL;
  if (t->ndoc == MAX_DOCS)
    return xi_fail(t, from, "file", "more than %d files included", MAX_DOCS);
  xmlParserCtxt* pc = xmlNewParserCtxt();
  if (!pc) return SC_ERR_NOMEM;
  /* no network, no entity substitution, no external DTD */
  const int opts = XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR | XML_PARSE_NOCDATA;
  xmlDoc* d = text ? xmlCtxtReadMemory(pc, text, (int)len, path, NULL, opts)
                   : xmlCtxtReadFile(pc, path, NULL, opts);
  if (!d) {
    const xmlError* e = xmlCtxtGetLastError(pc);
    char msg[300] = "cannot read the XML";
    if (e && e->message) {
      snprintf(msg, sizeof msg, "%s", e->message);
      size_t l = strlen(msg);
      while (l && (msg[l - 1] == '\n' || msg[l - 1] == ' ')) msg[--l] = '\0';
    }
    int line = e ? e->line : 0;
    xmlFreeParserCtxt(pc);
    if (from && !line) return xi_fail(t, from, "file", "%s: %s", path, msg);
    return sc_error_set(t->err, SC_ERR_SCENE, path, line, 0, "%s", msg);
  }
  xmlFreeParserCtxt(pc);
  /* libxml2 keeps the name as a URI (a space becomes %20): messages and the
   * paths of includes and meshes need the file's own name */
  xmlChar* url = xmlStrdup((const xmlChar*)path);
  if (!url) {
    xmlFreeDoc(d);
    return SC_ERR_NOMEM;
  }
  xmlFree((xmlChar*)d->URL);
  d->URL = url;
  /* (a copy of the text, for columns; without it messages give lines) */
  t->src[t->ndoc] = text ? sc_malloc(len + 1) : NULL;
  if (t->src[t->ndoc]) {
    memcpy(t->src[t->ndoc], text, len);
    t->src[t->ndoc][len] = '\0';
    t->srclen[t->ndoc] = len;
  }
  t->doc[t->ndoc++] = d;
  *out = d;
  return SC_OK;
}

/* p (sc_malloc'ed, relative to the working directory) made absolute: the
 * scene loader opens a translated mesh relative to the scene's directory,
 * which is the model's for a model run alone and the placing scene's for a
 * `models:` entry, so only an absolute path means the same file to both */
char* xi_abs_path(char* p) {
  if (!p || p[0] == '/') return p;
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) return p; /* unreachable cwd: left relative */
  size_t nc = strlen(cwd), n = strlen(p);
  char* a = sc_malloc(nc + 1 + n + 1);
  if (a) {
    memcpy(a, cwd, nc);
    a[nc] = '/';
    memcpy(a + nc + 1, p, n + 1);
  }
  sc_free(p);
  return a;
}

sc_status xi_count_elements(tr* t, const xmlNode* n) {
  for (; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    if (++t->nelem > MAX_ELEMENTS)
      return xi_fail(t, n, NULL, "the model has more than %d elements", MAX_ELEMENTS);
    TRY(xi_count_elements(t, n->children));
  }
  return SC_OK;
}

/* the masks when not the default 1 (a model without them translates as before) */
void xi_put_masks(obuf* o, const geom* g) {
  if (g->contype != 1) xi_put(o, ", contype: %lu", g->contype);
  if (g->conaffinity != 1) xi_put(o, ", conaffinity: %lu", g->conaffinity);
}

/* a shape's contact law when translated from the model's (MuJoCo's solref
 * and solimp) */
void xi_put_contact(obuf* o, const geom* g) {
  if (!g->contact) return;
  if (g->k < 0) {
    xi_put(o, ", stiffness: rigid");
    return;
  }
  xi_put(o, ", stiffness: %.17g, dissipation_time: %.17g, dissipation: %.17g", g->k, g->tau_d, g->hc_d);
}

void xi_put_geom(obuf* o, const char* indent, const geom* g, const double off[3]) {
  double p[3] = {g->pos[0] + off[0], g->pos[1] + off[1], g->pos[2] + off[2]};
  if (g->node) xi_src(o, g->node);
  const double e = g->inflate; /* the contact surface moved out by e (the mass is the geom's own) */
  switch (g->type) {
    case SC_GEOM_SPHERE: xi_put(o, "%s- {shape: sphere, radius: %.17g", indent, g->size[0] + e); break;
    case SC_GEOM_CAPSULE:
      xi_put(o, "%s- {shape: capsule, radius: %.17g, length: %.17g", indent, g->size[0] + e, g->size[1]);
      break;
    case SC_GEOM_CYLINDER:
      xi_put(o, "%s- {shape: cylinder, radius: %.17g, length: %.17g", indent, g->size[0] + e, g->size[1] + 2 * e);
      break;
    case SC_GEOM_ELLIPSOID:
      xi_put(o, "%s- {shape: ellipsoid, radii: [%.17g, %.17g, %.17g]", indent, g->size[0] + e, g->size[1] + e,
          g->size[2] + e);
      break;
    case SC_GEOM_BOX:
      xi_put(o, "%s- {shape: box, size: [%.17g, %.17g, %.17g]", indent, 2 * (g->size[0] + e), 2 * (g->size[1] + e),
          2 * (g->size[2] + e));
      break;
    case SC_GEOM_MESH:
      xi_put(o, "%s- {shape: mesh, file: \"%s\", scale: [%.17g, %.17g, %.17g]", indent, g->mesh_file, g->mesh_scale[0],
          g->mesh_scale[1], g->mesh_scale[2]);
      break;
    default: return;
  }
  if (g->mu_slot > 0) xi_put(o, ", friction: @mu%d@", g->mu_slot);
  else xi_put(o, ", friction: %.17g", g->mu);
  if (g->spin > 0) xi_put(o, ", torsional_friction: %.17g", g->spin);
  if (g->roll > 0) xi_put(o, ", rolling_friction: %.17g", g->roll);
  xi_put_masks(o, g);
  xi_put_contact(o, g);
  xi_put(o, ", pose: {position: [%.17g, %.17g, %.17g], quat: [%.17g, %.17g, %.17g, %.17g]}}\n", p[0], p[1], p[2],
      g->q[0], g->q[1], g->q[2], g->q[3]);
}


int xi_jname_add(tr* t, const char* name) {
  if (t->njn == t->capjn) {
    int cap = t->capjn ? 2 * t->capjn : 64;
    char** p = sc_calloc((size_t)cap, sizeof *p);
    if (!p) return -1;
    if (t->njn) memcpy(p, t->jname, sizeof *p * (size_t)t->njn);
    sc_free(t->jname);
    t->jname = p;
    t->capjn = cap;
  }
  t->jname[t->njn] = sc_strdup(name);
  return t->jname[t->njn] ? t->njn++ : -1;
}
int xi_jname_find(const tr* t, const char* name) {
  for (int i = 0; i < t->njn; i++)
    if (strcmp(t->jname[i], name) == 0) return i;
  return -1;
}

/* a name safe in YAML flow context (MuJoCo names are identifiers in practice) */
sc_status xi_check_name_length(tr* t, const xmlNode* n, const char* name) {
  /* the names derived from it ("<name>_float", "<joint>:joint") fit the
   * translators' 128-byte names */
  return strlen(name) > XI_NAME_MAX ? xi_fail(t, n, "name", "longer than %d bytes", XI_NAME_MAX) : SC_OK;
}

sc_status xi_check_name(tr* t, const xmlNode* n, const char* name) {
  TRY(xi_check_name_length(t, n, name));
  return sc_rd_name_ok(name) ? SC_OK
                             : xi_fail(t, n, "name", "'%s': simc keeps names of letters, digits and _ - . : only", name);
}

/* a name as a YAML scalar: plain when it is letters, digits and _ - . :,
 * else double-quoted with escapes (MuJoCo allows any name) */
const char* xi_yaml_name(char* out, size_t sz, const char* name) {
  if (name[0] && sc_rd_name_ok(name)) {
    snprintf(out, sz, "%s", name);
    return out;
  }
  size_t o = 0;
  if (sz < 3) return "\"\"";
  out[o++] = '"';
  for (const unsigned char* p = (const unsigned char*)name; *p && o + 5 < sz; p++) {
    if (*p == '"' || *p == '\\')
      out[o++] = '\\', out[o++] = (char)*p;
    else if (*p < 0x20 || *p == 0x7f)
      o += (size_t)snprintf(out + o, sz - o, "\\x%02x", *p);
    else
      out[o++] = (char)*p;
  }
  out[o++] = '"';
  out[o] = '\0';
  return out;
}

const char* const xi_joint_yaml[] = {"fixed", "revolute", "prismatic", "planar", "ball", "free"};
/* the model's name as a scene name (letters and digits; others become _) */
void xi_set_model_name(tr* t, const char* name) {
  snprintf(t->model_name, sizeof t->model_name, "%s", name);
  for (char* p = t->model_name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))) *p = '_';
}

/* what was not translated, once per kind with its first place: refused */
sc_status xi_refuse_unsupported(tr* t, const xmlNode* root) {
  char list[1600] = "";
  size_t o = 0;
  for (int i = 0; i < t->nun && o < sizeof list; i++) {
    int w = snprintf(list + o, sizeof list - o, "%s%s (first at %s)", i ? "; " : "", t->un[i].what, t->un[i].where);
    if (w > 0) o += (size_t)w;
  }
  return sc_error_set(t->err, SC_ERR_SCENE, xi_file(root), (int)xmlGetLineNo(root), 0,
                      "the model uses what simc does not translate: %s; run with --allow-unsupported to "
                      "ignore them",
                      list);
}

/* the offset of an XML declaration not at the start (after comments or
 * blanks), 0 when none */
static size_t late_declaration(const char* text, size_t len) {
  size_t i = 0;
  if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
    i = 3;
  const size_t start = i;
  for (;;) {
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
    if (i + 4 <= len && memcmp(text + i, "<!--", 4) == 0) {
      const char* e = NULL;
      for (size_t k = i + 4; k + 3 <= len && !e; k++)
        if (memcmp(text + k, "-->", 3) == 0) e = text + k;
      if (!e) return 0;
      i = (size_t)(e - text) + 3;
      continue;
    }
    break;
  }
  if (i > start && i + 6 <= len && memcmp(text + i, "<?xml", 5) == 0 &&
      (text[i + 5] == ' ' || text[i + 5] == '\t' || text[i + 5] == '\n' || text[i + 5] == '\r'))
    return i;
  return 0;
}

static int line_of(const char* text, size_t len, size_t at) {
  int l = 1;
  for (size_t i = 0; i < at && i < len; i++) l += text[i] == '\n';
  return l;
}

/* what was translated approximately, under import.strict: refused */
static sc_status refuse_approximated(tr* t, const xmlNode* root) {
  char list[1600] = "";
  size_t o = 0;
  for (int i = 0; i < t->nap && o < sizeof list; i++) {
    int w = snprintf(list + o, sizeof list - o, "%s%s (first at %s)", i ? "; " : "", t->ap[i].what, t->ap[i].where);
    if (w > 0) o += (size_t)w;
  }
  return sc_error_set(t->err, SC_ERR_SCENE, xi_file(root), (int)xmlGetLineNo(root), 0,
                      "the model uses what simc translates only approximately: %s; run without --strict to "
                      "accept the approximations (doc/import.md)",
                      list);
}

int sc_mjcf_is_xml(const char* text, size_t len) {
  size_t i = 0;
  if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
    i = 3;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
  return i < len && text[i] == '<';
}

/* ---- the source map ---- */

void sc_import_map_free(sc_import_map* m) {
  if (!m) return;
  for (int i = 0; i < m->nrun; i++) sc_free(m->run[i].what);
  sc_free(m->run);
  for (int i = 0; i < m->nfiles; i++) sc_free(m->files[i]);
  sc_free(m->files);
  memset(m, 0, sizeof *m);
}

/* the run of translated line y (NULL: none) */
static const sc_import_src* run_of(const sc_import_map* m, int y) {
  int lo = 0, hi = m->nrun - 1; /* the last run starting at or before y */
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (m->run[mid].first <= y)
      lo = mid;
    else
      hi = mid - 1;
  }
  const sc_import_src* r = &m->run[lo];
  return r->first <= y && r->line > 0 ? r : NULL;
}

void sc_import_map_locate(const sc_import_map* m, const char* path, sc_error* err) {
  if (!m || !m->nrun || !err || err->line <= 0 || strcmp(err->file, path) != 0) return;
  const sc_import_src* r = run_of(m, err->line);
  if (!r) return;
  /* a message that names another translated line ("first at line 12") names
   * that line's element instead */
  char body[sizeof err->msg + 256];
  snprintf(body, sizeof body, "%s", err->msg);
  char* at = strstr(body, "at line ");
  if (at) {
    char* end;
    long y = strtol(at + 8, &end, 10);
    const sc_import_src* o = y > 0 && y < INT_MAX ? run_of(m, (int)y) : NULL;
    if (o) {
      char tail[sizeof body];
      snprintf(tail, sizeof tail, "%s", end);
      snprintf(at, sizeof body - (size_t)(at - body), "at %s:%d, %s%s", m->files[o->file], o->line, o->what, tail);
    }
  }
  char msg[sizeof body + 256];
  snprintf(msg, sizeof msg, "%s: %s", r->what, body);
  sc_error_set(err, err->code, m->files[r->file], r->line, 0, "%s", msg);
}

/* the map of out's lines: srcs[i] wrote line i + 1 (NULL: the root) */
static sc_status build_map(sc_import_map* m, const xmlNode* const* srcs, size_t nl, const xmlNode* root) {
  const xmlNode* prev = NULL;
  int cap = 0;
  for (size_t i = 0; i < nl; i++) {
    const xmlNode* n = srcs[i] ? srcs[i] : root;
    if (i && n == prev) continue;
    prev = n;
    if (m->nrun == cap) {
      int c = cap ? 2 * cap : 64;
      sc_import_src* r = sc_calloc((size_t)c, sizeof *r);
      if (!r) return SC_ERR_NOMEM;
      if (m->nrun) memcpy(r, m->run, sizeof *r * (size_t)m->nrun);
      sc_free(m->run);
      m->run = r;
      cap = c;
    }
    const char* f = xi_file(n);
    int fi = 0;
    while (fi < m->nfiles && strcmp(m->files[fi], f) != 0) fi++;
    if (fi == m->nfiles) {
      char** fs = sc_calloc((size_t)m->nfiles + 1, sizeof *fs);
      if (!fs) return SC_ERR_NOMEM;
      if (m->nfiles) memcpy(fs, m->files, sizeof *fs * (size_t)m->nfiles);
      sc_free(m->files);
      m->files = fs;
      if (!(m->files[m->nfiles] = sc_strdup(f))) return SC_ERR_NOMEM;
      m->nfiles++;
    }
    char el[200];
    xi_describe(el, sizeof el, n);
    sc_import_src* r = &m->run[m->nrun];
    r->first = (int)i + 1, r->file = fi, r->line = (int)xmlGetLineNo(n);
    if (!(r->what = sc_strdup(el))) return SC_ERR_NOMEM;
    m->nrun++;
  }
  return SC_OK;
}

/* a section of the scene: its key, then buffer b's lines with their sources */
static void put_section(obuf* out, const char* key, obuf* b) {
  if (!b->n) return;
  xi_src(out, NULL);
  xi_put(out, "%s:\n", key);
  if (b->oom) {
    out->oom = 1;
    return;
  }
  const size_t from = out->nl;
  xi_put(out, "%.*s", (int)b->n, b->p);
  /* the lines just counted under NULL take b's own sources */
  for (size_t i = 0; i < b->nl && from + i < out->nl; i++) out->lsrc[from + i] = b->lsrc[i];
}

static void obuf_free(obuf* b) {
  sc_free(b->p);
  sc_free(b->lsrc);
}

sc_status sc_mjcf_translate(const char* path, const char* text, size_t len, const sc_import_opts* o,
                            char** yaml, size_t* ylen, char** ignored, char** approximated, sc_import_map* map,
                            sc_error* err) {
  *yaml = NULL;
  if (approximated) *approximated = NULL;
  if (map) memset(map, 0, sizeof *map);
  *ylen = 0;
  if (ignored) *ignored = NULL;
  xmlSetGenericErrorFunc(NULL, silent);
  tr* t = sc_calloc(1, sizeof *t);
  if (!t) return sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory");
  t->err = err;
  xmlDoc* d;
  /* urdfdom (TinyXML) reads an XML declaration after a comment, which
   * libxml2 refuses; ROS tools write such files (a licence comment above
   * xacro's output): the declaration is blanked, lines kept */
  char* fixed = NULL;
  const size_t decl = late_declaration(text, len);
  if (decl) {
    if (!(fixed = sc_malloc(len))) {
      sc_free(t);
      return sc_error_set(err, SC_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    memcpy(fixed, text, len);
    size_t e = decl;
    while (e + 1 < len && !(fixed[e] == '?' && fixed[e + 1] == '>')) e++;
    for (size_t i = decl; i < e + 2 && i < len; i++)
      if (fixed[i] != '\n') fixed[i] = ' ';
    text = fixed;
    snprintf(t->note, sizeof t->note, "the XML declaration at line %d (after a comment) read as if at the top",
             line_of(text, len, decl));
  }
  sc_status st = xi_parse(t, path, text, len, NULL, &d);
  sc_free(fixed);
  xmlNode* root = st ? NULL : xmlDocGetRootElement(d);
  const int urdf = root && strcmp(xi_name(root), "robot") == 0;
  if (!st && (!root || (strcmp(xi_name(root), "mujoco") != 0 && !urdf)))
    st = sc_error_set(err, SC_ERR_SCENE, path, root ? (int)xmlGetLineNo(root) : 1, 0,
                      "the root element is <%s> (expected <mujoco>, an MJCF model, or <robot>, a URDF)",
                      root ? xi_name(root) : "none");
  if (!st) st = urdf ? xi_translate_urdf(t, root, o->floating_base, o->model_path) : xi_translate_mjcf(t, root);
  if (!st && t->nun && !o->allow_unsupported) st = xi_refuse_unsupported(t, root);
  if (!st && t->nap && o->strict) st = refuse_approximated(t, root);
  obuf out = {0}, ign = {0}, apx = {0};
  /* the same list as the comments below, for the model and its output (a
   * comment does not survive the scene's re-emission) */
  for (int i = 0; !st && ignored && i < t->nun; i++) xi_put(&ign, "%s (first at %s)\n", t->un[i].what, t->un[i].where);
  for (int i = 0; !st && approximated && i < t->nap; i++) xi_put(&apx, "%s (first at %s)\n", t->ap[i].what, t->ap[i].where);
  if (ign.oom || apx.oom) st = SC_ERR_NOMEM;
  if (!st) {
    xi_put(&out, "# translated by simc from the %s model %s\n", urdf ? "URDF" : "MJCF", path);
    for (int i = 0; i < t->nun; i++) xi_put(&out, "# ignored: %s (first at %s)\n", t->un[i].what, t->un[i].where);
    if (t->note[0]) xi_put(&out, "# note: %s\n", t->note);
    for (int i = 0; i < t->nap; i++) xi_put(&out, "# approximated: %s (first at %s)\n", t->ap[i].what, t->ap[i].where);
    xi_put(&out, "simc: 1\nname: %s\n", t->model_name);
    xi_put(&out, "gravity: [%.17g, %.17g, %.17g]\n", t->gravity[0], t->gravity[1], t->gravity[2]);
    const double* fl = t->fluid;
    if (fl[0] != 0 || fl[1] != 0 || fl[2] != 0 || fl[3] != 0 || fl[4] != 0)
      xi_put(&out, "fluid: {density: %.17g, viscosity: %.17g, wind: [%.17g, %.17g, %.17g]}\n", fl[0],
             fl[1], fl[2], fl[3], fl[4]);
    /* a run of about 1 s that ends on a step (the step need not divide 1 s) */
    const double nstep = ceil(1.0 / t->timestep - 1e-9);
    xi_put(&out, "time: {step: %.17g, duration: %.17g}\n", t->timestep, nstep * t->timestep);
    /* MuJoCo takes the larger of two geoms' friction (of equal priority) */
    if (!urdf) xi_put(&out, "contact: {friction_mix: max}\n");
    put_section(&out, "bodies", &t->bodies);
    put_section(&out, "static", &t->stat);
    put_section(&out, "springs", &t->springs);
    put_section(&out, "actuators", &t->acts);
    put_section(&out, "exclude", &t->excl);
    put_section(&out, "tendons", &t->ten);
    put_section(&out, "constraints", &t->eq);
    if (t->bodies.oom || t->stat.oom || t->springs.oom || t->acts.oom || t->excl.oom || t->eq.oom || t->ten.oom || out.oom)
      st = SC_ERR_NOMEM;
    if (!st && out.n > (size_t)SC_SCENE_MAX_BYTES)
      st = sc_error_set(err, SC_ERR_SCENE, path, 1, 0, "the translated scene is too large (%zu bytes)", out.n);
  }
  if (!st && map && (out.oom || build_map(map, out.lsrc, out.nl, root))) st = SC_ERR_NOMEM;
  if (st == SC_ERR_NOMEM) sc_error_set(err, st, path, 0, 0, "out of memory translating the model");
  obuf_free(&t->bodies);
  obuf_free(&t->stat);
  obuf_free(&t->springs);
  obuf_free(&t->acts);
  obuf_free(&t->excl);
  obuf_free(&t->eq);
  obuf_free(&t->ten);
  for (int i = 0; i < t->njn; i++) sc_free(t->jname[i]);
  sc_free(t->jname);
  sc_free(t->brec);
  sc_free(t->jrec);
  for (int i = 0; i < t->nstr; i++) sc_free(t->strs[i]);
  for (int i = 0; i < t->nmeshes; i++) sc_free(t->meshes[i].file);
  sc_free(t->meshes);
  sc_free(t->pg);
  sc_free(t->pmu);
  for (int i = 0; i < t->ndoc; i++) xmlFreeDoc(t->doc[i]), sc_free(t->src[i]);
  sc_free(t);
  sc_free(out.lsrc);
  sc_free(ign.lsrc);
  sc_free(apx.lsrc);
  if (st) {
    sc_import_map_free(map);
    sc_free(out.p);
    sc_free(ign.p);
    sc_free(apx.p);
    return st;
  }
  *yaml = out.p;
  *ylen = out.n;
  if (ignored) *ignored = ign.p;
  if (approximated) *approximated = apx.p;
  return SC_OK;
}

