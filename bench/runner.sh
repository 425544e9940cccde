#!/usr/bin/env bash
# bench/runner.sh — issue 11's targets: what a user waits for against the
# kernel.  Called by bench/run.sh (after its kernel timings, which it reads
# back), or alone on a GPU machine:
#
#   bench/runner.sh OUT RESULTS     # builds into OUT/runner, appends JSON lines to RESULTS
#
# For each case (the issue's table: Duffing RK4 and RKCK45 at 2^20 systems,
# 1024 + 32 periods; Lorenz at 2^20, one integration to t = 10; the valve at
# 30720, 1024 + 32; Keller-Miksis, the 4-D scan of 65536, 1024 + 64), the
# generated runner writes its whole output to OUT/runner, once as HDF5 and
# once as CSV; one JSON line each: the process's wall time, and from the
# runner's summary its own wall time with CUDA's start-up apart, integration
# and output.  Also the library: Lorenz 2^20, the scan call against its kernel
# on a second call (bench_model with BENCH_AGAIN).  runner_report.py turns
# them into the tables of BENCHMARKS.md.
#   BENCH_QUICK=1   small sizes (a smoke test of the script)
#   KERNELS=1       also time the five kernels (bench_model, as bench/run.sh
#                   does) and print the report: the script then stands alone
#                   (about 4 minutes on one H200)
set -u
cd "$(dirname "$0")/.."
OUT=${1:-bench/out}
RES=${2:-$OUT/results.jsonl}
B=$OUT/runner
mkdir -p "$B"
ARCH=${ARCH:-sm_90}
log() { printf '%s  %s\n' "$(date +%T)" "$*"; }

# HDF5: the system's, else the bundle in .hdf5/ (tools/hdf5_bundle.sh).
. tools/hdf5_vars.sh   # H5VARS, have_h5: the system's HDF5, else the bundle in .hdf5/

N=1048576
VALVE=30720
KM=(--scan 'PA1=list(0.5,1.1)' --scan 'PA2=list(0.7,1.2)' --scan 'f1=log(20,1000,128)' --scan 'f2=log(20,1000,128)')
KMREPS=(--transient 1024 --recorded 64)
if [ "${BENCH_QUICK:-0}" = 1 ]; then
    N=30720
    VALVE=4096
    KM=(--scan 'PA1=list(1.1)' --scan 'PA2=list(1.2)' --scan 'f1=log(20,1000,16)' --scan 'f2=log(20,1000,16)')
    KMREPS=(--transient 8 --recorded 8)
fi

log "building the runners (nvcc, $ARCH${H5VARS:+, HDF5 from .hdf5})"
pids=""
for m in duffing duffing_rkck45 lorenz valve keller_miksis; do
    ( build/odegen "models/$m.ode" -o "$B/$m" >/dev/null 2>"$B/$m.log" &&
        make -C "$B/$m" ARCH="$ARCH" "${H5VARS[@]}" >>"$B/$m.log" 2>&1 || echo "build of $m failed: $(tail -3 "$B/$m.log")" ) &
    pids="$pids $!"
done
wait $pids

case_run() {   # case_run CASE MODEL ARGS…: HDF5 then CSV
    local name=$1 model=$2
    shift 2
    local bin=$B/$model/$model
    for fmt in h5 csv; do
        local out=$B/out.$fmt
        rm -f "$out"
        if [ ! -x "$bin" ]; then
            printf '{"runner": "%s", "format": "%s", "error": "not built"}\n' "$name" "$fmt" >>"$RES"
            continue
        fi
        local t0 t1
        t0=$(date +%s.%N)
        timeout 600 "$bin" "$@" --backend gpu -o "$out" 2>"$B/err"
        local rc=$?
        t1=$(date +%s.%N)
        local summary
        summary=$(tail -1 "$B/err" | tr -d '"\\')
        if [ $rc != 0 ]; then
            printf '{"runner": "%s", "format": "%s", "error": "status %d: %s"}\n' "$name" "$fmt" $rc "$summary" >>"$RES"
            log "$name ($fmt): failed: $summary"
            continue
        fi
        local bytes
        bytes=$(stat -c %s "$out")
        ${PY:-python3} - "$name" "$fmt" "$t0" "$t1" "$bytes" "$summary" >>"$RES" <<'PYEOF'
import json, re, sys
name, fmt, t0, t1, size, summary = sys.argv[1:7]
num = r"([0-9.e+-]+)"
def grab(pattern):
    m = re.search(pattern, summary)
    return float(m.group(1)) if m else None
print(json.dumps(dict(runner=name, format=fmt, process_wall=float(t1) - float(t0), bytes=int(size),
                      wall=grab(r"steps, " + num + " s"), startup=grab(r"CUDA start-up " + num + " s"),
                      integration=grab(r"integration " + num + " s"), output=grab(r"output " + num + " s"),
                      summary=summary)))
PYEOF
        log "$name ($fmt): $summary"
        rm -f "$out"
    done
}

case_run duffing_rk4 duffing --scan "k=lin(0.2,0.3,$N)" --transient 1024 --recorded 32
case_run duffing_rkck45 duffing_rkck45 --scan "k=lin(0.2,0.3,$N)" --transient 1024 --recorded 32
case_run lorenz lorenz --scan "rho=lin(0,21,$N)" --transient 0 --recorded 1
case_run valve valve --scan "q=lin(0.2,10,$VALVE)" --transient 1024 --recorded 32
case_run keller_miksis keller_miksis "${KM[@]}" "${KMREPS[@]}"

if [ "${KERNELS:-0}" = 1 ]; then
    # The same kernels bench/run.sh times, from the objects built above.
    kernel() {   # kernel MODEL N TRANSIENT RECORD SCAN…
        local m=$1
        shift
        local bin=$B/$m/bench
        if [ ! -x "$bin" ]; then
            nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
            "$nvcc" -O3 -arch="$ARCH" -Xcompiler -fopenmp -I"$B/$m" -DMODEL="$m" -DUMODEL="$(echo "$m" | tr a-z A-Z)" \
                bench/bench_model.c "$B/$m/$m.o" -o "$bin" -lm || { echo "bench_model for $m failed"; return; }
        fi
        local line
        line=$(timeout 300 "$bin" "$1" "$2" "$3" 0 0 "${@:4}") && printf '{"variant": "%s", %s\n' "$m" "${line#\{}" >>"$RES"
        log "kernel $m: $(echo "$line" | grep -o '"seconds": [0-9.]*')"
    }
    KMK="PA1=list:0.5:1.1 PA2=list:0.7:1.2 f1=log:20:1000:128 f2=log:20:1000:128"
    [ "${BENCH_QUICK:-0}" = 1 ] && KMK="PA1=list:1.1 PA2=list:1.2 f1=log:20:1000:16 f2=log:20:1000:16"
    kernel duffing "$N" 1024 32 "k=lin:0.2:0.3:0"
    kernel duffing_rkck45 "$N" 1024 32 "k=lin:0.2:0.3:0"
    BENCH_AGAIN=1 kernel lorenz "$N" 0 1 "rho=lin:0:21:0"
    kernel valve "$VALVE" 1024 32 "q=lin:0.2:10:0"
    read -r -a kmreps <<<"${KMREPS[1]} ${KMREPS[3]}"
    kernel keller_miksis 0 "${kmreps[0]}" "${kmreps[1]}" $KMK
    ${PY:-python3} bench/runner_report.py "$RES"
fi
