#!/usr/bin/env bash
# run.sh MODEL.xml NSTEPS [OPTIONS]: time NSTEPS mj_step calls on MODEL.xml with MuJoCo 3
# (official WebAssembly build, npm package mujoco-js pinned in package.json)
# and print mjbench.mjs's line
#   steps_per_second=... mean_ncon=... mean_solver_iter=... energy_drift=... mujoco_version=...
# Installs the package once (npm ci, into node_modules next to this script)
# when node_modules is missing.  Exit status: that of mjbench.mjs (0; 1 model
# error; 3 MuJoCo warnings), or 2 when node/npm is missing or the install
# fails (one line on stderr, nothing on stdout), or on a usage error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 2 ]; then
  echo "usage: $0 MODEL.xml NSTEPS [OPTIONS]" >&2
  exit 2
fi
command -v node >/dev/null 2>&1 || { echo "mujoco_js/run.sh: node is not installed: no MuJoCo WASM figures" >&2; exit 2; }
if [ ! -f "$here/node_modules/mujoco-js/package.json" ]; then
  command -v npm >/dev/null 2>&1 || { echo "mujoco_js/run.sh: npm is not installed: no MuJoCo WASM figures" >&2; exit 2; }
  if ! (cd "$here" && npm ci --silent --no-audit --no-fund >/dev/null 2>&1); then
    rm -rf "$here/node_modules"
    echo "mujoco_js/run.sh: 'npm ci' failed in $here (offline? see package.json): no MuJoCo WASM figures" >&2
    exit 2
  fi
fi
exec node "$here/mjbench.mjs" "$@"
