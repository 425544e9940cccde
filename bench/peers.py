#!/usr/bin/env python3
"""peers.py — the same problems in torchdiffeq (rk4, batched) and diffrax
(Tsit5 under vmap, constant step), float64, at the same step size, on the GPU.

A Python-driven peer spends most of a long scan in per-step overheads, so
each peer is timed on a short horizon — Duffing over one forcing period (629
steps of 1e-2), Lorenz over t in [0, 10] (1000 steps) — after a warm-up (and
JIT compilation) on the same shapes, and reported as system-steps per second,
which is what the ratio to odegen compares.  A peer that is absent or fails
is reported with the reason instead of a time.

  peers.py duffing|lorenz N…     prints one JSON object per (peer, case, N)
"""
import json
import math
import sys
import time


def emit(**kw):
    print(json.dumps(kw), flush=True)


def torch_case(case, n):
    import torch
    import torchdiffeq
    dev = "cuda"
    dt = 0.01
    if case == "duffing":
        k = torch.linspace(0.2, 0.3, n, dtype=torch.float64, device=dev)

        def f(t, y):
            y1, y2 = y[:, 0], y[:, 1]
            return torch.stack([y2, y1 - y1 ** 3 - k * y2 + 0.3 * torch.cos(t)], 1)
        y0 = torch.zeros(n, 2, dtype=torch.float64, device=dev)
        t1, steps = 2 * math.pi, math.ceil(2 * math.pi / dt)
    else:
        rho = torch.linspace(0, 21, n, dtype=torch.float64, device=dev)

        def f(t, u):
            x, y, z = u[:, 0], u[:, 1], u[:, 2]
            return torch.stack([10 * (y - x), x * (rho - z) - y, x * y - 8 / 3 * z], 1)
        y0 = torch.full((n, 3), 10.0, dtype=torch.float64, device=dev)
        t1, steps = 10.0, 1000
    opts = dict(step_size=dt)
    tt = torch.tensor([0.0, t1], dtype=torch.float64, device=dev)
    torchdiffeq.odeint(f, y0, torch.tensor([0.0, 10 * dt], dtype=torch.float64, device=dev), method="rk4",
                       options=opts)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    torchdiffeq.odeint(f, y0, tt, method="rk4", options=opts)
    torch.cuda.synchronize()
    return time.perf_counter() - t0, steps


def jax_case(case, n):
    import jax
    jax.config.update("jax_enable_x64", True)
    import diffrax
    import jax.numpy as jnp
    dt = 0.01
    if case == "duffing":
        def vf(t, y, k):
            return jnp.stack([y[1], y[0] - y[0] ** 3 - k * y[1] + 0.3 * jnp.cos(t)])
        params, y0 = jnp.linspace(0.2, 0.3, n), jnp.zeros(2)
        t1, steps = 2 * math.pi, math.ceil(2 * math.pi / dt)
    else:
        def vf(t, u, rho):
            return jnp.stack([10 * (u[1] - u[0]), u[0] * (rho - u[2]) - u[1], u[0] * u[1] - 8 / 3 * u[2]])
        params, y0 = jnp.linspace(0.0, 21.0, n), jnp.full(3, 10.0)
        t1, steps = 10.0, 1000
    term = diffrax.ODETerm(vf)

    @jax.jit
    def solve(ps):
        def one(p):
            sol = diffrax.diffeqsolve(term, diffrax.Tsit5(), t0=0.0, t1=t1, dt0=dt, y0=y0, args=p,
                                      stepsize_controller=diffrax.ConstantStepSize(),
                                      saveat=diffrax.SaveAt(t1=True), max_steps=steps + 8)
            return sol.ys
        return jax.vmap(one)(ps)
    solve(params).block_until_ready()   # compiles
    t0 = time.perf_counter()
    solve(params).block_until_ready()
    return time.perf_counter() - t0, steps


def main():
    case, sizes = sys.argv[1], [int(x) for x in sys.argv[2:]]
    for peer, fn in (("torchdiffeq_rk4", torch_case), ("diffrax_tsit5", jax_case)):
        for n in sizes:
            try:
                seconds, steps = fn(case, n)
                emit(peer=peer, case=case, N=n, seconds=seconds, steps=n * steps,
                     steps_per_s=n * steps / seconds)
            except Exception as e:  # absent package, out of memory…: say so
                emit(peer=peer, case=case, N=n, error="%s: %s" % (type(e).__name__, str(e)[:200]))


if __name__ == "__main__":
    main()
