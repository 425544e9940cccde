/* deriv.h — symbolic differentiation on the expression graph.
 *
 * Forward mode, one variable at a time: d(n)/d(v) is built from the
 * derivatives of n's operands, memoised per node, with the graph's
 * simplifying constructors, so that the derivative shares every node it can
 * with the expression itself (cos(y4) in f and in its derivative is one node).
 *
 * Piecewise constructs are differentiated branch by branch; at the points
 * where they switch, the conventions are (README, "Derivatives"):
 *   if(c)then(a)else(b)  d(a) where c holds, d(b) elsewhere (also at the switch)
 *   abs(x)               sign(x)*dx: 0 at x = 0
 *   max(a,b), min(a,b)   d(a) where a >= b (max) or a <= b (min), else d(b):
 *                        the first argument's at a tie
 *   heav, sign, flr, ceil, comparisons, logic
 *                        0 (their jumps are not in the derivative)
 *   mod(a,b)             da + ((mod(a,b) - a)/b) db between its jumps
 *   a table f(a)         the slope of the segment a lies on times da (at a
 *                        tabulated point, the segment it starts); a step
 *                        table's 0; the slope's own derivative 0 (linear) or
 *                        an error (a cubic table: second derivatives)
 * Each such construct whose argument depends on the variable is recorded
 * (xd_pieces), so that users can be told where the Jacobian switches.
 */
#ifndef ODEGEN_DERIV_H
#define ODEGEN_DERIV_H

#include "deriv/expr_graph.h"

typedef struct XPiece {
    XNode *node;        /* the piecewise construct */
    XVar *var;          /* a variable its switch depends on */
} XPiece;

typedef struct XDeriv {
    XGraph *g;
    XVar *v;            /* with respect to */
    const char *vname;  /* its name, for labels "d(T)/d(v)" */
    XNode **memo;       /* by node id, valid where stamp == gen */
    int *stamp;
    signed char *dep;   /* depends on v: 1, does not: 0 (valid where dep_stamp == gen) */
    int *dep_stamp;
    int cap, gen;
    XPiece *pieces;
    int npieces, cappieces;
    long long visits, max_visits;   /* work budget */
    int depth;
    bool failed;        /* too deep or over budget: the results are not to be used */
    const char *fail_msg;
    Loc fail_loc;       /* where it happened */
} XDeriv;

void xd_init(XDeriv *d, XGraph *g, long long max_visits);
/* Differentiate with respect to v from now on (name: for labels). */
void xd_wrt(XDeriv *d, XVar *v, const char *name);
/* d(n)/d(v). */
XNode *xd(XDeriv *d, XNode *n);

/* The piecewise kind of an operation: 0 none, 1 a kink (continuous: abs,
 * max, min), 2 a jump (heav, sign, flr, ceil, mod, comparisons, logic),
 * 3 a select (if: continuous or not, depending on its branches). */
int xop_piecewise(XOp op);
/* The same of a node: a table lookup is a kink at every tabulated point (its
 * slope the segment's), a jump for a step table (`i` files); its slope jumps. */
int xnode_piecewise(const XNode *n);

#endif
