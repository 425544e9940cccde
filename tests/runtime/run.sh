#!/usr/bin/env bash
# tests/runtime/run.sh — the runtime's tests (runtime/api.h, library.c, runner.c)
# on the example model (templates/example_model.h).
#
#   tests/runtime/run.sh          # from anywhere; exit status 0 when everything passed
#
# 1. The example model assembled as odegen assembles NAME.cu (assembled.c),
#    built with gcc -x c -std=c11 under AddressSanitizer and UBSan: the API
#    tests (test_api.c) and the runner (runner_main.c = NAME_main.c) against
#    every behaviour and error message of SPEC §4.
# 2. The same source built with nvcc as CUDA C++ (when nvcc is there): it must
#    compile without warnings, link with C callers, and run the CPU path on a
#    machine without a GPU; with a GPU, test_gpu.c compares the GPU with the CPU.
#
# Environment: CC (gcc), NVCC (nvcc or /usr/local/cuda/bin/nvcc), ARCH (sm_90),
# ODE_TEMPLATES (templates), ODE_BUILD (build/runtime-tests).
set -u
cd "$(dirname "$0")/../.." || exit 1
TPL=${ODE_TEMPLATES:-templates}
B=${ODE_BUILD:-build/runtime-tests}
CC=${CC:-gcc}
ARCH=${ARCH:-sm_90}
NVCC=${NVCC:-$(command -v nvcc || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

mkdir -p "$B" || exit 1
T=$(mktemp -d "${TMPDIR:-/tmp}/odegen-runtime.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
umask 022

WARN="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-function -Werror"
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
INC="-Iruntime -I$TPL"
failed=0
passed=0
fail() { echo "FAIL: $*" >&2; failed=$((failed + 1)); }
ok() { passed=$((passed + 1)); }

# ------------------------------------------------------------------ build (gcc, sanitizers)
echo "== build with $CC (C11, ASan, UBSan)"
$CC -x c -std=c11 -O1 -g -fopenmp $SAN $WARN $INC -c tests/runtime/assembled.c -o "$B/lib_asan.o" || exit 1
$CC -std=c11 -O1 -g -fopenmp $SAN $WARN $INC tests/runtime/test_api.c "$B/lib_asan.o" -lpthread -lm -o "$B/test_api" || exit 1
# The runner's main with HDF5 where Debian's libhdf5-dev is (as the generated
# Makefile finds it), and without, for the refusal of .h5.
H5PKG=$(for p in hdf5-serial hdf5; do pkg-config --exists $p 2>/dev/null && { echo $p; break; }; done)
H5CFLAGS= H5LIBS=
if [ -n "$H5PKG" ]; then
    H5CFLAGS="-DODE_HDF5 $(pkg-config --cflags $H5PKG)"
    H5LIBS=$(pkg-config --libs $H5PKG | sed 's/-lhdf5\b/-lhdf5_hl -lhdf5/')
fi
$CC -std=c11 -O1 -g $SAN $WARN $INC $H5CFLAGS -c tests/runtime/runner_main.c -o "$B/runner_main_asan.o" || exit 1
$CC -fopenmp $SAN "$B/runner_main_asan.o" "$B/lib_asan.o" $H5LIBS -lpthread -lm -o "$B/example" || exit 1
$CC -std=c11 -O1 -g $SAN $WARN $INC -c tests/runtime/runner_main.c -o "$B/runner_main_noh5.o" || exit 1
$CC -fopenmp $SAN "$B/runner_main_noh5.o" "$B/lib_asan.o" -lpthread -lm -o "$B/example_noh5" || exit 1
# A plain build too, for what ASan cannot run under (an address-space limit)
# and for what is timed.
$CC -x c -std=c11 -O2 -fopenmp $WARN $INC -c tests/runtime/assembled.c -o "$B/lib_plain.o" || exit 1
$CC -std=c11 -O2 $WARN $INC $H5CFLAGS tests/runtime/runner_main.c "$B/lib_plain.o" -fopenmp $H5LIBS -lpthread -lm \
    -o "$B/example_plain" || exit 1
EX=$B/example
EXP=$B/example_plain

echo "== API tests"
if timeout 300 "$B/test_api"; then ok; else fail "test_api"; fi

# ------------------------------------------------------------------ runner helpers
# run ARGS…: runs the runner, output in $T/out and $T/err, status in $rc.
run() { timeout 60 "$EX" "$@" >"$T/out" 2>"$T/err"; rc=$?; }

# expect RC 'exact stderr' ARGS…
expect() {
    local want_rc=$1 want=$2
    shift 2
    run "$@"
    if [ "$rc" != "$want_rc" ] || [ "$(cat "$T/err")" != "$want" ]; then
        fail "example $* -> status $rc, stderr: $(cat "$T/err")  (expected $want_rc: $want)"
    else ok; fi
}

# expect_re RC 'stderr regex' ARGS…
expect_re() {
    local want_rc=$1 want=$2
    shift 2
    run "$@"
    if [ "$rc" != "$want_rc" ] || ! grep -Eq -- "$want" "$T/err" || [ "$(wc -l <"$T/err")" != 1 ]; then
        fail "example $* -> status $rc, stderr: $(cat "$T/err")  (expected $want_rc: /$want/)"
    else ok; fi
}

# same_text FILE 'expected text' WHAT
same_text() {
    if [ "$(cat "$1")" != "$2" ]; then
        fail "$3: got"$'\n'"$(cat "$1")"$'\n'"expected"$'\n'"$2"
    else ok; fi
}

SECS='[0-9.e+-]+'   # a time in the summary

# ------------------------------------------------------------------ usage errors (exit 2)
echo "== runner: usage errors"
E="example: error:"
SYNTAX="expected NAME=lin(a,b,n), NAME=log(a,b,n) or NAME=list(v,...)"
expect 2 "$E unknown option '--bogus' (see --help)" --bogus
expect 2 "$E unknown option '--scna'; did you mean '--scan'?" --scna 'k=lin(0,1,2)'
expect 2 "$E unexpected argument 'stray' (see --help)" stray
expect 2 "$E option '--set' needs a value" --set
expect 2 "$E option '--quiet' takes no value" --quiet=1
expect 2 "$E --set expects NAME=VALUE, got 'k'" --set k
expect 2 "$E unknown name 'kk' in --set; did you mean 'k'?" --set kk=1
expect 2 "$E unknown name 'zzz' in --set" --set zzz=1
expect 2 "$E cannot set 'ymax': it is an accessory; only parameters and initial values of states can be set" --set ymax=1
expect 2 "$E bad value 'abc' in --set k=abc: not a number" --set k=abc
expect 2 "$E bad value 'inf' in --set k=inf: not a finite number" --set k=inf
expect 2 "$E unknown name 'y3' in --scan; did you mean 'y1'?" --scan 'y3=lin(0,1,5)'
expect 2 "$E unknown name 'B2' in --scan; did you mean 'B'?" --scan 'B2=lin(0,1,5)'
expect 2 "$E cannot scan 'ymax': it is an accessory; only parameters and initial values of states can be scanned" --scan 'ymax=lin(0,1,5)'
expect 2 "$E cannot scan 'peak': it is an event; only parameters and initial values of states can be scanned" --scan 'peak=list(1)'
expect 2 "$E bad scan 'k=lin(0,1)': $SYNTAX" --scan 'k=lin(0,1)'
expect 2 "$E bad scan 'k=lni(0,1,5)': $SYNTAX" --scan 'k=lni(0,1,5)'
expect 2 "$E bad scan 'k': $SYNTAX" --scan k
expect 2 "$E bad scan 'k=lin(0,1,5) x': $SYNTAX" --scan 'k=lin(0,1,5) x'
expect 2 "$E bad scan 'k=list()': $SYNTAX" --scan 'k=list()'
expect 2 "$E bad scan 'k=lin(0,1,0)': the number of values must be at least 1" --scan 'k=lin(0,1,0)'
expect 2 "$E bad scan 'k=lin(0,1,-3)': the number of values must be at least 1" --scan 'k=lin(0,1,-3)'
expect 2 "$E bad scan 'k=lin(0,1,2.5)': the number of values '2.5' is not a whole number" --scan 'k=lin(0,1,2.5)'
expect 2 "$E bad scan 'k=log(0,1,5)': a log scan needs both ends positive" --scan 'k=log(0,1,5)'
expect 2 "$E bad scan 'k=log(-1,1,5)': a log scan needs both ends positive" --scan 'k=log(-1,1,5)'
expect 2 "$E bad scan 'k=log(-2,-1,3)': a log scan needs both ends positive" --scan 'k=log(-2,-1,3)'
expect 2 "$E bad value 'nan' in scan 'k=list(0.1,nan)': not a finite number" --scan 'k=list(0.1,nan)'
expect 2 "$E bad value 'inf' in scan 'k=lin(0,inf,3)': not a finite number" --scan 'k=lin(0,inf,3)'
expect 2 "$E bad value 'x' in scan 'k=list(1,x)': not a number" --scan 'k=list(1,x)'
expect 2 "$E 'k' is scanned twice" --scan 'k=list(1)' --scan 'K=list(2)'
expect 2 "$E the scan has more than 9223372036854775807 systems" --scan 'k=lin(0,1,3000000000)' \
    --scan 'B=lin(0,1,3000000000)' --scan 'y1=lin(0,1,3000000000)'
expect 2 "$E field 'y1' is listed twice in --fields" --fields y1,Y1
expect 2 "$E unknown field 'y3' in --fields; did you mean 'y1'?" --fields y1,y3
expect 2 "$E empty field name in --fields 'y1,'" --fields y1,
expect 2 "$E --transient expects a whole number from 0 to 2147483647, got '-1'" --transient -1
expect 2 "$E --recorded expects a whole number from 0 to 2147483647, got 'x'" --recorded x
expect 2 "$E --transient plus --recorded must be at most 2147483647" --transient 2000000000 --recorded 2000000000
expect 2 "$E --block expects a multiple of 32 from 32 to 128, got '100'" --block 100
expect 2 "$E --block expects a multiple of 32 from 32 to 128, got '256'" --block=256
expect 2 "$E --backend expects auto, gpu or cpu, got 'tpu'" --backend tpu
expect 2 "$E --balance expects off, warp, thread or on, got 'maybe'" --balance maybe
expect 2 "$E --chunk expects a whole number from 1 to 2147483647, got '0'" --chunk 0
expect 2 "$E --devices expects device numbers like 0,1, got '0,a'" --devices 0,a
expect 2 "$E device 1 is listed twice in --devices" --devices 1,0,1
expect 2 "$E --devices goes with the GPU backend, not --backend cpu" --backend cpu --devices 0

# ------------------------------------------------------------------ runtime errors (exit 1)
echo "== runner: runtime errors"
NOGPU="this program was built without CUDA; build it with nvcc to use a GPU"
expect 1 "$E --backend gpu: no GPU ($NOGPU)" --backend gpu
expect 1 "$E --devices: no GPU ($NOGPU)" --devices 1
small=(--quiet --scan 'k=lin(0.2,0.3,3)' --transient 1 --recorded 2)
expect 1 "$E cannot write '/nonexistent-odegen/x.csv': No such file or directory" "${small[@]}" -o /nonexistent-odegen/x.csv
mkdir -p "$T/dir"
expect 1 "$E cannot write '$T/dir': Is a directory" "${small[@]}" -o "$T/dir"
: >"$T/plain"
expect 1 "$E cannot write '$T/plain/x.csv': Not a directory" "${small[@]}" -o "$T/plain/x.csv"
# One system recording 200 million integrations (3.7 GiB) under a 3 GiB
# address-space limit: refused before anything is allocated.  (The plain
# build: ASan cannot start under ulimit -v.)
(ulimit -v 3000000; exec timeout 60 "$B/example_plain" --scan 'k=list(1)' --recorded 200000000 -o "$T/huge.csv") \
    >"$T/out" 2>"$T/err"
rc=$?
re="^$E out of memory: one system recording 200000000 integrations of 2 fields needs 3\\.7 GiB of host memory, more than the [0-9.]+ [KMG]iB this run may use \\(3/4 of the [0-9.]+ [KMG]iB available\\)$"
[ "$rc" = 1 ] && grep -Eq "$re" "$T/err" && [ ! -e "$T/huge.csv" ] && ok || fail "memory refusal: status $rc, $(cat "$T/err")"
# Write errors: standard output on a full disk, a file over the size limit.
timeout 60 "$EX" "${small[@]}" >/dev/full 2>"$T/err"
rc=$?
[ "$rc" = 1 ] && [ "$(cat "$T/err")" = "$E cannot write to standard output: No space left on device" ] && ok ||
    fail "/dev/full: status $rc, $(cat "$T/err")"
(trap '' XFSZ; ulimit -f 1; exec timeout 60 "$EX" --quiet --scan 'k=lin(0.2,0.3,300)' --transient 0 --recorded 2 -o "$T/big.csv") 2>"$T/err"
rc=$?
[ "$rc" = 1 ] && [ "$(cat "$T/err")" = "$E cannot write '$T/big.csv': File too large" ] && ok ||
    fail "file size limit: status $rc, $(cat "$T/err")"
ls -A "$T" | grep -q 'big\.csv' && fail "big.csv or its temporary file left behind: $(ls -A "$T")"

# ------------------------------------------------------------------ output
echo "== runner: output"
run --help
[ "$rc" = 0 ] && grep -q '^Usage: example \[OPTIONS\]' "$T/out" && grep -q 'parameters (default):   k=0.25 B=0.3' "$T/out" &&
    grep -q 'fields:                 y1 y2 ymax k B t t0 t1' "$T/out" && grep -q 'scan:                   k=lin(0.2,0.3,30720)' "$T/out" &&
    grep -q -- '--recorded M            integrations recorded (default 32)' "$T/out" && grep -q 'Exit status: 0 when' "$T/out" && ok ||
    fail "--help: status $rc"

# Cartesian product, last scan fastest; recorded field values; ordering by system then rep.
run --quiet --scan 'k=list(0.2,0.3)' --scan 'B=list(1,2,3)' --fields k,B,t0,t1 --transient 1 --recorded 2
same_text "$T/out" "system,rep,k,B,t0,t1,status
0,0,0.2,1,0,6.283185307179586,finished
0,1,0.2,1,0,6.283185307179586,finished
1,0,0.2,2,0,6.283185307179586,finished
1,1,0.2,2,0,6.283185307179586,finished
2,0,0.2,3,0,6.283185307179586,finished
2,1,0.2,3,0,6.283185307179586,finished
3,0,0.3,1,0,6.283185307179586,finished
3,1,0.3,1,0,6.283185307179586,finished
4,0,0.3,2,0,6.283185307179586,finished
4,1,0.3,2,0,6.283185307179586,finished
5,0,0.3,3,0,6.283185307179586,finished
5,1,0.3,3,0,6.283185307179586,finished" "product and order"
[ "$rc" = 0 ] && [ ! -s "$T/err" ] && ok || fail "--quiet run: status $rc, stderr $(cat "$T/err")"

# lin as numpy.linspace, log as numpy.geomspace; --set, and a scan of the same name winning over it.
run --quiet --scan 'k=lin(0.2,0.3,5)' --set k=7 --set B=0.5 --fields k,B --transient 0 --recorded 1
same_text "$T/out" "system,rep,k,B,status
0,0,0.2,0.5,finished
1,0,0.225,0.5,finished
2,0,0.25,0.5,finished
3,0,0.275,0.5,finished
4,0,0.3,0.5,finished" "lin scan and --set"
run --quiet --scan 'B = log( 0.001 , 10 , 5 )' --fields B --transient 0 --recorded 1
same_text "$T/out" "system,rep,B,status
0,0,0.001,finished
1,0,0.01,finished
2,0,0.1,finished
3,0,1,finished
4,0,10,finished" "log scan"

# --set of an initial value: ymax starts at y1 (y1=3, y2=0 moves down at once).
run --quiet --scan 'k=list(0.25)' --set y1=3 --fields ymax,y1 --transient 0 --recorded 1
grep -q '^0,0,3,' "$T/out" && ok || fail "--set y1: $(cat "$T/out")"
# Default fields (all states here), default window, --recorded 0: header only.
run --quiet --scan 'k=list(0.25)' --transient 0 --recorded 0
same_text "$T/out" "system,rep,y1,y2,status" "--recorded 0"
# Statuses: a system that overflows ends in nan, stays there, and the run still succeeds (exit 0).
run --scan 'y1=list(0.5,1e200)' --fields y1 --transient 0 --recorded 2
same_text "$T/out" "system,rep,y1,status
0,0,$(grep '^0,0,' "$T/out" | cut -d, -f3),finished
0,1,$(grep '^0,1,' "$T/out" | cut -d, -f3),finished
1,0,1e+200,nan
1,1,1e+200,nan" "nan status"
[ "$rc" = 0 ] && grep -Eq "^example: 2 systems, [0-9]+ steps, $SECS s \(integration $SECS s, output $SECS s\), CPU, [0-9]+ threads?; finished 1, nan 1\$" "$T/err" &&
    [ "$(wc -l <"$T/err")" = 1 ] && ok || fail "summary: status $rc, $(cat "$T/err")"
# No progress line when standard error is not a terminal; with a terminal, one \r line.
grep -q $'\r' "$T/err" && fail "progress written to a non-terminal"
# (script(1) pads its capture with NUL bytes when it has no terminal of its
# own, e.g. under make in CI: they are not the runner's output.)
if command -v script >/dev/null 2>&1; then
    script -qec "timeout 60 $EX --scan 'k=lin(0.2,0.3,400)' --transient 20 --recorded 1 -o $T/tty.csv" /dev/null 2>&1 </dev/null | tr -d '\000' >"$T/tty"
    grep -q 'systems/s' "$T/tty" && grep -q $'\r' "$T/tty" && grep -q 'example: 400 systems' "$T/tty" && ok ||
        fail "progress on a terminal: $(cat -v "$T/tty")"
    script -qec "timeout 60 $EX --quiet --scan 'k=lin(0.2,0.3,400)' --transient 20 --recorded 1 -o $T/tty.csv" /dev/null 2>&1 </dev/null | tr -d '\000' >"$T/tty"
    [ ! -s "$T/tty" ] && ok || fail "--quiet on a terminal: $(cat -v "$T/tty")"
fi

# A pipe or a device is written in place (renaming onto it would replace it).
mkfifo "$T/fifo" && {
    cat "$T/fifo" >"$T/fifo.out" &
    timeout 60 "$EX" --quiet --scan 'k=list(0.25)' --transient 0 --recorded 1 -o "$T/fifo"
    rc=$?
    wait
    [ "$rc" = 0 ] && [ -p "$T/fifo" ] && [ "$(head -1 "$T/fifo.out")" = "system,rep,y1,y2,status" ] && ok ||
        fail "-o FIFO: status $rc, $(ls -l "$T/fifo")"
}

# Chunks do not change the output; -o writes the same as standard output.
args=(--quiet --scan 'k=lin(0.2,0.3,7)' --scan 'y1=list(0.1,-0.1)' --fields y1,ymax,t --transient 2 --recorded 3)
timeout 60 "$EX" "${args[@]}" >"$T/whole.csv" 2>/dev/null
for c in 1 4 13; do
    timeout 60 "$EX" "${args[@]}" --chunk $c -o "$T/chunk$c.csv" && cmp -s "$T/whole.csv" "$T/chunk$c.csv" && ok ||
        fail "--chunk $c changes the output"
done
[ "$(wc -l <"$T/whole.csv")" = 43 ] && ok || fail "rows: $(wc -l <"$T/whole.csv"), expected 1 + 14 * 3"
[ "$(stat -c %a "$T/chunk4.csv")" = 644 ] && ok || fail "output mode $(stat -c %a "$T/chunk4.csv"), expected 644 (umask 022)"
ls -A "$T" | grep -q '^\.chunk' && fail "temporary files left: $(ls -A "$T")"

# ------------------------------------------------------------------ temporary file, signals
echo "== runner: temporary file, signals"
set -m   # background jobs keep SIGINT (a shell without job control would ignore it for them)
# A SIGINT ignored when this script started (run in the background by a shell
# without job control) stays ignored for every child: the runner then rightly
# ignores it too, and the SIGINT cases are skipped.
SIGS="INT TERM"
if [ $(( $(sed -n 's/^SigIgn:\s*//p' /proc/$$/status 2>/dev/null | sed 's/^/0x/' || echo 0) & 2 )) != 0 ]; then
    SIGS=TERM
    echo "   (SIGINT is ignored by this shell, and so by the runner: the SIGINT cases are skipped)"
fi
long=(--quiet --scan 'k=lin(0.2,0.3,4000)' --transient 200 --recorded 2)
# While running, only the temporary file exists; at the end only the final one.
mkdir -p "$T/run"
timeout 120 "$EX" "${long[@]}" --transient 20 -o "$T/run/out.csv" 2>"$T/err" &
pid=$!
seen=
for _ in $(seq 200); do
    seen=$(ls -A "$T/run")
    case "$seen" in .out.csv.??????) break ;; esac
    sleep 0.02
done
wait $pid
rc=$?
case "$seen" in .out.csv.??????) ok ;; *) fail "while running, the directory held '$seen'" ;; esac
[ "$rc" = 0 ] && [ "$(ls -A "$T/run")" = out.csv ] && ok || fail "after the run: status $rc, files: $(ls -A "$T/run")"
for sig in $SIGS; do
    mkdir -p "$T/sig$sig"
    "$EX" "${long[@]}" -o "$T/sig$sig/out.csv" 2>"$T/err" &
    pid=$!
    for _ in $(seq 100); do ls -A "$T/sig$sig" | grep -q '^\.out\.csv\.' && break; sleep 0.05; done
    sleep 0.3
    kill -$sig $pid
    wait $pid
    rc=$?
    want=130
    [ $sig = TERM ] && want=143
    [ "$rc" = $want ] && [ -z "$(ls -A "$T/sig$sig")" ] && grep -q 'example: interrupted' "$T/err" && ok ||
        fail "SIG$sig: status $rc, files left: '$(ls -A "$T/sig$sig")', stderr: $(cat "$T/err")"
done
set +m

# ------------------------------------------------------------------ shortest round trip
echo "== the shortest round-trip formatter (runtime/shortest.c)"
if $CC -std=c11 -O1 -g $SAN $WARN $INC tests/runtime/test_shortest.c -lm -o "$B/test_shortest_asan" &&
    timeout 300 "$B/test_shortest_asan" 100000; then ok; else fail "test_shortest (ASan, UBSan)"; fi
if $CC -std=c11 -O1 -g -DODE_NO_INT128 $SAN $WARN $INC tests/runtime/test_shortest.c -lm -o "$B/test_shortest_64" &&
    timeout 300 "$B/test_shortest_64" 50000 >/dev/null; then ok; else fail "test_shortest without 128-bit integers"; fi
if $CC -std=c11 -O2 $WARN $INC tests/runtime/test_shortest.c -lm -o "$B/test_shortest" &&
    timeout 300 "$B/test_shortest" 300000; then ok; else fail "test_shortest"; fi
/usr/bin/python3 tools/shortest_tables.py | cmp -s - runtime/shortest_tables.h && ok ||
    fail "runtime/shortest_tables.h is not what tools/shortest_tables.py writes"

# ------------------------------------------------------------------ HDF5
echo "== runner: HDF5 output"
mkdir -p "$T/h5"
EX=$B/example_noh5
expect 1 "$E cannot write '$T/h5/x.h5': this runner was built without HDF5; install Debian's libhdf5-dev (sudo apt-get install libhdf5-dev) and rebuild it (make), or write CSV" \
    --quiet --scan 'k=list(0.25)' --recorded 1 -o "$T/h5/x.h5"
EX=$B/example
[ -z "$(ls -A "$T/h5")" ] && ok || fail "a refused .h5 left files: $(ls -A "$T/h5")"
if [ -n "$H5PKG" ]; then
    h5args=(--quiet --scan 'k=lin(0.2,0.3,7)' --scan 'y1=list(0.1,-0.1)' --fields y1,ymax,k,t --transient 2 --recorded 3)
    run "${h5args[@]}" -o "$T/h5/out.csv"
    run "${h5args[@]}" -o "$T/h5/out.h5"
    [ "$rc" = 0 ] && [ ! -s "$T/err" ] && ok || fail "HDF5 run: status $rc, $(cat "$T/err")"
    /usr/bin/python3 tests/runtime/check_h5.py "$T/h5/out.h5" "$T/h5/out.csv" model=example precision=double \
        device=~CPU 'command_line=~--fields y1,ymax,k,t' "source=~y2'=y1-y1^3" odegen_version=~. \
        'options=~meth=rk4' source_file=example.ode transient=2 record=3 systems=14 \
        'scan=k=lin(0.2, 0.3, 7); y1=list(0.1, -0.1)' && ok || fail "HDF5 file against the CSV"
    # Chunks write at their offsets: the same file whatever the chunk size.
    run "${h5args[@]}" --chunk 3 -o "$T/h5/chunks.h5"
    /usr/bin/python3 tests/runtime/check_h5.py "$T/h5/chunks.h5" "$T/h5/out.csv" >/dev/null && ok ||
        fail "HDF5 in chunks of 3: $(/usr/bin/python3 tests/runtime/check_h5.py "$T/h5/chunks.h5" "$T/h5/out.csv")"
    # No recorded integration: fields of shape (systems, 0).
    run --quiet --scan 'k=lin(0.2,0.3,4)' --transient 1 --recorded 0 -o "$T/h5/none.h5"
    [ "$rc" = 0 ] && /usr/bin/python3 -c "import h5py, sys; f = h5py.File(sys.argv[1]); sys.exit(f['y1'].shape != (4, 0) or f['status'].shape != (4, 0))" "$T/h5/none.h5" &&
        ok || fail "HDF5 with --recorded 0: status $rc, $(cat "$T/err")"
    # A pipe cannot hold an HDF5 file.
    mkfifo "$T/h5/pipe.h5"
    expect 1 "$E cannot write '$T/h5/pipe.h5': HDF5 output needs a regular file" --quiet --recorded 1 --scan 'k=list(1)' -o "$T/h5/pipe.h5"
    rm -f "$T/h5/pipe.h5"
    ls -A "$T/h5" | grep -q '^\.' && fail "temporary HDF5 files left: $(ls -A "$T/h5")"
else
    echo "   (HDF5 not installed here: only the refusal was tested; Debian: sudo apt-get install libhdf5-dev)"
fi

# ------------------------------------------------------------------ estimates
echo "== runner: estimates before the run"
run --estimate --scan 'k=lin(0.2,0.3,1000)' --transient 1 --recorded 2 -o "$T/est.csv"
[ "$rc" = 0 ] && [ ! -e "$T/est.csv" ] && [ ! -s "$T/err" ] && [ "$(wc -l <"$T/out")" = 1 ] &&
    grep -Eq "^example: estimate: 1000 systems, 2000 rows, about [0-9.]+ [KMGTP]iB of CSV \([0-9.]+ [KMGTP]iB free\), about .+ of integration \(from [0-9]+ systems\)$" "$T/out" &&
    ok || fail "--estimate: status $rc, $(cat "$T/out" "$T/err")"
# 10^12 systems: refused with the numbers, before anything runs or is written.
t0=$SECONDS
run --scan 'k=lin(0,1,1000000)' --scan 'B=lin(0,1,1000000)' -o "$T/huge.csv"
re="^$E the output would not fit: about [0-9.]+ [TP]iB of CSV \(3\.2e\+13 rows of about [0-9]+ bytes\) for [0-9.]+ [KMGTP]iB free where '$T/huge.csv' goes; record fewer integrations or fields, scan fewer systems, or write it elsewhere$"
[ "$rc" = 1 ] && grep -Eq "$re" "$T/err" && [ "$(wc -l <"$T/err")" = 1 ] && [ -z "$(ls -A "$T" | grep huge)" ] &&
    [ $((SECONDS - t0)) -lt 30 ] && ok || fail "10^12 systems: status $rc after $((SECONDS - t0)) s, $(cat "$T/err")"
if [ -n "$H5PKG" ]; then
    run --scan 'k=lin(0,1,1000000)' --scan 'B=lin(0,1,1000000)' -o "$T/huge.h5"
    grep -Eq "^$E the output would not fit: about [0-9.]+ [TP]iB of HDF5 \(3\.2e\+13 rows of about 17 bytes\)" "$T/err" &&
        [ "$rc" = 1 ] && ok || fail "10^12 systems in HDF5: status $rc, $(cat "$T/err")"
fi

# ------------------------------------------------------------------ a disk that fills up
# A 2 MiB tmpfs in a mount namespace of our own (where the system allows
# one): the run's output fits when it starts; another file then takes the
# space.  The run must stop at its next write — not at the end of the
# integration, seconds later — with the message, exit status 1 and no file.
echo "== runner: a disk that fills up during the run"
if unshare -m true 2>/dev/null; then
    mkdir -p "$T/mnt"
    cat >"$T/fill.sh" <<EOF
mount -t tmpfs -o size=2m tmpfs "$T/mnt" || exit 77
for out in out.csv $( [ -n "$H5PKG" ] && echo out.h5 ); do
    rm -f "$T/mnt"/*
    start=\$(date +%s.%N)
    "$EXP" --quiet --scan 'k=lin(0.2,0.3,4000)' --transient 150 --recorded 2 --chunk 100 -o "$T/mnt/\$out" 2>"$T/full.err" &
    pid=\$!
    for i in \$(seq 600); do
        [ "\$(du -sb "$T/mnt" | cut -f1)" -gt 10000 ] && break
        sleep 0.02
    done
    dd if=/dev/zero of="$T/mnt/filler" bs=64k 2>/dev/null
    full=\$(date +%s.%N)
    wait \$pid
    rc=\$?
    end=\$(date +%s.%N)
    echo "\$out \$rc \$(awk -v a=\$full -v b=\$start 'BEGIN { print a - b }') \$(awk -v a=\$end -v b=\$full 'BEGIN { print a - b }') \$(ls -A "$T/mnt" | tr '\n' ' ')|\$(cat "$T/full.err")"
done
EOF
    unshare -m bash "$T/fill.sh" >"$T/fill.out" 2>&1
    urc=$?
    if [ $urc = 77 ]; then
        echo "   (no tmpfs can be mounted here: skipped; /dev/full and a file size limit are tested above)"
    else
        while IFS='|' read -r line err; do
            read -r out rc before after left <<<"$line"
            if [ "$rc" = 1 ] && echo "$err" | grep -q "^$E cannot write '$T/mnt/$out': .*No space left on device" &&
                [ "$left" = filler ] && awk -v a="$after" 'BEGIN { exit !(a < 3) }'; then
                ok
                printf '   %s: the disk filled %.2f s into the run; the run stopped %.2f s later\n' "$out" "$before" "$after"
            else
                fail "full disk ($out): status $rc, stopped $after s after the disk filled, files left: '$left', stderr: $err"
            fi
        done <"$T/fill.out"
        [ -s "$T/fill.out" ] || fail "full disk: no result: $(cat "$T/fill.out")"
    fi
else
    echo "   (no mount namespace here: skipped; /dev/full and a file size limit are tested above)"
fi

# ------------------------------------------------------------------ interrupted while writing to a pipe
# Whatever the moment of SIGINT or SIGTERM, a reader of the pipe gets whole
# rows: the output ends with a newline and every row has all its fields.
echo "== runner: interrupted while writing to a pipe"
set -m
mkfifo "$T/pipe"
for how in -o stdout; do
    for sig in $SIGS; do
        for delay in 0.4 0.9; do
            cat "$T/pipe" >"$T/piped" &
            catpid=$!
            if [ $how = -o ]; then
                "$EXP" --quiet --scan 'k=lin(0.2,0.3,4000)' --transient 0 --recorded 60 --chunk 100 -o "$T/pipe" 2>"$T/err" &
            else
                "$EXP" --quiet --scan 'k=lin(0.2,0.3,4000)' --transient 0 --recorded 60 --chunk 100 >"$T/pipe" 2>"$T/err" &
            fi
            pid=$!
            sleep $delay
            kill -$sig $pid
            wait $pid
            rc=$?
            wait $catpid
            want=130
            [ $sig = TERM ] && want=143
            bad=$(awk -F, 'NF != 5 { print NR": "$0; exit }' "$T/piped")
            if [ "$rc" = $want ] && [ -s "$T/piped" ] && [ "$(tail -c 1 "$T/piped" | od -An -c | tr -d ' ')" = '\n' ] && [ -z "$bad" ]; then
                ok
            else
                fail "SIG$sig after $delay s, output $how a pipe: status $rc, $(wc -c <"$T/piped") bytes, last: $(tail -c 40 "$T/piped" | od -c | head -3), bad row: $bad"
            fi
        done
    done
done
set +m

# ------------------------------------------------------------------ nvcc
if [ -n "$NVCC" ]; then
    echo "== build with nvcc (CUDA C++, $ARCH)"
    nv_ok=1
    # -Xcompiler -Wall: the runtime's own host code is checked; warnings from
    # the templates' "#pragma unroll" in host code are filtered out.
    "$NVCC" -x cu -arch="$ARCH" -O2 -Xcompiler -fopenmp,-Wall,-Wextra $INC -c tests/runtime/assembled.c \
        -o "$B/lib_cuda.o" 2>"$T/nvcc.log" || nv_ok=0
    grep -v 'pragma unroll\|^ *[0-9]* |\|^ *|\s*$\|^ *\^' "$T/nvcc.log" | grep -E 'runtime/|error|warning' >"$T/nvcc.mine"
    if [ $nv_ok = 0 ] || [ -s "$T/nvcc.mine" ]; then
        cat "$T/nvcc.log" >&2
        fail "nvcc build of the assembled model"
    else
        ok
        $CC -std=c11 -O1 -g $WARN $INC -fopenmp -c tests/runtime/test_api.c -o "$B/test_api_c.o" &&
            $CC -std=c11 -O1 $WARN $INC -c tests/runtime/test_gpu.c -o "$B/test_gpu_c.o" &&
            $CC -std=c11 -O1 $WARN $INC -c tests/runtime/runner_main.c -o "$B/runner_main.o" &&
            "$NVCC" -arch="$ARCH" -Xcompiler -fopenmp "$B/test_api_c.o" "$B/lib_cuda.o" -o "$B/test_api_cuda" &&
            "$NVCC" -arch="$ARCH" -Xcompiler -fopenmp "$B/test_gpu_c.o" "$B/lib_cuda.o" -o "$B/test_gpu" &&
            "$NVCC" -arch="$ARCH" -Xcompiler -fopenmp "$B/runner_main.o" "$B/lib_cuda.o" -o "$B/example_cuda" && ok ||
            fail "linking C callers with the nvcc-built model"
        echo "== API tests, nvcc build"
        if timeout 300 "$B/test_api_cuda"; then ok; else fail "test_api (nvcc build)"; fi
        EX=$B/example_cuda
        run --quiet --backend cpu --scan 'k=list(0.2,0.3)' --scan 'B=list(1,2,3)' --fields k,B --transient 1 --recorded 1
        [ "$rc" = 0 ] && [ "$(sed -n 5p "$T/out")" = "3,0,0.3,1,finished" ] && ok ||
            fail "nvcc runner, CPU path: status $rc, $(cat "$T/err")"
        timeout 60 "$B/example" --quiet --scan 'k=lin(0.2,0.3,7)' --transient 2 --recorded 2 >"$T/gcc.csv"
        timeout 60 "$EX" --quiet --backend cpu --scan 'k=lin(0.2,0.3,7)' --transient 2 --recorded 2 >"$T/nvcc.csv"
        cmp -s "$T/gcc.csv" "$T/nvcc.csv" && ok || fail "gcc and nvcc builds differ on the CPU path"
        if "$B/test_gpu" --has-gpu; then
            echo "== GPU tests"
            if timeout 300 "$B/test_gpu"; then ok; else fail "test_gpu"; fi
        else
            run --backend gpu
            [ "$rc" = 1 ] && grep -Eq "^$E --backend gpu: no GPU \(.+\)$" "$T/err" && ok ||
                fail "nvcc runner without GPU: status $rc, $(cat "$T/err")"
            run --quiet --scan 'k=list(0.25)' --transient 0 --recorded 1   # auto: the CPU
            [ "$rc" = 0 ] && ok || fail "nvcc runner, auto backend without a GPU: status $rc, $(cat "$T/err")"
            echo "   (no GPU here: the GPU tests were skipped)"
        fi
    fi
else
    echo "== nvcc not found: the CUDA build was skipped"
fi

echo "== runtime tests: $passed passed, $failed failed"
[ "$failed" = 0 ]
