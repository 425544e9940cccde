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
 */
#ifndef ODE_ATTRACTOR_H
#define ODE_ATTRACTOR_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#endif

/* How a system ended (row ODE_FP_END). */
enum { ODE_FP_FAILED = 0, ODE_FP_ESCAPED = 1, ODE_FP_SETTLED = 2 };

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
    fp[(size_t)ODE_FP_END * n + (size_t)i] = (ode_real)end;
    fp[(size_t)ODE_FP_PERIOD * n + (size_t)i] = (ode_real)s->period;
#if ODE_NLYAP > 0
    fp[(size_t)ODE_FP_LAMBDA * n + (size_t)i] = ode_lyap_value(s, 0);
#else
    fp[(size_t)ODE_FP_LAMBDA * n + (size_t)i] = (ode_real)NAN;
#endif
    /* The canonical point: the smallest of the last `period` points (or of the whole ring). */
    const int slots = a->ring_slots;
    const int held = rr + 1 < slots ? rr + 1 : slots;
    const int look = s->period > 0 && s->period <= held ? s->period : held;
    size_t best = (size_t)(rr % slots);
    for (int j = 1; j < look; j++) {
        const size_t slot = (size_t)((rr - j) % slots);
        if (ode_fp_before(a, i, slot, best)) best = slot;
    }
    ODE_UNROLL for (int k = 0; k < ODE_PERIOD_NQ; k++)
        fp[(size_t)(ODE_FP_POINT + k) * n + (size_t)i] = a->ring[(best * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i];
}

#else
#define ODE_FP_ROWS 0
#endif /* ODE_ATTRACTOR */

#endif /* ODE_ATTRACTOR_H */
