/* event_rules.h — what makes an event fire, as rules on event values: a
 * crossing past the whole zone, a landing in it, where an extremum could
 * hide a crossing; and the bounds of the searches.  Shared by the
 * per-thread detection (events.h) and the team's (team_events.h), so that
 * both decide alike, bit for bit.
 */
#ifndef ODE_EVENT_RULES_H
#define ODE_EVENT_RULES_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#endif

#if ODE_NEVENT > 0

/* Most Illinois iterations spent on one crossing, and golden-section
 * iterations on one extremum. */
#define ODE_EVENT_MAXITER 60
#define ODE_EXTREMUM_MAXITER 40
/* Most extrema made check points in one step (a bound, not a tuning knob). */
#define ODE_EXTREMUM_SPLITS 8

#if ODE_NEVENT <= 32                   /* one bit per event (at most 64 events) */
typedef unsigned int ode_mask;         /* (32 bits where they do: registers on the GPU) */
#else
typedef unsigned long long ode_mask;
#endif
#define ODE_BIT(e) ((ode_mask)1 << (e))

/* Event e went from gp (outside its zone) to g, past the whole zone, in its
 * declared direction: the step jumped over the zone. */
ODE_HD static ODE_INLINE int ode_event_jumped(int e, ode_real gp, ode_real g)
{
    const ode_real tol = ode_event_tol(e);
    const int dir = ode_event_dir(e);
    const int down = gp > tol && g < -tol, up = gp < -tol && g > tol;
    return dir < 0 ? down : dir > 0 ? up : (down | up);
}

/* Event e came from gp (outside its zone, on the side its direction starts
 * from) and landed inside ±tol. */
ODE_HD static ODE_INLINE int ode_event_landed(int e, ode_real gp, ode_real g)
{
    const ode_real tol = ode_event_tol(e);
    const int dir = ode_event_dir(e);
    if (!(ode_fabs(g) <= tol))
        return 0;
    return dir < 0 ? gp > tol : dir > 0 ? gp < -tol : ode_fabs(gp) > tol;
}

/* A `global 0` (firing.h) never crosses: it fires where its condition is
 * exactly zero at a step's end, and is never armed. */
#define ODE_IS_EXACT(e) ((e) < 64 && (ODE_EVENTS_EXACT & ((unsigned long long)1 << ((e) & 63))) != 0)   /* (a team's events past 64: none) */

/* Step of the one-sided differences that give the slopes at check points. */
#define ODE_SLOPE_DTHETA ODE_R(9.5367431640625e-07)   /* 2^-20 of the step: the slope there, not a secant */

/* Between ga and gb (neither showing a crossing of event e), an extremum of
 * g_e could hide one: a maximum when both ends lie at or below the zone's top
 * (it would cross upwards and back), a minimum when both lie at or above its
 * bottom.  +1: look for a maximum above `*level`, -1: a minimum below it,
 * 0: nothing can hide. */
ODE_HD static ODE_INLINE int ode_hidden_kind(int e, ode_real ga, ode_real gb, ode_real *level)
{
    if (ODE_IS_EXACT(e)) return 0;
    const ode_real tol = ode_event_tol(e);
    const int dir = ode_event_dir(e);
    if (ga <= tol && gb <= tol && (dir <= 0 || ga < -tol)) {
        *level = ga < -tol && dir >= 0 ? -tol : tol;   /* reaching the zone from below is a crossing too */
        return 1;
    }
    if (ga >= -tol && gb >= -tol && (dir >= 0 || ga > tol)) {
        *level = ga > tol && dir <= 0 ? tol : -tol;
        return -1;
    }
    return 0;
}

#endif /* ODE_NEVENT > 0 */

#endif /* ODE_EVENT_RULES_H */
