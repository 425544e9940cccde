/* emit_loops.c — a model whose arrays stay arrays (front/expand.h), in loop
 * form: the right-hand side and the event functions as the functions a team
 * of threads runs (templates/team.h's rules, in the shape of
 * templates/example_team_model.h), and, for a model integrated one system
 * per thread, the per-thread functions as a team of one around them.
 *
 * In a function the team runs: scalar temporaries are computed by every
 * lane; an array line is ODE_TEAM_FOR over its positions p (array
 * temporaries into ode_scratch, then ODE_TEAM_SYNC() before their first
 * reader); a scalar equation is written by one lane, ODE_TEAM_MINE(k) for
 * state (or event) k; a sum computed by a loop is each lane's share from
 * -0.0 in increasing index, then ode_team_sum — outside an array line; inside
 * one, each element's sum is its lane's own loop.  A team of one adds in the
 * order of the equations written out (x1 + x2 + …), so that a model gives the
 * same bits as loops and written out where its sums are shorter than 256
 * terms (longer written-out sums are added pairwise: expand.c).
 */
#include <string.h>

#include "base/arena.h"
#include "emit/emitter.h"

/* Where ode_scratch has been written since the last barrier. */
typedef struct Team {
    bool dirty;
} Team;

static void sync_before(Emitter *E, Team *tm, const Node *reads)
{
    if (tm->dirty && reads_scratch(reads)) {
        buf_puts(E->out, "    ODE_TEAM_SYNC();   /* the array temporaries are complete */\n");
        tm->dirty = false;
    }
}

/* One array line: its loop over the positions, writing `dest[base + stride*p]`. */
static void emit_array_line(Emitter *E, const Array *a, const char *dest, Team *tm)
{
    const Symbol *s = a->sym;
    sync_before(E, tm, s->expr);
    buf_printf(E->out, "    /* %s%s  (%s:%d) */\n", s->name, s->kind == SYM_STATE ? "'" : "", E->path_comment, s->line);
    buf_printf(E->out, "    ODE_TEAM_FOR(ode_p, %ld) {\n", a->n);
    E->pos = "ode_p";
    emit_sum_loops(E, s->expr, "        ");
    to_user_line(E, s->expr_line.line);
    buf_printf(E->out, "        %s[", dest);
    if (a->base) buf_printf(E->out, "%ld + ", a->base);
    if (a->stride != 1) buf_printf(E->out, "%ld * ", a->stride);
    buf_puts(E->out, "ode_p] = ");
    emit_value(E, s->expr, 0);
    buf_puts(E->out, ";\n");
    to_generated(E);
    E->pos = NULL;
    buf_puts(E->out, "    }\n");
}

static bool uses(const Refs *r, const Symbol *s)
{
    for (int k = 0; k < r->n; k++)
        if (r->s[k] == s) return true;
    return false;
}

/* A special's values into the scratch: the team shares them (check/special.c,
 * its function emit_specials writes). */
static void emit_special_values(Emitter *E, const Special *sp, Team *tm)
{
    sync_before(E, tm, sp->sym->expr);
    buf_printf(E->out, "    /* special %s  (%s:%d) */\n", sp->sym->name, E->path_comment, sp->line);
    buf_printf(E->out, "    ODE_TEAM_FOR(ode_p, %ld) ode_scratch[%ld + ode_p] = ode_special%d(ode_s, %s + %ld, %s + %ld, ode_p);\n",
               sp->n, sp->scratch, sp->sym->special, sp->root->kind == SYM_STATE ? "ode_y" : "ode_scratch",
               sp->root_base, sp->root2 && sp->root2->kind == SYM_TEMP ? "ode_scratch" : "ode_y",
               sp->root2 ? sp->root2_base : 0);
    tm->dirty = true;
}

/* The temporaries a piece reads, in their order: scalars by every lane,
 * arrays and specials by the team into the scratch; then the aux it reads. */
static void emit_team_temps(Emitter *E, const Refs *r, Team *tm)
{
    const Model *m = E->m;
    for (int i = 0; i < m->ntemp; i++) {
        const Symbol *s = m->temps[i];
        if (!uses(r, s)) continue;
        if (s->kind == SYM_SPECIAL) {
            emit_special_values(E, &m->specials[s->special], tm);
            continue;
        }
        if (s->is_array) {
            emit_array_line(E, s->array, "ode_scratch", tm);
            tm->dirty = true;
            continue;
        }
        sync_before(E, tm, s->expr);
        emit_sum_loops(E, s->expr, "    ");
        to_user_line(E, s->expr_line.line);
        buf_printf(E->out, "    const ode_real %s = ", s->cname);
        emit_value(E, s->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
    }
    for (int i = 0; i < m->naux; i++) {   /* (events read aux: computed by every lane) */
        const Symbol *s = m->aux[i];
        if (s->array || !uses(r, s)) continue;
        sync_before(E, tm, s->expr);
        emit_sum_loops(E, s->expr, "    ");
        to_user_line(E, s->expr_line.line);
        buf_printf(E->out, "    const ode_real %s = ", s->cname);
        emit_value(E, s->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
    }
}

static const char *const team_args = "ode_real *ode_scratch, OdeTeam ode_team";

/* Whether the model is integrated one system per thread (the per-thread
 * templates call ode_model_rhs and ode_model_events); a team layout calls
 * the loop form itself. */
static bool per_thread(const Model *m)
{
    (void)m;
    return true;
}

/* A per-thread function that runs its loop form as a team of one, the
 * scratch on the thread's stack (local memory on the GPU). */
static void emit_team_of_one(Emitter *E, const char *name, const char *params, const char *args)
{
    buf_printf(E->out, "ODE_HD static ODE_INLINE void ode_model_%s(%s)\n{\n", name, params);
    buf_puts(E->out, "    ode_real ode_scratch[ODE_ALLOC(ODE_NSCRATCH)];\n");
    buf_printf(E->out, "    ode_model_%s_team(%s, ode_scratch, ode_team_one());\n}\n\n", name, args);
}

void emit_loop_rhs(Emitter *E)
{
    const Model *m = E->m;
    Refs r = {0}, none = {0};
    r.trig_from = &E->trig;
    for (int i = 0; i < m->nstate; i++) refs_expr(&r, m->states[i]->expr);
    for (int i = 0; i < m->narray; i++)
        if (m->arrays[i].sym->kind == SYM_STATE) refs_expr(&r, m->arrays[i].sym->expr);
    buf_puts(E->out, "/* The right-hand side dy/dt at (t, ode_y) in loop form (templates/team.h): each array line\n"
                     " * a loop over its positions that the lanes of ode_team share, each scalar equation by one\n"
                     " * lane; sin/cos of time come from ode_tr. */\n");
    buf_printf(E->out, "ODE_HD static ODE_INLINE void ode_model_rhs_team(const OdeSystem *ode_s, ode_real t,\n"
                       "                                                 const ode_real *ode_y, ode_real *ode_dy,\n"
                       "                                                 const OdeTrig *ode_tr, %s)\n{\n"
                       "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_tr;\n    (void)ode_scratch;\n"
                       "    (void)ode_team;\n",
               team_args);
    E->use_trig = true;
    E->team = true;
    E->scratch = true;
    Team tm = {false};
    emit_locals(E, &r, &none, STATES_FROM_Y, false, 0);
    emit_team_temps(E, &r, &tm);
    for (int i = 0; i < m->nstate; i++) {
        const Symbol *s = m->states[i];
        if (s->array) continue;
        sync_before(E, &tm, s->expr);
        buf_printf(E->out, "    /* %s'  (%s:%d) */\n", s->name, E->path_comment, s->line);
        emit_sum_loops(E, s->expr, "    ");
        to_user_line(E, s->expr_line.line);
        buf_printf(E->out, "    if (ODE_TEAM_MINE(%d)) ode_dy[%d] = ", i, i);
        emit_value(E, s->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
    }
    for (int i = 0; i < m->narray; i++)
        if (m->arrays[i].sym->kind == SYM_STATE) emit_array_line(E, &m->arrays[i], "ode_dy", &tm);
    E->use_trig = false;
    E->team = false;
    E->scratch = false;
    buf_puts(E->out, "}\n\n");
    if (per_thread(m))
        emit_team_of_one(E, "rhs", "const OdeSystem *ode_s, ode_real t, const ode_real *ode_y, ode_real *ode_dy, "
                                   "const OdeTrig *ode_tr",
                         "ode_s, t, ode_y, ode_dy, ode_tr");
}

void emit_loop_events(Emitter *E)
{
    const Model *m = E->m;
    Refs r = {0}, none = {0};
    E->team = true;
    E->scratch = true;
    E->states = "ode_y";
    const Runs er = event_runs(E);   /* (an event array's: one loop) */
    for (int i = 0; i < m->nevent; i += er.len[i])
        if (er.len[i] == 1) refs_expr(&r, m->events[i].expr);
    buf_puts(E->out, "/* Event functions at (t, ode_y) in loop form: each event's by one lane of ode_team, the\n"
                     " * events of an array line by a loop (the array temporaries they read computed by the team\n"
                     " * first). */\n");
    buf_printf(E->out, "ODE_HD static ODE_INLINE void ode_model_events_team(const OdeSystem *ode_s, ode_real t,\n"
                       "                                                    const ode_real *ode_y, ode_real *ode_g,\n"
                       "                                                    %s)\n{\n"
                       "    (void)ode_s;\n    (void)t;\n    (void)ode_y;\n    (void)ode_g;\n    (void)ode_scratch;\n"
                       "    (void)ode_team;\n",
               team_args);
    Team tm = {false};
    emit_locals(E, &r, &none, STATES_FROM_Y, false, 0);
    emit_team_temps(E, &r, &tm);
    for (int i = 0; i < m->nevent; i += er.len[i]) {
        const Event *ev = &m->events[i];
        if (er.len[i] > 1) {
            emit_event_run(E, &er, i);
            continue;
        }
        sync_before(E, &tm, ev->expr);
        buf_printf(E->out, "    /* %s %s, dir=%d, tol=%g, stop=%d  (%s:%d) */\n", ev->is_global ? "global" : "event",
                   ev->sym->name, ev->dir, ev->tol, ev->stop, E->path_comment, ev->line);
        emit_sum_loops(E, ev->expr, "    ");
        to_user_line(E, ev->line);
        buf_printf(E->out, "    if (ODE_TEAM_MINE(%d)) ode_g[%d] = ", i, i);
        emit_value(E, ev->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
    }
    E->team = false;
    E->scratch = false;
    buf_puts(E->out, "}\n\n");
    if (per_thread(m))
        emit_team_of_one(E, "events", "const OdeSystem *ode_s, ode_real t, const ode_real *ode_y, ode_real *ode_g",
                         "ode_s, t, ode_y, ode_g");
}

/* ode_model_field in loop form: ranges of codes for the states, the
 * accessories, the parameters and the derived parameters (an array of a
 * hundred thousand states is not a hundred thousand cases), an aux array's
 * element computed at its position, the scalar aux by their cases. */
void emit_loop_fields(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    const int nstate = m->nstate, naux = m->naux, nacc = m->nacc, nparam = m->nparam, nderived = m->nderived;
    buf_puts(o, "/* A recordable value by its code (the order of ode_field_names). */\n");
    buf_puts(o, "ODE_HD static ODE_INLINE ode_real ode_model_field(const OdeSystem *ode_s, int ode_code)\n{\n");
    buf_printf(o, "    if (ode_code < %d) return ode_s->y[ode_code];\n", nstate);
    if (naux) {
        buf_printf(o, "    if (ode_code < %d) {\n        const int ode_k = ode_code - %d;\n", nstate + naux, nstate);
        for (int i = 0; i < m->narray; i++) {
            const Array *a = &m->arrays[i];
            if (a->sym->kind != SYM_AUX) continue;
            Refs r = {0}, none = {0};
            refs_expr(&r, a->sym->expr);
            buf_printf(o, "        if (ode_k >= %ld && ode_k < %ld && (ode_k - %ld) %% %ld == 0) {   /* aux %s */\n",
                       a->base, a->base + a->stride * a->n, a->base, a->stride, a->sym->name);
            buf_printf(o, "            const int ode_p = (ode_k - %ld) / %ld;\n", a->base, a->stride);
            emit_locals(E, &r, &none, STATES_FROM_SYSTEM, true, 0);
            emit_computed(E, &r);   /* the scalar temporaries and aux it reads */
            E->pos = "ode_p";
            emit_sum_loops(E, a->sym->expr, "            ");
            to_user_line(E, a->sym->expr_line.line);
            buf_puts(o, "            return ");
            emit_value(E, a->sym->expr, 0);
            buf_puts(o, ";\n");
            to_generated(E);
            E->pos = NULL;
            buf_puts(o, "        }\n");
        }
        buf_puts(o, "        switch (ode_k) {\n");
        for (int i = 0; i < naux; i++) {
            const Symbol *s = m->aux[i];
            if (s->array) continue;
            Refs r = {0}, none = {0};
            refs_expr(&r, s->expr);
            buf_printf(o, "        case %d: {   /* aux %s */\n", i, s->name);
            emit_locals(E, &r, &none, STATES_FROM_SYSTEM, true, 0);
            emit_computed(E, &r);
            emit_sum_loops(E, s->expr, "            ");
            to_user_line(E, s->expr_line.line);
            buf_puts(o, "            return ");
            emit_value(E, s->expr, 0);
            buf_puts(o, ";\n");
            to_generated(E);
            buf_puts(o, "        }\n");
        }
        buf_puts(o, "        default: return (ode_real)NAN;\n        }\n    }\n");
    }
    int at = nstate + naux;
    buf_printf(o, "    if (ode_code < %d) return ode_s->acc[ode_code - %d];\n", at + nacc, at);
    at += nacc;
    buf_printf(o, "    if (ode_code < %d) return ode_s->p[ode_code - %d];\n", at + nparam, at);
    at += nparam;
    buf_printf(o, "    if (ode_code < %d) return ode_s->d[ode_code - %d];\n", at + nderived, at);
    at += nderived;
    buf_puts(o, "    switch (ode_code) {\n");
    buf_printf(o, "    case %d: return ode_s->t;\n", at++);
    buf_printf(o, "    case %d: return ode_s->t0;\n", at++);
    if (!m->nlyap && !m->period_field) {
        buf_puts(o, "    default: return ode_s->t1;\n    }\n}\n\n");
        return;
    }
    buf_printf(o, "    case %d: return ode_s->t1;\n", at++);
    emit_statement_fields(E, at);
}
