/* sides.h — the two sides of test_integrate.c (run_written.c, run_team.c). */
#ifndef TEAM_SIDES_H
#define TEAM_SIDES_H
#include <stddef.h>
typedef struct ScanSpec {
    int n, vary;                  /* systems; the parameter spread over [lo, hi] */
    double lo, hi, total;         /* and each integration's length */
    int transient, record;
} ScanSpec;
size_t written_run(const ScanSpec *spec, double *out);
/* Of the last written_run: accessory k of a system, its accepted steps (a test's own checks). */
double written_acc(int system, int k);
double written_steps(int system);
/* size 0: the CPU path (cpu_loop.h); else an emulated team, lanes in `order`. 0 when it failed. */
size_t team_run(const ScanSpec *spec, int size, int order, double *out);
#endif
