/* output_h5.c — the runner's HDF5 output (SPEC §4), for `-o FILE.h5` or
 * `.hdf5`.  Built into NAME_main.c (not NAME.cu) when the generated Makefile
 * finds HDF5 (ODE_HDF5 defined, Debian's libhdf5-dev), so that the library
 * libNAME.a never needs HDF5; the runner reaches it through the weak
 * reference model_hdf5_format (output.h).
 *
 * The file explains itself to h5py, xarray (h5netcdf or netCDF4), MATLAB and
 * Julia, in the netCDF/CF manner: one dataset per quantity on the scan's own
 * dimensions (HDF5 dimension scales), a coordinate variable per dimension,
 * attributes saying what each dataset is and where the numbers come from.
 * For a scan of k (7 values) and of y1's initial value (2 values):
 *
 *   /k            (k,)            float64: the scan line's values, a dimension
 *                                 (a dimension scale); attributes long_name,
 *                                 name, target ("parameter"), definition
 *                                 ("lin(0.2, 0.3, 7)"), stride — system s has
 *                                 value number (s / stride) % size
 *   /y1_0         (y1_0,)         an initial value's line: NAME_0 (NAME is
 *                                 the state's end value), target "initial value"
 *   /rep          (rep,)          int32 0 … M-1: the recorded integration
 *   /<field>      (k, y1_0, rep)  float64 (float32 for a float model): one per
 *                                 recorded field; attributes long_name (what it
 *                                 is: model_field_about), odegen_kind, units
 *                                 where known, coordinates ("system").  A
 *                                 recorded parameter that the scan varies is
 *                                 its coordinate, not a dataset of its own
 *   /status       (k, y1_0, rep)  int8 enum: ready, finished, event,
 *                                 equilibrium, maxsteps, bound, nan, singular,
 *                                 zeno, empty, unstable, history, dae_failed (the type is
 *                                 /enum_status: a name before
 *                                 "status", which netCDF-C needs); also CF's
 *                                 flag_values and flag_meanings attributes
 *   /system       (k, y1_0)       int64: the index in the scan's product (the
 *                                 CSV's system column)
 *   attributes of /: model, source (the .ode text), source_file, options,
 *                    command_line, odegen_version, device, precision,
 *                    systems, transient, record, scan, fields, Conventions
 *
 * Without a scan line the one dimension is /system (its own coordinate).  A
 * dimension's name is the parameter's, or NAME_0 for a state's initial value;
 * one that would clash with another name of the file gets "_scan" appended.
 *
 * Datasets are contiguous (no chunking, no compression: written at the
 * disk's speed), allocated when first written, never filled.  A block of
 * rows is a run of consecutive elements of each field (systems in the scan's
 * order, then reps): written as one selection of at most 2·rank − 1 boxes.
 */
#ifdef ODE_HDF5
#ifndef ODEGEN_GENERATED
#include "output.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>
#include <hdf5_hl.h>

/* HDF5's error printing is per thread: off wherever it is called. */
static void ode_h5_quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

/* Scan lines an HDF5 file can hold: HDF5's 32 dimensions, less rep's. */
#define ODE_H5_MAX_AXES 31

typedef struct OdeH5 {
    const OdeRunInfo *info;
    char *path;
    hid_t file, real_type, status_type;
    int rank;                   /* of the fields: the scan's dimensions (or system), then rep */
    hsize_t dims[ODE_H5_MAX_AXES + 1];
    char **dim_names;           /* the scan's dimensions' names (naxis of them) */
    hid_t *fields;              /* one dataset per field; -1 for a scanned parameter (its coordinate) */
    hid_t *field_spaces;        /* their file dataspaces */
    hid_t status, status_space;
    hid_t system, system_space;
    long long *indices;         /* scratch: the system coordinate of a block */
    size_t indices_cap;
} OdeH5;

/* The innermost message of HDF5's error stack (its own printing is off),
 * cut to its first phrase: "file write failed: time = …, filename = …" says
 * "file write failed". */
static herr_t ode_h5_first_error(unsigned n, const H5E_error2_t *e, void *out)
{
    if (n != 0) return 0;
    const size_t phrase = strcspn(e->desc, ":,\n");
    snprintf((char *)out, 300, "%s (HDF5: %.*s)", strerror(errno ? errno : EIO), (int)(phrase < 200 ? phrase : 200),
             e->desc);
    return 0;
}

static int ode_h5_fail(char *error, size_t size, const char *what)
{
    const int err = errno ? errno : EIO;
    char inner[300] = "";
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, ode_h5_first_error, inner);
    snprintf(error, size, "%s: %s", what, inner[0] ? inner : strerror(err));
    return err;
}

static int ode_h5_string_attribute(hid_t where, const char *name, const char *value)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    hid_t space = H5Screate(H5S_SCALAR);
    int bad = type < 0 || space < 0 || H5Tset_size(type, H5T_VARIABLE) < 0 || H5Tset_cset(type, H5T_CSET_UTF8) < 0;
    hid_t attr = bad ? -1 : H5Acreate2(where, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    const char *text = value ? value : "";
    bad = bad || attr < 0 || H5Awrite(attr, type, &text) < 0;
    if (attr >= 0) H5Aclose(attr);
    if (space >= 0) H5Sclose(space);
    if (type >= 0) H5Tclose(type);
    return bad ? -1 : 0;
}

static int ode_h5_number_attribute(hid_t where, const char *name, hid_t type, const void *value, hsize_t count)
{
    hid_t space = count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, NULL);
    hid_t attr = space < 0 ? -1 : H5Acreate2(where, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    const int bad = attr < 0 || H5Awrite(attr, type, value) < 0;
    if (attr >= 0) H5Aclose(attr);
    if (space >= 0) H5Sclose(space);
    return bad ? -1 : 0;
}

/* A dataset of `rank` dimensions, contiguous, allocated when written, never filled. */
static hid_t ode_h5_dataset(hid_t file, const char *name, hid_t type, int rank, const hsize_t *dims)
{
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
    hid_t d = -1;
    if (space >= 0 && plist >= 0 && H5Pset_layout(plist, H5D_CONTIGUOUS) >= 0 &&
        H5Pset_alloc_time(plist, H5D_ALLOC_TIME_LATE) >= 0 && H5Pset_fill_time(plist, H5D_FILL_TIME_NEVER) >= 0)
        d = H5Dcreate2(file, name, type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
    if (plist >= 0) H5Pclose(plist);
    if (space >= 0) H5Sclose(space);
    return d;
}

/* A run of consecutive elements being written, box by box. */
typedef struct OdeH5Run {
    hid_t d, space, type;
    const char *data;           /* the next box's values */
    size_t elem;                /* bytes per value */
} OdeH5Run;

/* Writes one box: a regular hyperslab (HDF5's fast path) from the run's next values. */
static int ode_h5_box(OdeH5Run *w, int rank, const hsize_t *start, const hsize_t *count)
{
    hsize_t n = 1;
    for (int k = 0; k < rank; k++) n *= count[k];
    hid_t mem = H5Screate_simple(1, &n, NULL);
    const int bad = mem < 0 || H5Sselect_hyperslab(w->space, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
                    H5Dwrite(w->d, w->type, mem, w->space, H5P_DEFAULT, w->data) < 0;
    if (mem >= 0) H5Sclose(mem);
    w->data += n * w->elem;
    return bad ? -1 : 0;
}

/* Writes the elements of flat indices [a, b) (C order) below dimension
 * `level`, whose leading indices start[0 … level-1] are fixed: a partial
 * run, whole blocks, a partial run, at every level — at most 2·rank − 1
 * boxes, each a run of consecutive elements, in increasing order. */
static int ode_h5_boxes(OdeH5Run *w, int rank, const hsize_t *dims, int level, hsize_t *start, hsize_t *count,
                        hsize_t a, hsize_t b)
{
    if (a >= b) return 0;
    hsize_t inner = 1;
    for (int d = level + 1; d < rank; d++) inner *= dims[d];
    const hsize_t ia = a / inner, ra = a % inner, ib = b / inner, rb = b % inner;
    if (inner == 1) {   /* the last dimension: one box */
        start[level] = a;
        count[level] = b - a;
        return ode_h5_box(w, rank, start, count);
    }
    start[level] = ia;
    count[level] = 1;
    if (ia == ib) return ode_h5_boxes(w, rank, dims, level + 1, start, count, ra, rb);
    hsize_t whole = ia;
    if (ra) {
        if (ode_h5_boxes(w, rank, dims, level + 1, start, count, ra, inner) < 0) return -1;
        whole = ia + 1;
    }
    if (ib > whole) {
        start[level] = whole;
        count[level] = ib - whole;
        for (int d = level + 1; d < rank; d++) {
            start[d] = 0;
            count[d] = dims[d];
        }
        if (ode_h5_box(w, rank, start, count) < 0) return -1;
    }
    start[level] = ib;
    count[level] = 1;
    return rb ? ode_h5_boxes(w, rank, dims, level + 1, start, count, 0, rb) : 0;
}

/* Writes n values to the elements of flat indices [first, first + n) of a
 * dataset of `rank` dimensions `dims` (its dataspace `space`). */
static int ode_h5_write_run(hid_t d, hid_t space, hid_t type, int rank, const hsize_t *dims, hsize_t first, hsize_t n,
                            const void *data)
{
    hsize_t start[ODE_H5_MAX_AXES + 1], count[ODE_H5_MAX_AXES + 1];
    OdeH5Run w = {d, space, type, (const char *)data, H5Tget_size(type)};
    return w.elem == 0 ? -1 : ode_h5_boxes(&w, rank, dims, 0, start, count, first, first + n);
}

/* Writes count values of a 1-D dataset from `first`. */
static int ode_h5_write_1d(hid_t d, hid_t type, long long first, long long count, const void *data)
{
    hid_t file_space = H5Dget_space(d);
    const hsize_t n = (hsize_t)count;
    const int bad = file_space < 0 || ode_h5_write_run(d, file_space, type, 1, &n, (hsize_t)first, n, data) < 0;
    if (file_space >= 0) H5Sclose(file_space);
    return bad ? -1 : 0;
}

/* Attaches the dimension scales scales[0 … rank-1] to d, in order.  (No
 * labels: the scales name the dimensions, and xarray would show labels as
 * an attribute of every variable.) */
static int ode_h5_attach(hid_t d, int rank, const hid_t *scales)
{
    for (int k = 0; k < rank; k++)
        if (H5DSattach_scale(d, scales[k], (unsigned)k) < 0) return -1;
    return 0;
}

static const char *const ode_h5_reserved[] = {"status", "system", "rep", "enum_status"};

/* The attractor table's groups, where the run makes one (output.h's has_attractors). */
static int ode_h5_table_name(const OdeRunInfo *info, const char *name)
{
    return info->has_attractors && (strcmp(name, "attractors") == 0 || strcmp(name, "basins") == 0);
}

/* Whether `name` is taken in the file: a reserved name, a field written as
 * a dataset, or one of the first `naxis` dimensions. */
static int ode_h5_taken(const OdeH5 *h, const char *name, int naxis)
{
    if (ode_h5_table_name(h->info, name)) return 1;
    for (size_t r = 0; r < sizeof ode_h5_reserved / sizeof *ode_h5_reserved; r++)
        if (strcmp(name, ode_h5_reserved[r]) == 0) return 1;
    for (int f = 0; f < h->info->nfield; f++)
        if (h->fields[f] != -2 && strcmp(name, h->info->fields[f]) == 0) return 1;
    for (int l = 0; l < naxis; l++)
        if (strcmp(name, h->dim_names[l]) == 0) return 1;
    return 0;
}

/* A scan line's dimension: the parameter's name, or NAME_0 for a state's
 * initial value ("_scan" appended while the name is taken).  Marks a
 * recorded field that is the scanned parameter (fields[f] = -2): its values
 * are the coordinate's. */
static char *ode_h5_dim_name(OdeH5 *h, int l)
{
    const OdeAxisInfo *ax = &h->info->axes[l];
    const int parameter = strcmp(ax->target, "parameter") == 0;
    if (parameter)
        for (int f = 0; f < h->info->nfield; f++)
            if (strcmp(h->info->fields[f], ax->name) == 0 && strcmp(h->info->field_kinds[f], "parameter") == 0)
                h->fields[f] = -2;
    size_t len = strlen(ax->name) + 3;
    char *name = (char *)malloc(len);
    if (!name) return NULL;
    snprintf(name, len, "%s%s", ax->name, parameter ? "" : "_0");
    while (ode_h5_taken(h, name, l)) {
        char *longer = (char *)realloc(name, (len += 5));
        if (!longer) {
            free(name);
            return NULL;
        }
        name = longer;
        strcat(name, "_scan");
    }
    return name;
}

static int ode_h5_open(void **state, const OdeRunInfo *info, const char *path, int fd, char *error, size_t size)
{
    if (!path && fd < 0) {   /* blocks prepared for another process's file (output.h) */
        OdeH5 *h = (OdeH5 *)calloc(1, sizeof *h);
        if (!h) return ENOMEM;
        h->info = info;
        h->file = -1;
        *state = h;
        return 0;
    }
    if (fd >= 0) close(fd);   /* the library opens the file itself */
    for (int f = 0; f < info->nfield; f++) {
        int clash = 0;
        for (size_t r = 0; r < sizeof ode_h5_reserved / sizeof *ode_h5_reserved; r++)
            clash |= strcmp(info->fields[f], ode_h5_reserved[r]) == 0;
        if (clash) {
            snprintf(error, size, "the field '%s' has the name of one of the file's own datasets (system, rep, status): "
                     "record it in CSV", info->fields[f]);
            return EINVAL;
        }
        if (ode_h5_table_name(info, info->fields[f])) {
            snprintf(error, size, "the field '%s' has the name of the attractor table's group in the file: record it "
                     "in CSV", info->fields[f]);
            return EINVAL;
        }
    }
    if (info->naxis > ODE_H5_MAX_AXES) {
        snprintf(error, size, "the scan has %d lines and an HDF5 file at most %d dimensions for them: write CSV",
                 info->naxis, ODE_H5_MAX_AXES);
        return EINVAL;
    }
    /* No clean-up at exit: a file whose close failed (a full disk) would make
     * HDF5's own crash; the process ends right after the output anyway. */
    H5dont_atexit();
    ode_h5_quiet();
    OdeH5 *h = (OdeH5 *)calloc(1, sizeof *h);
    if (!h) return ENOMEM;
    *state = h;
    h->info = info;
    h->file = h->status_type = h->status = h->status_space = h->system = h->system_space = -1;
    h->fields = (hid_t *)malloc(sizeof(hid_t) * (size_t)(info->nfield + 1));
    h->field_spaces = (hid_t *)malloc(sizeof(hid_t) * (size_t)(info->nfield + 1));
    h->dim_names = (char **)calloc((size_t)info->naxis + 1, sizeof(char *));
    h->path = (char *)malloc(strlen(path) + 1);
    if (!h->fields || !h->field_spaces || !h->dim_names || !h->path) {
        free(h->fields);
        free(h->field_spaces);
        h->fields = h->field_spaces = NULL;
        return ENOMEM;
    }
    for (int f = 0; f < info->nfield; f++) h->fields[f] = h->field_spaces[f] = -1;
    strcpy(h->path, path);
    h->real_type = info->real_size == 4 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
    for (int l = 0; l < info->naxis; l++)
        if (!(h->dim_names[l] = ode_h5_dim_name(h, l))) return ENOMEM;

    /* The fields' shape: the scan's dimensions (or system), then rep. */
    const int naxis = info->naxis;
    h->rank = (naxis ? naxis : 1) + 1;
    for (int l = 0; l < naxis; l++) h->dims[l] = (hsize_t)info->axes[l].n;
    if (!naxis) h->dims[0] = (hsize_t)info->systems;
    h->dims[h->rank - 1] = (hsize_t)info->record;

    /* No sieve buffer: each block's rows go to the file when written, so that
     * a full disk shows up at once, not at the close. */
    errno = 0;
    hid_t access = H5Pcreate(H5P_FILE_ACCESS);
    if (access >= 0) H5Pset_sieve_buf_size(access, 0);
    h->file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, access >= 0 ? access : H5P_DEFAULT);
    if (access >= 0) H5Pclose(access);
    if (h->file < 0) return ode_h5_fail(error, size, "creating the file");

    /* The coordinates: one per scan line (or system), and rep. */
    hid_t scales[ODE_H5_MAX_AXES + 1];
    for (int k = 0; k < h->rank; k++) scales[k] = -1;
    int bad = 0;
    for (int l = 0; l < naxis && !bad; l++) {
        const OdeAxisInfo *ax = &info->axes[l];
        const int parameter = strcmp(ax->target, "parameter") == 0;
        char long_name[400];
        snprintf(long_name, sizeof long_name, parameter ? "%s" : "initial value of %s", ax->name);
        hid_t d = scales[l] = ode_h5_dataset(h->file, h->dim_names[l], H5T_NATIVE_DOUBLE, 1, &h->dims[l]);
        bad = d < 0 || H5DSset_scale(d, h->dim_names[l]) < 0 || ode_h5_string_attribute(d, "long_name", long_name) < 0 ||
              ode_h5_string_attribute(d, "name", ax->name) < 0 || ode_h5_string_attribute(d, "target", ax->target) < 0 ||
              ode_h5_string_attribute(d, "definition", ax->definition) < 0 ||
              ode_h5_number_attribute(d, "stride", H5T_NATIVE_LLONG, &ax->stride, 1) < 0;
        const long long piece = 1 << 20;
        double *values = (double *)malloc(sizeof(double) * (size_t)(ax->n < piece ? ax->n : piece));
        bad = bad || !values;
        for (long long first = 0; !bad && first < ax->n; first += piece) {
            const long long count = ax->n - first < piece ? ax->n - first : piece;
            info->axis_values(info->context, l, first, count, values);
            bad = ode_h5_write_1d(d, H5T_NATIVE_DOUBLE, first, count, values) < 0;
        }
        free(values);
    }
    /* system: the index in the scan's product, on the scan's dimensions (its own without a scan). */
    if (!bad) {
        h->system = ode_h5_dataset(h->file, "system", H5T_NATIVE_LLONG, h->rank - 1, h->dims);
        if (!naxis) scales[0] = h->system;
        bad = h->system < 0 || (naxis ? ode_h5_attach(h->system, naxis, scales) < 0
                                      : H5DSset_scale(h->system, "system") < 0) ||
              ode_h5_string_attribute(h->system, "long_name", "system: the index in the scan's product") < 0 ||
              ode_h5_string_attribute(h->system, "comment", "the system column of the runner's CSV") < 0;
        h->system_space = bad ? -1 : H5Dget_space(h->system);
    }
    hid_t rep = -1;
    if (!bad) {
        rep = scales[h->rank - 1] = ode_h5_dataset(h->file, "rep", H5T_NATIVE_INT, 1, &h->dims[h->rank - 1]);
        bad = rep < 0 || H5DSset_scale(rep, "rep") < 0 ||
              ode_h5_string_attribute(rep, "long_name", "recorded integration") < 0 ||
              ode_h5_string_attribute(rep, "comment", "0: the first after the transient ones") < 0;
    }
    if (!bad && info->record > 0) {
        int *reps = (int *)malloc(sizeof(int) * (size_t)info->record);
        if (!reps) bad = 1;
        for (int r = 0; !bad && r < info->record; r++) reps[r] = r;
        bad = bad || ode_h5_write_1d(rep, H5T_NATIVE_INT, 0, info->record, reps) < 0;
        free(reps);
    }

    /* The recorded fields and the status, their dimensions attached. */
    if (!bad) {
        h->status_type = H5Tenum_create(H5T_NATIVE_SCHAR);
        bad = h->status_type < 0;
    }
    for (int k = 0; k < info->nstatus && !bad; k++) {
        const signed char v = (signed char)k;
        bad = H5Tenum_insert(h->status_type, info->status_names[k], &v) < 0;
    }
    bad = bad || H5Tcommit2(h->file, "enum_status", h->status_type, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) < 0;
    for (int f = 0; f <= info->nfield && !bad; f++) {
        const int is_status = f == info->nfield;
        if (!is_status && h->fields[f] == -2) continue;   /* a scanned parameter: its coordinate */
        hid_t d = ode_h5_dataset(h->file, is_status ? "status" : info->fields[f],
                                 is_status ? h->status_type : h->real_type, h->rank, h->dims);
        if (is_status) h->status = d;
        else h->fields[f] = d;
        bad = d < 0 || ode_h5_attach(d, h->rank, scales) < 0 ||
              (naxis && ode_h5_string_attribute(d, "coordinates", "system") < 0);
        if (!bad && is_status) {
            char meanings[512] = "";
            signed char values[64];
            for (int k = 0; k < info->nstatus && k < 64; k++) {
                values[k] = (signed char)k;
                snprintf(meanings + strlen(meanings), sizeof meanings - strlen(meanings), "%s%s", k ? " " : "",
                         info->status_names[k]);
            }
            bad = ode_h5_number_attribute(d, "flag_values", H5T_NATIVE_SCHAR, values,
                                          (hsize_t)(info->nstatus < 64 ? info->nstatus : 64)) < 0 ||
                  ode_h5_string_attribute(d, "flag_meanings", meanings) < 0 ||
                  ode_h5_string_attribute(d, "long_name", "how each integration ended") < 0;
        } else if (!bad) {
            bad = ode_h5_string_attribute(d, "long_name", info->field_meanings[f]) < 0 ||
                  ode_h5_string_attribute(d, "odegen_kind", info->field_kinds[f]) < 0 ||
                  (info->field_comments[f][0] && ode_h5_string_attribute(d, "comment", info->field_comments[f]) < 0) ||
                  (info->field_units[f][0] && ode_h5_string_attribute(d, "units", info->field_units[f]) < 0);
        }
        if (!bad) {
            hid_t space = H5Dget_space(d);
            if (is_status) h->status_space = space;
            else h->field_spaces[f] = space;
            bad = space < 0;
        }
    }
    for (int k = 0; k < h->rank; k++)
        if (scales[k] >= 0 && scales[k] != h->system) H5Dclose(scales[k]);
    if (bad) return ode_h5_fail(error, size, "creating the datasets");

    /* Where the numbers come from. */
    const long long systems = info->systems;
    char scan[2048] = "", fields[2048] = "";
    for (int l = 0; l < naxis; l++)
        snprintf(scan + strlen(scan), sizeof scan - strlen(scan), "%s%s=%s", l ? "; " : "", info->axes[l].name,
                 info->axes[l].definition);
    for (int f = 0; f < info->nfield; f++)
        snprintf(fields + strlen(fields), sizeof fields - strlen(fields), "%s%s", f ? ", " : "", info->fields[f]);
    bad = ode_h5_string_attribute(h->file, "Conventions", "CF-1.8") < 0 ||
          ode_h5_string_attribute(h->file, "model", info->model) < 0 ||
          ode_h5_string_attribute(h->file, "source", info->source) < 0 ||
          ode_h5_string_attribute(h->file, "source_file", info->source_path) < 0 ||
          ode_h5_string_attribute(h->file, "options", info->options) < 0 ||
          ode_h5_string_attribute(h->file, "command_line", info->command_line) < 0 ||
          ode_h5_string_attribute(h->file, "odegen_version", info->version) < 0 ||
          ode_h5_string_attribute(h->file, "device", info->device) < 0 ||
          ode_h5_string_attribute(h->file, "precision", info->precision) < 0 ||
          ode_h5_string_attribute(h->file, "scan", scan) < 0 ||
          ode_h5_string_attribute(h->file, "fields", fields) < 0 ||
          ode_h5_number_attribute(h->file, "systems", H5T_NATIVE_LLONG, &systems, 1) < 0 ||
          ode_h5_number_attribute(h->file, "transient", H5T_NATIVE_INT, &info->transient, 1) < 0 ||
          ode_h5_number_attribute(h->file, "record", H5T_NATIVE_INT, &info->record, 1) < 0 ||
          (info->seed >= 0 && ode_h5_number_attribute(h->file, "seed", H5T_NATIVE_LLONG, &info->seed, 1) < 0);
    if (bad) return ode_h5_fail(error, size, "writing the attributes");
    return 0;
}

static size_t ode_h5_bound(void *state, int nsys, int nrep)
{
    const OdeH5 *h = (const OdeH5 *)state;
    return (size_t)nsys * (size_t)nrep * ((size_t)h->info->nfield * (size_t)h->info->real_size + 1);
}

static void ode_h5_header(void *state, OdeBlock *b)
{
    (void)state;
    b->bytes = 0;
}

/* The block's rows, field by field, each as (system, rep): the chunk's
 * values transposed from (rep, field, system). */
static void ode_h5_prepare(void *state, const OdeChunkView *ch, OdeBlock *b)
{
    const OdeH5 *h = (const OdeH5 *)state;
    const size_t stride = (size_t)ch->stride, cells = (size_t)b->nsys * (size_t)b->nrep;
    const size_t at = (size_t)(b->first - ch->first), size = (size_t)h->info->real_size;
    char *out = b->data;
    for (int f = 0; f < ch->nfield; f++) {
        for (int i = 0; i < b->nsys; i++)
            for (int r = 0; r < b->nrep; r++) {
                const size_t k = ((size_t)(b->rep0 + r) * (size_t)ch->nfield + (size_t)f) * stride + at + (size_t)i;
                memcpy(out + ((size_t)i * (size_t)b->nrep + (size_t)r) * size, (const char *)ch->values + k * size, size);
            }
        out += cells * size;
    }
    signed char *status = (signed char *)out;
    for (int i = 0; i < b->nsys; i++)
        for (int r = 0; r < b->nrep; r++)
            status[(size_t)i * (size_t)b->nrep + (size_t)r] =
                (signed char)ch->status[(size_t)(b->rep0 + r) * stride + at + (size_t)i];
    b->bytes = cells * ((size_t)ch->nfield * size + 1);
}

static int ode_h5_write(void *state, const OdeBlock *b, char *error, size_t size)
{
    OdeH5 *h = (OdeH5 *)state;
    if (b->bytes == 0) return 0;
    ode_h5_quiet();
    /* Rows [first, first + nsys) x [rep0, rep0 + nrep), all reps or one
     * system: consecutive elements of every field. */
    const hsize_t cells = (hsize_t)b->nsys * (hsize_t)b->nrep;
    const hsize_t at = (hsize_t)b->first * (hsize_t)h->info->record + (hsize_t)b->rep0;
    int bad = 0;
    const char *data = b->data;
    errno = 0;
    for (int f = 0; f <= h->info->nfield && !bad; f++) {
        const int is_status = f == h->info->nfield;
        hid_t d = is_status ? h->status : h->fields[f], space = is_status ? h->status_space : h->field_spaces[f];
        if (d >= 0)
            bad = ode_h5_write_run(d, space, is_status ? h->status_type : h->real_type, h->rank, h->dims, at, cells,
                                   data) < 0;
        data += cells * (is_status ? 1 : (size_t)h->info->real_size);
    }
    if (!bad && b->rep0 == 0) {   /* the system coordinate of these rows */
        if ((size_t)b->nsys > h->indices_cap) {
            free(h->indices);
            h->indices_cap = 0;
            h->indices = (long long *)malloc(sizeof(long long) * (size_t)b->nsys);
            if (!h->indices) return ENOMEM;
            h->indices_cap = (size_t)b->nsys;
        }
        for (int i = 0; i < b->nsys; i++) h->indices[i] = b->first + i;
        bad = ode_h5_write_run(h->system, h->system_space, H5T_NATIVE_LLONG, h->rank - 1, h->dims, (hsize_t)b->first,
                               (hsize_t)b->nsys, h->indices) < 0;
    }
    return bad ? ode_h5_fail(error, size, "writing rows") : 0;
}

static int ode_h5_flush(void *state, char *error, size_t size)
{
    OdeH5 *h = (OdeH5 *)state;
    int *fd = NULL;
    ode_h5_quiet();
    errno = 0;
    if (H5Fflush(h->file, H5F_SCOPE_LOCAL) < 0) return ode_h5_fail(error, size, "flushing");
    if (H5Fget_vfd_handle(h->file, H5P_DEFAULT, (void **)&fd) >= 0 && fd && fdatasync(*fd) != 0 && errno != EINVAL)
        return errno;
    return 0;
}

static void ode_h5_close_ids(OdeH5 *h)
{
    for (int f = 0; f < h->info->nfield; f++) {
        if (h->field_spaces[f] >= 0) H5Sclose(h->field_spaces[f]);
        if (h->fields[f] >= 0) H5Dclose(h->fields[f]);
        h->fields[f] = h->field_spaces[f] = -1;
    }
    if (h->status_space >= 0) H5Sclose(h->status_space);
    if (h->status >= 0) H5Dclose(h->status);
    if (h->system_space >= 0) H5Sclose(h->system_space);
    if (h->system >= 0) H5Dclose(h->system);
    if (h->status_type >= 0) H5Tclose(h->status_type);
    h->status_space = h->status = h->system_space = h->system = h->status_type = -1;
}

/* A whole dataset of the attractor table: rows (× cols when cols > 0). */
static int ode_h5_table_column(hid_t group, const char *name, hid_t type, hsize_t rows, hsize_t cols, const void *data)
{
    const hsize_t dims[2] = {rows, cols};
    hid_t space = H5Screate_simple(cols ? 2 : 1, dims, NULL);   /* (default properties: strings need a fill value) */
    hid_t d = space < 0 ? -1 : H5Dcreate2(group, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const int bad = d < 0 || (rows && H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0);
    if (d >= 0) H5Dclose(d);
    if (space >= 0) H5Sclose(space);
    return bad ? -1 : 0;
}

/* `attractor`'s table as the group /attractors (runner_attractors.c): one
 * dataset per column, a row per attractor (and escaped, failed) per slice;
 * point, lo and hi (rows × quantities) with the quantities' names as an
 * attribute. */
static int ode_h5_attractors(OdeH5 *h)
{
    const OdeAttractorRows *t = h->info->attractors;
    if (!t) return 0;
    hid_t g = H5Gcreate2(h->file, "attractors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    const hsize_t n = (hsize_t)t->nrow, q = (hsize_t)t->nq;
    hid_t text = H5Tcopy(H5T_C_S1);
    int bad = text < 0 || H5Tset_size(text, H5T_VARIABLE) < 0 || H5Tset_cset(text, H5T_CSET_UTF8) < 0;
    bad = bad || ode_h5_table_column(g, "slice", H5T_NATIVE_LLONG, n, 0, t->slice) < 0;
    bad = bad || ode_h5_table_column(g, t->slice_axis ? t->slice_axis : "slice_value", H5T_NATIVE_DOUBLE, n, 0,
                                     t->slice_value) < 0;
    bad = bad || ode_h5_table_column(g, "label", H5T_NATIVE_INT, n, 0, t->label) < 0;
    bad = bad || ode_h5_table_column(g, "kind", text, n, 0, t->kind) < 0;
    bad = bad || ode_h5_table_column(g, "period", H5T_NATIVE_INT, n, 0, t->period) < 0;
    bad = bad || ode_h5_table_column(g, "systems", H5T_NATIVE_LLONG, n, 0, t->systems) < 0;
    bad = bad || ode_h5_table_column(g, "fraction", H5T_NATIVE_DOUBLE, n, 0, t->fraction) < 0;
    bad = bad || ode_h5_table_column(g, "fraction_err", H5T_NATIVE_DOUBLE, n, 0, t->fraction_err) < 0;
    bad = bad || ode_h5_table_column(g, "lambda1", H5T_NATIVE_DOUBLE, n, 0, t->lambda1) < 0;
    bad = bad || ode_h5_table_column(g, "point", H5T_NATIVE_DOUBLE, n, q, t->point) < 0;
    bad = bad || ode_h5_table_column(g, "lo", H5T_NATIVE_DOUBLE, n, q, t->lo) < 0;
    bad = bad || ode_h5_table_column(g, "hi", H5T_NATIVE_DOUBLE, n, q, t->hi) < 0;
    if (!bad) {
        hid_t space = H5Screate_simple(1, &q, NULL);
        hid_t a = space < 0 ? -1 : H5Acreate2(g, "quantities", text, space, H5P_DEFAULT, H5P_DEFAULT);
        bad = a < 0 || H5Awrite(a, text, t->quantities) < 0;
        if (a >= 0) H5Aclose(a);
        if (space >= 0) H5Sclose(space);
    }
    bad = bad || ode_h5_number_attribute(g, "dist", H5T_NATIVE_DOUBLE, &t->dist, 1) < 0;
    bad = bad || ode_h5_number_attribute(g, "match", H5T_NATIVE_DOUBLE, &t->match, 1) < 0;
    bad = bad || ode_h5_string_attribute(g, "comment", "one row per attractor per slice (labels -1: escaped, "
                                                       "0: failed); fraction = systems / the slice's systems, "
                                                       "fraction_err its binomial standard error") < 0;
    if (text >= 0) H5Tclose(text);
    H5Gclose(g);
    if (bad || !t->nslice) return bad ? -1 : 0;
    /* --basin-entropy, --uncertainty: the group /basins, a row per slice */
    if ((g = H5Gcreate2(h->file, "basins", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0) return -1;
    const hsize_t s = (hsize_t)t->nslice, k = (hsize_t)t->nk;
    bad = ode_h5_table_column(g, t->slice_axis ? t->slice_axis : "slice_value", H5T_NATIVE_DOUBLE, s, 0,
                              t->slice_values) < 0;
    if (t->box) {
        bad = bad || ode_h5_table_column(g, "basin_entropy", H5T_NATIVE_DOUBLE, s, 0, t->entropy) < 0;
        bad = bad || ode_h5_table_column(g, "boundary_basin_entropy", H5T_NATIVE_DOUBLE, s, 0, t->boundary_entropy) < 0;
        bad = bad || ode_h5_table_column(g, "boxes", H5T_NATIVE_LLONG, s, 0, t->boxes) < 0;
        bad = bad || ode_h5_table_column(g, "boundary_boxes", H5T_NATIVE_LLONG, s, 0, t->boundary_boxes) < 0;
        bad = bad || ode_h5_number_attribute(g, "box", H5T_NATIVE_INT, &t->box, 1) < 0;
    }
    if (t->nk) {
        bad = bad || ode_h5_table_column(g, "uncertainty_exponent", H5T_NATIVE_DOUBLE, s, 0, t->exponent) < 0;
        bad = bad || ode_h5_table_column(g, "uncertainty_exponent_err", H5T_NATIVE_DOUBLE, s, 0, t->exponent_err) < 0;
        bad = bad || ode_h5_table_column(g, "uncertain", H5T_NATIVE_DOUBLE, s, k, t->uncertain) < 0;
        bad = bad || ode_h5_number_attribute(g, "k", H5T_NATIVE_INT, t->ks, k) < 0;
    }
    H5Gclose(g);
    return bad ? -1 : 0;
}

/* Completes the file: its metadata, then a sync of the whole file. */
static int ode_h5_close(void *state, char *error, size_t size)
{
    OdeH5 *h = (OdeH5 *)state;
    ode_h5_quiet();
    if (ode_h5_attractors(h) < 0) {
        ode_h5_close_ids(h);
        return ode_h5_fail(error, size, "writing the attractor table");
    }
    ode_h5_close_ids(h);
    errno = 0;
    const herr_t closed = H5Fclose(h->file);
    h->file = -1;
    if (closed < 0) return ode_h5_fail(error, size, "closing");
    const int fd = open(h->path, O_RDONLY);
    if (fd < 0) return errno;
    int err = fsync(fd) != 0 && errno != EINVAL ? errno : 0;
    close(fd);
    return err;
}

static void ode_h5_discard(void *state)
{
    OdeH5 *h = (OdeH5 *)state;
    if (!h) return;
    if (h->fields && h->field_spaces) ode_h5_close_ids(h);
    if (h->file >= 0) H5Fclose(h->file);
    for (int l = 0; h->dim_names && l < h->info->naxis; l++) free(h->dim_names[l]);
    free(h->dim_names);
    free(h->fields);
    free(h->field_spaces);
    free(h->indices);
    free(h->path);
    free(h);
}

static double ode_h5_estimate(const OdeRunInfo *info, const OdeChunkView *sample, double *fixed)
{
    (void)sample;
    *fixed = 65536.0 + 8.0 * (double)info->systems + (info->source ? (double)strlen(info->source) : 0.0);
    for (int l = 0; l < info->naxis; l++) *fixed += 8.0 * (double)info->axes[l].n;
    return (double)info->nfield * info->real_size + 1.0;
}

static const OdeFormat ode_h5_format = {
    "HDF5", 1, ode_h5_open, ode_h5_bound, ode_h5_header, ode_h5_prepare, ode_h5_write,
    ode_h5_flush, ode_h5_close, ode_h5_discard, ode_h5_estimate,
};

const OdeFormat *model_hdf5_format(void) { return &ode_h5_format; }
#endif /* ODE_HDF5 */
