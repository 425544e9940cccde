/* tables.c — XPPAUT's tables: their values and their files (their generated
 * code: emit/emit_tables.c).
 *
 * XPPAUT's lookup (tabular.c), which the generated code repeats:
 *   u = (x - xlo) / dx, i = (int)u (truncated toward zero);
 *   u >= n - 1 (or NaN):  y[n-1] + (y[n-1] - y[n-2]) (x - xhi) / dx   the last interval, extended
 *   u <= -1:              y[0] + (y[1] - y[0]) (x - xlo) / dx         the first interval, extended
 *   otherwise             linear between y[i] and y[i+1]; for `i` file tables y[i];
 *                         for `s` file tables a cubic through y[i-1] … y[i+2] when 0 < i < n-2.
 */
#include "check/tables.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arena.h"
#include "base/input_limits.h"
#include "front/diag.h"
#include "base/util.h"

/* ------------------------------------------------------------------ values */

static double cubic(const Table *t, double x, int i)
{
    const double *y = t->y;
    double ym = y[i - 1], y0 = y[i], y1 = y[i + 1], y2 = y[i + 2];
    double b = 0.5 * (y1 + ym - 2 * y0);
    double a = (3 * (y0 - y1) + y2 - ym) / 6;
    double c = (6 * y1 - y2 - 3 * y0 - 2 * ym) / 6;
    double s = (x - t->xlo) / t->dx - i;
    return y0 + s * (c + s * (b + s * a));
}

double table_value(const Table *t, double x)
{
    const double *y = t->y;
    int n = t->n;
    double u = (x - t->xlo) / t->dx;
    if (!(u < n - 1))
        return y[n - 1] + (y[n - 1] - y[n - 2]) * (x - t->xhi) / t->dx;
    if (!(u > -1))
        return y[0] + (y[1] - y[0]) * (x - t->xlo) / t->dx;
    int i = (int)u;
    if (t->interp == TABLE_STEP)
        return y[i];
    if (t->interp == TABLE_CUBIC && i > 0 && i < n - 2)
        return cubic(t, x, i);
    return y[i] + (y[i + 1] - y[i]) * (x - (t->dx * i + t->xlo)) / t->dx;
}

double table_slope(const Table *t, double x)
{
    const double *y = t->y;
    int n = t->n;
    double u = (x - t->xlo) / t->dx;
    if (!(u < n - 1))
        return (y[n - 1] - y[n - 2]) / t->dx;
    if (!(u > -1))
        return (y[1] - y[0]) / t->dx;
    int i = (int)u;
    if (t->interp == TABLE_STEP)
        return 0;
    if (t->interp == TABLE_CUBIC && i > 0 && i < n - 2) {
        double ym = y[i - 1], y0 = y[i], y1 = y[i + 1], y2 = y[i + 2];
        double b = 0.5 * (y1 + ym - 2 * y0), a = (3 * (y0 - y1) + y2 - ym) / 6, c = (6 * y1 - y2 - 3 * y0 - 2 * ym) / 6;
        double s = u - i;
        return (c + s * (2 * b + 3 * s * a)) / t->dx;
    }
    return (y[i + 1] - y[i]) / t->dx;
}

/* ------------------------------------------------------------------ files */

/* The next line of the file (NULL at its end); *lineno counts lines. */
static char *next_line(char **p, int *lineno)
{
    if (!**p)
        return NULL;
    char *s = *p, *e = strchr(s, '\n');
    if (e) {
        *e = '\0';
        *p = e + 1;
    } else {
        *p = s + strlen(s);
    }
    (*lineno)++;
    return s;
}

static bool number_on_line(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (end == s)
        return false;
    while (*end == ' ' || *end == '\t' || *end == '\r')
        end++;
    return *end == '\0' && isfinite(*v);
}

bool table_read_file(Table *t, const char *ode_path, const char *file, Loc where)
{
    /* XPPAUT drops the quotes of "file name" */
    char *name = arena_strdup(file);
    size_t k = 0;
    for (const char *s = file; *s; s++)
        if (*s != '"')
            name[k++] = *s;
    name[k] = '\0';
    const char *slash = strrchr(ode_path, '/');
    const char *path = name[0] == '/' || !slash ? name : arena_printf("%.*s/%s", (int)(slash - ode_path), ode_path, name);
    size_t len;     /* a regular file of sane size: never /dev/zero or a pipe */
    char *text = read_file(path, TABLE_FILE_MAX_BYTES, false, &len);
    if (!text && (errno == EFBIG || errno == ENODEV)) {
        error_at(where, "the table file '%s' is %s", path,
                 errno == EFBIG ? "larger than " TABLE_FILE_MAX_TEXT : "not a file");
        return false;
    }
    if (!text) {
        error_at(where, "cannot read the table file '%s'%s: %s", path,
                 path == name ? "" : " (file names are relative to the .ode file)", strerror(errno));
        return false;
    }
    char *body = arena_strndup(text, len), *p = body;
    free(text);
    if (memchr(body, '\0', len)) {
        error_at(where, "the table file '%s' is not a text file", path);
        return false;
    }
    int lineno = 0;
    char *line = next_line(&p, &lineno);
    t->file = path;
    t->interp = TABLE_LINEAR;
    if (line && (line[0] == 'i' || line[0] == 's')) {
        t->interp = line[0] == 'i' ? TABLE_STEP : TABLE_CUBIC;
        line++;
    }
    double n, xlo, xhi;
    if (line && number_on_line(line, &n) && n > TABLE_MAX_POINTS) {
        error_at(where, "%s:%d: a table has at most " TABLE_MAX_POINTS_TEXT " values (odegen's limit), not %.6g", path,
                 lineno ? lineno : 1, n);
        return false;
    }
    if (!line || !number_on_line(line, &n) || n != floor(n) || n < 2) {
        error_at(where, "%s:%d: the first line of a table file is its number of values (a whole number from 2 to "
                        TABLE_MAX_POINTS_TEXT "), after 'i' for steps or 's' for a cubic", path, lineno ? lineno : 1);
        return false;
    }
    line = next_line(&p, &lineno);
    if (!line || !number_on_line(line, &xlo)) {
        error_at(where, "%s:%d: the second line of a table file is its first x (xlo)", path, lineno + !line);
        return false;
    }
    line = next_line(&p, &lineno);
    if (!line || !number_on_line(line, &xhi)) {
        error_at(where, "%s:%d: the third line of a table file is its last x (xhi)", path, lineno + !line);
        return false;
    }
    if (!(xlo < xhi)) {
        error_at(where, "%s: the table's xlo (%g) must be below its xhi (%g)", path, xlo, xhi);
        return false;
    }
    t->n = (int)n;
    t->xlo = xlo;
    t->xhi = xhi;
    t->dx = (xhi - xlo) / (n - 1);
    t->y = arena_alloc(sizeof(double) * (size_t)t->n);
    for (int i = 0; i < t->n; i++) {
        line = next_line(&p, &lineno);
        if (!line) {
            error_at(where, "%s: the table has %d values, the file %d", path, t->n, i);
            return false;
        }
        if (!number_on_line(line, &t->y[i])) {
            error_at(where, "%s:%d: a table value is one finite number a line", path, lineno);
            return false;
        }
    }
    return true;
}
