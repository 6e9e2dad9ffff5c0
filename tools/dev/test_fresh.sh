#!/usr/bin/env bash
# make test-fresh: the README's two commands on a fresh Debian.
#
# Builds a minimal root of this machine's Debian release with debootstrap
# (variant minbase plus build-essential, git and ca-certificates: a C
# toolchain, make and git, what the README assumes), from the mirror of this
# machine's own apt sources; clones the repository's HEAD into it; and runs
# `make run` then `make test` there in a chroot, as root, so that every
# package a build or test needs must be installed by the project's own
# files.  A missing install step (a tool a test calls that `make deps` does
# not install) turns it red.  Needs root and network access to that mirror;
# takes several minutes (the packages are downloaded).  The root is under
# $FRESH_DIR (default /var/tmp) and removed at the end unless FRESH_KEEP=1.
set -u
cd "$(dirname "$0")/../.."
repo=$(pwd)
log=${FRESH_LOG:-build/test-fresh.log}
mkdir -p "$(dirname "$log")"

say() { printf 'test-fresh: %s\n' "$*"; }
[ "$(id -u)" = 0 ] || { say "not run: needs root (debootstrap, chroot)"; exit 2; }
[ -f /etc/debian_version ] && command -v apt-get >/dev/null ||
  { say "not run: not a Debian machine"; exit 2; }
. /etc/os-release
suite=${FRESH_SUITE:-${VERSION_CODENAME:-}}
[ -n "$suite" ] || { say "not run: no VERSION_CODENAME in /etc/os-release"; exit 2; }

# the mirror of this machine's own sources (deb822 URIs: or a deb line)
mirror=${FRESH_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }')
fi
if [ -z "$mirror" ]; then
  mirror=$(grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    awk '$0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }')
fi
[ -n "$mirror" ] || { say "not run: no Debian mirror in /etc/apt/sources.list*"; exit 2; }

if ! command -v debootstrap >/dev/null; then
  say "installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq debootstrap \
    >/dev/null 2>&1 || { say "cannot install debootstrap"; exit 1; }
fi

root=$(mktemp -d "${FRESH_DIR:-/var/tmp}/simc-fresh.XXXXXX")
mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null; done
  [ "${FRESH_KEEP:-0}" = 1 ] && { say "kept $root"; return; }
  # only remove what debootstrap made: never follow into a still-mounted tree
  if ! grep -q " $root" /proc/mounts; then rm -rf --one-file-system "$root"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

t0=$(date +%s)
say "debootstrap $suite from $mirror into $root"
if ! debootstrap --variant=minbase --include=build-essential,git,ca-certificates \
    "$suite" "$root" "$mirror" >"$log" 2>&1; then
  tail -20 "$log"
  say "debootstrap failed (log: $log)"
  exit 1
fi
say "base system in $(( $(date +%s) - t0 )) s"

# the repository as committed (HEAD), not the working tree
git clone -q --no-hardlinks "$repo" "$root/src/simc" || { say "git clone failed"; exit 1; }
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
for m in proc sys dev dev/pts; do
  mkdir -p "$root/$m"
  case $m in
    proc) mount -t proc proc "$root/proc" ;;
    sys) mount -t sysfs sys "$root/sys" ;;
    dev) mount --rbind /dev "$root/dev" ;;
    dev/pts) continue ;;
  esac && mounted+=("$root/$m")
done

say "make run, then make test, in the fresh root (log: $log)"
timeout "${FRESH_TIMEOUT:-3600}" chroot "$root" /usr/bin/env -i HOME=/root \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
  /bin/bash -c 'cd /src/simc && make run && echo "=== make test ===" && make test' >>"$log" 2>&1
rc=$?
# make test after make run builds the tests, not the library again
rebuilt=$(sed -n '/^=== make test ===$/,$p' "$log" | grep -c '^CC\(([a-z]*)\)\? src/')
say "make test compiled $rebuilt library files again after make run (0 expected)"
[ "$rebuilt" = 0 ] || rc=1
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
say "${line:-no test summary} (exit $rc, $(( $(date +%s) - t0 )) s in all)"
if [ $rc != 0 ]; then
  grep -E '^FAIL|Error|error:' "$log" | tail -20
  exit 1
fi
exit 0
