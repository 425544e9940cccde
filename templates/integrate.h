/* integrate.h — one integration of one system (SPEC §3): steps of the chosen
 * method (stepper.h) with step-size control when it is adaptive, events on
 * the continuous extension (events.h), `save` samples (save.h) and the hooks.
 *
 * This is the single source of the solver logic: the CUDA kernel and the CPU
 * loop in driver.h both call ode_integrate().  Every function is inlined and
 * every loop over states, stages or events runs over a compile-time count, so
 * that a system's state stays in registers (no local-memory arrays on the
 * GPU).
 *
 * Order inside one integration:
 *   on start → steps { trial → (reject: retry) → accept → events → on step } → on end
 * With `lyapunov N`, the tangent vectors (tangent.h) follow each accepted
 * step, pass through each event's saltation matrix and the Jacobians of
 * `on start` and `on end`, and are re-orthonormalised at the end.
 */
#ifndef ODE_INTEGRATE_H
#define ODE_INTEGRATE_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#include "stepper.h"
#include "stability.h"
#include "dense.h"
#include "events.h"
#include "save.h"
#include "tangent.h"
#include "firing.h"
#include "map.h"
#include "delay.h"
#include "sde.h"
#include "symplectic.h"
#endif

#if !ODE_DISCRETE   /* (a map's integration: map.h) */

/* What a step needs beyond the trial: the continuous extension (events,
 * samples) and f at the step's end carried to the next step as its first
 * stage (FSAL, or the extension's end slope). */
#define ODE_NEED_DENSE (ODE_NEVENT > 0 || ODE_SAVE || ODE_NDELAY > 0)
/* (With noise nothing carries over: f at a step's end is another step's
 * noise, and the extension is the chord, dense.h.) */
#define ODE_CARRY ((ODE_FSAL || ODE_NEED_DENSE) && !ODE_NOISE)

/* Steps allowed in one integration: maxsteps, and with noise what the
 * generator's 32-bit step counter can key (sde.h). */
#if ODE_NOISE
#define ODE_STEP_LIMIT ((ode_count)ode_noise_step_limit(ode_opt))
#else
#define ODE_STEP_LIMIT ODE_OPT_MAXSTEPS
#endif

/* A fixed-step method's checked fast path: with no events, no `on step` hook
 * and no samples, planned whole steps run in blocks of ODE_FAST_BLOCK whose
 * loop branches on a counter only; the bound test (which NaN fails too) is
 * accumulated and looked at once per block.  A block that failed it is
 * undone and redone step by step, so the system still stops at the exact
 * step, with its last finite state.  The point: a branch on a floating-point
 * comparison after every step makes the next step wait for it.
 * -DODE_FAST_RK4=0 turns it off (for measuring). */
#ifndef ODE_FAST_RK4
#define ODE_FAST_RK4 1
#endif
#ifndef ODE_FAST_BLOCK
#define ODE_FAST_BLOCK 8
#endif
#define ODE_FAST (ODE_FAST_RK4 && !ODE_ADAPTIVE && !ODE_NEED_DENSE && !ODE_HAS_ON_STEP && !ODE_NALG)


/* ------------------------------------------------------------------ step-size control */
#if ODE_ADAPTIVE
/* The factor for the next step size after a trial with error ratio `ratio`
 * (> 0): SAFETY · ratio^-BETA1, times prev^BETA2 for a PI controller (prev:
 * the last accepted step's ratio, at least 1e-4, as Hairer's codes and
 * OrdinaryDiffEq keep it; a rejected trial leaves it out).  RKCK45's x^(-1/5)
 * by exactly scaled Newton iterations, the others' powers by ode_exp_det
 * and ode_ln_det: no libm pow, so that the CPU and the GPU take the same
 * steps. */
ODE_HD static ODE_INLINE ode_real ode_step_factor(ode_real ratio, ode_real ln_prev, int accepted)
{
#if ODE_METHOD == ODE_METH_RKCK45
    (void)ln_prev;
    (void)accepted;
    return ODE_R(0.9) * ode_pow_m1_5(ratio);
#else
    ode_real x = -(ode_real)ODE_TAB(BETA1) * ode_ln_det(ratio);
    if ((ode_real)ODE_TAB(BETA2) != ODE_R(0.0) && accepted) x += (ode_real)ODE_TAB(BETA2) * ln_prev;
    return (ode_real)ODE_TAB(SAFETY) * ode_exp_det(x);
#endif
}

/* What the step control makes of a trial of hs (proposed: *h; hmin: the
 * smallest step; last: the clipped last step) with error ratio `ratio`:
 * ODE_TRIAL_ACCEPTED with the next step's proposal in *hnext, ODE_TRIAL_AGAIN
 * with a shorter *h, or ODE_TRIAL_FAILED (NaN or Inf at the smallest step).
 * *ln_prev and *rejected (the trials rejected in a row) carry the PI
 * controller's memory.  The per-thread integrator and the team's
 * (team_integrate.h) decide with it alike.
 *
 * ODE_TRIAL_STUCK after ODE_TRIAL_LIMIT trials rejected in a row: each
 * rejection shrinks the step (by 0.9 at least) down to the smallest step,
 * where a trial is taken whatever its error, so no integration needs more
 * than a few hundred; the limit turns an endless rejection (a fault of the
 * planning around it, as the window-end margin of 1de9417 was) into the
 * status maxsteps instead of a system that never ends. */
#ifndef ODE_TRIAL_LIMIT
#define ODE_TRIAL_LIMIT 10000
#endif
#define ODE_TRIAL_STUCK (-2)
#define ODE_TRIAL_FAILED (-1)
#define ODE_TRIAL_AGAIN 0
#define ODE_TRIAL_ACCEPTED 1
ODE_HD static ODE_INLINE int ode_step_control(ode_real ratio, ode_real hs, ode_real hmin, int last, ode_real dtmin,
                                              ode_real dtmax, ode_real *h, ode_real *ln_prev, int *rejected,
                                              ode_real *hnext)
{
    /* At the smallest step a trial is taken whatever its error; the
     * proposal h decides (a clipped last step may be a hair longer
     * than dtmin and must not be rejected for ever). */
    const int at_min = *h <= hmin || hs <= hmin;
    if (!(ratio == ratio)) {           /* NaN or Inf in the trial: shrink, or stop at dtmin */
        if (at_min) return ODE_TRIAL_FAILED;
        *h = ode_fmax(hs * ODE_OPT_HSHRINK, hmin);
        return ++*rejected >= ODE_TRIAL_LIMIT ? ODE_TRIAL_STUCK : ODE_TRIAL_AGAIN;
    }
    const int accept = !(ratio > ODE_R(1.0)) || at_min;
    ode_real factor = ratio > ODE_R(0.0) ? ode_step_factor(ratio, *ln_prev, accept) : ODE_OPT_HGROW;
    factor = ode_fmin(ode_fmax(factor, ODE_OPT_HSHRINK), ODE_OPT_HGROW);
    if (!accept) {                     /* rejected: undo the step, try a smaller one */
        *h = ode_fmax(hs * factor, hmin);
        return ++*rejected >= ODE_TRIAL_LIMIT ? ODE_TRIAL_STUCK : ODE_TRIAL_AGAIN;
    }
    if (ODE_TAB(BETA2) != 0.0) *ln_prev = ode_ln_det(ode_fmax(ratio, ODE_R(1.0e-4)));
    if (*rejected && ODE_TAB(HOLD) && factor > ODE_R(1.0)) factor = ODE_R(1.0);
    *rejected = 0;
    *hnext = ode_fmin(ode_fmax(hs * factor, dtmin), dtmax);
    if (last && *hnext < *h) *hnext = *h;   /* a clipped step says little about the next */
    return ODE_TRIAL_ACCEPTED;
}
#endif

/* Before a step from t to t1 of *hs: 0 when nothing is left (the
 * integration is finished); else 1, with a step within rounding of the rest
 * taking the rest (no sliver step: *hs = t1 - t, *last), and for a fixed step
 * (whole: not null) the whole steps of h that fit before t1 less the rounding
 * margin planned in *whole, so that t1 is looked at again only after them.
 * "Within rounding" is of the step (clip) and of t (ulps): a window's end made
 * of other sums than the steps' (t1 = t1 + 0.001 against two steps of
 * 0.0005) lies a few ulps of t past the last whole step, and a sliver of
 * those ulps would be a step of its own (an extra slot in a delay's ring each
 * time: issue 22, Sherman's vascular.ode ran out of its ring at t = 1.5).
 * Both integrators plan alike with it. */
ODE_HD static ODE_INLINE int ode_plan_step(ode_real t, ode_real t1, ode_real h, ode_real clip, ode_real *hs, int *last,
                                           int *whole)
{
    const ode_real left = t1 - t;
    if (!(left > ODE_R(0.0))) return 0;
    /* (fixed steps only: an adaptive step the control has shrunk at a jump on t1 must
     * still shrink, not take the rest again and again — with the margin, Rodas5P's
     * trials on Sherman's cicr.ode were rejected for ever before t = 5000) */
    const ode_real ulps = whole ? ODE_R(64.0) * ODE_EPS * ode_fmax(ode_fabs(t), ode_fabs(t1)) : ODE_R(0.0);
    if (left <= *hs * clip + ulps) {   /* the last step ends exactly at t1 */
        *hs = left;
        *last = 1;
    } else if (whole) {
        const ode_real n = (left - ulps) / (h * clip);
        *whole = n < ODE_R(1.0e9) ? (int)n - 1 : 1000000000;
        if (*whole < 0) *whole = 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ at rest */
#if ODE_NEVENT > 0
/* A system inside an event's zone counts towards `evsteps` (the status
 * equilibrium) only while it is at rest: at the speed f it has at the end of
 * the step just taken (length h), no state moves in one step by more than
 * 32 times its tolerance (atol + rtol |y|: the error control's
 * scale; the file's toler and atoler for a fixed-step method).  An adaptive
 * method's solution near a stable equilibrium keeps moving by a few
 * tolerances per step (its step size settles at the method's stability
 * limit; measured: up to 14 with RKCK45, 9 on the relief valve, 6 with
 * DOPRI5, 4 with DOP853); a fixed-step one converges to the point itself,
 * and there the whole window of `evsteps` steps must stay within one
 * tolerance. */
#if ODE_ADAPTIVE
#define ODE_REST_SPAN ODE_R(0.03125)                /* 1/32 */
#else
#define ODE_REST_SPAN ((ode_real)ODE_OPT_EVSTEPS)
#endif
ODE_HD static ODE_INLINE int ode_at_rest(const OdeOptions *ode_opt, ode_real h, const ode_real *y, const ode_real *f)
{
    (void)ode_opt;
    int rest = 1;
    ODE_FOR_STATES(i) rest &= ode_fabs(f[i]) * h * ODE_REST_SPAN <= ode_atol(ode_opt, i) + ode_rtol(ode_opt, i) * ode_fabs(y[i]);
    return rest;
}
#endif

/* ------------------------------------------------------------------ delays */
#if ODE_NDELAY > 0
/* The trial of a model with delays (delay.h): when a stage read x(t - tau)
 * after the newest stored step (tau shorter than the step), the trial is
 * repeated reading its own extension until the new state changes by less
 * than a hundredth of the error tolerance (adaptive methods) or than
 * rounding (fixed steps), at most ODE_DELAY_ITER times.  Returns 0 when it
 * did not settle (an adaptive method then tries a shorter step; a fixed
 * step is taken as it is). */
ODE_HD static ODE_INLINE int ode_delay_trial(OdeSystem *s, const OdeOptions *ode_opt, ode_real hs, int have_f,
                                            OdeStages *st, ode_real *ynew, ode_real *err, OdeTrigStep *ts)
{
    (void)ode_opt;
    OdeHist *H = s->hist;
    H->cur = 0;
    H->ahead = 0;
    ode_trial(s, s->t, hs, s->y, have_f, st, ynew, err, ts);
    s->evals += ODE_TRIAL_EVALS(have_f);
    int settled = 1;
    for (int it = 0; H->ahead && it < ODE_DELAY_ITER; it++) {
        OdeDense Dt;
        ode_rk_end(s, s->t, hs, ynew, st);
        s->evals += ODE_FSAL ? 0 : 1;
        ode_dense_make(s, s->t, hs, s->y, ynew, st, &Dt);
        s->evals += ODE_NEXTRA;
        ode_real yprev[ODE_ALLOC(ODE_NSTATE)];
        ODE_FOR_STATES(i) yprev[i] = ynew[i];
        H->cur = &Dt;
        H->ahead = 0;
        ode_trial(s, s->t, hs, s->y, 1, st, ynew, err, ts);   /* (stage 0 reads before t: it stays) */
        s->evals += ODE_TRIAL_EVALS(1);
        H->cur = 0;
        settled = 1;
        ODE_FOR_STATES(i) {
#if ODE_ADAPTIVE
            const ode_real tol = ODE_R(0.01) * (ode_atol(ode_opt, i) + ode_rtol(ode_opt, i) * ode_fabs(ynew[i]));
#else
            const ode_real tol = ODE_R(1000.0) * ODE_EPS * (ODE_R(1.0) + ode_fabs(ynew[i]));
#endif
            settled &= ode_fabs(ynew[i] - yprev[i]) <= tol;
        }
        if (settled) break;
    }
    H->ahead = 0;
    return settled;
}
#define ODE_TRIAL_OF(s, hs, have_f, st, ynew, err, ts) ode_delay_trial(s, ode_opt, hs, have_f, st, ynew, err, ts)
#else
#define ODE_TRIAL_OF(s, hs, have_f, st, ynew, err, ts) \
    (ode_trial(s, (s)->t, hs, (s)->y, have_f, st, ynew, err, ts), (s)->evals += ODE_TRIAL_EVALS(have_f), 1)
#endif

/* ------------------------------------------------------------------ one integration */
#if !ODE_LOOP_FORM   /* (a model in loop form: the team's own, team_*.h) */

#if ODE_FAST
/* One step of the fast path (step: its index in the integration, which keys
 * its noise): the trial (and the tangent vectors' step) over h, the bound
 * test accumulated in *inside, the state moved on; with suspect (the
 * block's last step), the stability test of its stages too, while they are
 * at hand. */
ODE_HD static ODE_INLINE void ode_fast_step(OdeSystem *s, const OdeOptions *ode_opt, ode_real h, ode_count step,
                                            OdeStages *st, OdeTrigStep *ts, int *inside, const void *sb, int *suspect)
{
    (void)ode_opt;
    (void)step;
    ode_real yb[ODE_ALLOC(ODE_NSTATE)], unused[ODE_ALLOC(ODE_NSTATE)];
#if ODE_NOISE
    ode_noise_step(s, ode_opt, h, (unsigned)step);   /* (keyed by the step: a redone block draws the same) */
#endif
    ode_trial(s, s->t, h, s->y, 0, st, yb, unused, ts);
#if ODE_NLYAP > 0
    ode_tangent_rk_step(s, s->t, h, s->y, st, ts);
#endif
#if ODE_STAB
    if (suspect) *suspect = ode_stab_suspect((const OdeStab *)sb, h, st, s->y);
#else
    (void)sb;
    (void)suspect;
#endif
    ODE_FOR_STATES(i) {
        *inside &= ode_fabs(yb[i]) <= ODE_OPT_BOUND;
        s->y[i] = yb[i];
    }
    s->t += h;
}
#endif

/* Integrates s from s->t0 to s->t1 (or to a stop) with the run-time options
 * ode_opt (options.h: ODE_OPT_DT, … read them) and leaves its status; the
 * `save` samples go to sink (slot < 0: none are taken). */
ODE_HD static ODE_INLINE void ode_integrate_sampled(OdeSystem *s, const OdeOptions *ode_opt, OdeSaveSink sink)
{
    (void)sink;
    (void)ode_opt;
#if ODE_EVENTS_EXACT
    /* Where the last integration ended (its last step's end was checked for `global 0`s). */
    const int resumes = s->status != ODE_STATUS_READY;
    const ode_real t_last = s->t;
#endif
    s->status = ODE_STATUS_RUNNING;
    ODE_FOR_EVENTS(e) s->count[e] = 0;
    s->t = s->t0;
#if ODE_NOISE
    s->rng_step = 0;                       /* on start's draws: at step 0 */
#endif
#if ODE_HAS_ON_START
#if ODE_NLYAP > 0
    ode_tangent_start(s);                  /* the block's Jacobian, before it runs */
#endif
    ode_model_on_start(s);
    s->t = s->t0;                          /* on start may move the window */
#endif
#if ODE_NDELAY > 0
    OdeHist *H = s->hist;
    ode_hist_start(H, s);                  /* history time goes on from the last stored step */
#endif
#if ODE_NLYAP > 0
    const ode_real t_start = s->t;
    s->lqr = t_start;                      /* (the window may start anywhere: every=T counts from here) */
#endif
    /* An empty window integrates nothing and says so (never `finished` with
     * the state it had): t1 <= t0 or NaN (an `on end { t0 = t }` that left
     * t1 behind), or a fixed step that does not move t0 in the working
     * precision (t0 = 1e17, dt = 1).  `on end` does not run either. */
    if (!(s->t1 > s->t) || (!ODE_ADAPTIVE && !(s->t + ODE_OPT_DT > s->t))) s->status = ODE_STATUS_EMPTY;
    const int empty = s->status == ODE_STATUS_EMPTY;
#if ODE_NALG > 0
    /* Consistent initial values: the unknowns solved from their guesses (dae.h). The branch's
     * sign is 0 until ode_dae_init finds it: the events' first values below read it (through
     * ode_dae_newton) also where the window is empty or the init failed. */
    s->dae_sign = 0;
    if (!empty && !ode_dae_init(s)) s->status = ODE_STATUS_DAE_FAILED;
    s->dae_fail = 0;
    int dae_ok = 1;                        /* the unknowns were solved after the last step */
#endif
    const ode_real t1 = s->t1;
    ode_real h = ODE_OPT_DT;
    /* A step within rounding of the rest takes the rest (no sliver step). */
    const ode_real clip = ODE_R(1.0) + ODE_R(64.0) * ODE_EPS;
#if ODE_ADAPTIVE
    const ode_real dtmin = ODE_OPT_DTMIN, dtmax = ODE_OPT_DTMAX;
    h = ode_fmin(ode_fmax(h, dtmin), dtmax);
    ode_real ln_prev = ODE_R(-9.210340371976184);   /* ln 1e-4: the PI controller's first "previous" ratio */
    int rejected = 0;                      /* trials rejected in a row */
#else
    int whole = 0;                         /* steps of h planned before t1 needs looking at */
#endif
#if ODE_STAB
    OdeStab sb;                            /* stability.h: the fixed step within the method's stability region */
    ode_stab_init(&sb);
#endif
#if ODE_FAST
    int slow = 0;                          /* steps to take one by one before the next block */
#endif
    ode_count nstep = 0;                   /* accepted steps in this integration */
    OdeTrigStep ts;
    ode_trig_step_init(&ts);
    OdeStages st;
    int have_f = 0;                        /* st.k[0] holds f(t, y) */
#if ODE_NEVENT > 0
    ode_real g[ODE_NEVENT];                /* event values at the current point */
    int zone[ODE_NEVENT];                  /* accepted steps at rest inside a zone (evsteps) */
    ode_model_events(s, s->t, s->y, g);
    ODE_FOR_EVENTS(e) zone[e] = 0;
#if ODE_EVENTS_EXACT
    /* A `global 0` whose condition is zero where a run starts (firing.h),
     * unless this integration goes on from where the last one ended. */
    if (!empty && !(resumes && t_last == s->t)) {
        const ode_mask at_start = ode_exact_mask(s->t, g);
        int stop0 = 0;
        if (at_start) ode_fire(s, at_start, g, &stop0);
        if (stop0) s->status = ODE_STATUS_EVENT;
    }
#endif
    OdeArming ar;
    ar.armed = ode_outside_mask(g);        /* starting inside a zone: not detected */
    ar.back = ar.down = 0;
    int hidden = 0;                        /* a crossing hidden by a zone: events accumulate */
#endif
#if ODE_SAVE
    const ode_real save_t0 = s->t0;
    unsigned int nsample = 0, last_sample = 0;
    if (sink.slot >= 0 && !empty) {
        last_sample = ode_save_last(save_t0, t1, sink.a->save_every);
        ode_save_put(s, sink, 0, s->t, s->y);
        nsample = 1;
    }
#endif
    while (s->status == ODE_STATUS_RUNNING) {
        ode_real hs = h;
        int last = 0;
#if ODE_ADAPTIVE
        if (!ode_plan_step(s->t, t1, h, clip, &hs, &last, 0)) {
            s->status = ODE_STATUS_FINISHED;
            break;
        }
#else
#if ODE_FAST
        if (slow > 0) {
            slow--;                        /* a block that failed the stability test: its steps one by one */
        } else if (whole >= ODE_FAST_BLOCK && nstep + ODE_FAST_BLOCK < ODE_STEP_LIMIT) {
            ode_real ysave[ODE_ALLOC(ODE_NSTATE)];
            const ode_real tsave = s->t;
            int inside = 1;
            ODE_FOR_STATES(i) ysave[i] = s->y[i];
#if ODE_NLYAP > 0
            ode_real vsave[ODE_NLYAP][ODE_ALLOC(ODE_NSTATE)];
            ODE_FOR_LYAP(m) ODE_FOR_STATES(i) vsave[m][i] = s->lv[m][i];
            const ode_real lsave[2] = {s->lspread, s->lgrow};
            const double ltr_save = s->ltr;
#endif
            /* (the block's last step apart: the stability test reads its stages) */
            for (int k = 0; k < ODE_FAST_BLOCK - 1; k++)
                ode_fast_step(s, ode_opt, h, nstep + (ode_count)k, &st, &ts, &inside, 0, 0);
#if ODE_STAB
            ode_stab_keep(&sb, h, &st);    /* (Euler: f at the last step's start) */
            int suspect = 0;
            ode_fast_step(s, ode_opt, h, nstep + (ode_count)(ODE_FAST_BLOCK - 1), &st, &ts, &inside, &sb, &suspect);
            if (inside && suspect) {
                inside = 0;                /* redone step by step, where ode_stab_step decides */
                slow = ODE_FAST_BLOCK - 1;
            }
            if (inside) ode_stab_unchecked(&sb);
            else ode_stab_forget(&sb);
#else
            ode_fast_step(s, ode_opt, h, nstep + (ode_count)(ODE_FAST_BLOCK - 1), &st, &ts, &inside, 0, 0);
#endif
            if (inside) {
                whole -= ODE_FAST_BLOCK;
                nstep += ODE_FAST_BLOCK;
                s->evals += ODE_FAST_BLOCK * ODE_TRIAL_EVALS(0);
#if ODE_NLYAP > 0
                ode_tangent_after_step(s);
#endif
                continue;
            }
            s->t = tsave;                  /* undo: the steps below find where it failed */
            ODE_FOR_STATES(i) s->y[i] = ysave[i];
#if ODE_NLYAP > 0
            ODE_FOR_LYAP(m) ODE_FOR_STATES(i) s->lv[m][i] = vsave[m][i];
            s->lspread = lsave[0];
            s->lgrow = lsave[1];
            s->ltr = ltr_save;
#endif
        }
#endif
        if (whole > 0) {
            whole--;                       /* a planned whole step: no look at t1 */
        } else if (!ode_plan_step(s->t, t1, h, clip, &hs, &last, &whole)) {
            s->status = ODE_STATUS_FINISHED;
            break;
        }
#endif
#if ODE_NDELAY_CONST > 0 && ODE_DELAY_BREAKS
        if (!last) {                       /* no step straddles a breaking point of the delays */
            int on_bp;
            hs = ode_hist_clip(H, s->t, hs, clip, &on_bp);
#if !ODE_ADAPTIVE
            if (on_bp) whole = 0;          /* plan again from the breaking point */
#endif
        }
#endif
        ode_real ynew[ODE_ALLOC(ODE_NSTATE)], err[ODE_ALLOC(ODE_NSTATE)];
        ode_real hnext = h;
        if (!ODE_CARRY) have_f = 0;        /* nothing carried: each trial computes f(t, y) */
#if ODE_ADAPTIVE
        {
            /* A step below rounding of t would not move t: dtmin never goes there. */
            const ode_real hmin = ode_fmax(dtmin, ODE_R(4.0) * ODE_EPS * ode_fabs(s->t));
            if (!last && hs < hmin) hs = hmin;
            const int settled = ODE_TRIAL_OF(s, hs, have_f, &st, ynew, err, &ts);
            have_f = 1;
#if ODE_NDELAY > 0
            if (ode_hist_status(H)) {      /* a delay read a past the history lacks */
                s->status = ode_hist_status(H);
                break;
            }
#endif
            ode_real ratio = ode_error_ratio(ode_opt, s->y, ynew, err);
#if ODE_NALG > 0
            if (ratio == ratio && !ode_dae_end(s, ode_opt, last ? t1 : s->t + hs, ynew))
                ratio = (ode_real)NAN;     /* no root at the step's end (a fold): shrink, or dae_failed at dtmin */
#endif
            if (!settled && !(ratio > ODE_R(1.0))) ratio = ODE_R(2.0);   /* its own extension did not settle: shorter */
            const int verdict = ode_step_control(ratio, hs, hmin, last, dtmin, dtmax, &h, &ln_prev, &rejected, &hnext);
            if (verdict == ODE_TRIAL_FAILED) {
                s->status = ODE_DAE_FAILURE(s, ODE_TRIAL_FAILURE(st));   /* nan, a stiff method's singular W,
                                                                          or Newton's failure (dae.h) */
                break;
            }
            if (verdict == ODE_TRIAL_STUCK) {
                s->status = ODE_STATUS_MAXSTEPS;
                break;
            }
            if (verdict == ODE_TRIAL_AGAIN) continue;
        }
#else
#if ODE_NOISE
        ode_noise_step(s, ode_opt, hs, (unsigned)nstep);
#if ODE_NMARKOV > 0 && ODE_NEVENT > 0
        ode_model_events(s, s->t, s->y, g);   /* a chain's jump moved them (a jump is no crossing) */
#endif
#endif
        (void)ODE_TRIAL_OF(s, hs, have_f, &st, ynew, err, &ts);
#if ODE_NALG > 0
        if (!ode_dae_end(s, ode_opt, last ? t1 : s->t + hs, ynew))
            ODE_FOR_STATES(i) ynew[i] = (ode_real)NAN;   /* no root at the step's end: dae_failed, the state kept */
#endif
#if ODE_NDELAY > 0
        if (ode_hist_status(H)) {
            s->status = ode_hist_status(H);
            break;
        }
#endif
#if ODE_STAB
        const int unstable = ode_stab_step(&sb, hs, &st, s->y);
#endif
#endif
        /* One comparison per state finds both a state beyond the bound and a
         * NaN or Inf (which fails it too); a step to NaN is not taken, so the
         * system keeps its last finite state. */
        int inside = 1;
        ODE_FOR_STATES(i) inside &= ode_fabs(ynew[i]) <= ODE_OPT_BOUND;
        if (!inside) {
            int finite = 1;
            ODE_FOR_STATES(i) finite &= ode_finite(ynew[i]);
            if (!finite) {
                s->status = ODE_DAE_FAILURE(s, ODE_STATUS_NAN);
                break;
            }
        }
        ode_real tnew = last ? t1 : s->t + hs;
#if ODE_CARRY
        if (!ODE_FSAL) {                   /* f at the step's end: the next step's first stage */
            ode_rk_end(s, s->t, hs, ynew, &st);
            s->evals++;
        }
#endif
#if ODE_NEED_DENSE
        OdeDense D;
        ode_dense_make(s, s->t, hs, s->y, ynew, &st, &D);
        s->evals += ODE_NEXTRA;
#endif
#if ODE_NDELAY > 0
        H->cur = &D;                       /* events and samples inside the step read its extension */
#endif
#if ODE_NEVENT > 0
        ode_real gn[ODE_NEVENT];
        ode_model_events(s, tnew, ynew, gn);
        ode_real hl = hs;
        ode_mask fired = ode_events_step(s, s->t, s->y, &hl, ynew, &st, &D, g, gn, &ar, &hidden, &ts, &s->evals);
        if (!hidden) fired |= ode_exact_mask(s->t, gn);
        if (hl != hs) {
            tnew = s->t + hl;
            inside = 1;                    /* the shorter step's own end */
            ODE_FOR_STATES(i) inside &= ode_fabs(ynew[i]) <= ODE_OPT_BOUND;
#if !ODE_ADAPTIVE
            whole = 0;                     /* the grid moved with the event: plan again */
#endif
        }
#endif
#if ODE_SAVE
        if (sink.slot >= 0) ode_save_step(s, sink, &D, save_t0, tnew, ynew, tnew >= t1, last_sample, &nsample);
#endif
#if ODE_NLYAP > 0
        {
            ode_real htan = hs;
#if ODE_NEVENT > 0
            /* a step that an event shortened: its stages are redone (st may
             * hold another trial of the location's) */
            if (hl != hs) {
                ode_real yre[ODE_ALLOC(ODE_NSTATE)], ere[ODE_ALLOC(ODE_NSTATE)];
                ode_rk_trial(s, s->t, hl, s->y, 1, &st, yre, ere, &ts);
                s->evals += ODE_TRIAL_EVALS(1);
                htan = hl;
            }
#endif
            ode_tangent_rk_step(s, s->t, htan, s->y, &st, &ts);
        }
#endif
#if ODE_NDELAY > 0
        ode_hist_store(H, &D, tnew);       /* (an event's shorter step ends at its location) */
        H->cur = 0;
        int on_bp = 0;                     /* the step ended on a breaking point */
        if (H->t_end >= H->bp - ODE_R(64.0) * ODE_EPS * ode_fmax(ode_fabs(H->bp), ODE_R(1.0))) {
            H->bp = ode_hist_next_bp(H, H->t_end);
            on_bp = 1;
        }
#endif
        /* Accept. */
#if ODE_STAB
        ode_stab_keep(&sb, tnew - s->t, &st);   /* (before f at the step's end replaces st.k[0]) */
#endif
        s->t = tnew;
        ODE_FOR_STATES(i) s->y[i] = ynew[i];
#if ODE_NALG > 0 && ODE_NEVENT > 0
        if (hl != hs) dae_ok = ode_dae_project(s, 1);   /* an event's shorter step: its unknowns (ode_dae_end
                                                           solved them at the full step's end) */
#endif
        nstep++;
#if ODE_CARRY
        ODE_FOR_STATES(i) st.k[0][i] = st.k[ODE_KEND][i];   /* f(t, y) of the next step */
        have_f = 1;
#else
        have_f = 0;
#endif
#if ODE_NDELAY > 0
        if (on_bp) have_f = 0;             /* f may jump there: the next step's from its own side */
#endif
        int stop = 0;
#if ODE_NEVENT > 0
        if (fired) {
            have_f = 0;                    /* a shorter step or a reset: f(t, y) is computed afresh */
#if ODE_STAB
            ode_real ypre[ODE_ALLOC(ODE_NSTATE)];   /* (a reset starts the stage differences afresh) */
            ODE_FOR_STATES(i) ypre[i] = s->y[i];
#endif
            fired = ode_fire(s, fired, gn, &stop);   /* (with the globals they carried across zero) */
#if ODE_NALG > 0
            if (dae_ok) dae_ok = ode_dae_init(s);   /* consistent again after the statements */
#endif
            ar.armed &= ~fired;
            ar.back &= ~fired;
#if ODE_STAB
            int reset = 0;
            ODE_FOR_STATES(i) reset |= s->y[i] != ypre[i];
            if (reset) ode_stab_forget(&sb);
#endif
        }
        /* evsteps: steps in one event's zone with the system at rest (see
         * ode_at_rest); never for XPPAUT's globals, whose conditions may sit
         * at zero for a while by design (a gate such as 1/(1+exp(-(t-25)/.001))). */
        int rest = -1;                     /* (computed when first needed) */
        ODE_FOR_EVENTS(e) {
            g[e] = gn[e];
            if (ode_fabs(g[e]) > ode_event_tol(e)) {   /* outside the zone: (re-)armed */
                ar.armed |= ODE_BIT(e) & ~(ode_mask)ODE_EVENTS_EXACT;
                zone[e] = 0;
            } else if ((ODE_EVENTS_GLOBAL | fired) & ODE_BIT(e)) {
                zone[e] = 0;
            } else {
#if ODE_NOISE
                rest = 0;                  /* noise: never at rest (and st.k holds no f at the step's end) */
#else
                if (rest < 0) rest = !fired && ode_at_rest(ode_opt, hl, s->y, st.k[ODE_KEND]);
#endif
                zone[e] = rest ? zone[e] + 1 : 0;
                if (zone[e] >= ODE_OPT_EVSTEPS) stop = 2;   /* an equilibrium */
            }
        }
#endif
#if ODE_HAS_ON_STEP
        ode_model_on_step(s);
#endif
#if ODE_NLYAP > 0
        ode_tangent_after_step(s);
#endif
        if (!inside) s->status = ODE_STATUS_BOUND;
#if ODE_NALG > 0
        else if (!dae_ok) s->status = ODE_STATUS_DAE_FAILED;
#endif
#if ODE_STAB
        else if (unstable) s->status = ODE_STATUS_UNSTABLE;
#endif
#if ODE_NDELAY > 0
        else if (ode_hist_status(H)) s->status = ode_hist_status(H);   /* (read by an event or a hook) */
#endif
        else if (stop == 1) s->status = ODE_STATUS_EVENT;
#if ODE_NEVENT > 0
        else if (hidden) s->status = ODE_STATUS_ZENO;
#endif
        else if (stop == 2) s->status = ODE_STATUS_EQUILIBRIUM;
        else if (nstep >= ODE_STEP_LIMIT) s->status = ODE_STATUS_MAXSTEPS;
        h = hnext;
    }
#if ODE_SAVE
    if (sink.slot >= 0) ode_save_count(sink, nsample);
#endif
    s->steps += nstep;
#if ODE_NOISE
    s->rng_step = (unsigned)nstep;          /* on end's and the recorded aux quantities' draws */
#endif
    if (empty) return;
#if ODE_NLYAP > 0
    ode_tangent_end(s, t_start);           /* on end's Jacobian (before it runs), the QR */
#endif
#if ODE_HAS_ON_END
    ode_model_on_end(s);
#endif
}

#endif /* !ODE_LOOP_FORM */
#endif /* !ODE_DISCRETE */

#if !ODE_LOOP_FORM
/* The same without samples. */
ODE_HD static ODE_INLINE void ode_integrate(OdeSystem *s, const OdeOptions *ode_opt)
{
    OdeSaveSink none;
    none.a = 0;
    none.slot = -1;
    none.rep = 0;
    ode_integrate_sampled(s, ode_opt, none);
}

#endif /* !ODE_LOOP_FORM */

#endif /* ODE_INTEGRATE_H */
