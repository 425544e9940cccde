/* resolve.c — every name of every expression and block is looked
 * up in the context it appears in (Ctx: what may be read there, what may be
 * assigned), calls are checked against the built-ins and the user's
 * functions, shift() and sum() are resolved; temporaries of parameters only
 * become derived parameters.  Also the constant values other passes read
 * (const_value: resolved with numbers only, then evaluated). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/input_limits.h"
#include "base/builtins.h"
#include "base/util.h"
#include "check/checker.h"
#include "front/diag.h"
#include "front/expand.h"

Symbol *lookup(Checker *c, const char *name, const Ctx *ctx)
{
    if (ctx->func)
        for (int i = 0; i < ctx->func->nargs; i++)
            if (name_eq(ctx->func->args[i]->name, name))
                return ctx->func->args[i];
    if (name_eq(name, "t")) return c->sym_t;
    if (name_eq(name, "pi")) return c->sym_pi;
    Symbol *s = symtab_get(&c->tab, name);
    if (s) return s;
    if (name_eq(name, "t0")) return c->sym_t0;
    if (name_eq(name, "t1")) return c->sym_t1;
    if (name_eq(name, "count")) return c->sym_count;
    return NULL;
}

bool refused_name(const Checker *c, const char *name)
{
    for (int i = 0; i < c->nrefused; i++)
        if (name_eq(c->refused[i], name)) return true;
    return false;
}

static void unknown_name(Checker *c, const char *name, Loc loc, const Ctx *ctx)
{
    if (refused_name(c, name)) return;   /* its statement was refused: said there */
    Suggest sg;
    suggest_init(&sg, name);
    suggest_symbols(c, &sg, ctx->read | ctx->write);
    if (ctx->func)
        for (int i = 0; i < ctx->func->nargs; i++)
            suggest_add(&sg, ctx->func->args[i]->name);
    if (ctx->read & BIT(SYM_TIME)) suggest_add(&sg, "t");
    if (ctx->also) suggest_add(&sg, ctx->also);
    if (!sg.best) suggest_symbols(c, &sg, ~0u);
    if (!sg.best) suggest_glued_keyword(c, &sg);
    error_at(loc, "unknown name '%s'%s%s%s%s", name, c->origin ? " (" : "", c->origin ? c->origin : "",
             c->origin ? ")" : "", suggest_text(&sg));
}

/* A name read in ctx: its symbol, or NULL after an error. */
static Symbol *resolve_read(Checker *c, const char *name, Loc loc, const Ctx *ctx)
{
    Symbol *s = lookup(c, name, ctx);
    if (s && s->kind == SYM_COUNT && !ctx->event) {
        error_at(loc, "'count' (the detections of an event so far) can only be used in an event's block");
        return NULL;
    }
    if (!s) {
        unknown_name(c, name, loc, ctx);
        return NULL;
    }
    return resolve_read_symbol(c, s, loc, ctx);
}

Symbol *resolve_read_symbol(Checker *c, Symbol *s, Loc loc, const Ctx *ctx)
{
    (void)c;
    const char *name = s->name;
    if (s->kind == SYM_FUNC || s->kind == SYM_TABLE || s->kind == SYM_SPECIAL) {
        error_at(loc, "'%s' is a %s; call it as %s(…)", name,
                 s->kind == SYM_TABLE ? "table" : s->kind == SYM_SPECIAL ? "special" : "function", s->name);
        return NULL;
    }
    if (s->kind == SYM_EVENT) {
        error_at(loc, "'%s' is an event, not a value", name);
        return NULL;
    }
    if (!(ctx->read & BIT(s->kind))) {
        error_at(loc, "'%s' is %s and cannot be used in %s%s", name, kind_phrase(s->kind), ctx->where,
                 ctx->hint ? ctx->hint : "");
        return NULL;
    }
    return s;
}



/* XPPAUT's shift(NAME, N): the name declared N places after NAME.  odegen
 * moves within names of the same kind (states, parameters, …), in the order
 * of their declaration.  A constant N: the call becomes that name; else an
 * element read by index as the model runs (arrays.c, resolve_shift_loop). */
static void resolve_shift(Checker *c, Node *n, const Ctx *ctx)
{
    if (list_length(n->args) != 2 || n->args->kind != N_NAME) {
        error_at(n->loc, "shift is written shift(NAME, N): the name N places after NAME");
        return;
    }
    Node *base = n->args;
    Symbol *from = resolve_read(c, base->name, base->loc, ctx);
    if (from && resolve_shift_loop(c, n, from, base->next, ctx)) return;
    double k;   /* (resolved, and a constant: resolve_shift_loop) */
    if (!from || !eval_const(c, base->next, &k)) return;
    if (!isfinite(k)) {
        error_at(base->next->loc, "shift's offset is not a finite number");
        return;
    }
    if (!is_integer(k)) {
        error_at(base->next->loc, "shift's offset must be a whole number, not %g", k);
        return;
    }
    Symbol *to = NULL;
    int count = 0;
    for (int i = 0; i < c->m->nsyms; i++) {
        Symbol *s = c->m->syms[i];
        if (s->kind != from->kind || s->shadowed) continue;
        count++;
        if (s->index == from->index + (long)k) to = s;
    }
    if (!to || from->kind == SYM_ARG) {
        error_at(n->loc, "shift(%s, %g) names nothing: %s is %s, and odegen shifts among the %d names of that "
                         "kind, in the order they are declared", base->name, k, base->name, kind_phrase(from->kind),
                 count);
        return;
    }
    n->kind = N_NAME;
    n->name = to->name;
    n->args = NULL;
    n->sym = resolve_read(c, to->name, n->loc, ctx);
    resolve_array_syntax(c, n, ctx);
}

/* A sum's bounds: numbers (true, with their values), or parameters, derived
 * parameters and functions of these, known when a system is loaded: the sum
 * is then a loop over the bounds of each system (false; arrays.c), as XPPAUT
 * evaluates its bounds (parserslow2.c, SUMSYM: (int) of each, nothing where
 * the first is above the last). */
static bool sum_bounds(Checker *c, Node *n, const Ctx *ctx, double *first, double *last)
{
    int before = diag_error_count();
    Ctx x = ctx_make(READ_PARAMS, "a sum's bounds",
                     "; a sum's bounds are numbers, or parameters (known when a system is loaded)");
    resolve_expr(c, n->args, &x);
    resolve_expr(c, n->args->next, &x);
    if (diag_error_count() != before) return false;
    if (eval_const(c, n->args, first) && eval_const(c, n->args->next, last)) {
        if (isfinite(*first) && isfinite(*last)) return true;
        error_at(n->loc, "a sum's bounds are finite numbers: sum(%g,%g)", *first, *last);
        return false;
    }
    sum_as_dynamic_loop(c, n, ctx);
    return false;
}

/* sum(first,last)of(body): the terms body(i'=first) + … + body(i'=last),
 * built here (expand.c) and then resolved as any expression. */
static void resolve_sum(Checker *c, Node *n, const Ctx *ctx)
{
    if (!name_eq(n->name, "sum") || list_length(n->args) != 2) {
        error_at(n->loc, "'of' belongs to XPPAUT's sum(FIRST,LAST)of(EXPR)");
        return;
    }
    const Node *inner = sum_inside(n->lhs);
    if (inner) {
        error_at(inner->loc, "a sum inside a sum: XPPAUT gives both the one index i'; write the inner one out");
        return;
    }
    double first, last;
    if (!sum_bounds(c, n, ctx, &first, &last)) return;   /* (a loop with bounds of parameters: arrays.c) */
    if (!is_integer(first) || !is_integer(last)) {
        error_at(n->loc, "a sum's indices are whole numbers: sum(%g,%g)", first, last);
        return;
    }
    if (sum_as_loop(c, n, ctx, first, last)) return;   /* 64 terms or more: a loop (arrays.c) */
    Node *terms = sum_expand(n, (long)first, (long)last);
    if (!terms) {   /* once for the file: an array of such sums would say it for each element */
        const char *why = c->sums_written
                              ? "this model needs derivatives (a stiff method, lyapunov), so odegen writes every term "
                                "of its sums into the generated code, at most " SUM_MAX_TERMS_TEXT " in all the sums "
                                "of a file (the C compiler's time grows faster than their number)"
                              : "odegen writes every term of a sum of fewer than 64 terms into the generated code, "
                                "at most " SUM_MAX_TERMS_TEXT " in all the sums of a file (the C compiler's time "
                                "grows faster than their number; a sum of 64 terms or more is a loop)";
        if (c->sums_refused) return;
        c->sums_refused = true;
        if (last - first + 1 > SUM_MAX_TERMS)
            error_at(n->loc, "a sum of %.0f terms: %s", last - first + 1, why);
        else
            error_at(n->loc, "with this sum (%.0f terms), the sums of this file write out more than %d terms: %s",
                     last - first + 1, SUM_MAX_TERMS, why);
        return;
    }
    Node *next = n->next;
    *n = *terms;
    n->next = next;
    n->paren = true;
    resolve_expr(c, n, ctx);
}

/* A function whose body reads values (states, temporaries, aux, t) may be
 * called only where those values may be read: not in a derived parameter, an
 * initial value, a table's formula; not an aux in a right-hand side. */
static void check_implicit(const Symbol *f, const Node *call, const Ctx *ctx)
{
    for (int k = 0; k < f->nimplicit; k++) {
        const Symbol *v = f->implicit[k];
        if (ctx->read & BIT(v->kind)) continue;
        error_at(call->name_loc, "'%s' reads %s '%s' (its value where it is called), which cannot be used in %s%s",
                 f->name, kind_phrase(v->kind), v->name, ctx->where, ctx->hint ? ctx->hint : "");
        return;
    }
}

static void resolve_call(Checker *c, Node *n, const Ctx *ctx)
{
    int nargs = list_length(n->args);
    if (!lookup(c, n->name, ctx) && name_eq(n->name, "shift")) {   /* its first argument stays a name */
        resolve_shift(c, n, ctx);
        return;
    }
    if (!lookup(c, n->name, ctx) && name_eq(n->name, "delay")) {   /* likewise (delay.c) */
        resolve_delay(c, n, ctx);
        return;
    }
    for (Node *a = n->args; a; a = a->next)
        resolve_expr(c, a, ctx);
    Symbol *s = lookup(c, n->name, ctx);
    if (s && s->kind == SYM_SPECIAL) {   /* f(k): the special's value k */
        n->sym = s;
        if (!(ctx->read & BIT(SYM_SPECIAL)))
            error_at(n->name_loc, "special '%s' cannot be used in %s%s", n->name, ctx->where, ctx->hint ? ctx->hint : "");
        else if (nargs != 1)
            error_at(n->loc, "special '%s' takes 1 argument (the index of its value), not %d", s->name, nargs);
        else if (!ctx->team && s->special < c->m->nspecial && s == c->m->specials[s->special].sym &&
                 (c->m->specials[s->special].root->kind == SYM_TEMP ||
                  (c->m->specials[s->special].root2 && c->m->specials[s->special].root2->kind == SYM_TEMP)))
            error_at(n->name_loc, "special '%s' reads an array of temporaries, which %s does not compute: read it in "
                                  "an equation, a temporary or an event", s->name, ctx->where);
        return;
    }
    if (s && (s->kind == SYM_FUNC || s->kind == SYM_TABLE)) {
        int want = s->kind == SYM_TABLE ? 1 : s->nargs;
        if (!(ctx->read & BIT(SYM_FUNC)))
            error_at(n->name_loc, "%s '%s' cannot be called in %s", s->kind == SYM_TABLE ? "table" : "function",
                     n->name, ctx->where);
        else if (nargs != want)
            error_at(n->loc, "'%s' takes %d argument%s, not %d", s->name, want, want == 1 ? "" : "s", nargs);
        else if (c->defer_calls) {
            PendingCall pc = {s, n, *ctx};
            PUSH(c->pending, c->npending, pc);
        } else
            check_implicit(s, n, ctx);
        n->sym = s;
        if (!ctx->func) s->called = true;   /* (an unused recursive function is dropped: order.c) */
        return;
    }

    if (s && s->kind != SYM_TIME && s->kind != SYM_WINDOW && s->kind != SYM_COUNT &&
        !(s == c->sym_pi)) {
        error_at(n->name_loc, "'%s' is %s, not a function", n->name, kind_phrase(s->kind));
        return;
    }
    const Builtin *b = builtin_find(n->name);
    if (b) {
        if (nargs != b->nargs)
            error_at(n->loc, "'%s' takes %d argument%s, not %d", b->name, b->nargs,
                     b->nargs == 1 ? "" : "s", nargs);
        return;
    }
    const int random_args = random_function(n->name);
    if (random_args >= 0) {   /* ran(a), normal(m, s): where each is drawn, check/noise.c */
        if (nargs != random_args)
            error_at(n->loc, "'%s' takes %d argument%s, not %d", n->name, random_args, random_args == 1 ? "" : "s",
                     nargs);
        return;
    }
    const char *why = unsupported_call(n->name);
    if (why) {
        error_at(n->name_loc, "%s", why);
        return;
    }
    Suggest sg;
    suggest_init(&sg, n->name);
    for (const Builtin *bt = builtin_table; bt->name; bt++) suggest_add(&sg, bt->name);
    suggest_symbols(c, &sg, BIT(SYM_FUNC) | BIT(SYM_TABLE));
    error_at(n->name_loc, "unknown function '%s'%s", n->name, suggest_text(&sg));
}

void resolve_expr(Checker *c, Node *n, const Ctx *ctx)
{
    if (!n) return;
    switch (n->kind) {
    case N_ELEM: case N_POS: case N_SUMIX: return;   /* resolved already */
    case N_NAME:
        if (!lookup(c, n->name, ctx) && is_inf_name(n->name)) {
            n->kind = N_NUM;
            n->num = INFINITY;
            n->text = "inf";
            return;
        }
        if (!strcmp(n->name, "i'")) {
            if (ctx->sum_loop) {
                n->kind = N_SUMIX;
                return;
            }
            error_at(n->loc, "i' is the index of sum(FIRST,LAST)of(EXPR) and means nothing outside one");
            return;
        }
        if (resolve_array_syntax(c, n, ctx)) return;   /* x[j+1] in an array line */
        c->origin = n->text;    /* set by expand.c for an array's element */
        n->sym = resolve_read(c, n->name, n->loc, ctx);
        c->origin = NULL;
        resolve_array_syntax(c, n, ctx);   /* an element named as a scalar */
        return;
    case N_NUM:
        resolve_array_syntax(c, n, ctx);   /* [j] in an array line */
        return;
    case N_CALL: resolve_call(c, n, ctx); return;
    case N_SUM: resolve_sum(c, n, ctx); return;
    case N_IF:
        resolve_expr(c, n->cond, ctx);
        resolve_expr(c, n->lhs, ctx);
        resolve_expr(c, n->rhs, ctx);
        return;
    default:
        resolve_expr(c, n->lhs, ctx);
        resolve_expr(c, n->rhs, ctx);
        return;
    }
}

/* Statements of a block: reads as in ctx, assignments limited to ctx->write. */
void resolve_block(Checker *c, Node *stmts, const Ctx *ctx)
{
    for (Node *s = stmts; s; s = s->next) {
        if (s->kind == S_IF) {
            resolve_expr(c, s->cond, ctx);
            resolve_block(c, s->body, ctx);
            resolve_block(c, s->els, ctx);
            continue;
        }
        if (s->kind != S_ASSIGN) continue;
        resolve_expr(c, s->rhs, ctx);
        Symbol *t = lookup(c, s->name, ctx);
        if (!t || (t->kind == SYM_COUNT && !ctx->event)) {
            Ctx w = *ctx;
            w.read = ctx->write;
            unknown_name(c, s->name, s->name_loc, &w);
            continue;
        }
        if (!(ctx->write & BIT(t->kind))) {
            error_at(s->name_loc, "'%s' is %s and cannot be assigned in %s: only %s may be assigned there",
                     s->name, kind_phrase(t->kind), ctx->where, ctx->write_what);
            continue;
        }
        if (t->kind == SYM_PARAM) t->assigned = c->m->params_assigned = true;
        s->sym = t;
    }
}

/* ------------------------------------------------------------------ contexts */


Ctx ctx_make(unsigned read, const char *where, const char *hint)
{
    Ctx x;
    memset(&x, 0, sizeof x);
    x.read = read;
    x.where = where;
    x.hint = hint;
    return x;
}


/* A constant option-like value: resolved with numbers only, then evaluated. */
bool const_value(Checker *c, Node *n, const char *what, double *out)
{
    int before = diag_error_count();
    Ctx x = ctx_make(READ_CONST, what, "; it must be a constant (numbers and `number`s)");
    resolve_expr(c, n, &x);
    if (diag_error_count() != before) return false;
    if (!eval_const(c, n, out)) {
        error_at(n->loc, "%s must be a constant", what);
        return false;
    }
    if (!isfinite(*out)) {
        error_at(n->loc, "%s is not a finite number", what);
        return false;
    }
    return true;
}


/* A parameter's value may be infinite (`par cap=inf`: XPPAUT reads it with
 * atof), not NaN. */
bool const_value_inf(Checker *c, Node *n, const char *what, double *out)
{
    if (n->kind == N_NAME && is_inf_name(n->name) && !symtab_get(&c->tab, n->name)) {
        *out = INFINITY;
        return true;
    }
    if (n->kind == N_NEG && n->lhs->kind == N_NAME && is_inf_name(n->lhs->name) && !symtab_get(&c->tab, n->lhs->name)) {
        *out = -INFINITY;
        return true;
    }
    return const_value(c, n, what, out);
}

/* ------------------------------------------------------------------ the definitions */

/* Does the expression depend on states, t, the window or aux (through the
 * temporaries it reads)?  `ok` marks the temporaries already known not to. */
static bool varies(const Node *n, const bool *param_only)
{
    if (!n) return false;
    if (n->kind == N_ELEM && n->sym && n->sym->kind != SYM_PARAM && n->sym->kind != SYM_DERIVED) return true;
    if (n->kind == N_NAME && n->sym) {
        switch (n->sym->kind) {
        case SYM_NUMBER: case SYM_PARAM: case SYM_DERIVED: case SYM_ARG: break;
        case SYM_TEMP: if (!param_only[n->sym->index]) return true; break;
        default: return true;
        }
    }
    if (n->kind == N_CALL && n->sym && n->sym->kind == SYM_FUNC && n->sym->nimplicit) return true;
    if (is_random_call(n)) return true;   /* drawn anew at every step */
    if (varies(n->lhs, param_only) || varies(n->rhs, param_only) || varies(n->cond, param_only)) return true;
    for (const Node *a = n->args; a; a = a->next)
        if (varies(a, param_only)) return true;
    return false;
}

/* Temporaries that depend on parameters only (`Ek=-77`, `tau=1/k`) are
 * derived parameters: computed once per system, and readable by user
 * functions (XPPAUT evaluates them at every step, with the same value). */
static void promote_constant_temps(Checker *c)
{
    Model *m = c->m;
    bool *param_only = arena_alloc(sizeof(bool) * (size_t)(m->ntemp + 1));
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < m->ntemp; i++)
            if (!param_only[i] && m->temps[i]->expr && !varies(m->temps[i]->expr, param_only))
                param_only[i] = changed = true;
    }
    int kept = 0;
    for (int i = 0; i < m->ntemp; i++) {
        Symbol *s = m->temps[i];
        if (param_only[i] && !s->is_array && s->kind == SYM_TEMP) {   /* (an array of them stays a temporary) */
            s->kind = SYM_DERIVED;
            s->index = m->nderived;
            PUSH(m->derived, m->nderived, s);
        } else {
            s->index = kept;
            m->temps[kept++] = s;
        }
    }
    m->ntemp = kept;
}

/* ------------------------------------------------------------------ functions that read values */

static bool implicit_has(const Symbol *f, const Symbol *s)
{
    for (int k = 0; k < f->nimplicit; k++)
        if (f->implicit[k] == s) return true;
    return false;
}

static void implicit_add(Symbol *f, Symbol *s)
{
    if (!implicit_has(f, s)) PUSH(f->implicit, f->nimplicit, s);
}

enum { MAX_CALL_DEPTH = 5000 };   /* as order.c's MAX_NESTING */

typedef struct ImplicitWalk {
    signed char *state;   /* by function index: 0 not yet, 1 being collected, 2 done */
    int depth;            /* functions being collected, nested */
} ImplicitWalk;

static void implicit_of(ImplicitWalk *w, Symbol *f);

/* The values n reads, into f's: names, and what the functions it calls read
 * (each function's collected once: f_i(u)=f_{i-1}(f_{i-1}(u)) would otherwise
 * walk 2^i bodies, as it did — issue 19, D7). */
static void implicit_walk(ImplicitWalk *w, Symbol *f, const Node *n)
{
    if (!n) return;
    if (n->kind == N_NAME && n->sym) {
        switch (n->sym->kind) {
        case SYM_STATE: case SYM_TEMP: case SYM_AUX: case SYM_TIME: case SYM_WINDOW: implicit_add(f, n->sym); break;
        default: break;
        }
    }
    if (n->kind == N_CALL && n->sym && n->sym->kind == SYM_FUNC && n->sym != f) {
        Symbol *g = n->sym;
        implicit_of(w, g);   /* (a cycle of calls, an error of the order pass: g's values so far) */
        for (int k = 0; k < g->nimplicit; k++) implicit_add(f, g->implicit[k]);
    }
    implicit_walk(w, f, n->lhs);
    implicit_walk(w, f, n->rhs);
    implicit_walk(w, f, n->cond);
    for (const Node *a = n->args; a; a = a->next) implicit_walk(w, f, a);
}

/* The values f's body reads, directly or in the bodies of the functions it
 * calls.  (Calls nested deeper than the order pass allows are an error there.) */
static void implicit_of(ImplicitWalk *w, Symbol *f)
{
    if (w->state[f->index] || w->depth >= MAX_CALL_DEPTH) return;
    w->state[f->index] = 1;
    w->depth++;
    implicit_walk(w, f, f->expr);
    w->depth--;
    w->state[f->index] = 2;
}

/* Function bodies first: what each reads decides where it may be called and
 * whether a temporary that calls it depends on parameters only.  A body reads
 * what a right-hand side reads, and aux (XPPAUT evaluates a function with the
 * current values; it refuses aux there, odegen lets events and hooks call such
 * a function). */
void resolve_functions(Checker *c)
{
    Model *m = c->m;
    for (int i = 0; i < m->nfunc; i++) {
        Ctx x = ctx_make((BIT(SYM_ARG) | READ_RHS | READ_NOISE | BIT(SYM_AUX)) & ~BIT(SYM_SPECIAL), "a function body",
                         "; a function may use its arguments, parameters, numbers, states, temporaries, aux and t");
        x.func = m->funcs[i];
        x.derivative = true;
        resolve_expr(c, m->funcs[i]->expr, &x);
    }
    ImplicitWalk w = {arena_alloc((size_t)m->nfunc + 1), 0};
    for (int i = 0; i < m->nfunc; i++) implicit_of(&w, m->funcs[i]);
}

void resolve_definitions(Checker *c)
{
    Model *m = c->m;
    Ctx x;
    c->defer_calls = true;   /* (the functions' bodies are resolved: resolve_functions, before the tables) */
    x = ctx_make(READ_PARAMS, "a derived parameter",
                 "; derived parameters are computed once per system, from parameters and numbers");
    for (int i = 0; i < m->nderived; i++) resolve_expr(c, m->derived[i]->expr, &x);
    x = ctx_make(READ_RHS | READ_NOISE, "a temporary",
                 "; temporaries may use states, parameters, other temporaries and t");
    x.team = true;
    x.derivative = true;
    for (int i = 0; i < m->ntemp; i++) {
        x.arr = m->temps[i]->array;   /* an array of them: j is the loop's index */
        resolve_expr(c, m->temps[i]->expr, &x);
    }
    x = ctx_make(READ_RHS | READ_NOISE, "a right-hand side",
                 "; aux quantities and accessories are for hooks and output, not for equations");
    x.team = true;
    x.derivative = true;
    for (int i = 0; i < m->nstate; i++) resolve_expr(c, m->states[i]->expr, &x);
    for (int i = 0; i < m->narray; i++)
        if (m->arrays[i].sym->kind == SYM_STATE) {
            x.arr = &m->arrays[i];
            resolve_expr(c, m->arrays[i].sym->expr, &x);
        }
    x = ctx_make(READ_RHS | READ_NOISE, "an aux quantity", "; an aux may use states, parameters, temporaries and t");
    for (int i = 0; i < m->naux; i++) resolve_expr(c, m->aux[i]->expr, &x);
    for (int i = 0; i < m->narray; i++)
        if (m->arrays[i].sym->kind == SYM_AUX) {
            x.arr = &m->arrays[i];
            resolve_expr(c, m->arrays[i].sym->expr, &x);
        }
    x = ctx_make(READ_BLOCK & ~BIT(SYM_ACC), "an accessory's initial value",
                 "; accessories start from states, parameters, t0 and t1");
    for (int i = 0; i < m->nacc; i++) resolve_expr(c, m->accs[i]->expr, &x);
    if (diag_error_count() == 0) promote_constant_temps(c);
    c->defer_calls = false;
    /* a temporary of parameters only is a derived parameter now: not a value a call passes */
    for (int i = 0; i < m->nfunc; i++) {
        Symbol *f = m->funcs[i];
        int kept = 0;
        for (int k = 0; k < f->nimplicit; k++)
            if (f->implicit[k]->kind != SYM_DERIVED) f->implicit[kept++] = f->implicit[k];
        f->nimplicit = kept;
    }
    for (int i = 0; i < c->npending; i++) check_implicit(c->pending[i].f, c->pending[i].call, &c->pending[i].ctx);
}

/* XPPAUT 6.11 reads a par, number or init value as C's atof reads it: the
 * number it starts with (`2*3` is 2, `pi` is 0).  Say so where that differs
 * from the value odegen computes; and XPPAUT 6.11 cannot read a line with
 * blanks around the '=' ("Empty parameter - remove spaces"). */
