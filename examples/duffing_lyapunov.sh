#!/usr/bin/env bash
# Duffing oscillator, the largest Lyapunov exponent against k (the paper's
# Duffing4 figure), from the linearised equations in polar coordinates
# (models/duffing_lyapunov.ode): every period records rate = ln(y3)/2π, y3
# restarting from 1; λ is the mean of the 32 recorded rates of each k.
# RKCK45 with tolerances 1e-9.
#   full size (GPU):    30720 values of k in [0.2, 0.3], 1024 transient + 32 recorded periods
#   reduced size (CPU): 2048 values of k, the same periods
# Writes OUT/duffing_lyapunov.{dat,png} (and .csv with --raw); the .dat
# columns are k, λ, the smallest and largest rate, the count.
EX_NAME=duffing_lyapunov
source "$(dirname "$0")/lib.sh"
ex_parse_args "$@"

ex_prepare duffing_lyapunov
ex_scan k 0.2 0.3 30720 2048
ex_run duffing_lyapunov "$EX_N values of k x (1024 + 32) periods" \
    "${EX_SCAN[@]}" --transient 1024 --recorded 32 --fields k,rate \
    -- mean --x k --y rate
ex_plot duffing_lyapunov
