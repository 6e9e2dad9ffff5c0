#!/usr/bin/env bash
# check_includes.sh: enforce the module layering of doc/architecture.md: a module may
# include only modules of a lower layer (and itself; the public header
# include/simc.h, which includes nothing, counts as the lowest); solvers see only core
# and linalg; the command line (cli) includes simc.h alone; yaml.h, hdf5.h and lapacke.h/cblas.h stay in
# scene, io_h5 and linalg, qhull in mesh, libxml2 in scene (and hdf5.h in src/scene/h5table.c, the loader's
# reader of command datasets, which sits below io_h5).  Prints one line per
# violation; exit 1 if any.
cd "$(dirname "$0")/../.." || exit 2
layer() {
  case "$1" in
    core|simc.h) echo 0;; spatial|linalg|mesh) echo 1;; model) echo 2;;
    scene|state) echo 3;; dynamics|collision) echo 4;;
    contact|solver_sap|solver_lcp) echo 5;; island|io_h5|constraint) echo 6;; integrator) echo 7;;
    run) echo 8;; api) echo 9;; cli) echo 10;;
    *) echo 99;;
  esac
}
bad=0
for f in src/*/*.c src/*/*.h; do
  mod=$(basename "$(dirname "$f")")
  lm=$(layer "$mod")
  while IFS= read -r inc; do
    dep=${inc%%/*}
    [ "$dep" = "$mod" ] && continue
    ld=$(layer "$dep")
    if [ "$ld" -ge "$lm" ]; then
      echo "$f: includes $inc (layer $ld) from $mod (layer $lm)"; bad=1
    fi
    # the command line drives the library through its public API alone
    if [ "$mod" = cli ] && [ "$inc" != simc.h ]; then
      echo "$f: the command line includes $inc (only simc.h)"; bad=1
    fi
    case "$mod" in solver_*)
      case "$dep" in core|linalg) ;; *) echo "$f: a solver includes $inc"; bad=1;; esac;;
    esac
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
  for sys in yaml.h:scene hdf5.h:io_h5 lapacke.h:linalg cblas.h:linalg libqhull_r/qhull_ra.h:mesh libxml/parser.h:scene; do
    h=${sys%%:*}; owner=${sys##*:}
    [ "$h" = hdf5.h ] && [ "$f" = src/scene/h5table.c ] && continue
    if grep -q "^#include <$h>" "$f" && [ "$mod" != "$owner" ]; then
      echo "$f: includes <$h> outside src/$owner"; bad=1
    fi
  done
done
exit $bad
