/* buf.h — a growing text buffer that counts its lines (for #line). */
#ifndef ODEGEN_BUF_H
#define ODEGEN_BUF_H

#include <stddef.h>

#include "base/util.h"

typedef struct Buf {
    char *data;
    size_t len, cap;
    int lines;          /* newlines written so far */
} Buf;

void buf_put(Buf *b, const char *s, size_t n);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...) ODEGEN_PRINTF(2, 3);
void buf_free(Buf *b);

#endif
