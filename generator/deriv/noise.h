/* noise.h — how the Wiener processes enter the equations (noise.c): the
 * drift and noise terms of the SDE, its class (additive, diagonal,
 * commutative, general), and the check of what the chosen method can
 * integrate. */
#ifndef ODEGEN_NOISE_H
#define ODEGEN_NOISE_H

#include <stdbool.h>

#include "check/model.h"
#include "deriv/expr_graph.h"
#include "deriv/time_trig.h"

typedef struct NoiseGraphs {
    const Model *m;
    XGraph *g;
    XNode **f;          /* [n] the right-hand side, w as variables */
    XNode **drift;      /* [n] a = f with every w = 0 */
    XNode **b;          /* [nw * n] b^j_i = ∂f_i/∂w_j at [j * n + i] */
    XNode **L;          /* [nw * nw * n] L^{jk}_i = Σ_l b^j_l ∂b^k_i/∂y_l at [(j * nw + k) * n + i] */
    bool affine;        /* every ∂b^j/∂w_k is 0 */
    int nonlinear_row, nonlinear_w;   /* (not affine: where) */
    bool additive;      /* no b^j depends on a state (markov states aside) */
    bool mult_row_set;
    int mult_row, mult_w;             /* (not additive: the first b^j_i that does) */
    bool diagonal;      /* each w drives one equation, each equation one w */
    bool commutative;   /* L^{jk} and L^{kj} are the same node for j ≠ k */
    int cross_row, cross_j, cross_k;  /* (not commutative: where) */
    bool failed;        /* a construct could not be differentiated */
    Loc fail_loc;
    const char *fail_msg;
} NoiseGraphs;

/* The graphs of a model with Wiener processes (trig: the right-hand side's
 * sin/cos of time, find_time_trig has run). */
NoiseGraphs *noise_build(const Model *m, const TimeTrig *trig);

/* "additive", "diagonal", "commutative", … (for comments and notes). */
const char *noise_class(const NoiseGraphs *N);

/* What the method (@ meth) can do with the model's noise: an error at the
 * line where it cannot (milstein with non-commutative noise, an SDE method
 * with noise that enters nonlinearly), a note where XPPAUT's reading
 * differs from the Ito SDE (rk4, modeuler with multiplicative noise), a
 * warning where w enters nonlinearly; false after an error. */
bool noise_check_methods(const Model *m);

#endif
