/* mpi_chunks.c — a scan's chunks handed out over MPI (built with make MPI=1,
 * -DODE_MPI): the manager/worker protocol that the MPI runner
 * (mpi_runner.c) and the library's model_mpi_scan (mpi_scan.c) share.
 *
 * Rank 0 manages.  It hands out chunks of systems, in the scan's order, to
 * the ranks that ask; a rank asks whenever one of its solvers is free, so
 * that ranks whose systems are cheap take more chunks.  It takes back each
 * chunk's statistics and, in the runner, its rows ready to write (blocks of
 * output.h, prepared by the rank that computed them), and completes the
 * chunks in order: a chunk's rows go to the output once every chunk before
 * it has gone.  Rows that come before their turn wait in memory, at most
 * `budget` bytes of them (beyond that rank 0 receives from a rank only when
 * its chunk's turn has come, and that rank waits), and no chunk is handed
 * out more than `window` chunks ahead of the oldest unwritten one: rank 0
 * never holds the whole result.  Rank 0 computes too when MPI lets a second
 * thread call it: the manager then runs in a thread of its own, and rank 0's
 * main thread is a worker that talks to it through memory (the "local" link).
 *
 * Messages, on a communicator of their own (duplicated from the caller's):
 *   worker → 0   REQUEST  long long: most systems it takes    a solver of it is free
 *   0 → worker   ASSIGN   OdeAssign                          a chunk, or none (index -1)
 *   worker → 0   DONE     OdeDone                            a chunk's statistics; how many BLOCKs follow
 *   worker → 0   BLOCK    the bytes, then an OdeLogRecord    rows of that chunk, in order
 *   worker → 0   FAIL     OdeFail                            it failed: the chunk and the message
 *   worker → 0   PRINTS   fingerprints, then an OdePrints   `attractor`: a chunk's fingerprints
 *   0 → worker   LABELS   int 1, then the chunk's labels     when it asked for them (int 0: none
 *                                                           will come, after a failure)
 * A worker sends a chunk's DONE (PRINTS) and BLOCKs before it asks for more,
 * so rank 0 knows which chunk each rank's next BLOCK belongs to.
 *
 * With `attractor` (grouping on), rank 0 groups the chunks' fingerprints
 * into its attractor table in the order of the chunks, as one process does,
 * as soon as every chunk before has been grouped (sink_group), and sends a
 * chunk's labels back to the worker that asked for them: a worker whose
 * rows hold the field `attractor` waits for them before it prepares its
 * rows.  A chunk goes to the output only once it is grouped.  Every wait polls
 * and sleeps: a rank that waits uses no CPU (MPI's blocking calls spin); in
 * the runner it also watches the other ranks (mpi_watch.c: a rank that
 * stops answering is reported, and with --mpi-timeout ends the job).
 *
 * A rank that fails sends FAIL: rank 0 stops handing out chunks, lets the
 * others finish the chunks they hold, writes what can be written in order
 * (a checkpoint keeps it), and every rank returns the failure.
 */
#ifdef ODE_MPI
#ifndef ODEGEN_GENERATED
#include "mpi_watch.c"
#endif

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { ODE_TAG_REQUEST = 7001, ODE_TAG_ASSIGN, ODE_TAG_DONE, ODE_TAG_BLOCK, ODE_TAG_FAIL, ODE_TAG_PRINTS, ODE_TAG_LABELS };

typedef struct OdeAssign {
    long long index;           /* the chunk's number, in the order handed out; -1: no more */
    long long first, count;    /* its systems */
} OdeAssign;

typedef struct OdeDone {
    long long index;
    long long nblocks;         /* BLOCK messages that follow */
    unsigned long long steps, evals;
    long long count[MODEL_NSTATUS];
    long long lyap_off;        /* model_stats' lyap_trace_off */
    double seconds;            /* its integration */
} OdeDone;

typedef struct OdeFail {
    long long index;           /* the chunk it failed on; -1: none */
    char text[600];
} OdeFail;

typedef struct OdePrints {     /* trails a PRINTS message's fingerprints */
    long long index;
    long long want;            /* 1: the worker waits for the chunk's labels */
} OdePrints;

/* ------------------------------------------------------------------ the manager (rank 0) */

typedef struct OdeHeld {       /* a block that came before its turn */
    struct OdeHeld *next;
    OdeBlock block;
} OdeHeld;

typedef struct OdeMChunk {     /* a chunk handed out, until written */
    long long first, count;
    int owner;
    int done;                  /* its DONE came */
    int given;                 /* its statistics went to the sink */
    OdeDone stats;
    long long fed;             /* its blocks given to the sink */
    OdeHeld *head, *tail;
    char *prints;              /* its fingerprints (grouping on), until written */
    size_t prints_bytes;
    int want;                  /* its worker waits for its labels */
    int answered;              /* they were sent (or that none will come) */
    int *local_labels;         /* rank 0's own worker: [0] 1 (or 0: none), then its labels */
} OdeMChunk;

typedef struct OdeMRank {
    int wants;                 /* asked for a chunk, not answered yet */
    int finished;              /* told there is no more, or failed */
    long long limit;           /* most systems it takes per chunk */
    long long sending, left;   /* the chunk its next BLOCKs belong to, and how many are to come */
    int outstanding;           /* chunks handed to it whose DONE has not come */
} OdeMRank;

typedef struct OdeManager {
    MPI_Comm comm;
    int size;
    long long next_first, end;  /* systems still to hand out: [next_first, end) */
    long long chunk;            /* systems per chunk, at most */
    long long handed, written;  /* chunks handed out; chunks given to the sink, in order */
    long long grouped;          /* chunks whose fingerprints were grouped, in order (grouping on) */
    int grouping;
    int window;
    OdeMChunk *ring;            /* chunk j at ring[j % window] */
    OdeMRank *ranks;
    size_t held_bytes, budget;
    /* What rank 0 does with finished chunks, in order (any may be NULL):
     * replay gives the rows of a resumed checkpoint first (1 while there are
     * more, 0 when done, -1 failed); chunk takes a chunk's statistics before
     * its blocks; block takes a block (it may swap b's data for another
     * buffer, which is then freed). */
    void *sink;
    int (*sink_replay)(void *sink);
    void (*sink_chunk)(void *sink, const OdeMChunk *c);
    void (*sink_block)(void *sink, OdeBlock *b);
    /* With grouping: chunk c's fingerprints (c->prints) grouped, in order;
     * their labels into labels[c->count] when not NULL.  0, or non-zero
     * with the message in error. */
    int (*sink_group)(void *sink, const OdeMChunk *c, int *labels, char *error, size_t size);
    int replaying;
    /* Rank 0's own worker, when it computes: through memory, under lock. */
    int local;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    OdeAssign local_answer;
    int local_answered;
    /* The first failure: 1 + the rank, the chunk it was on, the message. */
    int failed;
    long long failed_chunk;
    char failure[600];
} OdeManager;

/* Hands out systems [begin, end) in chunks of at most `chunk`. */
static int ode_mgr_init(OdeManager *m, MPI_Comm comm, long long begin, long long end, long long chunk, int local)
{
    memset(m, 0, sizeof *m);
    m->comm = comm;
    MPI_Comm_size(comm, &m->size);
    m->next_first = begin;
    m->end = end;
    m->chunk = chunk > 0 ? chunk : 1;
    m->window = 4 * m->size + 8;
    m->budget = (size_t)512 << 20;
    m->local = local;
    m->failed_chunk = -1;
    m->ring = (OdeMChunk *)calloc((size_t)m->window, sizeof *m->ring);
    m->ranks = (OdeMRank *)calloc((size_t)m->size, sizeof *m->ranks);
    if (!m->ring || !m->ranks) return -1;
    for (int k = 0; k < m->size; k++) {
        m->ranks[k].sending = -1;
        m->ranks[k].limit = m->chunk;
    }
    if (!local) m->ranks[0].finished = 1;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->wake, NULL);
    return 0;
}

static void ode_mgr_free(OdeManager *m)
{
    for (int j = 0; m->ring && j < m->window; j++) {
        free(m->ring[j].prints);
        for (OdeHeld *h = m->ring[j].head, *next; h; h = next) {
            next = h->next;
            free(h->block.data);
            free(h);
        }
    }
    if (m->ring) {
        pthread_mutex_destroy(&m->lock);
        pthread_cond_destroy(&m->wake);
    }
    free(m->ring);
    free(m->ranks);
    memset(m, 0, sizeof *m);
}

/* A failure of rank k (on chunk `index`, -1 if none): the first is kept;
 * the rank gets no more chunks, and its chunks will not be written. */
static void ode_mgr_failed(OdeManager *m, int k, long long index, const char *text)
{
    OdeMRank *rk = &m->ranks[k];
    if (!m->failed) {
        m->failed = k + 1;
        snprintf(m->failure, sizeof m->failure, "%s", text);
        m->failed_chunk = index;
    }
    for (long long j = m->written; j < m->handed; j++) {   /* its earliest unfinished chunk */
        const OdeMChunk *c = &m->ring[j % m->window];
        if (c->owner == k && !c->done && (m->failed_chunk < 0 || j < m->failed_chunk)) m->failed_chunk = j;
    }
    rk->finished = 1;
    rk->outstanding = 0;
    rk->left = 0;
    rk->wants = 0;
    pthread_cond_broadcast(&m->wake);
}

/* Answers rank k's request: the next chunk, or none; 0 when it must wait
 * (the window is full).  Under lock. */
static int ode_mgr_answer(OdeManager *m, int k)
{
    OdeAssign a;
    OdeMRank *rk = &m->ranks[k];
    memset(&a, 0, sizeof a);
    if (m->failed || m->next_first >= m->end) {
        a.index = -1;
        rk->finished = 1;
    } else {
        if (m->handed >= m->written + m->window) return 0;
        long long count = m->chunk < rk->limit ? m->chunk : rk->limit;
        if (count > m->end - m->next_first) count = m->end - m->next_first;
        if (count < 1) count = 1;
        a.index = m->handed;
        a.first = m->next_first;
        a.count = count;
        OdeMChunk *c = &m->ring[m->handed % m->window];
        free(c->prints);   /* (a written chunk's, kept after a failure) */
        memset(c, 0, sizeof *c);
        c->first = a.first;
        c->count = count;
        c->owner = k;
        m->next_first += count;
        m->handed++;
        rk->outstanding++;
    }
    rk->wants = 0;
    if (k == 0 && m->local) {
        m->local_answer = a;
        m->local_answered = 1;
        pthread_cond_broadcast(&m->wake);
    } else if (MPI_Send(&a, (int)sizeof a, MPI_BYTE, k, ODE_TAG_ASSIGN, m->comm) != MPI_SUCCESS) {
        ode_mgr_failed(m, k, -1, "lost (MPI_Send failed)");
    }
    return 1;
}

/* A chunk's DONE, from rank k.  Under lock. */
static void ode_mgr_done(OdeManager *m, int k, const OdeDone *d)
{
    OdeMRank *rk = &m->ranks[k];
    if (rk->outstanding > 0) rk->outstanding--;
    if (d->nblocks > 0 && k != 0) {   /* rank 0's own blocks come through memory */
        rk->sending = d->index;
        rk->left = d->nblocks;
    }
    if (d->index < m->written || d->index >= m->handed) return;
    OdeMChunk *c = &m->ring[d->index % m->window];
    c->done = 1;
    c->stats = *d;
}

/* A block of chunk j: held until its turn (or dropped after a failure, when
 * it can never be written).  Takes b's data.  Under lock. */
static void ode_mgr_hold(OdeManager *m, long long j, OdeBlock *b)
{
    OdeHeld *h = NULL;
    if (!(m->failed && m->failed_chunk >= 0 && j >= m->failed_chunk) && j >= m->written && j < m->handed)
        h = (OdeHeld *)malloc(sizeof *h);
    if (!h) {
        free(b->data);
        memset(b, 0, sizeof *b);
        return;
    }
    h->next = NULL;
    h->block = *b;
    memset(b, 0, sizeof *b);
    OdeMChunk *c = &m->ring[j % m->window];
    if (c->tail) c->tail->next = h;
    else c->head = h;
    c->tail = h;
    m->held_bytes += h->block.bytes;
}

/* Chunk c's labels (or, answer 0, word that none will come) to the worker
 * that waits for them.  Under lock. */
static void ode_mgr_answer_labels(OdeManager *m, OdeMChunk *c, int *labels, int answer)
{
    c->answered = 1;
    if (!c->want) return;
    if (c->owner == 0 && m->local) {
        if (!c->local_labels) return;
        c->local_labels[0] = answer;
        if (answer) memcpy(c->local_labels + 1, labels + 1, sizeof(int) * (size_t)c->count);
        pthread_cond_broadcast(&m->wake);
        return;
    }
    const int none = 0;
    const int sent = answer ? MPI_Send(labels, (int)c->count + 1, MPI_INT, c->owner, ODE_TAG_LABELS, m->comm)
                            : MPI_Send(&none, 1, MPI_INT, c->owner, ODE_TAG_LABELS, m->comm);
    if (sent != MPI_SUCCESS) ode_mgr_failed(m, c->owner, -1, "lost (MPI_Send failed)");
}

/* With grouping: the chunks whose fingerprints came, grouped in order, their
 * labels sent to whoever waits for them; after a failure, those that can no
 * longer be grouped answered with none.  Under lock. */
static int ode_mgr_group(OdeManager *m)
{
    if (!m->grouping || m->replaying) return 0;
    int progress = 0;
    while (m->grouped < m->handed && (!m->failed || (m->failed_chunk >= 0 && m->grouped < m->failed_chunk))) {
        OdeMChunk *c = &m->ring[m->grouped % m->window];
        if (!c->prints) break;
        int *labels = c->want ? (int *)malloc(sizeof(int) * (size_t)(c->count + 1)) : NULL;
        char error[600] = "out of memory for the labels";
        if ((c->want && !labels) || m->sink_group(m->sink, c, labels ? labels + 1 : NULL, error, sizeof error)) {
            free(labels);
            ode_mgr_failed(m, 0, m->grouped, error);
            break;
        }
        if (labels) labels[0] = 1;
        ode_mgr_answer_labels(m, c, labels, 1);
        free(labels);
        m->grouped++;
        progress = 1;
    }
    for (long long j = m->grouped; m->failed && j < m->handed; j++) {
        OdeMChunk *c = &m->ring[j % m->window];
        if (c->prints && !c->answered) {
            ode_mgr_answer_labels(m, c, NULL, 0);
            progress = 1;
        }
    }
    return progress;
}

/* Gives the sink what is ready, in order: the resumed rows first, then each
 * chunk whose DONE came (and, grouping, that is grouped: its statistics,
 * then its blocks as they come).  Under lock. */
static int ode_mgr_pump(OdeManager *m)
{
    int progress = 0;
    if (m->replaying) {
        const int more = m->sink_replay(m->sink);
        if (more < 0) ode_mgr_failed(m, 0, -1, "cannot replay the checkpoint");
        if (more <= 0) m->replaying = 0;
        return 1;
    }
    progress |= ode_mgr_group(m);
    while (m->written < m->handed) {
        OdeMChunk *c = &m->ring[m->written % m->window];
        if (!c->done || (m->grouping && m->written >= m->grouped)) break;
        if (!c->given) {
            if (m->sink_chunk) m->sink_chunk(m->sink, c);
            c->given = 1;
            progress = 1;
        }
        while (c->head) {
            OdeHeld *h = c->head;
            c->head = h->next;
            if (!c->head) c->tail = NULL;
            m->held_bytes -= h->block.bytes;
            if (m->sink_block) m->sink_block(m->sink, &h->block);
            free(h->block.data);
            free(h);
            c->fed++;
            progress = 1;
        }
        if (c->fed < c->stats.nblocks) break;
        free(c->prints);
        c->prints = NULL;
        m->written++;
        pthread_cond_broadcast(&m->wake);
    }
    return progress;
}

/* Everything handed out came back (or a failure ended the handing out) and
 * every rank was told there is no more.  Under lock. */
static int ode_mgr_over(const OdeManager *m)
{
    for (int k = 0; k < m->size; k++) {
        const OdeMRank *rk = &m->ranks[k];
        if (!rk->finished || rk->outstanding > 0 || rk->left > 0) return 0;
    }
    return m->failed || (m->written == m->handed && m->next_first >= m->end && !m->replaying);
}

/* Chunk p->index's fingerprints from rank k (their buffer taken; with
 * labels, where rank 0's own worker wants them).  Under lock. */
static void ode_mgr_prints(OdeManager *m, int k, const OdePrints *p, char *data, size_t bytes, int *labels)
{
    OdeMChunk *c = p->index >= m->written && p->index < m->handed ? &m->ring[p->index % m->window] : NULL;
    if (!c || c->owner != k || c->prints) {
        free(data);
        if (!m->failed) ode_mgr_failed(m, k, -1, "sent fingerprints of a chunk it does not hold");
        return;
    }
    c->prints = data;
    c->prints_bytes = bytes;
    c->want = p->want != 0;
    c->local_labels = labels;
}

/* Receives what rank k has sent, as long as it can be taken now.  Under lock. */
static int ode_mgr_receive(OdeManager *m, int k)
{
    int progress = 0;
    OdeMRank *rk = &m->ranks[k];
    for (;;) {
        int flag = 0, bytes = 0;
        MPI_Status st;
        if (MPI_Iprobe(k, MPI_ANY_TAG, m->comm, &flag, &st) != MPI_SUCCESS) {
            ode_mgr_failed(m, k, -1, "lost (MPI_Iprobe failed)");
            return 1;
        }
        if (!flag) return progress;
        ode_watch_heard(k);
        /* A block before its turn, and memory full: later (rank k waits). */
        if (st.MPI_TAG == ODE_TAG_BLOCK && rk->sending != m->written && m->held_bytes >= m->budget && !m->failed)
            return progress;
        MPI_Get_count(&st, MPI_BYTE, &bytes);
        char *buf = (char *)malloc(bytes > 0 ? (size_t)bytes : 1);
        if (!buf || MPI_Recv(buf, bytes, MPI_BYTE, k, st.MPI_TAG, m->comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            free(buf);
            ode_mgr_failed(m, 0, -1, "out of memory, or MPI_Recv failed, receiving rows");
            return 1;
        }
        progress = 1;
        if (st.MPI_TAG == ODE_TAG_REQUEST && bytes == (int)sizeof(long long)) {
            memcpy(&rk->limit, buf, sizeof(long long));
            rk->wants = !rk->finished;
            free(buf);
        } else if (st.MPI_TAG == ODE_TAG_DONE && bytes == (int)sizeof(OdeDone)) {
            OdeDone d;
            memcpy(&d, buf, sizeof d);
            free(buf);
            ode_mgr_done(m, k, &d);
        } else if (st.MPI_TAG == ODE_TAG_BLOCK && bytes >= (int)sizeof(OdeLogRecord) && rk->left > 0) {
            OdeLogRecord rec;   /* the descriptor trails the bytes, so that they start the allocation */
            memcpy(&rec, buf + bytes - (int)sizeof rec, sizeof rec);
            OdeBlock b;
            b.first = rec.first;
            b.nsys = rec.nsys;
            b.rep0 = rec.rep0;
            b.nrep = rec.nrep;
            b.data = buf;
            b.bytes = (size_t)rec.bytes;
            b.cap = (size_t)bytes;
            ode_mgr_hold(m, rk->sending, &b);
            if (--rk->left == 0) rk->sending = -1;
        } else if (st.MPI_TAG == ODE_TAG_PRINTS && bytes >= (int)sizeof(OdePrints) && m->grouping) {
            OdePrints p;   /* (the descriptor trails the fingerprints) */
            memcpy(&p, buf + bytes - (int)sizeof p, sizeof p);
            ode_mgr_prints(m, k, &p, buf, (size_t)bytes - sizeof p, NULL);
        } else if (st.MPI_TAG == ODE_TAG_FAIL && bytes == (int)sizeof(OdeFail)) {
            OdeFail f;
            memcpy(&f, buf, sizeof f);
            free(buf);
            f.text[sizeof f.text - 1] = 0;
            ode_mgr_failed(m, k, f.index, f.text);
        } else {
            free(buf);
            char text[100];
            snprintf(text, sizeof text, "sent an unexpected message (tag %d, %d bytes)", st.MPI_TAG, bytes);
            ode_mgr_failed(m, k, -1, text);
        }
    }
}

/* One round: every rank's messages, the requests that can be answered, the
 * sink.  Returns whether anything happened. */
static int ode_mgr_step(OdeManager *m)
{
    pthread_mutex_lock(&m->lock);
    int progress = 0;
    for (int k = 1; k < m->size; k++) progress |= ode_mgr_receive(m, k);
    for (int k = 0; k < m->size; k++)
        if (m->ranks[k].wants) progress |= ode_mgr_answer(m, k);
    progress |= ode_mgr_pump(m);
    pthread_mutex_unlock(&m->lock);
    return progress;
}

/* The manager's loop: until every chunk is written and every rank told so,
 * or a failure has run its course. */
static void ode_mgr_run(OdeManager *m)
{
    int idle = 0;
    for (;;) {
        if (ode_mgr_step(m)) idle = 0;
        else ode_mpi_nap(&idle);
        ode_watch_check("collecting the chunks' results");
        pthread_mutex_lock(&m->lock);
        const int over = ode_mgr_over(m);
        pthread_mutex_unlock(&m->lock);
        if (over) return;
    }
}

static void *ode_mgr_thread(void *arg)
{
    ode_mgr_run((OdeManager *)arg);
    return NULL;
}

/* ------------------------------------------------------------------ a worker's link to the manager */

typedef struct OdeLink {
    OdeManager *m;            /* rank 0's own worker: through memory */
    MPI_Comm comm;            /* any other rank's: messages to rank 0 */
    MPI_Request answer_req;
    OdeAssign answer;
    long long limit;
} OdeLink;

static int ode_link_request(OdeLink *l)
{
    if (l->m) {
        pthread_mutex_lock(&l->m->lock);
        l->m->ranks[0].limit = l->limit;
        if (!l->m->ranks[0].finished) l->m->ranks[0].wants = 1;
        pthread_mutex_unlock(&l->m->lock);
        return 0;
    }
    if (MPI_Irecv(&l->answer, (int)sizeof l->answer, MPI_BYTE, 0, ODE_TAG_ASSIGN, l->comm, &l->answer_req) != MPI_SUCCESS)
        return -1;
    MPI_Request req;
    if (MPI_Isend(&l->limit, (int)sizeof l->limit, MPI_BYTE, 0, ODE_TAG_REQUEST, l->comm, &req) != MPI_SUCCESS) return -1;
    return ode_watch_wait(&req, "asking rank 0 for work");
}

/* The manager's answer: 1 (in *a), 0 not yet (wait 0), -1 on an MPI error. */
static int ode_link_answer(OdeLink *l, OdeAssign *a, int wait)
{
    OdeManager *m = l->m;
    if (m) {
        pthread_mutex_lock(&m->lock);
        while (wait && !m->local_answered && !m->ranks[0].finished) pthread_cond_wait(&m->wake, &m->lock);
        int got = 0;
        if (m->local_answered) {
            *a = m->local_answer;
            m->local_answered = 0;
            got = 1;
        } else if (wait) {   /* no answer will come */
            memset(a, 0, sizeof *a);
            a->index = -1;
            got = 1;
        }
        pthread_mutex_unlock(&m->lock);
        return got;
    }
    int done = 0;
    if (wait) {
        if (ode_watch_wait(&l->answer_req, "expecting work from rank 0")) return -1;
        done = 1;
    } else if (MPI_Test(&l->answer_req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
        return -1;
    }
    if (done) *a = l->answer;
    return done;
}

static int ode_link_done(OdeLink *l, const OdeDone *d)
{
    if (l->m) {
        pthread_mutex_lock(&l->m->lock);
        ode_mgr_done(l->m, 0, d);
        pthread_mutex_unlock(&l->m->lock);
        return 0;
    }
    MPI_Request req;
    if (MPI_Isend((void *)d, (int)sizeof *d, MPI_BYTE, 0, ODE_TAG_DONE, l->comm, &req) != MPI_SUCCESS) return -1;
    return ode_watch_wait(&req, "sending results to rank 0");
}

/* Rank 0's own block of chunk j (the manager takes its data), waiting while
 * memory is full and its turn has not come. */
static void ode_link_local_block(OdeLink *l, long long j, OdeBlock *b)
{
    OdeManager *m = l->m;
    pthread_mutex_lock(&m->lock);
    while (j != m->written && m->held_bytes >= m->budget && !m->failed) pthread_cond_wait(&m->wake, &m->lock);
    ode_mgr_hold(m, j, b);
    pthread_mutex_unlock(&m->lock);
}

/* Chunk a's fingerprints to rank 0; with labels (room for a->count + 1),
 * waits for the chunk's labels, which come at labels[1 …].  0, or -1 when
 * none will come (a failure elsewhere) or MPI failed. */
static int ode_link_prints(OdeLink *l, const OdeAssign *a, const void *fp, size_t bytes, int *labels)
{
    OdePrints p;
    memset(&p, 0, sizeof p);
    p.index = a->index;
    p.want = labels != NULL;
    char *buf = (char *)malloc(bytes + sizeof p);
    if (!buf) return -1;
    if (bytes) memcpy(buf, fp, bytes);
    memcpy(buf + bytes, &p, sizeof p);
    OdeManager *m = l->m;
    if (m) {   /* rank 0's own worker: through memory */
        pthread_mutex_lock(&m->lock);
        if (labels) labels[0] = -1;   /* not answered yet */
        ode_mgr_prints(m, 0, &p, buf, bytes, labels);   /* (takes buf) */
        pthread_cond_broadcast(&m->wake);
        while (labels && labels[0] < 0 && !m->failed) pthread_cond_wait(&m->wake, &m->lock);
        const int got = !labels || labels[0] == 1;
        if (labels && labels[0] < 0 && p.index >= m->written && p.index < m->handed) {
            OdeMChunk *c = &m->ring[p.index % m->window];   /* given up (a failure): no answer may land in labels */
            c->local_labels = NULL;
            c->want = 0;
        }
        pthread_mutex_unlock(&m->lock);
        return got ? 0 : -1;
    }
    MPI_Request recv = MPI_REQUEST_NULL, send;
    int rc = 0;
    if (labels && MPI_Irecv(labels, (int)a->count + 1, MPI_INT, 0, ODE_TAG_LABELS, l->comm, &recv) != MPI_SUCCESS) rc = -1;
    if (!rc && MPI_Isend(buf, (int)(bytes + sizeof p), MPI_BYTE, 0, ODE_TAG_PRINTS, l->comm, &send) != MPI_SUCCESS) rc = -1;
    if (!rc) rc = ode_watch_wait(&send, "sending the attractors' fingerprints to rank 0");
    free(buf);
    if (!rc && labels) rc = ode_watch_wait(&recv, "waiting for the attractors' labels from rank 0");
    return rc || (labels && labels[0] != 1) ? -1 : 0;
}

static void ode_link_fail(OdeLink *l, long long index, const char *text)
{
    if (l->m) {
        pthread_mutex_lock(&l->m->lock);
        ode_mgr_failed(l->m, 0, index, text);
        pthread_mutex_unlock(&l->m->lock);
        return;
    }
    OdeFail f;
    memset(&f, 0, sizeof f);
    f.index = index;
    snprintf(f.text, sizeof f.text, "%s", text);
    MPI_Request req;
    if (MPI_Isend(&f, (int)sizeof f, MPI_BYTE, 0, ODE_TAG_FAIL, l->comm, &req) == MPI_SUCCESS)
        ode_watch_wait(&req, "telling rank 0 of a failure");
}

/* ------------------------------------------------------------------ the worker's loop */

/* What a worker does with a chunk: start it in a free solver (slot), finish
 * it (its statistics into d, with the number of blocks deliver will send),
 * deliver its results.  Each returns 0, or non-zero with the message in
 * error. */
typedef struct OdeWorker {
    void *ctx;
    int slots;                 /* chunks in flight at once: 1 or 2 */
    long long limit;           /* most systems per chunk */
    int (*start)(void *ctx, int slot, const OdeAssign *a, char *error, size_t size);
    int (*finish)(void *ctx, int slot, const OdeAssign *a, OdeDone *d, char *error, size_t size);
    int (*deliver)(void *ctx, int slot, const OdeAssign *a, OdeLink *l, char *error, size_t size);
} OdeWorker;

/* Asks for chunks while a solver is free, runs them, sends them back, until
 * there are no more.  0, or 1 after a failure (which rank 0 was told). */
static int ode_worker_run(const OdeWorker *w, OdeLink *l)
{
    OdeAssign fly[2];
    int fly_slot[2], used[2] = {0, 0};
    int head = 0, nfly = 0, asked = 0, no_more = 0;
    char error[600] = "";
    l->limit = w->limit;
    for (;;) {
        if (!asked && !no_more && nfly < w->slots) {
            if (ode_link_request(l)) {
                snprintf(error, sizeof error, "MPI failed asking rank 0 for work");
                break;
            }
            asked = 1;
        }
        if (asked) {
            OdeAssign a;
            const int got = ode_link_answer(l, &a, nfly == 0);
            if (got < 0) {
                snprintf(error, sizeof error, "MPI failed waiting for rank 0's answer");
                break;
            }
            if (got) {
                asked = 0;
                if (a.index < 0) {
                    no_more = 1;
                    continue;
                }
                const int slot = used[0] ? 1 : 0;
                if (w->start(w->ctx, slot, &a, error, sizeof error)) {
                    ode_link_fail(l, a.index, error);
                    return 1;
                }
                used[slot] = 1;
                fly[(head + nfly) % 2] = a;
                fly_slot[(head + nfly) % 2] = slot;
                nfly++;
                continue;
            }
        }
        if (nfly > 0) {
            const OdeAssign a = fly[head];
            const int slot = fly_slot[head];
            head = (head + 1) % 2;
            nfly--;
            OdeDone d;
            memset(&d, 0, sizeof d);
            d.index = a.index;
            if (w->finish(w->ctx, slot, &a, &d, error, sizeof error)) {
                ode_link_fail(l, a.index, error);
                return 1;
            }
            if (ode_link_done(l, &d)) {
                snprintf(error, sizeof error, "MPI failed sending a chunk's statistics");
                break;
            }
            if (w->deliver && w->deliver(w->ctx, slot, &a, l, error, sizeof error)) {
                ode_link_fail(l, a.index, error);
                return 1;
            }
            used[slot] = 0;
            continue;
        }
        if (no_more) return 0;
    }
    ode_link_fail(l, -1, error);
    return 1;
}

/* ------------------------------------------------------------------ together */

/* The part every rank plays, collectively: rank 0 manages (in a thread of
 * its own when it also computes: w non-NULL there), the others work.  m is
 * rank 0's manager, set up by the caller (sink, chunks).  Returns 0, or 1
 * after a failure on this rank (others' failures are in m->failed). */
static int ode_chunks_run(OdeManager *m, MPI_Comm comm, const OdeWorker *w)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    OdeLink link;
    memset(&link, 0, sizeof link);
    link.comm = comm;
    if (rank != 0) return ode_worker_run(w, &link);
    if (!m->local || !w) {
        ode_mgr_run(m);
        return 0;
    }
    link.m = m;
    pthread_t manager;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    const int err = pthread_create(&manager, NULL, ode_mgr_thread, m);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err) {   /* no thread: rank 0 only manages */
        pthread_mutex_lock(&m->lock);
        m->ranks[0].finished = 1;
        pthread_mutex_unlock(&m->lock);
        ode_mgr_run(m);
        return 0;
    }
    const int status = ode_worker_run(w, &link);
    pthread_join(manager, NULL);
    return status;
}

#endif /* ODE_MPI */
