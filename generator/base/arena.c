/* arena.c — a bump allocator over a list of large blocks. */
#include "base/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Block {
    struct Block *prev;
    size_t used, size;
    max_align_t data[];
} Block;

static Block *top;   /* the only state: one arena per process run */

void *arena_alloc(size_t size)
{
    size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!top || top->size - top->used < size) {
        size_t cap = size > (1u << 20) ? size : (1u << 20);
        Block *b = malloc(sizeof(Block) + cap);
        if (!b) {
            fputs("odegen: out of memory\n", stderr);
            exit(2);
        }
        b->prev = top;
        b->used = 0;
        b->size = cap;
        top = b;
    }
    void *p = (char *)top->data + top->used;
    top->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(const char *s, size_t n)
{
    char *p = arena_alloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(const char *s) { return arena_strndup(s, strlen(s)); }

char *arena_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void *arena_grow(void *data, int n, int *cap, size_t size)
{
    if (n < *cap) return data;
    int room = *cap ? 2 * *cap : 16;
    void *p = arena_alloc(size * (size_t)room);
    if (n) memcpy(p, data, size * (size_t)n);
    *cap = room;
    return p;
}

void arena_free_all(void)
{
    while (top) {
        Block *prev = top->prev;
        free(top);
        top = prev;
    }
}
