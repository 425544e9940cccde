#!/usr/bin/env bash
# Duffing oscillator, the maximum of y1 in every period (the paper's Duffing2
# and Duffing3 figure): by an accessory updated after every step (black: the
# largest y1 of the period) and by an event at every local maximum (red:
# y2 = 0 crossed downwards, located to 1e-6; the largest of them in the
# period).  models/duffing_maxima.ode, RKCK45 with tolerances 1e-9.
#   full size (GPU):    30720 values of k in [0.2, 0.3], 1024 transient + 32 recorded periods
#   reduced size (CPU): 4096 values of k, the same periods
# Writes OUT/duffing_maxima.{dat,png} (and .csv with --raw).
EX_NAME=duffing_maxima
source "$(dirname "$0")/lib.sh"
ex_parse_args "$@"

ex_prepare duffing_maxima
ex_scan k 0.2 0.3 30720 4096
ex_run duffing_maxima "$EX_N values of k x (1024 + 32) periods" \
    "${EX_SCAN[@]}" --transient 1024 --recorded 32 --fields k,ymax,peak \
    -- points --x k --y ymax --y peak --digits 4
ex_plot duffing_maxima
