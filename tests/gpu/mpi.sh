#!/usr/bin/env bash
# tests/gpu/mpi.sh — the MPI runner on GPUs (issue 14), part of `make
# test-gpu`.  The Duffing scan (models/duffing.ode), built with nvcc twice:
# the one-process runner, and with MPI=1 (the system's OpenMPI, else the
# bundle in .mpi/ that tools/mpi_bundle.sh makes; HDF5 likewise from .hdf5/):
#   1. 1 rank x 1 GPU, 1 rank x 2 GPUs, 2 ranks x 1 GPU each: the CSV of the
#      one-process runner byte for byte, and its HDF5 datasets bit for bit;
#      each rank on a GPU of its own (the summary names both); the times
#      printed (2 ranks x 1 GPU against 1 x 1; measured by bench/mpi.sh);
#   2. a checkpointed 2-rank run killed (every process, SIGKILL) and resumed:
#      the same bytes;
#   3. a 2-rank run whose rank 1 is killed: no output, a message naming it;
#   4. the ranks watching one another (mpi_watch.c): launches of several seconds under
#      --mpi-timeout 3 complete with no rank reported silent; rank 1 stopped with SIGSTOP ends a
#      job under --mpi-timeout 5 with a message naming it, and the checkpoint resumes;
#   5. `attractor` (the magnetic pendulum, 257 x 257): killed and resumed, and under 2 ranks, the
#      labels, table and basin measures of one uninterrupted process, byte for byte.
# With one GPU only 1 x 1 and 2 ranks sharing it are compared.  Prints one
# line per check and the times; exit status 0 when all passed.  Without MPI
# it fails, or with ODEGEN_MPI_OPTIONAL=1 (make test-gpu) says it skipped.
set -u
cd "$(dirname "$0")/../.." || exit 1
PY=${PY:-python3}
ARCH=${ARCH:-sm_90}
[ -x build/odegen ] || make build/odegen || exit 1
command -v mpicc >/dev/null || { [ -f .mpi/env.sh ] && . .mpi/env.sh; }
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
    why="no MPI: install OpenMPI, or make the bundle (tools/mpi_bundle.sh, on a Debian machine) and carry .mpi"
    [ "${ODEGEN_MPI_OPTIONAL:-0}" = 1 ] && { echo "SKIPPED: $why"; exit 0; }
    echo "FAIL: $why"
    exit 1
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
unset OMP_NUM_THREADS
# --bind-to none: each rank gets the node's cores divided among the ranks (mpirun
# would bind each of 2 ranks to one core).
MPIRUN=(mpirun --bind-to none)
T=$(mktemp -d "${TMPDIR:-/tmp}/odegen-gpu-mpi.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failed=0
passed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
ok() { passed=$((passed + 1)); echo "ok: $*"; }

. tools/hdf5_vars.sh   # H5VARS, have_h5: the system's HDF5, else the bundle in .hdf5/
$PY -c 'import h5py' 2>/dev/null || have_h5=0

echo "MPI: $(command -v mpirun) ($(mpirun --version 2>/dev/null | head -1)); $(mpicc -showme:link)"
build/odegen models/duffing.ode -o "$T/one" -q && build/odegen models/duffing.ode -o "$T/mpi" -q || exit 1
make -C "$T/one" ARCH="$ARCH" "${H5VARS[@]}" >"$T/one.log" 2>&1 & one=$!
make -C "$T/mpi" ARCH="$ARCH" MPI=1 "${H5VARS[@]}" >"$T/mpi.log" 2>&1 || { fail "building the MPI runner: $(tail -5 "$T/mpi.log")"; exit 1; }
wait $one || { fail "building the one-process runner: $(tail -5 "$T/one.log")"; exit 1; }
ONE=$T/one/duffing
MPI=$T/mpi/duffing
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$gpus" -ge 1 ] || { echo "FAIL: no GPU"; exit 1; }

# timed WHAT OUT CMD…: runs it, the wall time into $secs and the runner's summary into $summary.
timed() {
    local what=$1 out=$2
    shift 2
    local t0
    t0=$(date +%s.%N)
    "$@" -o "$out" 2>"$T/err"
    local rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    summary=$(grep '^duffing: [0-9]* systems' "$T/err")
    [ $rc = 0 ] || fail "$what: status $rc, $(cat "$T/err")"
    printf '   %-22s %6s s   %s\n' "$what" "$secs" "$summary"
}

S=(--scan 'k=lin(0.2,0.3,1048576)' --transient 1024 --recorded 4 --backend gpu)
echo "== Duffing, 2^20 systems x (1024 + 4) periods: times (process wall, CUDA start-up included)"
timed "one process, GPU 0" "$T/ref.csv" "$ONE" "${S[@]}" --devices 0
timed "1 rank x 1 GPU" "$T/r11.csv" "${MPIRUN[@]}" -n 1 "$MPI" "${S[@]}" --devices 0
t11=$secs
i11=$(echo "$summary" | sed -n 's/.*integration \([0-9.]*\) s.*/\1/p')
configs="r11"
if [ "$gpus" -ge 2 ]; then
    timed "1 rank x 2 GPUs" "$T/r12.csv" "${MPIRUN[@]}" -n 1 "$MPI" "${S[@]}" --devices 0,1
    echo "$summary" | grep -q 'GPUs 0,1' && ok "1 rank runs on both GPUs" || fail "1 rank x 2 GPUs: $summary"
    timed "2 ranks x 1 GPU" "$T/r21.csv" "${MPIRUN[@]}" -n 2 "$MPI" "${S[@]}" --devices 0,1
    t21=$secs
    i21=$(echo "$summary" | sed -n 's/.*integration \([0-9.]*\) s.*/\1/p')
    echo "$summary" | grep -q '2 ranks on 1 node: GPU 0: .*; GPU 1: ' && ok "2 ranks, one GPU each" ||
        fail "2 ranks x 1 GPU: each rank should have a GPU of its own: $summary"
    configs="r11 r12 r21"
else
    timed "2 ranks x GPU 0" "$T/r21.csv" "${MPIRUN[@]}" -n 2 "$MPI" "${S[@]}"
    t21=
    configs="r11 r21"
fi
for c in $configs; do
    cmp -s "$T/$c.csv" "$T/ref.csv" && ok "$c: the one-process CSV, byte for byte" || fail "$c: the CSV differs from one process's"
done
if [ -n "$t21" ]; then
    # Printed, not asserted (speed is bench/mpi.sh's to measure): the whole
    # processes' wall, start-up included, and the integration in each summary.
    awk -v a="$t11" -v b="$t21" -v ia="$i11" -v ib="$i21" 'BEGIN {
        printf "   2 ranks x 1 GPU against 1 x 1: wall %.2fx (efficiency %.0f%%), integration %s s against %s s\n",
               a / b, 50 * a / b, ib, ia }'
fi

if [ $have_h5 = 1 ]; then
    "$ONE" --quiet "${S[@]}" --devices 0 -o "$T/ref.h5" && "${MPIRUN[@]}" -n 2 "$MPI" --quiet "${S[@]}" -o "$T/r21.h5" &&
        $PY tests/mpi/same_h5.py "$T/r21.h5" "$T/ref.h5" >"$T/same" && ok "2 ranks, HDF5: $(cat "$T/same")" ||
        fail "2 ranks, HDF5: $(cat "$T/same" 2>/dev/null)"
fi

echo "== a checkpointed 2-rank run, killed and resumed"
C=(--scan 'k=lin(0.2,0.3,524288)' --transient 4096 --recorded 4 --backend gpu --chunk 16384)
"$ONE" --quiet "${C[@]}" --devices 0 -o "$T/cref.csv" || fail "checkpoint reference"
setsid "${MPIRUN[@]}" -n 2 "$MPI" --quiet "${C[@]}" --checkpoint "$T/ck" --checkpoint-every 0.5 -o "$T/c.csv" 2>"$T/err" &
mp=$!
sleep 4
pkill -9 -f "$MPI" 2>/dev/null
kill -9 $mp 2>/dev/null
wait $mp 2>/dev/null
done_at=$(sed -n 's/^done: //p' "$T/ck")
"${MPIRUN[@]}" -n 2 "$MPI" --quiet "${C[@]}" --checkpoint "$T/ck" --resume -o "$T/c.csv" 2>"$T/err"
rc=$?
[ $rc = 0 ] && cmp -s "$T/c.csv" "$T/cref.csv" && [ -n "$done_at" ] &&
    ok "killed after 4 s with $done_at of 524288 systems done; resumed: the uninterrupted CSV, byte for byte" ||
    fail "checkpoint: status $rc, $done_at systems done when killed, $(cat "$T/err")"

echo "== rank 1 killed mid-way"
"${MPIRUN[@]}" -n 2 "$MPI" "${C[@]}" -o "$T/k.csv" 2>"$T/err" &
mp=$!
sleep 4
for p in $(pgrep -f "$MPI"); do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && kill -9 "$p"
done
wait $mp
rc=$?
[ $rc != 0 ] && grep -q 'rank 1' "$T/err" && [ ! -e "$T/k.csv" ] && ok "killed rank: status $rc, '$(grep 'rank 1' "$T/err" | head -1)', no output" ||
    fail "killed rank: status $rc, $(cat "$T/err")"

echo "== the ranks watch one another (issue 19): a long launch is no silence; a stopped rank ends the job"
# Launches of about 7 s (131072 systems x 8196 periods each; no system ends before the others):
# a worker shows signs of life while its GPU integrates, so --mpi-timeout 3 does not fire and
# no rank is reported silent.
L=(--scan 'k=lin(0.2,0.3,262144)' --transient 8192 --recorded 4 --backend gpu --chunk 131072)
"$ONE" --quiet "${L[@]}" --devices 0 -o "$T/lref.csv" || fail "long-launch reference"
"${MPIRUN[@]}" -n 2 "$MPI" "${L[@]}" --mpi-timeout 3 --progress-every 1 -o "$T/l.csv" 2>"$T/err"
rc=$?
[ $rc = 0 ] && cmp -s "$T/l.csv" "$T/lref.csv" && ! grep -q 'has not answered' "$T/err" &&
    ok "launches of several seconds under --mpi-timeout 3: no rank taken for silent; $(grep '^duffing: [0-9]* systems' "$T/err")" ||
    fail "long launches with --mpi-timeout 3: status $rc, $(cat "$T/err")"
# Rank 1 stopped (SIGSTOP) mid-run: --mpi-timeout 5 ends the job naming it, the checkpoint is
# kept, and a resume writes the uninterrupted CSV.
rm -f "$T/ck" "$T/ck.rows" "$T/c.csv"
"${MPIRUN[@]}" -n 2 "$MPI" --quiet "${C[@]}" --checkpoint "$T/ck" --checkpoint-every 0.5 --mpi-timeout 5 -o "$T/c.csv" 2>"$T/err" &
mp=$!
sleep 4
victim=""
for p in $(pgrep -f "$MPI"); do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
done
[ -n "$victim" ] && kill -STOP "$victim"
wait $mp
rc=$?
[ -n "$victim" ] && kill -9 "$victim" 2>/dev/null
kept=$(sed -n 's/^done: //p' "$T/ck")
[ -n "$victim" ] && [ $rc = 1 ] && grep -q '^duffing: error: rank 1 (.*) has not answered for 5 s (rank 0: .*): --mpi-timeout ends the job$' "$T/err" &&
    [ ! -e "$T/c.csv" ] && [ -n "$kept" ] &&
    ok "rank 1 stopped: '$(grep -m1 'error:' "$T/err")', the checkpoint keeps $kept" ||
    fail "rank 1 stopped with --mpi-timeout 5: status $rc, checkpoint '$kept', $(cat "$T/err")"
"${MPIRUN[@]}" -n 2 "$MPI" --quiet "${C[@]}" --checkpoint "$T/ck" --resume -o "$T/c.csv" 2>"$T/err"
rc=$?
[ $rc = 0 ] && cmp -s "$T/c.csv" "$T/cref.csv" && ok "resumed after --mpi-timeout: the uninterrupted CSV, byte for byte" ||
    fail "resumed after --mpi-timeout: status $rc, $(cat "$T/err")"

echo "== attractor on the GPUs: the table kept in a checkpoint, grouped by rank 0 (issue 24)"
# The magnetic pendulum (models/magnetic_pendulum.ode, 257 x 257): killed once the checkpoint holds
# systems and resumed, and under 2 ranks: the labels, FILE.attractors.csv and FILE.basins.csv of
# one uninterrupted process, byte for byte.
build/odegen models/magnetic_pendulum.ode -o "$T/aone" -q && build/odegen models/magnetic_pendulum.ode -o "$T/ampi" -q &&
    make -C "$T/aone" ARCH="$ARCH" "${H5VARS[@]}" >"$T/aone.log" 2>&1 && make -C "$T/ampi" ARCH="$ARCH" MPI=1 "${H5VARS[@]}" >"$T/ampi.log" 2>&1 ||
    fail "building the pendulum's runners: $(tail -5 "$T/aone.log" "$T/ampi.log")"
A=(--scan 'x=lin(-2,2,257)' --scan 'y=lin(-2,2,257)' --backend gpu --chunk 4096 --basin-entropy 8 --uncertainty --quiet)
same_att() { cmp -s "$1.csv" "$2.csv" && cmp -s "$1.attractors.csv" "$2.attractors.csv" && cmp -s "$1.basins.csv" "$2.basins.csv"; }
"$T/aone/magnetic_pendulum" "${A[@]}" --devices 0 -o "$T/aref.csv" || fail "pendulum reference"
"$T/aone/magnetic_pendulum" "${A[@]}" --devices 0 --checkpoint "$T/ack" --checkpoint-every 0 -o "$T/a.csv" 2>"$T/err" &
ap=$!
for i in $(seq 600); do [ "$(sed -n 's/^done: //p' "$T/ack" 2>/dev/null)" -gt 20000 ] 2>/dev/null && break; sleep 0.02; done
kill -9 $ap 2>/dev/null
wait $ap 2>/dev/null
adone=$(sed -n 's/^done: //p' "$T/ack")
"$T/aone/magnetic_pendulum" "${A[@]}" --devices 0 --checkpoint "$T/ack" --resume -o "$T/a.csv" 2>"$T/err"
rc=$?
[ $rc = 0 ] && same_att "$T/a" "$T/aref" && ok "pendulum killed with $adone of 66049 systems done, resumed: the same labels, table and basin measures" ||
    fail "pendulum resumed ($adone done): status $rc, $(cat "$T/err")"
"${MPIRUN[@]}" -n 2 "$T/ampi/magnetic_pendulum" "${A[@]}" -o "$T/am.csv" 2>"$T/err"
rc=$?
[ $rc = 0 ] && same_att "$T/am" "$T/aref" && ok "pendulum under 2 ranks: the same labels, table and basin measures" ||
    fail "pendulum under 2 ranks: status $rc, $(cat "$T/err")"

echo "mpi.sh: $passed passed, $failed failed"
[ $failed = 0 ]
