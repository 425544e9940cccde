/* delay.h — delay(x, tau): XPPAUT's delay equations, with each system's
 * recent past kept as the method's own continuous extension.
 *
 * Every accepted step stores its extension (dense.h: y0 and the rows F of
 * the nested form, for the delayed states only) in a ring of slots in the
 * arrays' memory (OdeArrays.hist: slot-major, system-minor, so that the
 * threads of a warp touch neighbouring addresses).  x(t - tau) is then the
 * extension of the stored step that holds t - tau: as accurate as the
 * method's own interpolant (the cubic Hermite one, or DOPRI5's, Tsit5's,
 * DOP853's rows).  Before the history's start it is the file's initial
 * function (x(0)=EXPR of t, as XPPAUT reads it; 0 without one).
 *
 * Times in the ring are "history time": the first integration's own time,
 * continued across later integrations (each starts where the previous one
 * ended, whatever its window says), so that `repeat` carries the past over
 * as it carries the state.
 *
 * A read after the newest stored step (a delay shorter than the step)
 * reads the extension of the step being taken: the trial is made once with
 * the newest step's extension extrapolated, then repeated reading its own
 * extension until it no longer changes (a fixed-point iteration, as
 * Hairer's RETARD extrapolates and iterates; integrate.h).
 *
 * Constant delays (of parameters and numbers only) make the solution's
 * derivatives jump at the breaking points t0 + k1 tau1 + k2 tau2 + …; the
 * steps end on each of them up to the method's order (integrate.h), so that
 * no step straddles one.
 *
 * Failures are statuses, never wrong values: tau beyond `@ delay`, or a past
 * older than the ring's slots hold, stop the system with `history`.
 */
#ifndef ODE_DELAY_H
#define ODE_DELAY_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "dense.h"
#endif

#if ODE_NDELAY > 0

/* A slot: the step's start, its length, where it ends (an event may end it
 * early), then per delayed state y0 and the ODE_NF rows. */
#define ODE_HIST_W (3 + ODE_NDELAY * (1 + ODE_NF))
/* The system's header after the slots: a mark that it is valid, the
 * history's start, the newest step's end, the newest slot, the slots used,
 * the offset of history time over the integration's time, then the delayed
 * states at the history's start (what a delay reads there, however many
 * slots have been overwritten since). */
#define ODE_HIST_HEADER (6 + ODE_NDELAY)
#define ODE_HIST_MARK ODE_R(20231.0)
#ifndef ODE_DELAY_BREAKS
#define ODE_DELAY_BREAKS 1  /* 0: steps ignore the breaking points (for measuring what they are worth) */
#endif
#ifndef ODE_DELAY_SLOPE
#define ODE_DELAY_SLOPE 1   /* 0: a stiff method's df/dt takes the past as constant (for measuring what its slope is worth) */
#endif
#ifndef ODE_DELAY_ITER
#define ODE_DELAY_ITER 12   /* most passes of a step that reads its own extension */
#endif

enum { ODE_HIST_OK = 0, ODE_HIST_TOO_LONG = 1, ODE_HIST_LOST = 2 };

struct OdeHist {
    ode_real *ring;            /* OdeArrays.hist */
    int n, i, slots;           /* stride, system, slots */
    int head, count;           /* the newest slot, the slots holding steps */
    ode_real t_hist;           /* history time where the initial function ends */
    ode_real t_end;            /* history time where the newest stored step ends */
    ode_real offset;           /* history time - the integration's time */
    ode_real y_hist[ODE_NDELAY];   /* the delayed states at t_hist */
    const OdeDense *cur;       /* the step being taken (reads after t_end), or NULL */
    const ode_real *y_start;   /* the state at t_end (reads after it before any step) */
    int ahead;                 /* this trial read after t_end */
    int fail;                  /* ODE_HIST_TOO_LONG, ODE_HIST_LOST */
    int cursor[ODE_ALLOC(ODE_NDELAY_SITES)];   /* the slot each call site read last */
#if ODE_NDELAY_CONST > 0
    ode_real tau[ODE_NDELAY_CONST];   /* the constant delays, this system's */
#endif
    ode_real bp;               /* the next breaking point (history time), or +inf */
};

ODE_HD static ODE_INLINE ode_real *ode_hist_at(const OdeHist *H, int slot, int w)
{
    return &H->ring[((size_t)slot * ODE_HIST_W + (size_t)w) * (size_t)H->n + (size_t)H->i];
}

/* System i's past from the arrays: a fresh one (the initial function up to
 * its window's start) when it was just loaded or its ring was (re)made. */
ODE_HD static ODE_INLINE void ode_hist_open(OdeHist *H, const OdeArrays *a, int i, const OdeSystem *s)
{
    H->ring = a->hist;
    H->n = a->n;
    H->i = i;
    H->slots = a->hist_slots;
    H->cur = 0;
    H->y_start = s->y;
    H->ahead = 0;
    H->fail = ODE_HIST_OK;
    H->bp = (ode_real)INFINITY;
    ODE_UNROLL for (int c = 0; c < ODE_ALLOC(ODE_NDELAY_SITES); c++) H->cursor[c] = 0;
    const ode_real *hd = ode_hist_at(H, H->slots, 0);
    const size_t n = (size_t)H->n;
    if (s->status == ODE_STATUS_READY || hd[0] != ODE_HIST_MARK) {
        H->t_hist = H->t_end = s->t0;
        H->head = H->slots - 1;
        H->count = 0;
        H->offset = ODE_R(0.0);
        ODE_UNROLL for (int k = 0; k < ODE_NDELAY; k++) H->y_hist[k] = s->y[ode_delay_state(k)];
    } else {
        H->t_hist = hd[1 * n];
        H->t_end = hd[2 * n];
        H->head = (int)hd[3 * n];
        H->count = (int)hd[4 * n];
        H->offset = hd[5 * n];
        ODE_UNROLL for (int k = 0; k < ODE_NDELAY; k++) H->y_hist[k] = hd[(6 + (size_t)k) * n];
    }
}

ODE_HD static ODE_INLINE void ode_hist_close(const OdeHist *H)
{
    ode_real *hd = ode_hist_at(H, H->slots, 0);
    const size_t n = (size_t)H->n;
    hd[0] = ODE_HIST_MARK;
    hd[1 * n] = H->t_hist;
    hd[2 * n] = H->t_end;
    hd[3 * n] = (ode_real)H->head;
    hd[4 * n] = (ode_real)H->count;
    hd[5 * n] = H->offset;
    ODE_UNROLL for (int k = 0; k < ODE_NDELAY; k++) hd[(6 + (size_t)k) * n] = H->y_hist[k];
}

/* Component k of an extension stored as y0 and the rows F (nested form,
 * dense.h) at θ; θ > 1 extrapolates. */
ODE_HD static ODE_INLINE ode_real ode_hist_poly(ode_real y0, const ode_real *F, ode_real theta)
{
    const ode_real u = ODE_R(1.0) - theta;
    ode_real acc = F[ODE_NF - 1] * ((ODE_NF - 1) % 2 ? u : theta);
    ODE_UNROLL for (int m = ODE_NF - 2; m >= 0; m--) acc = (F[m] + acc) * (m % 2 ? u : theta);
    return y0 + acc;
}

/* Delayed state k of stored slot j at history time T. */
ODE_HD static ODE_INLINE ode_real ode_hist_slot_value(const OdeHist *H, int j, int k, ode_real T)
{
    const ode_real t = *ode_hist_at(H, j, 0), h = *ode_hist_at(H, j, 1);
    ode_real F[ODE_NF];
    const int base = 3 + k * (1 + ODE_NF);
    ODE_UNROLL for (int m = 0; m < ODE_NF; m++) F[m] = *ode_hist_at(H, j, base + 1 + m);
    return ode_hist_poly(*ode_hist_at(H, j, base), F, (T - t) / h);
}

/* The extension of the step being taken (local times) at history time T. */
ODE_HD static ODE_INLINE ode_real ode_hist_cur_value(const OdeHist *H, int k, ode_real T)
{
    const OdeDense *D = H->cur;
    const int y = ode_delay_state(k);
    ode_real F[ODE_NF];
    ODE_UNROLL for (int m = 0; m < ODE_NF; m++) F[m] = D->F[m][y];
    return ode_hist_poly(D->y0[y], F, (T - (D->t + H->offset)) / D->h);
}

ODE_HD static ODE_INLINE ode_real ode_delay(const OdeSystem *s, int k, int site, ode_real t, ode_real tau, ode_real now)
{
    OdeHist *H = s->hist;
    if (tau != tau) {                      /* a NaN delay reads nothing */
        if (H) H->fail = ODE_HIST_TOO_LONG;
        return now;
    }
    if (!(tau > ODE_R(0.0))) return now;   /* XPPAUT: a delay of 0 or less is the current value */
    if (!H) return (ode_real)NAN;          /* outside a kernel (the library's value of an aux): no past */
    if (tau > (ode_real)ODE_DELAY_MAX) {
        H->fail = ODE_HIST_TOO_LONG;
        return now;
    }
    const ode_real T = (t - tau) + H->offset;
    /* Where the history meets the initial state, x jumps (a history of 0 meets x(t0)): the side
     * the step is on, within the rounding of t - tau + offset (a window's end made of sums of
     * dt lands 2e-16 past it; the initial value there is an O(dt) error of the whole step). */
    const ode_real seam = ODE_R(64.0) * ODE_EPS *
                          (ode_fmax(ode_fabs(t), ode_fmax(ode_fabs(tau), ODE_R(1.0))) + ode_fabs(H->offset));
    if (ode_fabs(T - H->t_hist) <= seam)   /* (at the step's start: x(t0), as XPPAUT) */
        return t > s->t ? ode_model_history(s, k, H->t_hist) : H->y_hist[k];
    if (T < H->t_hist) return ode_model_history(s, k, T);
    if (T > H->t_end) {                    /* inside the step being taken */
        H->ahead = 1;
        if (H->cur) return ode_hist_cur_value(H, k, T);
        if (H->count > 0) return ode_hist_slot_value(H, H->head, k, T);   /* the newest step, extrapolated */
        return H->y_start[ode_delay_state(k)];
    }
    /* The stored step that holds T: from the slot this site read last, along
     * the ring (constant delays read the next slot or the same). */
    const int oldest = (H->head - H->count + 1 + H->slots) % H->slots;
    int j = H->cursor[site];
    if (((j - oldest + H->slots) % H->slots) >= H->count) j = H->head;   /* not a stored slot: start at the newest */
    for (int guard = 0; guard <= H->count; guard++) {
        const ode_real ts = *ode_hist_at(H, j, 0), te = *ode_hist_at(H, j, 2);
        if (T < ts) {
            if (j == oldest) break;        /* older than the ring holds */
            j = j == 0 ? H->slots - 1 : j - 1;
        } else if (T > te && j != H->head) {
            j = j == H->slots - 1 ? 0 : j + 1;
        } else {
            H->cursor[site] = j;
            return ode_hist_slot_value(H, j, k, T);
        }
    }
    H->fail = ODE_HIST_LOST;
    return now;
}

/* d/dθ of ode_hist_poly (the same nested form, differentiated as it is
 * evaluated). */
ODE_HD static ODE_INLINE ode_real ode_hist_poly_slope(const ode_real *F, ode_real theta)
{
    const ode_real u = ODE_R(1.0) - theta;
    ode_real acc = F[ODE_NF - 1] * ((ODE_NF - 1) % 2 ? u : theta);
    ode_real dacc = (ODE_NF - 1) % 2 ? -F[ODE_NF - 1] : F[ODE_NF - 1];
    ODE_UNROLL for (int m = ODE_NF - 2; m >= 0; m--) {
        const ode_real w = m % 2 ? u : theta, dw = m % 2 ? ODE_R(-1.0) : ODE_R(1.0);
        dacc = dacc * w + (F[m] + acc) * dw;
        acc = (F[m] + acc) * w;
    }
    return dacc;
}

/* The slope d/dT of delayed state k's stored slot j at history time T. */
ODE_HD static ODE_INLINE ode_real ode_hist_slot_slope(const OdeHist *H, int j, int k, ode_real T)
{
    const ode_real t = *ode_hist_at(H, j, 0), h = *ode_hist_at(H, j, 1);
    ode_real F[ODE_NF];
    const int base = 3 + k * (1 + ODE_NF);
    ODE_UNROLL for (int m = 0; m < ODE_NF; m++) F[m] = *ode_hist_at(H, j, base + 1 + m);
    return ode_hist_poly_slope(F, (T - t) / h) / h;
}

/* The slope x'(t - tau) of the past that ode_delay reads (a stiff method's
 * derivatives of delay(x, tau): deriv/deriv.c), from the side after t - tau
 * (the side a step that starts at t reads: at a breaking point the slope
 * jumps).  Not called where tau <= 0 (delay(x, tau) is x itself there). */
ODE_HD static ODE_INLINE ode_real ode_delay_slope(const OdeSystem *s, int k, int site, ode_real t, ode_real tau)
{
    OdeHist *H = s->hist;
    if (!H || tau != tau) return (ode_real)NAN;
    if (!(tau > ODE_R(0.0)) || !ODE_DELAY_SLOPE) return ODE_R(0.0);
    if (tau > (ode_real)ODE_DELAY_MAX) {
        H->fail = ODE_HIST_TOO_LONG;
        return ODE_R(0.0);
    }
    const ode_real T = (t - tau) + H->offset;
    if (T < H->t_hist) return ode_model_history_slope(s, k, T);
    if (T >= H->t_end) {                   /* at or after the newest stored step's end */
        if (T > H->t_end) H->ahead = 1;
        if (H->cur && T > H->t_end) {
            const OdeDense *D = H->cur;
            const int y = ode_delay_state(k);
            ode_real F[ODE_NF];
            ODE_UNROLL for (int m = 0; m < ODE_NF; m++) F[m] = D->F[m][y];
            return ode_hist_poly_slope(F, (T - (D->t + H->offset)) / D->h) / D->h;
        }
        if (H->count > 0) return ode_hist_slot_slope(H, H->head, k, T);
        return ODE_R(0.0);                 /* (nothing stored yet: ode_delay reads the state at the start) */
    }
    const int oldest = (H->head - H->count + 1 + H->slots) % H->slots;
    int j = H->cursor[site];
    if (((j - oldest + H->slots) % H->slots) >= H->count) j = H->head;
    for (int guard = 0; guard <= H->count; guard++) {
        const ode_real ts = *ode_hist_at(H, j, 0), te = *ode_hist_at(H, j, 2);
        if (T < ts) {
            if (j == oldest) break;
            j = j == 0 ? H->slots - 1 : j - 1;
        } else if (T >= te && j != H->head) {   /* (on a slot's end: the next slot's slope) */
            j = j == H->slots - 1 ? 0 : j + 1;
        } else {
            return ode_hist_slot_slope(H, j, k, T);
        }
    }
    H->fail = ODE_HIST_LOST;
    return ODE_R(0.0);
}

/* The accepted step [t, tend] (local times) with extension D: the newest slot. */
ODE_HD static ODE_INLINE void ode_hist_store(OdeHist *H, const OdeDense *D, ode_real tend)
{
    H->head = H->head == H->slots - 1 ? 0 : H->head + 1;
    if (H->count < H->slots) H->count++;
    *ode_hist_at(H, H->head, 0) = D->t + H->offset;
    *ode_hist_at(H, H->head, 1) = D->h;
    *ode_hist_at(H, H->head, 2) = tend + H->offset;
    ODE_UNROLL for (int k = 0; k < ODE_NDELAY; k++) {
        const int y = ode_delay_state(k), base = 3 + k * (1 + ODE_NF);
        *ode_hist_at(H, H->head, base) = D->y0[y];
        ODE_UNROLL for (int m = 0; m < ODE_NF; m++) *ode_hist_at(H, H->head, base + 1 + m) = D->F[m][y];
    }
    H->t_end = tend + H->offset;
}

/* ------------------------------------------------------------------ breaking points */

/* The method's order: breaking points beyond it no longer lower the
 * accuracy of a step that straddles them. */
#define ODE_BP_ORDER ODE_TAB(ORDER)

/* The first breaking point after history time T: t_hist + Σ k_j tau_j with
 * 1 <= Σ k_j <= the order, over the constant delays (for more than three,
 * the multiples of each only); +inf when none is left. */
ODE_HD static ODE_INLINE ode_real ode_hist_next_bp(const OdeHist *H, ode_real T)
{
    ode_real best = (ode_real)INFINITY;
#if ODE_NDELAY_CONST > 0
    const ode_real after = T + ODE_R(64.0) * ODE_EPS * ode_fmax(ode_fabs(T), ODE_R(1.0));
#define ODE_BP_TRY(v)                                                                              \
    do {                                                                                           \
        const ode_real cand = H->t_hist + (v);                                                     \
        if (cand > after && cand < best) best = cand;                                              \
    } while (0)
#if ODE_NDELAY_CONST <= 3
    const ode_real t1 = H->tau[0];
    const ode_real t2 = ODE_NDELAY_CONST > 1 ? H->tau[ODE_NDELAY_CONST > 1 ? 1 : 0] : ODE_R(0.0);
    const ode_real t3 = ODE_NDELAY_CONST > 2 ? H->tau[ODE_NDELAY_CONST > 2 ? 2 : 0] : ODE_R(0.0);
    for (int a = 0; a <= ODE_BP_ORDER; a++)
        for (int b = 0; b <= (ODE_NDELAY_CONST > 1 ? ODE_BP_ORDER - a : 0); b++)
            for (int c = 0; c <= (ODE_NDELAY_CONST > 2 ? ODE_BP_ORDER - a - b : 0); c++)
                if (a + b + c > 0 && (t1 > 0 || a == 0) && (t2 > 0 || b == 0) && (t3 > 0 || c == 0))
                    ODE_BP_TRY(a * t1 + b * t2 + c * t3);
#else
    for (int j = 0; j < ODE_NDELAY_CONST; j++)
        for (int a = 1; a <= ODE_BP_ORDER; a++)
            if (H->tau[j] > 0) ODE_BP_TRY(a * H->tau[j]);
#endif
#undef ODE_BP_TRY
#else
    (void)H;
    (void)T;
#endif
    return best;
}

/* At an integration's start (local time s->t): history time continues from
 * the newest stored step; this system's constant delays; the next breaking
 * point. */
ODE_HD static ODE_INLINE void ode_hist_start(OdeHist *H, const OdeSystem *s)
{
    H->offset = H->t_end - s->t;
    H->y_start = s->y;
#if ODE_NDELAY_CONST > 0
    ode_model_delay_taus(s, H->tau);
    ODE_UNROLL for (int j = 0; j < ODE_NDELAY_CONST; j++)
        if (!(H->tau[j] > ODE_R(0.0) && H->tau[j] <= (ode_real)ODE_DELAY_MAX)) H->tau[j] = ODE_R(0.0);   /* (read as the current value, or refused when read) */
#endif
    H->bp = ode_hist_next_bp(H, H->t_end);
}

/* The step from local time t proposed as h, shortened to end on the next
 * breaking point; *on: it does. */
ODE_HD static ODE_INLINE ode_real ode_hist_clip(const OdeHist *H, ode_real t, ode_real h, ode_real clip, int *on)
{
    const ode_real to = H->bp - H->offset - t;
    *on = 0;
    /* (a breaking point within rounding of t, or within 1e-9 of a step, is
     * reached: no sliver of a step; the next one is looked up when the step
     * is stored) */
    const ode_real near = ode_fmax(ODE_R(64.0) * ODE_EPS * ode_fmax(ode_fabs(t), ODE_R(1.0)), ODE_R(1e-9) * h);
    if (to > near && to <= h * clip) {
        *on = 1;
        return to;
    }
    return h;
}

/* The status a failed read leaves (0: none). */
ODE_HD static ODE_INLINE int ode_hist_status(const OdeHist *H)
{
    return H->fail != ODE_HIST_OK ? ODE_STATUS_HISTORY : 0;
}

/* ------------------------------------------------------------------ the ring's size (host) */

/* Slots a system's ring holds: the steps of dt within `@ delay` (twice as
 * many with events, which split steps), the breaking points' extra steps,
 * and a margin; for an adaptive method, whose dt is only its first step,
 * eight times as many and at least 1024 (Sherman's Chen08/steps.ode, a
 * stiff file whose dt of 2 is its output step, ran out of 4 times as many).  -DODE_DELAY_SLOTS=N
 * sets it.  A system that needs more stops with `history`, never with a
 * wrong past. */
static int ode_hist_slots(double dt)
{
#ifdef ODE_DELAY_SLOTS
    (void)dt;
    return ODE_DELAY_SLOTS;
#else
    const double steps = dt > 0 ? ceil((double)ODE_DELAY_MAX / dt) : 1e9;
    const double factor = ODE_ADAPTIVE ? 8.0 : ODE_NEVENT > 0 ? 2.0 : 1.0;
    double slots = steps * factor + 8.0 * (ODE_BP_ORDER + 1) + 16.0;
    if (ODE_ADAPTIVE && slots < 1024.0) slots = 1024.0;
    return slots < 1e8 ? (int)slots : 100000000;
#endif
}
#define ODE_HIST_BYTES(dt) \
    (((double)ode_hist_slots(dt) * ODE_HIST_W + ODE_HIST_HEADER) * (double)sizeof(ode_real))

#endif /* ODE_NDELAY > 0 */
#endif /* ODE_DELAY_H */
