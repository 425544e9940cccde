#!/usr/bin/env bash
# tests/runtime/generated.sh — the runner's output as odegen generates it
# (called by tests/runtime/run.sh; needs build/odegen):
#   1. the generated Makefile finds HDF5 (or says it did not), and with HDF5=0
#      builds a runner that refuses .h5 with the one-line message;
#   2. a float model writes float32 datasets equal to its CSV's numbers;
#   3. the speed of CSV on this machine's cores (printed, not asserted): a
#      model of one step per integration, so that what is timed is the
#      output, 5 million rows;
#   4. save's samples: more per integration than a system can keep refused
#      with the numbers (every=1e-300), sizes with units, the samples' file
#      written through a symbolic link.
# Exit status 0 when everything passed.
set -u
PY=${PY:-/usr/bin/python3}   # Debian's (h5py, numpy); PY=python3 where another one has them
cd "$(dirname "$0")/../.." || exit 1
ODEGEN=${ODEGEN:-build/odegen}
[ -x "$ODEGEN" ] || { echo "generated.sh: $ODEGEN not found (make build/odegen)"; exit 1; }
ODEGEN=$(cd "$(dirname "$ODEGEN")" && pwd)/$(basename "$ODEGEN")
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
T=$(mktemp -d "${TMPDIR:-/tmp}/odegen-generated.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failed=0
passed=0
fail() { echo "FAIL: $*" >&2; failed=$((failed + 1)); }
ok() { passed=$((passed + 1)); }
H5PKG=$(for p in hdf5-serial hdf5; do pkg-config --exists $p 2>/dev/null && { echo $p; break; }; done)

cat >"$T/fast.ode" <<'EOF'
# One RK4 step per integration: the output is what takes the time.
par a=1
y'=-a*y
z'=a*y
init y=1, z=0
@ meth=rk4, dt=0.001, total=0.001
scan a = lin(0, 1, 250000)
repeat transient=0, record=20
done
EOF

# gen NAME ARGS…: translates and builds $T/fast.ode into $T/NAME with the C compiler.
gen() {
    local name=$1
    shift
    (cd "$T" && "$ODEGEN" fast.ode -o "$name" "$@" >/dev/null 2>"$T/gen.err") || { fail "odegen: $(cat "$T/gen.err")"; return 1; }
    make -C "$T/$name" BACKEND=cpu >"$T/make.log" 2>&1 || { fail "building $name: $(tail -5 "$T/make.log")"; return 1; }
}

echo "== generated runner: HDF5 found by the Makefile, or refused with the way to get it"
if gen double; then
    if [ -n "$H5PKG" ]; then
        grep -q -- '-DODE_HDF5' "$T/make.log" && ok || fail "the Makefile did not find HDF5 ($H5PKG): $(cat "$T/make.log")"
        "$T/double/fast" --quiet --scan 'a=lin(0,1,1000)' --recorded 3 -o "$T/d.h5" && ok || fail "fast -o d.h5"
    else
        grep -q 'built without HDF5' "$T/make.log" && ok || fail "no note about HDF5 in: $(cat "$T/make.log")"
    fi
    rm -f "$T/double/fast_main.o" "$T/double/fast"
    make -C "$T/double" BACKEND=cpu HDF5=0 >"$T/make.log" 2>&1
    grep -q 'fast: built without HDF5, so -o FILE.h5 is refused; for it: sudo apt-get install libhdf5-dev, then make clean all' "$T/make.log" &&
        ok || fail "HDF5=0: no note in the build: $(cat "$T/make.log")"
    "$T/double/fast" --quiet --recorded 1 -o "$T/x.h5" 2>"$T/err"
    rc=$?
    [ $rc = 1 ] && [ "$(cat "$T/err")" = "fast: error: cannot write '$T/x.h5': this runner was built without HDF5; install Debian's libhdf5-dev (sudo apt-get install libhdf5-dev) and rebuild it (make), or write CSV" ] &&
        [ ! -e "$T/x.h5" ] && ok || fail "HDF5=0 runner and .h5: status $rc, $(cat "$T/err")"
    nm "$T/double/libfast.a" | grep -q ' U H5' && fail "libfast.a needs HDF5" || ok
fi

echo "== a float model in HDF5: float32 datasets, the CSV's numbers"
if [ -n "$H5PKG" ] && gen single --precision float; then
    args=(--quiet --scan 'a=log(0.01,1,300)' --recorded 4 --fields y,z,a,t)
    "$T/single/fast" "${args[@]}" -o "$T/s.csv" && "$T/single/fast" "${args[@]}" -o "$T/s.h5" &&
        "$PY" tests/runtime/check_h5.py "$T/s.h5" "$T/s.csv" precision=float model=fast >"$T/check" 2>&1 &&
        "$PY" -c "import h5py, sys; sys.exit(h5py.File(sys.argv[1])['y'].dtype.name != 'float32')" "$T/s.h5" &&
        ok || fail "float model in HDF5: $(cat "$T/check")"
fi

echo "== CSV speed with $OMP_NUM_THREADS threads (printed, not asserted)"
if [ -x "$T/double/fast" ]; then
    TIMEFORMAT='%R %U %S'
    { time "$T/double/fast" -o "$T/fast.csv" 2>"$T/err"; } 2>"$T/time"
    rc=$?
    rows=$(($(wc -l <"$T/fast.csv") - 1))
    if [ $rc = 0 ] && [ $rows = 5000000 ]; then
        ok
        read -r wall user sys <"$T/time"
        awk -v wall="$wall" -v cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" -v rows=$rows \
            -v bytes="$(wc -c <"$T/fast.csv")" -v threads="$OMP_NUM_THREADS" 'BEGIN {
            printf "   CSV: %d rows (%.0f MB, synced to disk) in %.2f s: %.2f M rows/s; %.2f s of CPU time, %.2f M rows/s per core (%.1f M rows/s on %d idle cores)\n",
                   rows, bytes / 1e6, wall, rows / wall / 1e6, cpu, rows / cpu / 1e6, threads * rows / cpu / 1e6, threads }'
        echo "   $(cat "$T/err")"
    else
        fail "fast -o fast.csv: status $rc, $rows rows, $(cat "$T/err")"
    fi
fi

echo "== save's samples: an absurd size refused with its numbers, the file through a symbolic link"
cat >"$T/saving.ode" <<'EOF'
par a=1
y'=-a*y
init y=1
@ meth=rk4, dt=0.01, total=1
save every=0.25
repeat transient=0, record=1
done
EOF
sed 's/every=0.25/every=1e-300/' "$T/saving.ode" >"$T/tiny.ode"
if (cd "$T" && "$ODEGEN" saving.ode -q && "$ODEGEN" tiny.ode -q) && make -C "$T/saving" BACKEND=cpu HDF5=0 >"$T/make.log" 2>&1 &&
    make -C "$T/tiny" BACKEND=cpu HDF5=0 >>"$T/make.log" 2>&1; then
    "$T/tiny/tiny" --quiet -o "$T/tiny.csv" 2>"$T/err"
    rc=$?
    [ $rc = 1 ] && [ "$(cat "$T/err")" = "tiny: error: save every=1e-300 over a window of total=1 takes 1e+300 samples per integration, more than the 2000000000 a system can keep: save less often (every=), or cap the samples (save max=N)" ] &&
        [ -z "$(ls -A "$T" | grep 'tiny\.csv')" ] && ok || fail "save every=1e-300: status $rc, $(cat "$T/err")"
    # Sizes in messages have a unit, however large (here 1000 integrations of 1.6e9 samples: 23 TiB).
    "$T/saving/saving" --quiet --set total=4e8 --recorded 1000 -o "$T/big.csv" 2>"$T/err"
    rc=$?
    [ $rc = 1 ] && grep -Eq "^saving: error: out of memory: one system recording 1000 integrations of 1 fields needs [0-9.]+ TiB of host memory, more than the [0-9.]+ [KMGTPE]iB this run may use" "$T/err" &&
        ok || fail "save of 1.6e12 samples: status $rc, $(cat "$T/err")"
    mkdir -p "$T/side/real"
    ln -s real/s.traj.csv "$T/side/s.traj.csv"
    "$T/saving/saving" --quiet -o "$T/side/s.csv" 2>"$T/err"
    rc=$?
    [ $rc = 0 ] && [ -L "$T/side/s.traj.csv" ] && [ "$(head -1 "$T/side/real/s.traj.csv")" = "system,rep,t,y" ] &&
        [ "$(wc -l <"$T/side/real/s.traj.csv")" = 6 ] && [ -z "$(ls -A "$T/side" "$T/side/real" | grep '^\.')" ] && ok ||
        fail "save's samples through a link: status $rc, $(cat "$T/err"), $(ls -lA "$T/side" "$T/side/real")"
else
    fail "building the save models: $(tail -5 "$T/make.log")"
fi

echo "== generated: $passed passed, $failed failed"
[ $failed = 0 ]
