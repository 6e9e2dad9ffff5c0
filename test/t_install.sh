#!/usr/bin/env bash
# make install: exactly the user's tools go to PREFIX (bin/ and share/simc/,
# and the C API: include/simc.h, lib/libsimc.so and lib/pkgconfig/simc.pc),
# and they work from another directory with nothing of the source tree: only
# PREFIX/bin, /usr/bin and /bin on PATH, an empty environment.  simc on a
# copied scene, h5compare (a run against itself: 0, against another run:
# nonzero), simc-view (a page with the run's scene and bodies), sweep over 2
# points (finding the installed simc beside itself), h5summary.py, plot.py
# (also through a symlink), compare_report.py, gen_clutter.sh | scene_check;
# none of the project's own tools (tools/bench, tools/results, tools/dev,
# sap_bench); DESTDIR stages the same tree under it, which runs where it is;
# make uninstall leaves nothing.
set -u
cd "$(dirname "$0")/.." || exit 1
BIN=${BIN:-bin}
. test/shlib.sh
tmp=$(mktemp -d)
# INSTALL_KEEP=1 keeps the temporary directory (prefix/, work/, dest/)
trap 'if [ -n "${INSTALL_KEEP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi' EXIT
root=$PWD
build=release; [ "$BIN" = build/debug/bin ] && build=debug
# a make of its own (not the jobserver of the make test that runs this file),
# installing the binaries under test (BIN)
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BIN make -s --no-print-directory -C "$root" BUILD=$build "$@"; }

prefix=$tmp/prefix
mk install PREFIX="$prefix" >"$tmp/install.log" 2>&1
ok install_exit0 "[ $? = 0 ] || { cat '$tmp/install.log'; false; }"

# exactly these files, nothing else
cat >"$tmp/want" <<'EOF'
bin/compare_report.py
bin/gen_chain.sh
bin/gen_clutter.sh
bin/h5compare
bin/h5summary.py
bin/plot.py
bin/sap_trace.py
bin/scene_check
bin/simc
bin/simc-view
bin/state_at.py
bin/sweep
include/simc.h
lib/libsimc.so
lib/libsimc.so.0
lib/libsimc.so.0.1
lib/pkgconfig/simc.pc
lib/python3/dist-packages/simc/__init__.py
share/simc/simc_h5.py
share/simc/simc_view_page.html
EOF
(cd "$prefix" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/got"
ok installed_exactly_the_user_tools "diff '$tmp/want' '$tmp/got'"
ok project_tools_not_installed "! find '$prefix' \\( -name 'bench*' -o -name sap_bench -o -name 'validate*' \
  -o -name 'results.py' -o -name 'lcp_check*' -o -name 'regen_golden.sh' -o -name 'check_includes.sh' \\) | grep -q ."
ok entry_points_executable "for f in simc h5compare scene_check sweep simc-view plot.py h5summary.py; do \
  [ -x '$prefix/bin/'\$f ] || exit 1; done"

# run(DIR, command...): in DIR, with an empty environment and only the
# installed bin/ (then the system's) on PATH
run() { local d=$1; shift; (cd "$d" && env -i HOME="$tmp/home" LANG=C.UTF-8 PATH="$prefix/bin:/usr/bin:/bin" "$@"); }
mkdir -p "$tmp/home" "$tmp/work"
w=$tmp/work
cp scenes/sphere_drop.yaml "$w/drop.yaml"

run "$w" simc drop.yaml -o a.h5 --duration 0.4 --quiet >"$tmp/o" 2>&1
ok simc_runs "[ $? = 0 ] && [ \"\$(status_of '$w/a.h5')\" = complete ]"
run "$w" simc drop.yaml -o b.h5 --duration 0.4 --quiet --set 'gravity=[0,0,-9.7]' >"$tmp/o" 2>&1
run "$w" h5compare a.h5 a.h5 >"$tmp/o" 2>&1
ok h5compare_same_run_0 "[ $? = 0 ]"
run "$w" h5compare a.h5 b.h5 >"$tmp/o" 2>&1; rc=$?
ok h5compare_other_run_nonzero "[ $rc != 0 ] && grep -q DIFF '$tmp/o'"

run "$w" simc-view a.h5 -o view.html >"$tmp/o" 2>&1
ok simc_view_writes_page "[ $? = 0 ] && [ -s '$w/view.html' ] && grep -q sphere_drop '$w/view.html' &&
  grep -q '\"ball\"' '$w/view.html' && ! grep -q '@@[A-Z_]*@@' '$w/view.html' && grep -qi 'THREE' '$w/view.html'"

run "$w" sweep drop.yaml --out sw --grid contact.defaults.friction=0.2,0.6 -- --duration 0.05 >"$tmp/o" 2>&1
ok sweep_two_points "[ $? = 0 ] && [ \$(ls '$w'/sw/runs/*.h5 | wc -l) = 2 ] && [ \$(grep -c complete '$w/sw/summary.csv') = 2 ]"
ok sweep_uses_installed_simc "grep -q '$prefix/bin/simc ' '$w/sw/jobs.txt'"

run "$w" h5summary.py --header a.h5 >"$tmp/sum.csv" 2>&1
ok h5summary_row "[ $? = 0 ] && [ \$(wc -l <'$tmp/sum.csv') = 2 ] && grep -q '^complete,' '$tmp/sum.csv'"
png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]; }
run "$w" plot.py a.h5 -o a.png >"$tmp/o" 2>&1
ok plot_png "[ $? = 0 ] && png '$w/a.png'"
# through a symlink elsewhere: the helpers are found from the resolved path
mkdir -p "$tmp/links" && ln -s "$prefix/bin/plot.py" "$tmp/links/simc-plot"
run "$w" "$tmp/links/simc-plot" a.h5 -o b.png --what energy >"$tmp/o" 2>&1
ok plot_through_symlink "[ $? = 0 ] && png '$w/b.png'"
run "$w" compare_report.py drop.yaml --out cr --duration 0.05 --quiet >"$tmp/o" 2>&1
ok compare_report_finds_simc "[ $? = 0 ] && [ -s '$w/cr/report.md' ] && [ -f '$w/cr/lcp.h5' ]"
run "$w" sh -c 'gen_clutter.sh 8 >c8.yaml && scene_check c8.yaml' >"$tmp/o" 2>&1
ok gen_clutter_scene_check "[ $? = 0 ] && grep -q 'name: clutter8' '$w/c8.yaml'"

# the C API (include/simc.h, libsimc.so): a program built outside the source
# tree with the installed pkg-config file only, run from the installed
# library (test/api/api_check.c says what it checks); its runs of the
# gripper equal the command line's bit for bit (the scene's commands, and
# 3 N on each motor set through simc_set_ctrl against the same command in
# the scene), and so does the file its recorder wrote (h5compare, zero
# tolerances); valgrind finds no error or definite leak in it; the library
# exports the API's functions and nothing else
cp test/gripper_hold.yaml "$w/gripper.yaml"
pcpath=$prefix/lib/pkgconfig
cc -std=c11 -Wall -Wextra -Werror $(PKG_CONFIG_PATH=$pcpath pkg-config --cflags simc) test/api/api_check.c \
  $(PKG_CONFIG_PATH=$pcpath pkg-config --libs simc) -lm -o "$tmp/api_check" >"$tmp/cc.log" 2>&1
ok api_builds_from_installed_files "[ $? = 0 ] || { cat '$tmp/cc.log'; false; }"
run "$w" env LD_LIBRARY_PATH="$prefix/lib" "$tmp/api_check" gripper.yaml 200 api >"$tmp/api.out" 2>&1
cat "$tmp/api.out"
run "$w" simc gripper.yaml --set time.duration=0.2 -o g1.h5 --quiet >"$tmp/o" 2>&1
run "$w" simc gripper.yaml --set time.duration=0.2 --set actuators.left.command=3.0 \
  --set actuators.right.command=3.0 -o g2.h5 --quiet >"$tmp/o" 2>&1
last_q() { /usr/bin/python3 -c 'import sys, h5py; [print(repr(float(x))) for x in h5py.File(sys.argv[1], "r")["q"][-1]]' "$1"; }
norm_q() { /usr/bin/python3 -c 'import sys; [print(repr(float(x))) for x in open(sys.argv[1])]' "$1"; }
ok api_run_equals_cli_bitwise "cmp -s <(last_q '$w/g1.h5') <(norm_q '$w/api.cmd.q') && [ -s '$w/api.cmd.q' ]"
ok api_ctrl_equals_cli_command_bitwise "cmp -s <(last_q '$w/g2.h5') <(norm_q '$w/api.ctrl.q') && [ -s '$w/api.ctrl.q' ]"
ok api_recorder_file_equals_cli "'$prefix/bin/h5compare' '$w/api.rec.h5' '$w/g1.h5' --rtol 0 --atol 0 >'$tmp/rec.cmp' 2>&1 ||
  { cat '$tmp/rec.cmp'; false; }"
ok api_exports_only_the_api "[ \"\$(nm -D --defined-only '$prefix/lib/libsimc.so' | awk '{print \$3}' | grep -v '^simc_' | wc -l)\" = 0 ] &&
  [ \"\$(nm -D --defined-only '$prefix/lib/libsimc.so' | grep -c ' T simc_')\" -ge 20 ]"
if command -v valgrind >/dev/null; then
  (cd "$w" && LD_LIBRARY_PATH="$prefix/lib" OPENBLAS_NUM_THREADS=1 valgrind -q --error-exitcode=9 \
    --leak-check=full --errors-for-leak-kinds=definite "$tmp/api_check" gripper.yaml 20 vg) >"$tmp/vg.log" 2>&1
  ok api_valgrind_clean "[ $? = 0 ] || { tail -30 '$tmp/vg.log'; false; }"
else
  echo "FAIL api_valgrind_clean"; echo "  valgrind is missing: make test installs it"
fi

# the Python package installed beside the library finds it there
run "$w" env PYTHONPATH="$prefix/lib/python3/dist-packages" /usr/bin/python3 -c \
  'import simc; m = simc.load("gripper.yaml"); d = m.data(); m.step(d, 5); print(simc._lib._name, d.time)' >"$tmp/py.out" 2>&1
ok python_package_installed "[ $? = 0 ] && grep -q '^$prefix/lib/libsimc.so.0 0.005' '$tmp/py.out' || { cat '$tmp/py.out'; false; }"

# DESTDIR: the PREFIX tree staged under it, runnable where it is
mk install PREFIX=/opt/simc DESTDIR="$tmp/dest" >"$tmp/install2.log" 2>&1
ok destdir_staged "[ $? = 0 ] && [ -x '$tmp/dest/opt/simc/bin/simc-view' ] && [ -f '$tmp/dest/opt/simc/share/simc/simc_view_page.html' ] &&
  [ \"\$(cd '$tmp/dest/opt/simc' && find . -type f -o -type l | wc -l)\" = \$(wc -l <'$tmp/want') ]"
run "$w" "$tmp/dest/opt/simc/bin/simc-view" a.h5 -o view2.html >"$tmp/o" 2>&1
ok destdir_tree_runs "[ $? = 0 ] && cmp -s '$w/view.html' '$w/view2.html'"

mk uninstall PREFIX="$prefix" >"$tmp/uninstall.log" 2>&1
ok uninstall_leaves_nothing "[ $? = 0 ] && [ -z \"\$(find '$prefix' -type f -o -type l)\" ] && [ ! -e '$prefix/share/simc' ]"
