/* old_format.h — XPPAUT's old file format (a first line holding the number of
 * equations), rewritten line for line into the new format. */
#ifndef ODEGEN_OLD_FORMAT_H
#define ODEGEN_OLD_FORMAT_H

#include <stddef.h>

/* The text in the new format (the same number of lines, so messages keep
 * their line numbers) when `text` is in XPPAUT's old format, with a note
 * saying so and errors for what that format holds and odegen does not read;
 * NULL for a file in the new format. */
const char *old_format_rewrite(const char *text, size_t len, size_t *out_len);

#endif
