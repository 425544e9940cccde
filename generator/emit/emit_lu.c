/* emit_lu.c — a stiff method's linear algebra, written out for the model:
 * the LU factorisation with partial pivoting of W = I/(hγ) - J (LAPACK's
 * dgetrf) and the solve with its factors (dgetrs), as C in which every index
 * is a compile-time constant (templates/rosenbrock.h calls them).
 *
 * The sparsity of J is known when odegen translates, so the factorisation
 * is planned symbolically: at column k the candidates for the pivot are the
 * rows at or below k whose entry in column k can be non-zero; a column with
 * one candidate needs no pivoting at all, otherwise the row of the largest
 * magnitude is chosen and the rows exchanged with selects (`p == r ? … : …`)
 * — never an array indexed at run time, which would move W from registers
 * to local memory on the GPU.  As the exchanged row can be any candidate,
 * every candidate row takes the union of their patterns (the fill-in
 * bound of partial pivoting); eliminations and substitutions then skip the
 * entries that stay structurally zero.  Like LAPACK, whole rows are
 * exchanged (the multipliers of L too) and ode_piv[k] records the row that
 * came to k.  Unlike LAPACK the diagonal keeps 1/u_kk: one division per
 * column, products only in the solves (one per stage).
 */
#include "base/arena.h"
#include "emit/emitter.h"
#include "deriv/jacobian.h"
#include "check/method.h"

typedef struct LuColumn {
    int *cand, ncand;   /* the pivot candidates: rows ≥ k whose entry can be non-zero, k first */
    bool *swap;         /* [j]: column j of the candidate rows is exchanged (some candidate has it) */
    bool *row;          /* [j > k]: row k's entry can be non-zero (eliminated into the candidates) */
} LuColumn;

typedef struct LuPlan {
    int n;
    bool *nz;           /* [i * n + j]: the factors' entry can be non-zero */
    LuColumn *col;
    long mults;         /* multiplications of the factorisation, and of one solve */
    long solve_mults;
} LuPlan;

static bool *at(const LuPlan *p, int i, int j) { return &p->nz[i * p->n + j]; }

static bool *flags(int n) { return arena_alloc(sizeof(bool) * (size_t)(n > 0 ? n : 1)); }

/* The symbolic factorisation: candidates, exchanges and fill-in, column by
 * column, from the pattern of J and the diagonal. */
static LuPlan plan_lu(const Jacobian *J, int n)
{
    LuPlan p = {n, flags(n * n), arena_alloc(sizeof(LuColumn) * (size_t)(n + 1)), 0, 0};
    for (int i = 0; i < n; i++) *at(&p, i, i) = true;
    for (int e = 0; e < J->nJ; e++) *at(&p, J->J[e].row, J->J[e].col) = true;
    for (int k = 0; k < n; k++) {
        LuColumn *c = &p.col[k];
        c->cand = arena_alloc(sizeof(int) * (size_t)(n - k));
        c->swap = flags(n);
        c->row = flags(n);
        c->cand[c->ncand++] = k;
        for (int r = k + 1; r < n; r++)
            if (*at(&p, r, k)) c->cand[c->ncand++] = r;
        if (c->ncand > 1)   /* any candidate may end up in any candidate's place */
            for (int j = 0; j < n; j++) {
                for (int q = 0; q < c->ncand; q++) c->swap[j] |= *at(&p, c->cand[q], j);
                for (int q = 0; q < c->ncand; q++) *at(&p, c->cand[q], j) = c->swap[j];
            }
        for (int j = k + 1; j < n; j++) c->row[j] = *at(&p, k, j);
        for (int q = 1; q < c->ncand; q++) {
            p.mults++;   /* the multiplier */
            for (int j = k + 1; j < n; j++)
                if (c->row[j]) {
                    *at(&p, c->cand[q], j) = true;
                    p.mults++;
                }
        }
    }
    for (int i = 0; i < n * n; i++) p.solve_mults += p.nz[i];   /* one product per entry of L and U */
    return p;
}

static int nonzeros(const LuPlan *p)
{
    int k = 0;
    for (int i = 0; i < p->n * p->n; i++) k += p->nz[i];
    return k;
}

static void emit_getrf(Emitter *E, const LuPlan *p)
{
    Buf *o = E->out;
    int n = p->n;
    buf_puts(o, "/* W = P L U in place (LAPACK dgetrf, unrolled for this model; see odegen's emit_lu.c):\n"
                " * ode_W row-major, ode_W[i * ODE_NSTATE + j]; on return the multipliers of L below the\n"
                " * diagonal, U above it and 1/u_kk on it; ode_piv[k] is the row exchanged with row k at\n"
                " * column k.  Returns 0, or 1 when W is singular (a zero pivot) or holds an infinity or a\n"
                " * NaN (then the factors are not usable). */\n");
    buf_puts(o, "ODE_HD static ODE_INLINE int ode_dgetrf(ode_real *ode_W, int *ode_piv)\n{\n");
    for (int k = 0; k < n; k++) {
        const LuColumn *c = &p->col[k];
        int kk = k * n + k;
        if (c->ncand == 1) {
            buf_printf(o, "    /* column %d: one candidate for the pivot, row %d */\n    ode_piv[%d] = %d;\n", k, k, k, k);
        } else {
            buf_printf(o, "    /* column %d: the pivot is the largest of rows", k);
            for (int q = 0; q < c->ncand; q++)
                buf_printf(o, "%s %d", q ? (q == c->ncand - 1 ? " and" : ",") : "", c->cand[q]);
            buf_printf(o, "; the rows exchanged by selects */\n    {\n        int ode_p = %d;\n"
                          "        ode_real ode_big = ode_fabs(ode_W[%d]);\n", k, kk);
            for (int q = 1; q < c->ncand; q++)
                buf_printf(o, "        {\n            const ode_real ode_v = ode_fabs(ode_W[%d]);\n"
                              "            ode_p = ode_v > ode_big ? %d : ode_p;\n"
                              "            ode_big = ode_v > ode_big ? ode_v : ode_big;\n        }\n",
                           c->cand[q] * n + k, c->cand[q]);
            buf_printf(o, "        ode_piv[%d] = ode_p;\n", k);
            for (int j = 0; j < n; j++) {
                if (!c->swap[j]) continue;
                buf_printf(o, "        {\n            const ode_real ode_wk = ode_W[%d];\n"
                              "            ode_real ode_v = ode_wk;\n", k * n + j);
                for (int q = 1; q < c->ncand; q++) {
                    int r = c->cand[q], rj = r * n + j;
                    buf_printf(o, "            ode_v = ode_p == %d ? ode_W[%d] : ode_v;\n"
                                  "            ode_W[%d] = ode_p == %d ? ode_wk : ode_W[%d];\n", r, rj, rj, r, rj);
                }
                buf_printf(o, "            ode_W[%d] = ode_v;\n        }\n", k * n + j);
            }
            buf_puts(o, "    }\n");
        }
        buf_printf(o, "    ode_W[%d] = %s / ode_W[%d];\n", kk, c_literal(1.0, E->single), kk);
        for (int q = 1; q < c->ncand; q++) {
            int r = c->cand[q];
            buf_printf(o, "    ode_W[%d] *= ode_W[%d];   /* l(%d,%d) */\n", r * n + k, kk, r, k);
            for (int j = k + 1; j < n; j++)
                if (c->row[j]) buf_printf(o, "    ode_W[%d] -= ode_W[%d] * ode_W[%d];\n", r * n + j, r * n + k, k * n + j);
        }
    }
    buf_puts(o, "    /* finite factors (a zero pivot's reciprocal is not) and no infinite pivot (its reciprocal is 0) */\n"
                "    int ode_ok = 1;\n");
    for (int i = 0; i < n * n; i++)
        if (p->nz[i]) buf_printf(o, "    ode_ok &= ode_finite(ode_W[%d])%s;\n", i,
                                 i % (n + 1) == 0 ? arena_printf(" & (ode_W[%d] != %s)", i, c_literal(0.0, E->single)) : "");
    buf_puts(o, "    return ode_ok ? 0 : 1;\n}\n\n");
}

static void emit_getrs(Emitter *E, const LuPlan *p)
{
    Buf *o = E->out;
    int n = p->n;
    buf_puts(o, "/* Solves W x = ode_b in place with ode_dgetrf's factors (LAPACK dgetrs): the row exchanges,\n"
                " * L (unit lower triangle), U (its diagonal stored as 1/u_kk). */\n");
    buf_puts(o, "ODE_HD static ODE_INLINE void ode_dgetrs(const ode_real *ode_W, const int *ode_piv, ode_real *ode_b)\n{\n"
                "    (void)ode_W;\n    (void)ode_piv;\n");
    for (int k = 0; k < n; k++) {
        const LuColumn *c = &p->col[k];
        if (c->ncand == 1) continue;
        buf_printf(o, "    {   /* the exchange at column %d */\n        const ode_real ode_bk = ode_b[%d];\n"
                      "        ode_real ode_v = ode_bk;\n", k, k);
        for (int q = 1; q < c->ncand; q++) {
            int r = c->cand[q];
            buf_printf(o, "        ode_v = ode_piv[%d] == %d ? ode_b[%d] : ode_v;\n"
                          "        ode_b[%d] = ode_piv[%d] == %d ? ode_bk : ode_b[%d];\n", k, r, r, r, k, r, r);
        }
        buf_printf(o, "        ode_b[%d] = ode_v;\n    }\n", k);
    }
    buf_puts(o, "    /* L y = P b */\n");
    for (int i = 1; i < n; i++) {
        bool any = false;
        for (int j = 0; j < i; j++)
            if (*at(p, i, j)) {
                buf_printf(o, "%sode_W[%d] * ode_b[%d]", any ? " + " : arena_printf("    ode_b[%d] -= ", i), i * n + j, j);
                any = true;
            }
        if (any) buf_puts(o, ";\n");
    }
    buf_puts(o, "    /* U x = y */\n");
    for (int i = n - 1; i >= 0; i--) {
        bool any = false;
        for (int j = i + 1; j < n; j++)
            if (*at(p, i, j)) {
                buf_printf(o, "%sode_W[%d] * ode_b[%d]", any ? " + " : arena_printf("    ode_b[%d] -= ", i), i * n + j, j);
                any = true;
            }
        if (any) buf_puts(o, ";\n");
        buf_printf(o, "    ode_b[%d] *= ode_W[%d];\n", i, i * n + i);
    }
    buf_puts(o, "}\n\n");
}

void emit_lu(Emitter *E)
{
    const Model *m = E->m;
    int n = m->nstate;
    LuPlan p = plan_lu(E->jac, n);
    long dense = 0;
    for (int k = 0; k < n; k++) dense += (long)(n - k - 1) * (n - k);
    buf_printf(E->out,
               "/* ---- %s's linear algebra: W = I/(h gamma) - J, %d x %d, %d entries can be non-zero\n"
               " * (J: %d, with the diagonal and the fill-in of partial pivoting: %d); multiplications:\n"
               " * factorisation %ld (dense: %ld), each solve %ld (dense: %d) ---- */\n",
               method_name(m->method), n, n, nonzeros(&p), E->jac->nJ, nonzeros(&p), p.mults, dense,
               p.solve_mults, n * n);
    emit_getrf(E, &p);
    emit_getrs(E, &p);
}
