#!/usr/bin/python3
"""Numerical tests of the generated solvers (SPEC §3), each against something
independent: exact solutions, observed convergence orders, analytic event
times, and scipy's solve_ivp.  Bounds are derived from the method, not tuned.

Run: /usr/bin/python3 tests/numerics/test_numerics.py [name-filter…]
(ODEGEN_BACKEND=gpu runs the same suite on the GPU.)
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import build, check, main, run, run_raw  # noqa: E402

EPS = np.finfo(float).eps


def observed_orders(errors):
    return [math.log2(errors[i] / errors[i + 1]) for i in range(len(errors) - 1)]


# ----------------------------------------------------------------------------- exact solutions

def oscillator(meth, dt, total, extra=""):
    return f"""# linear oscillator: x = cos(w t), v = -w sin(w t)
par w=1.5
x'=v
v'=-w^2*x
init x=1, v=0
@ meth={meth}, dt={dt}, total={total}{extra}
done
"""


def test_rk4_order():
    """RK4's global error falls as dt^4: observed order within 4 ± 0.2."""
    errs = []
    for dt in (0.1, 0.05, 0.025, 0.0125):
        r = run(build("osc_rk4_%g" % dt, oscillator("rk4", dt, 2.0)), "--fields", "x,v,t")
        check(r.status[0] == "finished", "status %s" % r.status[0])
        check(r["t"][0] == 2.0, "the clipped last step must end at t1 exactly: t=%r" % r["t"][0])
        errs.append(abs(r["x"][0] - math.cos(1.5 * 2.0)) + abs(r["v"][0] + 1.5 * math.sin(1.5 * 2.0)))
    p = observed_orders(errs)
    check(all(3.8 < q < 4.2 for q in p), "observed orders %s (errors %s)" % (p, errs))


def test_forced_oscillator_order():
    """x'' + w0^2 x = A cos(w t + phi) + B sin(2 w t): the sin/cos of time that
    RK4 advances by angle addition keep the method fourth order (observed
    order 4 ± 0.2 against the exact solution), for RK4 and float-free double."""
    w0, A, B, w, phi = 2.0, 0.7, 0.3, 1.3, 0.4

    def exact(t):
        P, Q = A / (w0 ** 2 - w ** 2), B / (w0 ** 2 - 4 * w ** 2)
        c1 = 1.0 - P * math.cos(phi)
        c2 = (0.0 + P * w * math.sin(phi) - Q * 2 * w) / w0
        return c1 * math.cos(w0 * t) + c2 * math.sin(w0 * t) + P * math.cos(w * t + phi) + Q * math.sin(2 * w * t)

    errs = []
    for dt in (0.1, 0.05, 0.025):
        ode = f"""par w0={w0}, A={A}, B={B}, w={w}, phi={phi}
x'=v
v'=-w0^2*x+A*cos(w*t+phi)+B*sin(2*w*t)
init x=1, v=0
@ meth=rk4, dt={dt}, total=3
done
"""
        r = run(build("forced_%g" % dt, ode), "--fields", "x")
        errs.append(abs(r["x"][0] - exact(3.0)))
    p = observed_orders(errs)
    check(all(3.8 < q < 4.2 for q in p), "observed orders %s (errors %s)" % (p, errs))


def test_time_trig_angle_addition():
    """RK4 reaches the stage times' sin/cos of time by angle addition; with
    --no-time-trig it evaluates them at each stage time instead.  The two agree
    to rounding (1e-12 relative) on the Duffing oscillator over 3 periods."""
    ode = open(os.path.join(os.path.dirname(__file__), "..", "..", "models", "duffing.ode")).read()
    args = ("--scan", "k=lin(0.2,0.3,8)", "--transient", "0", "--recorded", "3")
    a = run(build("duffing_rot", ode), *args)
    b = run(build("duffing_rot", ode, flags=("--no-time-trig",)), *args)
    d = max(np.max(np.abs(a["y1"] - b["y1"])), np.max(np.abs(a["y2"] - b["y2"])))
    check(d < 1e-12, "angle addition and direct evaluation differ by %.3g" % d)


def test_rkck45_order():
    """The propagated RKCK45 solution is fifth order: with the step pinned
    (dtmin = dtmax = dt) the observed order is 5 ± 0.3."""
    errs = []
    for dt in (0.2, 0.1, 0.05):
        ode = oscillator("rkck45", dt, 2.0, ", dtmin=%g, dtmax=%g, toler=1e-16, atoler=1e-16" % (dt, dt))
        r = run(build("osc_ck_%g" % dt, ode), "--fields", "x,v")
        errs.append(abs(r["x"][0] - math.cos(3.0)) + abs(r["v"][0] + 1.5 * math.sin(3.0)))
    p = observed_orders(errs)
    check(all(4.7 < q < 5.3 for q in p), "observed orders %s (errors %s)" % (p, errs))


def test_rkck45_tolerance():
    """Adaptive RKCK45 on the oscillator: each accepted step's local error is
    below atol + rtol*|y| ≤ 2 tol, and the oscillator does not amplify errors,
    so the global error is below 2 tol × steps; it also falls with tol."""
    prev = None
    for tol in (1e-5, 1e-8, 1e-11):
        ode = oscillator("rkck45", 0.1, 10.0, ", toler=%g, atoler=%g" % (tol, tol))
        r = run(build("osc_tol_%g" % tol, ode), "--fields", "x,v")
        err = max(abs(r["x"][0] - math.cos(15.0)), abs(r["v"][0] + 1.5 * math.sin(15.0)))
        check(r.steps is not None and r.steps > 0, "no step count in the summary: %r" % r.stderr)
        check(err <= 2 * tol * r.steps, "tol %g: error %.3g above 2*tol*steps = %.3g" % (tol, err, 2 * tol * r.steps))
        if prev is not None:
            check(err < prev, "error did not fall with the tolerance: %.3g then %.3g" % (prev, err))
        prev = err


def test_exponential_decay_scan():
    """y' = -a y over a lin scan of a: every system matches exp(-a t) to the
    RK4 bound C h^4 (C = a^5 t / 120 · e^0, the leading error term)."""
    ode = """par a=1
y'=-a*y
init y=1
@ meth=rk4, dt=0.01, total=1
scan a = lin(0.5, 4, 8)
done
"""
    r = run(build("decay", ode), "--fields", "a,y")
    a = np.linspace(0.5, 4, 8)
    check(np.array_equal(r["a"], a) or np.allclose(r["a"], a, rtol=0, atol=4 * EPS), "scan values %s" % r["a"])
    bound = a ** 5 * 1.0 / 120 * 0.01 ** 4 * 1.01 + 1e-15
    err = np.abs(r["y"] - np.exp(-a))
    check(np.all(err <= bound), "errors %s above %s" % (err, bound))


def test_float_precision():
    """--precision float integrates in single precision: the error is at
    float rounding level (above double's, below 1e-5)."""
    ode = oscillator("rk4", 0.01, 2.0)
    r = run(build("osc_float", ode, precision="float"), "--fields", "x")
    err = abs(r["x"][0] - math.cos(3.0))
    check(1e-9 < err < 1e-5, "single-precision error %.3g" % err)


# ----------------------------------------------------------------------------- events

def event_model(meth, tol, extra_events, dt=0.01):
    return f"""par w=1
x'=v
v'=-w^2*x
init x=1, v=0
acc hits
{extra_events}
@ meth={meth}, dt={dt}, total=100, toler=1e-12, atoler=1e-12
done
"""


def test_event_times():
    """x = cos t crosses 0 downwards at pi/2 + 2 pi k.  stop=3 ends the
    integration at the third crossing (5 pi/2 + 2 pi); the located time is
    within tol/|x'| of it (plus the integration error, far smaller)."""
    for meth in ("rk4", "rkck45"):
        for tol in (1e-3, 1e-6, 1e-9):
            ev = "event down: x, dir=-1, tol=%g, stop=3 { hits = hits + 1 }" % tol
            r = run(build("ev_%s_%g" % (meth, tol), event_model(meth, tol, ev)), "--fields", "t,x,hits")
            check(r.status[0] == "event", "status %s" % r.status[0])
            check(r["hits"][0] == 3, "hits %g" % r["hits"][0])
            t_exact = math.pi / 2 + 4 * math.pi
            check(abs(r["x"][0]) <= tol, "|x| = %.3g outside the zone %g" % (abs(r["x"][0]), tol))
            check(abs(r["t"][0] - t_exact) <= 1.01 * tol + 1e-9,
                  "%s tol %g: t = %.15g, exact %.15g" % (meth, tol, r["t"][0], t_exact))


def test_event_directions():
    """dir=0 sees both crossings (pi/2, 3pi/2: stop=2 ends at 3pi/2);
    dir=+1 only upward ones (3pi/2 first); the shorthand x < 0.5 means
    x - 0.5 downwards (pi/3)."""
    cases = [("event both: x, dir=0, stop=2, tol=1e-10", 1.5 * math.pi),
             ("event up: x, dir=1, stop=1, tol=1e-10", 1.5 * math.pi),
             ("event half: x < 0.5, stop=1, tol=1e-10", math.pi / 3)]
    for i, (ev, t_exact) in enumerate(cases):
        r = run(build("evdir%d" % i, event_model("rkck45", 1e-9, ev)), "--fields", "t")
        check(r.status[0] == "event", "%s: status %s" % (ev, r.status[0]))
        check(abs(r["t"][0] - t_exact) < 1e-8, "%s: t = %.15g, exact %.15g" % (ev, r["t"][0], t_exact))


def test_earliest_of_two_crossings():
    """Two events crossed inside one RK4 step: the earlier one is located
    first, whichever is declared first.  y = 1 - t is exact under RK4, so the
    times are exact to the event tolerance: 0.38 (y = 0.62) then 0.40."""
    ode = """y'=-1
init y=1
acc first, t_a, t_b
event b: y - 0.6, dir=-1, tol=1e-12 { t_b = t; if (first == 0) { first = 2 } }
event a: y - 0.62, dir=-1, tol=1e-12 { t_a = t; if (first == 0) { first = 1 } }
@ meth=rk4, dt=0.25, total=1
done
"""
    r = run(build("earliest", ode), "--fields", "first,t_a,t_b")
    check(r["first"][0] == 1, "the later crossing was detected first (first=%g)" % r["first"][0])
    check(abs(r["t_a"][0] - 0.38) < 1e-11 and abs(r["t_b"][0] - 0.40) < 1e-11,
          "times %.15g %.15g" % (r["t_a"][0], r["t_b"][0]))


def test_impacts():
    """A ball dropped from height h bounces with restitution r: impacts at
    t1 = sqrt(2h/g), then every 2 r^k t1 later.  RK4 is exact for this
    quadratic motion, so the 6th impact time is right to tol/|v| and there are
    exactly as many impacts as the analytic sequence has before the end; the reset
    leaves y = 0 inside the zone without firing again."""
    ode = """par g=9.81, r=0.8, h=1
y'=v
v'=-g
init y=1
acc n, t6, vmax
event floor: y < 0, tol=1e-10 { v = -r*v; n = n + 1; if (n == 6) { t6 = t } }
on step { vmax = max(vmax, v) }
@ meth=rk4, dt=0.01, total=3.5
done
"""
    r = run(build("bounce", ode), "--fields", "n,t6,vmax")
    g, rr, h = 9.81, 0.8, 1.0
    t1 = math.sqrt(2 * h / g)
    times = [t1]
    while len(times) < 100:   # the impacts accumulate at t1 (1 + 2r/(1-r)) = 4.06 s
        nxt = times[-1] + 2 * rr ** len(times) * t1
        if nxt > 3.5:
            break
        times.append(nxt)
    check(r["n"][0] == len(times), "impacts %g, analytic %d" % (r["n"][0], len(times)))
    v6 = g * t1 * rr ** 5
    check(abs(r["t6"][0] - times[5]) <= 1e-10 / v6 * 1.01 + 1e-12, "6th impact at %.15g, analytic %.15g" % (r["t6"][0], times[5]))
    check(abs(r["vmax"][0] - rr * g * t1) < 1e-9, "rebound speed %.15g, analytic %.15g" % (r["vmax"][0], rr * g * t1))


def test_equilibrium_in_zone():
    """A system resting inside an event's zone (x = v = 0, event on v) is an
    equilibrium: it stops after evsteps accepted steps in the zone — with RK4
    at dt = 0.01 and evsteps = 50, at t = 0.5 exactly."""
    ode = """x'=v
v'=-x-v
init x=0, v=0
event turn: v, dir=-1
@ meth=rk4, dt=0.01, total=10, evsteps=50
done
"""
    r = run(build("equilibrium", ode), "--fields", "t")
    check(r.status[0] == "equilibrium", "status %s" % r.status[0])
    check(abs(r["t"][0] - 0.5) < 1e-12, "stopped at t = %.15g" % r["t"][0])


def test_equilibrium_entered_from_the_wrong_side():
    """A damped oscillator that settles into the zone of an event whose
    direction it never crosses in (v -> 0 without a final downward crossing
    beyond the zone) is still an equilibrium after evsteps steps in the zone:
    it must not run on to t1 = 1e4."""
    ode = """x'=v
v'=-x-0.5*v
init x=1, v=0.1
event turn: v, dir=-1
@ meth=rkck45, toler=1e-10, atoler=1e-10, total=1e4
done
"""
    r = run(build("equilibrium_armed", ode), "--fields", "t")
    check(r.status[0] == "equilibrium", "status %s" % r.status[0])
    check(r["t"][0] < 1e3, "stopped only at t = %g" % r["t"][0])


def test_global_arret():
    """An XPPAUT global with arret=1: x = cos t crossing 0 upwards stops the
    integration at 3pi/2, after the reset of the global ran."""
    ode = """x'=v
v'=-x
init x=1, v=0
aux e=x^2+v^2
global 1 {x} {v=2*v; arret=1}
@ meth=rkck45, toler=1e-12, atoler=1e-12, total=20
done
"""
    r = run(build("global", ode), "--fields", "t,v,e")
    check(r.status[0] == "event", "status %s" % r.status[0])
    check(abs(r["t"][0] - 1.5 * math.pi) < 1e-6, "t = %.12g" % r["t"][0])
    check(abs(r["v"][0] - 2.0) < 1e-6 and abs(r["e"][0] - 4.0) < 1e-5, "v = %.12g, e = %.12g" % (r["v"][0], r["e"][0]))


# ----------------------------------------------------------------------------- statuses

def test_statuses_do_not_spread():
    """y' = y^2 blows up at t = 1/y0: the systems with 1/y0 < 1 end as NaN
    (or bound), their neighbours finish with y0/(1 - y0 t)."""
    for meth in ("rk4", "rkck45"):
        ode = f"""y'=y^2
init y=0.5
@ meth={meth}, dt=0.001, total=1, toler=1e-10, atoler=1e-10
scan y = list(-1, 0.5, 4, 0.25, 10, 0.9)
done
"""
        r = run(build("blowup_" + meth, ode), "--fields", "y")
        y0 = np.array([-1, 0.5, 4, 0.25, 10, 0.9])
        for i, v in enumerate(y0):
            if 1 / v < 1 and v > 0:
                check(r.status[i] in ("nan", "bound"), "%s y0=%g: status %s" % (meth, v, r.status[i]))
            else:
                check(r.status[i] == "finished", "%s y0=%g: status %s" % (meth, v, r.status[i]))
                exact = v / (1 - v)
                check(abs(r["y"][i] - exact) < 1e-6 * abs(exact), "%s y0=%g: y=%.12g exact %.12g" % (meth, v, r["y"][i], exact))


def test_bound_and_maxsteps():
    """@bound stops a system whose state leaves ±bound; @maxsteps stops an
    integration after that many steps (RK4: at t = maxsteps*dt)."""
    ode = """y'=y
init y=1
@ meth=rk4, dt=0.01, total=10, bound=100
done
"""
    r = run(build("bound", ode), "--fields", "y,t")
    check(r.status[0] == "bound", "status %s" % r.status[0])
    check(100 < r["y"][0] < 100 * math.exp(0.01) * 1.0001, "y = %g at the stop" % r["y"][0])
    ode = ode.replace("bound=100", "maxsteps=25")
    r = run(build("maxsteps", ode), "--fields", "t")
    check(r.status[0] == "maxsteps", "status %s" % r.status[0])
    check(abs(r["t"][0] - 0.25) < 1e-12, "t = %.15g" % r["t"][0])


def test_maxsteps_ends_the_scan():
    """A system that exhausts maxsteps is not integrated again in the scan's later repetitions
    (each would take maxsteps steps again): its rows repeat the state where it stopped, with
    status maxsteps.  Its neighbour, whose event ends every integration early, goes on."""
    ode = """par a=0.1
x'=1
event hit: t - t0 - a, dir=1, stop=1
on end { t0 = t; t1 = t + 1 }
@ meth=rk4, dt=0.01, total=1, maxsteps=25
repeat transient=2, record=3
scan a = list(0.1, 5)
done
"""
    r = run(build("maxsteps_scan", ode), "--fields", "x,t")
    check(len(r) == 6, "rows: %d" % len(r))
    quick, stuck = slice(0, 3), slice(3, 6)
    check(list(r.status[quick]) == ["event"] * 3, "a=0.1: statuses %s" % list(r.status[quick]))
    check(np.allclose(r["x"][quick], [0.3, 0.4, 0.5], atol=1e-9), "a=0.1: x %s" % r["x"][quick])
    check(list(r.status[stuck]) == ["maxsteps"] * 3, "a=5: statuses %s" % list(r.status[stuck]))
    check(np.all(np.abs(r["t"][stuck] - 0.25) < 1e-12) and np.all(np.abs(r["x"][stuck] - 0.25) < 1e-12),
          "a=5 integrated again after maxsteps: t %s, x %s" % (r["t"][stuck], r["x"][stuck]))
    # 5 integrations of 10 steps (+ the located one) for a=0.1, one of 25 for a=5.
    check(r.steps is not None and r.steps <= 5 * 11 + 25, "%s steps in all (the summary): %s" % (r.steps, r.stderr))


# ----------------------------------------------------------------------------- windows with nothing to integrate

def test_empty_windows():
    """A window that has nothing to integrate is never a result (issue 19):
    an `on end { t0 = t }` that leaves t1 behind integrates [0, 1] once, then
    every later integration ends `empty` (its period 0, not the 1 of a state
    that no longer moves; `on end` does not run again); a window that `on
    start` empties, or one where a fixed step no longer moves t, likewise;
    the windows the options make are refused before anything runs."""
    ode = """x'=-x
init x=1
acc ends
on end { ends = ends + 1; t0 = t }
period of=x
@ meth=%s, dt=0.01, total=1
repeat transient=0, record=4
record x, t0, t1, ends, period
done
"""
    for meth in ("rk4", "dopri5"):
        r = run(build("empty_window_" + meth, ode % meth))
        check(list(r.status) == ["finished", "empty", "empty", "empty"], "%s: statuses %s" % (meth, list(r.status)))
        check(np.all(r["x"] == r["x"][0]) and abs(r["x"][0] - math.exp(-1)) < 1e-4, "%s: x %s" % (meth, r["x"]))
        check(list(r["ends"]) == [1, 1, 1, 1] and list(r["period"]) == [0, 0, 0, 0],
              "%s: on end ran %s times, period %s" % (meth, r["ends"], r["period"]))
        check("empty 1" in r.stderr and "finished" not in r.stderr.split(";")[-1], "summary: %s" % r.stderr)
    # on start empties the window; a fixed step that cannot move t at 1e17 (the first
    # integration's end moves the window there)
    r = run(build("empty_on_start", """x'=-x
init x=1
on start { t1 = t0 - 1 }
@ meth=rk4, dt=0.01, total=1
done
"""))
    check(list(r.status) == ["empty"] and r["x"][0] == 1.0, "on start: %s, x %s" % (list(r.status), r["x"]))
    r = run(build("empty_far", """x'=-x
init x=1
on end { t0 = 1e17; t1 = 1e17 + 1024 }
@ meth=rk4, dt=0.01, total=1
repeat transient=0, record=2
done
"""))
    check(list(r.status) == ["finished", "empty"], "dt below the spacing of t: %s" % list(r.status))
    # the options' window in the working precision: refused before anything runs
    runner = build("empty_options", "x'=-x\ninit x=1\n@ meth=rk4, dt=0.01, total=6.283185307179586\ndone\n")
    p = run_raw(runner, "--set", "t0=1e17")
    check(p.returncode == 2 and p.stdout == "" and "t0 + total is t0 in double precision" in p.stderr, p.stderr)
    p = run_raw(build("empty_options_float", "x'=-x\ninit x=1\n@ meth=rk4, dt=0.01, total=1\ndone\n", precision="float"),
                "--set", "t0=1e8")
    check(p.returncode == 2 and "t0 + total is t0 in single precision: total=1.0 is too short for t0=1e8 (numbers "
          "near it are 8.0 apart)" in p.stderr, p.stderr)


# ----------------------------------------------------------------------------- fixed steps outside their stability region

STIFF = """# x' = -lam (x - cos t): |x| <= 1 for every lam > 0 once the start is forgotten
par lam=1000
x'=-lam*(x-cos(t))
init x=0
@ meth=%s, dt=%s, total=2
scan lam = list(1000, 1)
%s
done
"""


def stiff_exact(lam, t):
    """x(t) from x(0) = 0: lam (lam cos t + sin t) / (lam^2 + 1) + C e^(-lam t)."""
    part = lambda u: lam * (lam * math.cos(u) + math.sin(u)) / (lam * lam + 1)
    return part(t) - part(0) * math.exp(-lam * t)


def test_unstable_fixed_steps():
    """A fixed-step method whose step lies outside its stability region ends
    `unstable` within a few steps (stability.h), not with numbers: RK4 with
    dt = 0.01 on x' = -1000 (x - cos t) ended at -1.9e49 as `finished`
    (issue 19).  For Euler, Heun and RK4, on the fast path and (with an event
    that never fires) step by step: h lam just beyond the real stability
    limit (2 for Euler and Heun, 2.785 for RK4) and far beyond end `unstable`
    after at most 10 steps; just inside it, and the neighbour lam = 1, finish
    with the exact solution.  In float too."""
    event = "event never: t-100"   # (the step-by-step path; a crossing would cut steps short)
    limits = {"euler": 2.0, "modeuler": 2.0, "rk4": 2.785}
    for meth, limit in limits.items():
        for path, extra in (("fast", ""), ("stepwise", event)):
            for hl, want in ((0.95 * limit, "finished"), (1.05 * limit, "unstable"), (10.0, "unstable")):
                dt = hl / 1000
                r = run(build("unstable_%s_%s" % (meth, path), STIFF % (meth, repr(0.01), extra), sanitize=False),
                        "--set", "dt=%r" % dt, "--fields", "x,t")
                check(r.status[1] == "finished" and abs(r["x"][1] - stiff_exact(1, 2.0)) < 5 * dt,
                      "%s %s dt=%g lam=1: %s x=%r" % (meth, path, dt, r.status[1], r["x"][1]))
                check(r.status[0] == want, "%s %s h lam=%g: status %s (x=%r at t=%r)" % (meth, path, hl, r.status[0],
                                                                                       r["x"][0], r["t"][0]))
                if want == "finished":
                    check(abs(r["x"][0] - stiff_exact(1000, 2.0)) < 1e-4, "%s %s h lam=%g: x=%r, exact %r"
                          % (meth, path, hl, r["x"][0], stiff_exact(1000, 2.0)))
                else:
                    check(r["t"][0] <= 10 * dt + 1e-12, "%s %s h lam=%g: stopped at t=%r (%d steps)"
                          % (meth, path, hl, r["t"][0], round(r["t"][0] / dt)))
    r = run(build("unstable_rk4_float", STIFF % ("rk4", "0.01", ""), precision="float", sanitize=False), "--fields", "x,t")
    check(list(r.status) == ["unstable", "finished"], "float: %s" % list(r.status))


def test_stable_fixed_steps_not_flagged():
    """No false alarm where the method is stable: a non-normal linear system
    whose |J v| is a thousand times its eigenvalues (x' = -x + 1000 y,
    y' = -y: x = 1000 t e^-t), Van der Pol (mu = 10, 100) and Duffing's
    chaotic and periodic orbits, with each fixed-step method at steps it
    integrates stably, on the fast path and step by step: every system
    finishes, and the non-normal one matches its exact solution."""
    nonnormal = """x'=-x+1000*y
y'=-y
init x=0, y=1
@ meth=%s, dt=%s, total=20
%s
done
"""
    vdp = """par mu=10
x'=y
y'=mu*(1-x^2)*y-x
init x=2, y=0
@ meth=%s, dt=%s, total=30
scan mu = list(1, 10, 100)
%s
done
"""
    duffing = """par k=0.25, B=0.3
y1'=y2
y2'=y1-y1^3-k*y2+B*cos(t)
@ meth=%s, dt=%s, total=100
scan k = lin(0.05, 0.5, 10)
%s
done
"""
    steps = {"euler": (0.001, 1e-4, 0.001), "modeuler": (0.01, 0.001, 0.01), "rk4": (0.1, 0.002, 0.1)}
    for meth, (h_nn, h_vdp, h_duf) in steps.items():
        for path, extra in (("fast", ""), ("stepwise", "event never: t-1e6")):
            extra_duffing = extra
            r = run(build("stable_nn_%s_%s" % (meth, path), nonnormal % (meth, h_nn, extra), sanitize=False), "--fields", "x,y")
            exact = 1000 * 20 * math.exp(-20)
            check(list(r.status) == ["finished"] and abs(r["x"][0] - exact) < 0.02 * exact,
                  "%s %s non-normal: %s x=%r exact %r" % (meth, path, list(r.status), r["x"][0], exact))
            r = run(build("stable_vdp_%s_%s" % (meth, path), vdp % (meth, h_vdp, extra), sanitize=False), "--fields", "x")
            check(list(r.status) == ["finished"] * 3, "%s %s van der pol: %s" % (meth, path, list(r.status)))
            r = run(build("stable_duffing_%s_%s" % (meth, path), duffing % (meth, h_duf, extra_duffing), sanitize=False), "--fields", "y1")
            check(list(r.status) == ["finished"] * 10, "%s %s duffing: %s" % (meth, path, list(r.status)))


# ----------------------------------------------------------------------------- hooks, accessories, repetitions

def test_hook_order_and_repetitions():
    """Order in an integration: on start, steps {accept, events, on step},
    on end; repetitions carry the state and accessories over, and `on end`
    can move the window so that time goes on."""
    ode = """x'=1
init x=0
acc nstart, nstep, nend, ev_t, ev_seen_by_step
on start { nstart = nstart + 1 }
on step { nstep = nstep + 1; if (ev_t == t) { ev_seen_by_step = ev_seen_by_step + 1 } }
event mid: t - t0 - 0.55, dir=1 { ev_t = t }
on end { nend = nend + 1; t0 = t1; t1 = t1 + 1 }
@ meth=rk4, dt=0.1, total=1
repeat transient=2, record=3
done
"""
    r = run(build("hooks", ode), "--fields", "x,t,t0,t1,nstart,nstep,nend,ev_seen_by_step")
    check(len(r) == 3 and list(r["rep"]) == [0, 1, 2], "rows %s" % list(r["rep"]))
    for k in range(3):
        n = k + 3  # integrations done when rep k is recorded
        check(r["nstart"][k] == n and r["nend"][k] == n, "rep %d: nstart %g nend %g" % (k, r["nstart"][k], r["nend"][k]))
        check(r["nstep"][k] == 11 * n, "rep %d: %g steps (10 steps + 1 located per integration)" % (k, r["nstep"][k]))
        check(abs(r["x"][k] - n) < 1e-12 and abs(r["t"][k] - n) < 1e-12, "rep %d: x %g t %g" % (k, r["x"][k], r["t"][k]))
        check(r["t0"][k] == n and r["t1"][k] == n + 1, "rep %d: window [%g, %g]" % (k, r["t0"][k], r["t1"][k]))
        check(r["ev_seen_by_step"][k] == n, "on step did not run after the event in the same step")


def test_derived_functions_temporaries():
    """Derived parameters, user functions of several arguments, temporaries
    declared after their use and XPPAUT spellings all mean what they say:
    x'' = -w2 x with w2 = w*w gives cos(w t)."""
    ode = """# mixed XPPAUT spellings
dX/dt = V
v' = ACCEL
accel = -scale(W2, x, 1)      # a temporary used above its line
scale(a, b, c) = a*b*c
!w2 = w*w
PAR W = 2
X(0)=1
@ METH=RUNGEKUTTA, DT=.001, TOTAL=1
done
"""
    r = run(build("spellings", ode), "--fields", "X,V,w2")
    check(abs(r["X"][0] - math.cos(2.0)) < 1e-12, "X = %.15g" % r["X"][0])
    check(r["w2"][0] == 4.0, "w2 = %g" % r["w2"][0])


# ----------------------------------------------------------------------------- scans

def test_scan_product_and_kinds():
    """Several scan lines form their product, the last varying fastest; lin,
    log and list give the stated values; --scan replaces the file's scans."""
    ode = """par a=0, b=0, c=0
x'=0
@ total=0.1
scan a = lin(0, 1, 3)
scan b = log(1, 100, 3)
scan c = list(7, 8)
done
"""
    runner = build("scans", ode)
    r = run(runner, "--fields", "a,b,c")
    check(len(r) == 18, "%d rows" % len(r))
    a, b, c = np.meshgrid([0, 0.5, 1], [1, 10, 100], [7, 8], indexing="ij")
    for name, want in (("a", a), ("b", b), ("c", c)):
        check(np.allclose(r[name], want.ravel(), rtol=1e-15, atol=0), "%s = %s" % (name, r[name]))
    check(list(r["system"]) == list(range(18)), "system indices %s" % r["system"])
    r = run(runner, "--scan", "c=lin(1,2,2)", "--fields", "a,c")
    check(len(r) == 2 and list(r["c"]) == [1, 2] and list(r["a"]) == [0, 0], "--scan did not replace the scans")


# ----------------------------------------------------------------------------- against scipy

def scipy_reference(f, y0, t1):
    from scipy.integrate import solve_ivp
    s = solve_ivp(f, (0, t1), y0, method="DOP853", rtol=1e-12, atol=1e-12)
    return s.y[:, -1]


def test_duffing_against_scipy():
    """Duffing over 4 forcing periods, 6 values of k: RKCK45 at tolerance
    1e-12 agrees with DOP853 at rtol 1e-12 to 1e-8."""
    ode = """par k=0.25, B=0.3
y1'=y2
y2'=y1-y1^3-k*y2+B*cos(t)
init y1=0.5, y2=-0.2
@ meth=rkck45, toler=1e-12, atoler=1e-12, total=25.132741228718345
scan k = lin(0.2, 0.3, 6)
done
"""
    r = run(build("duffing_ref", ode), "--fields", "k,y1,y2")
    for i, k in enumerate(r["k"]):
        ref = scipy_reference(lambda t, y: [y[1], y[0] - y[0] ** 3 - k * y[1] + 0.3 * math.cos(t)], [0.5, -0.2],
                              8 * math.pi)
        got = np.array([r["y1"][i], r["y2"][i]])
        check(np.max(np.abs(got - ref)) < 1e-8 * max(1, np.max(np.abs(ref))), "k=%g: %s vs %s" % (k, got, ref))


def test_lorenz_against_scipy():
    """Lorenz over t in [0, 2] (short enough that chaos amplifies errors by
    less than 10): RKCK45 at 1e-12 agrees with DOP853 to 1e-8 relative."""
    ode = """par sigma=10, rho=28, beta=2.6666666666666665
x'=sigma*(y-x)
y'=x*(rho-z)-y
z'=x*y-beta*z
init x=10, y=10, z=10
@ meth=rkck45, toler=1e-12, atoler=1e-12, total=2
scan rho = list(5, 15, 21, 28)
done
"""
    r = run(build("lorenz_ref", ode), "--fields", "rho,x,y,z")
    for i, rho in enumerate(r["rho"]):
        f = lambda t, u: [10 * (u[1] - u[0]), u[0] * (rho - u[2]) - u[1], u[0] * u[1] - 8 / 3 * u[2]]
        ref = scipy_reference(f, [10, 10, 10], 2.0)
        got = np.array([r["x"][i], r["y"][i], r["z"][i]])
        check(np.max(np.abs(got - ref)) < 1e-8 * np.max(np.abs(ref)), "rho=%g: %s vs %s" % (rho, got, ref))


def test_threads_agree():
    """The CPU path gives bit-identical results with 1 and 2 OpenMP threads."""
    ode = open(os.path.join(os.path.dirname(__file__), "..", "..", "models", "duffing.ode")).read()
    runner = build("duffing_threads", ode)
    args = ("--scan", "k=lin(0.2,0.3,16)", "--transient", "3", "--recorded", "2")
    a = run(runner, *args, env={"OMP_NUM_THREADS": "1"})
    b = run(runner, *args, env={"OMP_NUM_THREADS": "2"})
    check(np.array_equal(a["y1"], b["y1"]) and np.array_equal(a["y2"], b["y2"]), "results depend on the thread count")


TESTS = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]

if __name__ == "__main__":
    sys.exit(main(TESTS))
