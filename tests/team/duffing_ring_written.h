/* duffing_ring_written.h — MPGOS's ring of Duffing units
 * (duffing_ring_common.h) written out: one system per thread. */
#include "duffing_ring_common.h"
#include "prelude.h"
#include "options.h"
#include "system.h"
#include "duffing_ring_values.h"

ODE_HD static ODE_INLINE void ode_model_rhs(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y, ode_real *ode_dy,
                                            const OdeTrig *ode_tr)
{
    (void)t;
    const ode_real B = ode_s->p[0], G = ode_s->p[2], C = ode_s->p[3];
    const ode_real *const k = ode_s->p + 4;
    const ode_real *const x = ode_y, *const v = ode_y + RING_U;
    ODE_UNROLL for (int u = 0; u < RING_U; u++) {
        const int um = u == 0 ? RING_U - 1 : u - 1, up = u == RING_U - 1 ? 0 : u + 1;
        ode_dy[u] = RING_RHS_X(x, v, u, um, up);
        ode_dy[RING_U + u] = RING_RHS_V(x, v, u, um, up, ode_tr->c[0]);
    }
}

ODE_HD static ODE_INLINE void ode_model_events(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y, ode_real *ode_g)
{
    (void)ode_s;
    (void)t;
    ODE_UNROLL for (int u = 0; u < RING_U; u++) ode_g[u] = ode_y[RING_U + u];
}

#define ODE_HAS_JACOBIAN 0
#define ODE_HAS_EVENT_GRAD 1
ODE_HD static ODE_INLINE void ode_model_event_grad(const OdeSystem *ode_s, int ode_e, ode_real t, const ode_real *ode_y,
                                                   ode_real *ode_gy, ode_real *ode_gt)
{
    (void)ode_s;
    (void)t;
    (void)ode_y;
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) ode_gy[i] = i == RING_U + ode_e ? 1.0 : 0.0;
    *ode_gt = 0.0;
}
