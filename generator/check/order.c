/* order.c — functions, derived parameters and temporaries sorted
 * by dependency, so that each is computed after what it reads (a cycle is an
 * error naming its path); and expressions nested too deeply for the
 * recursive passes after this one. */
#include <string.h>

#include "base/arena.h"
#include "check/checker.h"
#include "front/diag.h"

/* The symbols of `kind` an expression reads, in the order of a depth-first
 * walk, repeats included (the walk is as deep as the expression, which the
 * parser bounds). */
static void deps_of_at(const Node *n, SymKind kind, Symbol ***deps, int *ndeps, int calls)
{
    if (!n) return;
    if ((n->kind == N_NAME || n->kind == N_CALL) && n->sym && n->sym->kind == kind) PUSH(*deps, *ndeps, n->sym);
    if (n->kind == N_ELEM && n->sym && n->sym->kind == kind && n->sym->array)   /* an array's element: the array */
        PUSH(*deps, *ndeps, n->sym->array->sym);
    if (kind == SYM_TEMP && n->kind == N_CALL && n->sym && n->sym->kind == SYM_SPECIAL)   /* (ordered among them) */
        PUSH(*deps, *ndeps, n->sym);
    /* a derived parameter or a temporary that calls a function needs what the function reads */
    if ((kind == SYM_DERIVED || kind == SYM_TEMP) && n->kind == N_CALL && n->sym && n->sym->kind == SYM_FUNC && calls < 64)
        deps_of_at(n->sym->expr, kind, deps, ndeps, calls + 1);
    deps_of_at(n->lhs, kind, deps, ndeps, calls);
    deps_of_at(n->rhs, kind, deps, ndeps, calls);
    deps_of_at(n->cond, kind, deps, ndeps, calls);
    for (const Node *a = n->args; a; a = a->next) deps_of_at(a, kind, deps, ndeps, calls);
}

static void deps_of(const Node *n, SymKind kind, Symbol ***deps, int *ndeps)
{
    deps_of_at(n, kind, deps, ndeps, 0);
}

/* One symbol on the depth-first path, and where it is in its dependencies. */
typedef struct Frame {
    Symbol *s;
    Symbol **deps;
    int ndeps, next;
} Frame;

static Frame frame_for(Symbol *s, SymKind kind)
{
    Frame f = {s, NULL, 0, 0};
    deps_of(s->expr, kind, &f.deps, &f.ndeps);
    return f;
}

/* A cycle through s, the path being stack[0..top]: named from s around to s. */
static void cycle_error(const Frame *stack, int top, const Symbol *s)
{
    int start = top;
    while (start > 0 && stack[start].s != s) start--;
    const char *path = "";
    for (int i = start; i <= top; i++) {
        if (strlen(path) > 400) {
            path = arena_printf("%s… → ", path);
            break;
        }
        path = arena_printf("%s%s → ", path, stack[i].s->name);
    }
    error_at(s->loc, "'%s' depends on itself: %s%s", s->name, path, s->name);
}

/* The functions of a cycle of calls through s, the path being stack[0..top]. */
static void mark_recursive(const Frame *stack, int top, Symbol *s)
{
    int start = top;
    while (start > 0 && stack[start].s != s) start--;
    for (int i = start; i <= top; i++) stack[i].s->recursive = true;
}

/* Sorts syms (all the symbols of `kind`) so that each comes after those it
 * uses; a cycle is an error (and the order is left as it was); a cycle of
 * functions marks them recursive (check_recursion decides).  Depth-first,
 * with an explicit stack: a chain of thousands of definitions is no deeper
 * for the C stack than one. */
void topo_sort(Checker *c, Symbol **syms, int n, SymKind kind)
{
    (void)c;
    if (!n) return;
    Symbol **out = arena_alloc(sizeof(Symbol *) * (size_t)n);
    Frame *stack = arena_alloc(sizeof(Frame) * (size_t)(n + 1));
    int nout = 0;
    for (int i = 0; i < n; i++) {
        if (syms[i]->visiting) continue;
        int top = 0;
        syms[i]->visiting = 1;
        stack[0] = frame_for(syms[i], kind);
        while (top >= 0) {
            Frame *f = &stack[top];
            if (f->next < f->ndeps) {
                Symbol *d = f->deps[f->next++];
                if (d->visiting == 2) continue;
                if (d->visiting == 1) {
                    if (kind == SYM_FUNC)   /* a recursive function: an error where it is called (check_recursion) */
                        mark_recursive(stack, top, d);
                    else
                        cycle_error(stack, top, d);
                    d->visiting = kind == SYM_FUNC ? 1 : 2;   /* (a function: sorted as if the call were not there) */
                    continue;
                }
                if (top + 1 > n) continue;   /* not one of syms: cannot happen */
                d->visiting = 1;
                stack[++top] = frame_for(d, kind);
                continue;
            }
            if (f->s->visiting == 1) {
                f->s->visiting = 2;
                f->s->order = nout;
                out[nout++] = f->s;
            }
            top--;
        }
    }
    if (nout == n) memcpy(syms, out, sizeof(Symbol *) * (size_t)n);
}

/* A recursive function (XPPAUT's fact(x)=if(x<=0)then(1)else(x*fact(x-1)),
 * which its stack machine evaluates when called): an error where something
 * calls it, as odegen writes each function into the expressions that call
 * it.  One that nothing calls is never evaluated (XPPAUT's test.ode): it is
 * left out, with the functions only such ones call, and a note says so. */
void check_recursion(Checker *c)
{
    Model *m = c->m;
    bool any = false;
    for (int i = 0; i < m->nfunc; i++) any |= m->funcs[i]->recursive;
    if (!any) return;
    for (bool more = true; more;) {   /* called: from outside the bodies, or by a called function */
        more = false;
        for (int i = 0; i < m->nfunc; i++) {
            Symbol *f = m->funcs[i];
            if (!f->called) continue;
            Symbol **deps = NULL;
            int ndeps = 0;
            deps_of(f->expr, SYM_FUNC, &deps, &ndeps);
            for (int k = 0; k < ndeps; k++)
                if (!deps[k]->called) deps[k]->called = more = true;
        }
    }
    bool unused = false;
    for (int i = 0; i < m->nfunc; i++) {
        Symbol *f = m->funcs[i];
        if (f->recursive && f->called)
            error_at(f->loc, "'%s' calls itself; XPPAUT evaluates a recursive function when it is called, odegen "
                             "writes each function into the expressions that call it, so it cannot: write it without "
                             "recursion (a product, a sum(…)of(…), a table)", f->name);
        else if (f->recursive) {
            note_at(f->loc, "'%s' calls itself, and nothing calls it: it is never evaluated, and odegen leaves it out "
                            "(XPPAUT evaluates a recursive function when it is called; odegen could not)", f->name);
            unused = true;
        }
    }
    int kept = 0;   /* (with an unused recursive one, every function nothing calls is left out: one may call it) */
    for (int i = 0; i < m->nfunc; i++)
        if (m->funcs[i]->called || !unused) m->funcs[kept++] = m->funcs[i];
    m->nfunc = kept;
}

/* How deep the emitter's walks go (emit/emit_body.c refs_expr, deriv/time_trig.c): they
 * follow each temporary an expression reads into its definition.  `depth`
 * holds, by declaration index, that depth for the temporaries done so far. */
static int walk_depth(const Node *n, int here, const int *depth)
{
    int best = here;
    if (n->kind == N_NAME && n->sym && n->sym->kind == SYM_TEMP) best = here + depth[n->sym->index];
    const Node *one[] = {n->lhs, n->rhs, n->cond};
    for (int i = 0; i < 3; i++)
        if (one[i]) {
            int d = walk_depth(one[i], here + 1, depth);
            if (d > best) best = d;
        }
    for (const Node *a = n->args; a; a = a->next) {
        int d = walk_depth(a, here + 1, depth);
        if (d > best) best = d;
    }
    return best;
}

enum { MAX_NESTING = 5000 };   /* as parser.y's MAX_DEPTH for one statement */

/* Temporaries defined through a chain of temporaries nested deeper than
 * MAX_NESTING are refused: no pass may run out of stack.  After topo_sort. */
void check_nesting(Checker *c)
{
    Model *m = c->m;
    int *depth = arena_alloc(sizeof(int) * (size_t)(m->ntemp + 1));
    Symbol *const *lists[] = {m->temps, m->aux};
    int counts[] = {m->ntemp, m->naux};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < counts[k]; i++) {
            Symbol *s = lists[k][i];
            int d = s->expr ? walk_depth(s->expr, 1, depth) : 0;
            if (s->kind == SYM_TEMP) depth[s->index] = d;
            if (d > MAX_NESTING) {
                error_at(s->loc, "'%s' is defined through temporaries nested more than %d levels deep",
                         s->name, MAX_NESTING);
                return;
            }
        }
}

/* A temporary that reads one declared after it: XPPAUT computes its
 * temporaries in the file's order, so it reads that one's value from the
 * previous evaluation of the right-hand side (0 at the first); odegen
 * computes them in dependency order (the current value), and says so once a
 * temporary.  After topo_sort. */
enum { MAX_FORWARD_NOTES = 3 };   /* then one line counts the rest */

void note_forward_temps(Checker *c)
{
    Model *m = c->m;
    int noted = 0, more = 0;
    Loc last = {0};
    for (int i = 0; i < m->ntemp; i++) {
        Symbol *s = m->temps[i], **deps = NULL;
        int ndeps = 0;
        deps_of(s->expr, SYM_TEMP, &deps, &ndeps);
        for (int k = 0; k < ndeps; k++)
            if (deps[k]->line > s->line) {
                if (noted == MAX_FORWARD_NOTES) {
                    more++;
                    last = s->loc;
                    break;
                }
                noted++;
                note_at(s->loc, "'%s' reads the temporary '%s' of line %d, declared after it: XPPAUT reads its value "
                                "from the previous evaluation (0 at the start), odegen the current one",
                        s->name, deps[k]->name, deps[k]->line);
                break;
            }
    }
    if (more)
        note_at(last, "%d more temporar%s one declared after it, with the same difference", more,
                more == 1 ? "y reads" : "ies each read");
}
