/* run_team.c — the same model in loop form (MODEL_LOOP), integrated by the
 * team integrator as a generated file assembles it: by emulated teams of
 * any size (lanes in either order), or by the CPU path itself (cpu_loop.h:
 * a team of one per OpenMP iteration).  The other side of test_integrate.c. */
#define _DEFAULT_SOURCE 1   /* ucontext, _setjmp (emulate.c) */
#define ODEGEN_GENERATED 1
#define ODE_TEAM_EMULATE 1
#include <stdio.h>
#include MODEL_LOOP
#include "tableaux.h"
#include "stepper.h"
#include "dense.h"
#include "event_rules.h"
#include "events.h"
#include "save.h"
#include "integrate.h"
#include "team_stepper.h"
#include "team_dense.h"
#include "team_events.h"
#include "team_save.h"
#include "team_integrate.h"
#include "team_driver.h"
#include "cpu_loop.h"
#include "emulate.h"
#include "emulate.c"
#include "scan.h"
#include "sides.h"

typedef struct TeamRun {
    Scan *sc;
    void *work;
    OdeSystem sys;          /* the team's system (shared by its lanes) */
} TeamRun;

static void team_body(OdeTeam team, void *arg)
{
    TeamRun *r = arg;
    OdeTeamCtx c;
    ode_team_bind(&c, team, &r->sys, r->work);
    for (int i = 0; i < r->sc->a.n; i++) ode_team_run_system(&c, &r->sc->a, i, r->sc->transient, r->sc->record);
}

size_t team_run(const ScanSpec *spec, int size, int order, double *out)
{
    Scan sc;
    scan_make(&sc, spec->n, spec->vary, spec->lo, spec->hi, spec->total, spec->transient, spec->record);
    if (size == 0) {
        ode_cpu_run(&sc.a, spec->transient, spec->record, NULL, NULL);
    } else {
        TeamRun r;
        memset(&r, 0, sizeof r);
        r.sc = &sc;
        r.work = scan_alloc(ODE_TEAM_WORK_BYTES);
        if (ode_team_emu_run(size, order, team_body, &r, NULL)) return 0;
        free(r.work);
    }
    return scan_results(&sc, out);
}
