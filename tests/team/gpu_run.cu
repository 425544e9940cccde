/* gpu_run.cu — one scan (scan.h) on the GPU through ode_gpu_launch, for a
 * model written out (MODEL, driver.h: a system per thread) or in loop form
 * (team_driver.h: the layout ODE_LAYOUT, ODE_TEAM_SIZE), or on the CPU path
 * (--cpu); writes every result (scan_results) to FILE as doubles and the
 * kernel's time to stdout.  Built by tests/gpu/team.sh and bench/team.sh.
 *
 *   gpu_run FILE N VARY LO HI TOTAL TRANSIENT RECORD [--balanced] [--cpu] [--repeat R]
 */
#define ODEGEN_GENERATED 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include MODEL
#include "tableaux.h"
#include "stepper.h"
#include "dense.h"
#include "event_rules.h"
#include "events.h"
#include "firing.h"
#include "save.h"
#include "integrate.h"
#if ODE_LOOP_FORM
#include "team_stepper.h"
#include "team_dense.h"
#include "team_events.h"
#include "team_save.h"
#include "team_integrate.h"
#include "team_driver.h"
#else
#include "driver.h"
#endif
#include "cpu_loop.h"
#include "scan.h"

#define CK(x)                                                                                       \
    do {                                                                                            \
        cudaError_t e_ = (x);                                                                       \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "gpu_run: %s: %s\n", #x, cudaGetErrorString(e_));                      \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

template <typename T> static T *to_device(const T *h, size_t count)
{
    T *d = NULL;
    CK(cudaMalloc((void **)&d, sizeof(T) * (count ? count : 1)));
    CK(cudaMemcpy(d, h, sizeof(T) * count, cudaMemcpyHostToDevice));
    return d;
}
template <typename T> static void to_host(T *h, const T *d, size_t count)
{
    CK(cudaMemcpy(h, d, sizeof(T) * count, cudaMemcpyDeviceToHost));
}

int main(int argc, char **argv)
{
    if (argc < 9) {
        fprintf(stderr, "usage: gpu_run FILE N VARY LO HI TOTAL TRANSIENT RECORD [--balanced] [--cpu] [--repeat R]\n");
        return 2;
    }
    const int n = atoi(argv[2]), vary = atoi(argv[3]), transient = atoi(argv[7]), record = atoi(argv[8]);
    int balanced = 0, cpu = 0, repeat = 1;
    for (int k = 9; k < argc; k++) {
        if (!strcmp(argv[k], "--balanced")) balanced = 1;
        else if (!strcmp(argv[k], "--cpu")) cpu = 1;
        else if (!strcmp(argv[k], "--repeat") && k + 1 < argc) repeat = atoi(argv[++k]);
    }
    Scan sc;
    double best = 1e300;
    for (int rep = 0; rep < repeat; rep++) {
        scan_make(&sc, n, vary, atof(argv[4]), atof(argv[5]), atof(argv[6]), transient, record);
        OdeArrays *h = &sc.a;
        if (cpu) {
            cudaEvent_t b, e;
            const double t0 = (double)clock() / CLOCKS_PER_SEC;
            (void)b;
            (void)e;
            ode_cpu_run(h, transient, record, NULL, NULL);
            const double s = (double)clock() / CLOCKS_PER_SEC - t0;
            if (s < best) best = s;
            continue;
        }
        OdeArrays d = *h;
        const size_t S = ODE_NSTATE, P = ODE_NPARAM, A = ODE_ALLOC(ODE_NACC), F = (size_t)record * ODE_NFIELD;
        d.t = to_device(h->t, n);
        d.t0 = to_device(h->t0, n);
        d.t1 = to_device(h->t1, n);
        d.y = to_device(h->y, S * n);
        d.p = to_device(h->p, P * n);
        d.acc = to_device(h->acc, A * n);
        d.status = to_device(h->status, n);
        d.steps = to_device(h->steps, n);
        d.evals = to_device(h->evals, n);
        d.rec = to_device(h->rec, F * n);
        d.rec_status = to_device(h->rec_status, (size_t)record * n);
        unsigned int zero = 0;
        d.queue = to_device(&zero, 1);
        d.progress = NULL;
        CK(ode_gpu_work_alloc(&d));
        cudaEvent_t b, e;
        CK(cudaEventCreate(&b));
        CK(cudaEventCreate(&e));
        CK(cudaEventRecord(b));
        CK(ode_gpu_launch(&d, transient, record, ODE_BLOCK_SIZE, balanced, 0));
        CK(cudaEventRecord(e));
        CK(cudaEventSynchronize(e));
        CK(cudaGetLastError());
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, b, e));
        if (ms / 1e3 < best) best = ms / 1e3;
        to_host(h->t, d.t, n);
        to_host(h->y, d.y, S * n);
        to_host(h->acc, d.acc, A * n);
        to_host(h->status, d.status, n);
        to_host(h->steps, d.steps, n);
        to_host(h->evals, d.evals, n);
        to_host(h->rec, d.rec, F * n);
        to_host(h->rec_status, d.rec_status, (size_t)record * n);
        ode_gpu_work_free(&d);
        cudaFree(d.t); cudaFree(d.t0); cudaFree(d.t1); cudaFree(d.y); cudaFree(d.p); cudaFree(d.acc);
        cudaFree(d.status); cudaFree(d.steps); cudaFree(d.evals); cudaFree(d.rec); cudaFree(d.rec_status);
        cudaFree(d.queue);
    }
    const size_t count = scan_count(n, record);
    double *out = (double *)malloc(sizeof(double) * count);
    scan_results(&sc, out);
    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(out, sizeof(double), count, f) != count || fclose(f)) {
        fprintf(stderr, "gpu_run: cannot write %s\n", argv[1]);
        return 1;
    }
    unsigned long long steps = 0;
    for (int i = 0; i < n; i++) steps += sc.a.steps[i];
    printf("seconds %.6g steps %llu\n", best, steps);
    return 0;
}
