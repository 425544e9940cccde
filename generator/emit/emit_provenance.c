/* emit_provenance.c — where a generated model comes from, for the runner to
 * write into its outputs (the HDF5 file's attributes): odegen's version, the
 * .ode file's name and whole text, and the options in force.
 *
 *   #define ODEGEN_VERSION "0.2.0"
 *   #define ODE_SOURCE_PATH "models/duffing.ode"
 *   #define ODE_OPTIONS_TEXT "meth=rk4, dt=0.01, …"
 *   static const char ode_model_source[] = "…";
 */
#include <stdio.h>
#include <string.h>

#include "front/diag.h"
#include "emit/emit.h"
#include "check/method.h"
#include "base/version.h"

/* Text as the body of a C string literal: escapes for quotes, backslashes,
 * '?' (no trigraphs) and every byte outside printable ASCII (three octal
 * digits, so that a following digit is never taken into the escape). */
static void put_escaped(Buf *o, const char *s, size_t len)
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

/* The options in force, as `@` would set them. */
static void put_options(Buf *o, const Model *m)
{
    buf_printf(o, "meth=%s, dt=%s, t0=%s, total=%s", method_name(m->method), c_literal(m->dt, false),
               c_literal(m->t0, false), c_literal(m->total, false));
    if (method_is_adaptive(m->method))
        buf_printf(o, ", toler=%s, atoler=%s, dtmin=%s, dtmax=%s, hgrow=%s, hshrink=%s", c_literal(m->toler, false),
                   c_literal(m->atoler, false), c_literal(m->dtmin, false), c_literal(m->dtmax, false),
                   c_literal(m->hgrow, false), c_literal(m->hshrink, false));
    buf_printf(o, ", evsteps=%ld, maxsteps=%lld, bound=%s, prec=%s", m->evsteps, m->maxsteps,
               c_literal(m->bound, false), m->single ? "float" : "double");
}

void emit_provenance(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    buf_puts(o, "/* Where this model comes from (the runner's HDF5 attributes). */\n");
    buf_printf(o, "#define ODEGEN_VERSION \"%s\"\n", ODEGEN_VERSION);
    buf_puts(o, "#define ODE_SOURCE_PATH \"");
    put_escaped(o, m->path, strlen(m->path));
    buf_puts(o, "\"\n#define ODE_OPTIONS_TEXT \"");
    put_options(o, m);
    buf_puts(o, "\"\nstatic const char ode_model_source[] =");
    size_t len = 0;
    const char *text = diag_source(&len);
    if (!text || len == 0) buf_puts(o, " \"\"");
    for (size_t at = 0; text && at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        const size_t end = nl ? (size_t)(nl - text) + 1 : len;
        buf_puts(o, "\n    \"");
        put_escaped(o, text + at, end - at);
        buf_puts(o, "\"");
        at = end;
    }
    buf_puts(o, ";\n\n");
}
