/* team.h — a team of threads that integrates one system together: the team's
 * handle, its barrier and its reductions.  THE CONTRACT between the loop-form
 * model functions (written by odegen's emitter for large models, shaped as
 * templates/example_team_model.h shows) and the team integrator
 * (team_system.h … team_driver.h).
 *
 * Layouts (ODE_LAYOUT, `@ layout=thread|warp|block`):
 *   thread  a team of one: one system per GPU thread, or per OpenMP iteration
 *           on the CPU (the CPU path is always a team of one);
 *   warp    ODE_TEAM_SIZE lanes of one warp (2, 4, 8, 16 or 32), several
 *           teams per block;
 *   block   a whole block of ODE_TEAM_SIZE threads (a multiple of 32).
 *
 * What a loop-form model function may use (`ode_team`, an OdeTeam, is its
 * parameter):
 *
 *   ODE_TEAM_LANE, ODE_TEAM_SIZE_OF      this thread's lane (0 … size-1), the team's size
 *   ODE_TEAM_FOR(j, n)                   for (int j = lane; j < n; j += size): the
 *                                        indices of an array equation this lane computes
 *   ODE_TEAM_MINE(k)                     k % size == lane: whether this lane computes
 *                                        the scalar equation number k (round robin)
 *   ODE_TEAM_SYNC()                      the team's barrier: what any lane wrote before
 *                                        it, every lane reads after it (no-op for a
 *                                        team of one; __syncwarp / __syncthreads)
 *   ode_team_sum(ode_team, partial)      the sum of every lane's partial, returned to
 *                                        every lane, in a fixed order (below)
 *   ode_team_max, ode_team_min           likewise for the largest and smallest value
 *
 * Rules that keep a team correct (the host emulation in tests/team checks
 * them: lanes run in order, then in reverse order, with every barrier
 * respected, and must give the same bits; every lane must reach the same
 * barrier at the same place):
 *   - every lane calls ODE_TEAM_SYNC() and the reductions at the same points
 *     (never inside ODE_TEAM_FOR, ODE_TEAM_MINE or a branch on a lane's data);
 *   - a value one lane writes to memory that another lane reads is separated
 *     from the read by ODE_TEAM_SYNC() (array temporaries in ode_scratch: a
 *     barrier before their first reader); a reduction is a barrier too;
 *   - the function's inputs (ode_y) are complete and visible to every lane
 *     when it is called, and its outputs (ode_dy, ode_g) are read by other
 *     lanes only after the caller's barrier, so a function needs no barrier
 *     at its end.
 *
 * The order of a reduction is fixed, so its bits never depend on timing: each
 * lane's partial is summed over its indices in increasing order (starting
 * from -0.0, so that a team of one sums x1 + x2 + … exactly as the equations
 * written out do); the lanes of a warp (or of a team within a warp) are
 * combined by a butterfly (lane l adds the value of lane l ^ d for d = size/2,
 * …, 1: every lane ends with the same bits, addition being commutative); the
 * warps of a block are added in warp order.  So results depend on the layout
 * only through the order of reductions: the same team size gives the same
 * bits on the GPU and in the host emulation, and a model without reductions
 * gives the same bits in every layout as written out per thread.
 *
 * Everything here is force-inlined; in a kernel the team's size is a
 * compile-time constant, so that a team of one costs nothing.
 */
#ifndef ODE_TEAM_H
#define ODE_TEAM_H

#ifndef ODEGEN_GENERATED
#include "prelude.h"
#endif

/* The layouts (ODE_LAYOUT's values; the generator's `@ layout` uses the same numbers). */
#define ODE_LAYOUT_THREAD 0
#define ODE_LAYOUT_WARP 1
#define ODE_LAYOUT_BLOCK 2

#ifndef ODE_LAYOUT
#define ODE_LAYOUT ODE_LAYOUT_THREAD
#endif
#ifndef ODE_TEAM_SIZE
#if ODE_LAYOUT == ODE_LAYOUT_WARP
#define ODE_TEAM_SIZE 32
#elif ODE_LAYOUT == ODE_LAYOUT_BLOCK
#define ODE_TEAM_SIZE 128
#else
#define ODE_TEAM_SIZE 1
#endif
#endif

#if ODE_LAYOUT == ODE_LAYOUT_WARP && (ODE_TEAM_SIZE < 1 || ODE_TEAM_SIZE > 32 || (ODE_TEAM_SIZE & (ODE_TEAM_SIZE - 1)))
#error "team.h: a warp layout's team has 1, 2, 4, 8, 16 or 32 lanes"
#endif
#if ODE_LAYOUT == ODE_LAYOUT_BLOCK && (ODE_TEAM_SIZE < 32 || ODE_TEAM_SIZE > 1024 || ODE_TEAM_SIZE % 32)
#error "team.h: a block layout's team is a multiple of 32 threads, at most 1024"
#endif

#ifdef ODE_TEAM_EMULATE
/* The host emulation of a team (tests/team/emulate.c): lanes are coroutines
 * that run one after another up to each barrier. */
struct OdeTeamEmu;
void ode_team_emu_sync(struct OdeTeamEmu *emu, int lane, int site);
/* Every lane's v into all[0 … size-1] (exact: a float converts to double and
 * back unchanged); a barrier before and after. */
void ode_team_emu_gather(struct OdeTeamEmu *emu, int lane, int site, double v, double *all);
#define ODE_TEAM_EMU_MAX 1024
#endif

typedef struct OdeTeam {
    int lane;              /* 0 … size-1 */
    int size;              /* lanes in the team (1: a team of one) */
    unsigned int mask;     /* GPU, warp layout: the team's lanes in its warp */
    ode_real *red;         /* GPU, block layout: one slot per warp, shared memory */
    struct OdeTeamEmu *emu;   /* the host emulation (tests), else 0 */
} OdeTeam;

/* A team of one: the CPU path, the thread layout, and work one lane does alone. */
ODE_HD static ODE_INLINE OdeTeam ode_team_one(void)
{
    OdeTeam t;
    t.lane = 0;
    t.size = 1;
    t.mask = 0u;
    t.red = 0;
    t.emu = 0;
    return t;
}

#define ODE_TEAM_LANE (ode_team.lane)
#define ODE_TEAM_SIZE_OF (ode_team.size)
#define ODE_TEAM_FOR(j, n) for (int j = ode_team.lane; j < (n); j += ode_team.size)
#define ODE_TEAM_MINE(k) ((k) % ode_team.size == ode_team.lane)
#define ODE_TEAM_LEADER (ode_team.lane == 0)
#define ODE_TEAM_SYNC() ode_team_sync(ode_team, __LINE__)

/* The team's barrier (site: where it is, for the emulation's check that
 * every lane reaches the same one). */
ODE_HD static ODE_INLINE void ode_team_sync(OdeTeam team, int site)
{
    (void)site;
    if (team.size == 1) return;
#if defined(__CUDA_ARCH__)
#if ODE_LAYOUT == ODE_LAYOUT_BLOCK
    __syncthreads();
#else
    __syncwarp(team.mask);
#endif
#elif defined(ODE_TEAM_EMULATE)
    ode_team_emu_sync(team.emu, team.lane, site);
#endif
}

/* ------------------------------------------------------------------ reductions */
enum { ODE_TEAM_OP_SUM = 0, ODE_TEAM_OP_MAX = 1, ODE_TEAM_OP_MIN = 2 };

ODE_HD static ODE_INLINE ode_real ode_team_combine(int op, ode_real a, ode_real b)
{
    return op == ODE_TEAM_OP_SUM ? a + b : op == ODE_TEAM_OP_MAX ? ode_fmax(a, b) : ode_fmin(a, b);
}

#if defined(__CUDA_ARCH__)
/* The butterfly over the team's lanes of one warp (at most 32). */
__device__ static ODE_INLINE ode_real ode_team_warp_reduce(unsigned int mask, int width, ode_real v, int op)
{
    for (int d = width / 2; d > 0; d /= 2) v = ode_team_combine(op, v, __shfl_xor_sync(mask, v, d, width));
    return v;
}
#endif

/* op over every lane's v, returned to every lane in the fixed order above. */
ODE_HD static ODE_INLINE ode_real ode_team_reduce(OdeTeam team, ode_real v, int op, int site)
{
    (void)site;
    if (team.size == 1) return v;
#if defined(__CUDA_ARCH__)
#if ODE_LAYOUT == ODE_LAYOUT_BLOCK
    v = ode_team_warp_reduce(0xffffffffu, 32, v, op);
    if ((team.lane & 31) == 0) team.red[team.lane >> 5] = v;
    __syncthreads();
    ode_real r = team.red[0];
    for (int w = 1; w < team.size / 32; w++) r = ode_team_combine(op, r, team.red[w]);
    __syncthreads();                       /* the slots are free again */
    return r;
#else
    __syncwarp(team.mask);                 /* a reduction is a barrier (shuffles alone order no memory) */
    return ode_team_warp_reduce(team.mask, team.size, v, op);
#endif
#elif defined(ODE_TEAM_EMULATE)
    /* The same order as the GPU: a butterfly within each group of 32 lanes
     * (or the whole team, when smaller), then the groups in order. */
    double all[ODE_TEAM_EMU_MAX];
    ode_real x[ODE_TEAM_EMU_MAX], y[ODE_TEAM_EMU_MAX];
    ode_team_emu_gather(team.emu, team.lane, site, (double)v, all);
    const int width = team.size < 32 ? team.size : 32;
    for (int l = 0; l < team.size; l++) x[l] = (ode_real)all[l];
    for (int d = width / 2; d > 0; d /= 2) {
        for (int l = 0; l < team.size; l++) y[l] = ode_team_combine(op, x[l], x[l ^ d]);
        for (int l = 0; l < team.size; l++) x[l] = y[l];
    }
    ode_real r = x[0];
    for (int w = 1; w < team.size / width; w++) r = ode_team_combine(op, r, x[w * width]);
    return r;
#else
    return v;
#endif
}

#define ode_team_sum(team, v) ode_team_reduce((team), (v), ODE_TEAM_OP_SUM, __LINE__)
#define ode_team_max(team, v) ode_team_reduce((team), (v), ODE_TEAM_OP_MAX, __LINE__)
#define ode_team_min(team, v) ode_team_reduce((team), (v), ODE_TEAM_OP_MIN, __LINE__)

/* Whether c holds in every lane / in some lane (c: 0 or 1). */
#define ode_team_all(team, c) (ode_team_min((team), (c) ? ODE_R(1.0) : ODE_R(0.0)) > ODE_R(0.5))
#define ode_team_any(team, c) (ode_team_max((team), (c) ? ODE_R(1.0) : ODE_R(0.0)) > ODE_R(0.5))

#endif /* ODE_TEAM_H */
