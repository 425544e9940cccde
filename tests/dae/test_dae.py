#!/usr/bin/python3
"""Algebraic constraints (issue 22, item 5): XPPAUT's `solv NAME=GUESS` and
`0=EXPR`, index-1 DAEs, against independent references and XPPAUT.

- pendulum: the pendulum of length 1 in index-1 form (the multiplier lam
  from the twice-differentiated constraint) against the same pendulum as an
  ODE in its angle (scipy, DOP853 at rtol 1e-12); the energy and the
  constraint x^2 + y^2 = 1 kept to the tolerance; every explicit method
  (Newton at each evaluation) and both stiff ones (mass matrix diag(I, 0)).
- consistent: the initial multiplier solved from a guess of 0 (g cos(theta0)),
  the first `save` sample.
- robertson: Robertson's kinetics with the conservation law as the constraint
  (y3 = 1 - y1 - y2 solved), rodas5p and ros3p, against the test set's
  reference values at t = 40 and t = 1e11 (Mazzia & Magherini).
- reads: a temporary, an aux, an event and `record` read the unknown: the
  event located where the unknown crosses 0.5 (t = ln 2 exactly).
- xppaut: XPPAUT's own DAE examples (the equations of its ode/dae.ode,
  dae_ex1.ode, dae_ex2.ode, help/odes/dae.ode, pend-cart1.ode) against an exact reference
  (the unknowns solved by brentq, or a linear solve for the cart's two
  accelerations, inside scipy's DOP853 at rtol 1e-12) and against
  `xppaut -silent`: odegen agrees with the reference to 1e-6 (the cart, RK4
  at its dt = 0.02: 1e-4), and is 10 times closer to it than XPPAUT, whose
  distance from odegen is its own error (with its default newt_tol = 1e-3
  XPPAUT leaves an unknown where it is until its constraint is off by 1e-3;
  templates/dae.h).
- failure: a constraint that folds (XPPAUT's dae_ex3.ode: 0 = v(1-v^2) - w,
  w' = v reaches the knee at w = 2/(3 sqrt 3)): the system stops with the
  status dae_failed there, as XPPAUT stops, while its neighbour in the scan
  (w' = -v, no fold) finishes with the exact values; a constraint without
  a root fails at t0; a stiff method stops at the knee too.

Run: /usr/bin/python3 tests/dae/test_dae.py [name…]   (ODEGEN_BACKEND=gpu: on the GPU)
"""
import math
import os
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import BACKEND, build, check, main, run, run_raw  # noqa: E402
from xppaut import run_xppaut  # noqa: E402

EXPLICIT = ["euler", "modeuler", "rk4", "rkck45", "dopri5", "tsit5", "dop853", "vern7"]
ADAPTIVE = {"rkck45", "dopri5", "tsit5", "dop853", "vern7"}
STIFF = ["rodas5p", "ros3p"]

G = 9.81
THETA0 = 1.0
PENDULUM = """# the pendulum of length 1 in index-1 form: x^2 + y^2 = 1 differentiated twice
# gives the multiplier lam (the rod's tension per unit mass)
par g=9.81
x'=u
y'=v
u'=-lam*x
v'=-lam*y-g
0=u^2+v^2-g*y-lam*(x^2+y^2)
solv lam=0
init x=0.8414709848078965, y=-0.5403023058681398
aux energy=(u^2+v^2)/2+g*y
aux drift=x^2+y^2-1
"""


def pendulum_reference(times):
    """The same pendulum as theta'' = -g sin(theta), theta(0) = 1: x, y, u, v."""
    from scipy.integrate import solve_ivp
    s = solve_ivp(lambda t, z: [z[1], -G * math.sin(z[0])], [0, times[-1]], [THETA0, 0.0], method="DOP853",
                  rtol=1e-12, atol=1e-14, t_eval=times)
    th, om = s.y
    return np.sin(th), -np.cos(th), np.cos(th) * om, np.sin(th) * om


def pendulum_model(meth):
    opts = {"euler": "dt=1e-5", "modeuler": "dt=1e-4", "rk4": "dt=1e-3"}.get(meth, "dt=1e-3")
    tol = {"rodas5p": 1e-9, "ros3p": 1e-7}.get(meth, 1e-10)
    text = PENDULUM + "@ meth=%s, %s, toler=%r, atoler=%r, newt_tol=1e-12, total=1\n" % (meth, opts, tol, tol)
    text += "repeat record=5\ndone\n"
    return build("pendulum_" + meth, text, sanitize=meth in ("rk4", "rodas5p")), tol


def test_pendulum():
    """index-1 pendulum: every method against the angle ODE; energy and constraint kept"""
    times = [1.0, 2.0, 3.0, 4.0, 5.0]
    xr, yr, ur, vr = pendulum_reference(times)
    e0 = -G * math.cos(THETA0)
    # the global error each method reaches at its step or tolerance (measured; a margin of 3-10)
    bound = {"euler": 6e-3, "modeuler": 1e-6, "rk4": 5e-9, "ros3p": 1e-6, "rodas5p": 5e-8}
    for meth in EXPLICIT + STIFF:
        runner, tol = pendulum_model(meth)
        r = run(runner, "--quiet", "--fields", "t,x,y,u,v,lam,energy,drift")
        err = max(np.max(np.abs(r["x"] - xr)), np.max(np.abs(r["y"] - yr)), np.max(np.abs(r["u"] - ur)),
                  np.max(np.abs(r["v"] - vr)))
        de = np.max(np.abs(r["energy"] - e0))
        drift = np.max(np.abs(r["drift"]))
        lam = r["u"] ** 2 + r["v"] ** 2 - G * r["y"]   # (x^2 + y^2 = 1 + drift)
        print("    %-8s error %.1e, energy %.1e, x^2+y^2-1 %.1e, lam %.6f at t=5" % (meth, err, de, drift, r["lam"][-1]))
        b = bound.get(meth, 5e-8)
        check(list(r.status) == ["finished"] * 5, "%s: statuses %s" % (meth, list(r.status)))
        check(err <= b and de <= 10 * b * G and drift <= 10 * b,
              "%s: error %.2e, energy %.2e, drift %.2e (bound %.0e)" % (meth, err, de, drift, b))
        check(np.allclose(r["lam"] * (1 + r["drift"]), lam, rtol=0, atol=1e-9),
              "%s: lam %s does not solve the constraint (%s)" % (meth, r["lam"], lam))


def test_consistent():
    """the initial values: lam solved from the guess 0 before the first step, the first save sample"""
    for meth in ("rk4", "rodas5p"):
        text = PENDULUM + "@ meth=%s, dt=1e-3, total=1\nsave every=0.5\ndone\n" % meth
        runner = build("pendulum_save_" + meth, text)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.csv")
            p = run_raw(runner, "--backend", BACKEND, "--quiet", "--fields", "lam", "-o", out)
            check(p.returncode == 0, p.stderr)
            rows = [line.strip().split(",") for line in open(os.path.join(tmp, "r.traj.csv"))]
        first = dict(zip(rows[0], rows[1]))          # system, rep, t, lam
        lam0 = float(first["lam"])
        want = G * math.cos(THETA0)
        print("    %-8s lam at t0 = %.15f (g cos 1 = %.15f)" % (meth, lam0, want))
        check(float(first["t"]) == 0 and abs(lam0 - want) < 1e-12, "%s: first sample %s" % (meth, first))


ROBERTSON = """# Robertson's kinetics with y1 + y2 + y3 = 1 as the constraint
par k1=0.04, k2=3e7, k3=1e4
y1'=-k1*y1+k3*y2*y3
y2'=k1*y1-k3*y2*y3-k2*y2^2
0=y1+y2+y3-1
solv y3=0
init y1=1
"""
# the test set's reference (Mazzia & Magherini, release 2.4), as tests/stiff
ROBER_REF = {40.0: [0.7158270687193267, 0.9185534764557259e-05, 0.2841637457458620],
             1e11: [0.2083340149701255e-7, 0.8333360770334713e-13, 0.9999999791665050]}


def test_robertson():
    """Robertson as a DAE (y3 from the conservation law): rodas5p and ros3p against the test set"""
    for meth, rtol in (("rodas5p", 1e-8), ("ros3p", 1e-6)):
        text = ROBERTSON + "@ meth=%s, toler=%r, atoler=1e-20, dt=1e-6, dtmax=1e11\ndone\n" % (meth, rtol)
        runner = build("robertson_" + meth, text)
        for total, ref in ROBER_REF.items():
            r = run(runner, "--quiet", "--set", "total=%r" % total, "--fields", "y1,y2,y3")
            got = [r["y1"][0], r["y2"][0], r["y3"][0]]
            rel = [abs(a - b) / abs(b) for a, b in zip(got, ref)]
            print("    %-8s t=%g: relative errors %s" % (meth, total, " ".join("%.1e" % e for e in rel)))
            check(r.status[0] == "finished" and max(rel) <= 100 * rtol,
                  "%s at %g: %s, reference %s (%s)" % (meth, total, got, ref, r.status[0]))
            check(abs(sum(got) - 1) < 1e-14, "%s: y1 + y2 + y3 - 1 = %.2e" % (meth, sum(got) - 1))


READS = """# the unknown y = 1 - x read by a temporary, an aux, an event and record
x'=-x+q-(1-x)^2
q=y*y
0=x+y-1
solv y=0
aux yy=y
event half: y-0.5, dir=1, stop=1
init x=1
"""


def test_reads():
    """temporaries, aux, events and record read the unknown: the event at t = ln 2"""
    for meth in ("rk4", "dopri5", "rodas5p"):
        runner = build("reads_" + meth, READS + "@ meth=%s, dt=1e-3, toler=1e-10, atoler=1e-10\ndone\n" % meth)
        r = run(runner, "--quiet", "--fields", "t,x,y,yy")
        print("    %-8s stopped at t = %.12f (ln 2 = %.12f), y %.12f, aux %.12f, %s" %
              (meth, r["t"][0], math.log(2), r["y"][0], r["yy"][0], r.status[0]))
        check(r.status[0] == "event" and abs(r["t"][0] - math.log(2)) < 1e-7 and abs(r["y"][0] - 0.5) < 1e-7 and
              r["yy"][0] == r["y"][0] and abs(r["x"][0] + r["y"][0] - 1) < 1e-12, "%s: %s" % (meth, r.matrix))


# XPPAUT's DAE examples, their equations and options (ode/dae.ode, dae_ex1.ode,
# dae_ex2.ode, help/odes/dae.ode, ode/pend-cart1.ode); an aux shows each unknown
# (XPPAUT's output.dat holds states and aux).  u: the unknowns from the states, for the
# reference: a root by brentq, a value, or a linear system (the cart's accelerations).
XPP = {
    "dae": dict(text="x'=y\n0=x+y+y^3+y^5\nsolve y=-1\nx(0)=3\naux z=y\n@ newt_tol=1e-8\ndone\n",
                y0=[3.0], f=lambda s, u: [u], u=lambda s: ("brent", lambda y: s[0] + y + y ** 3 + y ** 5)),
    "dae_ex1": dict(text="x'=-x\n0= x+y-1\nx(0)=1\nsolv y\naux z=y\ndone\n",
                    y0=[1.0], f=lambda s, u: [-s[0]], u=lambda s: ("value", 1 - s[0])),
    "dae_ex2": dict(text="x'=xp\n0= xp+exp(xp)+x\nx(0)=-3.7182\nsolv xp=1\naux z=xp\ndone\n",
                    y0=[-3.7182], f=lambda s, u: [u], u=lambda s: ("brent", lambda v: v + math.exp(v) + s[0])),
    "dae_help": dict(text="x'=z\nz'=y\n0=x+z+y+y^3\nsolve y=-1\ninit x=2,z=0\naux ys=y\n@ yhi=2.5\ndone\n",
                     y0=[2.0, 0.0], f=lambda s, u: [s[1], u], u=lambda s: ("brent", lambda y: s[0] + s[1] + y + y ** 3)),
    "pend_cart1": dict(text="par mc=5,mp=1\npar l=1,g=9.8\npar muc=0,mup=0\n"
                            "0=(mc+mp)*xdd+mp*l*cos(th1)*th1dd-mp*l*sin(th1)*th1p^2+muc*xp\n"
                            "0=cos(th1)*xdd+l*th1dd+g*sin(th1)+mup*th1p\nsolv xdd=0\nsolv th1dd=0\n"
                            "x'=xp\nxp'=xdd\nth1'=th1p\nth1p'=th1dd\naux xpp=xdd\naux th1pp=th1dd\n"
                            "@ dt=.02\ninit th1=1.5\ndone\n", err=1e-4,   # (RK4 at its dt = 0.02 over 20)
                       y0=[0.0, 0.0, 1.5, 0.0], f=lambda s, u: [s[1], u[0], s[3], u[1]],
                       u=lambda s: ("linear", np.array([[6.0, math.cos(s[2])], [math.cos(s[2]), 1.0]]),
                                    np.array([math.sin(s[2]) * s[3] ** 2, -9.8 * math.sin(s[2])]))),
}


def unknown(spec, s):
    """The unknowns at the states s, as an array."""
    from scipy.optimize import brentq
    kind, *what = spec(s)
    if kind == "linear":
        return np.linalg.solve(*what)
    return np.array([what[0] if kind == "value" else brentq(what[0], -20, 20, xtol=1e-15, rtol=1e-15)])


def xpp_reference(case, times):
    """The states and the unknown at `times`, the unknown solved exactly inside scipy's DOP853."""
    from scipy.integrate import solve_ivp
    c = XPP[case]
    one = lambda u: u if len(u) > 1 else u[0]  # noqa: E731
    s = solve_ivp(lambda t, y: c["f"](y, one(unknown(c["u"], y))), [0, times[-1]], c["y0"], method="DOP853",
                  rtol=1e-12, atol=1e-14, t_eval=times)
    return s.y, np.array([unknown(c["u"], s.y[:, k]) for k in range(len(times))]).T


def test_xppaut():
    """XPPAUT's DAE examples: odegen against the exact reference, and against xppaut -silent"""
    times = [1.0, 2.0, 5.0, 10.0, 20.0]
    for case, c in XPP.items():
        nstate = len(c["y0"])
        nalg = c["text"].count("solv")
        runner = build("xpp_" + case, "# XPPAUT's %s.ode\n" % case + c["text"].replace("done\n", "@ total=1\n"
                                                                                      "repeat record=20\ndone\n"))
        r = run(runner, "--quiet")
        rows = r.matrix[[int(t) - 1 for t in times]]          # system, rep, states…, unknowns…
        ref_y, ref_u = xpp_reference(case, times)
        ours = np.vstack([rows[:, 2:2 + nstate].T, rows[:, 2 + nstate:2 + nstate + nalg].T])
        exact = np.vstack([ref_y, ref_u])
        err = np.max(np.abs(ours - exact))
        line = "    %-10s odegen (rk4) from the reference: %.1e" % (case, err)
        check(err < c.get("err", 1e-6), "%s: odegen %s, reference %s" % (case, ours, exact))
        if shutil.which("xppaut"):
            x = run_xppaut(case + ".ode", c["text"])
            at = [int(np.argmin(np.abs(x[:, 0] - t))) for t in times]
            xs = np.vstack([x[at, 1:1 + nstate].T, x[at, 1 + nstate:1 + nstate + nalg].T])   # t, states…, aux (unknowns)
            off = np.max(np.abs(xs - exact), axis=1)
            diff = np.max(np.abs(xs - ours), axis=1)
            line += "; from XPPAUT %s (XPPAUT from the reference %s)" % (
                " ".join("%.1e" % d for d in diff), " ".join("%.1e" % d for d in off))
            # XPPAUT is as far from odegen as from the reference, 10 times odegen's own error or more
            check(err <= np.max(off) / 10, "%s: odegen %s, XPPAUT %s, reference %s" % (case, ours, xs, exact))
        print(line)


FOLD = """# XPPAUT's dae_ex3.ode, scanned: a = 1 reaches the knee of v(1-v^2) = w at w = 2/(3 sqrt 3),
# where the constraint has no root near v any more; a = -1 moves away from it
par a=1
w'=a*v_
0= v_*(1-v_*v_)-w
solv v_=1
aux v=v_
scan a = list(-1, 1)
"""


def test_resolution():
    """newt_tol below what the unknowns resolve (1e-12 on unknowns of 1e5): Newton stops at rounding"""
    runner = build("resolution", "x'=-x+1e-5*y-1-x\n0=y-1e5*(1+x)*(1+0.1*sin(y*1e-5))\nsolv y=0\ninit x=1\n"
                                 "@ newt_tol=1e-12, total=2\ndone\n")
    r = run(runner, "--quiet", "--fields", "x,y")
    x, y = r["x"][0], r["y"][0]
    g = y - 1e5 * (1 + x) * (1 + 0.1 * math.sin(y * 1e-5))
    print("    y = %.6f, g = %.1e, %s" % (y, g, r.status[0]))
    check(r.status[0] == "finished" and abs(g) < 1e-9, "y %r, g %r, %s" % (y, g, r.status[0]))


def fold_reference(t):
    """w' = -v, v - v^3 = w on the branch v > 1/sqrt(3), w(0) = 0: w(t) and v(t)."""
    from scipy.integrate import solve_ivp
    from scipy.optimize import brentq
    v_of = lambda w: brentq(lambda v: v - v ** 3 - w, 1 / math.sqrt(3), 10, xtol=1e-15)  # noqa: E731
    s = solve_ivp(lambda _, w: [-v_of(w[0])], [0, t], [0.0], method="DOP853", rtol=1e-12, atol=1e-14)
    return s.y[0, -1], v_of(s.y[0, -1])


def test_failure():
    """a fold: dae_failed at the knee, as XPPAUT stops there; the neighbour exact; no root: fails at t0"""
    knee = 2 / (3 * math.sqrt(3))
    for meth in ("rk4", "dopri5", "rodas5p"):
        runner = build("fold_" + meth, FOLD + "@ meth=%s, dt=0.01, total=1, newt_iter=1000, toler=1e-9, atoler=1e-9\n"
                                             "repeat record=2\ndone\n" % meth)
        r = run(runner, "--quiet", "--fields", "t,w,v")
        print("    %-8s %s" % (meth, "; ".join("a=%s: t %.4f w %.6f v %.6f %s" % (
            ("-1", "1")[int(k >= 2)], r["t"][k], r["w"][k], r["v"][k], r.status[k]) for k in range(4))))
        # the neighbour: w' = -v, v the root of v - v^3 = w above 1
        for k, t in ((0, 1.0), (1, 2.0)):
            w, v = fold_reference(t)
            check(r.status[k] == "finished" and abs(r["w"][k] - w) < 1e-6 and abs(r["v"][k] - v) < 1e-6,
                  "%s, a=-1: %s, want w=%r v=%r" % (meth, r.matrix[k], w, v))
        # the folding system stops near the knee, and its later integration keeps the status
        check(list(r.status[2:]) == ["dae_failed", "dae_failed"], "%s: statuses %s" % (meth, list(r.status)))
        check(abs(r["w"][2] - knee) < 2e-3 and 0.3 < r["t"][2] < 0.5,
              "%s: stopped at t=%r, w=%r (the knee: w=%r)" % (meth, r["t"][2], r["w"][2], knee))
    if shutil.which("xppaut"):
        x = run_xppaut("dae_ex3.ode", "w'=v_\n0= v_*(1-v_*v_)-w\nsolv v_=1\naux v=v_\n@ NEWT_ITER=1000,NEWT_TOL=1e-3,"
                                      "JAC_EPS=1e-5,METH=qualrk\ndone\n")
        print("    xppaut (dae_ex3.ode) stops at t = %.4f, w = %.6f" % (x[-1, 0], x[-1, 1]))
        check(x[-1, 0] < 0.5 and abs(x[-1, 1] - knee) < 2e-3, "xppaut: %s" % x[-1])
    # a constraint with no real root: nothing is integrated
    runner = build("noroot", "x'=-x\n0=z*z+1\nsolv z=1\ninit x=2\n@ total=1\ndone\n")
    r = run(runner, "--quiet", "--fields", "t,x,z")
    print("    no root: t %g, x %g, z %g, %s" % (r["t"][0], r["x"][0], r["z"][0], r.status[0]))
    check(r.status[0] == "dae_failed" and r["t"][0] == 0 and r["x"][0] == 2, "no root: %s %s" % (r.matrix, r.status))


if __name__ == "__main__":
    sys.exit(main([("pendulum", test_pendulum), ("consistent", test_consistent), ("robertson", test_robertson),
                   ("reads", test_reads), ("xppaut", test_xppaut), ("failure", test_failure),
                   ("resolution", test_resolution)]))
