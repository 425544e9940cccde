#!/usr/bin/env bash
# The generator's golden files: for each tests/golden/*.ode, the model-specific
# parts of what odegen writes (the model sections of NAME.cu, NAME.h up to the
# API, NAME_main.c, the Makefile; ODE_GENERATED_HASH's digits, which change
# with any change to the runtime, left out) must equal NAME.golden (and NAME.float.golden
# with --precision float).  Also: output is byte-identical from run to run,
# odegen never overwrites a file it did not write, and a float model has no
# implicit float-to-double promotion (gcc -Wdouble-promotion).
#   tests/golden/run.sh --update    rewrites the golden files (review the diff)
set -u
cd "$(dirname "$0")/../.."
ODEGEN=${ODEGEN:-build/asan/odegen}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The model-specific parts of a generated directory, in one text.
extract() {
    local d=$1 name=$2
    echo "==== $name.cu (model sections; #line numbers into the .cu checked separately)"
    awk '/^\/\* =+ model (constants|functions)/ {on=1} /^\/\* =+ (templates|runtime)\// {on=0} on' "$d/$name.cu" |
        sed -E -e 's/^#line [0-9]+ "'"$name"'\.cu"$/#line N "'"$name"'.cu"/' \
            -e 's/^(#define ODE_GENERATED_HASH )"[0-9a-f]{16}"$/\1"(a hash of the code: it changes with the runtime)"/'
    echo "==== $name.h (model part)"
    awk '/^\/\* =+ runtime\/api.h/ {exit} {print}' "$d/$name.h"
    echo "==== ${name}_main.c (up to the runtime it embeds)"
    awk '/^\/\* =+ runtime\// {exit} {print}' "$d/${name}_main.c"
    echo "==== Makefile"
    cat "$d/Makefile"
}

for ode in tests/golden/*.ode; do
    name=$(basename "$ode" .ode)
    for prec in double float; do
        golden=tests/golden/$name.golden
        [ $prec = float ] && golden=tests/golden/$name.float.golden
        out=$T/$name.$prec
        if ! (cd tests/golden && "../../$ODEGEN" "$name.ode" -o "$out" --precision $prec 2>"$T/err"); then
            fail "$ode ($prec): odegen failed: $(cat "$T/err")"
            continue
        fi
        extract "$out" "$name" >"$T/got"
        if [ "${1:-}" = --update ]; then
            cp "$T/got" "$golden"
        elif ! diff -u "$golden" "$T/got" >"$T/diff"; then
            fail "$ode ($prec) differs from $golden:"; head -40 "$T/diff"
        fi
        # Every #line back into the generated file names the line after it.
        bad=$(awk -v f="\"$name.cu\"" '$1 == "#line" && $3 == f && $2 != NR + 1 {print NR": "$0}' "$out/$name.cu" | head -3)
        [ -z "$bad" ] || fail "$ode ($prec): wrong #line into $name.cu: $bad"
        # Deterministic: a second run writes the same bytes.
        (cd tests/golden && "../../$ODEGEN" "$name.ode" -o "$out.again" --precision $prec 2>/dev/null)
        for f in "$out"/*; do
            cmp -s "$f" "$out.again/$(basename "$f")" || fail "$ode ($prec): $(basename "$f") differs between runs"
        done
        # It compiles as C11 without warnings, and in float without promotion to double.
        # (-O2: gcc finds reads of uninitialized values only when it optimises)
        if ! gcc -std=c11 -O2 -fopenmp -x c -c -Wall -Wextra -Werror -Wdouble-promotion "$out/$name.cu" \
                -o "$T/$name.o" 2>"$T/cc"; then
            fail "$ode ($prec): the generated source does not compile cleanly:"; head -20 "$T/cc"
        fi
    done
done

# Events with each method's continuous extension (the event bound reads its rows, events.h):
# compiled at -O2, where gcc finds values read before they are written.
printf '%s\n' "par k=0.1" "x'=v" "v'=-x-k*v+cos(t)" "init x=1" "event up: x-0.5, dir=1" "done" >"$T/ev.ode"
for meth in rk4 rkck45 dopri5 tsit5 dop853 vern7 rodas5p; do
    (cd "$T" && "$OLDPWD/$ODEGEN" ev.ode -q -o "ev_$meth" --option meth=$meth 2>/dev/null) ||
        { fail "events with $meth: odegen failed"; continue; }
    gcc -std=c11 -O2 -fopenmp -x c -c -Wall -Wextra -Werror "$T/ev_$meth/ev.cu" -o "$T/ev.o" 2>"$T/cc" ||
        { fail "events with $meth: the generated source does not compile cleanly at -O2:"; head -20 "$T/cc"; }
done

# Never over a file odegen did not write; a file it wrote is replaced.
mkdir -p "$T/own"
echo "int precious;" >"$T/own/duffing.cu"
if (cd tests/golden && "../../$ODEGEN" duffing.ode -o "$T/own" 2>"$T/err"); then
    fail "odegen overwrote a foreign file"
fi
grep -q "refusing to overwrite '$T/own/duffing.cu': it was not written by odegen" "$T/err" ||
    fail "refusal message: $(cat "$T/err")"
[ "$(cat "$T/own/duffing.cu")" = "int precious;" ] || fail "the foreign file was changed"
[ ! -e "$T/own/duffing.h" ] || fail "odegen wrote other files although it refused one"
(cd tests/golden && "../../$ODEGEN" duffing.ode -q -o "$T/mine" && "../../$ODEGEN" duffing.ode -q -o "$T/mine") ||
    fail "odegen did not replace its own files"

# --check writes nothing.
(cd tests/golden && "../../$ODEGEN" duffing.ode --check -o "$T/checked") || fail "--check failed"
[ ! -e "$T/checked" ] || fail "--check wrote files"

[ $fails = 0 ] && echo "golden: all passed" || echo "golden: $fails failed"
[ $fails = 0 ]
