#!/usr/bin/env bash
# Pressure relief valve with impacts on its seat (the paper's valve figure,
# models/valve.ode): the maximum (black) and minimum (red) of the valve's
# displacement y1 in every integration, which runs from a local maximum of
# y1 to the next (event y2 = 0 downwards, stop=1); impacts at y1 = 0 reverse
# the velocity with restitution r = 0.8.  κ = 1.25, δ = 10, β = 20, RKCK45 with
# tolerances 1e-10.
#   full size (GPU):    30720 values of q in [0.2, 10], 1024 transient + 32 recorded
#   reduced size (CPU): 1024 values of q, the same integrations
# Writes OUT/valve.{dat,png} (and .csv with --raw).
EX_NAME=valve
source "$(dirname "$0")/lib.sh"
ex_parse_args "$@"

ex_prepare valve
ex_scan q 0.2 10 30720 1024
ex_run valve "$EX_N values of q x (1024 + 32) integrations" \
    "${EX_SCAN[@]}" --transient 1024 --recorded 32 --fields q,ymax,ymin \
    -- points --x q --y ymax --y ymin --digits 4
ex_plot valve
