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

const char *team_cannot(const Model *m)
{
    if (m->nlyap) return "lyapunov is computed one system per thread";
    if (m->period_field) return "period is computed one system per thread";
    if (model_has_noise(m)) return "its noise is drawn one system per thread";
    if (m->ndelay) return "delay(…) keeps each system's past one system per thread";
    for (int i = 0; i < m->nevent; i++)
        if (m->events[i].is_global) return "its globals fire by XPPAUT's rules one system per thread";
    return NULL;
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
    if (m->loop_form && (m->nlyap || m->period_field))
        error_at(m->nlyap ? m->lyap_loc : m->period_loc,
                 "%s is computed one system per thread: it needs @ layout=thread (this model's layout is %s%s)",
                 m->nlyap ? "lyapunov" : "period", m->layout == LAYOUT_WARP ? "warp" : "block",
                 m->layout_from_rule ? ", by the rule for its size" : "");
    /* The noise's draws and the SDE methods' steps (noise.h, sde.h) are
     * written for one system per thread; the team integrator has neither. */
    if (m->loop_form && model_has_noise(m))
        error_at(at, "noise (wiener, ran, normal, markov) is drawn one system per thread: it needs @ layout=thread "
                     "(this model's layout is %s%s)",
                 m->layout == LAYOUT_WARP ? "warp" : "block", m->layout_from_rule ? ", by the rule for its size" : "");
    /* The past of delay(…) lives in integrate.h's rings (delay.h), which the
     * team integrator has not. */
    if (m->loop_form && m->ndelay)
        error_at(m->delay_loc, "delay(…) keeps each system's past one system per thread: it needs @ layout=thread "
                               "(this model's layout is %s%s)",
                 m->layout == LAYOUT_WARP ? "warp" : "block", m->layout_from_rule ? ", by the rule for its size" : "");
    /* XPPAUT's globals fire by firing.h's rules (carried across zero by other
     * events' statements, `global 0`), which the team integrator lacks. */
    for (int i = 0; m->loop_form && i < m->nevent; i++)
        if (m->events[i].is_global) {
            error_at(m->events[i].sym->loc,
                     "a global fires by XPPAUT's rules (carried across zero by statements, global 0) one system "
                     "per thread only: it needs @ layout=thread (this model's layout is %s%s)",
                     m->layout == LAYOUT_WARP ? "warp" : "block", m->layout_from_rule ? ", by the rule for its size" : "");
            break;
        }
}
