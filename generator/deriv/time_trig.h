/* time_trig.h — sin and cos of time in the right-hand side (time_trig.c):
 * arguments affine in t, whose sin and cos the solver computes once per step. */
#ifndef ODEGEN_TIME_TRIG_H
#define ODEGEN_TIME_TRIG_H

#include <stdbool.h>

#include "check/model.h"
#include "front/ast.h"

/* sin(arg) / cos(arg) in the right-hand side, with arg affine in t
 * (a t + b, a and b fixed per system): computed once per step (solver.h). */
typedef struct TrigArg {
    const Node *arg;
    bool need_sin, need_cos;
} TrigArg;

/* The right-hand side's sin/cos of time: slot k is arg[k]. */
typedef struct TimeTrig {
    TrigArg *arg;
    int n;
} TimeTrig;

/* Finds the sin/cos of time in the right-hand side (tt starts zeroed). */
void find_time_trig(const Model *m, TimeTrig *tt);
/* The slot of tt for this argument, or -1. */
int trig_index(const TimeTrig *tt, const Node *arg);
/* d/dt of an argument affine in t, as an expression (NULL for 0). */
Node *time_rate(const Node *arg);

#endif
