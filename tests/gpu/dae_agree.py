#!/usr/bin/env python3
"""Algebraic constraints (solv, 0=): the GPU against the CPU, one nvcc-built
runner run with --backend cpu and --backend gpu.

1. The index-1 pendulum over 4096 starting angles in (0.1, 3): rk4 (Newton at
   every stage), dopri5 (the same under step-size control) and rodas5p (the
   mass matrix diag(I, 0)): statuses equal, every recorded value (states, the
   multiplier, the energy) within 1e-9 of the CPU's relative to its column's
   scale.  nvcc contracts a*b+c into FMAs, so the two differ in the last bits
   of each Newton update; the tolerances of the runs are 1e-10.
2. The fold (XPPAUT's dae_ex3.ode) scanned over the drift a in [-1, 1]: the
   systems with a > 0 reach the knee and stop with dae_failed on both sides,
   the others finish; statuses equal, the finished ones within 1e-9; the
   failing ones stop at the knee on both sides (w within one step's drift
   a*dt of 2/(3 sqrt 3) with rk4, within 1e-5 with the adaptive methods) and
   agree within 1e-6 — within 1e-4 with dopri5, whose last accepted step at
   the knee moves with the last bits of the rejected trials before it: there
   v moves as the square root of w's distance to the knee (measured on an
   H100: 8.6e-6).

Run on the GPU machine: python3 tests/gpu/dae_agree.py (make test-gpu runs it).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import build, check, main, run_cpu_gpu  # noqa: E402

PENDULUM = """# the pendulum of length 1 in index-1 form, from the angle th0 at rest
par g=9.81, th0=1
x'=u
y'=v
u'=-lam*x
v'=-lam*y-g
0=u^2+v^2-g*y-lam*(x^2+y^2)
solv lam=0
init x=sin(th0), y=-cos(th0)
aux energy=(u^2+v^2)/2+g*y
scan th0 = lin(0.1, 3, 4096)
repeat record=3
@ meth=%s, dt=1e-3, toler=1e-10, atoler=1e-10, newt_tol=1e-12, total=1
done
"""

FOLD = """# XPPAUT's dae_ex3.ode with a drift a: a > 0 reaches the knee of v(1-v^2) = w
par a=1
w'=a*v_
0= v_*(1-v_*v_)-w
solv v_=1
scan a = lin(-1, 1, 2048)
repeat record=2
@ meth=%s, dt=0.01, total=1, newt_iter=1000, toler=1e-9, atoler=1e-9
done
"""


def compare(label, cpu, gpu, rel, failed_rel=None):
    check(list(cpu.status) == list(gpu.status), "%s: statuses differ at %s" % (
        label, np.nonzero(cpu.status != gpu.status)[0][:10]))
    scale = np.max(np.abs(cpu.matrix), axis=0) + 1e-300
    diff = np.abs(cpu.matrix - gpu.matrix) / scale
    ok = cpu.status != "dae_failed"
    worst = np.max(diff[ok]) if ok.any() else 0.0
    worst_failed = np.max(diff[~ok]) if (~ok).any() else 0.0
    counts = {s: int(np.sum(cpu.status == s)) for s in sorted(set(cpu.status))}
    print("    %-18s %s; largest difference %.1e (failed systems: %.1e)" % (label, counts, worst, worst_failed))
    check(worst <= rel, "%s: GPU and CPU differ by %.2e" % (label, worst))
    check(worst_failed <= (failed_rel or rel), "%s: failed systems differ by %.2e" % (label, worst_failed))


def test_pendulum():
    """the index-1 pendulum: rk4, dopri5, rodas5p on the GPU against the CPU"""
    for meth in ("rk4", "dopri5", "rodas5p"):
        runner = build("dae_pendulum_" + meth, PENDULUM % meth, backend="gpu")
        cpu, gpu = run_cpu_gpu(runner, "--fields", "x,y,u,v,lam,energy")
        compare("pendulum " + meth, cpu, gpu, 1e-9)
        check(set(cpu.status) == {"finished"}, "pendulum %s: %s" % (meth, set(cpu.status)))


def test_fold():
    """the fold: dae_failed for a > 0 on both sides, the others finished and equal"""
    for meth in ("rk4", "dopri5", "rodas5p"):
        runner = build("dae_fold_" + meth, FOLD % meth, backend="gpu")
        cpu, gpu = run_cpu_gpu(runner, "--fields", "a,t,w,v_")
        compare("fold " + meth, cpu, gpu, 1e-9, 1e-4 if meth == "dopri5" else 1e-6)
        a, failed = cpu["a"], cpu.status == "dae_failed"
        knee = 2 / (3 * np.sqrt(3))
        for side, r in (("CPU", cpu), ("GPU", gpu)):
            off = np.abs(r["w"][failed] - knee) - (a[failed] * 0.01 if meth == "rk4" else 1e-5)
            check(np.all(off <= 0), "fold %s: the %s's failed systems not at the knee w = %.9f: %s" % (
                meth, side, knee, r["w"][failed][off > 0][:5]))
        check(np.all(failed[a > 0.5]) and not np.any(failed[a <= 0]),
              "fold %s: statuses by a: %s" % (meth, list(zip(a[::64], cpu.status[::64]))))


if __name__ == "__main__":
    sys.exit(main([("pendulum", test_pendulum), ("fold", test_fold)]))
