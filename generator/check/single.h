/* single.h — notes for a model integrated in single precision (single.c). */
#ifndef ODEGEN_SINGLE_H
#define ODEGEN_SINGLE_H

#include "front/ast.h"

/* Notes, at their places, the literals float cannot hold and the relative
 * tolerances it cannot reach. */
void check_single_precision(const Program *prog);

#endif
