/* team_side.h — the team side of test_integrate.c's comparisons, for a model
 * in loop form included before (run_team.c: written by hand; run_generated.c:
 * generated): the CPU path, or an emulated team of any size. */
#ifndef TEAM_SIDE_H
#define TEAM_SIDE_H

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

#endif
