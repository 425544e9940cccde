/* jacobian.c — the model's derivatives, assembled from the graph builder and
 * the differentiation rules. */
#include "deriv/jacobian.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "front/diag.h"
#include "deriv/expr_build.h"
#include "deriv/expr_cse.h"

/* Limits that keep a pathological model (a fuzzer's) from taking the
 * translator's time and memory: the derivatives are then left out. */
enum { MAX_NODES = 1000000 };
#define MAX_VISITS 30000000LL

const char *jac_var_name(const XVar *v)
{
    switch (v->kind) {
    case XV_TIME: return "t";
    case XV_WINDOW: return v->index ? "t1" : "t0";
    case XV_COUNT: return "count";
    case XV_TRIG: return v->cos ? "cos" : "sin";
    case XV_RANDOM: return arena_printf("%s#%d", (v->index >> 20) == 0 ? "draw" : "draw_at_use", (v->index & 0xFFFFF) + 1);
    case XV_DW: return arena_printf("dW#%d", v->index + 1);
    case XV_STEP: return "h";
    default: return v->sym ? v->sym->name : "?";
    }
}

static void group_failed(Jacobian *J, JacGroup grp, Loc loc, const char *msg)
{
    if (J->fail[grp].failed) return;
    J->fail[grp].failed = true;
    J->fail[grp].loc = loc;
    J->fail[grp].msg = msg;
}

/* The builder's or the differentiator's failure, or the graph's overflow, for
 * this group (any: whether the group has anything to differentiate; a model
 * without events has no event function to fail on). */
static void collect_failures(Jacobian *J, JacGroup grp, const XBuilder *b, const XDeriv *d, bool any)
{
    Loc nowhere = {0, 0, 0, 0};
    if (!any) return;
    if (J->g->overflow)   /* (first: what the builder and the differentiator then say follows from it) */
        group_failed(J, grp, nowhere,
                     arena_printf("the model is too large for symbolic differentiation (written out, with user "
                                  "functions and temporaries inlined, its derivatives exceed %d expression nodes)",
                                  MAX_NODES));
    if (b->failed) group_failed(J, grp, b->fail_loc, b->fail_msg);
    if (d->failed) group_failed(J, grp, d->fail_loc, d->fail_msg);
}

static XNode **nodes(int n) { return arena_alloc(sizeof(XNode *) * (size_t)(n > 0 ? n : 1)); }

/* Differentiate with respect to var from now on.  (A graph that has
 * overflowed returns NaN for every node, variables too: nothing more is
 * differentiated, and collect_failures says why.) */
static void wrt(XDeriv *d, XNode *var)
{
    if (var->op != X_VAR) {
        d->failed = true;
        d->fail_msg = "the model is too large for symbolic differentiation";
        xd_wrt(d, NULL, "?");   /* (forgets what was memoised: xd now returns NaN) */
        return;
    }
    xd_wrt(d, var->var, jac_var_name(var->var));
}

/* ------------------------------------------------------------------ sparsity
 *
 * A derivative is taken only where it can be non-zero: with respect to the
 * variables an output mentions (its support).  A model of n states whose
 * equations each read a few states costs O(n) derivatives, not n² (issue 19,
 * D6: 4000 states took minutes). */

typedef struct Support {
    int **cols;         /* by output: the indexes of the variables it mentions, ascending */
    int *ncols;
} Support;

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The variables of kind `kind` each of outs[0..n) depends on (as depends() in
 * deriv.c: through derived parameters and the arguments of sin/cos of time).
 * An output NULL has none.  Work: the outputs' sub-graphs, each walked once. */
static Support supports(Jacobian *J, XNode *const *outs, int n, XVarKind kind)
{
    XGraph *g = J->g;
    Support s = {arena_alloc(sizeof(int *) * (size_t)(n + 1)), arena_alloc(sizeof(int) * (size_t)(n + 1))};
    int *node_seen = arena_alloc(sizeof(int) * (size_t)(g->nnodes + 1));   /* output + 1 */
    int *var_seen = arena_alloc(sizeof(int) * (size_t)(g->nvars + 1));
    XNode **stack = NULL;
    int depth = 0, capstack = 0, *cols = NULL, capcols = 0;
    for (int i = 0; i < n; i++) {
        int ncols = 0;
        if (outs[i]) {
            stack = arena_grow(stack, depth, &capstack, sizeof *stack);
            stack[depth++] = outs[i];
        }
        while (depth) {
            XNode *x = stack[--depth];
            if (x->id >= g->nnodes || node_seen[x->id] == i + 1) continue;   /* (nodes made since: none here) */
            node_seen[x->id] = i + 1;
            XNode *next[3] = {x->a, x->b, x->c};
            if (x->op == X_VAR) {
                XVar *v = x->var;
                next[0] = v->kind == XV_TRIG ? v->arg : v->kind == XV_DERIVED ? v->def : NULL;
                next[1] = next[2] = NULL;
                if (v->kind == kind && var_seen[v->id] != i + 1) {
                    var_seen[v->id] = i + 1;
                    cols = arena_grow(cols, ncols, &capcols, sizeof *cols);
                    cols[ncols++] = v->index;
                }
            }
            for (int k = 0; k < 3; k++)
                if (next[k]) {
                    stack = arena_grow(stack, depth, &capstack, sizeof *stack);
                    stack[depth++] = next[k];
                }
        }
        if (ncols > 1) qsort(cols, (size_t)ncols, sizeof *cols, compare_int);
        s.cols[i] = arena_alloc(sizeof(int) * (size_t)(ncols + 1));
        if (ncols) memcpy(s.cols[i], cols, sizeof(int) * (size_t)ncols);
        s.ncols[i] = ncols;
    }
    return s;
}

/* d(outs[i])/d(var_j) for every output and every variable j < nvar of the
 * kind (syms[j]: its symbol) that it depends on: the non-zero entries, row by
 * row.  The graph's nodes are made in the order of a dense loop over j, then
 * i (the derivative of an output that does not depend on the variable makes
 * no node), so that node ids, and the generated code, are those of that loop. */
static JacEntry *sparse_derivatives(Jacobian *J, XDeriv *d, XNode *const *outs, int n, XVarKind kind,
                                    Symbol *const *syms, int nvar, int *count)
{
    Support s = supports(J, outs, n, kind);
    int *per_col = arena_alloc(sizeof(int) * (size_t)(nvar + 1)), total = 0;
    for (int i = 0; i < n; i++) {
        total += s.ncols[i];
        for (int k = 0; k < s.ncols[i]; k++) per_col[s.cols[i][k]]++;
    }
    int *first = arena_alloc(sizeof(int) * (size_t)(nvar + 1)), *rows = arena_alloc(sizeof(int) * (size_t)(total + 1));
    for (int j = 0; j < nvar; j++) first[j + 1] = first[j] + per_col[j];
    int *fill = arena_alloc(sizeof(int) * (size_t)(nvar + 1));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < s.ncols[i]; k++) {
            int j = s.cols[i][k];
            rows[first[j] + fill[j]++] = i;   /* rows ascending within each column */
        }
    XNode ***dv = arena_alloc(sizeof(XNode **) * (size_t)(n + 1));   /* by row: one per support column */
    int *done = arena_alloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) dv[i] = arena_alloc(sizeof(XNode *) * (size_t)(s.ncols[i] + 1));
    for (int j = 0; j < nvar; j++) {
        XNode *var = xg_var(J->g, kind, j, syms[j]);
        if (first[j] == first[j + 1]) continue;
        wrt(d, var);
        for (int r = first[j]; r < first[j + 1]; r++) {
            int i = rows[r];
            dv[i][done[i]++] = xd(d, outs[i]);   /* columns ascending: the k-th is cols[i][k] */
        }
    }
    JacEntry *list = arena_alloc(sizeof *list * (size_t)(total + 1));
    *count = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < s.ncols[i]; k++)
            if (!xg_is_const(dv[i][k], 0)) list[(*count)++] = (JacEntry){i, s.cols[i][k], dv[i][k]};
    return list;
}


/* Piecewise constructs recorded while differentiating f (once each, in the
 * order they were met). */
static void collect_pieces(Jacobian *J, const XDeriv *d)
{
    const Model *m = J->m;
    int *slot = arena_alloc(sizeof(int) * (size_t)J->g->nnodes), cap = 0;   /* by node id: index + 1 */
    for (int i = 0; i < d->npieces; i++) {
        const XPiece *p = &d->pieces[i];
        if (!slot[p->node->id]) {
            J->pieces = arena_grow(J->pieces, J->npieces, &cap, sizeof *J->pieces);
            JacPiece *to = &J->pieces[J->npieces++];
            to->node = p->node;
            to->kind = xnode_piecewise(p->node);
            to->states = arena_alloc(sizeof(bool) * (size_t)(m->nstate + 1));
            slot[p->node->id] = J->npieces;
        }
        JacPiece *to = &J->pieces[slot[p->node->id] - 1];
        if (p->var->kind == XV_STATE) {
            to->states[p->var->index] = true;
            to->on_states = true;
        }
    }
}

typedef struct Switches {
    Jacobian *J;
    bool *seen;         /* by node id */
    int nseen, cap;
} Switches;

static void add_switch(Switches *sw, XNode *g, const XNode *piece)
{
    Jacobian *J = sw->J;
    if (g->op == X_CONST) return;
    if (g->id >= sw->nseen) {   /* nodes made since */
        bool *seen = arena_alloc(sizeof(bool) * (size_t)(2 * J->g->nnodes));
        if (sw->nseen) memcpy(seen, sw->seen, sizeof(bool) * (size_t)sw->nseen);
        sw->seen = seen;
        sw->nseen = 2 * J->g->nnodes;
    }
    if (sw->seen[g->id]) return;
    sw->seen[g->id] = true;
    J->switches = arena_grow(J->switches, J->nswitch, &sw->cap, sizeof *J->switches);
    J->switches[J->nswitch++] = (JacSwitch){g, piece};
}

/* The functions whose sign changes where n switches (n a piecewise construct
 * or a condition under one). */
static void switches_of(Switches *sw, XNode *n, const XNode *piece)
{
    XGraph *g = sw->J->g;
    XNode *a = n->a, *b = n->b;
    switch (n->op) {
    case X_ABS: case X_HEAV: case X_SIGN: add_switch(sw, a, piece); return;
    case X_FLR: case X_CEIL:   /* signed distance to the nearest integer */
        add_switch(sw, xg_sub(g, a, xg_un(g, X_FLR, xg_add(g, a, xg_const(g, 0.5)))), piece);
        return;
    case X_MOD: {              /* … of a/b */
        XNode *q = xg_div(g, a, b);
        add_switch(sw, xg_sub(g, q, xg_un(g, X_FLR, xg_add(g, q, xg_const(g, 0.5)))), piece);
        return;
    }
    case X_MAX: case X_MIN: case X_LT: case X_GT: case X_LE: case X_GE: case X_EQ: case X_NE:
        add_switch(sw, xg_sub(g, a, b), piece);
        return;
    case X_TABLE: case X_TABLE_SLOPE: {   /* at the tabulated points: u = (a - xlo)/dx crosses an integer */
        XNode *u = xg_div(g, xg_sub(g, a, xg_const(g, n->tab->xlo)), xg_const(g, n->tab->dx));
        add_switch(sw, xg_sub(g, u, xg_un(g, X_FLR, xg_add(g, u, xg_const(g, 0.5)))), piece);
        return;
    }
    case X_AND: case X_OR: switches_of(sw, a, piece); switches_of(sw, b, piece); return;
    case X_NOT: switches_of(sw, a, piece); return;
    case X_SELECT: switches_of(sw, a, piece); return;
    default: add_switch(sw, n, piece); return;   /* a number as a truth value: where it is 0 */
    }
}

static void build_rhs(Jacobian *J, const TimeTrig *trig)
{
    const Model *m = J->m;
    XGraph *g = J->g;
    int n = m->nstate;
    XBuilder b;
    xb_init(&b, g, m, trig);
    J->f = nodes(n);
    for (int i = 0; i < n; i++) J->f[i] = xb_expr(&b, m->states[i]->expr);
    XDeriv d;
    xd_init(&d, g, MAX_VISITS);
    J->J = sparse_derivatives(J, &d, J->f, n, XV_STATE, m->states, n, &J->nJ);
    wrt(&d, xg_var(g, XV_TIME, 0, NULL));
    J->dfdt = nodes(n);
    J->autonomous = true;
    for (int i = 0; i < n; i++) {
        J->dfdt[i] = xd(&d, J->f[i]);
        J->autonomous &= xg_is_const(J->dfdt[i], 0);
    }
    J->P = sparse_derivatives(J, &d, J->f, n, XV_PARAM, m->params, m->nparam, &J->nP);
    collect_pieces(J, &d);
    Switches sw = {J, NULL, 0, 0};
    for (int i = 0; i < J->npieces; i++) switches_of(&sw, J->pieces[i].node, J->pieces[i].node);
    collect_failures(J, JAC_RHS, &b, &d, true);
}

static void build_events(Jacobian *J)
{
    const Model *m = J->m;
    XGraph *g = J->g;
    XBuilder b;
    xb_init(&b, g, m, NULL);
    XDeriv d;
    xd_init(&d, g, MAX_VISITS);
    J->ev = arena_alloc(sizeof(EventGrad) * (size_t)(m->nevent + 1));
    for (int e = 0; e < m->nevent; e++) {
        EventGrad *eg = &J->ev[e];
        eg->g = xb_expr(&b, m->events[e].expr);
        eg->gy = nodes(m->nstate);
        for (int j = 0; j < m->nstate; j++) eg->gy[j] = xg_const(g, 0);
        int nonzero;
        const JacEntry *gy = sparse_derivatives(J, &d, &eg->g, 1, XV_STATE, m->states, m->nstate, &nonzero);
        for (int k = 0; k < nonzero; k++) eg->gy[gy[k].col] = gy[k].d;
        wrt(&d, xg_var(g, XV_TIME, 0, NULL));
        eg->gt = xd(&d, eg->g);
    }
    collect_failures(J, JAC_EVENTS, &b, &d, m->nevent > 0);
}

/* The block's map of the states and its derivatives (blocks a, then b). */
static void build_reset(Jacobian *J, ResetJac *r, XBuilder *b, XDeriv *d, const Node *first, const Node *second)
{
    const Model *m = J->m;
    XGraph *g = J->g;
    int n = m->nstate;
    xb_reset_values(b);
    xb_block(b, first);
    xb_block(b, second);
    r->post = nodes(n);
    memcpy(r->post, b->y, sizeof(XNode *) * (size_t)n);
    XNode **assigned = nodes(n);   /* the rows that may differ from the identity */
    for (int i = 0; i < n; i++)
        assigned[i] = r->post[i] != xg_var(g, XV_STATE, i, m->states[i]) ? r->post[i] : NULL;
    /* (rows of the states the block leaves alone are the identity: not listed) */
    r->R = sparse_derivatives(J, d, assigned, n, XV_STATE, m->states, n, &r->nR);
    r->Rt = nodes(n);
    wrt(d, xg_var(g, XV_TIME, 0, NULL));
    for (int i = 0; i < n; i++) {
        bool same = !assigned[i];
        r->resets |= !same;
        r->Rt[i] = same ? xg_const(g, 0) : xd(d, r->post[i]);
        r->time_dependent |= !xg_is_const(r->Rt[i], 0);
    }
}

static void build_resets(Jacobian *J)
{
    const Model *m = J->m;
    XBuilder b;
    xb_init(&b, J->g, m, NULL);
    XDeriv d;
    xd_init(&d, J->g, MAX_VISITS);
    J->start.what = "on start";
    J->start.line = m->on_start.body ? m->on_start.line : 0;
    build_reset(J, &J->start, &b, &d, m->on_start.body, NULL);
    J->end.what = "on end";
    J->end.line = m->on_end.body ? m->on_end.line : 0;
    build_reset(J, &J->end, &b, &d, m->on_end.body, NULL);
    J->on_event = arena_alloc(sizeof(ResetJac) * (size_t)(m->nevent + 1));
    for (int e = 0; e < m->nevent; e++) {
        const Event *ev = &m->events[e];
        ResetJac *r = &J->on_event[e];
        r->what = arena_printf("%s %s", ev->is_global ? "global" : "event", ev->sym->name);
        r->line = ev->line;
        b.event = e;
        build_reset(J, r, &b, &d, ev->body, ev->on_body);
    }
    collect_failures(J, JAC_RESETS, &b, &d, m->nevent > 0 || m->on_start.body || m->on_end.body);
}

Jacobian *jacobian_build(const Model *m, const TimeTrig *trig)
{
    Jacobian *J = arena_alloc(sizeof *J);
    J->m = m;
    J->g = xg_new(m->single, MAX_NODES);
    if (m->arrays_kept) {   /* arrays kept as loops: their derivatives by element (array_jacobian.c) */
        Loc nowhere = {0, 0, 0, 0};
        J->f = nodes(m->nstate);
        J->dfdt = nodes(m->nstate);
        group_failed(J, JAC_RHS, nowhere, "the derivatives of arrays kept as loops are not available yet");
        group_failed(J, JAC_RESETS, nowhere, "the derivatives of arrays kept as loops are not available yet");
        build_events(J);
        return J;
    }
    build_rhs(J, trig);
    build_events(J);
    build_resets(J);
    return J;
}

bool jacobian_require(const Jacobian *J, JacGroup group, const char *feature)
{
    const JacFailure *f = &J->fail[group];
    if (!f->failed) return true;
    static const char *const what[JAC_NGROUPS] = {"the right-hand side", "an event function",
                                                  "an event's or hook's statements"};
    if (f->loc.line > 0)
        error_at(f->loc, "%s needs the derivative of %s: %s", feature, what[group], f->msg);
    else
        error_file("%s needs the derivative of %s: %s", feature, what[group], f->msg);
    return false;
}

/* Cost of evaluating a set of outputs once (shared nodes once). */
static XCost outputs_cost(const Jacobian *J, XNode *const *outs, int n)
{
    XCse c;
    cse_run(&c, J->g, outs, n, CSE_SHARED);
    return cse_cost(&c);
}

JacCosts jacobian_costs(const Jacobian *J)
{
    int n = J->m->nstate;
    XNode **outs = arena_alloc(sizeof(XNode *) * (size_t)(n + J->nJ + 1));
    for (int i = 0; i < n; i++) outs[i] = J->f[i];
    for (int e = 0; e < J->nJ; e++) outs[n + e] = J->J[e].d;
    JacCosts c;
    c.f = outputs_cost(J, outs, n);
    c.J = outputs_cost(J, outs + n, J->nJ);
    c.fJ = outputs_cost(J, outs, n + J->nJ);
    return c;
}
