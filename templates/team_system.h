/* team_system.h — where a system integrated by a team of threads lives.
 *
 * A model in loop form (ODE_LOOP_FORM 1) sees its system through OdeSystem
 * (system.h), as a model written out does, with the same member names, so
 * that the functions one lane runs alone (hooks, accessories, derived
 * parameters, recorded fields: templates/example_team_model.h) read
 * ode_s->y[k], ode_s->p[k], ode_s->acc[k] exactly as today; but the arrays
 * are pointers into the team's workspace (below: shared memory when it fits,
 * else global memory), which every lane of the team reads.
 *
 * The OdeSystem itself is one per team, in the same memory: only the team's
 * leader (lane 0) writes it (t, the window, the accessories, the counts, the
 * status), and a barrier follows before the other lanes read it.  The lanes
 * keep the integration's scalars (t, h, the status) in registers, computing
 * them alike (every decision is a team reduction's result, the same bits in
 * every lane).
 */
#ifndef ODE_TEAM_SYSTEM_H
#define ODE_TEAM_SYSTEM_H

#ifndef ODEGEN_GENERATED
#include "prelude.h"
#include "options.h"
#include "system.h"
#include "team.h"
#include "lu_storage.h"
#endif

#if ODE_LOOP_FORM


/* ------------------------------------------------------------------ the team's memory */
/* A team's workspace: reals, then ints, at compile-time offsets (elements).
 * Vectors of the states are indexed by state, so that lanes that read
 * consecutive states read consecutive addresses (coalesced in global memory,
 * no bank conflicts in shared memory):
 *   y      the state                    yt   a stage's input, or a point of
 *   dy     f of the last evaluation          the extension (events, samples)
 *   p, d, acc   the system's parameters, derived parameters, accessories
 *   scratch     the model's array temporaries (ODE_NSCRATCH)
 *   event values, ODE_TEV_N arrays of ODE_NEVENT (team_events.h)
 *   the stiff methods' matrix (lu_storage.h, team_lu.h)
 * and ints: the event counts, armed and zone flags, … (ODE_TEI_N arrays of
 * ODE_NEVENT), the LU's pivots.
 * What each lane alone reads — its share of the stages, of the new state,
 * of the error estimate and of the extension — is not here but in the
 * lane's own arrays of ODE_TEAM_SLOTS values (registers, or the lane's
 * local memory). */
#ifndef ODE_NSCRATCH
#define ODE_NSCRATCH 0
#endif
/* The stiff methods' matrix and pivots (lu_storage.h), for them only
 * (evaluated where used, after tableaux.h). */
#define ODE_TEAM_LU_REALS (ODE_ROSENBROCK ? ODE_LU_REALS : 0)
#define ODE_TEAM_LU_INTS (ODE_ROSENBROCK ? ODE_NSTATE : 0)
#define ODE_TEV_N 18                        /* event value arrays (team_events.h: ODE_TEV_…) */
#define ODE_TEI_N 8                         /* event int arrays (ODE_TEI_…) */

#define ODE_TW_Y 0
#define ODE_TW_YT (ODE_TW_Y + ODE_ALLOC(ODE_NSTATE))
#define ODE_TW_DY (ODE_TW_YT + ODE_ALLOC(ODE_NSTATE))
#define ODE_TW_P (ODE_TW_DY + ODE_ALLOC(ODE_NSTATE))
#define ODE_TW_D (ODE_TW_P + ODE_ALLOC(ODE_NPARAM))
#define ODE_TW_ACC (ODE_TW_D + ODE_ALLOC(ODE_NDERIVED))
#define ODE_TW_SCRATCH (ODE_TW_ACC + ODE_ALLOC(ODE_NACC))
#define ODE_TW_EV (ODE_TW_SCRATCH + ODE_ALLOC(ODE_NSCRATCH))
#define ODE_TW_LU (ODE_TW_EV + ODE_TEV_N * ODE_ALLOC(ODE_NEVENT))
#define ODE_TW_REALS (ODE_TW_LU + ODE_ALLOC(ODE_TEAM_LU_REALS))

#define ODE_TI_COUNT 0
#define ODE_TI_EV (ODE_TI_COUNT + ODE_ALLOC(ODE_NEVENT))
#define ODE_TI_LU (ODE_TI_EV + ODE_TEI_N * ODE_ALLOC(ODE_NEVENT))
#define ODE_TI_INTS (ODE_TI_LU + ODE_ALLOC(ODE_TEAM_LU_INTS))

/* A team's workspace in bytes (reals, then ints, one block; a constant the
 * preprocessor can compare: ints of 4 bytes). */
#define ODE_REAL_BYTES (ODE_FLOAT ? 4 : 8)
#define ODE_TEAM_WORK_BYTES (ODE_TW_REALS * ODE_REAL_BYTES + ODE_TI_INTS * 4)

/* The lane's share of a vector of the states: slot m holds state
 * lane + m * size (or a tile's, below).  In a kernel the team's size is a compile-time constant,
 * so the slots are few and the compiler keeps them in registers where they
 * fit; on the host (a team of one, or an emulated team of any size) a lane
 * may hold every state. */
#if defined(__CUDA_ARCH__)
#define ODE_TEAM_SLOTS ((ODE_NSTATE + ODE_TEAM_SIZE - 1) / ODE_TEAM_SIZE)
#else
#define ODE_TEAM_SLOTS ODE_ALLOC(ODE_NSTATE)
#endif
/* Tiles.  A model that is a stencil (every state an element of ODE_TILE_NARR
 * arrays of ODE_TILE_LEN, read at p + d, |d| <= ODE_TILE_HALO: emit_tile.c)
 * gives each lane a tile instead: positions lane*C … lane*C + C - 1 of every
 * array (C = ODE_TILE_LEN / size), slot a*C + c holding position lane*C + c
 * of array a.  Its stage inputs then stay in the lane's registers, the
 * neighbours' few it reads coming through team memory (team_stepper.h:
 * ode_team_tile_f).  In a kernel of a warp or block whose size divides the
 * arrays, and in the host emulation of teams (tests/team) where it does. */
#ifndef ODE_TILE_LEN
#define ODE_TILE_LEN 0
#endif
#if ODE_TILE_LEN > 0 && defined(__CUDA_ARCH__) && ODE_LAYOUT != ODE_LAYOUT_THREAD && ODE_TILE_LEN % ODE_TEAM_SIZE == 0
#define ODE_TEAM_TILE 1
#define ODE_TILE_ON(team) 1
#define ODE_TILE_C(team) (ODE_TILE_LEN / ODE_TEAM_SIZE)
#define ODE_TILE_CMAX (ODE_TILE_LEN / ODE_TEAM_SIZE)
#elif ODE_TILE_LEN > 0 && defined(ODE_TEAM_EMULATE) && !defined(__CUDA_ARCH__)
#define ODE_TEAM_TILE 1
#define ODE_TILE_ON(team) ((team).size <= ODE_TILE_LEN && ODE_TILE_LEN % (team).size == 0)
#define ODE_TILE_C(team) (ODE_TILE_LEN / (team).size)
#define ODE_TILE_CMAX ODE_TILE_LEN
#else
#define ODE_TEAM_TILE 0
#define ODE_TILE_ON(team) 0
#define ODE_TILE_C(team) 1
#define ODE_TILE_CMAX 1
#endif
/* In ode_model_rhs_tile (ode_team in scope): the tile's positions, position p's
 * slot of array a, and where the stage input ode_in holds position c + d of
 * array a (its tile and the halo each side). */
#define ODE_TILE_FOR(c) ODE_UNROLL for (int c = 0; c < ODE_TILE_C(ode_team); c++)
#define ODE_TILE_P(c) (ode_team.lane * ODE_TILE_C(ode_team) + (c))
#define ODE_TILE_OUT(a, c) ((a) * ODE_TILE_C(ode_team) + (c))
#define ODE_TILE_IN(a, q) ((a) * (ODE_TILE_C(ode_team) + 2 * ODE_TILE_HALO) + ODE_TILE_HALO + (q))

/* The state that slot m of the lane holds (past its last: ODE_NSTATE or more). */
ODE_HD static ODE_INLINE int ode_mine(OdeTeam team, int m)
{
#if ODE_TEAM_TILE
    if (ODE_TILE_ON(team)) {
        const int c = ODE_TILE_C(team);
        return m / c * ODE_TILE_LEN + team.lane * c + m % c;
    }
#endif
    return team.lane + m * team.size;
}

/* Whether every lane holds ODE_TEAM_SLOTS states (a kernel whose team divides
 * the states). */
#if defined(__CUDA_ARCH__) && ODE_NSTATE % ODE_TEAM_SIZE == 0
#define ODE_TEAM_EVEN 1
#else
#define ODE_TEAM_EVEN 0
#endif
/* For each of this lane's states i, its slot m (ode_team in scope).  The loop
 * runs over every slot, a lane's last ones skipped where it holds fewer: a
 * trip count the compiler knows, so that the lane's arrays, indexed by
 * constants once unrolled, stay in registers (a loop that ended at
 * i < ODE_NSTATE kept them in local memory: 600 bytes a thread for the chain
 * of 1024 states, 2.4x slower).  (The inner loop runs once or not at all: no
 * `if` that an `else` of the caller's could take.) */
#define ODE_FOR_MINE(m, i)                                                                          \
    ODE_UNROLL for (int m = 0, i = ode_mine(ode_team, 0); m < ODE_TEAM_SLOTS; m++, i = ode_mine(ode_team, m)) \
        for (int m##_held = ODE_TEAM_EVEN || i < ODE_NSTATE; m##_held; m##_held = 0)

/* Everything a lane's team functions work on. */
typedef struct OdeTeamCtx {
    OdeTeam team;
    OdeSystem *s;                           /* the system (team memory; the leader writes it) */
    ode_real *w;                            /* the workspace's reals */
    int *iw;                                /* and ints */
} OdeTeamCtx;

#define ODE_TW(c, part) ((c)->w + ODE_TW_##part)

#endif /* ODE_LOOP_FORM */

#endif /* ODE_TEAM_SYSTEM_H */
