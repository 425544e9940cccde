/* noise.c — how the Wiener processes enter the equations, from the
 * derivatives: which noise each SDE method may integrate, and the
 * expressions Milstein's and the weak-order-2 scheme evaluate.
 *
 * With f(t, y, w) the right-hand side and w the Wiener processes' values
 * (XPPAUT's normal/sqrt(dt)), the SDE is dy = a(t, y) dt + Σ_j b^j(t, y) dW_j
 * with b^j = ∂f/∂w_j and a = f(t, y, 0) when f is affine in w (every
 * ∂b^j/∂w_k is 0).  The noise is
 *   additive       when no b^j depends on the state;
 *   diagonal       when each w_j drives one equation, whose coefficient
 *                  depends on that equation's state only (and states
 *                  without noise);
 *   commutative    when L^j b^k = L^k b^j for j ≠ k, L^j = Σ_l b^j_l ∂/∂y_l
 *                  (checked on the graph: both are the same node, 0 in
 *                  particular): Milstein needs no Lévy areas then;
 *   general        otherwise.
 * Markov states and ran()/normal() of the right-hand side are constant over
 * a step: parameters of a, b^j.  The checks (noise_check_methods) run after
 * check_program, before anything is written.
 */
#include "deriv/noise.h"

#include <string.h>

#include "base/arena.h"
#include "check/method.h"
#include "deriv/deriv.h"
#include "deriv/expr_build.h"
#include "front/diag.h"

enum { MAX_NODES = 1000000 };
#define MAX_VISITS 30000000LL

static XNode **nodes(int n) { return arena_alloc(sizeof(XNode *) * (size_t)(n > 0 ? n : 1)); }

static XNode *wiener_var(XGraph *g, const Model *m, int j) { return xg_var(g, XV_WIENER, j, m->wieners[j]); }

/* A state on which node depends (some ∂/∂y_l not 0), or -1; a markov
 * state, constant over a step, does not count. */
static int state_dependence(XDeriv *d, XGraph *g, const Model *m, XNode *node)
{
    for (int l = 0; l < m->nstate; l++) {
        if (m->states[l]->markov) continue;
        xd_wrt(d, xg_var(g, XV_STATE, l, m->states[l])->var, m->states[l]->name);
        if (!xg_is_const(xd(d, node), 0)) return l;
    }
    return -1;
}

NoiseGraphs *noise_build(const Model *m, const TimeTrig *trig)
{
    NoiseGraphs *N = arena_alloc(sizeof *N);
    const int n = m->nstate, nw = m->nwiener;
    N->m = m;
    N->g = xg_new(m->single, MAX_NODES);
    XGraph *g = N->g;
    XBuilder b;
    xb_init(&b, g, m, trig);
    N->f = nodes(n);
    for (int i = 0; i < n; i++) N->f[i] = xb_expr(&b, m->states[i]->expr);
    XBuilder b0;   /* the drift: every w at 0 */
    xb_init(&b0, g, m, trig);
    b0.no_wiener = true;
    N->drift = nodes(n);
    for (int i = 0; i < n; i++) N->drift[i] = xb_expr(&b0, m->states[i]->expr);
    XDeriv d;
    xd_init(&d, g, MAX_VISITS);
    N->b = nodes(nw * n);
    N->affine = true;
    for (int j = 0; j < nw; j++) {
        xd_wrt(&d, wiener_var(g, m, j)->var, m->wieners[j]->name);
        for (int i = 0; i < n; i++) N->b[j * n + i] = xd(&d, N->f[i]);
    }
    /* affine in w: no b^j depends on a w */
    for (int k = 0; k < nw && N->affine; k++) {
        xd_wrt(&d, wiener_var(g, m, k)->var, m->wieners[k]->name);
        for (int j = 0; j < nw && N->affine; j++)
            for (int i = 0; i < n && N->affine; i++)
                if (!xg_is_const(xd(&d, N->b[j * n + i]), 0)) {
                    N->affine = false;
                    N->nonlinear_row = i;
                    N->nonlinear_w = k;
                }
    }
    /* additive, diagonal */
    N->additive = true;
    N->diagonal = true;
    int *row_of = arena_alloc(sizeof(int) * (size_t)(nw + 1));
    int *w_of = arena_alloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) w_of[i] = -1;
    for (int j = 0; j < nw; j++) {
        row_of[j] = -1;
        for (int i = 0; i < n; i++) {
            if (xg_is_const(N->b[j * n + i], 0)) continue;
            if (row_of[j] >= 0 || w_of[i] >= 0) N->diagonal = false;
            row_of[j] = i;
            w_of[i] = j;
            int l = state_dependence(&d, g, m, N->b[j * n + i]);
            if (l >= 0) {
                N->additive = false;
                if (!N->mult_row_set) {
                    N->mult_row_set = true;
                    N->mult_row = i;
                    N->mult_w = j;
                }
            }
        }
    }
    /* L^{jk}_i = Σ_l b^j_l ∂b^k_i/∂y_l (Milstein's terms; commutativity) */
    N->L = nodes(nw * nw * n);
    N->commutative = true;
    for (int k = 0; k < nw * nw * n; k++) N->L[k] = xg_const(g, 0);
    if (N->affine && !N->additive) {
        XNode **db = nodes(nw * n * n);   /* ∂b^k_i/∂y_l at [(k * n + i) * n + l] */
        for (int l = 0; l < n; l++) {
            xd_wrt(&d, xg_var(g, XV_STATE, l, m->states[l])->var, m->states[l]->name);
            for (int k = 0; k < nw; k++)
                for (int i = 0; i < n; i++) db[(k * n + i) * n + l] = xd(&d, N->b[k * n + i]);
        }
        for (int j = 0; j < nw; j++)
            for (int k = 0; k < nw; k++)
                for (int i = 0; i < n; i++) {
                    XNode *sum = xg_const(g, 0);
                    for (int l = 0; l < n; l++)
                        sum = xg_add(g, sum, xg_mul(g, N->b[j * n + l], db[(k * n + i) * n + l]));
                    N->L[(j * nw + k) * n + i] = sum;
                }
        for (int j = 0; j < nw && N->commutative; j++)
            for (int k = j + 1; k < nw && N->commutative; k++)
                for (int i = 0; i < n; i++)
                    if (N->L[(j * nw + k) * n + i] != N->L[(k * nw + j) * n + i]) {
                        N->commutative = false;
                        N->cross_row = i;
                        N->cross_j = j;
                        N->cross_k = k;
                        break;
                    }
    }
    N->failed = b.failed || b0.failed || d.failed || g->overflow;
    if (b.failed) N->fail_loc = b.fail_loc, N->fail_msg = b.fail_msg;
    else if (b0.failed) N->fail_loc = b0.fail_loc, N->fail_msg = b0.fail_msg;
    else if (d.failed) N->fail_loc = d.fail_loc, N->fail_msg = d.fail_msg;
    else N->fail_msg = "the model is too large for symbolic differentiation";
    return N;
}

const char *noise_class(const NoiseGraphs *N)
{
    if (!N->m->nwiener) return "none";
    if (!N->affine) return "nonlinear in the Wiener processes";
    if (N->additive) return "additive";
    if (N->diagonal) return "diagonal";
    if (N->commutative) return "commutative";
    return "general (non-commutative)";
}

bool noise_check_methods(const Model *m)
{
    if (!m->nwiener) return true;
    int errors = diag_error_count();
    TimeTrig trig = {0};
    find_time_trig(m, &trig);
    NoiseGraphs *N = noise_build(m, &trig);
    const Method meth = m->method;
    Loc at = m->method_loc;
    const bool needs_graphs = meth == METH_MILSTEIN || meth == METH_WEAK2;
    if (needs_graphs && N->failed) {
        if (N->fail_loc.line > 0)
            error_at(N->fail_loc, "meth=%s needs the derivatives of the noise terms: %s", method_name(meth), N->fail_msg);
        else
            error_file("meth=%s needs the derivatives of the noise terms: %s", method_name(meth), N->fail_msg);
        return false;
    }
    if (!N->affine) {
        const Symbol *row = m->states[N->nonlinear_row];
        const char *w = m->wieners[N->nonlinear_w]->name;
        if (needs_graphs)
            error_at(row->expr_line, "meth=%s: the Wiener process '%s' enters %s' nonlinearly; the SDE methods need "
                                     "noise terms b(t, y)·%s; use meth=euler (XPPAUT's reading: %s is a number per "
                                     "step)", method_name(meth), w, row->name, w, w);
        else
            warning_at(row->expr_line, "the Wiener process '%s' enters %s' nonlinearly: as in XPPAUT it is the number "
                                       "normal(0,1)/sqrt(dt) held over a step, which is no white noise there (its "
                                       "square grows as 1/dt)", w, row->name);
        return diag_error_count() == errors;
    }
    if (meth == METH_MILSTEIN && !N->commutative) {
        const Symbol *row = m->states[N->cross_row];
        error_at(row->expr_line,
                 "meth=milstein needs commutative noise (diagonal, additive, or a single Wiener process): in %s' "
                 "the noise of '%s' and of '%s' do not commute (L^%s b^%s differs from L^%s b^%s), so the scheme "
                 "would need the Levy areas of the two processes; use meth=euler (strong order 0.5) or weak2 "
                 "(weak order 2)", row->name, m->wieners[N->cross_j]->name, m->wieners[N->cross_k]->name,
                 m->wieners[N->cross_j]->name, m->wieners[N->cross_k]->name, m->wieners[N->cross_k]->name,
                 m->wieners[N->cross_j]->name);
    }
    if ((meth == METH_RK4 || meth == METH_MODEULER) && !N->additive) {
        const Symbol *row = m->states[N->mult_row];
        note_at(at.line ? at : row->expr_line,
                "meth=%s with multiplicative noise ('%s' in %s' is multiplied by a function of the state): as in "
                "XPPAUT, the noise is held over each step and the stages see it as a smooth forcing, which converges "
                "to the Stratonovich SDE, not the Ito one; meth=euler (Euler-Maruyama, XPPAUT's), milstein or weak2 "
                "integrate the Ito SDE", method_name(meth), m->wieners[N->mult_w]->name, row->name);
    }
    return diag_error_count() == errors;
}
