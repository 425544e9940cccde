/* method.c — the `meth` option's values.
 *
 * odegen's names (euler, modeuler, rk4, rkck45, dopri5, tsit5, dop853,
 * vern7; the stiff rodas5p and ros3p; discrete, for maps; milstein and weak2
 * for noise; ymp, XPPAUT's symplectic method, by its own name) come first.  Any other word is read as XPPAUT reads it: by its first
 * character alone (load_eqn.c: the key string "demragvbqsc582y" — discrete,
 * euler, modeuler, rungekutta, adams, gear, volterra, backeul, qualrk,
 * stiff, cvode, 5dp, 83dp, 2rb, ymp), so that `meth=Runge-Kutta`, `meth=q`
 * or `meth=5dp` mean in odegen what they mean in XPPAUT.  A word other than
 * XPPAUT's own spelling of a method gets a note saying how it was read; a
 * word XPPAUT would read otherwise than its look suggests (`rkqs`, `rkck`:
 * Runge–Kutta by their first letter) is an error that names both readings.
 */
#include <ctype.h>
#include <string.h>

#include "base/arena.h"
#include "front/diag.h"
#include "check/method.h"
#include "check/option_names.h"
#include "base/util.h"

static const char *const names[] = {
    [METH_EULER] = "euler",   [METH_MODEULER] = "modeuler", [METH_RK4] = "rk4",
    [METH_RKCK45] = "rkck45", [METH_DOPRI5] = "dopri5",     [METH_TSIT5] = "tsit5",
    [METH_DOP853] = "dop853", [METH_VERN7] = "vern7",       [METH_RODAS5P] = "rodas5p",
    [METH_ROS3P] = "ros3p",   [METH_DISCRETE] = "discrete", [METH_MILSTEIN] = "milstein", [METH_WEAK2] = "weak2",
    [METH_SYMPLECTIC] = "ymp",
};

static const char *const descriptions[] = {
    [METH_EULER] = "forward Euler with a fixed step",
    [METH_MODEULER] = "Heun (modified Euler) with a fixed step",
    [METH_RK4] = "classical RK4 with a fixed step",
    [METH_RKCK45] = "adaptive Cash-Karp 5(4)",
    [METH_DOPRI5] = "adaptive Dormand-Prince 5(4)",
    [METH_TSIT5] = "adaptive Tsitouras 5(4)",
    [METH_DOP853] = "adaptive Dormand-Prince 8(5,3)",
    [METH_VERN7] = "adaptive Verner 7(6)",
    [METH_RODAS5P] = "stiff, adaptive Rosenbrock Rodas5P 5(4)",
    [METH_ROS3P] = "stiff, adaptive Rosenbrock ROS3P 3(2)",
    [METH_DISCRETE] = "a map y(t+1) = f(t, y), iterated with t stepping by 1",
    [METH_MILSTEIN] = "Milstein's scheme (strong order 1) for commutative noise, fixed step",
    [METH_WEAK2] = "Kloeden-Platen's explicit weak order 2.0 scheme, fixed step",
    [METH_SYMPLECTIC] = "XPPAUT's symplectic method: three stages on (position, velocity) pairs, fixed step",
};

const char *method_name(Method method) { return names[method]; }
const char *method_description(Method method) { return descriptions[method]; }

#define METHOD_LIST "euler, modeuler, rk4, rkck45, dopri5, tsit5, dop853, vern7, rodas5p, ros3p, discrete, milstein, weak2, ymp"
#define LAST_METHOD METH_SYMPLECTIC

/* XPPAUT's methods by the first character of the value. */
typedef enum Reading { RUNS_AS, UNSUPPORTED } Reading;
typedef struct XppMethod {
    char key;
    const char *name;        /* XPPAUT's spelling (help/xppopt.html) */
    Reading reading;
    Method method;           /* RUNS_AS */
    const char *why;         /* UNSUPPORTED: what it is; RUNS_AS with a note: why that is fine */
} XppMethod;

static const XppMethod xpp_methods[] = {
    {'d', "discrete", RUNS_AS, METH_DISCRETE,
     "XPPAUT's discrete iterates the right-hand sides as a map, x' = f read as x(t+1) = f, t stepping by 1"},
    {'e', "euler", RUNS_AS, METH_EULER, NULL},
    {'m', "modeuler", RUNS_AS, METH_MODEULER, NULL},
    {'r', "rungekutta", RUNS_AS, METH_RK4, NULL},
    {'a', "adams", RUNS_AS, METH_RK4,
     "XPPAUT's adams (4th-order Adams-Bashforth-Moulton with the fixed step dt) runs as rk4, of the same "
     "order and step: results agree to the integration error"},
    {'g', "gear", RUNS_AS, METH_RODAS5P,
     "XPPAUT's gear (Gear's variable-order BDF) runs as rodas5p, odegen's stiff Rosenbrock 5(4) on the exact "
     "Jacobian, with the same toler and atoler: results agree to the tolerances"},
    {'v', "volterra", UNSUPPORTED, 0, "integrates Volterra integral equations, not supported"},
    {'b', "backeul", RUNS_AS, METH_RODAS5P,
     "XPPAUT's backeul (backward Euler with the fixed step dt, first order) runs as rodas5p, odegen's stiff "
     "Rosenbrock 5(4), adaptive with toler and atoler (dt is its first step): results agree within backward "
     "Euler's own error, of order dt"},
    {'q', "qualrk", RUNS_AS, METH_RKCK45, NULL},
    {'s', "stiff", RUNS_AS, METH_RODAS5P,
     "XPPAUT's stiff (a Rosenbrock 4(3)) runs as rodas5p, odegen's stiff Rosenbrock 5(4) on the exact "
     "Jacobian, with the same toler and atoler: results agree to the tolerances"},
    {'c', "cvode", RUNS_AS, METH_RODAS5P,
     "XPPAUT's cvode (SUNDIALS CVODE's BDF) runs as rodas5p, odegen's stiff Rosenbrock 5(4) on the exact "
     "Jacobian, with the same toler and atoler: results agree to the tolerances"},
    {'5', "5dp", RUNS_AS, METH_DOPRI5, NULL},
    {'8', "83dp", RUNS_AS, METH_DOP853, NULL},
    {'2', "2rb", RUNS_AS, METH_RODAS5P,
     "XPPAUT's 2rb (a Rosenbrock 2(3)) runs as rodas5p, odegen's stiff Rosenbrock 5(4) on the exact Jacobian, "
     "with the same toler and atoler: results agree to the tolerances"},
    {'y', "ymp", RUNS_AS, METH_SYMPLECTIC, NULL},
};

/* Whether word starts with prefix, ignoring case. */
static bool name_eq_prefix(const char *word, const char *prefix)
{
    for (; *prefix; word++, prefix++)
        if (tolower((unsigned char)*word) != *prefix) return false;
    return true;
}

/* Words whose look and XPPAUT's reading differ: the adaptive Runge–Kutta
 * routines' names, which XPPAUT reads as rungekutta (their first letter). */
static const char *const misleading[] = {"rkqs", "rkck", "rk45", "rkf45", "rkf", "rk5", "rkdp", NULL};

/* "; did you mean 'dopri5'?" for a word close to one of odegen's names. */
static const char *suggestion(const char *word)
{
    const char *best = NULL;
    int best_d = (int)strlen(word) <= 3 ? 2 : 3;
    for (int k = METH_EULER; k <= LAST_METHOD; k++) {
        int d = name_distance(word, names[k]);
        if (d < best_d) {
            best_d = d;
            best = names[k];
        }
    }
    return best ? arena_printf("; did you mean '%s'?", best) : "";
}

void check_method_option(Model *m, const Node *it)
{
    const Node *v = it->rhs;
    Loc loc = v ? v->loc : it->loc;
    const char *word = !v ? NULL : v->kind == N_NAME ? v->name : v->kind == N_NUM ? v->text : NULL;
    if (!word || !*word) {
        error_at(loc, "meth needs a method name: " METHOD_LIST);
        return;
    }
    for (int k = METH_EULER; k <= LAST_METHOD; k++)
        if (name_eq(word, names[k])) {
            m->method = (Method)k;
            return;
        }
    for (const char *const *s = misleading; *s; s++)
        if (name_eq(word, *s)) {
            error_at(loc,
                     "method '%s': XPPAUT reads a method by its first letter, so '%s' is its rungekutta (rk4) "
                     "there; write rk4 for that, or rkck45 (XPPAUT qualrk) for the adaptive Cash-Karp method",
                     word, word);
            return;
        }
    if (strlen(word) >= 3 && name_eq_prefix(word, "dop")) {
        error_at(loc,
                 "method '%s': XPPAUT reads a method by its first letter, so '%s' is its discrete there, which "
                 "iterates the right-hand sides as a map; write dop853 or dopri5 for Dormand-Prince, or discrete "
                 "for a map",
                 word, word);
        return;
    }
    if (strlen(word) >= 3 && (name_eq_prefix(word, "ros") || name_eq_prefix(word, "rod"))) {
        error_at(loc,
                 "method '%s': XPPAUT reads a method by its first letter, so '%s' is its rungekutta (rk4) there; "
                 "odegen's stiff methods are rodas5p and ros3p",
                 word, word);
        return;
    }
    const int key = tolower((unsigned char)word[0]);
    for (size_t i = 0; i < sizeof xpp_methods / sizeof *xpp_methods; i++) {
        const XppMethod *x = &xpp_methods[i];
        if (key != x->key) continue;
        const bool spelled = name_eq(word, x->name) || (x->method == METH_RK4 && name_eq(word, "runge-kutta"));
        /* XPPAUT's first-letter reading is for .ode files; a method given on
         * the command line (--option, Python's method=) is spelled out. */
        if (!spelled && option_from_command_line(it)) break;
        switch (x->reading) {
        case UNSUPPORTED:
            error_at(loc, "method '%s': XPPAUT reads it as %s, which %s; the methods are " METHOD_LIST "%s", word,
                     x->name, x->why, suggestion(word));
            return;
        case RUNS_AS:
            m->method = x->method;
            if (x->why && !spelled)
                note_at(loc, "XPPAUT reads a method by its first letter: '%s' is its %s; %s", word, x->name, x->why);
            else if (x->why)
                note_at(loc, "%s", x->why);
            else if (!spelled)
                note_at(loc, "XPPAUT reads a method by its first letter: '%s' is its %s, odegen's %s", word,
                        x->name, names[x->method]);
            return;
        }
    }
    /* Not a method XPPAUT knows either (it would keep its default). */
    error_at(loc, "unknown method '%s': the methods are " METHOD_LIST " (or XPPAUT's names: rungekutta, "
             "qualrk, 5dp, 83dp, stiff, gear, cvode, …)%s", word, suggestion(word));
}

bool method_is_adaptive(Method method)
{
    return method != METH_EULER && method != METH_MODEULER && method != METH_RK4 && method != METH_DISCRETE &&
           method != METH_MILSTEIN && method != METH_WEAK2 && method != METH_SYMPLECTIC;
}

bool method_is_rosenbrock(Method method) { return method == METH_RODAS5P || method == METH_ROS3P; }

bool method_word_is_rosenbrock(const char *word)
{
    if (!word || !*word) return false;
    for (int k = METH_EULER; k <= LAST_METHOD; k++)
        if (name_eq(word, names[k])) return method_is_rosenbrock((Method)k);
    const int key = tolower((unsigned char)word[0]);
    for (size_t i = 0; i < sizeof xpp_methods / sizeof *xpp_methods; i++)
        if (xpp_methods[i].key == key)
            return xpp_methods[i].reading == RUNS_AS && method_is_rosenbrock(xpp_methods[i].method);
    return false;
}
