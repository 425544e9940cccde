#!/usr/bin/env bash
# tools/fresh_debian.sh — checks the README's set-up promise on a fresh Debian 12: a debootstrap
# chroot of bookworm with only build-essential and git, a clone of the repository inside, then
# `make demo` and `make test` as root (the packages they need are installed by themselves), each
# timed.
#
#   sudo tools/fresh_debian.sh [--no-sys] [--repo PATH] [--mirror URL] [--keep] DIR
#
#   DIR        the chroot: made with debootstrap when it does not hold one yet (a base made once
#              is reused: the clone and everything make installs go into a copy of it, DIR/run)
#   --no-sys   leave /sys out of the chroot (as in a container without /sys: OpenMPI's hwloc then
#              warns on every start, which the tests must not take for a failure)
#   --repo     the repository to clone (default: this checkout); its committed HEAD is tested
#   --mirror   the Debian mirror (default: the first one of /etc/apt/sources.list*, else
#              http://deb.debian.org/debian)
#   --keep     keep DIR/run afterwards (default: removed when both commands passed)
#
# Needs root and debootstrap (apt-get install debootstrap), and the mirror reachable.  DIR must not
# be inside a git checkout (the clone would be found by git commands run above it).  Prints, and
# appends to DIR/times, the time each command took and its exit status; the logs are
# DIR/{demo,test}.log (DIR/{demo,test}-nosys.log with --no-sys).  Exit status: 0 when both passed.
set -u
usage() { sed -n '7,16p' "$0" >&2; exit 2; }
nosys=0 keep=0 mirror="" repo=""
here=$(cd "$(dirname "$0")/.." && pwd)
while [ $# -gt 0 ]; do
    case $1 in
        --no-sys) nosys=1 ;;
        --keep) keep=1 ;;
        --repo) repo=${2:?--repo needs a path}; shift ;;
        --mirror) mirror=${2:?--mirror needs a URL}; shift ;;
        -h|--help) usage ;;
        -*) echo "fresh_debian: unknown option '$1'" >&2; usage ;;
        *) break ;;
    esac
    shift
done
[ $# = 1 ] || usage
dir=$(realpath -m "$1")
repo=$(realpath "${repo:-$here}")
[ "$(id -u)" = 0 ] || { echo "fresh_debian: run it as root (debootstrap, chroot, mount)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh_debian: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
if git -C "$(dirname "$dir")" rev-parse --git-dir >/dev/null 2>&1; then
    echo "fresh_debian: '$dir' is inside a git checkout: give a directory outside it" >&2
    exit 2
fi
if [ -z "$mirror" ]; then
    mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk '/^URIs:/ && $2 ~ /\/debian\/?$/ { print $2; exit } /^deb / && $0 ~ /bookworm/ && $2 ~ /\/debian\/?$/ { print $2; exit }')
    mirror=${mirror:-http://deb.debian.org/debian}
fi

base=$dir/base
run=$dir/run
mkdir -p "$dir" || exit 1
if [ ! -x "$base/usr/bin/make" ] || [ ! -x "$base/usr/bin/git" ]; then
    echo "== debootstrap bookworm (minbase, build-essential, git) from $mirror into $base"
    rm -rf "$base"
    debootstrap --variant=minbase --include=build-essential,git bookworm "$base" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
        { tail -20 "$dir/debootstrap.log" >&2; echo "fresh_debian: debootstrap failed (log: $dir/debootstrap.log)" >&2; exit 1; }
fi

# A fresh copy of the base for this run, with the host's name resolution (apt-get needs it).
umount_all() {
    local m
    for m in dev/pts dev sys proc; do mountpoint -q "$run/$m" && umount -l "$run/$m"; done
}
umount_all 2>/dev/null
rm -rf "$run"
cp -a "$base" "$run" || exit 1
cp /etc/resolv.conf "$run/etc/resolv.conf" 2>/dev/null
trap umount_all EXIT
mount -t proc proc "$run/proc" || exit 1
[ $nosys = 0 ] && { mount -t sysfs sysfs "$run/sys" || exit 1; }
mount --bind /dev "$run/dev" && mount --bind /dev/pts "$run/dev/pts" || exit 1

git clone -q "$repo" "$run/root/odegen" || exit 1
echo "== $(date -u '+%F %T UTC'): $(git -C "$run/root/odegen" log -1 --format='%h %s' | cut -c1-100)" | tee -a "$dir/times"
echo "== Debian $(cat "$run/etc/debian_version"), /sys $([ $nosys = 1 ] && echo 'not mounted' || echo mounted)" | tee -a "$dir/times"

# step NAME: `make NAME` in the clone, as root, with the environment of a login shell and SIGINT
# at its default (as at a terminal, even when this script runs in the background); its time.
status=0
tag=""
[ $nosys = 1 ] && tag=-nosys
step() {
    local t0=$SECONDS rc
    env --default-signal=INT chroot "$run" /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 /bin/bash -c "cd /root/odegen && make $1" >"$dir/$1$tag.log" 2>&1
    rc=$?
    local took=$((SECONDS - t0))
    local line
    line=$(printf 'make %-5s status %d, %dm%02ds' "$1" $rc $((took / 60)) $((took % 60)))
    echo "$line" | tee -a "$dir/times"
    [ $rc = 0 ] || { status=1; tail -40 "$dir/$1$tag.log" | sed 's/^/   /'; }
}
step demo
step test
sed -n '/^=== summary/,$p' "$dir/test$tag.log" | sed 's/^/   /'
umount_all
trap - EXIT
if [ $status = 0 ] && [ $keep = 0 ]; then rm -rf "$run"; else echo "== kept: $run"; fi
exit $status
