/* mpi_watch.c — an MPI runner's ranks watching one another (built with make
 * MPI=1, -DODE_MPI): the waits of mpi_chunks.c and mpi_runner.c (for a chunk's
 * results, for the manager's answer, in collectives) go through
 * ode_watch_wait, which sleeps instead of spinning and, while the run is
 * watched, notices a rank that has stopped answering (SIGSTOP, a hung node):
 * every `every` seconds of its silence one line on stderr says which rank,
 * and after `timeout` seconds (--mpi-timeout) the job ends with a message
 * naming it and status 1 (rank 0 first commits the checkpoint, so that
 * --resume continues, and removes the unfinished output: give_up).
 *
 * A rank is silent when nothing came from it for a while.  So that a rank at
 * work is not taken for a silent one, every rank shows signs of life on a
 * communicator of its own, so that they never meet the chunks' messages:
 *   worker → 0   BEAT    (empty)   every `beat` seconds while it waits, and while it
 *                                  integrates (its solvers' progress callback:
 *                                  whenever one of its systems is done)
 *   0 → worker   ALIVE   (empty)   every `beat` seconds while rank 0 waits or manages
 * Rank 0 watches every rank; the others watch rank 0.  What counts as
 * silence is also a rank's own long work without a wait: one system's
 * integration on the CPU, or rank 0 opening and closing the output — the
 * timeout must be longer than those (README: MPI).
 *
 * The library's model_mpi_scan does not watch (ode_watch.on is 0): its
 * waits only sleep.
 */
#ifdef ODE_MPI
#ifndef ODEGEN_GENERATED
#include "runner.c"
#endif
#ifndef MPI_VERSION
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ODE_HOST 64   /* a node's name, as MPI gives it (cut) */

enum { ODE_TAG_BEAT = 7101, ODE_TAG_ALIVE };

typedef struct OdeWatch {
    int on;
    MPI_Comm comm;                 /* a duplicate of the job's */
    int rank, size;
    double timeout;                /* seconds of silence that end the job; 0: never */
    double every;                  /* seconds between reports of a silence; 0: none */
    double beat;                   /* seconds between this rank's signs of life */
    double *heard;                 /* when each rank was last heard from (a worker: [0] only) */
    double last_sent;              /* this rank's last sign of life */
    double last_report;
    const char (*hosts)[ODE_HOST];
    int *line_shown;               /* rank 0: a progress line on the terminal, to clear first */
    void (*give_up)(void *ctx);    /* rank 0, before the job ends */
    void *ctx;
} OdeWatch;

static OdeWatch ode_watch;   /* one run at a time in a process */

static double ode_watch_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Sleeps a little longer each time nothing happens: 20 µs doubling to 1 ms. */
static void ode_mpi_nap(int *idle)
{
    long ns = 20000L << (*idle < 6 ? *idle : 6);
    if (ns > 1000000L) ns = 1000000L;
    struct timespec ts;
    ts.tv_sec = 0;
    ts.tv_nsec = ns;
    nanosleep(&ts, NULL);
    (*idle)++;
}

/* Collective over job: watching from now on, when timeout or every asks for
 * it (the same on every rank: they parsed the same command line).  hosts:
 * every rank's node, for messages. */
static int ode_watch_open(MPI_Comm job, double timeout, double every, const char (*hosts)[ODE_HOST])
{
    memset(&ode_watch, 0, sizeof ode_watch);
    ode_watch.comm = MPI_COMM_NULL;
    if (!(timeout > 0) && !(every > 0)) return 0;
    double beat = 10;
    if (timeout > 0 && timeout / 4 < beat) beat = timeout / 4;
    if (every > 0 && every / 4 < beat) beat = every / 4;
    if (beat < 0.1) beat = 0.1;
    MPI_Comm_rank(job, &ode_watch.rank);
    MPI_Comm_size(job, &ode_watch.size);
    ode_watch.heard = (double *)malloc(sizeof(double) * (size_t)ode_watch.size);
    int ok = ode_watch.heard != NULL, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, job);
    if (!all || MPI_Comm_dup(job, &ode_watch.comm) != MPI_SUCCESS) {
        free(ode_watch.heard);
        ode_watch.heard = NULL;
        return -1;
    }
    MPI_Comm_set_errhandler(ode_watch.comm, MPI_ERRORS_RETURN);
    const double now = ode_watch_clock();
    for (int k = 0; k < ode_watch.size; k++) ode_watch.heard[k] = now;
    ode_watch.timeout = timeout > 0 ? timeout : 0;
    ode_watch.every = every > 0 ? every : 0;
    ode_watch.beat = beat;
    ode_watch.last_sent = ode_watch.last_report = now;
    ode_watch.hosts = hosts;
    ode_watch.on = 1;
    return 0;
}

/* Rank 0: what to do before a timeout ends the job (commit the checkpoint,
 * remove the unfinished output), and the terminal's progress line. */
static void ode_watch_rank0(void (*give_up)(void *ctx), void *ctx, int *line_shown)
{
    ode_watch.give_up = give_up;
    ode_watch.ctx = ctx;
    ode_watch.line_shown = line_shown;
}

/* Collective: the end of watching.  What is still on the way is dropped
 * with the communicator. */
static void ode_watch_close(void)
{
    if (ode_watch.on) MPI_Comm_free(&ode_watch.comm);
    free(ode_watch.heard);
    memset(&ode_watch, 0, sizeof ode_watch);
    ode_watch.comm = MPI_COMM_NULL;
}

/* Rank 0's manager heard from rank k (any message). */
static void ode_watch_heard(int k)
{
    if (ode_watch.on && k >= 0 && k < ode_watch.size) ode_watch.heard[k] = ode_watch_clock();
}

/* Takes in the signs of life that came, and gives this rank's when due. */
static void ode_watch_pulse(void)
{
    if (!ode_watch.on) return;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        if (MPI_Iprobe(ode_watch.rank == 0 ? MPI_ANY_SOURCE : 0, MPI_ANY_TAG, ode_watch.comm, &flag, &st) != MPI_SUCCESS ||
            !flag)
            break;
        char none;
        MPI_Recv(&none, 0, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, ode_watch.comm, MPI_STATUS_IGNORE);
        ode_watch_heard(st.MPI_SOURCE);
    }
    const double now = ode_watch_clock();
    if (now - ode_watch.last_sent < ode_watch.beat) return;
    ode_watch.last_sent = now;
    for (int k = ode_watch.rank == 0 ? 1 : 0; k < (ode_watch.rank == 0 ? ode_watch.size : 1); k++) {
        MPI_Request req;
        if (MPI_Isend(NULL, 0, MPI_BYTE, k, ode_watch.rank == 0 ? ODE_TAG_ALIVE : ODE_TAG_BEAT, ode_watch.comm, &req) ==
            MPI_SUCCESS)
            MPI_Request_free(&req);
    }
}

/* A solver's progress callback on a worker: a sign of life while it integrates. */
static int ode_watch_progress(void *user, long done, long total)
{
    (void)user;
    (void)done;
    (void)total;
    ode_watch_pulse();
    return 0;
}

/* The ranks silent for at least `seconds`, as text ("rank 2 (node)", "ranks
 * 2 (node), 5 (node)"); their number. */
static int ode_watch_silent(double now, double seconds, char *text, size_t size)
{
    int n = 0;
    size_t used = 0;
    text[0] = 0;
    const int last = ode_watch.rank == 0 ? ode_watch.size : 1;
    for (int k = 0; k < last; k++) {
        if (k == ode_watch.rank || now - ode_watch.heard[k] < seconds) continue;
        if (used < size)
            used += (size_t)snprintf(text + used, size - used, "%s%d (%s)", n ? ", " : "", k,
                                     ode_watch.hosts ? ode_watch.hosts[k] : "?");
        n++;
    }
    return n;
}

/* While waiting (for `what`): reports of a silence every `every` seconds,
 * and the end of the job after `timeout` seconds of it. */
static void ode_watch_check(const char *what)
{
    if (!ode_watch.on) return;
    ode_watch_pulse();
    const double now = ode_watch_clock();
    char who[400];
    if (ode_watch.timeout > 0) {
        const int n = ode_watch_silent(now, ode_watch.timeout, who, sizeof who);
        if (n > 0) {
            if (ode_watch.line_shown && *ode_watch.line_shown) fputs("\r\033[K", stderr);
            fprintf(stderr, "%s: error: rank%s %s %s not answered for %g s (rank %d: %s): --mpi-timeout ends the job\n",
                    ODE_MODEL_NAME, n > 1 ? "s" : "", who, n > 1 ? "have" : "has", ode_watch.timeout, ode_watch.rank,
                    what);
            fflush(stderr);
            if (ode_watch.give_up) ode_watch.give_up(ode_watch.ctx);
            MPI_Abort(ode_watch.comm, ODE_EXIT_RUNTIME);
            _exit(ODE_EXIT_RUNTIME);   /* (MPI_Abort does not return) */
        }
    }
    if (ode_watch.every > 0 && now - ode_watch.last_report >= ode_watch.every) {
        const int n = ode_watch_silent(now, ode_watch.every, who, sizeof who);
        if (n > 0) {
            ode_watch.last_report = now;
            double longest = 0;
            for (int k = 0; k < (ode_watch.rank == 0 ? ode_watch.size : 1); k++)
                if (k != ode_watch.rank && now - ode_watch.heard[k] > longest) longest = now - ode_watch.heard[k];
            if (ode_watch.line_shown && *ode_watch.line_shown) {
                fputs("\r\033[K", stderr);
                *ode_watch.line_shown = 0;
            }
            fprintf(stderr, "%s: rank%s %s %s not answered for %.0f s (rank %d: %s)%s\n", ODE_MODEL_NAME,
                    n > 1 ? "s" : "", who, n > 1 ? "have" : "has", longest, ode_watch.rank, what,
                    ode_watch.timeout > 0 ? "" : "; --mpi-timeout S would end the job after S s");
            fflush(stderr);
        }
    }
}

/* MPI_Wait that sleeps instead of spinning, and watches (`what`: what is
 * waited for, for messages).  0, or -1 when MPI failed. */
static int ode_watch_wait(MPI_Request *req, const char *what)
{
    int done = 0, idle = 0;
    for (;;) {
        if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
        if (done) return 0;
        ode_watch_check(what);
        ode_mpi_nap(&idle);
    }
}

#endif /* ODE_MPI */
