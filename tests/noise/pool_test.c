/* pool_test.c — the library's noise index (api.h, "Random numbers"): a pool
 * entry loaded into any slot of any solver draws as the runner's system of
 * the entry's index, so its recorded values are the runner's bit for bit;
 * MODEL_KIND_NOISE_INDEX set by hand does the same; another index draws
 * otherwise.
 *
 *   pool_test REF.csv   (the runner's rows of the scan k=lin(0,1,600),
 *                        fields v,u,z,spikes,k; tests/noise/repro.sh)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draws.h"

#define NSYS 600
#define NREC 2
static double ref[NSYS][NREC][5];   /* v, u, z, spikes, k of each system and recorded integration */

static int fails;
static void check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    fails += !ok;
}

static int read_ref(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (!f || !fgets(line, sizeof line, f)) return 0;   /* header: system,rep,v,u,z,spikes,k,status */
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        int sys, rep;
        double v[5];
        if (sscanf(line, "%d,%d,%lf,%lf,%lf,%lf,%lf", &sys, &rep, &v[0], &v[1], &v[2], &v[3], &v[4]) != 7) return 0;
        if (sys < 0 || sys >= NSYS || rep < 0 || rep >= NREC) return 0;
        memcpy(ref[sys][rep], v, sizeof v);
        n++;
    }
    fclose(f);
    return n == NSYS * NREC;
}

int main(int argc, char **argv)
{
    if (argc != 2 || !read_ref(argv[1])) {
        fprintf(stderr, "pool_test: cannot read %s\n", argc > 1 ? argv[1] : "(no file)");
        return 2;
    }
    /* the pool: every system of the scan, its k from the runner's rows */
    draws_pool pool;
    if (draws_pool_create(&pool, NSYS) != DRAWS_OK) return 2;
    for (long j = 0; j < NSYS; j++) pool.params[DRAWS_PARAM_K * NSYS + j] = ref[j][0][4];
    /* a solver of 50 slots, loaded with entries in an order of their own */
    const int n = 50;
    draws_solver *s = NULL;
    if (draws_solver_create(&s, n, DRAWS_BACKEND_CPU, NULL, 0) != DRAWS_OK) return 2;
    int codes[4] = {DRAWS_FIELD_V, DRAWS_FIELD_U, DRAWS_FIELD_Z, DRAWS_FIELD_SPIKES};
    draws_solver_set_fields(s, codes, 4);
    long entries[50];
    for (int i = 0; i < n; i++) entries[i] = (long)((i * 37 + 11) % NSYS);   /* scattered, in no order */
    int rc = draws_solver_load_indexed(s, &pool, entries, NULL, n);
    if (rc == DRAWS_OK) rc = draws_solver_scan(s, 1, NREC, NULL, NULL);
    check(rc == DRAWS_OK, "50 scattered pool entries loaded and scanned");
    int same = 1;
    for (int rep = 0; rep < NREC; rep++)
        for (int f = 0; f < 4; f++) {
            double out[50];
            draws_solver_recorded_values(s, rep, f, 0, n, out, 1);
            for (int i = 0; i < n; i++) same &= out[i] == ref[entries[i]][rep][f];
        }
    check(same, "each entry's v, u, z, spikes: the runner's system of its index, bit for bit");
    double index = -1;
    draws_solver_get(s, DRAWS_KIND_NOISE_INDEX, 0, 3, &index);
    check(index == (double)entries[3], "MODEL_KIND_NOISE_INDEX of a loaded slot is its entry's index");

    /* a fresh load, then the noise index set by hand: system 123's numbers in slot 0 */
    rc = draws_solver_load(s, &pool, 123, 0, 1);
    if (rc == DRAWS_OK) rc = draws_solver_set(s, DRAWS_KIND_NOISE_INDEX, 0, 0, 123.0);
    if (rc == DRAWS_OK) rc = draws_solver_scan(s, 1, NREC, NULL, NULL);
    double v = 0;
    draws_solver_recorded_values(s, NREC - 1, 0, 0, 1, &v, 1);
    check(rc == DRAWS_OK && v == ref[123][NREC - 1][0], "noise index set to 123: the runner's system 123");
    rc = draws_solver_load(s, &pool, 123, 0, 1);
    if (rc == DRAWS_OK) rc = draws_solver_set(s, DRAWS_KIND_NOISE_INDEX, 0, 0, 124.0);
    if (rc == DRAWS_OK) rc = draws_solver_scan(s, 1, NREC, NULL, NULL);
    draws_solver_recorded_values(s, NREC - 1, 0, 0, 1, &v, 1);
    check(rc == DRAWS_OK && v != ref[123][NREC - 1][0], "system 123's values with noise index 124: other numbers");
    rc = draws_solver_set(s, DRAWS_KIND_NOISE_INDEX, 0, 0, 17592186044416.0);
    check(rc == DRAWS_ERR_ARG, "a noise index of 2^44 is refused");
    draws_solver_free(s);
    draws_pool_destroy(&pool);
    printf("pool_test: %s\n", fails ? "FAIL" : "PASS");
    return fails != 0;
}
