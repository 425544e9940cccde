/* test_lu.c — templates/team_lu.h's factorisation and solve (LU_KIND: dense
 * or band, N states, KL and KU diagonals) on random matrices with the band's
 * pattern, by emulated teams of 1 … 64 lanes in both orders: the residual
 * |W x - b| / (|W| |x| + |b|) at rounding level, and the same bits in every
 * team and order (the pivots and the arithmetic do not depend on the team);
 * a singular matrix reported as singular.  With a file name as argument, the
 * first matrix, its factors and pivots are written there for lu_lapack.py,
 * which compares them with LAPACK's (scipy's dgetrf, dgbtrf). */
#define _DEFAULT_SOURCE 1
#define ODEGEN_GENERATED 1
#define ODE_TEAM_EMULATE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ODE_FLOAT 0
#define ODE_NSTATE N
#define ODE_METHOD 9
#define ODE_LU_KIND LU_KIND
#if LU_KIND == 1
#define ODE_LU_KL KL
#define ODE_LU_KU KU
#endif
#include "prelude.h"
#include "team.h"
#include "lu_storage.h"
#define ODE_ROSENBROCK 1
#include "team_lu.h"
#include "emulate.h"
#include "emulate.c"

static double A[N][N];                          /* the matrix, dense */
static double store[ODE_LU_REALS], rhs[N];
static int piv[N], singular;

static void factor_and_solve(OdeTeam ode_team, void *arg)
{
    (void)arg;
    singular = ode_lu_factor(ode_team, store, piv);
    ode_lu_solve(ode_team, store, piv, rhs);
}

static void fill(unsigned long long seed, int zero_column)
{
    memset(store, 0, sizeof store);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            const double v = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
            const int in = LU_KIND == 0 || (i - j <= KL && j - i <= KU);
            A[i][j] = in && j != zero_column ? v : 0.0;
            if (in) store[ODE_LU_INDEX(i, j)] = A[i][j];
        }
    for (int i = 0; i < N; i++) rhs[i] = sin(1.0 + i);
}

/* The matrix, the factors (the storage as it is: row-major n x n, or LAPACK's
 * band storage) and the pivots, as text. */
static int dump(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return 1;
    fprintf(f, "%d %d %d %d %d\n", LU_KIND, N, KL, KU, ODE_LU_REALS);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) fprintf(f, "%.17g\n", A[i][j]);
    for (int q = 0; q < ODE_LU_REALS; q++) fprintf(f, "%.17g\n", store[q]);
    for (int k = 0; k < N; k++) fprintf(f, "%d\n", piv[k]);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    int failures = 0;
    for (int trial = 0; trial < 4; trial++) {
        double first[ODE_LU_REALS + N];
        for (int size = 1; size <= 64; size *= 2)
            for (int order = 0; order < 2; order++) {
                fill(1000 + trial, -1);
                if (ode_team_emu_run(size, order, factor_and_solve, NULL, NULL)) failures++;
                double res = 0, norm = 0;
                for (int i = 0; i < N; i++) {
                    double s = 0, a = 0;
                    for (int j = 0; j < N; j++) s += A[i][j] * rhs[j], a += fabs(A[i][j] * rhs[j]);
                    const double b = sin(1.0 + i);
                    res = fmax(res, fabs(s - b));
                    norm = fmax(norm, a + fabs(b));
                }
                if (singular || !(res <= 1e-12 * norm * N)) {
                    printf("FAIL: team of %d (order %d), matrix %d: singular %d, residual %.3g of %.3g\n", size, order,
                           trial, singular, res, norm);
                    failures++;
                }
                double got[ODE_LU_REALS + N];
                memcpy(got, store, sizeof store);
                memcpy(got + ODE_LU_REALS, rhs, sizeof rhs);
                if (size == 1 && order == 0 && trial == 0 && argc > 1 && dump(argv[1])) {
                    printf("FAIL: %s not written\n", argv[1]);
                    failures++;
                }
                if (size == 1 && order == 0) memcpy(first, got, sizeof got);
                else if (memcmp(first, got, sizeof got)) {
                    printf("FAIL: team of %d (order %d): other bits than a team of one\n", size, order);
                    failures++;
                }
            }
    }
    fill(7, N / 2);                             /* a zero column: singular */
    ode_team_emu_run(4, 0, factor_and_solve, NULL, NULL);
    if (!singular) {
        printf("FAIL: a singular matrix was not reported\n");
        failures++;
    }
    printf("LU %s, n = %d%s: %s\n", LU_KIND == 0 ? "dense" : "band", N,
           LU_KIND == 0 ? "" : " (kl, ku as given)", failures ? "FAILED" : "passed");
    return failures != 0;
}
