#!/usr/bin/env bash
# make bench — on a machine with a GPU: builds every variant, checks it, times
# every case in one run (more than 10 minutes on one H200 with every part; BENCH_RUNNER=0
# and BENCH_STIFF=0 leave parts out), and writes
# bench/BENCHMARKS.md from the results.
#   BENCH_OUT=DIR   where builds, logs and results.jsonl go (default bench/out)
#   ARCH=sm_90      the GPU architecture
#   BENCH_QUICK=1   small sizes only (a smoke test of this script)
#   BENCH_RUNNER=0  without the runners' wall times (bench/runner.sh)
#   BENCH_STIFF=0   without the stiff methods' part (bench/stiff.py; STIFF_BACKEND=cpu runs it on the CPU)
#   BENCH_REGISTERS=0  without the register budgets' part (bench/registers.sh, about 2 minutes)
#   BENCH_TEAM=0    without large and coupled models (bench/team.sh: teams of threads, MPGOS's
#                   coupled-systems solver where .mpgos/src holds it; 5 to 10 minutes)
#   BENCH_SDE=0     without the SDE part (bench/sde.sh: Euler–Maruyama against its deterministic
#                   twin, DiffEqGPU's figure, diffrax)
#   WP_BACKEND=cpu  the work-precision part on the CPU (its smoke test without a GPU:
#                   BENCH_QUICK=1 WP_BACKEND=cpu python3 bench/workprecision.py … — see that file)
set -u
cd "$(dirname "$0")/.."
OUT=${BENCH_OUT:-bench/out}
B=$OUT/build
mkdir -p "$B"
RES=$OUT/results.jsonl
: >"$RES"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
PY=${PY:-python3}
[ -x build/odegen ] || make build/odegen || exit 1
log() { printf '%s  %s\n' "$(date +%T)" "$*"; }
note() { printf '%s\n' "$1" >>"$RES"; }

SIZES="30720 122880 1048576"
KM_SCAN="PA1=list:1.1 PA2=list:1.2 f1=log:20:1000:128 f2=log:20:1000:128"   # one of the four panels: 16384 systems
KM_REPS="1024 64"
KM_FULL="PA1=list:0.5:1.1 PA2=list:0.7:1.2 f1=log:20:1000:128 f2=log:20:1000:128"
VALVE_SIZES="30720 122880"
[ "${BENCH_QUICK:-0}" = 1 ] && SIZES="30720" && KM_SCAN="PA1=list:1.1 PA2=list:1.2 f1=log:20:1000:16 f2=log:20:1000:16" && KM_REPS="8 8" && KM_FULL="$KM_SCAN" && VALVE_SIZES="30720"

# ---------------------------------------------------------------- builds
# variant  model-file  odegen-flags  nvcc-defines
VARIANTS="
duffing            duffing         -                   -
duffing_plaintrig  duffing         --no-time-trig      -
duffing_nofast     duffing         -                   -DODE_FAST_RK4=0
duffing_float      duffing         --precision=float   -
duffing_rkck45     duffing_rkck45  -                   -
lorenz             lorenz          -                   -
lorenz_float       lorenz          --precision=float   -
lorenz_nofast      lorenz          -                   -DODE_FAST_RK4=0
lorenz_block32     lorenz          -                   -DODE_FAST_BLOCK=32
lorenz_mb12        lorenz          -                   -DODE_MIN_BLOCKS=12
keller_miksis      keller_miksis   -                   -
valve              valve           -                   -
"
build_variant() {
    local v=$1 model=$2 flags=$3 defs=$4 d=$B/$1
    local gflags=""
    [ "$flags" != - ] && gflags=${flags/=/ }
    [ "$defs" = - ] && defs=""
    rm -rf "$d"
    build/odegen "models/$model.ode" -o "$d" $gflags >/dev/null 2>"$d.log" || return 1
    local name
    name=$(basename "$d"/*.cu .cu)
    "$NVCC" -O3 -arch="$ARCH" $defs -Xptxas -v -Xcompiler -fopenmp -c "$d/$name.cu" -o "$d/$name.o" 2>"$d/ptxas.log" || return 1
    "$NVCC" -O3 -arch="$ARCH" -Xcompiler -fopenmp -I"$d" -DMODEL="$name" -DUMODEL="$(echo "$name" | tr a-z A-Z)" \
        bench/bench_model.c "$d/$name.o" -o "$d/bench" -lm 2>>"$d.log" || return 1
}
log "building $(echo "$VARIANTS" | grep -c .) variants and the hand-written baselines"
pids=""
while read -r v model flags defs; do
    [ -z "$v" ] && continue
    ( build_variant "$v" "$model" "$flags" "$defs" || echo "build of $v failed: $(tail -5 "$B/$v.log" "$B/$v/ptxas.log" 2>/dev/null)" ) &
    pids="$pids $!"
done <<<"$VARIANTS"
"$NVCC" -O3 -arch="$ARCH" -Xptxas -v bench/handwritten.cu -o "$B/handwritten" 2>"$B/handwritten.ptxas.log" &
pids="$pids $!"
wait $pids
for d in "$B"/*/; do   # registers and spills of each variant's kernel
    v=$(basename "$d")
    [ -f "$d/ptxas.log" ] || continue
    $PY - "$v" "$d/ptxas.log" >>"$RES" <<'PYEOF'
import json, re, sys
v, text = sys.argv[1], open(sys.argv[2]).read()
m = re.search(r"Compiling entry function '\w*ode_kernel\w*' for.*?Used (\d+) registers.*?", text, re.S)
blocks = re.findall(r"Function properties for (\w+)\n\s+(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads\n.*?Used (\d+) registers", text)
out = {b[0]: dict(stack=int(b[1]), spill_stores=int(b[2]), spill_loads=int(b[3]), registers=int(b[4])) for b in blocks}
k = next((x for n, x in out.items() if "ode_kernel" in n and "queue" not in n and "stream" not in n), None)
print(json.dumps(dict(ptxas=v, kernel=k, all=out)))
PYEOF
done

# ---------------------------------------------------------------- runs
run() {   # variant N transient record balance block scan…
    local v=$1; shift
    local bin=$B/$v/bench
    [ "$v" = handwritten ] && bin=$B/handwritten
    if [ ! -x "$bin" ]; then note "{\"variant\": \"$v\", \"error\": \"not built\"}"; return; fi
    local line
    line=$(timeout 300 "$bin" "$@" 2>"$B/last.err") || { note "{\"variant\": \"$v\", \"args\": \"$*\", \"error\": \"$(tr -d '"\n' <"$B/last.err" | cut -c1-200)\"}"; return; }
    printf '{"variant": "%s", %s\n' "$v" "${line#\{}" >>"$RES"
    log "$v $*: $(echo "$line" | grep -o '"seconds": [0-9.]*')"
}
log "hardware FMA rates"
"$B/handwritten" fma64 >>"$RES"
"$B/handwritten" fma32 >>"$RES"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader >"$OUT/gpu.txt" 2>/dev/null

for N in $SIZES; do
    log "Duffing RK4, N=$N"
    run duffing "$N" 1024 32 0 0 "k=lin:0.2:0.3:0"
    run duffing_plaintrig "$N" 1024 32 0 0 "k=lin:0.2:0.3:0"
    run duffing_nofast "$N" 1024 32 0 0 "k=lin:0.2:0.3:0"
    run duffing_float "$N" 1024 32 0 0 "k=lin:0.2:0.3:0"
    run handwritten duffing "$N"
    log "Duffing RKCK45, N=$N"
    run duffing_rkck45 "$N" 1024 32 0 0 "k=lin:0.2:0.3:0"
    log "Lorenz RK4, N=$N"
    BENCH_AGAIN=1 run lorenz "$N" 0 1 0 0 "rho=lin:0:21:0"   # also a second scan call (issue 11's library target)
    run lorenz_float "$N" 0 1 0 0 "rho=lin:0:21:0"
    run lorenz_nofast "$N" 0 1 0 0 "rho=lin:0:21:0"
    run lorenz_block32 "$N" 0 1 0 0 "rho=lin:0:21:0"
    run lorenz_mb12 "$N" 0 1 0 0 "rho=lin:0:21:0"
    run handwritten lorenz "$N"
done
read -r KT KR <<<"$KM_REPS"
# Load balancing can only help where systems outnumber what the GPU holds at
# once: one KM panel (16384 systems) and the paper's valve (30720) are one
# wave; the whole 4-D KM scan (65536, fewer collapses) and the valve at 4x
# its N are several.
for bal in 0 1 2; do
    log "Keller-Miksis, one panel, balance=$bal"
    run keller_miksis 0 "$KT" "$KR" "$bal" 0 $KM_SCAN
done
for bal in 0 1 2; do
    log "Keller-Miksis, the 4-D scan, 256+64 collapses, balance=$bal"
    run keller_miksis 0 256 64 "$bal" 0 $KM_FULL
done
log "Keller-Miksis, the 4-D scan, $KT+$KR collapses (issue 11's case)"
run keller_miksis 0 "$KT" "$KR" 0 0 $KM_FULL
for N in $VALVE_SIZES; do
    for bal in 0 1 2; do
        log "valve N=$N balance=$bal"
        run valve "$N" 1024 32 "$bal" 0 "q=lin:0.2:10:0"
    done
done
if [ "${BENCH_RUNNER:-1}" = 1 ]; then
    log "the runners, HDF5 and CSV, against their kernels (bench/runner.sh)"
    PY=$PY bash bench/runner.sh "$OUT" "$RES"
fi
if [ "${BENCH_REGISTERS:-1}" = 1 ]; then
    log "register budgets and the event bound (bench/registers.sh)"
    PY=$PY bash bench/registers.sh "$OUT/registers" >"$OUT/registers.log" 2>&1 || echo "bench/registers.sh failed"
fi
if [ "${BENCH_TEAM:-1}" = 1 ]; then
    log "large and coupled models: teams of threads (bench/team.sh)"
    TEAM_QUICK=()
    [ "${BENCH_QUICK:-0}" = 1 ] && TEAM_QUICK=(TEAM_CHAIN_UNITS=8 TEAM_PARTS="A E")
    env "${TEAM_QUICK[@]}" BENCH_OUT="$OUT" PY=$PY bash bench/team.sh >"$OUT/team.log" 2>&1 || echo "bench/team.sh failed"
fi
log "peers"
PEER_SIZES="30720 1048576"
[ "${BENCH_QUICK:-0}" = 1 ] && PEER_SIZES="30720"
timeout 240 $PY bench/peers.py duffing $PEER_SIZES >>"$RES" 2>"$OUT/peers.err" || echo '{"peer": "all", "error": "peers.py failed or timed out"}' >>"$RES"
timeout 180 $PY bench/peers.py lorenz $PEER_SIZES >>"$RES" 2>>"$OUT/peers.err" || echo '{"peer": "all", "error": "peers.py (lorenz) failed or timed out"}' >>"$RES"
log "work-precision (every method, tolerances 1e-6 … 1e-12, against DOP853 at 1e-13)"
WP_QUICK=""
[ "${BENCH_QUICK:-0}" = 1 ] && WP_QUICK=--quick
timeout 420 $PY bench/workprecision.py --backend "${WP_BACKEND:-gpu}" $WP_QUICK --out "$OUT/wp" >>"$RES" 2>"$OUT/wp.err" ||
    echo '{"wp": "all", "error": "workprecision.py failed or timed out (see bench/out/wp.err)"}' >>"$RES"
if [ "${BENCH_STIFF:-1}" = 1 ]; then
    log "stiff methods: ROBER and neuron ensembles, CPU path against CVODE, work-precision (bench/stiff.py)"
    STIFF_QUICK=""
    [ "${BENCH_QUICK:-0}" = 1 ] && STIFF_QUICK=--quick
    timeout 360 $PY bench/stiff.py --backend "${STIFF_BACKEND:-gpu}" $STIFF_QUICK --out "$OUT/stiff" \
        --md "$OUT/stiff.md" >>"$RES" 2>"$OUT/stiff.err" ||
        echo '{"stiff": "all", "error": "stiff.py failed or timed out (see bench/out/stiff.err)"}' >>"$RES"
fi
if [ "${BENCH_SDE:-1}" = 1 ]; then
    log "SDEs: Euler–Maruyama, the cost of the noise, diffrax (bench/sde.sh)"
    PY=$PY bash bench/sde.sh "$OUT/sde" >"$OUT/sde.log" 2>&1 || echo "bench/sde.sh failed (see $OUT/sde.log)"
fi
log "report"
$PY bench/report.py "$RES" "$OUT/gpu.txt" >"$OUT/BENCHMARKS.md" &&
    $PY bench/runner_report.py "$RES" >>"$OUT/BENCHMARKS.md" &&
    { [ ! -s "$OUT/stiff.md" ] || cat "$OUT/stiff.md" >>"$OUT/BENCHMARKS.md"; } &&
    { [ ! -s "$OUT/registers/registers.md" ] || cat "$OUT/registers/registers.md" >>"$OUT/BENCHMARKS.md"; } &&
    { [ ! -s "$OUT/team/TEAM.md" ] || cat "$OUT/team/TEAM.md" >>"$OUT/BENCHMARKS.md"; } &&
    { [ ! -s "$OUT/sde/sde.md" ] || { echo; cat "$OUT/sde/sde.md"; } >>"$OUT/BENCHMARKS.md"; } &&
    cp "$OUT/BENCHMARKS.md" bench/BENCHMARKS.md
tail -n 60 "$OUT/BENCHMARKS.md"
