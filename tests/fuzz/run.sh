#!/usr/bin/env bash
# tests/fuzz/run.sh — the fuzzing part of `make test` (see README.md here).
#
#   1. every input of tests/fuzz/regressions/ (each one crashed, hung or
#      tripped a sanitizer once) goes through the harness built with gcc and
#      ASan/UBSan (build/asan/fuzz_replay): it must pass cleanly; two inputs
#      too large to keep as files are generated and run through
#      build/asan/odegen;
#   2. with clang and libFuzzer available, the same inputs through the
#      libFuzzer build, then a short fuzzing run (FUZZ_SECONDS, default 20)
#      from the seeds (every .ode file of the repository).  Without clang the
#      second part is skipped with a note (CI installs clang).
#
# `make fuzz` runs the long version (FUZZ_SECONDS=300 by default).
set -u
cd "$(dirname "$0")/../.." || exit 2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
regs=(tests/fuzz/regressions/*)

echo "== replay ${#regs[@]} regression inputs (gcc, ASan/UBSan)"
make -s build/asan/fuzz_replay || exit 1
if ! timeout 120 build/asan/fuzz_replay "${regs[@]}"; then
    echo "tests/fuzz: a regression input fails again (build/asan/fuzz_replay FILE to see which)"
    exit 1
fi

# Inputs too large to keep as files: the whole translator (build/asan/odegen,
# writing files) on a block of 200000 statements and on a chain of 20000
# temporaries, each of which once overflowed the stack (the chain, read
# backwards, is now refused at its line with the notes about file order capped).
echo "== generated regressions (build/asan/odegen)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ODEGEN=$PWD/build/asan/odegen
awk 'BEGIN { print "x'"'"' = -x"; printf "on start {"; for (i = 0; i < 200000; i++) printf " x = 1;"; print " }" }' >"$T/block.ode"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "a%d = a%d + 1\n", i, i + 1; print "a20000 = x"; print "x'"'"' = a0" }' >"$T/chain.ode"
# The same chain ending in a constant is 20000 derived parameters (temporaries
# of parameters only), computed one after the other: no deep walk at all.
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "a%d = a%d + 1\n", i, i + 1; print "a20000 = 1"; print "x'"'"' = a0" }' >"$T/constant_chain.ode"
(cd "$T" && timeout 120 "$ODEGEN" constant_chain.ode -o constant_chain 2>"$T/err") ||
    { echo "tests/fuzz: a chain of 20000 temporaries of constants: status $?"; head -20 "$T/err"; exit 1; }
(cd "$T" && timeout 120 "$ODEGEN" block.ode -o block 2>"$T/err") ||
    { echo "tests/fuzz: a block of 200000 statements: status $?"; head -20 "$T/err"; exit 1; }
(cd "$T" && timeout 120 "$ODEGEN" chain.ode -o chain 2>"$T/err")
rc=$?
want="chain.ode:17501:1: error: 'a17500' is defined through temporaries nested more than 5000 levels deep"
if [ $rc -ne 1 ] || ! grep -qxF "$want" "$T/err" || [ "$(wc -l <"$T/err")" -gt 20 ]; then
    echo "tests/fuzz: a chain of 20000 temporaries: status $rc"; head -20 "$T/err"; exit 1
fi

FUZZ_CC=${FUZZ_CC:-clang}
if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
    echo "== $FUZZ_CC not found: the libFuzzer run is skipped (apt-get install clang libclang-rt-14-dev)"
    exit 0
fi
echo "== build the libFuzzer harness ($FUZZ_CC)"
make -s FUZZ_CC="$FUZZ_CC" build/fuzz/fuzz_translator || exit 1
echo "== replay the regression inputs (libFuzzer build)"
build/fuzz/fuzz_translator -timeout=10 "${regs[@]}" 2>build/fuzz/replay.log ||
    { tail -40 build/fuzz/replay.log; exit 1; }
echo "== fuzz for ${FUZZ_SECONDS:-20} s"
FUZZ_SECONDS=${FUZZ_SECONDS:-20} bash tests/fuzz/fuzz.sh >build/fuzz/short.log 2>&1
rc=$?
grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|#[0-9]+ +DONE)' build/fuzz/short.log
if [ $rc -ne 0 ]; then
    grep -A30 -E '^==[0-9]+==|runtime error|ERROR: libFuzzer' build/fuzz/short.log | head -60
    echo "tests/fuzz: the fuzzer found a problem; the input is in build/fuzz/artifacts/"
    exit 1
fi
echo "tests/fuzz: passed"
