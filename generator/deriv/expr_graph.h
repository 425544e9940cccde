/* expr_graph.h — expressions as a graph of shared, simplified nodes (CasADi's way).
 *
 * Every node is unique: building a node that exists already returns the
 * existing one (hash-consing), so a subexpression that appears twice — in the
 * right-hand side and again in its derivative — is one node, computed once by
 * the generated code.  The constructors simplify as they build (constants
 * folded, x*0, x*1, x+0, --x, integer powers), so that derivatives need no
 * clean-up pass afterwards.
 *
 * Simplifications keep the value of every expression bit for bit where IEEE
 * arithmetic allows it (a+b and b+a are the same number, so operands of + and
 * * are put in a canonical order; nothing is reassociated).  The exceptions are
 * the usual symbolic ones: 0*x is 0 and x-x is 0 even for an infinite x.
 *
 * Nodes live in the translator's arena; ids are given in creation order, so
 * the graph (and everything printed from it) is deterministic.
 */
#ifndef ODEGEN_EXPR_GRAPH_H
#define ODEGEN_EXPR_GRAPH_H

#include <stdbool.h>

#include "front/ast.h"
#include "check/model.h"

typedef enum XOp {
    X_CONST,            /* value */
    X_VAR,              /* var */
    X_NEG, X_ADD, X_SUB, X_MUL, X_DIV,
    X_POWI,             /* a^k, k an integer with 2 ≤ |k| ≤ 63 */
    X_POW,              /* a^b, b not such an integer */
    /* the built-in functions of one argument */
    X_SIN, X_COS, X_TAN, X_ASIN, X_ACOS, X_ATAN, X_SINH, X_COSH, X_TANH,
    X_EXP, X_LOG, X_LOG10, X_SQRT, X_ABS, X_HEAV, X_SIGN, X_FLR, X_CEIL, X_ERF, X_ERFC,
    /* … of two */
    X_ATAN2, X_MOD, X_MAX, X_MIN,
    /* truth values: 1 or 0 */
    X_LT, X_GT, X_LE, X_GE, X_EQ, X_NE, X_AND, X_OR, X_NOT,
    X_SELECT,           /* a ≠ 0 ? b : c  (if(a)then(b)else(c) and if-statements) */
    /* a table lookup f(a) and the slope of its interpolant at a (tab, k: the table) */
    X_TABLE, X_TABLE_SLOPE,
    /* delay(x, tau): x's past at t - tau, a known function of time (the
     * history), or x itself where tau <= 0 (a: tau, b: t, c: x now); and the
     * slope of that past at t - tau (a: tau, b: t).  k: the call's site,
     * value: the delayed state's number (templates/delay.h) */
    X_DELAY, X_DELAY_SLOPE,
    X_NOPS
} XOp;

/* What a variable node stands for. */
typedef enum XVarKind {
    XV_STATE,           /* index: the state */
    XV_PARAM,
    XV_DERIVED,         /* def: its expression of parameters (for d/dp) */
    XV_NUMBER,          /* a `number` (or pi): constant, kept by name for readability */
    XV_TIME,            /* t */
    XV_WINDOW,          /* t0 (index 0) or t1 (1) */
    XV_ACC,
    XV_COUNT,           /* `count` in the block of event index */
    XV_TRIG,            /* sin (or cos) of arg, affine in t: slot index of the OdeTrig */
    XV_WIENER,          /* a Wiener process's value this step (w = ΔW/h): index the process */
    XV_RANDOM,          /* a ran()'s uniform or a normal()'s standard normal: index (SiteKind << 20) | site */
    XV_DW,              /* the SDE methods' Wiener increment ΔW of process index (deriv/noise.c) */
    XV_STEP,            /* … and their step h */
} XVarKind;

typedef struct XNode XNode;

typedef struct XVar {
    XVarKind kind;
    int index;
    bool cos;           /* XV_TRIG: cos, else sin */
    const Symbol *sym;  /* the declared symbol, where there is one */
    XNode *arg;         /* XV_TRIG: the argument */
    XNode *def;         /* XV_DERIVED: its definition (set by the builder) */
    int id;             /* creation order */
} XVar;

struct XNode {
    XOp op;
    int id;             /* creation order: 0, 1, 2, … */
    int k;              /* X_POWI: the exponent */
    double value;       /* X_CONST */
    XVar *var;          /* X_VAR */
    XNode *a, *b, *c;   /* operands (X_SELECT: a the condition) */
    Loc loc;            /* the .ode construct it was first built for */
    const Table *tab;   /* X_TABLE, X_TABLE_SLOPE: the table (k: its index) */
    const char *label;  /* a temporary's name, or "d(name)/d(x)": printing and comments */
    XNode *hash_next;
};

typedef struct XGraph {
    bool single;        /* constants folded in float precision */
    XNode **nodes;      /* by id */
    int nnodes, capnodes;
    XNode **table;      /* hash buckets */
    unsigned tablesize;
    XVar **vars;
    int nvars, capvars;
    XVar **var_table;   /* vars by (kind, index, cos): open addressing */
    unsigned var_tablesize;
    Loc at;             /* stamped on new nodes: set by the builders */
    int max_nodes;      /* a graph larger than this stops growing … */
    bool overflow;      /* … and says so here (its results are not to be used) */
    XNode *nan;         /* returned once overflowed */
} XGraph;

XGraph *xg_new(bool single, int max_nodes);

/* Constructors (all simplify and share). */
XNode *xg_const(XGraph *g, double v);
XNode *xg_var(XGraph *g, XVarKind kind, int index, const Symbol *sym);
XNode *xg_trig(XGraph *g, int slot, bool cos, XNode *arg);
XNode *xg_un(XGraph *g, XOp op, XNode *a);
XNode *xg_bin(XGraph *g, XOp op, XNode *a, XNode *b);
XNode *xg_powi(XGraph *g, XNode *a, int k);
XNode *xg_select(XGraph *g, XNode *cond, XNode *a, XNode *b);
/* op X_TABLE (the lookup) or X_TABLE_SLOPE (its slope) of table t, number index, at a. */
XNode *xg_table(XGraph *g, XOp op, const Table *t, int index, XNode *a);
/* op X_DELAY (now: x at t) or X_DELAY_SLOPE (now NULL) of delayed state slot, call site, at (tau, t). */
XNode *xg_delay(XGraph *g, XOp op, int slot, int site, XNode *tau, XNode *t, XNode *now);

/* Shorthands. */
#define xg_add(g, a, b) xg_bin(g, X_ADD, a, b)
#define xg_sub(g, a, b) xg_bin(g, X_SUB, a, b)
#define xg_mul(g, a, b) xg_bin(g, X_MUL, a, b)
#define xg_div(g, a, b) xg_bin(g, X_DIV, a, b)
#define xg_neg(g, a) xg_un(g, X_NEG, a)

bool xg_is_const(const XNode *n, double v);
/* A leaf: a constant or a variable. */
bool xg_is_leaf(const XNode *n);
/* A truth value (comparison or logic): emitted as a C condition. */
bool xg_is_truth(const XNode *n);

/* Facts about each operation. */
typedef struct XOpInfo {
    const char *name;   /* as in .ode files (functions) or the operator */
    int arity;
    const char *builtin;/* the .ode built-in it comes from (builtins.c), or NULL */
} XOpInfo;
extern const XOpInfo xop_info[X_NOPS];

/* The operation of a built-in function's .ode name, or X_NOPS. */
XOp xop_of_builtin(const char *name);

#endif
