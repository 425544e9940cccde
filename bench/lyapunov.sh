#!/usr/bin/env bash
# bench/lyapunov.sh — what `lyapunov` and `period` cost (issue 10's benchmark),
# on a machine with a GPU: the Duffing (k, B) map of models/duffing_map.ode at
# N = 1024 × 1024 = 2^20 systems, RKCK45 with tolerances 1e-9, TRANSIENT +
# RECORD forcing periods, timed by bench/bench_model.c (the kernel of one
# model_solver_scan), in five variants of the same model:
#   plain       no statement
#   lyapunov1   lyapunov 1                 (target: ≤ 2× plain)
#   lyapunov2   lyapunov 2                 (target: ≤ 3× plain)
#   period      period of=y1, y2, tol=1e-5, max=32
#   hand        models/duffing_lyapunov.ode (the variational equations by hand)
# Prints one line per variant (kernel seconds, ratio to plain, steps, the
# ptxas report) and writes bench/out/lyapunov.jsonl.
#   N=65536 TRANSIENT=64 RECORD=16 bash bench/lyapunov.sh     # smaller
#   BENCH_BACKEND=cpu N=4096 TRANSIENT=16 RECORD=16 bash bench/lyapunov.sh   # a smoke test without a GPU (cc)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${BENCH_OUT:-bench/out}/lyapunov
mkdir -p "$OUT"
N=${N:-1048576}
TRANSIENT=${TRANSIENT:-256}
RECORD=${RECORD:-64}
ARCH=${ARCH:-sm_90}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ON=${BENCH_BACKEND:-gpu}
side=$(awk -v n="$N" 'BEGIN { printf "%d", sqrt(n) + 0.5 }')
[ -x build/odegen ] || make build/odegen >/dev/null
export BENCH_BACKEND=$ON

variant() {   # variant NAME: writes $OUT/NAME.ode
    local base=models/duffing_map.ode
    case $1 in
        plain)     sed -e '/^lyapunov/d' -e '/^period/d' -e 's/^record .*/record y1/' $base ;;
        lyapunov1) sed -e '/^period/d' -e 's/^record .*/record lyap1/' $base ;;
        lyapunov2) sed -e 's/^lyapunov 1/lyapunov 2/' -e '/^period/d' -e 's/^record .*/record lyap1, lyap2/' $base ;;
        period)    sed -e '/^lyapunov/d' -e 's/^record .*/record period/' $base ;;
        hand)      cat models/duffing_lyapunov.ode ;;
    esac > "$OUT/$1.ode"
}

: > "$OUT/../lyapunov.jsonl"
plain=""
printf '%-10s %10s %8s %14s  %s\n' variant seconds ratio steps "registers, stack, spills (ode_kernel)"
for v in plain lyapunov1 lyapunov2 period hand; do
    d=$OUT/$v
    variant "$v"
    rm -rf "$d"
    (cd "$OUT" && "$ROOT/build/odegen" -q "$v.ode" -o "$v")
    regs="-"
    if [ "$ON" = cpu ]; then
        cc -O2 -std=c11 -fopenmp -x c -c "$d/$v.cu" -o "$d/$v.o"
        cc -O2 -fopenmp -I"$d" -DMODEL="$v" -DUMODEL="$(echo "$v" | tr a-z A-Z)" bench/bench_model.c "$d/$v.o" -o "$d/bench" -lm
    else
        "$NVCC" -O3 -arch="$ARCH" -Xptxas -v -Xcompiler -fopenmp -c "$d/$v.cu" -o "$d/$v.o" 2>"$d/ptxas.log"
        "$NVCC" -O3 -arch="$ARCH" -Xcompiler -fopenmp -I"$d" -DMODEL="$v" -DUMODEL="$(echo "$v" | tr a-z A-Z)" \
            bench/bench_model.c "$d/$v.o" -o "$d/bench" -lm
        regs=$(awk '/Function properties for _Z10ode_kernel/ { f = 1 } f && /stack frame/ { st = $1; sp = $5 + $9 }
                    f && /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") r = $(i + 1); print r ", " st " B, " sp " B"; exit }' "$d/ptxas.log")
    fi
    json=$("$d/bench" "$N" "$TRANSIENT" "$RECORD" 0 0 "k=lin:0.05:0.45:$side" "B=lin:0.05:0.55:$side")
    echo "$json" | sed "s/^{/{\"variant\": \"$v\", /" >> "$OUT/../lyapunov.jsonl"
    secs=$(echo "$json" | sed -E 's/.*"seconds": ([0-9.e+-]+).*/\1/')
    steps=$(echo "$json" | sed -E 's/.*"steps": ([0-9]+).*/\1/')
    [ -z "$plain" ] && plain=$secs
    printf '%-10s %10.3f %8.2f %14s  %s\n' "$v" "$secs" "$(awk -v a="$secs" -v b="$plain" 'BEGIN { print a / b }')" "$steps" "$regs"
done
echo "N = $((side * side)) ($side x $side), $TRANSIENT + $RECORD periods, on the $ON; targets: lyapunov1 <= 2, lyapunov2 <= 3"
