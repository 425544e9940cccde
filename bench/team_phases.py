#!/usr/bin/env python3
"""bench/team_phases.py — times a team kernel phase by phase.

    python3 bench/team_phases.py GEN/NAME.cu        (rewrites the file in place)

Patches a generated source whose model runs in a team layout (`@ layout=warp|block`) with
clock64() timers around each phase of one step of templates/team_integrate.h (the trial, the
error ratio, f at the step's end, the extension, the event functions, the bound that spares the
scan, the scan, the location, the redone steps, accepting) and of the whole integration: lane 0
of each team adds the cycles into global counters, and the last block to finish prints them
(`PROF phase n=CALLS cycles=TOTAL per=PER-CALL`).  Build and run the patched source as
bench/team.sh does (nvcc -c NAME.cu, then bench/bench_model.c); the timers themselves cost
10–15 % of the kernel's time.  bench/BENCHMARKS.md's table "a step timed phase by phase" came
from it (MPGOS's ring, RKCK45, an event per unit).  Each place it patches must be found exactly
once: a template that changed shape stops it with the place it missed (tests/team/run.sh checks
that it still applies).
"""
import sys

if len(sys.argv) != 2:
    sys.exit("usage: team_phases.py GEN/NAME.cu   (a generated source in a team layout; rewritten in place)")
PATH = sys.argv[1]
src = open(PATH).read()


def rep(old, new):
    """old, found exactly once, becomes new."""
    global src
    n = src.count(old)
    if n != 1:
        sys.exit("team_phases.py: %s: the place %r found %d times (once expected): not a team kernel, or "
                 "templates/team_*.h changed shape" % (PATH, old.strip().splitlines()[0][:70], n))
    src = src.replace(old, new)


hdr = r'''
#include <stdio.h>
#if defined(__CUDACC__)
__device__ unsigned long long ode_prof_acc[16], ode_prof_n[16];
__device__ unsigned int ode_prof_done;
#endif
#if defined(__CUDA_ARCH__)
#define PB(k) long long _pb##k = clock64()
#define PE(k) do { if (threadIdx.x % ODE_TEAM_SIZE == 0) { atomicAdd(&ode_prof_acc[k], (unsigned long long)(clock64() - _pb##k)); atomicAdd(&ode_prof_n[k], 1ull); } } while (0)
#else
#define PB(k) (void)0
#define PE(k) (void)0
#endif
'''
# before team_system.h (the functions that use the timers follow it)
rep('#ifndef ODE_TEAM_SYSTEM_H', hdr + '#ifndef ODE_TEAM_SYSTEM_H')
rep('''            ode_team_trial(c, t, hs, have_f, &st, ynew, err, &ts);
            evals += ODE_TRIAL_EVALS(have_f);
            have_f = 1;
            const ode_real ratio = ode_team_error_ratio(c, ode_opt, ynew, err);''',
'''            PB(0); ode_team_trial(c, t, hs, have_f, &st, ynew, err, &ts); PE(0);
            evals += ODE_TRIAL_EVALS(have_f);
            have_f = 1;
            PB(1); const ode_real ratio = ode_team_error_ratio(c, ode_opt, ynew, err); PE(1);''')
rep('''        int inside = ode_team_inside(c, ode_opt, ynew);
        if (!inside) {''', '''        PB(2); int inside = ode_team_inside(c, ode_opt, ynew); PE(2);
        if (!inside) {''')
rep('''            ode_team_rk_end(c, t, hs, ynew, &st);
            evals++;''', '''            PB(3); ode_team_rk_end(c, t, hs, ynew, &st); PE(3);
            evals++;''')
rep('''        ode_team_dense_make(c, t, hs, ynew, &st, &D);
        evals += ODE_NEXTRA;''', '''        PB(4); ode_team_dense_make(c, t, hs, ynew, &st, &D); PE(4);
        evals += ODE_NEXTRA;''')
rep('''        ode_team_put(c, ynew, ODE_TW(c, YT));
        ode_team_events_eval(c, tnew, ODE_TW(c, YT), gn);
        ode_real hl = hs;
        const int fired = ode_team_events_step(c, t, &hl, ynew, &st, &D, g, gn, &ts, &evals);''',
'''        PB(5); ode_team_put(c, ynew, ODE_TW(c, YT));
        ode_team_events_eval(c, tnew, ODE_TW(c, YT), gn); PE(5);
        ode_real hl = hs;
        PB(6); const int fired = ode_team_events_step(c, t, &hl, ynew, &st, &D, g, gn, &ts, &evals); PE(6);''')
rep('''    if (ode_team_events_clear(c, t, *hstep, ynew, st, D, g0, gend)) {
        ode_team_arm_outside(c, gend);
        return 0;
    }
#endif
    if (!ode_team_event_scan(c, D, g0, gend, &br)) return 0;
    ode_real theta;
    const int located = ode_team_locate_dense(c, D, &br, &theta);
    if (theta >= ODE_R(1.0)) return located;''',
'''    PB(7); int _clr = ode_team_events_clear(c, t, *hstep, ynew, st, D, g0, gend); PE(7);
    if (_clr) {
        ode_team_arm_outside(c, gend);
        return 0;
    }
#endif
    PB(8); int _sc = ode_team_event_scan(c, D, g0, gend, &br); PE(8);
    if (!_sc) return 0;
    ode_real theta;
    PB(9); const int located = ode_team_locate_dense(c, D, &br, &theta); PE(9);
    if (theta >= ODE_R(1.0)) return located;''')
rep('''        ode_team_trial(c, t, hc, 1, st, yc, err, ts);
        *evals += ODE_TRIAL_EVALS(1);''', '''        PB(10); ode_team_trial(c, t, hc, 1, st, yc, err, ts); PE(10);
        *evals += ODE_TRIAL_EVALS(1);''')
rep('''        /* Accept. */
        t = tnew;''', '''        /* Accept. */
        PB(11);
        t = tnew;''')
rep('''        h = hnext;
    }
#if ODE_SAVE
    if (sink.slot >= 0 && ODE_TEAM_LEADER) ode_save_count(sink, nsample);''', '''        h = hnext;
        PE(11);
    }
#if ODE_SAVE
    if (sink.slot >= 0 && ODE_TEAM_LEADER) ode_save_count(sink, nsample);''')
rep('''            ode_team_integrate_sampled(c, &a->opt, sink);''', '''            PB(12); ode_team_integrate_sampled(c, &a->opt, sink); PE(12);''')
# the kernel's end: the last block prints
rep('''        if (!a.queue) i += teams;
    }
}''', '''        if (!a.queue) i += teams;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        unsigned int d = atomicAdd(&ode_prof_done, 1u);
        if (d == gridDim.x - 1) {
            __threadfence();
            const char *nm[13] = {"trial", "err", "inside", "rk_end", "dense", "ev_eval", "ev_step", "clear", "scan", "locate", "redo1", "accept", "total"};
            for (int k = 0; k < 13; k++) printf("PROF %-8s n=%llu cycles=%llu per=%.0f\\n", nm[k], ode_prof_n[k], ode_prof_acc[k], ode_prof_n[k] ? (double)ode_prof_acc[k] / ode_prof_n[k] : 0.0);
            for (int k = 0; k < 16; k++) { ode_prof_acc[k] = 0; ode_prof_n[k] = 0; }
            ode_prof_done = 0;
        }
    }
}''')
open(PATH, 'w').write(src)
