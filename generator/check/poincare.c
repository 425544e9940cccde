/* poincare.c — XPPAUT's Poincaré maps (`@ poimap=section|max|period`,
 * `poivar`, `poipln`, `poisgn`, `poistop`) as odegen's own statements.
 *
 * XPPAUT (integrate.c, the loop of integrate(); options in load_eqn.c) then
 * stores, instead of every output row, only the points where the run crosses
 * a section, one row each (t and every column, interpolated linearly between
 * the two output points around the crossing):
 *   section  poivar crosses poipln: upward for poisgn=1 (the default),
 *            downward for -1, both for 0; poivar=t: t crosses the multiples
 *            of poipln (a stroboscopic map);
 *   max      the extrema of poivar (a state): where its right-hand side
 *            changes sign, maxima for poisgn=1, minima for -1, both for 0;
 *   period   as section, with t replaced by the time since the previous
 *            crossing (the first crossing gives no row);
 *   poistop=1 ends the run at the first stored point in integrate.c, but
 *            XPPAUT 6.11 -silent writes every point all the same (odegen too).
 * The initial row is not stored, the run still ends at t0 + total, and at most
 * maxstor points are stored (default 5000).
 *
 * odegen writes the same points with an event that ends each integration at
 * the section (`event poimap: EXPR, dir=D, stop=1`), a hook that starts the
 * next integration there (`on end { t0 = t }`: the window's end stays at
 * t0 + total, so the integration that reaches it ends `finished` and those
 * after it `empty`), one integration recorded per point (`repeat
 * record=maxstor`) and, unless the file has its own `record`,
 * the row XPPAUT writes (`record t, states…, aux…`).  The points are the rows
 * whose status is `event`; they are located on the method's own continuous
 * extension to the event tolerance (XPPAUT's linear interpolation between
 * output points is O(dt^2) off).  For `period` an accessory holds the time of
 * the previous crossing, the first integration is a transient and the rows
 * record `poimap_period` in place of t.
 *
 * Runs on the syntax tree after the arrays are written out, before anything
 * is declared: the statements it adds are checked as the file's own.  A file
 * with its own `repeat` keeps it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/util.h"
#include "check/checker.h"
#include "check/option_names.h"
#include "front/diag.h"

typedef struct Poincare {
    const Node *map, *var, *plane, *sign, *stop, *maxstor, *trans;   /* the last @ item of each */
} Poincare;

static const char *item_word(const Node *it)
{
    if (!it || !it->rhs) return "";
    return it->rhs->kind == N_NAME ? it->rhs->name : it->rhs->kind == N_NUM ? it->rhs->text : "";
}

/* The kept line of kind ODE with an element named var (NULL: none). */
static const Node *array_of_element(const Program *prog, const char *var)
{
    for (const Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_ODE && d->array)
            for (long p = 0; p < d->array->n; p++)
                if (name_eq(array_element_name(d->array, p), var)) return d;
    return NULL;
}

/* The names of the declarations of one kind (states, aux) in XPPAUT's columns'
 * order, appended to args: a declaration's own name, or an array line's
 * elements, a block's lines interleaved (x1 v1 x2 v2 … for a block of x and v;
 * a block of more than 64 lines of a kind is refused where it is declared). */
static void append_names(Node *args, Loc at, const Program *prog, NodeKind kind)
{
    for (Node *d = prog->decls; d; d = d->next) {
        if (d->kind != kind) continue;
        if (!d->array) {
            ast_append(args, ast_name(at, d->name));
            continue;
        }
        if (d->array->pos) continue;   /* (named with the block's first line) */
        Node *lines[64];
        const int nl = array_block_lines(d, lines, 64);
        for (long p = 0; p < d->array->n; p++)
            for (int k = 0; k < nl; k++) ast_append(args, ast_name(at, array_element_name(lines[k]->array, p)));
    }
}

/* XPPAUT's atof/atoi of an option's value (a number, or a word: 0). */
static double item_number(const Node *it)
{
    if (!it || !it->rhs) return 0;
    if (it->rhs->kind == N_NUM) return it->rhs->num;
    if (it->rhs->kind == N_NEG && it->rhs->lhs && it->rhs->lhs->kind == N_NUM) return -it->rhs->lhs->num;
    return atof(item_word(it));
}

static Node *assign(Loc at, const char *name, Node *value) { return ast_assign(at, at, name, value); }
static Node *num(Loc at, double v) { return ast_num(at, arena_printf("%.17g", v)); }

const Program *poincare_map(const Program *prog)
{
    Poincare p = {0};
    for (const Node *d = prog->decls; d; d = d->next)
        for (const Node *it = d->kind == D_OPTIONS ? d->items : NULL; it; it = it->next) {
            OptionName on = option_name(it->name);
            const char *k = on.xppaut ? on.xppaut : on.name;
            if (!k || !it->rhs) continue;
            if (!strcmp(k, "poimap")) p.map = it;
            else if (!strcmp(k, "poivar")) p.var = it;
            else if (!strcmp(k, "poipln")) p.plane = it;
            else if (!strcmp(k, "poisgn")) p.sign = it;
            else if (!strcmp(k, "poistop")) p.stop = it;
            else if (!strcmp(k, "maxstor")) p.maxstor = it;
            else if (!strcmp(k, "trans")) p.trans = it;
        }
    if (!p.map) return prog;
    /* XPPAUT takes the value's first letter: s section, m max, p period (else no map) */
    char kind = (char)(item_word(p.map)[0] | 0x20);
    if (kind != 's' && kind != 'm' && kind != 'p') {
        note_at(p.map->rhs->loc, "poimap=%s: XPPAUT knows section, max and period (by the first letter) and "
                                 "ignores any other value; so does odegen", item_word(p.map));
        return prog;
    }
    Loc at = p.map->loc;
    const Node *ode = NULL, *first_ode = NULL;
    bool has_repeat = false, has_record = false;
    for (const Node *d = prog->decls; d; d = d->next) {
        if (d->kind == D_ODE && !first_ode) first_ode = d;
        if (d->kind == D_ODE && p.var && name_eq(d->name, item_word(p.var))) ode = d;
        has_repeat |= d->kind == D_REPEAT;
        has_record |= d->kind == D_RECORD;
    }
    /* poivar: a state or t; XPPAUT's default is its first variable */
    bool on_t = p.var && name_eq(item_word(p.var), "t");
    if (!p.var) ode = first_ode;
    const Node *array = !ode && p.var && !on_t ? array_of_element(prog, item_word(p.var)) : NULL;
    if (array && kind == 'm') {
        error_at(p.var->rhs->loc, "poivar=%s: an element of an array kept as a loop; write the array out "
                                  "(@ arrays=written) to take the extrema of it", item_word(p.var));
        return prog;
    }
    if (!ode && !on_t && !array) {
        error_at(p.var ? p.var->rhs->loc : at, "poivar=%s: the Poincaré map's variable must be a state or t",
                 p.var ? item_word(p.var) : "");
        return prog;
    }
    if (ode && ode->array) {   /* (no poivar: XPPAUT's first variable, an array's first element) */
        if (kind == 'm') {
            error_at(at, "poimap=max of %s: an element of an array kept as a loop; write the array out "
                         "(@ arrays=written) to take the extrema of it", array_element_name(ode->array, 0));
            return prog;
        }
        array = ode;
    }
    double plane = item_number(p.plane), sign = p.sign ? trunc(item_number(p.sign)) : 1;
    int dir = sign > 0 ? 1 : sign < 0 ? -1 : 0;
    Node *expr;
    if (kind == 'm') {      /* the extrema: the state's right-hand side crosses 0 */
        if (on_t) {
            error_at(p.var->rhs->loc, "poimap=max of t: t has no extremum (XPPAUT stores nothing)");
            return prog;
        }
        expr = ast_paren(ast_copy(ode->rhs));   /* (not shared: the checks annotate nodes) */
        dir = -dir;         /* a maximum: the derivative goes from + to - */
    } else if (on_t) {      /* t crosses k*poipln: sin(pi t / poipln) crosses 0, both ways */
        if (!(plane > 0)) {
            error_at(p.plane ? p.plane->rhs->loc : at, "poivar=t needs poipln > 0 (the period of the stroboscopic "
                                                       "map), not %g", plane);
            return prog;
        }
        expr = ast_call(at, at, "sin", ast_binary(N_DIV, at, ast_binary(N_MUL, at, ast_name(at, "pi"), ast_name(at, "t")),
                                                 num(at, plane)));
        dir = 0;
    } else {
        expr = ast_binary(N_SUB, at, ast_name(at, array ? (p.var ? item_word(p.var) : array_element_name(array->array, 0)) : ode->name),
                          num(at, plane));
    }
    Node *items = assign(at, "dir", num(at, dir));
    ast_append(items, assign(at, "stop", num(at, 1)));
    Node *event = ast_new(D_EVENT, at);
    event->name = "poimap";
    event->name_loc = at;
    event->cond = expr;
    event->items = items;
    Node *added = NULL;
    if (kind == 'p') {      /* the time since the previous crossing */
        Node *acc = ast_new(D_ACC, at);
        acc->items = assign(at, "poimap_last", num(at, 0));
        ast_append(acc->items, assign(at, "poimap_period", num(at, 0)));
        added = ast_append(added, acc);
        event->body = assign(at, "poimap_period", ast_binary(N_SUB, at, ast_name(at, "t"), ast_name(at, "poimap_last")));
        ast_append(event->body, assign(at, "poimap_last", ast_name(at, "t")));
    }
    added = ast_append(added, event);
    Node *hook = ast_new(D_ON, at);
    hook->name = "end";
    hook->name_loc = at;
    hook->body = assign(at, "t0", ast_name(at, "t"));
    added = ast_append(added, hook);
    if (p.stop && item_number(p.stop) != 0)     /* (integrate.c breaks on it; 6.11 -silent does not) */
        note_at(p.stop->loc, "poistop: XPPAUT 6.11 -silent writes every point of the run whatever poistop says, and "
                             "so does odegen (repeat record=1 keeps the first point only)");
    long points = p.maxstor ? (long)item_number(p.maxstor) : 5000;
    if (points < 1) points = 1;
    if (!has_repeat) {
        Node *rep = ast_new(D_REPEAT, at);
        rep->items = assign(at, "record", num(at, (double)points));
        if (kind == 'p') ast_append(rep->items, assign(at, "transient", num(at, 1)));
        added = ast_append(added, rep);
    }
    if (!has_record) {      /* XPPAUT's row: t (or the period), the states, the aux */
        Node *rec = ast_new(D_RECORD, at);
        rec->args = ast_name(at, kind == 'p' ? "poimap_period" : "t");
        append_names(rec->args, at, prog, D_ODE);
        append_names(rec->args, at, prog, D_AUX);
        added = ast_append(added, rec);
    }
    note_at(at, "XPPAUT's Poincaré map (poimap=%s): each integration ends at the %s (event 'poimap', %s) and the "
                "next starts there; the points are the rows whose status is 'event'%s", item_word(p.map),
            kind == 'm' ? (dir < 0 ? "next maximum of the variable" : dir > 0 ? "next minimum of the variable"
                                                                         : "next extremum of the variable")
                        : on_t ? "next multiple of poipln in t" : "section",
            on_t ? "every multiple" : dir > 0 ? "crossing upward" : dir < 0 ? "crossing downward" : "either way",
            has_repeat ? "" : arena_printf(" (repeat record=%ld%s)", points, kind == 'p' ? ", transient=1" : ""));
    if (p.trans && item_number(p.trans) > 0)
        note_at(p.trans->loc, "XPPAUT stores the Poincaré points from t = trans on; odegen's rows hold the "
                              "earlier ones too (those with t < %g)", item_number(p.trans));
    Program *copy = arena_alloc(sizeof *copy);
    *copy = *prog;
    copy->decls = NULL;     /* the file's declarations (the list's nodes copied: its own list stays), then these */
    for (const Node *d = prog->decls; d; d = d->next) {
        Node *c = arena_alloc(sizeof *c);
        *c = *d;
        c->next = NULL;
        copy->decls = ast_append(copy->decls, c);
    }
    copy->decls = ast_append(copy->decls, added);
    return copy;
}
