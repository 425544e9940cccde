#!/usr/bin/python3
"""What an event does, whatever the shape of its condition (issue 20 items 1
and 2, issue 19 D10 d): templates/events.h, firing.h and the evsteps rule of
integrate.h.  Each test's numbers come from the model's exact solution.

  - every event whose condition crosses in a step fires, in file order:
    conditions that jump (a square wave), that only touch zero, several
    events on one condition, `event`s and `global`s alike;
  - a global whose statements carry another global's condition across zero
    fires that one too at the same instant (XPPAUT's rule; tests/xpp/
    test_event_rules.py compares it with XPPAUT);
  - a condition that is exactly zero over an interval never stops a system
    with a `global`, and an `event` only where the system is at rest;
  - events that accumulate (a bouncing ball, restitution 0.5 and 0.8) end
    with status zeno at the accumulation time, on the floor — never
    `finished` below it; detectors that are not Zeno are left alone.

Run: /usr/bin/python3 tests/numerics/test_events.py [name-filter…]
(ODEGEN_BACKEND=gpu runs the same suite on the GPU.)
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import build, check, main, run  # noqa: E402

METHODS = ("rk4", "rkck45", "dopri5", "rodas5p")


# ----------------------------------------------------------------------------- every shape fires

# A square wave: v jumps up at t = 10, 20, …, 90 and down at 5, 15, …, 85.
# Three events on the upward jump write z as 1, then z*10+2, then z*10+3:
# z = 123 after each jump only when all three fired, in file order.  The
# touch events: cos(t) - 1 reaches zero from below at 2 pi k without
# crossing it.
SHAPES = """par TA=5, per=10
v=-50+50*heav(TA-mod(t,per))
y'=1
z'=0
init y=0, z=0
acc n1, n2, n3, ndown, ntouch1, ntouch2, tjump
{first} 1 {{v+25}} {{z=1; n1=n1+1}}
{first} 1 {{v+25}} {{z=z*10+2; y=0; n2=n2+1}}
event third: v+25, dir=1 {{ z = z*10+3; n3 = n3 + 1; tjump = t }}
event down: v+25, dir=-1 {{ ndown = ndown + 1 }}
event touch1: cos(t) - 1, dir=1 {{ ntouch1 = ntouch1 + 1 }}
event touch2: cos(t) - 1, dir=1 {{ ntouch2 = ntouch2 + 1 }}
@ meth={meth}, dt=0.1, total=93, toler=1e-9, atoler=1e-9, dtmax=1
done
"""
# (dtmax: y and z are exact polynomials, whose error estimate lets the steps
# grow over whole periods of the square wave, which no check point would
# see: README, "What can still be missed")


def test_every_shape_fires():
    """Jumps, touches and several events on one condition: every event fires
    at each of its crossings (9 up, 9 down, 14 touches at 2 pi k < 93), the
    three on one jump in file order (z = 123), y reset at the last jump
    (y = 3 at t = 93), the jump located to rounding (t = 90)."""
    touches = int(93 / (2 * math.pi))
    for first in ("global", "event"):
        for meth in METHODS:
            text = SHAPES.format(first=first, meth=meth)
            if first == "event":   # the same as odegen events
                text = text.replace("event 1 {v+25} {z=1; n1=n1+1}", "event a: v+25, dir=1 { z=1; n1=n1+1 }")
                text = text.replace("event 1 {v+25} {z=z*10+2; y=0; n2=n2+1}",
                                    "event b: v+25, dir=1 { z=z*10+2; y=0; n2=n2+1 }")
            r = run(build("shapes_%s_%s" % (first, meth), text, sanitize=meth == "rk4"), "--fields",
                    "t,y,z,n1,n2,n3,ndown,ntouch1,ntouch2,tjump")
            label = "%s, %s" % (first, meth)
            check(list(r.status) == ["finished"], "%s: status %s" % (label, r.status))
            counts = [r[k][0] for k in ("n1", "n2", "n3", "ndown")]
            check(counts == [9, 9, 9, 9], "%s: up, up, up, down detections %s, expected 9 each" % (label, counts))
            check(r["z"][0] == 123, "%s: z = %g, expected 123 (the three in file order)" % (label, r["z"][0]))
            check(abs(r["y"][0] - 3) < 1e-9, "%s: y = %.17g at t = 93, expected 3 (reset at 90)" % (label, r["y"][0]))
            check(abs(r["tjump"][0] - 90) < 1e-9, "%s: last jump at t = %.17g, expected 90" % (label, r["tjump"][0]))
            got = [r["ntouch1"][0], r["ntouch2"][0]]
            check(got == [touches, touches], "%s: touches %s, expected %d each" % (label, got, touches))


# A global whose statements carry another's condition across zero: every
# third spike of an integrate-and-fire cell, counted by a second global that
# the first one's `n=n+1` sets off (XPPAUT's second pass in flags.c).
CASCADE = """v'=1
n'=0
m'=0
init v=0, n=0, m=0
acc tm
global 1 {v-1} {v=0; n=n+1}
global 1 {n-2.5} {m=m+1; n=0; tm=t}
@ meth=rk4, dt=0.03, total=10.5
done
"""


def test_globals_carried_across_zero():
    """v reaches 1 at t = 1, 2, …, 10; every third reset of n carries n-2.5
    across zero: m = 3 at t = 10.5, the last at t = 9 (to evtol 1e-6)."""
    r = run(build("cascade", CASCADE), "--fields", "t,v,n,m,tm")
    check(list(r.status) == ["finished"], "status %s" % r.status)
    check(r["m"][0] == 3 and r["n"][0] == 1, "m = %g, n = %g: expected 3 and 1" % (r["m"][0], r["n"][0]))
    check(abs(r["tm"][0] - 9) < 1e-5, "the third at t = %.12g, expected 9" % r["tm"][0])
    # odegen's own events do not: a statement is not a crossing of the trajectory
    r = run(build("cascade_events", CASCADE.replace("global 1 {n-2.5} {m=m+1; n=0; tm=t}",
                                                    "event third: n-2.5, dir=1 { m=m+1; n=0; tm=t }")),
            "--fields", "t,v,n,m,tm")
    check(r["m"][0] == 0 and r["n"][0] == 10, "event: m = %g, n = %g: expected 0 and 10" % (r["m"][0], r["n"][0]))


# ----------------------------------------------------------------------------- zero for a while

# A condition gated by a sigmoid that underflows to exactly 0 before t = 25
# (as real XPPAUT files gate their events): an oscillator's upward zero
# crossings after t = 25, at t = 2 pi k + 3 pi / 2.
GATED = """hv(x)=1/(1+exp(-x/.001))
x'=y
y'=-x
init x=1, y=0
acc n
{line}
@ meth={meth}, dt=0.05, total=100, toler=1e-9, atoler=1e-9
done
"""


def test_zero_for_a_while_never_stops():
    """The gated condition is 0 for 25 time units (500 RK4 steps, ten times
    evsteps): a global never stops there, and an event does not either (the
    system is not at rest).  Both count the 12 crossings of (25, 100]."""
    expected = sum(1 for k in range(20) if 25 < 2 * math.pi * k + 1.5 * math.pi < 100)
    lines = {"global": "global 1 {hv(t-25)*x} {n=n+1}", "event": "event up: hv(t-25)*x, dir=1 { n = n + 1 }"}
    for kind, line in lines.items():
        for meth in ("rk4", "rkck45"):
            r = run(build("gated_%s_%s" % (kind, meth), GATED.format(line=line, meth=meth), sanitize=False),
                    "--fields", "t,x,n")
            label = "%s, %s" % (kind, meth)
            check(list(r.status) == ["finished"] and r["t"][0] == 100,
                  "%s: status %s at t = %g (a condition that is 0 for a while is not an equilibrium)"
                  % (label, r.status, r["t"][0]))
            check(r["n"][0] == expected, "%s: %g crossings, expected %d" % (label, r["n"][0], expected))


def test_equilibrium_is_at_rest():
    """A damped oscillator settling with its velocity in the event's zone is
    an equilibrium with every method (before t = 500); the state it stops at
    is at rest: within 1e-8 of the fixed point 0."""
    ode = """x'=v
v'=-x-0.5*v
init x=1, v=0.1
event turn: v, dir=-1
@ meth={meth}, dt=0.01, toler=1e-10, atoler=1e-10, total=1e4
done
"""
    for meth in ("rk4", "rkck45", "dopri5", "dop853", "tsit5"):
        r = run(build("rest_" + meth, ode.format(meth=meth), sanitize=False), "--fields", "t,x,v")
        check(list(r.status) == ["equilibrium"] and r["t"][0] < 500, "%s: status %s at t = %g"
              % (meth, r.status, r["t"][0]))
        check(abs(r["x"][0]) < 1e-8 and abs(r["v"][0]) < 1e-8, "%s: stopped at x = %g, v = %g" % (meth, r["x"][0],
                                                                                              r["v"][0]))


# ----------------------------------------------------------------------------- events that accumulate

BALL = """par g=9.81, e=0.5
y' = vy
vy' = -g
init y=1, vy=0
acc n
{line}
@ meth={meth}, dt=0.01, total=5
scan e = list(0.5, 0.8)
repeat record=2
done
"""


def test_bouncing_balls_accumulate():
    """Restitution 0.5 and 0.8, with `event`, `global` and a dir=0 event,
    four methods: the impacts accumulate at T = t1 (1 + 2e/(1-e)),
    t1 = sqrt(2/g) (1.355 and 4.064 s): each run ends with status zeno within
    0.01 s before T (not after it), on the floor (|y| within the event's
    zone, 1e-6, and the speed below 0.01 m/s), after at least every impact
    whose bounce leaves the zone (the apex e^2k above 1e-6); the next
    integration keeps the status (zeno stays, as bound does), never
    `finished` below the floor."""
    lines = {"event": "event floor: y < 0 { vy = -e*vy; n = n + 1 }",
             "global": "global -1 {y} {vy = -e*vy; n = n + 1}",
             "dir0": "event floor: y, dir=0 { vy = -e*vy; n = n + 1 }"}
    g, t1 = 9.81, math.sqrt(2 / 9.81)
    for kind, line in lines.items():
        for meth in METHODS:
            # (the numbers' test: one build under the sanitizers, the others plain, to keep the suite short)
            plain = (kind, meth) != ("event", "rk4")
            r = run(build("zeno_%s_%s" % (kind, meth), BALL.format(meth=meth, line=line), sanitize=not plain),
                    "--fields", "e,t,y,vy,n")
            print("    %s, %s: %s" % (kind, meth, "; ".join(
                "e=%g: %s at t=%.6f (T=%.6f), %d impacts, y=%.2g, vy=%.2g" % (
                    r["e"][2 * i], r.status[2 * i], r["t"][2 * i], t1 * (1 + 2 * r["e"][2 * i] / (1 - r["e"][2 * i])), r["n"][2 * i],
                    r["y"][2 * i], r["vy"][2 * i]) for i in range(2))))
            for i, e in enumerate((0.5, 0.8)):
                label = "%s, %s, e=%g" % (kind, meth, e)
                T = t1 * (1 + 2 * e / (1 - e))
                resolved = int(math.log(1e-6) / (2 * math.log(e)))
                rows = slice(2 * i, 2 * i + 2)            # the system's two integrations
                check(r["e"][2 * i] == e, "%s: row order" % label)
                check(list(r.status[rows]) == ["zeno", "zeno"], "%s: statuses %s (y = %g)"
                      % (label, r.status[rows], r["y"][2 * i + 1]))
                t, y, vy, n = (r[k][2 * i] for k in ("t", "y", "vy", "n"))
                check(0 <= T - t < 0.01, "%s: stopped at t = %.9g, the impacts accumulate at %.9g" % (label, t, T))
                check(abs(y) <= 1e-6 * (1 + 1e-9) and abs(vy) < 0.01, "%s: y = %g, vy = %g" % (label, y, vy))
                check(n >= resolved, "%s: %d impacts, fewer than the %d that leave the zone" % (label, n, resolved))
                check(r["t"][2 * i + 1] == t and r["y"][2 * i + 1] == y, "%s: the second integration moved the ball"
                      % label)


def test_not_zeno():
    """Detections that do not accumulate run to the end: a detector of
    maxima (no statement: the condition passes through its zone), a kick
    that does not turn the condition back, and the ball of tests/xpp stopped
    before its impacts accumulate (6 s, T = 9.09 s)."""
    cases = {
        "maxima": ("x'=v\nv'=-x\ninit x=1\nacc n\nevent top: v, dir=-1 { n = n + 1 }\n"
                   "@ meth=rkck45, total=100, toler=1e-9, atoler=1e-9\ndone\n", 15),
        "kick": ("x'=-1\nk'=0\ninit x=1\nacc n\nevent zero: x, dir=-1 { k = k + 1; n = n + 1 }\n"
                 "@ meth=rk4, dt=0.01, total=3\ndone\n", 1),
        "ball": (open(os.path.join(os.path.dirname(__file__), "..", "xpp", "bouncing_ball.ode")).read()
                 .replace("global -1 {y} {vy = -e*vy}", "acc n\nglobal -1 {y} {vy = -e*vy; n = n + 1}"), 5),
    }
    for name, (text, count) in cases.items():
        r = run(build("not_zeno_" + name, text), "--fields", "t,n")
        check(list(r.status) == ["finished"], "%s: status %s at t = %g" % (name, r.status, r["t"][0]))
        check(r["n"][0] == count, "%s: %g detections, expected %d" % (name, r["n"][0], count))


if __name__ == "__main__":
    sys.exit(main([(n, f) for n, f in globals().items() if n.startswith("test_")]))
