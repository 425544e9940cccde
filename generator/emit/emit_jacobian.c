/* emit_jacobian.c — the model's derivatives as C functions of the generated
 * model section (README, "Derivatives in the generated code").
 *
 * Each function evaluates its outputs from the expression graph: nodes used
 * twice (and the model's temporaries and their derivatives) are computed once
 * into locals ode_x0, ode_x1, … before the first output that reads them; each
 * output carries a comment naming what it differentiates and its .ode line,
 * and a #line directive back to that line.  Matrices are written whole (the
 * structural zeros too) into arrays whose indices are all compile-time
 * constants: inlined into a kernel, they stay in registers.
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/builtins.h"
#include "emit/emitter.h"
#include "emit/escape.h"
#include "check/method.h"
#include "deriv/expr_cse.h"
#include "deriv/jacobian.h"

/* C precedence levels, loosest first (as emit_expr.c's). */
enum { P_TERNARY = 1, P_OR, P_AND, P_EQ, P_REL, P_ADD, P_MUL, P_UNARY, P_PRIMARY };

/* Where a function reads the states and t. */
typedef enum { AT_STAGE, AT_SYSTEM } Where;

typedef GraphOut Out;   /* (emitter.h) */

typedef struct Writer {
    Emitter *E;
    XCse cse;
    const char *pad;      /* indentation of the statements */
} Writer;

static void value(Writer *w, const XNode *n, int prec);

static void open_paren(Writer *w, int mine, int ctx)
{
    if (mine < ctx) buf_puts(w->E->out, "(");
}

static void close_paren(Writer *w, int mine, int ctx)
{
    if (mine < ctx) buf_puts(w->E->out, ")");
}

static const char *var_c(const Model *m, const XVar *v)
{
    static const char *const purpose[SITE_NKINDS] = {"ODE_RNG_STEP", "ODE_RNG_AUX", "ODE_RNG_BLOCK", "ODE_RNG_ACC",
                                                     "ODE_RNG_TABLE"};
    switch (v->kind) {
    case XV_WIENER: return arena_printf("ode_s->w[%d]", v->index);
    case XV_RANDOM: {   /* (emit_expr.c's reading of ran() and normal()) */
        const int kind = v->index >> 20, site = v->index & 0xFFFFF;
        if (kind == SITE_STEP) return arena_printf("ode_s->xi[%d]", site);
        return arena_printf("ode_noise_%s(ode_s, %s, %d)", m->sites[kind][site].normal ? "normal" : "uniform",
                            purpose[kind], site);
    }
    case XV_DW: return arena_printf("ode_dw[%d]", v->index);
    case XV_STEP: return "ode_h";
    case XV_TIME: return "t";
    case XV_WINDOW: return v->index ? "t1" : "t0";
    case XV_COUNT: return "count";
    case XV_TRIG: return arena_printf("ode_tr->%c[%d]", v->cos ? 'c' : 's', v->index);
    case XV_NUMBER: return v->index < 0 ? "pi" : v->sym->cname;
    default: return v->sym->cname;
    }
}

static int truth_prec(XOp op)
{
    switch (op) {
    case X_LT: case X_GT: case X_LE: case X_GE: return P_REL;
    case X_EQ: case X_NE: return P_EQ;
    case X_AND: return P_AND;
    case X_OR: return P_OR;
    default: return P_UNARY;
    }
}

/* A node as a C condition (int). */
static void cond(Writer *w, const XNode *n, int prec)
{
    Buf *o = w->E->out;
    int k = w->cse.name[n->id];
    if (k && xg_is_truth(n)) {
        buf_printf(o, "ode_x%d", k - 1);
        return;
    }
    if (!xg_is_truth(n) || k) {
        open_paren(w, P_EQ, prec);
        value(w, n, P_EQ + 1);
        buf_printf(o, " != %s", c_literal(0.0, w->E->single));
        close_paren(w, P_EQ, prec);
        return;
    }
    int mine = truth_prec(n->op);
    open_paren(w, mine, prec);
    if (n->op == X_NOT) {
        buf_puts(o, "!");
        cond(w, n->a, P_UNARY);
    } else if (n->op == X_AND || n->op == X_OR) {
        /* && inside || in parentheses (-Wparentheses) */
        bool is_or = n->op == X_OR;
        cond(w, n->a, is_or && n->a->op == X_AND ? P_AND + 1 : mine);
        buf_puts(o, is_or ? " || " : " && ");
        cond(w, n->b, is_or && n->b->op == X_AND ? P_AND + 1 : mine + 1);
    } else {
        value(w, n->a, mine);
        buf_printf(o, " %s ", xop_info[n->op].name);
        value(w, n->b, mine + 1);
    }
    close_paren(w, mine, prec);
}

static bool simple(const Writer *w, const XNode *n) { return xg_is_leaf(n) || w->cse.name[n->id]; }

static void power(Writer *w, const XNode *n, int prec)
{
    Buf *o = w->E->out;
    int k = n->k, a = k < 0 ? -k : k, outer = prec;
    if (k < 0) {   /* 1 / x^a */
        open_paren(w, P_MUL, outer);
        buf_printf(o, "%s / ", c_literal(1.0, w->E->single));
        prec = P_UNARY;
    }
    if (a <= 3 && simple(w, n->a)) {   /* x*x, x*x*x of a name: products */
        open_paren(w, P_MUL, prec);
        for (int i = 0; i < a; i++) {
            if (i) buf_puts(o, " * ");
            value(w, n->a, P_UNARY);
        }
        close_paren(w, P_MUL, prec);
    } else {
        buf_printf(o, "ode_pow%d(", a);
        value(w, n->a, 0);
        buf_puts(o, ")");
    }
    if (k < 0) close_paren(w, P_MUL, outer);
}

static void call(Writer *w, const XNode *n)
{
    if (n->op == X_TABLE || n->op == X_TABLE_SLOPE) {   /* emit_tables.c's lookup and slope */
        buf_printf(w->E->out, "ode_table%d%s(", n->k, n->op == X_TABLE ? "" : "_slope");
        value(w, n->a, 0);
        buf_puts(w->E->out, ")");
        return;
    }
    if (n->op == X_DELAY || n->op == X_DELAY_SLOPE) {   /* templates/delay.h: the past, and its slope */
        buf_printf(w->E->out, "ode_delay%s(ode_s, %d, %d, ", n->op == X_DELAY ? "" : "_slope", (int)n->value, n->k);
        value(w, n->b, 0);
        buf_puts(w->E->out, ", ");
        value(w, n->a, 0);
        if (n->c) {
            buf_puts(w->E->out, ", ");
            value(w, n->c, 0);
        }
        buf_puts(w->E->out, ")");
        return;
    }
    const Builtin *b = builtin_find(xop_info[n->op].builtin);
    buf_printf(w->E->out, "%s(", w->E->single ? b->c_float : b->c_double);
    value(w, n->a, 0);
    if (n->b) {
        buf_puts(w->E->out, ", ");
        value(w, n->b, 0);
    }
    buf_puts(w->E->out, ")");
}

static void arith(Writer *w, const XNode *n, int prec)
{
    int mine = n->op == X_ADD || n->op == X_SUB ? P_ADD : P_MUL;
    open_paren(w, mine, prec);
    value(w, n->a, mine);
    buf_printf(w->E->out, " %s ", xop_info[n->op].name);
    value(w, n->b, mine + 1);
    close_paren(w, mine, prec);
}

/* A node as a C value (ode_real). */
static void value(Writer *w, const XNode *n, int prec)
{
    Buf *o = w->E->out;
    int k = w->cse.name[n->id];
    if (k) {
        if (xg_is_truth(n)) buf_printf(o, "ODE_BOOL(ode_x%d)", k - 1);
        else buf_printf(o, "ode_x%d", k - 1);
        return;
    }
    switch (n->op) {
    case X_CONST:
        if (n->value < 0) {
            open_paren(w, P_UNARY, prec);
            buf_printf(o, "-%s", c_literal(-n->value, w->E->single));
            close_paren(w, P_UNARY, prec);
        } else {
            buf_puts(o, c_literal(n->value, w->E->single));
        }
        return;
    case X_VAR: buf_puts(o, var_c(w->E->m, n->var)); return;
    case X_NEG:
        open_paren(w, P_UNARY, prec);
        buf_puts(o, "-");
        value(w, n->a, P_UNARY + 1);
        close_paren(w, P_UNARY, prec);
        return;
    case X_ADD: case X_SUB: case X_MUL: case X_DIV: arith(w, n, prec); return;
    case X_POWI: power(w, n, prec); return;
    case X_POW:
        buf_puts(o, w->E->single ? "powf(" : "pow(");
        value(w, n->a, 0);
        buf_puts(o, ", ");
        value(w, n->b, 0);
        buf_puts(o, ")");
        return;
    case X_SELECT:
        buf_puts(o, "(");
        cond(w, n->a, P_TERNARY + 1);
        buf_puts(o, " ? ");
        value(w, n->b, P_TERNARY + 1);
        buf_puts(o, " : ");
        value(w, n->c, P_TERNARY);
        buf_puts(o, ")");
        return;
    default:
        if (xg_is_truth(n)) {
            buf_puts(o, "ODE_BOOL(");
            cond(w, n, 0);
            buf_puts(o, ")");
        } else {
            call(w, n);
        }
        return;
    }
}

/* ------------------------------------------------------------------ one function body */

static int var_rank(const XVar *v)
{
    static const int rank[] = {[XV_NUMBER] = 0, [XV_PARAM] = 1, [XV_DERIVED] = 2, [XV_STATE] = 3,
                               [XV_ACC] = 4, [XV_TIME] = 5, [XV_WINDOW] = 6, [XV_COUNT] = 7, [XV_TRIG] = 8,
                               [XV_WIENER] = 9, [XV_RANDOM] = 10, [XV_DW] = 11, [XV_STEP] = 12};
    return rank[v->kind];
}

/* By kind (numbers, parameters, derived, states, …), then index; ties (sin
 * and cos of one slot, which declare nothing) by creation. */
static int compare_vars(const void *pa, const void *pb)
{
    const XVar *a = *(const XVar *const *)pa, *b = *(const XVar *const *)pb;
    if (var_rank(a) != var_rank(b)) return var_rank(a) - var_rank(b);
    if (a->index != b->index) return a->index < b->index ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

/* Locals for the variables the outputs read, in a fixed order. */
static void declare_vars(Writer *w, Where where)
{
    const XCse *c = &w->cse;
    Buf *o = w->E->out;
    const XVar **vars = arena_alloc(sizeof(XVar *) * (size_t)(c->nreached + 1));
    int n = 0;
    for (int i = 0; i < c->nreached; i++)
        if (c->reached_list[i]->op == X_VAR) vars[n++] = c->reached_list[i]->var;
    if (n > 1) qsort(vars, (size_t)n, sizeof *vars, compare_vars);
    for (int i = 0; i < n; i++) {
        const XVar *v = vars[i];
        const char *from = NULL;
        switch (v->kind) {
        case XV_NUMBER:
            buf_printf(o, "%sconst ode_real %s = %s;\n", w->pad, var_c(w->E->m, v), c_literal(v->sym->value, w->E->single));
            continue;
        case XV_PARAM: from = arena_printf("ode_s->p[%d]", v->index); break;
        case XV_DERIVED: from = arena_printf("ode_s->d[%d]", v->index); break;
        case XV_STATE: from = arena_printf(where == AT_STAGE ? "ode_y[%d]" : "ode_s->y[%d]", v->index); break;
        case XV_ACC: from = arena_printf("ode_s->acc[%d]", v->index); break;
        case XV_TIME: from = where == AT_SYSTEM ? "ode_s->t" : NULL; break;
        case XV_WINDOW: from = v->index ? "ode_s->t1" : "ode_s->t0"; break;
        case XV_COUNT: from = arena_printf("(ode_real)ode_s->count[%d]", v->index); break;
        case XV_TRIG: case XV_WIENER: case XV_RANDOM: case XV_DW: case XV_STEP: break;   /* read where used */
        }
        if (from) buf_printf(o, "%sconst ode_real %s = %s;\n", w->pad, var_c(w->E->m, v), from);
    }
}

static void at_line(Writer *w, int line)
{
    if (line > 0) to_user_line(w->E, line);
    else to_generated(w->E);
}

/* Locals, the named nodes, and the outputs, each where it is first needed. */
static void emit_outputs(Emitter *E, const Jacobian *J, const Out *outs, int nouts, Where where, const char *pad)
{
    emit_graph_outputs(E, J->g, (const GraphOut *)outs, nouts, where == AT_SYSTEM, pad);
}

void emit_graph_outputs(Emitter *E, XGraph *g, const GraphOut *gouts, int nouts, bool at_system, const char *pad)
{
    const Out *outs = (const Out *)gouts;
    const Where where = at_system ? AT_SYSTEM : AT_STAGE;
    Writer w = {E, {0}, pad};
    XNode **exprs = arena_alloc(sizeof(XNode *) * (size_t)(nouts + 1));
    for (int i = 0; i < nouts; i++) exprs[i] = outs[i].expr;
    cse_run(&w.cse, g, exprs, nouts, CSE_SHARED | CSE_LABELS);
    declare_vars(&w, where);
    Buf *o = E->out;
    for (int i = 0; i < nouts; i++) {
        for (int k = w.cse.first[i]; k < w.cse.first[i + 1]; k++) {
            const XNode *n = w.cse.order[k];
            at_line(&w, n->loc.line);
            buf_printf(o, "%sconst %s ode_x%d = ", pad, xg_is_truth(n) ? "int" : "ode_real", k);
            w.cse.name[n->id] = 0;   /* its own definition is written out */
            if (xg_is_truth(n)) cond(&w, n, 0);
            else value(&w, n, 0);
            w.cse.name[n->id] = k + 1;
            buf_puts(o, n->label ? arena_printf(";   /* %s */\n", n->label) : ";\n");
        }
        to_generated(E);
        if (outs[i].what)
            buf_printf(o, "%s/* %s%s */\n", pad, outs[i].what,
                       outs[i].line > 0 ? arena_printf("  (%s:%d)", E->path_comment, outs[i].line) : "");
        at_line(&w, outs[i].line);
        buf_printf(o, "%s%s%s = ", pad, outs[i].guard ? arena_printf("if (%s) ", outs[i].guard) : "", outs[i].lhs);
        value(&w, outs[i].expr, 0);
        buf_puts(o, ";\n");
    }
    to_generated(E);
}

/* ------------------------------------------------------------------ the functions */

static const char *state_name(const Model *m, int i) { return m->states[i]->name; }

static Out *rhs_jac_outputs(const Jacobian *J, bool with_f, int *n)
{
    const Model *m = J->m;
    Out *outs = arena_alloc(sizeof(Out) * (size_t)(m->nstate + J->nJ + 1));
    int k = 0;
    for (int i = 0; with_f && i < m->nstate; i++)
        outs[k++] = (Out){arena_printf("ode_dy[%d]", i), J->f[i], arena_printf("%s'", state_name(m, i)),
                          m->states[i]->expr_line.line, NULL};
    for (int e = 0; e < J->nJ; e++) {
        const JacEntry *x = &J->J[e];
        outs[k++] = (Out){arena_printf("ode_J[%d]", x->row * m->nstate + x->col), x->d,
                          arena_printf("d(%s')/d(%s)", state_name(m, x->row), state_name(m, x->col)),
                          m->states[x->row]->expr_line.line, NULL};
    }
    *n = k;
    return outs;
}

static void zero_fill(Emitter *E, const char *array, const char *size, bool needed)
{
    if (needed)
        buf_printf(E->out, "    ODE_UNROLL for (int ode_i = 0; ode_i < %s; ode_i++) %s[ode_i] = %s;\n", size, array,
                   c_literal(0.0, E->single));
}

static void emit_sparsity(Emitter *E, const Jacobian *J)
{
    const Model *m = J->m;
    Buf *o = E->out;
    buf_printf(o, "#define ODE_JAC_NNZ %d              /* non-zero entries of df/dy, of %d */\n", J->nJ,
               m->nstate * m->nstate);
    buf_printf(o, "#define ODE_AUTONOMOUS %d           /* df/dt is 0 */\n", J->autonomous);
    buf_puts(o, "/* Whether J[i][j] can be non-zero: a compile-time constant once i and j are. */\n"
                "ODE_HD static ODE_INLINE int ode_jac_nz(int ode_i, int ode_j)\n{\n");
    if (!J->nJ || J->nJ == m->nstate * m->nstate) {
        buf_printf(o, "    (void)ode_i;\n    (void)ode_j;\n    return %d;\n}\n\n", J->nJ ? 1 : 0);
        return;
    }
    buf_puts(o, "    switch (ode_i * ODE_NSTATE + ode_j) {\n   ");
    for (int e = 0; e < J->nJ; e++)
        buf_printf(o, "%s case %d:", e && e % 8 == 0 ? "\n   " : "", J->J[e].row * m->nstate + J->J[e].col);
    buf_puts(o, " return 1;\n    default: return 0;\n    }\n}\n\n");
}

static const char *stage_args =
    "const OdeSystem *ode_s, ode_real t, const ode_real *ode_y";

static void emit_switches(Emitter *E, const Jacobian *J)
{
    Buf *o = E->out;
    buf_printf(o, "#define ODE_NSWITCH %d              /* switching functions of f's piecewise constructs */\n",
               J->nswitch);
    buf_puts(o, "/* Where one of these changes sign, a piecewise construct of f switches (and J with it):\n"
                " * ode_sw[k] at (t, ode_y).  For tests and diagnostics. */\n");
    /* sin/cos of time computed here: the callers have no OdeTrig at hand */
    buf_printf(o, "ODE_HD static ODE_INLINE void ode_model_switches(%s, ode_real *ode_sw)\n{\n"
                  "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_sw;\n"
                  "    OdeTrig ode_trig_here;\n    ode_model_trig_full(ode_s, t, &ode_trig_here);\n"
                  "    const OdeTrig *ode_tr = &ode_trig_here;\n    (void)ode_tr;\n", stage_args);
    Out *outs = arena_alloc(sizeof(Out) * (size_t)(J->nswitch + 1));
    for (int k = 0; k < J->nswitch; k++) {
        const XNode *p = J->switches[k].piece;
        outs[k] = (Out){arena_printf("ode_sw[%d]", k), J->switches[k].g,
                        arena_printf("%s at column %d", p->op == X_SELECT ? "if" : xop_info[p->op].name, p->loc.col),
                        p->loc.line, NULL};
    }
    emit_outputs(E, J, outs, J->nswitch, AT_STAGE, "    ");
    buf_puts(o, "}\n\n");
}

static void emit_rhs_derivatives(Emitter *E, const Jacobian *J)
{
    const Model *m = J->m;
    Buf *o = E->out;
    int n = m->nstate, nouts;
    const char *nn = "ODE_NSTATE * ODE_NSTATE";
    emit_sparsity(E, J);

    buf_puts(o, "/* J = df/dy at (t, ode_y), row-major: ode_J[i * ODE_NSTATE + j], every entry written.\n"
                " * ode_tr as for ode_model_rhs. */\n");
    buf_printf(o, "ODE_HD static ODE_INLINE void ode_model_jac(%s, ode_real *ode_J,\n"
                  "                                            const OdeTrig *ode_tr)\n{\n"
                  "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n", stage_args);
    zero_fill(E, "ode_J", nn, J->nJ < n * n);
    Out *outs = rhs_jac_outputs(J, false, &nouts);
    emit_outputs(E, J, outs, nouts, AT_STAGE, "    ");
    buf_puts(o, "}\n\n");

    buf_puts(o, "/* f and J together, sharing their subexpressions (as ode_model_rhs and ode_model_jac). */\n");
    buf_printf(o, "ODE_HD static ODE_INLINE void ode_model_rhs_jac(%s, ode_real *ode_dy,\n"
                  "                                                ode_real *ode_J, const OdeTrig *ode_tr)\n{\n"
                  "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n", stage_args);
    zero_fill(E, "ode_J", nn, J->nJ < n * n);
    outs = rhs_jac_outputs(J, true, &nouts);
    emit_outputs(E, J, outs, nouts, AT_STAGE, "    ");
    buf_puts(o, "}\n\n");

    buf_puts(o, "/* ode_Jv = J ode_v over the non-zero entries of J (a tangent vector's derivative). */\n"
                "ODE_HD static ODE_INLINE void ode_model_jac_mul(const ode_real *ode_J, const ode_real *ode_v,\n"
                "                                                ode_real *ode_Jv)\n{\n"
                "    (void)ode_J;\n    (void)ode_v;\n");
    for (int i = 0, e = 0; i < n; i++) {
        buf_printf(o, "    ode_Jv[%d] = ", i);
        bool any = false;
        for (; e < J->nJ && J->J[e].row == i; e++, any = true)
            buf_printf(o, "%sode_J[%d] * ode_v[%d]", any ? " + " : "", i * n + J->J[e].col, J->J[e].col);
        buf_printf(o, "%s;\n", any ? "" : c_literal(0.0, E->single));
    }
    buf_puts(o, "}\n\n");

    buf_puts(o, "/* df/dt at (t, ode_y): ode_ft[i].  ode_tr filled by ode_model_trig_full (sin and cos). */\n");
    buf_printf(o, "ODE_HD static ODE_INLINE void ode_model_dfdt(%s, ode_real *ode_ft,\n"
                  "                                             const OdeTrig *ode_tr)\n{\n"
                  "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n", stage_args);
    outs = arena_alloc(sizeof(Out) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        outs[i] = (Out){arena_printf("ode_ft[%d]", i), J->dfdt[i],
                        xg_is_const(J->dfdt[i], 0) ? NULL : arena_printf("d(%s')/dt", state_name(m, i)),
                        xg_is_const(J->dfdt[i], 0) ? 0 : m->states[i]->expr_line.line, NULL};
    emit_outputs(E, J, outs, n, AT_STAGE, "    ");
    buf_puts(o, "}\n\n");

    buf_printf(o, "#define ODE_DFDP_NNZ %d             /* non-zero entries of df/dp, of %d */\n", J->nP,
               n * m->nparam);
    buf_puts(o, "/* df/dp at (t, ode_y), row-major: ode_fp[i * ODE_NPARAM + k] (through derived parameters).\n"
                " * ode_tr filled by ode_model_trig_full. */\n");
    buf_printf(o, "ODE_HD static ODE_INLINE void ode_model_dfdp(%s, ode_real *ode_fp,\n"
                  "                                             const OdeTrig *ode_tr)\n{\n"
                  "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_fp;\n    (void)ode_tr;\n", stage_args);
    zero_fill(E, "ode_fp", "ODE_NSTATE * ODE_NPARAM", J->nP < n * m->nparam);
    outs = arena_alloc(sizeof(Out) * (size_t)(J->nP + 1));
    for (int e = 0; e < J->nP; e++) {
        const JacEntry *x = &J->P[e];
        outs[e] = (Out){arena_printf("ode_fp[%d]", x->row * m->nparam + x->col), x->d,
                        arena_printf("d(%s')/d(%s)", state_name(m, x->row), m->params[x->col]->name),
                        m->states[x->row]->expr_line.line, NULL};
    }
    emit_outputs(E, J, outs, J->nP, AT_STAGE, "    ");
    buf_puts(o, "}\n\n");
    emit_switches(E, J);
}

/* n contains no piecewise construct (seen: by node id, nodes shared; a
 * derived parameter's definition is a constant of the system: not looked into). */
static bool smooth(const XNode *n, bool *seen)
{
    if (!n || seen[n->id]) return true;
    seen[n->id] = true;
    if (xnode_piecewise(n)) return false;
    return smooth(n->a, seen) && smooth(n->b, seen) && smooth(n->c, seen);
}

/* ode_event_smooth(e): event e's function is free of piecewise constructs,
 * so that its slopes at a step's ends bound it over the step (events.h). */
static void emit_event_smooth(Emitter *E, const Jacobian *J)
{
    const Model *m = J->m;
    Buf *o = E->out;
    buf_puts(o, "/* Event ode_e's function holds no piecewise construct (abs, max, heav, if, a table, ...):\n"
                " * the slopes at a step's ends bound it over the step (events.h). */\n"
                "ODE_HD static ODE_INLINE int ode_event_smooth(int ode_e)\n{\n    (void)ode_e;\n");
    bool *is = arena_alloc(sizeof(bool) * (size_t)(m->nevent + 1));
    for (int e = 0; e < m->nevent; e++) {
        bool *seen = arena_alloc(sizeof(bool) * (size_t)(J->g->nnodes + 1));   /* (zeroed) */
        is[e] = smooth(J->ev[e].g, seen);
    }
    for (int e = 0; e < m->nevent;) {   /* ranges of events (a team's lanes ask different ones at once) */
        int last = e;
        while (is[e] && last + 1 < m->nevent && is[last + 1]) last++;
        if (is[e] && last > e)
            buf_printf(o, "    if (ode_e >= %d && ode_e <= %d) return 1;   /* %s … %s */\n", e, last,
                       m->events[e].sym->name, m->events[last].sym->name);
        else if (is[e])
            buf_printf(o, "    if (ode_e == %d) return 1;   /* %s */\n", e, m->events[e].sym->name);
        e = last + 1;
    }
    buf_puts(o, "    return 0;\n}\n\n");
}

/* Event e's gradient's non-zero entries as outputs: dg/dy_j into gy[j] (compact: into
 * gy[c], the c-th non-zero one, its state's index into cols[c]), then dg/dt into gt.
 * Returns their number. */
static int event_grad_outs(const Jacobian *J, int e, const char *gy, bool compact, const char *gt, Out *outs, int *cols)
{
    const Model *m = J->m;
    const Event *ev = &m->events[e];
    const EventGrad *eg = &J->ev[e];
    int k = 0, c = 0;
    for (int j = 0; j < m->nstate; j++)
        if (!xg_is_const(eg->gy[j], 0)) {
            outs[k++] = (Out){arena_printf("%s[%d]", gy, compact ? c : j), eg->gy[j],
                              arena_printf("d(g)/d(%s)", state_name(m, j)), ev->line, NULL};
            if (cols) cols[c] = j;
            c++;
        }
    if (!xg_is_const(eg->gt, 0)) outs[k++] = (Out){gt, eg->gt, "d(g)/dt", ev->line, NULL};
    return k;
}

static void emit_event_grad(Emitter *E, const Jacobian *J)
{
    const Model *m = J->m;
    Buf *o = E->out;
    int n = m->nstate;
    buf_puts(o, "/* Gradient of event ode_e's function at (t, ode_y): ode_gy[j] = dg/dy_j, *ode_gt = dg/dt. */\n");
    buf_printf(o, "ODE_HD static ODE_INLINE void ode_model_event_grad(const OdeSystem *ode_s, int ode_e, ode_real t,\n"
                  "                                                   const ode_real *ode_y, ode_real *ode_gy,\n"
                  "                                                   ode_real *ode_gt)\n{\n"
                  "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n");
    zero_fill(E, "ode_gy", "ODE_NSTATE", true);
    buf_printf(o, "    *ode_gt = %s;\n    switch (ode_e) {\n", c_literal(0.0, E->single));
    for (int e = 0; e < m->nevent; e++) {
        const Event *ev = &m->events[e];
        Out *outs = arena_alloc(sizeof(Out) * (size_t)(n + 2));
        const int k = event_grad_outs(J, e, "ode_gy", false, "*ode_gt", outs, NULL);
        if (!k) continue;
        buf_printf(o, "    case %d: {   /* %s %s  (%s:%d) */\n", e, ev->is_global ? "global" : "event",
                   ev->sym->name, E->path_comment, ev->line);
        emit_outputs(E, J, outs, k, AT_STAGE, "        ");
        buf_puts(o, "    } break;\n");
    }
    buf_puts(o, "    default: break;\n    }\n}\n\n");
}

/* Event e's case of ode_model_event_jvp, its body (into E->out); false when its gradient is zero. */
static bool event_jvp_body(Emitter *E, const Jacobian *J, int e)
{
    const Model *m = J->m;
    Buf *o = E->out;
    const int n = m->nstate;
    Out *outs = arena_alloc(sizeof(Out) * (size_t)(n + 2));
    int *col = arena_alloc(sizeof(int) * (size_t)(n + 1));
    const int k = event_grad_outs(J, e, "ode_gj", true, "ode_gt", outs, col);
    const int ncol = k - !xg_is_const(J->ev[e].gt, 0);
    if (!k) return false;
    buf_printf(o, "        ode_real ode_gt = %s;\n", c_literal(0.0, E->single));
    if (ncol) buf_printf(o, "        ode_real ode_gj[%d];\n", ncol);
    emit_outputs(E, J, outs, k, AT_STAGE, "        ");
    buf_puts(o, "        ode_real ode_acc = ode_gt * ode_vt;\n");
    for (int c = 0; c < ncol; c++) buf_printf(o, "        ode_acc += ode_gj[%d] * ode_v[%d];\n", c, col[c]);
    buf_puts(o, "        return ode_acc;\n");
    return true;
}

/* Event ode_e's derivative along (ode_vt, ode_v): dg/dt ode_vt + sum over j of dg/dy_j ode_v[j], its
 * non-zero terms only, dg/dt's first and then the states' in order — ode_model_event_grad's
 * terms in its order, without a gradient of every state per event: the bound that spares a
 * step the scan (events.h, team_events.h) asks it of every event at every step, and a model
 * of many states and events (a ring of 128 units, an event per unit) would otherwise fill
 * and read n values per event there (a 1 KB stack per lane for MPGOS's ring of 64 units). */
static void emit_event_jvp(Emitter *E, const Jacobian *J)
{
    const Model *m = J->m;
    Buf *o = E->out;
    buf_puts(o, "/* Event ode_e's derivative along (ode_vt, ode_v) at (t, ode_y): dg/dt*ode_vt + sum_j dg/dy_j*ode_v[j],\n"
                " * the non-zero terms in ode_model_event_grad's order. */\n"
                "#define ODE_HAS_EVENT_JVP_ONE 1\n");
    buf_printf(o, "ODE_HD static ODE_INLINE ode_real ode_model_event_jvp(const OdeSystem *ode_s, int ode_e, ode_real t,\n"
                  "                                                    const ode_real *ode_y, const ode_real *ode_v,\n"
                  "                                                    ode_real ode_vt)\n{\n"
                  "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_v;\n    (void)ode_vt;\n");
    /* A team's lanes ask different events at once: the events of an array line, whose cases
     * differ only in their indices, are one body over the index there (emit_runs.c), so
     * that a warp's lanes do not run 32 cases one after another. */
    Runs br = {0};
    if (m->loop_form) {
        char **bodies = arena_alloc(sizeof(char *) * (size_t)(m->nevent + 1));
        int *group = arena_alloc(sizeof(int) * (size_t)(m->nevent + 1));
        for (int e = 0; e < m->nevent; e++) {
            Buf body = {0};
            Buf *saved = E->out;
            E->out = &body;
            const bool any = event_jvp_body(E, J, e);
            E->out = saved;
            buf_puts(&body, "");
            bodies[e] = any ? arena_strdup(body.data) : NULL;
            group[e] = m->events[e].line;
            buf_free(&body);
        }
        br = body_runs(bodies, group, m->nevent);
        for (int e = 0; e < m->nevent; e += br.len[e]) {
            if (br.len[e] < 2) continue;
            const Event *a = &m->events[e], *b = &m->events[e + br.len[e] - 1];
            buf_printf(o, "    if (ode_e >= %d && ode_e < %d) {   /* %s %s … %s  (%s:%d): one body over their index */\n",
                       e, e + br.len[e], a->is_global ? "globals" : "events", a->sym->name, b->sym->name,
                       E->path_comment, a->line);
            buf_printf(o, "        const int ode_p = ode_e - %d;\n", e);
            to_user_line(E, a->line);
            buf_puts(o, br.text[e]);
            to_generated(E);
            buf_puts(o, "    }\n");
        }
    }
    buf_puts(o, "    switch (ode_e) {\n");
    for (int e = 0; e < m->nevent; e += br.len ? br.len[e] : 1) {
        if (br.len && br.len[e] > 1) continue;
        const Event *ev = &m->events[e];
        bool zero = xg_is_const(J->ev[e].gt, 0);
        for (int j = 0; j < m->nstate && zero; j++) zero = xg_is_const(J->ev[e].gy[j], 0);
        if (zero) continue;
        buf_printf(o, "    case %d: {   /* %s %s  (%s:%d) */\n", e, ev->is_global ? "global" : "event",
                   ev->sym->name, E->path_comment, ev->line);
        event_jvp_body(E, J, e);
        buf_puts(o, "    }\n");
    }
    buf_printf(o, "    default: return %s * ode_vt;   /* (a gradient of zeros) */\n    }\n}\n\n", c_literal(0.0, E->single));
}

/* The Jacobian of one block's map of the states, into ode_R (and ode_Rt). */
static void emit_reset_body(Emitter *E, const Jacobian *J, const ResetJac *r, bool with_t, const char *pad)
{
    const Model *m = J->m;
    int n = m->nstate;
    Out *outs = arena_alloc(sizeof(Out) * (size_t)(r->nR + n + 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        if (r->post[i] == xg_var(J->g, XV_STATE, i, m->states[i]))
            buf_printf(E->out, "%sode_R[%d] = %s;   /* %s unchanged */\n", pad, i * n + i,
                       c_literal(1.0, E->single), state_name(m, i));
    for (int e = 0; e < r->nR; e++)
        outs[k++] = (Out){arena_printf("ode_R[%d]", r->R[e].row * n + r->R[e].col), r->R[e].d,
                          arena_printf("d(%s+)/d(%s)", state_name(m, r->R[e].row), state_name(m, r->R[e].col)),
                          r->line, NULL};
    for (int i = 0; with_t && i < n; i++)
        if (!xg_is_const(r->Rt[i], 0))
            outs[k++] = (Out){arena_printf("ode_Rt[%d]", i), r->Rt[i], arena_printf("d(%s+)/dt", state_name(m, i)),
                              r->line, NULL};
    emit_outputs(E, J, outs, k, AT_SYSTEM, pad);
}

static void emit_resets(Emitter *E, const Jacobian *J)
{
    const Model *m = J->m;
    Buf *o = E->out;
    const char *nn = "ODE_NSTATE * ODE_NSTATE";
    buf_printf(o, "#define ODE_ON_START_RESETS %d      /* on start assigns states */\n", J->start.resets);
    buf_printf(o, "#define ODE_ON_END_RESETS %d        /* on end assigns states */\n", J->end.resets);
    buf_puts(o, "/* Whether event e's statements assign states (else its saltation matrix is the identity). */\n"
                "ODE_HD static ODE_INLINE int ode_event_resets(int ode_e)\n{\n    switch (ode_e) {\n");
    for (int e = 0; e < m->nevent; e++)
        if (J->on_event[e].resets) buf_printf(o, "    case %d: return 1;   /* %s */\n", e, J->on_event[e].what);
    buf_puts(o, "    default: return 0;\n    }\n}\n\n");
    const ResetJac *hooks[2] = {&J->start, &J->end};
    for (int h = 0; h < 2; h++) {
        const ResetJac *r = hooks[h];
        buf_printf(o, "/* %s: ode_R = d(y+)/d(y) of what the block does to the states, at the system as\n"
                      " * the block finds it (row-major, every entry written). */\n", r->what);
        buf_printf(o, "ODE_HD static ODE_INLINE void ode_model_on_%s_jac(const OdeSystem *ode_s, ode_real *ode_R)\n{\n"
                      "    (void)ode_s;\n", h ? "end" : "start");
        zero_fill(E, "ode_R", nn, true);
        emit_reset_body(E, J, r, false, "    ");
        buf_puts(o, "}\n\n");
    }
    buf_puts(o, "/* Event ode_e's statements (and its `on` blocks): ode_R = d(y+)/d(y) and ode_Rt = d(y+)/dt at\n"
                " * the system as they find it (before ode_model_on_event), for the saltation matrix. */\n");
    buf_puts(o, "ODE_HD static ODE_INLINE void ode_model_on_event_jac(const OdeSystem *ode_s, int ode_e, ode_real *ode_R,\n"
                "                                                     ode_real *ode_Rt)\n{\n    (void)ode_s;\n");
    zero_fill(E, "ode_R", nn, true);
    zero_fill(E, "ode_Rt", "ODE_NSTATE", true);
    buf_puts(o, "    switch (ode_e) {\n");
    for (int e = 0; e < m->nevent; e++) {
        const ResetJac *r = &J->on_event[e];
        if (!r->resets) continue;
        buf_printf(o, "    case %d: {   /* %s  (%s:%d) */\n", e, r->what, E->path_comment, r->line);
        emit_reset_body(E, J, r, true, "        ");
        buf_puts(o, "    } return;\n");
    }
    buf_puts(o, "    default: break;\n    }\n");
    buf_printf(o, "    ODE_UNROLL for (int ode_i = 0; ode_i < ODE_NSTATE; ode_i++) ode_R[ode_i * ODE_NSTATE + ode_i] = %s;\n",
               c_literal(1.0, E->single));
    buf_puts(o, "}\n\n");
}

static void not_available(Emitter *E, const JacFailure *f, const char *macro)
{
    buf_printf(E->out, "#define %s 0   /* %s%s */\n", macro,
               f->loc.line > 0 ? arena_printf("%s:%d: ", E->path_comment, f->loc.line) : "", c_comment(f->msg));
}

void emit_jacobian_prepare(Emitter *E)
{
    E->jac = jacobian_build(E->m, &E->trig);
    const XGraph *g = E->jac->g;
    for (int i = 0; i < g->nnodes; i++) {   /* ode_powK helpers that the writer may call */
        const XNode *n = g->nodes[i];
        int a = n->k < 0 ? -n->k : n->k;
        if (n->op == X_POWI && (a > 3 || !xg_is_leaf(n->a))) E->powers |= 1ULL << a;
    }
}

void emit_jacobian(Emitter *E)
{
    const Jacobian *J = E->jac;
    Buf *o = E->out;
    buf_printf(o, "/* ---- derivatives of the model (odegen --print jacobian %s shows them readably) ---- */\n",
               E->path_comment);
    if (J->fail[JAC_RHS].failed) {
        not_available(E, &J->fail[JAC_RHS], "ODE_HAS_JACOBIAN");
    } else {
        JacCosts c = jacobian_costs(J);
        int n = E->m->nstate;
        buf_printf(o, "/* Cost in operations (arithmetic + library calls): f %ld+%ld, J %ld+%ld, f and J together %ld+%ld;\n"
                      " * %d right-hand sides (a finite-difference J) %ld+%ld. */\n",
                   c.f.arith, c.f.calls, c.J.arith, c.J.calls, c.fJ.arith, c.fJ.calls, n, n * c.f.arith,
                   n * c.f.calls);
        buf_puts(o, "#define ODE_HAS_JACOBIAN 1\n");
        emit_rhs_derivatives(E, J);
    }
    if (J->fail[JAC_EVENTS].failed) {
        not_available(E, &J->fail[JAC_EVENTS], "ODE_HAS_EVENT_GRAD");
    } else {
        buf_puts(o, "#define ODE_HAS_EVENT_GRAD 1\n");
        emit_event_grad(E, J);
        emit_event_jvp(E, J);
        emit_event_smooth(E, J);
    }
    if (J->fail[JAC_RESETS].failed) {
        not_available(E, &J->fail[JAC_RESETS], "ODE_HAS_RESET_JAC");
    } else {
        buf_puts(o, "#define ODE_HAS_RESET_JAC 1\n");
        emit_resets(E, J);
    }
}

/* A model in loop form run by a stiff method (templates/team_rosenbrock.h): J
 * entry by entry into the factorisation's storage (lu_storage.h: entry e of
 * the list at ODE_JAC_AT) and df/dt, each output written by one lane of the
 * team (the shared subexpressions computed by every lane). */
void emit_jacobian_team(Emitter *E)
{
    const Jacobian *J = E->jac;
    const Model *m = E->m;
    Buf *o = E->out;
    if (!method_is_rosenbrock(m->method) || J->fail[JAC_RHS].failed) return;
    buf_puts(o, "/* J = df/dy at (t, ode_y) in loop form: entry e (row, col) into the LU's storage,\n"
                " * ODE_JAC_AT(ode_J, e, row, col) (lu_storage.h), by one lane each.  Entries not written are 0. */\n");
    buf_printf(o, "ODE_HD static ODE_INLINE void ode_model_jac_team(%s, ode_real *ode_J,\n"
                  "                                                 const OdeTrig *ode_tr, ode_real *ode_scratch,\n"
                  "                                                 OdeTeam ode_team)\n{\n"
                  "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n    (void)ode_scratch;\n"
                  "    (void)ode_team;\n", stage_args);
    Out *outs = arena_alloc(sizeof(Out) * (size_t)(J->nJ + m->nstate + 1));
    for (int e = 0; e < J->nJ; e++) {
        const JacEntry *x = &J->J[e];
        outs[e] = (Out){arena_printf("ODE_JAC_AT(ode_J, %d, %d, %d)", e, x->row, x->col), x->d,
                        arena_printf("d(%s')/d(%s)", state_name(m, x->row), state_name(m, x->col)),
                        m->states[x->row]->expr_line.line, arena_printf("ODE_TEAM_MINE(%d)", e)};
    }
    emit_outputs(E, J, outs, J->nJ, AT_STAGE, "    ");
    buf_puts(o, "}\n\n");
    buf_puts(o, "/* df/dt at (t, ode_y) in loop form; ode_tr filled by ode_model_trig_full. */\n");
    buf_printf(o, "ODE_HD static ODE_INLINE void ode_model_dfdt_team(%s, ode_real *ode_ft,\n"
                  "                                                  const OdeTrig *ode_tr, ode_real *ode_scratch,\n"
                  "                                                  OdeTeam ode_team)\n{\n"
                  "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n    (void)ode_scratch;\n"
                  "    (void)ode_team;\n", stage_args);
    for (int i = 0; i < m->nstate; i++)
        outs[i] = (Out){arena_printf("ode_ft[%d]", i), J->dfdt[i],
                        xg_is_const(J->dfdt[i], 0) ? NULL : arena_printf("d(%s')/dt", state_name(m, i)),
                        xg_is_const(J->dfdt[i], 0) ? 0 : m->states[i]->expr_line.line, arena_printf("ODE_TEAM_MINE(%d)", i)};
    emit_outputs(E, J, outs, m->nstate, AT_STAGE, "    ");
    buf_puts(o, "}\n\n");
}
