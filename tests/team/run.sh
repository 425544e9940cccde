#!/usr/bin/env bash
# tests/team/run.sh — a system integrated by a team of threads (templates/team*.h)
# on the CPU, under the host emulation of teams (emulate.c: lanes run in order
# and in reverse order between barriers; lanes at different barriers are reported):
#   1. the loop-form contract (test_contract.c): the model functions of
#      templates/example_team_model.h against the model written out;
#   2. the team integrator against the per-thread integrator (test_integrate.c),
#      loop form against written out, the CPU path and emulated teams of 1, 2, 4,
#      32 and 64 lanes: a model with sums (the example ring: the same bits for a
#      team of one, within 1e-7 otherwise), and MPGOS's ring of Duffing units
#      (no sums: the same bits for every team).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${ODE_BUILD:-build/team-tests}
CC=${CC:-gcc}
mkdir -p "$B" || exit 1
WARN="-Wall -Wextra -Wshadow -Werror -Wno-unused-function -Wno-unused-parameter"
FLAGS="-std=c11 -O1 -g -fopenmp -U_FORTIFY_SOURCE $WARN -Itemplates -Itests/team"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
failed=0
run() {   # run NAME COMMAND…: one check, its output shown
    echo "== $1"
    shift
    "$@" || { echo "FAIL: $*"; failed=$((failed + 1)); }
}
build() { $CC $FLAGS "$@" -lm || { echo "FAIL: build $*"; failed=$((failed + 1)); return 1; }; }

build -c tests/team/ref_written.c -o "$B/ref_written.o" &&
    build tests/team/test_contract.c "$B/ref_written.o" -o "$B/test_contract" &&
    run "the loop-form contract under emulated teams" "$B/test_contract"

# integrate NAME WRITTEN LOOP EXACT SPEC EXPECT [FLAGS…]
integrate() {
    local name=$1 written=$2 loop=$3 exact=$4 spec=$5 expect=$6
    shift 6
    local tag
    tag=$(basename "$loop" .h)
    build "$@" -DMODEL_WRITTEN="\"$written\"" -c tests/team/run_written.c -o "$B/$tag.written.o" &&
        build "$@" -DMODEL_LOOP="\"$loop\"" -c tests/team/run_team.c -o "$B/$tag.team.o" &&
        build -DNAME="\"$name\"" -DEXACT="$exact" -DSPEC="$spec" -DEXPECT="$expect" tests/team/test_integrate.c \
            "$B/$tag.written.o" "$B/$tag.team.o" -o "$B/test_$tag" &&
        run "$name: teams against one thread" "$B/test_$tag"
}
integrate "example ring (sums, events, hooks, sin/cos of t), RKCK45" example_team_written.h example_team_model.h 0 \
    '{4, 2, 0.0, 0.2, 20.0, 1, 2}' 'written_acc(3, 0) >= 10 && written_acc(0, 1) > 1'
integrate "MPGOS's ring of 14 Duffing units (an event per unit), RKCK45" duffing_ring_written.h duffing_ring.h 1 \
    '{3, 3, 0.002, 0.02, 20.0, 1, 1}' 'written_acc(2, 13) >= 20 && written_steps(0) > 1000'

[ $failed = 0 ] && echo "team: all passed" || echo "team: $failed FAILED"
exit $((failed != 0))
