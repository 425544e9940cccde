/* output_h5.c — the runner's HDF5 output (SPEC §4), for `-o FILE.h5` or
 * `.hdf5`.  Built into NAME_main.c (not NAME.cu) when the generated Makefile
 * finds HDF5 (ODE_HDF5 defined, Debian's libhdf5-dev), so that the library
 * libNAME.a never needs HDF5; the runner reaches it through the weak
 * reference model_hdf5_format (output.h).
 *
 * The file explains itself to h5py, xarray (h5netcdf or netCDF4), MATLAB and
 * Julia, in the netCDF/CF manner: one dataset per quantity, named dimensions
 * (HDF5 dimension scales), coordinates, attributes for provenance.
 *
 *   /<field>      (system, rep)  float64 (float32 for a float model): one per recorded field
 *   /status       (system, rep)  int8 enum: ready, finished, event,
 *                                equilibrium, maxsteps, bound, nan, singular (the type is
 *                                /enum_status: a name before "status", which
 *                                netCDF-C needs); also CF's flag_values and
 *                                flag_meanings attributes
 *   /system       (system,)      int64 0 … N-1: the index in the scan product
 *   /rep          (rep,)         int32 0 … M-1: the recorded integration
 *   /scan_<name>  (scan_<name>,) float64: the values of one scan line, its own
 *                                dimension; attributes name, target,
 *                                definition, stride — system s has value
 *                                number (s / stride) % size
 *   attributes of /: model, source (the .ode text), source_file, options,
 *                    command_line, odegen_version, device, precision,
 *                    systems, transient, record, scan
 *
 * Datasets are contiguous (no chunking, no compression: written at the
 * disk's speed), allocated when first written, never filled; each block of
 * rows is one hyperslab per dataset.
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

typedef struct OdeH5 {
    const OdeRunInfo *info;
    char *path;
    hid_t file, real_type, status_type;
    hid_t *fields;              /* one dataset per field */
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

/* Writes count values of a 1-D dataset from `first`. */
static int ode_h5_write_1d(hid_t d, hid_t type, long long first, long long count, const void *data)
{
    hid_t file_space = H5Dget_space(d);
    const hsize_t start = (hsize_t)first, n = (hsize_t)count;
    hid_t mem = H5Screate_simple(1, &n, NULL);
    const int bad = file_space < 0 || mem < 0 ||
                    H5Sselect_hyperslab(file_space, H5S_SELECT_SET, &start, NULL, &n, NULL) < 0 ||
                    H5Dwrite(d, type, mem, file_space, H5P_DEFAULT, data) < 0;
    if (mem >= 0) H5Sclose(mem);
    if (file_space >= 0) H5Sclose(file_space);
    return bad ? -1 : 0;
}

static const char *const ode_h5_reserved[] = {"status", "system", "rep", "enum_status"};

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
        int clash = strncmp(info->fields[f], "scan_", 5) == 0;
        for (size_t r = 0; r < sizeof ode_h5_reserved / sizeof *ode_h5_reserved; r++)
            clash |= strcmp(info->fields[f], ode_h5_reserved[r]) == 0;
        if (clash) {
            snprintf(error, size, "the field '%s' has the name of one of the file's own datasets (system, rep, status, "
                     "scan_*): record it in CSV", info->fields[f]);
            return EINVAL;
        }
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
    hid_t *fields = (hid_t *)malloc(sizeof(hid_t) * (size_t)(info->nfield + 1));
    hid_t *spaces = (hid_t *)malloc(sizeof(hid_t) * (size_t)(info->nfield + 1));
    h->path = (char *)malloc(strlen(path) + 1);
    if (!fields || !spaces || !h->path) {
        free(fields);
        free(spaces);
        return ENOMEM;
    }
    for (int f = 0; f < info->nfield; f++) fields[f] = spaces[f] = -1;
    h->fields = fields;
    h->field_spaces = spaces;
    strcpy(h->path, path);
    h->real_type = info->real_size == 4 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;

    /* No sieve buffer: each block's rows go to the file when written, so that
     * a full disk shows up at once, not at the close. */
    errno = 0;
    hid_t access = H5Pcreate(H5P_FILE_ACCESS);
    if (access >= 0) H5Pset_sieve_buf_size(access, 0);
    h->file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, access >= 0 ? access : H5P_DEFAULT);
    if (access >= 0) H5Pclose(access);
    if (h->file < 0) return ode_h5_fail(error, size, "creating the file");
    const hsize_t dims[2] = {(hsize_t)info->systems, (hsize_t)info->record};

    /* Coordinates: system, rep, and one per scan line. */
    h->system = ode_h5_dataset(h->file, "system", H5T_NATIVE_LLONG, 1, dims);
    hid_t rep = ode_h5_dataset(h->file, "rep", H5T_NATIVE_INT, 1, dims + 1);
    if (h->system < 0 || rep < 0 || H5DSset_scale(h->system, "system") < 0 || H5DSset_scale(rep, "rep") < 0) {
        if (rep >= 0) H5Dclose(rep);
        return ode_h5_fail(error, size, "creating the coordinates");
    }
    h->system_space = H5Dget_space(h->system);
    int bad = 0;
    if (info->record > 0) {
        int *reps = (int *)malloc(sizeof(int) * (size_t)info->record);
        if (!reps) bad = 1;
        for (int r = 0; !bad && r < info->record; r++) reps[r] = r;
        bad = bad || ode_h5_write_1d(rep, H5T_NATIVE_INT, 0, info->record, reps) < 0;
        free(reps);
    }
    for (int l = 0; l < info->naxis && !bad; l++) {
        const OdeAxisInfo *ax = &info->axes[l];
        char name[300];
        snprintf(name, sizeof name, "scan_%s", ax->name);
        const hsize_t n = (hsize_t)ax->n;
        hid_t d = ode_h5_dataset(h->file, name, H5T_NATIVE_DOUBLE, 1, &n);
        bad = d < 0 || H5DSset_scale(d, name) < 0 || ode_h5_string_attribute(d, "name", ax->name) < 0 ||
              ode_h5_string_attribute(d, "target", ax->target) < 0 ||
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
        if (d >= 0) H5Dclose(d);
    }
    if (bad) {
        H5Dclose(rep);
        return ode_h5_fail(error, size, "writing the coordinates");
    }

    /* The recorded fields and the status, their dimensions attached. */
    h->status_type = H5Tenum_create(H5T_NATIVE_SCHAR);
    bad = h->status_type < 0;
    for (int k = 0; k < info->nstatus && !bad; k++) {
        const signed char v = (signed char)k;
        bad = H5Tenum_insert(h->status_type, info->status_names[k], &v) < 0;
    }
    bad = bad || H5Tcommit2(h->file, "enum_status", h->status_type, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) < 0;
    for (int f = 0; f <= info->nfield && !bad; f++) {
        const int is_status = f == info->nfield;
        hid_t d = ode_h5_dataset(h->file, is_status ? "status" : info->fields[f],
                                 is_status ? h->status_type : h->real_type, 2, dims);
        if (is_status) h->status = d;
        else h->fields[f] = d;
        bad = d < 0 || H5DSattach_scale(d, h->system, 0) < 0 || H5DSattach_scale(d, rep, 1) < 0 ||
              H5DSset_label(d, 0, "system") < 0 || H5DSset_label(d, 1, "rep") < 0;
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
        }
        if (!bad) {
            hid_t space = H5Dget_space(d);
            if (is_status) h->status_space = space;
            else h->field_spaces[f] = space;
            bad = space < 0;
        }
    }
    H5Dclose(rep);
    if (bad) return ode_h5_fail(error, size, "creating the datasets");

    /* Where the numbers come from. */
    const long long systems = info->systems;
    char scan[2048] = "";
    for (int l = 0; l < info->naxis; l++)
        snprintf(scan + strlen(scan), sizeof scan - strlen(scan), "%s%s=%s", l ? "; " : "", info->axes[l].name,
                 info->axes[l].definition);
    bad = ode_h5_string_attribute(h->file, "model", info->model) < 0 ||
          ode_h5_string_attribute(h->file, "source", info->source) < 0 ||
          ode_h5_string_attribute(h->file, "source_file", info->source_path) < 0 ||
          ode_h5_string_attribute(h->file, "options", info->options) < 0 ||
          ode_h5_string_attribute(h->file, "command_line", info->command_line) < 0 ||
          ode_h5_string_attribute(h->file, "odegen_version", info->version) < 0 ||
          ode_h5_string_attribute(h->file, "device", info->device) < 0 ||
          ode_h5_string_attribute(h->file, "precision", info->precision) < 0 ||
          ode_h5_string_attribute(h->file, "scan", scan) < 0 ||
          ode_h5_number_attribute(h->file, "systems", H5T_NATIVE_LLONG, &systems, 1) < 0 ||
          ode_h5_number_attribute(h->file, "transient", H5T_NATIVE_INT, &info->transient, 1) < 0 ||
          ode_h5_number_attribute(h->file, "record", H5T_NATIVE_INT, &info->record, 1) < 0;
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
    const hsize_t start[2] = {(hsize_t)b->first, (hsize_t)b->rep0}, count[2] = {(hsize_t)b->nsys, (hsize_t)b->nrep};
    const size_t cells = (size_t)b->nsys * (size_t)b->nrep;
    hid_t mem = H5Screate_simple(2, count, NULL);
    int bad = mem < 0;
    const char *data = b->data;
    errno = 0;
    for (int f = 0; f <= h->info->nfield && !bad; f++) {
        const int is_status = f == h->info->nfield;
        hid_t d = is_status ? h->status : h->fields[f], space = is_status ? h->status_space : h->field_spaces[f];
        bad = H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
              H5Dwrite(d, is_status ? h->status_type : h->real_type, mem, space, H5P_DEFAULT, data) < 0;
        data += cells * (is_status ? 1 : (size_t)h->info->real_size);
    }
    if (mem >= 0) H5Sclose(mem);
    if (!bad && b->rep0 == 0) {   /* the system coordinate of these rows */
        if ((size_t)b->nsys > h->indices_cap) {
            free(h->indices);
            h->indices_cap = 0;
            h->indices = (long long *)malloc(sizeof(long long) * (size_t)b->nsys);
            if (!h->indices) return ENOMEM;
            h->indices_cap = (size_t)b->nsys;
        }
        for (int i = 0; i < b->nsys; i++) h->indices[i] = b->first + i;
        bad = ode_h5_write_1d(h->system, H5T_NATIVE_LLONG, b->first, b->nsys, h->indices) < 0;
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

/* Completes the file: its metadata, then a sync of the whole file. */
static int ode_h5_close(void *state, char *error, size_t size)
{
    OdeH5 *h = (OdeH5 *)state;
    ode_h5_quiet();
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
