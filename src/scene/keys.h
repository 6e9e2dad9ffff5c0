/* keys: the scene schema's table of keys.
 *
 * One row per key a scene may hold: the section it belongs to, its type, unit,
 * default, allowed range and a one-line meaning.  The loader takes the keys a
 * map may hold from this table (sc_scene_section_keys), so a key the table
 * does not list is refused as unknown; doc/scenes.md's key reference is
 * printed from it, and test/test_scene_keys.c checks every row against the
 * loader: each stated default loads the same model as the key left out, each
 * stated range refuses a value just outside it.
 *
 * Sections are named as a reader finds them in a file: "" is the top level,
 * "contact.lcp" a map inside a map, "bodies[]" each element of a list,
 * "materials.<name>" each value of a map of names, "<shape>" the keys every
 * shape has and "<shape> box" those of one shape type, "<pose>" the map of
 * `origin` and `pose`, "springs[] joint" one type of spring (and "actuators[]
 * motor" one type of actuator: its keys add to those of "actuators[]"). */
#ifndef SC_SCENE_KEYS_H
#define SC_SCENE_KEYS_H

typedef struct sc_scene_key {
  const char* section; /* see above */
  const char* key;
  const char* type;    /* number, integer, true/false, name, [x, y, z], map, list, or the values */
  const char* unit;    /* SI unit, "-" for a pure number, "" when not a quantity */
  const char* def;     /* the default as YAML text (a literal the loader accepts), "required",
                          or a description in parentheses when it depends on other keys */
  const char* range;   /* "> 0", ">= 0", "!= 0", "[0, 1]", ">= N" for integers, or "" */
  const char* doc;     /* what the key sets */
} sc_scene_key;

/* The table, in document order; *n is set to its length. */
const sc_scene_key* sc_scene_keys(int* n);

/* The keys of a section in table order into names[0..max); returns their
 * number (at most max). */
int sc_scene_section_keys(const char* section, const char** names, int max);

#endif
