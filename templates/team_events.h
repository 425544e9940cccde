/* team_events.h — event detection and location by a team (a model in loop
 * form): events.h's algorithm, decision by decision, with the events spread
 * over the lanes.
 *
 * The event functions are the model's loop-form ode_model_events_team; every
 * event's values and flags live in team memory (ODE_TEV_…, ODE_TEI_…), each
 * event handled by lane e % size where one event at a time is looked at.
 * Where events.h takes the first event (in index order) of a kind, the team
 * takes the same one by reductions (the earliest crossing: the smallest
 * secant estimate, then the smallest index among equal ones), so that a team
 * detects the same events at the same times as one thread; every decision is
 * a reduction's result, the same in every lane.  Unlike events.h, the count
 * of events is not limited to 64 (no bit masks): a ring of 128 units may have
 * an event per unit.
 *
 * The bound that spares a step the scan (events.h: a step nothing can cross)
 * uses the model's ode_model_events_jvp_team, the event functions'
 * derivatives along a direction (ODE_HAS_EVENT_JVP); without it every step
 * is scanned, with the same results.
 */
#ifndef ODE_TEAM_EVENTS_H
#define ODE_TEAM_EVENTS_H

#ifndef ODEGEN_GENERATED
#include "event_rules.h"
#include "team_dense.h"
#endif

#if ODE_LOOP_FORM && ODE_NEVENT > 0

/* Event value arrays in team memory (ODE_TEV_N of them, team_system.h). */
enum {
    ODE_TEV_G = 0,        /* values at the current point */
    ODE_TEV_GN,           /* at the step's end */
    ODE_TEV_GA, ODE_TEV_GB,   /* the scan's check points a and b */
    ODE_TEV_GC,           /* a point looked at (location, extremum search, a redone step) */
    ODE_TEV_GD,           /* a point 2^-20 of the step further (slopes) */
    ODE_TEV_SA, ODE_TEV_SB, ODE_TEV_SX,   /* slopes at a, at b, at a point */
    ODE_TEV_LEVEL,        /* the level an extremum must reach to hide a crossing */
    ODE_TEV_BLO, ODE_TEV_BHI, /* the bracket's ends (OdeBracket's glo, ghi) */
    ODE_TEV_LO, ODE_TEV_HI,   /* the location's ends as it narrows them */
    ODE_TEV_GFIRST,       /* the first redone step's values */
    ODE_TEV_GV0, ODE_TEV_GV1, ODE_TEV_REACH   /* the bound: slopes at both ends, reach */
};
/* Event int arrays (ODE_TEI_N). */
enum { ODE_TEI_ARMED = 0, ODE_TEI_ZONE, ODE_TEI_KIND, ODE_TEI_FIRED, ODE_TEI_LANDED, ODE_TEI_SMOOTH, ODE_TEI_SPARE1, ODE_TEI_SPARE2 };

#define ODE_TEV(c, k) (ODE_TW(c, EV) + (k) * ODE_NEVENT)
#define ODE_TEI(c, k) ((c)->iw + ODE_TI_EV + (k) * ODE_NEVENT)
#define ODE_FOR_MY_EVENTS(e) ODE_TEAM_FOR(e, ODE_NEVENT)

/* events.h's ode_pick: element k, and element 0 for k < 0. */
#define ode_team_pick(a, k) ((a)[(k) < 0 ? 0 : (k)])

/* The event functions at (t, y), y in team memory, into g (team memory):
 * the model's function between two barriers. */
ODE_HD static ODE_INLINE void ode_team_events_eval(OdeTeamCtx *c, ode_real t, const ode_real *y, ode_real *g)
{
    const OdeTeam ode_team = c->team;
    ODE_TEAM_SYNC();
    ode_model_events_team(c->s, t, y, g, ODE_TW(c, SCRATCH), ode_team);
    ODE_TEAM_SYNC();
}

/* Event values at θ of the extension. */
ODE_HD static ODE_INLINE void ode_team_events_at(OdeTeamCtx *c, const OdeTeamDense *D, ode_real theta, ode_real *g)
{
    ode_team_dense_eval(c, D, theta, ODE_TW(c, YT));
    ode_team_events_eval(c, D->t + theta * D->h, ODE_TW(c, YT), g);
}

/* events.h's ode_earliest_jump over the team: among the armed events that
 * jumped from gp to ghi, the smallest secant estimate between glo and ghi
 * below 2, the smallest index among equal ones; -1 when none. */
ODE_HD static ODE_INLINE int ode_team_earliest_jump(OdeTeamCtx *c, const ode_real *gp, const ode_real *glo,
                                                    const ode_real *ghi)
{
    const OdeTeam ode_team = c->team;
    const int *const armed = ODE_TEI(c, ODE_TEI_ARMED);
    int target = -1;
    ode_real best = ODE_R(2.0);
    ODE_FOR_MY_EVENTS(e) {
        if (armed[e] && ode_event_jumped(e, gp[e], ghi[e])) {
            ode_real frac = glo[e] / (glo[e] - ghi[e]);
            if (frac < best) { best = frac; target = e; }
        }
    }
    const ode_real top = ode_team_min(ode_team, best);
    const ode_real mine = target >= 0 && best == top ? (ode_real)target : (ode_real)ODE_NEVENT;
    const ode_real first = ode_team_min(ode_team, mine);
    return first < (ode_real)ODE_NEVENT ? (int)first : -1;
}

/* events.h's ode_landed_mask: the armed events that came from gp into their
 * zone at g, as flags (ODE_TEI_LANDED); whether there is one. */
ODE_HD static ODE_INLINE int ode_team_landed(OdeTeamCtx *c, const ode_real *gp, const ode_real *g)
{
    const OdeTeam ode_team = c->team;
    const int *const armed = ODE_TEI(c, ODE_TEI_ARMED);
    int *const landed = ODE_TEI(c, ODE_TEI_LANDED);
    int any = 0;
    ODE_FOR_MY_EVENTS(e) {
        landed[e] = armed[e] && ode_event_landed(e, gp[e], g[e]);
        any |= landed[e];
    }
    return ode_team_any(ode_team, any);
}

/* events.h's ode_reached_mask, into ODE_TEI_FIRED: every armed event that
 * went from gp past its zone or into it at g (a bracket closed at rounding
 * level, g its upper end: a condition that jumps, several events on one
 * condition). */
ODE_HD static ODE_INLINE void ode_team_fire_reached(OdeTeamCtx *c, const ode_real *gp, const ode_real *g)
{
    const OdeTeam ode_team = c->team;
    const int *const armed = ODE_TEI(c, ODE_TEI_ARMED);
    int *const fired = ODE_TEI(c, ODE_TEI_FIRED);
    ODE_FOR_MY_EVENTS(e) fired[e] = armed[e] && (ode_event_jumped(e, gp[e], g[e]) || ode_event_landed(e, gp[e], g[e]));
}

/* The events whose zone g lies outside are armed from there on. */
ODE_HD static ODE_INLINE void ode_team_arm_outside(OdeTeamCtx *c, const ode_real *g)
{
    const OdeTeam ode_team = c->team;
    int *const armed = ODE_TEI(c, ODE_TEI_ARMED);
    ODE_FOR_MY_EVENTS(e) armed[e] |= ode_fabs(g[e]) > ode_event_tol(e);
}

/* The detected events' flags (ODE_TEI_FIRED): those of `from`, or only `target`. */
ODE_HD static ODE_INLINE void ode_team_fire(OdeTeamCtx *c, const int *from, int target)
{
    const OdeTeam ode_team = c->team;
    int *const fired = ODE_TEI(c, ODE_TEI_FIRED);
    ODE_FOR_MY_EVENTS(e) fired[e] = from ? from[e] : e == target;
}

/* ------------------------------------------------------------------ scanning a step */

/* events.h's OdeBracket: its values are ODE_TEV_BLO and ODE_TEV_BHI, the
 * events armed at lo are ODE_TEI_ARMED (the scan leaves the events armed as
 * at its bracket's lower end, as events.h's does). */
typedef struct OdeTeamBracket {
    ode_real lo, hi;
} OdeTeamBracket;

/* events.h's ode_event_slopes: the slopes dg/dθ at θ (g there) into slope. */
ODE_HD static ODE_INLINE void ode_team_event_slopes(OdeTeamCtx *c, const OdeTeamDense *D, ode_real theta,
                                                    const ode_real *g, ode_real *slope)
{
    const OdeTeam ode_team = c->team;
    const ode_real d = ode_slope_step(theta);
    ode_real *const gd = ODE_TEV(c, ODE_TEV_GD);
    ode_team_events_at(c, D, theta + d, gd);
    ODE_FOR_MY_EVENTS(e) slope[e] = (gd[e] - g[e]) / d;
}

/* events.h's ode_find_beyond: golden-section search on (a, b) for a point
 * where event e goes beyond `level`. */
ODE_HD static ODE_INLINE int ode_team_find_beyond(OdeTeamCtx *c, const OdeTeamDense *D, int e, int kind, ode_real level,
                                                  ode_real a, ode_real b, ode_real *theta)
{
    const ode_real target = kind * level;
    const ode_real *const g = ODE_TEV(c, ODE_TEV_GC);
    OdeGolden q;
    ode_golden_start(&q, a, b);
    for (int it = 0; it < ODE_EXTREMUM_MAXITER; it++) {
        const ode_real x = ode_golden_point(&q);
        ode_team_events_at(c, D, x, ODE_TEV(c, ODE_TEV_GC));
        const ode_real f = kind * g[e];
        if (f > target) {
            *theta = x;
            return 1;
        }
        ode_golden_next(&q, f);
    }
    return 0;
}

/* events.h's ode_event_scan: checks the accepted step's extension D (values
 * g0 at its start, gend at its end).  Returns 1 and fills *br when an event
 * crosses, else 0. */
ODE_HD static ODE_INLINE int ode_team_event_scan(OdeTeamCtx *c, const OdeTeamDense *D, const ode_real *g0,
                                                 const ode_real *gend, OdeTeamBracket *br)
{
    const OdeTeam ode_team = c->team;
    ode_real *const ga = ODE_TEV(c, ODE_TEV_GA), *const gb = ODE_TEV(c, ODE_TEV_GB);
    ode_real *const sa = ODE_TEV(c, ODE_TEV_SA), *const sb = ODE_TEV(c, ODE_TEV_SB);
    ode_real *const sx = ODE_TEV(c, ODE_TEV_SX), *const level = ODE_TEV(c, ODE_TEV_LEVEL);
    int *const kind = ODE_TEI(c, ODE_TEI_KIND);
    ODE_FOR_MY_EVENTS(e) {
        ga[e] = g0[e];
        sa[e] = sb[e] = ODE_R(0.0);
    }
    ode_real a = ODE_R(0.0), split = ODE_R(2.0);
    int have_sa = 0, splits = 0, k = 1;
    while (k <= ODE_OPT_EVPOINTS + 1) {
        int at_split;
        const ode_real b = ode_check_point(k, split, &at_split);
        if (b < ODE_R(1.0)) ode_team_events_at(c, D, b, gb);
        else ODE_FOR_MY_EVENTS(e) gb[e] = gend[e];
        split = ODE_R(2.0);
        int have_sb = 0;
        if (!at_split && splits < ODE_EXTREMUM_SPLITS) {
            int look = 0;
            ODE_FOR_MY_EVENTS(e) {
                kind[e] = ode_hidden_kind(e, ga[e], gb[e], &level[e]);
                look |= kind[e] != 0;
            }
            if (ode_team_any(ode_team, look)) {
                for (int end = have_sa; end < 2; end++) {   /* the slopes at a (unless known) and at b */
                    ode_team_event_slopes(c, D, end ? b : a, end ? gb : ga, sx);
                    ODE_FOR_MY_EVENTS(e) {
                        sa[e] = end ? sa[e] : sx[e];
                        sb[e] = end ? sx[e] : sb[e];
                    }
                }
                have_sa = have_sb = 1;
                ODE_TEAM_SYNC();                      /* every event's slopes, for every lane */
                ode_real first = b;
                for (int e = 0; e < ODE_NEVENT; e++) {   /* in index order, as events.h */
                    ode_real at;
                    if (ode_extremum_between(kind[e], sa[e], sb[e]) &&
                        ode_team_find_beyond(c, D, e, kind[e], level[e], a, first, &at))
                        first = at;
                }
                if (first < b) {
                    split = first;
                    splits++;
                    continue;
                }
            }
        }
        int crossed = ode_team_earliest_jump(c, ga, ga, gb) >= 0;
        if (!crossed) crossed = ode_team_landed(c, ga, gb);
        if (crossed) {
            br->lo = a;
            br->hi = b;
            ODE_FOR_MY_EVENTS(e) {
                ODE_TEV(c, ODE_TEV_BLO)[e] = ga[e];
                ODE_TEV(c, ODE_TEV_BHI)[e] = gb[e];
            }
            ODE_TEAM_SYNC();
            return 1;
        }
        ode_team_arm_outside(c, gb);
        a = b;
        ODE_FOR_MY_EVENTS(e) {
            ga[e] = gb[e];
            sa[e] = sb[e];
        }
        have_sa = have_sb;
        if (!at_split) k++;
    }
    ODE_TEAM_SYNC();
    return 0;
}

/* ------------------------------------------------------------------ a step that nothing can cross */
#if !defined(ODE_HAS_EVENT_JVP) && defined(ODE_HAS_EVENT_GRAD) && ODE_HAS_EVENT_GRAD
/* A model written out and run by a team: the events' derivatives along v
 * from their gradients (ode_model_event_grad), each event by one lane, in
 * events.h's order of terms (dg/dt, then the states in order). */
ODE_HD static ODE_INLINE void ode_model_events_jvp_team(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                        const ode_real *ode_v, ode_real ode_vt, ode_real *ode_gv,
                                                        ode_real *ode_scratch, OdeTeam ode_team)
{
    (void)ode_scratch;
#if defined(ODE_HAS_EVENT_JVP_ONE) && ODE_HAS_EVENT_JVP_ONE   /* (the non-zero terms only: no n values per event) */
    ODE_TEAM_FOR(e, ODE_NEVENT) ode_gv[e] = ode_model_event_jvp(ode_s, e, t, ode_y, ode_v, ode_vt);
#else
    ODE_TEAM_FOR(e, ODE_NEVENT) {
        ode_real gy[ODE_ALLOC(ODE_NSTATE)], gt;
        ode_model_event_grad(ode_s, e, t, ode_y, gy, &gt);
        gt *= ode_vt;
        ODE_UNROLL for (int j = 0; j < ODE_NSTATE; j++) gt += gy[j] * ode_v[j];
        ode_gv[e] = gt;
    }
#endif
}
#define ODE_HAS_EVENT_JVP 1
#endif
#ifndef ODE_HAS_EVENT_JVP
#define ODE_HAS_EVENT_JVP 0
#endif
#ifndef ODE_TEAM_EVENT_BOUNDS   /* (-DODE_TEAM_EVENT_BOUNDS=0: every step scanned, for measuring) */
#define ODE_TEAM_EVENT_BOUNDS (ODE_HAS_EVENT_JVP && !ODE_ROSENBROCK)
#endif

#if ODE_TEAM_EVENT_BOUNDS
/* The event functions' derivatives along v (team memory) at (t, y): the
 * model's function between two barriers. */
ODE_HD static ODE_INLINE void ode_team_events_jvp(OdeTeamCtx *c, ode_real t, const ode_real *y, const ode_real *v,
                                                  ode_real vt, ode_real *gv)
{
    const OdeTeam ode_team = c->team;
    ODE_TEAM_SYNC();
    ode_model_events_jvp_team(c->s, t, y, v, vt, gv, ODE_TW(c, SCRATCH), ode_team);
    ODE_TEAM_SYNC();
}

/* events.h's ode_events_clear: 1 when no event can cross or enter its zone
 * in the accepted step (t, y) → (t + h, ynew) (the lane's share of ynew),
 * with stages st, extension D and event values g0, g1 at its ends. */
ODE_HD static ODE_INLINE int ode_team_events_clear(OdeTeamCtx *c, ode_real t, ode_real h, const ode_real *ynew,
                                                   const OdeTeamStages *st, const OdeTeamDense *D, const ode_real *g0,
                                                   const ode_real *g1)
{
    const OdeTeam ode_team = c->team;
    int smooth = 1;                                    /* (a property of the model: every lane alike) */
    for (int e = 0; e < ODE_NEVENT; e++) smooth &= ode_event_smooth(e);
    if (!smooth) return 0;
    ode_real *const gv0 = ODE_TEV(c, ODE_TEV_GV0), *const gv1 = ODE_TEV(c, ODE_TEV_GV1);
    ode_real *const reach = ODE_TEV(c, ODE_TEV_REACH);
    ode_real *const point = ODE_TW(c, YT), *const dir = ODE_TW(c, DY);
    ode_team_put(c, ynew, point);                       /* g's rate at the end: along f1 */
    ode_team_put(c, st->k[ODE_KEND], dir);
    ode_team_events_jvp(c, t + h, point, dir, ODE_R(1.0), gv1);
    ode_team_put(c, st->k[0], dir);                     /* at the start: along f0 */
    ode_team_events_jvp(c, t, ODE_TW(c, Y), dir, ODE_R(1.0), gv0);
    ODE_FOR_MY_EVENTS(e) {
        const ode_real d = g1[e] - g0[e];
        reach[e] = ode_fmax(ode_fabs(h * gv0[e] - d), ode_fabs(h * gv1[e] - d));   /* 4 x the cubic's bound */
    }
    ODE_UNROLL for (int r = 3; r < ODE_NF; r++) {      /* the method's own rows (∇g at t) */
        ode_team_put(c, D->F[r], dir);
        ode_team_events_jvp(c, t, ODE_TW(c, Y), dir, ODE_R(0.0), gv1);
        ODE_FOR_MY_EVENTS(e) reach[e] += ODE_R(0.25) * ode_fabs(gv1[e]);
    }
    int clear = 1;
    ODE_FOR_MY_EVENTS(e) {
        const ode_real tol = ode_event_tol(e);
        clear &= ode_fmin(g0[e], g1[e]) - reach[e] > tol || ode_fmax(g0[e], g1[e]) + reach[e] < -tol;
    }
    return ode_team_all(ode_team, clear);
}
#endif

/* ------------------------------------------------------------------ locating the crossing */

/* events.h's ode_locate_dense: the Illinois iteration on the earliest
 * crossing in br, on the extension; *theta where it lands in its zone.  The
 * events detected there: ODE_TEI_FIRED; the result: whether there is one. */
ODE_HD static ODE_INLINE int ode_team_locate_dense(OdeTeamCtx *c, const OdeTeamDense *D, const OdeTeamBracket *br,
                                                   ode_real *theta)
{
    const OdeTeam ode_team = c->team;
    const ode_real *const blo = ODE_TEV(c, ODE_TEV_BLO), *const bhi = ODE_TEV(c, ODE_TEV_BHI);
    ode_real *const glo = ODE_TEV(c, ODE_TEV_LO), *const ghi = ODE_TEV(c, ODE_TEV_HI);
    ode_real *const gc = ODE_TEV(c, ODE_TEV_GC);
    ode_real lo = br->lo, hi = br->hi;
    ODE_FOR_MY_EVENTS(e) {
        glo[e] = blo[e];
        ghi[e] = bhi[e];
    }
    int target = ode_team_earliest_jump(c, blo, glo, ghi);
    if (target < 0) {
        *theta = hi;
        const int any = ode_team_landed(c, blo, ghi);
        ode_team_fire(c, ODE_TEI(c, ODE_TEI_LANDED), -1);
        return any;
    }
    ode_real wlo = ode_team_pick(glo, target), whi = ode_team_pick(ghi, target);
    int kept = 0;
    for (int iter = 0; iter < ODE_EVENT_MAXITER; iter++) {
        ode_real x;
        if (!ode_illinois_point(lo, hi, wlo, whi, &x)) break;
        ode_team_events_at(c, D, x, gc);
        int next = ode_team_earliest_jump(c, blo, glo, gc);
        if (next >= 0) {
            hi = x;
            ODE_FOR_MY_EVENTS(e) ghi[e] = gc[e];
            ODE_TEAM_SYNC();
            if (next != target) { target = next; wlo = ode_team_pick(glo, target); kept = 0; }
            ode_illinois_moved_hi(&kept, &wlo);
            whi = ode_team_pick(ghi, target);
            continue;
        }
        if (ode_team_landed(c, blo, gc)) {
            *theta = x;
            ode_team_fire(c, ODE_TEI(c, ODE_TEI_LANDED), -1);
            return 1;
        }
        lo = x;
        ODE_FOR_MY_EVENTS(e) glo[e] = gc[e];
        ODE_TEAM_SYNC();
        wlo = ode_team_pick(glo, target);
        ode_illinois_moved_lo(&kept, &whi);
    }
    *theta = hi;
    ode_team_fire_reached(c, blo, ghi);
    return 1;
}

/* events.h's ode_events_step: the accepted step (t, y) → (t + h, ynew) with
 * extension D and event values g0 at its start, gend at its end.  Finds the
 * earliest crossing on the extension and, when it lies inside the step,
 * redoes the step with the method up to it.  On return *hstep, ynew (the
 * lane's share) and gend describe the step as taken, ODE_TEI_ARMED the events
 * armed before the detection, ODE_TEI_FIRED the events detected at its end;
 * the result: whether there is one. */
ODE_HD static ODE_INLINE int ode_team_events_step(OdeTeamCtx *c, ode_real t, ode_real *hstep, ode_real *ynew,
                                                  OdeTeamStages *st, const OdeTeamDense *D, const ode_real *g0,
                                                  ode_real *gend, OdeTrigStep *ts, unsigned long long *evals)
{
    const OdeTeam ode_team = c->team;
    OdeTeamBracket br;
#if ODE_TEAM_EVENT_BOUNDS
    if (ode_team_events_clear(c, t, *hstep, ynew, st, D, g0, gend)) {
        ode_team_arm_outside(c, gend);
        return 0;
    }
#endif
    if (!ode_team_event_scan(c, D, g0, gend, &br)) return 0;
    ode_real theta;
    const int located = ode_team_locate_dense(c, D, &br, &theta);
    if (theta >= ODE_R(1.0)) return located;
    /* Steps of the method from (t, y): first to the located time, then (should
     * that one not end in the zone) the Illinois iteration with steps. */
    const ode_real *const blo = ODE_TEV(c, ODE_TEV_BLO);
    ode_real *const glo = ODE_TEV(c, ODE_TEV_LO), *const ghi = ODE_TEV(c, ODE_TEV_HI);
    ode_real *const gc = ODE_TEV(c, ODE_TEV_GC), *const gfirst = ODE_TEV(c, ODE_TEV_GFIRST);
    const ode_real h = *hstep;
    ode_real lo = br.lo * h, hi = h;
    ode_real yhi[ODE_TEAM_SLOTS], yfirst[ODE_TEAM_SLOTS];
    ODE_FOR_MY_EVENTS(e) {
        glo[e] = blo[e];
        ghi[e] = gend[e];
    }
    ODE_FOR_MINE(m, i) yhi[m] = ynew[m];
    int past = ode_team_earliest_jump(c, blo, blo, gend) >= 0;
    int phase = 0;
    int target = 0, kept = 0;
    ode_real wlo = ODE_R(0.0), whi = ODE_R(0.0), hc = theta * h;
    for (int iter = 0; iter < ODE_EVENT_MAXITER; iter++) {
        ode_real yc[ODE_TEAM_SLOTS], err[ODE_TEAM_SLOTS];
        ode_team_trial(c, t, hc, 1, st, yc, err, ts);
        *evals += ODE_TRIAL_EVALS(1);
        int finite = 1;
        ODE_FOR_MINE(m, i) finite &= ode_finite(yc[m]);
        if (!ode_team_all(ode_team, finite)) break;
        ode_team_put(c, yc, ODE_TW(c, YT));
        ode_team_events_eval(c, t + hc, ODE_TW(c, YT), gc);
        if (phase == 0) {
            ODE_FOR_MINE(m, i) yfirst[m] = yc[m];
            ODE_FOR_MY_EVENTS(e) gfirst[e] = gc[e];
        }
        const int next = ode_team_earliest_jump(c, blo, glo, gc);
        if (next >= 0) {
            hi = hc;
            ODE_FOR_MY_EVENTS(e) ghi[e] = gc[e];
            ODE_FOR_MINE(m, i) yhi[m] = yc[m];
            ODE_TEAM_SYNC();
            if (phase < 2 || next != target) { target = next; wlo = ode_team_pick(glo, target); kept = 0; }
            ode_illinois_moved_hi(&kept, &wlo);
            whi = ode_team_pick(ghi, target);
            past = 1;
        } else {
            if (ode_team_landed(c, blo, gc)) {
                *hstep = hc;
                ODE_FOR_MINE(m, i) ynew[m] = yc[m];
                ODE_FOR_MY_EVENTS(e) gend[e] = gc[e];
                ode_team_fire(c, ODE_TEI(c, ODE_TEI_LANDED), -1);
                ODE_TEAM_SYNC();
                return 1;
            }
            lo = hc;
            ODE_FOR_MY_EVENTS(e) glo[e] = gc[e];
            ODE_TEAM_SYNC();
            if (phase == 2) {
                wlo = ode_team_pick(glo, target);
                ode_illinois_moved_lo(&kept, &whi);
            }
        }
        if (!past && phase == 0 && br.hi < ODE_R(1.0)) {
            hc = br.hi * h;
            phase = 1;
            continue;
        }
        if (!past) {
            *hstep = theta * h;
            ODE_FOR_MINE(m, i) ynew[m] = yfirst[m];
            ODE_FOR_MY_EVENTS(e) gend[e] = gfirst[e];
            ODE_TEAM_SYNC();
            return located;
        }
        if (phase < 2) {
            phase = 2;
            target = ode_team_earliest_jump(c, blo, glo, ghi);
            wlo = ode_team_pick(glo, target);
            whi = ode_team_pick(ghi, target);
            kept = 0;
        }
        if (!ode_illinois_point(lo, hi, wlo, whi, &hc)) break;
    }
    if (past) {
        *hstep = hi;
        ODE_FOR_MINE(m, i) ynew[m] = yhi[m];
        ODE_FOR_MY_EVENTS(e) gend[e] = ghi[e];
        ode_team_fire_reached(c, blo, ghi);
        ODE_TEAM_SYNC();
        return 1;
    }
    return located;
}

#endif /* ODE_LOOP_FORM && ODE_NEVENT > 0 */

#endif /* ODE_TEAM_EVENTS_H */
