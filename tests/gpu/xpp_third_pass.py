#!/usr/bin/env python3
"""Issue 20's third pass on the GPU against the CPU, one nvcc-built runner run
with --backend cpu and --backend gpu (xppaut is not needed here: tests/xpp
compares the CPU with XPPAUT).

1. Poincaré maps (@ poimap: an event with stop=1 that ends each integration,
   on end { t0 = t }): tests/xpp/poincare's van der Pol section and Lorenz's
   maxima of z, over a scan of 4096 systems (mu, r): the same statuses row for
   row (the same number of points per system); van der Pol's points within
   1e-9 of the CPU's relative to its column's scale (nvcc contracts a*b+c into
   FMAs); Lorenz's built with -fmad=false and equal to the bit: its flow is
   chaotic, so an FMA's last bit grows over 64 maxima (2.9e-7 on an H100 with
   FMAs), and without them its arithmetic (+ - * / only) is the CPU's.
2. A table whose formula reads parameters (each call written out per system):
   tests/xpp/tables/table_of_parameters.ode over a scan of a and b (4096
   systems): within 1e-12 relative (RK4, no events).
3. Options inside sets (set S {total=…}): tests/xpp/corpus/set_options.ode's
   sets given in order with --set-name: the rows of each set within 1e-12.

Run on the GPU machine: python3 tests/gpu/xpp_third_pass.py (make test-gpu runs it).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from odegen_test import agree_cpu_gpu, build, check, main, run_cpu_gpu, with_lines  # noqa: E402

XPP = os.path.join(HERE, "..", "xpp")


def test_poincare():
    """XPPAUT's Poincaré maps: the points of 4096 systems, GPU against CPU"""
    for name, scan, nvcc, rel in (("vdp_section.ode", "scan mu = lin(0.5, 2, 4096)", None, 1e-9),
                                  ("lorenz_max.ode", "scan r = lin(24, 32, 4096)", "-O3 -fmad=false", 0.0)):
        runner = build("gpu_poincare_" + name[:-4], with_lines(os.path.join(XPP, "poincare", name),
                                                            scan + "\nrepeat record=64"), backend="gpu", nvccflags=nvcc)
        cpu, gpu = run_cpu_gpu(runner)
        check(np.sum(cpu.status == "event") > 4096, "%s: too few points (%s)" % (name, sorted(set(cpu.status))))
        agree_cpu_gpu("poimap " + name, cpu, gpu, rel)


def test_parameter_table():
    """a table of parameters written out per system: 4096 systems, GPU against CPU"""
    runner = build("gpu_table_of_parameters",
                   with_lines(os.path.join(XPP, "tables", "table_of_parameters.ode"),
                         "scan a = lin(0.5, 2, 64)\nscan b = lin(-0.1, 0.35, 64)\nrecord t, x, y, z"),
                   backend="gpu")
    cpu, gpu = run_cpu_gpu(runner)
    agree_cpu_gpu("table of a, b", cpu, gpu, 1e-12)


def test_set_options():
    """options inside sets, given in order: GPU against CPU"""
    runner = build("gpu_set_options", with_lines(os.path.join(XPP, "corpus", "set_options.ode"), "record t, v, w"),
                   backend="gpu")
    sets = ["long", "window", "hopf"]
    for k in range(len(sets)):
        args = [a for s in sets[:k + 1] for a in ("--set-name", s)]
        cpu, gpu = run_cpu_gpu(runner, *args)
        agree_cpu_gpu("set " + sets[k], cpu, gpu, 1e-12)
        check(abs(cpu["t"][-1] - 30) < 1e-9, "set %s: the run ends at t=%g, not the set's total 30"
              % (sets[k], cpu["t"][-1]))


if __name__ == "__main__":
    sys.exit(main([("poincare", test_poincare), ("parameter table", test_parameter_table),
                   ("set options", test_set_options)]))
