/* checker.h — what the passes of check/ share, for the files of check/ only:
 * the checker's state, the context a name is resolved in, and each pass's
 * entry points.  check.c runs the passes in order (see its top comment);
 * the public face of check/ is check_program in model.h. */
#ifndef ODEGEN_CHECKER_H
#define ODEGEN_CHECKER_H

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "base/arena.h"
#include "base/util.h"
#include "check/model.h"
#include "check/symtab.h"
#include "front/ast.h"

#define BIT(k) (1u << (k))

typedef struct Checker {
    Model *m;
    SymTab tab;
    Symbol *sym_pi, *sym_t, *sym_t0, *sym_t1, *sym_count;
    Symbol *arret;             /* the accessory of XPPAUT's arret=EXPR in a global (declare.c), or NULL */
    const Node **set_meths;    /* the meth items of sets, checked against the file's method (statements.c) */
    int nset_meth;
    Loc last_loc;              /* end of the program, for messages about what is missing */
    /* eval_const beyond numbers: parameters at their defaults, derived
       parameters and user functions (eval_defaults), t (eval_t) */
    bool eval_defaults, eval_t;
    double t_value;
    /* eval_const of a random table's formula: its draws' key (noise.c) */
    bool eval_random;
    int random_table, random_point;
    const double *frame;       /* the arguments of the user function being evaluated */
    int calls;                 /* user functions being evaluated, nested */
    const char *origin;        /* the array element being resolved ("x[j+1] with j = 3"), or NULL */
    bool sums_refused;         /* a sum went beyond SUM_MAX_TERMS (said once) */
    const char **refused;      /* names of refused statements (a map's x, wiener's w): not */
    int nrefused;              /* reported again as unknown where they are used */
    bool delay_in_rhs;         /* a delay(…) in the right-hand side, its temporaries or functions (delay.c) */
    /* calls of user functions met while the definitions are resolved: checked
       against what the functions read once temporaries of parameters only
       are derived parameters (resolve.c) */
    struct PendingCall *pending;
    int npending;
    bool defer_calls;
    /* the model needs the derivatives of its right-hand side (lyapunov, a stiff
       method): sums are written out, which the derivative engine reads (arrays.c) */
    bool sums_written;
} Checker;

/* Where a name is being resolved: what may be read and assigned there. */
typedef struct Ctx {
    unsigned read;             /* BIT(SymKind) of readable kinds */
    unsigned write;            /* BIT(SymKind) of assignable kinds (blocks) */
    const char *where;         /* "a parameter's value", "'on step'" … */
    const char *hint;          /* added to "cannot be used" messages */
    const char *write_what;    /* "states and accessories" */
    Symbol *func;              /* inside a function: its arguments are in scope */
    Event *event;              /* inside an event's block: `count` is in scope */
    const char *also;          /* one more name to suggest for a typo (`arret`) */
    const Array *arr;          /* inside an array line kept as a loop: j is its index (arrays.c) */
    const Node *sum_loop;      /* inside a sum computed by a loop: i' is its index */
    bool team;                 /* where the loop form computes the array temporaries first: a
                                  special may read one (else only states) */
    bool derivative;           /* part of the right-hand side (a temporary, a function: maybe) */
} Ctx;

typedef struct PendingCall {
    const Symbol *f;
    const Node *call;
    Ctx ctx;
} PendingCall;

/* What each place may read. */
#define READ_CONST (BIT(SYM_NUMBER))
#define READ_PARAMS (READ_CONST | BIT(SYM_PARAM) | BIT(SYM_DERIVED) | BIT(SYM_FUNC))
#define READ_RHS (READ_PARAMS | BIT(SYM_STATE) | BIT(SYM_TEMP) | BIT(SYM_TIME) | BIT(SYM_WINDOW) | BIT(SYM_SPECIAL))
#define READ_NOISE (BIT(SYM_WIENER))   /* right-hand sides, temporaries, aux, functions, blocks */
#define READ_BLOCK (READ_RHS | READ_NOISE | BIT(SYM_AUX) | BIT(SYM_ACC))

/* A growable array in the arena: appends item to arr[0..n). */
#define PUSH(arr, n, item)                                                          \
    do {                                                                            \
        if (((n) & ((n) - 1)) == 0) {                                               \
            void *grown_ = arena_alloc(sizeof(*(arr)) * (size_t)((n) ? 2 * (n) : 4)); \
            if (n) memcpy(grown_, (arr), sizeof(*(arr)) * (size_t)(n));             \
            (arr) = grown_;                                                         \
        }                                                                           \
        (arr)[(n)++] = (item);                                                      \
    } while (0)

/* `inf` as a number (XPPAUT reads it in parameter values, as C's atof does). */
static inline bool is_inf_name(const char *name)
{
    return name_eq(name, "inf") || name_eq(name, "infinity");
}

static inline int list_length(const Node *n)
{
    int k = 0;
    for (; n; n = n->next) k++;
    return k;
}

static inline bool is_integer(double v) { return v == floor(v) && fabs(v) < 9.0e18; }

/* ---- suggest.c: "did you mean" */

/* The closest of the candidate names, if it is close enough to be a typo. */
typedef struct Suggest {
    const char *best;
    int dist;
    int line;           /* where the best one is declared (0: a keyword, a built-in) */
    const char *word;
} Suggest;

void suggest_init(Suggest *s, const char *word);
void suggest_add_at(Suggest *s, const char *cand, int line);
void suggest_add(Suggest *s, const char *cand);
const char *suggest_text(const Suggest *s);
void suggest_symbols(Checker *c, Suggest *sg, unsigned kinds);
void suggest_glued_keyword(Checker *c, Suggest *sg);

/* ---- declare.c: every declaration becomes a symbol */

const char *kind_phrase(SymKind k);
Symbol *new_symbol(SymKind kind, const char *name, Loc loc);
/* A user symbol, in the symbol table and (listed) in its kind's list of the
 * model; NULL after an error (the name is taken or reserved). */
Symbol *declare_symbol(Checker *c, SymKind kind, const char *name, Loc loc, bool listed);
void declare_all(Checker *c, const Program *prog, Node **inits);
/* poincare.c: XPPAUT's Poincaré map (@ poimap=…) as an event, a hook, repeat and
 * record added to the program (the same program when there is no map). */
const Program *poincare_map(const Program *prog);
/* param_tables.c: the calls of a table whose formula reads a parameter written
 * out as its lookup for each system's parameters (the table itself dropped). */
const Program *parameter_tables(const Program *prog);
/* options_file.c: a note for each `option FILE`, whose values XPPAUT never takes. */
void note_options_files(const Program *prog);

/* ---- special.c: XPPAUT's network operators (after the tables, before the definitions are resolved) */
void check_specials(Checker *c);

/* ---- arrays.c: arrays kept as loops */

/* Element p (0 … n-1) of an array line kept as a loop: its name (x5 of x[0..63] for p = 5). */
const char *array_element_name(const ArrayLine *a, long p);
/* The kept lines of d's block of d's kind (d itself when it has no block), at most max:
 * consecutive in the program (front/expand.c writes them so). */
int array_block_lines(Node *d, Node **lines, int max);

/* The elements of an array line (and of the lines of its block of its kind). */
void declare_array_lines(Checker *c, Node *d);
/* x[j+1] and [j] in an array line, an element named as a scalar (u5): true
 * when n was one of them (resolved, or reported). */
bool resolve_array_syntax(Checker *c, Node *n, const Ctx *ctx);
/* A sum of ARRAY_LOOP_MIN terms or more becomes a loop: true when it did. */
bool sum_as_loop(Checker *c, Node *n, const Ctx *ctx, double first, double last);
void sum_as_dynamic_loop(Checker *c, Node *n, const Ctx *ctx);
/* shift(base, offset) with an offset of the loops' indices: true when it was one. */
bool resolve_shift_loop(Checker *c, Node *n, Symbol *base, Node *offset, const Ctx *ctx);

/* ---- resolve.c: every name looked up in its context */

Ctx ctx_make(unsigned read, const char *where, const char *hint);
Symbol *lookup(Checker *c, const char *name, const Ctx *ctx);
/* s read at loc in ctx: s, or NULL after an error (a kind ctx may not read). */
Symbol *resolve_read_symbol(Checker *c, Symbol *s, Loc loc, const Ctx *ctx);
bool refused_name(const Checker *c, const char *name);
void resolve_expr(Checker *c, Node *n, const Ctx *ctx);
void resolve_block(Checker *c, Node *stmts, const Ctx *ctx);
/* A constant option-like value: resolved with numbers only, then evaluated
 * (const_value_inf: `inf` allowed). */
bool const_value(Checker *c, Node *n, const char *what, double *out);
bool const_value_inf(Checker *c, Node *n, const char *what, double *out);
/* The user functions' bodies (before the tables, whose formulas may call them). */
void resolve_functions(Checker *c);
void resolve_definitions(Checker *c);
/* tables.c's formulas may read parameters: those become numbers (statements.c). */
void fix_table_parameters(Checker *c, const Program *prog);

/* ---- constants.c: the value of a resolved constant expression */

bool eval_const(Checker *c, const Node *n, double *out);

/* ---- order.c: dependency order, cycles, nesting depth */

void topo_sort(Checker *c, Symbol **syms, int n, SymKind kind);
void check_recursion(Checker *c);   /* order.c: a recursive function, called or not */
void check_nesting(Checker *c);
void note_forward_temps(Checker *c);

/* ---- values.c: numbers, parameter values, defaults, initial values */

void evaluate_numbers(Checker *c);
void evaluate_values(Checker *c, const Program *prog);
void evaluate_derived_defaults(Checker *c);
void evaluate_initial_values(Checker *c, Node *inits);

/* ---- events.c: events and hooks */

void check_event(Checker *c, Node *d);
void check_global(Checker *c, Node *d);
void check_on(Checker *c, Node *d);

/* ---- statements.c: tolerance, scan, table, set, repeat, save */

void check_tolerance(Checker *c, Node *d);
void check_scan(Checker *c, Node *d);
void check_table(Checker *c, Node *d);
void check_set(Checker *c, Node *d);
void check_set_methods(Checker *c);
/* symplectic.c: what meth=ymp asks of the model */
void check_symplectic(Checker *c);
void check_repeat(Checker *c, Node *d, bool *seen);
void check_save(Checker *c, Node *d, bool *seen);

/* ---- outputs.c: lyapunov, period, record */

void check_lyapunov(Checker *c, Node *d);
void check_period(Checker *c, Node *d);
void check_record(Checker *c, Node *d);
void check_only(Checker *c, const Node *d, bool has_record);
/* What a `period` or `attractor` line says about the quantities compared. */
typedef struct PeriodSpec {
    Symbol **of;       /* the quantities (default: every state) */
    int nof;
    double tol;        /* agreement of recorded values (default 1e-6) */
    int max;           /* the longest period looked for (default 64) */
    Loc of_loc, tol_loc, max_loc;   /* where given (line 0: not given) */
} PeriodSpec;
void check_period_items(Checker *c, Node *d, PeriodSpec *ps, const char *statement, const char *const *names,
                        const char *usage, const char *const *extra, Node **extra_items);
void use_period_spec(Model *m, const PeriodSpec *ps);
Symbol *output_field(Checker *c, SymKind kind, const char *name, int index, Loc loc, const char *statement);
void check_option_names(const Node *it, const char *statement, const char *const *names, const char *usage);

/* ---- attractor.c: attractor (after period, whose quantities it shares) */

void check_attractor(Checker *c, Node *d, const Node *period_line);

/* ---- model_name.c: the model's C name, from its file's (why: NULL, or why
 * it differs from the file's base name) */

const char *model_name_from_path(const char *path, const char **why);

/* ---- map.c: a map (x(t+1)=…, meth=discrete): the method, dt, what a map
 * refuses (after the options and the events are checked) */

void check_map(Checker *c, const Program *prog);

/* ---- delay.c: delay(x, tau), its history, what it needs */

void resolve_delay(Checker *c, Node *n, const Ctx *ctx);
bool initial_history(Checker *c, Symbol *s, Node *it);
void check_delays(Checker *c);
/* ---- noise.c: wiener, markov, ran() and normal() */

void declare_wiener(Checker *c, Node *d);
void declare_markov(Checker *c, Node *d);
void declare_markov_row(Checker *c, Node *d);
bool is_random_call(const Node *n);
bool has_random_call(const Node *n);
void check_noise(Checker *c);

/* ---- options.c: @ lines */

void check_option(Checker *c, Node *it, Loc *dtmin_loc, Loc *dtmax_loc, int precision);

/* ---- dae.c: solv and 0= (after declare_all; check_dae last) */

void declare_dae(Checker *c, const Program *prog, Node **inits);
void check_dae(Checker *c);

/* layout.c */
void choose_layout(Checker *c);
/* The systems of the scan the file declares (the product of its `scan` lines), 0 without one. */
double scan_systems(const Model *m);
/* A model of this many states or more gets a team where the file declares a
 * scan of a few systems (layout.c: team_by_rule); check.c then tries its
 * arrays as loops. */
#define LAYOUT_SMALL_SCAN_STATES 24
/* What keeps a model one system per thread (noise, delays, XPPAUT's globals,
 * lyapunov, period: the team integrator has none of them), or NULL. */
const char *team_cannot(const Model *m);

#endif
