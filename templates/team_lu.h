/* team_lu.h — a stiff method's linear algebra in loop form: the LU
 * factorisation with partial pivoting of W = I/(hγ) - J and the solves with
 * its factors, over the storage lu_storage.h describes, by a team (a team of
 * one: one thread, or the CPU).  For models too large for rosenbrock.h's
 * factorisation written out entry by entry (emit_lu.c), whose work grows as
 * n³ and whose matrix lives in registers.
 *
 *   dense   LAPACK's dgetf2 (right-looking, the pivot the first largest of
 *           the column): n³/3 multiplications; each column's update spread
 *           over the lanes, row by row;
 *   band    LAPACK's dgbtf2 on the band storage (kl sub-, ku super-diagonals,
 *           kl more for the fill-in of pivoting): n·kl·(kl+ku) at most;
 *   sparse  the symbolic factorisation the generator did (emit_lu.c: the
 *           pivot's candidates, the rows they exchange, the fill-in), as
 *           tables of positions: the work of the pattern's own entries.
 * As in emit_lu.c the diagonal keeps 1/u_kk (one division per column,
 * products in the solves), and a zero or non-finite pivot makes the
 * factorisation report W singular.  The pivots are chosen alike in every
 * layout (the largest magnitude, the first row among equal ones), so the
 * factors do not depend on the team.
 */
#ifndef ODE_TEAM_LU_H
#define ODE_TEAM_LU_H

#ifndef ODEGEN_GENERATED
#include "team.h"
#include "lu_storage.h"
#endif

#if ODE_ROSENBROCK

/* The row of largest |value| among the lane's candidates given as (value,
 * row) pairs, combined over the team: the largest, the first row among equal
 * ones (LAPACK's idamax). */
ODE_HD static ODE_INLINE int ode_lu_pivot(OdeTeam ode_team, ode_real best, int row)
{
    const ode_real top = ode_team_max(ode_team, best);
    const ode_real mine = best == top && row >= 0 ? (ode_real)row : (ode_real)ODE_NSTATE;
    const ode_real first = ode_team_min(ode_team, mine);
    return (int)first;
}

/* The factorisation's result: 0, or 1 when a pivot was zero or not finite
 * (ok 0) or the factors hold an infinity or a NaN. */
ODE_HD static ODE_INLINE int ode_lu_status(OdeTeam ode_team, const ode_real *W, int ok)
{
    ODE_TEAM_SYNC();
    int finite = 1;
    ODE_TEAM_FOR(q, ODE_LU_REALS) finite &= ode_finite(W[q]);
    return !(ok && ode_team_all(ode_team, finite));
}

/* W = I/(hγ) - J in place, J written by the model into the storage
 * (ode_model_jac_team: the caller cleared it first); diag = 1/(hγ). */
ODE_HD static ODE_INLINE void ode_lu_form_w(OdeTeam ode_team, ode_real *W, ode_real diag)
{
    ODE_TEAM_FOR(k, ODE_LU_REALS) W[k] = -W[k];
    ODE_TEAM_SYNC();
#if ODE_LU_KIND == ODE_LU_SPARSE
    ODE_TEAM_FOR(i, ODE_NSTATE) W[ode_lu_diag[i]] += diag;
#else
    ODE_TEAM_FOR(i, ODE_NSTATE) W[ODE_LU_INDEX(i, i)] += diag;
#endif
}

/* ------------------------------------------------------------------ dense (dgetf2) */
#if ODE_LU_KIND == ODE_LU_DENSE
#define ODE_W(i, j) W[(i) * ODE_NSTATE + (j)]

/* W = P L U in place; piv[k]: the row exchanged with row k at column k.
 * Returns 0, or 1 when W is singular or not finite. */
ODE_HD static ODE_INLINE int ode_lu_factor(OdeTeam ode_team, ode_real *W, int *piv)
{
    int ok = 1;
    for (int k = 0; k < ODE_NSTATE; k++) {
        ode_real best = ODE_R(-1.0);
        int row = -1;
        for (int i = k + ode_team.lane; i < ODE_NSTATE; i += ode_team.size) {
            const ode_real v = ode_fabs(ODE_W(i, k));
            if (v > best) { best = v; row = i; }
        }
        const int p = ode_lu_pivot(ode_team, best, row);   /* (a barrier: the column is complete) */
        if (ODE_TEAM_LEADER) piv[k] = p;
        if (p != k) ODE_TEAM_FOR(j, ODE_NSTATE) {          /* whole rows, as LAPACK */
            const ode_real v = ODE_W(k, j);
            ODE_W(k, j) = ODE_W(p, j);
            ODE_W(p, j) = v;
        }
        ODE_TEAM_SYNC();
        const ode_real inv = ODE_R(1.0) / ODE_W(k, k);
        ok &= ode_finite(inv) & (inv != ODE_R(0.0));
        for (int i = k + 1 + ode_team.lane; i < ODE_NSTATE; i += ode_team.size) {
            const ode_real l = ODE_W(i, k) * inv;
            ODE_W(i, k) = l;
            ODE_UNROLL for (int j = k + 1; j < ODE_NSTATE; j++) ODE_W(i, j) -= l * ODE_W(k, j);
        }
        ODE_TEAM_SYNC();                                    /* (every lane has read row k and its pivot) */
        if (ODE_TEAM_LEADER) ODE_W(k, k) = inv;
    }
    return ode_lu_status(ode_team, W, ok);
}

/* Solves W x = b in place with the factors (dgetrs), b in team memory. */
ODE_HD static ODE_INLINE void ode_lu_solve(OdeTeam ode_team, const ode_real *W, const int *piv, ode_real *b)
{
    ODE_TEAM_SYNC();                                        /* b complete */
    if (ODE_TEAM_LEADER)
        for (int k = 0; k < ODE_NSTATE; k++) {
            const int p = piv[k];
            if (p != k) { const ode_real v = b[k]; b[k] = b[p]; b[p] = v; }
        }
    for (int j = 0; j < ODE_NSTATE; j++) {                  /* L y = P b, a column at a time */
        ODE_TEAM_SYNC();
        const ode_real bj = b[j];
        for (int i = j + 1 + ode_team.lane; i < ODE_NSTATE; i += ode_team.size) b[i] -= ODE_W(i, j) * bj;
    }
    for (int j = ODE_NSTATE - 1; j >= 0; j--) {             /* U x = y */
        ODE_TEAM_SYNC();
        const ode_real xj = b[j] * ODE_W(j, j);
        ODE_TEAM_SYNC();
        if (ODE_TEAM_LEADER) b[j] = xj;
        for (int i = ode_team.lane; i < j; i += ode_team.size) b[i] -= ODE_W(i, j) * xj;
    }
    ODE_TEAM_SYNC();
}
#undef ODE_W

/* ------------------------------------------------------------------ band (dgbtf2) */
#elif ODE_LU_KIND == ODE_LU_BAND
#define ODE_LU_KV (ODE_LU_KU + ODE_LU_KL)
#define ODE_AB(i, j) W[ODE_LU_INDEX(i, j)]                  /* A(i, j) within the band */

ODE_HD static ODE_INLINE int ode_lu_factor(OdeTeam ode_team, ode_real *W, int *piv)
{
    int ok = 1, ju = 0;
    for (int j = 0; j < ODE_NSTATE; j++) {
        const int km = ODE_LU_KL < ODE_NSTATE - 1 - j ? ODE_LU_KL : ODE_NSTATE - 1 - j;
        ode_real best = ODE_R(-1.0);
        int row = -1;
        for (int i = j + ode_team.lane; i <= j + km; i += ode_team.size) {
            const ode_real v = ode_fabs(ODE_AB(i, j));
            if (v > best) { best = v; row = i; }
        }
        const int p = ode_lu_pivot(ode_team, best, row);
        if (ODE_TEAM_LEADER) piv[j] = p;
        const int last = j + ODE_LU_KU + (p - j) < ODE_NSTATE - 1 ? j + ODE_LU_KU + (p - j) : ODE_NSTATE - 1;
        ju = last > ju ? last : ju;                         /* the last column this pivot's row reaches */
        if (p != j)
            for (int c = j + ode_team.lane; c <= ju; c += ode_team.size) {
                const ode_real v = ODE_AB(j, c);
                ODE_AB(j, c) = ODE_AB(p, c);
                ODE_AB(p, c) = v;
            }
        ODE_TEAM_SYNC();
        const ode_real inv = ODE_R(1.0) / ODE_AB(j, j);
        ok &= ode_finite(inv) & (inv != ODE_R(0.0));
        /* the multipliers and the update of rows j+1 … j+km, columns j+1 … ju, spread over (row, column) */
        const int cols = ju - j;
        for (int q = ode_team.lane; q < km * (cols + 1); q += ode_team.size) {
            const int i = j + 1 + q / (cols + 1), c = j + q % (cols + 1);
            if (c == j) continue;
            ODE_AB(i, c) -= ODE_AB(i, j) * inv * ODE_AB(j, c);
        }
        ODE_TEAM_SYNC();
        for (int i = j + 1 + ode_team.lane; i <= j + km; i += ode_team.size) ODE_AB(i, j) *= inv;
        ODE_TEAM_SYNC();
        if (ODE_TEAM_LEADER) ODE_AB(j, j) = inv;
    }
    return ode_lu_status(ode_team, W, ok);
}

/* Solves W x = b in place with the band factors (dgbtrs), by the leader:
 * each step depends on the last. */
ODE_HD static ODE_INLINE void ode_lu_solve(OdeTeam ode_team, const ode_real *W, const int *piv, ode_real *b)
{
    ODE_TEAM_SYNC();
    if (ODE_TEAM_LEADER) {
        for (int j = 0; j < ODE_NSTATE; j++) {              /* L y = P b */
            const int p = piv[j];
            if (p != j) { const ode_real v = b[j]; b[j] = b[p]; b[p] = v; }
            const int km = ODE_LU_KL < ODE_NSTATE - 1 - j ? ODE_LU_KL : ODE_NSTATE - 1 - j;
            const ode_real bj = b[j];
            for (int i = j + 1; i <= j + km; i++) b[i] -= ODE_AB(i, j) * bj;
        }
        for (int j = ODE_NSTATE - 1; j >= 0; j--) {         /* U x = y (U: ku + kl super-diagonals) */
            const ode_real xj = b[j] * ODE_AB(j, j);
            b[j] = xj;
            const int top = j - ODE_LU_KV > 0 ? j - ODE_LU_KV : 0;
            for (int i = top; i < j; i++) b[i] -= ODE_AB(i, j) * xj;
        }
    }
    ODE_TEAM_SYNC();
}
#undef ODE_AB

/* ------------------------------------------------------------------ sparse (the generator's plan) */
#elif ODE_LU_KIND == ODE_LU_SPARSE

/* Column by column as emit_lu.c's written-out factorisation: the pivot
 * among the column's candidate rows, their entries exchanged, the
 * multipliers and the elimination over the planned entries only. */
ODE_HD static ODE_INLINE int ode_lu_factor(OdeTeam ode_team, ode_real *W, int *piv)
{
    int ok = 1;
    for (int k = 0; k < ODE_NSTATE; k++) {
        const int c0 = ode_lu_cand_start[k], nc = ode_lu_cand_start[k + 1] - c0;
        ode_real best = ODE_R(-1.0);
        int row = -1;
        for (int q = ode_team.lane; q < nc; q += ode_team.size) {
            const ode_real v = ode_fabs(W[ode_lu_cand_pos[c0 + q]]);
            if (v > best) { best = v; row = ode_lu_cand_row[c0 + q]; }
        }
        const int p = ode_lu_pivot(ode_team, best, row);
        if (ODE_TEAM_LEADER) piv[k] = p;
        int qp = 0;                                         /* the pivot's place among the candidates */
        for (int q = 1; q < nc; q++) qp = ode_lu_cand_row[c0 + q] == p ? q : qp;
        if (qp) {
            const int s0 = ode_lu_swap_start[k], ns = (ode_lu_swap_start[k + 1] - s0) / nc;
            for (int x = ode_team.lane; x < ns + 1; x += ode_team.size) {
                const int a = x < ns ? ode_lu_swap[s0 + x * nc] : ode_lu_cand_pos[c0];   /* (and column k) */
                const int b = x < ns ? ode_lu_swap[s0 + x * nc + qp] : ode_lu_cand_pos[c0 + qp];
                const ode_real v = W[a];
                W[a] = W[b];
                W[b] = v;
            }
        }
        ODE_TEAM_SYNC();
        const ode_real inv = ODE_R(1.0) / W[ode_lu_cand_pos[c0]];
        ok &= ode_finite(inv) & (inv != ODE_R(0.0));
        const int u0 = ode_lu_upd_start[k], nu = (ode_lu_upd_start[k + 1] - u0) / nc;
        for (int x = ode_team.lane; x < nu * (nc - 1); x += ode_team.size) {
            const int q = 1 + x / nu, j = x % nu;
            const ode_real l = W[ode_lu_cand_pos[c0 + q]] * inv;
            W[ode_lu_upd[u0 + j * nc + q]] -= l * W[ode_lu_upd[u0 + j * nc]];
        }
        ODE_TEAM_SYNC();
        for (int q = 1 + ode_team.lane; q < nc; q += ode_team.size) W[ode_lu_cand_pos[c0 + q]] *= inv;
        ODE_TEAM_SYNC();
        if (ODE_TEAM_LEADER) W[ode_lu_cand_pos[c0]] = inv;
    }
    return ode_lu_status(ode_team, W, ok);
}

/* Solves W x = b with the sparse factors, by the leader: the exchanges, then
 * L's and U's planned entries row by row. */
ODE_HD static ODE_INLINE void ode_lu_solve(OdeTeam ode_team, const ode_real *W, const int *piv, ode_real *b)
{
    ODE_TEAM_SYNC();
    if (ODE_TEAM_LEADER) {
        for (int k = 0; k < ODE_NSTATE; k++) {
            const int p = ode_lu_cand_start[k + 1] - ode_lu_cand_start[k] > 1 ? piv[k] : k;
            if (p != k) { const ode_real v = b[k]; b[k] = b[p]; b[p] = v; }
        }
        for (int i = 1; i < ODE_NSTATE; i++) {
            ode_real v = b[i];
            for (int x = ode_lu_low_start[i]; x < ode_lu_low_start[i + 1]; x += 2) v -= W[ode_lu_low[x]] * b[ode_lu_low[x + 1]];
            b[i] = v;
        }
        for (int i = ODE_NSTATE - 1; i >= 0; i--) {
            ode_real v = b[i];
            for (int x = ode_lu_up_start[i]; x < ode_lu_up_start[i + 1]; x += 2) v -= W[ode_lu_up[x]] * b[ode_lu_up[x + 1]];
            b[i] = v * W[ode_lu_diag[i]];
        }
    }
    ODE_TEAM_SYNC();
}
#endif /* ODE_LU_KIND */

#endif /* ODE_ROSENBROCK */

#endif /* ODE_TEAM_LU_H */
