#!/usr/bin/env bash
# tools/simc-view's output and embedded data:
#  - never writes over its input (-o RUN.h5, an input named x.html whose
#    default page is itself), nor over a file that is not a page it wrote
#    (-o scene.yaml) unless --force; rewrites its own page freely;
#  - a body or scene name holding "<!--<script>" (or "</script>") cannot
#    break out of the page's data: the page has exactly the template's
#    <script elements and the name comes back from the embedded JSON.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. test/shlib.sh

"$BIN/simc" scenes/sphere_drop.yaml -o "$tmp/run.h5" --duration 0.05 --quiet
sum0=$(md5sum <"$tmp/run.h5")
tools/simc-view "$tmp/run.h5" -o "$tmp/run.h5" >/dev/null 2>"$tmp/e1"; rc=$?
ok view_refuses_own_input "[ $rc = 1 ] && grep -q 'input' '$tmp/e1' && [ \"\$(md5sum <'$tmp/run.h5')\" = '$sum0' ]"
cp "$tmp/run.h5" "$tmp/x.html"
tools/simc-view "$tmp/x.html" >/dev/null 2>/dev/null; rc=$?
ok view_refuses_input_named_html "[ $rc = 1 ] && cmp -s '$tmp/run.h5' '$tmp/x.html'"
cp scenes/sphere_drop.yaml "$tmp/scene.yaml"
tools/simc-view "$tmp/run.h5" -o "$tmp/scene.yaml" >/dev/null 2>"$tmp/e2"; rc=$?
ok view_refuses_non_page "[ $rc = 1 ] && grep -q 'not a page' '$tmp/e2' && cmp -s scenes/sphere_drop.yaml '$tmp/scene.yaml'"
tools/simc-view "$tmp/run.h5" -o "$tmp/page.html" >/dev/null && tools/simc-view "$tmp/run.h5" -o "$tmp/page.html" >/dev/null
ok view_rewrites_own_page "[ $? = 0 ] && [ -s '$tmp/page.html' ]"
tools/simc-view "$tmp/run.h5" -o "$tmp/scene.yaml" --force >/dev/null
ok view_force_replaces "grep -q 'simc-view' '$tmp/scene.yaml'"

printf 'simc: 1\nname: "s<!--<script>"\ntime: {step: 1.0e-3, duration: 0.01}\nbodies:\n  - name: "b<!--<script></script>"\n    joint: {type: free}\n    mass: 1\n    inertia: solid\n    geometry:\n      - {shape: sphere, radius: 0.1}\n' >"$tmp/evil.yaml"
"$BIN/simc" "$tmp/evil.yaml" -o "$tmp/evil.h5" --quiet && tools/simc-view "$tmp/evil.h5" -o "$tmp/evil.html" >/dev/null
check_scripts() {
  $PY - "$tmp/evil.html" tools/simc_view_page.html <<'PY'
import sys, re, json
page = open(sys.argv[1], encoding="utf-8").read()
tpl = open(sys.argv[2], encoding="utf-8").read()
n_page = page.count("<script")
n_tpl = tpl.count("<script")
m = re.search(r'b\\u003c!--\\u003cscript>\\u003c/script>', page)
print("  <script in the page %d, in the template %d; name escaped: %s" % (n_page, n_tpl, bool(m)))
sys.exit(0 if n_page == n_tpl and m else 1)
PY
}
ok view_names_cannot_break_page check_scripts

# the second run of a comparison brings its own names into the page (its
# file name, its scene name, its solver): a hostile one is escaped the same way
"$BIN/simc" "$tmp/evil.yaml" -o "$tmp/c<!--<script>.h5" --quiet --set 'name=t</script><!--<script>' &&
tools/simc-view "$tmp/evil.h5" "$tmp/c<!--<script>.h5" -o "$tmp/evil2.html" >/dev/null
check_second() {
  $PY - "$tmp/evil2.html" tools/simc_view_page.html <<'PY'
import sys, re, json
page = open(sys.argv[1], encoding="utf-8").read()
tpl = open(sys.argv[2], encoding="utf-8").read()
n_page, n_tpl = page.count("<script"), tpl.count("<script")
D = json.loads(re.search(r'id="simc-data">(.*?)</script>', page, re.S).group(1))
back = (D["overlay"]["meta"]["file"], D["compare"]["file"], D["overlay"]["meta"]["scene_name"])
want = ("c<!--<script>.h5", "c<!--<script>.h5", "t</script><!--<script>")
print("  <script in the page %d, in the template %d; the second run's names back: %s" % (n_page, n_tpl, back))
sys.exit(0 if n_page == n_tpl and back == want else 1)
PY
}
ok view_second_run_names_cannot_break_page check_second
