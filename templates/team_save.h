/* team_save.h — `save every=DT` by a team (save.h's samples): the state of
 * a sample from the extension into team memory, then its fields computed by
 * the lanes (each field by one lane, ode_model_field as one thread runs it). */
#ifndef ODE_TEAM_SAVE_H
#define ODE_TEAM_SAVE_H

#ifndef ODEGEN_GENERATED
#include "save.h"
#include "team_dense.h"
#endif

#if ODE_LOOP_FORM && ODE_SAVE

/* Sample j at time t with the state y in team memory (save.h: ode_save_put). */
ODE_HD static ODE_INLINE void ode_team_save_put(OdeTeamCtx *c, OdeSaveSink k, unsigned int j, ode_real t,
                                                ode_real *y)
{
    const OdeTeam ode_team = c->team;
    const OdeArrays *a = k.a;
    if (j >= (unsigned int)a->save_cap) return;       /* beyond the capacity: counted, not kept */
    const size_t m = (size_t)a->nsave, row = (size_t)k.rep * (size_t)a->save_cap + j;
    ODE_TEAM_SYNC();                                   /* y complete */
    OdeSystem at = *c->s;                              /* the system at the sample: its time and state */
    at.t = t;
    at.y = y;
    if (ODE_TEAM_LEADER) a->traj_t[row * m + (size_t)k.slot] = t;
    ODE_TEAM_FOR(f, a->nfield)
        a->traj[(row * (size_t)a->nfield + (size_t)f) * m + (size_t)k.slot] = ode_model_field(&at, a->fields[f]);
    ODE_TEAM_SYNC();                                   /* y may be written again */
}

/* Samples due in the step that D extends, up to tnew (the lane's share of
 * the state there: ynew) (save.h: ode_save_step). */
ODE_HD static ODE_INLINE void ode_team_save_step(OdeTeamCtx *c, OdeSaveSink k, const OdeTeamDense *D, ode_real t0,
                                                 ode_real tnew, const ode_real *ynew, int at_end, unsigned int last,
                                                 unsigned int *n)
{
    ode_real *const y = ODE_TW(c, YT);
    while (*n <= last) {
        ode_real ts = t0 + (ode_real)*n * k.a->save_every;
        if (ts > tnew && !at_end) break;
        if (ts >= tnew) {
            ts = tnew;
            ode_team_put(c, ynew, y);
        } else {
            ode_team_dense_eval(c, D, (ts - D->t) / D->h, y);
        }
        ode_team_save_put(c, k, *n, ts, y);
        ++*n;
    }
}

#endif /* ODE_LOOP_FORM && ODE_SAVE */

#endif /* ODE_TEAM_SAVE_H */
