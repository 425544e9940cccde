#!/usr/bin/python3
"""The integration methods, their continuous extensions, events on the
extensions and `save` samples (SPEC §2-§4, issue 8), each against something
independent: the order conditions of the tableaux (Butcher's rooted trees,
read from templates/tableaux.h itself), exact solutions and observed orders,
analytic impact times of a bouncing ball, scipy's DOP853 (values and dense
output), and XPPAUT's own euler and modeuler.

Run: /usr/bin/python3 tests/numerics/test_methods.py [name-filter…]
(ODEGEN_BACKEND=gpu runs the same suite on the GPU, plus CPU/GPU agreement
of every method.)  Models whose test is about numbers are built without
sanitizers (faster); those that exercise the runtime's `save` code with
ASan/UBSan.
"""
import csv
import io
import math
import os
import re
import subprocess
import sys
import tempfile
from functools import lru_cache

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import BACKEND, ODEGEN, ROOT, Result, build, check, main, run, run_raw  # noqa: E402
from xppaut import run_xppaut  # noqa: E402

METHODS = ["euler", "modeuler", "rk4", "rkck45", "dopri5", "tsit5", "dop853", "vern7"]
FIXED = ["euler", "modeuler", "rk4"]
ADAPTIVE = ["rkck45", "dopri5", "tsit5", "dop853", "vern7"]
ORDER = dict(euler=1, modeuler=2, rk4=4, rkck45=5, dopri5=5, tsit5=5, dop853=8, vern7=7)
OWN_EXTENSION = dict(dopri5=4, tsit5=4, dop853=7)   # the others: cubic Hermite


def extension_order(m):
    """Order of the continuous extension as a Runge–Kutta extension."""
    return OWN_EXTENSION.get(m, min(3, ORDER[m]))


def observed(errors, ratio=2.0):
    return [math.log(errors[i] / errors[i + 1]) / math.log(ratio) for i in range(len(errors) - 1)]


def run_files(runner, *args, env=None):
    """Runs with -o FILE in a scratch directory: (rows, samples or None, stderr)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.csv")
        p = run_raw(runner, "--backend", BACKEND, "-o", out, *args, env=env)
        check(p.returncode == 0, "%s exited %d:\n%s" % (runner, p.returncode, p.stderr))
        rows = Result(open(out).read(), p.stderr)
        traj = os.path.join(tmp, "out.traj.csv")
        samples = read_samples(open(traj).read()) if os.path.exists(traj) else None
        return rows, samples, p.stderr


def read_samples(text):
    """FILE.traj.csv as a dict of columns (system and rep as ints)."""
    rows = list(csv.reader(io.StringIO(text)))
    head, body = rows[0], rows[1:]
    cols = {h: np.array([float(r[j]) for r in body]) for j, h in enumerate(head)}
    cols["system"] = cols["system"].astype(int)
    cols["rep"] = cols["rep"].astype(int)
    cols["header"] = head
    return cols


# ----------------------------------------------------------------------------- the tableaux

TABLEAUX = os.path.join(ROOT, "templates", "tableaux.h")


@lru_cache(None)
def tableau_macros():
    """Every #define of tableaux.h, continuation lines joined: name → text."""
    text = open(TABLEAUX).read().replace("\\\n", " ")
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"^#define (ODE_\w+) (.*)$", text, re.M)}


def value(name):
    """A macro's value: a number or nested lists of numbers ({…} → lists)."""
    text = re.sub(r"/\*.*?\*/", "", tableau_macros()[name]).replace("{", "[").replace("}", "]")
    return eval(text, {"__builtins__": {}})   # C arithmetic of literals: the same in Python


def tableau(m):
    M = m.upper()
    stages = int(value("ODE_%s_STAGES" % M))
    c = [float(x) for x in value("ODE_%s_C" % M)]
    rows = value("ODE_%s_A" % M)
    n = max(len(c), len(rows))
    A = np.zeros((n, n))
    for i, r in enumerate(rows):
        A[i, :len(r)] = r
    c += [0.0] * (n - len(c))
    b = np.zeros(n)
    bb = value("ODE_%s_B" % M)
    b[:len(bb)] = bb
    return dict(stages=stages, c=np.array(c), A=A, b=b, fsal=int(value("ODE_%s_FSAL" % M)),
                order=int(value("ODE_%s_ORDER" % M)), est=int(value("ODE_%s_EST" % M)))


def trees(order):
    """Rooted trees with `order` nodes, as sorted tuples of subtrees."""
    @lru_cache(None)
    def of(n):
        if n == 1:
            return ((),)
        out = set()

        def forests(rest, largest):   # multisets of trees with `rest` nodes, sizes ≤ largest
            if rest == 0:
                yield ()
                return
            for size in range(min(rest, largest), 0, -1):
                for t in of(size):
                    for f in forests(rest - size, size):
                        if not f or size > tree_size(f[0]) or (size == tree_size(f[0]) and t >= f[0]):
                            yield (t,) + f
        for f in forests(n - 1, n - 1):
            out.add(tuple(sorted(f)))
        return tuple(sorted(out))
    return of(order)


def tree_size(t):
    return 1 + sum(tree_size(s) for s in t)


def density(t):
    g = tree_size(t)
    for s in t:
        g *= density(s)
    return g


def stage_weights(t, A):
    """Φ_i(t) for every stage i: the elementwise product over the subtrees of A·Φ(subtree)."""
    v = np.ones(A.shape[0])
    for s in t:
        v = v * (A @ stage_weights(s, A))
    return v


def order_defects(A, weights, upto):
    """max |Σ_i w_i Φ_i(t) - 1/γ(t)| over the trees of each order ≤ upto."""
    return {n: max(abs(weights @ stage_weights(t, A) - 1.0 / density(t)) for t in trees(n)) for n in range(1, upto + 1)}


def test_tableaux_order_conditions():
    """Every tableau of templates/tableaux.h, as written there: nodes are the
    rows' sums; the propagated weights satisfy every order condition up to
    the stated order and not all of the next; the embedded weights (b - E)
    likewise up to the estimate's order (DOP853: b - E5 order 5, b - E3
    order 3); an FSAL method's last row is b.  Tolerance 1e-12 relative to
    the size of the coefficients (they are rounded to double)."""
    for m in METHODS:
        T = tableau(m)
        A, b, c = T["A"], T["b"], T["c"]
        s = T["stages"]
        scale = max(1.0, np.max(np.abs(A)))
        tol = 1e-12 * scale
        rowsum = A[:len(c)].sum(axis=1)
        check(np.max(np.abs(rowsum - c)) < tol, "%s: nodes differ from the rows' sums by %.3g" % (m, np.max(np.abs(rowsum - c))))
        d = order_defects(A, b, T["order"] + 1)
        bad = {n: e for n, e in d.items() if n <= T["order"] and e > tol}
        check(not bad, "%s: order conditions fail: %s" % (m, bad))
        check(d[T["order"] + 1] > 1e-6, "%s: order %d conditions hold too (defect %.3g): the stated order is low"
              % (m, T["order"] + 1, d[T["order"] + 1]))
        if T["fsal"]:
            check(np.max(np.abs(A[s - 1] - b)) < 1e-15 and abs(c[s - 1] - 1) < 1e-15, "%s: FSAL but the last row is not b" % m)
        estimates = []
        if m == "dop853":
            for name, order in (("E5", 5), ("E3", 3)):
                e = np.zeros(len(b))
                ev = value("ODE_DOP853_" + name)
                e[:len(ev)] = ev
                estimates.append((name, b - e, order))
        elif T["est"] > 0:
            e = np.zeros(len(b))
            ev = value("ODE_%s_E" % m.upper())
            e[:len(ev)] = ev
            estimates.append(("E", b - e, T["est"]))
        for name, bhat, order in estimates:
            d = order_defects(A, bhat, order + 1)
            bad = {n: x for n, x in d.items() if n <= order and x > tol}
            check(not bad, "%s: embedded weights b - %s fail order conditions %s" % (m, name, bad))
            check(d[order + 1] > 1e-6, "%s: b - %s is of higher order than %d" % (m, name, order))


def stability_polynomial(T, z):
    """R(z) of an explicit tableau: its stages on y' = λy, hλ = z (an array)."""
    A, b, s = T["A"], T["b"], T["stages"]
    K = []
    for j in range(s):
        K.append(z * (1 + sum(A[j, l] * K[l] for l in range(j))))
    return 1 + sum(b[j] * K[j] for j in range(s))


def test_stability_gates():
    """ODE_<M>_STAB_GATE of every fixed-step method (stability.h's cheap test):
    the smallest |z| where |R(z)| >= max(1, 2 e^(Re z)), R the stability
    polynomial computed from the tableau, found on a polar grid refined
    around the minimum: the tableau's value is at most it (the test then
    never misses such a step) and within 0.005 below it."""
    for m in ("euler", "modeuler", "rk4"):
        T = tableau(m)
        check(T["est"] == 0, "%s is adaptive" % m)

        def bad(z):
            return np.abs(stability_polynomial(T, z)) >= np.maximum(1.0, 2 * np.exp(np.real(z)))

        def first_bad(theta):   # on a grid of 0.01, then by bisection in the first bad cell
            r = np.linspace(0.0, 6.0, 601)[1:]
            hit = np.flatnonzero(bad(r * np.exp(1j * theta)))
            if not len(hit):
                return np.inf
            lo, hi = (r[hit[0] - 1] if hit[0] else 0.0), r[hit[0]]
            for _ in range(40):
                mid = 0.5 * (lo + hi)
                lo, hi = (lo, mid) if bad(mid * np.exp(1j * theta)) else (mid, hi)
            return hi
        thetas = np.linspace(0, np.pi, 721)
        radii = np.array([first_bad(t) for t in thetas])
        k = int(np.argmin(radii))
        fine = [first_bad(t) for t in np.linspace(thetas[max(k - 1, 0)], thetas[min(k + 1, len(thetas) - 1)], 201)]
        exact = min(min(fine), radii[k])
        gate = float(value("ODE_%s_STAB_GATE" % m.upper()))
        check(exact - 0.005 <= gate <= exact, "%s: STAB_GATE %g, the stability polynomial gives %.5f" % (m, gate, exact))


def extension_weights(m, theta):
    """The continuous extension's weights b_j(θ) over the stages (dense.h's
    nested form), and the stage matrix they go with (f at the step's end
    appended as a stage when the method is not FSAL)."""
    T = tableau(m)
    A, b = T["A"], T["b"]
    s = T["stages"]
    if T["fsal"]:
        kend = s - 1
    elif m == "dop853":
        kend = s                            # row 12 of A is b: f at the step's end
    else:                                   # append f(t+h, ynew) as a stage
        kend = s
        n = s + 1
        A2 = np.zeros((n, n))
        A2[:s, :s] = A[:s, :s]
        A2[s, :s] = b[:s]
        A, b = A2, np.concatenate([b[:s], [0.0]])
    n = A.shape[0]
    e0, eend = np.eye(n)[0], np.eye(n)[kend]
    F = [b, e0 - b, 2 * b - e0 - eend]
    if m in OWN_EXTENSION:
        for r in value("ODE_%s_D" % m.upper()):
            row = np.zeros(n)
            row[:len(r)] = r
            F.append(row)
    u = 1 - theta
    acc = F[-1] * (u if (len(F) - 1) % 2 else theta)
    for k in range(len(F) - 2, -1, -1):
        acc = (F[k] + acc) * (u if k % 2 else theta)
    return A, acc


def test_extension_order_conditions():
    """The continuous extension of every method (its own rows for DOPRI5,
    Tsit5 and DOP853, the cubic Hermite interpolant otherwise) satisfies the
    order conditions of a continuous Runge–Kutta method, Σ b_j(θ) Φ_j(t) =
    θ^|t| / γ(t), up to its order at θ = 0.1 … 0.9, and reproduces the step's
    end at θ = 1."""
    for m in METHODS:
        q = extension_order(m)
        for theta in (0.1, 0.3, 0.5, 0.7, 0.9, 1.0):
            A, w = extension_weights(m, theta)
            tol = 1e-12 * max(1.0, np.max(np.abs(A)), np.max(np.abs(w)))
            for n in range(1, q + 1):
                worst = max(abs(w @ stage_weights(t, A) - theta ** n / density(t)) for t in trees(n))
                check(worst < tol, "%s: extension at θ=%g fails order %d (defect %.3g)" % (m, theta, n, worst))
            if theta == 0.5 and ORDER[m] > q:
                worst = max(abs(w @ stage_weights(t, A) - theta ** (q + 1) / density(t)) for t in trees(q + 1))
                check(worst > 1e-8, "%s: extension of higher order than %d" % (m, q))


# ----------------------------------------------------------------------------- orders, on an exact solution

# Step sizes per method: large enough that the errors stay above rounding,
# small enough for the asymptotic regime (steps dt·s for s = 1, 1/2, 1/4).
ORDER_DT = dict(euler=0.02, modeuler=0.05, rk4=0.1, rkck45=0.2, dopri5=0.2, tsit5=0.1, dop853=0.4, vern7=0.4)


def oscillator_model(m, dt):
    """x'' = -w² x on a clock slowed by s: the step dt of the model is a
    step dt·s of x = cos(w t), so one build gives three step sizes.  Samples
    every dt/2: at the steps' ends and midpoints."""
    pin = ", dtmin=%r, dtmax=%r, toler=1e-16, atoler=1e-16" % (dt, dt) if m in ADAPTIVE else ""
    return f"""# x = cos(w s tau), tau the model's time
par w=1.5, s=1
number tend=2.4
x'=s*v
v'=-s*w^2*x
init x=1, v=0
on start {{ t1 = tend/s }}
@ meth={m}, dt={dt!r}, total=2.4{pin}
scan s = list(1, 0.5, 0.25)
save every={dt / 2!r}, max=2000
record x, v, t
done
"""


def order_test(m):
    """Observed orders on x = cos(w t) with steps dt, dt/2, dt/4: the end
    state's error falls as h^p (p the method's order, ± 0.3), and the samples
    taken from the continuous extension at the steps' midpoints as
    h^min(p, q+1) (q the extension's order).  Errors are distances in the
    phase plane (x, x'/w)."""
    dt = ORDER_DT[m]
    rows, samples, _ = run_files(build("order_" + m, oscillator_model(m, dt), sanitize=False))
    w, T = 1.5, 2.4
    s = np.array([1, 0.5, 0.25])
    check(list(rows.status) == ["finished"] * 3, "%s: statuses %s" % (m, rows.status))
    check(np.allclose(rows["t"], T / s, rtol=1e-14), "%s: the windows end at %s" % (m, rows["t"]))
    # the distance in the phase plane (x, v/w): no cancellation where one
    # component's error changes sign
    end = np.hypot(rows["x"] - math.cos(w * T), (rows["v"] + w * math.sin(w * T)) / w)
    p = observed(list(end))
    check(all(abs(q - ORDER[m]) <= 0.3 for q in p), "%s: observed orders %s of the end state (errors %s), expected %d"
          % (m, p, end, ORDER[m]))
    check(samples is not None, "%s: no samples written" % m)
    errs = []
    for k in range(3):
        sel = samples["system"] == k
        tau, x = samples["t"][sel], samples["x"][sel]
        n = int(round(T / s[k] / (dt / 2))) + 1   # (T is a whole number of steps)
        check(len(tau) == n, "%s: system %d has %d samples, expected %d" % (m, k, len(tau), n))
        check(np.allclose(tau, np.arange(n) * dt / 2, rtol=0, atol=1e-12 * T / s[k]), "%s: sample times %s" % (m, tau[:4]))
        mid = slice(1, None, 2)             # the samples at the steps' midpoints
        errs.append(np.max(np.hypot(x[mid] - np.cos(w * s[k] * tau[mid]),
                                    (samples["v"][sel][mid] + w * np.sin(w * s[k] * tau[mid])) / w)))
    want = min(ORDER[m], extension_order(m) + 1)
    p = observed(errs)
    if os.environ.get("ODEGEN_VERBOSE"):
        print("        %s: end errors %s orders %s; sample errors %s orders %s" % (m, end, observed(list(end)), errs, p))
    check(all(abs(q - want) <= 0.3 for q in p), "%s: observed orders %s of the samples (errors %s), expected %d"
          % (m, p, errs, want))


for _m in METHODS:
    globals()["test_order_" + _m] = (lambda m: lambda: order_test(m))(_m)
    globals()["test_order_" + _m].__doc__ = "Observed orders of %s and of its continuous extension." % _m


# ----------------------------------------------------------------------------- against scipy's DOP853

TRIO_T = 8 * math.pi


def trio_model(m, extra):
    return f"""# Duffing, Lorenz on a slower clock (t in [0, 8 pi] is 2 of its time units)
# and Van der Pol, side by side
par k=0.25, B=0.3, sigma=10, rho=28, beta=2.6666666666666665, sl={2 / TRIO_T!r}, mu=1
y1'=y2
y2'=y1-y1^3-k*y2+B*cos(t)
lx'=sl*sigma*(ly-lx)
ly'=sl*(lx*(rho-lz)-ly)
lz'=sl*(lx*ly-beta*lz)
p'=q
q'=mu*(1-p^2)*q-p
init y1=0.5, y2=-0.2, lx=10, ly=10, lz=10, p=2, q=0
@ meth={m}, total={TRIO_T!r}{extra}
save every=0.5, max=100
record y1, y2, lx, ly, lz, p, q
done
"""


@lru_cache(None)
def scipy_trio():
    from scipy.integrate import solve_ivp
    sl = 2 / TRIO_T

    def f(t, u):
        y1, y2, lx, ly, lz, p, q = u
        return [y2, y1 - y1 ** 3 - 0.25 * y2 + 0.3 * math.cos(t),
                sl * 10 * (ly - lx), sl * (lx * (28 - lz) - ly), sl * (lx * ly - 8 / 3 * lz),
                q, (1 - p * p) * q - p]
    return solve_ivp(f, (0, TRIO_T), [0.5, -0.2, 10, 10, 10, 2, 0], method="DOP853", rtol=1e-12, atol=1e-12,
                     dense_output=True)


def scipy_test(m):
    """Duffing over 4 forcing periods, Lorenz over 2 time units (chaos
    amplifies errors by less than 10 there) and Van der Pol over 4 time
    units, integrated together at tolerance 1e-12 (RK4: dt = 1e-3) against
    scipy's DOP853 at rtol 1e-12: every state within 1e-8 relative to its
    subsystem's size; the samples every 0.5 against scipy's dense output,
    likewise for an extension of order 4 or more (DOPRI5, Tsit5, DOP853; RK4
    takes steps of 1e-3), to 1e-6 for the cubic Hermite interpolant of
    RKCK45's and Vern7's larger steps (its error h^4 |y| / 384)."""
    extra = ", dt=0.001" if m in FIXED else ", toler=1e-12, atoler=1e-12"
    rows, samples, _ = run_files(build("trio_" + m, trio_model(m, extra), sanitize=False))
    ref = scipy_trio()
    names = ["y1", "y2", "lx", "ly", "lz", "p", "q"]
    groups = [(0, 2), (2, 5), (5, 7)]
    got = np.array([rows[n][0] for n in names])
    want = ref.y[:, -1]
    for a, b in groups:
        scale = max(1.0, np.max(np.abs(want[a:b])))
        err = np.max(np.abs(got[a:b] - want[a:b]))
        check(err < 1e-8 * scale, "%s: %s differ from scipy by %.3g: %s vs %s" % (m, names[a:b], err, got[a:b], want[a:b]))
    t = samples["t"]
    check(len(t) == int(TRIO_T / 0.5) + 1, "%s: %d samples" % (m, len(t)))
    dense = ref.sol(t)
    bound = 1e-8 if m in OWN_EXTENSION or m in FIXED else 1e-6
    for j, n in enumerate(names):
        scale = max(1.0, np.max(np.abs(dense[j])))
        err = np.max(np.abs(samples[n] - dense[j]))
        check(err < bound * scale, "%s: samples of %s differ from scipy's dense output by %.3g" % (m, n, err))


for _m in ["rk4"] + ADAPTIVE:
    globals()["test_scipy_" + _m] = (lambda m: lambda: scipy_test(m))(_m)
    globals()["test_scipy_" + _m].__doc__ = "%s against scipy's DOP853 on Duffing, Lorenz and Van der Pol." % _m


# ----------------------------------------------------------------------------- the bouncing ball

G = 9.81
BALL_TOL = 1e-9
BALL_H = (1.0, 2.5)
BALL_E = (0.5, 0.8, 0.95)
BALL_FRAC = (0.31, 0.77, 0.93)   # horizons: these fractions of the time the impacts accumulate at


BALL_K = 64    # impact times kept per system


def ball_model(m, extra):
    keep = "; ".join("if (n == %d) {{ t_%d = t }}" % (k, k) for k in range(1, BALL_K + 1))
    accs = ", ".join("t_%d" % k for k in range(1, BALL_K + 1))
    return f"""# A ball dropped from height drop bounces with restitution e, over one
# integration up to a fraction of the time the impacts accumulate at; the
# event block keeps the impact times.
par g=9.81, e=0.8, drop=1, frac=0.5
!tinf=sqrt(2*drop/g)*(1+e)/(1-e)
y'=v
v'=-g
init y=1, v=0
acc n, {accs}
on start {{ y = drop; v = 0; t1 = frac*tinf }}
event floor: y, dir=-1, tol={BALL_TOL!r} {{ v = -e*v; n = n + 1; {keep.replace("{{", "{").replace("}}", "}")} }}
@ meth={m}{extra}
scan drop = list({", ".join(map(repr, BALL_H))})
scan e = list({", ".join(map(repr, BALL_E))})
scan frac = list({", ".join(map(repr, BALL_FRAC))})
record t, n, {accs}
done
"""


def ball_analytic(H, e, horizon):
    t1 = math.sqrt(2 * H / G)
    times, speeds = [t1], [G * t1]
    if t1 > horizon:
        return [], []
    while True:
        nxt = times[-1] + 2 * e ** len(times) * t1
        if nxt > horizon:
            break
        times.append(nxt)
        speeds.append(G * t1 * e ** (len(times) - 1))
    return times, speeds


def ball_euler(H, e, horizon, dt):
    """Euler's own trajectory with exact event location (steps of dt, the
    crossing where Euler's step reaches the floor, the grid moving with each
    impact, the last step clipped at the horizon): the impacts Euler must
    find."""
    times, speeds = [], []
    t, h, v, start, n = 0.0, H, 0.0, 0.0, 0
    while t < horizon:
        tn = start + (n + 1) * dt
        tn = tn if tn < horizon * (1 - 1e-14) else horizon
        step = tn - t
        if h > 0 and h + step * v <= 0:          # Euler's step crosses the floor: h + s v = 0
            sc = -h / v
            t, vc = t + sc, v - sc * G           # the state of Euler's step of length sc
            times.append(t)
            speeds.append(-vc)
            h, v, start, n = 0.0, -e * vc, t, 0
            continue
        h, v, t = h + step * v, v - step * G, tn
        n += 1
    return times, speeds


def ball_test(m, tag, extra, dt=None):
    """Impacts of a bouncing ball, for 2 heights × 3 restitutions × 3
    horizons: the number by the horizon equals the analytic one and each
    impact time agrees with it to the location errors: each impact is
    located to |h| <= tol, a time error of at most tol/v (v the impact
    speed), and the reset leaves a speed error of e g times that, which
    lengthens every later flight; summed, impact k is off by at most
    (1+e)/(1-e) Σ_i 2 tol/v_i.  Euler, which is not exact here, against its
    own trajectory.  dtmax is left unset, so that adaptive steps grow over
    whole flights: the ball must never fall through the floor."""
    rows = run(build("ball_" + m + tag, ball_model(m, extra), sanitize=False), "--quiet")
    check(len(rows) == 18, "%s: %d rows" % (m, len(rows)))
    k = 0
    for H in BALL_H:
        for e in BALL_E:
            for frac in BALL_FRAC:
                tinf = math.sqrt(2 * H / G) * (1 + e) / (1 - e)
                horizon = frac * tinf
                if m == "euler":
                    times, speeds = ball_euler(H, e, horizon, dt)
                else:
                    times, speeds = ball_analytic(H, e, horizon)
                check(len(times) <= BALL_K, "test setup: %d impacts, more than the %d kept" % (len(times), BALL_K))
                margin = min(abs(horizon - x) for x in times) if times else 1
                check(margin > 1e-6, "test setup: an impact within 1e-6 of the horizon (H=%g e=%g)" % (H, e))
                n = int(rows["n"][k])
                check(rows.status[k] == "finished" and abs(rows["t"][k] - horizon) < 1e-12 * horizon,
                      "%s %s: H=%g e=%g: status %s at t=%.15g" % (m, extra, H, e, rows.status[k], rows["t"][k]))
                check(n == len(times), "%s %s: H=%g e=%g horizon %.4g: %d impacts, analytic %d"
                      % (m, extra, H, e, horizon, n, len(times)))
                located = 0.0
                for i, want in enumerate(times):
                    got = rows["t_%d" % (i + 1)][k]
                    located += 2 * BALL_TOL / speeds[i]
                    bound = (1 + e) / (1 - e) * located + 1e-13 * want * (i + 1)
                    check(abs(got - want) <= bound, "%s %s: H=%g e=%g: impact %d at %.15g, analytic %.15g (bound %.3g)"
                          % (m, extra, H, e, i + 1, got, want, bound))
                k += 1


def ball_cases():
    cases = [("euler", "", ", dt=0.0005", 0.0005), ("modeuler", "", ", dt=0.05", None), ("rk4", "", ", dt=0.05", None)]
    for m in ADAPTIVE:
        cases += [(m, "_loose", ", toler=1e-3, atoler=1e-3", None), (m, "_tight", ", toler=1e-12, atoler=1e-12", None)]
    return cases


for _m, _tag, _extra, _dt in ball_cases():
    globals()["test_ball_" + _m + _tag] = (lambda m, g, x, d: lambda: ball_test(m, g, x, d))(_m, _tag, _extra, _dt)
    globals()["test_ball_" + _m + _tag].__doc__ = "The bouncing ball with %s%s." % (_m, _extra)


def long_ball_test(m):
    """A ball of restitution 0.9999 over 3000 s: 4038 impacts of ~0.9 s
    flights, while nothing bounds the adaptive steps but the window (the
    flights are exact polynomials: the error estimate is zero, every step
    grows 5×): steps span hundreds of flights' worth of time, and the slopes
    at the check points, taken on the extension right there, still show
    every flight.  The count is exact; the last impact time right to the
    bound of test_ball_*."""
    e, horizon = 0.9999, 3000.0
    text = f"""par g=9.81, e={e!r}
y'=v
v'=-g
init y=1, v=0
acc n, tlast
event floor: y, dir=-1, tol={BALL_TOL!r} {{ v = -e*v; n = n + 1; tlast = t }}
@ meth={m}, toler=1e-6, atoler=1e-6, total={horizon!r}
record n, tlast
done
"""
    r = run(build("longball_" + m, text, sanitize=False), "--quiet")
    times, speeds = ball_analytic(1.0, e, horizon)
    check(min(abs(horizon - x) for x in times) > 1e-3, "test setup: an impact near the horizon")
    check(r["n"][0] == len(times), "%s: %d impacts, analytic %d" % (m, r["n"][0], len(times)))
    bound = (1 + e) / (1 - e) * sum(2 * BALL_TOL / v for v in speeds) + 1e-13 * horizon * len(times)
    check(abs(r["tlast"][0] - times[-1]) <= bound, "%s: last impact at %.15g, analytic %.15g (bound %.3g)"
          % (m, r["tlast"][0], times[-1], bound))


for _m in ("rkck45", "dopri5", "dop853"):
    globals()["test_ball_long_steps_" + _m] = (lambda m: lambda: long_ball_test(m))(_m)
    globals()["test_ball_long_steps_" + _m].__doc__ = "4038 impacts with steps as long as the window: %s." % _m


# ----------------------------------------------------------------------------- events on x = cos t

DELTA = 3e-3
EVENT_TOL = 1e-9


def events_model(m, extra):
    return f"""# x = cos t: an event that grazes each maximum, one that misses it, a pair
# of crossings around each minimum, one that starts inside its zone, and an
# ordinary crossing; none near another's crossings, so that no event cuts a
# step where another is to be seen
x'=v
v'=-x
init x=1, v=0
acc nhit, thit, nmiss, ntwo, ttwo1, ttwo2, nin, tin, ndown, tdown
event hit: x - (1 - {DELTA!r}), dir=1, tol={EVENT_TOL!r} {{ nhit = nhit + 1; if (nhit == 1) {{ thit = t }} }}
event miss: x - (1 + {DELTA!r}), dir=1, tol={EVENT_TOL!r} {{ nmiss = nmiss + 1 }}
event two: x + 0.99, dir=0, tol={EVENT_TOL!r} {{ ntwo = ntwo + 1; if (ntwo == 1) {{ ttwo1 = t }}; if (ntwo == 2) {{ ttwo2 = t }} }}
event inzone: v + 0.1*t, dir=0, tol={EVENT_TOL!r} {{ nin = nin + 1; if (nin == 1) {{ tin = t }} }}
event down: x, dir=-1, tol={EVENT_TOL!r} {{ ndown = ndown + 1; if (ndown == 3) {{ tdown = t }} }}
@ meth={m}, total=20, evpoints=0{extra}
record x, v, nhit, thit, nmiss, ntwo, ttwo1, ttwo2, nin, tin, ndown, tdown
done
"""


def events_test(m, extra):
    """On x = cos t over [0, 20], with events checked at the steps' ends only
    (evpoints=0: what lies between is found on the continuous extension):
    `hit` (x rises through 1 - 3e-3, in a window of 0.155 before each
    maximum, shorter than the steps) fires 3 times and `miss` (1 + 3e-3)
    never; `two` (x = -0.99 either way, crossings 0.28 apart around each
    minimum) 6 times; `inzone` (v + t/10, zero at t = 0: inside its zone
    from the start) not at 0 but at the 3 later roots of sin t = t/10;
    `down` (x = 0 downwards) at π/2 + 2πk.  Times right to (tol + the
    integration error)/|g'|, the integration error being the run's own at
    t = 20."""
    from scipy.optimize import brentq
    rows = run(build("events_" + m, events_model(m, extra), sanitize=False), "--quiet")
    r = {k: rows[k][0] for k in rows.columns}
    interr = abs(r["x"] - math.cos(20)) + abs(r["v"] + math.sin(20))

    def near(name, got, want, slope):
        bound = (EVENT_TOL + 3 * interr) / abs(slope) + 1e-12
        check(abs(got - want) <= bound, "%s: %s at %.15g, exact %.15g (bound %.3g)" % (m, name, got, want, bound))

    check(r["nhit"] == 3, "%s: hit fired %d times, expected 3 (grazing maxima)" % (m, r["nhit"]))
    th = 2 * math.pi - math.acos(1 - DELTA)
    near("hit", r["thit"], th, math.sin(math.acos(1 - DELTA)))
    check(r["nmiss"] == 0, "%s: miss fired %d times" % (m, r["nmiss"]))
    check(r["ntwo"] == 6, "%s: two fired %d times, expected 6" % (m, r["ntwo"]))
    a = math.acos(0.99)
    near("two (down)", r["ttwo1"], math.pi - a, math.sin(a))
    near("two (up)", r["ttwo2"], math.pi + a, math.sin(a))
    check(r["nin"] == 3, "%s: inzone fired %d times, expected 3" % (m, r["nin"]))
    root = brentq(lambda t: -math.sin(t) + 0.1 * t, 2, 3.5)
    near("inzone", r["tin"], root, -math.cos(root) + 0.1)
    check(r["ndown"] == 3, "%s: down fired %d times" % (m, r["ndown"]))
    near("down", r["tdown"], math.pi / 2 + 4 * math.pi, 1.0)


for _m, _extra in [("rk4", ", dt=0.3")] + [(m, ", toler=1e-8, atoler=1e-8") for m in ADAPTIVE]:
    globals()["test_events_" + _m] = (lambda m, x: lambda: events_test(m, x))(_m, _extra)
    globals()["test_events_" + _m].__doc__ = "Grazing, paired and in-zone events with %s." % _m


# ----------------------------------------------------------------------------- steps nothing can cross

def spiral_model(m):
    return f"""# A damped oscillator's spiral, with an event function nonlinear in the
# state (the radius), one with a kink (|x|) and one cubic in x
x'=v
v'=-x-0.1*v
init x=1, v=0
acc nring, tring, nkink, tkink, ncube, tcube
event ring: x*x + v*v - 0.25, dir=-1, tol=1e-9 {{ nring = nring + 1; tring = t }}
event kink: abs(x) - 0.3, dir=0, tol=1e-9 {{ nkink = nkink + 1; tkink = t }}
event cube: x^3 - 0.05*v, dir=1, tol=1e-9 {{ ncube = ncube + 1; tcube = t }}
@ meth={m}, total=40, toler=1e-8, atoler=1e-8
record x, v, nring, tring, nkink, tkink, ncube, tcube
done
"""


def bounds_runs(tag, text, precision=None):
    """The rows and step counts of the runner built with steps skipped by the
    slope bound (events.h), and of the same runner scanning every step."""
    runs = []
    for defines in ((), ("-DODE_EVENT_BOUNDS=0",)):
        runner = build(tag, text, precision=precision, sanitize=False, defines=defines)
        p = run_raw(runner, "--backend", BACKEND, "--quiet")
        check(p.returncode == 0, "%s exited %d:\n%s" % (runner, p.returncode, p.stderr))
        runs.append((p.stdout, re.findall(r"[0-9]+ (?:accepted )?steps", p.stderr)))
    return runs


def bounds_case(m, kind):
    if kind == "events":
        return events_model(m, ", dt=0.3" if m == "rk4" else ", toler=1e-8, atoler=1e-8")
    if kind == "ball":
        return ball_model(m, ", toler=1e-10, atoler=1e-10")
    return spiral_model(m)


def test_event_bounds_same_results():
    """A step whose event functions' slopes at its ends keep them from their
    zones is not scanned (events.h): that changes nothing that is seen —
    the grazing, paired and in-zone events on x = cos t with every adaptive
    method and RK4, the bouncing ball (RKCK45, DOP853: impacts after long
    flights), and a spiral's events nonlinear in the state, with a kink and
    cubic, give the same rows and steps, bit for bit, as with every step
    scanned; in float too (events with RKCK45, the spiral with DOPRI5).
    (The builds run ODEGEN_JOBS at a time.)"""
    from concurrent.futures import ThreadPoolExecutor
    cases = [(m, "events", None) for m in ["rk4"] + ADAPTIVE] + \
        [(m, "ball", None) for m in ("rkck45", "dop853")] + \
        [(m, "spiral", None) for m in ("rkck45", "dopri5", "dop853")] + \
        [("rkck45", "events", "float"), ("dopri5", "spiral", "float")]
    with ThreadPoolExecutor(max(1, int(os.environ.get("ODEGEN_JOBS", "2")))) as pool:
        results = list(pool.map(lambda c: bounds_runs("bounds_%s_%s" % (c[1], c[0]), bounds_case(c[0], c[1]), c[2]),
                                cases))
    for (m, kind, precision), runs in zip(cases, results):
        tag = "%s, %s%s" % (kind, m, ", " + precision if precision else "")
        check(runs[0][0] == runs[1][0], "%s: rows differ with the slope bound:\n%s\nvs every step scanned:\n%s"
              % (tag, runs[0][0][:1500], runs[1][0][:1500]))
        check(runs[0][1] == runs[1][1], "%s: steps %s with the bound, %s without" % (tag, runs[0][1], runs[1][1]))
        if kind == "spiral":
            rows = Result(runs[0][0], "")
            check(rows["nring"][0] == 1 and rows["nkink"][0] >= 10 and rows["ncube"][0] >= 5,
                  "%s: the spiral's events fired %d, %d, %d times" % (tag, rows["nring"][0], rows["nkink"][0],
                                                                      rows["ncube"][0]))
    gen = open(build("bounds_spiral_rkck45", spiral_model("rkck45"), sanitize=False) + ".cu").read()
    smooth = re.search(r"int ode_event_smooth\(int ode_e\)\n\{\n(.*?)\n\}", gen, re.S).group(1)
    smooth_set = {int(k) for k in re.findall(r"ode_e == (\d+)\) return 1;", smooth)}   # (single events, ranges)
    for lo, hi in re.findall(r"ode_e >= (\d+) && ode_e <= (\d+)\) return 1;", smooth):
        smooth_set |= set(range(int(lo), int(hi) + 1))
    check(smooth_set == {0, 2}, "ode_event_smooth: ring and cube smooth, kink not:\n" + smooth)


# ----------------------------------------------------------------------------- XPPAUT's euler and modeuler

XPPAUT = "/usr/bin/xppaut"


def xpp_test(m):
    """XPPAUT's own `meth=euler` and `meth=modeuler` (forward Euler; Heun,
    its trapezoidal predictor-corrector) against odegen's on a forced,
    nonlinear system, step by step: equal to XPPAUT's printed digits (8
    significant, single precision), which tells Heun from the midpoint rule
    (their difference is O(dt^2) = 1e-3 here)."""
    if not os.path.exists(XPPAUT):
        print("        (xppaut not installed: skipped)")
        return
    dt, n = 0.05, 40
    plain = f"""# x' = -x^3 + sin(t), y' = x - y
x'=-x^3+sin(t)
y'=x-y
init x=1, y=0
@ meth={m}, dt={dt}, total={dt * n}
done
"""
    ref = run_xppaut("f.ode", plain)[1:]
    ode = plain.replace("done\n", "@ total=%r\non end { t0 = t1; t1 = t1 + %r }\nrepeat record=%d\nrecord t, x, y\ndone\n"
                        % (dt, dt, n))
    rows = run(build("xpp_" + m, ode, sanitize=False), "--quiet")
    got = np.column_stack([rows["t"], rows["x"], rows["y"]])
    check(got.shape == ref.shape, "%s: %s rows vs XPPAUT's %s" % (m, got.shape, ref.shape))
    tol = np.abs(ref) * (2 ** -24 + 5e-8) + 1e-14
    err = np.max(np.abs(got - ref) / tol)
    check(err <= 1, "%s: differs from XPPAUT by %.3g of the print tolerance" % (m, err))


def test_xppaut_euler():
    xpp_test("euler")


def test_xppaut_modeuler():
    xpp_test("modeuler")


# ----------------------------------------------------------------------------- method names

def generated_method(value, model="x'=-x\n"):
    """ODE_METHOD of the model with `@ meth=value`, and odegen's messages."""
    with tempfile.TemporaryDirectory() as tmp:
        open(os.path.join(tmp, "m.ode"), "w").write("%s@ meth=%s\ndone\n" % (model, value))
        p = subprocess.run([ODEGEN, "m.ode", "-o", "g"], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        if p.returncode != 0:
            return None, p.stderr
        m = re.search(r"#define ODE_METHOD (\d+) ", open(os.path.join(tmp, "g", "m.cu")).read())
        return int(m.group(1)), p.stderr


def test_method_names():
    """`meth` values as XPPAUT reads them (load_eqn.c: by the first letter
    of "demragvbqsc582y"): XPPAUT's spellings quietly, other words of those
    letters with a note naming the reading; odegen's names quietly (the
    stiff rodas5p and ros3p too); XPPAUT's stiff methods as rodas5p with a
    note; XPPAUT's symplectic method (y…) on a position-velocity pair as
    itself, ymp, quietly, with a note for another word of its letter, and
    refused on one state; maps, Volterra methods, and words XPPAUT would read
    as rungekutta that look like other methods, refused."""
    number = {m: i + 1 for i, m in enumerate(METHODS + ["rodas5p", "ros3p", "discrete"])}
    quiet = {"rk4": "rk4", "RungeKutta": "rk4", "runge-kutta": "rk4", "qualrk": "rkck45", "QualRK": "rkck45",
             "5dp": "dopri5", "83dp": "dop853", "euler": "euler", "Euler": "euler", "modeuler": "modeuler",
             "rkck45": "rkck45", "dopri5": "dopri5", "tsit5": "tsit5", "dop853": "dop853", "vern7": "vern7",
             "rodas5p": "rodas5p", "Rodas5P": "rodas5p", "ros3p": "ros3p", "discrete": "discrete"}
    noted = {"r": "rk4", "runge": "rk4", "q": "rkck45", "5": "dopri5", "8": "dop853", "e": "euler",
             "m": "modeuler", "mod": "modeuler", "adams": "rk4", "stiff": "rodas5p", "gear": "rodas5p",
             "cvode": "rodas5p", "2rb": "rodas5p", "backeul": "rodas5p", "s": "rodas5p", "CVODE": "rodas5p",
             "disc": "discrete", "d": "discrete"}
    for word, m in quiet.items():
        got, err = generated_method(word)
        check(got == number[m] and "note" not in err, "meth=%s: method %s, messages %r" % (word, got, err))
    for word, m in noted.items():
        got, err = generated_method(word)
        check(got == number[m] and "note:" in err, "meth=%s: method %s, messages %r" % (word, got, err))
    for word in ("dop85", "volterra", "rkqs", "rkck", "tsitouras", "rodas5", "rodas4", "rosenbrock", "ros23"):
        got, err = generated_method(word)
        check(got is None and "error" in err, "meth=%s: accepted (%s)" % (word, err))
    pair = "x'=v\nv'=-x\n"
    for word, quietly in (("ymp", True), ("y", False), ("Ymp", True)):
        got, err = generated_method(word, pair)
        check(got == 14 and ("note" not in err) == quietly, "meth=%s: method %s, messages %r" % (word, got, err))
    got, err = generated_method("ymp")
    check(got is None and "two by two" in err, "meth=ymp on one state: %s" % err)


# ----------------------------------------------------------------------------- single precision

def test_float_literal_beyond_range():
    """models/duffing_maxima.ode (`peak = -1e300`) in single precision: the
    literal becomes -infinity (a note says so at its line), the code
    compiles and the event-kept maximum is finite and agrees with the
    step-kept one to float accuracy."""
    text = open(os.path.join(ROOT, "models", "duffing_maxima.ode")).read()
    runner = build("maxima_float", text, precision="float", sanitize=False)
    r = run(runner, "--scan", "k=lin(0.2,0.3,3)", "--transient", "4", "--recorded", "2", "--quiet")
    check(np.all(np.isfinite(r["peak"])), "peak %s" % r["peak"])
    check(np.max(np.abs(r["peak"] - r["ymax"])) < 1e-3, "peak %s vs ymax %s" % (r["peak"], r["ymax"]))
    with tempfile.TemporaryDirectory() as tmp:
        open(os.path.join(tmp, "m.ode"), "w").write(text)
        p = subprocess.run([ODEGEN, "m.ode", "--check", "--precision", "float"], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    check("1e300 is beyond single precision's range" in p.stderr, "no note for 1e300: %r" % p.stderr)
    check("below what single precision resolves" in p.stderr, "no note for toler=1e-9: %r" % p.stderr)


# ----------------------------------------------------------------------------- save: the runtime

SAVE_MODEL = """# x = cos(w t) with a window that grows: integration r runs over [r, 2r+1]
par w=1
x'=v
v'=-w^2*x
init x=1, v=0
acc n
on start {{ n = n + 1; t1 = t0 + n }}
on end {{ t0 = t }}
@ meth=dopri5, toler=1e-10, atoler=1e-10, total=1
scan w = list(1, 1.5, 2, 2.5)
repeat transient=1, record=3
save every=0.25{extra}
done
"""


def test_save_runtime():
    """The runner's FILE.traj.csv (built with ASan/UBSan): header
    system,rep,t,<fields>; samples at t0 + i·0.25 of the recorded
    integrations only, by system, rep and time, equal to cos(w t) to the
    tolerance; systems=list(…) keeps those; a window that outgrows the
    capacity (max=6 here) loses samples with a message, not silently; with
    the rows on standard output the samples go to NAME.traj.csv (said)."""
    runner = build("save_rt", SAVE_MODEL.format(extra=", systems=list(1, 3), max=20"), sanitize=True)
    rows, samples, err = run_files(runner, "--fields", "x,v,n")
    check(samples is not None and samples["header"] == ["system", "rep", "t", "x", "v", "n"],
          "header %s" % (samples and samples["header"]))
    check(sorted(set(samples["system"])) == [1, 3], "systems %s" % sorted(set(samples["system"])))
    w = {0: 1, 1: 1.5, 2: 2, 3: 2.5}
    # the n-th integration (n = 1: the transient one) is n long and starts where the last ended
    for sysno in (1, 3):
        t0 = 1.0                              # the transient integration covered [0, 1]
        for rep in range(3):
            length = rep + 2                  # n counts integrations: the window of the (n)th is n long
            sel = (samples["system"] == sysno) & (samples["rep"] == rep)
            t = samples["t"][sel]
            want = t0 + 0.25 * np.arange(int(length / 0.25) + 1)
            check(len(t) == len(want) and np.allclose(t, want, rtol=0, atol=1e-12),
                  "system %d rep %d: sample times %s, expected %s" % (sysno, rep, t, want))
            err_x = np.max(np.abs(samples["x"][sel] - np.cos(w[sysno] * t)))
            check(err_x < 1e-8, "system %d rep %d: samples off by %.3g" % (sysno, rep, err_x))
            check(np.all(samples["n"][sel] == rep + 2), "the accessory n in the samples: %s" % samples["n"][sel])
            t0 += length
    order = np.lexsort((samples["t"], samples["rep"], samples["system"]))
    check(np.array_equal(order, np.arange(len(order))), "the samples are not ordered by system, rep, time")
    check("not kept" not in err, "unexpected message: %s" % err)

    runner = build("save_cap", SAVE_MODEL.format(extra=", max=6"), sanitize=True)
    rows, samples, err = run_files(runner, "--fields", "x")
    check("samples were not kept" in err and "max=N" in err, "no message about the capacity: %r" % err)
    per = [(s, r) for s in range(4) for r in range(3)]
    counts = [int(np.sum((samples["system"] == s) & (samples["rep"] == r))) for s, r in per]
    check(all(c == 6 for c in counts), "samples kept per integration: %s" % counts)

    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([runner, "--backend", BACKEND, "--fields", "x"], cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
        check(os.path.exists(os.path.join(tmp, "save_cap.traj.csv")) and "save_cap.traj.csv" in p.stderr,
              "standard output: the samples' file %s, stderr %r" % (os.listdir(tmp), p.stderr))


# ----------------------------------------------------------------------------- CPU against GPU

def agreement_test(m):
    """The same nvcc-built Duffing runner on CPU and GPU with method m and an
    event: statuses equal, values within 1e-11 relative (nvcc contracts
    a*b+c into FMAs, CUDA's cos differs from glibc's in the last bits)."""
    text = open(os.path.join(ROOT, "models", "duffing_maxima.ode")).read().replace("meth=rkck45", "meth=" + m)
    if m in FIXED:
        text = text.replace("dt=0.01", "dt=0.005")
    runner = build("agree_" + m, text, backend="gpu")
    out = {}
    for backend in ("cpu", "gpu"):
        p = run_raw(runner, "--backend", backend, "--scan", "k=lin(0.2,0.3,256)", "--transient", "0", "--recorded", "3")
        check(p.returncode == 0, "%s %s: %s" % (m, backend, p.stderr))
        out[backend] = Result(p.stdout, p.stderr)
    a, b = out["cpu"], out["gpu"]
    check((a.status == b.status).all(), "%s: statuses differ" % m)
    for col in ("ymax", "peak"):
        d = np.max(np.abs(a[col] - b[col]) / np.maximum(np.abs(a[col]), 1))
        check(d < 1e-11, "%s: %s differs by %.3g between CPU and GPU" % (m, col, d))


# Sherman's ER calcium model (PassiveER/cicr.ode's equations): a voltage clamp whose step
# at tfirst = 5000 lies on the end of window 250 of 20, Rodas5P at 1e-10
CLAMP_ON_WINDOW_END = """# a clamp step on a window's end
v(0)=-71
c(0)=0.007
cer(0)=210
par gca=1200, pmin=0.00001, pmax=0.0003, kcicr=0.5, kpmca=0.08, fcyt=0.01, fer=0.01
par vcyt_er=25, kserca3=0.05, kserca2b=0.002, vhold=-71, tfirst=5000, vfirst=39
number vca=30, vm=-15, sm=8, alpha=4.5e-06
per = pmin + (pmax - pmin)/(1 + (kcicr/c)^2)
ica = gca/(1+exp((vm-v)/sm))*(v-vca)
v' = 10*(vhold+vfirst*heav(t-tfirst) - v)
c' = -fcyt*(alpha*ica+kpmca*c+kserca2b+kserca3*c-per*(cer-c))
cer' = fer*vcyt_er*(kserca2b+kserca3*c-per*(cer-c))
@ meth=rodas5p, toler=1e-10, atoler=1e-10, dt=20, total=20
on end { t0 = t1; t1 = t1 + 20 }
repeat record=260
record t, v, c
done
"""


def test_step_on_window_end():
    """an input that jumps on a window's end (Rodas5P at 1e-10, t = 5000): the trials rejected at
    the jump shrink until one is taken, and every window finishes (they were rejected for ever,
    the rest of the window taken again and again, when the fixed steps' margin of 64 ulps of t
    applied to adaptive steps too: Sherman's cicr.ode hung at t = 5000)"""
    runner = build("step_on_window_end", CLAMP_ON_WINDOW_END, sanitize=False)
    try:
        p = subprocess.run([runner, "--backend", BACKEND, "--quiet"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        check(False, "260 windows of 20 not finished in 60 s (a step rejected for ever at t = 5000?)")
    check(p.returncode == 0, p.stderr)
    r = Result(p.stdout, p.stderr)
    check(set(r.status) == {"finished"} and abs(r["t"][-1] - 5200) < 1e-9, "statuses %s, t %r" % (set(r.status), r["t"][-1]))
    check(abs(r["v"][249] + 71) < 1e-6 and abs(r["v"][-1] + 32) < 1e-6, "v at 5000 %r, at 5200 %r" % (r["v"][249], r["v"][-1]))


# y' = -1000 (y - cos t) from a first step of 1 with dopri5: the first trials are
# rejected in a row (the step shrinks by 0.2 at most each time) until it is below
# the stability limit 3.3e-3 — at least four.
STIFF_START = """# stiff from a long first step
y' = -1000*(y - cos(t))
y(0) = 0
@ meth=dopri5, toler=1e-8, atoler=1e-8, dt=1, total=1
done
"""


def test_trials_rejected_in_a_row():
    """ODE_TRIAL_LIMIT: a step rejected that many times in a row stops its system with maxsteps (an
    endless rejection becomes a status, not a system that never ends); with the default limit
    (10^4) the same run finishes, y(1) = the slow manifold's value within 1e-6"""
    for limit, want in ((3, "maxsteps"), (None, "finished")):
        defines = ("-DODE_TRIAL_LIMIT=%d" % limit,) if limit else ()
        r = run(build("stiff_start" + ("_limit%d" % limit if limit else ""), STIFF_START, sanitize=False,
                      defines=defines), "--quiet", "--fields", "t,y")
        check(list(r.status) == [want], "limit %s: status %s, %s expected" % (limit or "default", r.status, want))
        if limit:
            check(r["t"][0] < 1e-2, "limit 3: stopped at t=%r, not at the start" % r["t"][0])
        else:
            # y = cos t + O(1/1000): the slow manifold y = (1000^2 cos t + 1000 sin t) / (1000^2 + 1)
            slow = (1e6 * math.cos(1.0) + 1e3 * math.sin(1.0)) / (1e6 + 1)
            check(abs(r["y"][0] - slow) < 1e-6, "y(1) %r, the slow manifold's %r" % (r["y"][0], slow))


if BACKEND == "gpu":
    for _m in METHODS:
        globals()["test_cpu_gpu_" + _m] = (lambda m: lambda: agreement_test(m))(_m)


TESTS = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]

if __name__ == "__main__":
    sys.exit(main(TESTS))
