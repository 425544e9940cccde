/* emit_lyapunov.c — what `lyapunov N` and `period` add to the generated
 * model section: their constants, their recordable fields, and the values
 * `period` compares.  The work itself is in templates/tangent.h and
 * templates/period.h; a model without the statements gets nothing from here
 * (the templates' defaults say "none"). */
#include <math.h>

#include "base/arena.h"
#include "emit/emitter.h"
#include "deriv/expr_cse.h"
#include "deriv/jacobian.h"

/* Whether the Jacobian reads sin/cos of time (the tangent step then
 * computes them at its stages). */
static bool jacobian_reads_trig(const Jacobian *J)
{
    if (J->fail[JAC_RHS].failed || !J->nJ) return false;
    XNode **outs = arena_alloc(sizeof(XNode *) * (size_t)J->nJ);
    for (int e = 0; e < J->nJ; e++) outs[e] = J->J[e].d;
    XCse c;
    cse_run(&c, J->g, outs, J->nJ, CSE_SHARED);
    for (int i = 0; i < c.nreached; i++)
        if (c.reached_list[i]->op == X_VAR && c.reached_list[i]->var->kind == XV_TRIG) return true;
    return false;
}

void emit_lyapunov_constants(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    if (m->nlyap) {
        buf_printf(o, "#define ODE_NLYAP %d                /* lyapunov %d (%s:%d): tangent.h */\n", m->nlyap, m->nlyap,
                   E->path_comment, m->lyap_loc.line);
        buf_printf(o, "#define ODE_LYAP_EVERY_ON %d\n#define ODE_LYAP_EVERY %s   /* re-orthonormalise every T too */\n",
                   m->lyap_every > 0, c_literal(m->lyap_every, false));
        buf_printf(o, "#define ODE_JAC_TRIG %d             /* the Jacobian reads sin/cos of time */\n",
                   jacobian_reads_trig(E->jac));
    }
    if (m->period_on) {
        const Loc at = m->period_field ? m->period_loc : m->attractor_loc;
        buf_printf(o, "#define ODE_PERIOD 1               /* %s (%s:%d): period.h */\n",
                   m->period_field ? "period" : "attractor", E->path_comment, at.line);
        buf_printf(o, "#define ODE_PERIOD_MAX %d\n#define ODE_PERIOD_NQ %d            /* quantities compared */\n",
                   m->period_max, m->nperiod_of);
        buf_printf(o, "#define ODE_PERIOD_TOL %s\n", c_literal(m->period_tol, false));
        buf_printf(o, "#define ODE_PERIOD_FIELD %d         /* the field period is recorded */\n", m->period_field != NULL);
    }
    if (m->attractor_field) {
        buf_printf(o, "#define ODE_ATTRACTOR 1            /* attractor (%s:%d): attractor.h */\n", E->path_comment,
                   m->attractor_loc.line);
        buf_printf(o, "#define ODE_ATTRACTOR_DIST %s    /* grouping tolerance of fingerprints */\n",
                   c_literal(m->attractor_dist, false));
        buf_printf(o, "#define ODE_ATTRACTOR_MATCH %s   /* continuation: the largest distance matched */\n",
                   isinf(m->attractor_match) ? "HUGE_VAL" : c_literal(m->attractor_match, false));
        buf_puts(o, "static const int ode_attractor_of[ODE_PERIOD_NQ] = {");
        for (int i = 0; i < m->nperiod_of; i++) buf_printf(o, "%s%d", i ? ", " : "", emit_field_code(m, m->period_of[i]));
        buf_puts(o, "};\n");
    }
}

void emit_statement_fields(Emitter *E, int code)
{
    const Model *m = E->m;
    Buf *o = E->out;
    for (int k = 0; k < m->nlyap; k++)
        buf_printf(o, "    case %d: return ode_lyap_value(ode_s, %d);   /* lyap%d */\n", code++, k, k + 1);
    if (m->lyap_trace_field) buf_printf(o, "    case %d: return ode_lyap_trace_err(ode_s);\n", code++);
    if (m->period_field) buf_printf(o, "    case %d: return ode_period_value(ode_s);\n", code++);
    if (m->attractor_field)   /* the label: written by the host's grouping (runtime/attractor.c) */
        buf_printf(o, "    case %d: return (ode_real)NAN;   /* attractor */\n", code++);
    buf_printf(o, "    default: return (ode_real)NAN;\n    }\n}\n\n");
}

void emit_period_values(Emitter *E)
{
    const Model *m = E->m;
    if (!m->period_on) return;
    Buf *o = E->out;
    buf_printf(o, "/* The quantities `%s` compares (%s:%d), by their field codes. */\n",
               m->period_field ? "period" : "attractor", E->path_comment,
               (m->period_field ? m->period_loc : m->attractor_loc).line);
    buf_puts(o, "ODE_HD static ODE_INLINE void ode_model_period_values(const OdeSystem *ode_s, ode_real *ode_q)\n{\n");
    for (int i = 0; i < m->nperiod_of; i++)
        buf_printf(o, "    ode_q[%d] = ode_model_field(ode_s, %d);   /* %s */\n", i, emit_field_code(m, m->period_of[i]),
                   m->period_of[i]->name);
    buf_puts(o, "}\n\n");
}
