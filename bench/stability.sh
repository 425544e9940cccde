#!/usr/bin/env bash
# bench/stability.sh — what the fixed-step methods' stability check
# (templates/stability.h: the status `unstable`) costs, against the same
# model built with -DODE_STABILITY_CHECK=0.
#
#   bench/stability.sh [OUT]        # on a GPU machine (default OUT: bench/out/stability)
#   BENCH_QUICK=1 BACKEND=cpu bench/stability.sh   # small sizes, on the CPU (a smoke test)
#
# For the benchmarks' fixed-step models, Duffing RK4 (2^18 systems, 256 + 8
# periods) and Lorenz RK4 (2^20 systems, 10 time units): the kernel's
# registers, spills and stack (ptxas -v on ode_kernel), the integration time
# from the runner's summary (the best of 3 runs) and whether the outputs are
# the same bytes (the check never fires on these models).  One line per
# model; it passes when every output is the same and no ratio exceeds 1.05
# (the last line says "stability: PASS" or "stability: FAIL").
set -u
cd "$(dirname "$0")/.."
OUT=${1:-bench/out/stability}
BACKEND=${BACKEND:-cuda}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT"
[ -x build/odegen ] || make -s build/odegen || exit 1

DUFFING=(--scan 'k=lin(0.2,0.3,512)' --scan 'B=lin(0.1,0.5,512)' --transient 256 --recorded 8)
LORENZ=(--scan 'rho=lin(0,21,1048576)')
if [ "${BENCH_QUICK:-0}" = 1 ]; then
    DUFFING=(--scan 'k=lin(0.2,0.3,16)' --scan 'B=lin(0.1,0.5,8)' --transient 4 --recorded 2)
    LORENZ=(--scan 'rho=lin(0,21,256)')
fi
. bench/variants.sh

pass=1
row_format='%-10s %-34s %-34s %10s %10s %6s %s\n'
printf "$row_format" model "registers (check)" "registers (no check)" "t check" "t none" ratio "same output"
compare duffing check "" none "-DODE_STABILITY_CHECK=0" 1.05 "${DUFFING[@]}"
compare lorenz check "" none "-DODE_STABILITY_CHECK=0" 1.05 "${LORENZ[@]}"
rm -f "$OUT/scratch.csv"
[ "$pass" = 1 ] && echo "stability: PASS" || echo "stability: FAIL"
[ "$pass" = 1 ]
