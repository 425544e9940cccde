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
ex_parse_grid_args "$@"
ex_prepare magnetic_pendulum
ex_grid 1024 128
ex_attractor_run basins "$EX_GRID x $EX_GRID initial positions" \
    --scan "x=lin(-2,2,$EX_GRID)" --scan "y=lin(-2,2,$EX_GRID)" --basin-entropy 8 --uncertainty
[ "$EX_PLOT" = 1 ] && "$PY" examples/plot_attractors.py basins "$EX_OUT" --grid "$EX_GRID" --range=-2,2,-2,2 \
    --xlabel 'x(0)' --ylabel 'y(0)' --title "magnetic pendulum: basins ($EX_GRID x $EX_GRID, $EX_ON)"
exit 0
