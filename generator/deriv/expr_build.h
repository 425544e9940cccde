/* expr_build.h — from the checked model's syntax trees to expression graphs.
 *
 * Temporaries and user functions are inlined (a function called twice with
 * the same arguments is one node).  Blocks of statements (event blocks,
 * `on start`, `on end`) are executed symbolically: each assignment replaces the
 * current value of what it assigns, an if-statement merges the values of its
 * two branches with a select on its condition, so that after the block every
 * state's value is one expression of the values before it — the map whose
 * Jacobian the saltation matrix needs.
 *
 * A construct the graph cannot represent (a call of something that is neither
 * a built-in nor a user function, a syntax-tree kind unknown here) is never
 * read as 0: the builder records the first one with its place, and whoever
 * needs a derivative reports it (expr_build_failed).
 */
#ifndef ODEGEN_EXPR_BUILD_H
#define ODEGEN_EXPR_BUILD_H

#include "check/model.h"
#include "deriv/expr_graph.h"
#include "deriv/time_trig.h"

typedef struct FuncMemo FuncMemo;

typedef struct XBuilder {
    XGraph *g;
    const Model *m;
    const TimeTrig *trig;    /* right-hand side: sin/cos of time are OdeTrig slots; else NULL */
    int event;               /* the event whose block runs (for `count`), or -1 */
    bool no_wiener;          /* every Wiener process is 0: the drift of an SDE (deriv/noise.c) */

    /* the current values of what blocks may assign (a parameter too: a
       global may set one), and their version */
    XNode **y, **acc, **p, *win[2];
    int version;
    bool pristine;                   /* every value is still its own (labels only then) */
    XNode **temp_val, **aux_val;     /* memo of temporaries and aux … */
    int *temp_ver, *aux_ver;         /* … valid for this version */

    /* arguments of the user functions being inlined (innermost last) */
    const Symbol **arg_sym;
    XNode **arg_val;
    int nargs, capargs;
    FuncMemo **calls;                /* inlined calls by hash … */
    unsigned ncallbuckets, ncalls;   /* … grown to keep chains short */

    int depth;
    /* the first construct that cannot be built */
    bool failed;
    Loc fail_loc;
    const char *fail_msg;
} XBuilder;

/* A builder over graph g; trig: the right-hand side's sin/cos of time
 * (find_time_trig has run; NULL: none are special). */
void xb_init(XBuilder *b, XGraph *g, const Model *m, const TimeTrig *trig);
/* Every state, accessory, t0 and t1 back to its own value (a block's entry). */
void xb_reset_values(XBuilder *b);
/* The expression as a graph, at the current values. */
XNode *xb_expr(XBuilder *b, const Node *n);
/* Runs the statements symbolically: changes the current values. */
void xb_block(XBuilder *b, const Node *stmts);

#endif
