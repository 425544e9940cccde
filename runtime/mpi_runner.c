/* mpi_runner.c — the runner under `mpirun -n R` (built with make MPI=1,
 * -DODE_MPI; SPEC §4): the scan's chunks handed out to the ranks as they
 * ask (mpi_chunks.c), one output written by rank 0 that is the file a
 * one-process run writes, byte for byte.
 *
 *   every rank   parses the same command line (only rank 0 prints), takes
 *                its share of its node (ode_mpi_share: the GPUs chosen by
 *                its place among the node's ranks that see the same GPUs,
 *                or the CPU cores divided among the ranks that run on the
 *                same cores), opens its part of the run (runner.c's phases),
 *                and agrees with the others after each phase (ode_mpi_agree:
 *                rank 0 prints what failed where);
 *   rank 0       also reads the checkpoint, estimates, opens the output and
 *                the checkpoint, manages the chunks, and writes every row:
 *                its own and the other ranks', in order, as they come;
 *   the others   integrate the chunks they get, prepare their rows into the
 *                output's blocks (CSV text, HDF5 hyperslabs) with their own
 *                threads and send them to rank 0.
 * Progress and the summary come from rank 0; a failing rank's message comes
 * from rank 0 too, naming the rank and its node, and no output appears
 * under the final name (a checkpoint keeps what was written).  The ranks
 * watch one another while they wait (mpi_watch.c): a rank that stops
 * answering is reported every --progress-every seconds, and --mpi-timeout
 * ends the job naming it.
 */
#ifdef ODE_MPI
#ifndef ODEGEN_GENERATED
#include "mpi_chunks.c"
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct OdeMpiRun {
    OdeJob job;
    MPI_Comm comm;
    int rank, size;
    char (*hosts)[ODE_HOST];
    OdeOutput out;                 /* rank 0 */
    OdeManager mgr;                /* rank 0 */
    OdeBlock replay;               /* rank 0: a resumed checkpoint's block */
    double progress_shown;         /* when the progress line was last drawn */
    double output_seconds;
    void *prepare_state;           /* the format, to prepare blocks */
    size_t block_bytes;
    int threads;
    OdeBlock *pool;                /* blocks being sent (2 groups of `threads`) */
    MPI_Request *sends;
} OdeMpiRun;

/* ------------------------------------------------------------------ agreeing */

/* The collectives of the run, waiting as mpi_watch.c does (a blocking
 * collective would wait for ever, silently, for a rank that stopped). */
static int ode_mpi_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    MPI_Request req;
    if (MPI_Iallreduce(in, out, count, type, op, comm, &req) != MPI_SUCCESS) return -1;
    return ode_watch_wait(&req, "agreeing on the run");
}

static int ode_mpi_gather(const void *in, int count, MPI_Datatype type, void *out, MPI_Comm comm)
{
    MPI_Request req;
    if (MPI_Igather(in, count, type, out, count, type, 0, comm, &req) != MPI_SUCCESS) return -1;
    return ode_watch_wait(&req, "agreeing on the run");
}

static int ode_mpi_bcast(void *data, int count, MPI_Datatype type, MPI_Comm comm, const char *what)
{
    MPI_Request req;
    if (MPI_Ibcast(data, count, type, 0, comm, &req) != MPI_SUCCESS) return -1;
    return ode_watch_wait(&req, what);
}

/* Collective: the worst status of the ranks (an error, else -1 when rank 0
 * stops after --help or --estimate, else 0).  Rank 0 prints the other
 * ranks' errors (its own were printed when they happened), each message
 * once, naming the first rank that had it. */
static int ode_mpi_agree(const OdeMpiRun *run, int status)
{
    int both[2] = {status, -status}, worst[2];
    ode_mpi_allreduce(both, worst, 2, MPI_INT, MPI_MAX, run->comm);
    if (worst[0] <= 0) return -worst[1];
    char (*messages)[sizeof ode_last_error] = NULL;
    int *statuses = NULL;
    if (run->rank == 0) {
        messages = (char(*)[sizeof ode_last_error])calloc((size_t)run->size, sizeof *messages);
        statuses = (int *)calloc((size_t)run->size, sizeof *statuses);
    }
    ode_mpi_gather(&status, 1, MPI_INT, statuses, run->comm);
    ode_mpi_gather(ode_last_error, (int)sizeof ode_last_error, MPI_CHAR, messages, run->comm);
    for (int k = 1; run->rank == 0 && messages && statuses && k < run->size; k++) {
        if (statuses[k] <= 0) continue;
        int seen = 0, also = 0;
        for (int j = 0; j < k && !seen; j++) seen = statuses[j] > 0 && strcmp(messages[j], messages[k]) == 0;
        if (seen) continue;
        for (int j = k + 1; j < run->size; j++) also += statuses[j] > 0 && strcmp(messages[j], messages[k]) == 0;
        fprintf(stderr, "%s: error: rank %d (%s)%s: %s\n", ODE_MODEL_NAME, k, run->hosts[k],
                also ? " and others" : "", messages[k]);
    }
    free(messages);
    free(statuses);
    return worst[0];
}

/* ------------------------------------------------------------------ a rank's share of its node */

/* Threads: the cores this rank may run on, divided among the node's ranks
 * that may run on the same ones (unless OMP_NUM_THREADS says).  GPUs: those
 * it sees (or --devices), divided among the node's ranks that see the same
 * ones, by their order: with as many ranks as GPUs, one GPU each. */
static void ode_mpi_share(OdeRunner *r, MPI_Comm node)
{
    int local;
    MPI_Comm_rank(node, &local);
#ifdef _OPENMP
    if (!getenv("OMP_NUM_THREADS")) {
        unsigned char mask[512];
        memset(mask, 0, sizeof mask);
        const long got = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
        int cores = 0;
        for (long i = 0; i < got && i < (long)sizeof mask; i++)
            for (int bit = 0; bit < 8; bit++) cores += (mask[i] >> bit) & 1;
        if (cores < 1) cores = omp_get_num_procs();
        MPI_Comm same;
        MPI_Comm_split(node, (int)(ode_fnv1a(ODE_FNV_START, mask, sizeof mask) & 0x7fffffff), local, &same);
        int sharing;
        MPI_Comm_size(same, &sharing);
        MPI_Comm_free(&same);
        omp_set_num_threads(cores / sharing > 1 ? cores / sharing : 1);
    }
#endif
    const int gpus = r->backend == MODEL_BACKEND_CPU ? 0 : model_gpu_count();
    if (gpus == 0) return;
    int list[ODE_MAX_DEVICES], n = 0;
    for (int k = 0; k < (r->ndevices ? r->ndevices : gpus) && n < ODE_MAX_DEVICES; k++)
        list[n++] = r->ndevices ? r->devices[k] : k;
    uint64_t key = ODE_FNV_START;
    for (int k = 0; k < n; k++) {
        char bus[64] = "";
#ifdef __CUDACC__
        if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, list[k]) != cudaSuccess) snprintf(bus, sizeof bus, "%d", list[k]);
#else
        snprintf(bus, sizeof bus, "%d", list[k]);
#endif
        key = ode_fnv1a(key, bus, strlen(bus) + 1);
    }
    MPI_Comm group;
    MPI_Comm_split(node, (int)(key & 0x7fffffff), local, &group);
    int ranks, mine;
    MPI_Comm_size(group, &ranks);
    MPI_Comm_rank(group, &mine);
    MPI_Comm_free(&group);
    r->ndevices = 0;
    if (ranks <= n) {
        for (int k = mine; k < n; k += ranks) r->devices[r->ndevices++] = list[k];
    } else {
        r->devices[r->ndevices++] = list[mine % n];   /* more ranks than GPUs: they share */
    }
}

/* "3 ranks on 1 node: CPU, 1 thread (×3)": the ranks' devices, alike ones counted. */
static void ode_mpi_describe(OdeMpiRun *run)
{
    OdeJob *job = &run->job;
    int local = 0, nodes = 0;
    MPI_Comm node;
    MPI_Comm_split_type(run->comm, MPI_COMM_TYPE_SHARED, run->rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    const int first = local == 0;
    ode_mpi_allreduce(&first, &nodes, 1, MPI_INT, MPI_SUM, run->comm);
    char (*all)[256] = run->rank == 0 ? (char(*)[256])calloc((size_t)run->size, 256) : NULL;
    ode_mpi_gather(job->device, 256, MPI_CHAR, all, run->comm);
    if (!all) return;
    char text[sizeof job->device];
    size_t used = (size_t)snprintf(text, sizeof text, "%d rank%s on %d node%s:", run->size, run->size == 1 ? "" : "s",
                                   nodes, nodes == 1 ? "" : "s");
    for (int k = 0; k < run->size && used < sizeof text; k++) {
        int seen = 0, same = 0;
        for (int j = 0; j < k && !seen; j++) seen = strcmp(all[j], all[k]) == 0;
        if (seen) continue;
        for (int j = k; j < run->size; j++) same += strcmp(all[j], all[k]) == 0;
        char times[16] = "";
        if (same > 1) snprintf(times, sizeof times, " (x%d)", same);
        used += (size_t)snprintf(text + used, sizeof text - used, "%s %s%s", k ? ";" : "", all[k], times);
    }
    snprintf(job->device, sizeof job->device, "%s", text);
    free(all);
}

/* ------------------------------------------------------------------ a rank's work */

static int ode_mpi_start(void *ctx, int slot, const OdeAssign *a, char *error, size_t size)
{
    OdeMpiRun *run = (OdeMpiRun *)ctx;
    OdeJob *job = &run->job;
    if (!ode_chunk_start(&job->chunks, slot, &job->plan, job->r, a->first, (int)a->count)) return 0;
    snprintf(error, size, "%s", ode_last_error);
    return 1;
}

/* A finished chunk's rows as the output takes them, and how they are cut into blocks. */
static void ode_mpi_cut(OdeMpiRun *run, int slot, const OdeAssign *a, OdeChunkView *view, OdeCut *cut)
{
    ode_chunk_view(run->job.chunks.solver[slot], run->job.r, a->first, view);
    ode_cut_plan(cut, view, run->job.format->bound(run->prepare_state, 1, 1), run->block_bytes);
}

static int ode_mpi_finish(void *ctx, int slot, const OdeAssign *a, OdeDone *d, char *error, size_t size)
{
    OdeMpiRun *run = (OdeMpiRun *)ctx;
    model_solver *s = run->job.chunks.solver[slot];
    model_stats st;
    if (ode_finish(s) != MODEL_OK || model_solver_stats(s, &st) != MODEL_OK) {
        snprintf(error, size, "%s", model_solver_error(s));
        return 1;
    }
    d->steps = st.steps;
    d->evals = st.evals;
    for (int k = 0; k < MODEL_NSTATUS; k++) d->count[k] = st.count[k];
    d->lyap_off = st.lyap_trace_off;
    d->seconds = s->kernel_seconds;
    OdeChunkView view;
    OdeCut cut;
    ode_mpi_cut(run, slot, a, &view, &cut);
    d->nblocks = cut.pieces;
    return 0;
}

/* The chunk's rows, prepared a group of blocks at a time (one per thread),
 * to rank 0: through memory on rank 0, as BLOCK messages elsewhere (each
 * buffer sent while the next group is prepared). */
/* `attractor`: the chunk's fingerprints to rank 0, which groups them in the
 * order of the chunks; where the rows hold the field `attractor`, their
 * labels come back and go into the rows before they are prepared. */
static int ode_mpi_prints(OdeMpiRun *run, int slot, const OdeAssign *a, OdeLink *l, char *error, size_t size)
{
    if (!ode_att_wanted(run->job.r)) return 0;
    model_solver *s = run->job.chunks.solver[slot];
    size_t bytes;
    const void *fp = ode_att_fingerprints(s, &bytes);
    int recorded = 0;   /* the rows hold the labels */
    for (int f = 0; f < run->job.r->nfield; f++) recorded |= run->job.r->fields[f] == ODE_NFIELD - 1;
    int *labels = recorded ? (int *)malloc(sizeof(int) * (size_t)(a->count + 1)) : NULL;
    int rc = recorded && !labels ? -1 : ode_link_prints(l, a, fp, bytes, labels);
    if (!rc && labels) ode_att_put_labels(s, labels + 1);
    free(labels);
    if (rc) snprintf(error, size, "no attractor labels for systems %lld to %lld from rank 0", a->first,
                     a->first + a->count - 1);
    return rc ? 1 : 0;
}

static int ode_mpi_deliver(void *ctx, int slot, const OdeAssign *a, OdeLink *l, char *error, size_t size)
{
    OdeMpiRun *run = (OdeMpiRun *)ctx;
    const OdeFormat *format = run->job.format;
    if (ode_mpi_prints(run, slot, a, l, error, size)) return 1;
    OdeChunkView view;
    OdeCut cut;
    ode_mpi_cut(run, slot, a, &view, &cut);
    const int threads = run->threads;
    for (long long piece = 0, group_index = 0; piece < cut.pieces; piece += threads, group_index++) {
        const int group = (int)(cut.pieces - piece < threads ? cut.pieces - piece : threads);
        OdeBlock *blocks = run->pool + (group_index % 2) * threads;
        MPI_Request *sends = run->sends + (group_index % 2) * threads;
        for (int j = 0; j < group; j++) {
            if (!l->m && sends[j] != MPI_REQUEST_NULL && ode_watch_wait(&sends[j], "sending rows to rank 0")) {
                snprintf(error, size, "MPI failed sending rows to rank 0");
                return 1;
            }
            sends[j] = MPI_REQUEST_NULL;
            ode_cut_block(&cut, &view, piece + j, &blocks[j]);
            if (ode_output_room(&blocks[j], format->bound(run->prepare_state, blocks[j].nsys, blocks[j].nrep) +
                                                 sizeof(OdeLogRecord))) {
                snprintf(error, size, "out of memory for the rows' blocks");
                return 1;
            }
        }
        void *state = run->prepare_state;
#pragma omp parallel for num_threads(group) schedule(static, 1)
        for (int j = 0; j < group; j++) format->prepare(state, &view, &blocks[j]);
        for (int j = 0; j < group; j++) {
            OdeBlock *b = &blocks[j];
            if (l->m) {
                ode_link_local_block(l, a->index, b);   /* takes the data */
                continue;
            }
            const OdeLogRecord rec = ode_ck_record(b);   /* after the bytes: see ode_mgr_receive */
            memcpy(b->data + b->bytes, &rec, sizeof rec);
            if (MPI_Isend(b->data, (int)(b->bytes + sizeof rec), MPI_BYTE, 0, ODE_TAG_BLOCK, l->comm, &sends[j]) !=
                MPI_SUCCESS) {
                snprintf(error, size, "MPI failed sending rows to rank 0");
                return 1;
            }
        }
    }
    for (int j = 0; !l->m && j < 2 * threads; j++) {
        if (run->sends[j] != MPI_REQUEST_NULL && ode_watch_wait(&run->sends[j], "sending rows to rank 0")) {
            snprintf(error, size, "MPI failed sending rows to rank 0");
            return 1;
        }
        run->sends[j] = MPI_REQUEST_NULL;
    }
    return 0;
}

/* ------------------------------------------------------------------ rank 0's sink */

static void ode_mpi_sink_chunk(void *sink, const OdeMChunk *c)
{
    OdeMpiRun *run = (OdeMpiRun *)sink;
    OdeJob *job = &run->job;
    model_stats st;
    memset(&st, 0, sizeof st);
    st.steps = c->stats.steps;
    st.evals = c->stats.evals;
    for (int k = 0; k < MODEL_NSTATUS; k++) st.count[k] = (long)c->stats.count[k];
    st.lyap_trace_off = (long)c->stats.lyap_off;
    ode_ck_stats_add(&job->sum, &st);
    job->integration += c->stats.seconds;
    job->progress.finished += c->count;
    ode_ck_chunk(&job->ck, c->first, c->count, &st, c->prints, c->prints_bytes);
    const double now = ode_clock();
    if (job->progress.on == ODE_PROGRESS_LOG || (job->progress.on && now - run->progress_shown >= 0.1)) {
        ode_progress(&job->progress, 0, 0);
        run->progress_shown = now;
    }
}

static void ode_mpi_sink_block(void *sink, OdeBlock *b) { ode_output_put(&((OdeMpiRun *)sink)->out, b); }

static int ode_mpi_sink_replay(void *sink)
{
    OdeMpiRun *run = (OdeMpiRun *)sink;
    char error[600];
    const int got = ode_ck_replay(&run->job.ck, &run->replay, error, sizeof error);
    if (got < 0) fprintf(stderr, "%s: error: %s\n", ODE_MODEL_NAME, error);
    if (got > 0 && ode_job_replayed(&run->job, &run->out, &run->replay, got)) {
        fprintf(stderr, "%s: error: %s\n", ODE_MODEL_NAME, ode_last_error);
        return -1;
    }
    return got > 0 ? 1 : got;
}

/* `attractor`: chunk c's fingerprints grouped into rank 0's table, in order. */
static int ode_mpi_sink_group(void *sink, const OdeMChunk *c, int *labels, char *error, size_t size)
{
    OdeMpiRun *run = (OdeMpiRun *)sink;
    if (!ode_att_group_kept(run->job.attractors, c->first, (int)c->count, c->prints, c->prints_bytes, labels)) return 0;
    snprintf(error, size, "%s", ode_last_error);
    return 1;
}

/* ------------------------------------------------------------------ the run */

/* SIGINT and SIGTERM on a rank other than 0 (rank 0 speaks for the job, and
 * commits the checkpoint): the same exit status, silently, so that a batch
 * script sees 143 from every rank when the scheduler warned them all. */
static void ode_mpi_on_signal(int sig) { _exit(ODE_EXIT_SIGNAL_BASE + sig); }

/* The chunk size: as memory allows on every rank (the smallest), and small
 * enough that each computing rank gets several (8 per solver), so that
 * uneven systems balance; on GPUs no smaller than the largest number of
 * systems one rank's GPUs run at once; or --chunk. */
static int ode_mpi_chunks(OdeMpiRun *run, int workers)
{
    OdeJob *job = &run->job;
    const OdeRunner *r = job->r;
    const int slots = job->backend == MODEL_BACKEND_GPU ? 2 : 1;
    int status = 0;
    long long capacity = ode_chunk_capacity(r, job->backend, slots, &status);
    status = ode_mpi_agree(run, status);
    if (status) return status;
    long long most, resident;
    ode_mpi_allreduce(&capacity, &most, 1, MPI_LONG_LONG, MPI_MIN, run->comm);
    ode_mpi_allreduce(&job->resident, &resident, 1, MPI_LONG_LONG, MPI_MAX, run->comm);
    const long long left = job->total - job->chunks.begin;
    double want = ceil((double)left / (8.0 * workers * slots));
    const double least = job->backend == MODEL_BACKEND_GPU ? (double)resident : 64.0;
    if (want < least) want = least;
    if (r->chunk > 0) want = (double)r->chunk;
    job->chunks.size = ode_chunk_even(left > 0 ? left : 1, want < (double)most ? (long long)want : most);
    job->chunks.count = left > 0 ? (left + job->chunks.size - 1) / job->chunks.size : 0;
    return 0;
}

/* Rank 0, before the run: the estimate, the output, the checkpoint's files
 * and thread, and the manager with its sink. */
static int ode_mpi_rank0(OdeMpiRun *run, int computes)
{
    OdeJob *job = &run->job;
    ode_progress_init(&job->progress, job->r);
    int status = ode_job_estimate(job, job->progress.on == ODE_PROGRESS_TERMINAL || job->r->estimate_only);
    if (!status) status = ode_job_output(job, &run->out);
    if (!status && ode_mgr_init(&run->mgr, run->comm, job->chunks.begin, job->total, job->chunks.size, computes))
        status = ode_runtime("out of memory");
    run->mgr.sink = run;
    run->mgr.sink_chunk = ode_mpi_sink_chunk;
    run->mgr.sink_block = ode_mpi_sink_block;
    run->mgr.sink_replay = ode_mpi_sink_replay;
    run->mgr.sink_group = ode_mpi_sink_group;
    run->mgr.grouping = job->attractors != NULL;
    run->mgr.replaying = job->ck.on;
    return status;
}

/* Rank 0, after the run: what failed where, or the output completed; the
 * checkpoint removed or committed.  The status every rank returns. */
static int ode_mpi_close(OdeMpiRun *run, int status)
{
    OdeJob *job = &run->job;
    if (run->mgr.failed) {
        const int k = run->mgr.failed - 1;
        fprintf(stderr, "%s%s: error: rank %d (%s) failed: %s\n", job->progress.shown ? "\r\033[K" : "", ODE_MODEL_NAME, k,
                run->hosts[k], run->mgr.failure);
        job->progress.shown = 0;
        status = 1;
    }
    if (job->progress.shown) fputs("\r\033[K", stderr);
    if (!status) status = ode_att_rows(job->attractors, job->r, &job->info);   /* (the HDF5 output writes them) */
    if (!status && ode_output_close(&run->out)) status = ode_runtime("%s", run->out.error);
    if (!status) status = ode_att_write_csv(job->attractors, job->r);
    run->output_seconds = run->out.prepare_seconds + run->out.write_seconds;
    ode_output_free(&run->out);
    const int ck_status = ode_ck_finish(&job->ck, status == 0, ode_runtime);
    return status ? status : ck_status;
}

/* Rank 0, when --mpi-timeout ends the job (mpi_watch.c): what is done
 * committed to the checkpoint, for --resume, and the unfinished output
 * removed. */
static void ode_mpi_give_up(void *ctx)
{
    OdeMpiRun *run = (OdeMpiRun *)ctx;
    OdeCheckpoint *ck = &run->job.ck;
    ode_silent = 0;   /* the job ends here: rank 0 says what it keeps */
    if (ck->thread_started && ode_ck_finish(ck, 0, ode_runtime) == 0)
        fprintf(stderr, "%s: checkpoint '%s' keeps %lld of %lld systems: the same command with --resume continues\n",
                ODE_MODEL_NAME, ck->path, ck->committed > 0 ? ck->committed : 0, ck->systems);
    if (ode_signal_side_path[0]) unlink(ode_signal_side_path);
    if (ode_signal_path[0]) unlink(ode_signal_path);
}

static int ode_mpi_phases(OdeMpiRun *run, OdeRunner *r, int threads_ok);

/* The run, its ranks watching one another (mpi_watch.c) from here to its end. */
static int ode_mpi_run(OdeMpiRun *run, OdeRunner *r, int threads_ok)
{
    if (ode_watch_open(run->comm, r->mpi_timeout, r->progress_every, (const char(*)[ODE_HOST])run->hosts))
        return ode_mpi_agree(run, ode_runtime("out of memory"));
    if (run->rank == 0) ode_watch_rank0(ode_mpi_give_up, run, &run->job.progress.shown);
    const int status = ode_mpi_phases(run, r, threads_ok);
    ode_watch_close();
    return status;
}

static int ode_mpi_phases(OdeMpiRun *run, OdeRunner *r, int threads_ok)
{
    OdeJob *job = &run->job;
    MPI_Comm node;
    MPI_Comm_split_type(run->comm, MPI_COMM_TYPE_SHARED, run->rank, MPI_INFO_NULL, &node);
    ode_mpi_share(r, node);
    MPI_Comm_free(&node);

    /* Rank 0 computes too when the manager can have a thread of its own. */
    const int computes = threads_ok;
    const int workers = run->size - (computes ? 0 : 1);
    int status = ode_mpi_agree(run, ode_job_open(job, r));
    if (!status) {
        int lowest = job->backend, highest = job->backend;
        ode_mpi_allreduce(&job->backend, &lowest, 1, MPI_INT, MPI_MIN, run->comm);
        ode_mpi_allreduce(&job->backend, &highest, 1, MPI_INT, MPI_MAX, run->comm);
        if (lowest != highest)   /* the same on every rank: rank 0 says it */
            status = ode_runtime("the ranks run on different backends (some have a GPU, some not): give --backend gpu "
                                 "or --backend cpu");
    }
    if (!status) status = ode_mpi_agree(run, ode_traj_refused(r, "MPI") ? ODE_EXIT_USAGE : 0);
    if (!status) status = ode_mpi_agree(run, run->rank == 0 ? ode_job_checkpoint(job) : 0);
    if (!status) {
        ode_mpi_bcast(&job->chunks.begin, 1, MPI_LONG_LONG, run->comm, "agreeing on the run");
        status = ode_mpi_chunks(run, workers);
    }
    if (!status) status = ode_mpi_agree(run, ode_job_solvers(job));
    if (!status) status = ode_mpi_agree(run, run->rank == 0 ? ode_att_open(&job->attractors, r) : 0);   /* rank 0 groups */
    for (int j = 0; !status && ode_watch.on && run->rank != 0 && j < job->chunks.slots; j++)
        model_solver_set_progress(job->chunks.solver[j], ode_watch_progress, NULL);   /* signs of life */
    if (!status) {
        /* The format, to prepare blocks; the buffers that send them. */
        ode_mpi_describe(run);
#ifdef _OPENMP
        run->threads = omp_get_max_threads();
#else
        run->threads = 1;
#endif
        run->block_bytes = ode_block_size(run->threads);
        run->pool = (OdeBlock *)calloc((size_t)(2 * run->threads), sizeof *run->pool);
        run->sends = (MPI_Request *)malloc(sizeof *run->sends * (size_t)(2 * run->threads));
        for (int j = 0; run->sends && j < 2 * run->threads; j++) run->sends[j] = MPI_REQUEST_NULL;
        char detail[400] = "";
        int ready = 0;
        if (!run->pool || !run->sends ||
            job->format->open(&run->prepare_state, &job->info, NULL, -1, detail, sizeof detail))
            ready = ode_runtime("out of memory");
        status = ode_mpi_agree(run, ready);
    }

    struct sigaction old_int, old_term;
    ode_job_signals(run->rank == 0 ? ode_on_signal : ode_mpi_on_signal, &old_int, &old_term);
    if (!status) status = ode_mpi_agree(run, run->rank == 0 ? ode_mpi_rank0(run, computes) : 0);
    if (!status) {
        OdeWorker w;
        memset(&w, 0, sizeof w);
        w.ctx = run;
        w.slots = job->chunks.slots;
        w.limit = job->chunks.size;
        w.start = ode_mpi_start;
        w.finish = ode_mpi_finish;
        w.deliver = ode_mpi_deliver;
        ode_progress_start(&job->progress);
        const int silent = ode_silent;
        ode_silent = 1;   /* a failure's message comes from rank 0, naming the rank */
        const int failed = ode_chunks_run(&run->mgr, run->comm, run->rank != 0 || computes ? &w : NULL);
        ode_silent = silent;
        /* Every rank is still there before the output is completed (one
         * stopped now would hold the job at MPI_Finalize, unwatched). */
        MPI_Request req;
        if (MPI_Ibarrier(run->comm, &req) == MPI_SUCCESS) ode_watch_wait(&req, "ending the run");
        if (run->rank == 0) status = ode_mpi_close(run, failed);
        ode_mpi_bcast(&status, 1, MPI_INT, run->comm, "ending the run");
        if (!status && run->rank == 0 && !r->quiet) {
            job->integration /= workers > 0 ? workers : 1;
            ode_job_summary(job, run->output_seconds, job->device);
            ode_att_summary(job->attractors);
        }
        if (!status && run->rank == 0) ode_job_warnings(job);
    }
    if (run->rank == 0) {
        if (job->ck.thread_started) ode_ck_finish(&job->ck, 0, ode_runtime);
        ode_output_free(&run->out);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return status;
}

static void ode_mpi_free(OdeMpiRun *run)
{
    if (run->prepare_state) run->job.format->discard(run->prepare_state);
    for (int j = 0; run->pool && j < 2 * run->threads; j++) free(run->pool[j].data);
    free(run->pool);
    free(run->sends);
    free(run->replay.data);
    free(run->hosts);
    ode_mgr_free(&run->mgr);
    ode_job_free(&run->job);
}

/* The runner over the processes of comm (api.h). */
int model_mpi_main(MPI_Comm comm, int argc, char **argv)
{
    OdeMpiRun run;
    memset(&run, 0, sizeof run);
    run.job.ck.rows_fd = run.job.ck.pipe_read = -1;
    MPI_Comm_dup(comm, &run.comm);
    MPI_Comm_set_errhandler(run.comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(run.comm, &run.rank);
    MPI_Comm_size(run.comm, &run.size);
    /* Every rank's node, for messages. */
    run.hosts = (char(*)[ODE_HOST])calloc((size_t)run.size, ODE_HOST);
    char host[MPI_MAX_PROCESSOR_NAME + 1] = "", mine[ODE_HOST];
    int len = 0;
    MPI_Get_processor_name(host, &len);
    snprintf(mine, sizeof mine, "%.*s", ODE_HOST - 1, host);
    if (!run.hosts) MPI_Abort(run.comm, 1);   /* 64 bytes a rank */
    MPI_Allgather(mine, ODE_HOST, MPI_CHAR, run.hosts, ODE_HOST, MPI_CHAR, run.comm);
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    const int silent = ode_silent;
    ode_silent = run.rank != 0;
    OdeRunner r;
    int status = ode_mpi_agree(&run, ode_runner_parse(&r, argc, argv));
    if (status == 0 && run.size == 1 && level < MPI_THREAD_SERIALIZED) status = ode_run(&r);   /* alone, no thread */
    else if (status == 0) status = ode_mpi_run(&run, &r, level >= MPI_THREAD_SERIALIZED);
    if (status < 0) status = 0;   /* --help, --estimate */
    ode_mpi_free(&run);
    ode_runner_free(&r);
    MPI_Comm_free(&run.comm);
    ode_silent = silent;
    return status;
}

/* model_main of a runner built with MPI=1: MPI around model_mpi_main. */
static int ode_mpi_model_main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "%s: error: MPI_Init_thread failed\n", ODE_MODEL_NAME);
        return 1;
    }
    const int status = model_mpi_main(MPI_COMM_WORLD, argc, argv);
    MPI_Finalize();
    return status;
}

#endif /* ODE_MPI */
