#!/usr/bin/env bash
# bench/cpu_path.sh — the CPU (OpenMP) path of one generated model, built the two ways a user
# gets it: by the C compiler (make BACKEND=cpu: cc -O2) and by nvcc (make, the default where
# CUDA is installed: nvcc -O3, its host pass compiled by g++), run on the same scan with one
# thread on the CPU backend.  Prints one line: each build's CPU time (user + system, the best of
# three runs), their ratio, and whether the two CSVs are the same byte for byte.  A measurement,
# not a test: `make test` prints it (tests/runtime/run.sh) and asserts only the CSVs.
#
#   bench/cpu_path.sh [DIR]     builds in DIR (default a temporary directory, removed after)
#
# The case is the issue's: models/duffing.ode (RK4, dt 0.01), 4096 systems over k, 16 periods
# (--transient 15 --recorded 1).  Needs build/odegen and nvcc (or NVCC=...); exit status 0
# when both builds ran and gave the same CSV, 1 otherwise, 2 without nvcc.
set -u
cd "$(dirname "$0")/.." || exit 2
NVCC=${NVCC:-$(command -v nvcc || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })}
[ -n "$NVCC" ] || { echo "cpu_path: no nvcc: nothing to compare"; exit 2; }
ODEGEN=$(realpath "${ODEGEN:-build/odegen}")
[ -x "$ODEGEN" ] || { echo "cpu_path: build/odegen not built (make)"; exit 1; }
if [ $# -ge 1 ]; then
    W=$1
    mkdir -p "$W" || exit 1
else
    W=$(mktemp -d "${TMPDIR:-/tmp}/odegen-cpupath.XXXXXX") || exit 1
    trap 'rm -rf "$W"' EXIT
fi
ARGS=(--backend cpu --quiet --scan 'k=lin(0.2,0.3,4096)' --transient 15 --recorded 1)

# build NAME MAKEARGS…: the model generated into W/NAME and built.
build() {
    local name=$1
    shift
    rm -rf "${W:?}/$name"
    "$ODEGEN" models/duffing.ode -o "$W/$name" -q &&
        make -C "$W/$name" HDF5=0 NVCC="$NVCC" "$@" >"$W/$name.log" 2>&1 ||
        { echo "cpu_path: building $name failed: $(tail -5 "$W/$name.log")"; return 1; }
}
# best NAME: the least CPU time of three runs (seconds), the CSV in W/NAME.csv.
best() {
    local name=$1 least="" t
    for _ in 1 2 3; do
        t=$( { TIMEFORMAT='%U %S'; time OMP_NUM_THREADS=1 "$W/$name/duffing" "${ARGS[@]}" -o "$W/$name.csv"; } 2>&1 |
            awk 'NF == 2 { printf "%.3f", $1 + $2 }')
        [ -n "$t" ] || return 1
        least=$(awk -v a="$least" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
    done
    echo "$least"
}
build cc BACKEND=cpu || exit 1
build nvcc BACKEND=cuda || exit 1
cc=$(best cc) && nv=$(best nvcc) || { echo "cpu_path: a run failed"; exit 1; }
same="the same CSV"
cmp -s "$W/cc.csv" "$W/nvcc.csv" || same="DIFFERENT CSVs"
ratio=$(awk -v a="$nv" -v b="$cc" 'BEGIN { printf "%.2f", a / b }')
echo "CPU path, Duffing RK4, 4096 systems x 16 periods, 1 thread (CPU time, best of 3): built by cc ${cc} s, by nvcc ${nv} s (${ratio}x); $same"
[ "$same" = "the same CSV" ]
