/* time_trig.c — sin and cos of time in the right-hand side.
 *
 * An argument affine in t with per-system coefficients (cos(t),
 * sin(2*pi*f*t + phi)) advances by a fixed angle a*h per step, so RK4 needs
 * its sin and cos only once per step: the stages follow by angle addition
 * (solver.h).  This file finds those arguments and their rates a = d/dt;
 * the emitter writes them (emit/emit.c) and the derivatives read them as
 * the same slots (expr_build.c).
 */
#include <stdlib.h>
#include <string.h>

#include "deriv/time_trig.h"

#include "base/arena.h"
#include "base/util.h"

enum { NOT_AFFINE = -1, CONSTANT = 0, AFFINE = 1 };

/* Whether an expression of parameters reads one that a block assigns
 * (directly, or through the derived parameters it reads). */
static bool reads_assigned(const Node *n, int depth)
{
    if (!n || depth > 64) return n != NULL;
    if (n->kind == N_NAME && n->sym) {
        if (n->sym->kind == SYM_PARAM && n->sym->assigned) return true;
        if (n->sym->kind == SYM_DERIVED && reads_assigned(n->sym->expr, depth + 1)) return true;
    }
    if (reads_assigned(n->lhs, depth) || reads_assigned(n->rhs, depth) || reads_assigned(n->cond, depth)) return true;
    for (const Node *a = n->args; a; a = a->next)
        if (reads_assigned(a, depth)) return true;
    return false;
}

/* CONSTANT: fixed for a system during an integration (numbers, parameters,
 * derived parameters; not a parameter that a block assigns, whose rate would
 * change under the step's rotations); AFFINE: a t + b; NOT_AFFINE otherwise. */
static int affinity(const Node *n)
{
    int a, b;
    switch (n->kind) {
    case N_NUM: return CONSTANT;
    case N_POS: case N_SUMIX: case N_ELEM: return NOT_AFFINE;   /* by element: not one angle for all */
    case N_NAME:
        if (!n->sym) return NOT_AFFINE;
        if (n->sym->kind == SYM_TIME) return AFFINE;
        if ((n->sym->kind == SYM_PARAM || n->sym->kind == SYM_DERIVED) && reads_assigned(n, 0)) return NOT_AFFINE;
        return n->sym->kind == SYM_NUMBER || n->sym->kind == SYM_PARAM || n->sym->kind == SYM_DERIVED
                   ? CONSTANT : NOT_AFFINE;
    case N_NEG: return affinity(n->lhs);
    case N_ADD:
    case N_SUB:
        a = affinity(n->lhs), b = affinity(n->rhs);
        return a == NOT_AFFINE || b == NOT_AFFINE ? NOT_AFFINE : (a > b ? a : b);
    case N_MUL:
        a = affinity(n->lhs), b = affinity(n->rhs);
        if (a == NOT_AFFINE || b == NOT_AFFINE || (a == AFFINE && b == AFFINE)) return NOT_AFFINE;
        return a > b ? a : b;
    case N_DIV:
        a = affinity(n->lhs), b = affinity(n->rhs);
        return b != CONSTANT ? NOT_AFFINE : a;
    default:
        /* calls, powers, conditions: constant when all their parts are */
        if (n->lhs && affinity(n->lhs) != CONSTANT) return NOT_AFFINE;
        if (n->rhs && affinity(n->rhs) != CONSTANT) return NOT_AFFINE;
        if (n->cond && affinity(n->cond) != CONSTANT) return NOT_AFFINE;
        for (const Node *x = n->args; x; x = x->next)
            if (affinity(x) != CONSTANT) return NOT_AFFINE;
        return CONSTANT;
    }
}

static Node *binary(NodeKind k, Node *a, Node *b) { return ast_binary(k, a->loc, a, b); }

Node *time_rate(const Node *n)
{
    if (affinity(n) == CONSTANT) return NULL;
    Node *l, *r;
    switch (n->kind) {
    case N_NAME: return ast_num(n->loc, "1");   /* t */
    case N_NEG:
        l = time_rate(n->lhs);
        return l ? ast_unary(N_NEG, n->loc, l) : NULL;
    case N_ADD:
    case N_SUB:
        l = time_rate(n->lhs), r = time_rate(n->rhs);
        if (!r) return l;
        if (!l) return n->kind == N_ADD ? r : ast_unary(N_NEG, n->loc, r);
        return binary(n->kind, l, r);
    case N_MUL:   /* c * u: c * u' (and u' = 1 leaves c) */
        if (affinity(n->lhs) == CONSTANT) {
            r = time_rate(n->rhs);
            return r->kind == N_NUM && r->num == 1 ? n->lhs : binary(N_MUL, n->lhs, r);
        }
        l = time_rate(n->lhs);
        return l->kind == N_NUM && l->num == 1 ? n->rhs : binary(N_MUL, l, n->rhs);
    case N_DIV: return binary(N_DIV, time_rate(n->lhs), n->rhs);
    default: return NULL;
    }
}

static bool same_expr(const Node *a, const Node *b)
{
    if (!a || !b) return a == b;
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case N_NUM: return a->num == b->num;
    case N_NAME: return a->sym == b->sym;
    case N_CALL:
        if (!name_eq(a->name, b->name) || a->sym != b->sym) return false;
        for (a = a->args, b = b->args; a && b; a = a->next, b = b->next)
            if (!same_expr(a, b)) return false;
        return !a && !b;
    default:
        return same_expr(a->lhs, b->lhs) && same_expr(a->rhs, b->rhs) && same_expr(a->cond, b->cond);
    }
}

int trig_index(const TimeTrig *tt, const Node *arg)
{
    for (int i = 0; i < tt->n; i++)
        if (same_expr(tt->arg[i].arg, arg)) return i;
    return -1;
}

static void visit(TimeTrig *tt, const Node *n, const Symbol **seen, int *nseen)
{
    if (!n) return;
    if (n->kind == N_CALL && !n->sym && n->args && !n->args->next &&
        (name_eq(n->name, "sin") || name_eq(n->name, "cos")) && affinity(n->args) == AFFINE) {
        int k = trig_index(tt, n->args);
        if (k < 0) {
            if ((tt->n & (tt->n - 1)) == 0) {
                TrigArg *grown = arena_alloc(sizeof *grown * (size_t)(tt->n ? 2 * tt->n : 4));
                if (tt->n) memcpy(grown, tt->arg, sizeof *grown * (size_t)tt->n);
                tt->arg = grown;
            }
            k = tt->n++;
            tt->arg[k].arg = n->args;
            tt->arg[k].need_sin = tt->arg[k].need_cos = false;
        }
        if (name_eq(n->name, "sin")) tt->arg[k].need_sin = true;
        else tt->arg[k].need_cos = true;
    }
    const Symbol *temp = n->kind == N_NAME && n->sym && n->sym->kind == SYM_TEMP ? n->sym
                         : n->kind == N_ELEM && n->sym && n->sym->kind == SYM_TEMP && n->sym->array ? n->sym->array->sym
                         : NULL;   /* a temporary, or an array of them */
    if (temp) {
        for (int i = 0; i < *nseen; i++)
            if (seen[i] == temp) return;
        seen[(*nseen)++] = temp;
        visit(tt, temp->expr, seen, nseen);
    }
    if (n->kind == N_ELEM && n->more) visit(tt, n->more, seen, nseen);
    visit(tt, n->lhs, seen, nseen);
    visit(tt, n->rhs, seen, nseen);
    visit(tt, n->cond, seen, nseen);
    for (const Node *a = n->args; a; a = a->next) visit(tt, a, seen, nseen);
}

void find_time_trig(const Model *m, TimeTrig *tt)
{
    const Symbol **seen = arena_alloc(sizeof(Symbol *) * (size_t)(m->ntemp + 1));
    int nseen = 0;
    for (int i = 0; i < m->nstate; i++) visit(tt, m->states[i]->expr, seen, &nseen);
    for (int i = 0; i < m->narray; i++)   /* arrays of states: their line, once */
        if (m->arrays[i].sym->kind == SYM_STATE) visit(tt, m->arrays[i].sym->expr, seen, &nseen);
}
