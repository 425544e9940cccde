#!/usr/bin/env python3
"""XPPAUT's features on the GPU (issue 9): the same nvcc-built runner run with
--backend cpu and --backend gpu must agree, on models that use

  - function and file tables (linear, steps, cubic), whose values the GPU
    reads from __constant__ memory, and a table too large for it (60000
    values: global memory);
  - arrays and sums written out, and shift();
  - parameter sets (--set-name) and initial values that are expressions of
    parameters, scanned;
  - names that clash with C, CUDA and the generated code;
  - a global that sets a scanned parameter (written back with the state).

Each runs a scan of many systems (so that the GPU's threads look up
different places of a table at once).  Agreement: statuses equal, every value
within 1e-11 of its column's scale (nvcc contracts a*b+c into FMAs and its
tanh, sin differ from glibc's in the last bits, as tests/gpu/agreement.py
explains).

Run (on a machine with a GPU): python3 tests/gpu/xpp_features.py
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import BUILD, ROOT, Failure, Result, build, check, difference, main, run_raw  # noqa: E402

CORPUS = os.path.join(ROOT, "tests", "xpp", "corpus")
TOL = 1e-11

BIG_TABLE = """# a table of 60000 values: beyond __constant__ memory, in global memory
table wave % 60000 0 6.283185307179586 sin(t)+0.1*sin(7*t)
par k=1
x'=-k*x+wave(mod(t+x,6.283185307179586))
@ dt=0.01, total=5
done
"""

INIT_EXPR = """# initial values that are expressions of parameters, scanned
par a0=1, w=2
!w2=w*w
init y1=a0, y2=w2-a0
y1'=y2
y2'=-w2*y1
@ dt=0.01, total=3
done
"""

PARAM_SET = """# a global that sets a parameter (issue 20 item 5), scanned: each system keeps its own k,
# written back with the state and carried to the next integration of the repeat
par k=1
x'=y
y'=-k*x - 0.1*y + cos(t)
global 1 {x-0.8} {k=k*1.05}
@ dt=0.01, total=20
repeat record=3
record x, y, k
done
"""

CASES = {
    # name: (source file in the corpus or text, runner arguments)
    "table_tanh": ("table_tanh.ode", ["--scan", "a=lin(1,4,2000)"]),
    "table_file": ("table_file.ode", ["--scan", "k=lin(0.1,3,2000)"]),
    "table_steps": ("table_steps.ode", ["--scan", "ke=lin(0.05,1,2000)"]),
    "table_cubic": ("table_cubic.ode", ["--scan", "x=lin(-1.5,3.5,2000)"]),
    "kuramoto_sum": ("kuramoto_sum.ode", ["--scan", "k=lin(0,3,1024)"]),
    "array_block": ("array_block.ode", ["--scan", "c=lin(0,1,1024)"]),
    "sets_fast": ("sets.ode", ["--set-name", "fast", "--scan", "b=lin(0,1,1024)"]),
    "clash_names": ("clash_names.ode", ["--scan", "int=lin(0.1,1,1024)"]),
    "big_table": (BIG_TABLE, ["--scan", "k=lin(0.5,2,2048)"]),
    "init_expr": (INIT_EXPR, ["--scan", "a0=lin(-1,1,1024)", "--scan", "w=list(1,2)"]),
    "param_set": (PARAM_SET, ["--scan", "k=lin(0.5,3,2048)"]),
}


def source(name, spec):
    if spec.endswith(".ode"):
        text = open(os.path.join(CORPUS, spec)).read()
        for f in os.listdir(CORPUS):   # its table files, next to the model
            if f.endswith(".tab"):
                work = os.path.join(BUILD, "gpuxpp_%s-gpu" % name)
                os.makedirs(work, exist_ok=True)
                shutil.copy(os.path.join(CORPUS, f), work)
        return text
    return spec


def case(name, spec, args):
    def test():
        runner = build("gpuxpp_" + name, source(name, spec), backend="gpu")
        out = {}
        for backend in ("cpu", "gpu"):
            p = run_raw(runner, "--backend", backend, "--quiet", *args)
            check(p.returncode == 0, "%s --backend %s: exit %d\n%s" % (name, backend, p.returncode, p.stderr))
            out[backend] = Result(p.stdout, p.stderr)
        c, g = out["cpu"], out["gpu"]
        check(list(c.status) == list(g.status), "%s: statuses differ" % name)
        d, where = difference(c, g)
        check(d <= TOL, "%s: CPU and GPU differ by %.3g (%s)" % (name, d, where))
        print("    %s: %d rows, largest relative difference %.2g" % (name, len(c), d))
    test.__doc__ = "%s on CPU and GPU" % name
    return test


if __name__ == "__main__":
    sys.exit(main([(n, case(n, s, a)) for n, (s, a) in CASES.items()]))
