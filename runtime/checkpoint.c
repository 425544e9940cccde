/* checkpoint.c — `--checkpoint FILE`: the finished part of a scan kept on
 * disk, so that a run ended by a crash, a scheduler's time limit or a kill
 * continues with `--resume` and ends with the output an uninterrupted run
 * writes, byte for byte.
 *
 * Two files:
 *   FILE        the index: the run's identity (the model's source, odegen's
 *               version, the options, the values, the scan, the fields, the
 *               repeat counts, the output's format, the backend: everything
 *               that changes the rows) and how far it got (systems done, the
 *               bytes of FILE.rows that hold their rows, their statistics).
 *               A few hundred bytes, replaced atomically (temporary file,
 *               fsync, rename, fsync of the directory) every
 *               --checkpoint-every seconds, after SIGTERM or SIGINT, and
 *               after an error.
 *   FILE.rows   the log: each block of rows given to the output, as the
 *               format prepared it (a descriptor, then its bytes: CSV text,
 *               or HDF5 hyperslabs), appended by the writer thread right
 *               after it writes the block to the output, and synced before
 *               the index counts it.
 *
 * The writer writes blocks in the scan's order, so what is done is always a
 * prefix of the scan, systems [0, done), and a chunk counts as done when
 * every row of it is in the log.  A resumed run checks the identity (and
 * refuses another run's checkpoint, saying what differs), cuts the log where
 * the index says (what was appended after the last commit is dropped),
 * writes the logged blocks to a new output as they are (no integration, no
 * formatting), then integrates systems done … N-1, appending their blocks.
 * The output appears under its name only when complete, as always; the
 * checkpoint is removed then.  The log is about as large as the output.
 */
#ifndef ODEGEN_GENERATED
#include "library.c"
#include "output.c"
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ODE_CK_MAGIC "odegen checkpoint 1\n"
#define ODE_CK_ROWS_MAGIC "odegen rows\n"       /* 12 bytes, then a 4-byte byte-order mark */
#define ODE_CK_ROWS_HEADER 16
#define ODE_CK_ORDER 0x01020304u
#define ODE_CK_QUIT 'q'                          /* messages to the checkpoint thread */
#define ODE_CK_CHUNK 'c'

/* FNV-1a, 64 bits: the identity's hashes (not for security: to notice a change). */
static uint64_t ode_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}
#define ODE_FNV_START 0xcbf29ce484222325ULL

/* A block's descriptor in the log. */
typedef struct OdeLogRecord {
    int64_t first;
    int32_t nsys, rep0, nrep, unused;
    uint64_t bytes;
} OdeLogRecord;

/* A chunk whose rows are queued for the writer: done when they are in the log. */
typedef struct OdeCkChunk {
    long long end;            /* its last system + 1 */
    model_stats stats;
} OdeCkChunk;

typedef struct OdeCheckpoint {
    int on;
    char *path, *rows_path;
    char *identity;                 /* "key: value\n" lines */
    char *partial;                  /* this run's unfinished output (its temporary name), or NULL */
    char stale[4096];               /* the unfinished output of the run that wrote the checkpoint */
    double every;                   /* seconds between commits (0: after every chunk) */
    long long systems;
    int record;
    int rows_fd;
    /* What the checkpoint held when this run started. */
    long long resumed;              /* systems done (their blocks are replayed, not logged again) */
    unsigned long long replay_end;  /* bytes of the log to replay */
    unsigned long long replay_at;
    model_stats resumed_stats;
    /* Progress, under lock: the writer thread's side. */
    pthread_mutex_t lock;
    int lock_ready;
    unsigned long long log_bytes;   /* appended to the log */
    long long written;              /* systems whose rows are all in the log */
    OdeCkChunk *fifo;               /* chunks queued for the writer, in order */
    int fifo_head, fifo_count, fifo_cap;
    long long done;                 /* chunks done: systems [0, done) */
    unsigned long long done_bytes;  /* the log's bytes through them */
    model_stats done_stats;         /* their statistics, with the resumed ones */
    /* The committing side (checkpoint thread, then main thread). */
    long long committed;            /* done at the last commit; -1: none yet */
    pthread_t thread;
    int thread_started;
    int pipe_read;
} OdeCheckpoint;

/* The checkpoint thread's wake-up pipe: written by the signal handler (hence static). */
static int ode_ck_pipe_write = -1;

static void ode_ck_on_signal(int sig)
{
    const char c = (char)sig;
    ssize_t w = write(ode_ck_pipe_write, &c, 1);
    (void)w;
}

static void ode_ck_stats_add(model_stats *sum, const model_stats *st)
{
    sum->steps += st->steps;
    sum->evals += st->evals;
    for (int k = 0; k < MODEL_NSTATUS; k++) sum->count[k] += st->count[k];
}

static char *ode_ck_strdup(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* ------------------------------------------------------------------ the index */

/* The value of "key: value" in text (up to the line's end) into out; 0 when absent. */
static int ode_ck_field(const char *text, const char *key, char *out, size_t size)
{
    const size_t klen = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':' && line[klen + 1] == ' ') {
            const char *v = line + klen + 2, *end = strchr(v, '\n');
            const size_t len = end ? (size_t)(end - v) : strlen(v);
            snprintf(out, size, "%.*s", (int)len, v);
            return 1;
        }
    }
    return 0;
}

/* The index's text: the magic line, the identity, the progress, a check line. */
static char *ode_ck_index_text(const OdeCheckpoint *ck, long long done, unsigned long long bytes, const model_stats *st)
{
    char progress[1024];
    int used = snprintf(progress, sizeof progress, "done: %lld\nrows: %llu\nsteps: %llu\nevals: %llu\nstatuses:", done,
                        bytes, st->steps, st->evals);
    for (int k = 0; k < MODEL_NSTATUS && used > 0 && (size_t)used < sizeof progress; k++)
        used += snprintf(progress + used, sizeof progress - (size_t)used, " %s %ld", model_status_name(k), st->count[k]);
    const char *partial = ck->partial && !strchr(ck->partial, '\n') ? ck->partial : "";
    const size_t len = strlen(ODE_CK_MAGIC) + strlen(ck->identity) + strlen(progress) + strlen(partial) + 64;
    char *text = (char *)malloc(len);
    if (!text) return NULL;
    int n = snprintf(text, len, "%s%s%s\npartial: %s\n", ODE_CK_MAGIC, ck->identity, progress, partial);
    const uint64_t h = ode_fnv1a(ODE_FNV_START, text, (size_t)n);
    snprintf(text + n, len - (size_t)n, "check: %016llx\n", (unsigned long long)h);
    return text;
}

/* The directory of path, synced (so that a rename in it is durable). */
static int ode_ck_sync_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    const int fd = open(dir, O_RDONLY);
    if (fd < 0) return errno;
    const int err = fsync(fd) != 0 && errno != EINVAL ? errno : 0;
    close(fd);
    return err;
}

/* Writes text to path atomically: path.tmp, fsync, rename, fsync of the directory. */
static int ode_ck_write_atomic(const char *path, const char *text)
{
    const size_t plen = strlen(path);
    char *tmp = (char *)malloc(plen + 8);
    if (!tmp) return ENOMEM;
    snprintf(tmp, plen + 8, "%s.tmp", path);
    int err = 0;
    const int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) err = errno;
    size_t left = strlen(text);
    const char *p = text;
    while (!err && left > 0) {
        const ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) err = w < 0 ? errno : EIO;
        else {
            p += w;
            left -= (size_t)w;
        }
    }
    if (!err && fsync(fd) != 0 && errno != EINVAL) err = errno;
    if (fd >= 0 && close(fd) != 0 && !err && errno != EINTR) err = errno;
    if (!err && rename(tmp, path) != 0) err = errno;
    if (err) unlink(tmp);
    else err = ode_ck_sync_dir(path);
    free(tmp);
    return err;
}

/* Makes what is done durable: the log synced, then a new index.  Called by
 * one thread at a time (the checkpoint thread while it runs, the main thread
 * after).  0, or an errno value with the message in error. */
static int ode_ck_commit(OdeCheckpoint *ck, char *error, size_t size)
{
    pthread_mutex_lock(&ck->lock);
    const long long done = ck->done;
    const unsigned long long bytes = ck->done_bytes;
    const model_stats st = ck->done_stats;
    pthread_mutex_unlock(&ck->lock);
    if (done == ck->committed) return 0;
    if (fdatasync(ck->rows_fd) != 0 && errno != EINVAL) {
        const int err = errno;
        snprintf(error, size, "cannot write checkpoint '%s': %s", ck->rows_path, strerror(err));
        return err;
    }
    char *text = ode_ck_index_text(ck, done, bytes, &st);
    const int err = text ? ode_ck_write_atomic(ck->path, text) : ENOMEM;
    free(text);
    if (err) {
        snprintf(error, size, "cannot write checkpoint '%s': %s", ck->path, strerror(err));
        return err;
    }
    ck->committed = done;
    return 0;
}

/* ------------------------------------------------------------------ opening */

/* Of two lists "a=1, b=2, …" with the same names in the same order, only
 * the items that differ (into there and here); 0 when they are not such lists. */
static int ode_ck_items(char *there, char *here)
{
    char a[1024], b[1024];
    size_t na = 0, nb = 0;
    a[0] = b[0] = 0;
    const char *p = there, *q = here;
    while (*p && *q) {
        const char *pe = strstr(p, ", "), *qe = strstr(q, ", ");
        const size_t lp = pe ? (size_t)(pe - p) : strlen(p), lq = qe ? (size_t)(qe - q) : strlen(q);
        const char *peq = (const char *)memchr(p, '=', lp), *qeq = (const char *)memchr(q, '=', lq);
        if (!peq || !qeq || peq - p != qeq - q || strncmp(p, q, (size_t)(peq - p)) != 0) return 0;
        if (lp != lq || strncmp(p, q, lp) != 0) {
            na += (size_t)snprintf(a + na, sizeof a - na, "%s%.*s", na ? ", " : "", (int)lp, p);
            nb += (size_t)snprintf(b + nb, sizeof b - nb, "%s%.*s", nb ? ", " : "", (int)lq, q);
            if (na >= sizeof a || nb >= sizeof b) return 0;
        }
        p = pe ? pe + 2 : p + lp;
        q = qe ? qe + 2 : q + lq;
    }
    if (*p || *q || !a[0]) return 0;
    strcpy(there, a);
    strcpy(here, b);
    return 1;
}

/* "fields 'y1, y2' in the checkpoint, 'y1' in this run; …" for each
 * identity line that differs (of the options and values, only the items
 * that differ). */
static void ode_ck_differences(const char *saved, const char *now, char *out, size_t size)
{
    size_t used = 0;
    out[0] = 0;
    for (const char *line = now; *line;) {
        const char *colon = strchr(line, ':'), *end = strchr(line, '\n');
        if (!colon || !end) break;
        char key[64], here[1024], there[1024];
        snprintf(key, sizeof key, "%.*s", (int)(colon - line), line);
        snprintf(here, sizeof here, "%.*s", (int)(end - colon - 2), colon + 2);
        if (!ode_ck_field(saved, key, there, sizeof there)) snprintf(there, sizeof there, "(none)");
        if (strcmp(here, there) != 0 && (!strcmp(key, "options") || !strcmp(key, "values"))) ode_ck_items(there, here);
        if (strcmp(here, there) != 0 && used + 1 < size) {
            const int n = snprintf(out + used, size - used, "%s%s '%s' in the checkpoint, '%s' in this run",
                                   used ? "; " : "", key, there, here);
            used = n > 0 ? used + (size_t)n : used;
            if (used >= size) used = size - 1;
        }
        line = end + 1;
    }
}

/* Reads the index of a checkpoint to resume: its identity must be this
 * run's.  Sets ck->resumed, replay_end and resumed_stats.  Returns 0, -1
 * when there is no checkpoint yet (a fresh start), or an exit status after
 * the message (say). */
static int ode_ck_read(OdeCheckpoint *ck, int (*say)(const char *, ...))
{
    FILE *f = fopen(ck->path, "r");
    if (!f) {
        if (errno == ENOENT) return -1;
        return say("cannot read checkpoint '%s': %s", ck->path, strerror(errno));
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 16384;
            char *grown = (char *)realloc(text, cap);
            if (!grown) {
                free(text);
                fclose(f);
                return say("out of memory");
            }
            text = grown;
        }
        const size_t got = fread(text + len, 1, 4096, f);
        len += got;
        if (got == 0) break;
    }
    fclose(f);
    text[len] = 0;
    int status = 0;
    char check[32], value[64];
    const char *check_line = strstr(text, "\ncheck: ");
    if (strncmp(text, ODE_CK_MAGIC, strlen(ODE_CK_MAGIC)) != 0 || !check_line ||
        !ode_ck_field(text, "check", check, sizeof check) ||
        strtoull(check, NULL, 16) != ode_fnv1a(ODE_FNV_START, text, (size_t)(check_line + 1 - text))) {
        status = say("'%s' is not an odegen checkpoint, or it was changed: remove it to start again, or give "
                     "another --checkpoint file",
                     ck->path);
    }
    char differs[2048];
    if (!status) {
        ode_ck_differences(text, ck->identity, differs, sizeof differs);
        if (differs[0])
            status = say("checkpoint '%s' is of another run: %s; give this run another --checkpoint file, or remove "
                         "that one to start again",
                         ck->path, differs);
    }
    if (!status) {
        int ok = ode_ck_field(text, "done", value, sizeof value);
        ck->resumed = ok ? atoll(value) : -1;
        ok = ok && ode_ck_field(text, "rows", value, sizeof value);
        ck->replay_end = ok ? strtoull(value, NULL, 10) : 0;
        ok = ok && ode_ck_field(text, "steps", value, sizeof value);
        ck->resumed_stats.steps = ok ? strtoull(value, NULL, 10) : 0;
        ok = ok && ode_ck_field(text, "evals", value, sizeof value);
        ck->resumed_stats.evals = ok ? strtoull(value, NULL, 10) : 0;
        char statuses[1024];
        statuses[0] = ' ';   /* each name between spaces */
        ok = ok && ode_ck_field(text, "statuses", statuses + 1, sizeof statuses - 2);
        strcat(statuses, " ");
        for (int k = 0; ok && k < MODEL_NSTATUS; k++) {
            char name[40];
            snprintf(name, sizeof name, " %s ", model_status_name(k));
            const char *at = strstr(statuses, name);
            ck->resumed_stats.count[k] = at ? atol(at + strlen(name)) : 0;
        }
        if (!ode_ck_field(text, "partial", ck->stale, sizeof ck->stale)) ck->stale[0] = 0;
        if (!ok || ck->resumed < 0 || ck->resumed > ck->systems)
            status = say("checkpoint '%s' is damaged: remove it to start again", ck->path);
    }
    free(text);
    if (status) return status;
    struct stat st;
    if (stat(ck->rows_path, &st) != 0 || (unsigned long long)st.st_size < ck->replay_end)
        return say("checkpoint '%s' is missing rows: '%s' %s (%llu bytes needed); remove the checkpoint to start again",
                   ck->path, ck->rows_path, stat(ck->rows_path, &st) != 0 ? "is missing" : "is shorter than its index says",
                   ck->replay_end);
    return 0;
}

/* Prepares the checkpoint of a run: with resume, reads the one at path
 * (which must be of this run; none yet is a fresh start, with a note);
 * without, refuses to replace one that exists.  Nothing is written yet
 * (ode_ck_start does).  Returns 0 or an exit status after the message. */
static int ode_ck_open(OdeCheckpoint *ck, const char *path, double every, int resume, char *identity,
                       long long systems, int record, int quiet, int (*say)(const char *, ...))
{
    memset(ck, 0, sizeof *ck);
    ck->rows_fd = ck->pipe_read = -1;
    ck->committed = -1;
    ck->identity = identity;
    if (!path) return 0;
    ck->on = 1;
    ck->every = every;
    ck->systems = systems;
    ck->record = record;
    ck->path = ode_ck_strdup(path);
    const size_t len = strlen(path) + 8;
    ck->rows_path = (char *)malloc(len);
    if (!ck->path || !ck->rows_path || !identity) return say("out of memory");
    snprintf(ck->rows_path, len, "%s.rows", path);
    pthread_mutex_init(&ck->lock, NULL);
    ck->lock_ready = 1;
    if (!resume) {
        struct stat st;
        if (stat(path, &st) == 0)
            return say("checkpoint '%s' exists: add --resume to continue from it, or remove it to start again", path);
        return 0;
    }
    const int status = ode_ck_read(ck, say);
    if (status == -1) {
        if (!quiet)
            fprintf(stderr, "%s: note: no checkpoint '%s' yet: starting from the beginning\n", ODE_MODEL_NAME, path);
        ck->resumed = 0;
        ck->replay_end = 0;
        return 0;
    }
    if (status) return status;
    if (!quiet)
        fprintf(stderr, "%s: note: resuming from checkpoint '%s': %lld of %lld systems done\n", ODE_MODEL_NAME, path,
                ck->resumed, systems);
    return 0;
}

/* ------------------------------------------------------------------ during the run */

/* The chunks whose rows are all in the log are done; tells the checkpoint
 * thread when it commits after every chunk.  Under lock (released here). */
static void ode_ck_pop_unlock(OdeCheckpoint *ck)
{
    int popped = 0;
    while (ck->fifo_count > 0 && ck->fifo[ck->fifo_head].end <= ck->written) {
        const OdeCkChunk *h = &ck->fifo[ck->fifo_head];
        ck->done = h->end;
        ck->done_bytes = ck->log_bytes;
        ode_ck_stats_add(&ck->done_stats, &h->stats);
        ck->fifo_head = (ck->fifo_head + 1) % ck->fifo_cap;
        ck->fifo_count--;
        popped = 1;
    }
    pthread_mutex_unlock(&ck->lock);
    if (popped && ck->every <= 0) {
        const char c = ODE_CK_CHUNK;
        ssize_t w = write(ode_ck_pipe_write, &c, 1);
        (void)w;
    }
}

/* A chunk of systems [first, first + count) whose rows are about to be
 * queued for the writer, with its statistics (main thread; in order). */
static void ode_ck_chunk(OdeCheckpoint *ck, long long first, long long count, const model_stats *st)
{
    if (!ck->on) return;
    pthread_mutex_lock(&ck->lock);
    if (ck->fifo_count == ck->fifo_cap) {   /* grow the ring, in order */
        const int cap = ck->fifo_cap ? 2 * ck->fifo_cap : 16;
        OdeCkChunk *grown = (OdeCkChunk *)malloc(sizeof *grown * (size_t)cap);
        if (!grown) {   /* cannot happen in practice: a handful of chunks */
            pthread_mutex_unlock(&ck->lock);
            ode_output_fatal_text("out of memory");
        }
        for (int j = 0; j < ck->fifo_count; j++) grown[j] = ck->fifo[(ck->fifo_head + j) % ck->fifo_cap];
        free(ck->fifo);
        ck->fifo = grown;
        ck->fifo_cap = cap;
        ck->fifo_head = 0;
    }
    OdeCkChunk *c = &ck->fifo[(ck->fifo_head + ck->fifo_count++) % ck->fifo_cap];
    c->end = first + count;
    c->stats = *st;
    if (ck->record == 0) ck->written = c->end;   /* no rows to wait for */
    ode_ck_pop_unlock(ck);
}

static int ode_ck_append(int fd, const void *data, size_t len)
{
    const char *p = (const char *)data;
    while (len > 0) {
        const ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : EIO;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* A block's descriptor (in the log, and in an MPI message). */
static OdeLogRecord ode_ck_record(const OdeBlock *b)
{
    OdeLogRecord rec;
    memset(&rec, 0, sizeof rec);
    rec.first = b->first;
    rec.nsys = b->nsys;
    rec.rep0 = b->rep0;
    rec.nrep = b->nrep;
    rec.bytes = b->bytes;
    return rec;
}

/* The writer thread wrote a block to the output (OdeOutput.written): into
 * the log, and the chunks it completes are done. */
static int ode_ck_written(void *context, const OdeBlock *b, char *detail, size_t size)
{
    OdeCheckpoint *ck = (OdeCheckpoint *)context;
    if (b->nsys == 0 || b->first < ck->resumed) return 0;   /* the header; a replayed block */
    const OdeLogRecord rec = ode_ck_record(b);
    int err = ode_ck_append(ck->rows_fd, &rec, sizeof rec);
    if (!err) err = ode_ck_append(ck->rows_fd, b->data, b->bytes);
    if (err) {
        snprintf(detail, size, "cannot write checkpoint '%s': %s", ck->rows_path, strerror(err));
        return err;
    }
    pthread_mutex_lock(&ck->lock);
    ck->log_bytes += sizeof rec + b->bytes;
    if (b->rep0 + b->nrep == ck->record) ck->written = b->first + b->nsys;
    ode_ck_pop_unlock(ck);
    return 0;
}

static double ode_ck_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The checkpoint thread: commits every `every` seconds (or after each chunk
 * when every is 0); on SIGINT or SIGTERM commits once more, then ends the
 * run as the output's handler does (ode_on_signal: 130 or 143). */
static void *ode_ck_thread(void *arg)
{
    OdeCheckpoint *ck = (OdeCheckpoint *)arg;
    char error[600];
    double next = ode_ck_clock() + ck->every;
    for (;;) {
        int timeout = -1;
        if (ck->every > 0) {
            const double left = next - ode_ck_clock();
            timeout = left > 0 ? (int)(left * 1000.0) + 1 : 0;
        }
        struct pollfd p;
        p.fd = ck->pipe_read;
        p.events = POLLIN;
        p.revents = 0;
        const int ready = poll(&p, 1, timeout);
        int sig = 0, quit = 0, commit = 0;
        if (ready > 0) {
            char msgs[64];
            const ssize_t got = read(ck->pipe_read, msgs, sizeof msgs);
            for (ssize_t i = 0; i < got; i++) {
                if (msgs[i] == ODE_CK_QUIT) quit = 1;
                else if (msgs[i] == ODE_CK_CHUNK) commit = 1;
                else if (!sig) sig = msgs[i];
            }
        }
        if (quit) return NULL;
        if (ck->every > 0 && ode_ck_clock() >= next) {
            commit = 1;
            next = ode_ck_clock() + ck->every;
        }
        if ((commit || sig) && ode_ck_commit(ck, error, sizeof error)) ode_output_fatal_text(error);
        if (sig) {
            ode_on_signal(sig);   /* exits, unless the writer is inside a block of a pipe's output */
            return NULL;
        }
    }
}

/* The output this run writes under a temporary name (NULL: in place), for
 * the index; the one a killed run left behind, if it was of the same output
 * (output.c's name: the final one with a dot before and a suffix after), is
 * removed. */
static void ode_ck_partial(OdeCheckpoint *ck, const char *tmp)
{
    if (!ck->on || !tmp) return;
    ck->partial = ode_ck_strdup(tmp);
    const size_t prefix = strlen(tmp) > 6 ? strlen(tmp) - 6 : 0;
    if (ck->stale[0] && strcmp(ck->stale, tmp) != 0 && strlen(ck->stale) == strlen(tmp) &&
        strncmp(ck->stale, tmp, prefix) == 0)
        unlink(ck->stale);
}

/* Creates the log (or cuts a resumed one where its index says), writes the
 * first index, and starts the checkpoint thread; from here on SIGINT and
 * SIGTERM commit before ending the run.  The replay of the resumed rows
 * (ode_ck_replay) comes next.  0, or an exit status after the message. */
static int ode_ck_start(OdeCheckpoint *ck, int (*say)(const char *, ...))
{
    if (!ck->on) return 0;
    char error[600];
    const int fresh = ck->resumed == 0 && ck->replay_end == 0;
    ck->rows_fd = open(ck->rows_path, O_RDWR | O_CREAT, 0666);
    if (ck->rows_fd < 0) return say("cannot write checkpoint '%s': %s", ck->rows_path, strerror(errno));
    /* One run at a time: a lock on the rows, held until the process ends. */
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (fcntl(ck->rows_fd, F_SETLK, &lock) != 0)
        return say("checkpoint '%s' is in use by another run (which holds '%s')", ck->path, ck->rows_path);
    if (fresh && ftruncate(ck->rows_fd, 0) != 0)
        return say("cannot write checkpoint '%s': %s", ck->rows_path, strerror(errno));
    unsigned char header[ODE_CK_ROWS_HEADER];
    const uint32_t order = ODE_CK_ORDER;
    memcpy(header, ODE_CK_ROWS_MAGIC, 12);
    memcpy(header + 12, &order, 4);
    if (fresh) {
        const int err = ode_ck_append(ck->rows_fd, header, sizeof header);
        if (err) return say("cannot write checkpoint '%s': %s", ck->rows_path, strerror(err));
        ck->replay_end = sizeof header;
    } else {
        unsigned char seen[ODE_CK_ROWS_HEADER];
        if (pread(ck->rows_fd, seen, sizeof seen, 0) != (ssize_t)sizeof seen || memcmp(seen, header, sizeof seen) != 0)
            return say("checkpoint '%s' is damaged: '%s' does not begin as odegen's rows (of this machine's byte "
                       "order); remove the checkpoint to start again",
                       ck->path, ck->rows_path);
        if (ftruncate(ck->rows_fd, (off_t)ck->replay_end) != 0 || lseek(ck->rows_fd, 0, SEEK_END) < 0)
            return say("cannot write checkpoint '%s': %s", ck->rows_path, strerror(errno));
    }
    ck->replay_at = ODE_CK_ROWS_HEADER;
    ck->log_bytes = ck->replay_end;
    ck->written = ck->done = ck->resumed;
    ck->done_bytes = ck->replay_end;
    ck->done_stats = ck->resumed_stats;
    if (ode_ck_commit(ck, error, sizeof error)) return say("%s", error);

    int fds[2];
    if (pipe(fds) != 0) return say("cannot start the checkpoint thread: %s", strerror(errno));
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    ck->pipe_read = fds[0];
    ode_ck_pipe_write = fds[1];
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    const int err = pthread_create(&ck->thread, NULL, ode_ck_thread, ck);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err) return say("cannot start the checkpoint thread: %s", strerror(err));
    ck->thread_started = 1;
    return 0;
}

/* The next block of the resumed rows, read into *b (its data grown as
 * needed): 1, or 0 when all are given (or there were none), or -1 after a
 * read error (message in error).  The caller queues it for the writer
 * (ode_output_put), which writes it again but does not log it again. */
static int ode_ck_replay(OdeCheckpoint *ck, OdeBlock *b, char *error, size_t size)
{
    if (!ck->on || ck->replay_at >= ck->replay_end) return 0;
    OdeLogRecord rec;
    ssize_t got = pread(ck->rows_fd, &rec, sizeof rec, (off_t)ck->replay_at);
    const int bad = got != (ssize_t)sizeof rec || ck->replay_at + sizeof rec + rec.bytes > ck->replay_end;
    if (!bad && ode_output_room(b, (size_t)rec.bytes) != 0) {
        snprintf(error, size, "out of memory for a block of %llu bytes", (unsigned long long)rec.bytes);
        return -1;
    }
    if (!bad) got = pread(ck->rows_fd, b->data, (size_t)rec.bytes, (off_t)(ck->replay_at + sizeof rec));
    if (bad || got != (ssize_t)rec.bytes) {
        snprintf(error, size, "checkpoint '%s' is damaged (at byte %llu of '%s'): remove it to start again", ck->path,
                 ck->replay_at, ck->rows_path);
        return -1;
    }
    b->first = rec.first;
    b->nsys = rec.nsys;
    b->rep0 = rec.rep0;
    b->nrep = rec.nrep;
    b->bytes = (size_t)rec.bytes;
    ck->replay_at += sizeof rec + rec.bytes;
    return 1;
}

/* Stops the checkpoint thread (the writer must have finished).  success:
 * the output is complete, the checkpoint is removed; otherwise what is done
 * is committed once more, for --resume.  Returns 0 or an exit status after
 * the message. */
static int ode_ck_finish(OdeCheckpoint *ck, int success, int (*say)(const char *, ...))
{
    int status = 0;
    if (ck->thread_started) {
        const char c = ODE_CK_QUIT;
        ssize_t w = write(ode_ck_pipe_write, &c, 1);
        (void)w;
        pthread_join(ck->thread, NULL);
        ck->thread_started = 0;
    }
    if (ck->on && ck->rows_fd >= 0) {
        if (success) {
            unlink(ck->path);
            unlink(ck->rows_path);
        } else {
            char error[600];
            if (ode_ck_commit(ck, error, sizeof error)) status = say("%s", error);
        }
    }
    return status;
}

static void ode_ck_free(OdeCheckpoint *ck)
{
    if (ck->rows_fd >= 0) close(ck->rows_fd);
    if (ck->pipe_read >= 0) close(ck->pipe_read);
    if (ode_ck_pipe_write >= 0) close(ode_ck_pipe_write);
    ode_ck_pipe_write = -1;
    if (ck->lock_ready) pthread_mutex_destroy(&ck->lock);
    free(ck->fifo);
    free(ck->path);
    free(ck->rows_path);
    free(ck->identity);
    free(ck->partial);
    memset(ck, 0, sizeof *ck);
    ck->rows_fd = ck->pipe_read = -1;
}
