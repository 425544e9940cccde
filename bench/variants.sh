# bench/variants.sh — what bench/options.sh and bench/stability.sh share: two
# builds of one model's runner that differ by compiler flags, their kernels'
# registers, and their integration times.  Sourced; reads OUT, BACKEND and ARCH.

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

# compare MODEL A FLAGS_A B FLAGS_B LIMIT ARGS…: both builds, one line (the printf of the caller's
# header: model, registers of each, times, ratio A/B, whether the outputs are the same bytes);
# pass=0 when a build or a run fails, the outputs differ or the ratio exceeds LIMIT (not read
# with BENCH_QUICK=1, whose sizes are too small to time).
compare() {
    local case=$1 va=$2 fa=$3 vb=$4 fb=$5 limit=$6
    shift 6
    if ! build "$case" "$va" "$fa" || ! build "$case" "$vb" "$fb"; then
        echo "$case: build failed (see $OUT/$case-*/build.log)"
        pass=0
        return
    fi
    local bin_a=$OUT/$case-$va/$case bin_b=$OUT/$case-$vb/$case same=no a b ratio
    "$bin_a" --backend "$run_backend" --quiet "$@" -o "$OUT/$case-$va.csv" &&
        "$bin_b" --backend "$run_backend" --quiet "$@" -o "$OUT/$case-$vb.csv" || pass=0
    cmp -s "$OUT/$case-$va.csv" "$OUT/$case-$vb.csv" && same=yes
    a=$(seconds "$bin_a" "$@")
    b=$(seconds "$bin_b" "$@")
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
    printf "$row_format" "$case" "$(registers "$OUT/$case-$va")" "$(registers "$OUT/$case-$vb")" "$a" "$b" \
        "$ratio" "$same"
    [ "$same" = yes ] || pass=0
    [ "${BENCH_QUICK:-0}" = 1 ] || { awk -v r="$ratio" -v l="$limit" 'BEGIN { exit !(r > l) }' && pass=0; }
}
