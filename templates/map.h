/* map.h — one integration of a map (`x(t+1)=…`, meth=discrete): iterates
 * y ← f(t, y), t ← t + 1, as XPPAUT's discrete method does (odesol2.c
 * one_step_discrete: f reads t before the step).  The window [t0, t1] holds
 * floor(t1 - t0) iterates (XPPAUT: nit = total).  The right-hand side the
 * generator emits for a map is the next state itself.
 *
 * What applies as for an ODE: `on start`, `on step` (after every iterate),
 * `on end`, the bound and NaN checks (a step to NaN is not taken), maxsteps
 * (iterates), `repeat`, `record`, `period`; `lyapunov N`: the tangent vectors
 * are multiplied by the map's exact Jacobian at each iterate, so `lyapK` is
 * per iterate (t counts iterates).  Events and `save` are refused for maps
 * (generator/check/map.c).
 */
#ifndef ODE_MAP_H
#define ODE_MAP_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#include "stepper.h"
#include "save.h"
#include "tangent.h"
#endif

#if ODE_DISCRETE

#if ODE_NLYAP > 0
/* v ← J(t, y) v for each tangent vector: the map's derivative at the iterate's start. */
ODE_HD static ODE_INLINE void ode_tangent_map_step(OdeSystem *s, ode_real t, const ode_real *y)
{
    OdeTrig tr;
    ode_trig_at(s, t, &tr);
    ode_real J[ODE_ALLOC(ODE_NSTATE * ODE_NSTATE)];
    ode_model_jac(s, t, y, J, &tr);
    ode_tangent_apply(s, J);
#if ODE_LYAP_FULL
    /* The whole spectrum: a QR after every iterate (the vectors were orthonormal
     * before it) measures ln |det J| exactly, the map's side of the trace
     * identity (tangent.h); lyap_trace_err is then 0 to rounding for a map. */
    const double lndet = ode_tangent_qr(s);
    if (s->lcount) s->ltr += lndet;
#endif
}
#endif

/* Iterates s from s->t0 to s->t1 (or to a stop) and leaves its status (sink:
 * unused, a map takes no samples). */
ODE_HD static ODE_INLINE void ode_integrate_sampled(OdeSystem *s, const OdeOptions *ode_opt, OdeSaveSink sink)
{
    (void)sink;
    (void)ode_opt;
    s->status = ODE_STATUS_RUNNING;
    s->t = s->t0;
#if ODE_HAS_ON_START
#if ODE_NLYAP > 0
    ode_tangent_start(s);
#endif
    ode_model_on_start(s);
    s->t = s->t0;
#endif
#if ODE_NLYAP > 0
    const ode_real t_start = s->t;
    s->lqr = t_start;
#endif
    const ode_real t1 = s->t1;
    /* An iterate fits while t + 1 ≤ t1 (to rounding of t1). */
    const ode_real fit = ODE_R(1.0) - ODE_R(64.0) * ODE_EPS * ode_fmax(ODE_R(1.0), ode_fabs(t1));
    ode_count nstep = 0;
    while (s->status == ODE_STATUS_RUNNING) {
        if (!(t1 - s->t >= fit)) {
            s->status = ODE_STATUS_FINISHED;
            break;
        }
        ode_real ynew[ODE_ALLOC(ODE_NSTATE)];
        ode_rhs_at(s, s->t, s->y, ynew);
        s->evals++;
        int inside = 1;
        ODE_FOR_STATES(i) inside &= ode_fabs(ynew[i]) <= ODE_OPT_BOUND;
        if (!inside) {
            int finite = 1;
            ODE_FOR_STATES(i) finite &= ode_finite(ynew[i]);
            if (!finite) {                 /* the last finite state stays */
                s->status = ODE_STATUS_NAN;
                break;
            }
        }
#if ODE_NLYAP > 0
        ode_tangent_map_step(s, s->t, s->y);
#endif
        s->t += ODE_R(1.0);
        ODE_FOR_STATES(i) s->y[i] = ynew[i];
        nstep++;
#if ODE_HAS_ON_STEP
        ode_model_on_step(s);
#endif
#if ODE_NLYAP > 0
        ode_tangent_after_step(s);
#endif
        if (!inside) s->status = ODE_STATUS_BOUND;
        else if (nstep >= ODE_OPT_MAXSTEPS) s->status = ODE_STATUS_MAXSTEPS;
    }
    s->steps += nstep;
#if ODE_NLYAP > 0
    ode_tangent_end(s, t_start);
#endif
#if ODE_HAS_ON_END
    ode_model_on_end(s);
#endif
}

#endif /* ODE_DISCRETE */

#endif /* ODE_MAP_H */
