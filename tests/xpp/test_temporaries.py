#!/usr/bin/python3
"""Temporaries and parameters as XPPAUT files use them (issue 20), checked
against exact solutions.

Temporaries in any order.  A temporary may read one declared after it
(`b=a` before `a=-x`): odegen computes them in dependency order, so
x' = b = -x gives x = exp(-t) exactly as the file means (XPPAUT reads the
later one's value from its previous evaluation: a note says so).  The
generated code once left such temporaries out and did not compile.

A global that sets a parameter.  x' = k with k = k0 doubled by a global at
each crossing of x = 1, 2, 4, …: each system of a scan of k0 keeps its own k,
x(t) is piecewise linear with known break points, and `record k` shows the
value the last event left.

Run: /usr/bin/python3 tests/xpp/test_temporaries.py
"""
import math
import os
import sys

os.environ.setdefault("ODEGEN_SANITIZE", "0")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import build, check, main, run  # noqa: E402

OUT_OF_ORDER = """\
x'=b
b=a
aux bb=b
a=-x
aux a=a
init x=1
@ total=2, dt=0.001
record x, bb, a
done
"""

PARAM_SET = """\
par k=1
x'=k
thr'=0
init thr=1
global 1 {x-thr} {k=2*k; thr=2*thr}
@ total=3.3, meth=rk4, dt=0.001
record x, k
scan k = list(0.5, 1, 3)
done
"""


def test_temporaries_in_any_order():
    """b=a before a=-x: x' = -x, x(2) = exp(-2); the aux follow."""
    r = run(build("temps_order", OUT_OF_ORDER), "--quiet")
    x, bb, a = r["x"][0], r["bb"][0], r["a"][0]
    check(abs(x - math.exp(-2)) < 1e-12, "x(2) = %.17g, exp(-2) = %.17g" % (x, math.exp(-2)))
    check(bb == -x and a == -x, "aux bb = %r, a = %r for x = %r" % (bb, a, x))


def exact(k0, total):
    """x' = k from x=0, k doubling at x = 1, 2, 4, …: (x, k) at `total`."""
    t, x, k, thr = 0.0, 0.0, k0, 1.0
    while t + (thr - x) / k < total:
        t += (thr - x) / k
        x, k, thr = thr, 2 * k, 2 * thr
    return x + k * (total - t), k


def test_global_sets_parameter_per_system():
    """Each system of the scan keeps its own k; record k shows the last event's value."""
    r = run(build("param_set", PARAM_SET), "--quiet")
    for i, k0 in enumerate((0.5, 1, 3)):
        want_x, want_k = exact(k0, 3.3)
        check(r["k"][i] == want_k, "k0=%g: k=%r, expected %r" % (k0, r["k"][i], want_k))
        # the event is located on the step's interpolant: x' = k is linear, so exactly up to rounding
        check(abs(r["x"][i] - want_x) < 1e-9 * want_x, "k0=%g: x(3.3)=%.17g, expected %.17g" % (k0, r["x"][i], want_x))


if __name__ == "__main__":
    sys.exit(main([(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]))
