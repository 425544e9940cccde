/* stepper.h — one trial step of an explicit Runge–Kutta method over its
 * tableau (tableaux.h): the one stepper every method goes through, and the
 * error ratio that the adaptive methods' step control reads.
 *
 * Every loop runs over a compile-time count and is unrolled, so that each
 * coefficient is a constant the compiler folds (zeros vanish) and each stage
 * derivative is a register: no array is indexed at run time.
 */
#ifndef ODE_STEPPER_H
#define ODE_STEPPER_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#endif

#define ODE_FOR_STATES(i) ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++)
#define ODE_FOR_EVENTS(e) ODE_UNROLL for (int e = 0; e < ODE_NEVENT; e++)

/* The stage derivatives of one step: k[j] = f(t + c_j h, Y_j) (tableaux.h:
 * ODE_NK, ODE_KEND). */
typedef struct OdeStages {
    ode_real k[ODE_NK][ODE_ALLOC(ODE_NSTATE)];
#if ODE_ROSENBROCK
    int singular;                           /* the last trial's W was singular (rosenbrock.h) */
#endif
} OdeStages;

/* ------------------------------------------------------------------ sin/cos of time */

/* The right-hand side may hold sin and cos of arguments affine in t
 * (a_k t + b_k, with a_k and b_k fixed per system: `cos(t)`,
 * `sin(2*pi*f*t+phi)`).  The generator lists them (ODE_NTRIG) and the RHS
 * reads their values from an OdeTrig (system.h).  A fixed-step method
 * evaluates them once per step, at t, and reaches its stage times t + c h by
 * angle addition with sin/cos of a_k c h, which change only when h does: one
 * sincos per step instead of one per stage.  An adaptive method, whose h
 * changes at every step, evaluates them at each stage time. */
#ifndef ODE_TRIG_ROTATE
#define ODE_TRIG_ROTATE 1   /* 0 (odegen --no-time-trig): sin/cos at every stage time */
#endif
#define ODE_ROTATE (ODE_NTRIG > 0 && ODE_TRIG_ROTATE && !ODE_ADAPTIVE)
#if ODE_ADAPTIVE
#define ODE_NSLOT 0
#else
#define ODE_NSLOT ODE_TAB(NTRIG_SLOTS)   /* distinct non-zero nodes of the method */
#endif

/* sin/cos of a_k c h for each distinct node c, for the step size h they
 * were made for (h = 0: none yet). */
typedef struct OdeTrigStep {
    ode_real h;
    OdeTrig rot[ODE_ALLOC(ODE_NSLOT)];
} OdeTrigStep;

ODE_HD static ODE_INLINE void ode_trig_step_init(OdeTrigStep *ts)
{
    ts->h = ODE_R(0.0);
    ODE_UNROLL for (int j = 0; j < ODE_ALLOC(ODE_NSLOT); j++)
        ODE_UNROLL for (int k = 0; k < ODE_ALLOC(ODE_NTRIG); k++)
            ts->rot[j].s[k] = ts->rot[j].c[k] = ODE_R(0.0);
}

#if ODE_ROTATE
#define ODE_FOR_TRIG(k) ODE_UNROLL for (int k = 0; k < ODE_NTRIG; k++)

ODE_HD static ODE_INLINE void ode_trig_step_for(const OdeSystem *s, ode_real h, OdeTrigStep *ts)
{
    if (ts->h == h) return;
    ts->h = h;
    const ode_real node[ODE_ALLOC(ODE_NSLOT)] = ODE_TAB(TRIG_NODES);
    ODE_UNROLL for (int j = 0; j < ODE_NSLOT; j++)
        ODE_FOR_TRIG(k) ode_sincos(ode_model_trig_rate(s, k) * (node[j] * h), &ts->rot[j].s[k], &ts->rot[j].c[k]);
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

/* sin/cos of time at t (what the right-hand side reads of them). */
ODE_HD static ODE_INLINE void ode_trig_at(const OdeSystem *s, ode_real t, OdeTrig *tr)
{
#if ODE_NTRIG > 0
    ode_model_trig(s, t, tr);
#else
    (void)s;
    (void)t;
    tr->s[0] = tr->c[0] = ODE_R(0.0);      /* nothing to read: no sin/cos of time */
#endif
}

#if !ODE_LOOP_FORM   /* (a model in loop form: the team's own, team_*.h) */
/* f(t, y) into dy, with sin/cos of time evaluated at t. */
ODE_HD static ODE_INLINE void ode_rhs_at(const OdeSystem *s, ode_real t, const ode_real *y, ode_real *dy)
{
    OdeTrig tr;
    ode_trig_at(s, t, &tr);
    ode_model_rhs(s, t, y, dy, &tr);
}
#endif

/* ------------------------------------------------------------------ the trial step */
#if !ODE_ROSENBROCK   /* (a Rosenbrock method's trial: rosenbrock.h) */

/* The last stage whose input reads k_l (0: none): where k_l's terms of the
 * weighted sums are added, so that it is dead from there on. */
ODE_HD static ODE_INLINE int ode_last_use(const ode_real a[ODE_NK][ODE_NK], int l)
{
    int last = 0;
    ODE_UNROLL for (int j = 1; j < ODE_NSTAGE; j++)
        if (j > l && a[j][l] != ODE_R(0.0)) last = j;
    return last;
}

#if !ODE_LOOP_FORM   /* (a model in loop form: the team's own, team_*.h) */
/* Stage j's input y + h Σ_l a_jl k_l (a: the tableau, whose zeros the
 * compiler drops, the loops being unrolled over compile-time counts). */
ODE_HD static ODE_INLINE void ode_stage_input(const ode_real a[ODE_NK][ODE_NK], int j, ode_real h, const ode_real *y,
                                              const OdeStages *st, ode_real *yt)
{
    ODE_FOR_STATES(i) yt[i] = y[i];
    ODE_UNROLL for (int l = 0; l < j; l++) {
        if (a[j][l] == ODE_R(0.0)) continue;
        const ode_real ha = h * a[j][l];
        ODE_FOR_STATES(i) yt[i] += ha * st->k[l][i];
    }
}

/* One trial step of the method from (t, y) over h.  st->k[0] holds f(t, y)
 * on entry when have_k0, else it is computed here.  Leaves the stages in
 * st->k[1 .. ODE_NSTAGE-1] (an FSAL method's last one is f(t+h, ynew), its
 * input row being b), the new state in ynew and, for an adaptive method, the
 * error estimate in err (h Σ E_j k_j; DOP853: Hairer's combination of its
 * two estimates).  Each stage's terms of the weighted sums are added right
 * after the last stage input that reads it, so that no stage derivative
 * stays alive longer than the stages need it. */
ODE_HD static ODE_INLINE void ode_rk_trial(const OdeSystem *s, ode_real t, ode_real h, const ode_real *y,
                                           int have_k0, OdeStages *st, ode_real *ynew, ode_real *err,
                                           OdeTrigStep *ts)
{
    const ode_real c[ODE_NK] = ODE_TAB(C);
    const ode_real a[ODE_NK][ODE_NK] = ODE_TAB(A);
    const ode_real b[ODE_NK] = ODE_TAB(B);
#if ODE_ERR_DOP853
    const ode_real e[ODE_NK] = ODE_DOP853_E5, e3[ODE_NK] = ODE_DOP853_E3;
    ode_real err3[ODE_ALLOC(ODE_NSTATE)];
#elif ODE_ADAPTIVE
    const ode_real e[ODE_NK] = ODE_TAB(E);
#endif
    /* k_l's terms of ynew (unless FSAL made ynew the last stage's input)
     * and of the error estimate. */
#if ODE_ERR_DOP853
#define ODE_ERR_TERMS(l)                                                                       \
    if (e[l] != ODE_R(0.0)) ODE_FOR_STATES(i) err[i] += e[l] * st->k[l][i];                    \
    if (e3[l] != ODE_R(0.0)) ODE_FOR_STATES(i) err3[i] += e3[l] * st->k[l][i];
#elif ODE_ADAPTIVE
#define ODE_ERR_TERMS(l) \
    if (e[l] != ODE_R(0.0)) ODE_FOR_STATES(i) err[i] += e[l] * st->k[l][i];
#else
#define ODE_ERR_TERMS(l)
#endif
#define ODE_SUM_TERMS(l)                                                                       \
    do {                                                                                       \
        if (!ODE_FSAL && b[l] != ODE_R(0.0)) {                                                 \
            const ode_real hb = h * b[l];                                                      \
            ODE_FOR_STATES(i) ynew[i] += hb * st->k[l][i];                                     \
        }                                                                                      \
        ODE_ERR_TERMS(l)                                                                       \
    } while (0)
    OdeTrig tr0, tr;
#if ODE_ROTATE
    const int slot[ODE_NK] = ODE_TAB(TRIG_SLOT);
    ode_trig_step_for(s, h, ts);
    ode_model_trig_full(s, t, &tr0);       /* the stages' values follow by angle addition */
#else
    (void)ts;
    if (!have_k0) ode_trig_at(s, t, &tr0);
#endif
    if (!have_k0) ode_model_rhs(s, t, y, st->k[0], &tr0);
    ODE_FOR_STATES(i) {
        ynew[i] = y[i];
#if ODE_ERR_DOP853
        err[i] = err3[i] = ODE_R(0.0);
#elif ODE_ADAPTIVE
        err[i] = ODE_R(0.0);
#else
        (void)err;
#endif
    }
    if (ode_last_use(a, 0) == 0) ODE_SUM_TERMS(0);
    ODE_UNROLL for (int j = 1; j < ODE_NSTAGE; j++) {
        ode_real yt[ODE_ALLOC(ODE_NSTATE)];
        ode_stage_input(a, j, h, y, st, yt);
        ODE_UNROLL for (int l = 0; l < j; l++)
            if (ode_last_use(a, l) == j) ODE_SUM_TERMS(l);
        if (ODE_FSAL && j == ODE_NSTAGE - 1)
            ODE_FOR_STATES(i) ynew[i] = yt[i];     /* the last stage is at the step's end */
#if ODE_ROTATE
        ode_trig_rotate(&tr0, &ts->rot[slot[j]], &tr);
#else
        ode_trig_at(s, t + c[j] * h, &tr);
#endif
        ode_model_rhs(s, t + c[j] * h, yt, st->k[j], &tr);
        if (ode_last_use(a, j) == 0) ODE_SUM_TERMS(j);
    }
#undef ODE_SUM_TERMS
#undef ODE_ERR_TERMS
#if ODE_ERR_DOP853
    ODE_FOR_STATES(i) {   /* err5 |err5| / sqrt(err5² + 0.01 err3²), as Hairer's DOP853 */
        const ode_real d = err[i] * err[i] + ODE_R(0.01) * (err3[i] * err3[i]);
        err[i] = d > ODE_R(0.0) ? h * err[i] * (ode_fabs(err[i]) / ode_sqrt(d)) : ODE_R(0.0);
    }
#elif ODE_ADAPTIVE
    ODE_FOR_STATES(i) err[i] *= h;
#endif
    (void)c;
}

/* The method's trial step, for integrate.h and events.h; and the status of a
 * trial that failed at the smallest step. */
#define ode_trial ode_rk_trial
#define ODE_TRIAL_FAILURE(st) ODE_STATUS_NAN
#endif /* !ODE_LOOP_FORM */
#endif /* !ODE_ROSENBROCK */

#if !ODE_LOOP_FORM   /* (a model in loop form: the team's own, team_*.h) */
/* f at the step's end (t + h, ynew) into k[ODE_KEND]: for a method that is
 * not FSAL, the next step's first stage and the extension's end slope. */
ODE_HD static ODE_INLINE void ode_rk_end(const OdeSystem *s, ode_real t, ode_real h, const ode_real *ynew,
                                         OdeStages *st)
{
    if (!ODE_FSAL) ode_rhs_at(s, t + h, ynew, st->k[ODE_KEND]);
}
#endif

/* Right-hand-side evaluations of one trial (have_k0: the first stage was
 * known). */
#define ODE_TRIAL_EVALS(have_k0) ((unsigned)(ODE_NSTAGE - 1) + ((have_k0) ? 0u : 1u))

/* ------------------------------------------------------------------ error ratio */

#if !ODE_LOOP_FORM   /* (a model in loop form: the team's own, team_*.h) */
/* The error ratio max_i |err_i| / (atol_i + rtol_i * max(|y_i|, |ynew_i|))
 * (the tolerances: the model's ode_rtol, ode_atol under the run-time options
 * ode_opt); NaN when the trial holds a NaN or an infinity. */
ODE_HD static ODE_INLINE ode_real ode_error_ratio(const OdeOptions *ode_opt, const ode_real *y, const ode_real *ynew,
                                                  const ode_real *err)
{
    ode_real ratio = ODE_R(0.0);
    int finite = 1;
    ODE_FOR_STATES(i) {
        finite &= ode_finite(ynew[i]) & ode_finite(err[i]);
        ode_real scale = ode_atol(ode_opt, i) + ode_rtol(ode_opt, i) * ode_fmax(ode_fabs(y[i]), ode_fabs(ynew[i]));
        ode_real q = ode_fabs(err[i]) / scale;
        ratio = q > ratio ? q : ratio;
    }
    return finite ? ratio : (ode_real)NAN;
}
#endif

#endif /* ODE_STEPPER_H */
