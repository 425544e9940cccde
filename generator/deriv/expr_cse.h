/* expr_cse.h — which nodes of a set of expressions get a name (SymPy's cse).
 *
 * Given the outputs of one generated function (or of one printed section),
 * a node is named — computed once into a local, then read by its name —
 * when it is used more than once, when it carries a label (a temporary of the
 * model or its derivative) and labels are wanted, or when the expression
 * under it would otherwise be written deeper than a fixed height (so that no
 * later recursion goes deep).  The named nodes come out in an order where
 * each follows what it reads, grouped by the first output that needs them.
 * Walks are iterative: expressions may be deep.
 */
#ifndef ODEGEN_EXPR_CSE_H
#define ODEGEN_EXPR_CSE_H

#include <stdbool.h>

#include "deriv/expr_graph.h"

typedef struct XCse {
    XGraph *g;
    int *uses;          /* by node id: references from the nodes reached */
    int *name;          /* by node id: 0 not named, else k (the k-th name, from 1) */
    XNode **order;      /* the named nodes, children first */
    int norder;
    int *first;         /* per output: named nodes it introduces are order[first[i] .. first[i+1]) */
    bool *reached;      /* by node id */
    XNode **reached_list;
    int nreached;
} XCse;

typedef enum { CSE_SHARED = 1, CSE_LABELS = 2 } XCseMode;

/* mode CSE_SHARED: every non-leaf node read twice or more is named (the
 * generated code); without it, only those of 8 nodes or more (the printer,
 * where small ones read better inline).  CSE_LABELS: labelled nodes are named
 * too (both). */
void cse_run(XCse *c, XGraph *g, XNode *const *outs, int nouts, unsigned mode);

/* Arithmetic operations and library calls of evaluating the reached nodes once. */
typedef struct XCost {
    long arith;         /* + - * /, negations, comparisons, selects, abs, min, max, … */
    long calls;         /* sin, exp, pow, sqrt, … */
} XCost;
XCost cse_cost(const XCse *c);

/* The children of n that a walk follows (trig arguments are not: their values
 * come from the OdeTrig). */
int xnode_children(const XNode *n, XNode *out[3]);

#endif
