#!/usr/bin/env bash
# The CPU test suite behind `make test` (no GPU needed).  Stops at the first
# suite that fails, and says which.
set -u
cd "$(dirname "$0")/.."
PY=/usr/bin/python3            # Debian's python3, which has numpy and scipy
failed=0
suite() {
    local name=$1; shift
    printf '\n=== %s\n' "$name"
    local t0=$SECONDS
    if "$@"; then
        printf '=== %s: passed (%ds)\n' "$name" $((SECONDS - t0))
    else
        printf '=== %s: FAILED\n' "$name"
        exit 1
    fi
}
[ -x tests/parse/run.sh ]   && suite "parser"              bash tests/parse/run.sh
[ -x tests/golden/run.sh ]  && suite "generator golden files" bash tests/golden/run.sh
[ -x tests/errors/run.sh ]  && suite "error messages"      bash tests/errors/run.sh
[ -x tests/runtime/run.sh ] && suite "runtime library and runner" bash tests/runtime/run.sh
[ -x tests/faults/run.sh ]  && suite "runners whose systems all fail" bash tests/faults/run.sh
[ -x tests/mpi/run.sh ]     && suite "checkpoints and the MPI runner" bash tests/mpi/run.sh
suite "numerics (CPU path, ASan/UBSan)" $PY tests/numerics/test_numerics.py
suite "integration methods, events, save" $PY tests/numerics/test_methods.py
[ -f tests/python/test_python.py ] && suite "Python package and examples" $PY tests/python/test_python.py
[ -f tests/options/test_options.py ] && suite "run-time options (--set, options=) against regenerated models" $PY tests/options/test_options.py
[ -f tests/xpp/test_xpp.py ] && suite "XPPAUT compatibility" $PY tests/xpp/test_xpp.py
[ -f tests/xpp/test_corpus.py ] && suite "XPPAUT corpus (syntax, arrays, tables, sets, defaults)" $PY tests/xpp/test_corpus.py
[ -f tests/xpp/test_real.py ] && suite "real XPPAUT files written by others (issue 20)" $PY tests/xpp/test_real.py
[ -f tests/xpp/test_globals.py ] && suite "global events located as events" $PY tests/xpp/test_globals.py
[ -f tests/xpp/test_values.py ] && suite "initial values of parameters, sets, table files" $PY tests/xpp/test_values.py
[ -f tests/names/test_names.py ] && suite "user names that clash with internal ones" $PY tests/names/test_names.py
[ -f tests/deriv/test_deriv.py ] && suite "derivatives against finite differences" $PY tests/deriv/test_deriv.py
[ -f tests/lyapunov/test_lyapunov.py ] && suite "lyapunov and period (spectra, identities, impacts, periods)" $PY tests/lyapunov/test_lyapunov.py
[ -f tests/stiff/test_stiff.py ] && suite "stiff methods (test set, CVODE peer, events)" $PY tests/stiff/test_stiff.py
[ -x tests/fuzz/run.sh ]    && suite "fuzzing (short run)" bash tests/fuzz/run.sh
printf '\nall suites passed\n'
