#!/usr/bin/env python3
"""Duffing oscillator: the bifurcation diagram of the paper's Duffing1 figure, from Python.

    python3 examples/python/duffing_bifurcation.py [--size small|reduced|full] [-o FILE.png]

y1' = y2, y2' = y1 - y1^3 - k y2 + B cos t (models/duffing.ode: B = 0.3, from y1 = y2 = 0,
RK4 with dt = 0.01); the state is sampled once per forcing period 2 pi, after transient periods
that are discarded, for every k in [0.2, 0.3].  Sizes: full is the paper's (30720 values of k,
1024 + 32 periods: the default on a GPU), reduced 4096 values of k (the default on a CPU, about
a minute on 2 cores), small 128 values and 32 + 8 periods (seconds; what `make test` runs).
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import odegen  # noqa: E402  (needs numpy: odegen says how to get it)
import numpy as np  # noqa: E402

SIZES = {"full": (30720, 1024, 32), "reduced": (4096, 1024, 32), "small": (128, 32, 8)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", choices=sorted(SIZES), help="default: full on a GPU, reduced on the CPU")
    ap.add_argument("-o", "--output", default=os.path.join(HERE, "..", "out", "python", "duffing_bifurcation.png"))
    ap.add_argument("--backend", default="auto", choices=["auto", "cpu", "gpu"])
    args = ap.parse_args()
    plt = odegen.require("matplotlib.pyplot", "python3-matplotlib")
    plt.switch_backend("Agg")

    m = odegen.load(os.path.join(HERE, "..", "..", "models", "duffing.ode"))
    size = args.size or ("full" if m.gpus and args.backend != "cpu" else "reduced")
    n, transient, record = SIZES[size]
    k = np.linspace(0.2, 0.3, n)
    r = m.scan({"k": k}, transient=transient, record=record, fields=["y1"], backend=args.backend)
    print("duffing: %d values of k x (%d + %d) periods, %.1f s on %s; %s"
          % (n, transient, record, r.seconds, r.device, r.counts))

    fig, ax = plt.subplots(figsize=(8, 5))
    ax.plot(np.repeat(k, record), r["y1"].ravel(), ",k")   # one point per k per recorded period
    ax.set(xlabel="k", ylabel="y1 (every period 2π)", xlim=(0.2, 0.3),
           title="Duffing oscillator, B = 0.3: Poincaré section (%d values of k)" % n)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    fig.savefig(args.output, dpi=150)
    print("duffing: figure %s" % os.path.relpath(args.output))


if __name__ == "__main__":
    main()
