#!/usr/bin/env bash
# tests/mpi/run.sh — checkpoints and the MPI runner (issue 14), on the CPU,
# with runners generated from tests/mpi/uneven.ode (systems whose costs
# differ a thousandfold, some ending in `bound`) and built with ASan and
# UBSan:
#   1. checkpoints of one process: a run killed with SIGKILL at random
#      moments, resumed each time, ends with the uninterrupted run's CSV byte
#      for byte (and HDF5 datasets bit for bit); SIGTERM and SIGINT leave a
#      usable checkpoint (143, 130); a checkpoint of another run is refused,
#      saying what differs; an existing one is not replaced without --resume;
#      a changed or truncated one is refused; and checkpoint_checks.sh: one
#      run at a time, other files of its names, an index that is no index,
#      changed rows, blocks and index fields, another build;
#   2. mpirun --oversubscribe -n 1, 2, 3 (make MPI=1): the same CSV byte for
#      byte and the same HDF5 datasets as one process; the job's CPU time is
#      about one process's (the work is split, not repeated); a rank killed
#      mid-way ends the job with a message naming it and no output; a
#      setup error is said once; checkpoints under MPI: killed at random,
#      resumed with another number of ranks; SIGTERM to every rank (as Slurm
#      sends it) and to mpirun;
#   3. the library's model_mpi_scan (scan_test.c);
#   3a. `attractor` (attractor_checks.sh): killed and resumed, and under
#      mpirun -n 1, 2, 3, the same labels, attractor table and basin measures
#      as one uninterrupted process, byte for byte;
#   4. with nvcc: the MPI code compiles as CUDA C++ (no GPU run here).
# The MPI parts are skipped, with a note, without mpicc and mpirun (Debian:
# libopenmpi-dev, openmpi-bin).  Exit status 0 when everything passed.
set -u
cd "$(dirname "$0")/../.." || exit 1
source tests/lib/suite.sh
suite_start mpi                           # ODEGEN, T, fail, ok (tests/lib/suite.sh)
PY=/usr/bin/python3
NVCC=${NVCC:-$(command -v nvcc || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })}
unset OMP_NUM_THREADS                     # the ranks divide the cores among themselves
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
MPI_ASAN=detect_leaks=0                   # OpenMPI keeps its memory to the end
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
have_h5=0
{ pkg-config --exists hdf5-serial || pkg-config --exists hdf5; } 2>/dev/null && $PY -c 'import h5py' 2>/dev/null && have_h5=1
have_mpi=1
command -v mpicc >/dev/null && command -v mpirun >/dev/null || have_mpi=0

# build DIR MAKEARGS…: translates uneven.ode into $T/DIR and builds it with the C compiler and the sanitizers.
build() {
    local dir=$1
    shift
    (cd "$T" && "$ODEGEN" "$OLDPWD/tests/mpi/uneven.ode" -o "$dir" -q) &&
        make -C "$T/$dir" BACKEND=cpu CFLAGS="-O1 -g $SAN" "$@" >"$T/$dir.log" 2>&1 ||
        { fail "building $dir: $(tail -5 "$T/$dir.log")"; return 1; }
}

# The descendants of a process, deepest first.
tree() { local p; for p in $(pgrep -P "$1"); do tree "$p"; echo "$p"; done; }
# kill_all SIG PID: the process and all its descendants at once (a node that dies).
kill_all() { kill -"$1" $(tree "$2") "$2" 2>/dev/null; }
# The process of MPI rank R among mpirun's children.
rank_pid() {
    local p
    for p in $(tree "$1"); do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2" && { echo "$p"; return; }
    done
}
# Systems done in a checkpoint's index.
done_in() { sed -n 's/^done: //p' "$1" 2>/dev/null; }
# A random delay from $1 to $2 seconds (printed where it is used, to replay a failure).
delay() { awk -v a="$1" -v b="$2" -v r=$RANDOM 'BEGIN { printf "%.2f", a + (b - a) * r / 32767 }'; }
cputime() { awk '{ printf "%.2f", $1 + $2 }' "$1"; }
# Lines the environment, not odegen, writes on stderr, dropped before a check reads it (nothing
# broader): OpenMPI's hwloc where /sys is not mounted (a container), once per process.
ENV_NOISE='^\[hwloc/linux\] failed to find sysfs cpu topology directory, aborting linux discovery\.$'
drop_env_noise() {   # drop_env_noise FILE…: removes those lines, in place
    local f
    for f; do
        [ -f "$f" ] || continue
        grep -Ev "$ENV_NOISE" "$f" >"$f.clean"
        mv "$f.clean" "$f"
    done
}

build plain || exit 1
U=$T/plain/uneven
Q=(--transient 1 --recorded 3 --chunk 40)
SCAN=(--scan 'w=log(1,1000,1000)' --scan 'y=list(1,2000)')
S=(--quiet "${SCAN[@]}" "${Q[@]}")
timeout 300 "$U" "${S[@]}" -o "$T/ref.csv" || fail "reference run"
[ $have_h5 = 1 ] && { timeout 300 "$U" "${S[@]}" -o "$T/ref.h5" || fail "reference HDF5 run"; }
rows=$(($(wc -l <"$T/ref.csv") - 1))
echo "== reference: $rows rows ($(grep -c ',bound$' "$T/ref.csv") of them bound)"

# ------------------------------------------------------------------ checkpoints of one process
echo "== checkpoints, one process: killed with SIGKILL at random moments, resumed"
cd "$T" || exit 1
ck=(--checkpoint ck --checkpoint-every 0.1)
"$U" "${S[@]}" "${ck[@]}" -o out.csv 2>err & pid=$!
history=""
for round in 1 2 3; do
    d=$(delay 0.3 1.2)
    sleep "$d"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    history="$history ${d}s:$(done_in ck)"
    [ -e out.csv ] && fail "killed run $round left out.csv"
    "$U" "${S[@]}" "${ck[@]}" --resume -o out.csv 2>err & pid=$!
done
wait $pid
rc=$?
if [ $rc = 0 ] && cmp -s out.csv ref.csv && [ ! -e ck ] && [ ! -e ck.rows ] && [ -z "$(ls -A | grep '^\.out')" ]; then
    ok
    echo "   three kills (after: systems done)$history; the resumed run wrote the reference CSV byte for byte"
else
    fail "resumed after kills ($history): status $rc, $(cat err), cmp: $(cmp out.csv ref.csv 2>&1), files: $(ls -A)"
fi
echo "$history" | grep -Eq ':[1-9]' || echo "   (no kill came after a checkpoint on this loaded machine: the resumes started over)"

if [ $have_h5 = 1 ]; then
    "$U" "${S[@]}" "${ck[@]}" -o out.h5 2>err & pid=$!
    d=$(delay 0.4 1.2)
    sleep "$d"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    done_h5=$(done_in ck)
    timeout 300 "$U" "${S[@]}" "${ck[@]}" --resume -o out.h5 2>err &&
        $PY "$OLDPWD/tests/mpi/same_h5.py" out.h5 ref.h5 >same.txt && ok ||
        fail "HDF5 resumed after a kill at $d s ($done_h5 done): $(cat err same.txt)"
    echo "   HDF5: killed after $d s ($done_h5 systems done), resumed: $(cat same.txt)"
fi

set -m   # background jobs take SIGINT (a shell without job control makes them ignore it)
for sig in TERM INT; do
    rm -f ck ck.rows out.csv
    # (env: SIGINT back to its default where this script inherited it ignored — started in the
    # background by a shell without job control, as CI does — which no `set -m` undoes.)
    env --default-signal=INT "$U" "${S[@]}" --checkpoint ck -o out.csv 2>err & pid=$!
    sleep 0.9
    kill -$sig $pid
    wait $pid
    rc=$?
    want=$((128 + $(kill -l $sig)))
    n=$(done_in ck)
    if [ $rc = $want ] && [ -n "$n" ] && [ "$n" -gt 0 ] && [ ! -e out.csv ] && [ -z "$(ls -A | grep '^\.out')" ] &&
        grep -q 'interrupted' err; then
        ok
    else
        fail "SIG$sig: status $rc (wanted $want), $n systems in the checkpoint, files: $(ls -A), $(cat err)"
    fi
    timeout 300 "$U" "${S[@]}" --checkpoint ck --resume -o out.csv 2>err && cmp -s out.csv ref.csv && ok ||
        fail "resumed after SIG$sig: $(cat err)"
    echo "   SIG$sig after 0.9 s: status $rc, a checkpoint of $n systems; resumed: the reference CSV"
done
set +m

echo "== checkpoints: refusals"
rm -f ck ck.rows out.csv
"$U" "${S[@]}" --checkpoint ck --checkpoint-every 0.1 -o out.csv 2>err & pid=$!
sleep 0.8
kill -9 $pid
wait $pid 2>/dev/null
cp ck ck.saved
cp ck.rows ck.rows.saved
E="uneven: error:"
refuse() {   # refuse 'message regex' ARGS…: refused with status 1, the checkpoint unchanged
    local want=$1
    shift
    rm -f out.csv out.h5
    "$U" -o out.csv "$@" 2>err
    local rc=$?
    if [ $rc = 1 ] && grep -Eq -- "$want" err && [ "$(wc -l <err)" = 1 ] && cmp -s ck ck.saved && [ ! -e out.csv ]; then
        ok
    else
        fail "refusal: $* -> status $rc, $(cat err) (wanted /$want/)"
    fi
}
MISMATCH="^$E checkpoint 'ck' is of another run:"
refuse "$MISMATCH fields 'y, v, energy, t' in the checkpoint, 'y' in this run; give this run another --checkpoint file, or remove that one to start again\$" \
    "${S[@]}" --checkpoint ck --resume --fields y
refuse "$MISMATCH values 'v\\(0\\)=0' in the checkpoint, 'v\\(0\\)=0.5' in this run; give" "${S[@]}" --checkpoint ck --resume --set v=0.5
refuse "$MISMATCH scan 'w=log\\(1, 1000, 1000\\); y=list\\(1, 2000\\)' in the checkpoint, 'w=log\\(1, 1000, 1001\\); y=list\\(1, 2000\\)' in this run; systems '2000' in the checkpoint, '2002' in this run" \
    --quiet "${Q[@]}" --scan 'w=log(1,1000,1001)' --scan 'y=list(1,2000)' --checkpoint ck --resume
refuse "$MISMATCH repeat 'transient=1, record=3' in the checkpoint, 'transient=2, record=3' in this run" "${S[@]}" --transient 2 --checkpoint ck --resume
[ $have_h5 = 1 ] && refuse "$MISMATCH format 'CSV' in the checkpoint, 'HDF5' in this run" "${S[@]}" --checkpoint ck --resume -o out.h5
refuse "^$E checkpoint 'ck' exists: add --resume to continue from it, or remove it to start again\$" "${S[@]}" --checkpoint ck
# Another model (the same file with another option): another name, source and options.
sed 's/bound=1000/bound=1001/' "$OLDPWD/tests/mpi/uneven.ode" >other.ode
if "$ODEGEN" other.ode -o other -q && make -C other BACKEND=cpu CFLAGS=-O0 >other.log 2>&1; then
    other/other "${S[@]}" --checkpoint ck --resume -o out.csv 2>err
    rc=$?
    grep -Eq "^other: error: checkpoint 'ck' is of another run: model 'uneven' in the checkpoint, 'other' in this run; source '[0-9]+ bytes, hash [0-9a-f]{16}' in the checkpoint, '[0-9]+ bytes, hash [0-9a-f]{16}' in this run; generated 'source hash [0-9a-f]{16}' in the checkpoint, 'source hash [0-9a-f]{16}' in this run; build 'optimize=yes' in the checkpoint, 'optimize=no' in this run; options 'bound=1e3' in the checkpoint, 'bound=1001.0' in this run; give" err &&
        [ $rc = 1 ] && cmp -s ck ck.saved && ok || fail "another model: status $rc, $(cat err)"
else
    fail "building other: $(tail -3 other.log)"
fi
# A changed index, truncated rows.
cp ck ck.good
printf 'x' | dd of=ck bs=1 seek=40 conv=notrunc 2>/dev/null
cp ck ck.saved
refuse "^$E 'ck' is not an odegen checkpoint, or it was changed: remove it to start again, or give another --checkpoint file\$" \
    "${S[@]}" --checkpoint ck --resume
cp ck.good ck
cp ck.good ck.saved
if [ "$(done_in ck)" -gt 0 ] 2>/dev/null; then
    truncate -s 100 ck.rows
    refuse "^$E checkpoint 'ck' is missing rows: 'ck.rows' is shorter than its index says \([0-9]+ bytes needed\); remove the checkpoint to start again\$" \
        "${S[@]}" --checkpoint ck --resume
fi
# One run at a time: checkpoint_checks.sh.
# Usage errors.
for bad in "--resume|--resume needs --checkpoint FILE" "--checkpoint-every 5|--checkpoint-every needs --checkpoint FILE" \
    "--checkpoint ck --checkpoint-every -1|--checkpoint-every expects seconds (a number, 0 or more), got '-1'" \
    "--checkpoint same.csv -o same.csv|--checkpoint and -o name the same file 'same.csv'"; do
    # shellcheck disable=SC2086
    "$U" ${bad%%|*} 2>err
    rc=$?
    [ $rc = 2 ] && [ "$(cat err)" = "$E ${bad#*|}" ] && ok || fail "usage: ${bad%%|*}: status $rc, $(cat err)"
done
rm -f ck ck.rows ck2 ck2.rows out.csv
"$U" "${SCAN[@]}" "${Q[@]}" --checkpoint ck --resume -o out.csv 2>err
[ $? = 0 ] && grep -q "^uneven: note: no checkpoint 'ck' yet: starting from the beginning$" err && cmp -s out.csv ref.csv &&
    [ ! -e ck ] && ok || fail "--resume without a checkpoint: $(cat err)"
FORGE=$OLDPWD/tests/mpi/forge_checkpoint.py
. "$OLDPWD/tests/mpi/checkpoint_checks.sh"
cd "$OLDPWD" || exit 1
. tests/mpi/attractor_checks.sh   # `attractor`: its table kept in checkpoints, grouped under MPI
attractor_checkpoints

# ------------------------------------------------------------------ MPI
if [ $have_mpi = 0 ]; then
    echo "== MPI: mpicc or mpirun not found: the MPI tests were skipped (Debian: sudo apt-get install libopenmpi-dev openmpi-bin)"
    echo "== mpi tests: $passed passed, $failed failed"
    [ $failed = 0 ]
    exit
fi
echo "== MPI runner ($(mpirun --version 2>/dev/null | head -1))"
build mpi MPI=1 || exit 1
M=$T/mpi/uneven
run_mpi() {   # run_mpi R ARGS…: mpirun -n R of the MPI runner; status in $rc, stderr in $T/err, times in $T/time
    local n=$1
    shift
    ASAN_OPTIONS=$MPI_ASAN /usr/bin/time -o "$T/time" -f '%U %S' timeout 300 mpirun -n "$n" "$M" "$@" 2>"$T/err"
    rc=$?
    drop_env_noise "$T/err"
}
/usr/bin/time -o "$T/time1" -f '%U %S' timeout 300 "$U" "${SCAN[@]}" "${Q[@]}" -o "$T/one.csv" 2>"$T/err"
one=$(cputime "$T/time1")
statuses=$(sed -n 's/.*;\( [a-z]* [0-9]*\)/\1/p' "$T/err")   # " finished N, bound M": the summary's end
for n in 1 2 3; do
    rm -f "$T/m.csv"
    run_mpi $n "${SCAN[@]}" "${Q[@]}" -o "$T/m.csv"
    cpu=$(cputime "$T/time")
    ranks="$n ranks"
    [ $n = 1 ] && ranks="1 rank"
    if [ $rc = 0 ] && cmp -s "$T/m.csv" "$T/ref.csv" && [ "$(wc -l <"$T/err")" = 1 ] &&
        grep -Eq "^uneven: 2000 systems, [0-9]+ steps, .*, $ranks on 1 node: CPU, [0-9]+ threads?( \(x$n\))?;$statuses\$" "$T/err"; then
        ok
    else
        fail "mpirun -n $n: status $rc, $(cat "$T/err")"
    fi
    # The job's CPU time (every rank, mpirun included) against one process's: the work is not repeated.
    awk -v a="$cpu" -v b="$one" -v n=$n 'BEGIN { exit !(a < 1.5 * b + 1.0) }' && ok ||
        fail "mpirun -n $n took $cpu s of CPU time, one process $one s: work repeated?"
    echo "   -n $n: the reference CSV byte for byte; CPU time $cpu s (one process: $one s)"
done
echo "   $(cat "$T/err")"
# In a container without /sys, OpenMPI's hwloc warns on every start: the same checks must pass.
# (--propagation unchanged: in a chroot / is no mount point and unshare's default, making it
# private, fails; /sys alone is made private, so that unmounting it stays in the namespace.)
if unshare -m --propagation unchanged true 2>/dev/null; then
    rm -f "$T/m.csv"
    ASAN_OPTIONS=$MPI_ASAN timeout 300 unshare -m --propagation unchanged bash -c \
        'if mountpoint -q /sys; then mount --make-rprivate /sys && umount -l /sys || exit 99; fi; exec "$@"' - \
        mpirun -n 2 "$M" "${SCAN[@]}" "${Q[@]}" -o "$T/m.csv" 2>"$T/err"
    rc=$?
    raw=$(wc -l <"$T/err")
    drop_env_noise "$T/err"
    if [ $rc = 0 ] && cmp -s "$T/m.csv" "$T/ref.csv" && [ "$(wc -l <"$T/err")" = 1 ] &&
        grep -Eq "^uneven: 2000 systems, [0-9]+ steps, .*, 2 ranks on 1 node: .*;$statuses\$" "$T/err"; then
        ok
        echo "   without /sys (a mount namespace): -n 2, the reference CSV; $((raw - 1)) lines of hwloc's warnings dropped"
    else
        fail "mpirun -n 2 without /sys: status $rc, $(cat "$T/err")"
    fi
else
    echo "   (no mount namespace here: the run without /sys was skipped)"
fi
if [ $have_h5 = 1 ]; then
    for n in 3; do
        run_mpi $n "${S[@]}" -o "$T/m.h5"
        [ $rc = 0 ] && $PY tests/mpi/same_h5.py "$T/m.h5" "$T/ref.h5" >"$T/same" && ok ||
            fail "mpirun -n $n HDF5: status $rc, $(cat "$T/err" "$T/same")"
        echo "   -n $n HDF5: $(cat "$T/same")"
    done
fi

echo "== MPI: a rank killed mid-way"
rm -f "$T/k.csv"
# (mpirun gives the other ranks SIGTERM, then SIGKILL odls_base_sigkill_timeout seconds later:
# 1 by default, which a loaded machine may not leave rank 0 to remove its temporary file.)
OMPI_MCA_odls_base_sigkill_timeout=10 ASAN_OPTIONS=$MPI_ASAN mpirun -n 3 "$M" "${S[@]}" -o "$T/k.csv" 2>"$T/err" & mp=$!
sleep 1.5
victim=""
for i in $(seq 50); do victim=$(rank_pid $mp 2); [ -n "$victim" ] && break; sleep 0.1; done
kill -9 $victim 2>/dev/null
wait $mp
rc=$?
if [ -n "$victim" ] && [ $rc != 0 ] && grep -q 'rank 2' "$T/err" && [ ! -e "$T/k.csv" ] && [ -z "$(ls -A "$T" | grep '^\.k\.csv')" ]; then
    ok
    echo "   rank 2 killed: status $rc, '$(grep 'rank 2' "$T/err" | head -1 | sed 's/^ *//')', no output"
else
    fail "killed rank: pid '$victim', status $rc, files $(ls -A "$T" | grep k.csv), $(cat "$T/err")"
fi

echo "== MPI: an error before the run is said once, by rank 0"
run_mpi 3 "${S[@]}" --backend gpu -o "$T/g.csv"
[ $rc = 1 ] && [ "$(grep -c 'error:' "$T/err")" = 1 ] && grep -q '^uneven: error: --backend gpu: no GPU' "$T/err" && ok ||
    fail "--backend gpu under MPI: status $rc, $(cat "$T/err")"
run_mpi 2 "${S[@]}" --fields nope -o "$T/g.csv"
[ $rc = 2 ] && [ "$(grep -c 'error:' "$T/err")" = 1 ] && grep -q "^uneven: error: unknown field 'nope'" "$T/err" && ok ||
    fail "bad field under MPI: status $rc, $(cat "$T/err")"

echo "== MPI: --recorded 0 (no rows: the header only, as one process writes it)"
Z=(--quiet --scan 'w=log(1,30,300)' --transient 1 --recorded 0)
"$U" "${Z[@]}" -o "$T/r0.csv" 2>"$T/err" || fail "--recorded 0, one process: $(cat "$T/err")"
for n in 1 3; do
    rm -f "$T/m0.csv"
    run_mpi $n "${Z[@]}" -o "$T/m0.csv"
    [ $rc = 0 ] && cmp -s "$T/m0.csv" "$T/r0.csv" && [ ! -s "$T/err" ] && ok ||
        fail "mpirun -n $n --recorded 0: status $rc, $(cat "$T/err"), $(cmp "$T/m0.csv" "$T/r0.csv" 2>&1)"
done
echo "   -n 1 and 3: status 0, the one-process file ($(wc -l <"$T/r0.csv") line)"

echo "== MPI: checkpoints"
cd "$T" || exit 1
rm -f ck ck.rows out.csv
ASAN_OPTIONS=$MPI_ASAN mpirun -n 2 "$M" "${S[@]}" "${ck[@]}" -o out.csv 2>err & mp=$!
d=$(delay 1.0 2.0)
sleep "$d"
kill_all 9 $mp
wait $mp 2>/dev/null
sleep 0.2
k1=$(done_in ck)
run_mpi 3 "${S[@]}" "${ck[@]}" --resume -o out.csv
[ $rc = 0 ] && cmp -s out.csv ref.csv && [ ! -e ck ] && ok ||
    fail "MPI: killed at $d s ($k1 done) with 2 ranks, resumed with 3: status $rc, $(cat err)"
echo "   2 ranks killed (SIGKILL, every process) after $d s with $k1 systems done; resumed by 3 ranks: the reference CSV"
# SIGTERM to every rank, as Slurm sends it: rank 0 commits the checkpoint.
rm -f out.csv
ASAN_OPTIONS=$MPI_ASAN mpirun -n 3 "$M" "${S[@]}" --checkpoint ck -o out.csv 2>err & mp=$!
for i in $(seq 600); do [ -n "$(done_in ck)" ] && break; sleep 0.05; done   # the checkpoint begun
sleep 0.5
kill -TERM $(for r in 0 1 2; do rank_pid $mp $r; done) 2>/dev/null
wait $mp
term=$?
k2=$(done_in ck)
[ $term != 0 ] && [ -n "$k2" ] && grep -q 'uneven: interrupted' err && [ ! -e out.csv ] && ok ||
    fail "MPI: SIGTERM to every rank: status $term, checkpoint '$k2', $(cat err)"
run_mpi 2 "${S[@]}" --checkpoint ck --resume -o out.csv
[ $rc = 0 ] && cmp -s out.csv ref.csv && ok || fail "MPI: resumed after SIGTERM: status $rc, $(cat err)"
echo "   SIGTERM to every rank 0.5 s after the checkpoint began: a checkpoint of $k2 systems, status $term; resumed by 2 ranks: the reference CSV"
# SIGTERM to mpirun: OpenMPI passes it on to the ranks after odls_base_sigkill_timeout seconds, and kills them as long after.
rm -f out.csv ck ck.rows
OMPI_MCA_odls_base_sigkill_timeout=2 ASAN_OPTIONS=$MPI_ASAN mpirun -n 1 "$M" "${S[@]}" --checkpoint ck -o out.csv 2>err & mp=$!
for i in $(seq 600); do [ -n "$(done_in ck)" ] && break; sleep 0.05; done   # the checkpoint begun (a loaded machine is slow)
kill -TERM $mp
wait $mp
k3=$(done_in ck)
[ -n "$k3" ] && [ ! -e out.csv ] && ok || fail "MPI: SIGTERM to mpirun: checkpoint '$k3', $(cat err)"
run_mpi 3 "${S[@]}" --checkpoint ck --resume -o out.csv
[ $rc = 0 ] && cmp -s out.csv ref.csv && ok || fail "MPI: resumed after SIGTERM to mpirun: status $rc, $(cat err)"
echo "   SIGTERM to mpirun once the checkpoint is begun (odls_base_sigkill_timeout=2): a checkpoint of $k3 systems; resumed: the reference CSV"
cd "$OLDPWD" || exit 1

echo "== MPI: a rank stopped with SIGSTOP (reported; --mpi-timeout ends the job, the checkpoint kept)"
cd "$T" || exit 1
# stopped R ARGS…: mpirun -n 3 with a checkpoint; once it holds systems, rank R gets SIGSTOP.
# Status in $rc, stderr in err, the systems done when the rank stopped in $at.
stopped() {
    local r=$1
    shift
    rm -f ck ck.rows out.csv
    ASAN_OPTIONS=$MPI_ASAN timeout 120 mpirun -n 3 "$M" "${S[@]}" --checkpoint ck --checkpoint-every 0.1 "$@" -o out.csv \
        2>err & mp=$!
    at="" victim=""
    for i in $(seq 600); do
        at=$(done_in ck)
        [ -n "$at" ] && [ "$at" -gt 0 ] && victim=$(rank_pid $mp "$r") && [ -n "$victim" ] && break
        sleep 0.05
    done
    [ -n "$victim" ] && kill -STOP "$victim"
}
# Without a timeout: a line every --progress-every seconds names the silent rank; once it goes
# on (SIGCONT), so does the job.
stopped 2 --progress-every 1
for i in $(seq 200); do grep -q 'has not answered' err && break; sleep 0.05; done
sleep 1.2
[ -n "$victim" ] && kill -CONT "$victim"
wait $mp
rc=$?
drop_env_noise err
# (rank 1 may be named too, where a loaded machine left it unscheduled for a second)
reports=$(grep -Ec '^uneven: ranks? (1 \([^)]*\), )?2 \([^)]*\) ha(s|ve) not answered for [0-9]+ s \(rank 0: [a-z0-9 '"'"']*\); --mpi-timeout S would end the job after S s$' err)
if [ -n "$victim" ] && [ $rc = 0 ] && [ "$reports" -ge 2 ] && cmp -s out.csv ref.csv; then
    ok
    echo "   rank 2 stopped after $at systems: $reports reports, e.g. '$(grep -m1 'has not answered' err)'; SIGCONT: the reference CSV"
else
    fail "a stopped rank, then SIGCONT: pid '$victim' after $at systems, status $rc, $reports reports, $(cat err)"
fi
# With --mpi-timeout 3: the job ends with the rank's name, the checkpoint kept, no output; a
# resume (the stopped rank killed, as mpirun does) writes the reference and leaves no temporary
# file (none besides those the kills above may have left).
temps() { ls -A | grep '^\.out' | sort; }
before=$(temps)
for r in 2 0; do
    stopped $r --mpi-timeout 3 --progress-every 1
    t0=$SECONDS
    wait $mp
    rc=$?
    took=$((SECONDS - t0))
    [ -n "$victim" ] && kill -9 "$victim" 2>/dev/null
    drop_env_noise err
    kept=$(done_in ck)
    if [ $r = 0 ]; then   # the others notice: rank 0 keeps the checkpoint it last committed
        want="^uneven: error: rank 0 \\([^)]*\\) has not answered for 3 s \\(rank [12]: [a-z0-9 ']*\\): --mpi-timeout ends the job\$"
    else
        want="^uneven: error: ranks? (1 \\([^)]*\\), )?2 \\([^)]*\\) ha(s|ve) not answered for 3 s \\(rank 0: [a-z0-9 ']*\\): --mpi-timeout ends the job\$"
        grep -q "^uneven: checkpoint 'ck' keeps $kept of 2000 systems: the same command with --resume continues\$" err ||
            want="(the checkpoint's line is missing)"
    fi
    if [ -n "$victim" ] && [ $rc = 1 ] && grep -Eq "$want" err && [ ! -e out.csv ] && [ -n "$kept" ] && [ $took -lt 60 ]; then
        ok
        echo "   rank $r stopped after $at systems: status $rc after $took s, '$(grep -m1 'error:' err)'; the checkpoint keeps $kept"
    else
        fail "--mpi-timeout 3, rank $r stopped after $at systems: pid '$victim', status $rc after $took s, files $(ls -A | tr '\n' ' '), $(cat err) (wanted /$want/)"
    fi
    run_mpi 3 "${S[@]}" --checkpoint ck --resume -o out.csv
    [ $rc = 0 ] && cmp -s out.csv ref.csv && [ -z "$(comm -13 <(echo "$before") <(temps))" ] && ok ||
        fail "resumed after --mpi-timeout (rank $r): status $rc, $(cat err), files $(ls -A | tr '\n' ' ')"
done
echo "   resumed after each: the reference CSV"
cd "$OLDPWD" || exit 1

echo "== the library's model_mpi_scan"
if mpicc -std=c11 -O1 -g $SAN -fopenmp -Wall -Wextra -Werror -I"$T/mpi" tests/mpi/scan_test.c -L"$T/mpi" -luneven -lm \
    -o "$T/scan_test" 2>"$T/cc.log"; then
    for n in 1 3; do
        ASAN_OPTIONS=$MPI_ASAN timeout 300 mpirun -n $n "$T/scan_test" >"$T/scan.out" 2>&1
        rc=$?
        drop_env_noise "$T/scan.out"
        [ $rc = 0 ] && ok || fail "scan_test -n $n: $(cat "$T/scan.out")"
        sed 's/^/   /' "$T/scan.out"
    done
else
    fail "building scan_test: $(cat "$T/cc.log")"
fi

echo "== save's samples with a checkpoint or MPI: refused, not silently missing"
sed 's/^done$/save every=0.5, systems=list(0, 3)\ndone/' tests/mpi/uneven.ode >"$T/saving.ode"
if (cd "$T" && "$ODEGEN" saving.ode -o saving -q && "$ODEGEN" saving.ode -o saving_mpi -q) &&
    make -C "$T/saving" BACKEND=cpu CFLAGS=-O0 >"$T/saving.log" 2>&1 &&
    make -C "$T/saving_mpi" BACKEND=cpu CFLAGS=-O0 MPI=1 >>"$T/saving.log" 2>&1; then
    (cd "$T" && saving/saving --checkpoint sck -o s.csv 2>err)
    rc=$?
    [ $rc = 2 ] && grep -q "^saving: error: the model's save line cannot be used with --checkpoint: its samples are not kept in checkpoints" "$T/err" &&
        [ ! -e "$T/s.csv" ] && [ ! -e "$T/sck" ] && ok || fail "save with --checkpoint: status $rc, $(cat "$T/err")"
    (cd "$T" && timeout 300 mpirun -n 2 saving_mpi/saving -o s.csv 2>err)
    rc=$?
    drop_env_noise "$T/err"
    [ $rc = 2 ] && [ "$(grep -c "error: the model's save line cannot be used with MPI" "$T/err")" = 1 ] && [ ! -e "$T/s.csv" ] &&
        ok || fail "save under mpirun: status $rc, $(cat "$T/err")"
else
    fail "building saving: $(tail -5 "$T/saving.log")"
fi

attractor_mpi

if [ -n "$NVCC" ]; then
    echo "== the MPI code as CUDA C++ (nvcc, compiled only)"
    "$NVCC" -x cu -arch="${ARCH:-sm_90}" -O1 -Xcompiler -fopenmp,-Wall,-Wextra -DODE_MPI $(mpicc -showme:compile) \
        -Iruntime -Itemplates -c tests/runtime/assembled.c -o "$T/nvcc.o" 2>"$T/nvcc.log"
    nv=$?
    grep -v 'pragma unroll\|^ *[0-9]* |\|^ *|\s*$\|^ *\^' "$T/nvcc.log" | grep -E 'runtime/|error|warning' >"$T/nvcc.mine"
    [ $nv = 0 ] && [ ! -s "$T/nvcc.mine" ] && ok || fail "nvcc -DODE_MPI: $(cat "$T/nvcc.log")"
fi

echo "== mpi tests: $passed passed, $failed failed"
[ $failed = 0 ]
