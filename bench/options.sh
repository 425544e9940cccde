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
run_backend=gpu
make_vars=(BACKEND=cuda ARCH="$ARCH")
if [ "$BACKEND" = cpu ]; then
    run_backend=cpu
    make_vars=(BACKEND=cpu)
fi

# build MODEL VARIANT FLAGS: the runner in OUT/MODEL-VARIANT; ptxas's report in its build.log
build() {
    local model=$1 variant=$2 flags=$3 dir=$OUT/$1-$2
    rm -rf "$dir"
    build/odegen "models/$model.ode" -o "$dir" >/dev/null 2>&1 || return 1
    if [ "$BACKEND" = cpu ]; then
        make -s -C "$dir" "${make_vars[@]}" CFLAGS="-O2 $flags" "$model" >"$dir/build.log" 2>&1
    else
        make -s -C "$dir" "${make_vars[@]}" NVCCFLAGS="-O3 -Xptxas -v $flags" "$model" >"$dir/build.log" 2>&1
    fi
}

# registers DIR: "R regs, S B spill, F B stack" of ode_kernel (ptxas -v), or "-" on the CPU
registers() {
    awk '/Compiling entry function .*ode_kernel9/ { on = 1; next }
         on && /stack frame/ { stack = $1; spill = $5 + $9 }
         on && /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") r = $(i + 1);
                                         printf "%s regs, %s B spill, %s B stack", r, spill, stack; exit }' "$1/build.log"
    grep -q "ode_kernel9" "$1/build.log" || printf -- "-"
}

# seconds BIN ARGS…: the best integration time of 3 runs (the runner's summary)
seconds() {
    local bin=$1 best="" t
    shift
    for _ in 1 2 3; do
        t=$("$bin" --backend "$run_backend" "$@" -o "$OUT/scratch.csv" 2>&1 >/dev/null |
            sed -n 's/.*(.*integration \([0-9.e+-]*\) s,.*/\1/p')
        [ -n "$t" ] || { echo "no summary from $bin" >&2; echo 0; return; }
        best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
    done
    echo "$best"
}

pass=1
printf '%-16s %-34s %-34s %10s %10s %6s %s\n' model "registers (run-time options)" "registers (constant)" \
    "t run-time" "t const" ratio "same output"
for case in duffing duffing_rkck45 keller_miksis; do
    if [ "$case" = keller_miksis ]; then args=("${KM[@]}"); else args=("${DUFFING[@]}"); fi
    if ! build "$case" runtime "" || ! build "$case" constant "-DODE_OPTIONS_CONSTANT=1"; then
        echo "$case: build failed (see $OUT/$case-*/build.log)"
        pass=0
        continue
    fi
    rt=$OUT/$case-runtime/$case
    ct=$OUT/$case-constant/$case
    "$rt" --backend "$run_backend" --quiet "${args[@]}" -o "$OUT/$case-runtime.csv" &&
        "$ct" --backend "$run_backend" --quiet "${args[@]}" -o "$OUT/$case-constant.csv" || pass=0
    same=no
    cmp -s "$OUT/$case-runtime.csv" "$OUT/$case-constant.csv" && same=yes
    a=$(seconds "$rt" "${args[@]}")
    b=$(seconds "$ct" "${args[@]}")
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
    printf '%-16s %-34s %-34s %10s %10s %6s %s\n' "$case" "$(registers "$OUT/$case-runtime")" \
        "$(registers "$OUT/$case-constant")" "$a" "$b" "$ratio" "$same"
    [ "$same" = yes ] || pass=0
    awk -v r="$ratio" 'BEGIN { exit !(r > 1.03) }' && pass=0
done
rm -f "$OUT/scratch.csv"
[ "$pass" = 1 ] && echo "options: PASS" || echo "options: FAIL"
[ "$pass" = 1 ]
