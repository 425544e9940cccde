/* declare.c — every declaration of the (array-expanded) program
 * becomes a symbol of the model: states, parameters, numbers, temporaries,
 * aux, accessories, functions, tables, events.  Reports duplicates, reserved
 * and refused names, and the XPPAUT statements odegen does not take. */
#include <ctype.h>
#include <string.h>

#include "base/arena.h"
#include "base/builtins.h"
#include "base/util.h"
#include "check/checker.h"
#include "front/diag.h"

const char *kind_phrase(SymKind k)
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
    case SYM_ATTRACTOR: return "the attractor's label (a field to record)";
    case SYM_SPECIAL: return "a special (network operator)";
    case SYM_WIENER: return "a Wiener process (XPPAUT's noise, held over each step)";
    }
    return "a name";
}

/* ------------------------------------------------------------------ symbols */

Symbol *new_symbol(SymKind kind, const char *name, Loc loc)
{
    Symbol *s = arena_alloc(sizeof *s);
    s->kind = kind;
    s->name = name;
    s->loc = loc;
    s->line = loc.line;
    s->delay_slot = -1;
    return s;
}

static const char *const reserved_words[] = {"t", "pi", NULL};

/* Declares a user symbol; NULL (after an error) when the name is taken. */
Symbol *declare_symbol(Checker *c, SymKind kind, const char *name, Loc loc, bool listed)
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
    switch (listed ? kind : SYM_EVENT) {
    case SYM_WIENER: s->index = m->nwiener; PUSH(m->wieners, m->nwiener, s); break;
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

static Symbol *declare(Checker *c, SymKind kind, const char *name, Loc loc)
{
    return declare_symbol(c, kind, name, loc, true);
}

/* ------------------------------------------------------------------ declarations */

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

/* Whether a call's arguments are XPPAUT's map form `(t+1)` (form_ode.c
 * reads exactly "T+1)=", blanks removed). */
static bool is_map_argument(const Node *args)
{
    if (!args || args->next || args->kind != N_ADD || args->paren) return false;
    const Node *l = args->lhs, *r = args->rhs;
    return l->kind == N_NAME && name_eq(l->name, "t") && !l->paren && r->kind == N_NUM && r->num == 1 &&
           !strcmp(r->text, "1");
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
        /* x(0)=…: with delays, also the state's history (check/delay.c) — but not
         * from an array line x[a..b](0)=…, which XPPAUT keeps apart as initial
         * values only (form_ode.c's check_if_ic: the line becomes a comment and
         * its delay_string stays "0.0"): 3, read as `init` */
        item->num = d->from_range ? 3 : 1;
        *inits = ast_append(*inits, item);
        return;
    }
    if (!d->args) {
        error_at(d->loc, "a function needs at least one argument: %s(x)=…", d->name);
        return;
    }
    if (is_map_argument(d->args)) {   /* x(t+1) = f: a state of a map (check/map.c) */
        Symbol *s = declare(c, SYM_STATE, d->name, d->name_loc);
        if (s) { s->expr = d->rhs; s->expr_line = d->loc; }
        if (!c->m->map_loc.line) c->m->map_loc = d->loc;
        return;
    }
    error_at(d->args->loc, "a map is written %s(t+1)=… (XPPAUT's form); a function's arguments are names",
             d->name);
    PUSH(c->refused, c->nrefused, d->name);
}

/* The name a refused statement declares (`special c=…`, `volterra …`), from
 * its line. */
static void refuse_names(Checker *c, const Node *d)
{
    if (strcmp(d->name, "special") && strcmp(d->name, "volterra"))
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
        return;     /* each declares one name */
    }
}

/* XPPAUT statements odegen does not run: what they are, and what to do instead. */
static void unsupported_statement(const Node *d)
{
    static const struct { const char *name, *why; } table[] = {
        {"NUMBER=", "a line NUMBER=… is no statement: an algebraic constraint is written 0=… (with solv NAME=GUESS "
                    "for its unknown)"},
        {"bdry", "boundary-value problems (bdry) are not supported: odegen integrates initial-value problems "
                 "(scan the unknown initial values and record the boundary residual: shooting)"},
        {"volterra", VOLTERRA_WHY("volterra, int[…]")},
        {"special", "XPPAUT's special functions (special f=conv(…), sparse(…), …) are not supported yet (networks are "
                    "being added): write the sums out, with sum(…)of(…) or arrays x[1..n]"},
        {"export", "export (XPPAUT's link to compiled C code) is not supported: write the function as an "
                   "expression, a table or a user function"},
        {"vector", "XPPAUT's vector statement is not supported: write the components out (arrays x[1..n] are "
                   "expanded)"},
        {"group", "XPPAUT's group statement is not supported"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(d->name, table[i].name)) {
            error_at(d->loc, "%s", table[i].why);
            return;
        }
    error_at(d->loc, "XPPAUT '%s' statements are not supported by odegen", d->name);
}

/* `aux x=…` where x is already declared (a temporary, a parameter, a state,
 * a function, an aux: `aux gkatp=gkatp`, `aux V=v`, the same aux twice):
 * XPPAUT warns "duplicate name" and writes the aux's column; the name in
 * expressions stays the first declaration's. */
static void declare_shadowing_aux(Checker *c, Node *d, Symbol *first)
{
    Model *m = c->m;
    const char *what = kind_phrase(first->kind);     /* "a parameter": the noun after the article */
    note_at(d->name_loc, "aux '%s' has the name of %s of line %d (XPPAUT warns \"duplicate name\" "
                         "and runs): the aux is written as a column, the name in expressions is the %s%s",
            d->name, what, first->loc.line, strchr(what, ' ') + 1, first->kind == SYM_AUX ? " declared first" : "");
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

/* XPPAUT's `global … {…; arret=EXPR}` stops the run where EXPR > 0 when the
 * global fires (flags.c: send_halt).  A number there is the event's stop
 * (events.c); any other EXPR is written into an accessory named arret, which
 * the runtime reads after the global's statements (templates/firing.h,
 * ode_event_halts).  Declared after the file's own names, unless one of them
 * is arret. */
static void declare_arret(Checker *c, const Program *prog)
{
    if (symtab_get(&c->tab, "arret")) return;
    for (const Node *d = prog->decls; d; d = d->next)
        for (const Node *s = d->kind == D_GLOBAL ? d->body : NULL; s; s = s->next)
            if (s->kind == S_ASSIGN && name_eq(s->name, "arret") && s->rhs && s->rhs->kind != N_NUM) {
                c->arret = declare(c, SYM_ACC, "arret", s->name_loc);
                return;
            }
}

void declare_all(Checker *c, const Program *prog, Node **inits)
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
                if (strchr(it->name, '(')) {   /* `par v(0)=-70` */
                    const char *state = arena_strndup(it->name, (size_t)(strchr(it->name, '(') - it->name));
                    note_at(it->name_loc, "XPPAUT reads this as a %s named '%s' (which its expressions read as "
                                          "%s) and leaves the initial value of %s as it is: odegen ignores it (to "
                                          "start %s there, write init %s=…)", d->kind == D_PAR ? "parameter" : "number",
                            it->name, it->name, state, state, state);
                    continue;
                }
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
            if (d->array) {
                declare_array_lines(c, d);
                break;
            }
            s = symtab_get(&c->tab, d->name);
            if (s && s->kind != SYM_TABLE && s->kind != SYM_EVENT && s->kind != SYM_ACC) {
                declare_shadowing_aux(c, d, s);
                break;
            }
            /* fall through */
        case D_DERIVED:
        case D_TEMP:
            if (d->array) {
                declare_array_lines(c, d);
                break;
            }
            s = declare(c, d->kind == D_DERIVED ? SYM_DERIVED : d->kind == D_TEMP ? SYM_TEMP : SYM_AUX,
                        d->name, d->name_loc);
            if (s) { s->expr = d->rhs; s->expr_line = d->loc; }
            break;
        case D_ODE:
            if (d->array) {
                declare_array_lines(c, d);
                break;
            }
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
        case D_SPECIAL:   /* check/special.c reads its operator; ordered among the temporaries */
            s = declare(c, SYM_SPECIAL, d->name, d->name_loc);
            if (s) {
                s->expr = d->rhs;
                s->expr_line = d->loc;
                s->index = c->m->ntemp;
                PUSH(c->m->temps, c->m->ntemp, s);
            }
            break;
        case D_WIENER:
            declare_wiener(c, d);
            break;
        case D_MARKOV:
            declare_markov(c, d);
            break;
        case D_MARKOV_ROW:
            declare_markov_row(c, d);
            break;
        case D_UNSUPPORTED:
            unsupported_statement(d);
            refuse_names(c, d);
            break;
        case D_IGNORED:
            if (strcmp(d->name, "only"))    /* a line whose first word is no statement (lexer.l); only: outputs.c */
                warning_at(d->loc, "the line's first word '%s' starts no statement: XPPAUT ignores such a line, "
                                   "and so does odegen (a comment without its '#'?)", d->name);
            break;
        default:
            break;
        }
    }
    declare_arret(c, prog);
}
