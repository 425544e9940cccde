/* scan.h — the systems both sides of a comparison integrate (included after
 * a model section and the templates): n systems, the model's defaults with
 * parameter `vary` spread over [lo, hi], the first state moved with the
 * system; every field recorded after each of `record` integrations (after
 * `transient` unrecorded ones).  The results, as doubles, in a fixed order
 * (scan_results). */
#ifndef TEAM_SCAN_H
#define TEAM_SCAN_H
#include <stdlib.h>
#include <string.h>

typedef struct Scan {
    OdeArrays a;
    int transient, record;
} Scan;

static void *scan_alloc(size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "scan: out of memory\n");
        exit(2);
    }
    return p;
}

static void scan_make(Scan *sc, int n, int vary, double lo, double hi, double total, int transient, int record)
{
    OdeArrays *a = &sc->a;
#ifdef SCAN_PREPARE
    SCAN_PREPARE();                        /* defaults the model computes */
#endif
    memset(sc, 0, sizeof *sc);
    sc->transient = transient;
    sc->record = record;
    a->n = n;
    a->t = (ode_real *)scan_alloc(sizeof(ode_real) * n);
    a->t0 = (ode_real *)scan_alloc(sizeof(ode_real) * n);
    a->t1 = (ode_real *)scan_alloc(sizeof(ode_real) * n);
    a->y = (ode_real *)scan_alloc(sizeof(ode_real) * n * ODE_NSTATE);
    a->p = (ode_real *)scan_alloc(sizeof(ode_real) * n * ODE_NPARAM);
    a->acc = (ode_real *)scan_alloc(sizeof(ode_real) * n * ODE_ALLOC(ODE_NACC));
    a->status = (int *)scan_alloc(sizeof(int) * n);
    a->steps = (unsigned long long *)scan_alloc(sizeof(unsigned long long) * n);
    a->evals = (unsigned long long *)scan_alloc(sizeof(unsigned long long) * n);
    a->nfield = ODE_NFIELD;
    for (int f = 0; f < ODE_NFIELD; f++) a->fields[f] = f;
    a->rec = (ode_real *)scan_alloc(sizeof(ode_real) * (size_t)record * ODE_NFIELD * n);
    a->rec_status = (int *)scan_alloc(sizeof(int) * (size_t)record * n);
    a->opt.dt = ODE_DEFAULT_DT;
    a->opt.dtmin = ODE_DEFAULT_DTMIN;
    a->opt.dtmax = ODE_DEFAULT_DTMAX;
    a->opt.toler = ODE_DEFAULT_TOLER;
    a->opt.atoler = ODE_DEFAULT_ATOLER;
    a->opt.toler_scale = a->opt.atoler_scale = 1.0;
    a->opt.bound = ODE_DEFAULT_BOUND;
    a->opt.maxsteps = ODE_DEFAULT_MAXSTEPS;
    for (int i = 0; i < n; i++) {
        a->t[i] = a->t0[i] = 0.0;
        a->t1[i] = total;
        for (int k = 0; k < ODE_NSTATE; k++) ODE_AT(a->y, k, i, n) = ode_state_default[k];
        ODE_AT(a->y, 0, i, n) += 0.05 * i;
        for (int k = 0; k < ODE_NPARAM; k++) ODE_AT(a->p, k, i, n) = ode_param_default[k];
        ODE_AT(a->p, vary, i, n) = n > 1 ? lo + (hi - lo) * i / (n - 1) : lo;
        a->status[i] = ODE_STATUS_READY;
    }
}

/* Every result in a fixed order: per system t, status, steps, evals, y, acc; then rec, rec_status. */
static size_t scan_results(const Scan *sc, double *out)
{
    const OdeArrays *a = &sc->a;
    size_t k = 0;
    for (int i = 0; i < a->n; i++) {
        out[k++] = a->t[i];
        out[k++] = a->status[i];
        out[k++] = (double)a->steps[i];
        out[k++] = (double)a->evals[i];
        for (int j = 0; j < ODE_NSTATE; j++) out[k++] = ODE_AT(a->y, j, i, a->n);
        for (int j = 0; j < ODE_NACC; j++) out[k++] = ODE_AT(a->acc, j, i, a->n);
    }
    for (size_t j = 0; j < (size_t)sc->record * ODE_NFIELD * a->n; j++) out[k++] = a->rec[j];
    for (size_t j = 0; j < (size_t)sc->record * a->n; j++) out[k++] = a->rec_status[j];
    return k;
}

static size_t scan_count(int n, int record)
{
    return (size_t)n * (4 + ODE_NSTATE + ODE_NACC) + (size_t)record * (ODE_NFIELD + 1) * n;
}
#endif
