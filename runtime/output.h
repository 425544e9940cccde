/* output.h — what the runner hands to an output format (CSV: output_csv.c,
 * HDF5: output_h5.c), and what a format does with it.
 *
 * The runner integrates a scan a chunk of systems at a time; each chunk's
 * recorded values are cut into blocks of whole rows (prepare, in parallel
 * threads, into memory that the format owns), and a writer thread writes the
 * blocks in order (write) while the next chunk computes.  A block is rows of
 * systems [first, first + nsys) × reps [rep0, rep0 + nrep), ordered by system
 * then rep, so a block's place in the output is known from its rows alone:
 * another process could write it (MPI, issue 14).
 *
 * HDF5 lives in NAME_main.c, not in NAME.cu, so that the library libNAME.a
 * needs no HDF5: the runner finds it through a weak reference
 * (model_hdf5_format is NULL when the runner was built without HDF5).
 */
#ifndef ODE_OUTPUT_H
#define ODE_OUTPUT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One axis of the scan (a scan line), as the output describes it. */
typedef struct OdeAxisInfo {
    const char *name;         /* the scanned parameter or state */
    const char *target;       /* "parameter" or "initial value" */
    const char *definition;   /* "lin(0.2, 0.3, 30720)", as the scan was given */
    long long n;              /* values */
    long long stride;         /* system s has this axis's value number (s / stride) % n */
} OdeAxisInfo;

/* `attractor`'s table (runner_attractors.c), complete when the output
 * closes: one row per attractor (and escaped, failed) per slice. */
typedef struct OdeAttractorRows {
    int nrow, nq;
    const char *const *quantities;   /* the compared quantities' names [nq] */
    const char *slice_axis;          /* the scanned parameter whose values are the slices, or NULL */
    double dist, match;              /* the statement's tolerances */
    const long long *slice;          /* [nrow] each */
    const double *slice_value;       /* the sliced parameter's value (NaN without slices) */
    const int *label, *period;
    const char *const *kind;         /* "fixed", "periodic", "aperiodic", "unstable", "escaped", "failed" */
    const double *lambda1;
    const long long *systems;
    const double *fraction, *fraction_err;
    const double *point, *lo, *hi;   /* [row * nq + k] */
    /* --basin-entropy and --uncertainty (basins.c), per slice (nslice 0: neither asked for) */
    long long nslice;
    int box, nk;                     /* the box's side (0: no entropy); distances (0: no exponent) */
    const int *ks;
    const double *slice_values;      /* [nslice]: the sliced parameter's value (NaN without slices) */
    const double *entropy, *boundary_entropy;
    const long long *boxes, *boundary_boxes;
    const double *exponent, *exponent_err;
    const double *uncertain;         /* [slice * nk + j]: the fraction of uncertain points at ks[j] */
} OdeAttractorRows;

/* The run, for a header or for attributes. */
typedef struct OdeRunInfo {
    const char *model;            /* the model's name */
    const char *source;           /* the .ode file's text */
    const char *source_path;      /* its name when it was translated */
    const char *options;          /* the options in force: "meth=rk4, dt=0.01, …" */
    const char *command_line;
    const char *version;          /* odegen's */
    const char *device;           /* "GPU 0: NVIDIA H200", "CPU, 16 threads" */
    const char *precision;        /* "double" or "float" */
    long long seed;               /* the random numbers' seed (a model with noise), or -1 */
    long long systems;
    int transient, record;
    int nfield;
    const char *const *fields;    /* their names */
    /* What each field is (model_field_about, api.h): "state", "lyapunov", …;
     * a phrase; more ("" when nothing); units ("" where not known). */
    const char *const *field_kinds;
    const char *const *field_meanings;
    const char *const *field_comments;
    const char *const *field_units;
    int real_size;                /* bytes of a recorded value: 8 (double) or 4 (float) */
    int nstatus;
    const char *const *status_names;
    int naxis;
    const OdeAxisInfo *axes;      /* first = slowest */
    /* Values first … first+count-1 of axis `axis` into out. */
    void (*axis_values)(const void *context, int axis, long long first, long long count, double *out);
    const void *context;
    int has_attractors;                   /* the run makes an attractor table: the HDF5 groups
                                             /attractors and /basins are the file's own names */
    const OdeAttractorRows *attractors;   /* set before the output closes (NULL: none) */
} OdeRunInfo;

/* A chunk's recorded values, as the solver left them on the host. */
typedef struct OdeChunkView {
    long long first;              /* its first system */
    int count;                    /* systems */
    int stride;                   /* n of the arrays below (>= count) */
    int record, nfield;
    const void *values;           /* [(rep * nfield + f) * stride + i], real_size bytes each */
    const int *status;            /* [rep * stride + i] */
} OdeChunkView;

/* Rows ready to write: systems [first, first + nsys) × reps [rep0, rep0 + nrep)
 * (nsys == 1, or all reps).  data holds `bytes` bytes in the format's own
 * layout; cap is its allocated size. */
typedef struct OdeBlock {
    long long first;
    int nsys, rep0, nrep;
    char *data;
    size_t bytes, cap;
} OdeBlock;

/* An output format.  open, header, close and discard run on the runner's
 * main thread; prepare on several threads at once (one block each); write on
 * the writer thread, one block at a time, in order.  Functions that can fail
 * return 0 or an errno value, and put what failed into `error`. */
typedef struct OdeFormat {
    const char *name;             /* "CSV", "HDF5" */
    int needs_file;               /* a regular file only (not a pipe or standard output) */
    /* Opens the output: fd is open for writing (CSV), or path names the file
     * to create (HDF5, whose library opens it itself).  With path NULL and fd
     * -1, a state that only prepares blocks (bound, prepare, discard): a rank
     * of an MPI run that sends its blocks to the rank that writes. */
    int (*open)(void **state, const OdeRunInfo *info, const char *path, int fd, char *error, size_t size);
    /* The most bytes a block of nsys × nrep rows can take (for its buffer). */
    size_t (*bound)(void *state, int nsys, int nrep);
    /* The header, as a block written first (bytes 0: none). */
    void (*header)(void *state, OdeBlock *block);
    /* Turns rows of a chunk into a block (block->first … set by the caller). */
    void (*prepare)(void *state, const OdeChunkView *chunk, OdeBlock *block);
    int (*write)(void *state, const OdeBlock *block, char *error, size_t size);
    /* Makes what was written so far durable (a full disk shows up here at
     * the latest). */
    int (*flush)(void *state, char *error, size_t size);
    /* Completes the output (the trailer, the file's own structures) and
     * closes it; discard frees the state in every case. */
    int (*close)(void *state, char *error, size_t size);
    void (*discard)(void *state);
    /* The size of the output, before it is opened: bytes per row (for CSV
     * the mean over the rows of `sample`, or the most a row can take when
     * sample is NULL), and in *fixed the bytes that do not grow with rows. */
    double (*estimate)(const OdeRunInfo *info, const OdeChunkView *sample, double *fixed);
} OdeFormat;

/* The HDF5 format, when the runner was linked with it (NAME_main.c). */
const OdeFormat *model_hdf5_format(void)
#if defined(__GNUC__)
    __attribute__((weak))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* ODE_OUTPUT_H */
