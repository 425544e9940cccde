#!/usr/bin/env bash
# make test-gpu: the GPU suite, on a machine with a CUDA GPU (sm_90 by default).
#   1. the numerics suites (tests/numerics: test_numerics, test_methods,
#      test_events) on the GPU backend, 12 tests at a time
#   2. the runtime library's tests, whose test_gpu compares GPU and CPU paths
#   3. CPU against GPU for every model in models/, and the statuses `unstable` and
#      `empty` on both (tests/gpu/agreement.py)
#   4. issue 2's acceptance run: the full Duffing scan (tests/gpu/duffing_done.py)
#   5. the Python package (tests/python) on the GPU
#   6. the runner's output on the GPU: chunks, scans made on the device, HDF5, SIGTERM
#      (tests/gpu/output.sh)
#   7. XPPAUT's features (tables in constant and global memory, arrays, sums,
#      sets, initial values of parameters, clashing names) on CPU and GPU
#   7b. issue 20's third pass, GPU against CPU: Poincaré maps (@ poimap) over 4096
#      systems, a table of parameters written out per system, options inside sets
#      (tests/gpu/xpp_third_pass.py)
#   7c. arret=EXPR over 4096 stop counts, sums whose bounds are parameters and shifts by
#      parameters and tables (loop form and written out, NaN beyond the names), XPPAUT's
#      symplectic method (tests/gpu/xpp_misc_agree.py)
#   8. user names like every identifier of the generated code: the model of
#      tests/names compiled by nvcc (its cc runs are part of make test)
#   9. the models' derivatives on the GPU against the CPU (tests/deriv/gpu_agree.py)
#  10. the MPI runner: 1 rank x 1 GPU, 1 x 2, 2 x 1 against one process, checkpoints
#      (tests/gpu/mpi.sh; OpenMPI installed, or the bundle of tools/mpi_bundle.sh in .mpi/)
#  11. run-time options on the GPU: --set equals the model translated with the
#      options, byte for byte; Python's options= (tests/options; one test at a
#      time: its tests share builds)
#  12. lyapunov and period: tests/lyapunov on the GPU (spectra, identities,
#      impacts, periods, the trace identity and its warning; registers of n = N = 2,
#      3, 4), and the GPU against the CPU on the Duffing (k, B) map, the valve and
#      Rössler's trace identity (tests/gpu/lyapunov_agree.py)
#  12b. attractors and basins: tests/attractors on the GPU (Lorenz-84 on a 64^3
#      grid against 10^4 brute-force samples), and the GPU against the CPU
#      (tests/gpu/attractors_agree.py)
#  13. the stiff methods on the GPU, and CPU against GPU (tests/stiff/test_stiff.py)
#  14. maps on the GPU (tests/maps/test_maps.py: Hénon exponents, the logistic
#      map's windows, XPPAUT's map files)
#  14. hostile file names built by nvcc and run on the GPU (tests/names/test_paths.py),
#      and model names like the identifiers of nvcc's view of the code (cuda_runtime.h)
#      compiled by nvcc (tests/names/test_model_names.py --nvcc)
#  15. arrays kept as loops (tests/arrays/test_arrays.py: loop form against written out to
#      rounding, nvcc's time by size printed) and XPPAUT's specials (test_special.py) on the GPU
#  16. delay(x, tau) on the GPU: exact solutions, orders, references, XPPAUT, statuses, the
#      stiff methods with delays, delays in arrays kept as loops (tests/delay/test_delay.py);
#      the stiff methods with delays, GPU against CPU (tests/gpu/delay_agree.py)
#  16b. algebraic constraints (solv, 0=) on the GPU: tests/dae (pendulum, Robertson, XPPAUT's
#      DAE files, the fold's dae_failed), and the GPU against the CPU on the pendulum and the
#      fold scanned (tests/gpu/dae_agree.py)
#  17. a system integrated by a team of threads: every layout against one system
#      per thread (tests/gpu/team.sh); the large and coupled models of tests/large
#      on the GPU in every layout (tests/large/test_large.py)
#  18. noise: the random numbers CPU = GPU bit for bit, whole results with -fmad=false,
#      the split of the work on the GPU (tests/gpu/noise.py); the SDE statistics on the
#      GPU (tests/noise/test_stats.py: OU, GBM orders, Kramers, first passage, markov)
# Uses build/odegen as it is (flex and bison need not be on the GPU machine).
set -u
cd "$(dirname "$0")/../.."
PY=${PY:-python3}
[ -x build/odegen ] || make build/odegen || exit 1
nvidia-smi -L || { echo "make test-gpu: no GPU here"; exit 1; }
export ODEGEN_BACKEND=gpu ODEGEN_JOBS=${ODEGEN_JOBS:-12}
# The suites' Python (PY: the one with numpy, scipy, h5py there) and the
# translator as it is (Python's odegen would rebuild it when the copied
# sources look newer, and flex need not be here).
export PY ODEGEN_TRANSLATOR=${ODEGEN_TRANSLATOR:-$PWD/build/odegen}
status=0 ran=0
# bash tests/gpu/run.sh [WORD…] (make test-gpu GPU_STEPS="WORD…"): only the steps whose title
# holds one of the words (case-insensitive), e.g. "delays attractors": a GPU job with a time
# limit (a cluster's, or a lent machine's 10 minutes) runs the suite in parts.
step() {
    local title=$1 w hit
    shift
    if [ ${#WORDS[@]} -gt 0 ]; then
        hit=0
        for w in "${WORDS[@]}"; do [[ ${title,,} == *"${w,,}"* ]] && hit=1; done
        [ $hit = 1 ] || return 0
    fi
    ran=$((ran + 1))
    printf '\n=== %s\n' "$title"
    "$@" || { status=1; printf '=== FAILED\n'; }
}
WORDS=("$@")
step "numerics on the GPU" $PY tests/numerics/test_numerics.py
step "methods, events, save on the GPU; CPU against GPU for every method" $PY tests/numerics/test_methods.py
step "events on the GPU: every shape fires, carried across zero, at rest, zeno" $PY tests/numerics/test_events.py
step "runtime library (GPU against CPU)" bash tests/runtime/run.sh
step "CPU against GPU, every model" $PY tests/gpu/agreement.py
step "Duffing, paper size, GPU and CPU" $PY tests/gpu/duffing_done.py
step "Python package on the GPU (against the runner, bit for bit)" $PY tests/python/test_python.py
step "the runner's streamed output on the GPU (chunks, scans made on the device, HDF5)" bash tests/gpu/output.sh
step "XPPAUT's features, GPU and CPU" $PY tests/gpu/xpp_features.py
step "XPPAUT's Poincaré maps, tables of parameters, options in sets: GPU against CPU" $PY tests/gpu/xpp_third_pass.py
step "XPPAUT's arret=EXPR, sums and shifts of parameters, symplectic method: GPU against CPU" $PY tests/gpu/xpp_misc_agree.py
step "clashing names, nvcc" env ODEGEN_BACKEND=cpu ODEGEN_JOBS=8 $PY tests/names/test_names.py --nvcc
step "derivatives, GPU against CPU" $PY tests/deriv/gpu_agree.py
step "the MPI runner on the GPUs (ranks x GPUs, checkpoints; MPI from .mpi/ where none is installed)" env ODEGEN_MPI_OPTIONAL=1 bash tests/gpu/mpi.sh
step "run-time options on the GPU (--set == regenerated, options=)" env ODEGEN_JOBS=1 $PY tests/options/test_options.py
step "lyapunov and period on the GPU" env ODEGEN_REGISTERS=all $PY tests/lyapunov/test_lyapunov.py
step "lyapunov and period, GPU against CPU (double, float)" $PY tests/gpu/lyapunov_agree.py
step "attractors and basins on the GPU (Lorenz-84: 64^3 grid, 10^4 brute-force samples)" env ODEGEN_L84_GRID=64 ODEGEN_L84_SAMPLES=10000 $PY tests/attractors/test_attractors.py
step "attractors, GPU against CPU (magnetic pendulum subgrid, double well 401^2, chunks)" $PY tests/gpu/attractors_agree.py
step "stiff methods on the GPU (test set, events, float; CPU against GPU)" $PY tests/stiff/test_stiff.py
step "maps on the GPU (Henon, logistic windows, XPPAUT files)" $PY tests/maps/test_maps.py
step "hostile file names: nvcc, the runner and Python on the GPU" $PY tests/names/test_paths.py
step "model names like CUDA's identifiers, nvcc" env ODEGEN_BACKEND=cpu ODEGEN_JOBS=8 $PY tests/names/test_model_names.py --nvcc
step "arrays kept as loops on the GPU (loop form against written out; nvcc time by size)" $PY tests/arrays/test_arrays.py
step "XPPAUT's network operators (special) on the GPU" $PY tests/arrays/test_special.py
step "delays on the GPU (exact, orders, references, XPPAUT, statuses, stiff, loops)" $PY tests/delay/test_delay.py
step "delays with the stiff methods, GPU against CPU" $PY tests/gpu/delay_agree.py
step "algebraic constraints on the GPU (pendulum, Robertson, XPPAUT's DAEs, failures)" $PY tests/dae/test_dae.py
step "algebraic constraints: GPU against CPU (pendulum, the fold)" $PY tests/gpu/dae_agree.py
step "teams of threads: every layout against one system per thread" bash tests/gpu/team.sh
step "large and coupled models on the GPU, every layout (within rounding); stiff ones against Radau" $PY tests/large/test_large.py
step "noise: CPU = GPU bit for bit, the work split on the GPU" $PY tests/gpu/noise.py
step "noise: SDE statistics on the GPU (OU, GBM orders, Kramers, first passage, markov)" env ODEGEN_JOBS=1 $PY tests/noise/test_stats.py
[ $ran -gt 0 ] || { echo "test-gpu: no step's title holds any of: ${WORDS[*]}" >&2; exit 2; }
[ $status = 0 ] && echo "test-gpu: all passed ($ran steps)" || echo "test-gpu: FAILED"
exit $status
