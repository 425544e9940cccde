/* test_api.c — the library API (runtime/api.h) on the example model
 * (templates/example_model.h: Duffing with an accessory ymax and an event
 * `peak`), CPU path.  Linked against the assembled model (assembled.c); it
 * also includes the solver templates itself, to integrate a system by hand
 * and compare.  Run by tests/runtime/run.sh; exits non-zero on failure. */
#define _POSIX_C_SOURCE 200809L
#include "api.h"
#include "example_model.h"
#include "solver.h"
#include "driver.h"
#include "options.c"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* Exact equality of doubles (NaN equal to NaN). */
#define CHECK_SAME(a, b)                                                        \
    do {                                                                        \
        double a_ = (a), b_ = (b);                                              \
        if (!(a_ == b_ || (a_ != a_ && b_ != b_))) {                            \
            fprintf(stderr, "%s:%d: %s = %.17g differs from %s = %.17g\n", __FILE__, __LINE__, #a, a_, #b, b_); \
            failures++;                                                         \
        }                                                                       \
    } while (0)

static double get(model_solver *s, int kind, int index, int system)
{
    double v = NAN;
    CHECK_RC(model_solver_get(s, kind, index, system, &v), MODEL_OK);
    return v;
}

static model_solver *cpu_solver(int n)
{
    model_solver *s = NULL;
    int rc = model_solver_create(&s, n, MODEL_BACKEND_CPU, NULL, 0);
    if (rc != MODEL_OK) {
        fprintf(stderr, "cannot create a solver: %s\n", model_solver_error(s));
        exit(1);
    }
    return s;
}

/* ------------------------------------------------------------------ metadata */

static void test_metadata(void)
{
    CHECK_STR(model_modelname(), "example");
    CHECK(model_count(MODEL_KIND_STATE) == 2 && MODEL_NSTATE == 2);
    CHECK(model_count(MODEL_KIND_PARAM) == 2);
    CHECK(model_count(MODEL_KIND_ACC) == 1);
    CHECK(model_count(MODEL_KIND_AUX) == 0);
    CHECK(model_count(MODEL_KIND_DERIVED) == 0);
    CHECK(model_count(MODEL_KIND_EVENT) == 1);
    CHECK(model_count(MODEL_KIND_FIELD) == 8 && MODEL_NFIELD == 8);
    CHECK(model_count(MODEL_KIND_T) == -1 && model_count(99) == -1);

    CHECK_STR(model_name(MODEL_KIND_STATE, MODEL_STATE_Y2), "y2");
    CHECK_STR(model_name(MODEL_KIND_PARAM, MODEL_PARAM_B), "B");
    CHECK_STR(model_name(MODEL_KIND_ACC, MODEL_ACC_YMAX), "ymax");
    CHECK_STR(model_name(MODEL_KIND_EVENT, MODEL_EVENT_PEAK), "peak");
    CHECK_STR(model_name(MODEL_KIND_FIELD, MODEL_FIELD_T1), "t1");
    CHECK(model_name(MODEL_KIND_STATE, 2) == NULL && model_name(MODEL_KIND_STATE, -1) == NULL);
    CHECK(model_name(MODEL_KIND_AUX, 0) == NULL && model_name(42, 0) == NULL);

    CHECK(model_index(MODEL_KIND_STATE, "y1") == MODEL_STATE_Y1);
    CHECK(model_index(MODEL_KIND_STATE, "Y2") == MODEL_STATE_Y2);
    CHECK(model_index(MODEL_KIND_PARAM, "b") == MODEL_PARAM_B);
    CHECK(model_index(MODEL_KIND_PARAM, "K") == MODEL_PARAM_K);
    CHECK(model_index(MODEL_KIND_FIELD, "YMAX") == MODEL_FIELD_YMAX);
    CHECK(model_index(MODEL_KIND_FIELD, "T0") == MODEL_FIELD_T0);
    CHECK(model_index(MODEL_KIND_PARAM, "y1") == -1);
    CHECK(model_index(MODEL_KIND_PARAM, "kk") == -1);
    CHECK(model_index(MODEL_KIND_PARAM, "") == -1);
    CHECK(model_index(MODEL_KIND_PARAM, NULL) == -1);
    CHECK(model_index(77, "k") == -1);

    int kind = -1, index = -1;
    CHECK_RC(model_lookup("YMAX", &kind, &index), MODEL_OK);
    CHECK(kind == MODEL_KIND_ACC && index == 0);
    CHECK_RC(model_lookup("peak", &kind, &index), MODEL_OK);
    CHECK(kind == MODEL_KIND_EVENT && index == 0);
    CHECK_RC(model_lookup("T1", &kind, &index), MODEL_OK);
    CHECK(kind == MODEL_KIND_T1 && index == 0);
    CHECK_RC(model_lookup("evals", &kind, &index), MODEL_OK);
    CHECK(kind == MODEL_KIND_EVALS);
    CHECK_RC(model_lookup("nothing", &kind, &index), MODEL_ERR_NAME);
    CHECK_RC(model_lookup(NULL, &kind, &index), MODEL_ERR_ARG);

    CHECK_SAME(model_default(MODEL_KIND_STATE, 0), 0.0);
    CHECK_SAME(model_default(MODEL_KIND_PARAM, MODEL_PARAM_K), 0.25);
    CHECK_SAME(model_default(MODEL_KIND_PARAM, MODEL_PARAM_B), 0.3);
    CHECK_SAME(model_default(MODEL_KIND_T0, 0), 0.0);
    CHECK_SAME(model_default(MODEL_KIND_T1, 0), 6.283185307179586);
    CHECK(isnan(model_default(MODEL_KIND_ACC, 0)));
    CHECK(isnan(model_default(MODEL_KIND_PARAM, 2)));

    int codes[MODEL_NFIELD];
    CHECK(model_default_fields(NULL) == 2);
    CHECK(model_default_fields(codes) == 2 && codes[0] == MODEL_FIELD_Y1 && codes[1] == MODEL_FIELD_Y2);
    int tr = -1, rec = -1;
    model_default_repeat(&tr, &rec);
    CHECK(tr == 1024 && rec == 32);

    static const char *const st[] = {"ready", "finished", "event",  "equilibrium", "maxsteps", "bound",
                                     "nan",   "singular", "zeno", "empty",       "unstable", "history",
                                     "dae_failed"};
    CHECK(sizeof st / sizeof *st == MODEL_NSTATUS);
    for (int k = 0; k < MODEL_NSTATUS; k++) CHECK_STR(model_status_name(k), st[k]);
    CHECK_STR(model_status_name(MODEL_NSTATUS), "unknown");
    CHECK_STR(model_status_name(-1), "unknown");

    CHECK_STR(model_strerror(MODEL_OK), "no error");
    CHECK_STR(model_strerror(MODEL_ERR_ARG), "invalid argument");
    CHECK_STR(model_strerror(MODEL_ERR_NAME), "unknown name");
    CHECK_STR(model_strerror(MODEL_ERR_NOMEM), "out of memory");
    CHECK_STR(model_strerror(MODEL_ERR_NO_GPU), "no GPU available");
    CHECK_STR(model_strerror(MODEL_ERR_DEVICE), "no such CUDA device");
    CHECK_STR(model_strerror(MODEL_ERR_CUDA), "CUDA error");
    CHECK_STR(model_strerror(MODEL_ERR_NODATA), "no recorded values");
    CHECK_STR(model_strerror(MODEL_ERR_FAILED), "the solver could not be created");
    CHECK_STR(model_strerror(5), "stopped by the record callback");
    CHECK_STR(model_strerror(-100), "unknown error code");
}

/* ------------------------------------------------------------------ creation */

static void test_create_errors(void)
{
    model_solver *s = NULL;
    CHECK_RC(model_solver_create(NULL, 4, MODEL_BACKEND_CPU, NULL, 0), MODEL_ERR_ARG);

    CHECK_RC(model_solver_create(&s, 0, MODEL_BACKEND_CPU, NULL, 0), MODEL_ERR_ARG);
    CHECK(s != NULL);
    CHECK_STR(model_solver_error(s), "model_solver_create: the number of systems must be at least 1 (got 0)");
    /* A failed handle answers MODEL_ERR_FAILED and nothing else. */
    double v;
    CHECK_RC(model_solver_get(s, MODEL_KIND_STATE, 0, 0, &v), MODEL_ERR_FAILED);
    CHECK_STR(model_solver_error(s), "model_solver_get: the solver could not be created: free it");
    CHECK_RC(model_solver_run(s), MODEL_ERR_FAILED);
    CHECK(model_solver_size(s) == 0);
    model_solver_free(s);

    CHECK_RC(model_solver_create(&s, 4, 9, NULL, 0), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_create: unknown backend 9");
    model_solver_free(s);

    CHECK_RC(model_solver_create(&s, 4, MODEL_BACKEND_CPU, NULL, -1), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_create: bad device list (-1 devices)");
    model_solver_free(s);

    if (model_gpu_count() == 0) {
        CHECK(model_gpu_error() != NULL);
        CHECK_RC(model_gpu_info(0, NULL, 0, NULL, NULL), MODEL_ERR_NO_GPU);
        CHECK_RC(model_solver_create(&s, 4, MODEL_BACKEND_GPU, NULL, 0), MODEL_ERR_NO_GPU);
        char want[512];
        snprintf(want, sizeof want, "model_solver_create: no GPU: %s", model_gpu_error());
        CHECK_STR(model_solver_error(s), want);
        model_solver_free(s);
        /* AUTO falls back to the CPU. */
        CHECK_RC(model_solver_create(&s, 4, MODEL_BACKEND_AUTO, NULL, 0), MODEL_OK);
        CHECK(model_solver_backend(s) == MODEL_BACKEND_CPU);
        CHECK(strncmp(model_solver_describe(s), "CPU, ", 5) == 0);
        model_solver_free(s);
    }
    model_solver_free(NULL);
    CHECK(strlen(model_solver_error(NULL)) > 0);
}

/* ------------------------------------------------------------------ values */

static void test_values(void)
{
    model_solver *s = cpu_solver(5);
    CHECK(model_solver_size(s) == 5);
    CHECK(model_solver_backend(s) == MODEL_BACKEND_CPU);
    CHECK_STR(model_solver_error(s), "");

    /* Defaults. */
    for (int i = 0; i < 5; i++) {
        CHECK_SAME(get(s, MODEL_KIND_PARAM, MODEL_PARAM_K, i), 0.25);
        CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, i), 0.0);
        CHECK_SAME(get(s, MODEL_KIND_T0, 0, i), 0.0);
        CHECK_SAME(get(s, MODEL_KIND_T1, 0, i), 6.283185307179586);
        CHECK_SAME(get(s, MODEL_KIND_STATUS, 0, i), MODEL_STATUS_READY);
        CHECK_SAME(get(s, MODEL_KIND_STEPS, 0, i), 0.0);
    }

    /* By kind and index, one system and all. */
    CHECK_RC(model_solver_set(s, MODEL_KIND_PARAM, MODEL_PARAM_K, 3, 0.125), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_PARAM, MODEL_PARAM_K, 3), 0.125);
    CHECK_SAME(get(s, MODEL_KIND_PARAM, MODEL_PARAM_K, 2), 0.25);
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, MODEL_ALL_SYSTEMS, 10.5), MODEL_OK);
    for (int i = 0; i < 5; i++) CHECK_SAME(get(s, MODEL_KIND_T1, 0, i), 10.5);
    CHECK_RC(model_solver_set(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, 0, -3.0), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, 0), -3.0);
    CHECK_RC(model_solver_set(s, MODEL_KIND_T, 0, 1, 2.5), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_T, 0, 1), 2.5);
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATUS, 0, 4, MODEL_STATUS_BOUND), MODEL_OK);
    int status = -1;
    unsigned long long steps = 1, evals = 1;
    CHECK_RC(model_solver_get_counts(s, 4, &status, &steps, &evals), MODEL_OK);
    CHECK(status == MODEL_STATUS_BOUND && steps == 0 && evals == 0);

    /* Fields computed on the host. */
    CHECK_SAME(get(s, MODEL_KIND_FIELD, MODEL_FIELD_K, 3), 0.125);
    CHECK_SAME(get(s, MODEL_KIND_FIELD, MODEL_FIELD_T, 1), 2.5);
    CHECK_SAME(get(s, MODEL_KIND_FIELD, MODEL_FIELD_YMAX, 0), -3.0);

    /* By name, case-insensitive. */
    double v = 0;
    CHECK_RC(model_solver_set_by_name(s, "Y2", 2, 0.75), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y2, 2), 0.75);
    CHECK_RC(model_solver_get_by_name(s, "y2", 2, &v), MODEL_OK);
    CHECK_SAME(v, 0.75);
    CHECK_RC(model_solver_set_by_name(s, "t0", MODEL_ALL_SYSTEMS, 1.0), MODEL_OK);
    CHECK_RC(model_solver_get_by_name(s, "T0", 4, &v), MODEL_OK);
    CHECK_SAME(v, 1.0);
    CHECK_RC(model_solver_get_by_name(s, "status", 4, &v), MODEL_OK);
    CHECK_SAME(v, MODEL_STATUS_BOUND);
    CHECK_RC(model_solver_get_by_name(s, "ymax", 0, &v), MODEL_OK);
    CHECK_SAME(v, -3.0);

    /* Errors, with their messages; nothing changes. */
    CHECK_RC(model_solver_set(s, MODEL_KIND_PARAM, 2, 0, 1.0), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set: parameter index 2 out of range (0 to 1)");
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATE, 0, 5, 1.0), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set: system 5 out of range (0 to 4, or -1 for all)");
    CHECK_RC(model_solver_get(s, MODEL_KIND_STATE, 0, -1, &v), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_get: system -1 out of range (0 to 4)");
    CHECK_RC(model_solver_set(s, MODEL_KIND_STEPS, 0, 0, 1.0), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set: kind 11 (steps) cannot be set per system");
    CHECK_RC(model_solver_set(s, MODEL_KIND_AUX, 0, 0, 1.0), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set: kind 3 (aux quantity) cannot be set per system");
    CHECK_RC(model_solver_set(s, 40, 0, 0, 1.0), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set: unknown kind 40");
    CHECK_RC(model_solver_set(s, MODEL_KIND_T0, 1, 0, 1.0), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set: t0 index 1 out of range (0 to 0)");
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATUS, 0, 0, MODEL_NSTATUS), MODEL_ERR_ARG);
    {
        char want[80];
        snprintf(want, sizeof want, "model_solver_set: %d is not a status (0 to %d)", MODEL_NSTATUS, MODEL_NSTATUS - 1);
        CHECK_STR(model_solver_error(s), want);
    }
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATUS, 0, 0, 1.5), MODEL_ERR_ARG);
    CHECK_RC(model_solver_get(s, MODEL_KIND_STATE, 0, 0, NULL), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_get: value is NULL");
    CHECK_RC(model_solver_set_by_name(s, "kappa", 0, 1.0), MODEL_ERR_NAME);
    CHECK_STR(model_solver_error(s), "model_solver_set_by_name: unknown name 'kappa'");
    CHECK_RC(model_solver_set_by_name(s, "peak", 0, 1.0), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set_by_name: 'peak' is an event: it cannot be set");
    CHECK_RC(model_solver_set_by_name(s, "evals", 0, 1.0), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set_by_name: 'evals' is read-only");
    CHECK_RC(model_solver_get_by_name(s, NULL, 0, &v), MODEL_ERR_ARG);
    CHECK_SAME(get(s, MODEL_KIND_PARAM, MODEL_PARAM_K, 0), 0.25);
    CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 0), 0.0);

    /* Options. */
    CHECK_RC(model_solver_set_block(s, 64), MODEL_OK);
    CHECK_RC(model_solver_set_block(s, 0), MODEL_OK);
    CHECK_RC(model_solver_set_block(s, 100), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set_block: block size 100: must be a multiple of 32 from 32 to 128");
    CHECK_RC(model_solver_set_block(s, 256), MODEL_ERR_ARG);
    CHECK_RC(model_solver_set_balance(s, 1), MODEL_OK);
    CHECK_RC(model_solver_set(NULL, MODEL_KIND_STATE, 0, 0, 1.0), MODEL_ERR_ARG);
    model_solver_free(s);
}

/* ------------------------------------------------------------------ windows */

/* A window with nothing to integrate is refused before anything runs, with
 * the systems it concerns, whatever order t0 and t1 were set in; so is a time
 * that is not a finite number.  (A window that the model itself empties ends
 * with the status `empty`: tests/numerics.) */
static void test_windows(void)
{
    model_solver *s = cpu_solver(6);
    double v = 0;
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, 2, 0.0), MODEL_OK);   /* [0, 0] */
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, 4, -1.0), MODEL_OK);  /* [0, -1] */
    CHECK_RC(model_solver_run(s), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_run: 2 systems with an empty window (2, 4), nothing integrated; "
                                     "system 2: the window [0.0, 0.0] is empty: t1 must be after t0");
    CHECK_RC(model_solver_scan(s, 0, 1, NULL, NULL), MODEL_ERR_ARG);
    CHECK_SAME(get(s, MODEL_KIND_STEPS, 0, 0), 0.0);                      /* nothing ran */
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATUS, 0, 4, MODEL_STATUS_BOUND), MODEL_OK);   /* sticky: skipped */
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, 2, 5.0), MODEL_OK);
    CHECK_RC(model_solver_run(s), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_STATUS, 0, 2), MODEL_STATUS_FINISHED);
    CHECK_SAME(get(s, MODEL_KIND_STATUS, 0, 4), MODEL_STATUS_BOUND);
    /* t0 moved past t1, then t1 after it: checked when run, not when set */
    CHECK_RC(model_solver_set(s, MODEL_KIND_T0, 0, MODEL_ALL_SYSTEMS, 100.0), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, MODEL_ALL_SYSTEMS, 101.0), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_T, 0, MODEL_ALL_SYSTEMS, 100.0), MODEL_OK);
    CHECK_RC(model_solver_run(s), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_T, 0, 0), 101.0);
    /* a fixed step that does not move t there (RK4, dt = 0.01) */
    CHECK_RC(model_solver_set(s, MODEL_KIND_T0, 0, 5, 1e17), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, 5, 1e17 + 1024.0), MODEL_OK);
    CHECK_RC(model_solver_run(s), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_run: 1 system with an empty window (5), nothing integrated; system 5: a "
                                     "step of dt=0.01 does not move t in double precision in the window [1e17, "
                                     "1.0000000000000102e17] (numbers near 1.0000000000000102e17 are 16.0 apart)");
    CHECK_RC(model_solver_set(s, MODEL_KIND_T0, 0, 5, 1e3), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, 5, 1e3 + 1.0), MODEL_OK);
    CHECK_RC(model_solver_run(s), MODEL_OK);
    /* times that are not numbers */
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, 0, INFINITY), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_set: t1 = inf: a time must be a finite number");
    CHECK_RC(model_solver_set(s, MODEL_KIND_T0, 0, 0, NAN), MODEL_ERR_ARG);
    CHECK_RC(model_solver_get(s, MODEL_KIND_T0, 0, 0, &v), MODEL_OK);
    CHECK_SAME(v, 100.0);
    model_pool pool;
    CHECK_RC(model_pool_create(&pool, 3), MODEL_OK);
    pool.t1[1] = NAN;
    CHECK_RC(model_solver_load(s, &pool, 0, 0, 3), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_load: pool window of entry 1 is [0, nan]: a time must be a finite number");
    pool.t1[1] = -2.0;   /* [0, -2]: loaded, refused when run */
    CHECK_RC(model_solver_load(s, &pool, 0, 0, 3), MODEL_OK);
    CHECK_RC(model_solver_run(s), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_run: 1 system with an empty window (1), nothing integrated; system 1: "
                                     "the window [0.0, -2.0] is empty: t1 must be after t0");
    model_pool_destroy(&pool);
    model_solver_free(s);
}

/* ------------------------------------------------------------------ pools */

static void test_pools(void)
{
    model_pool pool;
    CHECK_RC(model_pool_create(&pool, 0), MODEL_ERR_ARG);
    CHECK_RC(model_pool_create(&pool, 10), MODEL_OK);
    CHECK(pool.size == 10 && pool.acc == NULL && pool.status == NULL && pool.t == NULL);
    for (long j = 0; j < 10; j++) {
        CHECK_SAME(pool.params[MODEL_PARAM_B * 10 + j], 0.3);
        CHECK_SAME(pool.t1[j], 6.283185307179586);
        pool.params[MODEL_PARAM_K * 10 + j] = 0.01 * (double)j;
        pool.states[MODEL_STATE_Y1 * 10 + j] = (double)j;
        pool.t0[j] = -(double)j;
    }
    model_solver *s = cpu_solver(4);

    /* LinearSet: entries 5..7 into slots 1..3. */
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATUS, 0, MODEL_ALL_SYSTEMS, MODEL_STATUS_NAN), MODEL_OK);
    CHECK_RC(model_solver_load(s, &pool, 5, 1, 3), MODEL_OK);
    for (int i = 1; i < 4; i++) {
        const long j = 4 + i;
        CHECK_SAME(get(s, MODEL_KIND_PARAM, MODEL_PARAM_K, i), 0.01 * (double)j);
        CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, i), (double)j);
        CHECK_SAME(get(s, MODEL_KIND_T0, 0, i), -(double)j);
        CHECK_SAME(get(s, MODEL_KIND_T, 0, i), -(double)j);
        CHECK_SAME(get(s, MODEL_KIND_STATUS, 0, i), MODEL_STATUS_READY);
    }
    CHECK_SAME(get(s, MODEL_KIND_STATUS, 0, 0), MODEL_STATUS_NAN);   /* slot 0 untouched */

    /* RandomSet: entries 9, 0 into slots 2, 0. */
    const long entries[2] = {9, 0};
    const int slots[2] = {2, 0};
    CHECK_RC(model_solver_load_indexed(s, &pool, entries, slots, 2), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 2), 9.0);
    CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 0), 0.0);
    CHECK_SAME(get(s, MODEL_KIND_PARAM, MODEL_PARAM_K, 0), 0.0);
    CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 1), 5.0);

    /* Bad transfers change nothing. */
    CHECK_RC(model_solver_load(s, &pool, 8, 0, 3), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_load: pool entries 8 to 10 out of range (pool size 10)");
    CHECK_RC(model_solver_load(s, &pool, 0, 2, 3), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_load: slots 2 to 4 out of range (solver size 4)");
    const long bad_entries[2] = {1, 10};
    CHECK_RC(model_solver_load_indexed(s, &pool, bad_entries, NULL, 2), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_load_indexed: entries[1] = 10 out of range (pool size 10)");
    CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 0), 0.0);   /* entry 1 was not loaded */
    CHECK_RC(model_solver_load(s, NULL, 0, 0, 1), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_load: pool is NULL");
    CHECK_RC(model_solver_load(s, &pool, 0, 0, -1), MODEL_ERR_ARG);

    /* Run, then store back into a pool with every array. */
    CHECK_RC(model_solver_run(s), MODEL_OK);
    model_pool out;
    CHECK_RC(model_pool_create(&out, 6), MODEL_OK);
    out.acc = (double *)calloc(6 * MODEL_NACC, sizeof(double));
    out.status = (int *)calloc(6, sizeof(int));
    out.t = (double *)calloc(6, sizeof(double));
    CHECK_RC(model_solver_store(s, &out, 2, 0, 4), MODEL_OK);
    for (int i = 0; i < 4; i++) {
        CHECK_SAME(out.states[MODEL_STATE_Y2 * 6 + 2 + i], get(s, MODEL_KIND_STATE, MODEL_STATE_Y2, i));
        CHECK_SAME(out.params[MODEL_PARAM_K * 6 + 2 + i], get(s, MODEL_KIND_PARAM, MODEL_PARAM_K, i));
        CHECK_SAME(out.acc[2 + i], get(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, i));
        CHECK_SAME(out.t[2 + i], get(s, MODEL_KIND_T, 0, i));
        CHECK_SAME(out.t1[2 + i], get(s, MODEL_KIND_T1, 0, i));
        CHECK(out.status[2 + i] == MODEL_STATUS_FINISHED);
    }
    CHECK_SAME(out.states[0], 0.0);   /* entries 0, 1 untouched */
    const long back[2] = {0, 1};
    const int from[2] = {3, 3};
    CHECK_RC(model_solver_store_indexed(s, &out, back, from, 2), MODEL_OK);
    CHECK_SAME(out.states[MODEL_STATE_Y1 * 6 + 0], out.states[MODEL_STATE_Y1 * 6 + 5]);
    CHECK_SAME(out.states[MODEL_STATE_Y1 * 6 + 1], out.states[MODEL_STATE_Y1 * 6 + 5]);

    /* Loading with accessories keeps them (status FINISHED); a stored pool
     * reloads to the same state and continues as the solver would have. */
    model_solver *c = cpu_solver(4);
    CHECK_RC(model_solver_load(c, &out, 2, 0, 4), MODEL_OK);
    for (int i = 0; i < 4; i++) {
        CHECK_SAME(get(c, MODEL_KIND_ACC, MODEL_ACC_YMAX, i), get(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, i));
        CHECK_SAME(get(c, MODEL_KIND_STATUS, 0, i), MODEL_STATUS_FINISHED);
        CHECK_SAME(get(c, MODEL_KIND_STEPS, 0, i), 0.0);
    }
    CHECK_RC(model_solver_run(s), MODEL_OK);
    CHECK_RC(model_solver_run(c), MODEL_OK);
    for (int i = 0; i < 4; i++) {
        CHECK_SAME(get(c, MODEL_KIND_STATE, MODEL_STATE_Y1, i), get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, i));
        CHECK_SAME(get(c, MODEL_KIND_ACC, MODEL_ACC_YMAX, i), get(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, i));
    }
    /* A pool status that is not a status is refused. */
    out.status[3] = MODEL_NSTATUS;
    CHECK_RC(model_solver_load(c, &out, 2, 0, 4), MODEL_ERR_ARG);
    {
        char want[80];
        snprintf(want, sizeof want, "model_solver_load: pool status of entry 3 is %d: not a status", MODEL_NSTATUS);
        CHECK_STR(model_solver_error(c), want);
    }
    model_solver_free(c);
    model_solver_free(s);
    model_pool_destroy(&out);
    model_pool_destroy(&pool);
    CHECK(pool.size == 0 && pool.t0 == NULL);
}

/* ------------------------------------------------------------------ runs */

/* Fills systems with different parameters and initial values. */
static void vary(model_solver *s)
{
    const int n = model_solver_size(s);
    for (int i = 0; i < n; i++) {
        model_solver_set(s, MODEL_KIND_PARAM, MODEL_PARAM_K, i, 0.2 + 0.01 * i);
        model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y1, i, 0.1 * i - 0.3);
    }
}

typedef struct Seen {
    int reps[64];
    int count;
    int stop_at;
} Seen;

static int on_record(model_solver *s, int rep, void *user)
{
    Seen *seen = (Seen *)user;
    seen->reps[seen->count++] = rep;
    CHECK(model_solver_recorded_count(s) == 4);
    return rep == seen->stop_at ? 7 : 0;
}

typedef struct Progress {
    long last, calls, total;
    int monotonic;
} Progress;

static int on_progress(void *user, long done, long total)
{
    Progress *p = (Progress *)user;
    if (done < p->last) p->monotonic = 0;
    p->last = done;
    p->total = total;
    p->calls++;
    return 0;
}

static void test_run_vs_scan(void)
{
    const int n = 7, T = 3, R = 4;
    model_solver *a = cpu_solver(n), *b = cpu_solver(n);
    vary(a);
    vary(b);
    const int fields[5] = {MODEL_FIELD_YMAX, MODEL_FIELD_Y1, MODEL_FIELD_T, MODEL_FIELD_K, MODEL_FIELD_Y2};
    CHECK_RC(model_solver_set_fields(a, fields, 5), MODEL_OK);
    int got[MODEL_NFIELD];
    CHECK(model_solver_get_fields(a, got) == 5 && got[0] == MODEL_FIELD_YMAX && got[4] == MODEL_FIELD_Y2);

    Progress prog = {0, 0, 0, 1};
    CHECK_RC(model_solver_set_progress(a, on_progress, &prog), MODEL_OK);
    Seen seen;
    memset(&seen, 0, sizeof seen);
    seen.stop_at = -1;
    CHECK_RC(model_solver_scan(a, T, R, on_record, &seen), MODEL_OK);
    CHECK(seen.count == R);
    for (int r = 0; r < R; r++) CHECK(seen.reps[r] == r);
    CHECK(prog.monotonic && prog.last == n && prog.total == n && prog.calls >= 1);

    /* The same integrations one at a time: identical states after each. */
    for (int r = 0; r < T + R; r++) {
        CHECK_RC(model_solver_run(b), MODEL_OK);
        if (r < T) continue;
        for (int i = 0; i < n; i++) {
            double v;
            int st;
            CHECK_RC(model_solver_recorded(a, r - T, 0, i, &v), MODEL_OK);
            CHECK_SAME(v, get(b, MODEL_KIND_ACC, MODEL_ACC_YMAX, i));
            CHECK_RC(model_solver_recorded(a, r - T, 1, i, &v), MODEL_OK);
            CHECK_SAME(v, get(b, MODEL_KIND_STATE, MODEL_STATE_Y1, i));
            CHECK_RC(model_solver_recorded(a, r - T, 2, i, &v), MODEL_OK);
            CHECK_SAME(v, get(b, MODEL_KIND_T, 0, i));
            CHECK_SAME(v, 6.283185307179586);
            CHECK_RC(model_solver_recorded(a, r - T, 3, i, &v), MODEL_OK);
            CHECK_SAME(v, 0.2 + 0.01 * i);
            CHECK_RC(model_solver_recorded(a, r - T, 4, i, &v), MODEL_OK);
            CHECK_SAME(v, get(b, MODEL_KIND_STATE, MODEL_STATE_Y2, i));
            CHECK_RC(model_solver_recorded_status(a, r - T, i, &st), MODEL_OK);
            CHECK(st == MODEL_STATUS_FINISHED);
        }
    }
    model_stats sa, sb;
    CHECK_RC(model_solver_stats(a, &sa), MODEL_OK);
    CHECK_RC(model_solver_stats(b, &sb), MODEL_OK);
    CHECK(sa.steps == sb.steps && sa.evals == sb.evals && sa.steps > 0);
    CHECK(sa.count[MODEL_STATUS_FINISHED] == n && sa.count[MODEL_STATUS_READY] == 0);
    for (int i = 0; i < n; i++) {
        unsigned long long s1, s2, e1, e2;
        model_solver_get_counts(a, i, NULL, &s1, &e1);
        model_solver_get_counts(b, i, NULL, &s2, &e2);
        CHECK(s1 == s2 && e1 == e2);
        /* RK4, step 0.01 over 2 pi: 629 steps per integration (the last
         * clipped), more where an event shortens one; 4 evaluations a step,
         * more for locating events. */
        CHECK(s1 >= 629ULL * (T + R) && s1 < 640ULL * (T + R) && e1 >= 4 * s1);
    }

    /* Recorded-value errors. */
    double v;
    int st;
    CHECK_RC(model_solver_recorded(a, R, 0, 0, &v), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(a), "model_solver_recorded: rep 4 out of range (0 to 3)");
    CHECK_RC(model_solver_recorded(a, 0, 5, 0, &v), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(a), "model_solver_recorded: field slot 5 out of range (0 to 4)");
    CHECK_RC(model_solver_recorded(a, 0, 0, n, &v), MODEL_ERR_ARG);
    CHECK_RC(model_solver_recorded_status(a, 0, 0, NULL), MODEL_ERR_ARG);

    /* The callback's early stop: its value comes back, later reps are not called. */
    memset(&seen, 0, sizeof seen);
    seen.stop_at = 1;
    CHECK_RC(model_solver_scan(a, 0, R, on_record, &seen), 7);
    CHECK(seen.count == 2 && seen.reps[0] == 0 && seen.reps[1] == 1);
    CHECK(model_solver_recorded_count(a) == R);   /* still readable */
    CHECK_RC(model_solver_recorded(a, 3, 0, 0, &v), MODEL_OK);

    /* A run records nothing. */
    CHECK_RC(model_solver_run(a), MODEL_OK);
    CHECK(model_solver_recorded_count(a) == 0);
    CHECK_RC(model_solver_recorded(a, 0, 0, 0, &v), MODEL_ERR_NODATA);
    CHECK_STR(model_solver_error(a), "model_solver_recorded: nothing recorded: the last run or scan recorded no integration");
    CHECK_RC(model_solver_recorded_status(a, 0, 0, &st), MODEL_ERR_NODATA);

    /* Statuses only (no fields), and the default fields. */
    CHECK_RC(model_solver_set_fields(a, fields, 0), MODEL_OK);
    CHECK_RC(model_solver_scan(a, 0, 2, NULL, NULL), MODEL_OK);
    CHECK_RC(model_solver_recorded_status(a, 1, n - 1, &st), MODEL_OK);
    CHECK(st == MODEL_STATUS_FINISHED);
    CHECK_RC(model_solver_recorded(a, 0, 0, 0, &v), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(a), "model_solver_recorded: no fields were recorded (only statuses)");
    CHECK_RC(model_solver_set_fields(a, NULL, 0), MODEL_OK);
    CHECK(model_solver_get_fields(a, NULL) == 2);
    const int bad[1] = {8};
    CHECK_RC(model_solver_set_fields(a, bad, 1), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(a), "model_solver_set_fields: codes[0] = 8 is not a field code (0 to 7)");
    CHECK_RC(model_solver_set_fields(a, fields, 9), MODEL_ERR_ARG);
    CHECK_RC(model_solver_scan(a, -1, 2, NULL, NULL), MODEL_ERR_ARG);
    CHECK_RC(model_solver_scan(a, 2, 2147483647, NULL, NULL), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(a),
              "model_solver_scan: transient 2 and record 2147483647: both must be >= 0, their sum at most 2147483647");
    CHECK_RC(model_solver_scan(a, 0, 0, NULL, NULL), MODEL_OK);
    model_solver_free(a);
    model_solver_free(b);
}

/* Column copies of recorded values equal the one-by-one reads; a progress
 * callback that returns non-zero stops a scan; the model's scan lines. */
static int stop_at_once(void *user, long done, long total)
{
    (void)done;
    (void)total;
    ++*(int *)user;
    return 1;
}

static void test_columns_stop_scan_lines(void)
{
    const int n = 50, R = 3;
    model_solver *s = cpu_solver(n);
    vary(s);
    const int fields[2] = {MODEL_FIELD_Y1, MODEL_FIELD_K};
    CHECK_RC(model_solver_set_fields(s, fields, 2), MODEL_OK);
    CHECK_RC(model_solver_scan(s, 1, R, NULL, NULL), MODEL_OK);
    double table[50 * 3];
    int statuses[50 * 3];
    for (int r = 0; r < R; r++) {
        CHECK_RC(model_solver_recorded_values(s, r, 0, 0, n, &table[r], R), MODEL_OK);
        CHECK_RC(model_solver_recorded_statuses(s, r, 0, n, &statuses[r], R), MODEL_OK);
    }
    for (int i = 0; i < n; i++) {
        for (int r = 0; r < R; r++) {
            double v;
            int st;
            CHECK_RC(model_solver_recorded(s, r, 0, i, &v), MODEL_OK);
            CHECK_SAME(table[i * R + r], v);
            CHECK_RC(model_solver_recorded_status(s, r, i, &st), MODEL_OK);
            CHECK(statuses[i * R + r] == st);
        }
    }
    double k[5];
    CHECK_RC(model_solver_recorded_values(s, 2, 1, 45, 5, k, 1), MODEL_OK);
    CHECK_SAME(k[4], 0.2 + 0.01 * 49);
    CHECK_RC(model_solver_recorded_values(s, 0, 1, 46, 5, k, 1), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_recorded_values: systems 46 to 50 out of range (solver size 50)");
    CHECK_RC(model_solver_recorded_values(s, 0, 2, 0, 1, k, 1), MODEL_ERR_ARG);
    CHECK_STR(model_solver_error(s), "model_solver_recorded_values: field slot 2 out of range (0 to 1)");
    CHECK_RC(model_solver_recorded_values(s, 3, 0, 0, 1, k, 1), MODEL_ERR_ARG);
    CHECK_RC(model_solver_recorded_values(s, 0, 0, 0, 1, k, 0), MODEL_ERR_ARG);
    CHECK_RC(model_solver_recorded_statuses(s, 0, 0, 1, NULL, 1), MODEL_ERR_ARG);

    /* Stopped at the first report: fewer than all systems integrated, nothing recorded. */
    model_solver *a = cpu_solver(4000);
    int calls = 0;
    CHECK_RC(model_solver_set_progress(a, stop_at_once, &calls), MODEL_OK);
    CHECK_RC(model_solver_scan(a, 20, 1, NULL, NULL), MODEL_ERR_STOPPED);
    CHECK_STR(model_solver_error(a), "model_solver_scan: stopped by the progress callback: the systems are partly integrated");
    CHECK_STR(model_strerror(MODEL_ERR_STOPPED), "stopped by the progress callback");
    CHECK(calls == 1 && model_solver_recorded_count(a) == 0);
    model_stats st;
    CHECK_RC(model_solver_stats(a, &st), MODEL_OK);
    CHECK(st.count[MODEL_STATUS_READY] > 0 && st.count[MODEL_STATUS_FINISHED] > 0);
    CHECK_RC(model_solver_set_progress(a, NULL, NULL), MODEL_OK);
    CHECK_RC(model_solver_run(a), MODEL_OK);
    model_solver_free(a);
    model_solver_free(s);

    /* The example model's scan: k = lin(0.2, 0.3, 30720). */
    int kind = -1, index = -1;
    long count = 0;
    CHECK(model_scan_count() == 1);
    CHECK_RC(model_scan_line(0, &kind, &index, &count), MODEL_OK);
    CHECK(kind == MODEL_KIND_PARAM && index == MODEL_PARAM_K && count == 30720);
    CHECK_RC(model_scan_line(1, &kind, &index, &count), MODEL_ERR_ARG);
    CHECK_RC(model_scan_line(0, NULL, NULL, NULL), MODEL_OK);
    CHECK_SAME(model_scan_value(0, 0), 0.2);
    CHECK_SAME(model_scan_value(0, 30719), 0.3);
    CHECK_SAME(model_scan_value(0, 1), 1.0 * ((0.3 - 0.2) / 30719.0) + 0.2);
    CHECK(isnan(model_scan_value(0, 30720)) && isnan(model_scan_value(0, -1)) && isnan(model_scan_value(1, 0)));
}

/* Sticky statuses skip later integrations; READY re-evaluates accessories. */
static void test_statuses(void)
{
    model_solver *s = cpu_solver(3);
    vary(s);
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATUS, 0, 1, MODEL_STATUS_BOUND), MODEL_OK);
    const double y1 = get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 1);
    CHECK_RC(model_solver_run(s), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 1), y1);
    CHECK_SAME(get(s, MODEL_KIND_STATUS, 0, 1), MODEL_STATUS_BOUND);
    CHECK_SAME(get(s, MODEL_KIND_STEPS, 0, 1), 0.0);
    model_stats st;
    CHECK_RC(model_solver_stats(s, &st), MODEL_OK);
    CHECK(st.count[MODEL_STATUS_BOUND] == 1 && st.count[MODEL_STATUS_FINISHED] == 2);
    CHECK_RC(model_solver_stats(s, NULL), MODEL_ERR_ARG);

    /* ymax starts at y1 when READY; with another status it is kept as set. */
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 0, 5.0), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y2, 0, 0.0), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, 0, 100.0), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATUS, 0, 0, MODEL_STATUS_FINISHED), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y1, 2, 5.0), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y2, 2, 0.0), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, 2, 100.0), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_STATUS, 0, 2, MODEL_STATUS_READY), MODEL_OK);
    CHECK_RC(model_solver_set(s, MODEL_KIND_PARAM, MODEL_PARAM_K, 2, 0.2), MODEL_OK);
    CHECK_RC(model_solver_run(s), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, 0), 100.0);
    CHECK_SAME(get(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, 2), 5.0);   /* ymax = y1 at the start, never exceeded */
    model_solver_free(s);
}

/* One Duffing period by the library and by ode_integrate by hand: the same
 * numbers, exactly. */
static void test_against_solver(void)
{
    const double k = 0.27, y1 = 0.1, y2 = -0.2;
    model_solver *s = cpu_solver(3);
    for (int i = 0; i < 3; i++) {
        model_solver_set(s, MODEL_KIND_PARAM, MODEL_PARAM_K, i, k);
        model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y1, i, y1);
        model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y2, i, y2);
    }
    CHECK_RC(model_solver_run(s), MODEL_OK);

    OdeSystem sys;
    memset(&sys, 0, sizeof sys);
    sys.t0 = ODE_DEFAULT_T0;
    sys.t1 = ODE_DEFAULT_T0 + ODE_DEFAULT_TOTAL;
    sys.t = sys.t0;
    sys.y[0] = y1;
    sys.y[1] = y2;
    sys.p[0] = k;
    sys.p[1] = 0.3;
    sys.status = ODE_STATUS_READY;
    ode_model_derived(&sys);
    ode_model_acc_init(&sys);
    double file[ODE_NOPTION];
    ode_options_default(file);
    const OdeOptions options = ode_options_for_solver(file);
    ode_integrate(&sys, &options);
    for (int i = 0; i < 3; i++) {
        CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y1, i), sys.y[0]);
        CHECK_SAME(get(s, MODEL_KIND_STATE, MODEL_STATE_Y2, i), sys.y[1]);
        CHECK_SAME(get(s, MODEL_KIND_ACC, MODEL_ACC_YMAX, i), sys.acc[0]);
        CHECK_SAME(get(s, MODEL_KIND_T, 0, i), sys.t);
        CHECK_SAME(get(s, MODEL_KIND_STEPS, 0, i), (double)sys.steps);
        CHECK_SAME(get(s, MODEL_KIND_EVALS, 0, i), (double)sys.evals);
        CHECK_SAME(get(s, MODEL_KIND_STATUS, 0, i), sys.status);
    }
    CHECK(sys.status == ODE_STATUS_FINISHED && sys.t == sys.t1);
    /* Sanity of the numbers themselves: a damped, forced Duffing oscillator
     * stays in a bounded region over one period, and ymax >= y1 at both ends. */
    CHECK(fabs(sys.y[0]) < 2 && fabs(sys.y[1]) < 2 && sys.acc[0] >= y1 && sys.acc[0] >= sys.y[0]);
    model_solver_free(s);
}

/* One system integrated by hand with the given dt and total: the
 * library's run with the same run-time options must give these numbers. */
static OdeSystem by_hand(double k, double dt, double total)
{
    double v[ODE_NOPTION];
    ode_options_default(v);
    v[ODE_OPTION_DT] = dt;
    v[ODE_OPTION_TOTAL] = total;
    const OdeOptions options = ode_options_for_solver(v);
    OdeSystem sys;
    memset(&sys, 0, sizeof sys);
    sys.t0 = sys.t = (ode_real)v[ODE_OPTION_T0];
    sys.t1 = (ode_real)(v[ODE_OPTION_T0] + total);
    sys.y[0] = ode_state_default[0];
    sys.y[1] = ode_state_default[1];
    sys.p[0] = k;
    sys.p[1] = ode_param_default[1];
    sys.status = ODE_STATUS_READY;
    ode_model_derived(&sys);
    ode_model_acc_init(&sys);
    ode_integrate(&sys, &options);
    return sys;
}

/* Run-time options (api.h): names, the file's values, checks with one
 * reason each and the solver unchanged, windows, bit-for-bit agreement with
 * the solver run by hand, statuses from maxsteps and bound, and two solvers
 * with different options side by side. */
static void test_options(void)
{
    double v = 0;
    CHECK(model_option_count() == 9);
    CHECK_STR(model_option_name(0), "dt");
    CHECK_STR(model_option_name(8), "bound");
    CHECK(model_option_name(9) == NULL && model_option_name(-1) == NULL);
    CHECK_RC(model_option_default("dt", &v), MODEL_OK);
    CHECK_SAME(v, 0.01);
    CHECK_RC(model_option_default("TOTAL", &v), MODEL_OK);
    CHECK_SAME(v, 6.283185307179586);
    CHECK_RC(model_option_default("bounds", &v), MODEL_OK);   /* XPPAUT's spelling */
    CHECK_SAME(v, 1e100);
    CHECK_RC(model_option_default("@tol", &v), MODEL_OK);
    CHECK_SAME(v, 0.001);
    CHECK_RC(model_option_default("meth", &v), MODEL_ERR_NAME);
    CHECK_RC(model_option_default("dt", NULL), MODEL_ERR_ARG);

    model_solver *s = cpu_solver(3);
    CHECK_RC(model_solver_get_option(s, "maxsteps", &v), MODEL_OK);
    CHECK_SAME(v, 1e8);
    struct {
        const char *name;
        double value;
        const char *why;
    } bad[] = {
        {"dt", -1, "model_solver_set_option: dt must be positive"},
        {"dt", 0, "model_solver_set_option: dt must be positive"},
        {"total", NAN, "model_solver_set_option: total must be a finite number"},
        {"t0", INFINITY, "model_solver_set_option: t0 must be a finite number"},
        {"toler", 0, "model_solver_set_option: toler must be positive"},
        {"maxsteps", 1.5, "model_solver_set_option: maxsteps must be a whole number of at least 1"},
        {"maxsteps", 0, "model_solver_set_option: maxsteps must be a whole number of at least 1"},
        {"maxsteps", 5e9, "model_solver_set_option: maxsteps must be at most 3999999999 (the step counter has 32 "
                          "bits; a model whose file sets @ maxsteps to 4e9 or more counts with 64)"},
        {"dtmin", 1e7, "model_solver_set_option: dtmin (1e+07) is larger than dtmax (1e+06)"},
        {"dtmax", 1e-13, "model_solver_set_option: dtmin (1e-12) is larger than dtmax (1e-13)"},
        {"bound", -3, "model_solver_set_option: bound must be positive"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_RC(model_solver_set_option(s, bad[i].name, bad[i].value), MODEL_ERR_ARG);
        CHECK_STR(model_solver_error(s), bad[i].why);
        CHECK_RC(model_solver_get_option(s, bad[i].name, &v), MODEL_OK);
        CHECK(v == (strcmp(bad[i].name, "dt") == 0 ? 0.01 : v));   /* unchanged */
    }
    CHECK_RC(model_solver_get_option(s, "dt", &v), MODEL_OK);
    CHECK_SAME(v, 0.01);
    CHECK_RC(model_solver_set_option(s, "k", 1), MODEL_ERR_NAME);
    CHECK_STR(model_solver_error(s), "model_solver_set_option: unknown option 'k' (the run-time options are dt, t0, "
                                     "total, toler, atoler, dtmin, dtmax, maxsteps, bound)");
    CHECK_RC(model_solver_get_option(s, "dt", NULL), MODEL_ERR_ARG);
    /* dtmax first to raise both (CVODE's order) */
    CHECK_RC(model_solver_set_option(s, "dtmax", 1e8), MODEL_OK);
    CHECK_RC(model_solver_set_option(s, "dtmin", 1e7), MODEL_OK);

    /* t0 and total make every resident system's window, and that of systems
     * loaded without one. */
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, 1, 99.0), MODEL_OK);
    CHECK_RC(model_solver_set_option(s, "t0", 2.0), MODEL_OK);
    CHECK_RC(model_solver_set_option(s, "total", 1.5), MODEL_OK);
    for (int i = 0; i < 3; i++) {
        CHECK_SAME(get(s, MODEL_KIND_T0, 0, i), 2.0);
        CHECK_SAME(get(s, MODEL_KIND_T, 0, i), 2.0);
        CHECK_SAME(get(s, MODEL_KIND_T1, 0, i), 3.5);
    }
    model_pool pool;
    CHECK_RC(model_pool_create(&pool, 3), MODEL_OK);
    CHECK_SAME(pool.t1[0], 6.283185307179586);   /* the file's window */
    free(pool.t0);
    free(pool.t1);
    pool.t0 = pool.t1 = NULL;
    CHECK_RC(model_solver_set(s, MODEL_KIND_T1, 0, MODEL_ALL_SYSTEMS, 50.0), MODEL_OK);
    CHECK_RC(model_solver_load(s, &pool, 0, 0, 3), MODEL_OK);
    CHECK_SAME(get(s, MODEL_KIND_T1, 0, 2), 3.5);   /* the options' window */
    model_pool_destroy(&pool);
    model_solver_free(s);

    /* Two solvers with different dt and total, run one after the other and
     * interleaved: each as the solver by hand with its options, exactly. */
    model_solver *a = cpu_solver(2), *b = cpu_solver(2);
    for (int i = 0; i < 2; i++) {
        model_solver_set(a, MODEL_KIND_PARAM, MODEL_PARAM_K, i, 0.21 + 0.05 * i);
        model_solver_set(b, MODEL_KIND_PARAM, MODEL_PARAM_K, i, 0.21 + 0.05 * i);
    }
    CHECK_RC(model_solver_set_option(a, "dt", 0.005), MODEL_OK);
    CHECK_RC(model_solver_set_option(b, "total", 3.0), MODEL_OK);
    CHECK_RC(model_solver_run(b), MODEL_OK);
    CHECK_RC(model_solver_run(a), MODEL_OK);
    for (int i = 0; i < 2; i++) {
        const OdeSystem ha = by_hand(0.21 + 0.05 * i, 0.005, 6.283185307179586);
        const OdeSystem hb = by_hand(0.21 + 0.05 * i, 0.01, 3.0);
        CHECK_SAME(get(a, MODEL_KIND_STATE, MODEL_STATE_Y1, i), ha.y[0]);
        CHECK_SAME(get(a, MODEL_KIND_STEPS, 0, i), (double)ha.steps);
        CHECK_SAME(get(b, MODEL_KIND_STATE, MODEL_STATE_Y2, i), hb.y[1]);
        CHECK_SAME(get(b, MODEL_KIND_T, 0, i), 3.0);
        /* 2π/0.005 and 3/0.01 steps (an event's location splits a step now and then) */
        CHECK(ha.steps >= 1257 && ha.steps < 1270 && hb.steps >= 300 && hb.steps < 310);
    }
    const unsigned long long first_steps = by_hand(0.21, 0.005, 6.283185307179586).steps;
    /* maxsteps and bound end integrations with their statuses */
    CHECK_RC(model_solver_set_option(a, "maxsteps", 10), MODEL_OK);
    CHECK_RC(model_solver_set(a, MODEL_KIND_STATUS, 0, MODEL_ALL_SYSTEMS, MODEL_STATUS_FINISHED), MODEL_OK);
    CHECK_RC(model_solver_run(a), MODEL_OK);
    int status = -1;
    unsigned long long steps = 0;
    CHECK_RC(model_solver_get_counts(a, 0, &status, &steps, NULL), MODEL_OK);
    CHECK(status == MODEL_STATUS_MAXSTEPS && steps == first_steps + 10);
    CHECK_RC(model_solver_set_option(b, "bound", 1e-3), MODEL_OK);
    CHECK_RC(model_solver_run(b), MODEL_OK);
    CHECK_RC(model_solver_get_counts(b, 1, &status, NULL, NULL), MODEL_OK);
    CHECK(status == MODEL_STATUS_BOUND);
    model_solver_free(a);
    model_solver_free(b);
}

static void test_estimate(void)
{
    size_t dev = 1, host = 0, host2 = 0;
    CHECK_RC(model_solver_estimate(1000, 0, 32, 2, &dev, &host), MODEL_OK);
    CHECK(dev == 0 && host > 1000 * 32 * 2 * sizeof(double));
    CHECK_RC(model_solver_estimate(2000, 0, 32, 2, NULL, &host2), MODEL_OK);
    CHECK(host2 > host && host2 < 2 * host + 1);
    CHECK_RC(model_solver_estimate(1000, 2, 32, 2, &dev, &host), MODEL_OK);
    CHECK(dev > 0 && dev < host);
    CHECK_RC(model_solver_estimate(2147483647L, 1, 2147483647, 8, &dev, &host), MODEL_OK);
    if (sizeof(size_t) == 8) CHECK(dev == SIZE_MAX && host == SIZE_MAX);
    CHECK_RC(model_solver_estimate(0, 0, 1, 1, &dev, &host), MODEL_ERR_ARG);
    CHECK_RC(model_solver_estimate(10, 0, 1, 9, &dev, &host), MODEL_ERR_ARG);
    CHECK_RC(model_solver_estimate(10, -1, 1, 1, &dev, &host), MODEL_ERR_ARG);
}

/* Digits of a number's text without leading and trailing zeros (its
 * significant digits). */
static int significant_digits(const char *text)
{
    char d[64];
    int n = 0;
    for (const char *c = text; *c && *c != 'e' && n < 63; c++)
        if (*c >= '0' && *c <= '9') d[n++] = *c;
    int lead = 0;
    while (lead < n && d[lead] == '0') lead++;
    while (n > lead && d[n - 1] == '0') n--;
    return n - lead;
}

/* The runner's CSV against the library: same numbers, bit for bit once read
 * back with strtod, in order; each the shortest text that reads back (no
 * printf precision below 17 gives a shorter one that does). */
static void test_runner_csv(void)
{
    char path[] = "/tmp/odegen_test_csv_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    char *argv[] = {(char *)"example", (char *)"--quiet", (char *)"--backend", (char *)"cpu", (char *)"--scan",
                    (char *)"k=lin(0.2,0.3,3)", (char *)"--scan", (char *)"y1=list(-0.5,0.5)", (char *)"--set",
                    (char *)"B=0.25", (char *)"--transient", (char *)"2", (char *)"--recorded", (char *)"2",
                    (char *)"--fields", (char *)"y2,ymax,B", (char *)"--chunk", (char *)"4", (char *)"-o", path, NULL};
    CHECK_RC(model_main(20, argv), 0);

    model_solver *s = cpu_solver(6);
    const double ks[3] = {0.2, 0.25, 0.3}, ys[2] = {-0.5, 0.5};
    for (int i = 0; i < 6; i++) {
        model_solver_set(s, MODEL_KIND_PARAM, MODEL_PARAM_K, i, ks[i / 2]);
        model_solver_set(s, MODEL_KIND_PARAM, MODEL_PARAM_B, i, 0.25);
        model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y1, i, ys[i % 2]);
    }
    const int fields[3] = {MODEL_FIELD_Y2, MODEL_FIELD_YMAX, MODEL_FIELD_B};
    model_solver_set_fields(s, fields, 3);
    CHECK_RC(model_solver_scan(s, 2, 2, NULL, NULL), MODEL_OK);

    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    char line[512];
    CHECK(f && fgets(line, sizeof line, f) && strcmp(line, "system,rep,y2,ymax,B,status\n") == 0);
    int rows = 0;
    while (f && fgets(line, sizeof line, f)) {
        const int i = rows / 2, rep = rows % 2;
        double v[3];
        for (int slot = 0; slot < 3; slot++) model_solver_recorded(s, rep, slot, i, &v[slot]);
        int st = -1;
        model_solver_recorded_status(s, rep, i, &st);
        char *p = line, *end;
        CHECK(strtol(p, &end, 10) == i && *end == ',');
        p = end + 1;
        CHECK(strtol(p, &end, 10) == rep && *end == ',');
        for (int slot = 0; slot < 3; slot++) {
            p = end + 1;
            const char *text = p;
            const double back = strtod(p, &end);
            CHECK(*end == ',' && memcmp(&back, &v[slot], sizeof back) == 0);
            char mine[40];
            snprintf(mine, sizeof mine, "%.*s", (int)(end - text), text);
            for (int digits = 1; digits <= 17; digits++) {   /* no printf precision reads back with fewer digits */
                char shorter[40];
                snprintf(shorter, sizeof shorter, "%.*e", digits - 1, v[slot]);
                if (strtod(shorter, NULL) == v[slot]) {
                    CHECK(significant_digits(mine) <= significant_digits(shorter));
                    break;
                }
            }
        }
        char tail[64];
        snprintf(tail, sizeof tail, ",%s\n", model_status_name(st));
        CHECK_STR(end, tail);
        rows++;
    }
    CHECK(rows == 12);
    if (f) fclose(f);
    unlink(path);
    model_solver_free(s);
}

int main(void)
{
    test_metadata();
    test_create_errors();
    test_values();
    test_windows();
    test_pools();
    test_run_vs_scan();
    test_columns_stop_scan_lines();
    test_statuses();
    test_against_solver();
    test_options();
    test_estimate();
    test_runner_csv();
    return check_report("test_api");
}
