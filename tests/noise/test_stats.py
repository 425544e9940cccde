#!/usr/bin/python3
"""The SDE methods against exact results, with standard errors (issue 22, item 2).

Every check is deterministic (fixed seeds: a run gives the same bits every
time) and is decided against an exact value and the standard error of the
estimate; the bounds are 4 standard errors unless said otherwise.

  ou          Ornstein-Uhlenbeck dx = -theta x dt + sigma dW, 10^5 systems: the
              mean and the variance at t = 0.5, 1, 1.5, 2 against the exact
              ones of the SDE (and, sharper, those of Euler-Maruyama's own
              recursion); with euler and weak2
  gbm_strong  geometric Brownian motion dX = mu X dt + sigma X dW, 10^5 paths,
              each integrated at dt = 2^-8 … 2^-5 on the SAME Brownian path
              (noisesub = 1, 2, 4, 8: the increments of the grid 2^-8,
              summed), against the exact X_T = exp((mu - sigma^2/2) T + sigma
              W_T) of that path (W_T integrated alongside): strong orders of
              Euler-Maruyama (0.5) and Milstein (1.0)
  gbm_weak    E[X_T] of the weak-order-2 scheme at dt = 1/4 … 1/32 (a control
              variate: the exact X_T of the same path, whose mean is exact):
              the order of the weak error (2), and each mean against the
              scheme's exact mean x0 (1 + mu h + mu^2 h^2 / 2)^(T/h)
  weak_multi  a 2-D linear SDE with two non-commuting Wiener processes:
              E[x1^2 + x2^2] of weak2 against the exact second moments (a
              linear ODE for E[X X^T]), weak order about 2 (the scheme's
              two-point variables V at work: without them the errors at
              dt = 0.5 and 0.25 were 6.3e-3 and 1.5e-3, with them 4.7e-3 and
              9.8e-4, the statistical error 1.2e-4)
  kramers     the overdamped double well dx = (x - x^3) dt + sqrt(2D) dW,
              from x = -1 to x = 1 (an event, stop=1): the mean escape time
              against Kramers' (exact, one-dimensional) mean first passage
              time, the integral T = (1/D) ∫_{-1}^{1} e^{U(y)/D} ∫_{-∞}^{y}
              e^{-U(z)/D} dz dy, and the Arrhenius form 2 pi / sqrt(U''(-1)
              |U''(0)|) e^{ΔU/D} of its saddle-point approximation
  fpt         integrate-and-fire with drift, v' = mu + sigma w, an event at
              v = 1 (stop=1): the first passage time is inverse Gaussian
              (mean 1/mu, variance sigma^2/mu^3); the discretely monitored
              threshold is shifted by 0.5826 sigma sqrt(dt) (Broadie,
              Glasserman and Kou 1997)
  markov      XPPAUT's markov chains (2 and 3 states): the occupation of each
              state after n steps against p0 P^n, P = I + Q dt (XPPAUT's
              update), and the stationary distribution
  paths       noisesub: dt with noisesub = 2^k follows the Brownian path of
              dt/2^k (W_T the same to rounding); a float model sees the
              double model's numbers

Run: /usr/bin/python3 tests/noise/test_stats.py [test-name-filter…]
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import build, check, main, run  # noqa: E402

N = 100000          # systems of each statistic
SEED = "20240611"


def model(name, text, **kw):
    return build(name, text, sanitize=False, **kw)


def mean_se(x):
    return float(np.mean(x)), float(np.std(x, ddof=1) / math.sqrt(len(x)))


def within(what, value, exact, se, k=4.0):
    ok = abs(value - exact) <= k * se
    print("    %-52s %.6g  exact %.6g  (%+.2f se, se %.2g)" % (what, value, exact, (value - exact) / se, se),
          flush=True)
    check(ok, "%s: %.8g, exact %.8g: %.1f standard errors (%.3g) off" % (what, value, exact,
                                                                          abs(value - exact) / se, se))


def slope(h, err):
    return float(np.polyfit(np.log(h), np.log(err), 1)[0])


# ------------------------------------------------------------------ Ornstein-Uhlenbeck

OU = """# Ornstein-Uhlenbeck: dx = -theta x dt + sigma dW
wiener w
par theta=1, sigma=0.5, k=0
x' = -theta*x + sigma*w
init x=1
@ meth=euler, dt=0.005, total=0.5
"""


def test_ou():
    theta, sigma, x0, h = 1.0, 0.5, 1.0, 0.005
    for meth in ("euler", "weak2"):
        runner = model("ou_" + meth, OU, flags=("--option", "meth=" + meth))
        r = run(runner, "--scan", "k=lin(0,1,%d)" % N, "--recorded", "4", "--seed", SEED, "--quiet")
        x = r["x"].reshape(N, 4)
        for rep in range(4):
            t = 0.5 * (rep + 1)
            m, se = mean_se(x[:, rep])
            var = float(np.var(x[:, rep], ddof=1))
            var_se = var * math.sqrt(2.0 / (N - 1))   # the sample variance of normal data
            exact_m = x0 * math.exp(-theta * t)
            exact_v = sigma ** 2 / (2 * theta) * (1 - math.exp(-2 * theta * t))
            within("%s mean x(%g)" % (meth, t), m, exact_m, se)
            within("%s variance x(%g)" % (meth, t), var, exact_v, var_se)
            if meth == "euler":   # Euler-Maruyama's recursion x <- (1 - theta h) x + sigma dW, exactly
                n, g = round(t / h), 1 - theta * h
                within("euler mean x(%g), the recursion's" % t, m, x0 * g ** n, se)
                within("euler variance x(%g), the recursion's" % t, var,
                       sigma ** 2 * h * (1 - g ** (2 * n)) / (1 - g * g), var_se)


# ------------------------------------------------------------------ geometric Brownian motion

GBM = """# geometric Brownian motion dX = mu X dt + sigma X dW; bw' = w integrates W itself
wiener w
par mu=1.5, sigma=1, k=0
x' = mu*x + sigma*x*w
bw' = w
init x=1, bw=0
@ meth=euler, dt=0.00390625, total=1
"""


def gbm_runs(meth, levels, fine, sigma="1", mu="1.5", m=N):
    runner = model("gbm_" + meth, GBM, flags=("--option", "meth=" + meth))
    out = []
    for k in levels:
        M = 2 ** k
        r = run(runner, "--scan", "k=lin(0,1,%d)" % m, "--set", "dt=%r" % (fine * M), "--set", "noisesub=%d" % M,
                "--set", "sigma=" + sigma, "--set", "mu=" + mu, "--seed", SEED, "--quiet")
        out.append((fine * M, r["x"], r["bw"]))
    return out


def test_gbm_strong():
    mu, sigma = 1.5, 1.0
    fine = 2.0 ** -8
    levels = [0, 1, 2, 3]
    paths = None
    for meth, order in (("euler", 0.5), ("milstein", 1.0)):
        hs, errs, ses = [], [], []
        for h, x, w in gbm_runs(meth, levels, fine):
            if paths is None:
                paths = w
            check(np.max(np.abs(w - paths)) < 1e-9, "%s dt=%g: W_T is not the same path (%.3g apart)"
                  % (meth, h, np.max(np.abs(w - paths))))
            exact = np.exp((mu - sigma ** 2 / 2) + sigma * w)
            e, se = mean_se(np.abs(x - exact))
            hs.append(h), errs.append(e), ses.append(se)
        p = slope(hs, errs)
        print("    %-9s strong errors E|X_T - X(T)| at dt = 2^-8 … 2^-5: %s; order %.3f (expected %.1f)"
              % (meth, ", ".join("%.3e±%.1e" % (e, s) for e, s in zip(errs, ses)), p, order), flush=True)
        check(abs(p - order) < 0.1, "%s: strong order %.3f, expected %.1f" % (meth, p, order))
        if meth == "euler":
            em = errs
        else:
            check(all(a < b for a, b in zip(errs, em)), "Milstein's errors are not below Euler-Maruyama's")


def test_gbm_weak():
    mu, sigma, T = 1.5, 0.5, 1.0
    hs = [0.25, 0.125, 0.0625, 0.03125]
    runner = model("gbm_weak2", GBM, flags=("--option", "meth=weak2"))
    errs = []
    for h in hs:
        r = run(runner, "--scan", "k=lin(0,1,%d)" % N, "--set", "dt=%r" % h, "--set", "sigma=%r" % sigma,
                "--seed", SEED, "--quiet")
        # E[X_T^h] - E[X_T] = E[X_T^h - X_T(W)]: the same path's exact value as a control variate
        d = r["x"] - np.exp((mu - sigma ** 2 / 2) * T + sigma * r["bw"])
        e, se = mean_se(d)
        scheme = (1 + mu * h + (mu * h) ** 2 / 2) ** round(T / h) - math.exp(mu * T)
        within("weak2 weak error at dt=%g (the scheme's exact mean)" % h, e, scheme, se)
        errs.append(abs(e))
    p = slope(hs, errs)
    print("    weak2 weak errors |E X_T^h - E X_T|: %s; order %.3f (expected 2)"
          % (", ".join("%.3e" % e for e in errs), p), flush=True)
    check(abs(p - 2) < 0.25, "weak2: weak order %.3f, expected 2" % p)


WEAK_MULTI = """# dX = A X dt + B1 X dW1 + B2 X dW2: two Wiener processes that do not commute
wiener w1, w2
par s=0.4, k=0
x' = -x + 0.5*y + s*y*w1
y' = -0.5*x - y + s*x*w2
init x=1, y=0.5
@ meth=weak2, dt=0.25, total=1
"""


def test_weak_multi():
    from scipy.linalg import expm
    s = 0.4
    A = np.array([[-1.0, 0.5], [-0.5, -1.0]])
    B1 = np.array([[0.0, s], [0.0, 0.0]])
    B2 = np.array([[0.0, 0.0], [s, 0.0]])
    I = np.eye(2)
    M = np.kron(I, A) + np.kron(A, I) + np.kron(B1, B1) + np.kron(B2, B2)   # d vec(P)/dt, P = E[X X^T]
    x0 = np.array([1.0, 0.5])
    P = (expm(M) @ np.outer(x0, x0).reshape(-1)).reshape(2, 2)
    exact = P[0, 0] + P[1, 1]
    runner = model("weak_multi", WEAK_MULTI)
    hs, errs = [0.5, 0.25, 0.125], []
    for h in hs:
        r = run(runner, "--scan", "k=lin(0,1,%d)" % (4 * N), "--set", "dt=%r" % h, "--seed", SEED, "--quiet")
        q = r["x"] ** 2 + r["y"] ** 2
        e, se = mean_se(q)
        print("    weak2, two non-commuting processes, dt=%-6g E[x^2+y^2] %.6f ± %.1e, exact %.6f, error %.2e"
              % (h, e, se, exact, e - exact), flush=True)
        errs.append(abs(e - exact))
    # the order from the two errors well above the statistical error; the smallest step within it
    within("weak2 E[x^2+y^2] at dt=0.125", e, exact, se)
    p = slope(hs[:2], errs[:2])
    print("    weak order %.2f between dt=0.5 and 0.25 (expected 2)" % p, flush=True)
    check(errs[1] > 8 * se and abs(p - 2) < 0.5, "weak2 with two processes: weak order %.2f, expected 2" % p)


# ------------------------------------------------------------------ escape over a barrier

KRAMERS = """# overdamped double well U = x^4/4 - x^2/2: from the left well to the right one
wiener w
par D=0.125, k=0
x' = x - x^3 + sqrt(2*D)*w
init x=-1
event escape: x - 1, dir=1, stop=1
@ meth=euler, dt=0.01, total=100000
record t
"""


def test_kramers():
    from scipy.integrate import quad
    D = 0.125
    U = lambda x: x ** 4 / 4 - x ** 2 / 2   # noqa: E731
    inner = lambda y: quad(lambda z: math.exp(-U(z) / D), -6, y, epsabs=0, epsrel=1e-12, limit=200)[0]  # noqa: E731
    T_exact = quad(lambda y: math.exp(U(y) / D) * inner(y), -1, 1, epsabs=0, epsrel=1e-10, limit=200)[0] / D
    T_arrhenius = 2 * math.pi / math.sqrt(2 * 1) * math.exp(0.25 / D)
    runner = model("kramers", KRAMERS)
    r = run(runner, "--scan", "k=lin(0,1,%d)" % N, "--seed", SEED, "--quiet")
    check(np.all(r.status == "event"), "not every system escaped: %s" % set(r.status))
    m, se = mean_se(r["t"])
    print("    escape rate %.5f (mean time %.3f ± %.3f); Kramers' mean first passage time %.3f (rate %.5f); its "
          "Arrhenius form 2 pi/sqrt(U''(-1)|U''(0)|) e^(dU/D) %.3f" % (1 / m, m, se, T_exact, 1 / T_exact,
                                                                       T_arrhenius), flush=True)
    within("mean escape time against Kramers' integral", m, T_exact, se)


FPT = """# integrate-and-fire with drift: v' = mu + sigma w, the first passage through v = 1
wiener w
par mu=1, sigma=0.5, k=0
v' = mu + sigma*w
event fire: v - 1, dir=1, stop=1
@ meth=euler, dt=0.001, total=1000
record t, v
"""


def test_fpt():
    mu, sigma, h = 1.0, 0.5, 0.001
    runner = model("fpt", FPT)
    r = run(runner, "--scan", "k=lin(0,1,%d)" % N, "--seed", SEED, "--quiet")
    check(np.all(r.status == "event"), "not every system fired")
    check(np.max(np.abs(r["v"] - 1)) < 2e-6, "the state at the event is not at the threshold: %.3g"
          % np.max(np.abs(r["v"] - 1)))
    m, se = mean_se(r["t"])
    theta = 1 + 0.5826 * sigma * math.sqrt(h)   # the discretely monitored threshold (Broadie-Glasserman-Kou)
    within("first passage time: mean, inverse Gaussian (shifted threshold)", m, theta / mu, se)
    var = float(np.var(r["t"], ddof=1))
    var_se = float(np.std((r["t"] - m) ** 2, ddof=1) / math.sqrt(N))
    within("first passage time: variance", var, theta * sigma ** 2 / mu ** 3, var_se)


# ------------------------------------------------------------------ markov chains

MARKOV = """# XPPAUT's markov chains: z (2 states), q (3 states), constant rates
par a=2, b=1, k=0
x' = -x
markov z 2
{0} {a}
{b} {0}
markov q 3
{0} {1} {0.5}
{2} {0} {1}
{0} {3} {0}
init z=0, q=2
@ meth=euler, dt=0.01, total=0.2
"""


def test_markov():
    h, a, b = 0.01, 2.0, 1.0
    runner = model("markov", MARKOV)
    r = run(runner, "--scan", "k=lin(0,1,%d)" % N, "--recorded", "5", "--seed", SEED, "--quiet")
    z = r["z"].reshape(N, 5)
    q = r["q"].reshape(N, 5)
    check(set(np.unique(z)) <= {0.0, 1.0} and set(np.unique(q)) <= {0.0, 1.0, 2.0}, "a chain left its states")
    Pz = np.array([[1 - a * h, a * h], [b * h, 1 - b * h]])
    Q = np.array([[0, 1, 0.5], [2, 0, 1], [0, 3, 0]], dtype=float)
    Pq = np.eye(3) * 1.0 + Q * h - np.diag(Q.sum(axis=1) * h)
    for rep in range(5):
        n = round(0.2 * (rep + 1) / h)
        pz = (np.array([1.0, 0.0]) @ np.linalg.matrix_power(Pz, n))[1]
        pq = np.array([0.0, 0.0, 1.0]) @ np.linalg.matrix_power(Pq, n)
        f = float(np.mean(z[:, rep]))
        within("P(z=1) after %d steps" % n, f, pz, math.sqrt(pz * (1 - pz) / N))
        for state in range(3):
            f = float(np.mean(q[:, rep] == state))
            within("P(q=%d) after %d steps" % (state, n), f, pq[state], math.sqrt(pq[state] * (1 - pq[state]) / N))


# ------------------------------------------------------------------ the same path at several steps

def test_paths():
    fine = 2.0 ** -8
    ws = [w for _, _, w in gbm_runs("euler", [0, 1, 3], fine, m=1000)]
    for k, w in zip([1, 3], ws[1:]):
        check(np.max(np.abs(w - ws[0])) < 1e-12, "noisesub=%d: W_T differs from dt/%d's by %.3g"
              % (2 ** k, 2 ** k, np.max(np.abs(w - ws[0]))))
    print("    W_T of dt=2^-8, of dt=2^-7 with noisesub=2 and of dt=2^-5 with noisesub=8 agree to 1e-12", flush=True)
    single = model("gbm_float", GBM, precision="float")
    d = run(model("gbm_euler", GBM, flags=("--option", "meth=euler")), "--scan", "k=lin(0,1,1000)", "--seed", SEED,
            "--quiet")
    f = run(single, "--scan", "k=lin(0,1,1000)", "--seed", SEED, "--quiet")
    check(np.max(np.abs(d["bw"] - f["bw"])) < 1e-4, "a float model does not see the double model's numbers")
    print("    a float model's W_T is the double model's to %.1e" % np.max(np.abs(d["bw"] - f["bw"])), flush=True)


TESTS = [("ou", test_ou), ("gbm_strong", test_gbm_strong), ("gbm_weak", test_gbm_weak),
         ("weak_multi", test_weak_multi), ("kramers", test_kramers), ("fpt", test_fpt), ("markov", test_markov),
         ("paths", test_paths)]

if __name__ == "__main__":
    sys.exit(main(TESTS))
