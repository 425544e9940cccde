#!/usr/bin/env python3
"""The figures of examples/basins.sh and examples/continuation.sh, from what
they leave in OUT (so they can be drawn on another machine than the run's):

  plot_attractors.py basins OUT --grid N [--range x0,x1,y0,y1]
      OUT/basins.labels (one label per system, the last scan line fastest) as
      an image, one colour per label (escaped -1 and failed 0 in grey and
      black), the attractors' points (OUT/basins.attractors.csv) marked, the
      basin measures (OUT/basins.basins.csv) in the title: OUT/basins.png.
  plot_attractors.py continuation OUT --param NAME [--mark v1,v2,...]
      each label's basin fraction against the parameter, with its standard
      error (OUT/continuation.attractors.csv), vertical lines at the --mark
      values (e.g. the analytic saddle-nodes): OUT/continuation.png.

Needs numpy and matplotlib (Debian: python3-numpy python3-matplotlib).
"""
import argparse
import csv
import os
import sys


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def colour_of(label):
    """A label's colour: fixed by the label, so the same from run to run."""
    palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"]
    if label == -1:
        return "#b0b0b0"
    if label == 0:
        return "#000000"
    return palette[(label - 1) % len(palette)]


def basins(a, plt, np):
    from matplotlib.colors import ListedColormap
    labels = np.loadtxt(os.path.join(a.out, "basins.labels"), dtype=np.int64)
    n = a.grid
    if labels.size != n * n:
        sys.exit("plot_attractors.py: %d labels, not %d x %d" % (labels.size, n, n))
    grid = labels.reshape(n, n)   # [x index, y index]: the last scan line (y) fastest
    top = int(grid.max())
    cmap = ListedColormap([colour_of(k) for k in range(-1, top + 1)])
    x0, x1, y0, y1 = a.range
    fig, ax = plt.subplots(figsize=(6.4, 6.4))
    ax.imshow(grid.T, origin="lower", extent=(x0, x1, y0, y1), cmap=cmap, vmin=-1.5, vmax=top + 0.5,
              interpolation="nearest")
    table = rows(os.path.join(a.out, "basins.attractors.csv"))
    q = [k[len("point_"):] for k in table[0] if k.startswith("point_")]
    for r in table:
        lab = int(r["label"])
        if lab > 0 and int(r["systems"]) > 0:
            saddle = r["kind"] == "unstable"   # not an attractor: systems that started on a saddle's stable manifold
            ax.plot(float(r["point_" + q[0]]), float(r["point_" + q[1]]), "x" if saddle else "o", color="white",
                    mec="black", ms=7)
            ax.annotate("%d: %s" % (lab, "saddle" if saddle else "%.3f" % float(r["fraction"])),
                        (float(r["point_" + q[0]]), float(r["point_" + q[1]])),
                        textcoords="offset points", xytext=(6, 6), color="white", fontsize=9)
    title = a.title or "basins"
    bpath = os.path.join(a.out, "basins.basins.csv")
    if os.path.exists(bpath):
        b = rows(bpath)[0]
        extra = []
        if b.get("boundary_basin_entropy") not in (None, "", "nan"):
            extra.append("S_bb = %.3f" % float(b["boundary_basin_entropy"]))
        if b.get("uncertainty_exponent") not in (None, "", "nan"):
            extra.append("α = %.3f ± %.3f" % (float(b["uncertainty_exponent"]), float(b["uncertainty_exponent_err"])))
        title += "\n" + ", ".join(extra)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(a.xlabel)
    ax.set_ylabel(a.ylabel)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "basins.png"), dpi=110)


def continuation(a, plt, np):
    table = rows(os.path.join(a.out, "continuation.attractors.csv"))
    p = a.param
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    labels = sorted({int(r["label"]) for r in table if int(r["label"]) > 0})
    for lab in labels:
        mine = [r for r in table if int(r["label"]) == lab and int(r["systems"]) > 0]
        x = np.array([float(r[p]) for r in mine])
        f = np.array([float(r["fraction"]) for r in mine])
        e = np.array([float(r["fraction_err"]) for r in mine])
        kinds = sorted({r["kind"] for r in mine})
        ax.errorbar(x, f, yerr=e, fmt=".-", ms=3, lw=1, color=colour_of(lab), capsize=0,
                    label="attractor %d (%s)" % (lab, ", ".join(kinds)))
    for v in a.mark:
        ax.axvline(v, color="grey", lw=0.8, ls="--")
    ax.set_xlabel(p)
    ax.set_ylabel("basin fraction")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=8, loc="center right")
    ax.set_title(a.title or "basin fractions along %s" % p, fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "continuation.png"), dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("basins", "continuation"))
    ap.add_argument("out")
    ap.add_argument("--grid", type=int, default=0)
    ap.add_argument("--range", default="-2,2,-2,2", type=lambda s: [float(v) for v in s.split(",")])
    ap.add_argument("--param", default="F")
    ap.add_argument("--mark", default="", type=lambda s: [float(v) for v in s.split(",") if v])
    ap.add_argument("--xlabel", default="x(0)")
    ap.add_argument("--ylabel", default="y(0)")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    try:
        import numpy as np
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_attractors.py: the figure needs numpy and matplotlib (sudo apt-get install python3-numpy "
                 "python3-matplotlib); the data stays in %s: draw it later with the same command" % a.out)
    (basins if a.what == "basins" else continuation)(a, plt, np)
    print("plot_attractors.py: %s" % os.path.join(a.out, a.what + ".png"), file=sys.stderr)


if __name__ == "__main__":
    main()
