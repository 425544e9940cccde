/* expr_cse.c — naming shared nodes, and the cost of evaluating them. */
#include "deriv/expr_cse.h"

#include <string.h>

#include "base/arena.h"

/* The longest chain of unnamed operations written as one C expression. */
enum { MAX_INLINE_HEIGHT = 64 };
/* The printer names shared nodes at least this large (smaller ones read better inline). */
enum { PRINT_SHARED_SIZE = 8 };

int xnode_children(const XNode *n, XNode *out[3])
{
    int k = 0;
    if (n->a) out[k++] = n->a;
    if (n->b) out[k++] = n->b;
    if (n->c) out[k++] = n->c;
    return k;
}

typedef struct Frame {
    XNode *n;
    int next;   /* the next child to visit */
} Frame;

typedef struct Stack {
    Frame *f;
    int n, cap;
} Stack;

static void push(Stack *s, XNode *n)
{
    s->f = arena_grow(s->f, s->n, &s->cap, sizeof *s->f);
    s->f[s->n].n = n;
    s->f[s->n++].next = 0;
}

/* One more read of n; the first one puts it on the walk's stack. */
static void reach(XCse *c, Stack *st, XNode *n)
{
    c->uses[n->id]++;
    if (c->reached[n->id]) return;
    c->reached[n->id] = true;
    c->reached_list[c->nreached++] = n;
    push(st, n);
}

/* Pass 1: every node reached from the outputs, and how often each is read. */
static void count_uses(XCse *c, XNode *const *outs, int nouts, Stack *st)
{
    for (int i = 0; i < nouts; i++) {
        reach(c, st, outs[i]);
        while (st->n) {
            XNode *n = st->f[--st->n].n, *kids[3];
            int k = xnode_children(n, kids);
            for (int j = 0; j < k; j++) reach(c, st, kids[j]);
        }
    }
}

static bool wants_name(const XCse *c, const XNode *n, unsigned mode, int height, int size)
{
    if (xg_is_leaf(n)) return false;
    if (height > MAX_INLINE_HEIGHT) return true;
    if ((mode & CSE_LABELS) && n->label) return true;
    if (c->uses[n->id] < 2) return false;
    return (mode & CSE_SHARED) || size >= PRINT_SHARED_SIZE;
}

/* Pass 2: post-order from each output: names given children first. */
static void order_names(XCse *c, XNode *const *outs, int nouts, unsigned mode, Stack *st)
{
    int *height = arena_alloc(sizeof(int) * (size_t)c->g->nnodes);
    int *size = arena_alloc(sizeof(int) * (size_t)c->g->nnodes);
    bool *done = arena_alloc(sizeof(bool) * (size_t)c->g->nnodes);
    for (int i = 0; i < nouts; i++) {
        c->first[i] = c->norder;
        if (done[outs[i]->id]) continue;
        push(st, outs[i]);
        while (st->n) {
            Frame *f = &st->f[st->n - 1];
            XNode *kids[3];
            int k = xnode_children(f->n, kids);
            if (f->next < k) {
                XNode *kid = kids[f->next++];
                if (!done[kid->id]) push(st, kid);
                continue;
            }
            XNode *n = f->n;
            st->n--;
            if (done[n->id]) continue;
            done[n->id] = true;
            int h = 0, s = 1;
            for (int j = 0; j < k; j++) {
                if (c->name[kids[j]->id]) continue;
                if (height[kids[j]->id] + 1 > h) h = height[kids[j]->id] + 1;
                s += size[kids[j]->id];
            }
            if (s > 1000000) s = 1000000;
            if (wants_name(c, n, mode, h, s)) {
                c->order[c->norder++] = n;
                c->name[n->id] = c->norder;
                h = 0, s = 1;
            }
            height[n->id] = h;
            size[n->id] = s;
        }
    }
    c->first[nouts] = c->norder;
}

void cse_run(XCse *c, XGraph *g, XNode *const *outs, int nouts, unsigned mode)
{
    memset(c, 0, sizeof *c);
    c->g = g;
    size_t nn = (size_t)(g->nnodes > 0 ? g->nnodes : 1);
    c->uses = arena_alloc(sizeof(int) * nn);
    c->name = arena_alloc(sizeof(int) * nn);
    c->reached = arena_alloc(sizeof(bool) * nn);
    c->reached_list = arena_alloc(sizeof(XNode *) * nn);
    c->order = arena_alloc(sizeof(XNode *) * nn);
    c->first = arena_alloc(sizeof(int) * (size_t)(nouts + 1));
    Stack st = {0};
    count_uses(c, outs, nouts, &st);
    order_names(c, outs, nouts, mode, &st);
}

/* Multiplications of x^k by repeated squaring (ode_powK), and a division for k < 0. */
static int powi_ops(int k)
{
    int a = k < 0 ? -k : k, ops = 0;
    for (int bit = 30; bit >= 0; bit--)
        if (a >> bit) {
            ops = bit;   /* squarings */
            break;
        }
    for (int rest = a; rest; rest &= rest - 1) ops++;   /* one multiplication per set bit … */
    return ops - 1 + (k < 0);                           /* … but the first */
}

XCost cse_cost(const XCse *c)
{
    XCost cost = {0, 0};
    for (int i = 0; i < c->nreached; i++) {
        const XNode *n = c->reached_list[i];
        switch (n->op) {
        case X_CONST: case X_VAR: break;
        case X_POWI: cost.arith += powi_ops(n->k); break;
        case X_POW: case X_SIN: case X_COS: case X_TAN: case X_ASIN: case X_ACOS: case X_ATAN:
        case X_SINH: case X_COSH: case X_TANH: case X_EXP: case X_LOG: case X_LOG10: case X_SQRT:
        case X_ERF: case X_ERFC: case X_ATAN2: case X_MOD: case X_TABLE: case X_TABLE_SLOPE: case X_DELAY:
        case X_DELAY_SLOPE:
            cost.calls++;
            break;
        default: cost.arith++; break;
        }
    }
    return cost;
}
