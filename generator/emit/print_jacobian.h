/* print_jacobian.h — `odegen --print jacobian`: the derivatives, readably. */
#ifndef ODEGEN_PRINT_JACOBIAN_H
#define ODEGEN_PRINT_JACOBIAN_H

#include <stdio.h>

#include "check/model.h"

/* Prints every derivative the generated code computes; reports (at its line)
 * a construct that cannot be differentiated.  Returns the exit status. */
int print_jacobian(const Model *m, FILE *out);

#endif
