/* emit_tile.c — the right-hand side over one lane's tile, for a team whose
 * model is a stencil: every state an element of arrays of one length L, and
 * every state an equation reads the element p + d of an array, d a whole
 * number (a chain's x[j-1], x[j+1]; a ring's shift(x0, mod([j]+1, n))).
 *
 * A team then gives each lane a tile — positions lane*C … lane*C + C - 1 of
 * every array, C = L / team — and keeps its share of a stage input in
 * registers: the lane computes f over its tile from its own values and from
 * the few of its neighbours' (the halo, |d| at most) that come through team
 * memory, one barrier per stage (templates/team_stepper.h: ode_team_tile_f)
 * instead of the whole vector written and read back (ode_model_rhs_team).
 * Each element's expression is the one the loop form computes, on the same
 * values: the same bits.
 *
 * Whether a model is a stencil is found by writing the function: every
 * state read goes through emit_expr.c's emit_tile_state, which fails the
 * tile for a read of another form (an index computed as the model runs, a
 * scalar state, a sum over an array, a special, a delay).
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "check/method.h"
#include "emit/emitter.h"

enum { TILE_HALO_MAX = 8 };   /* a wider stencil keeps the loop form (its halo would cost as much) */

/* The state arrays, by storage; whether they are arrays of one length that
 * hold every state, in order. */
static bool tile_arrays(const Model *m, const Array **order, int *narr)
{
    int n = 0;
    for (int i = 0; i < m->narray; i++)
        if (m->arrays[i].sym->kind == SYM_STATE) order[n++] = &m->arrays[i];
    if (!n) return false;
    const long len = order[0]->n;
    for (int a = 0; a < n; a++) {
        int at = -1;   /* the array whose storage starts at a * len */
        for (int b = 0; b < n; b++)
            if (order[b]->base == a * len) at = b;
        if (at < 0) return false;
        const Array *t = order[a];
        order[a] = order[at];
        order[at] = t;
        if (order[a]->n != len || order[a]->stride != 1) return false;
    }
    *narr = n;
    return len >= 2 && (long)n * len == m->nstate;
}

/* Whether an expression holds a sum written as a loop (its local is written
 * by the loop form's function: a tile's has none). */
static bool loop_sum(const Node *n)
{
    if (!n) return false;
    if (n->kind == N_SUM && n->loop) return true;
    if (loop_sum(n->lhs) || loop_sum(n->rhs) || loop_sum(n->cond) || loop_sum(n->more)) return true;
    for (const Node *a = n->args; a; a = a->next)
        if (loop_sum(a)) return true;
    return false;
}

/* The function into E->out; false where a piece of it a tile cannot hold. */
static bool tile_function(Emitter *E, const Array *const *order, int narr)
{
    const Model *m = E->m;
    Refs r = {0}, none = {0};
    r.trig_from = &E->trig;
    for (int a = 0; a < narr; a++) refs_expr(&r, order[a]->sym->expr);
    const size_t start = E->out->len;
    buf_puts(E->out, "/* The right-hand side over this lane's tile (emit_tile.c; templates/team_system.h):\n"
                     " * positions ODE_TILE_P(0 … ODE_TILE_C-1) of each array, whose stage input ode_in\n"
                     " * holds with the halo of its neighbours' (ODE_TILE_IN), f into the lane's slots. */\n");
    buf_puts(E->out, "ODE_HD static ODE_INLINE void ode_model_rhs_tile(const OdeSystem *ode_s, ode_real t, const ode_real *ode_in,\n"
                     "                                                 ode_real *ode_dy, const OdeTrig *ode_tr, OdeTeam ode_team)\n{\n"
                     "    (void)ode_s;\n    (void)t;\n    (void)ode_tr;\n    (void)ode_team;\n");
    E->use_trig = true;
    E->team = true;
    E->scratch = true;
    E->tile = true;
    E->tile_fail = false;
    emit_locals(E, &r, &none, STATES_FROM_Y, false, 0);
    for (int i = 0; i < m->ntemp + m->naux; i++) {   /* scalar temporaries and aux, by every lane */
        const Symbol *s = i < m->ntemp ? m->temps[i] : m->aux[i - m->ntemp];
        if (!refs_has(&r, s) || (s->kind == SYM_AUX && s->array)) continue;
        if (s->kind == SYM_SPECIAL || s->is_array || loop_sum(s->expr)) {
            E->tile_fail = true;
            continue;
        }
        to_user_line(E, s->expr_line.line);
        buf_printf(E->out, "    const ode_real %s = ", s->cname);
        emit_value(E, s->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
    }
    for (int a = 0; a < narr; a++) {
        const Symbol *s = order[a]->sym;
        buf_printf(E->out, "    /* %s'  (%s:%d) */\n", s->name, E->path_comment, s->line);
        buf_puts(E->out, "    ODE_TILE_FOR(ode_c) {\n        const int ode_p = ODE_TILE_P(ode_c);\n        (void)ode_p;\n");
        E->pos = E->tile_pos = "ode_p";
        if (loop_sum(s->expr)) E->tile_fail = true;
        to_user_line(E, s->expr_line.line);
        buf_printf(E->out, "        ode_dy[ODE_TILE_OUT(%d, ode_c)] = ", a);
        emit_value(E, s->expr, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
        E->pos = E->tile_pos = NULL;
        buf_puts(E->out, "    }\n");
    }
    buf_puts(E->out, "}\n\n");
    E->use_trig = false;
    E->team = false;
    E->scratch = false;
    E->tile = false;
    /* what else reads the states, the scratch or the team (a sum's loop, a special,
     * a scalar state's local) has no place in a tile */
    const char *text = E->out->data + start;
    static const char *const outside[] = {"ode_y[", "ode_scratch", "ode_sum", "ode_team_sum", "ode_special", "ode_delay"};
    for (size_t k = 0; k < sizeof outside / sizeof *outside; k++)
        if (strstr(text, outside[k])) E->tile_fail = true;
    return !E->tile_fail;
}

void emit_tile_plan(Emitter *E)
{
    const Model *m = E->m;
    E->tile_len = 0;
    if (!m->loop_form || !m->arrays_kept || method_is_rosenbrock(m->method)) return;
    const Array **order = arena_alloc(sizeof(Array *) * (size_t)(m->narray + 1));
    int narr = 0;
    if (!tile_arrays(m, order, &narr)) return;
    /* a trial writing of the function, thrown away (its #line state and sums restored) */
    Buf trial = {0};
    Buf *saved = E->out;
    const bool in_user_line = E->in_user_line;
    const int nsums = E->nsums, sum_count = E->sum_count;
    E->out = &trial;
    E->tile_len = order[0]->n;
    E->tile_halo = 0;
    E->tile_halo_max = TILE_HALO_MAX < E->tile_len ? TILE_HALO_MAX : (int)E->tile_len;
    const bool ok = tile_function(E, order, narr);
    E->out = saved;
    E->in_user_line = in_user_line;
    E->nsums = nsums;
    E->sum_count = sum_count;
    buf_free(&trial);
    E->tile_narr = narr;
    if (!ok) E->tile_len = 0;
}

void emit_tile_constants(Emitter *E)
{
    if (!E->tile_len) return;
    buf_printf(E->out, "#ifndef ODE_TILE_LEN   /* (-DODE_TILE_LEN=0: the loop form's lanes instead of tiles) */\n"
                       "#define ODE_TILE_LEN %ld             /* a stencil: states in tiles of arrays this long (emit_tile.c) */\n#endif\n",
               E->tile_len);
    buf_printf(E->out, "#define ODE_TILE_NARR %d             /* … of so many arrays */\n", E->tile_narr);
    buf_printf(E->out, "#define ODE_TILE_HALO %d             /* … read at p + d, |d| at most this */\n", E->tile_halo);
}

void emit_tile_rhs(Emitter *E)
{
    if (!E->tile_len) return;
    const Model *m = E->m;
    const Array **order = arena_alloc(sizeof(Array *) * (size_t)(m->narray + 1));
    int narr = 0;
    tile_arrays(m, order, &narr);
    if (!tile_function(E, order, narr))   /* (what the plan found it could write, it writes) */
        buf_puts(E->out, "#error \"emit_tile.c: the tile function differs from its plan (a bug in odegen)\"\n");
}
