/* old_format.c — XPPAUT's old file format, rewritten line for line into the
 * new one before it is scanned.
 *
 * XPPAUT (form_ode.c, get_eqn) reads a file whose first line holds a positive
 * number (atoi) as its old format: that number NEQ counts the equations, and
 * every later line is a command known by its first letter (compiler()):
 *
 *   v x=1,y=2   variables (states) and initial values   → init x=1, y=2
 *   f a,b       fixed variables (temporaries), named     (their formulas follow)
 *   a n1,n2     names of the auxiliary variables         (their formulas follow)
 *   o FORMULA   the next right-hand side, in order: the variables' ODEs, then
 *               the fixed variables', then the aux'      → x'=…, a=…, aux n1=…
 *   p a=1 …     par     n …  number    w …  wiener      g …  global
 *   u NAME N F  a user function of N arguments arg1…argN → NAME(arg1,…)=F
 *   t …         table   x NAME {…} set   b …  bdry        c FILE  options file
 *   @ …         options (the line as it is)              d  done
 *   i …, k …, m …, r …   Volterra equations, kernels, Markov chains: refused
 * Any other line (comments with %, blank lines, s, h) is ignored.  An `o`
 * line beyond NEQ + the fixed ones ends the file, as in XPPAUT; too few is
 * XPPAUT's "Too many/few equations".
 *
 * Each line becomes one line of the new format (an ignored one a comment), so
 * that messages keep the file's line numbers. */
#include "front/old_format.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "front/diag.h"

#define OLD_MAX_NAMES 4096

typedef struct Names {
    const char *name[OLD_MAX_NAMES];
    int n;
} Names;

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* XPPAUT's atoi of the first line: leading blanks, a sign, digits. */
static long first_number(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (is_blank(text[i]) || text[i] == '\f' || text[i] == '\v'))
        i++;
    bool neg = i < len && text[i] == '-';
    if (i < len && (text[i] == '-' || text[i] == '+'))
        i++;
    long v = 0;
    while (i < len && isdigit((unsigned char)text[i]) && v < 1000000)
        v = 10 * v + (text[i++] - '0');
    return neg ? -v : v;
}

/* The words of a declaration list (`x=1, y, z = 3`): XPPAUT's get_next2 and
 * take_apart, a name and the atof of its value (0 without one). */
static const char *next_item(const char *p, const char **name, size_t *nlen, const char **value, size_t *vlen)
{
    while (*p && (is_blank(*p) || *p == ','))
        p++;
    if (!*p)
        return NULL;
    const char *s = p;
    while (*p && *p != '=' && *p != ',' && !is_blank(*p))
        p++;
    *name = s;
    *nlen = (size_t)(p - s);
    *value = NULL;
    *vlen = 0;
    const char *q = p;
    while (*q && is_blank(*q))
        q++;
    if (*q == '=') {
        q++;
        while (*q && is_blank(*q))
            q++;
        *value = q;
        while (*q && *q != ',' && !is_blank(*q))
            q++;
        *vlen = (size_t)(q - *value);
        p = q;
    }
    return p;
}

static void add_name(Names *ns, const char *s, size_t n, Loc at)
{
    if (ns->n == OLD_MAX_NAMES) {
        error_at(at, "more than %d names in XPPAUT's old format", OLD_MAX_NAMES);
        return;
    }
    ns->name[ns->n++] = arena_strndup(s, n);
}

/* A number as the shortest text that reads back to it. */
static const char *shortest(double v)
{
    char *s = NULL;
    for (int p = 1; p <= 17; p++) {
        s = arena_printf("%.*g", p, v);
        if (strtod(s, NULL) == v)
            break;
    }
    return s;
}

/* `init x=1, y=2` from `v x=1,y=2`, the names kept in `vars` (fixed ones
 * only named: `f a,b`). */
static void declare_list(Buf *out, const char *rest, Names *ns, bool values, Loc at)
{
    const char *name, *value;
    size_t nlen, vlen;
    bool first = true;
    if (values)
        buf_puts(out, "init ");
    else
        buf_puts(out, "# ");
    for (const char *p = rest; (p = next_item(p, &name, &nlen, &value, &vlen));) {
        if (!nlen)
            continue;
        add_name(ns, name, nlen, at);
        if (values)
            buf_printf(out, "%s%.*s=%s", first ? "" : ", ", (int)nlen, name,
                       shortest(value ? atof(arena_strndup(value, vlen)) : 0.0));
        else
            buf_printf(out, "%s%.*s", first ? "" : ", ", (int)nlen, name);
        first = false;
    }
}

const char *old_format_rewrite(const char *text, size_t len, size_t *out_len)
{
    long neq = first_number(text, len);
    if (neq <= 0 || memchr(text, '\0', len))
        return NULL;
    Names *vars = arena_alloc(sizeof *vars), *fixed = arena_alloc(sizeof *fixed), *aux = arena_alloc(sizeof *aux);
    Buf out = {0};
    int nrhs = 0, line = 0;
    bool done = false;
    Loc at1 = {1, 1, 1, 1};
    note_at(at1, "XPPAUT's old format (the first line is the number of equations, %ld): read as XPPAUT reads it, "
                 "each line rewritten into the new format (the lines shown below are the rewritten ones)", neq);
    for (size_t b = 0; b < len;) {
        size_t e = b;
        while (e < len && text[e] != '\n')
            e++;
        char *s = arena_strndup(text + b, e - b);
        size_t n = strlen(s);
        while (n && (s[n - 1] == '\r'))
            s[--n] = '\0';
        line++;
        Loc at = {line, 1, line, (int)(n ? n : 1)};
        const char *p = s;
        while (*p && (is_blank(*p) || *p == ','))
            p++;
        const char *word = p;
        while (*p && !is_blank(*p) && *p != ',')
            p++;
        const char *rest = p;
        char c = (char)tolower((unsigned char)*word);
        if (line == 1 || done || s[0] == '#') {
            buf_printf(&out, "%s%s", s[0] == '#' ? "" : "# ", s);
        } else if (s[0] == '@') {
            buf_puts(&out, s);
        } else {
            switch (c) {
            case 'd':
                buf_puts(&out, "done");
                done = true;
                break;
            case 'v': declare_list(&out, rest, vars, true, at); break;
            case 'f': declare_list(&out, rest, fixed, false, at); break;
            case 'a': declare_list(&out, rest, aux, false, at); break;
            case 'p': buf_printf(&out, "par %s", rest); break;
            case 'n': buf_printf(&out, "number %s", rest); break;
            case 'w': buf_printf(&out, "wiener %s", rest); break;
            case 'g': buf_printf(&out, "global %s", rest); break;
            case 't': buf_printf(&out, "table %s", rest); break;
            case 'x': buf_printf(&out, "set %s", rest); break;
            case 'b': buf_printf(&out, "bdry %s", rest); break;
            case 'c': buf_printf(&out, "option %s", rest); break;
            case 'u': {     /* u NAME NARG FORMULA */
                const char *q = rest;
                while (is_blank(*q)) q++;
                const char *fn = q;
                while (*q && !is_blank(*q)) q++;
                size_t fl = (size_t)(q - fn);
                long narg = strtol(q, (char **)&q, 10);
                if (!fl || narg < 0 || narg > 9) {
                    error_at(at, "XPPAUT's old format: a user function is 'u NAME NARGS FORMULA' (0 to 9 arguments)");
                    buf_printf(&out, "# %s", s);
                    break;
                }
                buf_printf(&out, "%.*s(", (int)fl, fn);
                for (long k = 1; k <= narg; k++)
                    buf_printf(&out, "%sarg%ld", k > 1 ? "," : "", k);
                buf_printf(&out, ")=%s", q);
                break;
            }
            case 'i':
            case 'o': {     /* the next right-hand side */
                if (nrhs >= neq + fixed->n) {
                    buf_puts(&out, "done");     /* XPPAUT stops reading here */
                    done = true;
                    break;
                }
                int k = nrhs++;
                if (c == 'i')
                    buf_puts(&out, "volterra ");     /* (refused with its reason) */
                if (k < vars->n)
                    buf_printf(&out, "%s'=%s", vars->name[k], rest);
                else if (k < vars->n + fixed->n)
                    buf_printf(&out, "%s=%s", fixed->name[k - vars->n], rest);
                else if (k - vars->n - fixed->n < aux->n)
                    buf_printf(&out, "aux %s=%s", aux->name[k - vars->n - fixed->n], rest);
                else
                    buf_printf(&out, "aux aux%d=%s", k - vars->n - fixed->n + 1, rest);
                break;
            }
            case 'k':
            case 'm':
            case 'r':
                error_at(at, "XPPAUT's old format: %s are not read; write the file in the new format",
                         c == 'k' ? "Volterra kernels" : "Markov variables");
                buf_printf(&out, "# %s", s);
                break;
            default:        /* XPPAUT ignores it */
                buf_printf(&out, "%s%s", *s ? "# " : "", s);
                break;
            }
        }
        buf_puts(&out, "\n");
        b = e < len ? e + 1 : e;
    }
    if (vars->n > neq)
        error_at(at1, "XPPAUT's old format: %d variables for %ld equations (XPPAUT: \"Too many variables\")",
                 vars->n, neq);
    else if (nrhs != neq + fixed->n)
        error_at(at1, "XPPAUT's old format: %ld equations and %d fixed variables need %ld right-hand sides "
                      "('o' lines), the file has %d (XPPAUT: \"Too many/few equations\")",
                 neq, fixed->n, neq + fixed->n, nrhs);
    if (!done)
        buf_puts(&out, "done\n");
    char *copy = arena_strndup(out.data ? out.data : "", out.len);
    *out_len = out.len;
    buf_free(&out);
    return copy;
}
