/* expr_graph.c — hash-consed expression nodes, simplified as they are built. */
#include "deriv/expr_graph.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "check/tables.h"
#include "base/util.h"

const XOpInfo xop_info[X_NOPS] = {
    [X_CONST] = {"const", 0, NULL},  [X_VAR] = {"var", 0, NULL},
    [X_NEG] = {"-", 1, NULL},        [X_ADD] = {"+", 2, NULL},     [X_SUB] = {"-", 2, NULL},
    [X_MUL] = {"*", 2, NULL},        [X_DIV] = {"/", 2, NULL},     [X_POWI] = {"^", 1, NULL},
    [X_POW] = {"^", 2, NULL},
    [X_SIN] = {"sin", 1, "sin"},     [X_COS] = {"cos", 1, "cos"},  [X_TAN] = {"tan", 1, "tan"},
    [X_ASIN] = {"asin", 1, "asin"},  [X_ACOS] = {"acos", 1, "acos"}, [X_ATAN] = {"atan", 1, "atan"},
    [X_SINH] = {"sinh", 1, "sinh"},  [X_COSH] = {"cosh", 1, "cosh"}, [X_TANH] = {"tanh", 1, "tanh"},
    [X_EXP] = {"exp", 1, "exp"},     [X_LOG] = {"ln", 1, "ln"},    [X_LOG10] = {"log10", 1, "log10"},
    [X_SQRT] = {"sqrt", 1, "sqrt"},  [X_ABS] = {"abs", 1, "abs"},  [X_HEAV] = {"heav", 1, "heav"},
    [X_SIGN] = {"sign", 1, "sign"},  [X_FLR] = {"flr", 1, "flr"},  [X_CEIL] = {"ceil", 1, "ceil"},
    [X_ERF] = {"erf", 1, "erf"},     [X_ERFC] = {"erfc", 1, "erfc"},
    [X_ATAN2] = {"atan2", 2, "atan2"}, [X_MOD] = {"mod", 2, "mod"}, [X_MAX] = {"max", 2, "max"},
    [X_MIN] = {"min", 2, "min"},
    [X_LT] = {"<", 2, NULL},         [X_GT] = {">", 2, NULL},      [X_LE] = {"<=", 2, NULL},
    [X_GE] = {">=", 2, NULL},        [X_EQ] = {"==", 2, NULL},     [X_NE] = {"!=", 2, NULL},
    [X_AND] = {"&", 2, NULL},        [X_OR] = {"|", 2, NULL},      [X_NOT] = {"not", 1, NULL},
    [X_SELECT] = {"if", 3, NULL},
    [X_TABLE] = {"table", 1, NULL},  [X_TABLE_SLOPE] = {"slope", 1, NULL},
    [X_DELAY] = {"delay", 3, NULL},  [X_DELAY_SLOPE] = {"delay'", 2, NULL},
};

XOp xop_of_builtin(const char *name)
{
    if (name_eq(name, "log")) return X_LOG;   /* natural, as in XPPAUT */
    for (int op = 0; op < X_NOPS; op++)
        if (xop_info[op].builtin && name_eq(xop_info[op].builtin, name)) return (XOp)op;
    return X_NOPS;
}

static XNode *intern(XGraph *g, XOp op, XNode *a, XNode *b, XNode *c, int k, double value, XVar *var);

XGraph *xg_new(bool single, int max_nodes)
{
    XGraph *g = arena_alloc(sizeof *g);
    g->single = single;
    g->max_nodes = max_nodes;
    g->tablesize = 1024;
    g->table = arena_alloc(sizeof(XNode *) * g->tablesize);
    g->var_tablesize = 64;
    g->var_table = arena_alloc(sizeof(XVar *) * g->var_tablesize);
    g->nan = intern(g, X_CONST, NULL, NULL, NULL, 0, NAN, NULL);   /* what an overflowed graph returns */
    return g;
}

bool xg_is_const(const XNode *n, double v) { return n->op == X_CONST && n->value == v; }
bool xg_is_leaf(const XNode *n) { return n->op == X_CONST || n->op == X_VAR; }

bool xg_is_truth(const XNode *n)
{
    return n->op >= X_LT && n->op <= X_NOT;
}

/* ------------------------------------------------------------------ sharing */

static uint64_t double_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static unsigned hash_of(XOp op, const XNode *a, const XNode *b, const XNode *c, int k, double value,
                        const XVar *var)
{
    uint64_t h = 1469598103934665603ULL;
    uint64_t parts[6] = {(uint64_t)op, a ? (uint64_t)a->id + 1 : 0, b ? (uint64_t)b->id + 1 : 0,
                         c ? (uint64_t)c->id + 1 : 0, (uint64_t)(int64_t)k ^ double_bits(value),
                         var ? (uint64_t)var->id + 1 : 0};
    for (int i = 0; i < 6; i++) {
        h ^= parts[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return (unsigned)h;
}

static void grow_table(XGraph *g)
{
    unsigned size = g->tablesize * 2;
    XNode **table = arena_alloc(sizeof(XNode *) * size);
    for (int i = 0; i < g->nnodes; i++) {
        XNode *n = g->nodes[i];
        unsigned h = hash_of(n->op, n->a, n->b, n->c, n->k, n->value, n->var) & (size - 1);
        n->hash_next = table[h];
        table[h] = n;
    }
    g->table = table;
    g->tablesize = size;
}

/* The one node with these parts: found, or made. */
static XNode *intern(XGraph *g, XOp op, XNode *a, XNode *b, XNode *c, int k, double value, XVar *var)
{
    if (g->overflow) return g->nan;
    unsigned h = hash_of(op, a, b, c, k, value, var) & (g->tablesize - 1);
    for (XNode *n = g->table[h]; n; n = n->hash_next)
        if (n->op == op && n->a == a && n->b == b && n->c == c && n->k == k && n->var == var &&
            double_bits(n->value) == double_bits(value))
            return n;
    if (g->nnodes >= g->max_nodes) {
        g->overflow = true;
        return g->nan;
    }
    XNode *n = arena_alloc(sizeof *n);
    n->op = op;
    n->a = a, n->b = b, n->c = c;
    n->k = k;
    n->value = value;
    n->var = var;
    n->loc = g->at;
    n->id = g->nnodes;
    g->nodes = arena_grow(g->nodes, g->nnodes, &g->capnodes, sizeof(XNode *));
    g->nodes[g->nnodes++] = n;
    n->hash_next = g->table[h];
    g->table[h] = n;
    if ((unsigned)g->nnodes > g->tablesize) grow_table(g);
    return n;
}

/* ------------------------------------------------------------------ leaves */

XNode *xg_const(XGraph *g, double v)
{
    if (g->single && isfinite(v)) v = (double)(float)v;
    if (v == 0) v = 0.0;   /* -0 and 0 are one constant */
    return intern(g, X_CONST, NULL, NULL, NULL, 0, v, NULL);
}

static unsigned var_hash(XVarKind kind, int index, bool cos)
{
    uint64_t h = ((uint64_t)kind * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)(unsigned)index * 0xC2B2AE3D27D4EB4FULL) ^ cos;
    return (unsigned)(h ^ (h >> 31));
}

/* The variable of (kind, index, cos), or where to put it: a slot of the hash
 * table (a model has a variable per state, parameter, …: found in O(1)). */
static XVar **var_slot(XGraph *g, XVarKind kind, int index, bool cos)
{
    unsigned mask = g->var_tablesize - 1;
    for (unsigned i = var_hash(kind, index, cos) & mask;; i = (i + 1) & mask) {
        XVar *v = g->var_table[i];
        if (!v || (v->kind == kind && v->index == index && v->cos == cos)) return &g->var_table[i];
    }
}

static XVar *new_var(XGraph *g, XVar **slot, XVarKind kind, int index, bool cos)
{
    XVar *v = arena_alloc(sizeof *v);
    v->kind = kind;
    v->index = index;
    v->cos = cos;
    v->id = g->nvars;
    g->vars = arena_grow(g->vars, g->nvars, &g->capvars, sizeof(XVar *));
    g->vars[g->nvars++] = v;
    *slot = v;
    if (2u * (unsigned)g->nvars > g->var_tablesize) {   /* at most half full */
        unsigned size = 2 * g->var_tablesize;
        g->var_table = arena_alloc(sizeof(XVar *) * size);
        g->var_tablesize = size;
        for (int i = 0; i < g->nvars; i++) {
            XVar *w = g->vars[i];
            *var_slot(g, w->kind, w->index, w->cos) = w;
        }
    }
    return v;
}

XNode *xg_var(XGraph *g, XVarKind kind, int index, const Symbol *sym)
{
    XVar **slot = var_slot(g, kind, index, false);
    XVar *v = *slot;
    if (!v) {
        v = new_var(g, slot, kind, index, false);
        v->sym = sym;
    }
    return intern(g, X_VAR, NULL, NULL, NULL, 0, 0, v);
}

XNode *xg_trig(XGraph *g, int slot, bool cos, XNode *arg)
{
    XVar **at = var_slot(g, XV_TRIG, slot, cos);
    XVar *v = *at;
    if (!v) {
        v = new_var(g, at, XV_TRIG, slot, cos);
        v->arg = arg;
    }
    return intern(g, X_VAR, NULL, NULL, NULL, 0, 0, v);
}

/* ------------------------------------------------------------------ constant folding */

static double heav(double x) { return x >= 0 ? 1.0 : 0.0; }
static double sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }
static double xpp_mod(double a, double b)
{
    double r = fmod(a, b);
    return r < 0 ? r + b : r;
}

/* x^k by repeated squaring, as the generated code computes it (ode_powK). */
static double powi(double x, int k, bool single)
{
    int a = k < 0 ? -k : k, top = 0;
    while (a >> (top + 1)) top++;
    double r = x;
    for (int bit = top - 1; bit >= 0; bit--) {
        r = r * r;
        if (single) r = (double)(float)r;
        if (a & (1 << bit)) r = r * x;
        if (single) r = (double)(float)r;
    }
    return k < 0 ? 1 / r : r;
}

static double fold1(XOp op, double a)
{
    switch (op) {
    case X_NEG: return -a;
    case X_SIN: return sin(a);
    case X_COS: return cos(a);
    case X_TAN: return tan(a);
    case X_ASIN: return asin(a);
    case X_ACOS: return acos(a);
    case X_ATAN: return atan(a);
    case X_SINH: return sinh(a);
    case X_COSH: return cosh(a);
    case X_TANH: return tanh(a);
    case X_EXP: return exp(a);
    case X_LOG: return log(a);
    case X_LOG10: return log10(a);
    case X_SQRT: return sqrt(a);
    case X_ABS: return fabs(a);
    case X_HEAV: return heav(a);
    case X_SIGN: return sign(a);
    case X_FLR: return floor(a);
    case X_CEIL: return ceil(a);
    case X_ERF: return erf(a);
    case X_ERFC: return erfc(a);
    case X_NOT: return a == 0 ? 1.0 : 0.0;
    default: return NAN;
    }
}

static double fold2(XOp op, double a, double b)
{
    switch (op) {
    case X_ADD: return a + b;
    case X_SUB: return a - b;
    case X_MUL: return a * b;
    case X_DIV: return a / b;
    case X_POW: return pow(a, b);
    case X_ATAN2: return atan2(a, b);
    case X_MOD: return xpp_mod(a, b);
    case X_MAX: return fmax(a, b);
    case X_MIN: return fmin(a, b);
    case X_LT: return a < b;
    case X_GT: return a > b;
    case X_LE: return a <= b;
    case X_GE: return a >= b;
    case X_EQ: return a == b;
    case X_NE: return a != b;
    case X_AND: return a != 0 && b != 0;
    case X_OR: return a != 0 || b != 0;
    default: return NAN;
    }
}

/* ------------------------------------------------------------------ constructors */

/* A power of two: multiplying by it is exact, so c1*(c2*x) and (c1*c2)*x agree. */
static bool power_of_two(double v)
{
    int e;
    return v != 0 && isfinite(v) && fabs(frexp(v, &e)) == 0.5;
}

XNode *xg_un(XGraph *g, XOp op, XNode *a)
{
    if (a->op == X_CONST) return xg_const(g, fold1(op, a->value));
    switch (op) {
    case X_NEG:
        if (a->op == X_NEG) return a->a;
        if (a->op == X_SUB) return xg_sub(g, a->b, a->a);
        break;
    case X_ABS:
        if (a->op == X_NEG || a->op == X_ABS) return xg_un(g, X_ABS, a->a);
        break;
    case X_NOT:
        if (a->op == X_NOT && xg_is_truth(a->a)) return a->a;
        break;
    default: break;
    }
    return intern(g, op, a, NULL, NULL, 0, 0, NULL);
}

XNode *xg_powi(XGraph *g, XNode *a, int k)
{
    if (k == 0) return xg_const(g, 1);
    if (k == 1) return a;
    if (k == -1) return xg_div(g, xg_const(g, 1), a);
    if (a->op == X_CONST) return xg_const(g, powi(a->value, k, g->single));
    if (a->op == X_NEG) return k % 2 ? xg_neg(g, xg_powi(g, a->a, k)) : xg_powi(g, a->a, k);
    return intern(g, X_POWI, a, NULL, NULL, k, 0, NULL);
}

/* The exponent as an integer of a power written with multiplications (as
 * emit.c writes x^3 of a literal 3), or 0. */
static int small_integer(const XNode *n)
{
    if (n->op != X_CONST || n->value != floor(n->value) || fabs(n->value) > 63) return 0;
    return (int)n->value;
}

XNode *xg_bin(XGraph *g, XOp op, XNode *a, XNode *b)
{
    if (a->op == X_CONST && b->op == X_CONST) return xg_const(g, fold2(op, a->value, b->value));
    switch (op) {
    case X_ADD:
        if (xg_is_const(a, 0)) return b;
        if (xg_is_const(b, 0)) return a;
        if (b->op == X_NEG) return xg_sub(g, a, b->a);
        if (a->op == X_NEG) return xg_sub(g, b, a->a);
        break;
    case X_SUB:
        if (xg_is_const(b, 0)) return a;
        if (xg_is_const(a, 0)) return xg_neg(g, b);
        if (a == b) return xg_const(g, 0);
        if (b->op == X_NEG) return xg_add(g, a, b->a);
        break;
    case X_MUL:
        if (xg_is_const(a, 0) || xg_is_const(b, 0)) return xg_const(g, 0);
        if (xg_is_const(a, 1)) return b;
        if (xg_is_const(b, 1)) return a;
        if (xg_is_const(a, -1)) return xg_neg(g, b);
        if (xg_is_const(b, -1)) return xg_neg(g, a);
        if (a->op == X_NEG && b->op == X_NEG) return xg_mul(g, a->a, b->a);
        if (a->op == X_NEG) return xg_neg(g, xg_mul(g, a->a, b));
        if (b->op == X_NEG) return xg_neg(g, xg_mul(g, a, b->a));
        if (a == b) return xg_powi(g, a, 2);
        if (b->op == X_CONST) return xg_mul(g, b, a);   /* constants in front: 3*x */
        if (a->op == X_CONST && b->op == X_MUL && b->a->op == X_CONST &&
            (power_of_two(a->value) || power_of_two(b->a->value)) && isnormal(a->value * b->a->value))
            return xg_mul(g, xg_const(g, a->value * b->a->value), b->b);   /* 3*(2*x) = 6*x, exactly */
        break;
    case X_DIV:
        if (xg_is_const(a, 0)) return xg_const(g, 0);
        if (xg_is_const(b, 1)) return a;
        if (xg_is_const(b, -1)) return xg_neg(g, a);
        if (a->op == X_NEG && b->op == X_NEG) return xg_div(g, a->a, b->a);
        if (a->op == X_NEG) return xg_neg(g, xg_div(g, a->a, b));
        if (b->op == X_NEG) return xg_neg(g, xg_div(g, a, b->a));
        break;
    case X_POW: {
        int k = small_integer(b);
        if (k || xg_is_const(b, 0)) return xg_powi(g, a, k);
        if (xg_is_const(a, 1)) return a;
        break;
    }
    default: break;
    }
    return intern(g, op, a, b, NULL, 0, 0, NULL);
}

XNode *xg_table(XGraph *g, XOp op, const Table *t, int index, XNode *a)
{
    if (a->op == X_CONST) return xg_const(g, op == X_TABLE ? table_value(t, a->value) : table_slope(t, a->value));
    XNode *n = intern(g, op, a, NULL, NULL, index, 0, NULL);
    n->tab = t;
    return n;
}

XNode *xg_delay(XGraph *g, XOp op, int slot, int site, XNode *tau, XNode *t, XNode *now)
{
    return intern(g, op, tau, t, now, site, slot, NULL);
}

XNode *xg_select(XGraph *g, XNode *cond, XNode *a, XNode *b)
{
    if (cond->op == X_CONST) return cond->value != 0 ? a : b;
    if (a == b) return a;
    return intern(g, X_SELECT, cond, a, b, 0, 0, NULL);
}
