/* save.c — trajectory samples (`save every=DT`, SPEC §2, §4) in the library:
 * which resident systems are sampled, the buffers the kernels write them to
 * (templates/save.h) on the host and on each device, and the functions of
 * api.h that read them.  Appended after library.c (same translation unit:
 * it uses the solver's internals); library.c calls ode_save_prepare before a
 * scan's launch, ode_save_collect after it and ode_save_free with the solver.
 *
 * Layout (as the kernels write it, per device for its slice): of saved
 * system q after recorded integration r, sample j has its time at
 * t[(r * cap + j) * nsave + q] and field f at
 * v[((r * cap + j) * nfield + f) * nsave + q]; count[r * nsave + q] samples
 * were due, of which at most cap are kept.
 */
#ifndef ODEGEN_GENERATED
#include "library.c"
#endif

#ifndef ODE_SAVE
#define ODE_SAVE 0
#define ODE_SAVE_EVERY 0.0
#endif

#ifdef __CUDACC__
/* One device's samples: its slice's saved systems are saved indices first …
 * first+nsave-1 of the solver (slices and saved systems are both in system
 * order). */
typedef struct OdeSaveDevice {
    int first, nsave;
    int *slot;                     /* [slice size]: device-local saved index, or -1 */
    ode_real *t, *v;
    unsigned int *count;
    size_t t_len, v_len, count_len;
} OdeSaveDevice;
#endif

struct OdeSaveState {
    double every;                  /* time between samples; 0: none taken */
    int capacity;                  /* samples kept per integration as asked (0: from the windows) */
    int *slot;                     /* [n]: saved index of each resident system, or -1 */
    int nsave;
    /* the last scan's samples */
    int nrec, cap, nfield;
    ode_real *t, *v;
    unsigned int *count;
    size_t t_len, v_len, count_len;
#ifdef __CUDACC__
    OdeSaveDevice *dev;            /* [ndev] */
#endif
};

/* Bytes of one saved system's samples over `record` integrations of `cap`
 * samples of `nfield` fields (times and counts included); 0 when that does
 * not fit a size_t. */
static size_t ode_save_bytes(int record, int cap, int nfield)
{
    const size_t per_sample = ode_bytes((size_t)(nfield + 1), 1, sizeof(ode_real));
    const size_t samples = ode_bytes((size_t)record, (size_t)cap, 1);
    if (!per_sample || !samples || samples > SIZE_MAX / per_sample) return 0;
    const size_t bytes = samples * per_sample;
    return bytes > SIZE_MAX - (size_t)record * sizeof(unsigned int) ? 0 : bytes + (size_t)record * sizeof(unsigned int);
}

/* Samples per integration from the saved systems' windows: those of the
 * longest window (its last sample within rounding of t1 included). */
static double ode_save_cap_from_windows(const model_solver *s, double every)
{
    double longest = 0;
    for (int i = 0; i < s->n; i++)
        if (s->save->slot[i] >= 0) {
            const double w = (double)s->h.t1[i] - (double)s->h.t0[i];
            if (w > longest) longest = w;
        }
    return floor(longest / every * (1.0 + 64.0 * (double)ODE_EPS)) + 1.0;
}

/* Grows a buffer to hold `len` elements of `size` bytes (host). */
static int ode_save_grow(model_solver *s, void **p, size_t *have, size_t len, size_t size, const char *what)
{
    if (len <= *have && *p) return MODEL_OK;
    free(*p);
    *have = 0;
    if (!(*p = ode_alloc(s, ode_bytes(len, 1, size), what))) return MODEL_ERR_NOMEM;
    *have = len;
    return MODEL_OK;
}

#ifdef __CUDACC__
static int ode_save_grow_device(model_solver *s, OdeDevice *d, void **p, size_t *have, size_t len, size_t size)
{
    if (len <= *have && *p) return MODEL_OK;
    ODE_CUDA(s, d, cudaFree(*p));
    *p = NULL;
    *have = 0;
    ODE_CUDA(s, d, cudaMalloc(p, ode_bytes(len, 1, size)));
    *have = len;
    return MODEL_OK;
}
#endif

/* Before a scan recording `record` integrations: the buffers for the
 * samples, pointed at from the arrays the kernels read (no samples: NULL). */
static int ode_save_prepare(model_solver *s, int record)
{
    OdeSaveState *sv = s->save;
    s->h.traj = NULL;
#ifdef __CUDACC__
    for (int k = 0; k < s->ndev; k++) s->dev[k].a.traj = NULL;
#endif
    if (sv) sv->nrec = 0;
    if (!ODE_SAVE || !sv || sv->every <= 0 || sv->nsave == 0 || record == 0) return MODEL_OK;
    const int nfield = s->h.nfield;
#ifdef __CUDACC__
    if (sv->capacity <= 0) {   /* the windows, which a scan made on the device may hold alone */
        int rc = ode_pull(s, ODE_ABIT(t0) | ODE_ABIT(t1));
        if (rc != MODEL_OK) return rc;
    }
#endif
    const double cap = sv->capacity > 0 ? (double)sv->capacity : ode_save_cap_from_windows(s, sv->every);
    const size_t per = cap <= 2.0e9 ? ode_save_bytes(record, (int)cap, nfield) : 0;
    const double total = per ? (double)per * (double)sv->nsave : HUGE_VAL;
    if (!per || total > 0.5 * (double)SIZE_MAX)
        return ode_fail(s, MODEL_ERR_NOMEM,
                        "saving %.0f samples per integration (every %g) of %d recorded integrations of %d "
                        "systems needs more memory than can be addressed; save fewer systems, or cap the samples "
                        "per integration (save max=N)",
                        cap, sv->every, record, sv->nsave);
    sv->cap = (int)cap;
    sv->nfield = nfield;
    const size_t nt = (size_t)record * (size_t)sv->cap * (size_t)sv->nsave;
    int rc = ode_save_grow(s, (void **)&sv->t, &sv->t_len, nt, sizeof(ode_real), "the sample times");
    if (rc == MODEL_OK)
        rc = ode_save_grow(s, (void **)&sv->v, &sv->v_len, nt * (size_t)(nfield > 0 ? nfield : 1), sizeof(ode_real),
                           "the samples");
    if (rc == MODEL_OK)
        rc = ode_save_grow(s, (void **)&sv->count, &sv->count_len, (size_t)record * (size_t)sv->nsave,
                           sizeof(unsigned int), "the sample counts");
    if (rc != MODEL_OK) return rc;
    OdeArrays *a = &s->h;
    a->traj = sv->v;
    a->traj_t = sv->t;
    a->traj_count = sv->count;
    a->save_slot = sv->slot;
    a->nsave = sv->nsave;
    a->save_cap = sv->cap;
    a->save_every = (ode_real)sv->every;
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU) {
        s->h.traj = NULL;                         /* the devices write, the host collects */
        if (!sv->dev && !(sv->dev = (OdeSaveDevice *)calloc((size_t)s->ndev, sizeof(OdeSaveDevice))))
            return ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate the device table of the samples");
        int first = 0;
        for (int k = 0; k < s->ndev; k++) {
            OdeDevice *d = &s->dev[k];
            OdeSaveDevice *sd = &sv->dev[k];
            int *local = (int *)ode_alloc(s, ode_bytes((size_t)d->a.n, 1, sizeof(int)), "the saved systems");
            if (!local) return MODEL_ERR_NOMEM;
            int m = 0;
            for (int i = 0; i < d->a.n; i++) local[i] = sv->slot[d->first + i] >= 0 ? m++ : -1;
            sd->first = first;
            sd->nsave = m;
            first += m;
            d->a.traj = NULL;
            if (m == 0 || d->a.n == 0) {
                free(local);
                continue;
            }
            const size_t dt = (size_t)record * (size_t)sv->cap * (size_t)m;
            rc = MODEL_OK;
            if (cudaSetDevice(d->id) != cudaSuccess) rc = ode_cuda_fail(s, d, cudaGetLastError(), "cudaSetDevice", __LINE__);
            size_t slot_len = sd->slot ? (size_t)d->a.n : 0;
            if (rc == MODEL_OK) rc = ode_save_grow_device(s, d, (void **)&sd->slot, &slot_len, (size_t)d->a.n, sizeof(int));
            if (rc == MODEL_OK) rc = ode_save_grow_device(s, d, (void **)&sd->t, &sd->t_len, dt, sizeof(ode_real));
            if (rc == MODEL_OK)
                rc = ode_save_grow_device(s, d, (void **)&sd->v, &sd->v_len, dt * (size_t)(nfield > 0 ? nfield : 1),
                                          sizeof(ode_real));
            if (rc == MODEL_OK)
                rc = ode_save_grow_device(s, d, (void **)&sd->count, &sd->count_len, (size_t)record * (size_t)m,
                                          sizeof(unsigned int));
            if (rc == MODEL_OK &&
                cudaMemcpy(sd->slot, local, (size_t)d->a.n * sizeof(int), cudaMemcpyHostToDevice) != cudaSuccess)
                rc = ode_cuda_fail(s, d, cudaGetLastError(), "cudaMemcpy(saved systems)", __LINE__);
            free(local);
            if (rc != MODEL_OK) return rc;
            d->a.traj = sd->v;
            d->a.traj_t = sd->t;
            d->a.traj_count = sd->count;
            d->a.save_slot = sd->slot;
            d->a.nsave = m;
            d->a.save_cap = sv->cap;
            d->a.save_every = (ode_real)sv->every;
        }
    }
#endif
    return MODEL_OK;
}

/* After the scan: the samples in the host buffers (GPU: copied from each
 * device's), readable until the next run or scan. */
static int ode_save_collect(model_solver *s, int record)
{
    OdeSaveState *sv = s->save;
    if (!sv || !(s->h.traj
#ifdef __CUDACC__
                 || (s->backend == MODEL_BACKEND_GPU && sv->every > 0 && sv->nsave > 0 && record > 0)
#endif
                 ))
        return MODEL_OK;
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU) {
        const size_t r = sizeof(ode_real), rows = (size_t)record * (size_t)sv->cap;
        for (int k = 0; k < s->ndev; k++) {
            OdeDevice *d = &s->dev[k];
            OdeSaveDevice *sd = &sv->dev[k];
            if (!d->a.traj) continue;
            const size_t m = (size_t)sd->nsave, all = (size_t)sv->nsave;
            ODE_CUDA(s, d, cudaSetDevice(d->id));
            ODE_CUDA(s, d, ode_copy_rows(sv->t + sd->first, all * r, sd->t, m * r, m * r, rows, cudaMemcpyDeviceToHost,
                                         d->stream));
            ODE_CUDA(s, d, ode_copy_rows(sv->v + sd->first, all * r, sd->v, m * r, m * r, rows * (size_t)sv->nfield,
                                         cudaMemcpyDeviceToHost, d->stream));
            ODE_CUDA(s, d, ode_copy_rows(sv->count + sd->first, all * sizeof(unsigned int), sd->count,
                                         m * sizeof(unsigned int), m * sizeof(unsigned int), (size_t)record,
                                         cudaMemcpyDeviceToHost, d->stream));
            ODE_CUDA(s, d, cudaStreamSynchronize(d->stream));
            d->a.traj = NULL;
        }
    }
#endif
    s->h.traj = NULL;
    sv->nrec = record;
    return MODEL_OK;
}

static void ode_save_free(model_solver *s)
{
    OdeSaveState *sv = s->save;
    if (!sv) return;
#ifdef __CUDACC__
    for (int k = 0; sv->dev && k < s->ndev; k++) {
        OdeSaveDevice *sd = &sv->dev[k];
        if (cudaSetDevice(s->dev[k].id) != cudaSuccess) continue;
        cudaFree(sd->slot);
        cudaFree(sd->t);
        cudaFree(sd->v);
        cudaFree(sd->count);
    }
    cudaGetLastError();
    free(sv->dev);
#endif
    free(sv->slot);
    free(sv->t);
    free(sv->v);
    free(sv->count);
    free(sv);
    s->save = NULL;
}

/* ------------------------------------------------------------------ API */

double model_save_every(void) { return ODE_SAVE ? (double)ODE_SAVE_EVERY : 0.0; }

int model_solver_set_save(model_solver *s, double every, int capacity, const int *systems, int nsystems)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    if (!ODE_SAVE && every != 0)
        return ode_fail(s, MODEL_ERR_ARG, "the model has no `save` line: its kernels take no samples");
    if (!(every >= 0) || !isfinite(every))
        return ode_fail(s, MODEL_ERR_ARG, "every = %g: the time between samples must be positive (0: none)", every);
    if (capacity < 0) return ode_fail(s, MODEL_ERR_ARG, "capacity %d is negative (0: from the windows)", capacity);
    if (systems && (nsystems < 0 || nsystems > s->n))
        return ode_fail(s, MODEL_ERR_ARG, "%d systems: from 0 to %d", nsystems, s->n);
    for (int k = 0; systems && k < nsystems; k++)
        if (systems[k] < 0 || systems[k] >= s->n)
            return ode_fail(s, MODEL_ERR_ARG, "systems[%d] = %d out of range (0 to %d)", k, systems[k], s->n - 1);
    if (!s->save) {
        s->save = (OdeSaveState *)calloc(1, sizeof(OdeSaveState));
        if (s->save) s->save->slot = (int *)malloc(ode_bytes((size_t)s->n, 1, sizeof(int)));
        if (!s->save || !s->save->slot) {
            ode_save_free(s);
            return ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate the table of saved systems");
        }
    }
    OdeSaveState *sv = s->save;
    sv->every = every;
    sv->capacity = capacity;
    sv->nrec = 0;
    for (int i = 0; i < s->n; i++) sv->slot[i] = systems ? -1 : i;
    for (int k = 0; systems && k < nsystems; k++) sv->slot[systems[k]] = 0;
    sv->nsave = 0;
    for (int i = 0; i < s->n; i++)
        if (sv->slot[i] >= 0) sv->slot[i] = sv->nsave++;
    return MODEL_OK;
}

/* The saved index of (rep, system) after the last scan, or an error. */
static int ode_saved_index(model_solver *s, int rep, int system, int *q)
{
    OdeSaveState *sv = s->save;
    if (!sv || sv->nrec == 0)
        return ode_fail(s, MODEL_ERR_NODATA, "no samples: the last run or scan took none");
    if (rep < 0 || rep >= sv->nrec) return ode_fail(s, MODEL_ERR_ARG, "rep %d out of range (0 to %d)", rep, sv->nrec - 1);
    int rc = ode_check_system(s, system, 0);
    if (rc != MODEL_OK) return rc;
    if (sv->slot[system] < 0) return ode_fail(s, MODEL_ERR_ARG, "system %d is not sampled (model_solver_set_save)", system);
    *q = sv->slot[system];
    return MODEL_OK;
}

int model_solver_saved_count(model_solver *s, int rep, int system, int *kept, int *due)
{
    int q = 0, rc = ode_enter(s, __func__);
    if (rc == MODEL_OK) rc = ode_saved_index(s, rep, system, &q);
    if (rc != MODEL_OK) return rc;
    const unsigned int n = s->save->count[(size_t)rep * (size_t)s->save->nsave + (size_t)q];
    if (kept) *kept = n < (unsigned int)s->save->cap ? (int)n : s->save->cap;
    if (due) *due = n > (unsigned int)INT_MAX ? INT_MAX : (int)n;
    return MODEL_OK;
}

int model_solver_saved(model_solver *s, int rep, int system, int sample, double *t, double *values)
{
    int q = 0, kept = 0, rc = ode_enter(s, __func__);
    if (rc == MODEL_OK) rc = ode_saved_index(s, rep, system, &q);
    if (rc == MODEL_OK) rc = model_solver_saved_count(s, rep, system, &kept, NULL);
    if (rc == MODEL_OK && (sample < 0 || sample >= kept))
        rc = ode_fail(s, MODEL_ERR_ARG, "sample %d out of range (0 to %d)", sample, kept - 1);
    if (rc != MODEL_OK) return rc;
    const OdeSaveState *sv = s->save;
    const size_t row = (size_t)rep * (size_t)sv->cap + (size_t)sample, m = (size_t)sv->nsave;
    if (t) *t = (double)sv->t[row * m + (size_t)q];
    for (int f = 0; values && f < sv->nfield; f++)
        values[f] = (double)sv->v[(row * (size_t)sv->nfield + (size_t)f) * m + (size_t)q];
    return MODEL_OK;
}
