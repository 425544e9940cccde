/* util.h — small helpers shared by the generator's passes. */
#ifndef ODEGEN_UTIL_H
#define ODEGEN_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* printf-like functions: the compiler checks their format against the arguments. */
#if defined(__GNUC__)
#define ODEGEN_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define ODEGEN_PRINTF(fmt, args)
#endif

/* Names are case-insensitive, as in XPPAUT. */
bool name_eq(const char *a, const char *b);
/* Edit distance (Damerau–Levenshtein, case-insensitive), for "did you mean". */
int name_distance(const char *a, const char *b);

/* Reads a whole file of at most max bytes: a regular file, or with pipes a
 * pipe (FIFO) too, whose end is read up to max; NUL-terminated.  NULL with
 * errno set on failure: EISDIR a directory, ENODEV anything else that is no
 * regular file (a device such as /dev/zero, which never ends), EFBIG more
 * than max bytes (nothing more is read), or the system's error. */
char *read_file(const char *path, size_t max, bool pipes, size_t *len);
/* The reason for read_file's errno, as a message ("too large": say the limit). */
const char *read_file_error(int err);

#endif
