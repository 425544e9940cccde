/* wp_model.c — one point of the work–precision comparison (workprecision.py):
 * runs one generated model's scan through its C API, on the GPU or the CPU,
 * and writes what it recorded so that the achieved error can be measured
 * (compiled per model: -DMODEL=duffing -DUMODEL=DUFFING, linked with the
 * model's object).
 *
 *   wp_NAME BACKEND N TRANSIENT RECORD OUT NAME=lin:A:B
 *     BACKEND  gpu or cpu
 *     OUT      the recorded fields as doubles, [rep][field][system]
 * Prints one JSON object: kernel seconds (model_stats.kernel_seconds), wall
 * seconds of the scan call, steps, evaluations, statuses.
 */
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

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s gpu|cpu N TRANSIENT RECORD OUT NAME=lin:A:B\n", argv[0]);
        return 2;
    }
    const int backend = strcmp(argv[1], "gpu") == 0 ? K(BACKEND_GPU) : K(BACKEND_CPU);
    const int n = atoi(argv[2]), transient = atoi(argv[3]), record = atoi(argv[4]);
    char name[64];
    double a, b;
    const char *eq = strchr(argv[6], '=');
    if (!eq || eq - argv[6] >= 64 || sscanf(eq + 1, "lin:%lf:%lf", &a, &b) != 2) {
        fprintf(stderr, "bad scan '%s'\n", argv[6]);
        return 2;
    }
    memcpy(name, argv[6], eq - argv[6]);
    name[eq - argv[6]] = 0;
    const int param = API(index)(K(KIND_PARAM), name);
    if (param < 0) {
        fprintf(stderr, "no parameter '%s'\n", name);
        return 2;
    }
    int device = 0;
    API(solver) *s = NULL;
    if (backend == K(BACKEND_GPU)) {   /* context, module load, first launch: not timed */
        API(solver) *warm = NULL;
        if (API(solver_create)(&warm, 256, backend, &device, 1) != K(OK)) {
            fprintf(stderr, "%s\n", API(solver_error)(warm));
            return 1;
        }
        API(solver_scan)(warm, 1, 0, NULL, NULL);
        API(solver_free)(warm);
    }
    if (API(solver_create)(&s, n, backend, &device, 1) != K(OK)) {
        fprintf(stderr, "%s\n", API(solver_error)(s));
        return 1;
    }
    for (int i = 0; i < n; i++)
        API(solver_set)(s, K(KIND_PARAM), param, i, n > 1 ? a + (b - a) * i / (n - 1) : a);
    const double t0 = now();
    if (API(solver_scan)(s, transient, record, NULL, NULL) != K(OK)) {
        fprintf(stderr, "%s\n", API(solver_error)(s));
        return 1;
    }
    const double t1 = now();
    const int nfield = API(solver_get_fields)(s, NULL);
    FILE *f = fopen(argv[5], "wb");
    if (!f) {
        perror(argv[5]);
        return 1;
    }
    double *row = malloc(sizeof(double) * (size_t)n);
    for (int r = 0; r < record; r++)
        for (int k = 0; k < nfield; k++) {
            for (int i = 0; i < n; i++) API(solver_recorded)(s, r, k, i, &row[i]);
            fwrite(row, sizeof(double), (size_t)n, f);
        }
    free(row);
    if (fclose(f) != 0) {
        perror(argv[5]);
        return 1;
    }
    API(stats) st;
    API(solver_stats)(s, &st);
    printf("{\"seconds\": %.6f, \"wall_seconds\": %.6f, \"steps\": %llu, \"evals\": %llu, \"nfield\": %d, \"statuses\": [",
           st.kernel_seconds, t1 - t0, st.steps, st.evals, nfield);
    for (int k = 0; k < K(NSTATUS); k++) printf("%s%ld", k ? ", " : "", st.count[k]);
    printf("]}\n");
    API(solver_free)(s);
    return 0;
}
