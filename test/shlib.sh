# Helpers shared by the shell tests (test/t_*.sh source this after their
# `cd` to the repository root).
# ok NAME CHECK: PASS or FAIL line for a shell condition
ok() { if eval "$2"; then echo "PASS $1"; else echo "FAIL $1"; echo "  check: $2"; fi; }
# status_of FILE.h5: the run's /status attribute
status_of() { h5dump -a /status "$1" 2>/dev/null | sed -n 's/.*(0): "\(.*\)"/\1/p'; }
# rows_of FILE.h5 [DATASET]: rows of a dataset (default /time)
rows_of() { h5dump -H -d "${2:-/time}" "$1" 2>/dev/null | sed -n 's/.*DATASPACE  SIMPLE { ( \([0-9]*\).*/\1/p' | head -1; }
# expect NAME FILE WANT...: `$BIN/simc FILE --check` fails with exit 1 and
# every WANT is in its message (a located input error)
expect() {
  local name=$1 file=$2; shift 2
  out=$("$BIN/simc" "$file" --check 2>&1); rc=$?
  local good=1
  [ $rc = 1 ] || good=0
  for w in "$@"; do grep -qF -- "$w" <<<"$out" || good=0; done
  if [ $good = 1 ]; then echo "PASS $name"; else echo "FAIL $name"; echo "  rc $rc: $out"; fi
  echo "  $out" | head -2
}
# limited COMMAND...: COMMAND under a 2 GiB address space and a 20 s
# timeout (a hostile file must not exhaust the machine); the elapsed
# milliseconds to $tmp/ms, the peak resident KiB to $tmp/rss when GNU time
# is installed (else $tmp/rss stays empty)
limited() {
  local t0 t1 rc time=()
  if /usr/bin/time -f %M -o "$tmp/rss" true 2>/dev/null && [ -s "$tmp/rss" ]; then
    time=(/usr/bin/time -f %M -o "$tmp/rss")
  fi
  : >"$tmp/rss"
  t0=$(date +%s%N)
  ( ulimit -v 2097152; exec timeout -k 2 20 "${time[@]}" "$@" )
  rc=$?
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 )) >"$tmp/ms"
  return $rc
}
# the Python tools that read simc's output, and tool NAME FILE: the command
# line of one of them on FILE (its outputs into $tmp)
H5_TOOLS="simc-view state_at plot.py h5summary.py"
tool() {
  case $1 in
    simc-view) echo "/usr/bin/python3 tools/simc-view $2 -o $tmp/page.html --force" ;;
    state_at) echo "/usr/bin/python3 tools/state_at.py $2 0" ;;
    plot.py) echo "/usr/bin/python3 tools/plot.py $2 -o $tmp/plot.png" ;;
    h5summary.py) echo "/usr/bin/python3 tools/h5summary.py $2" ;;
  esac
}
# viewer_deps PYMODULE...: 0 when headless Chromium, three.js and the Python
# modules the browser tests use are installed, else 1 after one FAIL line
# naming the Debian packages (make test installs them)
viewer_deps() {
  local pkgs="chromium libjs-three" m
  for m in "$@"; do
    case $m in PIL) pkgs="$pkgs python3-pil" ;; *) pkgs="$pkgs python3-$m" ;; esac
  done
  if ! /usr/bin/python3 -c "import $(IFS=,; echo "$*")" 2>/dev/null || ! command -v chromium >/dev/null ||
     [ ! -f /usr/share/javascript/three/three.min.js ]; then
    echo "FAIL viewer_dependencies (run: sudo apt-get install -y $pkgs)"
    return 1
  fi
}
