/* scene tree: libyaml events -> located nodes; --set overrides; emission.
 *
 * The tree is built from the event stream with an explicit stack (no
 * recursion on input depth), so a deeply nested or huge document costs at
 * most SC_SCENE_MAX_DEPTH stack slots and SC_SCENE_MAX_NODES nodes before it
 * is rejected.  Anchors and aliases are refused at the first occurrence: the
 * "billion laughs" expansion never starts. */
#include "scene/scene_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "scene/limits.h"

/* ---- nodes ---- */

static sc_snode* node_new(sc_snode_kind kind, const char* file, int line, int col) {
  sc_snode* n = sc_calloc(1, sizeof *n);
  if (!n) return NULL;
  n->kind = kind;
  n->file = file;
  n->line = line;
  n->col = col;
  return n;
}

void sc_snode_free(sc_snode* n) {
  if (!n) return;
  /* free iteratively-bounded: depth is capped at parse time */
  for (int i = 0; i < (n->kind == SC_SN_MAP ? 2 * n->n : n->n); i++) sc_snode_free(n->kid[i]);
  sc_free(n->kid);
  sc_free(n->str);
  sc_free(n->setkey);
  sc_free(n);
}

/* append a raw child slot (map: keys and values alternate) */
static int kid_append(sc_snode* p, int* nslots, sc_snode* kid) {
  if (*nslots == p->cap) {
    int cap = p->cap ? 2 * p->cap : 8;
    sc_snode** k = sc_malloc((size_t)cap * sizeof *k);
    if (!k) return -1;
    if (p->kid) memcpy(k, p->kid, (size_t)p->cap * sizeof *k);
    sc_free(p->kid);
    p->kid = k;
    p->cap = cap;
  }
  p->kid[(*nslots)++] = kid;
  return 0;
}

static int slots(const sc_snode* p) { return p->kind == SC_SN_MAP ? 2 * p->n : p->n; }

/* map: keys at even slots; n counts complete pairs, so a dangling key lives in
 * slot 2n until its value arrives */
static int add_child(sc_snode* p, sc_snode* kid, int* pending_key) {
  int ns = slots(p) + (*pending_key ? 1 : 0);
  if (kid_append(p, &ns, kid)) return -1;
  if (p->kind == SC_SN_SEQ) {
    p->n++;
  } else if (*pending_key) {
    p->n++;
    *pending_key = 0;
  } else {
    *pending_key = 1;
  }
  return 0;
}

sc_snode* sc_snode_new(sc_snode_kind kind, const char* file, int line, int col) {
  return node_new(kind, file, line, col);
}

sc_snode* sc_snode_new_scalar(const char* str, int plain, const char* file, int line, int col) {
  sc_snode* n = node_new(SC_SN_SCALAR, file, line, col);
  size_t len = strlen(str);
  if (n && !(n->str = sc_malloc(len + 1))) {
    sc_free(n);
    return NULL;
  }
  if (n) {
    memcpy(n->str, str, len + 1);
    n->plain = plain;
  }
  return n;
}

int sc_snode_push(sc_snode* seq, sc_snode* kid) {
  int pending = 0;
  return add_child(seq, kid, &pending);
}

int sc_snode_put(sc_snode* map, const char* key, sc_snode* val) {
  for (int i = 0; i < map->n; i++)
    if (map->kid[2 * i]->str && strcmp(map->kid[2 * i]->str, key) == 0) {
      sc_snode_free(map->kid[2 * i + 1]);
      map->kid[2 * i + 1] = val;
      return 0;
    }
  sc_snode* k = sc_snode_new_scalar(key, 1, val->file, val->line, val->col);
  if (!k) return -1;
  int pending = 0;
  if (add_child(map, k, &pending)) {
    sc_snode_free(k);
    return -1;
  }
  /* a failed value leaves the key beyond the map's n pairs, unread */
  if (add_child(map, val, &pending)) {
    sc_snode_free(k);
    return -1;
  }
  return 0;
}

void sc_snode_remove(sc_snode* map, const char* key) {
  for (int i = 0; i < map->n; i++)
    if (map->kid[2 * i]->str && strcmp(map->kid[2 * i]->str, key) == 0) {
      sc_snode_free(map->kid[2 * i]);
      sc_snode_free(map->kid[2 * i + 1]);
      memmove(map->kid + 2 * i, map->kid + 2 * i + 2, (size_t)(2 * (map->n - i - 1)) * sizeof *map->kid);
      map->n--;
      return;
    }
}

void sc_snode_relocate(sc_snode* n, const char* file, int line, int col) {
  n->file = file;
  n->line = line;
  n->col = col;
  for (int i = 0; i < slots(n); i++) sc_snode_relocate(n->kid[i], file, line, col);
}

sc_snode* sc_snode_get(const sc_snode* map, const char* key) {
  if (!map || map->kind != SC_SN_MAP) return NULL;
  for (int i = 0; i < map->n; i++)
    if (map->kid[2 * i]->str && strcmp(map->kid[2 * i]->str, key) == 0) return map->kid[2 * i + 1];
  return NULL;
}

/* ---- parsing ---- */

/* line/col of a byte offset (reader errors carry only an offset) */
static void offset_to_linecol(const char* text, size_t len, size_t off, int* line, int* col) {
  int l = 1, c = 1;
  for (size_t i = 0; i < off && i < len; i++) {
    if (text[i] == '\n') {
      l++;
      c = 1;
    } else {
      c++;
    }
  }
  *line = l;
  *col = c;
}

typedef struct parse_ctx {
  const char* text;
  size_t len;
  const char* file;
  int set_index, col_base;
  sc_error* err;
} parse_ctx;

static void mark_loc(const parse_ctx* c, yaml_mark_t m, int* line, int* col) {
  if (c->set_index > 0) {
    *line = c->set_index;
    *col = c->col_base + (int)m.column + 1;
  } else {
    *line = (int)m.line + 1;
    *col = (int)m.column + 1;
  }
}

static sc_status fail_at(const parse_ctx* c, yaml_mark_t m, const char* msg) {
  int line, col;
  mark_loc(c, m, &line, &col);
  return sc_error_set(c->err, SC_ERR_SCENE, c->file, line, col, "%s", msg);
}

static sc_status syntax_error(const parse_ctx* c, const yaml_parser_t* p) {
  int line, col;
  if (p->error == YAML_READER_ERROR) {
    if (c->set_index > 0) {
      line = c->set_index;
      col = c->col_base + (int)p->problem_offset + 1;
    } else {
      offset_to_linecol(c->text, c->len, p->problem_offset, &line, &col);
    }
    if (p->problem_value >= 0)
      return sc_error_set(c->err, SC_ERR_SCENE, c->file, line, col,
                          "invalid input: %s (byte 0x%02X)",
                          p->problem ? p->problem : "unreadable", (unsigned)p->problem_value & 0xFFu);
    return sc_error_set(c->err, SC_ERR_SCENE, c->file, line, col, "invalid input: %s",
                        p->problem ? p->problem : "unreadable");
  }
  if (p->error == YAML_MEMORY_ERROR)
    return sc_error_set(c->err, SC_ERR_NOMEM, c->file, 0, 0, "out of memory while parsing");
  mark_loc(c, p->problem_mark, &line, &col);
  if (p->context)
    return sc_error_set(c->err, SC_ERR_SCENE, c->file, line, col, "YAML syntax error: %s (%s)",
                        p->problem ? p->problem : "invalid YAML", p->context);
  return sc_error_set(c->err, SC_ERR_SCENE, c->file, line, col, "YAML syntax error: %s",
                      p->problem ? p->problem : "invalid YAML");
}

sc_status sc_snode_parse(const char* text, size_t len, const char* file, int set_index,
                         int col_base, sc_snode** out, sc_error* err) {
  parse_ctx c = {text, len, file, set_index, col_base, err};
  *out = NULL;
  if (len > (size_t)SC_SCENE_MAX_BYTES)
    return sc_error_set(err, SC_ERR_SCENE, file, set_index > 0 ? set_index : 1, 1,
                        "scene: the document is too large (%zu bytes; the limit is %d)", len,
                        SC_SCENE_MAX_BYTES);
  /* a UTF-8 byte-order mark (some Windows editors write one) is not part of
   * the document; libyaml only skips it when it detects the encoding itself,
   * which is turned off below */
  if (set_index == 0 && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
    text += 3;
    len -= 3;
    c.text = text;
    c.len = len;
  }
  const size_t max_nodes = sc_scene_max_nodes(len);
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p))
    return sc_error_set(err, SC_ERR_NOMEM, file, 0, 0, "out of memory (YAML parser)");
  yaml_parser_set_input_string(&p, (const unsigned char*)text, len);
  /* scenes are UTF-8: a stray UTF-16 byte-order mark in binary data must not
   * switch the reader to another encoding */
  yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);

  sc_snode* stack[SC_SCENE_MAX_DEPTH + 1];
  int pending[SC_SCENE_MAX_DEPTH + 1];
  int depth = 0, ndoc = 0, nnodes = 0, done = 0;
  sc_snode* root = NULL;
  sc_status st = SC_OK;
  yaml_event_t ev;

  while (!done) {
    if (!yaml_parser_parse(&p, &ev)) {
      st = syntax_error(&c, &p);
      break;
    }
    sc_snode* node = NULL;
    int line, col;
    mark_loc(&c, ev.start_mark, &line, &col);
    switch (ev.type) {
      case YAML_STREAM_END_EVENT: done = 1; break;
      case YAML_DOCUMENT_START_EVENT:
        if (++ndoc > 1) st = fail_at(&c, ev.start_mark, "only one YAML document is allowed in a scene");
        break;
      case YAML_ALIAS_EVENT:
        st = fail_at(&c, ev.start_mark, "YAML aliases (*name) are not supported in scenes");
        break;
      case YAML_SCALAR_EVENT:
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        const yaml_char_t* anchor = ev.type == YAML_SCALAR_EVENT ? ev.data.scalar.anchor
                                    : ev.type == YAML_SEQUENCE_START_EVENT
                                        ? ev.data.sequence_start.anchor
                                        : ev.data.mapping_start.anchor;
        const yaml_char_t* tag = ev.type == YAML_SCALAR_EVENT ? ev.data.scalar.tag
                                 : ev.type == YAML_SEQUENCE_START_EVENT
                                     ? ev.data.sequence_start.tag
                                     : ev.data.mapping_start.tag;
        if (anchor) {
          st = fail_at(&c, ev.start_mark, "YAML anchors (&name) are not supported in scenes");
          break;
        }
        if (tag) {
          st = fail_at(&c, ev.start_mark, "YAML tags (!tag) are not supported in scenes");
          break;
        }
        if ((size_t)++nnodes > max_nodes) {
          char msg[200];
          snprintf(msg, sizeof msg,
                   "too many YAML nodes for a document of %zu bytes (the limit is %zu: %d + one "
                   "per %d bytes, at most %d)",
                   len, max_nodes, SC_SCENE_MIN_NODES, SC_SCENE_BYTES_PER_NODE, SC_SCENE_MAX_NODES);
          st = fail_at(&c, ev.start_mark, msg);
          break;
        }
        sc_snode* parent = depth > 0 ? stack[depth - 1] : NULL;
        int is_key = parent && parent->kind == SC_SN_MAP && !pending[depth - 1];
        if (ev.type == YAML_SCALAR_EVENT) {
          node = node_new(SC_SN_SCALAR, file, line, col);
          if (node) {
            node->str = sc_malloc(ev.data.scalar.length + 1);
            if (node->str) {
              memcpy(node->str, ev.data.scalar.value, ev.data.scalar.length);
              node->str[ev.data.scalar.length] = '\0';
              node->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
              if (strlen(node->str) != ev.data.scalar.length) {
                sc_snode_free(node);
                node = NULL;
                st = fail_at(&c, ev.start_mark, "NUL character in a scalar");
                break;
              }
            }
          }
        } else {
          if (is_key) {
            st = fail_at(&c, ev.start_mark, "a mapping key must be a plain name, not a list or map");
            break;
          }
          if (depth >= SC_SCENE_MAX_DEPTH) {
            st = fail_at(&c, ev.start_mark, "nesting is deeper than 64 levels");
            break;
          }
          node = node_new(ev.type == YAML_SEQUENCE_START_EVENT ? SC_SN_SEQ : SC_SN_MAP, file, line,
                          col);
        }
        if (!node || (node->kind == SC_SN_SCALAR && !node->str)) {
          sc_snode_free(node);
          st = sc_error_set(err, SC_ERR_NOMEM, file, 0, 0, "out of memory (scene tree)");
          break;
        }
        if (parent) {
          if (add_child(parent, node, &pending[depth - 1])) {
            sc_snode_free(node);
            st = sc_error_set(err, SC_ERR_NOMEM, file, 0, 0, "out of memory (scene tree)");
            break;
          }
        } else {
          root = node;
        }
        if (node->kind != SC_SN_SCALAR) {
          pending[depth] = 0;
          stack[depth++] = node;
        }
        break;
      }
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT: depth--; break;
      default: break;
    }
    yaml_event_delete(&ev);
    if (st != SC_OK) break;
  }
  yaml_parser_delete(&p);
  if (st != SC_OK) {
    /* a dangling key slot (slot 2n) is owned too */
    for (int d = 0; d < depth; d++)
      if (stack[d]->kind == SC_SN_MAP && pending[d]) {
        sc_snode_free(stack[d]->kid[2 * stack[d]->n]);
        stack[d]->kid[2 * stack[d]->n] = NULL;
      }
    sc_snode_free(root);
    return st;
  }
  *out = root;
  return SC_OK;
}

/* ---- overrides ---- */

static int all_digits(const char* s, size_t n) {
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

static int seg_eq(const char* str, const char* seg, size_t n) {
  return str && strlen(str) == n && memcmp(str, seg, n) == 0;
}

sc_status sc_snode_apply_set(sc_snode* root, const char* set, int k, sc_error* err) {
  const char* F = "--set";
  const char* eq = strchr(set, '=');
  if (!eq)
    return sc_error_set(err, SC_ERR_SCENE, F, k, 1, "%s: expected KEY=VALUE (no '=')", set);
  size_t keylen = (size_t)(eq - set);
  if (keylen == 0) return sc_error_set(err, SC_ERR_SCENE, F, k, 1, "empty KEY in KEY=VALUE");
  if (!root || root->kind != SC_SN_MAP)
    return sc_error_set(err, SC_ERR_SCENE, F, k, 1,
                        "%.*s: the scene is not a mapping, cannot override", (int)keylen, set);
  int nseg = 1;
  for (const char* q = set; q < eq; q++) nseg += *q == '.';
  if (nseg > SC_SCENE_MAX_DEPTH)
    return sc_error_set(err, SC_ERR_SCENE, F, k, 1, "KEY has %d path segments (the limit is %d)",
                        nseg, SC_SCENE_MAX_DEPTH);
  int vcol = (int)keylen + 2;
  sc_snode* val = NULL;
  size_t vlen = strlen(eq + 1);
  sc_status st = sc_snode_parse(eq + 1, vlen, F, k, (int)keylen + 1, &val, err);
  if (st != SC_OK) {
    /* name the override whose VALUE is not valid YAML */
    if (st == SC_ERR_SCENE && err) {
      char msg[sizeof err->msg];
      memcpy(msg, err->msg, sizeof msg);
      msg[sizeof msg - 1] = '\0';
      snprintf(err->msg, sizeof err->msg, "%.*s: %.700s", keylen < 60 ? (int)keylen : 60, set, msg);
    }
    return st;
  }
  if (!val)
    return sc_error_set(err, SC_ERR_SCENE, F, k, vcol, "%.*s: missing value after '='",
                        (int)keylen, set);
  val->setkey = sc_malloc(keylen + 1);
  if (!val->setkey) {
    sc_snode_free(val);
    return SC_ERR_NOMEM;
  }
  memcpy(val->setkey, set, keylen);
  val->setkey[keylen] = '\0';

  sc_snode* cur = root;
  const char* seg = set;
  for (;;) {
    const char* dot = memchr(seg, '.', (size_t)(eq - seg));
    const char* end = dot ? dot : eq;
    size_t n = (size_t)(end - seg);
    int col = (int)(seg - set) + 1;
    int plen = (int)(end - set); /* path prefix up to this segment */
    int last = dot == NULL;
    if (n == 0) {
      st = sc_error_set(err, SC_ERR_SCENE, F, k, col, "%.*s: empty path segment", (int)keylen, set);
      break;
    }
    if (cur->kind == SC_SN_MAP) {
      int i;
      for (i = 0; i < cur->n; i++)
        if (seg_eq(cur->kid[2 * i]->str, seg, n)) break;
      if (i < cur->n) {
        if (last) {
          sc_snode_free(cur->kid[2 * i + 1]);
          cur->kid[2 * i + 1] = val;
          return SC_OK;
        }
        cur = cur->kid[2 * i + 1];
      } else {
        /* a key absent from the file: create it (validation decides later
         * whether the schema has it) */
        if (!last) {
          const char* nx = end + 1;
          const char* nd = memchr(nx, '.', (size_t)(eq - nx));
          size_t nn = (size_t)((nd ? nd : eq) - nx);
          if (all_digits(nx, nn)) {
            st = sc_error_set(err, SC_ERR_SCENE, F, k, col,
                              "%.*s: no such list in the scene (cannot address element %.*s)",
                              plen, set, (int)nn, nx);
            break;
          }
        }
        sc_snode* key = node_new(SC_SN_SCALAR, F, k, col);
        sc_snode* v = last ? val : node_new(SC_SN_MAP, F, k, col);
        if (!key || !v || !(key->str = sc_malloc(n + 1))) {
          sc_snode_free(key);
          if (v != val) sc_snode_free(v);
          st = SC_ERR_NOMEM;
          break;
        }
        memcpy(key->str, seg, n);
        key->str[n] = '\0';
        key->plain = 1;
        int pend = 0;
        if (add_child(cur, key, &pend) || add_child(cur, v, &pend)) {
          /* the key may already be in the slot array */
          if (pend) cur->kid[2 * cur->n] = NULL;
          sc_snode_free(key);
          if (v != val) sc_snode_free(v);
          st = SC_ERR_NOMEM;
          break;
        }
        if (last) return SC_OK;
        cur = v;
      }
    } else if (cur->kind == SC_SN_SEQ) {
      int idx = -1;
      if (all_digits(seg, n)) {
        long x = strtol(seg, NULL, 10);
        if (n > 9 || x >= cur->n) {
          st = sc_error_set(err, SC_ERR_SCENE, F, k, col,
                            "%.*s: no list element %.*s (the list has %d)", plen, set, (int)n, seg,
                            cur->n);
          break;
        }
        idx = (int)x;
      } else {
        for (int i = 0; i < cur->n; i++) {
          sc_snode* nm = sc_snode_get(cur->kid[i], "name");
          if (nm && nm->kind == SC_SN_SCALAR && seg_eq(nm->str, seg, n)) {
            idx = i;
            break;
          }
        }
        if (idx < 0) {
          st = sc_error_set(err, SC_ERR_SCENE, F, k, col,
                            "%.*s: no list element named '%.*s' (expected an index or a name)",
                            plen, set, (int)n, seg);
          break;
        }
      }
      if (last) {
        sc_snode_free(cur->kid[idx]);
        cur->kid[idx] = val;
        return SC_OK;
      }
      cur = cur->kid[idx];
    } else {
      st = sc_error_set(err, SC_ERR_SCENE, F, k, col,
                        "%.*s: is a value, not a map or list (cannot set %.*s)",
                        plen - (int)n - 1 > 0 ? plen - (int)n - 1 : 0, set, (int)keylen, set);
      break;
    }
    seg = end + 1;
  }
  sc_snode_free(val);
  return st;
}

/* ---- emission ---- */

typedef struct outbuf {
  char* p;
  size_t n, cap;
  int oom;
} outbuf;

static int write_handler(void* data, unsigned char* buf, size_t size) {
  outbuf* o = data;
  if (o->n + size + 1 > o->cap) {
    size_t cap = o->cap ? o->cap : 4096;
    while (o->n + size + 1 > cap) cap *= 2;
    char* q = sc_malloc(cap);
    if (!q) {
      o->oom = 1;
      return 0;
    }
    if (o->p) memcpy(q, o->p, o->n);
    sc_free(o->p);
    o->p = q;
    o->cap = cap;
  }
  memcpy(o->p + o->n, buf, size);
  o->n += size;
  o->p[o->n] = '\0';
  return 1;
}

static int emit_node(yaml_emitter_t* e, const sc_snode* n, int depth) {
  yaml_event_t ev;
  if (depth > SC_SCENE_MAX_DEPTH + 2) return 0;
  if (n->kind == SC_SN_SCALAR) {
    yaml_scalar_style_t style =
        n->plain ? YAML_PLAIN_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t*)n->str, (int)strlen(n->str),
                                      1, 1, style))
      return 0;
    return yaml_emitter_emit(e, &ev);
  }
  if (n->kind == SC_SN_SEQ) {
    int flat = 1;
    for (int i = 0; i < n->n; i++)
      if (n->kid[i]->kind != SC_SN_SCALAR) flat = 0;
    if (!yaml_sequence_start_event_initialize(
            &ev, NULL, NULL, 1, flat ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE))
      return 0;
    if (!yaml_emitter_emit(e, &ev)) return 0;
    for (int i = 0; i < n->n; i++)
      if (!emit_node(e, n->kid[i], depth + 1)) return 0;
    if (!yaml_sequence_end_event_initialize(&ev)) return 0;
    return yaml_emitter_emit(e, &ev);
  }
  if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE)) return 0;
  if (!yaml_emitter_emit(e, &ev)) return 0;
  for (int i = 0; i < 2 * n->n; i++)
    if (!emit_node(e, n->kid[i], depth + 1)) return 0;
  if (!yaml_mapping_end_event_initialize(&ev)) return 0;
  return yaml_emitter_emit(e, &ev);
}

sc_status sc_snode_emit(const sc_snode* root, char** out, sc_error* err) {
  *out = NULL;
  outbuf o = {0};
  yaml_emitter_t e;
  yaml_event_t ev;
  if (!yaml_emitter_initialize(&e)) return sc_error_set(err, SC_ERR_NOMEM, NULL, 0, 0, "out of memory");
  yaml_emitter_set_output(&e, write_handler, &o);
  yaml_emitter_set_unicode(&e, 1);
  yaml_emitter_set_width(&e, 100);
  int ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) && yaml_emitter_emit(&e, &ev) &&
           yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
           yaml_emitter_emit(&e, &ev) && emit_node(&e, root, 0) &&
           yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&e, &ev) &&
           yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev) &&
           yaml_emitter_flush(&e);
  yaml_emitter_delete(&e);
  if (!ok || o.oom || !o.p) {
    sc_free(o.p);
    return sc_error_set(err, o.oom ? SC_ERR_NOMEM : SC_ERR_SCENE, NULL, 0, 0,
                        "cannot emit the scene as YAML");
  }
  *out = o.p;
  return SC_OK;
}
