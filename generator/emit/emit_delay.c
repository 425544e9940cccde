/* emit_delay.c — what templates/delay.h needs of a model with delay(x, tau):
 * its constants, which state each delayed one is, the history before t0
 * (x(0)=EXPR of t) and its slope (a stiff method's df/dt reads it), and the
 * delays of parameters only (breaking points).  The calls themselves are
 * written by emit_expr.c and emit_jacobian.c (ode_delay(…), ode_delay_slope(…)).
 */
#include "base/arena.h"
#include "deriv/history.h"
#include "emit/emitter.h"

void emit_delay_constants(Emitter *E)
{
    const Model *m = E->m;
    if (!m->ndelay) return;
    buf_printf(E->out, "#define ODE_NDELAY %d               /* states read by delay(…) (delay.h) */\n", m->ndelay);
    buf_printf(E->out, "#define ODE_NDELAY_SITES %d         /* delay(…) calls */\n", m->ndelay_sites);
    buf_printf(E->out, "#define ODE_NDELAY_CONST %d         /* delays of parameters only: breaking points */\n",
               m->ndelay_const);
    buf_printf(E->out, "#define ODE_DELAY_MAX %s            /* @ delay: the longest */\n",
               c_literal(m->delay_max, false));
}

/* A function of the system and t: `body` returns expression e (locals for
 * the parameters it reads; t is the function's argument). */
static void emit_returned(Emitter *E, const Node *e, const char *lead)
{
    Refs r = {0}, none = {0};
    refs_expr(&r, e);
    buf_printf(E->out, "%s{\n", lead);
    emit_locals(E, &r, &none, STATES_FROM_SYSTEM, false, 0);
    to_user_line(E, e->loc.line);
    buf_puts(E->out, "        return ");
    emit_value(E, e, 0);
    buf_puts(E->out, ";\n");
    to_generated(E);
    buf_puts(E->out, "    }\n");
}

void emit_delay_functions(Emitter *E)
{
    const Model *m = E->m;
    if (!m->ndelay) return;
    Buf *o = E->out;
    buf_puts(o, "/* The state that delayed state k is. */\n"
                "ODE_HD static ODE_INLINE int ode_delay_state(int ode_k)\n{\n    switch (ode_k) {\n");
    for (int k = 0; k < m->ndelay; k++)
        buf_printf(o, "    case %d: return %d;   /* %s */\n", k, m->delayed[k]->index, m->delayed[k]->name);
    buf_puts(o, "    default: return 0;\n    }\n}\n\n");

    buf_puts(o, "/* Delayed state k before the history's start (x(0)=EXPR of t; 0 without one, as XPPAUT). */\n"
                "ODE_HD static ODE_INLINE ode_real ode_model_history(const OdeSystem *ode_s, int ode_k, ode_real t)\n"
                "{\n    (void)ode_s;\n    (void)t;\n    switch (ode_k) {\n");
    for (int k = 0; k < m->ndelay; k++) {
        const Symbol *s = m->delayed[k];
        if (!s->hist_expr) continue;
        buf_printf(o, "    /* %s(0)=…  (%s:%d) */\n", s->name, E->path_comment, s->hist_expr->loc.line);
        emit_returned(E, s->hist_expr, arena_printf("    case %d: ", k));
    }
    buf_printf(o, "    default: return %s;\n    }\n}\n\n", c_literal(0.0, E->single));

    buf_puts(o, "/* The slope d/dt of delayed state k's history before the start (deriv/history.c). */\n"
                "ODE_HD static ODE_INLINE ode_real ode_model_history_slope(const OdeSystem *ode_s, int ode_k, ode_real t)\n"
                "{\n    (void)ode_s;\n    (void)t;\n    switch (ode_k) {\n");
    const HistorySlopes *hs = history_slopes(m);
    for (int k = 0; k < m->ndelay; k++) {
        const Symbol *s = m->delayed[k];
        if (!s->hist_expr) continue;
        if (!hs->slope[k]) {   /* (NaN: a stiff step that reads it fails with a status, never a wrong value) */
            buf_printf(o, "    case %d: return (ode_real)NAN;   /* d/dt of %s(0)=… is not available: %s */\n", k, s->name,
                       hs->fail[k]);
            continue;
        }
        buf_printf(o, "    case %d: {   /* d/dt of %s(0)=…  (%s:%d) */\n        ode_real ode_r;\n", k, s->name,
                   E->path_comment, s->hist_expr->loc.line);
        GraphOut out = {"ode_r", hs->slope[k], NULL, s->hist_expr->loc.line, NULL};
        emit_graph_outputs(E, hs->g, &out, 1, false, "        ");
        buf_puts(o, "        return ode_r;\n    }\n");
    }
    buf_printf(o, "    default: return %s;\n    }\n}\n\n", c_literal(0.0, E->single));

    buf_puts(o, "/* The delays of parameters only, this system's (delay.h: breaking points). */\n"
                "ODE_HD static ODE_INLINE void ode_model_delay_taus(const OdeSystem *ode_s, ode_real *ode_tau)\n"
                "{\n    (void)ode_s;\n    (void)ode_tau;\n");
    Refs r = {0}, none = {0};
    for (int j = 0; j < m->ndelay_const; j++) refs_expr(&r, m->delay_const[j]);
    emit_locals(E, &r, &none, STATES_FROM_SYSTEM, false, 0);
    for (int j = 0; j < m->ndelay_const; j++) {
        to_user_line(E, m->delay_const[j]->loc.line);
        buf_printf(o, "    ode_tau[%d] = ", j);
        emit_value(E, m->delay_const[j], 0);
        buf_puts(o, ";\n");
        to_generated(E);
    }
    buf_puts(o, "}\n\n");
}
