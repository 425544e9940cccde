#!/usr/bin/env python3
"""CPU against GPU for every model in models/: the same nvcc-built runner run
with --backend cpu and --backend gpu, on non-chaotic parts of each model's
scan and short horizons.

1. The default build (nvcc contracts a*b+c into FMAs; CUDA's sin, cos, pow
   differ from glibc's in the last bits): statuses equal, every recorded
   value within 1e-11 relative to its column's scale.  The parameter ranges
   avoid chaos (Duffing: 3 periods; Lorenz: rho < 13.9, where every
   trajectory goes to a fixed point without chaotic transients; the valve:
   q > 7.6, no impacts; Keller-Miksis: the weakest amplitudes), because
   there any rounding difference grows to the attractor's size.
   Except: a value sampled at accepted steps of an adaptive run (an
   accessory kept in `on step`, such as the valve's ymin or the bubble's
   tmin) moves within a step when one accept/reject decision of the error
   control flips on a rounding difference; those fields are held to 1e-6.
2. Built with -fmad=false, a model that uses only + - * / and sqrt (Lorenz,
   the valve) is computed with the same IEEE operations in the same order on
   both sides (the step-size controller avoids pow for this reason): the GPU
   must reproduce the CPU bit for bit.
3. The statuses that say a number is not a result (issue 19): RK4, Euler and
   Heun on x' = -lam (x - cos t) over lam from stable to far outside the
   stability region (`unstable`, on the fast path and step by step), and a
   window that `on end { t0 = t }` empties (`empty`): the same status in
   every row on both sides, and the same values where finished.
"""
import glob
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import ROOT, build, check, difference, main, run_raw, Result  # noqa: E402

ARGS = {
    "duffing": ["--scan", "k=lin(0.2,0.3,512)", "--transient", "0", "--recorded", "3"],
    "duffing_rkck45": ["--scan", "k=lin(0.2,0.3,512)", "--transient", "0", "--recorded", "3"],
    "duffing_maxima": ["--scan", "k=lin(0.2,0.3,512)", "--transient", "0", "--recorded", "3"],
    "duffing_lyapunov": ["--scan", "k=lin(0.2,0.3,512)", "--transient", "0", "--recorded", "3"],
    "lorenz": ["--scan", "rho=lin(0,13,2048)"],
    "keller_miksis": ["--scan", "PA1=list(0.5)", "--scan", "PA2=list(0.7)", "--scan", "f1=log(200,1000,8)",
                      "--scan", "f2=log(200,1000,8)", "--transient", "0", "--recorded", "3"],
    "valve": ["--scan", "q=lin(7.6,10,512)", "--transient", "0", "--recorded", "3"],
    "duffing_map": ["--scan", "k=lin(0.3,0.45,32)", "--scan", "B=lin(0.05,0.2,16)", "--transient", "0",
                    "--recorded", "3"],
    "valve_lyapunov": ["--scan", "q=lin(7.6,10,512)", "--transient", "0", "--recorded", "3"],
    # a map: its periodic range only (period 1 to 8, r < 3.5699 where chaos begins)
    "logistic_map": ["--scan", "r=lin(2.5,3.56,512)", "--transient", "2000", "--recorded", "64",
                     "--fields", "r,x,lyap1"],   # (period: a threshold that rounding may flip where convergence is slow)
}
EXACT = ("lorenz", "valve")   # + - * / sqrt only: bit-for-bit with -fmad=false
TOL = 1e-11
SAMPLED = {"keller_miksis": ("tmin", "ymin", "tmax"), "valve": ("ymax", "ymin"),
           # exponents: logs of tangent growth through 10^3 impacts, each located to tol (1.5e-10 seen)
           "valve_lyapunov": ("lyap1", "lyap2", "lyap3")}   # `on step` extrema, adaptive runs; located event times
TOL_SAMPLED = 1e-6


def both(name, nvccflags=None):
    text = open(os.path.join(ROOT, "models", name + ".ode")).read()
    runner = build(name, text, backend="gpu", nvccflags=nvccflags)
    out = {}
    for backend in ("cpu", "gpu"):
        p = run_raw(runner, "--backend", backend, *ARGS[name])
        check(p.returncode == 0, "%s --backend %s: exit %d\n%s" % (name, backend, p.returncode, p.stderr))
        out[backend] = Result(p.stdout, p.stderr)
    a, b = out["cpu"], out["gpu"]
    check(len(a) == len(b) and len(a) > 0, "%s: %d rows vs %d" % (name, len(a), len(b)))
    check((a.status == b.status).all(), "%s: statuses differ in %d rows" % (name, (a.status != b.status).sum()))
    return a, b


def compare(name):
    a, b = both(name)
    sampled = SAMPLED.get(name, ())
    worst, where = difference(a, b, skip=sampled)
    print("    %-18s %6d rows  largest relative difference %.2e  (%s)" % (name, len(a), worst, where), flush=True)
    check(worst <= TOL, "%s: CPU and GPU differ by %.3g > %g (%s)" % (name, worst, TOL, where))
    if sampled:
        ws, wh = difference(a, b, skip=[c for c in a.header[2:-1] if c not in sampled])
        print("    %-18s        step-sampled %s: largest relative difference %.2e  (%s)"
              % ("", ",".join(sampled), ws, wh), flush=True)
        check(ws <= TOL_SAMPLED, "%s: sampled extrema differ by %.3g > %g (%s)" % (name, ws, TOL_SAMPLED, wh))


def compare_exact(name):
    a, b = both(name, nvccflags="-O3 -fmad=false")
    worst, where = difference(a, b)
    print("    %-18s %6d rows  -fmad=false: largest relative difference %.2e  %s" % (name, len(a), worst, where),
          flush=True)
    check(worst == 0, "%s built with -fmad=false: CPU and GPU differ (%s)" % (name, where))


STATUSES = """par lam=1000
x'=-lam*(x-cos(t))
on end { t0 = t }
@ meth=%s, dt=0.01, total=1
scan lam = lin(100, 1200, 512)
repeat transient=0, record=3
%s
done
"""


def test_statuses_unstable_empty():
    for meth in ("rk4", "euler", "modeuler"):
        for path, extra in (("fast", ""), ("stepwise", "event never: t-100")):
            runner = build("agree_statuses_%s_%s" % (meth, path), STATUSES % (meth, extra), backend="gpu")
            out = {}
            for backend in ("cpu", "gpu"):
                p = run_raw(runner, "--backend", backend, "--fields", "lam,x,t")
                check(p.returncode == 0, "%s --backend %s: exit %d\n%s" % (meth, backend, p.returncode, p.stderr))
                out[backend] = Result(p.stdout, p.stderr)
            a, b = out["cpu"], out["gpu"]
            check((a.status == b.status).all(), "%s %s: statuses differ in %d rows" % (meth, path, (a.status != b.status).sum()))
            seen = sorted(set(a.status))
            check("unstable" in seen and "empty" in seen and "finished" in seen, "%s %s: statuses %s" % (meth, path, seen))
            ok = a.status == "finished"
            worst = float(np.max(np.abs(a["x"][ok] - b["x"][ok])))
            print("    %-8s %-8s statuses %s, the same on both sides; finished rows differ by %.2e at most"
                  % (meth, path, ", ".join("%s %d" % (s, int((a.status == s).sum())) for s in seen), worst), flush=True)
            check(worst <= 1e-12, "%s %s: finished values differ by %.3g" % (meth, path, worst))


NAMES = [os.path.basename(p)[:-4] for p in sorted(glob.glob(os.path.join(ROOT, "models", "*.ode")))]
TESTS = [("agreement_" + n, (lambda n: lambda: compare(n))(n)) for n in NAMES if n in ARGS]
TESTS += [("bitwise_" + n, (lambda n: lambda: compare_exact(n))(n)) for n in EXACT]
TESTS += [("statuses_unstable_empty", test_statuses_unstable_empty)]
# The attractor models are compared CPU against GPU by tests/gpu/attractors_agree.py (labels and
# tables over grids; their scans are basin grids, not reduced scans of this script's kind).
COMPARED_ELSEWHERE = {"double_well_basins", "double_well_tilt", "lorenz84_basins", "magnetic_pendulum"}
MISSING = [n for n in NAMES if n not in ARGS and n not in COMPARED_ELSEWHERE]

if __name__ == "__main__":
    if MISSING:
        print("models without a reduced scan in tests/gpu/agreement.py: %s" % ", ".join(MISSING))
        sys.exit(1)
    sys.exit(main(TESTS))
