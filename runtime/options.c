/* options.c — the run-time options on the host (SPEC §4; templates/options.h
 * is the solver's side): their names, the .ode file's values, the checks a
 * value must pass (those of the file's `@` options, generator/check/options.c), the
 * solver's OdeOptions made from them, and their text for the outputs.  A
 * solver keeps one set of values (library.c), the runner one for its run.
 *
 * A set is an array of doubles indexed by ODE_OPTION_* (maxsteps too: whole
 * numbers are exact up to 2^53).  dt, toler, atoler, dtmin, dtmax, maxsteps
 * and bound reach the solver as OdeOptions; t0 and total make the windows
 * [t0, t0 + total] of the systems loaded with defaults.  A model with noise
 * has two more: seed (the random numbers' key, a whole number below 2^53)
 * and noisesub (Wiener increments summed per step, templates/noise.h).
 */
#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "tableaux.h"
#endif

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ODE_OPTION_DT, ODE_OPTION_T0, ODE_OPTION_TOTAL, ODE_OPTION_TOLER, ODE_OPTION_ATOLER,
    ODE_OPTION_DTMIN, ODE_OPTION_DTMAX, ODE_OPTION_MAXSTEPS, ODE_OPTION_BOUND,
#if ODE_NOISE
    ODE_OPTION_SEED, ODE_OPTION_NOISESUB,
#endif
    ODE_NOPTION
};

static const char *const ode_option_words[ODE_NOPTION] = {"dt",    "t0",    "total",    "toler", "atoler",
                                                          "dtmin", "dtmax", "maxsteps", "bound",
#if ODE_NOISE
                                                          "seed",  "noisesub",
#endif
};

/* The .ode file's values (its `@` lines, else odegen's defaults). */
static void ode_options_default(double *v)
{
    v[ODE_OPTION_DT] = ODE_DEFAULT_DT;
    v[ODE_OPTION_T0] = ODE_DEFAULT_T0;
    v[ODE_OPTION_TOTAL] = ODE_DEFAULT_TOTAL;
    v[ODE_OPTION_TOLER] = ODE_DEFAULT_TOLER;
    v[ODE_OPTION_ATOLER] = ODE_DEFAULT_ATOLER;
    v[ODE_OPTION_DTMIN] = ODE_DEFAULT_DTMIN;
    v[ODE_OPTION_DTMAX] = ODE_DEFAULT_DTMAX;
    v[ODE_OPTION_MAXSTEPS] = (double)ODE_DEFAULT_MAXSTEPS;
    v[ODE_OPTION_BOUND] = ODE_DEFAULT_BOUND;
#if ODE_NOISE
    v[ODE_OPTION_SEED] = ODE_DEFAULT_SEED;
    v[ODE_OPTION_NOISESUB] = ODE_DEFAULT_NOISESUB;
#endif
}

static int ode_option_same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

/* The option a name means (case-insensitive; a leading '@' as in the .ode
 * file; XPPAUT's spellings tol, atol and bounds), or -1. */
static int ode_option_index(const char *name)
{
    static const char *const aliases[][2] = {{"tol", "toler"}, {"atol", "atoler"}, {"bounds", "bound"}};
    if (!name) return -1;
    if (*name == '@') name++;
    for (size_t a = 0; a < sizeof aliases / sizeof *aliases; a++)
        if (ode_option_same_word(name, aliases[a][0])) name = aliases[a][1];
    for (int k = 0; k < ODE_NOPTION; k++)
        if (ode_option_same_word(name, ode_option_words[k])) return k;
    return -1;
}

/* "dt, t0, total, …" */
static const char *ode_option_list(char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = 0;
    for (int k = 0; k < ODE_NOPTION && used < size; k++) {
        const int n = snprintf(buf + used, size - used, "%s%s", k ? ", " : "", ode_option_words[k]);
        used += n > 0 ? (size_t)n : 0;
    }
    return buf;
}

/* Whether the model's method reads option k (the tolerances and step
 * bounds are the adaptive methods'). */
static int ode_option_used(int k)
{
    const int adaptive_only = k == ODE_OPTION_TOLER || k == ODE_OPTION_ATOLER || k == ODE_OPTION_DTMIN ||
                              k == ODE_OPTION_DTMAX;
    return !adaptive_only || ODE_ADAPTIVE;
}

/* Checks `value` for option k on its own, as check/options.c checks the file's `@`
 * options: 0, or 1 with the reason in why. */
static int ode_option_check(int k, double value, char *why, size_t size)
{
    const char *name = ode_option_words[k];
    if (!(value - value == 0.0)) {
        snprintf(why, size, "%s must be a finite number", name);
        return 1;
    }
    if (k == ODE_OPTION_T0) return 0;
#if ODE_NOISE
    if (k == ODE_OPTION_SEED) {
        if (!(value >= 0 && value < 9007199254740992.0) || value != floor(value)) {
            snprintf(why, size, "seed must be a whole number from 0 to 2^53 - 1");
            return 1;
        }
        return 0;
    }
    if (k == ODE_OPTION_NOISESUB) {
        if (!(value >= 1 && value <= 65536) || value != floor(value)) {
            snprintf(why, size, "noisesub must be a whole number from 1 to 65536");
            return 1;
        }
        return 0;
    }
#endif
    if (k == ODE_OPTION_MAXSTEPS) {
        if (!(value >= 1) || value != floor(value)) {
            snprintf(why, size, "maxsteps must be a whole number of at least 1");
            return 1;
        }
        if (value > ODE_MAXSTEPS_LIMIT) {
            snprintf(why, size, "maxsteps must be at most %.0f (the step counter has 32 bits; a model whose file "
                                "sets @ maxsteps to 4e9 or more counts with 64)", ODE_MAXSTEPS_LIMIT);
            return 1;
        }
        return 0;
    }
    if (!(value > 0)) {
        snprintf(why, size, "%s must be positive", name);
        return 1;
    }
    if (ODE_FLOAT && k != ODE_OPTION_TOTAL && (float)value == 0.0f) {
        snprintf(why, size, "%s=%g is below single precision's smallest number (1.4e-45): it would be 0", name, value);
        return 1;
    }
    return 0;
}

/* The relation between values: dtmin <= dtmax.  0, or 1 with the reason. */
static int ode_options_check_pair(const double *v, char *why, size_t size)
{
    if (v[ODE_OPTION_DTMIN] <= v[ODE_OPTION_DTMAX]) return 0;
    snprintf(why, size, "dtmin (%g) is larger than dtmax (%g)", v[ODE_OPTION_DTMIN], v[ODE_OPTION_DTMAX]);
    return 1;
}

/* A build with -DODE_OPTIONS_CONSTANT=1 has the file's values compiled in:
 * it takes no other (t0 and total, which only make windows, excepted).
 * 0, or 1 with the reason. */
static int ode_option_fixed(int k, double value, char *why, size_t size)
{
    double file[ODE_NOPTION];
    ode_options_default(file);
    if (!ODE_OPTIONS_CONSTANT || k == ODE_OPTION_T0 || k == ODE_OPTION_TOTAL || value == file[k]) return 0;
#if ODE_NOISE
    if (k == ODE_OPTION_SEED || k == ODE_OPTION_NOISESUB) return 0;   /* (never compiled in) */
#endif
    snprintf(why, size, "%s is a compile-time constant in this build (-DODE_OPTIONS_CONSTANT=1): it stays %g",
             ode_option_words[k], file[k]);
    return 1;
}

/* A value as ode_real, within float's range for a float model (a dtmax of
 * 1e40 means no bound there too). */
static ode_real ode_option_real(double v)
{
    if (ODE_FLOAT && fabs(v) > 3.4e38) v = v > 0 ? 3.4e38 : -3.4e38;
    return (ode_real)v;
}

/* What the solver reads (options.h). */
static OdeOptions ode_options_for_solver(const double *v)
{
    OdeOptions o;
    memset(&o, 0, sizeof o);
    o.dt = ode_option_real(v[ODE_OPTION_DT]);
    o.dtmin = ode_option_real(v[ODE_OPTION_DTMIN]);
    o.dtmax = ode_option_real(v[ODE_OPTION_DTMAX]);
    o.toler = ode_option_real(v[ODE_OPTION_TOLER]);
    o.atoler = ode_option_real(v[ODE_OPTION_ATOLER]);
    /* 1 exactly at the file's values: a `tolerance` line's value unchanged */
    o.toler_scale = ode_option_real(v[ODE_OPTION_TOLER] / (double)ODE_DEFAULT_TOLER);
    o.atoler_scale = ode_option_real(v[ODE_OPTION_ATOLER] / (double)ODE_DEFAULT_ATOLER);
    o.bound = ode_option_real(ODE_BOUND_OF(v[ODE_OPTION_BOUND]));
    o.maxsteps = (unsigned long long)v[ODE_OPTION_MAXSTEPS];
#if ODE_NOISE
    o.seed = (unsigned long long)v[ODE_OPTION_SEED];
    o.noisesub = (unsigned int)v[ODE_OPTION_NOISESUB];
#endif
    return o;
}

/* v as the generator writes a number (c_literal): the shortest %g that
 * reads back, "1e6" rather than "1e+06", a ".0" on whole numbers. */
static void ode_option_literal(char *buf, size_t size, double v)
{
    char text[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(text, sizeof text, "%.*g", p, v);
        if (strtod(text, NULL) == v) break;
    }
    char *e = strpbrk(text, "eE");
    if (e) {
        char *d = e + 1, *src = e + 1;
        if (*src == '+') src++;
        if (*src == '-') *d++ = *src++;
        while (*src == '0' && src[1]) src++;
        memmove(d, src, strlen(src) + 1);
    }
    if (!strpbrk(text, ".eEn")) strcat(text, ".0");
    snprintf(buf, size, "%s", text);
}

/* The options in force as the outputs describe them: the generator's text of
 * the file's options (ODE_OPTIONS_TEXT, "meth=rk4, dt=0.01, …") with the
 * values of v in place of the file's. */
static void ode_options_text(const double *v, char *buf, size_t size)
{
    const char *at = ODE_OPTIONS_TEXT;
    size_t used = 0;
    buf[0] = 0;
    while (*at && used + 1 < size) {
        const char *end = strstr(at, ", ");
        const size_t len = end ? (size_t)(end - at) : strlen(at);
        const char *eq = (const char *)memchr(at, '=', len);
        char name[32] = "", value[48];
        if (eq && (size_t)(eq - at) < sizeof name) memcpy(name, at, (size_t)(eq - at));
        const int k = ode_option_index(name);
        int n;
        if (k < 0) {
            n = snprintf(buf + used, size - used, "%.*s", (int)len, at);
        } else {
            if (k == ODE_OPTION_MAXSTEPS) snprintf(value, sizeof value, "%.0f", v[k]);
#if ODE_NOISE
            else if (k == ODE_OPTION_SEED || k == ODE_OPTION_NOISESUB) snprintf(value, sizeof value, "%.0f", v[k]);
#endif
            else ode_option_literal(value, sizeof value, v[k]);
            n = snprintf(buf + used, size - used, "%s=%s", name, value);
        }
        used += n > 0 ? (size_t)n : 0;
        if (used >= size) break;
        if (end) {
            n = snprintf(buf + used, size - used, ", ");
            used += n > 0 ? (size_t)n : 0;
        }
        at = end ? end + 2 : at + len;
    }
}

/* The distance from x to the next number of the working precision (float
 * or double): what a window or a step must exceed to move t there. */
static double ode_spacing(double x)
{
    x = fabs(x);
    if (ODE_FLOAT) return (double)nextafterf((float)x, INFINITY) - (double)(float)x;
    return nextafter(x, INFINITY) - x;
}

/* Whether the window [t0, t1] can be integrated in the working precision,
 * where the kernel would give it the status `empty` (integrate.h): t1 after
 * t0 once both are rounded to ode_real, and for a fixed-step method a step dt
 * that moves t all the way to the window's end.  total > 0: the window is
 * the options' [t0, t0 + total] (the message speaks of them).  0, or 1 with
 * the reason in why. */
static int ode_window_check(double t0, double t1, double total, double dt, char *why, size_t size)
{
    const ode_real a = ode_option_real(t0), b = ode_option_real(t1);
    const char *prec = ODE_FLOAT ? "single" : "double";
    char at[28], to[28], step[28], gap[28];   /* the shortest text of a double: at most 24 characters */
    ode_option_literal(at, sizeof at, t0);
    ode_option_literal(to, sizeof to, t1);
    if (!(b > a)) {
        ode_option_literal(gap, sizeof gap, ode_spacing(t0));
        if (total > 0) {
            ode_option_literal(step, sizeof step, total);
            snprintf(why, size, "t0 + total is t0 in %s precision: total=%s is too short for t0=%s (numbers near it "
                                "are %s apart)", prec, step, at, gap);
        } else if (t1 > t0) {
            snprintf(why, size, "the window [%s, %s] is empty in %s precision: t1 rounds to t0 (numbers near t0 are "
                                "%s apart)", at, to, prec, gap);
        } else {
            snprintf(why, size, "the window [%s, %s] is empty: t1 must be after t0", at, to);
        }
        return 1;
    }
    const ode_real far = ode_fmax(ode_fabs(a), ode_fabs(b));
    if (!ODE_ADAPTIVE && !(far + ode_option_real(dt) > far)) {
        ode_option_literal(step, sizeof step, dt);
        ode_option_literal(gap, sizeof gap, ode_spacing((double)far));
        snprintf(why, size, "a step of dt=%s does not move t in %s precision in the window [%s, %s] (numbers near %s "
                            "are %s apart)", step, prec, at, to, fabs(t0) > fabs(t1) ? at : to, gap);
        return 1;
    }
    return 0;
}
