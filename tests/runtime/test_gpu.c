/* test_gpu.c — the GPU backend of the library against its CPU backend, on
 * the example model (built by run.sh with nvcc; runs where a GPU is).
 *
 *   test_gpu --has-gpu    exit status 0 when a CUDA device is usable
 *   test_gpu              the tests; exits non-zero on failure
 *
 * The GPU computes cos() and contracts multiply-adds differently from the
 * host, so GPU and CPU agree to a tolerance; the GPU agrees with itself
 * (scan against single runs, balanced against plain, any block size, one
 * device against several) exactly. */
#include "api.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

static model_solver *make(int n, int backend, const int *devices, int ndevices)
{
    model_solver *s = NULL;
    if (model_solver_create(&s, n, backend, devices, ndevices) != MODEL_OK) {
        fprintf(stderr, "cannot create a solver: %s\n", model_solver_error(s));
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        model_solver_set(s, MODEL_KIND_PARAM, MODEL_PARAM_K, i, 0.2 + 0.1 * i / n);
        model_solver_set(s, MODEL_KIND_STATE, MODEL_STATE_Y1, i, 0.5 - (double)(i % 7) * 0.1);
    }
    return s;
}

static double get(model_solver *s, int kind, int index, int i)
{
    double v = NAN;
    CHECK_RC(model_solver_get(s, kind, index, i, &v), MODEL_OK);
    return v;
}

/* Every state, accessory, time and status of a and b: within tol, or exactly (tol 0). */
static int compare(model_solver *a, model_solver *b, double tol, const char *what)
{
    const int n = model_solver_size(a);
    int bad = 0;
    for (int i = 0; i < n && bad < 5; i++) {
        static const int kinds[5] = {MODEL_KIND_STATE, MODEL_KIND_STATE, MODEL_KIND_ACC, MODEL_KIND_T, MODEL_KIND_STATUS};
        static const int index[5] = {0, 1, 0, 0, 0};
        for (int k = 0; k < 5; k++) {
            const double x = get(a, kinds[k], index[k], i), y = get(b, kinds[k], index[k], i);
            if (!(fabs(x - y) <= tol * (1 + fabs(y))) && !(tol == 0 && x == y)) {
                fprintf(stderr, "%s: system %d value %d: %.17g vs %.17g\n", what, i, k, x, y);
                bad++;
            }
        }
    }
    if (bad) failures++;
    return bad;
}

static int compare_recorded(model_solver *a, model_solver *b, int record, int nfield, double tol, const char *what)
{
    const int n = model_solver_size(a);
    int bad = 0;
    for (int r = 0; r < record; r++)
        for (int i = 0; i < n && bad < 5; i++) {
            int sa = -1, sb = -2;
            model_solver_recorded_status(a, r, i, &sa);
            model_solver_recorded_status(b, r, i, &sb);
            if (sa != sb) bad++;
            for (int f = 0; f < nfield; f++) {
                double x = NAN, y = NAN;
                model_solver_recorded(a, r, f, i, &x);
                model_solver_recorded(b, r, f, i, &y);
                if (!(fabs(x - y) <= tol * (1 + fabs(y)))) {
                    fprintf(stderr, "%s: rep %d field %d system %d: %.17g vs %.17g\n", what, r, f, i, x, y);
                    bad++;
                }
            }
        }
    if (bad) failures++;
    return bad;
}

typedef struct Progress {
    long last, calls;
    int monotonic;
} Progress;

static int on_progress(void *user, long done, long total)
{
    Progress *p = (Progress *)user;
    (void)total;
    if (done < p->last) p->monotonic = 0;
    p->last = done;
    p->calls++;
    return 0;
}

/* Asks to stop at its first call. */
static int stop_now(void *user, long done, long total)
{
    (void)done;
    (void)total;
    ++*(int *)user;
    return 1;
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const int gpus = model_gpu_count();
    if (argc > 1 && strcmp(argv[1], "--has-gpu") == 0) return gpus > 0 ? 0 : 1;
    if (gpus == 0) {
        printf("test_gpu: no GPU (%s): skipped\n", model_gpu_error());
        return 0;
    }
    char name[256];
    size_t free_b = 0, total_b = 0;
    CHECK_RC(model_gpu_info(0, name, sizeof name, &free_b, &total_b), MODEL_OK);
    printf("test_gpu: %d device(s); device 0: %s, %.1f of %.1f GiB free\n", gpus, name, free_b / 1073741824.0,
           total_b / 1073741824.0);
    CHECK_RC(model_gpu_info(gpus, NULL, 0, NULL, NULL), MODEL_ERR_DEVICE);

    int all[64];
    const int ndev = gpus < 64 ? gpus : 64;
    for (int d = 0; d < ndev; d++) all[d] = d;
    const int n = 1001, T = 3, R = 4;
    const int fields[4] = {MODEL_FIELD_Y1, MODEL_FIELD_YMAX, MODEL_FIELD_T, MODEL_FIELD_Y2};

    /* Bad devices. */
    model_solver *bad = NULL;
    const int twice[2] = {0, 0}, missing[1] = {gpus};
    CHECK_RC(model_solver_create(&bad, 10, MODEL_BACKEND_GPU, twice, 2), MODEL_ERR_DEVICE);
    printf("  %s\n", model_solver_error(bad));
    model_solver_free(bad);
    CHECK_RC(model_solver_create(&bad, 10, MODEL_BACKEND_GPU, missing, 1), MODEL_ERR_DEVICE);
    printf("  %s\n", model_solver_error(bad));
    model_solver_free(bad);

    /* CPU reference. */
    model_solver *cpu = make(n, MODEL_BACKEND_CPU, NULL, 0);
    model_solver_set_fields(cpu, fields, 4);
    CHECK_RC(model_solver_scan(cpu, T, R, NULL, NULL), MODEL_OK);

    for (int split = 0; split < 2; split++) {
        const int nd = split ? ndev : 1;
        if (split && ndev == 1) break;
        printf("  %d device(s)\n", nd);
        model_solver *g = make(n, MODEL_BACKEND_GPU, all, nd);
        CHECK(model_solver_backend(g) == MODEL_BACKEND_GPU);
        printf("  %s\n", model_solver_describe(g));
        model_solver_set_fields(g, fields, 4);
        Progress p = {0, 0, 1};
        model_solver_set_progress(g, on_progress, &p);
        CHECK_RC(model_solver_scan(g, T, R, NULL, NULL), MODEL_OK);
        CHECK(p.last == n && p.monotonic && p.calls >= 1);
        compare(g, cpu, 1e-6, "GPU scan vs CPU scan");
        compare_recorded(g, cpu, R, 4, 1e-6, "GPU recorded vs CPU recorded");

        /* A progress callback that asks to stop: the launch ends, its
         * results are dropped (the host keeps the loaded systems), the
         * solver stays usable. */
        model_solver *st = make(n, MODEL_BACKEND_GPU, all, nd);
        int stops = 0;
        model_solver_set_progress(st, stop_now, &stops);
        CHECK_RC(model_solver_scan(st, 2000, R, NULL, NULL), MODEL_ERR_STOPPED);   /* long enough to be polled */
        CHECK(stops == 1 && model_solver_recorded_count(st) == 0);
        model_stats ss;
        model_solver_stats(st, &ss);
        CHECK(ss.count[MODEL_STATUS_READY] == n);
        model_solver_set_progress(st, NULL, NULL);
        CHECK_RC(model_solver_scan(st, T, R, NULL, NULL), MODEL_OK);
        model_solver_free(st);

        /* Scan = T + R single runs, exactly, on the GPU. */
        model_solver *one = make(n, MODEL_BACKEND_GPU, all, nd);
        for (int r = 0; r < T + R; r++) CHECK_RC(model_solver_run(one), MODEL_OK);
        compare(one, g, 0, "GPU runs vs GPU scan");
        model_stats sa, sb;
        model_solver_stats(one, &sa);
        model_solver_stats(g, &sb);
        CHECK(sa.steps == sb.steps && sa.evals == sb.evals && sa.count[MODEL_STATUS_FINISHED] == n);

        /* Balanced (warp and thread queues), and other block sizes: the same numbers. */
        for (int variant = 0; variant < 4; variant++) {
            static const int modes[4] = {MODEL_BALANCE_WARP, MODEL_BALANCE_OFF, MODEL_BALANCE_WARP,
                                         MODEL_BALANCE_THREAD};
            model_solver *v = make(n, MODEL_BACKEND_GPU, all, nd);
            model_solver_set_fields(v, fields, 4);
            CHECK_RC(model_solver_set_balance(v, modes[variant]), MODEL_OK);
            CHECK_RC(model_solver_set_block(v, variant == 2 ? 64 : 32), MODEL_OK);
            CHECK_RC(model_solver_scan(v, T, R, NULL, NULL), MODEL_OK);
            compare(v, g, 0, "balanced/block variant vs plain");
            compare_recorded(v, g, R, 4, 0, "balanced/block variant recorded");
            model_solver_free(v);
        }

        /* Host changes after a run reach the device at the next run. */
        CHECK_RC(model_solver_set(one, MODEL_KIND_STATE, MODEL_STATE_Y1, 5, 0.25), MODEL_OK);
        CHECK_RC(model_solver_set(one, MODEL_KIND_PARAM, MODEL_PARAM_K, MODEL_ALL_SYSTEMS, 0.3), MODEL_OK);
        CHECK_RC(model_solver_run(one), MODEL_OK);
        model_solver *ref = make(n, MODEL_BACKEND_CPU, NULL, 0);
        for (int r = 0; r < T + R; r++) model_solver_run(ref);
        model_solver_set(ref, MODEL_KIND_STATE, MODEL_STATE_Y1, 5, 0.25);
        model_solver_set(ref, MODEL_KIND_PARAM, MODEL_PARAM_K, MODEL_ALL_SYSTEMS, 0.3);
        model_solver_run(ref);
        compare(one, ref, 1e-6, "GPU after host changes vs CPU");

        /* Pools: load a slice, run, store back. */
        model_pool pool;
        CHECK_RC(model_pool_create(&pool, 3000), MODEL_OK);
        for (long j = 0; j < pool.size; j++) pool.params[MODEL_PARAM_K * pool.size + j] = 0.2 + 1e-5 * j;
        CHECK_RC(model_solver_load(one, &pool, 1500, 0, n), MODEL_OK);
        CHECK_RC(model_solver_load(ref, &pool, 1500, 0, n), MODEL_OK);
        CHECK_RC(model_solver_run(one), MODEL_OK);
        CHECK_RC(model_solver_run(ref), MODEL_OK);
        compare(one, ref, 1e-6, "GPU pool slice vs CPU");
        CHECK_RC(model_solver_store(one, &pool, 0, 0, n), MODEL_OK);
        CHECK(pool.states[MODEL_STATE_Y1 * pool.size + 7] == get(one, MODEL_KIND_STATE, MODEL_STATE_Y1, 7));
        model_pool_destroy(&pool);
        model_solver_free(ref);
        model_solver_free(one);
        model_solver_free(g);
    }
    model_solver_free(cpu);

    /* Run-time options travel with each launch: two GPU solvers with
     * different options, run one after the other and each twice, against CPU
     * solvers with the same options. */
    {
        model_solver *ga = make(n, MODEL_BACKEND_GPU, all, ndev), *gb = make(n, MODEL_BACKEND_GPU, all, ndev);
        model_solver *ca = make(n, MODEL_BACKEND_CPU, NULL, 0), *cb = make(n, MODEL_BACKEND_CPU, NULL, 0);
        model_solver *with_a[2] = {ga, ca}, *with_b[2] = {gb, cb};
        for (int k = 0; k < 2; k++) {
            CHECK_RC(model_solver_set_option(with_a[k], "dt", 0.005), MODEL_OK);
            CHECK_RC(model_solver_set_option(with_a[k], "total", 4.0), MODEL_OK);
            CHECK_RC(model_solver_set_option(with_b[k], "maxsteps", 300), MODEL_OK);
            CHECK_RC(model_solver_set_option(with_b[k], "bound", 1.3), MODEL_OK);
        }
        for (int r = 0; r < 2; r++) {
            CHECK_RC(model_solver_run(ga), MODEL_OK);
            CHECK_RC(model_solver_run(gb), MODEL_OK);
            CHECK_RC(model_solver_run(ca), MODEL_OK);
            CHECK_RC(model_solver_run(cb), MODEL_OK);
        }
        compare(ga, ca, 1e-6, "GPU vs CPU with dt=0.005, total=4");
        compare(gb, cb, 1e-6, "GPU vs CPU with maxsteps=300, bound=1.3");
        model_stats sa, sb;
        model_solver_stats(ga, &sa);
        model_solver_stats(gb, &sb);
        CHECK(sa.count[MODEL_STATUS_FINISHED] == n && get(ga, MODEL_KIND_T, 0, 0) == 4.0);
        /* A system that ran out of maxsteps stays stopped for the rest of the scan (the second
         * run does not continue it): 595 maxsteps and 406 bound on the CPU, after either run. */
        CHECK(sb.count[MODEL_STATUS_MAXSTEPS] + sb.count[MODEL_STATUS_BOUND] == n && sb.count[MODEL_STATUS_MAXSTEPS] > 500 &&
              sb.count[MODEL_STATUS_BOUND] > 300);
        model_solver_free(ga);
        model_solver_free(gb);
        model_solver_free(ca);
        model_solver_free(cb);
    }

    /* Throughput on the model's own default scan size (one chunk). */
    if (!getenv("ODE_GPU_QUICK")) {
        const int big = 30720;
        model_solver *g = make(big, MODEL_BACKEND_GPU, all, ndev);
        Progress p = {0, 0, 1};
        model_solver_set_progress(g, on_progress, &p);
        const double t0 = now();
        CHECK_RC(model_solver_scan(g, 1024, 32, NULL, NULL), MODEL_OK);
        const double dt = now() - t0;
        model_stats st;
        model_solver_stats(g, &st);
        printf("  default scan (%d systems x 1056 integrations) on %s: %.3f s, %.3g steps/s, %ld progress calls\n",
               big, model_solver_describe(g), dt, (double)st.steps / dt, p.calls);
        CHECK(p.last == big && p.monotonic && st.count[MODEL_STATUS_FINISHED] == big);
        model_solver_free(g);
    }

    /* The runner on the GPU: the same CSV shape as on the CPU. */
    {
        char *args[] = {(char *)"example", (char *)"--quiet", (char *)"--backend", (char *)"gpu",
                        (char *)"--scan", (char *)"k=lin(0.2,0.3,100)", (char *)"--transient", (char *)"5",
                        (char *)"--recorded", (char *)"3", (char *)"-o", (char *)"/tmp/odegen_gpu.csv", NULL};
        CHECK_RC(model_main(12, args), 0);
        FILE *f = fopen("/tmp/odegen_gpu.csv", "r");
        int lines = 0;
        char line[512];
        while (f && fgets(line, sizeof line, f)) lines++;
        if (f) fclose(f);
        CHECK(lines == 301);
        remove("/tmp/odegen_gpu.csv");
    }

    return check_report("test_gpu");
}
