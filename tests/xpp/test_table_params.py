#!/usr/bin/python3
"""Tables whose formula reads a parameter, per system (issue 20 item 6):
`table f % NPTS XLO XHI FORMULA` with parameters in FORMULA.  XPPAUT computes
the table again when a parameter changes; odegen computes each call for its
system (check/param_tables.c).  Each file of tests/xpp/tables/ is run by
XPPAUT with its parameters as written and with other values written into
the file, and by odegen once built, with those values given by --set and by
a scan: every row must agree with XPPAUT's to its print tolerance (the
states go through the table's range, below it and above it, where the table
extrapolates from its end segments).

Run: /usr/bin/python3 tests/xpp/test_table_params.py
"""
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_corpus as tc  # noqa: E402
import xppaut  # noqa: E402
from odegen_test import build, check, run  # noqa: E402

FILES = os.path.join(HERE, "tables")
# other values of the parameters the tables read, per file
VALUES = {"table_of_parameters.ode": [{"a": 0.5, "b": -0.1}, {"a": 2.0, "b": 0.35}]}


def with_values(text, values):
    """The file with `par NAME=VALUE` written for each of values (XPPAUT's run)."""
    for name, v in values.items():
        text, n = re.subn(r"(?m)(\b%s=)[-+.\deE]+" % name, r"\g<1>%r" % v, text, count=1)
        check(n == 1, "no 'par %s=' to change" % name)
    return text


def built(path, prefix):
    """(text, XPPAUT's options, column names, runner) of the file: its odegen
    variant with one integration per XPPAUT output row (test_corpus.py)."""
    text = open(path).read()
    opt = tc.xpp_options(text)
    states, aux = tc.model_names(path)
    window = opt["dt"] * opt["nout"]
    runner = build(prefix + re.sub(r"\W", "_", os.path.basename(path)[:-4]),
                   tc.odegen_variant(text, states, aux, window, tc.xpp_rows(opt)), sanitize=False)
    return text, opt, ["t"] + states + aux, runner


def case(name):
    path = os.path.join(FILES, name)
    text, opt, names, runner = built(path, "tables_")
    return "; ".join(compare_values(name, path, text, runner, names, opt, VALUES[name]))


def compare_values(name, path, text, runner, names, opt, other_values):
    """The file as written and with each of other_values ({parameter: value}):
    XPPAUT with the values written into the file, against the runner with
    them given by --set, and as system 1 of a scan (the same bits); the
    comparisons' summaries."""
    out = []
    for values in [{}] + other_values:
        xpp = tc.run_xppaut(path, with_values(text, values))[0]["output"]
        sets = [a for k, v in values.items() for a in ("--set", "%s=%r" % (k, v))]
        r = run(runner, "--quiet", *sets)
        out.append(tc.compare_rows("%s %s" % (name, values or "as written"), names, xpp, r.matrix[:, 2:], r.status,
                                   opt, {}))
        if values:  # the same values as one system of a scan of two (the other: the file's)
            k, v = next(iter(values.items()))
            default = float(re.search(r"\b%s=([-+.\deE]+)" % k, text).group(1))
            rest = [a for kk, vv in list(values.items())[1:] for a in ("--set", "%s=%r" % (kk, vv))]
            s = run(runner, "--quiet", "--scan", "%s=list(%r,%r)" % (k, default, v), *rest)
            mine = s.matrix[s.matrix[:, 0] == 1][:, 2:]
            check(np.array_equal(mine, r.matrix[:, 2:]), "%s: system 1 of a scan of %s differs from --set %s"
                  % (name, k, values))
    return out


def main():
    return xppaut.main_per_file(sorted(VALUES), case, "tables of parameters")


if __name__ == "__main__":
    sys.exit(main())
