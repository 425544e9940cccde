/* run_written.c — a model written out (MODEL_WRITTEN), integrated per thread
 * by integrate.h and driver.h as a generated file assembles them: one side
 * of test_integrate.c's comparisons. */
#define ODEGEN_GENERATED 1
#include <stdio.h>
#include MODEL_WRITTEN
#include "tableaux.h"
#include "stepper.h"
#include "dense.h"
#include "event_rules.h"
#include "events.h"
#include "firing.h"
#include "save.h"
#include "integrate.h"
#include "driver.h"
#include "cpu_loop.h"
#include "scan.h"
#include "sides.h"

static Scan last;

size_t written_run(const ScanSpec *spec, double *out)
{
    Scan *sc = &last;
    scan_make(sc, spec->n, spec->vary, spec->lo, spec->hi, spec->total, spec->transient, spec->record);
    for (int i = 0; i < spec->n; i++) ode_run_system(&sc->a, i, spec->transient, spec->record);
    return scan_results(sc, out);
}

double written_acc(int system, int k)
{
    return ODE_AT(last.a.acc, k, system, last.a.n);
}

double written_steps(int system)
{
    return (double)last.a.steps[system];
}
