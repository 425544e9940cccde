/* emit_lu.c — a stiff method's linear algebra: the LU factorisation with
 * partial pivoting of W = I/(hγ) - J and the solves with its factors.
 *
 * For a small model integrated by one thread (at most LU_UNROLL_MAX states)
 * it is written out here as C in which every index is a compile-time
 * constant (LAPACK's dgetrf and dgetrs; templates/rosenbrock.h calls them).
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
 *
 * Larger models, and every model integrated by a team, factorise in loop
 * form (templates/team_lu.h), whose code does not grow with the model and
 * whose work does not grow as n³ where J has structure: the storage is
 * chosen here from J's pattern (lu_storage.h) — a band (LAPACK's dgbtrf)
 * when the pattern's bandwidth is small, in the states' order or after
 * renumbering them by reverse Cuthill–McKee (a chain, a ring, a
 * discretised reaction–diffusion system whose species are separate
 * arrays), else dense.
 */
#include <string.h>

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
static LuPlan plan_lu(const Jacobian *J, int n, const int *pos)
{
    LuPlan p = {n, flags(n * n), arena_alloc(sizeof(LuColumn) * (size_t)(n + 1)), 0, 0};
    for (int i = 0; i < n; i++) *at(&p, i, i) = true;
    for (int e = 0; e < J->nJ; e++)
        *at(&p, pos ? pos[J->J[e].row] : J->J[e].row, pos ? pos[J->J[e].col] : J->J[e].col) = true;
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

/* ------------------------------------------------------------------ loop form: the storage */

enum { LU_UNROLL_MAX = 32 };   /* states up to which one thread's factorisation is written out */
enum { LU_SPARSE_MAX = 4096 }; /* the symbolic factorisation's n x n pattern, at most */

/* The band's diagonals of the pattern (J's entries and the diagonal) with
 * the states at places pos[i] (NULL: i). */
static void bandwidth(const Jacobian *J, const int *pos, int *kl, int *ku)
{
    *kl = *ku = 0;
    for (int e = 0; e < J->nJ; e++) {
        const int i = pos ? pos[J->J[e].row] : J->J[e].row, j = pos ? pos[J->J[e].col] : J->J[e].col;
        if (i - j > *kl) *kl = i - j;
        if (j - i > *ku) *ku = j - i;
    }
}

/* Reverse Cuthill–McKee on the symmetrised pattern: each connected part
 * from a node of least degree, neighbours in order of degree; pos[i] the
 * place of state i. */
static int *reverse_cuthill_mckee(const Jacobian *J, int n)
{
    int *deg = arena_alloc(sizeof(int) * (size_t)(n + 1)), *start = arena_alloc(sizeof(int) * (size_t)(n + 2));
    for (int e = 0; e < J->nJ; e++)
        if (J->J[e].row != J->J[e].col) deg[J->J[e].row]++, deg[J->J[e].col]++;
    for (int i = 0; i < n; i++) start[i + 1] = start[i] + deg[i];
    int *adj = arena_alloc(sizeof(int) * (size_t)(start[n] + 1)), *fill = arena_alloc(sizeof(int) * (size_t)(n + 1));
    for (int e = 0; e < J->nJ; e++) {
        const int a = J->J[e].row, b = J->J[e].col;
        if (a == b) continue;
        adj[start[a] + fill[a]++] = b;
        adj[start[b] + fill[b]++] = a;
    }
    int *order = arena_alloc(sizeof(int) * (size_t)(n + 1)), done = 0;
    bool *seen = arena_alloc(sizeof(bool) * (size_t)(n + 1));
    while (done < n) {
        int root = -1;
        for (int i = 0; i < n; i++)
            if (!seen[i] && (root < 0 || deg[i] < deg[root])) root = i;
        seen[root] = true;
        order[done++] = root;
        for (int head = done - 1; head < done; head++) {
            const int v = order[head], first = done;
            for (int k = start[v]; k < start[v + 1]; k++)
                if (!seen[adj[k]]) {
                    seen[adj[k]] = true;
                    order[done++] = adj[k];
                }
            for (int a = first + 1; a < done; a++)   /* the new neighbours by degree (insertion: few) */
                for (int b = a; b > first && deg[order[b]] < deg[order[b - 1]]; b--) {
                    const int t = order[b];
                    order[b] = order[b - 1], order[b - 1] = t;
                }
        }
    }
    int *pos = arena_alloc(sizeof(int) * (size_t)(n + 1));
    for (int k = 0; k < n; k++) pos[order[k]] = n - 1 - k;
    return pos;
}

/* Band storage beats dense when its rows (2 kl + ku + 1) are well below n. */
static bool band_pays(int kl, int ku, int n) { return 2 * (2 * kl + ku + 1) <= n; }

void emit_lu_prepare(Emitter *E)
{
    const Model *m = E->m;
    const int n = m->nstate;
    E->lu_loop = false;
    E->lu_perm = NULL;
    if (!method_is_rosenbrock(m->method) || (!m->loop_form && n <= LU_UNROLL_MAX)) return;   /* (a DAE: at most 32, check/dae.c) */
    E->lu_loop = true;
    E->lu_kind = 0;
    int kl, ku;
    bandwidth(E->jac, NULL, &kl, &ku);
    if (band_pays(kl, ku, n)) {
        E->lu_kind = 1, E->lu_kl = kl, E->lu_ku = ku;
        return;
    }
    int *pos = reverse_cuthill_mckee(E->jac, n);
    bandwidth(E->jac, pos, &kl, &ku);
    if (band_pays(kl, ku, n)) {
        E->lu_kind = 1, E->lu_kl = kl, E->lu_ku = ku, E->lu_perm = pos;
        return;
    }
    /* No band: the symbolic factorisation in the states' order and after
     * renumbering; the sparse kind where its factors hold at most half of n². */
    if (n > LU_SPARSE_MAX) return;
    LuPlan a = plan_lu(E->jac, n, NULL), b = plan_lu(E->jac, n, pos);
    const bool renumber = nonzeros(&b) < nonzeros(&a);
    const LuPlan *best = renumber ? &b : &a;
    if (2L * nonzeros(best) <= (long)n * n) {
        E->lu_kind = 2;
        E->lu_perm = renumber ? pos : NULL;
        E->lu_plan = arena_alloc(sizeof(LuPlan));
        *E->lu_plan = *best;
    }
}

void emit_lu_constants(Emitter *E)
{
    Buf *o = E->out;
    const int n = E->m->nstate;
    if (!E->lu_loop) return;
    buf_puts(o, "#define ODE_LU_LOOP 1               /* W factorised in loop form (team_lu.h) */\n");
    if (E->lu_kind == 1) {
        buf_printf(o, "#define ODE_LU_KIND 1               /* band (lu_storage.h): %d x %d for %d x %d dense */\n",
                   2 * E->lu_kl + E->lu_ku + 1, n, n, n);
        buf_printf(o, "#define ODE_LU_KL %d\n#define ODE_LU_KU %d\n#define ODE_LU_PERM %d%s\n", E->lu_kl, E->lu_ku,
                   E->lu_perm != NULL, E->lu_perm ? "               /* states renumbered (reverse Cuthill-McKee) */" : "");
    } else if (E->lu_kind == 2) {
        buf_printf(o, "#define ODE_LU_KIND 2               /* sparse (lu_storage.h): %d entries with the fill-in, of %d */\n",
                   nonzeros(E->lu_plan), n * n);
        buf_printf(o, "#define ODE_LU_PERM %d\n", E->lu_perm != NULL);
    } else {
        buf_puts(o, "#define ODE_LU_KIND 0               /* dense (lu_storage.h): J has no band to use */\n");
    }
}

/* The states' places in W: in constant memory on the GPU, and on the host. */
static void emit_perm(Emitter *E)
{
    Buf *o = E->out;
    const int n = E->m->nstate;
    for (int copy = 0; copy < 2; copy++) {
        buf_printf(o, copy ? "#endif\nstatic const int ode_lu_perm_host[%d] = {" : "#ifdef __CUDACC__\n__constant__ int ode_lu_perm_device[%d] = {", n);
        for (int i = 0; i < n; i++) buf_printf(o, "%s%d", i ? (i % 16 ? ", " : ",\n    ") : "", E->lu_perm[i]);
        buf_puts(o, "};\n");
    }
    buf_puts(o, "#ifdef __CUDA_ARCH__\n#define ode_lu_perm ode_lu_perm_device\n#else\n#define ode_lu_perm ode_lu_perm_host\n#endif\n\n");
}

/* ------------------------------------------------------------------ loop form: the sparse kind's tables */

/* An int table for the device (constant memory while the tables fit, else
 * global) and the host, and the name that picks the right copy. */
typedef struct IntTable {
    int *v;
    int n, cap;
} IntTable;

static void tab_add(IntTable *t, int x)
{
    if (t->n == t->cap) {
        int *grown = arena_alloc(sizeof(int) * (size_t)(t->cap ? 2 * t->cap : 64));
        if (t->n) memcpy(grown, t->v, sizeof(int) * (size_t)t->n);
        t->v = grown;
        t->cap = t->cap ? 2 * t->cap : 64;
    }
    t->v[t->n++] = x;
}

static void emit_table(Emitter *E, const char *name, const IntTable *t, const char *space, const char *what)
{
    Buf *o = E->out;
    buf_printf(o, "/* %s */\n", what);
    for (int copy = 0; copy < 2; copy++) {
        if (copy) buf_printf(o, "#endif\nstatic const int %s_host[%d] = {", name, t->n ? t->n : 1);
        else buf_printf(o, "#ifdef __CUDACC__\n%s const int %s_device[%d] = {", space, name, t->n ? t->n : 1);
        for (int i = 0; i < t->n; i++) buf_printf(o, "%s%d", i ? (i % 16 ? ", " : ",\n    ") : "", t->v[i]);
        buf_puts(o, t->n ? "};\n" : "0};\n");
    }
    buf_printf(o, "#ifdef __CUDA_ARCH__\n#define %s %s_device\n#else\n#define %s %s_host\n#endif\n", name, name, name, name);
}

/* The symbolic factorisation as tables of positions in the factors' entries
 * (numbered row by row): what templates/team_lu.h's sparse kind runs. */
static void emit_sparse(Emitter *E)
{
    const LuPlan *p = E->lu_plan;
    const int n = p->n;
    const int *perm = E->lu_perm;
    int *at_pos = arena_alloc(sizeof(int) * (size_t)n * (size_t)n), count = 0;
    for (int i = 0; i < n * n; i++) at_pos[i] = p->nz[i] ? count++ : -1;
#define P(i, j) at_pos[(i) * n + (j)]
    IntTable pos = {0}, diag = {0}, cs = {0}, crow = {0}, cpos = {0}, ss = {0}, swap = {0}, us = {0}, upd = {0};
    IntTable ls = {0}, low = {0}, hs = {0}, high = {0};
    for (int e = 0; e < E->jac->nJ; e++) {
        const int i = perm ? perm[E->jac->J[e].row] : E->jac->J[e].row, j = perm ? perm[E->jac->J[e].col] : E->jac->J[e].col;
        tab_add(&pos, P(i, j));
    }
    for (int i = 0; i < n; i++) tab_add(&diag, P(i, i));
    for (int k = 0; k < n; k++) {
        const LuColumn *c = &p->col[k];
        tab_add(&cs, crow.n);
        tab_add(&ss, swap.n);
        tab_add(&us, upd.n);
        for (int q = 0; q < c->ncand; q++) {
            tab_add(&crow, c->cand[q]);
            tab_add(&cpos, P(c->cand[q], k));
        }
        if (c->ncand > 1)
            for (int j = 0; j < n; j++)
                if (c->swap[j] && j != k)
                    for (int q = 0; q < c->ncand; q++) tab_add(&swap, P(c->cand[q], j));
        for (int j = k + 1; j < n; j++)
            if (c->row[j])
                for (int q = 0; q < c->ncand; q++) tab_add(&upd, P(c->cand[q], j));
    }
    tab_add(&cs, crow.n);
    tab_add(&ss, swap.n);
    tab_add(&us, upd.n);
    for (int i = 0; i < n; i++) {
        tab_add(&ls, low.n);
        tab_add(&hs, high.n);
        for (int j = 0; j < i; j++)
            if (p->nz[i * n + j]) tab_add(&low, P(i, j)), tab_add(&low, j);
        for (int j = i + 1; j < n; j++)
            if (p->nz[i * n + j]) tab_add(&high, P(i, j)), tab_add(&high, j);
    }
    tab_add(&ls, low.n);
    tab_add(&hs, high.n);
#undef P
    const long ints = pos.n + diag.n + cs.n + crow.n + cpos.n + ss.n + swap.n + us.n + upd.n + ls.n + low.n + hs.n + high.n;
    const char *space = ints * 4 <= 32 * 1024 ? "__constant__" : "__device__";
    buf_printf(E->out, "#define ODE_LU_NNZ %d                /* entries of the factors, fill-in included */\n", count);
    emit_table(E, "ode_lu_pos", &pos, space, "J's entry e: its place among the factors' entries");
    emit_table(E, "ode_lu_diag", &diag, space, "the diagonal's places");
    emit_table(E, "ode_lu_cand_start", &cs, space, "column k's pivot candidates: rows (k first) and the places of their entries in column k");
    emit_table(E, "ode_lu_cand_row", &crow, space, "(the candidates' rows)");
    emit_table(E, "ode_lu_cand_pos", &cpos, space, "(their entries' places)");
    emit_table(E, "ode_lu_swap_start", &ss, space,
               "column k's exchange: for each column the candidates share, the places of its entries in every candidate row");
    emit_table(E, "ode_lu_swap", &swap, space, "(the places, a candidate count per column)");
    emit_table(E, "ode_lu_upd_start", &us, space,
               "column k's elimination: for each column of row k's pattern, its place in row k, then in every other candidate");
    emit_table(E, "ode_lu_upd", &upd, space, "(the places)");
    emit_table(E, "ode_lu_low_start", &ls, space, "the solves: L's entries of each row, (place, column) pairs");
    emit_table(E, "ode_lu_low", &low, space, "(the pairs)");
    emit_table(E, "ode_lu_up_start", &hs, space, "U's entries right of the diagonal of each row, (place, column) pairs");
    emit_table(E, "ode_lu_up", &high, space, "(the pairs)");
    buf_puts(E->out, "\n");
}

void emit_lu(Emitter *E)
{
    const Model *m = E->m;
    int n = m->nstate;
    if (E->lu_loop) {
        int kl = E->lu_kl, ku = E->lu_ku;
        const long band = (long)n * kl * (kl + ku), dense = (long)n * n * n / 3;
        const long work = E->lu_kind == 1 ? band : E->lu_kind == 2 ? E->lu_plan->mults : dense;
        buf_printf(E->out, "/* ---- %s's linear algebra: W = I/(h gamma) - J, %d x %d, %d entries of J can be non-zero;\n"
                           " * factorised in loop form (templates/team_lu.h) over %s storage%s: multiplications %ld (dense %ld) ---- */\n",
                   method_name(m->method), n, n, E->jac->nJ,
                   E->lu_kind == 1 ? "band" : E->lu_kind == 2 ? "sparse" : "dense",
                   E->lu_kind == 2 ? arena_printf(" (%d entries with the fill-in)", nonzeros(E->lu_plan)) : "", work, dense);
        if (E->lu_perm) emit_perm(E);
        if (E->lu_kind == 2) emit_sparse(E);
        return;
    }
    LuPlan p = plan_lu(E->jac, n, NULL);
    long dense = 0;
    for (int k = 0; k < n; k++) dense += (long)(n - k - 1) * (n - k);
    buf_printf(E->out,
               "/* ---- %s's linear algebra: %s, %d x %d, %d entries can be non-zero\n"
               " * (J: %d, with the diagonal and the fill-in of partial pivoting: %d); multiplications:\n"
               " * factorisation %ld (dense: %ld), each solve %ld (dense: %d) ---- */\n",
               method_is_rosenbrock(m->method) ? method_name(m->method) : "Newton (the constraints 0=...)",
               !method_is_rosenbrock(m->method) ? "[I 0; 0 dg/dz] (templates/dae.h)"
                   : m->nalg ? "W = M/(h gamma) - J, M = diag(I, 0)" : "W = I/(h gamma) - J",
               n, n, nonzeros(&p), E->jac->nJ, nonzeros(&p), p.mults, dense,
               p.solve_mults, n * n);
    emit_getrf(E, &p);
    emit_getrs(E, &p);
}
