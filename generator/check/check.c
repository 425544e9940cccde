/* check.c — the checks: from the syntax tree to a checked model (model.h).
 *
 * Every problem is reported (diag.h) and counted; checking goes on after an
 * error so that one run shows them all.  The passes, in order:
 *   declare    every declaration becomes a symbol (duplicates, reserved names)
 *   resolve    every name in every expression and block is looked up in the
 *              context it appears in (what may be read, what may be assigned)
 *   order      temporaries, derived parameters, numbers and functions are
 *              sorted by dependency (cycles are errors)
 *   values     constants are evaluated: numbers, parameter defaults, initial values
 *   the rest   events, hooks, tolerances, scans, repetitions, records, options
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/builtins.h"
#include "front/diag.h"
#include "front/expand.h"
#include "deriv/lyapunov.h"
#include "check/method.h"
#include "check/model.h"
#include "check/option_names.h"
#include "check/single.h"
#include "front/precedence.h"
#include "check/symtab.h"
#include "check/tables.h"
#include "base/util.h"

#define BIT(k) (1u << (k))

typedef struct Checker {
    Model *m;
    SymTab tab;
    Symbol *sym_pi, *sym_t, *sym_t0, *sym_t1, *sym_count;
    Loc last_loc;              /* end of the program, for messages about what is missing */
    /* eval_const beyond numbers: parameters at their defaults, derived
       parameters and user functions (eval_defaults), t (eval_t) */
    bool eval_defaults, eval_t;
    double t_value;
    const double *frame;       /* the arguments of the user function being evaluated */
    int calls;                 /* user functions being evaluated, nested */
    const char *origin;        /* the array element being resolved ("x[j+1] with j = 3"), or NULL */
    const char **refused;      /* names of refused statements (a map's x, wiener's w): not */
    int nrefused;              /* reported again as unknown where they are used */
} Checker;

/* `inf` as a number (XPPAUT reads it in parameter values, as C's atof does). */
static bool is_inf_name(const char *name)
{
    return name_eq(name, "inf") || name_eq(name, "infinity");
}

/* Where a name is being resolved: what may be read and assigned there. */
typedef struct Ctx {
    unsigned read;             /* BIT(SymKind) of readable kinds */
    unsigned write;            /* BIT(SymKind) of assignable kinds (blocks) */
    const char *where;         /* "a parameter's value", "'on step'" … */
    const char *hint;          /* added to "cannot be used" messages */
    const char *write_what;    /* "states and accessories" */
    Symbol *func;              /* inside a function: its arguments are in scope */
    Event *event;              /* inside an event's block: `count` is in scope */
    const char *also;          /* one more name to suggest for a typo (`arret`) */
} Ctx;

static const char *kind_phrase(SymKind k)
{
    switch (k) {
    case SYM_NUMBER: return "a number";
    case SYM_PARAM: return "a parameter";
    case SYM_DERIVED: return "a derived parameter";
    case SYM_STATE: return "a state";
    case SYM_TEMP: return "a temporary";
    case SYM_AUX: return "an aux quantity";
    case SYM_ACC: return "an accessory";
    case SYM_FUNC: return "a function";
    case SYM_EVENT: return "an event";
    case SYM_ARG: return "an argument";
    case SYM_TIME: return "the time";
    case SYM_WINDOW: return "a window bound";
    case SYM_COUNT: return "the event count";
    case SYM_TABLE: return "a table";
    case SYM_LYAP: return "a Lyapunov exponent (a field to record)";
    case SYM_PERIOD: return "the period (a field to record)";
    }
    return "a name";
}

/* ------------------------------------------------------------------ growable arrays */

#define PUSH(arr, n, item)                                                          \
    do {                                                                            \
        if (((n) & ((n) - 1)) == 0) {                                               \
            void *grown_ = arena_alloc(sizeof(*(arr)) * (size_t)((n) ? 2 * (n) : 4)); \
            if (n) memcpy(grown_, (arr), sizeof(*(arr)) * (size_t)(n));             \
            (arr) = grown_;                                                         \
        }                                                                           \
        (arr)[(n)++] = (item);                                                      \
    } while (0)

/* ------------------------------------------------------------------ suggestions */

/* The closest of the candidate names, if it is close enough to be a typo. */
typedef struct Suggest {
    const char *best;
    int dist;
    int line;           /* where the best one is declared (0: a keyword, a built-in) */
    const char *word;
} Suggest;

static void suggest_init(Suggest *s, const char *word)
{
    s->best = NULL;
    s->dist = 1000;
    s->line = 0;
    s->word = word;
}

static void suggest_add_at(Suggest *s, const char *cand, int line)
{
    if (!cand || name_eq(cand, s->word))
        return;
    int d = name_distance(s->word, cand);
    int len = (int)strlen(s->word);
    int limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    if (len == 1 && strlen(cand) == 1)
        return;     /* one letter is no typo of another ('a' for 'x') */
    if (d <= limit && d < s->dist) {
        s->dist = d;
        s->best = cand;
        s->line = line;
    }
}

static void suggest_add(Suggest *s, const char *cand) { suggest_add_at(s, cand, 0); }

/* "; did you mean 'kapa' (line 2)?": the line, so that a typo in the
 * declaration is found from the place that uses the right name. */
static const char *suggest_text(const Suggest *s)
{
    if (!s->best) return "";
    if (s->line > 0) return arena_printf("; did you mean '%s' (line %d)?", s->best, s->line);
    return arena_printf("; did you mean '%s'?", s->best);
}

static void suggest_symbols(Checker *c, Suggest *sg, unsigned kinds)
{
    for (int i = 0; i < c->m->nsyms; i++)
        if (kinds & BIT(c->m->syms[i]->kind))
            suggest_add_at(sg, c->m->syms[i]->name, c->m->syms[i]->loc.line);
}

/* A declaration that lost the blank after its keyword (`auxenergy=…` is a
 * temporary named auxenergy): "did you mean 'aux energy' (line 10)?". */
static void suggest_glued_keyword(Checker *c, Suggest *sg)
{
    static const char *const keywords[] = {"par", "param", "p", "number", "aux", "acc", NULL};
    size_t len = strlen(sg->word);
    for (int i = 0; i < c->m->nsyms && !sg->best; i++) {
        const Symbol *s = c->m->syms[i];
        size_t n = strlen(s->name);
        for (const char *const *k = keywords; *k && !sg->best; k++) {
            size_t kl = strlen(*k);
            if (n == kl + len && !strncasecmp(s->name, *k, kl) && name_eq(s->name + kl, sg->word)) {
                sg->best = arena_printf("%.*s %s", (int)kl, s->name, s->name + kl);
                sg->line = s->loc.line;
            }
        }
    }
}

/* ------------------------------------------------------------------ symbols */

static Symbol *new_symbol(SymKind kind, const char *name, Loc loc)
{
    Symbol *s = arena_alloc(sizeof *s);
    s->kind = kind;
    s->name = name;
    s->loc = loc;
    s->line = loc.line;
    return s;
}

static const char *const reserved_words[] = {"t", "pi", NULL};

/* Declares a user symbol; NULL (after an error) when the name is taken. */
static Symbol *declare(Checker *c, SymKind kind, const char *name, Loc loc)
{
    for (const char *const *r = reserved_words; *r; r++)
        if (name_eq(*r, name)) {
            error_at(loc, "'%s' is reserved: it is %s", name,
                     name_eq(name, "t") ? "the time" : "the number pi");
            return NULL;
        }
    if (builtin_find(name)) {
        error_at(loc, "'%s' is a built-in function and cannot be declared", name);
        return NULL;
    }
    Symbol *old = symtab_get(&c->tab, name);
    if (old) {
        error_at(loc, "'%s' is already declared at line %d (as %s)", name, old->loc.line,
                 kind_phrase(old->kind));
        return NULL;
    }
    Symbol *s = new_symbol(kind, name, loc);
    Model *m = c->m;
    switch (kind) {
    case SYM_NUMBER: s->index = m->nnumber; PUSH(m->numbers, m->nnumber, s); break;
    case SYM_PARAM: s->index = m->nparam; PUSH(m->params, m->nparam, s); break;
    case SYM_DERIVED: s->index = m->nderived; PUSH(m->derived, m->nderived, s); break;
    case SYM_STATE: s->index = m->nstate; PUSH(m->states, m->nstate, s); break;
    case SYM_TEMP: s->index = m->ntemp; PUSH(m->temps, m->ntemp, s); break;
    case SYM_AUX: s->index = m->naux; PUSH(m->aux, m->naux, s); break;
    case SYM_ACC: s->index = m->nacc; PUSH(m->accs, m->nacc, s); break;
    case SYM_FUNC: s->index = m->nfunc; PUSH(m->funcs, m->nfunc, s); break;
    default: break;
    }
    symtab_put(&c->tab, s);
    PUSH(m->syms, m->nsyms, s);
    return s;
}

/* ------------------------------------------------------------------ resolving names */

static void resolve_expr(Checker *c, Node *n, const Ctx *ctx);

static Symbol *lookup(Checker *c, const char *name, const Ctx *ctx)
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

static bool refused_name(const Checker *c, const char *name)
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
    if (s->kind == SYM_FUNC || s->kind == SYM_TABLE) {
        error_at(loc, "'%s' is a %s; call it as %s(…)", name, s->kind == SYM_TABLE ? "table" : "function", s->name);
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

static int list_length(const Node *n)
{
    int k = 0;
    for (; n; n = n->next) k++;
    return k;
}

static bool const_value(Checker *c, Node *n, const char *what, double *out);
static bool is_integer(double v);

/* XPPAUT's shift(NAME, N): the name declared N places after NAME.  odegen
 * moves within names of the same kind (states, parameters, …), in the order
 * of their declaration; N is a constant (i' inside a sum).  The call becomes
 * that name. */
static void resolve_shift(Checker *c, Node *n, const Ctx *ctx)
{
    if (list_length(n->args) != 2 || n->args->kind != N_NAME) {
        error_at(n->loc, "shift is written shift(NAME, N): the name N places after NAME");
        return;
    }
    Node *base = n->args;
    Symbol *from = resolve_read(c, base->name, base->loc, ctx);
    double k;
    if (!from || !const_value(c, base->next, "shift's offset", &k)) return;
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
    if (!const_value(c, n->args, "a sum's first index", &first) ||
        !const_value(c, n->args->next, "a sum's last index", &last))
        return;
    if (!is_integer(first) || !is_integer(last) || fabs(first) > 1e6 || fabs(last) > 1e6) {
        error_at(n->loc, "a sum's indices are whole numbers (of at most a million): sum(%g,%g)", first, last);
        return;
    }
    if (last - first >= 100000) {
        error_at(n->loc, "a sum of %.0f terms: odegen writes every term out, at most 100000", last - first + 1);
        return;
    }
    Node *terms = sum_expand(n, (long)first, (long)last);
    if (!terms) {
        error_at(n->loc, "the sums of this file write out more than 4 million terms");
        return;
    }
    Node *next = n->next;
    *n = *terms;
    n->next = next;
    n->paren = true;
    resolve_expr(c, n, ctx);
}

static void resolve_call(Checker *c, Node *n, const Ctx *ctx)
{
    int nargs = list_length(n->args);
    if (!lookup(c, n->name, ctx) && name_eq(n->name, "shift")) {   /* its first argument stays a name */
        resolve_shift(c, n, ctx);
        return;
    }
    for (Node *a = n->args; a; a = a->next)
        resolve_expr(c, a, ctx);
    Symbol *s = lookup(c, n->name, ctx);
    if (s && (s->kind == SYM_FUNC || s->kind == SYM_TABLE)) {
        int want = s->kind == SYM_TABLE ? 1 : s->nargs;
        if (!(ctx->read & BIT(SYM_FUNC)))
            error_at(n->name_loc, "%s '%s' cannot be called in %s", s->kind == SYM_TABLE ? "table" : "function",
                     n->name, ctx->where);
        else if (nargs != want)
            error_at(n->loc, "'%s' takes %d argument%s, not %d", s->name, want, want == 1 ? "" : "s", nargs);
        n->sym = s;
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

static void resolve_expr(Checker *c, Node *n, const Ctx *ctx)
{
    if (!n) return;
    switch (n->kind) {
    case N_NUM: return;
    case N_NAME:
        if (!lookup(c, n->name, ctx) && is_inf_name(n->name)) {
            n->kind = N_NUM;
            n->num = INFINITY;
            n->text = "inf";
            return;
        }
        if (!strcmp(n->name, "i'")) {
            error_at(n->loc, "i' is the index of sum(FIRST,LAST)of(EXPR) and means nothing outside one");
            return;
        }
        c->origin = n->text;    /* set by expand.c for an array's element */
        n->sym = resolve_read(c, n->name, n->loc, ctx);
        c->origin = NULL;
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
static void resolve_block(Checker *c, Node *stmts, const Ctx *ctx)
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
            if (t->kind == SYM_PARAM)
                error_at(s->name_loc,
                         "'%s' is a parameter and cannot be assigned; keep a value that changes "
                         "in an accessory (acc NAME)", s->name);
            else
                error_at(s->name_loc, "'%s' is %s and cannot be assigned in %s: only %s may be assigned there",
                         s->name, kind_phrase(t->kind), ctx->where, ctx->write_what);
            continue;
        }
        s->sym = t;
    }
}

/* ------------------------------------------------------------------ contexts */

#define READ_CONST (BIT(SYM_NUMBER))
#define READ_PARAMS (READ_CONST | BIT(SYM_PARAM) | BIT(SYM_DERIVED) | BIT(SYM_FUNC))
#define READ_RHS (READ_PARAMS | BIT(SYM_STATE) | BIT(SYM_TEMP) | BIT(SYM_TIME) | BIT(SYM_WINDOW))
#define READ_BLOCK (READ_RHS | BIT(SYM_AUX) | BIT(SYM_ACC))

static Ctx ctx_make(unsigned read, const char *where, const char *hint)
{
    Ctx x;
    memset(&x, 0, sizeof x);
    x.read = read;
    x.where = where;
    x.hint = hint;
    return x;
}

/* ------------------------------------------------------------------ constants */

static bool eval_const(Checker *c, const Node *n, double *out);

static bool eval_args(Checker *c, const Node *args, double *v, int max)
{
    int k = 0;
    for (const Node *a = args; a; a = a->next) {
        if (k >= max || !eval_const(c, a, &v[k])) return false;
        k++;
    }
    return true;
}

/* Value of an expression of numbers (already resolved); false if it is not
 * constant (the reason was reported while resolving). */
static bool eval_const(Checker *c, const Node *n, double *out)
{
    double a, b;
    switch (n->kind) {
    case N_NUM: *out = n->num; return true;
    case N_NAME:
        if (!n->sym) return false;
        switch (n->sym->kind) {
        case SYM_NUMBER: *out = n->sym->value; return true;
        case SYM_PARAM: *out = n->sym->value; return c->eval_defaults;
        case SYM_DERIVED: *out = n->sym->value; return c->eval_defaults && n->sym->value_known;
        case SYM_ARG: *out = c->frame ? c->frame[n->sym->index] : 0; return c->frame != NULL;
        case SYM_TIME: *out = c->t_value; return c->eval_t;
        default: return false;
        }
    case N_NEG: if (!eval_const(c, n->lhs, &a)) return false; *out = -a; return true;
    case N_NOT: if (!eval_const(c, n->lhs, &a)) return false; *out = a == 0; return true;
    case N_IF:
        if (!eval_const(c, n->cond, &a)) return false;
        return eval_const(c, a != 0 ? n->lhs : n->rhs, out);
    case N_CALL: {
        if (n->sym && n->sym->kind == SYM_TABLE) {
            double x;
            if (!eval_const(c, n->args, &x)) return false;
            *out = table_value(&c->m->tables[n->sym->table], x);
            return true;
        }
        if (n->sym && n->sym->kind == SYM_FUNC) {   /* at the default parameters only */
            double *args = arena_alloc(sizeof(double) * (size_t)(n->sym->nargs + 1));
            if (!c->eval_defaults || !n->sym->expr || c->calls > 200 || !eval_args(c, n->args, args, n->sym->nargs))
                return false;
            const double *saved = c->frame;
            c->frame = args;
            c->calls++;     /* functions calling functions: a bounded depth */
            bool ok = eval_const(c, n->sym->expr, out);
            c->calls--;
            c->frame = saved;
            return ok;
        }
        const Builtin *bt = builtin_find(n->name);
        double v[2];
        if (n->sym || !bt || list_length(n->args) != bt->nargs || !eval_args(c, n->args, v, 2))
            return false;
        const char *f = bt->c_double;
        if (!strcmp(f, "sin")) *out = sin(v[0]);
        else if (!strcmp(f, "cos")) *out = cos(v[0]);
        else if (!strcmp(f, "tan")) *out = tan(v[0]);
        else if (!strcmp(f, "asin")) *out = asin(v[0]);
        else if (!strcmp(f, "acos")) *out = acos(v[0]);
        else if (!strcmp(f, "atan")) *out = atan(v[0]);
        else if (!strcmp(f, "atan2")) *out = atan2(v[0], v[1]);
        else if (!strcmp(f, "sinh")) *out = sinh(v[0]);
        else if (!strcmp(f, "cosh")) *out = cosh(v[0]);
        else if (!strcmp(f, "tanh")) *out = tanh(v[0]);
        else if (!strcmp(f, "exp")) *out = exp(v[0]);
        else if (!strcmp(f, "log")) *out = log(v[0]);
        else if (!strcmp(f, "log10")) *out = log10(v[0]);
        else if (!strcmp(f, "sqrt")) *out = sqrt(v[0]);
        else if (!strcmp(f, "fabs")) *out = fabs(v[0]);
        else if (!strcmp(f, "ode_heav")) *out = v[0] >= 0;
        else if (!strcmp(f, "ode_sign")) *out = (v[0] > 0) - (v[0] < 0);
        else if (!strcmp(f, "floor")) *out = floor(v[0]);
        else if (!strcmp(f, "ceil")) *out = ceil(v[0]);
        else if (!strcmp(f, "ode_mod")) { double r = fmod(v[0], v[1]); *out = r < 0 ? r + v[1] : r; }
        else if (!strcmp(f, "fmax")) *out = fmax(v[0], v[1]);
        else if (!strcmp(f, "fmin")) *out = fmin(v[0], v[1]);
        else if (!strcmp(f, "erf")) *out = erf(v[0]);
        else if (!strcmp(f, "erfc")) *out = erfc(v[0]);
        else return false;
        return true;
    }
    default: break;
    }
    if (!n->lhs || !n->rhs || !eval_const(c, n->lhs, &a) || !eval_const(c, n->rhs, &b))
        return false;
    switch (n->kind) {
    case N_ADD: *out = a + b; return true;
    case N_SUB: *out = a - b; return true;
    case N_MUL: *out = a * b; return true;
    case N_DIV: *out = a / b; return true;
    case N_POW: *out = pow(a, b); return true;
    case N_LT: *out = a < b; return true;
    case N_GT: *out = a > b; return true;
    case N_LE: *out = a <= b; return true;
    case N_GE: *out = a >= b; return true;
    case N_EQ: *out = a == b; return true;
    case N_NE: *out = a != b; return true;
    case N_AND: *out = a != 0 && b != 0; return true;
    case N_OR: *out = a != 0 || b != 0; return true;
    default: return false;
    }
}

/* A constant option-like value: resolved with numbers only, then evaluated. */
static bool const_value(Checker *c, Node *n, const char *what, double *out)
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

static bool is_integer(double v) { return v == floor(v) && fabs(v) < 9.0e18; }

/* A parameter's value may be infinite (`par cap=inf`: XPPAUT reads it with
 * atof), not NaN. */
static bool const_value_inf(Checker *c, Node *n, const char *what, double *out)
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

/* ------------------------------------------------------------------ dependency order */

/* The symbols of `kind` an expression reads, in the order of a depth-first
 * walk, repeats included (the walk is as deep as the expression, which the
 * parser bounds). */
static void deps_of_at(const Node *n, SymKind kind, Symbol ***deps, int *ndeps, int calls)
{
    if (!n) return;
    if ((n->kind == N_NAME || n->kind == N_CALL) && n->sym && n->sym->kind == kind) PUSH(*deps, *ndeps, n->sym);
    /* a derived parameter that calls a function needs what the function reads */
    if (kind == SYM_DERIVED && n->kind == N_CALL && n->sym && n->sym->kind == SYM_FUNC && calls < 64)
        deps_of_at(n->sym->expr, kind, deps, ndeps, calls + 1);
    deps_of_at(n->lhs, kind, deps, ndeps, calls);
    deps_of_at(n->rhs, kind, deps, ndeps, calls);
    deps_of_at(n->cond, kind, deps, ndeps, calls);
    for (const Node *a = n->args; a; a = a->next) deps_of_at(a, kind, deps, ndeps, calls);
}

static void deps_of(const Node *n, SymKind kind, Symbol ***deps, int *ndeps)
{
    deps_of_at(n, kind, deps, ndeps, 0);
}

/* One symbol on the depth-first path, and where it is in its dependencies. */
typedef struct Frame {
    Symbol *s;
    Symbol **deps;
    int ndeps, next;
} Frame;

static Frame frame_for(Symbol *s, SymKind kind)
{
    Frame f = {s, NULL, 0, 0};
    deps_of(s->expr, kind, &f.deps, &f.ndeps);
    return f;
}

/* A cycle through s, the path being stack[0..top]: named from s around to s. */
static void cycle_error(const Frame *stack, int top, const Symbol *s)
{
    int start = top;
    while (start > 0 && stack[start].s != s) start--;
    const char *path = "";
    for (int i = start; i <= top; i++) {
        if (strlen(path) > 400) {
            path = arena_printf("%s… → ", path);
            break;
        }
        path = arena_printf("%s%s → ", path, stack[i].s->name);
    }
    error_at(s->loc, "'%s' depends on itself: %s%s", s->name, path, s->name);
}

/* Sorts syms (all the symbols of `kind`) so that each comes after those it
 * uses; a cycle is an error (and the order is left as it was).  Depth-first,
 * with an explicit stack: a chain of thousands of definitions is no deeper
 * for the C stack than one. */
static void topo_sort(Checker *c, Symbol **syms, int n, SymKind kind)
{
    (void)c;
    if (!n) return;
    Symbol **out = arena_alloc(sizeof(Symbol *) * (size_t)n);
    Frame *stack = arena_alloc(sizeof(Frame) * (size_t)(n + 1));
    int nout = 0;
    for (int i = 0; i < n; i++) {
        if (syms[i]->visiting) continue;
        int top = 0;
        syms[i]->visiting = 1;
        stack[0] = frame_for(syms[i], kind);
        while (top >= 0) {
            Frame *f = &stack[top];
            if (f->next < f->ndeps) {
                Symbol *d = f->deps[f->next++];
                if (d->visiting == 2) continue;
                if (d->visiting == 1) {
                    cycle_error(stack, top, d);
                    d->visiting = 2;
                    continue;
                }
                if (top + 1 > n) continue;   /* not one of syms: cannot happen */
                d->visiting = 1;
                stack[++top] = frame_for(d, kind);
                continue;
            }
            if (f->s->visiting == 1) {
                f->s->visiting = 2;
                f->s->order = nout;
                out[nout++] = f->s;
            }
            top--;
        }
    }
    if (nout == n) memcpy(syms, out, sizeof(Symbol *) * (size_t)n);
}

/* How deep the emitter's walks go (emit.c refs_expr, emit_trig.c): they
 * follow each temporary an expression reads into its definition.  `depth`
 * holds, by declaration index, that depth for the temporaries done so far. */
static int walk_depth(const Node *n, int here, const int *depth)
{
    int best = here;
    if (n->kind == N_NAME && n->sym && n->sym->kind == SYM_TEMP) best = here + depth[n->sym->index];
    const Node *one[] = {n->lhs, n->rhs, n->cond};
    for (int i = 0; i < 3; i++)
        if (one[i]) {
            int d = walk_depth(one[i], here + 1, depth);
            if (d > best) best = d;
        }
    for (const Node *a = n->args; a; a = a->next) {
        int d = walk_depth(a, here + 1, depth);
        if (d > best) best = d;
    }
    return best;
}

enum { MAX_NESTING = 5000 };   /* as parser.y's MAX_DEPTH for one statement */

/* Temporaries defined through a chain of temporaries nested deeper than
 * MAX_NESTING are refused: no pass may run out of stack.  After topo_sort. */
static void check_nesting(Checker *c)
{
    Model *m = c->m;
    int *depth = arena_alloc(sizeof(int) * (size_t)(m->ntemp + 1));
    Symbol *const *lists[] = {m->temps, m->aux};
    int counts[] = {m->ntemp, m->naux};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < counts[k]; i++) {
            Symbol *s = lists[k][i];
            int d = s->expr ? walk_depth(s->expr, 1, depth) : 0;
            if (s->kind == SYM_TEMP) depth[s->index] = d;
            if (d > MAX_NESTING) {
                error_at(s->loc, "'%s' is defined through temporaries nested more than %d levels deep",
                         s->name, MAX_NESTING);
                return;
            }
        }
}

/* ------------------------------------------------------------------ pass 1: declare */

static void declare_function(Checker *c, Node *d)
{
    Symbol *f = declare(c, SYM_FUNC, d->name, d->name_loc);
    if (!f) return;
    f->expr = d->rhs;
    f->expr_line = d->loc;
    f->nargs = list_length(d->args);
    f->args = arena_alloc(sizeof(Symbol *) * (size_t)(f->nargs + 1));
    int k = 0;
    for (Node *a = d->args; a; a = a->next) {
        for (int j = 0; j < k; j++)
            if (name_eq(f->args[j]->name, a->name))
                error_at(a->loc, "argument '%s' is repeated", a->name);
        Symbol *arg = new_symbol(SYM_ARG, a->name, a->loc);
        arg->index = k;
        f->args[k++] = arg;
    }
}

/* `name(args) = rhs`: a function, an initial value x(0)=…, or an XPPAUT map. */
static void declare_calldef(Checker *c, Node *d, Node **inits)
{
    bool all_names = true;
    for (Node *a = d->args; a; a = a->next)
        if (a->kind != N_NAME) all_names = false;
    if (all_names && d->args) {
        declare_function(c, d);
        return;
    }
    if (d->args && !d->args->next && d->args->kind == N_NUM) {
        if (d->args->num != 0) {
            error_at(d->args->loc, "an initial value is written %s(0)=…", d->name);
            return;
        }
        Node *item = ast_assign(d->loc, d->name_loc, d->name, d->rhs);
        *inits = ast_append(*inits, item);
        return;
    }
    if (!d->args) {
        error_at(d->loc, "a function needs at least one argument: %s(x)=…", d->name);
        return;
    }
    error_at(d->args->loc, "maps %s(t+1)=… (discrete-time systems) are not supported: odegen integrates ODEs "
                           "(a map can be iterated with `repeat` and `on end { %s = … }`)", d->name, d->name);
    PUSH(c->refused, c->nrefused, d->name);
}

/* The names a refused statement declares (`wiener w1 w2`, `markov z 2`,
 * `special c=…`, `solv y=…`), from its line. */
static void refuse_names(Checker *c, const Node *d)
{
    if (strcmp(d->name, "wiener") && strcmp(d->name, "markov") && strcmp(d->name, "special") &&
        strcmp(d->name, "solve") && strcmp(d->name, "volterra"))
        return;
    Loc line = {d->loc.line, 1, d->loc.line, 1 << 20};
    const char *p = diag_source_text(line);
    while (*p == ' ' || *p == '\t') p++;
    while (*p && *p != ' ' && *p != '\t') p++;    /* the statement's word */
    for (;;) {
        while (*p && !isalpha((unsigned char)*p) && *p != '_' && *p != '#') p++;
        if (!*p || *p == '#') return;
        const char *start = p;
        while (isalnum((unsigned char)*p) || *p == '_') p++;
        PUSH(c->refused, c->nrefused, arena_strndup(start, (size_t)(p - start)));
        if (strcmp(d->name, "wiener")) return;      /* the others declare one name */
    }
}

/* XPPAUT statements odegen does not run: what they are, and what to do instead. */
static void unsupported_statement(const Node *d)
{
    static const struct { const char *name, *why; } table[] = {
        {"0=", "algebraic equations (0=…, a DAE) are not supported: odegen integrates ODEs; solve the "
               "constraint for one variable and write it as a temporary (x=…), or differentiate it into an ODE"},
        {"solve", "XPPAUT's solve (the unknowns of a DAE) is not supported: odegen integrates ODEs; write "
                  "the unknown as a temporary (x=…) solved by hand, or as an ODE"},
        {"wiener", "Wiener processes (wiener) are not supported: odegen integrates deterministic ODEs "
                   "(run the noisy model in XPPAUT, or replace the noise by a deterministic forcing)"},
        {"markov", "Markov chains (markov) are not supported: odegen integrates deterministic ODEs "
                   "(write the chain's mean-field equations as ODEs)"},
        {"bdry", "boundary-value problems (bdry) are not supported: odegen integrates initial-value problems "
                 "(scan the unknown initial values and record the boundary residual: shooting)"},
        {"volterra", "Volterra equations (volt, int[…]) are not supported: write the integral as extra ODEs "
                     "(an exponential kernel is one more state)"},
        {"special", "XPPAUT's special functions (special f=conv(…), sparse(…), …) are not supported: write the "
                    "sums out, with sum(…)of(…) or arrays x[1..n]"},
        {"export", "export (XPPAUT's link to compiled C code) is not supported: write the function as an "
                   "expression, a table or a user function"},
        {"vector", "XPPAUT's vector statement is not supported: write the components out (arrays x[1..n] are "
                   "expanded)"},
        {"group", "XPPAUT's group statement is not supported"},
        {"options", "XPPAUT options files (option NAME) are not read: copy their @ lines into this file"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(d->name, table[i].name)) {
            error_at(d->loc, "%s", table[i].why);
            return;
        }
    error_at(d->loc, "XPPAUT '%s' statements are not supported by odegen", d->name);
}

/* `aux x=…` where x is a temporary: XPPAUT warns "duplicate name" and
 * writes the aux's column; the name in expressions stays the temporary. */
static void declare_shadowing_aux(Checker *c, Node *d, Symbol *temp)
{
    Model *m = c->m;
    note_at(d->name_loc, "aux '%s' has the name of the temporary of line %d (XPPAUT warns \"duplicate name\" "
                         "and runs): the aux is written as a column, the name in expressions is the temporary",
            d->name, temp->loc.line);
    Symbol *s = new_symbol(SYM_AUX, d->name, d->name_loc);
    s->shadowed = true;
    s->expr = d->rhs;
    s->expr_line = d->loc;
    s->index = m->naux;
    PUSH(m->aux, m->naux, s);
    PUSH(m->syms, m->nsyms, s);
}

static void declare_table(Checker *c, Node *d)
{
    Model *m = c->m;
    Symbol *s = declare(c, SYM_TABLE, d->name, d->name_loc);
    if (!s) return;
    Table t;
    memset(&t, 0, sizeof t);
    t.sym = s;
    t.line = d->loc.line;
    s->table = m->ntable;
    s->expr = d->rhs;
    s->expr_line = d->loc;
    PUSH(m->tables, m->ntable, t);
}

static void declare_all(Checker *c, const Program *prog, Node **inits)
{
    /* aux last: an aux may share its name with a temporary declared below it */
    for (int pass = 0; pass < 2; pass++)
    for (Node *d = prog->decls; d; d = d->next) {
        Symbol *s;
        c->last_loc = d->loc;
        if ((d->kind == D_AUX) != (pass == 1)) continue;
        switch (d->kind) {
        case D_PAR:
        case D_NUMBER:
            for (Node *it = d->items; it; it = it->next) {
                s = declare(c, d->kind == D_PAR ? SYM_PARAM : SYM_NUMBER, it->name, it->name_loc);
                if (s) { s->expr = it->rhs; s->expr_line = it->loc; }
            }
            break;
        case D_INIT:
            for (Node *it = d->items; it; it = it->next) {
                Node *item = ast_assign(it->loc, it->name_loc, it->name, it->rhs);
                item->spaced = it->spaced;
                *inits = ast_append(*inits, item);
            }
            break;
        case D_AUX:
            s = symtab_get(&c->tab, d->name);
            if (s && s->kind == SYM_TEMP) {
                declare_shadowing_aux(c, d, s);
                break;
            }
            /* fall through */
        case D_DERIVED:
        case D_TEMP:
            s = declare(c, d->kind == D_DERIVED ? SYM_DERIVED : d->kind == D_TEMP ? SYM_TEMP : SYM_AUX,
                        d->name, d->name_loc);
            if (s) { s->expr = d->rhs; s->expr_line = d->loc; }
            break;
        case D_ODE:
            s = declare(c, SYM_STATE, d->name, d->name_loc);
            if (s) { s->expr = d->rhs; s->expr_line = d->loc; }
            break;
        case D_CALLDEF:
            declare_calldef(c, d, inits);
            break;
        case D_ACC:
            for (Node *it = d->items; it; it = it->next) {
                s = declare(c, SYM_ACC, it->name, it->name_loc);
                if (s) { s->expr = it->rhs; s->expr_line = it->loc; }
            }
            break;
        case D_EVENT:
            if (name_eq(d->name, "start") || name_eq(d->name, "step") || name_eq(d->name, "end")) {
                error_at(d->name_loc, "'%s' cannot name an event: 'on %s' is a hook", d->name, d->name);
                break;
            }
            declare(c, SYM_EVENT, d->name, d->name_loc);
            break;
        case D_TABLE:
            declare_table(c, d);
            break;
        case D_UNSUPPORTED:
            unsupported_statement(d);
            refuse_names(c, d);
            break;
        case D_IGNORED:
            note_at(d->loc, "XPPAUT's '%s' statement is ignored (it chooses what XPPAUT stores; odegen writes "
                            "what `record` lists)", d->name);
            break;
        default:
            break;
        }
    }
}

/* ------------------------------------------------------------------ pass 2: expressions */

/* Does the expression depend on states, t, the window or aux (through the
 * temporaries it reads)?  `ok` marks the temporaries already known not to. */
static bool varies(const Node *n, const bool *param_only)
{
    if (!n) return false;
    if (n->kind == N_NAME && n->sym) {
        switch (n->sym->kind) {
        case SYM_NUMBER: case SYM_PARAM: case SYM_DERIVED: case SYM_ARG: break;
        case SYM_TEMP: if (!param_only[n->sym->index]) return true; break;
        default: return true;
        }
    }
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
        if (param_only[i]) {
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

static void resolve_definitions(Checker *c)
{
    Model *m = c->m;
    Ctx x;
    x = ctx_make(READ_PARAMS, "a derived parameter",
                 "; derived parameters are computed once per system, from parameters and numbers");
    for (int i = 0; i < m->nderived; i++) resolve_expr(c, m->derived[i]->expr, &x);
    x = ctx_make(READ_RHS, "a temporary",
                 "; temporaries may use states, parameters, other temporaries and t");
    for (int i = 0; i < m->ntemp; i++) resolve_expr(c, m->temps[i]->expr, &x);
    x = ctx_make(READ_RHS, "a right-hand side",
                 "; aux quantities and accessories are for hooks and output, not for equations");
    for (int i = 0; i < m->nstate; i++) resolve_expr(c, m->states[i]->expr, &x);
    x = ctx_make(READ_RHS, "an aux quantity", "; an aux may use states, parameters, temporaries and t");
    for (int i = 0; i < m->naux; i++) resolve_expr(c, m->aux[i]->expr, &x);
    x = ctx_make(READ_BLOCK & ~BIT(SYM_ACC), "an accessory's initial value",
                 "; accessories start from states, parameters, t0 and t1");
    for (int i = 0; i < m->nacc; i++) resolve_expr(c, m->accs[i]->expr, &x);
    if (diag_error_count() == 0) promote_constant_temps(c);
    for (int i = 0; i < m->nfunc; i++) {
        x = ctx_make(BIT(SYM_ARG) | READ_PARAMS, "a function body",
                     "; a function may use its arguments, parameters, numbers and temporaries that depend on "
                     "parameters only (pass other values as arguments)");
        x.func = m->funcs[i];
        resolve_expr(c, m->funcs[i]->expr, &x);
    }
}

/* XPPAUT 6.11 reads a par, number or init value as C's atof reads it: the
 * number it starts with (`2*3` is 2, `pi` is 0).  Say so where that differs
 * from the value odegen computes; and XPPAUT 6.11 cannot read a line with
 * blanks around the '=' ("Empty parameter - remove spaces"). */
static void note_xppaut_value(const Node *it, const char *what, double value, bool constant)
{
    if (it->spaced)
        note_at(it->loc, "blanks around '=': XPPAUT 6.11 cannot read this %s (\"remove spaces\"); odegen reads "
                         "%s=%s", what, it->name, diag_source_text(it->rhs->loc));
    const char *text = diag_source_text(it->rhs->loc);
    double xpp = strtod(text, NULL);
    if (xpp == value || (xpp != xpp && value != value) || strchr(text, '['))
        return;     /* (XPPAUT writes array lines out before it reads them: x[1..3](0)=[j] is right) */
    if (constant)
        note_at(it->rhs->loc, "XPPAUT 6.11 reads only the number this %s starts with (%g); odegen computes "
                              "all of it (%.10g)", what, xpp, value);
    else
        note_at(it->rhs->loc, "XPPAUT 6.11 reads only the number this %s starts with (%g); odegen computes "
                              "it for each system from its parameters", what, xpp);
}

/* Numbers may use numbers.  Evaluated before the other expressions are
 * resolved: sums and tables need them. */
static void evaluate_numbers(Checker *c)
{
    Model *m = c->m;
    Ctx x = ctx_make(READ_CONST, "a number", "; a number is a constant made of numbers");
    bool *reported = arena_alloc(sizeof(bool) * (size_t)(m->nnumber + 1));   /* by declaration index */
    for (int i = 0; i < m->nnumber; i++) {
        int before = diag_error_count();
        if (!m->numbers[i]->expr) {
            note_at(m->numbers[i]->loc, "number '%s' has no value: 0, as XPPAUT reads it", m->numbers[i]->name);
            m->numbers[i]->expr = ast_num(m->numbers[i]->loc, "0");
        }
        resolve_expr(c, m->numbers[i]->expr, &x);
        reported[m->numbers[i]->index] = diag_error_count() != before;
    }
    topo_sort(c, m->numbers, m->nnumber, SYM_NUMBER);
    for (int i = 0; i < m->nnumber; i++) {
        Symbol *s = m->numbers[i];
        if (s->visiting == 2 && !eval_const(c, s->expr, &s->value) && !reported[s->index])
            error_at(s->expr->loc, "the value of number '%s' is not a constant", s->name);
    }
}

/* Parameters' default values are constants; initial values are constants
 * or expressions of parameters (computed per system when it is loaded). */
static void evaluate_values(Checker *c, const Program *prog)
{
    Model *m = c->m;
    for (int i = 0; i < m->nparam; i++) {
        Symbol *s = m->params[i];
        if (!s->expr) {
            note_at(s->loc, "parameter '%s' has no value: 0, as XPPAUT reads it", s->name);
            s->value = 0;
            continue;
        }
        const_value_inf(c, s->expr, "a parameter's value", &s->value);
    }
    if (diag_error_count() == 0)    /* what XPPAUT makes of the values of par and number */
        for (const Node *d = prog->decls; d; d = d->next)
            for (const Node *it = d->kind == D_PAR || d->kind == D_NUMBER ? d->items : NULL; it; it = it->next) {
                Symbol *s = symtab_get(&c->tab, it->name);
                if (s && it->rhs && s->expr == it->rhs) note_xppaut_value(it, "value", s->value, true);
            }
}

/* The derived parameters at the default parameters (for initial values that
 * read them), in their order: each reads the values before it, no deep walk. */
static void evaluate_derived_defaults(Checker *c)
{
    Model *m = c->m;
    c->eval_defaults = true;
    for (int i = 0; i < m->nderived; i++) {
        Symbol *s = m->derived_order[i];
        s->value_known = s->expr && eval_const(c, s->expr, &s->value);
    }
    c->eval_defaults = false;
}

/* Initial values: constants, or expressions of parameters computed for each
 * system when it is loaded (their value here: at the default parameters). */
static void evaluate_initial_values(Checker *c, Node *inits)
{
    Model *m = c->m;
    Ctx x = ctx_make(READ_PARAMS, "an initial value",
                     "; an initial value is made of numbers, parameters and derived parameters");
    for (Node *it = inits; it; it = it->next) {
        Symbol *s = symtab_get(&c->tab, it->name);
        if (!s && refused_name(c, it->name)) continue;
        if (!s) {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_symbols(c, &sg, BIT(SYM_STATE));
            error_at(it->name_loc, "initial value for '%s', which is not a state%s", it->name,
                     suggest_text(&sg));
            continue;
        }
        if (s->kind != SYM_STATE) {
            error_at(it->name_loc, "'%s' is %s (line %d); initial values are given to states", it->name,
                     kind_phrase(s->kind), s->loc.line);
            continue;
        }
        if (!it->rhs) {
            note_at(it->loc, "'%s' has no initial value here: 0, as XPPAUT reads it", it->name);
            s->value = 0;
            s->init_expr = NULL;
            continue;
        }
        int before = diag_error_count();
        resolve_expr(c, it->rhs, &x);
        if (diag_error_count() != before) continue;
        double v;
        bool constant = eval_const(c, it->rhs, &v);
        c->eval_defaults = true;
        bool at_defaults = constant || eval_const(c, it->rhs, &v);
        c->eval_defaults = false;
        if (!at_defaults) {
            error_at(it->rhs->loc, "an initial value must be a constant or an expression of parameters");
            continue;
        }
        if (!isfinite(v) && constant) {
            error_at(it->rhs->loc, "an initial value is not a finite number");
            continue;
        }
        s->value = v;
        s->init_expr = constant ? NULL : it->rhs;
        note_xppaut_value(it, "initial value", v, constant);
    }
    for (int i = 0; i < m->nstate; i++) m->ninit_expr += m->states[i]->init_expr != NULL;
}

/* ------------------------------------------------------------------ events and hooks */

static Ctx block_ctx(const char *where, unsigned write, const char *write_what, Event *ev)
{
    Ctx x = ctx_make(READ_BLOCK, where, NULL);
    x.write = write;
    x.write_what = write_what;
    x.event = ev;
    if (ev) x.read |= BIT(SYM_COUNT);
    return x;
}

static Event *new_event(Checker *c)
{
    Model *m = c->m;
    Event ev;
    memset(&ev, 0, sizeof ev);
    PUSH(m->events, m->nevent, ev);
    return &m->events[m->nevent - 1];
}

static void event_options(Checker *c, Event *ev, Node *items, bool shorthand)
{
    for (Node *it = items; it; it = it->next) {
        double v;
        if (name_eq(it->name, "dir")) {
            if (shorthand) {
                error_at(it->name_loc, "'A < B' and 'A > B' already give the direction; "
                                       "write 'A - B, dir=…' to choose another");
                continue;
            }
            if (!const_value(c, it->rhs, "an event's dir", &v)) continue;
            if (v != -1 && v != 0 && v != 1) error_at(it->rhs->loc, "dir must be -1, 0 or 1");
            else ev->dir = (int)v;
        } else if (name_eq(it->name, "tol")) {
            if (!const_value(c, it->rhs, "an event's tol", &v)) continue;
            if (!(v > 0)) error_at(it->rhs->loc, "tol must be positive");
            else ev->tol = v;
        } else if (name_eq(it->name, "stop")) {
            if (!const_value(c, it->rhs, "an event's stop", &v)) continue;
            if (!(v >= 0) || !is_integer(v) || v > 2147483647.0)
                error_at(it->rhs->loc, "stop must be a whole number (0: never stop)");
            else ev->stop = (int)v;
        } else {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_add(&sg, "dir");
            suggest_add(&sg, "tol");
            suggest_add(&sg, "stop");
            error_at(it->name_loc, "unknown event option '%s'%s (event options are dir, tol and stop)",
                     it->name, suggest_text(&sg));
        }
    }
}

static const char *EVENT_WRITE = "states and accessories";

static void check_event(Checker *c, Node *d)
{
    Symbol *sym = symtab_get(&c->tab, d->name);
    if (!sym || sym->kind != SYM_EVENT || sym->loc.line != d->name_loc.line ||
        sym->loc.col != d->name_loc.col)
        return;   /* its declaration failed and was reported */
    Event *ev = new_event(c);
    ev->sym = sym;
    sym->index = c->m->nevent - 1;
    ev->line = d->loc.line;
    ev->tol = 0;                 /* @ evtol, unless tol= says otherwise */
    Node *g = d->cond;
    bool shorthand = false;
    if (g->kind == N_LT || g->kind == N_LE || g->kind == N_GT || g->kind == N_GE) {
        ev->dir = (g->kind == N_LT || g->kind == N_LE) ? -1 : 1;
        g = ast_binary(N_SUB, g->loc, g->lhs, g->rhs);
        shorthand = true;
    } else if (g->kind == N_EQ) {
        g = ast_binary(N_SUB, g->loc, g->lhs, g->rhs);
    }
    ev->expr = g;
    Ctx x = ctx_make(READ_RHS | BIT(SYM_AUX), "an event's expression",
                     "; events are functions of t, states, parameters, temporaries and aux");
    resolve_expr(c, g, &x);
    event_options(c, ev, d->items, shorthand);
    ev->body = d->body;
    Ctx b = block_ctx(arena_printf("event '%s'", sym->name), BIT(SYM_STATE) | BIT(SYM_ACC), EVENT_WRITE, ev);
    resolve_block(c, d->body, &b);
}

/* XPPAUT `global SIGN {cond} {x=…; arret=1}`. */
static void check_global(Checker *c, Node *d)
{
    if (d->num == 0) {
        error_at(d->loc, "'global 0' means \"exactly zero\" in XPPAUT, which an integrator never sees; "
                         "write 'event NAME: EXPR, dir=0' for crossings in either direction");
        return;
    }
    if (d->num != 1 && d->num != -1) {
        error_at(d->loc, "the sign of a global must be 1 or -1");
        return;
    }
    Event *ev = new_event(c);
    int k = c->m->nevent;
    ev->sym = new_symbol(SYM_EVENT, arena_printf("global%d", k), d->loc);
    ev->sym->index = k - 1;
    ev->is_global = true;
    ev->line = d->loc.line;
    ev->dir = (int)d->num;
    ev->tol = 0;                 /* @ evtol: the same location as an event's */
    ev->expr = d->cond;
    Ctx x = ctx_make(READ_RHS | BIT(SYM_AUX), "a global's condition", NULL);
    resolve_expr(c, d->cond, &x);
    /* `arret=1` (XPPAUT's stop) becomes stop=1; the other assignments stay. */
    Node *kept = NULL;
    for (Node *s = d->body, *next; s; s = next) {
        next = s->next;
        s->next = NULL;
        double v;
        if (s->kind == S_ASSIGN && name_eq(s->name, "arret") && !symtab_get(&c->tab, "arret")) {
            if (const_value(c, s->rhs, "arret", &v) && v != 0) ev->stop = 1;
            continue;
        }
        kept = ast_append(kept, s);
    }
    ev->body = kept;
    Ctx b = block_ctx(arena_printf("the global of line %d", d->loc.line), BIT(SYM_STATE) | BIT(SYM_ACC),
                      EVENT_WRITE, ev);
    b.also = "arret";
    resolve_block(c, ev->body, &b);
}

static Node *append_list(Node *list, Node *more)
{
    if (!list) return more;
    Node *n = list;
    while (n->next) n = n->next;
    n->next = more;
    return list;
}

static void check_on(Checker *c, Node *d)
{
    Model *m = c->m;
    Hook *h = NULL;
    Ctx x;
    if (name_eq(d->name, "start")) {
        h = &m->on_start;
        x = block_ctx("'on start'", BIT(SYM_STATE) | BIT(SYM_ACC) | BIT(SYM_WINDOW),
                      "states, accessories, t0 and t1", NULL);
    } else if (name_eq(d->name, "end")) {
        h = &m->on_end;
        x = block_ctx("'on end'", BIT(SYM_STATE) | BIT(SYM_ACC) | BIT(SYM_WINDOW),
                      "states, accessories, t0 and t1", NULL);
    } else if (name_eq(d->name, "step")) {
        h = &m->on_step;
        x = block_ctx("'on step'", BIT(SYM_ACC), "accessories", NULL);
    }
    if (h) {
        resolve_block(c, d->body, &x);
        if (!h->body) h->line = d->loc.line;
        h->body = append_list(h->body, d->body);
        return;
    }
    for (int i = 0; i < m->nevent; i++) {
        Event *ev = &m->events[i];
        if (!ev->is_global && name_eq(ev->sym->name, d->name)) {
            x = block_ctx(arena_printf("'on %s'", ev->sym->name), BIT(SYM_STATE) | BIT(SYM_ACC),
                          EVENT_WRITE, ev);
            resolve_block(c, d->body, &x);
            ev->on_body = append_list(ev->on_body, d->body);
            return;
        }
    }
    Suggest sg;
    suggest_init(&sg, d->name);
    suggest_add(&sg, "start");
    suggest_add(&sg, "step");
    suggest_add(&sg, "end");
    for (int i = 0; i < m->nevent; i++)
        if (!m->events[i].is_global) suggest_add_at(&sg, m->events[i].sym->name, m->events[i].line);
    error_at(d->name_loc, "'on %s': no such event or hook%s (hooks are start, step and end)", d->name,
             suggest_text(&sg));
}

/* ------------------------------------------------------------------ tolerance, scan, repeat, record */

static void check_tolerance(Checker *c, Node *d)
{
    double rtol = -1, atol = -1, v;
    for (Node *it = d->items; it; it = it->next) {
        if (name_eq(it->name, "rtol") && const_value(c, it->rhs, "rtol", &v)) {
            if (!(v > 0)) error_at(it->rhs->loc, "rtol must be positive");
            else rtol = v;
        } else if (name_eq(it->name, "atol") && const_value(c, it->rhs, "atol", &v)) {
            if (!(v > 0)) error_at(it->rhs->loc, "atol must be positive");
            else atol = v;
        } else if (!name_eq(it->name, "rtol") && !name_eq(it->name, "atol")) {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_add(&sg, "rtol");
            suggest_add(&sg, "atol");
            error_at(it->name_loc, "unknown tolerance '%s'%s (write rtol=… and atol=…)", it->name,
                     suggest_text(&sg));
        }
    }
    for (Node *a = d->args; a; a = a->next) {
        Symbol *s = symtab_get(&c->tab, a->name);
        if (!s || s->kind != SYM_STATE) {
            Suggest sg;
            suggest_init(&sg, a->name);
            suggest_symbols(c, &sg, BIT(SYM_STATE));
            if (s) error_at(a->loc, "'%s' is %s; tolerances are given to states", a->name, kind_phrase(s->kind));
            else error_at(a->loc, "unknown state '%s'%s", a->name, suggest_text(&sg));
            continue;
        }
        if (rtol > 0) s->rtol = rtol;
        if (atol > 0) s->atol = atol;
    }
}

static void check_scan(Checker *c, Node *d)
{
    Model *m = c->m;
    Symbol *s = symtab_get(&c->tab, d->name);
    if (!s) {
        Suggest sg;
        suggest_init(&sg, d->name);
        suggest_symbols(c, &sg, BIT(SYM_PARAM) | BIT(SYM_STATE));
        if (!sg.best) suggest_glued_keyword(c, &sg);
        error_at(d->name_loc, "unknown name '%s'%s", d->name, suggest_text(&sg));
        return;
    }
    if (s->kind != SYM_PARAM && s->kind != SYM_STATE) {
        error_at(d->name_loc, "'%s' is %s; a scan varies a parameter or a state's initial value", d->name,
                 kind_phrase(s->kind));
        return;
    }
    for (int i = 0; i < m->nscan; i++)
        if (m->scans[i].target == s) {
            error_at(d->name_loc, "'%s' is already scanned at line %d", d->name, m->scans[i].line);
            return;
        }
    Node *f = d->rhs;
    Scan sc;
    memset(&sc, 0, sizeof sc);
    sc.target = s;
    sc.line = d->loc.line;
    if (!f || f->kind != N_CALL) {
        error_at(f ? f->loc : d->loc, "a scan is lin(first, last, n), log(first, last, n) or list(v1, v2, …)");
        return;
    }
    int nargs = list_length(f->args);
    if (name_eq(f->name, "list")) {
        if (nargs < 1) {
            error_at(f->loc, "list() needs at least one value");
            return;
        }
        sc.kind = SCAN_LIST;
        sc.n = nargs;
        sc.values = arena_alloc(sizeof(double) * (size_t)nargs);
        int k = 0;
        for (Node *a = f->args; a; a = a->next)
            if (!const_value(c, a, "a scan value", &sc.values[k++])) return;
    } else if (name_eq(f->name, "lin") || name_eq(f->name, "log")) {
        sc.kind = name_eq(f->name, "lin") ? SCAN_LIN : SCAN_LOG;
        if (nargs != 3) {
            error_at(f->loc, "%s() takes 3 arguments (first, last, n), not %d", f->name, nargs);
            return;
        }
        double n;
        if (!const_value(c, f->args, "a scan's first value", &sc.a) ||
            !const_value(c, f->args->next, "a scan's last value", &sc.b) ||
            !const_value(c, f->args->next->next, "a scan's count", &n))
            return;
        if (!(n >= 1) || !is_integer(n) || n > 4.0e18) {
            error_at(f->args->next->next->loc, "the number of values must be a whole number of at least 1");
            return;
        }
        sc.n = (long)n;
        if (sc.kind == SCAN_LOG && !(sc.a > 0 && sc.b > 0)) {
            error_at(f->loc, "a log scan needs two positive ends: [%g, %g] %s", sc.a, sc.b,
                     sc.a * sc.b <= 0 ? "contains 0" : "is negative");
            return;
        }
    } else {
        Suggest sg;
        suggest_init(&sg, f->name);
        suggest_add(&sg, "lin");
        suggest_add(&sg, "log");
        suggest_add(&sg, "list");
        error_at(f->name_loc, "unknown scan '%s'%s (scans are lin, log and list)", f->name, suggest_text(&sg));
        return;
    }
    PUSH(m->scans, m->nscan, sc);
}

/* table f % NPTS XLO XHI FORMULA: the formula at t = XLO + i (XHI - XLO) / (NPTS - 1);
 * table f FILE: the file's values. */
static void check_table(Checker *c, Node *d)
{
    Symbol *s = symtab_get(&c->tab, d->name);
    if (!s || s->kind != SYM_TABLE || s->loc.line != d->name_loc.line || s->loc.col != d->name_loc.col)
        return;   /* its declaration failed and was reported */
    Table *t = &c->m->tables[s->table];
    if (d->text && d->text[0] == '@') {
        error_at(d->loc, "XPPAUT's two-dimensional tables (table %s @ …) are not supported: write the function as "
                         "an expression, or as one-dimensional tables", d->name);
        return;
    }
    if (d->text) {
        table_read_file(t, c->m->path, d->text, d->loc);
        return;
    }
    const Node *np = d->items, *lo = np->next, *hi = lo->next;
    if (!(np->num >= 2 && np->num <= 10000000 && np->num == floor(np->num))) {
        error_at(np->loc, "a table has a whole number of values, at least 2 (table f %% NPTS XLO XHI FORMULA)");
        return;
    }
    if (!(lo->num < hi->num) || !isfinite(lo->num) || !isfinite(hi->num)) {
        error_at(lo->loc, "the table's range [%g, %g] must be finite and go upwards", lo->num, hi->num);
        return;
    }
    Ctx x = ctx_make(READ_CONST | BIT(SYM_TIME), "a table's formula",
                     "; a table's formula is a function of t (its x) and numbers: odegen computes it once, "
                     "when it translates the file");
    int before = diag_error_count();
    resolve_expr(c, d->rhs, &x);
    if (diag_error_count() != before) return;
    t->n = (int)np->num;
    t->xlo = lo->num;
    t->xhi = hi->num;
    t->dx = (hi->num - lo->num) / (np->num - 1);
    t->y = arena_alloc(sizeof(double) * (size_t)t->n);
    c->eval_t = true;
    for (int i = 0; i < t->n; i++) {
        c->t_value = t->dx * i + t->xlo;
        if (!eval_const(c, d->rhs, &t->y[i]) || !isfinite(t->y[i])) {
            error_at(d->rhs->loc, "the table's formula is not a finite number at t = %.17g", c->t_value);
            break;
        }
    }
    c->eval_t = false;
}

/* set NAME {a=1, x=0.5}: values of parameters and initial values, chosen
 * together with the runner's --set-name NAME. */
static void check_set(Checker *c, Node *d)
{
    Model *m = c->m;
    for (int i = 0; i < m->nset; i++)
        if (name_eq(m->sets[i].name, d->name)) {
            error_at(d->name_loc, "the set '%s' is already defined at line %d", d->name, m->sets[i].line);
            return;
        }
    ParamSet ps;
    memset(&ps, 0, sizeof ps);
    ps.name = d->name;
    ps.line = d->loc.line;
    int n = list_length(d->items);
    ps.targets = arena_alloc(sizeof(Symbol *) * (size_t)(n + 1));
    ps.values = arena_alloc(sizeof(double) * (size_t)(n + 1));
    for (Node *it = d->items; it; it = it->next) {
        Symbol *s = symtab_get(&c->tab, it->name);
        if (!s) {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_symbols(c, &sg, BIT(SYM_PARAM) | BIT(SYM_STATE));
            error_at(it->name_loc, "unknown name '%s'%s", it->name, suggest_text(&sg));
            continue;
        }
        if (s->kind != SYM_PARAM && s->kind != SYM_STATE) {
            error_at(it->name_loc, "'%s' is %s; a set gives values to parameters and initial values of states",
                     it->name, kind_phrase(s->kind));
            continue;
        }
        bool dup = false;
        for (int k = 0; k < ps.n; k++) dup |= ps.targets[k] == s;
        if (dup) {
            error_at(it->name_loc, "'%s' is given twice in the set '%s'", it->name, d->name);
            continue;
        }
        double v;
        if (!const_value(c, it->rhs, "a set's value", &v)) continue;
        ps.targets[ps.n] = s;
        ps.values[ps.n++] = v;
    }
    PUSH(m->sets, m->nset, ps);
}

static void check_repeat(Checker *c, Node *d, bool *seen)
{
    if (*seen) {
        error_at(d->loc, "'repeat' is given twice");
        return;
    }
    *seen = true;
    for (Node *it = d->items; it; it = it->next) {
        double v;
        bool tr = name_eq(it->name, "transient"), rec = name_eq(it->name, "record");
        if (!tr && !rec) {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_add(&sg, "transient");
            suggest_add(&sg, "record");
            error_at(it->name_loc, "unknown repeat option '%s'%s (write transient=N, record=M)", it->name,
                     suggest_text(&sg));
            continue;
        }
        if (!const_value(c, it->rhs, tr ? "transient" : "record", &v)) continue;
        if (!(v >= 0) || !is_integer(v) || v > 1e9) {
            error_at(it->rhs->loc, "%s must be a whole number from 0 to 10^9", it->name);
            continue;
        }
        if (tr) c->m->transient = (long)v;
        else c->m->record = (long)v;
    }
}

/* `save every=DT [, systems=list(i, j, …)] [, max=N]` (SPEC §2): a positive
 * interval, the scan indices of the systems whose samples are kept (default
 * all) and the samples kept per integration (default: from the window). */
static void check_save(Checker *c, Node *d, bool *seen)
{
    Model *m = c->m;
    if (*seen) {
        error_at(d->loc, "'save' is given twice");
        return;
    }
    *seen = true;
    m->save_loc = d->loc;
    bool every_seen = false;
    for (Node *it = d->items; it; it = it->next) {
        double v;
        if (name_eq(it->name, "every")) {
            every_seen = true;
            if (!const_value(c, it->rhs, "every", &v)) continue;
            if (!(v > 0)) error_at(it->rhs->loc, "every must be positive (the time between samples)");
            else m->save_every = v;
        } else if (name_eq(it->name, "max")) {
            if (!const_value(c, it->rhs, "max", &v)) continue;
            if (!(v >= 1 && v <= 1e9) || !is_integer(v))
                error_at(it->rhs->loc, "max (samples kept per integration) must be a whole number from 1 to 10^9");
            else m->save_max = (long)v;
        } else if (name_eq(it->name, "systems")) {
            Node *list = it->rhs;
            if (list) m->save_loc = list->loc;
            Node *one = list && list->kind == N_CALL && name_eq(list->name, "list") ? list->args : list;
            if (list && list->kind == N_CALL && !name_eq(list->name, "list")) {
                error_at(list->loc, "systems takes list(i, j, …) of system numbers");
                continue;
            }
            for (Node *a = one; a; a = a == list ? NULL : a->next) {
                if (!const_value(c, a, "a system number", &v)) continue;
                if (!(v >= 0) || !is_integer(v)) {
                    error_at(a->loc, "a system number is a whole number from 0 (its index in the scan)");
                    continue;
                }
                long k = (long)v, at = m->nsave_systems;
                while (at > 0 && m->save_systems[at - 1] > k) at--;
                if (at > 0 && m->save_systems[at - 1] == k) {
                    error_at(a->loc, "system %ld is listed twice", k);
                    continue;
                }
                PUSH(m->save_systems, m->nsave_systems, k);
                memmove(m->save_systems + at + 1, m->save_systems + at,
                        sizeof(long) * (size_t)(m->nsave_systems - 1 - at));
                m->save_systems[at] = k;
            }
        } else {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_add(&sg, "every");
            suggest_add(&sg, "systems");
            suggest_add(&sg, "max");
            error_at(it->name_loc, "unknown save option '%s'%s (write every=DT and, optionally, systems=list(i, j, …) "
                     "and max=N)",
                     it->name, suggest_text(&sg));
        }
    }
    if (!every_seen) error_at(d->loc, "save needs every=DT, the time between samples");
}

/* ------------------------------------------------------------------ lyapunov, period */

/* A field that a statement adds (lyap1 … lyapN, period) under a name no
 * declaration may hold. */
static Symbol *output_field(Checker *c, SymKind kind, const char *name, int index, Loc loc, const char *statement)
{
    Symbol *old = symtab_get(&c->tab, name);
    if (old)
        error_at(old->loc, "'%s' is declared here as %s, but `%s` records its result under that name; rename it",
                 name, kind_phrase(old->kind), statement);
    Symbol *s = new_symbol(kind, name, loc);
    s->index = index;
    return s;
}

static void check_option_names(const Node *it, const char *statement, const char *const *names, const char *usage)
{
    Suggest sg;
    suggest_init(&sg, it->name);
    for (const char *const *n = names; *n; n++) suggest_add(&sg, *n);
    error_at(it->name_loc, "unknown %s option '%s'%s (%s)", statement, it->name, suggest_text(&sg), usage);
}

/* `lyapunov N [, every=T]` (SPEC §2): 1 ≤ N ≤ the number of states, T > 0. */
static void check_lyapunov(Checker *c, Node *d)
{
    Model *m = c->m;
    if (m->lyap_loc.line) {
        error_at(d->loc, "'lyapunov' is given twice (first at line %d)", m->lyap_loc.line);
        return;
    }
    m->lyap_loc = d->loc;
    static const char *const names[] = {"every", NULL};
    for (Node *it = d->items; it; it = it->next) {
        if (!name_eq(it->name, "every")) {
            check_option_names(it, "lyapunov", names, "write lyapunov N, every=T");
            continue;
        }
        double every;
        if (!const_value(c, it->rhs, "every", &every)) continue;
        if (!(every > 0)) error_at(it->rhs->loc, "every must be positive (the time between re-orthonormalisations)");
        else m->lyap_every = every;
    }
    double v;
    if (!d->rhs) {
        error_at(d->loc, "lyapunov needs the number of exponents: lyapunov N [, every=T], 1 <= N <= %d (the states)",
                 m->nstate);
        return;
    }
    if (!const_value(c, d->rhs, "the number of Lyapunov exponents", &v)) return;
    if (!is_integer(v) || v < 1 || v > m->nstate) {
        error_at(d->rhs->loc, "the number of Lyapunov exponents is a whole number from 1 to %d (the model's states)",
                 m->nstate);
        return;
    }
    m->nlyap = (int)v;
    m->lyap_fields = arena_alloc(sizeof(Symbol *) * (size_t)m->nlyap);
    for (int k = 0; k < m->nlyap; k++)
        m->lyap_fields[k] = output_field(c, SYM_LYAP, arena_printf("lyap%d", k + 1), k, d->loc, "lyapunov");
}

/* A quantity `period` compares: a state, aux or accessory. */
static void period_quantity(Checker *c, Node *it, Node *name)
{
    Model *m = c->m;
    Loc at = name == it ? it->name_loc : name->loc;
    const char *word = name == it ? it->name : name->name;
    if (name->kind != N_NAME && name != it) {
        error_at(name->loc, "of= takes names of states, aux quantities or accessories");
        return;
    }
    Symbol *s = lookup(c, word, &(Ctx){0});
    if (s && s->kind == SYM_TEMP)   /* `aux x=x`: the aux of that name */
        for (int i = 0; i < m->naux; i++)
            if (m->aux[i]->shadowed && name_eq(m->aux[i]->name, word)) s = m->aux[i];
    if (!s || s->kind == SYM_COUNT) {
        Suggest sg;
        suggest_init(&sg, word);
        suggest_symbols(c, &sg, BIT(SYM_STATE) | BIT(SYM_AUX) | BIT(SYM_ACC));
        error_at(at, "unknown name '%s'%s", word, suggest_text(&sg));
        return;
    }
    if (s->kind != SYM_STATE && s->kind != SYM_AUX && s->kind != SYM_ACC) {
        error_at(at, "'%s' is %s; period compares quantities that change from one integration to the next "
                     "(states, aux quantities, accessories)", word, kind_phrase(s->kind));
        return;
    }
    for (int i = 0; i < m->nperiod_of; i++)
        if (m->period_of[i] == s) {
            error_at(at, "'%s' is listed twice", word);
            return;
        }
    PUSH(m->period_of, m->nperiod_of, s);
}

/* `period [of=NAME, …] [, tol=1e-6] [, max=64]` (SPEC §2). */
static void check_period(Checker *c, Node *d)
{
    Model *m = c->m;
    if (m->period_field) {
        error_at(d->loc, "'period' is given twice (first at line %d)", m->period_loc.line);
        return;
    }
    m->period_loc = d->loc;
    m->period_tol = 1e-6;
    m->period_max = 64;
    static const char *const names[] = {"of", "tol", "max", NULL};
    const char *usage = "write period of=NAME, …, tol=T, max=P";
    bool in_of = false;
    for (Node *it = d->items; it; it = it->next) {
        double v;
        if (!it->rhs) {   /* a name after of=… */
            if (in_of) period_quantity(c, it, it);
            else error_at(it->loc, "'%s' without a value: the quantities are listed after of= (%s)", it->name, usage);
            continue;
        }
        in_of = name_eq(it->name, "of");
        if (in_of) {
            period_quantity(c, it, it->rhs);
        } else if (name_eq(it->name, "tol")) {
            if (!const_value(c, it->rhs, "tol", &v)) continue;
            if (!(v > 0)) error_at(it->rhs->loc, "tol must be positive (relative above 1, absolute below)");
            else m->period_tol = v;
        } else if (name_eq(it->name, "max")) {
            if (!const_value(c, it->rhs, "max", &v)) continue;
            if (!is_integer(v) || v < 1 || v > 64)
                error_at(it->rhs->loc, "max (the longest period looked for) is a whole number from 1 to 64");
            else m->period_max = (int)v;
        } else {
            check_option_names(it, "period", names, usage);
        }
    }
    if (!m->nperiod_of)
        for (int i = 0; i < m->nstate; i++) PUSH(m->period_of, m->nperiod_of, m->states[i]);
    m->period_field = output_field(c, SYM_PERIOD, "period", 0, d->loc, "period");
}

/* lyap1 … lyapN and period, where the statements make them. */
static Symbol *statement_field(const Model *m, const char *name)
{
    for (int k = 0; k < m->nlyap; k++)
        if (name_eq(m->lyap_fields[k]->name, name)) return m->lyap_fields[k];
    if (m->period_field && name_eq(name, "period")) return m->period_field;
    return NULL;
}

static void check_record(Checker *c, Node *d)
{
    Model *m = c->m;
    for (Node *a = d->args; a; a = a->next) {
        Symbol *s = lookup(c, a->name, &(Ctx){0});
        if (s && s->kind == SYM_TEMP)   /* `aux x=x`: the aux of that name */
            for (int i = 0; i < m->naux; i++)
                if (m->aux[i]->shadowed && name_eq(m->aux[i]->name, a->name)) s = m->aux[i];
        if (!s) s = statement_field(m, a->name);
        if (!s && m->lyap_loc.line && !strncasecmp(a->name, "lyap", 4)) {
            if (m->nlyap)   /* (else lyapunov's own error said enough) */
                error_at(a->loc, "'%s' is not computed: the lyapunov line (line %d) gives lyap1 … lyap%d", a->name,
                         m->lyap_loc.line, m->nlyap);
            continue;
        }
        if (!s || s->kind == SYM_COUNT) {
            Suggest sg;
            suggest_init(&sg, a->name);
            suggest_symbols(c, &sg, BIT(SYM_STATE) | BIT(SYM_AUX) | BIT(SYM_ACC) | BIT(SYM_PARAM) |
                                        BIT(SYM_DERIVED));
            if (!sg.best) suggest_glued_keyword(c, &sg);
            error_at(a->loc, "unknown name '%s'%s", a->name, suggest_text(&sg));
            continue;
        }
        if (s->kind == SYM_TEMP) {
            error_at(a->loc, "'%s' is a temporary and cannot be recorded; declare it with aux", a->name);
            continue;
        }
        if (s->kind == SYM_NUMBER || s->kind == SYM_FUNC || s->kind == SYM_EVENT || s->kind == SYM_TABLE) {
            error_at(a->loc, "'%s' is %s and cannot be recorded", a->name, kind_phrase(s->kind));
            continue;
        }
        bool dup = false;
        for (int i = 0; i < m->nfield; i++) dup |= m->fields[i] == s;
        if (dup) {
            error_at(a->loc, "'%s' is recorded twice", a->name);
            continue;
        }
        PUSH(m->fields, m->nfield, s);
    }
}

/* ------------------------------------------------------------------ options (@) */

static bool option_number(const Node *it, double *v)
{
    if (it->rhs && it->rhs->kind == N_NUM) {
        *v = it->rhs->num;
        return true;
    }
    if (it->rhs && it->rhs->kind == N_NAME && is_inf_name(it->rhs->name)) {
        *v = INFINITY;
        return true;
    }
    error_at(it->rhs ? it->rhs->loc : it->loc, "option '%s' needs a number", it->name);
    return false;
}

static void set_positive(const Node *it, double *dst)
{
    double v;
    if (!option_number(it, &v)) return;
    if (!(v > 0) || !isfinite(v)) error_at(it->rhs->loc, "%s must be positive", it->name);
    else *dst = v;
}

/* The spellings of odegen's options that need no word about how XPPAUT reads them. */
static bool usual_spelling(const char *name)
{
    static const char *const usual[] = {"meth", "method", "dt", "t0", "total", "toler", "tol", "atoler", "atol",
                                        "dtmin", "dtmax", "bound", "bounds", NULL};
    for (const char *const *u = usual; *u; u++)
        if (name_eq(*u, name)) return true;
    return false;
}

/* Whether an `@` option is one to act on; notes about the others (XPPAUT's
 * display options, unknown ones, options without a value: XPPAUT ignores
 * them all, and so does odegen, saying so). */
static const char *option_to_use(Node *it)
{
    OptionName on = option_name(it->name);
    if (!it->rhs) {
        note_at(it->name_loc, "option '%s' has no value: ignored, as XPPAUT ignores it", it->name);
        return NULL;
    }
    if (on.ignored) {
        if (name_eq(on.xppaut, it->name))
            note_at(it->name_loc, "XPPAUT option '%s' is ignored (it concerns XPPAUT's display or tools)", it->name);
        else
            note_at(it->name_loc, "XPPAUT option '%s' (XPPAUT reads it as '%s') is ignored (it concerns XPPAUT's "
                                  "display or tools)", it->name, on.xppaut);
        return NULL;
    }
    if (!on.name) {
        Suggest sg;
        suggest_init(&sg, it->name);
        for (const char *const *o = option_suggestions; *o; o++) suggest_add(&sg, *o);
        note_at(it->name_loc, "unknown option '%s' is ignored, as XPPAUT ignores it (with a warning)%s", it->name,
                suggest_text(&sg));
        return NULL;
    }
    if (it->spaced)
        note_at(it->loc, "blanks around '=': XPPAUT 6.11 ignores this option (it reads '%s' without a value); "
                         "odegen reads %s=%s", it->name, it->name, it->rhs->kind == N_NUM ? it->rhs->text : it->rhs->name);
    if (on.xppaut && !usual_spelling(it->name))
        note_at(it->name_loc, "XPPAUT reads option '%s' as '%s', and so does odegen", it->name, on.xppaut);
    return on.name;
}

static void check_option(Checker *c, Node *it, Loc *dtmin_loc, Loc *dtmax_loc, int precision)
{
    Model *m = c->m;
    const char *k = option_to_use(it);
    if (!k) return;
    const char *word = it->rhs && it->rhs->kind == N_NAME ? it->rhs->name : NULL;
    double v;
    if (name_eq(k, "meth") || name_eq(k, "method")) {
        check_method_option(m, it);
    } else if (name_eq(k, "dt")) {
        set_positive(it, &m->dt);
    } else if (name_eq(k, "t0")) {
        if (option_number(it, &v)) m->t0 = v;
    } else if (name_eq(k, "total")) {
        set_positive(it, &m->total);
    } else if (name_eq(k, "toler")) {
        set_positive(it, &m->toler);
    } else if (name_eq(k, "atoler")) {
        set_positive(it, &m->atoler);
    } else if (name_eq(k, "dtmin")) {
        set_positive(it, &m->dtmin);
        *dtmin_loc = it->loc;
    } else if (name_eq(k, "dtmax")) {
        set_positive(it, &m->dtmax);
        *dtmax_loc = it->loc;
    } else if (name_eq(k, "hgrow")) {
        if (option_number(it, &v)) {
            if (!(v > 1) || !isfinite(v)) error_at(it->rhs->loc, "hgrow must be larger than 1");
            else m->hgrow = v;
        }
    } else if (name_eq(k, "hshrink")) {
        if (option_number(it, &v)) {
            if (!(v > 0 && v < 1)) error_at(it->rhs->loc, "hshrink must lie between 0 and 1");
            else m->hshrink = v;
        }
    } else if (name_eq(k, "evpoints")) {
        if (option_number(it, &v)) {
            if (!(v >= 0 && v <= 64) || !is_integer(v))
                error_at(it->rhs->loc, "evpoints must be a whole number from 0 to 64");
            else
                m->evpoints = (int)v;
        }
    } else if (name_eq(k, "evsteps") || name_eq(k, "maxsteps")) {
        if (option_number(it, &v)) {
            if (!(v >= 1) || !is_integer(v)) error_at(it->rhs->loc, "%s must be a whole number of at least 1", k);
            else if (name_eq(k, "evsteps")) m->evsteps = v > 2e9 ? 2000000000L : (long)v;
            else m->maxsteps = (long long)v;
        }
    } else if (name_eq(k, "bound") || name_eq(k, "bounds")) {
        set_positive(it, &m->bound);
    } else if (name_eq(k, "evtol")) {
        set_positive(it, &m->evtol);
    } else if (name_eq(k, "prec")) {
        if (word && name_eq(word, "double")) { if (precision < 0) m->single = false; }
        else if (word && name_eq(word, "float")) { if (precision < 0) m->single = true; }
        else error_at(it->rhs ? it->rhs->loc : it->loc, "prec must be double or float");
    }
}

/* ------------------------------------------------------------------ the whole program */

static const char *model_name_from_path(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base) n = (size_t)(dot - base);
    char *name = arena_alloc(n + 3);
    size_t k = 0;
    if (n == 0 || isdigit((unsigned char)base[0])) name[k++] = 'm', name[k++] = '_';
    for (size_t i = 0; i < n; i++)
        name[k++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
    name[k] = '\0';
    return name;
}

static void set_defaults(Model *m)
{
    m->method = METH_RK4;
    m->evpoints = 3;
    m->dt = 0.05;
    m->t0 = 0;
    m->total = 20;
    m->toler = 1e-3;
    m->atoler = 1e-3;
    m->dtmin = 1e-12;
    m->dtmax = 1e6;
    m->hgrow = 5;
    m->hshrink = 0.1;
    m->evsteps = 50;
    m->maxsteps = 100000000LL;
    m->bound = 1e100;
    m->evtol = 1e-6;
    m->transient = 0;
    m->record = 1;
}

/* XPPAUT's statements must mean what they mean in XPPAUT (precedence.c). */
static void check_xpp_statements(const Program *prog)
{
    for (const Node *d = prog->decls; d; d = d->next) {
        switch (d->kind) {
        case D_PAR: case D_NUMBER: case D_INIT:
            for (const Node *it = d->items; it; it = it->next) check_xpp_precedence(it->rhs);
            break;
        case D_DERIVED: case D_ODE: case D_TEMP: case D_AUX: case D_CALLDEF: case D_TABLE:
            check_xpp_precedence(d->rhs);
            break;
        case D_SET:
            for (const Node *it = d->items; it; it = it->next) check_xpp_precedence(it->rhs);
            break;
        case D_GLOBAL:
            check_xpp_precedence(d->cond);
            for (const Node *st = d->body; st; st = st->next) {
                check_xpp_precedence(st->rhs);
                check_xpp_precedence(st->cond);
            }
            break;
        default:
            break;
        }
    }
}

Model *check_program(const Program *prog, int precision)
{
    Checker ck, *c = &ck;
    memset(c, 0, sizeof ck);
    Model *m = arena_alloc(sizeof *m);
    c->m = m;
    m->path = prog->path;
    m->name = model_name_from_path(prog->path);
    set_defaults(m);
    m->single = precision == 1;
    Loc nowhere = {0, 0, 0, 0};
    c->sym_pi = new_symbol(SYM_NUMBER, "pi", nowhere);
    c->sym_pi->value = 3.14159265358979323846;
    c->sym_pi->visiting = 2;
    c->sym_t = new_symbol(SYM_TIME, "t", nowhere);
    c->sym_t0 = new_symbol(SYM_WINDOW, "t0", nowhere);
    c->sym_t1 = new_symbol(SYM_WINDOW, "t1", nowhere);
    c->sym_t1->index = 1;
    c->sym_count = new_symbol(SYM_COUNT, "count", nowhere);

    Node *inits = NULL;
    check_xpp_statements(prog);     /* before the arrays are written out: one message a line */
    prog = expand_arrays(prog);
    declare_all(c, prog, &inits);
    evaluate_numbers(c);
    for (Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_TABLE) check_table(c, d);
    resolve_definitions(c);
    evaluate_values(c, prog);
    topo_sort(c, m->funcs, m->nfunc, SYM_FUNC);
    m->derived_order = arena_alloc(sizeof(Symbol *) * (size_t)(m->nderived + 1));
    if (m->nderived) memcpy(m->derived_order, m->derived, sizeof(Symbol *) * (size_t)m->nderived);
    topo_sort(c, m->derived_order, m->nderived, SYM_DERIVED);
    topo_sort(c, m->temps, m->ntemp, SYM_TEMP);
    evaluate_derived_defaults(c);
    evaluate_initial_values(c, inits);
    if (!diag_error_count()) check_nesting(c);

    Loc dtmin_loc = nowhere, dtmax_loc = nowhere;
    bool repeat_seen = false, save_seen = false;
    for (Node *d = prog->decls; d; d = d->next) {   /* before `record`, which may name their fields */
        if (d->kind == D_LYAPUNOV) check_lyapunov(c, d);
        if (d->kind == D_PERIOD) check_period(c, d);
    }
    for (Node *d = prog->decls; d; d = d->next) {
        switch (d->kind) {
        case D_EVENT: check_event(c, d); break;
        case D_GLOBAL: check_global(c, d); break;
        case D_TOLERANCE: break;   /* after the options: per-state values win over toler/atoler */
        case D_SCAN: check_scan(c, d); break;
        case D_REPEAT: check_repeat(c, d, &repeat_seen); break;
        case D_RECORD: check_record(c, d); break;
        case D_SAVE: check_save(c, d, &save_seen); break;
        case D_OPTIONS:
            for (Node *it = d->items; it; it = it->next) check_option(c, it, &dtmin_loc, &dtmax_loc, precision);
            break;
        case D_SET: check_set(c, d); break;
        default: break;
        }
    }
    for (int i = 0; i < m->nevent; i++)   /* events without tol=, and globals: @ evtol */
        if (m->events[i].tol == 0) m->events[i].tol = m->evtol;
    for (Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_ON) check_on(c, d);
    for (int i = 0; i < m->nstate; i++) {
        m->states[i]->rtol = m->toler;
        m->states[i]->atol = m->atoler;
    }
    for (Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_TOLERANCE) check_tolerance(c, d);

    if (m->dtmin > m->dtmax)
        error_at(dtmax_loc.line > dtmin_loc.line ? dtmax_loc : dtmin_loc,
                 "dtmin (%g) is larger than dtmax (%g)", m->dtmin, m->dtmax);
    if (m->nevent > 64)
        error_at(m->events[64].sym->loc, "too many events: odegen handles at most 64");
    double product = 1;
    for (int i = 0; i < m->nscan; i++) product *= (double)m->scans[i].n;
    if (product > 4.0e18)
        error_at(c->last_loc, "the scans describe %.3g systems, more than odegen can count", product);
    if (m->nsave_systems && (double)m->save_systems[m->nsave_systems - 1] >= product)
        error_at(m->save_loc, "save: system %ld is beyond the scan's %.0f system%s (0 to %.0f)",
                 m->save_systems[m->nsave_systems - 1], product, product == 1 ? "" : "s", product - 1);
    if (m->nstate == 0 && diag_error_count() == 0)
        error_file("the model has no equations: write at least one x'=… (or dx/dt=…) line");
    if (!m->nfield) {   /* the default record: the states, and what lyapunov and period compute */
        for (int i = 0; i < m->nstate; i++) PUSH(m->fields, m->nfield, m->states[i]);
        for (int k = 0; k < m->nlyap; k++) PUSH(m->fields, m->nfield, m->lyap_fields[k]);
        if (m->period_field) PUSH(m->fields, m->nfield, m->period_field);
    }
    if (m->single && !diag_error_count()) check_single_precision(prog);
    if (m->nlyap && !diag_error_count()) check_lyapunov_derivatives(m);
    return diag_error_count() ? NULL : m;
}
