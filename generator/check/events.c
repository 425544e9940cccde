/* events.c — events (`global`, odegen's `event`) and hooks (`on start`,
 * `on step`, `on end`, …): their conditions, options and blocks, each block
 * resolved with what it may read and assign. */
#include <string.h>

#include "base/arena.h"
#include "base/util.h"
#include "check/checker.h"
#include "front/diag.h"

static Ctx block_ctx(const char *where, unsigned write, const char *write_what, Event *ev)
{
    Ctx x = ctx_make(READ_BLOCK, where, NULL);
    x.write = write;
    x.write_what = write_what;
    x.event = ev;
    if (ev) x.read |= BIT(SYM_COUNT);
    return x;
}

static Event *new_event(Checker *c)
{
    Model *m = c->m;
    Event ev;
    memset(&ev, 0, sizeof ev);
    PUSH(m->events, m->nevent, ev);
    return &m->events[m->nevent - 1];
}

static void event_options(Checker *c, Event *ev, Node *items, bool shorthand)
{
    for (Node *it = items; it; it = it->next) {
        double v;
        if (name_eq(it->name, "dir")) {
            if (shorthand) {
                error_at(it->name_loc, "'A < B' and 'A > B' already give the direction; "
                                       "write 'A - B, dir=…' to choose another");
                continue;
            }
            if (!const_value(c, it->rhs, "an event's dir", &v)) continue;
            if (v != -1 && v != 0 && v != 1) error_at(it->rhs->loc, "dir must be -1, 0 or 1");
            else ev->dir = (int)v;
        } else if (name_eq(it->name, "tol")) {
            if (!const_value(c, it->rhs, "an event's tol", &v)) continue;
            if (!(v > 0)) error_at(it->rhs->loc, "tol must be positive");
            else ev->tol = v;
        } else if (name_eq(it->name, "stop")) {
            if (!const_value(c, it->rhs, "an event's stop", &v)) continue;
            if (!(v >= 0) || !is_integer(v) || v > 2147483647.0)
                error_at(it->rhs->loc, "stop must be a whole number (0: never stop)");
            else ev->stop = (int)v;
        } else {
            Suggest sg;
            suggest_init(&sg, it->name);
            suggest_add(&sg, "dir");
            suggest_add(&sg, "tol");
            suggest_add(&sg, "stop");
            error_at(it->name_loc, "unknown event option '%s'%s (event options are dir, tol and stop)",
                     it->name, suggest_text(&sg));
        }
    }
}

/* What an event's statements may assign.  A parameter too, as XPPAUT's globals
 * do (`global 1 {t-ton} {vk=-50}`): it changes for that system from then on. */
static const char *EVENT_WRITE = "states, parameters and accessories";
#define EVENT_WRITES (BIT(SYM_STATE) | BIT(SYM_PARAM) | BIT(SYM_ACC))

void check_event(Checker *c, Node *d)
{
    Symbol *sym = symtab_get(&c->tab, d->name);
    if (!sym || sym->kind != SYM_EVENT || sym->loc.line != d->name_loc.line ||
        sym->loc.col != d->name_loc.col)
        return;   /* its declaration failed and was reported */
    Event *ev = new_event(c);
    ev->sym = sym;
    sym->index = c->m->nevent - 1;
    ev->line = d->loc.line;
    ev->tol = 0;                 /* @ evtol, unless tol= says otherwise */
    Node *g = d->cond;
    bool shorthand = false;
    if (g->kind == N_LT || g->kind == N_LE || g->kind == N_GT || g->kind == N_GE) {
        ev->dir = (g->kind == N_LT || g->kind == N_LE) ? -1 : 1;
        g = ast_binary(N_SUB, g->loc, g->lhs, g->rhs);
        shorthand = true;
    } else if (g->kind == N_EQ) {
        g = ast_binary(N_SUB, g->loc, g->lhs, g->rhs);
    }
    ev->expr = g;
    Ctx x = ctx_make(READ_RHS | BIT(SYM_AUX), "an event's expression",
                     "; events are functions of t, states, parameters, temporaries and aux");
    x.team = true;
    resolve_expr(c, g, &x);
    event_options(c, ev, d->items, shorthand);
    ev->body = d->body;
    Ctx b = block_ctx(arena_printf("event '%s'", sym->name), EVENT_WRITES, EVENT_WRITE, ev);
    resolve_block(c, d->body, &b);
}

/* XPPAUT `global SIGN {cond} {x=…; arret=1}`. */
void check_global(Checker *c, Node *d)
{
    if (d->num != 0 && d->num != 1 && d->num != -1) {
        error_at(d->loc, "the sign of a global must be 1, -1 or 0");
        return;
    }
    if (d->num == 0)   /* XPPAUT's "exactly zero" (templates/firing.h) */
        note_at(d->loc, "'global 0' fires where its condition is exactly zero (within 5e-16) at the start of a run "
                        "or at the end of a step that begins before t = 1, as in XPPAUT 6.11; for crossings in either "
                        "direction write 'event NAME: EXPR, dir=0'");
    Event *ev = new_event(c);
    int k = c->m->nevent;
    ev->sym = new_symbol(SYM_EVENT, arena_printf("global%d", k), d->loc);
    ev->sym->index = k - 1;
    ev->is_global = true;
    ev->line = d->loc.line;
    ev->dir = (int)d->num;
    ev->tol = 0;                 /* @ evtol: the same location as an event's */
    ev->expr = d->cond;
    Ctx x = ctx_make(READ_RHS | BIT(SYM_AUX), "a global's condition", NULL);
    x.team = true;
    resolve_expr(c, d->cond, &x);
    /* `arret=1` (XPPAUT's stop where the value is > 0) becomes stop=1; `arret=EXPR`
     * assigns the accessory arret, which stops the system where it is > 0 after
     * the statements (declare.c); the other assignments stay. */
    Node *kept = NULL;
    for (Node *s = d->body, *next; s; s = next) {
        next = s->next;
        s->next = NULL;
        if (s->kind == S_ASSIGN && name_eq(s->name, "arret") && s->rhs->kind == N_NUM &&
            (c->arret || !symtab_get(&c->tab, "arret"))) {
            if (s->rhs->num > 0) ev->stop = 1;
            continue;
        }
        if (s->kind == S_ASSIGN && name_eq(s->name, "arret") && c->arret) ev->halt = 1 + c->arret->index;
        if (s->kind == S_ASSIGN && name_eq(s->name, "out_put") && !symtab_get(&c->tab, "out_put")) {
            note_at(s->name_loc, "XPPAUT's out_put=… is ignored: where its value is > 0 XPPAUT stores one more row "
                                 "(t and every column) at the event, besides the rows of its output grid; odegen's "
                                 "rows are what `record` lists at the end of each integration (an arret or stop= at "
                                 "the event makes that row the event's; @ poimap writes a row at each crossing)");
            continue;
        }
        kept = ast_append(kept, s);
    }
    ev->body = kept;
    Ctx b = block_ctx(arena_printf("the global of line %d", d->loc.line), EVENT_WRITES, EVENT_WRITE, ev);
    b.also = "arret";   /* (and out_put, handled above) */
    resolve_block(c, ev->body, &b);
}

static Node *append_list(Node *list, Node *more)
{
    if (!list) return more;
    Node *n = list;
    while (n->next) n = n->next;
    n->next = more;
    return list;
}

void check_on(Checker *c, Node *d)
{
    Model *m = c->m;
    Hook *h = NULL;
    Ctx x;
    if (name_eq(d->name, "start")) {
        h = &m->on_start;
        x = block_ctx("'on start'", EVENT_WRITES | BIT(SYM_WINDOW), "states, parameters, accessories, t0 and t1",
                      NULL);
    } else if (name_eq(d->name, "end")) {
        h = &m->on_end;
        x = block_ctx("'on end'", EVENT_WRITES | BIT(SYM_WINDOW), "states, parameters, accessories, t0 and t1",
                      NULL);
    } else if (name_eq(d->name, "step")) {
        h = &m->on_step;
        x = block_ctx("'on step'", BIT(SYM_ACC), "accessories", NULL);
    }
    if (h) {
        resolve_block(c, d->body, &x);
        if (!h->body) h->line = d->loc.line;
        h->body = append_list(h->body, d->body);
        return;
    }
    for (int i = 0; i < m->nevent; i++) {
        Event *ev = &m->events[i];
        if (!ev->is_global && name_eq(ev->sym->name, d->name)) {
            x = block_ctx(arena_printf("'on %s'", ev->sym->name), EVENT_WRITES, EVENT_WRITE, ev);
            resolve_block(c, d->body, &x);
            ev->on_body = append_list(ev->on_body, d->body);
            return;
        }
    }
    Suggest sg;
    suggest_init(&sg, d->name);
    suggest_add(&sg, "start");
    suggest_add(&sg, "step");
    suggest_add(&sg, "end");
    for (int i = 0; i < m->nevent; i++)
        if (!m->events[i].is_global) suggest_add_at(&sg, m->events[i].sym->name, m->events[i].line);
    error_at(d->name_loc, "'on %s': no such event or hook%s (hooks are start, step and end)", d->name,
             suggest_text(&sg));
}
