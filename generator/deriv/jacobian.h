/* jacobian.h — every derivative of the model that a solver may need, as graphs.
 *
 * Built once per translation from the checked model:
 *   - the right-hand side f and its Jacobian ∂f/∂y (non-zero entries only,
 *     row by row), ∂f/∂t and ∂f/∂p (through derived parameters);
 *   - the gradient ∂g/∂y, ∂g/∂t of every event function;
 *   - for `on start`, `on end` and every event's statements (with its `on NAME`
 *     blocks), the map y ↦ y⁺ that the block applies to the states, and its
 *     Jacobian ∂y⁺/∂y and ∂y⁺/∂t, for the saltation matrix.
 * Three groups that can fail on their own: a construct that cannot be
 * differentiated in an event function does not stop the Jacobian of f.
 * A failure is no error by itself: it is reported (jacobian_require) only by a
 * feature that needs the derivative, at the construct's line.
 */
#ifndef ODEGEN_JACOBIAN_H
#define ODEGEN_JACOBIAN_H

#include "deriv/deriv.h"
#include "deriv/expr_cse.h"
#include "deriv/expr_graph.h"
#include "check/model.h"
#include "deriv/time_trig.h"

typedef enum JacGroup { JAC_RHS, JAC_EVENTS, JAC_RESETS, JAC_NGROUPS } JacGroup;

typedef struct JacFailure {
    bool failed;
    Loc loc;            /* the construct (line 0: the model as a whole) */
    const char *msg;
} JacFailure;

/* One non-zero entry: d(row)/d(col). */
typedef struct JacEntry {
    int row, col;
    XNode *d;
} JacEntry;

typedef struct EventGrad {
    XNode *g;           /* the event function */
    XNode **gy;         /* ∂g/∂y_j */
    XNode *gt;          /* ∂g/∂t */
} EventGrad;

typedef struct ResetJac {
    const char *what;   /* "on start", "on end", "event NAME" */
    int line;           /* where the block is (0: there is none) */
    bool resets;        /* some state's value after the block may differ from before */
    XNode **post;       /* each state's value after the block */
    JacEntry *R;        /* ∂post_i/∂y_j ≠ 0, rows of the states it may assign */
    int nR;
    XNode **Rt;         /* ∂post_i/∂t */
    bool time_dependent;/* some Rt is not 0 */
} ResetJac;

/* A piecewise construct of f whose switch depends on a state, t or a parameter. */
typedef struct JacPiece {
    XNode *node;
    int kind;           /* xop_piecewise */
    bool *states;       /* which states it depends on */
    bool on_states;     /* any */
} JacPiece;

/* A switching function: where it changes sign, a piecewise construct of f
 * switches (and its Jacobian with it). */
typedef struct JacSwitch {
    XNode *g;
    const XNode *piece; /* the construct (its place, for comments) */
} JacSwitch;

typedef struct Jacobian {
    const Model *m;
    XGraph *g;
    JacFailure fail[JAC_NGROUPS];
    /* the right-hand side */
    XNode **f;
    JacEntry *J;
    int nJ;
    XNode **dfdt;
    bool autonomous;    /* ∂f/∂t ≡ 0 */
    JacEntry *P;        /* ∂f_i/∂p_k ≠ 0 (col: the parameter) */
    int nP;
    JacPiece *pieces;
    int npieces;
    JacSwitch *switches;
    int nswitch;
    /* events and resets */
    EventGrad *ev;
    ResetJac start, end, *on_event;
} Jacobian;

/* trig: the right-hand side's sin/cos of time (find_time_trig has run;
 * NULL: none are special). */
Jacobian *jacobian_build(const Model *m, const TimeTrig *trig);

/* Reports why a group cannot be differentiated (error_at, naming `feature`,
 * e.g. "--print jacobian"); false then. */
bool jacobian_require(const Jacobian *J, JacGroup group, const char *feature);

/* What the Jacobian costs against the right-hand side, in operations of the
 * generated code (shared subexpressions counted once). */
typedef struct JacCosts {
    XCost f;            /* the right-hand side alone */
    XCost J;            /* the Jacobian alone */
    XCost fJ;           /* both together (ode_model_rhs_jac) */
} JacCosts;
JacCosts jacobian_costs(const Jacobian *J);

/* The user's name of a variable ("y1", "t", "k"). */
const char *jac_var_name(const XVar *v);

#endif
