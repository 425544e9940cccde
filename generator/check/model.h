/* model.h — the checked model: what the emitter needs, every name resolved.
 *
 * check/ builds it from the syntax tree (check.c runs the passes) and reports
 * every problem it finds; deriv/ and emit/ read it (emit/cnames.c adds the C
 * names).  Expressions stay syntax-tree nodes; every N_NAME in them has been
 * resolved (Node.name → Symbol through model_lookup) and every N_CALL checked
 * for arity.
 */
#ifndef ODEGEN_MODEL_H
#define ODEGEN_MODEL_H

#include <stdbool.h>

#include "front/ast.h"

typedef enum SymKind {
    SYM_NUMBER,     /* `number g=9.81`: a compile-time constant (value) */
    SYM_PARAM,      /* `par`: per-system runtime value (value = default) */
    SYM_DERIVED,    /* `!w2=…`: computed once per system from parameters */
    SYM_STATE,      /* `x'=…`: value = default initial value */
    SYM_TEMP,       /* `name=…`: evaluated at every right-hand-side evaluation */
    SYM_AUX,        /* `aux name=…`: for hooks and output */
    SYM_ACC,        /* `acc name[=…]`: a per-system variable kept across integrations */
    SYM_FUNC,       /* `f(u,v)=…`: inlined user function */
    SYM_EVENT,      /* `event name:` or a `global` */
    SYM_ARG,        /* a user function's argument (inside its body only) */
    SYM_TIME,       /* t */
    SYM_WINDOW,     /* t0 or t1 (index 0 or 1), unless the user declared such a name */
    SYM_COUNT,      /* `count` in an event block, unless declared */
    SYM_TABLE,      /* `table f …`: a function of one argument, interpolated (Table) */
    SYM_LYAP,       /* lyap1 … lyapN of `lyapunov N` (index K-1): recordable only */
    SYM_PERIOD,     /* `period`'s result: recordable only */
    SYM_ATTRACTOR,  /* `attractor`'s label: recordable only */
    SYM_SPECIAL,    /* `special f=mmult(…)`: a network operator's values, f(k) (Special) */
    SYM_WIENER,     /* `wiener w`: XPPAUT's white noise, a standard normal number divided by
                       sqrt(dt), drawn once per step (check/noise.c) */
} SymKind;

typedef struct Symbol Symbol;
typedef struct Array Array;
struct Symbol {
    SymKind kind;
    const char *name;   /* as declared */
    const char *cname;  /* its C identifier in the generated code */
    Loc loc;            /* the declaration's name */
    int line;           /* the declaring line (for comments) */
    int index;          /* position among the symbols of its kind */
    Node *expr;         /* the defining expression (RHS, temp, aux, derived, acc
                           initial value, function body); NULL if none */
    Loc expr_line;      /* span of the whole defining statement */
    double value;       /* number value, parameter default, initial value */
    /* SYM_FUNC */
    int nargs;
    Symbol **args;
    /* SYM_FUNC: the values its body reads besides its arguments and constants
       (states, temporaries, aux, t, t0, t1), through the functions it calls
       too: XPPAUT evaluates a function with the current values, and each call
       passes these as extra arguments (the derivative engine inlines the body) */
    Symbol **implicit;
    int nimplicit;
    /* SYM_STATE */
    double rtol, atol;  /* per-state tolerances */
    Node *init_expr;    /* an initial value that is an expression of parameters
                           (`init y=a0`): computed per system when it is loaded;
                           value holds it at the default parameters */
    int delay_slot;     /* its place among the delayed states (delay(x, tau)), or -1 (a state read in another
                           order by a loop has a second place: check/delay.c) */
    Node *hist_expr;    /* x(0)=EXPR in a model with delays: its history, EXPR of t
                           (XPPAUT's initial function); NULL: 0 */
    bool value_known;   /* SYM_DERIVED: value holds it at the default parameters */
    /* SYM_AUX: the name is also a temporary's (`aux x=x`); the aux is not in
       the symbol table, lookups of the name find the temporary */
    bool shadowed;
    /* SYM_PARAM: a block assigns it (XPPAUT's `global … {vk=-50}`): a per-system
       value that changes during an integration, written back with the state */
    bool assigned;
    /* SYM_TABLE */
    int table;          /* index into Model.tables */
    /* SYM_STATE: 1 + the index of its `markov` chain in Model.markovs (its
       value jumps between 0 … N-1 at the start of steps; its equation is 0) */
    int markov;
    const char *api;    /* its name in the C API (enum names), set by assign_cnames */
    /* topological order among temporaries / derived parameters */
    int order;
    int visiting;       /* cycle detection */
    bool recursive;     /* SYM_FUNC: calls itself, directly or through others (order.c) */
    bool called;        /* SYM_FUNC: called outside the functions' bodies (resolve.c) */
    /* arrays kept as loops: the array's own symbol (expr: its element at
       position p) and each element's (expr NULL; index: its storage index,
       ode_y for a state, the scratch for a temporary) point to the Array */
    Array *array;
    long elem;          /* an element: its position p */
    bool is_array;      /* the array itself, not an element */
    int special;        /* SYM_SPECIAL: index into Model.specials */
};

/* An array kept as a loop (check/arrays.c; front/expand.h says when):
 * `x[1..100]'=…x[j]…` once, computed for each position p = 0 … n-1. */
struct Array {
    Symbol *sym;            /* the array: kind (state, temporary, aux), expr, expr_line; name as written */
    Symbol **elems;         /* its n elements (x1 … x100), by position */
    const ArrayLine *line;  /* range and names */
    long n;
    long base, stride;      /* element p's storage index: base + stride*p (among states, aux; the
                               scratch of temporaries) */
};

/* XPPAUT's network operators (`special`, check/special.c; XPPAUT's simplenet.c). */
typedef enum SpecialKind {
    SPECIAL_CONV,       /* conv(type, n, ncon, w, root): sum over k = -ncon … ncon of w[k+ncon]*root[i+k] */
    SPECIAL_SPARSE,     /* sparse(n, ncon, w, index, root): sum over k < ncon of w[i*ncon+k]*root[index[i*ncon+k]] */
    SPECIAL_MMULT,      /* mmult(n, m, w, root): value[j] = sum over i < n of w[j*n+i]*root[i], j < m */
    SPECIAL_FCONV,      /* fconv(type, n, ncon, w, root1, root2, f): as conv, of f(root2[i+k], root1[i]) */
    SPECIAL_FSPARSE,    /* fsparse(n, ncon, w, index, root1, root2, f) */
    SPECIAL_FMMULT,     /* fmmult(n, m, w, root1, root2, f): sum over i of w[j*n+i]*f(root2[i], root1[j]) */
    SPECIAL_FFTCON,     /* fftcon(type, n, w, root): a convolution XPPAUT computes by FFT */
} SpecialKind;

/* conv's and fftcon's boundary: XPPAUT's types (first letter of the word) */
typedef enum SpecialBoundary { BOUNDARY_EVEN, BOUNDARY_ZERO, BOUNDARY_PERIODIC } SpecialBoundary;

typedef struct Special {
    Symbol *sym;
    SpecialKind kind;
    SpecialBoundary boundary;
    long n;                 /* values it gives: f(0) … f(n-1) */
    long ncon;              /* conv: the half-width; sparse: connections per value; mmult: the root's length */
    const struct Table *w, *index;   /* weights; sparse's indices */
    Symbol *root, *root2;   /* the first element of what it reads (a state or a temporary) */
    long root_base, root2_base;      /* their storage index (ode_y or the scratch) */
    Symbol *fn;             /* fconv, fsparse, fmmult: the user function of two arguments */
    long scratch;           /* where its values are kept: the scratch at scratch … scratch+n-1 */
    int line;
    Loc loc;
} Special;

typedef struct Event {
    Symbol *sym;
    Node *expr;         /* g(t, y): the event fires where it crosses zero */
    int dir;            /* -1, 0, +1 */
    double tol;
    int stop;           /* stop at this detection count (0: never) */
    int halt;           /* 1 + the accessory whose value > 0 after the statements stops (XPPAUT's arret=EXPR), or 0 */
    Node *body;         /* statements of the event itself */
    Node *on_body;      /* statements of `on NAME` blocks, in file order */
    bool is_global;     /* written as an XPPAUT `global` */
    int line;
} Event;

/* XPPAUT's tables (tables.c): n values y[i] at x = xlo + i dx, dx = (xhi - xlo) / (n - 1). */
typedef enum TableInterp { TABLE_LINEAR, TABLE_STEP, TABLE_CUBIC } TableInterp;

typedef struct Table {
    Symbol *sym;
    int n;
    double xlo, xhi, dx;
    TableInterp interp;     /* linear; `i` file tables: the value at the step's start; `s`: cubic */
    double *y;
    const char *file;       /* the file it was read from, or NULL (a function table) */
    const Node *random;     /* a formula with ran()/normal(): drawn once the seed is known (check/noise.c) */
    int line;
} Table;

/* `set NAME {a=1, x=0.5}`: parameters and initial values chosen together. */
typedef struct ParamSet {
    const char *name;
    int line;
    Symbol **targets;       /* parameters or states; NULL for an option */
    const char **options;   /* XPPAUT's run-time option in a set (`total=100`): odegen's name */
    double *values;
    int n;
} ParamSet;

typedef enum ScanKind { SCAN_LIN, SCAN_LOG, SCAN_LIST } ScanKind;

typedef struct Scan {
    Symbol *target;     /* a parameter or a state (its initial value) */
    ScanKind kind;
    double a, b;        /* lin, log */
    long n;
    double *values;     /* list */
    int line;
    Loc loc;            /* the scan line */
} Scan;

/* `markov NAME N` and its N rows of rates (XPPAUT): a state that stays at
 * one of the values 0 … N-1 and jumps at the start of a step from i to j
 * with probability rate[i][j]·dt (check/noise.c, emit/emit_noise.c). */
typedef struct Markov {
    Symbol *var;            /* a state (Symbol.markov) */
    int n;                  /* its number of states */
    Node **rate;            /* rate[i * n + j]: the rows as written (the diagonal is not used) */
    int rows;               /* rows read so far */
    int line;
} Markov;

/* Where a ran() or normal() stands decides when it is drawn (templates/rng.h
 * has the same purposes): in the right-hand side (and its temporaries, and a
 * markov rate) once per step, held over the step's stages; in an aux
 * quantity when it is recorded; in an event's or a hook's block when it
 * runs; in an accessory's initial value when the system is loaded; in a
 * table's formula when odegen translates the file. */
typedef enum SiteKind { SITE_STEP, SITE_AUX, SITE_BLOCK, SITE_ACC, SITE_TABLE, SITE_NKINDS } SiteKind;

typedef struct RandomSite {
    const Node *call;       /* the call: Node.site is 1 + its index, Node.site_kind its kind */
    bool normal;            /* normal(m, s); else ran(a) */
} RandomSite;

/* Hook blocks, in file order (several `on start` blocks run one after another). */
typedef struct Hook {
    Node *body;         /* statement list, or NULL */
    int line;           /* first block's line */
} Hook;

/* Integration methods (`@ meth`): the same numbers as ODE_METH_* in
 * templates/tableaux.h.  method.c reads their names. */
typedef enum Method {
    METH_EULER = 1,      /* forward Euler, fixed step (XPPAUT euler) */
    METH_MODEULER = 2,   /* Heun, fixed step (XPPAUT modeuler) */
    METH_RK4 = 3,        /* classical Runge–Kutta, fixed step (XPPAUT rungekutta) */
    METH_RKCK45 = 4,     /* Cash–Karp 5(4), adaptive (XPPAUT qualrk) */
    METH_DOPRI5 = 5,     /* Dormand–Prince 5(4), adaptive (XPPAUT 5dp) */
    METH_TSIT5 = 6,      /* Tsitouras 5(4), adaptive */
    METH_DOP853 = 7,     /* Dormand–Prince 8(5,3), adaptive (XPPAUT 83dp) */
    METH_VERN7 = 8,      /* Verner 7(6), adaptive */
    METH_RODAS5P = 9,    /* Rodas5P, Rosenbrock 5(4), stiff (XPPAUT stiff, gear, cvode, 2rb, backeul run as it) */
    METH_ROS3P = 10,     /* ROS3P, Rosenbrock 3(2), stiff */
    METH_DISCRETE = 11,  /* a map: y(t+1) = f(t, y), t steps by 1 (XPPAUT discrete; map.c, templates/map.h) */
    METH_MILSTEIN = 12,  /* Milstein's scheme for SDEs with commutative noise, fixed step */
    METH_WEAK2 = 13,     /* Kloeden-Platen's explicit weak order 2.0 scheme for SDEs, fixed step */
    METH_SYMPLECTIC = 14 /* XPPAUT's symplectic ymp: three stages on (x, v) pairs, fixed step (symplectic.h) */
} Method;

/* Who integrates one system (templates/team.h's ODE_LAYOUT values). */
enum { LAYOUT_THREAD = 0, LAYOUT_WARP = 1, LAYOUT_BLOCK = 2 };

typedef struct Model {
    const char *path;        /* the .ode file as given */
    const char *name;        /* C identifier made from the file's base name (model_name.c) */
    const char *name_why;    /* why it is not the base name, or NULL */

    Symbol **syms;           /* every declared symbol, for lookup */
    int nsyms, capsyms;

    Symbol **states;   int nstate;
    Symbol **params;   int nparam;
    Symbol **numbers;  int nnumber;
    Symbol **derived;  int nderived;   /* in declaration order (= their index) */
    Symbol **derived_order;            /* the same, in evaluation order */
    Symbol **temps;    int ntemp;      /* in evaluation order */
    Symbol **aux;      int naux;
    Symbol **accs;     int nacc;
    Symbol **funcs;    int nfunc;
    Event *events;     int nevent;
    Table *tables;     int ntable;
    /* arrays kept as loops (front/expand.h, check/arrays.c) and network operators */
    bool arrays_kept;                  /* the model's arrays stay arrays: it is written in loop form */
    Array *arrays;     int narray;
    Special *specials; int nspecial;
    long nscratch;                     /* reals of the array temporaries and the specials' values */
    ParamSet *sets;    int nset;
    int ninit_expr;                    /* states whose initial value is an expression */
    bool params_assigned;              /* a block assigns a parameter (Symbol.assigned) */

    Hook on_start, on_step, on_end;

    /* noise (check/noise.c) */
    Symbol **wieners;  int nwiener;    /* in declaration order (= their index) */
    Markov *markovs;   int nmarkov;
    RandomSite *sites[SITE_NKINDS];    /* ran() and normal() calls by where they are drawn */
    int nsite[SITE_NKINDS];
    double seed;             /* @ seed= (XPPAUT's; a whole number below 2^53) */
    double noisesub;         /* @ noisesub=: Wiener increments summed per step (the same path at dt/noisesub) */

    /* options (@) */
    Method method;
    Loc method_loc;          /* the meth option's value (line 0: the default) */
    Loc dt_loc;              /* the dt option (line 0: the default) */
    Loc map_loc;             /* the first map x(t+1)=… (line 0: none): the model is a map (map.c) */
    int evpoints;            /* interior points per step where events are checked */
    double dt, t0, total, toler, atoler, dtmin, dtmax, hgrow, hshrink, bound;
    double evtol;            /* tol of `global`s and of events without tol= */
    long evsteps;
    long long maxsteps;
    bool single;             /* float precision */
    /* `@ layout=thread|warp|block` and `@ team=N` (layout.c): who integrates one system —
     * one thread, or a team of `team` threads (a warp's or a block's) over the model in
     * loop form (templates/team.h); -1 and 0 until the rule or the file decides. */
    int layout;              /* LAYOUT_THREAD, LAYOUT_WARP, LAYOUT_BLOCK (-1: by the rule) */
    int team;                /* threads per team (0: by the rule) */
    bool layout_from_rule;   /* the rule chose the layout (the file named none) */
    bool loop_form;          /* the model is emitted in loop form (a team layout) */
    Loc layout_loc, team_loc;
    bool plain_trig;         /* --no-time-trig: RK4 evaluates sin/cos of time at each stage time, no angle addition */

    Scan *scans;       int nscan;
    long transient, record;
    Symbol **fields;   int nfield;        /* `record` line; none → all states */

    /* `save every=DT [, systems=list(…)]` (save_every 0: no save line) */
    double save_every;
    long *save_systems;      /* scan indices, ascending, no repeats; NULL: every system */
    long save_max;           /* samples kept per integration (0: from the window) */
    int nsave_systems;
    Loc save_loc;            /* the save statement */

    /* XPPAUT's algebraic constraints (check/dae.c; nalg 0: none): the last nalg
       states are the unknowns of `solv`, whose expressions are the `0=` constraints */
    int nalg;
    Loc alg_loc;                       /* the first solv or 0= line */
    double newt_tol;                   /* @ newt_tol: Newton stops when sum |g| < newt_tol (XPPAUT's EVEC_ERR) */
    long newt_iter;                    /* @ newt_iter: at most this many Newton iterations (XPPAUT's EVEC_ITER) */

    /* delay(x, tau) (check/delay.c; ndelay 0: none) */
    Symbol **delayed;  int ndelay;     /* the delayed states, by delay_slot */
    int ndelay_sites;                  /* delay(…) calls, numbered */
    Node **delay_const; int ndelay_const;   /* the delays of parameters and numbers only (breaking points) */
    double delay_max;                  /* `@ delay=MAX` (0: not given) */
    Loc delay_loc;                     /* the first delay(…) */

    /* `lyapunov N [, every=T]` (nlyap 0: none) */
    int nlyap;
    double lyap_every;       /* re-orthonormalise every T as well (0: at the ends of integrations only) */
    Symbol **lyap_fields;    /* lyap1 … lyapN (SYM_LYAP, not in the symbol table) */
    Symbol *lyap_trace_field;   /* lyap_trace_err when N is the number of states (SYM_LYAP, index N), or NULL */
    Loc lyap_loc;
    /* `period [of=…] [, tol=…] [, max=…]` (period_field NULL: none) */
    Symbol *period_field;    /* SYM_PERIOD, not in the symbol table */
    Symbol **period_of;      /* the quantities compared (default: every state) */
    int nperiod_of;
    double period_tol;
    int period_max;
    Loc period_loc;
    bool period_on;          /* the ring and the period are computed (`period` or `attractor`) */
    /* `attractor [of=…] [, tol=…] [, max=…] [, dist=…]` (attractor_field NULL: none);
     * without `period` its of/tol/max set period_of, period_tol and period_max */
    Symbol *attractor_field; /* SYM_ATTRACTOR, not in the symbol table */
    double attractor_dist;   /* grouping tolerance of fingerprints */
    double attractor_match;  /* continuation: the largest distance matched (INFINITY: any) */
    Loc attractor_loc;
} Model;

/* Whether the generated code draws random numbers while it integrates
 * (Wiener processes, markov chains, ran()/normal() outside tables:
 * check/noise.c). */
bool model_has_noise(const Model *m);

/* Checks the program; returns NULL after reporting errors (diag.h).
 * `force_single`: --precision float (1), double (0), or from the file (-1). */
Model *check_program(const Program *prog, int precision);

#endif
