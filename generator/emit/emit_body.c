/* emit_body.c — the body of a generated function, for every emitter: the
 * symbols a piece of code reads (Refs), declared as locals; the temporaries
 * and aux it reads, computed in order; a block's statements and the write-back
 * of what it assigns; #line into the .ode file and back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/util.h"
#include "emit/emitter.h"

/* ------------------------------------------------------------------ #line */

void to_user_line(Emitter *E, int line)
{
    buf_printf(E->out, "#line %d \"%s\"\n", line, E->path_c);
    E->in_user_line = true;
}

void to_generated(Emitter *E)
{
    if (!E->in_user_line) return;
    /* The directive's own line is lines+1: the next one is lines+2. */
    buf_printf(E->out, "#line %d \"%s\"\n", E->out->lines + 2, E->cu_name);
    E->in_user_line = false;
}

/* ------------------------------------------------------------------ which names a piece uses */

static unsigned refs_slot(const Symbol **set, int cap, const Symbol *s)
{
    uint64_t h = (uint64_t)(uintptr_t)s;   /* splitmix64's finaliser */
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
    unsigned mask = (unsigned)cap - 1, i = (unsigned)h & mask;
    while (set[i] && set[i] != s) i = (i + 1) & mask;
    return i;
}

bool refs_has(const Refs *r, const Symbol *s)
{
    return r->setcap && r->set[refs_slot(r->set, r->setcap, s)] == s;
}

/* The set again from the list (at most half full). */
static void refs_rehash(Refs *r, int cap)
{
    r->setcap = cap;
    r->set = arena_alloc(sizeof *r->set * (size_t)r->setcap);
    for (int i = 0; i < r->n; i++) r->set[refs_slot(r->set, r->setcap, r->s[i])] = r->s[i];
}

void refs_add(Refs *r, const Symbol *s)
{
    if (refs_has(r, s)) return;
    if ((r->n & (r->n - 1)) == 0) {
        const Symbol **grown = arena_alloc(sizeof *grown * (size_t)(r->n ? 2 * r->n : 8));
        if (r->n) memcpy(grown, r->s, sizeof *grown * (size_t)r->n);
        r->s = grown;
    }
    r->s[r->n++] = s;
    if (2 * r->n > r->setcap) refs_rehash(r, r->setcap ? 2 * r->setcap : 16);
    else r->set[refs_slot(r->set, r->setcap, s)] = s;
}

void refs_remove_at(Refs *r, int k)
{
    r->s[k] = r->s[--r->n];
    refs_rehash(r, r->setcap);
}

/* Every symbol an expression reads, following temporaries and aux into their
 * own expressions (function bodies declare what they use themselves). */
void refs_expr(Refs *r, const Node *n)
{
    if (!n) return;
    if (r->trig_from && n->kind == N_CALL && !n->sym && n->args && !n->args->next &&
        (name_eq(n->name, "sin") || name_eq(n->name, "cos")) && trig_index(r->trig_from, n->args) >= 0)
        return;
    if (n->kind == N_NAME && n->sym) {
        bool seen = refs_has(r, n->sym);
        refs_add(r, n->sym);
        if (!seen && (n->sym->kind == SYM_TEMP || n->sym->kind == SYM_AUX)) refs_expr(r, n->sym->expr);
    }
    for (const Node *run = n->kind == N_ELEM ? n : NULL; run; run = run->more) {   /* an element read by index */
        const Symbol *s = run->scalar ? run->sym : run->sym->array ? run->sym->array->sym : NULL;
        if (run != n) refs_expr(r, run->lhs);
        if (!s || (!run->scalar && s->kind != SYM_TEMP && s->kind != SYM_AUX)) continue;   /* read from storage */
        bool seen = refs_has(r, s);
        refs_add(r, s);   /* a boundary by its name; an array of temporaries or aux: the array */
        if (!seen && (s->kind == SYM_TEMP || s->kind == SYM_AUX)) refs_expr(r, s->expr);
    }
    if (n->kind == N_CALL && n->sym && n->sym->kind == SYM_SPECIAL) {   /* a special: it, and the arrays it reads */
        bool seen = refs_has(r, n->sym);
        refs_add(r, n->sym);
        if (!seen) refs_expr(r, n->sym->expr);
    }
    if (n->kind == N_CALL && n->sym && n->sym->kind == SYM_FUNC)   /* the values the call passes */
        for (int k = 0; k < n->sym->nimplicit; k++) {
            const Symbol *s = n->sym->implicit[k];
            bool seen = refs_has(r, s);
            refs_add(r, s);
            if (!seen && (s->kind == SYM_TEMP || s->kind == SYM_AUX)) refs_expr(r, s->expr);
        }
    refs_expr(r, n->lhs);
    refs_expr(r, n->rhs);
    refs_expr(r, n->cond);
    for (const Node *a = n->args; a; a = a->next) refs_expr(r, a);
}

static void refs_block(Refs *r, Refs *assigned, const Node *stmts)
{
    for (const Node *s = stmts; s; s = s->next) {
        if (s->kind == S_IF) {
            refs_expr(r, s->cond);
            refs_block(r, assigned, s->body);
            refs_block(r, assigned, s->els);
        } else if (s->kind == S_ASSIGN && s->sym) {
            refs_expr(r, s->rhs);
            refs_add(r, s->sym);
            refs_add(assigned, s->sym);
        }
    }
}

/* ------------------------------------------------------------------ local names */

/* The model's array of symbols of s's kind, if s is its element (index) there. */
static bool listed(const Model *m, const Symbol *s)
{
    switch (s->kind) {
    case SYM_NUMBER: return s->index < m->nnumber && m->numbers[s->index] == s;
    case SYM_PARAM: return s->index < m->nparam && m->params[s->index] == s;
    case SYM_DERIVED: return s->index < m->nderived && m->derived[s->index] == s;
    case SYM_STATE: return s->index < m->nstate && m->states[s->index] == s;
    case SYM_ACC: return s->index < m->nacc && m->accs[s->index] == s;
    case SYM_WIENER: return s->index < m->nwiener && m->wieners[s->index] == s;
    default: return false;
    }
}

static int local_rank(SymKind k)
{
    return k == SYM_NUMBER ? 0 : k == SYM_PARAM ? 1 : k == SYM_DERIVED ? 2 : k == SYM_STATE ? 3 : k == SYM_WIENER ? 4 : 5;
}

/* Numbers, then parameters, derived parameters, states, Wiener processes,
 * accessories; each in the model's order. */
static int compare_locals(const void *pa, const void *pb)
{
    const Symbol *a = *(const Symbol *const *)pa, *b = *(const Symbol *const *)pb;
    if (local_rank(a->kind) != local_rank(b->kind)) return local_rank(a->kind) - local_rank(b->kind);
    return (a->index > b->index) - (a->index < b->index);
}

/* Declares, as locals, the values a piece reads: constants, parameters, states
 * (from the stage vector ode_y or from the system), and in hooks accessories,
 * the window, t and count.  Names the piece assigns are writable copies.
 * (Work: the symbols read, not all the model's: one piece per aux would
 * otherwise cost n² in all — issue 19, D6.) */
void emit_locals(Emitter *E, const Refs *r, const Refs *assigned, StateSource src, bool hook, int event)
{
    const Model *m = E->m;
    Buf *o = E->out;
    E->states = src == STATES_FROM_Y ? "ode_y" : "ode_s->y";   /* (elements read by index, too) */
    for (int i = 0; i < r->n; i++) {
        const Symbol *s = r->s[i];
        if (s->kind == SYM_NUMBER && !strcmp(s->name, "pi") && s->line == 0)
            buf_printf(o, "    const ode_real pi = %s;\n", c_literal(3.14159265358979323846, E->single));
    }
    const Symbol **locals = arena_alloc(sizeof(Symbol *) * (size_t)(r->n + 1));
    int n = 0;
    for (int i = 0; i < r->n; i++)
        if (listed(m, r->s[i])) locals[n++] = r->s[i];
    if (n > 1) qsort(locals, (size_t)n, sizeof *locals, compare_locals);
    for (int i = 0; i < n; i++) {
        const Symbol *s = locals[i];
        const char *writable = refs_has(assigned, s) ? "" : "const ";
        switch (s->kind) {
        case SYM_NUMBER:
            buf_printf(o, "    const ode_real %s = %s;   /* number, line %d */\n", s->cname,
                       c_literal(s->value, E->single), s->line);
            break;
        case SYM_PARAM: buf_printf(o, "    %sode_real %s = ode_s->p[%d];\n", writable, s->cname, s->index); break;
        case SYM_DERIVED: buf_printf(o, "    const ode_real %s = ode_s->d[%d];\n", s->cname, s->index); break;
        case SYM_STATE:
            buf_printf(o, "    %sode_real %s = %s[%d];\n", writable, s->cname, src == STATES_FROM_Y ? "ode_y" : "ode_s->y",
                       s->index);
            break;
        case SYM_WIENER:
            buf_printf(o, "    const ode_real %s = ode_s->w[%d];   /* wiener, this step's */\n", s->cname, s->index);
            break;
        default: buf_printf(o, "    %sode_real %s = ode_s->acc[%d];\n", writable, s->cname, s->index); break;
        }
    }
    for (int i = 0; i < r->n; i++) {
        const Symbol *s = r->s[i];
        if (s->kind == SYM_WINDOW)
            buf_printf(o, "    %sode_real %s = ode_s->%s;\n", refs_has(assigned, s) ? "" : "const ", s->name,
                       s->index ? "t1" : "t0");
        else if (s->kind == SYM_TIME && hook)   /* elsewhere t is a parameter */
            buf_puts(o, "    const ode_real t = ode_s->t;\n");
        else if (s->kind == SYM_COUNT)
            buf_printf(o, "    const ode_real count = (ode_real)ode_s->count[%d];\n", event);
    }
}

/* ------------------------------------------------------------------ sums as loops */

/* The loop of sum k over i' = LO … HI (C text; COUNT: HI - LO + 1), each
 * term added in increasing i'; a team's lanes each add their share in
 * order, then all lanes' (ode_team_sum). */
static void sum_loop(Emitter *E, const Node *n, int k, const char *pad, const char *lo, const char *hi,
                     const char *count)
{
    const char *saved = E->pos;
    if (E->team && !E->pos) {   /* a team's reduction: each lane's share in order, then all lanes' */
        buf_printf(E->out, "%sODE_TEAM_FOR(ode_ii, %s) {\n%s    const int ode_i = %s + ode_ii;\n", pad, count, pad, lo);
        to_user_line(E, n->loc.line);
        buf_printf(E->out, "%s    ode_sum%d += ", pad, k);
        emit_value(E, n->lhs, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
        buf_printf(E->out, "%s}\n%sode_sum%d = ode_team_sum(ode_team, ode_sum%d);\n", pad, pad, k, k);
    } else {
        buf_printf(E->out, "%sfor (int ode_i = %s; ode_i <= %s; ode_i++)\n", pad, lo, hi);
        to_user_line(E, n->loc.line);
        buf_printf(E->out, "%s    ode_sum%d += ", pad, k);
        emit_value(E, n->lhs, 0);
        buf_puts(E->out, ";\n");
        to_generated(E);
    }
    E->pos = saved;
    emit_sum_loops_record(E, n, k);
}

/* sum(a,b)of(…) whose bounds are parameters: the loop over this system's
 * bounds, (int) of each as XPPAUT takes them; nothing where a > b, NaN where
 * a bound is not a number within ±10⁹. */
static void dynamic_sum_loop(Emitter *E, const Node *n, const char *pad)
{
    const int k = E->sum_count++;
    to_generated(E);
    buf_printf(E->out, "%s/* sum(…)of(…) over this system's bounds  (%s:%d) */\n", pad, E->path_comment, n->loc.line);
    buf_printf(E->out, "%sode_real ode_sum%d = %s;\n", pad, k, E->single ? "-0.0f" : "-0.0");
    buf_printf(E->out, "%sconst ode_real ode_lo%d = ", pad, k);
    emit_value(E, n->args, 0);
    buf_printf(E->out, ", ode_hi%d = ", k);
    emit_value(E, n->args->next, 0);
    buf_printf(E->out, ";\n%sif (!(ode_fabs(ode_lo%d) <= ODE_R(1e9) && ode_fabs(ode_hi%d) <= ODE_R(1e9)))\n"
                       "%s    ode_sum%d = (ode_real)NAN;\n%selse {\n", pad, k, k, pad, k, pad);
    sum_loop(E, n, k, arena_printf("%s    ", pad), arena_printf("(int)ode_lo%d", k), arena_printf("(int)ode_hi%d", k),
             arena_printf("(int)ode_hi%d - (int)ode_lo%d + 1", k, k));
    buf_printf(E->out, "%s}\n", pad);
}

static void sum_loops(Emitter *E, const Node *n, const char *pad)
{
    for (; n; n = n->kind == N_ELEM ? n->more : NULL) {
        if (n->kind == N_SUM && n->loop && n->dynamic) {
            dynamic_sum_loop(E, n, pad);
            return;
        }
        if (n->kind == N_SUM && n->loop) {
            const int k = E->sum_count++;
            to_generated(E);
            buf_printf(E->out, "%s/* sum(%ld,%ld)of(…)  (%s:%d) */\n", pad, n->ix_base, n->ix_step, E->path_comment,
                       n->loc.line);
            buf_printf(E->out, "%sode_real ode_sum%d = %s;\n", pad, k, E->single ? "-0.0f" : "-0.0");
            sum_loop(E, n, k, pad, arena_printf("%ld", n->ix_base), arena_printf("%ld", n->ix_step),
                     arena_printf("%ld", n->ix_step - n->ix_base + 1));
            return;   /* (no sum inside a sum: the checks say so) */
        }
        if (n->kind == N_ELEM && n->sym && n->sym->array && !n->scalar &&
            ((n->sym->kind == SYM_TEMP && !E->scratch) || n->sym->kind == SYM_AUX)) {
            /* an element computed where it is read: its sums at its position (as emit_expr.c writes it) */
            const char *saved = E->pos;
            E->pos = element_position(E, n);
            sum_loops(E, n->sym->array->sym->expr, pad);
            E->pos = saved;
        }
        sum_loops(E, n->lhs, pad);
        sum_loops(E, n->rhs, pad);
        sum_loops(E, n->cond, pad);
        for (const Node *a = n->args; a; a = a->next) sum_loops(E, a, pad);
        if (n->kind != N_ELEM) break;
    }
}

void emit_sum_loops(Emitter *E, const Node *n, const char *pad)
{
    sum_loops(E, n, pad);
}

bool reads_scratch(const Node *n)
{
    if (!n) return false;
    if (n->kind == N_CALL && n->sym && n->sym->kind == SYM_SPECIAL) return true;
    for (const Node *r = n->kind == N_ELEM ? n : NULL; r; r = r->more)
        if (!r->scalar && r->sym && r->sym->kind == SYM_TEMP && r->sym->array) return true;
    if (reads_scratch(n->lhs) || reads_scratch(n->rhs) || reads_scratch(n->cond)) return true;
    for (const Node *a = n->args; a; a = a->next)
        if (reads_scratch(a)) return true;
    return false;
}

static void indent(Buf *o, int depth)
{
    for (int i = 0; i < depth; i++) buf_puts(o, "    ");
}

/* Temporaries in the model's order (their dependency order), then aux. */
static int compare_computed(const void *pa, const void *pb)
{
    const Symbol *a = *(const Symbol *const *)pa, *b = *(const Symbol *const *)pb;
    if (a->kind != b->kind) return a->kind == SYM_TEMP ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* Temporaries (in dependency order), then aux, that the piece reads, each
 * once, as locals at the given depth.  (Work: what the piece reads, not every
 * temporary of the model: one piece per aux would otherwise cost n².) */
static void emit_computed_at(Emitter *E, const Refs *r, int depth)
{
    const Model *m = E->m;
    const Symbol **list = arena_alloc(sizeof(Symbol *) * (size_t)(r->n + 1));
    int n = 0;
    for (int i = 0; i < r->n; i++) {
        const Symbol *s = r->s[i];
        if (s->is_array) continue;   /* an array kept as a loop: its elements are computed where they are read */
        if ((s->kind == SYM_TEMP && s->index < m->ntemp && m->temps[s->index] == s) ||
            (s->kind == SYM_AUX && s->index < m->naux && m->aux[s->index] == s))
            list[n++] = s;
    }
    if (n > 1) qsort(list, (size_t)n, sizeof *list, compare_computed);
    const char *pad = arena_printf("%*s", 4 * depth, "");
    for (int i = 0; i < n; i++) {
        const Symbol *s = list[i];
        emit_sum_loops(E, s->expr, pad);
        to_user_line(E, s->expr_line.line);
        indent(E->out, depth);
        buf_printf(E->out, "const ode_real %s = ", s->cname);
        emit_value(E, s->expr, 0);
        buf_puts(E->out, ";\n");
    }
    to_generated(E);
}

void emit_computed(Emitter *E, const Refs *r) { emit_computed_at(E, r, 1); }

/* Whether an expression reads a temporary or an aux (directly or not). */
static bool reads_computed(const Refs *r)
{
    for (int i = 0; i < r->n; i++)
        if (r->s[i]->kind == SYM_TEMP || r->s[i]->kind == SYM_AUX) return true;
    return false;
}

/* Writable copies go back to the system after a block; a parameter that
 * changed changes the derived parameters computed from it (XPPAUT:
 * evaluate_derived after a global that sets a parameter). */
static void emit_write_back(Emitter *E, const Refs *assigned)
{
    bool params = false;
    for (int i = 0; i < assigned->n; i++) {
        const Symbol *s = assigned->s[i];
        switch (s->kind) {
        case SYM_STATE: buf_printf(E->out, "    ode_s->y[%d] = %s;\n", s->index, s->cname); break;
        case SYM_PARAM:
            buf_printf(E->out, "    ode_s->p[%d] = %s;\n", s->index, s->cname);
            params = true;
            break;
        case SYM_ACC: buf_printf(E->out, "    ode_s->acc[%d] = %s;\n", s->index, s->cname); break;
        case SYM_WINDOW: buf_printf(E->out, "    ode_s->%s = %s;\n", s->index ? "t1" : "t0", s->name); break;
        default: break;
        }
    }
    if (params && E->m->nderived) buf_puts(E->out, "    ode_model_derived(ode_s);\n");
}

/* A block's statements in order.  A statement that reads temporaries or aux
 * (through what it assigns or tests) gets them first, at the values of the
 * states, accessories and window at that point, in a scope of its own: each
 * computed once, however many times the expressions name them (written out
 * at each use, nested temporaries made text exponential in their depth:
 * issue 19, D7). */
static void emit_statements(Emitter *E, const Node *stmts, int depth)
{
    for (const Node *s = stmts; s; s = s->next) {
        Refs read = {0};
        refs_expr(&read, s->kind == S_IF ? s->cond : s->rhs);
        const bool scoped = (s->kind == S_IF || (s->kind == S_ASSIGN && s->sym)) && reads_computed(&read);
        if (scoped) {
            indent(E->out, depth);
            buf_puts(E->out, "{\n");
            emit_computed_at(E, &read, ++depth);
        }
        emit_sum_loops(E, s->kind == S_ASSIGN ? s->rhs : s->cond, arena_printf("%*s", 4 * depth, ""));
        if (s->kind == S_ASSIGN && s->sym) {
            to_user_line(E, s->loc.line);
            indent(E->out, depth);
            buf_printf(E->out, "%s = ", s->sym->kind == SYM_WINDOW ? s->sym->name : s->sym->cname);
            emit_value(E, s->rhs, 0);
            buf_puts(E->out, ";\n");
        } else if (s->kind == S_IF) {
            to_user_line(E, s->loc.line);
            indent(E->out, depth);
            buf_puts(E->out, "if (");
            emit_cond(E, s->cond, 0);
            buf_puts(E->out, ") {\n");
            emit_statements(E, s->body, depth + 1);
            indent(E->out, depth);
            if (s->els) {
                buf_puts(E->out, "} else {\n");
                emit_statements(E, s->els, depth + 1);
                indent(E->out, depth);
            }
            buf_puts(E->out, "}\n");
        }
        if (scoped) {
            to_generated(E);
            indent(E->out, --depth);
            buf_puts(E->out, "}\n");
        }
    }
}

/* A hook's body: locals, statements in order, write-back. */
bool block_sets_window(const Node *stmts)
{
    Refs r = {0}, assigned = {0};
    refs_block(&r, &assigned, stmts);
    for (int i = 0; i < assigned.n; i++)
        if (assigned.s[i]->kind == SYM_WINDOW) return true;
    return false;
}

void emit_block_body(Emitter *E, const Node *a, const Node *b, int event)
{
    Refs r = {0}, assigned = {0};
    refs_block(&r, &assigned, a);
    refs_block(&r, &assigned, b);
    emit_locals(E, &r, &assigned, STATES_FROM_SYSTEM, true, event);
    emit_statements(E, a, 1);
    emit_statements(E, b, 1);
    to_generated(E);
    emit_write_back(E, &assigned);
}
