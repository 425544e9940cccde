/* constants.c — the value of a resolved expression where it is constant:
 * numbers, and (as the checker's state asks) parameters at their defaults,
 * derived parameters, user functions, tables, t.  Reports nothing: its
 * callers say why a value must be constant. */
#include <math.h>
#include <string.h>

#include "base/arena.h"
#include "base/builtins.h"
#include "check/checker.h"
#include "check/tables.h"
#include "../../templates/rng.h"   /* the solver's generator: a random table's values */


static bool eval_args(Checker *c, const Node *args, double *v, int max);

/* ran(a) or normal(m, s) at point random_point of table random_table, with
 * the file's seed: the draw the generated code would make for purpose
 * ODE_RNG_TABLE (system 0; rep the table, step the point, index the call). */
static bool random_value(Checker *c, const Node *n, double *out)
{
    double v[2];
    if (!eval_args(c, n->args, v, 2)) return false;
    OdeRngWords r = ode_rng_draw((unsigned long long)c->m->seed, 0, (uint32_t)c->random_table,
                                 (uint32_t)c->random_point, ODE_RNG_TABLE, (uint32_t)(n->site - 1));
    if (name_eq(n->name, "normal")) {
        double z0, z1;
        ode_rng_normal2(r, &z0, &z1);
        *out = v[0] + v[1] * z0;
    } else {
        *out = v[0] * ode_rng_uniform(r.w[0], r.w[1]);
    }
    return true;
}

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
bool eval_const(Checker *c, const Node *n, double *out)
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
        if (is_random_call(n)) return c->eval_random && random_value(c, n, out);
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
