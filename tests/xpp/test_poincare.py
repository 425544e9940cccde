#!/usr/bin/python3
"""XPPAUT's Poincaré maps (issue 20 item 9): `@ poimap=section|max|period`,
`poivar`, `poipln`, `poisgn` make `xppaut FILE -silent` write only the points
of a section (or the extrema of a variable, or the times between crossings)
instead of every output row.  odegen writes the same points: each file of
tests/xpp/poincare/ is run by both, and odegen's rows whose status is `event`
must be XPPAUT's rows, one for one.

How close.  XPPAUT finds a point between two output rows and interpolates
linearly (integrate.c): its points are O(h^2) off (h = dt * nout), and its
`period` column is a difference of output times, up to h off.  odegen locates
the point on the method's continuous extension (to the event tolerance).  So
XPPAUT also runs at h/2 and h/4, and odegen's value must lie within
|X(h) - X(h/4)| + |X(h/2) - X(h/4)| of X(h/4) (X(h/4)'s own error is about a
16th of X(h)'s; the coefficient of h^2 depends on where the point falls
between two output rows, hence two samples of it), plus the print precision
and the event tolerance; a `period` column within h/4 of X(h/4)'s.  The
counts of points must be equal in all four runs.

Run: /usr/bin/python3 tests/xpp/test_poincare.py [name-filter…]
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

FILES = os.path.join(HERE, "poincare")


def xpp_points(path, text):
    outs, _ = tc.run_xppaut(path, text)
    check("output" in outs, "%s: XPPAUT wrote %s" % (path, sorted(outs)))
    return outs["output"]


def case(name):
    path = os.path.join(FILES, name)
    text = open(path).read()
    opt = tc.xpp_options(text)
    h = opt["dt"] * opt["nout"]
    full = xpp_points(path, text)
    half = xpp_points(path, tc.before_done(text) + "\n@ dt=%r\ndone\n" % (opt["dt"] / 2))
    quarter = xpp_points(path, tc.before_done(text) + "\n@ dt=%r, maxstor=%d\ndone\n" % (opt["dt"] / 4, 4 * opt["maxstor"]))
    check(len(full) == len(half) == len(quarter), "%s: XPPAUT wrote %d points at dt, %d at dt/2, %d at dt/4"
          % (name, len(full), len(half), len(quarter)))
    runner = build("poincare_" + re.sub(r"\W", "_", name[:-4]), text, sanitize=False)
    r = run(runner, "--quiet")
    got = r.matrix[r.status == "event"][:, 2:]
    check(len(got) == len(full), "%s: XPPAUT wrote %d points, odegen %d rows with status event (statuses %s)"
          % (name, len(full), len(got), sorted(set(r.status))))
    check(got.shape[1] == full.shape[1], "%s: XPPAUT wrote %d columns, odegen %d" % (name, full.shape[1], got.shape[1]))
    scale = np.max(np.abs(quarter), axis=0, keepdims=True)
    tol = np.abs(full - quarter) + np.abs(half - quarter) + tc.PRINT_REL * np.abs(quarter) + 1e-5 * (1 + scale)
    period = r.header[2] == "poimap_period"
    if period:
        tol[:, 0] = h / 4 + 1e-6
    ratio = np.abs(got - quarter) / tol
    k, j = np.unravel_index(np.argmax(ratio), ratio.shape)
    check(ratio[k, j] <= 1, "%s: %s of point %d: odegen %.10g, XPPAUT %.8g (dt/4), %.8g (dt/2), %.8g (dt), "
          "allowed %.3g" % (name, r.header[2 + j], k + 1, got[k, j], quarter[k, j], half[k, j], full[k, j], tol[k, j]))
    return "%d points x %d columns within %.2f of |X(h) - X(h/4)| + |X(h/2) - X(h/4)|%s" % (
        len(got), got.shape[1], ratio[k, j], " (the period column within h/4)" if period else "")


def main():
    return xppaut.main_per_file(sorted(f for f in os.listdir(FILES) if f.endswith(".ode")), case, "the Poincaré maps")


if __name__ == "__main__":
    sys.exit(main())
