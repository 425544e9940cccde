/* delay.c — delay(x, tau), XPPAUT's delay equations (templates/delay.h runs
 * them): the calls, the history x(0)=EXPR of t, `@ delay`, and what cannot
 * go with a delay.
 *
 * As XPPAUT reads them (its delay_handle.c and parserslow2.c):
 *  - delay(x, tau) is x at t - tau; x is a state; tau any expression (of
 *    parameters, states, t …); tau <= 0 reads x(t) itself;
 *  - `@ delay=MAX` is the longest delay; a larger tau stops the
 *    integration (odegen: the status `history`).  Without it XPPAUT reads
 *    every delay as 0 — the equations then have no delay at all — so odegen
 *    asks for it;
 *  - before the start, x is its initial function: x(0)=EXPR, an expression
 *    of t (and parameters), for every t up to t0; its value at t=0 is the
 *    initial value.  `init x=v` sets only the value at t0; without x(0)=…
 *    the history is 0 (so is it after an array line x[a..b](0)=…, which
 *    XPPAUT keeps as initial values only).
 */
#include <string.h>

#include "base/arena.h"
#include "check/checker.h"
#include "front/diag.h"

/* tau reads only numbers, parameters and derived parameters (and built-in
 * functions of them): the same for a whole integration, so its breaking
 * points are known. */
static bool of_parameters(const Checker *c, const Node *n)
{
    if (!n) return true;
    switch (n->kind) {
    case N_NUM: return true;
    case N_POS: case N_ELEM: case N_SUMIX: return false;   /* (by element of an array kept as a loop) */
    case N_NAME:
        return n->sym && (n->sym->kind == SYM_NUMBER || n->sym->kind == SYM_PARAM || n->sym->kind == SYM_DERIVED ||
                          n->sym == c->sym_pi);
    case N_CALL:
        if (n->sym || name_eq(n->name, "delay")) return false;
        for (const Node *a = n->args; a; a = a->next)
            if (!of_parameters(c, a)) return false;
        return true;
    default:
        return of_parameters(c, n->lhs) && of_parameters(c, n->rhs) && of_parameters(c, n->cond);
    }
}

/* delay(x[j], TAU) in an array line kept as a loop (x the resolved N_ELEM):
 * the elements it reads, one per position p, have consecutive delay slots,
 * the first returned in *base (position p reads slot *base + p: emit_expr.c);
 * where they have none yet, or not in this order (another loop, x[j+1],
 * took some), they get a block of their own (a state may then be stored in
 * two slots, each holding its past).  False after an error. */
static bool delay_elements(Checker *c, Node *x, const Ctx *ctx, int *base)
{
    Model *m = c->m;
    const long n = ctx->arr->line->n;
    if (x->more || x->scalar || x->lhs || x->ix_from != 0 || x->ix_to != n - 1 || !x->sym ||
        x->sym->kind != SYM_STATE) {
        error_at(x->loc, "delay(…) in an array kept as a loop reads one array of states by its index (x[j], "
                         "x[j+1]); this one names %s: write the arrays out (@ arrays=written)",
                 x->sym && x->sym->kind != SYM_STATE ? kind_phrase(x->sym->kind) : "elements of more than one array");
        return false;
    }
    Symbol **elems = arena_alloc(sizeof(Symbol *) * (size_t)n);
    bool in_order = true;
    for (long p = 0; p < n; p++) {
        const long at = x->ix_base + x->ix_step * p;
        elems[p] = at >= 0 && at < m->nstate ? m->states[at] : NULL;
        if (!elems[p]) return false;   /* (resolved: cannot be) */
        in_order &= elems[p]->delay_slot >= 0 && elems[p]->delay_slot == elems[0]->delay_slot + p;
    }
    if (!in_order)
        for (long p = 0; p < n; p++) {
            elems[p]->delay_slot = m->ndelay;
            PUSH(m->delayed, m->ndelay, elems[p]);
        }
    *base = elems[0]->delay_slot;
    return true;
}

/* delay(NAME, TAU): NAME a state, TAU resolved where the call is; the call
 * gets its site number and a third argument, the time it is evaluated at.
 * In an array line kept as a loop NAME may be x[j…]: each position reads
 * its element's past (delay_elements). */
void resolve_delay(Checker *c, Node *n, const Ctx *ctx)
{
    Model *m = c->m;
    if (ctx->sum_loop) {
        error_at(n->name_loc, "delay(…) in a sum kept as a loop is not supported yet: write it out (@ arrays=written)");
        return;
    }
    if (list_length(n->args) == 3 && n->args->next->next->sym == c->sym_t) return;   /* (resolved already) */
    if (list_length(n->args) != 2) {
        error_at(n->loc, "delay is written delay(NAME, TAU): the state NAME at the time TAU before now");
        return;
    }
    if (!(ctx->read & BIT(SYM_STATE)) || !(ctx->read & BIT(SYM_TIME))) {
        error_at(n->name_loc, "delay(…) reads a state's past, which cannot be used in %s%s", ctx->where,
                 ctx->hint ? ctx->hint : "");
        return;
    }
    Node *x = n->args, *tau = x->next;
    if (ctx->arr && x->kind == N_NAME && strchr(x->name, '[')) {   /* x[j]: one element a position */
        int before = diag_error_count();
        resolve_expr(c, x, ctx);
        resolve_expr(c, tau, ctx);
        int base;
        if (diag_error_count() != before || x->kind != N_ELEM || !delay_elements(c, x, ctx, &base)) return;
        n->ix_base = base;   /* (the call's first slot; x->sym's may move on: delay_elements) */
        if (!m->ndelay_sites || (ctx->derivative && !c->delay_in_rhs)) m->delay_loc = n->loc;
        if (ctx->derivative) c->delay_in_rhs = true;
        n->num = m->ndelay_sites;
        m->ndelay_sites += (int)ctx->arr->line->n;
        Node *now = ast_name(n->loc, "t");
        now->sym = c->sym_t;
        tau->next = now;
        if (of_parameters(c, tau)) PUSH(m->delay_const, m->ndelay_const, tau);
        return;
    }
    if (x->kind != N_NAME) {
        error_at(x->loc, "delay's first argument is the name of a state (XPPAUT delays states only)");
        return;
    }
    Symbol *s = lookup(c, x->name, ctx);
    if (!s || s->kind != SYM_STATE) {
        if (s)
            error_at(x->loc, "'%s' is %s (line %d); delay(NAME, TAU) delays a state", x->name, kind_phrase(s->kind),
                     s->loc.line);
        else
            resolve_expr(c, x, ctx);   /* (the unknown name's message, with its suggestion) */
        return;
    }
    x->sym = s;
    int before = diag_error_count();
    resolve_expr(c, tau, ctx);
    if (diag_error_count() != before) return;
    if (s->delay_slot < 0) {
        s->delay_slot = m->ndelay;
        PUSH(m->delayed, m->ndelay, s);
    }
    if (!m->ndelay_sites || (ctx->derivative && !c->delay_in_rhs)) m->delay_loc = n->loc;
    if (ctx->derivative) c->delay_in_rhs = true;
    n->num = m->ndelay_sites++;
    Node *now = ast_name(n->loc, "t");   /* the time the call is evaluated at */
    now->sym = c->sym_t;
    tau->next = now;
    if (of_parameters(c, tau)) PUSH(m->delay_const, m->ndelay_const, tau);
}

/* x(0)=EXPR in a model with delays: EXPR may read t; its value at t=0 is the
 * initial value (as XPPAUT computes it), EXPR the history.  Returns false
 * when the item is no such x(0)=… (values.c reads it as any initial value). */
bool initial_history(Checker *c, Symbol *s, Node *it)
{
    if (!c->m->ndelay || it->num != 1 || !it->rhs) return false;
    Ctx x = ctx_make(READ_PARAMS | BIT(SYM_TIME), "an initial function x(0)=…",
                     "; with delays, x(0)=EXPR is the history before t0: numbers, parameters and t");
    int before = diag_error_count();
    resolve_expr(c, it->rhs, &x);
    if (diag_error_count() != before) return true;
    double v;
    c->eval_t = true;
    c->t_value = 0;
    bool constant = eval_const(c, it->rhs, &v);
    c->eval_defaults = true;
    bool at_defaults = constant || eval_const(c, it->rhs, &v);
    c->eval_defaults = false;
    c->eval_t = false;
    if (!at_defaults || !isfinite(v)) {
        error_at(it->rhs->loc, "the initial function's value at t=0 is not a finite number");
        return true;
    }
    s->value = v;
    s->init_expr = constant ? NULL : it->rhs;
    s->hist_expr = it->rhs;
    return true;
}

/* What delays need of the whole model, once everything is read. */
void check_delays(Checker *c)
{
    Model *m = c->m;
    if (!m->ndelay) return;
    if (!(m->delay_max > 0))
        error_at(m->delay_loc, "delay(…) needs `@ delay=MAX`, the longest delay it may read (XPPAUT without it "
                               "reads every delay as 0: equations without delay)");
    if (m->nlyap && c->delay_in_rhs)
        error_at(m->lyap_loc, "lyapunov with delays: a delay equation's state is its whole past (infinite-"
                              "dimensional), which odegen's tangent vectors of the states do not follow");
    if (m->method == METH_DISCRETE)
        error_at(m->delay_loc, "delay(…) in a map (meth=discrete): odegen keeps no past of a map's iterates; "
                               "carry the earlier values in states of their own");
    if (m->method == METH_RKCK45 || m->method == METH_VERN7)
        error_at(m->delay_loc, "delay(…) with %s: its continuous extension, from which delayed values are read, is "
                               "the cubic Hermite one, less accurate than its steps and not under its error control; "
                               "use dopri5, tsit5 or dop853 (their own extensions), or a fixed-step method",
                 m->method == METH_RKCK45 ? "rkck45 (XPPAUT's qualrk)" : "vern7");
    /* The states without a history: a note each, or one for an array's many (kept as a loop, up to 10^5). */
    int without = 0, first = -1;
    for (int k = 0; k < m->ndelay; k++)
        if (!m->delayed[k]->hist_expr && m->delayed[k]->delay_slot == k) {   /* (once a state: delay_elements) */
            without++;
            if (first < 0) first = k;
        }
    for (int k = 0; k < m->ndelay && !diag_error_count(); k++) {
        if (m->delayed[k]->hist_expr || m->delayed[k]->delay_slot != k) continue;
        if (without <= 3)
            note_at(m->delayed[k]->loc, "the history of '%s' before t0 is 0, as XPPAUT's: `init` (and an array line "
                                        "x[a..b](0)=…) gives only its value at t0; x(0)=EXPR (of t) gives the history",
                    m->delayed[k]->name);
        else if (k == first)
            note_at(m->delayed[k]->loc, "the history of '%s' and %d more delayed states before t0 is 0, as XPPAUT's: "
                                        "`init` (and an array line x[a..b](0)=…) gives only their value at t0; "
                                        "x(0)=EXPR (of t) gives the history",
                    m->delayed[k]->name, without - 1);
    }
}
