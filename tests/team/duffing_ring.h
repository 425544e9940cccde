/* duffing_ring.h — MPGOS's ring of Duffing units (duffing_ring_common.h) in
 * loop form, the shape of templates/example_team_model.h. */
#include "duffing_ring_common.h"
#define ODE_LOOP_FORM 1
#define ODE_NSCRATCH 0
#ifndef ODE_LAYOUT
#define ODE_LAYOUT 2
#endif
#ifndef ODE_TEAM_SIZE
#define ODE_TEAM_SIZE 32
#endif
#define ODE_HAS_EVENT_JVP 1
#include "prelude.h"
#include "options.h"
#include "system.h"
#include "team.h"
#include "lu_storage.h"
#include "team_system.h"
#include "duffing_ring_values.h"

ODE_HD static ODE_INLINE void ode_model_rhs_team(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                 ode_real *ode_dy, const OdeTrig *ode_tr, ode_real *ode_scratch,
                                                 OdeTeam ode_team)
{
    (void)t;
    (void)ode_scratch;
    const ode_real B = ode_s->p[0], G = ode_s->p[2], C = ode_s->p[3];
    const ode_real *const k = ode_s->p + 4;
    const ode_real *const x = ode_y, *const v = ode_y + RING_U;
    ODE_TEAM_FOR(u, RING_U) {
        const int um = u == 0 ? RING_U - 1 : u - 1, up = u == RING_U - 1 ? 0 : u + 1;
        ode_dy[u] = RING_RHS_X(x, v, u, um, up);
        ode_dy[RING_U + u] = RING_RHS_V(x, v, u, um, up, ode_tr->c[0]);
    }
}

ODE_HD static ODE_INLINE void ode_model_events_team(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                    ode_real *ode_g, ode_real *ode_scratch, OdeTeam ode_team)
{
    (void)ode_s;
    (void)t;
    (void)ode_scratch;
    ODE_TEAM_FOR(u, RING_U) ode_g[u] = ode_y[RING_U + u];
}

ODE_HD static ODE_INLINE void ode_model_events_jvp_team(const OdeSystem *ode_s, ode_real t, const ode_real *ode_y,
                                                        const ode_real *ode_v, ode_real ode_vt, ode_real *ode_gv,
                                                        ode_real *ode_scratch, OdeTeam ode_team)
{
    (void)ode_s;
    (void)t;
    (void)ode_y;
    (void)ode_vt;
    (void)ode_scratch;
    ODE_TEAM_FOR(u, RING_U) ode_gv[u] = ode_v[RING_U + u];
}
