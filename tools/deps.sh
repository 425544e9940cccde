#!/usr/bin/env bash
# tools/deps.sh — installs the Debian packages of tools/packages that a target needs and that
# are missing, before that target runs.
#
#   tools/deps.sh TARGET       test, demo (the build's packages come with either), or all
#   tools/deps.sh --list TARGET   the packages, one line
#
# Missing packages are installed with apt-get when running as root, or with sudo when it works
# without a password (sudo -n true); otherwise one message gives the exact command and, if a
# package the target cannot do without is among them, the status is 1.  Packages marked
# optional (test?, demo?) are installed when possible and otherwise only named.
# ODEGEN_DEPS=no skips all of this (for those who manage the packages themselves);
# ODEGEN_PACKAGES=FILE reads another list (for the tests).
set -u -f   # -f: no pathname expansion ("test?" is a word here)
cd "$(dirname "$0")/.." || exit 2
list=0
[ "${1:-}" = --list ] && { list=1; shift; }
target=${1:?usage: tools/deps.sh [--list] test|demo|all}
[ "${ODEGEN_DEPS:-}" = no ] && exit 0

required=() optional=()
while read -r pkg tags _; do
    case $pkg in ''|'#'*) continue ;; esac
    for tag in ${tags//,/ }; do
        if [ "$target" = all ] || [ "$tag" = build ] || [ "$tag" = "$target" ]; then
            required+=("$pkg"); break
        elif [ "$tag" = "$target?" ]; then
            optional+=("$pkg"); break
        fi
    done
done <"${ODEGEN_PACKAGES:-tools/packages}"
if [ $list = 1 ]; then
    echo "${required[*]} ${optional[*]}"
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "odegen: not a Debian system: make sure these (Debian names) are installed: ${required[*]} ${optional[*]}" >&2
    exit 0
fi
installed=" $(dpkg-query -W -f='${Package}:${db:Status-Status} ' "${required[@]}" "${optional[@]}" 2>/dev/null) "
missing_required=() missing_optional=()
for p in "${required[@]}"; do [[ $installed == *" $p:installed "* ]] || missing_required+=("$p"); done
for p in "${optional[@]}"; do [[ $installed == *" $p:installed "* ]] || missing_optional+=("$p"); done
missing=("${missing_required[@]}" "${missing_optional[@]}")
[ ${#missing[@]} = 0 ] && exit 0

sudo=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo="sudo"
    else
        if [ ${#missing_required[@]} -gt 0 ]; then
            echo "odegen: make $target needs these Debian packages: ${missing[*]}" >&2
        else
            echo "odegen: make $target goes on without these Debian packages (what needs them is skipped): ${missing[*]}" >&2
        fi
        echo "Install them with:  sudo apt-get install ${missing[*]}   (or, as root: make deps)" >&2
        [ ${#missing_required[@]} -gt 0 ] && exit 1
        exit 0
    fi
fi
echo "odegen: make $target installs the missing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp "${TMPDIR:-/tmp}/odegen-apt.XXXXXX") || exit 1
if ! { $sudo apt-get update && $sudo apt-get install -y --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "odegen: installing ${missing[*]} failed (apt-get's last lines above; all of them in $log)" >&2
    exit 1
fi
rm -f "$log"
echo "odegen: installed ${missing[*]}"
