/* parse.h — from .ode text to a syntax tree (lexer.l + parser.y). */
#ifndef ODEGEN_PARSE_H
#define ODEGEN_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include "front/ast.h"

/* Parses the whole text.  Syntax errors are reported through diag.h (all of
 * them, with recovery at the end of each statement) and counted there; the
 * returned program holds every declaration that parsed.  Never returns NULL.
 * `text` need not be NUL-terminated and may contain any bytes. */
Program *parse_program(const char *path, const char *text, size_t len);

/* The statement keyword a word at the start of a line is probably a
 * misspelling of (`apr`: par), or NULL; `block`: inside { } (`if`). */
const char *statement_near(const char *word, bool block);

#endif
