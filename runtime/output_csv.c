/* output_csv.c — the runner's CSV (SPEC §4): a header row
 * system,rep,<fields…>,status, then one row per system per recorded
 * integration, ordered by system then rep.
 *
 * Numbers are written as the shortest text that reads back to the same
 * double, bit for bit (shortest.c; %.17g would be longer and several times
 * slower); a float model's values are written as the doubles they convert
 * to, so they read back exactly too.  Rows are formatted into memory blocks by
 * several threads at once (prepare), and written by the output's writer
 * thread (write).
 */
#ifndef ODEGEN_GENERATED
#include "output.h"
#include "shortest.c"
#endif

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct OdeCsv {
    int fd;
    int regular;                  /* a regular file: flush and close sync it */
    const OdeRunInfo *info;
    size_t row_bound;             /* the most bytes one row takes */
} OdeCsv;

static size_t ode_csv_row_bound(const OdeRunInfo *info)
{
    size_t status = 7;   /* "unknown" */
    for (int k = 0; k < info->nstatus; k++)
        if (strlen(info->status_names[k]) > status) status = strlen(info->status_names[k]);
    /* system (20 digits), rep (10), the fields, status, commas and newline */
    return 20 + 1 + 10 + (size_t)info->nfield * (1 + ODE_SHORTEST_MAX) + 1 + status + 1;
}

static int ode_csv_open(void **state, const OdeRunInfo *info, const char *path, int fd, char *error, size_t size)
{
    (void)path;
    (void)error;
    (void)size;
    OdeCsv *c = (OdeCsv *)calloc(1, sizeof *c);
    if (!c) return ENOMEM;
    struct stat st;
    c->fd = fd;
    c->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    c->info = info;
    c->row_bound = ode_csv_row_bound(info);
    *state = c;
    return 0;
}

static size_t ode_csv_bound(void *state, int nsys, int nrep)
{
    const OdeCsv *c = (const OdeCsv *)state;
    return (size_t)nsys * (size_t)nrep * c->row_bound;
}

static void ode_csv_header(void *state, OdeBlock *b)
{
    const OdeCsv *c = (const OdeCsv *)state;
    char *p = b->data;
    memcpy(p, "system,rep", 10);
    p += 10;
    for (int f = 0; f < c->info->nfield; f++) {
        const size_t len = strlen(c->info->fields[f]);
        *p++ = ',';
        memcpy(p, c->info->fields[f], len);
        p += len;
    }
    memcpy(p, ",status\n", 8);
    b->bytes = (size_t)(p + 8 - b->data);
}

/* Rows of the block from the chunk, at out; returns the bytes written. */
static size_t ode_csv_rows(const OdeRunInfo *info, const OdeChunkView *ch, const OdeBlock *b, char *out)
{
    char *p = out;
    const size_t stride = (size_t)ch->stride;
    for (int i = 0; i < b->nsys; i++) {
        const size_t at = (size_t)(b->first - ch->first) + (size_t)i;
        char system[24];
        const int system_len = ode_format_u64(system, (uint64_t)(b->first + i));
        for (int rep = b->rep0; rep < b->rep0 + b->nrep; rep++) {
            memcpy(p, system, (size_t)system_len);
            p += system_len;
            *p++ = ',';
            p += ode_format_u64(p, (uint64_t)rep);
            const size_t row = (size_t)rep * (size_t)ch->nfield;
            for (int f = 0; f < ch->nfield; f++) {
                const size_t k = (row + (size_t)f) * stride + at;
                const double v = info->real_size == 4 ? (double)((const float *)ch->values)[k]
                                                      : ((const double *)ch->values)[k];
                *p++ = ',';
                p += ode_format_double(p, v);
            }
            const int st = ch->status[(size_t)rep * stride + at];
            const char *name = st >= 0 && st < info->nstatus ? info->status_names[st] : "unknown";
            const size_t len = strlen(name);
            *p++ = ',';
            memcpy(p, name, len);
            p += len;
            *p++ = '\n';
        }
    }
    return (size_t)(p - out);
}

static void ode_csv_prepare(void *state, const OdeChunkView *ch, OdeBlock *b)
{
    const OdeCsv *c = (const OdeCsv *)state;
    b->bytes = ode_csv_rows(c->info, ch, b, b->data);
}

static int ode_csv_write(void *state, const OdeBlock *b, char *error, size_t size)
{
    const OdeCsv *c = (const OdeCsv *)state;
    (void)error;
    (void)size;
    const char *p = b->data;
    size_t left = b->bytes;
    while (left > 0) {
        const ssize_t w = write(c->fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : EIO;
        p += w;
        left -= (size_t)w;
    }
    return 0;
}

static int ode_csv_flush(void *state, char *error, size_t size)
{
    const OdeCsv *c = (const OdeCsv *)state;
    (void)error;
    (void)size;
    if (c->regular && fdatasync(c->fd) != 0 && errno != EINVAL && errno != EROFS) return errno;
    return 0;
}

static int ode_csv_close(void *state, char *error, size_t size)
{
    OdeCsv *c = (OdeCsv *)state;
    int err = ode_csv_flush(state, error, size);
    if (close(c->fd) != 0 && !err && errno != EINTR) err = errno;
    c->fd = -1;
    return err;
}

static void ode_csv_discard(void *state)
{
    OdeCsv *c = (OdeCsv *)state;
    if (c && c->fd >= 0) close(c->fd);
    free(c);
}

static double ode_csv_estimate(const OdeRunInfo *info, const OdeChunkView *sample, double *fixed)
{
    *fixed = 16.0 + 16.0 * info->nfield;   /* the header */
    if (!sample || sample->count == 0 || sample->record == 0) return (double)ode_csv_row_bound(info);
    const size_t bound = ode_csv_row_bound(info) * (size_t)sample->record;
    char *buf = (char *)malloc(bound);
    if (!buf) return (double)ode_csv_row_bound(info);
    size_t bytes = 0;
    for (int i = 0; i < sample->count; i++) {
        OdeBlock b;
        memset(&b, 0, sizeof b);
        b.first = sample->first + i;
        b.nsys = 1;
        b.nrep = sample->record;
        bytes += ode_csv_rows(info, sample, &b, buf);
    }
    free(buf);
    return (double)bytes / ((double)sample->count * sample->record);
}

static const OdeFormat ode_csv_format = {
    "CSV", 0, ode_csv_open, ode_csv_bound, ode_csv_header, ode_csv_prepare, ode_csv_write,
    ode_csv_flush, ode_csv_close, ode_csv_discard, ode_csv_estimate,
};
