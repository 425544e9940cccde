/* solver.h — one integration of one system: the RK4 and RKCK45 steps, error
 * control, events and hooks (SPEC §3).
 *
 * This is the single source of the solver logic: the CUDA kernel and the CPU
 * loop in driver.h both call ode_integrate().  Every function is inlined and
 * every loop runs over a compile-time count, so that a system's state stays in
 * registers (no local-memory arrays on the GPU).
 *
 * Order inside one integration:
 *   on start → steps { trial → (reject: retry) → accept → events → on step } → on end
 */
#ifndef ODE_SOLVER_H
#define ODE_SOLVER_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#endif

#define ODE_FOR_STATES(i) ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++)
#define ODE_FOR_EVENTS(e) ODE_UNROLL for (int e = 0; e < ODE_NEVENT; e++)

/* Most secant iterations spent locating one event crossing inside a step. */
#define ODE_EVENT_MAXITER 60

/* ------------------------------------------------------------------ RK4 */

/* ------------------------------------------------------------------ sin/cos of time */

/* The right-hand side may hold sin and cos of arguments affine in t
 * (a_k t + b_k, with a_k and b_k fixed per system: `cos(t)`, `sin(2*pi*f*t+phi)`).
 * The generator lists them (ODE_NTRIG) and the RHS reads their values from
 * an OdeTrig.  RK4 evaluates them once per step, at t, and reaches the stage
 * times t + h/2 and t + h by angle addition with sin/cos of a_k h/2, which
 * change only when h does: one sincos per step instead of four cos.
 * (OdeTrig itself is in system.h: the model's functions take it.) */
/* sin/cos of a_k h/2 and a_k h for the step size h they were made for. */
typedef struct OdeTrigStep {
    ode_real h;
    OdeTrig half, full;
} OdeTrigStep;

#ifndef ODE_TRIG_ROTATE
#define ODE_TRIG_ROTATE 1   /* 0 (odegen --no-time-trig): sin/cos at every distinct stage time */
#endif

#if ODE_NTRIG > 0
#define ODE_FOR_TRIG(k) ODE_UNROLL for (int k = 0; k < ODE_NTRIG; k++)

ODE_HD static ODE_INLINE void ode_trig_step_for(const OdeSystem *s, ode_real h, OdeTrigStep *ts)
{
    if (ts->h == h) return;
    ts->h = h;
    ODE_FOR_TRIG(k) {
        ode_real sh, ch;
        ode_sincos(ode_model_trig_rate(s, k) * (ODE_R(0.5) * h), &sh, &ch);
        ts->half.s[k] = sh;
        ts->half.c[k] = ch;
        ts->full.s[k] = ODE_R(2.0) * sh * ch;       /* double angle */
        ts->full.c[k] = (ch - sh) * (ch + sh);
    }
}

/* The values at t + d from those at t and sin/cos of a_k d. */
ODE_HD static ODE_INLINE void ode_trig_rotate(const OdeTrig *at, const OdeTrig *by, OdeTrig *out)
{
    ODE_FOR_TRIG(k) {
        out->s[k] = at->s[k] * by->c[k] + at->c[k] * by->s[k];
        out->c[k] = at->c[k] * by->c[k] - at->s[k] * by->s[k];
    }
}
#endif

/* ------------------------------------------------------------------ RK4 */

/* The classical fourth-order Runge–Kutta step from (t, y) over h. */
ODE_HD static ODE_INLINE void ode_rk4_step(const OdeSystem *s, ode_real t, ode_real h,
                                           const ode_real *y, ode_real *ynew, const OdeTrigStep *ts)
{
    ode_real k[ODE_NSTATE], yt[ODE_NSTATE];
    const ode_real h2 = ODE_R(0.5) * h, h3 = h * (ode_real)(1.0 / 3.0), h6 = h * (ode_real)(1.0 / 6.0);
    OdeTrig tr0, tr;
#if ODE_NTRIG > 0 && ODE_TRIG_ROTATE
    ode_model_trig_full(s, t, &tr0);      /* ts was made for h by the caller */
    ode_trig_rotate(&tr0, &ts->half, &tr);
#elif ODE_NTRIG > 0
    (void)ts;                              /* once per distinct stage time: t, t+h/2, t+h */
    ode_model_trig(s, t, &tr0);
    ode_model_trig(s, t + h2, &tr);
#else
    (void)ts;
    tr0.s[0] = tr0.c[0] = ODE_R(0.0);      /* nothing to read: no sin/cos of time */
    tr = tr0;
#endif
    ode_model_rhs(s, t, y, k, &tr0);
    ODE_FOR_STATES(i) { ynew[i] = y[i] + h6 * k[i]; yt[i] = y[i] + h2 * k[i]; }
    ode_model_rhs(s, t + h2, yt, k, &tr);
    ODE_FOR_STATES(i) { ynew[i] += h3 * k[i]; yt[i] = y[i] + h2 * k[i]; }
    ode_model_rhs(s, t + h2, yt, k, &tr);
    ODE_FOR_STATES(i) { ynew[i] += h3 * k[i]; yt[i] = y[i] + h * k[i]; }
#if ODE_NTRIG > 0 && ODE_TRIG_ROTATE
    ode_trig_rotate(&tr0, &ts->full, &tr);
#elif ODE_NTRIG > 0
    ode_model_trig(s, t + h, &tr);
#endif
    ode_model_rhs(s, t + h, yt, k, &tr);
    ODE_FOR_STATES(i) ynew[i] += h6 * k[i];
}

/* ------------------------------------------------------------------ RKCK45 */

/* The Cash–Karp 5(4) tableau (Cash & Karp 1990): nodes c, stages a, the
 * fifth-order weights b5 (propagated) and b5 - b4 (the error estimate). */
#define ODE_CK(num, den) ((ode_real)((double)(num) / (double)(den)))
#define ODE_CK_C2 ODE_CK(1, 5)
#define ODE_CK_C3 ODE_CK(3, 10)
#define ODE_CK_C4 ODE_CK(3, 5)
#define ODE_CK_C6 ODE_CK(7, 8)
#define ODE_CK_A21 ODE_CK(1, 5)
#define ODE_CK_A31 ODE_CK(3, 40)
#define ODE_CK_A32 ODE_CK(9, 40)
#define ODE_CK_A41 ODE_CK(3, 10)
#define ODE_CK_A42 ODE_CK(-9, 10)
#define ODE_CK_A43 ODE_CK(6, 5)
#define ODE_CK_A51 ODE_CK(-11, 54)
#define ODE_CK_A52 ODE_CK(5, 2)
#define ODE_CK_A53 ODE_CK(-70, 27)
#define ODE_CK_A54 ODE_CK(35, 27)
#define ODE_CK_A61 ODE_CK(1631, 55296)
#define ODE_CK_A62 ODE_CK(175, 512)
#define ODE_CK_A63 ODE_CK(575, 13824)
#define ODE_CK_A64 ODE_CK(44275, 110592)
#define ODE_CK_A65 ODE_CK(253, 4096)
#define ODE_CK_B1 ODE_CK(37, 378)
#define ODE_CK_B3 ODE_CK(250, 621)
#define ODE_CK_B4 ODE_CK(125, 594)
#define ODE_CK_B6 ODE_CK(512, 1771)
#define ODE_CK_E1 ((ode_real)(37.0 / 378.0 - 2825.0 / 27648.0))
#define ODE_CK_E3 ((ode_real)(250.0 / 621.0 - 18575.0 / 48384.0))
#define ODE_CK_E4 ((ode_real)(125.0 / 594.0 - 13525.0 / 55296.0))
#define ODE_CK_E5 ((ode_real)(-277.0 / 14336.0))
#define ODE_CK_E6 ((ode_real)(512.0 / 1771.0 - 0.25))

/* One Cash–Karp step from (t, y) over h: the fifth-order solution in ynew and
 * the error estimate in err.  Stage derivatives are folded into ynew and err
 * as soon as they are known, to keep few of them alive at once. */
ODE_HD static ODE_INLINE void ode_rkck_step(const OdeSystem *s, ode_real t, ode_real h,
                                            const ode_real *y, ode_real *ynew, ode_real *err)
{
    ode_real k1[ODE_NSTATE], k2[ODE_NSTATE], k3[ODE_NSTATE], k4[ODE_NSTATE], k5[ODE_NSTATE];
    ode_real yt[ODE_NSTATE];
    OdeTrig tr;   /* sin/cos of time: evaluated per stage (the nodes are irregular) */
#define ODE_CK_STAGE(tc, yv, out) do { ode_model_trig(s, (tc), &tr); ode_model_rhs(s, (tc), (yv), (out), &tr); } while (0)
    ODE_CK_STAGE(t, y, k1);
    ODE_FOR_STATES(i) yt[i] = y[i] + h * (ODE_CK_A21 * k1[i]);
    ODE_CK_STAGE(t + ODE_CK_C2 * h, yt, k2);
    ODE_FOR_STATES(i) yt[i] = y[i] + h * (ODE_CK_A31 * k1[i] + ODE_CK_A32 * k2[i]);
    ODE_CK_STAGE(t + ODE_CK_C3 * h, yt, k3);
    ODE_FOR_STATES(i) yt[i] = y[i] + h * (ODE_CK_A41 * k1[i] + ODE_CK_A42 * k2[i] + ODE_CK_A43 * k3[i]);
    ODE_CK_STAGE(t + ODE_CK_C4 * h, yt, k4);
    ODE_FOR_STATES(i)
        yt[i] = y[i] + h * (ODE_CK_A51 * k1[i] + ODE_CK_A52 * k2[i] + ODE_CK_A53 * k3[i] + ODE_CK_A54 * k4[i]);
    ODE_CK_STAGE(t + h, yt, k5);
    ODE_FOR_STATES(i) {
        yt[i] = y[i] + h * (ODE_CK_A61 * k1[i] + ODE_CK_A62 * k2[i] + ODE_CK_A63 * k3[i] +
                            ODE_CK_A64 * k4[i] + ODE_CK_A65 * k5[i]);
        ynew[i] = ODE_CK_B1 * k1[i] + ODE_CK_B3 * k3[i] + ODE_CK_B4 * k4[i];
        err[i] = ODE_CK_E1 * k1[i] + ODE_CK_E3 * k3[i] + ODE_CK_E4 * k4[i] + ODE_CK_E5 * k5[i];
    }
    ODE_CK_STAGE(t + ODE_CK_C6 * h, yt, k2);   /* k6, in k2's registers */
#undef ODE_CK_STAGE
    ODE_FOR_STATES(i) {
        ynew[i] = y[i] + h * (ynew[i] + ODE_CK_B6 * k2[i]);
        err[i] = h * (err[i] + ODE_CK_E6 * k2[i]);
    }
}

/* The error ratio max_i |err_i| / (atol_i + rtol_i * max(|y_i|, |ynew_i|));
 * NaN when the trial holds a NaN or an infinity. */
ODE_HD static ODE_INLINE ode_real ode_error_ratio(const ode_real *y, const ode_real *ynew,
                                                  const ode_real *err)
{
    ode_real ratio = ODE_R(0.0);
    int finite = 1;
    ODE_FOR_STATES(i) {
        finite &= ode_finite(ynew[i]) & ode_finite(err[i]);
        ode_real scale = ode_atol(i) + ode_rtol(i) * ode_fmax(ode_fabs(y[i]), ode_fabs(ynew[i]));
        ode_real q = ode_fabs(err[i]) / scale;
        ratio = q > ratio ? q : ratio;
    }
    return finite ? ratio : (ode_real)NAN;
}

/* ------------------------------------------------------------------ trial steps */

/* A step of the chosen method without error control (event location and
 * RK4); returns 0 when the result holds a NaN or an infinity. */
ODE_HD static ODE_INLINE int ode_trial(OdeSystem *s, ode_real t, ode_real h, const ode_real *y,
                                       ode_real *ynew, OdeTrigStep *ts)
{
#if ODE_RKCK45
    ode_real err[ODE_NSTATE];
    (void)ts;
    ode_rkck_step(s, t, h, y, ynew, err);
    s->evals += 6;
#else
#if ODE_NTRIG > 0 && ODE_TRIG_ROTATE
    ode_trig_step_for(s, h, ts);
#endif
    ode_rk4_step(s, t, h, y, ynew, ts);
    s->evals += 4;
#endif
    int finite = 1;
    ODE_FOR_STATES(i) finite &= ode_finite(ynew[i]);
    return finite;
}

/* ------------------------------------------------------------------ events */
#if ODE_NEVENT > 0

typedef unsigned long long ode_mask;   /* one bit per event (at most 64 events) */
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

/* a[k] for a run-time k without indexing a register array at run time (which
 * would move the array to local memory): a chain of selects. */
ODE_HD static ODE_INLINE ode_real ode_pick(const ode_real *a, int k)
{
    ode_real v = a[0];
    ODE_FOR_EVENTS(e) v = e == k ? a[e] : v;
    return v;
}

/* Among the armed events, the one whose crossing comes earliest by the secant
 * estimate between (lo, glo) and (hi, ghi); -1 when none jumped. */
ODE_HD static ODE_INLINE int ode_earliest_jump(ode_mask armed, const ode_real *gp,
                                               const ode_real *glo, const ode_real *ghi)
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

/* The accepted trial (t, y) → (t + *h, ynew) with event values g jumped over
 * an event zone: shorten the step (Illinois-modified secant on the earliest
 * crossing, repeated) until its end lies inside that zone.  On return *h,
 * ynew and g describe the shortened step; the result is the mask of events
 * detected at its end. */
ODE_HD static ODE_INLINE ode_mask ode_locate(OdeSystem *s, ode_real t, const ode_real *y,
                                             ode_real *h, ode_real *ynew, ode_real *g,
                                             const ode_real *gp, ode_mask armed, int target,
                                             OdeTrigStep *ts)
{
    ode_real lo = ODE_R(0.0), hi = *h;
    ode_real glo[ODE_NEVENT], ghi[ODE_NEVENT], gc[ODE_NEVENT], yc[ODE_NSTATE];
    ODE_FOR_EVENTS(e) { glo[e] = gp[e]; ghi[e] = g[e]; }
    ode_real wlo = ode_pick(glo, target), whi = ode_pick(ghi, target);   /* Illinois weights of the target */
    int kept = 0;                                     /* +1: hi kept last time, -1: lo kept */
    for (int iter = 0; iter < ODE_EVENT_MAXITER; iter++) {
        ode_real hc = lo + (hi - lo) * (wlo / (wlo - whi));
        if (!(hc > lo && hc < hi))
            hc = ODE_R(0.5) * (lo + hi);
        if (!(hc > lo && hc < hi))
            break;                                    /* the bracket is at rounding level */
        if (!ode_trial(s, t, hc, y, yc, ts))
            break;
        ode_model_events(s, t + hc, yc, gc);
        int next = ode_earliest_jump(armed, gp, glo, gc);
        if (next >= 0) {                              /* still past a zone: new upper end */
            hi = hc;
            ODE_FOR_EVENTS(e) ghi[e] = gc[e];
            ODE_FOR_STATES(i) ynew[i] = yc[i];
            if (next != target) { target = next; wlo = ode_pick(glo, target); kept = 0; }
            else if (kept == -1) wlo *= ODE_R(0.5);
            whi = ode_pick(ghi, target);
            kept = -1;
            continue;
        }
        ode_mask landed = ode_landed_mask(armed, gp, gc);
        if (landed) {                                 /* inside the zone: the step ends here */
            *h = hc;
            ODE_FOR_STATES(i) ynew[i] = yc[i];
            ODE_FOR_EVENTS(e) g[e] = gc[e];
            return landed;
        }
        lo = hc;                                      /* not there yet: new lower end */
        ODE_FOR_EVENTS(e) glo[e] = gc[e];
        wlo = ode_pick(glo, target);
        if (kept == 1) whi *= ODE_R(0.5);
        kept = 1;
    }
    /* The crossing is pinned to rounding level (or a trial failed): detect it
     * at the upper end of the bracket. */
    *h = hi;
    ODE_FOR_EVENTS(e) g[e] = ghi[e];
    return ODE_BIT(target);
}
#endif /* ODE_NEVENT > 0 */

/* ------------------------------------------------------------------ one integration */

/* RK4's checked fast path: with no events and no `on step` hook, planned
 * whole steps run in blocks of ODE_FAST_BLOCK whose loop branches on a counter
 * only; the bound test (which NaN fails too) is accumulated and looked at once
 * per block.  A block that failed it is undone and redone step by step, so
 * the system still stops at the exact step, with its last finite state.  The
 * point: a branch on a floating-point comparison after every step makes the
 * next step wait for it.  -DODE_FAST_RK4=0 turns it off (for measuring). */
#ifndef ODE_FAST_RK4
#define ODE_FAST_RK4 1
#endif
#ifndef ODE_FAST_BLOCK
#define ODE_FAST_BLOCK 8
#endif
#define ODE_FAST (ODE_FAST_RK4 && !ODE_RKCK45 && ODE_NEVENT == 0 && !ODE_HAS_ON_STEP)

/* Per-integration step counters: 32 bits when maxsteps allows (cheaper in
 * the kernel's inner loop), folded into the system's 64-bit totals at the end. */
#if ODE_OPT_MAXSTEPS < 4000000000ULL
typedef unsigned int ode_count;
#else
typedef unsigned long long ode_count;
#endif

/* Integrates s from s->t0 to s->t1 (or to a stop) and leaves its status. */
ODE_HD static ODE_INLINE void ode_integrate(OdeSystem *s)
{
    s->status = ODE_STATUS_RUNNING;
    ODE_FOR_EVENTS(e) s->count[e] = 0;
    s->t = s->t0;
#if ODE_HAS_ON_START
    ode_model_on_start(s);
    s->t = s->t0;                          /* on start may move the window */
#endif
    const ode_real t1 = s->t1;
    ode_real h = ODE_OPT_DT;
    /* A step within rounding of the rest takes the rest (no sliver step). */
    const ode_real clip = ODE_R(1.0) + ODE_R(64.0) * ODE_EPS;
#if ODE_RKCK45
    const ode_real dtmin = ODE_OPT_DTMIN, dtmax = ODE_OPT_DTMAX;
    h = ode_fmin(ode_fmax(h, dtmin), dtmax);
#else
    int whole = 0;                         /* RK4: steps of h planned before t1 needs looking at */
#endif
    ode_count nstep = 0;                   /* accepted steps in this integration */
    ode_count ntrial = 0;                  /* main trials (stages: ×4 or ×6), rejected ones too */
    OdeTrigStep ts;                        /* h = 0: made for no step size yet */
    ts.h = ODE_R(0.0);
    ODE_UNROLL for (int k = 0; k < ODE_ALLOC(ODE_NTRIG); k++)
        ts.half.s[k] = ts.half.c[k] = ts.full.s[k] = ts.full.c[k] = ODE_R(0.0);
#if ODE_NEVENT > 0
    ode_real g[ODE_NEVENT];                /* event values at the current point */
    int zone[ODE_NEVENT];                  /* accepted steps inside a zone after it was entered */
    ode_mask armed = 0;
    ode_model_events(s, s->t, s->y, g);
    ODE_FOR_EVENTS(e) {
        zone[e] = 0;
        if (ode_fabs(g[e]) > ode_event_tol(e)) armed |= ODE_BIT(e);   /* starting inside: not detected */
    }
#endif
    while (s->status == ODE_STATUS_RUNNING) {
        ode_real hs = h;
        int last = 0;
#if ODE_RKCK45
        {
            const ode_real left = t1 - s->t;
            if (!(left > ODE_R(0.0))) {
                s->status = ODE_STATUS_FINISHED;
                break;
            }
            if (left <= hs * clip) {       /* the last step ends exactly at t1 */
                hs = left;
                last = 1;
            }
        }
#else
#if ODE_FAST
        if (whole >= ODE_FAST_BLOCK && nstep + ODE_FAST_BLOCK < ODE_OPT_MAXSTEPS) {
            ode_real ysave[ODE_NSTATE];
            const ode_real tsave = s->t;
            int inside = 1;
            ODE_FOR_STATES(i) ysave[i] = s->y[i];
#if ODE_NTRIG > 0 && ODE_TRIG_ROTATE
            ode_trig_step_for(s, h, &ts);
#endif
            for (int k = 0; k < ODE_FAST_BLOCK; k++) {
                ode_real yb[ODE_NSTATE];
                ode_rk4_step(s, s->t, h, s->y, yb, &ts);
                ODE_FOR_STATES(i) {
                    inside &= ode_fabs(yb[i]) <= ODE_OPT_BOUND;
                    s->y[i] = yb[i];
                }
                s->t += h;
            }
            if (inside) {
                whole -= ODE_FAST_BLOCK;
                nstep += ODE_FAST_BLOCK;
                ntrial += ODE_FAST_BLOCK;
                continue;
            }
            s->t = tsave;                  /* undo: the steps below find where it failed */
            ODE_FOR_STATES(i) s->y[i] = ysave[i];
        }
#endif
        if (whole > 0) {
            whole--;                       /* a planned whole step: no look at t1 */
        } else {
            /* Plan: the whole steps of h that fit before t1 (less a rounding
             * margin), then the clipped last step. */
            const ode_real left = t1 - s->t;
            if (!(left > ODE_R(0.0))) {
                s->status = ODE_STATUS_FINISHED;
                break;
            }
            if (left <= hs * clip) {
                hs = left;
                last = 1;
            } else {
                const ode_real n = left / (h * clip);
                whole = n < ODE_R(1.0e9) ? (int)n - 1 : 1000000000;
                if (whole < 0) whole = 0;
            }
        }
#endif
        ode_real ynew[ODE_NSTATE];
        ode_real hnext = h;
        ntrial++;
#if ODE_RKCK45
        {
            /* A step below rounding of t would not move t: dtmin never goes there. */
            const ode_real hmin = ode_fmax(dtmin, ODE_R(4.0) * ODE_EPS * ode_fabs(s->t));
            if (!last && hs < hmin) hs = hmin;
            ode_real err[ODE_NSTATE];
            ode_rkck_step(s, s->t, hs, s->y, ynew, err);
            const ode_real ratio = ode_error_ratio(s->y, ynew, err);
            /* At the smallest step a trial is taken whatever its error; the
             * proposal h decides (a clipped last step may be a hair longer
             * than dtmin and must not be rejected for ever). */
            const int at_min = h <= hmin || hs <= hmin;
            if (!(ratio == ratio)) {       /* NaN or Inf in the trial: shrink, or stop at dtmin */
                if (at_min) {
                    s->status = ODE_STATUS_NAN;
                    break;
                }
                h = ode_fmax(hs * ODE_OPT_HSHRINK, hmin);
                continue;
            }
            ode_real factor = ratio > ODE_R(0.0) ? ODE_R(0.9) * ode_pow_m1_5(ratio) : ODE_OPT_HGROW;
            factor = ode_fmin(ode_fmax(factor, ODE_OPT_HSHRINK), ODE_OPT_HGROW);
            if (ratio > ODE_R(1.0) && !at_min) {   /* rejected: undo the step, try a smaller one */
                h = ode_fmax(hs * factor, hmin);
                continue;
            }
            hnext = ode_fmin(ode_fmax(hs * factor, dtmin), dtmax);
            if (last && hnext < h) hnext = h;      /* a clipped step says little about the next */
        }
#else
#if ODE_NTRIG > 0 && ODE_TRIG_ROTATE
        ode_trig_step_for(s, hs, &ts);
#endif
        ode_rk4_step(s, s->t, hs, s->y, ynew, &ts);
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
                s->status = ODE_STATUS_NAN;
                break;
            }
        }
        ode_real tnew = last ? t1 : s->t + hs;
#if ODE_NEVENT > 0
        ode_real gn[ODE_NEVENT];
        ode_model_events(s, tnew, ynew, gn);
        ode_mask fired;
        const int target = ode_earliest_jump(armed, g, g, gn);
        if (target >= 0) {
            ode_real hl = hs;
            fired = ode_locate(s, s->t, s->y, &hl, ynew, gn, g, armed, target, &ts);
            if (hl != hs) {
                tnew = s->t + hl;
                inside = 1;                /* the shorter step's own end */
                ODE_FOR_STATES(i) inside &= ode_fabs(ynew[i]) <= ODE_OPT_BOUND;
#if !ODE_RKCK45
                whole = 0;                 /* the grid moved with the event: plan again */
#endif
            }
        } else {
            fired = ode_landed_mask(armed, g, gn);
        }
#endif
        /* Accept. */
        s->t = tnew;
        ODE_FOR_STATES(i) s->y[i] = ynew[i];
        nstep++;
        int stop = 0;
#if ODE_NEVENT > 0
        if (fired) {
            ODE_FOR_EVENTS(e) {
                if (fired & ODE_BIT(e)) {
                    s->count[e]++;
                    armed &= ~ODE_BIT(e);
                    zone[e] = 0;
                    ode_model_on_event(s, e);
                    if (ode_event_stop(e) > 0 && s->count[e] >= ode_event_stop(e)) stop = 1;
                }
            }
            ode_model_events(s, s->t, s->y, gn);   /* the statements may have moved the state */
        }
        ODE_FOR_EVENTS(e) {
            g[e] = gn[e];
            if (ode_fabs(g[e]) > ode_event_tol(e)) {   /* outside the zone: (re-)armed */
                armed |= ODE_BIT(e);
                zone[e] = 0;
            } else if (!(fired & ODE_BIT(e)) && ++zone[e] >= ODE_OPT_EVSTEPS) {
                stop = 2;   /* evsteps accepted steps in the zone, armed or not: an equilibrium */
            }
        }
#endif
#if ODE_HAS_ON_STEP
        ode_model_on_step(s);
#endif
        if (!inside) s->status = ODE_STATUS_BOUND;
        else if (stop == 1) s->status = ODE_STATUS_EVENT;
        else if (stop == 2) s->status = ODE_STATUS_EQUILIBRIUM;
        else if (nstep >= ODE_OPT_MAXSTEPS) s->status = ODE_STATUS_MAXSTEPS;
        h = hnext;
    }
    s->steps += nstep;
    s->evals += (unsigned long long)ntrial * (ODE_RKCK45 ? 6u : 4u);
#if ODE_HAS_ON_END
    ode_model_on_end(s);
#endif
}

#endif /* ODE_SOLVER_H */
