#!/usr/bin/env bash
# tests/team/run.sh — the team of threads (templates/team*.h) on the CPU:
# the loop-form contract (test_contract.c) under the host emulation of teams.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${ODE_BUILD:-build/team-tests}
CC=${CC:-gcc}
mkdir -p "$B" || exit 1
WARN="-Wall -Wextra -Wshadow -Werror -Wno-unused-function"
INC="-Itemplates -Itests/team"
failed=0
run() {   # run NAME COMMAND…: one check, its output shown
    echo "== $1"
    shift
    "$@" || { echo "FAIL: $*"; failed=$((failed + 1)); }
}
$CC -std=c11 -O1 -g $WARN $INC -c tests/team/ref_written.c -o "$B/ref_written.o" || exit 1
$CC -std=c11 -O1 -g $WARN $INC tests/team/test_contract.c "$B/ref_written.o" -lm -o "$B/test_contract" || exit 1
run "the loop-form contract under emulated teams" "$B/test_contract"
[ $failed = 0 ] && echo "team: all passed" || echo "team: $failed FAILED"
exit $((failed != 0))
