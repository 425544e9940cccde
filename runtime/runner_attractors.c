/* runner_attractors.c — the runner's side of `attractor` (README
 * "Attractors and basins"): the table that groups every chunk's systems in
 * order (runtime/attractor.c), its summary on standard error, FILE.attractors.csv
 * next to the output, and the rows the HDF5 output writes as its group
 * /attractors.  Appended after runner_save.c (same translation unit).
 *
 * Slices: where the scan's first lines scan parameters and its last lines
 * initial values (a basin at each parameter value), each parameter value is a
 * slice of the product of the initial-value lines, grouped on its own and
 * matched with the previous one (continuation).  Otherwise the whole scan is
 * one slice.
 */
#ifndef ODEGEN_GENERATED
#include "runner_save.c"
#endif

struct OdeAttractorRun {
    model_attractors *table;
    long long slice;                 /* systems per slice (0: one) */
    int slice_axis;                  /* the scan line of the slices' parameter (-1: none) */
    OdeAttractorRows rows;           /* the finished table, as the outputs take it */
    const char *names[ODE_ALLOC(ODE_NFIELD)];
    void *memory;
};

/* Systems per slice of the scan (0: one slice), and the sliced line in *axis. */
static long long ode_att_slice_size(const OdeRunner *r, int *axis)
{
    *axis = -1;
    int first_state = r->nscan;
    while (first_state > 0 && r->scans[first_state - 1].kind == MODEL_KIND_STATE) first_state--;
    if (first_state == 0 || first_state == r->nscan) return 0;
    for (int l = 0; l < first_state; l++)
        if (r->scans[l].kind != MODEL_KIND_PARAM) return 0;
    long long size = 1;
    for (int l = first_state; l < r->nscan; l++) size *= r->scans[l].n;
    *axis = first_state - 1;
    return size;
}

/* Before the chunk loop: the table (*arp NULL without `attractor` or records). */
static int ode_att_open(OdeAttractorRun **arp, const OdeRunner *r)
{
    *arp = NULL;
    if (model_attractor_quantities(NULL) == 0 || r->record == 0) return 0;
    if (r->checkpoint)
        return ode_usage("--checkpoint with `attractor`: the attractor table is not kept in checkpoints yet; "
                         "run without --checkpoint");
    OdeAttractorRun *ar = *arp = (OdeAttractorRun *)calloc(1, sizeof *ar);
    if (!ar) return ode_runtime("out of memory");
    ar->slice = ode_att_slice_size(r, &ar->slice_axis);
    if (model_attractors_create(&ar->table, ar->slice) != MODEL_OK) return ode_runtime("out of memory");
    return 0;
}

/* A finished chunk's systems (first …): grouped, their labels in its rows. */
static int ode_att_chunk(OdeAttractorRun *ar, model_solver *s, long long first)
{
    if (!ar) return 0;
    return model_attractors_group(ar->table, s, first) == MODEL_OK ? 0 : ode_runtime("%s", model_solver_error(s));
}

/* The table as the outputs take it (info->attractors). */
static int ode_att_rows(OdeAttractorRun *ar, const OdeRunner *r, OdeRunInfo *info)
{
    if (!ar) return 0;
    OdeAttractorRows *t = &ar->rows;
    int codes[ODE_ALLOC(ODE_NFIELD)];
    t->nq = model_attractor_quantities(codes);
    for (int k = 0; k < t->nq; k++) ar->names[k] = model_name(MODEL_KIND_FIELD, codes[k]);
    t->quantities = ar->names;
    t->dist = model_attractor_dist();
    t->match = model_attractor_match();
    t->slice_axis = ar->slice_axis >= 0 ? model_name(MODEL_KIND_PARAM, r->scans[ar->slice_axis].target) : NULL;
    const int nrow = t->nrow = model_attractors_count(ar->table);
    const size_t nr = (size_t)(nrow > 0 ? nrow : 1), nq = (size_t)(t->nq > 0 ? t->nq : 1);
    const size_t bytes = nr * (2 * sizeof(long long) + 2 * sizeof(int) + sizeof(char *) + 4 * sizeof(double)) +
                         3 * nr * nq * sizeof(double);
    char *m = (char *)calloc(1, bytes);
    if (!m) return ode_runtime("out of memory");
    ar->memory = m;
    long long *slice = (long long *)m, *systems = slice + nr;
    double *slice_value = (double *)(systems + nr), *lambda1 = slice_value + nr, *fraction = lambda1 + nr,
           *fraction_err = fraction + nr, *point = fraction_err + nr, *lo = point + nr * nq, *hi = lo + nr * nq;
    int *label = (int *)(hi + nr * nq), *period = label + nr;
    const char **kind = (const char **)(void *)(period + nr);   /* (8 nr bytes of ints: aligned) */
    for (int row = 0; row < nrow; row++) {
        model_attractor a;
        model_attractors_row(ar->table, row, &a, point + (size_t)row * nq, lo + (size_t)row * nq, hi + (size_t)row * nq);
        slice[row] = a.slice;
        const OdeScan *axis = ar->slice_axis >= 0 ? &r->scans[ar->slice_axis] : NULL;   /* (the last parameter line's value) */
        slice_value[row] = axis ? ode_scan_value(axis, (long)(a.slice % axis->n)) : (double)NAN;
        label[row] = a.label;
        period[row] = a.period;
        kind[row] = model_attractor_kind_name(a.kind);
        lambda1[row] = a.lambda1;
        systems[row] = a.systems;
        fraction[row] = a.fraction;
        fraction_err[row] = a.fraction_err;
    }
    t->slice = slice;
    t->slice_value = slice_value;
    t->label = label;
    t->period = period;
    t->kind = kind;
    t->lambda1 = lambda1;
    t->systems = systems;
    t->fraction = fraction;
    t->fraction_err = fraction_err;
    t->point = point;
    t->lo = lo;
    t->hi = hi;
    info->attractors = t;
    return 0;
}

/* The table on standard error (rows without systems left out; with slices, only the counts per slice). */
static void ode_att_summary(const OdeAttractorRun *ar)
{
    if (!ar || !ar->rows.label) return;
    const OdeAttractorRows *t = &ar->rows;
    long long slices = t->nrow ? t->slice[t->nrow - 1] + 1 : 0;
    int labels = 0;
    for (int row = 0; row < t->nrow; row++) labels = t->label[row] > labels ? t->label[row] : labels;
    if (t->slice_axis) {
        fprintf(stderr, "%s: attractors: %d along %s (%lld values; the table: FILE.attractors.csv or the HDF5 "
                        "group /attractors)\n", ODE_MODEL_NAME, labels, t->slice_axis, slices);
        return;
    }
    fprintf(stderr, "%s: attractors (dist=%g):\n  label  kind       period  systems    fraction ± s.e.      lambda1     point",
            ODE_MODEL_NAME, t->dist);
    for (int k = 0; k < t->nq; k++) fprintf(stderr, "%s%s", k ? ", " : " (", t->quantities[k]);
    fputs(")\n", stderr);
    for (int row = 0; row < t->nrow; row++) {
        if (t->systems[row] == 0) continue;
        fprintf(stderr, "  %5d  %-9s  %6d  %9lld  %.6f ± %.6f  %10.4g ", t->label[row], t->kind[row], t->period[row],
                t->systems[row], t->fraction[row], t->fraction_err[row], t->lambda1[row]);
        for (int k = 0; k < t->nq && t->label[row] > 0; k++)
            fprintf(stderr, "%s%.6g", k ? ", " : " ", t->point[(size_t)row * (size_t)t->nq + (size_t)k]);
        fputc('\n', stderr);
    }
}

/* FILE.attractors.csv next to a file output (none for standard output or a device). */
static int ode_att_write_csv(const OdeAttractorRun *ar, const OdeRunner *r)
{
    if (!ar || !ar->rows.label || !r->output || strcmp(r->output, "-") == 0) return 0;
    struct stat st;
    if (stat(r->output, &st) == 0 && !S_ISREG(st.st_mode)) return 0;
    char *path = ode_side_path(r->output, ".attractors.csv");
    if (!path) return ode_runtime("out of memory");
    const OdeAttractorRows *t = &ar->rows;
    OdeSideFile o;
    int status = ode_side_open(&o, path);
    if (!status) {
        FILE *f = o.f;
        int bad = fprintf(f, "slice,%s,label,kind,period,systems,fraction,fraction_err,lambda1",
                          t->slice_axis ? t->slice_axis : "slice_value") < 0;
        for (int w = 0; w < 3; w++)
            for (int k = 0; k < t->nq; k++)
                bad |= fprintf(f, ",%s_%s", w == 0 ? "point" : w == 1 ? "lo" : "hi", t->quantities[k]) < 0;
        bad |= fputc('\n', f) == EOF;
        for (int row = 0; row < t->nrow && !bad; row++) {
            bad |= fprintf(f, "%lld", t->slice[row]) < 0;
            bad |= ode_side_number(f, t->slice_value[row]);
            bad |= fprintf(f, ",%d,%s,%d,%lld", t->label[row], t->kind[row], t->period[row], t->systems[row]) < 0;
            bad |= ode_side_number(f, t->fraction[row]) | ode_side_number(f, t->fraction_err[row]) |
                   ode_side_number(f, t->lambda1[row]);
            const double *cols[3] = {t->point, t->lo, t->hi};
            for (int w = 0; w < 3; w++)
                for (int k = 0; k < t->nq; k++) bad |= ode_side_number(f, cols[w][(size_t)row * (size_t)t->nq + (size_t)k]);
            bad |= fputc('\n', f) == EOF;
        }
        status = bad ? ode_side_failed(&o, errno ? errno : EIO) : ode_side_close(&o);
    }
    ode_side_free(&o);
    free(path);
    return status;
}

static void ode_att_free(OdeAttractorRun *ar)
{
    if (!ar) return;
    model_attractors_free(ar->table);
    free(ar->memory);
    free(ar);
}
