/* layout.c — who integrates one system (`@ layout`, `@ team`; templates/team.h):
 * one thread (the model written out, a system in registers), or a team of
 * threads over the model in loop form, the team a warp's lanes (2 … 32) or a
 * whole block (32 … 1024 threads).  A model whose arrays stay loops
 * (front/expand.c) is already in loop form: each lane computes its indices of
 * an array line; one written out gets one lane per scalar equation.
 *
 * The rule when the file names no layout (docs/large.md), from bench/team.sh's
 * measurements on an H100 (2026-11-27): one thread per system for a model
 * written out with at most 64 events (registers pay: the 16-state Duffing
 * chain runs 19x faster in one thread than in a warp of 4); a team for a
 * model in loop form (arrays kept: front/expand.h) or with more than 64
 * events (a thread's limit), with about STATES_PER_LANE states per lane: the
 * smallest power of two >= states / STATES_PER_LANE, at least 32 and at most
 * 1024; a warp when that is 32, else a block (a model in loop form with
 * fewer than TEAM_MIN_STATES states stays one thread).  Since stencils run in
 * tiles and a lane's arrays stay in registers (emit_tile.c, team_system.h;
 * H100, 2026-11-27) those teams give the Duffing chain 2.2e11, 2.7e11, 2.5e11
 * and 2.1e11 state-steps per second at 64, 256, 1024 and 4096 states (one
 * thread at 16 states: 4.8e11; written out at 64 states: 2.4e10, which is why
 * check.c tries arrays that make 64 states as loops).  The measurements that
 * set the rule, before tiles: in loop form one thread
 * walks every array line alone (the chain of 1024 states: 8.5e9 state-steps
 * per second one thread per system, 5.7e10 in a block of 128; at 4096 states
 * one thread per system does not fit the GPU's local memory), and at 8
 * states per lane the teams were the fastest measured at 256, 1024 and 4096
 * states (a warp of 32, a block of 128, a block of 512: 6.1e10, 5.6e10 and
 * 5.0e10 state-steps per second over 2^16, 2^16 and 2^14 systems); at 128
 * states the rule's warp of 32 gave 4.3e10 where a block of 128 gave 8.4e10
 * (at 256 states that block was 2.4x slower than the warp: no rule by size
 * alone fits both; bench/BENCHMARKS.md).  Unless the model
 * needs one thread (one_thread_only below): then one thread, in loop form.
 * `@ team=N` alone picks the team's size with the rule's layout for it.
 * A scan the file declares of at most SMALL_SCAN systems gives a model of
 * 24 states or more a team (team_by_rule below); a scan given at run time
 * (`--scan`, the library) keeps the layout built, so a small one there asks
 * for `@ layout=…, team=N` (docs/large.md).
 * Teams of 2 or 4 lanes for a small model were slower than one thread at
 * every scan measured (part D: the valve, Keller–Miksis): the rule keeps
 * one thread there.
 */
#include "check/checker.h"
#include "check/method.h"
#include "front/diag.h"

#define STATES_PER_LANE 8
/* A model in loop form with fewer states (a special over a few units) stays
 * one thread: a team would leave most of its 32 lanes idle. */
#define TEAM_MIN_STATES 64

static int pow2_at_least(int n)
{
    int p = 1;
    while (p < n && p < 1024) p *= 2;
    return p;
}

/* What keeps a model one system per thread, each with the line that asks for
 * it, in the order of the messages: lyapunov, period or attractor (computed
 * one system per thread: tangent.h, period.h), a map (map.h iterates one
 * system per thread), noise (noise.h's draws and sde.h's steps are written
 * for one thread), delays (their past lives in integrate.h's rings, delay.h),
 * XPPAUT's globals (firing.h's rules: carried across zero by other events'
 * statements, global 0).  The team integrator has none of them.  Returns
 * their number. */
typedef struct OneThread {
    const char *what;
    Loc at;
} OneThread;

#define ONE_THREAD_MAX 5

static int one_thread_only(const Model *m, Loc at, OneThread out[ONE_THREAD_MAX])
{
    int n = 0;
    if (m->nlyap || m->period_field || m->attractor_field)
        out[n++] = (OneThread){m->nlyap ? "lyapunov is computed one system per thread"
                               : m->period_field ? "period is computed one system per thread"
                                                 : "attractor is computed one system per thread",
                               m->nlyap ? m->lyap_loc : m->period_field ? m->period_loc : m->attractor_loc};
    if (m->method == METH_DISCRETE)
        out[n++] = (OneThread){"a map (meth=discrete) is iterated one system per thread",
                               m->map_loc.line ? m->map_loc : m->method_loc.line ? m->method_loc : at};
    if (model_has_noise(m)) out[n++] = (OneThread){"noise (wiener, ran, normal, markov) is drawn one system per thread", at};
    if (m->ndelay) out[n++] = (OneThread){"delay(…) keeps each system's past one system per thread", m->delay_loc};
    for (int i = 0; i < m->nevent; i++)
        if (m->events[i].is_global) {
            out[n++] = (OneThread){"a global fires by XPPAUT's rules (carried across zero by statements, global 0) "
                                   "one system per thread only", m->events[i].sym->loc};
            break;
        }
    return n;
}

/* The systems of the scan the file declares (the product of its `scan` lines),
 * 0 where it declares none: the runner's default scan, which `--scan` and the
 * library may replace. */
double scan_systems(const Model *m)
{
    if (!m->nscan) return 0;
    double product = 1;
    for (int i = 0; i < m->nscan; i++) product *= (double)m->scans[i].n;
    return product;
}

/* The rule's team for a model that a team can integrate (1: one thread).
 * By the model's size: a team of about STATES_PER_LANE states per lane for a
 * model in loop form of TEAM_MIN_STATES states or more, or with more than 64
 * events; else one thread.  A declared scan of at most SMALL_SCAN systems
 * (a fraction of a wave: one thread per system leaves most multiprocessors
 * idle) of a model with SMALL_SCAN_MIN_STATES states or more gets a team
 * where the size alone gives one thread — a warp of 32 — and one of about
 * 2 states per lane where it has at most FEW_SYSTEMS systems (at least 32
 * lanes, at most FEW_SYSTEMS_LANES: the chain of 1024 states over 3 … 128
 * systems ran 1.97 ms in a block of 256, 2.15 in the size's block of 128,
 * 2.19 in a block of 512; at 4096 states a block of 1024 beat the size's
 * block of 512 by 7 % only, 5.89 against 6.34 ms; H100).  Measured on an H200 (bench/BENCHMARKS.md, the fifth
 * session of 2026-11-27; kernel ms at 32 / 512 / 2048 / 8192 systems, RK4
 * or RKCK45 over 4 forcing periods):
 * MPGOS's ring of 14 units (28 states, RKCK45, 14 events) one thread
 * 2.59 / 3.14 / 3.26 / 3.14, a warp of 32 over the loops 0.84 / 0.88 /
 * 0.95 / 3.73; the 16-state chain (RK4) one thread 1.73 / 1.85 / 1.85 /
 * 1.86, its best team 2.73 / 2.75 / 3.02 / 6.92 (so 16 states stay one
 * thread: the cut lies between 16 and 28); the chain of 256 states a block
 * of 128 1.26 ms at 32 and 128 systems, the rule's warp of 32 1.74 (from 512
 * systems the warp wins).  The stiff methods keep the size's rule (their
 * teams, not measured on small scans, were 2.8-10x slower on full ones),
 * and what a team cannot integrate (constraints, XPPAUT's symplectic
 * method: dae.c, symplectic.c) one thread. */
#define SMALL_SCAN 4096
#define FEW_SYSTEMS 128
#define FEW_SYSTEMS_LANES 256
#define SMALL_SCAN_MIN_STATES LAYOUT_SMALL_SCAN_STATES   /* (check.c tries arrays as loops from there) */

static int team_by_rule(const Model *m, double systems)
{
    int t = 1;
    if (m->nevent > 64 || (m->arrays_kept && m->nstate >= TEAM_MIN_STATES)) {
        t = pow2_at_least((m->nstate + STATES_PER_LANE - 1) / STATES_PER_LANE);
        if (t < 32) t = 32;
    }
    const bool small_scan = systems >= 1 && systems <= SMALL_SCAN && m->nstate >= SMALL_SCAN_MIN_STATES &&
                            !method_is_rosenbrock(m->method) && m->method != METH_SYMPLECTIC && !m->nalg;
    if (!small_scan) return t;
    if (systems <= FEW_SYSTEMS) {
        int few = pow2_at_least((m->nstate + 1) / 2);
        if (few < 32) few = 32;
        if (few > FEW_SYSTEMS_LANES) few = FEW_SYSTEMS_LANES;
        if (few > t) t = few;
    }
    return t < 32 ? 32 : t;
}

const char *team_cannot(const Model *m)
{
    OneThread why[ONE_THREAD_MAX];
    return one_thread_only(m, m->layout_loc, why) ? why[0].what : NULL;
}

void choose_layout(Checker *c)
{
    Model *m = c->m;
    const Loc at = m->layout_loc.line ? m->layout_loc : m->team_loc.line ? m->team_loc : c->last_loc;
    m->layout_from_rule = m->layout < 0;
    if (m->layout < 0) {
        if (m->team > 1) m->layout = m->team <= 32 ? LAYOUT_WARP : LAYOUT_BLOCK;
        else if (m->team == 1 || team_cannot(m))
            m->layout = LAYOUT_THREAD;
        else {
            const double systems = scan_systems(m);
            const int t = team_by_rule(m, systems), by_size = team_by_rule(m, 0);
            m->layout = t == 1 ? LAYOUT_THREAD : t == 32 ? LAYOUT_WARP : LAYOUT_BLOCK;   /* (past 64 events: check.c says why) */
            if (t > 1) m->team = t;
            if (t != by_size)   /* the layout depends on the declared scan: say so, and what a large one would want */
                note_at(m->scans[0].loc,
                        "a %s of %d threads integrates each system: the layout for this file's scan of %.0f system%s, "
                        "which fills only a part of the GPU; a scan of many thousands (--scan) runs faster in the "
                        "layout for the model's size, %s (docs/large.md)",
                        t <= 32 ? "warp" : "block", t, systems, systems == 1 ? "" : "s",
                        by_size == 1 ? "@ layout=thread"
                                     : arena_printf("@ layout=%s, team=%d", by_size <= 32 ? "warp" : "block", by_size));
        }
    }
    switch (m->layout) {
    case LAYOUT_THREAD:
        if (m->team > 1) error_at(m->team_loc, "team=%d: layout=thread integrates a system by one thread", m->team);
        m->team = 1;
        break;
    case LAYOUT_WARP:
        if (!m->team) m->team = 32;
        if (m->team < 2 || m->team > 32 || (m->team & (m->team - 1)))
            error_at(m->team_loc.line ? m->team_loc : at, "team=%d: a warp's team has 2, 4, 8, 16 or 32 lanes", m->team);
        break;
    default:
        if (!m->team) {
            m->team = pow2_at_least((m->nstate + STATES_PER_LANE - 1) / STATES_PER_LANE);
            if (m->team < 32) m->team = 32;
        }
        if (m->team < 32 || m->team > 1024 || m->team % 32)
            error_at(m->team_loc.line ? m->team_loc : at, "team=%d: a block's team is a multiple of 32 threads, at most 1024",
                     m->team);
        break;
    }
    m->loop_form = m->layout != LAYOUT_THREAD;
    OneThread why[ONE_THREAD_MAX];
    const int nwhy = m->loop_form ? one_thread_only(m, at, why) : 0;
    for (int k = 0; k < nwhy; k++)
        error_at(why[k].at, "%s: it needs @ layout=thread (this model's layout is %s%s)", why[k].what,
                 m->layout == LAYOUT_WARP ? "warp" : "block", m->layout_from_rule ? ", by the rule for its size" : "");
}
