/* options.h — the run-time options as the solver reads them (SPEC §4: dt,
 * toler, atoler, dtmin, dtmax, maxsteps, bound change without a rebuild; t0
 * and total only make windows, on the host: runtime/options.c).
 *
 * A solver keeps its own values (model_solver_set_option, the runner's
 * --set, Python's options=) and every launch receives them by value in its
 * OdeArrays, the kernel's parameter: on the GPU they live in the parameter
 * space (constant bank 0), where an arithmetic instruction takes them as an
 * operand as it takes an immediate, and two solvers with different options
 * never meet.  The solver reads them as ODE_OPT_DT, … through `ode_opt`, the
 * `const OdeOptions *` in scope (ode_integrate_sampled's parameter).
 *
 * -DODE_OPTIONS_CONSTANT=1 makes them the .ode file's values as compile-time
 * constants (ODE_DEFAULT_*, from the generated model constants), to measure
 * what reading them costs (bench/options.sh); the library then refuses
 * other values.
 */
#ifndef ODE_OPTIONS_H
#define ODE_OPTIONS_H

#ifndef ODEGEN_GENERATED
#include "prelude.h"
#endif

#ifndef ODE_OPTIONS_CONSTANT
#define ODE_OPTIONS_CONSTANT 0
#endif

typedef struct OdeOptions {
    ode_real dt;                          /* a fixed-step method's step; an adaptive one's first */
    ode_real dtmin, dtmax;                /* step bounds (adaptive methods) */
    ode_real toler, atoler;               /* tolerances of the states without a `tolerance` line */
    ode_real toler_scale, atoler_scale;   /* toler / @toler, atoler / @atoler: what the values of
                                             `tolerance` lines are multiplied by */
    ode_real bound;                       /* a state beyond ±bound stops the system */
    unsigned long long maxsteps;          /* accepted steps allowed in one integration */
    unsigned long long seed;              /* the random numbers' seed (noise.h; below 2^53) */
    unsigned int noisesub;                /* Wiener increments summed per step (noise.h) */
} OdeOptions;

/* float cannot hold odegen's default bound (1e100): the largest value it
 * takes is 3e38, so that an infinite state still fails |y| <= bound. */
#define ODE_BOUND_OF(b) (ODE_FLOAT && (b) > 3.0e38 ? 3.0e38 : (b))

/* The step counter of one integration (integrate.h) has 32 bits unless the
 * file allows 4e9 steps or more (@ maxsteps): a run-time maxsteps stays
 * below ODE_MAXSTEPS_LIMIT. */
#define ODE_COUNT_64 (ODE_DEFAULT_MAXSTEPS >= 4000000000ULL)
#define ODE_MAXSTEPS_LIMIT (ODE_COUNT_64 ? 9007199254740992.0 : 3999999999.0)
/* (32 bits are cheaper in the kernel's inner loop; the counts are folded
 * into the system's 64-bit totals at the end of an integration.) */
#if !ODE_COUNT_64
typedef unsigned int ode_count;
#else
typedef unsigned long long ode_count;
#endif

#if ODE_OPTIONS_CONSTANT
#define ODE_OPT_DT ((ode_real)ODE_DEFAULT_DT)
#define ODE_OPT_DTMIN ((ode_real)ODE_DEFAULT_DTMIN)
#define ODE_OPT_DTMAX ((ode_real)ODE_DEFAULT_DTMAX)
#define ODE_OPT_TOLER ((ode_real)ODE_DEFAULT_TOLER)
#define ODE_OPT_ATOLER ((ode_real)ODE_DEFAULT_ATOLER)
#define ODE_OPT_TOLER_SCALE ODE_R(1.0)
#define ODE_OPT_ATOLER_SCALE ODE_R(1.0)
#define ODE_OPT_BOUND ((ode_real)ODE_BOUND_OF(ODE_DEFAULT_BOUND))
#define ODE_OPT_MAXSTEPS ODE_DEFAULT_MAXSTEPS
#else
#define ODE_OPT_DT (ode_opt->dt)
#define ODE_OPT_DTMIN (ode_opt->dtmin)
#define ODE_OPT_DTMAX (ode_opt->dtmax)
#define ODE_OPT_TOLER (ode_opt->toler)
#define ODE_OPT_ATOLER (ode_opt->atoler)
#define ODE_OPT_TOLER_SCALE (ode_opt->toler_scale)
#define ODE_OPT_ATOLER_SCALE (ode_opt->atoler_scale)
#define ODE_OPT_BOUND (ode_opt->bound)
#define ODE_OPT_MAXSTEPS ((ode_count)ode_opt->maxsteps)   /* validated to fit the counter */
#endif

#endif /* ODE_OPTIONS_H */
