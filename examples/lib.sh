# examples/lib.sh — what every example script shares (sourced, not run).
#
# Flags (each has an environment variable, the flag wins):
#   --backend auto|gpu|cpu   ODEGEN_BACKEND   where the runner runs (default auto:
#                                             the GPU when one is present)
#   --size full|reduced      EXAMPLES_SIZE    full: the paper's scan; reduced: the
#                                             documented CPU size (default: full on
#                                             a GPU, reduced on the CPU)
#   --out DIR                EXAMPLES_OUT     where data, logs and PNGs go
#                                             (default examples/out)
#   --raw | --no-raw         EXAMPLES_RAW=1/0 also keep the runner's full CSV
#                                             (default: only at reduced size)
#   --no-plot                EXAMPLES_PLOT=0  skip the PNG (plot later with
#                                             examples/plot.sh DIR)
#
# Needs bash, make, a C compiler (or nvcc), flex, bison and python3; gnuplot only
# for the PNGs.  Models are built under build/examples/NAME.

set -euo pipefail
EX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$EX_ROOT"
PY=${PY:-$(command -v python3 || echo /usr/bin/python3)}

# --help: the calling script's header comment, then the flags above.
ex_usage() {
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    echo
    sed -n '/^# Flags/,/^$/p' "$EX_ROOT/examples/lib.sh" | sed 's/^# \{0,1\}//'
    exit 0
}

ex_parse_args() {
    EX_BACKEND=${ODEGEN_BACKEND:-auto}
    EX_SIZE=${EXAMPLES_SIZE:-}
    EX_OUT=${EXAMPLES_OUT:-examples/out}
    EX_RAW=${EXAMPLES_RAW:-}
    EX_PLOT=${EXAMPLES_PLOT:-1}
    while [ $# -gt 0 ]; do
        case $1 in
            --backend) EX_BACKEND=${2:?--backend needs a value}; shift ;;
            --backend=*) EX_BACKEND=${1#*=} ;;
            --size) EX_SIZE=${2:?--size needs a value}; shift ;;
            --size=*) EX_SIZE=${1#*=} ;;
            --full) EX_SIZE=full ;;
            --reduced) EX_SIZE=reduced ;;
            --out|-o) EX_OUT=${2:?--out needs a directory}; shift ;;
            --out=*) EX_OUT=${1#*=} ;;
            --raw) EX_RAW=1 ;;
            --no-raw) EX_RAW=0 ;;
            --no-plot) EX_PLOT=0 ;;
            -h|--help) ex_usage ;;
            *) echo "$(basename "$0"): unknown flag '$1' (try --help)" >&2; exit 2 ;;
        esac
        shift
    done
    case $EX_BACKEND in auto|gpu|cpu) ;; *) echo "$(basename "$0"): --backend must be auto, gpu or cpu (got '$EX_BACKEND')" >&2; exit 2 ;; esac
    case $EX_SIZE in ''|full|reduced) ;; *) echo "$(basename "$0"): --size must be full or reduced (got '$EX_SIZE')" >&2; exit 2 ;; esac
    mkdir -p "$EX_OUT"
    EX_OUT=$(cd "$EX_OUT" && pwd)
}

# ex_parse_grid_args ARGS...: ex_parse_args, plus the flag of the scripts that scan a
# square grid: --grid N (N x N, whatever the size; sets EX_GRID, empty when not given).
ex_parse_grid_args() {
    EX_GRID=""
    local args=()
    while [ $# -gt 0 ]; do
        case $1 in
            --grid) EX_GRID=${2:?--grid needs a number}; shift ;;
            --grid=*) EX_GRID=${1#*=} ;;
            *) args+=("$1") ;;
        esac
        shift
    done
    ex_parse_args ${args[@]+"${args[@]}"}
    [ -z "$EX_GRID" ] || [[ "$EX_GRID" =~ ^[1-9][0-9]*$ ]] || { echo "$(basename "$0"): --grid must be a positive number (got '$EX_GRID')" >&2; exit 2; }
}

# ex_grid FULL REDUCED: once EX_SIZE is known (after ex_prepare), the grid's side
# when --grid did not give one: FULL at full size, REDUCED at reduced size.
ex_grid() {
    if [ -z "$EX_GRID" ]; then
        if [ "$EX_SIZE" = full ]; then EX_GRID=$1; else EX_GRID=$2; fi
    fi
}

ex_say() { printf '%s: %s\n' "$EX_NAME" "$*" >&2; }

# Builds the translator (once per run_all: make is quick when up to date).
ex_build_odegen() {
    [ -n "${ODEGEN_TRANSLATOR:-}" ] && return   # a translator given as it is (as Python's odegen takes it)
    make -s -C "$EX_ROOT" build/odegen >&2 || { ex_say "building odegen failed (see above)"; exit 1; }
}

# ex_build_model MODEL: generates models/MODEL.ode into build/examples/MODEL and
# builds its runner; sets EX_RUNNER.  With --backend cpu the C compiler builds
# it (quicker than nvcc); otherwise nvcc when there is one.
ex_build_model() {
    local model=$1 dir=build/examples/$1
    ex_build_odegen
    mkdir -p build/examples
    "${ODEGEN_TRANSLATOR:-build/odegen}" "models/$model.ode" -o "$dir" >/dev/null || { ex_say "odegen failed on models/$model.ode"; exit 1; }
    local mk=(-s -C "$dir")
    [ "$EX_BACKEND" = cpu ] && mk+=(BACKEND=cpu)
    [ -n "${ARCH:-}" ] && mk+=(ARCH="$ARCH")
    make "${mk[@]}" >"$dir/build.log" 2>&1 || { cat "$dir/build.log" >&2; ex_say "building the $model runner failed"; exit 1; }
    EX_RUNNER=$dir/$model
}

# ex_prepare MODEL: ex_build_model, then ex_resolve.
ex_prepare() {
    ex_build_model "$1"
    ex_resolve
}

# ex_scan NAME A B FULL REDUCED: a linear scan of NAME over [A, B]: at full size
# the model's own scan line (FULL values), at reduced size REDUCED values.
# Sets EX_N (the count) and EX_SCAN (the runner's flags, maybe none).
ex_scan() {
    EX_SCAN=()
    EX_N=$4
    if [ "$EX_SIZE" = reduced ]; then
        EX_N=$5
        EX_SCAN=(--scan "$1=lin($2,$3,$EX_N)")
    fi
}

# ex_resolve: turns --backend auto into gpu or cpu (one tiny run of the runner
# on the GPU tells whether there is one), then picks the size.  Sets EX_ON
# (gpu|cpu) and EX_SIZE.
ex_resolve() {
    EX_ON=$EX_BACKEND
    if [ "$EX_ON" = auto ]; then
        if "$EX_RUNNER" --backend gpu --transient 0 --recorded 1 --quiet >/dev/null 2>&1; then
            EX_ON=gpu
        else
            EX_ON=cpu
        fi
    fi
    if [ -z "$EX_SIZE" ]; then
        if [ "$EX_ON" = gpu ]; then EX_SIZE=full; else EX_SIZE=reduced; fi
    fi
    if [ -z "$EX_RAW" ]; then
        if [ "$EX_SIZE" = full ]; then EX_RAW=0; else EX_RAW=1; fi
    fi
}

# ex_run TAG "WHAT" RUNNER-ARGS... -- REDUCE-ARGS...
# Runs the runner on EX_ON and pipes its CSV through reduce.py into OUT/TAG.dat
# (and OUT/TAG.csv with --raw).  The runner's standard error (its summary) is
# appended to OUT/runs.log, and one line per run to OUT/summary.txt:
#   TAG SIZE BACKEND WALL-SECONDS RUNNER-SUMMARY
ex_run() {
    local tag=$1 what=$2
    shift 2
    local rargs=() red=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do rargs+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    red=("$@")
    local dat=$EX_OUT/$tag.dat csv=$EX_OUT/$tag.csv err
    err=$(mktemp)
    printf '%s: %s, on the %s (%s size) ...\n' "$tag" "$what" "$(echo "$EX_ON" | tr a-z A-Z)" "$EX_SIZE" >&2
    local t0 t1 rc=0
    t0=$(date +%s.%N)
    if [ "$EX_RAW" = 1 ]; then
        "$EX_RUNNER" --backend "$EX_ON" "${rargs[@]}" 2>"$err" \
            | tee "$csv.part" | "$PY" examples/reduce.py "${red[@]}" -o "$dat" || rc=$?
        if [ $rc = 0 ]; then mv "$csv.part" "$csv"; else rm -f "$csv.part"; fi
    else
        rm -f "$csv"
        "$EX_RUNNER" --backend "$EX_ON" "${rargs[@]}" 2>"$err" \
            | "$PY" examples/reduce.py "${red[@]}" -o "$dat" || rc=$?
    fi
    t1=$(date +%s.%N)
    {
        printf '== %s (%s size, %s): %s %s\n' "$tag" "$EX_SIZE" "$EX_ON" "$EX_RUNNER" "${rargs[*]}"
        cat "$err"
    } >>"$EX_OUT/runs.log"
    cat "$err" >&2
    if [ $rc != 0 ]; then
        rm -f "$err"
        printf '%s: the run failed (exit status %s)\n' "$tag" "$rc" >&2
        exit 1
    fi
    local wall summary
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    summary=$(tail -1 "$err")
    rm -f "$err"
    printf '%-18s %-7s %-3s %8ss  %s\n' "$tag" "$EX_SIZE" "$EX_ON" "$wall" "$summary" >>"$EX_OUT/summary.txt"
    printf '%s: %s s; data in %s%s\n' "$tag" "$wall" "$dat" "$( [ "$EX_RAW" = 1 ] && echo ", full CSV in $csv")" >&2
}

# ex_plot TAG...: draws OUT/TAG.png from OUT/TAG.dat (unless --no-plot); without
# gnuplot, says how to get it and how to draw the figures later.
ex_plot() {
    [ "$EX_PLOT" = 1 ] || return 0
    if ! command -v gnuplot >/dev/null 2>&1; then
        echo "$EX_NAME: no PNG: the figures need gnuplot (sudo apt-get install gnuplot-nox);" \
             "then: bash examples/plot.sh $EX_OUT" >&2
        return 0
    fi
    bash examples/plot.sh "$EX_OUT" "$@"
}

# ex_attractor_run TAG "WHAT" RUNNER-ARGS...: runs a model with an `attractor`
# line on EX_ON, writing OUT/TAG.attractors.csv (and OUT/TAG.basins.csv with
# --basin-entropy or --uncertainty) next to OUT/TAG.csv, and OUT/TAG.labels:
# each system's label, one a line, in the scan's order (the runner writes one
# row a system, --last; its CSV is kept only with --raw).  The
# runner's summary goes to OUT/runs.log and one line to OUT/summary.txt.
ex_attractor_run() {
    local tag=$1 what=$2
    shift 2
    local err t0 t1 rc=0 csv=$EX_OUT/$tag.csv
    err=$(mktemp)
    printf '%s: %s, on the %s (%s size) ...\n' "$tag" "$what" "$(echo "$EX_ON" | tr a-z A-Z)" "$EX_SIZE" >&2
    t0=$(date +%s.%N)
    # -o FILE.csv makes the tables; the rows are reduced to the last label of each system.
    "$EX_RUNNER" --backend "$EX_ON" --fields attractor --last -o "$csv" "$@" 2>"$err" || rc=$?
    t1=$(date +%s.%N)
    { printf '== %s (%s size, %s): %s %s\n' "$tag" "$EX_SIZE" "$EX_ON" "$EX_RUNNER" "$*"; cat "$err"; } >>"$EX_OUT/runs.log"
    cat "$err" >&2
    if [ $rc != 0 ]; then
        rm -f "$err"
        printf '%s: the run failed (exit status %s)\n' "$tag" "$rc" >&2
        exit 1
    fi
    awk -F, 'NR > 1 { print $3 }' "$csv" >"$EX_OUT/$tag.labels"   # (--last: one row a system)
    [ "$EX_RAW" = 1 ] || rm -f "$csv"
    local wall
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    printf '%-18s %-7s %-3s %8ss  %s\n' "$tag" "$EX_SIZE" "$EX_ON" "$wall" "$(grep -m1 "systems, " "$err")" >>"$EX_OUT/summary.txt"
    rm -f "$err"
    printf '%s: %s s; labels in %s, tables in %s.attractors.csv%s\n' "$tag" "$wall" "$EX_OUT/$tag.labels" \
        "$EX_OUT/$tag" "$( [ -f "$EX_OUT/$tag.basins.csv" ] && echo " and $tag.basins.csv")" >&2
}
