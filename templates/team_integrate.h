/* team_integrate.h — one integration of one system by a team (a model in
 * loop form): integrate.h's integration, step for step — step-size control
 * (integrate.h's ode_step_factor), the fixed-step methods' checked fast
 * path, events (team_events.h), `save` samples (team_save.h), the hooks and
 * the statuses — with every vector shared among the lanes.
 *
 * The lanes keep the integration's scalars (t, h, the counters, the status)
 * in registers, each computing them alike from reductions' results; the
 * leader (lane 0) alone runs what is one system's (the hooks, the event
 * statements) and writes the OdeSystem that the team shares, between
 * barriers.
 */
#ifndef ODE_TEAM_INTEGRATE_H
#define ODE_TEAM_INTEGRATE_H

#ifndef ODEGEN_GENERATED
#include "integrate.h"
#include "team_stepper.h"
#include "team_dense.h"
#include "team_events.h"
#include "team_save.h"
#endif

#if ODE_LOOP_FORM

/* The leader's part: `stmt` by lane 0 between two barriers (it reads what
 * the lanes wrote; they read what it writes). */
#define ODE_TEAM_LEADER_DO(stmt)                                                                    \
    do {                                                                                            \
        ODE_TEAM_SYNC();                                                                            \
        if (ODE_TEAM_LEADER) { stmt; }                                                              \
        ODE_TEAM_SYNC();                                                                            \
    } while (0)

/* Whether every state of the lane's share of y lies within ±bound (a NaN
 * fails it too). */
ODE_HD static ODE_INLINE int ode_team_inside(OdeTeamCtx *c, const OdeOptions *ode_opt, const ode_real *y)
{
    const OdeTeam ode_team = c->team;
    int inside = 1;
    ODE_FOR_MINE(m, i) inside &= ode_fabs(y[m]) <= ODE_OPT_BOUND;
    (void)ode_opt;
    return ode_team_all(ode_team, inside);
}

/* Integrates the team's system from s->t0 to s->t1 (or to a stop) with the
 * run-time options ode_opt and leaves its status (integrate.h:
 * ode_integrate_sampled). */
ODE_HD static ODE_INLINE void ode_team_integrate_sampled(OdeTeamCtx *c, const OdeOptions *ode_opt, OdeSaveSink sink)
{
    const OdeTeam ode_team = c->team;
    OdeSystem *const s = c->s;
    ode_real *const y = ODE_TW(c, Y);
    (void)sink;
    (void)ode_opt;
    ODE_TEAM_FOR(e, ODE_NEVENT) s->count[e] = 0;
    ODE_TEAM_LEADER_DO(s->status = ODE_STATUS_RUNNING; s->t = s->t0);
#if ODE_HAS_ON_START
    ODE_TEAM_LEADER_DO(ode_model_on_start(s); s->t = s->t0);
#endif
    int status = ODE_STATUS_RUNNING;
    ode_real t = s->t;
    unsigned long long evals = s->evals;
    const ode_real t1 = s->t1;
    ode_real h = ODE_OPT_DT;
    const ode_real clip = ODE_R(1.0) + ODE_R(64.0) * ODE_EPS;
#if ODE_ADAPTIVE
    const ode_real dtmin = ODE_OPT_DTMIN, dtmax = ODE_OPT_DTMAX;
    h = ode_fmin(ode_fmax(h, dtmin), dtmax);
    ode_real ln_prev = ODE_R(-9.210340371976184);
    int rejected = 0;
#else
    int whole = 0;
#endif
    ode_count nstep = 0;
    OdeTrigStep ts;
    ode_trig_step_init(&ts);
    OdeTeamStages st;
    int have_f = 0;
#if ODE_NEVENT > 0
    ode_real *const g = ODE_TEV(c, ODE_TEV_G), *const gn = ODE_TEV(c, ODE_TEV_GN);
    int *const armed = ODE_TEI(c, ODE_TEI_ARMED), *const zone = ODE_TEI(c, ODE_TEI_ZONE);
    int *const fired_e = ODE_TEI(c, ODE_TEI_FIRED);
    ode_team_events_eval(c, t, y, g);
    ODE_FOR_MY_EVENTS(e) {
        zone[e] = 0;
        armed[e] = ode_fabs(g[e]) > ode_event_tol(e);   /* starting inside: not detected */
    }
#endif
#if ODE_SAVE
    const ode_real save_t0 = s->t0;
    unsigned int nsample = 0, last_sample = 0;
    if (sink.slot >= 0) {
        last_sample = ode_save_last(save_t0, t1, sink.a->save_every);
        ode_team_save_put(c, sink, 0, t, y);
        nsample = 1;
    }
#endif
    while (status == ODE_STATUS_RUNNING) {
        ode_real hs = h;
        int last = 0;
#if ODE_ADAPTIVE
        if (!ode_plan_step(t, t1, h, clip, &hs, &last, 0)) {
            status = ODE_STATUS_FINISHED;
            break;
        }
#else
#if ODE_FAST
        if (whole >= ODE_FAST_BLOCK && nstep + ODE_FAST_BLOCK < ODE_OPT_MAXSTEPS) {
            ode_real ysave[ODE_TEAM_SLOTS];
            const ode_real tsave = t;
            int inside = 1;
            ODE_FOR_MINE(m, i) ysave[m] = y[i];
            for (int k = 0; k < ODE_FAST_BLOCK; k++) {
                ode_real yb[ODE_TEAM_SLOTS], unused[ODE_TEAM_SLOTS];
                ode_team_trial(c, t, h, 0, &st, yb, unused, &ts);
                ODE_FOR_MINE(m, i) {
                    inside &= ode_fabs(yb[m]) <= ODE_OPT_BOUND;
                    y[i] = yb[m];
                }
                t += h;
            }
            if (ode_team_all(ode_team, inside)) {
                whole -= ODE_FAST_BLOCK;
                nstep += ODE_FAST_BLOCK;
                evals += ODE_FAST_BLOCK * ODE_TRIAL_EVALS(0);
                continue;
            }
            t = tsave;                      /* undo: the steps below find where it failed */
            ODE_FOR_MINE(m, i) y[i] = ysave[m];
        }
#endif
        if (whole > 0) {
            whole--;
        } else if (!ode_plan_step(t, t1, h, clip, &hs, &last, &whole)) {
            status = ODE_STATUS_FINISHED;
            break;
        }
#endif
        ode_real ynew[ODE_TEAM_SLOTS], err[ODE_TEAM_SLOTS];
        ode_real hnext = h;
        if (!ODE_CARRY) have_f = 0;
#if ODE_ADAPTIVE
        {
            const ode_real hmin = ode_fmax(dtmin, ODE_R(4.0) * ODE_EPS * ode_fabs(t));
            if (!last && hs < hmin) hs = hmin;
            ode_team_trial(c, t, hs, have_f, &st, ynew, err, &ts);
            evals += ODE_TRIAL_EVALS(have_f);
            have_f = 1;
            const ode_real ratio = ode_team_error_ratio(c, ode_opt, ynew, err);
            const int verdict = ode_step_control(ratio, hs, hmin, last, dtmin, dtmax, &h, &ln_prev, &rejected, &hnext);
            if (verdict == ODE_TRIAL_FAILED) {
                status = ODE_TEAM_TRIAL_FAILURE(st);
                break;
            }
            if (verdict == ODE_TRIAL_STUCK) {
                status = ODE_STATUS_MAXSTEPS;
                break;
            }
            if (verdict == ODE_TRIAL_AGAIN) continue;
        }
#else
        ode_team_trial(c, t, hs, have_f, &st, ynew, err, &ts);
        evals += ODE_TRIAL_EVALS(have_f);
#endif
        int inside = ode_team_inside(c, ode_opt, ynew);
        if (!inside) {
            int finite = 1;
            ODE_FOR_MINE(m, i) finite &= ode_finite(ynew[m]);
            if (!ode_team_all(ode_team, finite)) {
                status = ODE_STATUS_NAN;
                break;
            }
        }
        ode_real tnew = last ? t1 : t + hs;
#if ODE_CARRY
        if (!ODE_FSAL) {
            ode_team_rk_end(c, t, hs, ynew, &st);
            evals++;
        }
#endif
#if ODE_NEED_DENSE
        OdeTeamDense D;
        ode_team_dense_make(c, t, hs, ynew, &st, &D);
        evals += ODE_NEXTRA;
#endif
#if ODE_NEVENT > 0
        ode_team_put(c, ynew, ODE_TW(c, YT));
        ode_team_events_eval(c, tnew, ODE_TW(c, YT), gn);
        ode_real hl = hs;
        const int fired = ode_team_events_step(c, t, &hl, ynew, &st, &D, g, gn, &ts, &evals);
        if (hl != hs) {
            tnew = t + hl;
            inside = ode_team_inside(c, ode_opt, ynew);   /* the shorter step's own end */
#if !ODE_ADAPTIVE
            whole = 0;
#endif
        }
#endif
#if ODE_SAVE
        if (sink.slot >= 0) ode_team_save_step(c, sink, &D, save_t0, tnew, ynew, tnew >= t1, last_sample, &nsample);
#endif
        /* Accept. */
        t = tnew;
        ODE_FOR_MINE(m, i) y[i] = ynew[m];
        nstep++;
#if ODE_CARRY
        ODE_FOR_MINE(m, i) st.k[0][m] = st.k[ODE_KEND][m];
        have_f = 1;
#else
        have_f = 0;
#endif
        int stop = 0;
#if ODE_NEVENT > 0
        if (fired) {
            have_f = 0;
            /* The leader runs the detected events' statements in index order (events.h). */
            ODE_TEAM_SYNC();                          /* the accepted state, the flags */
            int leader_stop = 0;
            if (ODE_TEAM_LEADER) {
                s->t = t;
                for (int e = 0; e < ODE_NEVENT; e++) {
                    if (!fired_e[e]) continue;
                    s->count[e]++;
                    armed[e] = 0;
                    zone[e] = 0;
                    ode_model_on_event(s, e);
                    if (ode_event_stop(e) > 0 && s->count[e] >= ode_event_stop(e)) leader_stop = 1;
                    if (ode_event_halt(e) >= 0 && s->acc[ode_event_halt(e)] > ODE_R(0.0)) leader_stop = 1;
                }
            }
            stop = ode_team_any(ode_team, leader_stop) ? 1 : 0;
            ode_team_events_eval(c, t, y, gn);        /* the statements may have moved the state */
        }
        /* evsteps: steps in an event's zone with the system at rest, as
         * integrate.h counts them (ode_at_rest, here over the lanes' shares) */
        int equilibrium = 0, waiting = 0;
        ODE_FOR_MY_EVENTS(e) {
            g[e] = gn[e];
            if (ode_fabs(g[e]) > ode_event_tol(e)) {
                armed[e] = 1;
                zone[e] = 0;
            } else if (fired && fired_e[e]) {
                zone[e] = 0;
            } else {
                waiting = 1;
            }
        }
        if (ode_team_any(ode_team, waiting)) {
            int mine = !fired;
            if (mine) {
                ODE_FOR_MINE(m, i) mine &= ode_fabs(st.k[ODE_KEND][m]) * hl * ODE_REST_SPAN <=
                                           ode_atol(ode_opt, i) + ode_rtol(ode_opt, i) * ode_fabs(ynew[m]);
            }
            const int rest = ode_team_all(ode_team, mine);
            ODE_FOR_MY_EVENTS(e) {
                if (ode_fabs(g[e]) > ode_event_tol(e) || (fired && fired_e[e])) continue;
                zone[e] = rest ? zone[e] + 1 : 0;
                if (zone[e] >= ODE_OPT_EVSTEPS) equilibrium = 1;
            }
        }
        if (ode_team_any(ode_team, equilibrium)) stop = 2;
#endif
#if ODE_HAS_ON_STEP
        ODE_TEAM_LEADER_DO(s->t = t; ode_model_on_step(s));
#endif
        if (!inside) status = ODE_STATUS_BOUND;
        else if (stop == 1) status = ODE_STATUS_EVENT;
        else if (stop == 2) status = ODE_STATUS_EQUILIBRIUM;
        else if (nstep >= ODE_OPT_MAXSTEPS) status = ODE_STATUS_MAXSTEPS;
        h = hnext;
    }
#if ODE_SAVE
    if (sink.slot >= 0 && ODE_TEAM_LEADER) ode_save_count(sink, nsample);
#endif
    ODE_TEAM_LEADER_DO(s->t = t; s->status = status; s->evals = evals; s->steps += nstep);
#if ODE_HAS_ON_END
    ODE_TEAM_LEADER_DO(ode_model_on_end(s));
#endif
}

#endif /* ODE_LOOP_FORM */

#endif /* ODE_TEAM_INTEGRATE_H */
