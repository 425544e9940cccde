/* emitter.h — what the files of emit/ share, for emit/ only: the Emitter
 * (the model, the text being written, the state of #line), the symbols a
 * piece of code reads (Refs), and each piece's entry point.  emit.c lays the
 * pieces out; the face of emit/ is emit.h.
 */
#ifndef ODEGEN_EMITTER_H
#define ODEGEN_EMITTER_H

#include <stdbool.h>

#include "base/buf.h"
#include "check/model.h"
#include "deriv/expr_graph.h"
#include "deriv/time_trig.h"

typedef struct Emitter {
    const Model *m;
    Buf *out;
    const char *cu_name;      /* NAME.cu, for #line back into the generated file */
    const char *path_c;       /* the .ode file's path in a C string (#line): escape.h */
    const char *path_comment; /* … and in a comment */
    bool in_user_line;        /* a #line into the .ode file is in force */
    bool single;              /* float precision */
    unsigned long long powers;/* bit k: the helper for x^k (2 ≤ k < 64) is needed */
    TimeTrig trig;            /* the right-hand side's sin/cos of time (deriv/time_trig.c) */
    bool use_trig;            /* inside ode_model_rhs: read them from ode_tr */
    struct Jacobian *jac;     /* the model's derivatives (emit_jacobian.c) */
    /* arrays kept as loops (emit_loops.c) and sums as loops (emit_body.c) */
    const char *pos;          /* the C expression of the position p in an array line's loop, or NULL */
    const char *states;       /* where an element of the states is read: "ode_y" (default) or "ode_s->y" */
    bool scratch;             /* array temporaries are read from ode_scratch (else computed where read) */
    bool team;                /* a function a team runs: a sum outside an array's loop is a team reduction */
    struct SumLocal *sums;    /* sums written as loops: the local that holds each, by node and position */
    int nsums, capsums, sum_count;
    /* the right-hand side over a lane's tile (emit_tile.c): every state an element of
     * NARR arrays of tile_len, read at p + d with |d| <= tile_halo (0: no tile) */
    bool tile;                /* writing the tile function: state reads from ode_in */
    bool tile_fail;           /* … and one read (or piece) a tile cannot hold */
    const char *tile_pos;     /* the tile loop's position (E->pos there) */
    long tile_len;
    int tile_narr, tile_halo, tile_halo_max;
    /* A stiff method's factorisation (emit_lu.c): written out (lu_loop false), or in loop
     * form (templates/team_lu.h) over the storage lu_storage.h names. */
    bool lu_loop;
    int lu_kind, lu_kl, lu_ku;  /* ODE_LU_DENSE 0, ODE_LU_BAND 1, ODE_LU_SPARSE 2; the band's diagonals */
    int *lu_perm;             /* the states' places in W (reverse Cuthill–McKee), or NULL */
    struct LuPlan *lu_plan;   /* ODE_LU_SPARSE: the symbolic factorisation (emit_lu.c) */
} Emitter;

/* The symbols a piece of code reads (emit_body.c). */
typedef struct Refs {
    const Symbol **s;   /* in the order they were met */
    int n;
    const Symbol **set; /* the same, by hash of the pointer (open addressing) */
    int setcap;
    const TimeTrig *trig_from;  /* sin/cos of time read from ode_tr: their arguments are not read */
} Refs;
typedef enum { STATES_FROM_Y, STATES_FROM_SYSTEM } StateSource;

/* Every symbol an expression reads, following temporaries and aux. */
void refs_expr(Refs *r, const Node *n);
/* One symbol more (once); whether one is there; the k-th removed (the last takes its place). */
void refs_add(Refs *r, const Symbol *s);
bool refs_has(const Refs *r, const Symbol *s);
void refs_remove_at(Refs *r, int k);
/* Declares, as locals, the values a piece reads (see emit_body.c). */
void emit_locals(Emitter *E, const Refs *r, const Refs *assigned, StateSource src, bool hook, int event);
/* Temporaries (in dependency order), then aux, that the piece reads. */
void emit_computed(Emitter *E, const Refs *r);
/* A hook's body: locals, the statements of a and then b, the write-back. */
void emit_block_body(Emitter *E, const Node *a, const Node *b, int event);
/* The loops of the sums an expression holds (sums of ARRAY_LOOP_MIN terms or
 * more, front/expand.h), written before the statement that reads them: each
 * into a local ode_sumK that emit_value then reads.  `pad`: indentation. */
void emit_sum_loops(Emitter *E, const Node *n, const char *pad);
/* (emit_expr.c, for emit_body.c) the local of a sum just written; the C
 * position of an element computed where it is read. */
void emit_sum_loops_record(Emitter *E, const Node *sum, int k);
const char *element_position(Emitter *E, const Node *r);
/* Whether an expression reads the scratch of array temporaries. */
bool reads_scratch(const Node *n);
/* A model whose arrays stay arrays: the right-hand side and the event
 * functions in loop form (emit_loops.c). */
void emit_loop_rhs(Emitter *E);
void emit_loop_events(Emitter *E);
/* Events written out from one array line, found again as runs (emit_runs.c):
 * len[k] the run's length from piece k (1: alone; 0 inside a run), text[k] the
 * run written once at position ode_p. */
typedef struct Runs {
    int *len;
    char **text;
} Runs;
/* The events' functions (ode_g[e] = …): their runs. */
Runs event_runs(Emitter *E);
/* A run from event e as one ODE_TEAM_FOR loop in ode_model_events_team. */
void emit_event_run(Emitter *E, const Runs *er, int e);
/* Pieces of code, bodies[k] one per event (NULL: alone; only pieces of one group
 * join a run): their runs. */
Runs body_runs(char *const *bodies, const int *group, int n);
void emit_loop_fields(Emitter *E);
/* The right-hand side over one lane's tile of arrays of stencils (emit_tile.c):
 * whether the model has one (E->tile_len …, before the constants), its
 * constants, the function. */
void emit_tile_plan(Emitter *E);
void emit_tile_constants(Emitter *E);
void emit_tile_rhs(Emitter *E);
/* XPPAUT's network operators: a function per special (emit_specials.c). */
void emit_specials(Emitter *E);
/* Whether statements assign t0 or t1 (`on start`'s: runtime/library.c then
 * leaves the window's check to the kernel). */
bool block_sets_window(const Node *stmts);
/* #line into the .ode file, and back into the generated one. */
void to_user_line(Emitter *E, int line);
void to_generated(Emitter *E);

/* A literal of the model's precision that reads back to exactly v. */
const char *c_literal(double v, bool single);
/* The expression as C, for a context of the given C precedence. */
void emit_value(Emitter *E, const Node *n, int prec);
/* The expression as a C condition (int). */
void emit_cond(Emitter *E, const Node *n, int prec);
/* Gives every user symbol its C identifier (renaming clashes with C). */
void assign_cnames(Model *m);
/* The integer exponent of x^n that becomes multiplications, or 0. */
int integer_power(const Node *pow_node);
/* odegen's version, the .ode file's name and text, the options (emit_provenance.c). */
void emit_provenance(Emitter *E);
/* Once NAME.cu is complete: ODE_GENERATED_HASH, a hash of its code. */
void emit_generated_hash(Emitter *E);
/* The model's tables: their values and lookup functions (emit_tables.c). */
void emit_tables(Emitter *E);
/* Initial values that are expressions of parameters, and the file's
 * parameter sets (emit_values.c). */
void emit_initial(Emitter *E);
/* emit_dae.c: algebraic constraints (solv, 0=).  Whether an explicit method
 * solves them by Newton in the right-hand side (dae.h: the generated one is
 * then ode_model_dae_rhs, its events ode_model_dae_events); whether the model
 * needs the LU of emit_lu.c (a stiff method, or Newton's matrix). */
bool dae_by_newton(const Model *m);
bool needs_lu(const Model *m);
void emit_dae_constants(Emitter *E);
/* emit_delay.c: delay(x, tau)'s constants, history and constant delays */
void emit_delay_constants(Emitter *E);
void emit_delay_functions(Emitter *E);
void emit_sets(Emitter *E);

/* `lyapunov` and `period` (emit_lyapunov.c): their constants (with the
 * model's), the cases of ode_model_field from `code` on (lyap1 … lyapN,
 * period), and the quantities period compares. */
void emit_lyapunov_constants(Emitter *E);
void emit_statement_fields(Emitter *E, int code);
void emit_period_values(Emitter *E);
/* The field code of a recordable symbol (emit.c): states, aux, accessories, parameters, derived, t, t0, t1,
 * lyap1 … lyapN, period, attractor. */
int emit_field_code(const Model *m, const Symbol *s);

/* Differentiates the model (before the helpers are written: marks the
 * ode_powK it needs), then writes its derivative functions (emit_jacobian.c). */
void emit_jacobian_prepare(Emitter *E);
void emit_jacobian(Emitter *E);
void emit_jacobian_team(Emitter *E);
/* A stiff method's factorisation (emit_lu.c): chosen from J's pattern, its constants
 * (with the model's), then the functions or tables. */
void emit_lu_prepare(Emitter *E);
void emit_lu_constants(Emitter *E);

/* One output of a function written from an expression graph: `lhs = expr;`
 * with a comment and #line (emit_jacobian.c writes them all, shared nodes
 * computed once into locals ode_x0, ode_x1, …; variables read from the
 * stage vector ode_y, or with at_system from the system ode_s->y). */
typedef struct GraphOut {
    const char *lhs;      /* "ode_J[3]" */
    XNode *expr;
    const char *what;     /* "d(y2')/d(y1)": the comment (NULL: none) */
    int line;             /* the .ode line it comes from (0: none) */
    const char *guard;    /* written only where this holds (a team's lane: "ODE_TEAM_MINE(3)"), or NULL */
} GraphOut;
void emit_graph_outputs(Emitter *E, XGraph *g, const GraphOut *outs, int nouts, bool at_system,
                        const char *pad);

/* The noise (emit_noise.c): its constants (with the model's), the draws of
 * a step, the markov chains' jumps, the SDE methods' terms. */
void emit_noise_constants(Emitter *E);
void emit_noise(Emitter *E);

/* A stiff method's LU factorisation of W = I/(hγ) - J and its solve,
 * unrolled for the model's size and sparsity (emit_lu.c). */
void emit_lu(Emitter *E);

#endif
