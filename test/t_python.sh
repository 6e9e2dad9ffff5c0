#!/usr/bin/env bash
# The Python package (python/simc) over this build's libsimc.so, with
# Debian's /usr/bin/python3 and python3-pytest: python/tests/test_simc.py
# (a constant control equals the command line's run with that command, bit
# for bit; NaN gives the command back; reset repeats a run; two threads
# stepping separate data equal the serial runs; the held box's contacts
# carry its weight; located errors; h5py and simc in one process; rollout
# equals its serial loop on 1 and 2 threads; a copy steps as its source,
# bit for bit; a pushed free body against its closed form; the state
# views: a write in place steps as set_state, bit for bit, a bad one is
# refused by name; views outlive reset and their names), then
# the two examples reaching their goals: the swing-up (upright within
# 0.05 rad and held over the last 2 s) and the friction fit (within 1 %).
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
. test/shlib.sh
out=build/release; [ "$BIN" = build/debug/bin ] && out=build/debug
lib=$(ls "$out"/libsimc.so.[0-9]*.[0-9]* 2>/dev/null | head -1)
if [ -z "$lib" ]; then echo "FAIL python_library_built"; echo "  no libsimc.so in $out (make lib)"; exit 0; fi
pre=""
# a sanitized library needs its runtimes loaded first in a Python process
if [ "$out" = build/debug ]; then
  pre="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS=detect_leaks=0
fi
export SIMC_LIB=$PWD/$lib SIMC_BIN=$PWD/$BIN/simc PYTHONPATH=$PWD/python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LD_PRELOAD="$pre" /usr/bin/python3 -m pytest -q -rA -p no:cacheprovider python/tests >"$tmp/py.log" 2>&1
sed -n 's/^PASSED [^:]*::\([a-z_0-9]*\).*/PASS python_\1/p; s/^FAILED [^:]*::\([a-z_0-9]*\).*/FAIL python_\1/p; s/^ERROR \(.*\)/FAIL python_\1/p' "$tmp/py.log"
grep -q '^FAILED\|^ERROR' "$tmp/py.log" && tail -40 "$tmp/py.log"
grep -q ' passed' "$tmp/py.log" || { echo "FAIL python_tests_ran"; tail -20 "$tmp/py.log"; }
LD_PRELOAD="$pre" /usr/bin/python3 python/examples/swing_up.py >"$tmp/up.log" 2>&1
ok python_example_swing_up "[ $? = 0 ] || { cat '$tmp/up.log'; false; }"; cat "$tmp/up.log" | sed 's/^/  /'
LD_PRELOAD="$pre" /usr/bin/python3 python/examples/fit_friction.py >"$tmp/fit.log" 2>&1
ok python_example_fit_friction "[ $? = 0 ] || { cat '$tmp/fit.log'; false; }"; cat "$tmp/fit.log" | sed 's/^/  /'
