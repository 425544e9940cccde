/* test_contract.c — the loop-form model functions of templates/example_team_model.h
 * (the contract between the emitter and the team integrator, team.h) run by
 * emulated teams of 1 … 128 lanes, in both orders, against the same model written
 * out (example_team_written.h): the same bits for a team of one and for both
 * orders of every team; within rounding (the order of the sums) otherwise.  And
 * the emulation itself: a missing barrier and a barrier some lanes skip are seen. */
#define _DEFAULT_SOURCE 1   /* ucontext, _setjmp (emulate.c) */
#define ODE_TEAM_EMULATE 1
#define ODE_JAC_SET(J, e, r, c, v) ode_jac_set_checked((J), (e), (r), (c), (v))
#include <stdio.h>
#include <stdlib.h>
static void ode_jac_set_checked(double *J, int e, int r, int c, double v);
#include "example_team_model.h"
#include "emulate.h"
#include "emulate.c"
#include "ref_written.h"

#define N ODE_NSTATE
static int failures;
static int jac_seen[ODE_JAC_NNZ];
static int jac_row[ODE_JAC_NNZ], jac_col[ODE_JAC_NNZ];

static void ode_jac_set_checked(double *J, int e, int r, int c, double v)
{
    if (e < 0 || e >= ODE_JAC_NNZ || r < 0 || r >= N || c < 0 || c >= N) {
        printf("FAIL: ODE_JAC_SET(%d, %d, %d) out of range\n", e, r, c);
        failures++;
        return;
    }
    jac_seen[e]++;
    jac_row[e] = r;
    jac_col[e] = c;
    J[r * N + c] = v;
}

typedef struct Args {
    OdeSystem *s;
    double t, *y, *dir, dy[N], g[ODE_NEVENT], gv[ODE_NEVENT], J[N * N], ft[N];
    double scratch[ODE_ALLOC(ODE_NSCRATCH)];
} Args;

static void all_functions(OdeTeam ode_team, void *arg)
{
    Args *a = arg;
    OdeTrig tr, trf;
    ode_model_trig(a->s, a->t, &tr);
    ode_model_trig_full(a->s, a->t, &trf);
    ode_model_rhs_team(a->s, a->t, a->y, a->dy, &tr, a->scratch, ode_team);
    ODE_TEAM_SYNC();   /* (the scratch is used again below) */
    ode_model_events_team(a->s, a->t, a->y, a->g, a->scratch, ode_team);
    ode_model_events_jvp_team(a->s, a->t, a->y, a->dir, 0.7, a->gv, a->scratch, ode_team);
    ode_model_jac_team(a->s, a->t, a->y, a->J, &tr, a->scratch, ode_team);
    ode_model_dfdt_team(a->s, a->t, a->y, a->ft, &trf, a->scratch, ode_team);
}

/* Largest difference relative to 1 + |reference|; bits: 1 when every value is the same double. */
static double compare(const double *x, const double *ref, int n, int *bits)
{
    double worst = 0;
    *bits = 1;
    for (int i = 0; i < n; i++) {
        double d = fabs(x[i] - ref[i]) / (1 + fabs(ref[i]));
        if (d > worst) worst = d;
        if (memcmp(&x[i], &ref[i], sizeof(double))) *bits = 0;
    }
    return worst;
}

static void check(const char *what, int size, int order, const double *x, const double *ref, int n)
{
    int bits;
    double d = compare(x, ref, n, &bits);
    if ((size == 1 && !bits) || d > 1e-14) {
        printf("FAIL: %s, team of %d (order %d): differs from the model written out by %.3g%s\n", what, size, order, d,
               size == 1 ? " (a team of one must give the same bits)" : "");
        failures++;
    }
}

/* ---- the emulation finds what it is for ---- */
static double broken_u[64], broken_out[64];
static void missing_barrier(OdeTeam ode_team, void *arg)
{
    (void)arg;
    ODE_TEAM_FOR(j, 64) broken_u[j] = 1.0 + j;
    /* (no ODE_TEAM_SYNC() here) */
    ODE_TEAM_FOR(j, 64) broken_out[j] = broken_u[(j + 1) % 64];
}
static void divergent_barrier(OdeTeam ode_team, void *arg)
{
    (void)arg;
    if (ODE_TEAM_MINE(0)) ODE_TEAM_SYNC();   /* only lane 0 reaches it */
}

int main(void)
{
    unsigned long long seed = 12345;
    for (int point = 0; point < 20; point++) {
        double y[N], p[ODE_NPARAM], dir[N], acc[2];
        int count[ODE_NEVENT];
        for (int i = 0; i < N; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            y[i] = ((double)(seed >> 11) / 9007199254740992.0 - 0.5) * 3;
            dir[i] = sin(1.7 * i + point);
        }
        for (int i = 0; i < ODE_NPARAM; i++) p[i] = ode_param_default[i] * (1 + 0.1 * sin(i + point));
        const double t = 0.37 * point;
        double rdy[N], rg[ODE_NEVENT], rgv[ODE_NEVENT], rJ[N * N], rft[N];
        ref_rhs(p, t, y, rdy);
        ref_events(p, t, y, rg);
        ref_events_jvp(p, t, y, dir, 0.7, rgv);
        ref_jac(p, t, y, rJ);
        ref_dfdt(p, t, y, rft);
        OdeSystem s;
        memset(&s, 0, sizeof s);
        s.y = y;
        s.p = p;
        s.acc = acc;
        s.count = count;
        for (int size = 1; size <= 128; size *= 2)
            for (int order = 0; order < 2; order++) {
                static Args a, first;
                memset(&a, 0, sizeof a);
                memset(jac_seen, 0, sizeof jac_seen);
                a.s = &s;
                a.t = t;
                a.y = y;
                a.dir = dir;
                if (ode_team_emu_run(size, order, all_functions, &a, NULL)) {
                    printf("FAIL: team of %d: the lanes reached different barriers\n", size);
                    failures++;
                }
                check("rhs", size, order, a.dy, rdy, N);
                check("events", size, order, a.g, rg, ODE_NEVENT);
                check("events_jvp", size, order, a.gv, rgv, ODE_NEVENT);
                check("jac", size, order, a.J, rJ, N * N);
                check("dfdt", size, order, a.ft, rft, N);
                for (int e = 0; e < ODE_JAC_NNZ; e++)
                    if (jac_seen[e] != 1) {
                        printf("FAIL: Jacobian entry %d written %d times (team of %d)\n", e, jac_seen[e], size);
                        failures++;
                    }
                for (int i = 0; i < N * N; i++) {   /* entries outside the list are zero */
                    int listed = 0;
                    for (int e = 0; e < ODE_JAC_NNZ; e++) listed |= jac_row[e] * N + jac_col[e] == i;
                    if (!listed && rJ[i] != 0) {
                        printf("FAIL: J[%d][%d] = %g is not in the entry list\n", i / N, i % N, rJ[i]);
                        failures++;
                    }
                }
                if (order == 0) first = a;
                else if (memcmp(first.dy, a.dy, sizeof a.dy) || memcmp(first.J, a.J, sizeof a.J) ||
                         memcmp(first.g, a.g, sizeof a.g)) {
                    printf("FAIL: team of %d: the lanes' order changed the bits (a missing barrier)\n", size);
                    failures++;
                }
            }
    }
    /* The emulation's own checks. */
    double fwd[64];
    ode_team_emu_run(8, 0, missing_barrier, NULL, NULL);
    memcpy(fwd, broken_out, sizeof fwd);
    ode_team_emu_run(8, 1, missing_barrier, NULL, NULL);
    if (!memcmp(fwd, broken_out, sizeof fwd)) {
        printf("FAIL: the emulation does not show a missing barrier\n");
        failures++;
    }
    fprintf(stderr, "(expected: a report of different barriers)\n");
    if (!ode_team_emu_run(4, 0, divergent_barrier, NULL, NULL)) {
        printf("FAIL: the emulation does not see a barrier that some lanes skip\n");
        failures++;
    }
    printf("contract: 20 points, teams of 1 … 128 lanes in both orders: %s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
