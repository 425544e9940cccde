#!/usr/bin/env python3
"""Issue 2's acceptance run: models/duffing.ode at the paper's size, 30720
values of k in [0.2, 0.3], 1024 transient + 32 recorded periods of 2 pi, on
the GPU; then the same k values (every 32nd, 960 systems) on the CPU of the
same machine, and both compared system by system.

Where the attractor is periodic the two agree to rounding; where it is
chaotic, differences of one rounding error grow to the attractor's size over
1056 periods, so there only the statistics agree.  A system counts as
periodic when its 32 recorded Poincare points repeat with a period of at
most 16 (to 1e-7), on both sides.  Duffing is multistable: after a chaotic
transient the two runs may settle on different coexisting orbits (the left
and the right well); where both found the same orbit (the same set of
points to 1e-6) the points agree to rounding, 1e-9, except near a
bifurcation, where an orbit attracts so weakly that 1056 periods do not wash
out a rounding difference: at least 90 % of them must agree to 1e-9.  The chaotic systems must
have the same spread of points (mean standard deviation within 5 %).
Prints both times and the counts.
"""
import os
import re
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import ROOT, Result, build, run_raw  # noqa: E402


def timed(runner, *args):
    t0 = time.time()
    p = run_raw(runner, *args)
    if p.returncode != 0:
        sys.exit("duffing run failed: %s" % p.stderr)
    return Result(p.stdout, p.stderr), time.time() - t0, p.stderr.strip().splitlines()[-1]


def main():
    text = open(os.path.join(ROOT, "models", "duffing.ode")).read()
    runner = build("duffing_full", text, backend="gpu")
    gpu, tg, sg_line = timed(runner, "--backend", "gpu", "--fields", "k,y1,y2")
    n = len(gpu) // 32
    print("GPU: %s  (wall %.2f s with the CSV)" % (sg_line, tg))
    pick = np.arange(0, n, 32)
    ks = gpu["k"].reshape(n, 32)[pick, 0]
    klist = "k=list(%s)" % ",".join(repr(float(k)) for k in ks)
    cpu, tc, sc = timed(runner, "--backend", "cpu", "--scan", klist, "--fields", "k,y1,y2")
    print("CPU: %s  (wall %.2f s)" % (sc, tc))
    y_gpu = np.stack([gpu["y1"], gpu["y2"]], 1).reshape(n, 32, 2)[pick]
    y_cpu = np.stack([cpu["y1"], cpu["y2"]], 1).reshape(len(pick), 32, 2)
    d = np.abs(y_gpu - y_cpu).max(axis=(1, 2))

    def period(y):
        for p in range(1, 17):
            if np.all(np.abs(y[p:] - y[:-p]) < 1e-7):
                return p
        return 0
    pg = np.array([period(y_gpu[i, :, 0]) for i in range(len(pick))])
    pc = np.array([period(y_cpu[i, :, 0]) for i in range(len(pick))])
    periodic = (pg > 0) & (pc > 0)
    same_orbit = np.array([periodic[i] and pg[i] == pc[i] and
                           np.max(np.abs(np.sort(y_gpu[i, :, 0]) - np.sort(y_cpu[i, :, 0]))) < 1e-6
                           for i in range(len(pick))])
    ds = np.array([np.max(np.abs(np.sort(y_gpu[i, :, 0]) - np.sort(y_cpu[i, :, 0]))) for i in range(len(pick))])
    bad = same_orbit & (ds >= 1e-9)
    print("systems compared: %d; periodic on both: %d; on the same orbit: %d, agreeing to 1e-9: %d "
          "(largest difference %.2e); on another coexisting orbit: %d; chaotic: %d"
          % (len(pick), periodic.sum(), same_orbit.sum(), (same_orbit & ~bad).sum(),
             ds[same_orbit].max() if same_orbit.any() else 0, (periodic & ~same_orbit).sum(),
             (~periodic).sum()))
    ok = same_orbit.sum() > 0 and (same_orbit & ~bad).sum() >= 0.9 * same_orbit.sum()
    if (~periodic).any():
        sg = y_gpu[~periodic, :, 0].std(axis=1).mean()
        sc = y_cpu[~periodic, :, 0].std(axis=1).mean()
        print("chaotic systems: mean std of the 32 recorded y1, GPU %.4f vs CPU %.4f" % (sg, sc))
        ok = ok and abs(sg - sc) <= 0.05 * max(sg, sc)
    m = re.search(r"steps, ([0-9.e+-]+) s[ ,]", sg_line)
    print("30720 systems x 1056 periods on the GPU: %s s (the runner's summary)" % (m.group(1) if m else "?"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
