/* attractor.c — `attractor`'s table in the library (api.h, "attractors"):
 * the fingerprints of templates/attractor.h grouped into attractors, on the
 * host.  Appended after period.c (same translation unit).
 *
 * Why on the host: how many attractors there are is not known in advance
 * and is small; grouping is a pass over each system's fingerprint against
 * the attractors met so far (O(systems × attractors), well under the
 * integration's cost), done while the GPU integrates the next chunk; and
 * done in the order of the systems, its result does not depend on how the
 * scan was cut into chunks, launches or MPI ranks.
 *
 * Two fingerprints are the same attractor when their periods agree (or one
 * has none: a system still settling onto a fixed point or a periodic orbit
 * has no period yet) and, for every quantity compared, the lowest and the
 * highest recorded values agree within dist × max(1, |values|, the boxes'
 * widths): a fixed point or periodic orbit is matched by its points, a
 * chaotic attractor by the box its recorded points fill, to a fraction dist
 * of its width.  A system joins the first attractor (in label order) that
 * matches; an attractor's representative is its first system, replaced once
 * by the first that has a period when it had none.  The table reports the
 * kind of most of its systems: where most have no period (a chaotic
 * attractor that a few systems joined while they shadowed one of its
 * unstable periodic orbits through the whole record or its tail, as a few
 * of 262144 on Lorenz-84's did), it is aperiodic, with the point and box of
 * its first system without one.
 */
#ifndef ODEGEN_GENERATED
#include "period.c"
#endif

const char *model_attractor_kind_name(int kind)
{
    static const char *const names[] = {"failed", "escaped", "fixed", "periodic", "aperiodic", "unstable"};
    return kind >= 0 && kind < 6 ? names[kind] : "?";
}

#if ODE_ATTRACTOR
#define ODE_NQ ODE_PERIOD_NQ

int model_attractor_quantities(int *codes)
{
    if (codes)
        for (int k = 0; k < ODE_NQ; k++) codes[k] = ode_attractor_of[k];
    return ODE_NQ;
}
double model_attractor_dist(void) { return ODE_ATTRACTOR_DIST; }
double model_attractor_match(void) { return ODE_ATTRACTOR_MATCH; }

/* One row of the table. */
typedef struct OdeAttractor {
    long long slice;
    int label, kind, period;
    int unstable;                /* an unstable equilibrium (ODE_FP_UNSTABLE): not an attractor */
    long long systems;
    long long aperiodic;         /* systems without a period */
    double lambda_sum;
    long long lambda_count;
    double point[ODE_NQ], lo[ODE_NQ], hi[ODE_NQ];
    double apoint[ODE_NQ], alo[ODE_NQ], ahi[ODE_NQ];   /* the first system without a period */
} OdeAttractor;

struct model_attractors {
    long long slice_size;        /* 0: one slice */
    long long grouped;           /* systems grouped so far */
    OdeAttractor *rows;
    int nrow, cap;
    int slice_begin;             /* the current slice's first row */
    int prev_begin, prev_end;    /* the previous slice's rows (prev_end == prev_begin: none) */
    long long slice;             /* the current slice */
    int next_label;              /* the label a new attractor takes */
    int *labels;                 /* of every system grouped */
    long long labels_cap;
};

static int ode_att_push(model_attractors *t, const OdeAttractor *a)
{
    if (t->nrow == t->cap) {
        const int cap = t->cap ? 2 * t->cap : 16;
        OdeAttractor *rows = (OdeAttractor *)realloc(t->rows, (size_t)cap * sizeof *rows);
        if (!rows) return MODEL_ERR_NOMEM;
        t->rows = rows;
        t->cap = cap;
    }
    t->rows[t->nrow++] = *a;
    return MODEL_OK;
}

/* The escaped and failed rows that open every slice. */
static int ode_att_open_slice(model_attractors *t, long long slice)
{
    t->prev_begin = t->slice_begin;
    t->prev_end = t->nrow;
    t->slice_begin = t->nrow;
    t->slice = slice;
    OdeAttractor a;
    memset(&a, 0, sizeof a);
    a.slice = slice;
    for (int k = 0; k < ODE_NQ; k++) a.point[k] = a.lo[k] = a.hi[k] = NAN;
    a.label = -1;
    a.kind = MODEL_ATTRACTOR_ESCAPED;
    int rc = ode_att_push(t, &a);
    a.label = 0;
    a.kind = MODEL_ATTRACTOR_FAILED;
    return rc == MODEL_OK ? ode_att_push(t, &a) : rc;
}

int model_attractors_create(model_attractors **table, long long slice)
{
    if (!table) return MODEL_ERR_ARG;
    *table = NULL;
    if (slice < 0) return MODEL_ERR_ARG;
    model_attractors *t = (model_attractors *)calloc(1, sizeof *t);
    if (!t) return MODEL_ERR_NOMEM;
    t->slice_size = slice;
    t->next_label = 1;
    if (ode_att_open_slice(t, 0) != MODEL_OK) {
        model_attractors_free(t);
        return MODEL_ERR_NOMEM;
    }
    t->prev_end = t->prev_begin;   /* no previous slice */
    *table = t;
    return MODEL_OK;
}

void model_attractors_free(model_attractors *t)
{
    if (!t) return;
    free(t->rows);
    free(t->labels);
    free(t);
}

/* The tolerance of quantity k between boxes [alo, ahi] and [blo, bhi]. */
static double ode_att_tol(double alo, double ahi, double blo, double bhi)
{
    double scale = 1.0;
    const double v[6] = {fabs(alo), fabs(ahi), fabs(blo), fabs(bhi), ahi - alo, bhi - blo};
    for (int j = 0; j < 6; j++) scale = v[j] > scale ? v[j] : scale;
    return ODE_ATTRACTOR_DIST * scale;
}

/* Whether a fingerprint (period p, box lo/hi) is attractor a. */
static int ode_att_matches(const OdeAttractor *a, int p, const double *lo, const double *hi)
{
    if (a->period > 0 && p > 0 && a->period != p) return 0;
    for (int k = 0; k < ODE_NQ; k++) {
        const double tol = ode_att_tol(a->lo[k], a->hi[k], lo[k], hi[k]);
        if (!(fabs(a->lo[k] - lo[k]) <= tol && fabs(a->hi[k] - hi[k]) <= tol)) return 0;
    }
    return 1;
}

/* The distance of two attractors' boxes (max norm over quantities and ends). */
static double ode_att_distance(const OdeAttractor *a, const OdeAttractor *b)
{
    double d = 0;
    for (int k = 0; k < ODE_NQ; k++) {
        const double e = fmax(fabs(a->lo[k] - b->lo[k]), fabs(a->hi[k] - b->hi[k]));
        d = e > d ? e : d;
    }
    return d;
}

/* A new attractor's label: the nearest unclaimed one of the previous slice
 * within match (continuation), else a new one. */
static int ode_att_new_label(model_attractors *t, const OdeAttractor *a)
{
    int best = -1;
    double best_d = 0;
    for (int r = t->prev_begin; r < t->prev_end; r++) {
        const OdeAttractor *b = &t->rows[r];
        if (b->label <= 0 || b->unstable != a->unstable) continue;
        int taken = 0;
        for (int q = t->slice_begin; q < t->nrow && !taken; q++) taken = t->rows[q].label == b->label;
        if (taken) continue;
        const double d = ode_att_distance(a, b);
        if (d <= ODE_ATTRACTOR_MATCH && (best < 0 || d < best_d)) {
            best = r;
            best_d = d;
        }
    }
    return best >= 0 ? t->rows[best].label : t->next_label++;
}

static int ode_att_kind(int period)
{
    return period == 1 ? MODEL_ATTRACTOR_FIXED : period > 1 ? MODEL_ATTRACTOR_PERIODIC : MODEL_ATTRACTOR_APERIODIC;
}

/* The label of one fingerprint (fp of system i, stride n), added to the table. */
static int ode_att_one(model_attractors *t, const ode_real *fp, size_t n, size_t i, int *label)
{
    const int end = (int)fp[(size_t)ODE_FP_END * n + i];
    const int unstable = end == ODE_FP_UNSTABLE;   /* settled, at a saddle */
    OdeAttractor *row;
    if (end != ODE_FP_SETTLED && !unstable) {
        row = &t->rows[t->slice_begin + (end == ODE_FP_ESCAPED ? 0 : 1)];
        row->systems++;
        *label = row->label;
        return MODEL_OK;
    }
    const int p = (int)fp[(size_t)ODE_FP_PERIOD * n + i];
    double lo[ODE_NQ], hi[ODE_NQ];
    for (int k = 0; k < ODE_NQ; k++) {
        lo[k] = (double)fp[(size_t)(ODE_FP_LO + k) * n + i];
        hi[k] = (double)fp[(size_t)(ODE_FP_HI + k) * n + i];
    }
    int r = t->slice_begin + 2;
    while (r < t->nrow && !(t->rows[r].unstable == unstable && ode_att_matches(&t->rows[r], p, lo, hi))) r++;
    if (r == t->nrow) {   /* a new attractor */
        OdeAttractor a;
        memset(&a, 0, sizeof a);
        a.slice = t->slice;
        a.period = -1;   /* set below, as for a representative replaced */
        a.unstable = unstable;
        for (int k = 0; k < ODE_NQ; k++) a.lo[k] = lo[k], a.hi[k] = hi[k];
        a.label = ode_att_new_label(t, &a);
        if (ode_att_push(t, &a) != MODEL_OK) return MODEL_ERR_NOMEM;
    }
    row = &t->rows[r];
    if (row->period < 0 || (row->period == 0 && p > 0)) {   /* the representative */
        row->period = p;
        row->kind = unstable ? MODEL_ATTRACTOR_UNSTABLE : ode_att_kind(p);
        for (int k = 0; k < ODE_NQ; k++) {
            row->point[k] = (double)fp[(size_t)(ODE_FP_POINT + k) * n + i];
            row->lo[k] = lo[k];
            row->hi[k] = hi[k];
        }
    }
    if (p == 0 && row->aperiodic++ == 0)
        for (int k = 0; k < ODE_NQ; k++) {
            row->apoint[k] = (double)fp[(size_t)(ODE_FP_POINT + k) * n + i];
            row->alo[k] = lo[k];
            row->ahi[k] = hi[k];
        }
    row->systems++;
    const double lambda = (double)fp[(size_t)ODE_FP_LAMBDA * n + i];
    if (lambda == lambda) {
        row->lambda_sum += lambda;
        row->lambda_count++;
    }
    *label = row->label;
    return MODEL_OK;
}

/* The attractor field's slots among the solver's recorded fields. */
static int ode_att_slots(const model_solver *s, int *slots)
{
    int count = 0;
    for (int f = 0; f < s->rec_nfield; f++)
        if (s->h.fields[f] == ODE_NFIELD - 1) slots[count++] = f;
    return count;
}

/* The labels of the solver's systems (labels[i] of system i) into every
 * recorded row's field `attractor`. */
static void ode_att_put_labels(model_solver *s, const int *labels)
{
    int slots[ODE_ALLOC(ODE_NFIELD)];
    const int nslot = ode_att_slots(s, slots);
    const size_t n = (size_t)s->n;
    for (size_t i = 0; i < n; i++)
        for (int r = 0; r < s->nrec; r++)
            for (int k = 0; k < nslot; k++)
                s->rec[((size_t)r * (size_t)s->rec_nfield + (size_t)slots[k]) * n + i] = (ode_real)labels[i];
}

/* Fingerprints fp[row * n + i] of systems first … first + n - 1 (the next
 * ones, in order) grouped into the table, their labels kept.  The runner's
 * chunks come through here, and so do the fingerprints a checkpoint kept
 * and those other MPI ranks send (runner_attractors.c): the table is a
 * function of the fingerprints in the order of the systems alone. */
static int ode_att_group_fp(model_attractors *t, const ode_real *fp, size_t n, long long first, const char **why)
{
    *why = NULL;
    if (first != t->grouped) {
        *why = "systems not given in order";
        return MODEL_ERR_ARG;
    }
    if (t->grouped > LLONG_MAX - (long long)n) {
        *why = "too many systems";
        return MODEL_ERR_ARG;
    }
    if (t->grouped + (long long)n > t->labels_cap) {
        long long cap = t->labels_cap ? t->labels_cap : 1024;
        while (cap < t->grouped + (long long)n) cap *= 2;
        int *labels = (int *)realloc(t->labels, (size_t)cap * sizeof(int));
        if (!labels) {
            *why = "cannot keep the labels";
            return MODEL_ERR_NOMEM;
        }
        t->labels = labels;
        t->labels_cap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        const long long system = first + (long long)i;
        if (t->slice_size > 0 && system / t->slice_size != t->slice &&
            ode_att_open_slice(t, system / t->slice_size) != MODEL_OK) {
            *why = "cannot grow the attractor table";
            return MODEL_ERR_NOMEM;
        }
        if (ode_att_one(t, fp, n, i, &t->labels[system]) != MODEL_OK) {
            *why = "cannot grow the attractor table";
            return MODEL_ERR_NOMEM;
        }
        t->grouped = system + 1;
    }
    return MODEL_OK;
}

int model_attractors_group(model_attractors *t, model_solver *s, long long first)
{
    int rc = ode_enter(s, __func__);
    if (rc != MODEL_OK) return rc;
    if (!t) return ode_fail(s, MODEL_ERR_ARG, "the table is NULL");
    if (first != t->grouped)
        return ode_fail(s, MODEL_ERR_ARG, "systems from %lld given, but %lld were grouped: give them in order", first,
                        t->grouped);
    if (s->nrec == 0 || !s->period || !s->period->fp)
        return ode_fail(s, MODEL_ERR_NODATA, "nothing recorded: the last run or scan recorded no integration");
    const char *why;
    rc = ode_att_group_fp(t, s->period->fp, (size_t)s->n, first, &why);
    if (rc != MODEL_OK) return ode_fail(s, rc, "%s", why);
    ode_att_put_labels(s, t->labels + first);
    return MODEL_OK;
}

int model_attractors_count(const model_attractors *t) { return t ? t->nrow : 0; }

int model_attractors_row(const model_attractors *t, int row, model_attractor *info, double *point, double *lo,
                         double *hi)
{
    if (!t || row < 0 || row >= t->nrow) return MODEL_ERR_ARG;
    const OdeAttractor *a = &t->rows[row];
    /* most of its systems without a period: aperiodic, whatever its representative's */
    const int aperiodic = a->label > 0 && !a->unstable && a->period > 0 && 2 * a->aperiodic > a->systems;
    if (info) {
        long long total = 0;   /* the slice's systems: the rows of its slice */
        int r0 = row, r1 = row;
        while (r0 > 0 && t->rows[r0 - 1].slice == a->slice) r0--;
        while (r1 + 1 < t->nrow && t->rows[r1 + 1].slice == a->slice) r1++;
        for (int r = r0; r <= r1; r++) total += t->rows[r].systems;
        info->slice = a->slice;
        info->label = a->label;
        info->kind = aperiodic ? MODEL_ATTRACTOR_APERIODIC : a->kind;
        info->period = a->period > 0 && !aperiodic ? a->period : 0;
        info->lambda1 = a->lambda_count ? a->lambda_sum / (double)a->lambda_count : (double)NAN;
        info->systems = a->systems;
        info->slice_systems = total;
        info->fraction = total ? (double)a->systems / (double)total : (double)NAN;
        info->fraction_err = total ? sqrt(info->fraction * (1.0 - info->fraction) / (double)total) : (double)NAN;
    }
    for (int k = 0; k < ODE_NQ; k++) {
        if (point) point[k] = aperiodic ? a->apoint[k] : a->point[k];
        if (lo) lo[k] = aperiodic ? a->alo[k] : a->lo[k];
        if (hi) hi[k] = aperiodic ? a->ahi[k] : a->hi[k];
    }
    return MODEL_OK;
}

int model_attractors_label(const model_attractors *t, long long system, int *label)
{
    if (!t || !label || system < 0 || system >= t->grouped) return MODEL_ERR_ARG;
    *label = t->labels[system];
    return MODEL_OK;
}

int model_attractors_labels(const model_attractors *t, long long first, long long count, int *out)
{
    if (!t || !out || first < 0 || count < 0 || first > t->grouped - count) return MODEL_ERR_ARG;
    if (count) memcpy(out, t->labels + first, (size_t)count * sizeof(int));
    return MODEL_OK;
}

#else /* no `attractor` line */

int model_attractor_quantities(int *codes)
{
    (void)codes;
    return 0;
}
double model_attractor_dist(void) { return 0.0; }
double model_attractor_match(void) { return 0.0; }
int model_attractors_create(model_attractors **table, long long slice)
{
    (void)slice;
    if (table) *table = NULL;
    return MODEL_ERR_ARG;
}
void model_attractors_free(model_attractors *t) { (void)t; }
static inline void ode_att_put_labels(model_solver *s, const int *labels) { (void)s, (void)labels; }   /* (MPI's) */
static int ode_att_group_fp(model_attractors *t, const ode_real *fp, size_t n, long long first, const char **why)
{
    (void)t, (void)fp, (void)n, (void)first;
    *why = "the model has no `attractor` line";
    return MODEL_ERR_ARG;
}
int model_attractors_group(model_attractors *t, model_solver *s, long long first)
{
    (void)t;
    (void)first;
    int rc = ode_enter(s, __func__);
    return rc != MODEL_OK ? rc : ode_fail(s, MODEL_ERR_ARG, "the model has no `attractor` line");
}
int model_attractors_count(const model_attractors *t)
{
    (void)t;
    return 0;
}
int model_attractors_row(const model_attractors *t, int row, model_attractor *info, double *point, double *lo,
                         double *hi)
{
    (void)t, (void)row, (void)info, (void)point, (void)lo, (void)hi;
    return MODEL_ERR_ARG;
}
int model_attractors_label(const model_attractors *t, long long system, int *label)
{
    (void)t, (void)system, (void)label;
    return MODEL_ERR_ARG;
}
int model_attractors_labels(const model_attractors *t, long long first, long long count, int *out)
{
    (void)t, (void)first, (void)count, (void)out;
    return MODEL_ERR_ARG;
}
#endif /* ODE_ATTRACTOR */
