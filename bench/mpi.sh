#!/usr/bin/env bash
# bench/mpi.sh — issue 14's scaling: how the MPI runner's throughput grows
# with ranks.  Runs alone (not part of bench/run.sh: it needs MPI):
#
#   bench/mpi.sh [OUT]          # builds into OUT/mpi (default bench/out), writes OUT/mpi.md and prints it
#
# GPU (when nvidia-smi lists GPUs): the Duffing scan of 2^20 systems, 1024
# transient + 32 recorded periods, RK4 (models/duffing.ode), written to a file
# (HDF5 when the runner has it, else CSV): the one-process runner on GPU 0,
# then the MPI runner as 1 rank x 1 GPU, 1 rank x 2 GPUs and 2 ranks x 1 GPU.
# CPU: the same model over fewer systems (the same periods), --backend cpu:
# ranks of one core each, 1 and 2 of them (BENCH_CORE_N systems, default
# 1024: what each added rank adds), then the one-process runner on every
# core and 1 and 2 ranks that divide them (mpirun --bind-to none;
# BENCH_CPU_N systems, default 16384: what MPI costs).  Each line:
# the process's wall time (CUDA's and MPI's start-up included), the systems
# per second, the speed-up over one rank and its efficiency (speed-up over
# the GPUs used; on the CPU over 1, the cores being the same), and the CPU
# time of the whole job.  MPI: the system's, else the bundle in .mpi/
# (tools/mpi_bundle.sh); HDF5 likewise from .hdf5/.
#   BENCH_GPU=0 / BENCH_CPU=0   skip a part; BENCH_GPU_N (default 1048576)
set -u
cd "$(dirname "$0")/.." || exit 1
OUT=${1:-bench/out}
B=$OUT/mpi
mkdir -p "$B"
ARCH=${ARCH:-sm_90}
GPU_N=${BENCH_GPU_N:-1048576}
CPU_N=${BENCH_CPU_N:-16384}
CORE_N=${BENCH_CORE_N:-1024}
REPS=(--transient 1024 --recorded 32)
log() { printf '%s  %s\n' "$(date +%T)" "$*" >&2; }
command -v mpicc >/dev/null || { [ -f .mpi/env.sh ] && . .mpi/env.sh; }
command -v mpirun >/dev/null || { echo "bench/mpi.sh: no MPI (install OpenMPI, or carry the bundle of tools/mpi_bundle.sh in .mpi)"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
unset OMP_NUM_THREADS
[ -x build/odegen ] || make build/odegen >&2 || exit 1
. tools/hdf5_vars.sh   # H5VARS, have_h5: the system's HDF5, else the bundle in .hdf5/
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "${BENCH_GPU:-1}" = 0 ] && gpus=0

build() {   # build DIR MAKEARGS…
    local dir=$1
    shift
    build/odegen models/duffing.ode -o "$B/$dir" -q && make -C "$B/$dir" "${H5VARS[@]}" "$@" >"$B/$dir.log" 2>&1 ||
        { echo "bench/mpi.sh: building $dir failed: $(tail -5 "$B/$dir.log")" >&2; exit 1; }
}
pids=""
if [ "$gpus" -ge 1 ]; then
    build gpu ARCH="$ARCH" & pids="$pids $!"
    build gpu_mpi ARCH="$ARCH" MPI=1 & pids="$pids $!"
fi
if [ "${BENCH_CPU:-1}" != 0 ]; then
    build cpu BACKEND=cpu & pids="$pids $!"
    build cpu_mpi BACKEND=cpu MPI=1 & pids="$pids $!"
fi
for p in $pids; do wait $p || exit 1; done
ext=csv
grep -qs -- -DODE_HDF5 "$B"/*.log && ext=h5

# run LABEL N UNITS BASE_SECONDS CMD…: one line of the table; sets $secs.
TIMEFORMAT='%R %U %S'
run() {
    local label=$1 n=$2 units=$3 base=$4
    shift 4
    rm -f "$B/out.$ext"
    log "$label"
    { time "$@" --quiet -o "$B/out.$ext" 2>"$B/err"; } 2>"$B/time"
    local rc=$?
    read -r secs user sys <"$B/time"
    [ $rc = 0 ] || { echo "bench/mpi.sh: $label failed: $(cat "$B/err")" >&2; secs=nan; }
    awk -v l="$label" -v s="$secs" -v n="$n" -v u="$units" -v b="$base" -v cpu="$(awk -v a="$user" -v b="$sys" 'BEGIN { print a + b }')" 'BEGIN {
        if (b == "") printf "| %s | %.2f | %.3g | | | %.1f |\n", l, s, n / s, cpu
        else printf "| %s | %.2f | %.3g | %.2fx | %.0f%% | %.1f |\n", l, s, n / s, b / s, 100 * b / s / u, cpu }'
}

{
echo "# MPI runner: scaling (bench/mpi.sh)"
echo
echo "Duffing RK4 (models/duffing.ode), ${REPS[1]} transient + ${REPS[3]} recorded periods of 628 steps; output $ext"
echo "to a file; wall time of the whole process (start-ups included). Speed-up against one rank; efficiency ="
echo "speed-up / (GPUs or cores it added: ranks of one core), speed-up (ranks that divide the same cores). $(date -u +%F)."
echo
echo "| run | wall (s) | systems/s | speed-up | efficiency | CPU time (s) |"
echo "|---|---:|---:|---:|---:|---:|"
if [ "$gpus" -ge 1 ]; then
    G=(--scan "k=lin(0.2,0.3,$GPU_N)" "${REPS[@]}" --backend gpu)
    name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
    run "$name, one process, GPU 0" "$GPU_N" 1 "" "$B/gpu/duffing" "${G[@]}" --devices 0
    run "MPI, 1 rank x 1 GPU" "$GPU_N" 1 "" mpirun --bind-to none -n 1 "$B/gpu_mpi/duffing" "${G[@]}" --devices 0
    one=$secs
    if [ "$gpus" -ge 2 ]; then
        run "MPI, 1 rank x 2 GPUs" "$GPU_N" 2 "$one" mpirun --bind-to none -n 1 "$B/gpu_mpi/duffing" "${G[@]}" --devices 0,1
        run "MPI, 2 ranks x 1 GPU" "$GPU_N" 2 "$one" mpirun --bind-to none -n 2 "$B/gpu_mpi/duffing" "${G[@]}" --devices 0,1
    fi
fi
if [ "${BENCH_CPU:-1}" != 0 ]; then
    cores=$(nproc)
    C=(--scan "k=lin(0.2,0.3,$CORE_N)" "${REPS[@]}" --backend cpu)
    run "CPU, MPI, 1 rank x 1 core, $CORE_N systems" "$CORE_N" 1 "" mpirun -x OMP_NUM_THREADS=1 -n 1 "$B/cpu_mpi/duffing" "${C[@]}"
    one=$secs
    run "CPU, MPI, 2 ranks x 1 core" "$CORE_N" 2 "$one" mpirun -x OMP_NUM_THREADS=1 -n 2 "$B/cpu_mpi/duffing" "${C[@]}"
    C=(--scan "k=lin(0.2,0.3,$CPU_N)" "${REPS[@]}" --backend cpu)
    run "CPU ($cores cores), one process, $CPU_N systems" "$CPU_N" 1 "" "$B/cpu/duffing" "${C[@]}"
    run "CPU, MPI, 1 rank x $cores cores" "$CPU_N" 1 "" mpirun --bind-to none -n 1 "$B/cpu_mpi/duffing" "${C[@]}"
    one=$secs
    run "CPU, MPI, 2 ranks x $((cores / 2)) cores" "$CPU_N" 1 "$one" mpirun --bind-to none -n 2 "$B/cpu_mpi/duffing" "${C[@]}"
fi
} | tee "$B.md.tmp"
mv "$B.md.tmp" "$OUT/mpi.md"
log "written $OUT/mpi.md"
