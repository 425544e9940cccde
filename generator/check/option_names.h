/* option_names.h — the names of `@` options, matched as XPPAUT matches them. */
#ifndef ODEGEN_OPTION_NAMES_H
#define ODEGEN_OPTION_NAMES_H

#include <stdbool.h>

#include "front/ast.h"

typedef struct OptionName {
    const char *name;     /* odegen's option ("dt", "toler", …), or NULL */
    const char *xppaut;   /* XPPAUT's key that matched, lower case ("tol"), or NULL */
    bool ignored;         /* an XPPAUT option for its display or tools */
} OptionName;

/* What an `@` option's name means.  odegen's own options (hgrow, hshrink,
 * evsteps, evtol, maxsteps, prec) are whole words; the others are XPPAUT's:
 * the first of XPPAUT's keys that the name starts with, in XPPAUT's order
 * (load_eqn.c, set_option), so `tol` and `toler` are toler, `xplot` is xp,
 * `bounds` is bound, `dtm` is dt.  Both fields NULL: no option XPPAUT or
 * odegen knows. */
OptionName option_name(const char *name);

/* The names to suggest for a misspelt option, NULL-terminated. */
extern const char *const option_suggestions[];

/* Whether an option came from the command line (`--option NAME=VALUE`, which
 * Python's odegen.load(options=, method=) passes on) rather than from an `@`
 * line: it has no place in the file.  Such options are not XPPAUT text, so
 * they are read strictly: odegen's names spelled whole, methods by their
 * names, and anything else an error (not XPPAUT's silent readings). */
bool option_from_command_line(const Node *item);

/* Whether `name` is an odegen option spelled as odegen's docs spell it (or
 * XPPAUT's whole word for it: tol, atol, bounds, method), not an abbreviation
 * that only XPPAUT's prefix matching reads. */
bool option_spelled_whole(const char *name);

/* odegen's options (those it acts on), for messages: "meth, dt, …". */
extern const char *const option_list_text;

#endif
