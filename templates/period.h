/* period.h — the period of the recorded sequence of integrations (`period`,
 * SPEC §2), computed in the kernel.
 *
 * period is the smallest p ≤ max for which the listed quantities of every
 * recorded integration from the (p+1)-th on agree with those p integrations
 * earlier, within tol relative to their magnitude (absolute below 1); 0 when
 * no p does.  Each system keeps a bit per candidate p (pmask: cleared at the
 * first disagreement) and the last values of its quantities in a ring in
 * global memory (OdeArrays.ring, as the recorded values: value[(slot * NQ +
 * q) * n + system], so a warp's reads are coalesced), so that recorded
 * integration r compares itself with r−1 … r−max once and is never looked
 * at again.  The value after recorded integration r is the period of
 * integrations 0 … r: a candidate p counts once it has been compared (p ≤ r).
 */
#ifndef ODE_PERIOD_H
#define ODE_PERIOD_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#endif

#if ODE_PERIOD

/* Nothing compared yet: every p from 1 to max still possible. */
ODE_HD static ODE_INLINE void ode_period_reset(OdeSystem *s)
{
    s->pmask = ODE_PERIOD_MAX >= 64 ? ~0ULL : (1ULL << ODE_PERIOD_MAX) - 1ULL;
    s->period = 0;
}

/* Whether a and b agree within tol relative to their magnitude, absolute below 1. */
ODE_HD static ODE_INLINE int ode_period_agree(ode_real a, ode_real b)
{
    const ode_real scale = ode_fmax(ODE_R(1.0), ode_fmax(ode_fabs(a), ode_fabs(b)));
    return ode_fabs(a - b) <= (ode_real)ODE_PERIOD_TOL * scale;   /* NaN never agrees */
}

/* After recorded integration rr (0, 1, …) of system i of a: its quantities
 * compared with the ring's, stored in it, and s->period brought up to date. */
ODE_HD static ODE_INLINE void ode_period_record(OdeSystem *s, const OdeArrays *a, int i, int rr)
{
    if (!a->ring) return;
    const size_t n = (size_t)a->n;
    const int slots = a->ring_slots;
    ode_real q[ODE_PERIOD_NQ];
    ode_model_period_values(s, q);
    /* a failed system, or an empty window, repeats its last state: no period */
    if (ODE_STATUS_IS_STICKY(s->status) || s->status == ODE_STATUS_EMPTY) s->pmask = 0;
    const int top = rr < ODE_PERIOD_MAX ? rr : ODE_PERIOD_MAX;
    for (int p = 1; p <= top; p++) {
        if (!((s->pmask >> (p - 1)) & 1ULL)) continue;
        const size_t slot = (size_t)((rr - p) % slots);
        int agree = 1;
        ODE_UNROLL for (int k = 0; k < ODE_PERIOD_NQ; k++)
            agree &= ode_period_agree(q[k], a->ring[(slot * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i]);
        if (!agree) s->pmask &= ~(1ULL << (p - 1));
    }
    const size_t slot = (size_t)(rr % slots);
    ODE_UNROLL for (int k = 0; k < ODE_PERIOD_NQ; k++) a->ring[(slot * ODE_PERIOD_NQ + (size_t)k) * n + (size_t)i] = q[k];
    s->period = 0;
    for (int p = top; p >= 1; p--)
        if ((s->pmask >> (p - 1)) & 1ULL) s->period = p;
}

/* Ring slots a launch recording `record` integrations needs per system, and their bytes. */
#define ODE_PERIOD_SLOTS(record) ((record) < ODE_PERIOD_MAX ? ((record) > 0 ? (record) : 1) : ODE_PERIOD_MAX)
#define ODE_PERIOD_BYTES(record) ((double)ODE_PERIOD_SLOTS(record) * ODE_PERIOD_NQ * (double)sizeof(ode_real))

#else
#define ODE_PERIOD_BYTES(record) 0.0
#endif /* ODE_PERIOD */

#endif /* ODE_PERIOD_H */
