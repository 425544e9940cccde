/* delay.c — the memory of delay(x, tau) (templates/delay.h) in the library:
 * per system, a ring of stored steps and its header, on the host for the CPU
 * and on each device for its slice, laid out as the kernels read it
 * (value[(slot * ODE_HIST_W + w) * n + i]).  Appended after library.c (same
 * translation unit); library.c calls ode_hist_prepare before a launch and
 * ode_hist_free with the solver.
 *
 * Unlike `period`'s ring, this one outlives a launch: the next run of a
 * system goes on from its past, as it goes on from its state.  A ring made
 * anew (first launch, another slice, another step size) is zeroed, which
 * its header reads as "no past yet": those systems start again from the
 * initial function.
 */
#ifndef ODEGEN_GENERATED
#include "library.c"
#endif

struct OdeHistState {
    ode_real *host;                /* the CPU's rings */
    size_t host_len;
    int host_n, host_slots;        /* what they were made for */
#ifdef __CUDACC__
    ode_real **dev;                /* [ndev]: each device's rings */
    size_t *dev_len;
    int *dev_n, *dev_slots;
#endif
};

#if ODE_NDELAY > 0
/* A zeroed ring of `len` values at *ring (capacity *cap), made for n
 * systems of `slots` slots. */
static int ode_hist_host(model_solver *s, ode_real **ring, size_t *cap, size_t len)
{
    if (len > *cap) {
        free(*ring);
        *cap = 0;
        if (!(*ring = (ode_real *)ode_alloc(s, len * sizeof(ode_real), "delay's ring of stored steps")))
            return MODEL_ERR_NOMEM;
        *cap = len;
    }
    memset(*ring, 0, len * sizeof(ode_real));
    return MODEL_OK;
}

/* Before a launch: every system's ring, kept from the last launch when it
 * was made for the same systems and slots. */
static int ode_hist_prepare(model_solver *s)
{
    if (!s->hist && !(s->hist = (OdeHistState *)calloc(1, sizeof(OdeHistState))))
        return ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate the state of delay's rings");
    OdeHistState *hs = s->hist;
    const int slots = ode_hist_slots((double)s->h.opt.dt);
    const size_t rows = (size_t)slots * ODE_HIST_W + ODE_HIST_HEADER;
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU) {
        if (!hs->dev) {
            hs->dev = (ode_real **)calloc((size_t)s->ndev, sizeof(ode_real *));
            hs->dev_len = (size_t *)calloc((size_t)s->ndev, sizeof(size_t));
            hs->dev_n = (int *)calloc((size_t)s->ndev, sizeof(int));
            hs->dev_slots = (int *)calloc((size_t)s->ndev, sizeof(int));
            if (!hs->dev || !hs->dev_len || !hs->dev_n || !hs->dev_slots)
                return ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate the state of delay's rings");
        }
        for (int k = 0; k < s->ndev; k++) {
            OdeDevice *d = &s->dev[k];
            d->a.hist = NULL;
            if (d->a.n == 0) continue;
            const size_t len = ode_bytes(rows, (size_t)d->a.n, 1);
            if (!len || !ode_bytes(len, 1, sizeof(ode_real)))
                return ode_fail(s, MODEL_ERR_NOMEM, "delay's rings of %d slots of %d systems cannot be addressed",
                                slots, d->a.n);
            if (hs->dev[k] && hs->dev_n[k] == d->a.n && hs->dev_slots[k] == slots) {
                d->a.hist = hs->dev[k];
                d->a.hist_slots = slots;
                continue;
            }
            ODE_CUDA(s, d, cudaSetDevice(d->id));
            if (len > hs->dev_len[k]) {
                ODE_CUDA(s, d, cudaFree(hs->dev[k]));
                hs->dev[k] = NULL;
                hs->dev_len[k] = 0;
                ODE_CUDA(s, d, cudaMalloc((void **)&hs->dev[k], len * sizeof(ode_real)));
                hs->dev_len[k] = len;
            }
            ODE_CUDA(s, d, cudaMemset(hs->dev[k], 0, len * sizeof(ode_real)));
            hs->dev_n[k] = d->a.n;
            hs->dev_slots[k] = slots;
            d->a.hist = hs->dev[k];
            d->a.hist_slots = slots;
        }
        return MODEL_OK;
    }
#endif
    const size_t len = ode_bytes(rows, (size_t)s->n, 1);
    if (!len || !ode_bytes(len, 1, sizeof(ode_real)))
        return ode_fail(s, MODEL_ERR_NOMEM, "delay's rings of %d slots of %d systems cannot be addressed", slots,
                        s->n);
    if (!(hs->host && hs->host_n == s->n && hs->host_slots == slots)) {
        int rc = ode_hist_host(s, &hs->host, &hs->host_len, len);
        if (rc != MODEL_OK) return rc;
        hs->host_n = s->n;
        hs->host_slots = slots;
    }
    s->h.hist = hs->host;
    s->h.hist_slots = slots;
    return MODEL_OK;
}
#else
static int ode_hist_prepare(model_solver *s)
{
    (void)s;
    return MODEL_OK;
}
#endif

static void ode_hist_free(model_solver *s)
{
    OdeHistState *hs = s->hist;
    if (!hs) return;
    free(hs->host);
#ifdef __CUDACC__
    if (hs->dev)
        for (int k = 0; k < s->ndev; k++)
            if (hs->dev[k]) {
                cudaSetDevice(s->dev[k].id);
                cudaFree(hs->dev[k]);
            }
    free(hs->dev);
    free(hs->dev_len);
    free(hs->dev_n);
    free(hs->dev_slots);
#endif
    free(hs);
    s->hist = NULL;
}
