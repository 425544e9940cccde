/* runner_save.c — the runner's `save` samples (SPEC §4): FILE.traj.csv, with
 * the header `system,rep,t,<fields…>` and one row per sample, ordered by
 * system, then rep, then time.  Appended after runner.c (same translation
 * unit: it uses the runner's OdeRunner and OdeOutput); runner.c's ode_run
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

struct OdeTraj {
    int on;                  /* the model saves, the run records: samples are written */
    OdeOutput out;
    char *path;              /* where they go */
    int *slots;              /* the chunk's sampled systems (resident slots) */
    long long dropped;       /* samples beyond the capacity */
    long long first_system;  /* where the first were dropped */
    int first_rep, cap;
    long beyond;             /* listed systems beyond this run's scan */
};

/* The number of systems the save line lists (0: every system). */
static int ode_traj_nlisted(void) { return ODE_NSAVE_SYSTEMS; }

/* FILE with its .csv, .h5 or .hdf5 extension replaced by .traj.csv. */
static char *ode_traj_path(const char *output)
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
    char *p = (char *)malloc(n + sizeof ".traj.csv");
    if (p) {
        memcpy(p, output, n);
        memcpy(p + n, ".traj.csv", sizeof ".traj.csv");
    }
    return p;
}

/* Bytes one sampled system's samples take (host; the device holds as
 * much), for the chunk size. */
static double ode_traj_bytes_per_system(const OdeRunner *r)
{
    if (!ODE_SAVE || r->record == 0) return 0;
    const double cap = ODE_SAVE_MAX > 0 ? (double)ODE_SAVE_MAX
                                        : floor((double)ODE_OPT_TOTAL / (double)ODE_SAVE_EVERY * (1 + 1e-12)) + 1;
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
    if (r->output && strcmp(r->output, "-") != 0) {
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
            tr->path = ode_traj_path(r->output);
        }
    } else {
        tr->path = ode_traj_path(ODE_MODEL_NAME);
        if (tr->path && !r->quiet)
            fprintf(stderr, "%s: save: the samples go to %s (the rows to standard output)\n", ODE_MODEL_NAME, tr->path);
    }
    if (!tr->path) return ode_runtime("out of memory");
    int status = ode_output_open(&tr->out, tr->path);
    if (status) return status;
    tr->on = 1;
    if (fprintf(tr->out.f, "system,rep,t") < 0) return ode_write_failed(&tr->out, errno);
    for (int f = 0; f < r->nfield; f++)
        if (fprintf(tr->out.f, ",%s", model_name(MODEL_KIND_FIELD, r->fields[f])) < 0)
            return ode_write_failed(&tr->out, errno);
    if (fputc('\n', tr->out.f) == EOF) return ode_write_failed(&tr->out, errno);
    return 0;
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
                int bad = fprintf(f, "%lld,%d", base + i, rep) < 0 || ode_print_number(f, t) < 0;
                for (int k = 0; k < r->nfield && !bad; k++) bad = ode_print_number(f, v[k]) < 0;
                if (bad || fputc('\n', f) == EOF) status = ode_write_failed(&tr->out, errno ? errno : EIO);
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
    int status = ode_output_close(&tr->out);
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
    if (tr->on || tr->out.f) ode_output_free(&tr->out);
    free(tr->path);
    free(tr->slots);
    free(tr);
}
