#!/usr/bin/env bash
# make demo: the Duffing bifurcation diagram (the paper's Duffing1 figure), end
# to end: generates models/duffing.ode into build/demo, builds its runner
# (nvcc when present, else the C compiler with OpenMP), runs the scan and
# draws the figure.
#   on a GPU: the paper's scan, 30720 values of k x (1024 transient + 32 recorded periods)
#   on the CPU: 4096 values of k, the same periods (about a minute on 2 cores)
# DEMO_SIZE=full|reduced overrides the choice; ARCH=sm_80 builds for another GPU.
# Writes build/demo/duffing.csv and build/demo/duffing.png.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build/odegen
D=build/demo
build/odegen models/duffing.ode -o "$D"
echo "demo: building the runner $D/duffing"
mk=(-s -C "$D")
[ -n "${ARCH:-}" ] && mk+=(ARCH="$ARCH")
make "${mk[@]}" >"$D/build.log" 2>&1 || { cat "$D/build.log" >&2; echo "demo: building the runner failed" >&2; exit 1; }

size=${DEMO_SIZE:-}
if "$D/duffing" --backend gpu --transient 0 --recorded 1 --quiet >/dev/null 2>&1; then
    on=gpu
    : "${size:=full}"
else
    on=cpu
    : "${size:=reduced}"
fi
scan=() n=30720
if [ "$size" = full ]; then
    echo "demo: $( [ $on = gpu ] && echo "GPU found: " )the paper's scan, 30720 values of k in [0.2, 0.3] x (1024 transient + 32 recorded periods of 2 pi), RK4 dt = 0.01, on the $(echo $on | tr a-z A-Z)"
else
    n=4096
    scan=(--scan "k=lin(0.2,0.3,$n)")
    echo "demo: $( [ $on = cpu ] && echo "no GPU here: " )a smaller scan on the $(echo $on | tr a-z A-Z): $n values of k in [0.2, 0.3] instead of the paper's 30720, the same 1024 transient + 32 recorded periods (about a minute on 2 cores)"
fi
t0=$(date +%s.%N)
"$D/duffing" --backend $on "${scan[@]}" --transient 1024 --recorded 32 --fields k,y1 -o "$D/duffing.csv"
wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "demo: CSV (system,rep,k,y1,status: one row per k per recorded period): $D/duffing.csv"
gp="csv='$D/duffing.csv'; png='$D/duffing.png'; note='$n systems, $wall s on the $(echo $on | tr a-z A-Z)'"
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "demo: no gnuplot here, so no figure.  Install it (sudo apt-get install gnuplot-nox, or make deps),"
    echo "then draw it with:  gnuplot -e \"$gp\" examples/gnuplot/demo.gp"
    exit 0
fi
gnuplot -e "$gp" examples/gnuplot/demo.gp
echo "demo: figure: $D/duffing.png"
