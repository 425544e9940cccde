#!/usr/bin/python3
"""XPPAUT's own stochastic files against `xppaut -silent`, in distribution
(issue 22, item 2): XPPAUT runs each file once per seed (`@ seed=K`, its
option) for many seeds, odegen runs the same file as 20000 systems (a scan of
a parameter the test adds, so that each system draws its own noise); at the
final time, every compared variable's two samples must agree: a two-sample
Kolmogorov-Smirnov test (p > 1e-3) and the difference of the means within 4
standard errors (for a markov variable: the occupation of each state).  The
values cannot agree one by one: the two programs draw different numbers.

The files are the real ones of the corpus of tests/xpp/test_real.py
(XPPAUT's repository: ode/, canonical/, help/odes/; a NIH lab's model), read
from $ODEGEN_XPP_REAL or ../shared/xpp_real; without them, or without
xppaut, the test says so and passes.  Long runs are made short (total=) on
both sides, as test_real.py does.

Run: /usr/bin/python3 tests/noise/test_xpp_noise.py [file-filter…]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "xpp"))
from odegen_test import ROOT, Failure, build, check, run  # noqa: E402
import test_corpus as tc  # noqa: E402
from test_real import corpus_root  # noqa: E402

XPP_RUNS = 300       # XPPAUT runs (seeds) per file
SYSTEMS = 20000      # odegen's systems per file

# (corpus path, total: both sides integrate to it, variables compared: None for every state)
CASES = [
    ("xppaut/ode/fhn_noise.ode", 20, None),                     # wiener, euler
    ("xppaut/canonical/ratchet.ode", 100, None),                # wiener and a markov chain, euler
    ("xppaut/help/odes/ratchet.ode", 100, None),
    ("xppaut/ode/ml1.ode", 100, None),                          # `w nz`: wiener by its first letter
    ("xppaut/ode/kepler.ode", None, None),                      # a markov chain with a state's rate, rk4
    ("xppaut/ode/nthet.ode", 10, ["x0", "x50", "s0", "s99"]),   # 100 Wiener processes, arrays
    ("sherman/Models/Subspace/SingleCells.ode", 1000, ["v", "s"]),   # a channel-noise model of a NIH lab
]


def markov_names(text):
    return [m.group(1).lower() for m in re.finditer(r"(?im)^\s*ma\w*\s+(\w+)\s+\d+", text)]


def xppaut_finals(path, text, names):
    """The last row of output.dat for seeds 1 … XPP_RUNS: {name: values}."""
    finals = []
    fname = os.path.basename(path)
    with tempfile.TemporaryDirectory() as tmp:
        for s in tc.sidecars(path):
            shutil.copy(s, tmp)
        for seed in range(1, XPP_RUNS + 1):
            with open(os.path.join(tmp, fname), "w") as f:
                f.write(tc.before_done(text) + "\n@ seed=%d\ndone\n" % seed)
            out = os.path.join(tmp, "output.dat")
            if os.path.exists(out):
                os.remove(out)
            subprocess.run([tc.XPPAUT, fname, "-silent"], cwd=tmp, timeout=120, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            check(os.path.exists(out) and os.path.getsize(out) > 0, "xppaut wrote no output for %s (seed %d)"
                  % (fname, seed))
            finals.append(np.loadtxt(out, ndmin=2)[-1])
    finals = np.array(finals)
    check(finals.shape[1] >= 1 + len(names), "%s: XPPAUT's rows have %d columns, %d names" % (fname, finals.shape[1],
                                                                                            len(names)))
    return {name: finals[:, 1 + k] for k, name in enumerate(names)}


def snapped(ode, xpp):
    """odegen's values, each replaced by XPPAUT's nearest value where they agree to 1e-6
    (relative): XPPAUT keeps its data in single precision and writes 8 digits, so a value that
    many runs share (an atom: here the systems whose markov chain never jumped, a third of
    kepler.ode's) differs from odegen's double in the 8th digit, and a two-sample test would
    see two atoms where there is one."""
    ref = np.unique(xpp)
    k = np.clip(np.searchsorted(ref, ode), 1, len(ref) - 1) if len(ref) > 1 else np.zeros(len(ode), int)
    lo, hi = ref[k - 1] if len(ref) > 1 else ref[k], ref[k]
    near = np.where(np.abs(ode - lo) <= np.abs(ode - hi), lo, hi)
    return np.where(np.abs(ode - near) <= 1e-6 * np.maximum(1.0, np.abs(near)), near, ode)


def compare(label, name, xpp, ode, discrete):
    from scipy.stats import ks_2samp
    if discrete:   # a markov variable: the occupation of each state
        for v in sorted(set(np.unique(xpp)) | set(np.unique(ode))):
            p, q = float(np.mean(xpp == v)), float(np.mean(ode == v))
            se = np.sqrt(p * (1 - p) / len(xpp) + q * (1 - q) / len(ode)) or 1e-12
            print("    %-26s P(%s=%g): xppaut %.3f, odegen %.3f (%+.1f se)" % (label, name, v, p, q, (q - p) / se),
                  flush=True)
            check(abs(q - p) <= 4 * se, "%s: P(%s=%g) xppaut %.4f, odegen %.4f: %.1f standard errors apart"
                  % (label, name, v, p, q, abs(q - p) / se))
        return
    ode = snapped(np.asarray(ode, float), np.asarray(xpp, float))
    se = np.sqrt(np.var(xpp, ddof=1) / len(xpp) + np.var(ode, ddof=1) / len(ode)) or 1e-12
    d = float(np.mean(ode) - np.mean(xpp))
    pvalue = float(ks_2samp(xpp, ode).pvalue)
    print("    %-26s %-5s mean xppaut %.5g, odegen %.5g (%+.1f se); sd %.4g, %.4g; KS p = %.3f"
          % (label, name, np.mean(xpp), np.mean(ode), d / se, np.std(xpp), np.std(ode), pvalue), flush=True)
    check(abs(d) <= 4 * se, "%s: the means of %s differ by %.1f standard errors" % (label, name, abs(d) / se))
    check(pvalue > 1e-3, "%s: %s's distributions differ (KS p = %.2g)" % (label, name, pvalue))


def case(root, rel, total, wanted):
    path = os.path.join(root, rel)
    label = rel.split("/", 1)[1]
    raw = open(path, errors="replace").read()
    text = tc.with_total(tc.normalized(raw), total)
    states, _ = tc.model_names(path)
    markov = markov_names(raw)
    # XPPAUT's columns: t, the ODEs' states, then the markov variables (form_ode.c), then aux
    xpp_order = [s for s in states if s.lower() not in markov] + [s for s in states if s.lower() in markov]
    xpp = xppaut_finals(path, text, xpp_order)
    odegen_text = tc.before_done(text) + (
        "\n# appended by tests/noise/test_xpp_noise.py: %d copies, each with its own noise\n"
        "par odegen_copy=0\nscan odegen_copy = lin(0, 1, %d)\nrecord %s\ndone\n" % (SYSTEMS, SYSTEMS, ", ".join(states)))
    runner = build("xppnoise_" + re.sub(r"[^A-Za-z0-9_]", "_", label[:-4]), odegen_text, sanitize=False)
    r = run(runner, "--quiet")
    check(np.all(r.status == "finished"), "%s: statuses %s" % (label, sorted(set(r.status))))
    for name in (wanted or states):
        compare(label, name, xpp[name], r[name], name.lower() in markov)


def main():
    root = corpus_root()
    if not tc.XPPAUT or not root:
        print("tests/noise/test_xpp_noise.py: skipped (%s)" % ("no xppaut" if not tc.XPPAUT else
                                                            "no corpus: $ODEGEN_XPP_REAL or ../shared/xpp_real"))
        return 0
    only = sys.argv[1:]
    failed = 0
    for rel, total, wanted in CASES:
        if only and not any(o in rel for o in only):
            continue
        if not os.path.exists(os.path.join(root, rel)):
            print("missing  %s (not in the corpus at %s)" % (rel, root))
            failed += 1
            continue
        try:
            case(root, rel, total, wanted)
            print("ok       %s: %d XPPAUT runs and %d odegen systems agree in distribution" % (rel, XPP_RUNS, SYSTEMS),
                  flush=True)
        except Failure as e:
            failed += 1
            print("FAILED   %s\n         %s" % (rel, str(e).replace("\n", "\n         ")), flush=True)
    print("%d failed" % failed if failed else "all passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
