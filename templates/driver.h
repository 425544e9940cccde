/* driver.h — many systems at once: the CUDA kernels (one system per thread)
 * and the CPU loop (cpu_loop.h: OpenMP over systems), both around the same
 * ode_run_system(), which runs all repetitions of one system.
 *
 * Repetitions loop inside the kernel: a whole scan chunk (transient and
 * recorded integrations) is one launch; recorded values go to a buffer that the
 * host copies back once.
 */
#ifndef ODE_DRIVER_H
#define ODE_DRIVER_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#include "solver.h"
#endif

/* System i of the arrays into registers, and back. */
ODE_HD static ODE_INLINE void ode_load(OdeSystem *s, const OdeArrays *a, int i)
{
    const int n = a->n;
    s->t = a->t[i];
    s->t0 = a->t0[i];
    s->t1 = a->t1[i];
    ODE_FOR_STATES(k) s->y[k] = ODE_AT(a->y, k, i, n);
    ODE_UNROLL for (int k = 0; k < ODE_NPARAM; k++) s->p[k] = ODE_AT(a->p, k, i, n);
    ODE_UNROLL for (int k = 0; k < ODE_NACC; k++) s->acc[k] = ODE_AT(a->acc, k, i, n);
    ODE_FOR_EVENTS(e) s->count[e] = 0;
#if ODE_NDELAY > 0
    s->hist = 0;                           /* (ode_run_system gives it its past) */
#endif
    s->status = a->status[i];
    s->steps = a->steps[i];
    s->evals = a->evals[i];
#if ODE_NLYAP > 0
    ode_tangent_reset(s);                  /* tangent vectors and periods are measured per launch */
#endif
#if ODE_NOISE
    s->rng_seed = a->opt.seed;
    s->rng_system = a->rng_system[i];
    s->rng_rep = a->rng_rep[i];
    s->rng_step = a->rng_step[i];
    ode_noise_reset(s);
#endif
#if ODE_PERIOD
    ode_period_reset(s);
#endif
}

ODE_HD static ODE_INLINE void ode_store(const OdeSystem *s, const OdeArrays *a, int i)
{
    const int n = a->n;
    a->t[i] = s->t;
    a->t0[i] = s->t0;
    a->t1[i] = s->t1;
    ODE_FOR_STATES(k) ODE_AT(a->y, k, i, n) = s->y[k];
    ODE_UNROLL for (int k = 0; k < ODE_NACC; k++) ODE_AT(a->acc, k, i, n) = s->acc[k];
#if ODE_PARAMS_ASSIGNED
    ODE_UNROLL for (int k = 0; k < ODE_NPARAM; k++) ODE_AT(a->p, k, i, n) = s->p[k];
#endif
    a->status[i] = s->status;
    a->steps[i] = s->steps;
    a->evals[i] = s->evals;
#if ODE_NOISE
    a->rng_rep[i] = s->rng_rep;
    a->rng_step[i] = s->rng_step;
#endif
}

/* All repetitions of system i: `transient` integrations discarded, then
 * `record` integrations whose fields are written to a->rec.  The state, the
 * accessories and the window carry over from one integration to the next;
 * so do the tangent vectors (`lyapunov`: their stretching counts in the
 * recorded integrations) and the ring of `period`. */
ODE_HD static ODE_INLINE void ode_run_system(const OdeArrays *a, int i, int transient, int record)
{
    OdeSystem s;
    ode_load(&s, a, i);
    ode_model_derived(&s);                 /* once per system, kept in registers */
#if ODE_NDELAY > 0
    OdeHist hist;                          /* its past (delay.h), before the status says it was just loaded */
    ode_hist_open(&hist, a, i, &s);
    s.hist = &hist;
#endif
    if (s.status == ODE_STATUS_READY)
        ode_model_acc_init(&s);
    const int n = a->n;
#if ODE_SAVE
    const int slot = a->traj ? a->save_slot[i] : -1;
#endif
    for (int r = 0; r < transient + record; r++) {
        OdeSaveSink sink;                  /* where this integration's samples go (slot < 0: nowhere) */
        sink.a = a;
        sink.slot = -1;
        sink.rep = r - transient;
#if ODE_SAVE
        if (slot >= 0 && r >= transient) sink.slot = slot;
#endif
#if ODE_NLYAP > 0
        s.lcount = r >= transient;
#endif
#if ODE_NOISE
        s.rng_rep++;                       /* integration r of a scan: rep r (from 0xFFFFFFFF, none yet) */
        s.rng_step = 0;
#endif
        if (!ODE_STATUS_IS_STICKY(s.status)) {
            ode_integrate_sampled(&s, &a->opt, sink);
        } else {
#if ODE_NLYAP > 0
            s.llost = ~0u;                 /* a failed system measures nothing */
#endif
#if ODE_SAVE
            if (sink.slot >= 0) ode_save_count(sink, 0);   /* no integration, no samples */
#endif
        }
        if (r >= transient && a->rec) {
            const int rr = r - transient;
#if ODE_PERIOD
            ode_period_record(&s, a, i, rr);
#endif
#if ODE_ATTRACTOR
            ode_attractor_record(&s, a, i, rr, record);
#endif
            for (int f = 0; f < a->nfield; f++)
                a->rec[((size_t)rr * a->nfield + f) * n + i] = ode_model_field(&s, a->fields[f]);
#if ODE_NDELAY > 0
            /* a recorded aux read a past the ring no longer holds (it read the current value) */
            if (!ODE_STATUS_IS_STICKY(s.status) && ode_hist_status(&hist)) s.status = ode_hist_status(&hist);
#endif
            a->rec_status[(size_t)rr * n + i] = s.status;
        }
    }
#if ODE_NLYAP > 0 && ODE_LYAP_FULL
    if (a->lyap_off && record > 0 && ode_lyap_trace_off(&s)) {   /* the launch's warning (library.c) */
#ifdef __CUDA_ARCH__
        atomicAdd(a->lyap_off, 1ULL);
#else
#pragma omp atomic
        *a->lyap_off += 1ULL;
#endif
    }
#endif
#if ODE_NDELAY > 0
    ode_hist_close(&hist);
#endif
    ode_store(&s, a, i);
}

/* ------------------------------------------------------------------ CPU */
/* One system of the CPU path (cpu_loop.h runs them over OpenMP). */
static void ode_cpu_system(const OdeArrays *a, int i, int transient, int record)
{
    ode_run_system(a, i, transient, record);
}

/* ------------------------------------------------------------------ GPU */
#ifdef __CUDACC__

#ifndef ODE_BLOCK_SIZE
#define ODE_BLOCK_SIZE 128
#endif
/* Blocks per multiprocessor the compiler must leave registers for: the cap
 * is 65536 / (ODE_BLOCK_SIZE * ODE_MIN_BLOCKS) registers per system,
 * picked from the model.  By default 128: a kernel that needs fewer is not
 * touched; a larger one keeps 16 warps per multiprocessor (25% occupancy, 67584
 * systems at once on an H200) at the price of a few spills to L1.  Measured
 * on the paper's Keller–Miksis scan (65536 systems, 1024+64 collapses, H200,
 * bench/km_registers.sh): 190 registers, no spills 11.5 s; 168 registers
 * 11.0 s; 128 registers (356 bytes of spills) 9.1 s; 102 registers 9.6 s.
 * Not for `lyapunov` models, nor the stiff methods: their N·n tangent
 * values, and the matrix W with its LU factors, are meant to stay in
 * registers (Lorenz with lyapunov 3 needs 206; capped, it spilled 888 bytes).
 * A fixed-step method on its fast path (integrate.h: no events, samples or
 * `on step`) with at most 4 states gets 64 registers (32 warps): its steps
 * are short chains of arithmetic, and more warps hide their latency —
 * Lorenz 2^20 RK4 3.84 → 3.49 ms, Duffing 2^20 RK4 3.70 → 3.48 s (16 bytes
 * of spills) on an H200 (bench/registers.sh).  The adaptive Duffing kernel
 * (80 registers) runs as fast uncapped and 1% slower at 64; the relief
 * valve's 30720 systems, less than one wave, ran 6% faster uncapped (1.09
 * against 1.16 s), which more systems would not repeat.
 * -DODE_MIN_BLOCKS=N overrides (1: up to 255 registers). */
#ifndef ODE_MIN_BLOCKS
#if ODE_NLYAP > 0 || (defined(ODE_ROSENBROCK) && ODE_ROSENBROCK)
#define ODE_MIN_BLOCKS 1
#elif ODE_FAST && ODE_NSTATE <= 4
#define ODE_MIN_BLOCKS (1024 / ODE_BLOCK_SIZE > 0 ? 1024 / ODE_BLOCK_SIZE : 1)
#else
#define ODE_MIN_BLOCKS (512 / ODE_BLOCK_SIZE > 0 ? 512 / ODE_BLOCK_SIZE : 1)
#endif
#endif

/* Adds the systems this warp just finished to the progress counter (device
 * memory, which the host polls on a second stream): one atomic per warp. */
__device__ static ODE_INLINE void ode_count_done(unsigned int *progress)
{
    if (!progress) return;
    const unsigned int active = __activemask();
    if ((threadIdx.x & 31) == (unsigned)(__ffs(active) - 1))
        atomicAdd(progress, (unsigned int)__popc(active));
}

/* One system per thread: thread i runs system i. */
__global__ static void __launch_bounds__(ODE_BLOCK_SIZE, ODE_MIN_BLOCKS)
ode_kernel(const __grid_constant__ OdeArrays a, int transient, int record)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a.n) {
        ode_run_system(&a, i, transient, record);
        ode_count_done(a.progress);
    }
}

/* Load balancing: a persistent grid whose warps take the next 32 systems from
 * a queue when they finish theirs, so that a warp of quick systems does not
 * sit idle while a slow one elsewhere finishes.  Systems stay contiguous in a
 * warp, so memory accesses stay coalesced. */
__global__ static void __launch_bounds__(ODE_BLOCK_SIZE, ODE_MIN_BLOCKS)
ode_kernel_queue(const __grid_constant__ OdeArrays a, int transient, int record)
{
    const unsigned int lane = threadIdx.x & 31;
    for (;;) {
        unsigned int base = 0;
        if (lane == 0) base = atomicAdd(a.queue, 32u);
        base = __shfl_sync(0xffffffffu, base, 0);
        if (base >= (unsigned int)a.n) break;
        const int i = (int)(base + lane);
        if (i < a.n) {
            ode_run_system(&a, i, transient, record);
            ode_count_done(a.progress);
        }
        __syncwarp();
    }
}

/* Load balancing, thread by thread: a persistent grid whose threads each take
 * the next system from the queue as soon as they finish one.  A warp's lanes
 * stay busy although their systems need different numbers of steps; what it
 * costs is that a warp's systems are no longer neighbours (their loads and
 * stores, once per system and per recorded integration, are scattered). */
__global__ static void __launch_bounds__(ODE_BLOCK_SIZE, ODE_MIN_BLOCKS)
ode_kernel_stream(const __grid_constant__ OdeArrays a, int transient, int record)
{
    for (;;) {
        const unsigned int i = atomicAdd(a.queue, 1u);
        if (i >= (unsigned int)a.n) break;
        ode_run_system(&a, (int)i, transient, record);
        ode_count_done(a.progress);
    }
}

/* Launches the integration of the n systems of device arrays a on stream.
 * `balanced`: 0 one system per thread, 1 the warp queue, 2 the thread queue
 * (for 1 and 2, a->queue must point to a zeroed device counter).  block must be a multiple of 32 (the queue is taken by
 * whole warps) and at most ODE_BLOCK_SIZE; other values fall back to it. */
static cudaError_t ode_gpu_launch(const OdeArrays *a, int transient, int record, int block,
                                  int balanced, cudaStream_t stream)
{
    if (a->n <= 0) return cudaSuccess;
    if (block <= 0 || block > ODE_BLOCK_SIZE || block % 32) block = ODE_BLOCK_SIZE;
    if (!balanced) {
        const int grid = (a->n + block - 1) / block;
        ode_kernel<<<grid, block, 0, stream>>>(*a, transient, record);
        return cudaGetLastError();
    }
    int device = 0, sms = 0, per_sm = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err == cudaSuccess)
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, balanced == 1 ? ode_kernel_queue
                                                                                   : ode_kernel_stream, block, 0);
    if (err != cudaSuccess) return err;
    if (per_sm < 1) per_sm = 1;
    long want = ((long)a->n + block - 1) / block, resident = (long)sms * per_sm;
    const int grid = (int)(want < resident ? want : resident);
    if (balanced == 1)
        ode_kernel_queue<<<grid, block, 0, stream>>>(*a, transient, record);
    else
        ode_kernel_stream<<<grid, block, 0, stream>>>(*a, transient, record);
    return cudaGetLastError();
}

/* Systems one multiprocessor runs at once in blocks of `block` threads (the
 * library's estimate of a wave). */
static cudaError_t ode_gpu_systems_per_sm(int block, int *systems)
{
    int per_sm = 0;
    const cudaError_t err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ode_kernel, block, 0);
    *systems = per_sm * block;
    return err;
}

/* Device memory the kernels need beyond the arrays: none here (a team's
 * workspace: team_driver.h). */
static cudaError_t ode_gpu_work_alloc(OdeArrays *a)
{
    a->work = NULL;
    a->work_teams = 0;
    return cudaSuccess;
}
static void ode_gpu_work_free(OdeArrays *a) { (void)a; }
#endif /* __CUDACC__ */

#ifndef ODEGEN_GENERATED
#include "cpu_loop.h"
#endif

#endif /* ODE_DRIVER_H */
