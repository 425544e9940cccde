/* ast.h — the syntax tree of one .ode file.
 *
 * One node struct for everything (expressions, block statements and top-level
 * declarations), told apart by `kind`.  Every node keeps the source span it came
 * from, so that checks can point at it.  Nodes live in one arena (arena.h) that
 * lasts as long as the translator run: nothing is freed node by node.
 *
 * Names are kept as the user spelled them; comparisons are case-insensitive
 * (XPPAUT semantics), see name_eq() in util.h.
 */
#ifndef ODEGEN_AST_H
#define ODEGEN_AST_H

#include <stdbool.h>

/* A source span: 1-based line and column of the first character, and of the
 * last character (inclusive).  A span never crosses a physical line for tokens;
 * for larger nodes (a whole statement) end_line may be larger than line. */
typedef struct Loc {
    int line, col;
    int end_line, end_col;
} Loc;

typedef enum NodeKind {
    /* ---- expressions ---- */
    N_NUM,        /* number literal: num (value), text (spelling) */
    N_NAME,       /* a name: name */
    N_NEG,        /* unary minus: lhs */
    N_NOT,        /* logical not (`not`, `!`): lhs */
    N_ADD, N_SUB, N_MUL, N_DIV,
    N_POW,        /* `^` or `**`, left-associative as in XPPAUT: lhs ^ rhs */
    N_LT, N_GT, N_LE, N_GE, N_EQ, N_NE,
    N_AND,        /* `&`, `&&`, `and` */
    N_OR,         /* `|`, `||`, `or` */
    N_IF,         /* if(cond)then(lhs)else(rhs) */
    N_CALL,       /* name(args…): name, args (list) */
    N_SUM,        /* XPPAUT's sum(first,last)of(body): args (first, last), lhs
                     (body, in which the name i' is the index); expanded into
                     a sum of terms by the checks, or kept as a loop (loop) */
    /* ---- arrays kept as loops (check/arrays.c; made by the checks) ---- */
    N_ELEM,       /* an element read by an index computed as the model runs:
                     for the positions p = ix_from … ix_to of the loop of the
                     array line, element ix_base + ix_step*(p - ix_from)
                     (+ (int)lhs when lhs, shift's offset) of its kind's
                     storage (states, parameters, derived parameters, the
                     scratch of array temporaries, aux); sym: the element at
                     p = ix_from (its kind, its name for messages); scalar:
                     that symbol itself (a boundary x0=0 of a chain); more:
                     the next run of positions (an N_ELEM), or NULL */
    N_POS,        /* XPPAUT's [j] in an array line kept as a loop: the number
                     ix_base + ix_step*p */
    N_SUMIX,      /* i' in a sum written as a loop: the loop's index */

    /* ---- statements inside `{ … }` blocks ---- */
    S_ASSIGN,     /* name = rhs */
    S_IF,         /* if (cond) { body } else { els }: els may be NULL */

    /* ---- top-level declarations ---- */
    D_PAR,        /* `par` / `param` / `p`: items (list of S_ASSIGN, rhs a
                     constant expr, or NULL for `par mu` without a value) */
    D_NUMBER,     /* `number`: items (list of S_ASSIGN) */
    D_INIT,       /* `init`: items (list of S_ASSIGN) */
    D_DERIVED,    /* `!name = rhs` */
    D_ODE,        /* `name' = rhs` or `dname/dt = rhs`: name, rhs */
    D_CALLDEF,    /* `name(args…) = rhs`: a function definition `f(u,v)=…`, an
                     initial value `x(0)=…`, or an XPPAUT map `x(t+1)=…`; the
                     checks tell which from args */
    D_TEMP,       /* `name = rhs`: a temporary */
    D_AUX,        /* `aux name = rhs` */
    D_GLOBAL,     /* `global SIGN {cond} {body}`: num (the sign as written),
                     cond (the event expression), body (list of S_ASSIGN) */
    D_EVENT,      /* `event name: cond [, opts] [{ body }]`: name, cond, items
                     (list of S_ASSIGN for dir/tol/stop), body */
    D_ACC,        /* `acc`: items (list of S_ASSIGN; rhs NULL when no `=`) */
    D_ON,         /* `on name { body }`: name is start, step, end or an event */
    D_TOLERANCE,  /* `tolerance x, y: rtol=…, atol=…`: args (list of N_NAME),
                     items (list of S_ASSIGN) */
    D_SCAN,       /* `scan name = kind(args…)`: name, rhs (an N_CALL whose name
                     is lin, log or list) */
    D_REPEAT,     /* `repeat transient=N, record=M`: items (list of S_ASSIGN) */
    D_RECORD,     /* `record a, b, …`: args (list of N_NAME) */
    D_SAVE,       /* `save every=DT, systems=list(…)`: items (list of S_ASSIGN) */
    D_LYAPUNOV,   /* `lyapunov N [, every=T]`: rhs (N, or NULL), items (list of S_ASSIGN) */
    D_PERIOD,     /* `period [of=a, b] [, tol=…] [, max=…]`: items (S_ASSIGN; a
                     name after of=… is an S_ASSIGN without rhs) */
    D_ATTRACTOR,  /* `attractor [of=a, b] [, tol=…] [, max=…] [, dist=…]`: items
                     as D_PERIOD's */
    D_OPTIONS,    /* `@ name=value, …`: items (list of S_ASSIGN whose rhs is an
                     N_NUM or an N_NAME holding the word as written) */
    D_WIENER,     /* `wiener w1, w2` (XPPAUT): items (list of S_ASSIGN; a value
                     after '=' is read and ignored, as XPPAUT overwrites it) */
    D_MARKOV,     /* `markov NAME N` (XPPAUT): name, rhs (N_NUM: the number of
                     states); the N lines after it are its D_MARKOV_ROWs */
    D_MARKOV_ROW, /* `{r0} {r1} …`: one row of a markov table, args (list of the
                     rate expressions) */
    D_UNSUPPORTED,/* an XPPAUT statement odegen cannot run per GPU thread:
                     name (the feature, e.g. "wiener", "markov") */
    D_IGNORED,    /* an XPPAUT statement odegen reads and ignores with a note
                     (`only x,y`): name (the word as written) */
    D_OPTFILE,    /* `option FILE`: XPPAUT's options file (name: the file as
                     written; check/options_file.c reads it) */
    D_TABLE,      /* `table f % npts xlo xhi expr` (items: three N_NUM, rhs:
                     the formula in t) or `table f FILE` (text: the file) */
    D_SET,        /* `set name {a=1, x=2}`: name, items (list of S_ASSIGN) */
    D_FOR,        /* `%[first..last]`: the start of an XPPAUT array block;
                     lhs, rhs: N_NUM first and last */
    D_FOR_END,    /* a line that starts with `%` and is no `%[…]`: the end of
                     an array block, or a comment outside one */
    D_SPECIAL,    /* `special NAME=OP(args…)`: XPPAUT's network operators
                     (mmult, sparse, conv, fmmult, fftcon, …): name, rhs (an
                     N_CALL); check/special.c */
    D_SOLVE,      /* `solv NAME=GUESS` / `solve NAME` (XPPAUT): an unknown of the
                     algebraic constraints, name, rhs (its first guess; NULL: 0) */
    D_ALGEBRAIC,  /* `0=EXPR` (XPPAUT): a constraint of a DAE, rhs */
    D_DONE,       /* `done` */
} NodeKind;

/* An array line kept as a loop (front/expand.c): `x[1..100]'=…x[j]…`, or a
 * line of a `%[1..100] … %` block.  Element p (0 … n-1) has XPPAUT's index
 * j = first + dir*p and the name prefix + index + suffix; among the kept
 * lines of its block of the same kind (states, temporaries, aux) it is the
 * pos-th of nlines, so that the elements keep XPPAUT's order (x1 v1 x2 v2 …
 * for a block of x and v). */
typedef struct ArrayLine {
    long first, last, n;
    int dir;                /* +1, or -1 when last < first */
    long mul, add;          /* the declared name's index: mul*j + add (x[j+1]'=… in a block) */
    const char *prefix, *suffix;
    int nlines, pos;        /* within the block (1 and 0 for a line of its own) */
    int block;              /* the block's number (the lines of one block share it), 0: none */
} ArrayLine;

typedef struct Node Node;
struct Node {
    NodeKind kind;
    Loc loc;          /* the whole construct */
    Loc name_loc;     /* the name's span, where the node has a name */
    const char *name; /* as spelled in the file (arena-owned) */
    const char *text; /* N_NUM: the literal as written */
    double num;       /* N_NUM: value; D_GLOBAL: the sign; N_CALL of delay: its
                         call site's number (check/delay.c); an initial value's
                         S_ASSIGN: 1 when written x(0)=…, 3 when from an array
                         line x[a..b](0)=… (no delay history), 2 solv's guess
                         (check/declare.c, check/values.c) */
    Node *lhs, *rhs;  /* operands; S_ASSIGN/D_*: rhs is the value */
    Node *cond;       /* N_IF, S_IF, D_GLOBAL, D_EVENT */
    Node *args;       /* N_CALL, D_CALLDEF, D_TOLERANCE, D_RECORD: list */
    Node *items;      /* D_PAR, D_NUMBER, D_INIT, D_ACC, D_EVENT, D_TOLERANCE,
                         D_REPEAT, D_OPTIONS: list of S_ASSIGN */
    Node *body;       /* S_IF, D_GLOBAL, D_EVENT, D_ON: statement list */
    Node *els;        /* S_IF: else statement list (NULL when absent) */
    Node *next;       /* next element of whichever list this node is in */
    bool paren;       /* written inside parentheses (an expression) */
    bool spaced;      /* S_ASSIGN of par/number/init/@: blanks around '=' */
    bool from_range;  /* D_CALLDEF written out from a line x[a..b](0)=… (XPPAUT's
                         array initial values: no delay history, check/declare.c) */
    struct Symbol *sym;  /* set by the checks: what N_NAME / N_CALL / S_ASSIGN
                            refers to (see model.h); NULL before them */
    /* arrays kept as loops: N_ELEM, N_POS (above); N_SUM: a loop */
    long ix_base, ix_step, ix_from, ix_to;
    bool loop, scalar;
    /* N_SUM as a loop whose bounds (args) are computed per system (parameters);
       N_ELEM whose index is checked as it runs (a shift's offset of parameters,
       tables or such a sum's i'): within span_lo … span_hi, else NaN */
    bool dynamic;
    long span_lo, span_hi;
    Node *more;
    const ArrayLine *array;   /* D_ODE, D_TEMP, D_AUX kept as an array, or NULL */
    int site;            /* N_CALL of ran() or normal(): 1 + its index among the
                            random numbers drawn where it stands (check/noise.c) */
    int site_kind;       /* … and where that is (SiteKind, check/model.h) */
};

/* The parsed file: top-level declarations in file order. */
typedef struct Program {
    const char *path;   /* as given on the command line */
    Node *decls;        /* list through ->next */
} Program;

/* Constructors: every node is built from the span it came from.  All return
 * arena memory; none fails (the arena aborts the run on exhausted memory). */
Node *ast_new(NodeKind kind, Loc loc);
Node *ast_num(Loc loc, const char *text);          /* parses text with strtod */
Node *ast_name(Loc loc, const char *name);
Node *ast_unary(NodeKind kind, Loc loc, Node *operand);
Node *ast_binary(NodeKind kind, Loc loc, Node *lhs, Node *rhs);
Node *ast_if(Loc loc, Node *cond, Node *then_, Node *else_);
Node *ast_paren(Node *inner);                      /* marks an expression written as ( … ) */
Node *ast_call(Loc loc, Loc name_loc, const char *name, Node *args);
Node *ast_assign(Loc loc, Loc name_loc, const char *name, Node *rhs);
Node *ast_append(Node *list, Node *item);          /* returns the list head */
Node *ast_copy(const Node *n);                     /* a deep copy (its `next` NULL) */
Loc   loc_span(Loc first, Loc last);               /* from first's start to last's end */

const char *node_kind_name(NodeKind kind);         /* for dumps and messages */
void ast_dump(const Program *prog, void *file);    /* debugging aid: a FILE* */

#endif
