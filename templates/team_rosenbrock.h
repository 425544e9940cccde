/* team_rosenbrock.h — one trial step of a Rosenbrock method by a team (a
 * model in loop form), and Rodas5P's continuous extension: rosenbrock.h's,
 * with J written by the model entry by entry (ode_model_jac_team) into the
 * storage of lu_storage.h and factorised and solved by team_lu.h.
 *
 * Per trial: J and (unless carried) f at (t, y); W = I/(hγ) - J; its LU; for
 * each stage the right side (the lane's share, in rosenbrock.h's order of
 * terms), then the solve in team memory.  A singular W makes the error
 * estimate NaN, as in rosenbrock.h.
 */
#ifndef ODE_TEAM_ROSENBROCK_H
#define ODE_TEAM_ROSENBROCK_H

#ifndef ODEGEN_GENERATED
#include "team_stepper.h"
#include "team_lu.h"
#endif

#if ODE_LOOP_FORM && ODE_ROSENBROCK

ODE_HD static ODE_INLINE void ode_team_ros_trial(OdeTeamCtx *c, ode_real t, ode_real h, int have_k0,
                                                 OdeTeamStages *st, ode_real *ynew, ode_real *err, OdeTrigStep *ts)
{
    const OdeTeam ode_team = c->team;
    const ode_real cn[ODE_NSTAGE] = ODE_TAB(C);
    const ode_real a[ODE_NSTAGE][ODE_NSTAGE] = ODE_TAB(A);
    const ode_real cc[ODE_NSTAGE][ODE_NSTAGE] = ODE_TAB(COUPLE);
    const ode_real gt[ODE_NSTAGE] = ODE_TAB(GT);
    const ode_real b[ODE_NSTAGE] = ODE_TAB(B);
    const ode_real e[ODE_NSTAGE] = ODE_TAB(E);
    (void)ts;
    (void)gt;
    const ode_real *const y = ODE_TW(c, Y);
    ode_real *const r = ODE_TW(c, YT);
    ode_real *const W = ODE_TW(c, LU);
    int *const piv = c->iw + ODE_TI_LU;
    OdeTrig tr;
#if !ODE_AUTONOMOUS && ODE_NTRIG > 0
    ode_model_trig_full(c->s, t, &tr);
#else
    ode_trig_at(c->s, t, &tr);
#endif
    if (!have_k0) ode_team_f(c, t, y, &tr, st->k[0]);
    ODE_TEAM_FOR(q, ODE_LU_REALS) W[q] = ODE_R(0.0);
    ODE_TEAM_SYNC();
    ode_model_jac_team(c->s, t, y, W, &tr, ODE_TW(c, SCRATCH), ode_team);
    ODE_TEAM_SYNC();
    ode_lu_form_w(ode_team, W, ODE_R(1.0) / (h * (ode_real)ODE_TAB(GAMMA)));
    ODE_TEAM_SYNC();
    st->singular = ode_lu_factor(ode_team, W, piv);
#if !ODE_AUTONOMOUS
    ode_real ft[ODE_TEAM_SLOTS];
    ode_model_dfdt_team(c->s, t, y, ODE_TW(c, DY), &tr, ODE_TW(c, SCRATCH), ode_team);
    ODE_TEAM_SYNC();
    ODE_FOR_MINE(m, i) ft[m] = c->w[ODE_TW_DY + i];
#endif
    const ode_real rh = ODE_R(1.0) / h;
    ODE_FOR_MINE(m, i) {
        ynew[m] = y[i];
        err[m] = ODE_R(0.0);
    }
    ODE_UNROLL for (int j = 0; j < ODE_NSTAGE; j++) {
        ode_real rj[ODE_TEAM_SLOTS];       /* the stage's right side, the lane's share */
        if (j == 0) {
            ODE_FOR_MINE(m, i) rj[m] = st->k[0][m];
        } else {
            ODE_FOR_MINE(m, i) {
                ode_real u = y[i];
                ODE_UNROLL for (int l = 0; l < j; l++) {
                    if (a[j][l] == ODE_R(0.0)) continue;
                    u += a[j][l] * st->k[1 + l][m];
                }
                r[i] = u;
            }
            OdeTrig trj;
            ode_trig_at(c->s, t + cn[j] * h, &trj);
            ode_team_f(c, t + cn[j] * h, r, &trj, rj);
            ODE_UNROLL for (int l = 0; l < j; l++) {
                if (cc[j][l] == ODE_R(0.0)) continue;
                const ode_real ch = cc[j][l] * rh;
                ODE_FOR_MINE(m, i) rj[m] += ch * st->k[1 + l][m];
            }
        }
#if !ODE_AUTONOMOUS
        if (gt[j] != ODE_R(0.0)) {
            const ode_real hg = h * gt[j];
            ODE_FOR_MINE(m, i) rj[m] += hg * ft[m];
        }
#endif
        ODE_FOR_MINE(m, i) r[ODE_LU_ROW(i)] = rj[m];   /* (W's order: the states renumbered where ODE_LU_PERM) */
        ode_lu_solve(ode_team, W, piv, r);  /* (barriers before and after) */
        ODE_FOR_MINE(m, i) {
            const ode_real u = r[ODE_LU_ROW(i)];
            st->k[1 + j][m] = u;
            if (b[j] != ODE_R(0.0)) ynew[m] += b[j] * u;
            if (e[j] != ODE_R(0.0)) err[m] += e[j] * u;
        }
        if (ODE_LU_PERM) ODE_TEAM_SYNC();   /* (read in W's order, written next in the states') */
    }
    if (st->singular) ODE_FOR_MINE(m, i) err[m] = (ode_real)NAN;
    (void)cn;
    (void)cc;
}

#define ode_team_trial ode_team_ros_trial
#define ODE_TEAM_TRIAL_FAILURE(st) ((st).singular ? ODE_STATUS_SINGULAR : ODE_STATUS_NAN)

#if ODE_ROS_DENSE
/* Rodas5P's own extension of the accepted step (rosenbrock.h's
 * ode_dense_make), the lane's share. */
ODE_HD static ODE_INLINE void ode_team_dense_make(OdeTeamCtx *c, ode_real t, ode_real h, const ode_real *ynew,
                                                  OdeTeamStages *st, OdeTeamDense *D)
{
    const OdeTeam ode_team = c->team;
    const ode_real hh[ODE_NDENSE][ODE_NSTAGE] = ODE_TAB(H);
    const ode_real *const y = ODE_TW(c, Y);
    D->t = t;
    D->h = h;
    ODE_FOR_MINE(m, i) {
        D->F[0][m] = ynew[m] - y[i];
        ODE_UNROLL for (int r = 1; r < ODE_NF; r++) D->F[r][m] = ODE_R(0.0);
    }
    ODE_UNROLL for (int j = 0; j < ODE_NSTAGE; j++) {
        const ode_real w[3] = {hh[0][j], hh[1][j] + hh[2][j], -hh[2][j]};
        ODE_UNROLL for (int r = 0; r < 3; r++)
            if (w[r] != ODE_R(0.0)) ODE_FOR_MINE(m, i) D->F[1 + r][m] += w[r] * st->k[1 + j][m];
    }
}
#endif /* ODE_ROS_DENSE */

#endif /* ODE_LOOP_FORM && ODE_ROSENBROCK */

#endif /* ODE_TEAM_ROSENBROCK_H */
