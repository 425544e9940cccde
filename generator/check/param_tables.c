/* param_tables.c — a table whose formula reads a parameter, per system:
 * `table f % NPTS XLO XHI FORMULA` with a parameter in FORMULA.
 *
 * XPPAUT computes the table's NPTS values FORMULA(XLO + i DX) when it loads
 * the file and again when such a parameter changes (tabular.c), and looks a
 * value up by linear interpolation between the two grid points around x,
 * extrapolating from the end segments outside [XLO, XHI] (lookup).  A table
 * computed once, when odegen translates the file, cannot follow a parameter
 * that changes from system to system (a scan, --set, a set, an event): the
 * parameter would have to become a number (what statements.c does for the
 * tables this pass leaves).  So each call f(X) is written out as what the
 * lookup computes, with the formula evaluated at the two grid points around
 * X, for the system's own parameters:
 *
 *     U = (X - XLO) / DX
 *     if (U < NPTS-1) then (if (U > -1) then
 *           F(g(I)) + (F(g(I+1)) - F(g(I))) * (X - g(I)) / DX     I = max(flr(U), 0)
 *         else F(g(0)) + (F(g(1)) - F(g(0))) * (X - XLO) / DX)
 *     else F(g(N-1)) + (F(g(N-1)) - F(g(N-2))) * (X - XHI) / DX
 *
 * with g(i) = DX i + XLO, the points odegen's own tables use (statements.c,
 * tables.c: table_value), so the numbers are those of a table computed for
 * that system, with no table stored (a table of 600001 points per system
 * would not fit a GPU).  The derivatives follow the expression (the slope of
 * the segment, as table_slope).
 *
 * It runs on the syntax tree before anything is declared, on the tables whose
 * formula names a parameter directly and calls no user function, whose name
 * is only ever called (a special's table is passed by name: it stays a
 * table), and whose names no function argument shadows; the others keep the
 * old reading, the parameter a number, with a note. */
#include <math.h>
#include <string.h>

#include "base/arena.h"
#include "base/util.h"
#include "check/checker.h"
#include "front/diag.h"

typedef struct Shape {
    const Node *table;      /* D_TABLE */
    const char *param;      /* the first parameter its formula reads */
    double dx;
} Shape;

static bool declared_in(const Program *prog, NodeKind kind, const char *name)
{
    for (const Node *d = prog->decls; d; d = d->next)
        if (d->kind == kind)
            for (const Node *it = d->items; it; it = it->next)
                if (it->name && name_eq(it->name, name)) return true;
    return false;
}

static bool is_function(const Program *prog, const char *name)
{
    for (const Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_CALLDEF && name_eq(d->name, name)) return true;
    return false;
}

/* The first parameter the formula names, or NULL; *ok false where it calls a
 * user function or draws a random number (left to the old reading). */
static const char *formula_param(const Program *prog, const Node *n, bool *ok)
{
    if (!n) return NULL;
    if (n->kind == N_CALL && (is_function(prog, n->name) || name_eq(n->name, "ran") || name_eq(n->name, "normal")))
        *ok = false;
    const char *p = n->kind == N_NAME && declared_in(prog, D_PAR, n->name) ? n->name : NULL;
    const Node *kids[] = {n->lhs, n->rhs, n->cond};
    for (int k = 0; k < 3 && !p; k++) p = formula_param(prog, kids[k], ok);
    for (const Node *a = n->args; a && !p; a = a->next) p = formula_param(prog, a, ok);
    for (const Node *a = n->args; a; a = a->next) formula_param(prog, a, ok);     /* (for *ok) */
    return p;
}

/* Whether `name` appears other than as the name of a call of one argument (a
 * special's table; a call with other arguments, which the checks report). */
static bool named_not_called(const Node *n, const char *name)
{
    if (!n) return false;
    if (n->kind == N_NAME && name_eq(n->name, name)) return true;
    if (n->kind == N_CALL && name_eq(n->name, name) && list_length(n->args) != 1) return true;
    if (named_not_called(n->lhs, name) || named_not_called(n->rhs, name) || named_not_called(n->cond, name) ||
        named_not_called(n->more, name))
        return true;
    const Node *lists[] = {n->args, n->items, n->body, n->els};
    for (int k = 0; k < 4; k++)
        for (const Node *a = lists[k]; a; a = a->next)
            if (named_not_called(a, name)) return true;
    return false;
}

/* Whether a name of the formula is an argument of some function (a call
 * inside that function's body would read the argument instead). */
static bool shadowed(const Program *prog, const Node *n)
{
    if (!n) return false;
    if (n->kind == N_NAME)
        for (const Node *d = prog->decls; d; d = d->next)
            if (d->kind == D_CALLDEF)
                for (const Node *a = d->args; a; a = a->next)
                    if (a->name && name_eq(a->name, n->name)) return true;
    if (shadowed(prog, n->lhs) || shadowed(prog, n->rhs) || shadowed(prog, n->cond)) return true;
    for (const Node *a = n->args; a; a = a->next)
        if (shadowed(prog, a)) return true;
    return false;
}

static Node *num(Loc at, double v) { return ast_num(at, arena_printf("%.17g", v)); }

/* The formula with t replaced by `x` (a copy). */
static Node *formula_at(const Node *f, const Node *x)
{
    if (!f) return NULL;
    if (f->kind == N_NAME && name_eq(f->name, "t")) return ast_paren(ast_copy(x));
    Node *c = ast_copy(f);
    c->lhs = formula_at(f->lhs, x);
    c->rhs = formula_at(f->rhs, x);
    c->cond = formula_at(f->cond, x);
    c->args = NULL;
    for (const Node *a = f->args; a; a = a->next) c->args = ast_append(c->args, formula_at(a, x));
    return c;
}

/* g(i) = DX i + XLO, for a node i */
static Node *grid(const Shape *s, Loc at, Node *i)
{
    double lo = s->table->items->next->num;
    return ast_binary(N_ADD, at, ast_binary(N_MUL, at, num(at, s->dx), i), num(at, lo));
}

/* F(base) + (F(b) - F(a)) * (X - c) / DX: table_value's segments, with F at grid points */
static Node *segment(const Shape *s, Loc at, Node *base, Node *a, Node *b, const Node *x, Node *c)
{
    const Node *f = s->table->rhs;
    Node *slope = ast_paren(ast_binary(N_SUB, at, ast_paren(formula_at(f, b)), ast_paren(formula_at(f, a))));
    Node *dist = ast_paren(ast_binary(N_SUB, at, ast_paren(ast_copy(x)), c));
    return ast_binary(N_ADD, at, ast_paren(formula_at(f, base)),
                      ast_binary(N_DIV, at, ast_binary(N_MUL, at, slope, dist), num(at, s->dx)));
}

/* The lookup of table s at x, as an expression (tables.c: table_value, linear). */
static Node *lookup_expr(const Shape *s, Loc at, const Node *x)
{
    const Node *np = s->table->items, *lo = np->next, *hi = lo->next;
    double n = np->num;
    Node *u = ast_paren(ast_binary(N_DIV, at, ast_binary(N_SUB, at, ast_paren(ast_copy(x)), num(at, lo->num)),
                                   num(at, s->dx)));
    Node *i = ast_call(at, at, "max", ast_append(ast_call(at, at, "flr", ast_copy(u)), num(at, 0)));
    Node *inner = segment(s, at, grid(s, at, ast_copy(i)), grid(s, at, ast_copy(i)),
                          grid(s, at, ast_binary(N_ADD, at, ast_copy(i), num(at, 1))), x, grid(s, at, ast_copy(i)));
    Node *below = segment(s, at, grid(s, at, num(at, 0)), grid(s, at, num(at, 0)), grid(s, at, num(at, 1)), x,
                          num(at, lo->num));
    Node *above = segment(s, at, grid(s, at, num(at, n - 1)), grid(s, at, num(at, n - 2)), grid(s, at, num(at, n - 1)),
                          x, num(at, hi->num));
    Node *in_range = ast_if(at, ast_binary(N_GT, at, ast_copy(u), num(at, -1)), inner, below);
    return ast_paren(ast_if(at, ast_binary(N_LT, at, u, num(at, n - 1)), in_range, above));
}

/* Every call of a rewritten table, in the tree, replaced by its lookup. */
static Node *rewrite(Node *n, const Shape *shapes, int nshape)
{
    if (!n) return NULL;
    n->lhs = rewrite(n->lhs, shapes, nshape);
    n->rhs = rewrite(n->rhs, shapes, nshape);
    n->cond = rewrite(n->cond, shapes, nshape);
    Node **lists[] = {&n->args, &n->items, &n->body, &n->els};
    for (int k = 0; k < 4; k++) {
        Node *out = NULL;
        for (Node *a = *lists[k], *next; a; a = next) {
            next = a->next;
            a->next = NULL;
            out = ast_append(out, rewrite(a, shapes, nshape));
        }
        *lists[k] = out;
    }
    if (n->kind == N_CALL && list_length(n->args) == 1)
        for (int k = 0; k < nshape; k++)
            if (name_eq(n->name, shapes[k].table->name)) return lookup_expr(&shapes[k], n->loc, n->args);
    return n;
}

const Program *parameter_tables(const Program *prog)
{
    Shape *shapes = NULL;
    int nshape = 0;
    for (const Node *d = prog->decls; d; d = d->next) {
        if (d->kind != D_TABLE || d->text || !d->rhs || !d->items) continue;
        const Node *np = d->items, *lo = np->next, *hi = lo ? lo->next : NULL;
        if (!hi || !(np->num >= 2) || np->num != floor(np->num) || !(lo->num < hi->num) || !isfinite(hi->num)) continue;
        bool ok = true;
        const char *param = formula_param(prog, d->rhs, &ok);
        if (!param || !ok || shadowed(prog, d->rhs)) continue;
        bool by_name = false;
        for (const Node *e = prog->decls; e; e = e->next)
            if (e != d) by_name |= named_not_called(e, d->name);
        if (by_name) continue;
        Shape s = {d, param, (hi->num - lo->num) / (np->num - 1)};
        PUSH(shapes, nshape, s);
        note_at(d->name_loc, "table '%s' reads parameter '%s': each call is computed for its system, the formula at "
                             "the two grid points around x interpolated linearly (the values of a table computed "
                             "with that system's parameters, as XPPAUT recomputes its table)", d->name, param);
    }
    if (!nshape) return prog;
    Program *copy = arena_alloc(sizeof *copy);
    *copy = *prog;
    copy->decls = NULL;
    for (const Node *d = prog->decls; d; d = d->next) {
        bool gone = false;
        for (int k = 0; k < nshape; k++) gone |= shapes[k].table == d;
        if (gone) continue;     /* (its calls are written out) */
        Node *c = ast_copy(d);
        copy->decls = ast_append(copy->decls, rewrite(c, shapes, nshape));
    }
    return copy;
}
