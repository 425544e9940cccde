/* emit_noise.c — the noise of the generated model (check/noise.c says
 * where each random number is drawn, deriv/noise.c how the Wiener processes
 * enter): its constants, the draws of one step (ode_model_step_draws), the
 * markov chains' jumps (ode_model_markov), and the terms the SDE methods
 * evaluate — Milstein's correction (ode_model_milstein), the drift and the
 * noise columns of the weak-order-2 scheme (ode_model_drift,
 * ode_model_noise).  templates/sde.h calls them. */
#include <string.h>

#include "base/arena.h"
#include "base/util.h"
#include "check/method.h"
#include "deriv/noise.h"
#include "emit/emitter.h"

void emit_noise_constants(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    if (!model_has_noise(m)) return;
    buf_puts(o, "#define ODE_NOISE 1                 /* random numbers while integrating (rng.h, noise.h, sde.h) */\n");
    buf_printf(o, "#define ODE_NWIENER %d               /* wiener: Wiener processes */\n", m->nwiener);
    buf_printf(o, "#define ODE_NSITE %d                 /* ran()/normal() of the right-hand side: drawn once per step */\n",
               m->nsite[SITE_STEP]);
    buf_printf(o, "#define ODE_NMARKOV %d               /* markov chains */\n", m->nmarkov);
    if (m->nwiener) {
        NoiseGraphs *N = noise_build(m, &E->trig);
        buf_printf(o, "#define ODE_NOISE_CLASS \"%s\"\n", noise_class(N));
    }
    buf_printf(o, "#define ODE_DEFAULT_SEED %s          /* @ seed (XPPAUT's default: 12345678) */\n",
               c_literal(m->seed, false));
    buf_printf(o, "#define ODE_DEFAULT_NOISESUB %s\n", c_literal(m->noisesub, false));
}

/* ------------------------------------------------------------------ the draws of a step */

static void emit_step_draws(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    buf_puts(o, "/* ran() and normal() of the right-hand side: drawn at the start of each step and held over\n"
                " * its stages (ode_s->xi: a uniform for ran, a standard normal for normal). */\n");
    buf_puts(o, "ODE_HD static ODE_INLINE void ode_model_step_draws(OdeSystem *ode_s)\n{\n");
    for (int k = 0; k < m->nsite[SITE_STEP]; k++) {
        const RandomSite *r = &m->sites[SITE_STEP][k];
        buf_printf(o, "    ode_s->xi[%d] = ode_noise_%s(ode_s, ODE_RNG_STEP, %d);   /* %s()  (%s:%d) */\n", k,
                   r->normal ? "normal" : "uniform", k, r->call->name, E->path_comment, r->call->loc.line);
    }
    buf_puts(o, "}\n\n");
}

/* ------------------------------------------------------------------ markov chains */

static void emit_markov(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    Refs r = {0}, none = {0};
    for (int c = 0; c < m->nmarkov; c++)
        for (int i = 0; i < m->markovs[c].n * m->markovs[c].n; i++) refs_expr(&r, m->markovs[c].rate[i]);
    buf_puts(o, "/* The markov chains, at the start of a step of length ode_h, as XPPAUT's new_state\n"
                " * (markov.c): a chain in state i (its value within 1e-4 of i) jumps to the first j != i,\n"
                " * in order, for which its coin U <= the sum of rate[i][k]*h over k != i up to j; the\n"
                " * rates at the step's start, every chain's jump from the values before any jumped. */\n");
    buf_puts(o, "ODE_HD static ODE_INLINE void ode_model_markov(OdeSystem *ode_s, ode_real t, ode_real ode_h)\n{\n"
                "    (void)t;\n");
    for (int c = 0; c < m->nmarkov; c++) {   /* each chain's own value is read */
        Node v;
        memset(&v, 0, sizeof v);
        v.kind = N_NAME;
        v.sym = m->markovs[c].var;
        v.name = v.sym->name;
        refs_expr(&r, &v);
    }
    emit_locals(E, &r, &none, STATES_FROM_SYSTEM, false, 0);
    emit_computed(E, &r);
    buf_printf(o, "    ode_real ode_next[%d];\n", m->nmarkov);
    for (int c = 0; c < m->nmarkov; c++) {
        const Markov *k = &m->markovs[c];
        buf_printf(o, "    /* markov %s, %d states  (%s:%d) */\n    {\n", k->var->name, k->n, E->path_comment, k->line);
        buf_printf(o, "        const ode_real ode_u = ode_noise_uniform(ode_s, ODE_RNG_STEP, ODE_NSITE + %d);\n", c);
        buf_printf(o, "        ode_real ode_sum = %s;\n        int ode_jumped = 0;\n", c_literal(0.0, E->single));
        buf_printf(o, "        ode_next[%d] = %s;\n", c, k->var->cname);
        for (int i = 0; i < k->n; i++) {
            buf_printf(o, "        %sif (ode_fabs(%s - %s) < %s) {   /* in state %d */\n", i ? "else " : "",
                       k->var->cname, c_literal((double)i, E->single), c_literal(0.0001, E->single), i);
            for (int j = 0; j < k->n; j++) {
                if (j == i) continue;
                const Node *rate = k->rate[i * k->n + j];
                to_user_line(E, rate->loc.line);
                buf_puts(o, "            if (!ode_jumped) {\n                ode_sum += (");
                emit_value(E, rate, 0);
                buf_puts(o, ") * ode_h;\n");
                to_generated(E);
                buf_printf(o, "                if (ode_u <= ode_sum) { ode_next[%d] = %s; ode_jumped = 1; }   /* to %d */\n"
                              "            }\n",
                           c, c_literal((double)j, E->single), j);
            }
            buf_puts(o, "        }\n");
        }
        buf_puts(o, "        (void)ode_jumped;\n    }\n");
    }
    for (int c = 0; c < m->nmarkov; c++)
        buf_printf(o, "    ode_s->y[%d] = ode_next[%d];\n", m->markovs[c].var->index, c);
    buf_puts(o, "}\n\n");
}

/* ------------------------------------------------------------------ the SDE methods' terms */

/* Milstein's correction c_i = 1/2 Σ_{j,k} L^{jk}_i (ΔW_j ΔW_k - δ_jk h), L^{jk}_i = Σ_l b^j_l ∂b^k_i/∂y_l:
 * for commutative noise (deriv/noise.c checked it), the terms of the Itô–Taylor expansion of strong
 * order 1 (Kloeden and Platen 1992, eq. 10.3.3 with 10.3.15). */
static void emit_milstein(Emitter *E, const NoiseGraphs *N)
{
    const Model *m = E->m;
    XGraph *g = N->g;
    const int n = m->nstate, nw = m->nwiener;
    GraphOut *outs = arena_alloc(sizeof(GraphOut) * (size_t)(n + 1));
    int nouts = 0;
    XNode *h = xg_var(g, XV_STEP, 0, NULL);
    for (int i = 0; i < n; i++) {
        XNode *sum = xg_const(g, 0);
        for (int j = 0; j < nw; j++)
            for (int k = 0; k < nw; k++) {
                XNode *L = N->L[(j * nw + k) * n + i];
                if (xg_is_const(L, 0)) continue;
                XNode *dwj = xg_var(g, XV_DW, j, NULL), *dwk = xg_var(g, XV_DW, k, NULL);
                XNode *factor = xg_mul(g, dwj, dwk);
                if (j == k) factor = xg_sub(g, factor, h);
                sum = xg_add(g, sum, xg_mul(g, L, factor));
            }
        if (xg_is_const(sum, 0)) continue;
        outs[nouts++] = (GraphOut){arena_printf("ode_c[%d]", i), xg_mul(g, xg_const(g, 0.5), sum),
                                   arena_printf("Milstein's correction of %s'", m->states[i]->name),
                                   m->states[i]->expr_line.line, NULL};
    }
    buf_printf(E->out, "/* Milstein's correction c = 1/2 sum_jk L^jk (dW_j dW_k - [j == k] h), L^jk_i = sum_l b^j_l "
                       "d(b^k_i)/d(y_l),\n * b^j = d(f)/d(w_j): noise %s (deriv/noise.c). */\n", noise_class(N));
    buf_puts(E->out, "ODE_HD static ODE_INLINE void ode_model_milstein(const OdeSystem *ode_s, ode_real t, const ode_real "
                     "*ode_y,\n                                                const ode_real *ode_dw, ode_real ode_h, "
                     "ode_real *ode_c, const OdeTrig *ode_tr)\n{\n"
                     "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_dw;\n    (void)ode_h;\n"
                     "    (void)ode_tr;\n");
    buf_printf(E->out, "    ODE_UNROLL for (int ode_i = 0; ode_i < ODE_NSTATE; ode_i++) ode_c[ode_i] = %s;\n",
               c_literal(0.0, E->single));
    emit_graph_outputs(E, g, outs, nouts, false, "    ");
    buf_puts(E->out, "}\n\n");
}

/* The drift a = f(t, y, w = 0) and the noise columns b^j = d(f)/d(w_j) at
 * (t, y): what the weak-order-2 scheme evaluates at its supporting values. */
static void emit_drift_noise(Emitter *E, const NoiseGraphs *N)
{
    const Model *m = E->m;
    const int n = m->nstate, nw = m->nwiener;
    GraphOut *outs = arena_alloc(sizeof(GraphOut) * (size_t)(n * (nw > 1 ? nw : 1) + 1));
    int nouts = 0;
    for (int i = 0; i < n; i++)
        outs[nouts++] = (GraphOut){arena_printf("ode_a[%d]", i), N->drift[i],
                                   arena_printf("the drift of %s'", m->states[i]->name), m->states[i]->expr_line.line, NULL};
    buf_puts(E->out, "/* The drift a = f(t, y, w = 0). */\n");
    buf_puts(E->out, "ODE_HD static ODE_INLINE void ode_model_drift(const OdeSystem *ode_s, ode_real t, const ode_real "
                     "*ode_y, ode_real *ode_a,\n                                             const OdeTrig *ode_tr)\n{\n"
                     "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n");
    emit_graph_outputs(E, N->g, outs, nouts, false, "    ");
    buf_puts(E->out, "}\n\n");
    nouts = 0;
    for (int j = 0; j < nw; j++)
        for (int i = 0; i < n; i++) {
            XNode *b = N->b[j * n + i];
            if (xg_is_const(b, 0)) continue;
            outs[nouts++] = (GraphOut){arena_printf("ode_b[%d]", j * n + i), b,
                                       arena_printf("d(%s')/d(%s)", m->states[i]->name, m->wieners[j]->name),
                                       m->states[i]->expr_line.line, NULL};
        }
    buf_printf(E->out, "/* The noise columns b^j_i = d(f_i)/d(w_j) at [j * ODE_NSTATE + i]: noise %s. */\n",
               noise_class(N));
    buf_puts(E->out, "ODE_HD static ODE_INLINE void ode_model_noise(const OdeSystem *ode_s, ode_real t, const ode_real "
                     "*ode_y, ode_real *ode_b,\n                                             const OdeTrig *ode_tr)\n{\n"
                     "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n");
    buf_printf(E->out, "    ODE_UNROLL for (int ode_i = 0; ode_i < ODE_NWIENER * ODE_NSTATE; ode_i++) ode_b[ode_i] = %s;\n",
               c_literal(0.0, E->single));
    emit_graph_outputs(E, N->g, outs, nouts, false, "    ");
    buf_puts(E->out, "}\n\n");
}

void emit_noise(Emitter *E)
{
    const Model *m = E->m;
    if (!model_has_noise(m)) return;
    if (m->nsite[SITE_STEP]) emit_step_draws(E);
    if (m->nmarkov) emit_markov(E);
    if (m->method != METH_MILSTEIN && m->method != METH_WEAK2) return;
    NoiseGraphs *N = noise_build(m, &E->trig);
    if (m->method == METH_MILSTEIN) emit_milstein(E, N);
    else emit_drift_noise(E, N);
}
