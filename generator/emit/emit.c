/* emit.c — the generated files: the model section between the templates,
 * the API header, the runner's entry point and the Makefile.
 *
 * The model section is written so that a reader can follow it back to the
 * .ode file: a comment names the line each piece comes from, and #line
 * directives make compiler messages point into the .ode file.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "emit/embedded.h"
#include "emit/emit.h"
#include "emit/emitter.h"
#include "emit/escape.h"
#include "check/method.h"
#include "base/util.h"

/* ------------------------------------------------------------------ model constants */


/* `save every=DT [, systems=list(…)]`: ODE_SAVE and the defaults the
 * runner and the library start from. */
static void emit_save_constants(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    if (m->save_every > 0)
        buf_printf(o, "#define ODE_SAVE 1                 /* save every=… (%s:%d) */\n", E->path_comment, m->save_loc.line);
    else
        buf_puts(o, "#define ODE_SAVE 0                 /* no `save` line */\n");
    buf_printf(o, "#define ODE_SAVE_EVERY %s\n", c_literal(m->save_every, false));
    buf_printf(o, "#define ODE_NSAVE_SYSTEMS %d       /* 0: every system */\n", m->nsave_systems);
    buf_printf(o, "#define ODE_SAVE_MAX %ld            /* samples kept per integration (0: from the window) */\n",
               m->save_max);
}

/* The run-time options' values in the file (@ dt=…, or odegen's defaults):
 * what a solver starts from (templates/options.h, runtime/options.c). */
static void emit_option_defaults(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    buf_printf(o, "#define ODE_DEFAULT_DT %s          /* run-time options (options.h): the file's values */\n",
               c_literal(m->dt, false));
    buf_printf(o, "#define ODE_DEFAULT_T0 %s\n", c_literal(m->t0, false));
    buf_printf(o, "#define ODE_DEFAULT_TOTAL %s\n", c_literal(m->total, false));
    buf_printf(o, "#define ODE_DEFAULT_TOLER %s\n", c_literal(m->toler, false));
    buf_printf(o, "#define ODE_DEFAULT_ATOLER %s\n", c_literal(m->atoler, false));
    buf_printf(o, "#define ODE_DEFAULT_DTMIN %s\n", c_literal(m->dtmin, false));
    buf_printf(o, "#define ODE_DEFAULT_DTMAX %s\n", c_literal(m->dtmax, false));
    buf_printf(o, "#define ODE_DEFAULT_MAXSTEPS %lldULL\n", m->maxsteps);
    buf_printf(o, "#define ODE_DEFAULT_BOUND %s\n", c_literal(m->bound, false));
}

/* Who integrates one system (check/layout.c): the layout and the team's size,
 * each under #ifndef so that a build may choose another team (-DODE_LAYOUT=,
 * -DODE_TEAM_SIZE=: the loop form serves every team). */
static void emit_layout_constants(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    static const char *const names[] = {"thread", "warp", "block"};
    if (!m->loop_form) {
        buf_printf(o, "#define ODE_LAYOUT 0               /* thread: one system per thread%s */\n",
                   m->layout_from_rule ? ", the rule's choice for the model's size" : "");
        return;
    }
    buf_printf(o, "#define ODE_LOOP_FORM 1             /* the model in loop form: a team integrates a system */\n");
    if (!m->arrays_kept)   /* (else the arrays' own scratch, below) */
        buf_printf(o, "#define ODE_NSCRATCH 0              /* array temporaries: none (the arrays written out) */\n");
    buf_printf(o, "#ifndef ODE_LAYOUT\n#define ODE_LAYOUT %d               /* %s (team.h)%s */\n#endif\n", m->layout,
               names[m->layout], m->layout_from_rule ? ", the rule's choice for the model's size" : "");
    buf_printf(o, "#ifndef ODE_TEAM_SIZE\n#define ODE_TEAM_SIZE %d            /* threads per team */\n#endif\n", m->team);
    emit_tile_constants(E);
}

/* Recordable fields: states, aux, accessories, parameters, derived, t, t0,
 * t1, then lyap1 … lyapN, lyap_trace_err (N = n), period and attractor where the model computes them. */
static int field_count(const Model *m)
{
    return m->nstate + m->naux + m->nacc + m->nparam + m->nderived + 3 + m->nlyap + (m->lyap_trace_field != NULL) +
           (m->period_field != NULL) + (m->attractor_field != NULL);
}

/* Which events follow XPPAUT's rules (templates/firing.h): the `global`s,
 * and among them the `global 0`s, as masks with one bit per event. */
static void emit_event_kinds(Emitter *E)
{
    const Model *m = E->m;
    unsigned long long global = 0, exact = 0;
    for (int i = 0; i < m->nevent; i++) {
        if (!m->events[i].is_global) continue;
        global |= 1ULL << i;
        if (m->events[i].dir == 0) exact |= 1ULL << i;
    }
    buf_printf(E->out, "#define ODE_EVENTS_GLOBAL 0x%llxULL      /* XPPAUT `global`s (firing.h) */\n", global);
    buf_printf(E->out, "#define ODE_EVENTS_EXACT 0x%llxULL       /* `global 0`s: exactly zero at a step's end */\n", exact);
}

static void emit_constants(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    int nfield = field_count(m);
    buf_printf(o, "#define ODE_MODEL_NAME \"%s\"\n", m->name);
    buf_printf(o, "#define ODE_FLOAT %d\n", m->single);
    buf_printf(o, "#define ODE_NSTATE %d\n#define ODE_NPARAM %d\n#define ODE_NDERIVED %d\n", m->nstate,
               m->nparam, m->nderived);
    buf_printf(o, "#define ODE_NAUX %d\n#define ODE_NACC %d\n#define ODE_NEVENT %d\n", m->naux, m->nacc,
               m->nevent);
    buf_printf(o, "#define ODE_NFIELD %d              /* states, aux, accessories, parameters, derived, t, t0, t1%s */\n",
               nfield, m->nlyap || m->period_field || m->attractor_field ? ", lyapunov, period, attractor" : "");
    buf_printf(o, "#define ODE_NTRIG %d               /* sin/cos of time in the right-hand side */\n", E->trig.n);
    if (m->plain_trig)
        buf_puts(o, "#define ODE_TRIG_ROTATE 0         /* --no-time-trig: no angle addition in RK4 */\n");
    buf_printf(o, "#define ODE_METHOD %d               /* %s: %s (tableaux.h) */\n", (int)m->method,
               method_name(m->method), method_description(m->method));
    if (m->params_assigned)
        buf_puts(o, "#define ODE_PARAMS_ASSIGNED 1     /* a block assigns a parameter: written back with the state */\n");
    emit_option_defaults(E);
    buf_printf(o, "#define ODE_OPT_HGROW ODE_R(%s)\n", c_literal(m->hgrow, false));
    buf_printf(o, "#define ODE_OPT_HSHRINK ODE_R(%s)\n", c_literal(m->hshrink, false));
    buf_printf(o, "#define ODE_OPT_EVSTEPS %ld\n", m->evsteps);
    buf_printf(o, "#define ODE_OPT_EVPOINTS %d\n", m->evpoints);
    emit_event_kinds(E);
    buf_printf(o, "#define ODE_HAS_ON_START %d\n#define ODE_HAS_ON_STEP %d\n#define ODE_HAS_ON_END %d\n",
               m->on_start.body != NULL, m->on_step.body != NULL, m->on_end.body != NULL);
    buf_printf(o, "#define ODE_ON_START_WINDOW %d      /* on start assigns t0 or t1 */\n", block_sets_window(m->on_start.body));
    buf_printf(o, "#define ODE_DEFAULT_TRANSIENT %ld\n#define ODE_DEFAULT_RECORD %ld\n", m->transient, m->record);
    emit_save_constants(E);
    emit_lyapunov_constants(E);
    if (m->arrays_kept) {
        buf_printf(o, "#define ODE_NSCRATCH %ld            /* reals of the array temporaries (arrays kept as loops) */\n",
                   m->nscratch);
        /* The templates' loops over the states unrolled by 16, not fully: a stage's loops over
           4096 states written out made nvcc's front end run for over half an hour; loops of at
           most 16 trips (stages, events) are still unrolled whole (templates/prelude.h). */
        buf_puts(o, "#if defined(__CUDA_ARCH__)\n#define ODE_UNROLL _Pragma(\"unroll 16\")\n"
                    "#elif defined(__GNUC__)\n#define ODE_UNROLL _Pragma(\"GCC unroll 16\")\n#endif\n");
    }
    emit_delay_constants(E);
    emit_dae_constants(E);
    emit_noise_constants(E);
    buf_puts(o, "#ifndef ODE_BLOCK_SIZE\n#define ODE_BLOCK_SIZE 128          /* threads per block, at most */\n#endif\n");
    emit_layout_constants(E);
    emit_lu_constants(E);
}

/* ------------------------------------------------------------------ model functions */

static void emit_powers(Emitter *E)
{
    for (int k = 2; k < 64; k++) {
        if (!(E->powers & (1ULL << k))) continue;
        buf_printf(E->out, "/* x^%d by repeated squaring */\n", k);
        buf_printf(E->out, "ODE_HD static ODE_INLINE ode_real ode_pow%d(ode_real x)\n{\n", k);
        buf_puts(E->out, "    ode_real r = x;\n");
        int top = 0;    /* the highest set bit of k */
        while (k >> (top + 1)) top++;
        for (int bit = top - 1; bit >= 0; bit--) {
            buf_puts(E->out, "    r = r * r;\n");
            if (k & (1 << bit)) buf_puts(E->out, "    r = r * x;\n");
        }
        buf_puts(E->out, "    return r;\n}\n\n");
    }
}

/* n and the nodes after it in its list (a loop: a block may hold a hundred
 * thousand statements; the recursion only goes as deep as the tree). */
static void mark_powers(Emitter *E, const Node *n)
{
    for (; n; n = n->next) {
        if (n->kind == N_POW) {
            int k = integer_power(n);
            int a = k < 0 ? -k : k;
            if (a >= 2 && (a > 3 || !(n->lhs->kind == N_NUM || (n->lhs->kind == N_NAME && n->lhs->sym &&
                                                                 n->lhs->sym->kind != SYM_TEMP &&
                                                                 n->lhs->sym->kind != SYM_AUX))))
                E->powers |= 1ULL << a;
        }
        mark_powers(E, n->lhs);
        mark_powers(E, n->rhs);
        mark_powers(E, n->cond);
        mark_powers(E, n->args);
        mark_powers(E, n->body);
        mark_powers(E, n->els);
    }
}

static void mark_all_powers(Emitter *E)
{
    const Model *m = E->m;
    for (int i = 0; i < m->nsyms; i++) mark_powers(E, m->syms[i]->expr);
    for (int i = 0; i < m->nevent; i++) {
        mark_powers(E, m->events[i].expr);
        mark_powers(E, m->events[i].body);
        mark_powers(E, m->events[i].on_body);
    }
    for (int i = 0; i < m->narray; i++) mark_powers(E, m->arrays[i].sym->expr);
    mark_powers(E, m->on_start.body);
    mark_powers(E, m->on_step.body);
    mark_powers(E, m->on_end.body);
}

/* fn(i) returning values[i]: a switch, or one value for all.  With
 * `options`, fn also takes the run-time options (read by the values). */
static void emit_per_index(Emitter *E, const char *type, const char *fn, bool options, int n, const char **values)
{
    bool same = true;
    for (int i = 1; i < n; i++) same &= !strcmp(values[i], values[0]);
    buf_printf(E->out, "ODE_HD static ODE_INLINE %s %s(%sint i)\n{\n%s", type, fn,
               options ? "const OdeOptions *ode_opt, " : "", options ? "    (void)ode_opt;\n" : "");
    if (same || n <= 1) {
        buf_printf(E->out, "    (void)i;\n    return %s;\n}\n", n ? values[0] : "0");
        return;
    }
    buf_puts(E->out, "    switch (i) {\n");
    for (int i = 0; i < n - 1; i++) buf_printf(E->out, "    case %d: return %s;\n", i, values[i]);
    buf_printf(E->out, "    default: return %s;\n    }\n}\n", values[n - 1]);
}

/* A state's tolerance: the run-time toler (atoler) where the file gives the
 * state none of its own, else its `tolerance` line's value scaled as the
 * run-time value is from the file's (options.h). */
static void emit_tolerance(Emitter *E, const char *fn, bool relative)
{
    const Model *m = E->m;
    const double model_wide = relative ? m->toler : m->atoler;
    const char **v = arena_alloc(sizeof(char *) * (size_t)(m->nstate + 1));
    for (int i = 0; i < m->nstate; i++) {
        const double own = relative ? m->states[i]->rtol : m->states[i]->atol;
        v[i] = own == model_wide ? (relative ? "ODE_OPT_TOLER" : "ODE_OPT_ATOLER")
                                 : arena_printf("%s * %s", c_literal(own, E->single),
                                                relative ? "ODE_OPT_TOLER_SCALE" : "ODE_OPT_ATOLER_SCALE");
    }
    emit_per_index(E, "ode_real", fn, true, m->nstate, v);
}

static void emit_properties(Emitter *E)
{
    const Model *m = E->m;
    const char **v = arena_alloc(sizeof(char *) * (size_t)(m->nstate + m->nevent + 1));
    buf_puts(E->out, "/* Tolerances per state (adaptive methods; the run-time toler and atoler, or a `tolerance`\n"
                     " * line's values scaled with them) and event properties (compile-time constants). */\n");
    emit_tolerance(E, "ode_rtol", true);
    emit_tolerance(E, "ode_atol", false);
    for (int i = 0; i < m->nevent; i++) v[i] = arena_printf("%d", m->events[i].dir);
    emit_per_index(E, "int", "ode_event_dir", false, m->nevent, v);
    for (int i = 0; i < m->nevent; i++) v[i] = c_literal(m->events[i].tol, E->single);
    emit_per_index(E, "ode_real", "ode_event_tol", false, m->nevent, v);
    for (int i = 0; i < m->nevent; i++) v[i] = arena_printf("%d", m->events[i].stop);
    emit_per_index(E, "int", "ode_event_stop", false, m->nevent, v);
    for (int i = 0; i < m->nevent; i++) v[i] = arena_printf("%d", m->events[i].halt - 1);
    emit_per_index(E, "int", "ode_event_halt", false, m->nevent, v);
    buf_puts(E->out, "\n");
}

static void emit_functions(Emitter *E)
{
    const Model *m = E->m;
    for (int i = 0; i < m->nfunc; i++) {
        const Symbol *f = m->funcs[i];
        Refs r = {0}, none = {0};
        refs_expr(&r, f->expr);
        int kept = 0;
        for (int k = 0; k < r.n; k++)   /* constants from the system; the values it reads come as arguments */
            if (r.s[k]->kind == SYM_NUMBER || r.s[k]->kind == SYM_PARAM || r.s[k]->kind == SYM_DERIVED)
                r.s[kept++] = r.s[k];
        r.n = kept;
        buf_printf(E->out, "/* %s(", f->name);
        for (int k = 0; k < f->nargs; k++) buf_printf(E->out, "%s%s", k ? ", " : "", f->args[k]->name);
        buf_printf(E->out, ")  (%s:%d)", E->path_comment, f->line);
        if (f->nimplicit) {
            buf_puts(E->out, "; reads");
            for (int k = 0; k < f->nimplicit; k++) buf_printf(E->out, " %s", f->implicit[k]->name);
            buf_puts(E->out, ", passed by each call");
        }
        buf_puts(E->out, " */\n");
        buf_printf(E->out, "ODE_HD static ODE_INLINE ode_real %s(const OdeSystem *ode_s", f->cname);
        for (int k = 0; k < f->nargs; k++) buf_printf(E->out, ", ode_real %s", f->args[k]->cname);
        for (int k = 0; k < f->nimplicit; k++) {
            const Symbol *v = f->implicit[k];
            buf_printf(E->out, ", ode_real %s", v->cname ? v->cname : v->name);
        }
        buf_puts(E->out, ")\n{\n    (void)ode_s;\n");
        emit_locals(E, &r, &none, STATES_FROM_Y, false, 0);
        to_user_line(E, f->expr_line.line);
        buf_puts(E->out, "    return ");
        emit_value(E, f->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
        buf_puts(E->out, "}\n\n");
    }
}

static void emit_derived(Emitter *E)
{
    const Model *m = E->m;
    Refs all = {0}, r = {0}, none = {0};
    buf_puts(E->out, "/* Derived parameters: once per system, before its integrations. */\n");
    buf_puts(E->out, "ODE_HD static ODE_INLINE void ode_model_derived(OdeSystem *ode_s)\n{\n    (void)ode_s;\n");
    for (int i = 0; i < m->nderived; i++) refs_expr(&all, m->derived_order[i]->expr);
    for (int k = 0; k < all.n; k++)   /* derived parameters are computed below, not read from ode_s->d */
        if (all.s[k]->kind != SYM_DERIVED) refs_add(&r, all.s[k]);
    emit_locals(E, &r, &none, STATES_FROM_SYSTEM, false, 0);
    for (int i = 0; i < m->nderived; i++) {
        const Symbol *s = m->derived_order[i];
        emit_sum_loops(E, s->expr, "    ");
        to_user_line(E, s->expr_line.line);
        buf_printf(E->out, "    const ode_real %s = ", s->cname);
        emit_value(E, s->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
        buf_printf(E->out, "    ode_s->d[%d] = %s;\n", s->index, s->cname);
    }
    buf_puts(E->out, "}\n\n");
}

static void emit_rhs(Emitter *E)
{
    const Model *m = E->m;
    if (m->arrays_kept) {
        emit_loop_rhs(E);
        emit_tile_rhs(E);
        return;
    }
    Refs r = {0}, none = {0};
    r.trig_from = &E->trig;
    for (int i = 0; i < m->nstate; i++) refs_expr(&r, m->states[i]->expr);
    if (m->loop_form) {
        buf_puts(E->out, "/* The right-hand side dy/dt at (t, ode_y) in loop form (templates/team.h): each state's\n"
                         " * equation by one lane of ode_team; sin/cos of time come from ode_tr. */\n");
        buf_puts(E->out, "ODE_HD static ODE_INLINE void ode_model_rhs_team(const OdeSystem *ode_s, ode_real t,\n"
                         "                                                 const ode_real *ode_y, ode_real *ode_dy,\n"
                         "                                                 const OdeTrig *ode_tr, ode_real *ode_scratch,\n"
                         "                                                 OdeTeam ode_team)\n{\n"
                         "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n    (void)ode_scratch;\n");
    } else {
        if (dae_by_newton(m))
            buf_puts(E->out, "/* The right-hand side at (t, ode_y): dy/dt of the states, then the constraints g that are 0\n"
                             " * (templates/dae.h solves them for the unknowns, the last states, in ode_model_rhs). */\n");
        else if (m->nalg)
            buf_puts(E->out, "/* The right-hand side F of M dy/dt = F(t, ode_y), M = diag(I, 0): dy/dt of the states, then\n"
                             " * the constraints g that are 0 (the unknowns, the last states; templates/dae.h). */\n");
        else
            buf_puts(E->out, "/* The right-hand side dy/dt at (t, ode_y); sin/cos of time come from ode_tr. */\n");
        buf_printf(E->out, "ODE_HD static ODE_INLINE void %s(const OdeSystem *ode_s, ode_real t,\n"
                           "                                            const ode_real *ode_y, ode_real *ode_dy,\n"
                           "                                            const OdeTrig *ode_tr)\n{\n"
                           "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n",
                   dae_by_newton(m) ? "ode_model_dae_rhs" : "ode_model_rhs");
    }
    E->use_trig = true;
    emit_locals(E, &r, &none, STATES_FROM_Y, false, 0);
    emit_computed(E, &r);
    for (int i = 0; i < m->nstate; i++) {
        const Symbol *s = m->states[i];
        if (i >= m->nstate - m->nalg)
            buf_printf(E->out, "    /* 0 = …  (%s:%d), solved for %s */\n", E->path_comment, s->expr_line.line, s->name);
        else
            buf_printf(E->out, "    /* %s'  (%s:%d) */\n", s->name, E->path_comment, s->line);
        emit_sum_loops(E, s->expr, "    ");
        to_user_line(E, s->expr_line.line);
        buf_printf(E->out, "    %sode_dy[%d] = ", m->loop_form ? arena_printf("if (ODE_TEAM_MINE(%d)) ", i) : "", i);
        emit_value(E, s->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
    }
    E->use_trig = false;
    buf_puts(E->out, "}\n\n");
}

/* sin/cos of the right-hand side's arguments affine in t, and their rates. */
static void emit_trig(Emitter *E)
{
    Refs r = {0}, none = {0};
    for (int k = 0; k < E->trig.n; k++) refs_expr(&r, E->trig.arg[k].arg);
    for (int full = 0; full < 2; full++) {
        if (full)
            buf_puts(E->out, "/* Both sin and cos of each argument, for RK4's angle addition. */\n");
        else
            buf_puts(E->out, "/* sin/cos of time that the right-hand side uses, at time t. */\n");
        buf_printf(E->out, "ODE_HD static ODE_INLINE void ode_model_trig%s(const OdeSystem *ode_s, ode_real t, OdeTrig *ode_tr)\n"
                           "{\n    (void)ode_s;\n    (void)t;\n    (void)ode_tr;\n", full ? "_full" : "");
        emit_locals(E, &r, &none, STATES_FROM_Y, false, 0);
        for (int k = 0; k < E->trig.n; k++) {
            const TrigArg *a = &E->trig.arg[k];
            to_user_line(E, a->arg->loc.line);
            if (full || (a->need_sin && a->need_cos)) {
                buf_puts(E->out, "    ode_sincos(");
                emit_value(E, a->arg, 0);
                buf_printf(E->out, ", &ode_tr->s[%d], &ode_tr->c[%d]);\n", k, k);
            } else {
                buf_printf(E->out, "    ode_tr->%c[%d] = %s(", a->need_sin ? 's' : 'c', k,
                           a->need_sin ? (E->single ? "sinf" : "sin") : (E->single ? "cosf" : "cos"));
                emit_value(E, a->arg, 0);
                buf_puts(E->out, ");\n");
            }
        }
        to_generated(E);
        buf_puts(E->out, "}\n\n");
    }
    Refs rr = {0};
    Node **rates = arena_alloc(sizeof(Node *) * (size_t)(E->trig.n + 1));
    for (int k = 0; k < E->trig.n; k++) {
        rates[k] = time_rate(E->trig.arg[k].arg);
        refs_expr(&rr, rates[k]);
    }
    buf_puts(E->out, "/* d/dt of each argument: its angle grows by rate*h in a step h. */\n");
    buf_puts(E->out, "ODE_HD static ODE_INLINE ode_real ode_model_trig_rate(const OdeSystem *ode_s, int ode_k)\n"
                     "{\n    (void)ode_s;\n    (void)ode_k;\n");
    emit_locals(E, &rr, &none, STATES_FROM_Y, false, 0);
    buf_puts(E->out, "    switch (ode_k) {\n");
    for (int k = 0; k < E->trig.n; k++) {
        buf_printf(E->out, "    %s: return ", k + 1 == E->trig.n ? "default" : arena_printf("case %d", k));
        emit_value(E, rates[k], 0);
        buf_puts(E->out, ";\n");
    }
    if (!E->trig.n) buf_printf(E->out, "    default: return %s;\n", c_literal(0.0, E->single));
    buf_puts(E->out, "    }\n}\n\n");
}

static void emit_events(Emitter *E)
{
    const Model *m = E->m;
    if (m->arrays_kept) {
        emit_loop_events(E);
        return;
    }
    Refs r = {0}, none = {0};
    Runs er = {0};
    if (m->loop_form) {   /* (an event array's events: one loop) */
        E->states = "ode_y";
        er = event_runs(E);
    }
    for (int i = 0; i < m->nevent; i += m->loop_form ? er.len[i] : 1)
        if (!m->loop_form || er.len[i] == 1) refs_expr(&r, m->events[i].expr);
    if (m->loop_form) {
        buf_puts(E->out, "/* Event functions at (t, ode_y) in loop form: each event's by one lane of ode_team, the\n"
                         " * events of an array line by a loop. */\n");
        buf_puts(E->out, "ODE_HD static ODE_INLINE void ode_model_events_team(const OdeSystem *ode_s, ode_real t,\n"
                         "                                                    const ode_real *ode_y, ode_real *ode_g,\n"
                         "                                                    ode_real *ode_scratch, OdeTeam ode_team)\n{\n"
                         "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_g;\n    (void)ode_scratch;\n"
                         "    (void)ode_team;\n");
    } else {
        buf_printf(E->out, "/* Event functions at (t, ode_y): an event fires where one crosses zero%s. */\n",
                   dae_by_newton(m) ? " (ode_y's unknowns solved: templates/dae.h's ode_model_events)" : "");
        buf_printf(E->out, "ODE_HD static ODE_INLINE void %s(const OdeSystem *ode_s, ode_real t,\n"
                           "                                               const ode_real *ode_y, ode_real *ode_g)\n{\n"
                           "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_g;\n",
                   dae_by_newton(m) ? "ode_model_dae_events" : "ode_model_events");
    }
    emit_locals(E, &r, &none, STATES_FROM_Y, false, 0);
    emit_computed(E, &r);
    for (int i = 0; i < m->nevent; i += m->loop_form ? er.len[i] : 1) {
        const Event *ev = &m->events[i];
        if (m->loop_form && er.len[i] > 1) {
            emit_event_run(E, &er, i);
            continue;
        }
        buf_printf(E->out, "    /* %s %s, dir=%d, tol=%g, stop=%d  (%s:%d) */\n", ev->is_global ? "global" : "event",
                   ev->sym->name, ev->dir, ev->tol, ev->stop, E->path_comment, ev->line);
        emit_sum_loops(E, ev->expr, "    ");
        to_user_line(E, ev->line);
        buf_printf(E->out, "    %sode_g[%d] = ", m->loop_form ? arena_printf("if (ODE_TEAM_MINE(%d)) ", i) : "", i);
        emit_value(E, ev->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
    }
    buf_puts(E->out, "}\n\n");
}

static void emit_acc_init(Emitter *E)
{
    const Model *m = E->m;
    Refs r = {0}, none = {0};
    buf_puts(E->out, "/* Accessories' initial values: once per run, when a system was just loaded. */\n");
    buf_puts(E->out, "ODE_HD static ODE_INLINE void ode_model_acc_init(OdeSystem *ode_s)\n{\n    (void)ode_s;\n");
    for (int i = 0; i < m->nacc; i++) refs_expr(&r, m->accs[i]->expr);
    for (int k = 0; k < r.n; k++)
        if (r.s[k]->kind == SYM_TIME) {   /* `t` is where the run starts: t0 */
            buf_puts(E->out, "    const ode_real t = ode_s->t0;\n");
            refs_remove_at(&r, k);
            break;
        }
    emit_locals(E, &r, &none, STATES_FROM_SYSTEM, true, 0);
    emit_computed(E, &r);
    for (int i = 0; i < m->nacc; i++) {
        const Symbol *s = m->accs[i];
        if (!s->expr) {
            buf_printf(E->out, "    ode_s->acc[%d] = %s;   /* %s */\n", i, c_literal(0.0, E->single), s->name);
            continue;
        }
        emit_sum_loops(E, s->expr, "    ");
        to_user_line(E, s->expr_line.line);
        buf_printf(E->out, "    ode_s->acc[%d] = ", i);
        emit_value(E, s->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
    }
    buf_puts(E->out, "}\n\n");
}

static void emit_hook(Emitter *E, const char *name, const Hook *h)
{
    buf_printf(E->out, "/* on %s", name);
    if (h->body) buf_printf(E->out, "  (%s:%d)", E->path_comment, h->line);
    buf_printf(E->out, " */\nODE_HD static ODE_INLINE void ode_model_on_%s(OdeSystem *ode_s)\n{\n    (void)ode_s;\n",
               name);
    emit_block_body(E, h->body, NULL, 0);
    buf_puts(E->out, "}\n\n");
}

static void emit_on_event(Emitter *E)
{
    const Model *m = E->m;
    buf_puts(E->out, "/* After a detection of event ode_e: its statements, then its `on` blocks. */\n");
    buf_puts(E->out, "ODE_HD static ODE_INLINE void ode_model_on_event(OdeSystem *ode_s, int ode_e)\n{\n"
                     "    (void)ode_s;\n    switch (ode_e) {\n");
    for (int i = 0; i < m->nevent; i++) {
        const Event *ev = &m->events[i];
        if (!ev->body && !ev->on_body) continue;
        buf_printf(E->out, "    case %d: {   /* %s  (%s:%d) */\n", i, ev->sym->name, E->path_comment, ev->line);
        emit_block_body(E, ev->body, ev->on_body, i);
        buf_puts(E->out, "    } break;\n");
    }
    buf_puts(E->out, "    default: break;\n    }\n}\n\n");
}

/* Field codes: states, aux, accessories, parameters, derived, t, t0, t1. */
static void emit_fields(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    int code = 0;
    if (m->arrays_kept) {
        emit_loop_fields(E);
        return;
    }
    buf_puts(o, "/* A recordable value by its code (the order of ode_field_names). */\n");
    buf_puts(o, "ODE_HD static ODE_INLINE ode_real ode_model_field(const OdeSystem *ode_s, int ode_code)\n{\n"
                "    switch (ode_code) {\n");
    for (int i = 0; i < m->nstate; i++) buf_printf(o, "    case %d: return ode_s->y[%d];\n", code++, i);
    for (int i = 0; i < m->naux; i++) {
        Refs r = {0}, none = {0};
        refs_expr(&r, m->aux[i]->expr);
        buf_printf(o, "    case %d: {   /* aux %s */\n", code++, m->aux[i]->name);
        emit_locals(E, &r, &none, STATES_FROM_SYSTEM, true, 0);
        emit_computed(E, &r);
        emit_sum_loops(E, m->aux[i]->expr, "        ");
        to_user_line(E, m->aux[i]->expr_line.line);
        buf_puts(o, "        return ");
        emit_value(E, m->aux[i]->expr, 0);
        buf_puts(o, ";\n");
        to_generated(E);
        buf_puts(o, "    }\n");
    }
    for (int i = 0; i < m->nacc; i++) buf_printf(o, "    case %d: return ode_s->acc[%d];\n", code++, i);
    for (int i = 0; i < m->nparam; i++) buf_printf(o, "    case %d: return ode_s->p[%d];\n", code++, i);
    for (int i = 0; i < m->nderived; i++) buf_printf(o, "    case %d: return ode_s->d[%d];\n", code++, i);
    buf_printf(o, "    case %d: return ode_s->t;\n", code++);
    buf_printf(o, "    case %d: return ode_s->t0;\n", code++);
    if (!m->nlyap && !m->period_field && !m->attractor_field) {
        buf_puts(o, "    default: return ode_s->t1;\n    }\n}\n\n");
        return;
    }
    buf_printf(o, "    case %d: return ode_s->t1;\n", code++);
    emit_statement_fields(E, code);
}

int emit_field_code(const Model *m, const Symbol *s)
{
    int base = 0;
    switch (s->kind) {
    case SYM_STATE: return s->index;
    case SYM_AUX: return m->nstate + s->index;
    case SYM_ACC: return m->nstate + m->naux + s->index;
    case SYM_PARAM: return m->nstate + m->naux + m->nacc + s->index;
    case SYM_DERIVED: return m->nstate + m->naux + m->nacc + m->nparam + s->index;
    case SYM_TIME: base = 0; break;
    case SYM_WINDOW: base = 1 + s->index; break;
    case SYM_LYAP: base = 3 + s->index; break;
    case SYM_PERIOD: base = 3 + m->nlyap + (m->lyap_trace_field != NULL); break;
    case SYM_ATTRACTOR: base = 3 + m->nlyap + (m->lyap_trace_field != NULL) + (m->period_field != NULL); break;
    default: break;
    }
    return m->nstate + m->naux + m->nacc + m->nparam + m->nderived + base;
}

static void emit_name_table(Buf *o, const char *table, Symbol **syms, int n)
{
    buf_printf(o, "static const char *const %s[ODE_ALLOC(%d)] = {", table, n);
    for (int i = 0; i < n; i++) buf_printf(o, "%s\"%s\"", i ? ", " : "", syms[i]->name);
    buf_puts(o, n ? "};\n" : "0};\n");
}

static void emit_values_table(Emitter *E, const char *table, Symbol **syms, int n)
{
    buf_printf(E->out, "static const double %s[ODE_ALLOC(%d)] = {", table, n);
    for (int i = 0; i < n; i++) buf_printf(E->out, "%s%s", i ? ", " : "", c_literal(syms[i]->value, false));
    buf_puts(E->out, n ? "};\n" : "0};\n");
}

static void emit_metadata(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    buf_puts(o, "/* Host-side description of the model: names, defaults, the file's scan. */\n");
    emit_name_table(o, "ode_state_names", m->states, m->nstate);
    emit_values_table(E, "ode_state_default", m->states, m->nstate);
    emit_name_table(o, "ode_param_names", m->params, m->nparam);
    emit_values_table(E, "ode_param_default", m->params, m->nparam);
    emit_name_table(o, "ode_derived_names", m->derived, m->nderived);
    emit_name_table(o, "ode_aux_names", m->aux, m->naux);
    emit_name_table(o, "ode_acc_names", m->accs, m->nacc);
    buf_printf(o, "static const char *const ode_event_names[ODE_ALLOC(%d)] = {", m->nevent);
    for (int i = 0; i < m->nevent; i++) buf_printf(o, "%s\"%s\"", i ? ", " : "", m->events[i].sym->name);
    buf_puts(o, m->nevent ? "};\n" : "0};\n");
    buf_puts(o, "static const char *const ode_field_names[ODE_NFIELD] = {");
    Symbol **groups[5] = {m->states, m->aux, m->accs, m->params, m->derived};
    int counts[5] = {m->nstate, m->naux, m->nacc, m->nparam, m->nderived};
    for (int g = 0; g < 5; g++)
        for (int i = 0; i < counts[g]; i++) buf_printf(o, "\"%s\", ", groups[g][i]->name);
    buf_puts(o, "\"t\", \"t0\", \"t1\"");
    for (int k = 0; k < m->nlyap; k++) buf_printf(o, ", \"%s\"", m->lyap_fields[k]->name);
    if (m->lyap_trace_field) buf_puts(o, ", \"lyap_trace_err\"");
    if (m->period_field) buf_puts(o, ", \"period\"");
    if (m->attractor_field) buf_puts(o, ", \"attractor\"");
    buf_puts(o, "};\n");
    buf_printf(o, "static const int ode_default_fields[ODE_ALLOC(%d)] = {", m->nfield);
    for (int i = 0; i < m->nfield; i++) buf_printf(o, "%s%d", i ? ", " : "", emit_field_code(m, m->fields[i]));
    buf_printf(o, "};\n#define ODE_NDEFAULT_FIELDS %d\n", m->nfield);
    for (int i = 0; i < m->nscan; i++) {
        const Scan *s = &m->scans[i];
        if (s->kind != SCAN_LIST) continue;
        buf_printf(o, "static const double ode_scan_values_%d[] = {", i);
        for (long k = 0; k < s->n; k++) buf_printf(o, "%s%s", k ? ", " : "", c_literal(s->values[k], false));
        buf_puts(o, "};\n");
    }
    buf_printf(o, "static const OdeScanSpec ode_default_scans[ODE_ALLOC(%d)] = {\n", m->nscan);
    for (int i = 0; i < m->nscan; i++) {
        const Scan *s = &m->scans[i];
        static const char *const kinds[] = {"ODE_SCAN_LIN", "ODE_SCAN_LOG", "ODE_SCAN_LIST"};
        buf_printf(o, "    {%s, %d, %s, %s, %s, %ld, %s},   /* %s (line %d) */\n",
                   s->target->kind == SYM_PARAM ? "ODE_TARGET_PARAM" : "ODE_TARGET_STATE", s->target->index,
                   kinds[s->kind], c_literal(s->a, false), c_literal(s->b, false), s->n,
                   s->kind == SCAN_LIST ? arena_printf("ode_scan_values_%d", i) : "0", s->target->name, s->line);
    }
    if (!m->nscan) buf_puts(o, "    {0, 0, 0, 0.0, 0.0, 0, 0}\n");
    buf_printf(o, "};\n#define ODE_NSCAN %d\n", m->nscan);
    buf_printf(o, "static const long ode_save_systems[ODE_ALLOC(%d)] = {", m->nsave_systems);
    for (int i = 0; i < m->nsave_systems; i++) buf_printf(o, "%s%ld", i ? ", " : "", m->save_systems[i]);
    buf_puts(o, m->nsave_systems ? "};\n\n" : "0};\n\n");
}

/* ------------------------------------------------------------------ templates */

/* Appends a template, renaming its public identifiers model_… / MODEL_… to
 * the model's own prefix (so two models link into one program). */
static void append_template(Emitter *E, const char *path, bool rename)
{
    const EmbeddedFile *f = embedded_find(path);
    Buf *o = E->out;
    buf_printf(o, "\n/* ======================================================================== %s */\n", path);
    if (!f) {
        buf_printf(o, "#error \"odegen was built without %s\"\n", path);
        return;
    }
    char *upper = arena_strdup(E->m->name);
    for (char *p = upper; *p; p++) *p = (char)toupper((unsigned char)*p);
    const char *s = f->text, *end = f->text + f->len;
    while (s < end) {
        bool word_start = s == f->text || !(isalnum((unsigned char)s[-1]) || s[-1] == '_');
        if (rename && word_start && end - s > 6 && !strncmp(s, "model_", 6)) {
            buf_printf(o, "%s_", E->m->name);
            s += 6;
        } else if (rename && word_start && end - s > 6 && !strncmp(s, "MODEL_", 6)) {
            buf_printf(o, "%s_", upper);
            s += 6;
        } else {
            buf_put(o, s, 1);
            s++;
        }
    }
    if (f->len && f->text[f->len - 1] != '\n') buf_puts(o, "\n");
}

/* ------------------------------------------------------------------ the files */

static const char *upper_name(const char *name)
{
    char *u = arena_strdup(name);
    for (char *p = u; *p; p++) *p = (char)toupper((unsigned char)*p);
    return u;
}

static void emit_source(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    buf_printf(o, "/* %s — " GENERATED_MARKER " from %s; do not edit. */\n", E->cu_name, E->path_comment);
    buf_printf(o, "/*\n * The model %s inlined into odegen's solver templates (method, events,\n"
                  " * accessories) and its host runtime: one source for the GPU (nvcc) and the CPU\n"
                  " * (cc -x c -fopenmp).  Build with `make` in this directory.\n */\n",
               m->name);
    buf_puts(o, "#define ODEGEN_GENERATED 1\n");
    buf_puts(o, "#if !defined(__cplusplus) && !defined(_DEFAULT_SOURCE)\n"
                "#define _DEFAULT_SOURCE 1   /* POSIX functions of the runner under -std=c11 */\n#endif\n");
    buf_printf(o, "#include \"%s.h\"\n\n", m->name);
    buf_printf(o, "/* ======================================================================== model constants (%s) */\n",
               E->path_comment);
    emit_constants(E);
    append_template(E, "templates/prelude.h", false);
    append_template(E, "templates/options.h", false);
    append_template(E, "templates/system.h", false);
    if (m->arrays_kept || m->loop_form || E->lu_loop) append_template(E, "templates/team.h", false);   /* the loop form's team */
    if (m->loop_form || E->lu_loop) append_template(E, "templates/lu_storage.h", false);   /* the stiff matrix's storage */
    if (m->loop_form) append_template(E, "templates/team_system.h", false);   /* the system as a team sees it */
    if (model_has_noise(m)) {
        append_template(E, "templates/rng.h", false);
        append_template(E, "templates/noise.h", false);
    }
    buf_printf(o, "\n/* ======================================================================== model functions (%s) */\n",
               E->path_comment);
    emit_powers(E);
    emit_properties(E);
    emit_tables(E);
    emit_functions(E);
    emit_specials(E);
    emit_derived(E);
    emit_trig(E);
    emit_delay_functions(E);
    emit_rhs(E);
    emit_noise(E);
    emit_events(E);
    emit_acc_init(E);
    emit_initial(E);
    emit_hook(E, "start", &m->on_start);
    emit_hook(E, "step", &m->on_step);
    emit_on_event(E);
    emit_hook(E, "end", &m->on_end);
    emit_jacobian(E);
    if (needs_lu(m)) emit_lu(E);
    if (m->loop_form || E->lu_loop) emit_jacobian_team(E);
    emit_fields(E);
    emit_period_values(E);
    emit_metadata(E);
    emit_provenance(E);
    emit_sets(E);
    static const char *const solver[] = {"templates/dae.h",      "templates/tableaux.h", "templates/stepper.h",    "templates/stability.h",
                                         "templates/dense.h",    "templates/rosenbrock.h", "templates/sde.h",
                                         "templates/symplectic.h",
                                         "templates/event_rules.h", "templates/events.h",
                                         "templates/save.h",     "templates/tangent.h",    "templates/period.h",
                                         "templates/firing.h",   "templates/attractor.h",  "templates/map.h",
                                         "templates/delay.h",
                                         "templates/integrate.h"};
    for (size_t i = 0; i < sizeof solver / sizeof *solver; i++) {
        /* (rosenbrock.h, sde.h and tangent.h call the derivatives or the noise, which a model may
         * lack; a model in loop form has the team's own) */
        if ((!method_is_rosenbrock(m->method) || m->loop_form) && !strcmp(solver[i], "templates/rosenbrock.h")) continue;
        if (!model_has_noise(m) && !strcmp(solver[i], "templates/sde.h")) continue;
        if (m->method != METH_SYMPLECTIC && !strcmp(solver[i], "templates/symplectic.h")) continue;
        if (!m->nlyap && !strcmp(solver[i], "templates/tangent.h")) continue;
        if (m->method != METH_DISCRETE && !strcmp(solver[i], "templates/map.h")) continue;
        if (!m->ndelay && !strcmp(solver[i], "templates/delay.h")) continue;
        if (!m->nalg && !strcmp(solver[i], "templates/dae.h")) continue;
        if (E->lu_loop && !m->loop_form && !strcmp(solver[i], "templates/rosenbrock.h"))
            append_template(E, "templates/team_lu.h", false);   /* one thread's factorisation in loop form */
        append_template(E, solver[i], false);
    }
    if (m->loop_form) {
        static const char *const team[] = {"templates/team_stepper.h", "templates/team_dense.h", "templates/team_lu.h",
                                           "templates/team_rosenbrock.h", "templates/team_events.h", "templates/team_save.h",
                                           "templates/team_integrate.h", "templates/team_driver.h"};
        for (size_t i = 0; i < sizeof team / sizeof *team; i++) {
            if (!method_is_rosenbrock(m->method) && (strstr(team[i], "_lu.h") || strstr(team[i], "rosenbrock"))) continue;
            append_template(E, team[i], false);
        }
    } else {
        append_template(E, "templates/driver.h", false);
    }
    append_template(E, "templates/cpu_loop.h", false);
    append_template(E, "runtime/scan_fill.c", false);
    append_template(E, "runtime/options.c", false);
    append_template(E, "runtime/library.c", true);
    append_template(E, "runtime/period.c", true);
    append_template(E, "runtime/attractor.c", true);
    append_template(E, "runtime/basins.c", true);
    append_template(E, "runtime/delay.c", true);
    append_template(E, "runtime/shortest_tables.h", false);
    append_template(E, "runtime/shortest.c", false);
    append_template(E, "runtime/output.h", true);
    append_template(E, "runtime/output_csv.c", false);
    append_template(E, "runtime/output.c", false);
    append_template(E, "runtime/save.c", true);
    append_template(E, "runtime/checkpoint.c", true);
    append_template(E, "runtime/runner.c", true);
    append_template(E, "runtime/runner_save.c", true);
    append_template(E, "runtime/runner_attractors.c", true);
    append_template(E, "runtime/mpi_watch.c", true);
    append_template(E, "runtime/mpi_chunks.c", true);
    append_template(E, "runtime/mpi_runner.c", true);
    append_template(E, "runtime/mpi_scan.c", true);
    emit_generated_hash(E);
}

static void emit_enum(Buf *o, const char *upper, const char *kind, Symbol **syms, int n)
{
    if (!n) return;
    buf_printf(o, "enum {");
    for (int i = 0; i < n; i++)
        buf_printf(o, "%s%s_%s_%s = %d", i ? ", " : " ", upper, kind, syms[i]->api, i);
    buf_puts(o, " };\n");
}

static void emit_header(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    const char *up = upper_name(m->name);
    int nfield = field_count(m);
    buf_printf(o, "/* %s.h — " GENERATED_MARKER " from %s; do not edit.\n", m->name, E->path_comment);
    buf_printf(o, " * The C API of the model %s (see the comments below and odegen's README). */\n", m->name);
    buf_printf(o, "#ifndef %s_H\n#define %s_H\n\n", up, up);
    buf_printf(o, "#define %s_NSTATE %d\n#define %s_NPARAM %d\n#define %s_NACC %d\n", up, m->nstate, up, m->nparam,
               up, m->nacc);
    buf_printf(o, "#define %s_NAUX %d\n#define %s_NDERIVED %d\n#define %s_NEVENT %d\n#define %s_NFIELD %d\n", up,
               m->naux, up, m->nderived, up, m->nevent, up, nfield);
    emit_enum(o, up, "STATE", m->states, m->nstate);
    emit_enum(o, up, "PARAM", m->params, m->nparam);
    emit_enum(o, up, "ACC", m->accs, m->nacc);
    emit_enum(o, up, "AUX", m->aux, m->naux);
    emit_enum(o, up, "DERIVED", m->derived, m->nderived);
    if (m->nevent) {
        buf_printf(o, "enum {");
        for (int i = 0; i < m->nevent; i++)
            buf_printf(o, "%s%s_EVENT_%s = %d", i ? ", " : " ", up, m->events[i].sym->api, i);
        buf_puts(o, " };\n");
    }
    buf_printf(o, "enum {");
    int code = 0;
    Symbol **groups[5] = {m->states, m->aux, m->accs, m->params, m->derived};
    int counts[5] = {m->nstate, m->naux, m->nacc, m->nparam, m->nderived};
    for (int g = 0; g < 5; g++)
        for (int i = 0; i < counts[g]; i++)
            buf_printf(o, "%s%s_FIELD_%s = %d", code ? ", " : " ", up, groups[g][i]->api, code), code++;
    buf_printf(o, "%s%s_FIELD_T = %d, %s_FIELD_T0 = %d, %s_FIELD_T1 = %d", code ? ", " : " ", up, code, up,
               code + 1, up, code + 2);
    code += 3;
    for (int k = 0; k < m->nlyap; k++) buf_printf(o, ", %s_FIELD_LYAP%d = %d", up, k + 1, code++);
    if (m->lyap_trace_field) buf_printf(o, ", %s_FIELD_LYAP_TRACE_ERR = %d", up, code++);
    if (m->period_field) buf_printf(o, ", %s_FIELD_PERIOD = %d", up, code++);
    if (m->attractor_field) buf_printf(o, ", %s_FIELD_ATTRACTOR = %d", up, code++);
    buf_puts(o, " };\n");
    append_template(E, "runtime/api.h", true);
    buf_printf(o, "\n#endif /* %s_H */\n", up);
}

static void emit_main(Emitter *E)
{
    const Model *m = E->m;
    buf_printf(E->out, "/* %s_main.c — " GENERATED_MARKER " from %s; do not edit.\n", m->name, E->path_comment);
    buf_puts(E->out, " * The runner's entry point, and its HDF5 output when the Makefile found HDF5\n"
                     " * (-DODE_HDF5): an object apart from the .cu file, so that the library needs no\n"
                     " * HDF5.  Everything else is in the .cu file. */\n");
    buf_puts(E->out, "#define ODEGEN_GENERATED 1\n#ifndef _POSIX_C_SOURCE\n#define _POSIX_C_SOURCE 200809L\n#endif\n\n");
    buf_printf(E->out, "int %s_main(int argc, char **argv);\n\n", m->name);
    buf_printf(E->out, "int main(int argc, char **argv) { return %s_main(argc, argv); }\n", m->name);
    append_template(E, "runtime/output.h", true);
    append_template(E, "runtime/output_h5.c", true);
}

static void emit_makefile(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    buf_printf(o, "# Makefile — " GENERATED_MARKER " from %s; do not edit.\n", make_comment(m->path));
    buf_puts(o, "#   make                builds the runner ./NAME and the library libNAME.a\n"
                "#   make shared         the shared library libNAME.so (what Python's odegen.load loads)\n"
                "#   make BACKEND=cpu    without CUDA: the C compiler with OpenMP\n"
                "#   make ARCH=sm_80     another GPU architecture (default sm_90)\n"
                "#   make HDF5=0         a runner without HDF5 output (-o FILE.h5); HDF5 is found with\n"
                "#                       pkg-config or at Debian's place (libhdf5-dev), or is given as\n"
                "#                       HDF5_CFLAGS=-I... HDF5_LIBS='-L... -lhdf5_hl -lhdf5'\n"
                "#   make MPI=1          a runner for mpirun -n R, and the library's NAME_mpi_main and\n"
                "#                       NAME_mpi_scan (the MPI of mpicc: Debian's libopenmpi-dev; or\n"
                "#                       MPI_CFLAGS=-I... MPI_LIBS='-L... -lmpi')\n\n");
    buf_printf(o, "NAME := %s\n", m->name);
    buf_puts(o,
             "NVCC ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })\n"
             "ARCH ?= sm_90\n"
             "CFLAGS ?= -O2\n"
             "NVCCFLAGS ?= -O3\n"
             "OPENMP ?= -fopenmp\n"
             "ifeq ($(strip $(NVCC)),)\n"
             "BACKEND ?= cpu\n"
             "else\n"
             "BACKEND ?= cuda\n"
             "endif\n\n"
             "# HDF5, for the runner only (NAME_main.c): the library needs none.\n"
             "HDF5 ?= 1\n"
             "ifeq ($(HDF5),1)\n"
             "ifeq ($(origin HDF5_LIBS),undefined)\n"
             "HDF5_PKG := $(shell for p in hdf5-serial hdf5; do pkg-config --exists $$p 2>/dev/null && { echo $$p; break; }; done)\n"
             "ifneq ($(HDF5_PKG),)\n"
             "HDF5_CFLAGS := $(shell pkg-config --cflags $(HDF5_PKG))\n"
             "HDF5_LIBS := $(patsubst -lhdf5,-lhdf5_hl -lhdf5,$(shell pkg-config --libs $(HDF5_PKG)))\n"
             "else ifneq ($(wildcard /usr/include/hdf5/serial/hdf5.h),)\n"
             "HDF5_CFLAGS := -I/usr/include/hdf5/serial\n"
             "HDF5_LIBS := -L$(firstword $(wildcard /usr/lib/*/hdf5/serial)) -lhdf5_hl -lhdf5\n"
             "else ifneq ($(wildcard /usr/include/hdf5.h),)\n"
             "HDF5_LIBS := -lhdf5_hl -lhdf5\n"
             "endif\n"
             "endif\n"
             "endif\n"
             "# MPI (make MPI=1): in NAME.cu (-DODE_MPI) and the link.  The objects remember\n"
             "# which they were built with, so that switching rebuilds them.\n"
             "MPI ?= 0\n"
             "ifeq ($(MPI),1)\n"
             "MPICC ?= mpicc\n"
             "ifeq ($(origin MPI_LIBS),undefined)\n"
             "MPI_CFLAGS := $(shell $(MPICC) -showme:compile 2>/dev/null)\n"
             "MPI_LIBS := $(shell $(MPICC) -showme:link 2>/dev/null)\n"
             "endif\n"
             "ifeq ($(strip $(MPI_LIBS)),)\n"
             "$(error make MPI=1: '$(MPICC) -showme' gave nothing: install Debian's libopenmpi-dev and openmpi-bin (sudo apt-get install libopenmpi-dev openmpi-bin), or give MPI_CFLAGS=-I... MPI_LIBS='-L... -lmpi')\n"
             "endif\n"
             "MPI_FLAGS := -DODE_MPI $(MPI_CFLAGS)\n"
             "endif\n\n"
             "ifneq ($(strip $(HDF5_LIBS)),)\n"
             "MAIN_FLAGS := -DODE_HDF5 $(HDF5_CFLAGS)\n"
             "else\n"
             "HDF5_NOTE := @echo \"$(NAME): built without HDF5, so -o FILE.h5 is refused; for it: sudo apt-get install libhdf5-dev, then make clean all\"\n"
             "endif\n\n"
             "all: $(NAME) lib$(NAME).a\n\n"
             ".mpi-$(MPI):\n"
             "\t@rm -f .mpi-*; touch $@\n\n"
             "ifeq ($(BACKEND),cuda)\n"
             "$(NAME).o: $(NAME).cu $(NAME).h .mpi-$(MPI)\n"
             "\t$(NVCC) $(NVCCFLAGS) -arch=$(ARCH) -Xcompiler \"$(OPENMP)\" $(MPI_FLAGS) -c -o $@ $(NAME).cu\n"
             "$(NAME).pic.o: $(NAME).cu $(NAME).h .mpi-$(MPI)\n"
             "\t$(NVCC) $(NVCCFLAGS) -arch=$(ARCH) -Xcompiler \"-fPIC $(OPENMP)\" $(MPI_FLAGS) -c -o $@ $(NAME).cu\n"
             "LINK = $(NVCC) $(NVCCFLAGS) -arch=$(ARCH) -Xcompiler \"$(OPENMP)\"\n"
             "else\n"
             "$(NAME).o: $(NAME).cu $(NAME).h .mpi-$(MPI)\n"
             "\t$(CC) $(CFLAGS) -std=c11 $(OPENMP) $(MPI_FLAGS) -x c -c -o $@ $(NAME).cu\n"
             "$(NAME).pic.o: $(NAME).cu $(NAME).h .mpi-$(MPI)\n"
             "\t$(CC) $(CFLAGS) -std=c11 -fPIC $(OPENMP) $(MPI_FLAGS) -x c -c -o $@ $(NAME).cu\n"
             "LINK = $(CC) $(CFLAGS) $(OPENMP)\n"
             "endif\n\n"
             "$(NAME)_main.o: $(NAME)_main.c\n"
             "\t$(HDF5_NOTE)\n"
             "\t$(CC) $(CFLAGS) $(MAIN_FLAGS) -c -o $@ $(NAME)_main.c\n\n"
             "$(NAME): $(NAME).o $(NAME)_main.o\n"
             "\t$(LINK) -o $@ $(NAME).o $(NAME)_main.o $(LDFLAGS) $(HDF5_LIBS) $(MPI_LIBS) -lpthread -lm\n\n"
             "lib$(NAME).a: $(NAME).o\n"
             "\t$(AR) rcs $@ $(NAME).o\n\n"
             "shared: lib$(NAME).so\n"
             "lib$(NAME).so: $(NAME).pic.o\n"
             "\t$(LINK) -shared -o $@ $(NAME).pic.o $(LDFLAGS) $(MPI_LIBS) -lm\n\n"
             "clean:\n"
             "\trm -f $(NAME) $(NAME).o $(NAME)_main.o lib$(NAME).a $(NAME).pic.o lib$(NAME).so .mpi-*\n\n"
             ".PHONY: all shared clean\n");
}

bool emit_model(const Model *model, GeneratedFile files[GENERATED_FILES])
{
    Model *m = (Model *)model;
    assign_cnames(m);
    Emitter E;
    memset(&E, 0, sizeof E);
    E.m = m;
    E.single = m->single;
    E.cu_name = arena_printf("%s.cu", m->name);
    E.path_c = c_string(m->path);
    E.path_comment = c_comment(m->path);
    mark_all_powers(&E);
    find_time_trig(E.m, &E.trig);
    emit_jacobian_prepare(&E);
    emit_lu_prepare(&E);
    emit_tile_plan(&E);
    files[0].name = E.cu_name;
    files[1].name = arena_printf("%s.h", m->name);
    files[2].name = arena_printf("%s_main.c", m->name);
    files[3].name = "Makefile";
    for (int i = 0; i < GENERATED_FILES; i++) memset(&files[i].text, 0, sizeof(Buf));
    E.out = &files[0].text;
    emit_source(&E);
    E.out = &files[1].text;
    emit_header(&E);
    E.out = &files[2].text;
    emit_main(&E);
    E.out = &files[3].text;
    emit_makefile(&E);
    return true;
}
