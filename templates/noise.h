/* noise.h — a system's random numbers: what each draw is keyed by, the
 * Wiener increments of a step, and the Brownian bridge inside a step that
 * an event shortens.
 *
 * Every draw is Philox-4x32-10 (rng.h) of a counter made of the system's
 * index in the scan (rng_system), its integration (rng_rep: the count since
 * the system was loaded, 0 for a scan's first), the step of that
 * integration (rng_step), a purpose and an index within it, under the
 * run's seed.  None of these depends on how the scan is split into chunks,
 * threads, GPUs or MPI ranks, or on a checkpoint: a system's numbers, and so
 * its whole result, are the same bits wherever and whenever it runs.
 *
 * Wiener processes (XPPAUT's `wiener w`): over a step of length h, each
 * process has the increment ΔW = sqrt(h) Z, Z standard normal, and the
 * right-hand side reads w = ΔW/h, XPPAUT's normal(0,1)/sqrt(dt) (markov.c,
 * set_wieners): Euler's y + h f(y, w) is then Euler–Maruyama's
 * y + h a(y) + b(y) ΔW.  With the run-time option noisesub = M > 1, ΔW is
 * the sum of M increments of h/M, each keyed by its step on the grid M times
 * finer (step·M + k): a run with dt and noisesub = M follows the same
 * Brownian path as a run with dt/M, whose step n draws exactly the Z of
 * fine step n (strong convergence measured on one path: tests/noise).
 *
 * A step that an event shortens to h' < h (events.h redoes it with the
 * method) sees the Brownian bridge: ΔW' = (h'/h) ΔW + sqrt(h'(h - h')/h) Zb,
 * Zb keyed by the step (purpose ODE_RNG_BRIDGE), the same for every trial
 * of the location, so that the located state is a continuous function of
 * h'.  The step after it draws afresh (its own step index): the path over
 * disjoint steps has independent increments.
 */
#ifndef ODE_NOISE_H
#define ODE_NOISE_H

#ifndef ODEGEN_GENERATED
#include "prelude.h"
#include "rng.h"
#endif

#if ODE_NOISE   /* (a model without noise, or the templates compiled on their own: nothing here) */

/* Draw `index` of `purpose` at the system's current integration and step. */
ODE_HD static ODE_INLINE OdeRngWords ode_noise_words(const OdeSystem *s, unsigned purpose, unsigned index)
{
    return ode_rng_draw(s->rng_seed, s->rng_system, s->rng_rep, s->rng_step, purpose, index);
}

/* ran()'s uniform in (0, 1) and normal()'s standard normal. */
ODE_HD static ODE_INLINE ode_real ode_noise_uniform(const OdeSystem *s, unsigned purpose, unsigned index)
{
    const OdeRngWords r = ode_noise_words(s, purpose, index);
    return (ode_real)ode_rng_uniform(r.w[0], r.w[1]);
}

ODE_HD static ODE_INLINE ode_real ode_noise_normal(const OdeSystem *s, unsigned purpose, unsigned index)
{
    double z0, z1;
    ode_rng_normal2(ode_noise_words(s, purpose, index), &z0, &z1);
    return (ode_real)z0;
}

/* The key fields of a system when it is loaded: nothing drawn yet. */
ODE_HD static ODE_INLINE void ode_noise_reset(OdeSystem *s)
{
#if ODE_NWIENER > 0
    ODE_UNROLL for (int j = 0; j < ODE_NWIENER; j++) {
        s->w[j] = ODE_R(0.0);
#if ODE_NEVENT > 0
        s->wstep[j] = ODE_R(0.0);
#endif
    }
#endif
    s->hw = ODE_R(0.0);
    ODE_UNROLL for (int k = 0; k < ODE_NSITE; k++) s->xi[k] = ODE_R(0.0);
}

#if ODE_NWIENER > 0
/* The Wiener processes' values w = ΔW/h for the step about to be taken
 * (step s->rng_step, length h), with m = noisesub increments of h/m each.
 * The normals come in pairs: one draw serves processes 2b and 2b+1. */
ODE_HD static ODE_INLINE void ode_noise_increments(OdeSystem *s, ode_real h, unsigned m)
{
    const double hd = (double)h;
    ODE_UNROLL for (int b = 0; b < (ODE_NWIENER + 1) / 2; b++) {
        double z0 = 0.0, z1 = 0.0;
        for (unsigned k = 0; k < m; k++) {
            double a0, a1;
            const uint32_t fine = s->rng_step * m + k;
            ode_rng_normal2(ode_rng_draw(s->rng_seed, s->rng_system, s->rng_rep, fine, ODE_RNG_BROWNIAN, (uint32_t)b),
                            &a0, &a1);
            z0 += a0;
            z1 += a1;
        }
        /* m = 1: XPPAUT's normal/sqrt(dt); else ΔW/h = sqrt(h/m) Σ z / h */
        const double scale = m == 1 ? 1.0 / sqrt(hd) : sqrt(hd / (double)m) / hd;
        s->w[2 * b] = (ode_real)(z0 * scale);
        if (2 * b + 1 < ODE_NWIENER) s->w[2 * b + 1] = (ode_real)(z1 * scale);
    }
#if ODE_NEVENT > 0
    ODE_UNROLL for (int j = 0; j < ODE_NWIENER; j++) s->wstep[j] = s->w[j];
#endif
    s->hw = h;
}

/* The Wiener processes' values for a trial of length hc of the step drawn
 * for s->hw: the whole step's, or the Brownian bridge's at hc < hw. */
ODE_HD static ODE_INLINE void ode_noise_for_trial(OdeSystem *s, ode_real hc)
{
#if ODE_NEVENT > 0
    const ode_real h = s->hw;
    if (hc == h) {
        ODE_UNROLL for (int j = 0; j < ODE_NWIENER; j++) s->w[j] = s->wstep[j];
        return;
    }
    const double spread = sqrt((double)hc * (double)(h - hc) / (double)h);
    ODE_UNROLL for (int b = 0; b < (ODE_NWIENER + 1) / 2; b++) {
        double z[2];
        ode_rng_normal2(ode_noise_words(s, ODE_RNG_BRIDGE, (unsigned)b), &z[0], &z[1]);
        /* ΔW' = (hc/h) ΔW + spread Zb, read as w' = ΔW'/hc, with ΔW = wstep h */
        s->w[2 * b] = (ode_real)(((double)s->wstep[2 * b] * (double)hc + spread * z[0]) / (double)hc);
        if (2 * b + 1 < ODE_NWIENER)
            s->w[2 * b + 1] = (ode_real)(((double)s->wstep[2 * b + 1] * (double)hc + spread * z[1]) / (double)hc);
    }
#else
    (void)s;
    (void)hc;
#endif
}
#endif /* ODE_NWIENER > 0 */

#endif /* ODE_NOISE */

#endif /* ODE_NOISE_H */
