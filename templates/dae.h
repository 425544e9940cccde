/* dae.h — XPPAUT's algebraic constraints (`solv z=GUESS`, `0=g`: an index-1
 * DAE, generator/check/dae.c).  The model's last ODE_NALG states are the
 * unknowns z; the generated right-hand side F(t, y) gives f for the
 * differential states and the constraints g for the unknowns, and
 * ode_model_rhs_jac gives F with its exact Jacobian (the derivative engine's:
 * no finite differences), so that
 *   - a stiff method integrates M y' = F(t, y) with M = diag(I, 0)
 *     (rosenbrock.h: W = M/(hγ) - J over states and unknowns);
 *   - an explicit method (ODE_DAE_NEWTON) sees the ODE y' = f(t, y, z(t, y)):
 *     ode_model_rhs below solves 0 = g(t, y, z) for z by Newton at each
 *     evaluation (XPPAUT's way, dae_fun.c and my_rhs.c) and gives the
 *     unknowns the derivative 0, so that a stage's z is the step's first
 *     value, the Newton guess.  integrate.h solves the unknowns at each
 *     trial step's end (ode_dae_end): the next step's guesses, and a step
 *     whose end has no root (past a fold) is not taken.
 * Both solve for consistent values before the first step, from the guesses,
 * and again after a block assigned the states.
 *
 * Newton as XPPAUT's solve_dae, with one difference.  XPPAUT stops either
 * when Σ|g| < newt_tol, before any update, or when an update has
 * Σ|Δz| < newt_tol ("no change").  The first test alone leaves an unknown
 * where it was until its constraint is off by newt_tol (1e-3 by default:
 * XPPAUT's own dae_ex1.ode ends with y = 0.99950 where y = 1 - x = 1 -
 * 2e-9), and near a fold, where g_z is small, it accepts points that are
 * no root at all; here only the second stops the iteration, after its
 * update, whose error Newton's quadratic convergence makes of the order of
 * (Σ|Δz|)²; an update at rounding level (16 ε Σ|z|) stops it too, where
 * newt_tol is below what the precision resolves.  As XPPAUT, it fails
 * after newt_iter updates, on a singular g_z, or on an update that is not
 * finite or beyond ODE_NALG times the file's bound.  While integrating
 * (not for the initial values, whose guesses may be far) two more tests
 * make a fold a failure, the status
 * dae_failed: where the constraint has no root near the last one (a fold,
 * where g_z turns singular and the DAE's solution ends, as at XPPAUT's
 * dae_ex3.ode's knee), plain Newton may wander off to another branch of
 * roots and return a smooth-looking wrong solution.  So Σ|g| must decrease
 * at every update (Deuflhard's monotonicity test), and the sign of det g_z
 * must stay the one it had at the consistent initial values (an index-1
 * solution keeps it: g_z is regular along it): near a knee the two
 * branches' roots are close, and Newton, or a stiff method's step, may land
 * on the other one without the residual ever growing; between the two, g_z
 * is singular.  The update solves
 * [I 0; 0 g_z] x = (0, g) with the model's own LU (emit_lu.c: the pattern
 * of J and the diagonal holds that matrix's).
 */
#ifndef ODE_DAE_H
#define ODE_DAE_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#endif

#if ODE_NALG > 0

/* sin/cos of time at t, what F reads of them. */
ODE_HD static ODE_INLINE void ode_dae_trig(const OdeSystem *s, ode_real t, OdeTrig *tr)
{
#if ODE_NTRIG > 0
    ode_model_trig(s, t, tr);
#else
    (void)s;
    (void)t;
    tr->s[0] = tr->c[0] = ODE_R(0.0);
#endif
}

/* Newton's matrix [I 0; 0 g_z] in place of the Jacobian J over states and
 * unknowns (ode_model_rhs_jac's), whose last rows and columns are g_z. */
ODE_HD static ODE_INLINE void ode_dae_matrix(ode_real *N)
{
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++)
        ODE_UNROLL for (int j = 0; j < ODE_NSTATE; j++)
            if (i < ODE_NDIFF || j < ODE_NDIFF) N[i * ODE_NSTATE + j] = i == j ? ODE_R(1.0) : ODE_R(0.0);
}

/* The sign of det g_z from the factors of [I 0; 0 g_z] (emit_lu.c's: the
 * diagonal holds 1/u_kk, piv[k] the row that came to k). */
ODE_HD static ODE_INLINE int ode_dae_det_sign(const ode_real *LU, const int *piv)
{
    int negative = 0;
    ODE_UNROLL for (int k = 0; k < ODE_NSTATE; k++) negative ^= (LU[k * ODE_NSTATE + k] < ODE_R(0.0)) ^ (piv[k] != k);
    return negative ? -1 : 1;
}

/* Solves the constraints at (t, y) for the unknowns y[ODE_NDIFF ..], from
 * the values they hold; 1 when it converged (y then holds the solution), 0
 * when it failed (y's unknowns are then the last iterate).  monotone: Σ|g|
 * must decrease at every update. */
ODE_HD static ODE_INLINE int ode_dae_newton(const OdeSystem *s, ode_real t, ode_real *y, const OdeTrig *tr,
                                            int monotone)
{
    ode_real F[ODE_NSTATE], N[ODE_NSTATE * ODE_NSTATE];
    int piv[ODE_NSTATE];
    const ode_real tol = (ode_real)ODE_NEWT_TOL;
    ode_real prev = ODE_R(0.0);                      /* Σ|g| before the last update */
    for (int it = 0;; it++) {
        ode_model_rhs_jac(s, t, y, F, N, tr);
        ode_real res = ODE_R(0.0);
        ODE_UNROLL for (int i = ODE_NDIFF; i < ODE_NSTATE; i++) res += ode_fabs(F[i]);
        if (!(res == res)) return 0;                 /* NaN: no solve from here */
        if (res == ODE_R(0.0)) return 1;             /* a root already */
        if (it >= ODE_NEWT_ITER) return 0;
        if (monotone && it > 0 && res >= tol && !(res < prev)) return 0;   /* no root near: a fold */
        prev = res;
        ode_dae_matrix(N);
        ODE_UNROLL for (int i = 0; i < ODE_NDIFF; i++) F[i] = ODE_R(0.0);   /* (0, g) */
        if (ode_dgetrf(N, piv) != 0) return 0;       /* g_z singular */
        if (monotone && ode_dae_det_sign(N, piv) != s->dae_sign) return 0;   /* another branch: a fold between */
        ode_dgetrs(N, piv, F);
        ode_real step = ODE_R(0.0), size = ODE_R(0.0);
        ODE_UNROLL for (int i = ODE_NDIFF; i < ODE_NSTATE; i++) {
            y[i] -= F[i];
            step += ode_fabs(F[i]);
            size += ode_fabs(y[i]);
        }
        if (!(step <= (ode_real)ODE_NALG * (ode_real)ODE_BOUND_OF(ODE_DEFAULT_BOUND))) return 0;
        /* the update that moved less than newt_tol is kept; so is one at rounding level (a
         * newt_tol below the unknowns' resolution: 1e-12 on unknowns of 1e5, or in float) */
        if (step < tol || step <= ODE_R(16.0) * ODE_EPS * size) return 1;
    }
}

/* The unknowns of s solved at its (t, y), from their values; 0 when Newton
 * failed (they keep their values).  monotone: as ode_dae_newton. */
ODE_HD static ODE_INLINE int ode_dae_project(OdeSystem *s, int monotone)
{
    OdeTrig tr;
    ode_real u[ODE_NSTATE];
    ode_dae_trig(s, s->t, &tr);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) u[i] = s->y[i];
    const int ok = ode_dae_newton(s, s->t, u, &tr, monotone);
    if (ok) ODE_UNROLL for (int i = ODE_NDIFF; i < ODE_NSTATE; i++) s->y[i] = u[i];
    return ok;
}

/* Consistent values: the unknowns of s solved at its (t, y) from their
 * guesses, and the sign of det g_z there, which the solution keeps
 * (s->dae_sign); 0 when Newton failed or g_z is singular there.  Before
 * the first step, and after a block moved the states. */
ODE_HD static ODE_INLINE int ode_dae_init(OdeSystem *s)
{
    if (!ode_dae_project(s, 0)) return 0;
    OdeTrig tr;
    ode_real F[ODE_NSTATE], N[ODE_NSTATE * ODE_NSTATE];
    int piv[ODE_NSTATE];
    ode_dae_trig(s, s->t, &tr);
    ode_model_rhs_jac(s, s->t, s->y, F, N, &tr);
    ode_dae_matrix(N);
    if (ode_dgetrf(N, piv) != 0) return 0;           /* g_z singular: not an index-1 point */
    s->dae_sign = ode_dae_det_sign(N, piv);
    return 1;
}

/* The unknowns solved at a trial step's end (t, ynew), into ynew, by Newton
 * from their values at the step's start (s->y's); 0 where that failed
 * (s->dae_fail then says so), and the step is not taken.  A state that is
 * not finite is left to the NaN test.  Both ways of integrating call it.
 * An explicit method's unknowns are its next guesses.  A stiff method's
 * own unknowns at the step's end must be that root, to 100 times the error
 * tolerance (they are to one tolerance, unless the step jumped) or to
 * rounding (1024 ε times the largest state: Robertson's y3 = 1 - y1 - y2 is
 * 1e-9 with an error of 1e-16 from y1 = 1 at the first step): at a fold
 * a Rosenbrock step may cross to the other outer branch of roots (XPPAUT's
 * dae_ex3.ode: from v = 0.58 to v = -1.15), where g_z has the same sign
 * again, and go on as a relaxation oscillation that the index-1 DAE does
 * not have; Newton from the step's start finds no root near there, so the
 * steps shrink and the system stops with dae_failed at the fold. */
ODE_HD static ODE_INLINE int ode_dae_end(OdeSystem *s, const OdeOptions *ode_opt, ode_real t, ode_real *ynew)
{
    (void)ode_opt;
    int finite = 1;
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) finite &= ode_finite(ynew[i]);
    if (!finite) return 1;
    OdeTrig tr;
    ode_real u[ODE_NSTATE];
    ode_dae_trig(s, t, &tr);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) u[i] = i < ODE_NDIFF ? ynew[i] : s->y[i];
    int ok = ode_dae_newton(s, t, u, &tr, 1);
#if !ODE_DAE_NEWTON
    ode_real size = ODE_R(0.0);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) size = ode_fmax(size, ode_fabs(ynew[i]));
    ODE_UNROLL for (int i = ODE_NDIFF; i < ODE_NSTATE; i++)
        ok &= ode_fabs(u[i] - ynew[i]) <= ODE_R(100.0) * (ode_atol(ode_opt, i) + ode_rtol(ode_opt, i) * ode_fabs(u[i])) +
                                              ODE_R(1024.0) * ODE_EPS * size;
#endif
    if (ok) ODE_UNROLL for (int i = ODE_NDIFF; i < ODE_NSTATE; i++) ynew[i] = u[i];
    s->dae_fail = !ok;
    return ok;
}

#if ODE_DAE_NEWTON
/* y' = f(t, y, z) with z solved at (t, y) from the guesses y holds, and 0
 * for the unknowns; NaN where Newton failed.  A failure on a finite state
 * is remembered in s->dae_fail (the status dae_failed, not nan: system.h's
 * ODE_DAE_FAILURE); the right-hand side takes the system as const, as every
 * method calls it, and writes only that flag (s is never a const object). */
ODE_HD static ODE_INLINE void ode_model_rhs(const OdeSystem *s, ode_real t, const ode_real *y, ode_real *dy,
                                            const OdeTrig *tr)
{
    ode_real u[ODE_NSTATE];
    int finite = 1;
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) {
        u[i] = y[i];
        finite &= ode_finite(y[i]);
    }
    const int ok = finite && ode_dae_newton(s, t, u, tr, 1);
    if (finite) ((OdeSystem *)s)->dae_fail = !ok;
    ode_model_dae_rhs(s, t, u, dy, tr);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++)
        if (i >= ODE_NDIFF || !ok) dy[i] = ok ? ODE_R(0.0) : (ode_real)NAN;
}

/* The events' functions at (t, y), with the unknowns solved there (an event
 * may read them); NaN where Newton failed. */
ODE_HD static ODE_INLINE void ode_model_events(const OdeSystem *s, ode_real t, const ode_real *y, ode_real *g)
{
    OdeTrig tr;
    ode_real u[ODE_NSTATE];
    ode_dae_trig(s, t, &tr);
    ODE_UNROLL for (int i = 0; i < ODE_NSTATE; i++) u[i] = y[i];
    const int ok = ode_dae_newton(s, t, u, &tr, 1);
    ode_model_dae_events(s, t, u, g);
    if (!ok) ODE_UNROLL for (int e = 0; e < ODE_NEVENT; e++) g[e] = (ode_real)NAN;
}
#endif /* ODE_DAE_NEWTON */

#endif /* ODE_NALG > 0 */

#endif /* ODE_DAE_H */
