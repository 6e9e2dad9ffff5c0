/* scene: YAML scene files -> sc_model.
 *
 * A scene is one YAML document (doc/scenes.md).  Loading parses it
 * with libyaml into a small located node tree, applies "--set KEY=VALUE"
 * overrides on that tree, validates it against the schema and builds a
 * finalized sc_model.  Every error carries file:line:col (1-based) and a
 * message "path.to.key: what is wrong (expected ...)".  Errors in an
 * override are located as file "--set", line = the override's 1-based index
 * among the overrides, col = column within "KEY=VALUE" of the offending path
 * segment or value node; an error about an override's whole VALUE is named by
 * its KEY and located at column 1 ("--set:2:1: bodies.ball.mass: must be > 0
 * (got -1)").  Syntax errors carry libyaml's problem mark and text.  An
 * error inside a command's CSV file is located in that file
 * ("f.csv:7:12: commands[0].lift: ..."). */
#ifndef SC_SCENE_H
#define SC_SCENE_H

#include "core/core.h"
#include "model/model.h"
#include "scene/limits.h"

/* Load a scene file, apply overrides "KEY=VALUE" (dotted paths; a list
 * element is addressed by index or by its `name`), validate, and build a
 * model.  On error returns SC_ERR_SCENE (or SC_ERR_IO if the file cannot be
 * read), fills err and sets *out to NULL.  The model owns name, scene_path
 * and scene_yaml (the scene after overrides, re-loadable). */
sc_status sc_scene_load(const char* path, const char* const* sets, int nsets, sc_model** out,
                        sc_error* err);

/* Same from a string (tests); `name` is used as the file name in errors and
 * as scene_path, and command files are relative to its directory (to the
 * working directory when it has none). */
sc_status sc_scene_load_string(const char* text, const char* name, const char* const* sets,
                               int nsets, sc_model** out, sc_error* err);

/* Same from len bytes in memory, which may hold NUL bytes (they are reported
 * as errors like in a file); text need not be NUL-terminated.  This is what
 * sc_scene_load does after reading the file, so errors are located alike. */
sc_status sc_scene_load_buffer(const char* text, size_t len, const char* name,
                               const char* const* sets, int nsets, sc_model** out,
                               sc_error* err);

/* Rotational inertia of a uniform solid of unit density about its own centre,
 * in its own frame (row-major 3x3), and its volume.  size as in geom_size
 * (box: half extents).  Returns 0 for shapes without volume (plane). */
double sc_scene_shape_inertia(sc_geom_type type, const double size[3], double I[9]);

#endif
