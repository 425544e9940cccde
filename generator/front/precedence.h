/* precedence.h — expressions that XPPAUT would read differently. */
#ifndef ODEGEN_PRECEDENCE_H
#define ODEGEN_PRECEDENCE_H

#include "front/ast.h"

/* Reports (error_at) every place in n where an operand without parentheses
 * would group differently under XPPAUT's precedence than under odegen's
 * conventional one.  For expressions of XPPAUT statements only. */
void check_xpp_precedence(const Node *n);

#endif
