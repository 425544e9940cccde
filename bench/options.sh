#!/usr/bin/env bash
# bench/options.sh — what the run-time options (templates/options.h: dt,
# toler, … read from the kernel's parameter) cost against the same model with
# the .ode file's values compiled in (-DODE_OPTIONS_CONSTANT=1).
#
#   bench/options.sh [OUT]          # on a GPU machine (default OUT: bench/out/options)
#   BENCH_QUICK=1 BACKEND=cpu bench/options.sh   # small sizes, on the CPU (a smoke test)
#
# For Duffing RK4, Duffing RKCK45 and Keller-Miksis (RKCK45), both builds of
# the runner: the kernel's registers, spills and stack (ptxas -v on ode_kernel),
# the integration time from the runner's summary (the best of 3 runs), and
# whether the two outputs are the same bytes.  One line per model; it passes
# when every output is the same and no ratio exceeds 1.03 (the last line says
# "options: PASS" or "options: FAIL").
set -u
cd "$(dirname "$0")/.."
OUT=${1:-bench/out/options}
BACKEND=${BACKEND:-cuda}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT"
[ -x build/odegen ] || make -s build/odegen || exit 1

DUFFING=(--scan 'k=lin(0.2,0.3,512)' --scan 'B=lin(0.1,0.5,512)' --transient 256 --recorded 8)
KM=(--scan 'PA1=list(0.5,1.1)' --scan 'PA2=list(0.7,1.2)' --scan 'f1=log(20,1000,64)' --scan 'f2=log(20,1000,64)'
    --transient 64 --recorded 8)
if [ "${BENCH_QUICK:-0}" = 1 ]; then
    DUFFING=(--scan 'k=lin(0.2,0.3,16)' --scan 'B=lin(0.1,0.5,8)' --transient 4 --recorded 2)
    KM=(--scan 'PA1=list(1.1)' --scan 'PA2=list(1.2)' --scan 'f1=log(20,1000,4)' --scan 'f2=log(20,1000,4)'
        --transient 2 --recorded 2)
fi
. bench/variants.sh

pass=1
row_format='%-16s %-34s %-34s %10s %10s %6s %s\n'
printf "$row_format" model "registers (run-time options)" "registers (constant)" "t run-time" "t const" ratio \
    "same output"
for case in duffing duffing_rkck45; do
    compare "$case" runtime "" constant "-DODE_OPTIONS_CONSTANT=1" 1.03 "${DUFFING[@]}"
done
compare keller_miksis runtime "" constant "-DODE_OPTIONS_CONSTANT=1" 1.03 "${KM[@]}"
rm -f "$OUT/scratch.csv"
[ "$pass" = 1 ] && echo "options: PASS" || echo "options: FAIL"
[ "$pass" = 1 ]
