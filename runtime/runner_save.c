/* runner_save.c — the runner's `save` samples (SPEC §4): FILE.traj.csv, with
 * the header `system,rep,t,<fields…>` and one row per sample, ordered by
 * system, then rep, then time.  Appended after runner.c (same translation
 * unit: it uses the runner's OdeRunner); runner.c's ode_run
 * calls these functions.
 *
 * Where the samples go: `-o out.csv` (or `out`, `out.h5`): out.traj.csv next
 * to it; standard output: NAME.traj.csv in the current directory, said on
 * standard error; `-o /dev/null`: /dev/null; another device or pipe: nowhere
 * (said on standard error).  Like the rows, the file is written under a
 * temporary name and renamed when complete.  Samples that an integration's
 * window held beyond the capacity per integration (`save max=N`, else the
 * window at the start) are counted and reported at the end, never dropped
 * silently.
 */
#ifndef ODEGEN_GENERATED
#include "runner.c"
#endif

/* The samples' file: written through stdio under a temporary name next to
 * the final one (through symbolic links: next to the file they lead to;
 * registered for removal on a stop signal or a crash, output.c), and renamed
 * when complete; a device (/dev/null) is written in place. */
typedef struct OdeSideFile {
    FILE *f;
    const char *path;        /* final name, as given */
    char *target;            /* the file it replaces (where path's links lead) */
    char *tmp;               /* temporary name, or NULL (written in place) */
    char error[600];
} OdeSideFile;

static int ode_side_failed(OdeSideFile *o, int err)
{
    snprintf(o->error, sizeof o->error, "cannot write '%s': %s", o->path, strerror(err));
    return ode_runtime("%s", o->error);
}

static int ode_side_open(OdeSideFile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    int fd = -1;
    const char *why;
    const int err = ode_place_open(path, NULL, 0, ode_signal_side_path, &o->target, &o->tmp, &fd, &why);   /* (output.c) */
    if (err) return ode_side_failed(o, err);
    if (!(o->f = fdopen(fd, "w"))) {
        const int e = errno;
        close(fd);
        return ode_side_failed(o, e);
    }
    return 0;
}

/* Flush, sync, close, rename: 0 or the exit status. */
static int ode_side_close(OdeSideFile *o)
{
    FILE *f = o->f;
    o->f = NULL;
    int err = 0;
    if (fflush(f) != 0 || ferror(f)) err = errno ? errno : EIO;
    if (!err && o->tmp && fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS) err = errno;
    if (fclose(f) != 0 && !err) err = errno;
    if (!err && o->tmp && rename(o->tmp, o->target) != 0) err = errno;
    if (err) return ode_side_failed(o, err);
    ode_signal_side_path[0] = 0;
    return 0;
}

static void ode_side_free(OdeSideFile *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp && ode_signal_side_path[0]) unlink(o->tmp);
    ode_signal_side_path[0] = 0;
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
}

/* ",value" in the rows' own form (the shortest text that reads back). */
static int ode_side_number(FILE *f, double v)
{
    char text[40];
    text[0] = ',';
    const int n = ode_format_double(text + 1, v);
    return fwrite(text, 1, (size_t)n + 1, f) == (size_t)n + 1 ? 0 : -1;
}

struct OdeTraj {
    int on;                  /* the model saves, the run records: samples are written */
    OdeSideFile out;
    char *path;              /* where they go */
    int *slots;              /* the chunk's sampled systems (resident slots) */
    long long dropped;       /* samples beyond the capacity */
    long long first_system;  /* where the first were dropped */
    int first_rep, cap;
    long beyond;             /* listed systems beyond this run's scan */
};

/* The number of systems the save line lists (0: every system). */
static int ode_traj_nlisted(void) { return ODE_NSAVE_SYSTEMS; }

/* FILE with its .csv, .h5 or .hdf5 extension replaced by `suffix` (".traj.csv"). */
static char *ode_side_path(const char *output, const char *suffix)
{
    const char *ext[] = {".csv", ".h5", ".hdf5"};
    size_t n = strlen(output);
    for (int k = 0; k < 3; k++) {
        const size_t e = strlen(ext[k]);
        if (n > e && strcmp(output + n - e, ext[k]) == 0) {
            n -= e;
            break;
        }
    }
    const size_t ns = strlen(suffix) + 1;
    char *p = (char *)malloc(n + ns);
    if (p) {
        memcpy(p, output, n);
        memcpy(p + n, suffix, ns);
    }
    return p;
}

/* Samples an integration keeps: save max=N, else those of the window. */
static double ode_traj_capacity(const OdeRunner *r)
{
    return ODE_SAVE_MAX > 0 ? (double)ODE_SAVE_MAX : floor(r->opt[ODE_OPTION_TOTAL] / model_save_every() * (1 + 1e-12)) + 1;
}

/* More samples per integration than a system can keep (the library's
 * limit, save.c): refused before anything is allocated, with the numbers;
 * 0 or the exit status. */
#define ODE_TRAJ_MOST 2e9
static int ode_traj_too_many(const OdeRunner *r)
{
    if (model_save_every() <= 0 || r->record == 0 || ode_traj_capacity(r) <= ODE_TRAJ_MOST) return 0;
    char every[40], total[40];
    return ode_runtime("save every=%s over a window of total=%s takes %.3g samples per integration, more than the "
                       "%.0f a system can keep: save less often (every=), or cap the samples (save max=N)",
                       ode_short(every, sizeof every, model_save_every()),
                       ode_short(total, sizeof total, r->opt[ODE_OPTION_TOTAL]), ode_traj_capacity(r), ODE_TRAJ_MOST);
}

/* Bytes one sampled system's samples take (host; the device holds as
 * much), for the chunk size. */
static double ode_traj_bytes_per_system(const OdeRunner *r)
{
    if (!ODE_SAVE || r->record == 0) return 0;
    const double cap = ode_traj_capacity(r);
    return (double)r->record * (cap * (double)(r->nfield + 1) * (double)sizeof(ode_real) + (double)sizeof(unsigned int));
}

/* Opens the samples' file and writes its header (nothing when the model
 * has no `save` line or the run records nothing); 0 or an exit status.
 * *trp is to be freed with ode_traj_free in every case. */
static int ode_traj_open(OdeTraj **trp, const OdeRunner *r, long long total)
{
    OdeTraj *tr = *trp = (OdeTraj *)calloc(1, sizeof(OdeTraj));
    if (!tr) return ode_runtime("out of memory");
    if (model_save_every() <= 0 || r->record == 0) return 0;   /* (a call, not ODE_SAVE: no "unreachable" warnings) */
    for (int k = 0; k < ode_traj_nlisted(); k++)
        if (ode_save_systems[k] >= total) tr->beyond++;
    if (tr->beyond && !r->quiet)
        fprintf(stderr, "%s: save: %ld of the systems listed in the save line lie beyond this run's %lld system%s\n",
                ODE_MODEL_NAME, tr->beyond, total, total == 1 ? "" : "s");
    char *target = NULL;
    int descriptor = -1;
    if (r->output && strcmp(r->output, "-") != 0 && ode_output_target(r->output, &target, &descriptor) == ENOMEM)
        return ode_runtime("out of memory");
    free(target);
    if (r->output && strcmp(r->output, "-") != 0 && descriptor < 0) {   /* (-o /dev/stdout: as standard output) */
        struct stat st;
        if (strcmp(r->output, "/dev/null") == 0) {
            tr->path = (char *)malloc(sizeof "/dev/null");
            if (tr->path) memcpy(tr->path, "/dev/null", sizeof "/dev/null");
        } else if (stat(r->output, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
            if (!r->quiet)
                fprintf(stderr, "%s: save: the output is a device or a pipe; the samples are not written\n",
                        ODE_MODEL_NAME);
            return 0;
        } else {
            tr->path = ode_side_path(r->output, ".traj.csv");
        }
    } else {
        tr->path = ode_side_path(ODE_MODEL_NAME, ".traj.csv");
        if (tr->path && !r->quiet)
            fprintf(stderr, "%s: save: the samples go to %s (the rows to standard output)\n", ODE_MODEL_NAME, tr->path);
    }
    if (!tr->path) return ode_runtime("out of memory");
    int status = ode_side_open(&tr->out, tr->path);
    if (status) return status;
    tr->on = 1;
    if (fprintf(tr->out.f, "system,rep,t") < 0) return ode_side_failed(&tr->out, errno);
    for (int f = 0; f < r->nfield; f++)
        if (fprintf(tr->out.f, ",%s", model_name(MODEL_KIND_FIELD, r->fields[f])) < 0)
            return ode_side_failed(&tr->out, errno);
    if (fputc('\n', tr->out.f) == EOF) return ode_side_failed(&tr->out, errno);
    return 0;
}

/* `save` with --checkpoint or MPI: refused (1, said) rather than samples
 * silently missing — a resumed run's earlier systems, or the ranks' samples,
 * would not reach FILE.traj.csv. */
static int ode_traj_refused(const OdeRunner *r, const char *with)
{
    if (model_save_every() <= 0 || r->record == 0) return 0;
    ode_usage("the model's save line cannot be used with %s: its samples are not kept in checkpoints nor sent "
              "between MPI ranks (run the trajectories you want to see without it)", with);
    return 1;
}

/* The chunk's systems base … base+count-1 to sample (the save line's list,
 * or all) on solver s. */
static int ode_traj_chunk(OdeTraj *tr, model_solver *s, long long base, int count)
{
    if (!tr || !tr->on) return 0;
    int *slots = (int *)realloc(tr->slots, sizeof(int) * (size_t)(count > 0 ? count : 1));
    if (!slots) return ode_runtime("out of memory");
    tr->slots = slots;
    int n = 0;
    if (ode_traj_nlisted() == 0) {
        for (int i = 0; i < count; i++) slots[n++] = i;
    } else {
        for (int k = 0; k < ode_traj_nlisted(); k++)
            if (ode_save_systems[k] >= base && ode_save_systems[k] < base + count)
                slots[n++] = (int)(ode_save_systems[k] - base);
    }
    if (model_solver_set_save(s, ODE_SAVE_EVERY, (int)ODE_SAVE_MAX, slots, n) != MODEL_OK)
        return ode_runtime("%s", model_solver_error(s));
    return 0;
}

/* The chunk's samples, by system, then rep, then time. */
static int ode_traj_write(OdeTraj *tr, model_solver *s, const OdeRunner *r, long long base, int count)
{
    if (!tr || !tr->on) return 0;
    FILE *f = tr->out.f;
    double *v = (double *)malloc(sizeof(double) * (size_t)(r->nfield > 0 ? r->nfield : 1));
    if (!v) return ode_runtime("out of memory");
    int status = 0;
    for (int i = 0; i < count && !status; i++) {
        if (ode_traj_nlisted() > 0) {   /* only the listed systems */
            int listed = 0;
            for (int k = 0; k < ode_traj_nlisted(); k++) listed |= ode_save_systems[k] == base + i;
            if (!listed) continue;
        }
        for (int rep = 0; rep < (int)r->record && !status; rep++) {
            int kept = 0, due = 0;
            if (model_solver_saved_count(s, rep, i, &kept, &due) != MODEL_OK) {
                status = ode_runtime("%s", model_solver_error(s));
                break;
            }
            if (due > kept) {
                if (tr->dropped == 0) {
                    tr->first_system = base + i;
                    tr->first_rep = rep;
                    tr->cap = kept;
                }
                tr->dropped += due - kept;
            }
            for (int j = 0; j < kept && !status; j++) {
                double t = 0;
                model_solver_saved(s, rep, i, j, &t, v);
                int bad = fprintf(f, "%lld,%d", base + i, rep) < 0 || ode_side_number(f, t) < 0;
                for (int k = 0; k < r->nfield && !bad; k++) bad = ode_side_number(f, v[k]) < 0;
                if (bad || fputc('\n', f) == EOF) status = ode_side_failed(&tr->out, errno ? errno : EIO);
            }
        }
    }
    free(v);
    return status;
}

/* Completes the samples' file; says how many samples the capacity cut. */
static int ode_traj_close(OdeTraj *tr)
{
    if (!tr || !tr->on) return 0;
    int status = ode_side_close(&tr->out);
    if (!status && tr->dropped)
        fprintf(stderr,
                "%s: save: %lld samples were not kept: integrations ran past the capacity of %d samples (first: "
                "system %lld, rep %d); raise it with save max=N\n",
                ODE_MODEL_NAME, tr->dropped, tr->cap, tr->first_system, tr->first_rep);
    return status;
}

static void ode_traj_free(OdeTraj *tr)
{
    if (!tr) return;
    ode_side_free(&tr->out);
    free(tr->path);
    free(tr->slots);
    free(tr);
}
