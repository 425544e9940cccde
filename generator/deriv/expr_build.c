/* expr_build.c — syntax trees of the checked model as expression graphs. */
#include "deriv/expr_build.h"

#include <string.h>

#include "base/arena.h"
#include "base/util.h"

/* Deeper than this, the builder stops (the checks keep real models far below). */
enum { BUILD_MAX_DEPTH = 12000 };

struct FuncMemo {
    const Symbol *f;
    XNode **args;
    XNode *value;
    int version;        /* of the values a body that reads states, temporaries or aux was built with */
    unsigned hash;
    FuncMemo *next;
};

static XNode **node_array(int n) { return arena_alloc(sizeof(XNode *) * (size_t)(n > 0 ? n : 1)); }

void xb_init(XBuilder *b, XGraph *g, const Model *m, const TimeTrig *trig)
{
    memset(b, 0, sizeof *b);
    b->g = g;
    b->m = m;
    b->trig = trig;
    b->event = -1;
    b->y = node_array(m->nstate);
    b->acc = node_array(m->nacc);
    b->p = node_array(m->nparam);
    b->temp_val = node_array(m->ntemp);
    b->aux_val = node_array(m->naux);
    b->temp_ver = arena_alloc(sizeof(int) * (size_t)(m->ntemp + 1));
    b->aux_ver = arena_alloc(sizeof(int) * (size_t)(m->naux + 1));
    b->ncallbuckets = 256;
    b->calls = arena_alloc(sizeof(FuncMemo *) * b->ncallbuckets);
    xb_reset_values(b);
}

void xb_reset_values(XBuilder *b)
{
    const Model *m = b->m;
    for (int i = 0; i < m->nstate; i++) b->y[i] = xg_var(b->g, XV_STATE, i, m->states[i]);
    for (int i = 0; i < m->nacc; i++) b->acc[i] = xg_var(b->g, XV_ACC, i, m->accs[i]);
    for (int i = 0; i < m->nparam; i++) b->p[i] = xg_var(b->g, XV_PARAM, i, m->params[i]);
    for (int i = 0; i < 2; i++) b->win[i] = xg_var(b->g, XV_WINDOW, i, NULL);
    b->version++;
    b->pristine = true;
}

static XNode *fail(XBuilder *b, Loc loc, const char *msg)
{
    if (!b->failed) {
        b->failed = true;
        b->fail_loc = loc;
        b->fail_msg = msg;
    }
    return b->g->nan;
}

/* ------------------------------------------------------------------ names */

static XNode *derived_var(XBuilder *b, const Symbol *s)
{
    XNode *v = xg_var(b->g, XV_DERIVED, s->index, s);
    if (!v->var->def && s->expr) {
        Loc at = b->g->at;
        v->var->def = b->g->nan;   /* (no cycle: derived parameters are ordered) */
        v->var->def = xb_expr(b, s->expr);
        b->g->at = at;
    }
    return v;
}

/* A temporary or aux: its expression at the current values, built once per version. */
static XNode *computed(XBuilder *b, const Symbol *s, XNode **val, int *ver, int count)
{
    bool memo = s->index >= 0 && s->index < count;
    if (memo && val[s->index] && ver[s->index] == b->version) return val[s->index];
    Loc at = b->g->at;
    XNode *v = xb_expr(b, s->expr);
    b->g->at = at;
    if (b->pristine && !v->label && !xg_is_leaf(v)) v->label = s->name;   /* printed by its name */
    if (memo) {
        val[s->index] = v;
        ver[s->index] = b->version;
    }
    return v;
}

static XNode *name_value(XBuilder *b, const Node *n)
{
    const Symbol *s = n->sym;
    XGraph *g = b->g;
    if (!s) return fail(b, n->loc, arena_printf("'%s' is not resolved", n->name));
    switch (s->kind) {
    case SYM_NUMBER: return xg_var(g, XV_NUMBER, s->line == 0 ? -1 : s->index, s);   /* pi: -1 */
    case SYM_PARAM: return b->p[s->index];
    case SYM_DERIVED: return derived_var(b, s);
    case SYM_STATE: return b->y[s->index];
    case SYM_ACC: return b->acc[s->index];
    case SYM_WINDOW: return b->win[s->index ? 1 : 0];
    case SYM_TIME: return xg_var(g, XV_TIME, 0, s);
    case SYM_COUNT: return xg_var(g, XV_COUNT, b->event, s);
    case SYM_TEMP: return computed(b, s, b->temp_val, b->temp_ver, b->m->ntemp);
    case SYM_WIENER: return b->no_wiener ? xg_const(g, 0) : xg_var(g, XV_WIENER, s->index, s);
    case SYM_AUX: return computed(b, s, b->aux_val, b->aux_ver, b->m->naux);
    case SYM_ARG:
        for (int i = b->nargs - 1; i >= 0; i--)
            if (b->arg_sym[i] == s) return b->arg_val[i];
        break;
    default: break;
    }
    return fail(b, n->loc, arena_printf("'%s' has no value that can be differentiated", n->name));
}

/* ------------------------------------------------------------------ calls */

static unsigned call_hash(const Symbol *f, XNode **args, int nargs)
{
    unsigned h = (unsigned)f->index * 2654435761u;
    for (int i = 0; i < nargs; i++) h = (h ^ (unsigned)args[i]->id) * 16777619u;
    return h;
}

static void push_arg(XBuilder *b, const Symbol *s, XNode *v)
{
    int cap = b->capargs;   /* one room for both arrays */
    b->arg_sym = arena_grow((void *)b->arg_sym, b->nargs, &cap, sizeof(Symbol *));
    b->arg_val = arena_grow(b->arg_val, b->nargs, &b->capargs, sizeof(XNode *));
    b->arg_sym[b->nargs] = s;
    b->arg_val[b->nargs++] = v;
}

/* One more inlined call in the memo; the table doubles when it holds as many
 * calls as buckets, so that looking a call up stays O(1) however many there
 * are (nested functions make 2^depth of them: issue 19, D7). */
static void remember_call(XBuilder *b, const Symbol *f, XNode **args, unsigned hash, XNode *value)
{
    if (++b->ncalls > b->ncallbuckets) {
        unsigned size = 2 * b->ncallbuckets;
        FuncMemo **calls = arena_alloc(sizeof(FuncMemo *) * size);
        for (unsigned i = 0; i < b->ncallbuckets; i++)
            for (FuncMemo *c = b->calls[i], *next; c; c = next) {
                next = c->next;
                c->next = calls[c->hash & (size - 1)];
                calls[c->hash & (size - 1)] = c;
            }
        b->calls = calls;
        b->ncallbuckets = size;
    }
    FuncMemo *c = arena_alloc(sizeof *c);
    c->f = f, c->args = args, c->value = value, c->hash = hash, c->version = b->version;
    c->next = b->calls[hash & (b->ncallbuckets - 1)];
    b->calls[hash & (b->ncallbuckets - 1)] = c;
}

/* A user function inlined: its body with the arguments bound (chain rule for free). */
static XNode *user_call(XBuilder *b, const Node *n)
{
    const Symbol *f = n->sym;
    XNode **args = node_array(f->nargs);
    int k = 0;
    for (const Node *a = n->args; a && k < f->nargs; a = a->next) args[k++] = xb_expr(b, a);
    if (k != f->nargs || !f->expr) return fail(b, n->loc, arena_printf("the call of '%s' cannot be inlined", f->name));
    const unsigned hash = call_hash(f, args, k);
    for (FuncMemo *c = b->calls[hash & (b->ncallbuckets - 1)]; c; c = c->next)
        if (c->hash == hash && c->f == f && !memcmp(c->args, args, sizeof(XNode *) * (size_t)k) &&
            (!f->nimplicit || c->version == b->version))
            return c->value;
    int base = b->nargs;
    for (int i = 0; i < k; i++) push_arg(b, f->args[i], args[i]);
    Loc at = b->g->at;
    XNode *v = xb_expr(b, f->expr);
    b->g->at = at;
    b->nargs = base;
    remember_call(b, f, args, hash, v);
    return v;
}

static XNode *builtin_call(XBuilder *b, const Node *n)
{
    XOp op = xop_of_builtin(n->name);
    if (op == X_NOPS)
        return fail(b, n->loc, arena_printf("'%s' cannot be differentiated (odegen knows no derivative of it)",
                                            n->name));
    XNode *a[2] = {NULL, NULL};
    int k = 0;
    for (const Node *x = n->args; x; x = x->next) {
        if (k == 2) return fail(b, n->loc, arena_printf("'%s' has too many arguments", n->name));
        a[k++] = xb_expr(b, x);
    }
    if (k != xop_info[op].arity) return fail(b, n->loc, arena_printf("'%s' has the wrong number of arguments", n->name));
    /* sin/cos of time in the right-hand side: the values the solver computed */
    if (b->trig && (op == X_SIN || op == X_COS)) {
        int slot = trig_index(b->trig, n->args);
        if (slot >= 0) return xg_trig(b->g, slot, op == X_COS, a[0]);
    }
    b->g->at = n->loc;
    return k == 1 ? xg_un(b->g, op, a[0]) : xg_bin(b->g, op, a[0], a[1]);
}

/* ran(a) = a·U, normal(m, s) = m + s·N, U and N the call's draw (a
 * variable: a constant of every derivative). */
static XNode *random_call(XBuilder *b, const Node *n)
{
    XGraph *g = b->g;
    XNode *x = xg_var(g, XV_RANDOM, (n->site_kind << 20) | (n->site - 1), NULL);
    XNode *a = xb_expr(b, n->args);
    g->at = n->loc;
    if (!n->args->next) return xg_mul(g, a, x);
    XNode *s = xb_expr(b, n->args->next);
    g->at = n->loc;
    return xg_add(g, a, xg_mul(g, s, x));
}

/* delay(x, tau) with its time (check/delay.c): the past of x at t - tau, a
 * function of time and tau only (the history a stiff method's Jacobian
 * reads, Bellen and Zennaro's method of steps); x itself where tau <= 0. */
static XNode *delay_call(XBuilder *b, const Node *n)
{
    const Node *x = n->args, *tau = x ? x->next : NULL, *now = tau ? tau->next : NULL;
    if (now && x->kind == N_ELEM)
        return fail(b, n->loc, "delay(…) of an array kept as a loop cannot be differentiated (write the arrays out: "
                               "@ arrays=written)");
    if (!now || !x->sym || x->sym->delay_slot < 0) return fail(b, n->loc, "internal: an unresolved delay(…)");
    XNode *vt = xb_expr(b, tau), *vn = xb_expr(b, now), *vx = xb_expr(b, x);
    b->g->at = n->loc;
    return xg_delay(b->g, X_DELAY, x->sym->delay_slot, (int)n->num, vt, vn, vx);
}

/* ------------------------------------------------------------------ expressions */

static XOp binary_op(NodeKind k)
{
    switch (k) {
    case N_ADD: return X_ADD;
    case N_SUB: return X_SUB;
    case N_MUL: return X_MUL;
    case N_DIV: return X_DIV;
    case N_POW: return X_POW;
    case N_LT: return X_LT;
    case N_GT: return X_GT;
    case N_LE: return X_LE;
    case N_GE: return X_GE;
    case N_EQ: return X_EQ;
    case N_NE: return X_NE;
    case N_AND: return X_AND;
    case N_OR: return X_OR;
    default: return X_NOPS;
    }
}

static XNode *build(XBuilder *b, const Node *n)
{
    XGraph *g = b->g;
    XNode *l, *r, *c;
    switch (n->kind) {
    case N_NUM: return xg_const(g, n->num);
    case N_NAME: return name_value(b, n);
    case N_NEG:
        l = xb_expr(b, n->lhs);
        g->at = n->loc;
        return xg_neg(g, l);
    case N_NOT:
        l = xb_expr(b, n->lhs);
        g->at = n->loc;
        return xg_un(g, X_NOT, l);
    case N_IF:
        c = xb_expr(b, n->cond);
        l = xb_expr(b, n->lhs);
        r = xb_expr(b, n->rhs);
        g->at = n->loc;
        return xg_select(g, c, l, r);
    case N_CALL:
        if (!n->sym && n->site) return random_call(b, n);
        if (!n->sym && name_eq(n->name, "delay")) return delay_call(b, n);
        if (!n->sym) return builtin_call(b, n);
        if (n->sym->kind == SYM_FUNC) return user_call(b, n);
        if (n->sym->kind == SYM_TABLE && n->args && !n->args->next) {   /* a lookup, its slope the derivative */
            XNode *x = xb_expr(b, n->args);
            g->at = n->loc;
            return xg_table(g, X_TABLE, &b->m->tables[n->sym->table], n->sym->table, x);
        }
        return fail(b, n->loc, arena_printf("'%s' cannot be differentiated (it is not a function odegen "
                                            "knows the derivative of)", n->name));
    default: {
        XOp op = binary_op(n->kind);
        if (op == X_NOPS || !n->lhs || !n->rhs)
            return fail(b, n->loc, arena_printf("this expression (%s) cannot be differentiated",
                                                node_kind_name(n->kind)));
        l = xb_expr(b, n->lhs);
        r = xb_expr(b, n->rhs);
        g->at = n->loc;
        return xg_bin(g, op, l, r);
    }
    }
}

XNode *xb_expr(XBuilder *b, const Node *n)
{
    if (!n) return fail(b, b->g->at, "an expression is missing");
    if (b->failed || b->g->overflow) return b->g->nan;
    if (b->depth >= BUILD_MAX_DEPTH) return fail(b, n->loc, "this expression is nested too deeply to be differentiated");
    b->depth++;
    b->g->at = n->loc;
    XNode *v = build(b, n);
    b->depth--;
    return v;
}

/* ------------------------------------------------------------------ statements */

typedef struct Values {
    XNode **y, **acc, **p, *win[2];
} Values;

static Values save(const XBuilder *b)
{
    Values v;
    v.y = node_array(b->m->nstate);
    v.acc = node_array(b->m->nacc);
    memcpy(v.y, b->y, sizeof(XNode *) * (size_t)b->m->nstate);
    memcpy(v.acc, b->acc, sizeof(XNode *) * (size_t)b->m->nacc);
    v.p = node_array(b->m->nparam);
    memcpy(v.p, b->p, sizeof(XNode *) * (size_t)b->m->nparam);
    v.win[0] = b->win[0], v.win[1] = b->win[1];
    return v;
}

static void restore(XBuilder *b, const Values *v)
{
    memcpy(b->y, v->y, sizeof(XNode *) * (size_t)b->m->nstate);
    memcpy(b->acc, v->acc, sizeof(XNode *) * (size_t)b->m->nacc);
    memcpy(b->p, v->p, sizeof(XNode *) * (size_t)b->m->nparam);
    b->win[0] = v->win[0], b->win[1] = v->win[1];
    b->version++;
    b->pristine = false;
}

static void merge(XBuilder *b, XNode *cond, XNode **then_, XNode **else_, int n)
{
    for (int i = 0; i < n; i++) then_[i] = xg_select(b->g, cond, then_[i], else_[i]);
}

static void assign(XBuilder *b, const Node *s)
{
    XNode *v = xb_expr(b, s->rhs);
    const Symbol *t = s->sym;
    switch (t->kind) {
    case SYM_STATE: b->y[t->index] = v; break;
    case SYM_ACC: b->acc[t->index] = v; break;
    case SYM_PARAM: b->p[t->index] = v; break;
    case SYM_WINDOW: b->win[t->index ? 1 : 0] = v; break;
    default: fail(b, s->name_loc, arena_printf("'%s' cannot be assigned here", s->name)); break;
    }
    b->version++;
    b->pristine = false;
}

void xb_block(XBuilder *b, const Node *stmts)
{
    for (const Node *s = stmts; s && !b->failed; s = s->next) {
        if (s->kind == S_ASSIGN && s->sym) {
            assign(b, s);
        } else if (s->kind == S_IF) {
            XNode *cond = xb_expr(b, s->cond);
            Values before = save(b);
            xb_block(b, s->body);
            Values after_then = save(b);
            restore(b, &before);
            xb_block(b, s->els);
            b->g->at = s->loc;
            merge(b, cond, after_then.y, b->y, b->m->nstate);
            merge(b, cond, after_then.acc, b->acc, b->m->nacc);
            merge(b, cond, after_then.p, b->p, b->m->nparam);
            merge(b, cond, after_then.win, b->win, 2);
            restore(b, &after_then);
        } else if (s->kind != S_ASSIGN) {
            fail(b, s->loc, arena_printf("this statement (%s) cannot be differentiated", node_kind_name(s->kind)));
        }
    }
}
