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
