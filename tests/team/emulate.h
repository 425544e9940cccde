/* emulate.h — the host emulation of a team (emulate.c).  Include after
 * team.h, with ODE_TEAM_EMULATE defined for everything that runs in it. */
#ifndef ODE_TEAM_EMULATE_H
#define ODE_TEAM_EMULATE_H

typedef struct OdeTeamEmu OdeTeamEmu;

/* Runs fn(team, arg) on `size` emulated lanes, lanes in increasing order
 * (order 0) or decreasing order (order 1) between barriers.  Returns 0, or 1
 * when the lanes reached different barriers (reported on stderr).  *phases:
 * the barriers passed (may be NULL). */
int ode_team_emu_run(int size, int order, void (*fn)(OdeTeam team, void *arg), void *arg, long *phases);

#endif
