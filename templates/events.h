/* events.h — event detection on the continuous extension and location of the
 * earliest crossing (SPEC §3).
 *
 * After every accepted step the event functions are checked at ODE_OPT_EVPOINTS
 * interior points of the step's extension (dense.h) and at its end.  Between
 * two consecutive check points an event fires when its function crosses zero
 * in its direction past the whole ±tol zone, or lands inside the zone, coming
 * from outside it on the side its direction starts from; an event disarmed by
 * a detection is re-armed at the first check point outside its zone.  Where
 * the values at two check points show nothing but the function may have made
 * an excursion across the zone and back between them (both ends on one side,
 * the slopes at the ends pointing to an extremum in between), the extremum is
 * searched for on the extension (golden section) and, if it reaches across,
 * becomes a check point too: an impact after a flight that one large step
 * spans entirely is seen.  What can still be missed: two crossings between
 * two check points around more than one extremum of the event function.
 *
 * The earliest crossing is then located on the extension by the Illinois
 * method to the event's tol (no right-hand-side evaluations), and the step
 * is redone with the method itself to the located time, so that the state at
 * the event has the method's accuracy; should that state not lie in the zone
 * (an extension less accurate than tol), the Illinois iteration goes on with
 * steps of the method until it does.
 *
 * Events that accumulate (a Zeno sequence: a ball bouncing with restitution
 * e < 1 hits the floor infinitely often before a finite time) end where the
 * zone can no longer tell one detection from the next: an event disarmed by
 * a detection, seen inside its zone moving back towards the side it came
 * from (the reset sent it back), that then leaves the zone on the far side
 * has crossed again without leaving the zone in between — a crossing the
 * zone hides.  The step ends at the last check point inside the zone and the
 * system stops with status `zeno` (ode_event_scan).
 */
#ifndef ODE_EVENTS_H
#define ODE_EVENTS_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#include "stepper.h"
#include "dense.h"
#include "event_rules.h"
#endif

#if ODE_NEVENT > 0 && !ODE_LOOP_FORM   /* (a model in loop form: team_events.h) */

/* Which events fire at their next crossing, and what the accumulation check
 * (the file's comment) knows of those disarmed by a detection. */
typedef struct OdeArming {
    ode_mask armed;   /* left their zone since their last detection (or the start) */
    ode_mask back;    /* disarmed by a detection, since seen in their zone moving back to the side they came from */
    ode_mask down;    /* crossed downwards at their last detection (read for dir = 0 only) */
} OdeArming;

/* a[k] for a run-time k without indexing a register array at run time (which
 * would move the array to local memory): a chain of selects. */
ODE_HD static ODE_INLINE ode_real ode_pick(const ode_real *a, int k)
{
    ode_real v = a[0];
    ODE_FOR_EVENTS(e) v = e == k ? a[e] : v;
    return v;
}

/* Among the armed events, the one whose crossing comes earliest by the secant
 * estimate between (lo, glo) and (hi, ghi) (gp: where each was outside its
 * zone); -1 when none jumped. */
ODE_HD static ODE_INLINE int ode_earliest_jump(ode_mask armed, const ode_real *gp, const ode_real *glo,
                                               const ode_real *ghi)
{
    int target = -1;
    ode_real best = ODE_R(2.0);
    ODE_FOR_EVENTS(e) {
        if ((armed & ODE_BIT(e)) && ode_event_jumped(e, gp[e], ghi[e])) {
            ode_real frac = glo[e] / (glo[e] - ghi[e]);
            if (frac < best) { best = frac; target = e; }
        }
    }
    return target;
}

ODE_HD static ODE_INLINE ode_mask ode_landed_mask(ode_mask armed, const ode_real *gp, const ode_real *g)
{
    ode_mask m = 0;
    ODE_FOR_EVENTS(e) if ((armed & ODE_BIT(e)) && ode_event_landed(e, gp[e], g[e])) m |= ODE_BIT(e);
    return m;
}

/* The armed events that went from gp past their zone or into it at g: all
 * those detected where a bracket closed at rounding level, g being its upper
 * end (a condition that jumps, several events on one condition). */
ODE_HD static ODE_INLINE ode_mask ode_reached_mask(ode_mask armed, const ode_real *gp, const ode_real *g)
{
    ode_mask m = 0;
    ODE_FOR_EVENTS(e) {
        if ((armed & ODE_BIT(e)) && (ode_event_jumped(e, gp[e], g[e]) || ode_event_landed(e, gp[e], g[e])))
            m |= ODE_BIT(e);
    }
    return m;
}

/* The events whose zone g lies outside: armed from there on. */
ODE_HD static ODE_INLINE ode_mask ode_outside_mask(const ode_real *g)
{
    ode_mask m = 0;
    ODE_FOR_EVENTS(e) if (!ODE_IS_EXACT(e) && ode_fabs(g[e]) > ode_event_tol(e)) m |= ODE_BIT(e);
    return m;
}

/* Event values at θ of the extension. */
ODE_HD static ODE_INLINE void ode_events_at(const OdeSystem *s, const OdeDense *D, ode_real theta, ode_real *g)
{
    ode_real y[ODE_ALLOC(ODE_NSTATE)];
    ode_dense_eval(D, theta, y);
    ode_model_events(s, D->t + theta * D->h, y, g);
}

/* ------------------------------------------------------------------ scanning a step */

/* Where the earliest crossing of a step lies: in (lo, hi] (θ), with the
 * event values at both ends and the events armed at lo. */
typedef struct OdeBracket {
    ode_real lo, hi;
    ode_real glo[ODE_NEVENT], ghi[ODE_NEVENT];
    ode_mask armed;
} OdeBracket;


/* The slopes dg/dθ at θ (one-sided, into the step). */
ODE_HD static ODE_INLINE void ode_event_slopes(const OdeSystem *s, const OdeDense *D, ode_real theta,
                                               const ode_real *g, ode_real *slope)
{
    const ode_real d = ode_slope_step(theta);
    ode_real gd[ODE_NEVENT];
    ode_events_at(s, D, theta + d, gd);
    ODE_FOR_EVENTS(e) slope[e] = (gd[e] - g[e]) / d;
}

/* Golden-section search on (a, b) of the extension for a point where event
 * e's function goes beyond `level` (above for kind +1, below for -1), g_e
 * being unimodal there; 1 with that point in *theta, 0 when its extremum
 * stays short of the level. */
ODE_HD static ODE_INLINE int ode_find_beyond(const OdeSystem *s, const OdeDense *D, int e, int kind, ode_real level,
                                             ode_real a, ode_real b, ode_real *theta)
{
    const ode_real target = kind * level;
    OdeGolden q;
    ode_golden_start(&q, a, b);
    for (int it = 0; it < ODE_EXTREMUM_MAXITER; it++) {
        ode_real g[ODE_NEVENT];
        const ode_real x = ode_golden_point(&q);
        ode_events_at(s, D, x, g);
        const ode_real f = kind * ode_pick(g, e);
        if (f > target) {
            *theta = x;
            return 1;
        }
        ode_golden_next(&q, f);
    }
    return 0;
}

/* +1 when event e, disarmed by a detection, came to it from above its zone
 * (it crossed downwards), -1 from below. */
ODE_HD static ODE_INLINE int ode_came_from(int e, ode_mask down)
{
    const int dir = ode_event_dir(e);
    return dir < 0 ? 1 : dir > 0 ? -1 : (down & ODE_BIT(e)) ? 1 : -1;
}

/* The events of m with dir = 0 where g is above zero (ar->down). */
ODE_HD static ODE_INLINE ode_mask ode_above_mask(ode_mask m, const ode_real *g)
{
    ode_mask a = 0;
    ODE_FOR_EVENTS(e) if (ode_event_dir(e) == 0 && (m & ODE_BIT(e)) && g[e] > ODE_R(0.0)) a |= ODE_BIT(e);
    return a;
}

/* The slopes dg/dθ at the step's start along the extension's tangent there
 * (y0 + δ F'(0), a straight line: the trajectory's own curvature, which
 * turns a ball that barely left the floor within 2^-20 of a long step,
 * does not enter). */
ODE_HD static ODE_INLINE void ode_event_start_slopes(const OdeSystem *s, const OdeDense *D, const ode_real *g0,
                                                     ode_real *slope)
{
    ode_real y[ODE_ALLOC(ODE_NSTATE)], gd[ODE_NEVENT];
    ODE_FOR_STATES(i) y[i] = D->y0[i] + ODE_SLOPE_DTHETA * (ODE_NF > 1 ? D->F[0][i] + D->F[1][i] : D->F[0][i]);
    ode_model_events(s, D->t + ODE_SLOPE_DTHETA * D->h, y, gd);
    ODE_FOR_EVENTS(e) slope[e] = (gd[e] - g0[e]) / ODE_SLOPE_DTHETA;
}

/* The accumulation check between check points a and b (values ga, gb; the
 * slopes at a in sa where have_sa) for the events in `watch` (disarmed by a
 * detection): marks in *back those seen in their zone moving back to the
 * side they came from; returns those that then leave the zone on the far
 * side. */
ODE_HD static ODE_INLINE ode_mask ode_hidden_crossings(ode_mask watch, ode_mask down, const ode_real *ga,
                                                       const ode_real *gb, const ode_real *sa, int have_sa,
                                                       ode_mask *back)
{
    ode_mask hidden = 0;
    ODE_FOR_EVENTS(e) {
        if (!(watch & ODE_BIT(e))) continue;
        const ode_real tol = ode_event_tol(e);
        const int from = ode_came_from(e, down);
        if (ode_fabs(ga[e]) <= tol &&
            ((have_sa && from * sa[e] > ODE_R(0.0)) || (ode_fabs(gb[e]) <= tol && from * (gb[e] - ga[e]) > ODE_R(0.0))))
            *back |= ODE_BIT(e);
        if ((*back & ODE_BIT(e)) && from * gb[e] < -tol) hidden |= ODE_BIT(e);
    }
    return hidden;
}

/* Checks the accepted step's extension D (event values g0 at its start, gend
 * at its end; ar on entry: the events armed at the start, …).  Returns 1 and
 * fills *br when an event crosses; 2 with br->lo the last check point
 * before a crossing that the zone hid (events that accumulate, see the
 * file's comment); else 0.  ar->armed leaves as the events armed at the
 * last check point before the crossing, or at the end; watch: the events
 * disarmed by a detection. */
ODE_HD static ODE_INLINE int ode_event_scan(const OdeSystem *s, const OdeDense *D, const ode_real *g0,
                                            const ode_real *gend, OdeArming *ar, ode_mask watch, OdeBracket *br)
{
    ode_real ga[ODE_NEVENT], gb[ODE_NEVENT], sa[ODE_NEVENT], sb[ODE_NEVENT];
    ODE_FOR_EVENTS(e) { ga[e] = g0[e]; sa[e] = sb[e] = ODE_R(0.0); }
    ode_mask arm = ar->armed;
    if (watch) {                                      /* their course right after a detection's statements */
        ode_real s0[ODE_NEVENT];
        ode_event_start_slopes(s, D, g0, s0);
        ode_hidden_crossings(watch, ar->down, g0, g0, s0, 1, &ar->back);   /* (marks only: g0 is in the zone) */
    }
    ode_real a = ODE_R(0.0), split = ODE_R(2.0);      /* split < 1: an extremum made the next check point */
    int have_sa = 0, splits = 0, k = 1;
    while (k <= ODE_OPT_EVPOINTS + 1) {
        int at_split;
        const ode_real b = ode_check_point(k, split, &at_split);
        if (b < ODE_R(1.0)) ode_events_at(s, D, b, gb);
        else ODE_FOR_EVENTS(e) gb[e] = gend[e];
        split = ODE_R(2.0);
        int have_sb = 0;
        if (!at_split && splits < ODE_EXTREMUM_SPLITS) {
            /* An extremum between a and b that reaches across a zone: the
             * earliest such becomes a check point before b. */
            int look = 0;
            ode_real level[ODE_NEVENT];
            int kind[ODE_NEVENT];
            ODE_FOR_EVENTS(e) {
                kind[e] = ode_hidden_kind(e, ga[e], gb[e], &level[e]);
                look |= kind[e] != 0;
            }
            if (look) {
                for (int end = have_sa; end < 2; end++) {   /* the slopes at a (unless known) and at b */
                    ode_real gx[ODE_NEVENT], sx[ODE_NEVENT];   /* (selected value by value: registers) */
                    ODE_FOR_EVENTS(e) gx[e] = end ? gb[e] : ga[e];
                    ode_event_slopes(s, D, end ? b : a, gx, sx);
                    ODE_FOR_EVENTS(e) {
                        sa[e] = end ? sa[e] : sx[e];
                        sb[e] = end ? sx[e] : sb[e];
                    }
                }
                have_sa = have_sb = 1;
                ode_real first = b;
                ODE_FOR_EVENTS(e) {
                    ode_real at;
                    if (ode_extremum_between(kind[e], sa[e], sb[e]) &&
                        ode_find_beyond(s, D, e, kind[e], level[e], a, first, &at))
                        first = at;
                }
                if (first < b) {                      /* look at (a, first] next */
                    split = first;
                    splits++;
                    continue;
                }
            }
        }
        if (ode_earliest_jump(arm, ga, ga, gb) >= 0 || ode_landed_mask(arm, ga, gb)) {
            br->lo = a;
            br->hi = b;
            ODE_FOR_EVENTS(e) { br->glo[e] = ga[e]; br->ghi[e] = gb[e]; }
            br->armed = arm;
            ar->armed = arm;
            ar->down = (ar->down & ~arm) | ode_above_mask(arm, ga);   /* (for dir = 0: where it came from) */
            return 1;
        }
        watch &= ~arm;
        if (watch && ode_hidden_crossings(watch, ar->down, ga, gb, sa, have_sa, &ar->back)) {
            br->lo = a;
            ar->armed = arm;
            return 2;
        }
        arm |= ode_outside_mask(gb);
        a = b;
        ODE_FOR_EVENTS(e) { ga[e] = gb[e]; sa[e] = sb[e]; }
        have_sa = have_sb;
        if (!at_split) k++;
    }
    ar->armed = arm;
    return 0;
}

/* ------------------------------------------------------------------ a step that nothing can cross */
/* Most steps pass far from every event's zone.  With the event functions'
 * gradients (generated: ode_model_event_grad) their slopes at the step's
 * ends are known without evaluating anything more: the extension's slopes
 * there are h f0 and h f1 (dense.h), which the step has.  For a function
 * affine in the state and t, g along the extension is the cubic Hermite
 * interpolant of its values and slopes at both ends — which strays from the
 * chord between g0 and g1 by at most max(|h g'0 - Δg|, |h g'1 - Δg|)/4 —
 * plus the method's own rows, each within 1/16 of |∇g·F_r|.  When g stays
 * away from its zone by four times that bound (the margin for a g that is
 * not affine), nothing can cross it in this step and the interior check
 * points are not looked at; else (and for every event function with a
 * piecewise construct, whose slopes bound nothing) the step is scanned as
 * above.  tests/numerics/test_methods.py: the same rows and steps, bit for
 * bit, as with -DODE_EVENT_BOUNDS=0. */
#ifndef ODE_EVENT_BOUNDS   /* (-DODE_EVENT_BOUNDS=0: every step scanned, for measuring) */
#if ODE_HAS_EVENT_GRAD && !ODE_ROSENBROCK && !ODE_DAE_NEWTON   /* (a DAE's unknowns: their slopes are not F's) */
#define ODE_EVENT_BOUNDS 1
#else
#define ODE_EVENT_BOUNDS 0
#endif
#endif

#if ODE_EVENT_BOUNDS
#if !(defined(ODE_HAS_EVENT_JVP_ONE) && ODE_HAS_EVENT_JVP_ONE)   /* (a model without ode_model_event_jvp) */
/* dg/dt of event e at (t, y) where y' = f; gy: the gradient, which the rows' bound reads too. */
ODE_HD static ODE_INLINE ode_real ode_event_rate(const OdeSystem *s, int e, ode_real t, const ode_real *y,
                                                 const ode_real *f, ode_real *gy)
{
    ode_real gt;
    ode_model_event_grad(s, e, t, y, gy, &gt);
    ODE_FOR_STATES(j) gt += gy[j] * f[j];
    return gt;
}
#endif

/* 1 when no event can cross or enter its zone in the accepted step
 * (t, y) → (t + h, ynew) with stages st, extension D and event values g0,
 * g1 at its ends. */
ODE_HD static ODE_INLINE int ode_events_clear(const OdeSystem *s, ode_real t, ode_real h, const ode_real *y,
                                              const ode_real *ynew, const OdeStages *st, const OdeDense *D,
                                              const ode_real *g0, const ode_real *g1)
{
    int clear = 1;
#if ODE_NOISE   /* the extension is the chord: its slope at both ends */
    ode_real chord[ODE_ALLOC(ODE_NSTATE)];
    ODE_FOR_STATES(j) chord[j] = (ynew[j] - y[j]) / h;
    const ode_real *f0 = chord, *f1 = chord;
    (void)st;
#else
    const ode_real *f0 = st->k[0], *f1 = st->k[ODE_KEND];
#endif
    ODE_FOR_EVENTS(e) {
        if (ODE_IS_EXACT(e)) continue;
        if (!ode_event_smooth(e)) return 0;
        const ode_real d = g1[e] - g0[e];
#if defined(ODE_HAS_EVENT_JVP_ONE) && ODE_HAS_EVENT_JVP_ONE   /* (the gradient's non-zero terms only) */
        const ode_real a1 = h * ode_model_event_jvp(s, e, t + h, ynew, f1, ODE_R(1.0)) - d;
        const ode_real a0 = h * ode_model_event_jvp(s, e, t, y, f0, ODE_R(1.0)) - d;
        ode_real reach = ode_fmax(ode_fabs(a0), ode_fabs(a1));   /* 4 x the cubic's bound */
        ODE_UNROLL for (int r = 3; r < ODE_NF; r++)             /* the method's own rows (∇g at t) */
            reach += ODE_R(0.25) * ode_fabs(ode_model_event_jvp(s, e, t, y, D->F[r], ODE_R(0.0)));
#else
        ode_real gy[ODE_ALLOC(ODE_NSTATE)];
        const ode_real a1 = h * ode_event_rate(s, e, t + h, ynew, f1, gy) - d;
        const ode_real a0 = h * ode_event_rate(s, e, t, y, f0, gy) - d;
        ode_real reach = ode_fmax(ode_fabs(a0), ode_fabs(a1));   /* 4 x the cubic's bound */
        ODE_UNROLL for (int r = 3; r < ODE_NF; r++) {           /* the method's own rows (∇g at t) */
            ode_real gf = ODE_R(0.0);
            ODE_FOR_STATES(j) gf += gy[j] * D->F[r][j];
            reach += ODE_R(0.25) * ode_fabs(gf);
        }
#endif
        const ode_real tol = ode_event_tol(e);
        clear &= ode_fmin(g0[e], g1[e]) - reach > tol || ode_fmax(g0[e], g1[e]) + reach < -tol;
    }
    return clear;
}
#endif

/* ------------------------------------------------------------------ locating the crossing */

/* Illinois iteration (a secant whose stale end is halved) on the earliest
 * crossing in br, on the extension: *theta where the crossing event lands in
 * its zone; the result is the mask of events detected there.  Iteration
 * stops at rounding level at br's upper end. */
ODE_HD static ODE_INLINE ode_mask ode_locate_dense(const OdeSystem *s, const OdeDense *D, const OdeBracket *br,
                                                   ode_real *theta)
{
    ode_real lo = br->lo, hi = br->hi;
    ode_real glo[ODE_NEVENT], ghi[ODE_NEVENT], gc[ODE_NEVENT];
    ODE_FOR_EVENTS(e) { glo[e] = br->glo[e]; ghi[e] = br->ghi[e]; }
    int target = ode_earliest_jump(br->armed, br->glo, glo, ghi);
    if (target < 0) {                                 /* landed at the upper end: nothing to locate */
        *theta = hi;
        return ode_landed_mask(br->armed, br->glo, ghi);
    }
    ode_real wlo = ode_pick(glo, target), whi = ode_pick(ghi, target);   /* Illinois weights of the target */
    int kept = 0;                                     /* +1: hi kept last time, -1: lo kept */
    for (int iter = 0; iter < ODE_EVENT_MAXITER; iter++) {
        ode_real c;
        if (!ode_illinois_point(lo, hi, wlo, whi, &c)) break;   /* the bracket is at rounding level */
        ode_events_at(s, D, c, gc);
        int next = ode_earliest_jump(br->armed, br->glo, glo, gc);
        if (next >= 0) {                              /* still past a zone: new upper end */
            hi = c;
            ODE_FOR_EVENTS(e) ghi[e] = gc[e];
            if (next != target) { target = next; wlo = ode_pick(glo, target); kept = 0; }
            ode_illinois_moved_hi(&kept, &wlo);
            whi = ode_pick(ghi, target);
            continue;
        }
        ode_mask landed = ode_landed_mask(br->armed, br->glo, gc);
        if (landed) {
            *theta = c;
            return landed;
        }
        lo = c;                                       /* not there yet: new lower end */
        ODE_FOR_EVENTS(e) glo[e] = gc[e];
        wlo = ode_pick(glo, target);
        ode_illinois_moved_lo(&kept, &whi);
    }
    /* At rounding level (a condition that jumps): every event past or in its
     * zone at the upper end crossed there, not only the target. */
    *theta = hi;
    return ode_reached_mask(br->armed, br->glo, ghi);
}

/* The accepted step (t, y) → (t + h, ynew) with extension D and event values
 * gend at its end: finds the earliest crossing on the extension and, when
 * it lies inside the step, redoes the step with the method up to it.  On
 * return *hstep, ynew and gend describe the step as taken (shortened or
 * not), ar->armed the events armed before the detection, and the result is
 * the mask of events detected at its end.  *hidden becomes 1 where the step
 * ends at the last check point before a crossing that an event's zone hid
 * (events that accumulate: the system stops there, status zeno). */
ODE_HD static ODE_INLINE ode_mask ode_events_step(OdeSystem *s, ode_real t, const ode_real *y, ode_real *hstep,
                                                  ode_real *ynew, OdeStages *st, const OdeDense *D,
                                                  const ode_real *g0, ode_real *gend, OdeArming *ar, int *hidden,
                                                  OdeTrigStep *ts, unsigned long long *evals)
{
    OdeBracket br;
#if ODE_EVENT_BOUNDS
    if (ode_events_clear(s, t, *hstep, y, ynew, st, D, g0, gend)) {
        ar->armed |= ode_outside_mask(gend);          /* (every event stays outside its zone) */
        return 0;
    }
#endif
    ode_mask watch = 0;                               /* disarmed by a detection */
    ODE_FOR_EVENTS(e) if (!ODE_IS_EXACT(e) && s->count[e] > 0) watch |= ODE_BIT(e);
    const int found = ode_event_scan(s, D, g0, gend, ar, watch & ~ar->armed, &br);
    if (!found) return 0;
    if (found == 2) {                                 /* a crossing the zone hid: stop before it */
        *hidden = 1;
        *hstep *= br.lo;
        if (br.lo > ODE_R(0.0)) {
            ode_real err[ODE_ALLOC(ODE_NSTATE)];
            ode_trial(s, t, *hstep, y, 1, st, ynew, err, ts);
            *evals += ODE_TRIAL_EVALS(1);
            ode_model_events(s, t + *hstep, ynew, gend);
        } else {
            ODE_FOR_STATES(i) ynew[i] = y[i];
            ODE_FOR_EVENTS(e) gend[e] = g0[e];
        }
        return 0;
    }
    ode_real theta;
    const ode_mask located = ode_locate_dense(s, D, &br, &theta);
    if (theta >= ODE_R(1.0)) return located;          /* at the step's end: nothing to redo */
    /* Steps of the method from (t, y): first to the located time; should
     * that one not end in the zone (the extension was off by more than tol),
     * the Illinois iteration goes on with steps between the nearest times
     * short of and past the zone.  Past it is the step's end when that is,
     * else (two crossings in one step) the located bracket's end. */
    const ode_real h = *hstep;
    ode_real lo = br.lo * h, hi = h, glo[ODE_NEVENT], ghi[ODE_NEVENT];
    ode_real yhi[ODE_ALLOC(ODE_NSTATE)], yfirst[ODE_ALLOC(ODE_NSTATE)], gfirst[ODE_NEVENT];
    ODE_FOR_EVENTS(e) { glo[e] = br.glo[e]; ghi[e] = gend[e]; }
#if ODE_NOISE
    /* With noise the trials follow the Brownian bridge (noise.h), not the
     * chord the crossing was located on: the bracket starts at the step's
     * start, where every armed event is outside its zone. */
    lo = ODE_R(0.0);
    ODE_FOR_EVENTS(e) glo[e] = g0[e];
#endif
    ODE_FOR_STATES(i) yhi[i] = ynew[i];
    int past = ode_earliest_jump(br.armed, br.glo, br.glo, gend) >= 0;   /* hi lies past the zone */
    int phase = 0;                                    /* 0: the located time, 1: the bracket's end, 2: Illinois */
    int target = 0, kept = 0;
    ode_real wlo = ODE_R(0.0), whi = ODE_R(0.0), hc = theta * h;
    for (int iter = 0; iter < ODE_EVENT_MAXITER; iter++) {
        ode_real yc[ODE_ALLOC(ODE_NSTATE)], err[ODE_ALLOC(ODE_NSTATE)], gc[ODE_NEVENT];
        ode_trial(s, t, hc, y, 1, st, yc, err, ts);
        *evals += ODE_TRIAL_EVALS(1);
        int finite = 1;
        ODE_FOR_STATES(i) finite &= ode_finite(yc[i]);
        if (!finite) break;
        ode_model_events(s, t + hc, yc, gc);
        if (phase == 0) {
            ODE_FOR_STATES(i) yfirst[i] = yc[i];
            ODE_FOR_EVENTS(e) gfirst[e] = gc[e];
        }
        const int next = ode_earliest_jump(br.armed, br.glo, glo, gc);
        if (next >= 0) {                              /* past a zone: new upper end */
            hi = hc;
            ODE_FOR_EVENTS(e) ghi[e] = gc[e];
            ODE_FOR_STATES(i) yhi[i] = yc[i];
            if (phase < 2 || next != target) { target = next; wlo = ode_pick(glo, target); kept = 0; }
            ode_illinois_moved_hi(&kept, &wlo);
            whi = ode_pick(ghi, target);
            past = 1;
        } else {
            const ode_mask landed = ode_landed_mask(br.armed, br.glo, gc);
            if (landed) {                             /* in the zone: the step ends here */
                *hstep = hc;
                ODE_FOR_STATES(i) ynew[i] = yc[i];
                ODE_FOR_EVENTS(e) gend[e] = gc[e];
                return landed;
            }
            lo = hc;                                  /* short of the zone: new lower end */
            ODE_FOR_EVENTS(e) glo[e] = gc[e];
            if (phase == 2) {
                wlo = ode_pick(glo, target);
                ode_illinois_moved_lo(&kept, &whi);
            }
        }
        if (!past && phase == 0 && br.hi < ODE_R(1.0)) {
            hc = br.hi * h;                           /* try the bracket's end as the upper end */
            phase = 1;
            continue;
        }
        if (!past) {
            /* The method's steps see no crossing where the extension saw one
             * (a graze within the integration error): detected at the
             * located time nonetheless. */
            *hstep = theta * h;
            ODE_FOR_STATES(i) ynew[i] = yfirst[i];
            ODE_FOR_EVENTS(e) gend[e] = gfirst[e];
            return located;
        }
        if (phase < 2) {
            phase = 2;
            target = ode_earliest_jump(br.armed, br.glo, glo, ghi);
            wlo = ode_pick(glo, target);
            whi = ode_pick(ghi, target);
            kept = 0;
        }
        if (!ode_illinois_point(lo, hi, wlo, whi, &hc)) break;   /* the bracket is at rounding level */
    }
    /* Pinned to rounding level (or a step failed): detected at the upper end
     * of the bracket, or at the step's end as it stands. */
    if (past) {
        *hstep = hi;
        ODE_FOR_STATES(i) ynew[i] = yhi[i];
        ODE_FOR_EVENTS(e) gend[e] = ghi[e];
        return ode_reached_mask(br.armed, br.glo, ghi);
    }
    return located;
}

#endif /* ODE_NEVENT > 0 && !ODE_LOOP_FORM */

#endif /* ODE_EVENTS_H */
