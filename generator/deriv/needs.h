/* lyapunov.h — the checks `lyapunov N` makes on the model's derivatives
 * (lyapunov.c): errors where a derivative it needs cannot be formed,
 * warnings where f jumps in a state. */
#ifndef ODEGEN_LYAPUNOV_H
#define ODEGEN_LYAPUNOV_H

#include "check/model.h"

void check_lyapunov_derivatives(const Model *m);

#endif
