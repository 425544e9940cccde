/* expand.h — XPPAUT's arrays, expanded into scalar statements before the checks,
 * or kept as arrays (loops in the generated code) when they are large.
 *
 * XPPAUT expands arrays textually when it reads a file: a line that holds a
 * range [first..last] is repeated for j = first … last, with [j], [j+1],
 * [j-1], [j*2] replaced by numbers (x[j] becomes x3); the lines between
 * `%[first..last]` and `%` are repeated the same way, all of them for one j,
 * then all for the next.  A whole number in brackets is the number itself
 * (x[3] is x3).  odegen does the same on the syntax tree: every copy keeps
 * the source span of the line it came from, so that messages point at it.
 */
#ifndef ODEGEN_EXPAND_H
#define ODEGEN_EXPAND_H

#include <stddef.h>

#include "front/ast.h"

typedef enum IndexKind {
    IX_RANGE,   /* [first..last]: this line is repeated; j where it stands */
    IX_J,       /* [j], [j+N], [j-N], [j*N]: mul * j + add */
    IX_CONST,   /* [N]: add */
} IndexKind;

typedef struct Index {
    IndexKind kind;
    long first, last;   /* IX_RANGE */
    long mul, add;      /* IX_J, IX_CONST */
} Index;

/* Reads the text between '[' and ']' (len bytes); returns NULL, or what is
 * wrong with it (a message for the user). */
const char *index_parse(const char *text, size_t len, Index *ix);

/* Arrays stay arrays — their equations, temporaries and aux written once
 * and computed by a loop over the index (check/arrays.c, emit/emit_loops.c)
 * — in a model whose largest array line (or %-block) has at least
 * ARRAY_LOOP_MIN elements, or that has a `special`.  Below it every array is
 * written out, as XPPAUT does with the text: each element a scalar, which a
 * GPU thread keeps in its registers (the team layout's rule also starts at 64
 * states: templates/team.h, check/layout.c).  `@ arrays=loop|written|auto`
 * chooses for a model (README, "Large and coupled models").  A model that
 * needs the derivatives of its right-hand side (a stiff method, lyapunov:
 * needs_derivatives, the line that asks) keeps its arrays written out under
 * auto, with a note, since the derivative engine differentiates equations
 * written out only; @ arrays=loop there is an error (deriv/jacobian.c).  A
 * model with more than 64 events (one thread's limit) keeps its arrays: the
 * rule gives it a team (check/layout.c), which integrates the loop form. */
#define ARRAY_LOOP_MIN 64
/* A model whose shorter array lines declare ARRAY_STATES_MIN states or more
 * together (a chain of 32 units: two arrays of 32) is tried with its arrays as
 * loops too (prefer_loops), and kept so where the layout's rule then gives it
 * a team (check.c): on an H100 the chain of 64 states ran 9x faster in a warp
 * of 32 over the loops than one thread written out (2.2e11 against 2.4e10
 * state-steps per second, bench/BENCHMARKS.md). */
#define ARRAY_STATES_MIN 64

typedef enum ArrayMode { ARRAYS_AUTO, ARRAYS_LOOP, ARRAYS_WRITTEN } ArrayMode;

/* The program with its arrays expanded (a new list of declarations; the
 * nodes without arrays are shared), or, where they stay arrays, equations,
 * temporaries and aux kept once with their index (Node.array; the other
 * lines, parameters and initial values, events, still written out).  *kept:
 * whether they stay arrays.  Errors are reported through diag.h. */
Program *expand_arrays(const Program *prog, const Node *needs_derivatives, bool prefer_loops, bool *kept);
/* `@ arrays=…` (the last one; ARRAYS_AUTO without one), and the number of
 * states the array lines declare (check.c: whether to try them as loops). */
ArrayMode array_mode(const Program *prog);
long array_states(const Program *prog);
/* Whether the arrays stay loops under `@ arrays=auto` by their own length (or a special). */
bool arrays_stay(const Program *prog);

/* XPPAUT's sum(first,last)of(body), written out: body with i' = first, plus
 * body with i' = first + 1, … (a new expression; 0 when last < first).  The
 * terms are added left to right, as XPPAUT does; beyond 256 terms pairwise,
 * so that no tree gets deep.  NULL when the file's sums together would
 * write out more than a few million terms.  A sum of ARRAY_LOOP_MIN terms or
 * more is not written out but computed by a loop (check/arrays.c). */
Node *sum_expand(const Node *sum, long first, long last);
/* A sum inside the expression, or NULL. */
const Node *sum_inside(const Node *n);

#endif
