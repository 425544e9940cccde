#!/usr/bin/env bash
# Attractors along a parameter (models/double_well_tilt.ode): the tilted double
# well, F from -0.5 to 0.5, a grid of initial values at each F.  The attractors
# found at each F are matched to those at the previous F, so a label is one
# attractor along the axis; the figure shows each one's basin fraction (with
# its standard error) against F: the left well's basin shrinks to nothing at
# the saddle-node F = 2/(3 sqrt 3) = 0.3849, the right well's at -0.3849.
#   full size (GPU):    201 values of F x 128 x 128 initial values
#   reduced size (CPU): 41 x 32 x 32
# Writes OUT/continuation.attractors.csv, OUT/continuation.basins.csv and
# OUT/continuation.png.
EX_NAME=continuation
source "$(dirname "$0")/lib.sh"
ex_parse_args "$@"
ex_prepare double_well_tilt
if [ "$EX_SIZE" = full ]; then nf=201 ng=128; else nf=41 ng=32; fi
ex_attractor_run continuation "$nf values of F x $ng x $ng initial values" \
    --scan "F=lin(-0.5,0.5,$nf)" --scan "x=lin(-2,2,$ng)" --scan "y=lin(-2,2,$ng)" --basin-entropy 4
[ "$EX_PLOT" = 1 ] && "$PY" examples/plot_attractors.py continuation "$EX_OUT" --param F \
    --mark=-0.38490017945975052,0.38490017945975052 --title "tilted double well: basin fractions ($nf x $ng x $ng, $EX_ON)"
exit 0
