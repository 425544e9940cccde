/* bench_model.c — times one generated model's whole scan on the GPU through
 * its C API (compiled per model: -DMODEL=duffing -DUMODEL=DUFFING, linked with
 * the model's object).  Only model_solver_scan is timed: one launch of all
 * repetitions, with the copies of states in and out; the CUDA context and the
 * solver are made before (and warmed up on a small scan).  With BENCH_AGAIN
 * set, the scan is called a second time on the same solver (again_*: what
 * repeated calls pay around their kernel; 0 otherwise).
 *
 *   bench_NAME N TRANSIENT RECORD BALANCE BLOCK SCAN…
 *   SCAN: name=lin:a:b:n | name=log:a:b:n | name=list:v1:v2:…  (product, last fastest;
 *         name a parameter, or else a state's initial value;
 *         a single lin/log scan with n=0 takes n = N)
 * Prints one JSON object: seconds, steps, evals, statuses.
 * BENCH_BACKEND=cpu runs it on the CPU instead (a smoke test of a bench
 * script where there is no GPU; compile the model with cc -x c then).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PASTE2(a, b) a##_##b
#define PASTE(a, b) PASTE2(a, b)
#define API(f) PASTE(MODEL, f)
#define K(c) PASTE(UMODEL, c)
#define STR2(x) #x
#define STR(x) STR2(x)
#include STR(MODEL.h)

typedef struct Axis {
    int kind;                 /* a parameter, or an initial state */
    int param;
    long n;
    double *v;
} Axis;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void parse_axis(const char *spec, long N, Axis *ax)
{
    char name[64], kind[8];
    const char *eq = strchr(spec, '='), *c1 = eq ? strchr(eq, ':') : NULL;
    if (!eq || !c1 || eq - spec >= 64 || c1 - eq - 1 >= 8) { fprintf(stderr, "bad scan '%s'\n", spec); exit(2); }
    memcpy(name, spec, eq - spec); name[eq - spec] = 0;
    memcpy(kind, eq + 1, c1 - eq - 1); kind[c1 - eq - 1] = 0;
    ax->kind = K(KIND_PARAM);
    ax->param = API(index)(K(KIND_PARAM), name);
    if (ax->param < 0) {      /* an initial state (a unit's, in a coupled model) */
        ax->kind = K(KIND_STATE);
        ax->param = API(index)(K(KIND_STATE), name);
    }
    if (ax->param < 0) { fprintf(stderr, "no parameter or state '%s'\n", name); exit(2); }
    double x[1024];
    int k = 0;
    for (const char *p = c1; p && *p == ':' && k < 1024; p = strchr(p + 1, ':')) x[k++] = atof(p + 1);
    if (!strcmp(kind, "list")) {
        ax->n = k;
        ax->v = malloc(sizeof(double) * k);
        memcpy(ax->v, x, sizeof(double) * k);
        return;
    }
    ax->n = (long)x[2] ? (long)x[2] : N;
    ax->v = malloc(sizeof(double) * ax->n);
    for (long i = 0; i < ax->n; i++) {
        double f = ax->n > 1 ? (double)i / (ax->n - 1) : 0;
        ax->v[i] = !strcmp(kind, "log") ? x[0] * pow(x[1] / x[0], f) : x[0] + (x[1] - x[0]) * f;
    }
}

int main(int argc, char **argv)
{
    if (argc < 7) { fprintf(stderr, "usage: %s N TRANSIENT RECORD BALANCE BLOCK SCAN…\n", argv[0]); return 2; }
    long N = atol(argv[1]);
    int transient = atoi(argv[2]), record = atoi(argv[3]), balance = atoi(argv[4]), block = atoi(argv[5]);
    int naxis = argc - 6;
    Axis ax[8];
    long total = 1;
    for (int a = 0; a < naxis && a < 8; a++) { parse_axis(argv[6 + a], N, &ax[a]); total *= ax[a].n; }
    N = total;
    int device = 0;
    const char *on = getenv("BENCH_BACKEND");
    const int backend = on && !strcmp(on, "cpu") ? K(BACKEND_CPU) : K(BACKEND_GPU);
    API(solver) *s = NULL, *warm = NULL;
    if (API(solver_create)(&warm, 256, backend, &device, 1) != K(OK)) {
        fprintf(stderr, "%s\n", API(solver_error)(warm));
        return 1;
    }
    API(solver_scan)(warm, 1, 0, NULL, NULL);   /* context, module load, first launch */
    API(solver_free)(warm);
    if (API(solver_create)(&s, (int)N, backend, &device, 1) != K(OK)) {
        fprintf(stderr, "%s\n", API(solver_error)(s));
        return 1;
    }
    API(solver_set_balance)(s, balance);
    if (block) API(solver_set_block)(s, block);
    for (long i = 0; i < N; i++) {           /* system i: the scan's point i, last axis fastest */
        long rest = i;
        for (int a = naxis - 1; a >= 0; a--) {
            API(solver_set)(s, ax[a].kind, ax[a].param, (int)i, ax[a].v[rest % ax[a].n]);
            rest /= ax[a].n;
        }
    }
    double t0 = now();
    int rc = API(solver_scan)(s, transient, record, NULL, NULL);
    double t1 = now();
    if (rc != K(OK)) { fprintf(stderr, "%s\n", API(solver_error)(s)); return 1; }
    API(stats) st;
    API(solver_stats)(s, &st);
    /* With BENCH_AGAIN set, a second call on the same solver (nothing changed
     * on the host): what a library user who calls scan repeatedly pays around
     * the kernel. */
    double t2 = 0, t3 = 0;
    API(stats) again;
    memset(&again, 0, sizeof again);
    if (getenv("BENCH_AGAIN")) {
        t2 = now();
        rc = API(solver_scan)(s, transient, record, NULL, NULL);
        t3 = now();
        if (rc != K(OK)) { fprintf(stderr, "%s\n", API(solver_error)(s)); return 1; }
        API(solver_stats)(s, &again);
    }
    printf("{\"model\": \"%s\", \"N\": %ld, \"transient\": %d, \"record\": %d, \"balance\": %d, \"block\": %d, "
           "\"seconds\": %.6f, \"wall_seconds\": %.6f, \"again_seconds\": %.6f, \"again_wall_seconds\": %.6f, "
           "\"steps\": %llu, \"evals\": %llu, \"statuses\": [",
           STR(MODEL), N, transient, record, balance, block, st.kernel_seconds, t1 - t0, again.kernel_seconds, t3 - t2,
           st.steps, st.evals);
    for (int k = 0; k < K(NSTATUS); k++) printf("%s%ld", k ? ", " : "", st.count[k]);
    printf("]}\n");
    API(solver_free)(s);
    return 0;
}
