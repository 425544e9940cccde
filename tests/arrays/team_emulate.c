/* team_emulate.c — a generated model in loop form (odegen, @ arrays=loop) run by
 * emulated teams (tests/team/emulate.c): its ode_model_rhs_team and
 * ode_model_events_team, called by teams of 1 … 64 lanes in both orders, against
 * the per-thread functions the same file holds (a team of one).  The emitter's
 * barriers and reductions are what team.h's contract asks when every team gives
 * the same bits in both orders and a team of one the per-thread bits; sums over
 * arrays (ode_team_sum) may differ with the team's size by rounding only.
 *
 * Built by tests/arrays/test_arrays.py:
 *   cc -DODE_TEAM_EMULATE -DMODEL_CU='"…/NAME.cu"' -Itests/team -Itemplates team_emulate.c -lm
 */
#define ODE_TEAM_EMULATE 1
#include <math.h>
#include <stdio.h>
#include <string.h>

#include MODEL_CU
#include "emulate.h"
#include "emulate.c"

#define N ODE_NSTATE
#define NE ODE_ALLOC(ODE_NEVENT)

typedef struct Args {
    const OdeSystem *s;
    double t;
    const double *y;
    double dy[N], g[NE];
    double scratch[ODE_ALLOC(ODE_NSCRATCH)];
} Args;

static void functions(OdeTeam ode_team, void *arg)
{
    Args *a = arg;
    OdeTrig tr;
    ode_model_trig(a->s, a->t, &tr);
    ode_model_rhs_team(a->s, a->t, a->y, a->dy, &tr, a->scratch, ode_team);
    ODE_TEAM_SYNC();   /* (the scratch is used again) */
#if ODE_NEVENT > 0
    ode_model_events_team(a->s, a->t, a->y, a->g, a->scratch, ode_team);
#endif
}

static int failures;

static void compare(const char *what, int size, int order, const double *x, const double *ref, int n)
{
    double worst = 0;
    int same = 1;
    for (int i = 0; i < n; i++) {
        double d = fabs(x[i] - ref[i]) / (1 + fabs(ref[i]));
        if (d > worst) worst = d;
        if (memcmp(&x[i], &ref[i], sizeof(double))) same = 0;
    }
    if ((size == 1 && !same) || worst > 1e-13) {
        printf("FAIL: %s, team of %d (order %d): %.3g from the per-thread function%s\n", what, size, order, worst,
               size == 1 ? " (a team of one must give its bits)" : "");
        failures++;
    }
}

int main(void)
{
    static OdeSystem s;
    unsigned long long seed = 2026;
    int teams = 0;
    for (int point = 0; point < 5; point++) {
        static double y[N];
        for (int i = 0; i < N; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            y[i] = ((double)(seed >> 11) / 9007199254740992.0 - 0.5) * 2;
        }
        memset(&s, 0, sizeof s);
        for (int k = 0; k < ODE_NPARAM; k++) s.p[k] = ode_param_default[k] * (1 + 0.1 * sin(k + point));
        memcpy(s.y, y, sizeof y);
        ode_model_derived(&s);
        const double t = 0.29 * point;
        double rdy[N], rg[NE] = {0};
        OdeTrig tr;
        ode_model_trig(&s, t, &tr);
        ode_model_rhs(&s, t, y, rdy, &tr);
#if ODE_NEVENT > 0
        ode_model_events(&s, t, y, rg);
#endif
        for (int size = 1; size <= 64; size *= 2)   /* (team.h: a power of two) */
            for (int order = 0; order < 2; order++) {
                static Args a, first;
                memset(&a, 0, sizeof a);
                a.s = &s;
                a.t = t;
                a.y = y;
                if (ode_team_emu_run(size, order, functions, &a, NULL)) {
                    printf("FAIL: team of %d: the lanes reached different barriers\n", size);
                    failures++;
                    continue;
                }
                teams++;
                compare("rhs", size, order, a.dy, rdy, N);
                compare("events", size, order, a.g, rg, ODE_NEVENT);
                if (order == 0) {
                    first = a;
                } else if (memcmp(first.dy, a.dy, sizeof a.dy) || memcmp(first.g, a.g, sizeof a.g)) {
                    printf("FAIL: team of %d: the lanes' order changed the bits (a missing barrier)\n", size);
                    failures++;
                }
            }
    }
    printf("team emulation: %d teams of 1 … 64 lanes in both orders, %d states, %d events: %s\n", teams, N,
           ODE_NEVENT, failures ? "FAILED" : "passed");
    return failures != 0;
}
