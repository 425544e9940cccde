/* checkpoint.c — `--checkpoint FILE`: the finished part of a scan kept on
 * disk, so that a run ended by a crash, a scheduler's time limit or a kill
 * continues with `--resume` and ends with the output an uninterrupted run
 * writes, byte for byte.
 *
 * Two files, each beginning with a mark of its own (no other file is ever
 * changed, replaced or removed):
 *   FILE        the index: the run's identity (the model's source, odegen's
 *               version, the generated source, the build — compiler and the
 *               flags that change numbers —, the precision, the options, the
 *               values, the scan, the fields, the repeat counts, the output's
 *               format, the backend: everything that changes the rows) and
 *               how far it got (systems done, the bytes of FILE.rows that
 *               hold their rows and the checksum through them, their
 *               statistics), with a check line over all of it.  A few
 *               hundred bytes, replaced atomically (FILE.tmp, fsync, rename,
 *               fsync of the directory) every --checkpoint-every seconds,
 *               after a stop signal, and after an error.
 *   FILE.rows   the log: each block of rows given to the output, as the
 *               format prepared it (a descriptor, a checksum, then its bytes:
 *               CSV text, or HDF5 hyperslabs), appended by the writer thread
 *               right after it writes the block to the output, and synced
 *               before the index counts it.  Each block's checksum covers its
 *               descriptor and bytes and continues the one before, so the
 *               last names the whole log.  A run with `attractor` logs after
 *               each chunk's rows the chunk's side record: its systems'
 *               fingerprints (templates/attractor.h), from which a resumed
 *               run groups them again (runner_attractors.c), so that its
 *               attractor table and labels are an uninterrupted run's.
 *
 * The writer writes blocks in the scan's order, so what is done is always a
 * prefix of the scan, systems [0, done), and a chunk counts as done when
 * every row of it is in the log.  A run locks FILE.rows before anything else
 * (one run at a time; a second is refused and touches nothing).  A resumed
 * run checks the identity (and refuses another run's checkpoint, saying what
 * differs), cuts the log where the index says (what was appended after the
 * last commit is dropped), writes the logged blocks to a new output as they
 * are (no integration, no formatting) — checking each block's checksum and
 * place, and at the end that they hold exactly the systems the index says
 * are done, with the index's checksum —, then integrates systems done … N-1,
 * appending their blocks.  A checkpoint that fails a check is refused with
 * what is wrong, and no output appears.  The output appears under its name
 * only when complete, as always; the checkpoint is removed then.  The log is
 * about as large as the output.
 */
#ifndef ODEGEN_GENERATED
#include "library.c"
#include "output.c"
#endif

#include <ctype.h>
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

#define ODE_CK_MAGIC "odegen checkpoint 2\n"
#define ODE_CK_MAGIC_ANY "odegen checkpoint "    /* of any version: a file odegen wrote */
#define ODE_CK_ROWS_MAGIC "odegen rows 2\n\0\0"  /* 16 bytes, then a 4-byte byte-order mark and 4 zeros */
#define ODE_CK_ROWS_ANY "odegen rows"
#define ODE_CK_ROWS_HEADER 24
#define ODE_CK_ORDER 0x01020304u
#define ODE_CK_INDEX_MOST ((size_t)64 << 20)      /* an index is read up to this size, no further */
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

/* The log's checksums: 8 bytes at a time, each step a bijection of the
 * state, so that a change within any 8 bytes always changes the result
 * (several changes: with odds of 2^-64), at several GB/s. */
static uint64_t ode_ck_sum(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    for (; len >= 8; p += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 32;
    }
    if (len) {
        uint64_t w = 0;
        memcpy(&w, p, len);
        h = (h ^ w ^ ((uint64_t)len << 56)) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 32;
    }
    return h;
}

/* A block's descriptor (in the log, and in an MPI message). */
typedef struct OdeLogRecord {
    int64_t first;
    int32_t nsys, rep0, nrep;
    int32_t side;             /* 0: rows; 1: the side record of systems first … (rep0 = nrep = 0) */
    uint64_t bytes;
} OdeLogRecord;

/* A block in the log: its descriptor and checksum, then its bytes. */
typedef struct OdeLogEntry {
    OdeLogRecord rec;
    uint64_t check;           /* ode_ck_sum of rec and the bytes, from the entry before's */
} OdeLogEntry;

/* A chunk whose rows are queued for the writer: done when they are in the log. */
typedef struct OdeCkChunk {
    long long first, end;     /* its systems */
    model_stats stats;
    void *side;               /* its side record (logged after its rows), or NULL */
    size_t side_bytes;
} OdeCkChunk;

typedef struct OdeCheckpoint {
    int on;
    char *path, *rows_path, *tmp_path;
    char *identity;                 /* "key: value\n" lines */
    char *partial;                  /* this run's unfinished output (its temporary name), or NULL */
    char stale[4096];               /* the unfinished output of the run that wrote the checkpoint */
    double every;                   /* seconds between commits (0: after every chunk) */
    long long systems;
    int record;
    int sides;                      /* each chunk has a side record (`attractor`'s fingerprints) */
    int rows_fd;                    /* FILE.rows, locked */
    int rows_made;                  /* made by this run (removed if it never commits) */
    /* What the checkpoint held when this run started. */
    long long resumed;              /* systems done (their blocks are replayed, not logged again) */
    unsigned long long replay_end;  /* bytes of the log to replay */
    uint64_t resumed_check;         /* the log's checksum through them */
    model_stats stats_resumed;
    /* The replay: where it is in the log, its checksum so far, the row it expects next. */
    unsigned long long replay_at;
    uint64_t replay_check;
    long long replay_system;
    int replay_rep, replay_done;
    long long replay_sides;         /* systems whose side records were replayed */
    /* Progress, under lock: the writer thread's side. */
    pthread_mutex_t lock;
    int lock_ready;
    unsigned long long log_bytes;   /* appended to the log */
    uint64_t log_check;             /* the log's checksum through them */
    long long written;              /* systems whose rows are all in the log */
    OdeCkChunk *fifo;               /* chunks queued for the writer, in order */
    int fifo_head, fifo_count, fifo_cap;
    long long done;                 /* chunks done: systems [0, done) */
    unsigned long long done_bytes;  /* the log's bytes through them */
    uint64_t done_check;            /* and its checksum there */
    model_stats stats_done;         /* their statistics, with the resumed ones */
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
    sum->lyap_trace_off += st->lyap_trace_off;
}

static char *ode_ck_strdup(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *d = (char *)malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* ------------------------------------------------------------------ the build's identity */

#ifndef ODE_GENERATED_HASH
#define ODE_GENERATED_HASH "unknown"   /* (the generator defines it: a hash of NAME.cu) */
#endif

/* Whether macro m is defined: 1 when it is (it stringifies to its value,
 * "1" or ""), 0 when not (it stringifies to its own name, which begins with
 * '_' for every macro asked about here). */
#define ODE_DEFINED(m) ODE_DEFINED_TEXT(m)
#define ODE_DEFINED_TEXT(m) (#m[0] != '_')

/* What of the build changes the numbers, as the compiler of this file saw it
 * (its predefined macros): the compiler and its version, optimisation, the
 * floating-point flags (-ffast-math and its parts, -frounding-math), FMA
 * (contraction of a*b+c into one rounding; GCC contracts by default except in
 * ISO C, __STRICT_ANSI__), how intermediate results are kept
 * (FLT_EVAL_METHOD: x87's extended precision) and the processor.  A GPU's
 * device code adds nvcc's device flags (--use_fast_math, -fmad, -ftz), which
 * no macro shows; the generated Makefile sets none of them. */
static void ode_ck_build(char *out, size_t size)
{
    char compiler[160];
#if defined(__clang__)
    char host[64];
    snprintf(host, sizeof host, "clang %d.%d.%d", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
    char host[64];
    snprintf(host, sizeof host, "gcc %d.%d.%d", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
    const char *host = "an unknown compiler";
#endif
#if defined(__NVCC__)
    snprintf(compiler, sizeof compiler, "nvcc %d.%d.%d (host %s)", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__,
             __CUDACC_VER_BUILD__, host);
#else
    snprintf(compiler, sizeof compiler, "%s", host);
#endif
#if defined(__x86_64__)
    const char *arch = "x86_64";
#elif defined(__aarch64__)
    const char *arch = "aarch64";
#elif defined(__powerpc64__)
    const char *arch = "ppc64";
#elif defined(__i386__)
    const char *arch = "i386";
#else
    const char *arch = "other";
#endif
#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
    const int finite = 1;
#else
    const int finite = 0;
#endif
#ifdef __FLT_EVAL_METHOD__
    const int eval = __FLT_EVAL_METHOD__;
#else
    const int eval = -1;
#endif
    const struct {
        const char *name;
        int on;
    } facts[] = {{"optimize", ODE_DEFINED(__OPTIMIZE__)},
                 {"fast-math", ODE_DEFINED(__FAST_MATH__)},
                 {"finite-math-only", finite},
                 {"associative-math", ODE_DEFINED(__ASSOCIATIVE_MATH__)},
                 {"reciprocal-math", ODE_DEFINED(__RECIPROCAL_MATH__)},
                 {"no-signed-zeros", ODE_DEFINED(__NO_SIGNED_ZEROS__)},
                 {"rounding-math", ODE_DEFINED(__ROUNDING_MATH__)},
                 {"fma", ODE_DEFINED(__FMA__) || ODE_DEFINED(__FP_FAST_FMA)},
                 {"iso-c", ODE_DEFINED(__STRICT_ANSI__)}};
    int used = snprintf(out, size, "compiler=%s, arch=%s", compiler, arch);
    for (size_t k = 0; k < sizeof facts / sizeof *facts && used > 0 && (size_t)used < size; k++)
        used += snprintf(out + used, size - (size_t)used, ", %s=%s", facts[k].name, facts[k].on ? "yes" : "no");
    if (used > 0 && (size_t)used < size) snprintf(out + used, size - (size_t)used, ", flt-eval-method=%d", eval);
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
static char *ode_ck_index_text(const OdeCheckpoint *ck, long long done, unsigned long long bytes, uint64_t check,
                               const model_stats *st)
{
    char progress[1024];
    int used = snprintf(progress, sizeof progress,
                        "done: %lld\nrows: %llu\nrows check: %016llx\nsteps: %llu\nevals: %llu\nstatuses:", done, bytes,
                        (unsigned long long)check, st->steps, st->evals);
    for (int k = 0; k < MODEL_NSTATUS && used > 0 && (size_t)used < sizeof progress; k++)
        used += snprintf(progress + used, sizeof progress - (size_t)used, " %s %ld", model_status_name(k), st->count[k]);
    if (used > 0 && (size_t)used < sizeof progress)
        used += snprintf(progress + used, sizeof progress - (size_t)used, "\nlyap_trace_off: %ld", st->lyap_trace_off);
    const char *partial = ck->partial && !strchr(ck->partial, '\n') ? ck->partial : "";
    const size_t len = strlen(ODE_CK_MAGIC) + strlen(ck->identity) + strlen(progress) + strlen(partial) + 64;
    char *text = (char *)malloc(len);
    if (!text) return NULL;
    int n = snprintf(text, len, "%s%s%s\npartial: %s\n", ODE_CK_MAGIC, ck->identity, progress, partial);
    const uint64_t h = ode_fnv1a(ODE_FNV_START, text, (size_t)n);
    snprintf(text + n, len - (size_t)n, "check: %016llx\n", (unsigned long long)h);
    return text;
}

/* Whether the file open at fd begins with `mark` (a file odegen wrote). */
static int ode_ck_marked(int fd, const char *mark)
{
    char seen[32];
    const size_t len = strlen(mark);
    return len <= sizeof seen && pread(fd, seen, len, 0) == (ssize_t)len && memcmp(seen, mark, len) == 0;
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

/* Whether the regular file open at fd is a temporary index a killed run
 * left: it begins with the mark, or holds a beginning of it and nothing else
 * (empty too: the run was killed between making the file and writing it). */
static int ode_ck_tmp_ours(int fd, const struct stat *st)
{
    char seen[32];
    const size_t len = strlen(ODE_CK_MAGIC_ANY);
    if (ode_ck_marked(fd, ODE_CK_MAGIC_ANY)) return 1;
    if (st->st_size < 0 || (size_t)st->st_size >= len) return 0;
    const ssize_t n = pread(fd, seen, (size_t)st->st_size, 0);
    return n == (ssize_t)st->st_size && memcmp(seen, ODE_CK_MAGIC_ANY, (size_t)n) == 0;
}

/* Writes text to path atomically: FILE.tmp (made new: one left by a killed
 * run is replaced, any other file of that name refused), fsync, rename,
 * fsync of the directory.  0, or an errno value with the message in error. */
static int ode_ck_write_atomic(const OdeCheckpoint *ck, const char *text, char *error, size_t size)
{
    const char *path = ck->path, *tmp = ck->tmp_path;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST) {
        const int old = open(tmp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        struct stat st;
        const int ours = old >= 0 && fstat(old, &st) == 0 && S_ISREG(st.st_mode) && ode_ck_tmp_ours(old, &st);
        if (old >= 0) close(old);
        if (!ours) {
            snprintf(error, size, "cannot write checkpoint '%s': '%s' exists and was not written by odegen; remove it "
                     "or give another --checkpoint name", path, tmp);
            return EEXIST;
        }
        unlink(tmp);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    }
    int err = fd < 0 ? errno : 0;
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
    if (err && fd >= 0) unlink(tmp);
    if (!err) err = ode_ck_sync_dir(path);
    if (err) snprintf(error, size, "cannot write checkpoint '%s': %s", path, strerror(err));
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
    const uint64_t check = ck->done_check;
    const model_stats st = ck->stats_done;
    pthread_mutex_unlock(&ck->lock);
    if (done == ck->committed) return 0;
    if (fdatasync(ck->rows_fd) != 0 && errno != EINVAL) {
        const int err = errno;
        snprintf(error, size, "cannot write checkpoint '%s': %s", ck->rows_path, strerror(err));
        return err;
    }
    char *text = ode_ck_index_text(ck, done, bytes, check, &st);
    if (!text) {
        snprintf(error, size, "out of memory");
        return ENOMEM;
    }
    const int err = ode_ck_write_atomic(ck, text, error, size);
    free(text);
    if (err) return err;
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
        if (strcmp(here, there) != 0 && (!strcmp(key, "options") || !strcmp(key, "values") || !strcmp(key, "build")))
            ode_ck_items(there, here);
        if (strcmp(here, there) != 0 && used + 1 < size) {
            const int n = snprintf(out + used, size - used, "%s%s '%s' in the checkpoint, '%s' in this run",
                                   used ? "; " : "", key, there, here);
            used = n > 0 ? used + (size_t)n : used;
            if (used >= size) used = size - 1;
        }
        line = end + 1;
    }
}

/* The index's text, read with a bound (ODE_CK_INDEX_MOST): a regular file
 * that begins as an index, never a device or a pipe, nor read further than
 * an index can be.  0 and *out (malloc'd), -1 when there is none, or an exit
 * status after the message. */
static int ode_ck_read_index(const OdeCheckpoint *ck, char **out, int (*say)(const char *, ...))
{
    *out = NULL;
    const int fd = open(ck->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) return -1;
    if (fd < 0 && errno == ELOOP)
        return say("checkpoint '%s' is a symbolic link: give the checkpoint's own name", ck->path);
    if (fd < 0) return say("cannot read checkpoint '%s': %s", ck->path, strerror(errno));
    struct stat st;
    char *text = NULL;
    int status = 0;
    size_t len = 0;
    if (fstat(fd, &st) != 0) status = say("cannot read checkpoint '%s': %s", ck->path, strerror(errno));
    else if (!S_ISREG(st.st_mode)) status = say("checkpoint '%s' is not a regular file", ck->path);
    else if (!ode_ck_marked(fd, ODE_CK_MAGIC_ANY))
        status = say("'%s' is not an odegen checkpoint (it does not begin as one): remove it to start again, or give "
                     "another --checkpoint file", ck->path);
    else if ((size_t)st.st_size > ODE_CK_INDEX_MOST)
        status = say("checkpoint '%s' is damaged: %lld bytes, more than the %zu MiB an index can take; remove it to "
                     "start again", ck->path, (long long)st.st_size, ODE_CK_INDEX_MOST >> 20);
    else if (!ode_ck_marked(fd, ODE_CK_MAGIC))
        status = say("checkpoint '%s' was written by another version of odegen: remove it to start again", ck->path);
    else if (!(text = (char *)malloc((size_t)st.st_size + 1))) status = say("out of memory");
    while (!status) {   /* at most the size it had, which is bounded */
        const ssize_t got = pread(fd, text + len, (size_t)st.st_size - len, (off_t)len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) status = say("cannot read checkpoint '%s': %s", ck->path, strerror(errno));
        if (got <= 0) break;
        len += (size_t)got;
    }
    close(fd);
    if (status) {
        free(text);
        return status;
    }
    text[len] = 0;
    *out = text;
    return 0;
}

/* Reads the index of a checkpoint to resume: its identity must be this
 * run's.  Sets ck->resumed, replay_end, resumed_check and stats_resumed.
 * Returns 0, -1 when there is no checkpoint yet (a fresh start), or an exit
 * status after the message (say). */
static int ode_ck_read(OdeCheckpoint *ck, int (*say)(const char *, ...))
{
    char *text;
    int status = ode_ck_read_index(ck, &text, say);
    if (status) return status;
    char check[32], value[64];
    const char *check_line = strstr(text, "\ncheck: ");
    if (!check_line || !ode_ck_field(text, "check", check, sizeof check) ||
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
        ok = ok && ode_ck_field(text, "rows check", value, sizeof value);
        ck->resumed_check = ok ? strtoull(value, NULL, 16) : 0;
        ok = ok && ode_ck_field(text, "steps", value, sizeof value);
        ck->stats_resumed.steps = ok ? strtoull(value, NULL, 10) : 0;
        ok = ok && ode_ck_field(text, "evals", value, sizeof value);
        ck->stats_resumed.evals = ok ? strtoull(value, NULL, 10) : 0;
        char statuses[1024];
        statuses[0] = ' ';   /* each name between spaces */
        ok = ok && ode_ck_field(text, "statuses", statuses + 1, sizeof statuses - 2);
        strcat(statuses, " ");
        for (int k = 0; ok && k < MODEL_NSTATUS; k++) {
            char name[40];
            snprintf(name, sizeof name, " %s ", model_status_name(k));
            const char *at = strstr(statuses, name);
            ck->stats_resumed.count[k] = at ? atol(at + strlen(name)) : 0;
        }
        ck->stats_resumed.lyap_trace_off = ode_ck_field(text, "lyap_trace_off", value, sizeof value) ? atol(value) : 0;
        if (!ode_ck_field(text, "partial", ck->stale, sizeof ck->stale)) ck->stale[0] = 0;
        if (!ok || ck->resumed < 0 || ck->resumed > ck->systems || ck->replay_end < ODE_CK_ROWS_HEADER)
            status = say("checkpoint '%s' is damaged: remove it to start again", ck->path);
    }
    free(text);
    if (status) return status;
    struct stat st;
    if (ck->rows_made || fstat(ck->rows_fd, &st) != 0 || (unsigned long long)st.st_size < ck->replay_end)
        return say("checkpoint '%s' is missing rows: '%s' %s (%llu bytes needed); remove the checkpoint to start again",
                   ck->path, ck->rows_path, ck->rows_made ? "is missing" : "is shorter than its index says",
                   ck->replay_end);
    return 0;
}

/* Opens and locks FILE.rows, before anything else is read or written: a new
 * one (made here, with its mark), or one that odegen wrote (it begins with
 * its mark).  Anything else of that name — another file, a symbolic link, a
 * device, a pipe — is refused and left as it is.  0, or an exit status after
 * the message. */
static int ode_ck_lock(OdeCheckpoint *ck, int (*say)(const char *, ...))
{
    const char *rows = ck->rows_path;
    int fd = open(rows, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        fd = open(rows, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
        ck->rows_made = fd >= 0;
    }
    if (fd < 0 && errno == ELOOP)
        return say("'%s' is a symbolic link, not a file this checkpoint wrote: refusing to write through it; remove it or "
                   "give another --checkpoint name", rows);
    if (fd < 0) return say("cannot write checkpoint '%s': %s", rows, strerror(errno));
    ck->rows_fd = fd;
    struct stat st;
    if (fstat(fd, &st) != 0) return say("cannot write checkpoint '%s': %s", rows, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return say("'%s' is not a regular file, not one this checkpoint wrote: refusing to write to it; give another "
                   "--checkpoint name", rows);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    /* One run at a time: a lock on the rows, held until the process ends. */
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &lock) != 0) {
        ck->rows_made = 0;   /* (not this run's) */
        return say("checkpoint '%s' is in use by another run (which holds '%s')", ck->path, rows);
    }
    if (!ck->rows_made && !ode_ck_marked(fd, ODE_CK_ROWS_ANY))
        return say("'%s' exists and was not written by odegen: refusing to overwrite it; remove it or give another "
                   "--checkpoint name", rows);
    return 0;
}

/* Prepares the checkpoint of a run: locks FILE.rows first (a checkpoint that
 * another run holds is refused before anything else happens), then with
 * resume reads the one at path (which must be of this run; none yet is a
 * fresh start, with a note); without, refuses to replace one that exists.
 * Nothing is written yet (ode_ck_start does).  Returns 0 or an exit status
 * after the message. */
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
    ck->tmp_path = (char *)malloc(len);
    if (!ck->path || !ck->rows_path || !ck->tmp_path || !identity) return say("out of memory");
    snprintf(ck->rows_path, len, "%s.rows", path);
    snprintf(ck->tmp_path, len, "%s.tmp", path);
    pthread_mutex_init(&ck->lock, NULL);
    ck->lock_ready = 1;
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return say("checkpoint '%s' is %s: give the checkpoint's own name", path,
                   S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
    int status = ode_ck_lock(ck, say);
    if (status) return status;
    if (!resume) {
        if (lstat(path, &st) == 0)
            return say("checkpoint '%s' exists: add --resume to continue from it, or remove it to start again", path);
        return 0;
    }
    status = ode_ck_read(ck, say);
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
        ck->done_check = ck->log_check;
        ode_ck_stats_add(&ck->stats_done, &h->stats);
        free(h->side);
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
 * queued for the writer, with its statistics and (with ck->sides) its side
 * record, copied: logged once its rows are (main thread; in order). */
static void ode_ck_chunk(OdeCheckpoint *ck, long long first, long long count, const model_stats *st, const void *side,
                         size_t side_bytes)
{
    if (!ck->on) return;
    void *copy = NULL;
    if (ck->sides && !(copy = malloc(side_bytes ? side_bytes : 1))) ode_output_fatal_text("out of memory");
    if (copy && side_bytes) memcpy(copy, side, side_bytes);
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
    c->first = first;
    c->end = first + count;
    c->stats = *st;
    c->side = copy;
    c->side_bytes = side_bytes;
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

/* The checksum of a block in the log, after the one before's (`from`). */
static uint64_t ode_ck_block_check(uint64_t from, const OdeLogRecord *rec, const void *data)
{
    return ode_ck_sum(ode_ck_sum(from, rec, sizeof *rec), data, (size_t)rec->bytes);
}

/* Appends an entry (descriptor rec, then data) to the log (the writer thread's alone). */
static int ode_ck_log(OdeCheckpoint *ck, const OdeLogRecord *rec, const void *data, char *detail, size_t size)
{
    OdeLogEntry entry;
    memset(&entry, 0, sizeof entry);
    entry.rec = *rec;
    entry.check = ode_ck_block_check(ck->log_check, &entry.rec, data);   /* (log_check: this thread's alone) */
    int err = ode_ck_append(ck->rows_fd, &entry, sizeof entry);
    if (!err) err = ode_ck_append(ck->rows_fd, data, (size_t)rec->bytes);
    if (err) {
        snprintf(detail, size, "cannot write checkpoint '%s': %s", ck->rows_path, strerror(err));
        return err;
    }
    pthread_mutex_lock(&ck->lock);
    ck->log_bytes += sizeof entry + rec->bytes;
    ck->log_check = entry.check;
    pthread_mutex_unlock(&ck->lock);
    return 0;
}

/* The writer thread wrote a block to the output (OdeOutput.written): into
 * the log, then the side record of the chunk whose rows it completes, and
 * that chunk is done. */
static int ode_ck_written(void *context, const OdeBlock *b, char *detail, size_t size)
{
    OdeCheckpoint *ck = (OdeCheckpoint *)context;
    if (b->nsys == 0 || b->first < ck->resumed) return 0;   /* the header; a replayed block */
    const OdeLogRecord rows = ode_ck_record(b);
    int err = ode_ck_log(ck, &rows, b->data, detail, size);
    if (err) return err;
    const int complete = b->rep0 + b->nrep == ck->record;
    OdeLogRecord side;
    memset(&side, 0, sizeof side);
    const void *side_data = NULL;
    pthread_mutex_lock(&ck->lock);
    for (int j = 0; complete && j < ck->fifo_count; j++) {   /* (the chunk stays queued until written says so) */
        const OdeCkChunk *c = &ck->fifo[(ck->fifo_head + j) % ck->fifo_cap];
        if (c->end == b->first + b->nsys && c->side) {
            side.first = c->first;
            side.nsys = (int32_t)(c->end - c->first);
            side.side = 1;
            side.bytes = c->side_bytes;
            side_data = c->side;
        }
    }
    pthread_mutex_unlock(&ck->lock);
    if (side_data && (err = ode_ck_log(ck, &side, side_data, detail, size))) return err;
    pthread_mutex_lock(&ck->lock);
    if (complete) ck->written = b->first + b->nsys;
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
 * when every is 0); on a stop signal commits once more, then ends the run
 * as the output's handler does (ode_on_signal: 130, 143 or 129). */
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

/* Whether path looks like a temporary output of output.c's (".NAME.XXXXXX",
 * mkstemp's six characters) and is a regular file of this user's. */
static int ode_ck_temporary(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const size_t n = strlen(base);
    if (n < 9 || base[0] != '.' || base[n - 7] != '.') return 0;
    for (size_t i = n - 6; i < n; i++)
        if (!isalnum((unsigned char)base[i])) return 0;
    struct stat st;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
}

/* The output this run writes under a temporary name (NULL: in place), for
 * the index (an absolute name, so that a resume from another folder finds
 * it); the one that the run that wrote the checkpoint left behind (killed),
 * whatever its output's name, is removed: this run holds the lock, so that
 * run is over. */
static void ode_ck_partial(OdeCheckpoint *ck, const char *tmp)
{
    if (!ck->on) return;
    if (tmp && tmp[0] != '/') {
        char cwd[4096];
        if (getcwd(cwd, sizeof cwd)) {
            const size_t len = strlen(cwd) + strlen(tmp) + 2;
            if ((ck->partial = (char *)malloc(len))) snprintf(ck->partial, len, "%s/%s", cwd, tmp);
        }
    }
    if (tmp && !ck->partial) ck->partial = ode_ck_strdup(tmp);
    if (ck->stale[0] && (!ck->partial || strcmp(ck->stale, ck->partial) != 0) && ode_ck_temporary(ck->stale))
        unlink(ck->stale);
}

/* Makes the log new (FILE.rows, locked, emptied: a fresh start) or cuts a
 * resumed one where its index says, writes the first index, and starts the
 * checkpoint thread; from here on a stop signal commits before ending the
 * run.  The replay of the resumed rows (ode_ck_replay) comes next.  0, or an
 * exit status after the message. */
static int ode_ck_start(OdeCheckpoint *ck, int (*say)(const char *, ...))
{
    if (!ck->on) return 0;
    char error[600];
    const int fresh = ck->resumed == 0 && ck->replay_end == 0;
    unsigned char header[ODE_CK_ROWS_HEADER];
    const uint32_t order = ODE_CK_ORDER;
    memset(header, 0, sizeof header);
    memcpy(header, ODE_CK_ROWS_MAGIC, 16);
    memcpy(header + 16, &order, 4);
    if (fresh) {
        int err = ftruncate(ck->rows_fd, 0) != 0 ? errno : 0;
        if (!err) err = lseek(ck->rows_fd, 0, SEEK_SET) < 0 ? errno : 0;
        if (!err) err = ode_ck_append(ck->rows_fd, header, sizeof header);
        if (err) return say("cannot write checkpoint '%s': %s", ck->rows_path, strerror(err));
        ck->replay_end = sizeof header;
        ck->resumed_check = ode_ck_sum(ODE_FNV_START, header, sizeof header);
    } else {
        unsigned char seen[ODE_CK_ROWS_HEADER];
        if (pread(ck->rows_fd, seen, sizeof seen, 0) != (ssize_t)sizeof seen || memcmp(seen, header, sizeof seen) != 0)
            return say("checkpoint '%s' is damaged: '%s' does not begin as odegen's rows (of this version, and this "
                       "machine's byte order); remove the checkpoint to start again",
                       ck->path, ck->rows_path);
        if (ftruncate(ck->rows_fd, (off_t)ck->replay_end) != 0 || lseek(ck->rows_fd, 0, SEEK_END) < 0)
            return say("cannot write checkpoint '%s': %s", ck->rows_path, strerror(errno));
    }
    ck->replay_at = ODE_CK_ROWS_HEADER;
    ck->replay_check = ode_ck_sum(ODE_FNV_START, header, sizeof header);
    ck->log_bytes = ck->replay_end;
    ck->log_check = ck->resumed_check;   /* trusted once the replay has checked it (ode_ck_replay) */
    ck->written = ck->done = ck->resumed;
    ck->done_bytes = ck->replay_end;
    ck->done_check = ck->resumed_check;
    ck->stats_done = ck->stats_resumed;
    if (ode_ck_commit(ck, error, sizeof error)) return say("%s", error);

    int fds[2];
    if (pipe(fds) != 0) return say("cannot start the checkpoint thread: %s", strerror(errno));
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    ck->pipe_read = fds[0];
    ode_ck_pipe_write = fds[1];
    sigset_t block, old;
    ode_stop_signals(&block);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    const int err = pthread_create(&ck->thread, NULL, ode_ck_thread, ck);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err) return say("cannot start the checkpoint thread: %s", strerror(err));
    ck->thread_started = 1;
    return 0;
}

/* A checkpoint that fails a check on resuming: the message (for the caller's
 * say), -1. */
static int ode_ck_damaged(const OdeCheckpoint *ck, char *error, size_t size, const char *what)
{
    snprintf(error, size, "checkpoint '%s' is damaged: %s; remove it to start again", ck->path, what);
    return -1;
}

/* The next block of the resumed rows, read into *b (its data grown as
 * needed) and checked: its checksum, and that it holds the rows that come
 * next; after the last, that they are the rows of the systems the index says
 * are done, with the index's checksum.  Returns 1 (rows), 2 (a chunk's side
 * record: the caller groups its fingerprints), or 0 when all are given (or
 * there were none), or -1 after a read error or a failed check (message in
 * error).  The caller queues it for the writer (ode_output_put), which
 * writes it again but does not log it again. */
static int ode_ck_replay(OdeCheckpoint *ck, OdeBlock *b, char *error, size_t size)
{
    char what[400];
    if (!ck->on || ck->replay_done) return 0;
    if (ck->replay_at >= ck->replay_end) {
        ck->replay_done = 1;
        const long long held = ck->replay_rep ? ck->replay_system + 1 : ck->replay_system;
        if (ck->record > 0 && (held != ck->resumed || ck->replay_rep != 0)) {
            snprintf(what, sizeof what, "its index says %lld systems are done, but '%s' holds the rows of %lld%s",
                     ck->resumed, ck->rows_path, held, ck->replay_rep ? " (the last one in part)" : "");
            return ode_ck_damaged(ck, error, size, what);
        }
        if (ck->sides && ck->replay_sides != ck->resumed) {
            snprintf(what, sizeof what, "its index says %lld systems are done, but '%s' holds the attractors' "
                     "fingerprints of %lld", ck->resumed, ck->rows_path, ck->replay_sides);
            return ode_ck_damaged(ck, error, size, what);
        }
        if (ck->replay_check != ck->resumed_check) {
            snprintf(what, sizeof what, "'%s' does not have the checksum its index says", ck->rows_path);
            return ode_ck_damaged(ck, error, size, what);
        }
        return 0;
    }
    OdeLogEntry entry;
    const unsigned long long at = ck->replay_at, room = ck->replay_end - at;
    ssize_t got = pread(ck->rows_fd, &entry, sizeof entry, (off_t)at);
    if (room < sizeof entry || got != (ssize_t)sizeof entry || entry.rec.bytes > room - sizeof entry) {
        snprintf(what, sizeof what, "the block at byte %llu of '%s' %s", at, ck->rows_path,
                 got != (ssize_t)sizeof entry ? "cannot be read" : "goes past the end its index says");
        return ode_ck_damaged(ck, error, size, what);
    }
    if (ode_output_room(b, (size_t)entry.rec.bytes) != 0) {
        snprintf(error, size, "out of memory for a block of %llu bytes", (unsigned long long)entry.rec.bytes);
        return -1;
    }
    got = pread(ck->rows_fd, b->data, (size_t)entry.rec.bytes, (off_t)(at + sizeof entry));
    if (got != (ssize_t)entry.rec.bytes) {
        snprintf(what, sizeof what, "the block at byte %llu of '%s' cannot be read", at, ck->rows_path);
        return ode_ck_damaged(ck, error, size, what);
    }
    const OdeLogRecord *rec = &entry.rec;
    if (ode_ck_block_check(ck->replay_check, rec, b->data) != entry.check) {
        snprintf(what, sizeof what, "the block at byte %llu of '%s' (systems %lld to %lld) does not match its checksum",
                 at, ck->rows_path, (long long)rec->first, (long long)rec->first + rec->nsys - 1);
        return ode_ck_damaged(ck, error, size, what);
    }
    if (rec->side) {   /* a chunk's side record: right after its rows, of the systems after the last one's */
        if (!ck->sides || rec->side != 1 || rec->first != ck->replay_sides || rec->nsys < 1 || rec->rep0 || rec->nrep ||
            rec->first + (long long)rec->nsys != ck->replay_system || ck->replay_rep != 0) {
            snprintf(what, sizeof what, "the block at byte %llu of '%s' holds %s of systems %lld to %lld, where %s", at,
                     ck->rows_path, ck->sides ? "fingerprints" : "a side record", (long long)rec->first,
                     (long long)rec->first + rec->nsys - 1,
                     ck->sides ? "they do not come next" : "this run keeps none");
            return ode_ck_damaged(ck, error, size, what);
        }
        ck->replay_sides = rec->first + rec->nsys;
        ck->replay_check = entry.check;
        b->first = rec->first;
        b->nsys = rec->nsys;
        b->rep0 = b->nrep = 0;
        b->bytes = (size_t)rec->bytes;
        ck->replay_at += sizeof entry + rec->bytes;
        return 2;
    }
    /* Its place: the rows that come next, whole systems or one system's next reps, all of them done. */
    const int whole = rec->rep0 == 0 && rec->nrep == ck->record;
    if (rec->first != ck->replay_system || rec->rep0 != ck->replay_rep || rec->nsys < 1 || rec->nrep < 1 ||
        (!whole && rec->nsys != 1) || rec->rep0 + (long long)rec->nrep > ck->record ||
        rec->first + (long long)rec->nsys > ck->resumed) {
        snprintf(what, sizeof what, "the block at byte %llu of '%s' holds system %lld, rep %d, where system %lld, rep %d "
                 "comes next", at, ck->rows_path, (long long)rec->first, rec->rep0, ck->replay_system, ck->replay_rep);
        return ode_ck_damaged(ck, error, size, what);
    }
    if (rec->rep0 + rec->nrep == ck->record) {
        ck->replay_system = rec->first + rec->nsys;
        ck->replay_rep = 0;
    } else {
        ck->replay_rep = rec->rep0 + rec->nrep;
    }
    ck->replay_check = entry.check;
    b->first = rec->first;
    b->nsys = rec->nsys;
    b->rep0 = rec->rep0;
    b->nrep = rec->nrep;
    b->bytes = (size_t)rec->bytes;
    ck->replay_at += sizeof entry + rec->bytes;
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
    if (ck->on && ck->rows_fd >= 0 && ck->committed >= 0) {   /* (started: ode_ck_start committed once) */
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
    if (ck->rows_fd >= 0 && ck->rows_made && ck->committed < 0) unlink(ck->rows_path);   /* made, never used */
    if (ck->rows_fd >= 0) close(ck->rows_fd);
    if (ck->pipe_read >= 0) close(ck->pipe_read);
    if (ode_ck_pipe_write >= 0) close(ode_ck_pipe_write);
    ode_ck_pipe_write = -1;
    if (ck->lock_ready) pthread_mutex_destroy(&ck->lock);
    for (int j = 0; j < ck->fifo_count; j++) free(ck->fifo[(ck->fifo_head + j) % ck->fifo_cap].side);
    free(ck->fifo);
    free(ck->path);
    free(ck->rows_path);
    free(ck->tmp_path);
    free(ck->identity);
    free(ck->partial);
    memset(ck, 0, sizeof *ck);
    ck->rows_fd = ck->pipe_read = -1;
}
