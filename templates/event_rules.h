/* event_rules.h — what makes an event fire, as rules on event values: a
 * crossing past the whole zone, a landing in it, where an extremum could
 * hide a crossing; and the bounds and steps of the searches (check points,
 * golden section, Illinois).  Shared by the per-thread detection (events.h)
 * and the team's (team_events.h), so that both decide alike, bit for bit.
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

/* The step of the one-sided difference at θ: into the step (backwards at its end). */
ODE_HD static ODE_INLINE ode_real ode_slope_step(ode_real theta)
{
    return theta + ODE_SLOPE_DTHETA <= ODE_R(1.0) ? ODE_SLOPE_DTHETA : -ODE_SLOPE_DTHETA;
}

/* The scan's next check point after the k-th (of ODE_OPT_EVPOINTS evenly
 * spaced ones, then the step's end): the point `split` an extremum made, when
 * it comes first (*at_split), else the grid's. */
ODE_HD static ODE_INLINE ode_real ode_check_point(int k, ode_real split, int *at_split)
{
    const ode_real grid = k <= ODE_OPT_EVPOINTS ? (ode_real)k / (ode_real)(ODE_OPT_EVPOINTS + 1) : ODE_R(1.0);
    *at_split = split < grid;
    return *at_split ? split : grid;
}

/* An extremum of event e's function between check points where the slopes
 * are sa and sb, of the kind (ode_hidden_kind) that could hide a crossing:
 * the slope turns from towards the level to away from it. */
ODE_HD static ODE_INLINE int ode_extremum_between(int kind, ode_real sa, ode_real sb)
{
    return kind * sa > ODE_R(0.0) && kind * sb < ODE_R(0.0);
}

/* Golden-section search on (a, b) for a point where kind·g goes beyond a
 * level (ode_find_beyond, in both detections): the caller evaluates g at
 * ode_golden_point, stops when it is beyond, else hands kind·g to
 * ode_golden_next, at most ODE_EXTREMUM_MAXITER times. */
typedef struct OdeGolden {
    ode_real a, b, x1, x2, f1, f2;
    int inner;                                        /* the point evaluated next: x1 (1) or x2 (2) */
    int it;                                           /* points evaluated */
} OdeGolden;

#define ODE_GOLDEN_R ODE_R(0.38196601125010515)      /* 2 - golden ratio */

ODE_HD static ODE_INLINE void ode_golden_start(OdeGolden *q, ode_real a, ode_real b)
{
    q->a = a;
    q->b = b;
    q->x1 = a + ODE_GOLDEN_R * (b - a);
    q->x2 = b - ODE_GOLDEN_R * (b - a);
    q->f1 = q->f2 = ODE_R(0.0);
    q->inner = 1;
    q->it = 0;
}

ODE_HD static ODE_INLINE ode_real ode_golden_point(const OdeGolden *q) { return q->inner == 1 ? q->x1 : q->x2; }

/* f: kind·g at ode_golden_point, short of the level; narrows (a, b) to the
 * side of the maximum of kind·g. */
ODE_HD static ODE_INLINE void ode_golden_next(OdeGolden *q, ode_real f)
{
    if (q->inner == 1) q->f1 = f;
    else q->f2 = f;
    if (q->it++ == 0) {                               /* both inner points first */
        q->inner = 2;
        return;
    }
    if (q->f1 >= q->f2) {                             /* the maximum of kind·g lies in (a, x2) */
        q->b = q->x2;
        q->x2 = q->x1;
        q->f2 = q->f1;
        q->x1 = q->a + ODE_GOLDEN_R * (q->b - q->a);
        q->inner = 1;
    } else {
        q->a = q->x1;
        q->x1 = q->x2;
        q->f1 = q->f2;
        q->x2 = q->b - ODE_GOLDEN_R * (q->b - q->a);
        q->inner = 2;
    }
}

/* The Illinois iteration on a bracket (lo, hi] of the target event, whose
 * values there are the weights wlo and whi (both detections, on the
 * extension and with the method's steps).  The next point: the secant's
 * zero, or the midpoint where that leaves the bracket; 0 when the bracket is
 * at rounding level. */
ODE_HD static ODE_INLINE int ode_illinois_point(ode_real lo, ode_real hi, ode_real wlo, ode_real whi, ode_real *x)
{
    ode_real c = lo + (hi - lo) * (wlo / (wlo - whi));
    if (!(c > lo && c < hi)) c = ODE_R(0.5) * (lo + hi);
    *x = c;
    return c > lo && c < hi;
}

/* The upper end moved (*kept: -1 when it moved last time too, +1 when the
 * lower end did, 0 for a new target): the lower end kept twice in a row has
 * its weight halved. */
ODE_HD static ODE_INLINE void ode_illinois_moved_hi(int *kept, ode_real *wlo)
{
    if (*kept == -1) *wlo *= ODE_R(0.5);
    *kept = -1;
}

/* The lower end moved: the upper end kept twice in a row has its weight halved. */
ODE_HD static ODE_INLINE void ode_illinois_moved_lo(int *kept, ode_real *whi)
{
    if (*kept == 1) *whi *= ODE_R(0.5);
    *kept = 1;
}

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
