/* cvode_peer.c — SUNDIALS CVODE (BDF, Newton with a dense direct solver on the
 * exact Jacobian) on the stiff problems of tests/stiff, the independent peer
 * of odegen's rodas5p and ros3p.  The right-hand sides and Jacobians are
 * written here by hand from Hairer & Wanner (Solving ODE II, §IV.10) and the
 * Bari test set, not taken from odegen's generated code.
 *
 *   cvode_peer PROBLEM RTOL ATOL                one system: its end state, steps, time
 *   cvode_peer rober_scan RTOL ATOL N [TEND]    N ROBER systems, k1 = lin(0.02, 0.06, N)
 *                                               as bench/stiff/rober_scan.ode, looped
 *                                               (OpenMP over the systems when built with it)
 *
 * PROBLEM: rober40, rober1e11, vdp_mu1e3, vdp_mu1e6, hires, orego, vdp100.
 * Output (one line each, "key value"): y1 … yn, steps, rhs, jac, seconds;
 * for a scan: systems, steps (all), seconds, systems_per_s, sum_y3.
 *
 * Build: cc -O2 [-fopenmp] cvode_peer.c -lsundials_cvode -lsundials_nvecserial -lm
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#define NMAX 8
#define IJ(J, i, j) SM_ELEMENT_D((J), (i), (j))

typedef struct Problem {
    const char *name;
    int n;
    double t_end, p[3];
    double y0[NMAX];
    CVRhsFn rhs;
    CVLsJacFn jac;
} Problem;

/* ------------------------------------------------------------------ ROBER */
static int rober_f(double t, N_Vector Y, N_Vector F, void *ud)
{
    const double *k = ud, *y = N_VGetArrayPointer(Y);
    double *f = N_VGetArrayPointer(F);
    (void)t;
    f[0] = -k[0] * y[0] + k[2] * y[1] * y[2];
    f[2] = k[1] * y[1] * y[1];
    f[1] = -f[0] - f[2];
    return 0;
}

static int rober_j(double t, N_Vector Y, N_Vector F, SUNMatrix J, void *ud, N_Vector a, N_Vector b, N_Vector c)
{
    const double *k = ud, *y = N_VGetArrayPointer(Y);
    (void)t, (void)F, (void)a, (void)b, (void)c;
    IJ(J, 0, 0) = -k[0];
    IJ(J, 0, 1) = k[2] * y[2];
    IJ(J, 0, 2) = k[2] * y[1];
    IJ(J, 2, 0) = 0;
    IJ(J, 2, 1) = 2 * k[1] * y[1];
    IJ(J, 2, 2) = 0;
    for (int j = 0; j < 3; j++) IJ(J, 1, j) = -IJ(J, 0, j) - IJ(J, 2, j);
    return 0;
}

/* ------------------------------------------------------------------ Van der Pol, Hairer's scaling */
static int vdp_f(double t, N_Vector Y, N_Vector F, void *ud)
{
    const double eps = *(const double *)ud, *y = N_VGetArrayPointer(Y);
    double *f = N_VGetArrayPointer(F);
    (void)t;
    f[0] = y[1];
    f[1] = ((1 - y[0] * y[0]) * y[1] - y[0]) / eps;
    return 0;
}

static int vdp_j(double t, N_Vector Y, N_Vector F, SUNMatrix J, void *ud, N_Vector a, N_Vector b, N_Vector c)
{
    const double eps = *(const double *)ud, *y = N_VGetArrayPointer(Y);
    (void)t, (void)F, (void)a, (void)b, (void)c;
    IJ(J, 0, 0) = 0;
    IJ(J, 0, 1) = 1;
    IJ(J, 1, 0) = (-2 * y[0] * y[1] - 1) / eps;
    IJ(J, 1, 1) = (1 - y[0] * y[0]) / eps;
    return 0;
}

/* ------------------------------------------------------------------ Van der Pol, x'' - mu (1 - x²) x' + x = 0 */
static int vdpmu_f(double t, N_Vector Y, N_Vector F, void *ud)
{
    const double mu = *(const double *)ud, *y = N_VGetArrayPointer(Y);
    double *f = N_VGetArrayPointer(F);
    (void)t;
    f[0] = y[1];
    f[1] = mu * (1 - y[0] * y[0]) * y[1] - y[0];
    return 0;
}

static int vdpmu_j(double t, N_Vector Y, N_Vector F, SUNMatrix J, void *ud, N_Vector a, N_Vector b, N_Vector c)
{
    const double mu = *(const double *)ud, *y = N_VGetArrayPointer(Y);
    (void)t, (void)F, (void)a, (void)b, (void)c;
    IJ(J, 0, 0) = 0;
    IJ(J, 0, 1) = 1;
    IJ(J, 1, 0) = -2 * mu * y[0] * y[1] - 1;
    IJ(J, 1, 1) = mu * (1 - y[0] * y[0]);
    return 0;
}

/* ------------------------------------------------------------------ HIRES */
static int hires_f(double t, N_Vector Y, N_Vector F, void *ud)
{
    const double *y = N_VGetArrayPointer(Y);
    double *f = N_VGetArrayPointer(F);
    (void)t, (void)ud;
    f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
    f[1] = 1.71 * y[0] - 8.75 * y[1];
    f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
    f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
    f[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
    f[5] = -280 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
    f[6] = 280 * y[5] * y[7] - 1.81 * y[6];
    f[7] = -f[6];
    return 0;
}

static int hires_j(double t, N_Vector Y, N_Vector F, SUNMatrix J, void *ud, N_Vector a, N_Vector b, N_Vector c)
{
    const double *y = N_VGetArrayPointer(Y);
    (void)t, (void)F, (void)ud, (void)a, (void)b, (void)c;
    SUNMatZero(J);
    IJ(J, 0, 0) = -1.71, IJ(J, 0, 1) = 0.43, IJ(J, 0, 2) = 8.32;
    IJ(J, 1, 0) = 1.71, IJ(J, 1, 1) = -8.75;
    IJ(J, 2, 2) = -10.03, IJ(J, 2, 3) = 0.43, IJ(J, 2, 4) = 0.035;
    IJ(J, 3, 1) = 8.32, IJ(J, 3, 2) = 1.71, IJ(J, 3, 3) = -1.12;
    IJ(J, 4, 4) = -1.745, IJ(J, 4, 5) = 0.43, IJ(J, 4, 6) = 0.43;
    IJ(J, 5, 3) = 0.69, IJ(J, 5, 4) = 1.71, IJ(J, 5, 5) = -280 * y[7] - 0.43, IJ(J, 5, 6) = 0.69;
    IJ(J, 5, 7) = -280 * y[5];
    IJ(J, 6, 5) = 280 * y[7], IJ(J, 6, 6) = -1.81, IJ(J, 6, 7) = 280 * y[5];
    IJ(J, 7, 5) = -280 * y[7], IJ(J, 7, 6) = 1.81, IJ(J, 7, 7) = -280 * y[5];
    return 0;
}

/* ------------------------------------------------------------------ OREGO */
static int orego_f(double t, N_Vector Y, N_Vector F, void *ud)
{
    const double *y = N_VGetArrayPointer(Y);
    double *f = N_VGetArrayPointer(F);
    (void)t, (void)ud;
    f[0] = 77.27 * (y[1] + y[0] * (1 - 8.375e-6 * y[0] - y[1]));
    f[1] = (y[2] - (1 + y[0]) * y[1]) / 77.27;
    f[2] = 0.161 * (y[0] - y[2]);
    return 0;
}

static int orego_j(double t, N_Vector Y, N_Vector F, SUNMatrix J, void *ud, N_Vector a, N_Vector b, N_Vector c)
{
    const double *y = N_VGetArrayPointer(Y);
    (void)t, (void)F, (void)ud, (void)a, (void)b, (void)c;
    IJ(J, 0, 0) = 77.27 * (1 - 2 * 8.375e-6 * y[0] - y[1]);
    IJ(J, 0, 1) = 77.27 * (1 - y[0]);
    IJ(J, 0, 2) = 0;
    IJ(J, 1, 0) = -y[1] / 77.27;
    IJ(J, 1, 1) = -(1 + y[0]) / 77.27;
    IJ(J, 1, 2) = 1 / 77.27;
    IJ(J, 2, 0) = 0.161;
    IJ(J, 2, 1) = 0;
    IJ(J, 2, 2) = -0.161;
    return 0;
}

static const Problem PROBLEMS[] = {
    {"rober40", 3, 40, {0.04, 3e7, 1e4}, {1, 0, 0}, rober_f, rober_j},
    {"rober1e11", 3, 1e11, {0.04, 3e7, 1e4}, {1, 0, 0}, rober_f, rober_j},
    {"vdp_mu1e3", 2, 2, {1e-6}, {2, 0}, vdp_f, vdp_j},
    {"vdp_mu1e6", 2, 2, {1e-12}, {2, 0}, vdp_f, vdp_j},
    {"hires", 8, 321.8122, {0}, {1, 0, 0, 0, 0, 0, 0, 0.0057}, hires_f, hires_j},
    {"orego", 3, 360, {0}, {1, 2, 3}, orego_f, orego_j},
    {"vdp100", 2, 100, {100}, {2, 0}, vdpmu_f, vdpmu_j},
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int fail(const char *what, int flag)
{
    fprintf(stderr, "cvode_peer: %s failed (%d)\n", what, flag);
    return 1;
}

/* CVODE set up once for a problem (per thread in a scan: a system is then
 * only CVodeReInit, as a user looping over systems would do). */
typedef struct Solver {
    SUNContext ctx;
    N_Vector Y;
    SUNMatrix A;
    SUNLinearSolver LS;
    void *mem;
} Solver;

static int solver_open(Solver *S, const Problem *P, double rtol, double atol)
{
    if (SUNContext_Create(NULL, &S->ctx)) return fail("SUNContext_Create", -1);
    S->Y = N_VNew_Serial(P->n, S->ctx);
    for (int i = 0; i < P->n; i++) NV_Ith_S(S->Y, i) = P->y0[i];
    S->mem = CVodeCreate(CV_BDF, S->ctx);
    S->A = SUNDenseMatrix(P->n, P->n, S->ctx);
    S->LS = SUNLinSol_Dense(S->Y, S->A, S->ctx);
    int flag = CVodeInit(S->mem, P->rhs, 0.0, S->Y);
    if (!flag) flag = CVodeSStolerances(S->mem, rtol, atol);
    if (!flag) flag = CVodeSetLinearSolver(S->mem, S->LS, S->A);
    if (!flag) flag = CVodeSetJacFn(S->mem, P->jac);
    if (!flag) flag = CVodeSetMaxNumSteps(S->mem, 1000000);
    return flag ? fail("CVODE's set-up", flag) : 0;
}

static void solver_close(Solver *S)
{
    CVodeFree(&S->mem);
    SUNLinSolFree(S->LS);
    SUNMatDestroy(S->A);
    N_VDestroy(S->Y);
    SUNContext_Free(&S->ctx);
}

/* One integration of P with parameters p from its y0 to its t_end; the end
 * state into y, CVODE's counters into steps, rhs, jac.  Returns 0 when CVODE
 * reached t_end. */
static int solve(Solver *S, const Problem *P, double *p, double *y, long *steps, long *rhs, long *jac)
{
    for (int i = 0; i < P->n; i++) NV_Ith_S(S->Y, i) = P->y0[i];
    int flag = CVodeReInit(S->mem, 0.0, S->Y);
    if (!flag) flag = CVodeSetUserData(S->mem, p);
    if (!flag) flag = CVodeSetStopTime(S->mem, P->t_end);
    double t = 0;
    if (!flag) flag = CVode(S->mem, P->t_end, S->Y, &t, CV_NORMAL);
    int rc = flag < 0 ? fail("CVode", flag) : 0;
    for (int i = 0; i < P->n; i++) y[i] = NV_Ith_S(S->Y, i);
    CVodeGetNumSteps(S->mem, steps);
    CVodeGetNumRhsEvals(S->mem, rhs);
    CVodeGetNumJacEvals(S->mem, jac);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: cvode_peer PROBLEM|rober_scan RTOL ATOL [N [TEND]]\n");
        return 2;
    }
    const double rtol = atof(argv[2]), abstol = atof(argv[3]);
    double y[NMAX];
    long steps, rhs, jac;
    if (!strcmp(argv[1], "rober_scan")) {
        if (argc < 5) return fail("rober_scan without N", 2);
        const long N = strtol(argv[4], NULL, 10);
        Problem P = PROBLEMS[0];
        if (argc > 5) P.t_end = atof(argv[5]);
        long all_steps = 0, bad = 0;
        double sum = 0;
        const double t0 = now();
#pragma omp parallel reduction(+ : all_steps, bad, sum) private(y, steps, rhs, jac)
        {
            Solver S;
            if (solver_open(&S, &P, rtol, abstol)) bad += N;
#pragma omp for schedule(dynamic, 64)
            for (long i = 0; i < N; i++) {
                double k[3] = {0.02 + (N > 1 ? 0.04 * i / (N - 1) : 0), 3e7, 1e4};
                bad += solve(&S, &P, k, y, &steps, &rhs, &jac) != 0;
                all_steps += steps;
                sum += y[2];
            }
            solver_close(&S);
        }
        const double s = now() - t0;
        int threads = 1;
#ifdef _OPENMP
        threads = omp_get_max_threads();
#endif
        printf("systems %ld\nthreads %d\nsteps %ld\nseconds %.6g\nsystems_per_s %.6g\nsum_y3 %.17g\nfailed %ld\n", N,
               threads, all_steps, s, N / s, sum, bad);
        return bad != 0;
    }
    for (size_t k = 0; k < sizeof PROBLEMS / sizeof PROBLEMS[0]; k++) {
        if (strcmp(argv[1], PROBLEMS[k].name)) continue;
        const Problem *P = &PROBLEMS[k];
        double p[3] = {P->p[0], P->p[1], P->p[2]};
        Solver S;
        if (solver_open(&S, P, rtol, abstol)) return 1;
        const double t0 = now();
        int rc = solve(&S, P, p, y, &steps, &rhs, &jac);
        const double s = now() - t0;
        solver_close(&S);
        for (int i = 0; i < P->n; i++) printf("y%d %.17g\n", i + 1, y[i]);
        printf("steps %ld\nrhs %ld\njac %ld\nseconds %.6g\n", steps, rhs, jac, s);
        return rc;
    }
    fprintf(stderr, "cvode_peer: unknown problem '%s'\n", argv[1]);
    return 2;
}
