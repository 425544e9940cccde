#!/usr/bin/env bash
# tests/harness/run.sh — the test machinery itself:
#   1. tests/run_all.sh runs every suite even after one failed, prints one summary table (suite,
#      result, time) and exits with 1 when any failed (with fake suites in a copy of the tree);
#   2. every program the suites call is installed by tools/deps.sh: each command named at a
#      command's place in tests/ and examples/ shell scripts (or by its path, or through
#      Python's shutil.which and subprocess lists) that is a program on this machine belongs to a
#      Debian package that a fresh Debian 12 with build-essential has (priority required, or
#      build-essential and what it depends on) or that tools/packages lists (or one of their
#      dependencies).  Skipped, with a note, without dpkg and apt-cache.
# Exit status 0 when everything passed.
set -u
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d "${TMPDIR:-/tmp}/odegen-harness.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failed=0 passed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
ok() { passed=$((passed + 1)); }

# ------------------------------------------------------------------ 1. run_all.sh
echo "== tests/run_all.sh with fake suites: one fails, the others still run"
mkdir -p "$T/tree/tests"/{parse,golden,errors,numerics}
cp tests/run_all.sh "$T/tree/tests/"
printf 'echo parse ran; exit 0\n' >"$T/tree/tests/parse/run.sh"
printf 'echo golden ran; exit 1\n' >"$T/tree/tests/golden/run.sh"
printf 'echo errors ran; sleep 1; exit 0\n' >"$T/tree/tests/errors/run.sh"
printf 'print("numerics ran")\n' >"$T/tree/tests/numerics/test_numerics.py"
bash "$T/tree/tests/run_all.sh" >"$T/out" 2>&1
rc=$?
summary=$(sed -n '/^=== summary$/,$p' "$T/out")
row() { echo "$summary" | grep -Eq "^$1 +$2 +[0-9]+s$"; }
if [ $rc = 1 ] && grep -qx 'errors ran' "$T/out" && grep -qx 'numerics ran' "$T/out" &&
    row parser passed && row 'generator golden files' FAILED && row 'error messages' passed &&
    row 'numerics \(CPU path, ASan/UBSan\)' passed && row 'fuzzing \(short run\)' skipped &&
    echo "$summary" | grep -Eq '^1 of [0-9]+ suites +FAILED +[0-9]+s$'; then
    ok
    echo "   status 1; the suites after the failed one ran; the summary:"
    echo "$summary" | grep -v ' skipped ' | sed 's/^/     /'
else
    fail "run_all.sh with a failing suite: status $rc, output: $(cat "$T/out")"
fi
printf 'exit 0\n' >"$T/tree/tests/golden/run.sh"
bash "$T/tree/tests/run_all.sh" >"$T/out" 2>&1
rc=$?
[ $rc = 0 ] && grep -Eq '^all suites +passed +[0-9]+s$' "$T/out" && ok ||
    fail "run_all.sh with every suite passing: status $rc, $(tail -5 "$T/out")"

# ------------------------------------------------------------------ 2. packages
echo "== every program the suites call is installed by tools/deps.sh"
if ! command -v dpkg-query >/dev/null || ! command -v apt-cache >/dev/null; then
    echo "   (not a Debian system: skipped)"
else
    # The programs: words at a command's place in the shell scripts (after a line's start, |, ;,
    # &&, ||, $(, then, do, else, timeout, nice, exec), /usr/bin/X anywhere, and Python's
    # shutil.which("X") and subprocess lists ["X", …]; not the scripts' own functions.
    progs=$(
        for f in tests/*/*.sh tests/*.sh examples/*.sh bench/cpu_path.sh; do
            own=$(grep -oE '^[a-z_][a-z0-9_]*\(\)' "$f" | tr -d '()')
            sed -E 's/#.*$//' "$f" |
                grep -oE '(^|[|;&(]|\$\(|\bthen\b|\bdo\b|\belse\b|\btimeout +[0-9]+|\bnice( +-n +[0-9]+)?|\bexec\b) *[a-z][a-z0-9_.+-]*' |
                sed -E 's/.* ([a-z][a-z0-9_.+-]*)$/\1/; s/^[^a-z]*//' | grep -vxF -f <(echo "$own"; echo x)
        done
        cat tests/*/*.sh tests/*/*.py examples/*.sh examples/python/*.py 2>/dev/null | grep -oE '/usr/bin/[a-z][a-z0-9_.+-]*' |
            sed 's|/usr/bin/||'
        cat tests/*/*.py tests/lib/*.py examples/python/*.py 2>/dev/null |
            grep -oE 'shutil\.which\("[a-z][a-z0-9_.+-]*"|(run|Popen|check_output|call)\(\[ *"[a-z][a-z0-9_.+-]*"' |
            grep -oE '"[^"]*"' | tr -d '"'
    )
    # The packages a fresh Debian 12 with build-essential has, and those tools/deps.sh installs,
    # with everything they depend on.
    listed=$(bash tools/deps.sh --list all)
    # shellcheck disable=SC2086
    closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
        --no-enhances build-essential $listed 2>/dev/null | grep -v '^ ')
    have=$( {
        dpkg-query -W -f='${Package} ${Priority} ${Essential}\n' 2>/dev/null | awk '$2 == "required" || $3 == "yes" { print $1 }'
        echo "$closure"
        echo "$listed" | tr ' ' '\n'
    } | sort -u)
    missing="" checked=0 names=""
    echo "$closure" | grep -qx gcc || progs=""   # apt knows no packages (no lists): nothing to compare with
    [ -n "$progs" ] || echo "   (apt-cache knows no packages here (apt-get update): skipped)"
    for p in $(echo "$progs" | sort -u); do
        path=$(type -P "$p" 2>/dev/null) || continue   # not a program here (a variable, a word)
        [ -n "$path" ] || continue
        real=$(realpath "$path")
        pkg=$(dpkg -S "$real" 2>/dev/null | head -1 | cut -d: -f1)
        [ -n "$pkg" ] || pkg=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1)
        [ -n "$pkg" ] || pkg=$(dpkg -S "/usr$path" 2>/dev/null | head -1 | cut -d: -f1)
        [ -n "$pkg" ] || continue   # not from a package (nvcc in /usr/local, a test's own build)
        checked=$((checked + 1)) names="$names $p"
        echo "$have" | grep -qxF "$pkg" || missing="$missing $p ($pkg)"
    done
    if [ -z "$progs" ]; then
        :
    elif [ -z "$missing" ]; then
        ok
        echo "   $checked programs, each from a package of the base system or of tools/packages:$names"
    else
        fail "programs the tests call whose package tools/packages does not install:$missing"
    fi
fi

echo "== harness: $passed passed, $failed failed"
[ $failed = 0 ]
