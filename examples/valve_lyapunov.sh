#!/usr/bin/env bash
# Pressure relief valve with impacts on its seat: its Lyapunov exponents
# against q (models/valve_lyapunov.ode: models/valve.ode with `lyapunov 3`,
# the tangent vectors passing through the saltation matrix at every impact).
# Every integration runs from a local maximum of y1 to the next; the
# exponents are running averages over the 256 recorded integrations after
# 1024 transient ones.  RKCK45 with tolerances 1e-10, impacts located to 1e-12.
#   full size (GPU):    30720 values of q in [0.2, 10]
#   reduced size (CPU): 256 values of q
# Writes OUT/valve_lyapunov.{dat,png} (and .csv with --raw); the .dat columns
# are q, lyap1, lyap2, lyap3.
EX_NAME=valve_lyapunov
source "$(dirname "$0")/lib.sh"
ex_parse_args "$@"

ex_prepare valve_lyapunov
ex_scan q 0.2 10 30720 256
ex_run valve_lyapunov "$EX_N values of q x (1024 + 256) integrations" \
    "${EX_SCAN[@]}" --transient 1024 --recorded 256 --fields q,lyap1,lyap2,lyap3 \
    -- last --keys q --y lyap1 --y lyap2 --y lyap3
ex_plot valve_lyapunov
