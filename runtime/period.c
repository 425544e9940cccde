/* period.c — the scratch memory of `period` (templates/period.h) and of
 * `attractor`'s fingerprints (templates/attractor.h) in the library: per
 * system, the last min(max, record) recorded values of the quantities
 * compared, and ODE_FP_ROWS fingerprint values, on the host for the CPU and
 * on each device for its slice, laid out as the kernels read them
 * (value[(slot * NQ + q) * n + i], fp[row * n + i]).  A GPU's fingerprints
 * come back to the host (pinned) behind the kernel, as the recorded values
 * do.  Appended after library.c (same translation unit); library.c calls
 * ode_period_prepare before a launch and ode_period_free with the solver.
 * Nothing here outlives a launch's meaning: the ring and the fingerprints are
 * rewritten from the first recorded integration of every launch.
 */
#ifndef ODEGEN_GENERATED
#include "library.c"
#endif

struct OdePeriodState {
    ode_real *host;                /* the CPU's ring */
    size_t host_len;
    ode_real *fp;                  /* the fingerprints of every system (host; pinned with a GPU) */
    size_t fp_len;
    int fp_pinned;
#ifdef __CUDACC__
    ode_real **dev;                /* [ndev]: each device's ring */
    size_t *dev_len;
    ode_real **dev_fp;             /* [ndev]: each device's fingerprints */
    size_t *dev_fp_len;
#endif
};

#if ODE_PERIOD
#ifdef __CUDACC__
/* Device memory of at least len values in *p (of capacity *cap). */
static int ode_period_dev_grow(model_solver *s, OdeDevice *d, ode_real **p, size_t *cap, size_t len)
{
    if (len <= *cap) return MODEL_OK;
    ODE_CUDA(s, d, cudaSetDevice(d->id));
    ODE_CUDA(s, d, cudaFree(*p));
    *p = NULL;
    *cap = 0;
    ODE_CUDA(s, d, cudaMalloc((void **)p, len * sizeof(ode_real)));
    *cap = len;
    return MODEL_OK;
}
#endif

/* Before a launch recording `record` integrations: a ring (and with
 * `attractor` a fingerprint) for every system (none when nothing is recorded). */
static int ode_period_prepare(model_solver *s, int record)
{
    s->h.ring = NULL;
    s->h.fp = NULL;
#ifdef __CUDACC__
    for (int k = 0; k < s->ndev; k++) s->dev[k].a.ring = s->dev[k].a.fp = NULL;
#endif
    if (record <= 0) return MODEL_OK;
    if (!s->period && !(s->period = (OdePeriodState *)calloc(1, sizeof(OdePeriodState))))
        return ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate the state of `period`");
    OdePeriodState *ps = s->period;
    const int slots = ODE_PERIOD_SLOTS(record);
    const size_t rows = (size_t)slots * ODE_PERIOD_NQ;
    if (ODE_FP_ROWS > 0) {   /* the host's fingerprints, whatever the backend */
        const size_t len = ode_bytes(ODE_FP_ROWS, (size_t)s->n, 1);
        if (len > s->period->fp_len) {
            ode_host_free(ps->fp, ps->fp_pinned);
            ps->fp = NULL;
            ps->fp_len = 0;
            if (!(ps->fp = (ode_real *)ode_host_alloc(s, len * sizeof(ode_real), "the attractors' fingerprints",
                                                      &ps->fp_pinned)))
                return MODEL_ERR_NOMEM;
            ps->fp_len = len;
        }
    }
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU) {
        if (!ps->dev) {
            ps->dev = (ode_real **)calloc((size_t)s->ndev, sizeof(ode_real *));
            ps->dev_len = (size_t *)calloc((size_t)s->ndev, sizeof(size_t));
            ps->dev_fp = (ode_real **)calloc((size_t)s->ndev, sizeof(ode_real *));
            ps->dev_fp_len = (size_t *)calloc((size_t)s->ndev, sizeof(size_t));
            if (!ps->dev || !ps->dev_len || !ps->dev_fp || !ps->dev_fp_len)
                return ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate the state of `period`");
        }
        for (int k = 0; k < s->ndev; k++) {
            OdeDevice *d = &s->dev[k];
            if (d->a.n == 0) continue;
            const size_t len = ode_bytes(rows, (size_t)d->a.n, 1);
            if (!len || !ode_bytes(len, 1, sizeof(ode_real)))
                return ode_fail(s, MODEL_ERR_NOMEM, "period's ring of %d values of %d systems cannot be addressed",
                                slots * ODE_PERIOD_NQ, d->a.n);
            int rc = ode_period_dev_grow(s, d, &ps->dev[k], &ps->dev_len[k], len);
            if (rc == MODEL_OK && ODE_FP_ROWS > 0)
                rc = ode_period_dev_grow(s, d, &ps->dev_fp[k], &ps->dev_fp_len[k], (size_t)ODE_FP_ROWS * (size_t)d->a.n);
            if (rc != MODEL_OK) return rc;
            d->a.ring = ps->dev[k];
            d->a.ring_slots = slots;
            d->a.fp = ODE_FP_ROWS > 0 ? ps->dev_fp[k] : NULL;
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
    s->h.fp = ODE_FP_ROWS > 0 ? ps->fp : NULL;
    return MODEL_OK;
}

#ifdef __CUDACC__
/* Device d's fingerprints back to the host's, behind its kernel (ode_gpu_start). */
static int ode_period_pull_fp(model_solver *s, OdeDevice *d)
{
    if (ODE_FP_ROWS == 0 || !d->a.fp || !s->period || !s->period->fp) return MODEL_OK;
    const size_t r = sizeof(ode_real);
    ODE_CUDA(s, d, ode_copy_rows(s->period->fp + d->first, (size_t)s->n * r, d->a.fp, (size_t)d->a.n * r,
                                 (size_t)d->a.n * r, (size_t)ODE_FP_ROWS, cudaMemcpyDeviceToHost, d->stream));
    return MODEL_OK;
}
#endif
#else
static int ode_period_prepare(model_solver *s, int record)
{
    (void)s;
    (void)record;
    return MODEL_OK;
}
#ifdef __CUDACC__
static int ode_period_pull_fp(model_solver *s, OdeDevice *d)
{
    (void)s;
    (void)d;
    return MODEL_OK;
}
#endif
#endif

static void ode_period_free(model_solver *s)
{
    OdePeriodState *ps = s->period;
    if (!ps) return;
    free(ps->host);
    ode_host_free(ps->fp, ps->fp_pinned);
#ifdef __CUDACC__
    for (int k = 0; k < s->ndev; k++) {
        if (ps->dev && ps->dev[k]) {
            cudaSetDevice(s->dev[k].id);
            cudaFree(ps->dev[k]);
        }
        if (ps->dev_fp && ps->dev_fp[k]) {
            cudaSetDevice(s->dev[k].id);
            cudaFree(ps->dev_fp[k]);
        }
    }
    free(ps->dev);
    free(ps->dev_len);
    free(ps->dev_fp);
    free(ps->dev_fp_len);
#endif
    free(ps);
    s->period = NULL;
}
