/* stability.h — a fixed-step method that has left its stability region ends
 * the system with the status `unstable` instead of numbers that grow without
 * meaning (issue 19: RK4 with dt = 0.01 on x' = -1000 (x - cos t), whose
 * exact solution stays within ±1, ended at -1.9e49 as `finished`).  The
 * adaptive methods need no such check: their error estimate grows with an
 * unstable component and the step shrinks back into the region.
 *
 * The estimate follows Hairer & Wanner's stiffness detection (Solving ODEs
 * II, §IV.2): two stages of a step, at the same node where the tableau has
 * two (RK4: its stages at t + h/2, so that f is compared at one time), else
 * the last two (Heun; Euler, which has one stage, pairs it with the last
 * step's: Δy = h_prev k_prev), give their inputs' difference Δy and their
 * derivatives' difference Δk, and from them
 *     ρ = |Δk| / |Δy|,  μ = Δk·Δy / |Δy|²,  ẑ = h (μ + i sqrt(ρ² - μ²))
 * — for a linear f, ẑ = hλ of the eigenvalue λ whose direction dominates the
 * stage differences.  A step is suspect when
 *   (1) h ρ > G, G = ODE_TAB(STAB_GATE), the smallest |z| where (2) can
 *       hold (Euler 1.177, Heun 1.788, RK4 2.615; tests/numerics/
 *       test_methods.py computes them from the tableaux) — the cheap test;
 *   (2) |R(ẑ)| >= max(1, 2 e^(Re ẑ)), R the method's stability polynomial:
 *       the method does not damp that direction although the equations
 *       damp it by more than half per step, or makes it grow more than twice
 *       as fast as they do;
 *   (3) |Δy| did not shrink since the last step (g = |Δy| / |Δy_prev| >= 1),
 *       and g is within a factor 2 of |R(ẑ)|: the direction is there and
 *       changes as the method amplifies it (which spares a non-normal
 *       Jacobian, whose Rayleigh quotients need not be eigenvalues, and the
 *       stage differences of a smooth solution, which vanish and grow back
 *       at its turning points);
 * and ODE_STAB_RUN suspect steps in a row end the system as `unstable`
 * (sticky, like bound).  Differences at rounding level are not read: |Δy|
 * must exceed 1024 ε |y| (a system at rest has Δy and Δk of rounding noise).
 *
 * What it does not catch (README.md, "Stability of the fixed-step methods"):
 * a direction that the equations damp by less than half per step and that
 * the method makes grow by less than twice per step (slow growth, which ends
 * as bound or nan if it ever grows that far); a growth that never dominates
 * the stage differences (it is then below them).  Euler and Heun compare
 * stages at different times, so their ẑ includes f's change in time (the
 * tests show no false alarm on forced models; (3) is what guards).
 *
 * Cost: on the fast path of integrate.h only (1) is tested, once per block
 * of ODE_FAST_BLOCK steps, on the block's last step (a block that fails it is
 * redone step by step, as one that fails the bound); elsewhere (1) at every
 * step, (2) and (3) when (1) holds.  -DODE_STABILITY_CHECK=0 turns it off
 * (for measuring).
 */
#ifndef ODE_STABILITY_H
#define ODE_STABILITY_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#include "stepper.h"
#endif

#ifndef ODE_STABILITY_CHECK
#define ODE_STABILITY_CHECK 1
#endif
#define ODE_STAB (ODE_STABILITY_CHECK && !ODE_ADAPTIVE)

#if ODE_STAB

#define ODE_STAB_RUN 3                       /* suspect steps in a row that make `unstable` */
#define ODE_STAB_FLOOR (ODE_R(1024.0) * ODE_EPS)   /* |Δy| below this fraction of |y|: not read */

/* The pair of stages compared: the last j >= 1 whose node equals stage
 * j-1's, else the last stage (with the one before). */
ODE_HD static ODE_INLINE int ode_stab_stage(void)
{
    const ode_real c[ODE_NK] = ODE_TAB(C);
    int j = ODE_NSTAGE - 1;
    ODE_UNROLL for (int l = 1; l < ODE_NSTAGE; l++)
        if (c[l] == c[l - 1]) j = l;
    return j;
}

/* What the check carries from one step to the next. */
typedef struct OdeStab {
    ode_real d2;                             /* |Δy|² at the last step checked (0: none to compare with) */
    int run;                                 /* suspect steps in a row */
#if ODE_NSTAGE == 1
    ode_real kprev[ODE_ALLOC(ODE_NSTATE)];   /* Euler: f at the last step's start, and its h (0: none) */
    ode_real hprev;
#endif
} OdeStab;

ODE_HD static ODE_INLINE void ode_stab_init(OdeStab *sb)
{
    sb->d2 = ODE_R(0.0);
    sb->run = 0;
#if ODE_NSTAGE == 1
    sb->hprev = ODE_R(0.0);
    ODE_FOR_STATES(i) sb->kprev[i] = ODE_R(0.0);
#endif
}

/* Steps were taken without being checked (a fast block, an event's reset):
 * the next check has nothing to compare its growth with. */
ODE_HD static ODE_INLINE void ode_stab_forget(OdeStab *sb)
{
    sb->d2 = ODE_R(0.0);
#if ODE_NSTAGE == 1
    sb->hprev = ODE_R(0.0);
#endif
}

/* Euler: f at the start of the step just taken, over h (called once the
 * step is taken, before f at its end replaces st->k[0]). */
ODE_HD static ODE_INLINE void ode_stab_keep(OdeStab *sb, ode_real h, const OdeStages *st)
{
#if ODE_NSTAGE == 1
    ODE_FOR_STATES(i) sb->kprev[i] = st->k[0][i];
    sb->hprev = h;
#else
    (void)sb;
    (void)h;
    (void)st;
#endif
}

/* Δy·Δy, Δk·Δk and Δk·Δy of the step over h whose stages st holds; 0 when
 * there is nothing to compare (Euler's first step). */
ODE_HD static ODE_INLINE int ode_stab_diffs(const OdeStab *sb, ode_real h, const OdeStages *st, ode_real *yy,
                                            ode_real *kk, ode_real *ky)
{
    *yy = *kk = *ky = ODE_R(0.0);
#if ODE_NSTAGE == 1
    (void)h;
    if (!(sb->hprev > ODE_R(0.0))) return 0;
    ODE_FOR_STATES(i) {
        const ode_real dy = sb->hprev * sb->kprev[i], dk = st->k[0][i] - sb->kprev[i];
        *yy += dy * dy;
        *kk += dk * dk;
        *ky += dk * dy;
    }
#else
    (void)sb;
    const ode_real a[ODE_NK][ODE_NK] = ODE_TAB(A);
    const int j = ode_stab_stage();
    ODE_FOR_STATES(i) {
        ode_real dy = ODE_R(0.0);
        ODE_UNROLL for (int l = 0; l < ODE_NSTAGE - 1; l++) {
            const ode_real w = (l < j ? a[j][l] : ODE_R(0.0)) - (l < j - 1 ? a[j - 1][l] : ODE_R(0.0));
            if (w != ODE_R(0.0)) dy += w * st->k[l][i];   /* (constants: the zeros vanish) */
        }
        dy *= h;
        const ode_real dk = st->k[j][i] - st->k[j - 1][i];
        *yy += dy * dy;
        *kk += dk * dk;
        *ky += dk * dy;
    }
#endif
    return 1;
}

/* (1): h ρ beyond the gate, the differences above rounding (y: the state
 * the step started from, or near it). */
ODE_HD static ODE_INLINE int ode_stab_beyond(ode_real h, ode_real yy, ode_real kk, const ode_real *y)
{
    ode_real y2 = ODE_R(0.0);
    ODE_FOR_STATES(i) y2 += y[i] * y[i];
    const ode_real G = (ode_real)ODE_TAB(STAB_GATE);
    return h * h * kk > G * G * yy && yy > ODE_STAB_FLOOR * ODE_STAB_FLOOR * y2;
}

/* |R(z)|² at z = x + iy: the method's stages on y' = λ y, hλ = z. */
ODE_HD static ODE_INLINE ode_real ode_stab_amplification2(ode_real x, ode_real y)
{
    const ode_real a[ODE_NK][ODE_NK] = ODE_TAB(A);
    const ode_real b[ODE_NK] = ODE_TAB(B);
    ode_real kr[ODE_NK], ki[ODE_NK], rr = ODE_R(1.0), ri = ODE_R(0.0);
    ODE_UNROLL for (int j = 0; j < ODE_NSTAGE; j++) {
        ode_real sr = ODE_R(1.0), si = ODE_R(0.0);
        ODE_UNROLL for (int l = 0; l < j; l++) {
            sr += a[j][l] * kr[l];
            si += a[j][l] * ki[l];
        }
        kr[j] = x * sr - y * si;
        ki[j] = x * si + y * sr;
        rr += b[j] * kr[j];
        ri += b[j] * ki[j];
    }
    return rr * rr + ri * ri;
}

/* The fast path's test, once per block on its last step: whether the block
 * must be redone step by step (where ode_stab_step decides). */
ODE_HD static ODE_INLINE int ode_stab_suspect(const OdeStab *sb, ode_real h, const OdeStages *st, const ode_real *y)
{
    ode_real yy, kk, ky;
    return ode_stab_diffs(sb, h, st, &yy, &kk, &ky) && ode_stab_beyond(h, yy, kk, y);
}

/* Every step elsewhere (the step over h from y, its stages in st): 1 when
 * this step makes ODE_STAB_RUN suspect steps in a row. */
ODE_HD static ODE_INLINE int ode_stab_step(OdeStab *sb, ode_real h, const OdeStages *st, const ode_real *y)
{
    ode_real yy, kk, ky;
    if (!ode_stab_diffs(sb, h, st, &yy, &kk, &ky)) return 0;
    int suspect = 0;
    if (ode_stab_beyond(h, yy, kk, y) && sb->d2 > ODE_R(0.0) && yy >= sb->d2) {
        const ode_real x = h * ky / yy, r2 = h * h * kk / yy;   /* Re ẑ, |ẑ|² */
        const ode_real a2 = ode_stab_amplification2(x, ode_sqrt(ode_fmax(r2 - x * x, ODE_R(0.0))));
        const ode_real e = x > ODE_R(-0.6931471805599453) ? ODE_R(2.0) * ode_exp_det(x) : ODE_R(1.0);
        const ode_real g2 = yy / sb->d2;
        suspect = a2 >= e * e && g2 > ODE_R(0.25) * a2 && g2 < ODE_R(4.0) * a2;
    }
    sb->d2 = yy;
    sb->run = suspect ? sb->run + 1 : 0;
    return sb->run >= ODE_STAB_RUN;
}

#endif /* ODE_STAB */

#endif /* ODE_STABILITY_H */
