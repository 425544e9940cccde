/* api.h — the C library of a generated model (SPEC §5).
 *
 * Every model that odegen translates exposes this API in NAME.h, each public
 * name prefixed by the model's own name (the model duffing has
 * duffing_solver_create, DUFFING_OK, DUFFING_STATE_Y1, …), so that several
 * models link into one program.  The library is built from NAME.cu into
 * libNAME.a (with nvcc: CPU and GPU; with a C compiler: CPU only) and is
 * called from C or C++.  The examples below use the names of the model they
 * are read in; their states and parameters are those of a Duffing
 * oscillator (y1, y2, k).
 *
 * Life of a solver (CVODE's habit: an opaque handle, integer return codes):
 *
 *     model_solver *s;
 *     int rc = model_solver_create(&s, 4096, MODEL_BACKEND_AUTO, NULL, 0);
 *     if (rc != MODEL_OK) {
 *         fprintf(stderr, "%s\n", model_solver_error(s));   // s may be NULL: still safe
 *         model_solver_free(s);
 *         return 1;
 *     }
 *     for (int i = 0; i < 4096; i++)                         // one parameter per system
 *         model_solver_set(s, MODEL_KIND_PARAM, MODEL_PARAM_K, i, 0.2 + 1e-4 * i);
 *     rc = model_solver_run(s);                              // one integration of each
 *     double y1;
 *     model_solver_get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 0, &y1);
 *     model_solver_free(s);
 *
 * Conventions:
 *  - Functions return MODEL_OK (0) or a negative MODEL_ERR_* code; a function
 *    that takes a solver also leaves a message in it (model_solver_error).
 *    Nothing in the library calls exit() or prints.
 *  - Values cross the API as double whatever the model's precision (a model
 *    built with `prec=float` rounds them to float inside).
 *  - A solver holds n "resident" systems.  What functions set and get is
 *    what the systems hold; with a GPU backend the copies between host and
 *    device are made only when needed, array by array: a run copies in what
 *    was set since the last run, its results stay on the device until a
 *    function reads them, and a scan brings back its recorded values (into
 *    page-locked host memory, kept for the solver's life) and statistics
 *    summed on the device, so that repeated scans cost little more than their
 *    kernels.  On the device, systems are stored as structure of arrays,
 *    value[i * n + system].
 *  - Names are case-insensitive, as in the .ode language; the spelling of the
 *    declaration is what model_name returns.
 *  - No global state: solvers are independent; one solver must not be used by
 *    two threads at once.
 */
#ifndef MODEL_API_H
#define MODEL_API_H

/* The model's counts and index enums (MODEL_NSTATE, MODEL_STATE_…) stand
 * above this text in a generated NAME.h; on its own, this file takes the
 * example model's. */
#ifndef MODEL_NSTATE
#include "example_constants.h"
#endif

#include <stddef.h>

/* The library built with make MPI=1 declares its MPI functions (below). */
#if defined(ODE_MPI) && !defined(MPI_VERSION)
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ codes */

/* Return codes.  model_strerror turns one into a sentence; the solver's
 * model_solver_error says what exactly went wrong. */
enum {
    MODEL_OK = 0,
    MODEL_ERR_ARG = -1,     /* an argument is NULL or out of range */
    MODEL_ERR_NAME = -2,    /* no such name in the model */
    MODEL_ERR_NOMEM = -3,   /* host or device memory exhausted */
    MODEL_ERR_NO_GPU = -4,  /* a GPU was asked for: none present, or built without CUDA */
    MODEL_ERR_DEVICE = -5,  /* a CUDA device number that does not exist, or given twice */
    MODEL_ERR_CUDA = -6,    /* a CUDA call failed (the message names it and CUDA's reason) */
    MODEL_ERR_NODATA = -7,  /* recorded values asked for, but the last call recorded none */
    MODEL_ERR_FAILED = -8,  /* the solver's creation failed: only error and free work */
    MODEL_ERR_STOPPED = -9, /* the progress callback asked to stop (model_solver_set_progress) */
    MODEL_ERR_MPI = -10     /* another process of the communicator failed, or MPI did (model_mpi_scan) */
};

/* How a system's last integration ended (the CSV's `status` column;
 * model_status_name gives the names).  maxsteps, bound, nan, singular, zeno
 * and unstable are sticky: the system's later integrations are skipped. */
enum {
    MODEL_STATUS_READY = 0,        /* loaded, not integrated yet */
    MODEL_STATUS_FINISHED = 1,     /* reached t1 */
    MODEL_STATUS_EVENT = 2,        /* an event's stop count was reached */
    MODEL_STATUS_EQUILIBRIUM = 3,  /* `evsteps` accepted steps inside one event zone */
    MODEL_STATUS_MAXSTEPS = 4,     /* `maxsteps` steps in one integration */
    MODEL_STATUS_BOUND = 5,        /* a state went beyond ±bound (later integrations skipped) */
    MODEL_STATUS_NAN = 6,          /* NaN or Inf that no smaller step avoided (likewise) */
    MODEL_STATUS_SINGULAR = 7,     /* a stiff method's W = I/(h gamma) - J singular or not finite at the
                                      smallest step (an infinite or NaN Jacobian entry; likewise) */
    MODEL_STATUS_ZENO = 8,         /* events accumulate (a crossing hidden in an event's zone right after
                                      a detection: stopped at the last point in the zone; likewise) */
    MODEL_STATUS_EMPTY = 9,        /* the window was empty when the integration began (t1 <= t0 after
                                      `on start`, e.g. an `on end { t0 = t }` that moved t0 past t1):
                                      nothing was integrated */
    MODEL_STATUS_UNSTABLE = 10,    /* a fixed-step method left its stability region: the numbers grew
                                      far beyond what the equations allow (likewise sticky) */
    MODEL_STATUS_HISTORY = 11,     /* delay(x, tau) read a past the system does not hold: tau beyond
                                      `@ delay`, or older than its ring of stored steps (likewise) */
    MODEL_STATUS_DAE_FAILED = 12   /* the algebraic constraints (0=…, solv) could not be solved: Newton
                                      did not converge in newt_iter iterations, its matrix was singular
                                      or its update not finite (likewise) */
};
#define MODEL_NSTATUS 13

/* Kinds of names and of per-system values.
 *  - model_count / model_name / model_index take STATE … FIELD.
 *  - model_solver_set takes STATE, PARAM, ACC, T, T0, T1, STATUS and
 *    NOISE_INDEX; model_solver_get also FIELD, STEPS and EVALS.  For T …
 *    NOISE_INDEX the index is 0.
 *
 * Random numbers (a model with `wiener`, `markov`, ran() or normal()): each
 * system's numbers are Philox-4x32-10 (templates/rng.h) of a key made of the
 * solver's seed (the run-time option "seed": model_solver_set_option(s,
 * "seed", 42); the default is the file's @ seed, else 12345678), the
 * system's noise index (MODEL_KIND_NOISE_INDEX), its integration (counted
 * from 0 since the index was given) and the step.  The noise index is the
 * slot number when the solver is created, the pool entry's index when a
 * system is loaded from a pool (model_solver_load: entry j has index j,
 * whatever slot it lands in), the system's index in the scan for
 * model_solver_scan_grid and the runner; setting it (a whole number below
 * 2^44) restarts the count of integrations.  So the same entry integrated
 * from the same state gives the same numbers whichever solver, slot, device
 * or process runs it, and a runner's system s is reproduced by a solver
 * system whose index is s, from the scan's start.
 *     model_solver_set(s, MODEL_KIND_NOISE_INDEX, 0, 7, 123456.0);   // slot 7 draws as system 123456 of a scan */
enum {
    MODEL_KIND_STATE = 0,    /* state variables (their current value: the next run's initial value) */
    MODEL_KIND_PARAM = 1,    /* parameters */
    MODEL_KIND_ACC = 2,      /* accessories */
    MODEL_KIND_AUX = 3,      /* auxiliary quantities (names only; recordable as fields) */
    MODEL_KIND_DERIVED = 4,  /* derived parameters (names only; recordable as fields) */
    MODEL_KIND_EVENT = 5,    /* events (names only) */
    MODEL_KIND_FIELD = 6,    /* recordable quantities: states, aux, acc, params, derived, t, t0, t1 */
    MODEL_KIND_T = 7,        /* the system's current time */
    MODEL_KIND_T0 = 8,       /* start of its window */
    MODEL_KIND_T1 = 9,       /* end of its window */
    MODEL_KIND_STATUS = 10,  /* its status, MODEL_STATUS_* */
    MODEL_KIND_STEPS = 11,   /* accepted steps since it was loaded (get only) */
    MODEL_KIND_EVALS = 12,   /* right-hand-side evaluations since it was loaded (get only) */
    MODEL_KIND_NOISE_INDEX = 13  /* a model with noise: the system's index in its random numbers' key
                                    (see "Random numbers" below) */
};

/* Backends for model_solver_create. */
enum {
    MODEL_BACKEND_AUTO = 0,  /* the GPU when one is present, else the CPU */
    MODEL_BACKEND_CPU = 1,   /* OpenMP over systems */
    MODEL_BACKEND_GPU = 2    /* one CUDA device, or several (systems split in contiguous slices) */
};

/* model_solver_set_* with this system number applies to every system. */
#define MODEL_ALL_SYSTEMS (-1)

/* A sentence for a return code ("invalid argument", …); never NULL. */
const char *model_strerror(int code);

/* ------------------------------------------------------------------ the model */

/* The model's name ("duffing"). */
const char *model_modelname(void);

/* Number of names of a kind (MODEL_KIND_STATE … MODEL_KIND_FIELD); -1 for any
 * other kind.  model_count(MODEL_KIND_STATE) == MODEL_NSTATE, and so on. */
int model_count(int kind);

/* The declared spelling of name `index` of `kind`; NULL when out of range.
 *
 *     for (int f = 0; f < model_count(MODEL_KIND_FIELD); f++)
 *         printf("%d %s\n", f, model_name(MODEL_KIND_FIELD, f));
 */
const char *model_name(int kind, int index);

/* The index of `name` (case-insensitive) among the names of `kind`; -1 when
 * there is none.  model_index(MODEL_KIND_PARAM, "K") == MODEL_PARAM_K. */
int model_index(int kind, const char *name);

/* Finds `name` among states, parameters, accessories, aux, derived parameters
 * and events (in that order), then the per-system values "t", "t0", "t1",
 * "status", "steps", "evals".  Returns MODEL_OK with *kind and *index set, or
 * MODEL_ERR_NAME. */
int model_lookup(const char *name, int *kind, int *index);

/* The model's default of a value: a state's initial value (MODEL_KIND_STATE),
 * a parameter's value (MODEL_KIND_PARAM), the window's start @t0
 * (MODEL_KIND_T0, index 0) or end @t0+@total (MODEL_KIND_T1): the file's,
 * whatever a solver's run-time options say.  NaN for anything else
 * (accessories start from expressions, evaluated per system). */
double model_default(int kind, int index);

/* The fields recorded by default (the model's `record` line, else all
 * states): writes their codes to `codes` (room for MODEL_NFIELD; NULL to only
 * count) and returns how many. */
int model_default_fields(int *codes);

/* The model's `repeat transient=N, record=M` (default 0 and 1). */
void model_default_repeat(int *transient, int *record);

/* The model's `scan` lines, in file order; their Cartesian product (the last
 * line varying fastest, system index = position in the product) is the
 * runner's default scan.  model_scan_line gives line `line`'s target
 * (*kind MODEL_KIND_PARAM, or MODEL_KIND_STATE for an initial value, and
 * *index) and its number of values (any output may be NULL; MODEL_ERR_ARG
 * for no such line); model_scan_value its value i (lin as numpy.linspace,
 * log as numpy.geomspace, both ends exact; list as written), NaN out of
 * range.
 *
 *     for (int l = 0; l < model_scan_count(); l++) {
 *         int kind, index;
 *         long n;
 *         model_scan_line(l, &kind, &index, &n);
 *         printf("%s: %ld values from %g\n", model_name(kind, index), n, model_scan_value(l, 0));
 *     }
 */
int model_scan_count(void);
int model_scan_line(int line, int *kind, int *index, long *count);
double model_scan_value(int line, long i);

/* "ready", "finished", "event", "equilibrium", "maxsteps", "bound", "nan", "singular", "zeno",
 * "empty", "unstable", "history", "dae_failed"; "unknown" for anything else. */
const char *model_status_name(int status);

/* What field `code` (MODEL_FIELD_*) holds, for outputs that describe
 * themselves (the runner's HDF5 attributes, Python's Result.save):
 *   *kind     "state", "aux", "accessory", "parameter", "derived", "time",
 *             "window start", "window end", "lyapunov" or "period";
 *   *meaning  a short phrase (CF's long_name): "state at the end of the
 *             integration", "Lyapunov exponent per unit time", …;
 *   *comment  more, where there is more to say ("" otherwise): how the
 *             exponents are averaged, what a period of 0 means;
 *   *units    "1" for a pure number (period), "" where the model does not say.
 * Any output may be NULL.  MODEL_ERR_ARG for a code out of range. */
int model_field_about(int code, const char **kind, const char **meaning, const char **comment,
                      const char **units);

/* Where the model comes from, as outputs record it: the .ode file's whole
 * text, its name when it was translated, and odegen's version (the strings
 * of the runner's HDF5 attributes source, source_file, odegen_version). */
const char *model_source(void);
const char *model_source_path(void);
const char *model_odegen_version(void);

/* "double", or "float" for a model generated with `@ prec=float`. */
const char *model_precision(void);

/* Initial values that the .ode file writes as expressions of parameters
 * (`init y1=a0`, `y1(0)=2*a`) depend on each system's parameters: this sets
 * states[k] of those states from params[] (MODEL_NPARAM values; derived
 * parameters computed from them) and leaves the other states as they are.
 * Solvers and pools start from the defaults (the values at the default
 * parameters): call it after changing parameters, before the first run.
 * The runner does, for every system, except for states that --set,
 * --set-name or a scan gives a value. */
int model_initial_values(const double *params, double *states);

/* The file's parameter sets (`set NAME {a=1, x=0.5}`): how many, their
 * names, the index of a name (case-insensitive; -1 when there is none), and
 * applying set k to a vector of parameters and one of initial values (only
 * the values the set names change; a run-time option that a set gives,
 * XPPAUT's `set S {total=100}`, is applied by the runner's --set-name as
 * --set applies it, not here). */
int model_set_count(void);
const char *model_set_name(int k);
int model_set_index(const char *name);
int model_set_apply(int k, double *params, double *states);

/* ------------------------------------------------------------------ GPUs */

/* Number of CUDA devices usable; 0 when none is present, the driver is
 * missing, or the library was built without CUDA. */
int model_gpu_count(void);

/* Why model_gpu_count() is 0 ("built without CUDA", or CUDA's own reason);
 * NULL when a device is present. */
const char *model_gpu_error(void);

/* Name, free and total memory of CUDA device `device` (any output may be
 * NULL).  MODEL_ERR_DEVICE when there is no such device, MODEL_ERR_NO_GPU
 * without CUDA. */
int model_gpu_info(int device, char *name, size_t name_size, size_t *free_bytes,
                   size_t *total_bytes);

/* ------------------------------------------------------------------ solvers */

typedef struct model_solver model_solver;   /* opaque */

/* Creates a solver for n resident systems (n >= 1), each at the model's
 * defaults: initial values, parameters, window [@t0, @t0+@total], status
 * READY; its run-time options are the file's (model_solver_set_option).
 *
 * backend: MODEL_BACKEND_CPU, _GPU or _AUTO.  devices/ndevices: the CUDA
 * devices to use (NULL or 0: device 0).  With several devices the systems are
 * split into contiguous slices of near-equal size, one stream per device;
 * runs launch on all of them, then wait for all.
 *
 * Like sqlite3_open, *solver is set whenever the handle itself could be
 * allocated, even when creation failed, so that the message can be read;
 * pass it to model_solver_free in every case (NULL is fine there).
 *
 *     model_solver *s = NULL;
 *     int dev[2] = {0, 1};
 *     if (model_solver_create(&s, 1 << 20, MODEL_BACKEND_GPU, dev, 2) != MODEL_OK)
 *         fprintf(stderr, "%s\n", model_solver_error(s));
 */
int model_solver_create(model_solver **solver, int n, int backend, const int *devices, int ndevices);

/* Frees the solver and everything it holds (host and device).  NULL is fine. */
void model_solver_free(model_solver *solver);

/* What went wrong in the last failed call on this solver ("" if nothing did;
 * a generic message for NULL). */
const char *model_solver_error(const model_solver *solver);

/* Number of resident systems; the backend it runs on (MODEL_BACKEND_CPU or
 * _GPU, never _AUTO); and a description ("CPU, 16 threads",
 * "GPU 0: NVIDIA H100 80GB HBM3"). */
int model_solver_size(const model_solver *solver);
int model_solver_backend(const model_solver *solver);
const char *model_solver_describe(const model_solver *solver);

/* Estimates the memory a solver of n systems would take, before creating it:
 * *device_bytes on the device holding the largest slice (0 when ndevices is
 * 0, the CPU), *host_bytes on the host, including the buffers of a scan that
 * records `record` integrations of `nfield` fields.  Either output may be
 * NULL; values that do not fit are SIZE_MAX.
 *
 *     size_t dev, host, free_b;
 *     model_solver_estimate(n, 1, 32, 2, &dev, &host);
 *     model_gpu_info(0, NULL, 0, &free_b, NULL);
 *     if (dev > free_b) … refuse, or use fewer systems per solver …
 */
int model_solver_estimate(long n, int ndevices, int record, int nfield, size_t *device_bytes,
                          size_t *host_bytes);

/* Threads per block on the GPU: a multiple of 32 from 32 to the kernel's
 * launch bound (ODE_BLOCK_SIZE of the model, 128 by default); 0 restores the
 * default.  Ignored on the CPU. */
int model_solver_set_block(model_solver *solver, int block);

/* Load balancing on the GPU, for systems whose step counts differ:
 *   MODEL_BALANCE_OFF     one system per thread, one launch (default)
 *   MODEL_BALANCE_WARP    a persistent grid whose warps take the next 32
 *                         systems from a queue when they finish theirs
 *   MODEL_BALANCE_THREAD  a persistent grid whose threads each take the next
 *                         system when they finish theirs (no idle lanes)
 * Any other non-zero value means MODEL_BALANCE_THREAD.  Ignored on the CPU. */
enum { MODEL_BALANCE_OFF = 0, MODEL_BALANCE_WARP = 1, MODEL_BALANCE_THREAD = 2 };
int model_solver_set_balance(model_solver *solver, int mode);

/* Progress of a run or scan: fn(user, done, total) is called from the calling
 * thread about ten times a second (on the CPU as systems complete; on the GPU
 * also with an unchanged count, four times a second, while a launch runs), and once
 * more at the end with done == total (systems completed, out of the solver's
 * size).  NULL turns it off.
 *
 * fn returns 0 to go on.  A non-zero value stops the run or scan as soon as
 * it can (sqlite3_progress_handler's way: how a program lets Ctrl-C
 * interrupt a long scan): on the CPU, systems not yet started are left
 * alone; on the GPU, the launch in flight runs to its end (a kernel cannot
 * be cut short) and its results are dropped.  The call then returns
 * MODEL_ERR_STOPPED, records nothing, and the resident systems are partly
 * integrated: load them again before the next run.
 *
 *     static int on_progress(void *user, long done, long total) {
 *         fprintf(stderr, "\r%ld / %ld", done, total);
 *         return *(volatile sig_atomic_t *)user;   // set by a SIGINT handler
 *     }
 */
typedef int (*model_progress_fn)(void *user, long done, long total);
int model_solver_set_progress(model_solver *solver, model_progress_fn fn, void *user);

/* ------------------------------------------------------------------ values */

/* Sets one value of one system (system MODEL_ALL_SYSTEMS: of every system).
 * kind: MODEL_KIND_STATE, _PARAM, _ACC with an index, or MODEL_KIND_T, _T0,
 * _T1, _STATUS with index 0 (a status must be a MODEL_STATUS_* value;
 * setting READY makes the next run evaluate the accessories' `acc`
 * expressions again).
 *
 *     model_solver_set(s, MODEL_KIND_T1, 0, MODEL_ALL_SYSTEMS, 100.0);   // longer windows
 *     model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 7, 0.5);     // system 7 starts at y1=0.5
 */
int model_solver_set(model_solver *solver, int kind, int index, int system, double value);

/* Reads one value of one system: the kinds of model_solver_set, and
 * MODEL_KIND_STEPS, _EVALS (as doubles; exact below 2^53, see
 * model_solver_get_counts), and MODEL_KIND_FIELD with a field code: any
 * recordable quantity, aux quantities and derived parameters included,
 * computed on the host from the system's current values.
 *
 *     double w;
 *     model_solver_get(s, MODEL_KIND_FIELD, MODEL_FIELD_T, 0, &w);   // system 0's time
 */
int model_solver_get(model_solver *solver, int kind, int index, int system, double *value);

/* The same by name: a state, parameter or accessory, or "t", "t0", "t1"
 * (model_lookup's order; get also takes aux quantities and derived
 * parameters, and "status", "steps", "evals").
 *
 *     model_solver_set_by_name(s, "k", MODEL_ALL_SYSTEMS, 0.3);
 */
int model_solver_set_by_name(model_solver *solver, const char *name, int system, double value);
int model_solver_get_by_name(model_solver *solver, const char *name, int system, double *value);

/* Status, accepted steps and right-hand-side evaluations of one system,
 * exactly (any output may be NULL). */
int model_solver_get_counts(model_solver *solver, int system, int *status,
                            unsigned long long *steps, unsigned long long *evals);

/* ------------------------------------------------------------------ run-time options */

/* The options that change without a rebuild (SPEC §4), by name,
 * case-insensitive (XPPAUT's spellings "tol", "atol", "bounds" and a
 * leading '@' are taken too):
 *
 *   "dt"        the step of a fixed-step method (euler, modeuler, rk4); an
 *               adaptive method's first step
 *   "t0", "total"  the window [t0, t0 + total]: setting either makes it the
 *               window of every resident system (and its time t0), and of
 *               systems loaded later without a window of their own (a pool
 *               whose t0 or t1 array is NULL)
 *   "toler", "atoler"  relative and absolute tolerances (adaptive methods):
 *               the states without a `tolerance` line take them as they are;
 *               a `tolerance` line's values are scaled with them (rtol_i ·
 *               toler / @toler), so that the file's ratios stay
 *   "dtmin", "dtmax"  step bounds (adaptive methods)
 *   "maxsteps"  accepted steps allowed in one integration (a whole number;
 *               at most 3999999999 unless the file's @ maxsteps is 4e9 or more)
 *   "bound"     a state beyond ±bound stops the system (status BOUND)
 *
 * A solver starts with the .ode file's values (its `@` options, else
 * odegen's defaults: model_option_default) and keeps its own, so that
 * solvers with different options run side by side; each run or scan uses
 * the values in force when it starts.  A value is checked as the file's `@`
 * options are: positive (t0: finite), maxsteps whole, dtmin <= dtmax (CVODE's
 * way: against the value in force, so set dtmax first to raise both);
 * MODEL_ERR_ARG with the reason in model_solver_error and the solver
 * unchanged; MODEL_ERR_NAME for an unknown option.  A library built with
 * -DODE_OPTIONS_CONSTANT=1 (for benchmarks) has the file's values compiled
 * in and refuses others (t0 and total excepted).  The integration is the
 * same, bit for bit, as that of the model translated with the same values
 * as `@` options.
 *
 *     double dt;
 *     model_solver_get_option(s, "dt", &dt);
 *     model_solver_set_option(s, "dt", dt / 2);          // a convergence check: half the step
 *     model_solver_scan(s, 1024, 32, on_record, NULL);
 */
int model_option_count(void);
const char *model_option_name(int k);             /* "dt", "t0", …; NULL out of range */
int model_option_default(const char *name, double *value);
int model_solver_set_option(model_solver *solver, const char *name, double value);
int model_solver_get_option(model_solver *solver, const char *name, double *value);

/* Every option of the model as text, the run-time ones with the solver's
 * values: "meth=rk4, dt=0.005, t0=0.0, total=6.283185307179586, …" (what the
 * runner's HDF5 attribute `options` holds).  Writes at most `size` bytes, the
 * NUL included; returns MODEL_OK, or MODEL_ERR_ARG when text is NULL or too
 * short (1024 bytes are always enough). */
int model_solver_options_text(model_solver *solver, char *text, size_t size);

/* ------------------------------------------------------------------ pools */

/* A problem pool: `size` problems, more than a solver holds, loaded into it a
 * slice at a time (MPGOS's LinearSet/RandomSet).  Arrays are structure of
 * arrays: value k of entry j is at [k * size + j].  Every array may be NULL:
 *
 *   array   on load (NULL: default)                         on store (NULL: skipped)
 *   t0      [size]: the solver's t0 option                   the window's start
 *   t1      [size]: its t0 + total                           the window's end
 *   states  [MODEL_NSTATE * size]: the initial values        the current states
 *   params  [MODEL_NPARAM * size]: the defaults              the parameters
 *   acc     [MODEL_NACC * size]: see status                  the accessories
 *   status  [size]: READY when acc is NULL (the `acc`        the status
 *                   expressions are evaluated at the next
 *                   run); FINISHED when acc is given, so
 *                   that the given accessories are kept
 *   t       [size]: not read (a system's time starts at t0)  the current time
 *
 * A load also sets t = t0 and zeroes the step and evaluation counts.
 * (model_pool_create fills t0 and t1 with the file's @t0 and @t0+@total:
 * free and NULL them to take a solver's run-time t0 and total instead.) */
typedef struct model_pool {
    long size;
    double *t0, *t1;
    double *states;
    double *params;
    double *acc;
    int *status;
    double *t;
} model_pool;

/* Allocates a pool of `size` entries with t0, t1, states and params filled
 * with the model's defaults (acc, status and t stay NULL: add them yourself
 * if wanted).  Free it with model_pool_destroy.
 *
 *     model_pool pool;
 *     model_pool_create(&pool, 1000000);
 *     for (long j = 0; j < pool.size; j++)
 *         pool.params[MODEL_PARAM_K * pool.size + j] = 0.2 + 1e-7 * j;
 */
int model_pool_create(model_pool *pool, long size);

/* Frees every non-NULL array of the pool (with free()) and zeroes it. */
void model_pool_destroy(model_pool *pool);

/* Loads pool entries first … first+count-1 into solver slots slot …
 * slot+count-1 (LinearSet).
 *
 *     for (long first = 0; first < pool.size; first += n) {
 *         int count = pool.size - first < n ? (int)(pool.size - first) : n;
 *         model_solver_load(s, &pool, first, 0, count);
 *         model_solver_scan(s, 100, 10, on_record, &ctx);
 *         model_solver_store(s, &pool, first, 0, count);
 *     }
 */
int model_solver_load(model_solver *solver, const model_pool *pool, long first, int slot, int count);

/* Loads pool entry entries[i] into slot slots[i], for i < count (RandomSet);
 * entries NULL means 0 … count-1, slots NULL means 0 … count-1. */
int model_solver_load_indexed(model_solver *solver, const model_pool *pool, const long *entries,
                              const int *slots, int count);

/* The reverse: slots slot … slot+count-1 into pool entries first …, or slot
 * slots[i] into entry entries[i]; only the pool's non-NULL arrays are written. */
int model_solver_store(model_solver *solver, model_pool *pool, long first, int slot, int count);
int model_solver_store_indexed(model_solver *solver, model_pool *pool, const long *entries,
                               const int *slots, int count);

/* ------------------------------------------------------------------ runs */

/* One integration of every resident system over its window [t0, t1].  The
 * state, accessories and window carry over to the next run; a system whose
 * status is READY first evaluates its accessories' `acc` expressions; one in
 * a sticky status (MAXSTEPS, BOUND, NAN, SINGULAR, UNSTABLE) is skipped.
 * Windows set or loaded since the last run or scan are checked first, in the
 * model's precision: one with t1 <= t0 (or, for a fixed-step method, where a
 * step of dt does not move t) is MODEL_ERR_ARG, naming the systems, and
 * nothing runs (unless the model's `on start` assigns t0 or t1: then such an
 * integration ends with the status EMPTY, as one whose window the model's
 * own `on end` emptied does). */
int model_solver_run(model_solver *solver);

/* The fields a scan records, by code (MODEL_FIELD_*, at most MODEL_NFIELD, 0
 * to record statuses only); codes NULL restores the model's default
 * (model_default_fields). */
int model_solver_set_fields(model_solver *solver, const int *codes, int nfield);

/* The recorded fields: writes the codes to `codes` (room for MODEL_NFIELD, or
 * NULL) and returns their number. */
int model_solver_get_fields(const model_solver *solver, int *codes);

/* Called once per recorded integration, rep = 0 … record-1 in order, after
 * the whole scan has run.  Return 0 to go on; a non-zero value (use a
 * positive one) stops the calls and becomes model_solver_scan's result. */
typedef int (*model_record_fn)(model_solver *solver, int rep, void *user);

/* A whole scan in one launch per device: `transient` integrations of every
 * system, discarded, then `record` integrations after each of which the
 * chosen fields and the status are recorded.  Then on_record (may be NULL) is
 * called for each recorded integration.  The recorded values stay readable
 * with model_solver_recorded until the next run or scan.
 *
 *     static int on_record(model_solver *s, int rep, void *user) {
 *         double y1;
 *         for (int i = 0; i < model_solver_size(s); i++) {
 *             model_solver_recorded(s, rep, 0, i, &y1);        // slot 0: the first field
 *             printf("%d %d %.17g\n", i, rep, y1);
 *         }
 *         return 0;
 *     }
 *     int f[1] = {MODEL_FIELD_Y1};
 *     model_solver_set_fields(s, f, 1);
 *     rc = model_solver_scan(s, 1024, 32, on_record, NULL);
 */
int model_solver_scan(model_solver *solver, int transient, int record, model_record_fn on_record,
                      void *user);

/* Number of integrations the last scan recorded (0 after a run, or before). */
int model_solver_recorded_count(const model_solver *solver);

/* Field slot `slot` (the position in model_solver_set_fields's list) of
 * system `system` after recorded integration `rep`, and that system's status
 * then.  MODEL_ERR_NODATA when the last call recorded nothing. */
int model_solver_recorded(model_solver *solver, int rep, int slot, int system, double *value);
int model_solver_recorded_status(model_solver *solver, int rep, int system, int *status);

/* The same for many systems at once (numpy's way: one call per column):
 * field slot `slot`, or the status, of systems first … first+count-1 after
 * recorded integration `rep`, written to out[0], out[stride], … out[(count -
 * 1) * stride] (stride >= 1, in elements).  Into a (systems × reps) array of
 * doubles, out = &a[first * reps + rep] and stride = reps. */
int model_solver_recorded_values(model_solver *solver, int rep, int slot, int first, int count, double *out,
                                 long stride);
int model_solver_recorded_statuses(model_solver *solver, int rep, int first, int count, int *out, long stride);

/* ------------------------------------------------------------------ trajectories (`save`) */

/* Samples of recorded integrations at t0 + i·every (t0: each integration's
 * window start), taken inside the kernels from the method's continuous
 * extension, not by shortening steps; each holds the recorded fields
 * (model_solver_set_fields) at the sample's time.  Only a model with a
 * `save every=DT` line takes samples: model_save_every() is its DT (0.0
 * without one).  A solver takes none until model_solver_set_save.
 *
 *     model_solver_set_save(s, model_save_every(), 0, NULL, 0);   // every system
 *     model_solver_scan(s, 0, 2, NULL, NULL);
 *     int kept, due;
 *     double t, v[MODEL_NFIELD];
 *     model_solver_saved_count(s, 1, 7, &kept, &due);           // rep 1 of system 7
 *     for (int j = 0; j < kept; j++) {
 *         model_solver_saved(s, 1, 7, j, &t, v);                // time, then the fields
 *         printf("%.17g %.17g\n", t, v[0]);
 *     }
 */
double model_save_every(void);

/* What the next scans sample: every (> 0; 0: nothing), the resident systems
 * systems[0 … nsystems-1] (NULL: all), and at most `capacity` samples per
 * system and recorded integration (0: as many as the longest window of the
 * sampled systems holds when the scan starts, floor((t1 - t0)/every) + 1).
 * A window moved or lengthened by `on end` can hold more: the samples beyond
 * the capacity are counted (model_solver_saved_count's `due`), not kept.  A
 * scan whose samples would not fit in memory fails with MODEL_ERR_NOMEM and
 * the numbers.  MODEL_ERR_ARG for a model without a `save` line. */
int model_solver_set_save(model_solver *solver, double every, int capacity, const int *systems, int nsystems);

/* Samples of system `system` after recorded integration `rep` of the last
 * scan: *kept (readable with model_solver_saved) and *due (the window's
 * samples up to where the integration ended; more than kept when the
 * capacity cut them).  Either output may be NULL.  MODEL_ERR_NODATA when the
 * last call took no samples, MODEL_ERR_ARG for a system not sampled. */
int model_solver_saved_count(model_solver *solver, int rep, int system, int *kept, int *due);

/* Sample `sample` (0 … kept-1) of that system and integration: its time in
 * *t and the recorded fields, in the order of model_solver_get_fields, in
 * values (room for that many; either output may be NULL). */
int model_solver_saved(model_solver *solver, int rep, int system, int sample, double *t, double *values);

/* ------------------------------------------------------------------ attractors (`attractor`) */

/* A model with an `attractor` line reduces each system's recorded
 * integrations to a fingerprint in the kernel (how it ended, its period, the
 * box of its recorded values, a canonical point of its orbit, lambda1 with
 * `lyapunov`).  A table groups the fingerprints of the scans given to it, in
 * the order given, into attractors, and writes each system's label into the
 * recorded field `attractor` (every rep):
 *
 *     model_attractors *t;
 *     model_attractors_create(&t, 0);                      // 0: the scan is one basin
 *     model_solver_scan(s, 512, 64, NULL, NULL);
 *     model_attractors_group(t, s, 0);                     // systems 0 … n-1 of the scan
 *     for (int r = 0; r < model_attractors_count(t); r++) {
 *         model_attractor a;
 *         model_attractors_row(t, r, &a, NULL, NULL, NULL);
 *         printf("%d %s %.4f ± %.4f\n", a.label, model_attractor_kind_name(a.kind), a.fraction, a.fraction_err);
 *     }
 *     model_attractors_free(t);
 *
 * Until a scan is grouped, its field attractor reads NaN (the kernel
 * cannot know the labels).
 *
 * Labels: 1, 2, … in the order the systems (by their index in the whole
 * scan) first meet each attractor, so a scan grouped chunk by chunk in order
 * gets the labels of one grouped at once; -1 escaped (status bound), 0
 * failed (nan, maxsteps, singular, zeno, unstable, or a non-finite compared quantity).  With
 * slice > 0 the scan is cut into slices of `slice` consecutive systems (a
 * parameter's values, each with a basin of initial values): each slice is
 * grouped on its own, and an attractor met first in a slice takes the label
 * of the nearest attractor of the previous slice that no attractor of this
 * slice has taken yet, when their boxes are within the statement's match=
 * distance; else a new label (continuation).  Groups must be given in order
 * of their systems (first = the number of systems given before). */
enum {
    MODEL_ATTRACTOR_FAILED = 0,     /* label 0 */
    MODEL_ATTRACTOR_ESCAPED = 1,    /* label -1: beyond ±bound */
    MODEL_ATTRACTOR_FIXED = 2,      /* period 1 of the recorded sequence: a fixed point (of the flow,
                                       or of the Poincaré or stroboscopic map the integrations make) */
    MODEL_ATTRACTOR_PERIODIC = 3,   /* period 2 … max */
    MODEL_ATTRACTOR_APERIODIC = 4,  /* no period up to max: chaotic, quasi-periodic, a longer period,
                                       or not settled within the transient */
    MODEL_ATTRACTOR_UNSTABLE = 5    /* NOT an attractor: an unstable equilibrium of the flow (a saddle)
                                       that its systems reached along its stable manifold, a set of
                                       measure zero (templates/attractor.h) */
};
typedef struct model_attractors model_attractors;
typedef struct model_attractor {
    long long slice;        /* 0, or the slice (continuation) */
    int label;
    int kind;               /* MODEL_ATTRACTOR_* */
    int period;             /* of the representative (0: none) */
    double lambda1;         /* mean lambda1 of its systems (NaN without `lyapunov`) */
    long long systems;      /* systems with this label in the slice */
    long long slice_systems;/* systems of the slice grouped so far */
    double fraction;        /* systems / slice_systems: the basin's fraction */
    double fraction_err;    /* its standard error, sqrt(f (1 - f) / slice_systems) */
} model_attractor;

/* The quantities the fingerprint compares (`of=`), as field codes in codes
 * (room for MODEL_NFIELD; may be NULL): their number, or 0 without `attractor`. */
int model_attractor_quantities(int *codes);
/* "fixed", "periodic", "aperiodic", "unstable", "escaped", "failed". */
const char *model_attractor_kind_name(int kind);
/* The statement's dist= and match= (0.0 without `attractor`). */
double model_attractor_dist(void);
double model_attractor_match(void);

/* A new empty table; MODEL_ERR_ARG without an `attractor` line or for slice < 0. */
int model_attractors_create(model_attractors **table, long long slice);
void model_attractors_free(model_attractors *table);
/* Groups the systems of the solver's last scan, as systems first …
 * first + n - 1 of the whole scan, and writes their labels into the recorded
 * field attractor (where recorded).  MODEL_ERR_NODATA when the last call
 * recorded nothing; MODEL_ERR_ARG when first is not the number of systems
 * grouped before. */
int model_attractors_group(model_attractors *table, model_solver *solver, long long first);
/* Rows of the table: escaped and failed, then the attractors, per slice. */
int model_attractors_count(const model_attractors *table);
/* Row `row`: its summary, and (each may be NULL; room for
 * model_attractor_quantities() values) the representative's canonical point
 * and the lowest and highest values of its recorded points (NaN for the
 * escaped and failed rows). */
int model_attractors_row(const model_attractors *table, int row, model_attractor *info, double *point, double *lo,
                         double *hi);
/* The label of system `system` (0 … systems grouped - 1): labels are kept
 * for every system grouped, one int each.  MODEL_ERR_ARG out of range. */
int model_attractors_label(const model_attractors *table, long long system, int *label);
/* The labels of systems first … first + count - 1 into out.  MODEL_ERR_ARG out of range. */
int model_attractors_labels(const model_attractors *table, long long first, long long count, int *out);

/* ------------------------------------------------------------------ basin maps */

/* Measures of a grid of labels (C order: the last axis fastest; shape[0 …
 * ndim-1], at most 32 axes), such as a slice of a scan over initial values
 * labelled by model_attractors_label.
 *
 * Basin entropy (Daza et al., Sci. Rep. 6, 31416, 2016): the grid is cut
 * into boxes of box^ndim points (a partial box at an axis's end is left
 * out); a box whose labels occur with frequencies p_j has the entropy
 * S = sum_j p_j ln(1/p_j).  *entropy is the mean over all boxes (S_b),
 * *boundary_entropy over the boxes with S > 0 (S_bb), *boxes and
 * *boundary_boxes their numbers.  S_bb > ln 2 shows a fractal boundary
 * (their "log 2 criterion"); a smooth boundary between two basins gives
 * S_bb below it.  Any output may be NULL.  MODEL_ERR_ARG for a bad shape or
 * a box larger than an axis. */
int model_basin_entropy(const int *labels, int ndim, const long long *shape, int box, double *entropy,
                        double *boundary_entropy, long long *boxes, long long *boundary_boxes);

/* The uncertainty exponent of the basin boundary (McDonald, Grebogi, Ott and
 * Yorke, Physica D 17, 125, 1985): for each distance ks[j] (in grid steps),
 * fractions[j] is the fraction of grid points whose label differs from that
 * of one of their 2·ndim neighbours at that distance along the axes (points
 * without all of them are not counted); f ~ eps^alpha, and *exponent is the
 * least-squares slope of ln f against ln k over the k with f > 0
 * (*exponent_err its standard error; NaN with fewer than 2 or 3 points).
 * alpha = 1 for a smooth boundary; alpha < 1 for a fractal one, whose
 * box-counting dimension is ndim - alpha. */
int model_basin_uncertainty(const int *labels, int ndim, const long long *shape, int nk, const int *ks,
                            double *fractions, double *exponent, double *exponent_err);

/* ------------------------------------------------------------------ statistics */

typedef struct model_stats {
    unsigned long long steps;    /* accepted steps of every system since it was loaded */
    unsigned long long evals;    /* right-hand-side evaluations, likewise */
    long count[MODEL_NSTATUS];   /* systems in each status, indexed by MODEL_STATUS_* */
    double kernel_seconds;       /* the last run or scan: the kernels' time on the GPU (the
                                    slowest device; no copies), or the integration on the CPU */
    long lyap_trace_off;         /* the last scan (`lyapunov N` with N the number of states): systems
                                    whose lyap_trace_err after their last recorded integration is
                                    beyond 10^-3 of the spectrum (README.md: the smallest exponents
                                    are not to be trusted) */
} model_stats;

int model_solver_stats(model_solver *solver, model_stats *stats);

/* ------------------------------------------------------------------ MPI (make MPI=1) */

/* A library built with `make MPI=1` (the MPI of mpicc: Debian's OpenMPI)
 * also spreads scans over the processes of an MPI communicator, for a
 * program that already uses MPI.  These are declared when <mpi.h> was
 * included before this header (and when the library itself is built with
 * MPI); link with MPI's library (mpicc -showme:link).  Neither function
 * calls MPI_Init or MPI_Finalize; both are collective over comm and work on
 * a duplicate of it (their messages never meet the program's).  Chunks of
 * systems are handed out in order to the processes as they ask (a process
 * asks when its solver is free, so that processes whose systems are cheap
 * take more), and every wait sleeps rather than spins. */
#ifdef MPI_VERSION

/* The runner (model_main, SPEC §4) over the processes of comm: every
 * process passes the same command-line words; the output is the file that
 * a run of one process writes, byte for byte, written by rank 0 of comm as
 * the chunks come back (no process holds the whole result).  Each process
 * takes its share of its node: the GPUs chosen by its place among the
 * node's processes that see the same GPUs (one each with as many processes
 * as GPUs), and the CPU cores divided among the processes that run on the
 * same ones (unless OMP_NUM_THREADS is set).  Rank 0 prints progress, the
 * summary and every process's error, naming the process; it computes too
 * when MPI was initialised with MPI_THREAD_SERIALIZED or more (its manager
 * needs a thread of its own).  Returns the runner's exit status, the same on
 * every process: 0, 1 (a process failed: rank 0 said which), 2 (usage);
 * SIGINT and SIGTERM end rank 0 with 130 and 143 as in model_main.
 *
 *     int provided;
 *     MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
 *     char *words[] = {"duffing", "--scan", "k=lin(0.2,0.3,1000000)", "-o", "k.h5", NULL};
 *     int status = model_mpi_main(MPI_COMM_WORLD, 5, words);
 *     MPI_Finalize();
 */
int model_mpi_main(MPI_Comm comm, int argc, char **argv);

/* A chunk of a distributed scan: systems first … first+count-1 of the scan,
 * held by the solver's systems 0 … count-1.  Return 0 to go on. */
typedef int (*model_mpi_chunk_fn)(model_solver *solver, long long first, int count, void *user);

/* A scan of `total` systems spread over the processes of comm.  Every
 * process passes its own solver (any size, any backend) and the same total,
 * transient and record.  A process gets chunks of as many systems as its
 * solver holds (the last one fewer); for each, on that process, load(solver,
 * first, count, user) sets the solver's systems 0 … count-1 up as scan
 * systems first … first+count-1 (the solver holds count systems then, at the
 * model's defaults), the solver runs `transient` integrations and records
 * `record` (as model_solver_scan), then collect (may be NULL) reads what it
 * needs (model_solver_recorded_values, model_solver_get, …).  Results stay on
 * the process that computed them.  Rank 0 of comm computes too when MPI was
 * initialised with MPI_THREAD_MULTIPLE (its callbacks may call MPI while its
 * manager's thread does), or when it is alone; otherwise it only hands out
 * chunks.  On return the solver holds its first number of systems again, at
 * the defaults.
 *
 * Returns MODEL_OK on every process when every chunk is done.  When a
 * callback returns non-zero or the solver fails on one process, no more
 * chunks are handed out, the chunks in progress finish, and every process
 * returns: that process its callback's value or the solver's code, the
 * others MODEL_ERR_MPI; model_solver_error says which process failed and
 * why.
 *
 *     static int load(model_solver *s, long long first, int count, void *user) {
 *         return model_solver_load(s, (const model_pool *)user, (long)first, 0, count);
 *     }
 *     static int collect(model_solver *s, long long first, int count, void *user) {
 *         double y1[4096];                                  // the solver's size
 *         model_solver_recorded_values(s, 0, 0, 0, count, y1, 1);
 *         … keep y1[0 … count-1] for systems first …
 *         return 0;
 *     }
 *     model_solver *s;
 *     model_solver_create(&s, 4096, MODEL_BACKEND_AUTO, NULL, 0);
 *     rc = model_mpi_scan(MPI_COMM_WORLD, s, pool.size, 1024, 1, load, collect, &pool);
 */
int model_mpi_scan(MPI_Comm comm, model_solver *solver, long long total, int transient, int record,
                   model_mpi_chunk_fn load, model_mpi_chunk_fn collect, void *user);

#endif /* MPI_VERSION */

/* ------------------------------------------------------------------ runner */

/* The generated command-line program (SPEC §4); NAME_main.c's main calls it.
 * Returns the exit status: 0 done, 1 runtime error, 2 usage error.  SIGINT
 * and SIGTERM end the process at once with 130 and 143, after committing the
 * checkpoint (--checkpoint) and removing the unfinished output (output to a
 * pipe ends with a whole row).  Built with make MPI=1 it initialises MPI and
 * runs model_mpi_main over MPI_COMM_WORLD.  It starts a
 * writer thread and uses OpenMP: call it from a program's main, not from a
 * library. */
int model_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* MODEL_API_H */
