/* emit_runs.c — events written out one per element of an array line
 * (`event peak[0..127]: v[j]` is 128 events), found again as runs in their C
 * text and emitted, in a team's functions, as one loop over the index.
 *
 * Why: a team computes event e in lane e % size.  Written out, every lane
 * tests all the events in turn (`if (ODE_TEAM_MINE(e)) ode_g[e] = …`, 128
 * tests per lane for 128 events), and the events' derivatives, a switch over
 * e, send the 32 lanes of a warp to 32 different cases that run one after
 * another.  A run of events whose texts differ only in the indices they read,
 * each index moving by a fixed step from one event to the next, is the same
 * code at every position p: one ODE_TEAM_FOR loop, each lane its own events.
 *
 * How: each piece's C text (an event's function, its derivative's case) is
 * made position-free — its locals replaced by where they are read
 * (`v5` by `ode_y[133]`), #line lines and comments dropped — and split at
 * every `[NUMBER]`: the text between (the template) and the numbers (the
 * holes).  Pieces k … k+n-1 form a run when their templates are the same and
 * every hole moves by the same step from each piece to the next; the run is
 * written once, hole h as `(base_h + step_h * p)`.  Every piece of a run is
 * checked against the rule, not guessed from two, so a rolled run computes
 * exactly what the pieces written out compute (the same operations in the same
 * order: the same bits).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "emit/emitter.h"
#include "front/expand.h"

/* ------------------------------------------------------------------ a piece's text */

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* text with each identifier that names[k] spells replaced by with[k]
 * (numbers, such as 1e-5, are passed over whole). */
static char *substitute(const char *text, const char *const *names, const char *const *with, int n)
{
    Buf b = {0};
    for (const char *p = text; *p;) {
        if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            const char *q = p;
            while (ident_char(*q) || *q == '.' ||
                   (q > p && (*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E')))
                q++;
            buf_put(&b, p, (size_t)(q - p));
            p = q;
            continue;
        }
        if (!ident_start(*p) || (p > text && ident_char(p[-1]))) {
            buf_put(&b, p++, 1);
            continue;
        }
        const char *q = p;
        while (ident_char(*q)) q++;
        const size_t len = (size_t)(q - p);
        int k = 0;
        while (k < n && !(strlen(names[k]) == len && !strncmp(names[k], p, len))) k++;
        if (k < n) buf_puts(&b, with[k]);
        else buf_put(&b, p, len);
        p = q;
    }
    buf_puts(&b, "");
    char *s = arena_strdup(b.data);
    buf_free(&b);
    return s;
}

/* NAME[N] or NAME->NAME[N]: read as it stands, without parentheses. */
static bool plain_read(const char *s)
{
    if (!ident_start(*s)) return false;
    while (ident_char(*s)) s++;
    if (s[0] == '-' && s[1] == '>' && ident_start(s[2]))
        for (s += 2; ident_char(*s); s++) {}
    if (*s++ != '[' || !isdigit((unsigned char)*s)) return false;
    while (isdigit((unsigned char)*s)) s++;
    return s[0] == ']' && s[1] == '\0';
}

/* A body's text as its own lines without #line lines and comments, each local
 * `const ode_real NAME = SOURCE;` dropped and NAME read as (SOURCE); NULL when a
 * local's declaration does not end on its line. */
static char *position_free_body(const char *text)
{
    const char **names = NULL, **with = NULL;
    int n = 0, cap = 0;
    Buf b = {0};
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        const char *s = line;
        while (*s == ' ') s++;
        char name[128];
        int used = 0;
        if (!strncmp(s, "#line ", 6)) {
            /* dropped */
        } else if (sscanf(s, "const ode_real %127[A-Za-z0-9_] = %n", name, &used) == 1 && used) {
            const char *src = s + used, *semi = strchr(src, ';');
            if (!semi || semi > line + len) {   /* (a local over several lines: the piece stays alone) */
                buf_free(&b);
                free(names);
                free(with);
                return NULL;
            }
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                names = realloc(names, sizeof *names * (size_t)cap);
                with = realloc(with, sizeof *with * (size_t)cap);
            }
            /* its source read through the locals before it, in parentheses (x0 * v0 inside a product) */
            const char *source = substitute(arena_strndup(src, (size_t)(semi - src)), names, with, n);
            names[n] = arena_strdup(name);
            with[n] = plain_read(source) ? source : arena_printf("(%s)", source);
            n++;
        } else {
            const char *c = strstr(line, "/*");
            const size_t keep = c && (size_t)(c - line) < len ? (size_t)(c - line) : len;
            size_t k = keep;
            while (k > 0 && (line[k - 1] == ' ' || line[k - 1] == '\n')) k--;
            if (k > 0) {
                buf_put(&b, line, k);
                buf_puts(&b, "\n");
            }
        }
        line += len;
    }
    buf_puts(&b, "");
    char *out = substitute(b.data, names, with, n);
    buf_free(&b);
    free(names);
    free(with);
    return out;
}

/* ------------------------------------------------------------------ templates and holes */

typedef struct Piece {
    const char *tmpl;   /* the text with each hole's number taken out */
    long *num;          /* the holes' numbers */
    int nholes;
    bool ok;            /* may join a run */
} Piece;

static Piece split_holes(const char *text)
{
    Piece pc = {0};
    Buf t = {0};
    int cap = 0;
    for (const char *p = strchr(text, '['); p; p = strchr(p + 1, '[')) cap++;
    pc.num = arena_alloc(sizeof(long) * (size_t)(cap + 1));
    for (const char *p = text; *p;) {
        if (*p == '[' && isdigit((unsigned char)p[1])) {
            char *end;
            long v = strtol(p + 1, &end, 10);
            if (*end == ']') {
                pc.num[pc.nholes++] = v;
                buf_puts(&t, "[#]");
                p = end + 1;
                continue;
            }
        }
        buf_put(&t, p++, 1);
    }
    buf_puts(&t, "");
    pc.tmpl = arena_strdup(t.data);
    buf_free(&t);
    pc.ok = true;
    return pc;
}

/* The length of the run from piece k (1: alone) over pieces [k, n). */
static int run_from(const Piece *pc, int k, int n, const int *group)
{
    if (!pc[k].ok || k + 1 >= n) return 1;
    const Piece *a = &pc[k];
    int len = 1;
    for (int j = k + 1; j < n; j++) {
        const Piece *b = &pc[j];
        if (!b->ok || group[j] != group[k] || b->nholes != a->nholes || strcmp(b->tmpl, a->tmpl)) break;
        bool affine = true;
        for (int h = 0; h < a->nholes && affine; h++) {
            const long step = pc[k + 1].num[h] - a->num[h];
            affine = b->num[h] == a->num[h] + step * (long)(j - k);
        }
        if (!affine) break;
        len++;
    }
    return len;
}

/* The template of a run written once: hole h as (base + step * pos). */
static void write_rolled(Buf *o, const Piece *first, const Piece *second, const char *pos)
{
    int h = 0;
    for (const char *p = first->tmpl; *p; p++) {
        if (!strncmp(p, "[#]", 3)) {
            const long base = first->num[h], step = second->num[h] - base;
            if (step == 0) buf_printf(o, "[%ld]", base);
            else if (step == 1) buf_printf(o, "[%ld + %s]", base, pos);
            else buf_printf(o, "[%ld + %ld * %s]", base, step, pos);
            h++;
            p += 2;
            continue;
        }
        buf_put(o, p, 1);
    }
}

/* The runs over pieces [0, n) (pieces of one group only), each written once. */
static Runs find_runs(const Piece *pc, const int *group, int n)
{
    Runs runs = {arena_alloc(sizeof(int) * (size_t)(n + 1)), arena_alloc(sizeof(char *) * (size_t)(n + 1))};
    for (int k = 0; k < n;) {
        const int len = run_from(pc, k, n, group);
        runs.len[k] = len;
        if (len > 1) {
            Buf rolled = {0};
            write_rolled(&rolled, &pc[k], &pc[k + 1], "ode_p");
            buf_puts(&rolled, "");
            runs.text[k] = arena_strdup(rolled.data);
            buf_free(&rolled);
        }
        k += len;
    }
    return runs;
}

/* ------------------------------------------------------------------ the events */

/* Whether event e's function may join a run: it reads states, parameters,
 * derived parameters, accessories, numbers and t only (no temporaries, aux,
 * sums or specials, which have code of their own before the expression). */
static bool event_rollable(const Event *ev, const Refs *r)
{
    if (sum_inside(ev->expr)) return false;
    for (int k = 0; k < r->n; k++) {
        const SymKind kind = r->s[k]->kind;
        if (kind != SYM_STATE && kind != SYM_PARAM && kind != SYM_DERIVED && kind != SYM_ACC && kind != SYM_NUMBER &&
            kind != SYM_TIME)
            return false;
    }
    return true;
}

/* Where a local of kind STATE, PARAM, … is read from (emit_locals' sources). */
static const char *storage_of(const Emitter *E, const Symbol *s)
{
    switch (s->kind) {
    case SYM_STATE: return arena_printf("ode_y[%d]", s->index);
    case SYM_PARAM: return arena_printf("ode_s->p[%d]", s->index);
    case SYM_DERIVED: return arena_printf("ode_s->d[%d]", s->index);
    case SYM_ACC: return arena_printf("ode_s->acc[%d]", s->index);
    case SYM_NUMBER: return c_literal(s->value, E->single);
    default: return s->cname ? s->cname : s->name;   /* t */
    }
}

Runs event_runs(Emitter *E)
{
    const Model *m = E->m;
    const int n = m->nevent;
    Piece *pc = arena_alloc(sizeof(Piece) * (size_t)(n + 1));
    int *group = arena_alloc(sizeof(int) * (size_t)(n + 1));
    for (int e = 0; e < n; e++) {
        const Event *ev = &m->events[e];
        Refs r = {0};
        refs_expr(&r, ev->expr);
        group[e] = ev->line;
        if (!event_rollable(ev, &r)) continue;
        const char **names = arena_alloc(sizeof(char *) * (size_t)(r.n + 1));
        const char **with = arena_alloc(sizeof(char *) * (size_t)(r.n + 1));
        for (int k = 0; k < r.n; k++) {
            names[k] = r.s[k]->cname ? r.s[k]->cname : r.s[k]->name;
            with[k] = storage_of(E, r.s[k]);
        }
        Buf text = {0};
        Buf *saved = E->out;
        E->out = &text;
        emit_value(E, ev->expr, 0);
        E->out = saved;
        buf_puts(&text, "");
        pc[e] = split_holes(substitute(text.data, names, with, r.n));
        buf_free(&text);
    }
    return find_runs(pc, group, n);
}

void emit_event_run(Emitter *E, const Runs *er, int e)
{
    const Event *a = &E->m->events[e], *b = &E->m->events[e + er->len[e] - 1];
    buf_printf(E->out, "    /* %s %s … %s, dir=%d, tol=%g, stop=%d  (%s:%d): one loop over their index */\n",
               a->is_global ? "globals" : "events", a->sym->name, b->sym->name, a->dir, a->tol, a->stop,
               E->path_comment, a->line);
    buf_printf(E->out, "    ODE_TEAM_FOR(ode_p, %d) {\n", er->len[e]);
    to_user_line(E, a->line);
    buf_printf(E->out, "        ode_g[%d + ode_p] = %s;\n", e, er->text[e]);
    to_generated(E);
    buf_puts(E->out, "    }\n");
}

/* ------------------------------------------------------------------ the events' derivatives */

Runs body_runs(char *const *bodies, const int *group, int n)
{
    Piece *pc = arena_alloc(sizeof(Piece) * (size_t)(n + 1));
    for (int k = 0; k < n; k++)
        if (bodies[k]) {
            const char *text = position_free_body(bodies[k]);
            if (text) pc[k] = split_holes(text);
        }
    return find_runs(pc, group, n);
}
