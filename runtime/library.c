/* library.c — the C library of a generated model (SPEC §5): the functions
 * declared in api.h, over the solver templates (solver.h, driver.h).
 *
 * A solver holds its n systems in host arrays (structure of arrays).  With a
 * GPU backend it also holds one slice of them per device, and the host arrays
 * are pinned so that copies run at the link's full speed and asynchronously.
 * Copies are lazy, array by array: a run copies in only the arrays the host
 * changed since the last run (dev_stale), and leaves its results on the
 * devices until a function reads them (host_stale; ode_pull); the recorded
 * values of a scan come back behind the kernel on the same stream, and the
 * statistics are summed on the device (ode_tally_kernel), so that a scan
 * moves the recorded values and little else.  With a progress callback, the
 * wait polls the kernels' counter of completed systems: it lives in device
 * memory (system-scope atomics on mapped host memory are refused by
 * compute-sanitizer where the host link has no native atomics, as on x86
 * with PCIe), and a 4-byte copy on a second stream reads it while the kernel
 * runs.
 *
 * The runner (runner.c) drives solvers through a few functions that api.h
 * does not declare (at the end): a launch that returns at once and a wait
 * (ode_launch, ode_finish), a solver resized for a shorter last chunk, and
 * the systems of a scan made on the device from the scan's definition
 * (scan_fill.c) instead of copied.
 *
 * Valid as C11 (CPU only) and as CUDA C++ (nvcc: CPU and GPU).  Everything
 * not in api.h is static and named ode_… / Ode…; there is no static mutable
 * state.
 */
#ifndef ODEGEN_GENERATED
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "api.h"
#include "example_model.h"
#include "solver.h"
#include "driver.h"
#include "scan_fill.c"
#include "options.c"
#endif

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef ODE_BLOCK_SIZE
#define ODE_BLOCK_SIZE 128
#endif

#if defined(__GNUC__)
#define ODE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ODE_PRINTF(f, a)
#endif

/* The public constants (NAME.h) and the model section (NAME.cu) come from two
 * places of the generator: they must agree. */
#define ODE_CHECK(name, cond) typedef char ode_check_##name[(cond) ? 1 : -1]
#define ODE_EQ(a, b) ((int)(a) == (int)(b))
ODE_CHECK(counts, MODEL_NSTATE == ODE_NSTATE && MODEL_NPARAM == ODE_NPARAM && MODEL_NACC == ODE_NACC &&
                      MODEL_NAUX == ODE_NAUX && MODEL_NDERIVED == ODE_NDERIVED &&
                      MODEL_NEVENT == ODE_NEVENT && MODEL_NFIELD == ODE_NFIELD);
#define ODE_STATUS_SAME(N, name, sticky) &&ODE_EQ(MODEL_STATUS_##N, ODE_STATUS_##N)
ODE_CHECK(statuses, ODE_EQ(MODEL_NSTATUS, ODE_NSTATUS) ODE_STATUSES(ODE_STATUS_SAME));
#undef ODE_STATUS_SAME
ODE_CHECK(block, ODE_BLOCK_SIZE >= 32 && ODE_BLOCK_SIZE % 32 == 0);

/* The per-system arrays of OdeArrays, with their number of rows (values per
 * system): X(member, rows).  The device writes all but the parameters (and
 * those too where a block assigns one: ODE_PARAMS_ASSIGNED). */
#if ODE_NOISE   /* the random numbers' key (templates/noise.h): where each system is, and who it is */
#define ODE_KEY_RESULTS(X) X(rng_rep, 1) X(rng_step, 1)
#define ODE_KEY_INPUTS(X) X(rng_system, 1)
#else
#define ODE_KEY_RESULTS(X)
#define ODE_KEY_INPUTS(X)
#endif
#define ODE_RESULT_ARRAYS(X) \
    X(t, 1) X(t0, 1) X(t1, 1) X(y, ODE_NSTATE) X(acc, ODE_NACC) X(status, 1) X(steps, 1) X(evals, 1) ODE_KEY_RESULTS(X)
#define ODE_ARRAYS(X) ODE_RESULT_ARRAYS(X) X(p, ODE_NPARAM) ODE_KEY_INPUTS(X)

/* ------------------------------------------------------------------ codes */

const char *model_strerror(int code)
{
    switch (code) {
    case MODEL_OK: return "no error";
    case MODEL_ERR_ARG: return "invalid argument";
    case MODEL_ERR_NAME: return "unknown name";
    case MODEL_ERR_NOMEM: return "out of memory";
    case MODEL_ERR_NO_GPU: return "no GPU available";
    case MODEL_ERR_DEVICE: return "no such CUDA device";
    case MODEL_ERR_CUDA: return "CUDA error";
    case MODEL_ERR_NODATA: return "no recorded values";
    case MODEL_ERR_FAILED: return "the solver could not be created";
    case MODEL_ERR_STOPPED: return "stopped by the progress callback";
    case MODEL_ERR_MPI: return "another MPI process failed, or MPI did";
    default: return code > 0 ? "stopped by the record callback" : "unknown error code";
    }
}

/* ------------------------------------------------------------------ the model */

static int ode_same_name(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 'a' - 'A';
        if (cb >= 'A' && cb <= 'Z') cb += 'a' - 'A';
        if (ca != cb) return 0;
        if (!ca) return 1;
    }
}

/* The name table of a kind and its length; NULL for kinds without names. */
static const char *const *ode_names(int kind, int *count)
{
    switch (kind) {
    case MODEL_KIND_STATE: *count = ODE_NSTATE; return ode_state_names;
    case MODEL_KIND_PARAM: *count = ODE_NPARAM; return ode_param_names;
    case MODEL_KIND_ACC: *count = ODE_NACC; return ode_acc_names;
    case MODEL_KIND_AUX: *count = ODE_NAUX; return ode_aux_names;
    case MODEL_KIND_DERIVED: *count = ODE_NDERIVED; return ode_derived_names;
    case MODEL_KIND_EVENT: *count = ODE_NEVENT; return ode_event_names;
    case MODEL_KIND_FIELD: *count = ODE_NFIELD; return ode_field_names;
    default: *count = -1; return NULL;
    }
}

/* Names of the per-system values, kinds MODEL_KIND_T … MODEL_KIND_EVALS. */
static const char *const ode_value_names[] = {"t", "t0", "t1", "status", "steps", "evals"};

const char *model_modelname(void) { return ODE_MODEL_NAME; }

int model_count(int kind)
{
    int count;
    ode_names(kind, &count);
    return count;
}

const char *model_name(int kind, int index)
{
    int count;
    const char *const *names = ode_names(kind, &count);
    if (!names || index < 0 || index >= count) return NULL;
    return names[index];
}

int model_index(int kind, const char *name)
{
    int count;
    const char *const *names = ode_names(kind, &count);
    if (!names || !name) return -1;
    for (int i = 0; i < count; i++)
        if (ode_same_name(names[i], name)) return i;
    return -1;
}

int model_lookup(const char *name, int *kind, int *index)
{
    if (!name) return MODEL_ERR_ARG;
    for (int k = MODEL_KIND_STATE; k <= MODEL_KIND_EVENT; k++) {
        int i = model_index(k, name);
        if (i >= 0) {
            if (kind) *kind = k;
            if (index) *index = i;
            return MODEL_OK;
        }
    }
    for (int v = 0; v < 6; v++) {
        if (ode_same_name(ode_value_names[v], name)) {
            if (kind) *kind = MODEL_KIND_T + v;
            if (index) *index = 0;
            return MODEL_OK;
        }
    }
    return MODEL_ERR_NAME;
}

double model_default(int kind, int index)
{
    if (kind == MODEL_KIND_STATE && index >= 0 && index < ODE_NSTATE) return ode_state_default[index];
    if (kind == MODEL_KIND_PARAM && index >= 0 && index < ODE_NPARAM) return ode_param_default[index];
    if ((kind == MODEL_KIND_T0 || kind == MODEL_KIND_T) && index == 0) return (double)ODE_DEFAULT_T0;
    if (kind == MODEL_KIND_T1 && index == 0) return (double)ODE_DEFAULT_T0 + (double)ODE_DEFAULT_TOTAL;
    return NAN;
}

int model_default_fields(int *codes)
{
    if (codes)
        for (int f = 0; f < ODE_NDEFAULT_FIELDS; f++) codes[f] = ode_default_fields[f];
    return ODE_NDEFAULT_FIELDS;
}

void model_default_repeat(int *transient, int *record)
{
    if (transient) *transient = ODE_DEFAULT_TRANSIENT;
    if (record) *record = ODE_DEFAULT_RECORD;
}

/* Value i of a scan line of n values: lin as numpy.linspace, log as
 * numpy.geomspace (both ends exact), list as written.  The runner's scans
 * use it too. */
static double ode_scan_point(int type, double a, double b, long n, const double *values, long i)
{
    if (type == ODE_SCAN_LIST) return values[i];
    if (i == 0 || n == 1) return a;
    if (i == n - 1) return b;
    const double div = (double)(n - 1);
    if (type == ODE_SCAN_LIN) return (double)i * ((b - a) / div) + a;
    const double la = log10(a), lb = log10(b);
    return pow(10.0, (double)i * ((lb - la) / div) + la);
}

int model_scan_count(void) { return ODE_NSCAN; }

int model_scan_line(int line, int *kind, int *index, long *count)
{
    if (line < 0 || line >= ODE_NSCAN) return MODEL_ERR_ARG;
    const OdeScanSpec *sp = &ode_default_scans[line];
    if (kind) *kind = sp->target_kind == ODE_TARGET_STATE ? MODEL_KIND_STATE : MODEL_KIND_PARAM;
    if (index) *index = sp->target;
    if (count) *count = sp->n;
    return MODEL_OK;
}

double model_scan_value(int line, long i)
{
    if (line < 0 || line >= ODE_NSCAN) return NAN;
    const OdeScanSpec *sp = &ode_default_scans[line];
    if (i < 0 || i >= sp->n) return NAN;
    return ode_scan_point(sp->kind, sp->a, sp->b, sp->n, sp->values, i);
}

#define ODE_STATUS_NAME(N, name, sticky) name,
static const char *const ode_status_names[ODE_NSTATUS] = {ODE_STATUSES(ODE_STATUS_NAME)};
#undef ODE_STATUS_NAME

const char *model_status_name(int status)
{
    return status >= 0 && status < ODE_NSTATUS ? ode_status_names[status] : "unknown";
}

/* The field codes run states, aux, accessories, parameters, derived, t, t0,
 * t1, lyap1 … lyapN, lyap_trace_err (N = n), period (the generator's
 * ode_field_names). */
int model_field_about(int code, const char **kind, const char **meaning, const char **comment, const char **units)
{
    static const struct { int count; const char *kind, *meaning, *comment, *units; } groups[] = {
        {ODE_NSTATE, "state", "state at the end of the integration", "", ""},
        {ODE_NAUX, "aux", "aux quantity at the end of the integration", "", ""},
        {ODE_NACC, "accessory", "accessory at the end of the integration", "", ""},
        {ODE_NPARAM, "parameter", "parameter", "", ""},
        {ODE_NDERIVED, "derived", "derived parameter", "", ""},
        {1, "time", "time at the end of the integration", "", ""},
        {1, "window start", "start of the integration's window (t0)", "", ""},
        {1, "window end", "end of the integration's window (t1)", "", ""},
        {ODE_NLYAP, "lyapunov", "Lyapunov exponent per unit time",
         "averaged over the recorded integrations so far (the last rep: over all of them); NaN where a tangent "
         "vector was lost or the system failed", ""},
        {ODE_NLYAP > 0 && ODE_NLYAP == ODE_NSTATE, "lyapunov", "sum of the Lyapunov exponents less the mean trace of the "
         "Jacobian along the orbit (0 for the exact flow)",
         "per unit time, over the recorded integrations so far; the error of the tangent integration: beyond 1e-3 of "
         "the spectrum (sum of |lyapK|, plus 1/T), the smallest exponents are not to be trusted", ""},
        {ODE_PERIOD_FIELD, "period", "period of the orbit in integrations",
         "the smallest p for which the recorded integrations repeat within tol; 0 where none up to max was found "
         "(chaos, quasi-periodicity, a period not yet seen twice, a failed system)", "1"},
        {ODE_ATTRACTOR, "attractor", "label of the attractor the system ends on",
         "1, 2, ...: the attractor table's rows, numbered in the order the scan first meets them; -1: escaped "
         "(bound); 0: failed (nan, maxsteps, singular, zeno, unstable); the same in every rep of a system", "1"},
    };
    if (code < 0 || code >= ODE_NFIELD) return MODEL_ERR_ARG;
    for (size_t g = 0; g < sizeof groups / sizeof *groups; g++) {
        if (code < groups[g].count) {
            if (kind) *kind = groups[g].kind;
            if (meaning) *meaning = groups[g].meaning;
            if (comment) *comment = groups[g].comment;
            if (units) *units = groups[g].units;
            return MODEL_OK;
        }
        code -= groups[g].count;
    }
    return MODEL_ERR_ARG;
}

const char *model_source(void) { return ode_model_source; }
const char *model_source_path(void) { return ODE_SOURCE_PATH; }
const char *model_odegen_version(void) { return ODEGEN_VERSION; }
const char *model_precision(void) { return ODE_FLOAT ? "float" : "double"; }

/* ------------------------------------------------------------------ GPUs */

int model_gpu_count(void)
{
#ifdef __CUDACC__
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
#else
    return 0;
#endif
}

const char *model_gpu_error(void)
{
#ifdef __CUDACC__
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        cudaGetLastError();
        return cudaGetErrorString(err);
    }
    return count > 0 ? NULL : "no CUDA device found";
#else
    return "this program was built without CUDA; build it with nvcc to use a GPU";
#endif
}

int model_gpu_info(int device, char *name, size_t name_size, size_t *free_bytes, size_t *total_bytes)
{
#ifdef __CUDACC__
    int count = model_gpu_count();
    if (count == 0) return MODEL_ERR_NO_GPU;
    if (device < 0 || device >= count) return MODEL_ERR_DEVICE;
    if (name && name_size > 0) {
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
            cudaGetLastError();
            return MODEL_ERR_CUDA;
        }
        snprintf(name, name_size, "%s", prop.name);
    }
    if (free_bytes || total_bytes) {
        int previous = 0;
        size_t fb = 0, tb = 0;
        cudaGetDevice(&previous);
        cudaError_t err = cudaSetDevice(device);
        if (err == cudaSuccess) err = cudaMemGetInfo(&fb, &tb);
        cudaSetDevice(previous);
        if (err != cudaSuccess) {
            cudaGetLastError();
            return MODEL_ERR_CUDA;
        }
        if (free_bytes) *free_bytes = fb;
        if (total_bytes) *total_bytes = tb;
    }
    return MODEL_OK;
#else
    (void)device;
    (void)name;
    (void)name_size;
    (void)free_bytes;
    (void)total_bytes;
    return MODEL_ERR_NO_GPU;
#endif
}

/* ------------------------------------------------------------------ the handle */

/* The per-system arrays, numbered for the masks below. */
#define ODE_ARRAY_ENUM(member, rows) ODE_ARRAY_##member,
enum { ODE_ARRAYS(ODE_ARRAY_ENUM) ODE_NARRAY };
#undef ODE_ARRAY_ENUM
#define ODE_ABIT(member) (1u << ODE_ARRAY_##member)
#define ODE_ARRAY_BIT(member, rows) | ODE_ABIT(member)
#define ODE_ALL_ARRAYS (0u ODE_ARRAYS(ODE_ARRAY_BIT))
#define ODE_RESULTS (0u ODE_RESULT_ARRAYS(ODE_ARRAY_BIT) | (ODE_PARAMS_ASSIGNED ? ODE_ABIT(p) : 0u))
#define ODE_COUNTS (ODE_ABIT(status) | ODE_ABIT(steps) | ODE_ABIT(evals))

/* What the systems of a launch add up to (model_solver_stats), summed on the
 * device so that the statistics need not copy every system back. */
typedef struct OdeTally {
    unsigned long long steps, evals;
    unsigned long long count[ODE_NSTATUS];
    unsigned long long lyap_off;   /* counted by the kernel itself (OdeArrays.lyap_off) */
} OdeTally;

#ifdef __CUDACC__
/* One device's slice of the systems: systems first … first+a.n-1. */
typedef struct OdeDevice {
    int id;                    /* CUDA device number */
    int first;                 /* first system of the slice */
    int cap;                   /* systems its arrays hold (a.n <= cap) */
    OdeArrays a;               /* device arrays, stride a.n */
    cudaStream_t stream;
    cudaEvent_t begin, done;   /* recorded around the launch (the kernel's time) */
    unsigned int *progress_d;  /* systems completed: the kernels' counter (device memory) */
    unsigned int *progress;    /* its copy on the host (pinned) */
    cudaStream_t poll;         /* the stream that copies it while the kernel runs */
    cudaEvent_t polled;        /* that copy has arrived (queried, never waited for) */
    int polling;               /* a copy is on its way */
    unsigned int seen;         /* the count it last brought */
    unsigned int *queue;       /* load-balancing counter (device) */
    ode_real *rec;             /* recording buffer (device) and its capacity */
    int *rec_status;
    size_t rec_cap, rec_status_cap;
    OdeTally *tally_d;         /* the last launch's sums (device), and their copy (pinned) */
    OdeTally *tally;
    OdeFillPlan plan;          /* a scan's definition in device memory (ode_solver_set_plan) */
    void *plan_memory;
    int launched;              /* a launch on this device awaits its results */
} OdeDevice;
#endif

/* Trajectory samples (`save`): runtime/save.c, appended after this file. */
typedef struct OdeSaveState OdeSaveState;
static int ode_save_prepare(model_solver *s, int record);
static int ode_save_collect(model_solver *s, int record);
static void ode_save_free(model_solver *s);
/* `period`'s ring (runtime/period.c, appended after this file). */
typedef struct OdePeriodState OdePeriodState;
static int ode_period_prepare(model_solver *s, int record);
static void ode_period_free(model_solver *s);
#ifdef __CUDACC__
static int ode_period_pull_fp(model_solver *s, OdeDevice *d);
#endif
/* delay(x, tau)'s rings (runtime/delay.c, appended after this file). */
typedef struct OdeHistState OdeHistState;
static int ode_hist_prepare(model_solver *s);
static void ode_hist_free(model_solver *s);

struct model_solver {
    int n;                     /* resident systems */
    int cap;                   /* systems the arrays hold (n <= cap: ode_solver_resize) */
    int backend;               /* MODEL_BACKEND_CPU or _GPU */
    int failed;                /* creation failed: only error and free work */
    const char *op;            /* the public function being run (for messages) */
    OdeArrays h;               /* host arrays (pinned with a GPU): the truth between calls, but
                                  for the arrays in host_stale (h.rec used during a CPU scan only) */
    unsigned pinned;           /* bit per array, and ODE_NARRAY for rec: allocated pinned */
    ode_real *rec;             /* recorded values [(r * nfield + f) * n + i] */
    int *rec_status;           /* recorded statuses [r * n + i] */
    size_t rec_cap, rec_status_cap;
    int nrec;                  /* integrations recorded by the last call */
    int rec_nfield;            /* fields they hold */
    int block, balanced;
    double kernel_seconds;     /* the last run's or scan's kernel time (GPU), or integration time (CPU) */
    model_progress_fn progress;
    void *progress_user;
    OdeSaveState *save;        /* `save` samples (save.c); NULL until model_solver_set_save */
    double opt[ODE_NOPTION];   /* the run-time options (options.c); the solver's part is h.opt */
    OdePeriodState *period;    /* `period`'s ring (period.c); NULL until a launch records */
    OdeHistState *hist;        /* delay's rings (delay.c); NULL until a launch */
    int ndev;
    /* Where each array is current (GPU backend): a bit per array. */
    unsigned host_stale;       /* the device holds newer values (a run wrote them) */
    unsigned dev_stale;        /* the host holds newer values (a set, a load) */
    int tally_valid;           /* the devices' tallies describe the systems as they are */
    int pending;               /* ode_launch started work that ode_finish has not collected */
    int pending_record;
    int windows_given;         /* t0 or t1 set or loaded since the last launch: it checks them */
    unsigned long long lyap_off;   /* the last launch: systems whose lyap_trace_err was off (model_stats) */
#ifdef __CUDACC__
    OdeDevice *dev;
    const OdeFillPlan *plan;   /* the plan uploaded to every device, or NULL */
#endif
    char describe[256];
    char error[512];
};

static int ode_fail(model_solver *s, int code, const char *fmt, ...) ODE_PRINTF(3, 4);
static int ode_fail(model_solver *s, int code, const char *fmt, ...)
{
    if (!s) return code;
    size_t used = 0;
    if (s->op) {
        int k = snprintf(s->error, sizeof s->error, "%s: ", s->op);
        used = k > 0 && (size_t)k < sizeof s->error ? (size_t)k : 0;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error + used, sizeof s->error - used, fmt, ap);
    va_end(ap);
    return code;
}

/* The start of every public function on a solver: names it for messages and
 * refuses a solver whose creation failed. */
static int ode_enter(model_solver *s, const char *op)
{
    if (!s) return MODEL_ERR_ARG;
    s->op = op;
    if (s->failed) return ode_fail(s, MODEL_ERR_FAILED, "the solver could not be created: free it");
    return MODEL_OK;
}

/* a * b elements of `size` bytes, or 0 when that overflows size_t. */
static size_t ode_bytes(size_t a, size_t b, size_t size)
{
    if (a == 0 || b == 0 || size == 0) return size;   /* ODE_ALLOC: at least one element */
    if (a > SIZE_MAX / b || a * b > SIZE_MAX / size) return 0;
    return a * b * size;
}

static void *ode_alloc(model_solver *s, size_t bytes, const char *what)
{
    void *p = bytes ? malloc(bytes) : NULL;
    if (!p) ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate %zu bytes of host memory for %s", bytes, what);
    return p;
}

/* Host memory that the GPU copies to and from: pinned (page-locked, copied
 * at full speed and asynchronously) with a GPU backend, where the system
 * allows; plain otherwise.  *pinned says which, for ode_host_free. */
static void *ode_host_alloc(model_solver *s, size_t bytes, const char *what, int *pinned)
{
    *pinned = 0;
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU && bytes) {
        void *p = NULL;
        if (cudaMallocHost(&p, bytes) == cudaSuccess) {
            *pinned = 1;
            return p;
        }
        cudaGetLastError();
    }
#endif
    return ode_alloc(s, bytes, what);
}

static void ode_host_free(void *p, int pinned)
{
#ifdef __CUDACC__
    if (pinned) {
        cudaFreeHost(p);
        return;
    }
#endif
    (void)pinned;
    free(p);
}

/* System i's random numbers (a model with noise): keyed by `index` (its
 * slot, a pool entry, a scan's system, or the user's), from its first
 * integration on. */
static void ode_noise_key(model_solver *s, int i, unsigned long long index)
{
#if ODE_NOISE
    s->h.rng_system[i] = index;
    s->h.rng_rep[i] = 0xFFFFFFFFu;   /* no integration yet: the next is 0 */
    s->h.rng_step[i] = 0;
#else
    (void)s, (void)i, (void)index;
#endif
}

/* The defaults of system i: initial values, parameters, the window of the
 * options in force, READY. */
static void ode_reset_system(model_solver *s, int i)
{
    const int n = s->n;
    const ode_real t0 = (ode_real)s->opt[ODE_OPTION_T0];
    const ode_real t1 = (ode_real)(s->opt[ODE_OPTION_T0] + s->opt[ODE_OPTION_TOTAL]);
    s->h.t[i] = t0;
    s->h.t0[i] = t0;
    s->h.t1[i] = t1;
    for (int k = 0; k < ODE_NSTATE; k++) ODE_AT(s->h.y, k, i, n) = (ode_real)ode_state_default[k];
    for (int k = 0; k < ODE_NPARAM; k++) ODE_AT(s->h.p, k, i, n) = (ode_real)ode_param_default[k];
    for (int k = 0; k < ODE_NACC; k++) ODE_AT(s->h.acc, k, i, n) = ODE_R(0.0);
    s->h.status[i] = ODE_STATUS_READY;
    s->h.steps[i] = 0;
    s->h.evals[i] = 0;
    ode_noise_key(s, i, i);
}

static int ode_host_create(model_solver *s)
{
    const size_t n = (size_t)s->cap;
    s->h.n = s->n;
    int pinned = 0;
#define ODE_HOST_ALLOC(member, rows)                                                                        \
    if (!(*(void **)&s->h.member = ode_host_alloc(s, ode_bytes(n, (rows), sizeof *s->h.member),                    \
                                                  "the arrays of " #member, &pinned)))                              \
        return MODEL_ERR_NOMEM;                                                                                     \
    s->pinned |= pinned ? ODE_ABIT(member) : 0u;
    ODE_ARRAYS(ODE_HOST_ALLOC)
#undef ODE_HOST_ALLOC
    for (int i = 0; i < s->n; i++) ode_reset_system(s, i);
    return MODEL_OK;
}

/* Makes room for `record` integrations of the current fields in the host
 * recording buffer (pinned with a GPU: the copies back are asynchronous). */
static int ode_host_rec(model_solver *s, int record)
{
    const size_t values = ode_bytes((size_t)record * (size_t)(s->h.nfield > 0 ? s->h.nfield : 1), (size_t)s->n, 1);
    const size_t statuses = ode_bytes((size_t)record, (size_t)s->n, 1);
    if (!values || !statuses || !ode_bytes(values, 1, sizeof(ode_real)) || !ode_bytes(statuses, 1, sizeof(int)))
        return ode_fail(s, MODEL_ERR_NOMEM, "recording %d integrations of %d systems needs more memory than can be addressed",
                        record, s->n);
    const unsigned rec_bit = 1u << ODE_NARRAY, status_bit = 2u << ODE_NARRAY;
    int pinned = 0;
    if (values > s->rec_cap) {
        ode_host_free(s->rec, (s->pinned & rec_bit) != 0);
        s->rec_cap = 0;
        s->pinned &= ~rec_bit;
        if (!(s->rec = (ode_real *)ode_host_alloc(s, values * sizeof(ode_real), "the recorded values", &pinned)))
            return MODEL_ERR_NOMEM;
        s->pinned |= pinned ? rec_bit : 0u;
        s->rec_cap = values;
    }
    if (statuses > s->rec_status_cap) {
        ode_host_free(s->rec_status, (s->pinned & status_bit) != 0);
        s->rec_status_cap = 0;
        s->pinned &= ~status_bit;
        if (!(s->rec_status = (int *)ode_host_alloc(s, statuses * sizeof(int), "the recorded statuses", &pinned)))
            return MODEL_ERR_NOMEM;
        s->pinned |= pinned ? status_bit : 0u;
        s->rec_status_cap = statuses;
    }
    return MODEL_OK;
}

/* ------------------------------------------------------------------ progress */

typedef struct OdeReport {
    model_solver *s;
    double last;     /* when fn was last called */
    long done;       /* what it was last told */
    int stop;        /* it returned non-zero: the run ends as soon as it can */
} OdeReport;

static double ode_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Passes `done` on to the user's callback at most ten times a second, an
 * unchanged count at most four times a second (a GPU launch whose systems
 * all end together still shows that it runs: the MPI runner's signs of life,
 * which must come more often than --progress-every 1 reports a silence), and
 * the final count once.  Returns non-zero once the callback asked to stop. */
static int ode_report(void *user, long done)
{
    OdeReport *r = (OdeReport *)user;
    const long total = r->s->n;
    if (r->stop || (done == r->done && done == total)) return r->stop;
    const double now = ode_now();
    if (done < total && now - r->last < (done == r->done ? 0.25 : 0.1)) return 0;
    r->last = now;
    r->done = done;
    r->stop = r->s->progress(r->s->progress_user, done, total) != 0;
    return r->stop;
}

static int ode_stopped(model_solver *s)
{
    return ode_fail(s, MODEL_ERR_STOPPED, "stopped by the progress callback: the systems are partly integrated");
}

/* ------------------------------------------------------------------ CUDA */
#ifdef __CUDACC__

static int ode_cuda_fail(model_solver *s, const OdeDevice *d, cudaError_t err, const char *call, int line)
{
    cudaGetLastError();   /* clear it, unless it is sticky */
    const int code = err == cudaErrorMemoryAllocation ? MODEL_ERR_NOMEM : MODEL_ERR_CUDA;
    if (d)
        return ode_fail(s, code, "CUDA error on device %d in %s (%s:%d): %s", d->id, call, __FILE__, line,
                        cudaGetErrorString(err));
    return ode_fail(s, code, "CUDA error in %s (%s:%d): %s", call, __FILE__, line, cudaGetErrorString(err));
}

/* Checks a CUDA call; on failure leaves the message in s and returns. */
#define ODE_CUDA(s, d, call)                                                        \
    do {                                                                            \
        cudaError_t ode_err_ = (call);                                              \
        if (ode_err_ != cudaSuccess) return ode_cuda_fail((s), (d), ode_err_, #call, __LINE__); \
    } while (0)

/* `rows` rows of `width` bytes from src (rows `spitch` bytes apart) to dst
 * (`dpitch` apart): one copy when both are contiguous. */
static cudaError_t ode_copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                 size_t rows, cudaMemcpyKind kind, cudaStream_t stream)
{
    if (width == 0 || rows == 0) return cudaSuccess;
    if (dpitch == width && spitch == width) return cudaMemcpyAsync(dst, src, width * rows, kind, stream);
    if (dpitch <= (size_t)INT_MAX && spitch <= (size_t)INT_MAX)
        return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, kind, stream);
    for (size_t r = 0; r < rows; r++) {
        cudaError_t err = cudaMemcpyAsync((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, stream);
        if (err != cudaSuccess) return err;
    }
    return cudaSuccess;
}

/* Rows of host array `member` (stride s->n) to and from device d's (stride d->a.n). */
#define ODE_TO_DEVICE(s, d, member, rows)                                                          \
    ODE_CUDA(s, d, ode_copy_rows((d)->a.member, (size_t)(d)->a.n * sizeof *(d)->a.member,          \
                                 (s)->h.member + (d)->first, (size_t)(s)->n * sizeof *(s)->h.member, \
                                 (size_t)(d)->a.n * sizeof *(d)->a.member, (size_t)(rows),          \
                                 cudaMemcpyHostToDevice, (d)->stream))
#define ODE_TO_HOST(s, d, member, rows)                                                            \
    ODE_CUDA(s, d, ode_copy_rows((s)->h.member + (d)->first, (size_t)(s)->n * sizeof *(s)->h.member, \
                                 (d)->a.member, (size_t)(d)->a.n * sizeof *(d)->a.member,          \
                                 (size_t)(d)->a.n * sizeof *(d)->a.member, (size_t)(rows),          \
                                 cudaMemcpyDeviceToHost, (d)->stream))

static int ode_device_create(model_solver *s, OdeDevice *d)
{
    const size_t n = (size_t)d->cap;
    ODE_CUDA(s, d, cudaSetDevice(d->id));
    ODE_CUDA(s, d, cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    ODE_CUDA(s, d, cudaEventCreate(&d->begin));
    ODE_CUDA(s, d, cudaEventCreate(&d->done));
    ODE_CUDA(s, d, cudaStreamCreateWithFlags(&d->poll, cudaStreamNonBlocking));
    ODE_CUDA(s, d, cudaEventCreateWithFlags(&d->polled, cudaEventDisableTiming));
    ODE_CUDA(s, d, cudaMallocHost((void **)&d->progress, sizeof(unsigned int)));
    *d->progress = 0;
    ODE_CUDA(s, d, cudaMallocHost((void **)&d->tally, sizeof(OdeTally)));
    memset(d->tally, 0, sizeof(OdeTally));
    ODE_CUDA(s, d, cudaMalloc((void **)&d->progress_d, sizeof(unsigned int)));
    ODE_CUDA(s, d, cudaMalloc((void **)&d->queue, sizeof(unsigned int)));
    ODE_CUDA(s, d, cudaMalloc((void **)&d->tally_d, sizeof(OdeTally)));
    ODE_CUDA(s, d, ode_gpu_work_alloc(&d->a));
#define ODE_DEVICE_ALLOC(member, rows) \
    ODE_CUDA(s, d, cudaMalloc((void **)&d->a.member, ode_bytes(n, (rows), sizeof *d->a.member)));
    ODE_ARRAYS(ODE_DEVICE_ALLOC)
#undef ODE_DEVICE_ALLOC
    return MODEL_OK;
}

static void ode_device_free(OdeDevice *d)
{
    if (cudaSetDevice(d->id) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    if (d->stream) cudaStreamSynchronize(d->stream);
#define ODE_DEVICE_FREE(member, rows) cudaFree(d->a.member);
    ODE_ARRAYS(ODE_DEVICE_FREE)
#undef ODE_DEVICE_FREE
    cudaFree(d->rec);
    cudaFree(d->rec_status);
    cudaFree(d->queue);
    cudaFree(d->progress_d);
    cudaFree(d->tally_d);
    cudaFree(d->plan_memory);
    ode_gpu_work_free(&d->a);
    if (d->progress) cudaFreeHost(d->progress);
    if (d->tally) cudaFreeHost(d->tally);
    if (d->done) cudaEventDestroy(d->done);
    if (d->polled) cudaEventDestroy(d->polled);
    if (d->begin) cudaEventDestroy(d->begin);
    if (d->poll) cudaStreamDestroy(d->poll);
    if (d->stream) cudaStreamDestroy(d->stream);
    cudaGetLastError();
}

/* The slices of the n active systems: contiguous, of near-equal size. */
static void ode_gpu_slices(model_solver *s)
{
    for (int k = 0; k < s->ndev; k++) {
        OdeDevice *d = &s->dev[k];
        d->first = (int)((long long)s->n * k / s->ndev);
        d->a.n = (int)((long long)s->n * (k + 1) / s->ndev) - d->first;
    }
}

/* Sets up the GPU backend on the given devices. */
static int ode_gpu_create(model_solver *s, const int *devices, int ndevices)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        cudaGetLastError();
        return ode_fail(s, MODEL_ERR_NO_GPU, "no GPU: %s", cudaGetErrorString(err));
    }
    if (count == 0) return ode_fail(s, MODEL_ERR_NO_GPU, "no GPU: no CUDA device found");
    const int zero = 0;
    if (ndevices < 0 || ndevices > 4096) return ode_fail(s, MODEL_ERR_ARG, "%d devices: out of range", ndevices);
    if (!devices || ndevices == 0) {
        devices = &zero;
        ndevices = 1;
    }
    for (int k = 0; k < ndevices; k++) {
        if (devices[k] < 0 || devices[k] >= count)
            return ode_fail(s, MODEL_ERR_DEVICE, "no CUDA device %d (%d present: 0 to %d)", devices[k], count, count - 1);
        for (int j = 0; j < k; j++)
            if (devices[j] == devices[k])
                return ode_fail(s, MODEL_ERR_DEVICE, "CUDA device %d is listed twice", devices[k]);
    }
    s->dev = (OdeDevice *)calloc((size_t)ndevices, sizeof(OdeDevice));
    if (!s->dev) return ode_fail(s, MODEL_ERR_NOMEM, "cannot allocate the device table");
    s->ndev = ndevices;
    for (int k = 0; k < ndevices; k++) {
        OdeDevice *d = &s->dev[k];
        d->id = devices[k];
        d->cap = (int)(((long long)s->cap + ndevices - 1) / ndevices);   /* the largest slice of any n <= cap */
    }
    ode_gpu_slices(s);
    for (int k = 0; k < ndevices; k++) {
        int rc = ode_device_create(s, &s->dev[k]);
        if (rc != MODEL_OK) return rc;
    }
    /* A description: "GPU 0: NAME" or "GPUs 0,1: NAME". */
    cudaDeviceProp prop;
    ODE_CUDA(s, NULL, cudaGetDeviceProperties(&prop, devices[0]));
    size_t used = (size_t)snprintf(s->describe, sizeof s->describe, "GPU%s ", ndevices > 1 ? "s" : "");
    for (int k = 0; k < ndevices && used < sizeof s->describe; k++)
        used += (size_t)snprintf(s->describe + used, sizeof s->describe - used, "%s%d", k ? "," : "", devices[k]);
    if (used < sizeof s->describe) snprintf(s->describe + used, sizeof s->describe - used, ": %.200s", prop.name);
    s->dev_stale = ODE_ALL_ARRAYS;   /* the device arrays hold nothing yet */
    return MODEL_OK;
}

/* Makes room for `record` integrations of the current fields in every
 * device's recording buffer. */
static int ode_gpu_rec(model_solver *s, int record)
{
    for (int k = 0; k < s->ndev; k++) {
        OdeDevice *d = &s->dev[k];
        if (d->a.n == 0) continue;
        const size_t values = (size_t)record * (size_t)(s->h.nfield > 0 ? s->h.nfield : 1) * (size_t)d->a.n;
        const size_t statuses = (size_t)record * (size_t)d->a.n;
        ODE_CUDA(s, d, cudaSetDevice(d->id));
        if (values > d->rec_cap) {
            ODE_CUDA(s, d, cudaFree(d->rec));
            d->rec = NULL;
            d->rec_cap = 0;
            ODE_CUDA(s, d, cudaMalloc((void **)&d->rec, values * sizeof(ode_real)));
            d->rec_cap = values;
        }
        if (statuses > d->rec_status_cap) {
            ODE_CUDA(s, d, cudaFree(d->rec_status));
            d->rec_status = NULL;
            d->rec_status_cap = 0;
            ODE_CUDA(s, d, cudaMalloc((void **)&d->rec_status, statuses * sizeof(int)));
            d->rec_status_cap = statuses;
        }
    }
    return MODEL_OK;
}

/* The statistics of the slice: one warp-reduced atomic add per warp. */
__global__ static void ode_tally_kernel(const __grid_constant__ OdeArrays a, OdeTally *out)
{
    unsigned long long steps = 0, evals = 0, count[ODE_NSTATUS];
    for (int k = 0; k < ODE_NSTATUS; k++) count[k] = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += gridDim.x * blockDim.x) {
        steps += a.steps[i];
        evals += a.evals[i];
        const int st = a.status[i];
        for (int k = 0; k < ODE_NSTATUS; k++) count[k] += st == k;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        steps += __shfl_down_sync(0xffffffffu, steps, offset);
        evals += __shfl_down_sync(0xffffffffu, evals, offset);
        for (int k = 0; k < ODE_NSTATUS; k++) count[k] += __shfl_down_sync(0xffffffffu, count[k], offset);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(&out->steps, steps);
        atomicAdd(&out->evals, evals);
        for (int k = 0; k < ODE_NSTATUS; k++)
            if (count[k]) atomicAdd(&out->count[k], count[k]);
    }
}

/* Copies the host's newer arrays (dev_stale) to device d. */
static int ode_gpu_push(model_solver *s, OdeDevice *d)
{
    const unsigned mask = s->dev_stale;
#define ODE_H2D(member, rows) \
    if (mask & ODE_ABIT(member)) ODE_TO_DEVICE(s, d, member, rows);
    ODE_ARRAYS(ODE_H2D)
#undef ODE_H2D
    return MODEL_OK;
}

/* Copies device d's newer arrays among `mask` to the host (asynchronously). */
static int ode_gpu_pull(model_solver *s, OdeDevice *d, unsigned mask)
{
#define ODE_D2H(member, rows) \
    if (mask & ODE_ABIT(member)) ODE_TO_HOST(s, d, member, rows);
    ODE_ARRAYS(ODE_D2H)
#undef ODE_D2H
    return MODEL_OK;
}

/* Starts device d's share of a launch, all on its stream: the host's newer
 * arrays in, the kernel between two events, the tally, and the recorded
 * values back to the (pinned) host buffer.  Nothing waits. */
static int ode_gpu_start(model_solver *s, OdeDevice *d, int transient, int record)
{
    ODE_CUDA(s, d, cudaSetDevice(d->id));
    int rc = ode_gpu_push(s, d);
    if (rc != MODEL_OK) return rc;
    d->a.rec = record > 0 ? d->rec : NULL;
    d->a.rec_status = record > 0 ? d->rec_status : NULL;
    d->a.nfield = s->h.nfield;
    memcpy(d->a.fields, s->h.fields, sizeof d->a.fields);
    d->a.opt = s->h.opt;
    d->a.progress = s->progress ? d->progress_d : NULL;
    if (s->progress) ODE_CUDA(s, d, cudaMemsetAsync(d->progress_d, 0, sizeof(unsigned int), d->stream));
    d->seen = 0;
    d->a.queue = s->balanced ? d->queue : NULL;
    if (s->balanced) ODE_CUDA(s, d, cudaMemsetAsync(d->queue, 0, sizeof(unsigned int), d->stream));
    ODE_CUDA(s, d, cudaMemsetAsync(d->tally_d, 0, sizeof(OdeTally), d->stream));   /* (the kernel counts into it) */
    d->a.lyap_off = &d->tally_d->lyap_off;
    ODE_CUDA(s, d, cudaEventRecord(d->begin, d->stream));
    ODE_CUDA(s, d, ode_gpu_launch(&d->a, transient, record, s->block, s->balanced, d->stream));
    d->launched = 1;
    ODE_CUDA(s, d, cudaEventRecord(d->done, d->stream));
    const int blocks = (d->a.n + 255) / 256 < 1024 ? (d->a.n + 255) / 256 : 1024;
    ode_tally_kernel<<<blocks, 256, 0, d->stream>>>(d->a, d->tally_d);
    ODE_CUDA(s, d, cudaGetLastError());
    ODE_CUDA(s, d, cudaMemcpyAsync(d->tally, d->tally_d, sizeof(OdeTally), cudaMemcpyDeviceToHost, d->stream));
    if (record > 0) {
        const size_t r = sizeof(ode_real);
        ODE_CUDA(s, d, ode_copy_rows(s->rec + d->first, (size_t)s->n * r, d->rec, (size_t)d->a.n * r,
                                     (size_t)d->a.n * r, (size_t)record * (size_t)s->h.nfield,
                                     cudaMemcpyDeviceToHost, d->stream));
        ODE_CUDA(s, d, ode_copy_rows(s->rec_status + d->first, (size_t)s->n * sizeof(int), d->rec_status,
                                     (size_t)d->a.n * sizeof(int), (size_t)d->a.n * sizeof(int), (size_t)record,
                                     cudaMemcpyDeviceToHost, d->stream));
        rc = ode_period_pull_fp(s, d);   /* `attractor`'s fingerprints */
        if (rc != MODEL_OK) return rc;
    }
    return MODEL_OK;
}

static void ode_nap(double seconds)
{
    struct timespec ts;
    ts.tv_sec = 0;
    ts.tv_nsec = (long)(seconds * 1e9);
    nanosleep(&ts, NULL);
}

/* Waits until every launched device is done, reporting progress meanwhile.
 * Once the callback asks to stop, it only waits: a launch cannot be cut
 * short. */
static int ode_gpu_wait(model_solver *s, OdeReport *report)
{
    double nap = 50e-6;
    while (s->progress && !report->stop) {
        int pending = 0;
        long done = 0;
        for (int k = 0; k < s->ndev; k++) {
            OdeDevice *d = &s->dev[k];
            if (!d->launched) continue;
            cudaError_t err = cudaEventQuery(d->done);
            if (err == cudaSuccess) {
                done += d->a.n;
                continue;
            }
            if (err != cudaErrorNotReady) return ode_cuda_fail(s, d, err, "cudaEventQuery(d->done)", __LINE__);
            pending = 1;
            /* The kernel is still running: a 4-byte copy on another stream
             * reads its counter meanwhile.  Its arrival is queried, never
             * waited for: where processes share the GPU the copy can wait
             * for another's kernel, and the callback (an MPI rank's signs of
             * life) must still be called meanwhile. */
            if (!d->polling) {
                ODE_CUDA(s, d, cudaMemcpyAsync(d->progress, d->progress_d, sizeof(unsigned int),
                                               cudaMemcpyDeviceToHost, d->poll));
                ODE_CUDA(s, d, cudaEventRecord(d->polled, d->poll));
                d->polling = 1;
            }
            err = cudaEventQuery(d->polled);
            if (err == cudaSuccess) {
                d->seen = *d->progress;
                d->polling = 0;
            } else if (err != cudaErrorNotReady) {
                return ode_cuda_fail(s, d, err, "cudaEventQuery(d->polled)", __LINE__);
            }
            done += d->seen < (unsigned int)d->a.n ? (long)d->seen : (long)d->a.n;
        }
        if (!pending) break;
        ode_report(report, done);
        ode_nap(nap);
        if (nap < 2e-3) nap *= 2;
    }
    /* The kernels are done (or no progress is wanted): the copies after them. */
    s->kernel_seconds = 0;
    for (int k = 0; k < s->ndev; k++) {
        OdeDevice *d = &s->dev[k];
        if (!d->launched) continue;
        ODE_CUDA(s, d, cudaSetDevice(d->id));
        ODE_CUDA(s, d, cudaStreamSynchronize(d->stream));
        if (d->polling) {   /* the last copy of the counter, before the next launch resets it */
            ODE_CUDA(s, d, cudaStreamSynchronize(d->poll));
            d->polling = 0;
        }
        float ms = 0;
        ODE_CUDA(s, d, cudaEventElapsedTime(&ms, d->begin, d->done));
        if (ms / 1e3 > s->kernel_seconds) s->kernel_seconds = ms / 1e3;   /* the slowest device */
        d->launched = 0;
    }
    return MODEL_OK;
}

/* Leaves no launch behind after a failure (their own errors are dropped:
 * the first one is what the message reports).  What the devices hold is then
 * unknown: the host's arrays are what counts. */
static void ode_gpu_drain(model_solver *s)
{
    for (int k = 0; k < s->ndev; k++) {
        OdeDevice *d = &s->dev[k];
        if (cudaSetDevice(d->id) == cudaSuccess && d->stream) cudaStreamSynchronize(d->stream);
        if (d->poll) cudaStreamSynchronize(d->poll);
        d->launched = 0;
        d->polling = 0;
    }
    cudaGetLastError();
    s->dev_stale = ODE_ALL_ARRAYS;
    s->host_stale = 0;
    s->tally_valid = 0;
}

/* Creates the CUDA context of each device now, so that its cost (hundreds of
 * milliseconds) is measured apart from the integration's. */
static int ode_gpu_start_up(const int *devices, int ndevices, char *error, size_t size)
{
    for (int k = 0; k < ndevices; k++) {
        cudaError_t err = cudaSetDevice(devices[k]);
        if (err == cudaSuccess) err = cudaFree(0);
        if (err != cudaSuccess) {
            snprintf(error, size, "CUDA device %d: %s", devices[k], cudaGetErrorString(err));
            cudaGetLastError();
            return MODEL_ERR_CUDA;
        }
    }
    return MODEL_OK;
}

/* Systems that the devices run at once (a full wave): the kernel's occupancy
 * times the multiprocessors, summed over the devices. */
static long long ode_gpu_resident(model_solver *s)
{
    long long total = 0;
    for (int k = 0; k < s->ndev; k++) {
        int sms = 0, per_sm = 0;
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, s->dev[k].id) != cudaSuccess ||
            ode_gpu_systems_per_sm(s->block, &per_sm) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        total += (long long)sms * per_sm;
    }
    return total;
}
#endif /* __CUDACC__ */

/* ------------------------------------------------------------------ where the values are */

/* Makes the host's copies of the arrays in `mask` current (copying back what
 * the last runs left on the devices).  Every function that reads or changes
 * the host arrays calls it first: results stay on the device until asked
 * for. */
static int ode_pull(model_solver *s, unsigned mask)
{
#ifdef __CUDACC__
    mask &= s->host_stale;
    if (!mask) return MODEL_OK;
    for (int k = 0; k < s->ndev; k++) {
        OdeDevice *d = &s->dev[k];
        if (d->a.n == 0) continue;
        ODE_CUDA(s, d, cudaSetDevice(d->id));
        int rc = ode_gpu_pull(s, d, mask);
        if (rc != MODEL_OK) return rc;
    }
    for (int k = 0; k < s->ndev; k++) {
        OdeDevice *d = &s->dev[k];
        if (d->a.n > 0) ODE_CUDA(s, d, cudaStreamSynchronize(d->stream));
    }
    s->host_stale &= ~mask;
#else
    (void)s;
    (void)mask;
#endif
    return MODEL_OK;
}

/* The host changed the arrays in `mask`: the next run copies them in. */
static void ode_touch(model_solver *s, unsigned mask)
{
    if (s->backend == MODEL_BACKEND_GPU) s->dev_stale |= mask;
    if (mask & ODE_COUNTS) s->tally_valid = 0;
    if (mask & (ODE_ABIT(t0) | ODE_ABIT(t1))) s->windows_given = 1;
}

/* ------------------------------------------------------------------ solvers */

static int ode_create(model_solver *s, int n, int backend, const int *devices, int ndevices)
{
    if (n < 1) return ode_fail(s, MODEL_ERR_ARG, "the number of systems must be at least 1 (got %d)", n);
    if (backend != MODEL_BACKEND_AUTO && backend != MODEL_BACKEND_CPU && backend != MODEL_BACKEND_GPU)
        return ode_fail(s, MODEL_ERR_ARG, "unknown backend %d", backend);
    if (ndevices < 0 || (ndevices > 0 && !devices))
        return ode_fail(s, MODEL_ERR_ARG, "bad device list (%d devices)", ndevices);
    s->n = n;
    s->cap = n;
    s->block = ODE_BLOCK_SIZE;
    s->h.nfield = model_default_fields(s->h.fields);
    ode_options_default(s->opt);
    s->h.opt = ode_options_for_solver(s->opt);
    if (backend == MODEL_BACKEND_AUTO) backend = model_gpu_count() > 0 ? MODEL_BACKEND_GPU : MODEL_BACKEND_CPU;
#ifndef __CUDACC__
    if (backend == MODEL_BACKEND_GPU) return ode_fail(s, MODEL_ERR_NO_GPU, "no GPU: %s", model_gpu_error());
#endif
    s->backend = backend;
    int rc = ode_host_create(s);
    if (rc != MODEL_OK) return rc;
    s->windows_given = 1;                  /* the options' windows: checked by the first launch */
    if (backend == MODEL_BACKEND_GPU) {
#ifdef __CUDACC__
        return ode_gpu_create(s, devices, ndevices);
#endif
    }
#ifdef _OPENMP
    const int threads = omp_get_max_threads();
#else
    const int threads = 1;
#endif
    snprintf(s->describe, sizeof s->describe, "CPU, %d thread%s", threads, threads == 1 ? "" : "s");
    return MODEL_OK;
}

int model_solver_create(model_solver **solver, int n, int backend, const int *devices, int ndevices)
{
    if (!solver) return MODEL_ERR_ARG;
    model_solver *s = (model_solver *)calloc(1, sizeof *s);
    *solver = s;
    if (!s) return MODEL_ERR_NOMEM;
    s->op = __func__;
    int rc = ode_create(s, n, backend, devices, ndevices);
    if (rc != MODEL_OK) s->failed = 1;
    return rc;
}

void model_solver_free(model_solver *s)
{
    if (!s) return;
    ode_save_free(s);                      /* before the devices it names */
    ode_period_free(s);
    ode_hist_free(s);
#ifdef __CUDACC__
    for (int k = 0; k < s->ndev; k++) ode_device_free(&s->dev[k]);
    free(s->dev);
#endif
#define ODE_HOST_FREE(member, rows) ode_host_free(s->h.member, (s->pinned & ODE_ABIT(member)) != 0);
    ODE_ARRAYS(ODE_HOST_FREE)
#undef ODE_HOST_FREE
    ode_host_free(s->rec, (s->pinned & (1u << ODE_NARRAY)) != 0);
    ode_host_free(s->rec_status, (s->pinned & (2u << ODE_NARRAY)) != 0);
    free(s);
}

const char *model_solver_error(const model_solver *s)
{
    if (!s) return "no solver (creation could not allocate it, or a NULL handle was passed)";
    return s->error;
}

int model_solver_size(const model_solver *s) { return s && !s->failed ? s->n : 0; }

int model_solver_backend(const model_solver *s) { return s ? s->backend : MODEL_ERR_ARG; }

const char *model_solver_describe(const model_solver *s) { return s ? s->describe : ""; }

int model_solver_estimate(long n, int ndevices, int record, int nfield, size_t *device_bytes, size_t *host_bytes)
{
    if (n < 1 || ndevices < 0 || record < 0 || nfield < 0 || nfield > ODE_NFIELD) return MODEL_ERR_ARG;
    const double r = (double)sizeof(ode_real);
    const double per_system = (3.0 + ODE_NSTATE + ODE_NPARAM + ODE_NACC) * r + sizeof(int) +
                              2.0 * sizeof(unsigned long long) +
                              (double)record * ((nfield > 0 ? nfield : 1) * r + sizeof(int)) +
                              ODE_PERIOD_BYTES(record) + ODE_HIST_BYTES(ODE_DEFAULT_DT);
    const double host = (double)n * per_system + (double)sizeof(model_solver) + 4096.0;
    const double slice = ndevices > 0 ? ceil((double)n / ndevices) : 0.0;
    const double device = ndevices > 0 ? slice * per_system + 4096.0 : 0.0;
    const double top = (double)SIZE_MAX;
    if (host_bytes) *host_bytes = host >= top ? SIZE_MAX : (size_t)host;
    if (device_bytes) *device_bytes = device >= top ? SIZE_MAX : (size_t)device;
    return MODEL_OK;
}

int model_solver_set_block(model_solver *s, int block)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    if (block == 0) block = ODE_BLOCK_SIZE;
    if (block < 32 || block > ODE_BLOCK_SIZE || block % 32 != 0)
        return ode_fail(s, MODEL_ERR_ARG, "block size %d: must be a multiple of 32 from 32 to %d", block,
                        ODE_BLOCK_SIZE);
    s->block = block;
    return MODEL_OK;
}

int model_solver_set_balance(model_solver *s, int mode)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    s->balanced = mode == MODEL_BALANCE_OFF || mode == MODEL_BALANCE_WARP ? mode : MODEL_BALANCE_THREAD;
    return MODEL_OK;
}

int model_solver_set_progress(model_solver *s, model_progress_fn fn, void *user)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    s->progress = fn;
    s->progress_user = user;
    return MODEL_OK;
}

/* ------------------------------------------------------------------ values */

static int ode_check_system(model_solver *s, int system, int all_allowed)
{
    if ((system >= 0 && system < s->n) || (all_allowed && system == MODEL_ALL_SYSTEMS)) return MODEL_OK;
    return ode_fail(s, MODEL_ERR_ARG, "system %d out of range (0 to %d%s)", system, s->n - 1,
                    all_allowed ? ", or -1 for all" : "");
}

static const char *const ode_kind_words[] = {"state", "parameter", "accessory", "aux quantity", "derived parameter",
                                             "event", "field", "t", "t0", "t1", "status", "steps", "evals",
                                             "noise index"};

/* Checks kind and index for a per-system value; `get` allows the read-only
 * kinds too. */
static int ode_check_value(model_solver *s, int kind, int index, int get)
{
    int count = -1;
    switch (kind) {
    case MODEL_KIND_STATE: count = ODE_NSTATE; break;
    case MODEL_KIND_PARAM: count = ODE_NPARAM; break;
    case MODEL_KIND_ACC: count = ODE_NACC; break;
    case MODEL_KIND_FIELD: if (get) count = ODE_NFIELD; break;
    case MODEL_KIND_T: case MODEL_KIND_T0: case MODEL_KIND_T1: case MODEL_KIND_STATUS: count = 1; break;
    case MODEL_KIND_STEPS: case MODEL_KIND_EVALS: if (get) count = 1; break;
    case MODEL_KIND_NOISE_INDEX:
        if (!ODE_NOISE) return ode_fail(s, MODEL_ERR_ARG, "the model draws no random numbers: it has no noise index");
        count = 1;
        break;
    default: break;
    }
    if (count < 0) {
        if (kind >= MODEL_KIND_STATE && kind <= MODEL_KIND_NOISE_INDEX)
            return ode_fail(s, MODEL_ERR_ARG, "kind %d (%s) cannot be %s per system", kind, ode_kind_words[kind],
                            get ? "read" : "set");
        return ode_fail(s, MODEL_ERR_ARG, "unknown kind %d", kind);
    }
    if (index < 0 || index >= count) {
        if (count == 0) return ode_fail(s, MODEL_ERR_ARG, "the model has no %s", ode_kind_words[kind]);
        return ode_fail(s, MODEL_ERR_ARG, "%s index %d out of range (0 to %d)", ode_kind_words[kind], index, count - 1);
    }
    return MODEL_OK;
}

/* The host address of a real-valued (kind, index) of system i. */
static ode_real *ode_value(model_solver *s, int kind, int index, int i)
{
    const int n = s->n;
    switch (kind) {
    case MODEL_KIND_STATE: return &ODE_AT(s->h.y, index, i, n);
    case MODEL_KIND_PARAM: return &ODE_AT(s->h.p, index, i, n);
    case MODEL_KIND_ACC: return &ODE_AT(s->h.acc, index, i, n);
    case MODEL_KIND_T: return &s->h.t[i];
    case MODEL_KIND_T0: return &s->h.t0[i];
    case MODEL_KIND_T1: return &s->h.t1[i];
    default: return NULL;
    }
}

/* The arrays that a per-system value of `kind` lives in (a field may read
 * any of them). */
static unsigned ode_kind_arrays(int kind)
{
    switch (kind) {
    case MODEL_KIND_STATE: return ODE_ABIT(y);
    case MODEL_KIND_PARAM: return ODE_ABIT(p);
    case MODEL_KIND_ACC: return ODE_ABIT(acc);
    case MODEL_KIND_T: return ODE_ABIT(t);
    case MODEL_KIND_T0: return ODE_ABIT(t0);
    case MODEL_KIND_T1: return ODE_ABIT(t1);
    case MODEL_KIND_STATUS: return ODE_ABIT(status);
    case MODEL_KIND_STEPS: return ODE_ABIT(steps);
    case MODEL_KIND_EVALS: return ODE_ABIT(evals);
#if ODE_NOISE
    case MODEL_KIND_NOISE_INDEX: return ODE_ABIT(rng_system) | ODE_ABIT(rng_rep) | ODE_ABIT(rng_step);
#endif
    default: return ODE_ALL_ARRAYS;
    }
}

static int ode_set(model_solver *s, int kind, int index, int system, double value)
{
    int rc = ode_check_value(s, kind, index, 0);
    if (rc == MODEL_OK) rc = ode_check_system(s, system, 1);
    if (rc != MODEL_OK) return rc;
    if (kind == MODEL_KIND_STATUS && !(value >= 0 && value < ODE_NSTATUS && value == (int)value))
        return ode_fail(s, MODEL_ERR_ARG, "%g is not a status (0 to %d)", value, ODE_NSTATUS - 1);
    if ((kind == MODEL_KIND_T || kind == MODEL_KIND_T0 || kind == MODEL_KIND_T1) && !(value - value == 0.0))
        return ode_fail(s, MODEL_ERR_ARG, "%s = %g: a time must be a finite number", ode_kind_words[kind], value);
    if (kind == MODEL_KIND_NOISE_INDEX && !(value >= 0 && value < 17592186044416.0 && value == floor(value)))   /* rng.h: 2^44 */
        return ode_fail(s, MODEL_ERR_ARG, "%g is not a noise index (a whole number from 0 to 2^44 - 1)", value);
    const unsigned bit = ode_kind_arrays(kind);
    rc = ode_pull(s, bit);
    if (rc != MODEL_OK) return rc;
    const int lo = system == MODEL_ALL_SYSTEMS ? 0 : system, hi = system == MODEL_ALL_SYSTEMS ? s->n : system + 1;
    for (int i = lo; i < hi; i++) {
        if (kind == MODEL_KIND_STATUS) s->h.status[i] = (int)value;
        else if (kind == MODEL_KIND_NOISE_INDEX) ode_noise_key(s, i, (unsigned long long)value);
        else *ode_value(s, kind, index, i) = (ode_real)value;
    }
    ode_touch(s, bit);
    return MODEL_OK;
}

static int ode_get(model_solver *s, int kind, int index, int system, double *value)
{
    int rc = ode_check_value(s, kind, index, 1);
    if (rc == MODEL_OK) rc = ode_check_system(s, system, 0);
    if (rc == MODEL_OK && !value) rc = ode_fail(s, MODEL_ERR_ARG, "value is NULL");
    if (rc == MODEL_OK) rc = ode_pull(s, ode_kind_arrays(kind));
    if (rc != MODEL_OK) return rc;
    switch (kind) {
    case MODEL_KIND_STATUS: *value = s->h.status[system]; break;
    case MODEL_KIND_STEPS: *value = (double)s->h.steps[system]; break;
    case MODEL_KIND_EVALS: *value = (double)s->h.evals[system]; break;
#if ODE_NOISE
    case MODEL_KIND_NOISE_INDEX: *value = (double)s->h.rng_system[system]; break;
#endif
    case MODEL_KIND_FIELD: {
        ODE_SYSTEM_LOCAL(sys);
        ode_system_read(&sys, &s->h, system);
        ode_model_derived(&sys);
        *value = (double)ode_model_field(&sys, index);
        break;
    }
    default: *value = (double)*ode_value(s, kind, index, system); break;
    }
    return MODEL_OK;
}

int model_solver_set(model_solver *s, int kind, int index, int system, double value)
{
    int rc = ode_enter(s, __func__);
    return rc != MODEL_OK ? rc : ode_set(s, kind, index, system, value);
}

int model_solver_get(model_solver *s, int kind, int index, int system, double *value)
{
    int rc = ode_enter(s, __func__);
    return rc != MODEL_OK ? rc : ode_get(s, kind, index, system, value);
}

/* A name to (kind, index) for set (states, params, accessories, t, t0, t1)
 * or get (also aux and derived parameters, as fields, and status, steps,
 * evals). */
static int ode_resolve(model_solver *s, const char *name, int get, int *kind, int *index)
{
    if (!name) return ode_fail(s, MODEL_ERR_ARG, "name is NULL");
    if (model_lookup(name, kind, index) != MODEL_OK) return ode_fail(s, MODEL_ERR_NAME, "unknown name '%s'", name);
    if (get && (*kind == MODEL_KIND_AUX || *kind == MODEL_KIND_DERIVED)) {
        *index = model_index(MODEL_KIND_FIELD, name);
        *kind = MODEL_KIND_FIELD;
        if (*index < 0) return ode_fail(s, MODEL_ERR_NAME, "'%s' is not a field", name);
    }
    const int k = *kind;
    if (k == MODEL_KIND_AUX || k == MODEL_KIND_DERIVED || k == MODEL_KIND_EVENT)
        return ode_fail(s, MODEL_ERR_ARG, "'%s' is %s %s: it cannot be %s", name,
                        k == MODEL_KIND_DERIVED ? "a" : "an", ode_kind_words[k], get ? "read" : "set");
    if (!get && k > MODEL_KIND_STATUS) return ode_fail(s, MODEL_ERR_ARG, "'%s' is read-only", name);
    return MODEL_OK;
}

int model_solver_set_by_name(model_solver *s, const char *name, int system, double value)
{
    int kind = 0, index = 0;
    int rc = ode_enter(s, __func__);
    if (rc == MODEL_OK) rc = ode_resolve(s, name, 0, &kind, &index);
    return rc != MODEL_OK ? rc : ode_set(s, kind, index, system, value);
}

int model_solver_get_by_name(model_solver *s, const char *name, int system, double *value)
{
    int kind = 0, index = 0;
    int rc = ode_enter(s, __func__);
    if (rc == MODEL_OK) rc = ode_resolve(s, name, 1, &kind, &index);
    return rc != MODEL_OK ? rc : ode_get(s, kind, index, system, value);
}

int model_solver_get_counts(model_solver *s, int system, int *status, unsigned long long *steps,
                            unsigned long long *evals)
{
    int rc = ode_enter(s, __func__);
    if (rc == MODEL_OK) rc = ode_check_system(s, system, 0);
    if (rc == MODEL_OK) rc = ode_pull(s, ODE_COUNTS);
    if (rc != MODEL_OK) return rc;
    if (status) *status = s->h.status[system];
    if (steps) *steps = s->h.steps[system];
    if (evals) *evals = s->h.evals[system];
    return MODEL_OK;
}

/* ------------------------------------------------------------------ run-time options */

int model_option_count(void) { return ODE_NOPTION; }

const char *model_option_name(int k) { return k >= 0 && k < ODE_NOPTION ? ode_option_words[k] : NULL; }

int model_option_default(const char *name, double *value)
{
    const int k = ode_option_index(name);
    if (k < 0) return MODEL_ERR_NAME;
    if (!value) return MODEL_ERR_ARG;
    double v[ODE_NOPTION];
    ode_options_default(v);
    *value = v[k];
    return MODEL_OK;
}

/* Makes v (checked) the solver's options; a new t0 or total becomes the
 * window of every resident system. */
static int ode_solver_use_options(model_solver *s, const double *v)
{
    const int window = v[ODE_OPTION_T0] != s->opt[ODE_OPTION_T0] || v[ODE_OPTION_TOTAL] != s->opt[ODE_OPTION_TOTAL];
    memcpy(s->opt, v, sizeof s->opt);
    s->h.opt = ode_options_for_solver(s->opt);
    if (!window) return MODEL_OK;
    const double t0 = v[ODE_OPTION_T0], t1 = v[ODE_OPTION_T0] + v[ODE_OPTION_TOTAL];
    int rc = ode_set(s, MODEL_KIND_T0, 0, MODEL_ALL_SYSTEMS, t0);
    if (rc == MODEL_OK) rc = ode_set(s, MODEL_KIND_T, 0, MODEL_ALL_SYSTEMS, t0);
    if (rc == MODEL_OK) rc = ode_set(s, MODEL_KIND_T1, 0, MODEL_ALL_SYSTEMS, t1);
    return rc;
}

static int ode_unknown_option(model_solver *s, const char *name)
{
    char list[160];
    return ode_fail(s, MODEL_ERR_NAME, "unknown option '%s' (the run-time options are %s)", name ? name : "(null)",
                    ode_option_list(list, sizeof list));
}

int model_solver_set_option(model_solver *s, const char *name, double value)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    const int k = ode_option_index(name);
    if (k < 0) return ode_unknown_option(s, name);
    double v[ODE_NOPTION];
    char why[256];
    memcpy(v, s->opt, sizeof v);
    v[k] = value;
    if (ode_option_check(k, value, why, sizeof why) || ode_options_check_pair(v, why, sizeof why) ||
        ode_option_fixed(k, value, why, sizeof why))
        return ode_fail(s, MODEL_ERR_ARG, "%s", why);
    return ode_solver_use_options(s, v);
}

int model_solver_options_text(model_solver *s, char *text, size_t size)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    if (!text || size < 2) return ode_fail(s, MODEL_ERR_ARG, "no room for the text");
    ode_options_text(s->opt, text, size);
    return strlen(text) + 1 >= size ? ode_fail(s, MODEL_ERR_ARG, "%zu bytes are too few for the options' text", size)
                                    : MODEL_OK;
}

int model_solver_get_option(model_solver *s, const char *name, double *value)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    const int k = ode_option_index(name);
    if (k < 0) return ode_unknown_option(s, name);
    if (!value) return ode_fail(s, MODEL_ERR_ARG, "value is NULL");
    *value = s->opt[k];
    return MODEL_OK;
}

/* ------------------------------------------------------------------ initial values and sets */

int model_initial_values(const double *params, double *states)
{
    if (!params || !states) return MODEL_ERR_ARG;
#if ODE_NINIT_EXPR > 0
    ODE_SYSTEM_LOCAL(sys);
    sys.t = sys.t0 = sys.t1 = ODE_R(0.0);
    for (int k = 0; k < ODE_NPARAM; k++) sys.p[k] = (ode_real)params[k];
    for (int k = 0; k < ODE_NSTATE; k++) sys.y[k] = (ode_real)states[k];
    ode_model_derived(&sys);
    ode_model_initial(&sys);
    for (int k = 0; k < ODE_NSTATE; k++)
        if (ode_state_init_expr[k]) states[k] = (double)sys.y[k];
#endif
    return MODEL_OK;
}

int model_set_count(void) { return ODE_NSET; }

const char *model_set_name(int k) { return k >= 0 && k < ODE_NSET ? ode_sets[k].name : NULL; }

int model_set_index(const char *name)
{
    for (int k = 0; name && k < ODE_NSET; k++)
        if (ode_same_name(ode_sets[k].name, name)) return k;
    return -1;
}

int model_set_apply(int k, double *params, double *states)
{
    if (k < 0 || k >= ODE_NSET || !params || !states) return MODEL_ERR_ARG;
    for (int i = 0; i < ode_sets[k].n; i++) {
        const OdeSetItem *it = &ode_sets[k].items[i];
        if (it->target_kind == ODE_TARGET_PARAM) params[it->target] = it->value;
        else if (it->target_kind == ODE_TARGET_STATE) states[it->target] = it->value;
        /* (a run-time option, XPPAUT's `total=100` in a set: the runner applies it, api.h) */
    }
    return MODEL_OK;
}

/* ------------------------------------------------------------------ pools */

int model_pool_create(model_pool *pool, long size)
{
    if (!pool) return MODEL_ERR_ARG;
    memset(pool, 0, sizeof *pool);
    if (size < 1) return MODEL_ERR_ARG;
    const size_t n = (size_t)size;
    const size_t bt = ode_bytes(n, 1, sizeof(double)), by = ode_bytes(n, ODE_NSTATE, sizeof(double)),
                 bp = ode_bytes(n, ODE_NPARAM, sizeof(double));
    if (!bt || !by || !bp) return MODEL_ERR_NOMEM;
    pool->t0 = (double *)malloc(bt);
    pool->t1 = (double *)malloc(bt);
    pool->states = (double *)malloc(by);
    pool->params = (double *)malloc(bp);
    if (!pool->t0 || !pool->t1 || !pool->states || !pool->params) {
        model_pool_destroy(pool);
        return MODEL_ERR_NOMEM;
    }
    pool->size = size;
    for (size_t j = 0; j < n; j++) {
        pool->t0[j] = (double)ODE_DEFAULT_T0;
        pool->t1[j] = (double)ODE_DEFAULT_T0 + (double)ODE_DEFAULT_TOTAL;
    }
    for (size_t k = 0; k < ODE_NSTATE; k++)
        for (size_t j = 0; j < n; j++) pool->states[k * n + j] = ode_state_default[k];
    for (size_t k = 0; k < ODE_NPARAM; k++)
        for (size_t j = 0; j < n; j++) pool->params[k * n + j] = ode_param_default[k];
    return MODEL_OK;
}

void model_pool_destroy(model_pool *pool)
{
    if (!pool) return;
    free(pool->t0);
    free(pool->t1);
    free(pool->states);
    free(pool->params);
    free(pool->acc);
    free(pool->status);
    free(pool->t);
    memset(pool, 0, sizeof *pool);
}

/* Entry j of the pool into slot i. */
static void ode_load_entry(model_solver *s, const model_pool *pool, long j, int i)
{
    const int n = s->n;
    const size_t size = (size_t)pool->size, jj = (size_t)j;
    const double t0 = pool->t0 ? pool->t0[j] : s->opt[ODE_OPTION_T0];
    s->h.t0[i] = (ode_real)t0;
    s->h.t[i] = (ode_real)t0;
    s->h.t1[i] = (ode_real)(pool->t1 ? pool->t1[j] : s->opt[ODE_OPTION_T0] + s->opt[ODE_OPTION_TOTAL]);
    for (int k = 0; k < ODE_NSTATE; k++)
        ODE_AT(s->h.y, k, i, n) = (ode_real)(pool->states ? pool->states[(size_t)k * size + jj] : ode_state_default[k]);
    for (int k = 0; k < ODE_NPARAM; k++)
        ODE_AT(s->h.p, k, i, n) = (ode_real)(pool->params ? pool->params[(size_t)k * size + jj] : ode_param_default[k]);
    for (int k = 0; k < ODE_NACC; k++)
        ODE_AT(s->h.acc, k, i, n) = (ode_real)(pool->acc ? pool->acc[(size_t)k * size + jj] : 0.0);
    s->h.status[i] = pool->status ? pool->status[j] : pool->acc ? ODE_STATUS_FINISHED : ODE_STATUS_READY;
    s->h.steps[i] = 0;
    s->h.evals[i] = 0;
    ode_noise_key(s, i, (unsigned long long)j);   /* the pool's entry index */
}

/* Slot i into entry j of the pool (its non-NULL arrays). */
static void ode_store_entry(model_solver *s, model_pool *pool, long j, int i)
{
    const int n = s->n;
    const size_t size = (size_t)pool->size, jj = (size_t)j;
    if (pool->t0) pool->t0[j] = (double)s->h.t0[i];
    if (pool->t1) pool->t1[j] = (double)s->h.t1[i];
    if (pool->t) pool->t[j] = (double)s->h.t[i];
    if (pool->status) pool->status[j] = s->h.status[i];
    if (pool->states)
        for (int k = 0; k < ODE_NSTATE; k++) pool->states[(size_t)k * size + jj] = (double)ODE_AT(s->h.y, k, i, n);
    if (pool->params)
        for (int k = 0; k < ODE_NPARAM; k++) pool->params[(size_t)k * size + jj] = (double)ODE_AT(s->h.p, k, i, n);
    if (pool->acc)
        for (int k = 0; k < ODE_NACC; k++) pool->acc[(size_t)k * size + jj] = (double)ODE_AT(s->h.acc, k, i, n);
}

/* Entry and slot of pair m of a transfer: linear (entries and slots NULL,
 * from first and slot) or by index lists. */
typedef struct OdeTransfer {
    long first;
    int slot;
    const long *entries;
    const int *slots;
    int count;
} OdeTransfer;

static long ode_entry_of(const OdeTransfer *x, int m) { return x->entries ? x->entries[m] : x->first + m; }
static int ode_slot_of(const OdeTransfer *x, int m) { return x->slots ? x->slots[m] : x->slot + m; }

/* Checks every pair before anything moves, so that a failed call changes nothing. */
static int ode_check_transfer(model_solver *s, const model_pool *pool, const OdeTransfer *x, int loading)
{
    if (!pool) return ode_fail(s, MODEL_ERR_ARG, "pool is NULL");
    if (pool->size < 1) return ode_fail(s, MODEL_ERR_ARG, "pool size %ld: must be at least 1", pool->size);
    if (x->count < 0) return ode_fail(s, MODEL_ERR_ARG, "count %d is negative", x->count);
    if (!x->entries && (x->first < 0 || x->first > pool->size - x->count))
        return ode_fail(s, MODEL_ERR_ARG, "pool entries %ld to %ld out of range (pool size %ld)", x->first,
                        x->first + x->count - 1, pool->size);
    if (!x->slots && (x->slot < 0 || x->slot > s->n - x->count))
        return ode_fail(s, MODEL_ERR_ARG, "slots %d to %ld out of range (solver size %d)", x->slot,
                        (long)x->slot + x->count - 1, s->n);
    for (int m = 0; m < x->count; m++) {
        const long j = ode_entry_of(x, m);
        const int i = ode_slot_of(x, m);
        if (j < 0 || j >= pool->size)
            return ode_fail(s, MODEL_ERR_ARG, "entries[%d] = %ld out of range (pool size %ld)", m, j, pool->size);
        if (i < 0 || i >= s->n)
            return ode_fail(s, MODEL_ERR_ARG, "slots[%d] = %d out of range (solver size %d)", m, i, s->n);
        if (loading && pool->status && (pool->status[j] < 0 || pool->status[j] >= ODE_NSTATUS))
            return ode_fail(s, MODEL_ERR_ARG, "pool status of entry %ld is %d: not a status", j, pool->status[j]);
        if (loading && ((pool->t0 && !(pool->t0[j] - pool->t0[j] == 0.0)) || (pool->t1 && !(pool->t1[j] - pool->t1[j] == 0.0))))
            return ode_fail(s, MODEL_ERR_ARG, "pool window of entry %ld is [%g, %g]: a time must be a finite number", j,
                            pool->t0 ? pool->t0[j] : s->opt[ODE_OPTION_T0], pool->t1 ? pool->t1[j] : (double)NAN);
    }
    return MODEL_OK;
}

static int ode_transfer(model_solver *s, model_pool *pool, const OdeTransfer *x, int loading)
{
    int rc = ode_check_transfer(s, pool, x, loading);
    /* A load of every slot in order replaces everything: nothing to copy back first. */
    const int whole = loading && !x->entries && !x->slots && x->slot == 0 && x->count == s->n;
    if (rc == MODEL_OK && !whole) rc = ode_pull(s, ODE_ALL_ARRAYS);
    if (rc != MODEL_OK) return rc;
    if (whole) s->host_stale = 0;
    for (int m = 0; m < x->count; m++) {
        if (loading) ode_load_entry(s, pool, ode_entry_of(x, m), ode_slot_of(x, m));
        else ode_store_entry(s, pool, ode_entry_of(x, m), ode_slot_of(x, m));
    }
    if (loading) ode_touch(s, ODE_ALL_ARRAYS);
    return MODEL_OK;
}

int model_solver_load(model_solver *s, const model_pool *pool, long first, int slot, int count)
{
    OdeTransfer x = {first, slot, NULL, NULL, count};
    int rc = ode_enter(s, __func__);
    return rc != MODEL_OK ? rc : ode_transfer(s, (model_pool *)pool, &x, 1);
}

int model_solver_load_indexed(model_solver *s, const model_pool *pool, const long *entries, const int *slots,
                              int count)
{
    OdeTransfer x = {0, 0, entries, slots, count};
    int rc = ode_enter(s, __func__);
    return rc != MODEL_OK ? rc : ode_transfer(s, (model_pool *)pool, &x, 1);
}

int model_solver_store(model_solver *s, model_pool *pool, long first, int slot, int count)
{
    OdeTransfer x = {first, slot, NULL, NULL, count};
    int rc = ode_enter(s, __func__);
    return rc != MODEL_OK ? rc : ode_transfer(s, pool, &x, 0);
}

int model_solver_store_indexed(model_solver *s, model_pool *pool, const long *entries, const int *slots,
                               int count)
{
    OdeTransfer x = {0, 0, entries, slots, count};
    int rc = ode_enter(s, __func__);
    return rc != MODEL_OK ? rc : ode_transfer(s, pool, &x, 0);
}

/* ------------------------------------------------------------------ runs */

/* The windows given since the last launch (set, loaded, or made by the
 * options' t0 and total), before anything runs: an empty one is refused with
 * the systems it concerns (ode_window_check's reason), as the runner refuses
 * its options.  Systems in a sticky status are not integrated and not looked
 * at.  A model whose `on start` assigns t0 or t1 decides there, in the
 * kernel (the status `empty`). */
static int ode_check_windows(model_solver *s)
{
    if (!s->windows_given || ODE_ON_START_WINDOW) return MODEL_OK;
    int rc = ode_pull(s, ODE_ABIT(t0) | ODE_ABIT(t1) | ODE_ABIT(status));
    if (rc != MODEL_OK) return rc;
    long bad = 0;
    char why[256], first[300], list[64] = "";
    size_t used = 0;
    const double t0 = s->opt[ODE_OPTION_T0], total = s->opt[ODE_OPTION_TOTAL];
    for (int i = 0; i < s->n; i++) {
        /* (the options' own window is described by them) */
        const int options = s->h.t0[i] == ode_option_real(t0) && s->h.t1[i] == ode_option_real(t0 + total);
        if (ODE_STATUS_IS_STICKY(s->h.status[i]) ||
            !ode_window_check((double)s->h.t0[i], (double)s->h.t1[i], options ? total : 0.0, s->opt[ODE_OPTION_DT],
                              why, sizeof why))
            continue;
        if (bad == 0) snprintf(first, sizeof first, "system %d: %s", i, why);
        if (bad < 4) {
            const int k = snprintf(list + used, sizeof list - used, "%s%d", bad ? ", " : "", i);
            used += k > 0 && (size_t)k < sizeof list - used ? (size_t)k : 0;
        }
        bad++;
    }
    if (!bad) {
        s->windows_given = 0;
        return MODEL_OK;
    }
    return ode_fail(s, MODEL_ERR_ARG, "%ld system%s with an empty window (%s%s), nothing integrated; %s", bad,
                    bad == 1 ? "" : "s", list, bad > 4 ? ", ..." : "", first);
}

/* Starts transient + record integrations of every system in one launch (per
 * device), recording when record > 0.  On the GPU it returns at once (the
 * copies of the recorded values back to the host are queued behind the
 * kernel); on the CPU it runs them.  ode_finish collects the launch. */
static int ode_launch(model_solver *s, int transient, int record)
{
    s->nrec = 0;
    s->pending = 0;
    int rc = transient + record > 0 ? ode_check_windows(s) : MODEL_OK;
    if (rc != MODEL_OK) return rc;
    rc = ode_save_prepare(s, transient + record > 0 ? record : 0);
    if (rc == MODEL_OK) rc = ode_period_prepare(s, record);
    if (rc == MODEL_OK && transient + record > 0) rc = ode_hist_prepare(s);
    if (rc != MODEL_OK) return rc;
    if (transient + record == 0) return MODEL_OK;
    if (record > 0) {
        rc = ode_host_rec(s, record);
        if (rc != MODEL_OK) return rc;
    }
    s->pending_record = record;
    if (s->backend == MODEL_BACKEND_GPU) {
#ifdef __CUDACC__
        rc = record > 0 ? ode_gpu_rec(s, record) : MODEL_OK;
        for (int k = 0; k < s->ndev && rc == MODEL_OK; k++)
            if (s->dev[k].a.n > 0) rc = ode_gpu_start(s, &s->dev[k], transient, record);
        if (rc != MODEL_OK) {
            ode_gpu_drain(s);
            return rc;
        }
        s->dev_stale = 0;
        s->pending = 1;
#endif
        return MODEL_OK;
    }
    OdeReport report;
    report.s = s;
    report.last = ode_now();
    report.done = -1;
    report.stop = 0;
    s->h.rec = record > 0 ? s->rec : NULL;
    s->h.rec_status = record > 0 ? s->rec_status : NULL;
    s->lyap_off = 0;
    s->h.lyap_off = &s->lyap_off;
    const double t0 = ode_now();
    const int stopped = ode_cpu_run(&s->h, transient, record, s->progress ? ode_report : NULL, &report);
    s->kernel_seconds = ode_now() - t0;
    s->h.rec = NULL;
    s->h.rec_status = NULL;
    s->h.lyap_off = NULL;
    if (stopped) return ode_stopped(s);
    if (s->progress) ode_report(&report, s->n);
    s->pending = 1;
    return MODEL_OK;
}

/* Waits for the launch that ode_launch started (reporting progress), and
 * makes its recorded values readable. */
static int ode_finish(model_solver *s)
{
    if (!s->pending) return MODEL_OK;
    s->pending = 0;
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU) {
        OdeReport report;
        report.s = s;
        report.last = ode_now();
        report.done = -1;
        report.stop = 0;
        int rc = ode_gpu_wait(s, &report);
        if (rc == MODEL_OK && report.stop) rc = ode_stopped(s);
        if (rc != MODEL_OK) {
            ode_gpu_drain(s);
            return rc;
        }
        s->host_stale |= ODE_RESULTS;   /* copied back when asked for (ode_pull) */
        s->tally_valid = 1;
        s->lyap_off = 0;
        for (int k = 0; k < s->ndev; k++)
            if (s->dev[k].a.n > 0) s->lyap_off += s->dev[k].tally->lyap_off;
        if (s->progress) ode_report(&report, s->n);
    }
#endif
    s->nrec = s->pending_record;
    s->rec_nfield = s->h.nfield;
    return ode_save_collect(s, s->pending_record);
}

static int ode_execute(model_solver *s, int transient, int record)
{
    int rc = ode_launch(s, transient, record);
    return rc != MODEL_OK ? rc : ode_finish(s);
}

int model_solver_run(model_solver *s)
{
    int rc = ode_enter(s, __func__);
    return rc != MODEL_OK ? rc : ode_execute(s, 1, 0);
}

int model_solver_set_fields(model_solver *s, const int *codes, int nfield)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    if (!codes) {
        s->h.nfield = model_default_fields(s->h.fields);
        return MODEL_OK;
    }
    if (nfield < 0 || nfield > ODE_NFIELD)
        return ode_fail(s, MODEL_ERR_ARG, "%d fields: at most %d can be recorded", nfield, ODE_NFIELD);
    for (int f = 0; f < nfield; f++)
        if (codes[f] < 0 || codes[f] >= ODE_NFIELD)
            return ode_fail(s, MODEL_ERR_ARG, "codes[%d] = %d is not a field code (0 to %d)", f, codes[f],
                            ODE_NFIELD - 1);
    for (int f = 0; f < nfield; f++) s->h.fields[f] = codes[f];
    s->h.nfield = nfield;
    return MODEL_OK;
}

int model_solver_get_fields(const model_solver *s, int *codes)
{
    if (!s || s->failed) return MODEL_ERR_ARG;
    if (codes)
        for (int f = 0; f < s->h.nfield; f++) codes[f] = s->h.fields[f];
    return s->h.nfield;
}

int model_solver_scan(model_solver *s, int transient, int record, model_record_fn on_record, void *user)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    if (transient < 0 || record < 0 || transient > INT_MAX - record)
        return ode_fail(s, MODEL_ERR_ARG, "transient %d and record %d: both must be >= 0, their sum at most %d",
                        transient, record, INT_MAX);
    rc = ode_execute(s, transient, record);
    if (rc != MODEL_OK || !on_record) return rc;
    for (int r = 0; r < record; r++) {
        rc = on_record(s, r, user);
        if (rc != 0) return rc;
    }
    return MODEL_OK;
}

int model_solver_recorded_count(const model_solver *s) { return s && !s->failed ? s->nrec : 0; }

static int ode_check_rep(model_solver *s, int rep, int system)
{
    if (s->nrec == 0) return ode_fail(s, MODEL_ERR_NODATA, "nothing recorded: the last run or scan recorded no integration");
    if (rep < 0 || rep >= s->nrec)
        return ode_fail(s, MODEL_ERR_ARG, "rep %d out of range (0 to %d)", rep, s->nrec - 1);
    return ode_check_system(s, system, 0);
}

int model_solver_recorded(model_solver *s, int rep, int slot, int system, double *value)
{
    int rc = ode_enter(s, __func__);
    if (rc == MODEL_OK) rc = ode_check_rep(s, rep, system);
    if (rc == MODEL_OK && (slot < 0 || slot >= s->rec_nfield))
        rc = s->rec_nfield == 0 ? ode_fail(s, MODEL_ERR_ARG, "no fields were recorded (only statuses)")
                                : ode_fail(s, MODEL_ERR_ARG, "field slot %d out of range (0 to %d)", slot, s->rec_nfield - 1);
    if (rc == MODEL_OK && !value) rc = ode_fail(s, MODEL_ERR_ARG, "value is NULL");
    if (rc != MODEL_OK) return rc;
    *value = (double)s->rec[((size_t)rep * (size_t)s->rec_nfield + (size_t)slot) * (size_t)s->n + (size_t)system];
    return MODEL_OK;
}

int model_solver_recorded_status(model_solver *s, int rep, int system, int *status)
{
    int rc = ode_enter(s, __func__);
    if (rc == MODEL_OK) rc = ode_check_rep(s, rep, system);
    if (rc == MODEL_OK && !status) rc = ode_fail(s, MODEL_ERR_ARG, "status is NULL");
    if (rc != MODEL_OK) return rc;
    *status = s->rec_status[(size_t)rep * (size_t)s->n + (size_t)system];
    return MODEL_OK;
}

/* Checks rep, slot (-1: the statuses), the range of systems and the output
 * of a column copy. */
static int ode_check_column(model_solver *s, int rep, int slot, int first, int count, const void *out, long stride)
{
    int rc = ode_check_rep(s, rep, 0);
    if (rc != MODEL_OK) return rc;
    if (slot >= 0 && slot >= s->rec_nfield)
        return s->rec_nfield == 0 ? ode_fail(s, MODEL_ERR_ARG, "no fields were recorded (only statuses)")
                                  : ode_fail(s, MODEL_ERR_ARG, "field slot %d out of range (0 to %d)", slot, s->rec_nfield - 1);
    if (first < 0 || count < 0 || first > s->n - count)
        return ode_fail(s, MODEL_ERR_ARG, "systems %d to %ld out of range (solver size %d)", first,
                        (long)first + count - 1, s->n);
    if (!out) return ode_fail(s, MODEL_ERR_ARG, "out is NULL");
    if (stride < 1) return ode_fail(s, MODEL_ERR_ARG, "stride %ld: must be at least 1", stride);
    return MODEL_OK;
}

int model_solver_recorded_values(model_solver *s, int rep, int slot, int first, int count, double *out, long stride)
{
    int rc = ode_enter(s, __func__);
    if (rc == MODEL_OK && slot < 0) rc = ode_fail(s, MODEL_ERR_ARG, "field slot %d out of range", slot);
    if (rc == MODEL_OK) rc = ode_check_column(s, rep, slot, first, count, out, stride);
    if (rc != MODEL_OK) return rc;
    const ode_real *from = s->rec + ((size_t)rep * (size_t)s->rec_nfield + (size_t)slot) * (size_t)s->n + (size_t)first;
    for (int i = 0; i < count; i++) out[(size_t)i * (size_t)stride] = (double)from[i];
    return MODEL_OK;
}

int model_solver_recorded_statuses(model_solver *s, int rep, int first, int count, int *out, long stride)
{
    int rc = ode_enter(s, __func__);
    if (rc == MODEL_OK) rc = ode_check_column(s, rep, -1, first, count, out, stride);
    if (rc != MODEL_OK) return rc;
    const int *from = s->rec_status + (size_t)rep * (size_t)s->n + (size_t)first;
    for (int i = 0; i < count; i++) out[(size_t)i * (size_t)stride] = from[i];
    return MODEL_OK;
}

/* ------------------------------------------------------------------ statistics */

int model_solver_stats(model_solver *s, model_stats *stats)
{
    int rc = ode_enter(s, __func__);
    if (rc == MODEL_OK && !stats) rc = ode_fail(s, MODEL_ERR_ARG, "stats is NULL");
    if (rc != MODEL_OK) return rc;
    memset(stats, 0, sizeof *stats);
    stats->kernel_seconds = s->kernel_seconds;
    stats->lyap_trace_off = (long)s->lyap_off;
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU && s->tally_valid && (s->host_stale & ODE_COUNTS) == ODE_COUNTS) {
        /* The sums the devices made after the last launch: nothing to copy. */
        for (int k = 0; k < s->ndev; k++) {
            const OdeTally *t = s->dev[k].tally;
            if (s->dev[k].a.n == 0) continue;
            stats->steps += t->steps;
            stats->evals += t->evals;
            for (int st = 0; st < ODE_NSTATUS; st++) stats->count[st] += (long)t->count[st];
        }
        return MODEL_OK;
    }
#endif
    rc = ode_pull(s, ODE_COUNTS);
    if (rc != MODEL_OK) return rc;
    for (int i = 0; i < s->n; i++) {
        stats->steps += s->h.steps[i];
        stats->evals += s->h.evals[i];
        const int st = s->h.status[i];
        if (st >= 0 && st < ODE_NSTATUS) stats->count[st]++;
    }
    return MODEL_OK;
}

/* ------------------------------------------------------------------ for the runner */

/* What follows is not in api.h: the runner (runner.c, in the same translation
 * unit) drives a solver through it, a chunk of a scan at a time. */

/* Makes the solver hold n systems (1 <= n <= the number it was created
 * with), each at the model's defaults: the last, shorter chunk of a scan
 * reuses the solver (and its pinned and device memory) instead of making a
 * new one. */
static int ode_solver_resize(model_solver *s, int n)
{
    if (n < 1 || n > s->cap) return ode_fail(s, MODEL_ERR_ARG, "%d systems: the solver holds 1 to %d", n, s->cap);
    if (n == s->n) return MODEL_OK;
    s->n = n;
    s->h.n = n;
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU) ode_gpu_slices(s);
#endif
    for (int i = 0; i < n; i++) ode_reset_system(s, i);
    s->host_stale = 0;
    s->nrec = 0;
    ode_touch(s, ODE_ALL_ARRAYS);
    return MODEL_OK;
}

/* Uploads a scan's definition to every device, once, so that ode_solver_fill
 * makes the systems there.  Tables too large to be worth it (more than 256
 * MiB: a single log or list axis of over 30 million values) are not
 * uploaded, and the systems are then made on the host and copied.  The plan
 * must outlive the solver. */
static int ode_solver_set_plan(model_solver *s, const OdeFillPlan *plan)
{
#ifdef __CUDACC__
    if (s->backend != MODEL_BACKEND_GPU || s->plan == plan) return MODEL_OK;
    const size_t base = (size_t)(ODE_NPARAM + ODE_NSTATE) * sizeof(double);
    const size_t axes = (size_t)plan->naxis * sizeof(OdeAxisView);
    size_t bytes = base + axes;
    for (int l = 0; l < plan->naxis; l++)
        if (plan->axes[l].values) bytes += (size_t)plan->axes[l].n * sizeof(double);
    if (bytes > ((size_t)256 << 20)) return MODEL_OK;
    char *staging = (char *)ode_alloc(s, bytes, "the scan's definition");
    if (!staging) return MODEL_ERR_NOMEM;
    int rc = MODEL_OK;
    for (int k = 0; k < s->ndev && rc == MODEL_OK; k++) {
        OdeDevice *d = &s->dev[k];
        cudaError_t err = cudaSetDevice(d->id);
        if (err == cudaSuccess && d->plan_memory) {   /* another plan before: its size may differ */
            err = cudaFree(d->plan_memory);
            d->plan_memory = NULL;
        }
        if (err == cudaSuccess) err = cudaMalloc(&d->plan_memory, bytes);
        if (err != cudaSuccess) {
            rc = ode_cuda_fail(s, d, err, "cudaMalloc(the scan's definition)", __LINE__);
            break;
        }
        /* [base values][axes, their table pointers into the device][tables] */
        char *dev = (char *)d->plan_memory;
        memcpy(staging, plan->base, base);
        OdeAxisView *view = (OdeAxisView *)(staging + base);
        size_t at = base + axes;
        for (int l = 0; l < plan->naxis; l++) {
            view[l] = plan->axes[l];
            if (!plan->axes[l].values) continue;
            const size_t table = (size_t)plan->axes[l].n * sizeof(double);
            memcpy(staging + at, plan->axes[l].values, table);
            view[l].values = (const double *)(dev + at);
            at += table;
        }
        err = cudaMemcpy(dev, staging, bytes, cudaMemcpyHostToDevice);
        if (err != cudaSuccess) rc = ode_cuda_fail(s, d, err, "cudaMemcpy(the scan's definition)", __LINE__);
        d->plan.t0 = plan->t0;
        d->plan.t1 = plan->t1;
        d->plan.base = (const double *)dev;
        d->plan.axes = (const OdeAxisView *)(dev + base);
        d->plan.naxis = plan->naxis;
        memcpy(d->plan.init_expr, plan->init_expr, sizeof plan->init_expr);
    }
    free(staging);
    if (rc == MODEL_OK) s->plan = plan;
    return rc;
#else
    (void)s;
    (void)plan;
    return MODEL_OK;
#endif
}

/* Makes the solver's systems systems first, first + every, … of the scan:
 * on the devices when the plan is there (asynchronously, before the next
 * launch on the same streams), else on the host. */
static int ode_solver_fill(model_solver *s, const OdeFillPlan *plan, long long first, long long every)
{
    s->nrec = 0;
#ifdef __CUDACC__
    if (s->backend == MODEL_BACKEND_GPU && s->plan == plan) {
        for (int k = 0; k < s->ndev; k++) {
            OdeDevice *d = &s->dev[k];
            if (d->a.n == 0) continue;
            ODE_CUDA(s, d, cudaSetDevice(d->id));
            ode_fill_kernel<<<(d->a.n + 255) / 256, 256, 0, d->stream>>>(d->a, d->plan, first + (long long)d->first * every,
                                                                      every);
            ODE_CUDA(s, d, cudaGetLastError());
        }
        s->dev_stale = 0;
        s->host_stale = ODE_ALL_ARRAYS;
        s->tally_valid = 0;
        s->windows_given = 0;              /* the options' windows, which the runner checked */
        return MODEL_OK;
    }
#endif
    s->host_stale = 0;
    ode_fill_host(&s->h, plan, first, every);
    ode_touch(s, ODE_ALL_ARRAYS);
    s->windows_given = 0;
    return MODEL_OK;
}
