/* diag.c — `file:line:col: error: message`, the source line, a caret line.
 *
 *   valve.ode:3:6: error: unknown name 'kapa'; did you mean 'kappa'?
 *       3 | y2'=-kapa*y2-(y1+delta)+y3
 *         |      ^~~~
 *
 * Columns are 1-based byte offsets in the physical line.  In the caret line,
 * tabs of the source line stay tabs (so the caret lines up whatever the tab
 * width), a UTF-8 character takes one column, and control characters of the
 * source line are shown as '?'.
 */
#include "front/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

static struct {
    const char *path;
    const char *text;
    size_t len;
    size_t *line_start;     /* offsets of the line starts, built on first use */
    int nlines;
    FILE *stream;
    int errors;
    FILE *hold;             /* diag_hold: the messages held back, and their errors */
    char *held;
    size_t held_len;
    int held_errors;
    char *previous;         /* the last message written (report: a repeat is not) */
} src;

void diag_set_source(const char *path, const char *text, size_t len)
{
    src.path = path;
    src.text = text;
    src.len = len;
    src.line_start = NULL;
    src.nlines = 0;
    src.errors = 0;
}

void diag_set_stream(FILE *stream) { src.stream = stream; }

void diag_replace_text(const char *text, size_t len)
{
    src.text = text;
    src.len = len;
    src.line_start = NULL;
    src.nlines = 0;
}

const char *diag_source(size_t *len)
{
    if (len) *len = src.len;
    return src.text;
}

int diag_error_count(void) { return src.errors + src.held_errors; }

static FILE *out(void) { return src.hold ? src.hold : src.stream ? src.stream : stderr; }

/* (held or not, a message is compared with the last one of its own stream) */
static void forget_previous(void)
{
    free(src.previous);
    src.previous = NULL;
}

bool diag_hold(void)
{
    forget_previous();
    src.held = NULL;
    src.held_len = 0;
    src.held_errors = 0;
    src.hold = open_memstream(&src.held, &src.held_len);
    return src.hold != NULL;
}

int diag_release(bool keep)
{
    const int errors = src.held_errors;
    if (src.hold) {
        fclose(src.hold);
        src.hold = NULL;
        if (keep && src.held_len) {
            fwrite(src.held, 1, src.held_len, out());
            fflush(out());
        }
        free(src.held);
        src.held = NULL;
    }
    src.held_errors = 0;
    if (keep) src.errors += errors;
    forget_previous();
    return errors;
}

static void index_lines(void)
{
    size_t n = 1;
    for (size_t i = 0; i < src.len; i++)
        n += src.text[i] == '\n';
    src.line_start = arena_alloc(n * sizeof *src.line_start);
    size_t k = 0;
    src.line_start[k++] = 0;
    for (size_t i = 0; i < src.len; i++)
        if (src.text[i] == '\n')
            src.line_start[k++] = i + 1;
    src.nlines = (int)k;
}

/* The bytes of line `line` (1-based), without its newline and a CR before it. */
static bool get_line(int line, const char **start, size_t *len)
{
    if (!src.text || line < 1)
        return false;
    if (!src.line_start)
        index_lines();
    if (line > src.nlines)
        return false;
    size_t b = src.line_start[line - 1], e = b;
    while (e < src.len && src.text[e] != '\n')
        e++;
    if (e > b && src.text[e - 1] == '\r')
        e--;
    *start = src.text + b;
    *len = e - b;
    return true;
}

static bool continuation_byte(unsigned char c) { return (c & 0xC0) == 0x80; }

static void show_source(FILE *f, Loc loc)
{
    const char *s;
    size_t n;
    if (!get_line(loc.line, &s, &n))
        return;
    fprintf(f, "%5d | ", loc.line);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        fputc(c == '\t' || c >= 0x80 || (c >= 0x20 && c != 0x7F) ? c : '?', f);
    }
    fputc('\n', f);

    /* caret line: blanks up to the column, '^', then '~' to the span's end
     * (or to the end of the line when the span goes on below) */
    size_t col = loc.col > 0 ? (size_t)loc.col : 1;
    size_t last = col;
    if (loc.end_line == loc.line && loc.end_col > loc.col)
        last = (size_t)loc.end_col;
    else if (loc.end_line > loc.line && n > col)
        last = n;
    fputs("      | ", f);
    for (size_t i = 0; i + 1 < col; i++) {
        unsigned char c = i < n ? (unsigned char)s[i] : ' ';
        if (c == '\t')
            fputc('\t', f);
        else if (!continuation_byte(c) || i >= n)
            fputc(' ', f);
    }
    fputc('^', f);
    for (size_t i = col; i < last; i++)
        if (i >= n || !continuation_byte((unsigned char)s[i]))
            fputc('~', f);
    fputc('\n', f);
}

/* The message is composed in memory and written in one go: stderr is
 * unbuffered, and a long source line would otherwise cost a write per byte.
 * A message that repeats the previous one word for word (an array line
 * written out for each of its elements reports the same place each time) is
 * written once.  Returns whether it was written. */
static bool report(Loc loc, const char *kind, const char *fmt, va_list ap)
{
    char *msg = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&msg, &size);
    if (!f)
        f = out();
    const char *path = src.path ? src.path : "<input>";
    if (loc.line > 0)
        fprintf(f, "%s:%d:%d: %s: ", path, loc.line, loc.col, kind);
    else
        fprintf(f, "%s: %s: ", path, kind);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
    if (loc.line > 0)
        show_source(f, loc);
    if (f == out())
        return true;
    fclose(f);
    if (src.previous && strcmp(src.previous, msg) == 0) {
        free(msg);
        return false;
    }
    fwrite(msg, 1, size, out());
    fflush(out());
    free(src.previous);
    src.previous = msg;
    return true;
}

void error_at(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (report(loc, "error", fmt, ap)) *(src.hold ? &src.held_errors : &src.errors) += 1;
    va_end(ap);
}

void note_at(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(loc, "note", fmt, ap);
    va_end(ap);
}

void warning_at(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(loc, "warning", fmt, ap);
    va_end(ap);
}

void error_file(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Loc none = {0, 0, 0, 0};
    if (report(none, "error", fmt, ap)) *(src.hold ? &src.held_errors : &src.errors) += 1;
    va_end(ap);
}

const char *diag_source_text(Loc loc)
{
    const char *start;
    size_t len;
    if (!get_line(loc.line, &start, &len) || loc.col < 1 || (size_t)loc.col > len + 1)
        return "";
    size_t from = (size_t)loc.col - 1, to = len;
    if (loc.end_line == loc.line && (size_t)loc.end_col < len)
        to = (size_t)loc.end_col;
    return arena_strndup(start + from, to > from ? to - from : 0);
}
