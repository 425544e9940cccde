/* diag.h — error and note messages that point into the .ode file.
 *
 *   valve.ode:3:6: error: unknown name 'kapa'; did you mean 'kappa'?
 *       3 | y2'=-kapa*y2-(y1+delta)+y3
 *         |      ^~~~
 *
 * The source text is registered once (diag_set_source); messages are counted,
 * never fatal: the translator keeps going and reports every error in one run.
 */
#ifndef ODEGEN_DIAG_H
#define ODEGEN_DIAG_H

#include <stdio.h>

#include "base/util.h"
#include "front/ast.h"

/* The file being translated: its path as given and its whole text.  Starts a
 * new count of errors (a process may translate several texts: the fuzzer). */
void diag_set_source(const char *path, const char *text, size_t len);
void diag_set_stream(FILE *stream);      /* default: stderr */
/* The text that later messages show, in place of the registered one (the count
 * of errors goes on): XPPAUT's old format, read as its rewritten lines. */
void diag_replace_text(const char *text, size_t len);
/* The registered text (for the generated file's copy of the source). */
const char *diag_source(size_t *len);

/* `path:line:col: error: message`, then the source line and a caret under the
 * span (only its first line, when it covers several). */
void error_at(Loc loc, const char *fmt, ...) ODEGEN_PRINTF(2, 3);
/* Same, with `note:` — used for accepted-but-ignored XPPAUT options. */
void note_at(Loc loc, const char *fmt, ...) ODEGEN_PRINTF(2, 3);
/* Same, with `warning:` — a result that may be wrong (not counted as an error). */
void warning_at(Loc loc, const char *fmt, ...) ODEGEN_PRINTF(2, 3);
/* An error with no place in the file (e.g. an empty model): `path: error: …`. */
void error_file(const char *fmt, ...) ODEGEN_PRINTF(1, 2);

int diag_error_count(void);

/* A trial (check.c: a model's arrays kept as loops, taken if it checks): from
 * diag_hold on, messages are held back — counted, not written (false: they
 * cannot be, out of memory; then no trial); diag_release writes them (keep)
 * or drops them with their errors, and returns how many errors they held. */
bool diag_hold(void);
int diag_release(bool keep);

/* The source text of a span (its first line only), as a new string; "" when
 * the span is not in the file. */
const char *diag_source_text(Loc loc);

#endif
