#!/usr/bin/python3
"""delay(x, tau) (issue 22, item 3): delay differential equations against exact
solutions, an independent reference, and XPPAUT.

- exact: x'(t) = -x(t-1) with history 1 is a polynomial of degree k on
  [k-1, k] (derived here by the method of steps, with sympy): x(1..5) =
  0, -1/2, -1/6, 5/24, 19/120.  Every explicit method, one integration of
  [0, 5] and five of [0, 1] carried over by `repeat` (the past goes on as
  the state does).
- orders: the same equation with history cos(t) (exact: sympy again), steps
  h = 0.3, 0.15, 0.075 that do not divide the delay: each method's observed
  order with the breaking points followed, and RK4's, DOPRI5's and DOP853's
  without them (-DODE_DELAY_BREAKS=0), which is what they are worth.
- reference: Hutchinson's delayed logistic, Mackey–Glass (tau = 17) and a
  delay shorter than the step (the step reads its own extension) against a
  method-of-steps solver written here (scipy's solve_ivp, DOP853, rtol 1e-12,
  each interval of tau reading the dense output of the ones before).
- xppaut: XPPAUT's meaning (history 0 without x(0)=…, x(0)=EXPR of t, init
  after it, tau <= 0, tau beyond `@ delay`): odegen against `xppaut -silent`,
  whose delays are read at the step's start (an O(dt) error): the difference
  shrinks as XPPAUT's dt does.
- events_save: an event located on the extension (reading the past) and
  `save` samples, against the exact solution.
- statuses: tau beyond `@ delay`, a ring too small for the steps: `history`.
- history_jump: where the history (0) meets the initial value (1), a step
  that ends there within rounding of t (window ends that are sums of 0.05)
  reads the history at its last stage, not the initial value.
- aux_lost: a recorded aux that reads a past the ring lost: `history`.
- windows: 3000 windows of two steps whose ends are sums of the window (not
  of the steps): no sliver step per window, so the default ring holds the
  delay; the same as one run.

Run: /usr/bin/python3 tests/delay/test_delay.py [name…]   (ODEGEN_BACKEND=gpu: on the GPU)
"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import BACKEND, ODEGEN, build, check, main, run, run_raw, with_lines  # noqa: E402
from xppaut import run_xppaut  # noqa: E402

# (rkck45 and vern7 are refused with delays: their extension is the cubic
# Hermite one, whose error their step control does not see; test_refused)
METHODS = ["euler", "modeuler", "rk4", "dopri5", "tsit5", "dop853"]
ADAPTIVE = {"dopri5", "tsit5", "dop853"}


def method_of_steps_exact(history, pieces):
    """x' = -x(t-1) with x = history(t) for t <= 0: the exact solution on
    [k-1, k], k = 1 … pieces, as sympy expressions of t."""
    import sympy as sp
    t, s = sp.symbols("t s")
    before = history(t)
    start = before.subs(t, 0)
    out = []
    for k in range(1, pieces + 1):
        piece = sp.simplify(start - sp.integrate(before.subs(t, s - 1), (s, k - 1, t)))
        out.append(piece)
        start, before = piece.subs(t, k), piece
    return t, out


def exact_at(t, pieces, when):
    k = min(int(math.floor(when - 1e-12)) + 1, len(pieces)) if when > 0 else 1
    return float(pieces[k - 1].subs(t, when))


# x'(t) = -x(t-1) twice: history 1 (exact: polynomials) and history cos(t)
# (exact: sympy's method of steps), over five windows [0, 1] carried over by
# `repeat`
DDE2 = """# x'(t) = -x(t-1) with history 1, y'(t) = -y(t-1) with history cos(t)
x'=-delay(x,1)
y'=-delay(y,1)
x(0)=1
y(0)=cos(t)
@ delay=1.5, dt=0.05, total=1
repeat transient=0, record=5
done
"""
FAST = ("-O1",)   # (these builds are many and their runs short: the C compiler's time is what counts)


_LOCKS = {}                    # one lock per build: test_exact and test_orders share builds,
_LOCKS_GUARD = threading.Lock()  # and ODEGEN_JOBS runs them at once


def dde2(meth, breaks=True):
    name = "dde2_" + meth + ("" if breaks else "_nobp")
    with _LOCKS_GUARD:
        lock = _LOCKS.setdefault(name, threading.Lock())
    with lock:
        return build(name, DDE2, flags=["--option", "meth=" + meth],
                     sanitize=False, defines=FAST + (() if breaks else ("-DODE_DELAY_BREAKS=0",)))


def dde2_all(pairs):
    """Builds the (method, breaks) runners at once (nvcc's minutes, not their sum, on the GPU)."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(len(pairs)) as pool:
        list(pool.map(lambda p: dde2(*p), pairs))


def held_at(meth, h):
    """run-time options: a fixed-step method's step h; an adaptive one held at h (a
    tolerance nothing fails, dt = dtmax = h)"""
    out = ["--set", "dt=%r" % h]
    if meth in ADAPTIVE:
        out += ["--set", "toler=1e9", "--set", "atoler=1e9", "--set", "dtmax=%r" % h]
    return out


def test_exact():
    """x'=-x(t-1), history 1: x(1..5) exact (five integrations carried over by repeat), every method"""
    import sympy as sp
    t, pieces = method_of_steps_exact(lambda t: sp.Integer(1), 5)
    want = [float(p.subs(t, k + 1)) for k, p in enumerate(pieces)]
    check(abs(want[-1] - 19 / 120) < 1e-15, "the derivation: x(5) = %r" % want[-1])
    bound = {"euler": 0.05, "modeuler": 2e-3}
    dde2_all([(m, True) for m in METHODS])
    for meth in METHODS:
        tol = ["--set", "toler=1e-10", "--set", "atoler=1e-10"] if meth in ADAPTIVE else []
        r = run(dde2(meth), "--quiet", *tol)
        errs = [abs(a - b) for a, b in zip(r["x"], want)]
        print("    %-9s x(1..5): largest error %.2e (x(5) %.2e)" % (meth, max(errs), errs[-1]))
        check(list(r.status) == ["finished"] * 5 and max(errs) <= bound.get(meth, 1e-8),
              "%s: x(1..5) = %s (%s), not %s" % (meth, list(r["x"]), list(r.status), want))
    # one integration over [0, 5] is the same as five over [0, 1]
    whole = run(dde2("rk4"), "--quiet", "--set", "total=5", "--recorded", "1")
    five = run(dde2("rk4"), "--quiet")
    print("    rk4 over [0, 5] once: x(5) %.17g; five times over [0, 1]: %.17g" % (whole["x"][0], five["x"][4]))
    check(abs(whole["x"][0] - five["x"][4]) < 1e-13, "once %r, five times %r" % (whole["x"][0], five["x"][4]))


# orders the methods reach with delays: their own (the extension of a
# fixed-step method, cubic Hermite, is at least as accurate as its steps)
EXPECTED_ORDER = {"euler": 1, "modeuler": 2, "rk4": 4, "dopri5": 5, "tsit5": 5, "dop853": 8}
STEPS = (0.3, 0.15, 0.075)   # (none divides the delay: without breaking points, steps straddle them;
                             # one integration over [0, 3], whose windows do not end on them either)


def observed(meth, exact, breaks=True):
    errs = []
    for h in STEPS:
        r = run(dde2(meth, breaks), "--quiet", "--recorded", "1", "--set", "total=3", *held_at(meth, h))
        check(r.status[0] == "finished", "%s h=%g: %s" % (meth, h, r.status[0]))
        errs.append(abs(r["y"][0] - exact))
    orders = [math.log2(errs[k] / errs[k + 1]) if errs[k + 1] > 0 else float("inf") for k in range(2)]
    return errs, orders


def test_orders():
    """history cos(t), steps 0.3/0.15/0.075 (not dividing tau): observed orders, with and without breaking points"""
    import sympy as sp
    t, pieces = method_of_steps_exact(lambda t: sp.cos(t), 3)
    exact = float(pieces[-1].subs(t, 3))
    dde2_all([(m, True) for m in METHODS] + [(m, False) for m in ("rk4", "dopri5", "dop853")])
    for meth in METHODS:
        errs, orders = observed(meth, exact)
        print("    %-9s y(3) errors %s, orders %.2f %.2f (expected %d)" %
              (meth, " ".join("%.2e" % e for e in errs), orders[0], orders[1], EXPECTED_ORDER[meth]))
        check(orders[1] > EXPECTED_ORDER[meth] - 0.35 or errs[2] < 1e-12,
              "%s: order %.2f, expected %d (errors %s)" % (meth, orders[1], EXPECTED_ORDER[meth], errs))
    for meth in ("rk4", "dopri5", "dop853"):
        errs, orders = observed(meth, exact, breaks=False)
        print("    %-9s without breaking points: errors %s, orders %.2f %.2f" %
              (meth, " ".join("%.2e" % e for e in errs), orders[0], orders[1]))
        check(orders[1] < EXPECTED_ORDER[meth] - 0.5, "%s without breaking points: order %.2f" % (meth, orders[1]))


def reference(f, tau, history, times):
    """A DDE x' = f(x, x(t - tau), t) by the method of steps: solve_ivp (DOP853,
    rtol 1e-12) over [k tau, (k+1) tau], x(t - tau) from the dense output of
    the intervals before (the history function before 0); x at the times."""
    from scipy.integrate import solve_ivp
    segments = []   # (start, dense output)

    def past(s):
        if s <= 0:
            return history(s)
        k = len(segments) - 1
        while k > 0 and s < segments[k][0]:
            k -= 1
        return float(segments[k][1](s)[0])

    x0, a, t_end = history(0.0), 0.0, max(times)
    while a < t_end - 1e-12:
        b = min(a + tau, t_end)
        sol = solve_ivp(lambda t, x: [f(x[0], past(t - tau), t)], (a, b), [x0], method="DOP853", rtol=1e-12,
                        atol=1e-14, dense_output=True)
        segments.append((a, sol.sol))
        x0, a = float(sol.y[0, -1]), b
    return np.array([past(t) for t in times])


# Hutchinson's delayed logistic (tau = 1), Mackey-Glass (tau = 17, chaotic)
# and a delay shorter than the step (tau = 0.03), side by side in one model;
# fifteen windows of 10 carried over by `repeat`
REFERENCE = """# x: Hutchinson, z: Mackey-Glass, w: a delay shorter than the step
par r=1.5, beta=0.2, gamma=0.1, n=10, tau=17
x'=r*x*(1-delay(x,1))
zd=delay(z,tau)
z'=beta*zd/(1+zd^n)-gamma*z
w'=-2*delay(w,0.03)+sin(t)
x(0)=0.5
z(0)=0.5
w(0)=1
@ delay=20, total=10
repeat transient=0, record=15
done
"""


def test_reference():
    """Hutchinson, Mackey-Glass (tau=17) and tau=0.03 < h against method-of-steps references (scipy, rtol 1e-12)"""
    times = [10.0 * (k + 1) for k in range(15)]
    refs = {"x": reference(lambda x, xd, t: 1.5 * x * (1 - xd), 1.0, lambda s: 0.5, times),
            "z": reference(lambda x, xd, t: 0.2 * xd / (1 + xd ** 10) - 0.1 * x, 17.0, lambda s: 0.5, times),
            "w": reference(lambda x, xd, t: -2 * xd + math.sin(t), 0.03, lambda s: 1.0, times[:1])}
    for meth, args, tol in (("dop853", ["--set", "toler=1e-11", "--set", "atoler=1e-11"], 1e-7),
                            ("dopri5", ["--set", "toler=1e-10", "--set", "atoler=1e-10"], 1e-6),
                            ("rk4", ["--set", "dt=0.01"], 1e-6)):
        r = run(build("dde_reference_" + meth, REFERENCE, flags=["--option", "meth=" + meth], sanitize=False,
                      defines=FAST), "--quiet", *args)
        check(list(r.status) == ["finished"] * 15, "%s: %s" % (meth, list(r.status)))
        for name, label in (("x", "Hutchinson"), ("z", "Mackey-Glass"), ("w", "tau 0.03 < h")):
            got = r[name][:len(refs[name])]
            err = np.max(np.abs(got - refs[name]))
            print("    %-7s %-13s at t = %s: largest difference from the reference %.2e" %
                  (meth, label, "10" if name == "w" else "10, 20, …, 150", err))
            check(err <= tol, "%s %s: %s against %s" % (meth, label, list(got), list(refs[name])))
    # rk4's order with tau < h, reading its own extension
    runner = build("dde_reference_rk4", REFERENCE, flags=["--option", "meth=rk4"], sanitize=False, defines=FAST)
    errs = [abs(run(runner, "--quiet", "--recorded", "1", "--set", "dt=%r" % h)["w"][0] - refs["w"][0])
            for h in (0.1, 0.05, 0.025)]
    order = math.log2(errs[1] / errs[2])
    print("    rk4, tau = 0.03 < h = 0.1/0.05/0.025: errors %s, order %.2f" % (" ".join("%.2e" % e for e in errs), order))
    check(order > 3.5, "rk4 with tau < h: errors %s" % errs)


# XPPAUT's meaning, each file against `xppaut -silent` at its dt and at dt/10
XPP_FILES = {
    "init_only": "x'=-delay(x,1)\ninit x=1\n@ delay=2, dt=0.01, total=3, meth=rk4\ndone\n",
    "history_number": "x'=-delay(x,1)\nx(0)=1\n@ delay=2, dt=0.01, total=3, meth=rk4\ndone\n",
    "history_of_t": "x'=-delay(x,1)\nx(0)=2-t\n@ delay=2, dt=0.01, total=3, meth=rk4\ndone\n",
    "init_after_history": "x'=-delay(x,1)\nx(0)=2-t\ninit x=5\n@ delay=2, dt=0.01, total=3, meth=rk4\ndone\n",
    "t0_not_zero": "x'=-delay(x,1)\nx(0)=2-t\n@ delay=2, dt=0.01, total=1, meth=rk4, t0=1\ndone\n",
    "negative_delay": "x'=-delay(x,-1)\nx(0)=1\n@ delay=2, dt=0.01, total=3, meth=rk4\ndone\n",
    "state_dependent": "x'=-delay(x,0.5+0.4*x)\nx(0)=1\n@ delay=2, dt=0.01, total=3, meth=rk4\ndone\n",
    "feedback": ("# XPPAUT's ode/delay.ode, its numbers\np tau=3,b=4.8,a=4,p=-.8\nf(x)=1/(1+exp(-x))\n"
                 "dx/dt = -x + f(a*x-b*delay(x,tau)+p)\nx(0)=1-t\ninit x=1\n@ delay=20, total=20\ndone\n"),
}


def xppaut_end(text, dt):
    """(t, x, rows) of XPPAUT's last row for the file run at dt."""
    text = re.sub(r"dt=[0-9.]+", "dt=%r" % dt, text) if "dt=" in text else text.replace("@ delay", "@ dt=%r, delay" % dt)
    rows = run_xppaut("m.ode", text, timeout=300)
    return float(rows[-1][0]), float(rows[-1][1]), len(rows)


def test_xppaut():
    """XPPAUT's delay files: odegen against xppaut -silent, the difference shrinking with XPPAUT's dt"""
    if not shutil.which("xppaut"):
        print("    xppaut not installed: skipped")
        return
    for name, text in XPP_FILES.items():
        ours = run(build("dde_xpp_" + name, text, sanitize=False, defines=FAST), "--quiet")
        check(ours.status[0] == "finished", "%s: %s" % (name, ours.status[0]))
        dt = 0.05 if "dt=" not in text else float(re.search(r"dt=([0-9.]+)", text).group(1))
        t_a, xa, _ = xppaut_end(text, dt)
        t_b, xb, _ = xppaut_end(text, dt / 10)
        da, db = abs(xa - ours["x"][0]), abs(xb - ours["x"][0])
        print("    %-19s odegen %.10f; xppaut dt=%g: %.8f (differs %.1e), dt=%g: %.8f (%.1e)" %
              (name, ours["x"][0], dt, xa, da, dt / 10, xb, db))
        check(db < 5e-3 and (db < da / 4 or da < 1e-7), "%s: odegen %r, xppaut %r (dt=%g), %r (dt=%g)" %
              (name, ours["x"][0], xa, dt, xb, dt / 10))


# x0, x1 from an array line x[0..1](0)=1, y0, y1 from a %-block's y[j](0)=1:
# XPPAUT keeps the first apart as initial values only (form_ode.c's
# check_if_ic; the history stays 0), the second is x(0)=… line by line (the
# history 1).  x' = -x(t-1) with x(0) = 1: history 0 gives x = 1 on [0, 1],
# 2 - t on [1, 2], -(3t - t^2/2 - 4) on [2, 3]: x(3) = -1/2; history 1 gives -1/6.
ARRAY_INITIAL = """# array initial values with delays
x[0..1]'=-delay(x[j],1)
x[0..1](0)=1
%[0..1]
y[j]'=-delay(y[j],1)
y[j](0)=1
%
@ delay=1, meth=rk4, dt=0.001, total=3
done
"""


def test_array_initial_values():
    """x[0..1](0)=1 sets initial values only, as XPPAUT reads it (history 0: x(3) = -1/2), a %-block's y[j](0)=1 the history too (-1/6); the note says so; XPPAUT's own run within O(dt)"""
    runner = build("dde_array_initial", ARRAY_INITIAL, sanitize=False, defines=FAST)
    r = run(runner, "--quiet", "--fields", "x0,x1,y0,y1")
    got = [r[k][0] for k in ("x0", "x1", "y0", "y1")]
    print("    x0, x1 (array line) %.12f %.12f; y0, y1 (%%-block) %.12f %.12f" % tuple(got))
    check(all(abs(g + 0.5) < 1e-9 for g in got[:2]), "x[0..1](0)=1: history 0, x(3) = -1/2 expected: %s" % got[:2])
    check(all(abs(g + 1 / 6) < 1e-9 for g in got[2:]), "y[j](0)=1 in a block: history 1, x(3) = -1/6 expected: %s" % got[2:])
    work = os.path.dirname(os.path.dirname(runner))
    p = subprocess.run([ODEGEN, os.path.join(work, "dde_array_initial.ode"), "--check"], capture_output=True, text=True)
    check(p.returncode == 0 and "history of 'x0' before t0 is 0" in p.stderr and "history of 'x1'" in p.stderr and
          "x[a..b](0)" in p.stderr and "'y0'" not in p.stderr, "the note:\n" + p.stderr)
    if shutil.which("xppaut"):
        rows = run_xppaut("m.ode", ARRAY_INITIAL.replace("%[0..1]\ny[j]'=-delay(y[j],1)\ny[j](0)=1\n%\n", ""), timeout=120)
        xa = float(rows[-1][1])
        print("    xppaut -silent, dt=0.001: x0(3) %.8f" % xa)
        check(abs(xa + 0.5) < 5e-3, "XPPAUT's x0(3) %r: not the history-0 reading" % xa)


EVENTS = """# x'(t) = -x(t-1), history 1: x crosses 0 upwards once in (3, 4); samples every 0.25
x'=-delay(x,1)
x(0)=1
event up: x, dir=1, stop=1
save every=0.25
record t, x
@ delay=1.5, total=5, meth=dopri5, toler=1e-10, atoler=1e-10
done
"""


def test_events_save():
    """events located on the extension and save samples read the past: x=0 crossing and samples against the exact solution"""
    import sympy as sp
    t, pieces = method_of_steps_exact(lambda t: sp.Integer(1), 5)
    root = [r for r in sp.solve(pieces[3], t) if r.is_real and 3 < float(r) < 4]
    check(len(root) == 1, "the derivation: roots %s" % root)
    root = float(root[0])
    runner = build("dde_events_save", EVENTS, sanitize=False, defines=FAST)
    tmp = tempfile.mkdtemp(prefix="dde-save-")
    try:
        out = os.path.join(tmp, "out.csv")
        p = run_raw(runner, "--backend", BACKEND, "--quiet", "-o", out)
        check(p.returncode == 0, "the runner: %s" % p.stderr)
        rows = open(out).read().splitlines()
        head = rows[0].split(",")
        last = rows[1].split(",")
        t_event, status = float(last[head.index("t")]), last[-1]
        samples = [line.split(",") for line in open(os.path.join(tmp, "out.traj.csv")).read().splitlines()[1:]]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    errs = [abs(float(row[4]) - exact_at(t, pieces, float(row[2]))) for row in samples]
    print("    the crossing at t = %.12f (exact %.12f, status %s); %d samples, largest error %.2e" %
          (t_event, root, status, len(samples), max(errs)))
    slope = abs(float(sp.diff(pieces[3], t).subs(t, root)))   # (located to the event's tol, 1e-6 in x)
    check(status == "event" and abs(t_event - root) < 2e-6 / slope, "event at %r (%s), exact %r" % (t_event, status, root))
    check(len(samples) == int(root / 0.25) + 1 and max(errs) < 1e-8, "samples: %d, errors up to %g" %
          (len(samples), max(errs)))


# x'=y(t-1), y'=0 with y=1 from t=0 and a history of 0 (no y(0)=…): x is 0 up to t=1
# exactly, t-1 after.  In windows of 0.05 carried over by `repeat`, the window
# times are sums of 0.05: the 20th ends at 1.0000000000000002, so the last stage
# of the step that ends there reads y at 2.2e-16 past the history's end.
HISTORY_JUMP = """# x'=y(t-1) where the history of y (0) meets its initial value (1) at t=0
x'=delay(y,1)
y'=0
init y=1
@ delay=2, dt=0.05, total=0.05
repeat transient=0, record=40
done
"""


def test_history_jump():
    """a stage at the end of the step that ends where the history meets the initial value (within rounding of t) reads the history"""
    r = run(build("dde_history_jump", HISTORY_JUMP, sanitize=False, defines=FAST), "--quiet")
    x = r["x"]
    print("    x after 20 windows of 0.05: %.3g (exact 0); after 40: %.17g (exact 1)" % (x[19], x[39]))
    check(abs(x[19]) < 1e-14, "x(1) = %r: the step [0.95, 1] read y's initial value at its last stage, not its "
          "history (an O(dt) error, dt/6 = 8.3e-3)" % x[19])
    check(max(abs(x[k] - max(0.0, 0.05 * (k + 1) - 1)) for k in range(40)) < 1e-12, "x %s" % list(x))


def test_aux_lost():
    """an aux that reads a past the ring no longer holds, at the record: the status history, not the current value"""
    text = "x'=-x\nx(0)=1\naux d=delay(x,1)\n@ delay=1.5, dt=0.05, total=1.5\nrecord d\ndone\n"
    small = build("dde_aux_lost", text, sanitize=False, defines=FAST + ("-DODE_DELAY_SLOTS=10",))
    r = run(small, "--quiet")
    print("    10 slots for 30 steps, d = x(t-1) at t=1.5: %r (%s); exact %r" % (r["d"][0], r.status[0], math.exp(-0.5)))
    check(r.status[0] == "history", "d = %r with the status %s: the ring holds t >= 1, d reads t = 0.5" %
          (r["d"][0], r.status[0]))
    r = run(build("dde_aux_held", text, sanitize=False, defines=FAST), "--quiet")
    check(r.status[0] == "finished" and abs(r["d"][0] - math.exp(-0.5)) < 1e-6, "the default ring: d = %r (%s)" %
          (r["d"][0], r.status[0]))


def test_statuses():
    """tau beyond @ delay, and a ring too small for the steps: the status history, the last good state"""
    r = run(build("dde_too_long", "par tau=3\nx'=-delay(x,tau)\nx(0)=1\n@ delay=2, total=3\ndone\n", sanitize=False,
                  defines=FAST),
            "--quiet", "--scan", "tau=list(1,3)")
    check(list(r.status) == ["finished", "history"] and r["x"][1] == 1.0, "tau 1 and 3 of at most 2: %s %s" %
          (list(r.status), list(r["x"])))
    small = build("dde_small_ring", DDE2.replace("y'=-delay(y,1)", "y'=-y"), sanitize=False,
                  defines=FAST + ("-DODE_DELAY_SLOTS=10",))
    r = run(small, "--quiet", "--recorded", "2")
    check(list(r.status) == ["finished", "history"], "10 slots, 20 steps within the delay: %s" % list(r.status))
    r = run(small, "--quiet", "--set", "dt=0.2")
    check(list(r.status) == ["finished"] * 5 and abs(r["x"][4] - 19 / 120) < 1e-2, "10 slots for 5 steps: %s %s" %
          (list(r.status), list(r["x"])))


# Stiff methods with delays (templates/delay.h, deriv/deriv.c): the Jacobian
# is taken with respect to the current state only, the past X being a known
# function of time (the method of steps); delay(x, tau) = X(t - tau) enters
# df/dt through X's slope.  y' = -L y + c y(t-tau) + r(t) with r such that
# y = sin(t) exactly (history sin(t) too): c y(t-tau) moves with t, so df/dt
# needs the past's slope (without it, -DODE_DELAY_SLOPE=0, Rodas5P falls to
# order ~2.5).
STIFF_EXACT = """# y' = -L y + c y(t-tau) + r(t), exact y = sin(t) (history sin(t))
par L=2, c=1, tau=1
y'=-L*y+c*delay(y,tau)+cos(t)+L*sin(t)-c*sin(t-tau)
y(0)=sin(t)
@ delay=2, total=3, dt=0.01
done
"""
STIFF_ORDER = {"rodas5p": 5, "ros3p": 3}


def stiff_errors(meth, slope=True, steps=(0.2, 0.1, 0.05)):
    runner = build("dde_stiff_exact_" + meth + ("" if slope else "_noslope"), STIFF_EXACT,
                   flags=["--option", "meth=" + meth], sanitize=False,
                   defines=FAST + (() if slope else ("-DODE_DELAY_SLOPE=0",)))
    errs = []
    for h in steps:
        r = run(runner, "--quiet", "--set", "dt=%r" % h, "--set", "toler=1e9", "--set", "atoler=1e9",
                "--set", "dtmax=%r" % h)
        check(r.status[0] == "finished", "%s h=%g: %s" % (meth, h, r.status[0]))
        errs.append(abs(r["y"][0] - math.sin(3.0)))
    return errs, [math.log2(errs[k] / errs[k + 1]) for k in range(len(errs) - 1)]


def test_stiff_exact():
    """stiff methods with delays: y = sin(t) exact; Rodas5P's order 5, ROS3P's 3 (fixed steps); the past's slope in df/dt is what gives them; L=1000 adaptive"""
    for meth, order in STIFF_ORDER.items():
        errs, orders = stiff_errors(meth)
        print("    %-8s y(3) errors %s, orders %s (expected %d)" %
              (meth, " ".join("%.2e" % e for e in errs), " ".join("%.2f" % o for o in orders), order))
        check(orders[-1] > order - 0.35, "%s: orders %s, errors %s" % (meth, orders, errs))
    errs, orders = stiff_errors("rodas5p", slope=False)
    print("    rodas5p without the past's slope in df/dt: errors %s, orders %s" %
          (" ".join("%.2e" % e for e in errs), " ".join("%.2f" % o for o in orders)))
    check(orders[-1] < 3.5, "without the slope: orders %s" % orders)
    # stiff: L = 1000, c = 500 (|c| < L: stable), adaptive, against dopri5 at the same tolerance
    # (ROS3P at 1e-7: at 1e-8 its 1600 steps within the delay outgrow the ring sized from dt, status history)
    stiff = STIFF_EXACT.replace("par L=2, c=1", "par L=1000, c=500").replace("total=3", "total=5")
    steps = {}
    for meth, tol in (("rodas5p", 1e-8), ("ros3p", 1e-7), ("dopri5", 1e-8)):
        r = run(build("dde_stiff_1000_" + meth, stiff, flags=["--option", "meth=" + meth], sanitize=False,
                      defines=FAST), "--set", "toler=%r" % tol, "--set", "atoler=%r" % tol)
        err = abs(r["y"][0] - math.sin(5.0))
        steps[meth] = r.steps
        print("    L=1000, c=500, %-8s toler %g: y(5) error %.2e, %s steps (%s)" % (meth, tol, err, r.steps, r.status[0]))
        check(r.status[0] == "finished" and err < 1e-6, "%s: %s, error %g" % (meth, r.status[0], err))
    check(steps["rodas5p"] * 10 < steps["dopri5"], "rodas5p %s steps, dopri5 %s" % (steps["rodas5p"], steps["dopri5"]))


# Stiff-ish delayed models against independent references: a Mackey-Glass
# feedback with a fast decay (gamma = 50) against the scipy method of steps;
# tau = 0.03 shorter than the steps (the step iterates on its own extension);
# a state-dependent delay (the Jacobian's -X'(t - tau) dtau/dy) against
# odegen's explicit DOP853 at 1e-13.
STIFF_REF = with_lines(os.path.join(os.path.dirname(os.path.abspath(__file__)), "stiff_references.ode"),
                       "@ total=10, dt=0.001\nrepeat transient=0, record=3")


def test_stiff_reference():
    """stiff methods with delays against references: a fast Mackey-Glass (scipy method of steps), tau < h, a state-dependent delay (DOP853 at 1e-13)"""
    times = [10.0, 20.0, 30.0]
    with np.errstate(over="ignore"):   # (numpy's power: scipy's rejected trial steps may overflow)
        refs = {"z": reference(lambda x, xd, t: 100 * xd / (1 + np.float64(xd) ** 10) - 50 * x, 2.0, lambda s: 0.5,
                               times),
                "w": reference(lambda x, xd, t: -2 * xd + math.sin(t), 0.03, lambda s: 1.0, times[:1])}
    r = run(build("dde_stiff_ref_dop853", STIFF_REF, flags=["--option", "meth=dop853"], sanitize=False,
                  defines=FAST), "--quiet", "--set", "toler=1e-13", "--set", "atoler=1e-13")
    check(list(r.status) == ["finished"] * 3, "dop853: %s" % list(r.status))
    refs["s"] = np.array(r["s"])
    for meth, tol in (("rodas5p", 1e-10), ("ros3p", 1e-9)):
        r = run(build("dde_stiff_ref_" + meth, STIFF_REF, flags=["--option", "meth=" + meth], sanitize=False,
                      defines=FAST), "--quiet", "--set", "toler=%r" % tol, "--set", "atoler=%r" % tol)
        check(list(r.status) == ["finished"] * 3, "%s: %s" % (meth, list(r.status)))
        for name, label in (("z", "Mackey-Glass, gamma 50"), ("w", "tau 0.03 < h"), ("s", "state-dependent tau")):
            got = np.array(r[name][:len(refs[name])])
            err = float(np.max(np.abs(got - refs[name])))
            print("    %-8s toler %g, %-22s largest difference %.2e" % (meth, tol, label, err))
            check(err <= 1000 * tol, "%s %s: %s against %s" % (meth, label, list(got), list(refs[name])))


# delay(x[j], tau) in an array kept as a loop (check/delay.c: each position
# reads its element's past, consecutive delay slots; emit_expr.c): the same
# model kept as a loop and written out, bit for bit.  Two delays an element
# (one constant, with breaking points; one state-dependent), and a scalar
# that reads one element's past declared before the array (its element then
# has a second slot).  (A tau with [j] in it is a constant of each element
# written out, with breaking points, but not in loop form: docs/delays.md.)
ARRAY_DDE = """# a ring of 8 delayed units: two delays an element, one state-dependent; w reads v3's past
# (each unit's history cos(j t) from a %%-block: an array line v[0..7](0)=… gives initial values only)
par c=1.5, tau=1, k=0.3
w'=-w+delay(v3,tau)
v[0..7]'=-v[j]-c*delay(v[j],tau)+k*delay(v[j],2*tau+0.05*v[j]^2)+0.2*w
%%[0..7]
v[j](0)=cos([j]*t)
%%
@ arrays=%s, delay=3, total=10, meth=%s, toler=1e-10, atoler=1e-10, dt=0.05
done
"""


def test_arrays_loop():
    """delay(v[j], tau) in an array kept as a loop: the same bits as the model written out (rk4, dopri5), c scanned"""
    for meth in ("rk4", "dopri5"):
        got = {}
        for form in ("loop", "written"):
            # nvcc contracts a*b+c into FMAs where the two forms' expressions differ in shape
            # (3e-16 apart on an H100): without FMAs the claim is the bits, on either backend
            runner = build("dde_array_%s_%s" % (form, meth), ARRAY_DDE % (form, meth), sanitize=False, defines=FAST,
                           nvccflags="-O1 -fmad=false")
            got[form] = run(runner, "--quiet", "--scan", "c=lin(0.5,2.5,5)", "--fields",
                            "w," + ",".join("v%d" % j for j in range(8)))
        loop, written = got["loop"], got["written"]
        check(list(loop.status) == ["finished"] * 5 and list(written.status) == list(loop.status),
              "%s: %s, %s" % (meth, list(loop.status), list(written.status)))
        diff = float(np.max(np.abs(loop.matrix - written.matrix)))
        print("    %-7s loop form against written out, 5 systems x 9 states: largest difference %.1e (v7 at c=2.5: %.15g)" %
              (meth, diff, loop["v7"][-1]))
        check(diff == 0.0, "%s: loop form and written out differ by %g" % (meth, diff))


# x'=-x(t-1) in windows of 0.001 (2 steps of 0.0005) whose ends are sums of
# 0.001, as tests/xpp/test_real.py's comparisons and a user's
# `on end { t0 = t1; t1 = t1 + W }` make them: t1 lies a few ulps of t past
# the second step, which took a sliver step of its own in each such window
# (an extra slot in the ring: the default ring ran out at t = 1, status
# history; Sherman's vascular.ode at t = 1.5).
WINDOWS = """# x'=-x(t-1) in windows of two steps whose ends are sums of 0.001
x'=-delay(x,1)
x(0)=1
@ delay=1, dt=0.0005, total=0.001
on end { t0 = t1; t1 = t1 + 0.001 }
repeat transient=0, record=3000
record t, x
done
"""


def test_windows():
    """windows of two steps whose ends are sums of the window (no sliver step per window): the default ring holds the delay, as one run over [0, 3]"""
    runner = build("dde_windows", WINDOWS, sanitize=False, defines=FAST)
    r = run(runner, "--quiet", "--recorded", "3000")
    bad = [k for k, v in enumerate(r.status) if v != "finished"]
    print("    3000 windows of 0.001: %d not finished%s; x(3) %.17g" %
          (len(bad), " (first at t=%.6g: %s)" % (r["t"][bad[0]], r.status[bad[0]]) if bad else "", r["x"][-1]))
    check(not bad, "window %d (t=%r) ended with %s: the ring ran out" % (bad[0] + 1, r["t"][bad[0]], r.status[bad[0]])
          if bad else "")
    once = run(runner, "--quiet", "--set", "total=%s" % repr(float(r["t"][-1])), "--recorded", "1")
    print("    one run over [0, %.17g]: x %.17g (difference %.2g); exact x(3) = -1/6" %
          (r["t"][-1], once["x"][0], abs(once["x"][0] - r["x"][-1])))
    check(once.status[0] == "finished" and abs(once["x"][0] - r["x"][-1]) < 1e-12 and
          abs(r["x"][-1] + 1 / 6) < 1e-10, "windows x(3) %r, once %r (%s), exact -1/6" %
          (r["x"][-1], once["x"][0], once.status[0]))


if __name__ == "__main__":
    sys.exit(main([("exact", test_exact), ("orders", test_orders), ("reference", test_reference),
                   ("events_save", test_events_save), ("xppaut", test_xppaut), ("statuses", test_statuses),
                   ("history_jump", test_history_jump), ("aux_lost", test_aux_lost), ("stiff_exact", test_stiff_exact),
                   ("stiff_reference", test_stiff_reference), ("arrays_loop", test_arrays_loop),
                   ("windows", test_windows), ("array_initial_values", test_array_initial_values)]))
