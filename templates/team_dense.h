/* team_dense.h — the continuous extension of an accepted step, by a team
 * (dense.h's, element by element in the same order): each lane holds the
 * rows F_r of its share of the states; the extension's start y0 is the
 * system's state in team memory, which stays until the step is accepted.
 */
#ifndef ODE_TEAM_DENSE_H
#define ODE_TEAM_DENSE_H

#ifndef ODEGEN_GENERATED
#include "dense.h"
#include "team_stepper.h"
#endif

#if ODE_LOOP_FORM

typedef struct OdeTeamDense {
    ode_real t, h;                          /* the step [t, t + h] */
    ode_real F[ODE_NF][ODE_TEAM_SLOTS];     /* the lane's share of the rows */
} OdeTeamDense;

#if !ODE_ROS_DENSE   /* (team_rosenbrock.h makes a Rosenbrock method's own) */
/* The extension of the accepted step (t, y) → (t + h, ynew) whose stages
 * are in st, with k[ODE_KEND] = f(t + h, ynew) (dense.h: ode_dense_make). */
ODE_HD static ODE_INLINE void ode_team_dense_make(OdeTeamCtx *c, ode_real t, ode_real h, const ode_real *ynew,
                                                  OdeTeamStages *st, OdeTeamDense *D)
{
    const OdeTeam ode_team = c->team;
    const ode_real *const y = ODE_TW(c, Y);
    D->t = t;
    D->h = h;
#if ODE_NEXTRA > 0
    {
        const ode_real cn[ODE_NK] = ODE_TAB(C);
        const ode_real a[ODE_NK][ODE_NK] = ODE_TAB(A);
        ODE_UNROLL for (int j = ODE_KEND + 1; j < ODE_NK; j++) {
            ode_team_stage_input(c, a, j, h, st, 0, ODE_TW(c, YT), 0);
            ode_team_f_at(c, t + cn[j] * h, ODE_TW(c, YT), st->k[j]);
        }
    }
#endif
    ODE_FOR_MINE(m, i) {
        const ode_real d = ynew[m] - y[i], hf0 = h * st->k[0][m], hf1 = h * st->k[ODE_KEND][m];
        D->F[0][m] = d;
        D->F[1][m] = hf0 - d;
        D->F[2][m] = (d - hf0) + (d - hf1);
    }
#if ODE_NDENSE > 0
    {
        const ode_real dd[ODE_NDENSE][ODE_NK] = ODE_TAB(D);
        ODE_UNROLL for (int r = 0; r < ODE_NDENSE; r++) {
            ODE_FOR_MINE(m, i) D->F[3 + r][m] = ODE_R(0.0);
            ODE_UNROLL for (int j = 0; j < ODE_NK; j++) {
                if (dd[r][j] == ODE_R(0.0)) continue;
                const ode_real hd = h * dd[r][j];
                ODE_FOR_MINE(m, i) D->F[3 + r][m] += hd * st->k[j][m];
            }
        }
    }
#endif
}
#endif /* !ODE_ROS_DENSE */

/* The extension at θ ∈ [0, 1], the lane's share into out (team memory; no
 * barrier: the reader calls one). */
ODE_HD static ODE_INLINE void ode_team_dense_eval(OdeTeamCtx *c, const OdeTeamDense *D, ode_real theta, ode_real *out)
{
    const OdeTeam ode_team = c->team;
    const ode_real *const y0 = ODE_TW(c, Y);
    const ode_real u = ODE_R(1.0) - theta;
    ODE_FOR_MINE(m, i) {
        ode_real acc = D->F[ODE_NF - 1][m] * ((ODE_NF - 1) % 2 ? u : theta);
        ODE_UNROLL for (int r = ODE_NF - 2; r >= 0; r--) acc = (D->F[r][m] + acc) * (r % 2 ? u : theta);
        out[i] = y0[i] + acc;
    }
}

#endif /* ODE_LOOP_FORM */

#endif /* ODE_TEAM_DENSE_H */
