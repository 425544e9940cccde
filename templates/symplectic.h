/* symplectic.h — XPPAUT's symplectic method (meth=ymp; odesol2.c,
 * one_step_symp): the states two by two, a position x and its velocity v
 * (x' = v: the generator checks it, check/symplectic.c), three stages of
 *     x += h b_s v,  then  v += h B_s f_v(t, x, v),
 * b = (7/24, 3/4, -1/24), B = (2/3, -2/3, 1) (Ruth's third-order scheme),
 * every f at the step's start time t, as XPPAUT evaluates it.  The positions'
 * own equations are never evaluated.  f(t, y) at the step's start (st->k[0])
 * is computed only for the cubic Hermite extension that events and samples
 * read.
 * The step is fixed (dt); no error estimate. */
#ifndef ODE_SYMPLECTIC_H
#define ODE_SYMPLECTIC_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#include "stepper.h"
#endif

#if ODE_METHOD == ODE_METH_SYMPLECTIC && !ODE_LOOP_FORM

/* f(t, y) at the step's start: only for the extension (as integrate.h's
 * ODE_NEED_DENSE, delays aside: the generator refuses them here). */
#define ODE_SYMP_START_SLOPE (ODE_NEVENT > 0 || ODE_SAVE)

ODE_HD static ODE_INLINE void ode_symp_trial(const OdeSystem *s, ode_real t, ode_real h, const ode_real *y,
                                             int have_k0, OdeStages *st, ode_real *ynew, ode_real *err,
                                             OdeTrigStep *ts)
{
    (void)err;
    (void)ts;
    const ode_real b[3] = {ODE_R(7.0) / ODE_R(24.0), ODE_R(0.75), ODE_R(-1.0) / ODE_R(24.0)};
    const ode_real B[3] = {ODE_R(2.0) / ODE_R(3.0), ODE_R(-2.0) / ODE_R(3.0), ODE_R(1.0)};
    OdeTrig tr;
    ode_trig_at(s, t, &tr);
    if (!have_k0 && ODE_SYMP_START_SLOPE) ode_model_rhs(s, t, y, st->k[0], &tr);
    ode_real f[ODE_ALLOC(ODE_NSTATE)];
    ODE_FOR_STATES(i) ynew[i] = y[i];
    ODE_UNROLL for (int r = 0; r < 3; r++) {
        ODE_UNROLL for (int i = 0; i + 1 < ODE_NSTATE; i += 2) ynew[i] += h * b[r] * ynew[i + 1];
        ode_model_rhs(s, t, ynew, f, &tr);
        ODE_UNROLL for (int i = 0; i + 1 < ODE_NSTATE; i += 2) ynew[i + 1] += h * B[r] * f[i + 1];
    }
}

#undef ode_trial
#define ode_trial ode_symp_trial
#undef ODE_TRIAL_EVALS
#define ODE_TRIAL_EVALS(have_k0) (3u + ((have_k0) || !ODE_SYMP_START_SLOPE ? 0u : 1u))

#endif

#endif /* ODE_SYMPLECTIC_H */
