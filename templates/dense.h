/* dense.h — the continuous extension of an accepted step (SPEC §3): the
 * state at any time inside the step, for events (events.h) and for `save`
 * samples (save.h), without right-hand-side evaluations.
 *
 * Every extension is written in Hairer's nested form
 *     y(θ) = y0 + θ(F0 + (1-θ)(F1 + θ(F2 + (1-θ)(F3 + θ(F4 + …)))))
 * with θ = (t - t_step)/h, Δ = ynew - y0 and
 *     F0 = Δ,  F1 = h f0 - Δ,  F2 = 2Δ - h (f0 + f1)     (the cubic Hermite
 *     interpolant of the values and slopes at both ends, f1 = f(t+h, ynew)),
 *     F3… = h Σ_j D_rj k_j                               (the method's own rows)
 * so that a method without rows of its own (RK4, RKCK45, Vern7, Euler, Heun)
 * gets the cubic Hermite interpolant, DOPRI5 and Tsit5 their order-4
 * extensions (one row) and DOP853 its order-7 one (four rows, over three
 * extra stages).  The end slope f1 is the next step's first stage: the
 * Hermite interpolant costs no evaluation.  With noise (sde.h) the
 * extension is the chord y0 + θΔ (F1 = F2 = 0), as XPPAUT interpolates a
 * step linearly to place an event: a path whose noise is no function of
 * time has no smoother interpolant.
 */
#ifndef ODE_DENSE_H
#define ODE_DENSE_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#include "stepper.h"
#endif

#if ODE_ROS_DENSE
#define ODE_NF (1 + ODE_NDENSE)   /* a Rosenbrock method's own extension (rosenbrock.h) */
#else
#define ODE_NF (3 + ODE_NDENSE)
#endif

#if !ODE_LOOP_FORM   /* (a model in loop form: the team's own, team_*.h) */
typedef struct OdeDense {
    ode_real t, h;                          /* the step [t, t + h] */
    ode_real y0[ODE_ALLOC(ODE_NSTATE)];
    ode_real F[ODE_NF][ODE_ALLOC(ODE_NSTATE)];
} OdeDense;

#if !ODE_ROS_DENSE   /* (rosenbrock.h makes a Rosenbrock method's own) */
/* The extension of the accepted step (t, y) → (t + h, ynew) whose stages
 * are in st (with k[ODE_KEND] = f(t + h, ynew)); DOP853 evaluates its extra
 * stages here. */
ODE_HD static ODE_INLINE void ode_dense_make(const OdeSystem *s, ode_real t, ode_real h, const ode_real *y,
                                             const ode_real *ynew, OdeStages *st, OdeDense *D)
{
    D->t = t;
    D->h = h;
#if ODE_NEXTRA > 0
    {
        const ode_real c[ODE_NK] = ODE_TAB(C);
        const ode_real a[ODE_NK][ODE_NK] = ODE_TAB(A);
        ODE_UNROLL for (int j = ODE_KEND + 1; j < ODE_NK; j++) {
            ode_real yt[ODE_ALLOC(ODE_NSTATE)];
            ode_stage_input(a, j, h, y, st, yt);
            ode_rhs_at(s, t + c[j] * h, yt, st->k[j]);
        }
    }
#else
    (void)s;
#endif
#if ODE_NOISE
    (void)st;
    ODE_FOR_STATES(i) {
        D->y0[i] = y[i];
        D->F[0][i] = ynew[i] - y[i];
        D->F[1][i] = D->F[2][i] = ODE_R(0.0);
    }
#else
    ODE_FOR_STATES(i) {
        const ode_real d = ynew[i] - y[i], hf0 = h * st->k[0][i], hf1 = h * st->k[ODE_KEND][i];
        D->y0[i] = y[i];
        D->F[0][i] = d;
        D->F[1][i] = hf0 - d;
        D->F[2][i] = (d - hf0) + (d - hf1);
    }
#endif
#if ODE_NDENSE > 0
    {
        const ode_real dd[ODE_NDENSE][ODE_NK] = ODE_TAB(D);
        ODE_UNROLL for (int r = 0; r < ODE_NDENSE; r++) {
            ODE_FOR_STATES(i) D->F[3 + r][i] = ODE_R(0.0);
            ODE_UNROLL for (int j = 0; j < ODE_NK; j++) {
                if (dd[r][j] == ODE_R(0.0)) continue;
                const ode_real hd = h * dd[r][j];
                ODE_FOR_STATES(i) D->F[3 + r][i] += hd * st->k[j][i];
            }
        }
    }
#endif
}
#endif /* !ODE_ROS_DENSE */

/* The extension at θ ∈ [0, 1] (y(θ) into y). */
ODE_HD static ODE_INLINE void ode_dense_eval(const OdeDense *D, ode_real theta, ode_real *y)
{
    const ode_real u = ODE_R(1.0) - theta;
    ODE_FOR_STATES(i) {
        ode_real acc = D->F[ODE_NF - 1][i] * ((ODE_NF - 1) % 2 ? u : theta);
        ODE_UNROLL for (int m = ODE_NF - 2; m >= 0; m--) acc = (D->F[m][i] + acc) * (m % 2 ? u : theta);
        y[i] = D->y0[i] + acc;
    }
}

#endif /* !ODE_LOOP_FORM */

#endif /* ODE_DENSE_H */
