#!/usr/bin/env python3
"""`lyapunov` and `period` on the GPU against the CPU, on the same nvcc-built
runner (models/duffing_map.ode and models/valve_lyapunov.ode), double and
float:

- Duffing over a 32 x 32 (k, B) grid (256 transient, 64 recorded periods):
  where both sides find the same periodic orbit (lyap1 < -0.01, the same
  period, the same last Poincaré point to 1e-3), lyap1 agrees to 1e-6 (double; 1e-3 float)
  on 95% of the cells (90% in float; the rest: chaotic transients that end on the orbit with the tangent
  vector turned another way, a finite-time effect); the periods are the
  same on 99% of the periodic cells in double (the rest: coexisting orbits,
  which a last-bit difference picks) and 75% in float (the model's period
  tol=1e-5 is close to what float's Poincaré points repeat to after 1024
  periods: a float model wants a looser tol, as the README says); elsewhere (chaos, where any
  rounding difference grows to the attractor's size) the classification
  lyap1 > 0.01 agrees in at least 95% of the cells, and no chaotic cell
  (lyap1 > 0.01) has a period on either side;
- the valve over q in [0.2, 10] (128 values, 256 transient, 64 recorded):
  the same on its periodic orbits, with lyap1 = 0 (the flow's direction)
  to 1e-6 on both sides;
- the trace identity (issue 19): Rössler (tests/lyapunov/rossler.ode), from 16
  initial states, DOPRI5 at 1e-10 (lyap3 = -5.39 to 0.01, lyap_trace_err below
  1e-3 of the spectrum, no warning) and at 1e-3 (lyap_trace_err above 1 and
  the runner's warning for all 16 systems) on both sides.

Run on a GPU machine: python3 tests/gpu/lyapunov_agree.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import ROOT, build, check, main, run_raw, Result  # noqa: E402


def both(name, precision, args):
    text = open(os.path.join(ROOT, "models", name + ".ode")).read()
    runner = build(name, text, precision=precision, backend="gpu")
    out = {}
    for backend in ("cpu", "gpu"):
        p = run_raw(runner, "--backend", backend, *args)
        check(p.returncode == 0, "%s --backend %s: exit %d\n%s" % (name, backend, p.returncode, p.stderr))
        out[backend] = Result(p.stdout, p.stderr)
    return out["cpu"], out["gpu"]


def last_rows(r):
    """Index of every system's last recorded row."""
    s = r["system"]
    return np.nonzero(np.append(s[1:] != s[:-1], True))[0]


def duffing(precision, tol, same_period, min_within):
    a, b = both("duffing_map", precision, ["--scan", "k=lin(0.05,0.45,32)", "--scan", "B=lin(0.05,0.55,32)",
                                           "--transient", "256", "--recorded", "64",
                                           "--fields", "k,B,lyap1,period,y1,y2"])
    ia, ib = last_rows(a), last_rows(b)
    check(len(ia) == len(ib) == 1024, "rows: %d, %d" % (len(ia), len(ib)))
    la, lb, pa, pb = a["lyap1"][ia], b["lyap1"][ib], a["period"][ia], b["period"][ib]
    periodic = (la < -0.01) & (lb < -0.01)
    # the same orbit: the same period and the same last Poincaré point (Duffing's resonance has
    # coexisting period-1 orbits, small and large, which a last-bit difference may pick)
    near = np.hypot(a["y1"][ia] - b["y1"][ib], a["y2"][ia] - b["y2"][ib]) < 1e-3
    same_orbit = periodic & (pa == pb) & (pa > 0) & near
    diff = np.abs(la - lb)[same_orbit]
    worst = float(np.max(diff))
    within = float(np.mean(diff <= tol))
    chaotic_a, chaotic_b = la > 0.01, lb > 0.01
    same = float(np.mean(chaotic_a == chaotic_b))
    same_p = float(np.mean((pa == pb)[periodic]))
    print("    duffing_map %s: %d periodic cells, %d on the same orbit: lyap1 within %g on %.1f%% of them (%.2e at most); periods equal in %.1f%%; "
          "chaos (lyap1 > 0.01) on %d CPU / %d GPU cells, classification agrees in %.1f%%"
          % (precision, int(periodic.sum()), int(same_orbit.sum()), tol, 100 * within, worst, 100 * same_p, int(chaotic_a.sum()), int(chaotic_b.sum()),
             100 * same), flush=True)
    check(periodic.sum() > 500, "too few periodic cells: %d" % periodic.sum())
    check(same_orbit.sum() > 400, "too few cells on the same orbit: %d" % same_orbit.sum())
    # A finite-time estimate: where a chaotic transient (which rounding steers differently) ends on
    # the same orbit, the tangent vector starts the recording from another direction, and with two
    # close negative exponents 64 periods do not forget it (up to 5e-3 seen on an H200 in a few
    # cells); everywhere else the two agree to rounding.
    check(within >= min_within, "lyap1 on the same periodic orbits: CPU and GPU within %g on only %.1f%% (worst %.3g)"
          % (tol, 100 * within, worst))
    check(same_p >= same_period, "periods differ on %.1f%% of the periodic cells" % (100 - 100 * same_p))
    check(same >= 0.95, "chaos classification agrees in only %.1f%% of the cells" % (100 * same))
    check(not np.any(chaotic_a & (pa > 0)) and not np.any(chaotic_b & (pb > 0)), "a chaotic cell with a period")


def test_duffing_map_double():
    duffing("double", 1e-6, 0.99, 0.95)   # 95.1% seen on an H200


def test_duffing_map_float():
    duffing("float", 1e-3, 0.75, 0.90)    # 95.0% seen


def test_valve():
    a, b = both("valve_lyapunov", None, ["--scan", "q=lin(0.2,10,128)", "--transient", "256", "--recorded", "64"])
    ia, ib = last_rows(a), last_rows(b)
    l1a, l1b, l2a, l2b = a["lyap1"][ia], b["lyap1"][ib], a["lyap2"][ia], b["lyap2"][ib]
    periodic = (np.abs(l1a) < 1e-6) & (l2a < -0.02) & (a.status[ia] == "event")
    worst1 = float(np.max(np.abs(l1b[periodic])))
    worst2 = float(np.max(np.abs(l2a - l2b)[periodic]))
    print("    valve_lyapunov: %d periodic values of q: |lyap1| on the GPU %.2e at most, lyap2 differs by %.2e"
          % (int(periodic.sum()), worst1, worst2), flush=True)
    check(periodic.sum() > 60, "too few periodic values of q: %d" % periodic.sum())
    check(worst1 <= 1e-6, "GPU lyap1 on periodic orbits: %.3g" % worst1)
    check(worst2 <= 1e-4, "lyap2 on periodic orbits: CPU and GPU differ by %.3g" % worst2)


ROSSLER = open(os.path.join(ROOT, "tests", "lyapunov", "rossler.ode")).read()   # lyapunov 3, every=1


def test_trace_identity():
    runner = build("agree_rossler", ROSSLER, backend="gpu")
    for tol, loose in (("1e-10", False), ("1e-3", True)):
        rows = {}
        for backend in ("cpu", "gpu"):
            p = run_raw(runner, "--backend", backend, "--scan", "x=lin(-2,2,16)", "--set", "toler=" + tol,
                        "--set", "atoler=" + tol)
            check(p.returncode == 0, "rossler --backend %s: exit %d\n%s" % (backend, p.returncode, p.stderr))
            r = Result(p.stdout, p.stderr)
            i = last_rows(r)
            err, l3 = r["lyap_trace_err"][i], r["lyap3"][i]
            size = np.abs(r["lyap1"][i]) + np.abs(r["lyap2"][i]) + np.abs(l3)
            warned = "warning: in 16 of 16 systems the sum of the Lyapunov exponents" in p.stderr
            print("    rossler toler=%s %s: lyap3 %.4f .. %.4f, |lyap_trace_err| %.2e .. %.2e, warning %s"
                  % (tol, backend, l3.min(), l3.max(), np.abs(err).min(), np.abs(err).max(), warned), flush=True)
            if loose:
                check(np.all(np.abs(err) > 1) and warned, "%s at 1e-3: lyap_trace_err %s, warning %s" % (backend, err, warned))
            else:
                check(np.all(np.abs(l3 + 5.394) < 0.01), "%s: lyap3 %s" % (backend, l3))
                check(np.all(np.abs(err) < 1e-3 * size) and "warning" not in p.stderr,
                      "%s at 1e-10: lyap_trace_err %s; %s" % (backend, err, p.stderr))
            rows[backend] = (r.status[i], err)
        check((rows["cpu"][0] == rows["gpu"][0]).all(), "statuses differ")


TESTS = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]

if __name__ == "__main__":
    sys.exit(main(TESTS))
