/* arena.h — memory for one translator run.  Everything the translator
 * allocates comes from here and is released at exit in one go. */
#ifndef ODEGEN_ARENA_H
#define ODEGEN_ARENA_H

#include <stddef.h>

void *arena_alloc(size_t size);                 /* zeroed; aborts on exhaustion */
char *arena_strdup(const char *s);
char *arena_strndup(const char *s, size_t n);
char *arena_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Room for one more element in an array of n elements of `size` bytes:
 * data itself while *cap allows, else a copy with twice the room. */
void *arena_grow(void *data, int n, int *cap, size_t size);
void arena_free_all(void);

#endif
