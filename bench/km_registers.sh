#!/usr/bin/env bash
# bench/km_registers.sh — the register budget of Keller–Miksis's kernel
# (issue 11): builds the model with __launch_bounds__(BLOCK, MIN_BLOCKS) for
# several MIN_BLOCKS and block sizes, times the paper's 4-D scan (65536
# systems, 1024+64 collapses) through the C API (bench_model.c), and with
# NCU=1 profiles one launch (after the warm-up's) of MIN_BLOCKS=1 and 4 with Nsight
# Compute (occupancy, issue slots, spills).  Results: OUT/km_registers.jsonl.
#   bench/km_registers.sh [OUT]        (ARCH=sm_90, KM_REPS="1024 64")
set -u
cd "$(dirname "$0")/.."
OUT=${1:-bench/out/km_registers}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
RES=$OUT/km_registers.jsonl
: >"$RES"
KM_FULL="PA1=list:0.5:1.1 PA2=list:0.7:1.2 f1=log:20:1000:128 f2=log:20:1000:128"
read -r KT KR <<<"${KM_REPS:-1024 64}"
[ -x build/odegen ] || make build/odegen || exit 1
build/odegen models/keller_miksis.ode -o "$OUT/gen" -q || exit 1
VARIANTS="mb1_b128:-DODE_MIN_BLOCKS=1 mb2_b128:-DODE_MIN_BLOCKS=2 mb3_b128:-DODE_MIN_BLOCKS=3 mb4_b128:-DODE_MIN_BLOCKS=4
          mb5_b128:-DODE_MIN_BLOCKS=5 mb8_b64:-DODE_MIN_BLOCKS=8,-DODE_BLOCK_SIZE=64 mb2_b256:-DODE_MIN_BLOCKS=2,-DODE_BLOCK_SIZE=256"
for vd in $VARIANTS; do
    v=${vd%%:*}
    defs=${vd#*:}
    (
        d=$OUT/$v
        mkdir -p "$d"
        "$NVCC" -O3 -arch="$ARCH" ${defs//,/ } -Xptxas -v -Xcompiler -fopenmp -c "$OUT/gen/keller_miksis.cu" -o "$d/km.o" \
            2>"$d/ptxas.log" &&
            "$NVCC" -O3 -arch="$ARCH" -Xcompiler -fopenmp -I"$OUT/gen" -DMODEL=keller_miksis -DUMODEL=KELLER_MIKSIS \
                bench/bench_model.c "$d/km.o" -o "$d/bench" -lm 2>>"$d/ptxas.log" || echo "build of $v failed"
    ) &
done
wait
for vd in $VARIANTS; do
    v=${vd%%:*}
    defs=${vd#*:}
    regs=$(awk "/Compiling entry function '_Z10ode_kernel9/ {on=1} on && /Used [0-9]+ registers/ {sub(/.*Used /, \"\"); print \$1; exit}" "$OUT/$v/ptxas.log")
    spill=$(grep -A1 "Function properties for _Z10ode_kernel9" "$OUT/$v/ptxas.log" | grep -o "[0-9]* bytes spill stores, [0-9]* bytes spill loads")
    for bal in 0 1; do
        line=$(timeout 120 "$OUT/$v/bench" 0 "$KT" "$KR" "$bal" 0 $KM_FULL 2>"$OUT/$v/err") || line="{\"error\": \"$(tr -d '"\n' <"$OUT/$v/err" | cut -c1-200)\"}"
        printf '{"variant": "%s", "defines": "%s", "registers": "%s", "spills": "%s", "balance": %s, %s\n' "$v" "$defs" "$regs" "$spill" "$bal" "${line#\{}" | tee -a "$RES"
    done
done
if [ "${NCU:-0}" = 1 ] && command -v ncu >/dev/null; then
    for v in mb1_b128 mb4_b128; do
        timeout 200 ncu --kernel-name regex:"^ode_kernel$" --launch-skip 1 --launch-count 1 --section LaunchStats --section Occupancy \
            --section SpeedOfLight --section SchedulerStats --section WarpStateStats \
            "$OUT/$v/bench" 0 32 8 0 0 $KM_FULL >"$OUT/ncu_$v.txt" 2>&1 || echo "ncu on $v failed: $(tail -3 "$OUT/ncu_$v.txt")"
    done
fi
