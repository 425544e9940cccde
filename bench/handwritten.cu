/* handwritten.cu — the baselines odegen is measured against, written as a
 * careful person writes them by hand: one system per thread, state and
 * parameters in registers, coalesced loads and stores, cos(t + h/2) computed
 * once for RK4's two middle stages.  Also the hardware's FP64/FP32 FMA rates.
 *
 *   handwritten duffing N     Duffing, RK4 dt=1e-2, 1024+32 periods of 2 pi, k in [0.2, 0.3]
 *   handwritten lorenz N      Lorenz, RK4 dt=1e-2, t in [0, 10], rho in [0, 21]
 *   handwritten fma64|fma32   FMA throughput, dependent chains with enough parallelism
 * Prints one JSON object per run.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "cuda_check.h"

__device__ __forceinline__ void duffing_rhs(double t_cos, double k, double B, double y1, double y2,
                                            double &d1, double &d2)
{
    d1 = y2;
    d2 = y1 - y1 * y1 * y1 - k * y2 + B * t_cos;
}

__global__ void __launch_bounds__(128) duffing_kernel(int n, int periods, int record, double *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double k = 0.2 + 0.1 * i / (n - 1), B = 0.3, dt = 0.01, T = 6.283185307179586;
    double y1 = 0, y2 = 0;
    for (int p = 0; p < periods; p++) {
        double t = 0;
        while (t < T) {
            double h = T - t <= dt * (1 + 64 * 2.220446049250313e-16) ? T - t : dt;
            double c0 = cos(t), cm = cos(t + 0.5 * h), c1 = cos(t + h);
            double a1, a2, b1, b2, c1_, c2, d1, d2;
            duffing_rhs(c0, k, B, y1, y2, a1, a2);
            duffing_rhs(cm, k, B, y1 + 0.5 * h * a1, y2 + 0.5 * h * a2, b1, b2);
            duffing_rhs(cm, k, B, y1 + 0.5 * h * b1, y2 + 0.5 * h * b2, c1_, c2);
            duffing_rhs(c1, k, B, y1 + h * c1_, y2 + h * c2, d1, d2);
            y1 += h / 6 * (a1 + 2 * b1 + 2 * c1_ + d1);
            y2 += h / 6 * (a2 + 2 * b2 + 2 * c2 + d2);
            t = (h == T - t) ? T : t + h;
        }
        if (p >= periods - record) {
            const int r = p - (periods - record);
            out[(size_t)(2 * r) * n + i] = y1;
            out[(size_t)(2 * r + 1) * n + i] = y2;
        }
    }
}

__global__ void __launch_bounds__(128) lorenz_kernel(int n, int steps, double *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double sigma = 10, rho = 21.0 * i / (n - 1), beta = 8.0 / 3.0, h = 0.01;
    double x = 10, y = 10, z = 10;
    for (int s = 0; s < steps; s++) {
        double k1x = sigma * (y - x), k1y = x * (rho - z) - y, k1z = x * y - beta * z;
        double xa = x + 0.5 * h * k1x, ya = y + 0.5 * h * k1y, za = z + 0.5 * h * k1z;
        double k2x = sigma * (ya - xa), k2y = xa * (rho - za) - ya, k2z = xa * ya - beta * za;
        xa = x + 0.5 * h * k2x, ya = y + 0.5 * h * k2y, za = z + 0.5 * h * k2z;
        double k3x = sigma * (ya - xa), k3y = xa * (rho - za) - ya, k3z = xa * ya - beta * za;
        xa = x + h * k3x, ya = y + h * k3y, za = z + h * k3z;
        double k4x = sigma * (ya - xa), k4y = xa * (rho - za) - ya, k4z = xa * ya - beta * za;
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
        y += h / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);
        z += h / 6 * (k1z + 2 * k2z + 2 * k3z + k4z);
    }
    out[i] = x;
    out[(size_t)n + i] = y;
    out[(size_t)2 * n + i] = z;
}

/* 8 independent dependent-FMA chains per thread: enough in flight per SM. */
template <typename T>
__global__ void fma_kernel(int iters, T *out)
{
    T a[8];
    const T m = (T)0.999999, c = (T)1e-7;
    for (int j = 0; j < 8; j++) a[j] = (T)(threadIdx.x + j);
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int j = 0; j < 8; j++) a[j] = a[j] * m + c;
    T s = 0;
    for (int j = 0; j < 8; j++) s += a[j];
    if (s == (T)-1) out[0] = s;   /* keeps the work alive */
}

static float time_ms(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: handwritten duffing|lorenz N | fma64 | fma32\n"); return 2; }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    if (!strcmp(argv[1], "fma64") || !strcmp(argv[1], "fma32")) {
        const int iters = 1 << 16, threads = 256, blocks = prop.multiProcessorCount * 16;
        void *out;
        CHECK(cudaMalloc(&out, 8));
        for (int rep = 0; rep < 2; rep++) {   /* the first launch warms up */
            CHECK(cudaEventRecord(e0));
            if (argv[1][3] == '6') fma_kernel<double><<<blocks, threads>>>(iters, (double *)out);
            else fma_kernel<float><<<blocks, threads>>>(iters, (float *)out);
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
        }
        CHECK(cudaGetLastError());
        double flops = 2.0 * 8 * iters * (double)threads * blocks, s = time_ms(e0, e1) / 1e3;
        printf("{\"case\": \"%s\", \"device\": \"%s\", \"seconds\": %.6f, \"flops_per_s\": %.4e}\n", argv[1], prop.name,
               s, flops / s);
        return 0;
    }
    const int n = argc > 2 ? atoi(argv[2]) : 30720;
    const bool duffing = !strcmp(argv[1], "duffing");
    const int record = duffing ? 32 : 1;
    double *out;
    CHECK(cudaMalloc(&out, sizeof(double) * 2 * record * (size_t)n + sizeof(double) * 3 * (size_t)n));
    const int block = 128, grid = (n + block - 1) / block;
    if (duffing) duffing_kernel<<<grid, block>>>(256 < n ? 256 : n, 1, 1, out);   /* warm-up */
    else lorenz_kernel<<<grid, block>>>(256 < n ? 256 : n, 1, out);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(e0));
    if (duffing) duffing_kernel<<<grid, block>>>(n, 1056, record, out);
    else lorenz_kernel<<<grid, block>>>(n, 1000, out);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaGetLastError());
    double s = time_ms(e0, e1) / 1e3;
    double steps = duffing ? (double)n * 1056 * 629 : (double)n * 1000;
    double y[3];
    CHECK(cudaMemcpy(y, out + (duffing ? (size_t)(2 * (record - 1)) * n : 0), sizeof(double), cudaMemcpyDeviceToHost));
    printf("{\"case\": \"handwritten_%s\", \"N\": %d, \"seconds\": %.6f, \"steps\": %.0f, \"evals\": %.0f, "
           "\"first_y1\": %.17g}\n", argv[1], n, s, steps, 4 * steps, y[0]);
    return 0;
}
