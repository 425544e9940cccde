#!/usr/bin/python3
"""Sums whose bounds are parameters and shifts whose offsets are parameters
or tables (issue 20 item 6): `sum(1,n)of(shift(x1,i'-1))`, `shift(x1,k)`,
`shift(x0,nb([j]))`.  XPPAUT evaluates the bounds and the offset as the model
runs (parserslow2.c: SUMSYM takes (int) of each bound, do_shift (int) of the
offset); odegen computes them for each system (a loop over its bounds, an
element read by index, check/arrays.c).  Each file of tests/xpp/sums/ is run
by XPPAUT with its parameters as written and with other values written into
the file, and by odegen once built, with those values given by --set and as
one system of a scan: every row must agree with XPPAUT's to its print
tolerance.  A value that makes the model read beyond the names of its kind
(XPPAUT reads whatever is stored there) ends odegen's system with status
nan, never a number.

Run: /usr/bin/python3 tests/xpp/test_sum_params.py
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_table_params import built, compare_values  # noqa: E402  (it puts tests/lib on the path)
import xppaut  # noqa: E402
from odegen_test import check, run  # noqa: E402

FILES = os.path.join(HERE, "sums")
# per file: other values of its parameters (compared with XPPAUT), and values
# that reach beyond the names, with the aux that then reads NaN (None: a
# state's equation does, and the system ends with status nan)
VALUES = {
    "sum_bounds.ode": ([{"n": 8, "k": 1}, {"n": 3, "k": 4, "m": 0}, {"n": 0}],
                       [({"n": 9}, None), ({"k": -1}, "sh"), ({"m": 6}, "sh")]),
    "sum_bounds_loop.ode": ([{"n": 79, "k": 3}, {"n": 10, "k": 79}], [({"n": 81}, None), ({"k": 80}, "f")]),
}


def sets(values):
    return [a for k, v in values.items() for a in ("--set", "%s=%r" % (k, v))]


def case(name):
    path = os.path.join(FILES, name)
    text, opt, names, runner = built(path, "sums_")
    compared, beyond = VALUES[name]
    out = compare_values(name, path, text, runner, names, opt, compared)
    for values, column in beyond:
        r = run(runner, "--quiet", *sets(values))
        if column is None:
            check(set(r.status) == {"nan"}, "%s %s: reads beyond the names, and odegen's statuses are %s"
                  % (name, values, sorted(set(r.status))))
        else:
            got = r.matrix[:, 2 + names.index(column)]
            check(np.all(np.isnan(got)) and set(r.status) == {"finished"},
                  "%s %s: aux %s reads beyond the names, and odegen wrote %s (statuses %s)"
                  % (name, values, column, got[:3], sorted(set(r.status))))
    out.append("beyond the names: %s" % ", ".join("%s %s" % (v, "status nan" if c is None else c + " NaN")
                                                   for v, c in beyond))
    return "; ".join(out)


def main():
    return xppaut.main_per_file(sorted(VALUES), case, "sums and shifts of parameters")


if __name__ == "__main__":
    sys.exit(main())
