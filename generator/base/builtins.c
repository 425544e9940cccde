/* builtins.c — the language's function table (SPEC §2, Expressions). */
#include "base/builtins.h"

#include <stddef.h>

#include "base/util.h"

const Builtin builtin_table[] = {
    {"sin", 1, "sin", "sinf"},       {"cos", 1, "cos", "cosf"},
    {"tan", 1, "tan", "tanf"},       {"asin", 1, "asin", "asinf"},
    {"acos", 1, "acos", "acosf"},    {"atan", 1, "atan", "atanf"},
    {"atan2", 2, "atan2", "atan2f"}, {"sinh", 1, "sinh", "sinhf"},
    {"cosh", 1, "cosh", "coshf"},    {"tanh", 1, "tanh", "tanhf"},
    {"exp", 1, "exp", "expf"},       {"ln", 1, "log", "logf"},
    {"log", 1, "log", "logf"},       /* natural log, as in XPPAUT */
    {"log10", 1, "log10", "log10f"}, {"sqrt", 1, "sqrt", "sqrtf"},
    {"abs", 1, "fabs", "fabsf"},     {"heav", 1, "ode_heav", "ode_heav"},
    {"sign", 1, "ode_sign", "ode_sign"}, {"flr", 1, "floor", "floorf"},
    {"ceil", 1, "ceil", "ceilf"},    {"mod", 2, "ode_mod", "ode_mod"},
    {"max", 2, "fmax", "fmaxf"},     {"min", 2, "fmin", "fminf"},
    {"erf", 1, "erf", "erff"},       {"erfc", 1, "erfc", "erfcf"},
    {NULL, 0, NULL, NULL},
};

const Builtin *builtin_find(const char *name)
{
    for (const Builtin *b = builtin_table; b->name; b++)
        if (name_eq(b->name, name))
            return b;
    return NULL;
}

int random_function(const char *name)
{
    if (name_eq(name, "ran")) return 1;
    if (name_eq(name, "normal")) return 2;
    return -1;
}

const char *unsupported_call(const char *name)
{
    static const struct { const char *name, *why; } table[] = {
        {"int", VOLTERRA_WHY("int{…}")},
        {"del_shft", "delayed shifts (del_shft) are not supported: every system runs in one GPU thread "
                     "without a stored history"},
        {"ishift", "ishift is not supported: write the name shift(NAME, N) gives, or use shift"},
        {"sum", "XPPAUT's sum is written sum(FIRST,LAST)of(EXPR)"},
        {"lookup", "tables (lookup) are not supported"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (name_eq(table[i].name, name))
            return table[i].why;
    return NULL;
}
