#!/usr/bin/env bash
# The CPU test suite behind `make test` (no GPU needed).  Runs every suite, even after one
# failed, then prints one summary table (suite, result, time); the status is 1 when any failed.
# A suite whose file is missing is listed as skipped.
set -u
cd "$(dirname "$0")/.." || exit 2
PY=/usr/bin/python3            # Debian's python3, which has numpy and scipy
names=() results=() times=()
suite() {   # suite NAME COMMAND… FILE: runs the command when its last word, the suite's file, exists
    local name=$1 file=${!#}
    shift
    local t0=$SECONDS result
    if [ ! -e "$file" ]; then
        result=skipped
    else
        printf '\n=== %s\n' "$name"
        if "$@"; then result=passed; else result=FAILED; fi
        printf '=== %s: %s (%ds)\n' "$name" "$result" $((SECONDS - t0))
    fi
    names+=("$name") results+=("$result") times+=($((SECONDS - t0)))
}
suite "test machinery (this summary, the packages the tests call)" bash tests/harness/run.sh
suite "parser" bash tests/parse/run.sh
suite "generator golden files" bash tests/golden/run.sh
suite "error messages" bash tests/errors/run.sh
suite "runtime library and runner" bash tests/runtime/run.sh
suite "runners whose systems all fail" bash tests/faults/run.sh
suite "checkpoints and the MPI runner" bash tests/mpi/run.sh
suite "numerics (CPU path, ASan/UBSan)" $PY tests/numerics/test_numerics.py
suite "integration methods, events, save" $PY tests/numerics/test_methods.py
suite "events: every shape fires, carried across zero, at rest, zeno" $PY tests/numerics/test_events.py
suite "Python package and examples" $PY tests/python/test_python.py
suite "Python package: pip install in a fresh venv, the notebook" $PY tests/python/test_install.py
suite "run-time options (--set, options=) against regenerated models" $PY tests/options/test_options.py
suite "XPPAUT compatibility" $PY tests/xpp/test_xpp.py
suite "XPPAUT corpus (syntax, arrays, tables, sets, defaults)" $PY tests/xpp/test_corpus.py
suite "XPPAUT's Poincaré maps (poimap) against xppaut -silent" $PY tests/xpp/test_poincare.py
suite "tables whose formula reads a parameter, per system, against XPPAUT" $PY tests/xpp/test_table_params.py
suite "sums and shifts whose bounds and offsets are parameters or tables, per system, against XPPAUT" $PY tests/xpp/test_sum_params.py
suite "real XPPAUT files written by others (issue 20)" $PY tests/xpp/test_real.py
suite "global events located as events" $PY tests/xpp/test_globals.py
suite "XPPAUT's rules for globals (jumps, carried across zero, gated, global 0)" $PY tests/xpp/test_event_rules.py
suite "initial values of parameters, sets, table files" $PY tests/xpp/test_values.py
suite "temporaries in any order, globals that set parameters" $PY tests/xpp/test_temporaries.py
suite "user names that clash with internal ones" $PY tests/names/test_names.py
suite "model names, made from file names, that clash with internal ones" $PY tests/names/test_model_names.py
suite "hostile file names: nothing runs, the build works" $PY tests/names/test_paths.py
suite "translation time against the model's size" $PY tests/scale/test_scale.py
suite "derivatives against finite differences" $PY tests/deriv/test_deriv.py
suite "lyapunov and period (spectra, identities, impacts, periods)" $PY tests/lyapunov/test_lyapunov.py
suite "attractors and basins (symmetries, scipy, continuation)" $PY tests/attractors/test_attractors.py
suite "arrays kept as loops (loop form against written out, sizes)" $PY tests/arrays/test_arrays.py
suite "XPPAUT's network operators (special) against XPPAUT" $PY tests/arrays/test_special.py
suite "maps (x(t+1)=, meth=discrete: Henon, logistic windows, XPPAUT)" $PY tests/maps/test_maps.py
suite "teams of threads (loop form, team integrator, emulated teams)" bash tests/team/run.sh
suite "large and coupled models in every layout; stiff ones against Radau" $PY tests/large/test_large.py
suite "stiff methods (test set, CVODE peer, events)" $PY tests/stiff/test_stiff.py
suite "the manual: links, models, commands and Python sessions of README.md and docs/" $PY tests/docs/test_docs.py
suite "man pages (options as --help lists them), make install PREFIX=" $PY tests/docs/test_man.py
suite "delays (exact, orders, references, XPPAUT, statuses)" $PY tests/delay/test_delay.py
suite "algebraic constraints (pendulum, Robertson, XPPAUT's DAEs, failures)" $PY tests/dae/test_dae.py
suite "noise: Philox, reproducibility, SDE statistics, XPPAUT in distribution" bash tests/noise/run.sh
suite "fuzzing (short run)" bash tests/fuzz/run.sh

# The summary: one line a suite.
failed=0 total=0
printf '\n=== summary\n'
for i in "${!names[@]}"; do
    printf '%-66s %-8s %5ds\n' "${names[$i]}" "${results[$i]}" "${times[$i]}"
    [ "${results[$i]}" = FAILED ] && failed=$((failed + 1))
    total=$((total + times[i]))
done
if [ $failed = 0 ]; then
    printf '%-66s %-8s %5ds\n' "all suites" passed $total
    exit 0
fi
printf '%-66s %-8s %5ds\n' "$failed of ${#names[@]} suites" FAILED $total
exit 1
