/* team_stepper.h — one trial step of an explicit Runge–Kutta method by a
 * team (a model in loop form): stepper.h's trial over the same tableaux
 * (tableaux.h), with every lane computing its share of the states.
 *
 * Each element goes through the same operations in the same order as in
 * stepper.h (stage inputs, then each stage's terms of the new state and of
 * the error estimate added after the last stage input that reads it), so a
 * team gives the per-thread integrator's bits wherever the model's
 * right-hand side does.  A lane keeps its share of the stages in its own
 * slots (team_system.h: ODE_FOR_MINE); the stage inputs, which the model
 * reads at any index, go to team memory between two barriers.
 */
#ifndef ODE_TEAM_STEPPER_H
#define ODE_TEAM_STEPPER_H

#ifndef ODEGEN_GENERATED
#include "tableaux.h"
#include "stepper.h"
#include "team_system.h"
#endif

#if ODE_LOOP_FORM

/* The lane's share of the stage derivatives k[j] = f(t + c_j h, Y_j). */
typedef struct OdeTeamStages {
    ode_real k[ODE_NK][ODE_TEAM_SLOTS];
#if ODE_ROSENBROCK
    int singular;                           /* the last trial's W was singular (team_rosenbrock.h) */
#endif
} OdeTeamStages;

/* f(t, y) for y in team memory, the lane's share into k: the model's
 * function between two barriers (its input complete, its output complete). */
ODE_HD static ODE_INLINE void ode_team_f(OdeTeamCtx *c, ode_real t, const ode_real *y, const OdeTrig *tr, ode_real *k)
{
    const OdeTeam ode_team = c->team;
    ODE_TEAM_SYNC();
    ode_model_rhs_team(c->s, t, y, ODE_TW(c, DY), tr, ODE_TW(c, SCRATCH), ode_team);
    ODE_TEAM_SYNC();
    ODE_FOR_MINE(m, i) k[m] = c->w[ODE_TW_DY + i];
}

/* The same with sin/cos of time evaluated at t (stepper.h: ode_rhs_at). */
ODE_HD static ODE_INLINE void ode_team_f_at(OdeTeamCtx *c, ode_real t, const ode_real *y, ode_real *k)
{
    OdeTrig tr;
    ode_trig_at(c->s, t, &tr);
    ode_team_f(c, t, y, &tr, k);
}

/* The lane's share of a vector into team memory. */
ODE_HD static ODE_INLINE void ode_team_put(OdeTeamCtx *c, const ode_real *mine, ode_real *to)
{
    const OdeTeam ode_team = c->team;
    ODE_FOR_MINE(m, i) to[i] = mine[m];
}

#if ODE_TILE_LEN > 0
/* f at a stage input the lane holds in registers (its tiles, `mine`, slot
 * order: team_system.h), k the lane's share, in registers too
 * (ode_model_rhs_tile).  The positions of its neighbours' tiles it reads (the
 * halo) come through team memory: each lane writes into `put` the positions
 * of its tiles others read (its first and last ODE_TILE_HALO), a barrier,
 * then reads its halo from `from` — read periodically at the arrays' ends,
 * where only a ring's reads take them (a chain's are guarded).  put NULL:
 * `from` holds the whole vector already (the state y).  One barrier per
 * stage: successive stages alternate between two vectors of team memory. */
ODE_HD static ODE_INLINE void ode_team_tile_f(OdeTeamCtx *c, ode_real t, const ode_real *mine, ode_real *put,
                                              const ode_real *from, const OdeTrig *tr, ode_real *k)
{
    const OdeTeam ode_team = c->team;
    const int C = ODE_TILE_C(ode_team), H = ODE_TILE_HALO, L = ODE_TILE_LEN, W = C + 2 * H;
    const int p0 = ode_team.lane * C;
    ode_real in[ODE_TILE_NARR * (ODE_TILE_CMAX + 2 * ODE_TILE_HALO)];
    if (put)
        ODE_UNROLL for (int a = 0; a < ODE_TILE_NARR; a++)
            ODE_UNROLL for (int q = 0; q < C; q++)
                if (q < H || q >= C - H) put[a * L + p0 + q] = mine[a * C + q];
    ODE_TEAM_SYNC();
    ODE_UNROLL for (int a = 0; a < ODE_TILE_NARR; a++) {
        ODE_UNROLL for (int q = 0; q < C; q++) in[a * W + H + q] = mine[a * C + q];
        ODE_UNROLL for (int q = 0; q < H; q++) {
            in[a * W + q] = from[a * L + (p0 - H + q + L) % L];
            in[a * W + H + C + q] = from[a * L + (p0 + C + q) % L];
        }
    }
    ode_model_rhs_tile(c->s, t, in, k, tr, ode_team);
}
#endif

#if !ODE_ROSENBROCK   /* (a Rosenbrock method's trial: team_rosenbrock.h) */

/* Stage j's input y + h Σ_l a_jl k_l (stepper.h: ode_stage_input, element
 * by element in the same order), y from team memory or, for a tile, from the
 * lane's registers ym; into team memory yt, or (yt NULL) into the registers ytm. */
ODE_HD static ODE_INLINE void ode_team_stage_input(OdeTeamCtx *c, const ode_real a[ODE_NK][ODE_NK], int j, ode_real h,
                                                   const OdeTeamStages *st, const ode_real *ym, ode_real *yt, ode_real *ytm)
{
    const OdeTeam ode_team = c->team;
    const ode_real *const y = ODE_TW(c, Y);
    ODE_FOR_MINE(m, i) {
        ode_real v = ym ? ym[m] : y[i];
        ODE_UNROLL for (int l = 0; l < j; l++) {
            if (a[j][l] == ODE_R(0.0)) continue;
            const ode_real ha = h * a[j][l];
            v += ha * st->k[l][m];
        }
        if (yt) yt[i] = v;
        else ytm[m] = v;
    }
}

/* One trial step from (t, y) over h, y the system's state in team memory
 * (stepper.h: ode_rk_trial, whose arguments these are): the lane's share of
 * the new state into ynew and of the error estimate into err.  A tile keeps
 * its share of y and of the stage inputs in registers (ode_team_tile_f). */
ODE_HD static ODE_INLINE void ode_team_rk_trial(OdeTeamCtx *c, ode_real t, ode_real h, int have_k0, OdeTeamStages *st,
                                                ode_real *ynew, ode_real *err, OdeTrigStep *ts)
{
    const OdeTeam ode_team = c->team;
    const ode_real *const y = ODE_TW(c, Y);
    ode_real *const yt = ODE_TW(c, YT);
    const ode_real cn[ODE_NK] = ODE_TAB(C);
    const ode_real a[ODE_NK][ODE_NK] = ODE_TAB(A);
    const ode_real b[ODE_NK] = ODE_TAB(B);
#if ODE_ERR_DOP853
    const ode_real e[ODE_NK] = ODE_DOP853_E5, e3[ODE_NK] = ODE_DOP853_E3;
    ode_real err3[ODE_TEAM_SLOTS];
#elif ODE_ADAPTIVE
    const ode_real e[ODE_NK] = ODE_TAB(E);
#endif
#if ODE_ERR_DOP853
#define ODE_TEAM_ERR_TERMS(l)                                                                  \
    if (e[l] != ODE_R(0.0)) ODE_FOR_MINE(m, i) err[m] += e[l] * st->k[l][m];                   \
    if (e3[l] != ODE_R(0.0)) ODE_FOR_MINE(m, i) err3[m] += e3[l] * st->k[l][m];
#elif ODE_ADAPTIVE
#define ODE_TEAM_ERR_TERMS(l) \
    if (e[l] != ODE_R(0.0)) ODE_FOR_MINE(m, i) err[m] += e[l] * st->k[l][m];
#else
#define ODE_TEAM_ERR_TERMS(l)
#endif
#define ODE_TEAM_SUM_TERMS(l)                                                                  \
    do {                                                                                       \
        if (!ODE_FSAL && b[l] != ODE_R(0.0)) {                                                 \
            const ode_real hb = h * b[l];                                                      \
            ODE_FOR_MINE(m, i) ynew[m] += hb * st->k[l][m];                                    \
        }                                                                                      \
        ODE_TEAM_ERR_TERMS(l)                                                                  \
    } while (0)
    OdeTrig tr0, tr;
#if ODE_ROTATE
    const int slot[ODE_NK] = ODE_TAB(TRIG_SLOT);
    ode_trig_step_for(c->s, h, ts);
    ode_model_trig_full(c->s, t, &tr0);
#else
    (void)ts;
    if (!have_k0) ode_trig_at(c->s, t, &tr0);
#endif
    const int tile = ODE_TILE_ON(ode_team);
    ode_real ym[ODE_TEAM_SLOTS], ytm[ODE_TEAM_SLOTS];
    if (tile) ODE_FOR_MINE(m, i) ym[m] = y[i];
#if ODE_TILE_LEN > 0
    if (!have_k0 && tile) ode_team_tile_f(c, t, ym, 0, y, &tr0, st->k[0]);
#endif
    if (!have_k0 && !tile) ode_team_f(c, t, y, &tr0, st->k[0]);
    ODE_FOR_MINE(m, i) {
        ynew[m] = tile ? ym[m] : y[i];
#if ODE_ERR_DOP853
        err[m] = err3[m] = ODE_R(0.0);
#elif ODE_ADAPTIVE
        err[m] = ODE_R(0.0);
#else
        (void)err;
#endif
    }
    if (ode_last_use(a, 0) == 0) ODE_TEAM_SUM_TERMS(0);
    ODE_UNROLL for (int j = 1; j < ODE_NSTAGE; j++) {
        if (tile) ode_team_stage_input(c, a, j, h, st, ym, 0, ytm);
        else ode_team_stage_input(c, a, j, h, st, 0, yt, 0);
        ODE_UNROLL for (int l = 0; l < j; l++)
            if (ode_last_use(a, l) == j) ODE_TEAM_SUM_TERMS(l);
        if (ODE_FSAL && j == ODE_NSTAGE - 1)
            ODE_FOR_MINE(m, i) ynew[m] = tile ? ytm[m] : yt[i];     /* the last stage is at the step's end */
#if ODE_ROTATE
        ode_trig_rotate(&tr0, &ts->rot[slot[j]], &tr);
#else
        ode_trig_at(c->s, t + cn[j] * h, &tr);
#endif
#if ODE_TILE_LEN > 0
        if (tile) {
            ode_real *const buf = (j & 1) ? yt : ODE_TW(c, DY);
            ode_team_tile_f(c, t + cn[j] * h, ytm, buf, buf, &tr, st->k[j]);
        }
#endif
        if (!tile) ode_team_f(c, t + cn[j] * h, yt, &tr, st->k[j]);
        if (ode_last_use(a, j) == 0) ODE_TEAM_SUM_TERMS(j);
    }
#undef ODE_TEAM_SUM_TERMS
#undef ODE_TEAM_ERR_TERMS
#if ODE_ERR_DOP853
    ODE_FOR_MINE(m, i) {
        const ode_real d = err[m] * err[m] + ODE_R(0.01) * (err3[m] * err3[m]);
        err[m] = d > ODE_R(0.0) ? h * err[m] * (ode_fabs(err[m]) / ode_sqrt(d)) : ODE_R(0.0);
    }
#elif ODE_ADAPTIVE
    ODE_FOR_MINE(m, i) err[m] *= h;
#endif
    (void)cn;
}

#define ode_team_trial ode_team_rk_trial
#define ODE_TEAM_TRIAL_FAILURE(st) ODE_STATUS_NAN
#endif /* !ODE_ROSENBROCK */

/* f at the step's end (t + h, ynew) into k[ODE_KEND] (stepper.h: ode_rk_end). */
ODE_HD static ODE_INLINE void ode_team_rk_end(OdeTeamCtx *c, ode_real t, ode_real h, const ode_real *ynew,
                                              OdeTeamStages *st)
{
    if (ODE_FSAL) return;
    ode_team_put(c, ynew, ODE_TW(c, YT));
    ode_team_f_at(c, t + h, ODE_TW(c, YT), st->k[ODE_KEND]);
}

/* The error ratio of stepper.h's ode_error_ratio over the team: the largest
 * of the lanes' (a maximum: the same bits in any order); NaN when some lane's
 * trial holds a NaN or an infinity.  One reduction: a lane whose trial is not
 * finite offers +inf, and an infinite ratio of finite values (an error over a
 * zero scale) the largest finite number, which step control treats alike
 * (rejected, the step shrunk by hshrink). */
ODE_HD static ODE_INLINE ode_real ode_team_error_ratio(OdeTeamCtx *c, const OdeOptions *ode_opt, const ode_real *ynew,
                                                       const ode_real *err)
{
    const OdeTeam ode_team = c->team;
    const ode_real *const y = ODE_TW(c, Y);
    ode_real ratio = ODE_R(0.0);
    int finite = 1;
    ODE_FOR_MINE(m, i) {
        finite &= ode_finite(ynew[m]) & ode_finite(err[m]);
        ode_real scale = ode_atol(ode_opt, i) + ode_rtol(ode_opt, i) * ode_fmax(ode_fabs(y[i]), ode_fabs(ynew[m]));
        ode_real q = ode_fabs(err[m]) / scale;
        ratio = q > ratio ? q : ratio;
    }
    const ode_real big = ODE_FLOAT ? (ode_real)3.4028234663852886e38 : (ode_real)1.7976931348623157e308;
    ratio = ode_team_max(ode_team, !finite ? (ode_real)INFINITY : ratio > big ? big : ratio);
    return ratio > big ? (ode_real)NAN : ratio;
}

#endif /* ODE_LOOP_FORM */

#endif /* ODE_TEAM_STEPPER_H */
