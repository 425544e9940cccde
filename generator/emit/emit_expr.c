/* emit_expr.c — expressions, literals and C names of the generated code. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/builtins.h"
#include "emit/emitter.h"
#include "base/util.h"

/* ------------------------------------------------------------------ literals */

const char *c_literal(double v, bool single)
{
    char buf[64];
    if (isnan(v)) return single ? "NAN" : "NAN";
    /* Beyond the precision's range (1e300 in float): ±infinity, which is
     * what such a literal means there (single.c notes it at its line). */
    if (isinf(v) || (single && fabs(v) >= 0x1.ffffffp+127)) return v > 0 ? "INFINITY" : "(-INFINITY)";
    int p;
    if (single) {
        float f = (float)v;
        for (p = 1; p <= 9; p++) {
            snprintf(buf, sizeof buf, "%.*g", p, (double)f);
            if (strtof(buf, NULL) == f) break;
        }
    } else {
        for (p = 1; p <= 17; p++) {
            snprintf(buf, sizeof buf, "%.*g", p, v);
            if (strtod(buf, NULL) == v) break;
        }
    }
    /* 1e+06 reads better as 1e6. */
    char *e = strpbrk(buf, "eE");
    if (e) {
        char *d = e + 1, *src = e + 1;
        if (*src == '+') src++;
        if (*src == '-') *d++ = *src++;
        while (*src == '0' && src[1]) src++;
        memmove(d, src, strlen(src) + 1);
    }
    /* Always a floating literal: 1/2 must not become integer division. */
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    if (single) strcat(buf, "f");
    return arena_strdup(buf);
}

/* ------------------------------------------------------------------ expressions */

/* C precedence levels, loosest first. */
enum { P_TERNARY = 1, P_OR, P_AND, P_EQ, P_REL, P_ADD, P_MUL, P_UNARY, P_PRIMARY };

static void open_paren(Emitter *E, int mine, int ctx)
{
    if (mine < ctx) buf_puts(E->out, "(");
}

static void close_paren(Emitter *E, int mine, int ctx)
{
    if (mine < ctx) buf_puts(E->out, ")");
}

int integer_power(const Node *n)
{
    const Node *e = n->rhs;
    int sign = 1;
    if (e->kind == N_NEG) {
        sign = -1;
        e = e->lhs;
    }
    if (e->kind != N_NUM || e->num != floor(e->num) || e->num > 63) return 0;
    return sign * (int)e->num;
}

static bool is_simple(const Node *n)
{
    return n->kind == N_NUM ||
           (n->kind == N_NAME && !(n->sym && (n->sym->kind == SYM_TEMP || n->sym->kind == SYM_AUX)));
}

static void emit_name(Emitter *E, const Node *n)
{
    const Symbol *s = n->sym;
    if (s->kind == SYM_COUNT) {
        buf_puts(E->out, "count");
        return;
    }
    buf_puts(E->out, s->cname ? s->cname : s->name);
}

/* ------------------------------------------------------------------ arrays kept as loops */

typedef struct SumLocal {
    const Node *sum;
    const char *pos;    /* the position it was computed for (NULL: none) */
    int k;              /* ode_sumK */
} SumLocal;

static bool same_pos(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* A shift's offset made of [j], whole numbers, + - *, unary minus and mod by a
 * whole number (a ring's mod([j]+1, n)) is computed in int rather than in
 * ode_real then truncated: every value it takes is a whole number well inside
 * int's range (proved below over the loop's positions), where the arithmetic of
 * doubles is exact, so both give the same index — and a GPU's fmod of doubles
 * costs a hundred instructions where an int's % by a constant costs a few. */
typedef struct IntRange {
    double lo, hi;
} IntRange;

enum { INT_OFFSET_MAX = 1 << 30 };

static bool whole(double v)
{
    return v == floor(v) && fabs(v) < INT_OFFSET_MAX;
}

static bool int_offset(const Node *n, const Node *run, IntRange *r)
{
    IntRange a, b;
    switch (n->kind) {
    case N_NUM:
        if (!whole(n->num)) return false;
        r->lo = r->hi = n->num;
        return true;
    case N_NAME:
        if (!n->sym || n->sym->kind != SYM_NUMBER || !whole(n->sym->value)) return false;
        r->lo = r->hi = n->sym->value;
        return true;
    case N_POS: {   /* ix_base + ix_step*p over the run's positions */
        const double v0 = (double)n->ix_base + (double)n->ix_step * (double)run->ix_from;
        const double v1 = (double)n->ix_base + (double)n->ix_step * (double)run->ix_to;
        *r = (IntRange){fmin(v0, v1), fmax(v0, v1)};
        break;
    }
    case N_NEG:
        if (!int_offset(n->lhs, run, &a)) return false;
        *r = (IntRange){-a.hi, -a.lo};
        break;
    case N_ADD: case N_SUB: case N_MUL:
        if (!int_offset(n->lhs, run, &a) || !int_offset(n->rhs, run, &b)) return false;
        if (n->kind == N_ADD) *r = (IntRange){a.lo + b.lo, a.hi + b.hi};
        else if (n->kind == N_SUB) *r = (IntRange){a.lo - b.hi, a.hi - b.lo};
        else {
            const double v[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
            *r = (IntRange){fmin(fmin(v[0], v[1]), fmin(v[2], v[3])), fmax(fmax(v[0], v[1]), fmax(v[2], v[3]))};
        }
        break;
    case N_CALL:   /* mod(a, b), b a whole number other than 0: |result| < 2|b| */
        if (n->sym || !name_eq(n->name, "mod") || !n->args || !n->args->next || n->args->next->next) return false;
        if (!int_offset(n->args, run, &a) || !int_offset(n->args->next, run, &b) || b.lo != b.hi || b.lo == 0)
            return false;
        *r = (IntRange){-2 * fabs(b.lo), 2 * fabs(b.lo)};
        break;
    default:
        return false;
    }
    return fabs(r->lo) < INT_OFFSET_MAX && fabs(r->hi) < INT_OFFSET_MAX;
}

/* The offset int_offset accepted, as C int arithmetic (ode_imod: prelude.h). */
static void emit_int_offset(Emitter *E, const Node *n)
{
    Buf *o = E->out;
    switch (n->kind) {
    case N_NUM: buf_printf(o, "%ld", (long)n->num); return;
    case N_NAME: buf_printf(o, "%ld", (long)n->sym->value); return;
    case N_POS: {
        const char *pos = E->pos ? E->pos : "0";
        if (n->ix_base && n->ix_step != 1) buf_printf(o, "(%ld + %ld * %s)", n->ix_base, n->ix_step, pos);
        else if (n->ix_base) buf_printf(o, "(%ld + %s)", n->ix_base, pos);
        else if (n->ix_step != 1) buf_printf(o, "(%ld * %s)", n->ix_step, pos);
        else buf_puts(o, pos);
        return;
    }
    case N_NEG:
        buf_puts(o, "(-");
        emit_int_offset(E, n->lhs);
        buf_puts(o, ")");
        return;
    case N_ADD: case N_SUB: case N_MUL:
        buf_puts(o, "(");
        emit_int_offset(E, n->lhs);
        buf_puts(o, n->kind == N_ADD ? " + " : n->kind == N_SUB ? " - " : " * ");
        emit_int_offset(E, n->rhs);
        buf_puts(o, ")");
        return;
    default:   /* mod */
        buf_puts(o, "ode_imod(");
        emit_int_offset(E, n->args);
        buf_puts(o, ", ");
        emit_int_offset(E, n->args->next);
        buf_puts(o, ")");
        return;
    }
}

/* The storage index of run r at the current position, as C (an int). */
static void emit_index(Emitter *E, const Node *r)
{
    Buf *o = E->out;
    if (r->ix_step == 0 || !E->pos) {
        buf_printf(o, "%ld", r->ix_base);
    } else {
        long base = r->ix_base - r->ix_step * r->ix_from;   /* base + step*(p - from) */
        long step = r->ix_step < 0 ? -r->ix_step : r->ix_step;
        if (base) buf_printf(o, "%ld %c ", base, r->ix_step < 0 ? '-' : '+');
        else if (r->ix_step < 0) buf_puts(o, "-");
        if (step == 1) buf_printf(o, "%s", E->pos);
        else buf_printf(o, "%ld * %s", step, E->pos);
    }
    if (r->lhs) {   /* shift's offset, truncated as XPPAUT does */
        IntRange range;
        if (!r->dynamic && int_offset(r->lhs, r, &range)) {   /* whole numbers: the same value in int */
            buf_puts(o, " + ");
            emit_int_offset(E, r->lhs);
            return;
        }
        buf_puts(o, r->dynamic ? " + ode_index(" : " + (int)(");
        emit_value(E, r->lhs, 0);
        buf_puts(o, ")");
    }
}

/* An element of an array of temporaries or aux computed where it is read:
 * its line's expression at the element's position. */
const char *element_position(Emitter *E, const Node *r)
{
    const Array *a = r->sym->array;
    Buf pos = {0};
    Buf *saved_out = E->out;
    E->out = &pos;
    buf_puts(&pos, "((");
    emit_index(E, r);
    if (a->base) buf_printf(&pos, ") - %ld", a->base);
    else buf_puts(&pos, ")");
    if (a->stride != 1) buf_printf(&pos, " / %ld", a->stride);
    buf_puts(&pos, ")");
    E->out = saved_out;
    const char *text = arena_strdup(pos.data);
    buf_free(&pos);
    return text;
}

static void emit_element_inline(Emitter *E, const Node *r)
{
    const Array *a = r->sym->array;
    const char *saved_pos = E->pos;
    E->pos = element_position(E, r);
    buf_puts(E->out, "(");
    emit_value(E, a->sym->expr, 0);
    buf_puts(E->out, ")");
    E->pos = saved_pos;
}

/* n is [j] + whole numbers (+, -): *d its value at position p less p. */
static bool pos_plus(const Node *n, long *d)
{
    IntRange k;
    if (n->kind == N_POS && n->ix_step == 1) {
        *d = n->ix_base;
        return true;
    }
    if (n->kind == N_ADD && pos_plus(n->lhs, d) && int_offset(n->rhs, n, &k) && k.lo == k.hi) {
        *d += (long)k.lo;
        return true;
    }
    if (n->kind == N_ADD && pos_plus(n->rhs, d) && int_offset(n->lhs, n, &k) && k.lo == k.hi) {
        *d += (long)k.lo;
        return true;
    }
    if (n->kind == N_SUB && pos_plus(n->lhs, d) && int_offset(n->rhs, n, &k) && k.lo == k.hi) {
        *d -= (long)k.lo;
        return true;
    }
    return false;
}

/* A state read in a tile (emit_tile.c): element p + d of state array a, from
 * the lane's registers ode_in (templates/team_system.h: ODE_TILE_IN), where p
 * is the tile loop's position; a read of another form fails the tile. */
static void emit_tile_state(Emitter *E, const Node *r)
{
    const Array *A = r->sym->array;
    long d = 0;
    bool periodic = false, ok = E->pos && E->pos == E->tile_pos && A && A->sym->kind == SYM_STATE && A->stride == 1 &&
                                A->n == E->tile_len && !r->dynamic;
    IntRange k;
    if (ok && r->ix_step == 1 && !r->lhs) {                 /* x[j+d] */
        d = r->ix_base - r->ix_from - A->base;
    } else if (ok && r->ix_step == 1 && int_offset(r->lhs, r, &k) && k.lo == k.hi) {   /* shift(x[j], d) */
        d = r->ix_base - r->ix_from - A->base + (long)k.lo;
    } else if (ok && r->ix_step == 0 && r->lhs && pos_plus(r->lhs, &d)) {   /* shift(x0, [j]+d) */
        d += r->ix_base - A->base;
    } else if (ok && r->ix_step == 0 && r->ix_base == A->base && r->lhs && r->lhs->kind == N_CALL && !r->lhs->sym &&
               name_eq(r->lhs->name, "mod") && r->lhs->args && r->lhs->args->next && !r->lhs->args->next->next &&
               pos_plus(r->lhs->args, &d) && int_offset(r->lhs->args->next, r, &k) && k.lo == k.hi &&
               (long)k.lo == A->n) {                       /* shift(x0, mod([j]+d, n)): a ring */
        periodic = true;
        d %= A->n;                                          /* the same residue, nearest to 0 */
        if (d > A->n / 2) d -= A->n;
        if (d < -(A->n / 2)) d += A->n;
    } else {
        ok = false;
    }
    /* (not periodic: every position of the run reads inside the array) */
    if (ok && !periodic && (r->ix_from + d < 0 || r->ix_to + d >= A->n)) ok = false;
    if (ok && (d > E->tile_halo_max || -d > E->tile_halo_max)) ok = false;
    if (!ok) {
        E->tile_fail = true;
        buf_puts(E->out, "ode_y[?]");
        return;
    }
    if (labs(d) > E->tile_halo) E->tile_halo = (int)labs(d);
    buf_printf(E->out, "ode_in[ODE_TILE_IN(%ld, ode_c", A->base / A->n);
    if (d) buf_printf(E->out, " %c %ld", d < 0 ? '-' : '+', labs(d));
    buf_puts(E->out, ")]");
}

static void emit_run(Emitter *E, const Node *r)
{
    Buf *o = E->out;
    if (r->dynamic) {   /* an index known only as it runs: NaN beyond the names of its kind */
        Node checked = *r;
        checked.dynamic = false;
        buf_puts(o, "(");
        emit_index(E, r);
        buf_printf(o, " >= %ld && ", r->span_lo);
        emit_index(E, r);
        buf_printf(o, " <= %ld ? ", r->span_hi);
        emit_run(E, &checked);
        buf_puts(o, " : (ode_real)NAN)");
        return;
    }
    if (r->scalar) {   /* a boundary of its own (x0=0): read by its name */
        Node v = *r;
        v.kind = N_NAME;
        v.lhs = NULL;
        emit_value(E, &v, 0);
        return;
    }
    if (E->tile && r->sym->kind == SYM_STATE) {
        emit_tile_state(E, r);
        return;
    }
    switch (r->sym->kind) {
    case SYM_STATE: buf_printf(o, "%s[", E->states ? E->states : "ode_y"); break;
    case SYM_PARAM: buf_puts(o, "ode_s->p["); break;
    case SYM_DERIVED: buf_puts(o, "ode_s->d["); break;
    case SYM_TEMP:
        if (E->scratch) {
            buf_puts(o, "ode_scratch[");
            break;
        }
        emit_element_inline(E, r);
        return;
    default:   /* an aux: computed where it is read */
        emit_element_inline(E, r);
        return;
    }
    emit_index(E, r);
    buf_puts(o, "]");
}

/* An element read by index: its run at the current position. */
static void emit_element(Emitter *E, const Node *n)
{
    if (!n->more) {
        emit_run(E, n);
        return;
    }
    buf_puts(E->out, "(");
    for (const Node *r = n; r; r = r->more) {
        if (r->more) buf_printf(E->out, "%s <= %ld ? ", E->pos ? E->pos : "0", r->ix_to);
        emit_run(E, r);
        if (r->more) buf_puts(E->out, " : ");
    }
    buf_puts(E->out, ")");
}

static void emit_sum_local(Emitter *E, const Node *n)
{
    for (int i = E->nsums - 1; i >= 0; i--)
        if (E->sums[i].sum == n && same_pos(E->sums[i].pos, E->pos)) {
            buf_printf(E->out, "ode_sum%d", E->sums[i].k);
            return;
        }
    buf_puts(E->out, "ODE_SUM_NOT_COMPUTED");   /* (a bug of the emitter: fails to compile, never runs) */
}

void emit_sum_loops_record(Emitter *E, const Node *sum, int k)
{
    E->sums = arena_grow(E->sums, E->nsums, &E->capsums, sizeof *E->sums);
    E->sums[E->nsums++] = (SumLocal){sum, E->pos, k};
}

static const char *binary_op(NodeKind k)
{
    switch (k) {
    case N_ADD: return " + ";
    case N_SUB: return " - ";
    case N_MUL: return " * ";
    case N_DIV: return " / ";
    case N_LT: return " < ";
    case N_GT: return " > ";
    case N_LE: return " <= ";
    case N_GE: return " >= ";
    case N_EQ: return " == ";
    case N_NE: return " != ";
    case N_AND: return " && ";
    case N_OR: return " || ";
    default: return " ? ";
    }
}

static bool is_condition(NodeKind k)
{
    return k == N_LT || k == N_GT || k == N_LE || k == N_GE || k == N_EQ || k == N_NE || k == N_AND ||
           k == N_OR || k == N_NOT;
}

static void emit_power(Emitter *E, const Node *n, int prec)
{
    int k = integer_power(n);
    if (k == 0 && !(n->rhs->kind == N_NUM && n->rhs->num == 0)) {
        buf_puts(E->out, E->single ? "powf(" : "pow(");
        emit_value(E, n->lhs, 0);
        buf_puts(E->out, ", ");
        emit_value(E, n->rhs, 0);
        buf_puts(E->out, ")");
        return;
    }
    int a = k < 0 ? -k : k;
    if (a == 0) {
        buf_puts(E->out, c_literal(1.0, E->single));
        return;
    }
    if (k < 0) {
        open_paren(E, P_MUL, prec);
        buf_printf(E->out, "%s / ", c_literal(1.0, E->single));
    }
    if (a == 1) {
        emit_value(E, n->lhs, k < 0 ? P_UNARY : prec);
    } else if (a <= 3 && is_simple(n->lhs)) {
        /* x^2, x^3 of a plain name: written as products. */
        open_paren(E, P_MUL, k < 0 ? P_UNARY : prec);
        for (int i = 0; i < a; i++) {
            if (i) buf_puts(E->out, " * ");
            emit_value(E, n->lhs, P_UNARY);
        }
        close_paren(E, P_MUL, k < 0 ? P_UNARY : prec);
    } else {
        buf_printf(E->out, "ode_pow%d(", a);
        emit_value(E, n->lhs, 0);
        buf_puts(E->out, ")");
    }
    if (k < 0) close_paren(E, P_MUL, prec);
}

/* ran(a) = a·U, normal(m, s) = m + s·N: U, N this step's draw (held in the
 * system, ode_s->xi) in the right-hand side, a draw where it stands
 * elsewhere (templates/noise.h). */
static void emit_random_call(Emitter *E, const Node *n)
{
    static const char *const purpose[SITE_NKINDS] = {"ODE_RNG_STEP", "ODE_RNG_AUX", "ODE_RNG_BLOCK", "ODE_RNG_ACC",
                                                     "ODE_RNG_TABLE"};
    const bool normal = name_eq(n->name, "normal");
    const char *draw = n->site_kind == SITE_STEP
                           ? arena_printf("ode_s->xi[%d]", n->site - 1)
                           : arena_printf("ode_noise_%s(ode_s, %s, %d)", normal ? "normal" : "uniform",
                                          purpose[n->site_kind], n->site - 1);
    buf_puts(E->out, "(");
    if (normal) {
        emit_value(E, n->args, P_ADD);
        buf_puts(E->out, " + ");
        emit_value(E, n->args->next, P_MUL);
        buf_printf(E->out, " * %s", draw);
    } else {
        emit_value(E, n->args, P_MUL);
        buf_printf(E->out, " * %s", draw);
    }
    buf_puts(E->out, ")");
}

static void emit_call(Emitter *E, const Node *n)
{
    if (n->site) {
        emit_random_call(E, n);
        return;
    }
    if (n->sym && n->sym->kind == SYM_SPECIAL) {   /* a special's value (emit_specials.c) */
        const Special *sp = &E->m->specials[n->sym->special];
        if (E->scratch)
            buf_printf(E->out, "ode_special_read(ode_scratch + %ld, %ld, ", sp->scratch, sp->n);
        else
            buf_printf(E->out, "ode_special%d_at(ode_s, %s, ", n->sym->special, E->states ? E->states : "ode_y");
        emit_value(E, n->args, 0);
        buf_puts(E->out, ")");
        return;
    }
    if (n->sym && n->sym->kind == SYM_TABLE) {   /* a table: its lookup (emit_tables.c) */
        buf_printf(E->out, "ode_table%d(", n->sym->table);
        emit_value(E, n->args, 0);
        buf_puts(E->out, ")");
        return;
    }
    if (n->sym) {   /* a user function: inlined C function taking the system */
        buf_printf(E->out, "%s(ode_s", n->sym->cname);
        for (const Node *a = n->args; a; a = a->next) {
            buf_puts(E->out, ", ");
            emit_value(E, a, 0);
        }
        for (int k = 0; k < n->sym->nimplicit; k++) {   /* then the values its body reads, current here */
            Node v;
            memset(&v, 0, sizeof v);
            v.kind = N_NAME;
            v.sym = n->sym->implicit[k];
            v.name = v.sym->name;
            v.loc = n->loc;
            buf_puts(E->out, ", ");
            emit_value(E, &v, 0);
        }
        buf_puts(E->out, ")");
        return;
    }
    if (name_eq(n->name, "delay")) {   /* delay(x, tau) with its time (check/delay.c): templates/delay.h */
        const Node *x = n->args, *tau = x->next, *now = tau->next;
        if (x->kind == N_ELEM)   /* x[j] in an array line kept as a loop: position p's element and site (check/delay.c) */
            buf_printf(E->out, "ode_delay(ode_s, %ld + (%s), %d + (%s), ", n->ix_base, E->pos ? E->pos : "0",
                       (int)n->num, E->pos ? E->pos : "0");
        else
            buf_printf(E->out, "ode_delay(ode_s, %d, %d, ", x->sym->delay_slot, (int)n->num);
        emit_value(E, now, 0);
        buf_puts(E->out, ", ");
        emit_value(E, tau, 0);
        buf_puts(E->out, ", ");
        emit_value(E, x, 0);
        buf_puts(E->out, ")");
        return;
    }
    if (E->use_trig && n->args && (name_eq(n->name, "sin") || name_eq(n->name, "cos"))) {
        int k = trig_index(&E->trig, n->args);
        if (k >= 0) {   /* sin/cos of time: computed once per step by the solver */
            buf_printf(E->out, "ode_tr->%c[%d]", tolower((unsigned char)n->name[0]) == 's' ? 's' : 'c', k);
            return;
        }
    }
    const Builtin *b = builtin_find(n->name);
    buf_printf(E->out, "%s(", E->single ? b->c_float : b->c_double);
    for (const Node *a = n->args; a; a = a->next) {
        emit_value(E, a, 0);
        if (a->next) buf_puts(E->out, ", ");
    }
    buf_puts(E->out, ")");
}

void emit_value(Emitter *E, const Node *n, int prec)
{
    switch (n->kind) {
    case N_NUM:
        buf_puts(E->out, c_literal(n->num, E->single));
        return;
    case N_NAME:
        emit_name(E, n);
        return;
    case N_ELEM:
        emit_element(E, n);
        return;
    case N_POS:   /* [j] at the loop's position */
        if (!n->ix_step || !E->pos) {
            buf_puts(E->out, c_literal((double)n->ix_base, E->single));
        } else {
            buf_printf(E->out, "(ode_real)(");
            if (n->ix_base) buf_printf(E->out, "%ld + ", n->ix_base);
            if (n->ix_step == 1) buf_printf(E->out, "%s)", E->pos);
            else buf_printf(E->out, "%ld * %s)", n->ix_step, E->pos);
        }
        return;
    case N_SUMIX:
        buf_puts(E->out, "(ode_real)ode_i");
        return;
    case N_SUM:
        emit_sum_local(E, n);
        return;
    case N_CALL:
        emit_call(E, n);
        return;
    case N_NEG:
        open_paren(E, P_UNARY, prec);
        buf_puts(E->out, "-");
        emit_value(E, n->lhs, P_UNARY + 1);   /* -(-x), never --x */
        close_paren(E, P_UNARY, prec);
        return;
    case N_POW:
        emit_power(E, n, prec);
        return;
    case N_IF:
        buf_puts(E->out, "(");
        emit_cond(E, n->cond, P_TERNARY + 1);
        buf_puts(E->out, " ? ");
        emit_value(E, n->lhs, P_TERNARY + 1);
        buf_puts(E->out, " : ");
        emit_value(E, n->rhs, P_TERNARY);
        buf_puts(E->out, ")");
        return;
    case N_ADD:
    case N_SUB:
        open_paren(E, P_ADD, prec);
        emit_value(E, n->lhs, P_ADD);
        buf_puts(E->out, binary_op(n->kind));
        emit_value(E, n->rhs, P_ADD + 1);
        close_paren(E, P_ADD, prec);
        return;
    case N_MUL:
    case N_DIV:
        open_paren(E, P_MUL, prec);
        emit_value(E, n->lhs, P_MUL);
        buf_puts(E->out, binary_op(n->kind));
        emit_value(E, n->rhs, P_MUL + 1);
        close_paren(E, P_MUL, prec);
        return;
    default:
        if (is_condition(n->kind)) {   /* truth as a number: 1 or 0 */
            buf_puts(E->out, "ODE_BOOL(");
            emit_cond(E, n, 0);
            buf_puts(E->out, ")");
            return;
        }
        buf_puts(E->out, "0");
        return;
    }
}

void emit_cond(Emitter *E, const Node *n, int prec)
{
    int mine;
    switch (n->kind) {
    case N_LT: case N_GT: case N_LE: case N_GE: mine = P_REL; break;
    case N_EQ: case N_NE: mine = P_EQ; break;
    case N_AND: mine = P_AND; break;
    case N_OR: mine = P_OR; break;
    case N_NOT:
        open_paren(E, P_UNARY, prec);
        buf_puts(E->out, "!");
        emit_cond(E, n->lhs, P_UNARY);
        close_paren(E, P_UNARY, prec);
        return;
    default:
        open_paren(E, P_EQ, prec);
        emit_value(E, n, P_EQ + 1);
        buf_printf(E->out, " != %s", c_literal(0.0, E->single));
        close_paren(E, P_EQ, prec);
        return;
    }
    open_paren(E, mine, prec);
    if (mine == P_AND || mine == P_OR) {
        /* && inside || in parentheses all the same: the output stays clean
         * under -Wall (-Wparentheses) */
        bool is_or = mine == P_OR;
        emit_cond(E, n->lhs, is_or && n->lhs->kind == N_AND ? P_AND + 1 : mine);
        buf_puts(E->out, binary_op(n->kind));
        emit_cond(E, n->rhs, is_or && n->rhs->kind == N_AND ? P_AND + 1 : mine + 1);
    } else {
        emit_value(E, n->lhs, mine);
        buf_puts(E->out, binary_op(n->kind));
        emit_value(E, n->rhs, mine + 1);
    }
    close_paren(E, mine, prec);
}
