/* limits: the caps that keep hostile scene text cheap to reject.
 *
 * Shared by the YAML reader (tree.c, which enforces them while it builds the
 * node tree) and the loader (scene.c, which refuses an oversized file before
 * reading it); on their own so that neither includes the other.  Aliases are
 * refused, so the node tree grows at most linearly with the text; the node
 * cap scales with the document (one node per SC_SCENE_BYTES_PER_NODE bytes;
 * honest scenes use about 6 or more, as tools/gen_clutter.sh does) so that
 * large generated scenes load (100 000 clutter bodies: 18.6 MB, 3.05 M nodes)
 * while text packed denser than any scene ("[1,1,1,...") stops early, and the
 * absolute caps bound the memory of the tree (about 100 bytes a node).
 * Command tables read from other files (commands.c: CSV text, HDF5
 * datasets) are capped alike: a CSV file's size, the rows of any one table
 * and the samples of all commands together, each refusal a located error. */
#ifndef SC_SCENE_LIMITS_H
#define SC_SCENE_LIMITS_H

#include <stddef.h>

#define SC_SCENE_MAX_BYTES (32 << 20)    /* document size */
#define SC_SCENE_MAX_NODES 3500000       /* YAML nodes (scalars + collections) */
#define SC_SCENE_BYTES_PER_NODE 4        /* node cap per byte of document */
#define SC_SCENE_MIN_NODES 10000         /* node cap of small documents */
#define SC_SCENE_MAX_DEPTH 64            /* nesting of collections */
#define SC_SCENE_MAX_TABLE_BYTES (32 << 20) /* a CSV command file */
#define SC_SCENE_MAX_TABLE_ROWS 1000000  /* samples of one command (CSV rows, dataset rows) */
#define SC_SCENE_MAX_TABLE_COLUMNS 1024  /* columns of a CSV command file, time included */
#define SC_SCENE_MAX_CMD_SAMPLES 8000000 /* samples of all commands (16 bytes each) */

/* The node cap of a document of len bytes. */
static inline size_t sc_scene_max_nodes(size_t len) {
  size_t n = SC_SCENE_MIN_NODES + len / SC_SCENE_BYTES_PER_NODE;
  return n < (size_t)SC_SCENE_MAX_NODES ? n : (size_t)SC_SCENE_MAX_NODES;
}

#endif
