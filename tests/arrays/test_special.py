#!/usr/bin/python3
"""XPPAUT's network operators, `special` (issue 23 item 3; check/special.c,
emit/emit_specials.c), against a reference written here from XPPAUT's
simplenet.c (evaluate_network, update_fft, fft_conv) and against XPPAUT itself.

Each case holds its roots constant (a[j]'=0) and integrates b[j]'=s(j) over
two RK4 steps of 0.5, so that b[j](1) = s(j) (to RK4's rounding): every value of the
special is seen, and compared
  - with the reference below (relative 1e-13; an FFT's rounding for fftcon);
  - with `xppaut -silent` (its output.dat prints 8 significant digits), where
    XPPAUT 6.11 computes the operator (the f-variants it computes as 0: said
    in README, "Large and coupled models"; odegen computes what simplenet.c
    describes, checked against the reference only);
  - through an aux q[j]=s([j]) too (a special read outside the right-hand
    side is computed from the states where it is read).
Cases: conv of each boundary type (even reflected twice, periodic wrapping
more than once), sparse with negative indices, mmult not square, fftcon
periodic at odd and even n and zero, a special whose root is an array of
temporaries, fconv/fsparse/fmmult with a function of two arguments, and
specials in a model of 64+ states (the loop form with a team of one).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import odegen_test as ot  # noqa: E402
from xppaut import XPPAUT, run_xppaut  # noqa: E402


# ---------------------------------------------------------------- the reference (simplenet.c)

def neighbour(kind, n, k):
    """simplenet.c's index for i + j = k past the edges of n cells: mirrored (even),
    none (zero, None) or wrapped (periodic)."""
    if kind == "even":
        k = abs(k)
        if k >= 2 * n:
            return None
        return abs(2 * n - 2 - k) if k >= n else k
    if kind == "zero":
        return k if 0 <= k < n else None
    return (2 * n + k) % n


def fconv(kind, n, ncon, w, y1, y2, f):
    """As conv, of f(y2[k], y1[i]) (simplenet.c: f[0] = root2 + k, f[1] = root + i)."""
    out = []
    for i in range(n):
        s = 0.0
        for j in range(-ncon, ncon + 1):
            k = neighbour(kind, n, i + j)
            if k is not None:
                s += w[j + ncon] * f(y2[k], y1[i])
        out.append(s)
    return out


def conv(kind, n, ncon, w, y):
    """sum over j of w[j] y[i + j] (simplenet.c), the edges as neighbour says."""
    return fconv(kind, n, ncon, w, y, y, lambda yk, yi: yk)


def sparse(n, ncon, w, ix, y, y1=None, f=None):
    out = []
    for i in range(n):
        s = 0.0
        for j in range(ncon):
            k = int(ix[i * ncon + j])
            if k >= 0:
                s += w[i * ncon + j] * (y[k] if f is None else f(y[k], y1[i]))
        out.append(s)
    return out


def mmult(n, m, w, y, y1=None, f=None):
    return [sum(w[j * n + i] * (y[i] if f is None else f(y[i], y1[j])) for i in range(n)) for j in range(m)]


def fftcon(kind, n, w, y):
    """XPPAUT's FFT convolution, as a sum: periodic with its reordered weights
    K (update_fft), zero-padded to 2n for type 0."""
    if kind == "periodic":
        n2 = n // 2
        K = [0.0] * (n + 1)
        for i in range(n2 + 1):
            K[i] = w[i + n2]
        for i in range(n2):
            K[n2 + i + 1] = w[i]
        return [sum(K[m] * y[(i - m) % n] for m in range(n)) for i in range(n)]
    return [sum(w[n + i - k] * y[k] for k in range(n)) for i in range(n)]


def table(n, lo, f):
    """XPPAUT's `table NAME % n lo hi expr` with hi = lo + n - 1: f at lo, lo+1, …"""
    return [f(float(lo + i)) for i in range(n)]


# ---------------------------------------------------------------- the cases

Y7 = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]


def roots(name, n, values):
    return "init " + ",".join("%s%d=%r" % (name, j, v) for j, v in enumerate(values[:n]))


def case_text(n, lines, init, m=None, aux=True):
    m = m or n
    return "\n".join(lines + ["a[0..%d]'=0" % (n - 1), "b[0..%d]'=s([j])" % (m - 1)] +
                     (["aux q[0..%d]=s([j])" % (m - 1)] if aux else []) + [init,
                              "@ meth=rungekutta, total=1, dt=0.5, bound=1e9", "done", ""])


W5 = "table w % 5 -2 2 t+3+t*t*0.5"      # w[k] = f(k-2), k = 0 … 4: asymmetric
W5f = lambda t: t + 3 + t * t * 0.5       # noqa: E731

CASES = []


def add(name, n, lines, expect, m=None, xpp=True, init=None, aux=True):
    CASES.append((name, case_text(n, lines, init or roots("a", n, Y7), m, aux), expect, m or n, xpp, aux))


for kind in ("even", "zero", "periodic"):
    add("conv_" + kind, 7, [W5, "special s=conv(%s,7,2,w,a0)" % kind], conv(kind, 7, 2, table(5, -2, W5f), Y7))
# reflected twice and beyond 2n (even), wrapping more than once (periodic): ncon 6 > n 4
W13 = "table w % 13 -6 6 1+t*t+0.25*t"
W13f = lambda t: 1 + t * t + 0.25 * t     # noqa: E731
for kind in ("even", "periodic"):
    add("conv_wide_" + kind, 4, [W13, "special s=conv(%s,4,6,w,a0)" % kind],
        conv(kind, 4, 6, table(13, -6, W13f), Y7))
add("sparse", 7, ["table w % 14 0 13 t+1", "table ix % 14 0 13 if(t<12)then(mod(3*t+1,7))else(-1)",
                  "special s=sparse(7,2,w,ix,a0)"],
    sparse(7, 2, table(14, 0, lambda t: t + 1), table(14, 0, lambda t: (3 * t + 1) % 7 if t < 12 else -1), Y7))
add("mmult", 4, ["table w % 12 0 11 1+t*t", "special s=mmult(4,3,w,a0)"],
    mmult(4, 3, table(12, 0, lambda t: 1 + t * t), Y7), m=3)
for n in (7, 6):
    add("fftcon_periodic_%d" % n, n, ["table w % 13 0 12 t+1+0.1*t*t", "special s=fftcon(periodic,%d,w,a0)" % n],
        fftcon("periodic", n, table(13, 0, lambda t: t + 1 + 0.1 * t * t), Y7))
add("fftcon_zero", 6, ["table w % 13 0 12 t+1+0.1*t*t", "special s=fftcon(0,6,w,a0)"],
    fftcon("zero", 6, table(13, 0, lambda t: t + 1 + 0.1 * t * t), Y7))
# a root that is an array of temporaries (computed before the special)
add("conv_of_temporaries", 7, [W5, "u[0..6]=a[j]*a[j]", "special s=conv(zero,7,2,w,u0)"],
    conv("zero", 7, 2, table(5, -2, W5f), [y * y for y in Y7]), xpp=False, aux=False)
# the f-variants: f(neighbour, own) with the neighbour from root2
F = "f(x,y)=x*x-0.5*y"
Ff = lambda x, y: x * x - 0.5 * y          # noqa: E731
Z7 = [10.0, -20.0, 30.0, 5.0, 1.0, -3.0, 7.0]
FINIT = roots("a", 7, Y7) + "\n" + roots("c", 7, Z7)
for kind in ("even", "zero", "periodic"):
    add("fconv_" + kind, 7, [F, W5, "c[0..6]'=0", "special s=fconv(%s,7,2,w,a0,c0,f)" % kind],
        fconv(kind, 7, 2, table(5, -2, W5f), Y7, Z7, Ff), xpp=False, init=FINIT)
add("fsparse", 7, [F, "c[0..6]'=0", "table w % 14 0 13 t+1", "table ix % 14 0 13 if(t<12)then(mod(3*t+1,7))else(-1)",
                   "special s=fsparse(7,2,w,ix,a0,c0,f)"],
    sparse(7, 2, table(14, 0, lambda t: t + 1), table(14, 0, lambda t: (3 * t + 1) % 7 if t < 12 else -1), Z7,
           y1=Y7, f=Ff), xpp=False, init=FINIT)
add("fmmult", 7, [F, "c[0..6]'=0", "table w % 49 0 48 1+0.5*t", "special s=fmmult(7,7,w,a0,c0,f)"],
    mmult(7, 7, table(49, 0, lambda t: 1 + 0.5 * t), Z7, y1=Y7, f=Ff), xpp=False, init=FINIT)


def odegen_text(text, m, aux):
    fields = ["b%d" % j for j in range(m)] + (["q%d" % j for j in range(m)] if aux else [])
    return text.replace("\ndone", "\nrecord " + ", ".join(fields) + "\ndone", 1)


def xppaut_last_row(text):
    return [float(v) for v in run_xppaut("m.ode", text)[-1]]


def make_test(name, text, expect, m, xpp, aux):
    def test():
        runner = ot.build("special_" + name, odegen_text(text, m, aux))
        r = ot.run(runner)
        got = np.array([r["b%d" % j][0] for j in range(m)])
        q = np.array([r["q%d" % j][0] for j in range(m)]) if aux else got
        ref = np.array(expect, dtype=float)
        tol = 1e-12 if name.startswith("fftcon") else 1e-13
        err = np.max(np.abs(got - ref) / np.maximum(1.0, np.abs(ref)))
        ot.check(err <= tol, "%s: odegen %s, reference %s (%.2g)" % (name, got, ref, err))
        qerr = np.max(np.abs(q - ref) / np.maximum(1.0, np.abs(ref)))
        ot.check(qerr <= tol, "%s: the aux %s, reference %s (%.2g)" % (name, q, ref, qerr))
        if xpp and XPPAUT:
            row = xppaut_last_row(text)
            nstate = len(row) - 1 - (m if aux else 0)   # t, the states (a then b), then the aux
            xb = np.array(row[1 + nstate - m: 1 + nstate])
            ot.check(row[0] == 1.0, "%s: XPPAUT's last row is at t=%g" % (name, row[0]))
            xerr = np.max(np.abs(xb - ref) / np.maximum(1.0, np.abs(ref)))
            ot.check(xerr < 1e-7, "%s: XPPAUT %s, reference %s" % (name, xb, ref))
    return test


def test_loop_form_model():
    """A special in a model of 128 states: conv (periodic) over 64 units of a
    ring, the loop form against the reference at t = 1."""
    n = 64
    y = [float((7 * j) % 11) - 5 for j in range(n)]
    text = "\n".join(["table w % 5 -2 2 t+3+t*t*0.5", "special s=conv(periodic,64,2,w,a0)",
                      "a[0..63]'=0", "b[0..63]'=s([j])", roots("a", n, y),
                      "@ meth=rk4, total=1, dt=0.5", "record b0, b1, b31, b63", "done", ""])
    r = ot.run(ot.build("special_loop", text))
    ref = conv("periodic", n, 2, table(5, -2, W5f), y)
    for j in (0, 1, 31, 63):
        ot.check(abs(r["b%d" % j][0] - ref[j]) <= 1e-13 * max(1, abs(ref[j])),
                 "b%d = %r, reference %r" % (j, r["b%d" % j][0], ref[j]))


TESTS = [("special " + c[0], make_test(*c)) for c in CASES] + [("special in a model of 128 states", test_loop_form_model)]

if __name__ == "__main__":
    if not XPPAUT:
        print("(xppaut is not installed: compared with the reference only)")
    sys.exit(ot.main(TESTS))
