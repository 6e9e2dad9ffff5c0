#!/usr/bin/env bash
# make golden: regenerate test/golden/*.h5 deliberately, and show for each
# case how the new file differs from the old one (h5compare's report).
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
while IFS='|' read -r name scene args; do
  name=$(echo "$name" | xargs); scene=$(echo "$scene" | xargs)
  case "$name" in ''|'#'*) continue;; esac
  gold=test/golden/$name.h5
  new=$(mktemp --suffix=.h5)
  # shellcheck disable=SC2086
  "$BIN/simc" "$scene" -o "$new" --quiet $args || { echo "$name: simc failed"; rm -f "$new"; continue; }
  if [ -f "$gold" ]; then
    if "$BIN/h5compare" "$gold" "$new" --rtol 0 --atol 0 >/tmp/regen.$$ 2>&1; then
      echo "$name: unchanged"
    else
      echo "$name: changed:"; grep -E 'DIFF|only in' /tmp/regen.$$ | sed 's/^/  /'
    fi
    rm -f /tmp/regen.$$
  else
    echo "$name: new"
  fi
  mv "$new" "$gold"
done <test/golden/cases.txt
