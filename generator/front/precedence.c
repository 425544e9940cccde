/* precedence.c — one expression, two readings.
 *
 * odegen parses with the conventional precedence (comparisons below
 * arithmetic, `&` below comparisons, `|` below `&`).  XPPAUT's parser does
 * not: there comparisons bind as tightly as `^`, `&` like `*`, `|` like `+`,
 * and unary minus more loosely than a comparison, so XPPAUT reads `1+2<4` as
 * 1+(2<4) = 2 and `-1<0` as -(1<0) = 0 (measured with XPPAUT 6.11).  A plain
 * XPPAUT file must not silently change its meaning, so in XPPAUT's own
 * statements an operand whose grouping differs between the two readings must
 * be put in parentheses.  (odegen's own statements — events, blocks — have no
 * XPPAUT reading and keep the conventional one.)
 */
#include "front/precedence.h"

#include <stdbool.h>

#include "front/diag.h"

enum { NONE = 0 };

/* Binding strength under each reading; 0 for what is not an operator here. */
static int conventional(NodeKind k)
{
    switch (k) {
    case N_OR: return 1;
    case N_AND: return 2;
    case N_EQ: case N_NE: return 3;
    case N_LT: case N_GT: case N_LE: case N_GE: return 4;
    case N_ADD: case N_SUB: return 5;
    case N_MUL: case N_DIV: return 6;
    case N_NEG: case N_NOT: return 7;
    case N_POW: return 8;
    default: return NONE;
    }
}

static int xppaut(NodeKind k)
{
    switch (k) {
    case N_OR: case N_ADD: case N_SUB: return 1;
    case N_AND: case N_MUL: case N_DIV: return 2;
    case N_NEG: case N_NOT: return 3;
    case N_EQ: case N_NE: case N_LT: case N_GT: case N_LE: case N_GE: case N_POW: return 4;
    default: return NONE;
    }
}

static const char *op_text(NodeKind k)
{
    switch (k) {
    case N_OR: return "|";
    case N_AND: return "&";
    case N_EQ: return "==";
    case N_NE: return "!=";
    case N_LT: return "<";
    case N_GT: return ">";
    case N_LE: return "<=";
    case N_GE: return ">=";
    case N_ADD: return "+";
    case N_SUB: return "-";
    case N_MUL: return "*";
    case N_DIV: return "/";
    case N_NEG: return "unary -";
    case N_NOT: return "not";
    case N_POW: return "^";
    default: return "?";
    }
}

/* Does XPPAUT keep `child` together as an operand of `parent` (on the
 * right-hand side when `right`)?  Left-associative operators keep an equal
 * one on the left only. */
static bool xpp_keeps(const Node *parent, const Node *child, bool right)
{
    int p = xppaut(parent->kind), c = xppaut(child->kind);
    if (!p || !c || child->paren) return true;
    if (parent->kind == N_POW && right) return true;   /* 2^-1: odegen only, XPPAUT rejects it */
    return right ? c > p : c >= p;
}

void check_xpp_precedence(const Node *n)
{
    if (n) {
        if (n->lhs && conventional(n->kind) && !xpp_keeps(n, n->lhs, n->kind == N_NEG || n->kind == N_NOT))
            error_at(n->loc,
                     "'%s' and '%s' group differently in XPPAUT, which binds comparisons as tightly as '^', "
                     "'&' like '*', '|' like '+' and unary minus more loosely than a comparison; "
                     "add parentheses to say which you mean",
                     op_text(n->kind), op_text(n->lhs->kind));
        else if (n->rhs && conventional(n->kind) && !xpp_keeps(n, n->rhs, true))
            error_at(n->loc,
                     "'%s' and '%s' group differently in XPPAUT, which binds comparisons as tightly as '^', "
                     "'&' like '*', '|' like '+' and unary minus more loosely than a comparison; "
                     "add parentheses to say which you mean",
                     op_text(n->kind), op_text(n->rhs->kind));
        check_xpp_precedence(n->lhs);
        check_xpp_precedence(n->rhs);
        check_xpp_precedence(n->cond);
        for (const Node *a = n->args; a; a = a->next) check_xpp_precedence(a);
    }
}
