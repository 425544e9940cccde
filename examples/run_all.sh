#!/usr/bin/env bash
# examples/run_all.sh [FLAGS] [EXAMPLE...] — every test case of the paper, in
# one go: builds odegen (make), generates and builds each model's runner, runs
# it (full paper size on a GPU, the documented reduced size on the CPU),
# reduces its CSV on the fly and, when gnuplot is there, draws the figures.
#
#   bash examples/run_all.sh                       # here: GPU if present, else CPU (reduced)
#   bash examples/run_all.sh --backend gpu --no-plot --out DIR    # the paper's sizes on a GPU
#   bash examples/plot.sh DIR                      # the PNGs, later, where gnuplot is
#
# FLAGS: --backend auto|gpu|cpu, --size full|reduced, --out DIR (default
# examples/out), --raw/--no-raw, --no-plot: see examples/lib.sh.
# EXAMPLEs (default: all): duffing_bifurcation duffing_maxima duffing_lyapunov
# valve keller_miksis duffing_map valve_lyapunov.
#
# DIR receives, per example, TAG.dat (the reduced data: < 16 MB each at full
# size), plus runs.log (the runners' summaries) and summary.txt (one line per
# run: tag, size, backend, wall time, runner summary): 11 files in all, and the
# PNGs when gnuplot is present.  With --raw, also each run's full CSV.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ALL=(duffing_bifurcation duffing_maxima duffing_lyapunov valve keller_miksis duffing_map valve_lyapunov)
flags=() names=() out=${EXAMPLES_OUT:-examples/out} plot=${EXAMPLES_PLOT:-1}
while [ $# -gt 0 ]; do
    case $1 in
        --backend|--size|--out|-o)
            [ $# -ge 2 ] || { echo "run_all.sh: $1 needs a value" >&2; exit 2; }
            [ "$1" = --out ] || [ "$1" = -o ] && out=$2
            flags+=("$1" "$2"); shift ;;
        --out=*) out=${1#*=}; flags+=("$1") ;;
        --no-plot) plot=0 ;;
        -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) flags+=("$1") ;;
        *) [ -x "$HERE/$1.sh" ] && [[ " ${ALL[*]} " == *" $1 "* ]] \
               || { echo "run_all.sh: unknown example '$1' (known: ${ALL[*]})" >&2; exit 2; }
           names+=("$1") ;;
    esac
    shift
done
[ ${#names[@]} = 0 ] && names=("${ALL[@]}")
cd "$HERE/.."

if [ -z "${ODEGEN_TRANSLATOR:-}" ]; then   # (ODEGEN_TRANSLATOR: a translator given as it is)
    echo "run_all.sh: building odegen" >&2
    make -s build/odegen >&2
fi
mkdir -p "$out"
rm -f "$out/summary.txt" "$out/runs.log"
start=$(date +%s)
for n in "${names[@]}"; do
    bash "examples/$n.sh" "${flags[@]}" --no-plot
done
echo "run_all.sh: all done in $(( $(date +%s) - start )) s; $out/summary.txt:" >&2
cat "$out/summary.txt" >&2
if [ "$plot" = 1 ]; then
    if command -v gnuplot >/dev/null 2>&1; then
        bash examples/plot.sh "$out"
    else
        echo "run_all.sh: no PNGs: the figures need gnuplot (sudo apt-get install gnuplot-nox);" \
             "then, here or on any machine with the data: bash examples/plot.sh $out" >&2
    fi
fi
