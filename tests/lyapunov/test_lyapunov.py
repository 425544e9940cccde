#!/usr/bin/python3
"""`lyapunov N` and `period` (SPEC §2, issue 10), each against something
independent:

- spectra from the literature: Lorenz (0.9056, 0, -14.572), Rössler
  (0.0714, 0, -5.39), the Hénon map iterated by `on end` (0.41922, and the
  sum ln b exactly), the Hénon–Heiles system (conservative: the spectrum is
  symmetric and sums to 0);
- identities: the sum of the spectrum is the time average of the trace of J
  (Lorenz: -(sigma+1+beta); Rössler: an extra state integrates the trace),
  and the field lyap_trace_err, which the kernel computes from that identity,
  is small where the integration is accurate and flags the loose-tolerance
  Rössler run (DOPRI5 at 1e-3: lambda3 = -2.2) with the runner's warning;
- `every=` is an option: the spectra above hold without it too (the vectors
  are re-orthonormalised automatically when their spread could approach what
  the precision holds);
  a linear system's exponents are the real parts of its eigenvalues, with
  every explicit method;
- Floquet: Duffing's periodic orbits with complex multipliers have both
  exponents -k/2; the largest exponent agrees with the hand-derived
  variational equations of models/duffing_lyapunov.ode;
- through impacts (the saltation matrix): an oscillator bouncing on a wall
  with restitution e has lyap1 + lyap2 = -c + 2 ln(e) (impacts per unit
  time), and its largest exponent agrees with a two-trajectory (Benettin)
  estimate computed by scipy with its own event handling;
- `period` against the period found in the recorded Poincaré points by this
  script, over a scan of Duffing's k with periods 1, 3, 5 and chaos;
- the warnings and errors of the statements, the fields in the C API and
  the default record, lost tangent vectors read NaN, and (with nvcc) the
  registers the tangent vectors cost: no spills for the paper's sizes.

Run: /usr/bin/python3 tests/lyapunov/test_lyapunov.py [name-filter…]
(ODEGEN_BACKEND=gpu runs it on the GPU; every test builds under names of its
own, so that ODEGEN_JOBS=N may run them at the same time.)  Models whose test is about numbers
are built without sanitizers (faster); the period test runs the runtime's
ring (runtime/period.c) with ASan/UBSan.
"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import BACKEND, ODEGEN, ROOT, build, check, main, run  # noqa: E402

NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)
METHODS = ["euler", "modeuler", "rk4", "rkck45", "dopri5", "tsit5", "dop853", "vern7"]


def last(r, system=0):
    """The last recorded row of a system, as a dict of floats."""
    rows = np.nonzero(r["system"] == system)[0]
    check(len(rows) > 0, "no rows for system %d" % system)
    i = rows[-1]
    return {k: r[k][i] for k in r.header[:-1]}


def near(what, value, expected, tol):
    check(abs(value - expected) <= tol, "%s = %.10g, expected %.10g within %g" % (what, value, expected, tol))


# ------------------------------------------------------------------ literature spectra

LORENZ = """# Lorenz: sigma = 10, rho = 28, beta = 8/3
par sigma=10, rho=28, beta=2.6666666666666665
x'=sigma*(y-x)
y'=x*(rho-z)-y
z'=x*y-beta*z
init x=1, y=1, z=20
lyapunov 3%s
@ meth=dopri5, toler=1e-10, atoler=1e-10, dt=0.01, total=10
repeat transient=10, record=200
done
"""


def lorenz_check(r):
    for s in range(3):
        row = last(r, s)
        l1, l2, l3 = row["lyap1"], row["lyap2"], row["lyap3"]
        near("lorenz lyap1 (system %d)" % s, l1, 0.9056, 0.005)
        near("lorenz lyap2 (system %d)" % s, l2, 0.0, 0.003)
        near("lorenz lyap3 (system %d)" % s, l3, -14.5723, 0.01)
        near("lorenz lyap1+lyap2+lyap3 (system %d)" % s, l1 + l2 + l3, -(10 + 1 + 8 / 3), 1e-6)
        near("lorenz lyap_trace_err (system %d)" % s, row["lyap_trace_err"], l1 + l2 + l3 + (10 + 1 + 8 / 3), 1e-9)
    check("warning" not in r.stderr, "no warning expected: %s" % r.stderr)


def test_lorenz_spectrum():
    """0.9056, 0, -14.5723 (Sprott's values), and the sum -(sigma+1+beta)
    to the integration tolerance: three trajectories over 2000 time units,
    re-orthonormalised every time unit (every=1); lyap_trace_err is the sum
    less the trace, -(sigma+1+beta) here."""
    runner = build("ly_lorenz", LORENZ % ", every=1", sanitize=False)
    r = run(runner, "--scan", "x=list(1,2,-3)")
    lorenz_check(r)
    check(r.header[2:-1] == ["x", "y", "z", "lyap1", "lyap2", "lyap3", "lyap_trace_err"],
          "the default record is the states, the exponents and the trace identity's error: %s" % r.header)


def test_lorenz_without_every():
    """`lyapunov 3` as a new user writes it: 10 time units between the ends
    of integrations spread the exponents by e^-155, beyond double precision;
    the vectors are re-orthonormalised whenever the Gershgorin bound of their
    spread passes e^14.5, and the spectrum is that of every=1, to the same
    accuracy (lyap3 was NaN before issue 19)."""
    lorenz_check(run(build("ly_lorenz_auto", LORENZ % "", sanitize=False), "--scan", "x=list(1,2,-3)"))


def test_lost_vector_where_nothing_saves_it():
    """A vector stays NaN only where nothing could have saved it: `on end`
    maps both directions onto one (y = x: a Jacobian of rank 1), so the second
    vector has no length left after it — lyap2 (and the trace identity) read
    NaN, never a number; lyap1 stays a number."""
    text = """x'=-x
y'=-2*y
init x=1, y=1
on end { y = x }
lyapunov 2
@ meth=dopri5, toler=1e-10, atoler=1e-10, total=1
repeat transient=0, record=5
done
"""
    row = last(run(build("ly_lost_reset", text, sanitize=False)))
    check(math.isnan(row["lyap2"]) and math.isnan(row["lyap_trace_err"]),
          "lyap2 %r, lyap_trace_err %r: NaN expected" % (row["lyap2"], row["lyap_trace_err"]))
    check(-1.0 < row["lyap1"] < 0.0, "lyap1 %r" % row["lyap1"])


ROSSLER = """# Rössler: a = b = 0.2, c = 5.7; tr integrates the trace of J
par a=0.2, b=0.2, c=5.7
x'=-y-z
y'=x+a*y
z'=b+z*(x-c)
tr'=a+x-c
init x=1, y=1, z=0
lyapunov 4
@ meth=dopri5, toler=1e-12, atoler=1e-12, total=100
repeat transient=5, record=101
record lyap1, lyap2, lyap3, lyap4, lyap_trace_err, tr
done
"""


def test_rossler_spectrum_and_trace():
    """lyap1 = 0.0714 (Sprott), lyap2 = 0, lyap3 = -5.39; the extra state tr
    (tr' = trace of J, a zero exponent of its own) gives the time average of
    the trace independently: the sum of the four exponents equals it to
    1e-6 over the recorded integrations 1 … 100.  Without every=; the
    kernel's own lyap_trace_err below 1e-6 (its trace integrated by the
    method's quadrature, the extra state's by the method)."""
    runner = build("ly_rossler", ROSSLER, sanitize=False)
    r = run(runner, "--scan", "x=list(1,-2)")
    for s in range(2):
        rows = np.nonzero(r["system"] == s)[0]
        a, b = rows[0], rows[-1]
        Ta, Tb = 100.0, 100.0 * len(rows)
        total = lambda i, T: sum(r["lyap%d" % k][i] for k in range(1, 5)) * T
        spectrum_sum = (total(b, Tb) - total(a, Ta)) / (Tb - Ta)
        trace_mean = (r["tr"][b] - r["tr"][a]) / (Tb - Ta)
        near("rossler sum of exponents - mean trace (system %d)" % s, spectrum_sum - trace_mean, 0.0, 1e-6)
        near("rossler lyap1 (system %d)" % s, r["lyap1"][b], 0.0714, 0.004)
        near("rossler lyap2 (system %d)" % s, r["lyap2"][b], 0.0, 0.002)
        near("rossler lyap3 (system %d)" % s, r["lyap3"][b], 0.0, 0.002)   # the trace state's own 0
        near("rossler lyap4 (system %d)" % s, r["lyap4"][b], -5.394, 0.01)
        near("rossler lyap_trace_err (system %d)" % s, r["lyap_trace_err"][b], 0.0, 1e-6)


ROSSLER3 = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "rossler.ode")).read()


def test_rossler_trace_identity_flags_loose_tolerance():
    """The run issue 19 describes: Rössler with DOPRI5 at toler = atoler =
    1e-3 and every=1 gives lambda3 = -2.2 (published -5.39): error control is
    on the states, and the steps it chooses leave the contracting direction
    to the method's stability rather than its accuracy.  lyap_trace_err (the
    sum of the exponents less the mean trace of J) is about 3 there, 0.29 at
    1e-6, and the runner warns for both; at 1e-10 it is below 10^-3 of the
    spectrum, no warning, and lambda3 = -5.39."""
    runner = build("ly_rossler_loose", ROSSLER3, sanitize=False)
    for tol, err_low, warn in (("1e-3", 1.0, True), ("1e-6", 0.1, True), ("1e-10", None, False)):
        r = run(runner, "--set", "toler=" + tol, "--set", "atoler=" + tol)
        row = last(r)
        if err_low is not None:
            check(abs(row["lyap_trace_err"]) > err_low, "tol %s: lyap_trace_err %r, lyap3 %r" % (tol, row["lyap_trace_err"], row["lyap3"]))
        else:
            near("rossler tol %s lyap3" % tol, row["lyap3"], -5.394, 0.01)
            check(abs(row["lyap_trace_err"]) < 1e-3 * (abs(row["lyap1"]) + abs(row["lyap2"]) + abs(row["lyap3"])),
                  "tol %s: lyap_trace_err %r" % (tol, row["lyap_trace_err"]))
        said = "warning: in 1 of 1 systems the sum of the Lyapunov exponents is off the mean trace" in r.stderr
        check(said == warn, "tol %s: warning %s expected, stderr: %s" % (tol, warn, r.stderr))
    row = last(run(runner, "--set", "toler=1e-3", "--set", "atoler=1e-3"))
    near("rossler at 1e-3: lyap3 (the issue's -2.20)", row["lyap3"], -2.2, 0.1)


def test_henon_map_on_end():
    """The Hénon map (a = 1.4, b = 0.3) iterated by `on end` over a flow that
    does nothing: the tangent vectors go through the block's Jacobian only.
    lyap1 = 0.41922 (literature), lyap1 + lyap2 = ln 0.3 exactly."""
    text = """par a=1.4, b=0.3
x'=0
y'=0
init x=0.1, y=0.1
acc xn
on end { xn = 1 - a*x^2 + y; y = b*x; x = xn }
lyapunov 2
@ meth=euler, dt=1, total=1
repeat transient=100, record=40000
record lyap1, lyap2
done
"""
    runner = build("ly_henon_map", text, sanitize=False)
    row = last(run(runner))
    near("henon lyap1", row["lyap1"], 0.41922, 0.003)
    near("henon lyap1 + lyap2", row["lyap1"] + row["lyap2"], math.log(0.3), 1e-11)


def test_henon_heiles_symmetric():
    """A conservative system: the spectrum of a chaotic orbit is symmetric
    (lyap1 = -lyap4 > 0, lyap2 = -lyap3 = 0) and sums to 0."""
    text = """# Hénon–Heiles: H = (px^2+py^2)/2 + (x^2+y^2)/2 + x^2 y - y^3/3
x'=px
y'=py
px'=-x-2*x*y
py'=-y-x^2+y^2
init x=0, y=-0.1, px=0.55, py=0
lyapunov 4
@ meth=dop853, toler=1e-12, atoler=1e-12, total=100
repeat transient=1, record=100
done
"""
    runner = build("ly_henon_heiles", text, sanitize=False)
    r = run(runner, "--scan", "y=list(-0.1,-0.2)", "--scan", "px=list(0.55,0.5)")
    for s in (0, 3):   # (y, px) = (-0.1, 0.55), (-0.2, 0.5): chaotic orbits
        row = last(r, s)
        l = [row["lyap%d" % k] for k in range(1, 5)]
        check(l[0] > 0.05, "henon-heiles system %d: lyap1 = %g, a chaotic orbit expected" % (s, l[0]))
        near("henon-heiles lyap1 + lyap4 (system %d)" % s, l[0] + l[3], 0.0, 1e-4)
        near("henon-heiles lyap2 (system %d)" % s, l[1], 0.0, 2e-3)
        near("henon-heiles lyap3 (system %d)" % s, l[2], 0.0, 2e-3)
        near("henon-heiles sum (system %d)" % s, sum(l), 0.0, 1e-8)
        near("henon-heiles lyap_trace_err (system %d)" % s, row["lyap_trace_err"], sum(l), 1e-12)   # trace J = 0


# ------------------------------------------------------------------ every method

def test_linear_every_method():
    """y' = A y with A = [[-1, 5], [0, -3]] (non-normal): the exponents are
    the real parts of the eigenvalues, -1 and -3, for every explicit method;
    a fixed-step method's exactly ln|R(h lambda)|/h, R its stability
    polynomial (the exponents of the step map).  Error control is on the
    states only (SPEC), and the state's e^(-3t) part soon lies below any
    tolerance: dtmax keeps the adaptive methods' steps small enough for the
    tangent vectors' -3 direction too."""
    stability = {"euler": lambda z: 1 + z, "modeuler": lambda z: 1 + z + z * z / 2,
                 "rk4": lambda z: 1 + z + z * z / 2 + z ** 3 / 6 + z ** 4 / 24}
    for m in METHODS:
        text = """x'=-x+5*y
y'=-3*y
init x=1, y=1
lyapunov 2
@ meth=%s, dt=0.001, toler=1e-10, atoler=1e-30, dtmax=0.01, total=5
repeat transient=1, record=4
done
""" % m
        runner = build("ly_linear_" + m, text, sanitize=False)
        row = last(run(runner))
        if m in stability:
            e1, e2, tol = (math.log(abs(stability[m](-0.001 * lam))) / 0.001 for lam in (1, 3)), None, 1e-9
            e1, e2 = e1
        else:
            e1, e2, tol = -1.0, -3.0, 1e-8
        near("%s lyap1" % m, row["lyap1"], e1, tol)
        near("%s lyap2" % m, row["lyap2"], e2, tol)


# ------------------------------------------------------------------ Duffing: Floquet, hand-derived

DUFFING = """par k=0.25, B=0.3
y1'=y2
y2'=y1-y1^3-k*y2+B*cos(t)
lyapunov 2
@ meth=rkck45, dt=0.01, total=6.283185307179586, toler=1e-9, atoler=1e-9
repeat transient=1024, record=1024
record k, lyap1, lyap2
done
"""


def test_duffing_floquet():
    """Periodic orbits whose Floquet multipliers are complex (k = 0.22,
    period 3; k = 0.5, period 1): |mu1| = |mu2| = e^(-k T/2), so both
    exponents are -k/2; the trace is -k, so lyap1 + lyap2 = -k."""
    runner = build("ly_duffing_floquet", DUFFING, sanitize=False)
    r = run(runner, "--scan", "k=list(0.22,0.5)")
    for s, k in enumerate((0.22, 0.5)):
        row = last(r, s)
        near("duffing k=%g lyap1" % k, row["lyap1"], -k / 2, 1e-3)
        near("duffing k=%g lyap2" % k, row["lyap2"], -k / 2, 1e-3)
        near("duffing k=%g lyap1 + lyap2" % k, row["lyap1"] + row["lyap2"], -k, 1e-8)


def test_duffing_against_hand_derived():
    """lyap1 against models/duffing_lyapunov.ode (the variational equation
    in polar coordinates, written by hand; the same method and tolerances):
    on periodic orbits (k = 0.21, 0.22, 0.3, 0.5) to 1e-5, in the chaotic
    bands (k = 0.25, 0.28) to the scatter of 1024 periods."""
    ks = [0.21, 0.22, 0.3, 0.5, 0.25, 0.28]
    scan = "k=list(%s)" % ",".join(map(str, ks))
    ours = run(build("ly_duffing_vs_hand", DUFFING, sanitize=False), "--scan", scan)
    hand_text = open(os.path.join(ROOT, "models", "duffing_lyapunov.ode")).read()
    hand_text = hand_text.replace("record=32", "record=1024")
    hand = run(build("ly_duffing_hand", hand_text, sanitize=False), "--scan", scan)
    for s, k in enumerate(ks):
        mine = last(ours, s)["lyap1"]
        theirs = float(np.mean(hand["rate"][hand["system"] == s]))
        tol = 1e-5 if s < 4 else 0.02
        near("duffing k=%g: lyap1 - the hand-derived exponent" % k, mine - theirs, 0.0, tol)


# ------------------------------------------------------------------ impacts

IMPACT = """# A forced, damped oscillator bouncing on a wall at x = -d with restitution e
par c=0.1, A=1, w=2.5, d=0.2, e=0.8
x'=v
v'=-c*v-x+A*cos(w*t)
acc n
on start { n = 0; t1 = t0 + 2*pi/w }
event wall: x+d, dir=-1, tol=1e-10 { v = -e*v; n = n + 1 }
lyapunov 2
@ meth=dopri5, toler=1e-11, atoler=1e-11, dt=0.01, total=2.5132741228718345
repeat transient=100, record=300
record n, lyap1, lyap2, lyap_trace_err
done
"""


def impact_sum_check(r, systems, c, e, ws):
    for s in systems:
        rows = np.nonzero(r["system"] == s)[0]
        impacts = float(np.sum(r["n"][rows]))
        T = len(rows) * 2 * math.pi / ws[s]
        i = rows[-1]
        predicted = -c + 2 * math.log(e) * impacts / T
        near("impacts: lyap1 + lyap2 + c - 2 ln(e) n/T (system %d)" % s,
             r["lyap1"][i] + r["lyap2"][i] - predicted, 0.0, 1e-4)
        # the kernel's identity: the trace -c and each reset's ln |det S| = 2 ln e, measured by QRs
        near("impacts: lyap_trace_err (system %d)" % s, r["lyap_trace_err"][i], 0.0, 1e-6)


def test_impact_phase_volume():
    """Each impact scales phase volume by e^2 (the saltation matrix's
    determinant), the flow by e^(-c t): lyap1 + lyap2 = -c + 2 ln(e) n/T, over
    a grid of forcings with periodic and chaotic impacting motion.  One system
    of the grid, A = 1.8 and w = 2.5 (system 8), chatters onto the wall: its
    impacts accumulate (scipy's DOP853 with its own event location: impact
    speeds falling by e each time, accumulating at t = 46.54 after 66
    impacts), so it ends with status zeno and NaN exponents (README, Events:
    zeno), never a number past the accumulation; the others finish."""
    runner = build("ly_impact_volume", IMPACT, sanitize=False)
    A = [0.6, 1.0, 1.8, 3.0]
    W = [0.8, 1.5, 2.5]
    r = run(runner, "--scan", "A=list(%s)" % ",".join(map(str, A)), "--scan",
            "w=list(%s)" % ",".join(map(str, W)), "--recorded", "100")
    ws = [W[s % len(W)] for s in range(len(A) * len(W))]
    chatter = 8
    for s in range(len(ws)):
        st = sorted(set(r.status[r["system"] == s]))
        check(st == (["zeno"] if s == chatter else ["finished"]), "system %d: statuses %s" % (s, st))
    check(np.all(np.isnan(r["lyap1"][r["system"] == chatter])), "the zeno system has exponents")
    rest = [s for s in range(len(ws)) if s != chatter]
    impacting = [s for s in rest if np.sum(r["n"][r["system"] == s]) > 0]
    check(len(impacting) >= len(rest) - 2, "only %d of %d systems hit the wall" % (len(impacting), len(rest)))
    chaotic = [s for s in rest if last(r, s)["lyap1"] > 0.05]
    check(len(chaotic) > 0, "no chaotic impacting motion in the grid")
    impact_sum_check(r, rest, 0.1, 0.8, ws)


def benettin(c, A, w, d, e, periods, transient=100, d0=1e-9):
    """The largest exponent from two trajectories d0 apart, renormalised every
    forcing period (scipy's DOP853, its own event location; the reset
    restarts the integration)."""
    from scipy.integrate import solve_ivp

    def f(t, y):
        return [y[1], -c * y[1] - y[0] + A * math.cos(w * t)]

    def wall(t, y):
        return y[0] + d
    wall.terminal, wall.direction = True, -1

    def flow(y, T):
        y, t = np.array(y, float), 0.0
        while True:
            s = solve_ivp(f, (t, T), y, method="DOP853", rtol=1e-12, atol=1e-12, events=wall)
            if s.status != 1:
                return s.y[:, -1]
            t, y = s.t_events[0][-1], s.y_events[0][-1].copy()
            y[1] = -e * y[1]

    T = 2 * math.pi / w
    y = np.zeros(2)
    for _ in range(transient):
        y = flow(y, T)
    z, logs = y + np.array([d0, 0.0]), 0.0
    for _ in range(periods):
        y1, z1 = flow(y, T), flow(z, T)
        dist = float(np.linalg.norm(z1 - y1))
        logs += math.log(dist / d0)
        y, z = y1, y1 + (z1 - y1) * (d0 / dist)
    return logs / (periods * T)


def test_impact_benettin():
    """lyap1 against scipy's two-trajectory estimate: a periodic impacting
    orbit (A = 3, w = 0.8, d = 0.5: exponents -0.044 and -0.170) to 1e-3, a
    chaotic one (A = 1, w = 2.5, d = 0.2) to the scatter of 600 periods."""
    runner = build("ly_impact_benettin", IMPACT, sanitize=False)
    row = last(run(runner, "--set", "A=3", "--set", "w=0.8", "--set", "d=0.5", "--recorded", "300"))
    near("periodic impacts: lyap1 - Benettin", row["lyap1"] - benettin(0.1, 3.0, 0.8, 0.5, 0.8, 300), 0.0, 1e-3)
    row = last(run(runner, "--set", "A=1", "--set", "w=2.5", "--set", "d=0.2", "--recorded", "600"))
    check(row["lyap1"] > 0.1, "chaotic impacts expected, lyap1 = %g" % row["lyap1"])
    near("chaotic impacts: lyap1 - Benettin", row["lyap1"] - benettin(0.1, 1.0, 2.5, 0.2, 0.8, 600), 0.0, 0.03)


# ------------------------------------------------------------------ period

PERIOD = """par k=0.25, B=0.3
y1'=y2
y2'=y1-y1^3-k*y2+B*cos(t)
period of=y1, y2, tol=1e-6, max=16
@ meth=rkck45, dt=0.01, total=6.283185307179586, toler=1e-10, atoler=1e-10
repeat transient=1024, record=40
record k, y1, y2, period
done
"""


def script_period(y1, y2, tol, most):
    """SPEC §2's definition on the recorded points: the smallest p <= most
    with every point from the (p+1)-th on within tol (relative to the
    magnitude, absolute below 1) of the one p earlier; 0 when none."""
    def agree(a, b):
        return abs(a - b) <= tol * max(1.0, abs(a), abs(b))
    for p in range(1, min(most, len(y1) - 1) + 1):
        if all(agree(y1[r], y1[r - p]) and agree(y2[r], y2[r - p]) for r in range(p, len(y1))):
            return p
    return 0


def test_period_against_poincare_points():
    """The field `period` of every row against the script's reading of the
    recorded points 0 … rep, over k in [0.2, 0.6] (periods 1, 3, 5, 6, 11 and
    chaos); and the known periods at k = 0.5 (1), 0.22 (3), 0.3 (5), 0.25 (0)."""
    runner = build("ly_period", PERIOD)   # with ASan/UBSan: runtime/period.c's ring
    r = run(runner, "--scan", "k=list(0.5,0.22,0.3,0.25)")
    for s, p in enumerate((1, 3, 5, 0)):
        near("duffing k=%g period" % [0.5, 0.22, 0.3, 0.25][s], last(r, s)["period"], p, 0)
    r = run(runner, "--scan", "k=lin(0.2,0.6,96)")
    seen = set()
    for s in range(96):
        rows = np.nonzero(r["system"] == s)[0]
        y1, y2, got = r["y1"][rows], r["y2"][rows], r["period"][rows]
        for rep in range(len(rows)):
            want = script_period(y1[:rep + 1], y2[:rep + 1], 1e-6, 16)
            check(got[rep] == want, "k=%g rep %d: period %g, the recorded points say %d" %
                  (r["k"][rows[0]], rep, got[rep], want))
        seen.add(int(got[-1]))
    check({0, 1, 3, 5} <= seen, "periods seen over the scan: %s" % sorted(seen))


def test_period_rotation_and_limit_cycle():
    """Known periods: the harmonic oscillator over windows of 2/5 of its
    period (rotation by 144 degrees: period 5, both exponents 0) and of
    1/golden ratio of it (an irrational rotation: 0, quasi-periodic); Van der
    Pol (mu = 1) from one maximum of x to the next (an event with stop=1):
    period 1, and the window's length is the limit cycle's period 6.6632868593."""
    text = """x'=y
y'=-x
init x=1
lyapunov 2
period tol=1e-7
@ meth=dop853, toler=1e-12, atoler=1e-12, dt=0.01, total=2.5132741228718345
repeat transient=0, record=80
done
"""
    runner = build("ly_rotation", text, sanitize=False)
    row = last(run(runner))
    near("rotation by 2/5 of a turn: period", row["period"], 5, 0)
    near("rotation: lyap1", row["lyap1"], 0.0, 1e-9)
    near("rotation: lyap2", row["lyap2"], 0.0, 1e-9)
    row = last(run(build("ly_rotation_golden", text.replace("2.5132741228718345", "3.8832220774509327"),
                         sanitize=False)))
    near("irrational rotation: period", row["period"], 0, 0)
    vdp = """x'=y
y'=(1-x^2)*y-x
init x=2
event top: y, dir=-1, tol=1e-12, stop=1
period of=x, y, tol=1e-6
@ meth=dopri5, toler=1e-11, atoler=1e-11, dt=0.01, total=100
repeat transient=20, record=8
record t, t0, period
done
"""
    r = run(build("ly_vdp", vdp, sanitize=False))
    row = last(r)
    near("van der pol: period in integrations", row["period"], 1, 0)
    near("van der pol: the cycle's time", row["t"] - row["t0"], 6.6632868593, 1e-6)


def test_period_of_aux_and_failed_system():
    """of= an aux quantity; a system that fails (bound) has period 0 and NaN
    exponents, not the period of its frozen state."""
    text = """par a=1
x'=a*x
init x=1
aux x2=x*x
period of=x2
lyapunov 1
@ meth=rk4, dt=0.01, total=1, bound=1e6
repeat transient=0, record=20
done
"""
    runner = build("ly_period_fail", text)
    r = run(runner, "--scan", "a=list(0,30)")
    check(list(r.header[2:-1]) == ["x", "lyap1", "lyap_trace_err", "period"], "default record: %s" % r.header)
    ok, failed = last(r, 0), last(r, 1)
    near("a=0: period of a constant", ok["period"], 1, 0)
    near("a=0: lyap1", ok["lyap1"], 0.0, 1e-12)
    check(r.status[-1] == "bound", "a=30 should end as bound, not %s" % r.status[-1])
    check(failed["period"] == 0 and math.isnan(failed["lyap1"]),
          "a failed system: period %r, lyap1 %r (expected 0, nan)" % (failed["period"], failed["lyap1"]))


# ------------------------------------------------------------------ the front end

def odegen_check(text, name="t"):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name + ".ode")
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([ODEGEN, "--check", name + ".ode"], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        return p.returncode, p.stderr


def test_jump_warning():
    """A jump of f in a state (sign, heav, a comparison, an if) is a warning
    at its line when lyapunov is used; kinks (abs, a table) and jumps in t
    alone are not; without lyapunov nothing is said."""
    text = "x'=y\ny'=-x-0.1*sign(y)+abs(x)+heav(t-1)\n%slyapunov 2\ndone\n"
    rc, err = odegen_check(text % "")
    check(rc == 0, "a warning is not an error:\n" + err)
    check(err.count("warning:") == 1 and "t.ode:2:11: warning: f jumps where this sign() switches" in err
          and "'y'" in err, "expected one warning at sign(y):\n" + err)
    rc, err = odegen_check((text % "").replace("lyapunov 2\n", ""))
    check(rc == 0 and err == "", "no lyapunov, no warning:\n" + err)


def test_tables_differentiable():
    """A table in the right-hand side: its derivative is the slope of the
    segment; with a table of a straight line, exponents of the same linear
    system as without the table (RK4: the same step maps)."""
    lines = "table ramp %% 5 -10 10 %s*t\nx'=ramp(x)+y\ny'=-x-0.5*y\ninit x=1\nlyapunov 2\n" \
            "@ meth=rk4, dt=0.01, total=10\nrepeat transient=1, record=10\ndone\n"
    row = last(run(build("ly_table", lines % "-0.2", sanitize=False)))
    plain = "x'=-0.2*x+y\ny'=-x-0.5*y\ninit x=1\nlyapunov 2\n" \
            "@ meth=rk4, dt=0.01, total=10\nrepeat transient=1, record=10\ndone\n"
    ref = last(run(build("ly_table_plain", plain, sanitize=False)))
    for k in (1, 2):   # complex eigenvalues: both exponents -0.35
        near("table model lyap%d" % k, row["lyap%d" % k], ref["lyap%d" % k], 1e-9)
        near("lyap%d" % k, row["lyap%d" % k], -0.35, 2e-3)


def test_api_fields():
    """lyap1 … lyapN, lyap_trace_err (N = n only) and period are fields of
    the C API (enum names, field names); a model without the statements has
    none; lyap_trace_err with N < n is an error at its line."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.ode")
        with open(path, "w") as f:
            f.write("x'=-x\ny'=-2*y\nlyapunov 2\nperiod of=x\ndone\n")
        subprocess.run([ODEGEN, "-q", "m.ode"], cwd=tmp, check=True)
        h = open(os.path.join(tmp, "m", "m.h")).read()
        for name in ("M_FIELD_LYAP1 = 5", "M_FIELD_LYAP2 = 6", "M_FIELD_LYAP_TRACE_ERR = 7", "M_FIELD_PERIOD = 8",
                     "#define M_NFIELD 9"):
            check(name in h, "m.h lacks %s" % name)
        cu = open(os.path.join(tmp, "m", "m.cu")).read()
        check('"t1", "lyap1", "lyap2", "lyap_trace_err", "period"}' in cu, "field names")
    rc, err = odegen_check("x'=-x\ny'=-2*y\nlyapunov 1\nrecord lyap_trace_err\ndone\n")
    check(rc != 0 and "t.ode:4:8: error: 'lyap_trace_err' is not computed: it needs the whole spectrum, lyapunov 2" in err,
          "lyap_trace_err with N < n:\n" + err)


# ------------------------------------------------------------------ single precision

def test_float():
    """prec=float: the same statements in single precision. Duffing's
    periodic orbits (both exponents -k/2, the sum -k) to float's accuracy,
    and the periods 1 and 3 with a tolerance above float's rounding."""
    text = DUFFING.replace("lyapunov 2\n", "lyapunov 2\nperiod of=y1, y2, tol=1e-3, max=8\n") \
                  .replace("toler=1e-9, atoler=1e-9", "toler=1e-5, atoler=1e-5") \
                  .replace("record=1024", "record=256").replace("record k, lyap1, lyap2", "record k, lyap1, lyap2, period")
    runner = build("ly_duffing_float", text, precision="float", sanitize=False)
    r = run(runner, "--scan", "k=list(0.22,0.5)")
    for s, (k, p) in enumerate(((0.22, 3), (0.5, 1))):
        row = last(r, s)
        near("float duffing k=%g lyap1" % k, row["lyap1"], -k / 2, 5e-3)
        near("float duffing k=%g lyap2" % k, row["lyap2"], -k / 2, 5e-3)
        near("float duffing k=%g lyap1 + lyap2" % k, row["lyap1"] + row["lyap2"], -k, 1e-3)
        near("float duffing k=%g period" % k, row["period"], p, 0)


# ------------------------------------------------------------------ registers (nvcc)

def ptxas(text, name):
    """nvcc -Xptxas -v on the generated model: (registers, stack bytes, spill bytes) of ode_kernel."""
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, name + ".ode"), "w") as f:
            f.write(text)
        subprocess.run([ODEGEN, "-q", name + ".ode"], cwd=tmp, check=True)
        p = subprocess.run([NVCC, "-O3", "-arch=sm_90", "-Xptxas", "-v", "-c", "-o", "/dev/null", name + ".cu"],
                           cwd=os.path.join(tmp, name), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        check(p.returncode == 0, "nvcc failed on %s:\n%s" % (name, p.stdout[-3000:]))
        m = re.search(r"entry function '_Z10ode_kernel[^']*'.*?(\d+) bytes stack frame, (\d+) bytes spill stores, "
                      r"(\d+) bytes spill loads.*?Used (\d+) registers", p.stdout, re.S)
        check(m is not None, "no ptxas report for ode_kernel:\n" + p.stdout[-2000:])
        return int(m.group(4)), int(m.group(1)), int(m.group(2)) + int(m.group(3))


def test_registers():
    """The paper's sizes (n <= 4, N <= n) keep the tangent vectors in
    registers: no spills, and no stack beyond the model's without them.
    `make test` compiles Duffing (n = N = 2) only; ODEGEN_REGISTERS=all (the
    GPU suite) Lorenz (3, 3) and Hénon–Heiles (4, 4) too."""
    if not NVCC:
        print("        (no nvcc: skipped)")
        return
    every = os.environ.get("ODEGEN_REGISTERS") == "all"
    cases = [("duffing", DUFFING.replace("record k, lyap1, lyap2\n", ""), "lyapunov 2"),
             ("lorenz", LORENZ % ", every=1", "lyapunov 3, every=1"),
             ("henon_heiles", """x'=px
y'=py
px'=-x-2*x*y
py'=-y-x^2+y^2
lyapunov 4, every=1
@ meth=rk4, dt=0.01, total=100
done
""", "lyapunov 4, every=1")]
    for name, text, line in cases if every else cases[:1]:
        with_l = ptxas(text, "reg_" + name)
        without = ptxas(text.replace(line + "\n", ""), "reg_" + name + "_plain")
        print("        %-13s %s: %d registers, %d B stack, %d B spills (without: %d registers, %d B stack)"
              % (name, line, with_l[0], with_l[1], with_l[2], without[0], without[1]), flush=True)
        check(with_l[2] == 0, "%s: %d bytes of spills" % (name, with_l[2]))
        check(with_l[1] <= without[1], "%s: stack %d B against %d B without lyapunov" % (name, with_l[1], without[1]))


TESTS = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]

if __name__ == "__main__":
    sys.exit(main(TESTS))
