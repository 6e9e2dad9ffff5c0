/* scene_tree: a located YAML node tree (internal to src/scene).
 *
 * libyaml events are collected into nodes that remember where they start
 * (1-based line/col) so that schema checks done later can still point at the
 * offending text.  Anchors, aliases and tags are rejected, and size, node
 * count and depth are capped (see scene.h), so hostile documents fail fast. */
#ifndef SC_SCENE_TREE_H
#define SC_SCENE_TREE_H

#include <stddef.h>

#include "core/core.h"

typedef enum sc_snode_kind { SC_SN_SCALAR, SC_SN_SEQ, SC_SN_MAP } sc_snode_kind;

typedef struct sc_snode {
  sc_snode_kind kind;
  const char* file;       /* file name for errors (not owned) */
  int line, col;          /* 1-based */
  char* str;              /* scalar text (owned); NULL for collections */
  int plain;              /* scalar was unquoted (may be a number or bool) */
  int n, cap;             /* seq: items; map: pairs */
  struct sc_snode** kid;  /* seq: kid[i]; map: kid[2i] key (scalar), kid[2i+1] value */
  char* setkey;           /* for the root of an override value: the KEY (owned) */
} sc_snode;

/* Parse one YAML document.  set_index 0: a file (locations from the marks);
 * k > 0: the VALUE of the k-th override, located at line k, col col_base +
 * column.  *out is NULL for an empty stream. */
sc_status sc_snode_parse(const char* text, size_t len, const char* file, int set_index,
                         int col_base, sc_snode** out, sc_error* err);
void sc_snode_free(sc_snode* n);
/* Value of key in a map (first match), NULL if absent or n is not a map. */
sc_snode* sc_snode_get(const sc_snode* map, const char* key);
/* Apply the k-th (1-based) override "KEY=VALUE" to the tree. */
sc_status sc_snode_apply_set(sc_snode* root, const char* set, int k, sc_error* err);
/* Building and editing trees (models.c merges translated models into a
 * scene's tree).  A new node is located at file:line:col; str is copied.
 * Each returns NULL or -1 when out of memory. */
sc_snode* sc_snode_new(sc_snode_kind kind, const char* file, int line, int col);
sc_snode* sc_snode_new_scalar(const char* str, int plain, const char* file, int line, int col);
/* append kid to a list (the list owns it) */
int sc_snode_push(sc_snode* seq, sc_snode* kid);
/* map[key] = val (val owned by the map; an old value is freed) */
int sc_snode_put(sc_snode* map, const char* key, sc_snode* val);
/* the pair key of map removed and freed (nothing when absent) */
void sc_snode_remove(sc_snode* map, const char* key);
/* n and everything below it located at file:line:col */
void sc_snode_relocate(sc_snode* n, const char* file, int line, int col);
/* Emit the tree as YAML text (owned by the caller, sc_free). */
sc_status sc_snode_emit(const sc_snode* root, char** out, sc_error* err);

#endif
