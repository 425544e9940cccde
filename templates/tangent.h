/* tangent.h — tangent vectors and the Lyapunov exponents (`lyapunov N`,
 * SPEC §2).
 *
 * N tangent vectors v_1 … v_N (OdeSystem.lv) ride along with the state.  Over
 * each accepted step they take the step of the same method applied to the
 * variational equation v' = J(t, y(t)) v, with J at each stage's own point:
 *     Y_j = y + h Σ_l a_jl k_l     (the state's stages, kept in OdeStages)
 *     K_j = J(t + c_j h, Y_j) (v + h Σ_l a_jl K_l),    v_new = v + h Σ_j b_j K_j
 * which is the derivative of the method's step map itself, so that the
 * exponents are those of the numerical flow; error control stays on the
 * states.  Where the flow is not smooth:
 *   - at an event whose statements assign states, the vectors pass through
 *     the saltation matrix (Müller 1995) S = R + (f⁺ − R f⁻ − R_t) ∇gᵀ / (∇g·f⁻ + g_t),
 *     R = ∂y⁺/∂y and R_t = ∂y⁺/∂t of the statements, ∇g and g_t of the event
 *     function, f⁻ and f⁺ the right-hand side before and after, all at the
 *     located event point (ode_tangent_event_before/after);
 *   - `on start` and `on end` map them by their Jacobian R (ode_tangent_map).
 * They are re-orthonormalised by modified Gram–Schmidt (a QR factorisation,
 * ode_tangent_qr) at the end of every integration, with `every=T` at the
 * first step end T or more after the last, and whenever their spread may
 * approach what the precision holds (below); ln r_KK is added to lsum[K]
 * when the integration is recorded (lcount), and lyapK = lsum[K] / ltime.
 *
 * When to re-orthonormalise without being told: after a QR the vectors are
 * orthonormal, and over the flow's propagator Φ since then their condition
 * number is at most that of Φ, which Gershgorin's circles of the symmetric
 * part S = (J + Jᵀ)/2 bound: every eigenvalue of S lies in [lo, hi], lo =
 * min_i (J_ii - Σ_j≠i |J_ij + J_ji| / 2), hi = max_i (J_ii + …), and
 * cond Φ <= exp ∫ (hi - lo) dt, |v| between exp ∫ lo and exp ∫ hi.  Each
 * accepted step adds h (hi - lo) to lspread and h max(|hi|, |lo|) to lgrow,
 * from J at its first stage (n² additions); a QR follows the step after
 * which lspread passes half the distance to a lost vector, ½ ln(1/(1024 ε))
 * (14.5 in double, 4.5 in float), or lgrow passes what squares of the norms
 * hold (300, 40).  The bound is not tight (Lorenz: a QR about every 0.4 time
 * units, where 1.9 would do), and a QR costs about one tangent stage: far
 * less than a step.  So `lyapunov N` needs no `every=`; what can still lose
 * a vector is a single step (or a reset) that stretches by more than the
 * remaining margin e^14.5.
 *
 * The trace identity (N = n): Σ lyapK = the time average of trace J along
 * the orbit, plus ln |det| of the resets (Liouville).  Each tangent step adds
 * h Σ b_j trace J(Y_j), the method's own quadrature, to ltr (recorded
 * integrations only, as lsum); a reset's volume change is measured exactly by
 * a QR just before it and one just after (the second's Σ ln r_KK is ln |det|
 * of the reset's map, added to ltr too).  lyap_trace_err = (Σ lsum - ltr) /
 * ltime (system.h) is then the error of the tangent integration itself: the
 * step sizes chosen for the states, not for the contracting directions
 * (Rössler with DOPRI5 at toler 1e-3: lyap3 = -2.2 for -5.39).
 *
 * The pieces a stepper calls: ode_tangent_stage (the N tangent stages from J
 * at one stage; a Rosenbrock stepper combines them with its own W matrix)
 * and ode_tangent_rk_step (the whole explicit Runge–Kutta step, after the
 * state's step was accepted: J is needed on accepted steps only).
 *
 * A vector K whose Gram–Schmidt residual falls below 1024 ε of its length
 * (it has become parallel to the ones before it within rounding, so that
 * ln r_KK would be off by more than about 10^-3: a single step or reset that
 * stretches beyond the automatic QR's margin, or a reset that collapses a
 * direction) is marked lost: lyapK and the exponents after it read NaN.
 */
#ifndef ODE_TANGENT_H
#define ODE_TANGENT_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#include "stepper.h"
#endif

#if ODE_NLYAP > 0

#if !ODE_HAS_JACOBIAN
#error "lyapunov needs the Jacobian of the right-hand side (odegen reports why it is missing)"
#endif
#if defined(ODE_ROSENBROCK) && ODE_ROSENBROCK
#error "lyapunov: the tangent step of a Rosenbrock method is not written yet (call ode_tangent_stage per stage)"
#endif

#define ODE_FOR_LYAP(m) ODE_UNROLL for (int m = 0; m < ODE_NLYAP; m++)

/* `every=T` (ODE_LYAP_EVERY_ON 1, T in ODE_LYAP_EVERY): generated constants. */
#ifndef ODE_LYAP_EVERY_ON
#define ODE_LYAP_EVERY_ON 0
#define ODE_LYAP_EVERY 0.0
#endif

/* The Jacobian reads sin/cos of time (generated: ODE_JAC_TRIG); 1 when unknown. */
#ifndef ODE_JAC_TRIG
#define ODE_JAC_TRIG 1
#endif

/* A Gram–Schmidt residual below this fraction of the vector's length: lost. */
#define ODE_LYAP_LOST (ODE_R(1024.0) * ODE_EPS)
/* The automatic QR (header): half of ln(1/ODE_LYAP_LOST), and ln of the
 * largest norm whose square stays finite with room to spare. */
#define ODE_LYAP_SPREAD (ODE_FLOAT ? ODE_R(4.5) : ODE_R(14.5))
#define ODE_LYAP_GROW (ODE_FLOAT ? ODE_R(40.0) : ODE_R(300.0))

/* ------------------------------------------------------------------ start of a launch */

/* v_K = e_K, nothing measured yet. */
ODE_HD static ODE_INLINE void ode_tangent_reset(OdeSystem *s)
{
    ODE_FOR_LYAP(m) {
        ODE_FOR_STATES(i) s->lv[m][i] = i == m ? ODE_R(1.0) : ODE_R(0.0);
        s->lsum[m] = 0.0;
    }
    s->ltime = 0.0;
    s->lqr = s->t;
    s->lcount = 0;
    s->llost = 0;
    s->lspread = s->lgrow = ODE_R(0.0);
    s->ltr = 0.0;
}

/* ------------------------------------------------------------------ steps */

/* The N tangent stages at one stage of a step: kv[m] = J vt[m]. */
ODE_HD static ODE_INLINE void ode_tangent_stage(const ode_real *J, ode_real vt[ODE_NLYAP][ODE_ALLOC(ODE_NSTATE)],
                                                ode_real kv[ODE_NLYAP][ODE_ALLOC(ODE_NSTATE)])
{
    ODE_FOR_LYAP(m) ode_model_jac_mul(J, vt[m], kv[m]);
}

/* J's Gershgorin bounds of its symmetric part, into lspread and lgrow over
 * a step of h (header). */
ODE_HD static ODE_INLINE void ode_tangent_watch(OdeSystem *s, const ode_real *J, ode_real h)
{
    ode_real hi = J[0], lo = J[0];   /* (comparisons, not fmax: no libm call on the CPU) */
    ODE_FOR_STATES(i) {
        ode_real r = ODE_R(0.0);
        ODE_FOR_STATES(k) if (k != i) r += ode_fabs(J[i * ODE_NSTATE + k] + J[k * ODE_NSTATE + i]);
        const ode_real d = J[i * ODE_NSTATE + i], up = d + ODE_R(0.5) * r, down = d - ODE_R(0.5) * r;
        hi = up > hi ? up : hi;
        lo = down < lo ? down : lo;
    }
    s->lspread += h * (hi - lo);
    s->lgrow += h * (ode_fabs(hi) > ode_fabs(lo) ? ode_fabs(hi) : ode_fabs(lo));
}

/* Whether stage j's derivative enters the step: a weight, or a later stage's input. */
ODE_HD static ODE_INLINE int ode_tangent_stage_used(const ode_real a[ODE_NK][ODE_NK], const ode_real *b, int j)
{
    int used = b[j] != ODE_R(0.0);
    ODE_UNROLL for (int l = 1; l < ODE_NSTAGE; l++) used |= l > j && a[l][j] != ODE_R(0.0);
    return used;
}

/* The explicit Runge–Kutta step of the tangent vectors over the accepted
 * step (t, y) → (t + h, ·) whose stages st holds (header above). */
ODE_HD static ODE_INLINE void ode_tangent_rk_step(OdeSystem *s, ode_real t, ode_real h, const ode_real *y,
                                                  const OdeStages *st, OdeTrigStep *ts)
{
    const ode_real c[ODE_NK] = ODE_TAB(C);
    const ode_real a[ODE_NK][ODE_NK] = ODE_TAB(A);
    const ode_real b[ODE_NK] = ODE_TAB(B);
    ode_real kv[ODE_NK][ODE_NLYAP][ODE_ALLOC(ODE_NSTATE)];
    ode_real vn[ODE_NLYAP][ODE_ALLOC(ODE_NSTATE)];
    ODE_FOR_LYAP(m) ODE_FOR_STATES(i) vn[m][i] = s->lv[m][i];
#if ODE_LYAP_FULL
    ode_real tr_sum = ODE_R(0.0);          /* Σ b_j trace J(Y_j) */
#endif
#if ODE_JAC_TRIG && ODE_ROTATE
    const int slot[ODE_NK] = ODE_TAB(TRIG_SLOT);
    OdeTrig tr0;
    ode_trig_step_for(s, h, ts);
    ode_model_trig_full(s, t, &tr0);       /* the stages' values by angle addition, as the step's */
#else
    (void)ts;
#endif
    ODE_UNROLL for (int j = 0; j < ODE_NSTAGE; j++) {
        if (!ode_tangent_stage_used(a, b, j)) continue;
        ode_real yt[ODE_ALLOC(ODE_NSTATE)];
        ode_stage_input(a, j, h, y, st, yt);
        OdeTrig tr;
#if ODE_JAC_TRIG && ODE_ROTATE
        if (j == 0) tr = tr0;
        else ode_trig_rotate(&tr0, &ts->rot[slot[j]], &tr);
#elif ODE_JAC_TRIG
        ode_trig_at(s, t + c[j] * h, &tr);
#else
        ODE_UNROLL for (int k = 0; k < ODE_ALLOC(ODE_NTRIG); k++) tr.s[k] = tr.c[k] = ODE_R(0.0);   /* unread */
#endif
        ode_real J[ODE_ALLOC(ODE_NSTATE * ODE_NSTATE)];
        ode_model_jac(s, t + c[j] * h, yt, J, &tr);
        if (j == 0) ode_tangent_watch(s, J, h);
#if ODE_LYAP_FULL
        if (b[j] != ODE_R(0.0)) {
            ode_real trace = ODE_R(0.0);
            ODE_FOR_STATES(i) trace += J[i * ODE_NSTATE + i];
            tr_sum += b[j] * trace;
        }
#endif
        ode_real vt[ODE_NLYAP][ODE_ALLOC(ODE_NSTATE)];
        ODE_FOR_LYAP(m) {
            ODE_FOR_STATES(i) vt[m][i] = s->lv[m][i];
            ODE_UNROLL for (int l = 0; l < j; l++) {
                if (a[j][l] == ODE_R(0.0)) continue;
                const ode_real ha = h * a[j][l];
                ODE_FOR_STATES(i) vt[m][i] += ha * kv[l][m][i];
            }
        }
        ode_tangent_stage(J, vt, kv[j]);
        if (b[j] != ODE_R(0.0)) {
            const ode_real hb = h * b[j];
            ODE_FOR_LYAP(m) ODE_FOR_STATES(i) vn[m][i] += hb * kv[j][m][i];
        }
    }
    ODE_FOR_LYAP(m) ODE_FOR_STATES(i) s->lv[m][i] = vn[m][i];
#if ODE_LYAP_FULL
    if (s->lcount) s->ltr += (double)(h * tr_sum);
#endif
    (void)c;
}

/* ------------------------------------------------------------------ resets */

/* v ← R v for a block's Jacobian R (row-major). */
ODE_HD static ODE_INLINE void ode_tangent_apply(OdeSystem *s, const ode_real *R)
{
    ODE_FOR_LYAP(m) {
        ode_real w[ODE_ALLOC(ODE_NSTATE)];
        ODE_FOR_STATES(i) {
            w[i] = ODE_R(0.0);
            ODE_FOR_STATES(j) w[i] += R[i * ODE_NSTATE + j] * s->lv[m][j];
        }
        ODE_FOR_STATES(i) s->lv[m][i] = w[i];
    }
}

/* `on start` (start = 1) or `on end`: v ← R v, R of the block at the system
 * as the block finds it (called just before the block runs). */
ODE_HD static ODE_INLINE void ode_tangent_map(OdeSystem *s, int start)
{
    ode_real R[ODE_ALLOC(ODE_NSTATE * ODE_NSTATE)];
    if (start) ode_model_on_start_jac(s, R);
    else ode_model_on_end_jac(s, R);
    ode_tangent_apply(s, R);
}

ODE_HD static ODE_INLINE double ode_tangent_qr(OdeSystem *s);

/* What the saltation matrix needs from before an event's statements run:
 * R v_m, R f⁻ + R_t, and (∇g·v_m) / (∇g·f⁻ + g_t). */
typedef struct OdeSaltation {
    ode_real rv[ODE_NLYAP][ODE_ALLOC(ODE_NSTATE)];
    ode_real rf[ODE_ALLOC(ODE_NSTATE)];
    ode_real d[ODE_NLYAP];
} OdeSaltation;

/* Before event e's statements (which assign states) run at the located
 * point (s->t, s->y). */
ODE_HD static ODE_INLINE void ode_tangent_event_before(OdeSystem *s, int e, OdeSaltation *sa)
{
#if ODE_LYAP_FULL
    ode_tangent_qr(s);                     /* orthonormal before: the QR after measures the reset alone */
#endif
    ode_real f[ODE_ALLOC(ODE_NSTATE)], gy[ODE_ALLOC(ODE_NSTATE)], gt, R[ODE_ALLOC(ODE_NSTATE * ODE_NSTATE)],
        Rt[ODE_ALLOC(ODE_NSTATE)];
    ode_rhs_at(s, s->t, s->y, f);
    s->evals++;
    ode_model_event_grad(s, e, s->t, s->y, gy, &gt);
    ode_model_on_event_jac(s, e, R, Rt);
    ode_real den = gt;
    ODE_FOR_STATES(i) den += gy[i] * f[i];
    ODE_FOR_STATES(i) {
        sa->rf[i] = Rt[i];
        ODE_FOR_STATES(j) sa->rf[i] += R[i * ODE_NSTATE + j] * f[j];
    }
    ODE_FOR_LYAP(m) {
        ode_real dot = ODE_R(0.0);
        ODE_FOR_STATES(i) {
            dot += gy[i] * s->lv[m][i];
            sa->rv[m][i] = ODE_R(0.0);
            ODE_FOR_STATES(j) sa->rv[m][i] += R[i * ODE_NSTATE + j] * s->lv[m][j];
        }
        sa->d[m] = dot / den;   /* a grazing crossing (den 0) leaves NaN: the vector is lost */
    }
}

/* After event e's statements: v_m ← R v_m + (f⁺ − R f⁻ − R_t) (∇g·v_m) / (∇g·f⁻ + g_t),
 * then re-orthonormalised: near a grazing impact (∇g·f⁻ small) the rank-one
 * term stretches every vector along one direction, and a sequence of such
 * impacts (chattering) would leave them parallel within rounding. */
ODE_HD static ODE_INLINE void ode_tangent_event_after(OdeSystem *s, const OdeSaltation *sa)
{
    ode_real f[ODE_ALLOC(ODE_NSTATE)];
    ode_rhs_at(s, s->t, s->y, f);
    s->evals++;
    ODE_FOR_LYAP(m) ODE_FOR_STATES(i) s->lv[m][i] = sa->rv[m][i] + (f[i] - sa->rf[i]) * sa->d[m];
    const double lndet = ode_tangent_qr(s);
#if ODE_LYAP_FULL
    if (s->lcount) s->ltr += lndet;        /* ln |det S|: the reset's own change of volume */
#else
    (void)lndet;
#endif
}

/* ------------------------------------------------------------------ measurement */

/* Modified Gram–Schmidt on v_1 … v_N (a second pass makes each orthogonal
 * to rounding level): v_K ← q_K, adding ln r_KK to lsum[K] when the
 * integration is recorded; returns what it added. */
ODE_HD static ODE_INLINE double ode_tangent_qr(OdeSystem *s)
{
    double added = 0.0;
    ODE_FOR_LYAP(K) {
        ode_real before = ODE_R(0.0);
        ODE_FOR_STATES(i) before += s->lv[K][i] * s->lv[K][i];
        ODE_UNROLL for (int pass = 0; pass < 2; pass++)
            ODE_UNROLL for (int L = 0; L < K; L++) {
                ode_real r = ODE_R(0.0);
                ODE_FOR_STATES(i) r += s->lv[L][i] * s->lv[K][i];
                ODE_FOR_STATES(i) s->lv[K][i] -= r * s->lv[L][i];
            }
        ode_real r2 = ODE_R(0.0);
        ODE_FOR_STATES(i) r2 += s->lv[K][i] * s->lv[K][i];
        const ode_real r = ode_sqrt(r2);
        /* lost: a residual within rounding of the vector's length, or no length at all */
        if (!(r > ODE_LYAP_LOST * ode_sqrt(before)) || !ode_finite(r)) s->llost |= ~0u << K;
        if (s->llost & (1u << K)) continue;  /* (its vector stays as it is: lyapK is NaN from now on) */
        const ode_real inv = ODE_R(1.0) / r;
        ODE_FOR_STATES(i) s->lv[K][i] *= inv;
        if (s->lcount) {
            const double ln = (double)ode_ln_det(r);
            s->lsum[K] += ln;
            added += ln;
        }
    }
    s->lqr = s->t;
    s->lspread = s->lgrow = ODE_R(0.0);
    return added;
}

/* ------------------------------------------------------------------ one integration */

/* At the start of an integration (before `on start`): the vectors pass
 * through the block's Jacobian; t_start is where the integration's time
 * counts from. */
ODE_HD static ODE_INLINE void ode_tangent_start(OdeSystem *s)
{
#if ODE_ON_START_RESETS
    ode_tangent_map(s, 1);                 /* (the vectors are orthonormal: the last QR was at the last end) */
#if ODE_LYAP_FULL
    const double lndet = ode_tangent_qr(s);
    if (s->lcount) s->ltr += lndet;
#endif
#else
    (void)s;
#endif
}

/* After an accepted step (events and `on step` done): the QR when the
 * vectors' spread or size may approach what the precision holds, or with
 * `every=T` when T has passed. */
ODE_HD static ODE_INLINE void ode_tangent_after_step(OdeSystem *s)
{
    int due = s->lspread > ODE_LYAP_SPREAD || s->lgrow > ODE_LYAP_GROW;
#if ODE_LYAP_EVERY_ON
    due |= s->t - s->lqr >= (ode_real)ODE_LYAP_EVERY;
#endif
    if (due) ode_tangent_qr(s);
}

/* At the end of an integration that began at t_start, just before `on end`
 * runs: the block's Jacobian, the QR, and the time when it is recorded. */
ODE_HD static ODE_INLINE void ode_tangent_end(OdeSystem *s, ode_real t_start)
{
    if (ODE_STATUS_IS_STICKY(s->status)) s->llost = ~0u;   /* a failed system measures nothing */
#if ODE_ON_END_RESETS && ODE_LYAP_FULL
    ode_tangent_qr(s);                     /* the flow's; the next QR measures the block's map alone */
    ode_tangent_map(s, 0);
    const double lndet = ode_tangent_qr(s);
    if (s->lcount) s->ltr += lndet;
#else
#if ODE_ON_END_RESETS
    ode_tangent_map(s, 0);
#endif
    ode_tangent_qr(s);
#endif
    if (s->lcount) s->ltime += (double)(s->t - t_start);
}

#endif /* ODE_NLYAP > 0 */

#endif /* ODE_TANGENT_H */
