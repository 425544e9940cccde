#!/usr/bin/env bash
# Duffing oscillator over the (k, B) plane (models/duffing_map.ode): a Lyapunov
# map (the largest exponent, `lyapunov 1`: a tangent vector from the generated
# Jacobian) and an isoperiodic diagram (`period`: the period of the orbit in
# forcing periods, from the Poincaré points t = 2πn, computed in the kernel),
# both from one run.  RKCK45 with tolerances 1e-9; k ∈ [0.05, 0.45],
# B ∈ [0.05, 0.55]; 1024 transient and 64 recorded periods.
#   full size (GPU):    512 × 512 values of (k, B)
#   reduced size (CPU): 64 × 64
#   --grid N            N × N, whatever the size
# Writes OUT/duffing_map_lyapunov.{dat,png} and OUT/duffing_map_period.{dat,png}
# (and OUT/duffing_map.csv with --raw); the .dat columns are k, B, lyap1, period.
EX_NAME=duffing_map
source "$(dirname "$0")/lib.sh"
ex_parse_grid_args "$@"

ex_prepare duffing_map
ex_grid 512 64
ex_run duffing_map "$EX_GRID x $EX_GRID values of (k, B) x (1024 + 64) periods" \
    --scan "k=lin(0.05,0.45,$EX_GRID)" --scan "B=lin(0.05,0.55,$EX_GRID)" \
    --transient 1024 --recorded 64 --fields k,B,lyap1,period \
    -- last --keys k,B --y lyap1 --y period
# One data file, two figures.
cp "$EX_OUT/duffing_map.dat" "$EX_OUT/duffing_map_lyapunov.dat"
mv "$EX_OUT/duffing_map.dat" "$EX_OUT/duffing_map_period.dat"
awk '$1 == "duffing_map" { t = $0; sub(/^duffing_map /, "duffing_map_lyapunov ", t); print t;
                           sub(/^duffing_map /, "duffing_map_period "); } { print }' \
    "$EX_OUT/summary.txt" > "$EX_OUT/summary.txt.tmp" && mv "$EX_OUT/summary.txt.tmp" "$EX_OUT/summary.txt"
ex_plot duffing_map_lyapunov duffing_map_period
