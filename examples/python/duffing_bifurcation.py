#!/usr/bin/env python3
"""Duffing oscillator: the bifurcation diagram of the paper's Duffing1 figure, from Python.

    python3 examples/python/duffing_bifurcation.py [--size small|reduced|full] [-o FILE.png]

y1' = y2, y2' = y1 - y1^3 - k y2 + B cos t (models/duffing.ode: B = 0.3, from y1 = y2 = 0,
RK4 with dt = 0.01); the state is sampled once per forcing period 2 pi, after transient periods
that are discarded, for every k in [0.2, 0.3].  Sizes: full is the paper's (30720 values of k,
1024 + 32 periods: the default on a GPU), reduced 4096 values of k (the default on a CPU, about
a minute on 2 cores), small 128 values and 32 + 8 periods (seconds; what `make test` runs).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _example  # noqa: E402
import numpy as np  # noqa: E402

SIZES = {"full": (30720, 1024, 32), "reduced": (4096, 1024, 32), "small": (128, 32, 8)}

args, plt = _example.start(__doc__, "duffing_bifurcation", SIZES)
m, (n, transient, record) = _example.load("duffing.ode", args, SIZES)
k = np.linspace(0.2, 0.3, n)
r = m.scan({"k": k}, transient=transient, record=record, fields=["y1"], backend=args.backend)
print("duffing: %d values of k x (%d + %d) periods, %.1f s on %s; %s" % (n, transient, record, r.seconds, r.device,
                                                                         r.counts))

fig, ax = plt.subplots(figsize=(8, 5))
ax.plot(np.repeat(k, record), r["y1"].ravel(), ",k")   # one point per k per recorded period
ax.set(xlabel="k", ylabel="y1 (every period 2π)", xlim=(0.2, 0.3),
       title="Duffing oscillator, B = 0.3: Poincaré section (%d values of k)" % n)
_example.save(fig, args, "duffing")
