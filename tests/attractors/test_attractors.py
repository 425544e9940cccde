#!/usr/bin/python3
"""`attractor` (issue 24): each system's fingerprint in the kernel, grouped
into an attractor table, each against something independent:

- symmetry: the unforced double well (x'' + c x' - x + x^3 = 0) has two
  attractors with fractions exactly 1/2 on a grid symmetric under
  (x, y) -> (-x, -y), every system labelled opposite to its mirror image;
  the basin boundary is the stable manifold of the saddle, integrated
  backwards by scipy: two neighbouring systems differ in label exactly where
  the manifold crosses the segment between them an odd number of times;
- the magnetic pendulum with three magnets: on a polar grid of initial
  values symmetric under rotation by 120 degrees, three fixed points that are
  rotations of each other, fractions 1/3 each, labels permuted by the
  rotation; on a square grid, fractions 1/3 within three standard errors;
- the forced Duffing oscillator (k = 0.15, B = 0.25): a period-3 orbit
  coexisting with two period-1 orbits; labels agree with the `period` field
  and with scipy's integration of sampled initial values (period and
  canonical point of its own Poincare points);
- continuation: the tilted double well (y' = -c y + x - x^3 - F): the left
  well's basin shrinks and vanishes at the saddle-node F = 2/(3 sqrt 3),
  its label the same at every F before it;
- the labels do not depend on the chunking (--chunk), escaped and failed
  systems get -1 and 0, and the statement's errors.

Run: /usr/bin/python3 tests/attractors/test_attractors.py [name-filter...]
(ODEGEN_BACKEND=gpu runs it on the GPU.)
"""
import csv
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import BACKEND, BUILD, ODEGEN, build, check, main, run, _run  # noqa: E402


def table(path):
    """FILE.attractors.csv as a list of dicts (numbers as floats where they are)."""
    rows = []
    with open(path) as f:
        for row in csv.DictReader(f):
            out = {}
            for k, v in row.items():
                try:
                    out[k] = float(v)
                except ValueError:
                    out[k] = v
            rows.append(out)
    return rows


def run_table(runner, name, *args):
    """Runs with -o NAME.csv in the build folder; returns (Result of the rows, table rows)."""
    out = os.path.join(os.path.dirname(runner), name + ".csv")
    cmd = [runner, "--backend", BACKEND, "-o", out] + list(args)
    p = _run(cmd)
    check(p.returncode == 0, "%s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    from odegen_test import Result
    with open(out) as f:
        res = Result(f.read(), p.stderr)
    return res, table(out[:-4] + ".attractors.csv")


def last_rows(res, nrep):
    """Columns of each system's last recorded row."""
    return {k: v[nrep - 1::nrep] for k, v in res.columns.items()}


# ------------------------------------------------------------------ the double well

DOUBLE_WELL = """# unforced double well
par c=0.25
x'=y
y'=-c*y+x-x^3
attractor of=x, y
@ meth=dopri5, total=1, toler=1e-10, atoler=1e-10
scan x = lin(-2, 2, %d)
scan y = lin(-2, 2, %d)
repeat transient=150, record=8
record x, y, attractor
done
"""


def stable_manifold(c, box=2.6):
    """The saddle's stable manifold (both branches) as polylines, by
    integrating backwards from the saddle along its stable eigenvector."""
    from scipy.integrate import solve_ivp
    lam = (-c - math.sqrt(c * c + 4)) / 2   # the stable eigenvalue of [[0, 1], [1, -c]]
    v = np.array([1.0, lam]) / math.hypot(1.0, lam)

    def back(t, u):
        return [-u[1], -(-c * u[1] + u[0] - u[0] ** 3)]

    def out(t, u):
        return max(abs(u[0]), abs(u[1])) - box
    out.terminal = True
    lines = []
    for sign in (1, -1):
        u0 = sign * 1e-7 * v
        sol = solve_ivp(back, (0, 60), u0, method="DOP853", rtol=1e-11, atol=1e-13, events=out, max_step=0.01)
        lines.append(np.vstack([[0.0, 0.0], sol.y.T]))
    return lines


def crossings(p, q, line):
    """How many times the polyline crosses the segment p-q."""
    a, b = line[:-1], line[1:]
    d = q - p
    e = b - a
    den = d[0] * e[:, 1] - d[1] * e[:, 0]
    w = a - p
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (w[:, 0] * e[:, 1] - w[:, 1] * e[:, 0]) / den
        u = (w[:, 0] * d[1] - w[:, 1] * d[0]) / den
    return int(np.sum((den != 0) & (s >= 0) & (s <= 1) & (u >= 0) & (u < 1)))


def test_double_well():
    """Two fixed points at (+-1, 0), 800 systems each; each system's mirror
    image has the other label; neighbours differ exactly where the stable
    manifold of the saddle (scipy, backwards) separates them."""
    n = 40
    runner = build("at_double_well", DOUBLE_WELL % (n, n), sanitize=False)
    res, t = run_table(runner, "dw")
    att = [r for r in t if r["label"] > 0]
    check(len(att) == 2, "two attractors expected, the table: %s" % t)
    for r in att:
        check(r["kind"] == "fixed" and r["period"] == 1, "a fixed point expected: %s" % r)
        check(abs(abs(r["point_x"]) - 1) < 1e-6 and abs(r["point_y"]) < 1e-6, "at (+-1, 0): %s" % r)
        check(r["systems"] == n * n // 2 and r["fraction"] == 0.5, "half of the grid each: %s" % r)
        check(abs(r["fraction_err"] - math.sqrt(0.25 / (n * n))) < 1e-12, "standard error sqrt(f(1-f)/N): %s" % r)
    rows = last_rows(res, 8)
    lab = rows["attractor"].reshape(n, n)
    check(np.all(lab + lab[::-1, ::-1] == 3), "every system's mirror image has the other label")
    lines = stable_manifold(0.25)
    xs = np.linspace(-2, 2, n)
    bad = []
    for i in range(n):
        for j in range(n):
            for di, dj in ((1, 0), (0, 1)):
                if i + di >= n or j + dj >= n:
                    continue
                p = np.array([xs[i], xs[j]])
                q = np.array([xs[i + di], xs[j + dj]])
                odd = sum(crossings(p, q, ln) for ln in lines) % 2 == 1
                if odd != (lab[i, j] != lab[i + di, j + dj]):
                    bad.append((p, q))
    check(not bad, "%d neighbouring pairs disagree with the manifold, e.g. %s" % (len(bad), bad[:3]))


def test_chunking_and_order():
    """The labels and the table are the same whatever the chunk (in order: 7 systems a launch);
    --last writes each system's last row, and only it."""
    runner = build("at_double_well_small", DOUBLE_WELL % (12, 12), sanitize=True)
    a, _ = run_table(runner, "whole")
    b, _ = run_table(runner, "chunked", "--chunk", "7")
    check(np.array_equal(a["attractor"], b["attractor"]), "labels differ with --chunk 7")
    folder = os.path.dirname(runner)
    ta, tb = (open(os.path.join(folder, f + ".attractors.csv")).read() for f in ("whole", "chunked"))
    check(ta == tb, "tables differ with --chunk 7:\n%s\n%s" % (ta, tb))
    c, _ = run_table(runner, "last", "--last", "--chunk", "5")
    check(len(c) == 144 and np.all(c["rep"] == 0), "--last: one row a system, rep 0")
    for k in ("x", "y", "attractor"):
        check(np.array_equal(c[k], last_rows(a, 8)[k]), "--last: %s differs from the last rows" % k)


# ------------------------------------------------------------------ the magnetic pendulum

NO_FMA = "-O3 -fmad=false"   # nvcc without fused multiply-adds: test_saddle_not_an_attractor says why

PENDULUM = """# magnetic pendulum: three magnets at 90, 210, 330 degrees on the unit circle
par w2=0.5, gam=0.2, d=0.3
%s
num x1=0, y1=1
num x2=-0.8660254037844386, y2=-0.5
num x3=0.8660254037844386, y3=-0.5
f1=((x1-x)^2+(y1-y)^2+d^2)^(-1.5)
f2=((x2-x)^2+(y2-y)^2+d^2)^(-1.5)
f3=((x3-x)^2+(y3-y)^2+d^2)^(-1.5)
x'=u
y'=v
u'=-w2*x-gam*u+(x1-x)*f1+(x2-x)*f2+(x3-x)*f3
v'=-w2*y-gam*v+(y1-y)*f1+(y2-y)*f2+(y3-y)*f3
attractor of=x, y
@ meth=dopri5, total=5, toler=1e-10, atoler=1e-10
%s
repeat transient=40, record=4
record x, y, attractor
done
"""


def test_magnetic_pendulum_polar():
    """A polar grid (radius x angle, 12 angles off the symmetry axes, on
    which a trajectory would stay and end on a saddle): 120-degree rotations map the
    grid onto itself, so the fractions are 1/3 and labels go round with the
    magnets; the three fixed points are rotations of each other."""
    nr, na = 10, 12
    text = PENDULUM % ("par r=1, a=0\ninit x=r*cos(a), y=r*sin(a), u=0, v=0",
                       "scan r = lin(0.2, 2, %d)\nscan a = lin(%.17g, %.17g, %d)" %
                       (nr, math.pi / na, math.pi / na + 2 * math.pi * (na - 1) / na, na))
    runner = build("at_pendulum_polar", text, sanitize=False)
    res, t = run_table(runner, "polar")
    att = [r for r in t if r["label"] > 0]
    check(len(att) == 3, "three attractors expected: %s" % t)
    pts = np.array([[r["point_x"], r["point_y"]] for r in att])
    for r in att:
        check(r["kind"] == "fixed", "fixed points expected: %s" % r)
        check(abs(r["fraction"] - 1 / 3) < 0.02, "a third each (to a few boundary systems): %s" % r)
    rot = np.array([[-0.5, -math.sqrt(3) / 2], [math.sqrt(3) / 2, -0.5]])
    for p in pts:
        q = rot @ p
        check(np.min(np.linalg.norm(pts - q, axis=1)) < 1e-6, "the fixed points are rotations of each other: %s" % pts)
    lab = last_rows(res, 4)["attractor"].reshape(nr, na)
    perm = {}
    for r in att:   # where the rotation takes each attractor's point
        q = rot @ np.array([r["point_x"], r["point_y"]])
        k = int(np.argmin(np.linalg.norm(pts - q, axis=1)))
        perm[int(r["label"])] = int(att[k]["label"])
    rotated = np.roll(lab, -na // 3, axis=1)   # the system at angle a + 120 degrees
    agree = np.mean(np.vectorize(lambda v: perm.get(int(v), v))(lab) == rotated)
    check(agree >= 0.98, "labels follow the rotation for %.4f of the systems" % agree)


def test_magnetic_pendulum_square():
    """A square grid: fractions 1/3 each within three standard errors."""
    n = 24
    text = PENDULUM % ("init u=0, v=0", "scan x = lin(-2, 2, %d)\nscan y = lin(-2, 2, %d)" % (n, n))
    runner = build("at_pendulum_square", text, sanitize=False)
    res, t = run_table(runner, "square")
    att = [r for r in t if r["label"] > 0]
    check(len(att) == 3, "three attractors expected: %s" % t)
    for r in att:
        check(abs(r["fraction"] - 1 / 3) <= 3 * r["fraction_err"], "1/3 within 3 s.e.: %s" % r)


def pendulum_jacobian(p, w2=0.5, gam=0.2, d=0.3, h=1e-6):
    """The magnetic pendulum's Jacobian at state p = (x, y, u, v), by central differences."""
    mags = [(0, 1), (-0.8660254037844386, -0.5), (0.8660254037844386, -0.5)]

    def f(s):
        x, y, u, v = s
        ax, ay = -w2 * x - gam * u, -w2 * y - gam * v
        for mx, my in mags:
            g = ((mx - x) ** 2 + (my - y) ** 2 + d * d) ** -1.5
            ax, ay = ax + (mx - x) * g, ay + (my - y) * g
        return np.array([u, v, ax, ay])
    p = np.asarray(p, dtype=float)
    return np.array([(f(p + h * e) - f(p - h * e)) / (2 * h) for e in np.eye(4)]).T


def test_saddle_not_an_attractor():
    """Systems started on the magnetic pendulum's symmetry axis x = 0 (its saddle's stable
    manifold lies in it) end on the saddle between the two lower magnets: that is no
    attractor.  Its row has kind `unstable` (not `fixed`), at the axis's equilibrium that
    scipy finds, where numpy's eigenvalues of the Jacobian have a positive real part; the
    stable magnets stay `fixed` (eigenvalues of negative real part); started 10^-3 off the
    axis, no system ends there.  And linear flows at rest at their origin: unstable exactly
    where an eigenvalue's real part is positive (a focus a +- 10i, a Jordan block of a),
    a = -10^-3, 0, 10^-3: a centre or a zero Jordan block is no saddle.

    On the axis the systems stay there only if u' is exactly 0 at x = u = 0: the magnets'
    terms (x2 - x) f2 and (x3 - x) f3 cancel exactly (x2 = -x3, so f2 = f3, and the sum is
    taken left to right: -0 - 0 + 0 - a + a = 0), but a fused multiply-add, which nvcc makes
    of a*b + c by default, adds the exact product to the other's rounded one and leaves
    its rounding error: the starts leave the axis (the GPU found no `unstable` row; so does
    this CPU runner built with -mfma -ffp-contract=fast: 38 fixed, 1 aperiodic, 2 at another
    fixed point, where without FMAs 3 systems end at the saddle).  So the GPU runner is built
    with -fmad=false (the CPU's default x86-64 code has no FMA)."""
    from scipy.optimize import brentq
    text = PENDULUM % ("init x=0, u=0, v=0", "scan y = lin(-2, 2, 41)")
    runner = build("at_saddle", text, sanitize=False, nvccflags=NO_FMA)
    res, t = run_table(runner, "saddle")
    unstable = [r for r in t if r["kind"] == "unstable"]
    check(len(unstable) == 1 and unstable[0]["systems"] > 0, "one unstable row expected: %s" % t)
    u = unstable[0]
    mags = [(0, 1), (-0.8660254037844386, -0.5), (0.8660254037844386, -0.5)]
    g = lambda y: -0.5 * y + sum((my - y) * ((mx) ** 2 + (my - y) ** 2 + 0.09) ** -1.5 for mx, my in mags)
    ys = brentq(g, -0.3, 0.0, xtol=1e-14)
    check(abs(u["point_x"]) < 1e-9 and abs(u["point_y"] - ys) < 1e-6,
          "the unstable row's point %r, %r; the axis's equilibrium (scipy) 0, %r" % (u["point_x"], u["point_y"], ys))
    ev = np.linalg.eigvals(pendulum_jacobian([0, ys, 0, 0]))
    check(max(ev.real) > 0.01, "the saddle's eigenvalues (numpy) %s" % ev)
    for r in t:
        if r["kind"] == "fixed":
            ev = np.linalg.eigvals(pendulum_jacobian([r["point_x"], r["point_y"], 0, 0]))
            check(max(ev.real) < 0, "a fixed row's eigenvalues %s: %s" % (ev, r))
    check(any(r["kind"] == "fixed" and r["systems"] > 0 for r in t), "the top magnet's row: %s" % t)
    lab = last_rows(res, 4)["attractor"]
    check(np.sum(lab == u["label"]) == u["systems"], "the unstable label's systems in the rows")
    off = build("at_saddle_off", PENDULUM % ("init x=0.001, u=0, v=0", "scan y = lin(-2, 2, 41)"), sanitize=False)
    _, t2 = run_table(off, "saddle_off")
    check(not any(r["kind"] == "unstable" and r["systems"] for r in t2), "10^-3 off the axis: %s" % t2)

    linear = """# the origin of a focus a +- i w (jordan=0) or of a Jordan block [[a, 1], [0, a]] (jordan=1)
par a=0, w=10, jordan=0
x'=a*x-(1-jordan)*w*y+jordan*y
y'=(1-jordan)*w*x+a*y
init x=0, y=0
attractor of=x, y
@ meth=dopri5, total=1
scan jordan = list(0, 1)
scan a = list(-0.001, 0, 0.001)
repeat transient=2, record=4
record attractor
done
"""
    runner = build("at_linear_origin", linear, sanitize=True)
    res, t = run_table(runner, "linear")
    kind = {int(r["label"]): r["kind"] for r in t}
    got = [kind[int(v)] for v in last_rows(res, 4)["attractor"]]
    want = ["fixed", "fixed", "unstable"] * 2
    check(got == want, "kinds at a = -1e-3, 0, 1e-3 (focus, then Jordan block): %s, expected %s" % (got, want))
    runner_err = _run([runner, "--backend", BACKEND, "-o", os.path.join(os.path.dirname(runner), "l2.csv")])
    check("label 2 is not an attractor: an unstable equilibrium" in runner_err.stderr, runner_err.stderr)


# ------------------------------------------------------------------ the forced Duffing oscillator

FORCED = """# forced double well: period 3 coexisting with two period-1 orbits
par k=0.15, B=0.25
y1'=y2
y2'=y1-y1^3-k*y2+B*cos(t)
period of=y1, y2, tol=1e-6, max=16
attractor
@ meth=rkck45, total=6.283185307179586, toler=1e-10, atoler=1e-10
scan y1 = lin(-2, 2, 16)
scan y2 = lin(-2, 2, 16)
repeat transient=300, record=32
record y1, y2, period, attractor
done
"""


def poincare_scipy(y0, rtol, k=0.15, B=0.25, transient=300, record=32):
    from scipy.integrate import solve_ivp
    T = 2 * math.pi
    f = lambda t, u: [u[1], u[0] - u[0] ** 3 - k * u[1] + B * math.cos(t)]
    ts = np.arange(transient + record + 1) * T
    sol = solve_ivp(f, (0, ts[-1]), y0, method="DOP853", rtol=rtol, atol=rtol / 10, t_eval=ts)
    return sol.y.T[transient + 1:]


def scipy_label(att, y0, rtol):
    """The table's attractor whose canonical point scipy's Poincare points hold."""
    pts = poincare_scipy(y0, rtol)
    d = {l: np.min(np.linalg.norm(pts - np.array([a["point_y1"], a["point_y2"]]), axis=1)) for l, a in att.items()}
    near = [l for l, v in d.items() if v < 1e-5]
    check(len(near) == 1, "scipy (rtol %g) from %s reaches %s of the table's attractors: %s" % (rtol, y0, near, d))
    return near[0]


def test_forced_duffing_periods():
    """Three attractors: period 3 and two of period 1; every system's label
    agrees with its period field.  12 sampled systems integrated by scipy
    (DOP853, rtol 1e-12) reach the attractor of their label (the one whose
    canonical point scipy's own Poincare points hold), but for systems on
    the fractal basin boundary: at most 4 may differ (3 do), and each must
    be shown sensitive (odegen at toler 1e-12, or scipy at rtol 1e-10, reaches
    another attractor from the same initial value, or scipy from initial values
    1e-9 away reaches more than one).  Rounding alone decides such systems:
    system 93 reaches period 3 under scipy with the reference BLAS and period 1
    with OpenBLAS (numpy's norm of the error estimate rounds differently), the
    reason this test failed on a fresh Debian where scipy brings OpenBLAS."""
    runner = build("at_forced", FORCED, sanitize=False)
    res, t = run_table(runner, "forced")
    att = {int(r["label"]): r for r in t if r["label"] > 0}
    periods = sorted(int(r["period"]) for r in att.values())
    check(periods == [1, 1, 3], "periods 1, 1, 3 expected: %s" % t)
    rows = last_rows(res, 32)
    for lab, per in zip(rows["attractor"], rows["period"]):
        check(att[int(lab)]["period"] == per, "label %d (period %d) on a system of period %d" %
              (lab, att[int(lab)]["period"], per))
    xs = np.linspace(-2, 2, 16)
    rng = np.random.default_rng(24)
    differ = []
    for s in rng.choice(256, 12, replace=False):
        y0 = [xs[s // 16], xs[s % 16]]
        lab = int(rows["attractor"][s])
        if scipy_label(att, y0, 1e-12) == lab:
            continue
        differ.append(s)
        _, one = run_table(runner, "forced_one", "--set", "toler=1e-12", "--set", "atoler=1e-12",
                           "--scan", "y1=list(%s)" % repr(float(y0[0])), "--scan", "y2=list(%s)" % repr(float(y0[1])))
        q = [r for r in one if r["label"] == 1][0]
        tight = [l for l, a in att.items() if math.hypot(q["point_y1"] - a["point_y1"], q["point_y2"] - a["point_y2"]) < 1e-5]
        near = {scipy_label(att, [y0[0] + dx, y0[1] + dy], 1e-12)
                for dx, dy in ((1e-9, 0), (-1e-9, 0), (0, 1e-9), (0, -1e-9))}
        sensitive = tight != [lab] or scipy_label(att, y0, 1e-10) != scipy_label(att, y0, 1e-12) or len(near) > 1
        check(sensitive, "system %d (%s): label %d, scipy reaches another, neither integrator changes its "
                         "answer with its tolerance, and initial values 1e-9 away reach one attractor %s" %
              (s, y0, lab, near))
    check(len(differ) <= 4, "%d of 12 sampled systems differ from scipy: %s" % (len(differ), differ))


# ------------------------------------------------------------------ Lorenz-84: chaos and a limit cycle

def lorenz84_brute_force(n, seed=84, F=6.886, G=1.347, a=0.255, b=4.0, dt=0.01, t_transient=400.0, t_window=200.0,
                         u0=None):
    """n initial values drawn uniformly from [-1, 3] x [-2, 3] x [-2, 3] (or the columns of
    u0, 3 x n), integrated by a vectorised fixed-step RK4 of this script's own (numpy),
    classified by what the trajectory does over the last t_window: at rest (x spans less than
    1e-3) a fixed point; the lowest x above -0.57 the limit cycle (its min x is -0.47), below
    it the chaotic attractor (about -0.68): two clusters far apart.  With u0, the classes
    themselves (arrays of booleans) too."""
    rng = np.random.default_rng(seed)
    u = np.vstack([rng.uniform(-1, 3, n), rng.uniform(-2, 3, n), rng.uniform(-2, 3, n)]) if u0 is None else u0
    n = u.shape[1]

    def f(u):
        x, y, z = u
        return np.vstack([-y * y - z * z - a * x + a * F, x * y - y - b * x * z + G, b * x * y + x * z - z])
    steps = int(round(t_transient / dt))
    lo = np.full(n, np.inf)
    hi = -lo
    for k in range(steps + int(round(t_window / dt))):
        k1 = f(u)
        k2 = f(u + 0.5 * dt * k1)
        k3 = f(u + 0.5 * dt * k2)
        k4 = f(u + dt * k3)
        u = u + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        if k >= steps:
            lo = np.minimum(lo, u[0])
            hi = np.maximum(hi, u[0])
    rest = hi - lo < 1e-3
    cycle = ~rest & (lo > -0.57)
    chaos = ~rest & ~cycle
    if u0 is not None:
        return {"fixed": rest, "cycle": cycle, "chaos": chaos}
    return {"fixed": rest.mean(), "cycle": cycle.mean(), "chaos": chaos.mean(), "n": n}


def test_lorenz84_chaos_and_cycle():
    """Lorenz-84 at Attractors.jl's parameters, on the Poincare section z = 0
    (models/lorenz84_basins.ode): a fixed point (lambda1 < 0), a limit cycle
    (a periodic orbit of the section's map, lambda1 about 0) and a chaotic
    attractor (aperiodic, lambda1 > 0) found on a grid of initial values; their fractions agree with a brute-force
    classification of uniformly sampled initial values integrated
    independently (numpy RK4) within 3 combined standard errors.  CPU: a
    10^3 grid and 600 samples; ODEGEN_L84_GRID, ODEGEN_L84_SAMPLES (the GPU
    suite: 64 and 10^4).  With a transient of 300 crossings, not the model's
    100: a system on a chaotic transient outside the chaotic attractor that
    reaches it during the record keeps the transient's points in its box and
    so a label of its own (docs/attractors.md, "What it cannot see"; the GPU's
    64^3 grid at 100 had one such label, lambda1 0.13, its box 0.1 wider than
    the attractor's, and so did the CPU's 30^3: with 300 its box is the
    attractor's) — the remedy the docs give, a longer
    transient.  Systems that settle onto the fixed point or the cycle during
    the record are test_lorenz84_settling_late's."""
    n = int(os.environ.get("ODEGEN_L84_GRID", "10"))
    samples = int(os.environ.get("ODEGEN_L84_SAMPLES", "600"))
    text = open(os.path.join(os.path.dirname(__file__), "..", "..", "models", "lorenz84_basins.ode")).read()
    runner = build("at_lorenz84", text, sanitize=False)
    res, t = run_table(runner, "l84", "--last", "--transient", "300", "--scan", "x=lin(-1,3,%d)" % n, "--scan", "y=lin(-2,3,%d)" % n,
                       "--scan", "z=lin(-2,3,%d)" % n)
    att = [r for r in t if r["label"] > 0 and r["systems"] > 0]
    kinds = {}
    for r in att:
        if r["kind"] == "fixed":
            check(r["lambda1"] < -0.1, "the fixed point's lambda1: %s" % r)
            kinds["fixed"] = r
        elif r["lambda1"] > 0.01:
            check("chaos" not in kinds, "two chaotic attractors: %s" % att)
            kinds["chaos"] = r
        else:
            check(abs(r["lambda1"]) < 0.01 and "cycle" not in kinds, "one limit cycle, lambda1 0: %s" % att)
            kinds["cycle"] = r
    check(sorted(kinds) == ["chaos", "cycle", "fixed"] and len(att) == 3,
          "a fixed point, a limit cycle and a chaotic attractor expected: %s" % att)
    check(kinds["chaos"]["kind"] == "aperiodic" and kinds["cycle"]["kind"] in ("fixed", "periodic"),
          "the cycle periodic on the section, the chaotic attractor not: %s" % att)
    bf = lorenz84_brute_force(samples)
    for k in ("fixed", "cycle", "chaos"):
        f, e = kinds[k]["fraction"], kinds[k]["fraction_err"]
        g = bf[k]
        se = math.sqrt(e * e + g * (1 - g) / bf["n"])
        check(abs(f - g) <= 3 * se, "%s: the grid's fraction %.4f, the brute force's %.4f (3 s.e. = %.4f)" %
              (k, f, g, 3 * se))


def test_lorenz84_settling_late():
    """Systems still on their transient when recording starts, that settle onto the fixed
    point or the cycle during the record (the GPU's 64^3 grid had ten such 1-5-system
    "aperiodic" labels at the fixed point's point, the 251^3 bench 48 labels where there are
    three): each joins the attractor it settles on.  models/lorenz84_basins.ode on a 12^3 grid
    with a transient of 40 crossings instead of 100 (so that many systems settle late), with
    a `period` line beside `attractor` (the same ring) to see them: systems whose whole-record
    `period` is 0, or 8 on the cycle of period 4 (a system still converging when recording
    starts fails p = 4 early, and p = 8, compared from 8 integrations on, passes).  Exactly
    three attractors; every late system labelled as (1) the same grid with a transient of 300
    labels it (the same integrations, continued: the first 140 crossings are bit for bit
    the same) and (2) the test's own numpy RK4 classifies its last state (at rest: the fixed
    point; the cycle; not chaos).  Before the tail rule (templates/attractor.h): 6 labels."""
    text = open(os.path.join(os.path.dirname(__file__), "..", "..", "models", "lorenz84_basins.ode")).read()
    text = text.replace("attractor of=x, y, tol=1e-5, max=16", "period of=x, y, tol=1e-5, max=16\nattractor")
    text = text.replace("record attractor, lyap1", "record x, y, z, period, attractor")
    check("period of=" in text and "record x, y, z" in text, "models/lorenz84_basins.ode changed: %s" % text)
    runner = build("at_lorenz84_late", text, sanitize=False)
    grid = ["--last", "--scan", "x=lin(-1,3,12)", "--scan", "y=lin(-2,3,12)", "--scan", "z=lin(-2,3,12)"]
    res, t = run_table(runner, "late", "--transient", "40", *grid)
    att = {int(r["label"]): r for r in t if r["label"] > 0 and r["systems"] > 0}
    kinds = sorted((r["kind"], int(r["period"])) for r in att.values())
    check(kinds == [("aperiodic", 0), ("fixed", 1), ("periodic", 4)], "three attractors expected: %s" % t)
    lab = res["attractor"].astype(int)
    check(all(l in att for l in lab), "labels outside the table: %s" % sorted(set(lab)))
    label_period = np.array([att[l]["period"] for l in lab])
    late = (res["period"] != label_period) & (label_period > 0)
    print("    %d of %d systems settled late (period field %s)" %
          (np.sum(late), len(lab), sorted(set(res["period"][late].astype(int)))))
    check(np.sum(late) >= 3, "the grid should hold systems that settle during the record: %d" % np.sum(late))
    settled, t2 = run_table(runner, "late300", "--transient", "300", *grid)
    att2 = {int(r["label"]): r for r in t2 if r["label"] > 0 and r["systems"] > 0}

    def same(a, b):   # the same attractor in the two tables: kind, period, canonical point
        return a["kind"] == b["kind"] and a["period"] == b["period"] and (
            a["kind"] == "aperiodic" or math.hypot(a["point_x"] - b["point_x"], a["point_y"] - b["point_y"]) < 1e-6)
    lab2 = settled["attractor"].astype(int)
    bad = [i for i in np.flatnonzero(late) if not (lab2[i] in att2 and same(att[lab[i]], att2[lab2[i]]))]
    check(not bad, "late systems labelled otherwise than after a transient of 300: %s" %
          [(i, att[lab[i]]["kind"], att2.get(lab2[i], {}).get("kind")) for i in bad])
    u = np.vstack([res["x"][late], res["y"][late], res["z"][late]])
    bf = lorenz84_brute_force(None, t_transient=50.0, t_window=100.0, u0=u)
    want = np.where(bf["fixed"], "fixed", np.where(bf["cycle"], "periodic", "aperiodic"))
    got = np.array([att[l]["kind"] for l in lab[late]])
    check(np.array_equal(got, want), "late systems: labels %s, numpy RK4 from their last states %s" %
          (list(got), list(want)))


# ------------------------------------------------------------------ continuation

TILT = """# tilted double well: the left well exists only for F > -2/(3 sqrt 3)
par c=0.5, F=0
x'=y
y'=-c*y+x-x^3-F
attractor of=x, y, tol=1e-6
@ meth=dopri5, total=2, toler=1e-10, atoler=1e-10
scan F = lin(-0.45, -0.30, 16)
scan x = lin(-1.5, 1.5, 24)
scan y = lin(-1, 1, 16)
repeat transient=300, record=8
record x, y, attractor
done
"""


def test_continuation_saddle_node():
    """F from -0.45 to -0.30: the left well exists only above the saddle-node
    F = -2/(3 sqrt 3) = -0.3849.  The right attractor keeps one label along
    F; the left one is absent at every F below the saddle-node and present,
    with one label of its own, at every F above it, its basin growing."""
    runner = build("at_tilt", TILT, sanitize=False)
    res, t = run_table(runner, "tilt")
    fc = -2 / (3 * math.sqrt(3))
    Fs = np.linspace(-0.45, -0.30, 16)
    by_slice = {}
    for r in t:
        if r["label"] > 0 and r["systems"] > 0:
            by_slice.setdefault(int(r["slice"]), []).append(r)
    check(sorted(by_slice) == list(range(16)), "every F has an attractor: %s" % sorted(by_slice))
    right = {int(r["label"]) for rs in by_slice.values() for r in rs if r["point_x"] > 0}
    check(len(right) == 1, "the right well keeps one label along F: %s" % right)
    for s, F in enumerate(Fs):
        rs = by_slice[s]
        left = [r for r in rs if r["point_x"] < 0]
        check(len(rs) == 1 + len(left), "slice %d: %s" % (s, rs))
        check(all(abs(r["F"] - F) < 1e-12 for r in rs), "the slice's F value in the table")
        if F < fc:
            check(not left, "F = %.4f below the saddle-node %.4f: no left attractor, got %s" % (F, fc, left))
        else:
            check(len(left) == 1 and left[0]["systems"] > 0, "F = %.4f above the saddle-node: the left one" % F)
    left_labels = {int(r["label"]) for rs in by_slice.values() for r in rs if r["point_x"] < 0}
    check(len(left_labels) == 1 and not left_labels & right, "the left attractor keeps one label: %s" % left_labels)
    fr = [sum(r["fraction"] for r in by_slice[s] if r["point_x"] < 0) for s in range(16)]
    above = [f for f, F in zip(fr, Fs) if F > fc]
    check(all(b >= a - 0.01 for a, b in zip(above, above[1:])), "the left basin grows with F: %s" % above)


# ------------------------------------------------------------------ the table in every output

def test_table_in_hdf5_and_python():
    """The HDF5 output's group /attractors and Python's Result.attractors hold the
    runner's FILE.attractors.csv, and Python's labels are the runner's."""
    text = DOUBLE_WELL % (10, 10)
    runner = build("at_outputs", text, sanitize=False)
    res, t = run_table(runner, "outputs")
    folder = os.path.dirname(runner)
    h5 = os.path.join(folder, "outputs.h5")
    p = _run([runner, "--backend", BACKEND, "--quiet", "-o", h5])
    check(p.returncode == 0, p.stderr)
    try:
        import h5py
    except ImportError:
        h5py = None
    if h5py is not None and os.path.exists(h5):
        with h5py.File(h5, "r") as f:
            g = f["attractors"]
            check(list(g["label"][:]) == [r["label"] for r in t], "HDF5 labels %s" % g["label"][:])
            check([k.decode() for k in g["kind"][:]] == [r["kind"] for r in t], "HDF5 kinds")
            check(np.allclose(g["fraction"][:], [r["fraction"] for r in t]), "HDF5 fractions")
            check(np.allclose(g["point"][2:, 0], [r["point_x"] for r in t[2:]], rtol=0, atol=0), "HDF5 points")
            check([q.decode() if isinstance(q, bytes) else q for q in g.attrs["quantities"]] == ["x", "y"],
                  "HDF5 quantities %s" % g.attrs["quantities"])
            check(np.array_equal(f["attractor"][:, :, -1].ravel(), last_rows(res, 8)["attractor"]), "HDF5 field")
        clash = build("at_clash", DOUBLE_WELL.replace("record x, y, attractor", "aux basins=x\nrecord basins, attractor")
                      % (4, 4), sanitize=False)
        p = _run([clash, "--backend", BACKEND, "-o", os.path.join(os.path.dirname(clash), "c.h5")])
        check(p.returncode == 1 and "the field 'basins' has the name of the attractor table's group" in p.stderr,
              "a field named like the table's group: %d %s" % (p.returncode, p.stderr))
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
    import odegen
    ode = os.path.join(folder, "..", "at_outputs.ode")
    m = odegen.load(ode, quiet=True)
    r = m.scan(backend=BACKEND, progress=False)
    a = r.attractors
    check(list(a["label"]) == [row["label"] for row in t], "Python labels %s" % a["label"])
    check(list(a["kind"]) == [row["kind"] for row in t], "Python kinds %s" % a["kind"])
    check(np.array_equal(a["systems"], [row["systems"] for row in t]), "Python counts %s" % a["systems"])
    check(np.array_equal(r["attractor"][:, -1], last_rows(res, 8)["attractor"]), "Python's field attractor")
    if h5py is not None and os.path.exists(h5):
        # Result.save writes the group /attractors as the runner does: the same datasets (names,
        # shapes, types, values bit for bit) and attributes; read back, Python's table.
        saved = os.path.join(folder, "outputs_python.h5")
        r.save(saved)
        with h5py.File(h5, "r") as f, h5py.File(saved, "r") as g:
            want, got = f["attractors"], g["attractors"]
            check(sorted(want) == sorted(got), "saved /attractors: %s, the runner's %s" % (sorted(got), sorted(want)))
            for name in want:
                x, y = want[name], got[name]
                check(x.shape == y.shape and x.dtype == y.dtype and h5py.check_string_dtype(x.dtype) ==
                      h5py.check_string_dtype(y.dtype), "saved /attractors/%s: %s %s, the runner's %s %s"
                      % (name, y.shape, y.dtype, x.shape, x.dtype))
                u, v = x[...], y[...]
                same = list(u) == list(v) if u.dtype.kind == "O" else u.tobytes() == v.tobytes()
                check(same, "saved /attractors/%s: %s, the runner's %s" % (name, v, u))
            check(sorted(want.attrs) == sorted(got.attrs), "attributes %s, the runner's %s"
                  % (sorted(got.attrs), sorted(want.attrs)))
            for key in want.attrs:
                check(str(want.attrs[key]) == str(got.attrs[key]), "attribute %s: %r, the runner's %r"
                      % (key, got.attrs[key], want.attrs[key]))
            back = {k: got[k][...] for k in got if k not in ("point", "lo", "hi")}
            for w in ("point", "lo", "hi"):
                for k, q in enumerate(got.attrs["quantities"]):
                    back["%s_%s" % (w, q)] = got[w][:, k]
            back["kind"] = np.array([k.decode() if isinstance(k, bytes) else k for k in back["kind"]])
            check(sorted(back) == sorted(a), "read back: columns %s, Result.attractors' %s" % (sorted(back), sorted(a)))
            for k in a:
                check(np.array_equal(back[k], a[k], equal_nan=a[k].dtype.kind == "f"),
                      "read back: %s %s, Result.attractors' %s" % (k, back[k], a[k]))
        clash = odegen.load(os.path.join(os.path.dirname(clash), "..", "at_clash.ode"), quiet=True)
        rc = clash.scan(backend=BACKEND, progress=False)
        try:
            rc.save(os.path.join(folder, "clash_python.h5"))
            check(False, "Result.save wrote a field named like the attractor table's group")
        except ValueError as e:
            check("has the name of the attractor table's group" in str(e), str(e))


# ------------------------------------------------------------------ basin entropy, uncertainty exponent

def _lib_of_outputs_model():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
    import odegen
    build("at_outputs", DOUBLE_WELL % (10, 10), sanitize=False)
    m = odegen.load(os.path.join(BUILD, "at_outputs-%s%s" % (BACKEND, "-plain" if "asan" in ODEGEN else ""),
                                 "at_outputs.ode"), quiet=True)
    return m, m._lib


def test_basin_measures_exact():
    """The library's measures on grids whose values are known: a straight
    boundary through a 1000 x 1000 grid (uncertain fraction 2k/(n - 2k)
    exactly, exponent 1 to 0.02); two labels at random (each box's entropy
    averages the binomial expectation, within 4 standard errors); one label
    (entropy 0, no uncertain point)."""
    import ctypes
    m, lib = _lib_of_outputs_model()
    n = 1000
    grid = np.ones((n, n), dtype=np.intc)
    grid[:, 437:] = 2
    shape = (ctypes.c_longlong * 2)(n, n)
    ks = np.array([1, 2, 4, 8, 16], dtype=np.intc)
    f = np.empty(5)
    a, e = ctypes.c_double(), ctypes.c_double()
    check(lib.basin_uncertainty(grid.ctypes.data, 2, shape, 5, ks.ctypes.data, f.ctypes.data, ctypes.byref(a),
                                ctypes.byref(e)) == 0, "model_basin_uncertainty failed")
    check(np.allclose(f, 2 * ks / (n - 2 * ks), rtol=0, atol=1e-15), "uncertain fractions %s" % f)
    check(abs(a.value - 1) < 0.02, "the exponent of a straight boundary: %r" % a.value)
    rng = np.random.default_rng(7)
    grid = rng.integers(1, 3, (300, 300)).astype(np.intc)
    shape = (ctypes.c_longlong * 2)(300, 300)
    sb, sbb = ctypes.c_double(), ctypes.c_double()
    nb, nbb = ctypes.c_longlong(), ctypes.c_longlong()
    check(lib.basin_entropy(grid.ctypes.data, 2, shape, 5, ctypes.byref(sb), ctypes.byref(sbb), ctypes.byref(nb),
                            ctypes.byref(nbb)) == 0, "model_basin_entropy failed")
    from math import comb
    ent = [(-(j / 25) * math.log(j / 25) if j else 0) - ((1 - j / 25) * math.log(1 - j / 25) if j < 25 else 0)
           for j in range(26)]
    mean = sum(comb(25, j) * ent[j] for j in range(26)) / 2 ** 25
    var = sum(comb(25, j) * (ent[j] - mean) ** 2 for j in range(26)) / 2 ** 25
    check(nb.value == 3600 and abs(sb.value - mean) < 4 * math.sqrt(var / 3600),
          "random labels: S_b = %r, expected %r ± %r" % (sb.value, mean, math.sqrt(var / 3600)))
    grid[:] = 3
    check(lib.basin_entropy(grid.ctypes.data, 2, shape, 5, ctypes.byref(sb), ctypes.byref(sbb), ctypes.byref(nb),
                            ctypes.byref(nbb)) == 0 and sb.value == 0 and nbb.value == 0, "one label: no entropy")
    check(lib.basin_entropy(grid.ctypes.data, 2, shape, 301, None, None, None, None) != 0, "a box beyond the grid")


def test_basin_measures_runner_and_python():
    """--basin-entropy and --uncertainty: the forced double well's fractal
    boundary (S_bb > ln 2, exponent well below 1) and the double well's
    (S_bb below ln 2); FILE.basins.csv holds what Python's Result measures.

    The forced double well's basins are mixed at every scale (the uncertain
    fraction is 0.8 at 1 to 8 grid steps), so a box's entropy estimates the
    entropy of the label fractions (0.73, 0.14, 0.13): 0.76, less the
    plug-in estimate's bias of about (labels - 1) / (2 points): on its 16 x 16
    grid with boxes of 4 (16 points) that left S_bb = 0.707 on the CPU and
    0.691 on the GPU (a few systems on the boundary rounded to another
    attractor) — at the criterion's edge, by the estimator, not the boundary.
    On 48 x 48 with boxes of 8 (36 boxes of 64 points): 0.767 (0.763 at
    toler 1e-9), 0.07 above ln 2."""
    runner = build("at_forced", FORCED, sanitize=False)
    out = os.path.join(os.path.dirname(runner), "fb.csv")
    p = _run([runner, "--backend", BACKEND, "-o", out, "--basin-entropy", "8", "--uncertainty",
              "--scan", "y1=lin(-2,2,48)", "--scan", "y2=lin(-2,2,48)"])
    check(p.returncode == 0, p.stderr)
    rows = table(out[:-4] + ".basins.csv")
    check(len(rows) == 1 and rows[0]["box"] == 8 and rows[0]["boxes"] == 36, "one basin map: %s" % rows)
    big = _run([runner, "--backend", BACKEND, "-o", out, "--basin-entropy", "17"])
    check(big.returncode == 2 and "--basin-entropy 17: the scan of 'y1' has 16 values, fewer than the box's side"
          in big.stderr, "a box larger than the grid, before the run: %d %s" % (big.returncode, big.stderr))
    b = rows[0]
    check(b["boundary_basin_entropy"] > math.log(2), "a fractal boundary: S_bb = %r" % b["boundary_basin_entropy"])
    check(b["uncertainty_exponent"] < 0.5, "a fractal boundary: alpha = %r" % b["uncertainty_exponent"])
    check("basin entropy S_b = " in p.stderr and "uncertainty exponent alpha = " in p.stderr, p.stderr)
    runner = build("at_double_well", DOUBLE_WELL % (40, 40), sanitize=False)
    out = os.path.join(os.path.dirname(runner), "db.csv")
    p = _run([runner, "--backend", BACKEND, "-o", out, "--basin-entropy", "5"])
    check(p.returncode == 0, p.stderr)
    b = table(out[:-4] + ".basins.csv")[0]
    check(b["boundary_basin_entropy"] < math.log(2), "the double well's boundary: S_bb = %r" % b["boundary_basin_entropy"])
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
    import odegen
    m = odegen.load(os.path.join(os.path.dirname(runner), "..", "at_double_well.ode"), quiet=True)
    xs = np.linspace(-2, 2, 40)
    r = m.scan(odegen.grid(x=xs, y=xs), backend=BACKEND, progress=False)
    be = r.basin_entropy(5)
    check(abs(be["basin_entropy"][0] - b["basin_entropy"]) < 1e-12 and be["boundary_boxes"][0] == b["boundary_boxes"],
          "Python %s, the runner %s" % (be, b))
    ue = r.uncertainty_exponent((1, 2, 3, 4, 6, 8))
    check(np.isfinite(ue["exponent"][0]) and ue["uncertain"].shape == (1, 6), "Python's exponent %s" % ue)


# ------------------------------------------------------------------ escape, failure, errors

ESCAPE = """# x' = x^2 escapes for x0 > 0 (bound), a NaN for x0 < -2 (sqrt of a negative), x -> 0 otherwise
x'=if(x>0)then(x^2)else(-x*sqrt(x+2)-0*x)
attractor
@ meth=rk4, dt=0.01, total=1, bound=100
scan x = list(-3, -1, 0.5)
repeat transient=20, record=4
record x, attractor
done
"""


LOGISTIC = """# the logistic map at r = 4: chaotic on [0, 1], unstable periodic orbits dense in it
x(t+1) = 4*x*(1-x)
attractor of=x, tol=1e-3, max=16
@ meth=discrete, total=1
repeat transient=0, record=40
record x, attractor
done
"""


def logistic_orbit(x0, n=41):
    xs = [x0]
    for _ in range(n - 1):
        xs.append(4 * xs[-1] * (1 - xs[-1]))
    return np.array(xs)


def whole_period(xs, tol=1e-3, top=16):
    """period.h's rule over a whole record: the smallest p each point agrees with p before"""
    for p in range(1, top + 1):
        if all(abs(xs[k] - xs[k - p]) <= tol * max(1, abs(xs[k]), abs(xs[k - p])) for k in range(p, len(xs))):
            return p
    return 0


def test_kind_of_most_systems():
    """A chaotic attractor that a system on one of its unstable periodic orbits joins
    stays aperiodic (the GPU's 64^3 Lorenz-84 grid: a few systems shadowing an unstable
    orbit of period 4 made the chaotic attractor's row `periodic`).  The logistic map at
    r = 4 from sin^2(pi/127) (period 7: theta -> 2 theta mod 1 from 1/127, the orbit's
    error 2^40 * 1e-16 = 1e-4 < tol by the record's end) and from 15 other values
    (aperiodic): one attractor, kind aperiodic, period 0, the point and box of its first
    system without a period — with the periodic system first and last."""
    upo = math.sin(math.pi / 127) ** 2
    others = [0.10 + 0.01 * k for k in range(15)]
    check(whole_period(logistic_orbit(upo)[1:]) == 7 and all(whole_period(logistic_orbit(x)[1:]) == 0 for x in others),
          "the test's premise: period 7 from sin^2(pi/127), none from the others (numpy)")
    runner = build("at_logistic", LOGISTIC, sanitize=True)
    for order in ([upo] + others, others + [upo]):
        scan = "list(%s)" % ",".join(repr(x) for x in order)
        res, t = run_table(runner, "logistic", "--scan", "x=" + scan)
        att = [r for r in t if r["label"] > 0 and r["systems"] > 0]
        labels = set(last_rows(res, 40)["attractor"])
        first = order[0] if order[0] != upo else order[1]
        box = logistic_orbit(first)[1:]
        check(len(att) == 1 and labels == {att[0]["label"]} and att[0]["systems"] == 16,
              "one attractor of the 16 systems expected: %s, labels %s" % (att, labels))
        a = att[0]
        check(a["kind"] == "aperiodic" and a["period"] == 0,
              "15 of 16 systems without a period: aperiodic expected, got %s period %s" % (a["kind"], a["period"]))
        check(a["lo_x"] == box.min() and a["hi_x"] == box.max(),
              "the box of the first system without a period (%r, %r) expected: %r, %r" %
              (box.min(), box.max(), a["lo_x"], a["hi_x"]))


def test_escaped_and_failed():
    """-1 for a system beyond bound, 0 for a NaN, the others labelled 1; the table counts them."""
    runner = build("at_escape", ESCAPE, sanitize=True)
    res, t = run_table(runner, "escape")
    lab = last_rows(res, 4)["attractor"]
    check(list(lab) == [0, 1, -1], "labels failed, attractor, escaped expected: %s" % list(lab))
    counts = {int(r["label"]): int(r["systems"]) for r in t}
    check(counts == {-1: 1, 0: 1, 1: 1}, "the table's counts: %s" % counts)


def test_statement_errors():
    """attractor's own errors, at the line."""
    base = "x'=-x\n%s\ndone\n"
    cases = [
        ("attractor\nattractor", "'attractor' is given twice"),
        ("period of=x\nattractor of=x", "give of=, tol= and max= there only"),
        ("attractor dist=-1", "dist must be positive"),
        ("attractor match=0", "match must be positive"),
        ("attractor distt=1", "unknown attractor option 'distt'"),
        ("attractor of=t", "attractor compares quantities"),
        ("par attractor=1\nattractor", "'attractor' is declared here"),
    ]
    work = os.path.join(BUILD, "at_errors")
    os.makedirs(work, exist_ok=True)
    for body, expected in cases:
        path = os.path.join(work, "m.ode")
        with open(path, "w") as f:
            f.write(base % body)
        p = _run([ODEGEN, path, "--check"])
        check(p.returncode != 0 and expected in p.stderr, "%r: expected %r in:\n%s" % (body, expected, p.stderr))


if __name__ == "__main__":
    sys.exit(main([(n, f) for n, f in list(globals().items()) if n.startswith("test_")]))
