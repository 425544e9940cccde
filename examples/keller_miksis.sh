#!/usr/bin/env bash
# Keller–Miksis bubble under dual-frequency excitation (the paper's
# Keller_Miksis_Collapse figure, models/keller_miksis.ode): every integration
# runs from a maximum of the radius to the next; the map shows, per (f1, f2),
# the largest relative expansion y1max − 1 over the recorded collapses, in four
# panels P_A1 in {0.5, 1.1} bar × P_A2 in {0.7, 1.2} bar; R_E = 10 µm, θ = 0,
# RKCK45 with tolerances 1e-10.
#   full size (GPU):    f1, f2 log-spaced over [20, 1000] kHz, 128 values each:
#                       65536 systems, 1024 transient + 64 recorded collapses
#   reduced size (CPU): 48 values each (9216 systems), 64 transient + 16 recorded
# The CSV goes through reduce.py on the fly (the full scan's CSV would be
# 65536 × 64 rows, about 0.6 GB): OUT/keller_miksis.dat holds one row per
# system (PA1 PA2 f1 f2 max(ymax)-1, 3 MB at full size).  Writes
# OUT/keller_miksis.{dat,png} (and .csv with --raw).
EX_NAME=keller_miksis
source "$(dirname "$0")/lib.sh"
ex_parse_args "$@"

ex_prepare keller_miksis
if [ "$EX_SIZE" = full ]; then
    nf=128 transient=1024 recorded=64
else
    nf=48 transient=64 recorded=16
fi
ex_run keller_miksis "4 x $nf x $nf systems x ($transient + $recorded) collapses" \
    --scan "PA1=list(0.5,1.1)" --scan "PA2=list(0.7,1.2)" \
    --scan "f1=log(20,1000,$nf)" --scan "f2=log(20,1000,$nf)" \
    --transient $transient --recorded $recorded --fields PA1,PA2,f1,f2,ymax \
    -- max --keys PA1,PA2,f1,f2 --y ymax --offset -1 --group 2
ex_plot keller_miksis
