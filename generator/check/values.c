/* values.c — the values known before integrating: numbers,
 * parameter values, derived parameters at the default parameters, initial
 * values (constants, or expressions of parameters computed per system), and
 * notes where XPPAUT would read a value differently. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "check/checker.h"
#include "front/diag.h"

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
void evaluate_numbers(Checker *c)
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
        else if (s->visiting == 2 && !reported[s->index] && !isfinite(s->value))
            error_at(s->expr->loc, "number '%s' is %s: a number must be finite", s->name,
                     isnan(s->value) ? "NaN" : s->value > 0 ? "inf" : "-inf");
    }
}

/* Parameters' default values are constants; initial values are constants
 * or expressions of parameters (computed per system when it is loaded). */
void evaluate_values(Checker *c, const Program *prog)
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
void evaluate_derived_defaults(Checker *c)
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
void evaluate_initial_values(Checker *c, Node *inits)
{
    Model *m = c->m;
    Ctx x = ctx_make(READ_PARAMS, "an initial value",
                     "; an initial value is made of numbers, parameters and derived parameters");
    /* x[a..b](0)=… with delays: initial values only (declare.c), never the history */
    Ctx xa = ctx_make(READ_PARAMS, "an initial value",
                      "; an array line x[a..b](0)=… gives initial values only, as XPPAUT reads it (the history stays "
                      "0): write a history of t for each element in a block, %[a..b] then x[j](0)=… then %");
    int skip_line = 0, item_line = 0, item_errors = 0;   /* an array line's error once, not once an element */
    bool item_array = false;
    for (Node *it = inits; it; it = it->next) {
        if (item_array && diag_error_count() > item_errors) skip_line = item_line;
        if (it->num == 3 && it->loc.line == skip_line) continue;
        item_array = it->num == 3;
        item_line = it->loc.line;
        item_errors = diag_error_count();
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
        Symbol *other = it->rhs->kind == N_NAME ? symtab_get(&c->tab, it->rhs->name) : NULL;
        if (other && other->kind == SYM_STATE && it->num == 2) {   /* solv z=x (check/dae.c) */
            error_at(it->rhs->loc, "solv's guess is a number or an expression of parameters here (XPPAUT evaluates it "
                                   "with the states' values when it starts; write the value, or a parameter)");
            continue;
        }
        if (other && other->kind == SYM_STATE) {
            /* init m2=m1: XPPAUT reads the value with atof, which gives 0 for a name */
            note_at(it->rhs->loc, "XPPAUT 6.11 reads the initial value '%s' as 0 (a name is not a number there), "
                                  "and so does odegen: write the value itself", it->rhs->name);
            s->value = 0;
            s->init_expr = NULL;
            continue;
        }
        if (initial_history(c, s, it)) continue;   /* x(0)=EXPR of t with delays (delay.c) */
        int before = diag_error_count();
        resolve_expr(c, it->rhs, it->num == 3 && m->ndelay ? &xa : &x);
        if (diag_error_count() != before) continue;
        double v;
        bool constant = eval_const(c, it->rhs, &v);
        c->eval_defaults = true;
        bool at_defaults = constant || eval_const(c, it->rhs, &v);
        c->eval_defaults = false;
        if (!at_defaults && has_random_call(it->rhs)) {
            error_at(it->rhs->loc, "a random initial value: draw it in an accessory's initial value (acc r = ran(1), "
                                   "once per system, when it is loaded) and set the state from it in `on start`");
            continue;
        }
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
