#!/usr/bin/env python3
"""tests/parse/fuzz.py — throws random and mutated .ode files at odegen.

    tests/parse/fuzz.py [N [SEED]]        (default: 500 inputs, seed 1)

Inputs are random bytes, or the cases of tests/parse/cases/ with tokens
inserted, bytes changed, parts cut or repeated.  Each is run through
`odegen --dump-ast` (by default the sanitizer build, build/asan/odegen; set
ODEGEN to change it).  Any exit status other than 0 or 1 (a crash, a sanitizer
report), or a run over 10 s, is a failure: the input is kept as
fuzz-fail-N.ode in the current directory.  Not part of run.sh (it is slower).
"""
import glob
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ODEGEN = os.environ.get('ODEGEN', os.path.join(ROOT, 'build', 'asan', 'odegen'))
TOKENS = [b"par ", b"x'", b"=", b"{", b"}", b"(", b")", b"\n", b"\\\n", b"#", b'"',
          b"if", b"else", b"@ ", b"[", b"int{", b"event e:", b"on start", b"global 1",
          b"done", b"\r\n", b"\x00", b"\xff", b";", b",", b"dx/dt", b"0=", b"^-",
          b"markov m 2\n{", b"table t\n", b"\xc3\xa9",
          # XPPAUT's forgiving syntax: prefixes, arrays, sums, tables, sets
          b"p ", b"n ", b"i ", b"g ", b"a ", b"d\n", b"%[1..3]\n", b"\n%\n", b"% ", b"x[1..3]'=", b"[j]",
          b"[j+1]", b"x[j-1]", b"sum(1,3)of(", b"i'", b"shift(x,", b"table f % 3 0 1 t\n", b"table f @",
          b"set s {a=1,", b"inf", b"P.E.", b"@ done", b"global 1 x-1 {"]


def mutate(rng, seeds):
    if rng.random() < 0.2:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
    data = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(1, 8)):
        op, p = rng.random(), rng.randint(0, len(data))
        if op < 0.3:
            data[p:p] = rng.choice(TOKENS)
        elif op < 0.5:
            del data[p:p + rng.randint(1, 10)]
        elif op < 0.7 and data:
            data[min(p, len(data) - 1)] = rng.randrange(256)
        elif op < 0.85:
            del data[p:]
        else:
            q = rng.randint(0, len(data))
            data[p:p] = data[q:q + rng.randint(0, 40)]
    return bytes(data)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    seeds = [open(f, 'rb').read() for f in sorted(glob.glob(os.path.join(HERE, 'cases', '*.ode')))]
    env = dict(os.environ, ASAN_OPTIONS='exitcode=99', UBSAN_OPTIONS='halt_on_error=1:exitcode=98')
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'case.ode')
        for i in range(n):
            data = mutate(rng, seeds)
            with open(path, 'wb') as f:
                f.write(data)
            try:
                res = subprocess.run([ODEGEN, '--dump-ast', path], capture_output=True,
                                     timeout=10, env=env)
                status = res.returncode
            except subprocess.TimeoutExpired:
                status, res = 'timeout', None
            if status not in (0, 1):
                failures += 1
                with open('fuzz-fail-%d.ode' % i, 'wb') as f:
                    f.write(data)
                print('FAIL input %d: exit status %s' % (i, status))
                if res:
                    print(res.stderr[-2000:].decode('utf-8', 'replace'))
    print('fuzz: %d inputs, %d failures' % (n, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
