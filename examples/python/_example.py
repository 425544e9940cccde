"""What the Python examples share: the package of this checkout, the command line, matplotlib
(headless: they write PNG files), and where the figure goes."""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import odegen  # noqa: E402  (without numpy, odegen says how to get it)


def start(doc, name, sizes):
    """The command line (--size, -o, --backend) and matplotlib's pyplot: (args, plt)."""
    ap = argparse.ArgumentParser(description=doc.strip().split("\n\n")[0])
    ap.add_argument("--size", choices=sorted(sizes), help="default: full on a GPU, reduced on the CPU")
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "examples", "out", "python", name + ".png"),
                    help="the PNG to write (default: %(default)s)")
    ap.add_argument("--backend", default="auto", choices=["auto", "cpu", "gpu"])
    args = ap.parse_args()
    os.environ.setdefault("MPLBACKEND", "Agg")
    plt = odegen.require("matplotlib.pyplot", "python3-matplotlib")
    return args, plt


def load(model, args, sizes):
    """The model of models/MODEL, and the (systems, transient, record) of the chosen size."""
    m = odegen.load(os.path.join(ROOT, "models", model))
    size = args.size or ("full" if m.gpus and args.backend != "cpu" else "reduced")
    return m, sizes[size]


def save(fig, args, tag):
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    fig.savefig(args.output, dpi=150)
    print("%s: figure %s" % (tag, os.path.abspath(args.output)))
