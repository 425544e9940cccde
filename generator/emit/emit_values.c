/* emit_values.c — values chosen when a system is loaded: initial values that
 * are expressions of parameters (`init y1=a0`), and XPPAUT's parameter sets
 * (`set fast {a=2, x=0.5}`, the runner's --set-name).
 *
 * Both are host-side data of the generated model: the library computes the
 * initial values from each system's parameters before it hands the system to
 * the integrator (model_initial_values), and the runner applies a set to the
 * values it starts every system from (model_set_apply).
 */
#include "base/arena.h"
#include "emit/emitter.h"

void emit_initial(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    buf_printf(o, "/* Initial values that are expressions of parameters: computed for each system\n"
                  " * when it is loaded, from its parameters (derived parameters computed first). */\n"
                  "#define ODE_NINIT_EXPR %d\n", m->ninit_expr);
    buf_printf(o, "static const unsigned char ode_state_init_expr[ODE_ALLOC(%d)] = {", m->nstate);
    for (int i = 0; i < m->nstate; i++) buf_printf(o, "%s%d", i ? ", " : "", m->states[i]->init_expr != NULL);
    buf_puts(o, m->nstate ? "};\n" : "0};\n");
    buf_puts(o, "ODE_HD static ODE_INLINE void ode_model_initial(OdeSystem *ode_s)\n{\n    (void)ode_s;\n");
    Refs r = {0}, none = {0};
    for (int i = 0; i < m->nstate; i++) refs_expr(&r, m->states[i]->init_expr);
    for (int k = 0; k < r.n; k++)
        if (r.s[k]->kind == SYM_TIME) {   /* x(0)=EXPR of t with delays: the value at t=0, as XPPAUT's */
            buf_puts(o, "    const ode_real t = 0;\n");
            refs_remove_at(&r, k);
            break;
        }
    emit_locals(E, &r, &none, STATES_FROM_SYSTEM, false, 0);
    for (int i = 0; i < m->nstate; i++) {
        const Symbol *s = m->states[i];
        if (!s->init_expr) continue;
        buf_printf(o, "    /* %s(0)  (%s:%d) */\n", s->name, E->path_comment, s->init_expr->loc.line);
        to_user_line(E, s->init_expr->loc.line);
        buf_printf(o, "    ode_s->y[%d] = ", i);
        emit_value(E, s->init_expr, 0);
        buf_puts(o, ";\n");
        to_generated(E);
    }
    buf_puts(o, "}\n\n");
}

/* A run-time option's place in the runner's list (runtime/options.c,
 * ode_option_words: dt, t0, total, toler, atoler, dtmin, dtmax, maxsteps,
 * bound), for a set that gives it. */
static int runtime_option_index(const char *name)
{
    static const char *const words[] = {"dt", "t0", "total", "toler", "atoler", "dtmin", "dtmax", "maxsteps", "bound"};
    for (int i = 0; i < (int)(sizeof words / sizeof *words); i++)
        if (name_eq(words[i], name)) return i;
    return -1;
}

void emit_sets(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    buf_puts(o, "/* Parameter sets of the file (set NAME {…}): values of parameters and initial\n"
                " * values, chosen together (the runner's --set-name NAME). */\n"
                "typedef struct OdeSetItem {\n    int target_kind;        /* ODE_TARGET_PARAM, _STATE or _OPTION */\n"
                "    int target;             /* its index */\n    double value;\n} OdeSetItem;\n"
                "typedef struct OdeParamSet {\n    const char *name;\n    int n;\n    const OdeSetItem *items;\n"
                "} OdeParamSet;\n");
    for (int k = 0; k < m->nset; k++) {
        const ParamSet *ps = &m->sets[k];
        buf_printf(o, "static const OdeSetItem ode_set_items_%d[ODE_ALLOC(%d)] = {", k, ps->n);
        for (int i = 0; i < ps->n; i++)
            if (ps->targets[i])
                buf_printf(o, "%s{%s, %d, %s}", i ? ", " : "",
                           ps->targets[i]->kind == SYM_PARAM ? "ODE_TARGET_PARAM" : "ODE_TARGET_STATE",
                           ps->targets[i]->index, c_literal(ps->values[i], false));
            else    /* an XPPAUT option in the set: its place in runtime/options.c's list */
                buf_printf(o, "%s{ODE_TARGET_OPTION, %d /* %s */, %s}", i ? ", " : "", runtime_option_index(ps->options[i]),
                           ps->options[i], c_literal(ps->values[i], false));
        buf_puts(o, ps->n ? "};\n" : "{0, 0, 0.0}};\n");
    }
    buf_printf(o, "static const OdeParamSet ode_sets[ODE_ALLOC(%d)] = {\n", m->nset);
    for (int k = 0; k < m->nset; k++)
        buf_printf(o, "    {\"%s\", %d, ode_set_items_%d},   /* line %d */\n", m->sets[k].name, m->sets[k].n, k,
                   m->sets[k].line);
    if (!m->nset) buf_puts(o, "    {\"\", 0, 0}\n");
    buf_printf(o, "};\n#define ODE_NSET %d\n\n", m->nset);
}
