/* cpu_loop.h — the CPU path: every system of a run on the host, in
 * parallel over systems with OpenMP, each by ode_cpu_system (driver.h: one
 * system per iteration; team_driver.h: a team of one per iteration).
 */
#ifndef ODE_CPU_LOOP_H
#define ODE_CPU_LOOP_H

#ifdef _OPENMP
#include <omp.h>
#endif

/* Runs every system of a on the host, in parallel over systems.  `report`
 * (may be NULL) is called now and then from the calling thread with the
 * number of systems done so far; once it returns non-zero, systems not yet
 * started are skipped and the result is 1 (else 0). */
static int ode_cpu_run(const OdeArrays *a, int transient, int record,
                       int (*report)(void *user, long done), void *user)
{
    long done = 0;
    int stop = 0;
#pragma omp parallel for schedule(dynamic, 8)
    for (int i = 0; i < a->n; i++) {
        int stopping;
#pragma omp atomic read
        stopping = stop;
        if (stopping) continue;
        ode_cpu_system(a, i, transient, record);
#pragma omp atomic
        done++;
#ifdef _OPENMP
        if (report && omp_get_thread_num() == 0) {
#else
        if (report) {
#endif
            long seen;
#pragma omp atomic read
            seen = done;
            if (report(user, seen)) {
#pragma omp atomic write
                stop = 1;
            }
        }
    }
    if (stop) return 1;
    if (report) report(user, a->n);
    return 0;
}

#endif /* ODE_CPU_LOOP_H */
