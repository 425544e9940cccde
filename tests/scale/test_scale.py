#!/usr/bin/python3
"""The translator's work against the model's size (issue 19, D6 and D7).

Translation must be close to linear in the size of the model: names looked up in hash tables,
derivatives taken only where an equation depends on the variable (D6: 4000 states took 192 s,
n^3).  Nested user functions are inlined into the derivatives' graph with every call shared,
and the graph stops at its budget (10^6 nodes): f_i(u)=f_{i-1}(f_{i-1}(u)) doubles the graph at
each line, and 32 lines never finished (D7).

The assertions are on ratios of the CPU time of two translations measured here, one after the
other (odegen, not the sanitizer build: build/odegen), never on seconds:
  - models of n and 5n states (a chain x_i' = -x_i + k x_{i-1}, and a model with parameters,
    derived parameters, temporaries, aux, a function and an event for each state): the time
    of 5n at most 12 times that of n (linear is 5, n^2 would be 25, n^3 125);
  - 32 nested functions translate in at most 10 times the time of a chain of 20000 states,
    and write no more C than 8 nested functions do (the derivatives, beyond the budget, are
    left out: a stiff method on it is an error that says why);
  - 22 temporaries each reading the one before twice, read by an aux and in hooks: each is
    computed once where it is read, so the C grows by lines, not by 2^22 copies (it did: the
    aux's field and the hooks wrote temporaries out at each use).
Each translation also runs under a timeout (wall clock: 2 minutes for the smaller model, 30
times the CPU bound and a minute, at most 5 minutes, for the larger), so that a translator that
has become quadratic again fails in minutes instead of running for hours.

Run: /usr/bin/python3 tests/scale/test_scale.py
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import ROOT, check, main  # noqa: E402

ODEGEN = os.path.join(ROOT, "build", "odegen")
LINEAR_BOUND = 12       # time(5n) / time(n): linear is 5
NESTED_BOUND = 10       # time(32 nested functions) / time(chain of 20000 states)


def chain(n):
    lines = ["par k=0.1"] + ["x%d'=-x%d+k*x%d" % (i, i, (i - 1) % n) for i in range(n)]
    return "\n".join(lines + ["done", ""])


def rich(n):
    lines = ["f(u,v)=u*v/(1+u*u)"]
    for i in range(n):
        lines += ["par k%d=0.%d" % (i, i % 9 + 1), "!d%d=2*k%d" % (i, i), "w%d=x%d-x%d" % (i, (i - 1) % n, i),
                  "x%d'=-x%d+d%d*w%d+f(x%d,k%d)" % (i, i, i, i, (i + 1) % n, i), "aux a%d=w%d*w%d" % (i, i, i),
                  "init x%d=0.%d" % (i, i % 7 + 1)]
    lines += ["event e1: x0-0.5, dir=1", "on e1 { x0 = x0 + 0.1 }", "@ total=1", "done", ""]
    return "\n".join(lines)


def nested(depth, method=None):
    lines = ["f0(u)=sin(u)"] + ["f%d(u)=f%d(f%d(u))" % (i, i - 1, i - 1) for i in range(1, depth + 1)]
    lines += ["x'=-x+f%d(x)" % depth] + (["@ meth=%s" % method] if method else []) + ["done", ""]
    return "\n".join(lines)


def nested_temporaries(depth):
    """Temporaries each of which reads the one before twice, read by an aux and in hooks."""
    lines = ["x'=-x", "y'=0", "init x=0.5", "a0=x"] + ["a%d=a%d*a%d/(1+a%d*a%d)" % (i, i - 1, i - 1, i - 1, i - 1)
                                                        for i in range(1, depth + 1)]
    lines += ["aux z=a%d" % depth, "on start { y = a%d; x = x + a%d }" % (depth, depth),
              "event e: x-0.1, dir=-1", "on e { y = y + a%d; if (a%d > 0) { x = a%d } }" % (depth, depth, depth),
              "done", ""]
    return "\n".join(lines)


def translate(text, name, timeout):
    """CPU seconds of odegen on the model (its output kept in a fresh folder); the folder, the result."""
    tmp = tempfile.mkdtemp(prefix="scale-")
    with open(os.path.join(tmp, name + ".ode"), "w") as f:
        f.write(text)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run([ODEGEN, "-q", name + ".ode", "-o", "gen"], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        shutil.rmtree(tmp, ignore_errors=True)
        return None, None, None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return max(cpu, 1e-3), tmp, p


def backstop(cpu_limit):
    """The wall-clock timeout for a translation whose CPU time is bounded by cpu_limit."""
    return min(30 * cpu_limit + 60, 300)


def timed(text, name, timeout):
    cpu, tmp, p = translate(text, name, timeout)
    check(cpu is not None, "%s: not translated within %.0f s (wall clock)" % (name, timeout))
    shutil.rmtree(tmp, ignore_errors=True)
    check(p.returncode == 0, "%s: odegen failed:\n%s" % (name, p.stderr[-2000:]))
    return cpu


def ratio_test(make, n, label):
    def test():
        small = min(timed(make(n), "%s%d" % (label, n), 120) for _ in range(2))
        limit = LINEAR_BOUND * small + 5
        large = timed(make(5 * n), "%s%d" % (label, 5 * n), backstop(limit))
        print("    %s: %d states %.2f s, %d states %.2f s (CPU): ratio %.1f (linear 5, bound %d)" % (
            label, n, small, 5 * n, large, large / small, LINEAR_BOUND))
        check(large <= limit, "%d states took %.2f s, %d states %.2f s: more than %d times" % (
            5 * n, large, n, small, LINEAR_BOUND))
    test.__doc__ = "%s models: 5 times the states, at most %d times the time" % (label, LINEAR_BOUND)
    return test


def test_nested_functions():
    """32 nested functions (2^32 calls written out): translated within a bound, no more C than 8"""
    reference = min(timed(chain(20000), "chain20000", 120) for _ in range(2))
    limit = NESTED_BOUND * reference + 5
    cpu, tmp, p = translate(nested(32), "nested32", backstop(limit))
    check(cpu is not None, "32 nested functions: not translated within %.0f s (wall clock; the bound: 10 times a "
                           "chain of 20000 states, %.2f s)" % (backstop(limit), reference))
    try:
        check(p.returncode == 0, "32 nested functions: odegen failed:\n%s" % p.stderr[-2000:])
        size32 = os.path.getsize(os.path.join(tmp, "gen", "nested32.cu"))
        source = open(os.path.join(tmp, "gen", "nested32.cu")).read()
        check("the model is too large for symbolic differentiation" in source,
              "the derivatives of 32 nested functions are not said to be left out")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _, tmp8, p8 = translate(nested(8), "nested8", 120)
    size8 = os.path.getsize(os.path.join(tmp8, "gen", "nested8.cu"))
    shutil.rmtree(tmp8, ignore_errors=True)
    print("    32 nested functions: %.2f s (CPU), chain of 20000 states %.2f s; C written %d bytes (8 nested: %d)" % (
        cpu, reference, size32, size8))
    check(cpu <= limit, "32 nested functions took %.2f s, more than %d times the chain's %.2f s" % (
        cpu, NESTED_BOUND, reference))
    check(size32 <= 3 * size8, "32 nested functions write %d bytes of C, 8 write %d" % (size32, size8))
    # a stiff method needs the Jacobian: an error that says why, nothing written
    cpu, tmp, p = translate(nested(32, "rodas5p"), "nested32s", backstop(limit))
    try:
        check(cpu is not None and p.returncode == 1, "rodas5p on 32 nested functions: %s" % (p and p.returncode))
        want = ("nested32s.ode: error: meth=rodas5p (a stiff method, on the exact Jacobian) needs the derivative of "
                "the right-hand side: the model is too large for symbolic differentiation (written out, with user "
                "functions and temporaries inlined, its derivatives exceed 1000000 expression nodes)")
        check(p.stderr.split("\n")[0] == want, "rodas5p on 32 nested functions says:\n%s" % p.stderr)
        check(not os.path.exists(os.path.join(tmp, "gen")), "rodas5p on 32 nested functions wrote files")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_nested_temporaries():
    """22 temporaries each reading the one before twice, in an aux and in hooks: C once each"""
    sizes = {}
    for depth in (2, 22):
        cpu, tmp, p = translate(nested_temporaries(depth), "temps%d" % depth, 120)
        check(cpu is not None and p.returncode == 0, "temporaries %d deep: %s" % (
            depth, "not translated in 120 s" if cpu is None else p.stderr[-2000:]))
        sizes[depth] = os.path.getsize(os.path.join(tmp, "gen", "temps%d.cu" % depth))
        shutil.rmtree(tmp, ignore_errors=True)
    print("    C written: %d bytes for temporaries 2 deep, %d for 22 deep" % (sizes[2], sizes[22]))
    # each temporary is one line more where it is read (the RHS, the aux, each statement of a hook)
    check(sizes[22] <= sizes[2] + 20 * 3000, "22 deep: %d bytes of C, 2 deep %d" % (sizes[22], sizes[2]))


if __name__ == "__main__":
    sys.exit(main([("chain", ratio_test(chain, 4000, "chain")), ("rich", ratio_test(rich, 2000, "rich")),
                   ("nested_functions", test_nested_functions), ("nested_temporaries", test_nested_temporaries)]))
