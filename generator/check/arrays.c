/* arrays.c — arrays kept as loops (front/expand.h says when): their elements
 * declared, the indexed names of their lines read with j as the loop's
 * index, sums of many terms computed by a loop, and shift with an offset
 * that the loops' indices give.
 *
 * An array line `x[1..100]'=…x[j+1]…` is resolved once, for a position p of
 * the loop (j = first + dir*p): each indexed name becomes an N_ELEM, the
 * element base + step*p of its kind's storage (ode_y for states, the
 * parameters, the derived parameters, the scratch for the temporaries), each
 * [j] an N_POS.  That every element the line reads exists, for every j, and
 * lies where base + step*p says, is checked here, so the generated loops
 * read nothing else; a name that is missing for some j is the error XPPAUT's
 * text would give (`x[j+1]` with j = 100 names x101, which is not declared),
 * at the line's column.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/builtins.h"
#include "check/checker.h"
#include "front/diag.h"
#include "front/expand.h"

/* ------------------------------------------------------------------ declaring the elements */

static const char *element_name(const ArrayLine *a, long mul, long add, const char *prefix, const char *suffix,
                                long p)
{
    long j = a->first + a->dir * p;
    return arena_printf("%s%ld%s", prefix, mul * j + add, suffix);
}

static SymKind line_kind(NodeKind k)
{
    return k == D_ODE ? SYM_STATE : k == D_TEMP ? SYM_TEMP : SYM_AUX;
}

const char *array_element_name(const ArrayLine *a, long p)
{
    return element_name(a, a->mul, a->add, a->prefix, a->suffix, p);
}

int array_block_lines(Node *d, Node **lines, int max)
{
    int n = 0;
    for (Node *e = d; e && n < max; e = e->next) {
        if (!e->array || e->kind != d->kind || e->array->block != d->array->block) break;
        lines[n++] = e;
        if (!d->array->block) break;
    }
    return n;
}

/* Declares the elements of the array line d, and of the lines of its block
 * of the same kind, interleaved as XPPAUT orders them (x1 v1 x2 v2 …). */
void declare_array_lines(Checker *c, Node *d)
{
    Model *m = c->m;
    if (d->sym) return;   /* declared with an earlier line of its block */
    Node *lines[64];
    int nl = array_block_lines(d, lines, 64);
    if (nl != d->array->nlines) {
        error_at(d->loc, "an array block may hold at most 64 lines of each kind");
        return;
    }
    SymKind kind = line_kind(d->kind);
    const long n = d->array->n;
    Array **arrs = arena_alloc(sizeof(Array *) * (size_t)nl);
    long scratch = m->nscratch;
    for (int k = 0; k < nl; k++) {
        Node *e = lines[k];
        Symbol *s = new_symbol(kind, e->name, e->name_loc);
        s->is_array = true;
        s->expr = e->rhs;
        s->expr_line = e->loc;
        Array a;
        memset(&a, 0, sizeof a);
        a.sym = s;
        a.line = e->array;
        a.n = n;
        a.elems = arena_alloc(sizeof(Symbol *) * (size_t)n);
        a.stride = nl;
        if (kind == SYM_TEMP) a.base = scratch + k;
        PUSH(m->arrays, m->narray, a);
        e->sym = s;
    }
    for (int k = 0; k < nl; k++) {   /* (m->arrays may have moved while growing) */
        arrs[k] = &m->arrays[m->narray - nl + k];
        arrs[k]->sym->array = arrs[k];
        arrs[k]->sym->index = kind == SYM_TEMP ? m->ntemp : -1;
        if (kind == SYM_TEMP) PUSH(m->temps, m->ntemp, arrs[k]->sym);
    }
    for (long p = 0; p < n; p++)
        for (int k = 0; k < nl; k++) {
            const ArrayLine *al = lines[k]->array;
            const char *name = element_name(al, al->mul, al->add, al->prefix, al->suffix, p);
            if (al->mul * (al->first + al->dir * p) + al->add < 0) {
                error_at(lines[k]->name_loc, "'%s' with j = %ld names '%s', which is no name", lines[k]->name,
                         al->first + al->dir * p, name);
                return;
            }
            Symbol *s = declare_symbol(c, kind, name, lines[k]->name_loc, kind != SYM_TEMP);
            if (!s) return;
            s->array = arrs[k];
            s->elem = p;
            s->expr_line = lines[k]->loc;
            if (kind == SYM_TEMP) s->index = (int)(scratch + p * nl + k);
            arrs[k]->elems[p] = s;
            if (p == 0) arrs[k]->base = s->index;
        }
    if (kind == SYM_TEMP) m->nscratch += n * nl;
}

/* ------------------------------------------------------------------ indexed names in an array line */

/* The storage index of an element: where its value lives. */
static long storage_index(const Symbol *s)
{
    return s->index;
}

enum { MAX_RUNS = 8 };   /* runs of positions an indexed name may read (a chain and its two ends: 3) */

/* Whether s can continue the run r at position p: the same kind's storage,
 * at the run's next place (base + step*(p - from)). */
static bool continues(const Node *r, const Symbol *s, long p)
{
    if (r->scalar || s->kind != r->sym->kind || (s->kind == SYM_TEMP && s->array != r->sym->array) ||
        s->kind == SYM_NUMBER || (s->kind == SYM_TEMP && !s->array))
        return false;
    if (r->ix_to == r->ix_from) return true;   /* its second element sets the step */
    return storage_index(s) == r->ix_base + r->ix_step * (p - r->ix_from);
}

static Node *new_run(const Node *n, Symbol *s, long p)
{
    Node *r = arena_alloc(sizeof *r);
    *r = *n;
    r->kind = N_ELEM;
    r->sym = s;
    r->ix_from = r->ix_to = p;
    r->ix_base = storage_index(s);
    r->ix_step = 0;
    r->scalar = s->kind == SYM_NUMBER || (s->kind == SYM_TEMP && !s->array);
    r->more = NULL;
    r->lhs = r->rhs = r->args = NULL;
    return r;
}

/* The element p names must be readable there (each new kind checked once). */
static bool readable(Checker *c, Node *n, Symbol *s, const Ctx *ctx, unsigned *seen)
{
    if (*seen & BIT(s->kind)) return true;
    *seen |= BIT(s->kind);
    if (s->kind == SYM_STATE || s->kind == SYM_PARAM || s->kind == SYM_DERIVED || s->kind == SYM_TEMP ||
        s->kind == SYM_NUMBER || s->kind == SYM_AUX || s->kind == SYM_ACC)
        return resolve_read_symbol(c, s, n->loc, ctx) != NULL;
    error_at(n->loc, "'%s' names '%s', which is %s: an array line reads elements of states, parameters and "
                     "temporaries", n->name, s->name, kind_phrase(s->kind));
    return false;
}

/* `x[j+1]` in an array line: an N_ELEM, its runs of positions found by
 * naming the element of every position (a run is the elements of one kind
 * in order: x0' x[1..n]' x101'=… is three runs when x0 and x101 are declared
 * after the array, one when they surround it).  True: n was one (resolved,
 * or reported). */
static bool resolve_indexed(Checker *c, Node *n, const Ctx *ctx)
{
    const ArrayLine *a = ctx->arr->line;
    const char *open = strchr(n->name, '['), *close = open ? strchr(open, ']') : NULL;
    Index ix;
    if (!close || index_parse(open + 1, (size_t)(close - open - 1), &ix)) return false;   /* the lexer said */
    if (ix.kind == IX_RANGE) {   /* a range in a line's expression is its j (XPPAUT repeats the line) */
        ix.mul = 1;
        ix.add = 0;
    }
    const char *prefix = arena_strndup(n->name, (size_t)(open - n->name)), *suffix = close + 1;
    const long last = a->n - 1;
    Symbol *s0 = symtab_get(&c->tab, element_name(a, ix.mul, ix.add, prefix, suffix, 0));
    Symbol *s1 = symtab_get(&c->tab, element_name(a, ix.mul, ix.add, prefix, suffix, last));
    unsigned seen = 0;
    Node *runs = NULL, *tail = NULL;
    int nruns = 0;
    if (s0 && s1 && s0->array && s0->array == s1->array && s0->array->line->mul == 1 && ix.mul == 1 &&
        !s0->is_array) {
        /* both ends in one array whose names are consecutive: every position between is in it */
        if (!readable(c, n, s0, ctx, &seen)) return true;
        runs = new_run(n, s0, 0);
        runs->ix_to = last;
        runs->ix_step = last ? (storage_index(s1) - storage_index(s0)) / last : 0;
        nruns = 1;
    } else {
        for (long p = 0; p <= last; p++) {
            const char *name = element_name(a, ix.mul, ix.add, prefix, suffix, p);
            Symbol *s = symtab_get(&c->tab, name);
            long jv = a->first + a->dir * p;
            if (!s || s->is_array) {
                if (ix.mul * jv + ix.add < 0)
                    error_at(n->loc, "'%s' with j = %ld names '%s', which is no name", n->name, jv, name);
                else if (!refused_name(c, name))
                    error_at(n->loc, "unknown name '%s' ('%s' with j = %ld)", name, n->name, jv);
                return true;
            }
            if (!readable(c, n, s, ctx, &seen)) return true;
            Symbol *ahead = p < last ? symtab_get(&c->tab, element_name(a, ix.mul, ix.add, prefix, suffix, p + 1)) : NULL;
            /* a run of one is continued only where the element after also follows it (x0 alone, then x1 x2 …) */
            if (tail && continues(tail, s, p) &&
                !(tail->ix_to == tail->ix_from && ahead &&
                  storage_index(ahead) != 2 * storage_index(s) - tail->ix_base && ahead->kind == s->kind)) {
                if (tail->ix_to == tail->ix_from) tail->ix_step = storage_index(s) - tail->ix_base;
                tail->ix_to = p;
                continue;
            }
            if (++nruns > MAX_RUNS) {
                error_at(n->loc, "'%s' names elements in more than %d runs of one kind in order (%s is %s): a loop "
                                 "reads an array's elements by their index (write the arrays out: "
                                 "@ arrays=written)", n->name, MAX_RUNS, name, kind_phrase(s->kind));
                return true;
            }
            Node *r = new_run(n, s, p);
            if (tail) tail->more = r;
            else runs = r;
            tail = r;
        }
    }
    Node *next = n->next;
    *n = *runs;
    n->next = next;
    return true;
}

/* An element of an array kept as a loop, named as a scalar (`u5`): a
 * temporary's lives in the scratch, an aux is computed where it is read. */
static void element_by_name(Node *n)
{
    const Symbol *s = n->sym;
    if (!s || !s->array || s->is_array) return;
    if (s->kind != SYM_TEMP && s->kind != SYM_AUX) return;
    n->kind = N_ELEM;
    n->ix_base = storage_index(s);
    n->ix_step = 0;
    n->ix_from = n->ix_to = 0;
    n->scalar = false;
    n->more = NULL;
}

bool resolve_array_syntax(Checker *c, Node *n, const Ctx *ctx)
{
    if (n->kind == N_NAME && n->sym) {
        element_by_name(n);
        return false;
    }
    if (n->kind == N_NAME && ctx->arr && strchr(n->name, '[')) return resolve_indexed(c, n, ctx);
    if (n->kind == N_NUM && n->text && n->text[0] == '[' && ctx->arr) {   /* [j+1]: a number of the loop */
        const ArrayLine *a = ctx->arr->line;
        Index ix;
        if (index_parse(n->text + 1, strlen(n->text) - 2, &ix)) return false;
        if (ix.kind == IX_RANGE) ix.mul = 1, ix.add = 0;
        n->kind = N_POS;
        n->ix_base = ix.mul * a->first + ix.add;
        n->ix_step = ix.mul * a->dir;
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------ sums as loops */

enum { MAX_SUM_INDEX = 1000000000 };

bool sum_as_loop(Checker *c, Node *n, const Ctx *ctx, double first, double last)
{
    if (last - first + 1 < ARRAY_LOOP_MIN || c->sums_written) return false;
    if (fabs(first) > MAX_SUM_INDEX || fabs(last) > MAX_SUM_INDEX) {
        error_at(n->loc, "a sum's indices are whole numbers of at most %d: sum(%g,%g)", MAX_SUM_INDEX, first, last);
        return true;
    }
    if (ctx->func) {
        error_at(n->loc, "a sum of %.0f terms is computed by a loop, which a function's body cannot hold: write the "
                         "sum in a temporary and pass it", last - first + 1);
        return true;
    }
    n->loop = true;
    n->ix_base = (long)first;    /* N_SUM as a loop: its bounds, i' = first … last */
    n->ix_step = (long)last;
    Ctx inner = *ctx;
    inner.sum_loop = n;
    resolve_expr(c, n->lhs, &inner);
    return true;
}

/* sum(a,b)of(…) whose bounds are parameters (resolved already): a loop over
 * each system's bounds, computed where the sum is (the parameters may change
 * in events).  What its body reads through i' is checked as it runs
 * (resolve_shift_loop). */
void sum_as_dynamic_loop(Checker *c, Node *n, const Ctx *ctx)
{
    if (c->sums_written) {
        error_at(n->loc, "a sum whose bounds are parameters is a loop over each system's bounds, and this model needs "
                         "derivatives (a stiff method, lyapunov), which odegen takes of sums written out term by term: "
                         "make the bounds numbers");
        return;
    }
    if (ctx->func) {
        error_at(n->loc, "a sum whose bounds are parameters is computed by a loop, which a function's body cannot "
                         "hold: write the sum in a temporary and pass it");
        return;
    }
    n->loop = true;
    n->dynamic = true;
    n->ix_base = n->ix_step = 0;   /* (not known: the bounds are n->args) */
    Ctx inner = *ctx;
    inner.sum_loop = n;
    resolve_expr(c, n->lhs, &inner);
}

/* ------------------------------------------------------------------ shift with an offset of the loops */

/* The values an offset may take over the loops (interval arithmetic on the
 * integers it is built from); false when it is not made of numbers, [j],
 * i', + - *, mod, flr, ceil, abs, min, max and if. */
typedef struct Range {
    double lo, hi;
} Range;

static bool offset_range(const Checker *c, const Node *n, const Ctx *ctx, Range *r)
{
    Range a, b;
    switch (n->kind) {
    case N_NUM: r->lo = r->hi = n->num; return true;
    case N_NAME:
        if (n->sym && n->sym->kind == SYM_NUMBER) {
            r->lo = r->hi = n->sym->value;
            return true;
        }
        return false;
    case N_POS: {
        double v0 = (double)n->ix_base, v1 = (double)(n->ix_base + n->ix_step * (ctx->arr->line->n - 1));
        r->lo = fmin(v0, v1);
        r->hi = fmax(v0, v1);
        return true;
    }
    case N_SUMIX:
        if (ctx->sum_loop->dynamic) return false;   /* (its bounds are parameters) */
        r->lo = (double)ctx->sum_loop->ix_base;
        r->hi = (double)ctx->sum_loop->ix_step;
        return true;
    case N_NEG:
        if (!offset_range(c, n->lhs, ctx, &a)) return false;
        r->lo = -a.hi;
        r->hi = -a.lo;
        return true;
    case N_ADD: case N_SUB: case N_MUL:
        if (!offset_range(c, n->lhs, ctx, &a) || !offset_range(c, n->rhs, ctx, &b)) return false;
        if (n->kind == N_ADD) *r = (Range){a.lo + b.lo, a.hi + b.hi};
        else if (n->kind == N_SUB) *r = (Range){a.lo - b.hi, a.hi - b.lo};
        else {
            double v[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
            *r = (Range){fmin(fmin(v[0], v[1]), fmin(v[2], v[3])), fmax(fmax(v[0], v[1]), fmax(v[2], v[3]))};
        }
        return true;
    case N_IF:
        if (!offset_range(c, n->lhs, ctx, &a) || !offset_range(c, n->rhs, ctx, &b)) return false;
        *r = (Range){fmin(a.lo, b.lo), fmax(a.hi, b.hi)};
        return true;
    case N_CALL: {
        if (n->sym) return false;
        int nargs = list_length(n->args);
        if (nargs < 1 || !offset_range(c, n->args, ctx, &a)) return false;
        if (nargs == 2 && !offset_range(c, n->args->next, ctx, &b)) return false;
        if (name_eq(n->name, "mod") && nargs == 2) {   /* XPPAUT's mod: a - b*floor(a/b), in [0, b) for b > 0 */
            if (!(b.lo == b.hi && b.lo > 0)) return false;
            if (a.lo >= 0 && a.hi < b.lo) *r = a;
            else *r = (Range){0, b.lo - 1};
            return true;
        }
        if (name_eq(n->name, "flr") && nargs == 1) *r = (Range){floor(a.lo), floor(a.hi)};
        else if (name_eq(n->name, "ceil") && nargs == 1) *r = (Range){ceil(a.lo), ceil(a.hi)};
        else if (name_eq(n->name, "abs") && nargs == 1)
            *r = (Range){a.lo <= 0 && a.hi >= 0 ? 0 : fmin(fabs(a.lo), fabs(a.hi)), fmax(fabs(a.lo), fabs(a.hi))};
        else if (name_eq(n->name, "max") && nargs == 2) *r = (Range){fmax(a.lo, b.lo), fmax(a.hi, b.hi)};
        else if (name_eq(n->name, "min") && nargs == 2) *r = (Range){fmin(a.lo, b.lo), fmin(a.hi, b.hi)};
        else return false;
        return true;
    }
    default:
        return false;
    }
}

/* The names of base's kind that a shift moves among, as storage indices
 * [lo, hi]: the states, the parameters, the derived parameters; a
 * temporary's array (the scratch of its block). */
static bool shift_span(const Checker *c, const Symbol *base, long *lo, long *hi)
{
    const Model *m = c->m;
    switch (base->kind) {
    case SYM_STATE: *lo = 0; *hi = m->nstate - 1; return true;
    case SYM_PARAM: *lo = 0; *hi = m->nparam - 1; return true;
    case SYM_DERIVED: *lo = 0; *hi = m->nderived - 1; return true;
    case SYM_TEMP:
        if (!base->array) return false;
        *lo = base->array->base - base->array->line->pos;
        *hi = *lo + base->array->n * base->array->stride - 1;
        return true;
    default: return false;
    }
}

/* The call shift(base, offset) made an element read by index, base's storage
 * index plus the offset computed as the model runs. */
static void shift_element(Node *n, Symbol *base, Node *offset, const Ctx *ctx)
{
    n->kind = N_ELEM;
    n->sym = base;
    n->ix_base = storage_index(base);
    n->ix_step = 0;
    n->ix_from = 0;
    n->ix_to = ctx->arr ? ctx->arr->line->n - 1 : 0;
    n->scalar = false;
    n->more = NULL;
    n->lhs = offset;
    n->args = NULL;
}

/* shift(NAME, OFFSET) where the offset is not a constant: an N_ELEM whose
 * offset is computed as the model runs.  Where the offset is made of [j], i'
 * and constants, where it reads is proved here (offset_range); where it reads
 * parameters, tables or the i' of a sum whose bounds are parameters, it is
 * known only when a system is loaded, and the element is checked as it is
 * read: beyond the names of its kind it is NaN (the system then ends with
 * status nan; XPPAUT reads whatever variable is stored there).  False when
 * the offset is a constant (resolve.c's shift then names the element). */
bool resolve_shift_loop(Checker *c, Node *n, Symbol *base, Node *offset, const Ctx *ctx)
{
    Ctx x = *ctx;
    x.read = READ_PARAMS;
    x.where = "shift's offset";
    x.hint = "; an offset is made of numbers, parameters, tables, [j] and i' (known when a system is loaded)";
    int before = diag_error_count();
    resolve_expr(c, offset, &x);
    if (diag_error_count() != before) return true;
    double k;
    if (eval_const(c, offset, &k)) return false;
    Range r;
    long lo, hi;
    if (!shift_span(c, base, &lo, &hi)) {
        error_at(n->loc, "shift(%s, …) moves among states, parameters, derived parameters or an array of "
                         "temporaries; %s is %s", base->name, base->name, kind_phrase(base->kind));
        return true;
    }
    if (!offset_range(c, offset, ctx, &r)) {
        if (c->sums_written) {
            error_at(offset->loc, "shift's offset here is known only when a system is loaded (it reads parameters, "
                                  "tables or the index of a sum whose bounds are parameters), and this model needs "
                                  "derivatives (a stiff method, lyapunov), which odegen takes of names known when it "
                                  "translates: make the offset a number");
            return true;
        }
        shift_element(n, base, offset, ctx);
        n->dynamic = true;   /* checked as it runs (emit_expr.c) */
        n->span_lo = lo;
        n->span_hi = hi;
        return true;
    }
    double from = (double)storage_index(base) + trunc(r.lo), to = (double)storage_index(base) + trunc(r.hi);
    if (from < (double)lo || to > (double)hi) {
        error_at(n->loc, "shift(%s, …) may name something that is not %s: its offset ranges over %.0f … %.0f "
                         "here, and %s has %ld before it and %ld after it (a periodic index: mod(…, n))",
                 base->name, kind_phrase(base->kind), trunc(r.lo), trunc(r.hi), base->name,
                 (long)storage_index(base) - lo, hi - (long)storage_index(base));
        return true;
    }
    shift_element(n, base, offset, ctx);
    return true;
}
