/* sde.h — a step with noise (noise.h draws the numbers): what is drawn at
 * its start, and the trial step of each method that integrates noise.
 *
 * At the start of every step, in this order: the ran() and normal() of the
 * right-hand side are drawn and held over the step (ode_model_step_draws);
 * the markov chains jump, their rates at the step's start (ode_model_markov,
 * XPPAUT's update_markov); the Wiener increments are drawn (XPPAUT's
 * set_wieners).  Then the method:
 *   euler      Euler–Maruyama for the Itô SDE, exactly XPPAUT's euler on a
 *              model with noise (y + h f(t, y, w), w = ΔW/h): strong order
 *              1/2, weak order 1, for any noise;
 *   modeuler,  XPPAUT's Heun and RK4 with the noise held over the step: a
 *   rk4        smooth forcing for their stages, which for additive noise
 *              is a consistent scheme of the Itô SDE and for multiplicative
 *              noise converges to the Stratonovich one (Wong–Zakai; the
 *              translator says so);
 *   milstein   Milstein's scheme, strong order 1, for commutative noise:
 *              Euler–Maruyama plus 1/2 Σ_jk L^jk (ΔW_j ΔW_k - δ_jk h), the
 *              exact derivatives of the noise terms from the derivative
 *              engine (ode_model_milstein);
 *   weak2      Kloeden and Platen's explicit order 2.0 weak scheme
 *              (Numerical Solution of SDEs, 1992, §15.1, eq. (15.1.3)), for
 *              any noise that enters as b(t, y) w: weak order 2, with
 *              Gaussian increments and the two-point variables V_rj.
 * The step is fixed (dt); the last one of a window is clipped to reach t1
 * and draws its increments over its own length.
 */
#ifndef ODE_SDE_H
#define ODE_SDE_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#include "stepper.h"
#include "noise.h"
#endif

#if ODE_NOISE

/* The steps of one integration the generator can count: its step index (and
 * noisesub times it, the fine grid's) has 32 bits.  A system reaching it
 * stops with status maxsteps. */
ODE_HD static ODE_INLINE unsigned long long ode_noise_step_limit(const OdeOptions *ode_opt)
{
    const unsigned long long cap = 4294967295ULL / (ode_opt->noisesub ? ode_opt->noisesub : 1u);
    return ode_opt->maxsteps < cap ? ode_opt->maxsteps : cap;
}

/* The noise of step `step` (of length h) of the current integration. */
ODE_HD static ODE_INLINE void ode_noise_step(OdeSystem *s, const OdeOptions *ode_opt, ode_real h, unsigned step)
{
    (void)ode_opt;
    (void)h;
    s->rng_step = step;
#if ODE_NSITE > 0
    ode_model_step_draws(s);
#endif
#if ODE_NMARKOV > 0
    ode_model_markov(s, s->t, h);
#endif
#if ODE_NWIENER > 0
    ode_noise_increments(s, h, ode_opt->noisesub);
#endif
}

#if ODE_METHOD == ODE_METH_WEAK2
/* V_rj of the step (r < j: +h or -h with probability 1/2 each; V_jr = -V_rj):
 * bit p of the signs' draws for pair p = j(j-1)/2 + r. */
ODE_HD static ODE_INLINE ode_real ode_weak2_v(const OdeSystem *s, int r, int j, ode_real h)
{
    const int lo = r < j ? r : j, hi = r < j ? j : r;
    const unsigned p = (unsigned)(hi * (hi - 1) / 2 + lo);
    const OdeRngWords w = ode_noise_words(s, ODE_RNG_SIGNS, p / 128u);
    const unsigned word = (p % 128u) / 32u;
    const uint32_t bits = word == 0 ? w.w[0] : word == 1 ? w.w[1] : word == 2 ? w.w[2] : w.w[3];
    const ode_real v = (bits >> (p % 32u)) & 1u ? h : -h;
    return r < j ? v : -v;
}
#endif

/* One trial of the method from (t, y) over h (the whole step, or a part of
 * it that an event's location tries): the Wiener values for h, then the
 * method.  Every method here computes f(t, y) itself (the noise changes
 * from step to step: nothing carries over). */
ODE_HD static ODE_INLINE void ode_sde_trial(OdeSystem *s, ode_real t, ode_real h, const ode_real *y, int have_k0,
                                            OdeStages *st, ode_real *ynew, ode_real *err, OdeTrigStep *ts)
{
    (void)have_k0;
#if ODE_NWIENER > 0
    ode_noise_for_trial(s, h);
#endif
#if ODE_METHOD == ODE_METH_MILSTEIN
    (void)ts;
    (void)err;
    OdeTrig tr;
    ode_trig_at(s, t, &tr);
    ode_model_rhs(s, t, y, st->k[0], &tr);
    ode_real dw[ODE_ALLOC(ODE_NWIENER)], c[ODE_ALLOC(ODE_NSTATE)];
    ODE_UNROLL for (int j = 0; j < ODE_NWIENER; j++) dw[j] = s->w[j] * h;
    ode_model_milstein(s, t, y, dw, h, c, &tr);
    ODE_FOR_STATES(i) ynew[i] = (y[i] + h * st->k[0][i]) + c[i];
#elif ODE_METHOD == ODE_METH_WEAK2
    (void)ts;
    (void)err;
    (void)st;
    const ode_real sq = ode_sqrt(h);
    OdeTrig tr0, tr1;
    ode_trig_at(s, t, &tr0);
    ode_trig_at(s, t + h, &tr1);
    ode_real dw[ODE_ALLOC(ODE_NWIENER)];
    ODE_UNROLL for (int j = 0; j < ODE_NWIENER; j++) dw[j] = s->w[j] * h;
    ode_real a[ODE_ALLOC(ODE_NSTATE)], b[ODE_NWIENER * ODE_NSTATE];
    ode_model_drift(s, t, y, a, &tr0);
    ode_model_noise(s, t, y, b, &tr0);
    ode_real ybar[ODE_ALLOC(ODE_NSTATE)], ya[ODE_ALLOC(ODE_NSTATE)];
    ODE_FOR_STATES(i) {
        ya[i] = y[i] + a[i] * h;                      /* Y + a Δ */
        ode_real v = ya[i];
        ODE_UNROLL for (int j = 0; j < ODE_NWIENER; j++) v += b[j * ODE_NSTATE + i] * dw[j];
        ybar[i] = v;                                  /* Ῡ = Y + a Δ + Σ_j b^j ΔW_j */
    }
    ode_real a1[ODE_ALLOC(ODE_NSTATE)];
    ode_model_drift(s, t + h, ybar, a1, &tr1);
    ODE_FOR_STATES(i) ynew[i] = y[i] + ODE_R(0.5) * (a1[i] + a[i]) * h;
    const ode_real quarter = ODE_R(0.25), inv_sq = ODE_R(1.0) / sq;
    ODE_UNROLL for (int j = 0; j < ODE_NWIENER; j++) {
        /* R±^j = Y + a Δ ± b^j sqrt(Δ), at t + Δ */
        ode_real yp[ODE_ALLOC(ODE_NSTATE)], ym[ODE_ALLOC(ODE_NSTATE)];
        ode_real bp[ODE_NWIENER * ODE_NSTATE], bm[ODE_NWIENER * ODE_NSTATE];
        ODE_FOR_STATES(i) {
            yp[i] = ya[i] + b[j * ODE_NSTATE + i] * sq;
            ym[i] = ya[i] - b[j * ODE_NSTATE + i] * sq;
        }
        ode_model_noise(s, t + h, yp, bp, &tr1);
        ode_model_noise(s, t + h, ym, bm, &tr1);
        const ode_real q = (dw[j] * dw[j] - h) * inv_sq;
        ODE_FOR_STATES(i) {
            const ode_real p = bp[j * ODE_NSTATE + i], mm = bm[j * ODE_NSTATE + i], b0 = b[j * ODE_NSTATE + i];
            ynew[i] += quarter * ((p + mm + ODE_R(2.0) * b0) * dw[j] + (p - mm) * q);
        }
    }
#if ODE_NWIENER > 1
    /* U±^r = Y ± b^r sqrt(Δ), at t: the terms of the other processes */
    ODE_UNROLL for (int r = 0; r < ODE_NWIENER; r++) {
        ode_real up[ODE_ALLOC(ODE_NSTATE)], um[ODE_ALLOC(ODE_NSTATE)];
        ode_real bp[ODE_NWIENER * ODE_NSTATE], bm[ODE_NWIENER * ODE_NSTATE];
        ODE_FOR_STATES(i) {
            up[i] = y[i] + b[r * ODE_NSTATE + i] * sq;
            um[i] = y[i] - b[r * ODE_NSTATE + i] * sq;
        }
        ode_model_noise(s, t, up, bp, &tr0);
        ode_model_noise(s, t, um, bm, &tr0);
        ODE_UNROLL for (int j = 0; j < ODE_NWIENER; j++) {
            if (j == r) continue;
            const ode_real v = ode_weak2_v(s, r, j, h);
            ODE_FOR_STATES(i) {
                const ode_real p = bp[j * ODE_NSTATE + i], mm = bm[j * ODE_NSTATE + i], b0 = b[j * ODE_NSTATE + i];
                ynew[i] += quarter * inv_sq * ((p + mm - ODE_R(2.0) * b0) * dw[j] + (p - mm) * (dw[j] * dw[r] + v));
            }
        }
    }
#endif
#else
    /* euler, modeuler, rk4: the method's own step, the noise held (XPPAUT's) */
    ode_rk_trial(s, t, h, y, 0, st, ynew, err, ts);
#endif
}

#undef ode_trial
#define ode_trial ode_sde_trial
#undef ODE_TRIAL_EVALS
#if ODE_METHOD == ODE_METH_MILSTEIN
#define ODE_TRIAL_EVALS(have_k0) 2u    /* f, and the correction */
#elif ODE_METHOD == ODE_METH_WEAK2
#define ODE_TRIAL_EVALS(have_k0) (3u + 4u * (unsigned)ODE_NWIENER)   /* the drift twice, the noise 4m + 1 times */
#else
#define ODE_TRIAL_EVALS(have_k0) ((unsigned)ODE_NSTAGE)
#endif

#endif /* ODE_NOISE */

#endif /* ODE_SDE_H */
