"""XPPAUT as the reference: run a file by `xppaut FILE -silent`, read its
output.dat, and compare odegen's rows to it within what XPPAUT's printed
digits allow (tests/xpp/test_xpp.py's docstring explains the tolerance).

XPPAUT stores and prints each value in single precision with 8 significant
digits, so a printed value x carries an error of at most |x| (2^-24 + 5e-8);
a column's tolerance is that plus 64 double ulps of its largest magnitude
(the two programs evaluate the same formulas in a different order).
"""
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np

from odegen_test import Failure, check

XPPAUT = shutil.which("xppaut")
PRINT_REL = 2.0 ** -24 + 5e-8          # single precision, then %.8g
ULP = 2.0 ** -52


def logical_lines(text):
    """The file's statements: continuations joined, comments dropped."""
    text = re.sub(r"\\[ \t]*\n", " ", text)
    out = []
    for line in text.split("\n"):
        if line.lstrip().startswith('"'):
            continue
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def read_model(path):
    """(state names in file order, aux names, the @ options in lower case) of a
    plain XPPAUT file: x' = …, dx/dt = …, x(t+1) = … and arrays of maps
    x[1..6](t+1) = … (their states x1 … x6)."""
    states, aux, opts = [], [], {}
    for line in logical_lines(open(path).read()):
        m = re.match(r"^([A-Za-z_]\w*)\[(\d+)\.\.(\d+)\]\(t\+1\)=", line.replace(" ", ""), re.I)
        if m:
            states += ["%s%d" % (m.group(1), j) for j in range(int(m.group(2)), int(m.group(3)) + 1)]
            continue
        m = (re.match(r"^([A-Za-z_]\w*)\(t\+1\)\s*=", line.replace(" ", ""), re.I)
             or re.match(r"^([A-Za-z_]\w*)'\s*=", line) or re.match(r"^d([A-Za-z_]\w*)/dt\s*=", line))
        if m:
            states.append(m.group(1))
            continue
        m = re.match(r"^aux\s+([A-Za-z_]\w*)\s*=", line, re.I)
        if m:
            aux.append(m.group(1))
            continue
        if line.startswith("@"):
            for k, v in re.findall(r"(\w+)\s*=\s*([^,\s]+)", line[1:]):
                opts[k.lower()] = v
    return states, aux, opts


def run_xppaut(path, text=None, timeout=60):
    """output.dat of `xppaut FILE -silent`, as an array (rows × columns); with
    TEXT, that text run under FILE's name instead of FILE's own."""
    with tempfile.TemporaryDirectory() as tmp:
        if text is None:
            shutil.copy(path, tmp)
        else:
            with open(os.path.join(tmp, os.path.basename(path)), "w") as f:
                f.write(text)
        p = subprocess.run([XPPAUT, os.path.basename(path), "-silent"], cwd=tmp, timeout=timeout,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace")
        out = os.path.join(tmp, "output.dat")
        # xppaut exits 0 even when it could not read the file: the output is the proof
        if not os.path.exists(out) or os.path.getsize(out) == 0:
            raise Failure("xppaut wrote no output.dat for %s:\n%s" % (path, p.stdout[-2000:]))
        return np.loadtxt(out, ndmin=2)


def tolerance(ref):
    """Per value: the print bound plus 64 ulps of the column's magnitude."""
    scale = np.max(np.abs(ref), axis=0, keepdims=True)
    return np.abs(ref) * PRINT_REL + 64 * ULP * scale + 1e-300


def worst(label, names, got, ref, tol):
    """The largest error relative to its tolerance, and a message about it."""
    ratio = np.abs(got - ref) / tol
    k, j = np.unravel_index(np.argmax(ratio), ratio.shape)
    return ratio[k, j], "%s: %s at row %d (t=%.8g): odegen %.17g, XPPAUT %.8g, error %.3g, tolerance %.3g" % (
        label, names[j], k + 1, ref[k, 0], got[k, j], ref[k, j], abs(got[k, j] - ref[k, j]), tol[k, j])


def agree(label, names, got, ref, tol=None):
    """Checks that odegen's rows GOT are XPPAUT's rows REF (the same shape; columns
    NAMES, t first) within TOL (default: the print tolerance); returns the largest
    error relative to it."""
    check(got.shape == ref.shape, "%s: XPPAUT %s rows x cols, odegen %s" % (label, ref.shape, got.shape))
    r, msg = worst(label, names, got, ref, tolerance(ref) if tol is None else tol)
    check(r <= 1, msg)
    return r


def main_per_file(names, case, what):
    """Runs case(name) for each file name as a test of its own (odegen_test.main),
    printing what each returns (how close it came); says so and passes without
    xppaut."""
    if not XPPAUT:
        print("xppaut not found (Debian package xppaut): %s are not compared" % what)
        return 0
    from odegen_test import main

    def checked(name):
        def test():
            print("        %s: %s" % (name, case(name)), flush=True)
        return test
    return main([(name, checked(name)) for name in names])
