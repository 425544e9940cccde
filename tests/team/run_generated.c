/* run_generated.c — a model as odegen generates it (GENERATED: its NAME.cu),
 * as one side of test_integrate.c: written out, one system per thread
 * (written_run), or in loop form (team_run: the CPU path, or emulated teams
 * of any size).  Two models generated from one .ode under two names (so
 * that their C APIs do not clash) give both sides. */
#define _DEFAULT_SOURCE 1
#define ODE_TEAM_EMULATE 1
#include GENERATED
#include <stdio.h>
#if ODE_LOOP_FORM
#include "emulate.h"
#include "emulate.c"
#endif
#include "scan.h"
#include "sides.h"

#if !ODE_LOOP_FORM
static Scan last;

size_t written_run(const ScanSpec *spec, double *out)
{
    scan_make(&last, spec->n, spec->vary, spec->lo, spec->hi, spec->total, spec->transient, spec->record);
    for (int i = 0; i < spec->n; i++) ode_run_system(&last.a, i, spec->transient, spec->record);
    return scan_results(&last, out);
}

double written_acc(int system, int k) { return ODE_AT(last.a.acc, k, system, last.a.n); }
double written_steps(int system) { return (double)last.a.steps[system]; }
#else
#include "team_side.h"
#endif
