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
void arena_free_all(void);

#endif
