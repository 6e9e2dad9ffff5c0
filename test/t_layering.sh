#!/usr/bin/env bash
# The module layering (tools/dev/check_includes.sh) holds, and the checker does
# catch a violation (a temporary copy of the tree with one bad include).
cd "$(dirname "$0")/.." || exit 1
if out=$(tools/dev/check_includes.sh 2>&1); then echo "PASS layering"; else echo "FAIL layering"; echo "$out"; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tools/dev" && cp tools/dev/check_includes.sh "$tmp/tools/dev/" && cp -r src "$tmp/"
sed -i '1i #include "integrator/integrator.h"' "$tmp/src/dynamics/dynamics.c"
if (cd "$tmp" && tools/dev/check_includes.sh >/dev/null 2>&1); then echo "FAIL layering_detects_violation"; else echo "PASS layering_detects_violation"; fi
