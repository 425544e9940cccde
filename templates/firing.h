/* firing.h — what happens at an instant where events were detected (SPEC §3),
 * and XPPAUT's own rules for its `global`s (its source: flags.c).
 *
 * The events detected at one instant run their statements in file order,
 * each seeing the state as the earlier ones left it.  Then, as XPPAUT does,
 * a `global` that has not fired at this instant fires too when the
 * statements carried its condition across zero (from outside its zone on the
 * side its sign starts from to inside it or beyond): round after round, each
 * global at most once per instant.  odegen's own `event`s do not: a
 * statement that moves the state is not a crossing of the trajectory.
 *
 * `global 0` is XPPAUT's "exactly zero": it fires where its condition is
 * within 5e-16 of zero (XPPAUT's MY_DBL_EPS) at the end of a step, or at the
 * start of an integration.  XPPAUT then places the event at the fraction
 * t_start of the step (flags.c: tstar = told, the step's start time), which
 * lies past the step's end from t = 1 on: so a `global 0` fires only in steps
 * that begin before t = 1 (t_start (1 + 1e-10) <= 1, XPPAUT's STOL), and
 * odegen keeps that rule.  It also fires, as in XPPAUT, where statements
 * carry its condition across zero or onto it.
 */
#ifndef ODE_FIRING_H
#define ODE_FIRING_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "stepper.h"
#include "events.h"
#include "tangent.h"
#endif

#if ODE_NEVENT > 0 && !ODE_LOOP_FORM   /* (a team layout fires its own way: team_integrate.h) */

/* XPPAUT's thresholds (flags.c): |g| below which a `global 0`'s condition is
 * zero, the least change of a condition that counts as carried across, and
 * the relative margin on the fraction of the step. */
#define ODE_XPP_ZERO ODE_R(5.0e-16)
#define ODE_XPP_CHANGE ODE_R(1.0e-10)
#define ODE_XPP_STOL ODE_R(1.0e-10)

/* The `global 0`s whose condition g is zero at the end of a step (or the
 * start of an integration) that began at t_start. */
ODE_HD static ODE_INLINE ode_mask ode_exact_mask(ode_real t_start, const ode_real *g)
{
    ode_mask m = 0;
#if ODE_EVENTS_EXACT
    if (t_start * (ODE_R(1.0) + ODE_XPP_STOL) <= ODE_R(1.0)) {
        ODE_FOR_EVENTS(e) {
            if ((ODE_EVENTS_EXACT & ODE_BIT(e)) && ode_fabs(g[e]) < ODE_XPP_ZERO) m |= ODE_BIT(e);
        }
    }
#else
    (void)t_start;
    (void)g;
#endif
    return m;
}

/* The globals among `candidates` whose condition the statements carried
 * from `before` to `after` across zero (XPPAUT's second pass in flags.c). */
ODE_HD static ODE_INLINE ode_mask ode_carried_mask(ode_mask candidates, const ode_real *before,
                                                   const ode_real *after)
{
    ode_mask m = 0;
    ODE_FOR_EVENTS(e) {
        if (!(candidates & ODE_BIT(e))) continue;
        const ode_real b = before[e], a = after[e];
        int carried;
        if (ODE_EVENTS_EXACT & ODE_BIT(e))   /* onto zero or across it, from either side */
            carried = b * a <= ODE_R(0.0) && (a != ODE_R(0.0) || b != ODE_R(0.0)) && ode_fabs(a - b) > ODE_XPP_CHANGE;
        else
            carried = ode_event_jumped(e, b, a) || ode_event_landed(e, b, a);
        if (carried) m |= ODE_BIT(e);
    }
    return m;
}

/* Runs the statements of the events in `fired`, detected at s->t where the
 * event values were g, then those of the globals they carried across zero;
 * g leaves with the values after all of them.  The result: every event that
 * fired; *stop becomes 1 where one reached its `stop` count, or left its halt
 * accessory (XPPAUT's arret=EXPR, ode_event_halt) above 0. */
ODE_HD static ODE_INLINE ode_mask ode_fire(OdeSystem *s, ode_mask fired, ode_real *g, int *stop)
{
#if ODE_EVENTS_GLOBAL
    ode_real before[ODE_NEVENT];
    ODE_FOR_EVENTS(e) before[e] = g[e];
#endif
    ode_mask done = 0;
    while (fired) {
        ODE_FOR_EVENTS(e) {
            if (!(fired & ODE_BIT(e))) continue;
            s->count[e]++;
#if ODE_NLYAP > 0
            if (ode_event_resets(e)) {   /* the tangent vectors through the saltation matrix */
                OdeSaltation sal;
                ode_tangent_event_before(s, e, &sal);
                ode_model_on_event(s, e);
                ode_tangent_event_after(s, &sal);
            } else {
                ode_model_on_event(s, e);
            }
#else
            ode_model_on_event(s, e);
#endif
            if (ode_event_stop(e) > 0 && s->count[e] >= ode_event_stop(e)) *stop = 1;
            if (ode_event_halt(e) >= 0 && s->acc[ode_event_halt(e)] > ODE_R(0.0)) *stop = 1;   /* arret=EXPR */
        }
        done |= fired;
        ode_model_events(s, s->t, s->y, g);   /* the statements may have moved the state */
#if ODE_EVENTS_GLOBAL
        fired = ode_carried_mask(ODE_EVENTS_GLOBAL & ~done, before, g);
#else
        fired = 0;
#endif
    }
    return done;
}

#endif /* ODE_NEVENT > 0 && !ODE_LOOP_FORM */

#endif /* ODE_FIRING_H */
