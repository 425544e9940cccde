#!/usr/bin/env bash
# tests/noise/run.sh — the noise suite of `make test` (issue 22):
#   1. rng_test.c: Philox-4x32-10 against Random123's known answers, the
#      fma-only ln/sin/cos against libm, the moments of the normals;
#   2. repro.sh: a system's numbers (and whole result) whatever the chunks,
#      threads, MPI ranks, kill + resume, and the library's pools;
#   3. test_stats.py: the SDE methods against exact results with standard
#      errors (OU, GBM strong and weak orders, Kramers, first passage, markov);
#   4. test_xpp_noise.py: XPPAUT's own stochastic files against xppaut
#      -silent, in distribution (skipped, saying so, without xppaut or the
#      corpus).
# Runs all four, even after one failed; exit status 1 when any failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/odegen-rng.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
failed=0
part() {   # part NAME COMMAND…
    local name=$1 t0=$SECONDS
    shift
    echo "--- $name"
    if "$@"; then echo "--- $name: passed ($((SECONDS - t0))s)"; else echo "--- $name: FAILED"; failed=$((failed + 1)); fi
}
part "Philox-4x32-10 known answers, normals (rng_test.c)" \
    sh -c "cc -O2 -std=c11 -Wall -Wextra -I templates tests/noise/rng_test.c -o '$T/rng_test' -lm && '$T/rng_test'"
part "reproducibility (repro.sh)" bash tests/noise/repro.sh
part "statistics against exact results (test_stats.py)" $PY tests/noise/test_stats.py
part "XPPAUT's stochastic files in distribution (test_xpp_noise.py)" $PY tests/noise/test_xpp_noise.py
[ $failed = 0 ] && echo "tests/noise: all passed" || echo "tests/noise: $failed part(s) FAILED"
[ $failed = 0 ]
