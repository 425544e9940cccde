#!/usr/bin/env bash
# examples/plot.sh [DIR] [TAG...] — draws DIR/TAG.png from DIR/TAG.dat with
# gnuplot, for every TAG given, or for every example whose data is in DIR
# (default examples/out).  Needs only gnuplot (Debian: gnuplot-nox) and awk: the
# data can come from another machine (e.g. the GPU run of run_all.sh).
# PLOT_OUT=DIR2 writes the PNGs into DIR2 instead (for a read-only DIR).
#
# TAGs: duffing_rk4 duffing_rkck45 duffing_maxima duffing_lyapunov
#       keller_miksis valve duffing_map_lyapunov duffing_map_period valve_lyapunov
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-examples/out}
[ $# -gt 0 ] && shift
TAGS=("$@")
PNGDIR=${PLOT_OUT:-$DIR}
mkdir -p "$PNGDIR"
ALL=(duffing_rk4 duffing_rkck45 duffing_maxima duffing_lyapunov keller_miksis valve
     duffing_map_lyapunov duffing_map_period valve_lyapunov)
if [ ${#TAGS[@]} = 0 ]; then
    for t in "${ALL[@]}"; do [ -f "$DIR/$t.dat" ] && TAGS+=("$t"); done
    [ ${#TAGS[@]} = 0 ] && { echo "plot.sh: no example data (*.dat) in $DIR" >&2; exit 1; }
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "plot.sh: the figures need gnuplot.  Install it with:  sudo apt-get install gnuplot-nox" >&2
    echo "         then draw them with:  bash examples/plot.sh $DIR" >&2
    exit 1
fi

for tag in "${TAGS[@]}"; do
    dat=$DIR/$tag.dat png=$PNGDIR/$tag.png
    [ -f "$dat" ] || { echo "plot.sh: $dat is missing" >&2; exit 1; }
    case $tag in
        duffing_rk4)    script=duffing_bifurcation; extra="meth='RK4, dt = 10^{-2}'" ;;
        duffing_rkck45) script=duffing_bifurcation; extra="meth='RKCK45, tolerances 10^{-9}'" ;;
        duffing_maxima|duffing_lyapunov|keller_miksis|valve|duffing_map_*|valve_lyapunov) script=$tag; extra="" ;;
        *) echo "plot.sh: unknown example '$tag' (known: ${ALL[*]})" >&2; exit 2 ;;
    esac
    # The widest row of each data block (blocks are separated by two blank lines).
    ncols=$(awk 'BEGIN { b = 0 } /^$/ { blank++; next } { if (blank >= 2) b++; blank = 0 }
                 !/^#/ && NF > n[b] { n[b] = NF }
                 END { for (i = 0; i <= b; i++) printf "%d ", n[i] + 0 }' "$dat")
    # What was run, from the summary line the example wrote: "N systems, T s,
    # BACKEND (SIZE size)".
    note=""
    if [ -f "$DIR/summary.txt" ]; then
        note=$(awk -v t="$tag" '$1 == t { line = $0 } END { print line }' "$DIR/summary.txt" \
               | sed -E 's/ \((CUDA start-up|integration)[^)]*\)//' \
               | sed -nE 's/^[^ ]+ +([^ ]+) .*: ([0-9]+ systems?), [0-9]+ steps, ([^;]*);.*/\2, \3 (\1 size)/p' \
               | tr -d "'\"")
    fi
    gnuplot -e "dir='$HERE/gnuplot'; dat='$dat'; png='$png'; ncols='$ncols'; note='$note'; $extra" \
        "$HERE/gnuplot/$script.gp"
    echo "plot.sh: $png"
done
