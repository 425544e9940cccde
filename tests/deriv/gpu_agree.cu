/* gpu_agree.cu — a generated model's derivatives on the GPU against the same
 * functions on the CPU (the code is one source for both: ODE_HD).
 *
 * Included after a generated model section (-DGEN_CU='"…"'), built with nvcc
 * by tests/deriv/gpu_agree.py:
 *
 *   gpu_agree NPOINTS
 *
 * At NPOINTS random points (as fd_check.c draws them) every derivative —
 * f and J (ode_model_rhs_jac), df/dt, df/dp, every event gradient, the
 * Jacobians of every event's statements and of on start / on end — is
 * computed in a kernel and on the host.  CUDA's and glibc's libm differ in
 * the last bits, so an entry agrees when the two differ by at most 1e-10 of
 * the largest magnitude in its block at that point (a last-bit difference of
 * pow grows where the terms of a sum cancel: Keller–Miksis's y2' at random
 * points differed by 1.27e-11 on an H100; a wrong derivative differs by O(1)).  Prints the worst
 * difference and "RESULT ok" or "RESULT FAIL".
 */
#include GEN_CU
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if ODE_FLOAT
#error "gpu_agree compares double-precision models"
#endif

enum { N = ODE_NSTATE, NP = ODE_ALLOC(ODE_NPARAM), NE = ODE_ALLOC(ODE_NEVENT) };

/* The blocks of one point's output, in order. */
enum {
    B_DY = 0, B_J = B_DY + N, B_FT = B_J + N * N, B_FP = B_FT + N, B_GY = B_FP + N * NP, B_GT = B_GY + NE * N,
    B_R = B_GT + NE, B_RT = B_R + NE * N * N, B_RS = B_RT + NE * N, B_RE = B_RS + N * N, NOUT = B_RE + N * N
};

ODE_HD static void all_derivatives(const OdeSystem *s, double *out)
{
    for (int i = 0; i < NOUT; i++) out[i] = 0;
    OdeTrig tr;
    ode_model_trig_full(s, s->t, &tr);
#if ODE_HAS_JACOBIAN
    ode_model_rhs_jac(s, s->t, s->y, out + B_DY, out + B_J, &tr);
    ode_model_dfdt(s, s->t, s->y, out + B_FT, &tr);
    ode_model_dfdp(s, s->t, s->y, out + B_FP, &tr);
#endif
#if ODE_HAS_EVENT_GRAD
    for (int e = 0; e < ODE_NEVENT; e++) ode_model_event_grad(s, e, s->t, s->y, out + B_GY + e * N, out + B_GT + e);
#endif
#if ODE_HAS_RESET_JAC
    for (int e = 0; e < ODE_NEVENT; e++) ode_model_on_event_jac(s, e, out + B_R + e * N * N, out + B_RT + e * N);
    ode_model_on_start_jac(s, out + B_RS);
    ode_model_on_end_jac(s, out + B_RE);
#endif
}

__global__ void derivatives_kernel(const OdeSystem *in, double *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) all_derivatives(&in[i], out + (size_t)i * NOUT);
}

#include "random_point.h"

#define CUDA_OK(call)                                                                             \
    do {                                                                                          \
        cudaError_t err_ = (call);                                                                \
        if (err_ != cudaSuccess) {                                                                \
            printf("%s:%d: %s\nRESULT FAIL\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
            return 1;                                                                             \
        }                                                                                         \
    } while (0)

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    OdeSystem *sys = (OdeSystem *)malloc(sizeof(OdeSystem) * (size_t)n);
    double *cpu = (double *)malloc(sizeof(double) * (size_t)n * NOUT);
    double *gpu = (double *)malloc(sizeof(double) * (size_t)n * NOUT);
    for (int i = 0; i < n; i++) {
        random_point(&sys[i]);
        all_derivatives(&sys[i], cpu + (size_t)i * NOUT);
    }
    OdeSystem *dsys;
    double *dout;
    CUDA_OK(cudaMalloc(&dsys, sizeof(OdeSystem) * (size_t)n));
    CUDA_OK(cudaMalloc(&dout, sizeof(double) * (size_t)n * NOUT));
    CUDA_OK(cudaMemcpy(dsys, sys, sizeof(OdeSystem) * (size_t)n, cudaMemcpyHostToDevice));
    derivatives_kernel<<<(n + 127) / 128, 128>>>(dsys, dout, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(gpu, dout, sizeof(double) * (size_t)n * NOUT, cudaMemcpyDeviceToHost));

    static const int start[] = {B_DY, B_J, B_FT, B_FP, B_GY, B_GT, B_R, B_RT, B_RS, B_RE, NOUT};
    static const char *const names[] = {"f", "J", "dfdt", "dfdp", "event_grad", "event_dt", "on_event_jac",
                                        "on_event_dt", "on_start_jac", "on_end_jac"};
    double worst = 0;
    char where[200] = "";
    int compared = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        const double *a = cpu + (size_t)i * NOUT, *b = gpu + (size_t)i * NOUT;
        int finite = 1;
        for (int k = 0; k < N; k++) finite &= isfinite(a[B_DY + k]);
        if (!finite) {   /* outside the model's domain */
            skipped++;
            continue;
        }
        for (int blk = 0; blk < 10; blk++) {
            double scale = 0;
            for (int k = start[blk]; k < start[blk + 1]; k++) scale = fmax(scale, fabs(a[k]));
            for (int k = start[blk]; k < start[blk + 1]; k++) {
                double d = fabs(a[k] - b[k]) / fmax(scale, 1e-300);
                if (isnan(a[k]) != isnan(b[k]) || isinf(a[k]) != isinf(b[k])) d = INFINITY;
                else if (isnan(a[k]) || isinf(a[k])) d = 0;
                if (d > worst) {
                    worst = d;
                    snprintf(where, sizeof where, "point %d, %s[%d]: CPU %.17g, GPU %.17g", i, names[blk],
                             k - start[blk], a[k], b[k]);
                }
                compared++;
            }
        }
    }
    printf("%d points (%d outside the domain), %d values compared, worst relative difference %.3g%s%s\n", n, skipped,
           compared, worst, worst > 1e-10 ? " at " : "", worst > 1e-10 ? where : "");
    int ok = worst <= 1e-10 && compared > 0;
    printf("RESULT %s\n", ok ? "ok" : "FAIL");
    cudaFree(dsys);
    cudaFree(dout);
    free(sys);
    free(cpu);
    free(gpu);
    return ok ? 0 : 1;
}
