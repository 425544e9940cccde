/* runner_attractors.c — the runner's side of `attractor` (README
 * "Attractors and basins"): the table that groups every chunk's systems in
 * order (runtime/attractor.c), its summary on standard error, FILE.attractors.csv
 * next to the output, and the rows the HDF5 output writes as its group
 * /attractors.  Appended after runner_save.c (same translation unit).
 *
 * With --basin-entropy and --uncertainty, each slice's labels as a grid (its
 * initial-value lines; without slices the whole scan's lines) are measured
 * (basins.c) and written to the summary, FILE.basins.csv and the HDF5 group
 * /basins.
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
    void *basin_memory;
};

static const int ode_att_ks[] = {1, 2, 3, 4, 6, 8};

/* The basin measures of every slice (--basin-entropy, --uncertainty). */
static int ode_att_basins(OdeAttractorRun *ar, const OdeRunner *r)
{
    OdeAttractorRows *t = &ar->rows;
    if (!r->basin_box && !r->uncertainty) return 0;
    const int first_axis = ar->slice_axis + 1;   /* the grid's axes (0 without slices) */
    const int ndim = r->nscan - first_axis;
    if (ndim < 1) return ode_runtime("--basin-entropy, --uncertainty: the scan has no grid of initial values");
    long long shape[32], points = 1;
    if (ndim > 32) return ode_runtime("--basin-entropy, --uncertainty: at most 32 scan lines");
    for (int a = 0; a < ndim; a++) points *= shape[a] = r->scans[first_axis + a].n;
    const long long nslice = ar->slice ? model_attractors_count(ar->table) ? t->slice[t->nrow - 1] + 1 : 0 : 1;
    const int nk = r->uncertainty ? (int)(sizeof ode_att_ks / sizeof *ode_att_ks) : 0;
    const size_t ns = (size_t)(nslice > 0 ? nslice : 1);
    char *m = (char *)calloc(1, ns * (6 * sizeof(double) + 2 * sizeof(long long) + (size_t)(nk ? nk : 1) * sizeof(double)) +
                                    (size_t)points * sizeof(int));
    if (!m) return ode_runtime("out of memory");
    ar->basin_memory = m;
    double *values = (double *)m, *entropy = values + ns, *bentropy = entropy + ns, *exponent = bentropy + ns,
           *exponent_err = exponent + ns, *uncertain = exponent_err + ns;
    long long *boxes = (long long *)(uncertain + ns * (size_t)(nk ? nk : 1)), *bboxes = boxes + ns;
    int *labels = (int *)(bboxes + ns);
    for (long long sl = 0; sl < nslice; sl++) {
        if (model_attractors_labels(ar->table, sl * points, points, labels) != MODEL_OK)
            return ode_runtime("the attractor table lacks slice %lld's labels", sl);
        const OdeScan *axis = ar->slice_axis >= 0 ? &r->scans[ar->slice_axis] : NULL;
        values[sl] = axis ? ode_scan_value(axis, (long)(sl % axis->n)) : (double)NAN;
        entropy[sl] = bentropy[sl] = exponent[sl] = exponent_err[sl] = NAN;
        if (r->basin_box) {
            const int rc = model_basin_entropy(labels, ndim, shape, r->basin_box, &entropy[sl], &bentropy[sl],
                                               &boxes[sl], &bboxes[sl]);
            if (rc != MODEL_OK)
                return ode_usage("--basin-entropy %d: a box larger than the grid of initial values", r->basin_box);
        }
        if (nk && model_basin_uncertainty(labels, ndim, shape, nk, ode_att_ks, uncertain + (size_t)sl * (size_t)nk,
                                          &exponent[sl], &exponent_err[sl]) != MODEL_OK)
            return ode_runtime("out of memory");
    }
    t->nslice = nslice;
    t->box = r->basin_box;
    t->nk = nk;
    t->ks = ode_att_ks;
    t->slice_values = values;
    t->entropy = entropy;
    t->boundary_entropy = bentropy;
    t->boxes = boxes;
    t->boundary_boxes = bboxes;
    t->exponent = exponent;
    t->exponent_err = exponent_err;
    t->uncertain = uncertain;
    return 0;
}

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

/* Whether the run makes an attractor table (`attractor`, and records). */
static int ode_att_wanted(const OdeRunner *r) { return model_attractor_quantities(NULL) > 0 && r->record > 0; }

/* Before the chunk loop: the table (*arp NULL without `attractor` or records). */
static int ode_att_open(OdeAttractorRun **arp, const OdeRunner *r)
{
    *arp = NULL;
    if (!ode_att_wanted(r)) return 0;
    OdeAttractorRun *ar = *arp = (OdeAttractorRun *)calloc(1, sizeof *ar);
    if (!ar) return ode_runtime("out of memory");
    ar->slice = ode_att_slice_size(r, &ar->slice_axis);
    if (r->basin_box || r->uncertainty) {   /* the basin maps' grid, checked before the run */
        const int first_axis = ar->slice_axis + 1;
        if (r->nscan - first_axis < 1)
            return ode_usage("%s: the scan has no grid of initial values to measure",
                             r->basin_box ? "--basin-entropy" : "--uncertainty");
        for (int l = first_axis; l < r->nscan && r->basin_box; l++)
            if (r->scans[l].n < r->basin_box)
                return ode_usage("--basin-entropy %d: the scan of '%s' has %ld values, fewer than the box's side",
                                 r->basin_box, model_name(r->scans[l].kind, r->scans[l].target), r->scans[l].n);
    }
    if (model_attractors_create(&ar->table, ar->slice) != MODEL_OK) return ode_runtime("out of memory");
    return 0;
}

/* A finished chunk's systems (first …): grouped, their labels in its rows. */
static int ode_att_chunk(OdeAttractorRun *ar, model_solver *s, long long first)
{
    if (!ar) return 0;
    return model_attractors_group(ar->table, s, first) == MODEL_OK ? 0 : ode_runtime("%s", model_solver_error(s));
}

/* A finished chunk's fingerprints (ODE_FP_ROWS × its systems), as a
 * checkpoint keeps them after its rows and an MPI rank sends them to rank 0;
 * NULL (0 bytes) without `attractor`. */
static const void *ode_att_fingerprints(const model_solver *s, size_t *bytes)
{
    const int on = ODE_FP_ROWS > 0 && s->period && s->period->fp;
    *bytes = on ? (size_t)ODE_FP_ROWS * (size_t)s->n * sizeof(ode_real) : 0;
    return on ? s->period->fp : NULL;
}

/* Fingerprints of systems first … first + nsys - 1 (a resumed checkpoint's,
 * or another rank's chunk), grouped as the chunk that made them was: the
 * next systems in order.  Their labels into labels[nsys] when not NULL. */
static int ode_att_group_kept(OdeAttractorRun *ar, long long first, int nsys, const void *data, size_t bytes,
                              int *labels)
{
    if (!ar || nsys < 1 || bytes != (size_t)ODE_FP_ROWS * (size_t)nsys * sizeof(ode_real))
        return ode_runtime("the fingerprints of systems %lld to %lld are %zu bytes, not %zu", first,
                           first + nsys - 1, bytes, (size_t)ODE_FP_ROWS * (size_t)(nsys > 0 ? nsys : 0) * sizeof(ode_real));
    const char *why;
    if (ode_att_group_fp(ar->table, (const ode_real *)data, (size_t)nsys, first, &why) != MODEL_OK)
        return ode_runtime("grouping the attractors of systems %lld to %lld: %s", first, first + nsys - 1, why);
    return labels ? (model_attractors_labels(ar->table, first, nsys, labels) == MODEL_OK ? 0 : ode_runtime("labels"))
                  : 0;
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
    return ode_att_basins(ar, r);
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
                        "group /attractors%s)\n", ODE_MODEL_NAME, labels, t->slice_axis, slices,
                t->nslice ? "; basin measures: FILE.basins.csv, /basins" : "");
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
    for (int row = 0; row < t->nrow; row++)
        if (t->systems[row] > 0 && strcmp(t->kind[row], "unstable") == 0)
            fprintf(stderr, "%s: label %d is not an attractor: an unstable equilibrium (the Jacobian there has an "
                            "eigenvalue of positive real part) that its %lld system%s reached along its stable manifold, "
                            "on which %s started (a set of measure zero, such as a symmetry axis of the grid)\n",
                    ODE_MODEL_NAME, t->label[row], t->systems[row], t->systems[row] == 1 ? "" : "s",
                    t->systems[row] == 1 ? "it" : "they");
    if (t->nslice && t->box)
        fprintf(stderr, "%s: basin entropy S_b = %.4f, boundary basin entropy S_bb = %.4f (%lld of %lld boxes of %d "
                        "points a side on the boundary; S_bb > ln 2 = 0.6931 shows a fractal boundary)\n",
                ODE_MODEL_NAME, t->entropy[0], t->boundary_entropy[0], t->boundary_boxes[0], t->boxes[0], t->box);
    if (t->nslice && t->nk) {
        fprintf(stderr, "%s: uncertainty exponent alpha = %.4f ± %.4f (uncertain fraction f at k grid steps:",
                ODE_MODEL_NAME, t->exponent[0], t->exponent_err[0]);
        for (int j = 0; j < t->nk; j++) fprintf(stderr, " f(%d) = %.4g", t->ks[j], t->uncertain[j]);
        fputs("; alpha = 1: a smooth boundary)\n", stderr);
    }
}

/* FILE.basins.csv: the basin measures per slice. */
static int ode_att_write_basins(const OdeAttractorRows *t, const char *output)
{
    char *path = ode_side_path(output, ".basins.csv");
    if (!path) return ode_runtime("out of memory");
    OdeSideFile o;
    int status = ode_side_open(&o, path);
    if (!status) {
        FILE *f = o.f;
        int bad = fprintf(f, "slice,%s,box,basin_entropy,boundary_basin_entropy,boxes,boundary_boxes,"
                             "uncertainty_exponent,uncertainty_exponent_err", t->slice_axis ? t->slice_axis : "slice_value") < 0;
        for (int j = 0; j < t->nk; j++) bad |= fprintf(f, ",uncertain_%d", t->ks[j]) < 0;
        bad |= fputc('\n', f) == EOF;
        for (long long sl = 0; sl < t->nslice && !bad; sl++) {
            bad |= fprintf(f, "%lld", sl) < 0;
            bad |= ode_side_number(f, t->slice_values[sl]);
            bad |= fprintf(f, ",%d", t->box) < 0;
            bad |= ode_side_number(f, t->entropy[sl]) | ode_side_number(f, t->boundary_entropy[sl]);
            bad |= fprintf(f, ",%lld,%lld", t->box ? t->boxes[sl] : 0, t->box ? t->boundary_boxes[sl] : 0) < 0;
            bad |= ode_side_number(f, t->exponent[sl]) | ode_side_number(f, t->exponent_err[sl]);
            for (int j = 0; j < t->nk; j++) bad |= ode_side_number(f, t->uncertain[(size_t)sl * (size_t)t->nk + (size_t)j]);
            bad |= fputc('\n', f) == EOF;
        }
        status = bad ? ode_side_failed(&o, errno ? errno : EIO) : ode_side_close(&o);
    }
    ode_side_free(&o);
    free(path);
    return status;
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
    if (!status && t->nslice) status = ode_att_write_basins(t, r->output);
    return status;
}

static void ode_att_free(OdeAttractorRun *ar)
{
    if (!ar) return;
    model_attractors_free(ar->table);
    free(ar->memory);
    free(ar->basin_memory);
    free(ar);
}
