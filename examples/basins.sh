#!/usr/bin/env bash
# Basins of attraction of the magnetic pendulum (models/magnetic_pendulum.ode):
# three fixed points near the magnets, fractal boundaries between their basins.
# `attractor` labels every initial position (at rest) by the fixed point it
# reaches; the basin map is the label as an image, coloured by label (labels
# are numbered in the order the scan meets the attractors: the same colours
# from run to run), with the basin entropy and the uncertainty exponent of the
# boundary.
#   full size (GPU):    1024 x 1024 initial positions on [-2, 2]^2
#   reduced size (CPU): 128 x 128
#   --grid N            N x N, whatever the size
# Writes OUT/basins.labels (one label per system, in the scan's order),
# OUT/basins.attractors.csv, OUT/basins.basins.csv and OUT/basins.png.
EX_NAME=basins
source "$(dirname "$0")/lib.sh"
grid=""
args=()
while [ $# -gt 0 ]; do
    case $1 in
        --grid) grid=${2:?--grid needs a number}; shift ;;
        --grid=*) grid=${1#*=} ;;
        *) args+=("$1") ;;
    esac
    shift
done
ex_parse_args "${args[@]}"
[ -z "$grid" ] || [[ "$grid" =~ ^[1-9][0-9]*$ ]] || { echo "basins.sh: --grid must be a positive number (got '$grid')" >&2; exit 2; }
ex_prepare magnetic_pendulum
if [ -z "$grid" ]; then
    if [ "$EX_SIZE" = full ]; then grid=1024; else grid=128; fi
fi
ex_attractor_run basins "$grid x $grid initial positions" \
    --scan "x=lin(-2,2,$grid)" --scan "y=lin(-2,2,$grid)" --basin-entropy 8 --uncertainty
[ "$EX_PLOT" = 1 ] && "$PY" examples/plot_attractors.py basins "$EX_OUT" --grid "$grid" --range=-2,2,-2,2 \
    --xlabel 'x(0)' --ylabel 'y(0)' --title "magnetic pendulum: basins ($grid x $grid, $EX_ON)"
exit 0
