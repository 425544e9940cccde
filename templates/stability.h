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
 * Cost: on the fast path of integrate.h only (1) is tested, in max norms,
 * once per block of ODE_FAST_BLOCK steps, on the block's first step (a block
 * that fails it is redone step by step, as one that fails the bound);
 * elsewhere (1) at every step, (2) and (3) when (1) holds.
 * -DODE_STABILITY_CHECK=0 turns it off (for measuring).
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
/* (Not with noise: the SDE methods fill no Runge-Kutta stages, and a noise
 * held over a step jumps between steps, which Euler's pair of steps would
 * read as a direction; docs/methods.md, "Not with noise".  Not with XPPAUT's
 * symplectic method either: its stages are no Runge-Kutta stages, and its
 * stability is not Euler's.) */
#define ODE_STAB (ODE_STABILITY_CHECK && !ODE_ADAPTIVE && !ODE_NOISE && ODE_METHOD != ODE_METH_SYMPLECTIC)

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
    ode_real dmax;                           /* max_i |Δy_i| at the last step checked (0: none to compare with) */
    int run;                                 /* suspect steps in a row */
#if ODE_NSTAGE == 1
    ode_real kprev[ODE_ALLOC(ODE_NSTATE)];   /* Euler: f at the last step's start, and its h (0: none) */
    ode_real hprev;
#endif
} OdeStab;

ODE_HD static ODE_INLINE void ode_stab_init(OdeStab *sb)
{
    sb->dmax = ODE_R(0.0);
    sb->run = 0;
#if ODE_NSTAGE == 1
    sb->hprev = ODE_R(0.0);
    ODE_FOR_STATES(i) sb->kprev[i] = ODE_R(0.0);
#endif
}

/* Steps were taken without ode_stab_step (a fast block): the next check has
 * no growth to compare with. */
ODE_HD static ODE_INLINE void ode_stab_unchecked(OdeStab *sb) { sb->dmax = ODE_R(0.0); }

/* Moreover the state was reset, or steps undone: Euler's last f is gone. */
ODE_HD static ODE_INLINE void ode_stab_forget(OdeStab *sb)
{
    sb->dmax = ODE_R(0.0);
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

/* Δy / hd and Δk of the step over h whose stages st holds (hd: h, or
 * Euler's last step; the stage inputs' difference is h Σ_l w_l k_l); 0 when
 * there is nothing to compare (Euler's first step). */
ODE_HD static ODE_INLINE int ode_stab_differences(const OdeStab *sb, ode_real h, const OdeStages *st, ode_real *u,
                                                  ode_real *dk, ode_real *hd)
{
#if ODE_NSTAGE == 1
    (void)h;
    if (!(sb->hprev > ODE_R(0.0))) return 0;
    *hd = sb->hprev;
    ODE_FOR_STATES(i) {
        u[i] = sb->kprev[i];
        dk[i] = st->k[0][i] - sb->kprev[i];
    }
#else
    (void)sb;
    *hd = h;
    const ode_real a[ODE_NK][ODE_NK] = ODE_TAB(A);
    const int j = ode_stab_stage();
    ODE_FOR_STATES(i) {
        u[i] = ODE_R(0.0);
        ODE_UNROLL for (int l = 0; l < ODE_NSTAGE - 1; l++) {
            const ode_real w = (l < j ? a[j][l] : ODE_R(0.0)) - (l < j - 1 ? a[j - 1][l] : ODE_R(0.0));
            if (w != ODE_R(0.0)) u[i] += w * st->k[l][i];   /* (constants: the zeros vanish) */
        }
        dk[i] = st->k[j][i] - st->k[j - 1][i];
    }
#endif
    return 1;
}

ODE_HD static ODE_INLINE ode_real ode_stab_larger(ode_real a, ode_real b) { return a > b ? a : b; }

/* (1) in max norms, without a division: h max|Δk_i| √n > G max|Δy_i|
 * holds wherever h |Δk| > G |Δy| does, and max|Δy_i| > 1024 ε max|y_i|
 * wherever the rounding floor's 2-norm form does (ode_stab_step then tests
 * the 2-norm forms).  *um: max|Δy_i| / hd. */
ODE_HD static ODE_INLINE int ode_stab_gate(ode_real h, ode_real hd, const ode_real *u, const ode_real *dk,
                                           const ode_real *y, ode_real *um)
{
    ode_real km = ODE_R(0.0);
    *um = ODE_R(0.0);
    ODE_FOR_STATES(i) {
        *um = ode_stab_larger(*um, ode_fabs(u[i]));
        km = ode_stab_larger(km, ode_fabs(dk[i]));
    }
    const ode_real G = (ode_real)ODE_TAB(STAB_GATE), rootn = ode_sqrt((ode_real)ODE_NSTATE);
    if (!(h * km * rootn > G * hd * *um)) return 0;
    ode_real ym = ODE_R(0.0);
    ODE_FOR_STATES(i) ym = ode_stab_larger(ym, ode_fabs(y[i]));
    return hd * *um > ODE_STAB_FLOOR * ym;
}

/* The fast path's test, once per block on its last step (y: the state at
 * its end): whether the block must be redone step by step, where
 * ode_stab_step decides. */
ODE_HD static ODE_INLINE int ode_stab_suspect(const OdeStab *sb, ode_real h, const OdeStages *st, const ode_real *y)
{
    ode_real u[ODE_ALLOC(ODE_NSTATE)], dk[ODE_ALLOC(ODE_NSTATE)], hd, um;
    return ode_stab_differences(sb, h, st, u, dk, &hd) && ode_stab_gate(h, hd, u, dk, y, &um);
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

/* Every step elsewhere (the step over h from y, its stages in st): 1 when
 * this step makes ODE_STAB_RUN suspect steps in a row.  Where the max-norm
 * gate holds: (1) in 2-norms, (2) and (3), on the differences scaled by
 * max|Δy_i| (their squares then stay finite whatever the state's size: a
 * float state near 1e38); the growth g in max norms. */
ODE_HD static ODE_INLINE int ode_stab_step(OdeStab *sb, ode_real h, const OdeStages *st, const ode_real *y)
{
    ode_real u[ODE_ALLOC(ODE_NSTATE)], dk[ODE_ALLOC(ODE_NSTATE)], hd, um = ODE_R(0.0);
    if (!ode_stab_differences(sb, h, st, u, dk, &hd)) {
        sb->dmax = ODE_R(0.0);
        sb->run = 0;
        return 0;
    }
    int suspect = 0;
    const int gate = ode_stab_gate(h, hd, u, dk, y, &um);
    const ode_real dmax = hd * um;                                      /* max|Δy_i| */
    if (gate && sb->dmax > ODE_R(0.0) && ode_finite(dmax)) {
        const ode_real inv = ODE_R(1.0) / dmax;
        ode_real yy = ODE_R(0.0), kk = ODE_R(0.0), ky = ODE_R(0.0), yn = ODE_R(0.0);
        ODE_FOR_STATES(i) {
            const ode_real p = hd * u[i] * inv, q = dk[i] * inv, w = y[i] * inv;
            yy += p * p;
            kk += q * q;
            ky += q * p;
            yn += w * w;
        }
        const ode_real G = (ode_real)ODE_TAB(STAB_GATE);
        const ode_real g = dmax / sb->dmax, g2 = g * g;                 /* the growth since the last step */
        const ode_real x = h * ky / yy, r2 = h * h * kk / yy;           /* Re ẑ, |ẑ|² */
        const ode_real a2 = ode_stab_amplification2(x, ode_sqrt(ode_stab_larger(r2 - x * x, ODE_R(0.0))));
        const ode_real e = x > ODE_R(-0.6931471805599453) ? ODE_R(2.0) * ode_exp_det(x) : ODE_R(1.0);
        suspect = r2 > G * G && yy > ODE_STAB_FLOOR * ODE_STAB_FLOOR * yn && g2 >= ODE_R(1.0) && a2 >= e * e &&
                  g2 > ODE_R(0.25) * a2 && g2 < ODE_R(4.0) * a2;
    }
    sb->dmax = dmax;
    sb->run = suspect ? sb->run + 1 : 0;
    return sb->run >= ODE_STAB_RUN;
}

#endif /* ODE_STAB */

#endif /* ODE_STABILITY_H */
