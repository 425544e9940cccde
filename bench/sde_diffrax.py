#!/usr/bin/env python3
"""bench/sde_diffrax.py — diffrax (JAX) on the SDEs of bench/sde.sh, on the same
GPU, with the same fixed steps: Euler (Euler–Maruyama for an Itô SDE with
ControlTerm) over t in [0, 10] with dt = 0.01 (1000 steps), UnsafeBrownianPath
(the fastest Brownian motion diffrax has for fixed steps: one normal per step,
as odegen draws), only the end state saved, vmap over N PRNG keys, jit.  One
call to warm up (compilation), then the best of three timed calls, each ended
by block_until_ready.  In double (jax_enable_x64) and in float.

    python3 bench/sde_diffrax.py [N]      (default 1048576)

Prints one JSON line per (model, precision): {"sde": "diffrax", "model",
"precision", "N", "steps", "seconds", "mean", "std"} (the end state's mean and
standard deviation, to see that both programs integrate the same SDE), or
{"sde": "diffrax", "error": …} when JAX or diffrax is missing.
"""
import json
import sys
import time


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    try:
        import jax
        import jax.numpy as jnp
        import diffrax
    except ImportError as e:
        print(json.dumps({"sde": "diffrax", "error": "not installed: %s" % e}))
        return 0
    t0, t1, dt = 0.0, 10.0, 0.01
    steps = int(round((t1 - t0) / dt))

    def ou(precision):
        def drift(t, y, args):
            return -1.0 * y

        def diffusion(t, y, args):
            return jnp.asarray(0.5, y.dtype)
        return drift, diffusion, lambda d: jnp.asarray(1.0, d), ()

    def duffing(precision):
        def drift(t, y, args):
            x, v = y[0], y[1]
            return jnp.stack([v, x - x ** 3 - 0.25 * v + 0.3 * jnp.cos(t)])

        def diffusion(t, y, args):
            return jnp.stack([jnp.zeros((), y.dtype), jnp.asarray(0.1, y.dtype)])
        return drift, diffusion, lambda d: jnp.asarray([0.5, 0.0], d), ()

    for precision in ("double", "float"):
        jax.config.update("jax_enable_x64", precision == "double")
        dtype = jnp.float64 if precision == "double" else jnp.float32
        for name, make in (("ou", ou), ("duffing_sde", duffing)):
            drift, diffusion, y0f, shape = make(precision)
            y0 = y0f(dtype)
            bm_shape = ()

            # newer diffrax refuses UnsafeBrownianPath under its default (reverse-mode)
            # adjoint: nothing is differentiated here, so forward mode where it exists
            adjoint = {"adjoint": diffrax.ForwardMode()} if hasattr(diffrax, "ForwardMode") else {}

            def solve(key, drift=drift, diffusion=diffusion, y0=y0):
                bm = diffrax.UnsafeBrownianPath(shape=bm_shape, key=key)
                if y0.ndim == 0:
                    control = diffrax.ControlTerm(diffusion, bm)
                else:   # one Wiener process into the second component (the diagonal of a 2x1 noise)
                    control = diffrax.ControlTerm(lambda t, y, a: diffusion(t, y, a)[:, None],
                                                  diffrax.UnsafeBrownianPath(shape=(1,), key=key))
                terms = diffrax.MultiTerm(diffrax.ODETerm(drift), control)
                sol = diffrax.diffeqsolve(terms, diffrax.Euler(), t0, t1, dt, y0,
                                          stepsize_controller=diffrax.ConstantStepSize(),
                                          saveat=diffrax.SaveAt(t1=True), max_steps=steps + 8, **adjoint)
                return sol.ys[-1]
            keys = jax.random.split(jax.random.PRNGKey(1), n)
            f = jax.jit(jax.vmap(solve))
            try:
                out = f(keys).block_until_ready()   # compile and warm up
                best = None
                for _ in range(3):
                    t = time.perf_counter()
                    out = f(keys).block_until_ready()
                    best = min(best or 1e30, time.perf_counter() - t)
                first = out if out.ndim == 1 else out[:, 0]
                print(json.dumps({"sde": "diffrax", "model": name, "precision": precision, "N": n, "steps": steps,
                                  "seconds": best, "mean": float(jnp.mean(first)), "std": float(jnp.std(first)),
                                  "device": str(jax.devices()[0])}), flush=True)
            except Exception as e:   # (out of memory on a small GPU, …)
                print(json.dumps({"sde": "diffrax", "model": name, "precision": precision,
                                  "error": repr(e)[:300]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
