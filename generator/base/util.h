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

/* Reads a whole file; returns NULL and sets errno on failure. */
char *read_file(const char *path, size_t *len);

#endif
