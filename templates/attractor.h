/* attractor.h — each system's fingerprint (`attractor`, README "Attractors
 * and basins"), computed in the kernel over the recorded integrations and
 * grouped into attractors on the host (runtime/attractor.c).
 *
 * The fingerprint of system i is ODE_FP_ROWS values at fp[row * n + i]
 * (coalesced, as period.h's ring): how the system ended (failed, escaped,
 * settled), its period (period.h: 0 for none), lambda1 where `lyapunov` runs,
 * a canonical point of the orbit, and the box (lowest and highest value of
 * each compared quantity) of its recorded values.  The canonical point is the
 * recorded point with the smallest first quantity (then second, …) among the
 * last `period` ones — one point of a periodic orbit whatever its phase — or,
 * without a period, among every point the ring still holds (a point of the
 * attractor near its lowest first quantity).  Nothing of the trajectory is
 * stored beyond period.h's ring.
 *
 * A system still on a transient when recording starts (a long chaotic
 * transient of Lorenz-84 that lands on its fixed point or cycle during the
 * record) has no period over the whole record, yet has settled by its end;
 * one still converging onto an orbit of period p when recording starts can
 * have the whole record's period 2p (the comparisons at 2p begin p
 * integrations later than those at p, when it has come closer).  Its
 * fingerprint takes the period of the tail the ring still holds
 * (ode_fp_tail_period) when that is shorter: period, canonical point and box
 * are then those of the orbit it settled on (its last p points), λ1 none (the
 * record's λ1 measured the approach), so that it joins the attractor it
 * reached.  The `period` field keeps its meaning (the whole record's).
 *
 * A system of period 1 that has come to rest at an equilibrium of the flow
 * (the right-hand side at its last state moves it less than the period's
 * tolerance over the integration) may have reached a saddle along its stable
 * manifold — a measure-zero set that a grid symmetric under the model's
 * symmetry can put points on.  There the Jacobian's eigenvalues decide
 * (ode_fp_abscissa): with one of positive real part the fingerprint ends
 * ODE_FP_UNSTABLE, and the host labels it kind `unstable`, not an attractor.
 */
#ifndef ODE_ATTRACTOR_H
#define ODE_ATTRACTOR_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#endif

/* How a system ended (row ODE_FP_END). */
enum { ODE_FP_FAILED = 0, ODE_FP_ESCAPED = 1, ODE_FP_SETTLED = 2, ODE_FP_UNSTABLE = 3 };

#if ODE_ATTRACTOR
#define ODE_FP_END 0
#define ODE_FP_PERIOD 1
#define ODE_FP_LAMBDA 2
#define ODE_FP_POINT 3                          /* ODE_PERIOD_NQ rows each: */
#define ODE_FP_LO (ODE_FP_POINT + ODE_PERIOD_NQ)
#define ODE_FP_HI (ODE_FP_LO + ODE_PERIOD_NQ)
#define ODE_FP_ROWS (ODE_FP_HI + ODE_PERIOD_NQ)

/* Whether point a (ring slot sa) comes before point b (slot sb): lexicographic order. */
ODE_HD static ODE_INLINE int ode_fp_before(const OdeArrays *a, int i, size_t sa, size_t sb)
{
    const size_t n = (size_t)a->n;
    ODE_UNROLL for (int k = 0; k < ODE_PERIOD_NQ; k++) {
        const ode_real x = a->ring[(sa * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i];
        const ode_real y = a->ring[(sb * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i];
        if (x != y) return x < y;
    }
    return 0;
}

/* The stability of an equilibrium: for a flow with a Jacobian and at most
 * ODE_FP_STABILITY_MAX states (the check's three n × n matrices live in the
 * thread's local memory); not for maps, delays, noise or algebraic
 * constraints (dae.h), whose equilibria's stability the Jacobian of the
 * right-hand side alone does not decide. */
#define ODE_FP_STABILITY_MAX 8
#if ODE_HAS_JACOBIAN && !ODE_DISCRETE && !ODE_NOISE && !(ODE_NDELAY > 0) && !(ODE_NALG > 0) && \
    ODE_NSTATE <= ODE_FP_STABILITY_MAX
#define ODE_FP_STABILITY 1
#define ODE_FP_N ODE_NSTATE

/* c = a b (n × n, row-major). */
ODE_HD static ODE_INLINE void ode_fp_mul(const double *a, const double *b, double *c)
{
    for (int i = 0; i < ODE_FP_N; i++)
        for (int j = 0; j < ODE_FP_N; j++) {
            double sum = 0.0;
            for (int k = 0; k < ODE_FP_N; k++) sum += a[i * ODE_FP_N + k] * b[k * ODE_FP_N + j];
            c[i * ODE_FP_N + j] = sum;
        }
}

/* The spectral abscissa of J (the largest real part of its eigenvalues),
 * over ||J|| (its largest row sum): E = exp(J h) with h = 1/||J|| (Taylor,
 * 24 terms, ||J h|| = 1) has spectral radius exp(h α), which Gelfand's
 * formula ρ(E) = lim ||E^m||^(1/m) gives through E squared 60 times, scaled
 * back to norm 1 after each squaring (the scale's logarithm kept apart):
 * h α = ln ρ(E) to about 2^-60 plus rounding, whatever the eigenvalues —
 * complex, repeated or defective.  0 when J is 0. */
ODE_HD static ODE_INLINE double ode_fp_abscissa(const ode_real *J)
{
    double a[ODE_FP_N * ODE_FP_N], b[ODE_FP_N * ODE_FP_N], term[ODE_FP_N * ODE_FP_N];
    double norm = 0.0;
    for (int i = 0; i < ODE_FP_N; i++) {
        double row = 0.0;
        for (int j = 0; j < ODE_FP_N; j++) row += fabs((double)J[i * ODE_FP_N + j]);
        norm = row > norm ? row : norm;
    }
    if (!(norm > 0.0) || !(norm < 1e300)) return norm > 0.0 ? (double)NAN : 0.0;   /* (NaN, infinite: no verdict) */
    for (int q = 0; q < ODE_FP_N * ODE_FP_N; q++) a[q] = term[q] = (q % (ODE_FP_N + 1) == 0) ? 1.0 : 0.0;
    for (int k = 1; k <= 24; k++) {   /* term ← term (J h) / k; a += term */
        for (int i = 0; i < ODE_FP_N; i++)
            for (int j = 0; j < ODE_FP_N; j++) {
                double sum = 0.0;
                for (int m = 0; m < ODE_FP_N; m++) sum += term[i * ODE_FP_N + m] * (double)J[m * ODE_FP_N + j];
                b[i * ODE_FP_N + j] = sum / (norm * (double)k);
            }
        for (int q = 0; q < ODE_FP_N * ODE_FP_N; q++) {
            term[q] = b[q];
            a[q] += b[q];
        }
    }
    double log_scale = 0.0, weight = 1.0;   /* E^(2^m) = exp(log_scale / weight … ) a: see below */
    for (int m = 0; m < 60; m++) {
        ode_fp_mul(a, a, b);
        double big = 0.0;
        for (int q = 0; q < ODE_FP_N * ODE_FP_N; q++) big = fabs(b[q]) > big ? fabs(b[q]) : big;
        if (!(big > 0.0)) return (double)NAN;   /* (exp(J h) is never singular: rounding gone wrong) */
        for (int q = 0; q < ODE_FP_N * ODE_FP_N; q++) a[q] = b[q] / big;
        /* ln ||E^(2^(m+1))|| = 2 ln ||E^(2^m)|| + ln big; kept divided by 2^(m+1) */
        weight *= 0.5;
        log_scale += weight * log(big);
    }
    return log_scale;   /* h α */
}

/* Whether the last state of system s is an equilibrium of the flow that is
 * unstable: the right-hand side there moves no state by more than the
 * period's tolerance × 10 over the integration's length T (the fixed
 * point's own criterion is ODE_PERIOD_TOL over its recorded quantities), and
 * J has an eigenvalue of real part above 10^-6 ||J||. */
ODE_HD static ODE_INLINE int ode_fp_unstable(const OdeSystem *s)
{
    OdeTrig tr;
    ode_trig_at(s, s->t, &tr);
    ode_real f[ODE_ALLOC(ODE_NSTATE)], J[ODE_ALLOC(ODE_NSTATE * ODE_NSTATE)];
    ode_model_rhs(s, s->t, s->y, f, &tr);
    const double T = fabs((double)(s->t1 - s->t0)) > 0.0 ? fabs((double)(s->t1 - s->t0)) : 1.0;
    for (int k = 0; k < ODE_NSTATE; k++) {
        const double scale = fabs((double)s->y[k]) > 1.0 ? fabs((double)s->y[k]) : 1.0;
        if (!(fabs((double)f[k]) * T <= 10.0 * (double)ODE_PERIOD_TOL * scale)) return 0;   /* moving */
    }
    ode_model_jac(s, s->t, s->y, J, &tr);
    return ode_fp_abscissa(J) > 1e-6;
}
#else
#define ODE_FP_STABILITY 0
#endif

/* The period of the tail of system i's record after recorded integration rr:
 * the smallest p for which each of the last c points the ring holds agrees
 * with the point p integrations before it (ode_period_agree), with c = the
 * ring's held points less half of them rounded down (at least half of them,
 * and at least 2), p ≤ held − c — so each of the orbit's p points is
 * confirmed at least once and the system has been on it for its last c + p
 * recorded integrations; 0 when no p does (a system still unsettled, or
 * chaotic).  Held = min(record, max): with the default ring, periods up to
 * max/2 are found in the tail. */
ODE_HD static ODE_INLINE int ode_fp_tail_period(const OdeArrays *a, int i, int rr)
{
    const size_t n = (size_t)a->n;
    const int slots = a->ring_slots;
    const int held = rr + 1 < slots ? rr + 1 : slots;
    const int c = held - held / 2;
    if (c < 2) return 0;
    for (int p = 1; p <= held - c; p++) {
        int agree = 1;
        for (int j = 0; j < c && agree; j++) {
            const size_t now = (size_t)((rr - j) % slots), then = (size_t)((rr - j - p) % slots);
            ODE_UNROLL for (int k = 0; k < ODE_PERIOD_NQ; k++)
                agree &= ode_period_agree(a->ring[(now * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i],
                                          a->ring[(then * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i]);
        }
        if (agree) return p;
    }
    return 0;
}

/* After recorded integration rr (0 … record-1) of system i, once
 * ode_period_record has stored it in the ring: the box grows, and after the
 * last one the fingerprint is completed. */
ODE_HD static ODE_INLINE void ode_attractor_record(const OdeSystem *s, const OdeArrays *a, int i, int rr, int record)
{
    if (!a->fp || !a->ring) return;
    const size_t n = (size_t)a->n;
    ode_real *fp = a->fp;
    ode_real q[ODE_PERIOD_NQ];
    ode_model_period_values(s, q);
    int finite = 1;
    ODE_UNROLL for (int k = 0; k < ODE_PERIOD_NQ; k++) {
        ode_real *lo = &fp[(size_t)(ODE_FP_LO + k) * n + (size_t)i], *hi = &fp[(size_t)(ODE_FP_HI + k) * n + (size_t)i];
        finite &= q[k] - q[k] == ODE_R(0.0);   /* not NaN, not infinite */
        if (rr == 0 || q[k] < *lo) *lo = q[k];
        if (rr == 0 || q[k] > *hi) *hi = q[k];
    }
    if (rr == 0) fp[(size_t)ODE_FP_END * n + (size_t)i] = (ode_real)ODE_FP_SETTLED;
    if (!finite) fp[(size_t)ODE_FP_END * n + (size_t)i] = (ode_real)ODE_FP_FAILED;   /* stays failed */
    if (rr != record - 1) return;

    int end = (int)fp[(size_t)ODE_FP_END * n + (size_t)i];
    if (s->status == ODE_STATUS_BOUND) end = ODE_FP_ESCAPED;
    else if (ODE_STATUS_IS_STICKY(s->status)) end = ODE_FP_FAILED;
    int period = s->period;   /* the whole record's, unless its tail has a shorter one: */
    if (end == ODE_FP_SETTLED && period != 1) {
        const int tail = ode_fp_tail_period(a, i, rr);
        if (tail > 0 && (period == 0 || tail < period)) period = tail;
    }
    const int late = period != s->period;
#if ODE_FP_STABILITY
    if (end == ODE_FP_SETTLED && period == 1 && ode_fp_unstable(s)) end = ODE_FP_UNSTABLE;   /* at a saddle */
#endif
    fp[(size_t)ODE_FP_END * n + (size_t)i] = (ode_real)end;
    fp[(size_t)ODE_FP_PERIOD * n + (size_t)i] = (ode_real)period;
#if ODE_NLYAP > 0
    fp[(size_t)ODE_FP_LAMBDA * n + (size_t)i] = late ? (ode_real)NAN : ode_lyap_value(s, 0);   /* (late: the transient's) */
#else
    fp[(size_t)ODE_FP_LAMBDA * n + (size_t)i] = (ode_real)NAN;
#endif
    /* The canonical point: the smallest of the last `period` points (or of the whole ring);
     * settled late, the box too is that of the last `period` points, the orbit's. */
    const int slots = a->ring_slots;
    const int held = rr + 1 < slots ? rr + 1 : slots;
    const int look = period > 0 && period <= held ? period : held;
    size_t best = (size_t)(rr % slots);
    for (int j = 1; j < look; j++) {
        const size_t slot = (size_t)((rr - j) % slots);
        if (ode_fp_before(a, i, slot, best)) best = slot;
    }
    ODE_UNROLL for (int k = 0; k < ODE_PERIOD_NQ; k++)
        fp[(size_t)(ODE_FP_POINT + k) * n + (size_t)i] = a->ring[(best * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i];
    if (!late) return;
    ODE_UNROLL for (int k = 0; k < ODE_PERIOD_NQ; k++) {
        ode_real lo = a->ring[((size_t)(rr % slots) * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i], hi = lo;
        for (int j = 1; j < look; j++) {
            const ode_real v = a->ring[((size_t)((rr - j) % slots) * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        fp[(size_t)(ODE_FP_LO + k) * n + (size_t)i] = lo;
        fp[(size_t)(ODE_FP_HI + k) * n + (size_t)i] = hi;
    }
}

#else
#define ODE_FP_ROWS 0
#endif /* ODE_ATTRACTOR */

#endif /* ODE_ATTRACTOR_H */
