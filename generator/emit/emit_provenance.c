/* emit_provenance.c — where a generated model comes from, for the runner to
 * write into its outputs (the HDF5 file's attributes): odegen's version, the
 * .ode file's name and whole text, and the options in force.
 *
 *   #define ODEGEN_VERSION "0.2.0"
 *   #define ODE_SOURCE_PATH "models/duffing.ode"
 *   #define ODE_GENERATED_HASH "3f2a…"      (the code of NAME.cu: emit_generated_hash)
 *   #define ODE_OPTIONS_TEXT "meth=rk4, dt=0.01, …"
 *   static const char ode_model_source[] = "…";
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "front/diag.h"
#include "emit/emitter.h"
#include "emit/escape.h"
#include "check/method.h"
#include "base/version.h"

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
    if (model_has_noise(m)) buf_printf(o, ", seed=%.0f, noisesub=%.0f", m->seed, m->noisesub);
    if (m->nalg) buf_printf(o, ", newt_tol=%s, newt_iter=%ld", c_literal(m->newt_tol, false), m->newt_iter);
}

static size_t hash_at;   /* where ODE_GENERATED_HASH's digits are in the output */

void emit_provenance(Emitter *E)
{
    const Model *m = E->m;
    Buf *o = E->out;
    buf_puts(o, "/* Where this model comes from (the runner's HDF5 attributes). */\n");
    buf_printf(o, "#define ODEGEN_VERSION \"%s\"\n", ODEGEN_VERSION);
    buf_puts(o, "#define ODE_SOURCE_PATH \"");
    put_c_string(o, m->path, strlen(m->path));
    buf_puts(o, "\"\n#define ODE_GENERATED_HASH \"");
    hash_at = o->len;
    buf_puts(o, "0000000000000000");   /* (emit_generated_hash writes it) */
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
        put_c_string(o, text + at, end - at);
        buf_puts(o, "\"");
        at = end;
    }
    buf_puts(o, ";\n\n");
}

/* Whether a line of the output starts at s with `word`. */
static int line_starts(const char *s, size_t left, const char *word)
{
    const size_t n = strlen(word);
    return left >= n && memcmp(s, word, n) == 0;
}

/* FNV-1a of NAME.cu as the compiler reads it: without comments, #line
 * directives and the two lines that name the .ode file or hold this hash, so
 * that it is the same wherever the model file lies, and changes with any
 * change to the code (the model's, or odegen's templates and runtime).  A
 * checkpoint is resumed only by a runner with the same (runtime/checkpoint.c). */
static uint64_t code_hash(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
#define HASH_BYTE(c) (h = (h ^ (unsigned char)(c)) * 0x100000001b3ULL)
    int line_start = 1;
    for (size_t i = 0; i < n;) {
        if (line_start && (line_starts(s + i, n - i, "#line ") || line_starts(s + i, n - i, "#define ODE_SOURCE_PATH ") ||
                           line_starts(s + i, n - i, "#define ODE_GENERATED_HASH "))) {
            while (i < n && s[i] != '\n') i++;
            i++;
            continue;
        }
        line_start = 0;
        const char c = s[i];
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *end = strstr(s + i + 2, "*/");
            i = end ? (size_t)(end - s) + 2 : n;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') i++;
        } else if (c == '"' || c == '\'') {   /* a literal, escapes and all (a comment's opening inside is none) */
            HASH_BYTE(s[i++]);
            while (i < n && s[i] != c) {
                if (s[i] == '\\' && i + 1 < n) HASH_BYTE(s[i++]);
                HASH_BYTE(s[i++]);
            }
            if (i < n) HASH_BYTE(s[i++]);
        } else {
            HASH_BYTE(c);
            line_start = c == '\n';
            i++;
        }
    }
#undef HASH_BYTE
    return h;
}

void emit_generated_hash(Emitter *E)
{
    Buf *o = E->out;
    char digits[17];
    snprintf(digits, sizeof digits, "%016llx", (unsigned long long)code_hash(o->data, o->len));
    memcpy(o->data + hash_at, digits, 16);
}
