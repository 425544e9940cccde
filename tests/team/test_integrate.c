/* test_integrate.c — the team integrator (team_*.h) against the per-thread
 * integrator (integrate.h) on the same model, loop form against written out
 * (MODEL_LOOP, MODEL_WRITTEN): every result of a scan (end states,
 * accessories, statuses, steps, evaluations, every recorded field).
 *
 * EXACT 1 (a model without reductions): every team size gives the per-thread
 * bits.  EXACT 0: a team of one and the CPU path give them; larger teams sum
 * in another order and agree within TOL; every team gives the same bits with
 * its lanes in either order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sides.h"

#ifndef TOL
#define TOL 1e-7
#endif

int main(void)
{
    const ScanSpec spec = SPEC;
    const size_t cap = 1 << 22;
    double *ref = calloc(cap, sizeof(double)), *res = calloc(cap, sizeof(double)), *fwd = calloc(cap, sizeof(double));
    if (!ref || !res || !fwd) return 2;
    const size_t n = written_run(&spec, ref);
    int failures = 0;
#ifdef EXPECT
#define TEXT_OF(x) #x
#define TEXT(x) TEXT_OF(x)
    /* what the comparison needs to mean something (events fired, steps taken) */
    if (!(EXPECT)) {
        printf("FAIL: the per-thread run does not show %s\n", TEXT(EXPECT));
        failures++;
    }
#endif
#ifndef SIZES
#define SIZES 0, 1, 2, 4, 32, 64
#endif
    const int sizes[] = {SIZES};   /* 0: the CPU path; 64: two warps (a block's reduction) */
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        for (int order = 0; order < (sizes[s] > 1 ? 2 : 1); order++) {
            const size_t m = team_run(&spec, sizes[s], order, res);
            if (m != n) {
                printf("FAIL: team of %d: %zu results, %zu expected\n", sizes[s], m, n);
                failures++;
                continue;
            }
            size_t differ = 0;
            double worst = 0;
            for (size_t k = 0; k < n; k++) {
                if (memcmp(&res[k], &ref[k], sizeof(double))) differ++;
                const double d = fabs(res[k] - ref[k]) / (1 + fabs(ref[k]));
                if (d > worst || d != d) worst = d;
            }
            const int exact = EXACT || sizes[s] <= 1;
            const char *who = sizes[s] ? "team" : "CPU path (team of one)";
            if (exact ? differ != 0 : !(worst <= TOL)) {
                printf("FAIL: %s of %d, order %d: %zu of %zu results differ from per-thread, by up to %.3g%s\n", who,
                       sizes[s], order, differ, n, worst, exact ? " (must be the same bits)" : "");
                failures++;
            } else {
                printf("   %s of %d, order %d: %s (%zu of %zu results not the same bits, largest difference %.3g)\n",
                       who, sizes[s], order, exact ? "the same bits" : "agrees", differ, n, worst);
            }
            if (order == 0) memcpy(fwd, res, n * sizeof(double));
            else if (memcmp(fwd, res, n * sizeof(double))) {
                printf("FAIL: team of %d: the lanes' order changed the bits (a missing barrier)\n", sizes[s]);
                failures++;
            }
        }
    }
    printf("%s: %s\n", NAME, failures ? "FAILED" : "passed");
    return failures != 0;
}
