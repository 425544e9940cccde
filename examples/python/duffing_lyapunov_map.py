#!/usr/bin/env python3
"""Duffing oscillator: a Lyapunov map and an isoperiodic diagram over (k, B), from Python.

    python3 examples/python/duffing_lyapunov_map.py [--size small|reduced|full] [-o FILE.png]

models/duffing_map.ode: y1' = y2, y2' = y1 - y1^3 - k y2 + B cos t with `lyapunov 1` (a tangent
vector on the generated Jacobian, no variational equation written by hand) and `period of=y1, y2`
(the period of the Poincaré points, in forcing periods, found in the kernel); RKCK45 at 1e-9.
One scan gives both maps: the largest exponent after the recorded periods (its running average,
the last column) and the period (0: none up to 32).  Sizes: full 512 x 512 (k, B) with 1024 + 64
periods (the default on a GPU; examples/duffing_map.sh draws the same with gnuplot), reduced
64 x 64 (the default on a CPU, about two minutes on 2 cores), small 16 x 16 with 32 + 8 periods
(seconds; what `make test` runs).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _example  # noqa: E402
import numpy as np  # noqa: E402

SIZES = {"full": (512, 1024, 64), "reduced": (64, 1024, 64), "small": (16, 32, 8)}

args, plt = _example.start(__doc__, "duffing_lyapunov_map", SIZES)
m, (n, transient, record) = _example.load("duffing_map.ode", args, SIZES)
k = np.linspace(0.05, 0.45, n)
B = np.linspace(0.05, 0.55, n)
r = m.scan(_example.odegen.grid(k=k, B=B), transient=transient, record=record, fields=["lyap1", "period"],
           backend=args.backend)
print("duffing_map: %d x %d (k, B) x (%d + %d) periods, %.1f s on %s; %s" % (n, n, transient, record, r.seconds,
                                                                            r.device, r.counts))
lyap = r["lyap1"][:, -1].reshape(n, n).T      # rows: B, columns: k (the grid varies B fastest)
period = r["period"][:, -1].reshape(n, n).T

fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 5))
extent = (k[0], k[-1], B[0], B[-1])
im = a1.imshow(lyap, origin="lower", extent=extent, aspect="auto", cmap="seismic", vmin=-0.3, vmax=0.3)
fig.colorbar(im, ax=a1, label="λ1")
a1.set(xlabel="damping k", ylabel="forcing amplitude B", title="largest Lyapunov exponent")
im = a2.imshow(np.where(period > 0, np.minimum(period, 13), np.nan), origin="lower", extent=extent, aspect="auto",
               cmap="tab20", vmin=0.5, vmax=13.5)
a2.set_facecolor("black")                    # no period up to 32 (chaos)
fig.colorbar(im, ax=a2, label="period (forcing periods; 13: more than 12; black: none)")
a2.set(xlabel="damping k", title="isoperiodic diagram")
for a in (a1, a2):   # Melnikov's threshold for a transverse homoclinic tangle (Guckenheimer & Holmes 4.5)
    a.plot(k, 4 * np.cosh(np.pi / 2) / (3 * np.sqrt(2) * np.pi) * k, "--k", lw=1)
    a.set(xlim=(k[0], k[-1]), ylim=(B[0], B[-1]))
fig.suptitle("Duffing oscillator over (k, B), %d x %d" % (n, n))
_example.save(fig, args, "duffing_map")
