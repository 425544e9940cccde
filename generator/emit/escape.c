/* escape.c — user text in generated files (see escape.h). */
#include "emit/escape.h"

#include <string.h>

#include "base/arena.h"

void put_c_string(Buf *o, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\' || c == '?') buf_printf(o, "\\%c", c);
        else if (c == '\n') buf_puts(o, "\\n");
        else if (c == '\t') buf_puts(o, "\\t");
        else if (c < 32 || c > 126) buf_printf(o, "\\%03o", c);
        else buf_put(o, (const char *)&c, 1);
    }
}

static const char *to_string(Buf *b)
{
    const char *s = arena_strndup(b->data ? b->data : "", b->len);
    buf_free(b);
    return s;
}

const char *c_string(const char *s)
{
    Buf b = {0};
    put_c_string(&b, s, strlen(s));
    return to_string(&b);
}

const char *c_comment(const char *s)
{
    const char *text = c_string(s);
    Buf b = {0};
    for (const char *p = text; *p; p++) {
        if ((*p == '/' && p > text && p[-1] == '*') || (*p == '*' && p > text && p[-1] == '/')) buf_puts(&b, "\\");
        buf_put(&b, p, 1);
    }
    return to_string(&b);
}

const char *make_comment(const char *s)
{
    return c_comment(s);   /* one line; backslashes only doubled, or before a character */
}
