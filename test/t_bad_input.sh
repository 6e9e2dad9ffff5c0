#!/usr/bin/env bash
# Bad-input tests: every test/bad/*.yaml must be rejected with the located
# message its first line announces:
#   # expect: LINE:COL: key:          (prefixed with the file's path)
#   # expect: --set:K:COL: key:       (an error in the K-th override)
#   # expect: FILE:LINE:COL: key:     (an error in a file the scene reads, FILE
#                                      beside it: a command's CSV file)
#   # set: KEY=VALUE                  (zero or more overrides, in order)
#   # exit: N                         (expected exit status, default 1)
# plus a few cases made on the fly (missing file, directory, empty file,
# pure binary data, deep nesting, oversized file) and valid controls.
# CHECK (default "$BIN/scene_check") is the program under test; it must take
# FILE [--set K=V]..., print the message on stderr and exit 1 / 3 / 0.
set -u
cd "$(dirname "$0")/.."
BIN=${BIN:-bin}
CHECK=${CHECK:-"$BIN/scene_check"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME EXPECTED_EXIT EXPECTED_PREFIX FILE [ARGS...]
run() {
  local name=$1 want_rc=$2 want=$3; shift 3
  local out rc
  # a runaway parse must not hang the suite
  out=$(timeout 10 "$CHECK" "$@" 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -eq "$want_rc" ] && [ "${out#"$want"}" != "$out" ]; then
    echo "PASS $name"
  else
    echo "FAIL $name: exit $rc (want $want_rc)"
    echo "  got:  ${out%%$'\n'*}"
    echo "  want: $want..."
  fi
}

n=0
for f in test/bad/*.yaml; do
  name=bad/$(basename "$f" .yaml)
  expect=$(head -n 1 "$f" | sed -n 's/^# expect: //p')
  if [ -z "$expect" ]; then echo "FAIL $name: no '# expect:' first line"; continue; fi
  rc=$(sed -n 's/^# exit: //p' "$f" | head -n 1)
  args=()
  while IFS= read -r s; do args+=(--set "$s"); done < <(sed -n 's/^# set: //p' "$f")
  case "$expect" in
    --set:*) want=$expect ;;
    [0-9]*) want="$f:$expect" ;;
    *) want="$(dirname "$f")/$expect" ;;
  esac
  run "$name" "${rc:-1}" "$want" "$f" ${args[@]+"${args[@]}"}
  n=$((n + 1))
done
[ "$n" -ge 30 ] && echo "PASS bad/at_least_30_cases" || echo "FAIL bad/at_least_30_cases: only $n"

# made on the fly
run gen/missing_file 3 "$tmp/nope.yaml: cannot open" "$tmp/nope.yaml"
mkdir "$tmp/dir.yaml"
run gen/directory 3 "$tmp/dir.yaml: cannot read" "$tmp/dir.yaml"
: >"$tmp/empty.yaml"
run gen/empty_file 1 "$tmp/empty.yaml:1:1: scene:" "$tmp/empty.yaml"
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR' >"$tmp/garbage.yaml"
run gen/binary_png 1 "$tmp/garbage.yaml:1:1: invalid input:" "$tmp/garbage.yaml"
printf '\xff\xfe\xfd\xfc' >"$tmp/garbage2.yaml"
run gen/binary_bytes 1 "$tmp/garbage2.yaml:1:1: invalid input:" "$tmp/garbage2.yaml"
{ printf 'simc: '; head -c 200000 /dev/zero | tr '\0' '['; } >"$tmp/deep.yaml"
run gen/deep_nesting_200k 1 "$tmp/deep.yaml:1:70: nesting is deeper than 64 levels" "$tmp/deep.yaml"
{ printf 'simc: 1\nname: x\n'; head -c 34000000 /dev/zero | tr '\0' '#'; } >"$tmp/huge.yaml"
run gen/oversized_file 1 "$tmp/huge.yaml:1:1: scene: the document is too large" "$tmp/huge.yaml"
rm -f "$tmp/huge.yaml"
# a FIFO nobody writes to must not hang the reader (nor any non-regular file)
mkfifo "$tmp/fifo.yaml"
run gen/fifo 3 "$tmp/fifo.yaml: cannot read the scene: not a regular file" "$tmp/fifo.yaml"
run gen/char_device 3 "/dev/zero: cannot read the scene: not a regular file" /dev/zero
# text packed denser than any scene hits the node cap (10000 + one per 4
# bytes): 200000 list items of 2 bytes; the first item past the cap is
# node 10000 + 400009/4 + 1 = 110003, i.e. item 109999 at column 1 + 2*109999
{ printf '['; head -c 200000 /dev/zero | tr '\0' '1' | sed 's/./&,/g'; printf '1]'; } >"$tmp/dense.yaml"
run gen/dense_nodes 1 "$tmp/dense.yaml:1:220000: too many YAML nodes" "$tmp/dense.yaml"
run gen/no_args 1 "usage:"

# controls: a valid scene passes, also with overrides that create keys
cat >"$tmp/ok.yaml" <<'YAML'
simc: 1
time: {step: 0.001, duration: 1}
bodies:
  - name: ball
    joint: {type: free}
    mass: 1
    inertia: solid
    geometry: [{shape: sphere, radius: 0.1}]
static: [{shape: plane}]
YAML
run ok/valid_scene 0 "$tmp/ok.yaml: ok" "$tmp/ok.yaml"
run ok/valid_overrides 0 "$tmp/ok.yaml: ok" "$tmp/ok.yaml" --set integrator.scheme=theta \
  --set 'integrator.theta={q: 0.5, v: 1, vq: 0.5}' --set contact.defaults.friction=0.3 \
  --set bodies.ball.initial.v=[1,0,0,0,0,0] --set static.0.offset=-0.5
# a UTF-8 byte-order mark before a valid scene
{ printf '\xef\xbb\xbf'; cat "$tmp/ok.yaml"; } >"$tmp/bom.yaml"
run ok/utf8_bom 0 "$tmp/bom.yaml: ok" "$tmp/bom.yaml"
# the node cap scales with the document: a generated 10000-body scene loads
# (through the loader only: simc --check also sizes the run's dense data)
case "$CHECK" in
  *simc_check*) ;;
  *) tools/gen_clutter.sh 10000 1e-3 0.1 >"$tmp/clutter10k.yaml"
     run ok/clutter_10000_bodies 0 "$tmp/clutter10k.yaml: ok (10000 bodies, 10005 geoms" "$tmp/clutter10k.yaml" ;;
esac
