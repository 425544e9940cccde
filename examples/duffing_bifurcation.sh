#!/usr/bin/env bash
# Duffing oscillator, bifurcation diagram (the paper's Duffing1 figure): the
# Poincaré section Π(y1), sampled every forcing period 2π, against the damping
# k in [0.2, 0.3]; B = 0.3, from y1 = y2 = 0; once with RK4 (dt = 1e-2,
# models/duffing.ode) and once with RKCK45 (tolerances 1e-9,
# models/duffing_rkck45.ode).
#   full size (GPU):    30720 values of k, 1024 transient + 32 recorded periods
#   reduced size (CPU): 4096 values of k, the same periods
# Writes OUT/duffing_rk4.{dat,png} and OUT/duffing_rkck45.{dat,png}
# (and .csv with --raw), and a line each in OUT/summary.txt and OUT/runs.log.
# Flags: see examples/lib.sh (--backend, --size, --out, --raw, --no-plot).
EX_NAME=duffing_bifurcation
source "$(dirname "$0")/lib.sh"
ex_parse_args "$@"

for model in duffing duffing_rkck45; do
    ex_prepare "$model"
    ex_scan k 0.2 0.3 30720 4096
    tag=$model; [ "$model" = duffing ] && tag=duffing_rk4
    ex_run "$tag" "$EX_N values of k x (1024 + 32) periods" \
        "${EX_SCAN[@]}" --transient 1024 --recorded 32 --fields k,y1 \
        -- points --x k --y y1
    ex_plot "$tag"
done
