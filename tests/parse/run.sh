#!/bin/sh
# tests/parse/run.sh — regression tests for the .ode front end (lexer, parser,
# error messages).
#
#   tests/parse/run.sh            run every case with build/odegen and, when it
#                                 exists, build/asan/odegen
#   tests/parse/run.sh --update   rewrite the expected files from the output of
#                                 $ODEGEN (review the diff before committing)
#
# Each case is cases/NAME.ode, run as `odegen --dump-ast NAME.ode` from cases/:
#   NAME.ast  the expected standard output (the syntax tree), compared exactly;
#   NAME.err  the expected error messages; the case must then exit with status 1.
#             Parse errors come before anything the later passes print, so the
#             file must be a prefix of standard error (the checker may add its
#             own messages after it).  A case without NAME.err must print no
#             parse error: its .ast is the proof.
# A few pathological inputs (deep nesting, very long lines) are generated here.
# Any exit status other than 0 or 1 (a crash, a sanitizer report) fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ODEGEN=${ODEGEN:-$root/build/odegen}
ASAN_ODEGEN=${ASAN_ODEGEN:-$root/build/asan/odegen}
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=98:print_stacktrace=1}

update=0
[ "${1:-}" = "--update" ] && update=1

if [ ! -x "$ODEGEN" ]; then
    echo "run.sh: $ODEGEN not found (make build/odegen first)" >&2
    exit 2
fi
bins=$ODEGEN
[ $update -eq 0 ] && [ -x "$ASAN_ODEGEN" ] && bins="$bins $ASAN_ODEGEN"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
count=0

# is_prefix EXPECTED ACTUAL: the bytes of EXPECTED start ACTUAL
is_prefix() {
    n=$(wc -c < "$1")
    head -c "$n" "$2" | cmp -s - "$1"
}

cd "$here/cases" || exit 2
for ode in *.ode; do
    name=${ode%.ode}
    if [ $update -eq 1 ]; then
        "$ODEGEN" --dump-ast "$ode" > "$name.ast" 2> "$tmp/err"
        if [ -s "$tmp/err" ]; then cp "$tmp/err" "$name.err"; else rm -f "$name.err"; fi
        continue
    fi
    for bin in $bins; do
        count=$((count + 1))
        "$bin" --dump-ast "$ode" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        what="$name ($(basename "$(dirname "$bin")")/$(basename "$bin"))"
        if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
            echo "FAIL $what: exit status $rc"; sed 's/^/    /' "$tmp/err" | head -30
            fail=$((fail + 1)); continue
        fi
        if [ -f "$name.ast" ] && ! cmp -s "$tmp/out" "$name.ast"; then
            echo "FAIL $what: syntax tree differs"
            diff "$name.ast" "$tmp/out" | head -30 | sed 's/^/    /'
            fail=$((fail + 1)); continue
        fi
        if [ -f "$name.err" ]; then
            if [ $rc -ne 1 ]; then
                echo "FAIL $what: exit status $rc, expected 1"
                fail=$((fail + 1)); continue
            fi
            if ! is_prefix "$name.err" "$tmp/err"; then
                echo "FAIL $what: error messages differ"
                diff "$name.err" "$tmp/err" | head -30 | sed 's/^/    /'
                fail=$((fail + 1)); continue
            fi
        fi
    done
done

[ $update -eq 1 ] && { echo "updated the expected files in $here/cases"; exit 0; }

# ---- generated inputs: no crash, and the expected first message ----
gen() {     # gen NAME FIRST-LINE-OF-STDERR (may be empty: no error)
    for bin in $bins; do
        count=$((count + 1))
        "$bin" --dump-ast "$tmp/$1.ode" > /dev/null 2> "$tmp/err"
        rc=$?
        if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
            echo "FAIL generated $1 ($bin): exit status $rc"; head -c 2000 "$tmp/err"
            fail=$((fail + 1)); continue
        fi
        got=$(head -n 1 "$tmp/err" | sed "s|^$tmp/||")
        if [ -n "$2" ] && [ "$got" != "$2" ]; then
            echo "FAIL generated $1 ($bin): first message"
            echo "    expected: $2"; echo "    got:      $got"
            fail=$((fail + 1))
        fi
    done
}
repeat() { awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }

{ printf "x' = "; repeat '(' 20000; printf 'x'; repeat ')' 20000; echo; } > "$tmp/parens.ode"
gen parens "parens.ode:1:10000: error: expression or block nested too deeply"
{ printf "x' = a"; repeat '+a' 20000; echo; } > "$tmp/chain.ode"
gen chain "chain.ode:1:1: error: statement too complex: nested more than 5000 levels deep"
{ printf "x' = "; repeat '-' 30000; echo x; } > "$tmp/minus.ode"
gen minus "minus.ode:1:10000: error: expression or block nested too deeply"
{ printf 'on start {'; repeat 'if (x) {' 5000; printf 'y=1'; repeat '}' 5001; echo; } > "$tmp/ifs.ode"
gen ifs "ifs.ode:1:13336: error: expression or block nested too deeply"
{ printf "x' = "; repeat 'f(' 1000; printf x; repeat ')' 1000; echo; } > "$tmp/calls.ode"
gen calls ""
{ printf "x' = "; repeat '(' 3000; echo; } > "$tmp/unclosed.ode"
gen unclosed "unclosed.ode:1:3006: error: unexpected end of line; expected expression"
{ printf 'par'; awk 'BEGIN { for (i = 0; i < 20000; i++) printf " a%d=1", i }'; echo; } > "$tmp/long.ode"
gen long ""
repeat 'on start {\n' 3000 > "$tmp/opens.ode"
gen opens "opens.ode:2:1: error: '}' expected (to close '{' at line 1)"
head -c 4096 /dev/zero > "$tmp/zeros.ode"
gen zeros "zeros.ode:1:1: error: unexpected characters '\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00...'"

if [ $fail -ne 0 ]; then
    echo "tests/parse: $fail of $count runs FAILED"
    exit 1
fi
echo "tests/parse: all $count runs passed"
