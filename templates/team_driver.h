/* team_driver.h — many systems, each integrated by a team (a model in loop
 * form): a system's load from the arrays and store back, all its
 * repetitions (driver.h's ode_run_system), the CPU path (a team of one per
 * OpenMP iteration, cpu_loop.h), and the CUDA kernel of the three layouts.
 *
 * Where a team's workspace (team_system.h) lives on the GPU:
 *   thread  the thread's local memory (interleaved by the hardware, so that
 *           a warp's threads touch consecutive addresses);
 *   warp    shared memory, when the block's teams' workspaces fit in
 *   block   ODE_TEAM_SHARED_MAX bytes (the kernel then covers the systems
 *           with teams, one system each); else global memory, one workspace
 *           per team that can be resident, and the teams of a grid of that
 *           size (a wave) take the systems in turn.
 * With load balancing (the library's `balance`), each team takes its next
 * system from a queue when it finishes one.
 */
#ifndef ODE_TEAM_DRIVER_H
#define ODE_TEAM_DRIVER_H

#ifndef ODEGEN_GENERATED
#include "team_integrate.h"
#endif

#if ODE_LOOP_FORM

/* The team's view of its workspace (team_system.h): reals, then ints. */
ODE_HD static ODE_INLINE void ode_team_bind(OdeTeamCtx *c, OdeTeam team, OdeSystem *s, void *work)
{
    c->team = team;
    c->s = s;
    c->w = (ode_real *)work;
    c->iw = (int *)(c->w + ODE_TW_REALS);
}

/* System i of the arrays into the team's memory (driver.h: ode_load); the
 * leader points the OdeSystem into the workspace. */
ODE_HD static ODE_INLINE void ode_team_load(OdeTeamCtx *c, const OdeArrays *a, int i)
{
    const OdeTeam ode_team = c->team;
    const int n = a->n;
    ODE_TEAM_FOR(k, ODE_NSTATE) c->w[ODE_TW_Y + k] = ODE_AT(a->y, k, i, n);
    ODE_TEAM_FOR(k, ODE_NPARAM) c->w[ODE_TW_P + k] = ODE_AT(a->p, k, i, n);
    ODE_TEAM_FOR(k, ODE_NACC) c->w[ODE_TW_ACC + k] = ODE_AT(a->acc, k, i, n);
    ODE_TEAM_FOR(e, ODE_NEVENT) c->iw[ODE_TI_COUNT + e] = 0;
    if (ODE_TEAM_LEADER) {
        OdeSystem *s = c->s;
        s->y = ODE_TW(c, Y);
        s->p = ODE_TW(c, P);
        s->d = ODE_TW(c, D);
        s->acc = ODE_TW(c, ACC);
        s->count = c->iw + ODE_TI_COUNT;
        s->t = a->t[i];
        s->t0 = a->t0[i];
        s->t1 = a->t1[i];
        s->status = a->status[i];
        s->steps = a->steps[i];
        s->evals = a->evals[i];
    }
    ODE_TEAM_SYNC();
}

ODE_HD static ODE_INLINE void ode_team_store(OdeTeamCtx *c, const OdeArrays *a, int i)
{
    const OdeTeam ode_team = c->team;
    const int n = a->n;
    ODE_TEAM_FOR(k, ODE_NSTATE) ODE_AT(a->y, k, i, n) = c->w[ODE_TW_Y + k];
    ODE_TEAM_FOR(k, ODE_NACC) ODE_AT(a->acc, k, i, n) = c->w[ODE_TW_ACC + k];
    if (ODE_TEAM_LEADER) {
        const OdeSystem *s = c->s;
        a->t[i] = s->t;
        a->t0[i] = s->t0;
        a->t1[i] = s->t1;
        a->status[i] = s->status;
        a->steps[i] = s->steps;
        a->evals[i] = s->evals;
    }
}

/* All repetitions of system i (driver.h: ode_run_system): `transient`
 * integrations discarded, then `record` integrations whose fields the lanes
 * write to a->rec, one field each. */
ODE_HD static ODE_INLINE void ode_team_run_system(OdeTeamCtx *c, const OdeArrays *a, int i, int transient, int record)
{
    const OdeTeam ode_team = c->team;
    OdeSystem *const s = c->s;
    const int n = a->n;
    ode_team_load(c, a, i);
    ODE_TEAM_LEADER_DO(ode_model_derived(s); if (s->status == ODE_STATUS_READY) ode_model_acc_init(s));
#if ODE_SAVE
    const int slot = a->traj ? a->save_slot[i] : -1;
#endif
    for (int r = 0; r < transient + record; r++) {
        OdeSaveSink sink;
        sink.a = a;
        sink.slot = -1;
        sink.rep = r - transient;
#if ODE_SAVE
        if (slot >= 0 && r >= transient) sink.slot = slot;
#endif
        if (!ODE_STATUS_IS_STICKY(s->status)) {
            ode_team_integrate_sampled(c, &a->opt, sink);
        } else {
#if ODE_SAVE
            if (sink.slot >= 0 && ODE_TEAM_LEADER) ode_save_count(sink, 0);
#endif
        }
        if (r >= transient && a->rec) {
            const int rr = r - transient;
            ODE_TEAM_FOR(f, a->nfield) a->rec[((size_t)rr * a->nfield + f) * n + i] = ode_model_field(s, a->fields[f]);
            if (ODE_TEAM_LEADER) a->rec_status[(size_t)rr * n + i] = s->status;
        }
    }
    ode_team_store(c, a, i);
    ODE_TEAM_SYNC();                       /* the workspace is free for the next system */
}

/* ------------------------------------------------------------------ CPU */
/* One system of the CPU path (cpu_loop.h): a team of one, its workspace on
 * the thread's stack. */
static void ode_cpu_system(const OdeArrays *a, int i, int transient, int record)
{
    double work[(ODE_TEAM_WORK_BYTES + sizeof(double) - 1) / sizeof(double)];
    OdeSystem s;
    OdeTeamCtx c;
    ode_team_bind(&c, ode_team_one(), &s, work);
    ode_team_run_system(&c, a, i, transient, record);
}

/* ------------------------------------------------------------------ GPU */
#ifdef __CUDACC__

#ifndef ODE_BLOCK_SIZE
#define ODE_BLOCK_SIZE 128
#endif
/* Threads per block: the team itself in the block layout; else up to
 * ODE_BLOCK_SIZE threads, ODE_BLOCK_SIZE / ODE_TEAM_SIZE teams. */
#if ODE_LAYOUT == ODE_LAYOUT_BLOCK
#define ODE_TEAM_BLOCK ODE_TEAM_SIZE
#else
#define ODE_TEAM_BLOCK ODE_BLOCK_SIZE
#endif
#define ODE_TEAMS_PER_BLOCK (ODE_TEAM_BLOCK / ODE_TEAM_SIZE)
#define ODE_TEAM_WORK_STRIDE ((ODE_TEAM_WORK_BYTES + 15) / 16 * 16)   /* one team's workspace, aligned */
/* Shared memory a block's workspaces may take (a multiprocessor has 228 KB:
 * two blocks fit). */
#ifndef ODE_TEAM_SHARED_MAX
#define ODE_TEAM_SHARED_MAX (100 * 1024)
#endif
#ifndef ODE_TEAM_WORK_SHARED
#define ODE_TEAM_WORK_SHARED \
    (ODE_LAYOUT != ODE_LAYOUT_THREAD && ODE_TEAMS_PER_BLOCK * ODE_TEAM_WORK_STRIDE <= ODE_TEAM_SHARED_MAX)
#endif
#define ODE_TEAM_WORK_GLOBAL (ODE_LAYOUT != ODE_LAYOUT_THREAD && !ODE_TEAM_WORK_SHARED)

/* Teams of blocks of `block` threads (the block layout's is fixed). */
static int ode_team_block_of(int block)
{
    return ODE_LAYOUT == ODE_LAYOUT_BLOCK || block <= 0 || block > ODE_TEAM_BLOCK || block % 32 ? ODE_TEAM_BLOCK : block;
}

/* Dynamic shared memory of a block of `block` threads. */
static size_t ode_team_smem(int block)
{
    return ODE_TEAM_WORK_SHARED ? (size_t)(block / ODE_TEAM_SIZE) * ODE_TEAM_WORK_STRIDE : 0;
}

__global__ static void __launch_bounds__(ODE_TEAM_BLOCK)
ode_team_kernel(const __grid_constant__ OdeArrays a, int transient, int record)
{
    const int per_block = (int)blockDim.x / ODE_TEAM_SIZE;
    const int tib = (int)threadIdx.x / ODE_TEAM_SIZE;   /* the team in the block */
    OdeTeam team = ode_team_one();
    team.lane = (int)threadIdx.x % ODE_TEAM_SIZE;
    team.size = ODE_TEAM_SIZE;
#if ODE_LAYOUT == ODE_LAYOUT_WARP
    team.mask = ODE_TEAM_SIZE == 32 ? 0xffffffffu
                                    : ((1u << (ODE_TEAM_SIZE % 32)) - 1u) << ((threadIdx.x & 31u) & ~(unsigned)(ODE_TEAM_SIZE - 1));
#elif ODE_LAYOUT == ODE_LAYOUT_BLOCK
    __shared__ ode_real red[32];
    team.red = red;
#endif
#if ODE_LAYOUT == ODE_LAYOUT_THREAD
    OdeSystem mine;
    OdeSystem *const sys = &mine;
    double local[ODE_TEAM_WORK_STRIDE / sizeof(double)];
    void *const work = local;
#else
    __shared__ OdeSystem systems[ODE_TEAMS_PER_BLOCK];
    OdeSystem *const sys = &systems[tib];
#if ODE_TEAM_WORK_SHARED
    extern __shared__ double ode_team_smem_base[];
    void *const work = (char *)ode_team_smem_base + (size_t)tib * ODE_TEAM_WORK_STRIDE;
#else
    void *const work = (char *)a.work + ((size_t)blockIdx.x * per_block + tib) * ODE_TEAM_WORK_STRIDE;
#endif
#endif
    __shared__ unsigned int next[ODE_TEAMS_PER_BLOCK];
    OdeTeamCtx c;
    ode_team_bind(&c, team, sys, work);
    const unsigned int teams = gridDim.x * (unsigned int)per_block;
    unsigned int i = blockIdx.x * (unsigned int)per_block + (unsigned int)tib;
    for (;;) {
        if (a.queue) {                     /* the next system from the queue, for the whole team */
            if (team.lane == 0) next[tib] = atomicAdd(a.queue, 1u);
            ode_team_sync(team, __LINE__);
            i = next[tib];
            ode_team_sync(team, __LINE__);
        }
        if (i >= (unsigned int)a.n) break;
        ode_team_run_system(&c, &a, (int)i, transient, record);
        if (team.lane == 0 && a.progress) atomicAdd(a.progress, 1u);
        if (!a.queue) i += teams;
    }
}

/* Systems one multiprocessor runs at once in blocks of `block` threads. */
static cudaError_t ode_gpu_systems_per_sm(int block, int *systems)
{
    block = ode_team_block_of(block);
    int per_sm = 0;
    const cudaError_t err =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ode_team_kernel, block, ode_team_smem(block));
    *systems = per_sm * (block / ODE_TEAM_SIZE);
    return err;
}

/* The shared memory the kernel may take, and the workspaces in global
 * memory for every team that can be resident (device d current). */
static cudaError_t ode_gpu_work_alloc(OdeArrays *a)
{
    a->work = NULL;
    a->work_teams = 0;
    if (ode_team_smem(ODE_TEAM_BLOCK) > 48 * 1024) {
        const cudaError_t err = cudaFuncSetAttribute(ode_team_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                     (int)ode_team_smem(ODE_TEAM_BLOCK));
        if (err != cudaSuccess) return err;
    }
    if (!ODE_TEAM_WORK_GLOBAL) return cudaSuccess;
    int device = 0, sms = 0, per_sm = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err == cudaSuccess) err = ode_gpu_systems_per_sm(ODE_TEAM_BLOCK, &per_sm);
    if (err != cudaSuccess) return err;
    if (per_sm < 1) per_sm = 1;
    const long teams = (long)sms * per_sm;
    err = cudaMalloc(&a->work, (size_t)teams * ODE_TEAM_WORK_STRIDE);
    if (err != cudaSuccess) return err;
    a->work_teams = teams;
    return cudaSuccess;
}

static void ode_gpu_work_free(OdeArrays *a)
{
    cudaFree(a->work);
    a->work = NULL;
    a->work_teams = 0;
}

/* Launches the integration of the n systems of device arrays a on stream
 * (driver.h's ode_gpu_launch: `block` threads per block where the layout
 * lets it choose; `balanced` non-zero: teams take systems from a->queue). */
static cudaError_t ode_gpu_launch(const OdeArrays *a, int transient, int record, int block, int balanced,
                                  cudaStream_t stream)
{
    if (a->n <= 0) return cudaSuccess;
    block = ode_team_block_of(block);
    const int per_block = block / ODE_TEAM_SIZE;
    long grid = ((long)a->n + per_block - 1) / per_block;
    if (ODE_TEAM_WORK_GLOBAL || (balanced && a->queue)) {
        /* a wave of teams (each with its workspace) takes the systems in turn */
        int device = 0, sms = 0, per_sm = 0;
        cudaError_t err = cudaGetDevice(&device);
        if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (err == cudaSuccess) err = ode_gpu_systems_per_sm(block, &per_sm);
        if (err != cudaSuccess) return err;
        long wave = (long)sms * (per_sm > 0 ? per_sm : 1) / per_block;
        if (ODE_TEAM_WORK_GLOBAL && wave * per_block > a->work_teams) wave = a->work_teams / per_block;
        if (wave < 1) wave = 1;
        if (grid > wave) grid = wave;
    }
    OdeArrays run = *a;
    if (!balanced) run.queue = NULL;
    ode_team_kernel<<<(unsigned int)grid, block, ode_team_smem(block), stream>>>(run, transient, record);
    return cudaGetLastError();
}
#endif /* __CUDACC__ */

#endif /* ODE_LOOP_FORM */

#endif /* ODE_TEAM_DRIVER_H */
