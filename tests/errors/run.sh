#!/usr/bin/env bash
# tests/errors/run.sh — odegen's messages for bad .ode files (SPEC §6).
#
#   tests/errors/run.sh            run every case (build/asan/odegen)
#   tests/errors/run.sh --update   rewrite NAME.err from odegen's output
#                                  (review the diff before committing)
#
# Each NAME.ode is a bad model and NAME.err the exact standard error that
# `odegen NAME.ode` must print when run from the file's directory: every
# error of the file, each with file:line:col, the source line and the caret
# line, then the count.  Each case is run four ways, in a scratch directory
# that holds only NAME.ode:
#   odegen --check NAME.ode           the checks alone
#   odegen NAME.ode                   the default output directory ./NAME
#   odegen NAME.ode -o new            a directory that does not exist yet
#   odegen NAME.ode -o empty          a directory that exists, empty
# and each must exit with status 1, print exactly NAME.err and leave the
# scratch directory as it was (no ./NAME, no new/, empty/ still empty).
# A sanitizer report (ASan, UBSan, leaks) or a crash changes the status: a
# failure.  The command line's own errors are checked at the end, and
# typos.py makes a typo at every place of a model (typos/kitchen_sink.ode).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ODEGEN=${ODEGEN:-$root/build/asan/odegen}
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=98:print_stacktrace=1}
[ -x "$ODEGEN" ] || { echo "run.sh: $ODEGEN not found (make build/asan/odegen)" >&2; exit 2; }

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM
fail=0
cases=0
failed() { echo "FAIL $*"; fail=$((fail + 1)); }

cd "$here" || exit 2
if [ "${1:-}" = --update ]; then
    for ode in *.ode; do
        (cd "$here" && "$ODEGEN" --check "$ode" 2>"${ode%.ode}.err" >/dev/null)
    done
    echo "rewrote the .err files in $here"
    exit 0
fi

for ode in *.ode; do
    name=${ode%.ode}
    cases=$((cases + 1))
    if [ ! -f "$name.err" ]; then
        failed "$name: no $name.err"
        continue
    fi
    for way in check default new empty; do
        w=$T/$name.$way
        mkdir -p "$w" && cp "$ode" "$w/"
        case $way in
            check)   args=(--check "$ode") ;;
            default) args=("$ode") ;;
            new)     args=("$ode" -o new) ;;
            empty)   mkdir "$w/empty"; args=("$ode" -o empty) ;;
        esac
        (cd "$w" && exec "$ODEGEN" "${args[@]}") >"$T/out" 2>"$T/err"
        rc=$?
        if [ $rc -ne 1 ]; then
            failed "$name (${args[*]}): exit status $rc, expected 1"
            head -30 "$T/err" | sed 's/^/    /'
            continue
        fi
        if ! cmp -s "$T/err" "$name.err"; then
            failed "$name (${args[*]}): the messages differ from $name.err"
            diff "$name.err" "$T/err" | head -30 | sed 's/^/    /'
            continue
        fi
        [ -s "$T/out" ] && failed "$name (${args[*]}): wrote to standard output: $(head -c 200 "$T/out")"
        left=$(cd "$w" && find . -mindepth 1 ! -path "./$ode" ! -path ./empty | sort | tr '\n' ' ')
        [ -n "$left" ] && failed "$name (${args[*]}): wrote $left"
    done
done
[ "$cases" -ge 40 ] || failed "only $cases cases (at least 40 expected)"

# ---- the command line
run_odegen() { exec "$ODEGEN" "$@"; }
cli() {     # cli STATUS 'expected first line of stderr' ARGS…
    local want_rc=$1 want=$2
    shift 2
    (cd "$T" && run_odegen "$@") >/dev/null 2>"$T/err"
    local rc=$?
    local got
    got=$(head -n 1 "$T/err")
    if [ $rc -ne "$want_rc" ] || [ "$got" != "$want" ]; then
        failed "odegen $*: status $rc, '$got' (expected $want_rc, '$want')"
    fi
}
printf "x' = -x\n" >"$T/ok.ode"
mkdir -p "$T/dir.ode"
cli 1 "odegen: error: cannot read 'missing.ode': No such file or directory" missing.ode
cli 1 "odegen: error: cannot read 'dir.ode': Is a directory" dir.ode
cli 2 "odegen: error: unknown option '--chek'" --chek ok.ode
cli 2 "odegen: error: --precision must be double or float, not 'half'" ok.ode --precision half
cli 2 "odegen: error: -o needs a value" ok.ode -o
cli 2 "odegen: error: one .ode file at a time ('ok.ode' and 'other.ode')" ok.ode other.ode
cli 2 "usage: odegen FILE.ode [-o DIR] [--precision double|float] [--option NAME=VALUE]... [--check] [-q]"
cli 2 "odegen: error: --print takes 'jacobian', not 'hessian'" ok.ode --print hessian
cli 2 "odegen: error: --print takes 'jacobian'" ok.ode --print
# --option is not XPPAUT text: no first-letter reading of a method, no silently ignored name
cli 1 "ok.ode: error: unknown method 'bogus': the methods are euler, modeuler, rk4, rkck45, dopri5, tsit5, dop853, vern7, rodas5p, ros3p, discrete, milstein, weak2, ymp (or XPPAUT's names: rungekutta, qualrk, 5dp, 83dp, stiff, gear, cvode, …)" ok.ode --check --option meth=bogus
cli 1 "ok.ode: error: unknown option 'zz'; odegen's options are meth, dt, t0, total, toler, atoler, dtmin, dtmax, bound, hgrow, hshrink, evsteps, evtol, evpoints, maxsteps, prec, delay, seed, noisesub, poimap, poivar, poipln, poisgn, poistop, newt_tol, newt_iter" ok.ode --check --option zz=1
cli 1 "ok.ode: error: unknown option 'dtm'; odegen's options are meth, dt, t0, total, toler, atoler, dtmin, dtmax, bound, hgrow, hshrink, evsteps, evtol, evpoints, maxsteps, prec, delay, seed, noisesub, poimap, poivar, poipln, poisgn, poistop, newt_tol, newt_iter; did you mean 'dt'?" ok.ode --check --option dtm=0.1
cli 0 "ok.ode: note: XPPAUT option 'xp' is ignored (it concerns XPPAUT's display or tools)" ok.ode --check --option xp=x
printf "x' = -x\n@ meth=bogus, zz=1\n" >"$T/lenient.ode"   # in a file, XPPAUT's readings (notes)
cli 0 "lenient.ode:2:8: note: XPPAUT reads a method by its first letter: 'bogus' is its backeul; XPPAUT's backeul (backward Euler with the fixed step dt, first order) runs as rodas5p, odegen's stiff Rosenbrock 5(4), adaptive with toler and atoler (dt is its first step): results agree within backward Euler's own error, of order dt" lenient.ode --check
: >"$T/plain"
cli 1 "odegen: error: cannot create directory 'plain/sub': Not a directory" ok.ode -o plain/sub
# -o a file or a device: not a directory (issue 19, D17); an unrelated file in DIR is never replaced
cli 1 "odegen: error: cannot write into 'plain': not a directory" ok.ode -o plain
cli 1 "odegen: error: cannot write into '/dev/full': not a directory" ok.ode -o /dev/full
mkdir -p "$T/taken/ok.cu" "$T/other" && printf 'mine\n' >"$T/other/ok.h"
cli 1 "odegen: error: refusing to overwrite 'taken/ok.cu': it is not a regular file" ok.ode -o taken
cli 1 "odegen: error: refusing to overwrite 'other/ok.h': it was not written by odegen" ok.ode -o other
[ "$(ls "$T/other")" = ok.h ] && [ "$(cat "$T/other/ok.h")" = mine ] || failed "-o other: $(ls "$T/other")"
# what is read is bounded (issue 19, D8): a device that never ends, a file or a pipe beyond 16 MiB.
# These run the translator without sanitizers (which need the address space) in 2 GB of it and
# 60 s: unbounded, it read /dev/zero until memory ran out.
run_odegen() { ulimit -v 2000000; exec timeout 60 "$root/build/odegen" "$@"; }
cli 1 "odegen: error: cannot read '/dev/zero': not a file or a pipe (odegen reads those to their end; a device such as /dev/zero has none)" /dev/zero
truncate -s 17M "$T/big.ode"
cli 1 "odegen: error: cannot read 'big.ode': larger than 16 MiB, the largest model odegen reads" big.ode
mkfifo "$T/big.fifo" && { head -c 20000000 /dev/zero >"$T/big.fifo" 2>/dev/null & }
cli 1 "odegen: error: cannot read 'big.fifo': larger than 16 MiB, the largest model odegen reads" big.fifo
wait
run_odegen() { exec "$ODEGEN" "$@"; }
# a pipe that ends is a model; a file whose name starts with '-' comes after --
mkfifo "$T/pipe.ode" && { printf "x' = -x\n" >"$T/pipe.ode" & }
(cd "$T" && "$ODEGEN" -q pipe.ode -o piped) || failed "a model from a pipe"
wait
[ -f "$T/piped/pipe.cu" ] || failed "a model from a pipe: nothing written"
cp "$T/ok.ode" "$T/-x.ode"
(cd "$T" && "$ODEGEN" -q -o dashed -- -x.ode) && [ -f "$T/dashed/m__x.cu" ] ||
    failed "odegen -- -x.ode: $(ls "$T/dashed" 2>&1)"

# ---- a typo anywhere in a model gets a message that points at it
/usr/bin/python3 "$here/typos.py" || failed "typos.py"

if [ $fail -ne 0 ]; then
    echo "tests/errors: $fail FAILED ($cases cases)"
    exit 1
fi
echo "tests/errors: all $cases cases passed (each by --check, ./NAME, -o new, -o empty), and the command line"
