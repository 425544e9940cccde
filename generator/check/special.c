/* special.c — XPPAUT's network operators: `special f=conv(…)`, sparse,
 * mmult, fconv, fsparse, fmmult, fftcon, as XPPAUT's simplenet.c defines
 * them (add_spec_fun reads them, evaluate_network computes them; measured
 * against XPPAUT 6.11 where it computes them: tests/arrays/).
 *
 * A special is n values f(0) … f(n-1), computed from an array of the model
 * (its "root": the first element's name, the others following it in the
 * order XPPAUT numbers its variables) and weights from tables, every time the
 * right-hand side is; `f(expr)` reads value (int)expr, 0 outside 0 … n-1.
 * odegen keeps the values in the scratch of the model's loop form (a model
 * with a special keeps its arrays as arrays: front/expand.c) and computes
 * them after the temporaries they read (XPPAUT computes every special after
 * every temporary: a temporary that reads one sees XPPAUT's previous value).
 *
 *   conv(type, n, ncon, w, root)     value[i] = Σ_{k=-ncon..ncon} w[k+ncon] root[b(i+k)]
 *                                    b: even (|i+k| reflected at 0 and at n-1,
 *                                    beyond 2n-1 nothing), zero (outside 0…n-1
 *                                    nothing), periodic ((2n+i+k) mod n)
 *   sparse(n, ncon, w, index, root)  value[i] = Σ_{k<ncon} w[i ncon+k] root[index[i ncon+k]]
 *                                    (a negative index: nothing)
 *   mmult(n, m, w, root)             value[j] = Σ_{i<n} w[j n+i] root[i], j < m
 *   fconv(type, n, ncon, w, r1, r2, f)     as conv, of f(r2[b(i+k)], r1[i])
 *   fsparse(n, ncon, w, index, r1, r2, f)  as sparse, of f(r2[index…], r1[i])
 *   fmmult(n, m, w, r1, r2, f)       value[j] = Σ_{i<n} w[j n+i] f(r2[i], r1[j])
 *   fftcon(type, n, w, root)         a convolution XPPAUT computes by FFT:
 *                                    periodic, value[i] = Σ_m K[m] root[(i-m) mod n]
 *                                    with K XPPAUT's reordering of w (K[m] =
 *                                    w[m + n/2] for m ≤ n/2, w[m - n/2 - 1]
 *                                    above); zero (type 0), value[i] =
 *                                    Σ_{k<n} w[n+i-k] root[k]
 * (the f-variants call f with the neighbour first: simplenet.c sets the
 * second argument's variable to root1 + i and the first's to root2 + k.
 * XPPAUT 6.11 computes 0 for every f-variant: README, "Large and coupled
 * models".)  The type is read as XPPAUT reads it, by its first letter: E
 * even, 0 or Z zero, P periodic.  odegen refuses what XPPAUT would read
 * beyond a table or an array (XPPAUT reads whatever memory follows).
 */
#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/util.h"
#include "check/checker.h"
#include "front/diag.h"

static const struct {
    const char *prefix;     /* XPPAUT's is_network: the first letters, in its order */
    int kind;               /* SpecialKind, or -1: an operator odegen does not have */
    int nargs;
    const char *form, *why;
} operators[] = {
    {"conv", SPECIAL_CONV, 5, "conv(type, n, ncon, w, root)", NULL},
    {"spar", SPECIAL_SPARSE, 5, "sparse(n, ncon, w, index, root)", NULL},
    {"fconv", SPECIAL_FCONV, 7, "fconv(type, n, ncon, w, root1, root2, f)", NULL},
    {"fspar", SPECIAL_FSPARSE, 7, "fsparse(n, ncon, w, index, root1, root2, f)", NULL},
    {"fftc", SPECIAL_FFTCON, 4, "fftcon(type, n, w, root)", NULL},
    {"mmul", SPECIAL_MMULT, 4, "mmult(n, m, w, root)", NULL},
    {"fmmul", SPECIAL_FMMULT, 6, "fmmult(n, m, w, root1, root2, f)", NULL},
    {"gill", -1, 0, NULL, "Gillespie's algorithm (gill) is stochastic and not available: the noise odegen "
                          "integrates is Wiener processes, ran, normal and markov chains (docs/noise.md), not exact "
                          "reaction times"},
    {"inter", -1, 0, NULL, "interp is not available: write the interpolation as an expression of the array"},
    {"finde", -1, 0, NULL, "findext is not available: keep the extremum in an accessory (on step { … })"},
    {"delm", -1, 0, NULL, "delmmult needs delays, which odegen does not have (a chain of ODEs approximates one)"},
    {"dels", -1, 0, NULL, "delsparse needs delays, which odegen does not have (a chain of ODEs approximates one)"},
    {"impo", -1, 0, NULL, "import runs a shared library's code, which odegen never does: write the right-hand side "
                          "in the .ode file"},
};

/* A whole number argument (n, ncon, m): a number or a `number` (XPPAUT: atoi of the text). */
static bool whole_arg(Checker *c, Node *a, const char *what, long min, long *out)
{
    double v;
    if (!const_value(c, a, what, &v)) return false;
    if (!is_integer(v) || v < (double)min || v > 100000000.0) {
        error_at(a->loc, "%s must be a whole number of at least %ld, not %g", what, min, v);
        return false;
    }
    *out = (long)v;
    return true;
}

static bool boundary_arg(const Node *a, SpecialBoundary *b, bool fft)
{
    const char *text = a->kind == N_NUM ? a->text : a->kind == N_NAME ? a->name : NULL;
    char first = text ? (char)toupper((unsigned char)text[0]) : '?';
    if (first == 'E' && !fft) *b = BOUNDARY_EVEN;
    else if (first == '0' || first == 'Z') *b = BOUNDARY_ZERO;
    else if (first == 'P') *b = BOUNDARY_PERIODIC;
    else {
        error_at(a->loc, "%s's type is %s (XPPAUT reads its first letter)",
                 fft ? "fftcon" : "a convolution", fft ? "0 (zero) or periodic" : "even, 0 (zero) or periodic");
        return false;
    }
    return true;
}

static const Table *table_arg(Checker *c, const Node *a, const char *what)
{
    Symbol *s = a->kind == N_NAME ? symtab_get(&c->tab, a->name) : NULL;
    if (!s || s->kind != SYM_TABLE) {
        error_at(a->loc, "%s must be a table's name (table NAME … or tabular NAME …)%s", what,
                 s ? arena_printf("; '%s' is %s", a->name, kind_phrase(s->kind)) : "");
        return NULL;
    }
    return &c->m->tables[s->table];
}

/* The root: an element of the states or of an array of temporaries, and how
 * many elements follow it in that storage (itself included). */
static Symbol *root_arg(Checker *c, const Node *a, long *base, long *avail)
{
    Symbol *s = a->kind == N_NAME ? symtab_get(&c->tab, a->name) : NULL;
    if (s && s->kind == SYM_STATE) {
        *base = s->index;
        *avail = c->m->nstate - s->index;
        return s;
    }
    if (s && s->kind == SYM_TEMP && s->array && !s->is_array) {
        const Array *arr = s->array;
        long block_end = arr->base - arr->line->pos + arr->n * arr->stride;   /* its block's scratch */
        *base = s->index;
        *avail = block_end - s->index;
        return s;
    }
    error_at(a->loc, "a special reads an array from its first element: a state or an element of an array of "
                     "temporaries%s", s ? arena_printf(" ('%s' is %s)", a->name, kind_phrase(s->kind))
                                        : arena_printf(" ('%s' is not declared)", a->kind == N_NAME ? a->name : "?"));
    return NULL;
}

static bool root_long_enough(const Node *a, const Symbol *root, long avail, long need, const char *what)
{
    if (need <= avail) return true;
    error_at(a->loc, "%s reads %ld elements from '%s', which has %ld after it (itself included) among the %s: "
                     "XPPAUT would read past them", what, need, root->name, avail,
             root->kind == SYM_STATE ? "states" : "elements of its array");
    return false;
}

static bool table_long_enough(const Node *a, const Table *t, long need, const char *what)
{
    if (!t || (long)t->n >= need) return t != NULL;
    if (t->n == 0) return false;   /* (the table itself was refused: said there) */
    error_at(a->loc, "%s reads %ld values of table '%s', which has %d (XPPAUT would read past its end)", what, need,
             t->sym->name, t->n);
    return false;
}

/* The value a special's expression stands on for the checks that order the
 * temporaries: its roots (an array of temporaries is computed before it). */
static Node *root_read(const Special *sp, Symbol *root, long base, const Node *at)
{
    Node *r = ast_new(N_ELEM, at->loc);
    r->sym = root;
    r->ix_base = base;
    (void)sp;
    return r;
}

static void check_one(Checker *c, Symbol *sym)
{
    Model *m = c->m;
    Node *call = sym->expr;
    sym->expr = NULL;   /* (until it is checked: what it reads, below) */
    if (!call || call->kind != N_CALL) {
        error_at(call ? call->loc : sym->loc, "special %s=OPERATOR(…): conv, sparse, mmult, fconv, fsparse, fmmult "
                                              "or fftcon", sym->name);
        return;
    }
    int op = -1;
    for (size_t i = 0; i < sizeof operators / sizeof *operators; i++)
        if (!strncasecmp(call->name, operators[i].prefix, strlen(operators[i].prefix))) {
            op = (int)i;
            break;
        }
    if (op < 0) {
        error_at(call->name_loc, "'%s' is no special operator of XPPAUT's: conv, sparse, mmult, fconv, fsparse, "
                                 "fmmult, fftcon", call->name);
        return;
    }
    if (operators[op].kind < 0) {
        error_at(call->name_loc, "%s", operators[op].why);
        return;
    }
    if (list_length(call->args) != operators[op].nargs) {
        error_at(call->loc, "%s takes %d arguments: %s", call->name, operators[op].nargs, operators[op].form);
        return;
    }
    Node *arg[8];
    int k = 0;
    for (Node *a = call->args; a && k < 8; a = a->next) arg[k++] = a;
    Special sp;
    memset(&sp, 0, sizeof sp);
    sp.sym = sym;
    sp.kind = (SpecialKind)operators[op].kind;
    sp.line = sym->line;
    sp.loc = call->loc;
    long avail = 0, avail2 = 0;
    bool ok = true;
    const char *what = operators[op].form;
    switch (sp.kind) {
    case SPECIAL_CONV:
    case SPECIAL_FCONV:
        ok = boundary_arg(arg[0], &sp.boundary, false) && whole_arg(c, arg[1], "n", 1, &sp.n) &&
             whole_arg(c, arg[2], "ncon", 1, &sp.ncon) && (sp.w = table_arg(c, arg[3], "the weights")) &&
             (sp.root = root_arg(c, arg[4], &sp.root_base, &avail));
        ok = ok && table_long_enough(arg[3], sp.w, 2 * sp.ncon + 1, what) &&
             root_long_enough(arg[4], sp.root, avail, sp.n, what);
        if (ok && sp.kind == SPECIAL_FCONV)
            ok = (sp.root2 = root_arg(c, arg[5], &sp.root2_base, &avail2)) &&
                 root_long_enough(arg[5], sp.root2, avail2, sp.n, what);
        if (ok && sp.boundary == BOUNDARY_PERIODIC && sp.ncon > 2 * sp.n) {
            error_at(arg[2]->loc, "a periodic convolution of %ld values reaches at most 2n = %ld places away, not "
                                  "%ld (XPPAUT would read before its array)", sp.n, 2 * sp.n, sp.ncon);
            ok = false;
        }
        break;
    case SPECIAL_SPARSE:
    case SPECIAL_FSPARSE:
        ok = whole_arg(c, arg[0], "n", 1, &sp.n) && whole_arg(c, arg[1], "ncon", 1, &sp.ncon) &&
             (sp.w = table_arg(c, arg[2], "the weights")) && (sp.index = table_arg(c, arg[3], "the indices")) &&
             (sp.root = root_arg(c, arg[4], &sp.root_base, &avail));
        ok = ok && table_long_enough(arg[2], sp.w, sp.n * sp.ncon, what) &&
             table_long_enough(arg[3], sp.index, sp.n * sp.ncon, what);
        if (ok && sp.kind == SPECIAL_FSPARSE)
            ok = (sp.root2 = root_arg(c, arg[5], &sp.root2_base, &avail2)) &&
                 root_long_enough(arg[4], sp.root, avail, sp.n, what);
        if (ok) {   /* every index must name an element that follows the root */
            const Symbol *from = sp.kind == SPECIAL_FSPARSE ? sp.root2 : sp.root;
            long have = sp.kind == SPECIAL_FSPARSE ? avail2 : avail;
            for (long e = 0; e < sp.n * sp.ncon && ok; e++) {
                double v = sp.index->y[e];
                if (v >= 0 && (double)(long)v >= (double)have) {
                    error_at(arg[3]->loc, "table '%s' holds the index %g (value %ld), beyond the %ld elements from "
                                          "'%s' (XPPAUT would read past them)", sp.index->sym->name, v, e, have,
                             from->name);
                    ok = false;
                }
            }
        }
        break;
    case SPECIAL_MMULT:
    case SPECIAL_FMMULT:
        /* mmult(n, m, …): n the root's length, m the values it gives */
        ok = whole_arg(c, arg[0], "n", 1, &sp.ncon) && whole_arg(c, arg[1], "m", 1, &sp.n) &&
             (sp.w = table_arg(c, arg[2], "the weights")) && (sp.root = root_arg(c, arg[3], &sp.root_base, &avail));
        ok = ok && table_long_enough(arg[2], sp.w, sp.n * sp.ncon, what);
        if (ok && sp.kind == SPECIAL_MMULT) ok = root_long_enough(arg[3], sp.root, avail, sp.ncon, what);
        if (ok && sp.kind == SPECIAL_FMMULT)
            ok = root_long_enough(arg[3], sp.root, avail, sp.n, what) &&
                 (sp.root2 = root_arg(c, arg[4], &sp.root2_base, &avail2)) &&
                 root_long_enough(arg[4], sp.root2, avail2, sp.ncon, what);
        break;
    case SPECIAL_FFTCON:
        ok = boundary_arg(arg[0], &sp.boundary, true) && whole_arg(c, arg[1], "n", 1, &sp.n) &&
             (sp.w = table_arg(c, arg[2], "the weights")) && (sp.root = root_arg(c, arg[3], &sp.root_base, &avail));
        /* periodic: XPPAUT's reordering reads w[0 … n-1], and w[n] when n is even; zero: w[1 … 2n-1] */
        ok = ok && table_long_enough(arg[2], sp.w, sp.boundary == BOUNDARY_PERIODIC ? sp.n + (sp.n % 2 == 0) : 2 * sp.n,
                                     what) &&
             root_long_enough(arg[3], sp.root, avail, sp.n, what);
        break;
    }
    if (ok && (sp.kind == SPECIAL_FCONV || sp.kind == SPECIAL_FSPARSE || sp.kind == SPECIAL_FMMULT)) {
        Node *f = arg[operators[op].nargs - 1];
        Symbol *fs = f->kind == N_NAME ? symtab_get(&c->tab, f->name) : NULL;
        if (!fs || fs->kind != SYM_FUNC || fs->nargs != 2) {
            error_at(f->loc, "%s's last argument is a function of two arguments, f(x,y)=…", call->name);
            ok = false;
        } else {
            sp.fn = fs;
        }
    }
    if (!ok) {
        sym->expr = NULL;
        return;
    }
    sp.scratch = m->nscratch;
    m->nscratch += sp.n;
    sym->special = m->nspecial;
    /* what it reads, for the order of the temporaries (order.c) and the emitter's */
    Node *reads = root_read(&sp, sp.root, sp.root_base, call);
    if (sp.root2) reads = ast_binary(N_ADD, call->loc, reads, root_read(&sp, sp.root2, sp.root2_base, call));
    sym->expr = reads;
    PUSH(m->specials, m->nspecial, sp);
}

void check_specials(Checker *c)
{
    Model *m = c->m;
    int n = m->ntemp;
    for (int i = 0; i < n; i++)
        if (m->temps[i]->kind == SYM_SPECIAL) check_one(c, m->temps[i]);
}
