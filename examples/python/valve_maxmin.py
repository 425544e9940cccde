#!/usr/bin/env python3
"""Pressure relief valve with impacts: the max/min diagram of the paper's valve figure, from Python.

    python3 examples/python/valve_maxmin.py [--size small|reduced|full] [-o FILE.png]

models/valve.ode: every integration runs from a maximum of the valve's displacement y1 to the
next (an event stops it); accessories keep the largest and smallest y1 of the integration;
an impact at y1 = 0 reverses the velocity with restitution 0.8 (RKCK45, tolerances 1e-10).
Black: maximum, red: minimum, for every flow rate q in [0.2, 10].  Sizes: full is the paper's
(30720 values of q, 1024 + 32 integrations: the default on a GPU), reduced 1024 values of q (the
default on a CPU, under a minute on 2 cores), small 48 values and 32 + 8 integrations (seconds).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _example  # noqa: E402
import numpy as np  # noqa: E402

SIZES = {"full": (30720, 1024, 32), "reduced": (1024, 1024, 32), "small": (48, 32, 8)}

args, plt = _example.start(__doc__, "valve_maxmin", SIZES)
m, (n, transient, record) = _example.load("valve.ode", args, SIZES)
q = np.linspace(0.2, 10, n)
r = m.scan({"q": q}, transient=transient, record=record, fields=["ymax", "ymin"], backend=args.backend)
print("valve: %d values of q x (%d + %d) integrations, %.1f s on %s; %s" % (n, transient, record, r.seconds,
                                                                           r.device, r.counts))

fig, ax = plt.subplots(figsize=(8, 5))
qq = np.repeat(q, record)
ax.plot(qq, r["ymax"].ravel(), ",k", label="max y1")
ax.plot(qq, r["ymin"].ravel(), ",r", label="min y1")
ax.set(xlabel="q", ylabel="y1 per integration (max, min)", xlim=(0, 10),
       title="Pressure relief valve: maximum (black) and minimum (red) of y1 (%d values of q)" % n)
_example.save(fig, args, "valve")
