/* escape.h — text a user controls (the .ode file's path, a table file's name,
 * the model's source) as it goes into a generated file: one function per
 * target language, so that no such text can end a string, a comment or a
 * line early, and nothing in it is ever run (issue 19, D1).
 *
 * Names a user declares need none: the lexer allows only letters, digits,
 * '_' and '.' in them; the model's name is the file's base name made a C name.
 */
#ifndef ODEGEN_ESCAPE_H
#define ODEGEN_ESCAPE_H

#include <stddef.h>

#include "base/buf.h"

/* The body of a C string literal (between its quotes) holding exactly the
 * bytes s[0..len): printable ASCII as it is, except '"', '\\' and '?' (no
 * trigraphs) escaped; \n and \t; every other byte as three octal digits (so
 * that a digit after it is never read into the escape).  Pure ASCII, one line.
 * For string literals and #line directives (the compilers decode it back to
 * the exact name). */
void put_c_string(Buf *o, const char *s, size_t len);
const char *c_string(const char *s);

/* Text for the inside of a C comment: as c_string, and no "*" "/" or "/" "*"
 * (written "*\/" and "/\*"), so that the comment cannot end early; one line. */
const char *c_comment(const char *s);

/* Text for a '#' comment of a Makefile: one line (make ends a comment at a
 * newline not escaped), with c_comment's escapes; any run of backslashes it
 * holds at its end is even, so it never continues onto the next line. */
const char *make_comment(const char *s);

#endif
