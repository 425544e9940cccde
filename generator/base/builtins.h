/* builtins.h — the functions of the .ode language and the C they become. */
#ifndef ODEGEN_BUILTINS_H
#define ODEGEN_BUILTINS_H

typedef struct Builtin {
    const char *name;      /* as written in .ode files (case-insensitive) */
    int nargs;
    const char *c_double;  /* the C function in double precision */
    const char *c_float;   /* … and in single precision */
} Builtin;

/* NULL when name is no built-in function. */
const Builtin *builtin_find(const char *name);
/* The table, ending with a NULL name (for "did you mean"). */
extern const Builtin builtin_table[];

/* XPPAUT's random numbers: ran(a), uniform in (0, a), and normal(m, s):
 * their number of arguments, or -1 for any other name.  Not in the table:
 * they are no functions of their arguments (check/noise.c says when each
 * call is drawn), and a user may still name a value `ran`. */
int random_function(const char *name);

/* XPPAUT features that odegen rejects when they appear as a call
 * (delay(…), ran(…)…): the explanation, or NULL. */
const char *unsupported_call(const char *name);

/* What odegen says of XPPAUT's Volterra integrals, and what to write instead. */
#define VOLTERRA_WHY(form) \
    "Volterra integrals (" form ") are not supported: write the integral as extra ODEs (an exponential " \
    "kernel is one more state, a sum of exponentials one state each)"

#endif
