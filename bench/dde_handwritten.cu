/* dde_handwritten.cu — the delay benchmark's baseline (bench/dde.sh), written
 * as a careful person writes it by hand: Mackey–Glass
 *     x' = beta x(t - tau) / (1 + x(t - tau)^10) - gamma x,   tau = 17,
 * one system per thread, RK4 with dt = 0.05 (tau is 340 steps), the past as
 * a ring of (x, x') at the grid points in device memory (coalesced: entry k
 * of system i at ring[(2k + w) n + i]), the value at a step's midpoint by
 * cubic Hermite interpolation; history 0.5 before t = 0 (slope 0).
 * beta runs over [0.19, 0.21] across the systems, gamma = 0.1.
 *
 *   dde_handwritten N STEPS      prints one JSON object (kernel seconds,
 *                                x at the end of systems 0, N/2, N-1)
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "cuda_check.h"

__device__ __forceinline__ double mg(double beta, double x, double xd)
{
    const double x2 = xd * xd, x4 = x2 * x2, x8 = x4 * x4;
    return beta * xd / (1.0 + x8 * x2) - 0.1 * x;
}

__global__ void __launch_bounds__(128) mg_kernel(int n, int steps, int lag, double *ring, double *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const double beta = 0.19 + 0.02 * i / (n > 1 ? n - 1 : 1), h = 0.05, hist = 0.5;
    const int slots = lag + 1;
    double x = hist;
    /* grid point 0: x(0) and x'(0) (its delayed value is the history) */
    ring[(size_t)0 * n + i] = x;
    ring[(size_t)1 * n + i] = mg(beta, x, hist);
    for (int s = 0; s < steps; s++) {
        /* x and x' at grid points s - lag and s - lag + 1 (history before 0) */
        double ya = hist, fa = 0.0, yb = hist, fb = 0.0;
        const int a = s - lag, b = a + 1;
        if (a >= 0) {
            const int k = a % slots;
            ya = ring[(size_t)(2 * k) * n + i];
            fa = ring[(size_t)(2 * k + 1) * n + i];
        }
        if (b >= 0) {
            const int k = b % slots;
            yb = ring[(size_t)(2 * k) * n + i];
            fb = ring[(size_t)(2 * k + 1) * n + i];
        }
        const double ym = 0.5 * (ya + yb) + 0.125 * h * (fa - fb);   /* Hermite at the midpoint */
        const double k1 = mg(beta, x, ya);
        const double k2 = mg(beta, x + 0.5 * h * k1, ym);
        const double k3 = mg(beta, x + 0.5 * h * k2, ym);
        const double k4 = mg(beta, x + h * k3, yb);
        x += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
        const int k = (s + 1) % slots;   /* overwrites grid point s - lag, read above */
        ring[(size_t)(2 * k) * n + i] = x;
        ring[(size_t)(2 * k + 1) * n + i] = mg(beta, x, yb);
    }
    out[i] = x;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: dde_handwritten N STEPS\n");
        return 2;
    }
    const int n = atoi(argv[1]), steps = atoi(argv[2]), lag = 340;
    double *ring, *out;
    CHECK(cudaMalloc(&ring, (size_t)2 * (lag + 1) * n * sizeof(double)));
    CHECK(cudaMalloc(&out, (size_t)n * sizeof(double)));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    mg_kernel<<<(n + 127) / 128, 128>>>(n < 128 ? n : 128, 10, lag, ring, out);   /* warm-up */
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(e0));
    mg_kernel<<<(n + 127) / 128, 128>>>(n, steps, lag, ring, out);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    double *host = (double *)malloc((size_t)n * sizeof(double));
    CHECK(cudaMemcpy(host, out, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("{\"case\": \"dde_handwritten\", \"device\": \"%s\", \"N\": %d, \"steps\": %d, \"seconds\": %.6f, "
           "\"ring_bytes\": %.0f, \"x_first\": %.17g, \"x_mid\": %.17g, \"x_last\": %.17g}\n",
           prop.name, n, steps, ms / 1000.0, 2.0 * (lag + 1) * n * sizeof(double), host[0], host[n / 2], host[n - 1]);
    free(host);
    return 0;
}
