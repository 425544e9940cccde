/* scan_test.c — the library's model_mpi_scan (api.h) on the model
 * tests/mpi/uneven.ode, under mpirun -n R:
 *   1. a scan of N systems from a pool, spread over the processes, each
 *      keeping its chunks' recorded values: summed over the processes (every
 *      system counted once), they equal one process's model_solver_scan of
 *      the whole pool, bit for bit; every chunk loaded once; processes whose
 *      systems are cheap take more of them;
 *   2. a collect callback that fails on process 1: process 1 gets its value,
 *      every other MODEL_ERR_MPI with a message naming process 1.
 * Prints "scan_test: …" lines; exit status 0 when all passed (on every
 * process).  Built by tests/mpi/run.sh with mpicc against libuneven.a. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uneven.h"

#define N 700
#define TRANSIENT 1
#define RECORD 2

typedef struct Ctx {
    const uneven_pool *pool;
    double *y;          /* [N * RECORD]: this process's systems, 0 elsewhere */
    int *loaded;        /* [N]: times each system was loaded here */
    int fail_on;        /* the process whose collect fails (-1: none) */
    int rank;
    long chunks;
} Ctx;

static int load(uneven_solver *s, long long first, int count, void *user)
{
    Ctx *c = (Ctx *)user;
    for (int i = 0; i < count; i++) c->loaded[first + i]++;
    return uneven_solver_load(s, c->pool, (long)first, 0, count);
}

static int collect(uneven_solver *s, long long first, int count, void *user)
{
    Ctx *c = (Ctx *)user;
    c->chunks++;
    if (c->rank == c->fail_on) return 7;
    for (int r = 0; r < RECORD; r++) {
        const int rc = uneven_solver_recorded_values(s, r, 0, 0, count, c->y + first * RECORD + r, RECORD);
        if (rc != UNEVEN_OK) return rc;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int provided, rank, size, failures = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    uneven_pool pool;
    uneven_pool_create(&pool, N);
    for (long j = 0; j < N; j++) {   /* w from 1 to 1000, log-spaced: the costly ones at the end */
        pool.params[UNEVEN_PARAM_W * N + j] = 1.0;
        for (long k = 0; k < j; k++) pool.params[UNEVEN_PARAM_W * N + j] *= 1.0099;
    }
    Ctx c;
    memset(&c, 0, sizeof c);
    c.pool = &pool;
    c.rank = rank;
    c.fail_on = -1;
    c.y = (double *)calloc(N * RECORD, sizeof(double));
    c.loaded = (int *)calloc(N, sizeof(int));
    double *sum = (double *)calloc(N * RECORD, sizeof(double));
    int *loads = (int *)calloc(N, sizeof(int));

    uneven_solver *s = NULL;
    int rc = uneven_solver_create(&s, 32, UNEVEN_BACKEND_CPU, NULL, 0);
    int fields[1] = {UNEVEN_FIELD_Y};
    uneven_solver_set_fields(s, fields, 1);
    rc = uneven_mpi_scan(MPI_COMM_WORLD, s, N, TRANSIENT, RECORD, load, collect, &c);
    if (rc != UNEVEN_OK) {
        printf("scan_test: FAIL: process %d: uneven_mpi_scan returned %d: %s\n", rank, rc, uneven_solver_error(s));
        failures++;
    }
    if (uneven_solver_size(s) != 32) {
        printf("scan_test: FAIL: process %d: the solver holds %d systems after the scan, not 32\n", rank,
               uneven_solver_size(s));
        failures++;
    }
    MPI_Reduce(c.y, sum, N * RECORD, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(c.loaded, loads, N, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    long *chunks = (long *)calloc((size_t)size, sizeof(long));
    MPI_Gather(&c.chunks, 1, MPI_LONG, chunks, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        /* One process, the whole pool at once. */
        uneven_solver *all = NULL;
        uneven_solver_create(&all, N, UNEVEN_BACKEND_CPU, NULL, 0);
        uneven_solver_set_fields(all, fields, 1);
        uneven_solver_load(all, &pool, 0, 0, N);
        uneven_solver_scan(all, TRANSIENT, RECORD, NULL, NULL);
        long differ = 0, reloaded = 0;
        for (int j = 0; j < N; j++) {
            reloaded += loads[j] != 1;
            for (int r = 0; r < RECORD; r++) {
                double v;
                uneven_solver_recorded(all, r, 0, j, &v);
                differ += memcmp(&v, &sum[j * RECORD + r], sizeof v) != 0;
            }
        }
        uneven_solver_free(all);
        printf("scan_test: %d processes, chunks per process:", size);
        for (int k = 0; k < size; k++) printf(" %ld", chunks[k]);
        printf("\n");
        if (differ || reloaded) {
            printf("scan_test: FAIL: %ld values differ from one process's scan, %ld systems not loaded once\n", differ,
                   reloaded);
            failures++;
        } else {
            printf("scan_test: %d systems x %d reps equal one process's scan, bit for bit; each loaded once\n", N, RECORD);
        }
    }

    /* A collect that fails on process 1 (or 0 when alone). */
    c.fail_on = size > 1 ? 1 : 0;
    rc = uneven_mpi_scan(MPI_COMM_WORLD, s, N, TRANSIENT, RECORD, load, collect, &c);
    const char *msg = uneven_solver_error(s);
    const int want = rank == c.fail_on ? 7 : UNEVEN_ERR_MPI;
    char name[32];
    snprintf(name, sizeof name, "process %d", c.fail_on);
    if (rc != want || (rank != c.fail_on && !strstr(msg, name)) || !strstr(msg, "collect callback returned 7")) {
        printf("scan_test: FAIL: process %d: a failing collect: returned %d (wanted %d), message '%s'\n", rank, rc, want,
               msg);
        failures++;
    } else if (rank == 0) {
        printf("scan_test: a failing collect on %s: it returns 7, the others %d: '%s'\n", name, UNEVEN_ERR_MPI,
               rank == c.fail_on ? "(this one)" : msg);
    }
    int all_failures = 0;
    MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    uneven_solver_free(s);
    uneven_pool_destroy(&pool);
    free(c.y);
    free(c.loaded);
    free(sum);
    free(loads);
    free(chunks);
    MPI_Finalize();
    return all_failures ? 1 : 0;
}
