#!/usr/bin/env python3
"""delay(x, tau) with the stiff methods (and in arrays kept as loops): the GPU
against the CPU, one nvcc-built runner run with --backend cpu and --backend gpu.

1. y' = -L y + c y(t-tau) + r(t), exact y = sin(t), scanned over c in
   [-900, 900] (L = 1000) and tau in [0.5, 1.5]: Rodas5P and ROS3P, whose
   Jacobian reads the past's slope (templates/delay.h, ode_delay_slope);
   statuses equal, y within 1e-8 of the CPU's and of sin(t) (toler=1e-9:
   each side's error is about the tolerance, 1.4e-9 on the CPU, and nvcc's FMAs
   move the accepted steps, so the two differ by about the same: 2.0e-9 on an H100).
2. tests/delay's stiff references side by side (a fast Mackey-Glass, tau <
   h, a state-dependent delay) scanned over the feedback beta: statuses
   equal, values within 1e-8 relative to each column's scale (the runs'
   tolerance is 1e-10; nvcc contracts a*b+c into FMAs, so the steps differ in
   their last bits and the step-size control amplifies that a little).

Run on the GPU machine: python3 tests/gpu/delay_agree.py (make test-gpu runs it).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import agree_cpu_gpu, build, check, main, run_cpu_gpu, with_lines  # noqa: E402

EXACT = """# y' = -L y + c y(t-tau) + r(t), exact y = sin(t) (history sin(t))
par L=1000, c=500, tau=1
y'=-L*y+c*delay(y,tau)+cos(t)+L*sin(t)-c*sin(t-tau)
y(0)=sin(t)
scan c = lin(-900, 900, 64)
scan tau = lin(0.5, 1.5, 16)
@ meth=%s, delay=2, total=5, dt=0.001, toler=1e-9, atoler=1e-9
done
"""

REFERENCES = with_lines(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "delay", "stiff_references.ode"),
                        "scan beta = lin(60, 140, 1024)\n"
                        "@ meth=%s, total=20, dt=0.001, toler=%g, atoler=%g")


def test_stiff_exact():
    """the stiff exact problem over (c, tau): Rodas5P and ROS3P, GPU against CPU and against sin(5)"""
    for meth in ("rodas5p", "ros3p"):
        runner = build("dde_gpu_stiff_exact_" + meth, EXACT % meth, backend="gpu")
        cpu, gpu = run_cpu_gpu(runner, "--fields", "c,tau,y")
        agree_cpu_gpu("exact " + meth, cpu, gpu, 1e-8)
        check(set(cpu.status) == {"finished"}, "%s: %s" % (meth, set(cpu.status)))
        err = float(np.max(np.abs(gpu["y"] - np.sin(5.0))))
        print("    %-22s GPU's largest error from sin(5): %.1e" % ("exact " + meth, err))
        check(err < 1e-8, "%s: error %g" % (meth, err))


def test_stiff_references():
    """Mackey-Glass (gamma 50), tau < h, a state-dependent delay over beta: GPU against CPU"""
    # (ROS3P, of order 3, at 1e-10 outgrows the default ring within a delay: status history)
    for meth, tol in (("rodas5p", 1e-10), ("ros3p", 1e-9)):
        runner = build("dde_gpu_stiff_ref_" + meth, REFERENCES % (meth, tol, tol), backend="gpu")
        cpu, gpu = run_cpu_gpu(runner, "--fields", "beta,z,w,s")
        agree_cpu_gpu("references " + meth, cpu, gpu, 1e-8)
        check(set(cpu.status) == {"finished"}, "%s: %s" % (meth, set(cpu.status)))


if __name__ == "__main__":
    sys.exit(main([("stiff_exact", test_stiff_exact), ("stiff_references", test_stiff_references)]))
