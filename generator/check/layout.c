/* layout.c — who integrates one system (`@ layout`, `@ team`; templates/team.h):
 * one thread (the model written out, a system in registers), or a team of
 * threads over the model in loop form, the team a warp's lanes (2 … 32) or a
 * whole block (32 … 1024 threads).  A model whose arrays stay loops
 * (front/expand.c) is already in loop form: each lane computes its indices of
 * an array line; one written out gets one lane per scalar equation.
 *
 * The rule when the file names no layout (docs/large.md): one thread per
 * system, unless the model has more than 64 events (a thread's limit), then
 * a team with about STATES_PER_LANE states per lane: the smallest power of
 * two >= states / STATES_PER_LANE, at least 32 and at most 1024; a warp when
 * that is 32, else a block.  A team for a model that fits one thread is
 * asked for with @ layout (bench/team.sh measures where it pays; the rule
 * follows those measurements once they are made on a GPU).
 * `@ team=N` alone picks the team's size with the rule's layout for it.
 * A scan far smaller than a wave of threads can run faster with teams of a
 * few lanes (each step's chain of dependent operations shortened): that is
 * measured by bench/team.sh (part D) and asked for with `@ layout=warp,
 * team=N`; the rule does not guess it.
 */
#include "check/checker.h"
#include "front/diag.h"

#define STATES_PER_LANE 4

static int pow2_at_least(int n)
{
    int p = 1;
    while (p < n && p < 1024) p *= 2;
    return p;
}

/* What keeps a model one system per thread, each with the line that asks for
 * it, in the order of the messages: lyapunov or period (computed one system
 * per thread), noise (noise.h's draws and sde.h's steps are written for one
 * thread), delays (their past lives in integrate.h's rings, delay.h), XPPAUT's
 * globals (firing.h's rules: carried across zero by other events' statements,
 * global 0).  The team integrator has none of them.  Returns their number. */
typedef struct OneThread {
    const char *what;
    Loc at;
} OneThread;

static int one_thread_only(const Model *m, Loc at, OneThread out[4])
{
    int n = 0;
    if (m->nlyap || m->period_field)
        out[n++] = (OneThread){m->nlyap ? "lyapunov is computed one system per thread"
                                        : "period is computed one system per thread",
                               m->nlyap ? m->lyap_loc : m->period_loc};
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

const char *team_cannot(const Model *m)
{
    OneThread why[4];
    return one_thread_only(m, m->layout_loc, why) ? why[0].what : NULL;
}

void choose_layout(Checker *c)
{
    Model *m = c->m;
    const Loc at = m->layout_loc.line ? m->layout_loc : m->team_loc.line ? m->team_loc : c->last_loc;
    m->layout_from_rule = m->layout < 0;
    if (m->layout < 0) {
        if (m->team > 1) m->layout = m->team <= 32 ? LAYOUT_WARP : LAYOUT_BLOCK;
        else if (m->team == 1 || m->nevent <= 64 || team_cannot(m)) m->layout = LAYOUT_THREAD;   /* (check.c says why) */
        else {
            int t = pow2_at_least((m->nstate + STATES_PER_LANE - 1) / STATES_PER_LANE);
            if (t < 32) t = 32;
            m->layout = t == 32 ? LAYOUT_WARP : LAYOUT_BLOCK;
            if (!m->team) m->team = t;
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
    OneThread why[4];
    const int nwhy = m->loop_form ? one_thread_only(m, at, why) : 0;
    for (int k = 0; k < nwhy; k++)
        error_at(why[k].at, "%s: it needs @ layout=thread (this model's layout is %s%s)", why[k].what,
                 m->layout == LAYOUT_WARP ? "warp" : "block", m->layout_from_rule ? ", by the rule for its size" : "");
}
