#!/usr/bin/env python3
"""Noise on the GPU (issue 22, item 1): a system's random numbers are the
same bits on the CPU and the GPU, and so is its whole result where the
arithmetic is the same; and nothing of it depends on how the GPU splits the
work.

1. The numbers themselves, in the default build (nvcc contracts a*b+c into
   FMAs elsewhere): a model that records its draws — the Wiener process w of
   each step (XPPAUT's normal/sqrt(dt)), a normal() of the right-hand side,
   a ran() of an aux, a normal() of an accessory's initial value, a markov
   chain's state — over 4096 systems and 3 integrations: CPU and GPU equal
   bit for bit (templates/rng.h computes ln, sin, cos from explicit fmas).
2. Whole results with -fmad=false: Ornstein-Uhlenbeck (euler), geometric
   Brownian motion (milstein), two non-commuting Wiener processes (weak2) and
   a model with every kind of draw and events that shorten steps (the
   Brownian bridge): the GPU's CSV is the CPU's, byte for byte.
3. On the GPU alone: --chunk, --balance warp and thread, --block 32 give the
   same CSV.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from odegen_test import build, check, main, run_raw, Failure  # noqa: E402

DRAWS = """# the draws themselves, recorded
wiener w
par k=0
q = normal(0, 1)
x' = -x + w + q
aux wv = w
aux qv = q
aux rv = ran(1)
acc av = normal(0, 1)
markov z 3
{0} {1} {2}
{3} {0} {1}
{2} {2} {0}
@ meth=euler, dt=0.01, total=0.5
repeat record=3
record wv, qv, rv, av, z, x
"""

MODELS = {
    "ou": """wiener w
par theta=1, sigma=0.5, k=0
x' = -theta*x + sigma*w
init x=1
@ meth=euler, dt=0.01, total=1
repeat record=2
""",
    "gbm": """wiener w
par mu=1.5, sigma=1, k=0
x' = mu*x + sigma*x*w
init x=1
@ meth=milstein, dt=0.01, total=1
""",
    "two": """wiener w1, w2
par k=0
x' = -x + 0.5*y + 0.4*y*w1
y' = -0.5*x - y + 0.4*x*w2
init x=1, y=0.5
@ meth=weak2, dt=0.05, total=1
""",
    "bridge": """wiener w
par mu=1.2, sig=0.4, k=0
q = normal(0, 0.05)
v' = mu*(1 + z) + sig*w + q - 0.1*v
aux jitter = v + ran(0.01)
acc spikes, first=normal(0, 1)
global 1 v-1 {v = ran(0.1); spikes = spikes + 1}
markov z 2
{0} {0.3}
{0.6} {0}
@ meth=euler, dt=0.01, total=5
repeat transient=1, record=2
record v, z, jitter, spikes, first
""",
}

SCAN = ["--scan", "k=lin(0,1,4096)", "--quiet"]


def both(runner, *extra):
    out = {}
    for backend in ("cpu", "gpu"):
        p = run_raw(runner, "--backend", backend, *SCAN, *extra)
        check(p.returncode == 0, "--backend %s: exit %d\n%s" % (backend, p.returncode, p.stderr))
        out[backend] = p.stdout
    return out


def test_draws_bitwise():
    runner = build("noise_draws", DRAWS, backend="gpu")
    out = both(runner)
    cpu = [line.split(",") for line in out["cpu"].splitlines()]
    gpu = [line.split(",") for line in out["gpu"].splitlines()]
    check(len(cpu) == len(gpu) == 1 + 3 * 4096, "rows: %d, %d" % (len(cpu), len(gpu)))
    header = cpu[0]
    for col in ("wv", "qv", "rv", "av", "z"):
        j = header.index(col)
        differ = sum(a[j] != b[j] for a, b in zip(cpu[1:], gpu[1:]))
        check(differ == 0, "%s: %d of %d values differ between the CPU and the GPU" % (col, differ, len(cpu) - 1))
    j = header.index("x")   # the state: FMAs on the GPU, so close but not always equal
    x = np.array([float(a[j]) for a in cpu[1:]])
    y = np.array([float(b[j]) for b in gpu[1:]])
    check(np.max(np.abs(x - y)) < 1e-12, "x differs by %.3g" % np.max(np.abs(x - y)))
    print("    w, normal(), ran(), an accessory's normal(), a markov state: %d values each, CPU = GPU bit for bit; "
          "x (FMA on the GPU) within %.1e" % (len(cpu) - 1, np.max(np.abs(x - y))), flush=True)


def whole(name):
    runner = build("noise_" + name, MODELS[name], backend="gpu", nvccflags="-O3 -fmad=false")
    out = both(runner)
    check(out["cpu"] == out["gpu"], "%s built with -fmad=false: the GPU's CSV is not the CPU's" % name)
    print("    %-7s -fmad=false: %d rows, the GPU's CSV is the CPU's byte for byte" % (name, out["cpu"].count("\n") - 1),
          flush=True)


def test_split_on_gpu():
    runner = build("noise_bridge", MODELS["bridge"], backend="gpu")
    ref = run_raw(runner, "--backend", "gpu", *SCAN)
    check(ref.returncode == 0, ref.stderr)
    for extra in (["--chunk", "1000"], ["--balance", "warp"], ["--balance", "thread"], ["--block", "32"]):
        p = run_raw(runner, "--backend", "gpu", *SCAN, *extra)
        check(p.returncode == 0 and p.stdout == ref.stdout, "%s: not the same CSV" % " ".join(extra))
    print("    --chunk 1000, --balance warp, --balance thread, --block 32: the same CSV", flush=True)


TESTS = [("draws_bitwise", test_draws_bitwise)] + \
    [("whole_" + n, (lambda n: lambda: whole(n))(n)) for n in MODELS] + [("split_on_gpu", test_split_on_gpu)]

if __name__ == "__main__":
    sys.exit(main(TESTS))
