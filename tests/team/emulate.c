/* emulate.c — a team of threads emulated on the host (templates/team.h's
 * ODE_TEAM_EMULATE): every lane is a coroutine (ucontext) that runs until
 * its next barrier; when every lane waits at a barrier, the next phase
 * begins.  Lanes run in increasing order, or in decreasing order
 * (ODE_TEAM_EMU_REVERSE), so that a value read before the barrier that
 * should have separated it from its writer gives different bits in the two
 * orders.  A barrier that some lanes reach and others do not (or reach at
 * another place) is reported and the run is stopped: on a GPU it would hang
 * or corrupt the team.
 *
 * A lane is entered the first time by swapcontext (which gives it its own
 * stack) and afterwards by _longjmp, which unlike swapcontext saves no
 * signal mask (no system call per switch: a test switches millions of
 * times).  With _FORTIFY_SOURCE (Ubuntu's compilers define it by default),
 * glibc's setjmp.h renames every longjmp to __longjmp_chk, which aborts
 * ("longjmp causes uninitialized stack frame") when the jump goes to another
 * stack, as a switch of lanes does; and an #undef here comes too late when
 * the file that includes this one has included a glibc header first.  So the
 * jump is glibc's own _longjmp symbol, named by an asm label (emu_jump):
 * unaffected by _FORTIFY_SOURCE, under gcc and clang alike.
 */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE 1
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "emulate.h"

/* _longjmp itself, not the fortified __longjmp_chk (see above) */
extern void emu_jump(struct __jmp_buf_tag env[1], int value) __asm__("_longjmp") __attribute__((noreturn));

#define EMU_STACK (512 * 1024)

struct OdeTeamEmu {
    int size, order;
    ucontext_t main;
    ucontext_t *ctx;                       /* each lane's first entry */
    jmp_buf sched;                         /* the scheduler, where a lane goes at a barrier */
    jmp_buf *lane;                         /* where each lane waits */
    int *started;
    char *stacks;
    int *site;           /* where each lane waits (-1: finished) */
    double *slots;       /* gather: every lane's value */
    void (*fn)(OdeTeam team, void *arg);
    void *arg;
    long phases;
    int failed;
};

static OdeTeamEmu *running;   /* the emulation whose lanes are running (one at a time) */
static int lane_arg[ODE_TEAM_EMU_MAX];

static void lane_main(int lane)
{
    OdeTeamEmu *emu = running;
    OdeTeam team = ode_team_one();
    team.lane = lane;
    team.size = emu->size;
    team.emu = emu;
    emu->fn(team, emu->arg);
    emu->site[lane] = -1;
    emu_jump(emu->sched, 1);
}

void ode_team_emu_sync(OdeTeamEmu *emu, int lane, int site)
{
    emu->site[lane] = site;
    if (!_setjmp(emu->lane[lane])) emu_jump(emu->sched, 1);
    if (emu->failed) {   /* the run was abandoned: unwind no further work */
        emu->site[lane] = -1;
        emu_jump(emu->sched, 1);
    }
}

/* Runs lane l until its next barrier or its end. */
static void emu_resume(OdeTeamEmu *emu, int l)
{
    if (_setjmp(emu->sched)) return;
    if (!emu->started[l]) {
        emu->started[l] = 1;
        swapcontext(&emu->main, &emu->ctx[l]);
    } else {
        emu_jump(emu->lane[l], 1);
    }
}

void ode_team_emu_gather(OdeTeamEmu *emu, int lane, int site, double v, double *all)
{
    ode_team_emu_sync(emu, lane, site);    /* (what the lanes wrote before it is complete) */
    emu->slots[lane] = v;
    ode_team_emu_sync(emu, lane, site);
    memcpy(all, emu->slots, sizeof(double) * (size_t)emu->size);
    ode_team_emu_sync(emu, lane, site);    /* the slots are free again */
}

int ode_team_emu_run(int size, int order, void (*fn)(OdeTeam team, void *arg), void *arg, long *phases)
{
    if (size < 1 || size > ODE_TEAM_EMU_MAX) {
        fprintf(stderr, "emulate: a team of %d lanes (1 … %d)\n", size, ODE_TEAM_EMU_MAX);
        return 1;
    }
    OdeTeamEmu emu;
    memset(&emu, 0, sizeof emu);
    emu.size = size;
    emu.order = order;
    emu.fn = fn;
    emu.arg = arg;
    emu.ctx = calloc((size_t)size, sizeof(ucontext_t));
    emu.lane = calloc((size_t)size, sizeof(jmp_buf));
    emu.started = calloc((size_t)size, sizeof(int));
    emu.stacks = malloc((size_t)size * EMU_STACK);
    emu.site = calloc((size_t)size, sizeof(int));
    emu.slots = calloc((size_t)size, sizeof(double));
    if (!emu.ctx || !emu.lane || !emu.started || !emu.stacks || !emu.site || !emu.slots) {
        fprintf(stderr, "emulate: out of memory\n");
        exit(2);
    }
    OdeTeamEmu *outer = running;
    running = &emu;
    for (int l = 0; l < size; l++) {
        getcontext(&emu.ctx[l]);
        emu.ctx[l].uc_stack.ss_sp = emu.stacks + (size_t)l * EMU_STACK;
        emu.ctx[l].uc_stack.ss_size = EMU_STACK;
        emu.ctx[l].uc_link = NULL;
        lane_arg[l] = l;
        makecontext(&emu.ctx[l], (void (*)(void))lane_main, 1, lane_arg[l]);
    }
    for (;;) {
        for (int q = 0; q < size; q++) {
            const int l = order ? size - 1 - q : q;
            if (emu.site[l] != -1) emu_resume(&emu, l);
        }
        emu.phases++;
        int finished = 0;
        for (int l = 0; l < size; l++) finished += emu.site[l] == -1;
        if (finished == size) break;
        int same = finished == 0;
        for (int l = 1; l < size && same; l++) same = emu.site[l] == emu.site[0];
        if (!same) {
            fprintf(stderr, "emulate: the lanes of a team of %d reached different barriers:", size);
            for (int l = 0; l < size; l++) {
                if (emu.site[l] < 0) fprintf(stderr, " lane %d at the end;", l);
                else fprintf(stderr, " lane %d at line %d;", l, emu.site[l]);
            }
            fprintf(stderr, "\n");
            emu.failed = 1;
            for (int l = 0; l < size; l++)   /* let every lane leave */
                while (emu.site[l] != -1) emu_resume(&emu, l);
            break;
        }
    }
    running = outer;
    if (phases) *phases = emu.phases;
    free(emu.ctx);
    free(emu.lane);
    free(emu.started);
    free(emu.stacks);
    free(emu.site);
    free(emu.slots);
    return emu.failed;
}
