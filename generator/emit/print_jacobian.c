/* print_jacobian.c — `odegen --print jacobian FILE`: the derivatives the
 * generated code computes, written for a reader (README, "Checking the
 * derivatives").
 *
 *   d(y2')/d(y1) = 1 - 3*y1^2                        (duffing.ode:8)
 *
 * One line per non-zero entry, in .ode syntax; the model's temporaries appear
 * by their names, defined (with their derivatives, as d(T)/d(y1)) on lines
 * of their own before the first entry that reads them; other large shared
 * subexpressions are named @1, @2, ….  Then ∂f/∂t, ∂f/∂p, the events'
 * gradients, what each block does to the states and its Jacobian, the
 * places where the Jacobian switches (piecewise constructs), and the cost.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "emit/escape.h"
#include "deriv/expr_cse.h"
#include "deriv/jacobian.h"
#include "emit/print_jacobian.h"

/* Precedence of the printed .ode expressions, loosest first. */
enum { Q_OR = 1, Q_AND, Q_CMP, Q_ADD, Q_MUL, Q_POW, Q_PRIMARY };

enum { COMMENT_COLUMN = 48 };

typedef struct Printer {
    const Jacobian *J;
    FILE *out;
    XCse cse;           /* the section being printed */
    int *defined;       /* by node id: 0, or -1 (printed by its label), or k (printed as @k) */
    int next_at;
    const char *path;   /* the .ode file's, printable on one line (escape.h) */
} Printer;

static void expr(Printer *p, Buf *b, const XNode *n, int prec);

static const char *number(double v, bool single)
{
    char buf[64];
    if (isnan(v)) return "nan";
    if (isinf(v)) return v > 0 ? "inf" : "-inf";
    for (int k = 1; k <= 17; k++) {
        snprintf(buf, sizeof buf, "%.*g", k, v);
        if (single ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v) break;
    }
    char *e = strchr(buf, 'e');
    if (e) {   /* 1e-07 → 1e-7 */
        char *d = e + 1, *s = e + 1;
        if (*s == '+') s++;
        if (*s == '-') *d++ = *s++;
        while (*s == '0' && s[1]) s++;
        memmove(d, s, strlen(s) + 1);
    }
    return arena_strdup(buf);
}

static const char *name_of(const Printer *p, const XNode *n)
{
    int k = p->defined[n->id];
    if (k > 0) return arena_printf("@%d", k);
    if (n->label) return n->label;
    return NULL;
}

/* A defined (or named, in this section) node: its name; else NULL. */
static const char *ref(const Printer *p, const XNode *n)
{
    if (p->defined[n->id] || p->cse.name[n->id]) return name_of(p, n) ? name_of(p, n) : "@?";
    return NULL;
}

static void open_paren(Buf *b, int mine, int ctx)
{
    if (mine < ctx) buf_puts(b, "(");
}

static void close_paren(Buf *b, int mine, int ctx)
{
    if (mine < ctx) buf_puts(b, ")");
}

static void variable(Printer *p, Buf *b, const XVar *v)
{
    if (v->kind == XV_TRIG) {
        buf_printf(b, "%s(", v->cos ? "cos" : "sin");
        expr(p, b, v->arg, 0);
        buf_puts(b, ")");
    } else {
        buf_puts(b, jac_var_name(v));
    }
}

static int binary_prec(XOp op)
{
    switch (op) {
    case X_ADD: case X_SUB: return Q_ADD;
    case X_MUL: case X_DIV: return Q_MUL;
    case X_LT: case X_GT: case X_LE: case X_GE: case X_EQ: case X_NE: return Q_CMP;
    case X_AND: return Q_AND;
    case X_OR: return Q_OR;
    default: return 0;
    }
}

static void expr(Printer *p, Buf *b, const XNode *n, int prec)
{
    const char *name = ref(p, n);
    if (name) {   /* d(T)/d(x) reads as a quotient: (d(T)/d(x))*y */
        bool quotient = strchr(name, '/') != NULL;
        open_paren(b, quotient ? Q_MUL : Q_PRIMARY, prec > Q_ADD ? Q_POW : 0);
        buf_puts(b, name);
        close_paren(b, quotient ? Q_MUL : Q_PRIMARY, prec > Q_ADD ? Q_POW : 0);
        return;
    }
    int mine = binary_prec(n->op);
    switch (n->op) {
    case X_CONST:
        open_paren(b, n->value < 0 ? Q_ADD : Q_PRIMARY, prec);
        buf_puts(b, number(n->value, p->J->g->single));
        close_paren(b, n->value < 0 ? Q_ADD : Q_PRIMARY, prec);
        return;
    case X_VAR: variable(p, b, n->var); return;
    case X_NEG:   /* -a*b is -(a*b): as loose as a sum */
        open_paren(b, Q_ADD, prec);
        buf_puts(b, "-");
        expr(p, b, n->a, Q_MUL);
        close_paren(b, Q_ADD, prec);
        return;
    case X_POWI:
        open_paren(b, Q_POW, prec);
        expr(p, b, n->a, Q_PRIMARY);
        buf_printf(b, n->k < 0 ? "^(%d)" : "^%d", n->k);
        close_paren(b, Q_POW, prec);
        return;
    case X_POW:
        open_paren(b, Q_POW, prec);
        expr(p, b, n->a, Q_PRIMARY);
        buf_puts(b, "^");
        expr(p, b, n->b, Q_PRIMARY);
        close_paren(b, Q_POW, prec);
        return;
    case X_SELECT:
        buf_puts(b, "if(");
        expr(p, b, n->a, 0);
        buf_puts(b, ")then(");
        expr(p, b, n->b, 0);
        buf_puts(b, ")else(");
        expr(p, b, n->c, 0);
        buf_puts(b, ")");
        return;
    case X_NOT:
        buf_puts(b, "not(");
        expr(p, b, n->a, 0);
        buf_puts(b, ")");
        return;
    default:
        if (mine) {
            /* operands of & and | in parentheses: XPPAUT's precedence differs */
            int sub = mine <= Q_AND ? Q_PRIMARY : mine;
            open_paren(b, mine, prec);
            expr(p, b, n->a, sub);
            buf_printf(b, mine == Q_ADD || mine <= Q_CMP ? " %s " : "%s", xop_info[n->op].name);
            expr(p, b, n->b, mine <= Q_AND ? Q_PRIMARY : mine + 1);
            close_paren(b, mine, prec);
            return;
        }
        if (n->op == X_DELAY || n->op == X_DELAY_SLOPE) {   /* delay(x, tau), and delay'(x, tau): x's slope at t - tau */
            buf_printf(b, "%s(%s, ", xop_info[n->op].name, p->J->m->delayed[(int)n->value]->name);
            expr(p, b, n->a, 0);
            buf_puts(b, ")");
            return;
        }
        if (n->op == X_TABLE || n->op == X_TABLE_SLOPE)   /* f(x), and f'(x) the slope of its segment */
            buf_printf(b, "%s%s(", n->tab->sym->name, n->op == X_TABLE ? "" : "'");
        else
            buf_printf(b, "%s(", xop_info[n->op].name);
        expr(p, b, n->a, 0);
        if (n->b) {
            buf_puts(b, ", ");
            expr(p, b, n->b, 0);
        }
        buf_puts(b, ")");
        return;
    }
}

static const char *text(Printer *p, const XNode *n)
{
    Buf b = {0};
    expr(p, &b, n, 0);
    char *s = arena_strdup(b.len ? b.data : "");
    buf_free(&b);
    return s;
}

/* `lhs = rhs`, the place in a column of its own. */
static void line(Printer *p, const char *lhs, const char *rhs, int at)
{
    char *s = arena_printf("%s = %s", lhs, rhs);
    if (at > 0) fprintf(p->out, "%-*s  (%s:%d)\n", COMMENT_COLUMN - 2, s, p->path, at);
    else fprintf(p->out, "%s\n", s);
}

/* One section: the outputs, each after the names it is the first to read. */
typedef struct Out {
    const char *lhs;
    XNode *expr;
    int line;
} Out;

static void section(Printer *p, const Out *outs, int n)
{
    XNode **exprs = arena_alloc(sizeof(XNode *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) exprs[i] = outs[i].expr;
    cse_run(&p->cse, p->J->g, exprs, n, CSE_LABELS);
    for (int i = 0; i < n; i++) {
        for (int k = p->cse.first[i]; k < p->cse.first[i + 1]; k++) {
            const XNode *d = p->cse.order[k];
            if (p->defined[d->id]) continue;
            int name = p->cse.name[d->id];
            p->cse.name[d->id] = 0;   /* its own definition is written out */
            const char *rhs = text(p, d);
            p->cse.name[d->id] = name;
            p->defined[d->id] = d->label ? -1 : ++p->next_at;
            line(p, name_of(p, d), rhs, d->loc.line);
        }
        line(p, outs[i].lhs, text(p, outs[i].expr), outs[i].line);
    }
}

/* ------------------------------------------------------------------ sections */

static const char *state(const Model *m, int i) { return m->states[i]->name; }

/* What row i of f is: the state's derivative y', or the constraint 0 = g
 * that its unknown is solved from (`solv`, check/dae.c). */
static const char *row(const Model *m, int i)
{
    return i >= m->nstate - m->nalg ? arena_printf("g[%s]", state(m, i)) : arena_printf("%s'", state(m, i));
}

static void print_rhs(Printer *p)
{
    const Jacobian *J = p->J;
    const Model *m = J->m;
    int n = m->nstate;
    Out *outs = arena_alloc(sizeof(Out) * (size_t)(J->nJ + J->nP + n + 1));
    fprintf(p->out, "\n# Jacobian d(f)/d(y): %d non-zero entr%s of %d\n", J->nJ, J->nJ == 1 ? "y" : "ies", n * n);
    for (int e = 0; e < J->nJ; e++)
        outs[e] = (Out){arena_printf("d(%s)/d(%s)", row(m, J->J[e].row), state(m, J->J[e].col)), J->J[e].d,
                        m->states[J->J[e].row]->expr_line.line};
    section(p, outs, J->nJ);

    if (J->autonomous) {
        fprintf(p->out, "\n# d(f)/dt = 0 (autonomous)\n");
    } else {
        fprintf(p->out, "\n# d(f)/dt\n");
        int k = 0;
        for (int i = 0; i < n; i++)
            if (!xg_is_const(J->dfdt[i], 0))
                outs[k++] = (Out){arena_printf("d(%s)/dt", row(m, i)), J->dfdt[i], m->states[i]->expr_line.line};
        section(p, outs, k);
    }

    fprintf(p->out, "\n# d(f)/d(parameters): %d non-zero entr%s of %d\n", J->nP, J->nP == 1 ? "y" : "ies",
            n * m->nparam);
    for (int e = 0; e < J->nP; e++)
        outs[e] = (Out){arena_printf("d(%s)/d(%s)", row(m, J->P[e].row), m->params[J->P[e].col]->name), J->P[e].d,
                        m->states[J->P[e].row]->expr_line.line};
    section(p, outs, J->nP);
}

static void print_events(Printer *p)
{
    const Jacobian *J = p->J;
    const Model *m = J->m;
    Out *outs = arena_alloc(sizeof(Out) * (size_t)(m->nstate + 2));
    for (int e = 0; e < m->nevent; e++) {
        const Event *ev = &m->events[e];
        const EventGrad *eg = &J->ev[e];
        fprintf(p->out, "\n# %s %s (%s:%d): gradient of its function\n", ev->is_global ? "global" : "event",
                ev->sym->name, p->path, ev->line);
        int k = 0;
        outs[k++] = (Out){"g", eg->g, ev->line};
        for (int j = 0; j < m->nstate; j++)
            if (!xg_is_const(eg->gy[j], 0)) outs[k++] = (Out){arena_printf("d(g)/d(%s)", state(m, j)), eg->gy[j], 0};
        if (!xg_is_const(eg->gt, 0)) outs[k++] = (Out){"d(g)/dt", eg->gt, 0};
        section(p, outs, k);
    }
}

static void print_reset(Printer *p, const ResetJac *r)
{
    const Jacobian *J = p->J;
    const Model *m = J->m;
    int n = m->nstate;
    if (!r->resets) return;
    fprintf(p->out, "\n# %s (%s:%d): what it does to the states (y+ after it, y before) and its Jacobian\n",
            r->what, p->path, r->line);
    Out *outs = arena_alloc(sizeof(Out) * (size_t)(3 * n + r->nR + 1));
    int k = 0;
    for (int i = 0; i < n; i++)
        if (r->post[i] != xg_var(J->g, XV_STATE, i, m->states[i]))
            outs[k++] = (Out){arena_printf("%s+", state(m, i)), r->post[i], r->line};
    for (int i = 0, e = 0; i < n; i++) {
        if (r->post[i] == xg_var(J->g, XV_STATE, i, m->states[i])) continue;
        bool any = false;
        for (; e < r->nR && r->R[e].row == i; e++, any = true)
            outs[k++] = (Out){arena_printf("d(%s+)/d(%s)", state(m, i), state(m, r->R[e].col)), r->R[e].d, 0};
        if (!any) outs[k++] = (Out){arena_printf("d(%s+)/d(y)", state(m, i)), xg_const(J->g, 0), 0};
        if (!xg_is_const(r->Rt[i], 0)) outs[k++] = (Out){arena_printf("d(%s+)/dt", state(m, i)), r->Rt[i], 0};
    }
    section(p, outs, k);
    fprintf(p->out, "# (states not listed are unchanged: d(y+)/d(y) = 1 on the diagonal)\n");
}

/* Where the Jacobian switches: what the user should know about it. */
static void print_pieces(Printer *p)
{
    const Jacobian *J = p->J;
    const Model *m = J->m;
    int shown = 0;
    for (int i = 0; i < J->npieces; i++) shown += J->pieces[i].on_states;
    if (!shown) return;
    fprintf(p->out, "\n# Piecewise: where f switches, its Jacobian is the derivative on one side\n");
    for (int i = 0; i < J->npieces; i++) {
        const JacPiece *pc = &J->pieces[i];
        const XNode *n = pc->node;
        if (!pc->on_states) continue;
        Buf who = {0};
        for (int s = 0, k = 0; s < m->nstate; s++)
            if (pc->states[s]) buf_printf(&who, "%s%s", k++ ? ", " : "", m->states[s]->name);
        const char *what;
        switch (n->op) {
        case X_ABS: what = "has a kink where its argument is 0; there the Jacobian uses sign(0) = 0"; break;
        case X_MAX: case X_MIN:
            what = "has a kink where its arguments are equal; there the Jacobian uses the first argument's derivative";
            break;
        case X_SELECT:
            what = "is differentiated branch by branch; at the switch, the branch its condition selects";
            break;
        case X_MOD: what = "jumps where its first argument crosses a multiple of the second; between jumps its slope"; break;
        case X_TABLE:
            what = n->tab->interp == TABLE_STEP
                       ? "jumps at each tabulated point (a step table); the Jacobian holds 0 between them, not the jumps"
                       : "has a kink at each tabulated point; the Jacobian uses the slope of the segment its argument "
                         "lies on (at a tabulated point, the one starting there)";
            break;
        default: what = "jumps; the Jacobian holds its derivative on either side (0), not the jump"; break;
        }
        const char *construct = n->op == X_SELECT ? arena_printf("if(%s)then(…)else(…)", text(p, n->a)) : text(p, n);
        fprintf(p->out, "# %s (%s:%d:%d), in %s: %s\n", construct, p->path, n->loc.line, n->loc.col,
                who.data ? who.data : "?", what);
        buf_free(&who);
    }
}

static void print_cost(Printer *p)
{
    JacCosts c = jacobian_costs(p->J);
    int n = p->J->m->nstate;
    fprintf(p->out, "\n# Cost in operations of the generated code (arithmetic + library calls), shared\n"
                    "# subexpressions once: f %ld+%ld; J %ld+%ld; f and J together %ld+%ld;\n"
                    "# %d right-hand sides (what a finite-difference Jacobian costs) %ld+%ld\n",
            c.f.arith, c.f.calls, c.J.arith, c.J.calls, c.fJ.arith, c.fJ.calls, n, n * c.f.arith, n * c.f.calls);
}

int print_jacobian(const Model *m, FILE *out)
{
    TimeTrig trig = {0};
    find_time_trig(m, &trig);
    const Jacobian *J = jacobian_build(m, &trig);
    Printer p;
    memset(&p, 0, sizeof p);
    p.J = J;
    p.out = out;
    p.defined = arena_alloc(sizeof(int) * (size_t)(J->g->nnodes + 1));
    p.path = c_comment(m->path);
    fprintf(out, "# %s: the derivatives in the generated code (odegen --print jacobian)\n", p.path);
    fprintf(out, "# f = dy/dt; y' is f of state y, y+ a state after a block's statements\n");
    if (m->nalg)
        fprintf(out, "# g[z]: the constraint 0 = g that the unknown z of solv is solved from (the last rows)\n");
    bool ok = true;
    if (jacobian_require(J, JAC_RHS, "--print jacobian")) {
        print_rhs(&p);
        print_pieces(&p);
    } else {
        ok = false;
    }
    if (jacobian_require(J, JAC_EVENTS, "--print jacobian")) print_events(&p);
    else ok = false;
    if (jacobian_require(J, JAC_RESETS, "--print jacobian")) {
        print_reset(&p, &J->start);
        for (int e = 0; e < m->nevent; e++) print_reset(&p, &J->on_event[e]);
        print_reset(&p, &J->end);
    } else {
        ok = false;
    }
    if (!J->fail[JAC_RHS].failed) print_cost(&p);
    return ok ? 0 : 1;
}
