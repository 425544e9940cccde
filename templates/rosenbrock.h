/* rosenbrock.h — one trial step of a linearly implicit (Rosenbrock) method
 * over its coefficients (tableaux.h: rodas5p, ros3p), and Rodas5P's own
 * continuous extension: the stiff methods' counterpart of stepper.h's
 * explicit trial, with the same signature, so that integrate.h and events.h
 * call either through ode_trial.
 *
 * Per trial: one Jacobian J = ∂f/∂y at (t, y) (the generator's exact one,
 * ode_model_jac or, with f, ode_model_rhs_jac), ∂f/∂t for a model that is not
 * autonomous (ode_model_dfdt), one LU factorisation of W = I/(hγ) - J with
 * partial pivoting (ode_dgetrf) and one forward and back substitution per
 * stage (ode_dgetrs).  Both are generated for the model's size and the
 * Jacobian's sparsity (generator/emit/emit_lu.c): every index is a compile-time
 * constant and pivoting is done with selects, so that W stays in registers.
 * A model of more than 32 states (ODE_LU_LOOP) instead writes J entry by
 * entry (ode_model_jac_team) into band or dense storage (lu_storage.h) and
 * factorises it in loop form (team_lu.h), by a team of one: its work and
 * memory grow with the band, not as n³ and n².
 * A rejected trial computes J again (cheaper in registers than keeping n²
 * values alive across the retry).
 *
 * With algebraic constraints (dae.h: the last ODE_NALG states are unknowns
 * whose rows of f are the constraints g = 0) the method integrates
 * M y' = f(t, y) with the singular mass matrix M = diag(I, 0) (Hairer and
 * Wanner, Solving ODEs II, VI.4): W = M/(hγ) - J, and the stages' coupling
 * terms Σ (c_jl/h) U_l are multiplied by M (tests/dae: an index-1
 * pendulum and Robertson's kinetics against references).
 *
 * A singular W (a zero pivot, or a Jacobian entry that is infinite or NaN)
 * makes the trial's error estimate NaN: the step is shrunk as after a NaN,
 * and at the smallest step the system stops with the status `singular`.
 */
#ifndef ODE_ROSENBROCK_H
#define ODE_ROSENBROCK_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#include "stepper.h"
#include "dense.h"
#endif

#if ODE_ROSENBROCK

#ifndef ODE_LU_LOOP
#define ODE_LU_LOOP 0   /* 1: emit_lu.c chose the factorisation in loop form (team_lu.h) */
#endif
#if ODE_LU_LOOP && ODE_NALG > 0
#error "rosenbrock.h: algebraic constraints are factorised written out (at most 32 states: check/dae.c)"
#endif

/* One trial step from (t, y) over h (stepper.h's ode_rk_trial describes the
 * arguments).  st->k[0] holds f(t, y) on entry when have_k0, else it is
 * computed here together with J; the stages' solutions U_j go to
 * st->k[1 .. ODE_NSTAGE] (Rodas5P's extension reads them), the new state to
 * ynew and the error estimate Σ E_j U_j to err; st->singular says whether W
 * was singular (err is NaN then). */
ODE_HD static ODE_INLINE void ode_ros_trial(const OdeSystem *s, ode_real t, ode_real h, const ode_real *y,
                                            int have_k0, OdeStages *st, ode_real *ynew, ode_real *err,
                                            OdeTrigStep *ts)
{
    const ode_real c[ODE_NSTAGE] = ODE_TAB(C);
    const ode_real a[ODE_NSTAGE][ODE_NSTAGE] = ODE_TAB(A);
    const ode_real cc[ODE_NSTAGE][ODE_NSTAGE] = ODE_TAB(COUPLE);
    const ode_real gt[ODE_NSTAGE] = ODE_TAB(GT);
    const ode_real b[ODE_NSTAGE] = ODE_TAB(B);
    const ode_real e[ODE_NSTAGE] = ODE_TAB(E);
    (void)ts;
    (void)gt;
    OdeTrig tr;
#if !ODE_AUTONOMOUS && ODE_NTRIG > 0
    ode_model_trig_full(s, t, &tr);        /* ∂f/∂t reads both sin and cos of time */
#else
    ode_trig_at(s, t, &tr);
#endif
    /* W = I/(hγ) - J, factorised in place. */
    const ode_real diag = ODE_R(1.0) / (h * (ode_real)ODE_TAB(GAMMA));
    int piv[ODE_ALLOC(ODE_NSTATE)];
#if ODE_LU_LOOP
    /* a large model: J entry by entry into the storage emit_lu.c chose, the
     * factorisation in loop form (team_lu.h) by a team of one */
    const OdeTeam one = ode_team_one();
    ode_real W[ODE_LU_REALS];
    if (!have_k0) ode_model_rhs(s, t, y, st->k[0], &tr);
    for (int q = 0; q < ODE_LU_REALS; q++) W[q] = ODE_R(0.0);
    ode_model_jac_team(s, t, y, W, &tr, 0, one);
    ode_lu_form_w(one, W, diag);
    st->singular = ode_lu_factor(one, W, piv) != 0;
#else
    ode_real W[ODE_ALLOC(ODE_NSTATE * ODE_NSTATE)];
    if (have_k0) ode_model_jac(s, t, y, W, &tr);
    else ode_model_rhs_jac(s, t, y, st->k[0], W, &tr);
    ODE_FOR_STATES(i) ODE_FOR_STATES(j) {   /* (M = diag(I, 0) with algebraic constraints: dae.h) */
        if (i == j) W[i * ODE_NSTATE + j] = (i < ODE_NDIFF ? diag : ODE_R(0.0)) - W[i * ODE_NSTATE + j];
        else if (ode_jac_nz(i, j)) W[i * ODE_NSTATE + j] = -W[i * ODE_NSTATE + j];
    }
    st->singular = ode_dgetrf(W, piv) != 0;
#endif
#if !ODE_AUTONOMOUS
    ode_real ft[ODE_ALLOC(ODE_NSTATE)];
    ode_model_dfdt(s, t, y, ft, &tr);
#endif
    const ode_real rh = ODE_R(1.0) / h;
    ODE_FOR_STATES(i) {
        ynew[i] = y[i];
        err[i] = ODE_R(0.0);
    }
    ODE_UNROLL for (int j = 0; j < ODE_NSTAGE; j++) {
        ode_real r[ODE_ALLOC(ODE_NSTATE)];  /* the stage's right side, then its solution U_j */
        if (j == 0) {
            ODE_FOR_STATES(i) r[i] = st->k[0][i];
        } else {
            ode_real u[ODE_ALLOC(ODE_NSTATE)];
            ODE_FOR_STATES(i) u[i] = y[i];
            ODE_UNROLL for (int l = 0; l < j; l++) {
                if (a[j][l] == ODE_R(0.0)) continue;
                ODE_FOR_STATES(i) u[i] += a[j][l] * st->k[1 + l][i];
            }
            OdeTrig trj;
            ode_trig_at(s, t + c[j] * h, &trj);
            ode_model_rhs(s, t + c[j] * h, u, r, &trj);
            ODE_UNROLL for (int l = 0; l < j; l++) {
                if (cc[j][l] == ODE_R(0.0)) continue;
                const ode_real ch = cc[j][l] * rh;
                ODE_FOR_STATES(i) if (i < ODE_NDIFF) r[i] += ch * st->k[1 + l][i];   /* M (c/h) U_l */
            }
        }
#if !ODE_AUTONOMOUS
        if (gt[j] != ODE_R(0.0)) {
            const ode_real hg = h * gt[j];
            ODE_FOR_STATES(i) r[i] += hg * ft[i];
        }
#endif
#if ODE_LU_LOOP
        {
            ode_real x[ODE_ALLOC(ODE_NSTATE)];   /* in W's order (the states renumbered where ODE_LU_PERM) */
            ODE_FOR_STATES(i) x[ODE_LU_ROW(i)] = r[i];
            ode_lu_solve(one, W, piv, x);
            ODE_FOR_STATES(i) r[i] = x[ODE_LU_ROW(i)];
        }
#else
        ode_dgetrs(W, piv, r);
#endif
        ODE_FOR_STATES(i) st->k[1 + j][i] = r[i];
        if (b[j] != ODE_R(0.0)) ODE_FOR_STATES(i) ynew[i] += b[j] * r[i];
        if (e[j] != ODE_R(0.0)) ODE_FOR_STATES(i) err[i] += e[j] * r[i];
    }
    if (st->singular) ODE_FOR_STATES(i) err[i] = (ode_real)NAN;   /* rejected: a smaller step, or the status */
    (void)c;
    (void)cc;
}

#define ode_trial ode_ros_trial
#define ODE_TRIAL_FAILURE(st) ((st).singular ? ODE_STATUS_SINGULAR : ODE_STATUS_NAN)

#if ODE_ROS_DENSE
#if ODE_NDENSE != 3
#error "rosenbrock.h: an own continuous extension has three rows H (Rodas5P's form)"
#endif
/* The method's own continuous extension of the accepted step (t, y) →
 * (t + h, ynew) from the stages' solutions U_j in st (OrdinaryDiffEq's form
 * y(θ) = (1-θ) y0 + θ (ynew + (1-θ)(K1 + θ (K2 + θ K3))), K_r = Σ_j H_rj U_j)
 * in dense.h's nested form: F0 = Δ, F1 = K1, F2 = K2 + K3, F3 = -K3. */
ODE_HD static ODE_INLINE void ode_dense_make(const OdeSystem *s, ode_real t, ode_real h, const ode_real *y,
                                             const ode_real *ynew, OdeStages *st, OdeDense *D)
{
    const ode_real hh[ODE_NDENSE][ODE_NSTAGE] = ODE_TAB(H);
    (void)s;
    D->t = t;
    D->h = h;
    ODE_FOR_STATES(i) {
        D->y0[i] = y[i];
        D->F[0][i] = ynew[i] - y[i];
        ODE_UNROLL for (int r = 1; r < ODE_NF; r++) D->F[r][i] = ODE_R(0.0);
    }
    ODE_UNROLL for (int j = 0; j < ODE_NSTAGE; j++) {
        const ode_real w[3] = {hh[0][j], hh[1][j] + hh[2][j], -hh[2][j]};
        ODE_UNROLL for (int r = 0; r < 3; r++)
            if (w[r] != ODE_R(0.0)) ODE_FOR_STATES(i) D->F[1 + r][i] += w[r] * st->k[1 + j][i];
    }
}
#endif /* ODE_ROS_DENSE */

#endif /* ODE_ROSENBROCK */

#endif /* ODE_ROSENBROCK_H */
