# tests/mpi/attractor_checks.sh — `attractor` (issue 24) with checkpoints and
# under MPI, sourced by tests/mpi/run.sh (its helpers: ok, fail, done_in,
# delay, kill_all, run_mpi's environment, $T, $ODEGEN, $SAN, $have_h5, $PY),
# with runners of tests/mpi/attractors.ode (the magnetic pendulum on a 30 × 30
# grid: three attractors, labels in the order the scan first reaches them):
#   attractor_checkpoints  a run killed with SIGKILL at three points (each
#       after the checkpoint holds more systems), resumed each time, ends with
#       the uninterrupted run's rows, labels, attractor table and basin
#       measures byte for byte (CSV) and bit for bit (HDF5: /attractors and
#       /basins too); a checkpoint whose fingerprints were changed is refused;
#   attractor_mpi  mpirun -n 1, 2, 3: the same files as one process (labels
#       in the rows, and without them: --fields x,y); HDF5 with 3 ranks; a
#       job of 2 ranks killed mid-way and resumed by 3.

ATT_ARGS=(--quiet --chunk 30 --basin-entropy 5 --uncertainty)

# att_same OUT REF: the rows, FILE.attractors.csv and FILE.basins.csv of OUT are REF's, byte for byte.
att_same() {
    cmp -s "$1.csv" "$2.csv" && cmp -s "$1.attractors.csv" "$2.attractors.csv" && cmp -s "$1.basins.csv" "$2.basins.csv"
}

attractor_checkpoints() {
    echo "== attractor with checkpoints: killed at three points, resumed: the same labels and table"
    (cd "$T" && "$ODEGEN" "$OLDPWD/tests/mpi/attractors.ode" -o att -q) &&
        make -C "$T/att" BACKEND=cpu CFLAGS="-O1 -g $SAN" >"$T/att.log" 2>&1 ||
        { fail "building att: $(tail -5 "$T/att.log")"; return; }
    local A=$T/att/attractors
    cd "$T" || return
    timeout 300 "$A" "${ATT_ARGS[@]}" -o aref.csv || { fail "attractor reference run"; cd "$OLDPWD"; return; }
    rm -f ack ack.rows aout.*
    local ck=(--checkpoint ack --checkpoint-every 0) history="" at=0 pid rc
    "$A" "${ATT_ARGS[@]}" "${ck[@]}" -o aout.csv 2>err & pid=$!
    for round in 1 2 3; do
        # Killed once the checkpoint holds more systems than at the last kill.
        for i in $(seq 1500); do [ "$(done_in ack)" -gt $((at + 150)) ] 2>/dev/null && break; sleep 0.02; done
        kill -9 $pid 2>/dev/null
        wait $pid 2>/dev/null
        at=$(done_in ack)
        history="$history $at"
        "$A" "${ATT_ARGS[@]}" "${ck[@]}" --resume -o aout.csv 2>err & pid=$!
    done
    # (the kills come after the checkpoint holds 150, 300, 450 systems or more)
    wait $pid
    rc=$?
    if [ $rc = 0 ] && att_same aout aref && [ ! -e ack ]; then
        ok
        echo "   killed with$history of 900 systems done; resumed: rows, labels, table and basin measures byte for byte"
    else
        fail "attractor resumed after kills at$history: status $rc, $(cat err), $(cmp aout.attractors.csv aref.attractors.csv 2>&1)"
    fi
    echo "   the table (label, kind, period, systems): $(sed -n '4,6p' aref.attractors.csv | cut -d, -f3-6 | tr '\n' ' ')"
    if [ $have_h5 = 1 ]; then
        timeout 300 "$A" "${ATT_ARGS[@]}" -o aref.h5 || fail "attractor HDF5 reference run"
        rm -f ack ack.rows
        "$A" "${ATT_ARGS[@]}" "${ck[@]}" -o aout.h5 2>err & pid=$!
        for i in $(seq 1200); do [ "$(done_in ack)" -gt 0 ] 2>/dev/null && break; sleep 0.02; done
        kill -9 $pid 2>/dev/null
        wait $pid 2>/dev/null
        at=$(done_in ack)
        timeout 300 "$A" "${ATT_ARGS[@]}" "${ck[@]}" --resume -o aout.h5 2>err &&
            $PY "$OLDPWD/tests/mpi/same_h5.py" aout.h5 aref.h5 >same.txt && $PY - aout.h5 <<'EOF' && ok ||
import sys, h5py
f = h5py.File(sys.argv[1], "r")
sys.exit(0 if "attractors/label" in f and "basins/basin_entropy" in f else "no /attractors or /basins")
EOF
            fail "attractor HDF5 resumed after a kill with $at done: $(cat err same.txt)"
        echo "   HDF5: killed with $at systems done, resumed: $(cat same.txt) (/attractors and /basins among them)"
    fi
    # A checkpoint whose fingerprints were changed (a byte of the last side record) is refused.
    rm -f ack ack.rows aout.csv
    "$A" "${ATT_ARGS[@]}" "${ck[@]}" -o aout.csv 2>err & pid=$!
    for i in $(seq 1200); do [ "$(done_in ack)" -gt 0 ] 2>/dev/null && break; sleep 0.02; done
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    local rows_end
    rows_end=$(sed -n 's/^rows: //p' ack)
    printf '\x7f' | dd of=ack.rows bs=1 seek=$((rows_end - 3)) conv=notrunc 2>/dev/null
    "$A" "${ATT_ARGS[@]}" "${ck[@]}" --resume -o aout.csv 2>err
    rc=$?
    [ $rc = 1 ] && grep -Eq "^attractors: error: checkpoint 'ack' is damaged: the block at byte [0-9]+ of 'ack.rows' \(systems [0-9]+ to [0-9]+\) does not match its checksum" err &&
        [ ! -e aout.csv ] && ok || fail "changed fingerprints: status $rc, $(cat err)"
    rm -f ack ack.rows
    cd "$OLDPWD" || return
}

attractor_mpi() {
    echo "== attractor under MPI: rank 0 groups the ranks' fingerprints in order"
    (cd "$T" && "$ODEGEN" "$OLDPWD/tests/mpi/attractors.ode" -o attm -q) &&
        make -C "$T/attm" BACKEND=cpu CFLAGS="-O1 -g $SAN" MPI=1 >"$T/attm.log" 2>&1 ||
        { fail "building attm: $(tail -5 "$T/attm.log")"; return; }
    local A=$T/att/attractors AM=$T/attm/attractors
    timeout 300 "$A" "${ATT_ARGS[@]}" --fields x,y -o "$T/afref.csv" || fail "attractor reference run, --fields x,y"
    for n in 1 2 3; do
        rm -f "$T"/am.*
        ASAN_OPTIONS=$MPI_ASAN timeout 300 mpirun -n $n "$AM" "${ATT_ARGS[@]}" -o "$T/am.csv" 2>"$T/err"
        rc=$?
        drop_env_noise "$T/err"
        [ $rc = 0 ] && att_same "$T/am" "$T/aref" && [ ! -s "$T/err" ] && ok ||
            fail "attractor, mpirun -n $n: status $rc, $(cat "$T/err"), $(cmp "$T/am.attractors.csv" "$T/aref.attractors.csv" 2>&1)"
        rm -f "$T"/am.*
        ASAN_OPTIONS=$MPI_ASAN timeout 300 mpirun -n $n "$AM" "${ATT_ARGS[@]}" --fields x,y -o "$T/am.csv" 2>"$T/err"
        rc=$?
        drop_env_noise "$T/err"
        [ $rc = 0 ] && att_same "$T/am" "$T/afref" && ok ||
            fail "attractor, mpirun -n $n --fields x,y: status $rc, $(cat "$T/err")"
    done
    echo "   -n 1, 2, 3: rows, labels, table and basin measures byte for byte, with and without the labels in the rows"
    if [ $have_h5 = 1 ]; then
        ASAN_OPTIONS=$MPI_ASAN timeout 300 mpirun -n 3 "$AM" "${ATT_ARGS[@]}" -o "$T/am.h5" 2>"$T/err"
        rc=$?
        [ $rc = 0 ] && $PY tests/mpi/same_h5.py "$T/am.h5" "$T/aref.h5" >"$T/same" && ok ||
            fail "attractor, mpirun -n 3, HDF5: status $rc, $(cat "$T/err" "$T/same")"
        echo "   -n 3 HDF5: $(cat "$T/same")"
    fi
    cd "$T" || return
    rm -f ack ack.rows aout.*
    ASAN_OPTIONS=$MPI_ASAN mpirun -n 2 "$AM" "${ATT_ARGS[@]}" --checkpoint ack --checkpoint-every 0 -o aout.csv 2>err & mp=$!
    for i in $(seq 1200); do [ "$(done_in ack)" -gt 0 ] 2>/dev/null && break; sleep 0.02; done
    sleep "$(delay 0 0.5)"
    kill_all 9 $mp
    wait $mp 2>/dev/null
    sleep 0.2
    local k=$(done_in ack)
    ASAN_OPTIONS=$MPI_ASAN timeout 300 mpirun -n 3 "$AM" "${ATT_ARGS[@]}" --checkpoint ack --resume -o aout.csv 2>err
    rc=$?
    [ $rc = 0 ] && att_same aout aref && [ ! -e ack ] && ok ||
        fail "attractor under MPI: killed with $k done (2 ranks), resumed by 3: status $rc, $(cat err)"
    echo "   2 ranks killed with $k systems done, resumed by 3: the one-process files byte for byte"
    cd "$OLDPWD" || return
}
