/* output.c — the runner's output, streamed: a file that appears under its
 * name only when complete, blocks of rows prepared by several threads and
 * written by a writer thread of its own while the next chunk integrates, and
 * interruptions that leave nothing half-done.
 *
 *   ode_output_open     the file (a temporary name beside the final one; a
 *                       pipe, a device or standard output in place), the
 *                       format's header, the writer thread
 *   ode_output_chunk    one chunk's rows: cut into blocks, prepared in
 *                       parallel (OpenMP), queued in order for the writer
 *   ode_output_close    waits for the writer, completes the file, renames it
 *   ode_output_free     removes the temporary file if it is still there
 *
 * Memory stays bounded whatever the size of the scan: a fixed number of
 * blocks (two per thread) of at most a few MiB each circulate between the
 * threads that fill them and the writer.
 *
 * A write that fails (a full disk, a file size limit, a closed pipe's EPIPE)
 * ends the run at once from the writer thread: the message, the temporary
 * file removed, exit status 1 — not after the rest of the integration.
 * SIGINT, SIGTERM and SIGHUP end it with 128 + the signal (130, 143, 129): a
 * temporary file is removed at once; output written in place (a pipe) is cut
 * only at the end of a block, which ends with a row, so a reader never sees
 * half a row.  A crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) or an
 * exit() from a library removes the temporary file too.
 *
 * -o through a symbolic link writes through it: the temporary file is made
 * next to the file the link leads to and renamed onto that file, so the link
 * stays; a link to one of the process's descriptors (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N) is that descriptor, written in place as standard output
 * is (ode_output_target).
 */
#ifndef ODEGEN_GENERATED
#include "output.h"
#include "output_csv.c"
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ODE_EXIT_SIGNAL_BASE 128
#define ODE_BLOCK_BYTES ((size_t)8 << 20)     /* a block's text, at most (fewer with many threads) */
#define ODE_FLUSH_BYTES (256ull << 20)        /* written between two syncs of a file */

/* The signal handler's state (a handler can reach nothing else): the
 * temporary file to remove, and for output written in place, whether the
 * writer is inside a block and which signal asked to stop. */
static char ode_signal_path[4096];
static char ode_signal_side_path[4096];   /* a side file's (runner_save.c: the `save` samples) */
static int ode_writing;
static int ode_stop_signal;

static void ode_exit_interrupted(int sig)
{
    static const char msg[] = "\n" ODE_MODEL_NAME ": interrupted\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(ODE_EXIT_SIGNAL_BASE + sig);
}

/* The signals that stop a run, alike (blocked together where a temporary
 * file is made and in the threads that must not take them). */
static void ode_stop_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
}

static void ode_on_signal(int sig)
{
    if (ode_signal_side_path[0]) unlink(ode_signal_side_path);
    if (ode_signal_path[0]) {   /* a temporary file: nothing of it must stay */
        unlink(ode_signal_path);
        ode_exit_interrupted(sig);
    }
    __atomic_store_n(&ode_stop_signal, sig, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&ode_writing, __ATOMIC_SEQ_CST)) ode_exit_interrupted(sig);
    /* else the writer stops after the block it is writing */
}

typedef struct OdeOutput {
    const OdeFormat *format;
    void *state;
    const char *path;          /* final name, as given (for messages), or NULL: standard output */
    char *target;              /* the file it replaces: path, or where path's links lead */
    char *tmp;                 /* temporary name next to target */
    int special;               /* written in place: a pipe, a device, standard output */
    int threads;               /* blocks prepared at once */
    size_t block_bytes;        /* a block's size, at most */
    int nblocks;
    OdeBlock *blocks;
    int *queue, head, queued;  /* blocks for the writer, in order (a ring) */
    int *spare, nspare;        /* blocks free to fill */
    pthread_t writer;
    int writer_started;
    int sync_ready;            /* lock and wake are initialised */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int closing;               /* no more blocks will come */
    /* Called on the writer thread after each block is written (the
     * checkpoint's log, checkpoint.c): 0, or an errno value with the
     * message in detail. */
    int (*written)(void *context, const OdeBlock *block, char *detail, size_t size);
    void *written_context;
    unsigned long long since_flush;
    double write_seconds;      /* the writer's time in write and flush */
    double prepare_seconds;    /* the time spent preparing blocks (all threads at once) */
    char error[600];
} OdeOutput;

static double ode_output_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "cannot write 'x': reason" into o->error; returns err. */
static int ode_output_failed(OdeOutput *o, int err, const char *detail)
{
    if (o->path) snprintf(o->error, sizeof o->error, "cannot write '%s': %s", o->path, detail ? detail : strerror(err));
    else snprintf(o->error, sizeof o->error, "cannot write to standard output: %s", detail ? detail : strerror(err));
    return err ? err : EIO;
}

/* A failure on a thread of the output's: the run ends here, with the
 * message and the unfinished file removed. */
static void ode_output_fatal_text(const char *message)
{
    if (ode_signal_path[0]) unlink(ode_signal_path);
    fprintf(stderr, "%s: error: %s\n", ODE_MODEL_NAME, message);
    _exit(1);
}

/* A write failed on the writer thread. */
static void ode_output_fatal(OdeOutput *o, int err, const char *detail)
{
    ode_output_failed(o, err, detail[0] ? detail : NULL);
    ode_output_fatal_text(o->error);
}

/* ------------------------------------------------------------------ the writer thread */

static void *ode_writer_main(void *arg)
{
    OdeOutput *o = (OdeOutput *)arg;
    char detail[400];
    pthread_mutex_lock(&o->lock);
    for (;;) {
        while (o->queued == 0 && !o->closing) pthread_cond_wait(&o->wake, &o->lock);
        if (o->queued == 0) break;
        const int k = o->queue[o->head];
        pthread_mutex_unlock(&o->lock);

        const double t0 = ode_output_clock();
        detail[0] = 0;
        if (o->special) {   /* whole blocks only: see ode_on_signal */
            __atomic_store_n(&ode_writing, 1, __ATOMIC_SEQ_CST);
            if (__atomic_load_n(&ode_stop_signal, __ATOMIC_SEQ_CST)) ode_exit_interrupted(ode_stop_signal);
        }
        int err = o->format->write(o->state, &o->blocks[k], detail, sizeof detail);
        if (o->special) {
            __atomic_store_n(&ode_writing, 0, __ATOMIC_SEQ_CST);
            if (__atomic_load_n(&ode_stop_signal, __ATOMIC_SEQ_CST)) ode_exit_interrupted(ode_stop_signal);
        }
        if (!err && o->written) {
            err = o->written(o->written_context, &o->blocks[k], detail, sizeof detail);
            if (err) ode_output_fatal_text(detail);
        }
        o->since_flush += o->blocks[k].bytes;
        if (!err && !o->special && o->since_flush >= ODE_FLUSH_BYTES) {
            /* Some file systems report a full disk only when the data goes
             * out: sync now and then, not only at the end. */
            err = o->format->flush(o->state, detail, sizeof detail);
            o->since_flush = 0;
        }
        if (err) ode_output_fatal(o, err, detail);
        const double t1 = ode_output_clock();

        pthread_mutex_lock(&o->lock);
        o->write_seconds += t1 - t0;
        o->head = (o->head + 1) % o->nblocks;
        o->queued--;
        o->spare[o->nspare++] = k;
        pthread_cond_broadcast(&o->wake);
    }
    pthread_mutex_unlock(&o->lock);
    return NULL;
}

/* Takes `count` spare blocks (waiting for the writer to free them). */
static void ode_output_take(OdeOutput *o, int count, int *taken)
{
    pthread_mutex_lock(&o->lock);
    while (o->nspare < count) pthread_cond_wait(&o->wake, &o->lock);
    for (int j = 0; j < count; j++) taken[j] = o->spare[--o->nspare];
    pthread_mutex_unlock(&o->lock);
}

static void ode_output_queue(OdeOutput *o, const int *blocks, int count)
{
    pthread_mutex_lock(&o->lock);
    for (int j = 0; j < count; j++) o->queue[(o->head + o->queued++) % o->nblocks] = blocks[j];
    pthread_cond_broadcast(&o->wake);
    pthread_mutex_unlock(&o->lock);
}

/* Room for `bytes` in block b; 0 or ENOMEM. */
static int ode_output_room(OdeBlock *b, size_t bytes)
{
    if (bytes <= b->cap) return 0;
    char *grown = (char *)realloc(b->data, bytes);
    if (!grown) return ENOMEM;
    b->data = grown;
    b->cap = bytes;
    return 0;
}

/* A block's size, at most, when `threads` threads prepare blocks at once:
 * a few MiB, less with many threads (128 MiB of blocks in all). */
static size_t ode_block_size(int threads)
{
    size_t bytes = ODE_BLOCK_BYTES;
    if ((size_t)threads * bytes > ((size_t)128 << 20)) bytes = ((size_t)128 << 20) / (size_t)threads;
    return bytes < ((size_t)256 << 10) ? (size_t)256 << 10 : bytes;
}

/* ------------------------------------------------------------------ the file */

/* A crash, or an exit() from a library (libgomp's when it cannot start its
 * threads), removes the temporary files too; the crash then goes on to the
 * handler that was there before (the default one, or a sanitizer's). */
static const int ode_crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define ODE_NCRASH ((int)(sizeof ode_crash_signals / sizeof *ode_crash_signals))
static struct sigaction ode_crash_before[ODE_NCRASH];

static void ode_remove_temporaries(void)
{
    if (ode_signal_side_path[0]) unlink(ode_signal_side_path);
    if (ode_signal_path[0]) unlink(ode_signal_path);
}

static void ode_on_crash(int sig)
{
    ode_remove_temporaries();
    for (int k = 0; k < ODE_NCRASH; k++)
        if (ode_crash_signals[k] == sig) sigaction(sig, &ode_crash_before[k], NULL);
    raise(sig);   /* delivered to that handler when this one returns */
}

static void ode_cleanup_install(void)
{
    static int installed;
    if (installed) return;
    installed = 1;
    atexit(ode_remove_temporaries);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ode_on_crash;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < ODE_NCRASH; k++) sigaction(ode_crash_signals[k], &sa, &ode_crash_before[k]);
}

/* The six characters that end the temporary name of a run with a
 * checkpoint: a hash of the checkpoint's and the target's names, so that a
 * run killed after making its temporary but before its checkpoint's index
 * named it leaves a file that the next run on the same checkpoint (which
 * holds the checkpoint's lock, so no other run can be writing it) knows
 * and replaces.  "XXXXXX" (mkstemp's) without a checkpoint. */
static void ode_temp_suffix(const char *key, const char *path, char out[7])
{
    if (!key) {
        memcpy(out, "XXXXXX", 7);
        return;
    }
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    uint64_t h = 14695981039346656037ull;   /* FNV-1a */
    for (const char *s = key;; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
        if (!*s) break;
    }
    for (const char *s = path; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    for (int k = 0; k < 6; k++, h /= 62) out[k] = digits[h % 62];
    out[6] = 0;
}

/* The temporary file of ode_temp_suffix's fixed name: made new; one of
 * this user's regular files already there is a killed run's, replaced. */
static int ode_temp_fixed(const char *tmp)
{
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    struct stat st;
    if (fd < 0 && errno == EEXIST && lstat(tmp, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
        unlink(tmp) == 0)
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    return fd;
}

/* A temporary file next to path (".NAME.XXXXXX" in its folder; with a
 * checkpoint `key`, the six characters are ode_temp_suffix's), made with
 * the stop signals blocked so that its name is in `slot` (the signal
 * handler's, which removes it) before one can arrive; mode 0666 less the
 * umask, as a file made by open().  0 and *tmp (malloc'd) and *fd, or errno. */
static int ode_temp_open(const char *path, const char *key, char **tmp, char *slot, int *fd)
{
    const char *slash = strrchr(path, '/');
    const size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    const size_t len = strlen(path) + 16;
    if (len >= sizeof ode_signal_path) return ENAMETOOLONG;   /* (every slot is this size) */
    *tmp = (char *)malloc(len);
    if (!*tmp) return ENOMEM;
    char suffix[7];
    ode_temp_suffix(key, path, suffix);
    snprintf(*tmp, len, "%.*s.%s.%s", (int)dir, path, path + dir, suffix);
    ode_cleanup_install();
    sigset_t block, old;
    ode_stop_signals(&block);
    sigprocmask(SIG_BLOCK, &block, &old);
    *fd = key ? ode_temp_fixed(*tmp) : mkstemp(*tmp);
    const int err = errno;
    if (*fd >= 0) memcpy(slot, *tmp, strlen(*tmp) + 1);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (*fd < 0) return err;
    const mode_t mask = umask(0);
    umask(mask);
    if (fchmod(*fd, 0666 & ~mask) != 0) {
        const int e = errno;
        close(*fd);
        *fd = -1;
        unlink(*tmp);
        slot[0] = 0;
        return e;
    }
    return 0;
}

/* The descriptor that path names when it is one of this process's
 * (/proc/self/fd/N, /dev/fd/N: a name in the folder that is /proc/self/fd),
 * or -1. */
static int ode_descriptor_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || !slash[1] || slash - path >= 4096) return -1;
    for (const char *c = slash + 1; *c; c++)
        if (*c < '0' || *c > '9') return -1;
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    struct stat here, fds;
    if (stat(dir, &here) != 0 || stat("/proc/self/fd", &fds) != 0 || here.st_dev != fds.st_dev ||
        here.st_ino != fds.st_ino)
        return -1;
    const long n = strtol(slash + 1, NULL, 10);
    return n >= 0 && n < 1 << 20 ? (int)n : -1;
}

/* Where a file the user names (-o PATH, save's FILE.traj.csv) is written:
 * PATH, or, through symbolic links, the file they lead to (*target, malloc'd;
 * the links stay as they are); or one of this process's descriptors
 * (/dev/stdout, /dev/fd/N: *descriptor >= 0, *target NULL).  0 or an errno
 * value (ELOOP: links in a loop). */
static int ode_output_target(const char *path, char **target, int *descriptor)
{
    *target = NULL;
    *descriptor = -1;
    char at[4096], link[4096];
    if (snprintf(at, sizeof at, "%s", path) >= (int)sizeof at) return ENAMETOOLONG;
    for (int hops = 0;; hops++) {
        if ((*descriptor = ode_descriptor_of(at)) >= 0) return 0;
        struct stat st;
        if (lstat(at, &st) != 0 || !S_ISLNK(st.st_mode)) break;
        if (hops == 40) return ELOOP;
        const ssize_t n = readlink(at, link, sizeof link - 1);
        if (n < 0) return errno;
        link[n] = 0;
        const char *slash = strrchr(at, '/');
        const int dir = link[0] == '/' || !slash ? 0 : (int)(slash - at) + 1;   /* a relative link: from its folder */
        char next[4096];
        if (snprintf(next, sizeof next, "%.*s%s", dir, at, link) >= (int)sizeof next) return ENAMETOOLONG;
        memcpy(at, next, sizeof at);
    }
    const size_t len = strlen(at) + 1;
    if (!(*target = (char *)malloc(len))) return ENOMEM;
    memcpy(*target, at, len);
    return 0;
}

/* Opens where a file the user names is written (ode_output_target): a
 * temporary file next to the target, registered in `slot` for removal, to be
 * renamed onto the target when complete; or in place, for a descriptor, a
 * pipe or a device (renaming onto those would replace them), unless
 * needs_file.  Fills *target, *tmp (NULL in place) and *fd.  0, or an errno
 * value with *why set when errno alone does not say it (else NULL). */
static int ode_place_open(const char *path, const char *key, int needs_file, char *slot, char **target, char **tmp,
                          int *fd, const char **why)
{
    *tmp = NULL;
    *fd = -1;
    *why = NULL;
    int descriptor;
    int err = ode_output_target(path, target, &descriptor);
    if (err) return err;
    struct stat st;
    const int exists = *target && stat(*target, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) return EISDIR;
    if (descriptor >= 0 || (exists && !S_ISREG(st.st_mode))) {
        if (needs_file) {
            *why = "needs a regular file";
            return EINVAL;
        }
        if (descriptor == STDOUT_FILENO) fflush(stdout);
        *fd = descriptor >= 0 ? dup(descriptor) : open(*target, O_WRONLY | O_TRUNC);
        return *fd < 0 ? errno : 0;
    }
    return ode_temp_open(*target, key, tmp, slot, fd);
}

/* Opens the output and starts its writer: standard output (through a
 * descriptor of its own, so that closing it reports write errors), a pipe or
 * a device in place, or a temporary file next to the final one (through
 * symbolic links: next to the file they lead to), with the mode a plain
 * fopen would give, registered for removal on a stop signal or a crash.
 * Returns 0, or an errno value with the message in o->error. */
static int ode_output_open(OdeOutput *o, const char *path, const char *key, const OdeFormat *format,
                           const OdeRunInfo *info)
{
    memset(o, 0, sizeof *o);
    o->format = format;
    int fd = -1;
    if (!path || strcmp(path, "-") == 0) {
        if (format->needs_file) {
            snprintf(o->error, sizeof o->error, "%s output needs a file: give -o FILE", format->name);
            return EINVAL;
        }
        fflush(stdout);
        o->special = 1;
        fd = dup(STDOUT_FILENO);
        if (fd < 0) return ode_output_failed(o, errno, NULL);
    } else {
        o->path = path;
        const char *why;
        const int err = ode_place_open(path, key, format->needs_file, ode_signal_path, &o->target, &o->tmp, &fd, &why);
        if (err && why) {
            snprintf(o->error, sizeof o->error, "cannot write '%s': %s output %s", path, format->name, why);
            return err;
        }
        if (err) return ode_output_failed(o, err, NULL);
        o->special = !o->tmp;
    }
    char detail[400] = "";
    int err = format->open(&o->state, info, o->tmp ? o->tmp : o->target, fd, detail, sizeof detail);
    if (err) {
        if (!o->state) close(fd);
        return ode_output_failed(o, err, detail[0] ? detail : NULL);
    }

    /* The blocks: two per thread, a few MiB each. */
#ifdef _OPENMP
    o->threads = omp_get_max_threads();
#else
    o->threads = 1;
#endif
    if (o->threads < 1) o->threads = 1;
    o->block_bytes = ode_block_size(o->threads);
    o->nblocks = 2 * o->threads + 1;
    o->blocks = (OdeBlock *)calloc((size_t)o->nblocks, sizeof(OdeBlock));
    o->queue = (int *)calloc((size_t)o->nblocks, sizeof(int));
    o->spare = (int *)calloc((size_t)o->nblocks, sizeof(int));
    if (!o->blocks || !o->queue || !o->spare) return ode_output_failed(o, ENOMEM, NULL);
    for (int k = 0; k < o->nblocks; k++) o->spare[o->nspare++] = k;
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->wake, NULL);
    o->sync_ready = 1;

    /* The writer takes no stop signals: they stop the run between its blocks. */
    sigset_t block, old;
    ode_stop_signals(&block);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    err = pthread_create(&o->writer, NULL, ode_writer_main, o);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err) return ode_output_failed(o, err, NULL);
    o->writer_started = 1;

    /* The header goes first. */
    int k;
    ode_output_take(o, 1, &k);
    OdeBlock *b = &o->blocks[k];
    size_t header = 64;
    for (int f = 0; f < info->nfield; f++) header += strlen(info->fields[f]) + 1;
    if (ode_output_room(b, header)) return ode_output_failed(o, ENOMEM, NULL);
    b->first = 0;
    b->nsys = b->rep0 = b->nrep = 0;
    b->bytes = 0;
    format->header(o->state, b);
    ode_output_queue(o, &k, 1);
    return 0;
}

/* How a chunk's rows are cut into blocks of at most block_bytes: blocks of
 * whole systems, or ranges of one system's reps when a system has more rows
 * than a block holds.  The same cut serves the writer here and the ranks of
 * an MPI run that prepare blocks for it (mpi_runner.c). */
typedef struct OdeCut {
    int whole;               /* blocks of whole systems */
    int nsys, nrep;          /* systems and reps per block, at most */
    long long per_system;    /* blocks per system (1 when whole) */
    long long pieces;        /* blocks of the chunk */
} OdeCut;

static void ode_cut_plan(OdeCut *c, const OdeChunkView *ch, size_t row_bound, size_t block_bytes)
{
    if (ch->record <= 0) {   /* --recorded 0: no rows, no blocks */
        c->whole = 1;
        c->nsys = c->nrep = 0;
        c->per_system = 1;
        c->pieces = 0;
        return;
    }
    long long rows_per_block = (long long)(block_bytes / (row_bound ? row_bound : 1));
    if (rows_per_block < 1) rows_per_block = 1;
    c->whole = ch->record <= rows_per_block;
    c->nsys = c->whole ? (int)(rows_per_block / ch->record) : 1;
    c->nrep = c->whole ? ch->record : (int)rows_per_block;
    c->per_system = c->whole ? 1 : (ch->record + c->nrep - 1) / c->nrep;
    c->pieces = c->whole ? (ch->count + c->nsys - 1) / c->nsys : (long long)ch->count * c->per_system;
}

/* The rows of block q of the cut (the block's data is left alone). */
static void ode_cut_block(const OdeCut *c, const OdeChunkView *ch, long long q, OdeBlock *b)
{
    if (c->whole) {
        b->first = ch->first + q * c->nsys;
        b->nsys = (int)(ch->first + ch->count - b->first < c->nsys ? ch->first + ch->count - b->first : c->nsys);
        b->rep0 = 0;
        b->nrep = ch->record;
    } else {
        b->first = ch->first + q / c->per_system;
        b->nsys = 1;
        b->rep0 = (int)(q % c->per_system) * c->nrep;
        b->nrep = ch->record - b->rep0 < c->nrep ? ch->record - b->rep0 : c->nrep;
    }
}

/* The rows of a chunk: cut into blocks (ode_cut_plan), prepared a group at a
 * time, one block per thread, then queued in order.  Returns 0 or ENOMEM
 * (message in o->error). */
static int ode_output_chunk(OdeOutput *o, const OdeChunkView *ch)
{
    if (ch->record == 0 || ch->count == 0) return 0;
    const double t0 = ode_output_clock();
    OdeCut cut;
    ode_cut_plan(&cut, ch, o->format->bound(o->state, 1, 1), o->block_bytes);
    const long long pieces = cut.pieces;
    int taken[1024];
    const int group_max = o->threads < 1024 ? o->threads : 1024;
    for (long long piece = 0; piece < pieces; piece += group_max) {
        const int group = (int)(pieces - piece < group_max ? pieces - piece : group_max);
        ode_output_take(o, group, taken);
        for (int j = 0; j < group; j++) {
            OdeBlock *b = &o->blocks[taken[j]];
            ode_cut_block(&cut, ch, piece + j, b);
            if (ode_output_room(b, o->format->bound(o->state, b->nsys, b->nrep)))
                return ode_output_failed(o, ENOMEM, "out of memory for the output's blocks");
        }
        const OdeFormat *format = o->format;
        void *state = o->state;
        OdeBlock *blocks = o->blocks;
#pragma omp parallel for num_threads(group) schedule(static, 1)
        for (int j = 0; j < group; j++) format->prepare(state, ch, &blocks[taken[j]]);
        ode_output_queue(o, taken, group);
    }
    o->prepare_seconds += ode_output_clock() - t0;
    return 0;
}

/* Queues a block prepared elsewhere (another rank's, or the checkpoint's),
 * in order after those queued before: its data is swapped with a spare
 * block's, so that *b comes back holding that block's old buffer (to reuse
 * or free), and nothing is copied. */
static void ode_output_put(OdeOutput *o, OdeBlock *b)
{
    int k;
    ode_output_take(o, 1, &k);
    OdeBlock *spare = &o->blocks[k];
    OdeBlock old = *spare;
    *spare = *b;
    b->data = old.data;
    b->cap = old.cap;
    b->bytes = 0;
    ode_output_queue(o, &k, 1);
}

/* Tells the writer that no more blocks will come, and waits for it to write
 * those it has. */
static void ode_output_join(OdeOutput *o)
{
    if (!o->writer_started) return;
    pthread_mutex_lock(&o->lock);
    o->closing = 1;
    pthread_cond_broadcast(&o->wake);
    pthread_mutex_unlock(&o->lock);
    pthread_join(o->writer, NULL);
    o->writer_started = 0;
}

/* Waits for the writer, then completes the output: the format's close (its
 * last data, a sync), and the rename to the final name.  0 or an errno
 * value (message in o->error). */
static int ode_output_close(OdeOutput *o)
{
    ode_output_join(o);
    const double t0 = ode_output_clock();
    char detail[400] = "";
    void *state = o->state;
    o->state = NULL;
    int err = o->format->close(state, detail, sizeof detail);
    o->format->discard(state);
    if (!err && o->tmp && rename(o->tmp, o->target) != 0) err = errno;
    o->write_seconds += ode_output_clock() - t0;
    if (err) return ode_output_failed(o, err, detail[0] ? detail : NULL);
    ode_signal_path[0] = 0;
    return 0;
}

/* Frees the output; removes the temporary file if it is still there (after
 * an error). */
static void ode_output_free(OdeOutput *o)
{
    ode_output_join(o);   /* after an error on the main thread: the writer finishes what it has */
    if (o->state) o->format->discard(o->state);
    o->state = NULL;
    if (o->tmp && ode_signal_path[0]) unlink(o->tmp);
    ode_signal_path[0] = 0;
    for (int k = 0; o->blocks && k < o->nblocks; k++) free(o->blocks[k].data);
    if (o->sync_ready) {
        pthread_mutex_destroy(&o->lock);
        pthread_cond_destroy(&o->wake);
    }
    free(o->blocks);
    free(o->queue);
    free(o->spare);
    free(o->tmp);
    free(o->target);
    memset(o, 0, sizeof *o);
}
