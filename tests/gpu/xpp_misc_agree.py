#!/usr/bin/env python3
"""Issue 20's remaining XPPAUT statements on the GPU against the CPU, one
nvcc-built runner run with --backend cpu and --backend gpu (tests/xpp compares
the CPU with XPPAUT):

1. arret=EXPR in a global (an accessory the runtime reads after the block,
   templates/firing.h): tests/xpp/corpus/arret_expression.ode over 4096
   values of nmax: the same statuses row for row (each system stops at its
   own reset count) and the rows within 1e-12 of the CPU's.
2. Sums whose bounds are parameters and shifts by parameters and tables
   (loops over each system's bounds, elements read by index with NaN beyond
   the names): tests/xpp/sums/sum_bounds_loop.ode over 4096 values of n
   and k in loop form, and sum_bounds.ode written out over n = 0 … 9 (9
   reads beyond the states: status nan on both sides): the same statuses,
   the same NaNs, the rest within 1e-9 (nvcc contracts a*b+c into FMAs).
3. XPPAUT's symplectic method (meth=ymp, templates/symplectic.h):
   tests/xpp/corpus/symplectic_pairs.ode over 4096 forcing amplitudes:
   within 1e-9.

Run on the GPU machine: python3 tests/gpu/xpp_misc_agree.py (make test-gpu runs it).
"""
import os
import sys


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from odegen_test import agree_cpu_gpu, build, check, main, run_cpu_gpu, with_lines  # noqa: E402

XPP = os.path.join(HERE, "..", "xpp")


def test_arret():
    """arret=EXPR: 4096 systems stopping at their own count, GPU against CPU"""
    runner = build("gpu_arret_expression", with_lines(os.path.join(XPP, "corpus", "arret_expression.ode"),
                                                 "scan nmax = lin(0.5, 6.5, 4096)\nrecord t, x, n, arret"),
                   backend="gpu")
    cpu, gpu = run_cpu_gpu(runner)
    counts = agree_cpu_gpu("arret=(n>nmax)*y", cpu, gpu, 1e-12)
    check(counts.get("event", 0) > 0, "no system stopped: %s" % counts)


def test_sums():
    """sums and shifts of parameters: loop form and written out, GPU against CPU"""
    runner = build("gpu_sum_bounds_loop", with_lines(os.path.join(XPP, "sums", "sum_bounds_loop.ode"),
                                                "scan n = lin(1, 79, 64)\nscan k = lin(0, 79, 64)\nrecord t, x0, x79, s, f"),
                   backend="gpu")
    cpu, gpu = run_cpu_gpu(runner)
    agree_cpu_gpu("sum(k,n), shift(x0,k), nb([j])", cpu, gpu, 1e-9)
    runner = build("gpu_sum_bounds", with_lines(os.path.join(XPP, "sums", "sum_bounds.ode"),
                                           "scan n = list(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)\nscan k = lin(-1, 8, 10)\n"
                                           "record t, x1, x8, s, sk, sh"),
                   backend="gpu")
    cpu, gpu = run_cpu_gpu(runner)
    counts = agree_cpu_gpu("sum(1,n) written out", cpu, gpu, 1e-9)
    check(counts.get("nan", 0) == 10, "n=9 reads beyond the states in 10 systems: %s" % counts)


def test_symplectic():
    """XPPAUT's symplectic method: 4096 forcing amplitudes, GPU against CPU"""
    runner = build("gpu_symplectic_pairs", with_lines(os.path.join(XPP, "corpus", "symplectic_pairs.ode"),
                                                 "scan k = lin(0, 1, 4096)\nrecord t, th, w, x, v, energy"),
                   backend="gpu")
    cpu, gpu = run_cpu_gpu(runner)
    agree_cpu_gpu("meth=ymp", cpu, gpu, 1e-9)


if __name__ == "__main__":
    sys.exit(main([("arret", test_arret), ("sums", test_sums), ("symplectic", test_symplectic)]))
