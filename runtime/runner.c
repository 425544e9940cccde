/* runner.c — the generated command-line program (SPEC §4), over the library
 * (library.c) of the same translation unit.
 *
 *   ./NAME [--backend auto|gpu|cpu] [--set NAME=VALUE]… [--scan NAME=lin(a,b,n)]…
 *          [--transient N] [--recorded M] [--fields a,b,…] [-o FILE] [--devices 0,1]
 *          [--block N] [--balance off|warp|thread] [--chunk N] [--quiet] [--help]
 *
 * The systems of the scan (the Cartesian product of the scan lines, the last
 * varying fastest) are integrated a chunk at a time: the chunk's problems are
 * generated from the system index into a pool, loaded into one solver, and
 * the whole scan of the chunk (transient + recorded integrations) is one
 * model_solver_scan call; then its rows are written.  The chunk size comes
 * from the memory the run may use (free device memory, available host
 * memory) and is capped so that progress moves.
 *
 * Exit status: 0 when the run completed and the output was written, whatever
 * the systems' statuses (systems that end in maxsteps, bound or nan are
 * reported in the `status` column and counted in the summary: a failing
 * system is a result of the scan, not a failure of the run); 1 runtime error
 * (no GPU, CUDA failure, out of memory, output not writable); 2 usage error;
 * 130 interrupted by SIGINT or SIGTERM (the unfinished output is removed).
 */
#ifndef ODEGEN_GENERATED
#include "library.c"
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
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#if !defined(__cplusplus) && !defined(_POSIX_C_SOURCE)
#error "the runner needs POSIX: define _POSIX_C_SOURCE to 200809L before the first #include"
#endif

#define ODE_EXIT_RUNTIME 1
#define ODE_EXIT_USAGE 2
#define ODE_EXIT_SIGNAL 130
#define ODE_MAX_DEVICES 64
#define ODE_CPU_CHUNK 1000000L        /* most systems per chunk on the CPU */
#define ODE_GPU_CHUNK 4000000L        /* most systems per chunk and device on the GPU */

/* ------------------------------------------------------------------ messages */

static void ode_say(const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: error: ", ODE_MODEL_NAME);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
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

/* The closest of the names of the given kinds (a bit mask of MODEL_KIND_*),
 * if close enough to be a likely typo; NULL otherwise. */
static const char *ode_suggest(const char *name, unsigned kinds)
{
    const char *best = NULL;
    int best_d = 1000;
    for (int k = MODEL_KIND_STATE; k <= MODEL_KIND_FIELD; k++) {
        if (!(kinds & (1u << k))) continue;
        for (int i = 0; i < model_count(k); i++) {
            const char *c = model_name(k, i);
            const int d = ode_distance(name, c);
            int limit = (int)strlen(c) / 3;
            if (limit < 1) limit = 1;
            if (d <= limit && (d < best_d || (d == best_d && ode_prefix(name, c) > ode_prefix(name, best)))) {
                best = c;
                best_d = d;
            }
        }
    }
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

/* Value i of a scan: lin as numpy.linspace, log as numpy.geomspace (both
 * ends exact). */
static double ode_scan_value(const OdeScan *sc, long i)
{
    if (sc->type == ODE_SCAN_LIST) return sc->values[i];
    if (i == 0 || sc->n == 1) return sc->a;
    if (i == sc->n - 1) return sc->b;
    const double div = (double)(sc->n - 1);
    if (sc->type == ODE_SCAN_LIN) return (double)i * ((sc->b - sc->a) / div) + sc->a;
    const double la = log10(sc->a), lb = log10(sc->b);
    return pow(10.0, (double)i * ((lb - la) / div) + la);
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
    return ode_usage("unknown name '%s' in %s%s", name, what, ode_did_you_mean(hint, sizeof hint, name, ODE_TARGETS));
}

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
                    long n;
                    if (ode_parse_long(item, LONG_MIN, LONG_MAX, &n))
                        rc = ode_usage("bad scan '%s': the number of values '%s' is not a whole number", text, item);
                    else if (n < 1)
                        rc = ode_usage("bad scan '%s': the number of values must be at least 1", text);
                    else
                        sc->n = n;
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
    double param[ODE_ALLOC(ODE_NPARAM)];  /* for every system, before the scans */
    double state[ODE_ALLOC(ODE_NSTATE)];
    OdeScan *scans;
    int nscan;
    int scans_given;                      /* --scan replaces the model's scan lines */
} OdeRunner;

/* The shortest %g form of v that reads back as v (for people; the CSV uses %.17g). */
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
    fprintf(f, "Integrates the model '%s' over a scan of systems and writes one CSV row per system\n"
               "per recorded integration.\n\n", ODE_MODEL_NAME);
    fprintf(f, "Options:\n"
               "  --backend auto|gpu|cpu  where to run (default auto: the GPU when one is present)\n"
               "  --set NAME=VALUE        a parameter or a state's initial value, for every system\n"
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
               "  -o FILE                 write the CSV to FILE (default: standard output); it is\n"
               "                          written under a temporary name and renamed when complete\n"
               "  --devices 0,1           the CUDA devices to use (default: all)\n"
               "  --block N               threads per block, a multiple of 32 up to %d (default %d)\n"
               "  --balance MODE          load balancing on the GPU: off (default), warp (warps take\n"
               "                          the next 32 systems when done), thread or on (each thread\n"
               "                          takes the next system when done)\n"
               "  --chunk N               systems per launch (default: as many as memory allows, at\n"
               "                          most %ld on the CPU and %ld per GPU)\n"
               "  --quiet                 no progress line and no summary on standard error\n"
               "  --help                  this text\n\n",
            ODE_BLOCK_SIZE, ODE_BLOCK_SIZE, ODE_CPU_CHUNK, ODE_GPU_CHUNK);
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
    fprintf(f, "\n  window:                 t0=%s, total=%s\n\n", ode_short(x, sizeof x, (double)ODE_OPT_T0),
            ode_short(y, sizeof y, (double)ODE_OPT_TOTAL));
    fprintf(f, "Output: a header row system,rep,<fields>,status, then one row per system per recorded\n"
               "integration, ordered by system then rep; numbers in %%.17g; status is one of ready,\n"
               "finished, event, equilibrium, maxsteps, bound, nan.\n\n"
               "Exit status: 0 when the run completed, whatever the systems' statuses (see the status\n"
               "column and the summary); 1 runtime error (no GPU, CUDA failure, out of memory, output\n"
               "not writable); 2 usage error; 130 interrupted (the unfinished output is removed).\n");
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
    int kind = 0, index = 0;
    int rc = ode_target(name, "--set", &kind, &index);
    if (rc) return rc;
    double v;
    const int bad = ode_parse_real(eq + 1, &v);
    if (bad == 1) return ode_usage("bad value '%s' in --set %s: not a number", eq + 1, text);
    if (bad == 2) return ode_usage("bad value '%s' in --set %s: not a finite number", eq + 1, text);
    if (kind == MODEL_KIND_PARAM) r->param[index] = v;
    else r->state[index] = v;
    return 0;
}

static const char *const ode_option_names[] = {"--backend", "--set", "--scan", "--transient", "--recorded",
                                               "--fields", "--output", "--devices", "--block", "--balance",
                                               "--chunk", "--quiet", "--help"};

/* Parses the command line into r: 0, or the exit status (-1: --help shown). */
static int ode_parse_args(OdeRunner *r, int argc, char **argv)
{
    int devices_given = 0;
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
            ode_help(stdout);
            return -1;
        } else if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
            if (inline_value) return ode_usage("option '%s' takes no value", arg);
            r->quiet = 1;
            continue;
        } else if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            return ode_usage("unexpected argument '%s' (see --help)", argv[i]);
        }
        const int known = strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0 || strcmp(arg, "--backend") == 0 ||
                          strcmp(arg, "--set") == 0 || strcmp(arg, "--scan") == 0 ||
                          strcmp(arg, "--transient") == 0 || strcmp(arg, "--recorded") == 0 ||
                          strcmp(arg, "--fields") == 0 || strcmp(arg, "--devices") == 0 ||
                          strcmp(arg, "--block") == 0 || strcmp(arg, "--balance") == 0 || strcmp(arg, "--chunk") == 0;
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
        }
        if (rc) return rc;
    }
    if (r->transient + r->record > INT_MAX)
        return ode_usage("--transient plus --recorded must be at most %d", INT_MAX);
    if (devices_given && r->backend == MODEL_BACKEND_CPU) return ode_usage("--devices goes with the GPU backend, not --backend cpu");
    if (!devices_given) r->ndevices = 0;
    return 0;
}

/* ------------------------------------------------------------------ output */

/* The signal handler's one piece of state: the temporary output files (the
 * rows, the `save` samples) to remove when the run is interrupted. */
#define ODE_NOUTPUT 2
static char ode_signal_path[ODE_NOUTPUT][4096];

static void ode_on_signal(int sig)
{
    static const char msg[] = "\n" ODE_MODEL_NAME ": interrupted\n";
    (void)sig;
    for (int k = 0; k < ODE_NOUTPUT; k++)
        if (ode_signal_path[k][0]) unlink(ode_signal_path[k]);
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(ODE_EXIT_SIGNAL);
}

typedef struct OdeOutput {
    FILE *f;
    const char *path;    /* final name, or NULL: standard output */
    char *tmp;           /* temporary name in the same directory */
    char *buffer;        /* f's buffer */
    int special;         /* path is a device or a pipe: no temporary file */
    char *registered;    /* the slot of ode_signal_path holding tmp, or NULL */
} OdeOutput;

static int ode_write_failed(const OdeOutput *o, int err)
{
    if (o->path) return ode_runtime("cannot write '%s': %s", o->path, strerror(err));
    return ode_runtime("cannot write to standard output: %s", strerror(err));
}

/* Opens the output: standard output (through a stream of its own, so that
 * closing it reports write errors), or a temporary file next to the final
 * one, with the mode a plain fopen would give, registered for removal on
 * SIGINT/SIGTERM. */
static int ode_output_open(OdeOutput *o, const char *path)
{
    memset(o, 0, sizeof *o);
    int fd;
    if (!path || strcmp(path, "-") == 0) {
        fflush(stdout);
        fd = dup(STDOUT_FILENO);
        if (fd < 0) return ode_write_failed(o, errno);
    } else {
        o->path = path;
        struct stat st;
        const int exists = stat(path, &st) == 0;
        if (exists && S_ISDIR(st.st_mode)) return ode_write_failed(o, EISDIR);
        if (exists && !S_ISREG(st.st_mode)) {
            /* A device or a pipe (/dev/null, a FIFO): written in place, since
             * renaming onto it would replace it. */
            o->special = 1;
            o->f = fopen(path, "w");
            if (!o->f) return ode_write_failed(o, errno);
            o->buffer = (char *)malloc(1 << 20);
            if (o->buffer) setvbuf(o->f, o->buffer, _IOFBF, 1 << 20);
            return 0;
        }
        const char *slash = strrchr(path, '/');
        const size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
        const size_t len = strlen(path) + 16;
        if (len >= sizeof ode_signal_path[0]) return ode_write_failed(o, ENAMETOOLONG);
        o->tmp = (char *)malloc(len);
        if (!o->tmp) return ode_runtime("out of memory");
        snprintf(o->tmp, len, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        sigprocmask(SIG_BLOCK, &block, &old);
        fd = mkstemp(o->tmp);
        const int err = errno;
        for (int k = 0; fd >= 0 && k < ODE_NOUTPUT && !o->registered; k++)
            if (!ode_signal_path[k][0]) o->registered = ode_signal_path[k];
        if (fd >= 0 && o->registered) memcpy(o->registered, o->tmp, strlen(o->tmp) + 1);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (fd < 0) return ode_write_failed(o, err);
        const mode_t mask = umask(0);
        umask(mask);
        if (fchmod(fd, 0666 & ~mask) != 0) {
            close(fd);
            return ode_write_failed(o, errno);
        }
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        const int err = errno;
        close(fd);
        return ode_write_failed(o, err);
    }
    o->buffer = (char *)malloc(1 << 20);
    if (o->buffer) setvbuf(o->f, o->buffer, _IOFBF, 1 << 20);
    return 0;
}

/* Completes the output: flush, sync, close, rename.  0 or the exit status. */
static int ode_output_close(OdeOutput *o)
{
    FILE *f = o->f;
    o->f = NULL;
    int bad = fflush(f) != 0 || ferror(f);
    int err = errno;
    if (!bad && o->tmp && fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS) {
        bad = 1;
        err = errno;
    }
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (!bad && o->tmp && rename(o->tmp, o->path) != 0) {
        bad = 1;
        err = errno;
    }
    if (bad) return ode_write_failed(o, err ? err : EIO);
    if (o->registered) o->registered[0] = 0;
    o->registered = NULL;
    return 0;
}

/* Frees the output; removes the temporary file if it is still there (after
 * an error). */
static void ode_output_free(OdeOutput *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp && o->registered) unlink(o->tmp);
    if (o->registered) o->registered[0] = 0;
    o->registered = NULL;
    free(o->tmp);
    free(o->buffer);
    o->tmp = NULL;
    o->buffer = NULL;
}

static int ode_print_number(FILE *f, double v)
{
    if (v != v) return fputs(",nan", f);
    if (v - v != 0.0) return fputs(v > 0 ? ",inf" : ",-inf", f);
    return fprintf(f, ",%.17g", v);
}

/* ------------------------------------------------------------------ progress */

typedef struct OdeProgress {
    int on;
    double start;
    long long base;     /* systems of the chunks before this one */
    long long total;
    int shown;          /* a progress line is on the terminal */
} OdeProgress;

static double ode_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void ode_progress(void *user, long done, long total)
{
    OdeProgress *p = (OdeProgress *)user;
    (void)total;
    const long long all = p->base + done;
    const double elapsed = ode_clock() - p->start;
    const double rate = elapsed > 0 ? (double)all / elapsed : 0.0;
    char left[64] = "";
    if (rate > 0 && all > 0) {
        const long long s = (long long)((double)(p->total - all) / rate + 0.5);
        snprintf(left, sizeof left, ", %lld:%02lld:%02lld left", s / 3600, s / 60 % 60, s % 60);
    }
    fprintf(stderr, "\r%s: %lld / %lld systems (%.1f%%), %.4g systems/s%s\033[K", ODE_MODEL_NAME, all, p->total,
            100.0 * (double)all / (double)p->total, rate, left);
    fflush(stderr);
    p->shown = 1;
}

/* ------------------------------------------------------------------ `save` samples (runner_save.c) */

typedef struct OdeTraj OdeTraj;
static double ode_traj_bytes_per_system(const OdeRunner *r);
static int ode_traj_nlisted(void);
static int ode_traj_open(OdeTraj **tr, const OdeRunner *r, long long total);
static int ode_traj_chunk(OdeTraj *tr, model_solver *s, long long base, int count);
static int ode_traj_write(OdeTraj *tr, model_solver *s, const OdeRunner *r, long long base, int count);
static int ode_traj_close(OdeTraj *tr);
static void ode_traj_free(OdeTraj *tr);

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

static const char *ode_size(char *buf, size_t size, double bytes)
{
    if (bytes >= 1024.0 * 1024.0 * 1024.0) snprintf(buf, size, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    else if (bytes >= 1024.0 * 1024.0) snprintf(buf, size, "%.1f MiB", bytes / (1024.0 * 1024.0));
    else snprintf(buf, size, "%.0f KiB", bytes / 1024.0);
    return buf;
}

/* Systems per chunk, from the memory each takes and the memory there is; or
 * an exit status (negated) when not even one system fits. */
static long long ode_chunk_size(const OdeRunner *r, int backend, long long total, int *exit_status)
{
    const long probe = 1L << 20;
    const int nf = r->nfield;
    size_t dev_bytes = 0, host_bytes = 0;
    model_solver_estimate(probe, backend == MODEL_BACKEND_GPU ? 1 : 0, (int)r->record, nf, &dev_bytes, &host_bytes);
    const double pool = (double)(ODE_NSTATE + ODE_NPARAM) * sizeof(double);
    const double traj = ode_traj_nlisted() == 0 ? ode_traj_bytes_per_system(r) : 0.0;   /* every system sampled */
    const double per_host = (double)host_bytes / (double)probe + pool + traj;
    const double per_dev = (double)dev_bytes / (double)probe + traj;
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
    if (r->chunk > 0 && (double)r->chunk < chunk) chunk = (double)r->chunk;
    if (chunk > (double)INT_MAX) chunk = (double)INT_MAX;
    long long c64 = (long long)chunk;
    if (c64 < 1) c64 = 1;
    if (c64 >= total) return total;
    /* Even chunks: the last is not a sliver. */
    const long long nchunks = (total + c64 - 1) / c64;
    return (total + nchunks - 1) / nchunks;
}

/* ------------------------------------------------------------------ the run */

/* Problems base … base+count-1 of the scan into the pool (size entries). */
static void ode_fill_pool(const OdeRunner *r, model_pool *pool, long long base, long count)
{
    const size_t size = (size_t)pool->size;
    for (long j = 0; j < count; j++) {
        for (int k = 0; k < ODE_NSTATE; k++) pool->states[(size_t)k * size + (size_t)j] = r->state[k];
        for (int k = 0; k < ODE_NPARAM; k++) pool->params[(size_t)k * size + (size_t)j] = r->param[k];
        long long rest = base + j;
        for (int l = r->nscan - 1; l >= 0; l--) {
            const OdeScan *sc = &r->scans[l];
            const long i = (long)(rest % sc->n);
            rest /= sc->n;
            double *dst = sc->kind == MODEL_KIND_PARAM ? pool->params : pool->states;
            dst[(size_t)sc->target * size + (size_t)j] = ode_scan_value(sc, i);
        }
    }
}

/* Rows of the chunk's systems, ordered by system then rep. */
static int ode_write_rows(OdeOutput *o, model_solver *s, long long base, int count, int record, int nfield)
{
    FILE *f = o->f;
    for (int i = 0; i < count; i++) {
        for (int rep = 0; rep < record; rep++) {
            int bad = fprintf(f, "%lld,%d", base + i, rep) < 0;
            for (int slot = 0; slot < nfield && !bad; slot++) {
                double v = 0;
                model_solver_recorded(s, rep, slot, i, &v);
                bad = ode_print_number(f, v) < 0;
            }
            int st = 0;
            model_solver_recorded_status(s, rep, i, &st);
            if (bad || fprintf(f, ",%s\n", model_status_name(st)) < 0) return ode_write_failed(o, errno ? errno : EIO);
        }
    }
    return 0;
}

static int ode_run(OdeRunner *r)
{
    /* The systems. */
    long long total = 1;
    for (int l = 0; l < r->nscan; l++) {
        if (total > LLONG_MAX / r->scans[l].n) return ode_usage("the scan has more than %lld systems", LLONG_MAX);
        total *= r->scans[l].n;
    }

    /* The backend and its devices. */
    int backend = r->backend;
    const int gpus = model_gpu_count();
    if (backend == MODEL_BACKEND_AUTO) backend = gpus > 0 || r->ndevices > 0 ? MODEL_BACKEND_GPU : MODEL_BACKEND_CPU;
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
    }

    int status = 0;
    const long long chunk = ode_chunk_size(r, backend, total, &status);
    if (status) return status;

    /* From here on SIGINT and SIGTERM remove the temporary file and exit
     * (unless they were ignored when the program started, as for a
     * background job of a shell without job control). */
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ode_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, NULL, &old_int);
    sigaction(SIGTERM, NULL, &old_term);
    if (old_int.sa_handler != SIG_IGN) sigaction(SIGINT, &sa, NULL);
    if (old_term.sa_handler != SIG_IGN) sigaction(SIGTERM, &sa, NULL);

    OdeOutput out;
    status = ode_output_open(&out, r->output);
    OdeTraj *traj = NULL;
    if (!status) status = ode_traj_open(&traj, r, total);

    OdeProgress progress;
    memset(&progress, 0, sizeof progress);
    progress.on = !r->quiet && isatty(STDERR_FILENO);
    progress.start = ode_clock();
    progress.total = total;

    model_solver *s = NULL;
    model_pool pool;
    memset(&pool, 0, sizeof pool);
    model_stats sum;
    memset(&sum, 0, sizeof sum);
    char describe[512] = "";

    /* Header. */
    if (!status && fprintf(out.f, "system,rep") < 0) status = ode_write_failed(&out, errno);
    for (int f = 0; f < r->nfield && !status; f++)
        if (fprintf(out.f, ",%s", model_name(MODEL_KIND_FIELD, r->fields[f])) < 0) status = ode_write_failed(&out, errno);
    if (!status && fprintf(out.f, ",status\n") < 0) status = ode_write_failed(&out, errno);

    if (!status) {
        pool.size = (long)chunk;
        pool.states = (double *)malloc(ode_bytes((size_t)chunk, ODE_NSTATE, sizeof(double)));
        pool.params = (double *)malloc(ode_bytes((size_t)chunk, ODE_NPARAM, sizeof(double)));
        if (!pool.states || !pool.params) status = ode_runtime("out of memory for a pool of %lld systems", chunk);
    }
    for (long long base = 0; base < total && !status; base += chunk) {
        const int count = (int)(total - base < chunk ? total - base : chunk);
        if (!s || model_solver_size(s) != count) {
            model_solver_free(s);
            const int rc = model_solver_create(&s, count, backend, r->ndevices ? r->devices : NULL, r->ndevices);
            if (rc != MODEL_OK) {
                status = ode_runtime("%s", model_solver_error(s));
                break;
            }
            snprintf(describe, sizeof describe, "%s", model_solver_describe(s));
            model_solver_set_fields(s, r->fields, r->nfield);
            if (r->block) model_solver_set_block(s, r->block);
            model_solver_set_balance(s, r->balance);
            if (progress.on) model_solver_set_progress(s, ode_progress, &progress);
        }
        status = ode_traj_chunk(traj, s, base, count);
        if (status) break;
        ode_fill_pool(r, &pool, base, count);
        progress.base = base;
        int rc = model_solver_load(s, &pool, 0, 0, count);
        if (rc == MODEL_OK) rc = model_solver_scan(s, (int)r->transient, (int)r->record, NULL, NULL);
        if (rc != MODEL_OK) {
            status = ode_runtime("%s", model_solver_error(s));
            break;
        }
        model_stats st;
        model_solver_stats(s, &st);
        sum.steps += st.steps;
        sum.evals += st.evals;
        for (int k = 0; k < MODEL_NSTATUS; k++) sum.count[k] += st.count[k];
        status = ode_write_rows(&out, s, base, count, (int)r->record, r->nfield);
        if (!status) status = ode_traj_write(traj, s, r, base, count);
    }
    model_solver_free(s);
    free(pool.states);
    free(pool.params);
    if (progress.shown) fputs("\r\033[K", stderr);

    if (!status) status = ode_output_close(&out);
    if (!status) status = ode_traj_close(traj);
    ode_output_free(&out);
    ode_traj_free(traj);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);

    if (!status && !r->quiet) {
        fprintf(stderr, "%s: %lld system%s, %llu steps, %.3g s, %s;", ODE_MODEL_NAME, total, total == 1 ? "" : "s",
                sum.steps, ode_clock() - progress.start, describe);
        int first = 1;
        for (int k = 0; k < MODEL_NSTATUS; k++) {
            if (sum.count[k] == 0) continue;
            fprintf(stderr, "%s %s %ld", first ? "" : ",", model_status_name(k), sum.count[k]);
            first = 0;
        }
        fputc('\n', stderr);
    }
    return status;
}

int model_main(int argc, char **argv)
{
    OdeRunner r;
    memset(&r, 0, sizeof r);
    r.backend = MODEL_BACKEND_AUTO;
    r.transient = ODE_DEFAULT_TRANSIENT;
    r.record = ODE_DEFAULT_RECORD;
    r.nfield = model_default_fields(r.fields);
    for (int k = 0; k < ODE_NPARAM; k++) r.param[k] = ode_param_default[k];
    for (int k = 0; k < ODE_NSTATE; k++) r.state[k] = ode_state_default[k];
    int status = 0;
    if (ODE_NSCAN > 0) {
        r.scans = (OdeScan *)calloc(ODE_ALLOC(ODE_NSCAN), sizeof(OdeScan));
        if (!r.scans) status = ode_runtime("out of memory");
        for (int l = 0; l < ODE_NSCAN && !status; l++) {
            const OdeScanSpec *sp = &ode_default_scans[l];
            OdeScan *sc = &r.scans[r.nscan++];
            sc->kind = sp->target_kind == ODE_TARGET_STATE ? MODEL_KIND_STATE : MODEL_KIND_PARAM;
            sc->target = sp->target;
            sc->type = sp->kind;
            sc->a = sp->a;
            sc->b = sp->b;
            sc->n = sp->n;
            sc->values = sp->values;
        }
    }
    if (!status) status = ode_parse_args(&r, argc, argv);
    if (status == 0) status = ode_run(&r);
    if (status < 0) status = 0;   /* --help */
    for (int l = 0; l < r.nscan; l++) free(r.scans[l].owned);
    free(r.scans);
    return status;
}
