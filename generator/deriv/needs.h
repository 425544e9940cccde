/* needs.h — what `lyapunov N` and a stiff method ask of the model's
 * derivatives (needs.c), checked after check_program and before anything is
 * written (and by --check): errors where a derivative they need cannot be
 * formed, warnings where f jumps in a state. */
#ifndef ODEGEN_NEEDS_H
#define ODEGEN_NEEDS_H

#include <stdbool.h>

#include "check/model.h"

/* For `lyapunov N`: the Jacobians it needs, and warnings where f jumps in a
 * state; false after reporting an error. */
bool check_lyapunov_derivatives(const Model *m);

/* For a stiff method, whether odegen can differentiate the right-hand side;
 * if not, reports the construct that cannot be at its line and returns false. */
bool method_check_derivatives(const Model *m);

#endif
