/* tables.h — XPPAUT's tables: `table f % n xlo xhi expr` and `table f FILE`.
 *
 * A table is n values at evenly spaced x; f(x) interpolates them linearly
 * (or, for file tables that ask so, takes the value at the start of the step,
 * or a cubic) and extrapolates linearly beyond the ends, from the first and
 * the last interval — what XPPAUT's lookup (tabular.c) computes.  The values
 * are computed or read when odegen translates the file, and the generated
 * code holds them as constant data (__constant__ memory on the GPU, static
 * const arrays on the CPU).
 */
#ifndef ODEGEN_TABLES_H
#define ODEGEN_TABLES_H

#include <stdbool.h>

#include "front/ast.h"
#include "check/model.h"

/* f(x), as the generated code computes it (in double), and the slope of
 * its interpolant at x (of the segment x lies on; a step table's is 0). */
double table_value(const Table *t, double x);
double table_slope(const Table *t, double x);

/* Reads an XPPAUT table file into t (n, xlo, xhi, dx, interp, y): its first
 * line holds the number of values (after `i` for steps or `s` for a cubic),
 * then xlo, xhi and the values, one per line.  `file` is relative to the
 * directory of the .ode file `ode_path`.  Reports errors at `where`. */
bool table_read_file(Table *t, const char *ode_path, const char *file, Loc where);

#endif
