#!/usr/bin/env bash
# bench_wp.sh: the work-precision bench (doc/performance.md): every engine
# configuration on every scene of tools/bench/wp_scenes.sh, cost per step
# against a measured error.  Writes one file of figures per run under
# $OUT/raw (its first line the command) and then results/wp.md with its plots
# (tools/bench/wp_report.py).  Runs one at a time, so that the timings of one
# run compare.
#   BIN (default bin): where simc is; OUT (default results/wp)
#   WP_N (default 216): spheres in the piles; WP_SCENES: the scenes to run
#   (default "settled pile stack1 stack10 tower1 tower10 slide roll")
#   WP_ENGINES (default "simc ode mujoco wasm"): which engines
#   WP_RATIOS (default 1): 0 leaves out the speed ratios on the forming piles
# The settled pile starts from the pile simc's defaults formed over 2.5 s
# (velocities zeroed: the rest state every engine is asked to hold); the
# forming pile is timed over 0.6 s.  The LCP is not run on the piles (a dense
# Lemke of 600 contacts takes hours).
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
OUT=${OUT:-results/wp}
N=${WP_N:-216}
SCENES=${WP_SCENES:-settled pile stack1 stack10 tower1 tower10 slide roll}
ENGINES=${WP_ENGINES:-simc ode mujoco wasm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT/raw"
log() { echo "bench_wp: $*" >&2; }

have_ode=0; have_mj=0; have_js=0
case " $ENGINES " in *" ode "*)
  if make -s -C tools/bench/ode >/dev/null 2>&1 && [ -x bin/odebench ]; then have_ode=1
  else log "ODE harness not built (apt-get install libode-dev): no ODE figures"; fi ;;
esac
case " $ENGINES " in *" mujoco "*)
  if make -s -C tools/bench/mujoco >/dev/null 2>&1 && [ -x bin/mjbench ]; then have_mj=1
  else log "MuJoCo harness not built (apt-get install libmujoco-dev): no MuJoCo figures"; fi ;;
esac
case " $ENGINES " in *" wasm "*)
  if command -v node >/dev/null 2>&1; then have_js=1
  else log "node missing: no MuJoCo 3 (WASM) figures"; fi ;;
esac

# scene NAME -> the YAML in $tmp/NAME.yaml, its step in dt, its window in win
scene() {
  local s=$1
  win=0
  case $s in
    settled)
      dt=1e-3; win=0
      if [ ! -f "$tmp/settled.yaml" ]; then
        tools/bench/wp_settled.sh "$BIN/simc" "$N" "$tmp" >"$tmp/settled.yaml" || return 1
      fi ;;
    pile) dt=1e-3; tools/bench/wp_scenes.sh pile 1e-3 "$N" | sed 's/duration: 1.5/duration: 0.6/' >"$tmp/pile.yaml" ;;
    stack1|tower1) dt=1e-3; tools/bench/wp_scenes.sh "${s%1}" 1e-3 >"$tmp/$s.yaml" ;;
    stack10|tower10) dt=1e-2; tools/bench/wp_scenes.sh "${s%10}" 1e-2 >"$tmp/$s.yaml" ;;
    slide|roll) dt=1e-3; tools/bench/wp_scenes.sh "$s" 1e-3 >"$tmp/$s.yaml" ;;
    *) log "unknown scene $s"; return 1 ;;
  esac
}

# record SCENE ENGINE CONFIG COMMAND...: runs the command, its figures into the raw file
record() {
  local s=$1 e=$2 c=$3; shift 3
  local f="$OUT/raw/${s}__${e}__${c}.txt"
  log "$s: $e $c"
  { echo "# $*"; "$@" 2>"$tmp/err"; } >"$f.tmp"
  local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
    log "  failed ($rc): $(tail -1 "$tmp/err")"
    echo "failed rc=$rc $(tail -1 "$tmp/err")" >>"$f.tmp"
  fi
  mv "$f.tmp" "$f"
}

simc_fig() {  # simc_fig YAML WINDOW ARGS...: simc's run, then its figures
  local y=$1 w=$2; shift 2
  "$BIN/simc" "$y" -o "$tmp/run.h5" --force "$@" >/dev/null 2>"$tmp/simc.err" ||
    { tail -1 "$tmp/simc.err" >&2; return 1; }
  grep '^simc:' "$tmp/simc.err" | tail -1 | sed 's/^/# /'
  tools/bench/wp_simc.py "$tmp/run.h5" --window "$w"
}

for s in $SCENES; do
  scene "$s" || continue
  y=$tmp/$s.yaml
  steps=$(awk '/^time:/ { gsub(/[{},]/, " "); for (i = 1; i <= NF; i++) { if ($i == "step:") h = $(i + 1); if ($i == "duration:") d = $(i + 1) } } END { printf "%d", d / h + 0.5 }' "$y")
  cp "$y" "$OUT/raw/${s}.yaml"
  case " $ENGINES " in *" simc "*)
    for model in lagged sap similar; do
      for tol in 1e-3 1e-4 1e-6; do
        record "$s" simc "${model}_tol${tol}" simc_fig "$y" "$win" \
          --set contact.model=$model --set contact.tolerance=$tol
      done
    done
    # the default without the held factorization (doc/contact.md, 8.7)
    record "$s" simc "lagged_tol1e-6_cg0" simc_fig "$y" "$win" --set contact.cg_iterations=0
    record "$s" simc "lagged_tol1e-6_implicit_euler" simc_fig "$y" "$win" --set integrator.scheme=implicit_euler
    record "$s" simc "lagged_tol1e-6_symplectic_euler" simc_fig "$y" "$win" --set integrator.scheme=symplectic_euler
    case $s in settled|pile) ;; *) record "$s" simc lcp simc_fig "$y" "$win" --solver lcp ;; esac
  esac
  if [ $have_ode = 1 ]; then
    for it in 10 20 50 100 200 1000; do
      record "$s" ode "quickstep_$it" bin/odebench "$y" "$steps" "$dt" quick --iters "$it" --window "$win" --states
    done
    record "$s" ode dworldstep bin/odebench "$y" "$steps" "$dt" direct --window "$win" --states
  fi
  if [ $have_mj = 1 ] || [ $have_js = 1 ]; then
    for cfg in newton_pyramidal newton_elliptic pgs_100 pgs_1000; do
      case $cfg in
        newton_*) opt="-v solver=Newton -v cone=${cfg#newton_}" ;;
        pgs_*) opt="-v solver=PGS -v iterations=${cfg#pgs_} -v cone=pyramidal" ;;
      esac
      # shellcheck disable=SC2086
      awk -f tools/bench/mujoco/yaml2mjcf.awk -v integrator=Euler $opt "$y" >"$tmp/$s.$cfg.xml"
      [ $have_mj = 1 ] && record "$s" mujoco "$cfg" bin/mjbench "$tmp/$s.$cfg.xml" "$steps" --window "$win" --states
      [ $have_js = 1 ] && [ "$cfg" = newton_elliptic ] &&
        record "$s" wasm "$cfg" tools/bench/mujoco_js/run.sh "$tmp/$s.$cfg.xml" "$steps" --window "$win" --states
    done
  fi
done
# The speed ratios of the targets (doc/performance.md): simc's default model
# (lagged) and sap against ODE QuickStep with 20 sweeps on the pile forming,
# 216 spheres over 2 s and 1000 over 0.4 s (dt 1 ms), the three run in turn
# (A B C A B C A B C) and the median of each kept; ms per step is the step
# alone for all three (simc: /solver/wall_time; ODE: its timed step loop).
# The settled pile's ratio comes from the matrix above.
ratio_ms() {  # ratio_ms ENGINE YAML STEPS: ms per step of one run
  case $1 in
    ode) bin/odebench "$2" "$3" 1e-3 quick --iters 20 2>/dev/null ;;
    *) "$BIN/simc" "$2" -o "$tmp/ratio.h5" --force --quiet --set contact.model="$1" \
         --set output.every=1 --set output.contacts=false 2>/dev/null &&
       tools/bench/wp_simc.py "$tmp/ratio.h5" ;;
  esac | sed -n 's/.*ms_per_step=\([^ ]*\).*/\1/p'
}
if [ "${WP_RATIOS:-1}" = 1 ] && [ $have_ode = 1 ]; then
  {
    echo "# bench_wp.sh ratios: $(git describe --always --dirty 2>/dev/null) $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
    for c in "216 2.0" "1000 0.4"; do
      set -- $c
      tools/bench/wp_scenes.sh pile 1e-3 "$1" | sed "s/duration: 1.5/duration: $2/" >"$tmp/r$1.yaml"
      steps=$(awk -v d="$2" 'BEGIN { printf "%d", d / 1e-3 + 0.5 }')
      for rep in 1 2 3; do
        for e in lagged sap ode; do
          log "ratios: pile $1 over $2 s, $e (run $rep of 3)"
          echo "pile$1 $2 $e $rep $(ratio_ms "$e" "$tmp/r$1.yaml" "$steps")"
        done
      done
    done
  } >"$OUT/raw/ratios.txt"
fi
/usr/bin/python3 tools/bench/wp_report.py "$OUT" >"$OUT/../wp.md.tmp" && mv "$OUT/../wp.md.tmp" "$OUT/../wp.md"
