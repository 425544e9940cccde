/* history.h — the slopes of the initial functions x(0)=EXPR of t of a model
 * with delays (history.c): what a stiff method's df/dt reads while a delay
 * reaches back before the start (templates/delay.h, ode_delay_slope). */
#ifndef ODEGEN_HISTORY_H
#define ODEGEN_HISTORY_H

#include "check/model.h"
#include "deriv/expr_graph.h"

typedef struct HistorySlopes {
    XGraph *g;
    XNode **slope;      /* [ndelay] d(EXPR)/dt of delayed state k, NULL where it has no x(0)=EXPR */
    const char **fail;  /* [ndelay] why it could not be formed (then slope is NULL), or NULL */
} HistorySlopes;

HistorySlopes *history_slopes(const Model *m);

#endif
