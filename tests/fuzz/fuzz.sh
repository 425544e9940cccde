#!/usr/bin/env bash
# tests/fuzz/fuzz.sh — runs the libFuzzer harness (make fuzz).
#
#   FUZZ_SECONDS=300 FUZZ_JOBS=1 tests/fuzz/fuzz.sh [extra libFuzzer flags]
#
# Seeds: every .ode file of the repository (models/, examples/, tests/) and the
# regression inputs; new inputs collect in build/fuzz/corpus (not committed).
# A crash, sanitizer report, leak, or an input taking more than 10 s leaves
# build/fuzz/artifacts/{crash,leak,timeout,oom}-HASH and fails the run: fix
# it, then add the input to tests/fuzz/regressions/ under a telling name.
set -u
cd "$(dirname "$0")/../.." || exit 2
FUZZER=${FUZZER:-build/fuzz/fuzz_translator}
SECONDS_LIMIT=${FUZZ_SECONDS:-300}
JOBS=${FUZZ_JOBS:-1}
[ -x "$FUZZER" ] || { echo "fuzz.sh: $FUZZER not built (make build/fuzz/fuzz_translator)" >&2; exit 2; }

seeds=build/fuzz/seeds
rm -rf "$seeds"
mkdir -p "$seeds" build/fuzz/corpus build/fuzz/artifacts
i=0
while IFS= read -r f; do
    i=$((i + 1))
    cp "$f" "$seeds/$i-$(basename "$f")"
done < <(find models examples tests -name '*.ode' -type f -size -64k 2>/dev/null | sort)
cp tests/fuzz/regressions/* "$seeds/" 2>/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
flags=(-max_total_time="$SECONDS_LIMIT" -timeout=10 -rss_limit_mb=2048 -max_len=4096
       -dict=tests/fuzz/ode.dict -artifact_prefix=build/fuzz/artifacts/ -print_final_stats=1)
if [ "$JOBS" -gt 1 ]; then
    flags+=(-fork="$JOBS" -ignore_crashes=0)
fi
"$FUZZER" "${flags[@]}" "$@" build/fuzz/corpus "$seeds"
