/* save.h — `save every=DT` in the kernel (SPEC §2, §4): samples of a recorded
 * integration at t0 + i·DT, taken from the continuous extension of the step
 * that contains them (dense.h), not by shortening steps.  Each sample holds
 * the recorded fields (ode_model_field) at the sample's time and state; the
 * host reads them back through the library (model_solver_saved). */
#ifndef ODE_SAVE_H
#define ODE_SAVE_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "dense.h"
#endif

#ifndef ODE_SAVE
#define ODE_SAVE 0
#endif

/* Where one system's samples of one integration go: saved system `slot`
 * of arrays a (save_slot, traj, …: system.h), recorded integration `rep`;
 * slot < 0: nowhere.  (The arrays stay where they are, kernel parameters on
 * the GPU: nothing of them is held in registers between samples.) */
typedef struct OdeSaveSink {
    const OdeArrays *a;
    int slot, rep;
} OdeSaveSink;

#if ODE_SAVE
#if !ODE_LOOP_FORM   /* (a model in loop form: the team's own, team_*.h) */
/* Sample j at time t with state y: the fields as ode_model_field computes
 * them for the system at (t, y). */
ODE_HD static ODE_INLINE void ode_save_put(OdeSystem *s, OdeSaveSink k, unsigned int j, ode_real t, const ode_real *y)
{
    const OdeArrays *a = k.a;
    if (j >= (unsigned int)a->save_cap) return;       /* beyond the capacity: counted, not kept */
    const size_t m = (size_t)a->nsave, row = (size_t)k.rep * (size_t)a->save_cap + j;
    const ode_real tkeep = s->t;
    ode_real ykeep[ODE_ALLOC(ODE_NSTATE)];
    ODE_FOR_STATES(i) { ykeep[i] = s->y[i]; s->y[i] = y[i]; }
    s->t = t;
    a->traj_t[row * m + (size_t)k.slot] = t;
    for (int f = 0; f < a->nfield; f++)
        a->traj[(row * (size_t)a->nfield + (size_t)f) * m + (size_t)k.slot] = ode_model_field(s, a->fields[f]);
    s->t = tkeep;
    ODE_FOR_STATES(i) s->y[i] = ykeep[i];
}

#endif /* !ODE_LOOP_FORM */

/* The number of samples that were due, at the integration's end. */
ODE_HD static ODE_INLINE void ode_save_count(OdeSaveSink k, unsigned int n)
{
    k.a->traj_count[(size_t)k.rep * (size_t)k.a->nsave + (size_t)k.slot] = n;
}

#if !ODE_LOOP_FORM   /* (a model in loop form: the team's own, team_*.h) */
/* Samples due in the step that D extends, up to tnew (state ynew there):
 * sample n is at t0 + n·every; n runs to last, the last sample of the
 * window, which the step ending at t1 takes whatever rounding did to its
 * time. */
ODE_HD static ODE_INLINE void ode_save_step(OdeSystem *s, OdeSaveSink k, const OdeDense *D, ode_real t0,
                                            ode_real tnew, const ode_real *ynew, int at_end, unsigned int last,
                                            unsigned int *n)
{
    while (*n <= last) {
        ode_real ts = t0 + (ode_real)*n * k.a->save_every;
        if (ts > tnew && !at_end) break;
        ode_real y[ODE_ALLOC(ODE_NSTATE)];
        if (ts >= tnew) {
            ts = tnew;
            ODE_FOR_STATES(i) y[i] = ynew[i];
        } else {
            ode_dense_eval(D, (ts - D->t) / D->h, y);
        }
        ode_save_put(s, k, *n, ts, y);
        ++*n;
    }
}

#endif /* !ODE_LOOP_FORM */

/* The index of the window's last sample: every sample whose time is at most
 * t1 (within rounding). */
ODE_HD static ODE_INLINE unsigned int ode_save_last(ode_real t0, ode_real t1, ode_real every)
{
    const ode_real n = (t1 - t0) / every * (ODE_R(1.0) + ODE_R(64.0) * ODE_EPS);
    return n >= ODE_R(4.0e9) ? 4000000000u : n > ODE_R(0.0) ? (unsigned int)n : 0u;
}
#endif /* ODE_SAVE */

#endif /* ODE_SAVE_H */
