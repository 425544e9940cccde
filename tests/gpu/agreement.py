#!/usr/bin/env python3
"""CPU against GPU for every model in models/: the same nvcc-built runner run
with --backend cpu and --backend gpu on a reduced, non-chaotic version of the
model's scan (short horizons, so that rounding differences — the GPU contracts
a*b+c into FMAs and has its own sin/cos — are not amplified by chaos).
Statuses must match; every recorded value must agree to 1e-11 relative to its
column's scale.  Prints one line per model with the largest difference.
"""
import glob
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import ROOT, build, check, main, run_raw, Result  # noqa: E402

# Reduced scans: what each model's full scan would take minutes for on the CPU.
ARGS = {
    "duffing": ["--scan", "k=lin(0.2,0.3,512)", "--transient", "0", "--recorded", "3"],
    "duffing_rkck45": ["--scan", "k=lin(0.2,0.3,512)", "--transient", "0", "--recorded", "3"],
    "duffing_maxima": ["--scan", "k=lin(0.2,0.3,512)", "--transient", "0", "--recorded", "3"],
    "duffing_lyapunov": ["--scan", "k=lin(0.2,0.3,512)", "--transient", "0", "--recorded", "3"],
    "lorenz": ["--scan", "rho=lin(0,21,2048)"],
    "keller_miksis": ["--scan", "PA1=list(0.5,1.1)", "--scan", "PA2=list(0.7,1.2)", "--scan", "f1=log(20,1000,8)",
                      "--scan", "f2=log(20,1000,8)", "--transient", "0", "--recorded", "3"],
    "valve": ["--scan", "q=lin(0.2,10,512)", "--transient", "0", "--recorded", "3"],
}
TOL = 1e-11


def compare(name):
    text = open(os.path.join(ROOT, "models", name + ".ode")).read()
    runner = build(name, text, backend="gpu")
    args = ARGS.get(name, ["--transient", "0", "--recorded", "2"])
    out = {}
    for backend in ("cpu", "gpu"):
        p = run_raw(runner, "--backend", backend, *args)
        check(p.returncode == 0, "%s --backend %s: exit %d\n%s" % (name, backend, p.returncode, p.stderr))
        out[backend] = Result(p.stdout, p.stderr)
    a, b = out["cpu"], out["gpu"]
    check(len(a) == len(b) and len(a) > 0, "%s: %d rows vs %d" % (name, len(a), len(b)))
    check((a.status == b.status).all(), "%s: statuses differ in %d rows" % (name, (a.status != b.status).sum()))
    worst, where = 0.0, ""
    for col in a.header[2:-1]:
        x, y = a[col], b[col]
        scale = max(np.sqrt(np.mean(x * x)), 1e-300)
        d = np.abs(x - y) / np.maximum(np.maximum(np.abs(x), np.abs(y)), scale)
        i = int(np.argmax(d))
        if d[i] > worst:
            worst, where = float(d[i]), "%s row %d: %.17g vs %.17g" % (col, i, x[i], y[i])
    print("    %-18s %6d rows  largest relative difference %.2e  (%s)" % (name, len(a), worst, where), flush=True)
    check(worst <= TOL, "%s: CPU and GPU differ by %.3g > %g (%s)" % (name, worst, TOL, where))


TESTS = [("agreement_" + os.path.basename(p)[:-4], (lambda n: lambda: compare(n))(os.path.basename(p)[:-4]))
         for p in sorted(glob.glob(os.path.join(ROOT, "models", "*.ode")))]

if __name__ == "__main__":
    sys.exit(main(TESTS))
