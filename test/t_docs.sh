#!/usr/bin/env bash
# The repository is self-contained: every relative link and image in
# README.md, doc/ and results/ resolves (file and heading anchor), and no
# tracked file refers to a document outside the repository
# (tools/dev/check_docs.py); the checker catches a broken link, a missing
# anchor and an outside reference planted in a temporary copy.
cd "$(dirname "$0")/.." || exit 1
. test/shlib.sh
PY=/usr/bin/python3
if out=$($PY tools/dev/check_docs.py 2>&1); then echo "PASS docs_self_contained"
else echo "FAIL docs_self_contained"; echo "$out" | head -40; fi
# no name of the documents the project started from (spelled in pieces so
# that this file does not match itself)
pat="share""d/\\|DESIGN"".md"
hits=$(grep -rn "$pat" src tools test README.md doc 2>/dev/null)
ok no_outside_names '[ -z "$hits" ]'
[ -n "$hits" ] && echo "$hits" | head

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/r"
# a copy of the tracked tree (with the working versions) as its own repository
git ls-files -z | xargs -0 -I{} cp --parents {} "$tmp/r/" 2>/dev/null
(cd "$tmp/r" && git init -q && git add -A >/dev/null 2>&1)
planted() {  # NAME FILE TEXT: append TEXT to FILE in the copy; the checker must fail
  (cd "$tmp/r" && cp "$2" "$2.orig" && printf '%s\n' "$3" >>"$2" && git add -A >/dev/null 2>&1)
  if $PY "$tmp/r/tools/dev/check_docs.py" "$tmp/r" >/dev/null 2>&1; then echo "FAIL $1"; else echo "PASS $1"; fi
  (cd "$tmp/r" && mv "$2.orig" "$2" && git add -A >/dev/null 2>&1)
}
ok copy_is_clean "$PY $tmp/r/tools/dev/check_docs.py $tmp/r >/dev/null"
planted detects_broken_link doc/cli.md 'See [nowhere](nowhere.md).'
planted detects_missing_anchor README.md 'See [the step](doc/step.md#no-such-heading).'
planted detects_link_outside doc/step.md 'See [notes](../../notes.md).'
planted detects_outside_document src/core/core.c "/* see ../share""d/notes.md */"
planted detects_missing_path doc/tools.md 'Run `tools/no_such_tool.sh`.'
