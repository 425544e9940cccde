/* method.h — the `meth` option's values: odegen's method names and XPPAUT's,
 * read as XPPAUT reads them. */
#ifndef ODEGEN_METHOD_H
#define ODEGEN_METHOD_H

#include "check/model.h"

/* Sets m->method from the value of a `meth` (or `method`) option item, or
 * reports an error (or a note) at the value. */
void check_method_option(Model *m, const Node *item);

/* odegen's own name of a method ("rk4", "dopri5", …). */
const char *method_name(Method method);

/* Whether the method controls its step size (toler, atoler, dtmin, dtmax, …
 * apply). */
bool method_is_adaptive(Method method);

/* Whether the method is linearly implicit (rodas5p, ros3p: it needs the
 * exact Jacobian and the generated LU, emit_lu.c). */
bool method_is_rosenbrock(Method method);
/* The same for a `meth` option's word, read as check_method_option reads it,
 * without messages (a first look, before the checks: front/expand.h). */
bool method_word_is_rosenbrock(const char *word);

/* A sentence describing a method, for comments in the generated code. */
const char *method_description(Method method);

#endif
