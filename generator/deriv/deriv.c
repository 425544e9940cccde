/* deriv.c — the differentiation rules (see deriv.h for the conventions). */
#include "deriv/deriv.h"

#include <string.h>

#include "base/arena.h"

/* As expr_build.c's limit: derivatives are no deeper than the expressions. */
enum { DERIV_MAX_DEPTH = 12000 };

void xd_init(XDeriv *d, XGraph *g, long long max_visits)
{
    memset(d, 0, sizeof *d);
    d->g = g;
    d->max_visits = max_visits;
}

void xd_wrt(XDeriv *d, XVar *v, const char *name)
{
    d->v = v;
    d->vname = name;
    d->gen++;
}

static void ensure(XDeriv *d, int id)
{
    if (id < d->cap) return;
    int cap = d->cap ? d->cap : 1024;
    while (cap <= id) cap *= 2;
    XNode **memo = arena_alloc(sizeof(XNode *) * (size_t)cap);
    int *stamp = arena_alloc(sizeof(int) * (size_t)cap);
    signed char *dep = arena_alloc((size_t)cap);
    int *dep_stamp = arena_alloc(sizeof(int) * (size_t)cap);
    if (d->cap) {
        memcpy(memo, d->memo, sizeof(XNode *) * (size_t)d->cap);
        memcpy(stamp, d->stamp, sizeof(int) * (size_t)d->cap);
        memcpy(dep, d->dep, (size_t)d->cap);
        memcpy(dep_stamp, d->dep_stamp, sizeof(int) * (size_t)d->cap);
    }
    d->memo = memo, d->stamp = stamp, d->dep = dep, d->dep_stamp = dep_stamp, d->cap = cap;
}

static bool stop(XDeriv *d, const XNode *n, const char *why)
{
    if (!d->failed) {
        d->failed = true;
        d->fail_msg = why;
        d->fail_loc = n->loc;
    }
    return false;
}

static bool enter(XDeriv *d, const XNode *n)
{
    if (d->failed) return false;
    if (d->depth >= DERIV_MAX_DEPTH) return stop(d, n, "this expression is nested too deeply to be differentiated");
    if (++d->visits > d->max_visits) return stop(d, n, "the model is too large for symbolic differentiation");
    d->depth++;
    return true;
}

int xop_piecewise(XOp op)
{
    switch (op) {
    case X_ABS: case X_MAX: case X_MIN: return 1;
    case X_HEAV: case X_SIGN: case X_FLR: case X_CEIL: case X_MOD:
    case X_LT: case X_GT: case X_LE: case X_GE: case X_EQ: case X_NE: case X_AND: case X_OR: case X_NOT:
        return 2;
    case X_SELECT: return 3;
    default: return 0;
    }
}

int xnode_piecewise(const XNode *n)
{
    if (n->op == X_TABLE) return n->tab && n->tab->interp == TABLE_STEP ? 2 : 1;
    if (n->op == X_TABLE_SLOPE) return 2;
    return xop_piecewise(n->op);
}

/* ------------------------------------------------------------------ dependence */

/* Whether n depends on v (through derived parameters and sin/cos of time too). */
static bool depends(XDeriv *d, XNode *n)
{
    ensure(d, n->id);
    if (d->dep_stamp[n->id] == d->gen) return d->dep[n->id];
    if (!enter(d, n)) return false;
    bool r = false;
    if (n->op == X_VAR) {
        XVar *v = n->var;
        r = v == d->v || (v->kind == XV_TRIG && v->arg && depends(d, v->arg)) ||
            (v->kind == XV_DERIVED && v->def && depends(d, v->def));
    } else {
        r = (n->a && depends(d, n->a)) || (n->b && depends(d, n->b)) || (n->c && depends(d, n->c));
    }
    d->depth--;
    ensure(d, n->id);
    d->dep_stamp[n->id] = d->gen;
    d->dep[n->id] = (signed char)r;
    return r;
}

static void record_piece(XDeriv *d, XNode *n)
{
    d->pieces = arena_grow(d->pieces, d->npieces, &d->cappieces, sizeof *d->pieces);
    d->pieces[d->npieces].node = n;
    d->pieces[d->npieces++].var = d->v;
}

/* ------------------------------------------------------------------ rules */

#define C(v) xg_const(g, (v))

static XNode *var_rule(XDeriv *d, XNode *n)
{
    XGraph *g = d->g;
    XVar *v = n->var;
    if (v == d->v) return C(1);
    if (v->kind == XV_DERIVED && v->def) return xd(d, v->def);   /* chain rule through !name=… */
    if (v->kind == XV_TRIG && v->arg) {
        /* sin(u)' = cos(u) u', cos(u)' = -sin(u) u': the other value of the same slot */
        XNode *du = xd(d, v->arg);
        if (xg_is_const(du, 0)) return du;
        XNode *other = xg_trig(g, v->index, !v->cos, v->arg);
        return v->cos ? xg_neg(g, xg_mul(g, other, du)) : xg_mul(g, other, du);
    }
    return C(0);
}

/* f'(a) da for the functions of one argument (n = f(a), reused where it helps). */
static XNode *unary_rule(XDeriv *d, XNode *n, XNode *da)
{
    XGraph *g = d->g;
    XNode *a = n->a;
    switch (n->op) {
    case X_NEG: return xg_neg(g, da);
    case X_POWI: return xg_mul(g, xg_mul(g, C(n->k), xg_powi(g, a, n->k - 1)), da);
    case X_SIN: return xg_mul(g, xg_un(g, X_COS, a), da);
    case X_COS: return xg_neg(g, xg_mul(g, xg_un(g, X_SIN, a), da));
    case X_TAN: return xg_mul(g, xg_add(g, C(1), xg_powi(g, n, 2)), da);
    case X_ASIN: return xg_div(g, da, xg_un(g, X_SQRT, xg_sub(g, C(1), xg_powi(g, a, 2))));
    case X_ACOS: return xg_neg(g, xg_div(g, da, xg_un(g, X_SQRT, xg_sub(g, C(1), xg_powi(g, a, 2)))));
    case X_ATAN: return xg_div(g, da, xg_add(g, C(1), xg_powi(g, a, 2)));
    case X_SINH: return xg_mul(g, xg_un(g, X_COSH, a), da);
    case X_COSH: return xg_mul(g, xg_un(g, X_SINH, a), da);
    case X_TANH: return xg_mul(g, xg_sub(g, C(1), xg_powi(g, n, 2)), da);
    case X_EXP: return xg_mul(g, n, da);
    case X_LOG: return xg_div(g, da, a);
    case X_LOG10: return xg_div(g, da, xg_mul(g, a, C(2.302585092994045684)));   /* ln 10 */
    case X_SQRT: return xg_div(g, da, xg_mul(g, C(2), n));
    case X_ABS: return xg_mul(g, xg_un(g, X_SIGN, a), da);
    case X_TABLE: return xg_mul(g, xg_table(g, X_TABLE_SLOPE, n->tab, n->k, a), da);
    case X_ERF:
    case X_ERFC: {   /* ±2/sqrt(pi) exp(-a^2) */
        XNode *e = xg_mul(g, xg_mul(g, C(1.1283791670955126), xg_un(g, X_EXP, xg_neg(g, xg_powi(g, a, 2)))), da);
        return n->op == X_ERF ? e : xg_neg(g, e);
    }
    default: return NULL;
    }
}

static XNode *binary_rule(XDeriv *d, XNode *n, XNode *da, XNode *db)
{
    XGraph *g = d->g;
    XNode *a = n->a, *b = n->b;
    switch (n->op) {
    case X_ADD: return xg_add(g, da, db);
    case X_SUB: return xg_sub(g, da, db);
    case X_MUL: return xg_add(g, xg_mul(g, da, b), xg_mul(g, a, db));
    case X_DIV:   /* (da - (a/b) db) / b: reuses the quotient */
        return xg_div(g, xg_sub(g, da, xg_mul(g, n, db)), b);
    case X_POW:
        if (xg_is_const(db, 0))   /* b a^(b-1) da */
            return xg_mul(g, xg_mul(g, b, xg_bin(g, X_POW, a, xg_sub(g, b, C(1)))), da);
        /* a^b (ln(a) db + b da / a) */
        return xg_mul(g, n, xg_add(g, xg_mul(g, xg_un(g, X_LOG, a), db), xg_div(g, xg_mul(g, b, da), a)));
    case X_ATAN2:   /* atan2(a, b)' = (b da - a db) / (a^2 + b^2) */
        return xg_div(g, xg_sub(g, xg_mul(g, b, da), xg_mul(g, a, db)),
                      xg_add(g, xg_powi(g, a, 2), xg_powi(g, b, 2)));
    case X_MOD:     /* mod(a,b) = a - q b with q piecewise constant: q = (a - mod(a,b))/b */
        return xg_add(g, da, xg_mul(g, xg_div(g, xg_sub(g, n, a), b), db));
    case X_MAX: return xg_select(g, xg_bin(g, X_GE, a, b), da, db);
    case X_MIN: return xg_select(g, xg_bin(g, X_LE, a, b), da, db);
    default: return NULL;
    }
}

/* delay(x, tau) = X(t - tau), X the past of x (a known function of time:
 * the history, or the stored steps' extension); where tau <= 0 it is x
 * itself.  So d/dv = X'(t - tau) (dt/dv - dtau/dv), or dx/dv: no derivative
 * with respect to the current state through the past, whose values a stiff
 * method takes as given (the method of steps; a delay shorter than the step
 * is iterated instead, templates/integrate.h). */
static XNode *delay_rule(XDeriv *d, XNode *n)
{
    XGraph *g = d->g;
    XNode *dtau = xd(d, n->a), *dt = xd(d, n->b), *dnow = xd(d, n->c);
    XNode *shift = xg_sub(g, dt, dtau);
    XNode *past = xg_is_const(shift, 0)
                      ? shift
                      : xg_mul(g, xg_delay(g, X_DELAY_SLOPE, (int)n->value, n->k, n->a, n->b, NULL), shift);
    return xg_select(g, xg_bin(g, X_GT, n->a, C(0)), past, dnow);
}

static XNode *rule(XDeriv *d, XNode *n)
{
    XGraph *g = d->g;
    if (n->op == X_CONST) return C(0);
    if (n->op == X_VAR) return var_rule(d, n);
    int piece = xnode_piecewise(n);
    if (piece && depends(d, n->op == X_SELECT ? n->a : n)) record_piece(d, n);
    if (n->op == X_TABLE_SLOPE && n->tab && n->tab->interp == TABLE_CUBIC && depends(d, n)) {
        stop(d, n, "the second derivative of a cubic table is not available");
        return g->nan;
    }
    if (n->op == X_DELAY) return delay_rule(d, n);
    if (n->op == X_DELAY_SLOPE) {
        if (depends(d, n)) stop(d, n, "the second derivative of a delayed value is not available");
        return depends(d, n) ? g->nan : C(0);
    }
    if (piece == 2 && n->op != X_MOD) return C(0);   /* jumps: flat on either side (mod has a slope) */
    if (n->op == X_SELECT) return xg_select(g, n->a, xd(d, n->b), xd(d, n->c));
    XNode *da = xd(d, n->a);
    if (xop_info[n->op].arity == 1 || n->op == X_POWI) {
        if (xg_is_const(da, 0)) return da;
        return unary_rule(d, n, da);
    }
    XNode *db = xd(d, n->b);
    if (xg_is_const(da, 0) && xg_is_const(db, 0)) return da;
    return binary_rule(d, n, da, db);
}

XNode *xd(XDeriv *d, XNode *n)
{
    XGraph *g = d->g;
    ensure(d, n->id);
    if (d->stamp[n->id] == d->gen) return d->memo[n->id];
    if (!enter(d, n)) return g->nan;
    Loc at = g->at;
    g->at = n->loc;   /* derivative nodes point where their expression came from */
    XNode *r = rule(d, n);
    if (!r) {
        stop(d, n, arena_printf("internal: no derivative rule for '%s'", xop_info[n->op].name));
        r = g->nan;
    }
    g->at = at;
    d->depth--;
    /* d(T)/d(v) of a temporary T: printed under that name */
    if (n->label && !r->label && !xg_is_leaf(r) && !(r->op == X_NEG && xg_is_leaf(r->a)) &&
        strncmp(n->label, "d(", 2) != 0)
        r->label = arena_printf("d(%s)/d%s%s%s", n->label, d->v->kind == XV_TIME ? "" : "(", d->vname,
                                d->v->kind == XV_TIME ? "" : ")");
    ensure(d, n->id);
    d->stamp[n->id] = d->gen;
    d->memo[n->id] = r;
    return r;
}
