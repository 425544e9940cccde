/* cuda_check.h — CHECK(call): a CUDA runtime call that fails ends the hand-written
 * benchmark with the file, line, call and CUDA's message (handwritten.cu,
 * dde_handwritten.cu). */
#ifndef BENCH_CUDA_CHECK_H
#define BENCH_CUDA_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                           \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

#endif
