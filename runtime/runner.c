/* runner.c — the generated command-line program (SPEC §4), over the library
 * (library.c) of the same translation unit.
 *
 *   ./NAME [--backend auto|gpu|cpu] [--set NAME=VALUE]… [--scan NAME=lin(a,b,n)]…
 *          [--transient N] [--recorded M] [--fields a,b,…] [-o FILE] [--devices 0,1]
 *          [--block N] [--balance off|warp|thread] [--chunk N] [--estimate] [--quiet]
 *          [--progress-every S] [--help]
 *
 * The systems of the scan (the Cartesian product of the scan lines, the last
 * varying fastest) are integrated a chunk at a time.  Before the first, the
 * scan is estimated (rows, the output's size against the free space where it
 * goes, and when that matters a time from a short calibration run) and
 * refused when its output cannot fit.  Then, chunk by chunk, the seam that a
 * distributed run reuses: "compute chunk k" (its systems made on the device
 * from the scan's definition, scan_fill.c; one launch of all its transient
 * and recorded integrations) and "write chunk k's rows" (output.c: prepared
 * into memory blocks in parallel, written in order by a writer thread).  On a
 * GPU two solvers alternate, so that the device integrates chunk k+1 while
 * the host prepares chunk k's rows and the writer writes chunk k-1's.  The
 * chunk size comes from the memory the run may use (free device memory,
 * available host memory) and is capped so that the chunks overlap.
 *
 * Exit status: 0 when the run completed and the output was written, whatever
 * the systems' statuses (systems that end in maxsteps, bound, nan, singular,
 * zeno, empty, unstable, history or dae_failed are reported in the `status` column and counted in
 * the summary: a failing system is a result of the scan, not a failure of the
 * run); 1 runtime error
 * (no GPU, CUDA failure, out of memory, output not writable or too large for
 * its disk); 2 usage error; 130 interrupted by SIGINT, 143 by SIGTERM, 129 by
 * SIGHUP (the unfinished output is removed; written to a pipe, it ends with a
 * whole row).
 */
#ifndef ODEGEN_GENERATED
#include "library.c"
#include "output.c"
#include "checkpoint.c"
#endif

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#if !defined(__cplusplus) && !defined(_POSIX_C_SOURCE)
#error "the runner needs POSIX: define _POSIX_C_SOURCE to 200809L before the first #include"
#endif

#define ODE_EXIT_RUNTIME 1
#define ODE_EXIT_USAGE 2
#define ODE_MAX_DEVICES 64
#define ODE_CPU_CHUNK 1000000L        /* most systems per chunk on the CPU */
#define ODE_GPU_CHUNK 4000000L        /* most systems per chunk and device on the GPU */

/* More threads than the processors this process may run on (OMP_NUM_THREADS,
 * or OpenMP's default) gain nothing for integrations that never wait, and
 * far more (100000) crash libgomp when it starts them: the runner asks for
 * at most that many (its summary says how many it used). */
static void ode_threads_clamp(void)
{
#ifdef _OPENMP
    const int procs = omp_get_num_procs();
    if (procs >= 1 && omp_get_max_threads() > procs) omp_set_num_threads(procs);
#endif
}

static int omp_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* ------------------------------------------------------------------ messages */

/* In an MPI run every rank parses the same command line and would print the
 * same error: only rank 0 prints (mpi_runner.c sets ode_silent on the
 * others), and a rank's own last error is kept to be sent to rank 0. */
static int ode_silent;
static char ode_last_error[600];

static void ode_say(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    vsnprintf(ode_last_error, sizeof ode_last_error, fmt, ap);
    if (!ode_silent) {
        fprintf(stderr, "%s: error: ", ODE_MODEL_NAME);
        vfprintf(stderr, fmt, again);
        fputc('\n', stderr);
    }
    va_end(again);
}

/* Prints "NAME: error: …" and returns 2 (usage) or 1 (runtime). */
static int ode_usage(const char *fmt, ...) ODE_PRINTF(1, 2);
static int ode_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ode_say(fmt, ap);
    va_end(ap);
    return ODE_EXIT_USAGE;
}

static int ode_runtime(const char *fmt, ...) ODE_PRINTF(1, 2);
static int ode_runtime(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ode_say(fmt, ap);
    va_end(ap);
    return ODE_EXIT_RUNTIME;
}

/* Edit distance (optimal string alignment, case-insensitive); names longer
 * than 63 characters are never close. */
static int ode_distance(const char *a, const char *b)
{
    const size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 1000;
    int d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            const int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            int best = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) == cb &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

/* Length of the common beginning of a and b, case-insensitive. */
static size_t ode_prefix(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && tolower((unsigned char)a[i]) == tolower((unsigned char)b[i])) i++;
    return i;
}

/* Whether candidate c is closer to name than *best (at distance *best_d),
 * and close enough to be a likely typo: then it becomes *best. */
static void ode_consider(const char *name, const char *c, const char **best, int *best_d)
{
    const int d = ode_distance(name, c);
    int limit = (int)strlen(c) / 3;
    if (limit < 1) limit = 1;
    if (d <= limit && (d < *best_d || (d == *best_d && ode_prefix(name, c) > ode_prefix(name, *best)))) {
        *best = c;
        *best_d = d;
    }
}

/* With the kinds of ode_suggest: the run-time options' names too. */
#define ODE_SUGGEST_OPTIONS (1u << 16)

/* The closest of the names of the given kinds (a bit mask of MODEL_KIND_*,
 * and ODE_SUGGEST_OPTIONS), if close enough to be a likely typo; NULL
 * otherwise. */
static const char *ode_suggest(const char *name, unsigned kinds)
{
    const char *best = NULL;
    int best_d = 1000;
    for (int k = MODEL_KIND_STATE; k <= MODEL_KIND_FIELD; k++) {
        if (!(kinds & (1u << k))) continue;
        for (int i = 0; i < model_count(k); i++) ode_consider(name, model_name(k, i), &best, &best_d);
    }
    if (kinds & ODE_SUGGEST_OPTIONS)
        for (int k = 0; k < ODE_NOPTION; k++) ode_consider(name, ode_option_words[k], &best, &best_d);
    return best;
}

/* "; did you mean 'x'?" or "". */
static const char *ode_did_you_mean(char *buf, size_t size, const char *name, unsigned kinds)
{
    const char *s = ode_suggest(name, kinds);
    if (!s) return "";
    snprintf(buf, size, "; did you mean '%s'?", s);
    return buf;
}

#define ODE_TARGETS ((1u << MODEL_KIND_STATE) | (1u << MODEL_KIND_PARAM))

static const char *const ode_kind_nouns[] = {"a state", "a parameter", "an accessory", "an aux quantity",
                                             "a derived parameter", "an event"};

/* ------------------------------------------------------------------ numbers */

static void ode_trim(char *s)
{
    size_t n = strlen(s), i = 0;
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    while (isspace((unsigned char)s[i])) i++;
    if (i) memmove(s, s + i, n - i + 1);
}

/* A floating-point number, the whole text: 0; not a number: 1; NaN or infinite: 2. */
static int ode_parse_real(const char *text, double *out)
{
    char *end;
    errno = 0;
    while (isspace((unsigned char)*text)) text++;
    if (!*text) return 1;
    double v = strtod(text, &end);
    while (isspace((unsigned char)*end)) end++;
    if (end == text || *end) return 1;
    if (v != v || v - v != 0.0) return 2;
    *out = v;
    return 0;
}

/* A whole number in [lo, hi], the whole text: 0, else 1. */
static int ode_parse_long(const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    while (isspace((unsigned char)*text)) text++;
    if (!*text || *text == '+') return 1;
    long v = strtol(text, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (end == text || *end || errno == ERANGE || v < lo || v > hi) return 1;
    *out = v;
    return 0;
}

/* ------------------------------------------------------------------ scans */

typedef struct OdeScan {
    int kind;               /* MODEL_KIND_STATE or MODEL_KIND_PARAM */
    int target;             /* its index */
    int type;               /* ODE_SCAN_LIN, _LOG or _LIST */
    double a, b;
    long n;
    const double *values;   /* ODE_SCAN_LIST */
    double *owned;          /* values allocated here */
} OdeScan;

/* Value i of a scan (library.c's ode_scan_point). */
static double ode_scan_value(const OdeScan *sc, long i)
{
    return ode_scan_point(sc->type, sc->a, sc->b, sc->n, sc->values, i);
}

/* Finds a parameter or state by name for --set and --scan ("what": the option). */
static int ode_target(const char *name, const char *what, int *kind, int *index)
{
    char hint[128];
    if ((*index = model_index(MODEL_KIND_PARAM, name)) >= 0) {
        *kind = MODEL_KIND_PARAM;
        return 0;
    }
    if ((*index = model_index(MODEL_KIND_STATE, name)) >= 0) {
        *kind = MODEL_KIND_STATE;
        return 0;
    }
    int k, i;
    if (model_lookup(name, &k, &i) == MODEL_OK && k <= MODEL_KIND_EVENT)
        return ode_usage("cannot %s '%s': it is %s; only parameters and initial values of states can be %s",
                         strcmp(what, "--set") == 0 ? "set" : "scan", name, ode_kind_nouns[k],
                         strcmp(what, "--set") == 0 ? "set" : "scanned");
    if (!*name) return ode_usage("empty name in %s", what);
    const int set = strcmp(what, "--set") == 0;
    if (!set && ode_option_index(name) >= 0)
        return ode_usage("cannot scan '%s': it is a run-time option, the same for every system (--set %s=VALUE)",
                         name, ode_option_words[ode_option_index(name)]);
    return ode_usage("unknown name '%s' in %s%s", name, what,
                     ode_did_you_mean(hint, sizeof hint, name, ODE_TARGETS | (set ? ODE_SUGGEST_OPTIONS : 0u)));
}

#define ODE_SCAN_MOST 9007199254740992.0   /* 2^53 */

/* Parses `NAME=lin(a,b,n)`, `NAME=log(a,b,n)` or `NAME=list(v,…)`. */
static int ode_parse_scan(const char *text, OdeScan *sc)
{
    static const char syntax[] = "expected NAME=lin(a,b,n), NAME=log(a,b,n) or NAME=list(v,...)";
    memset(sc, 0, sizeof *sc);
    const size_t len = strlen(text);
    char *buf = (char *)malloc(len + 1);
    if (!buf) return ode_runtime("out of memory");
    memcpy(buf, text, len + 1);
    int rc = 0;
    char *eq = strchr(buf, '=');
    char *open = eq ? strchr(eq, '(') : NULL;
    char *close = open ? strrchr(open, ')') : NULL;
    if (!eq || !open || !close) {
        rc = ode_usage("bad scan '%s': %s", text, syntax);
    } else {
        *eq = 0;
        ode_trim(buf);
        rc = ode_target(buf, "--scan", &sc->kind, &sc->target);
    }
    if (rc == 0) {
        char *rest = close + 1;
        ode_trim(rest);
        *open = 0;
        *close = 0;
        char *word = eq + 1;
        ode_trim(word);
        for (char *c = word; *c; c++) *c = (char)tolower((unsigned char)*c);
        if (*rest) rc = ode_usage("bad scan '%s': %s", text, syntax);
        else if (strcmp(word, "lin") == 0) sc->type = ODE_SCAN_LIN;
        else if (strcmp(word, "log") == 0) sc->type = ODE_SCAN_LOG;
        else if (strcmp(word, "list") == 0) sc->type = ODE_SCAN_LIST;
        else rc = ode_usage("bad scan '%s': %s", text, syntax);
    }
    if (rc == 0) {
        /* The arguments between the parentheses. */
        char *args = open + 1;
        long count = 1;
        for (char *c = args; *c; c++) count += *c == ',';
        if (sc->type != ODE_SCAN_LIST && count != 3) {
            rc = ode_usage("bad scan '%s': %s", text, syntax);
        } else {
            double *v = (double *)malloc((size_t)count * sizeof(double));
            if (!v) rc = ode_runtime("out of memory");
            char *item = args;
            for (long i = 0; rc == 0 && i < count; i++) {
                char *comma = strchr(item, ',');
                if (comma) *comma = 0;
                ode_trim(item);
                if (sc->type != ODE_SCAN_LIST && i == 2) {
                    /* A whole number, also as 1e6; at most 2^53, beyond which the
                     * values' indices are not exact in double. */
                    double n;
                    if (ode_parse_real(item, &n) || n != floor(n))
                        rc = ode_usage("bad scan '%s': the number of values '%s' is not a whole number", text, item);
                    else if (n < 1)
                        rc = ode_usage("bad scan '%s': the number of values must be at least 1", text);
                    else if (n > ODE_SCAN_MOST)
                        rc = ode_usage("bad scan '%s': the number of values '%s' is more than the %.0f (2^53) a scan "
                                       "line can have", text, item, ODE_SCAN_MOST);
                    else
                        sc->n = (long)n;
                } else {
                    const int bad = ode_parse_real(item, &v[i]);
                    if (bad == 1 && !*item) rc = ode_usage("bad scan '%s': %s", text, syntax);
                    else if (bad == 1) rc = ode_usage("bad value '%s' in scan '%s': not a number", item, text);
                    else if (bad == 2) rc = ode_usage("bad value '%s' in scan '%s': not a finite number", item, text);
                }
                item = comma ? comma + 1 : item;
            }
            if (rc == 0 && sc->type == ODE_SCAN_LIST) {
                sc->values = sc->owned = v;
                sc->n = count;
                v = NULL;
            } else if (rc == 0) {
                sc->a = v[0];
                sc->b = v[1];
                if (sc->type == ODE_SCAN_LOG && !(sc->a > 0 && sc->b > 0))
                    rc = ode_usage("bad scan '%s': a log scan needs both ends positive", text);
            }
            free(v);
        }
    }
    free(buf);
    return rc;
}

/* ------------------------------------------------------------------ options */

typedef struct OdeRunner {
    int backend;                          /* MODEL_BACKEND_* */
    int devices[ODE_MAX_DEVICES];
    int ndevices;                         /* 0: every device */
    int block;                            /* 0: the default */
    int balance;
    int quiet;
    long transient, record;
    long chunk;                           /* 0: from memory */
    int fields[ODE_ALLOC(ODE_NFIELD)];
    int nfield;
    const char *output;                   /* NULL or "-": standard output */
    double opt[ODE_NOPTION];              /* the run-time options (options.c) */
    unsigned char opt_set[ODE_NOPTION];   /* given with --set */
    double param[ODE_ALLOC(ODE_NPARAM)];  /* for every system, before the scans */
    double state[ODE_ALLOC(ODE_NSTATE)];
    unsigned char param_set[ODE_ALLOC(ODE_NPARAM)];   /* given with --set */
    unsigned char state_set[ODE_ALLOC(ODE_NSTATE)];
    OdeScan *scans;
    int nscan;
    int scans_given;                      /* --scan replaces the model's scan lines */
    int estimate_only;                    /* --estimate: say what the run would take, and stop */
    const char *checkpoint;               /* --checkpoint FILE, or NULL */
    double checkpoint_every;              /* --checkpoint-every S (seconds) */
    int resume;                           /* --resume */
    double progress_every;                /* --progress-every S: between progress lines when standard
                                             error is not a terminal, and between reports of an MPI
                                             rank that does not answer (default 60; 0: none) */
    double mpi_timeout;                   /* --mpi-timeout S: an MPI job whose rank does not answer
                                             for S seconds ends (0: never) */
    int basin_box;                        /* --basin-entropy B: boxes of B points a side (0: none) */
    int last_only;                        /* --last: only each system's last recorded row is written */
    int uncertainty;                      /* --uncertainty: the boundary's uncertainty exponent */
    char *command_line;                   /* for the output's description */
} OdeRunner;

/* The shortest %g form of v that reads back as v (for messages and --help). */
static const char *ode_short(char *buf, size_t size, double v)
{
    for (int digits = 6; digits < 17; digits++) {
        snprintf(buf, size, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) return buf;
    }
    snprintf(buf, size, "%.17g", v);
    return buf;
}

static void ode_help(FILE *f)
{
    char x[40], y[40];
    int codes[ODE_ALLOC(ODE_NFIELD)];
    const int nf = model_default_fields(codes);
    fprintf(f, "Usage: %s [OPTIONS]\n", ODE_MODEL_NAME);
    fprintf(f, "Integrates the model '%s' over a scan of systems and writes one row per system\n"
               "per recorded integration (CSV, or HDF5 for -o FILE.h5).\n\n", ODE_MODEL_NAME);
    fprintf(f, "Options:\n"
               "  --backend auto|gpu|cpu  where to run (default auto: the GPU when one is present)\n"
               "  --set NAME=VALUE        a parameter or a state's initial value, for every system\n"
               "                          (of a name the model scans: its scan line is dropped), or a\n"
               "                          run-time option (below; @NAME where the model has a NAME)\n"
               "  --set-name SET          the values of the model's `set SET {...}`, as --set gives\n"
               "                          them (with --set, the later one wins)\n"
               "  --scan NAME=lin(a,b,n)  n values from a to b (also log(a,b,n), a,b > 0, and\n"
               "                          list(v1,v2,...)) of a parameter or initial value; several\n"
               "                          --scan form a Cartesian product, the last varying fastest;\n"
               "                          they replace the model's scan lines and win over --set\n"
               "  --transient N           integrations discarded before recording (default %d)\n"
               "  --recorded M            integrations recorded (default %d)\n"
               "  --fields a,b,...        what each row holds (default:",
            ODE_DEFAULT_TRANSIENT, ODE_DEFAULT_RECORD);
    for (int f2 = 0; f2 < nf; f2++) fprintf(f, "%s%s", f2 ? "," : " ", model_name(MODEL_KIND_FIELD, codes[f2]));
    fprintf(f, ")\n"
               "  -o FILE                 write to FILE (default: standard output, CSV): HDF5 when\n"
               "                          it ends in .h5 or .hdf5, else CSV; it is written under a\n"
               "                          temporary name and renamed when complete\n"
               "  --devices 0,1           the CUDA devices to use (default: all)\n"
               "  --block N               threads per block, a multiple of 32 up to %d (default %d)\n"
               "  --balance MODE          load balancing on the GPU: off (default), warp (warps take\n"
               "                          the next 32 systems when done), thread or on (each thread\n"
               "                          takes the next system when done)\n"
               "  --chunk N               systems per launch (default: as many as memory allows, at\n"
               "                          most %ld on the CPU and %ld per GPU)\n"
               "  --estimate              print what the run would take (rows, output size, free\n"
               "                          space, time from a short calibration) and stop\n"
               "  --checkpoint FILE       keep the finished part of the scan in FILE (and FILE.rows)\n"
               "                          so that --resume can continue after a crash or a kill\n"
               "  --checkpoint-every S    seconds between checkpoints (default 60; also on SIGTERM)\n"
               "  --resume                continue from --checkpoint FILE (from the start if there is\n"
               "                          none yet); the output is that of an uninterrupted run\n"
               "  --seed N                the random numbers' seed, a whole number below 2^53, for a\n"
               "                          model with noise (wiener, markov, ran, normal): the same as\n"
               "                          --set seed=N (default: the file's @ seed, else 12345678)\n"
               "  --quiet                 no progress line and no summary on standard error\n"
               "  --progress-every S      where standard error is not a terminal (a batch job's log),\n"
               "                          a progress line every S seconds (default 60; 0: none)\n"
               "  --last                  write only each system's last recorded row (rep 0 in the\n"
               "                          output): its final lyap, period, attractor, ...\n"
               "  --basin-entropy B       with `attractor`: the basin entropy of each basin map (boxes\n"
               "                          of B grid points a side), in the summary and FILE.basins.csv\n"
               "  --uncertainty           with `attractor`: the uncertainty exponent of each basin\n"
               "                          map's boundary (neighbours 1, 2, 3, 4, 6, 8 grid steps away)\n",
            ODE_BLOCK_SIZE, ODE_BLOCK_SIZE, ODE_CPU_CHUNK, ODE_GPU_CHUNK);
#ifdef ODE_MPI
    fprintf(f, "  --mpi-timeout S         under mpirun: end the job, naming the rank, when a rank has\n"
               "                          not answered for S seconds (default: wait for ever, saying\n"
               "                          so every --progress-every seconds); a checkpoint is kept\n");
#endif
    fprintf(f, "  --help                  this text\n\n");
    fprintf(f, "Model %s:\n  states (initial value):", ODE_MODEL_NAME);
    for (int i = 0; i < ODE_NSTATE; i++) fprintf(f, " %s=%s", model_name(MODEL_KIND_STATE, i), ode_short(x, sizeof x, ode_state_default[i]));
    fprintf(f, "\n  parameters (default):  ");
    for (int i = 0; i < ODE_NPARAM; i++) fprintf(f, " %s=%s", model_name(MODEL_KIND_PARAM, i), ode_short(x, sizeof x, ode_param_default[i]));
    fprintf(f, "\n  fields:                ");
    for (int i = 0; i < ODE_NFIELD; i++) fprintf(f, " %s", model_name(MODEL_KIND_FIELD, i));
    fprintf(f, "\n  scan:                  ");
    for (int i = 0; i < ODE_NSCAN; i++) {
        const OdeScanSpec *sp = &ode_default_scans[i];
        fprintf(f, " %s=", model_name(sp->target_kind == ODE_TARGET_STATE ? MODEL_KIND_STATE : MODEL_KIND_PARAM, sp->target));
        if (sp->kind == ODE_SCAN_LIST) {
            fprintf(f, "list(");
            for (long j = 0; j < sp->n; j++) fprintf(f, "%s%s", j ? "," : "", ode_short(x, sizeof x, sp->values[j]));
            fprintf(f, ")");
        } else {
            fprintf(f, "%s(%s,%s,%ld)", sp->kind == ODE_SCAN_LOG ? "log" : "lin", ode_short(x, sizeof x, sp->a),
                    ode_short(y, sizeof y, sp->b), sp->n);
        }
    }
    if (ODE_NSCAN == 0) fprintf(f, " none (one system)");
    if (ODE_NSET > 0) fprintf(f, "\n  sets (--set-name):     ");
    for (int i = 0; i < ODE_NSET; i++) fprintf(f, " %s", model_set_name(i));
    fprintf(f, "\n  run-time options (--set, no rebuild; method %s):\n   ", ODE_METHOD_NAME);
    double opt[ODE_NOPTION];
    ode_options_default(opt);
    for (int k = 0; k < ODE_NOPTION; k++)
        if (ode_option_used(k))
            fprintf(f, " %s=%s", ode_option_words[k],
                    k == ODE_OPTION_MAXSTEPS ? (snprintf(x, sizeof x, "%.0f", opt[k]), x) : ode_short(x, sizeof x, opt[k]));
    fprintf(f, "\n    (each system's window is [t0, t0+total]; toler, atoler, dtmin, dtmax: adaptive methods)\n\n");
    fprintf(f, "Output: a header row system,rep,<fields>,status, then one row per system per recorded\n"
               "integration, ordered by system then rep; numbers as the shortest text that reads back\n"
               "to the same double; status is one of ready, finished, event, equilibrium, maxsteps,\n"
               "bound, nan, singular, zeno, empty, unstable, history, dae_failed.  HDF5: one dataset per field\n"
               "and `status` on the scan's own dimensions (one per --scan, then rep), each scanned name a\n"
               "coordinate variable, and the model's source, options and command line as attributes.\n\n"
               "Exit status: 0 when the run completed, whatever the systems' statuses (see the status\n"
               "column and the summary); 1 runtime error (no GPU, CUDA failure, out of memory, output\n"
               "not writable or larger than the free space); 2 usage error; 130 interrupted by SIGINT,\n"
               "143 by SIGTERM, 129 by SIGHUP (the unfinished output is removed).\n");
}

/* The value of option argv[*i] (after '=' in --opt=value, or the next word). */
static const char *ode_value_of(int argc, char **argv, int *i, const char *inline_value, const char *opt)
{
    if (inline_value) return inline_value;
    if (*i + 1 >= argc) {
        ode_usage("option '%s' needs a value", opt);
        return NULL;
    }
    return argv[++*i];
}

/* Calls item(r, piece, text) for each comma-separated piece of text
 * (trimmed, in a writable copy); stops at the first non-zero result. */
static int ode_each_item(OdeRunner *r, const char *text, int (*item)(OdeRunner *, char *, const char *))
{
    const size_t len = strlen(text);
    char *buf = (char *)malloc(len + 1);
    if (!buf) return ode_runtime("out of memory");
    memcpy(buf, text, len + 1);
    int rc = 0;
    for (char *piece = buf; rc == 0 && piece;) {
        char *comma = strchr(piece, ',');
        if (comma) *comma = 0;
        ode_trim(piece);
        rc = item(r, piece, text);
        piece = comma ? comma + 1 : NULL;
    }
    free(buf);
    return rc;
}

static int ode_field_item(OdeRunner *r, char *name, const char *text)
{
    char hint[128];
    const int code = model_index(MODEL_KIND_FIELD, name);
    if (!*name) return ode_usage("empty field name in --fields '%s'", text);
    if (code < 0)
        return ode_usage("unknown field '%s' in --fields%s", name,
                         ode_did_you_mean(hint, sizeof hint, name, 1u << MODEL_KIND_FIELD));
    for (int f = 0; f < r->nfield; f++)
        if (r->fields[f] == code)
            return ode_usage("field '%s' is listed twice in --fields", model_name(MODEL_KIND_FIELD, code));
    r->fields[r->nfield++] = code;   /* no duplicates: at most ODE_NFIELD */
    return 0;
}

static int ode_device_item(OdeRunner *r, char *number, const char *text)
{
    long d;
    if (ode_parse_long(number, 0, INT_MAX, &d)) return ode_usage("--devices expects device numbers like 0,1, got '%s'", text);
    if (r->ndevices == ODE_MAX_DEVICES) return ode_usage("--devices: at most %d devices", ODE_MAX_DEVICES);
    for (int k = 0; k < r->ndevices; k++)
        if (r->devices[k] == (int)d) return ode_usage("device %ld is listed twice in --devices", d);
    r->devices[r->ndevices++] = (int)d;
    return 0;
}

/* The summary's end: the run-time options given with --set ("; options
 * dt=0.005, total=3"), which the CSV output does not record. */
static void ode_print_set_options(const OdeRunner *r)
{
    int n = 0;
    for (int k = 0; k < ODE_NOPTION; k++) {
        if (!r->opt_set[k]) continue;
        char v[40];
        fprintf(stderr, "%s %s=%s", n++ ? "," : "; options", ode_option_words[k], ode_short(v, sizeof v, r->opt[k]));
    }
}

/* --set NAME=VALUE: a parameter, an initial value, or a run-time option
 * (SPEC §4; the model's own names first: --set @NAME is always the option). */
static int ode_parse_set(OdeRunner *r, const char *text)
{
    const char *eq = strchr(text, '=');
    if (!eq) return ode_usage("--set expects NAME=VALUE, got '%s'", text);
    char name[256];
    const size_t len = (size_t)(eq - text);
    if (len >= sizeof name) return ode_usage("unknown name '%.40s...' in --set", text);
    memcpy(name, text, len);
    name[len] = 0;
    ode_trim(name);
    const int is_model_name = model_index(MODEL_KIND_PARAM, name) >= 0 || model_index(MODEL_KIND_STATE, name) >= 0;
    const int option = name[0] == '@' || !is_model_name ? ode_option_index(name) : -1;
    char list[160];
    if (option < 0 && name[0] == '@')
        return ode_usage("unknown option '%s' in --set; the run-time options are %s", name + 1,
                         ode_option_list(list, sizeof list));
    if (option < 0 && !is_model_name && ode_same_name(name, "t1")) {
        char a[40], b[40];
        const double t0 = r->opt[ODE_OPTION_T0], t1 = strtod(eq + 1, NULL);
        if (t1 > t0)
            return ode_usage("cannot set 't1': the window's end is t0 + total; --set total=%s makes it %s (t0=%s)",
                             ode_short(a, sizeof a, t1 - t0), eq + 1, ode_short(b, sizeof b, t0));
        return ode_usage("cannot set 't1': the window's end is t0 + total, set with --set t0=… and --set total=…");
    }
    int kind = 0, index = 0;
    int rc = option >= 0 ? 0 : ode_target(name, "--set", &kind, &index);
    if (rc) return rc;
    double v;
    const int bad = ode_parse_real(eq + 1, &v);
    if (bad == 1) return ode_usage("bad value '%s' in --set %s: not a number", eq + 1, text);
    if (bad == 2) return ode_usage("bad value '%s' in --set %s: not a finite number", eq + 1, text);
    if (option >= 0) {
        char why[256];
        if (ode_option_check(option, v, why, sizeof why) || ode_option_fixed(option, v, why, sizeof why))
            return ode_usage("bad value in --set %s: %s", text, why);
        r->opt[option] = v;
        r->opt_set[option] = 1;
    } else if (kind == MODEL_KIND_PARAM) {
        r->param[index] = v;
        r->param_set[index] = 1;
    } else {
        r->state[index] = v;
        r->state_set[index] = 1;
    }
    return 0;
}

/* A --set of a name the model's own scan lines scan drops that line (SPEC
 * §4), and says so; scans given with --scan replace the model's lines and
 * win over --set. */
static void ode_drop_set_scans(OdeRunner *r)
{
    if (r->scans_given) return;
    int kept = 0;
    for (int l = 0; l < r->nscan; l++) {
        const OdeScan *sc = &r->scans[l];
        const int set = sc->kind == MODEL_KIND_PARAM ? r->param_set[sc->target] : r->state_set[sc->target];
        if (!set) {
            r->scans[kept++] = *sc;
            continue;
        }
        char v[40];
        const double value = sc->kind == MODEL_KIND_PARAM ? r->param[sc->target] : r->state[sc->target];
        if (!ode_silent)
            fprintf(stderr, "%s: note: %s=%s (--set or --set-name) replaces the model's scan of '%s' (%ld values)\n",
                    ODE_MODEL_NAME, model_name(sc->kind, sc->target), ode_short(v, sizeof v, value),
                    model_name(sc->kind, sc->target), sc->n);
        free(sc->owned);
    }
    r->nscan = kept;
}

/* --set-name SET: the values of the model's `set SET {…}`, as --set would. */
static int ode_parse_set_name(OdeRunner *r, const char *name)
{
    const int k = model_set_index(name);
    if (k < 0) {
        char list[512] = "";
        size_t used = 0;
        for (int i = 0; i < model_set_count() && used + 1 < sizeof list; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", model_set_name(i));
        if (model_set_count() == 0) return ode_usage("unknown set '%s' in --set-name: the model has no set", name);
        return ode_usage("unknown set '%s' in --set-name; the model's sets are %s", name, list);
    }
    model_set_apply(k, r->param, r->state);
    for (int i = 0; i < ode_sets[k].n; i++) {
        const OdeSetItem *it = &ode_sets[k].items[i];
        if (it->target_kind == ODE_TARGET_OPTION) {     /* XPPAUT's `set S {total=100}`: as --set @total=100 */
            char text[64];
            snprintf(text, sizeof text, "@%s=%.17g", ode_option_words[it->target], it->value);
            const int rc = ode_parse_set(r, text);
            if (rc) return rc;
        } else if (it->target_kind == ODE_TARGET_STATE) {
            r->state_set[it->target] = 1;
        } else {
            r->param_set[it->target] = 1;
        }
    }
    return 0;
}

static const char *const ode_option_names[] = {"--backend", "--set", "--set-name", "--scan", "--transient", "--recorded",
                                               "--fields", "--output", "--devices", "--block", "--balance",
                                               "--chunk", "--estimate", "--quiet", "--help", "--checkpoint",
                                               "--checkpoint-every", "--resume", "--progress-every",
                                               "--mpi-timeout", "--basin-entropy", "--uncertainty", "--last",
                                               "--seed"};

/* Parses the command line into r: 0, or the exit status (-1: --help shown). */
static int ode_parse_args(OdeRunner *r, int argc, char **argv)
{
    int devices_given = 0, every_given = 0;
    r->checkpoint_every = 60;
    r->progress_every = 60;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        char opt[64];
        const char *inline_value = NULL;
        if (strncmp(arg, "--", 2) == 0 && strchr(arg, '=')) {
            const size_t len = (size_t)(strchr(arg, '=') - arg);
            if (len < sizeof opt) {
                memcpy(opt, arg, len);
                opt[len] = 0;
                inline_value = arg + len + 1;
                arg = opt;
            }
        }
        const char *v = NULL;
        int rc = 0;
        long n;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            if (!ode_silent) ode_help(stdout);
            return -1;
        } else if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
            if (inline_value) return ode_usage("option '%s' takes no value", arg);
            r->quiet = 1;
            continue;
        } else if (strcmp(arg, "--estimate") == 0) {
            if (inline_value) return ode_usage("option '%s' takes no value", arg);
            r->estimate_only = 1;
            continue;
        } else if (strcmp(arg, "--resume") == 0) {
            if (inline_value) return ode_usage("option '%s' takes no value", arg);
            r->resume = 1;
            continue;
        } else if (strcmp(arg, "--uncertainty") == 0) {
            if (inline_value) return ode_usage("option '%s' takes no value", arg);
            r->uncertainty = 1;
            continue;
        } else if (strcmp(arg, "--last") == 0) {
            if (inline_value) return ode_usage("option '%s' takes no value", arg);
            r->last_only = 1;
            continue;
        } else if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            return ode_usage("unexpected argument '%s' (see --help)", argv[i]);
        }
        const int known = strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0 || strcmp(arg, "--backend") == 0 ||
                          strcmp(arg, "--set") == 0 || strcmp(arg, "--set-name") == 0 || strcmp(arg, "--scan") == 0 ||
                          strcmp(arg, "--transient") == 0 || strcmp(arg, "--recorded") == 0 ||
                          strcmp(arg, "--fields") == 0 || strcmp(arg, "--devices") == 0 ||
                          strcmp(arg, "--block") == 0 || strcmp(arg, "--balance") == 0 || strcmp(arg, "--chunk") == 0 ||
                          strcmp(arg, "--checkpoint") == 0 || strcmp(arg, "--checkpoint-every") == 0 ||
                          strcmp(arg, "--progress-every") == 0 || strcmp(arg, "--mpi-timeout") == 0 ||
                          strcmp(arg, "--basin-entropy") == 0 ||
                          strcmp(arg, "--seed") == 0;
        if (!known) {
            const char *best = NULL;
            int best_d = 3;
            for (size_t k = 0; k < sizeof ode_option_names / sizeof *ode_option_names; k++) {
                const int d = ode_distance(arg, ode_option_names[k]);
                if (d < best_d) { best_d = d; best = ode_option_names[k]; }
            }
            if (best) return ode_usage("unknown option '%s'; did you mean '%s'?", arg, best);
            return ode_usage("unknown option '%s' (see --help)", arg);
        }
        if (!(v = ode_value_of(argc, argv, &i, inline_value, arg))) return ODE_EXIT_USAGE;
        if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            if (!*v) return ode_usage("option '%s' needs a file name", arg);
            r->output = v;
        } else if (strcmp(arg, "--backend") == 0) {
            if (strcmp(v, "auto") == 0) r->backend = MODEL_BACKEND_AUTO;
            else if (strcmp(v, "cpu") == 0) r->backend = MODEL_BACKEND_CPU;
            else if (strcmp(v, "gpu") == 0) r->backend = MODEL_BACKEND_GPU;
            else return ode_usage("--backend expects auto, gpu or cpu, got '%s'", v);
        } else if (strcmp(arg, "--set") == 0) {
            rc = ode_parse_set(r, v);
        } else if (strcmp(arg, "--seed") == 0) {
#if ODE_NOISE
            double seed;
            char why[256];
            if (ode_parse_real(v, &seed) || ode_option_check(ODE_OPTION_SEED, seed, why, sizeof why))
                return ode_usage("--seed expects a whole number from 0 to 2^53 - 1, got '%s'", v);
            r->opt[ODE_OPTION_SEED] = seed;   /* (as --set seed=N) */
            r->opt_set[ODE_OPTION_SEED] = 1;
#else
            return ode_usage("--seed: the model draws no random numbers (it has no wiener, markov, ran or normal)");
#endif
        } else if (strcmp(arg, "--set-name") == 0) {
            rc = ode_parse_set_name(r, v);
        } else if (strcmp(arg, "--scan") == 0) {
            OdeScan sc;
            rc = ode_parse_scan(v, &sc);
            if (rc) return rc;
            if (!r->scans_given) r->nscan = 0;   /* the first --scan replaces the model's lines */
            r->scans_given = 1;
            for (int k = 0; k < r->nscan; k++) {
                if (r->scans[k].kind == sc.kind && r->scans[k].target == sc.target) {
                    free(sc.owned);
                    return ode_usage("'%s' is scanned twice", model_name(sc.kind, sc.target));
                }
            }
            OdeScan *grown = (OdeScan *)realloc(r->scans, (size_t)(r->nscan + 1) * sizeof *grown);
            if (!grown) {
                free(sc.owned);
                return ode_runtime("out of memory");
            }
            r->scans = grown;
            r->scans[r->nscan++] = sc;
        } else if (strcmp(arg, "--transient") == 0 || strcmp(arg, "--recorded") == 0) {
            if (ode_parse_long(v, 0, INT_MAX, &n))
                return ode_usage("%s expects a whole number from 0 to %d, got '%s'", arg, INT_MAX, v);
            if (arg[2] == 't') r->transient = n;
            else r->record = n;
        } else if (strcmp(arg, "--fields") == 0) {
            r->nfield = 0;
            rc = ode_each_item(r, v, ode_field_item);
        } else if (strcmp(arg, "--devices") == 0) {
            r->ndevices = 0;
            rc = ode_each_item(r, v, ode_device_item);
            devices_given = 1;
        } else if (strcmp(arg, "--block") == 0) {
            if (ode_parse_long(v, 32, ODE_BLOCK_SIZE, &n) || n % 32 != 0)
                return ode_usage("--block expects a multiple of 32 from 32 to %d, got '%s'", ODE_BLOCK_SIZE, v);
            r->block = (int)n;
        } else if (strcmp(arg, "--balance") == 0) {
            if (strcmp(v, "on") == 0 || strcmp(v, "thread") == 0) r->balance = MODEL_BALANCE_THREAD;
            else if (strcmp(v, "warp") == 0) r->balance = MODEL_BALANCE_WARP;
            else if (strcmp(v, "off") == 0) r->balance = MODEL_BALANCE_OFF;
            else return ode_usage("--balance expects off, warp, thread or on, got '%s'", v);
        } else if (strcmp(arg, "--chunk") == 0) {
            if (ode_parse_long(v, 1, INT_MAX, &n))
                return ode_usage("--chunk expects a whole number from 1 to %d, got '%s'", INT_MAX, v);
            r->chunk = n;
        } else if (strcmp(arg, "--checkpoint") == 0) {
            if (!*v) return ode_usage("option '%s' needs a file name", arg);
            r->checkpoint = v;
        } else if (strcmp(arg, "--checkpoint-every") == 0) {
            if (ode_parse_real(v, &r->checkpoint_every) || r->checkpoint_every < 0)
                return ode_usage("--checkpoint-every expects seconds (a number, 0 or more), got '%s'", v);
            every_given = 1;
        } else if (strcmp(arg, "--progress-every") == 0) {
            if (ode_parse_real(v, &r->progress_every) || r->progress_every < 0)
                return ode_usage("--progress-every expects seconds (a number, 0 or more), got '%s'", v);
        } else if (strcmp(arg, "--basin-entropy") == 0) {
            if (ode_parse_long(v, 1, 1000, &n))
                return ode_usage("--basin-entropy expects the box's side in grid points, 1 to 1000, got '%s'", v);
            r->basin_box = (int)n;
        } else if (strcmp(arg, "--mpi-timeout") == 0) {
#ifndef ODE_MPI
            return ode_usage("--mpi-timeout: this runner was built without MPI (make MPI=1)");
#endif
            if (ode_parse_real(v, &r->mpi_timeout) || !(r->mpi_timeout > 0) || r->mpi_timeout > 1e9)
                return ode_usage("--mpi-timeout expects seconds (a number above 0), got '%s'", v);
        }
        if (rc) return rc;
    }
    if (r->transient + r->record > INT_MAX)
        return ode_usage("--transient plus --recorded must be at most %d", INT_MAX);
    if (devices_given && r->backend == MODEL_BACKEND_CPU) return ode_usage("--devices goes with the GPU backend, not --backend cpu");
    if (!devices_given) r->ndevices = 0;
    if (!r->checkpoint && (r->resume || every_given))
        return ode_usage("%s needs --checkpoint FILE", r->resume ? "--resume" : "--checkpoint-every");
    if ((r->basin_box || r->uncertainty) && model_attractor_quantities(NULL) == 0)
        return ode_usage("%s needs a model with an `attractor` line (its labels)",
                         r->basin_box ? "--basin-entropy" : "--uncertainty");
    if (r->checkpoint && r->output && strcmp(r->checkpoint, r->output) == 0)
        return ode_usage("--checkpoint and -o name the same file '%s'", r->output);
    char why[256];
    if (ode_options_check_pair(r->opt, why, sizeof why)) return ode_usage("bad --set: %s", why);
    if (ode_window_check(r->opt[ODE_OPTION_T0], r->opt[ODE_OPTION_T0] + r->opt[ODE_OPTION_TOTAL], r->opt[ODE_OPTION_TOTAL],
                         r->opt[ODE_OPTION_DT], why, sizeof why))
        return ode_usage("%s%s", r->opt_set[ODE_OPTION_T0] || r->opt_set[ODE_OPTION_TOTAL] || r->opt_set[ODE_OPTION_DT]
                                     ? "bad --set: " : "the file's options: ", why);
    for (int k = 0; k < ODE_NOPTION && !r->quiet; k++)
        if (r->opt_set[k] && !ode_option_used(k))
            fprintf(stderr, "%s: note: %s is not used by %s, a fixed-step method\n", ODE_MODEL_NAME, ode_option_words[k],
                    ODE_METHOD_NAME);
    ode_drop_set_scans(r);
    return 0;
}

/* Rows written per system: the recorded integrations, or with --last one. */
static int ode_rows_per_system(const OdeRunner *r) { return r->last_only && r->record > 0 ? 1 : (int)r->record; }

/* ------------------------------------------------------------------ progress */

/* Where standard error is a terminal, a line redrawn in place (at most ten
 * times a second); elsewhere (a batch job's log, which has no terminal) a
 * line of its own every --progress-every seconds. */
enum { ODE_PROGRESS_OFF, ODE_PROGRESS_TERMINAL, ODE_PROGRESS_LOG };

typedef struct OdeProgress {
    int on;               /* ODE_PROGRESS_* */
    double every;         /* LOG: seconds between lines */
    double last;          /* LOG: when the last line was written (or the run started) */
    double start;
    long long finished;   /* systems of the chunks already collected */
    long long total;
    int shown;            /* a progress line is on the terminal */
} OdeProgress;

static double ode_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The progress wanted: none with --quiet, else on a terminal or in a log. */
static void ode_progress_init(OdeProgress *p, const OdeRunner *r)
{
    p->on = r->quiet ? ODE_PROGRESS_OFF
            : isatty(STDERR_FILENO) ? ODE_PROGRESS_TERMINAL
            : r->progress_every > 0 ? ODE_PROGRESS_LOG
                                    : ODE_PROGRESS_OFF;
    p->every = r->progress_every;
}

/* The run starts now (the first line in a log comes `every` seconds later). */
static void ode_progress_start(OdeProgress *p)
{
    p->start = p->last = ode_clock();
}

static int ode_progress(void *user, long done, long total)
{
    OdeProgress *p = (OdeProgress *)user;
    (void)total;
    if (!p->on) return 0;
    const double now = ode_clock();
    if (p->on == ODE_PROGRESS_LOG) {
        if (now - p->last < p->every) return 0;
        p->last = now;
    }
    const long long all = p->finished + done;
    const double elapsed = now - p->start;
    const double rate = elapsed > 0 ? (double)all / elapsed : 0.0;
    char left[64] = "";
    if (rate > 0 && all > 0) {
        const long long s = (long long)((double)(p->total - all) / rate + 0.5);
        snprintf(left, sizeof left, ", %lld:%02lld:%02lld left", s / 3600, s / 60 % 60, s % 60);
    }
    const double percent = p->total > 0 ? 100.0 * (double)all / (double)p->total : 100.0;
    if (p->on == ODE_PROGRESS_LOG) {
        const long long e = (long long)(elapsed + 0.5);
        fprintf(stderr, "%s: progress: %lld / %lld systems (%.1f%%) after %lld:%02lld:%02lld, %.4g systems/s%s\n",
                ODE_MODEL_NAME, all, p->total, percent, e / 3600, e / 60 % 60, e % 60, rate, left);
    } else {
        fprintf(stderr, "\r%s: %lld / %lld systems (%.1f%%), %.4g systems/s%s\033[K", ODE_MODEL_NAME, all, p->total,
                percent, rate, left);
        p->shown = 1;
    }
    fflush(stderr);
    return 0;
}

/* ------------------------------------------------------------------ `save` samples (runner_save.c) */

typedef struct OdeTraj OdeTraj;
static double ode_traj_bytes_per_system(const OdeRunner *r);
static int ode_traj_too_many(const OdeRunner *r);
static int ode_traj_nlisted(void);
static int ode_traj_open(OdeTraj **tr, const OdeRunner *r, long long total);
static int ode_traj_chunk(OdeTraj *tr, model_solver *s, long long base, int count);
static int ode_traj_write(OdeTraj *tr, model_solver *s, const OdeRunner *r, long long base, int count);
static int ode_traj_close(OdeTraj *tr);
static void ode_traj_free(OdeTraj *tr);
static int ode_traj_refused(const OdeRunner *r, const char *with);

/* ------------------------------------------------------------------ `attractor` (runner_attractors.c) */

typedef struct OdeAttractorRun OdeAttractorRun;
static int ode_att_open(OdeAttractorRun **ar, const OdeRunner *r);
static int ode_att_wanted(const OdeRunner *r);
static int ode_att_chunk(OdeAttractorRun *ar, model_solver *s, long long first);
static const void *ode_att_fingerprints(const model_solver *s, size_t *bytes);
static int ode_att_group_kept(OdeAttractorRun *ar, long long first, int nsys, const void *data, size_t bytes,
                              int *labels);
static int ode_att_rows(OdeAttractorRun *ar, const OdeRunner *r, OdeRunInfo *info);
static void ode_att_summary(const OdeAttractorRun *ar);
static int ode_att_write_csv(const OdeAttractorRun *ar, const OdeRunner *r);
static void ode_att_free(OdeAttractorRun *ar);

/* ------------------------------------------------------------------ memory */

/* A number from the first line of a file ("max" or nothing: -1). */
static double ode_read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    unsigned long long v;
    const int got = fscanf(f, "%llu", &v);
    fclose(f);
    return got == 1 ? (double)v : -1;
}

/* Host memory this process can still get: the kernel's MemAvailable, less
 * where an address-space limit (ulimit -v) or a cgroup's memory.max is
 * lower. */
static double ode_host_available(void)
{
    double avail = -1;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) avail = (double)kb * 1024.0;
        fclose(f);
    }
    const double page = (double)sysconf(_SC_PAGESIZE);
    if (avail < 0) {
        const long pages = sysconf(_SC_AVPHYS_PAGES);
        avail = pages > 0 && page > 0 ? (double)pages * page : 1024.0 * 1024.0 * 1024.0;
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        double used = 0;
        FILE *statm = fopen("/proc/self/statm", "r");
        unsigned long long size;
        if (statm && fscanf(statm, "%llu", &size) == 1) used = (double)size * page;
        if (statm) fclose(statm);
        const double left = (double)rl.rlim_cur - used;
        if (left < avail) avail = left > 0 ? left : 0;
    }
    const double cg_max = ode_read_number("/sys/fs/cgroup/memory.max");
    if (cg_max > 0) {
        double cg_used = ode_read_number("/sys/fs/cgroup/memory.current");
        const double left = cg_max - (cg_used > 0 ? cg_used : 0);
        if (left < avail) avail = left > 0 ? left : 0;
    }
    return avail;
}

/* A size with its unit ("3.7 GiB"); beyond 1024 EiB in powers of ten
 * ("1.3e+18 EiB"), so that it always fits a few characters. */
static const char *ode_size(char *buf, size_t size, double bytes)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = bytes / 1024.0;
    int u = 0;
    while (u < 5 && v >= 1024.0) {
        v /= 1024.0;
        u++;
    }
    if (v >= 1024.0) snprintf(buf, size, "%.2g %s", v, units[u]);
    else snprintf(buf, size, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
    return buf;
}

/* "1:23:45", "2 min 5 s", "0.4 s", or in days for the absurd. */
static const char *ode_duration(char *buf, size_t size, double s)
{
    if (s >= 86400.0 * 365) snprintf(buf, size, "%.3g years", s / (86400.0 * 365));
    else if (s >= 86400.0) snprintf(buf, size, "%.3g days", s / 86400.0);
    else if (s >= 3600.0) snprintf(buf, size, "%d h %02d min", (int)(s / 3600), (int)(s / 60) % 60);
    else if (s >= 60.0) snprintf(buf, size, "%d min %02d s", (int)(s / 60), (int)s % 60);
    else snprintf(buf, size, "%.2g s", s);
    return buf;
}

/* The most systems a chunk may hold, from the memory each takes (slots
 * solvers of them) and the memory there is: free device memory and host
 * memory this process may use; 0 with *exit_status set when not even one
 * system fits. */
static long long ode_chunk_capacity(const OdeRunner *r, int backend, int slots, int *exit_status)
{
    if ((*exit_status = ode_traj_too_many(r))) return 0;
    const long probe = 1L << 20;
    const int nf = r->nfield;
    size_t dev_bytes = 0, host_bytes = 0;
    model_solver_estimate(probe, backend == MODEL_BACKEND_GPU ? 1 : 0, (int)r->record, nf, &dev_bytes, &host_bytes);
    const double traj = ode_traj_nlisted() == 0 ? ode_traj_bytes_per_system(r) : 0.0;   /* every system sampled */
    const double per_host = ((double)host_bytes / (double)probe + traj) * slots;
    const double per_dev = ((double)dev_bytes / (double)probe + traj) * slots;
    char a[32], b[32], c[32];
    *exit_status = 0;

    const double available = ode_host_available(), usable = 0.75 * available;
    if (per_host > usable) {
        *exit_status = ode_runtime("out of memory: one system recording %ld integrations of %d fields needs %s of "
                                   "host memory, more than the %s this run may use (3/4 of the %s available)",
                                   r->record, nf, ode_size(a, sizeof a, per_host), ode_size(b, sizeof b, usable),
                                   ode_size(c, sizeof c, available));
        return 0;
    }
    double chunk = usable / per_host;
    if (backend == MODEL_BACKEND_GPU) {
        double smallest = -1;
        int at = 0;
        for (int k = 0; k < r->ndevices; k++) {
            size_t free_b = 0;
            if (model_gpu_info(r->devices[k], NULL, 0, &free_b, NULL) != MODEL_OK) continue;
            if (smallest < 0 || (double)free_b < smallest) {
                smallest = (double)free_b;
                at = r->devices[k];
            }
        }
        if (smallest < 0) smallest = 0;
        const double margin = 0.1 * smallest + 256.0 * 1024 * 1024;
        const double usable_dev = smallest > margin ? smallest - margin : 0.0;
        if (per_dev > usable_dev) {
            *exit_status = ode_runtime("out of memory: one system recording %ld integrations of %d fields needs %s "
                                       "of device memory, more than the %s usable on GPU %d (%s free)",
                                       r->record, nf, ode_size(a, sizeof a, per_dev), ode_size(b, sizeof b, usable_dev),
                                       at, ode_size(c, sizeof c, smallest));
            return 0;
        }
        double per_gpu = usable_dev / per_dev;
        if (per_gpu > (double)ODE_GPU_CHUNK) per_gpu = (double)ODE_GPU_CHUNK;
        if (per_gpu * r->ndevices < chunk) chunk = per_gpu * r->ndevices;
    } else if (chunk > (double)ODE_CPU_CHUNK) {
        chunk = (double)ODE_CPU_CHUNK;
    }
    if (chunk > (double)INT_MAX) chunk = (double)INT_MAX;
    return chunk < 1 ? 1 : (long long)chunk;
}

/* Chunks of at most `most` systems over `total`, all of one size but for a
 * shorter last one that is not a sliver. */
static long long ode_chunk_even(long long total, long long most)
{
    if (most < 1) most = 1;
    if (most >= total) return total > 0 ? total : 1;
    const long long nchunks = (total + most - 1) / most;
    return (total + nchunks - 1) / nchunks;
}

/* Systems per chunk of a run of `total` systems: as many as memory allows
 * (ode_chunk_capacity), and at most what gives the overlap wanted (at least
 * a few chunks, so that one integrates while the last is written; on the GPU
 * none smaller than what the devices run at once), or --chunk; 0 with
 * *exit_status set when not even one system fits. */
static long long ode_chunk_size(const OdeRunner *r, int backend, int slots, long long total, long long resident,
                                int *exit_status)
{
    const long long capacity = ode_chunk_capacity(r, backend, slots, exit_status);
    if (!capacity) return 0;
    double want = ceil((double)total / 8.0);
    const double least = backend == MODEL_BACKEND_GPU ? (double)resident : 4096.0;
    if (want < least) want = least;
    if (r->chunk > 0) want = (double)r->chunk;
    return ode_chunk_even(total, want < (double)capacity ? (long long)want : capacity);
}

/* ------------------------------------------------------------------ the scan's definition */

/* The scan as scan_fill.c makes its systems, and as the output describes it. */
typedef struct OdePlan {
    OdeFillPlan fill;
    double base[ODE_NPARAM + ODE_NSTATE + 1];   /* parameters, then initial values */
    OdeAxisView *views;
    double **tables;            /* log axes: their values, computed here */
    OdeAxisInfo *infos;
    char (*definitions)[256];
} OdePlan;

static void ode_plan_free(OdePlan *pl)
{
    for (int l = 0; pl->tables && l < pl->fill.naxis; l++) free(pl->tables[l]);
    free(pl->tables);
    free(pl->views);
    free(pl->infos);
    free(pl->definitions);
    memset(pl, 0, sizeof *pl);
}

static void ode_plan_axis_values(const void *context, int axis, long long first, long long count, double *out)
{
    const OdePlan *pl = (const OdePlan *)context;
    for (long long k = 0; k < count; k++) out[k] = ode_axis_value(&pl->views[axis], first + k);
}

/* "lin(0.2, 0.3, 30720)", "list(1, 2, 3)" (long lists cut short). */
static void ode_scan_definition(const OdeScan *sc, char *buf, size_t size)
{
    char x[40], y[40];
    if (sc->type != ODE_SCAN_LIST) {
        snprintf(buf, size, "%s(%s, %s, %ld)", sc->type == ODE_SCAN_LOG ? "log" : "lin", ode_short(x, sizeof x, sc->a),
                 ode_short(y, sizeof y, sc->b), sc->n);
        return;
    }
    size_t used = (size_t)snprintf(buf, size, "list(");
    for (long j = 0; j < sc->n; j++) {
        const char *v = ode_short(x, sizeof x, sc->values[j]);
        if (used + strlen(v) + 32 > size) {
            snprintf(buf + used, size - used, "…: %ld values)", sc->n);
            return;
        }
        used += (size_t)snprintf(buf + used, size - used, "%s%s", j ? ", " : "", v);
    }
    snprintf(buf + used, size - used, ")");
}

static int ode_plan_make(OdePlan *pl, const OdeRunner *r)
{
    memset(pl, 0, sizeof *pl);
    const int na = r->nscan;
    for (int k = 0; k < ODE_NPARAM; k++) pl->base[k] = r->param[k];
    for (int k = 0; k < ODE_NSTATE; k++) pl->base[ODE_NPARAM + k] = r->state[k];
    pl->views = (OdeAxisView *)calloc((size_t)na + 1, sizeof *pl->views);
    pl->tables = (double **)calloc((size_t)na + 1, sizeof *pl->tables);
    pl->infos = (OdeAxisInfo *)calloc((size_t)na + 1, sizeof *pl->infos);
    pl->definitions = (char(*)[256])calloc((size_t)na + 1, sizeof *pl->definitions);
    if (!pl->views || !pl->tables || !pl->infos || !pl->definitions) return ode_runtime("out of memory");
    pl->fill.t0 = r->opt[ODE_OPTION_T0];
    pl->fill.t1 = r->opt[ODE_OPTION_T0] + r->opt[ODE_OPTION_TOTAL];
    pl->fill.base = pl->base;
    pl->fill.axes = pl->views;
    pl->fill.naxis = na;
    /* Initial values written as expressions of parameters are computed per
     * system from its own parameters, unless --set, --set-name or a scan
     * gives the state a value. */
    for (int k = 0; k < ODE_NSTATE; k++) pl->fill.init_expr[k] = ode_state_init_expr[k] && !r->state_set[k];
    for (int l = 0; l < na; l++)
        if (r->scans[l].kind == MODEL_KIND_STATE) pl->fill.init_expr[r->scans[l].target] = 0;
    long long stride = 1;
    for (int l = na - 1; l >= 0; l--) {
        const OdeScan *sc = &r->scans[l];
        OdeAxisView *v = &pl->views[l];
        v->target_kind = sc->kind == MODEL_KIND_PARAM ? ODE_TARGET_PARAM : ODE_TARGET_STATE;
        v->target = sc->target;
        v->n = sc->n;
        v->stride = stride;
        stride *= sc->n;   /* no overflow: the product was checked */
        v->a = sc->a;
        v->b = sc->b;
        v->step = sc->n > 1 ? (sc->b - sc->a) / (double)(sc->n - 1) : 0.0;
        if (sc->type == ODE_SCAN_LIST) {
            v->values = sc->values;
        } else if (sc->type == ODE_SCAN_LOG) {
            double *table = (double *)malloc(sizeof(double) * (size_t)sc->n);
            if (!table) return ode_runtime("out of memory for the %ld values of the scan of '%s'", sc->n,
                                           model_name(sc->kind, sc->target));
            for (long i = 0; i < sc->n; i++) table[i] = ode_scan_value(sc, i);
            pl->tables[l] = table;
            v->values = table;
        }
        OdeAxisInfo *info = &pl->infos[l];
        info->name = model_name(sc->kind, sc->target);
        info->target = sc->kind == MODEL_KIND_PARAM ? "parameter" : "initial value";
        ode_scan_definition(sc, pl->definitions[l], sizeof pl->definitions[l]);
        info->definition = pl->definitions[l];
        info->n = sc->n;
        info->stride = v->stride;
    }
    return 0;
}

/* ------------------------------------------------------------------ the output's description */

/* The command line, quoted for a shell where needed. */
static char *ode_command_line(int argc, char **argv)
{
    size_t len = 1;
    for (int i = 0; i < argc; i++) len += 4 * strlen(argv[i]) + 3;
    char *s = (char *)malloc(len), *p = s;
    if (!s) return NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int plain = *a != 0;
        for (const char *c = a; *c; c++) plain &= isalnum((unsigned char)*c) || strchr("-_./=,:+@%", *c) != NULL;
        if (i) *p++ = ' ';
        if (plain) {
            p += sprintf(p, "%s", a);
            continue;
        }
        *p++ = '\'';
        for (const char *c = a; *c; c++) {
            if (*c == '\'') p += sprintf(p, "'\\''");
            else *p++ = *c;
        }
        *p++ = '\'';
    }
    *p = 0;
    return s;
}

/* HDF5 for .h5 and .hdf5, CSV for anything else (or standard output). */
static int ode_format_of(const char *path, const OdeFormat **format)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    char ext[8] = "";
    if (dot && strlen(dot) < sizeof ext)
        for (size_t i = 0; i <= strlen(dot); i++) ext[i] = (char)tolower((unsigned char)dot[i]);
    if (strcmp(ext, ".h5") != 0 && strcmp(ext, ".hdf5") != 0) {
        *format = &ode_csv_format;
        return 0;
    }
    if (!model_hdf5_format)
        return ode_runtime("cannot write '%s': this runner was built without HDF5; install Debian's libhdf5-dev "
                           "(sudo apt-get install libhdf5-dev) and rebuild it (make), or write CSV",
                           path);
    *format = model_hdf5_format();
    return 0;
}

/* ------------------------------------------------------------------ the estimate */

typedef struct OdeEstimate {
    double rows;            /* system × recorded integrations */
    double bytes;           /* the output's size */
    double per_row;         /* bytes a row takes (calibrated: the mean; else at most) */
    double free_bytes;      /* free where it is written; -1: unknown (a pipe, standard output) */
    double seconds;         /* the integration's time, from the calibration; -1: not calibrated */
    int sample;             /* systems the calibration ran */
} OdeEstimate;

/* The free space of the file system that `path` would be written to (its
 * directory); -1 for a pipe, a device or standard output. */
static double ode_free_space(const char *path)
{
    struct stat st;
    char *target = NULL;
    int descriptor = -1;
    if (!path || strcmp(path, "-") == 0 || ode_output_target(path, &target, &descriptor) != 0 || descriptor >= 0 ||
        (stat(target, &st) == 0 && !S_ISREG(st.st_mode))) {
        free(target);
        return -1;
    }
    char dir[4096];   /* where the file goes: the folder of the file path's links lead to */
    const char *slash = strrchr(target, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == target ? 1 : (int)(slash - target), target);
    free(target);
    struct statvfs vfs;
    if (statvfs(dir, &vfs) != 0) return -1;
    return (double)vfs.f_bavail * (double)vfs.f_frsize;
}

/* A short run before the scan: systems spread over it (on the GPU a full
 * wave at least, so that the time is the device's throughput, not one
 * thread's), one integration each, in the solver that will run the first
 * chunk; more systems, then more integrations, until it takes 50 ms (start-up
 * costs would dominate a shorter one).  Gives the rows' typical size and the
 * time per integration. */
static int ode_calibrate(model_solver *s, const OdePlan *pl, const OdeRunner *r, const OdeFormat *format,
                         const OdeRunInfo *info, long long total, long long sample, OdeEstimate *e)
{
    const long long limit = total < s->cap ? total : s->cap;
    long long count = sample < limit ? sample : limit;
    const long long reps_all = r->transient + r->record;
    long long reps = 1;
    double seconds = 0;
    for (int round = 0; round < 8; round++) {
        const long long every = total / count;
        const int record = r->record > 0 ? 1 : 0, transient = (int)reps - record;
        int rc = ode_solver_resize(s, (int)count);
        if (rc == MODEL_OK) rc = ode_solver_fill(s, &pl->fill, every / 2, every);
        const double t0 = ode_clock();
        if (rc == MODEL_OK) rc = ode_launch(s, transient, record);
        if (rc == MODEL_OK) rc = ode_finish(s);
        if (rc != MODEL_OK) return ode_runtime("%s", model_solver_error(s));
        seconds = s->backend == MODEL_BACKEND_GPU ? s->kernel_seconds : ode_clock() - t0;
        if (seconds >= 0.05) break;
        if (count < limit) count = count * 4 < limit ? count * 4 : limit;
        else if (reps < reps_all) reps = reps * 4 < reps_all ? reps * 4 : reps_all;
        else break;
    }
    e->sample = (int)count;
    e->seconds = seconds * ((double)reps_all / (double)reps) * ((double)total / (double)count);
    if (r->record > 0) {
        OdeChunkView view;
        view.first = total / 2;   /* row numbers of a typical length */
        view.count = count < 4096 ? (int)count : 4096;
        view.stride = s->n;
        view.record = 1;
        view.nfield = s->h.nfield;
        view.values = s->rec;
        view.status = s->rec_status;
        double fixed = 0;
        e->per_row = format->estimate(info, &view, &fixed);
        e->bytes = fixed + e->rows * e->per_row;
    }
    return 0;
}

/* The estimate: rows, the output's size against the free space, and (when it
 * matters, or is asked for) a calibrated time.  Refuses a scan whose output
 * cannot fit: exit status 1, with the numbers.  `show`: print it (on a
 * terminal, or for --estimate). */
static int ode_estimate(model_solver *s, const OdePlan *pl, const OdeRunner *r, const OdeFormat *format,
                        const OdeRunInfo *info, long long total, long long sample, int show, OdeEstimate *e)
{
    memset(e, 0, sizeof *e);
    e->rows = (double)total * (double)ode_rows_per_system(r);
    e->seconds = -1;
    double fixed = 0;
    e->per_row = format->estimate(info, NULL, &fixed);   /* at most */
    e->bytes = fixed + e->rows * e->per_row;
    e->free_bytes = ode_free_space(r->output);
    const int tight = e->free_bytes >= 0 && e->bytes > e->free_bytes;
    const double work = (double)total * (double)(r->transient + r->record);
    if (tight || r->estimate_only || (show && work > 1e6)) {
        int status = ode_calibrate(s, pl, r, format, info, total, sample, e);
        if (status) return status;
    }
    char a[32], b[32], c[32];
    const char *what = format == &ode_csv_format ? "CSV" : format->name;
    if (e->free_bytes >= 0 && e->bytes > e->free_bytes)
        return ode_runtime("the output would not fit: about %s of %s (%.4g rows of %s%.0f bytes) for %s free where "
                           "'%s' goes; record fewer integrations or fields, scan fewer systems, or write it elsewhere",
                           ode_size(a, sizeof a, e->bytes), what, e->rows, e->seconds < 0 ? "up to " : "about ",
                           e->per_row, ode_size(b, sizeof b, e->free_bytes), r->output);
    if (show && (r->estimate_only || work > 1e6)) {
        FILE *f = r->estimate_only ? stdout : stderr;
        fprintf(f, "%s: estimate: %lld system%s, %.0f rows, %s%s of %s", ODE_MODEL_NAME, total, total == 1 ? "" : "s",
                e->rows, e->seconds < 0 ? "at most " : "about ", ode_size(a, sizeof a, e->bytes), what);
        if (e->free_bytes >= 0) fprintf(f, " (%s free)", ode_size(b, sizeof b, e->free_bytes));
        if (e->seconds >= 0)
            fprintf(f, ", about %s of integration (from %d systems)", ode_duration(c, sizeof c, e->seconds), e->sample);
        fputc('\n', f);
    }
    return 0;
}

/* ------------------------------------------------------------------ the run's identity */

/* printf at the end of a growing string (*text, of capacity *cap); a failed
 * allocation leaves *text NULL. */
static void ode_append(char **text, size_t *cap, const char *fmt, ...) ODE_PRINTF(3, 4);
static void ode_append(char **text, size_t *cap, const char *fmt, ...)
{
    if (!*text) return;
    const size_t used = strlen(*text);
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(*text + used, *cap - used, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (used + (size_t)n < *cap) return;
    *cap = 2 * (used + (size_t)n + 1);
    char *grown = (char *)realloc(*text, *cap);
    if (!grown) {
        free(*text);
        *text = NULL;
        return;
    }
    *text = grown;
    va_start(ap, fmt);
    vsnprintf(*text + used, *cap - used, fmt, ap);
    va_end(ap);
}

/* What makes a run's rows what they are, as "key: value" lines: a
 * checkpoint is resumed only by a run with the same (checkpoint.c): the
 * model and the code generated from it, the build (ode_ck_build), the
 * precision, the options, values and scan, the fields and counts, the
 * format and the backend.  Values
 * are written exactly (shortest round-trip text); a long list scan by its
 * length, ends and a hash of its values.  NULL when out of memory. */
static char *ode_identity(const OdeRunner *r, const OdeFormat *format, int backend, long long total)
{
    char x[40], y[40], options[512];
    ode_options_text(r->opt, options, sizeof options);   /* the options in force (--set included) */
    size_t cap = 1024;
    char *t = (char *)calloc(cap, 1);
    const size_t source_len = strlen(ode_model_source);
    char build[512];
    ode_ck_build(build, sizeof build);   /* (checkpoint.c) */
    ode_append(&t, &cap,
               "model: %s\nsource: %zu bytes, hash %016llx\nodegen: %s\ngenerated: source hash %s\nbuild: %s\n"
               "precision: %s\noptions: %s\nvalues:",
               ODE_MODEL_NAME, source_len, (unsigned long long)ode_fnv1a(ODE_FNV_START, ode_model_source, source_len),
               ODEGEN_VERSION, ODE_GENERATED_HASH, build, ODE_FLOAT ? "float" : "double", options);
    for (int k = 0; k < ODE_NPARAM; k++)
        ode_append(&t, &cap, "%s %s=%s", k ? "," : "", model_name(MODEL_KIND_PARAM, k), ode_short(x, sizeof x, r->param[k]));
    for (int k = 0; k < ODE_NSTATE; k++)
        ode_append(&t, &cap, "%s %s(0)=%s", k || ODE_NPARAM ? "," : "", model_name(MODEL_KIND_STATE, k),
                   ode_short(x, sizeof x, r->state[k]));
    ode_append(&t, &cap, "\nscan:%s", r->nscan ? "" : " none");
    for (int l = 0; l < r->nscan; l++) {
        const OdeScan *sc = &r->scans[l];
        const char *name = model_name(sc->kind, sc->target);
        if (sc->type != ODE_SCAN_LIST) {
            ode_append(&t, &cap, "%s %s=%s(%s, %s, %ld)", l ? ";" : "", name, sc->type == ODE_SCAN_LOG ? "log" : "lin",
                       ode_short(x, sizeof x, sc->a), ode_short(y, sizeof y, sc->b), sc->n);
        } else if (sc->n <= 8) {
            ode_append(&t, &cap, "%s %s=list(", l ? ";" : "", name);
            for (long j = 0; j < sc->n; j++) ode_append(&t, &cap, "%s%s", j ? ", " : "", ode_short(x, sizeof x, sc->values[j]));
            ode_append(&t, &cap, ")");
        } else {
            ode_append(&t, &cap, "%s %s=list(%ld values from %s to %s, hash %016llx)", l ? ";" : "", name, sc->n,
                       ode_short(x, sizeof x, sc->values[0]), ode_short(y, sizeof y, sc->values[sc->n - 1]),
                       (unsigned long long)ode_fnv1a(ODE_FNV_START, sc->values, sizeof(double) * (size_t)sc->n));
        }
    }
    ode_append(&t, &cap, "\nfields:");
    for (int f = 0; f < r->nfield; f++) ode_append(&t, &cap, "%s %s", f ? "," : "", model_name(MODEL_KIND_FIELD, r->fields[f]));
    ode_append(&t, &cap, "%s\nrepeat: transient=%ld, record=%ld%s\nformat: %s\nbackend: %s\nsystems: %lld\n",
               r->nfield ? "" : " none", r->transient, r->record, r->last_only ? " (the last row written)" : "", format->name,
               backend == MODEL_BACKEND_GPU ? "GPU" : "CPU", total);
    return t;
}

/* ------------------------------------------------------------------ the run */

/* The chunk loop's solvers: two on a GPU (one integrates while the other's
 * rows are prepared, and the next chunk's kernel fills the GPU while the
 * last one's slowest systems finish), one on the CPU (where the cores do
 * both, one after the other, while the writer thread writes). */
typedef struct OdeChunks {
    model_solver *solver[2];
    int slots;
    long long begin;                /* the first system to integrate (after a checkpoint's) */
    long long total, size, count;   /* systems of the scan, per chunk, chunks from begin */
    OdeTraj *traj;                  /* `save`'s samples (runner_save.c), or NULL */
} OdeChunks;

static long long ode_chunk_first(const OdeChunks *c, long long k) { return c->begin + k * c->size; }

static int ode_chunk_length(const OdeChunks *c, long long k)
{
    const long long first = ode_chunk_first(c, k);
    return (int)(c->total - first < c->size ? c->total - first : c->size);
}

/* Systems [first, first + count) in solver `slot`: made where it runs, and launched. */
static int ode_chunk_start(OdeChunks *c, int slot, const OdePlan *pl, const OdeRunner *r, long long first, int count)
{
    model_solver *s = c->solver[slot];
    int rc = ode_solver_resize(s, count);
    if (rc == MODEL_OK) rc = ode_solver_fill(s, &pl->fill, first, 1);
    if (rc == MODEL_OK) {
        const int status = ode_traj_chunk(c->traj, s, first, count);   /* which of them `save` samples */
        if (status) return status;
        rc = ode_launch(s, (int)r->transient, (int)r->record);
    }
    return rc == MODEL_OK ? 0 : ode_runtime("%s", model_solver_error(s));
}

/* A finished launch of systems first… as the output takes them. */
static void ode_chunk_view(model_solver *s, const OdeRunner *r, long long first, OdeChunkView *view)
{
    view->first = first;
    view->count = s->n;
    view->stride = s->n;
    const int rows = ode_rows_per_system(r);   /* with --last, the last recorded integration's rows */
    const size_t skip = (size_t)(r->record - rows) * (size_t)s->n;
    view->record = rows;
    view->nfield = r->nfield;
    view->values = s->rec + skip * (size_t)r->nfield;
    view->status = s->rec_status + skip;
}

/* One process's run, or one rank's part of an MPI run (mpi_runner.c), in
 * the order of its phases: ode_job_open, ode_job_checkpoint, the chunk size,
 * ode_job_solvers, ode_job_estimate, then the output, the loop and the
 * summary. */
typedef struct OdeJob {
    OdeRunner *r;
    long long total;                 /* systems of the scan */
    const OdeFormat *format;
    int backend;
    double start_up;                 /* CUDA's start-up (s), -1 without */
    double t_start;
    OdePlan plan;
    long long resident;              /* systems the GPUs run at once (0 on the CPU) */
    OdeChunks chunks;
    OdeProgress progress;
    OdeRunInfo info;
    const char *fields[ODE_ALLOC(ODE_NFIELD)];
    const char *field_kinds[ODE_ALLOC(ODE_NFIELD)], *field_meanings[ODE_ALLOC(ODE_NFIELD)],
        *field_comments[ODE_ALLOC(ODE_NFIELD)], *field_units[ODE_ALLOC(ODE_NFIELD)];
    char device[256];
    char options[512];               /* the run-time options in force, as text */
    OdeCheckpoint ck;
    model_stats sum;                 /* of the systems done (a resumed checkpoint's included) */
    double integration;              /* s */
    OdeAttractorRun *attractors;     /* `attractor`'s table, or NULL */
} OdeJob;

/* The scan's size and format, the backend and its devices (CUDA's start-up
 * timed apart), the scan's definition, and on a GPU what it runs at once. */
static int ode_job_open(OdeJob *job, OdeRunner *r)
{
    memset(job, 0, sizeof *job);
    job->r = r;
    job->start_up = -1;
    job->ck.rows_fd = job->ck.pipe_read = -1;
    job->total = 1;
    for (int l = 0; l < r->nscan; l++) {
        if (job->total > LLONG_MAX / r->scans[l].n) return ode_usage("the scan has more than %lld systems", LLONG_MAX);
        job->total *= r->scans[l].n;
    }
#if ODE_NOISE
    if (job->total > (long long)ODE_RNG_MAX_SYSTEMS)   /* (rng.h: the key holds 44 bits of a system's index) */
        return ode_usage("the scan has %lld systems: a model with noise keys its random numbers by the system's index, "
                         "which has room for %llu (2^44); split the scan", job->total, ODE_RNG_MAX_SYSTEMS);
#endif
    job->chunks.total = job->total;
    int status = ode_format_of(r->output, &job->format);
    if (status) return status;

    const double t_begin = ode_clock();
    int backend = r->backend;
    /* --backend cpu never touches CUDA: starting its driver costs about 0.3 s of CPU time where
     * a GPU is present (an nvcc-built runner's CPU path measured 1.24x the cc build's on the
     * H100 machine, bench/cpu_path.sh). */
    const int gpus = backend == MODEL_BACKEND_CPU ? 0 : model_gpu_count();
    if (backend == MODEL_BACKEND_AUTO) backend = gpus > 0 || r->ndevices > 0 ? MODEL_BACKEND_GPU : MODEL_BACKEND_CPU;
    job->backend = backend;
    if (backend == MODEL_BACKEND_GPU) {
        if (gpus == 0)
            return ode_runtime("%s: no GPU (%s)", r->ndevices > 0 ? "--devices" : "--backend gpu", model_gpu_error());
        for (int k = 0; k < r->ndevices; k++)
            if (r->devices[k] >= gpus)
                return ode_runtime("--devices: no CUDA device %d (%d present: 0 to %d)", r->devices[k], gpus, gpus - 1);
        if (r->ndevices == 0) {
            r->ndevices = gpus < ODE_MAX_DEVICES ? gpus : ODE_MAX_DEVICES;
            for (int k = 0; k < r->ndevices; k++) r->devices[k] = k;
        }
#ifdef __CUDACC__
        char why[256];
        if (ode_gpu_start_up(r->devices, r->ndevices, why, sizeof why) != MODEL_OK) return ode_runtime("%s", why);
#endif
        job->start_up = ode_clock() - t_begin;
    }
    job->t_start = ode_clock();
    status = ode_plan_make(&job->plan, r);
    if (!status && backend == MODEL_BACKEND_GPU) {
        model_solver *probe = NULL;
        if (model_solver_create(&probe, 1, backend, r->devices, r->ndevices) != MODEL_OK)
            status = ode_runtime("%s", model_solver_error(probe));
#ifdef __CUDACC__
        if (!status && r->block) model_solver_set_block(probe, r->block);
        if (!status) job->resident = ode_gpu_resident(probe);
#endif
        model_solver_free(probe);
    }
    return status;
}

/* --checkpoint: reads the one to resume (its systems are not integrated
 * again: chunks.begin), or makes sure none is replaced. */
static int ode_job_checkpoint(OdeJob *job)
{
    const OdeRunner *r = job->r;
    if (r->checkpoint && ode_traj_refused(r, "--checkpoint")) return ODE_EXIT_USAGE;
    char *identity = r->checkpoint ? ode_identity(r, job->format, job->backend, job->total) : NULL;
    const int status = ode_ck_open(&job->ck, r->checkpoint, r->checkpoint_every, r->resume, identity, job->total,
                                   ode_rows_per_system(r), r->quiet || ode_silent, ode_runtime);
    if (!status) {
        job->chunks.begin = job->ck.resumed;
        job->sum = job->ck.stats_resumed;
        job->ck.sides = ode_att_wanted(r);   /* each chunk's fingerprints are kept after its rows */
    }
    return status;
}

/* The chunk loop's solvers (chunks.size and count set), and what the output says about the run. */
static int ode_job_solvers(OdeJob *job)
{
    OdeRunner *r = job->r;
    OdeChunks *c = &job->chunks;
    c->slots = job->backend == MODEL_BACKEND_GPU && c->count > 1 ? 2 : 1;
    for (int j = 0; j < c->slots; j++) {
        model_solver *s = NULL;
        const int rc = model_solver_create(&s, (int)c->size, job->backend, r->ndevices ? r->devices : NULL, r->ndevices);
        c->solver[j] = s;
        if (rc != MODEL_OK) return ode_runtime("%s", model_solver_error(s));
        model_solver_set_fields(s, r->fields, r->nfield);
        if (ode_solver_use_options(s, r->opt) != MODEL_OK) return ode_runtime("%s", model_solver_error(s));
        if (r->block) model_solver_set_block(s, r->block);
        model_solver_set_balance(s, r->balance);
        if (ode_solver_set_plan(s, &job->plan.fill) != MODEL_OK) return ode_runtime("%s", model_solver_error(s));
    }
    OdeRunInfo *info = &job->info;
    for (int f = 0; f < r->nfield; f++) {
        job->fields[f] = model_name(MODEL_KIND_FIELD, r->fields[f]);
        model_field_about(r->fields[f], &job->field_kinds[f], &job->field_meanings[f], &job->field_comments[f],
                          &job->field_units[f]);
    }
    info->model = ODE_MODEL_NAME;
    info->source = model_source();   /* the strings the library gives Python (api.h) */
    info->source_path = model_source_path();
    ode_options_text(r->opt, job->options, sizeof job->options);   /* the options in force */
    info->options = job->options;
    info->command_line = r->command_line ? r->command_line : ODE_MODEL_NAME;
    info->version = model_odegen_version();
    snprintf(job->device, sizeof job->device, "%s", model_solver_describe(c->solver[0]));
    info->device = job->device;
    info->precision = model_precision();
#if ODE_NOISE
    info->seed = (long long)r->opt[ODE_OPTION_SEED];
#else
    info->seed = -1;
#endif
    info->systems = job->total;
    info->transient = (int)r->transient;
    info->record = ode_rows_per_system(r);
    info->has_attractors = model_attractor_quantities(NULL) > 0 && r->record > 0;   /* (runner_attractors.c) */
    info->nfield = r->nfield;
    info->fields = job->fields;
    info->field_kinds = job->field_kinds;
    info->field_meanings = job->field_meanings;
    info->field_comments = job->field_comments;
    info->field_units = job->field_units;
    info->real_size = (int)sizeof(ode_real);
    info->nstatus = ODE_NSTATUS;
    info->status_names = ode_status_names;
    info->naxis = r->nscan;
    info->axes = job->plan.infos;
    info->axis_values = ode_plan_axis_values;
    info->context = &job->plan;
    job->progress.total = job->total - c->begin;
    return 0;
}

/* The estimate before the run (ode_estimate); -1 after --estimate. */
static int ode_job_estimate(OdeJob *job, int show)
{
    OdeEstimate estimate;
    const OdeChunks *c = &job->chunks;
    const long long sample = job->backend == MODEL_BACKEND_GPU ? (job->resident > 0 ? job->resident : 4096) : 16L * omp_threads();
    const int status = ode_estimate(c->solver[0], &job->plan, job->r, job->format, &job->info, job->total,
                                    sample < c->size ? sample : c->size, show, &estimate);
    return status ? status : job->r->estimate_only ? -1 : 0;
}

/* SIGINT, SIGTERM and SIGHUP end the run from here on, leaving no
 * unfinished output (unless they were ignored when the program started, as
 * for a background job of a shell without job control, or under nohup);
 * with a checkpoint, after committing it (ode_ck_on_signal).  A file size
 * limit (ulimit -f) fails a write with EFBIG, which is reported, instead of
 * killing the run with SIGXFSZ. */
static struct sigaction ode_old_hup, ode_old_xfsz;

static void ode_job_signals(void (*handler)(int), struct sigaction *old_int, struct sigaction *old_term)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (old_int) sigaction(SIGINT, NULL, old_int);
    if (old_term) sigaction(SIGTERM, NULL, old_term);
    if (old_int) sigaction(SIGHUP, NULL, &ode_old_hup);
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (int k = 0; k < 3; k++) {
        struct sigaction now;
        sigaction(stops[k], NULL, &now);
        if (now.sa_handler != SIG_IGN) sigaction(stops[k], &sa, NULL);
    }
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGXFSZ, &ignore, old_int ? &ode_old_xfsz : NULL);
}

/* The signals' handlers as they were before ode_job_signals. */
static void ode_job_signals_restore(const struct sigaction *old_int, const struct sigaction *old_term)
{
    sigaction(SIGINT, old_int, NULL);
    sigaction(SIGTERM, old_term, NULL);
    sigaction(SIGHUP, &ode_old_hup, NULL);
    sigaction(SIGXFSZ, &ode_old_xfsz, NULL);
}

/* The output opened, and with a checkpoint its files and thread started,
 * its handler of signals in place.  With a checkpoint the temporary's name
 * is made from the checkpoint's (output.c, ode_temp_suffix): a run killed
 * before the checkpoint's index named it leaves a file the resume replaces. */
static int ode_job_output(OdeJob *job, OdeOutput *out)
{
    char key[8192], cwd[4096];
    if (job->ck.on)
        snprintf(key, sizeof key, "%s%s%s", job->ck.path[0] == '/' || !getcwd(cwd, sizeof cwd) ? "" : cwd,
                 job->ck.path[0] == '/' ? "" : "/", job->ck.path);
    if (ode_output_open(out, job->r->output, job->ck.on ? key : NULL, job->format, &job->info))
        return ode_runtime("%s", out->error);
    if (!job->ck.on) return 0;
    ode_ck_partial(&job->ck, out->tmp);
    const int status = ode_ck_start(&job->ck, ode_runtime);
    if (status) return status;
    out->written = ode_ck_written;
    out->written_context = &job->ck;
    ode_job_signals(ode_ck_on_signal, NULL, NULL);
    return 0;
}

/* A resumed checkpoint's block (ode_ck_replay gave `got`): rows are queued
 * for the writer, a chunk's fingerprints grouped into the attractor table
 * as they were when the chunk was done.  0 or an exit status. */
static int ode_job_replayed(OdeJob *job, OdeOutput *out, OdeBlock *b, int got)
{
    if (got == 1) ode_output_put(out, b);
    if (got == 2) return ode_att_group_kept(job->attractors, b->first, b->nsys, b->data, b->bytes, NULL);
    return 0;
}

/* The resumed checkpoint's rows, queued for the writer before any other. */
static int ode_job_replay(OdeJob *job, OdeOutput *out)
{
    OdeBlock b;
    memset(&b, 0, sizeof b);
    char error[600];
    int got = 0, status = 0;
    while (!status && (got = ode_ck_replay(&job->ck, &b, error, sizeof error)) > 0)
        status = ode_job_replayed(job, out, &b, got);
    free(b.data);
    return status ? status : got < 0 ? ode_runtime("%s", error) : 0;
}

/* The chunk loop: chunk k integrates (on the GPU: k and k+1 at once) while
 * chunk k-1's rows are prepared and written; then chunk k's rows go to the
 * output, in order, and the solver takes chunk k + slots. */
static int ode_job_loop(OdeJob *job, OdeOutput *out)
{
    OdeChunks *c = &job->chunks;
    const OdeRunner *r = job->r;
    int status = 0;
    ode_progress_start(&job->progress);
    const double t_first = ode_clock();
    for (long long k = 0; k < c->slots && k < c->count && !status; k++)
        status = ode_chunk_start(c, (int)k, &job->plan, r, ode_chunk_first(c, k), ode_chunk_length(c, k));
    if (!status) status = ode_job_replay(job, out);
    for (long long k = 0; k < c->count && !status; k++) {
        model_solver *s = c->solver[k % c->slots];
        model_stats st;
        if (ode_finish(s) != MODEL_OK || model_solver_stats(s, &st) != MODEL_OK)
            return ode_runtime("%s", model_solver_error(s));
        job->integration = job->backend == MODEL_BACKEND_GPU ? ode_clock() - t_first : job->integration + s->kernel_seconds;
        ode_ck_stats_add(&job->sum, &st);
        job->progress.finished += s->n;
        status = ode_att_chunk(job->attractors, s, ode_chunk_first(c, k));   /* the labels, before the rows go */
        if (status) return status;
        size_t fp_bytes;
        const void *fp = ode_att_fingerprints(s, &fp_bytes);
        ode_ck_chunk(&job->ck, ode_chunk_first(c, k), s->n, &st, fp, fp_bytes);
        OdeChunkView view;
        ode_chunk_view(s, r, ode_chunk_first(c, k), &view);
        if (ode_output_chunk(out, &view)) return ode_runtime("%s", out->error);
        status = ode_traj_write(c->traj, s, r, ode_chunk_first(c, k), s->n);
        if (!status && k + c->slots < c->count)
            status = ode_chunk_start(c, (int)(k % c->slots), &job->plan, r, ode_chunk_first(c, k + c->slots),
                                     ode_chunk_length(c, k + c->slots));
    }
    return status;
}

/* The one-line summary: systems, steps, time, device, statuses. */
static void ode_job_summary(const OdeJob *job, double output_seconds, const char *device)
{
    char startup[64] = "";
    if (job->start_up >= 0) snprintf(startup, sizeof startup, "CUDA start-up %.3g s apart; ", job->start_up);
    fprintf(stderr, "%s: %lld system%s, %llu steps, %.3g s (%sintegration %.3g s, output %.3g s), %s;", ODE_MODEL_NAME,
            job->total, job->total == 1 ? "" : "s", job->sum.steps, ode_clock() - job->t_start, startup, job->integration,
            output_seconds, device);
    int first = 1;
    for (int k = 0; k < MODEL_NSTATUS; k++) {
        if (job->sum.count[k] == 0) continue;
        fprintf(stderr, "%s %s %ld", first ? "" : ",", model_status_name(k), job->sum.count[k]);
        first = 0;
    }
    ode_print_set_options(job->r);
#if ODE_NOISE
    if (!job->r->opt_set[ODE_OPTION_SEED]) fprintf(stderr, "; seed %.0f", job->r->opt[ODE_OPTION_SEED]);
#endif
    fputc('\n', stderr);
}

/* What the numbers say about themselves, after the summary (also with --quiet). */
static void ode_job_warnings(const OdeJob *job)
{
    if (job->sum.lyap_trace_off > 0)
        fprintf(stderr, "%s: warning: in %ld of %lld systems the sum of the Lyapunov exponents is off the mean trace of "
                        "the Jacobian by more than 10^-3 of the spectrum (field lyap_trace_err): the smallest exponents "
                        "are not to be trusted; tighten toler and atoler, or bound dtmax\n",
                ODE_MODEL_NAME, job->sum.lyap_trace_off, job->total);
}

static void ode_job_free(OdeJob *job)
{
    for (int j = 0; j < 2; j++) model_solver_free(job->chunks.solver[j]);
    job->chunks.solver[0] = job->chunks.solver[1] = NULL;
    ode_plan_free(&job->plan);
    ode_ck_free(&job->ck);
    ode_att_free(job->attractors);
    job->attractors = NULL;
}

static int ode_run(OdeRunner *r)
{
    OdeJob job;
    int status = ode_job_open(&job, r);
    if (!status) status = ode_job_checkpoint(&job);
    OdeChunks *c = &job.chunks;
    if (!status) {
        const long long left = job.total - c->begin;
        c->size = ode_chunk_size(r, job.backend, job.backend == MODEL_BACKEND_GPU ? 2 : 1, left > 0 ? left : 1,
                                 job.resident, &status);
        c->count = c->size && left > 0 ? (left + c->size - 1) / c->size : 0;
    }
    if (!status) status = ode_job_solvers(&job);
    if (!status) status = ode_att_open(&job.attractors, r);
    ode_progress_init(&job.progress, r);
    if (!status) status = ode_job_estimate(&job, job.progress.on == ODE_PROGRESS_TERMINAL || r->estimate_only);
    for (int j = 0; j < c->slots && !status && job.progress.on; j++)
        model_solver_set_progress(c->solver[j], ode_progress, &job.progress);

    struct sigaction old_int, old_term;
    ode_job_signals(ode_on_signal, &old_int, &old_term);
    OdeOutput out;
    memset(&out, 0, sizeof out);
    if (!status) status = ode_job_output(&job, &out);
    if (!status) status = ode_traj_open(&c->traj, r, job.total);
    if (!status) status = ode_job_loop(&job, &out);
    if (job.progress.shown) fputs("\r\033[K", stderr);
    if (!status) status = ode_att_rows(job.attractors, r, &job.info);   /* (the HDF5 output writes them) */
    if (!status && ode_output_close(&out)) status = ode_runtime("%s", out.error);
    if (!status) status = ode_traj_close(c->traj);
    if (!status) status = ode_att_write_csv(job.attractors, r);
    ode_traj_free(c->traj);
    c->traj = NULL;
    const double output_seconds = out.prepare_seconds + out.write_seconds;
    ode_output_free(&out);
    if (status >= 0) {
        const int ck_status = ode_ck_finish(&job.ck, status == 0, ode_runtime);
        if (!status) status = ck_status;
    }
    ode_job_signals_restore(&old_int, &old_term);
    if (!status && !r->quiet) ode_job_summary(&job, output_seconds, job.info.device);
    if (!status && !r->quiet) ode_att_summary(job.attractors);
    if (!status) ode_job_warnings(&job);
    ode_job_free(&job);
    return status;
}

/* The runner's options from the model's defaults and the command line: 0,
 * or the exit status (-1: --help was shown). */
static int ode_runner_parse(OdeRunner *r, int argc, char **argv)
{
    memset(r, 0, sizeof *r);
    r->backend = MODEL_BACKEND_AUTO;
    r->transient = ODE_DEFAULT_TRANSIENT;
    r->record = ODE_DEFAULT_RECORD;
    r->nfield = model_default_fields(r->fields);
    ode_options_default(r->opt);
    for (int k = 0; k < ODE_NPARAM; k++) r->param[k] = ode_param_default[k];
    for (int k = 0; k < ODE_NSTATE; k++) r->state[k] = ode_state_default[k];
    if (ODE_NSCAN > 0) {
        r->scans = (OdeScan *)calloc(ODE_ALLOC(ODE_NSCAN), sizeof(OdeScan));
        if (!r->scans) return ode_runtime("out of memory");
        for (int l = 0; l < ODE_NSCAN; l++) {
            const OdeScanSpec *sp = &ode_default_scans[l];
            OdeScan *sc = &r->scans[r->nscan++];
            sc->kind = sp->target_kind == ODE_TARGET_STATE ? MODEL_KIND_STATE : MODEL_KIND_PARAM;
            sc->target = sp->target;
            sc->type = sp->kind;
            sc->a = sp->a;
            sc->b = sp->b;
            sc->n = sp->n;
            sc->values = sp->values;
        }
    }
    int status = ode_parse_args(r, argc, argv);
    if (status == 0 && !(r->command_line = ode_command_line(argc, argv))) status = ode_runtime("out of memory");
    ode_threads_clamp();
    return status;
}

static void ode_runner_free(OdeRunner *r)
{
    for (int l = 0; l < r->nscan; l++) free(r->scans[l].owned);
    free(r->scans);
    free(r->command_line);
}

#ifdef ODE_MPI
static int ode_mpi_model_main(int argc, char **argv);   /* mpi_runner.c */
#endif

int model_main(int argc, char **argv)
{
#ifdef ODE_MPI
    return ode_mpi_model_main(argc, argv);
#else
    OdeRunner r;
    int status = ode_runner_parse(&r, argc, argv);
    if (status == 0) status = ode_run(&r);
    if (status < 0) status = 0;   /* --help, --estimate */
    ode_runner_free(&r);
    return status;
#endif
}
