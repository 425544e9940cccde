/* period.c — the scratch memory of `period` (templates/period.h) in the
 * library: per system, the last min(max, record) recorded values of the
 * quantities it compares, on the host for the CPU and on each device for its
 * slice, laid out as the kernels read it (value[(slot * NQ + q) * n + i]).
 * Appended after library.c (same translation unit); library.c calls
 * ode_period_prepare before a launch and ode_period_free with the solver.
 * Nothing here outlives a launch's meaning: the ring is rewritten from the
 * first recorded integration of every launch.
 */
#ifndef ODEGEN_GENERATED
#include "library.c"
#endif

struct OdePeriodState {
    ode_real *host;                /* the CPU's ring */
    size_t host_len;
#ifdef __CUDACC__
    ode_real **dev;                /* [ndev]: each device's ring */
    size_t *dev_len;
#endif
};

#if ODE_PERIOD
/* Before a launch recording `record` integrations: a ring for every system
 * (none when nothing is recorded). */
static int ode_period_prepare(model_solver *s, int record)
{
    s->h.ring = NULL;
#ifdef __CUDACC__
    for (int k = 0; k < s->ndev; k++) s->dev[k].a.ring = NULL;
#endif
    if (record <= 0) return MODEL_OK;
    if (!s->period && !(s->period = (OdePeriodState *)calloc(1, sizeof(OdePeriodState))))
        return ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate the state of `period`");
    OdePeriodState *ps = s->period;
    const int slots = ODE_PERIOD_SLOTS(record);
    const size_t rows = (size_t)slots * ODE_PERIOD_NQ;
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU) {
        if (!ps->dev) {
            ps->dev = (ode_real **)calloc((size_t)s->ndev, sizeof(ode_real *));
            ps->dev_len = (size_t *)calloc((size_t)s->ndev, sizeof(size_t));
            if (!ps->dev || !ps->dev_len) return ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate the state of `period`");
        }
        for (int k = 0; k < s->ndev; k++) {
            OdeDevice *d = &s->dev[k];
            if (d->a.n == 0) continue;
            const size_t len = ode_bytes(rows, (size_t)d->a.n, 1);
            if (!len || !ode_bytes(len, 1, sizeof(ode_real)))
                return ode_fail(s, MODEL_ERR_NOMEM, "period's ring of %d values of %d systems cannot be addressed",
                                slots * ODE_PERIOD_NQ, d->a.n);
            if (len > ps->dev_len[k]) {
                ODE_CUDA(s, d, cudaSetDevice(d->id));
                ODE_CUDA(s, d, cudaFree(ps->dev[k]));
                ps->dev[k] = NULL;
                ps->dev_len[k] = 0;
                ODE_CUDA(s, d, cudaMalloc((void **)&ps->dev[k], len * sizeof(ode_real)));
                ps->dev_len[k] = len;
            }
            d->a.ring = ps->dev[k];
            d->a.ring_slots = slots;
        }
        return MODEL_OK;
    }
#endif
    const size_t len = ode_bytes(rows, (size_t)s->n, 1);
    if (!len || !ode_bytes(len, 1, sizeof(ode_real)))
        return ode_fail(s, MODEL_ERR_NOMEM, "period's ring of %d values of %d systems cannot be addressed",
                        slots * ODE_PERIOD_NQ, s->n);
    if (len > ps->host_len) {
        free(ps->host);
        ps->host_len = 0;
        if (!(ps->host = (ode_real *)ode_alloc(s, len * sizeof(ode_real), "period's ring of recorded values")))
            return MODEL_ERR_NOMEM;
        ps->host_len = len;
    }
    s->h.ring = ps->host;
    s->h.ring_slots = slots;
    return MODEL_OK;
}
#else
static int ode_period_prepare(model_solver *s, int record)
{
    (void)s;
    (void)record;
    return MODEL_OK;
}
#endif

static void ode_period_free(model_solver *s)
{
    OdePeriodState *ps = s->period;
    if (!ps) return;
    free(ps->host);
#ifdef __CUDACC__
    if (ps->dev)
        for (int k = 0; k < s->ndev; k++)
            if (ps->dev[k]) {
                cudaSetDevice(s->dev[k].id);
                cudaFree(ps->dev[k]);
            }
    free(ps->dev);
    free(ps->dev_len);
#endif
    free(ps);
    s->period = NULL;
}
