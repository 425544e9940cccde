/* team_system.h — where a system integrated by a team of threads lives.
 *
 * A model in loop form (ODE_LOOP_FORM 1) sees its system through OdeSystem,
 * as a model written out does, with the same member names, so that the
 * functions one lane runs alone (hooks, accessories, derived parameters,
 * recorded fields: templates/example_team_model.h) read ode_s->y[k],
 * ode_s->p[k], ode_s->acc[k] exactly as today; but the arrays are pointers
 * into the team's workspace (shared memory when it fits, else global
 * memory), which every lane of the team reads.
 *
 * The OdeSystem itself is one per team, in the same memory: only the team's
 * leader (lane 0) writes it (t, the window, the accessories, the counts, the
 * status), and a barrier follows before the other lanes read it.  The lanes
 * keep the integration's scalars (t, h, the status) in registers, computing
 * them alike (every decision is a team reduction's result, the same bits in
 * every lane).
 */
#ifndef ODE_TEAM_SYSTEM_H
#define ODE_TEAM_SYSTEM_H

#ifndef ODEGEN_GENERATED
#include "prelude.h"
#include "options.h"
#include "system.h"
#include "team.h"
#endif

#if ODE_LOOP_FORM

#if ODE_NLYAP > 0 || ODE_PERIOD
#error "team_system.h: lyapunov and period are not computed by a team (a model in loop form)"
#endif

typedef struct OdeSystem {
    ode_real t, t0, t1;                     /* time and this integration's window */
    ode_real *y;                            /* [ODE_NSTATE] states */
    ode_real *p;                            /* [ODE_NPARAM] parameters (per system; a parameter array
                                               per unit is a run of them; read-only in hooks) */
    ode_real *d;                            /* [ODE_NDERIVED] derived parameters, once per launch */
    ode_real *acc;                          /* [ODE_NACC] accessories */
    int *count;                             /* [ODE_NEVENT] detections of each event in this integration */
    int status;
    unsigned long long steps;               /* accepted steps, all integrations */
    unsigned long long evals;               /* right-hand-side evaluations, all integrations */
} OdeSystem;

#endif /* ODE_LOOP_FORM */

#endif /* ODE_TEAM_SYSTEM_H */
